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
// Convergence (cuSOLVER's test, BWDMAX = 1): ||r||_inf <= tol ||A||_inf ||x||_inf per column, tol =
// sqrt(n) eps of the I/O type unless set.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "syevj_internal.hpp"

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
      buf.resize(static_cast<std::size_t>(n * cols));
      for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<float>(v[i]);
      sgetrs(s, false, n, cols, lu32.data(), n, pivots(), buf.data(), n, &r);
      for (std::size_t i = 0; i < buf.size(); ++i) v[i] = static_cast<double>(buf[i]);
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
  IrsResult res;
  TraceParts trace;
  double host = 0;
  auto finish = [&] {
    if (report != nullptr) {
      Trace all = std::move(trace).join();
      report->profile = model_profile(all, s.target);
      report->trace = std::move(all);
      report->host_fp64_flops = host;
    }
    return res;
  };
  if (n == 0 || nrhs == 0) return finish();
  const auto nn = static_cast<std::size_t>(n);
  auto set_pivots = [&](const std::vector<int>& p) {
    if (ipiv != nullptr) std::copy(p.begin(), p.end(), ipiv);
  };
  // X from getrf + getrs in the I/O precision (A is overwritten by its factors).
  auto fallback = [&](int code) {
    res.niters = code;
    if (!o.fallback) return finish();
    for (std::int64_t c = 0; c < nrhs; ++c)
      for (std::int64_t i = 0; i < n; ++i) X[i + c * ldx] = B[i + c * ldb];
    std::vector<int> p(nn);
    CallReport r1, r2;
    if constexpr (std::is_same_v<T, double>) {
      res.info = dgetrf(s, n, n, A, lda, p.data(), &r1);
      if (res.info == 0) dgetrs(s, false, n, nrhs, A, lda, p.data(), X, ldx, &r2);
    } else {
      res.info = sgetrf(s, n, n, A, lda, p.data(), &r1);
      if (res.info == 0) sgetrs(s, false, n, nrhs, A, lda, p.data(), X, ldx, &r2);
    }
    trace.add(std::move(r1.trace));
    trace.add(std::move(r2.trace));
    host += r1.host_fp64_flops + r2.host_fp64_flops;
    set_pivots(p);
    return finish();
  };
  // ||A||_inf (host, in double) and the conversion to fp32 (a cast, like a DMA's); overflow -> -2.
  double anorm = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    double row = 0;
    for (std::int64_t j = 0; j < n; ++j) row += std::fabs(static_cast<double>(A[i + j * lda]));
    anorm = std::max(anorm, row);
  }
  LowFactors<T> f{s, n, o.lu_fp64, {}, {}, std::vector<int>(nn), o.pivoting, {}, &trace, &host};
  if (!o.pivoting)
    for (std::size_t i = 0; i < nn; ++i) f.piv[i] = static_cast<int>(i + 1);  // reported as the identity
  int lu_info = 0;
  CallReport rl;
  if (o.lu_fp64) {
    f.lu64.resize(nn * nn);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) f.lu64[static_cast<std::size_t>(i + j * n)] = static_cast<double>(A[i + j * lda]);
    lu_info = dgetrf(s, n, n, f.lu64.data(), n, f.pivots(), &rl);
    host += rl.host_fp64_flops;
  } else {
    f.lu32.resize(nn * nn);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) {
        const double v = static_cast<double>(A[i + j * lda]);
        if (!std::isfinite(v) || std::fabs(v) > static_cast<double>(std::numeric_limits<float>::max()))
          return fallback(-2);
        f.lu32[static_cast<std::size_t>(i + j * n)] = static_cast<float>(v);
      }
    lu_info = detail::sgetrf_mode(s, o.lu_mode, n, n, f.lu32.data(), n, f.pivots(), &rl);
  }
  trace.add(std::move(rl.trace));
  if (lu_info != 0) return fallback(-3);

  // x0 = M^-1 b.
  std::vector<T> d(nn * static_cast<std::size_t>(nrhs)), r(d.size());
  for (std::int64_t c = 0; c < nrhs; ++c)
    for (std::int64_t i = 0; i < n; ++i) d[static_cast<std::size_t>(i + c * n)] = B[i + c * ldb];
  f.solve(d.data(), nrhs);
  for (std::int64_t c = 0; c < nrhs; ++c)
    for (std::int64_t i = 0; i < n; ++i) X[i + c * ldx] = d[static_cast<std::size_t>(i + c * n)];
  set_pivots(f.piv);
  if (o.refinement == IrsRefinement::none) return finish();

  const double eps = std::numeric_limits<T>::epsilon();
  const double cte = (o.tol > 0 ? o.tol : std::sqrt(static_cast<double>(n)) * eps) * anorm;
  const bool precond = o.refinement != IrsRefinement::gmres_nopcond;
  const double inner_tol = o.refinement == IrsRefinement::classical_gmres ? o.tol_inner
                                                                          : std::sqrt(static_cast<double>(n)) * eps;

  // GMRES on M^-1 A d = M^-1 rhs (one right-hand side), at most `budget` iterations; d = V y.
  // Returns the iterations run (>= 1).
  const auto ns = static_cast<std::int64_t>(n);
  auto gmres = [&](const T* rhs, T* dd, int budget) {
    const int m = std::max(1, std::min(o.max_iters_inner, budget));
    std::vector<T> V(nn * static_cast<std::size_t>(m + 1)), H(static_cast<std::size_t>((m + 1) * m), T(0));
    std::vector<T> cs(static_cast<std::size_t>(m)), sn(static_cast<std::size_t>(m)), g(static_cast<std::size_t>(m + 1), T(0));
    auto v = [&](int j) { return V.data() + static_cast<std::size_t>(j) * nn; };
    auto h = [&](int i, int j) -> T& { return H[static_cast<std::size_t>(i + j * (m + 1))]; };
    std::copy(rhs, rhs + n, v(0));
    if (precond) f.solve(v(0), 1, true);
    const T beta = std::sqrt(dot(v(0), v(0), ns));
    std::fill(dd, dd + n, T(0));
    if (!(beta > 0) || !std::isfinite(static_cast<double>(beta))) return 1;
    for (std::int64_t i = 0; i < n; ++i) v(0)[i] /= beta;
    g[0] = beta;
    int k = 0;
    while (k < m) {
      T* w = v(k + 1);
      matmul<T>(s, n, 1, T(1), A, lda, v(k), ns, T(0), w, ns, trace);
      if (precond) f.solve(w, 1, true);
      for (int j = 0; j <= k; ++j) {  // modified Gram-Schmidt
        h(j, k) = dot(v(j), w, ns);
        for (std::int64_t i = 0; i < n; ++i) w[i] -= h(j, k) * v(j)[i];
      }
      const T hk1 = std::sqrt(dot(w, w, ns));
      host += 4.0 * static_cast<double>(n) * (k + 2);
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
      ++k;
      if (!(std::fabs(static_cast<double>(g[k])) > inner_tol * static_cast<double>(beta)) || !(hk1 > 0)) break;
      for (std::int64_t i = 0; i < n; ++i) w[i] /= hk1;
    }
    std::vector<T> y(g.begin(), g.begin() + k);  // H(0:k, 0:k) y = g(0:k), back substitution
    for (int i = k - 1; i >= 0; --i) {
      for (int j = i + 1; j < k; ++j) y[i] -= h(i, j) * y[j];
      y[i] = h(i, i) != T(0) ? y[i] / h(i, i) : T(0);
    }
    for (int j = 0; j < k; ++j)
      for (std::int64_t i = 0; i < n; ++i) dd[i] += y[j] * v(j)[i];
    host += 2.0 * static_cast<double>(n) * k + static_cast<double>(k) * k;
    return k;
  };

  int total = 0;
  bool polished = false;
  const bool classical = o.refinement == IrsRefinement::classical;
  for (;;) {
    for (std::int64_t c = 0; c < nrhs; ++c)
      for (std::int64_t i = 0; i < n; ++i) r[static_cast<std::size_t>(i + c * n)] = B[i + c * ldb];
    matmul<T>(s, n, nrhs, T(-1), A, lda, X, ldx, T(1), r.data(), ns, trace);
    bool converged = true;
    double rmax = 0;
    for (std::int64_t c = 0; c < nrhs; ++c) {
      double xn = 0, rn = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        xn = std::max(xn, std::fabs(static_cast<double>(X[i + c * ldx])));
        const double ri = std::fabs(static_cast<double>(r[static_cast<std::size_t>(i + c * n)]));
        rn = std::isnan(ri) ? std::numeric_limits<double>::infinity() : std::max(rn, ri);
      }
      converged = converged && rn <= xn * cte;
      rmax = std::max(rmax, rn);
    }
    res.residual_history.emplace_back(total, rmax);
    if (converged && (!classical || polished)) {
      res.niters = total;
      return finish();
    }
    if (total >= o.max_iters || !std::isfinite(rmax)) break;
    // Classical refinement: after the test first passes, one more correction. The test bounds the
    // backward error by sqrt(n) eps; the extra step brings the forward error to getrs's level
    // (docs/trnsolver.md, "Iterative refinement").
    if (converged) polished = true;
    if (classical) {
      d = r;
      f.solve(d.data(), nrhs);
      total += 1;
    } else {
      total += gmres(r.data(), d.data(), o.max_iters - total);
    }
    for (std::int64_t c = 0; c < nrhs; ++c)
      for (std::int64_t i = 0; i < n; ++i) X[i + c * ldx] += d[static_cast<std::size_t>(i + c * n)];
    host += static_cast<double>(n * nrhs);
    ++res.outer_niters;
  }
  return fallback(-o.max_iters);
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
