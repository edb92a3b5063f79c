// sytrf / sytrs / sytri: the symmetric-indefinite LDL^T factorisation with Bunch-Kaufman diagonal
// pivoting (Bunch & Kaufman, Math. Comp. 31 (1977); LAPACK xSYTRF / xLASYF / xSYTF2, xSYTRS), its
// solve and its inverse. Blocked as LAPACK's xLASYF: each panel of kSytrfPanel columns is factored
// with delayed updates (the current column is A(:, j) - L W(j, :)^T with W = L D) as a recorded fp64
// host step, and the trailing matrix takes the panel's rank-kb update A22 -= L21 W21^T as one trnblas
// SYRKX on TensorE. uplo upper runs as lower on the index-reversed matrix (sym_indef.hpp). The
// factor is stored in LAPACK's product form (each column's multipliers in the row order of its own
// step: the panel's later interchanges undone in its earlier columns, as xLASYF). docs/trnsolver.md
// "Symmetric indefinite (sytrf) and inverses".
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "trn/core/for_each_scalar.hpp"
#include "trn/core/host_simd.hpp"
#include "sym_steps.hpp"
#include "trn/core/host_step.hpp"
#include "trn/solver/sym_indef.hpp"

namespace trn::solver {
namespace {

using detail::cabs1;
using detail::WideOf;

// Element (i, j) of A seen as the lower factor: A itself (lower) or J A J (upper, J the reversal).
template <class T>
struct LowerView {
  T* a;
  std::int64_t lda, n;
  bool upper;
  T& at(std::int64_t i, std::int64_t j) const { return upper ? a[(n - 1 - i) + (n - 1 - j) * lda] : a[i + j * lda]; }
  std::int64_t row(std::int64_t i) const { return upper ? n - 1 - i : i; }  // A's row of view row i
};

// One panel of xLASYF (lower) on the trailing m x m matrix at view offset k: S its full symmetric
// copy (original values, interchanged as the panel goes), L / Wm the panel's multipliers and updated
// columns (m x ncol each). Returns kb, the columns factored.
template <class W>
struct Panel {
  std::int64_t m = 0, ncol = 0, k = 0;
  std::vector<W> S, L, Wm;
  double flops = 0;
  W& s(std::int64_t i, std::int64_t j) { return S[static_cast<std::size_t>(i + j * m)]; }
  W& l(std::int64_t i, std::int64_t j) { return L[static_cast<std::size_t>(i + j * m)]; }
  W& w(std::int64_t i, std::int64_t j) { return Wm[static_cast<std::size_t>(i + j * m)]; }
  // Rows [from, m) of the updated column c into Wm(:, dst), with `done` columns factored.
  // Each row's chain of subtractions runs in t order as before; the loops are interchanged so the
  // inner one runs down contiguous columns of L and Wm (vectorised for real types) instead of along
  // rows of L at stride m (dsytrf 256: a scalar chain with a cache miss per term).
  void updated(std::int64_t c, std::int64_t from, std::int64_t done, std::int64_t dst, double mac) {
    W* __restrict out = Wm.data() + dst * m;
    const W* __restrict sc = S.data() + c * m;
    for (std::int64_t r = from; r < m; ++r) out[r] = sc[r];
    for (std::int64_t t = 0; t < done; ++t) {  // dst >= done: out is none of the columns read
      const W wct = w(c, t);
      const W* __restrict lt = L.data() + t * m;
      for (std::int64_t r = from; r < m; ++r) out[r] -= lt[r] * wct;
    }
    flops += mac * static_cast<double>((m - from) * done);
  }
  void swap_sym(std::int64_t a, std::int64_t b) {  // rows and columns a, b of S
    for (std::int64_t j = 0; j < m; ++j) std::swap(s(a, j), s(b, j));
    for (std::int64_t i = 0; i < m; ++i) std::swap(s(i, a), s(i, b));
  }
  void swap_rows(std::vector<W>& X, std::int64_t a, std::int64_t b, std::int64_t cols) {
    for (std::int64_t t = 0; t < cols; ++t)
      std::swap(X[static_cast<std::size_t>(a + t * m)], X[static_cast<std::size_t>(b + t * m)]);
  }
};

// The 1x1 / 2x2 pivot of column j (xLASYF's choice, alpha = (1 + sqrt 17) / 8): kp (the row to bring
// to kk = j + kstep - 1) and kstep; Wm(:, j) holds the updated column on return (Wm(:, j + 1) the
// updated column kp for a 2x2). zero: the column is zero (or NaN on the diagonal).
template <class W>
void choose_pivot(Panel<W>& p, std::int64_t j, double mac, std::int64_t& kp, int& kstep, bool& zero) {
  const double alpha = (1.0 + std::sqrt(17.0)) / 8.0;
  const double absakk = cabs1(p.w(j, j));
  std::int64_t imax = j;
  double colmax = 0;
  for (std::int64_t r = j + 1; r < p.m; ++r)
    if (cabs1(p.w(r, j)) > colmax) colmax = cabs1(p.w(r, j)), imax = r;
  kp = j;
  kstep = 1;
  zero = std::max(absakk, colmax) == 0.0 || std::isnan(absakk);
  if (zero || absakk >= alpha * colmax) return;
  p.updated(imax, j, j, j + 1, mac);  // column imax: row imax's left part and column imax below, by symmetry
  double rowmax = 0;
  for (std::int64_t r = j; r < p.m; ++r)
    if (r != imax) rowmax = std::max(rowmax, cabs1(p.w(r, j + 1)));
  if (absakk >= alpha * colmax * (colmax / rowmax)) return;
  kp = imax;
  if (cabs1(p.w(imax, j + 1)) >= alpha * rowmax) {
    for (std::int64_t r = j; r < p.m; ++r) p.w(r, j) = p.w(r, j + 1);
  } else {
    kstep = 2;
  }
}

// Factors the panel's columns (xLASYF lower loop), returns kb; ipiv_v (view, 1-based, global) and
// info (first zero pivot, global) as LAPACK.
template <class W>
std::int64_t factor_panel(Panel<W>& p, std::int64_t nb, double mac, int* ipiv_v, int& info) {
  std::int64_t j = 0;
  while (j < p.m && (j < nb - 1 || nb >= p.m)) {
    p.updated(j, j, j, j, mac);
    std::int64_t kp = j;
    int kstep = 1;
    bool zero = false;
    choose_pivot(p, j, mac, kp, kstep, zero);
    const std::int64_t kk = j + kstep - 1;
    if (zero) {
      if (info == 0) info = static_cast<int>(p.k + j + 1);
      for (std::int64_t r = j; r < p.m; ++r) p.l(r, j) = p.w(r, j);
    } else {
      if (kp != kk) {
        p.swap_sym(kk, kp);
        p.swap_rows(p.L, kk, kp, j);
        p.swap_rows(p.Wm, kk, kp, kk + 1);
      }
      if (kstep == 1) {
        const W d = p.w(j, j);
        p.l(j, j) = d;
        for (std::int64_t r = j + 1; r < p.m; ++r) p.l(r, j) = p.w(r, j) / d;
      } else {
        W d21 = p.w(j + 1, j);
        const W d11 = p.w(j + 1, j + 1) / d21, d22 = p.w(j, j) / d21, t = W(1) / (d11 * d22 - W(1));
        d21 = t / d21;
        for (std::int64_t r = j + 2; r < p.m; ++r) {
          p.l(r, j) = d21 * (d11 * p.w(r, j) - p.w(r, j + 1));
          p.l(r, j + 1) = d21 * (d22 * p.w(r, j + 1) - p.w(r, j));
        }
        p.l(j, j) = p.w(j, j);
        p.l(j + 1, j) = p.w(j + 1, j);
        p.l(j + 1, j + 1) = p.w(j + 1, j + 1);
      }
    }
    const int piv = static_cast<int>(p.k + kp + 1);
    ipiv_v[p.k + j] = kstep == 1 ? piv : -piv;
    if (kstep == 2) ipiv_v[p.k + j + 1] = -piv;
    j += kstep;
  }
  return j;
}

// xLASYF's closing step: the panel's interchanges (j, kk, kp), last first, undone in columns < j.
template <class W>
void undo_swaps(Panel<W>& p, std::int64_t kb, const int* ipiv_v) {
  std::vector<std::array<std::int64_t, 3>> swaps;
  for (std::int64_t j = 0; j < kb;) {
    const int piv = ipiv_v[p.k + j];
    const std::int64_t kstep = piv > 0 ? 1 : 2, kk = j + kstep - 1, kp = (piv > 0 ? piv : -piv) - 1 - p.k;
    if (kp != kk) swaps.push_back({j, kk, kp});
    j += kstep;
  }
  for (auto it = swaps.rbegin(); it != swaps.rend(); ++it) p.swap_rows(p.L, (*it)[1], (*it)[2], (*it)[0]);
}

// The panel's results: L21 / W21 in the final row order into the GEMM operands (A's row order:
// reversed for upper, (m - kb) x kb each); then into A (view) the panel columns with their
// interchanges undone in the earlier columns (product form) and the interchanged trailing triangle.
template <class T, class W>
void store_panel(Panel<W>& p, std::int64_t kb, const int* ipiv_v, const LowerView<T>& v, std::vector<T>& l21,
                 std::vector<T>& w21) {
  const std::int64_t m2 = p.m - kb;
  l21.assign(static_cast<std::size_t>(m2 * kb), T(0));
  w21.assign(l21.size(), T(0));
  for (std::int64_t t = 0; t < kb; ++t)
    for (std::int64_t r = kb; r < p.m; ++r) {
      const std::int64_t i = v.upper ? m2 - 1 - (r - kb) : r - kb;
      l21[static_cast<std::size_t>(i + t * m2)] = detail::from_wide<T>(p.l(r, t));
      w21[static_cast<std::size_t>(i + t * m2)] = detail::from_wide<T>(p.w(r, t));
    }
  undo_swaps(p, kb, ipiv_v);  // after the GEMM operands took the final row order
  for (std::int64_t c = kb; c < p.m; ++c)
    for (std::int64_t r = c; r < p.m; ++r) v.at(p.k + r, p.k + c) = detail::from_wide<T>(p.s(r, c));
  for (std::int64_t t = 0; t < kb; ++t)
    for (std::int64_t r = t; r < p.m; ++r) v.at(p.k + r, p.k + t) = detail::from_wide<T>(p.l(r, t));
}

template <class T>
int sytrf_impl(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, int* ipiv, CallReport* report) {
  detail::require_square("sytrf", n, lda, A);
  detail::require_args(n == 0 || ipiv != nullptr, "sytrf", "ipiv not NULL");
  if (report != nullptr) *report = CallReport{};
  using W = WideOf<T>;
  const LowerView<T> v{A, lda, n, uplo == Uplo::upper};
  const blas::Settings bs = detail::sym_blas_settings<T>(s);
  const double mac = detail::kMacFlops<T>;
  std::vector<int> ipiv_v(static_cast<std::size_t>(n));
  TraceParts trace;
  double host = 0;
  int info = 0;
  std::vector<T> l21, w21;
  for (std::int64_t k = 0; k < n;) {
    Panel<W> p;
    p.m = n - k;
    p.k = k;
    const std::int64_t nb = std::min(kSytrfPanel, p.m);
    p.ncol = nb;
    p.S.resize(static_cast<std::size_t>(p.m * p.m));
    p.L.assign(static_cast<std::size_t>(p.m * nb), W(0));
    p.Wm.assign(p.L.size(), W(0));
    for (std::int64_t c = 0; c < p.m; ++c)
      for (std::int64_t r = c; r < p.m; ++r) p.s(r, c) = p.s(c, r) = W(v.at(k + r, k + c));
    const std::int64_t kb = factor_panel(p, kSytrfPanel, mac, ipiv_v.data(), info);
    store_panel(p, kb, ipiv_v.data(), v, l21, w21);
    host += p.flops;
    T* trail = v.upper ? A : A + (k + kb) + (k + kb) * lda;  // the view's A(k+kb:, k+kb:) in A
    const T* corner = v.upper ? A : A + k + k * lda;
    record_host_step(trace, HostStep{.name = "trnsolver.sytrf.panel",
                                     .flops = p.flops,
                                     .reads = {HostSpan::matrix(corner, p.m, p.m, lda)},
                                     .writes = {HostSpan::matrix(corner, p.m, p.m, lda),
                                                HostSpan(l21.data(), static_cast<std::int64_t>(l21.size())),
                                                HostSpan(w21.data(), static_cast<std::int64_t>(w21.size()))}});
    const std::int64_t m2 = p.m - kb;
    detail::syrkx_minus<T>(bs, uplo, m2, kb, l21.data(), std::max<std::int64_t>(1, m2), w21.data(),
                           std::max<std::int64_t>(1, m2), trail, lda, trace);
    k += kb;
  }
  for (std::int64_t i = 0; i < n; ++i) {  // the view's pivots in A's indexing
    const int p = ipiv_v[static_cast<std::size_t>(i)];
    const int q = v.upper ? (p > 0 ? static_cast<int>(n + 1 - p) : -static_cast<int>(n + 1 + p)) : p;
    ipiv[v.row(i)] = q;
  }
  detail::finish_fp64_report(report, std::move(trace), s.target, host);
  // info counts the view's steps; upper: A's index of that pivot (LAPACK's xSYTF2 runs k = n .. 1, so
  // the first zero it meets is the same one, reported in A's indexing).
  return v.upper && info > 0 ? static_cast<int>(n + 1 - info) : info;
}

// The view's pivots (1-based, view indexing) of sytrf's output.
template <class T>
void view_pivots(const LowerView<T>& v, const int* ipiv, std::vector<int>& piv) {
  const std::int64_t n = v.n;
  piv.resize(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const int p = ipiv[v.row(i)];
    piv[static_cast<std::size_t>(i)] =
        v.upper ? (p > 0 ? static_cast<int>(n + 1 - p) : -static_cast<int>(n + 1 + p)) : p;
  }
}

// The view's factor (wide, n x n lower) and pivots of sytrf's output.
template <class T>
void load_factor(const LowerView<T>& v, const int* ipiv, std::vector<WideOf<T>>& F, std::vector<int>& piv) {
  const std::int64_t n = v.n;
  F.assign(static_cast<std::size_t>(n * n), WideOf<T>(0));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j; i < n; ++i) F[static_cast<std::size_t>(i + j * n)] = WideOf<T>(v.at(i, j));
  view_pivots(v, ipiv, piv);
}

// xSYTRS (lower, product form) on the wide n x nrhs X: P L D L^T P^T X = B, in place; f(i, j) the
// view's factor element, widened (exact). Each element's operations run in LAPACK's order; the
// multipliers x(k, c) are held in locals over the column updates, and the backward dot products
// accumulate two right-hand sides at once in locals (two independent chains, no store-to-load
// round trip per term).
template <class W, class Fa>
void solve_lower(const Fa& f, const std::vector<int>& piv, std::int64_t n, std::int64_t nrhs, std::vector<W>& X) {
  auto x = [&](std::int64_t i, std::int64_t c) -> W& { return X[static_cast<std::size_t>(i + c * n)]; };
  auto swap = [&](std::int64_t a, std::int64_t b) {
    for (std::int64_t c = 0; a != b && c < nrhs; ++c) std::swap(x(a, c), x(b, c));
  };
  for (std::int64_t k = 0; k < n;) {
    const int p = piv[static_cast<std::size_t>(k)];
    const std::int64_t step = p > 0 ? 1 : 2, kp = (p > 0 ? p : -p) - 1;
    swap(k + step - 1, kp);
    for (std::int64_t c = 0; c < nrhs; ++c) {
      W* __restrict xc = X.data() + c * n;
      const W xk = xc[k], xk1 = step == 2 ? xc[k + 1] : W(0);  // rows r > k + step - 1 only change
      for (std::int64_t r = k + step; r < n; ++r) {
        xc[r] -= f(r, k) * xk;
        if (step == 2) xc[r] -= f(r, k + 1) * xk1;
      }
      if (step == 1) {
        xc[k] /= f(k, k);
      } else {
        const W akm1k = f(k + 1, k), akm1 = f(k, k) / akm1k, ak = f(k + 1, k + 1) / akm1k, denom = akm1 * ak - W(1);
        const W bkm1 = xc[k] / akm1k, bk = xc[k + 1] / akm1k;
        xc[k] = (ak * bkm1 - bk) / denom;
        xc[k + 1] = (akm1 * bk - bkm1) / denom;
      }
    }
    k += step;
  }
  for (std::int64_t k = n - 1; k >= 0;) {
    const int p = piv[static_cast<std::size_t>(k)];
    const std::int64_t step = p > 0 ? 1 : 2, kp = (p > 0 ? p : -p) - 1;
    for (std::int64_t c = 0; c < nrhs; c += 2) {
      const bool pair = c + 1 < nrhs;
      const W* x0 = X.data() + c * n;
      const W* x1 = pair ? x0 + n : x0;
      for (std::int64_t q = 0; q < step; ++q) {
        W a0 = x(k - q, c), a1 = pair ? x(k - q, c + 1) : W(0);
        for (std::int64_t r = k + 1; r < n; ++r) {
          const W frk = f(r, k - q);
          a0 -= frk * x0[r];
          a1 -= frk * x1[r];  // (unused when not a pair)
        }
        x(k - q, c) = a0;
        if (pair) x(k - q, c + 1) = a1;
      }
    }
    swap(k, kp);
    k -= step;
  }
}

// The same solve with X row-major (row i of the n x nrhs X at Xr + i * nrhs), for many right-hand
// sides (sytri's identity): every element sees exactly solve_lower's operations in its order (the
// forward column updates, the D solve, the backward dot products in ascending r), each applied to a
// whole row of X at once, so the bits are solve_lower's and the loops run over contiguous rows that
// the compiler vectorises (AVX-512 where the CPU has it; -ffp-contract=off keeps mul and sub apart).
// Complex rows keep std::complex's multiply exactly: a lane whose naive product is NaN in both parts
// (an infinite or overflowing operand) is redone by std::complex (libgcc's __muldc3). With the
// identity's structure (solve_lower_identity), sytri 256's call: 6.1 -> 1.7 ms (D), ~40 -> 4.7 ms (Z)
// of host CPU: docs/trnsolver.md "Symmetric indefinite (sytrf) and inverses".
namespace rows {

// Real X: row i at x + i * m.
struct RealRows {
  double* x;
  std::int64_t m;
  double* row(std::int64_t i) const { return x + i * m; }
  [[gnu::always_inline]] void swap(std::int64_t a, std::int64_t b) const {
    if (a != b) std::swap_ranges(row(a), row(a) + m, row(b));
  }
  // row i -= f row j
  [[gnu::always_inline]] void axpy(std::int64_t i, std::int64_t j, double f, std::int64_t len) const {
    double* __restrict xi = row(i);
    const double* __restrict xj = row(j);
    for (std::int64_t c = 0; c < len; ++c) xi[c] -= f * xj[c];
  }
  [[gnu::always_inline]] void div(std::int64_t i, double d) const {
    double* __restrict xi = row(i);
    for (std::int64_t c = 0; c < m; ++c) xi[c] /= d;
  }
  [[gnu::always_inline]] void solve2(std::int64_t k, double akm1k, double akm1, double ak, double denom) const {
    double* __restrict xk = row(k);
    double* __restrict xk1 = row(k + 1);
    for (std::int64_t c = 0; c < m; ++c) {
      const double bkm1 = xk[c] / akm1k, bk = xk1[c] / akm1k;
      xk[c] = (ak * bkm1 - bk) / denom;
      xk1[c] = (akm1 * bk - bkm1) / denom;
    }
  }
};

// Complex X in two planes (real parts at re + i * m, imaginary at im + i * m): the multiply-add runs
// on contiguous doubles. A product is std::complex's: the naive (ac - bd, ad + bc), which GCC's
// complex multiply returns unless both parts are NaN, where it calls __muldc3; such lanes (an
// infinite or overflowing operand) are redone with std::complex.
struct PlanarRows {
  double *re, *im;
  std::int64_t m;
  std::complex<double> at(std::int64_t i, std::int64_t c) const { return {re[i * m + c], im[i * m + c]}; }
  void set(std::int64_t i, std::int64_t c, std::complex<double> v) const {
    re[i * m + c] = v.real();
    im[i * m + c] = v.imag();
  }
  [[gnu::always_inline]] void swap(std::int64_t a, std::int64_t b) const {
    if (a == b) return;
    std::swap_ranges(re + a * m, re + a * m + m, re + b * m);
    std::swap_ranges(im + a * m, im + a * m + m, im + b * m);
  }
  [[gnu::always_inline]] void axpy(std::int64_t i, std::int64_t j, std::complex<double> f, std::int64_t len) const {
    double* __restrict xr = re + i * m;
    double* __restrict xi = im + i * m;
    const double* __restrict yr = re + j * m;
    const double* __restrict yi = im + j * m;
    const double fr = f.real(), fi = f.imag();
    int bad = 0;
    for (std::int64_t c = 0; c < len; ++c) {
      const double pr = fr * yr[c] - fi * yi[c], pi = fr * yi[c] + fi * yr[c];
      const bool nan = pr != pr && pi != pi;
      bad |= nan;
      xr[c] = nan ? xr[c] : xr[c] - pr;
      xi[c] = nan ? xi[c] : xi[c] - pi;
    }
    if (bad == 0) return;
    for (std::int64_t c = 0; c < len; ++c) {
      const double pr = fr * yr[c] - fi * yi[c], pi = fr * yi[c] + fi * yr[c];
      if (pr != pr && pi != pi) set(i, c, at(i, c) - f * at(j, c));
    }
  }
  void div(std::int64_t i, std::complex<double> d) const {
    for (std::int64_t c = 0; c < m; ++c) set(i, c, at(i, c) / d);
  }
  void solve2(std::int64_t k, std::complex<double> akm1k, std::complex<double> akm1, std::complex<double> ak,
              std::complex<double> denom) const {
    for (std::int64_t c = 0; c < m; ++c) {
      const std::complex<double> bkm1 = at(k, c) / akm1k, bk = at(k + 1, c) / akm1k;
      set(k, c, (ak * bkm1 - bk) / denom);
      set(k + 1, c, (akm1 * bk - bkm1) / denom);
    }
  }
};

// The columns each row operation covers (Lengths): forward step k updates the first active[k]
// columns, backward row i the first back[i] (see solve_lower_identity).
struct Lengths {
  std::vector<std::int64_t> active, back;
};

template <class W, class Rows>
[[gnu::always_inline]] inline void solve_body(const W* F, const int* piv, std::int64_t n, const Rows& x,
                                              const Lengths& len) {
  auto f = [&](std::int64_t i, std::int64_t j) { return F[i + j * n]; };
  for (std::int64_t k = 0; k < n;) {
    const int p = piv[k];
    const std::int64_t step = p > 0 ? 1 : 2, kp = (p > 0 ? p : -p) - 1, a = len.active[k];
    x.swap(k + step - 1, kp);
    for (std::int64_t r = k + step; r < n; ++r) {
      x.axpy(r, k, f(r, k), a);
      if (step == 2) x.axpy(r, k + 1, f(r, k + 1), a);
    }
    if (step == 1) {
      x.div(k, f(k, k));
    } else {
      const W akm1k = f(k + 1, k), akm1 = f(k, k) / akm1k, ak = f(k + 1, k + 1) / akm1k, denom = akm1 * ak - W(1);
      x.solve2(k, akm1k, akm1, ak, denom);
    }
    k += step;
  }
  for (std::int64_t k = n - 1; k >= 0;) {
    const int p = piv[k];
    const std::int64_t step = p > 0 ? 1 : 2, kp = (p > 0 ? p : -p) - 1;
    for (std::int64_t q = 0; q < step; ++q)
      for (std::int64_t r = k + 1; r < n; ++r) x.axpy(k - q, r, f(r, k - q), len.back[k - q]);
    x.swap(k, kp);
    k -= step;
  }
}

template <class W, class Rows>
__attribute__((target("avx512f,avx512vl,avx512dq"))) void solve_avx512(const W* F, const int* piv, std::int64_t n,
                                                                      const Rows& x, const Lengths& len) {
  solve_body(F, piv, n, x, len);
}
template <class W, class Rows>
void solve_portable(const W* F, const int* piv, std::int64_t n, const Rows& x, const Lengths& len) {
  solve_body(F, piv, n, x, len);
}

}  // namespace rows

// The identity's structure, used without changing a bit. Columns of X are independent solves, so
// they may be reordered and each computed only as far as the output needs:
// - Forward: column c's entries stay exactly +0 or its 1 until the step that processes the row holding
//   its 1 ("activates" it; the interchanges only move rows not yet processed), and an update
//   x -= f * (+0) with f finite leaves such an entry's bits unchanged. With the columns ordered by
//   activation, step k updates only the first active[k] = k + step columns; every skipped operation is
//   such an exact no-op (checked: every factor entry finite, else nothing is skipped). The D solves
//   still cover whole rows (they turn +0 into -0 where D < 0, which later steps can see).
// - Backward: output (i, c), i >= c, reads row i at column c's position; the prefix of columns each
//   row's content must hold is carried back through the backward pass (the interchanges move it, a
//   row's update needs it in every row it reads), and each backward row update covers only its prefix.
// Every stored element sees exactly the operations of solve_lower in its order. The work drops from
// n^3 multiply-adds to about n^3 / 3 (the recorded host-step flops, and so the modeled time, are the
// full solve's, unchanged).
template <class W>
rows::Lengths identity_lengths(const std::vector<W>& F, const std::vector<int>& piv, std::int64_t n,
                               std::vector<std::int64_t>& order) {
  const auto un = static_cast<std::size_t>(n);
  rows::Lengths len{std::vector<std::int64_t>(un, n), std::vector<std::int64_t>(un, n)};
  order.resize(un);
  for (std::int64_t c = 0; c < n; ++c) order[static_cast<std::size_t>(c)] = c;
  bool finite = true;
  for (const W& v : F) {
    if constexpr (std::is_same_v<W, double>)
      finite = finite && std::isfinite(v);
    else
      finite = finite && std::isfinite(v.real()) && std::isfinite(v.imag());
  }
  if (!finite) return len;
  std::vector<std::int64_t> holder(un), inv(un);  // holder[s]: the column whose 1 row s holds
  for (std::int64_t s = 0; s < n; ++s) holder[static_cast<std::size_t>(s)] = s;
  std::int64_t activated = 0;
  struct Back {
    std::int64_t k, step, kp;
  };
  std::vector<Back> back;
  for (std::int64_t k = 0; k < n;) {
    const int p = piv[static_cast<std::size_t>(k)];
    const std::int64_t step = p > 0 ? 1 : 2, kp = (p > 0 ? p : -p) - 1;
    std::swap(holder[static_cast<std::size_t>(k + step - 1)], holder[static_cast<std::size_t>(kp)]);
    for (std::int64_t q = 0; q < step; ++q) order[static_cast<std::size_t>(activated++)] = holder[static_cast<std::size_t>(k + q)];
    len.active[static_cast<std::size_t>(k)] = activated;
    k += step;
  }
  for (std::int64_t j = 0; j < n; ++j) inv[static_cast<std::size_t>(order[static_cast<std::size_t>(j)])] = j;
  for (std::int64_t k = n - 1; k >= 0;) {
    const int p = piv[static_cast<std::size_t>(k)];
    const std::int64_t step = p > 0 ? 1 : 2, kp = (p > 0 ? p : -p) - 1;
    back.push_back({k, step, kp});
    k -= step;
  }
  // need[s]: the largest (reordered) column index row s's content must hold, from the end backwards.
  std::vector<std::int64_t> need(un);
  std::int64_t run = -1;
  for (std::int64_t s = 0; s < n; ++s) need[static_cast<std::size_t>(s)] = run = std::max(run, inv[static_cast<std::size_t>(s)]);
  for (auto it = back.rbegin(); it != back.rend(); ++it) {
    std::swap(need[static_cast<std::size_t>(it->k)], need[static_cast<std::size_t>(it->kp)]);
    std::int64_t most = -1;
    for (std::int64_t q = 0; q < it->step; ++q) {
      const auto row = static_cast<std::size_t>(it->k - q);
      len.back[row] = need[row] + 1;
      most = std::max(most, need[row]);
    }
    for (std::int64_t r = it->k + 1; r < n; ++r) need[static_cast<std::size_t>(r)] = std::max(need[static_cast<std::size_t>(r)], most);
  }
  return len;
}

// solve_lower on X = I (n x n), its view-lower triangle stored through `store(i, j, x_ij)` (i >= j):
// X row-major (real) or in two row-major planes (complex), its columns in activation order.
template <class W, class Store>
void solve_lower_identity(const std::vector<W>& F, const std::vector<int>& piv, std::int64_t n, Store&& store) {
  const bool wide = host_simd_available(HostSimd::avx512);
  const auto nn = static_cast<std::size_t>(n * n);
  std::vector<std::int64_t> order;
  const rows::Lengths len = identity_lengths(F, piv, n, order);
  std::vector<std::int64_t> inv(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) inv[static_cast<std::size_t>(order[static_cast<std::size_t>(j)])] = j;
  auto at = [&](std::int64_t i, std::int64_t c) { return static_cast<std::size_t>(inv[static_cast<std::size_t>(c)] + i * n); };
  if constexpr (std::is_same_v<W, double>) {
    std::vector<double> X(nn, 0.0);
    for (std::int64_t i = 0; i < n; ++i) X[at(i, i)] = 1.0;
    const rows::RealRows x{X.data(), n};
    wide ? rows::solve_avx512(F.data(), piv.data(), n, x, len) : rows::solve_portable(F.data(), piv.data(), n, x, len);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = j; i < n; ++i) store(i, j, X[at(i, j)]);
  } else {
    std::vector<double> re(nn, 0.0), im(nn, 0.0);
    for (std::int64_t i = 0; i < n; ++i) re[at(i, i)] = 1.0;
    const rows::PlanarRows x{re.data(), im.data(), n};
    wide ? rows::solve_avx512(F.data(), piv.data(), n, x, len) : rows::solve_portable(F.data(), piv.data(), n, x, len);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = j; i < n; ++i) store(i, j, std::complex<double>(re[at(i, j)], im[at(i, j)]));
  }
}

