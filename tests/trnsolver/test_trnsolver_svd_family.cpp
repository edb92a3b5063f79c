// The SVD family through the C API (docs/trnsolver.md "SVD family"): gebrd and orgbr/ungbr (S, D, C, Z),
// C/Z gesvd, gesvdaStridedBatched, Xgesvdp, Xgesvdr, against LAPACKE (?gebrd, ?orgbr/?ungbr, ?gesvd in
// double or double complex: oracles only) and long-double measures computed here. Bounds two-sided where
// the routine runs in a documented precision: the error is below c n u_eff and, for reconstructions,
// above u_eff / 64 (an fp32 routine that secretly ran in fp64 fails). Bad input per argument position,
// outputs untouched; Inf/NaN -> the documented info; the project's own C99 walkthroughs of the
// gesvdaStridedBatched, Xgesvdp and Xgesvdr call sequences.
#include <gtest/gtest.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <complex>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "trn/solver/svd.hpp"
#include "trnsolver.h"

extern "C" int trnsolver_walkthrough_gesvda(int m, int n, int rank, int batch, const float* A, float* S, float* U,
                                            float* V, double* RnrmF, int* info);
extern "C" int trnsolver_walkthrough_xgesvdp(int m, int n, const double* A, double* S, double* U, double* V,
                                             double* r_err, double* err_sigma, int* info);
extern "C" int trnsolver_walkthrough_xgesvdr(std::int64_t m, std::int64_t n, std::int64_t rank, std::int64_t p,
                                             std::int64_t iters, const double* A, double* S, int* info);

namespace {

using CD = std::complex<double>;
using LD = long double;

template <class C>
struct Ty;
template <>
struct Ty<float> {
  using T = float;
  using R = float;
  static constexpr bool cplx = false;
  static constexpr trnDataType_t dt = TRN_R_32F;
};
template <>
struct Ty<double> {
  using T = double;
  using R = double;
  static constexpr bool cplx = false;
  static constexpr trnDataType_t dt = TRN_R_64F;
};
template <>
struct Ty<std::complex<float>> {
  using T = std::complex<float>;
  using R = float;
  static constexpr bool cplx = true;
  static constexpr trnDataType_t dt = TRN_C_32F;
};
template <>
struct Ty<std::complex<double>> {
  using T = std::complex<double>;
  using R = double;
  static constexpr bool cplx = true;
  static constexpr trnDataType_t dt = TRN_C_64F;
};

template <class T>
double u_eff() {
  return std::is_same_v<typename Ty<T>::R, float> ? 0x1p-24 : 0x1p-53;
}

template <class T>
std::vector<T> random_matrix(std::int64_t rows, std::int64_t cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd;
  std::vector<T> a(static_cast<std::size_t>(rows * cols));
  for (auto& x : a) {
    if constexpr (Ty<T>::cplx) x = T(static_cast<typename Ty<T>::R>(nd(rng)), static_cast<typename Ty<T>::R>(nd(rng)));
    else x = static_cast<T>(nd(rng));
  }
  return a;
}

template <class T>
CD wide(T x) {
  return CD(x);
}

// ||A - X Y||_F (A rows x cols, X rows x k, Y k x cols; lds given) in long double.
template <class T>
LD residual(int rows, int cols, int k, const T* A, int lda, const std::vector<CD>& X, int ldx, const std::vector<CD>& Y,
            int ldy) {
  LD s = 0;
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) {
      std::complex<LD> acc(static_cast<LD>(wide(A[i + j * lda]).real()), static_cast<LD>(wide(A[i + j * lda]).imag()));
      for (int l = 0; l < k; ++l) {
        const CD x = X[static_cast<std::size_t>(i + l * ldx)], y = Y[static_cast<std::size_t>(l + j * ldy)];
        acc -= std::complex<LD>(x.real(), x.imag()) * std::complex<LD>(y.real(), y.imag());
      }
      s += std::norm(acc);
    }
  return std::sqrt(s);
}

template <class T>
LD frob(int rows, int cols, const T* A, int lda) {
  LD s = 0;
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) s += std::norm(wide(A[i + j * lda]));
  return std::sqrt(s);
}

// ||X^H X - I||_F of the rows x cols matrix X (ld).
template <class T>
LD orth_error(int rows, int cols, const T* X, int ld) {
  LD s = 0;
  for (int a = 0; a < cols; ++a)
    for (int b = 0; b < cols; ++b) {
      std::complex<LD> acc = 0;
      for (int i = 0; i < rows; ++i) {
        const CD x = std::conj(wide(X[i + a * ld])), y = wide(X[i + b * ld]);
        acc += std::complex<LD>(x.real(), x.imag()) * std::complex<LD>(y.real(), y.imag());
      }
      if (a == b) acc -= 1;
      s += std::norm(acc);
    }
  return std::sqrt(s);
}

template <class T>
std::vector<CD> to_wide(const T* X, int rows, int cols, int ld) {
  std::vector<CD> w(static_cast<std::size_t>(rows * cols));
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) w[static_cast<std::size_t>(i + j * rows)] = wide(X[i + j * ld]);
  return w;
}

// The oracle's singular values (LAPACKE zgesvd in double complex).
template <class T>
std::vector<double> oracle_sigma(int m, int n, const T* A, int lda) {
  std::vector<CD> a = to_wide(A, m, n, lda);
  const int k = std::min(m, n);
  std::vector<double> s(static_cast<std::size_t>(k)), superb(static_cast<std::size_t>(k));
  CD dummy[1];
  EXPECT_EQ(LAPACKE_zgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, reinterpret_cast<lapack_complex_double*>(a.data()), m,
                           s.data(), reinterpret_cast<lapack_complex_double*>(dummy), 1,
                           reinterpret_cast<lapack_complex_double*>(dummy), 1, superb.data()),
            0);
  return s;
}

struct Handle {
  trnsolverDnHandle_t h = nullptr;
  trnsolverDnParams_t p = nullptr;
  Handle() {
    EXPECT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(trnsolverDnCreateParams(&p), TRNSOLVER_STATUS_SUCCESS);
  }
  ~Handle() {
    trnsolverDnDestroyParams(p);
    trnsolverDnDestroy(h);
  }
};

// ---- C entry points by element type ----------------------------------------------------------------------

template <class T>
auto cp(T* p) {
  if constexpr (std::is_same_v<T, std::complex<float>>) return reinterpret_cast<trnComplex*>(p);
  else if constexpr (std::is_same_v<T, std::complex<double>>) return reinterpret_cast<trnDoubleComplex*>(p);
  else return p;
}

template <class T>
trnsolverStatus_t gebrd(Handle& h, int m, int n, T* A, int lda, typename Ty<T>::R* d, typename Ty<T>::R* e, T* tq,
                        T* tp, int* info) {
  int lw = 0;
  trnsolverStatus_t st;
  if constexpr (std::is_same_v<T, float>) st = trnsolverDnSgebrd_bufferSize(h.h, m, n, &lw);
  else if constexpr (std::is_same_v<T, double>) st = trnsolverDnDgebrd_bufferSize(h.h, m, n, &lw);
  else if constexpr (std::is_same_v<T, std::complex<float>>) st = trnsolverDnCgebrd_bufferSize(h.h, m, n, &lw);
  else st = trnsolverDnZgebrd_bufferSize(h.h, m, n, &lw);
  EXPECT_EQ(st, TRNSOLVER_STATUS_SUCCESS);
  std::vector<T> w(static_cast<std::size_t>(lw));
  if constexpr (std::is_same_v<T, float>) return trnsolverDnSgebrd(h.h, m, n, A, lda, d, e, tq, tp, w.data(), lw, info);
  else if constexpr (std::is_same_v<T, double>) return trnsolverDnDgebrd(h.h, m, n, A, lda, d, e, tq, tp, w.data(), lw, info);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return trnsolverDnCgebrd(h.h, m, n, cp(A), lda, d, e, cp(tq), cp(tp), cp(w.data()), lw, info);
  else return trnsolverDnZgebrd(h.h, m, n, cp(A), lda, d, e, cp(tq), cp(tp), cp(w.data()), lw, info);
}

