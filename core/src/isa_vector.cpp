// VectorE (and GpSimdE / ScalarE where the ISA allows): element-wise, reduce, scan, copy, memset,
// bn_stats/bn_aggr, reciprocal. Arithmetic is fp32 (inputs cast to fp32, result cast on write);
// bitvec ops and same-dtype copies are bit-exact. Semantics: docs/numerics.md; hardware facts
// (tags of docs/references.md): ARCH2 (engines, partition alignment, fp32 arithmetic), the ISA page
// of each instruction, I1308 (integers above 2^24).
//
// Arithmetic paths (chosen once per instruction):
//  - fp32: every operand is converted to fp32 (integers by RNE, exact below 2^24), the op is
//    computed in fp32 (float, never double), and the result is written with the instruction's
//    rounding (RNE or SR) and, for integer dst, RNE + saturation (f32_to_int_saturate).
//  - native integer: when every operand (inputs, dst, [P,1] scalar tiles; immediates must be
//    integral) has an integer dtype and the engine is GpSimdE (both profiles) or VectorE in the
//    `ideal` profile, add/subtract/multiply/max/min/abs_max/abs_min/comparisons/logical ops are
//    exact in int64 (saturating at the int64 range) and stored with saturation to dst's range.
//    divide and power always use the fp32 path. ScalarE never takes this path ("The Scalar Engine
//    always performs the math operations in float32 precision", ISA activation).
//  - bitvec (bitwise_and/or/xor, left_shift, logical right_shift): integer dtypes only; each operand
//    is its bit pattern zero-extended from its dtype width to 32 bits; shifts by >= 32 give 0; the
//    32-bit result is truncated to dst's width (no saturation). In the `trn1_measured` profile on
//    VectorE each operand first makes a round trip integer -> fp32 (RNE) -> integer (RNE, saturating
//    to the operand's dtype), which reproduces aws-neuron-sdk issue 1308 (I1308).
//  - trn1_measured arithmetic on integers (VectorE/ScalarE) is the fp32 path, also I1308.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "program_replay.hpp"
#include "commit_path.hpp"
#include "engine_util.hpp"
#include "simd_util.hpp"
#include "two_nan.hpp"
#include "trn/core/error.hpp"

namespace trn {

namespace {

// ---- op classification ----------------------------------------------------------------------

constexpr bool is_logical(AluOp op) { return op >= AluOp::logical_and && op <= AluOp::logical_xor; }
// trn::is_bitvec inline (the same test; the exported one is a call per use on every instruction).
constexpr bool bitvec_op(AluOp op) { return op >= AluOp::bitwise_and; }
// Ops the native integer path computes exactly (divide and power always go through fp32).
bool int_native_op(AluOp op) { return !bitvec_op(op) && op != AluOp::divide && op != AluOp::power; }

template <AluOp OP>
using OpTag = std::integral_constant<AluOp, OP>;

// Runtime op -> compile-time op, once per instruction: f(OpTag<op>{}). Arithmetic (non-bitvec) ops.
template <class F>
void dispatch_arith(AluOp op, F&& f) {
  using enum AluOp;
  switch (op) {
    case bypass: f(OpTag<bypass>{}); return;
    case add: f(OpTag<add>{}); return;
    case subtract: f(OpTag<subtract>{}); return;
    case multiply: f(OpTag<multiply>{}); return;
    case divide: f(OpTag<divide>{}); return;
    case maximum: f(OpTag<maximum>{}); return;
    case minimum: f(OpTag<minimum>{}); return;
    case abs_max: f(OpTag<abs_max>{}); return;
    case abs_min: f(OpTag<abs_min>{}); return;
    case power: f(OpTag<power>{}); return;
    case equal: f(OpTag<equal>{}); return;
    case not_equal: f(OpTag<not_equal>{}); return;
    case greater: f(OpTag<greater>{}); return;
    case greater_equal: f(OpTag<greater_equal>{}); return;
    case less: f(OpTag<less>{}); return;
    case less_equal: f(OpTag<less_equal>{}); return;
    case logical_and: f(OpTag<logical_and>{}); return;
    case logical_or: f(OpTag<logical_or>{}); return;
    case logical_xor: f(OpTag<logical_xor>{}); return;
    default: throw Error("internal: dispatch_arith called with a bitvec op");
  }
}

// Ops of the native integer path: the arithmetic set without divide and power (always fp32).
template <class F>
void dispatch_int(AluOp op, F&& f) {
  if (!int_native_op(op)) throw Error("internal: dispatch_int called with an op outside the native integer set");
  dispatch_arith(op, [&](auto tag) {
    constexpr AluOp kOp = decltype(tag)::value;
    if constexpr (kOp != AluOp::divide && kOp != AluOp::power) f(tag);
  });
}

// Bitvec ops (and bypass, which tensor_scalar allows as op1 of a bitvec op0).
template <class F>
void dispatch_bitvec(AluOp op, F&& f) {
  using enum AluOp;
  switch (op) {
    case bypass: f(OpTag<bypass>{}); return;
    case bitwise_and: f(OpTag<bitwise_and>{}); return;
    case bitwise_or: f(OpTag<bitwise_or>{}); return;
    case bitwise_xor: f(OpTag<bitwise_xor>{}); return;
    case left_shift: f(OpTag<left_shift>{}); return;
    case right_shift: f(OpTag<right_shift>{}); return;
    default: throw Error("internal: dispatch_bitvec called with an arithmetic op");
  }
}

// ---- scalar semantics ---------------------------------------------------------------------------

using detail::both_nan;
using detail::two_nan_result;

// The NaN an op returns when a or b is NaN: the NaN operand, quieted; of two, the rule's (two_nan.hpp).
inline float nan_operand(float a, float b, TwoNanResult rule) {
  return a != a && (b == b || rule == TwoNanResult::first_operand) ? detail::quiet_nan(a) : detail::quiet_nan(b);
}

// IEEE 754-2019 maximum/minimum: NaN if either operand is NaN (nan_operand); -0 < +0.
inline float max_ieee(float a, float b, TwoNanResult rule) {
  if (a != a || b != b) return nan_operand(a, b, rule);
  if (a == b) return std::bit_cast<float>(std::bit_cast<std::uint32_t>(a) & std::bit_cast<std::uint32_t>(b));
  return a > b ? a : b;
}
inline float min_ieee(float a, float b, TwoNanResult rule) {
  if (a != a || b != b) return nan_operand(a, b, rule);
  if (a == b) return std::bit_cast<float>(std::bit_cast<std::uint32_t>(a) | std::bit_cast<std::uint32_t>(b));
  return a < b ? a : b;
}

// maximum/minimum of x[0..n) when no element is NaN (nullopt otherwise). Without NaNs max_ieee/
// min_ieee pick an element by a total order (-0 < +0; equal nonzero values have equal bits), so the
// result is the extreme element whatever the reduction order: independent accumulators give the
// bits of the sequential fold at a fraction of its latency chain (the fold is ~1 element per 4
// cycles; LU pivot searches reduce thousands of elements per partition). Elements compare as
// integer keys: the bits, with the magnitude bits flipped for negative values (-0 -> -1, +0 -> 0).
template <bool kMax>
std::optional<float> extreme_without_nan(const float* x, std::int64_t n) {
  constexpr int kLanes = 16;
  constexpr std::uint32_t kAbs = 0x7fffffffu, kInf = 0x7f800000u;
  auto key = [](std::uint32_t b) {
    const std::int32_t k = std::bit_cast<std::int32_t>(b);
    return k ^ ((k >> 31) & static_cast<std::int32_t>(kAbs));
  };
  std::int32_t best[kLanes];
  std::uint32_t widest[kLanes];  // largest |bits|: above kInf means a NaN was seen
  const std::uint32_t first = std::bit_cast<std::uint32_t>(x[0]);
  for (int l = 0; l < kLanes; ++l) best[l] = key(first), widest[l] = first & kAbs;
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int l = 0; l < kLanes; ++l) {
      const std::uint32_t b = std::bit_cast<std::uint32_t>(x[i + l]);
      best[l] = kMax ? std::max(best[l], key(b)) : std::min(best[l], key(b));
      widest[l] = std::max(widest[l], b & kAbs);
    }
  for (; i < n; ++i) {
    const std::uint32_t b = std::bit_cast<std::uint32_t>(x[i]);
    best[0] = kMax ? std::max(best[0], key(b)) : std::min(best[0], key(b));
    widest[0] = std::max(widest[0], b & kAbs);
  }
  for (int l = 1; l < kLanes; ++l) {
    best[0] = kMax ? std::max(best[0], best[l]) : std::min(best[0], best[l]);
    widest[0] = std::max(widest[0], widest[l]);
  }
  if (widest[0] > kInf) return std::nullopt;
  return std::bit_cast<float>(static_cast<std::uint32_t>(key(static_cast<std::uint32_t>(best[0]))));
}

// fp32 semantics of the arithmetic ops. Comparisons and logical ops give 1.0f / 0.0f; logical ops
// treat any nonzero value (NaN included) as true; power is C powf. Two NaN operands give the NaN
// `rule` names, quieted (two_nan.hpp; for abs_max / abs_min the operands are |a| and |b|).
// kTwoNanTest false: for a caller that knows one operand is not NaN (a row's scalar), where the
// IEEE operation alone gives the rule's result.
template <AluOp OP, bool kTwoNanTest = true>
inline float alu_f32(float a, float b, TwoNanResult rule) {
  using enum AluOp;
  if constexpr (kTwoNanTest && (OP == add || OP == subtract || OP == multiply || OP == divide || OP == power))
    if (both_nan(a, b)) [[unlikely]]
      return two_nan_result(a, b, rule);
  if constexpr (OP == bypass) return a;
  else if constexpr (OP == add) return a + b;
  else if constexpr (OP == subtract) return a - b;
  else if constexpr (OP == multiply) return a * b;
  else if constexpr (OP == divide) return a / b;
  else if constexpr (OP == maximum) return max_ieee(a, b, rule);
  else if constexpr (OP == minimum) return min_ieee(a, b, rule);
  else if constexpr (OP == abs_max) return max_ieee(std::fabs(a), std::fabs(b), rule);
  else if constexpr (OP == abs_min) return min_ieee(std::fabs(a), std::fabs(b), rule);
  else if constexpr (OP == power) return std::pow(a, b);  // float overload = powf
  else if constexpr (OP == equal) return a == b ? 1.0f : 0.0f;
  else if constexpr (OP == not_equal) return a != b ? 1.0f : 0.0f;
  else if constexpr (OP == greater) return a > b ? 1.0f : 0.0f;
  else if constexpr (OP == greater_equal) return a >= b ? 1.0f : 0.0f;
  else if constexpr (OP == less) return a < b ? 1.0f : 0.0f;
  else if constexpr (OP == less_equal) return a <= b ? 1.0f : 0.0f;
  else if constexpr (OP == logical_and) return (a != 0.0f) && (b != 0.0f) ? 1.0f : 0.0f;
  else if constexpr (OP == logical_or) return (a != 0.0f) || (b != 0.0f) ? 1.0f : 0.0f;
  else if constexpr (OP == logical_xor) return (a != 0.0f) != (b != 0.0f) ? 1.0f : 0.0f;
  else static_assert(OP == bypass, "alu_f32: bitvec ops have no fp32 semantics");
}

constexpr std::int64_t kI64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kI64Min = std::numeric_limits<std::int64_t>::min();

inline std::int64_t sat_add(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? kI64Max : kI64Min;
  return r;
}
inline std::int64_t sat_sub(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) return b < 0 ? kI64Max : kI64Min;
  return r;
}
inline std::int64_t sat_mul(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return (a < 0) != (b < 0) ? kI64Min : kI64Max;
  return r;
}
inline std::int64_t sat_abs(std::int64_t a) { return a == kI64Min ? kI64Max : (a < 0 ? -a : a); }

// Native integer semantics (exact, saturating at the int64 range).
template <AluOp OP>
inline std::int64_t alu_i64(std::int64_t a, std::int64_t b) {
  using enum AluOp;
  if constexpr (OP == bypass) return a;
  else if constexpr (OP == add) return sat_add(a, b);
  else if constexpr (OP == subtract) return sat_sub(a, b);
  else if constexpr (OP == multiply) return sat_mul(a, b);
  else if constexpr (OP == maximum) return a > b ? a : b;
  else if constexpr (OP == minimum) return a < b ? a : b;
  else if constexpr (OP == abs_max) return std::max(sat_abs(a), sat_abs(b));
  else if constexpr (OP == abs_min) return std::min(sat_abs(a), sat_abs(b));
  else if constexpr (OP == equal) return a == b;
  else if constexpr (OP == not_equal) return a != b;
  else if constexpr (OP == greater) return a > b;
  else if constexpr (OP == greater_equal) return a >= b;
  else if constexpr (OP == less) return a < b;
  else if constexpr (OP == less_equal) return a <= b;
  else if constexpr (OP == logical_and) return (a != 0) && (b != 0);
  else if constexpr (OP == logical_or) return (a != 0) || (b != 0);
  else if constexpr (OP == logical_xor) return (a != 0) != (b != 0);
  else static_assert(OP == bypass, "alu_i64: op outside the native integer set");
}

