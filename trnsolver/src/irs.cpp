// Mixed-precision iterative refinement (cuSOLVER's IRS: <T1><T2>gesv, <T1><T2>gels, IRSXgesv,
// IRSXgels): one loop (IrsSolve) over the I/O type (S, D, C, Z), the factor precision and the
// factorisation (LU for gesv, QR for gels; docs/trnsolver.md "IRS family").
//
// Factorization: A rounded to fp32 (complex fp32), LU with partial pivoting by sgetrf / cgetrf whose
// trailing updates take `lu_mode` inputs on TensorE (fp32 PSUM, panels fp32), or Householder QR
// (geqrf, block reflectors in `lu_mode`); or, lu_fp64, the factorisation in the I/O precision.
// gels refines by the corrected semi-normal equations d = (R^H R)^-1 A^H r (Bjorck 1987).
// Refinement (Wilkinson 1963, Moler 1967; Carson & Higham, SISC 40(2):A817-A847, 2018):
//   residual    r = b - A x in the I/O precision on TensorE (double: trnblas Ozaki DGEMM; float:
//               trnblas GEMM in fp32 mode)
//   classical   d = M^-1 r with M = the low-precision LU (the triangular-solve tile kernels)
//   GMRES       d from GMRES on M^-1 A d = M^-1 r (left preconditioned; Carson & Higham's GMRES-IR):
//               the matrix-vector products on TensorE as above, M^-1 in the I/O precision (float: the
//               tile kernels; double: host fp64 substitution with the exactly widened factors), Arnoldi
//               (modified Gram-Schmidt, Givens rotations, O(n k^2) per step) on the host in the I/O
//               precision (host_fp64_flops counts it)
//   update      x += d on the host (n nrhs additions)
// Every host step above (||A||_inf, the residual norms, the update, GMRES's start, Arnoldi step and
// solution) is one costed host round trip (trnsolver.irs.*; docs/cost-model.md section 7).
// Convergence (cuSOLVER's test, BWDMAX = 1): ||r||_inf <= tol ||A||_inf ||x||_inf per column, tol =
// sqrt(n) eps of the I/O type unless set.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "mode_factor.hpp"
#include "syevj_internal.hpp"
#include "trn/blas/level3.hpp"
#include "trn/solver/complex_factor.hpp"
#include "trn/solver/qr.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/scratch.hpp"
#include "trn/core/scalar_traits.hpp"

