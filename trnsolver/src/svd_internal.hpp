// Internals shared by the SVD family (gebrd.cpp, svd_family.cpp) and defined in geqrf.cpp: xLARFG and
// the QR drivers' TensorE GEMM (fp32 mode for S/C, Ozaki fp64 for D/Z; C/Z by 4M complex GEMMs).
#pragma once
#include <complex>
#include <cstdint>
#include <type_traits>

#include "trn/core/trace.hpp"
#include "trn/solver/solver.hpp"

namespace trn::solver::detail {

#define TRNSOLVER_SVD_STEPS_DECLARE(T)                                                                       \
  /* LAPACK xLARFG on (alpha; x(0:len-1)) contiguous: alpha <- beta, x <- v(1:), returns tau */             \
  T householder(std::int64_t len, T& alpha, T* x);                                                           \
  /* C = alpha op(A) op(B) + beta C (op 'N', 'T', 'C') on TensorE; the trace appended */                      \
  void qr_gemm(const Settings& s, char ta, char tb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, \
               const T* A, std::int64_t lda, const T* B, std::int64_t ldb, T beta, T* C, std::int64_t ldc,   \
               TraceParts& trace);
TRNSOLVER_SVD_STEPS_DECLARE(float)
TRNSOLVER_SVD_STEPS_DECLARE(double)
TRNSOLVER_SVD_STEPS_DECLARE(std::complex<float>)
TRNSOLVER_SVD_STEPS_DECLARE(std::complex<double>)
#undef TRNSOLVER_SVD_STEPS_DECLARE

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
