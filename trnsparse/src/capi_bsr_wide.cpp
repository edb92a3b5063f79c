// trnsparse C shim: legacy BSR products in fp64 and complex — Dbsrmv, Cbsrmv, Zbsrmv and Dbsrmm.
// Cbsrmv runs on TensorE through the real 2 x 2 embedding of its complex-fp32 blocks
// (trn/sparse/generic.hpp spmm_c32). Dbsrmv, Zbsrmv and Dbsrmm run on the generic API's fp64 BSR path
// (trn/sparse/generic.hpp spmm_fp64 on a BsrView of the caller's arrays, dirA the block order): one
// Ozaki GEMM (dgemm; zgemm 4M) per block row of op(A) on TensorE, its bound 2^-50 k max|a| max|b|
// |alpha| + the epilogue's roundings per output, k = t blockDim (docs/trnsparse.md "fp64 BSR and
// Blocked-ELL on TensorE"); Dbsrmv with <= 128 stored values per block row on average: dgemv row
// groups of the block entries, 4.1 u (|alpha p| + |beta y|) (block_fp64.cpp).
#include <complex>
#include <cstring>
#include <vector>

#include "capi_internal.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

namespace {

// The caller's legacy BSR arrays as a view (int32 indices, base of descr, dirA the block order); the
// value type is the call's (`value`), the view's value_type only satisfies the index checks.
sp::BsrView legacy_view(int dir, int mb, int nb, int nnzb, int bs, const trnsparseMatDescr* d, const void* val, const int* row,
                        const int* col) {
  return sp::BsrView{mb, nb, nnzb, bs, bs, row, col, const_cast<void*>(val), sp::IndexType::i32, sp::IndexType::i32,
                     index_base(d->base), trn::DType::f32,
                     dir == TRNSPARSE_DIRECTION_ROW ? sp::BlockOrder::row : sp::BlockOrder::col};
}

template <class T>
trnsparseStatus_t bsrmv(trnsparseHandle_t h, const char* fn, const BsrmvArgs& a) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!bsrmv_checks(c, h->strict, a, value_of<T>() != sp::Value::f64)) return c.status();
  // complex-fp32: the real embedding on TensorE (spmm_c32); fp64 / complex-fp64: spmm_fp64 (Ozaki GEMMs per
  // block row; small-block fp64: dgemv row groups)
  return run(h, fn, {{"offsets", 9}, {"nnz", 5}, {"columns", 10}}, [&] {
    const sp::BsrView view = legacy_view(a.dir, a.mb, a.nb, a.nnzb, a.block, a.descr, a.val, a.row, a.col);
    const std::int64_t M = std::int64_t{a.ta == 0 ? a.mb : a.nb} * a.block, K = std::int64_t{a.ta == 0 ? a.nb : a.mb} * a.block;
    constexpr sp::Value v = value_of<T>();
    const sp::DenseAny x{const_cast<void*>(a.x), v, K, 1, std::max<std::int64_t>(K, 1), sp::Layout::col_major};
    const sp::DenseAny y{const_cast<void*>(a.y), v, M, 1, std::max<std::int64_t>(M, 1), sp::Layout::col_major};
    const sp::Scalar al = load_scalar(a.alpha, value_type_of(v)), be = load_scalar(a.beta, value_type_of(v));
    sp::CallReport r;
    r.plans_wanted = false;  // the profile only (as capi_spmm.cpp): no plan printed, so no prediction computed
    if constexpr (v == sp::Value::c32)
      sp::spmm_c32(h->settings, gop_of(a.ta), sp::GOp::N, al, view, x, be, y, &r);
    else
      sp::spmm_fp64(h->settings, gop_of(a.ta), sp::GOp::N, al, view, v, x, be, y, &r);
    store_profile(h, r);
  });
}

}  // namespace

#define TRNSPARSE_BSRMV(X, T)                                                                                          \
  trnsparseStatus_t trnsparse##X##bsrmv(trnsparseHandle_t h, trnsparseDirection_t dirA, trnsparseOperation_t transA,   \
                                        int mb, int nb, int nnzb, const T* alpha, const trnsparseMatDescr_t descrA,    \
                                        const T* val, const int* rowPtr, const int* colInd, int blockDim, const T* x,  \
                                        const T* beta, T* y) {                                                         \
    return bsrmv<T>(h, "trnsparse" #X "bsrmv",                                                                         \
                    {enum_value(dirA), enum_value(transA), mb, nb, nnzb, blockDim, alpha, beta, descrA, val, rowPtr,   \
                     colInd, x, y});                                                                                   \
  }

extern "C" {
TRNSPARSE_BSRMV(D, double)
TRNSPARSE_BSRMV(C, trnComplex)
TRNSPARSE_BSRMV(Z, trnDoubleComplex)

trnsparseStatus_t trnsparseDbsrmm(trnsparseHandle_t h, trnsparseDirection_t dirA, trnsparseOperation_t transA,
                                  trnsparseOperation_t transB, int mb, int n, int kb, int nnzb, const double* alpha,
                                  const trnsparseMatDescr_t descrA, const double* val, const int* rowPtr,
                                  const int* colInd, const int blockSize, const double* B, const int ldb,
                                  const double* beta, double* C, int ldc) {
  const int dir = enum_value(dirA), ta = enum_value(transA), tb = enum_value(transB);
  return legacy_bsrmm(h, "trnsparseDbsrmm",
                      {dir, ta, tb, mb, n, kb, nnzb, blockSize, ldb, ldc, alpha, beta, descrA, val, rowPtr, colInd, B, C},
                      [&](std::int64_t rows_c, std::int64_t k) {
                        const sp::BsrView view = legacy_view(dir, mb, kb, nnzb, blockSize, descrA, val, rowPtr, colInd);
                        sp::CallReport r;
                        r.plans_wanted = false;  // the profile only (as capi_spmm.cpp): no plan printed, so no prediction computed
                        sp::spmm_fp64(h->settings, gop_of(ta), gop_of(tb), {*alpha, 0.0}, view, sp::Value::f64,
                                      {const_cast<double*>(B), sp::Value::f64, tb == 0 ? k : n, tb == 0 ? n : k, ldb,
                                       sp::Layout::col_major},
                                      {*beta, 0.0}, {C, sp::Value::f64, rows_c, n, ldc, sp::Layout::col_major}, &r);
                        store_profile(h, r);
                      });
}

}  // extern "C"