namespace trn::solver {
namespace {

template <class T>
inline constexpr bool kComplex = trn::is_complex_v<T>;  // trn/core/scalar_traits.hpp
// The lower precision's element type (fp32 or complex fp32) and T's real type.
template <class T>
using LowOf = std::conditional_t<kComplex<T>, std::complex<float>, float>;
template <class T>
using RealOf = trn::real_t<T>;  // trn/core/scalar_traits.hpp
// An element's magnitude in double.
template <class T>
double magnitude(T x) {
  if constexpr (kComplex<T>)
    return std::abs(std::complex<double>(x));
  else
    return std::fabs(static_cast<double>(x));
}

// C (m x cols, ldc) = alpha op(A) X + beta C in the I/O precision on TensorE (op N, or the adjoint
// with A stored k x m): double Ozaki DGEMM, float fp32 GEMM, complex the 4M forms of those.
template <class T>
void matmul(const Settings& s, bool adjoint, std::int64_t m, std::int64_t cols, std::int64_t k, T alpha, const T* A,
            std::int64_t lda, const T* X, std::int64_t ldx, T beta, T* C, std::int64_t ldc, TraceParts& trace) {
  blas::CallReport br;
  const blas::Settings bs = detail::step_blas_settings(s);
  const blas::Op op = adjoint ? blas::Op::T : blas::Op::N;
  const blas::COp cop = adjoint ? blas::COp::C : blas::COp::N;
  const auto algo = blas::ComplexAlgo::four_m;
  if constexpr (std::is_same_v<T, double>) {
    blas::dgemm(bs, op, blas::Op::N, m, cols, k, alpha, A, lda, X, ldx, beta, C, ldc, &br);
  } else if constexpr (std::is_same_v<T, float>) {
    blas::gemm(bs, blas::GemmMode::fp32, op, blas::Op::N, m, cols, k, alpha, {A, DType::f32, lda},
               {X, DType::f32, ldx}, beta, {C, DType::f32, ldc}, &br);
  } else if constexpr (std::is_same_v<T, std::complex<float>>) {
    blas::cgemm(bs, blas::GemmMode::fp32, algo, cop, blas::COp::N, m, cols, k, alpha, A, lda, X, ldx, beta, C, ldc, &br);
  } else {
    blas::zgemm(bs, algo, cop, blas::COp::N, m, cols, k, alpha, A, lda, X, ldx, beta, C, ldc, &br);
  }
  trace.add(std::move(br.trace));
}

// The factorisation kernels by element type: LU (getrf with the trailing updates in `mode`; D and Z
// ignore it: Ozaki fp64), its solve, QR (block reflectors in `mode`), Q^H C, and R's triangular solve.
int getrf_of(const Settings& s, blas::GemmMode mode, std::int64_t n, float* A, std::int64_t lda, int* p, CallReport* r) {
  return detail::sgetrf_mode(s, mode, n, n, A, lda, p, r);
}
int getrf_of(const Settings& s, blas::GemmMode, std::int64_t n, double* A, std::int64_t lda, int* p, CallReport* r) {
  return dgetrf(s, n, n, A, lda, p, r);
}
int getrf_of(const Settings& s, blas::GemmMode mode, std::int64_t n, std::complex<float>* A, std::int64_t lda, int* p,
             CallReport* r) {
  return detail::cgetrf_mode(s, mode, n, n, A, lda, p, r);
}
int getrf_of(const Settings& s, blas::GemmMode, std::int64_t n, std::complex<double>* A, std::int64_t lda, int* p,
             CallReport* r) {
  return getrf(s, n, n, A, lda, p, r);
}
void getrs_of(const Settings& s, std::int64_t n, std::int64_t cols, const float* A, std::int64_t lda, const int* p,
              float* B, std::int64_t ldb, CallReport* r) {
  sgetrs(s, false, n, cols, A, lda, p, B, ldb, r);
}
void getrs_of(const Settings& s, std::int64_t n, std::int64_t cols, const double* A, std::int64_t lda, const int* p,
              double* B, std::int64_t ldb, CallReport* r) {
  dgetrs(s, false, n, cols, A, lda, p, B, ldb, r);
}
template <class R>
void getrs_of(const Settings& s, std::int64_t n, std::int64_t cols, const std::complex<R>* A, std::int64_t lda,
              const int* p, std::complex<R>* B, std::int64_t ldb, CallReport* r) {
  getrs(s, SolveOp::N, n, cols, A, lda, p, B, ldb, r);
}
template <class X>
void geqrf_of(const Settings& s, blas::GemmMode mode, std::int64_t m, std::int64_t n, X* A, std::int64_t lda, X* tau,
              CallReport* r) {
  if constexpr (std::is_same_v<LowOf<X>, X>)
    detail::geqrf_mode(s, mode, m, n, A, lda, tau, r);
  else
    geqrf(s, m, n, A, lda, tau, r);
}
template <class X>
void ormqr_h_of(const Settings& s, blas::GemmMode mode, std::int64_t m, std::int64_t cols, std::int64_t k, const X* A,
                std::int64_t lda, const X* tau, X* C, std::int64_t ldc, CallReport* r) {
  if constexpr (std::is_same_v<LowOf<X>, X>)
    detail::ormqr_mode(s, mode, true, true, m, cols, k, A, lda, tau, C, ldc, r);
  else
    ormqr(s, true, true, m, cols, k, A, lda, tau, C, ldc, r);
}
// C = op(R)^-1 C, R the n x n upper triangle of A (op: N, or the adjoint); trnblas TRSM on TensorE
// (S, C fp32 mode; D, Z Ozaki), substitution diagonal blocks (componentwise backward stable).
template <class X>
void trsm_r_of(const Settings& s, bool adjoint, std::int64_t n, std::int64_t cols, const X* A, std::int64_t lda, X* C,
               std::int64_t ldc, TraceParts& trace) {
  if (n <= 0 || cols <= 0) return;
  constexpr bool low = std::is_same_v<LowOf<X>, X>;
  blas::Settings bs = low ? detail::step_blas_settings(s) : detail::fp64_update_blas_settings(s);
  bs.trsm_substitution = true;
  blas::CallReport r;
  const auto L = blas::Side::left;
  const auto U = blas::Uplo::upper;
  const auto D = blas::Diag::non_unit;
  const blas::Op op = adjoint ? blas::Op::T : blas::Op::N;
  const blas::COp cop = adjoint ? blas::COp::C : blas::COp::N;
  if constexpr (std::is_same_v<X, float>)
    blas::strsm(bs, blas::GemmMode::fp32, L, U, op, D, n, cols, 1.0f, A, lda, C, ldc, &r);
  else if constexpr (std::is_same_v<X, double>)
    blas::dtrsm(bs, L, U, op, D, n, cols, 1.0, A, lda, C, ldc, &r);
  else if constexpr (std::is_same_v<X, std::complex<float>>)
    blas::ctrsm(bs, blas::GemmMode::fp32, L, U, cop, D, n, cols, X(1), A, lda, C, ldc, &r);
  else
    blas::ztrsm(bs, L, U, cop, D, n, cols, X(1), A, lda, C, ldc, &r);
  trace.add(std::move(r.trace));
}
// 1-based index of the first exactly zero R(i, i) of a QR factorisation, 0 when R is nonsingular.
template <class X>
int zero_diagonal(const X* A, std::int64_t lda, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i)
    if (A[i + i * lda] == X(0)) return static_cast<int>(i + 1);
  return 0;
}
// v rounded to the lower precision; false when an element is not finite or overflows fp32.
template <class T>
bool to_low(T v, LowOf<T>& out) {
  constexpr double big = static_cast<double>(std::numeric_limits<float>::max());
  auto ok = [](double x) { return std::isfinite(x) && std::fabs(x) <= big; };
  if constexpr (kComplex<T>) {
    if (!ok(static_cast<double>(v.real())) || !ok(static_cast<double>(v.imag()))) return false;
  } else if (!ok(static_cast<double>(v))) {
    return false;
  }
  out = static_cast<LowOf<T>>(v);
  return true;
}

// The low-precision factors M of A (m x n; LU: m = n, M = P^T L U; QR: m >= n, M = Q R) and the
// solves with them, on v (m x cols, ld m; the n-row result in its top rows):
//   LU          v <- M^-1 v
//   QR          v <- R^-1 (Q^H v)(0:n)                  (the least-squares solve)
//   QR normal   v <- (R^H R)^-1 v(0:n)                  (the semi-normal equations' correction)
template <class T>
struct LowFactors {
  using L = LowOf<T>;
  const Settings& s;
  std::int64_t m = 0, n = 0;
  bool fp64 = false;  // the factors in the I/O precision T (D, Z: main = lowest)
  bool qr = false;
  blas::GemmMode mode = blas::GemmMode::fp32;
  // Traced as HBM by the factorization and solve kernels: the scratch stack (docs/cost-model.md
  // section 2), so their modeled dependencies do not depend on the process's malloc history.
  ScratchVector<L> lu32, tau32;
  ScratchVector<T> lu64, tau64;
  std::vector<int> piv;
  bool pivoting = true;
  ScratchVector<L> buf;  // T wider than L: the right-hand sides rounded to L
  TraceParts* trace = nullptr;
  double* host = nullptr;