template <class T>
trnsolverStatus_t orgbr(Handle& h, trnblasSideMode_t side, int m, int n, int k, T* A, int lda, const T* tau, int* info) {
  int lw = 0;
  T* tq = const_cast<T*>(tau);
  trnsolverStatus_t st;
  if constexpr (std::is_same_v<T, float>) st = trnsolverDnSorgbr_bufferSize(h.h, side, m, n, k, A, lda, tq, &lw);
  else if constexpr (std::is_same_v<T, double>) st = trnsolverDnDorgbr_bufferSize(h.h, side, m, n, k, A, lda, tq, &lw);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    st = trnsolverDnCungbr_bufferSize(h.h, side, m, n, k, cp(A), lda, cp(tq), &lw);
  else st = trnsolverDnZungbr_bufferSize(h.h, side, m, n, k, cp(A), lda, cp(tq), &lw);
  EXPECT_EQ(st, TRNSOLVER_STATUS_SUCCESS);
  std::vector<T> w(static_cast<std::size_t>(lw));
  if constexpr (std::is_same_v<T, float>) return trnsolverDnSorgbr(h.h, side, m, n, k, A, lda, tq, w.data(), lw, info);
  else if constexpr (std::is_same_v<T, double>) return trnsolverDnDorgbr(h.h, side, m, n, k, A, lda, tq, w.data(), lw, info);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return trnsolverDnCungbr(h.h, side, m, n, k, cp(A), lda, cp(tq), cp(w.data()), lw, info);
  else return trnsolverDnZungbr(h.h, side, m, n, k, cp(A), lda, cp(tq), cp(w.data()), lw, info);
}

// ---- gebrd + orgbr: A = Q B P^H -------------------------------------------------------------------------

