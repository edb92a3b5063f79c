// libtrnsolver_lapack.so, QR family: ?GEQRF, ?ORGQR / ?UNGQR, ?ORMQR / ?UNMQR and ?GELS (S, D, C, Z).
// Reference LAPACK 3.11's argument checks and workspace answers (its ILAENV defaults: NB = 32 for
// GEQRF, ORGQR, ORMQR; ORMQR's T block of 65 x 64); the kit's blocked Householder QR (qr.hpp) answers.
// The kit allocates its own scratch: WORK is only checked (LWORK) and receives the optimal size.
//
// ?GELS is LAPACK's composition for M >= N: GEQRF, then (TRANS = 'N') Q^T B and R X = (Q^T B)(1:N), or
// (TRANS = 'T'/'C') R^T Y = B(1:N), B(N+1:M) = 0, Q Y - the triangular solves by trnblas TRSM (fp32
// mode for S/C, Ozaki fp64 for D/Z). M < N (LAPACK's LQ path: xGELQF, xORMLQ) is the same on the QR of
// A^H (A = L Q with L = R^H, Q = Q_R^H; gels_lq). It passes through what the kit has no counterpart for:
// matrices LAPACK would rescale first (max |a_ij| or max |b_ij| outside [SMLNUM, BIGNUM] = [safmin /
// eps, eps / safmin]; or not finite).
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <vector>

#include "abi_internal.hpp"
#include "trn/blas/level3.hpp"
#include "trn/solver/qr.hpp"