  // working: apply M^-1 in the I/O precision (GMRES's preconditioned operator M^-1 A must be
  // applied at least in the working precision for GMRES-IR to converge at kappa u_low >> 1: Carson &
  // Higham 2018, Sec. 3; Amestoy et al., IMA J. Numer. Anal. 2024). For fp64 I/O that is dgetrs on
  // the fp32 factors widened exactly to fp64, on the host CPU (no engine computes in fp64; O(n^2)).
  void solve(T* v, std::int64_t cols, bool working = false, bool normal = false) {
    if constexpr (!std::is_same_v<T, L>) {
      if (working && !fp64 && lu64.empty()) {
        // The fp32 factors widened to fp64 for the working-precision solves (no engine holds fp64):
        // one round trip, one conversion per element.
        const auto count = static_cast<std::int64_t>(lu32.size());
        lu64.assign(lu32.begin(), lu32.end());
        record_host_step(*trace, HostStep{.name = "trnsolver.irs.widen_factors", .flops = static_cast<double>(count),
                                          .reads = {HostSpan(lu32.data(), count)}, .writes = {HostSpan(lu64.data(), count)}});
      }
      if (fp64 || working) return apply(lu64, tau64, v, cols, normal);
      // I/O <-> low conversions of the right-hand sides: no engine holds fp64, so each is a host
      // round trip (the data crosses the host link; one conversion per element).
      buf.resize(static_cast<std::size_t>(m * cols));
      const auto count = static_cast<std::int64_t>(buf.size());
      record_host_step(*trace, HostStep{.name = "trnsolver.irs.cast_rhs", .flops = static_cast<double>(count),
                                        .reads = {HostSpan(v, count)}, .writes = {HostSpan(buf.data(), count)}});
      for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<L>(v[i]);
      apply(lu32, tau32, buf.data(), cols, normal);
      const std::int64_t rows = qr ? n : m;
      record_host_step(*trace, HostStep{.name = "trnsolver.irs.widen_solution", .flops = static_cast<double>(rows * cols),
                                        .reads = {HostSpan(buf.data(), count)}, .writes = {HostSpan(v, count)}});
      for (std::int64_t c = 0; c < cols; ++c)
        for (std::int64_t i = 0; i < rows; ++i) v[i + c * m] = static_cast<T>(buf[static_cast<std::size_t>(i + c * m)]);
    } else {
      apply(lu32, tau32, v, cols, normal);
    }
  }
  int* pivots() { return pivoting ? piv.data() : nullptr; }

