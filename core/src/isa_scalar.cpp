// ScalarE: activation (ISA activation, SHARED, ARCH2; docs/references.md). tensor_copy and
// tensor_scalar on ScalarE live with the VectorE implementations in isa_vector.cpp.
//
// activation: dst = func(src * scale + bias), per lane, optionally with reduce_dst[p, 0] = sum over
// the free axis of the fp32 results.
//  - Pre-activation: v = src * scale + bias in fp32, two roundings (product, then sum; no FMA);
//    IEEE applies, so with the default bias +0 an input -0 reaches the function as +0.
//    scale: fp32 immediate or [P,1] float32 tile; bias: immediate or [P,1] tile of any dtype except
//    tfloat32 (ISA activation). ScalarE reads one tensor: src (the [P,1] vectors are not tensor inputs for the
//    cost model, ARCH2).
//  - Function: evaluated in double from the fp32 v by the host libm and rounded once to fp32
//    ("libm-accurate" inside the range; the hardware's piecewise polynomials (SHARED) are not
//    reproduced: docs/numerics.md section 10, row 7). The fp32 result is then cast to dst's dtype with
//    the instruction's rounding (RNE or SR; integers RNE + saturation).
//  - Valid ranges (kActivationTable below, from SHARED): a v outside the range
//    of func follows CoreConfig::activation_out_of_range: nan -> that lane is NaN (the reduce sum
//    then is NaN too); error -> trn::UsageError before anything is written (the whole input is
//    pre-scanned; skipped in timing-only runs, CoreConfig::execute = false); extrapolate -> the exact function (sin(9) = 0.412, not the hardware's ~27.65).
//    NaN inputs are never "out of range": they propagate as NaN.
//  - reduce_dst ([P,1], add only, v2 "can only be addition"): acc = 0.0f, acc += y_i left to right
//    in fp32 over the fp32 results y_i (before the cast to dst), then cast to reduce_dst's dtype.
#include <bit>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>

#include "commit_path.hpp"
#include "engine_util.hpp"
#include "two_nan.hpp"
#include "trn/core/error.hpp"

