// libtrnsolver_lapack.so, SVD drivers: the Fortran entry points SGESVD DGESVD CGESVD ZGESVD, SGESDD
// DGESDD CGESDD ZGESDD and SGESVDX DGESVDX CGESVDX ZGESVDX (gfortran ABI; complex arrays as void*). All are
// answered by trnsolver's gesvd (one-sided Jacobi), xGESDD's divide and conquer included: the results are
// the same factorization
// (singular values descending, vectors up to the sign of a singular pair), the algorithm differs; xGESVDX
// selects its RANGE from that whole factorization.
// Checks, workspace and the body: eigen_calls.hpp; docs/trnsolver.md "LAPACK ABI shim".
#include "eigen_calls.hpp"

using namespace trnsolver_lapack;         // NOLINT: this file only defines the extern "C" entry points
using namespace trnsolver_lapack::eigen;  // NOLINT

namespace {

// xGESVD: jobu / jobvt A, S, O, N each.
template <class T, class Next>
void gesvd_call(const Entry& e, char jobu, char jobvt, int m, int n, T* a, int lda, real_t<T>* s, T* u, int ldu,
                T* vt, int ldvt, T* work, int lwork, int* info, Next&& next) {
  char buf[160];
  const WorkArgs wa{lwork, 13};
  const bool no_small = m >= n ? lsame(jobu, 'N') : lsame(jobvt, 'N');
  const int64_t minwork = gesvd_minwork(is_complex_v<T>, no_small, m, n);
  const char* args = args_text(buf, "jobu=%c jobvt=%c m=%d n=%d lda=%d ldu=%d ldvt=%d lwork=%d%s", jobu, jobvt, m, n,
                               lda, ldu, ldvt, lwork, wa.query() ? " query" : "");
  const int bad = gesvd_info(jobu, jobvt, m, n, lda, ldu, ldvt, wa, minwork);
  svd(e, args, bad, wa, minwork, m, n, a, lda, s, svd_vecs(jobu), u, ldu, svd_vecs(jobvt), vt, ldvt, work, info,
      next);
}

// xGESDD: jobz A (U m x m, V^T n x n), S (min(m, n) of each), O (the smaller one over A: U when m >= n,
// V^T when m < n; the other in U / VT), N (none).
template <class T, class Next>
void gesdd_call(const Entry& e, char jobz, int m, int n, T* a, int lda, real_t<T>* s, T* u, int ldu, T* vt, int ldvt,
                T* work, int lwork, int* info, Next&& next) {
  char buf[160];
  const WorkArgs wa{lwork, 12};
  const int64_t minwork = gesdd_minwork(is_complex_v<T>, jobz, m, n);
  const char* args = args_text(buf, "jobz=%c m=%d n=%d lda=%d ldu=%d ldvt=%d lwork=%d%s", jobz, m, n, lda, ldu, ldvt,
                               lwork, wa.query() ? " query" : "");
  const int bad = gesdd_info(jobz, m, n, lda, ldu, ldvt, wa, minwork);
  Vecs wu = svd_vecs(jobz), wv = wu;
  if (wu == Vecs::over_a) (m >= n ? wv : wu) = Vecs::thin;
  svd(e, args, bad, wa, minwork, m, n, a, lda, s, wu, u, ldu, wv, vt, ldvt, work, info, next);
}

}  // namespace