// Bitvec semantics on 32-bit patterns (values held in int64 lanes, always in [0, 2^32)).
template <AluOp OP>
inline std::int64_t alu_bits(std::int64_t a, std::int64_t b) {
  using enum AluOp;
  const auto ua = static_cast<std::uint32_t>(a), ub = static_cast<std::uint32_t>(b);
  if constexpr (OP == bypass) return ua;
  else if constexpr (OP == bitwise_and) return ua & ub;
  else if constexpr (OP == bitwise_or) return ua | ub;
  else if constexpr (OP == bitwise_xor) return ua ^ ub;
  else if constexpr (OP == left_shift) return ub >= 32 ? 0u : static_cast<std::uint32_t>(ua << ub);
  else if constexpr (OP == right_shift) return ub >= 32 ? 0u : ua >> ub;  // logical
  else static_assert(OP == bypass, "alu_bits: arithmetic op");
}

// ---- bit patterns: detail::to_pattern / from_pattern / via_fp32 and the row forms (engine_util) ----

using detail::IntConv;
using detail::to_pattern;
using detail::via_fp32;

// ---- scalar operands (tensor_scalar) ---------------------------------------------------------------

// An immediate is integral (usable by the integer paths) when it is a whole number in int32/uint32 range.
bool integral_immediate(float v) {
  return std::isfinite(v) && std::nearbyint(v) == v && v >= -0x1p31f && v < 0x1p32f;
}

float scalar_f32(const ScalarOperand& s, std::int32_t p) {
  return s.is_tile ? load_as_f32(s.tile.dtype, s.tile.at(p, 0)) : s.imm;
}
std::int64_t scalar_int(const ScalarOperand& s, std::int32_t p) {
  return s.is_tile ? load_as_int(s.tile.dtype, s.tile.at(p, 0)) : static_cast<std::int64_t>(s.imm);
}
// Immediates are 32-bit patterns (two's complement for negative values); tiles use their dtype width.
std::int64_t scalar_bits(const ScalarOperand& s, std::int32_t p, bool through_fp32) {
  if (!s.is_tile) return static_cast<std::uint32_t>(static_cast<std::int64_t>(s.imm));
  std::int64_t v = load_as_int(s.tile.dtype, s.tile.at(p, 0));
  if (through_fp32) v = via_fp32(s.tile.dtype, v);
  return to_pattern(s.tile.dtype, v);
}

[[gnu::noinline]] void check_scalar_operand_checked(std::string_view instr, std::string_view name, const ScalarOperand& s,
                                                   const Tile& src, const HardwareSpec& hw, Engine engine) {
  if (!s.is_tile) return;
  detail::check_engine_operand(instr, name, s.tile, hw, engine);
  if (detail::free_size_of(s.tile) != 1)
    throw LimitError(std::string(instr), std::string(name), "free size", s.tile.free_size(),
                     "free size of a [P,1] scalar operand", 1, hw.name);
  detail::require_same_partitions(instr, "src", src, name, s.tile);
}

// The whole condition of check_scalar_operand_checked inline (it runs, and throws the first failing
// check with its message, only when the condition fails): an immediate, or a [P, 1] engine operand
// with src's partitions.
inline void check_scalar_operand(std::string_view instr, std::string_view name, const ScalarOperand& s, const Tile& src,
                                 const HardwareSpec& hw, Engine engine) {
  if (!s.is_tile ||
      (detail::engine_operand_ok(s.tile, hw, engine) && detail::free_size_of(s.tile) == 1 && s.tile.partitions == src.partitions))
    return;
  check_scalar_operand_checked(instr, name, s, src, hw, engine);
}

// ---- shared checks and trace helpers --------------------------------------------------------------

void require_integer(std::string_view instr, std::string_view operand, const Tile& t, AluOp op) {
  if (!is_integer(t.dtype))
    throw UsageError(instr, operand, "bitvec op " + std::string(alu_op_name(op)) + " needs an integer dtype (got " +
                                         std::string(dtype_name(t.dtype)) + ")");
}

[[noreturn, gnu::cold, gnu::noinline]] void throw_engine_not_allowed(std::string_view instr, Engine engine,
                                                                     std::string_view allowed_text) {
  throw UsageError(instr, "engine", std::string(instr) + " runs on " + std::string(allowed_text) + " (got " +
                                        std::string(engine_name(engine)) + ")");
}
// Inline test, the message built out of line only when it fails (an out-of-line call per
// instruction on the small-call paths).
inline void require_vector_engine(std::string_view instr, Engine engine, std::initializer_list<Engine> allowed,
                                  std::string_view allowed_text) {
  for (Engine e : allowed)
    if (e == engine) return;
  throw_engine_not_allowed(instr, engine, allowed_text);
}

// The operand checks of a two-input elementwise instruction (tensor_tensor, tensor_tensor_scan), in
// this order: each operand on the engine, not both inputs in PSUM, the second input's and dst's
// partitions and free sizes equal to the first input's.
void check_two_inputs(std::string_view instr, std::string_view a_name, const Tile& a, std::string_view b_name,
                      const Tile& b, const Tile& dst, const HardwareSpec& hw, Engine engine) {
  detail::check_engine_operand(instr, a_name, a, hw, engine);
  detail::check_engine_operand(instr, b_name, b, hw, engine);
  detail::check_engine_operand(instr, "dst", dst, hw, engine);
  if (a.mem == MemSpace::psum && b.mem == MemSpace::psum)
    throw UsageError(instr, b_name,
                     "inputs '" + std::string(a_name) + "' and '" + std::string(b_name) + "' cannot both reside in PSUM");
  detail::require_same_partitions(instr, a_name, a, b_name, b);
  detail::require_same_partitions(instr, a_name, a, "dst", dst);
  detail::require_same_free_size(instr, a_name, a, b_name, b);
  detail::require_same_free_size(instr, a_name, a, "dst", dst);
}

// A [P,1] vector operand read by the instruction (not counted as a tensor input by the cost model).
inline void add_vector_operand(Instruction& ins, const Tile& t) {
  ins.bytes_read += detail::free_size_of(t) * t.partitions * detail::elem_bytes(t.dtype);  // Tile::elements()
  ins.add_region(detail::region_inline(t, false));                                // region_of
}

std::size_t row_len(const Tile& t) { return static_cast<std::size_t>(detail::free_size_of(t)); }

// Whether a per-partition integer loop (load the rows of the sources, op, store the row of dst; p =
// 0, 1, ...) may run as one batch — every source row loaded, the op over all P n elements, every
// dst row stored — without changing a bit: rows of at most kIntBatchRow elements (there the per-row
// calls were most of the cost: the fp64 slicing's [128, 1..8] GpSimdE ops), and no dst row on
// another partition's row of a source (a [P, 1] scalar tile included): each source disjoint from
// dst, or starting on dst's partition, so that row p of dst meets only row p of it, which the row
// loop also reads before it stores row p. The elementwise ops do not depend on the row boundaries.
bool int_rows_batch(const Tile& dst, std::int64_t n, std::initializer_list<const Tile*> sources) {
  if (n > detail::kIntBatchRow) return false;
  const Region d = detail::region_inline(dst, true);
  for (const Tile* t : sources) {
    if (t == nullptr) continue;
    const Region r = detail::region_inline(*t, false);
    if (!detail::regions_disjoint(d, r) && r.p0 != d.p0) return false;
  }
  return true;
}
const Tile* scalar_tile(const ScalarOperand& s, bool used = true) { return used && s.is_tile ? &s.tile : nullptr; }

// tensor_scalar's integer rows (the bit-vector and the native integer paths): every row in one batch
// when int_rows_batch allows it (one apply over all P n elements when both scalars are immediates:
// one scalar for every row), else row by row. apply(row, p, len): op0 then op1 with partition p's
// scalars over len elements.
template <class Apply>
void ts_int_rows(const Tile& dst, const Tile& src, std::int64_t n, const ScalarOperand& s0, const ScalarOperand& s1,
                 bool use_s1, const detail::IntRows& rows_src, const detail::IntRows& rows_dst, Apply&& apply) {
  if (int_rows_batch(dst, n, {&src, scalar_tile(s0), scalar_tile(s1, use_s1)})) {
    std::int64_t* x = detail::scratch_i64(0, static_cast<std::size_t>(std::int64_t{src.partitions} * n));
    rows_src.load_rows(src.partitions, x);
    const bool immediates = !s0.is_tile && !(use_s1 && s1.is_tile);
    for (std::int32_t p = 0; p < (immediates ? 1 : src.partitions); ++p)
      apply(x + std::int64_t{p} * n, p, immediates ? std::int64_t{src.partitions} * n : n);
    rows_dst.store_rows(src.partitions, x);
    return;
  }
  std::int64_t* x = detail::scratch_i64(0, static_cast<std::size_t>(n));
  for (std::int32_t p = 0; p < src.partitions; ++p) {
    rows_src.load(p, x);
    apply(x, p, n);
    rows_dst.store(p, x);
  }
}

// ---- one-pass checks and description of flat VectorE operands (issue #30, small calls) ----------
// A small call's instructions (the trsv kernel's column steps) have operands of one free dimension
// in SBUF or PSUM on VectorE. For those, check_engine_operand, the partition / free-size agreement
// and describe's per-operand facts are one pass over each operand's few fields instead of several
// (the checks read each operand three to five times, describe once more). The facts are
// describe_operand's (engine_util.cpp) for one free dimension, and the conditions are
// engine_operand_ok's for Engine::vector: when every one holds, the general sequence throws nothing
// and records exactly these fields. When any fails, the instruction takes its general path, which
// throws the first failing check's error as before. test_small_call_paths compares both paths.
struct FlatOperand {
  std::uint64_t lo = 0, hi = 0;  // the region's bytes within each partition (region_inline)
  std::int64_t free = 0;         // free size (elements per partition)
  bool contiguous = false;       // free_contiguous_of
};
// True when t has one free dimension and passes check_engine_operand(..., Engine::vector); then f
// holds its facts. False says nothing (the general checks decide).
inline bool flat_vector_operand(const Tile& t, const HardwareSpec& hw, FlatOperand& f) {
  const std::int64_t size = t.size[0], stride = t.stride[0];
  const bool psum = t.mem == MemSpace::psum;
  if (t.ndim != 1 || !(psum || t.mem == MemSpace::sbuf)) return false;
  const std::int64_t limit = psum ? hw.vector_psum_fmax : hw.vector_sbuf_fmax;
  if (t.partitions < 1 || size < 1 || size > limit || t.base == nullptr || t.is_partition_broadcast() ||
      !detail::partition_alignment_ok(t, hw))
    return false;
  // Tile::free_lo_byte() / free_hi_byte() for one dimension of size >= 1.
  const std::int64_t es = detail::elem_bytes(t.dtype), ext = stride * (size - 1);
  f.lo = static_cast<std::uint64_t>(t.offset_bytes + (ext < 0 ? ext : 0) * es);
  f.hi = static_cast<std::uint64_t>(t.offset_bytes + ((ext > 0 ? ext : 0) + 1) * es);
  f.free = size;
  f.contiguous = size == 1 || stride == 1;
  return true;
}
// The record's region of a flat on-chip operand (every field, as describe_operand writes it; a
// broadcast is never flat, so np is the partition count).
inline void put_flat_region(Region& r, const Tile& t, const FlatOperand& f, bool write) {
  r.mem = t.mem;
  r.write = write;
  r.p0 = t.partition_start;
  r.np = t.partitions;
  r.lo = f.lo;
  r.hi = f.hi;
}
// Tile::elements() * dtype_size for a flat operand.
inline std::int64_t flat_bytes(const Tile& t, const FlatOperand& f) {
  return f.free * t.partitions * detail::elem_bytes(t.dtype);
}
// The record fields describe (and add_vector_operand) fill, for flat operands whose regions are
// already in ins.regions[0 .. nregions): dst's, then the first tensor input `in`'s, then any more.
// `inputs` tensor inputs are counted; bytes_read sums every read operand; contiguous is over the
// tensor operands (tensor_tensor: dst, a, b; tensor_scalar: dst, src; not its [P, 1] scalars).
inline void fill_flat_record(Instruction& ins, std::uint8_t nregions, const Tile& dst, const FlatOperand& fd,
                             const Tile& in, std::int32_t inputs, std::int64_t bytes_read, bool contiguous) {
  ins.nregions = nregions;
  ins.out_dtype = dst.dtype;
  ins.in_dtype = in.dtype;
  ins.partitions = dst.partitions;
  ins.inputs = inputs;
  ins.free_elems = fd.free;
  ins.bytes_written = flat_bytes(dst, fd);
  ins.bytes_read = bytes_read;
  ins.contiguous = contiguous;
}

