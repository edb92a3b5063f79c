// gesvd (S, D) and Xgesvd through the C API: every jobu / jobvt combination ('A', 'S', 'O', 'N', not
// both 'O') against LAPACKE dgesvd's singular values, the orthogonality of what is returned and the
// reconstruction A = U S V^T when both are; argument positions (n > m rejected at n) with outputs
// untouched; Xgesvd bit for bit Dgesvd/Sgesvd; the project's own C99 walkthrough of gesvd / Xgesvd.
//
// Bounds (docs/trnsolver.md "gesvd", those of gesvdj): |sigma - sigma_ref| <= 8 max(m, n) u sigma_1;
// ||U^T U - I||_F, ||V V^T - I||_F <= 8 n^1.5 u; ||A - U S V^T||_F <= 8 n^1.5 u ||A||_F.
#include <gtest/gtest.h>
#include <lapacke.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "trnsolver.h"

extern "C" int trnsolver_walkthrough_gesvd(int x, int m, int n, const double* A, double* S, double* U, double* VT,
                                           double* r_err, int* info);

namespace {

template <class T>
void check_jobs(int m, int n, char jobu, char jobvt, std::uint64_t seed) {
  SCOPED_TRACE(testing::Message() << (sizeof(T) == 4 ? "S" : "D") << " m " << m << " n " << n << " jobu " << jobu
                                  << " jobvt " << jobvt);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd;
  const int lda = m + 1;
  std::vector<T> a(static_cast<std::size_t>(lda) * n);
  for (auto& x : a) x = static_cast<T>(nd(rng));
  const auto a0 = a;
  std::vector<double> ref(a.begin(), a.end()), sref(n), dummy(1);
  std::vector<double> superb(static_cast<std::size_t>(n));
  ASSERT_EQ(LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, ref.data(), lda, sref.data(), dummy.data(), 1,
                           dummy.data(), 1, superb.data()),
            0);
  trnsolverDnHandle_t h;
  ASSERT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
  const int ldu = m, ldvt = n;
  std::vector<T> s(n), u(static_cast<std::size_t>(ldu) * m, T(7)), vt(static_cast<std::size_t>(ldvt) * n, T(7));
  int lwork = 0, info = -1;
  std::vector<T> work(4);
  if constexpr (sizeof(T) == 4) {
    ASSERT_EQ(trnsolverDnSgesvd_bufferSize(h, m, n, &lwork), TRNSOLVER_STATUS_SUCCESS);
    ASSERT_EQ(trnsolverDnSgesvd(h, jobu, jobvt, m, n, a.data(), lda, s.data(), u.data(), ldu, vt.data(), ldvt,
                                work.data(), lwork, nullptr, &info),
              TRNSOLVER_STATUS_SUCCESS);
  } else {
    ASSERT_EQ(trnsolverDnDgesvd_bufferSize(h, m, n, &lwork), TRNSOLVER_STATUS_SUCCESS);
    ASSERT_EQ(trnsolverDnDgesvd(h, jobu, jobvt, m, n, a.data(), lda, s.data(), u.data(), ldu, vt.data(), ldvt,
                                work.data(), lwork, nullptr, &info),
              TRNSOLVER_STATUS_SUCCESS);
  }
  EXPECT_EQ(info, 0);
  const double u_ = sizeof(T) == 4 ? 0x1p-24 : 0x1p-53, bound = 8 * std::pow(n, 1.5) * u_;
  for (int k = 0; k < n; ++k) EXPECT_NEAR(s[k], sref[k], 8 * m * u_ * sref[0]) << k;
  // U (m x ucols, ld lu) and V^T (n x n, ld lv) from where the job put them.
  const int ucols = jobu == 'A' ? m : n;
  const T* U = jobu == 'O' ? a.data() : u.data();
  const int lu = jobu == 'O' ? lda : ldu;
  const T* VT = jobvt == 'O' ? a.data() : vt.data();
  const int lv = jobvt == 'O' ? lda : ldvt;
  if (jobu != 'N') {
    double o = 0;
    for (int j = 0; j < ucols; ++j)
      for (int i = 0; i < ucols; ++i) {
        long double d = i == j ? -1 : 0;
        for (int k = 0; k < m; ++k) d += (long double)U[k + i * lu] * U[k + j * lu];
        o += (double)(d * d);
      }
    EXPECT_LE(std::sqrt(o), bound * (jobu == 'A' ? std::pow(double(m) / n, 1.5) : 1.0));
  } else {
    EXPECT_EQ(u[0], T(7));  // not written
  }
  if (jobvt != 'N') {
    double o = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        long double d = i == j ? -1 : 0;
        for (int k = 0; k < n; ++k) d += (long double)VT[i + k * lv] * VT[j + k * lv];
        o += (double)(d * d);
      }
    EXPECT_LE(std::sqrt(o), bound);
  } else {
    EXPECT_EQ(vt[0], T(7));
  }
  if (jobu != 'N' && jobvt != 'N') {
    double r = 0, an = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        long double x = a0[i + j * lda];
        for (int k = 0; k < n; ++k) x -= (long double)U[i + k * lu] * s[k] * VT[k + j * lv];
        r += (double)(x * x);
        an += double(a0[i + j * lda]) * a0[i + j * lda];
      }
    EXPECT_LE(std::sqrt(r), bound * std::sqrt(an));
  }
  trnsolverDnDestroy(h);
}

