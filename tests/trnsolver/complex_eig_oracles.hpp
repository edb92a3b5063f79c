// LAPACKE oracles of the complex eigen tests (test_trnsolver_complex, test_trnsolver_complex_eig): the
// eigenvalues of a Hermitian matrix by zheevd in double complex (ascending; the lower triangle read).
// LAPACKE is an oracle here only, never in the library.
#pragma once
#include <gtest/gtest.h>
#include <lapacke.h>

#include <complex>
#include <cstdint>
#include <vector>

template <class T>
std::vector<double> zheevd_values(std::int64_t n, const std::vector<T>& a, std::int64_t lda) {
  std::vector<std::complex<double>> z(a.begin(), a.end());
  std::vector<double> w(static_cast<std::size_t>(n));
  EXPECT_EQ(LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', 'L', static_cast<lapack_int>(n),
                           reinterpret_cast<lapack_complex_double*>(z.data()), static_cast<lapack_int>(lda), w.data()),
            0);
  return w;
}
