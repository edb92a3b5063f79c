// libtrnsolver_lapack.so, symmetric indefinite family: ?SYTRF, ?SYTRS (S, D, and C, Z complex
// SYMMETRIC as LAPACK's CSYTRF/CSYTRS). Reference LAPACK 3.11's argument checks and workspace answer
// (ILAENV(1, 'xSYTRF') = 64); the kit's blocked Bunch-Kaufman (sym_indef.hpp) answers, in LAPACK's
// storage of D, the multipliers and IPIV, so that LAPACK routines that read them (xSYCON, xSYTRI,
// xSYRFS) can follow.
#include <cstdio>

#include "abi_internal.hpp"
#include "trn/solver/sym_indef.hpp"

namespace trnsolver_lapack {
namespace {

namespace ts = trn::solver;

constexpr int kLapackSytrfNb = 64;  // ILAENV(1, 'xSYTRF', ...) of reference LAPACK

// ?SYTRF(UPLO, N, A, LDA, IPIV, WORK, LWORK, INFO): 1 uplo, 2 n, 4 lda, 7 lwork < 1.
template <class T, class Next>
void sytrf_call(const Entry& e, char uplo, int n, T* a, int lda, int* ipiv, T* work, int lwork, int* info,
                Next&& next) {
  char args[128];
  std::snprintf(args, sizeof args, "uplo=%c n=%d lda=%d lwork=%d", uplo, n, lda, lwork);
  const bool query = lwork == -1;
  const int bad = first_info({{!uplo_ok(uplo), 1}, {n < 0, 2}, {lda < max1(n), 4}, {lwork < 1 && !query, 7}});
  run(e, args, bad, info, [&](const Settings& s, CallReport* r) {
    const int factor_info = query || n == 0 ? 0 : ts::sytrf(s, to_uplo(uplo), n, a, lda, ipiv, r);
    set_work_size(work, std::max<std::int64_t>(1, std::int64_t{n} * kLapackSytrfNb));
    return Answer::done(factor_info);
  }, next);
}

// ?SYTRS(UPLO, N, NRHS, A, LDA, IPIV, B, LDB, INFO): 1 uplo, 2 n, 3 nrhs, 5 lda, 8 ldb. IPIV must have
// xSYTRF's pattern (the kit's solve reads only such); anything else goes to the next library.
template <class T, class Next>
void sytrs_call(const Entry& e, char uplo, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb,
                int* info, Next&& next) {
  char args[128];
  std::snprintf(args, sizeof args, "uplo=%c n=%d nrhs=%d lda=%d ldb=%d", uplo, n, nrhs, lda, ldb);
  const int bad = first_info({{!uplo_ok(uplo), 1}, {n < 0, 2}, {nrhs < 0, 3}, {lda < max1(n), 5}, {ldb < max1(n), 8}});
  run(e, args, bad, info, [&](const Settings& s, CallReport* r) {
    if (n == 0 || nrhs == 0) return Answer::done(0);
    if (!ts::sytrf_pivots_valid(to_uplo(uplo), n, ipiv)) return Answer::pass("IPIV not in xSYTRF's pattern");
    ts::sytrs(s, to_uplo(uplo), n, nrhs, a, lda, ipiv, b, ldb, r);
    return Answer::done(0);
  }, next);
}

}  // namespace
}  // namespace trnsolver_lapack

using namespace trnsolver_lapack;  // NOLINT: this file only defines the extern "C" entry points

extern "C" {

// NAME the symbol without '_', SR the XERBLA name, T the element type, P the pointer type of the
// arrays (T for real routines, void for complex ones).
#define TRNSOLVER_F77_SYTRF(NAME, SR, T, P)                                                                \
  void NAME##_(const char* uplo, const int* n, P* a, const int* lda, int* ipiv, P* work, const int* lwork,  \
               int* info, size_t uplo_len) {                                                               \
    sytrf_call<T>({#NAME "_", SR}, *uplo, *n, static_cast<T*>(a), *lda, ipiv, static_cast<T*>(work),       \
                  *lwork, info, TRNSOLVER_LAPACK_NEXT(NAME##_, uplo, n, a, lda, ipiv, work, lwork, info,   \
                                                      uplo_len));                                          \
  }
#define TRNSOLVER_F77_SYTRS(NAME, SR, T, P)                                                                \
  void NAME##_(const char* uplo, const int* n, const int* nrhs, const P* a, const int* lda, const int* ipiv, \
               P* b, const int* ldb, int* info, size_t uplo_len) {                                         \
    sytrs_call<T>({#NAME "_", SR}, *uplo, *n, *nrhs, static_cast<const T*>(a), *lda, ipiv,                 \
                  static_cast<T*>(b), *ldb, info,                                                          \
                  TRNSOLVER_LAPACK_NEXT(NAME##_, uplo, n, nrhs, a, lda, ipiv, b, ldb, info, uplo_len));    \
  }

TRNSOLVER_F77_SYTRF(ssytrf, "SSYTRF", float, float)
TRNSOLVER_F77_SYTRF(dsytrf, "DSYTRF", double, double)
TRNSOLVER_F77_SYTRF(csytrf, "CSYTRF", cfloat, void)
TRNSOLVER_F77_SYTRF(zsytrf, "ZSYTRF", cdouble, void)
TRNSOLVER_F77_SYTRS(ssytrs, "SSYTRS", float, float)
TRNSOLVER_F77_SYTRS(dsytrs, "DSYTRS", double, double)
TRNSOLVER_F77_SYTRS(csytrs, "CSYTRS", cfloat, void)
TRNSOLVER_F77_SYTRS(zsytrs, "ZSYTRS", cdouble, void)

}  // extern "C"
