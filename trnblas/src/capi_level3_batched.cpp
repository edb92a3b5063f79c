// trnblas.h, batched BLAS-like extensions: S/D/C/Z getrfBatched, getrsBatched, getriBatched,
// matinvBatched (over trn/blas/level3.hpp "Batched LU"), S/D/C/Z trsmBatched, geqrfBatched and
// gelsBatched ("Batched QR"). Same contract as
// capi.cpp: arguments checked in cuBLAS's order with 1-based positions (no handle), nothing written
// when a check fails (getrsBatched's host info then holds -position, as cuBLAS documents), exceptions
// become statuses, the profile is stored on the handle.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "capi_internal.hpp"
#include "trn/blas/level3.hpp"
#include "trn/core/scratch.hpp"
#include "trnblas.h"

namespace {

namespace capi = blas_capi;
using trn::cshim::enum_value;

template <class T>
using std_t = trn::cshim::cpp_element_t<T>;

template <class T>
auto* cpp_array(T* const* a) {
  return reinterpret_cast<std_t<T>* const*>(a);
}
template <class T>
auto* cpp_array(const T* const* a) {
  return reinterpret_cast<const std_t<T>* const*>(a);
}

// Every entry of a pointer array is non-null (the array itself too).
template <class P>
bool entries(P const* a, std::int64_t batch) {
  if (a == nullptr) return false;
  for (std::int64_t b = 0; b < batch; ++b)
    if (a[b] == nullptr) return false;
  return true;
}

using blas_capi::Accumulate;

// n too large for the fp32 kernel (one matrix per SBUF partition): NOT_SUPPORTED, logged.
template <class T, class Check>
void kernel_size(Check& check, trnblasHandle_t h, std::int64_t n) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, trnComplex>) {
    const trn::blas::Settings& s = h->settings;
    check.require_or(n <= trn::blas::getrf_batched_max_n(s, std::is_same_v<T, trnComplex>), TRNBLAS_STATUS_NOT_SUPPORTED, "NOT_SUPPORTED",
                     "n exceeds one matrix per SBUF partition");
  }
}

// getrfBatched: n 1, A 2, lda 3, P 4 (may be NULL: no pivoting), info 5, batchSize 6.
template <class T>
trnblasStatus_t getrf(trnblasHandle_t h, const char* fn, int n, T* const A[], int lda, int* P, int* info, int batch) {
  if (!capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  auto check = capi::arg_check(h, fn);
  check.nonnegative(n, 1, "n")
      .require(n == 0 || batch <= 0 || entries(A, batch), 2, "A")
      .leading_dim(lda, n, 3, "lda")
      .require(capi::matrix_addressable(2 * static_cast<std::int64_t>(n), n, 2 * static_cast<std::int64_t>(lda)), 3, "lda")
      .require(batch <= 0 || info != nullptr, 5, "info")
      .nonnegative(batch, 6, "batchSize");
  kernel_size<T>(check, h, n);
  if (!check) return check.status();
  return capi::run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    trn::blas::getrf_batched<std_t<T>>(s, n, cpp_array(A), lda, P, info, batch, r);
  });
}

// getrsBatched: trans 1, n 2, nrhs 3, Aarray 4, lda 5, devIpiv 6 (NULL: no pivoting), Barray 7,
// ldb 8, info 9 (host: 0, or -position of the illegal argument), batchSize 10.
template <class T>
trnblasStatus_t getrs(trnblasHandle_t h, const char* fn, int trans, int n, int nrhs, const T* const A[], int lda,
                      const int* piv, T* const B[], int ldb, int* info, int batch) {
  if (!capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  auto check = capi::arg_check(h, fn);
  const bool work = n > 0 && nrhs > 0 && batch > 0;
  check.one_of(trans, {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, 1, "trans")
      .nonnegative(n, 2, "n")
      .nonnegative(nrhs, 3, "nrhs")
      .require(!work || entries(A, batch), 4, "Aarray")
      .leading_dim(lda, n, 5, "lda")
      .require(!work || entries(B, batch), 7, "Barray")
      .leading_dim(ldb, n, 8, "ldb")
      .require(capi::matrix_addressable(2 * static_cast<std::int64_t>(n), std::max(n, nrhs),
                                        2 * static_cast<std::int64_t>(std::max(lda, ldb))),
               8, "ldb")
      .not_null(info, 9, "info")
      .nonnegative(batch, 10, "batchSize");
  if (!check && info != nullptr) *info = -check.failed_position();
  kernel_size<T>(check, h, n);
  if (!check) return check.status();
  *info = 0;
  const trn::blas::COp op = trans == TRNBLAS_OP_N ? trn::blas::COp::N
                            : trans == TRNBLAS_OP_T ? trn::blas::COp::T
                                                    : trn::blas::COp::C;
  return capi::run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    trn::blas::getrs_batched<std_t<T>>(s, op, n, nrhs, cpp_array(A), lda, piv, cpp_array(B), ldb, batch, r);
  });
}