template <class T>
void sytrs_impl(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t nrhs, const T* A, std::int64_t lda,
                const int* ipiv, T* B, std::int64_t ldb, CallReport* report) {
  detail::require_args(n >= 0 && nrhs >= 0 && lda >= std::max<std::int64_t>(1, n) &&
                           ldb >= std::max<std::int64_t>(1, n) &&
                           (n == 0 || nrhs == 0 || (A != nullptr && ipiv != nullptr && B != nullptr)),
                       "sytrs", "n, nrhs >= 0, lda, ldb >= max(1, n), A, ipiv, B not NULL");
  detail::require_args(nrhs == 0 || sytrf_pivots_valid(uplo, n, ipiv), "sytrs", "ipiv: sytrf's pattern");
  if (report != nullptr) *report = CallReport{};
  TraceParts trace;
  double flops = 0;
  if (n > 0 && nrhs > 0) {
    const LowerView<T> v{const_cast<T*>(A), lda, n, uplo == Uplo::upper};
    std::vector<WideOf<T>> X(static_cast<std::size_t>(n * nrhs));
    std::vector<int> piv;
    view_pivots(v, ipiv, piv);
    for (std::int64_t c = 0; c < nrhs; ++c)
      for (std::int64_t i = 0; i < n; ++i) X[static_cast<std::size_t>(i + c * n)] = WideOf<T>(B[v.row(i) + c * ldb]);
    // The factor read in place through the view (no n x n wide copy: the copy and its fresh pages
    // were a third of the call).
    solve_lower(
        [&v](std::int64_t i, std::int64_t j) { return WideOf<T>(v.at(i, j)); }, piv, n, nrhs, X);
    for (std::int64_t c = 0; c < nrhs; ++c)
      for (std::int64_t i = 0; i < n; ++i)
        B[v.row(i) + c * ldb] = detail::from_wide<T>(X[static_cast<std::size_t>(i + c * n)]);
    flops = detail::kMacFlops<T> * static_cast<double>(n * n * nrhs);
    record_host_step(
        trace, HostStep{.name = "trnsolver.sytrs.substitution",
                        .flops = flops,
                        .reads = {HostSpan::matrix(A, n, n, lda), HostSpan(ipiv, n), HostSpan::matrix(B, n, nrhs, ldb)},
                        .writes = {HostSpan::matrix(B, n, nrhs, ldb)}});
  }
  detail::finish_fp64_report(report, std::move(trace), s.target, flops);
}

