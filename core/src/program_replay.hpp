// Warm-program replay of small one-program launches (issue #30, docs/architecture.md "Per-call
// cost", seventh round).
//
// Algorithm: the first run of a program under a key (everything that decides its instruction
//   stream: see ReplayKey users, e.g. tile::launch_gemm) runs the normal kernel while a per-thread
//   Recorder notes, in order, every SBUF/PSUM allocation and free and every instruction with its
//   operands (the hooks at the top of OnChipMemory::alloc/free and of the supported NeuronCore
//   instructions). HBM operands are noted as (operand tensor, byte offset). A later run with the
//   same key replays that list against the new call's tensors: the same allocations through the
//   real allocator (so the same offsets, poison fills, dirty ranges and peaks), then the same
//   instruction calls with the HBM operands renamed to the new tensors. The kernel's driver (plan,
//   operand slots, epilogue rotation, heap blocks) does not run again.
// Engines: none of its own: every replayed instruction is the real NeuronCore instruction (checks,
//   element work, exact bytes, trace record, stochastic-rounding stream by instruction index), so
//   bits, traces and modeled times equal a cold run's.
// Accuracy: not applicable (host bookkeeping).
// Limits: a recording is kept only when every instruction of the program was one of the noted
//   kinds (dma_copy, nc_matmul, tensor_copy, tensor_scalar, tensor_tensor, memset: counted against
//   the core's instruction counter), every HBM operand lies in one of the call's tensors, and the
//   tensors' spans do not overlap; a program with any other instruction simply runs cold every
//   time. A recording is per thread and per core (its SBUF/PSUM storage); an exception during a
//   recorded or replayed run drops the entry.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "trn/core/neuron_core.hpp"

