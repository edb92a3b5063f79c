// The complex Hermitian eigensolver (C, Z): heevd = hetrd + stedc + unmtr, LAPACK xHEEVD's three-stage
// structure (Anderson et al., LAPACK Users' Guide 3rd ed., xHEEVD; Golub & Van Loan, Matrix Computations
// 4th ed., 8.3.1 and 8.4). This file holds the complex hemv / HER2K steps; the drivers and xLATRD's
// column steps (one template over the scalar type) are sytrd.cpp's:
//   1. A = Q T Q^H with T real symmetric tridiagonal: blocked complex Householder reduction (xHETRD with
//      xLATRD's panel, Dongarra, Hammarling & Sorensen 1989) -- per column a recorded host step (the
//      panel's column update, xLARFG's reflector whose beta is real, so that d and e are real, and the
//      O(N nb) corrections of W), y = A22 v by trnblas hemv on TensorE (C, fp32 mode) or an fp64 host
//      step (Z, as dsytrd's symv), and per panel A22 -= V W^H + W V^H by one trnblas HER2K (4M GEMMs);
//   2. T = Z diag(w) Z^T by the real divide and conquer of syevd (stedc.cpp: QL leaves and the secular
//      equations on the host in fp64, the merges' eigenvector products as GEMMs on TensorE);
//   3. V = Q Z by unmqr's compact-WY block reflectors (complex GEMMs on TensorE).
// docs/trnsolver.md "heevd".
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "eig_internal.hpp"
#include "trn/blas/level12.hpp"
#include "trn/blas/level3.hpp"
#include "trn/solver/qr.hpp"

