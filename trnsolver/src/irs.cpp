// Mixed-precision iterative refinement (cuSOLVER's IRS: <T1><T2>gesv and IRSXgesv).
//
// Factorization: A rounded to fp32, LU with partial pivoting by sgetrf whose trailing updates take
// `lu_mode` inputs on TensorE (fp32 PSUM, panels fp32), or dgetrf for an fp64 "lowest precision".
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
#include <limits>
#include <type_traits>

#include "syevj_internal.hpp"
#include "trn/core/host_step.hpp"

namespace trn::solver {
namespace {

// C (n x cols, ldc) = alpha A X + beta C in the I/O precision on TensorE.
template <class T>
void matmul(const Settings& s, std::int64_t n, std::int64_t cols, T alpha, const T* A, std::int64_t lda, const T* X,
            std::int64_t ldx, T beta, T* C, std::int64_t ldc, TraceParts& trace) {
  blas::CallReport br;
  if constexpr (std::is_same_v<T, double>) {
    blas::dgemm(detail::step_blas_settings(s), blas::Op::N, blas::Op::N, n, cols, n, alpha, A, lda, X, ldx, beta, C, ldc, &br);
  } else {
    blas::gemm(detail::step_blas_settings(s), blas::GemmMode::fp32, blas::Op::N, blas::Op::N, n, cols, n, alpha,
               {A, DType::f32, lda}, {X, DType::f32, ldx}, beta, {C, DType::f32, ldc}, &br);
  }
  trace.add(std::move(br.trace));
}

// The low-precision LU factors M = P^T L U and their solve v <- M^-1 v (v compact n x cols).
template <class T>
struct LowFactors {
  const Settings& s;
  std::int64_t n = 0;
  bool fp64 = false;
  std::vector<float> lu32;
  std::vector<double> lu64;
  std::vector<int> piv;
  bool pivoting = true;
  std::vector<float> buf;  // T = double with fp32 factors: the right-hand side rounded to fp32
  TraceParts* trace = nullptr;
  double* host = nullptr;

  // working: apply M^-1 in the I/O precision (GMRES's preconditioned operator M^-1 A must be
  // applied at least in the working precision for GMRES-IR to converge at kappa u_low >> 1: Carson &
  // Higham 2018, Sec. 3; Amestoy et al., IMA J. Numer. Anal. 2024). For fp64 I/O that is dgetrs on
  // the fp32 factors widened exactly to fp64, on the host CPU (no engine computes in fp64; O(n^2)).
  void solve(T* v, std::int64_t cols, bool working = false) {
    CallReport r;
    if constexpr (std::is_same_v<T, double>) {
      if (working && !fp64 && lu64.empty()) lu64.assign(lu32.begin(), lu32.end());
      if (fp64 || working) {
        dgetrs(s, false, n, cols, lu64.data(), n, pivots(), v, n, &r);
        *host += r.host_fp64_flops;
        trace->add(std::move(r.trace));
        return;
      }
      // fp64 <-> fp32 conversions of the right-hand sides: no engine holds fp64, so each is a host
      // round trip (the data crosses the host link; one conversion per element).
      buf.resize(static_cast<std::size_t>(n * cols));
      const auto count = static_cast<std::int64_t>(buf.size());
      record_host_step(*trace, HostStep{.name = "trnsolver.irs.cast_rhs", .flops = static_cast<double>(count),
                                        .reads = {HostSpan(v, count)}, .writes = {HostSpan(buf.data(), count)}});
      for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<float>(v[i]);
      sgetrs(s, false, n, cols, lu32.data(), n, pivots(), buf.data(), n, &r);
      trace->add(std::move(r.trace));
      record_host_step(*trace, HostStep{.name = "trnsolver.irs.widen_solution", .flops = static_cast<double>(count),
                                        .reads = {HostSpan(buf.data(), count)}, .writes = {HostSpan(v, count)}});
      for (std::size_t i = 0; i < buf.size(); ++i) v[i] = static_cast<double>(buf[i]);
      return;
    } else {
      sgetrs(s, false, n, cols, lu32.data(), n, pivots(), v, n, &r);
    }
    trace->add(std::move(r.trace));
  }
  int* pivots() { return pivoting ? piv.data() : nullptr; }
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

// One irs_gesv call: the steps (factor, first solve, refinement sweeps with a classical or GMRES
// correction, fallback) as methods over the call's arguments and its running trace and host count.
template <class T>
class IrsSolve {
 public:
  IrsSolve(const Settings& s, const IrsOptions& o, std::int64_t n, std::int64_t nrhs, T* A, std::int64_t lda, int* ipiv,
           const T* B, std::int64_t ldb, T* X, std::int64_t ldx, CallReport* report)
      : s_(s), o_(o), n_(n), nrhs_(nrhs), nn_(static_cast<std::size_t>(n)), A_(A), lda_(lda), ipiv_(ipiv), B_(B),
        ldb_(ldb), X_(X), ldx_(ldx), report_(report),
        f_{s, n, o.lu_fp64, {}, {}, std::vector<int>(static_cast<std::size_t>(n)), o.pivoting, {}, &trace_, &host_} {}

