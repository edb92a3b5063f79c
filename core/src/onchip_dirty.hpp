// Which on-chip bytes may differ from the allocation poison (memory.cpp): the core reports every
// SBUF/PSUM write region of an instruction here (NeuronCore::commit_instruction), so that a fresh
// allocation refills only the bytes written since they were last filled. Host speed only: the bytes
// a tile holds at allocation are the poison either way (docs/architecture.md "Per-call cost").
#pragma once
#include "trn/core/memory.hpp"
#include "trn/core/trace.hpp"

namespace trn::detail {

// An instruction wrote region r of m (an SBUF or PSUM region of the trace).
void note_onchip_write(OnChipMemory& m, const Region& r);
// Anything in m may have been written (an instruction whose regions were not all recorded, or a
// program that stopped with an exception part-way through an instruction).
void note_onchip_write_all(OnChipMemory& m);
// The allocation poison into bytes [lo, lo + bytes) of partitions [p0, p0 + rows) of m (what an
// allocation's fill does, limited to the dirty ranges): for a replayed allocation whose tile the
// program overwrites in part before reading it (program_replay.cpp), the part it does not.
void poison_onchip(OnChipMemory& m, std::int32_t p0, std::int32_t rows, std::int64_t lo, std::int64_t bytes);
// The next m.alloc (of any outcome) places its tile at byte `offset` without the first-fit search,
// and the allocator's use becomes `used_after` bytes per partition (its peak follows). Only for
// program replay when the allocator provably holds the state it held when the program was recorded
// (program_replay.cpp): the same state and the same request give the same first fit. The block
// must still fit between its neighbours; otherwise the request takes the ordinary path.
void place_next_alloc(OnChipMemory& m, std::int64_t offset, std::int64_t used_after);

}  // namespace trn::detail
