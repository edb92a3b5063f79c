// QR (geqrf, orgqr/ungqr, ormqr/unmqr, Xgeqrf) in S, D, C, Z against LAPACKE (?geqrf, ?ormqr/?unmqr in
// double or double complex as the oracle, never in the library) and long-double error measures
// computed here. Bounds of docs/trnsolver.md "QR", two-sided: the error is below c n u_eff (the
// routine is as accurate as documented) and above u_eff / 64 (it really ran in the documented
// precision: an fp32 routine that secretly computed in fp64 fails).
#include <gtest/gtest.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "qr_oracles.hpp"
#include "trn/solver/qr.hpp"
#include "trnsolver.h"

namespace ts = trn::solver;

namespace {

template <class T>
struct Info {
  static constexpr bool complex = false;
  using Real = T;
  using Wide = double;
};
template <class R>
struct Info<std::complex<R>> {
  static constexpr bool complex = true;
  using Real = R;
  using Wide = std::complex<double>;
};
template <class T>
using Wide = typename Info<T>::Wide;
using qr_oracle::LD;
using qr_oracle::frob;
using qr_oracle::wide;

// u_eff of the documented modes: fp32 TensorE mode and fp32 host panels (S, C): 2^-24; Ozaki fp64 and
// fp64 host panels (D, Z): 2^-53.
template <class T>
double u_eff() {
  return std::is_same_v<typename Info<T>::Real, float> ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
}
// The constants of docs/trnsolver.md "QR": ||A - QR||_F / ||A||_F <= c_bwd max(m, n) u_eff,
// ||Q^H Q - I||_F <= c_orth max(m, n) u_eff, ormqr ||C' - C'_ref||_F / ||C||_F <= c_orm max(m, n) u_eff.
constexpr double kCBackward = 1.0, kCOrth = 4.0, kCOrm = 1.0, kFloor = 1.0 / 64;

template <class T>
T random_entry(std::mt19937_64& rng) {
  std::normal_distribution<double> nd(0.0, 1.0);
  if constexpr (Info<T>::complex)
    return T(static_cast<typename Info<T>::Real>(nd(rng)), static_cast<typename Info<T>::Real>(nd(rng)));
  else
    return static_cast<T>(nd(rng));
}

template <class T>
std::vector<T> random_matrix(std::int64_t rows, std::int64_t cols, std::int64_t ld, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> a(static_cast<std::size_t>(ld * std::max<std::int64_t>(cols, 1)), T(0));
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) a[i + j * ld] = random_entry<T>(rng);
  return a;
}

// The LAPACKE oracle in double (real) or double complex.
lapack_int ref_ormqr(char side, char trans, lapack_int m, lapack_int n, lapack_int k, const double* a, lapack_int lda,
                     const double* tau, double* c, lapack_int ldc) {
  return LAPACKE_dormqr(LAPACK_COL_MAJOR, side, trans == 'C' ? 'T' : trans, m, n, k, a, lda, tau, c, ldc);
}
lapack_int ref_ormqr(char side, char trans, lapack_int m, lapack_int n, lapack_int k, const std::complex<double>* a,
                     lapack_int lda, const std::complex<double>* tau, std::complex<double>* c, lapack_int ldc) {
  return LAPACKE_zunmqr(LAPACK_COL_MAJOR, side, trans, m, n, k, reinterpret_cast<const lapack_complex_double*>(a), lda,
                        reinterpret_cast<const lapack_complex_double*>(tau),
                        reinterpret_cast<lapack_complex_double*>(c), ldc);
}
lapack_int ref_geqrf(lapack_int m, lapack_int n, double* a, lapack_int lda, double* tau) {
  return LAPACKE_dgeqrf(LAPACK_COL_MAJOR, m, n, a, lda, tau);
}
lapack_int ref_geqrf(lapack_int m, lapack_int n, std::complex<double>* a, lapack_int lda, std::complex<double>* tau) {
  return LAPACKE_zgeqrf(LAPACK_COL_MAJOR, m, n, reinterpret_cast<lapack_complex_double*>(a), lda,
                        reinterpret_cast<lapack_complex_double*>(tau));
}

template <class T>
std::vector<Wide<T>> widen(const std::vector<T>& v) {
  std::vector<Wide<T>> w(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) w[i] = static_cast<Wide<T>>(v[i]);
  return w;
}

struct QrErrors {
  double backward = 0, orth = 0, r_vs_lapack = 0;
};

