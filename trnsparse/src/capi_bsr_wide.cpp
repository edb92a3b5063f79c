// trnsparse C shim: legacy BSR products in fp64 and complex — Dbsrmv, Cbsrmv, Zbsrmv and Dbsrmm.
// Cbsrmv runs on TensorE through the real 2 x 2 embedding of its complex-fp32 blocks
// (trn/sparse/generic.hpp spmm_c32). For fp64 / complex-fp64 no NeuronCore engine computes in fp64
// and trnsparse's BSR tile kernels are fp32-class, so the matrix is expanded to the scalar CSR it stands for (index work: each block row's blocks,
// in their sorted order, give each of its scalar rows block-size columns; the values are gathered
// in that order, row- or column-major inside a block as dirA says) and the product runs as the
// generic API's costed fp64 host step (trn/sparse/generic.hpp spmv_host / spmm_host: its accuracy
// bound, gamma_{k+2} real and sqrt(2) gamma_{k+4} complex, k the stored entries of a row of op(A)).
#include <complex>
#include <cstring>
#include <vector>

#include "capi_internal.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

namespace {

// The scalar CSR of a validated legacy BSR (int32 arrays, base of descr): owned arrays and the view.
struct ScalarCsr {
  std::vector<std::int64_t> off, col;
  std::vector<unsigned char> val;
  sp::SparseRef ref;
};
ScalarCsr expand(int dir, int mb, int nb, int nnzb, int bs, const trnsparseMatDescr* d, const void* val, const int* row, const int* col,
                 sp::Value v) {
  const sp::BsrView view{mb, nb, nnzb, bs, bs, row, col, const_cast<void*>(val), sp::IndexType::i32,
                         sp::IndexType::i32, index_base(d->base), trn::DType::f32,
                         dir == TRNSPARSE_DIRECTION_ROW ? sp::BlockOrder::row : sp::BlockOrder::col};
  sp::validate(view);  // InvalidArgument "offsets" / "columns" / "nnz"
  ScalarCsr s;
  const std::size_t vb = sp::value_bytes(v);
  const auto* src = static_cast<const unsigned char*>(val);
  s.off.push_back(0);
  for (int I = 0; I < mb; ++I)
    for (int r = 0; r < bs; ++r) {
      for (int k = row[I] - d->base; k < row[I + 1] - d->base; ++k)
        for (int c = 0; c < bs; ++c) {
          s.col.push_back(std::int64_t{col[k] - d->base} * bs + c);
          const std::int64_t at = std::int64_t{k} * bs * bs + (dir == TRNSPARSE_DIRECTION_ROW ? r * bs + c : c * bs + r);
          s.val.insert(s.val.end(), src + at * static_cast<std::int64_t>(vb), src + (at + 1) * static_cast<std::int64_t>(vb));
        }
      s.off.push_back(static_cast<std::int64_t>(s.col.size()));
    }
  s.ref = {sp::SparseRef::Format::csr, std::int64_t{mb} * bs, std::int64_t{nb} * bs, static_cast<std::int64_t>(s.col.size()),
           s.off.data(), s.col.data(), s.val.data(), sp::IndexType::i64, sp::IndexType::i64, sp::IndexBase::zero, v};
  return s;
}

template <class T>
trnsparseStatus_t bsrmv(trnsparseHandle_t h, const char* fn, const BsrmvArgs& a) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!bsrmv_checks(c, h->strict, a, value_of<T>() != sp::Value::f64)) return c.status();
  if constexpr (value_of<T>() == sp::Value::c32)  // complex-fp32: the real embedding on TensorE (generic.hpp)
    return run(h, fn, {{"offsets", 9}, {"nnz", 5}, {"columns", 10}}, [&] {
      const sp::BsrView view{a.mb, a.nb, a.nnzb, a.block, a.block, a.row, a.col, const_cast<void*>(a.val), sp::IndexType::i32,
                             sp::IndexType::i32, index_base(a.descr->base), trn::DType::f32,
                             a.dir == TRNSPARSE_DIRECTION_ROW ? sp::BlockOrder::row : sp::BlockOrder::col};
      const std::int64_t M = std::int64_t{a.ta == 0 ? a.mb : a.nb} * a.block, K = std::int64_t{a.ta == 0 ? a.nb : a.mb} * a.block;
      sp::CallReport r;
      sp::spmm_c32(h->settings, gop_of(a.ta), sp::GOp::N, load_scalar(a.alpha, TRN_C_32F), view,
                   {const_cast<void*>(a.x), sp::Value::c32, K, 1, std::max<std::int64_t>(K, 1), sp::Layout::col_major},
                   load_scalar(a.beta, TRN_C_32F),
                   {const_cast<void*>(a.y), sp::Value::c32, M, 1, std::max<std::int64_t>(M, 1), sp::Layout::col_major}, &r);
      store_profile(h, r);
    });
  return run(h, fn, {{"offsets", 9}, {"nnz", 5}, {"columns", 10}}, [&] {
    const ScalarCsr s = expand(a.dir, a.mb, a.nb, a.nnzb, a.block, a.descr, a.val, a.row, a.col, value_of<T>());
    sp::CallReport r;
    sp::spmv_host(h->settings, gop_of(a.ta), load_scalar(a.alpha, value_type_of(value_of<T>())), s.ref, a.x, load_scalar(a.beta, value_type_of(value_of<T>())),
                  const_cast<void*>(a.y), &r);
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
                        const ScalarCsr s = expand(dir, mb, kb, nnzb, blockSize, descrA, val, rowPtr, colInd, sp::Value::f64);
                        sp::CallReport r;
                        sp::spmm_host(h->settings, gop_of(ta), gop_of(tb), {*alpha, 0.0}, s.ref,
                                      {const_cast<double*>(B), sp::Value::f64, tb == 0 ? k : n, tb == 0 ? n : k, ldb,
                                       sp::Layout::col_major},
                                      {*beta, 0.0}, {C, sp::Value::f64, rows_c, n, ldc, sp::Layout::col_major}, &r);
                        store_profile(h, r);
                      });
}

}  // extern "C"