// getriBatched: n 1, A 2, lda 3, P 4 (NULL: no pivoting), C 5, ldc 6, info 7, batchSize 8.
template <class T>
trnblasStatus_t getri(trnblasHandle_t h, const char* fn, int n, const T* const A[], int lda, const int* P,
                      T* const C[], int ldc, int* info, int batch) {
  if (!capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  auto check = capi::arg_check(h, fn);
  const bool work = n > 0 && batch > 0;
  check.nonnegative(n, 1, "n")
      .require(!work || entries(A, batch), 2, "A")
      .leading_dim(lda, n, 3, "lda")
      .require(!work || entries(C, batch), 5, "C")
      .leading_dim(ldc, n, 6, "ldc")
      .require(capi::matrix_addressable(2 * static_cast<std::int64_t>(n), n, 2 * static_cast<std::int64_t>(std::max(lda, ldc))),
               6, "ldc")
      .require(batch <= 0 || info != nullptr, 7, "info")
      .nonnegative(batch, 8, "batchSize");
  kernel_size<T>(check, h, n);
  if (!check) return check.status();
  return capi::run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    trn::blas::getri_batched<std_t<T>>(s, n, cpp_array(A), lda, P, cpp_array(C), ldc, info, batch, r);
  });
}

// matinvBatched: n 1 (n <= 32, as cuBLAS), A 2, lda 3, Ainv 4, lda_inv 5, info 6, batchSize 7.
// getrf with pivoting on a copy of each A, then getri into Ainv; info[b] = k for a singular A[b]
// (Ainv[b] then not written).
template <class T>
trnblasStatus_t matinv(trnblasHandle_t h, const char* fn, int n, const T* const A[], int lda, T* const Ainv[],
                       int lda_inv, int* info, int batch) {
  if (!capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  auto check = capi::arg_check(h, fn);
  const bool work = n > 0 && batch > 0;
  check.require(n >= 0 && n <= 32, 1, "n")
      .require(!work || entries(A, batch), 2, "A")
      .leading_dim(lda, n, 3, "lda")
      .require(!work || entries(Ainv, batch), 4, "Ainv")
      .leading_dim(lda_inv, n, 5, "lda_inv")
      .require(batch <= 0 || info != nullptr, 6, "info")
      .nonnegative(batch, 7, "batchSize");
  if (!check) return check.status();
  using S = std_t<T>;
  return capi::run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    const std::size_t nn = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    // The factors, pivots and infos are the kernels' HBM: on the scratch stack (docs/cost-model.md
    // section 2, "Scratch addresses"), so the modeled time does not depend on malloc's history.
    trn::ScratchVector<S> lu(nn * static_cast<std::size_t>(std::max(batch, 0)));
    std::vector<S*> lu_ptr(static_cast<std::size_t>(std::max(batch, 0)));
    trn::ScratchVector<int> piv(static_cast<std::size_t>(n) * lu_ptr.size()), info_lu(lu_ptr.size());
    const S* const* a = cpp_array(A);
    for (int b = 0; b < batch; ++b) {  // a copy: getrf works in place, A is const
      lu_ptr[static_cast<std::size_t>(b)] = lu.data() + nn * static_cast<std::size_t>(b);
      for (int j = 0; j < n; ++j)
        std::copy(a[b] + static_cast<std::int64_t>(j) * lda, a[b] + static_cast<std::int64_t>(j) * lda + n,
                  lu_ptr[static_cast<std::size_t>(b)] + static_cast<std::size_t>(j) * static_cast<std::size_t>(n));
    }
    Accumulate acc;
    trn::blas::CallReport one;
    one.plans_wanted = false;  // only the profile is kept (store_report): no plan text per entry
    trn::blas::getrf_batched<S>(s, n, lu_ptr.data(), std::max(n, 1), piv.data(), info_lu.data(), batch, &one);
    acc.add(one);
    std::vector<const S*> lu_const(lu_ptr.begin(), lu_ptr.end());
    trn::blas::getri_batched<S>(s, n, lu_const.data(), std::max(n, 1), piv.data(), cpp_array(Ainv), lda_inv, info,
                                batch, &one);
    acc.add(one);
    for (int b = 0; b < batch; ++b) info[b] = info_lu[static_cast<std::size_t>(b)];
    acc.store(s, r);
  });
}

