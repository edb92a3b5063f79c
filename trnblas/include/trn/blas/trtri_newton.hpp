// trnblas internal-use API for trnsolver's triangular inverse (xTRTRI, cuSOLVER Xtrtri) in fp32 and
// complex fp32: X = T^-1 in one launch with every product on TensorE — the narrow TRSM kernel's
// Newton-Schulz inverses of the 128-blocks of T's diagonal, then the solve T X = I by block columns,
// each on its own block rows, with one refinement step per block (docs/trnblas.md "Triangular
// inverse by Newton-Schulz blocks"; trsm_narrow_kernel.cpp).
#pragma once
#include <complex>
#include <cstdint>

#include "trn/core/spmd.hpp"
#include "trn/core/trace.hpp"

namespace trn::blas {

// Largest order trtri_newton takes: the blocks of T's triangle, their inverses and X's block
// columns stay in SBUF, and every block column's two PSUM tiles stay allocated beside the Newton
// products (complex at 512: 12 of PSUM's 16 KiB per partition).
inline constexpr std::int64_t kTrtriNewtonMaxOrder = 512;

// X = T^-1: T n x n triangular (lower / upper; unit: its diagonal not used) at T[i + j ldt], X's
// triangle written at X[i + j ldx] (unit: not its diagonal); the other triangle keeps its bits (the
// diagonal blocks are merged on chip). X may be T (in place, as xTRTRI): T is read before X is
// written. 1 <= n <= kTrtriNewtonMaxOrder; the launch (one core) is appended to `trace`. Returns
// false, X's triangle restored, when the result is not finite (Inf/NaN in T, an overflowing
// inverse): the caller then substitutes (as Strsm's narrow path does, so Inf/NaN propagate as
// netlib's; the failed attempt's launch stays in `trace`).
bool trtri_newton(const LaunchConfig& lc, bool lower, bool unit, std::int64_t n, const float* T, std::int64_t ldt,
                  float* X, std::int64_t ldx, TraceParts& trace);
bool trtri_newton(const LaunchConfig& lc, bool lower, bool unit, std::int64_t n, const std::complex<float>* T,
                  std::int64_t ldt, std::complex<float>* X, std::int64_t ldx, TraceParts& trace);

}  // namespace trn::blas