// ---- dense fp32 operands: a whole front-end in one pass (issue #30, session 23) ----------------
// The commonest operands of the small calls' instructions (the trsv / tbsv kernels' column steps,
// Level 1 pieces, LAPACK clients through the shim) are fp32 rows and columns of one free dimension,
// dense (stride 1, or one element), in SBUF or PSUM. For these the flat path's facts are fixed by
// the dtype (4-byte elements, one run), so tt_dense_f32_ready / ts_dense_f32_ready test every
// condition of the flat checks and of the element path's choice first, in one pass, and
// NeuronCore::tensor_tensor / tensor_scalar then record and run the same element function as the
// general path, which sits in a noinline lambda of its own. The general functions' frames (~0.6 KiB,
// with their spills and the re-derivation after the record of what the flat checks had shown) were
// most of these instructions' front-end cost. When a condition fails, nothing has been done and the
// general path runs: the same bytes, records and errors.
// dense_f32_operand(t, hw) && t.partitions == rows && t.size[0] == size for `rows` and `size` another
// operand's that passed dense_f32_operand (1 <= rows <= pmax, size >= 1): the same conditions less
// the ranges those equalities imply, with partition_alignment_ok's quantum (32, 64 or 128
// partitions) as its mask (session 24: the front-ends' checks were ~40 host instructions per operand).
inline bool dense_f32_operand_as(const Tile& t, const HardwareSpec& hw, std::int32_t rows, std::int64_t size) {
  const bool psum = t.mem == MemSpace::psum;
  const std::int64_t limit = psum ? hw.vector_psum_fmax : hw.vector_sbuf_fmax;
  const std::int32_t start = t.partition_start, quantum_mask = rows > 64 ? 127 : rows > 32 ? 63 : 31;
  return t.ndim == 1 && t.dtype == DType::f32 && (psum || t.mem == MemSpace::sbuf) && t.partitions == rows &&
         t.size[0] == size && size <= limit && (size == 1 || t.stride[0] == 1) && t.base != nullptr &&
         (t.partition_stride != 0 || rows == 1) && start + rows <= hw.pmax && (start & quantum_mask) == 0;
}
// True when t is such an operand and passes check_engine_operand(..., Engine::vector)
// (flat_vector_operand's conditions for an fp32 tile of one run).
inline bool dense_f32_operand(const Tile& t, const HardwareSpec& hw) {
  return static_cast<std::uint32_t>(t.partitions) - 1u < static_cast<std::uint32_t>(hw.pmax) && t.size[0] >= 1 &&
         dense_f32_operand_as(t, hw, t.partitions, t.size[0]);
}
// put_flat_region for a dense fp32 operand: its bytes in each partition are [offset, offset + 4 size)
// (flat_vector_operand's lo / hi for 4-byte elements and an extent of size - 1 or 0 elements).
inline void put_dense_f32_region(Region& r, const Tile& t, bool write) {
  r.mem = t.mem;
  r.write = write;
  r.p0 = t.partition_start;
  r.np = t.partitions;
  r.lo = static_cast<std::uint64_t>(t.offset_bytes);
  r.hi = static_cast<std::uint64_t>(t.offset_bytes + 4 * t.size[0]);
}
// fill_flat_record's fields for dense fp32 operands (fp32 in and out, every tensor operand one run).
inline void fill_dense_f32_record(Instruction& ins, std::uint8_t nregions, const Tile& dst, std::int32_t inputs,
                                  std::int64_t bytes_read) {
  ins.nregions = nregions;
  ins.out_dtype = DType::f32;
  ins.in_dtype = DType::f32;
  ins.partitions = dst.partitions;
  ins.inputs = inputs;
  ins.free_elems = dst.size[0];
  ins.bytes_written = dst.size[0] * dst.partitions * 4;
  ins.bytes_read = bytes_read;
  ins.contiguous = true;
}

// ---- row kernels (one instantiation per op; plain loops) ----------------------------------------

// add / subtract / multiply / divide: one IEEE operation each.
constexpr bool is_ieee_basic(AluOp op) {
  return op == AluOp::add || op == AluOp::subtract || op == AluOp::multiply || op == AluOp::divide;
}

// add / subtract / multiply of fp32 rows, 16 lanes at a time: the same IEEE operation per element
// as the scalar loop and the rule's NaN where both are NaN, so the same bits; out may be a or b
// (element-wise).
TRN_SIMD_WARNINGS_BEGIN
template <AluOp OP>
__attribute__((target("avx512f"))) void tt_row_f32_avx512(const float* a, const float* b, float* out, std::int64_t n,
                                                          TwoNanResult rule) {
  for (std::int64_t i = 0; i < n; i += 16) {
    const auto m = n - i >= 16 ? __mmask16(0xffff) : static_cast<__mmask16>((1u << (n - i)) - 1u);
    const __m512 x = _mm512_maskz_loadu_ps(m, a + i), y = _mm512_maskz_loadu_ps(m, b + i);
    __m512 r;
    if constexpr (OP == AluOp::add)
      r = _mm512_add_ps(x, y);
    else if constexpr (OP == AluOp::subtract)
      r = _mm512_sub_ps(x, y);
    else
      r = _mm512_mul_ps(x, y);
    _mm512_mask_storeu_ps(out + i, m, detail::two_nan_lanes_avx512(r, x, y, rule));
  }
}
TRN_SIMD_WARNINGS_END
template <AluOp OP>
void tt_row_f32(const float* a, const float* b, float* out, std::int64_t n, TwoNanResult rule) {
  if constexpr (OP == AluOp::add || OP == AluOp::subtract || OP == AluOp::multiply) {
    if (simd::has_avx512()) return tt_row_f32_avx512<OP>(a, b, out, n, rule);
  }
  if constexpr (is_ieee_basic(OP))  // branch-free (two_nan_select), so that the loop still vectorises
    for (std::int64_t i = 0; i < n; ++i) out[i] = detail::two_nan_select(alu_f32<OP, false>(a[i], b[i], rule), a[i], b[i], rule);
  else
    for (std::int64_t i = 0; i < n; ++i) out[i] = alu_f32<OP>(a[i], b[i], rule);
}
template <AluOp OP>
void tt_row_i64(const std::int64_t* a, const std::int64_t* b, std::int64_t* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = alu_i64<OP>(a[i], b[i]);
}
// The same loop built for AVX-512 (8 patterns a vector; variable shifts vpsllvq / vpsrlvq): the
// baseline build's SSE2 has no variable per-lane shift, so it ran one element at a time (the fp64
// slicing's GpSimdE shifts, ors and ands of 32-bit words). Integer ops: the same bits.
template <AluOp OP>
__attribute__((target("avx512f,avx512vl,avx512dq"))) void tt_row_bits_avx512(const std::int64_t* a, const std::int64_t* b,
                                                                              std::int64_t* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = alu_bits<OP>(a[i], b[i]);
}
template <AluOp OP>
void tt_row_bits(const std::int64_t* a, const std::int64_t* b, std::int64_t* out, std::int64_t n) {
  if (n >= 8 && simd::has_avx512()) return tt_row_bits_avx512<OP>(a, b, out, n);
  for (std::int64_t i = 0; i < n; ++i) out[i] = alu_bits<OP>(a[i], b[i]);
}

// tensor_tensor's integer rows (the bit-vector and the native integer paths): every row in one batch
// when int_rows_batch allows it, else row by row. dispatch(body) calls body(row) once with the op's
// row function row(a, b, out, len).
template <class Dispatch>
void tt_int_rows(const Tile& dst, const Tile& a, const Tile& b, std::int64_t n, const detail::IntRows& rows_a,
                 const detail::IntRows& rows_b, const detail::IntRows& rows_dst, Dispatch&& dispatch) {
  if (int_rows_batch(dst, n, {&a, &b})) {
    const std::int64_t all = std::int64_t{a.partitions} * n;
    std::int64_t* x = detail::scratch_i64(0, static_cast<std::size_t>(all));
    std::int64_t* y = detail::scratch_i64(1, static_cast<std::size_t>(all));
    rows_a.load_rows(a.partitions, x);
    rows_b.load_rows(a.partitions, y);
    dispatch([&](auto row) { row(x, y, x, all); });
    rows_dst.store_rows(a.partitions, x);
    return;
  }
  std::int64_t* x = detail::scratch_i64(0, static_cast<std::size_t>(n));
  std::int64_t* y = detail::scratch_i64(1, static_cast<std::size_t>(n));
  dispatch([&](auto row) {
    for (std::int32_t p = 0; p < a.partitions; ++p) {
      rows_a.load(p, x);
      rows_b.load(p, y);
      row(x, y, x, n);
      rows_dst.store(p, x);
    }
  });
}
// x = reverse ? fn(s, x) : fn(x, s), in place.
template <class T, class Fn>
void ts_row(T* x, T s, bool reverse, std::int64_t n, Fn fn) {
  if (reverse)
    for (std::int64_t i = 0; i < n; ++i) x[i] = fn(s, x[i]);
  else
    for (std::int64_t i = 0; i < n; ++i) x[i] = fn(x[i], s);
}
// ts_row of alu_f32<OP>: a scalar that is not NaN leaves no lane with two NaN operands, so the row
// runs without the per-element two-NaN test (the same bits).
template <AluOp OP>
void ts_row_f32(float* x, float s, bool reverse, std::int64_t n, TwoNanResult rule) {
  if (s == s)
    ts_row(x, s, reverse, n, [rule](float a, float b) { return alu_f32<OP, false>(a, b, rule); });
  else
    ts_row(x, s, reverse, n, [rule](float a, float b) { return alu_f32<OP>(a, b, rule); });
}
// maximum/minimum/abs_max/abs_min of a row and a scalar, 16 lanes at a time (the scalar loop's
// branches on NaN and equality kept it from vectorising; LU pivot searches run abs_max over whole
// panel rows). Lanes without a NaN: the larger (smaller) operand, equal operands' bits AND-ed
// (OR-ed), as max_ieee/min_ieee; lanes with a NaN go through alu_f32 itself (its NaN rule).
// The same bits as ts_row.
TRN_SIMD_WARNINGS_BEGIN
template <AluOp OP>
__attribute__((target("avx512f"))) void ts_row_extreme_avx512(float* x, float s, bool reverse, std::int64_t n,
                                                              TwoNanResult rule) {
  constexpr bool kMax = OP == AluOp::maximum || OP == AluOp::abs_max;
  constexpr bool kAbs = OP == AluOp::abs_max || OP == AluOp::abs_min;
  // fabs for abs_max/abs_min: the sign bit cleared (a lambda would not inherit the target)
  const __m512i keep = _mm512_set1_epi32(kAbs ? 0x7fffffff : -1);
  const __m512 sv = _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(_mm512_set1_ps(s)), keep));
  for (std::int64_t i = 0; i < n; i += 16) {
    const auto m = n - i >= 16 ? __mmask16(0xffff) : static_cast<__mmask16>((1u << (n - i)) - 1u);
    const __m512 xv = _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(_mm512_maskz_loadu_ps(m, x + i)), keep));
    const __m512 a = reverse ? sv : xv, b = reverse ? xv : sv;
    const __mmask16 take_b = _mm512_cmp_ps_mask(b, a, kMax ? _CMP_GT_OQ : _CMP_LT_OQ);
    const __mmask16 equal = _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ);
    const __mmask16 nan = _mm512_mask_cmp_ps_mask(m, a, b, _CMP_UNORD_Q);
    const __m512i ab = kMax ? _mm512_and_si512(_mm512_castps_si512(a), _mm512_castps_si512(b))
                            : _mm512_or_si512(_mm512_castps_si512(a), _mm512_castps_si512(b));
    const __m512 r = _mm512_mask_blend_ps(equal, _mm512_mask_blend_ps(take_b, a, b), _mm512_castsi512_ps(ab));
    _mm512_mask_storeu_ps(x + i, static_cast<__mmask16>(m & ~nan), r);
    for (int l = 0; l < 16; ++l)
      if ((nan >> l) & 1u) x[i + l] = reverse ? alu_f32<OP>(s, x[i + l], rule) : alu_f32<OP>(x[i + l], s, rule);
  }
}
TRN_SIMD_WARNINGS_END