  IrsResult run() {
    if (n_ == 0 || nrhs_ == 0) return finish();
    const double anorm = a_inf_norm();
    if (const int code = factor(); code != 0) return fallback(code);
    first_solve();
    if (o_.refinement == IrsRefinement::none) return finish();
    const double eps = std::numeric_limits<T>::epsilon();
    cte_ = (o_.tol > 0 ? o_.tol : std::sqrt(static_cast<double>(n_)) * eps) * anorm;
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
    if (ipiv_ != nullptr) std::copy(p.begin(), p.end(), ipiv_);
  }
  // X from getrf + getrs in the I/O precision (A is overwritten by its factors).
  IrsResult fallback(int code) {
    res_.niters = code;
    if (!o_.fallback) return finish();
    for (std::int64_t c = 0; c < nrhs_; ++c)
      for (std::int64_t i = 0; i < n_; ++i) X_[i + c * ldx_] = B_[i + c * ldb_];
    std::vector<int> p(nn_);
    CallReport r1, r2;
    if constexpr (std::is_same_v<T, double>) {
      res_.info = dgetrf(s_, n_, n_, A_, lda_, p.data(), &r1);
      if (res_.info == 0) dgetrs(s_, false, n_, nrhs_, A_, lda_, p.data(), X_, ldx_, &r2);
    } else {
      res_.info = sgetrf(s_, n_, n_, A_, lda_, p.data(), &r1);
      if (res_.info == 0) sgetrs(s_, false, n_, nrhs_, A_, lda_, p.data(), X_, ldx_, &r2);
    }
    trace_.add(std::move(r1.trace));
    trace_.add(std::move(r2.trace));
    host_ += r1.host_fp64_flops + r2.host_fp64_flops;
    set_pivots(p);
    return finish();
  }
  // ||A||_inf (host, in double): one round trip, |a_ij| and a sum per element.
  double a_inf_norm() {
    record_host_step(trace_, HostStep{.name = "trnsolver.irs.anorm", .flops = 2.0 * static_cast<double>(n_ * n_),
                                      .reads = {HostSpan::matrix(A_, n_, n_, lda_)}});
    double anorm = 0;
    for (std::int64_t i = 0; i < n_; ++i) {
      double row = 0;
      for (std::int64_t j = 0; j < n_; ++j) row += std::fabs(static_cast<double>(A_[i + j * lda_]));
      anorm = std::max(anorm, row);
    }
    return anorm;
  }
  // The low-precision LU M of A (the conversion to fp32 is a cast, like a DMA's). Returns 0, -2
  // (an element overflows fp32) or -3 (M is singular).
  int factor() {
    if (!o_.pivoting)
      for (std::size_t i = 0; i < nn_; ++i) f_.piv[i] = static_cast<int>(i + 1);  // reported as the identity
    int lu_info = 0;
    CallReport rl;
    if (o_.lu_fp64) {
      f_.lu64.resize(nn_ * nn_);
      // A into the fp64 LU's working array (fp64 I/O: no engine holds fp64): a host round trip.
      record_host_step(trace_, HostStep{.name = "trnsolver.irs.copy_a64", .flops = static_cast<double>(n_ * n_),
                                        .reads = {HostSpan::matrix(A_, n_, n_, lda_)},
                                        .writes = {HostSpan(f_.lu64.data(), n_ * n_)}});
      for (std::int64_t j = 0; j < n_; ++j)
        for (std::int64_t i = 0; i < n_; ++i)
          f_.lu64[static_cast<std::size_t>(i + j * n_)] = static_cast<double>(A_[i + j * lda_]);
      lu_info = dgetrf(s_, n_, n_, f_.lu64.data(), n_, f_.pivots(), &rl);
      host_ += rl.host_fp64_flops;
    } else {
      f_.lu32.resize(nn_ * nn_);
      // The fp64 -> fp32 cast of A, or float I/O's copy of A with its Inf/NaN test (one comparison per
      // element): a host round trip either way.
      record_host_step(trace_, HostStep{.name = std::is_same_v<T, double> ? "trnsolver.irs.cast_a" : "trnsolver.irs.copy_a",
                                        .flops = static_cast<double>(n_ * n_),
                                        .reads = {HostSpan::matrix(A_, n_, n_, lda_)},
                                        .writes = {HostSpan(f_.lu32.data(), n_ * n_)}});
      for (std::int64_t j = 0; j < n_; ++j)
        for (std::int64_t i = 0; i < n_; ++i) {
          const double v = static_cast<double>(A_[i + j * lda_]);
          if (!std::isfinite(v) || std::fabs(v) > static_cast<double>(std::numeric_limits<float>::max())) return -2;
          f_.lu32[static_cast<std::size_t>(i + j * n_)] = static_cast<float>(v);
        }
      lu_info = detail::sgetrf_mode(s_, o_.lu_mode, n_, n_, f_.lu32.data(), n_, f_.pivots(), &rl);
    }
    trace_.add(std::move(rl.trace));
    return lu_info != 0 ? -3 : 0;
  }
  // x0 = M^-1 b.
  void first_solve() {
    d_.resize(nn_ * static_cast<std::size_t>(nrhs_));
    r_.resize(d_.size());
    for (std::int64_t c = 0; c < nrhs_; ++c)
      for (std::int64_t i = 0; i < n_; ++i) d_[static_cast<std::size_t>(i + c * n_)] = B_[i + c * ldb_];
    f_.solve(d_.data(), nrhs_);
    for (std::int64_t c = 0; c < nrhs_; ++c)
      for (std::int64_t i = 0; i < n_; ++i) X_[i + c * ldx_] = d_[static_cast<std::size_t>(i + c * n_)];
    set_pivots(f_.piv);
  }
  // r = b - A x on TensorE; whether every column passes ||r||_inf <= cte ||x||_inf, and the
  // largest ||r||_inf (infinite when a residual is NaN).
  bool residual_converged(double& rmax) {
    for (std::int64_t c = 0; c < nrhs_; ++c)
      for (std::int64_t i = 0; i < n_; ++i) r_[static_cast<std::size_t>(i + c * n_)] = B_[i + c * ldb_];
    matmul<T>(s_, n_, nrhs_, T(-1), A_, lda_, X_, ldx_, T(1), r_.data(), n_, trace_);
    // ||x||_inf and ||r||_inf per column on the host: one round trip, |.| and a maximum per element.
    record_host_step(trace_, HostStep{.name = "trnsolver.irs.residual_norms",
                                      .flops = 4.0 * static_cast<double>(n_ * nrhs_),
                                      .reads = {HostSpan::matrix(X_, n_, nrhs_, ldx_), HostSpan(r_.data(), n_ * nrhs_)}});
    bool converged = true;
    rmax = 0;
    for (std::int64_t c = 0; c < nrhs_; ++c) {
      double xn = 0, rn = 0;
      for (std::int64_t i = 0; i < n_; ++i) {
        xn = std::max(xn, std::fabs(static_cast<double>(X_[i + c * ldx_])));
        const double ri = std::fabs(static_cast<double>(r_[static_cast<std::size_t>(i + c * n_)]));
        rn = std::isnan(ri) ? std::numeric_limits<double>::infinity() : std::max(rn, ri);
      }
      converged = converged && rn <= xn * cte_;
      rmax = std::max(rmax, rn);
    }
    return converged;
  }
  // Refinement sweeps until the test passes (classical: one more correction after it first
  // passes), max_iters is spent or the residual is not finite (then the fallback).
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
        d_ = r_;
        f_.solve(d_.data(), nrhs_);
        total += 1;
      } else {
        total += gmres(r_.data(), d_.data(), o_.max_iters - total);
      }
      const HostSpan xs = HostSpan::matrix(X_, n_, nrhs_, ldx_);
      record_host_step(trace_, HostStep{.name = "trnsolver.irs.update", .flops = static_cast<double>(n_ * nrhs_),
                                        .reads = {xs, HostSpan(d_.data(), n_ * nrhs_)}, .writes = {xs}});
      for (std::int64_t c = 0; c < nrhs_; ++c)
        for (std::int64_t i = 0; i < n_; ++i) X_[i + c * ldx_] += d_[static_cast<std::size_t>(i + c * n_)];
      host_ += static_cast<double>(n_ * nrhs_);
      ++res_.outer_niters;
    }
    return fallback(-o_.max_iters);
  }

