// libtrnsolver_lapack.so, Cholesky family: ?POTRF, ?POTRS, ?POTRI (trtri + lauum), ?LAUUM and ?TRTRI
// (S, D, C, Z). Reference LAPACK 3.11's argument checks; the kit's routines (solver.hpp, complex_factor.hpp, sym_indef.hpp, eig.hpp) answer.
#include <cstdio>

#include "abi_internal.hpp"
#include "trn/solver/complex_factor.hpp"
#include "trn/solver/eig.hpp"
#include "trn/solver/sym_indef.hpp"

namespace trnsolver_lapack {
namespace {

namespace ts = trn::solver;

// The kit's routine per element type (S and D have their own names; C/Z and the newer S/D routines
// are overloads).
int potrf_kit(const Settings& s, Uplo u, int n, float* a, int lda, CallReport* r) { return ts::spotrf(s, u, n, a, lda, r); }
int potrf_kit(const Settings& s, Uplo u, int n, double* a, int lda, CallReport* r) { return ts::dpotrf(s, u, n, a, lda, r); }
template <class T>
int potrf_kit(const Settings& s, Uplo u, int n, T* a, int lda, CallReport* r) {
  return ts::potrf(s, u, n, a, lda, r);
}
void potrs_kit(const Settings& s, Uplo u, int n, int nrhs, const float* a, int lda, float* b, int ldb, CallReport* r) {
  ts::spotrs(s, u, n, nrhs, a, lda, b, ldb, r);
}
void potrs_kit(const Settings& s, Uplo u, int n, int nrhs, const double* a, int lda, double* b, int ldb, CallReport* r) {
  ts::dpotrs(s, u, n, nrhs, a, lda, b, ldb, r);
}
template <class T>
void potrs_kit(const Settings& s, Uplo u, int n, int nrhs, const T* a, int lda, T* b, int ldb, CallReport* r) {
  ts::potrs(s, u, n, nrhs, a, lda, b, ldb, r);
}

// spotrf's pivots go through ScalarE's rsqrt, whose valid range [2^-87, 2^97] bounds them (potrf.cpp,
// "Limits": a pivot outside is reported as not positive definite). Every pivot is at most its diagonal
// entry (a Schur complement's diagonal only shrinks), so a matrix whose diagonal lies in that range
// has no pivot above it; a positive one outside it (LAPACK's scaled test matrices near under/overflow) is not the
// kit's to answer. A pivot below 2^-87 from a diagonal in range needs kappa > 2^87 (far beyond 1/u32:
// fp32 Cholesky's pivots are rounding noise there, LAPACK's too).
bool spotrf_pivots_in_range(int n, const float* a, int lda) {
  for (int j = 0; j < n; ++j) {
    const float d = a[j + static_cast<std::int64_t>(lda) * j];
    if (d > 0 && (d < 0x1p-87f || d > 0x1p97f)) return false;  // (<= 0, NaN: not PD, the kit's answer)
  }
  return true;
}

// ?POTRF(UPLO, N, A, LDA, INFO): 1 uplo, 2 n, 4 lda.
template <class T, class Next>
void potrf_call(const Entry& e, char uplo, int n, T* a, int lda, int* info, Next&& next) {
  char args[96];
  std::snprintf(args, sizeof args, "uplo=%c n=%d lda=%d", uplo, n, lda);
  const int bad = first_info({{!uplo_ok(uplo), 1}, {n < 0, 2}, {lda < max1(n), 4}});
  run(e, args, bad, info, [&](const Settings& s, CallReport* r) {
    if constexpr (std::is_same_v<T, float>)
      if (!spotrf_pivots_in_range(n, a, lda)) return Answer::pass("a diagonal entry outside rsqrt's [2^-87, 2^97]");
    return Answer::done(n == 0 ? 0 : potrf_kit(s, to_uplo(uplo), n, a, lda, r));
  }, next);
}

// ?POTRS(UPLO, N, NRHS, A, LDA, B, LDB, INFO): 1 uplo, 2 n, 3 nrhs, 5 lda, 7 ldb.
template <class T, class Next>
void potrs_call(const Entry& e, char uplo, int n, int nrhs, const T* a, int lda, T* b, int ldb, int* info, Next&& next) {
  char args[128];
  std::snprintf(args, sizeof args, "uplo=%c n=%d nrhs=%d lda=%d ldb=%d", uplo, n, nrhs, lda, ldb);
  const int bad = first_info({{!uplo_ok(uplo), 1}, {n < 0, 2}, {nrhs < 0, 3}, {lda < max1(n), 5}, {ldb < max1(n), 7}});
  run(e, args, bad, info, [&](const Settings& s, CallReport* r) {
    if (n > 0 && nrhs > 0) potrs_kit(s, to_uplo(uplo), n, nrhs, a, lda, b, ldb, r);
    return Answer::done(0);
  }, next);
}

// ?POTRI(UPLO, N, A, LDA, INFO) and ?LAUUM(UPLO, N, A, LDA, INFO): 1 uplo, 2 n, 4 lda.
template <class T, class Next>
void potri_call(const Entry& e, bool lauum, char uplo, int n, T* a, int lda, int* info, Next&& next) {
  char args[96];
  std::snprintf(args, sizeof args, "uplo=%c n=%d lda=%d", uplo, n, lda);
  const int bad = first_info({{!uplo_ok(uplo), 1}, {n < 0, 2}, {lda < max1(n), 4}});
  run(e, args, bad, info, [&](const Settings& s, CallReport* r) {
    if (n == 0) return Answer::done(0);
    if (!lauum) return Answer::done(ts::potri(s, to_uplo(uplo), n, a, lda, r));
    ts::lauum(s, to_uplo(uplo), n, a, lda, r);
    return Answer::done(0);
  }, next);
}

// ?TRTRI(UPLO, DIAG, N, A, LDA, INFO): 1 uplo, 2 diag, 3 n, 5 lda (S, D: eig.hpp; C, Z: complex_factor.hpp).
template <class T, class Next>
void trtri_call(const Entry& e, char uplo, char diag, int n, T* a, int lda, int* info, Next&& next) {
  char args[96];
  std::snprintf(args, sizeof args, "uplo=%c diag=%c n=%d lda=%d", uplo, diag, n, lda);
  const int bad = first_info(
      {{!uplo_ok(uplo), 1}, {!lsame(diag, 'N') && !lsame(diag, 'U'), 2}, {n < 0, 3}, {lda < max1(n), 5}});
  run(e, args, bad, info, [&](const Settings& s, CallReport* r) {
    return Answer::done(n == 0 ? 0 : ts::trtri(s, to_uplo(uplo), lsame(diag, 'U'), n, a, lda, r));
  }, next);
}

}  // namespace
}  // namespace trnsolver_lapack

