// Internal helpers shared by the engine implementations: operand validation (every check names
// the instruction, the operand, the value and the limit) and row-wise access-pattern iteration
// (one partition row at a time through an fp32 or int64 scratch buffer, so the arithmetic is a
// plain vectorisable loop and the dtype switch happens once per row).
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "trn/core/neuron_core.hpp"
#include "trn/core/scratch.hpp"

namespace trn::detail {

// The free dimensions of t with size-1 dimensions dropped and dimensions that continue one another
// merged (same elements, same order), into size[] / stride[] (room for t.ndim); returns how many
// remain. The row copies (for_each_run) and the DMA's transposing paths fold views this way.
int fold_free_dims(const Tile& t, std::int64_t* size, std::int64_t* stride);

// Operand checks. Each is an inline test of the whole condition (on every instruction's path; a
// chain of out-of-line calls per operand was a fifth of a small call's host time) that, only when
// it fails, runs the *_checked form: the original sequence of checks, which throws the first
// failing one with its message. Same conditions, same order, same errors.
void require_mem_checked(std::string_view instr, std::string_view operand, const Tile& t,
                         std::initializer_list<MemSpace> allowed);
void require_partition_alignment_checked(std::string_view instr, std::string_view operand, const Tile& t,
                                         const HardwareSpec& hw);
void require_same_partitions_checked(std::string_view instr, std::string_view a_name, const Tile& a,
                                     std::string_view b_name, const Tile& b);
void require_same_free_size_checked(std::string_view instr, std::string_view a_name, const Tile& a,
                                    std::string_view b_name, const Tile& b);
void require_engine_free_size_checked(std::string_view instr, std::string_view operand, const Tile& t,
                                      const HardwareSpec& hw);
void require_nonempty_checked(std::string_view instr, std::string_view operand, const Tile& t);
void require_physical_partitions_checked(std::string_view instr, std::string_view operand, const Tile& t);
void check_engine_operand_checked(std::string_view instr, std::string_view operand, const Tile& t,
                                  const HardwareSpec& hw, Engine engine);

// dtype_size(t) as a table lookup, for the per-instruction paths of this library: the same values
// (1 for anything outside the enumeration, as the switch's default), where the switch compiles to a
// chain of bit tests and a record's operands ask for it several times each.
inline std::int64_t elem_bytes(DType t) {
  static constexpr auto kBytes = [] {
    std::array<std::int8_t, kDTypeCount> b{};
    for (int i = 0; i < kDTypeCount; ++i) b[static_cast<std::size_t>(i)] = static_cast<std::int8_t>(dtype_size(static_cast<DType>(i)));
    return b;
  }();
  const auto i = static_cast<std::size_t>(t);
  return i < kBytes.size() ? kBytes[i] : 1;
}

// Tile::free_size() inline (the same product), for the per-instruction paths of this library. One
// free dimension (a small call's rows and columns) skips the loop.
inline std::int64_t free_size_of(const Tile& t) {
  if (t.ndim == 1) [[likely]] return t.size[0];
  std::int64_t n = 1;
  for (int d = 0; d < t.ndim; ++d) n *= t.size[d];
  return n;
}
// Partition-start alignment of compute-engine operands (ARCH2):
// 64 < P <= 128 -> start 0; 32 < P <= 64 -> 0 or 64; P <= 32 -> 0, 32, 64 or 96.
// The quantum is a power of two, so s % quantum == 0 is a mask test (also for negative s: two's
// complement), without the division.
inline bool partition_alignment_ok(const Tile& t, const HardwareSpec& hw) {
  if (!t.on_chip()) return true;
  const int P = t.partitions, s = t.partition_start;
  const int quantum = P > 64 ? 128 : P > 32 ? 64 : 32;
  return P <= hw.pmax && s + P <= hw.pmax && (s & (quantum - 1)) == 0;
}

inline void require_mem(std::string_view instr, std::string_view operand, const Tile& t,
                        std::initializer_list<MemSpace> allowed) {
  for (auto m : allowed)
    if (t.mem == m) return;
  require_mem_checked(instr, operand, t, allowed);
}
inline void require_partition_alignment(std::string_view instr, std::string_view operand, const Tile& t,
                                        const HardwareSpec& hw) {
  if (!partition_alignment_ok(t, hw)) require_partition_alignment_checked(instr, operand, t, hw);
}
inline void require_same_partitions(std::string_view instr, std::string_view a_name, const Tile& a,
                                    std::string_view b_name, const Tile& b) {
  if (a.partitions != b.partitions) require_same_partitions_checked(instr, a_name, a, b_name, b);
}
inline void require_same_free_size(std::string_view instr, std::string_view a_name, const Tile& a,
                                   std::string_view b_name, const Tile& b) {
  if (free_size_of(a) != free_size_of(b)) require_same_free_size_checked(instr, a_name, a, b_name, b);
}
// VectorE/ScalarE/GpSimdE free-size limits: 64K elements from SBUF, 4K from PSUM (ARCH2).
inline void require_engine_free_size(std::string_view instr, std::string_view operand, const Tile& t,
                                     const HardwareSpec& hw) {
  const std::int64_t limit = t.mem == MemSpace::psum ? hw.vector_psum_fmax : hw.vector_sbuf_fmax;
  if (free_size_of(t) > limit) require_engine_free_size_checked(instr, operand, t, hw);
}
inline void require_nonempty(std::string_view instr, std::string_view operand, const Tile& t) {
  if (t.partitions < 1 || t.base == nullptr || free_size_of(t) < 1) require_nonempty_checked(instr, operand, t);
}
// Engines move data within partitions: a partition-broadcast view (stride 0) is a DMA source only.
inline void require_physical_partitions(std::string_view instr, std::string_view operand, const Tile& t) {
  if (t.is_partition_broadcast()) require_physical_partitions_checked(instr, operand, t);
}
// Common checks of an on-chip compute operand: memory space, alignment, non-empty, free-size limit.
// The whole condition of check_engine_operand (true: every check passes).
inline bool engine_operand_ok(const Tile& t, const HardwareSpec& hw, Engine engine) {
  const std::int64_t f = free_size_of(t);
  const bool mem_ok = engine == Engine::gpsimd ? t.mem == MemSpace::sbuf  // "GpSimd Engine cannot access PSUM"
                                               : t.mem == MemSpace::sbuf || t.mem == MemSpace::psum;
  const std::int64_t limit = t.mem == MemSpace::psum ? hw.vector_psum_fmax : hw.vector_sbuf_fmax;
  return t.partitions >= 1 && f >= 1 && t.base != nullptr && !t.is_partition_broadcast() && mem_ok &&
         partition_alignment_ok(t, hw) && f <= limit;
}
inline void check_engine_operand(std::string_view instr, std::string_view operand, const Tile& t,
                                 const HardwareSpec& hw, Engine engine) {
  if (engine_operand_ok(t, hw, engine)) return;
  check_engine_operand_checked(instr, operand, t, hw, engine);
}

// fp32 row access: element order is the tile's access-pattern order. fp32 / tf32 / bf16 rows are one walk
// of the folded dimensions; load_row_general is the per-run loop through load_row_f32 (any dtype),
// the reference the tests compare it with.
void load_row(const Tile& t, std::int32_t p, float* out);
void load_row_general(const Tile& t, std::int32_t p, float* out);
// Row p as fp32 for reading: a pointer into the tile itself when it is fp32 with a contiguous free
// range (no copy), else the row loaded into `scratch`.
const float* read_row_f32(const Tile& t, std::int32_t p, float* scratch);
// True when no byte of `a` can be a byte of `b` (different memory, partitions or byte ranges).
bool tiles_disjoint(const Tile& a, const Tile& b);
// tiles_disjoint(a, b) from the tiles' regions (region_inline(a, ...), region_inline(b, ...), e.g.
// the ones describe wrote into a record; the write flag is not read).
inline bool regions_disjoint(const Region& x, const Region& y) {
  if (x.mem != y.mem) return true;
  if (x.mem != MemSpace::hbm && (x.p0 + x.np <= y.p0 || y.p0 + y.np <= x.p0)) return true;
  return x.hi <= y.lo || y.hi <= x.lo;
}
void store_row(const Tile& t, std::int32_t p, const float* in, Rounding r, const SrStream* sr);
// exact integer row access (integer dtypes only): load_as_int / store_int (saturating) per element,
// as typed loops over whole runs. The *_general forms are the per-element loops (any dtype): the
// reference the fast forms are tested against.
void load_row_int(const Tile& t, std::int32_t p, std::int64_t* out);
void store_row_int(const Tile& t, std::int32_t p, const std::int64_t* in);
void load_row_int_general(const Tile& t, std::int32_t p, std::int64_t* out);
void store_row_int_general(const Tile& t, std::int32_t p, const std::int64_t* in);
// ---- bit-vector rows (tensor_tensor / tensor_scalar / tensor_reduce bitvec ops, isa_vector.cpp) ----
// Each operand is its bit pattern zero-extended from its dtype width to 32 bits; a result's low
// bits are stored (no saturation).
inline std::uint32_t width_mask(DType t) {
  const int bits = 8 * dtype_size(t);
  return bits >= 32 ? 0xffffffffu : (1u << bits) - 1u;
}
// Integer value -> its two's-complement pattern in t's width, zero-extended to 32 bits.
inline std::int64_t to_pattern(DType t, std::int64_t v) { return static_cast<std::uint32_t>(v) & width_mask(t); }
// 32-bit pattern -> the value of its low bits read as dtype t (so store_int never saturates it).
inline std::int64_t from_pattern(DType t, std::int64_t u) {
  const int bits = 8 * dtype_size(t);
  const std::int64_t w = static_cast<std::uint32_t>(u) & width_mask(t);
  if (is_signed_integer(t) && (w >> (bits - 1)) != 0) return w - (std::int64_t{1} << bits);
  return w;
}
// I1308 fault model: integer -> fp32 (RNE) -> integer of the same dtype (RNE, saturating).
inline std::int64_t via_fp32(DType t, std::int64_t v) { return f32_to_int_saturate(t, static_cast<float>(v)); }
// Row p of an integer tile as 32-bit patterns (through_fp32: each value through via_fp32 first).
// Without the round trip the patterns are read by a typed loop over whole runs (one dtype switch
// per row); with it, the values by load_row_int.
void load_row_bits(const Tile& t, std::int32_t p, bool through_fp32, std::int64_t* out);
// Row p from 32-bit patterns: the low dtype-width bits of each, by a typed loop over whole runs.
// `in` may be rewritten (the general form leaves from_pattern's values in it).
void store_row_bits(const Tile& t, std::int32_t p, std::int64_t* in);
// The per-element forms (load_row_int_general + to_pattern; from_pattern + store_row_int_general):
// the reference the typed forms are tested against.
void load_row_bits_general(const Tile& t, std::int32_t p, bool through_fp32, std::int64_t* out);
void store_row_bits_general(const Tile& t, std::int32_t p, std::int64_t* in);

// The longest row an integer instruction handles as one batch of every partition's row (IntRows::
// load_rows / store_rows: P n int64 of scratch): past it the per-row calls are a small part of the
// row's own work and the batch's scratch would grow with the instruction (isa_vector.cpp's
// int_rows_batch, isa_gpsimd.cpp's iota).
inline constexpr std::int64_t kIntBatchRow = 64;

// The row conversions of the integer paths: an element's value (load_row_int / store_row_int: loads
// exact, stores clamped to the dtype's range), its bit pattern (load_row_bits / store_row_bits
// without the round trip) or, on loads only, its value through via_fp32 as a pattern
// (load_row_bits with through_fp32).
enum class IntConv : std::uint8_t { value, pattern, pattern_via_fp32 };
// An operand of a per-partition integer or bit-vector loop with its free pattern folded
// (fold_free_dims) and its dtype and conversion dispatched once, when the loop starts: each row is
// then one call of the typed element walk. Row by row the loads and stores of load_row_int /
// store_row_int / load_row_bits / store_row_bits (which are these for one row), so the same bits;
// the per-row fold and dtype switch they repeated cost ~140 host instructions per row and operand
// against a handful of elements (the fp64 slicing's [128, 1..4] GpSimdE ops: ~40 % of an fp64
// Krylov solve). Reads only the Tile's fields at construction (its bytes at each load / store).
class IntRows {
 public:
  IntRows(const Tile& t, IntConv conv);
  void load(std::int32_t p, std::int64_t* out) const { load_(*this, p, out); }
  // A pattern store of a non-integer dtype (the general form) rewrites `in` (from_pattern's values).
  void store(std::int32_t p, std::int64_t* in) const { store_(*this, p, in); }
  // Rows 0 .. P-1 at out + p n / from in + p n: load(p) / store(p) for p = 0, 1, ... in one call (the
  // same elements, conversions and order; the typed walk inlined into the partition loop). For
  // callers that batch short rows (isa_vector.cpp int_rows_batch).
  void load_rows(std::int32_t P, std::int64_t* out) const { load_rows_(*this, P, out); }
  void store_rows(std::int32_t P, std::int64_t* in) const { store_rows_(*this, P, in); }