template <class T>
void check_gebrd(int m, int n, std::uint64_t seed) {
  using R = typename Ty<T>::R;
  SCOPED_TRACE(testing::Message() << "m " << m << " n " << n << " complex " << Ty<T>::cplx << " fp64 "
                                  << (sizeof(R) == 8));
  Handle h;
  const int lda = m + 2;
  std::vector<T> a = random_matrix<T>(lda, n, seed);
  const std::vector<T> a0 = a;
  std::vector<R> d(n), e(n);
  std::vector<T> tq(n), tp(n);
  int info = -7;
  ASSERT_EQ(gebrd(h, m, n, a.data(), lda, d.data(), e.data(), tq.data(), tp.data(), &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  // Oracle: LAPACKE zgebrd in double complex: d, e agree (LAPACK's conventions: the same signs) within 16 m u ||A||_F
  // (a forward error: 4 m u was exceeded by 1.04x at 64 x 40 in fp64 when OpenBLAS runs its Prescott kernels)
  std::vector<CD> aw = to_wide(a0.data(), m, n, lda), tqw(n), tpw(n);
  std::vector<double> dr(n), er(n);
  ASSERT_EQ(LAPACKE_zgebrd(LAPACK_COL_MAJOR, m, n, reinterpret_cast<lapack_complex_double*>(aw.data()), m, dr.data(),
                           er.data(), reinterpret_cast<lapack_complex_double*>(tqw.data()),
                           reinterpret_cast<lapack_complex_double*>(tpw.data())),
            0);
  const double u = u_eff<T>(), an = static_cast<double>(frob(m, n, a0.data(), lda));
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(d[i], dr[i], 16 * m * u * an) << i;
    if (i + 1 < n) {
      EXPECT_NEAR(e[i], er[i], 16 * m * u * an) << i;
    }
  }
  std::vector<T> q(static_cast<std::size_t>(m) * n), p(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) q[i + j * m] = a[i + j * lda];
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) p[i + j * n] = a[i + j * lda];
  ASSERT_EQ(orgbr(h, TRNBLAS_SIDE_LEFT, m, n, n, q.data(), m, tq.data(), &info), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(orgbr(h, TRNBLAS_SIDE_RIGHT, n, n, n, p.data(), n, tp.data(), &info), TRNSOLVER_STATUS_SUCCESS);
  // B P^H (n x n) in wide, then ||A - Q (B P^H)||_F / ||A||_F.
  std::vector<CD> bp(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      bp[i + j * n] = static_cast<double>(d[i]) * wide(p[i + j * n]) +
                      (i + 1 < n ? static_cast<double>(e[i]) * wide(p[i + 1 + j * n]) : CD(0));
  const double rel = static_cast<double>(residual(m, n, n, a0.data(), lda, to_wide(q.data(), m, n, m), m, bp, n)) / an;
  EXPECT_LE(rel, 16.0 * m * u);
  if (m > 1) {  // (1 x 1: exact)
    EXPECT_GE(rel, u / 64);
  }
  EXPECT_LE(static_cast<double>(orth_error(m, n, q.data(), m)), 16.0 * m * u);
  EXPECT_LE(static_cast<double>(orth_error(n, n, p.data(), n)), 16.0 * n * u);
}

TEST(TrnsolverSvdFamily, GebrdOrgbrReconstructAndMatchLapack) {
  for (auto [m, n] : {std::pair{7, 5}, std::pair{6, 6}, std::pair{40, 33}, std::pair{1, 1}, std::pair{5, 1}}) {
    check_gebrd<float>(m, n, 11);
    check_gebrd<double>(m, n, 12);
    check_gebrd<std::complex<float>>(m, n, 13);
    check_gebrd<std::complex<double>>(m, n, 14);
  }
}

// The blocked xGEBRD (TRNSOLVER_GEBRD_NX = 0: blocked whatever the size and precision; by default only S/C
// with more than 128 columns): several panels (TRNSOLVER_GEBRD_NB = 4, the xGEBD2 tail of nb columns) and
// one panel of the default nb 32 with its tail (40 x 33, 64 x 40): the same bounds as above.
TEST(TrnsolverSvdFamily, GebrdBlockedPanelsReconstructAndMatchLapack) {
  ASSERT_EQ(setenv("TRNSOLVER_GEBRD_NX", "0", 1), 0);
  for (auto [m, n] : {std::pair{40, 33}, std::pair{64, 40}}) {
    check_gebrd<float>(m, n, 31);
    check_gebrd<double>(m, n, 32);
    check_gebrd<std::complex<float>>(m, n, 33);
    check_gebrd<std::complex<double>>(m, n, 34);
  }
  ASSERT_EQ(setenv("TRNSOLVER_GEBRD_NB", "4", 1), 0);
  for (auto [m, n] : {std::pair{23, 17}, std::pair{13, 13}, std::pair{9, 8}}) {
    check_gebrd<float>(m, n, 21);
    check_gebrd<double>(m, n, 22);
    check_gebrd<std::complex<float>>(m, n, 23);
    check_gebrd<std::complex<double>>(m, n, 24);
  }
  ASSERT_EQ(unsetenv("TRNSOLVER_GEBRD_NB"), 0);
  ASSERT_EQ(unsetenv("TRNSOLVER_GEBRD_NX"), 0);
}

// orgbr's four branches (Q with m >= k and m < k, P with k < n and k >= n) against LAPACKE zungbr on
// LAPACKE zgebrd's reflectors of a tall and a wide matrix.
template <class T>
void check_orgbr_branches(int mm, int nn) {
  SCOPED_TRACE(testing::Message() << mm << " x " << nn << " complex " << Ty<T>::cplx);
  Handle h;
  std::vector<T> a = random_matrix<T>(mm, nn, 99);
  std::vector<CD> aw = to_wide(a.data(), mm, nn, mm);
  const int k = std::min(mm, nn);
  std::vector<double> d(k), e(k);
  std::vector<CD> tq(k), tp(k);
  auto L = [](std::vector<CD>& v) { return reinterpret_cast<lapack_complex_double*>(v.data()); };
  ASSERT_EQ(LAPACKE_zgebrd(LAPACK_COL_MAJOR, mm, nn, L(aw), mm, d.data(), e.data(), L(tq), L(tp)), 0);
  const double u = u_eff<T>();
  for (char vect : {'Q', 'P'}) {
    // LAPACK: Q is mm x mm from (mm, nn=k columns); P^H is nn x nn from k = mm rows.
    const int rows = vect == 'Q' ? mm : nn, kk = vect == 'Q' ? nn : mm, ld = std::max(mm, nn);
    std::vector<CD> ref(static_cast<std::size_t>(ld) * ld);
    for (int j = 0; j < nn; ++j)
      for (int i = 0; i < mm; ++i) ref[i + j * ld] = aw[i + j * mm];
    std::vector<T> mine(ref.size());
    for (std::size_t i = 0; i < ref.size(); ++i) {
      if constexpr (Ty<T>::cplx) mine[i] = T(ref[i]);
      else mine[i] = static_cast<T>(ref[i].real());
    }
    const std::vector<CD>& tau = vect == 'Q' ? tq : tp;
    std::vector<T> taut(tau.size());
    for (std::size_t i = 0; i < tau.size(); ++i) {
      if constexpr (Ty<T>::cplx) taut[i] = T(tau[i]);
      else taut[i] = static_cast<T>(tau[i].real());
    }
    ASSERT_EQ(LAPACKE_zungbr(LAPACK_COL_MAJOR, vect, rows, rows, kk, L(ref), ld, reinterpret_cast<const lapack_complex_double*>(tau.data())), 0);
    int info = -3;
    ASSERT_EQ(orgbr(h, vect == 'Q' ? TRNBLAS_SIDE_LEFT : TRNBLAS_SIDE_RIGHT, rows, rows, kk, mine.data(), ld, taut.data(),
                    &info),
              TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(info, 0);
    double err = 0;
    for (int j = 0; j < rows; ++j)
      for (int i = 0; i < rows; ++i) err = std::max(err, std::abs(wide(mine[i + j * ld]) - ref[i + j * ld]));
    EXPECT_LE(err, 16.0 * rows * u) << vect;
  }
}

TEST(TrnsolverSvdFamily, OrgbrEveryBranchMatchesLapack) {
  for (auto [mm, nn] : {std::pair{9, 5}, std::pair{5, 9}, std::pair{6, 6}}) {
    check_orgbr_branches<double>(mm, nn);
    check_orgbr_branches<std::complex<double>>(mm, nn);
    check_orgbr_branches<float>(mm, nn);
    check_orgbr_branches<std::complex<float>>(mm, nn);
  }
}

// ---- C/Z gesvd ------------------------------------------------------------------------------------------

template <class T>
trnsolverStatus_t cgesvd(Handle& h, char ju, char jv, int m, int n, T* A, int lda, typename Ty<T>::R* S, T* U, int ldu,
                         T* VT, int ldvt, int* info) {
  int lw = 0;
  std::vector<T> w(4);
  if constexpr (std::is_same_v<T, std::complex<float>>) {
    EXPECT_EQ(trnsolverDnCgesvd_bufferSize(h.h, m, n, &lw), TRNSOLVER_STATUS_SUCCESS);
    return trnsolverDnCgesvd(h.h, ju, jv, m, n, cp(A), lda, S, cp(U), ldu, cp(VT), ldvt, cp(w.data()), lw, nullptr, info);
  } else {
    EXPECT_EQ(trnsolverDnZgesvd_bufferSize(h.h, m, n, &lw), TRNSOLVER_STATUS_SUCCESS);
    return trnsolverDnZgesvd(h.h, ju, jv, m, n, cp(A), lda, S, cp(U), ldu, cp(VT), ldvt, cp(w.data()), lw, nullptr, info);
  }
}

template <class T>
void check_complex_gesvd(int m, int n, char ju, char jv) {
  using R = typename Ty<T>::R;
  SCOPED_TRACE(testing::Message() << m << " x " << n << " jobu " << ju << " jobvt " << jv << " fp64 "
                                  << (sizeof(R) == 8));
  Handle h;
  const int lda = m + 1, ldu = m, ldvt = n;
  std::vector<T> a = random_matrix<T>(lda, n, 7 + m + 31 * n), u(static_cast<std::size_t>(ldu) * m, T(9)),
                 vt(static_cast<std::size_t>(ldvt) * n, T(9));
  const std::vector<T> a0 = a;
  std::vector<R> s(n);
  int info = -1;
  ASSERT_EQ(cgesvd(h, ju, jv, m, n, a.data(), lda, s.data(), u.data(), ldu, vt.data(), ldvt, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  const std::vector<double> sref = oracle_sigma(m, n, a0.data(), lda);
  const double uu = u_eff<T>(), bound = 16 * std::pow(n, 1.5) * uu;
  for (int i = 0; i < n; ++i) EXPECT_NEAR(s[i], sref[i], 8 * m * uu * sref[0]) << i;
  const T* U = ju == 'O' ? a.data() : u.data();
  const int lu = ju == 'O' ? lda : ldu;
  const T* V = jv == 'O' ? a.data() : vt.data();
  const int lv = jv == 'O' ? lda : ldvt;
  if (ju != 'N') {
    EXPECT_LE(static_cast<double>(orth_error(m, ju == 'A' ? m : n, U, lu)), bound);
  }
  if (jv != 'N') {
    std::vector<T> vh(static_cast<std::size_t>(n) * n);  // V = (V^H)^H, columns orthonormal
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) vh[i + j * n] = std::conj(V[j + i * lv]);
    EXPECT_LE(static_cast<double>(orth_error(n, n, vh.data(), n)), bound);
  }
  if (ju != 'N' && jv != 'N') {
    std::vector<CD> us = to_wide(U, m, n, lu), vw = to_wide(V, n, n, lv);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) us[i + j * m] *= static_cast<double>(s[j]);
    const double rel = static_cast<double>(residual(m, n, n, a0.data(), lda, us, m, vw, n) / frob(m, n, a0.data(), lda));
    EXPECT_LE(rel, bound);
    EXPECT_GE(rel, uu / 64);
  }
}

TEST(TrnsolverSvdFamily, ComplexGesvdEveryJob) {
  for (auto [m, n] : {std::pair{9, 6}, std::pair{5, 5}, std::pair{1, 1}})
    for (auto [ju, jv] : {std::pair{'A', 'A'}, std::pair{'S', 'S'}, std::pair{'O', 'N'}, std::pair{'N', 'O'},
                          std::pair{'N', 'N'}, std::pair{'S', 'A'}, std::pair{'O', 'S'}}) {
      check_complex_gesvd<std::complex<float>>(m, n, ju, jv);
      check_complex_gesvd<std::complex<double>>(m, n, ju, jv);
    }
}

TEST(TrnsolverSvdFamily, ComplexXgesvdIsZgesvdBitForBit) {
  Handle h;
  const int m = 7, n = 4;
  std::vector<CD> a = random_matrix<CD>(m, n, 5), a2 = a, u(m * m), u2(m * m), vt(n * n), vt2(n * n);
  std::vector<double> s(n), s2(n);
  int info = -1, info2 = -1;
  ASSERT_EQ(cgesvd(h, 'A', 'A', m, n, a.data(), m, s.data(), u.data(), m, vt.data(), n, &info), TRNSOLVER_STATUS_SUCCESS);
  size_t db = 0, hb = 0;
  ASSERT_EQ(trnsolverDnXgesvd_bufferSize(h.h, h.p, 'A', 'A', m, n, TRN_C_64F, a2.data(), m, TRN_R_64F, s2.data(),
                                         TRN_C_64F, u2.data(), m, TRN_C_64F, vt2.data(), n, TRN_C_64F, &db, &hb),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<char> dev(db);
  ASSERT_EQ(trnsolverDnXgesvd(h.h, h.p, 'A', 'A', m, n, TRN_C_64F, a2.data(), m, TRN_R_64F, s2.data(), TRN_C_64F,
                              u2.data(), m, TRN_C_64F, vt2.data(), n, TRN_C_64F, dev.data(), db, nullptr, 0, &info2),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, info2);
  EXPECT_EQ(s, s2);
  EXPECT_EQ(u, u2);
  EXPECT_EQ(vt, vt2);
  // A NaN: info n - 1 (the Jacobi sweeps do not converge), as the real gesvd documents.
  std::vector<CD> an = random_matrix<CD>(m, n, 6);
  an[3] = CD(std::numeric_limits<double>::quiet_NaN(), 0);
  ASSERT_EQ(cgesvd(h, 'N', 'N', m, n, an.data(), m, s.data(), u.data(), m, vt.data(), n, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, n - 1);
}

// ---- gesvdaStridedBatched --------------------------------------------------------------------------------

template <class T>
trnsolverStatus_t gesvda(Handle& h, trnsolverEigMode_t jobz, int rank, int m, int n, const T* A, int lda, long long sA,
                         typename Ty<T>::R* S, long long sS, T* U, int ldu, long long sU, T* V, int ldv, long long sV,
                         int* info, double* rn, int batch) {
  int lw = 0;
  trnsolverStatus_t st;
#define TRN_GESVDA_ARGS(P) h.h, jobz, rank, m, n, cp(const_cast<T*>(A)), lda, sA, S, sS, cp(U), ldu, sU, cp(V), ldv, sV
  if constexpr (std::is_same_v<T, float>) st = trnsolverDnSgesvdaStridedBatched_bufferSize(TRN_GESVDA_ARGS(S), &lw, batch);
  else if constexpr (std::is_same_v<T, double>) st = trnsolverDnDgesvdaStridedBatched_bufferSize(TRN_GESVDA_ARGS(D), &lw, batch);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    st = trnsolverDnCgesvdaStridedBatched_bufferSize(TRN_GESVDA_ARGS(C), &lw, batch);
  else st = trnsolverDnZgesvdaStridedBatched_bufferSize(TRN_GESVDA_ARGS(Z), &lw, batch);
  EXPECT_EQ(st, TRNSOLVER_STATUS_SUCCESS);
  std::vector<T> w(static_cast<std::size_t>(std::max(lw, 1)));
  if constexpr (std::is_same_v<T, float>)
    return trnsolverDnSgesvdaStridedBatched(TRN_GESVDA_ARGS(S), w.data(), lw, info, rn, batch);
  else if constexpr (std::is_same_v<T, double>)
    return trnsolverDnDgesvdaStridedBatched(TRN_GESVDA_ARGS(D), w.data(), lw, info, rn, batch);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return trnsolverDnCgesvdaStridedBatched(TRN_GESVDA_ARGS(C), cp(w.data()), lw, info, rn, batch);
  else return trnsolverDnZgesvdaStridedBatched(TRN_GESVDA_ARGS(Z), cp(w.data()), lw, info, rn, batch);
#undef TRN_GESVDA_ARGS
}

template <class T>
void check_gesvda(int m, int n, int rank) {
  using R = typename Ty<T>::R;
  SCOPED_TRACE(testing::Message() << m << " x " << n << " rank " << rank << " complex " << Ty<T>::cplx << " fp64 "
                                  << (sizeof(R) == 8));
  Handle h;
  const int batch = 3, lda = m + 1, ldu = m + 2, ldv = n + 1;
  const long long sA = static_cast<long long>(lda) * n + 3, sS = rank + 1, sU = static_cast<long long>(ldu) * rank + 1,
                  sV = static_cast<long long>(ldv) * rank + 2;
  const std::vector<T> a = random_matrix<T>(sA * batch, 1, 1000 + m + n + rank);
  std::vector<R> s(sS * batch, R(-5));
  std::vector<T> u(sU * batch), v(sV * batch);
  std::vector<int> info(batch, -9);
  std::vector<double> rn(batch, -1);
  ASSERT_EQ(gesvda(h, TRNSOLVER_EIG_MODE_VECTOR, rank, m, n, a.data(), lda, sA, s.data(), sS, u.data(), ldu, sU,
                   v.data(), ldv, sV, info.data(), rn.data(), batch),
            TRNSOLVER_STATUS_SUCCESS);
  const double uu = u_eff<T>();
  for (int b = 0; b < batch; ++b) {
    SCOPED_TRACE(b);
    EXPECT_EQ(info[b], 0);
    const T* A = a.data() + b * sA;
    const std::vector<double> sref = oracle_sigma(m, n, A, lda);
    double tail = 0;
    for (int i = rank; i < n; ++i) tail += sref[i] * sref[i];
    const double an = static_cast<double>(frob(m, n, A, lda));
    for (int i = 0; i < rank; ++i) EXPECT_NEAR(s[b * sS + i], sref[i], 8 * m * uu * sref[0]);
    EXPECT_EQ(s[b * sS + rank], R(-5));  // nothing past rank
    EXPECT_NEAR(rn[b], std::sqrt(tail), 16 * n * uu * an);
    const T* U = u.data() + b * sU;
    const T* V = v.data() + b * sV;
    EXPECT_LE(static_cast<double>(orth_error(m, rank, U, ldu)), 16 * n * uu);
    EXPECT_LE(static_cast<double>(orth_error(n, rank, V, ldv)), 16 * n * uu);
    // A V_r = U_r S_r: ||A V_r - U_r S_r||_F <= c n u ||A||_F.
    std::vector<CD> us = to_wide(U, m, rank, ldu), vw = to_wide(V, n, rank, ldv), av(static_cast<std::size_t>(m) * rank);
    for (int j = 0; j < rank; ++j)
      for (int i = 0; i < m; ++i) {
        CD acc = 0;
        for (int l = 0; l < n; ++l) acc += wide(A[i + l * lda]) * vw[l + j * n];
        av[i + j * m] = acc - us[i + j * m] * static_cast<double>(s[b * sS + j]);
      }
    double e = 0;
    for (const CD& x : av) e += std::norm(x);
    EXPECT_LE(std::sqrt(e), 16 * n * uu * an);
  }
  // NOVECTOR: the same S and residual, U and V untouched.
  std::vector<R> s2(s.size(), R(-5));
  std::vector<T> u2(u.size(), T(3)), v2(v.size(), T(3));
  std::vector<double> rn2(batch);
  ASSERT_EQ(gesvda(h, TRNSOLVER_EIG_MODE_NOVECTOR, rank, m, n, a.data(), lda, sA, s2.data(), sS, u2.data(), ldu, sU,
                   v2.data(), ldv, sV, info.data(), rn2.data(), batch),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(s2, s);
  EXPECT_EQ(rn2, rn);
  EXPECT_TRUE(std::all_of(u2.begin(), u2.end(), [](T x) { return x == T(3); }));
}

TEST(TrnsolverSvdFamily, GesvdaStridedBatched) {
  for (auto [m, n, r] : {std::tuple{8, 5, 3}, std::tuple{6, 6, 6}, std::tuple{10, 4, 1}}) {
    check_gesvda<float>(m, n, r);
    check_gesvda<double>(m, n, r);
    check_gesvda<std::complex<float>>(m, n, r);
    check_gesvda<std::complex<double>>(m, n, r);
  }
}

// ---- Xgesvdp --------------------------------------------------------------------------------------------

template <class T>
trnsolverStatus_t xgesvdp(Handle& h, trnsolverEigMode_t jobz, int econ, int m, int n, T* A, int lda,
                          typename Ty<T>::R* S, T* U, int ldu, T* V, int ldv, int* info, double* err) {
  const trnDataType_t dt = Ty<T>::dt, rt = std::is_same_v<typename Ty<T>::R, float> ? TRN_R_32F : TRN_R_64F;
  size_t db = 0, hb = 0;
  EXPECT_EQ(trnsolverDnXgesvdp_bufferSize(h.h, h.p, jobz, econ, m, n, dt, A, lda, rt, S, dt, U, ldu, dt, V, ldv, dt, &db,
                                          &hb),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<char> dev(db + 1);
  return trnsolverDnXgesvdp(h.h, h.p, jobz, econ, m, n, dt, A, lda, rt, S, dt, U, ldu, dt, V, ldv, dt, dev.data(), db,
                            nullptr, hb, info, err);
}

template <class T>
void check_gesvdp(int m, int n, int econ, int rank_deficient) {
  using R = typename Ty<T>::R;
  SCOPED_TRACE(testing::Message() << m << " x " << n << " econ " << econ << " rank-deficient " << rank_deficient
                                  << " complex " << Ty<T>::cplx << " fp64 " << (sizeof(R) == 8));
  Handle h;
  const int k = std::min(m, n), lda = m, ldu = m, ldv = n, uc = econ ? k : m, vc = econ ? k : n;
  std::vector<T> a = random_matrix<T>(m, n, 300 + m * 7 + n);
  if (rank_deficient)  // columns 2.. are copies of columns 0 and 1: rank 2
    for (int j = 2; j < n; ++j)
      for (int i = 0; i < m; ++i) a[i + j * lda] = a[i + (j % 2) * lda];
  const std::vector<T> a0 = a;
  std::vector<R> s(k);
  std::vector<T> u(static_cast<std::size_t>(ldu) * m), v(static_cast<std::size_t>(ldv) * n);
  int info = -1;
  double err = -1;
  ASSERT_EQ(xgesvdp(h, TRNSOLVER_EIG_MODE_VECTOR, econ, m, n, a.data(), lda, s.data(), u.data(), ldu, v.data(), ldv,
                    &info, &err),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_EQ(a, a0);
  const std::vector<double> sref = oracle_sigma(m, n, a0.data(), lda);
  const double uu = u_eff<T>(), an = static_cast<double>(frob(m, n, a0.data(), lda));
  for (int i = 0; i < k; ++i) EXPECT_NEAR(s[i], sref[i], 16 * std::max(m, n) * uu * an) << i;
  if (rank_deficient) {
    EXPECT_LE(err, 16 * std::max(m, n) * uu * an);
  } else {
    EXPECT_EQ(err, 0.0);
  }
  EXPECT_LE(static_cast<double>(orth_error(m, uc, u.data(), ldu)), 32 * std::max(m, n) * uu);
  EXPECT_LE(static_cast<double>(orth_error(n, vc, v.data(), ldv)), 32 * std::max(m, n) * uu);
  std::vector<CD> us = to_wide(u.data(), m, k, ldu), vh(static_cast<std::size_t>(k) * n);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < m; ++i) us[i + j * m] *= static_cast<double>(s[j]);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < k; ++i) vh[i + j * k] = std::conj(wide(v[j + i * ldv]));
  const double rel = static_cast<double>(residual(m, n, k, a0.data(), lda, us, m, vh, k)) / an;
  EXPECT_LE(rel, 32 * std::max(m, n) * uu);
  EXPECT_GE(rel, uu / 64);
}

TEST(TrnsolverSvdFamily, XgesvdpQdwh) {
  for (auto [m, n] : {std::pair{7, 4}, std::pair{4, 7}, std::pair{6, 6}})
    for (int econ : {0, 1}) {
      check_gesvdp<float>(m, n, econ, 0);
      check_gesvdp<double>(m, n, econ, 0);
      check_gesvdp<std::complex<float>>(m, n, econ, 0);
      check_gesvdp<std::complex<double>>(m, n, econ, 0);
    }
  check_gesvdp<double>(8, 5, 0, 1);
  check_gesvdp<std::complex<double>>(5, 8, 1, 1);
  check_gesvdp<float>(8, 5, 1, 1);
}

TEST(TrnsolverSvdFamily, XgesvdpNonFiniteIsInfoOne) {
  Handle h;
  std::vector<double> a = random_matrix<double>(5, 3, 1), s(3), u(25), v(9);
  a[4] = std::numeric_limits<double>::infinity();
  int info = -1;
  double err = -1;
  ASSERT_EQ(xgesvdp(h, TRNSOLVER_EIG_MODE_VECTOR, 1, 5, 3, a.data(), 5, s.data(), u.data(), 5, v.data(), 3, &info, &err),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 1);
}

// ---- Xgesvdr --------------------------------------------------------------------------------------------

template <class T>
trnsolverStatus_t xgesvdr(Handle& h, char ju, char jv, int m, int n, int k, int p, int iters, T* A, int lda,
                          typename Ty<T>::R* S, T* U, int ldu, T* V, int ldv, int* info) {
  const trnDataType_t dt = Ty<T>::dt, rt = std::is_same_v<typename Ty<T>::R, float> ? TRN_R_32F : TRN_R_64F;
  size_t db = 0, hb = 0;
  EXPECT_EQ(trnsolverDnXgesvdr_bufferSize(h.h, h.p, ju, jv, m, n, k, p, iters, dt, A, lda, rt, S, dt, U, ldu, dt, V, ldv,
                                          dt, &db, &hb),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<char> dev(db + 1);
  return trnsolverDnXgesvdr(h.h, h.p, ju, jv, m, n, k, p, iters, dt, A, lda, rt, S, dt, U, ldu, dt, V, ldv, dt,
                            dev.data(), db, nullptr, hb, info);
}

// A = X diag(10^-i) Y^H with X, Y orthonormal (LAPACKE zgeqrf/zungqr of random matrices): the randomized
// SVD with p = k and 2 power iterations recovers the leading k triplets to rounding.
template <class T>
void check_gesvdr(int m, int n, int k) {
  using R = typename Ty<T>::R;
  SCOPED_TRACE(testing::Message() << m << " x " << n << " k " << k << " complex " << Ty<T>::cplx << " fp64 "
                                  << (sizeof(R) == 8));
  const int r = std::min(m, n);
  auto orth = [](int rows, int cols, std::uint64_t seed) {
    std::vector<CD> q = random_matrix<CD>(rows, cols, seed), tau(cols);
    auto* L = reinterpret_cast<lapack_complex_double*>(q.data());
    EXPECT_EQ(LAPACKE_zgeqrf(LAPACK_COL_MAJOR, rows, cols, L, rows, reinterpret_cast<lapack_complex_double*>(tau.data())), 0);
    EXPECT_EQ(LAPACKE_zungqr(LAPACK_COL_MAJOR, rows, cols, cols, L, rows,
                             reinterpret_cast<lapack_complex_double*>(tau.data())), 0);
    return q;
  };
  const std::vector<CD> X = orth(m, r, 71), Y = orth(n, r, 72);
  std::vector<T> a(static_cast<std::size_t>(m) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      CD acc = 0;
      for (int l = 0; l < r; ++l) acc += X[i + l * m] * std::pow(10.0, -l) * std::conj(Y[j + l * n]);
      if constexpr (Ty<T>::cplx) a[i + j * m] = T(acc);
      else a[i + j * m] = static_cast<T>(acc.real());
    }
  const std::vector<T> a0 = a;
  Handle h;
  std::vector<R> s(k);
  std::vector<T> u(static_cast<std::size_t>(m) * k), v(static_cast<std::size_t>(n) * k);
  int info = -1;
  ASSERT_EQ(xgesvdr(h, 'S', 'S', m, n, k, k, 2, a.data(), m, s.data(), u.data(), m, v.data(), n, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_EQ(a, a0);
  const std::vector<double> sref = oracle_sigma(m, n, a0.data(), m);
  const double uu = u_eff<T>();
  for (int i = 0; i < k; ++i) EXPECT_NEAR(s[i], sref[i], 16 * std::max(m, n) * uu * sref[0]) << i;
  EXPECT_LE(static_cast<double>(orth_error(m, k, u.data(), m)), 16 * std::max(m, n) * uu);
  EXPECT_LE(static_cast<double>(orth_error(n, k, v.data(), n)), 16 * std::max(m, n) * uu);
  // ||A - U S V^H||_F = the tail of the spectrum (sqrt(sum_{i >= k} 10^-2i)) to rounding.
  std::vector<CD> us = to_wide(u.data(), m, k, m), vh(static_cast<std::size_t>(k) * n);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < m; ++i) us[i + j * m] *= static_cast<double>(s[j]);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < k; ++i) vh[i + j * k] = std::conj(wide(v[j + i * n]));
  double tail = 0;
  for (int i = k; i < r; ++i) tail += sref[i] * sref[i];
  EXPECT_NEAR(static_cast<double>(residual(m, n, k, a0.data(), m, us, m, vh, k)), std::sqrt(tail),
              16 * std::max(m, n) * uu * sref[0]);
}

TEST(TrnsolverSvdFamily, XgesvdrRandomized) {
  for (auto [m, n, k] : {std::tuple{20, 12, 3}, std::tuple{12, 20, 4}, std::tuple{16, 16, 2}}) {
    check_gesvdr<float>(m, n, k);
    check_gesvdr<double>(m, n, k);
    check_gesvdr<std::complex<float>>(m, n, k);
    check_gesvdr<std::complex<double>>(m, n, k);
  }
}

// ---- bad input: every argument in cuSOLVER's order, info = -position, outputs untouched ------------------

struct BadInput {
  Handle h;
  std::vector<double> a = std::vector<double>(64, 1.5), out = std::vector<double>(256, -2.0), work = std::vector<double>(4096);
  const std::vector<double> a0 = a, out0 = out;
  int info = 0;
  void expect(trnsolverStatus_t st, int pos, const char* what, bool has_info = true) {
    EXPECT_EQ(st, TRNSOLVER_STATUS_INVALID_VALUE) << what;
    if (has_info) {
      EXPECT_EQ(info, -pos) << what;
    }
    int last = 0;
    trnsolverDnGetLastErrorParameter(h.h, &last);
    EXPECT_EQ(last, pos) << what;
    EXPECT_EQ(a, a0) << what;
    EXPECT_EQ(out, out0) << what;
    info = 0;
  }
};

TEST(TrnsolverSvdFamily, BadInputPerArgumentLeavesOutputsUntouched) {
  BadInput b;
  trnsolverDnHandle_t h = b.h.h;
  double *A = b.a.data(), *O = b.out.data(), *W = b.work.data();
  int* I = &b.info;
  const int m = 6, n = 4;
  // gebrd: m 1, n 2, A 3, lda 4, D 5, E 6, TAUQ 7, TAUP 8, Work 9, Lwork 10, devInfo 11.
  int lw = 0;
  ASSERT_EQ(trnsolverDnDgebrd_bufferSize(h, m, n, &lw), TRNSOLVER_STATUS_SUCCESS);
  b.expect(trnsolverDnDgebrd(h, -1, n, A, m, O, O + 8, O + 16, O + 24, W, lw, I), 1, "gebrd m");
  b.expect(trnsolverDnDgebrd(h, m, m + 1, A, m, O, O + 8, O + 16, O + 24, W, lw, I), 2, "gebrd n > m");
  b.expect(trnsolverDnDgebrd(h, m, n, nullptr, m, O, O + 8, O + 16, O + 24, W, lw, I), 3, "gebrd A");
  b.expect(trnsolverDnDgebrd(h, m, n, A, m - 1, O, O + 8, O + 16, O + 24, W, lw, I), 4, "gebrd lda");
  b.expect(trnsolverDnDgebrd(h, m, n, A, m, nullptr, O + 8, O + 16, O + 24, W, lw, I), 5, "gebrd D");
  b.expect(trnsolverDnDgebrd(h, m, n, A, m, O, nullptr, O + 16, O + 24, W, lw, I), 6, "gebrd E");
  b.expect(trnsolverDnDgebrd(h, m, n, A, m, O, O + 8, nullptr, O + 24, W, lw, I), 7, "gebrd TAUQ");
  b.expect(trnsolverDnDgebrd(h, m, n, A, m, O, O + 8, O + 16, nullptr, W, lw, I), 8, "gebrd TAUP");
  b.expect(trnsolverDnDgebrd(h, m, n, A, m, O, O + 8, O + 16, O + 24, nullptr, lw, I), 9, "gebrd Work");
  b.expect(trnsolverDnDgebrd(h, m, n, A, m, O, O + 8, O + 16, O + 24, W, lw - 1, I), 10, "gebrd Lwork");
  b.expect(trnsolverDnDgebrd(h, m, n, A, m, O, O + 8, O + 16, O + 24, W, lw, nullptr), 11, "gebrd devInfo", false);
  EXPECT_EQ(trnsolverDnDgebrd(nullptr, m, n, A, m, O, O + 8, O + 16, O + 24, W, lw, I), TRNSOLVER_STATUS_NOT_INITIALIZED);
  // orgbr: side 1, m 2, n 3, k 4, A 5, lda 6, tau 7, work 8, lwork 9, info 10.
  ASSERT_EQ(trnsolverDnDorgbr_bufferSize(h, TRNBLAS_SIDE_LEFT, m, n, n, A, m, O, &lw), TRNSOLVER_STATUS_SUCCESS);
  const auto bad_side = static_cast<trnblasSideMode_t>(7);
  b.expect(trnsolverDnDorgbr(h, bad_side, m, n, n, A, m, O, W, lw, I), 1, "orgbr side");
  b.expect(trnsolverDnDorgbr(h, TRNBLAS_SIDE_LEFT, -1, n, n, A, m, O, W, lw, I), 2, "orgbr m");
  b.expect(trnsolverDnDorgbr(h, TRNBLAS_SIDE_LEFT, m, m + 1, n, A, m, O, W, lw, I), 3, "orgbr n > m");
  b.expect(trnsolverDnDorgbr(h, TRNBLAS_SIDE_RIGHT, m, n, n, A, m, O, W, lw, I), 3, "orgbr P: n < m");
  b.expect(trnsolverDnDorgbr(h, TRNBLAS_SIDE_LEFT, m, n, -1, A, m, O, W, lw, I), 4, "orgbr k");
  b.expect(trnsolverDnDorgbr(h, TRNBLAS_SIDE_LEFT, m, n, n, nullptr, m, O, W, lw, I), 5, "orgbr A");
  b.expect(trnsolverDnDorgbr(h, TRNBLAS_SIDE_LEFT, m, n, n, A, m - 1, O, W, lw, I), 6, "orgbr lda");
  b.expect(trnsolverDnDorgbr(h, TRNBLAS_SIDE_LEFT, m, n, n, A, m, nullptr, W, lw, I), 7, "orgbr tau");
  b.expect(trnsolverDnDorgbr(h, TRNBLAS_SIDE_LEFT, m, n, n, A, m, O, nullptr, lw, I), 8, "orgbr work");
  b.expect(trnsolverDnDorgbr(h, TRNBLAS_SIDE_LEFT, m, n, n, A, m, O, W, lw - 1, I), 9, "orgbr lwork");
  b.expect(trnsolverDnDorgbr(h, TRNBLAS_SIDE_LEFT, m, n, n, A, m, O, W, lw, nullptr), 10, "orgbr info", false);
  // gesvdaStridedBatched: jobz 1, rank 2, m 3, n 4, A 5, lda 6, strideA 7, S 8, strideS 9, U 10, ldu 11,
  // strideU 12, V 13, ldv 14, strideV 15, work 16, lwork 17, info 18, h_R_nrmF 19, batchSize 20.
  const auto V = TRNSOLVER_EIG_MODE_VECTOR;
  double rn[2] = {-2.0, -2.0};
  auto ga = [&](trnsolverEigMode_t jz, int rank, int mm, int nn, const double* a, int lda, long long sa, double* S,
                long long ss, double* U, int ldu, long long su, double* Vv, int ldv, long long sv, double* w, int l,
                int* inf, double* r, int batch) {
    return trnsolverDnDgesvdaStridedBatched(h, jz, rank, mm, nn, a, lda, sa, S, ss, U, ldu, su, Vv, ldv, sv, w, l, inf, r,
                                            batch);
  };
  const long long sA = m * n, sU = m * n, sV = n * n;
  b.expect(ga(static_cast<trnsolverEigMode_t>(5), n, m, n, A, m, sA, O, n, O + 8, m, sU, O + 40, n, sV, W, 1, I, rn, 1), 1, "gesvda jobz");
  b.expect(ga(V, 0, m, n, A, m, sA, O, n, O + 8, m, sU, O + 40, n, sV, W, 1, I, rn, 1), 2, "gesvda rank");
  b.expect(ga(V, n, -1, n, A, m, sA, O, n, O + 8, m, sU, O + 40, n, sV, W, 1, I, rn, 1), 3, "gesvda m");
  b.expect(ga(V, n, m, m + 1, A, m, sA, O, n, O + 8, m, sU, O + 40, n, sV, W, 1, I, rn, 1), 4, "gesvda n");
  b.expect(ga(V, n, m, n, nullptr, m, sA, O, n, O + 8, m, sU, O + 40, n, sV, W, 1, I, rn, 1), 5, "gesvda A");
  b.expect(ga(V, n, m, n, A, m - 1, sA, O, n, O + 8, m, sU, O + 40, n, sV, W, 1, I, rn, 1), 6, "gesvda lda");
  b.expect(ga(V, n, m, n, A, m, sA - 1, O, n, O + 8, m, sU, O + 40, n, sV, W, 1, I, rn, 1), 7, "gesvda strideA");
  b.expect(ga(V, n, m, n, A, m, sA, nullptr, n, O + 8, m, sU, O + 40, n, sV, W, 1, I, rn, 1), 8, "gesvda S");
  b.expect(ga(V, n, m, n, A, m, sA, O, n - 1, O + 8, m, sU, O + 40, n, sV, W, 1, I, rn, 1), 9, "gesvda strideS");
  b.expect(ga(V, n, m, n, A, m, sA, O, n, nullptr, m, sU, O + 40, n, sV, W, 1, I, rn, 1), 10, "gesvda U");
  b.expect(ga(V, n, m, n, A, m, sA, O, n, O + 8, m - 1, sU, O + 40, n, sV, W, 1, I, rn, 1), 11, "gesvda ldu");
  b.expect(ga(V, n, m, n, A, m, sA, O, n, O + 8, m, sU - 1, O + 40, n, sV, W, 1, I, rn, 1), 12, "gesvda strideU");
  b.expect(ga(V, n, m, n, A, m, sA, O, n, O + 8, m, sU, nullptr, n, sV, W, 1, I, rn, 1), 13, "gesvda V");
  b.expect(ga(V, n, m, n, A, m, sA, O, n, O + 8, m, sU, O + 40, n - 1, sV, W, 1, I, rn, 1), 14, "gesvda ldv");
  b.expect(ga(V, n, m, n, A, m, sA, O, n, O + 8, m, sU, O + 40, n, sV - 1, W, 1, I, rn, 1), 15, "gesvda strideV");
  b.expect(ga(V, n, m, n, A, m, sA, O, n, O + 8, m, sU, O + 40, n, sV, nullptr, 1, I, rn, 1), 16, "gesvda work");
  b.expect(ga(V, n, m, n, A, m, sA, O, n, O + 8, m, sU, O + 40, n, sV, W, 0, I, rn, 1), 17, "gesvda lwork");
  b.expect(ga(V, n, m, n, A, m, sA, O, n, O + 8, m, sU, O + 40, n, sV, W, 1, nullptr, rn, 1), 18, "gesvda info", false);
  b.expect(ga(V, n, m, n, A, m, sA, O, n, O + 8, m, sU, O + 40, n, sV, W, 1, I, nullptr, 1), 19, "gesvda h_R_nrmF");
  b.expect(ga(V, n, m, n, A, m, sA, O, n, O + 8, m, sU, O + 40, n, sV, W, 1, I, rn, 0), 20, "gesvda batchSize");
  EXPECT_EQ(rn[0], -2.0);
  // Xgesvdp: params 1, jobz 2, econ 3, m 4, n 5, A 7, lda 8, S 10, U 12, ldu 13, V 15, ldv 16, buffers 18-21,
  // d_info 22, h_err_sigma 23; a type mismatch is NOT_SUPPORTED.
  double es = -3;
  auto gp = [&](trnsolverDnParams_t p, trnsolverEigMode_t jz, int econ, int64_t mm, int64_t nn, double* a, int64_t lda,
                double* S, double* U, int64_t ldu, double* Vv, int64_t ldv, trnDataType_t ds, void* dev, size_t db,
                int* inf, double* e) {
    return trnsolverDnXgesvdp(h, p, jz, econ, mm, nn, TRN_R_64F, a, lda, ds, S, TRN_R_64F, U, ldu, TRN_R_64F, Vv, ldv,
                              TRN_R_64F, dev, db, nullptr, 0, inf, e);
  };
  trnsolverDnParams_t P = b.h.p;
  b.expect(gp(nullptr, V, 1, m, n, A, m, O, O + 8, m, O + 40, n, TRN_R_64F, W, 8, I, &es), 1, "gesvdp params");
  b.expect(gp(P, static_cast<trnsolverEigMode_t>(4), 1, m, n, A, m, O, O + 8, m, O + 40, n, TRN_R_64F, W, 8, I, &es), 2, "gesvdp jobz");
  b.expect(gp(P, V, 2, m, n, A, m, O, O + 8, m, O + 40, n, TRN_R_64F, W, 8, I, &es), 3, "gesvdp econ");
  b.expect(gp(P, V, 1, -1, n, A, m, O, O + 8, m, O + 40, n, TRN_R_64F, W, 8, I, &es), 4, "gesvdp m");
  b.expect(gp(P, V, 1, m, -1, A, m, O, O + 8, m, O + 40, n, TRN_R_64F, W, 8, I, &es), 5, "gesvdp n");
  b.expect(gp(P, V, 1, m, n, nullptr, m, O, O + 8, m, O + 40, n, TRN_R_64F, W, 8, I, &es), 7, "gesvdp A");
  b.expect(gp(P, V, 1, m, n, A, m - 1, O, O + 8, m, O + 40, n, TRN_R_64F, W, 8, I, &es), 8, "gesvdp lda");
  b.expect(gp(P, V, 1, m, n, A, m, nullptr, O + 8, m, O + 40, n, TRN_R_64F, W, 8, I, &es), 10, "gesvdp S");
  b.expect(gp(P, V, 1, m, n, A, m, O, nullptr, m, O + 40, n, TRN_R_64F, W, 8, I, &es), 12, "gesvdp U");
  b.expect(gp(P, V, 1, m, n, A, m, O, O + 8, m - 1, O + 40, n, TRN_R_64F, W, 8, I, &es), 13, "gesvdp ldu");
  b.expect(gp(P, V, 1, m, n, A, m, O, O + 8, m, nullptr, n, TRN_R_64F, W, 8, I, &es), 15, "gesvdp V");
  b.expect(gp(P, V, 1, m, n, A, m, O, O + 8, m, O + 40, n - 1, TRN_R_64F, W, 8, I, &es), 16, "gesvdp ldv");
  b.expect(gp(P, V, 1, m, n, A, m, O, O + 8, m, O + 40, n, TRN_R_64F, nullptr, 8, I, &es), 18, "gesvdp buffer");
  b.expect(gp(P, V, 1, m, n, A, m, O, O + 8, m, O + 40, n, TRN_R_64F, W, 7, I, &es), 19, "gesvdp bytes");
  b.expect(gp(P, V, 1, m, n, A, m, O, O + 8, m, O + 40, n, TRN_R_64F, W, 8, nullptr, &es), 22, "gesvdp d_info", false);
  b.expect(gp(P, V, 1, m, n, A, m, O, O + 8, m, O + 40, n, TRN_R_64F, W, 8, I, nullptr), 23, "gesvdp h_err_sigma");
  EXPECT_EQ(gp(P, V, 1, m, n, A, m, O, O + 8, m, O + 40, n, TRN_R_32F, W, 8, I, &es), TRNSOLVER_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(es, -3.0);
  // Xgesvdr: params 1, jobu 2, jobv 3, m 4, n 5, k 6, p 7, niters 8, A 10, lda 11, Srand 13, Urand 15,
  // ldUrand 16, Vrand 18, ldVrand 19, buffers 21-24, d_info 25.
  auto gr = [&](trnsolverDnParams_t p, signed char ju, signed char jv, int64_t mm, int64_t nn, int64_t k, int64_t pp,
                int64_t it, double* a, int64_t lda, double* S, double* U, int64_t ldu, double* Vv, int64_t ldv,
                void* dev, size_t db, int* inf) {
    return trnsolverDnXgesvdr(h, p, ju, jv, mm, nn, k, pp, it, TRN_R_64F, a, lda, TRN_R_64F, S, TRN_R_64F, U, ldu,
                              TRN_R_64F, Vv, ldv, TRN_R_64F, dev, db, nullptr, 0, inf);
  };
  b.expect(gr(nullptr, 'S', 'S', m, n, 2, 1, 1, A, m, O, O + 8, m, O + 40, n, W, 8, I), 1, "gesvdr params");
  b.expect(gr(P, 'A', 'S', m, n, 2, 1, 1, A, m, O, O + 8, m, O + 40, n, W, 8, I), 2, "gesvdr jobu");
  b.expect(gr(P, 'S', 'X', m, n, 2, 1, 1, A, m, O, O + 8, m, O + 40, n, W, 8, I), 3, "gesvdr jobv");
  b.expect(gr(P, 'S', 'S', -1, n, 2, 1, 1, A, m, O, O + 8, m, O + 40, n, W, 8, I), 4, "gesvdr m");
  b.expect(gr(P, 'S', 'S', m, -1, 2, 1, 1, A, m, O, O + 8, m, O + 40, n, W, 8, I), 5, "gesvdr n");
  b.expect(gr(P, 'S', 'S', m, n, 0, 1, 1, A, m, O, O + 8, m, O + 40, n, W, 8, I), 6, "gesvdr k");
  b.expect(gr(P, 'S', 'S', m, n, 2, 3, 1, A, m, O, O + 8, m, O + 40, n, W, 8, I), 7, "gesvdr p");
  b.expect(gr(P, 'S', 'S', m, n, 2, 1, -1, A, m, O, O + 8, m, O + 40, n, W, 8, I), 8, "gesvdr niters");
  b.expect(gr(P, 'S', 'S', m, n, 2, 1, 1, nullptr, m, O, O + 8, m, O + 40, n, W, 8, I), 10, "gesvdr A");
  b.expect(gr(P, 'S', 'S', m, n, 2, 1, 1, A, m - 1, O, O + 8, m, O + 40, n, W, 8, I), 11, "gesvdr lda");
  b.expect(gr(P, 'S', 'S', m, n, 2, 1, 1, A, m, nullptr, O + 8, m, O + 40, n, W, 8, I), 13, "gesvdr Srand");
  b.expect(gr(P, 'S', 'S', m, n, 2, 1, 1, A, m, O, nullptr, m, O + 40, n, W, 8, I), 15, "gesvdr Urand");
  b.expect(gr(P, 'S', 'S', m, n, 2, 1, 1, A, m, O, O + 8, m - 1, O + 40, n, W, 8, I), 16, "gesvdr ldUrand");
  b.expect(gr(P, 'S', 'S', m, n, 2, 1, 1, A, m, O, O + 8, m, nullptr, n, W, 8, I), 18, "gesvdr Vrand");
  b.expect(gr(P, 'S', 'S', m, n, 2, 1, 1, A, m, O, O + 8, m, O + 40, n - 1, W, 8, I), 19, "gesvdr ldVrand");
  b.expect(gr(P, 'S', 'S', m, n, 2, 1, 1, A, m, O, O + 8, m, O + 40, n, nullptr, 8, I), 21, "gesvdr buffer");
  b.expect(gr(P, 'S', 'S', m, n, 2, 1, 1, A, m, O, O + 8, m, O + 40, n, W, 7, I), 22, "gesvdr bytes");
  b.expect(gr(P, 'S', 'S', m, n, 2, 1, 1, A, m, O, O + 8, m, O + 40, n, W, 8, nullptr), 25, "gesvdr d_info", false);
  // C/Z gesvd share S/D gesvd's checks: n > m at n's position 4.
  std::vector<CD> ca(64);
  const std::vector<CD> ca0 = ca;
  std::vector<double> cs(8, -1);
  b.expect(trnsolverDnZgesvd(h, 'A', 'A', 3, 4, reinterpret_cast<trnDoubleComplex*>(ca.data()), 3, cs.data(),
                             reinterpret_cast<trnDoubleComplex*>(ca.data()), 3,
                             reinterpret_cast<trnDoubleComplex*>(ca.data()), 4,
                             reinterpret_cast<trnDoubleComplex*>(ca.data()), 1, nullptr, I),
           4, "Zgesvd n > m");
  EXPECT_EQ(ca, ca0);
}

// ---- C99 walkthroughs (trnsolver_c_svd_walkthroughs.c) -----------------------------------------------

// Singular values of a matrix of this test by LAPACKE_dgesvd (the oracle).
std::vector<double> walkthrough_reference_values(std::vector<double> a, int m, int n) {
  std::vector<double> s(n), superb(n);
  EXPECT_EQ(LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, a.data(), m, s.data(), nullptr, m, nullptr, n,
                           superb.data()),
            0);
  return s;
}

// gesvdaStridedBatched on two 4 x 3 fp32 matrices (rank 3), Xgesvdp on a 5 x 3 fp64 matrix, Xgesvdr on
// A = H diag(4, 2, 1e-3, 1e-4) H (H the orthogonal 4 x 4 Hadamard / 2: singular values known) with rank 2,
// p 2, 2 iterations; bounds of docs/trnsolver.md "SVD family" (the name is kept from the ported samples).
TEST(TrnsolverSvdFamily, NvidiaSamples) {
  const double u32 = 0x1p-24, u64 = 0x1p-53;
  const float Af[24] = {3, -1, 2, 0, 1, 4, -2, 1, 0, 2, 1, 5, 1, 1, 1, 1, 2, -3, 0, 1, -1, 0, 4, 2};
  float S[6], U[24], V[18];
  double rn[2] = {-1, -1};
  int info[2] = {-1, -1};
  ASSERT_EQ(trnsolver_walkthrough_gesvda(4, 3, 3, 2, Af, S, U, V, rn, info), 0);
  for (int b = 0; b < 2; ++b) {
    EXPECT_EQ(info[b], 0);
    const auto ref = walkthrough_reference_values(std::vector<double>(Af + 12 * b, Af + 12 * b + 12), 4, 3);
    double fro = 0;
    for (int i = 0; i < 12; ++i) fro += double(Af[12 * b + i]) * Af[12 * b + i];
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(S[3 * b + k], ref[k], 8 * 4 * u32 * ref[0]) << b << "," << k;
    EXPECT_LE(rn[b], 16 * 3 * u32 * std::sqrt(fro)) << b;  // full rank kept: (sum_{j > rank} sigma_j^2)^1/2 = 0
  }
  const int m = 5, n = 3;
  const double A[15] = {2, 0, -1, 3, 1, -1, 4, 2, 0, 1, 3, 1, 5, -2, 0};
  double Sd[3], Ud[15], Vd[9], r_err = 1, err_sigma = -1;
  ASSERT_EQ(trnsolver_walkthrough_xgesvdp(m, n, A, Sd, Ud, Vd, &r_err, &err_sigma, info), 0);
  EXPECT_EQ(info[0], 0);
  double fro = 0;
  for (double v : A) fro += v * v;
  fro = std::sqrt(fro);
  const auto ref = walkthrough_reference_values(std::vector<double>(A, A + 15), m, n);
  for (int k = 0; k < n; ++k) EXPECT_NEAR(Sd[k], ref[k], 16 * m * u64 * fro) << k;
  EXPECT_LE(r_err, 32 * m * u64 * fro);
  EXPECT_EQ(err_sigma, 0.0);  // full rank
  const int h[4][4] = {{1, 1, 1, 1}, {1, -1, 1, -1}, {1, 1, -1, -1}, {1, -1, -1, 1}};
  const double sigma[4] = {4, 2, 1e-3, 1e-4};
  std::vector<double> R(16, 0.0);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) R[i + 4 * j] += 0.25 * h[i][k] * h[j][k] * sigma[k];
  double Sr[4] = {-1, -1, -1, -1};
  ASSERT_EQ(trnsolver_walkthrough_xgesvdr(4, 4, 2, 2, 2, R.data(), Sr, info), 0);
  EXPECT_EQ(info[0], 0);
  for (int k = 0; k < 2; ++k) EXPECT_NEAR(Sr[k], sigma[k], 16 * 4 * u64 * sigma[0]) << k;
}

}  // namespace

// gebrd's plan (trn::solver::GebrdPlan) in the C++ report: the blocked/unblocked choice, the crossover
// and panel width with their source (rule or TRNSOLVER_GEBRD_NX / _NB), the engines, the flop split
// (summing to xGEBD2's count, computed here independently), and the modeled time it predicts by
// replaying the driver on a synthetic matrix of the call's shape: S, whose modeled time does not depend
// on the data, within 1% of the call's.
namespace {
double gebrd_flops_reference(std::int64_t m, std::int64_t n) {  // 4 m n^2 - 4/3 n^3, column by column
  double f = 0;
  for (std::int64_t i = 0; i < n; ++i) f += 4.0 * (m - i) * (n - i - 1) + 4.0 * std::max<std::int64_t>(m - i - 1, 0) * (n - i - 1);
  return f;
}
double predicted_us(const std::string& plan) {
  const auto at = plan.find("predicted ");
  return at == std::string::npos ? -1.0 : std::stod(plan.substr(at + 10));
}
}  // namespace

TEST(GebrdPlan, PrintsChoiceCrossoverEnginesAndModeledTime) {
  namespace ts = trn::solver;
  {  // sgebrd 200 x 160: n > nx = 128, one panel of 32, the tail of 128 by xGEBD2
    std::mt19937 g(3);
    std::uniform_real_distribution<float> u(-1, 1);
    std::vector<float> a(200 * 160), d(160), e(160), tq(160), tp(160);
    for (float& x : a) x = u(g);
    ts::CallReport rep;
    ASSERT_EQ(ts::gebrd(ts::Settings{}, 200, 160, a.data(), 200, d.data(), e.data(), tq.data(), tp.data(), &rep), 0);
    EXPECT_NE(rep.plan.find("sgebrd plan 200x160"), std::string::npos) << rep.plan;
    EXPECT_NE(rep.plan.find("blocked Householder bidiagonalisation (xLABRD panels of 32, 32 columns by panels, xGEBD2 tail of 128)"),
              std::string::npos) << rep.plan;
    EXPECT_NE(rep.plan.find("crossover nx 128 (rule"), std::string::npos) << rep.plan;
    EXPECT_NE(rep.plan.find("TensorE (GEMMs, GEMVs)"), std::string::npos) << rep.plan;
    const double modeled_us = rep.profile.total_ns * 1e-3, predicted = predicted_us(rep.plan);
    EXPECT_NEAR(predicted / modeled_us, 1.0, 0.01) << rep.plan << "\nmodeled " << modeled_us << " us";
    const ts::GebrdPlan p = ts::plan_gebrd('s', 200, 160);
    EXPECT_EQ(p.blocked, 32);
    EXPECT_NEAR(p.host_flops + p.gemm_flops + p.gemv_flops, gebrd_flops_reference(200, 160), 1.0);
    EXPECT_NEAR(p.gemm_flops, p.gemv_flops, 1.0);  // a blocked column: half GEMMs, half GEMVs
  }
  {  // dgebrd: never blocked by the rule; the plan says so and runs on the host
    std::vector<double> a(40 * 30, 0.5), d(30), e(30), tq(30), tp(30);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = std::sin(0.37 * static_cast<double>(i));
    ts::CallReport rep;
    ASSERT_EQ(ts::gebrd(ts::Settings{}, 40, 30, a.data(), 40, d.data(), e.data(), tq.data(), tp.data(), &rep), 0);
    EXPECT_NE(rep.plan.find("unblocked Householder bidiagonalisation (xGEBD2, one host step)"), std::string::npos)
        << rep.plan;
    EXPECT_NE(rep.plan.find("crossover nx none (rule: D/Z never block"), std::string::npos) << rep.plan;
    EXPECT_NE(rep.plan.find("engines host CPU"), std::string::npos) << rep.plan;
    EXPECT_GT(predicted_us(rep.plan), 0.0) << rep.plan;
    const ts::GebrdPlan p = ts::plan_gebrd('z', 40, 30);
    EXPECT_EQ(p.blocked, 0);
    EXPECT_NEAR(p.host_flops, 4 * gebrd_flops_reference(40, 30), 4.0);
  }
  // The overrides: TRNSOLVER_GEBRD_NX 8, _NB 8 on a 40 x 30: panels at columns 0, 8, 16 (30, 22, 14 > 8),
  // the last 6 by xGEBD2; the plan names the variables.
  setenv("TRNSOLVER_GEBRD_NX", "8", 1);
  setenv("TRNSOLVER_GEBRD_NB", "8", 1);
  const ts::GebrdPlan p = ts::plan_gebrd('c', 40, 30);
  unsetenv("TRNSOLVER_GEBRD_NX");
  unsetenv("TRNSOLVER_GEBRD_NB");
  EXPECT_EQ(p.panels, 3);
  EXPECT_EQ(p.blocked, 24);
  const std::string text = p.print();
  EXPECT_NE(text.find("xGEBD2 tail of 6"), std::string::npos) << text;
  EXPECT_NE(text.find("panel width 8 from TRNSOLVER_GEBRD_NB"), std::string::npos) << text;
  EXPECT_NE(text.find("from TRNSOLVER_GEBRD_NX"), std::string::npos) << text;
  EXPECT_NE(text.find("4M"), std::string::npos) << text;
}