// geqrf then orgqr on an m x n matrix: backward error, orthogonality, and R against LAPACKE's
// ?geqrf of the same matrix in double (the same Householder conventions: R agrees to ~kappa n u).
template <class T>
QrErrors qr_errors(std::int64_t m, std::int64_t n, std::uint64_t seed) {
  const std::int64_t lda = m + 3, k = std::min(m, n);
  const std::vector<T> a0 = random_matrix<T>(m, n, lda, seed);
  std::vector<T> a = a0, tau(static_cast<std::size_t>(k));
  ts::Settings s;
  ts::CallReport rep;
  EXPECT_EQ(ts::geqrf(s, m, n, a.data(), lda, tau.data(), &rep), 0);
  EXPECT_NE(rep.plan.find("panel width " + std::to_string(ts::qr_panel_width(rep.plan[0]))), std::string::npos)
      << rep.plan;
  // Q: m x k from the first k reflector columns.
  std::vector<T> q(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(lda * k));
  EXPECT_EQ(ts::orgqr(s, m, k, k, q.data(), lda, tau.data()), 0);
  auto r = [&](std::int64_t i, std::int64_t j) { return i <= j ? wide(a[i + j * lda]) : LD(0); };
  const qr_oracle::QrErrors qe = qr_oracle::qr_errors(m, n, a0.data(), a.data(), lda, q.data(), lda);
  QrErrors e{qe.backward, qe.orth, 0};
  const long double na = frob(m, n, [&](std::int64_t i, std::int64_t j) { return wide(a0[i + j * lda]); });
  std::vector<Wide<T>> ar = widen(a0), tr(static_cast<std::size_t>(k));
  EXPECT_EQ(ref_geqrf(static_cast<lapack_int>(m), static_cast<lapack_int>(n), ar.data(), static_cast<lapack_int>(lda),
                      tr.data()),
            0);
  e.r_vs_lapack = double(frob(k, n, [&](std::int64_t i, std::int64_t j) {
                    return i <= j ? r(i, j) - wide(ar[i + j * lda]) : LD(0);
                  }) / na);
  return e;
}

template <class T>
class Qr : public ::testing::Test {};
using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Qr, Types);

// Tall (3 panels, the last narrower), wide (m < n) and one-panel shapes.
TYPED_TEST(Qr, GeqrfOrgqrBackwardErrorOrthogonalityAndRAgainstLapacke) {
  using T = TypeParam;
  const double u = u_eff<T>();
  // The default panel width (D/Z: one 128-column panel for these shapes) and 16 (several panels, the
  // last narrower, for every precision).
  for (const char* nb : {"", "16"})
  for (const auto& [m, n] : {std::pair{150, 70}, std::pair{40, 90}, std::pair{33, 33}}) {
    if (*nb != 0) setenv("TRNSOLVER_QR_NB", nb, 1);
    const QrErrors e = qr_errors<T>(m, n, 1000 + m + n);
    unsetenv("TRNSOLVER_QR_NB");
    const double mn = std::max(m, n);
    SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + " nb " + nb);
    EXPECT_LE(e.backward, kCBackward * mn * u);
    EXPECT_GE(e.backward, kFloor * u);
    EXPECT_LE(e.orth, kCOrth * mn * u);
    EXPECT_GE(e.orth, kFloor * u);
    // Random Gaussian matrices of these shapes have kappa < 100: R within 100 c n u of LAPACK's.
    EXPECT_LE(e.r_vs_lapack, 100 * kCBackward * mn * u);
  }
}

// ormqr/unmqr, every side and operation, against LAPACKE ?ormqr/?unmqr in double applied to the same
// reflectors.
TYPED_TEST(Qr, OrmqrEverySideAndOperationAgainstLapacke) {
  using T = TypeParam;
  const double u = u_eff<T>();
  const char adj = Info<T>::complex ? 'C' : 'T';
  const std::int64_t nq = 75, k = 45;
  std::vector<T> a = random_matrix<T>(nq, k, nq, 7), tau(k);
  ts::Settings s;
  ASSERT_EQ(ts::geqrf(s, nq, k, a.data(), nq, tau.data()), 0);
  setenv("TRNSOLVER_QR_NB", "16", 1);  // three blocks (16, 16, 13): the block order matters
  for (const bool left : {true, false})
    for (const bool trans : {false, true}) {
      const std::int64_t m = left ? nq : 38, n = left ? 41 : nq, ldc = m + 2;
      const std::vector<T> c0 = random_matrix<T>(m, n, ldc, 11 + left + 2 * trans);
      std::vector<T> c = c0;
      ts::CallReport rep;
      ASSERT_EQ(ts::ormqr(s, left, trans, m, n, k, a.data(), nq, tau.data(), c.data(), ldc, &rep), 0);
      std::vector<Wide<T>> cr = widen(c0), ar = widen(a), tr = widen(tau);
      ASSERT_EQ(ref_ormqr(left ? 'L' : 'R', trans ? adj : 'N', static_cast<lapack_int>(m), static_cast<lapack_int>(n),
                          static_cast<lapack_int>(k), ar.data(), static_cast<lapack_int>(nq), tr.data(), cr.data(),
                          static_cast<lapack_int>(ldc)),
                0);
      const long double nc = frob(m, n, [&](std::int64_t i, std::int64_t j) { return wide(c0[i + j * ldc]); });
      const double err = double(frob(m, n, [&](std::int64_t i, std::int64_t j) {
                           return wide(c[i + j * ldc]) - LD(std::real(cr[i + j * ldc]), std::imag(cr[i + j * ldc]));
                         }) / nc);
      SCOPED_TRACE(std::string(left ? "left" : "right") + (trans ? " adjoint" : " no-trans"));
      EXPECT_LE(err, kCOrm * static_cast<double>(std::max(m, n)) * u);
      EXPECT_GE(err, kFloor * u);
      EXPECT_GT(rep.profile.tensor_flops, 0.0);  // the block reflectors ran on TensorE
      EXPECT_GT(rep.profile.host_steps, 0);
    }
  unsetenv("TRNSOLVER_QR_NB");
}

}  // namespace

