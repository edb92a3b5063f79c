// libtrnsolver_lapack.so, LU family: ?GETRF, ?GETRS, ?GESV (S, D, C, Z). Reference LAPACK 3.11's
// argument checks; the kit's LU (solver.hpp sgetrf/dgetrf, complex_factor.hpp getrf/getrs) answers.
// ?GESV is LAPACK's own composition: GETRF, then GETRS('N') when INFO = 0.
#include <cstdio>

#include "abi_internal.hpp"
#include "trn/solver/complex_factor.hpp"

namespace trnsolver_lapack {
namespace {

namespace ts = trn::solver;

int getrf_kit(const Settings& s, int m, int n, float* a, int lda, int* ipiv, CallReport* r) {
  return ts::sgetrf(s, m, n, a, lda, ipiv, r);
}
int getrf_kit(const Settings& s, int m, int n, double* a, int lda, int* ipiv, CallReport* r) {
  return ts::dgetrf(s, m, n, a, lda, ipiv, r);
}
template <class T>
int getrf_kit(const Settings& s, int m, int n, T* a, int lda, int* ipiv, CallReport* r) {
  return ts::getrf(s, m, n, a, lda, ipiv, r);
}
// trans: 'N', 'T' or 'C' (real: 'C' is 'T', as LAPACK).
void getrs_kit(const Settings& s, char trans, int n, int nrhs, const float* a, int lda, const int* ipiv, float* b,
               int ldb, CallReport* r) {
  ts::sgetrs(s, !lsame(trans, 'N'), n, nrhs, a, lda, ipiv, b, ldb, r);
}
void getrs_kit(const Settings& s, char trans, int n, int nrhs, const double* a, int lda, const int* ipiv, double* b,
               int ldb, CallReport* r) {
  ts::dgetrs(s, !lsame(trans, 'N'), n, nrhs, a, lda, ipiv, b, ldb, r);
}
template <class T>
void getrs_kit(const Settings& s, char trans, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb,
               CallReport* r) {
  const ts::SolveOp op = lsame(trans, 'N') ? ts::SolveOp::N : lsame(trans, 'T') ? ts::SolveOp::T : ts::SolveOp::C;
  ts::getrs(s, op, n, nrhs, a, lda, ipiv, b, ldb, r);
}

// LAPACK applies any pivot in 1..n (xLASWP); the kit's row interchanges take only those. Anything
// else (a caller's garbage) goes to the next library, which does what LAPACK does with it.
bool pivots_in_range(int n, const int* ipiv) {
  for (int i = 0; i < n; ++i)
    if (ipiv[i] < 1 || ipiv[i] > n) return false;
  return true;
}

// ?GETRF(M, N, A, LDA, IPIV, INFO): 1 m, 2 n, 4 lda.
template <class T, class Next>
void getrf_call(const Entry& e, int m, int n, T* a, int lda, int* ipiv, int* info, Next&& next) {
  char args[96];
  std::snprintf(args, sizeof args, "m=%d n=%d lda=%d", m, n, lda);
  const int bad = first_info({{m < 0, 1}, {n < 0, 2}, {lda < max1(m), 4}});
  run(e, args, bad, info, [&](const Settings& s, CallReport* r) {
    return Answer::done(m == 0 || n == 0 ? 0 : getrf_kit(s, m, n, a, lda, ipiv, r));
  }, next);
}

// ?GETRS(TRANS, N, NRHS, A, LDA, IPIV, B, LDB, INFO): 1 trans, 2 n, 3 nrhs, 5 lda, 8 ldb.
template <class T, class Next>
void getrs_call(const Entry& e, char trans, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb,
                int* info, Next&& next) {
  char args[128];
  std::snprintf(args, sizeof args, "trans=%c n=%d nrhs=%d lda=%d ldb=%d", trans, n, nrhs, lda, ldb);
  const bool trans_ok = lsame(trans, 'N') || lsame(trans, 'T') || lsame(trans, 'C');
  const int bad = first_info({{!trans_ok, 1}, {n < 0, 2}, {nrhs < 0, 3}, {lda < max1(n), 5}, {ldb < max1(n), 8}});
  run(e, args, bad, info, [&](const Settings& s, CallReport* r) {
    if (n == 0 || nrhs == 0) return Answer::done(0);
    if (!pivots_in_range(n, ipiv)) return Answer::pass("a pivot outside 1..n");
    getrs_kit(s, trans, n, nrhs, a, lda, ipiv, b, ldb, r);
    return Answer::done(0);
  }, next);
}

// ?GESV(N, NRHS, A, LDA, IPIV, B, LDB, INFO): 1 n, 2 nrhs, 4 lda, 7 ldb.
template <class T, class Next>
void gesv_call(const Entry& e, int n, int nrhs, T* a, int lda, int* ipiv, T* b, int ldb, int* info, Next&& next) {
  char args[128];
  std::snprintf(args, sizeof args, "n=%d nrhs=%d lda=%d ldb=%d", n, nrhs, lda, ldb);
  const int bad = first_info({{n < 0, 1}, {nrhs < 0, 2}, {lda < max1(n), 4}, {ldb < max1(n), 7}});
  run(e, args, bad, info, [&](const Settings& s, CallReport* r) {
    if (n == 0) return Answer::done(0);
    const int factor_info = getrf_kit(s, n, n, a, lda, ipiv, r);
    if (factor_info == 0 && nrhs > 0) getrs_kit(s, 'N', n, nrhs, a, lda, ipiv, b, ldb, r);
    return Answer::done(factor_info);
  }, next);
}

}  // namespace
}  // namespace trnsolver_lapack

