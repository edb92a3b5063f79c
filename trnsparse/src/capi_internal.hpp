// The C shim's shared internals: the descriptor structs behind trnsparse.h's opaque handles, the
// registries of live handles, the logger and status map, and the helpers every entry-point file
// uses (descriptor visits, index validation as a link of the argument chain, `run`). The entry
// points themselves live by family in capi_*.cpp.
#pragma once
#include "trnsparse.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <complex>
#include <cstring>
#include <string>

#include "trn/core/c_shim.hpp"
#include "trn/sparse/generic.hpp"
#include "trn/sparse/sell.hpp"
#include "trn/sparse/sparse.hpp"
#include "trn/sparse/spgemm_csr.hpp"

namespace sp = trn::sparse;
using trn::cshim::ArgCheck;
using trn::cshim::enum_value;

struct trnsparseContext {
  sp::Settings settings;
  trnStream_t stream = nullptr;
  int pointer_mode = TRNSPARSE_POINTER_MODE_HOST;
  trnProfile_t last_profile{};
  trn::cshim::LastError last_error_param{0};  // atomic: a handle may serve several threads
  bool strict = false;
  int krylov_vector_type = TRN_R_32F;  // SetKrylovVectorType: TRN_R_16BF stores the CSR solvers' vectors in bf16
};

struct trnsparseMatDescr {
  int type = TRNSPARSE_MATRIX_TYPE_GENERAL;
  int fill = TRNSPARSE_FILL_MODE_LOWER;
  int diag = TRNSPARSE_DIAG_TYPE_NON_UNIT;
  int base = TRNSPARSE_INDEX_BASE_ZERO;
};

struct trnsparseSpMatDescr {
  int format = TRNSPARSE_FORMAT_BSR;
  sp::BsrView bsr;  // format BSR
  sp::CsrView csr;  // format CSR
  sp::CooView coo;  // format COO
  sp::CscView csc;  // format CSC
  sp::BlockedEllView ell;  // format BLOCKED_ELL
  sp::SellView sell;       // format SLICED_ELLPACK
  int value_type = TRN_R_32F;  // as created (BlockedEllGet returns it)
  int base = 0;
  int fill = TRNSPARSE_FILL_MODE_LOWER;
  int diag = TRNSPARSE_DIAG_TYPE_NON_UNIT;
  bool is_const = false;
  // Values not of a tile dtype (TRN_R_64F, TRN_C_32F, TRN_C_64F): SpMV/SpMM on CSR/CSC/COO and SDDMM
  // into CSR/BSR take the host-step path (trn/sparse/generic.hpp); BSR / Blocked-ELL SpMM / SpMV and
  // the Krylov solvers return NOT_SUPPORTED (docs/trnsparse.md "C API").
  bool wide = false;
  int batch_count = 1;                    // CsrSetStridedBatch / CooSetStridedBatch (recorded)
  std::int64_t offsets_stride = 0, values_stride = 0;
  std::int64_t columns_stride = 0;  // BsrSetStridedBatch (CSR / COO: columns move with the values)
};

struct trnsparseSpGEMMDescr {
  sp::OwnedBsr result;  // pattern after workEstimation, values after compute
  int phase = 0;        // 0 created, 1 estimated, 2 computed
  bool is_csr = false;  // CSR operands: `csr` holds the product (trn/sparse/spgemm_csr.hpp)
  sp::CsrProduct csr;
  int reuse_phase = 0;  // SpGEMMreuse: 1 nnz reported to matC, 2 pattern copied into matC
};

struct trnsparseDnMatDescr {
  sp::MutableDenseRef m;
  bool is_const = false;
  bool wide = false;  // TRN_R_64F / TRN_C_32F / TRN_C_64F values (m.dtype is then a placeholder)
  int value_type = TRN_R_32F;
  int batch_count = 1;  // DnMatSetStridedBatch (recorded)
  std::int64_t batch_stride = 0;
};