namespace trnsolver_lapack {
namespace {

namespace ts = trn::solver;

// ILAENV(1, 'xGEQRF' / 'xORGQR' / 'xORMQR', ...) of reference LAPACK, and xORMQR's T block size.
constexpr int kLapackQrNb = 32;
constexpr int kLapackOrmqrTsize = 65 * 64;

// Trace arguments: "m=4 n=3 k=3 lda=4 lwork=-1".
struct Args {
  char text[160];
};

// ?GEQRF(M, N, A, LDA, TAU, WORK, LWORK, INFO): 1 m, 2 n, 4 lda, 7 lwork < max(1, n).
template <class T, class Next>
void geqrf_call(const Entry& e, int m, int n, T* a, int lda, T* tau, T* work, int lwork, int* info, Next&& next) {
  Args args;
  std::snprintf(args.text, sizeof args.text, "m=%d n=%d lda=%d lwork=%d", m, n, lda, lwork);
  const bool query = lwork == -1;
  const int bad = first_info({{m < 0, 1}, {n < 0, 2}, {lda < max1(m), 4}, {lwork < max1(n) && !query, 7}});
  run(e, args.text, bad, info, [&](const Settings& s, CallReport* r) {
    if (!query && m > 0 && n > 0) ts::geqrf(s, m, n, a, lda, tau, r);
    set_work_size(work, std::max<std::int64_t>(1, std::int64_t{n} * kLapackQrNb));
    return Answer::done(0);
  }, next);
}

// ?ORGQR / ?UNGQR(M, N, K, A, LDA, TAU, WORK, LWORK, INFO): 1 m, 2 n (0 <= n <= m), 3 k (0 <= k <= n),
// 5 lda, 8 lwork < max(1, n).
template <class T, class Next>
void orgqr_call(const Entry& e, int m, int n, int k, T* a, int lda, const T* tau, T* work, int lwork, int* info,
                Next&& next) {
  Args args;
  std::snprintf(args.text, sizeof args.text, "m=%d n=%d k=%d lda=%d lwork=%d", m, n, k, lda, lwork);
  const bool query = lwork == -1;
  const int bad = first_info({{m < 0, 1},
                              {n < 0 || n > m, 2},
                              {k < 0 || k > n, 3},
                              {lda < max1(m), 5},
                              {lwork < max1(n) && !query, 8}});
  run(e, args.text, bad, info, [&](const Settings& s, CallReport* r) {
    if (!query && n > 0) ts::orgqr(s, m, n, k, a, lda, tau, r);
    set_work_size(work, max1(n) * kLapackQrNb);
    return Answer::done(0);
  }, next);
}

// ?ORMQR / ?UNMQR(SIDE, TRANS, M, N, K, A, LDA, TAU, C, LDC, WORK, LWORK, INFO): 1 side, 2 trans
// (N, T; complex N, C), 3 m, 4 n, 5 k (0 <= k <= nq), 7 lda, 10 ldc, 12 lwork < nw.
template <class T, class Next>
void ormqr_call(const Entry& e, char side, char trans, int m, int n, int k, const T* a, int lda, const T* tau, T* c,
                int ldc, T* work, int lwork, int* info, Next&& next) {
  Args args;
  std::snprintf(args.text, sizeof args.text, "side=%c trans=%c m=%d n=%d k=%d lda=%d ldc=%d lwork=%d", side, trans, m,
                n, k, lda, ldc, lwork);
  const bool left = lsame(side, 'L'), query = lwork == -1;
  const int nq = left ? m : n;
  const std::int64_t nw = max1(left ? n : m);
  const bool trans_ok = lsame(trans, 'N') || lsame(trans, is_complex_v<T> ? 'C' : 'T');
  const int bad = first_info({{!left && !lsame(side, 'R'), 1},
                              {!trans_ok, 2},
                              {m < 0, 3},
                              {n < 0, 4},
                              {k < 0 || k > nq, 5},
                              {lda < max1(nq), 7},
                              {ldc < max1(m), 10},
                              {lwork < nw && !query, 12}});
  run(e, args.text, bad, info, [&](const Settings& s, CallReport* r) {
    if (!query && m > 0 && n > 0 && k > 0) ts::ormqr(s, left, !lsame(trans, 'N'), m, n, k, a, lda, tau, c, ldc, r);
    set_work_size(work, nw * kLapackQrNb + kLapackOrmqrTsize);
    return Answer::done(0);
  }, next);
}

// max |x_ij| of a rows x cols block (LAPACK xLANGE('M'); NaN if any element is NaN).
template <class T>
double max_abs(int rows, int cols, const T* x, int ld) {
  double biggest = 0;
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) {
      const double v = std::abs(x[i + static_cast<std::int64_t>(ld) * j]);
      if (std::isnan(v)) return v;
      biggest = std::max(biggest, v);
    }
  return biggest;
}

// xGELS rescales A (B) when max |a_ij| lies in (0, SMLNUM) or above BIGNUM, SMLNUM = safmin / eps
// (xLAMCH('S') / xLAMCH('P')): the kit runs unscaled, so such calls are not its to answer.
template <class T>
bool lapack_would_rescale(double norm) {
  using R = real_t<T>;
  const double smlnum = static_cast<double>(std::numeric_limits<R>::min()) / std::numeric_limits<R>::epsilon();
  return !std::isfinite(norm) || (norm > 0 && norm < smlnum) || norm > 1 / smlnum;
}

// B(0:rows, 0:cols) = 0 (xLASET('Full', ..., ZERO, ZERO)): LAPACK's answer for an empty or zero A.
template <class T>
void zero_rows(int row0, int rows, int cols, T* b, int ldb) {
  for (int j = 0; j < cols; ++j)
    for (int i = row0; i < rows; ++i) b[i + static_cast<std::int64_t>(ldb) * j] = T(0);
}

// R X = B (op N) or R^T X = B / R^H X = B: trnblas TRSM with R, the upper triangle of A (n x n).
template <class T>
void solve_r(const Settings& s, bool transposed, int n, int nrhs, const T* a, int lda, T* b, int ldb) {
  namespace tb = trn::blas;
  tb::Settings bs;
  static_cast<trn::EmulatorSettings&>(bs) = s;
  const auto side = tb::Side::left;
  const auto up = tb::Uplo::upper;
  const auto nonunit = tb::Diag::non_unit;
  if constexpr (std::is_same_v<T, float>)
    tb::strsm(bs, tb::GemmMode::fp32, side, up, transposed ? tb::Op::T : tb::Op::N, nonunit, n, nrhs, 1.0f, a, lda, b, ldb);
  else if constexpr (std::is_same_v<T, double>)
    tb::dtrsm(bs, side, up, transposed ? tb::Op::T : tb::Op::N, nonunit, n, nrhs, 1.0, a, lda, b, ldb);
  else if constexpr (std::is_same_v<T, cfloat>)
    tb::ctrsm(bs, tb::GemmMode::fp32, side, up, transposed ? tb::COp::C : tb::COp::N, nonunit, n, nrhs, T(1), a, lda,
              b, ldb);
  else
    tb::ztrsm(bs, side, up, transposed ? tb::COp::C : tb::COp::N, nonunit, n, nrhs, T(1), a, lda, b, ldb);
}

// The first i (1-based) with R(i, i) = 0 (xTRTRS's singularity check), 0 if none.
template <class T>
int zero_diagonal(int n, const T* a, int lda) {
  for (int i = 0; i < n; ++i)
    if (a[i + static_cast<std::int64_t>(lda) * i] == T(0)) return i + 1;
  return 0;
}

// The M >= N least-squares / minimum-norm solve of xGELS on the kit (A and B already checked).
template <class T>
int gels_qr(const Settings& s, bool transposed, int m, int n, int nrhs, T* a, int lda, T* b, int ldb, CallReport* r) {
  std::vector<T> tau(static_cast<std::size_t>(n));
  ts::geqrf(s, m, n, a, lda, tau.data(), r);
  if (!transposed) {  // min ||B - A X||: B = Q^T B, X = R^-1 B(1:n)
    ts::ormqr(s, true, true, m, nrhs, n, a, lda, tau.data(), b, ldb, r);
    if (const int singular = zero_diagonal(n, a, lda)) return singular;
    solve_r(s, false, n, nrhs, a, lda, b, ldb);
    return 0;
  }
  // min ||X|| subject to A^T X = B: Y = R^-T B(1:n), X = Q [Y; 0]
  if (const int singular = zero_diagonal(n, a, lda)) return singular;
  solve_r(s, true, n, nrhs, a, lda, b, ldb);
  zero_rows(n, m, nrhs, b, ldb);
  ts::ormqr(s, true, false, m, nrhs, n, a, lda, tau.data(), b, ldb, r);
  return 0;
}

// dst (cols x rows, ldd) = src^H (src rows x cols, lds): the conjugate transpose (a transpose for S, D).
template <class T>
void conj_transpose(int rows, int cols, const T* src, int lds, T* dst, int ldd) {
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) {
      const T v = src[i + static_cast<std::int64_t>(lds) * j];
      if constexpr (is_complex_v<T>)
        dst[j + static_cast<std::int64_t>(ldd) * i] = std::conj(v);
      else
        dst[j + static_cast<std::int64_t>(ldd) * i] = v;
    }
}