using namespace trnsolver_lapack;  // NOLINT: this file only defines the extern "C" entry points

extern "C" {

// NAME the symbol without '_', SR the XERBLA name, T the element type, P the pointer type of the
// arrays (T for real routines, void for complex ones).
#define TRNSOLVER_F77_GETRF(NAME, SR, T, P)                                                                \
  void NAME##_(const int* m, const int* n, P* a, const int* lda, int* ipiv, int* info) {                   \
    getrf_call<T>({#NAME "_", SR}, *m, *n, static_cast<T*>(a), *lda, ipiv, info,                           \
                  TRNSOLVER_LAPACK_NEXT(NAME##_, m, n, a, lda, ipiv, info));                               \
  }
#define TRNSOLVER_F77_GETRS(NAME, SR, T, P)                                                                \
  void NAME##_(const char* trans, const int* n, const int* nrhs, const P* a, const int* lda, const int* ipiv, \
               P* b, const int* ldb, int* info, size_t trans_len) {                                        \
    getrs_call<T>({#NAME "_", SR}, *trans, *n, *nrhs, static_cast<const T*>(a), *lda, ipiv,                \
                  static_cast<T*>(b), *ldb, info,                                                          \
                  TRNSOLVER_LAPACK_NEXT(NAME##_, trans, n, nrhs, a, lda, ipiv, b, ldb, info, trans_len));  \
  }
#define TRNSOLVER_F77_GESV(NAME, SR, T, P)                                                                 \
  void NAME##_(const int* n, const int* nrhs, P* a, const int* lda, int* ipiv, P* b, const int* ldb,       \
               int* info) {                                                                                \
    gesv_call<T>({#NAME "_", SR}, *n, *nrhs, static_cast<T*>(a), *lda, ipiv, static_cast<T*>(b), *ldb,     \
                 info, TRNSOLVER_LAPACK_NEXT(NAME##_, n, nrhs, a, lda, ipiv, b, ldb, info));               \
  }

TRNSOLVER_F77_GETRF(sgetrf, "SGETRF", float, float)
TRNSOLVER_F77_GETRF(dgetrf, "DGETRF", double, double)
TRNSOLVER_F77_GETRF(cgetrf, "CGETRF", cfloat, void)
TRNSOLVER_F77_GETRF(zgetrf, "ZGETRF", cdouble, void)
TRNSOLVER_F77_GETRS(sgetrs, "SGETRS", float, float)
TRNSOLVER_F77_GETRS(dgetrs, "DGETRS", double, double)
TRNSOLVER_F77_GETRS(cgetrs, "CGETRS", cfloat, void)
TRNSOLVER_F77_GETRS(zgetrs, "ZGETRS", cdouble, void)
TRNSOLVER_F77_GESV(sgesv, "SGESV ", float, float)
TRNSOLVER_F77_GESV(dgesv, "DGESV ", double, double)
TRNSOLVER_F77_GESV(cgesv, "CGESV ", cfloat, void)
TRNSOLVER_F77_GESV(zgesv, "ZGESV ", cdouble, void)

}  // extern "C"
