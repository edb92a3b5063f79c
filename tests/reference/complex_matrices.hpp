// Complex test matrices shared by the trnsolver tests and `trnsci validate`'s complex solver suites:
// Gaussian (re, im ~ N(0, 1), drawn in column order), Hermitian and Hermitian positive definite
// (B^H B / n + I, kappa modest), long-double products written here. Column-major, ld in elements.
#pragma once
#include <algorithm>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

namespace complex_matrix {

template <class T>
std::vector<T> random_matrix(std::int64_t rows, std::int64_t cols, std::int64_t ld, std::uint64_t seed) {
  using R = typename T::value_type;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd(0.0, 1.0);
  std::vector<T> a(static_cast<std::size_t>(ld * std::max<std::int64_t>(cols, 1)), T(0));
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) {
      const double re = nd(rng), im = nd(rng);
      a[i + j * ld] = T(static_cast<R>(re), static_cast<R>(im));
    }
  return a;
}

// Hermitian positive definite: B^H B / n + I, both triangles stored, exactly Hermitian after rounding.
template <class T>
std::vector<T> hpd_matrix(std::int64_t n, std::int64_t lda, std::uint64_t seed) {
  using R = typename T::value_type;
  using LC = std::complex<long double>;
  const std::vector<T> b = random_matrix<T>(n, n, n, seed);
  std::vector<T> a(static_cast<std::size_t>(lda * n), T(0));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      LC sum = 0;
      for (std::int64_t k = 0; k < n; ++k) sum += std::conj(LC(b[k + i * n])) * LC(b[k + j * n]);
      sum /= static_cast<long double>(n);
      if (i == j) sum = LC(sum.real() + 1.0L, 0);
      a[i + j * lda] = T(static_cast<R>(sum.real()), static_cast<R>(sum.imag()));
    }
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j + 1; i < n; ++i) a[j + i * lda] = std::conj(a[i + j * lda]);
  return a;
}

// Random Hermitian (both triangles; real diagonal), entries N(0, 1).
template <class T>
std::vector<T> hermitian_matrix(std::int64_t n, std::int64_t lda, std::uint64_t seed) {
  std::vector<T> a = random_matrix<T>(n, n, lda, seed);
  for (std::int64_t j = 0; j < n; ++j) {
    a[j + j * lda] = T(a[j + j * lda].real(), 0);
    for (std::int64_t i = j + 1; i < n; ++i) a[j + i * lda] = std::conj(a[i + j * lda]);
  }
  return a;
}

}  // namespace complex_matrix