// M < N (LAPACK's LQ path) as the QR of C = A^H (N x M): A = L Q with L = R^H and Q = Q_C^H, so TRANS =
// 'N' (min ||X|| subject to A X = B; Golub & Van Loan 4th ed., 5.6.2) is C's minimum-norm solve
// (R^H Y = B(1:M), X = Q_C [Y; 0]) and TRANS = 'T' / 'C' (min ||B - A^H X||) C's least-squares solve.
// A then receives C^H: xGELQF's storage exactly (L in the lower triangle, conj(v_i) in row i right of
// the diagonal; the same tau, xGELQ2's H(i) = I - tau v v^H with Q = H(k)^H ... H(1)^H).
template <class T>
int gels_lq(const Settings& s, bool transposed, int m, int n, int nrhs, T* a, int lda, T* b, int ldb, CallReport* r) {
  std::vector<T> c(static_cast<std::size_t>(n) * static_cast<std::size_t>(m));
  conj_transpose(m, n, a, lda, c.data(), n);
  const int singular = gels_qr(s, !transposed, n, m, nrhs, c.data(), n, b, ldb, r);
  conj_transpose(n, m, c.data(), n, a, lda);
  return singular;
}

// ?GELS(TRANS, M, N, NRHS, A, LDA, B, LDB, WORK, LWORK, INFO): 1 trans (N, T; complex N, C), 2 m, 3 n,
// 4 nrhs, 6 lda, 8 ldb < max(1, m, n), 10 lwork < max(1, mn + max(mn, nrhs)).
template <class T, class Next>
void gels_call(const Entry& e, char trans, int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* work, int lwork,
               int* info, Next&& next) {
  Args args;
  std::snprintf(args.text, sizeof args.text, "trans=%c m=%d n=%d nrhs=%d lda=%d ldb=%d lwork=%d", trans, m, n, nrhs, lda,
                ldb, lwork);
  const int mn = std::min(m, n);
  const bool query = lwork == -1;
  const bool trans_ok = lsame(trans, 'N') || lsame(trans, is_complex_v<T> ? 'C' : 'T');
  const int bad = first_info({{!trans_ok, 1},
                              {m < 0, 2},
                              {n < 0, 3},
                              {nrhs < 0, 4},
                              {lda < max1(m), 6},
                              {ldb < max1(std::max(m, n)), 8},
                              {lwork < max1(std::int64_t{mn} + std::max(mn, nrhs)) && !query, 10}});
  run(e, args.text, bad, info, [&](const Settings& s, CallReport* r) {
    const std::int64_t wsize = std::max<std::int64_t>(1, mn + std::int64_t{std::max(mn, nrhs)} * kLapackQrNb);
    if (query || std::min({m, n, nrhs}) == 0) {
      if (!query) zero_rows(0, std::max(m, n), nrhs, b, ldb);
      set_work_size(work, wsize);
      return Answer::done(0);
    }
    const double anrm = max_abs(m, n, a, lda), bnrm = max_abs(std::max(m, n), nrhs, b, ldb);
    if (lapack_would_rescale<T>(anrm) || lapack_would_rescale<T>(bnrm))
      return Answer::pass("A or B outside LAPACK's unscaled range (or not finite)");
    if (anrm == 0) {
      zero_rows(0, std::max(m, n), nrhs, b, ldb);
      set_work_size(work, wsize);
      return Answer::done(0);
    }
    const bool transposed = !lsame(trans, 'N');
    const int singular = m >= n ? gels_qr(s, transposed, m, n, nrhs, a, lda, b, ldb, r)
                                : gels_lq(s, transposed, m, n, nrhs, a, lda, b, ldb, r);
    if (singular == 0) set_work_size(work, wsize);
    return Answer::done(singular);
  }, next);
}

}  // namespace
}  // namespace trnsolver_lapack