// tensor_scalar's two stages fused over a dense fp32 row, 16 lanes at a time: to[i] =
// (from[i] op0 s0) op1 s1 (reverse: the scalar first), for op0 in add / subtract / multiply /
// divide and op1 one of them or bypass. Each stage is the same IEEE fp32 operation per element as
// ts_row's and the intermediate stays fp32, so the bits are ts_apply_f32's; one pass reads the
// source row and writes the destination row, instead of a copy and a pass per stage (a large
// tensor_scalar ran at a third of the host's streaming rate). `to` is `from` or shares no byte
// with it. Only for scalars that are not NaN (the caller's test): then no lane has two NaN
// operands, and an IEEE operation with one NaN operand returns that NaN, quieted, in either operand
// order; rows with a NaN scalar take ts_apply_f32, which applies the two-NaN rule (two_nan.hpp).
constexpr bool ts_fusable(AluOp op) {
  return op == AluOp::add || op == AluOp::subtract || op == AluOp::multiply || op == AluOp::divide;
}
TRN_SIMD_WARNINGS_BEGIN
template <AluOp OP>
__attribute__((target("avx512f"))) inline __m512 alu_ps_avx512(__m512 a, __m512 b) {
  if constexpr (OP == AluOp::add) return _mm512_add_ps(a, b);
  else if constexpr (OP == AluOp::subtract) return _mm512_sub_ps(a, b);
  else if constexpr (OP == AluOp::multiply) return _mm512_mul_ps(a, b);
  else return _mm512_div_ps(a, b);
}
template <AluOp OP0, AluOp OP1>
__attribute__((target("avx512f"))) void ts_fused_row_avx512(const float* from, float* to, float s0, bool reverse0,
                                                            float s1, bool reverse1, std::int64_t n) {
  const __m512 v0 = _mm512_set1_ps(s0), v1 = _mm512_set1_ps(s1);
  for (std::int64_t i = 0; i < n; i += 16) {
    const auto m = n - i >= 16 ? __mmask16(0xffff) : static_cast<__mmask16>((1u << (n - i)) - 1u);
    __m512 x = _mm512_maskz_loadu_ps(m, from + i);
    x = reverse0 ? alu_ps_avx512<OP0>(v0, x) : alu_ps_avx512<OP0>(x, v0);
    if constexpr (OP1 != AluOp::bypass) x = reverse1 ? alu_ps_avx512<OP1>(v1, x) : alu_ps_avx512<OP1>(x, v1);
    _mm512_mask_storeu_ps(to + i, m, x);
  }
}
TRN_SIMD_WARNINGS_END
using TsFusedRow = void (*)(const float*, float*, float, bool, float, bool, std::int64_t);
// The fused row function of (op0, op1), or null when they are not fusable.
TsFusedRow ts_fused_row(AluOp op0, AluOp op1) {
  if (!ts_fusable(op0) || !(op1 == AluOp::bypass || ts_fusable(op1))) return nullptr;
  TsFusedRow f = nullptr;
  auto second = [&](auto tag0) {
    constexpr AluOp kOp0 = decltype(tag0)::value;
    switch (op1) {
      case AluOp::bypass: f = ts_fused_row_avx512<kOp0, AluOp::bypass>; break;
      case AluOp::add: f = ts_fused_row_avx512<kOp0, AluOp::add>; break;
      case AluOp::subtract: f = ts_fused_row_avx512<kOp0, AluOp::subtract>; break;
      case AluOp::multiply: f = ts_fused_row_avx512<kOp0, AluOp::multiply>; break;
      default: f = ts_fused_row_avx512<kOp0, AluOp::divide>; break;
    }
  };
  switch (op0) {
    case AluOp::add: second(OpTag<AluOp::add>{}); break;
    case AluOp::subtract: second(OpTag<AluOp::subtract>{}); break;
    case AluOp::multiply: second(OpTag<AluOp::multiply>{}); break;
    default: second(OpTag<AluOp::divide>{}); break;
  }
  return f;
}

// add / subtract / multiply / divide (is_ieee_basic): alu_f32<op> chosen at run time.
inline float alu_f32_basic(AluOp op, float a, float b, TwoNanResult rule) {
  switch (op) {
    case AluOp::add: return alu_f32<AluOp::add>(a, b, rule);
    case AluOp::subtract: return alu_f32<AluOp::subtract>(a, b, rule);
    case AluOp::multiply: return alu_f32<AluOp::multiply>(a, b, rule);
    default: return alu_f32<AluOp::divide>(a, b, rule);
  }
}

// One tensor_scalar stage over a row: one switch per row, a plain loop per op.
void ts_apply_f32(AluOp op, float* x, float s, bool reverse, std::int64_t n, TwoNanResult rule) {
  dispatch_arith(op, [&](auto tag) {
    constexpr AluOp OP = decltype(tag)::value;
    if constexpr (OP == AluOp::maximum || OP == AluOp::minimum || OP == AluOp::abs_max || OP == AluOp::abs_min)
      if (simd::has_avx512()) return ts_row_extreme_avx512<OP>(x, s, reverse, n, rule);
    ts_row_f32<OP>(x, s, reverse, n, rule);
  });
}
// tensor_scalar with one op over dense fp32 rows (dst the same rows as src or disjoint from it) and
// an immediate or fp32 scalar column: the rows of the general loop below, in the same order, each
// copied into dst and worked there, with the op dispatched once per instruction instead of once per
// row and the scalar read at its address (Tile::at(p, 0) is base + p * partition_stride). The same
// bits: the same alu_f32 (or its 16-lane form, the same bits) on the same values. The trsv kernel's
// steps are [128, 1] columns, where the per-row dispatch and scalar lookup were most of the work.
void ts_dense_f32_rows(const Tile& dst, const Tile& src, AluOp op, const ScalarOperand& s0, bool reverse,
                       TwoNanResult rule) {
  const std::int64_t n = detail::free_size_of(src);
  // The operands' addresses in locals: the row copies below are byte stores, which may alias any
  // object, so fields read through the Tile references would be reloaded every row.
  std::byte* const dst_base = dst.base;
  const std::byte* const src_base = src.base;
  const std::byte* const s_base = s0.is_tile ? s0.tile.base : nullptr;
  const std::int64_t dps = dst.partition_stride, sps = src.partition_stride, aps = s0.is_tile ? s0.tile.partition_stride : 0;
  const float imm = s0.imm;
  const std::int32_t partitions = src.partitions;
  if (n == 1 && partitions == 1 && is_ieee_basic(op)) {
    // One element (the trsv kernel's x_j / t_jj): the loop below for p = 0 without the per-op
    // dispatch, whose set-up was most of the instruction's element work (the same alu_f32).
    float a = imm;
    if (s_base != nullptr) std::memcpy(&a, s_base, 4);
    float v;
    std::memcpy(&v, src_base, 4);
    v = reverse ? alu_f32_basic(op, a, v, rule) : alu_f32_basic(op, v, a, rule);
    std::memcpy(dst_base, &v, 4);
    return;
  }
  dispatch_arith(op, [&](auto tag) {
    constexpr AluOp OP = decltype(tag)::value;
    constexpr bool kExtreme = OP == AluOp::maximum || OP == AluOp::minimum || OP == AluOp::abs_max || OP == AluOp::abs_min;
    const bool simd_extreme = kExtreme && simd::has_avx512();
    for (std::int32_t p = 0; p < partitions; ++p) {
      // The scalar first: a scalar column may lie in dst's row, which is written before the op.
      float a = imm;
      if (s_base != nullptr) std::memcpy(&a, s_base + std::int64_t{p} * aps, 4);
      auto* x = reinterpret_cast<float*>(dst_base + std::int64_t{p} * dps);
      const auto* from = reinterpret_cast<const float*>(src_base + std::int64_t{p} * sps);
      if (n == 1) {  // a column: one element per row, no row loop
        float v;
        std::memcpy(&v, from, 4);
        if constexpr (kExtreme) {
          if (simd_extreme) {
            ts_row_extreme_avx512<OP>(&v, a, reverse, 1, rule);
            std::memcpy(x, &v, 4);
            continue;
          }
        }
        v = reverse ? alu_f32<OP>(a, v, rule) : alu_f32<OP>(v, a, rule);
        std::memcpy(x, &v, 4);
        continue;
      }
      if (x != from) std::memcpy(x, from, static_cast<std::size_t>(n) * 4);
      if constexpr (kExtreme) {
        if (simd_extreme) {
          ts_row_extreme_avx512<OP>(x, a, reverse, n, rule);
          continue;
        }
      }
      ts_row_f32<OP>(x, a, reverse, n, rule);
    }
  });
}

void ts_apply_i64(AluOp op, std::int64_t* x, std::int64_t s, bool reverse, std::int64_t n) {
  dispatch_int(op, [&](auto tag) {
    constexpr AluOp OP = decltype(tag)::value;
    ts_row(x, s, reverse, n, [](std::int64_t a, std::int64_t b) { return alu_i64<OP>(a, b); });
  });
}
void ts_apply_bits(AluOp op, std::int64_t* x, std::int64_t s, bool reverse, std::int64_t n) {
  dispatch_bitvec(op, [&](auto tag) {
    constexpr AluOp OP = decltype(tag)::value;
    ts_row(x, s, reverse, n, [](std::int64_t a, std::int64_t b) { return alu_bits<OP>(a, b); });
  });
}

// tensor_scalar's fp32 path over dense fp32 rows, dst the same rows as src or disjoint from it:
// each row is copied into dst and worked there (an fp32 store is a bit copy under every rounding
// mode), without the scratch row's generic load and store (their per-row set-up was most of a short
// row's cost). Shared by the general path and the dense fp32 front-end.
void ts_dense_f32(const Tile& dst, const Tile& src, AluOp op0, const ScalarOperand& s0, AluOp op1,
                  const ScalarOperand& s1, bool reverse0, bool reverse1, TwoNanResult rule) {
  const bool use_s1 = op1 != AluOp::bypass;
  const std::int64_t n = detail::free_size_of(src);
  // One op: columns (n == 1, the trsv kernel's steps) and the ops the fused row does not take run
  // the per-instruction dispatch; longer rows of a fusable op keep the fused single pass below
  // (ts_dense_f32_rows copies each row into dst first, then works it: two passes). The fused row
  // is looked up only when a row may take it.
  const bool one_op_rows = !use_s1 && (!s0.is_tile || s0.tile.dtype == DType::f32);
  const TsFusedRow fused = !(one_op_rows && n == 1) && simd::has_avx512() ? ts_fused_row(op0, op1) : nullptr;
  if (one_op_rows && (fused == nullptr || n == 1)) return ts_dense_f32_rows(dst, src, op0, s0, reverse0, rule);
  for (std::int32_t p = 0; p < src.partitions; ++p) {
    // The scalars first: a scalar column may lie in dst's row, which is written before the ops.
    const float a0 = scalar_f32(s0, p), a1 = use_s1 ? scalar_f32(s1, p) : 0.0f;
    auto* x = reinterpret_cast<float*>(dst.base + std::int64_t{p} * dst.partition_stride);
    const auto* from = reinterpret_cast<const float*>(src.base + std::int64_t{p} * src.partition_stride);
    if (fused != nullptr && !std::isnan(a0) && !std::isnan(a1)) {
      fused(from, x, a0, reverse0, a1, reverse1, n);
      continue;
    }
    if (x != from) std::memcpy(x, from, static_cast<std::size_t>(n) * 4);
    ts_apply_f32(op0, x, a0, reverse0, n, rule);
    if (use_s1) ts_apply_f32(op1, x, a1, reverse1, n, rule);
  }
}

// ---- one-dimension fp32 views of any stride, element by element (issue #30, session 25) ----------
// The complex fp32 SpSV's products run on [<= 64, <= 2] interleaved re / im planes (stride 2) and
// short dense rows: through the scratch rows each partition cost a row walk per operand, a row
// call and a store walk (~110 host instructions a partition, ~7 k an instruction: 64 % of a C_32F
// CG solve). Here the element loop runs over every partition with the addresses in locals.
//
// Equivalence with the scratch rows, which read a partition's whole input rows before writing its
// destination row (the same holds across partitions: rows of different partitions of one memory
// never share a byte, and tiles in different memories none at all): reading element k of each input
// and then writing element k of dst, k = 0, 1, ..., gives the same bytes when no element of dst
// written at step k lies in the bytes of an input element read at a later step j > k.
// strided_elementwise_safe(dst, in) is a sufficient test of that for one input of a one-dimension
// fp32 view, with d_k = D + 4 sd k and i_j = I + 4 si j the elements' byte addresses:
//  - different memories, or the rows' byte hulls disjoint (any strides): no byte in common;
//  - the same stride s != 0 and D - I = 4 q (element-aligned): d_k = i_j exactly when q = s (j - k),
//    so the views share no element when q is not a multiple of s (the other plane of interleaved
//    re / im words), and otherwise element k of dst is input element j = k + q / s, read at a later
//    step only when q / s > 0 (q = 0: the same view, in place; q / s < 0: read before written).
// Any other overlap (unaligned, unequal strides) declines: the scratch rows keep it.
inline bool strided_elementwise_safe(const Tile& dst, const Tile& in) {
  if (in.mem != dst.mem) return true;
  if (in.partition_stride != dst.partition_stride) return false;
  const auto hull = [](const Tile& t, const std::byte*& lo, const std::byte*& hi) {
    const std::int64_t ext = t.stride[0] * (t.size[0] - 1);
    lo = t.base + 4 * std::min<std::int64_t>(ext, 0);
    hi = t.base + 4 * (std::max<std::int64_t>(ext, 0) + 1);
  };
  const std::byte *dlo, *dhi, *ilo, *ihi;
  hull(dst, dlo, dhi);
  hull(in, ilo, ihi);
  if (dhi <= ilo || ihi <= dlo) return true;
  const std::int64_t s = dst.stride[0], delta = dst.base - in.base;
  if (s == 0 || in.stride[0] != s || delta % 4 != 0) return false;
  const std::int64_t q = delta / 4;
  return q % s != 0 || q / s <= 0;
}
// tensor_scalar's fp32 path on one-dimension fp32 views of any stride with one op (tt_strided_applies'
// case for tensor_tensor, the scalar in place of b): x[p][k] op0 s0 (reverse: s0 op0 x), every
// partition and element in order, the scalar read before the partition's row as the scratch rows do
// (a scalar column may lie in dst's row). alu_f32 per element: the bits of ts_apply_f32's loops.
inline bool ts_strided_applies(const Tile& dst, const Tile& src, AluOp op1) {
  return op1 == AluOp::bypass && src.dtype == DType::f32 && dst.dtype == DType::f32 && src.ndim == 1 && dst.ndim == 1 &&
         (dst.stride[0] != 0 || dst.size[0] == 1) && strided_elementwise_safe(dst, src);
}
template <AluOp OP>
void ts_strided_rows_f32(std::int32_t partitions, std::int64_t n, const std::byte* sb, std::int64_t sps, std::int64_t ss,
                         std::byte* db, std::int64_t dps, std::int64_t ds, const ScalarOperand& s0, bool reverse,
                         TwoNanResult rule) {
  const bool f32_column = s0.is_tile && s0.tile.dtype == DType::f32;
  for (std::int32_t p = 0; p < partitions; ++p, sb += sps, db += dps) {
    float a = s0.imm;
    if (f32_column)
      __builtin_memcpy(&a, s0.tile.base + std::int64_t{p} * s0.tile.partition_stride, 4);
    else if (s0.is_tile)
      a = scalar_f32(s0, p);
    const std::byte* x = sb;
    std::byte* d = db;
    for (std::int64_t k = 0; k < n; ++k, x += ss, d += ds) {
      float v;
      __builtin_memcpy(&v, x, 4);
      v = reverse ? alu_f32<OP>(a, v, rule) : alu_f32<OP>(v, a, rule);
      __builtin_memcpy(d, &v, 4);
    }
  }
}
void ts_fp32_strided(const Tile& dst, const Tile& src, AluOp op0, const ScalarOperand& s0, bool reverse0, TwoNanResult rule) {
  dispatch_arith(op0, [&](auto tag) {
    ts_strided_rows_f32<decltype(tag)::value>(src.partitions, src.size[0], src.base, src.partition_stride, 4 * src.stride[0],
                                              dst.base, dst.partition_stride, 4 * dst.stride[0], s0, reverse0, rule);
  });
}

