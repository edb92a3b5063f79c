// The 64-bit generic API of the symmetric eigensolver (Xsyevd, Xsyevdx, XsyevBatched): the same bits
// as the 32-bit Ssyevd/Dsyevd/Ssyevdx/Dsyevdx entry points for the same data (one kernel behind both),
// XsyevBatched per matrix equal to Xsyevd of that matrix, eigenvalues against LAPACKE dsyevd,
// NOT_SUPPORTED for the complex and mixed types, argument positions (params 1) with outputs untouched,
// and the project's own C99 walkthroughs of Xsyevd / Xsyevdx (trnsolver_c_eig_walkthroughs.c). Xtrtri: against
// LAPACKE dtrtri, ||T X - I|| bound (Higham, Accuracy and Stability, section 14.2: the residual of a
// substitution-computed inverse is <= c n u |T||X|), the other triangle untouched, a zero diagonal
// (info i, nothing written), positions, and the C99 walkthrough of Xtrtri; complex Xtrtri (C_32F, C_64F)
// against LAPACKE ztrtri with the same checks.
#include <gtest/gtest.h>
#include <lapacke.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "trn/solver/eig.hpp"
#include "trnsolver.h"
#include "walkthrough_problems.hpp"

extern "C" int trnsolver_walkthrough_xsyevd(int x_range, std::int64_t n, const double* A, double* V, double* W,
                                            std::int64_t* meig, int* info);
extern "C" int trnsolver_walkthrough_xtrtri(std::int64_t n, const double* A, double* A_inv, double* res_norm, int* info);

