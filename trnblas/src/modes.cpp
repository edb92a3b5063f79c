// The precision-mode table (trn/blas/modes.hpp): the single source of every mode's facts.
#include "trn/blas/modes.hpp"

#include <array>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace trn::blas {
namespace {

// Accumulation order of the compensated modes: smallest terms first (docs/trnblas.md, "bf16xN"),
// so that the large hi*hi product is added last to the sum of the small ones.
constexpr std::pair<int, int> kOne[] = {{0, 0}};
constexpr std::pair<int, int> kX3[] = {{0, 1}, {1, 0}, {0, 0}};
constexpr std::pair<int, int> kX6[] = {{1, 1}, {0, 2}, {2, 0}, {0, 1}, {1, 0}, {0, 0}};
constexpr std::pair<int, int> kX9[] = {{2, 2}, {1, 2}, {2, 1}, {0, 2}, {2, 0}, {1, 1}, {0, 1}, {1, 0}, {0, 0}};

constexpr const char* kRounding = "u/sqrt(3), u of the load type";
constexpr const char* kAccumulation = "[u32/sqrt(3), sqrt(k) u32]";

// fp8 e4m3 here is Neuron's IEEE-style FP8_EXP4 (3 significand bits), e5m2 has 2.
const std::array<ModeTraits, 11> kTable = {{
    {GemmMode::fp32, "fp32", TRNBLAS_COMPUTE_32F_PEDANTIC, DType::f32, 1, kOne, 4, ErrorModel::fp32_accumulation, kAccumulation},
    {GemmMode::bf16x9, "bf16x9", TRNBLAS_COMPUTE_32F_EMULATED_16BFX9, DType::bf16, 3, kX9, 9, ErrorModel::fp32_accumulation, kAccumulation},
    {GemmMode::bf16x6, "bf16x6", TRNBLAS_COMPUTE_32F_EMULATED_16BFX6, DType::bf16, 3, kX6, 6, ErrorModel::fp32_accumulation, kAccumulation},
    {GemmMode::bf16x3, "bf16x3", TRNBLAS_COMPUTE_32F_EMULATED_16BFX3, DType::bf16, 2, kX3, 3, ErrorModel::split_residual, "sqrt(2) u_bf16^2 / 6"},
    {GemmMode::tf32, "tf32", TRNBLAS_COMPUTE_32F_FAST_TF32, DType::tf32, 1, kOne, 1, ErrorModel::input_rounding, kRounding},
    {GemmMode::fp16, "fp16", TRNBLAS_COMPUTE_32F_FAST_16F, DType::f16, 1, kOne, 1, ErrorModel::input_rounding, kRounding},
    {GemmMode::bf16, "bf16", TRNBLAS_COMPUTE_32F_FAST_16BF, DType::bf16, 1, kOne, 1, ErrorModel::input_rounding, kRounding},
    {GemmMode::fp8_e4m3, "fp8_e4m3", TRNBLAS_COMPUTE_32F_FAST_8F_E4M3, DType::f8e4m3, 1, kOne, 1, ErrorModel::input_rounding, kRounding},
    {GemmMode::fp8_e5m2, "fp8_e5m2", TRNBLAS_COMPUTE_32F_FAST_8F_E5M2, DType::f8e5m2, 1, kOne, 1, ErrorModel::input_rounding, kRounding},
    {GemmMode::fp64_ozaki, "fp64_ozaki", TRNBLAS_COMPUTE_64F, DType::bf16, 0, kOne, 0, ErrorModel::ozaki, "fp64 class (moduli or slices kept)"},
    {GemmMode::native, "native", -1, DType::f32, 1, kOne, 1, ErrorModel::none, "the stored type's"},
}};

// Unit roundoff 2^-p of a dtype with p significand bits after the leading one (RNE).
double unit_roundoff(DType t) {
  switch (t) {
    case DType::f32: return std::ldexp(1.0, -24);
    case DType::tf32: return std::ldexp(1.0, -11);
    case DType::f16: return std::ldexp(1.0, -11);
    case DType::bf16: return std::ldexp(1.0, -8);
    case DType::f8e4m3: return std::ldexp(1.0, -4);
    case DType::f8e5m2: return std::ldexp(1.0, -3);
    default: return std::numeric_limits<double>::quiet_NaN();
  }
}

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", v);
  return buf;
}

}  // namespace

double ModeTraits::expected_error(std::int64_t k) const {
  const double u32 = unit_roundoff(DType::f32);
  switch (model) {
    case ErrorModel::input_rounding: return unit_roundoff(load_dtype) / std::sqrt(3.0);
    case ErrorModel::split_residual: {
      const double u = unit_roundoff(DType::bf16);
      return std::sqrt(2.0) * u * u / 6.0;
    }
    case ErrorModel::fp32_accumulation: return std::sqrt(static_cast<double>(std::max<std::int64_t>(k, 1))) * u32 / 2.0;
    default: return std::numeric_limits<double>::quiet_NaN();
  }
}

std::pair<double, double> ModeTraits::band(std::int64_t k) const {
  const double u32 = unit_roundoff(DType::f32);
  switch (model) {
    case ErrorModel::input_rounding:
    case ErrorModel::split_residual: {
      const double e = expected_error(k);
      return {e / 2.0, 2.0 * e};
    }
    case ErrorModel::fp32_accumulation:
      return {u32 / (2.0 * std::sqrt(3.0)), std::sqrt(static_cast<double>(std::max<std::int64_t>(k, 1))) * u32};
    default: return {0.0, std::numeric_limits<double>::infinity()};
  }
}

std::span<const ModeTraits> mode_table() { return kTable; }

const ModeTraits& mode_traits(GemmMode m) {
  for (const ModeTraits& t : kTable)
    if (t.mode == m) return t;
  return kTable.back();  // unreachable: every GemmMode has a row (tested)
}

const ModeTraits* mode_by_name(std::string_view name) {
  for (const ModeTraits& t : kTable)
    if (name == t.name) return &t;
  return nullptr;
}

const ModeTraits* mode_by_compute_type(int compute_type) {
  for (const ModeTraits& t : kTable)
    if (t.compute_type == compute_type && t.mode != GemmMode::fp64_ozaki && t.compute_type >= 0) return &t;
  return nullptr;
}

std::string mode_table_markdown() {
  std::string s =
      "| mode | GemmEx compute type (fp32 A, B) | TensorE reads | terms | products | TensorE passes | error model "
      "(U(-1,1), k = 256) | accepted band |\n|---|---|---|---|---|---|---|---|\n";
  for (const ModeTraits& t : kTable) {
    const auto [lo, hi] = t.band(256);
    const bool modelled = t.model != ErrorModel::ozaki && t.model != ErrorModel::none;
    s += "| " + std::string(t.name) + " | " + (t.compute_type >= 0 ? std::to_string(t.compute_type) : "-") + " | " +
         (t.mode == GemmMode::native ? std::string("stored type") : std::string(dtype_name(t.load_dtype))) + " | " + std::to_string(t.terms) + " | " + std::to_string(t.pairs.size()) +
         " | " + (t.tensor_passes > 0 ? std::to_string(t.tensor_passes) : "slices") + " | " + t.model_text +
         (modelled && t.model != ErrorModel::fp32_accumulation ? " = " + sci(t.expected_error(256)) : "") + " | " +
         (modelled ? "[" + sci(lo) + ", " + sci(hi) + "]" : "-") + " |\n";
  }
  return s;
}

}  // namespace trn::blas