extern "C" {

// NAME the symbol without '_', SR the XERBLA name, T the data type, R its real type.
#define TRNSOLVER_LAPACK_GESVD(NAME, SR, T, R)                                                                     \
  void NAME##_(const char* jobu, const char* jobvt, const int* m, const int* n, R* a, const int* lda, R* s, R* u,  \
               const int* ldu, R* vt, const int* ldvt, R* work, const int* lwork, int* info, size_t jobu_len,      \
               size_t jobvt_len) {                                                                                \
    gesvd_call<T>({#NAME "_", SR}, *jobu, *jobvt, *m, *n, a, *lda, s, u, *ldu, vt, *ldvt, work, *lwork, info,      \
                  TRNSOLVER_LAPACK_NEXT(NAME##_, jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, info, \
                                        jobu_len, jobvt_len));                                                    \
  }
#define TRNSOLVER_LAPACK_CGESVD(NAME, SR, T, R)                                                                    \
  void NAME##_(const char* jobu, const char* jobvt, const int* m, const int* n, void* a, const int* lda, R* s,     \
               void* u, const int* ldu, void* vt, const int* ldvt, void* work, const int* lwork, R* rwork,         \
               int* info, size_t jobu_len, size_t jobvt_len) {                                                    \
    gesvd_call<T>({#NAME "_", SR}, *jobu, *jobvt, *m, *n, as<T>(a), *lda, s, as<T>(u), *ldu, as<T>(vt), *ldvt,     \
                  as<T>(work), *lwork, info,                                                                      \
                  TRNSOLVER_LAPACK_NEXT(NAME##_, jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork,      \
                                        rwork, info, jobu_len, jobvt_len));                                       \
  }
#define TRNSOLVER_LAPACK_GESDD(NAME, SR, T, R)                                                                     \
  void NAME##_(const char* jobz, const int* m, const int* n, R* a, const int* lda, R* s, R* u, const int* ldu,    \
               R* vt, const int* ldvt, R* work, const int* lwork, int* iwork, int* info, size_t jobz_len) {       \
    gesdd_call<T>({#NAME "_", SR}, *jobz, *m, *n, a, *lda, s, u, *ldu, vt, *ldvt, work, *lwork, info,              \
                  TRNSOLVER_LAPACK_NEXT(NAME##_, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork, info, \
                                        jobz_len));                                                               \
  }
#define TRNSOLVER_LAPACK_CGESDD(NAME, SR, T, R)                                                                    \
  void NAME##_(const char* jobz, const int* m, const int* n, void* a, const int* lda, R* s, void* u,              \
               const int* ldu, void* vt, const int* ldvt, void* work, const int* lwork, R* rwork, int* iwork,     \
               int* info, size_t jobz_len) {                                                                      \
    gesdd_call<T>({#NAME "_", SR}, *jobz, *m, *n, as<T>(a), *lda, s, as<T>(u), *ldu, as<T>(vt), *ldvt,            \
                  as<T>(work), *lwork, info,                                                                      \
                  TRNSOLVER_LAPACK_NEXT(NAME##_, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, rwork,      \
                                        iwork, info, jobz_len));                                                  \
  }

// xGESVDX (LAPACK 3.6+): NAME, SR, T, R as above; C/Z take RWORK before IWORK (neither is read).
#define TRNSOLVER_LAPACK_GESVDX(NAME, SR, T, R)                                                                    \
  void NAME##_(const char* jobu, const char* jobvt, const char* range, const int* m, const int* n, R* a,           \
               const int* lda, const R* vl, const R* vu, const int* il, const int* iu, int* ns, R* s, R* u,        \
               const int* ldu, R* vt, const int* ldvt, R* work, const int* lwork, int* iwork, int* info,           \
               size_t jobu_len, size_t jobvt_len, size_t range_len) {                                             \
    gesvdx<T>({#NAME "_", SR}, *jobu, *jobvt, *m, *n, a, *lda, SvdSelection<T>{*range, *vl, *vu, *il, *iu, ns}, s, \
              u, *ldu, vt, *ldvt, work, *lwork, info,                                                             \
              TRNSOLVER_LAPACK_NEXT(NAME##_, jobu, jobvt, range, m, n, a, lda, vl, vu, il, iu, ns, s, u, ldu, vt,  \
                                    ldvt, work, lwork, iwork, info, jobu_len, jobvt_len, range_len));             \
  }
#define TRNSOLVER_LAPACK_CGESVDX(NAME, SR, T, R)                                                                   \
  void NAME##_(const char* jobu, const char* jobvt, const char* range, const int* m, const int* n, void* a,        \
               const int* lda, const R* vl, const R* vu, const int* il, const int* iu, int* ns, R* s, void* u,     \
               const int* ldu, void* vt, const int* ldvt, void* work, const int* lwork, R* rwork, int* iwork,     \
               int* info, size_t jobu_len, size_t jobvt_len, size_t range_len) {                                  \
    gesvdx<T>({#NAME "_", SR}, *jobu, *jobvt, *m, *n, as<T>(a), *lda, SvdSelection<T>{*range, *vl, *vu, *il, *iu, \
              ns}, s, as<T>(u), *ldu, as<T>(vt), *ldvt, as<T>(work), *lwork, info,                                \
              TRNSOLVER_LAPACK_NEXT(NAME##_, jobu, jobvt, range, m, n, a, lda, vl, vu, il, iu, ns, s, u, ldu, vt,  \
                                    ldvt, work, lwork, rwork, iwork, info, jobu_len, jobvt_len, range_len));      \
  }

TRNSOLVER_LAPACK_GESVD(sgesvd, "SGESVD", float, float)
TRNSOLVER_LAPACK_GESVD(dgesvd, "DGESVD", double, double)
TRNSOLVER_LAPACK_CGESVD(cgesvd, "CGESVD", cfloat, float)
TRNSOLVER_LAPACK_CGESVD(zgesvd, "ZGESVD", cdouble, double)
TRNSOLVER_LAPACK_GESDD(sgesdd, "SGESDD", float, float)
TRNSOLVER_LAPACK_GESDD(dgesdd, "DGESDD", double, double)
TRNSOLVER_LAPACK_CGESDD(cgesdd, "CGESDD", cfloat, float)
TRNSOLVER_LAPACK_CGESDD(zgesdd, "ZGESDD", cdouble, double)
TRNSOLVER_LAPACK_GESVDX(sgesvdx, "SGESVDX", float, float)
TRNSOLVER_LAPACK_GESVDX(dgesvdx, "DGESVDX", double, double)
TRNSOLVER_LAPACK_CGESVDX(cgesvdx, "CGESVDX", cfloat, float)
TRNSOLVER_LAPACK_CGESVDX(zgesvdx, "ZGESVDX", cdouble, double)

}  // extern "C"