  // GMRES on M^-1 A d = M^-1 rhs (one right-hand side), at most `budget` iterations; d = V y.
  // Returns the iterations run (>= 1).
  int gmres(const T* rhs, T* dd, int budget) {
    const int m = std::max(1, std::min(o_.max_iters_inner, budget));
    Arnoldi a(nn_, m);
    std::copy(rhs, rhs + n_, a.v(0));
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
      matmul<T>(s_, n_, 1, T(1), A_, lda_, a.v(k), n_, T(0), w, n_, trace_);
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
    std::vector<T> V, H, cs, sn, g;
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
  const std::int64_t n_, nrhs_;
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
  std::vector<T> d_, r_;
  double cte_ = 0, inner_tol_ = 0;
  bool precond_ = true;
};

}  // namespace

template <class T>
IrsResult irs_gesv(const Settings& s, const IrsOptions& o, std::int64_t n, std::int64_t nrhs, T* A, std::int64_t lda,
                   int* ipiv, const T* B, std::int64_t ldb, T* X, std::int64_t ldx, CallReport* report) {
  if (n < 0 || nrhs < 0 || lda < std::max<std::int64_t>(1, n) || ldb < std::max<std::int64_t>(1, n) ||
      ldx < std::max<std::int64_t>(1, n) || (n > 0 && A == nullptr) ||
      (n > 0 && nrhs > 0 && (B == nullptr || X == nullptr)) || o.max_iters < 1 || o.max_iters_inner < 1 ||
      (is_gmres(o.refinement) && nrhs > 1) || (o.lu_fp64 && !std::is_same_v<T, double>))
    throw UsageError("trnsolver", "argument", "irs_gesv: invalid argument");
  if (report != nullptr) *report = CallReport{};
  return IrsSolve<T>(s, o, n, nrhs, A, lda, ipiv, B, ldb, X, ldx, report).run();
}

template IrsResult irs_gesv<double>(const Settings&, const IrsOptions&, std::int64_t, std::int64_t, double*,
                                    std::int64_t, int*, const double*, std::int64_t, double*, std::int64_t,
                                    CallReport*);
template IrsResult irs_gesv<float>(const Settings&, const IrsOptions&, std::int64_t, std::int64_t, float*,
                                   std::int64_t, int*, const float*, std::int64_t, float*, std::int64_t, CallReport*);

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