// ---- C API -----------------------------------------------------------------------------------------

extern "C" {
int trnsolver_walkthrough_orgqr(int m, int n, const double* A, double* Q, double* orth);
int trnsolver_walkthrough_ormqr(int n, const double* A, const double* b, double* x);
int trnsolver_walkthrough_xgeqrf(std::int64_t m, std::int64_t n, const double* A, double* A_out, double* tau);
}

namespace {

struct Handle {
  trnsolverDnHandle_t h = nullptr;
  Handle() { EXPECT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS); }
  ~Handle() { trnsolverDnDestroy(h); }
};

// The C99 walkthroughs of the orgqr, ormqr and Xgeqrf call sequences (trnsolver_c_qr_walkthroughs.c) on
// integer matrices of this test: Q and the factored A against LAPACKE dgeqrf/dorgqr, |I - Q^T Q|, and a
// square solve against its integer solution.
TEST(TrnsolverQrSamples, OrgqrOrmqrXgeqrfPrintTheirDocumentedResults) {
  const int m = 5, n = 3;
  const double a[15] = {3, -1, 2, 0, 1, 1, 4, -2, 2, 0, -2, 1, 5, 1, 3};  // column-major 5 x 3
  double q[15], orth = -1;
  ASSERT_EQ(trnsolver_walkthrough_orgqr(m, n, a, q, &orth), 0);
  double qr_ref[15], tau_ref[3];
  std::memcpy(qr_ref, a, sizeof a);
  ASSERT_EQ(LAPACKE_dgeqrf(LAPACK_COL_MAJOR, m, n, qr_ref, m, tau_ref), 0);
  double q_ref[15];
  std::memcpy(q_ref, qr_ref, sizeof qr_ref);
  ASSERT_EQ(LAPACKE_dorgqr(LAPACK_COL_MAJOR, m, n, n, q_ref, m, tau_ref), 0);
  for (int i = 0; i < m * n; ++i) EXPECT_NEAR(q[i], q_ref[i], 1e-14) << i;
  EXPECT_LT(orth, 1e-14);
  double f[15], tau[3];
  ASSERT_EQ(trnsolver_walkthrough_xgeqrf(m, n, a, f, tau), 0);
  for (int i = 0; i < m * n; ++i) EXPECT_NEAR(f[i], qr_ref[i], 1e-14 * 8) << i;  // |R| <= ||A||_F < 8
  for (int i = 0; i < n; ++i) EXPECT_NEAR(tau[i], tau_ref[i], 1e-14) << i;
  const double s[16] = {5, 1, -1, 2, 2, 6, 0, -1, 1, -2, 7, 1, 0, 1, 3, 4};  // 4 x 4, diagonally dominant
  const double x_true[4] = {1, -1, 2, 3};
  double b[4] = {0, 0, 0, 0}, x[4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) b[i] += s[i + 4 * j] * x_true[j];
  ASSERT_EQ(trnsolver_walkthrough_ormqr(4, s, b, x), 0);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(x[i], x_true[i], 1e-13) << i;
}

