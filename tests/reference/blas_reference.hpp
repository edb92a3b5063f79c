// Independent references of the trnblas tests, `trnsci validate` and the benchmarks: random
// matrices (uniform, GEMMul8's phi generator), op(X) access, double-double dot products (Ogita,
// Rump, Oishi, "Accurate sum and dot product", SISC 2005, Dot2), fp64 products and the relative
// Frobenius error. No trnblas code: the BLAS ABI test, which links only the shim, uses it too.
#pragma once
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
