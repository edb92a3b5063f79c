// trnsparse C shim: csrgeam2 (C = alpha A + beta B on CSR; bufferSizeExt, Xcsrgeam2Nnz, S/D/C/Z
// csrgeam2) over trn/sparse/csrgeam.hpp, S/D/C/Z nnz (a tile program, nnz_engine.cpp) and
// GetProperty.
#include <algorithm>
#include <complex>
#include <vector>

#include "capi_internal.hpp"
#include "nnz_engine.hpp"
#include "trn/sparse/csrgeam.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

namespace {

// One CSR operand of the legacy API (int32 indices, the descriptor's base).
struct Operand {
  const trnsparseMatDescr* descr;
  int nnz;
  const void* val;
  const int* row;
  const int* col;
};
struct Pos {
  int descr, nnz, val, row, col;
};
constexpr Pos kA{4, 5, 6, 7, 8}, kB{10, 11, 12, 13, 14};       // csrgeam2 and its bufferSizeExt
constexpr Pos kNnzA{3, 4, 0, 5, 6}, kNnzB{7, 8, 0, 9, 10};     // Xcsrgeam2Nnz (no values)

// Without values (Xcsrgeam2Nnz, index checks) the row offsets stand in for them: never read then.
sp::SparseRef ref_of(const Operand& o, int m, int n, sp::Value v) {
  const void* values = o.val != nullptr ? o.val : o.row;
  sp::SparseRef r{sp::SparseRef::Format::csr, m, n, o.nnz, o.row, o.col, const_cast<void*>(values),
                  sp::IndexType::i32, sp::IndexType::i32, index_base(o.descr->base), v};
  return r;
}

// The descriptor, counts, pointers and index arrays of one operand (values when p.val != 0).
Check& operand_checks(Check& c, const Operand& o, const Pos& p, int m, int n) {
  c.require(g_mat_descrs.contains(o.descr), p.descr, "descr").nonnegative(o.nnz, p.nnz, "nnz");
  if (!c) return c;
  c.require_or(o.descr->type == TRNSPARSE_MATRIX_TYPE_GENERAL, TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED", "csrgeam2: only TRNSPARSE_MATRIX_TYPE_GENERAL");
  if (p.val != 0) c.require(o.val != nullptr || o.nnz == 0, p.val, "csrSortedVal");
  c.not_null(o.row, p.row, "csrSortedRowPtr").require(o.col != nullptr || o.nnz == 0, p.col, "csrSortedColInd");
  if (!c) return c;
  try {
    sp::validate(ref_of(o, m, n, sp::Value::f32));  // index rules only (values are not read)
  } catch (const sp::InvalidArgument& e) {
    g_log.log(e.what());
    const std::string item = e.item();
    return c.require(false, item == "columns" ? p.col : p.row, item == "columns" ? "csrSortedColInd" : "csrSortedRowPtr");
  }
  return c;
}

Check& shape_checks(Check& c, int m, int n, const Operand& a, const Operand& b, const trnsparseMatDescr* dc, const Pos& pa,
                    const Pos& pb, int pos_c) {
  c.nonnegative(m, 1, "m").nonnegative(n, 2, "n");
  if (!c) return c;
  operand_checks(c, a, pa, m, n);
  operand_checks(c, b, pb, m, n);
  c.require(g_mat_descrs.contains(dc), pos_c, "descrC");
  if (!c) return c;
  return c.require_or(dc->type == TRNSPARSE_MATRIX_TYPE_GENERAL, TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED,
                      "TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED", "csrgeam2: only TRNSPARSE_MATRIX_TYPE_GENERAL");
}

// bufferSizeExt (size != nullptr path: query) and csrgeam2 share the argument chain.
template <class T>
trnsparseStatus_t geam(trnsparseHandle_t h, const char* fn, bool query, int m, int n, const T* alpha, Operand a, const T* beta,
                       Operand b, const trnsparseMatDescr* dc, T* valC, int* rowC, int* colC, size_t* size) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.not_null(alpha, 3, "alpha").not_null(beta, 9, "beta");
  if (!shape_checks(c, m, n, a, b, dc, kA, kB, 15)) return c.status();
  if (query) {
    if (c.not_null(size, 19, "pBufferSizeInBytes")) *size = kBufferBytes;
    return c.status();
  }
  if (!c.not_null(rowC, 17, "csrSortedRowPtrC")) return c.status();
  constexpr sp::Value v = value_of<T>();
  const sp::SparseRef A = ref_of(a, m, n, v), B = ref_of(b, m, n, v);
  const sp::SparseRef C{sp::SparseRef::Format::csr, m, n, 0, rowC, colC, valC, sp::IndexType::i32, sp::IndexType::i32,
                        index_base(dc->base), v};
  const int vt = value_type_of(v);
  const sp::Scalar al = load_scalar(alpha, vt), be = load_scalar(beta, vt);
  return run(h, fn, {{"offsetsC", 17}, {"columnsC", 18}}, [&] {
    sp::CallReport r;
    sp::csrgeam(h->settings, al, A, be, B, C, &r);
    store_profile(h, r);
  });
}

// nnz: the stored entries (x != 0, either part for complex) of each row (dirA ROW) or column of a
// column-major m x n A, and their total. The counting is a tile program (nnz_engine.cpp: compares on
// VectorE, row sums on TensorE, the total on GpSimdE); a reduced extent of 2^24 or more is counted by
// the host scan instead (a costed host step). Both write a staging copy: the outputs are written only
// when the total fits an int.
std::int64_t nnz_on_host(const sp::DenseAny& A, bool by_rows, std::int32_t* counts) {
  const std::int64_t major = by_rows ? A.rows : A.cols;
  std::vector<std::int64_t> off(static_cast<std::size_t>(major) + 1);
  const sp::SparseRef out{by_rows ? sp::SparseRef::Format::csr : sp::SparseRef::Format::csc, A.rows, A.cols, 0, off.data(), nullptr,
                          nullptr, sp::IndexType::i64, sp::IndexType::i64, sp::IndexBase::zero, A.value};
  const std::int64_t count = sp::dense_to_sparse_analysis(A, out);
  for (std::int64_t i = 0; i < major; ++i)
    counts[i] = static_cast<std::int32_t>(off[static_cast<std::size_t>(i) + 1] - off[static_cast<std::size_t>(i)]);
  return count;
}

template <class T>
trnsparseStatus_t nnz(trnsparseHandle_t h, const char* fn, int dir, int m, int n, const trnsparseMatDescr* descr, const T* A,
                      int lda, int* per, int* total) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.one_of(dir, {TRNSPARSE_DIRECTION_ROW, TRNSPARSE_DIRECTION_COLUMN}, 1, "dirA").nonnegative(m, 2, "m").nonnegative(n, 3, "n");
  c.require(g_mat_descrs.contains(descr), 4, "descrA");
  if (!c) return c.status();
  c.require_or(descr->type == TRNSPARSE_MATRIX_TYPE_GENERAL, TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED", "nnz: only TRNSPARSE_MATRIX_TYPE_GENERAL");
  const int major = dir == TRNSPARSE_DIRECTION_ROW ? m : n;
  c.require(A != nullptr || std::int64_t{m} * n == 0, 5, "A").leading_dim(lda, m, 6, "lda");
  c.require(per != nullptr || major == 0, 7, "nnzPerRowCol").not_null(total, 8, "nnzTotalDevHostPtr");
  if (!c) return c.status();
  return run(h, fn, {{"nnzTotalDevHostPtr", 8}}, [&] {
    const bool by_rows = dir == TRNSPARSE_DIRECTION_ROW;
    const sp::DenseAny dense{const_cast<T*>(A), value_of<T>(), m, n, lda, sp::Layout::col_major};
    std::vector<std::int32_t> staged(static_cast<std::size_t>(major));
    sp::CallReport r;
    const bool engines = sp::dense_nnz_on_engines(dense, by_rows);
    const std::int64_t count = engines ? sp::dense_nnz_engines(h->settings, dense, by_rows, staged.data(), &r)
                                       : nnz_on_host(dense, by_rows, staged.data());
    if (count > INT32_MAX) throw sp::InvalidArgument("nnz: more than 2^31 - 1 nonzeros", "nnzTotalDevHostPtr");
    std::copy(staged.begin(), staged.end(), per);
    *total = static_cast<int>(count);
    if (engines) {
      store_profile(h, r);
      return;
    }
    // The host scan: A crosses to the host once, the counts and the total come back.
    set_host_profile(h, trn::HostStep{.name = "trnsparse.nnz.count", .flops = static_cast<double>(m) * n,
                                      .reads = {trn::HostSpan::matrix(A, m, n, lda)},
                                      .writes = {trn::HostSpan(per, major), trn::HostSpan(total, 1)}});
  });
}

}  // namespace