namespace trn::solver {
namespace detail {
namespace {

using Wide = std::complex<double>;

// y = A x from the lower triangle of the Hermitian A (n x n): trnblas hemv (C) or fp64 on the host (Z).
template <class T>
void hemv(EigSteps& st, std::int64_t n, const T* A, std::int64_t lda, const T* x, T* y) {
  if (!st.host_symv) {
    blas::CallReport r;
    blas::hemv(st.bs, blas::Uplo::lower, n, T(1), A, lda, x, 1, T(0), y, 1, &r);
    st.trace.add(std::move(r.trace));
    return;
  }
  std::vector<Wide> acc(static_cast<std::size_t>(n), Wide(0));
  for (std::int64_t j = 0; j < n; ++j) {
    Wide s = to_fp64(A[j + j * lda]).real() * to_fp64(x[j]);
    for (std::int64_t i = j + 1; i < n; ++i) {
      s += std::conj(to_fp64(A[i + j * lda])) * to_fp64(x[i]);
      acc[i] += to_fp64(A[i + j * lda]) * to_fp64(x[j]);
    }
    acc[j] += s;
  }
  for (std::int64_t i = 0; i < n; ++i) y[i] = from_fp64<T>(acc[i]);
  const double flops = 8.0 * static_cast<double>(n * n);
  st.host_flops += flops;
  record_host_step(st.trace, HostStep{.name = "trnsolver.hetrd.hemv", .flops = flops,
                                      .reads = {HostSpan::matrix(A, n, n, lda), HostSpan(x, n)},
                                      .writes = {HostSpan(y, n)}});
}

template <class T>
void her2k(EigSteps& st, std::int64_t n, std::int64_t k, const T* V, std::int64_t ldv, const T* W, std::int64_t ldw,
           T* C, std::int64_t ldc) {
  blas::CallReport r;
  if constexpr (std::is_same_v<T, std::complex<float>>)
    blas::cher2k(st.bs, blas::GemmMode::fp32, blas::Uplo::lower, blas::COp::N, n, k, T(-1), V, ldv, W, ldw, 1.0f, C,
                 ldc, &r);
  else
    blas::zher2k(st.bs, blas::Uplo::lower, blas::COp::N, n, k, T(-1), V, ldv, W, ldw, 1.0, C, ldc, &r);
  st.trace.add(std::move(r.trace));
}

}  // namespace

// The complex steps of sytrd.cpp's xLATRD driver (sytrd_lower_impl), overloads of its real ones.
#define TRNSOLVER_HETRD_STEPS(T)                                                                                 \
  void symv(EigSteps& st, std::int64_t n, const T* A, std::int64_t lda, const T* x, T* y) {                     \
    hemv(st, n, A, lda, x, y);                                                                                    \
  }                                                                                                               \
  void syr2k(EigSteps& st, std::int64_t n, std::int64_t k, const T* V, std::int64_t ldv, const T* W,            \
             std::int64_t ldw, T* C, std::int64_t ldc) {                                                          \
    her2k(st, n, k, V, ldv, W, ldw, C, ldc);                                                                      \
  }
TRNSOLVER_HETRD_STEPS(std::complex<float>)
TRNSOLVER_HETRD_STEPS(std::complex<double>)
#undef TRNSOLVER_HETRD_STEPS

}  // namespace detail

namespace {

template <class T>
using RealOf = typename T::value_type;


template <class T>
int heevd_impl(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, RealOf<T>* W,
               CallReport* report) {
  using R = RealOf<T>;
  constexpr bool kC = std::is_same_v<R, float>;
  if (n < 0 || lda < std::max<std::int64_t>(1, n) || (n > 0 && (A == nullptr || W == nullptr)))
    throw UsageError("trnsolver", "argument", std::string(kC ? "c" : "z") + "heevd: n >= 0, lda >= max(1, n), A and W not NULL");
  const SyevdPlan plan = plan_syevd(kC ? 'c' : 'z', 'e', n, vectors);
  if (report != nullptr) *report = CallReport{};
  detail::EigSteps st{kC ? detail::step_blas_settings(s) : detail::fp64_update_blas_settings(s), {}, 0, plan.host_symv};
  int info = 0;
  if (n > 0) {
    ScratchVector<T> work, tau(static_cast<std::size_t>(n));  // traced: docs/cost-model.md section 2
    const double scale = detail::scaled_lower_copy(n, A, lda, uplo == Uplo::lower, work);
    record_host_step(st.trace, HostStep{.name = "trnsolver.heevd.prepare", .flops = double(n * n),
                                        .reads = {HostSpan::matrix(A, n, n, lda)}, .writes = {HostSpan(work.data(), n * n)}});
    if (scale == 0) {
      info = detail::non_finite_input(W, n);
    } else {
      ScratchVector<double> w;
      ScratchVector<R> Z;
      info = detail::tridiagonal_eig(st, n, work.data(), tau.data(), vectors, w, Z);
      ScratchVector<T> V(Z.begin(), Z.end());
      if (vectors && n > 1) {  // V = Q Z (Q = diag(1, Q'), the reflectors at (1, 0))
        detail::SubCallParts sub(st.trace);  // unmqr's trace parts join this call's, modeled once
        ormqr(s, true, false, n - 1, n, n - 1, work.data() + 1, n, tau.data(), V.data() + 1, n, &sub.report());
      }
      for (std::int64_t i = 0; i < n; ++i) W[i] = static_cast<R>(w[i] / scale);
      if (vectors)
        for (std::int64_t j = 0; j < n; ++j) std::copy(V.begin() + j * n, V.begin() + (j + 1) * n, A + j * lda);
      record_host_step(st.trace, HostStep{.name = "trnsolver.heevd.finish", .flops = double(n),
                                          .reads = {HostSpan(V.data(), vectors ? n * n : 0), HostSpan(w.data(), n)},
                                          .writes = {vectors ? HostSpan::matrix(A, n, n, lda) : HostSpan{}, HostSpan(W, n)}});
    }
  }
  detail::finish_fp64_report(report, std::move(st.trace), s.target, st.host_flops);
  if (report != nullptr) report->add_plan(plan);
  return info;
}

}  // namespace

int heevd(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, std::complex<float>* A, std::int64_t lda,
          float* W, CallReport* report) {
  return heevd_impl(s, vectors, uplo, n, A, lda, W, report);
}
int heevd(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, std::complex<double>* A, std::int64_t lda,
          double* W, CallReport* report) {
  return heevd_impl(s, vectors, uplo, n, A, lda, W, report);
}

}  // namespace trn::solver