// True when tensor_scalar's operands are dense fp32 ones on VectorE (see dense_f32_operand; scalars:
// immediates or dense fp32 [P, 1] tiles) that pass every check of the general path and whose rows
// take ts_dense_f32 (the general path's dense_f32: the same rows as src, or rows without a common
// byte, regions_disjoint of the two regions put_dense_f32_region writes).
inline bool ts_dense_f32_ready(const HardwareSpec& hw, const Tile& dst, const Tile& src, AluOp op0,
                               const ScalarOperand& s0, AluOp op1, const ScalarOperand& s1) {
  const auto scalar_ok = [&](const ScalarOperand& s) {
    return !s.is_tile || dense_f32_operand_as(s.tile, hw, dst.partitions, 1);
  };
  if (bitvec_op(op0) || bitvec_op(op1) || !dense_f32_operand(dst, hw) ||
      !dense_f32_operand_as(src, hw, dst.partitions, dst.size[0]) || !scalar_ok(s0) ||
      (op1 != AluOp::bypass && !scalar_ok(s1)))
    return false;
  const bool same_rows = dst.partition_stride == src.partition_stride && dst.base == src.base;
  return same_rows || dst.mem != src.mem || dst.partition_start + dst.partitions <= src.partition_start ||
         src.partition_start + src.partitions <= dst.partition_start ||
         dst.offset_bytes + 4 * dst.size[0] <= src.offset_bytes || src.offset_bytes + 4 * src.size[0] <= dst.offset_bytes;
}

}  // namespace

// ================================================================================================
// tensor_copy
// ================================================================================================

void NeuronCore::tensor_copy(const Tile& dst, const Tile& src, Engine engine, InstrOptions opt) {
  if (detail::replay::recording_anywhere()) [[unlikely]]
    detail::replay::note_tensor_copy(*this, dst, src, engine, opt);
  const std::string_view instr = "tensor_copy";
  if (engine != Engine::vector && engine != Engine::gpsimd && engine != Engine::scalar)
    throw UsageError(instr, "engine", "tensor_copy runs on VectorE, ScalarE or GpSimdE");
  detail::check_engine_operand(instr, "src", src, *hw_, engine);
  detail::check_engine_operand(instr, "dst", dst, *hw_, engine);
  detail::require_same_partitions(instr, "src", src, "dst", dst);
  detail::require_same_free_size(instr, "src", src, "dst", dst);
  Instruction& ins = record(engine, Opcode::tensor_copy);
  detail::describe(ins, dst, {&src});
  if (!executes()) return commit_instruction();
  // Same dtype on VectorE/GpSimdE: bit-exact. ScalarE on v2 always goes through fp32 (ISA).
  const bool bit_exact = dst.dtype == src.dtype && !(engine == Engine::scalar && hw_->generation == Generation::trn1);
  const bool int_native = is_integer(dst.dtype) && is_integer(src.dtype) && engine != Engine::scalar &&
                          cfg_.numerics == Numerics::ideal;
  if (bit_exact) {
    detail::copy_all_rows_bits(dst, src);
  } else if (int_native) {
    std::int64_t* row = detail::scratch_i64(0, static_cast<std::size_t>(src.free_size()));
    const detail::IntRows src_rows(src, IntConv::value), dst_rows(dst, IntConv::value);
    for (std::int32_t p = 0; p < src.partitions; ++p) {
      src_rows.load(p, row);
      dst_rows.store(p, row);
    }
  } else {
    const Rounding r = rounding_for(opt);
    const SrStream sr = sr_stream();
    float* row = detail::scratch_f32(0, static_cast<std::size_t>(src.free_size()));
    // Reading the source in place is safe only when the destination cannot overwrite it mid-row.
    const bool in_place_ok = detail::tiles_disjoint(src, dst);
    for (std::int32_t p = 0; p < src.partitions; ++p) {
      const float* v = row;
      if (in_place_ok)
        v = detail::read_row_f32(src, p, row);
      else
        detail::load_row(src, p, row);
      detail::store_row(dst, p, v, r, &sr);
    }
  }
  commit_instruction();
}

// ================================================================================================
// tensor_tensor: dst = op(a, b) element-wise (ISA tensor_tensor). VectorE or GpSimdE (GpSimdE: SBUF
// only). At most one input in PSUM. Paths: see the top of this file.
// ================================================================================================

namespace {
// Element pointer of the o-th innermost run of partition p (runs in access-pattern order).
float* run_start(const Tile& t, std::int32_t p, std::int64_t o) {
  std::int64_t off = 0;
  for (int d = t.ndim - 2; d >= 0; --d) {
    off += (o % t.size[d]) * t.stride[d];
    o /= t.size[d];
  }
  return reinterpret_cast<float*>(t.base + std::int64_t{p} * t.partition_stride) + off;
}
// tt_runs_in_place past its inline tests: views of several free dimensions.
[[gnu::noinline]] bool tt_runs_in_place_dims(const Tile& dst, const Tile& in) {
  for (const Tile* t : {&dst, &in})
    for (int d = 0; d < t->ndim; ++d)
      if (t->stride[d] < 0) return false;
  // Byte hulls of the partition rows: the rows of both tiles step by the same partition stride in
  // SBUF/PSUM, so rows p of both tiles are disjoint iff their hulls are, for every p.
  if (in.partition_stride != dst.partition_stride) return false;
  // Tile::free_hi_byte() - offset_bytes, inline (the strides are not negative here).
  auto hi_bytes = [](const Tile& t) {
    std::int64_t hi = 0;
    for (int d = 0; d < t.ndim; ++d)
      if (t.stride[d] > 0 && t.size[d] > 0) hi += t.stride[d] * (t.size[d] - 1);
    return (hi + 1) * dtype_size(t.dtype);
  };
  const std::byte* dlo = dst.base;
  const std::byte* dhi = dst.base + hi_bytes(dst);
  const std::byte* ilo = in.base;
  const std::byte* ihi = in.base + hi_bytes(in);
  return dhi <= ilo || ihi <= dlo;
}
// `in` may be read run by run while `dst` is written: the same view, or rows without common bytes.
// Inline for the views of one free dimension (a small call's rows: twice per tensor_tensor).
// a == b for the free-pattern arrays, element by element (std::array's == is a memcmp call).
inline bool same_dims(const std::array<std::int64_t, kMaxFreeDims>& a, const std::array<std::int64_t, kMaxFreeDims>& b) {
  static_assert(kMaxFreeDims == 4);
  return ((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3])) == 0;
}
inline bool tt_runs_in_place(const Tile& dst, const Tile& in) {
  if (in.base == dst.base && in.partition_stride == dst.partition_stride && in.ndim == dst.ndim &&
      same_dims(in.size, dst.size) && same_dims(in.stride, dst.stride))
    return true;
  if (in.mem != dst.mem) return true;
  if (dst.ndim != 1 || in.ndim != 1) return tt_runs_in_place_dims(dst, in);
  // One free dimension each: tt_runs_in_place_dims for d = 0 alone.
  if (dst.stride[0] < 0 || in.stride[0] < 0 || in.partition_stride != dst.partition_stride) return false;
  const auto hi1 = [](const Tile& t) {
    const std::int64_t hi = t.stride[0] > 0 && t.size[0] > 0 ? t.stride[0] * (t.size[0] - 1) : 0;
    return (hi + 1) * detail::elem_bytes(t.dtype);
  };
  const std::byte* dhi = dst.base + hi1(dst);
  const std::byte* ihi = in.base + hi1(in);
  return dhi <= in.base || ihi <= dst.base;
}
// Dense rows at least this long keep the per-partition row kernels (16 lanes a step); shorter ones
// (the SpSV's [P, <= 2] products) take the element loop, whose cost is per element only.
constexpr std::int64_t kDenseRowKernelMin = 8;
// fp32 operands of one free dimension that tt_fp32_strided takes: any stride except a destination
// that repeats an element (stride 0 over two or more), every input safe by strided_elementwise_safe;
// dense rows only when short and over several partitions (one row, [P, 1] columns and long rows
// have their own loops in tt_fp32_in_place).
inline bool tt_strided_applies(const Tile& dst, const Tile& a, const Tile& b) {
  if (a.dtype != DType::f32 || b.dtype != DType::f32 || dst.dtype != DType::f32 || a.ndim != 1 || b.ndim != 1 ||
      dst.ndim != 1)
    return false;
  const std::int64_t n = dst.size[0];
  if (n == 1 || dst.stride[0] == 0) return false;
  if (a.stride[0] == 1 && b.stride[0] == 1 && dst.stride[0] == 1 && (n >= kDenseRowKernelMin || dst.partitions == 1))
    return false;
  return strided_elementwise_safe(dst, a) && strided_elementwise_safe(dst, b);
}
// d[p][k] = a[p][k] OP b[p][k] for every partition p and element k, in that order (alu_f32: the
// rule's NaN where both operands are NaN; the row kernels' bits). Strides and partition strides in bytes.
template <AluOp OP>
void tt_strided_rows_f32(std::int32_t partitions, std::int64_t n, const std::byte* ab, std::int64_t aps, std::int64_t as,
                         const std::byte* bb, std::int64_t bps, std::int64_t bs, std::byte* db, std::int64_t dps,
                         std::int64_t ds, TwoNanResult rule) {
  for (std::int32_t p = 0; p < partitions; ++p, ab += aps, bb += bps, db += dps) {
    const std::byte* x = ab;
    const std::byte* y = bb;
    std::byte* d = db;
    for (std::int64_t k = 0; k < n; ++k, x += as, y += bs, d += ds) {
      float u, v;
      __builtin_memcpy(&u, x, 4);
      __builtin_memcpy(&v, y, 4);
      const float r = alu_f32<OP>(u, v, rule);
      __builtin_memcpy(d, &r, 4);
    }
  }
}
// tensor_tensor's fp32 element work on operands tt_strided_applies takes.
void tt_fp32_strided(const Tile& dst, const Tile& a, const Tile& b, AluOp op, TwoNanResult rule) {
  dispatch_arith(op, [&](auto tag) {
    tt_strided_rows_f32<decltype(tag)::value>(dst.partitions, dst.size[0], a.base, a.partition_stride, 4 * a.stride[0],
                                              b.base, b.partition_stride, 4 * b.stride[0], dst.base,
                                              dst.partition_stride, 4 * dst.stride[0], rule);
  });
}