namespace {

std::vector<double> random_symmetric(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd;
  std::vector<double> a(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) a[i + j * n] = a[j + i * n] = nd(rng);
  return a;
}

struct Fixture {
  trnsolverDnHandle_t h = nullptr;
  trnsolverDnParams_t p = nullptr;
  Fixture() {
    EXPECT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(trnsolverDnCreateParams(&p), TRNSOLVER_STATUS_SUCCESS);
  }
  ~Fixture() {
    trnsolverDnDestroyParams(p);
    trnsolverDnDestroy(h);
  }
};

template <class T>
void same_as_legacy(int n, trnblasFillMode_t uplo, std::uint64_t seed) {
  SCOPED_TRACE(testing::Message() << "n " << n << (sizeof(T) == 4 ? " S" : " D"));
  Fixture f;
  const auto a64 = random_symmetric(n, seed);
  const std::vector<T> a(a64.begin(), a64.end());
  constexpr trnDataType_t dt = sizeof(T) == 4 ? TRN_R_32F : TRN_R_64F;
  const auto V = TRNSOLVER_EIG_MODE_VECTOR;
  // Legacy.
  std::vector<T> la = a, lw(static_cast<std::size_t>(n)), xa = a, xw(lw.size());
  int lwork = 0, info = -1, xinfo = -1;
  if constexpr (sizeof(T) == 4) {
    ASSERT_EQ(trnsolverDnSsyevd_bufferSize(f.h, V, uplo, n, la.data(), n, lw.data(), &lwork), TRNSOLVER_STATUS_SUCCESS);
    std::vector<T> work(static_cast<std::size_t>(lwork));
    ASSERT_EQ(trnsolverDnSsyevd(f.h, V, uplo, n, la.data(), n, lw.data(), work.data(), lwork, &info),
              TRNSOLVER_STATUS_SUCCESS);
  } else {
    ASSERT_EQ(trnsolverDnDsyevd_bufferSize(f.h, V, uplo, n, la.data(), n, lw.data(), &lwork), TRNSOLVER_STATUS_SUCCESS);
    std::vector<T> work(static_cast<std::size_t>(lwork));
    ASSERT_EQ(trnsolverDnDsyevd(f.h, V, uplo, n, la.data(), n, lw.data(), work.data(), lwork, &info),
              TRNSOLVER_STATUS_SUCCESS);
  }
  size_t dev = 0, host = 7;
  ASSERT_EQ(trnsolverDnXsyevd_bufferSize(f.h, f.p, V, uplo, n, dt, xa.data(), n, dt, xw.data(), dt, &dev, &host),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(dev, sizeof(T) * static_cast<std::size_t>(lwork));
  EXPECT_EQ(host, 0u);
  std::vector<unsigned char> dwork(dev);
  ASSERT_EQ(trnsolverDnXsyevd(f.h, f.p, V, uplo, n, dt, xa.data(), n, dt, xw.data(), dt, dwork.data(), dev, nullptr, 0,
                              &xinfo),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_EQ(xinfo, 0);
  EXPECT_EQ(0, std::memcmp(la.data(), xa.data(), la.size() * sizeof(T)));
  EXPECT_EQ(0, std::memcmp(lw.data(), xw.data(), lw.size() * sizeof(T)));
  // Against dsyevd.
  std::vector<double> r(a.begin(), a.end()), rw(static_cast<std::size_t>(n));
  ASSERT_EQ(LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, r.data(), n, rw.data()), 0);
  const double u = sizeof(T) == 4 ? 0x1p-24 : 0x1p-53, a2 = std::max(std::fabs(rw.front()), std::fabs(rw.back()));
  for (int k = 0; k < n; ++k) EXPECT_NEAR(xw[k], rw[k], n * u * a2);
  // Xsyevdx, range V around the middle of the spectrum, against Ssyevdx/Dsyevdx.
  T vl = static_cast<T>(rw[n / 4] - 1e-3), vu = static_cast<T>(rw[3 * n / 4] + 1e-3);
  std::vector<T> ya = a, yw(lw.size()), za = a, zw(lw.size());
  int meig = -1, yinfo = -1, zinfo = -1;
  std::int64_t meig64 = -1;
  const auto RV = TRNSOLVER_EIG_RANGE_V;
  std::vector<T> work(static_cast<std::size_t>(lwork));
  if constexpr (sizeof(T) == 4)
    ASSERT_EQ(trnsolverDnSsyevdx(f.h, V, RV, uplo, n, ya.data(), n, vl, vu, 0, 0, &meig, yw.data(), work.data(), lwork,
                                 &yinfo),
              TRNSOLVER_STATUS_SUCCESS);
  else
    ASSERT_EQ(trnsolverDnDsyevdx(f.h, V, RV, uplo, n, ya.data(), n, vl, vu, 0, 0, &meig, yw.data(), work.data(), lwork,
                                 &yinfo),
              TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnXsyevdx_bufferSize(f.h, f.p, V, RV, uplo, n, dt, za.data(), n, &vl, &vu, 0, 0, &meig64, dt,
                                          zw.data(), dt, &dev, &host),
            TRNSOLVER_STATUS_SUCCESS);
  dwork.resize(dev);
  ASSERT_EQ(trnsolverDnXsyevdx(f.h, f.p, V, RV, uplo, n, dt, za.data(), n, &vl, &vu, 0, 0, &meig64, dt, zw.data(), dt,
                               dwork.data(), dev, nullptr, 0, &zinfo),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(zinfo, 0);
  EXPECT_EQ(meig64, meig);
  EXPECT_EQ(meig, 3 * n / 4 - n / 4 + 1);
  EXPECT_EQ(0, std::memcmp(ya.data(), za.data(), ya.size() * sizeof(T)));
  EXPECT_EQ(0, std::memcmp(yw.data(), zw.data(), yw.size() * sizeof(T)));
}

TEST(TrnsolverXsyevd, SameBitsAsTheLegacyEntryPoints) {
  same_as_legacy<float>(40, TRNBLAS_FILL_MODE_LOWER, 11);
  same_as_legacy<double>(40, TRNBLAS_FILL_MODE_UPPER, 12);
  same_as_legacy<double>(7, TRNBLAS_FILL_MODE_LOWER, 13);
}

TEST(TrnsolverXsyevd, BatchedIsXsyevdPerMatrix) {
  Fixture f;
  const int n = 9, lda = 11, batch = 3;
  std::vector<double> a(static_cast<std::size_t>(lda) * n * batch, 0.0);
  for (int k = 0; k < batch; ++k) {
    const auto m = random_symmetric(n, 40 + k);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) a[i + j * lda + k * lda * n] = m[i + j * n];
  }
  if (batch > 1) a[3 + 2 * lda + lda * n] = NAN;  // matrix 1 holds a NaN in its lower triangle: info[1] = n
  std::vector<double> b = a, w(static_cast<std::size_t>(n) * batch);
  std::vector<int> info(batch, -1);
  const auto V = TRNSOLVER_EIG_MODE_VECTOR;
  const auto L = TRNBLAS_FILL_MODE_LOWER;
  size_t dev = 0, host = 0;
  ASSERT_EQ(trnsolverDnXsyevBatched_bufferSize(f.h, f.p, V, L, n, TRN_R_64F, b.data(), lda, TRN_R_64F, w.data(),
                                               TRN_R_64F, &dev, &host, batch),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<unsigned char> dwork(dev);
  ASSERT_EQ(trnsolverDnXsyevBatched(f.h, f.p, V, L, n, TRN_R_64F, b.data(), lda, TRN_R_64F, w.data(), TRN_R_64F,
                                    dwork.data(), dev, nullptr, 0, info.data(), batch),
            TRNSOLVER_STATUS_SUCCESS);
  for (int k = 0; k < batch; ++k) {
    SCOPED_TRACE(k);
    std::vector<double> one(a.begin() + k * lda * n, a.begin() + (k + 1) * lda * n), w1(n);
    int i1 = -1;
    ASSERT_EQ(trnsolverDnXsyevd(f.h, f.p, V, L, n, TRN_R_64F, one.data(), lda, TRN_R_64F, w1.data(), TRN_R_64F,
                                dwork.data(), dev, nullptr, 0, &i1),
              TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(info[k], i1);
    EXPECT_EQ(i1, k == 1 ? n : 0);
    EXPECT_EQ(0, std::memcmp(one.data(), b.data() + k * lda * n, one.size() * sizeof(double)));
    EXPECT_EQ(0, std::memcmp(w1.data(), w.data() + k * n, w1.size() * sizeof(double)));
  }
}

TEST(TrnsolverXsyevd, TypesAndArgumentPositions) {
  Fixture f;
  const int n = 4;
  std::vector<double> a(16, 1.0), w(4, -3.0), work(4096);
  for (int i = 0; i < n; ++i) a[i + i * n] = 2.0 + i;
  const auto a0 = a, w0 = w;
  const auto V = TRNSOLVER_EIG_MODE_VECTOR;
  const auto L = TRNBLAS_FILL_MODE_LOWER;
  const auto D = TRN_R_64F;
  const size_t dev = sizeof(double) * work.size();
  int info = 0;
  auto expect = [&](trnsolverStatus_t st, trnsolverStatus_t want, int pos, const char* what) {
    EXPECT_EQ(st, want) << what;
    if (want == TRNSOLVER_STATUS_INVALID_VALUE) {
      EXPECT_EQ(info, -pos) << what;
    }
    EXPECT_EQ(a, a0) << what;
    EXPECT_EQ(w, w0) << what;
    info = 0;
  };
  // Mixed types: NOT_SUPPORTED (complex data answers with W of its real type: test_trnsolver_complex_eig).
  expect(trnsolverDnXsyevd(f.h, f.p, V, L, n, TRN_C_64F, a.data(), n, TRN_R_32F, w.data(), TRN_C_64F, work.data(), dev,
                           nullptr, 0, &info),
         TRNSOLVER_STATUS_NOT_SUPPORTED, 0, "C_64F with W R_32F");
  expect(trnsolverDnXsyevd(f.h, f.p, V, L, n, D, a.data(), n, TRN_R_32F, w.data(), D, work.data(), dev, nullptr, 0,
                           &info),
         TRNSOLVER_STATUS_NOT_SUPPORTED, 0, "W R_32F");
  int bad = 77;
  trnsolverEigMode_t bad_jobz;
  std::memcpy(&bad_jobz, &bad, sizeof bad);
  trnsolverDnParams_t bad_params = reinterpret_cast<trnsolverDnParams_t>(&bad);
  const auto X = [&](trnsolverDnParams_t p, trnsolverEigMode_t jz, int64_t nn, double* A, int64_t lda, double* W,
                     void* bd, size_t db, void* bh, size_t hb, int* inf) {
    return trnsolverDnXsyevd(f.h, p, jz, L, nn, D, A, lda, D, W, D, bd, db, bh, hb, inf);
  };
  const auto IV = TRNSOLVER_STATUS_INVALID_VALUE;
  expect(X(bad_params, V, n, a.data(), n, w.data(), work.data(), dev, nullptr, 0, &info), IV, 1, "params");
  expect(X(f.p, bad_jobz, n, a.data(), n, w.data(), work.data(), dev, nullptr, 0, &info), IV, 2, "jobz");
  expect(X(f.p, V, -1, a.data(), n, w.data(), work.data(), dev, nullptr, 0, &info), IV, 4, "n");
  expect(X(f.p, V, n, nullptr, n, w.data(), work.data(), dev, nullptr, 0, &info), IV, 6, "A");
  expect(X(f.p, V, n, a.data(), n - 1, w.data(), work.data(), dev, nullptr, 0, &info), IV, 7, "lda");
  expect(X(f.p, V, n, a.data(), n, nullptr, work.data(), dev, nullptr, 0, &info), IV, 9, "W");
  expect(X(f.p, V, n, a.data(), n, w.data(), nullptr, dev, nullptr, 0, &info), IV, 11, "bufferOnDevice");
  expect(X(f.p, V, n, a.data(), n, w.data(), work.data(), 8, nullptr, 0, &info), IV, 12, "workspaceInBytesOnDevice");
  expect(X(f.p, V, n, a.data(), n, w.data(), work.data(), dev, nullptr, 16, &info), IV, 13, "bufferOnHost");
  EXPECT_EQ(X(f.p, V, n, a.data(), n, w.data(), work.data(), dev, nullptr, 0, nullptr), IV);
  // Xsyevdx: range V reads vl/vu (positions 9, 10), range I il/iu (11, 12), meig 13, W 15.
  double vl = 1.0, vu = 0.5;
  std::int64_t meig = -5;
  const auto XX = [&](trnsolverEigRange_t rg, void* pl, void* pu, int64_t il, int64_t iu, int64_t* m, double* W) {
    return trnsolverDnXsyevdx(f.h, f.p, V, rg, L, n, D, a.data(), n, pl, pu, il, iu, m, D, W, D, work.data(), dev,
                              nullptr, 0, &info);
  };
  const auto RV = TRNSOLVER_EIG_RANGE_V, RI = TRNSOLVER_EIG_RANGE_I;
  expect(XX(RV, nullptr, &vu, 0, 0, &meig, w.data()), IV, 9, "vl");
  expect(XX(RV, &vl, nullptr, 0, 0, &meig, w.data()), IV, 10, "vu NULL");
  expect(XX(RV, &vl, &vu, 0, 0, &meig, w.data()), IV, 10, "vl >= vu");
  expect(XX(RI, nullptr, nullptr, 0, 2, &meig, w.data()), IV, 11, "il");
  expect(XX(RI, nullptr, nullptr, 1, 5, &meig, w.data()), IV, 12, "iu");
  expect(XX(RI, nullptr, nullptr, 1, 2, nullptr, w.data()), IV, 13, "meig");
  expect(XX(RI, nullptr, nullptr, 1, 2, &meig, nullptr), IV, 15, "W");
  EXPECT_EQ(meig, -5);
  // XsyevBatched: batchSize 16 (13 in _bufferSize).
  size_t d = 0, hb = 0;
  EXPECT_EQ(trnsolverDnXsyevBatched_bufferSize(f.h, f.p, V, L, n, D, a.data(), n, D, w.data(), D, &d, &hb, -1), IV);
  expect(trnsolverDnXsyevBatched(f.h, f.p, V, L, n, D, a.data(), n, D, w.data(), D, work.data(), dev, nullptr, 0, &info,
                                 -1),
         IV, 16, "batchSize");
}

// The C99 walkthroughs of the Xsyevd and Xsyevdx (range ALL) call sequences (trnsolver_c_eig_walkthroughs.c)
// on a 4 x 4 matrix with the exactly known spectrum (-1, 2, 3, 5): W, A V = V W, V orthonormal.
TEST(TrnsolverXsyevd, SamplesPrintTheirDocumentedResults) {
  const auto A = walkthrough::hadamard_symmetric();
  const double lambda[4] = {-1, 2, 3, 5};
  for (int x = 0; x <= 1; ++x) {
    SCOPED_TRACE(x ? "Xsyevdx" : "Xsyevd");
    double V[16], W[4];
    std::int64_t meig = -1;
    int info = -1;
    ASSERT_EQ(trnsolver_walkthrough_xsyevd(x, 4, A.data(), V, W, &meig, &info), 0);
    EXPECT_EQ(info, 0);
    EXPECT_EQ(meig, 4);
    for (int k = 0; k < 4; ++k) EXPECT_NEAR(W[k], lambda[k], 1e-14 * 5) << k;
    EXPECT_LE(walkthrough::eigenpair_residual(4, A.data(), nullptr, V, W, 4), 1e-14 * 5 * 4);
    EXPECT_LE(walkthrough::orthonormality_error(4, nullptr, V, 4), 1e-14 * 4);
  }
}

template <class T>
void check_xtrtri(int n, trnblasFillMode_t uplo, trnblasDiagType_t diag, std::uint64_t seed) {
  SCOPED_TRACE(testing::Message() << (sizeof(T) == 4 ? "S" : "D") << " n " << n << " uplo " << uplo << " diag " << diag);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> ud(-1, 1);
  const int lda = n + 2;
  const bool lower = uplo == TRNBLAS_FILL_MODE_LOWER, unit = diag == TRNBLAS_DIAG_UNIT;
  std::vector<T> a(static_cast<std::size_t>(lda) * n, std::numeric_limits<T>::quiet_NaN());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (lower ? i >= j : i <= j) a[i + j * lda] = static_cast<T>(i == j ? (unit ? 1e30 : 2.0 + ud(rng)) : ud(rng) / n);
  const auto a0 = a;
  Fixture f;
  constexpr trnDataType_t dt = sizeof(T) == 4 ? TRN_R_32F : TRN_R_64F;
  size_t dev = 0, host = 3;
  ASSERT_EQ(trnsolverDnXtrtri_bufferSize(f.h, uplo, diag, n, dt, a.data(), lda, &dev, &host), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(host, 0u);
  std::vector<unsigned char> work(dev);
  int info = -1;
  ASSERT_EQ(trnsolverDnXtrtri(f.h, uplo, diag, n, dt, a.data(), lda, work.data(), dev, nullptr, 0, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  // Reference (fp64 LAPACKE on the same values) and the residual T X - I with T's unit diagonal.
  std::vector<double> ref(a0.begin(), a0.end());
  ASSERT_EQ(LAPACKE_dtrtri(LAPACK_COL_MAJOR, lower ? 'L' : 'U', unit ? 'U' : 'N', n, ref.data(), lda), 0);
  const double u = sizeof(T) == 4 ? 0x1p-24 : 0x1p-53;
  auto tri = [&](const auto& m, int i, int j) -> double {
    if (i == j && unit) return 1.0;
    return (lower ? i >= j : i <= j) ? double(m[i + j * lda]) : 0.0;
  };
  double rmax = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      if (!(lower ? i >= j : i <= j)) {
        EXPECT_TRUE(std::isnan(a[i + j * lda])) << "other triangle written at " << i << "," << j;
        continue;
      }
      if (unit && i == j) {
        EXPECT_EQ(a[i + j * lda], a0[i + j * lda]) << "unit diagonal written";
        continue;
      }
      EXPECT_NEAR(a[i + j * lda], ref[i + j * lda], 8 * n * u) << i << "," << j;
      long double r = i == j ? -1 : 0;
      for (int k = 0; k < n; ++k) r += (long double)tri(a0, i, k) * tri(a, k, j);
      rmax = std::max(rmax, std::fabs(double(r)));
    }
  EXPECT_LE(rmax, 8 * n * u);
}

TEST(TrnsolverXtrtri, AgainstDtrtriAllTrianglesAndDiagonals) {
  std::uint64_t seed = 70;
  for (auto uplo : {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER})
    for (auto diag : {TRNBLAS_DIAG_NON_UNIT, TRNBLAS_DIAG_UNIT}) {
      check_xtrtri<float>(37, uplo, diag, seed++);
      check_xtrtri<double>(37, uplo, diag, seed++);
    }
  check_xtrtri<float>(150, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_DIAG_NON_UNIT, seed++);
  // Two fp32 launches (256 + 8 columns; the second on the trailing / leading block only).
  check_xtrtri<float>(264, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_DIAG_NON_UNIT, seed++);
  check_xtrtri<float>(264, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_DIAG_UNIT, seed++);
}

// trtri does the textbook n^3/3 work: dtrtri's host fp64 flops are sum_j (n - j)^2 (each column solved on
// its trailing / leading block), and its inverse equals, bit for bit, the full substitution T X = I
// (computed here, column by column over all n rows, as the routine did before).
TEST(TrnsolverXtrtri, TriangularWorkAndTheFullSolvesBits) {
  namespace ts = trn::solver;
  const int n = 45;
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> ud(-1, 1);
  for (const bool lower : {true, false}) {
    std::vector<double> a(static_cast<std::size_t>(n) * n, 0.0);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        if (lower ? i >= j : i <= j) a[i + j * n] = i == j ? 2.0 + ud(rng) : ud(rng) / n;
    std::vector<double> x(a.size(), 0.0);  // the full solve on I
    for (int c = 0; c < n; ++c) {
      double* col = x.data() + static_cast<std::ptrdiff_t>(c) * n;
      col[c] = 1.0;
      if (lower)
        for (int i = 0; i < n; ++i) {
          double v = col[i];
          for (int k = 0; k < i; ++k) v -= a[i + k * n] * col[k];
          col[i] = v / a[i + i * n];
        }
      else
        for (int i = n; i-- > 0;) {
          double v = col[i];
          for (int k = i + 1; k < n; ++k) v -= a[i + k * n] * col[k];
          col[i] = v / a[i + i * n];
        }
    }
    ts::CallReport rep;
    ASSERT_EQ(ts::trtri(ts::Settings{}, lower ? ts::Uplo::lower : ts::Uplo::upper, false, n, a.data(), n, &rep), 0);
    EXPECT_EQ(rep.host_fp64_flops, static_cast<double>(n) * (n + 1) * (2 * n + 1) / 6) << "not n^3/3 + O(n^2)";
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        if (lower ? i >= j : i <= j) {
          EXPECT_EQ(a[i + j * n], x[i + j * n]) << i << "," << j;
        }
  }
}

TEST(TrnsolverXtrtri, SingularAndArgumentPositions) {
  Fixture f;
  const int n = 5;
  std::vector<double> a(25, 0.0);
  for (int i = 0; i < n; ++i) a[i + i * n] = 1.0 + i;
  a[3 + 3 * n] = 0.0;  // A(4, 4) = 0
  const auto a0 = a;
  std::vector<double> work(4);
  const auto U = TRNBLAS_FILL_MODE_UPPER;
  const auto N = TRNBLAS_DIAG_NON_UNIT;
  int info = -1;
  ASSERT_EQ(trnsolverDnXtrtri(f.h, U, N, n, TRN_R_64F, a.data(), n, work.data(), 32, nullptr, 0, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 4);
  EXPECT_EQ(a, a0);
  int bad = 5;
  trnblasDiagType_t bad_diag;
  std::memcpy(&bad_diag, &bad, sizeof bad);
  auto fail = [&](trnsolverStatus_t st, int pos) {
    EXPECT_EQ(st, TRNSOLVER_STATUS_INVALID_VALUE) << pos;
    EXPECT_EQ(info, -pos) << pos;
    EXPECT_EQ(a, a0) << pos;
  };
  fail(trnsolverDnXtrtri(f.h, U, bad_diag, n, TRN_R_64F, a.data(), n, work.data(), 32, nullptr, 0, &info), 2);
  fail(trnsolverDnXtrtri(f.h, U, N, -1, TRN_R_64F, a.data(), n, work.data(), 32, nullptr, 0, &info), 3);
  fail(trnsolverDnXtrtri(f.h, U, N, n, TRN_R_64F, nullptr, n, work.data(), 32, nullptr, 0, &info), 5);
  fail(trnsolverDnXtrtri(f.h, U, N, n, TRN_R_64F, a.data(), n - 1, work.data(), 32, nullptr, 0, &info), 6);
  fail(trnsolverDnXtrtri(f.h, U, N, n, TRN_R_64F, a.data(), n, nullptr, 32, nullptr, 0, &info), 7);
  fail(trnsolverDnXtrtri(f.h, U, N, n, TRN_R_64F, a.data(), n, work.data(), 4, nullptr, 0, &info), 8);
  fail(trnsolverDnXtrtri(f.h, U, N, n, TRN_R_64F, a.data(), n, work.data(), 32, nullptr, 8, &info), 9);
  EXPECT_EQ(trnsolverDnXtrtri(f.h, U, N, n, TRN_R_16F, a.data(), n, work.data(), 32, nullptr, 0, &info),
            TRNSOLVER_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(a, a0);
}

// Complex Xtrtri (C_32F: trnblas ctrsm in fp32 mode, 4M; C_64F: ztrsm, Ozaki) against LAPACKE ztrtri
// in fp64 on the same values: entrywise within 16 n u and ||T X - I||_max <= 16 n u (Higham, section
// 14.2; complex multiply-adds add a small constant to the real bound: docs/trnsolver.md "Xtrtri").
// C_32F two-sided: an error of at least u / 64 says the solve ran in fp32, as documented. The other
// triangle (NaN) and a unit diagonal (1e30) are neither read nor written.
template <class R>
void check_xtrtri_complex(int n, trnblasFillMode_t uplo, trnblasDiagType_t diag, std::uint64_t seed) {
  using C = std::complex<R>;
  SCOPED_TRACE(testing::Message() << (sizeof(R) == 4 ? "C" : "Z") << " n " << n << " uplo " << uplo << " diag " << diag);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> ud(-1, 1);
  const int lda = n + 1;
  const bool lower = uplo == TRNBLAS_FILL_MODE_LOWER, unit = diag == TRNBLAS_DIAG_UNIT;
  const R nan = std::numeric_limits<R>::quiet_NaN();
  std::vector<C> a(static_cast<std::size_t>(lda) * n, C(nan, nan));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (lower ? i >= j : i <= j)
        a[i + j * lda] = i != j ? C(R(ud(rng) / n), R(ud(rng) / n)) : unit ? C(1e30f, -1e30f) : C(R(2 + ud(rng)), R(ud(rng)));
  const auto a0 = a;
  Fixture f;
  constexpr trnDataType_t dt = sizeof(R) == 4 ? TRN_C_32F : TRN_C_64F;
  size_t dev = 0, host = 3;
  ASSERT_EQ(trnsolverDnXtrtri_bufferSize(f.h, uplo, diag, n, dt, a.data(), lda, &dev, &host), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(host, 0u);
  EXPECT_EQ(dev, sizeof(C));
  std::vector<unsigned char> work(dev);
  int info = -1;
  ASSERT_EQ(trnsolverDnXtrtri(f.h, uplo, diag, n, dt, a.data(), lda, work.data(), dev, nullptr, 0, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  std::vector<std::complex<double>> ref(a0.begin(), a0.end());
  ASSERT_EQ(LAPACKE_ztrtri(LAPACK_COL_MAJOR, lower ? 'L' : 'U', unit ? 'U' : 'N', n,
                           reinterpret_cast<lapack_complex_double*>(ref.data()), lda),
            0);
  const double u = sizeof(R) == 4 ? 0x1p-24 : 0x1p-53;
  const auto in_tri = [&](int i, int j) { return lower ? i >= j : i <= j; };
  auto tri = [&](const std::vector<C>& m, int i, int j) -> std::complex<long double> {
    if (i == j && unit) return 1.0L;
    return in_tri(i, j) ? std::complex<long double>(m[i + j * lda].real(), m[i + j * lda].imag()) : 0.0L;
  };
  double emax = 0, rmax = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const C x = a[i + j * lda];
      if (!in_tri(i, j) || (unit && i == j)) {
        EXPECT_EQ(std::memcmp(&x, &a0[i + j * lda], sizeof x), 0) << "written outside the inverse at " << i << "," << j;
        continue;
      }
      emax = std::max(emax, std::abs(std::complex<double>(x) - ref[i + j * lda]));
      std::complex<long double> r = i == j ? -1.0L : 0.0L;
      for (int k = 0; k < n; ++k) r += tri(a0, i, k) * tri(a, k, j);
      rmax = std::max(rmax, double(std::abs(r)));
    }
  EXPECT_LE(emax, 16 * n * u);
  EXPECT_LE(rmax, 16 * n * u);
  if (sizeof(R) == 4) {
    EXPECT_GE(emax, u / 64) << "an fp32 solve with no rounding error at all";
  }
}

TEST(TrnsolverXtrtri, ComplexAgainstZtrtriAllTrianglesAndDiagonals) {
  std::uint64_t seed = 170;
  for (auto uplo : {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER})
    for (auto diag : {TRNBLAS_DIAG_NON_UNIT, TRNBLAS_DIAG_UNIT}) {
      check_xtrtri_complex<float>(29, uplo, diag, seed++);
      check_xtrtri_complex<double>(29, uplo, diag, seed++);
    }
  check_xtrtri_complex<float>(140, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_DIAG_NON_UNIT, seed++);
}

// Complex Xtrtri: a zero diagonal is info i with A untouched (C and Z; only the diagonal's exact zero
// counts, as LAPACK: a NaN or tiny diagonal is not singular), a unit diagonal never singular, and the
// bad-argument positions with A untouched.
TEST(TrnsolverXtrtri, ComplexSingularAndArgumentPositions) {
  Fixture f;
  const int n = 4;
  std::vector<std::complex<double>> z(16, {0.5, 0.25});
  std::vector<std::complex<float>> c(16, {0.5f, 0.25f});
  for (int i = 0; i < n; ++i) z[i + i * n] = c[i + i * n] = {1.0f + i, -1.0f};
  z[2 + 2 * n] = c[2 + 2 * n] = 0.0f;  // A(3, 3) = 0
  z[1 + 1 * n] = {0.0, std::numeric_limits<double>::denorm_min()};
  const auto z0 = z;
  const auto c0 = c;
  std::vector<std::complex<double>> work(4);
  const auto L = TRNBLAS_FILL_MODE_LOWER;
  const auto N = TRNBLAS_DIAG_NON_UNIT;
  int info = -1;
  ASSERT_EQ(trnsolverDnXtrtri(f.h, L, N, n, TRN_C_64F, z.data(), n, work.data(), 64, nullptr, 0, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 3);
  EXPECT_EQ(z, z0);
  info = -1;
  ASSERT_EQ(trnsolverDnXtrtri(f.h, L, N, n, TRN_C_32F, c.data(), n, work.data(), 64, nullptr, 0, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 3);
  EXPECT_EQ(c, c0);
  info = -1;
  ASSERT_EQ(trnsolverDnXtrtri(f.h, L, TRNBLAS_DIAG_UNIT, n, TRN_C_32F, c.data(), n, work.data(), 64, nullptr, 0, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_NE(c, c0);  // the strict lower triangle now holds the unit-diagonal inverse
  for (int i = 0; i < n; ++i) EXPECT_EQ(c[i + i * n], c0[i + i * n]);
  auto fail = [&](trnsolverStatus_t st, int pos) {
    EXPECT_EQ(st, TRNSOLVER_STATUS_INVALID_VALUE) << pos;
    EXPECT_EQ(info, -pos) << pos;
    EXPECT_EQ(z, z0) << pos;
  };
  int bad = 7;
  trnblasFillMode_t bad_uplo;
  std::memcpy(&bad_uplo, &bad, sizeof bad);
  fail(trnsolverDnXtrtri(f.h, bad_uplo, N, n, TRN_C_64F, z.data(), n, work.data(), 64, nullptr, 0, &info), 1);
  fail(trnsolverDnXtrtri(f.h, L, N, n, TRN_C_64F, z.data(), n - 1, work.data(), 64, nullptr, 0, &info), 6);
  fail(trnsolverDnXtrtri(f.h, L, N, n, TRN_C_64F, z.data(), n, work.data(), 8, nullptr, 0, &info), 8);  // < 16 bytes
  size_t dev = 0, host = 0;
  EXPECT_EQ(trnsolverDnXtrtri_bufferSize(f.h, L, N, n, TRN_C_32F, c.data(), n, &dev, &host), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(dev, 8u);
  EXPECT_EQ(trnsolverDnXtrtri_bufferSize(f.h, L, N, n, TRN_C_32F, c.data(), n, nullptr, &host),
            TRNSOLVER_STATUS_INVALID_VALUE);
}

// The C99 walkthrough of the Xtrtri call sequence (trnsolver_c_eig_walkthroughs.c) on an 8 x 8 upper
// triangular integer matrix with power-of-two diagonal: its inverse has dyadic entries, computed exactly
// here by back substitution (every intermediate is a small dyadic rational), and |I - A A^-1|_inf.
TEST(TrnsolverXtrtri, SamplePrintsItsDocumentedResult) {
  const int n = 8;
  const double diag[n] = {1, 2, -1, 4, 1, -2, 1, 2};
  std::vector<double> a(n * n, 0.0), inv(n * n, 0.0), got(n * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) a[i + n * j] = i == j ? diag[i] : double((i * 3 + j * 5) % 7 - 3);
  for (int j = 0; j < n; ++j)  // column j of A^-1: A y = e_j by back substitution
    for (int i = j; i >= 0; --i) {
      double s = i == j ? 1.0 : 0.0;
      for (int k = i + 1; k <= j; ++k) s -= a[i + n * k] * inv[k + n * j];
      inv[i + n * j] = s / a[i + n * i];
    }
  double res = 1;
  int info = -1;
  ASSERT_EQ(trnsolver_walkthrough_xtrtri(n, a.data(), got.data(), &res, &info), 0);
  EXPECT_EQ(info, 0);
  double scale = 0;
  for (double v : inv) scale = std::max(scale, std::fabs(v));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) EXPECT_NEAR(got[i + n * j], inv[i + n * j], 1e-14 * scale) << i << "," << j;
  EXPECT_LE(res, 1e-12);
}

}  // namespace
