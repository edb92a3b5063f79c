// One table of trnblas's precision modes: every fact about a mode that the kernels, the C API, the
// BLAS ABI shim, the CLI, the tests and the docs need, in one place (trnsolver, trnfft, trntensor
// reuse the same modes). `trnsci modes --markdown` prints it; docs/trnblas.md embeds that output
// and a test keeps the two identical.
//
// Error model (normwise relative Frobenius error of C = A B, entries of A and B i.i.d. U(-1, 1),
// n = k, as in the validation suites). Derivations:
//   * input rounding (bf16, fp16, tf32, fp8): rounding x to p significand bits (RNE) gives a
//     relative error delta = eps / m with eps ~ U(-u, u), u = 2^-p, and m the significand, which
//     is uniform on [1, 2) for U(-1, 1) data; E[delta^2] = u^2/3 * E[1/m^2] = u^2/6. Each product
//     a b carries delta_a + delta_b, independent across the k terms, so
//     E|dC|^2 / E|C|^2 = 2 u^2/6 and the expected error is u/sqrt(3).
//   * bf16x3 (hi*hi + hi*lo + lo*hi): what remains of each input is the rounding error of its lo
//     term, delta_a * delta_lo with variance (u^2/6)^2; two such residuals per product give
//     sqrt(2) u^2/6 (u = 2^-8: 3.6e-6; the Henry-Tang-Heinecke split, IEEE ARITH 2019).
//   * fp32-class (fp32, bf16x6, bf16x9): the products are exact or exact to fp32 and the error is
//     the fp32 accumulation: k - 1 roundings of partial sums of the result's scale, independent
//     (Higham & Mary, "A new approach to probabilistic rounding error analysis", SISC 2019, with
//     lambda = 1): at most sqrt(k) u32; at least the rounding of the stored result, u32/sqrt(3)
//     by the same model as above.
// The band a test or validation case accepts is [model / 2, 2 model] for the rounding-dominated
// modes and [u32 / (2 sqrt 3), sqrt(k) u32] for the fp32-class ones: two-sided, so that garbage
// (error 1) and a silently exact fallback (error 0) both fail.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>

#include "trn/blas/blas.hpp"
#include "trnblas.h"

namespace trn::blas {

enum class ErrorModel : std::uint8_t {
  input_rounding,  // u / sqrt(3), u of load_dtype
  split_residual,  // sqrt(2) u^2 / 6, u of the bf16 terms
  fp32_accumulation,
  ozaki,           // fp64 emulation: bounded by the moduli or slices kept (docs/trnblas.md)
  none,            // native: the stored dtype decides
};

struct ModeTraits {
  GemmMode mode;
  const char* name;                   // the name used by the CLI, TRNBLAS_BLAS_COMPUTE and reports
  int compute_type;                   // trnblasComputeType_t selecting it for fp32 A/B in GemmEx (-1: none)
  DType load_dtype;                   // what TensorE reads (split modes: bf16 terms)
  int terms;                          // terms each fp32 input is split into on VectorE
  std::span<const std::pair<int, int>> pairs;  // (a term, b term) products, in accumulation order
  int tensor_passes;                  // TensorE passes per tile relative to one bf16 matmul
  ErrorModel model;
  const char* model_text;             // the formula, for tables

  // Expected normwise relative error for U(-1, 1) inputs and contraction length k (NaN: none).
  double expected_error(std::int64_t k) const;
  // The accepted two-sided band [lo, hi] (see the header comment); {0, inf} for modes without a model.
  std::pair<double, double> band(std::int64_t k) const;
};

// Every mode, fp32 first then by decreasing accuracy class; fp64_ozaki and native last.
std::span<const ModeTraits> mode_table();
const ModeTraits& mode_traits(GemmMode m);
const ModeTraits* mode_by_name(std::string_view name);
// The mode GemmEx selects for fp32 A and B with this compute type (nullptr: not a fixed mapping,
// e.g. COMPUTE_32F, which follows the handle's math mode).
const ModeTraits* mode_by_compute_type(int compute_type);

// The table as Markdown (what `trnsci modes --markdown` prints and docs/trnblas.md embeds).
std::string mode_table_markdown();

}  // namespace trn::blas
