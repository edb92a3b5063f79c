// Internals shared by the SVD family (gebrd.cpp, svd_family.cpp) and defined in geqrf.cpp: xLARFG and
// the QR drivers' TensorE GEMM (fp32 mode for S/C, Ozaki fp64 for D/Z; C/Z by 4M complex GEMMs).
#pragma once
#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "trn/core/host_step.hpp"
#include "trn/core/trace.hpp"
#include "trn/solver/solver.hpp"

namespace trn::solver::detail {

#define TRNSOLVER_SVD_STEPS_DECLARE(T)                                                                       \
  /* LAPACK xLARFG on (alpha; x(0:len-1)) contiguous: alpha <- beta, x <- v(1:), returns tau */             \
  T householder(std::int64_t len, T& alpha, T* x);                                                           \
  /* C = alpha op(A) op(B) + beta C (op 'N', 'T', 'C') on TensorE; the trace appended */                      \
  void qr_gemm(const Settings& s, char ta, char tb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, \
               const T* A, std::int64_t lda, const T* B, std::int64_t ldb, T beta, T* C, std::int64_t ldc,   \
               TraceParts& trace);                                                                           \
  /* y = op(A) x (op 'N' or 'C'), A m x n: the panels' trailing-matrix GEMV of gebrd and geev's gehrd --  \
     trnblas gemv on TensorE for S/C (fp32 mode), an fp64 host step `host_name` for D/Z whose multiply-   \
     adds are added to host_ops (defined in gebrd.cpp) */                                                    \
  void panel_gemv(const Settings& s, const char* host_name, char op, std::int64_t m, std::int64_t n,         \
                  const T* A, std::int64_t lda, const T* x, std::int64_t incx, T* y, TraceParts& trace,     \
                  double& host_ops);
TRNSOLVER_SVD_STEPS_DECLARE(float)
TRNSOLVER_SVD_STEPS_DECLARE(double)
TRNSOLVER_SVD_STEPS_DECLARE(std::complex<float>)
TRNSOLVER_SVD_STEPS_DECLARE(std::complex<double>)
#undef TRNSOLVER_SVD_STEPS_DECLARE

// gebrd's plan prediction (gebrd.cpp): the driver replayed on a synthetic well-scaled m x n matrix, its
// modeled time; remembered_gebrd_prediction_ns keeps it per process (prediction_memo.hpp), which the
// plan prints. prefix 's', 'd', 'c', 'z' (the element type).
double predict_gebrd_ns(char prefix, const Settings& s, std::int64_t m, std::int64_t n);
double remembered_gebrd_prediction_ns(char prefix, const Settings& s, std::int64_t m, std::int64_t n);

// Element traits of the four types: conjugate, real part, real flops per multiply-add, fp64 or not.
template <class T>
inline constexpr bool kRealType = std::is_same_v<T, float> || std::is_same_v<T, double>;
template <class T>
T cj(T x) {
  if constexpr (kRealType<T>) return x; else return std::conj(x);
}
template <class T>
auto real_part(T x) {
  if constexpr (kRealType<T>) return x; else return x.real();
}
template <class T>
inline constexpr double kOpFlops = kRealType<T> ? 2.0 : 8.0;
template <class T>
inline constexpr bool kFp64Type = std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>;

// LAPACK's precision prefix of the four element types: 's', 'd', 'c', 'z'.
template <class T>
constexpr char precision_prefix() {
  return std::is_same_v<T, float> ? 's' : std::is_same_v<T, double> ? 'd' : std::is_same_v<T, std::complex<float>> ? 'c' : 'z';
}

// C (rows x cols, ldc) -= ctau v (v^H C): H^H from the left (LAPACK xLARF 'L' with conj(tau)).
template <class T>
inline double apply_left(const T* v, std::int64_t rows, T ctau, T* C, std::int64_t ldc, std::int64_t cols) {
  for (std::int64_t c = 0; c < cols; ++c) {
    T* cc = C + c * ldc;
    T s = 0;
    for (std::int64_t i = 0; i < rows; ++i) s += cj(v[i]) * cc[i];
    s *= ctau;
    for (std::int64_t i = 0; i < rows; ++i) cc[i] -= v[i] * s;
  }
  return 2.0 * static_cast<double>(rows * cols);
}

// C (rows x cols, ldc) -= tau (C u) u^H: G from the right (LAPACK xLARF 'R').
template <class T>
inline double apply_right(T* C, std::int64_t ldc, std::int64_t rows, std::int64_t cols, const T* u, T tau) {
  std::vector<T> w(static_cast<std::size_t>(rows), T(0));
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) w[static_cast<std::size_t>(i)] += C[i + j * ldc] * u[j];
  for (std::int64_t j = 0; j < cols; ++j) {
    const T f = tau * cj(u[j]);
    for (std::int64_t i = 0; i < rows; ++i) C[i + j * ldc] -= w[static_cast<std::size_t>(i)] * f;
  }
  return 2.0 * static_cast<double>(rows * cols);
}