// The C entry points run the C++ routines: same bits for every precision, Lwork as _bufferSize says.
TEST(TrnsolverQrCApi, EveryPrecisionMatchesTheCppApiBitForBit) {
  Handle h;
  const int m = 40, n = 35, lda = 41;
  auto run = [&](auto tag, auto geqrf_bs, auto geqrf, auto org_bs, auto org, auto orm_bs, auto orm) {
    using C = decltype(tag);
    using T = std::conditional_t<std::is_same_v<C, trnComplex>, std::complex<float>,
                                 std::conditional_t<std::is_same_v<C, trnDoubleComplex>, std::complex<double>, C>>;
    std::vector<T> a = random_matrix<T>(m, n, lda, 5), ref = a, tau(n), tref(n);
    ts::Settings s;
    ts::geqrf(s, m, n, ref.data(), lda, tref.data());
    int lwork = 0, info = 7;
    ASSERT_EQ(geqrf_bs(h.h, m, n, reinterpret_cast<C*>(a.data()), lda, &lwork), TRNSOLVER_STATUS_SUCCESS);
    const char prefix = std::is_same_v<T, float> ? 's' : std::is_same_v<T, double> ? 'd' : std::is_same_v<C, trnComplex> ? 'c' : 'z';
    EXPECT_EQ(lwork, ts::qr_workspace(prefix, 'q', m, n, n));
    std::vector<T> work(static_cast<std::size_t>(lwork));
    auto* ca = reinterpret_cast<C*>(a.data());
    auto* ct = reinterpret_cast<C*>(tau.data());
    auto* cw = reinterpret_cast<C*>(work.data());
    ASSERT_EQ(geqrf(h.h, m, n, ca, lda, ct, cw, lwork, &info), TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(info, 0);
    EXPECT_EQ(std::memcmp(a.data(), ref.data(), a.size() * sizeof(T)), 0);
    EXPECT_EQ(std::memcmp(tau.data(), tref.data(), tau.size() * sizeof(T)), 0);
    // ormqr: C = Q^H [A's R] by the C API and the C++ API; orgqr likewise.
    std::vector<T> c = random_matrix<T>(m, 3, m, 9), cref = c;
    const trnblasOperation_t adj = std::is_same_v<T, C> ? TRNBLAS_OP_T : TRNBLAS_OP_C;
    ASSERT_EQ(orm_bs(h.h, TRNBLAS_SIDE_LEFT, adj, m, 3, n, ca, lda, ct, reinterpret_cast<C*>(c.data()), m, &lwork),
              TRNSOLVER_STATUS_SUCCESS);
    work.resize(static_cast<std::size_t>(lwork));
    cw = reinterpret_cast<C*>(work.data());
    ASSERT_EQ(orm(h.h, TRNBLAS_SIDE_LEFT, adj, m, 3, n, ca, lda, ct, reinterpret_cast<C*>(c.data()), m, cw, lwork,
                  &info),
              TRNSOLVER_STATUS_SUCCESS);
    ts::ormqr(s, true, true, m, 3, n, ref.data(), lda, tref.data(), cref.data(), m);
    EXPECT_EQ(std::memcmp(c.data(), cref.data(), c.size() * sizeof(T)), 0);
    ASSERT_EQ(org_bs(h.h, m, n, n, ca, lda, ct, &lwork), TRNSOLVER_STATUS_SUCCESS);
    work.resize(static_cast<std::size_t>(lwork));
    cw = reinterpret_cast<C*>(work.data());
    ASSERT_EQ(org(h.h, m, n, n, ca, lda, ct, cw, lwork, &info), TRNSOLVER_STATUS_SUCCESS);
    ts::orgqr(s, m, n, n, ref.data(), lda, tref.data());
    EXPECT_EQ(std::memcmp(a.data(), ref.data(), a.size() * sizeof(T)), 0);
    EXPECT_EQ(info, 0);
    trnProfile_t prof{};
    ASSERT_EQ(trnsolverDnGetLastProfile(h.h, &prof), TRNSOLVER_STATUS_SUCCESS);
    EXPECT_GT(prof.total_ns, 0.0);
  };
  run(float{}, trnsolverDnSgeqrf_bufferSize, trnsolverDnSgeqrf, trnsolverDnSorgqr_bufferSize, trnsolverDnSorgqr,
      trnsolverDnSormqr_bufferSize, trnsolverDnSormqr);
  run(double{}, trnsolverDnDgeqrf_bufferSize, trnsolverDnDgeqrf, trnsolverDnDorgqr_bufferSize, trnsolverDnDorgqr,
      trnsolverDnDormqr_bufferSize, trnsolverDnDormqr);
  run(trnComplex{}, trnsolverDnCgeqrf_bufferSize, trnsolverDnCgeqrf, trnsolverDnCungqr_bufferSize, trnsolverDnCungqr,
      trnsolverDnCunmqr_bufferSize, trnsolverDnCunmqr);
  run(trnDoubleComplex{}, trnsolverDnZgeqrf_bufferSize, trnsolverDnZgeqrf, trnsolverDnZungqr_bufferSize,
      trnsolverDnZungqr, trnsolverDnZunmqr_bufferSize, trnsolverDnZunmqr);
}

// Every argument in cuSOLVER's order: INVALID_VALUE, info = -position, nothing else written; Lwork one
// below _bufferSize is INVALID_VALUE; a bad handle NOT_INITIALIZED.
TEST(TrnsolverQrCApi, BadInputPerArgumentLeavesOutputsUntouched) {
  Handle h;
  const int m = 6, n = 4;
  std::vector<double> a(48, 1.5), tau(4, -2.0), work(4096, 0.0), c(48, 3.0);
  const std::vector<double> a0 = a, tau0 = tau, c0 = c;
  int lw = 0;
  ASSERT_EQ(trnsolverDnDgeqrf_bufferSize(h.h, m, n, a.data(), m, &lw), TRNSOLVER_STATUS_SUCCESS);
  int info = 0;
  auto expect_fail = [&](trnsolverStatus_t st, int pos, const char* what) {  // the call ran: info is its
    EXPECT_EQ(st, TRNSOLVER_STATUS_INVALID_VALUE) << what;
    EXPECT_EQ(info, -pos) << what;
    int last = 0;
    trnsolverDnGetLastErrorParameter(h.h, &last);
    EXPECT_EQ(last, pos) << what;
    EXPECT_EQ(a, a0) << what;
    EXPECT_EQ(tau, tau0) << what;
    EXPECT_EQ(c, c0) << what;
  };
  double* A = a.data();
  double* T = tau.data();
  double* W = work.data();
  // geqrf: m 1, n 2, A 3, lda 4, TAU 5, Workspace 6, Lwork 7.
  expect_fail(trnsolverDnDgeqrf(h.h, -1, n, A, m, T, W, lw, &info), 1, "geqrf m");
  expect_fail(trnsolverDnDgeqrf(h.h, m, -1, A, m, T, W, lw, &info), 2, "geqrf n");
  expect_fail(trnsolverDnDgeqrf(h.h, m, n, nullptr, m, T, W, lw, &info), 3, "geqrf A");
  expect_fail(trnsolverDnDgeqrf(h.h, m, n, A, m - 1, T, W, lw, &info), 4, "geqrf lda");
  expect_fail(trnsolverDnDgeqrf(h.h, m, n, A, m, nullptr, W, lw, &info), 5, "geqrf TAU");
  expect_fail(trnsolverDnDgeqrf(h.h, m, n, A, m, T, nullptr, lw, &info), 6, "geqrf Workspace");
  expect_fail(trnsolverDnDgeqrf(h.h, m, n, A, m, T, W, lw - 1, &info), 7, "geqrf Lwork too small");
  EXPECT_EQ(trnsolverDnDgeqrf(h.h, m, n, A, m, T, W, lw, nullptr), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnDgeqrf(nullptr, m, n, A, m, T, W, lw, &info), TRNSOLVER_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(trnsolverDnDgeqrf_bufferSize(h.h, m, n, A, m, nullptr), TRNSOLVER_STATUS_INVALID_VALUE);
  // orgqr: m 1, n 2 (n <= m), k 3 (k <= n), A 4, lda 5, tau 6, work 7, lwork 8.
  ASSERT_EQ(trnsolverDnDorgqr_bufferSize(h.h, m, n, n, A, m, T, &lw), TRNSOLVER_STATUS_SUCCESS);
  expect_fail(trnsolverDnDorgqr(h.h, -1, n, n, A, m, T, W, lw, &info), 1, "orgqr m");
  expect_fail(trnsolverDnDorgqr(h.h, m, m + 1, n, A, m, T, W, lw, &info), 2, "orgqr n > m");
  expect_fail(trnsolverDnDorgqr(h.h, m, n, n + 1, A, m, T, W, lw, &info), 3, "orgqr k > n");
  expect_fail(trnsolverDnDorgqr(h.h, m, n, n, nullptr, m, T, W, lw, &info), 4, "orgqr A");
  expect_fail(trnsolverDnDorgqr(h.h, m, n, n, A, m - 1, T, W, lw, &info), 5, "orgqr lda");
  expect_fail(trnsolverDnDorgqr(h.h, m, n, n, A, m, nullptr, W, lw, &info), 6, "orgqr tau");
  expect_fail(trnsolverDnDorgqr(h.h, m, n, n, A, m, T, nullptr, lw, &info), 7, "orgqr work");
  expect_fail(trnsolverDnDorgqr(h.h, m, n, n, A, m, T, W, lw - 1, &info), 8, "orgqr lwork too small");
  // ormqr: side 1, trans 2, m 3, n 4, k 5, A 6, lda 7, tau 8, C 9, ldc 10, work 11, lwork 12.
  const auto L = TRNBLAS_SIDE_LEFT;
  const auto Tr = TRNBLAS_OP_T;
  double* C = c.data();
  ASSERT_EQ(trnsolverDnDormqr_bufferSize(h.h, L, Tr, m, 2, n, A, m, T, C, m, &lw), TRNSOLVER_STATUS_SUCCESS);
  expect_fail(trnsolverDnDormqr(h.h, static_cast<trnblasSideMode_t>(7), Tr, m, 2, n, A, m, T, C, m, W, lw, &info),
              1, "ormqr side");
  expect_fail(trnsolverDnDormqr(h.h, L, static_cast<trnblasOperation_t>(9), m, 2, n, A, m, T, C, m, W, lw, &info),
              2, "ormqr trans");
  expect_fail(trnsolverDnDormqr(h.h, L, Tr, -1, 2, n, A, m, T, C, m, W, lw, &info), 3, "ormqr m");
  expect_fail(trnsolverDnDormqr(h.h, L, Tr, m, -1, n, A, m, T, C, m, W, lw, &info), 4, "ormqr n");
  expect_fail(trnsolverDnDormqr(h.h, L, Tr, m, 2, m + 1, A, m, T, C, m, W, lw, &info), 5, "ormqr k > m");
  expect_fail(trnsolverDnDormqr(h.h, L, Tr, m, 2, n, nullptr, m, T, C, m, W, lw, &info), 6, "ormqr A");
  expect_fail(trnsolverDnDormqr(h.h, L, Tr, m, 2, n, A, m - 1, T, C, m, W, lw, &info), 7, "ormqr lda");
  expect_fail(trnsolverDnDormqr(h.h, L, Tr, m, 2, n, A, m, nullptr, C, m, W, lw, &info), 8, "ormqr tau");
  expect_fail(trnsolverDnDormqr(h.h, L, Tr, m, 2, n, A, m, T, nullptr, m, W, lw, &info), 9, "ormqr C");
  expect_fail(trnsolverDnDormqr(h.h, L, Tr, m, 2, n, A, m, T, C, m - 1, W, lw, &info), 10, "ormqr ldc");
  expect_fail(trnsolverDnDormqr(h.h, L, Tr, m, 2, n, A, m, T, C, m, nullptr, lw, &info), 11, "ormqr work");
  expect_fail(trnsolverDnDormqr(h.h, L, Tr, m, 2, n, A, m, T, C, m, W, lw - 1, &info), 12, "ormqr lwork");
  // unmqr: OP_T is not an operation of a complex Q (N or C).
  std::vector<trnComplex> za(48, trnComplex{1, 0}), zt(4, trnComplex{0, 0}), zc(48, trnComplex{2, 0}), zw(4096);
  EXPECT_EQ(trnsolverDnCunmqr(h.h, L, TRNBLAS_OP_T, m, 2, n, za.data(), m, zt.data(), zc.data(), m, zw.data(), 4096,
                              &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -2);
  // Xgeqrf: params 1, m 2, n 3, A 5, lda 6, tau 8, bufferOnDevice 10, bytes 11; types NOT_SUPPORTED.
  trnsolverDnParams_t p = nullptr;
  ASSERT_EQ(trnsolverDnCreateParams(&p), TRNSOLVER_STATUS_SUCCESS);
  size_t dev = 0, host = 7;
  ASSERT_EQ(trnsolverDnXgeqrf_bufferSize(h.h, p, m, n, TRN_R_64F, A, m, TRN_R_64F, T, TRN_R_64F, &dev, &host),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(host, 0u);
  EXPECT_EQ(dev, static_cast<size_t>(ts::qr_workspace('d', 'q', m, n, n)) * sizeof(double));
  auto x = [&](trnsolverDnParams_t pp, int64_t mm, int64_t nn, trnDataType_t ta, void* aa, int64_t ld, trnDataType_t tt,
               void* t, void* buf, size_t bytes) {
    return trnsolverDnXgeqrf(h.h, pp, mm, nn, ta, aa, ld, tt, t, TRN_R_64F, buf, bytes, nullptr, 0, &info);
  };
  const auto R64 = TRN_R_64F;
  expect_fail(x(nullptr, m, n, R64, A, m, R64, T, W, dev), 1, "Xgeqrf params");
  expect_fail(x(p, -1, n, R64, A, m, R64, T, W, dev), 2, "Xgeqrf m");
  expect_fail(x(p, m, -1, R64, A, m, R64, T, W, dev), 3, "Xgeqrf n");
  expect_fail(x(p, m, n, R64, nullptr, m, R64, T, W, dev), 5, "Xgeqrf A");
  expect_fail(x(p, m, n, R64, A, m - 1, R64, T, W, dev), 6, "Xgeqrf lda");
  expect_fail(x(p, m, n, R64, A, m, R64, nullptr, W, dev), 8, "Xgeqrf tau");
  expect_fail(x(p, m, n, R64, A, m, R64, T, nullptr, dev), 10, "Xgeqrf bufferOnDevice");
  expect_fail(x(p, m, n, R64, A, m, R64, T, W, dev - 1), 11, "Xgeqrf workspace too small");
  EXPECT_EQ(x(p, m, n, TRN_R_32F, A, m, R64, T, W, dev), TRNSOLVER_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(x(p, m, n, TRN_R_16F, A, m, TRN_R_16F, T, W, dev), TRNSOLVER_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(a, a0);
  // A good call after the bad ones: info 0, R's diagonal nonzero.
  ASSERT_EQ(x(p, m, n, R64, A, m, R64, T, W, dev), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_NE(a[0], 0.0);
  EXPECT_EQ(trnsolverDnDestroyParams(p), TRNSOLVER_STATUS_SUCCESS);
}

// Empty shapes are no-ops with info 0; a non-finite entry propagates (no hang, info 0).
TEST(TrnsolverQrCApi, EmptyAndNonFinite) {
  Handle h;
  double a[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, tau[3] = {5, 5, 5}, w[4096];
  int info = 3;
  EXPECT_EQ(trnsolverDnDgeqrf(h.h, 0, 3, nullptr, 1, nullptr, w, 1, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  a[4] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(trnsolverDnDgeqrf(h.h, 4, 3, a, 4, tau, w, 4096, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_TRUE(std::isnan(a[4 + 4 + 1]));  // R(1, 1) and below are NaN
}

}  // namespace

// The panel-width override (trnsci extension): the handle's value goes ahead of TRNSOLVER_QR_NB and
// the rule, in the plan, the _bufferSize and the run alike; 0 restores the rule; out-of-range values
// are rejected (parameter 1) and leave the setting. The blocking changes the bits (as in LAPACK), so
// nb = 16 and the environment's nb = 16 give the same result, different from the rule's.
TEST(TrnsolverQrCApi, BlockSizeOverrideGoesThroughOnePlace) {
  EXPECT_EQ(ts::qr_panel_width('s'), ts::kQrPanelWidthS);
  EXPECT_EQ(ts::qr_panel_width('z', 32), 32);
  EXPECT_EQ(ts::qr_panel_width('c', 129), ts::kQrPanelWidthC);  // out of range: the rule
  setenv("TRNSOLVER_QR_NB", "24", 1);
  const char* source = nullptr;
  EXPECT_EQ(ts::qr_panel_width('s', 0, &source), 24);
  EXPECT_STREQ(source, "TRNSOLVER_QR_NB");
  EXPECT_EQ(ts::qr_panel_width('s', 16, &source), 16);  // the API first
  EXPECT_STREQ(source, "Settings::qr_block_size");
  unsetenv("TRNSOLVER_QR_NB");

  Handle h;
  int nb = -1;
  EXPECT_EQ(trnsolverDnGetQrBlockSize(h.h, &nb), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(nb, 0);
  for (const int bad : {-1, 129, 1 << 30}) {
    EXPECT_EQ(trnsolverDnSetQrBlockSize(h.h, bad), TRNSOLVER_STATUS_INVALID_VALUE) << bad;
    int last = 0;
    trnsolverDnGetLastErrorParameter(h.h, &last);
    EXPECT_EQ(last, 1) << bad;
  }
  EXPECT_EQ(trnsolverDnGetQrBlockSize(h.h, nullptr), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnGetQrBlockSize(h.h, &nb), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(nb, 0);
  EXPECT_EQ(trnsolverDnSetQrBlockSize(nullptr, 8), TRNSOLVER_STATUS_NOT_INITIALIZED);

  const int m = 70, n = 40;
  const std::vector<float> a0 = random_matrix<float>(m, n, m, 5);
  auto run = [&](int lwork_nb) {
    std::vector<float> a = a0, tau(n), w(1 << 14);
    int lwork = 0, info = -1;
    EXPECT_EQ(trnsolverDnSgeqrf_bufferSize(h.h, m, n, a.data(), m, &lwork), TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(lwork, ts::qr_workspace('s', 'q', m, n, n, true, lwork_nb));
    EXPECT_EQ(trnsolverDnSgeqrf(h.h, m, n, a.data(), m, tau.data(), w.data(), lwork, &info), TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(info, 0);
    return a;
  };
  const std::vector<float> by_rule = run(0);
  ASSERT_EQ(trnsolverDnSetQrBlockSize(h.h, 16), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnGetQrBlockSize(h.h, &nb), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(nb, 16);
  const std::vector<float> by_api = run(16);
  EXPECT_NE(by_api, by_rule);
  ASSERT_EQ(trnsolverDnSetQrBlockSize(h.h, 0), TRNSOLVER_STATUS_SUCCESS);
  setenv("TRNSOLVER_QR_NB", "16", 1);
  const std::vector<float> by_env = run(16);
  unsetenv("TRNSOLVER_QR_NB");
  EXPECT_EQ(by_env, by_api);
  // The C++ plan states the source of the width.
  ts::Settings s;
  s.qr_block_size = 16;
  std::vector<float> a = a0, tau(n);
  ts::CallReport rep;
  ASSERT_EQ(ts::geqrf(s, m, n, a.data(), m, tau.data(), &rep), 0);
  EXPECT_EQ(a, by_api);
  EXPECT_NE(rep.plan.find("panel width 16"), std::string::npos) << rep.plan;
  EXPECT_NE(rep.plan.find("from Settings::qr_block_size"), std::string::npos) << rep.plan;
}

namespace {

// The "predicted <t> us" of a printed plan, in ns (-1: none).
double predicted_of(const std::string& plan) {
  const auto at = plan.find("predicted ");
  return at == std::string::npos ? -1.0 : std::stod(plan.substr(at + 10)) * 1e3;
}

}  // namespace

// QrPlan's predicted time (S routines: host steps by the host formula, GEMMs by trnblas's predictor,
// made before the run) against the modeled time of the call that ran, over geqrf/orgqr/ormqr shapes
// and panel widths. Band +-10% (docs/cost-model.md section 8), two-sided; C, D, Z state no prediction.
TEST(QrPlanPrediction, PredictedTimeMatchesTheModeledTime) {
  struct Case {
    char kind;
    std::int64_t m, n, k, nb;
    bool left, trans;
  };
  const std::vector<Case> cases = {
      {'q', 150, 70, 70, 0, true, false},   {'q', 300, 120, 120, 16, true, false}, {'q', 64, 200, 64, 0, true, false},
      {'g', 200, 90, 90, 0, true, false},   {'m', 120, 80, 60, 0, true, true},     {'m', 70, 120, 50, 16, false, false},
  };
  for (const Case& c : cases) {
    ts::Settings s;
    s.qr_block_size = c.nb;
    const std::int64_t nq = c.kind == 'm' && !c.left ? c.n : c.m;
    const std::int64_t acols = c.kind == 'q' ? c.n : c.k;
    std::vector<float> a = random_matrix<float>(nq, std::max(acols, c.n), nq, 21), tau(std::max(c.n, c.k)), cm;
    ts::CallReport rep;
    if (c.kind != 'q') {
      ASSERT_EQ(ts::geqrf(s, nq, c.k, a.data(), nq, tau.data()), 0);
    }
    if (c.kind == 'q') {
      ASSERT_EQ(ts::geqrf(s, c.m, c.n, a.data(), c.m, tau.data(), &rep), 0);
    }
    if (c.kind == 'g') {
      ASSERT_EQ(ts::orgqr(s, c.m, c.n, c.k, a.data(), c.m, tau.data(), &rep), 0);
    }
    if (c.kind == 'm') {
      cm = random_matrix<float>(c.m, c.n, c.m, 22);
      ASSERT_EQ(ts::ormqr(s, c.left, c.trans, c.m, c.n, c.k, a.data(), nq, tau.data(), cm.data(), c.m, &rep), 0);
    }
    const double predicted = predicted_of(rep.plan), actual = rep.profile.total_ns;
    SCOPED_TRACE(std::string(1, c.kind) + " " + std::to_string(c.m) + "x" + std::to_string(c.n) + " k " +
                 std::to_string(c.k) + " nb " + std::to_string(c.nb) + ": predicted " + std::to_string(predicted) +
                 " ns, modeled " + std::to_string(actual) + " ns");
    ASSERT_GT(predicted, 0.0) << rep.plan;
    EXPECT_NEAR(predicted / actual, 1.0, 0.10);
    std::printf("prediction %c %lldx%lld k %lld nb %lld: predicted %.2f us, modeled %.2f us (%+.1f%%)\n", c.kind,
                static_cast<long long>(c.m), static_cast<long long>(c.n), static_cast<long long>(c.k),
                static_cast<long long>(c.nb), predicted * 1e-3, actual * 1e-3, 100 * (predicted / actual - 1));
  }
  // C states its prediction too: the driver's steps replayed timing-only (its 4M GEMMs overlap the
  // host panels), exact here; D, Z and more C shapes in tests/trnsolver/test_trnsolver_predict.cpp
  // (docs/cost-model.md section 9).
  std::vector<std::complex<float>> a = random_matrix<std::complex<float>>(40, 30, 40, 5), tau(30);
  ts::CallReport rep;
  ASSERT_EQ(ts::geqrf(ts::Settings{}, 40, 30, a.data(), 40, tau.data(), &rep), 0);
  EXPECT_NEAR(predicted_of(rep.plan) / rep.profile.total_ns, 1.0, 0.01) << rep.plan;
}
