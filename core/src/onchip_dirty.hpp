// Which on-chip bytes may differ from the allocation poison (memory.cpp): the core reports every
// SBUF/PSUM write region of an instruction here (NeuronCore::commit_instruction), so that a fresh
// allocation refills only the bytes written since they were last filled. Host speed only: the bytes
// a tile holds at allocation are the poison either way (docs/architecture.md "Per-call cost").
#pragma once
#include <cstdint>

#include "trn/core/memory.hpp"
#include "trn/core/trace.hpp"

namespace trn::detail {

// Per group of kGroup partitions, the byte ranges [lo, hi) that may differ from the allocation
// poison (written since they were last filled): at most kDirtyRanges disjoint, sorted ranges; when
// a write would make one more, the two ranges with the smallest gap between them become one (the
// gap counts as written: more fill later, never less). Kept after the partitions in the storage
// block (plain data, freed with it), so that OnChipMemory's layout is unchanged (memory.cpp).
// Groups rather than partitions: a write costs 4 updates, not up to 128. Separate ranges rather
// than one hull: a GEMM's tiles lie apart, and one hull made every allocation refill the bytes
// between the few each call writes.
struct DirtyRange {
  std::int64_t lo, hi;
};
inline constexpr int kDirtyRanges = 16;
struct DirtySet {
  std::int64_t n;  // ranges in use
  DirtyRange r[kDirtyRanges + 1];  // one spare: a set may hold kDirtyRanges + 1 before merge_closest
};
inline constexpr std::int32_t kGroup = 32;
inline constexpr std::int64_t kPadBytes = 64;  // OnChipMemory::kHostPartitionPadBytes (asserted in memory.cpp)

inline std::int64_t host_stride_of(const OnChipMemory& m) { return m.partition_bytes() + kPadBytes; }
inline DirtySet* dirty_sets(const OnChipMemory& m) {
  return reinterpret_cast<DirtySet*>(m.storage() + m.partitions() * host_stride_of(m));
}

// note_onchip_write's general form (memory.cpp): the region joins the dirty ranges of every group
// it reaches.
void note_onchip_write_ranges(OnChipMemory& m, const Region& r);

// An instruction wrote region r of m (an SBUF or PSUM region of the trace). A write whose bytes
// every partition group it reaches holds already in one of its ranges (a small call's instructions
// write the same few tiles over and over) changes nothing: that test inline, without the call (the
// general form's first test, add_dirty's, for each of its groups; ~50 host instructions per
// instruction of a small call went to the call). Every group, not only a write inside one: a write
// of 33-128 partitions (a 64-row gather, a 128-partition tile) took commit_instruction's general
// path, ~340 host instructions, for the same no-op (session 22).
// True when the write changes nothing (that test; false: ask note_onchip_write_ranges).
// The same test for a write reaching several groups (33-128 partitions: a 64-row gather, a
// 128-partition tile): every group it reaches must hold it. Out of line, asked only when the
// one-group test below says no, so that commit_instruction's fast path keeps its code.
[[gnu::noinline]] bool onchip_write_known_groups(const OnChipMemory& m, const Region& r);
// Every on-chip write region of `ins` known to the one-group or the several-group test.
[[gnu::noinline]] bool onchip_writes_known_groups(const Instruction& ins, const OnChipMemory& sbuf, const OnChipMemory& psum);
inline bool onchip_write_known(const OnChipMemory& m, const Region& r) {
  const auto lo = static_cast<std::int64_t>(r.lo), hi = static_cast<std::int64_t>(r.hi);
  if (lo < hi && r.p0 >= 0 && r.np >= 1 && r.p0 / kGroup == (r.p0 + r.np - 1) / kGroup &&
      r.p0 + r.np <= m.partitions()) {
    const DirtySet& d = dirty_sets(m)[r.p0 / kGroup];
    for (std::int64_t i = 0; i < d.n; ++i)
      if (d.r[i].lo <= lo && hi <= d.r[i].hi) return true;
  }
  return false;
}
inline void note_onchip_write(OnChipMemory& m, const Region& r) {
  if (!onchip_write_known(m, r) && !onchip_write_known_groups(m, r)) note_onchip_write_ranges(m, r);
}
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