// trsmBatched: side 1, uplo 2, trans 3, diag 4, m 5, n 6, alpha 7, A 8, lda 9, B 10, ldb 11,
// batchCount 12; one TRSM per entry (trnblasStrsm's kernels), every entry checked first.
template <class I, class T>
trnblasStatus_t trsm_batched(trnblasHandle_t h, const char* fn, int side, int uplo, int trans, int diag, I m, I n,
                             const T* alpha, const T* const A[], I lda, T* const B[], I ldb, I batch) {
  if (!capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const std::int64_t order = side == TRNBLAS_SIDE_LEFT ? m : n;
  auto check = capi::arg_check(h, fn);
  check.one_of(side, {TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT}, 1, "side")
      .one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 2, "uplo")
      .one_of(trans, {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, 3, "trans")
      .one_of(diag, {TRNBLAS_DIAG_NON_UNIT, TRNBLAS_DIAG_UNIT}, 4, "diag")
      .nonnegative(m, 5, "m")
      .nonnegative(n, 6, "n")
      .leading_dim(lda, order, 9, "lda")
      .require(capi::matrix_addressable(2 * order, order, 2 * static_cast<std::int64_t>(lda)), 9, "lda")
      .leading_dim(ldb, m, 11, "ldb")
      .require(capi::matrix_addressable(2 * static_cast<std::int64_t>(m), n, 2 * static_cast<std::int64_t>(ldb)), 11, "ldb")
      .nonnegative(batch, 12, "batchCount")
      .not_null(alpha, 7, "alpha");
  const bool work = m > 0 && n > 0 && batch > 0;
  if (check && work) {
    bool reads;
    if constexpr (std::is_floating_point_v<T>)
      reads = *alpha != T(0);
    else
      reads = alpha->x != 0 || alpha->y != 0;
    check.require(!reads || entries(A, batch), 8, "A").require(entries(B, batch), 10, "B");
  }
  if (!check) return check.status();
  if (!work) return TRNBLAS_STATUS_SUCCESS;
  const auto sd = side == TRNBLAS_SIDE_LEFT ? trn::blas::Side::left : trn::blas::Side::right;
  const auto ul = uplo == TRNBLAS_FILL_MODE_LOWER ? trn::blas::Uplo::lower : trn::blas::Uplo::upper;
  const auto dg = diag == TRNBLAS_DIAG_UNIT ? trn::blas::Diag::unit : trn::blas::Diag::non_unit;
  const trn::blas::COp ct = trans == TRNBLAS_OP_N ? trn::blas::COp::N
                            : trans == TRNBLAS_OP_T ? trn::blas::COp::T
                                                    : trn::blas::COp::C;
  const trn::blas::Op rt = trans == TRNBLAS_OP_N ? trn::blas::Op::N : trn::blas::Op::T;
  const std::int64_t lda_k = capi::kernel_ld(lda, order, order), ldb_k = capi::kernel_ld(ldb, m, n);
  return capi::run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    Accumulate acc;
    trn::blas::CallReport one;
    one.plans_wanted = false;  // only the profile is kept (store_report): no plan text per entry
    for (I b = 0; b < batch; ++b) {
      const auto* a = capi::cpp(A == nullptr ? nullptr : A[b]);
      auto* bb = capi::cpp(B[b]);
      if constexpr (std::is_same_v<T, float>)
        trn::blas::strsm(s, capi::fp32_mode(h), sd, ul, rt, dg, m, n, *alpha, a, lda_k, bb, ldb_k, &one);
      else if constexpr (std::is_same_v<T, double>)
        trn::blas::dtrsm(s, sd, ul, rt, dg, m, n, *alpha, a, lda_k, bb, ldb_k, &one);
      else if constexpr (std::is_same_v<T, trnComplex>)
        trn::blas::ctrsm(s, capi::fp32_mode(h), sd, ul, ct, dg, m, n, *capi::cpp(alpha), a, lda_k, bb, ldb_k, &one);
      else
        trn::blas::ztrsm(s, sd, ul, ct, dg, m, n, *capi::cpp(alpha), a, lda_k, bb, ldb_k, &one);
      acc.add(one);
    }
    acc.store(s, r);
  });
}


// ---- geqrfBatched / gelsBatched (trn/blas/level3.hpp "Batched QR") ------------------------------

