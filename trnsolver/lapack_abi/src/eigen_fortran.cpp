// libtrnsolver_lapack.so, symmetric / Hermitian eigen drivers: the Fortran entry points SSYEV DSYEV
// CHEEV ZHEEV, SSYEVD DSYEVD CHEEVD ZHEEVD, SSYGV DSYGV CHEGV ZHEGV, SSYGVD DSYGVD CHEGVD ZHEGVD, and the
// selective SSYEVR DSYEVR CHEEVR ZHEEVR, SSYEVX DSYEVX CHEEVX ZHEEVX
// (gfortran ABI: arguments by reference, the hidden CHARACTER lengths last; complex arrays as void*).
// Checks, workspace and bodies: eigen_calls.hpp; docs/trnsolver.md "LAPACK ABI shim".
#include "eigen_calls.hpp"

using namespace trnsolver_lapack;         // NOLINT: this file only defines the extern "C" entry points
using namespace trnsolver_lapack::eigen;  // NOLINT

namespace {
constexpr EigDriver kSyev{false, false, false}, kHeev{true, false, false}, kSyevd{false, true, false},
    kHeevd{true, true, false}, kSygv{false, false, true}, kHegv{true, false, true}, kSygvd{false, true, true},
    kHegvd{true, true, true};
constexpr SelectDriver kSyevr{false, true}, kHeevr{true, true}, kSyevx{false, false}, kHeevx{true, false};
}  // namespace