struct trnsparseDnVecDescr {
  void* values = nullptr;
  std::int64_t size = 0;
  trn::DType dtype = trn::DType::f32;
  bool is_const = false;
  bool wide = false;
  int value_type = TRN_R_32F;
};

struct trnsparseSpVecDescr {
  sp::SpVecRef v;
  int value_type = TRN_R_32F;
  bool is_const = false;
};

namespace trn::sparse::capi {

inline trn::cshim::Logger g_log("TRNSPARSE");
inline trn::cshim::HandleRegistry<trnsparseContext> g_handles;
inline trn::cshim::HandleRegistry<trnsparseMatDescr> g_mat_descrs;
inline trn::cshim::HandleRegistry<trnsparseSpMatDescr> g_spmats;
inline trn::cshim::HandleRegistry<trnsparseDnMatDescr> g_dnmats;
inline trn::cshim::HandleRegistry<trnsparseDnVecDescr> g_dnvecs;
inline trn::cshim::HandleRegistry<trnsparseSpGEMMDescr> g_spgemms;
inline trn::cshim::HandleRegistry<trnsparseSpVecDescr> g_spvecs;


inline const char* status_name(trnsparseStatus_t s) { return trnsparseGetErrorName(s); }
inline const trn::cshim::StatusMap<trnsparseStatus_t> kStatusMap{
    TRNSPARSE_STATUS_SUCCESS,          TRNSPARSE_STATUS_ALLOC_FAILED,   TRNSPARSE_STATUS_NOT_SUPPORTED,
    TRNSPARSE_STATUS_INVALID_VALUE,    TRNSPARSE_STATUS_EXECUTION_FAILED, TRNSPARSE_STATUS_INTERNAL_ERROR,
    status_name};

using Check = ArgCheck<trnsparseStatus_t>;

// The kit's emulation surface (SetTarget ... GetLastErrorParameter, the logger family) over trnsparse handles.
constexpr trn::cshim::SurfaceCodes<trnsparseStatus_t> kSurfaceCodes{TRNSPARSE_STATUS_SUCCESS, TRNSPARSE_STATUS_NOT_INITIALIZED,
                                                     TRNSPARSE_STATUS_INVALID_VALUE};
using Surface =
    trn::cshim::ContextBinding<trnsparseContext, trnsparseStatus_t, &g_handles, &g_log, &kStatusMap, &kSurfaceCodes>;

// trnDataType_t of a value array -> DType (f32, bf16, f16 only); 64F is reported apart.
inline bool value_dtype(int c, trn::DType* out) {
  switch (c) {
    case TRN_R_32F: *out = trn::DType::f32; return true;
    case TRN_R_16BF: *out = trn::DType::bf16; return true;
    case TRN_R_16F: *out = trn::DType::f16; return true;
    default: return false;
  }
}
inline bool is_known_value_type(int c) {
  return c == TRN_R_32F || c == TRN_R_16BF || c == TRN_R_16F || c == TRN_R_64F || c == TRN_C_32F || c == TRN_C_64F;
}
// The generic API's value types (TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F).
inline bool is_generic_value_type(int c) { return c == TRN_R_32F || c == TRN_R_64F || c == TRN_C_32F || c == TRN_C_64F; }
inline sp::Value generic_value(int c) {
  return c == TRN_R_64F ? sp::Value::f64 : c == TRN_C_32F ? sp::Value::c32 : c == TRN_C_64F ? sp::Value::c64 : sp::Value::f32;
}
// The generic Value of a C element type (float, double, trnComplex, trnDoubleComplex) and its trnDataType_t.
template <class T>
constexpr sp::Value value_of() {
  using E = trn::cshim::cpp_element_t<T>;
  if constexpr (std::is_same_v<E, float>) return sp::Value::f32;
  else if constexpr (std::is_same_v<E, double>) return sp::Value::f64;
  else if constexpr (std::is_same_v<E, std::complex<float>>) return sp::Value::c32;
  else return sp::Value::c64;
}
constexpr int value_type_of(sp::Value v) {
  return v == sp::Value::f32 ? TRN_R_32F : v == sp::Value::f64 ? TRN_R_64F : v == sp::Value::c32 ? TRN_C_32F : TRN_C_64F;
}
inline sp::GOp gop_of(int c) { return c == 0 ? sp::GOp::N : c == 1 ? sp::GOp::T : sp::GOp::C; }
// A host scalar (alpha, beta, c, s) of value type `vt`.
inline sp::Scalar load_scalar(const void* p, int vt) {
  switch (vt) {
    case TRN_R_64F: return {*static_cast<const double*>(p), 0.0};
    case TRN_C_32F: return {static_cast<const float*>(p)[0], static_cast<const float*>(p)[1]};
    case TRN_C_64F: return {static_cast<const double*>(p)[0], static_cast<const double*>(p)[1]};
    default: return {*static_cast<const float*>(p), 0.0};
  }
}
inline sp::IndexBase index_base(int b) { return b == 1 ? sp::IndexBase::one : sp::IndexBase::zero; }
inline sp::IndexType index_type(int c) { return c == TRNSPARSE_INDEX_64I ? sp::IndexType::i64 : sp::IndexType::i32; }
inline sp::Op op_of(int c) { return c == TRNSPARSE_OPERATION_NON_TRANSPOSE ? sp::Op::N : sp::Op::T; }

// Index validation as one link of the argument chain: position `pos` names the matrix argument.
template <class View>
bool indices_ok(const View& v, std::string* why) {
  try {
    sp::validate(v);
    return true;
  } catch (const sp::InvalidArgument& e) {
    *why = e.what();
    return false;
  }
}
inline std::int64_t sp_rows_of(const sp::BsrView& v) { return v.rows(); }
inline std::int64_t sp_cols_of(const sp::BsrView& v) { return v.cols(); }
template <class V>
std::int64_t sp_rows_of(const V& v) { return v.rows; }
template <class V>
std::int64_t sp_cols_of(const V& v) { return v.cols; }

// f(view) on the descriptor's view of its format.
template <class D, class F>
decltype(auto) visit(D* m, F&& f) {
  switch (m->format) {
    case TRNSPARSE_FORMAT_BSR: return f(m->bsr);
    case TRNSPARSE_FORMAT_CSR: return f(m->csr);
    case TRNSPARSE_FORMAT_CSC: return f(m->csc);
    case TRNSPARSE_FORMAT_BLOCKED_ELL: return f(m->ell);
    case TRNSPARSE_FORMAT_SLICED_ELLPACK: return f(m->sell);
    default: return f(m->coo);
  }
}

inline Check& check_sparse(Check& c, const trnsparseSpMatDescr* m, int pos, const char* name) {
  if (!c) return c;
  std::string why;
  const bool ok = visit(m, [&](const auto& v) { return indices_ok(v, &why); });
  if (!ok) g_log.log(why);
  return c.require(ok, pos, name);
}

inline std::int64_t sp_rows(const trnsparseSpMatDescr* m) {
  return visit(m, [](const auto& v) { return sp_rows_of(v); });
}
inline std::int64_t sp_cols(const trnsparseSpMatDescr* m) {
  return visit(m, [](const auto& v) { return sp_cols_of(v); });
}
inline void*& sp_values(trnsparseSpMatDescr* m) {
  return visit(m, [](auto& v) -> void*& { return v.values; });
}
inline sp::DenseRef dense_of(const trnsparseDnMatDescr* d) {
  return {d->m.data, d->m.dtype, d->m.rows, d->m.cols, d->m.ld, d->m.layout};
}

// The generic view of a CSR, CSC or COO descriptor (any value type).
inline sp::SparseRef generic_of(const trnsparseSpMatDescr* m) {
  sp::SparseRef r;
  if (m->format == TRNSPARSE_FORMAT_CSC) {
    const sp::CscView& v = m->csc;
    r = {sp::SparseRef::Format::csc, v.rows, v.cols, v.nnz, v.offsets, v.row_ind, v.values, v.offsets_type, v.row_ind_type};
  } else if (m->format == TRNSPARSE_FORMAT_COO) {
    const sp::CooView& v = m->coo;
    r = {sp::SparseRef::Format::coo, v.rows, v.cols, v.nnz, v.row_ind, v.col_ind, v.values, v.index_type, v.index_type};
  } else {
    const sp::CsrView& v = m->csr;
    r = {sp::SparseRef::Format::csr, v.rows, v.cols, v.nnz, v.offsets, v.columns, v.values, v.offsets_type, v.columns_type};
  }
  r.base = index_base(m->base);
  r.value = generic_value(m->value_type);
  return r;
}
inline sp::DenseAny dense_any(const trnsparseDnMatDescr* d) {
  return {d->m.data, generic_value(d->value_type), d->m.rows, d->m.cols, d->m.ld, d->m.layout};
}
inline bool generic_format(int f) {
  return f == TRNSPARSE_FORMAT_CSR || f == TRNSPARSE_FORMAT_CSC || f == TRNSPARSE_FORMAT_COO;
}

// Bytes of one value of a trnDataType_t (the value types descriptors accept).
inline std::size_t value_type_bytes(int vt) {
  switch (vt) {
    case TRN_R_16F:
    case TRN_R_16BF: return 2;
    case TRN_R_32F: return 4;
    case TRN_R_64F:
    case TRN_C_32F: return 8;
    default: return 16;
  }
}
inline const void* shifted(const void* p, std::int64_t elements, std::size_t bytes) {
  return p == nullptr ? nullptr : static_cast<const std::byte*>(p) + elements * static_cast<std::int64_t>(bytes);
}
inline std::size_t index_bytes_of(sp::IndexType t) { return t == sp::IndexType::i32 ? 4 : 8; }

// Batch b of a strided-batch CSR / COO / BSR descriptor (Csr/Coo/BsrSetStridedBatch), as an
// unregistered copy whose arrays start at the batch (b = 0, or batchCount 1: the descriptor itself).
inline trnsparseSpMatDescr batch_of(const trnsparseSpMatDescr* m, int b) {
  trnsparseSpMatDescr r = *m;
  if (m->batch_count == 1 || b == 0) return r;
  const std::size_t vb = value_type_bytes(m->value_type);
  const std::int64_t os = m->offsets_stride * b, vs = m->values_stride * b;
  if (m->format == TRNSPARSE_FORMAT_BSR) {
    r.bsr.offsets = shifted(m->bsr.offsets, os, index_bytes_of(m->bsr.offsets_type));
    r.bsr.columns = shifted(m->bsr.columns, m->columns_stride * b, index_bytes_of(m->bsr.columns_type));
    r.bsr.values = const_cast<void*>(shifted(m->bsr.values, vs, vb));
  } else if (m->format == TRNSPARSE_FORMAT_COO) {
    r.coo.row_ind = shifted(m->coo.row_ind, vs, index_bytes_of(m->coo.index_type));
    r.coo.col_ind = shifted(m->coo.col_ind, vs, index_bytes_of(m->coo.index_type));
    r.coo.values = const_cast<void*>(shifted(m->coo.values, vs, vb));
  } else {
    r.csr.offsets = r.csc.offsets = shifted(m->csr.offsets, os, index_bytes_of(m->csr.offsets_type));
    r.csr.columns = r.csc.row_ind = shifted(m->csr.columns, vs, index_bytes_of(m->csr.columns_type));
    r.csr.values = r.csc.values = const_cast<void*>(shifted(m->csr.values, vs, vb));
  }
  return r;
}
// Batch b of a strided-batch dense matrix (DnMatSetStridedBatch); batchCount 1 broadcasts.
inline trnsparseDnMatDescr batch_of(const trnsparseDnMatDescr* d, int b) {
  trnsparseDnMatDescr r = *d;
  if (d->batch_count > 1) r.m.data = const_cast<void*>(shifted(d->m.data, d->batch_stride * b, value_type_bytes(d->value_type)));
  return r;
}

// The end of every CreateX: the value type recorded (`tile_type`: the view's tile dtype, a placeholder
// for wide types), base and constness set, the descriptor registered and returned in *d.
inline trnsparseStatus_t publish_spmat(trnsparseSpMatDescr* m, trnsparseSpMatDescr_t* d, trn::DType* tile_type, int vt, int base,
                                       bool is_const) {
  m->wide = !value_dtype(vt, tile_type);
  m->value_type = vt;
  m->base = base;
  m->is_const = is_const;
  g_spmats.insert(m);
  *d = m;
  return TRNSPARSE_STATUS_SUCCESS;
}

inline void store_profile(trnsparseHandle_t h, const sp::CallReport& r) { h->last_profile = r.profile.to_c(); }

constexpr size_t kBufferBytes = 256;  // never used: SBUF/PSUM belong to the emulator

// Runs a C++ call whose own validation may throw InvalidArgument: the named array becomes the
// parameter position of the log line; anything else is mapped by `guarded`.
template <class F>
trnsparseStatus_t run(trnsparseHandle_t h, const char* fn, std::initializer_list<std::pair<const char*, int>> positions,
                      F&& body) {
  int bad = 0;
  std::string item, why;
  const trnsparseStatus_t st = trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    try {
      body();
    } catch (const sp::InvalidArgument& e) {
      item = e.item();
      why = e.what();
      bad = -1;
      for (const auto& [name, pos] : positions)
        if (item == name) bad = pos;
    }
  });
  if (bad == 0) return st;
  g_log.log(why);
  if (bad > 0) {
    g_log.log(trn::cshim::illegal_value_message(fn, bad, item));
    h->last_error_param = bad;
  }
  return TRNSPARSE_STATUS_INVALID_VALUE;
}

