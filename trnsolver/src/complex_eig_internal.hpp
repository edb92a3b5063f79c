// Internals shared by the complex eigensolvers beyond heevd (heevdx.cpp: heevdx, hegvd, hegvdx, the
// generalized reduction; heevj.cpp: the complex block Jacobi heevj and gesvdj). Not installed.
#pragma once
#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "syevj_internal.hpp"
#include "trn/blas/level3.hpp"
#include "trn/solver/complex_eig.hpp"

namespace trn::solver::detail {

template <class T>
using RealOf = typename T::value_type;

// The full Hermitian matrix (n x n, ld n) from the uplo triangle of A (the other triangle mirrored
// conjugated, the diagonal's imaginary parts dropped). Returns false when the triangle holds Inf/NaN.
template <class T, class Vec>
bool hermitian_full(std::int64_t n, const T* A, std::int64_t lda, bool lower, Vec& out) {
  out.assign(static_cast<std::size_t>(n * n), T(0));
  bool finite = true;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j; i < n; ++i) {
      const T v = lower ? A[i + j * lda] : std::conj(A[j + i * lda]);
      finite = finite && std::isfinite(v.real()) && std::isfinite(v.imag());
      out[static_cast<std::size_t>(i + j * n)] = i == j ? T(v.real(), 0) : v;
      out[static_cast<std::size_t>(j + i * n)] = i == j ? T(v.real(), 0) : std::conj(v);
    }
  return finite;
}

// The trnblas settings of the complex steps: C in the handle's numerics (fp32 mode, 4M), Z through
// Ozaki fp64; substitution TRSM (componentwise backward stable), trace-only reports.
template <class T>
blas::Settings complex_blas_settings(const Settings& s) {
  blas::Settings bs = std::is_same_v<RealOf<T>, float> ? step_blas_settings(s) : fp64_update_blas_settings(s);
  bs.trsm_substitution = true;
  return bs;
}

// C = op(A) op(B) (alpha 1, beta 0): trnblas cgemm (fp32 mode, 4M) or zgemm (Ozaki) on TensorE.
template <class T>
void complex_gemm(const Settings& s, blas::COp ta, blas::COp tb, std::int64_t m, std::int64_t n, std::int64_t k,
                  const T* A, std::int64_t lda, const T* B, std::int64_t ldb, T* C, std::int64_t ldc, TraceParts& trace) {
  if (m <= 0 || n <= 0) return;
  blas::CallReport r;
  if constexpr (std::is_same_v<RealOf<T>, float>)
    blas::cgemm(complex_blas_settings<T>(s), blas::GemmMode::fp32, blas::ComplexAlgo::four_m, ta, tb, m, n, k, T(1), A,
                lda, B, ldb, T(0), C, ldc, &r);
  else
    blas::zgemm(complex_blas_settings<T>(s), blas::ComplexAlgo::four_m, ta, tb, m, n, k, T(1), A, lda, B, ldb, T(0), C,
                ldc, &r);
  trace.add(std::move(r.trace));
}

// The standard eigenproblem of hegv_reduce's step 4, run by the caller's eigensolver on C (n x n, ld n,
// lower triangle read): its info and the leading columns of C that hold eigenvectors (0: none).
struct HermEigStep {
  int info = 0;
  std::int64_t cols = 0;
};

}  // namespace trn::solver::detail