// sytri: X = A^-1 by the product-form solve on the identity (fp64 host), its view-lower triangle stored.
template <class T>
int sytri_impl(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, const int* ipiv,
               CallReport* report) {
  detail::require_square("sytri", n, lda, A);
  detail::require_args(n == 0 || ipiv != nullptr, "sytri", "ipiv not NULL");
  detail::require_args(sytrf_pivots_valid(uplo, n, ipiv), "sytri", "ipiv: sytrf's pattern");
  if (report != nullptr) *report = CallReport{};
  const LowerView<T> v{A, lda, n, uplo == Uplo::upper};
  for (std::int64_t i = 0; i < n; ++i)  // LAPACK: a 1x1 block D(i, i) exactly zero is singular
    if (ipiv[v.row(i)] > 0 && v.at(i, i) == T(0)) return static_cast<int>(v.row(i) + 1);
  TraceParts trace;
  double flops = 0;
  if (n > 0) {
    std::vector<WideOf<T>> F;
    std::vector<int> piv;
    load_factor(v, ipiv, F, piv);
    solve_lower_identity(F, piv, n,
                         [&](std::int64_t i, std::int64_t j, WideOf<T> x) { v.at(i, j) = detail::from_wide<T>(x); });
    flops = detail::kMacFlops<T> * static_cast<double>(n * n * n);
    record_host_step(trace, HostStep{.name = "trnsolver.sytri.inverse",
                                     .flops = flops,
                                     .reads = {HostSpan::matrix(A, n, n, lda), HostSpan(ipiv, n)},
                                     .writes = {HostSpan::matrix(A, n, n, lda)}});
  }
  detail::finish_fp64_report(report, std::move(trace), s.target, flops);
  return 0;
}

}  // namespace