// ---- the legacy BSR argument chains (bsrmv, bsrmm; every value type), positions as cuSPARSE's ----
// transA / transB: N or T (the relaxed limit; strict mode: cuSPARSE's N only), C too for complex.
struct BsrmvArgs {
  int dir, ta, mb, nb, nnzb, block;
  const void *alpha, *beta;
  const trnsparseMatDescr* descr;
  const void* val;
  const int *row, *col;
  const void *x, *y;
};
inline Check& bsr_operand_checks(Check& c, const trnsparseMatDescr* descr, const void* val, const int* row, const int* col,
                                 int nnzb, int block, bool strict, int pos_val, const char* block_name) {
  if (!c) return c;
  c.require_or(descr->type == TRNSPARSE_MATRIX_TYPE_GENERAL, TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED", "only TRNSPARSE_MATRIX_TYPE_GENERAL");
  c.require(val != nullptr || nnzb == 0, pos_val, "bsrSortedValA").not_null(row, pos_val + 1, "bsrSortedRowPtrA");
  return c.require(col != nullptr || nnzb == 0, pos_val + 2, "bsrSortedColIndA").require(block >= (strict ? 2 : 1), pos_val + 3, block_name);
}
inline Check& bsrmv_checks(Check& c, bool strict, const BsrmvArgs& a, bool complex) {
  c.one_of(a.dir, {0, 1}, 1, "dirA").one_of(a.ta, {0, 1, complex ? 2 : 1}, 2, "transA").nonnegative(a.mb, 3, "mb").nonnegative(a.nb, 4, "nb");
  c.require(!strict || a.ta == 0, 2, "transA");
  c.nonnegative(a.nnzb, 5, "nnzb").not_null(a.alpha, 6, "alpha").require(g_mat_descrs.contains(a.descr), 7, "descrA");
  bsr_operand_checks(c, a.descr, a.val, a.row, a.col, a.nnzb, a.block, strict, 8, "blockDim");
  const std::int64_t len_x = std::int64_t{a.ta == 0 ? a.nb : a.mb} * a.block, len_y = std::int64_t{a.ta == 0 ? a.mb : a.nb} * a.block;
  return c.require(a.x != nullptr || len_x == 0, 12, "x").not_null(a.beta, 13, "beta").require(a.y != nullptr || len_y == 0, 14, "y");
}
struct BsrmmArgs {
  int dir, ta, tb, mb, n, kb, nnzb, block, ldb, ldc;
  const void *alpha, *beta;
  const trnsparseMatDescr* descr;
  const void* val;
  const int *row, *col;
  const void *B, *C;
};
inline Check& bsrmm_checks(Check& c, bool strict, const BsrmmArgs& a, bool complex) {
  c.one_of(a.dir, {0, 1}, 1, "dirA").one_of(a.ta, {0, 1, complex ? 2 : 1}, 2, "transA").one_of(a.tb, {0, 1, complex ? 2 : 1}, 3, "transB");
  c.require(!strict || a.ta == 0, 2, "transA");  // cuSPARSE: NON_TRANSPOSE only
  c.nonnegative(a.mb, 4, "mb").nonnegative(a.n, 5, "n").nonnegative(a.kb, 6, "kb").nonnegative(a.nnzb, 7, "nnzb");
  c.not_null(a.alpha, 8, "alpha").require(g_mat_descrs.contains(a.descr), 9, "descrA");
  bsr_operand_checks(c, a.descr, a.val, a.row, a.col, a.nnzb, a.block, strict, 10, "blockSize");
  if (!c) return c;
  const std::int64_t rows_c = std::int64_t{a.ta == 0 ? a.mb : a.kb} * a.block, k = std::int64_t{a.ta == 0 ? a.kb : a.mb} * a.block;
  c.require(a.B != nullptr || k == 0 || a.n == 0, 14, "B").leading_dim(a.ldb, a.tb == 0 ? k : a.n, 15, "ldb");
  return c.not_null(a.beta, 16, "beta").require(a.C != nullptr || rows_c == 0 || a.n == 0, 17, "C").leading_dim(a.ldc, rows_c, 18, "ldc");
}

// A format conversion that runs on the host CPU alone (index work, no engine kernel: csr2bsr,
// bsr2csr, csr2csc): body under run(); on success the call's profile is that one host round trip
// (docs/cost-model.md section 7: the arrays read there, the ones written back, one declared index
// operation per stored element).
// An element count for a host step's span from sizes a caller passed (a product that cannot overflow:
// computed in double, clamped to [0, 1e15]).
inline std::int64_t span_count(double count) { return count > 0 ? static_cast<std::int64_t>(std::min(count, 1e15)) : 0; }
// The handle's last profile: that one host round trip.
inline void set_host_profile(trnsparseHandle_t h, const trn::HostStep& step) {
  trn::Trace t;
  trn::record_host_step(t, step);
  h->last_profile = trn::model_trace(t, trn::ReportSettings{h->settings.target}).to_c();
}
template <class F>
trnsparseStatus_t run_on_host(trnsparseHandle_t h, const char* fn, std::initializer_list<std::pair<const char*, int>> positions,
                              const trn::HostStep& step, F&& body) {
  const trnsparseStatus_t st = run(h, fn, positions, std::forward<F>(body));
  if (st == TRNSPARSE_STATUS_SUCCESS) set_host_profile(h, step);
  return st;
}

// A legacy bsrmm entry point (S, D): the handle, bsrmm_checks, then body(rows of C, inner dimension k)
// under run() (the BSR arrays' positions 11, 7, 12 for what the C++ call rejects).
template <class Body>
trnsparseStatus_t legacy_bsrmm(trnsparseHandle_t h, const char* fn, const BsrmmArgs& a, Body&& body) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!bsrmm_checks(c, h->strict, a, false)) return c.status();
  const std::int64_t rows_c = std::int64_t{a.ta == 0 ? a.mb : a.kb} * a.block, k = std::int64_t{a.ta == 0 ? a.kb : a.mb} * a.block;
  return run(h, fn, {{"offsets", 11}, {"nnz", 7}, {"columns", 12}}, [&] { body(rows_c, k); });
}

}  // namespace trn::sparse::capi
