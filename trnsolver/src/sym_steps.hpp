// The TensorE steps of the symmetric-indefinite and inverse drivers (sytrf.cpp, lauum.cpp) over the
// four element types: one GEMM / SYRKX call per step through trnblas (fp32 mode for S/C, Ozaki fp64
// for D/Z: the modes of spotrf/dpotrf's updates), its trace appended; and the wide (fp64) host type
// of each element type. Internal to trnsolver/src.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <type_traits>

#include "syevj_internal.hpp"  // step_blas_settings, fp64_update_blas_settings
#include "trn/blas/level3.hpp"
#include "trn/solver/solver.hpp"

namespace trn::solver::detail {

// The argument checks of the sym_indef.hpp routines: UsageError("trnsolver", fn, what) unless ok.
inline void require_args(bool ok, const char* fn, const char* what) {
  if (!ok) throw UsageError("trnsolver", fn, what);
}
// n >= 0, lda >= max(1, n), A not NULL when n > 0.
inline void require_square(const char* fn, std::int64_t n, std::int64_t lda, const void* A) {
  require_args(n >= 0 && lda >= std::max<std::int64_t>(1, n) && (n == 0 || A != nullptr), fn,
               "n >= 0, lda >= max(1, n), A not NULL");
}

template <class T>
struct SymTraits {
  static constexpr bool complex = false;
  using Real = T;
  using Wide = double;
};
template <class R>
struct SymTraits<std::complex<R>> {
  static constexpr bool complex = true;
  using Real = R;
  using Wide = std::complex<double>;
};
template <class T>
using WideOf = typename SymTraits<T>::Wide;
template <class T>
constexpr bool kWideFp64 = std::is_same_v<typename SymTraits<T>::Real, double>;
template <class T>
constexpr double kMacFlops = SymTraits<T>::complex ? 8.0 : 2.0;  // real flops of one multiply-add

template <class T>
T from_wide(WideOf<T> w) {
  if constexpr (SymTraits<T>::complex)
    return T(static_cast<typename T::value_type>(w.real()), static_cast<typename T::value_type>(w.imag()));
  else
    return static_cast<T>(w);
}
// LAPACK's pivot measure: |x| (real), |re| + |im| (complex, CABS1).
inline double cabs1(double x) { return std::fabs(x); }
inline double cabs1(std::complex<double> z) { return std::fabs(z.real()) + std::fabs(z.imag()); }

template <class T>
blas::Settings sym_blas_settings(const Settings& s) {
  return kWideFp64<T> ? fp64_update_blas_settings(s) : step_blas_settings(s);
}

inline blas::COp to_cop(char t) { return t == 'N' ? blas::COp::N : t == 'T' ? blas::COp::T : blas::COp::C; }
inline blas::Op to_rop(char t) { return t == 'N' ? blas::Op::N : blas::Op::T; }

// C = alpha op(A) op(B) + beta C (op 'N', 'T', 'C'; 'C' is 'T' for real types); S and C in `mode`
// (geqrf's drivers pass theirs), D and Z Ozaki.
template <class T>
void gemm_step(const blas::Settings& bs, blas::GemmMode mode, char ta, char tb, std::int64_t m, std::int64_t n,
               std::int64_t k, T alpha, const T* A, std::int64_t lda, const T* B, std::int64_t ldb, T beta, T* C,
               std::int64_t ldc, TraceParts& trace) {
  if (m <= 0 || n <= 0) return;
  StepReport r;
  if constexpr (std::is_same_v<T, float>)
    blas::gemm(bs, mode, to_rop(ta), to_rop(tb), m, n, k, alpha, {A, DType::f32, lda}, {B, DType::f32, ldb}, beta,
               {C, DType::f32, ldc}, &r);
  else if constexpr (std::is_same_v<T, double>)
    blas::dgemm(bs, to_rop(ta), to_rop(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, &r);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    blas::cgemm(bs, mode, blas::ComplexAlgo::four_m, to_cop(ta), to_cop(tb), m, n, k, alpha, A, lda, B, ldb, beta, C,
                ldc, &r);
  else
    blas::zgemm(bs, blas::ComplexAlgo::four_m, to_cop(ta), to_cop(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc,
                &r);
  trace.add(std::move(r.trace));
}
// The same in fp32 mode (the symmetric-indefinite and inverse drivers).
template <class T>
void gemm_step(const blas::Settings& bs, char ta, char tb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
               const T* A, std::int64_t lda, const T* B, std::int64_t ldb, T beta, T* C, std::int64_t ldc,
               TraceParts& trace) {
  gemm_step<T>(bs, blas::GemmMode::fp32, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, trace);
}

// C -= A B^T on the uplo triangle of the n x n C (SYRKX, A and B n x k; no conjugate for C/Z).
template <class T>
void syrkx_minus(const blas::Settings& bs, Uplo uplo, std::int64_t n, std::int64_t k, const T* A, std::int64_t lda,
                 const T* B, std::int64_t ldb, T* C, std::int64_t ldc, TraceParts& trace) {
  if (n <= 0 || k <= 0) return;
  StepReport r;
  if constexpr (std::is_same_v<T, float>)
    blas::ssyrkx(bs, blas::GemmMode::fp32, uplo, blas::Op::N, n, k, -1.0f, A, lda, B, ldb, 1.0f, C, ldc, &r);
  else if constexpr (std::is_same_v<T, double>)
    blas::dsyrkx(bs, uplo, blas::Op::N, n, k, -1.0, A, lda, B, ldb, 1.0, C, ldc, &r);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    blas::csyrkx(bs, blas::GemmMode::fp32, uplo, blas::COp::N, n, k, T(-1), A, lda, B, ldb, T(1), C, ldc, &r);
  else
    blas::zsyrkx(bs, uplo, blas::COp::N, n, k, T(-1), A, lda, B, ldb, T(1), C, ldc, &r);
  trace.add(std::move(r.trace));
}

}  // namespace trn::solver::detail