extern "C" {

// One macro per signature: NAME the symbol without '_', SR the XERBLA name, T the data type, R its real
// type (the arrays of the complex routines are void*).
#define TRNSOLVER_LAPACK_SYEV(NAME, SR, T, R)                                                                      \
  void NAME##_(const char* jobz, const char* uplo, const int* n, R* a, const int* lda, R* w, R* work,             \
               const int* lwork, int* info, size_t jobz_len, size_t uplo_len) {                                   \
    standard_eig<T>({#NAME "_", SR}, kSyev, *jobz, *uplo, *n, a, *lda, w, work, \
                    WorkArgs{*lwork, 8}, nullptr, nullptr, info,                                                  \
                    TRNSOLVER_LAPACK_NEXT(NAME##_, jobz, uplo, n, a, lda, w, work, lwork, info, jobz_len, uplo_len)); \
  }
#define TRNSOLVER_LAPACK_HEEV(NAME, SR, T, R)                                                                      \
  void NAME##_(const char* jobz, const char* uplo, const int* n, void* a, const int* lda, R* w, void* work,       \
               const int* lwork, R* rwork, int* info, size_t jobz_len, size_t uplo_len) {                         \
    standard_eig<T>({#NAME "_", SR}, kHeev, *jobz, *uplo, *n, as<T>(a), *lda, w, as<T>(work),                      \
                    WorkArgs{*lwork, 8}, rwork, nullptr, info,                                                    \
                    TRNSOLVER_LAPACK_NEXT(NAME##_, jobz, uplo, n, a, lda, w, work, lwork, rwork, info, jobz_len,   \
                                          uplo_len));                                                             \
  }
#define TRNSOLVER_LAPACK_SYEVD(NAME, SR, T, R)                                                                     \
  void NAME##_(const char* jobz, const char* uplo, const int* n, R* a, const int* lda, R* w, R* work,             \
               const int* lwork, int* iwork, const int* liwork, int* info, size_t jobz_len, size_t uplo_len) {    \
    standard_eig<T>({#NAME "_", SR}, kSyevd, *jobz, *uplo, *n, a, *lda, w, work,                                   \
                    WorkArgs{*lwork, 8, nullptr, 0, liwork, 10}, nullptr, iwork, info,                            \
                    TRNSOLVER_LAPACK_NEXT(NAME##_, jobz, uplo, n, a, lda, w, work, lwork, iwork, liwork, info,     \
                                          jobz_len, uplo_len));                                                   \
  }
#define TRNSOLVER_LAPACK_HEEVD(NAME, SR, T, R)                                                                     \
  void NAME##_(const char* jobz, const char* uplo, const int* n, void* a, const int* lda, R* w, void* work,       \
               const int* lwork, R* rwork, const int* lrwork, int* iwork, const int* liwork, int* info,            \
               size_t jobz_len, size_t uplo_len) {                                                                \
    standard_eig<T>({#NAME "_", SR}, kHeevd, *jobz, *uplo, *n, as<T>(a), *lda, w, as<T>(work),                     \
                    WorkArgs{*lwork, 8, lrwork, 10, liwork, 12}, rwork, iwork, info,                              \
                    TRNSOLVER_LAPACK_NEXT(NAME##_, jobz, uplo, n, a, lda, w, work, lwork, rwork, lrwork, iwork,    \
                                          liwork, info, jobz_len, uplo_len));                                     \
  }
#define TRNSOLVER_LAPACK_SYGV(NAME, SR, T, R)                                                                      \
  void NAME##_(const int* itype, const char* jobz, const char* uplo, const int* n, R* a, const int* lda, R* b,    \
               const int* ldb, R* w, R* work, const int* lwork, int* info, size_t jobz_len, size_t uplo_len) {    \
    generalized_eig<T>({#NAME "_", SR}, kSygv, *itype, *jobz, *uplo, *n, a, *lda, b, *ldb, w, work,                \
                       WorkArgs{*lwork, 11}, nullptr, nullptr, info,                                              \
                       TRNSOLVER_LAPACK_NEXT(NAME##_, itype, jobz, uplo, n, a, lda, b, ldb, w, work, lwork, info,  \
                                             jobz_len, uplo_len));                                                \
  }
#define TRNSOLVER_LAPACK_HEGV(NAME, SR, T, R)                                                                      \
  void NAME##_(const int* itype, const char* jobz, const char* uplo, const int* n, void* a, const int* lda,       \
               void* b, const int* ldb, R* w, void* work, const int* lwork, R* rwork, int* info, size_t jobz_len, \
               size_t uplo_len) {                                                                                 \
    generalized_eig<T>({#NAME "_", SR}, kHegv, *itype, *jobz, *uplo, *n, as<T>(a), *lda, as<T>(b), *ldb, w,       \
                       as<T>(work), WorkArgs{*lwork, 11}, rwork, nullptr, info,                                   \
                       TRNSOLVER_LAPACK_NEXT(NAME##_, itype, jobz, uplo, n, a, lda, b, ldb, w, work, lwork, rwork, \
                                             info, jobz_len, uplo_len));                                          \
  }
#define TRNSOLVER_LAPACK_SYGVD(NAME, SR, T, R)                                                                     \
  void NAME##_(const int* itype, const char* jobz, const char* uplo, const int* n, R* a, const int* lda, R* b,    \
               const int* ldb, R* w, R* work, const int* lwork, int* iwork, const int* liwork, int* info,         \
               size_t jobz_len, size_t uplo_len) {                                                                \
    generalized_eig<T>({#NAME "_", SR}, kSygvd, *itype, *jobz, *uplo, *n, a, *lda, b, *ldb, w, work,               \
                       WorkArgs{*lwork, 11, nullptr, 0, liwork, 13}, nullptr, iwork, info,                        \
                       TRNSOLVER_LAPACK_NEXT(NAME##_, itype, jobz, uplo, n, a, lda, b, ldb, w, work, lwork, iwork, \
                                             liwork, info, jobz_len, uplo_len));                                  \
  }
#define TRNSOLVER_LAPACK_HEGVD(NAME, SR, T, R)                                                                     \
  void NAME##_(const int* itype, const char* jobz, const char* uplo, const int* n, void* a, const int* lda,       \
               void* b, const int* ldb, R* w, void* work, const int* lwork, R* rwork, const int* lrwork,          \
               int* iwork, const int* liwork, int* info, size_t jobz_len, size_t uplo_len) {                      \
    generalized_eig<T>({#NAME "_", SR}, kHegvd, *itype, *jobz, *uplo, *n, as<T>(a), *lda, as<T>(b), *ldb, w,      \
                       as<T>(work), WorkArgs{*lwork, 11, lrwork, 13, liwork, 15}, rwork, iwork, info,             \
                       TRNSOLVER_LAPACK_NEXT(NAME##_, itype, jobz, uplo, n, a, lda, b, ldb, w, work, lwork, rwork, \
                                             lrwork, iwork, liwork, info, jobz_len, uplo_len));                   \
  }

// The selective drivers: one Selection<T> of RANGE, VL, VU, IL, IU and the outputs M, W, Z, LDZ, ISUPPZ /
// IFAIL (ABSTOL is not read: eigen_calls.hpp).
#define TRNSOLVER_LAPACK_SYEVR(NAME, SR, T, R)                                                                     \
  void NAME##_(const char* jobz, const char* range, const char* uplo, const int* n, R* a, const int* lda,          \
               const R* vl, const R* vu, const int* il, const int* iu, const R* abstol, int* m, R* w, R* z,       \
               const int* ldz, int* isuppz, R* work, const int* lwork, int* iwork, const int* liwork, int* info,  \
               size_t jobz_len, size_t range_len, size_t uplo_len) {                                             \
    const Selection<T> q{*range, *vl, *vu, *il, *iu, m, w, z, *ldz, isuppz, nullptr};                             \
    select_eig<T>({#NAME "_", SR}, kSyevr, *jobz, *uplo, *n, a, *lda, q, work,                                     \
                  WorkArgs{*lwork, 18, nullptr, 0, liwork, 20}, nullptr, iwork, info,                            \
                  TRNSOLVER_LAPACK_NEXT(NAME##_, jobz, range, uplo, n, a, lda, vl, vu, il, iu, abstol, m, w, z,    \
                                        ldz, isuppz, work, lwork, iwork, liwork, info, jobz_len, range_len,       \
                                        uplo_len));                                                               \
  }
#define TRNSOLVER_LAPACK_HEEVR(NAME, SR, T, R)                                                                     \
  void NAME##_(const char* jobz, const char* range, const char* uplo, const int* n, void* a, const int* lda,       \
               const R* vl, const R* vu, const int* il, const int* iu, const R* abstol, int* m, R* w, void* z,    \
               const int* ldz, int* isuppz, void* work, const int* lwork, R* rwork, const int* lrwork, int* iwork, \
               const int* liwork, int* info, size_t jobz_len, size_t range_len, size_t uplo_len) {                \
    const Selection<T> q{*range, *vl, *vu, *il, *iu, m, w, as<T>(z), *ldz, isuppz, nullptr};                      \
    select_eig<T>({#NAME "_", SR}, kHeevr, *jobz, *uplo, *n, as<T>(a), *lda, q, as<T>(work),                       \
                  WorkArgs{*lwork, 18, lrwork, 20, liwork, 22}, rwork, iwork, info,                               \
                  TRNSOLVER_LAPACK_NEXT(NAME##_, jobz, range, uplo, n, a, lda, vl, vu, il, iu, abstol, m, w, z,    \
                                        ldz, isuppz, work, lwork, rwork, lrwork, iwork, liwork, info, jobz_len,   \
                                        range_len, uplo_len));                                                    \
  }
#define TRNSOLVER_LAPACK_SYEVX(NAME, SR, T, R)                                                                     \
  void NAME##_(const char* jobz, const char* range, const char* uplo, const int* n, R* a, const int* lda,          \
               const R* vl, const R* vu, const int* il, const int* iu, const R* abstol, int* m, R* w, R* z,       \
               const int* ldz, R* work, const int* lwork, int* iwork, int* ifail, int* info, size_t jobz_len,     \
               size_t range_len, size_t uplo_len) {                                                              \
    const Selection<T> q{*range, *vl, *vu, *il, *iu, m, w, z, *ldz, nullptr, ifail};                              \
    select_eig<T>({#NAME "_", SR}, kSyevx, *jobz, *uplo, *n, a, *lda, q, work, WorkArgs{*lwork, 17}, nullptr,      \
                  iwork, info,                                                                                    \
                  TRNSOLVER_LAPACK_NEXT(NAME##_, jobz, range, uplo, n, a, lda, vl, vu, il, iu, abstol, m, w, z,    \
                                        ldz, work, lwork, iwork, ifail, info, jobz_len, range_len, uplo_len));    \
  }
#define TRNSOLVER_LAPACK_HEEVX(NAME, SR, T, R)                                                                     \
  void NAME##_(const char* jobz, const char* range, const char* uplo, const int* n, void* a, const int* lda,       \
               const R* vl, const R* vu, const int* il, const int* iu, const R* abstol, int* m, R* w, void* z,    \
               const int* ldz, void* work, const int* lwork, R* rwork, int* iwork, int* ifail, int* info,         \
               size_t jobz_len, size_t range_len, size_t uplo_len) {                                             \
    const Selection<T> q{*range, *vl, *vu, *il, *iu, m, w, as<T>(z), *ldz, nullptr, ifail};                       \
    select_eig<T>({#NAME "_", SR}, kHeevx, *jobz, *uplo, *n, as<T>(a), *lda, q, as<T>(work),                       \
                  WorkArgs{*lwork, 17}, rwork, iwork, info,                                                       \
                  TRNSOLVER_LAPACK_NEXT(NAME##_, jobz, range, uplo, n, a, lda, vl, vu, il, iu, abstol, m, w, z,    \
                                        ldz, work, lwork, rwork, iwork, ifail, info, jobz_len, range_len,         \
                                        uplo_len));                                                               \
  }

TRNSOLVER_LAPACK_SYEV(ssyev, "SSYEV", float, float)
TRNSOLVER_LAPACK_SYEV(dsyev, "DSYEV", double, double)
TRNSOLVER_LAPACK_HEEV(cheev, "CHEEV", cfloat, float)
TRNSOLVER_LAPACK_HEEV(zheev, "ZHEEV", cdouble, double)
TRNSOLVER_LAPACK_SYEVD(ssyevd, "SSYEVD", float, float)
TRNSOLVER_LAPACK_SYEVD(dsyevd, "DSYEVD", double, double)
TRNSOLVER_LAPACK_HEEVD(cheevd, "CHEEVD", cfloat, float)
TRNSOLVER_LAPACK_HEEVD(zheevd, "ZHEEVD", cdouble, double)
TRNSOLVER_LAPACK_SYGV(ssygv, "SSYGV", float, float)
TRNSOLVER_LAPACK_SYGV(dsygv, "DSYGV", double, double)
TRNSOLVER_LAPACK_HEGV(chegv, "CHEGV", cfloat, float)
TRNSOLVER_LAPACK_HEGV(zhegv, "ZHEGV", cdouble, double)
TRNSOLVER_LAPACK_SYGVD(ssygvd, "SSYGVD", float, float)
TRNSOLVER_LAPACK_SYGVD(dsygvd, "DSYGVD", double, double)
TRNSOLVER_LAPACK_HEGVD(chegvd, "CHEGVD", cfloat, float)
TRNSOLVER_LAPACK_HEGVD(zhegvd, "ZHEGVD", cdouble, double)
TRNSOLVER_LAPACK_SYEVR(ssyevr, "SSYEVR", float, float)
TRNSOLVER_LAPACK_SYEVR(dsyevr, "DSYEVR", double, double)
TRNSOLVER_LAPACK_HEEVR(cheevr, "CHEEVR", cfloat, float)
TRNSOLVER_LAPACK_HEEVR(zheevr, "ZHEEVR", cdouble, double)
TRNSOLVER_LAPACK_SYEVX(ssyevx, "SSYEVX", float, float)
TRNSOLVER_LAPACK_SYEVX(dsyevx, "DSYEVX", double, double)
TRNSOLVER_LAPACK_HEEVX(cheevx, "CHEEVX", cfloat, float)
TRNSOLVER_LAPACK_HEEVX(zheevx, "ZHEEVX", cdouble, double)

}  // extern "C"
