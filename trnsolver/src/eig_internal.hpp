// Internals shared by syevd's steps (sytrd.cpp, stedc.cpp, syevd.cpp) and the triangular solves of
// sygvj.cpp / trtri.cpp (not installed).
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>
#include <vector>

#include "syevj_internal.hpp"
#include "trn/core/scratch.hpp"
#include "trn/core/host_simd.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/scalar_traits.hpp"
#include "trn/solver/eig.hpp"

namespace trn::solver::detail {

// predict_syevd_ns<T>(s, n, vectors), computed once per process for everything it depends on (the
// settings, n, vectors and the panel widths TRNSOLVER_SYTRD_NB / TRNSOLVER_QR_NB choose) and kept:
// a plan's prediction runs a whole syevd on a seeded random matrix, which made every syevd call of a
// C++ caller that keeps plans run twice. Valid because the prediction's modeled time does not depend
// on what ran before in the process, on which thread, or on where the heap puts buffers
// (test_trnsolver_model_history, SyevdPredictionIndependentOfHostHistory).
template <class T>
double remembered_syevd_prediction_ns(const Settings& s, std::int64_t n, bool vectors);

// What the steps of one syevd-family call share: the trnblas settings of its TensorE steps (fp32
// mode for S, Ozaki fp64 for D), the traces of every step in order, the host fp64 flops.
struct EigSteps {
  blas::Settings bs;
  TraceParts trace;
  double host_flops = 0;
  // sytrd's y = A22 v as a host fp64 step instead of trnblas symv (SyevdPlan::host_symv: D, where an
  // Ozaki GEMV's host scaling and reconstruction cost far more than the product itself).
  bool host_symv = false;
};

// The generalized eigenproblems' reductions (sygv_reduce, hegv_reduce) share their start and end.
// What one reduction carries: its steps' traces, its host fp64 flops, the factor f of B (n x n, ld n).
template <class T>
struct GvState {
  TraceParts trace;
  double flops = 0;
  ScratchVector<T> f;  // traced (scratch addresses: docs/cost-model.md section 2)
};
// Start: the report emptied; B copied into f (by DMA: B is written only on success) and factored there
// by potrf(f, report) -> info, the factor's trace and host flops joining the call's. Returns its info
// (0 when n == 0: nothing done).
template <class T, class Potrf>
int gv_factor_b(const Settings& s, std::int64_t n, const T* B, std::int64_t ldb, CallReport* report, GvState<T>& st,
                Potrf&& potrf) {
  if (report != nullptr) *report = CallReport{};
  if (n == 0) return 0;
  st.f.resize(static_cast<std::size_t>(n * n));
  copy_matrix(s, B, ldb, st.f.data(), n, n, n, st.trace);
  // potrf is a sub-call: its trace parts join st.trace unjoined and unmodeled, without its plan
  // (detail::SubCallParts; the add below stays for a routine that finishes its report otherwise).
  SubCallParts sub(st.trace);
  CallReport& pr = sub.report();
  const int info = potrf(st.f.data(), &pr);
  st.trace.add(std::move(pr.trace));
  st.flops += pr.host_fp64_flops;
  return info;
}
// End: X's first `cols` columns from c (ld n) into A, the eigenvalues w into W, the factor f into B's
// uplo triangle: copies, one host round trip (`name`, a string literal).
template <class T, class R>
void gv_store(std::string_view name, std::int64_t n, std::int64_t cols, bool lower, const ScratchVector<T>& c, T* A,
              std::int64_t lda, const ScratchVector<R>& w, R* W, const ScratchVector<T>& f, T* B, std::int64_t ldb,
              TraceParts& trace) {
  for (std::int64_t j = 0; j < cols; ++j) std::copy(c.begin() + j * n, c.begin() + (j + 1) * n, A + j * lda);
  std::copy(w.begin(), w.end(), W);
  for (std::int64_t j = 0; j < n; ++j)  // the factor in B's uplo triangle
    for (std::int64_t i = lower ? j : 0; i < (lower ? n : j + 1); ++i) B[i + j * ldb] = f[static_cast<std::size_t>(i + j * n)];
  record_host_step(trace, HostStep{.name = name, .flops = 0,
                                   .reads = {HostSpan(c.data(), n * cols), HostSpan(w.data(), n), HostSpan(f.data(), n * n)},
                                   .writes = {HostSpan::matrix(A, n, cols, lda), HostSpan(W, n), HostSpan::matrix(B, n, n, ldb)}});
}

// The fp64 accumulator of a working-precision scalar (double, or std::complex<double> for C/Z) and the
// conversions to and from it: the host steps of the real and complex tridiagonalization share them.
template <class T>
using Fp64 = HostFp64<T>;
template <class T>
inline constexpr bool kIsComplex = !std::is_same_v<Fp64<T>, double>;

template <class T>
Fp64<T> to_fp64(T x) {
  if constexpr (kIsComplex<T>)
    return Fp64<T>(x.real(), x.imag());
  else
    return static_cast<double>(x);
}
template <class T>
T from_fp64(Fp64<T> x) {
  if constexpr (kIsComplex<T>)
    return T(static_cast<typename T::value_type>(x.real()), static_cast<typename T::value_type>(x.imag()));
  else
    return static_cast<T>(x);
}
inline double conj_fp64(double x) { return x; }
inline std::complex<double> conj_fp64(std::complex<double> x) { return std::conj(x); }

// C = alpha op(A) op(B) + beta C by trnblas on TensorE (float: fp32 mode; double: Ozaki DGEMM),
// its trace appended to st.
void eig_gemm(EigSteps& st, bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
              const float* A, std::int64_t lda, const float* B, std::int64_t ldb, double beta, float* C,
              std::int64_t ldc);
void eig_gemm(EigSteps& st, bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
              const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C,
              std::int64_t ldc);

// The symmetric tridiagonal eigenproblem (d: n diagonal, e: n - 1 off-diagonal, in fp64, both
// destroyed): w receives the eigenvalues ascending; with Z (n x n, leading dimension n, written
// whole) the eigenvectors, by divide and conquer (stedc.cpp); without, by implicit QL alone.
// Returns 0 or the number of off-diagonal elements of a QL leaf that did not converge.
int stedc(EigSteps& st, std::int64_t n, ScratchVector<double>& d, ScratchVector<double>& e, double* w, float* Z);
int stedc(EigSteps& st, std::int64_t n, ScratchVector<double>& d, ScratchVector<double>& e, double* w, double* Z);
// The merge's secular equation 1/rho + sum_j z_j^2 / (d_j - lambda) = 0 (d ascending, k poles, znorm2 =
// |z|^2): root j as lambda_j = d[pole[j]] + tau[j], found with `simd`'s lanes (portable: one root at a
// time) -- the same bits at every level; stedc's flop count added to `flops`. For tests (stedc.cpp).
void secular_roots_at(HostSimd simd, const double* d, const double* z, std::int64_t k, double rho, double znorm2,
                      std::int64_t* pole, double* tau, double& flops);

// Lower tridiagonalization of the n x n matrix a (ld lda, lower triangle read; the strictly upper
// part is not read or written): reflectors below the subdiagonal (A(j+1, j) holds 1 on return),
// d, e (fp64 copies) and tau. sytrd.cpp.
void sytrd_lower(EigSteps& st, std::int64_t n, float* a, std::int64_t lda, ScratchVector<double>& d,
                 ScratchVector<double>& e, float* tau);
void sytrd_lower(EigSteps& st, std::int64_t n, double* a, std::int64_t lda, ScratchVector<double>& d,
                 ScratchVector<double>& e, double* tau);

// T X = R in place for the n x n triangle T (element (i, j) at t[i * si + j * sj]; unit: its diagonal
// taken as 1, not read), R n x cols (ld n). fp32: the triangular-solve tile kernel (one launch per
// chunk of right-hand sides); fp64: substitution on the host CPU, one recorded host step named `step`
// (a string literal), its flops added to *flops. trtri.cpp; used by sygvj/sygvd and trtri.
void tri_solve(const Settings& s, const float* t, std::int64_t si, std::int64_t sj, bool lower, bool unit,
               std::int64_t n, std::int64_t cols, float* r, TraceParts& trace, double* flops, std::string_view step);
void tri_solve(const Settings& s, const double* t, std::int64_t si, std::int64_t sj, bool lower, bool unit,
               std::int64_t n, std::int64_t cols, double* r, TraceParts& trace, double* flops, std::string_view step);
// The complex (Hermitian) lower tridiagonalization (LAPACK xHETRD/xLATRD; sytrd.cpp's driver): as above,
// the reflectors complex (xLARFG: beta real, so d and e are real), y = A22 v by trnblas hemv (C) or an
// fp64 host step (Z), the trailing update by HER2K -- the complex steps below (hetrd.cpp).
void sytrd_lower(EigSteps& st, std::int64_t n, std::complex<float>* a, std::int64_t lda, ScratchVector<double>& d,
                 ScratchVector<double>& e, std::complex<float>* tau);
void sytrd_lower(EigSteps& st, std::int64_t n, std::complex<double>* a, std::int64_t lda, ScratchVector<double>& d,
                 ScratchVector<double>& e, std::complex<double>* tau);
// The uplo triangle of A as a full lower working copy (ld n; Hermitian T: the upper triangle read
// conjugated, the diagonal real), scaled by a power of two to max |a_ij| (complex: max |re|, |im|) in
// [1, 2) (exact); returns that scale (0: A holds Inf/NaN; 1 for a zero matrix). syevd, heevd.
template <class T>
double scaled_lower_copy(std::int64_t n, const T* A, std::int64_t lda, bool lower, ScratchVector<T>& work) {
  work.assign(static_cast<std::size_t>(n * n), T(0));
  double amax = 0;
  bool finite = true;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j; i < n; ++i) {
      if constexpr (trn::is_complex_v<T>) {
        T v = lower ? A[i + j * lda] : std::conj(A[j + i * lda]);
        if (i == j) v = T(v.real(), 0);
        finite = finite && std::isfinite(v.real()) && std::isfinite(v.imag());
        amax = std::max({amax, std::fabs(static_cast<double>(v.real())), std::fabs(static_cast<double>(v.imag()))});
        work[i + j * n] = v;
      } else {
        const T v = lower ? A[i + j * lda] : A[j + i * lda];
        finite = finite && std::isfinite(v);
        amax = std::max(amax, std::fabs(static_cast<double>(v)));
        work[i + j * n] = v;
      }
    }
  if (!finite) return 0;
  const double scale = amax > 0 ? std::ldexp(1.0, -std::ilogb(amax)) : 1.0;
  // A power of two: exact (real T scaled in double, so that a scale past T's range cannot overflow).
  for (T& v : work) {
    if constexpr (trn::is_complex_v<T>) v *= static_cast<trn::real_t<T>>(scale);
    else v = static_cast<T>(v * scale);
  }
  return scale;
}