// LAPACK xLACGV: x <- conj(x), n entries at stride inc (nothing for real data).
template <class T>
inline void lacgv(std::int64_t n, T* x, std::int64_t inc) {
  if constexpr (!kRealType<T>)
    for (std::int64_t i = 0; i < n; ++i) x[i * inc] = std::conj(x[i * inc]);
}

// y = alpha op(A) x + beta y on the host in the working precision (op 'N', or 'C' the conjugate
// transpose); A is m x n. The panel's O(m nb) products with its own X, Y and reflectors (xGEMV's
// reference loops). Returns the multiply-add count.
template <class T>
inline double host_gemv(char op, std::int64_t m, std::int64_t n, T alpha, const T* A, std::int64_t lda, const T* x,
                 std::int64_t incx, T beta, T* y, std::int64_t incy) {
  const std::int64_t leny = op == 'N' ? m : n;
  for (std::int64_t i = 0; i < leny; ++i) y[i * incy] = beta == T(0) ? T(0) : beta * y[i * incy];
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      if (op == 'N') y[i * incy] += alpha * A[i + j * lda] * x[j * incx];
      else y[j * incy] += alpha * cj(A[i + j * lda]) * x[i * incx];
    }
  return static_cast<double>(m * n + leny);
}

// A recorded index move (no flops) from `from` to `to`.
inline void record_move(TraceParts& trace, const char* name, HostSpan from, HostSpan to) {
  record_host_step(trace, HostStep{.name = name, .flops = 0, .reads = {from}, .writes = {to}});
}

// LAPACK xORGBR's shift for gebrd of a matrix with fewer rows ('Q') / columns ('P') than k (and
// xORGHR's, 'Q', for geev's Hessenberg reflectors): the reflectors move one column right ('Q') or one row down ('P'); row and column 0 become e_1.
template <class T>
inline void shift_reflectors(char vect, std::int64_t N, T* A, std::int64_t lda, TraceParts& trace,
                             const char* name = "trnsolver.orgbr.shift") {
  for (std::int64_t j = N - 1; j >= 1; --j) {
    if (vect == 'Q') {
      A[j * lda] = T(0);
      for (std::int64_t i = j + 1; i < N; ++i) A[i + j * lda] = A[i + (j - 1) * lda];
    } else {
      for (std::int64_t i = j - 1; i >= 1; --i) A[i + j * lda] = A[i - 1 + j * lda];
      A[j * lda] = T(0);
    }
  }
  A[0] = T(1);
  for (std::int64_t i = 1; i < N; ++i) A[i] = T(0);
  const HostSpan a = HostSpan::matrix(A, N, N, lda);
  record_move(trace, name, a, a);
}

// The C++ API's argument check: trn::UsageError naming the routine.
inline void require(bool ok, const char* fn, const char* what) {
  if (!ok) throw UsageError("trnsolver", fn, what);
}

// The traces and host fp64 flops of the routines a driver calls, joined in call order.
struct SubCalls {
  TraceParts trace;
  double fp64_flops = 0;
  void absorb(CallReport& r) {
    trace.add(std::move(r.trace));
    fp64_flops += r.host_fp64_flops;
  }
};

}  // namespace trn::solver::detail
