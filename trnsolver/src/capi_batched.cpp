// trnsolver.h, cuSOLVER's pointer-array batched Cholesky: potrfBatched, potrsBatched (S, D). Each matrix
// runs the single-matrix spotrf/dpotrf (spotrs/dpotrs) unchanged, so its bits are those of the
// non-batched call on it whatever the batch; the traces join into one report. SpotrsBatched runs
// each of spotrs's two solves over the whole batch, several matrices per launch of the narrow TRSM
// kernel (solve_batch.hpp), with each matrix's bits still its spotrs call's. Conventions: capi.cpp;
// positions not counting the handle.
#include "capi_internal.hpp"
#include "solve_batch.hpp"
#include "trn/solver/complex_factor.hpp"

using namespace trn::solver::capi;  // NOLINT: the shim's shared internals
using trn::cshim::as_cpp;

namespace {

// Every pointer of a pointer array (count entries) not NULL, checked as argument `pos`.
template <class P>
void check_array(Check& c, P* const* array, int count, bool needed, int pos, const char* what) {
  c.require(!needed || count <= 0 || array != nullptr, pos, what);
  for (int k = 0; c && needed && array != nullptr && k < count; ++k) c.require(array[k] != nullptr, pos, what);
}

// potrfBatched: uplo 1, n 2, Aarray 3, lda 4, infoArray 5, batchSize 6.
template <class T>
Status potrf_batched(const char* fn, trnsolverDnHandle_t h, int uplo, int n, T* const* Aarray, int lda,
                     int* infoArray, int batch) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 1, "uplo").nonnegative(n, 2, "n");
  check_array(c, Aarray, batch, n > 0, 3, "Aarray");
  c.leading_dim(lda, n, 4, "lda").require(batch <= 0 || infoArray != nullptr, 5, "infoArray")
      .nonnegative(batch, 6, "batchSize");
  return run_checked(fn, h, c, infoArray, [&](trn::solver::CallReport& rep) {
    run_batch(h->settings, batch, rep, [&](std::int64_t k, trn::solver::CallReport& r) {
      infoArray[k] = 0;
      if (n == 0) return;  // Aarray may be NULL then
      if constexpr (std::is_same_v<T, float>)
        infoArray[k] = trn::solver::spotrf(h->settings, to_uplo(uplo), n, Aarray[k], lda, &r);
      else if constexpr (std::is_same_v<T, double>)
        infoArray[k] = trn::solver::dpotrf(h->settings, to_uplo(uplo), n, Aarray[k], lda, &r);
      else
        infoArray[k] = trn::solver::potrf(h->settings, to_uplo(uplo), n, as_cpp(Aarray[k]), lda, &r);
    }, /*sink_parts=*/true);
  });
}

// potrsBatched: uplo 1, n 2, nrhs 3 (1 only, as cuSOLVER), A 4, lda 5, B 6, ldb 7, d_info 8, batchSize 9.
template <class T>
Status potrs_batched(const char* fn, trnsolverDnHandle_t h, int uplo, int n, int nrhs, T* const* A, int lda,
                     T* const* B, int ldb, int* info, int batch) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 1, "uplo").nonnegative(n, 2, "n")
      .require(nrhs == 1, 3, "nrhs (only 1)");
  check_array(c, A, batch, n > 0, 4, "A");
  c.leading_dim(lda, n, 5, "lda");
  check_array(c, B, batch, n > 0, 6, "B");
  c.leading_dim(ldb, n, 7, "ldb").not_null(info, 8, "d_info").nonnegative(batch, 9, "batchSize");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    if constexpr (std::is_same_v<T, float>)
      if (n > 0) {  // S: both solves over the whole batch, several matrices per launch (solve_batch.hpp)
        trn::TraceParts trace;
        trn::solver::detail::spotrs_batch(h->settings, to_uplo(uplo), n, nrhs, A, lda, B, ldb, batch, trace);
        trn::solver::detail::finish_fp64_report(&rep, std::move(trace), h->settings.target, 0);
        *info = 0;
        return;
      }
    run_batch(h->settings, batch, rep, [&](std::int64_t k, trn::solver::CallReport& r) {
      if (n == 0) return;  // A and B may be NULL then
      if constexpr (std::is_same_v<T, float>)
        trn::solver::spotrs(h->settings, to_uplo(uplo), n, nrhs, A[k], lda, B[k], ldb, &r);
      else if constexpr (std::is_same_v<T, double>)
        trn::solver::dpotrs(h->settings, to_uplo(uplo), n, nrhs, A[k], lda, B[k], ldb, &r);
      else
        trn::solver::potrs(h->settings, to_uplo(uplo), n, nrhs, as_cpp(A[k]), lda, as_cpp(B[k]), ldb, &r);
    }, /*sink_parts=*/true);
    *info = 0;
  });
}

}  // namespace

extern "C" {

trnsolverStatus_t trnsolverDnSpotrfBatched(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, float* Aarray[],
                                           int lda, int* infoArray, int batchSize) {
  return potrf_batched("trnsolverDnSpotrfBatched", h, enum_value(uplo), n, Aarray, lda, infoArray, batchSize);
}
trnsolverStatus_t trnsolverDnDpotrfBatched(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, double* Aarray[],
                                           int lda, int* infoArray, int batchSize) {
  return potrf_batched("trnsolverDnDpotrfBatched", h, enum_value(uplo), n, Aarray, lda, infoArray, batchSize);
}
trnsolverStatus_t trnsolverDnSpotrsBatched(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, int nrhs, float* A[],
                                           int lda, float* B[], int ldb, int* d_info, int batchSize) {
  return potrs_batched("trnsolverDnSpotrsBatched", h, enum_value(uplo), n, nrhs, A, lda, B, ldb, d_info, batchSize);
}
trnsolverStatus_t trnsolverDnDpotrsBatched(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, int nrhs, double* A[],
                                           int lda, double* B[], int ldb, int* d_info, int batchSize) {
  return potrs_batched("trnsolverDnDpotrsBatched", h, enum_value(uplo), n, nrhs, A, lda, B, ldb, d_info, batchSize);
}


// C, Z (misc #27): the same templates over cpotrf/zpotrf and cpotrs/zpotrs.
trnsolverStatus_t trnsolverDnCpotrfBatched(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, trnComplex* Aarray[],
                                           int lda, int* infoArray, int batchSize) {
  return potrf_batched("trnsolverDnCpotrfBatched", h, enum_value(uplo), n, Aarray, lda, infoArray, batchSize);
}
trnsolverStatus_t trnsolverDnZpotrfBatched(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n,
                                           trnDoubleComplex* Aarray[], int lda, int* infoArray, int batchSize) {
  return potrf_batched("trnsolverDnZpotrfBatched", h, enum_value(uplo), n, Aarray, lda, infoArray, batchSize);
}
trnsolverStatus_t trnsolverDnCpotrsBatched(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, int nrhs,
                                           trnComplex* A[], int lda, trnComplex* B[], int ldb, int* d_info,
                                           int batchSize) {
  return potrs_batched("trnsolverDnCpotrsBatched", h, enum_value(uplo), n, nrhs, A, lda, B, ldb, d_info, batchSize);
}
trnsolverStatus_t trnsolverDnZpotrsBatched(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, int nrhs,
                                           trnDoubleComplex* A[], int lda, trnDoubleComplex* B[], int ldb,
                                           int* d_info, int batchSize) {
  return potrs_batched("trnsolverDnZpotrsBatched", h, enum_value(uplo), n, nrhs, A, lda, B, ldb, d_info, batchSize);
}

}  // extern "C"