// tensor_tensor's fp32 path (every operand read as fp32, the op in fp32, dst written with the
// instruction's rounding), the element work after the checks and the record, in three parts shared by
// the general path and the dense fp32 one: tt_fp32_strided when tt_strided_applies, else
// tt_fp32_in_place (false: it did nothing) and, when that declines, tt_fp32_scratch_rows.
bool tt_fp32_in_place(const Tile& dst, const Tile& a, const Tile& b, AluOp op, TwoNanResult rule) {
  const std::int64_t n = detail::free_size_of(a);
  // fp32 operands whose innermost runs are dense and equally long (e.g. a table broadcast over
  // blocks through a stride-0 dimension) are combined run by run in place, without widening the
  // rows into scratch, when each input is the destination's own view or shares no byte with its
  // row (so every input element is read before the row is written, as through the scratch). One
  // element per partition is such a run whatever its views' stride fields say (a [P, 1] column of
  // an interleaved complex plane: stride 2).
  if (a.dtype == DType::f32 && b.dtype == DType::f32 && dst.dtype == DType::f32 && tt_runs_in_place(dst, a) &&
      tt_runs_in_place(dst, b) && dst.size[dst.ndim - 1] == a.size[a.ndim - 1] &&
      dst.size[dst.ndim - 1] == b.size[b.ndim - 1] &&
      (n == 1 || (dst.stride[dst.ndim - 1] == 1 && a.stride[a.ndim - 1] == 1 && b.stride[b.ndim - 1] == 1))) {
    const std::int64_t run = dst.size[dst.ndim - 1], runs = n / run;
    if (n == 1) {
      // Columns ([P, 1]: the trsv kernel's updates): one element per partition, computed inline
      // (the same alu_f32; the 16-lane add/subtract/multiply give the same bits) with the
      // addresses in locals instead of a row call per partition.
      const std::byte* const ab = a.base;
      const std::byte* const bb = b.base;
      std::byte* const db = dst.base;
      const std::int64_t aps = a.partition_stride, bps = b.partition_stride, dps = dst.partition_stride;
      const std::int32_t partitions = a.partitions;
      dispatch_arith(op, [&](auto tag) {
        for (std::int32_t p = 0; p < partitions; ++p) {
          float x, y;
          std::memcpy(&x, ab + std::int64_t{p} * aps, 4);
          std::memcpy(&y, bb + std::int64_t{p} * bps, 4);
          const float v = alu_f32<decltype(tag)::value>(x, y, rule);
          std::memcpy(db + std::int64_t{p} * dps, &v, 4);
        }
      });
      return true;
    }
    if (a.partitions == 1 && runs == 1 && is_ieee_basic(op)) {
      // One run of one partition (the trsv kernel's x_i - t_ij x_j): the loop below for p = 0,
      // o = 0 without the per-op dispatch (run_start(t, 0, 0) is t.base).
      const auto* x = reinterpret_cast<const float*>(a.base);
      const auto* y = reinterpret_cast<const float*>(b.base);
      auto* out = reinterpret_cast<float*>(dst.base);
      switch (op) {
        case AluOp::add: tt_row_f32<AluOp::add>(x, y, out, run, rule); break;
        case AluOp::subtract: tt_row_f32<AluOp::subtract>(x, y, out, run, rule); break;
        case AluOp::multiply: tt_row_f32<AluOp::multiply>(x, y, out, run, rule); break;
        default: tt_row_f32<AluOp::divide>(x, y, out, run, rule); break;
      }
      return true;
    }
    if (a.ndim <= 2 && b.ndim <= 2 && dst.ndim <= 2) {
      // At most one outer dimension each: run o of partition p starts o * stride[0] elements into the
      // row (run_start without its division per dimension and run, which was most of a short run's
      // cost: bsrmv's slot products are 4 runs a partition).
      const auto outer_step = [](const Tile& t) { return t.ndim == 2 ? t.stride[0] : std::int64_t{0}; };
      const std::int64_t as = outer_step(a), bs = outer_step(b), ds = outer_step(dst);
      dispatch_arith(op, [&](auto tag) {
        for (std::int32_t p = 0; p < a.partitions; ++p) {
          const float* x = run_start(a, p, 0);
          const float* y = run_start(b, p, 0);
          float* out = run_start(dst, p, 0);
          for (std::int64_t o = 0; o < runs; ++o)
            tt_row_f32<decltype(tag)::value>(x + o * as, y + o * bs, out + o * ds, run, rule);
        }
      });
      return true;
    }
    dispatch_arith(op, [&](auto tag) {
      for (std::int32_t p = 0; p < a.partitions; ++p)
        for (std::int64_t o = 0; o < runs; ++o)
          tt_row_f32<decltype(tag)::value>(run_start(a, p, o), run_start(b, p, o), run_start(dst, p, o), run, rule);
    });
    return true;
  }
  return false;
}
// r, sr: the instruction's rounding, for store_row (the in-place paths above store fp32 rows).
void tt_fp32_scratch_rows(const Tile& dst, const Tile& a, const Tile& b, AluOp op, Rounding r, const SrStream& sr,
                          TwoNanResult rule) {
  const std::int64_t n = detail::free_size_of(a);
  float* xs = detail::scratch_f32(0, row_len(a));
  float* ys = detail::scratch_f32(1, row_len(a));
  float* out = detail::scratch_f32(2, row_len(a));  // separate: a or b may be read in place
  // An fp32 dense destination row takes the results directly (storing fp32 is a plain copy) when
  // each input row read in place is the same row or shares no byte with it (element-wise ops).
  const bool dst_direct = dst.dtype == DType::f32 && detail::free_contiguous_of(dst);
  const std::int64_t row_bytes = n * 4;
  auto clear_of = [&](const float* x, const std::byte* d) {
    const auto* xb = reinterpret_cast<const std::byte*>(x);
    return xb == d || xb + row_bytes <= d || d + row_bytes <= xb;
  };
  dispatch_arith(op, [&](auto tag) {
    for (std::int32_t p = 0; p < a.partitions; ++p) {
      const float* x = detail::read_row_f32(a, p, xs);
      const float* y = detail::read_row_f32(b, p, ys);
      std::byte* d = dst.base + std::int64_t{p} * dst.partition_stride;
      if (dst_direct && clear_of(x, d) && clear_of(y, d)) {
        tt_row_f32<decltype(tag)::value>(x, y, reinterpret_cast<float*>(d), n, rule);
      } else {
        tt_row_f32<decltype(tag)::value>(x, y, out, n, rule);
        detail::store_row(dst, p, out, r, &sr);
      }
    }
  });
}
// True when tensor_tensor's operands are dense fp32 ones on VectorE (see dense_f32_operand) that
// pass every check of the general path.
inline bool tt_dense_f32_ready(const HardwareSpec& hw, const Tile& dst, const Tile& a, const Tile& b, AluOp op) {
  return op != AluOp::power && !bitvec_op(op) && dense_f32_operand(dst, hw) &&
         dense_f32_operand_as(a, hw, dst.partitions, dst.size[0]) &&
         dense_f32_operand_as(b, hw, dst.partitions, dst.size[0]) && !(a.mem == MemSpace::psum && b.mem == MemSpace::psum);
}
}  // namespace

void NeuronCore::tensor_tensor(const Tile& dst, const Tile& a, const Tile& b, AluOp op, Engine engine,
                               InstrOptions opt) {
  if (detail::replay::recording_anywhere()) [[unlikely]]
    detail::replay::note_tensor_tensor(*this, dst, a, b, op, engine, opt);
  // Dense fp32 operands (the commonest; see dense_f32_operand): every check below passes, and the
  // record and the element work in one pass, here; the general path in a function of its own.
  if (engine == Engine::vector && tt_dense_f32_ready(*hw_, dst, a, b, op)) [[likely]] {
    Instruction& ins = record(engine, Opcode::tensor_tensor);
    put_dense_f32_region(ins.regions[0], dst, true);
    put_dense_f32_region(ins.regions[1], a, false);
    put_dense_f32_region(ins.regions[2], b, false);
    fill_dense_f32_record(ins, 3, dst, 2, 2 * a.size[0] * a.partitions * 4);
    ins.subop = static_cast<std::uint8_t>(static_cast<int>(op) + 1);  // cost model: AluOp + 1
    if (executes()) {
      // tt_strided_applies for dense fp32 operands (fp32, one dimension, strides 1 or size 1).
      const std::int64_t n = dst.size[0];
      if (n > 1 && n < kDenseRowKernelMin && dst.partitions > 1 && strided_elementwise_safe(dst, a) &&
          strided_elementwise_safe(dst, b))
        tt_fp32_strided(dst, a, b, op, cfg_.two_nan_result);
      else if (!tt_fp32_in_place(dst, a, b, op, cfg_.two_nan_result))
        tt_fp32_scratch_rows(dst, a, b, op, rounding_for(opt), sr_stream(), cfg_.two_nan_result);
    }
    return commit_instruction();
  }
  [&]() __attribute__((noinline)) {
    const std::string_view instr = "tensor_tensor";
    const bool bitvec = bitvec_op(op);
    Instruction* rec = nullptr;
    FlatOperand fd, fa, fb;
    if (engine == Engine::vector && op != AluOp::power && !bitvec && flat_vector_operand(dst, *hw_, fd) &&
        flat_vector_operand(a, *hw_, fa) && flat_vector_operand(b, *hw_, fb) &&
        !(a.mem == MemSpace::psum && b.mem == MemSpace::psum) && a.partitions == b.partitions &&
        a.partitions == dst.partitions && fa.free == fb.free && fa.free == fd.free) [[likely]] {
      // Flat operands (see FlatOperand): every check below passes; describe's fields in one pass.
      Instruction& ins = record(engine, Opcode::tensor_tensor);
      put_flat_region(ins.regions[0], dst, fd, true);
      put_flat_region(ins.regions[1], a, fa, false);
      put_flat_region(ins.regions[2], b, fb, false);
      fill_flat_record(ins, 3, dst, fd, a, 2, flat_bytes(a, fa) + flat_bytes(b, fb),
                       fd.contiguous && fa.contiguous && fb.contiguous);
      rec = &ins;
    } else {
      require_vector_engine(instr, engine, {Engine::vector, Engine::gpsimd}, "VectorE or GpSimdE");
      // ISA: tensor_tensor "power" is a GpSimd operation.
      if (op == AluOp::power && engine != Engine::gpsimd)
        throw UsageError(instr, "op", "power runs on GpSimdE (engine=gpsimd), not " + std::string(engine_name(engine)));
      check_two_inputs(instr, "a", a, "b", b, dst, *hw_, engine);
      if (bitvec) {
        require_integer(instr, "a", a, op);
        require_integer(instr, "b", b, op);
        require_integer(instr, "dst", dst, op);
      }
      rec = &record(engine, Opcode::tensor_tensor);
      detail::describe(*rec, dst, {&a, &b});
    }
    Instruction& ins = *rec;
    ins.subop = static_cast<std::uint8_t>(static_cast<int>(op) + 1);  // cost model: AluOp + 1
    if (!executes()) return commit_instruction();
    const std::int64_t n = detail::free_size_of(a);
    const bool all_int = is_integer(a.dtype) && is_integer(b.dtype) && is_integer(dst.dtype);
    const bool native_engine = engine == Engine::gpsimd || cfg_.numerics == Numerics::ideal;

    if (bitvec) {
      const bool through_fp32 = engine != Engine::gpsimd && cfg_.numerics == Numerics::trn1_measured;
      const IntConv in_conv = through_fp32 ? IntConv::pattern_via_fp32 : IntConv::pattern;
      const detail::IntRows rows_a(a, in_conv), rows_b(b, in_conv), rows_dst(dst, IntConv::pattern);
      tt_int_rows(dst, a, b, n, rows_a, rows_b, rows_dst, [&](auto&& body) {
        dispatch_bitvec(op, [&](auto tag) { body(tt_row_bits<decltype(tag)::value>); });
      });
    } else if (all_int && native_engine && int_native_op(op)) {
      const detail::IntRows rows_a(a, IntConv::value), rows_b(b, IntConv::value), rows_dst(dst, IntConv::value);
      tt_int_rows(dst, a, b, n, rows_a, rows_b, rows_dst, [&](auto&& body) {
        dispatch_int(op, [&](auto tag) { body(tt_row_i64<decltype(tag)::value>); });
      });
    } else if (tt_strided_applies(dst, a, b)) {
      tt_fp32_strided(dst, a, b, op, cfg_.two_nan_result);
    } else if (!tt_fp32_in_place(dst, a, b, op, cfg_.two_nan_result)) {
      tt_fp32_scratch_rows(dst, a, b, op, rounding_for(opt), sr_stream(), cfg_.two_nan_result);
    }
    commit_instruction();
  }();
}

// ================================================================================================
// tensor_scalar: dst = (src op0 s0) op1 s1 (ISA tensor_scalar); reverse0/1 swap the operands of
// op0/op1; op1 = bypass means no second op. s0/s1: fp32 immediates or [P,1] tiles. op0 and op1 are
// both bitvec or both arithmetic (bypass goes with either). Engines: VectorE (all ops); ScalarE on
// trn2+ only for (multiply, add), (multiply, bypass), (add, bypass), always in fp32; GpSimdE
// (arithmetic ops; bitvec ops are VectorE only). The intermediate (src op0 s0) stays in the working
// precision (fp32, int64 or 32-bit pattern) and is not cast to dst's dtype.
// Bitvec immediates must be whole numbers in [-2^31, 2^32) and are used as 32-bit patterns.
// ================================================================================================

