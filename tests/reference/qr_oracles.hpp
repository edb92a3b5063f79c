// Error measures of a QR factorization, shared by the trnsolver QR tests and `trnsci validate`'s
// solver suite: long-double sums written here (independent of the library's kernels and of LAPACK).
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>

namespace qr_oracle {

using LD = std::complex<long double>;

template <class T>
LD wide(T x) {
  if constexpr (requires { x.imag(); }) return LD(x.real(), x.imag()); else return LD(x, 0);
}

// ||X||_F of the rows x cols matrix whose (i, j) element is at(i, j).
template <class F>
long double frob(std::int64_t rows, std::int64_t cols, F&& at) {
  long double s = 0;
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) s += std::norm(at(i, j));
  return std::sqrt(s);
}

struct QrErrors {
  double backward = 0;  // ||A - Q R||_F / ||A||_F
  double orth = 0;      // ||Q^H Q - I||_F
};

// a0: the m x n input (lda); f: geqrf's output (R on and above the diagonal, lda); q: the m x k matrix
// of Q's first k = min(m, n) columns (ldq).
template <class T>
QrErrors qr_errors(std::int64_t m, std::int64_t n, const T* a0, const T* f, std::int64_t lda, const T* q,
                   std::int64_t ldq) {
  const std::int64_t k = std::min(m, n);
  QrErrors e;
  const long double na = frob(m, n, [&](std::int64_t i, std::int64_t j) { return wide(a0[i + j * lda]); });
  e.backward = double(frob(m, n, [&](std::int64_t i, std::int64_t j) {
                 LD sum = 0;
                 for (std::int64_t l = 0; l <= std::min(j, k - 1); ++l) sum += wide(q[i + l * ldq]) * wide(f[l + j * lda]);
                 return wide(a0[i + j * lda]) - sum;
               }) / (na > 0 ? na : 1));
  e.orth = double(frob(k, k, [&](std::int64_t i, std::int64_t j) {
    LD sum = 0;
    for (std::int64_t l = 0; l < m; ++l) sum += std::conj(wide(q[l + i * ldq])) * wide(q[l + j * ldq]);
    return sum - LD(i == j ? 1 : 0);
  }));
  return e;
}

}  // namespace qr_oracle