using namespace trnsolver_lapack;  // NOLINT: this file only defines the extern "C" entry points

extern "C" {

// NAME the symbol without '_', SR the XERBLA name, T the element type, P the pointer type of the
// arrays (T for real routines, void for complex ones).
#define TRNSOLVER_F77_POTRF(NAME, SR, T, P)                                                                \
  void NAME##_(const char* uplo, const int* n, P* a, const int* lda, int* info, size_t uplo_len) {         \
    potrf_call<T>({#NAME "_", SR}, *uplo, *n, static_cast<T*>(a), *lda, info,                              \
                  TRNSOLVER_LAPACK_NEXT(NAME##_, uplo, n, a, lda, info, uplo_len));                        \
  }
#define TRNSOLVER_F77_POTRS(NAME, SR, T, P)                                                                \
  void NAME##_(const char* uplo, const int* n, const int* nrhs, const P* a, const int* lda, P* b,          \
               const int* ldb, int* info, size_t uplo_len) {                                               \
    potrs_call<T>({#NAME "_", SR}, *uplo, *n, *nrhs, static_cast<const T*>(a), *lda, static_cast<T*>(b),   \
                  *ldb, info, TRNSOLVER_LAPACK_NEXT(NAME##_, uplo, n, nrhs, a, lda, b, ldb, info, uplo_len)); \
  }
#define TRNSOLVER_F77_POTRI(NAME, SR, T, P, LAUUM)                                                         \
  void NAME##_(const char* uplo, const int* n, P* a, const int* lda, int* info, size_t uplo_len) {         \
    potri_call<T>({#NAME "_", SR}, LAUUM, *uplo, *n, static_cast<T*>(a), *lda, info,                       \
                  TRNSOLVER_LAPACK_NEXT(NAME##_, uplo, n, a, lda, info, uplo_len));                        \
  }
#define TRNSOLVER_F77_TRTRI(NAME, SR, T, P)                                                                \
  void NAME##_(const char* uplo, const char* diag, const int* n, P* a, const int* lda, int* info,          \
               size_t uplo_len, size_t diag_len) {                                                         \
    trtri_call<T>({#NAME "_", SR}, *uplo, *diag, *n, static_cast<T*>(a), *lda, info,                       \
                  TRNSOLVER_LAPACK_NEXT(NAME##_, uplo, diag, n, a, lda, info, uplo_len, diag_len));        \
  }

TRNSOLVER_F77_POTRF(spotrf, "SPOTRF", float, float)
TRNSOLVER_F77_POTRF(dpotrf, "DPOTRF", double, double)
TRNSOLVER_F77_POTRF(cpotrf, "CPOTRF", cfloat, void)
TRNSOLVER_F77_POTRF(zpotrf, "ZPOTRF", cdouble, void)
TRNSOLVER_F77_POTRS(spotrs, "SPOTRS", float, float)
TRNSOLVER_F77_POTRS(dpotrs, "DPOTRS", double, double)
TRNSOLVER_F77_POTRS(cpotrs, "CPOTRS", cfloat, void)
TRNSOLVER_F77_POTRS(zpotrs, "ZPOTRS", cdouble, void)
TRNSOLVER_F77_POTRI(spotri, "SPOTRI", float, float, false)
TRNSOLVER_F77_POTRI(dpotri, "DPOTRI", double, double, false)
TRNSOLVER_F77_POTRI(cpotri, "CPOTRI", cfloat, void, false)
TRNSOLVER_F77_POTRI(zpotri, "ZPOTRI", cdouble, void, false)
TRNSOLVER_F77_POTRI(slauum, "SLAUUM", float, float, true)
TRNSOLVER_F77_POTRI(dlauum, "DLAUUM", double, double, true)
TRNSOLVER_F77_POTRI(clauum, "CLAUUM", cfloat, void, true)
TRNSOLVER_F77_POTRI(zlauum, "ZLAUUM", cdouble, void, true)
TRNSOLVER_F77_TRTRI(strtri, "STRTRI", float, float)
TRNSOLVER_F77_TRTRI(dtrtri, "DTRTRI", double, double)
TRNSOLVER_F77_TRTRI(ctrtri, "CTRTRI", cfloat, void)
TRNSOLVER_F77_TRTRI(ztrtri, "ZTRTRI", cdouble, void)

}  // extern "C"