// An input holding Inf/NaN (syevd / heevd / heevdx): every eigenvalue NaN; returns the info n.
template <class R>
int non_finite_input(R* W, std::int64_t n) {
  std::fill(W, W + n, std::numeric_limits<R>::quiet_NaN());
  return static_cast<int>(n);
}

// The tridiagonal route of syevd / syevdx / heevd / heevdx on the working copy `work` (n x n, ld n,
// lower triangle; the reflectors left in it and tau for the back-transformation): sytrd_lower, then
// stedc. w receives the eigenvalues ascending (fp64), Z (n x n, ld n, the real type R) the
// tridiagonal's eigenvectors when `vectors` (else it is left empty). Returns stedc's info.
template <class T, class R>
int tridiagonal_eig(EigSteps& st, std::int64_t n, T* work, T* tau, bool vectors, ScratchVector<double>& w,
                    ScratchVector<R>& Z) {
  ScratchVector<double> d, e;
  w.assign(static_cast<std::size_t>(n), 0.0);
  sytrd_lower(st, n, work, n, d, e, tau);
  Z.assign(vectors ? static_cast<std::size_t>(n * n) : 0, R(0));
  return stedc(st, n, d, e, w.data(), vectors ? Z.data() : nullptr);
}

// xLATRD's complex steps (hetrd.cpp), overloads of sytrd.cpp's real ones: y = A v (hemv) and
// A -= V W^H + W V^H (HER2K). The column update, its reflector and W's corrections are one template
// over the scalar type in sytrd.cpp (LAPACK xLATRD / zlatrd, lower).
#define TRNSOLVER_HETRD_STEPS(T)                                                                                 \
  void symv(EigSteps& st, std::int64_t n, const T* A, std::int64_t lda, const T* x, T* y);                      \
  void syr2k(EigSteps& st, std::int64_t n, std::int64_t k, const T* V, std::int64_t ldv, const T* W,            \
             std::int64_t ldw, T* C, std::int64_t ldc);
TRNSOLVER_HETRD_STEPS(std::complex<float>)
TRNSOLVER_HETRD_STEPS(std::complex<double>)
#undef TRNSOLVER_HETRD_STEPS
// LAPACK xLARFG for complex data (geqrf.cpp): H^H (alpha; x) = (beta; 0), beta real; returns tau.
std::complex<float> larfg_complex(std::int64_t len, std::complex<float>& alpha, std::complex<float>* x);
std::complex<double> larfg_complex(std::int64_t len, std::complex<double>& alpha, std::complex<double>* x);

}  // namespace trn::solver::detail
