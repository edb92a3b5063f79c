// Independent references of the trnblas tests, `trnsci validate` and the benchmarks: random
// matrices (uniform, GEMMul8's phi generator), op(X) access, double-double dot products (Ogita,
// Rump, Oishi, "Accurate sum and dot product", SISC 2005, Dot2), fp64 products and the relative
// Frobenius error, an exact dot product (ExactSum: a big-integer accumulator) and Ogita-Rump-Oishi's
// ill-conditioned GenDot. No trnblas code: the BLAS ABI test, which links only the shim, uses it too.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace blastest {

inline std::vector<float> uniform_f(std::size_t n, std::uint64_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = u(rng);
  return v;
}

// GEMMul8's generator: (rand - 0.5) * exp(randn * phi), rand uniform in (0, 1].
inline std::vector<double> phi_matrix(std::size_t n, double phi, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> g(0.0, 1.0);
  std::vector<double> v(n);
  for (auto& x : v) x = (1.0 - u(rng) - 0.5) * std::exp(g(rng) * phi);
  return v;
}

// op(X)(r, c) of a column-major matrix.
template <class T>
inline T at(const std::vector<T>& X, std::int64_t ld, bool trans, std::int64_t r, std::int64_t c) {
  return trans ? X[static_cast<std::size_t>(c + r * ld)] : X[static_cast<std::size_t>(r + c * ld)];
}

// Double-double dot products (Ogita-Rump-Oishi Dot2): the GEMMul8 reference.
struct DD {
  double hi = 0, lo = 0;
};
inline void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}
inline void dd_add_prod(DD& acc, double a, double b) {
  const double p = a * b;
  const double pe = std::fma(a, b, -p);
  double s, e;
  two_sum(acc.hi, p, s, e);
  e += acc.lo + pe;
  acc.hi = s + e;
  acc.lo = e - (acc.hi - s);
}

// The Dot2 value of sum_p a(p) b(p) over k terms, a and b read through the callables.
template <class A, class B>
inline double dot2(std::int64_t k, A&& a, B&& b) {
  DD acc;
  for (std::int64_t p = 0; p < k; ++p) dd_add_prod(acc, a(p), b(p));
  return acc.hi + acc.lo;
}

// Exact sum of doubles: 32-bit limbs (in int64, carries kept apart) from bit 2^-1200 upwards (up
// to ~2^29 terms).
class ExactSum {
 public:
  void add(double v) {
    if (v == 0) return;
    int e;
    const double f = std::frexp(std::fabs(v), &e);  // |v| = f 2^e, f in [0.5, 1)
    const std::int64_t m = static_cast<std::int64_t>(std::ldexp(f, 53));  // |v| = m 2^(e - 53), exact
    const std::int64_t sign = v < 0 ? -1 : 1;
    const int pos = e - 53 + kOffset;  // bit position of m's unit (>= 0: |v| >= 2^-1074)
    const int limb = pos / 32, shift = pos % 32;
    // m 2^shift (< 2^85) in 32-bit pieces: each limb gains < 2^33 per term.
    const std::int64_t lo = (m & 0xffffffff) << shift, hi = (m >> 32) << shift;  // < 2^63, < 2^52
    limbs_[static_cast<std::size_t>(limb)] += sign * (lo & 0xffffffff);
    limbs_[static_cast<std::size_t>(limb + 1)] += sign * ((lo >> 32) + (hi & 0xffffffff));
    limbs_[static_cast<std::size_t>(limb + 2)] += sign * (hi >> 32);
  }
  // The exact sum rounded to nearest (ties to even); overflow gives +-inf.
  double rounded() const {
    std::vector<std::int64_t> l = limbs_;
    auto carry = [&] {  // every limb but the last into [0, 2^32)
      for (std::size_t i = 0; i + 1 < l.size(); ++i) {
        const std::int64_t c = l[i] >> 32;  // arithmetic shift: floor
        l[i] -= c * (std::int64_t{1} << 32);
        l[i + 1] += c;
      }
    };
    carry();
    const bool neg = l.back() < 0;
    if (neg) {
      for (auto& v : l) v = -v;
      carry();
    }
    int top = static_cast<int>(l.size()) - 1;
    while (top >= 0 && l[static_cast<std::size_t>(top)] == 0) --top;
    if (top < 0) return 0.0;
    // The leading 64 bits and a sticky bit.
    int hb = 31;
    while (((l[static_cast<std::size_t>(top)] >> hb) & 1) == 0) --hb;
    const int msb = top * 32 + hb;  // bit index of the leading one
    auto bit = [&](int i) -> int { return i < 0 ? 0 : static_cast<int>((l[static_cast<std::size_t>(i / 32)] >> (i % 32)) & 1); };
    std::uint64_t mant = 0;
    for (int i = msb; i > msb - 53; --i) mant = (mant << 1) | static_cast<std::uint64_t>(bit(i));
    const int rb = bit(msb - 53);
    bool sticky = false;
    for (int i = msb - 54; i >= 0 && !sticky; --i) sticky = bit(i) != 0;
    if (rb && (sticky || (mant & 1))) ++mant;
    const double r = std::ldexp(static_cast<double>(mant), msb - 52 - kOffset);
    return neg ? -r : r;
  }