  const Tile* tile;  // the general forms' operand (non-integer dtypes)
  std::byte* base;
  std::int64_t partition_stride;
  int nd;  // folded free dimensions, at least 1 (a single element: one run of 1)
  std::int64_t size[kMaxFreeDims], stride[kMaxFreeDims];
  std::int64_t n;  // elements per row
  // A short row of several runs (n <= kTableElems, nd >= 2: the fp64 slicing's [P, (values, words)]
  // views with stride-0 and stride-2 runs of one or two elements) as the byte offset of each element
  // in access-pattern order, computed here once: a row is then one loop over the table, not a
  // walk of the runs. A longer row of short runs (runs of <= kShortRun elements, n <=
  // kLongTableElems: the slicing's words broadcast over W or 4 byte shifts, [P, (values, W)] with
  // values up to 64 tiles) takes a table on the heap (long_offset): per run the walk cost ~8 host
  // instructions an element there, the table ~2, and the 128 partitions share it.
  static constexpr std::int64_t kTableElems = 64, kLongTableElems = 4096, kShortRun = 8;
  bool table;
  const std::int64_t* offset;  // the table: inline_offset or long_offset's
  std::int64_t inline_offset[kTableElems];
  std::vector<std::int64_t> long_offset;
  IntRows(const IntRows&) = delete;  // offset may point into the object
  IntRows& operator=(const IntRows&) = delete;
  DType dtype;
  IntConv conv;
  void (*load_)(const IntRows&, std::int32_t, std::int64_t*);
  void (*store_)(const IntRows&, std::int32_t, std::int64_t*);
  void (*load_rows_)(const IntRows&, std::int32_t, std::int64_t*);
  void (*store_rows_)(const IntRows&, std::int32_t, std::int64_t*);
};
// raw byte copy of a row between tiles of the same dtype (bit-exact copies; uses scratch_i64 slot 3)
void copy_row_bits(const Tile& dst, std::int32_t pd, const Tile& src, std::int32_t ps);
// copy_row_bits(dst, p, src, p) for p = 0, 1, ... in that order; when both free patterns are dense
// (copy_row_bits' memmove case) the test and the row size are computed once, not per row (a short
// DMA of 8 rows was 8 calls of two free-pattern walks each).
void copy_all_rows_bits(const Tile& dst, const Tile& src);

// Every element of t (all partitions, access-pattern order) set to the dtype_size(t.dtype) bytes
// at `elem`: memset's element work (one value, rounded once) without a conversion per element.
void fill_elements(const Tile& t, const std::byte* elem);
// True when t's free pattern is one run (size-1 and continuing dimensions folded, as load_row
// walks it): element f of partition p is then at base + p * partition_stride + f * stride_elems * es.
bool single_run(const Tile& t, std::int64_t& stride_elems);

// Per-thread scratch buffers (grown on demand, never shrunk).
float* scratch_f32(int slot, std::size_t n);
std::int64_t* scratch_i64(int slot, std::size_t n);

// region_of(t, write) inline (trace.cpp's region_of calls this): the same hull, computed in one
// pass over the free dimensions instead of three out-of-line calls.
inline Region region_inline(const Tile& t, bool write) {
  Region r;
  r.mem = t.mem;
  r.write = write;
  const std::int64_t es = elem_bytes(t.dtype);
  if (t.mem == MemSpace::hbm) {
    // Conservative byte hull of the strided view in host memory.
    std::int64_t lo = 0, hi = 0;
    for (int d = 0; d < t.ndim; ++d) {
      const std::int64_t ext = t.stride[d] * (t.size[d] - 1) * es;
      (ext < 0 ? lo : hi) += ext;
    }
    const std::int64_t pext = t.partition_stride * (t.partitions - 1);
    (pext < 0 ? lo : hi) += pext;
    // Element 0 is touched, so its block names the whole hull (scratch.hpp: trace_hbm_address).
    const std::uint64_t base = trace_hbm_address(reinterpret_cast<std::uintptr_t>(t.base));
    r.lo = base + static_cast<std::uint64_t>(lo);
    r.hi = base + static_cast<std::uint64_t>(hi + es);
  } else {
    // Tile::free_lo_byte() and free_hi_byte().
    std::int64_t lo = 0, hi = 0;
    for (int d = 0; d < t.ndim; ++d) {
      if (t.size[d] <= 0) continue;
      if (t.stride[d] < 0) lo += t.stride[d] * (t.size[d] - 1);
      if (t.stride[d] > 0) hi += t.stride[d] * (t.size[d] - 1);
    }
    r.p0 = t.partition_start;
    r.np = t.is_partition_broadcast() ? 1 : t.partitions;  // a broadcast reads one physical partition
    r.lo = static_cast<std::uint64_t>(t.offset_bytes + lo * es);
    r.hi = static_cast<std::uint64_t>(t.offset_bytes + (hi + 1) * es);
  }
  return r;
}
// Tile::free_contiguous() inline.
inline bool free_contiguous_of(const Tile& t) {
  if (t.ndim == 1) [[likely]] return t.size[0] == 1 || t.stride[0] == 1;
  std::int64_t expect = 1;
  for (int d = t.ndim - 1; d >= 0; --d) {
    if (t.size[d] != 1 && t.stride[d] != expect) return false;
    expect *= t.size[d];
  }
  return true;
}

// Fill a trace record's common fields for an element-wise instruction.
void describe(Instruction& ins, const Tile& dst, std::initializer_list<const Tile*> srcs);
// describe(ins, dst, {&src}): the same fields, for one source.
void describe(Instruction& ins, const Tile& dst, const Tile& src);

// Host-time probe of the instruction stream (bench/bench_core_instructions.cpp): while on, every
// committed instruction appends its record and the time-stamp counter at its commit to a buffer
// of the committing thread, so the bench gets each instruction's host cost (the interval since the
// thread's previous commit: argument checks, dispatch, element work, trace). Off by default: one
// relaxed load per instruction; it changes no bits and no modeled time.
struct InstrProbeSample {
  std::uint64_t tsc = 0;
  int thread = 0;
  Instruction ins;
};
inline std::atomic<bool> g_instr_probe{false};
void instr_probe_commit(const Instruction& ins);
// Every thread's samples so far (in commit order per thread); clears the buffers.
std::vector<InstrProbeSample> instr_probe_take();

}  // namespace trn::detail