TEST(TrnsolverGesvd, EveryJobCombinationAgainstDgesvd) {
  std::uint64_t seed = 900;
  for (char ju : {'A', 'S', 'O', 'N'})
    for (char jv : {'A', 'S', 'O', 'N'}) {
      if (ju == 'O' && jv == 'O') continue;
      check_jobs<double>(13, 9, ju, jv, seed++);
      check_jobs<float>(12, 12, ju, jv, seed++);
    }
  check_jobs<float>(70, 40, 'A', 'A', seed++);
}

TEST(TrnsolverGesvd, XgesvdSameBitsAndArgumentPositions) {
  trnsolverDnHandle_t h;
  trnsolverDnParams_t p;
  ASSERT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnCreateParams(&p), TRNSOLVER_STATUS_SUCCESS);
  const int m = 6, n = 4;
  std::vector<double> a(static_cast<std::size_t>(m) * n);
  for (int i = 0; i < m * n; ++i) a[i] = std::sin(1.0 + i * i);
  auto a1 = a, a2 = a;
  std::vector<double> s1(n), s2(n), u1(m * m), u2(m * m), v1(n * n), v2(n * n), work(4);
  int i1 = -1, i2 = -1;
  ASSERT_EQ(trnsolverDnDgesvd(h, 'S', 'A', m, n, a1.data(), m, s1.data(), u1.data(), m, v1.data(), n, work.data(), 1,
                              nullptr, &i1),
            TRNSOLVER_STATUS_SUCCESS);
  size_t dev = 0, host = 1;
  const auto D = TRN_R_64F;
  ASSERT_EQ(trnsolverDnXgesvd_bufferSize(h, p, 'S', 'A', m, n, D, a2.data(), m, D, s2.data(), D, u2.data(), m, D,
                                         v2.data(), n, D, &dev, &host),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(host, 0u);
  std::vector<unsigned char> dw(dev);
  ASSERT_EQ(trnsolverDnXgesvd(h, p, 'S', 'A', m, n, D, a2.data(), m, D, s2.data(), D, u2.data(), m, D, v2.data(), n, D,
                              dw.data(), dev, nullptr, 0, &i2),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(i1, 0);
  EXPECT_EQ(i2, 0);
  EXPECT_EQ(s1, s2);
  EXPECT_EQ(u1, u2);
  EXPECT_EQ(v1, v2);
  // Positions (legacy): INVALID_VALUE, info = -position, nothing written.
  const auto a0 = a, s0 = s1, u0 = u1, v0 = v1;
  auto run = [&](int pos, signed char ju, signed char jv, int mm, int nn, double* A, int lda, double* S, double* U,
                 int ldu, double* VT, int ldvt, double* wk, int lw) {
    int info = 99;
    EXPECT_EQ(trnsolverDnDgesvd(h, ju, jv, mm, nn, A, lda, S, U, ldu, VT, ldvt, wk, lw, nullptr, &info),
              TRNSOLVER_STATUS_INVALID_VALUE)
        << pos;
    EXPECT_EQ(info, -pos);
    EXPECT_EQ(a, a0);
    EXPECT_EQ(s1, s0);
    EXPECT_EQ(u1, u0);
    EXPECT_EQ(v1, v0);
  };
  double* A = a.data();
  run(1, 'X', 'A', m, n, A, m, s1.data(), u1.data(), m, v1.data(), n, work.data(), 1);
  run(2, 'A', 'Q', m, n, A, m, s1.data(), u1.data(), m, v1.data(), n, work.data(), 1);
  run(2, 'O', 'O', m, n, A, m, s1.data(), u1.data(), m, v1.data(), n, work.data(), 1);
  run(3, 'A', 'A', -1, n, A, m, s1.data(), u1.data(), m, v1.data(), n, work.data(), 1);
  run(4, 'A', 'A', n, m, A, m, s1.data(), u1.data(), m, v1.data(), n, work.data(), 1);  // n > m
  run(5, 'A', 'A', m, n, nullptr, m, s1.data(), u1.data(), m, v1.data(), n, work.data(), 1);
  run(6, 'A', 'A', m, n, A, m - 1, s1.data(), u1.data(), m, v1.data(), n, work.data(), 1);
  run(7, 'A', 'A', m, n, A, m, nullptr, u1.data(), m, v1.data(), n, work.data(), 1);
  run(8, 'A', 'A', m, n, A, m, s1.data(), nullptr, m, v1.data(), n, work.data(), 1);
  run(9, 'S', 'A', m, n, A, m, s1.data(), u1.data(), m - 1, v1.data(), n, work.data(), 1);
  run(10, 'A', 'S', m, n, A, m, s1.data(), u1.data(), m, nullptr, n, work.data(), 1);
  run(11, 'A', 'A', m, n, A, m, s1.data(), u1.data(), m, v1.data(), n - 1, work.data(), 1);
  run(12, 'A', 'A', m, n, A, m, s1.data(), u1.data(), m, v1.data(), n, nullptr, 1);
  run(13, 'A', 'A', m, n, A, m, s1.data(), u1.data(), m, v1.data(), n, work.data(), 0);
  // Xgesvd: mixed types NOT_SUPPORTED (complex data needs S of the real type: test_trnsolver_svd_family.cpp);
  // n > m at position 5.
  int info = 0;
  EXPECT_EQ(trnsolverDnXgesvd(h, p, 'A', 'A', m, n, TRN_C_64F, a.data(), m, TRN_C_64F, s1.data(), TRN_C_64F, u1.data(), m,
                              TRN_C_64F, v1.data(), n, TRN_C_64F, dw.data(), dev, nullptr, 0, &info),
            TRNSOLVER_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(trnsolverDnXgesvd(h, p, 'A', 'A', n, m, D, a.data(), m, D, s1.data(), D, u1.data(), m, D, v1.data(), n, D,
                              dw.data(), dev, nullptr, 0, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -5);
  EXPECT_EQ(a, a0);
  trnsolverDnDestroyParams(p);
  trnsolverDnDestroy(h);
}

// The C99 walkthrough of the gesvd / Xgesvd call sequences (trnsolver_c_svd_walkthroughs.c) on a 5 x 3
// integer matrix of this test: S against LAPACKE_dgesvd, ||A - U S VT||_F as trnblas computes it and by
// a dense loop here, U and VT orthogonal (bounds of docs/trnsolver.md "gesvd").
TEST(TrnsolverGesvd, SamplesPrintTheirDocumentedResults) {
  const int m = 5, n = 3;
  const double A[15] = {2, 0, -1, 3, 1, -1, 4, 2, 0, 1, 3, 1, 5, -2, 0};
  double ref_a[15], ref_s[3], ref_u[25], ref_vt[9], superb[2];
  std::memcpy(ref_a, A, sizeof A);
  ASSERT_EQ(LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, ref_a, m, ref_s, ref_u, m, ref_vt, n, superb), 0);
  const double u = 0x1p-53, bound = 8 * std::pow(double(n), 1.5) * u;
  double fro = 0;
  for (double v : A) fro += v * v;
  fro = std::sqrt(fro);
  for (int x = 0; x <= 1; ++x) {
    SCOPED_TRACE(x ? "Xgesvd" : "gesvd");
    double S[3], U[25], VT[9], r_err = 1;
    int info = -1;
    ASSERT_EQ(trnsolver_walkthrough_gesvd(x, m, n, A, S, U, VT, &r_err, &info), 0);
    EXPECT_EQ(info, 0);
    for (int k = 0; k < n; ++k) EXPECT_NEAR(S[k], ref_s[k], 8 * m * u * ref_s[0]) << k;
    double r2 = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        double e = A[i + m * j];
        for (int k = 0; k < n; ++k) e -= U[i + m * k] * S[k] * VT[k + n * j];
        r2 += e * e;
      }
    EXPECT_LE(std::sqrt(r2), bound * fro);
    EXPECT_NEAR(r_err, std::sqrt(r2), bound * fro);
    for (int p = 0; p < m; ++p)  // U^T U = I (m x m) and VT VT^T = I
      for (int q = 0; q < m; ++q) {
        double s = 0;
        for (int i = 0; i < m; ++i) s += U[i + m * p] * U[i + m * q];
        EXPECT_NEAR(s, p == q ? 1.0 : 0.0, bound) << p << "," << q;
      }
    for (int p = 0; p < n; ++p)
      for (int q = 0; q < n; ++q) {
        double s = 0;
        for (int i = 0; i < n; ++i) s += VT[p + n * i] * VT[q + n * i];
        EXPECT_NEAR(s, p == q ? 1.0 : 0.0, bound) << p << "," << q;
      }
  }
}

}  // namespace