// m, n, nrhs too large for the fp32 kernel (one matrix per SBUF partition): NOT_SUPPORTED, logged.
template <class T, class Check>
void qr_kernel_size(Check& check, trnblasHandle_t h, std::int64_t m, std::int64_t n, std::int64_t nrhs) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, trnComplex>)
    check.require_or(trn::blas::qr_batched_fits(h->settings, std::is_same_v<T, trnComplex>, m, n, nrhs),
                     TRNBLAS_STATUS_NOT_SUPPORTED, "NOT_SUPPORTED", "m, n, nrhs exceed one matrix per SBUF partition");
}

// geqrfBatched: m 1, n 2, Aarray 3, lda 4, TauArray 5, info 6 (host: 0 or -position), batchSize 7.
template <class T>
trnblasStatus_t geqrf(trnblasHandle_t h, const char* fn, int m, int n, T* const A[], int lda, T* const tau[],
                      int* info, int batch) {
  if (!capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  auto check = capi::arg_check(h, fn);
  const bool work = m > 0 && n > 0 && batch > 0;
  check.nonnegative(m, 1, "m")
      .nonnegative(n, 2, "n")
      .require(!work || entries(A, batch), 3, "Aarray")
      .leading_dim(lda, m, 4, "lda")
      .require(capi::matrix_addressable(2 * static_cast<std::int64_t>(m), n, 2 * static_cast<std::int64_t>(lda)), 4, "lda")
      .require(!work || entries(tau, batch), 5, "TauArray")
      .not_null(info, 6, "info")
      .nonnegative(batch, 7, "batchSize");
  if (!check && info != nullptr) *info = -check.failed_position();
  qr_kernel_size<T>(check, h, m, n, 0);
  if (!check) return check.status();
  *info = 0;
  return capi::run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    trn::blas::geqrf_batched<std_t<T>>(s, m, n, cpp_array(A), lda, cpp_array(tau), batch, r);
  });
}

// gelsBatched: trans 1 (N only: T/C NOT_SUPPORTED), m 2 (m < n NOT_SUPPORTED), n 3, nrhs 4,
// Aarray 5, lda 6, Carray 7, ldc 8, info 9 (host), devInfoArray 10, batchSize 11.
template <class T>
trnblasStatus_t gels(trnblasHandle_t h, const char* fn, int trans, int m, int n, int nrhs, T* const A[], int lda,
                     T* const C[], int ldc, int* info, int* dev_info, int batch) {
  if (!capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  auto check = capi::arg_check(h, fn);
  const bool work = m > 0 && n > 0 && batch > 0;
  check.one_of(trans, {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, 1, "trans")
      .nonnegative(m, 2, "m")
      .nonnegative(n, 3, "n")
      .nonnegative(nrhs, 4, "nrhs")
      .require(!work || entries(A, batch), 5, "Aarray")
      .leading_dim(lda, m, 6, "lda")
      .require(!work || nrhs == 0 || entries(C, batch), 7, "Carray")
      .leading_dim(ldc, m, 8, "ldc")
      .require(capi::matrix_addressable(2 * static_cast<std::int64_t>(m), std::max(n, nrhs),
                                        2 * static_cast<std::int64_t>(std::max(lda, ldc))),
               8, "ldc")
      .not_null(info, 9, "info")
      .require(batch <= 0 || dev_info != nullptr, 10, "devInfoArray")
      .nonnegative(batch, 11, "batchSize");
  int position = check ? 0 : check.failed_position();
  if (check && (trans != TRNBLAS_OP_N || m < n)) position = trans != TRNBLAS_OP_N ? 1 : 2;  // cuBLAS: NOT_SUPPORTED
  check.require_or(trans == TRNBLAS_OP_N, TRNBLAS_STATUS_NOT_SUPPORTED, "NOT_SUPPORTED", "trans: only N (as cuBLAS)")
      .require_or(m >= n, TRNBLAS_STATUS_NOT_SUPPORTED, "NOT_SUPPORTED", "m < n (as cuBLAS: overdetermined only)");
  if (info != nullptr && position != 0) *info = -position;
  qr_kernel_size<T>(check, h, m, n, nrhs);
  if (!check) return check.status();
  *info = 0;
  return capi::run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    trn::blas::gels_batched<std_t<T>>(s, m, n, nrhs, cpp_array(A), lda, cpp_array(C), ldc, dev_info, batch, r);
  });
}
}  // namespace

