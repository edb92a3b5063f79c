// trnblas rotg / rotmg: the setup of a plane rotation from two scalars (docs/trnblas.md, "Levels 1
// and 2"). A handful of scalar operations on two elements: they run as host arithmetic on the
// library's side, as a device BLAS computes them in one thread; the rotations they produce are
// applied by rot / rotm on VectorE.
//
// rotg follows LAPACK 3.10's srotg.f90 / crotg.f90, which implement the safe scaling of Anderson,
// "Algorithm 978: Safe scaling in the Level 1 BLAS", ACM TOMS 44(1), 2017: the operands are scaled
// by a number between safmin and safmax before squaring, so r = sqrt(|a|^2 + |b|^2) neither
// overflows nor underflows unless r itself does. rotmg is the reference BLAS's srotmg/drotmg
// (Lawson, Hanson, Kincaid, Krogh, "Basic Linear Algebra Subprograms for Fortran usage", ACM TOMS
// 5(3), 1979, Algorithm 539), with the scale checks as corrected in 2018 (LAPACK issue #244).
#include <algorithm>
#include <cmath>
#include <limits>

#include "trn/blas/level12.hpp"

namespace trn::blas {
namespace {

// LAPACK's safmin = radix^max(minexponent - 1, 1 - maxexponent): the smallest normal number whose
// reciprocal does not overflow (2^-126 for float, 2^-1022 for double).
template <class T>
constexpr T safmin() {
  return std::numeric_limits<T>::min();
}

template <class T>
void rotg_real(T& a, T& b, T& c, T& s) {
  const T anorm = std::fabs(a), bnorm = std::fabs(b);
  if (bnorm == T(0)) {
    c = T(1);
    s = T(0);
    b = T(0);
    return;
  }
  if (anorm == T(0)) {
    c = T(0);
    s = T(1);
    a = b;
    b = T(1);
    return;
  }
  const T smin = safmin<T>(), smax = T(1) / smin;
  const T scl = std::min(smax, std::max({smin, anorm, bnorm}));
  const T sigma = anorm > bnorm ? std::copysign(T(1), a) : std::copysign(T(1), b);
  const T as = a / scl, bs = b / scl;
  const T r = sigma * (scl * std::sqrt(as * as + bs * bs));
  c = a / r;
  s = b / r;
  T z = T(1);
  if (anorm > bnorm) z = s;
  else if (c != T(0)) z = T(1) / c;
  a = r;
  b = z;
}

template <class T>
T abssq(std::complex<T> t) {
  return t.real() * t.real() + t.imag() * t.imag();
}
// Products written out (std::complex's operator* adds NaN/Inf recovery the Fortran code lacks).
template <class T>
std::complex<T> mul(std::complex<T> x, std::complex<T> y) {
  return {x.real() * y.real() - x.imag() * y.imag(), x.real() * y.imag() + x.imag() * y.real()};
}
template <class T>
std::complex<T> scaled(std::complex<T> x, T t) {
  return {x.real() * t, x.imag() * t};
}
template <class T>
std::complex<T> divided(std::complex<T> x, T t) {
  return {x.real() / t, x.imag() / t};
}

template <class T>
void rotg_complex(std::complex<T>& a, std::complex<T> b, T& c, std::complex<T>& s) {
  using C = std::complex<T>;
  const T smin = safmin<T>(), smax = T(1) / smin;
  const T rtmin = std::sqrt(smin), rtmax = std::sqrt(smax / T(4));
  const C f = a, g = b;
  C r;
  if (g == C(0)) {
    c = T(1);
    s = C(0);
    r = f;
  } else if (f == C(0)) {
    c = T(0);
    const T g1 = std::max(std::fabs(g.real()), std::fabs(g.imag()));
    if (g1 > rtmin && g1 < rtmax) {
      const T d = std::sqrt(abssq(g));
      s = divided(std::conj(g), d);
      r = C(d);
    } else {
      const T u = std::min(smax, std::max(smin, g1));
      const C gs = divided(g, u);
      const T d = std::sqrt(abssq(gs));
      s = divided(std::conj(gs), d);
      r = C(d * u);
    }
  } else {
    const T f1 = std::max(std::fabs(f.real()), std::fabs(f.imag()));
    const T g1 = std::max(std::fabs(g.real()), std::fabs(g.imag()));
    if (f1 > rtmin && f1 < rtmax && g1 > rtmin && g1 < rtmax) {
      const T f2 = abssq(f), g2 = abssq(g), h2 = f2 + g2;
      const T d = f2 > rtmin && h2 < rtmax ? std::sqrt(f2 * h2) : std::sqrt(f2) * std::sqrt(h2);
      const T p = T(1) / d;
      c = f2 * p;
      s = mul(std::conj(g), scaled(f, p));
      r = scaled(f, h2 * p);
    } else {
      const T u = std::min(smax, std::max({smin, f1, g1}));
      const C gs = divided(g, u);
      const T g2 = abssq(gs);
      T w = T(1), f2 = T(0), h2 = T(0);
      C fs;
      if (f1 / u < rtmin) {  // f is not well scaled by g's scale: its own scale v
        const T v = std::min(smax, std::max(smin, f1));
        w = v / u;
        fs = divided(f, v);
        f2 = abssq(fs);
        h2 = f2 * w * w + g2;
      } else {
        fs = divided(f, u);
        f2 = abssq(fs);
        h2 = f2 + g2;
      }
      const T d = f2 > rtmin && h2 < rtmax ? std::sqrt(f2 * h2) : std::sqrt(f2) * std::sqrt(h2);
      const T p = T(1) / d;
      c = (f2 * p) * w;
      s = mul(std::conj(gs), scaled(fs, p));
      r = scaled(scaled(fs, h2 * p), u);
    }
  }
  a = r;
}

template <class T>
void rotmg_t(T& d1, T& d2, T& x1, T y1, T* param) {
  // gam = 4096: d1, d2 are kept in [gam^-2, gam^2] by rescaling with exact powers of two.
  // (the reference spells 1/gam^2 as the literal 5.9604645e-8, kept for identical decisions)
  const T gam = T(4096), gamsq = gam * gam, rgamsq = T(5.9604645e-8);
  T flag = T(0), h11 = T(0), h12 = T(0), h21 = T(0), h22 = T(0);
  const auto zero_all = [&] {
    flag = T(-1);
    h11 = h12 = h21 = h22 = T(0);
    d1 = d2 = x1 = T(0);
  };
  if (d1 < T(0)) {
    zero_all();
  } else {
    const T p2 = d2 * y1;
    if (p2 == T(0)) {
      param[0] = T(-2);
      return;
    }
    const T p1 = d1 * x1, q2 = p2 * y1, q1 = p1 * x1;
    if (std::fabs(q1) > std::fabs(q2)) {
      h21 = -y1 / x1;
      h12 = p2 / p1;
      const T u = T(1) - h12 * h21;
      if (u > T(0)) {
        flag = T(0);
        d1 /= u;
        d2 /= u;
        x1 *= u;
      } else {
        zero_all();  // unreachable in exact arithmetic, kept as the 1979 original has it
      }
    } else if (q2 < T(0)) {
      zero_all();
    } else {
      flag = T(1);
      h11 = p1 / p2;
      h22 = x1 / y1;
      const T u = T(1) + h11 * h22;
      const T t = d2 / u;
      d2 = d1 / u;
      d1 = t;
      x1 = y1 * u;
    }
    // Rescaling makes H explicit (flag -1) first.
    const auto fix_h = [&] {
      if (flag == T(0)) {
        h11 = T(1);
        h22 = T(1);
      } else if (flag > T(0)) {
        h21 = T(-1);
        h12 = T(1);
      }
      flag = T(-1);
    };
    while (d1 <= rgamsq && d1 != T(0)) {
      fix_h();
      d1 *= gamsq;
      x1 /= gam;
      h11 /= gam;
      h12 /= gam;
    }
    while (d1 >= gamsq) {
      fix_h();
      d1 /= gamsq;
      x1 *= gam;
      h11 *= gam;
      h12 *= gam;
    }
    while (std::fabs(d2) <= rgamsq && d2 != T(0)) {
      fix_h();
      d2 *= gamsq;
      h21 /= gam;
      h22 /= gam;
    }
    while (std::fabs(d2) >= gamsq) {
      fix_h();
      d2 /= gamsq;
      h21 *= gam;
      h22 *= gam;
    }
  }
  if (flag < T(0)) {
    param[1] = h11;
    param[2] = h21;
    param[3] = h12;
    param[4] = h22;
  } else if (flag == T(0)) {
    param[2] = h21;
    param[3] = h12;
  } else {
    param[1] = h11;
    param[4] = h22;
  }
  param[0] = flag;
}

}  // namespace

void rotg(float& a, float& b, float& c, float& s) { rotg_real(a, b, c, s); }
void rotg(double& a, double& b, double& c, double& s) { rotg_real(a, b, c, s); }
void rotg(std::complex<float>& a, std::complex<float> b, float& c, std::complex<float>& s) { rotg_complex(a, b, c, s); }
void rotg(std::complex<double>& a, std::complex<double> b, double& c, std::complex<double>& s) {
  rotg_complex(a, b, c, s);
}
void rotmg(float& d1, float& d2, float& x1, float y1, float param[5]) { rotmg_t(d1, d2, x1, y1, param); }
void rotmg(double& d1, double& d2, double& x1, double y1, double param[5]) { rotmg_t(d1, d2, x1, y1, param); }

}  // namespace trn::blas
