// The sequential kernels of geev's host steps (geev_internal.hpp):
//   lahqr  LAPACK xLAHQR (3.10+, with KDEFL exceptional shifts): Francis' implicit double-shift QR on a
//          real Hessenberg matrix, Wilkinson single-shift QR on a complex one, small 3x3 / 2x2 bulges
//          chased by Householder reflectors (Golub & Van Loan, Matrix Computations 4th ed., 7.5.5-7.5.6,
//          Algorithms 7.5.1-7.5.2), deflation by Ahues & Kressner's conservative criterion, a 2x2 block
//          brought to standard Schur form by xLANV2. Every loop bounded: 30 max(10, n) sweeps per
//          active block at most, then info > 0.
//   trevc  LAPACK xTREVC's right eigenvectors by back substitution through the (quasi-)triangular T,
//          1x1 and 2x2 diagonal blocks solved with perturbed small pivots and rescaling against growth.
// They run in the element type's precision (as LAPACK's S/D/C/Z routines); the caller records each
// as one host step (core/include/trn/core/host_step.hpp).
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "geev_internal.hpp"
#include "svd_internal.hpp"  // detail::householder (xLARFG)

namespace trn::solver::detail {
namespace {

template <class T>
struct Mat {  // column-major view
  T* p;
  std::int64_t ld;
  T& operator()(std::int64_t i, std::int64_t j) const { return p[i + j * ld]; }
};

template <class R>
struct Consts {
  R ulp = std::numeric_limits<R>::epsilon();
  R safmin = std::numeric_limits<R>::min();
  R smlnum;
  explicit Consts(std::int64_t n) : smlnum(safmin * (static_cast<R>(n) / ulp)) {}
};

template <class T>
auto cabs1(T x) {
  if constexpr (kRealType<T>) return std::fabs(x); else return std::fabs(x.real()) + std::fabs(x.imag());
}

// Zero H below its subdiagonal (LAPACK's "clear out the trash", for the whole matrix).
template <class T>
void clear_below(Mat<T> H, std::int64_t n) {
  for (std::int64_t j = 0; j + 2 < n; ++j)
    for (std::int64_t i = j + 2; i < n; ++i) H(i, j) = T(0);
}

// The deflation search of xLAHQR: the largest k in (l, i] with H(k, k-1) negligible, else l.
template <class T, class R>
std::int64_t find_split(Mat<T> H, std::int64_t n, std::int64_t l, std::int64_t i, const Consts<R>& c) {
  for (std::int64_t k = i; k > l; --k) {
    const R sub = cabs1(H(k, k - 1));
    if (sub <= c.smlnum) return k;
    R tst = cabs1(H(k - 1, k - 1)) + cabs1(H(k, k));
    if (tst == R(0)) {
      if (k - 2 >= 0) tst += std::fabs(real_part(H(k - 1, k - 2)));
      if (k + 1 <= n - 1) tst += std::fabs(real_part(H(k + 1, k)));
    }
    if (std::fabs(real_part(H(k, k - 1))) <= c.ulp * tst) {  // Ahues & Kressner
      const R up = cabs1(H(k - 1, k)), dd = cabs1(H(k - 1, k - 1) - H(k, k)), hk = cabs1(H(k, k));
      const R ab = std::max(sub, up), ba = std::min(sub, up), aa = std::max(hk, dd), bb = std::min(hk, dd);
      const R s = aa + ab;
      if (ba * (ab / s) <= std::max(c.smlnum, c.ulp * (bb * (aa / s)))) return k;
    }
  }
  return l;
}

// xLAHQR's outer loop (both arithmetics): from the bottom, the deflation search, sweeps on the active block
// l..i until a block of `block` rows (1, or 2 for real data's standard 2x2 blocks) splits off, then
// done(l, i) stores its eigenvalue(s). At most 30 max(10, n) + 1 sweeps per block, then info = i + 1.
template <class T, class R, class Sweep, class Done>
int qr_iterate(Mat<T> H, std::int64_t n, const Consts<R>& c, std::int64_t block, Sweep&& sweep, Done&& done) {
  const std::int64_t itmax = 30 * std::max<std::int64_t>(10, n);
  std::int64_t kdefl = 0;
  for (std::int64_t i = n - 1; i >= 0;) {
    std::int64_t l = 0;
    bool split = false;
    for (std::int64_t its = 0; its <= itmax; ++its) {
      l = find_split(H, n, l, i, c);
      if (l > 0) H(l, l - 1) = T(0);
      if (l >= i - (block - 1)) {
        split = true;
        break;
      }
      ++kdefl;
      sweep(l, i, kdefl);
    }
    if (!split) return static_cast<int>(i + 1);
    done(l, i);
    kdefl = 0;
    i = l - 1;
  }
  return 0;
}

// ---- real: xLAHQR ------------------------------------------------------------------------------------

// xLANV2: the 2x2 [a b; c d] to standard Schur form by a rotation (cs, sn); its eigenvalues.
template <class R>
void lanv2(R& a, R& b, R& c, R& d, R& rt1r, R& rt1i, R& rt2r, R& rt2i, R& cs, R& sn) {
  const R eps = std::numeric_limits<R>::epsilon(), half = R(0.5), one = R(1);
  const R safmn2 = std::pow(R(2), static_cast<R>(static_cast<int>(std::log2(std::numeric_limits<R>::min() / eps) / 2)));
  const R safmx2 = one / safmn2;
  const auto sign = [](R x, R y) { return std::copysign(std::fabs(x), y); };
  cs = one;
  sn = 0;
  if (c == R(0)) {
  } else if (b == R(0)) {  // swap rows and columns
    cs = 0;
    sn = one;
    std::swap(a, d);
    b = -c;
    c = 0;
  } else if (a - d == R(0) && sign(one, b) != sign(one, c)) {
  } else {
    R temp = a - d, p = half * temp;
    const R bcmax = std::max(std::fabs(b), std::fabs(c)), bcmis = std::min(std::fabs(b), std::fabs(c)) * sign(one, b) * sign(one, c);
    R scale = std::max(std::fabs(p), bcmax);
    R z = (p / scale) * p + (bcmax / scale) * bcmis;
    if (z >= R(4) * eps) {  // real eigenvalues
      z = p + sign(std::sqrt(scale) * std::sqrt(z), p);
      a = d + z;
      d = d - (bcmax / z) * bcmis;
      const R tau = std::hypot(c, z);
      cs = z / tau;
      sn = c / tau;
      b = b - c;
      c = 0;
    } else {  // complex or nearly equal real eigenvalues: equal diagonal
      R sigma = b + c;
      for (int count = 1; count <= 20; ++count) {
        scale = std::max(std::fabs(temp), std::fabs(sigma));
        if (scale >= safmx2) { sigma *= safmn2; temp *= safmn2; continue; }
        if (scale <= safmn2) { sigma *= safmx2; temp *= safmx2; continue; }
        break;
      }
      p = half * temp;
      R tau = std::hypot(sigma, temp);
      cs = std::sqrt(half * (one + std::fabs(sigma) / tau));
      sn = -(p / (tau * cs)) * sign(one, sigma);
      const R aa = a * cs + b * sn, bb = -a * sn + b * cs, cc = c * cs + d * sn, dd = -c * sn + d * cs;
      a = aa * cs + cc * sn;
      b = bb * cs + dd * sn;
      c = -aa * sn + cc * cs;
      d = -bb * sn + dd * cs;
      temp = half * (a + d);
      a = temp;
      d = temp;
      if (c != R(0)) {
        if (b != R(0)) {
          if (sign(one, b) == sign(one, c)) {  // real eigenvalues: upper triangular
            const R sab = std::sqrt(std::fabs(b)), sac = std::sqrt(std::fabs(c));
            p = sign(sab * sac, c);
            tau = one / std::sqrt(std::fabs(b + c));
            a = temp + p;
            d = temp - p;
            b = b - c;
            c = 0;
            const R cs1 = sab * tau, sn1 = sac * tau;
            temp = cs * cs1 - sn * sn1;
            sn = cs * sn1 + sn * cs1;
            cs = temp;
          }
        } else {
          b = -c;
          c = 0;
          temp = cs;
          cs = -sn;
          sn = temp;
        }
      }
    }
  }
  rt1r = a;
  rt2r = d;
  rt1i = c == R(0) ? R(0) : std::sqrt(std::fabs(b)) * std::sqrt(std::fabs(c));
  rt2i = -rt1i;
}

// x <- c x + s y, y <- c y - s x over len elements at strides ix, iy (BLAS xROT).
template <class R>
void rot(std::int64_t len, R* x, std::int64_t ix, R* y, std::int64_t iy, R c, R s) {
  for (std::int64_t k = 0; k < len; ++k) {
    const R xv = x[k * ix], yv = y[k * iy];
    x[k * ix] = c * xv + s * yv;
    y[k * iy] = c * yv - s * xv;
  }
}

// The two shifts of a sweep on the active block l..i (LAPACK's exceptional shifts every 10th sweep).
template <class R>
void real_shifts(Mat<R> H, std::int64_t l, std::int64_t i, std::int64_t kdefl, R (&rt)[4]) {
  R h11, h12, h21, h22;
  if (kdefl % 20 == 0 || kdefl % 10 == 0) {
    const bool bottom = kdefl % 20 == 0;
    const R s = bottom ? std::fabs(H(i, i - 1)) + std::fabs(H(i - 1, i - 2)) : std::fabs(H(l + 1, l)) + std::fabs(H(l + 2, l + 1));
    h11 = R(0.75) * s + (bottom ? H(i, i) : H(l, l));
    h12 = R(-0.4375) * s;
    h21 = s;
    h22 = h11;
  } else {
    h11 = H(i - 1, i - 1);
    h21 = H(i, i - 1);
    h12 = H(i - 1, i);
    h22 = H(i, i);
  }
  const R s = std::fabs(h11) + std::fabs(h12) + std::fabs(h21) + std::fabs(h22);
  rt[0] = rt[1] = rt[2] = rt[3] = 0;  // rt1r, rt1i, rt2r, rt2i
  if (s == R(0)) return;
  h11 /= s; h21 /= s; h12 /= s; h22 /= s;
  const R tr = (h11 + h22) / R(2), det = (h11 - tr) * (h22 - tr) - h12 * h21, rtdisc = std::sqrt(std::fabs(det));
  if (det >= R(0)) {  // complex conjugate shifts
    rt[0] = rt[2] = tr * s;
    rt[1] = rtdisc * s;
    rt[3] = -rt[1];
  } else {  // real shifts: use the one nearer h22 twice
    const R r1 = tr + rtdisc, r2 = tr - rtdisc;
    rt[0] = rt[2] = (std::fabs(r1 - h22) <= std::fabs(r2 - h22) ? r1 : r2) * s;
  }
}

// Where the double-shift sweep starts (two consecutive small subdiagonals) and its first column v.
template <class R>
std::int64_t sweep_start(Mat<R> H, std::int64_t l, std::int64_t i, const R (&rt)[4], R ulp, R (&v)[3]) {
  std::int64_t m = i - 2;
  for (;; --m) {
    R s = std::fabs(H(m, m) - rt[2]) + std::fabs(rt[3]) + std::fabs(H(m + 1, m));
    const R h21s = H(m + 1, m) / s;
    v[0] = h21s * H(m, m + 1) + (H(m, m) - rt[0]) * ((H(m, m) - rt[2]) / s) - rt[1] * (rt[3] / s);
    v[1] = h21s * (H(m, m) + H(m + 1, m + 1) - rt[0] - rt[2]);
    v[2] = h21s * H(m + 2, m + 1);
    s = std::fabs(v[0]) + std::fabs(v[1]) + std::fabs(v[2]);
    v[0] /= s; v[1] /= s; v[2] /= s;
    if (m == l) break;
    const R h00 = std::fabs(H(m, m - 1)) * (std::fabs(v[1]) + std::fabs(v[2]));
    const R h01 = ulp * std::fabs(v[0]) * (std::fabs(H(m - 1, m - 1)) + std::fabs(H(m, m)) + std::fabs(H(m + 1, m + 1)));
    if (h00 <= h01) break;
  }
  return m;
}

// One double-shift QR sweep m..i: 3x3 (last: 2x2) reflectors chasing the bulge, applied to rows and
// columns i1..i2 of H and to Z's columns. Returns flops.
template <class R>
double real_sweep(Mat<R> H, Mat<R> Z, std::int64_t nz, std::int64_t l, std::int64_t m, std::int64_t i, std::int64_t i1,
                  std::int64_t i2, R (&v)[3]) {
  double flops = 0;
  for (std::int64_t k = m; k <= i - 1; ++k) {
    const std::int64_t nr = std::min<std::int64_t>(3, i - k + 1);
    if (k > m) for (std::int64_t r = 0; r < nr; ++r) v[r] = H(k + r, k - 1);
    const R t1 = householder(nr, v[0], v + 1);
    if (k > m) {
      H(k, k - 1) = v[0];
      H(k + 1, k - 1) = 0;
      if (k < i - 1) H(k + 2, k - 1) = 0;
    } else if (m > l) {
      H(k, k - 1) *= R(1) - t1;
    }
    const R v2 = v[1], t2 = t1 * v2, v3 = nr == 3 ? v[2] : R(0), t3 = t1 * v3;
    const auto apply = [&](R& a, R& b, R& c) {  // (a, b, c) <- (I - t1 v v^T) (a, b, c)
      const R sum = nr == 3 ? a + v2 * b + v3 * c : a + v2 * b;
      a -= sum * t1;
      b -= sum * t2;
      if (nr == 3) c -= sum * t3;
    };
    R dummy = 0;
    for (std::int64_t j = k; j <= i2; ++j) apply(H(k, j), H(k + 1, j), nr == 3 ? H(k + 2, j) : dummy);
    for (std::int64_t j = i1; j <= std::min(k + 3, i); ++j) apply(H(j, k), H(j, k + 1), nr == 3 ? H(j, k + 2) : dummy);
    if (Z.p != nullptr)
      for (std::int64_t j = 0; j < nz; ++j) apply(Z(j, k), Z(j, k + 1), nr == 3 ? Z(j, k + 2) : dummy);
    const double cols = static_cast<double>(i2 - k + 1 + std::min(k + 3, i) - i1 + 1 + (Z.p != nullptr ? nz : 0));
    flops += (nr == 3 ? 11.0 : 7.0) * cols + 10.0 * static_cast<double>(nr);
  }
  return flops;
}

// A converged 2x2 block (i-1, i): standard Schur form, its eigenvalues, the rotation applied to the
// rest of H (want_t) and to Z.
template <class R>
void real_pair(Mat<R> H, Mat<R> Z, std::int64_t n, std::int64_t i, bool want_t, R* wr, R* wi, double& flops) {
  R cs, sn;
  lanv2(H(i - 1, i - 1), H(i - 1, i), H(i, i - 1), H(i, i), wr[i - 1], wi[i - 1], wr[i], wi[i], cs, sn);
  if (want_t) {
    if (n - 1 > i) rot(n - 1 - i, &H(i - 1, i + 1), H.ld, &H(i, i + 1), H.ld, cs, sn);
    rot(i - 1, &H(0, i - 1), 1, &H(0, i), 1, cs, sn);
    flops += 6.0 * static_cast<double>(n);
  }
  if (Z.p != nullptr) {
    rot(n, &Z(0, i - 1), 1, &Z(0, i), 1, cs, sn);
    flops += 6.0 * static_cast<double>(n);
  }
}

template <class R>
int lahqr_real(bool want_t, std::int64_t n, R* h, std::int64_t ldh, R* wr, R* wi, R* z, std::int64_t ldz, double& flops) {
  const Mat<R> H{h, ldh}, Z{z, ldz};
  if (n == 0) return 0;
  clear_below(H, n);
  if (n == 1) {
    wr[0] = H(0, 0);
    wi[0] = 0;
    return 0;
  }
  const Consts<R> c(n);
  const auto sweep = [&](std::int64_t l, std::int64_t i, std::int64_t kdefl) {
    const std::int64_t i1 = want_t ? 0 : l, i2 = want_t ? n - 1 : i;
    R rt[4], v[3];
    real_shifts(H, l, i, kdefl, rt);
    const std::int64_t m = sweep_start(H, l, i, rt, c.ulp, v);
    flops += real_sweep(H, Z, n, l, m, i, i1, i2, v) + 40.0;
  };
  return qr_iterate(H, n, c, 2, sweep, [&](std::int64_t l, std::int64_t i) {
    if (l == i) {
      wr[i] = H(i, i);
      wi[i] = 0;
    } else {
      real_pair(H, Z, n, i, want_t, wr, wi, flops);
    }
  });
}

// ---- complex: xLAHQR ---------------------------------------------------------------------------------

// Scale row i (columns i .. jhi) by sc, column i (rows jlo .. min(jhi, i+1)) and Z's column i by conj(sc)
// (a diagonal similarity making H(i, i-1) real; LAPACK's initial pass).
template <class C>
void real_subdiagonals(Mat<C> H, Mat<C> Z, std::int64_t n) {
  using R = typename C::value_type;
  for (std::int64_t i = 1; i < n; ++i) {
    if (H(i, i - 1).imag() == R(0)) continue;
    C sc = H(i, i - 1) / cabs1(H(i, i - 1));
    sc = std::conj(sc) / std::abs(sc);
    H(i, i - 1) = std::abs(H(i, i - 1));
    for (std::int64_t j = i; j < n; ++j) H(i, j) *= sc;
    for (std::int64_t j = 0; j <= std::min(n - 1, i + 1); ++j) H(j, i) *= std::conj(sc);
    if (Z.p != nullptr) for (std::int64_t j = 0; j < n; ++j) Z(j, i) *= std::conj(sc);
  }
}

// The single shift of a sweep on l..i: Wilkinson's, exceptional every 10th sweep.
template <class C>
C complex_shift(Mat<C> H, std::int64_t l, std::int64_t i, std::int64_t kdefl) {
  using R = typename C::value_type;
  if (kdefl % 20 == 0) return C(R(0.75) * std::fabs(H(i, i - 1).real())) + H(i, i);
  if (kdefl % 10 == 0) return C(R(0.75) * std::fabs(H(l + 1, l).real())) + H(l, l);
  C t = H(i, i);
  const C u = std::sqrt(H(i - 1, i)) * std::sqrt(H(i, i - 1));
  R s = cabs1(u);
  if (s == R(0)) return t;
  const C x = R(0.5) * (H(i - 1, i - 1) - t);
  const R sx = cabs1(x);
  s = std::max(s, sx);
  C y = s * std::sqrt((x / s) * (x / s) + (u / s) * (u / s));
  if (sx > R(0) && (x / sx).real() * y.real() + (x / sx).imag() * y.imag() < R(0)) y = -y;
  return t - u * (u / (x + y));
}

// One single-shift QR sweep from the start row m (two consecutive small subdiagonals) to i.
template <class C>
double complex_sweep(Mat<C> H, Mat<C> Z, std::int64_t n, std::int64_t l, std::int64_t i, std::int64_t i1,
                     std::int64_t i2, C t, typename C::value_type ulp) {
  using R = typename C::value_type;
  C v[2];
  std::int64_t m = i - 1;
  for (;; --m) {
    const C h11 = H(m, m), h22 = H(m + 1, m + 1);
    C h11s = h11 - t;
    R h21 = H(m + 1, m).real();
    const R s = cabs1(h11s) + std::fabs(h21);
    h11s /= s;
    h21 /= s;
    v[0] = h11s;
    v[1] = C(h21);
    if (m == l) break;
    const R h10 = H(m, m - 1).real();
    if (std::fabs(h10) * std::fabs(h21) <= ulp * (cabs1(h11s) * (cabs1(h11) + cabs1(h22)))) break;
  }
  double flops = 0;
  for (std::int64_t k = m; k <= i - 1; ++k) {
    if (k > m) { v[0] = H(k, k - 1); v[1] = H(k + 1, k - 1); }
    const C t1 = householder(2, v[0], v + 1);
    if (k > m) { H(k, k - 1) = v[0]; H(k + 1, k - 1) = 0; }
    const C v2 = v[1];
    const R t2 = (t1 * v2).real();
    for (std::int64_t j = k; j <= i2; ++j) {
      const C sum = std::conj(t1) * H(k, j) + t2 * H(k + 1, j);
      H(k, j) -= sum;
      H(k + 1, j) -= sum * v2;
    }
    const auto right = [&](Mat<C> M, std::int64_t from, std::int64_t to) {
      for (std::int64_t j = from; j <= to; ++j) {
        const C sum = t1 * M(j, k) + t2 * M(j, k + 1);
        M(j, k) -= sum;
        M(j, k + 1) -= sum * std::conj(v2);
      }
    };
    right(H, i1, std::min(k + 2, i));
    if (Z.p != nullptr) right(Z, 0, n - 1);
    flops += 32.0 * static_cast<double>(i2 - k + 1 + std::min(k + 2, i) - i1 + 1 + (Z.p != nullptr ? n : 0));
    if (k == m && m > l) {  // keep H(m, m-1) real: a diagonal similarity
      C temp = C(1) - t1;
      temp /= std::abs(temp);
      H(m + 1, m) *= std::conj(temp);
      if (m + 2 <= i) H(m + 2, m + 1) *= temp;
      for (std::int64_t j = m; j <= i; ++j) {
        if (j == m + 1) continue;
        for (std::int64_t c = j + 1; c <= i2; ++c) H(j, c) *= temp;
        for (std::int64_t r = i1; r < j; ++r) H(r, j) *= std::conj(temp);
        if (Z.p != nullptr) for (std::int64_t r = 0; r < n; ++r) Z(r, j) *= std::conj(temp);
      }
    }
  }
  C temp = H(i, i - 1);  // H(i, i-1) real again
  if (temp.imag() != R(0)) {
    const R rtemp = std::abs(temp);
    H(i, i - 1) = rtemp;
    temp /= rtemp;
    for (std::int64_t c = i + 1; c <= i2; ++c) H(i, c) *= std::conj(temp);
    for (std::int64_t r = i1; r < i; ++r) H(r, i) *= temp;
    if (Z.p != nullptr) for (std::int64_t r = 0; r < n; ++r) Z(r, i) *= temp;
  }
  return flops;
}

template <class C>
int lahqr_complex(bool want_t, std::int64_t n, C* h, std::int64_t ldh, C* w, C* z, std::int64_t ldz, double& flops) {
  using R = typename C::value_type;
  const Mat<C> H{h, ldh}, Z{z, ldz};
  if (n == 0) return 0;
  clear_below(H, n);
  if (n == 1) {
    w[0] = H(0, 0);
    return 0;
  }
  real_subdiagonals(H, Z, n);
  const Consts<R> c(n);
  const auto sweep = [&](std::int64_t l, std::int64_t i, std::int64_t kdefl) {
    const std::int64_t i1 = want_t ? 0 : l, i2 = want_t ? n - 1 : i;
    flops += complex_sweep(H, Z, n, l, i, i1, i2, complex_shift(H, l, i, kdefl), c.ulp) + 60.0;
  };
  return qr_iterate(H, n, c, 1, sweep, [&](std::int64_t, std::int64_t i) { w[i] = H(i, i); });
}

// ---- xTREVC --------------------------------------------------------------------------------------------

// Back substitution of (T(0:top, 0:top) - lambda I) x(0:top) = x(0:top) (the right-hand side on entry)
// through T's 1x1 and (quasi: real T) 2x2 diagonal blocks, small pivots raised to smin; x(0:len) is
// rescaled when a pivot division or an entry's growth could overflow the updates (LAPACK xTREVC's
// bignum tests). Returns flops.
template <class S, class T, class R>
double back_substitute(Mat<const T> Tm, const std::vector<R>& colnorm, std::int64_t top, S lambda, S* x,
                       std::int64_t len, bool quasi, R smin, const Consts<R>& c) {
  const R bignum = R(1) / c.smlnum;
  const auto scale_all = [&](R f) { for (std::int64_t k = 0; k < len; ++k) x[k] *= f; };
  const auto perturbed = [&](S d) { return cabs1(d) < smin ? S(smin) : d; };
  const auto guard_growth = [&](R xnorm, R beta) {
    if (xnorm > R(1) && beta > bignum / xnorm) scale_all(R(1) / xnorm);
  };
  constexpr double kMac = kRealType<S> ? 2.0 : kRealType<T> ? 4.0 : 8.0;
  double flops = 0;
  for (std::int64_t j = top; j >= 0;) {
    if (quasi && j > 0 && Tm(j, j - 1) != T(0)) {  // 2x2 block (j-1, j): elimination with row pivoting
      S a = S(Tm(j - 1, j - 1)) - lambda, b = S(Tm(j - 1, j)), r1 = x[j - 1];
      S e = S(Tm(j, j - 1)), d = S(Tm(j, j)) - lambda, r2 = x[j];
      if (cabs1(e) > cabs1(a)) { std::swap(a, e); std::swap(b, d); std::swap(r1, r2); }
      a = perturbed(a);
      const S mult = e / a;
      const S x2 = r2 - mult * r1, d2 = perturbed(d - mult * b);
      x[j] = x2 / d2;
      x[j - 1] = (r1 - b * x[j]) / a;
      guard_growth(std::max(cabs1(x[j - 1]), cabs1(x[j])), std::max(colnorm[j - 1], colnorm[j]));
      for (std::int64_t k = 0; k < j - 1; ++k) x[k] -= Tm(k, j - 1) * x[j - 1] + Tm(k, j) * x[j];
      flops += kMac * 2.0 * static_cast<double>(j) + 30.0;
      j -= 2;
    } else {
      const S d = perturbed(S(Tm(j, j)) - lambda);
      const R ad = cabs1(d), ar = cabs1(x[j]);
      if (ad < R(1) && ar > bignum * ad) scale_all(R(1) / ar);
      x[j] /= d;
      guard_growth(cabs1(x[j]), colnorm[j]);
      for (std::int64_t k = 0; k < j; ++k) x[k] -= Tm(k, j) * x[j];
      flops += kMac * static_cast<double>(j) + 10.0;
      j -= 1;
    }
  }
  return flops;
}

// sum_{k < j} |T(k, j)| (cabs1) for every column j.
template <class T, class R>
std::vector<R> column_norms(Mat<const T> Tm, std::int64_t n) {
  std::vector<R> cn(static_cast<std::size_t>(n), R(0));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t k = 0; k < j; ++k) cn[static_cast<std::size_t>(j)] += cabs1(Tm(k, j));
  return cn;
}

template <class R>
double trevc_real(std::int64_t n, const R* t, std::int64_t ldt, R* x, std::int64_t ldx) {
  using C = std::complex<R>;
  const Mat<const R> T{t, ldt};
  const Mat<R> X{x, ldx};
  const Consts<R> c(n);
  const std::vector<R> cn = column_norms<R, R>(T, n);
  for (std::int64_t j = 0; j < n; ++j) std::fill(&X(0, j), &X(0, j) + n, R(0));
  std::vector<R> wr(static_cast<std::size_t>(n));
  std::vector<C> wc(static_cast<std::size_t>(n));
  double flops = 0;
  for (std::int64_t ki = n - 1; ki >= 0; --ki) {
    if (ki > 0 && T(ki, ki - 1) != R(0)) {  // the pair (ki-1, ki): the vector of re + i wi, wi > 0
      const R wi = std::sqrt(std::fabs(T(ki - 1, ki))) * std::sqrt(std::fabs(T(ki, ki - 1))), re = T(ki, ki);
      const R smin = std::max(c.ulp * (std::fabs(re) + wi), c.smlnum);
      if (std::fabs(T(ki - 1, ki)) >= std::fabs(T(ki, ki - 1))) {
        wc[ki - 1] = C(1);
        wc[ki] = C(0, wi / T(ki - 1, ki));
      } else {
        wc[ki - 1] = C(-wi / T(ki, ki - 1));
        wc[ki] = C(0, 1);
      }
      for (std::int64_t k = 0; k < ki - 1; ++k) wc[k] = -(wc[ki - 1] * T(k, ki - 1) + wc[ki] * T(k, ki));
      flops += back_substitute(T, cn, ki - 2, C(re, wi), wc.data(), ki + 1, true, smin, c);
      for (std::int64_t k = 0; k <= ki; ++k) {
        X(k, ki - 1) = wc[k].real();
        X(k, ki) = wc[k].imag();
      }
      --ki;
    } else {
      const R lambda = T(ki, ki), smin = std::max(c.ulp * std::fabs(lambda), c.smlnum);
      wr[ki] = R(1);
      for (std::int64_t k = 0; k < ki; ++k) wr[k] = -T(k, ki);
      flops += back_substitute(T, cn, ki - 1, lambda, wr.data(), ki + 1, true, smin, c);
      for (std::int64_t k = 0; k <= ki; ++k) X(k, ki) = wr[k];
    }
  }
  return flops;
}

template <class C>
double trevc_complex(std::int64_t n, const C* t, std::int64_t ldt, C* x, std::int64_t ldx) {
  using R = typename C::value_type;
  const Mat<const C> T{t, ldt};
  const Mat<C> X{x, ldx};
  const Consts<R> c(n);
  const std::vector<R> cn = column_norms<C, R>(T, n);
  std::vector<C> w(static_cast<std::size_t>(n));
  double flops = 0;
  for (std::int64_t ki = n - 1; ki >= 0; --ki) {
    const C lambda = T(ki, ki);
    const R smin = std::max(c.ulp * cabs1(lambda), c.smlnum);
    w[ki] = C(1);
    for (std::int64_t k = 0; k < ki; ++k) w[k] = -T(k, ki);
    flops += back_substitute(T, cn, ki - 1, lambda, w.data(), ki + 1, false, smin, c);
    for (std::int64_t k = 0; k < n; ++k) X(k, ki) = k <= ki ? w[k] : C(0);
  }
  return flops;
}

}  // namespace