#define EV(x) enum_value(x)
#define TRNBLAS_LU(P, T)                                                                                            \
  trnblasStatus_t trnblas##P##getrfBatched(trnblasHandle_t h, int n, T* const A[], int lda, int* Pv, int* info,     \
                                           int batchSize) {                                                         \
    return getrf<T>(h, "trnblas" #P "getrfBatched", n, A, lda, Pv, info, batchSize);                                \
  }                                                                                                                 \
  trnblasStatus_t trnblas##P##getrsBatched(trnblasHandle_t h, trnblasOperation_t trans, int n, int nrhs,           \
                                           const T* const Aarray[], int lda, const int* devIpiv,                   \
                                           T* const Barray[], int ldb, int* info, int batchSize) {                  \
    return getrs<T>(h, "trnblas" #P "getrsBatched", EV(trans), n, nrhs, Aarray, lda, devIpiv, Barray, ldb, info,    \
                    batchSize);                                                                                     \
  }                                                                                                                 \
  trnblasStatus_t trnblas##P##getriBatched(trnblasHandle_t h, int n, const T* const A[], int lda, const int* Pv,   \
                                           T* const C[], int ldc, int* info, int batchSize) {                       \
    return getri<T>(h, "trnblas" #P "getriBatched", n, A, lda, Pv, C, ldc, info, batchSize);                        \
  }                                                                                                                 \
  trnblasStatus_t trnblas##P##matinvBatched(trnblasHandle_t h, int n, const T* const A[], int lda,                 \
                                            T* const Ainv[], int lda_inv, int* info, int batchSize) {               \
    return matinv<T>(h, "trnblas" #P "matinvBatched", n, A, lda, Ainv, lda_inv, info, batchSize);                   \
  }
#define TRNBLAS_TRSM_BATCHED(P, T)                                                                                  \
  trnblasStatus_t trnblas##P##trsmBatched(trnblasHandle_t h, trnblasSideMode_t side, trnblasFillMode_t uplo,       \
                                          trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n,          \
                                          const T* alpha, const T* const A[], int lda, T* const B[], int ldb,      \
                                          int batchCount) {                                                         \
    return trsm_batched<int, T>(h, "trnblas" #P "trsmBatched", EV(side), EV(uplo), EV(trans), EV(diag), m, n,      \
                                alpha, A, lda, B, ldb, batchCount);                                                 \
  }                                                                                                                 \
  trnblasStatus_t trnblas##P##trsmBatched_64(trnblasHandle_t h, trnblasSideMode_t side, trnblasFillMode_t uplo,    \
                                             trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m,          \
                                             int64_t n, const T* alpha, const T* const A[], int64_t lda,          \
                                             T* const B[], int64_t ldb, int64_t batchCount) {                       \
    return trsm_batched<int64_t, T>(h, "trnblas" #P "trsmBatched_64", EV(side), EV(uplo), EV(trans), EV(diag), m,  \
                                    n, alpha, A, lda, B, ldb, batchCount);                                          \
  }

#define TRNBLAS_QR_BATCHED(P, T)                                                                                    \
  trnblasStatus_t trnblas##P##geqrfBatched(trnblasHandle_t h, int m, int n, T* const Aarray[], int lda,            \
                                           T* const TauArray[], int* info, int batchSize) {                        \
    return geqrf<T>(h, "trnblas" #P "geqrfBatched", m, n, Aarray, lda, TauArray, info, batchSize);                  \
  }                                                                                                                 \
  trnblasStatus_t trnblas##P##gelsBatched(trnblasHandle_t h, trnblasOperation_t trans, int m, int n, int nrhs,    \
                                          T* const Aarray[], int lda, T* const Carray[], int ldc, int* info,       \
                                          int* devInfoArray, int batchSize) {                                       \
    return gels<T>(h, "trnblas" #P "gelsBatched", EV(trans), m, n, nrhs, Aarray, lda, Carray, ldc, info,            \
                   devInfoArray, batchSize);                                                                        \
  }

extern "C" {
TRNBLAS_LU(S, float)
TRNBLAS_LU(D, double)
TRNBLAS_LU(C, trnComplex)
TRNBLAS_LU(Z, trnDoubleComplex)
TRNBLAS_TRSM_BATCHED(S, float)
TRNBLAS_TRSM_BATCHED(D, double)
TRNBLAS_TRSM_BATCHED(C, trnComplex)
TRNBLAS_TRSM_BATCHED(Z, trnDoubleComplex)
TRNBLAS_QR_BATCHED(S, float)
TRNBLAS_QR_BATCHED(D, double)
TRNBLAS_QR_BATCHED(C, trnComplex)
TRNBLAS_QR_BATCHED(Z, trnDoubleComplex)
}  // extern "C"