extern "C" {

trnsparseStatus_t trnsparseXcsrgeam2Nnz(trnsparseHandle_t h, int m, int n, const trnsparseMatDescr_t descrA, int nnzA,
                                        const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                        const trnsparseMatDescr_t descrB, int nnzB, const int* csrSortedRowPtrB,
                                        const int* csrSortedColIndB, const trnsparseMatDescr_t descrC,
                                        int* csrSortedRowPtrC, int* nnzTotalDevHostPtr, void* workspace) {
  (void)workspace;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseXcsrgeam2Nnz", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  const Operand a{descrA, nnzA, nullptr, csrSortedRowPtrA, csrSortedColIndA};
  const Operand b{descrB, nnzB, nullptr, csrSortedRowPtrB, csrSortedColIndB};
  if (!shape_checks(c, m, n, a, b, descrC, kNnzA, kNnzB, 11)) return c.status();
  c.not_null(csrSortedRowPtrC, 12, "csrSortedRowPtrC").not_null(nnzTotalDevHostPtr, 13, "nnzTotalDevHostPtr");
  if (!c) return c.status();
  return run(h, "trnsparseXcsrgeam2Nnz", {{"nnzC", 13}}, [&] {
    std::vector<std::int32_t> off(static_cast<std::size_t>(m) + 1);
    const std::int64_t nnz = sp::csrgeam_nnz(ref_of(a, m, n, sp::Value::f32), ref_of(b, m, n, sp::Value::f32),
                                             index_base(descrC->base), off.data());
    std::copy(off.begin(), off.end(), csrSortedRowPtrC);
    *nnzTotalDevHostPtr = static_cast<int>(nnz);
  });
}

trnsparseStatus_t trnsparseGetProperty(libraryPropertyType type, int* value) {
  const int t = enum_value(type);
  Check c(g_log, "trnsparseGetProperty", TRNSPARSE_STATUS_INVALID_VALUE);
  c.one_of(t, {MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL}, 1, "type").not_null(value, 2, "value");
  if (!c) return c.status();
  *value = t == MAJOR_VERSION ? TRNSPARSE_VER_MAJOR : t == MINOR_VERSION ? TRNSPARSE_VER_MINOR : TRNSPARSE_VER_PATCH;
  return TRNSPARSE_STATUS_SUCCESS;
}

}  // extern "C"