using namespace trnsolver_lapack;  // NOLINT: this file only defines the extern "C" entry points

extern "C" {

// NAME the symbol without '_', SR the XERBLA name, T the element type, P the pointer type of the
// arrays (T for real routines, void for complex ones).
#define TRNSOLVER_F77_GEQRF(NAME, SR, T, P)                                                                \
  void NAME##_(const int* m, const int* n, P* a, const int* lda, P* tau, P* work, const int* lwork,        \
               int* info) {                                                                                \
    geqrf_call<T>({#NAME "_", SR}, *m, *n, static_cast<T*>(a), *lda, static_cast<T*>(tau),                 \
                  static_cast<T*>(work), *lwork, info,                                                     \
                  TRNSOLVER_LAPACK_NEXT(NAME##_, m, n, a, lda, tau, work, lwork, info));                   \
  }
#define TRNSOLVER_F77_ORGQR(NAME, SR, T, P)                                                                \
  void NAME##_(const int* m, const int* n, const int* k, P* a, const int* lda, const P* tau, P* work,      \
               const int* lwork, int* info) {                                                              \
    orgqr_call<T>({#NAME "_", SR}, *m, *n, *k, static_cast<T*>(a), *lda, static_cast<const T*>(tau),       \
                  static_cast<T*>(work), *lwork, info,                                                     \
                  TRNSOLVER_LAPACK_NEXT(NAME##_, m, n, k, a, lda, tau, work, lwork, info));                \
  }
#define TRNSOLVER_F77_ORMQR(NAME, SR, T, P)                                                                \
  void NAME##_(const char* side, const char* trans, const int* m, const int* n, const int* k, const P* a,  \
               const int* lda, const P* tau, P* c, const int* ldc, P* work, const int* lwork, int* info,   \
               size_t side_len, size_t trans_len) {                                                        \
    ormqr_call<T>({#NAME "_", SR}, *side, *trans, *m, *n, *k, static_cast<const T*>(a), *lda,              \
                  static_cast<const T*>(tau), static_cast<T*>(c), *ldc, static_cast<T*>(work), *lwork, info, \
                  TRNSOLVER_LAPACK_NEXT(NAME##_, side, trans, m, n, k, a, lda, tau, c, ldc, work, lwork, info, \
                                        side_len, trans_len));                                             \
  }
#define TRNSOLVER_F77_GELS(NAME, SR, T, P)                                                                 \
  void NAME##_(const char* trans, const int* m, const int* n, const int* nrhs, P* a, const int* lda, P* b, \
               const int* ldb, P* work, const int* lwork, int* info, size_t trans_len) {                   \
    gels_call<T>({#NAME "_", SR}, *trans, *m, *n, *nrhs, static_cast<T*>(a), *lda, static_cast<T*>(b),     \
                 *ldb, static_cast<T*>(work), *lwork, info,                                                \
                 TRNSOLVER_LAPACK_NEXT(NAME##_, trans, m, n, nrhs, a, lda, b, ldb, work, lwork, info,      \
                                       trans_len));                                                        \
  }

TRNSOLVER_F77_GEQRF(sgeqrf, "SGEQRF", float, float)
TRNSOLVER_F77_GEQRF(dgeqrf, "DGEQRF", double, double)
TRNSOLVER_F77_GEQRF(cgeqrf, "CGEQRF", cfloat, void)
TRNSOLVER_F77_GEQRF(zgeqrf, "ZGEQRF", cdouble, void)
TRNSOLVER_F77_ORGQR(sorgqr, "SORGQR", float, float)
TRNSOLVER_F77_ORGQR(dorgqr, "DORGQR", double, double)
TRNSOLVER_F77_ORGQR(cungqr, "CUNGQR", cfloat, void)
TRNSOLVER_F77_ORGQR(zungqr, "ZUNGQR", cdouble, void)
TRNSOLVER_F77_ORMQR(sormqr, "SORMQR", float, float)
TRNSOLVER_F77_ORMQR(dormqr, "DORMQR", double, double)
TRNSOLVER_F77_ORMQR(cunmqr, "CUNMQR", cfloat, void)
TRNSOLVER_F77_ORMQR(zunmqr, "ZUNMQR", cdouble, void)
TRNSOLVER_F77_GELS(sgels, "SGELS ", float, float)
TRNSOLVER_F77_GELS(dgels, "DGELS ", double, double)
TRNSOLVER_F77_GELS(cgels, "CGELS ", cfloat, void)
TRNSOLVER_F77_GELS(zgels, "ZGELS ", cdouble, void)

}  // extern "C"