namespace trn::detail::replay {

// The HBM tensors a call may touch, in a fixed order the key also fixes (e.g. op(A) terms, op(B)
// terms, C): [lo, hi) is the byte span its shape and strides reach, data its element 0.
struct HbmOperand {
  const std::byte* data = nullptr;
  const std::byte* lo = nullptr;
  const std::byte* hi = nullptr;
};
HbmOperand hbm_operand(const HbmTensor& t);
// True when two operands' spans overlap (a recording could not tell them apart).
bool any_overlap(std::span<const HbmOperand> ops);

enum class Kind : std::uint8_t { alloc, free, dma_copy, nc_matmul, tensor_copy, tensor_scalar, tensor_tensor, memset };

// One noted allocation, free or instruction.
struct Event {
  Kind kind = Kind::alloc;
  MemSpace space = MemSpace::sbuf;  // alloc / free
  DType dtype = DType::f32;         // alloc
  AllocFill fill = AllocFill::poison;
  std::int32_t partitions = 0, partition_start = 0;
  int ndim = 0;
  std::int64_t shape[kMaxFreeDims] = {};
  std::string name;                 // alloc (error texts only)
  std::int64_t used_after = 0;      // alloc: the allocator's bytes in use after it (its peak on replay)
  // alloc with a poison fill: the first instruction that touches the tile writes the dense
  // rectangle `written` of it and reads none of it, so the replay fills only the rest (`rest`:
  // up to four rectangles {p0, rows, lo, bytes}) and leaves the same bytes (program_replay.cpp).
  bool first_touch_writes = false;
  std::int32_t rest[4][4] = {};      // {p0, rows, lo, bytes}: partitions and in-partition offsets (int32)
  int nrest = 0;
  // alloc: no instruction touches any byte of the tile before its free (a GEMM's spare operand
  // and epilogue slots of a one-tile problem); free: the free of such a tile. A placed replay
  // skips both (program_replay.cpp, mark_untouched_allocations).
  bool untouched = false;
  // Tile slots (dst first; tensor_scalar's scalar operands that are tiles in slots 2 and 3, its
  // immediates in imm, scalar_tile telling which). Slot k of an HBM operand: hbm[k] >= 0 names the
  // HBM operand it was renamed to (its byte offset is in the slot's base, relative to the
  // operand's data), -1 an on-chip tile kept as it was. The scalars in tile slots rather than as
  // two ScalarOperand members (128 bytes each): an event of a recorded program is ~0.6 KiB, not
  // ~0.85 (a process's second ssyevd 128 call first-touches every recorded event's pages).
  Tile t[4]{};
  float imm[2] = {0.0f, 0.0f};
  bool scalar_tile[2] = {false, false};
  std::int8_t hbm[4] = {-1, -1, -1, -1};
  bool accumulate = false, reverse0 = false, reverse1 = false;
  MatmulPerfMode perf_mode = MatmulPerfMode::none;
  Engine engine = Engine::vector;
  AluOp op0 = AluOp::bypass, op1 = AluOp::bypass;
  InstrOptions opt{};
  float value = 0.0f;
};

// One recorded program: its events and the core they ran on.
struct Program {
  std::vector<Event> events;
  const NeuronCore* core = nullptr;
  const std::byte* sbuf_storage = nullptr;
  const std::byte* psum_storage = nullptr;
  bool complete = false;  // every instruction noted, every HBM operand renamable
  // Both allocators held nothing when the recording began: a replay that finds them empty again
  // reaches every allocation in the recorded state, so each lands where it did (the first fit of the
  // same state and request) and is placed there directly (detail::place_next_alloc).
  bool starts_empty = false;
  // Per memory (0: SBUF, 1: PSUM), the largest `used_after` of the untouched allocations a placed
  // replay skips: folded into the peak through the first allocation it places in that memory, so
  // the allocator's peak (read after the program) is the recorded one. 0 when none is skipped.
  std::int64_t skipped_peak[2] = {0, 0};
};

// Runs body(nc) while recording into `out` (out.complete tells whether it may be replayed).
// Exceptions propagate (the recording is then incomplete).
template <class Body>
void record(NeuronCore& nc, std::span<const HbmOperand> ops, Program& out, Body&& body);

// Replays `p` on nc (the core it was recorded on) with HBM operands renamed to `ops`.
void replay(NeuronCore& nc, const Program& p, std::span<const HbmOperand> ops);

// ---- hooks (called first thing by the instructions and the allocator) ----------------------------
// Nonzero while some thread records: the hooks cost one load of this counter otherwise.
extern int g_recorders;
inline bool recording_anywhere() { return __atomic_load_n(&g_recorders, __ATOMIC_RELAXED) != 0; }
// Nonzero while some thread replays with placed allocations (detail::place_next_alloc): the
// allocator looks for a placement only then (one load of this counter otherwise).
extern int g_placing;
inline bool placing_anywhere() { return __atomic_load_n(&g_placing, __ATOMIC_RELAXED) != 0; }
void note_alloc(const OnChipMemory& m, DType dtype, std::int32_t partitions, std::initializer_list<std::int64_t> shape,
                std::string_view name, std::int32_t partition_start, AllocFill fill);
void note_alloc_result(const OnChipMemory& m, const Tile& t);
void note_free(const OnChipMemory& m, const Tile& t);
void note_reset(const OnChipMemory& m);  // inside a recording: not replayable
void note_dma_copy(const NeuronCore& nc, const Tile& dst, const Tile& src);
void note_nc_matmul(const NeuronCore& nc, const Tile& dst, const Tile& stationary, const Tile& moving, bool accumulate,
                    MatmulPerfMode perf_mode);
void note_tensor_copy(const NeuronCore& nc, const Tile& dst, const Tile& src, Engine engine, const InstrOptions& opt);
void note_tensor_scalar(const NeuronCore& nc, const Tile& dst, const Tile& src, AluOp op0, const ScalarOperand& s0,
                        AluOp op1, const ScalarOperand& s1, Engine engine, bool reverse0, bool reverse1,
                        const InstrOptions& opt);
void note_tensor_tensor(const NeuronCore& nc, const Tile& dst, const Tile& a, const Tile& b, AluOp op, Engine engine,
                        const InstrOptions& opt);
void note_memset(const NeuronCore& nc, const Tile& dst, float value, Engine engine);

// ---- recording scope (used by record) ---------------------------------------------------------
void begin_recording(NeuronCore& nc, std::span<const HbmOperand> ops, Program& out);
bool recording_on_this_thread();
void end_recording(bool ok);

template <class Body>
void record(NeuronCore& nc, std::span<const HbmOperand> ops, Program& out, Body&& body) {
  begin_recording(nc, ops, out);
  try {
    body(nc);
  } catch (...) {
    end_recording(false);
    throw;
  }
  end_recording(true);
}

}  // namespace trn::detail::replay