namespace trn {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// pi and pi/2 rounded to the nearest fp32 (0x40490FDB, 0x3FC90FDB), both slightly above the real
// values, so that the fp32 endpoints of [-pi, pi] and [-pi/2, pi/2] count as inside the range.
constexpr double kPiF = static_cast<double>(static_cast<float>(3.14159265358979323846));
constexpr double kHalfPiF = static_cast<double>(static_cast<float>(1.57079632679489661923));

// Valid input ranges of the ScalarE activation functions (SHARED table).
// `magnitude`: the range applies to |v| (reciprocal is valid on +-[2^-42, 2^42]).
struct ActivationInfo {
  ActFunc func;
  double lo, hi;
  bool magnitude;
};
constexpr ActivationInfo kActivationTable[] = {
    //  function                  valid input range
    {ActFunc::copy,            -kInf, kInf, false},
    {ActFunc::square,          -kInf, kInf, false},
    {ActFunc::relu,            -kInf, kInf, false},
    {ActFunc::sigmoid,         -kInf, kInf, false},
    {ActFunc::tanh,            -kInf, kInf, false},
    {ActFunc::gelu,            -kInf, kInf, false},
    {ActFunc::gelu_apprx_tanh, -kInf, kInf, false},
    {ActFunc::silu,            -kInf, kInf, false},
    {ActFunc::softplus,        -kInf, kInf, false},
    {ActFunc::erf,             -kInf, kInf, false},
    {ActFunc::exp,             -kInf, kInf, false},
    {ActFunc::sign,            -kInf, kInf, false},
    {ActFunc::abs,             -kInf, kInf, false},
    {ActFunc::log,             0x1p-64, 0x1p64, false},    // [2^-64, 2^64]
    {ActFunc::sin,             -kPiF, kPiF, false},        // [-pi, pi]; no range reduction
    {ActFunc::arctan,          -kHalfPiF, kHalfPiF, false},  // [-pi/2, pi/2]
    {ActFunc::sqrt,            0x1p-116, 0x1p118, false},  // [2^-116, 2^118], plus exact +-0 (in_range)
    {ActFunc::rsqrt,           0x1p-87, 0x1p97, false},    // [2^-87, 2^97]
    {ActFunc::reciprocal,      0x1p-42, 0x1p42, true},     // +-[2^-42, 2^42]
};
constexpr bool table_in_enum_order() {
  for (std::size_t i = 0; i < std::size(kActivationTable); ++i)
    if (static_cast<std::size_t>(kActivationTable[i].func) != i) return false;
  return true;
}
static_assert(std::size(kActivationTable) == static_cast<std::size_t>(ActFunc::reciprocal) + 1 &&
                  table_in_enum_order(),
              "kActivationTable must list every ActFunc in enum order");

const ActivationInfo& activation_info(ActFunc f) { return kActivationTable[static_cast<std::size_t>(f)]; }
bool full_range(const ActivationInfo& a) { return a.lo == -kInf && a.hi == kInf && !a.magnitude; }

inline bool in_range(const ActivationInfo& a, float v) {
  // Choice (docs/numerics.md): sqrt(+-0) = +-0 counts as valid although the documented range starts
  // at 2^-116, because kernels routinely take the square root of a zero variance.
  if (a.func == ActFunc::sqrt && v == 0.0f) return true;
  const double x = a.magnitude ? std::fabs(static_cast<double>(v)) : static_cast<double>(v);
  return !(x < a.lo || x > a.hi);  // NaN is "in range" (it propagates)
}

template <ActFunc F>
using FuncTag = std::integral_constant<ActFunc, F>;

template <class Fn>
void dispatch_func(ActFunc f, Fn&& fn) {
  using enum ActFunc;
  switch (f) {
    case copy: fn(FuncTag<copy>{}); return;
    case square: fn(FuncTag<square>{}); return;
    case relu: fn(FuncTag<relu>{}); return;
    case sigmoid: fn(FuncTag<sigmoid>{}); return;
    case tanh: fn(FuncTag<tanh>{}); return;
    case gelu: fn(FuncTag<gelu>{}); return;
    case gelu_apprx_tanh: fn(FuncTag<gelu_apprx_tanh>{}); return;
    case silu: fn(FuncTag<silu>{}); return;
    case softplus: fn(FuncTag<softplus>{}); return;
    case erf: fn(FuncTag<erf>{}); return;
    case exp: fn(FuncTag<exp>{}); return;
    case sign: fn(FuncTag<sign>{}); return;
    case abs: fn(FuncTag<abs>{}); return;
    case log: fn(FuncTag<log>{}); return;
    case sin: fn(FuncTag<sin>{}); return;
    case arctan: fn(FuncTag<arctan>{}); return;
    case sqrt: fn(FuncTag<sqrt>{}); return;
    case rsqrt: fn(FuncTag<rsqrt>{}); return;
    case reciprocal: fn(FuncTag<reciprocal>{}); return;
  }
  throw Error("internal: unknown activation function");
}

inline double sigmoid_d(double x) {
  if (x >= 0.0) return 1.0 / (1.0 + std::exp(-x));
  const double e = std::exp(x);
  return e / (1.0 + e);
}

constexpr double kRsqrt2 = 0.70710678118654752440;      // 1/sqrt(2)
constexpr double kSqrt2OverPi = 0.79788456080286535588;  // sqrt(2/pi)
// x * g(x) with g a CDF-like factor (gelu, silu): the limits at +-inf are +inf and -0 (not inf * 0).
inline double limit_x_times_cdf(double x) { return x > 0.0 ? x : -0.0; }

// The exact functions, in double. relu(-0) = +0; sign(+-0) = +-0; NaN propagates everywhere.
// gelu is the erf form x * Phi(x); gelu_apprx_tanh is 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).

template <ActFunc F>
inline double act_eval(double x) {
  using enum ActFunc;
  if constexpr (F == copy) return x;
  else if constexpr (F == square) return x * x;
  else if constexpr (F == relu) return x > 0.0 ? x : (x != x ? x : 0.0);
  else if constexpr (F == sigmoid) return sigmoid_d(x);
  else if constexpr (F == tanh) return std::tanh(x);
  else if constexpr (F == gelu) return std::isinf(x) ? limit_x_times_cdf(x) : 0.5 * x * std::erfc(-x * kRsqrt2);
  else if constexpr (F == gelu_apprx_tanh)  // 0.5 x (1 + tanh(u)) = x * sigmoid(2u), without cancellation
    return std::isinf(x) ? limit_x_times_cdf(x) : x * sigmoid_d(2.0 * kSqrt2OverPi * (x + 0.044715 * x * x * x));
  else if constexpr (F == silu) return std::isinf(x) ? limit_x_times_cdf(x) : x * sigmoid_d(x);
  else if constexpr (F == softplus) return x > 0.0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
  else if constexpr (F == erf) return std::erf(x);
  else if constexpr (F == exp) return std::exp(x);
  else if constexpr (F == sign) return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : x);
  else if constexpr (F == abs) return std::fabs(x);
  else if constexpr (F == log) return std::log(x);
  else if constexpr (F == sin) return std::sin(x);
  else if constexpr (F == arctan) return std::atan(x);
  else if constexpr (F == sqrt) return std::sqrt(x);
  else if constexpr (F == rsqrt) return 1.0 / std::sqrt(x);
  else if constexpr (F == reciprocal) return 1.0 / x;
  else static_assert(F == copy, "act_eval: unhandled function");
}