int lahqr(bool want_t, std::int64_t n, float* H, std::int64_t ldh, float* wr, float* wi, float* Z, std::int64_t ldz,
          double& flops) {
  return lahqr_real(want_t, n, H, ldh, wr, wi, Z, ldz, flops);
}
int lahqr(bool want_t, std::int64_t n, double* H, std::int64_t ldh, double* wr, double* wi, double* Z,
          std::int64_t ldz, double& flops) {
  return lahqr_real(want_t, n, H, ldh, wr, wi, Z, ldz, flops);
}
int lahqr(bool want_t, std::int64_t n, std::complex<float>* H, std::int64_t ldh, std::complex<float>* w,
          std::complex<float>* Z, std::int64_t ldz, double& flops) {
  return lahqr_complex(want_t, n, H, ldh, w, Z, ldz, flops);
}
int lahqr(bool want_t, std::int64_t n, std::complex<double>* H, std::int64_t ldh, std::complex<double>* w,
          std::complex<double>* Z, std::int64_t ldz, double& flops) {
  return lahqr_complex(want_t, n, H, ldh, w, Z, ldz, flops);
}
double trevc(std::int64_t n, const float* T, std::int64_t ldt, float* X, std::int64_t ldx) {
  return trevc_real(n, T, ldt, X, ldx);
}
double trevc(std::int64_t n, const double* T, std::int64_t ldt, double* X, std::int64_t ldx) {
  return trevc_real(n, T, ldt, X, ldx);
}
double trevc(std::int64_t n, const std::complex<float>* T, std::int64_t ldt, std::complex<float>* X, std::int64_t ldx) {
  return trevc_complex(n, T, ldt, X, ldx);
}
double trevc(std::int64_t n, const std::complex<double>* T, std::int64_t ldt, std::complex<double>* X,
             std::int64_t ldx) {
  return trevc_complex(n, T, ldt, X, ldx);
}

}  // namespace trn::solver::detail
