// Problems with known answers for the C99 walkthroughs' checks (test_trnsolver_syevd.cpp,
// test_trnsolver_xeig.cpp): a symmetric 4 x 4 matrix with an exactly known spectrum, and the dense
// residual of eigenpairs.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace walkthrough {

// A = H diag(d) H for H = the 4 x 4 Sylvester-Hadamard matrix / 2 (symmetric and orthogonal): every entry
// is a multiple of 1/4, exact in double, and the spectrum is exactly d (ascending: -1, 2, 3, 5).
inline std::vector<double> hadamard_symmetric(const double (&d)[4] = {-1, 2, 3, 5}) {
  const int h[4][4] = {{1, 1, 1, 1}, {1, -1, 1, -1}, {1, 1, -1, -1}, {1, -1, -1, 1}};
  std::vector<double> a(16, 0.0);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) a[i + 4 * j] += 0.25 * h[i][k] * h[j][k] * d[k];
  return a;
}

// max |A v_j - w_j B v_j| over the first `cols` columns of V (n x n, column-major); B null: the identity.
inline double eigenpair_residual(int n, const double* A, const double* B, const double* V, const double* W, int cols) {
  double r = 0;
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < n; ++i) {
      double av = 0, bv = 0;
      for (int k = 0; k < n; ++k) {
        av += A[i + n * k] * V[k + n * j];
        bv += (B != nullptr ? B[i + n * k] : (i == k ? 1.0 : 0.0)) * V[k + n * j];
      }
      r = std::max(r, std::fabs(av - W[j] * bv));
    }
  return r;
}

// max |V^T B V - I| over the first `cols` columns (B null: the identity).
inline double orthonormality_error(int n, const double* B, const double* V, int cols) {
  double r = 0;
  for (int p = 0; p < cols; ++p)
    for (int q = 0; q < cols; ++q) {
      double s = 0;
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < n; ++k)
          s += V[i + n * p] * (B != nullptr ? B[i + n * k] : (i == k ? 1.0 : 0.0)) * V[k + n * q];
      r = std::max(r, std::fabs(s - (p == q ? 1.0 : 0.0)));
    }
  return r;
}

}  // namespace walkthrough
