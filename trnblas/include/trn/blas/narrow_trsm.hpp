// trnblas internal-use API for trnsolver on the narrow TRSM kernel (trsm_narrow_kernel.cpp:
// Newton-Schulz inverses of the 128-blocks of a triangle's diagonal on TensorE, block rows by
// matmuls, one refinement step per block):
//   - trtri_newton: the triangular inverse (xTRTRI, cuSOLVER Xtrtri) in fp32 and complex fp32, the
//     solve T X = I by block columns, each on its own block rows (docs/trnblas.md "Triangular inverse
//     by Newton-Schulz blocks");
//   - strsm_left_batch: a batch of left STRSMs of one shape with few right-hand sides, several
//     systems per launch (potrsBatched).
#pragma once
#include <complex>
#include <cstdint>

#include "trn/blas/level3.hpp"
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

// strsm(s, GemmMode::fp32, Side::left, uplo, trans, diag, m, n, alpha, A[k], lda, B[k], ldb) for
// k < batch, each B[k]'s bits those of that call whatever the batch. With n <= kTrsmNarrowMaxRhs,
// m <= kTrsmNarrowMaxOrder and s.trsm_substitution off, up to kTrsmNarrowBatch systems share one
// launch of the narrow kernel (their Newton chains and block rows interleaved: one system's chain
// is a series of dependent ~1 us steps that the next system's work fills); a system whose result is
// not finite gets its B[k] back and is solved by substitution, as strsm does. Otherwise one strsm
// per system. Every launch's trace is appended to `trace`.
inline constexpr std::int64_t kTrsmNarrowBatch = 32;
void strsm_left_batch(const Settings& s, Uplo uplo, Op trans, Diag diag, std::int64_t m, std::int64_t n, float alpha,
                      const float* const* A, std::int64_t lda, float* const* B, std::int64_t ldb, std::int64_t batch,
                      TraceParts& trace);

}  // namespace trn::blas
