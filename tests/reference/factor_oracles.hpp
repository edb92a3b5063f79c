// Error measures of the complex Cholesky and LU factorisations and their solves, shared by the
// trnsolver tests and `trnsci validate`'s solver suite: long-double sums written here (independent of
// the library's kernels and of LAPACK). Column-major, ld in elements.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "qr_oracles.hpp"

namespace factor_oracle {

using qr_oracle::frob;
using qr_oracle::LD;
using qr_oracle::wide;

// ||A - L L^H||_F / ||A||_F (lower) or ||A - U^H U||_F / ||A||_F (upper) from potrf's output f.
template <class T>
double cholesky_backward(std::int64_t n, const T* a0, const T* f, std::int64_t lda, bool lower) {
  auto L = [&](std::int64_t i, std::int64_t j) -> LD {  // the factor as lower triangular L
    if (i < j) return 0;
    return lower ? wide(f[i + j * lda]) : std::conj(wide(f[j + i * lda]));
  };
  const long double na = frob(n, n, [&](std::int64_t i, std::int64_t j) { return wide(a0[i + j * lda]); });
  return double(frob(n, n, [&](std::int64_t i, std::int64_t j) {
           LD s = 0;
           for (std::int64_t k = 0; k <= std::min(i, j); ++k) s += L(i, k) * std::conj(L(j, k));
           return wide(a0[i + j * lda]) - s;
         }) / na);
}

// ||P A - L U||_F / ||A||_F from getrf's output f and pivots (ipiv nullptr: P = I).
template <class T>
double lu_backward(std::int64_t m, std::int64_t n, const T* a0, const T* f, std::int64_t lda, const int* ipiv) {
  std::vector<std::int64_t> perm(static_cast<std::size_t>(m));
  for (std::int64_t i = 0; i < m; ++i) perm[i] = i;
  for (std::int64_t k = 0; ipiv != nullptr && k < std::min(m, n); ++k) std::swap(perm[k], perm[ipiv[k] - 1]);
  const long double na = frob(m, n, [&](std::int64_t i, std::int64_t j) { return wide(a0[i + j * lda]); });
  return double(frob(m, n, [&](std::int64_t i, std::int64_t j) {
           LD s = 0;
           for (std::int64_t k = 0; k <= std::min({i, j, std::min(m, n) - 1}); ++k)
             s += (k == i ? LD(1) : wide(f[i + k * lda])) * wide(f[k + j * lda]);
           return wide(a0[perm[i] + j * lda]) - s;
         }) / na);
}

// ||B - op(A) X||_F / (||A||_F ||X||_F) with op(A)(i, k) = opa(i, k) (n x n).
template <class T, class OpA>
double solve_backward(std::int64_t n, std::int64_t nrhs, const T* a0, std::int64_t lda, OpA&& opa, const T* b0,
                      const T* x, std::int64_t ldb) {
  const long double na = frob(n, n, [&](std::int64_t i, std::int64_t j) { return wide(a0[i + j * lda]); });
  const long double nx = frob(n, nrhs, [&](std::int64_t i, std::int64_t j) { return wide(x[i + j * ldb]); });
  return double(frob(n, nrhs, [&](std::int64_t i, std::int64_t j) {
           LD t = wide(b0[i + j * ldb]);
           for (std::int64_t k = 0; k < n; ++k) t -= opa(i, k) * wide(x[k + j * ldb]);
           return t;
         }) / (na * nx));
}

// ||A V - V diag(w)||_F / ||A||_F and ||V^H V - I||_F of an eigendecomposition (A n x n with ld lda, V
// n x n with ld ldv, both complete: the Hermitian A stored in both triangles).
template <class T, class R>
double eig_residual(std::int64_t n, const T* a, std::int64_t lda, const T* v, std::int64_t ldv, const R* w) {
  const long double na = frob(n, n, [&](std::int64_t i, std::int64_t j) { return wide(a[i + j * lda]); });
  return double(frob(n, n, [&](std::int64_t i, std::int64_t j) {
           LD t = -wide(v[i + j * ldv]) * static_cast<long double>(w[j]);
           for (std::int64_t k = 0; k < n; ++k) t += wide(a[i + k * lda]) * wide(v[k + j * ldv]);
           return t;
         }) / na);
}
template <class T>
double orthogonality(std::int64_t n, const T* v, std::int64_t ldv) {
  return double(frob(n, n, [&](std::int64_t i, std::int64_t j) {
    LD t = i == j ? LD(-1) : LD(0);
    for (std::int64_t k = 0; k < n; ++k) t += std::conj(wide(v[k + i * ldv])) * wide(v[k + j * ldv]);
    return t;
  }));
}

}  // namespace factor_oracle