bool sytrf_pivots_valid(Uplo uplo, std::int64_t n, const int* ipiv) {
  if (n > 0 && ipiv == nullptr) return false;
  const bool upper = uplo == Uplo::upper;
  auto at = [&](std::int64_t i) { return static_cast<std::int64_t>(ipiv[upper ? n - 1 - i : i]); };
  for (std::int64_t k = 0; k < n;) {
    const std::int64_t p = at(k);
    if (p == 0 || p > n || p < -n) return false;
    if (p < 0 && (k + 1 >= n || at(k + 1) != p)) return false;
    k += p > 0 ? 1 : 2;
  }
  return true;
}

#define TRNSOLVER_SYTRF_DEFINE(T)                                                                                  \
  int sytrf(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, int* ipiv, CallReport* report) { \
    return sytrf_impl(s, uplo, n, A, lda, ipiv, report);                                                           \
  }                                                                                                                \
  void sytrs(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t nrhs, const T* A, std::int64_t lda,        \
             const int* ipiv, T* B, std::int64_t ldb, CallReport* report) {                                        \
    sytrs_impl(s, uplo, n, nrhs, A, lda, ipiv, B, ldb, report);                                                    \
  }                                                                                                                \
  int sytri(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, const int* ipiv,                 \
            CallReport* report) {                                                                                  \
    return sytri_impl(s, uplo, n, A, lda, ipiv, report);                                                           \
  }
TRN_FOR_EACH_SDCZ(TRNSOLVER_SYTRF_DEFINE)
#undef TRNSOLVER_SYTRF_DEFINE

}  // namespace trn::solver