 private:
  template <class X>
  void apply(const ScratchVector<X>& f, const ScratchVector<X>& tau, X* v, std::int64_t cols, bool normal) {
    // The solve is a sub-call: its trace parts join this call's unjoined and unmodeled, its plan is
    // not printed (detail::SubCallParts; the same records in the same order as adding its joined
    // trace below, which stays for a routine that finishes its report otherwise).
    detail::SubCallParts sub(*trace);
    CallReport& r = sub.report();
    if (!qr) {
      getrs_of(s, n, cols, f.data(), n, pivots(), v, n, &r);
    } else if (!normal) {
      ormqr_h_of(s, mode, m, cols, n, f.data(), m, tau.data(), v, m, &r);
    } else {
      trsm_r_of(s, true, n, cols, f.data(), m, v, m, *trace);
    }
    if constexpr (!std::is_same_v<LowOf<X>, X>) *host += r.host_fp64_flops;
    trace->add(std::move(r.trace));
    if (qr) trsm_r_of(s, false, n, cols, f.data(), m, v, m, *trace);
  }
};

template <class T>
T dot(const T* a, const T* b, std::int64_t n) {
  T s = 0;
  for (std::int64_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

bool is_gmres(IrsRefinement r) {
  return r == IrsRefinement::classical_gmres || r == IrsRefinement::gmres || r == IrsRefinement::gmres_nopcond;
}

// One refinement call (irs_gesv: LU, m = n; irs_gels: QR, m >= n): the steps (factor, first solve,
// refinement sweeps with a classical or GMRES correction, fallback) as methods over the call's
// arguments and its running trace and host count.
template <class T>
class IrsSolve {
 public:
  IrsSolve(const Settings& s, const IrsOptions& o, bool qr, std::int64_t m, std::int64_t n, std::int64_t nrhs, T* A,
           std::int64_t lda, int* ipiv, const T* B, std::int64_t ldb, T* X, std::int64_t ldx, CallReport* report)
      : s_(s), o_(o), qr_(qr), m_(m), n_(n), nrhs_(nrhs), nn_(static_cast<std::size_t>(n)), A_(A), lda_(lda),
        ipiv_(ipiv), B_(B), ldb_(ldb), X_(X), ldx_(ldx), report_(report),
        f_{s, m, n, o.lu_fp64, qr, o.lu_mode, {}, {}, {}, {}, std::vector<int>(qr ? 0 : static_cast<std::size_t>(n)),
           o.pivoting, {}, &trace_, &host_} {}

  IrsResult run() {
    if (n_ == 0 || nrhs_ == 0) return finish();
    const double anorm = a_inf_norm();
    if (const int code = factor(); code != 0) return fallback(code);
    first_solve();
    if (o_.refinement == IrsRefinement::none) return finish();
    const double eps = std::numeric_limits<RealOf<T>>::epsilon();
    step_tol_ = o_.tol > 0 ? o_.tol : std::sqrt(static_cast<double>(n_)) * eps;
    cte_ = step_tol_ * anorm;
    precond_ = o_.refinement != IrsRefinement::gmres_nopcond;
    inner_tol_ = o_.refinement == IrsRefinement::classical_gmres ? o_.tol_inner : std::sqrt(static_cast<double>(n_)) * eps;
    return refine();
  }

 private:
  IrsResult finish() {
    detail::finish_fp64_report(report_, std::move(trace_), s_.target, host_);
    return res_;
  }
  void set_pivots(const std::vector<int>& p) {
    if (ipiv_ != nullptr && !qr_) std::copy(p.begin(), p.end(), ipiv_);
  }
  // X from the factorisation in the I/O precision (A is overwritten by its factors): LU getrf +
  // getrs (X = B when U is singular), or QR geqrf + Q^H B + R^-1 (X untouched when R is singular).
  IrsResult fallback(int code) {
    res_.niters = code;
    if (!o_.fallback) return finish();
    CallReport r1, r2;
    const auto mode = blas::GemmMode::fp32;
    if (!qr_) {
      move(B_, ldb_, X_, ldx_, n_, nrhs_);
      std::vector<int> p(nn_);
      res_.info = getrf_of(s_, mode, n_, A_, lda_, p.data(), &r1);
      if (res_.info == 0) getrs_of(s_, n_, nrhs_, A_, lda_, p.data(), X_, ldx_, &r2);
      set_pivots(p);
    } else {
      ScratchVector<T> tau(nn_), w(static_cast<std::size_t>(m_ * nrhs_));
      copy_b(w.data());
      geqrf_of(s_, mode, m_, n_, A_, lda_, tau.data(), &r1);
      res_.info = zero_diagonal(A_, lda_, n_);
      if (res_.info == 0) {
        ormqr_h_of(s_, mode, m_, nrhs_, n_, A_, lda_, tau.data(), w.data(), m_, &r2);
        trsm_r_of(s_, false, n_, nrhs_, A_, lda_, w.data(), m_, trace_);
        store_x(w.data());
      }
    }
    trace_.add(std::move(r1.trace));
    trace_.add(std::move(r2.trace));
    host_ += r1.host_fp64_flops + r2.host_fp64_flops;
    return finish();
  }
  // dst (rows x cols, ld ld_dst) = src (ld ld_src) by DMA (detail::copy_matrix).
  void move(const T* src, std::int64_t ld_src, T* dst, std::int64_t ld_dst, std::int64_t rows, std::int64_t cols) {
    detail::copy_matrix(s_, src, ld_src, dst, ld_dst, rows, cols, trace_);
  }
  // B into the compact m x nrhs buffer w; the top n rows of w into X (DMAs).
  void copy_b(T* w) { move(B_, ldb_, w, m_, m_, nrhs_); }
  void store_x(const T* w) { move(w, m_, X_, ldx_, n_, nrhs_); }
  // ||A||_inf (host, in double): one round trip, |a_ij| and a sum per element.
  double a_inf_norm() {
    record_host_step(trace_, HostStep{.name = "trnsolver.irs.anorm", .flops = 2.0 * static_cast<double>(m_ * n_),
                                      .reads = {HostSpan::matrix(A_, m_, n_, lda_)}});
    double anorm = 0;
    for (std::int64_t i = 0; i < m_; ++i) {
      double row = 0;
      for (std::int64_t j = 0; j < n_; ++j) row += magnitude(A_[i + j * lda_]);
      anorm = std::max(anorm, row);
    }
    return anorm;
  }
  // The low-precision factors M of A (the conversion to fp32 is a cast, like a DMA's). Returns 0, -2
  // (an element overflows fp32) or -3 (M is singular).
  int factor() {
    if (!o_.pivoting)
      for (std::size_t i = 0; i < nn_; ++i) f_.piv[i] = static_cast<int>(i + 1);  // reported as the identity
    const auto mn = static_cast<std::size_t>(m_ * n_);
    int lu_info = 0;
    // The factorisation is a sub-call, as LowFactors::apply's solves: its parts join trace_ where its
    // joined trace was added, unmodeled, without its plan (whose prediction replays the driver).
    detail::SubCallParts sub(trace_);
    CallReport& rl = sub.report();
    if (o_.lu_fp64) {
      f_.lu64.resize(mn);
      // A into the fp64 LU's working array (fp64 I/O: no engine holds fp64): a host round trip.
      record_host_step(trace_, HostStep{.name = "trnsolver.irs.copy_a64", .flops = static_cast<double>(m_ * n_),
                                        .reads = {HostSpan::matrix(A_, m_, n_, lda_)},
                                        .writes = {HostSpan(f_.lu64.data(), m_ * n_)}});
      for (std::int64_t j = 0; j < n_; ++j)
        for (std::int64_t i = 0; i < m_; ++i) f_.lu64[static_cast<std::size_t>(i + j * m_)] = A_[i + j * lda_];
      lu_info = factor_copy(f_.lu64, f_.tau64, &rl);
      host_ += rl.host_fp64_flops;
    } else {
      f_.lu32.resize(mn);
      // The cast of A to the factor's type, or same-type I/O's copy of A with its Inf/NaN test (one
      // comparison per element): a host round trip either way.
      record_host_step(trace_, HostStep{.name = std::is_same_v<T, LowOf<T>> ? "trnsolver.irs.copy_a" : "trnsolver.irs.cast_a",
                                        .flops = static_cast<double>(m_ * n_),
                                        .reads = {HostSpan::matrix(A_, m_, n_, lda_)},
                                        .writes = {HostSpan(f_.lu32.data(), m_ * n_)}});
      for (std::int64_t j = 0; j < n_; ++j)
        for (std::int64_t i = 0; i < m_; ++i)
          if (!to_low(A_[i + j * lda_], f_.lu32[static_cast<std::size_t>(i + j * m_)])) return -2;
      lu_info = factor_copy(f_.lu32, f_.tau32, &rl);
    }
    trace_.add(std::move(rl.trace));
    return lu_info != 0 ? -3 : 0;
  }
  // LU or QR of the compact copy f (m x n) in place; nonzero when the factor is singular.
  template <class X>
  int factor_copy(ScratchVector<X>& f, ScratchVector<X>& tau, CallReport* r) {
    if (!qr_) return getrf_of(s_, o_.lu_mode, n_, f.data(), n_, f_.pivots(), r);
    tau.resize(nn_);
    geqrf_of(s_, o_.lu_mode, m_, n_, f.data(), m_, tau.data(), r);
    return zero_diagonal(f.data(), m_, n_);
  }
  // x0 = M^-1 b (QR: the least-squares solution with the low-precision factors).
  void first_solve() {
    d_.resize(static_cast<std::size_t>(m_ * nrhs_));
    r_.resize(d_.size());
    copy_b(d_.data());
    f_.solve(d_.data(), nrhs_);
    store_x(d_.data());
    set_pivots(f_.piv);
  }
  // r = b - A x on TensorE; whether every column passes ||r||_inf <= cte ||x||_inf, and the
  // largest ||r||_inf (infinite when a residual is NaN).
  bool residual_converged(double& rmax) {
    copy_b(r_.data());
    matmul<T>(s_, false, m_, nrhs_, n_, T(-1), A_, lda_, X_, ldx_, T(1), r_.data(), m_, trace_);
    // ||x||_inf and ||r||_inf per column on the host: one round trip, |.| and a maximum per element.
    record_host_step(trace_, HostStep{.name = "trnsolver.irs.residual_norms",
                                      .flops = 2.0 * static_cast<double>((m_ + n_) * nrhs_),
                                      .reads = {HostSpan::matrix(X_, n_, nrhs_, ldx_), HostSpan(r_.data(), m_ * nrhs_)}});
    bool converged = true;
    rmax = 0;
    for (std::int64_t c = 0; c < nrhs_; ++c) {
      double rn = 0;
      for (std::int64_t i = 0; i < m_; ++i) {
        const double ri = magnitude(r_[static_cast<std::size_t>(i + c * m_)]);
        rn = std::isnan(ri) ? std::numeric_limits<double>::infinity() : std::max(rn, ri);
      }
      converged = converged && rn <= x_norm(c) * cte_;
      rmax = std::max(rmax, rn);
    }
    return converged;
  }
  double x_norm(std::int64_t c) const {
    double xn = 0;
    for (std::int64_t i = 0; i < n_; ++i) xn = std::max(xn, magnitude(X_[i + c * ldx_]));
    return xn;
  }
  // The correction d = M^-1 r: LU the low-precision solve; QR the corrected semi-normal equations
  // (Bjorck 1987): d = (R^H R)^-1 A^H r with A^H r in the I/O precision on TensorE, whose fixed
  // point A^H (b - A x) = 0 is the least-squares solution whatever the residual's size.
  void correct() {
    if (!qr_) {
      move(r_.data(), m_, d_.data(), m_, m_, nrhs_);  // d = r (DMAs), then solved in place
      return f_.solve(d_.data(), nrhs_);
    }
    std::fill(d_.begin(), d_.end(), T(0));
    matmul<T>(s_, true, n_, nrhs_, m_, T(1), A_, lda_, r_.data(), m_, T(0), d_.data(), m_, trace_);
    f_.solve(d_.data(), nrhs_, false, true);
  }
  // x += d on the host. QR: whether the steps have converged (Demmel et al., "Error bounds from
  // extra-precise iterative refinement", ACM TOMS 32(2), 2006): the largest ||d||_inf / ||x||_inf
  // over the columns is at most tol, or the steps stagnate at the noise floor of the I/O-precision
  // residual (the ratio fell by less than 10% since the previous step while at most sqrt(tol); Demmel et al.
  // stop at 50%, which ends bf16-factor runs converging at rate ~0.5 early).
  bool update() {
    const HostSpan xs = HostSpan::matrix(X_, n_, nrhs_, ldx_);
    const double extra = qr_ ? 3.0 * static_cast<double>(n_ * nrhs_) : 0.0;
    record_host_step(trace_, HostStep{.name = "trnsolver.irs.update", .flops = static_cast<double>(n_ * nrhs_) + extra,
                                      .reads = {xs, HostSpan(d_.data(), m_ * nrhs_)}, .writes = {xs}});
    double ratio = 0;
    for (std::int64_t c = 0; c < nrhs_; ++c) {
      double dn = 0;
      for (std::int64_t i = 0; i < n_; ++i) {
        const T di = d_[static_cast<std::size_t>(i + c * m_)];
        if (qr_) dn = std::isnan(magnitude(di)) ? std::numeric_limits<double>::infinity() : std::max(dn, magnitude(di));
        X_[i + c * ldx_] += di;
      }
      if (qr_) ratio = std::max(ratio, dn / x_norm(c));
    }
    host_ += static_cast<double>(n_ * nrhs_) + extra;
    const bool stagnates = ratio > 0.9 * last_ratio_ && ratio <= std::sqrt(step_tol_);
    last_ratio_ = ratio;
    return qr_ && (ratio <= step_tol_ || stagnates);
  }
  // Refinement sweeps until the test passes (classical: one more correction after it first
  // passes; QR also stops after a small step), max_iters is spent or the residual is not finite
  // (then the fallback).
  IrsResult refine() {
    int total = 0;
    bool polished = false;
    const bool classical = o_.refinement == IrsRefinement::classical;
    for (;;) {
      double rmax = 0;
      const bool converged = residual_converged(rmax);
      res_.residual_history.emplace_back(total, rmax);
      if (converged && (!classical || polished)) {
        res_.niters = total;
        return finish();
      }
      if (total >= o_.max_iters || !std::isfinite(rmax)) break;
      // Classical refinement: after the test first passes, one more correction. The test bounds the
      // backward error by sqrt(n) eps; the extra step brings the forward error to getrs's level
      // (docs/trnsolver.md, "Iterative refinement").
      if (converged) polished = true;
      if (classical) {
        correct();
        total += 1;
      } else if constexpr (!kComplex<T>) {
        total += gmres(r_.data(), d_.data(), o_.max_iters - total);
      }
      const bool small_step = update();
      ++res_.outer_niters;
      if (small_step) {
        res_.niters = total;
        return finish();
      }
    }
    return fallback(-o_.max_iters);
  }

  // GMRES on M^-1 A d = M^-1 rhs (one right-hand side), at most `budget` iterations; d = V y.
  // Returns the iterations run (>= 1).
  int gmres(const T* rhs, T* dd, int budget) {
    const int m = std::max(1, std::min(o_.max_iters_inner, budget));
    Arnoldi a(nn_, m);
    move(rhs, n_, a.v(0), n_, n_, 1);
    if (precond_) f_.solve(a.v(0), 1, true);
    // ||v0||_2 and v0 / ||v0||: one round trip (2n + 1 + n flops).
    record_host_step(trace_, HostStep{.name = "trnsolver.irs.gmres_start", .flops = 3.0 * static_cast<double>(n_) + 1.0,
                                      .reads = {HostSpan(a.v(0), n_)}, .writes = {HostSpan(a.v(0), n_)}});
    const T beta = std::sqrt(dot(a.v(0), a.v(0), n_));
    std::fill(dd, dd + n_, T(0));
    if (!(beta > 0) || !std::isfinite(static_cast<double>(beta))) return 1;
    for (std::int64_t i = 0; i < n_; ++i) a.v(0)[i] /= beta;
    a.g[0] = beta;
    int k = 0;
    while (k < m) {
      T* w = a.v(k + 1);
      matmul<T>(s_, false, n_, 1, n_, T(1), A_, lda_, a.v(k), n_, T(0), w, n_, trace_);
      if (precond_) f_.solve(w, 1, true);
      // The Arnoldi step on the host, one round trip: modified Gram-Schmidt against v(0..k)
      // (4n (k + 1) + 2n + 1), the k previous Givens rotations and the new one (6k + 10), w / h (n).
      record_host_step(trace_, HostStep{.name = "trnsolver.irs.arnoldi",
                                        .flops = 4.0 * static_cast<double>(n_) * (k + 1) + 3.0 * static_cast<double>(n_) +
                                                 6.0 * k + 11.0,
                                        .reads = {HostSpan(a.V.data(), static_cast<std::int64_t>(k + 2) * n_)},
                                        .writes = {HostSpan(w, n_)}});
      const T hk1 = orthogonalize(a, k, w);
      a.rotate(k, hk1);
      ++k;
      if (!(std::fabs(static_cast<double>(a.g[k])) > inner_tol_ * static_cast<double>(beta)) || !(hk1 > 0)) break;
      for (std::int64_t i = 0; i < n_; ++i) w[i] /= hk1;
    }
    // d = V(:, 0:k) y with H y = g: one round trip (k^2 for the back substitution, 2nk for V y).
    record_host_step(trace_, HostStep{.name = "trnsolver.irs.gmres_solution",
                                      .flops = static_cast<double>(k) * k + 2.0 * static_cast<double>(n_) * k,
                                      .reads = {HostSpan(a.V.data(), static_cast<std::int64_t>(k) * n_)},
                                      .writes = {HostSpan(dd, n_)}});
    a.add_solution(k, dd, n_);
    host_ += 2.0 * static_cast<double>(n_) * k + static_cast<double>(k) * k;
    return k;
  }

  // GMRES's Krylov basis V (n x (m+1)), Hessenberg matrix H ((m+1) x m, triangularised by the
  // Givens rotations cs / sn as it grows) and rotated right-hand side g.
  struct Arnoldi {
    std::size_t nn;
    int m;
    ScratchVector<T> V;  // traced by the matrix-vector products (scratch stack)
    std::vector<T> H, cs, sn, g;
    Arnoldi(std::size_t nn_, int m_)
        : nn(nn_), m(m_), V(nn_ * static_cast<std::size_t>(m_ + 1)), H(static_cast<std::size_t>((m_ + 1) * m_), T(0)),
          cs(static_cast<std::size_t>(m_)), sn(static_cast<std::size_t>(m_)), g(static_cast<std::size_t>(m_ + 1), T(0)) {}
    T* v(int j) { return V.data() + static_cast<std::size_t>(j) * nn; }
    T& h(int i, int j) { return H[static_cast<std::size_t>(i + j * (m + 1))]; }
    // Applies the previous rotations to column k, then the new one that zeroes h(k+1, k) = hk1.
    void rotate(int k, T hk1) {
      h(k + 1, k) = hk1;
      for (int j = 0; j < k; ++j) {  // previous Givens rotations on column k
        const T t = cs[j] * h(j, k) + sn[j] * h(j + 1, k);
        h(j + 1, k) = -sn[j] * h(j, k) + cs[j] * h(j + 1, k);
        h(j, k) = t;
      }
      const T den = std::hypot(h(k, k), hk1);
      cs[k] = den > 0 ? h(k, k) / den : T(1);
      sn[k] = den > 0 ? hk1 / den : T(0);
      h(k, k) = den;
      h(k + 1, k) = 0;
      g[k + 1] = -sn[k] * g[k];
      g[k] = cs[k] * g[k];
    }
    // dd += V(:, 0:k) y with H(0:k, 0:k) y = g(0:k) (back substitution).
    void add_solution(int k, T* dd, std::int64_t n) {
      std::vector<T> y(g.begin(), g.begin() + k);
      for (int i = k - 1; i >= 0; --i) {
        for (int j = i + 1; j < k; ++j) y[i] -= h(i, j) * y[j];
        y[i] = h(i, i) != T(0) ? y[i] / h(i, i) : T(0);
      }
      for (int j = 0; j < k; ++j)
        for (std::int64_t i = 0; i < n; ++i) dd[i] += y[j] * v(j)[i];
    }
  };

  // Modified Gram-Schmidt of w against v(0 .. k) into column k of H; returns ||w||_2.
  T orthogonalize(Arnoldi& a, int k, T* w) {
    for (int j = 0; j <= k; ++j) {
      a.h(j, k) = dot(a.v(j), w, n_);
      for (std::int64_t i = 0; i < n_; ++i) w[i] -= a.h(j, k) * a.v(j)[i];
    }
    const T hk1 = std::sqrt(dot(w, w, n_));
    host_ += 4.0 * static_cast<double>(n_) * (k + 2);
    return hk1;
  }

  const Settings& s_;
  const IrsOptions& o_;
  const bool qr_;
  const std::int64_t m_, n_, nrhs_;
  const std::size_t nn_;
  T* A_;
  const std::int64_t lda_;
  int* ipiv_;
  const T* B_;
  const std::int64_t ldb_;
  T* X_;
  const std::int64_t ldx_;
  CallReport* report_;
  IrsResult res_;
  TraceParts trace_;
  double host_ = 0;
  LowFactors<T> f_;
  ScratchVector<T> d_, r_;  // traced (scratch stack, as the factors)
  double cte_ = 0, inner_tol_ = 0, step_tol_ = 0;
  double last_ratio_ = std::numeric_limits<double>::infinity();
  bool precond_ = true;
};

}  // namespace

template <class T>
IrsResult irs_gesv(const Settings& s, const IrsOptions& o, std::int64_t n, std::int64_t nrhs, T* A, std::int64_t lda,
                   int* ipiv, const T* B, std::int64_t ldb, T* X, std::int64_t ldx, CallReport* report) {
  constexpr bool wide = std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>;
  if (n < 0 || nrhs < 0 || lda < std::max<std::int64_t>(1, n) || ldb < std::max<std::int64_t>(1, n) ||
      ldx < std::max<std::int64_t>(1, n) || (n > 0 && A == nullptr) ||
      (n > 0 && nrhs > 0 && (B == nullptr || X == nullptr)) || o.max_iters < 1 || o.max_iters_inner < 1 ||
      (is_gmres(o.refinement) && (nrhs > 1 || kComplex<T>)) || (o.lu_fp64 && !wide))
    throw UsageError("trnsolver", "argument", "irs_gesv: invalid argument");
  if (report != nullptr) *report = CallReport{};
  return IrsSolve<T>(s, o, false, n, n, nrhs, A, lda, ipiv, B, ldb, X, ldx, report).run();
}

template <class T>
IrsResult irs_gels(const Settings& s, const IrsOptions& o, std::int64_t m, std::int64_t n, std::int64_t nrhs, T* A,
                   std::int64_t lda, const T* B, std::int64_t ldb, T* X, std::int64_t ldx, CallReport* report) {
  constexpr bool wide = std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>;
  if (m < 0 || n < 0 || n > m || nrhs < 0 || lda < std::max<std::int64_t>(1, m) || ldb < std::max<std::int64_t>(1, m) ||
      ldx < std::max<std::int64_t>(1, n) || (n > 0 && A == nullptr) ||
      (n > 0 && nrhs > 0 && (B == nullptr || X == nullptr)) || o.max_iters < 1 || is_gmres(o.refinement) ||
      (o.lu_fp64 && !wide))
    throw UsageError("trnsolver", "argument", "irs_gels: invalid argument");
  if (report != nullptr) *report = CallReport{};
  return IrsSolve<T>(s, o, true, m, n, nrhs, A, lda, nullptr, B, ldb, X, ldx, report).run();
}

#define TRNSOLVER_IRS_INSTANTIATE(T)                                                                           \
  template IrsResult irs_gesv<T>(const Settings&, const IrsOptions&, std::int64_t, std::int64_t, T*, std::int64_t, \
                                 int*, const T*, std::int64_t, T*, std::int64_t, CallReport*);                  \
  template IrsResult irs_gels<T>(const Settings&, const IrsOptions&, std::int64_t, std::int64_t, std::int64_t, T*, \
                                 std::int64_t, const T*, std::int64_t, T*, std::int64_t, CallReport*);
TRNSOLVER_IRS_INSTANTIATE(double)
TRNSOLVER_IRS_INSTANTIATE(float)
TRNSOLVER_IRS_INSTANTIATE(std::complex<double>)
TRNSOLVER_IRS_INSTANTIATE(std::complex<float>)
#undef TRNSOLVER_IRS_INSTANTIATE

namespace {

template <class T>
int simple_gesv(const Settings& s, blas::GemmMode lu_mode, std::int64_t n, std::int64_t nrhs, T* A, std::int64_t lda,
                int* ipiv, const T* B, std::int64_t ldb, T* X, std::int64_t ldx, int* iter, int max_iter,
                CallReport* report) {
  if (iter == nullptr || (n > 0 && ipiv == nullptr)) throw UsageError("trnsolver", "argument", "gesv: iter, ipiv");
  IrsOptions o;
  o.lu_mode = lu_mode;
  o.max_iters = max_iter;
  const IrsResult r = irs_gesv<T>(s, o, n, nrhs, A, lda, ipiv, B, ldb, X, ldx, report);
  *iter = r.niters;
  return r.info;
}

}  // namespace

int dxgesv(const Settings& s, trn::blas::GemmMode lu_mode, std::int64_t n, std::int64_t nrhs, double* A,
           std::int64_t lda, int* ipiv, const double* B, std::int64_t ldb, double* X, std::int64_t ldx, int* iter,
           int max_iter, CallReport* report) {
  return simple_gesv(s, lu_mode, n, nrhs, A, lda, ipiv, B, ldb, X, ldx, iter, max_iter, report);
}

int sxgesv(const Settings& s, trn::blas::GemmMode lu_mode, std::int64_t n, std::int64_t nrhs, float* A,
           std::int64_t lda, int* ipiv, const float* B, std::int64_t ldb, float* X, std::int64_t ldx, int* iter,
           int max_iter, CallReport* report) {
  return simple_gesv(s, lu_mode, n, nrhs, A, lda, ipiv, B, ldb, X, ldx, iter, max_iter, report);
}

}  // namespace trn::solver