#define TRNSPARSE_CSRGEAM2(X, T)                                                                                      \
  trnsparseStatus_t trnsparse##X##csrgeam2_bufferSizeExt(                                                             \
      trnsparseHandle_t h, int m, int n, const T* alpha, const trnsparseMatDescr_t descrA, int nnzA, const T* valA,   \
      const int* rowA, const int* colA, const T* beta, const trnsparseMatDescr_t descrB, int nnzB, const T* valB,     \
      const int* rowB, const int* colB, const trnsparseMatDescr_t descrC, const T* valC, const int* rowC,             \
      const int* colC, size_t* pBufferSizeInBytes) {                                                                  \
    return geam<T>(h, "trnsparse" #X "csrgeam2_bufferSizeExt", true, m, n, alpha, {descrA, nnzA, valA, rowA, colA},   \
                   beta, {descrB, nnzB, valB, rowB, colB}, descrC, const_cast<T*>(valC), const_cast<int*>(rowC),      \
                   const_cast<int*>(colC), pBufferSizeInBytes);                                                       \
  }                                                                                                                   \
  trnsparseStatus_t trnsparse##X##csrgeam2(trnsparseHandle_t h, int m, int n, const T* alpha,                         \
                                           const trnsparseMatDescr_t descrA, int nnzA, const T* valA, const int* rowA, \
                                           const int* colA, const T* beta, const trnsparseMatDescr_t descrB, int nnzB, \
                                           const T* valB, const int* rowB, const int* colB,                          \
                                           const trnsparseMatDescr_t descrC, T* valC, int* rowC, int* colC, void*) {  \
    return geam<T>(h, "trnsparse" #X "csrgeam2", false, m, n, alpha, {descrA, nnzA, valA, rowA, colA}, beta,          \
                   {descrB, nnzB, valB, rowB, colB}, descrC, valC, rowC, colC, nullptr);                              \
  }

#define TRNSPARSE_NNZ(X, T)                                                                                           \
  trnsparseStatus_t trnsparse##X##nnz(trnsparseHandle_t h, trnsparseDirection_t dirA, int m, int n,                   \
                                      const trnsparseMatDescr_t descrA, const T* A, int lda, int* nnzPerRowCol,       \
                                      int* nnzTotalDevHostPtr) {                                                      \
    return nnz<T>(h, "trnsparse" #X "nnz", enum_value(dirA), m, n, descrA, A, lda, nnzPerRowCol, nnzTotalDevHostPtr); \
  }

extern "C" {
TRNSPARSE_NNZ(S, float)
TRNSPARSE_NNZ(D, double)
TRNSPARSE_NNZ(C, trnComplex)
TRNSPARSE_NNZ(Z, trnDoubleComplex)
TRNSPARSE_CSRGEAM2(S, float)
TRNSPARSE_CSRGEAM2(D, double)
TRNSPARSE_CSRGEAM2(C, trnComplex)
TRNSPARSE_CSRGEAM2(Z, trnDoubleComplex)
}  // extern "C"