// y_i = f(v_i) rounded to fp32; with `poison`, out-of-range lanes become NaN.
template <ActFunc F>
void act_row(const ActivationInfo& info, bool poison, float* v, std::int64_t n) {
  if (poison) {
    for (std::int64_t i = 0; i < n; ++i)
      v[i] = in_range(info, v[i]) ? static_cast<float>(act_eval<F>(v[i])) : std::numeric_limits<float>::quiet_NaN();
  } else {
    for (std::int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(act_eval<F>(v[i]));
  }
}

float operand_value(const ScalarOperand& s, std::int32_t p) {
  return s.is_tile ? load_as_f32(s.tile.dtype, s.tile.at(p, 0)) : s.imm;
}

// a + b and a * b with the two-NaN rule (two_nan.hpp): both NaN gives the rule's operand, quieted.
inline float add_rule(float a, float b, TwoNanResult rule) {
  return detail::both_nan(a, b) ? detail::two_nan_result(a, b, rule) : a + b;
}
inline float multiply_rule(float a, float b, TwoNanResult rule) {
  return detail::both_nan(a, b) ? detail::two_nan_result(a, b, rule) : a * b;
}

// v = x * scale + bias (fp32, two roundings) for row p; the operands in that order for the
// two-NaN rule (x before scale, the product before bias).
// A dense fp32 row is read in place (the generic row load's set-up was most of a short row's cost).
void pre_activation(const Tile& src, std::int32_t p, const ScalarOperand& scale, const ScalarOperand& bias, float* v,
                    TwoNanResult rule) {
  const float* x = detail::read_row_f32(src, p, v);
  const float sc = operand_value(scale, p), bi = operand_value(bias, p);
  const std::int64_t n = src.free_size();
  for (std::int64_t i = 0; i < n; ++i) v[i] = add_rule(multiply_rule(x[i], sc, rule), bi, rule);
}

void check_vector_operand(std::string_view name, const ScalarOperand& s, const Tile& src, const HardwareSpec& hw) {
  if (!s.is_tile) return;
  detail::check_engine_operand("activation", name, s.tile, hw, Engine::scalar);
  if (s.tile.free_size() != 1)
    throw LimitError("activation", std::string(name), "free size", s.tile.free_size(),
                     "free size of a [P,1] vector operand", 1, hw.name);
  detail::require_same_partitions("activation", "src", src, name, s.tile);
}

std::string fmt_double(double x) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.9g", x);
  return buf;
}

}  // namespace