void NeuronCore::tensor_scalar(const Tile& dst, const Tile& src, AluOp op0, ScalarOperand s0, AluOp op1,
                               ScalarOperand s1, Engine engine, bool reverse0, bool reverse1, InstrOptions opt) {
  if (detail::replay::recording_anywhere()) [[unlikely]]
    detail::replay::note_tensor_scalar(*this, dst, src, op0, s0, op1, s1, engine, reverse0, reverse1, opt);
  // Dense fp32 operands (the commonest; see dense_f32_operand): every check below passes, and the
  // record and the element work in one pass, here; the general path in a function of its own.
  if (engine == Engine::vector && ts_dense_f32_ready(*hw_, dst, src, op0, s0, op1, s1)) [[likely]] {
    Instruction& ins = record(engine, Opcode::tensor_scalar);
    put_dense_f32_region(ins.regions[0], dst, true);
    put_dense_f32_region(ins.regions[1], src, false);
    std::uint8_t k = 2;
    std::int64_t bytes_read = src.size[0] * src.partitions * 4;
    if (s0.is_tile) {
      put_dense_f32_region(ins.regions[k++], s0.tile, false);
      bytes_read += s0.tile.partitions * 4;
    }
    if (op1 != AluOp::bypass && s1.is_tile) {
      put_dense_f32_region(ins.regions[k++], s1.tile, false);
      bytes_read += s1.tile.partitions * 4;
    }
    fill_dense_f32_record(ins, k, dst, 1, bytes_read);
    if (executes()) ts_dense_f32(dst, src, op0, s0, op1, s1, reverse0, reverse1, cfg_.two_nan_result);
    return commit_instruction();
  }
  [&]() __attribute__((noinline)) {
    const std::string_view instr = "tensor_scalar";
    const bool bitvec = bitvec_op(op0) || bitvec_op(op1);
    const bool use_s1 = op1 != AluOp::bypass;
    Instruction* rec = nullptr;
    FlatOperand fd, fs, f0, f1;
    // A scalar operand of the flat path: an immediate, or a flat [P, 1] tile with src's partitions.
    const auto flat_scalar = [&](const ScalarOperand& s, FlatOperand& f) {
      return !s.is_tile || (flat_vector_operand(s.tile, *hw_, f) && f.free == 1 && s.tile.partitions == src.partitions);
    };
    if (engine == Engine::vector && !bitvec && flat_vector_operand(dst, *hw_, fd) && flat_vector_operand(src, *hw_, fs) &&
        src.partitions == dst.partitions && fs.free == fd.free && flat_scalar(s0, f0) && (!use_s1 || flat_scalar(s1, f1)))
        [[likely]] {
      // Flat operands (see FlatOperand): every check below passes; describe's and
      // add_vector_operand's fields in one pass.
      Instruction& ins = record(engine, Opcode::tensor_scalar);
      put_flat_region(ins.regions[0], dst, fd, true);
      put_flat_region(ins.regions[1], src, fs, false);
      std::uint8_t k = 2;
      std::int64_t bytes_read = flat_bytes(src, fs);
      if (s0.is_tile) {
        put_flat_region(ins.regions[k++], s0.tile, f0, false);
        bytes_read += flat_bytes(s0.tile, f0);
      }
      if (use_s1 && s1.is_tile) {
        put_flat_region(ins.regions[k++], s1.tile, f1, false);
        bytes_read += flat_bytes(s1.tile, f1);
      }
      fill_flat_record(ins, k, dst, fd, src, 1, bytes_read, fd.contiguous && fs.contiguous);
      rec = &ins;
    } else {
      require_vector_engine(instr, engine, {Engine::vector, Engine::scalar, Engine::gpsimd},
                            "VectorE, ScalarE (trn2+) or GpSimdE");
      if (engine == Engine::scalar) {
        if (hw_->generation == Generation::trn1) throw NotSupportedError(instr, "tensor_scalar on ScalarE", hw_->name);
        const bool ok = (op0 == AluOp::multiply && (op1 == AluOp::add || op1 == AluOp::bypass)) ||
                        (op0 == AluOp::add && op1 == AluOp::bypass);
        if (!ok)
          throw UsageError(instr, "op0",
                           "ScalarE supports only (multiply, add), (multiply, bypass), (add, bypass); got (" +
                               std::string(alu_op_name(op0)) + ", " + std::string(alu_op_name(op1)) + ")");
      }
      if (bitvec) {
        if ((op0 != AluOp::bypass && !bitvec_op(op0)) || (op1 != AluOp::bypass && !bitvec_op(op1)))
          throw UsageError(instr, bitvec_op(op0) ? "op1" : "op0",
                           "op0 and op1 must both be bitvec or both arithmetic (got " + std::string(alu_op_name(op0)) +
                               ", " + std::string(alu_op_name(op1)) + ")");
        if (engine != Engine::vector)
          throw UsageError(instr, "engine", "bitvec ops run on VectorE only (got " + std::string(engine_name(engine)) + ")");
      }
      detail::check_engine_operand(instr, "src", src, *hw_, engine);
      detail::check_engine_operand(instr, "dst", dst, *hw_, engine);
      detail::require_same_partitions(instr, "src", src, "dst", dst);
      detail::require_same_free_size(instr, "src", src, "dst", dst);
      check_scalar_operand(instr, "operand0", s0, src, *hw_, engine);
      if (use_s1) check_scalar_operand(instr, "operand1", s1, src, *hw_, engine);
      if (bitvec) {
        const AluOp bop = bitvec_op(op0) ? op0 : op1;  // named in messages (op0 may be bypass)
        require_integer(instr, "src", src, bop);
        require_integer(instr, "dst", dst, bop);
        const std::pair<const char*, const ScalarOperand*> scalars[] = {{"operand0", &s0}, {"operand1", &s1}};
        for (int k = 0; k < (use_s1 ? 2 : 1); ++k) {
          const auto& [name, s] = scalars[k];
          if (s->is_tile) {
            require_integer(instr, name, s->tile, bop);
          } else if (!integral_immediate(s->imm)) {
            throw UsageError(instr, name, "bitvec immediate " + std::to_string(s->imm) +
                                              " is not a whole number in [-2^31, 2^32); use a [P,1] integer tile");
          }
        }
      }

      rec = &record(engine, Opcode::tensor_scalar);
      detail::describe(*rec, dst, {&src});
      if (s0.is_tile) add_vector_operand(*rec, s0.tile);
      if (use_s1 && s1.is_tile) add_vector_operand(*rec, s1.tile);
    }
    Instruction& ins = *rec;
    if (!executes()) return commit_instruction();

    const std::int64_t n = detail::free_size_of(src);
    auto scalar_is_int = [](const ScalarOperand& s) {
      return s.is_tile ? is_integer(s.tile.dtype) : integral_immediate(s.imm);
    };
    const bool all_int = is_integer(src.dtype) && is_integer(dst.dtype) && scalar_is_int(s0) &&
                         (!use_s1 || scalar_is_int(s1));
    const bool native_engine =
        engine == Engine::gpsimd || (engine == Engine::vector && cfg_.numerics == Numerics::ideal);

    if (bitvec) {
      const bool through_fp32 = cfg_.numerics == Numerics::trn1_measured;  // VectorE only here
      const detail::IntRows rows_src(src, through_fp32 ? IntConv::pattern_via_fp32 : IntConv::pattern),
          rows_dst(dst, IntConv::pattern);
      ts_int_rows(dst, src, n, s0, s1, use_s1, rows_src, rows_dst, [&](std::int64_t* row, std::int32_t p, std::int64_t len) {
        ts_apply_bits(op0, row, scalar_bits(s0, p, through_fp32), reverse0, len);
        if (use_s1) ts_apply_bits(op1, row, scalar_bits(s1, p, through_fp32), reverse1, len);
      });
    } else if (all_int && native_engine && int_native_op(op0) && (!use_s1 || int_native_op(op1))) {
      const detail::IntRows rows_src(src, IntConv::value), rows_dst(dst, IntConv::value);
      ts_int_rows(dst, src, n, s0, s1, use_s1, rows_src, rows_dst, [&](std::int64_t* row, std::int32_t p, std::int64_t len) {
        ts_apply_i64(op0, row, scalar_int(s0, p), reverse0, len);
        if (use_s1) ts_apply_i64(op1, row, scalar_int(s1, p), reverse1, len);
      });
    } else {
      // Dense fp32 rows, dst the same rows as src or disjoint from it: ts_dense_f32.
      // tiles_disjoint(dst, src) from the regions describe just wrote (record slots 0 and 1).
      const bool rows_in_place = dst.partition_stride == src.partition_stride;
      const bool dense_f32 = src.dtype == DType::f32 && dst.dtype == DType::f32 && detail::free_contiguous_of(src) &&
                             detail::free_contiguous_of(dst) &&
                             ((rows_in_place && dst.base == src.base) || detail::regions_disjoint(ins.regions[0], ins.regions[1]));
      if (dense_f32) {
        ts_dense_f32(dst, src, op0, s0, op1, s1, reverse0, reverse1, cfg_.two_nan_result);
        return commit_instruction();
      }
      if (ts_strided_applies(dst, src, op1)) {
        ts_fp32_strided(dst, src, op0, s0, reverse0, cfg_.two_nan_result);
        return commit_instruction();
      }
      // Other rows through an fp32 scratch row, stored with the instruction's rounding.
      const Rounding r = rounding_for(opt);
      const SrStream sr = sr_stream();
      float* scratch = detail::scratch_f32(0, row_len(src));
      for (std::int32_t p = 0; p < src.partitions; ++p) {
        // The scalars first: a scalar column may lie in dst's row, which is written before the ops.
        const float a0 = scalar_f32(s0, p), a1 = use_s1 ? scalar_f32(s1, p) : 0.0f;
        detail::load_row(src, p, scratch);
        ts_apply_f32(op0, scratch, a0, reverse0, n, cfg_.two_nan_result);
        if (use_s1) ts_apply_f32(op1, scratch, a1, reverse1, n, cfg_.two_nan_result);
        detail::store_row(dst, p, scratch, r, &sr);
      }
    }
    commit_instruction();
  }();
}

// ================================================================================================
// tensor_reduce: dst[p, 0] = op over all free elements of src[p, :] (ISA tensor_reduce, ARCH2).
// Order: sequential, left to right in access-pattern order, acc = x0; acc = op(acc, x_i) for
// i = 1..n-1, in fp32 (native-integer and bitvec paths as for tensor_tensor). Ops: add, multiply,
// maximum, minimum, logical_and/or/xor, bitwise_and/or/xor. negate flips the sign of the final
// result (arithmetic ops only). The partition axis is never reduced (API property).
// ================================================================================================

namespace {
// op over row[0 .. n) (n >= 1), tensor_reduce's order: acc = x0, then acc = op(acc, x_i) left to
// right; maximum / minimum without NaN by extreme_without_nan (the same bits, see there).
template <AluOp kOp>
inline float reduce_f32_row(const float* row, std::int64_t n, TwoNanResult rule) {
  if constexpr (kOp == AluOp::maximum || kOp == AluOp::minimum)
    if (n > 1)
      if (const std::optional<float> extreme = extreme_without_nan<kOp == AluOp::maximum>(row, n)) return *extreme;
  // the sequential fold: the other ops, and NaN payload order of maximum/minimum
  float acc = row[0];
  if constexpr (is_logical(kOp)) acc = acc != 0.0f ? 1.0f : 0.0f;
  for (std::int64_t i = 1; i < n; ++i) acc = alu_f32<kOp>(acc, row[i], rule);
  return acc;
}
// tensor_reduce of fp32 rows whose free pattern is one run (element i of partition p at
// src + p * sps + i * step * 4) into an fp32 [P, 1] destination (element p at dst + p * dps): a
// dense run is read in place, a strided one gathered into `scratch`, and each result written at its
// address (an fp32 store is a bit copy under every rounding mode). The values and order of the
// general row walk (load_row, store_row), so the same bits; row p is read whole before dst's
// element p is written, as through the scratch. Addresses and sizes are parameters, not Tile
// fields: the byte stores would otherwise reload them every partition (a Krylov solve's <= 64 x
// <= 2 dot products spent ~10k host instructions per reduce in the per-partition row walks).
template <AluOp kOp>
void reduce_f32_run_rows(const std::byte* src, std::int64_t sps, std::int64_t step, std::int64_t n,
                         std::int32_t partitions, bool negate, std::byte* dst, std::int64_t dps, float* scratch,
                         TwoNanResult rule) {
  for (std::int32_t p = 0; p < partitions; ++p) {
    const std::byte* at = src + std::int64_t{p} * sps;
    const float* row = scratch;
    if (step == 1)
      row = reinterpret_cast<const float*>(at);
    else
      for (std::int64_t i = 0; i < n; ++i) std::memcpy(scratch + i, at + i * step * 4, 4);
    float acc = n == 2 && !(kOp == AluOp::maximum || kOp == AluOp::minimum || is_logical(kOp))
                    ? alu_f32<kOp>(row[0], row[1], rule)  // the fold for two elements, without its loop
                    : reduce_f32_row<kOp>(row, n, rule);
    if (negate) acc = -acc;
    std::memcpy(dst + std::int64_t{p} * dps, &acc, 4);
  }
}
}  // namespace