 private:
  static constexpr int kOffset = 1200;
  std::vector<std::int64_t> limbs_ = std::vector<std::int64_t>(2 * kOffset / 32 + 8, 0);
};

// x^T y exactly, rounded once: TwoProduct by fma (exact unless the low part underflows; the data
// below keeps every product above 2^-900).
inline double exact_dot(const std::vector<double>& x, const std::vector<double>& y) {
  ExactSum s;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double p = x[i] * y[i];
    s.add(p);
    s.add(std::fma(x[i], y[i], -p));
  }
  return s.rounded();
}
// Ogita, Rump, Oishi (2005), Algorithm 6.1 (GenDot): x, y of length n with cond(x^T y) ~ c; the
// prefix dots are exact here (ExactSum) rather than Dot2.
inline void gen_dot(std::size_t n, double c, std::mt19937_64& g, std::vector<double>& x, std::vector<double>& y) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), r01(0.0, 1.0);
  const double b = std::log2(c);
  const std::size_t n2 = n / 2;
  x.assign(n, 0.0);
  y.assign(n, 0.0);
  for (std::size_t i = 0; i < n2; ++i) {
    int e = static_cast<int>(std::lround(r01(g) * b / 2));
    if (i == 0) e = static_cast<int>(std::lround(b / 2)) + 1;
    if (i + 1 == n2) e = 0;
    x[i] = std::ldexp(u(g), e);
    y[i] = std::ldexp(u(g), e);
  }
  for (std::size_t i = n2; i < n; ++i) {
    const double t = n - n2 > 1 ? static_cast<double>(i - n2) / static_cast<double>(n - n2 - 1) : 0.0;
    const int e = static_cast<int>(std::lround(b / 2 * (1 - t)));
    x[i] = std::ldexp(u(g), e);
    const std::vector<double> xp(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(i)),
        yp(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(i));
    y[i] = (std::ldexp(u(g), e) - exact_dot(xp, yp)) / x[i];
  }
  std::vector<std::size_t> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = i;
  std::shuffle(p.begin(), p.end(), g);
  const std::vector<double> x0 = x, y0 = y;
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = x0[p[i]];
    y[i] = y0[p[i]];
  }
}

// fp64 product of fp32 inputs (column-major n x n, ld = n).
inline std::vector<double> exact_product(const std::vector<float>& A, const std::vector<float>& B, int n) {
  std::vector<double> E(static_cast<std::size_t>(n) * n, 0.0);
  for (int j = 0; j < n; ++j)
    for (int p = 0; p < n; ++p) {
      const double b = B[static_cast<std::size_t>(p + j * n)];
      for (int i = 0; i < n; ++i) E[static_cast<std::size_t>(i + j * n)] += double(A[static_cast<std::size_t>(i + p * n)]) * b;
    }
  return E;
}

// Relative Frobenius error of C = op(A) op(B) (m x n, column-major, ldc = m) against the fp64
// product of the fp32 inputs.
inline double rel_frobenius(const std::vector<float>& C, const std::vector<float>& A, std::int64_t lda, bool ta,
                            const std::vector<float>& B, std::int64_t ldb, bool tb, int m, int n, int k) {
  double num = 0, den = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double r = 0;
      for (int p = 0; p < k; ++p) r += double(at(A, lda, ta, i, p)) * double(at(B, ldb, tb, p, j));
      const double d = C[static_cast<std::size_t>(i + j * m)] - r;
      num += d * d;
      den += r * r;
    }
  return std::sqrt(num / den);
}

}  // namespace blastest