void NeuronCore::activation(const Tile& dst, const Tile& src, ActFunc func, ScalarOperand bias, ScalarOperand scale,
                            const Tile* reduce_dst, InstrOptions opt) {
  const std::string_view instr = "activation";
  detail::check_engine_operand(instr, "src", src, *hw_, Engine::scalar);
  detail::check_engine_operand(instr, "dst", dst, *hw_, Engine::scalar);
  detail::require_same_partitions(instr, "src", src, "dst", dst);
  detail::require_same_free_size(instr, "src", src, "dst", dst);
  check_vector_operand("scale", scale, src, *hw_);
  if (scale.is_tile && scale.tile.dtype != DType::f32)
    throw UsageError(instr, "scale", "a scale tile must be float32 (got " + std::string(dtype_name(scale.tile.dtype)) +
                                         ")");
  check_vector_operand("bias", bias, src, *hw_);
  if (bias.is_tile && bias.tile.dtype == DType::tf32)
    throw UsageError(instr, "bias", "bias may be any dtype except tfloat32");
  if (reduce_dst != nullptr) {
    detail::check_engine_operand(instr, "reduce_dst", *reduce_dst, *hw_, Engine::scalar);
    detail::require_same_partitions(instr, "src", src, "reduce_dst", *reduce_dst);
    if (reduce_dst->free_size() != 1)
      throw LimitError(std::string(instr), "reduce_dst", "free size", reduce_dst->free_size(), "reduced free size", 1,
                       hw_->name);
  }
  const ActivationInfo& info = activation_info(func);
  const std::int64_t n = src.free_size();
  float* v = detail::scratch_f32(0, static_cast<std::size_t>(n));
  // The pre-scan's rows are kept (up to 64 Ki values) for the pass that writes, instead of being
  // recomputed: the same values when no output byte is an input byte of a later row (outputs
  // disjoint from the scale/bias tiles, and from src unless dst is src itself).
  const bool prescan = !full_range(info) && cfg_.activation_out_of_range == OutOfRange::error && executes();
  const std::int64_t total = n * src.partitions;
  auto outputs_clear = [&] {
    const bool dst_is_src = dst.base == src.base && dst.partition_stride == src.partition_stride &&
                            dst.dtype == src.dtype && dst.ndim == src.ndim && dst.size == src.size && dst.stride == src.stride;
    if (!dst_is_src && !detail::tiles_disjoint(dst, src)) return false;
    for (const Tile* out : {&dst, reduce_dst}) {
      if (out == nullptr) continue;
      if (out != &dst && !detail::tiles_disjoint(*out, src)) return false;
      for (const ScalarOperand* sc : {&scale, &bias})
        if (sc->is_tile && !detail::tiles_disjoint(*out, sc->tile)) return false;
    }
    return true;
  };
  float* kept = prescan && total <= (std::int64_t{1} << 16) && outputs_clear()
                    ? detail::scratch_f32(1, static_cast<std::size_t>(total))
                    : nullptr;
  if (prescan) {
    // Pre-scan: the error must come before anything is written (or recorded).
    for (std::int32_t p = 0; p < src.partitions; ++p) {
      if (kept != nullptr) v = kept + std::int64_t{p} * n;
      pre_activation(src, p, scale, bias, v, cfg_.two_nan_result);
      for (std::int64_t i = 0; i < n; ++i)
        if (!in_range(info, v[i]))
          throw UsageError(instr, "src",
                           "input " + fmt_double(v[i]) + " (after scale and bias; partition " + std::to_string(p) +
                               ", element " + std::to_string(i) + ") is outside the valid range " +
                               (info.magnitude ? "+-[" : "[") + fmt_double(info.lo) + ", " + fmt_double(info.hi) +
                               "] of " + std::string(act_func_name(func)) + " (activation_out_of_range = error)");
    }
  }

  Instruction& ins = record(Engine::scalar, Opcode::activation);
  detail::describe(ins, dst, {&src});
  if (reduce_dst != nullptr) {
    ins.bytes_written += reduce_dst->elements() * dtype_size(reduce_dst->dtype);
    ins.add_region(region_of(*reduce_dst, true));
  }
  for (const ScalarOperand* s : {&scale, &bias})
    if (s->is_tile) {
      ins.bytes_read += s->tile.elements() * dtype_size(s->tile.dtype);
      ins.add_region(region_of(s->tile, false));
    }
  if (!executes()) return commit_instruction();

  const Rounding r = rounding_for(opt);
  const SrStream sr = sr_stream();
  SrStream sr_reduce = sr;  // the second output draws from its own counter range
  sr_reduce.output = 1;
  const bool poison = !full_range(info) && cfg_.activation_out_of_range == OutOfRange::nan;
  v = detail::scratch_f32(0, static_cast<std::size_t>(n));
  dispatch_func(func, [&](auto tag) {
    for (std::int32_t p = 0; p < src.partitions; ++p) {
      if (kept != nullptr) {
        v = kept + std::int64_t{p} * n;
      } else {
        pre_activation(src, p, scale, bias, v, cfg_.two_nan_result);
      }
      act_row<decltype(tag)::value>(info, poison, v, n);
      detail::store_row(dst, p, v, r, &sr);
      if (reduce_dst != nullptr) {
        float acc = 0.0f;
        for (std::int64_t i = 0; i < n; ++i) acc = add_rule(acc, v[i], cfg_.two_nan_result);
        detail::store_row(*reduce_dst, p, &acc, r, &sr_reduce);
      }
    }
  });
  commit_instruction();
}

}  // namespace trn