void NeuronCore::tensor_reduce(const Tile& dst, const Tile& src, AluOp op, bool negate, InstrOptions opt) {
  const std::string_view instr = "tensor_reduce";
  const bool bitvec = op == AluOp::bitwise_and || op == AluOp::bitwise_or || op == AluOp::bitwise_xor;
  const bool arith = op == AluOp::add || op == AluOp::multiply || op == AluOp::maximum || op == AluOp::minimum ||
                     is_logical(op);
  if (!bitvec && !arith)
    throw UsageError(instr, "op", std::string(alu_op_name(op)) +
                                      " is not a reduction op (add, multiply, maximum, minimum, logical_and/or/xor, "
                                      "bitwise_and/or/xor)");
  detail::check_engine_operand(instr, "src", src, *hw_, Engine::vector);
  detail::check_engine_operand(instr, "dst", dst, *hw_, Engine::vector);
  detail::require_same_partitions(instr, "src", src, "dst", dst);
  if (detail::free_size_of(dst) != 1)
    throw LimitError(std::string(instr), "dst", "free size", dst.free_size(), "reduced free size", 1, hw_->name);
  if (bitvec) {
    require_integer(instr, "src", src, op);
    require_integer(instr, "dst", dst, op);
    if (negate) throw UsageError(instr, "negate", "negate applies to arithmetic reductions, not bitvec ops");
  }

  Instruction& ins = record(Engine::vector, Opcode::tensor_reduce);
  detail::describe(ins, dst, {&src});
  ins.subop = static_cast<std::uint8_t>(static_cast<int>(op) + 1);  // AluOp + 1
  if (!executes()) return commit_instruction();
  const std::int64_t n = detail::free_size_of(src);
  const bool all_int = is_integer(src.dtype) && is_integer(dst.dtype);

  if (bitvec) {
    const bool through_fp32 = cfg_.numerics == Numerics::trn1_measured;
    std::int64_t* x = detail::scratch_i64(0, row_len(src));
    const detail::IntRows src_rows(src, through_fp32 ? IntConv::pattern_via_fp32 : IntConv::pattern),
        dst_rows(dst, IntConv::pattern);
    dispatch_bitvec(op, [&](auto tag) {
      for (std::int32_t p = 0; p < src.partitions; ++p) {
        src_rows.load(p, x);
        std::int64_t acc = x[0];
        for (std::int64_t i = 1; i < n; ++i) acc = alu_bits<decltype(tag)::value>(acc, x[i]);
        dst_rows.store(p, &acc);
      }
    });
  } else if (all_int && cfg_.numerics == Numerics::ideal) {
    std::int64_t* x = detail::scratch_i64(0, row_len(src));
    const detail::IntRows src_rows(src, IntConv::value), dst_rows(dst, IntConv::value);
    dispatch_int(op, [&](auto tag) {
      for (std::int32_t p = 0; p < src.partitions; ++p) {
        src_rows.load(p, x);
        std::int64_t acc = x[0];
        if constexpr (is_logical(decltype(tag)::value)) acc = acc != 0;
        for (std::int64_t i = 1; i < n; ++i) acc = alu_i64<decltype(tag)::value>(acc, x[i]);
        if (negate) acc = sat_sub(0, acc);
        dst_rows.store(p, &acc);
      }
    });
  } else {
    float* x = detail::scratch_f32(0, row_len(src));
    // fp32 rows of one run into an fp32 column: at their addresses (reduce_f32_run_rows, the same bits).
    std::int64_t step = 1;
    if (src.dtype == DType::f32 && dst.dtype == DType::f32 && detail::single_run(src, step)) {
      dispatch_arith(op, [&](auto tag) {
        reduce_f32_run_rows<decltype(tag)::value>(src.base, src.partition_stride, step, n, src.partitions, negate,
                                                  dst.base, dst.partition_stride, x, cfg_.two_nan_result);
      });
      return commit_instruction();
    }
    const Rounding r = rounding_for(opt);
    const SrStream sr = sr_stream();
    dispatch_arith(op, [&](auto tag) {
      for (std::int32_t p = 0; p < src.partitions; ++p) {
        detail::load_row(src, p, x);
        float acc = reduce_f32_row<decltype(tag)::value>(x, n, cfg_.two_nan_result);
        if (negate) acc = -acc;
        detail::store_row(dst, p, &acc, r, &sr);
      }
    });
  }
  commit_instruction();
}

// ================================================================================================
// tensor_tensor_scan (ISA tensor_tensor_scan): r[:,0] = op1(op0(d0[:,0], init), d1[:,0]);
// r[:,i] = op1(op0(d0[:,i], r[:,i-1]), d1[:,i]); sequential in fp32 (also for integer dtypes; the
// running value is not cast to dst's dtype between steps). Arithmetic ops only; at most one of d0,
// d1 in PSUM (as tensor_tensor).
// ================================================================================================

void NeuronCore::tensor_tensor_scan(const Tile& dst, const Tile& d0, const Tile& d1, ScalarOperand init,
                                    AluOp op0, AluOp op1, InstrOptions opt) {
  const std::string_view instr = "tensor_tensor_scan";
  if (bitvec_op(op0)) throw UsageError(instr, "op0", "bitvec ops are not supported by the fp32 scan");
  if (bitvec_op(op1)) throw UsageError(instr, "op1", "bitvec ops are not supported by the fp32 scan");
  check_two_inputs(instr, "data0", d0, "data1", d1, dst, *hw_, Engine::vector);
  if (init.is_tile) {
    detail::check_engine_operand(instr, "initial", init.tile, *hw_, Engine::vector);
    detail::require_same_partitions(instr, "data0", d0, "initial", init.tile);
    if (init.tile.free_size() != 1)
      throw LimitError(std::string(instr), "initial", "free size", init.tile.free_size(), "free size of an initial tile",
                       1, hw_->name);
  }

  Instruction& ins = record(Engine::vector, Opcode::tensor_tensor_scan);
  if (init.is_tile)
    detail::describe(ins, dst, {&d0, &d1, &init.tile});
  else
    detail::describe(ins, dst, {&d0, &d1});
  if (!executes()) return commit_instruction();
  const Rounding r = rounding_for(opt);
  const SrStream sr = sr_stream();
  const std::int64_t n = d0.free_size();
  float* x = detail::scratch_f32(0, row_len(d0));
  float* y = detail::scratch_f32(1, row_len(d0));
  const TwoNanResult rule = cfg_.two_nan_result;
  dispatch_arith(op0, [&](auto t0) {
    dispatch_arith(op1, [&](auto t1) {
      for (std::int32_t p = 0; p < d0.partitions; ++p) {
        detail::load_row(d0, p, x);
        detail::load_row(d1, p, y);
        float acc = init.is_tile ? load_as_f32(init.tile.dtype, init.tile.at(p, 0)) : init.imm;
        for (std::int64_t i = 0; i < n; ++i) {
          acc = alu_f32<decltype(t1)::value>(alu_f32<decltype(t0)::value>(x[i], acc, rule), y[i], rule);
          x[i] = acc;
        }
        detail::store_row(dst, p, x, r, &sr);
      }
    });
  });
  commit_instruction();
}

// ================================================================================================
// memset (ISA memset): VectorE or GpSimdE; every element of dst = value cast to dst's dtype
// once, by RNE (integers: RNE + saturation, NaN -> 0). A constant fill never uses SR.
// ================================================================================================

void NeuronCore::memset(const Tile& dst, float value, Engine engine) {
  if (detail::replay::recording_anywhere()) [[unlikely]]
    detail::replay::note_memset(*this, dst, value, engine);
  const std::string_view instr = "memset";
  require_vector_engine(instr, engine, {Engine::vector, Engine::gpsimd}, "VectorE or GpSimdE");
  detail::check_engine_operand(instr, "dst", dst, *hw_, engine);
  Instruction& ins = record(engine, Opcode::memset);
  detail::describe(ins, dst, {});
  if (!executes()) return commit_instruction();
  // Every element holds the same rounded value (RNE, no SR stream): encoded once, then copied.
  std::byte elem[8] = {};
  store_row_f32(dst.dtype, &value, 1, elem, 1, Rounding::nearest_even, nullptr, 0);
  detail::fill_elements(dst, elem);
  commit_instruction();
}

// ================================================================================================
// bn_stats (ISA bn_stats; bn_stats_fmax: NL): src [P, F <= bn_stats_fmax] -> dst [P, 6] =
// (count_e, mean_e, count_e * var_e, count_o, mean_o, count_o * var_o) over the even-indexed
// (0, 2, 4, ...) then the odd-indexed elements of the access pattern; var is the population
// variance. fp32, two passes per group: mean = (sequential left-to-right sum) / count; then
// M2 = sequential sum of (x - mean)^2 (each product and sum rounded to fp32, no FMA). An empty
// group (F = 1, odd) gives (0, 0, 0).
// ================================================================================================

void NeuronCore::bn_stats(const Tile& dst, const Tile& src) {
  const std::string_view instr = "bn_stats";
  detail::check_engine_operand(instr, "src", src, *hw_, Engine::vector);
  detail::check_engine_operand(instr, "dst", dst, *hw_, Engine::vector);
  if (src.free_size() > hw_->bn_stats_fmax)
    throw LimitError(std::string(instr), "src", "free size", src.free_size(), "bn_stats_fmax", hw_->bn_stats_fmax,
                     hw_->name);
  if (dst.free_size() != 6)
    throw LimitError(std::string(instr), "dst", "free size", dst.free_size(), "bn_stats output size", 6, hw_->name);
  detail::require_same_partitions(instr, "src", src, "dst", dst);

  Instruction& ins = record(Engine::vector, Opcode::bn_stats);
  detail::describe(ins, dst, {&src});
  if (!executes()) return commit_instruction();
  const Rounding r = rounding_for({});
  const SrStream sr = sr_stream();
  const std::int64_t n = src.free_size();
  float* x = detail::scratch_f32(0, row_len(src));
  for (std::int32_t p = 0; p < src.partitions; ++p) {
    detail::load_row(src, p, x);
    float out[6];
    for (int parity = 0; parity < 2; ++parity) {
      const std::int64_t count = (n - parity + 1) / 2;
      float sum = 0.0f;
      for (std::int64_t i = parity; i < n; i += 2) sum += x[i];
      const float mean = count > 0 ? sum / static_cast<float>(count) : 0.0f;
      float m2 = 0.0f;
      for (std::int64_t i = parity; i < n; i += 2) {
        const float d = x[i] - mean;
        m2 += d * d;
      }
      out[3 * parity] = static_cast<float>(count);
      out[3 * parity + 1] = mean;
      out[3 * parity + 2] = m2;
    }
    detail::store_row(dst, p, out, r, &sr);
  }
  commit_instruction();
}

// ================================================================================================
// bn_aggr (ISA bn_aggr): src [P, 6*g] = g bn_stats outputs, i.e. 2g groups (count, mean, M2)
// -> dst [P, 2] = (mean, population variance). Groups are combined left to right with Chan et al.'s
// parallel formula in fp32, starting from (n, mean, M2) = (0, 0, 0) and skipping groups of count 0:
//   n' = n + nb; d = mb - mean; mean' = mean + d * (nb / n'); M2' = M2 + M2b + d * d * (n * nb / n');
// variance = M2 / n. All counts 0 gives mean 0 and variance NaN (0/0).
// ================================================================================================

void NeuronCore::bn_aggr(const Tile& dst, const Tile& src) {
  const std::string_view instr = "bn_aggr";
  detail::check_engine_operand(instr, "src", src, *hw_, Engine::vector);
  detail::check_engine_operand(instr, "dst", dst, *hw_, Engine::vector);
  if (src.free_size() % 6 != 0)
    throw LimitError(std::string(instr), "src", "free size", src.free_size(),
                     "multiple of the bn_stats output size", 6, hw_->name);
  if (dst.free_size() != 2)
    throw LimitError(std::string(instr), "dst", "free size", dst.free_size(), "bn_aggr output size", 2, hw_->name);
  detail::require_same_partitions(instr, "src", src, "dst", dst);

  Instruction& ins = record(Engine::vector, Opcode::bn_aggr);
  detail::describe(ins, dst, {&src});
  if (!executes()) return commit_instruction();
  const Rounding r = rounding_for({});
  const SrStream sr = sr_stream();
  const std::int64_t groups = src.free_size() / 3;
  float* x = detail::scratch_f32(0, row_len(src));
  for (std::int32_t p = 0; p < src.partitions; ++p) {
    detail::load_row(src, p, x);
    float cnt = 0.0f, mean = 0.0f, m2 = 0.0f;
    for (std::int64_t g = 0; g < groups; ++g) {
      const float nb = x[3 * g], mb = x[3 * g + 1], m2b = x[3 * g + 2];
      if (nb == 0.0f) continue;
      const float nab = cnt + nb;
      const float d = mb - mean;
      mean = mean + d * (nb / nab);
      m2 = m2 + m2b + d * d * (cnt * nb / nab);
      cnt = nab;
    }
    float out[2] = {mean, m2 / cnt};
    detail::store_row(dst, p, out, r, &sr);
  }
  commit_instruction();
}

// ================================================================================================
// reciprocal (VectorE; ISA reciprocal, SHARED): dst = 1.0f / src, correctly rounded fp32 division (the
// VectorE reciprocal is "more precise" than ScalarE's; no valid-range restriction applies).
// ================================================================================================

void NeuronCore::reciprocal(const Tile& dst, const Tile& src, InstrOptions opt) {
  const std::string_view instr = "reciprocal";
  detail::check_engine_operand(instr, "src", src, *hw_, Engine::vector);
  detail::check_engine_operand(instr, "dst", dst, *hw_, Engine::vector);
  detail::require_same_partitions(instr, "src", src, "dst", dst);
  detail::require_same_free_size(instr, "src", src, "dst", dst);
  Instruction& ins = record(Engine::vector, Opcode::reciprocal);
  detail::describe(ins, dst, {&src});
  if (!executes()) return commit_instruction();
  const Rounding r = rounding_for(opt);
  const SrStream sr = sr_stream();
  const std::int64_t n = src.free_size();
  float* x = detail::scratch_f32(0, row_len(src));
  for (std::int32_t p = 0; p < src.partitions; ++p) {
    detail::load_row(src, p, x);
    for (std::int64_t i = 0; i < n; ++i) x[i] = 1.0f / x[i];
    detail::store_row(dst, p, x, r, &sr);
  }
  commit_instruction();
}

}  // namespace trn
