// trnsparse.h: the C shim, written with the C-shim kit (core/include/trn/core/c_shim.hpp). Every
// entry point: handle check, ArgCheck chain in signature order (1-based positions, handle not
// counted), then the C++ API inside `guarded`. Index arrays are validated before anything is
// written, so a failing call leaves every output untouched.
#include "trnsparse.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <string>

#include "trn/core/c_shim.hpp"
#include "trn/sparse/sparse.hpp"

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
  int value_type = TRN_R_32F;  // as created (BlockedEllGet returns it)
  int base = 0;
  int fill = TRNSPARSE_FILL_MODE_LOWER;
  int diag = TRNSPARSE_DIAG_TYPE_NON_UNIT;
  bool is_const = false;
  bool fp64 = false;  // TRN_R_64F values: descriptors accept them, compute calls return NOT_SUPPORTED
};

struct trnsparseSpGEMMDescr {
  sp::OwnedBsr result;  // pattern after workEstimation, values after compute
  int phase = 0;        // 0 created, 1 estimated, 2 computed
};

struct trnsparseDnMatDescr {
  sp::MutableDenseRef m;
  bool is_const = false;
  bool fp64 = false;
};

struct trnsparseDnVecDescr {
  void* values = nullptr;
  std::int64_t size = 0;
  trn::DType dtype = trn::DType::f32;
  bool is_const = false;
  bool fp64 = false;
};

namespace {

trn::cshim::Logger g_log("TRNSPARSE");
trn::cshim::HandleRegistry<trnsparseContext> g_handles;
trn::cshim::HandleRegistry<trnsparseMatDescr> g_mat_descrs;
trn::cshim::HandleRegistry<trnsparseSpMatDescr> g_spmats;
trn::cshim::HandleRegistry<trnsparseDnMatDescr> g_dnmats;
trn::cshim::HandleRegistry<trnsparseDnVecDescr> g_dnvecs;
trn::cshim::HandleRegistry<trnsparseSpGEMMDescr> g_spgemms;


const char* status_name(trnsparseStatus_t s) { return trnsparseGetErrorName(s); }
const trn::cshim::StatusMap<trnsparseStatus_t> kStatusMap{
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
bool value_dtype(int c, trn::DType* out) {
  switch (c) {
    case TRN_R_32F: *out = trn::DType::f32; return true;
    case TRN_R_16BF: *out = trn::DType::bf16; return true;
    case TRN_R_16F: *out = trn::DType::f16; return true;
    default: return false;
  }
}
bool is_known_value_type(int c) { return c == TRN_R_32F || c == TRN_R_16BF || c == TRN_R_16F || c == TRN_R_64F; }
sp::IndexType index_type(int c) { return c == TRNSPARSE_INDEX_64I ? sp::IndexType::i64 : sp::IndexType::i32; }
sp::Op op_of(int c) { return c == TRNSPARSE_OPERATION_NON_TRANSPOSE ? sp::Op::N : sp::Op::T; }

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
std::int64_t sp_rows_of(const sp::BsrView& v) { return v.rows(); }
std::int64_t sp_cols_of(const sp::BsrView& v) { return v.cols(); }
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
    default: return f(m->coo);
  }
}

Check& check_sparse(Check& c, const trnsparseSpMatDescr* m, int pos, const char* name) {
  if (!c) return c;
  std::string why;
  const bool ok = visit(m, [&](const auto& v) { return indices_ok(v, &why); });
  if (!ok) g_log.log(why);
  return c.require(ok, pos, name);
}

std::int64_t sp_rows(const trnsparseSpMatDescr* m) {
  return visit(m, [](const auto& v) { return sp_rows_of(v); });
}
std::int64_t sp_cols(const trnsparseSpMatDescr* m) {
  return visit(m, [](const auto& v) { return sp_cols_of(v); });
}
void*& sp_values(trnsparseSpMatDescr* m) {
  return visit(m, [](auto& v) -> void*& { return v.values; });
}
sp::DenseRef dense_of(const trnsparseDnMatDescr* d) {
  return {d->m.data, d->m.dtype, d->m.rows, d->m.cols, d->m.ld, d->m.layout};
}

void store_profile(trnsparseHandle_t h, const sp::CallReport& r) { h->last_profile = r.profile.to_c(); }

// SpMM argument chain shared by _bufferSize, _preprocess and the call.
Check& spmm_checks(Check& c, trnsparseHandle_t h, int opA, int opB, const void* alpha, const trnsparseSpMatDescr* A,
                   const trnsparseDnMatDescr* B, const void* beta, const trnsparseDnMatDescr* C, int computeType, int alg) {
  c.one_of(opA, {0, 1, 2}, 1, "opA").one_of(opB, {0, 1, 2}, 2, "opB").not_null(alpha, 3, "alpha");
  c.require(!h->strict || opA != 2, 1, "opA").require(!h->strict || opB != 2, 2, "opB");
  c.require(g_spmats.contains(A), 4, "matA").require(g_dnmats.contains(B), 5, "matB").not_null(beta, 6, "beta");
  c.require(g_dnmats.contains(C) && !C->is_const, 7, "matC");
  c.one_of(computeType, {TRN_R_32F, TRN_R_64F}, 8, "computeType").one_of(alg, {0, 1, 2, 3, 4, 5, 6, 12, 13, 14}, 9, "alg");
  if (!c) return c;
  c.require_or(computeType == TRN_R_32F && !A->fp64 && !B->fp64 && !C->fp64, TRNSPARSE_STATUS_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_NOT_SUPPORTED", "fp64 values or compute: no fp64 tile path (no NeuronCore engine computes in fp64)");
  const std::int64_t M = opA == 0 ? sp_rows(A) : sp_cols(A), K = opA == 0 ? sp_cols(A) : sp_rows(A);
  const std::int64_t n = C->m.cols;
  c.require(opB == 0 ? (B->m.rows == K && B->m.cols == n) : (B->m.rows == n && B->m.cols == K), 5, "matB");
  c.require(C->m.rows == M, 7, "matC");
  return check_sparse(c, A, 4, "matA");
}

}  // namespace

// ---- handle, errors, streams -------------------------------------------------------------------

extern "C" {

trnsparseStatus_t trnsparseCreate(trnsparseHandle_t* handle) { return Surface::create(handle); }

trnsparseStatus_t trnsparseDestroy(trnsparseHandle_t handle) { return Surface::destroy(handle); }

trnsparseStatus_t trnsparseGetVersion(trnsparseHandle_t handle, int* version) {
  return Surface::get(handle, "trnsparseGetVersion", version, "version",
                      [](const trnsparseContext&) { return TRNSPARSE_VERSION; });
}

const char* trnsparseGetErrorName(trnsparseStatus_t status) {
  switch (enum_value(status)) {
    case 0: return "TRNSPARSE_STATUS_SUCCESS";
    case 1: return "TRNSPARSE_STATUS_NOT_INITIALIZED";
    case 2: return "TRNSPARSE_STATUS_ALLOC_FAILED";
    case 3: return "TRNSPARSE_STATUS_INVALID_VALUE";
    case 4: return "TRNSPARSE_STATUS_ARCH_MISMATCH";
    case 5: return "TRNSPARSE_STATUS_MAPPING_ERROR";
    case 6: return "TRNSPARSE_STATUS_EXECUTION_FAILED";
    case 7: return "TRNSPARSE_STATUS_INTERNAL_ERROR";
    case 8: return "TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case 9: return "TRNSPARSE_STATUS_ZERO_PIVOT";
    case 10: return "TRNSPARSE_STATUS_NOT_SUPPORTED";
    case 11: return "TRNSPARSE_STATUS_INSUFFICIENT_RESOURCES";
    default: return "TRNSPARSE_STATUS_UNKNOWN";
  }
}

const char* trnsparseGetErrorString(trnsparseStatus_t status) {
  switch (enum_value(status)) {
    case 0: return "success";
    case 1: return "handle not initialized (NULL, destroyed or foreign)";
    case 2: return "host memory allocation failed";
    case 3: return "invalid value for an argument or index array";
    case 4: return "architecture mismatch (never returned)";
    case 5: return "mapping error (never returned)";
    case 6: return "execution failed on the emulated NeuronCore";
    case 7: return "internal error";
    case 8: return "matrix type not supported";
    case 9: return "zero pivot";
    case 10: return "operation or data type not supported";
    case 11: return "insufficient resources";
    default: return "unknown status";
  }
}

trnsparseStatus_t trnsparseSetStream(trnsparseHandle_t handle, trnStream_t streamId) {
  return Surface::set(handle, [&](trnsparseContext& c) { c.stream = streamId; });
}

trnsparseStatus_t trnsparseGetStream(trnsparseHandle_t handle, trnStream_t* streamId) {
  return Surface::get(handle, "trnsparseGetStream", streamId, "streamId", [](const trnsparseContext& c) { return c.stream; });
}

trnsparseStatus_t trnsparseGetPointerMode(trnsparseHandle_t handle, trnsparsePointerMode_t* mode) {
  return Surface::get(handle, "trnsparseGetPointerMode", mode, "mode",
                      [](const trnsparseContext& c) { return static_cast<trnsparsePointerMode_t>(c.pointer_mode); });
}

trnsparseStatus_t trnsparseSetPointerMode(trnsparseHandle_t handle, trnsparsePointerMode_t mode) {
  const int v = enum_value(mode);
  // host memory either way: both modes behave the same
  return Surface::set_one_of(handle, "trnsparseSetPointerMode", v, {0, 1}, "mode",
                             [&](trnsparseContext& c) { c.pointer_mode = v; });
}

trnsparseStatus_t trnsparseSetStrictMode(trnsparseHandle_t handle, int enable) {
  return Surface::set(handle, [&](trnsparseContext& c) { c.strict = enable != 0; });
}

trnsparseStatus_t trnsparseGetStrictMode(trnsparseHandle_t handle, int* enable) {
  return Surface::get(handle, "trnsparseGetStrictMode", enable, "enable",
                      [](const trnsparseContext& c) { return c.strict ? 1 : 0; });
}


// ---- logging: the cuSPARSE family on the kit's logger ---------------------------------------------

trnsparseStatus_t trnsparseLoggerSetFile(FILE* file) {
  g_log.set_stream(file);
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseLoggerOpenFile(const char* logFile) {
  if (logFile == nullptr || logFile[0] == '\0') return TRNSPARSE_STATUS_INVALID_VALUE;
  g_log.configure(true, false, false, logFile);
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseLoggerSetLevel(int level) {
  if (level < 0 || level > 5) return TRNSPARSE_STATUS_INVALID_VALUE;
  g_log.set_level(level);
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseLoggerSetMask(int mask) {
  if (mask < 0) return TRNSPARSE_STATUS_INVALID_VALUE;
  g_log.set_mask(mask);
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseLoggerForceDisable(void) {
  g_log.force_disable();
  return TRNSPARSE_STATUS_SUCCESS;
}

TRN_CSHIM_EMULATION_ENTRY_POINTS(trnsparse, trnsparse, Surface)

}  // extern "C"

namespace {

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

trnsparseStatus_t create_bsr(trnsparseSpMatDescr_t* d, int64_t brows, int64_t bcols, int64_t bnnz, int64_t rb, int64_t cb,
                             const void* off, const void* col, const void* val, int ot, int ct, int base, int vt, int order,
                             bool is_const, const char* fn) {
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  c.not_null(d, 1, "spMatDescr").nonnegative(brows, 2, "brows").nonnegative(bcols, 3, "bcols").nonnegative(bnnz, 4, "bnnz");
  c.require(rb >= 1, 5, "rowBlockSize").require(cb >= 1, 6, "colBlockSize");
  c.require(trn::cshim::checked_mul(brows, rb) >= 0 && trn::cshim::checked_mul(bcols, cb) >= 0 &&
                trn::cshim::checked_mul(trn::cshim::checked_mul(rb, cb), std::max<int64_t>(bnnz, 1)) >= 0,
            5, "rowBlockSize");
  // Arrays may be NULL at creation (an SpGEMM output gets them later via BsrSetPointers); compute
  // calls validate them.
  (void)off;
  c.require(col != nullptr || bnnz == 0, 8, "bsrColInd").require(val != nullptr || bnnz == 0, 9, "bsrValues");
  c.one_of(ot, {TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I}, 10, "bsrRowOffsetsType");
  c.one_of(ct, {TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I}, 11, "bsrColIndType").one_of(base, {0, 1}, 12, "idxBase");
  c.require(is_known_value_type(vt), 13, "valueType").one_of(order, {TRNSPARSE_ORDER_COL, TRNSPARSE_ORDER_ROW}, 14, "order");
  if (!c) return c.status();
  auto* m = new (std::nothrow) trnsparseSpMatDescr;
  if (m == nullptr) return TRNSPARSE_STATUS_ALLOC_FAILED;
  m->format = TRNSPARSE_FORMAT_BSR;
  m->bsr = sp::BsrView{brows, bcols, bnnz, rb, cb, off, col, const_cast<void*>(val), index_type(ot), index_type(ct),
                       base == 1 ? sp::IndexBase::one : sp::IndexBase::zero, trn::DType::f32,
                       order == TRNSPARSE_ORDER_ROW ? sp::BlockOrder::row : sp::BlockOrder::col};
  m->fp64 = !value_dtype(vt, &m->bsr.value_type);
  m->value_type = vt;
  m->base = base;
  m->is_const = is_const;
  g_spmats.insert(m);
  *d = m;
  return TRNSPARSE_STATUS_SUCCESS;
}

// CSR, or CSC (csc: offsets per column, row indices; the same argument positions).
trnsparseStatus_t create_csr(trnsparseSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz, const void* off,
                             const void* col, const void* val, int ot, int ct, int base, int vt, bool is_const,
                             const char* fn, bool csc = false) {
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  c.not_null(d, 1, "spMatDescr").nonnegative(rows, 2, "rows").nonnegative(cols, 3, "cols").nonnegative(nnz, 4, "nnz");
  c.require(off != nullptr || (csc ? cols : rows) == 0, 5, csc ? "cscColOffsets" : "csrRowOffsets");
  c.require(col != nullptr || nnz == 0, 6, csc ? "cscRowInd" : "csrColInd");
  c.require(val != nullptr || nnz == 0, 7, csc ? "cscValues" : "csrValues");
  c.one_of(ot, {TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I}, 8, csc ? "cscColOffsetsType" : "csrRowOffsetsType");
  c.one_of(ct, {TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I}, 9, csc ? "cscRowIndType" : "csrColIndType");
  c.one_of(base, {0, 1}, 10, "idxBase").require(is_known_value_type(vt), 11, "valueType");
  if (!c) return c.status();
  auto* m = new (std::nothrow) trnsparseSpMatDescr;
  if (m == nullptr) return TRNSPARSE_STATUS_ALLOC_FAILED;
  const sp::IndexBase b = base == 1 ? sp::IndexBase::one : sp::IndexBase::zero;
  m->format = csc ? TRNSPARSE_FORMAT_CSC : TRNSPARSE_FORMAT_CSR;
  m->csr = sp::CsrView{rows, cols, nnz, off, col, const_cast<void*>(val), index_type(ot), index_type(ct), b, trn::DType::f32};
  m->fp64 = !value_dtype(vt, &m->csr.value_type);
  m->csc = sp::CscView{rows, cols, nnz, off, col, const_cast<void*>(val), index_type(ot), index_type(ct), b, m->csr.value_type};
  m->value_type = vt;
  m->base = base;
  m->is_const = is_const;
  g_spmats.insert(m);
  *d = m;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t create_ell(trnsparseSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t bs, int64_t ell_cols,
                             const void* ci, const void* val, int it, int base, int vt, bool is_const, const char* fn) {
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  c.not_null(d, 1, "spMatDescr").nonnegative(rows, 2, "rows").nonnegative(cols, 3, "cols");
  c.require(bs >= 1 && rows % std::max<int64_t>(bs, 1) == 0 && cols % std::max<int64_t>(bs, 1) == 0, 4, "ellBlockSize");
  c.require(ell_cols >= 0 && ell_cols <= cols && ell_cols % std::max<int64_t>(bs, 1) == 0 &&
                trn::cshim::checked_mul(rows, ell_cols) >= 0,
            5, "ellCols");
  const bool stored = rows > 0 && ell_cols > 0;
  c.require(ci != nullptr || !stored, 6, "ellColInd").require(val != nullptr || !stored, 7, "ellValue");
  c.one_of(it, {TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I}, 8, "ellIdxType").one_of(base, {0, 1}, 9, "idxBase");
  c.require(is_known_value_type(vt), 10, "valueType");
  if (!c) return c.status();
  auto* m = new (std::nothrow) trnsparseSpMatDescr;
  if (m == nullptr) return TRNSPARSE_STATUS_ALLOC_FAILED;
  m->format = TRNSPARSE_FORMAT_BLOCKED_ELL;
  m->ell = sp::BlockedEllView{rows, cols, bs, ell_cols, ci, const_cast<void*>(val), index_type(it),
                              base == 1 ? sp::IndexBase::one : sp::IndexBase::zero, trn::DType::f32};
  m->fp64 = !value_dtype(vt, &m->ell.value_type);
  m->value_type = vt;
  m->base = base;
  m->is_const = is_const;
  g_spmats.insert(m);
  *d = m;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t create_coo(trnsparseSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz, const void* ri,
                             const void* ci, const void* val, int it, int base, int vt, bool is_const, const char* fn) {
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  c.not_null(d, 1, "spMatDescr").nonnegative(rows, 2, "rows").nonnegative(cols, 3, "cols").nonnegative(nnz, 4, "nnz");
  c.require(ri != nullptr || nnz == 0, 5, "cooRowInd").require(ci != nullptr || nnz == 0, 6, "cooColInd");
  c.require(val != nullptr || nnz == 0, 7, "cooValues").one_of(it, {TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I}, 8, "cooIdxType");
  c.one_of(base, {0, 1}, 9, "idxBase").require(is_known_value_type(vt), 10, "valueType");
  if (!c) return c.status();
  auto* m = new (std::nothrow) trnsparseSpMatDescr;
  if (m == nullptr) return TRNSPARSE_STATUS_ALLOC_FAILED;
  m->format = TRNSPARSE_FORMAT_COO;
  m->coo = sp::CooView{rows, cols, nnz, ri, ci, const_cast<void*>(val), index_type(it),
                       base == 1 ? sp::IndexBase::one : sp::IndexBase::zero, trn::DType::f32};
  m->fp64 = !value_dtype(vt, &m->coo.value_type);
  m->value_type = vt;
  m->base = base;
  m->is_const = is_const;
  g_spmats.insert(m);
  *d = m;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t create_dnmat(trnsparseDnMatDescr_t* d, int64_t rows, int64_t cols, int64_t ld, const void* values,
                               int vt, int order, bool is_const, const char* fn) {
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  c.not_null(d, 1, "dnMatDescr").nonnegative(rows, 2, "rows").nonnegative(cols, 3, "cols");
  c.one_of(order, {TRNSPARSE_ORDER_COL, TRNSPARSE_ORDER_ROW}, 7, "order");
  if (!c) return c.status();
  const int64_t inner = order == TRNSPARSE_ORDER_COL ? rows : cols, outer = order == TRNSPARSE_ORDER_COL ? cols : rows;
  c.leading_dim(ld, inner, 4, "ld").require(outer == 0 || trn::cshim::checked_mul(ld, outer) >= 0, 4, "ld");
  c.require(values != nullptr || rows == 0 || cols == 0, 5, "values").require(is_known_value_type(vt), 6, "valueType");
  if (!c) return c.status();
  auto* m = new (std::nothrow) trnsparseDnMatDescr;
  if (m == nullptr) return TRNSPARSE_STATUS_ALLOC_FAILED;
  m->m = sp::MutableDenseRef{const_cast<void*>(values), trn::DType::f32, rows, cols, ld,
                             order == TRNSPARSE_ORDER_COL ? sp::Layout::col_major : sp::Layout::row_major};
  m->fp64 = !value_dtype(vt, &m->m.dtype);
  m->is_const = is_const;
  g_dnmats.insert(m);
  *d = m;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t create_dnvec(trnsparseDnVecDescr_t* d, int64_t size, const void* values, int vt, bool is_const,
                               const char* fn) {
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  c.not_null(d, 1, "dnVecDescr").nonnegative(size, 2, "size").require(values != nullptr || size == 0, 3, "values");
  c.require(is_known_value_type(vt), 4, "valueType");
  if (!c) return c.status();
  auto* v = new (std::nothrow) trnsparseDnVecDescr;
  if (v == nullptr) return TRNSPARSE_STATUS_ALLOC_FAILED;
  v->values = const_cast<void*>(values);
  v->size = size;
  v->fp64 = !value_dtype(vt, &v->dtype);
  v->is_const = is_const;
  g_dnvecs.insert(v);
  *d = v;
  return TRNSPARSE_STATUS_SUCCESS;
}

Check& spmv_checks(Check& c, bool strict, int opA, const void* alpha, const trnsparseSpMatDescr* A, const trnsparseDnVecDescr* x,
                   const void* beta, const trnsparseDnVecDescr* y, int computeType, int alg) {
  c.one_of(opA, {0, 1, 2}, 1, "opA").require(!strict || opA != 2, 1, "opA").not_null(alpha, 2, "alpha");
  c.require(g_spmats.contains(A), 3, "matA");
  c.require(g_dnvecs.contains(x), 4, "vecX").not_null(beta, 5, "beta").require(g_dnvecs.contains(y) && !y->is_const, 6, "vecY");
  c.one_of(computeType, {TRN_R_32F, TRN_R_64F}, 7, "computeType").one_of(alg, {0, 1, 2, 3, 4, 5, 6}, 8, "alg");
  if (!c) return c;
  c.require_or(computeType == TRN_R_32F && !A->fp64 && !x->fp64 && !y->fp64, TRNSPARSE_STATUS_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_NOT_SUPPORTED", "fp64 values or compute: no fp64 tile path");
  const std::int64_t M = opA == 0 ? sp_rows(A) : sp_cols(A), K = opA == 0 ? sp_cols(A) : sp_rows(A);
  c.require(x->size == K, 4, "vecX").require(y->size == M, 6, "vecY");
  return check_sparse(c, A, 3, "matA");
}

Check& sddmm_checks(Check& c, bool strict, int opA, int opB, const void* alpha, const trnsparseDnMatDescr* A,
                    const trnsparseDnMatDescr* B, const void* beta, const trnsparseSpMatDescr* C, int computeType, int alg) {
  c.one_of(opA, {0, 1, 2}, 1, "opA").one_of(opB, {0, 1, 2}, 2, "opB").not_null(alpha, 3, "alpha");
  c.require(!strict || opA != 2, 1, "opA").require(!strict || opB != 2, 2, "opB");
  c.require(g_dnmats.contains(A), 4, "matA").require(g_dnmats.contains(B), 5, "matB").not_null(beta, 6, "beta");
  c.require(g_spmats.contains(C) && !C->is_const, 7, "matC");
  c.one_of(computeType, {TRN_R_32F, TRN_R_64F}, 8, "computeType").one_of(alg, {0}, 9, "alg");
  if (!c) return c;
  c.require_or(computeType == TRN_R_32F && !A->fp64 && !B->fp64 && !C->fp64, TRNSPARSE_STATUS_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_NOT_SUPPORTED", "fp64 values or compute: no fp64 tile path");
  c.require_or(C->format == TRNSPARSE_FORMAT_BSR || C->format == TRNSPARSE_FORMAT_CSR, TRNSPARSE_STATUS_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_NOT_SUPPORTED", "SDDMM output patterns are CSR or BSR (as cuSPARSE)");
  const std::int64_t M = sp_rows(C), N = sp_cols(C), K = opA == 0 ? A->m.cols : A->m.rows;
  c.require(opA == 0 ? A->m.rows == M : A->m.cols == M, 4, "matA");
  c.require(opB == 0 ? (B->m.rows == K && B->m.cols == N) : (B->m.rows == N && B->m.cols == K), 5, "matB");
  return check_sparse(c, C, 7, "matC");
}

// The legacy matrix descriptor's fields: a setter accepts the enum values 0..max (cuSPARSE's), a getter
// of an unknown descriptor returns 0.
trnsparseStatus_t set_mat_field(trnsparseMatDescr_t d, int trnsparseMatDescr::*field, int value, int max) {
  if (!g_mat_descrs.contains(d) || value < 0 || value > max) return TRNSPARSE_STATUS_INVALID_VALUE;
  d->*field = value;
  return TRNSPARSE_STATUS_SUCCESS;
}
template <class Enum>
Enum get_mat_field(const trnsparseMatDescr* d, int trnsparseMatDescr::*field) {
  return static_cast<Enum>(g_mat_descrs.contains(d) ? d->*field : 0);
}

sp::BsrView legacy_bsr(int dir, int mb, int nb, int nnzb, int bs, const trnsparseMatDescr* d, const float* val,
                       const int* row, const int* col) {
  return sp::BsrView{mb, nb, nnzb, bs, bs, row, col, const_cast<float*>(val), sp::IndexType::i32, sp::IndexType::i32,
                     d->base == 1 ? sp::IndexBase::one : sp::IndexBase::zero, trn::DType::f32,
                     dir == TRNSPARSE_DIRECTION_ROW ? sp::BlockOrder::row : sp::BlockOrder::col};
}

}  // namespace

extern "C" {

// ---- legacy matrix descriptor -------------------------------------------------------------------

trnsparseStatus_t trnsparseCreateMatDescr(trnsparseMatDescr_t* descrA) {
  if (descrA == nullptr) return TRNSPARSE_STATUS_INVALID_VALUE;
  auto* d = new (std::nothrow) trnsparseMatDescr;
  if (d == nullptr) return TRNSPARSE_STATUS_ALLOC_FAILED;
  g_mat_descrs.insert(d);
  *descrA = d;
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseDestroyMatDescr(trnsparseMatDescr_t descrA) {
  if (!g_mat_descrs.erase(descrA)) return TRNSPARSE_STATUS_INVALID_VALUE;
  delete descrA;
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseSetMatType(trnsparseMatDescr_t d, trnsparseMatrixType_t type) {
  return set_mat_field(d, &trnsparseMatDescr::type, enum_value(type), 3);
}
trnsparseMatrixType_t trnsparseGetMatType(const trnsparseMatDescr_t d) {
  return get_mat_field<trnsparseMatrixType_t>(d, &trnsparseMatDescr::type);
}
trnsparseStatus_t trnsparseSetMatFillMode(trnsparseMatDescr_t d, trnsparseFillMode_t fill) {
  return set_mat_field(d, &trnsparseMatDescr::fill, enum_value(fill), 1);
}
trnsparseFillMode_t trnsparseGetMatFillMode(const trnsparseMatDescr_t d) {
  return get_mat_field<trnsparseFillMode_t>(d, &trnsparseMatDescr::fill);
}
trnsparseStatus_t trnsparseSetMatDiagType(trnsparseMatDescr_t d, trnsparseDiagType_t diag) {
  return set_mat_field(d, &trnsparseMatDescr::diag, enum_value(diag), 1);
}
trnsparseDiagType_t trnsparseGetMatDiagType(const trnsparseMatDescr_t d) {
  return get_mat_field<trnsparseDiagType_t>(d, &trnsparseMatDescr::diag);
}
trnsparseStatus_t trnsparseSetMatIndexBase(trnsparseMatDescr_t d, trnsparseIndexBase_t base) {
  return set_mat_field(d, &trnsparseMatDescr::base, enum_value(base), 1);
}
trnsparseIndexBase_t trnsparseGetMatIndexBase(const trnsparseMatDescr_t d) {
  return get_mat_field<trnsparseIndexBase_t>(d, &trnsparseMatDescr::base);
}

// ---- generic descriptors ------------------------------------------------------------------------

trnsparseStatus_t trnsparseCreateBsr(trnsparseSpMatDescr_t* d, int64_t brows, int64_t bcols, int64_t bnnz, int64_t rb,
                                     int64_t cb, void* off, void* col, void* val, trnsparseIndexType_t ot,
                                     trnsparseIndexType_t ct, trnsparseIndexBase_t base, trnDataType_t vt,
                                     trnsparseOrder_t order) {
  return create_bsr(d, brows, bcols, bnnz, rb, cb, off, col, val, enum_value(ot), enum_value(ct), enum_value(base),
                    enum_value(vt), enum_value(order), false, "trnsparseCreateBsr");
}
trnsparseStatus_t trnsparseCreateConstBsr(trnsparseConstSpMatDescr_t* d, int64_t brows, int64_t bcols, int64_t bnnz,
                                          int64_t rb, int64_t cb, const void* off, const void* col, const void* val,
                                          trnsparseIndexType_t ot, trnsparseIndexType_t ct, trnsparseIndexBase_t base,
                                          trnDataType_t vt, trnsparseOrder_t order) {
  trnsparseSpMatDescr_t m = nullptr;
  const trnsparseStatus_t st = create_bsr(d != nullptr ? &m : nullptr, brows, bcols, bnnz, rb, cb, off, col, val,
                                          enum_value(ot), enum_value(ct), enum_value(base), enum_value(vt),
                                          enum_value(order), true, "trnsparseCreateConstBsr");
  if (st == TRNSPARSE_STATUS_SUCCESS) *d = m;
  return st;
}
trnsparseStatus_t trnsparseCreateCsr(trnsparseSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz, void* off,
                                     void* col, void* val, trnsparseIndexType_t ot, trnsparseIndexType_t ct,
                                     trnsparseIndexBase_t base, trnDataType_t vt) {
  return create_csr(d, rows, cols, nnz, off, col, val, enum_value(ot), enum_value(ct), enum_value(base), enum_value(vt),
                    false, "trnsparseCreateCsr");
}
trnsparseStatus_t trnsparseCreateConstCsr(trnsparseConstSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz,
                                          const void* off, const void* col, const void* val, trnsparseIndexType_t ot,
                                          trnsparseIndexType_t ct, trnsparseIndexBase_t base, trnDataType_t vt) {
  trnsparseSpMatDescr_t m = nullptr;
  const trnsparseStatus_t st = create_csr(d != nullptr ? &m : nullptr, rows, cols, nnz, off, col, val, enum_value(ot),
                                          enum_value(ct), enum_value(base), enum_value(vt), true, "trnsparseCreateConstCsr");
  if (st == TRNSPARSE_STATUS_SUCCESS) *d = m;
  return st;
}
trnsparseStatus_t trnsparseCreateCoo(trnsparseSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz, void* ri,
                                     void* ci, void* val, trnsparseIndexType_t it, trnsparseIndexBase_t base,
                                     trnDataType_t vt) {
  return create_coo(d, rows, cols, nnz, ri, ci, val, enum_value(it), enum_value(base), enum_value(vt), false,
                    "trnsparseCreateCoo");
}
trnsparseStatus_t trnsparseCreateConstCoo(trnsparseConstSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz,
                                          const void* ri, const void* ci, const void* val, trnsparseIndexType_t it,
                                          trnsparseIndexBase_t base, trnDataType_t vt) {
  trnsparseSpMatDescr_t m = nullptr;
  const trnsparseStatus_t st = create_coo(d != nullptr ? &m : nullptr, rows, cols, nnz, ri, ci, val, enum_value(it),
                                          enum_value(base), enum_value(vt), true, "trnsparseCreateConstCoo");
  if (st == TRNSPARSE_STATUS_SUCCESS) *d = m;
  return st;
}
trnsparseStatus_t trnsparseCreateCsc(trnsparseSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz, void* off,
                                     void* ind, void* val, trnsparseIndexType_t ot, trnsparseIndexType_t it,
                                     trnsparseIndexBase_t base, trnDataType_t vt) {
  return create_csr(d, rows, cols, nnz, off, ind, val, enum_value(ot), enum_value(it), enum_value(base), enum_value(vt),
                    false, "trnsparseCreateCsc", /*csc=*/true);
}
trnsparseStatus_t trnsparseCreateConstCsc(trnsparseConstSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz,
                                          const void* off, const void* ind, const void* val, trnsparseIndexType_t ot,
                                          trnsparseIndexType_t it, trnsparseIndexBase_t base, trnDataType_t vt) {
  trnsparseSpMatDescr_t m = nullptr;
  const trnsparseStatus_t st = create_csr(d != nullptr ? &m : nullptr, rows, cols, nnz, off, ind, val, enum_value(ot),
                                          enum_value(it), enum_value(base), enum_value(vt), true, "trnsparseCreateConstCsc",
                                          /*csc=*/true);
  if (st == TRNSPARSE_STATUS_SUCCESS) *d = m;
  return st;
}
trnsparseStatus_t trnsparseCreateBlockedEll(trnsparseSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t bs,
                                            int64_t ellCols, void* ci, void* val, trnsparseIndexType_t it,
                                            trnsparseIndexBase_t base, trnDataType_t vt) {
  return create_ell(d, rows, cols, bs, ellCols, ci, val, enum_value(it), enum_value(base), enum_value(vt), false,
                    "trnsparseCreateBlockedEll");
}
trnsparseStatus_t trnsparseCreateConstBlockedEll(trnsparseConstSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t bs,
                                                 int64_t ellCols, const void* ci, const void* val, trnsparseIndexType_t it,
                                                 trnsparseIndexBase_t base, trnDataType_t vt) {
  trnsparseSpMatDescr_t m = nullptr;
  const trnsparseStatus_t st = create_ell(d != nullptr ? &m : nullptr, rows, cols, bs, ellCols, ci, val, enum_value(it),
                                          enum_value(base), enum_value(vt), true, "trnsparseCreateConstBlockedEll");
  if (st == TRNSPARSE_STATUS_SUCCESS) *d = m;
  return st;
}
trnsparseStatus_t trnsparseConstBlockedEllGet(trnsparseConstSpMatDescr_t d, int64_t* rows, int64_t* cols, int64_t* bs,
                                              int64_t* ellCols, const void** ci, const void** val,
                                              trnsparseIndexType_t* it, trnsparseIndexBase_t* base, trnDataType_t* vt) {
  Check c(g_log, "trnsparseBlockedEllGet", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_spmats.contains(d) && d->format == TRNSPARSE_FORMAT_BLOCKED_ELL, 1, "spMatDescr");
  c.not_null(rows, 2, "rows").not_null(cols, 3, "cols").not_null(bs, 4, "ellBlockSize").not_null(ellCols, 5, "ellCols");
  c.not_null(ci, 6, "ellColInd").not_null(val, 7, "ellValue").not_null(it, 8, "ellIdxType").not_null(base, 9, "idxBase");
  if (!c.not_null(vt, 10, "valueType")) return c.status();
  const sp::BlockedEllView& e = d->ell;
  *rows = e.rows;
  *cols = e.cols;
  *bs = e.block;
  *ellCols = e.ell_cols;
  *ci = e.col_ind;
  *val = e.values;
  *it = e.index_type == sp::IndexType::i64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I;
  *base = static_cast<trnsparseIndexBase_t>(d->base);
  *vt = static_cast<trnDataType_t>(d->value_type);
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseBlockedEllGet(trnsparseSpMatDescr_t d, int64_t* rows, int64_t* cols, int64_t* bs,
                                         int64_t* ellCols, void** ci, void** val, trnsparseIndexType_t* it,
                                         trnsparseIndexBase_t* base, trnDataType_t* vt) {
  const void* cci = nullptr;
  const void* cval = nullptr;
  const trnsparseStatus_t st = trnsparseConstBlockedEllGet(d, rows, cols, bs, ellCols, ci != nullptr ? &cci : nullptr,
                                                           val != nullptr ? &cval : nullptr, it, base, vt);
  if (st == TRNSPARSE_STATUS_SUCCESS) {
    *ci = const_cast<void*>(cci);
    *val = const_cast<void*>(cval);
  }
  return st;
}
trnsparseStatus_t trnsparseDestroySpMat(trnsparseConstSpMatDescr_t d) {
  if (!g_spmats.erase(d)) return TRNSPARSE_STATUS_INVALID_VALUE;
  delete d;
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseSpMatGetSize(trnsparseConstSpMatDescr_t d, int64_t* rows, int64_t* cols, int64_t* nnz) {
  Check c(g_log, "trnsparseSpMatGetSize", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_spmats.contains(d), 1, "spMatDescr").not_null(rows, 2, "rows").not_null(cols, 3, "cols").not_null(nnz, 4, "nnz");
  if (!c) return c.status();
  *rows = sp_rows(d);
  *cols = sp_cols(d);
  switch (d->format) {
    case TRNSPARSE_FORMAT_BSR: *nnz = d->bsr.bnnz; break;  // blocks
    case TRNSPARSE_FORMAT_CSR: *nnz = d->csr.nnz; break;
    case TRNSPARSE_FORMAT_CSC: *nnz = d->csc.nnz; break;
    case TRNSPARSE_FORMAT_BLOCKED_ELL: *nnz = d->ell.rows * d->ell.ell_cols; break;  // stored values incl. empty slots
    default: *nnz = d->coo.nnz;
  }
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseSpMatGetFormat(trnsparseConstSpMatDescr_t d, trnsparseFormat_t* format) {
  Check c(g_log, "trnsparseSpMatGetFormat", TRNSPARSE_STATUS_INVALID_VALUE);
  if (!c.require(g_spmats.contains(d), 1, "spMatDescr").not_null(format, 2, "format")) return c.status();
  *format = static_cast<trnsparseFormat_t>(d->format);
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseSpMatGetIndexBase(trnsparseConstSpMatDescr_t d, trnsparseIndexBase_t* idxBase) {
  Check c(g_log, "trnsparseSpMatGetIndexBase", TRNSPARSE_STATUS_INVALID_VALUE);
  if (!c.require(g_spmats.contains(d), 1, "spMatDescr").not_null(idxBase, 2, "idxBase")) return c.status();
  *idxBase = static_cast<trnsparseIndexBase_t>(d->base);
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseSpMatGetValues(trnsparseSpMatDescr_t d, void** values) {
  Check c(g_log, "trnsparseSpMatGetValues", TRNSPARSE_STATUS_INVALID_VALUE);
  if (!c.require(g_spmats.contains(d), 1, "spMatDescr").not_null(values, 2, "values")) return c.status();
  *values = sp_values(d);
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseSpMatSetValues(trnsparseSpMatDescr_t d, void* values) {
  Check c(g_log, "trnsparseSpMatSetValues", TRNSPARSE_STATUS_INVALID_VALUE);
  if (!c.require(g_spmats.contains(d), 1, "spMatDescr").not_null(values, 2, "values")) return c.status();
  sp_values(d) = values;
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseSpMatGetAttribute(trnsparseConstSpMatDescr_t d, trnsparseSpMatAttribute_t attribute,
                                             void* data, size_t dataSize) {
  Check c(g_log, "trnsparseSpMatGetAttribute", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_spmats.contains(d), 1, "spMatDescr").one_of(enum_value(attribute), {0, 1}, 2, "attribute");
  c.not_null(data, 3, "data").require(dataSize == sizeof(int), 4, "dataSize");
  if (!c) return c.status();
  const int v = enum_value(attribute) == TRNSPARSE_SPMAT_FILL_MODE ? d->fill : d->diag;
  std::memcpy(data, &v, sizeof v);
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseSpMatSetAttribute(trnsparseSpMatDescr_t d, trnsparseSpMatAttribute_t attribute, void* data,
                                             size_t dataSize) {
  Check c(g_log, "trnsparseSpMatSetAttribute", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_spmats.contains(d), 1, "spMatDescr").one_of(enum_value(attribute), {0, 1}, 2, "attribute");
  c.not_null(data, 3, "data").require(dataSize == sizeof(int), 4, "dataSize");
  if (!c) return c.status();
  int v = 0;
  std::memcpy(&v, data, sizeof v);
  if (!c.one_of(v, {0, 1}, 3, "data")) return c.status();
  (enum_value(attribute) == TRNSPARSE_SPMAT_FILL_MODE ? d->fill : d->diag) = v;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseCreateDnMat(trnsparseDnMatDescr_t* d, int64_t rows, int64_t cols, int64_t ld, void* values,
                                       trnDataType_t vt, trnsparseOrder_t order) {
  return create_dnmat(d, rows, cols, ld, values, enum_value(vt), enum_value(order), false, "trnsparseCreateDnMat");
}
trnsparseStatus_t trnsparseCreateConstDnMat(trnsparseConstDnMatDescr_t* d, int64_t rows, int64_t cols, int64_t ld,
                                            const void* values, trnDataType_t vt, trnsparseOrder_t order) {
  trnsparseDnMatDescr_t m = nullptr;
  const trnsparseStatus_t st = create_dnmat(d != nullptr ? &m : nullptr, rows, cols, ld, values, enum_value(vt),
                                            enum_value(order), true, "trnsparseCreateConstDnMat");
  if (st == TRNSPARSE_STATUS_SUCCESS) *d = m;
  return st;
}
trnsparseStatus_t trnsparseDestroyDnMat(trnsparseConstDnMatDescr_t d) {
  if (!g_dnmats.erase(d)) return TRNSPARSE_STATUS_INVALID_VALUE;
  delete d;
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseCreateDnVec(trnsparseDnVecDescr_t* d, int64_t size, void* values, trnDataType_t vt) {
  return create_dnvec(d, size, values, enum_value(vt), false, "trnsparseCreateDnVec");
}
trnsparseStatus_t trnsparseCreateConstDnVec(trnsparseConstDnVecDescr_t* d, int64_t size, const void* values,
                                            trnDataType_t vt) {
  trnsparseDnVecDescr_t v = nullptr;
  const trnsparseStatus_t st = create_dnvec(d != nullptr ? &v : nullptr, size, values, enum_value(vt), true,
                                            "trnsparseCreateConstDnVec");
  if (st == TRNSPARSE_STATUS_SUCCESS) *d = v;
  return st;
}
trnsparseStatus_t trnsparseDestroyDnVec(trnsparseConstDnVecDescr_t d) {
  if (!g_dnvecs.erase(d)) return TRNSPARSE_STATUS_INVALID_VALUE;
  delete d;
  return TRNSPARSE_STATUS_SUCCESS;
}

// ---- SpMM ---------------------------------------------------------------------------------------

trnsparseStatus_t trnsparseSpMM_bufferSize(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                           const void* alpha, trnsparseConstSpMatDescr_t A, trnsparseConstDnMatDescr_t B,
                                           const void* beta, trnsparseDnMatDescr_t C, trnDataType_t ct,
                                           trnsparseSpMMAlg_t alg, size_t* bufferSize) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpMM_bufferSize", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spmm_checks(c, h, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg))
           .not_null(bufferSize, 10, "bufferSize"))
    return c.status();
  *bufferSize = kBufferBytes;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSpMM_preprocess(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                           const void* alpha, trnsparseConstSpMatDescr_t A, trnsparseConstDnMatDescr_t B,
                                           const void* beta, trnsparseDnMatDescr_t C, trnDataType_t ct,
                                           trnsparseSpMMAlg_t alg, void* externalBuffer) {
  (void)externalBuffer;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpMM_preprocess", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  spmm_checks(c, h, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg));
  return c.status();
}

trnsparseStatus_t trnsparseSpMM(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                const void* alpha, trnsparseConstSpMatDescr_t A, trnsparseConstDnMatDescr_t B,
                                const void* beta, trnsparseDnMatDescr_t C, trnDataType_t ct, trnsparseSpMMAlg_t alg,
                                void* externalBuffer) {
  (void)externalBuffer;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpMM", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spmm_checks(c, h, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg)))
    return c.status();
  const float a = *static_cast<const float*>(alpha), b = *static_cast<const float*>(beta);
  return trn::cshim::guarded(g_log, "trnsparseSpMM", kStatusMap, [&] {
    sp::CallReport r;
    visit(A, [&](const auto& v) {
      sp::spmm(h->settings, op_of(enum_value(opA)), op_of(enum_value(opB)), a, v, dense_of(B), b, C->m, &r);
    });
    store_profile(h, r);
  });
}

// ---- SpMV ---------------------------------------------------------------------------------------

trnsparseStatus_t trnsparseSpMV_bufferSize(trnsparseHandle_t h, trnsparseOperation_t opA, const void* alpha,
                                           trnsparseConstSpMatDescr_t A, trnsparseConstDnVecDescr_t x, const void* beta,
                                           trnsparseDnVecDescr_t y, trnDataType_t ct, trnsparseSpMVAlg_t alg,
                                           size_t* bufferSize) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpMV_bufferSize", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spmv_checks(c, h->strict, enum_value(opA), alpha, A, x, beta, y, enum_value(ct), enum_value(alg)).not_null(bufferSize, 9, "bufferSize"))
    return c.status();
  *bufferSize = kBufferBytes;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSpMV_preprocess(trnsparseHandle_t h, trnsparseOperation_t opA, const void* alpha,
                                           trnsparseConstSpMatDescr_t A, trnsparseConstDnVecDescr_t x, const void* beta,
                                           trnsparseDnVecDescr_t y, trnDataType_t ct, trnsparseSpMVAlg_t alg,
                                           void* externalBuffer) {
  (void)externalBuffer;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpMV_preprocess", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  spmv_checks(c, h->strict, enum_value(opA), alpha, A, x, beta, y, enum_value(ct), enum_value(alg));
  return c.status();
}

trnsparseStatus_t trnsparseSpMV(trnsparseHandle_t h, trnsparseOperation_t opA, const void* alpha,
                                trnsparseConstSpMatDescr_t A, trnsparseConstDnVecDescr_t x, const void* beta,
                                trnsparseDnVecDescr_t y, trnDataType_t ct, trnsparseSpMVAlg_t alg, void* externalBuffer) {
  (void)externalBuffer;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpMV", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spmv_checks(c, h->strict, enum_value(opA), alpha, A, x, beta, y, enum_value(ct), enum_value(alg))) return c.status();
  const float a = *static_cast<const float*>(alpha), b = *static_cast<const float*>(beta);
  return trn::cshim::guarded(g_log, "trnsparseSpMV", kStatusMap, [&] {
    sp::CallReport r;
    visit(A, [&](const auto& v) {
      sp::spmv(h->settings, op_of(enum_value(opA)), a, v, x->values, x->dtype, b, y->values, y->dtype, &r);
    });
    store_profile(h, r);
  });
}

// ---- SDDMM --------------------------------------------------------------------------------------

trnsparseStatus_t trnsparseSDDMM_bufferSize(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                            const void* alpha, trnsparseConstDnMatDescr_t A,
                                            trnsparseConstDnMatDescr_t B, const void* beta, trnsparseSpMatDescr_t C,
                                            trnDataType_t ct, trnsparseSDDMMAlg_t alg, size_t* bufferSize) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSDDMM_bufferSize", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!sddmm_checks(c, h->strict, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg))
           .not_null(bufferSize, 10, "bufferSize"))
    return c.status();
  *bufferSize = kBufferBytes;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSDDMM_preprocess(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                            const void* alpha, trnsparseConstDnMatDescr_t A,
                                            trnsparseConstDnMatDescr_t B, const void* beta, trnsparseSpMatDescr_t C,
                                            trnDataType_t ct, trnsparseSDDMMAlg_t alg, void* externalBuffer) {
  (void)externalBuffer;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSDDMM_preprocess", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  sddmm_checks(c, h->strict, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg));
  return c.status();
}

trnsparseStatus_t trnsparseSDDMM(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                 const void* alpha, trnsparseConstDnMatDescr_t A, trnsparseConstDnMatDescr_t B,
                                 const void* beta, trnsparseSpMatDescr_t C, trnDataType_t ct, trnsparseSDDMMAlg_t alg,
                                 void* externalBuffer) {
  (void)externalBuffer;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSDDMM", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!sddmm_checks(c, h->strict, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg)))
    return c.status();
  const float a = *static_cast<const float*>(alpha), b = *static_cast<const float*>(beta);
  return trn::cshim::guarded(g_log, "trnsparseSDDMM", kStatusMap, [&] {
    sp::CallReport r;
    if (C->format == TRNSPARSE_FORMAT_BSR)
      sp::sddmm(h->settings, op_of(enum_value(opA)), op_of(enum_value(opB)), a, dense_of(A), dense_of(B), b, C->bsr, &r);
    else
      sp::sddmm(h->settings, op_of(enum_value(opA)), op_of(enum_value(opB)), a, dense_of(A), dense_of(B), b, C->csr, &r);
    store_profile(h, r);
  });
}

// ---- legacy BSR ---------------------------------------------------------------------------------

trnsparseStatus_t trnsparseSbsrmm(trnsparseHandle_t h, trnsparseDirection_t dirA, trnsparseOperation_t transA,
                                  trnsparseOperation_t transB, int mb, int n, int kb, int nnzb, const float* alpha,
                                  const trnsparseMatDescr_t descrA, const float* val, const int* rowPtr,
                                  const int* colInd, const int blockSize, const float* B, const int ldb,
                                  const float* beta, float* C, int ldc) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  const int dir = enum_value(dirA), ta = enum_value(transA), tb = enum_value(transB);
  Check c(g_log, "trnsparseSbsrmm", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.one_of(dir, {0, 1}, 1, "dirA").one_of(ta, {0, 1}, 2, "transA").one_of(tb, {0, 1}, 3, "transB");
  c.require(!h->strict || ta == 0, 2, "transA");  // cuSPARSE: NON_TRANSPOSE only
  c.nonnegative(mb, 4, "mb").nonnegative(n, 5, "n").nonnegative(kb, 6, "kb").nonnegative(nnzb, 7, "nnzb");
  c.not_null(alpha, 8, "alpha").require(g_mat_descrs.contains(descrA), 9, "descrA");
  if (!c) return c.status();
  c.require_or(descrA->type == TRNSPARSE_MATRIX_TYPE_GENERAL, TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED", "only TRNSPARSE_MATRIX_TYPE_GENERAL");
  c.require(val != nullptr || nnzb == 0, 10, "bsrSortedValA").not_null(rowPtr, 11, "bsrSortedRowPtrA");
  c.require(colInd != nullptr || nnzb == 0, 12, "bsrSortedColIndA").require(blockSize >= (h->strict ? 2 : 1), 13, "blockSize");
  if (!c) return c.status();
  const std::int64_t rows_c = std::int64_t{ta == 0 ? mb : kb} * blockSize, k = std::int64_t{ta == 0 ? kb : mb} * blockSize;
  c.require(B != nullptr || k == 0 || n == 0, 14, "B").leading_dim(ldb, tb == 0 ? k : n, 15, "ldb");
  c.not_null(beta, 16, "beta").require(C != nullptr || rows_c == 0 || n == 0, 17, "C").leading_dim(ldc, rows_c, 18, "ldc");
  if (!c) return c.status();
  const sp::BsrView a = legacy_bsr(dir, mb, kb, nnzb, blockSize, descrA, val, rowPtr, colInd);
  const sp::DenseRef b{B, trn::DType::f32, tb == 0 ? k : n, tb == 0 ? n : k, ldb, sp::Layout::col_major};
  const sp::MutableDenseRef cm{C, trn::DType::f32, rows_c, n, ldc, sp::Layout::col_major};
  return run(h, "trnsparseSbsrmm", {{"offsets", 11}, {"nnz", 7}, {"columns", 12}}, [&] {
    sp::CallReport r;
    sp::spmm(h->settings, op_of(ta), op_of(tb), *alpha, a, b, *beta, cm, &r);
    store_profile(h, r);
  });
}

trnsparseStatus_t trnsparseDbsrmm(trnsparseHandle_t h, trnsparseDirection_t, trnsparseOperation_t,
                                  trnsparseOperation_t, int, int, int, int, const double*, const trnsparseMatDescr_t,
                                  const double*, const int*, const int*, const int, const double*, const int,
                                  const double*, double*, int) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  g_log.log(trn::cshim::failure_message("trnsparseDbsrmm", "TRNSPARSE_STATUS_NOT_SUPPORTED",
                                        "fp64 BSR has no tile path (no NeuronCore engine computes in fp64)"));
  return TRNSPARSE_STATUS_NOT_SUPPORTED;
}

trnsparseStatus_t trnsparseSbsrmv(trnsparseHandle_t h, trnsparseDirection_t dirA, trnsparseOperation_t transA, int mb,
                                  int nb, int nnzb, const float* alpha, const trnsparseMatDescr_t descrA,
                                  const float* val, const int* rowPtr, const int* colInd, int blockDim, const float* x,
                                  const float* beta, float* y) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  const int dir = enum_value(dirA), ta = enum_value(transA);
  Check c(g_log, "trnsparseSbsrmv", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.one_of(dir, {0, 1}, 1, "dirA").one_of(ta, {0, 1}, 2, "transA").nonnegative(mb, 3, "mb").nonnegative(nb, 4, "nb");
  c.require(!h->strict || ta == 0, 2, "transA");
  c.nonnegative(nnzb, 5, "nnzb").not_null(alpha, 6, "alpha").require(g_mat_descrs.contains(descrA), 7, "descrA");
  if (!c) return c.status();
  c.require_or(descrA->type == TRNSPARSE_MATRIX_TYPE_GENERAL, TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED", "only TRNSPARSE_MATRIX_TYPE_GENERAL");
  c.require(val != nullptr || nnzb == 0, 8, "bsrSortedValA").not_null(rowPtr, 9, "bsrSortedRowPtrA");
  c.require(colInd != nullptr || nnzb == 0, 10, "bsrSortedColIndA").require(blockDim >= (h->strict ? 2 : 1), 11, "blockDim");
  const std::int64_t len_x = std::int64_t{ta == 0 ? nb : mb} * blockDim, len_y = std::int64_t{ta == 0 ? mb : nb} * blockDim;
  c.require(x != nullptr || len_x == 0, 12, "x").not_null(beta, 13, "beta").require(y != nullptr || len_y == 0, 14, "y");
  if (!c) return c.status();
  const sp::BsrView a = legacy_bsr(dir, mb, nb, nnzb, blockDim, descrA, val, rowPtr, colInd);
  return run(h, "trnsparseSbsrmv", {{"offsets", 9}, {"nnz", 5}, {"columns", 10}}, [&] {
    sp::CallReport r;
    sp::spmv(h->settings, op_of(ta), *alpha, a, x, trn::DType::f32, *beta, y, trn::DType::f32, &r);
    store_profile(h, r);
  });
}

trnsparseStatus_t trnsparseDbsrmv(trnsparseHandle_t h, trnsparseDirection_t, trnsparseOperation_t, int, int, int,
                                  const double*, const trnsparseMatDescr_t, const double*, const int*, const int*, int,
                                  const double*, const double*, double*) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  g_log.log(trn::cshim::failure_message("trnsparseDbsrmv", "TRNSPARSE_STATUS_NOT_SUPPORTED",
                                        "fp64 BSR has no tile path (no NeuronCore engine computes in fp64)"));
  return TRNSPARSE_STATUS_NOT_SUPPORTED;
}

trnsparseStatus_t trnsparseXcsr2bsrNnz(trnsparseHandle_t h, trnsparseDirection_t dirA, int m, int n,
                                       const trnsparseMatDescr_t descrA, const int* rowPtr, const int* colInd,
                                       int blockDim, const trnsparseMatDescr_t descrC, int* bsrRowPtrC,
                                       int* nnzTotalDevHostPtr) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseXcsr2bsrNnz", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.one_of(enum_value(dirA), {0, 1}, 1, "dirA").nonnegative(m, 2, "m").nonnegative(n, 3, "n");
  c.require(g_mat_descrs.contains(descrA), 4, "descrA").not_null(rowPtr, 5, "csrSortedRowPtrA");
  c.require(blockDim >= 1, 7, "blockDim").require(g_mat_descrs.contains(descrC), 8, "descrC");
  c.not_null(bsrRowPtrC, 9, "bsrSortedRowPtrC").not_null(nnzTotalDevHostPtr, 10, "nnzTotalDevHostPtr");
  if (!c) return c.status();
  const std::int64_t nnz = std::int64_t{rowPtr[m]} - descrA->base;
  c.require(colInd != nullptr || nnz <= 0, 6, "csrSortedColIndA");
  if (!c) return c.status();
  const sp::CsrView csr{m, n, nnz, rowPtr, colInd, nullptr, sp::IndexType::i32, sp::IndexType::i32,
                        descrA->base == 1 ? sp::IndexBase::one : sp::IndexBase::zero, trn::DType::f32};
  return run(h, "trnsparseXcsr2bsrNnz", {{"offsets", 5}, {"nnz", 5}, {"columns", 6}, {"bsrRowPtrC", 9}}, [&] {
    const std::int64_t bnnz = sp::csr_to_bsr_nnz(csr, blockDim, descrC->base == 1 ? sp::IndexBase::one : sp::IndexBase::zero,
                                                  bsrRowPtrC, sp::IndexType::i32);
    *nnzTotalDevHostPtr = static_cast<int>(bnnz);
  });
}

trnsparseStatus_t trnsparseScsr2bsr(trnsparseHandle_t h, trnsparseDirection_t dirA, int m, int n,
                                    const trnsparseMatDescr_t descrA, const float* csrVal, const int* rowPtr,
                                    const int* colInd, int blockDim, const trnsparseMatDescr_t descrC, float* bsrVal,
                                    int* bsrRowPtr, int* bsrColInd) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseScsr2bsr", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.one_of(enum_value(dirA), {0, 1}, 1, "dirA").nonnegative(m, 2, "m").nonnegative(n, 3, "n");
  c.require(g_mat_descrs.contains(descrA), 4, "descrA");
  if (!c) return c.status();
  c.not_null(rowPtr, 6, "csrSortedRowPtrA");
  if (!c) return c.status();
  const std::int64_t nnz = std::int64_t{rowPtr[m]} - descrA->base;
  c.require(csrVal != nullptr || nnz <= 0, 5, "csrSortedValA").require(colInd != nullptr || nnz <= 0, 7, "csrSortedColIndA");
  c.require(blockDim >= 1, 8, "blockDim").require(g_mat_descrs.contains(descrC), 9, "descrC");
  c.not_null(bsrRowPtr, 11, "bsrSortedRowPtrC");
  if (!c) return c.status();
  const sp::CsrView csr{m, n, nnz, rowPtr, colInd, const_cast<float*>(csrVal), sp::IndexType::i32, sp::IndexType::i32,
                        descrA->base == 1 ? sp::IndexBase::one : sp::IndexBase::zero, trn::DType::f32};
  return run(h, "trnsparseScsr2bsr",
             {{"offsets", 6}, {"nnz", 6}, {"columns", 7}, {"values", 5}, {"bsrRowPtrC", 11}, {"bsrValC", 10}}, [&] {
               sp::csr_to_bsr(csr, blockDim, enum_value(dirA) == 0 ? sp::BlockOrder::row : sp::BlockOrder::col,
                              descrC->base == 1 ? sp::IndexBase::one : sp::IndexBase::zero, bsrRowPtr, sp::IndexType::i32,
                              bsrColInd, bsrVal);
             });
}

trnsparseStatus_t trnsparseSbsr2csr(trnsparseHandle_t h, trnsparseDirection_t dirA, int mb, int nb,
                                    const trnsparseMatDescr_t descrA, const float* bsrVal, const int* bsrRowPtr,
                                    const int* bsrColInd, int blockDim, const trnsparseMatDescr_t descrC, float* csrVal,
                                    int* csrRowPtr, int* csrColInd) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSbsr2csr", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.one_of(enum_value(dirA), {0, 1}, 1, "dirA").nonnegative(mb, 2, "mb").nonnegative(nb, 3, "nb");
  c.require(g_mat_descrs.contains(descrA), 4, "descrA").not_null(bsrRowPtr, 6, "bsrSortedRowPtrA");
  c.require(blockDim >= 1, 8, "blockDim").require(g_mat_descrs.contains(descrC), 9, "descrC");
  c.not_null(csrRowPtr, 11, "csrSortedRowPtrC");
  if (!c) return c.status();
  const std::int64_t nnzb = std::int64_t{bsrRowPtr[mb]} - descrA->base;
  c.require(bsrVal != nullptr || nnzb <= 0, 5, "bsrSortedValA").require(bsrColInd != nullptr || nnzb <= 0, 7, "bsrSortedColIndA");
  c.require(nnzb <= 0 || (csrVal != nullptr && csrColInd != nullptr), csrVal == nullptr ? 10 : 12,
            csrVal == nullptr ? "csrSortedValC" : "csrSortedColIndC");
  if (!c) return c.status();
  const sp::BsrView a = legacy_bsr(enum_value(dirA), mb, nb, std::max<std::int64_t>(nnzb, 0), blockDim, descrA, bsrVal,
                                   bsrRowPtr, bsrColInd);
  return run(h, "trnsparseSbsr2csr", {{"offsets", 6}, {"nnz", 6}, {"columns", 7}, {"csrRowPtrC", 11}}, [&] {
    sp::bsr_to_csr(a, descrC->base == 1 ? sp::IndexBase::one : sp::IndexBase::zero, csrRowPtr, csrColInd, csrVal,
                   sp::IndexType::i32);
  });
}

}  // extern "C"

namespace {

Check& spgemm_checks(Check& c, int opA, int opB, const void* alpha, const trnsparseSpMatDescr* A,
                     const trnsparseSpMatDescr* B, const void* beta, const trnsparseSpMatDescr* C, int ct, int alg,
                     const trnsparseSpGEMMDescr* d) {
  c.one_of(opA, {0}, 1, "opA").one_of(opB, {0}, 2, "opB").not_null(alpha, 3, "alpha");
  c.require(g_spmats.contains(A) && A->format == TRNSPARSE_FORMAT_BSR, 4, "matA");
  c.require(g_spmats.contains(B) && B->format == TRNSPARSE_FORMAT_BSR, 5, "matB").not_null(beta, 6, "beta");
  c.require(g_spmats.contains(C) && C->format == TRNSPARSE_FORMAT_BSR && !C->is_const, 7, "matC");
  c.one_of(ct, {TRN_R_32F, TRN_R_64F}, 8, "computeType").one_of(alg, {0, 1, 2, 3, 4, 5}, 9, "alg");
  c.require(g_spgemms.contains(d), 10, "spgemmDescr");
  if (!c) return c;
  c.require(*static_cast<const float*>(beta) == 0.0f, 6, "beta");  // SpGEMM overwrites C
  c.require_or(ct == TRN_R_32F && !A->fp64 && !B->fp64 && !C->fp64, TRNSPARSE_STATUS_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_NOT_SUPPORTED", "fp64 values or compute: no fp64 tile path");
  c.require(A->bsr.bcols == B->bsr.brows && A->bsr.col_block == B->bsr.row_block && A->bsr.value_type == B->bsr.value_type,
            5, "matB");
  c.require(C->bsr.brows == A->bsr.brows && C->bsr.bcols == B->bsr.bcols && C->bsr.row_block == A->bsr.row_block &&
                C->bsr.col_block == B->bsr.col_block && C->bsr.value_type == trn::DType::f32,
            7, "matC");
  check_sparse(c, A, 4, "matA");
  return check_sparse(c, B, 5, "matB");
}

}  // namespace

extern "C" {

trnsparseStatus_t trnsparseSpGEMM_createDescr(trnsparseSpGEMMDescr_t* descr) {
  if (descr == nullptr) return TRNSPARSE_STATUS_INVALID_VALUE;
  auto* d = new (std::nothrow) trnsparseSpGEMMDescr;
  if (d == nullptr) return TRNSPARSE_STATUS_ALLOC_FAILED;
  g_spgemms.insert(d);
  *descr = d;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSpGEMM_destroyDescr(trnsparseSpGEMMDescr_t descr) {
  if (!g_spgemms.erase(descr)) return TRNSPARSE_STATUS_INVALID_VALUE;
  delete descr;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSpGEMM_workEstimation(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                                 const void* alpha, trnsparseConstSpMatDescr_t A,
                                                 trnsparseConstSpMatDescr_t B, const void* beta, trnsparseSpMatDescr_t C,
                                                 trnDataType_t ct, trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t d,
                                                 size_t* bufferSize1, void* externalBuffer1) {
  (void)externalBuffer1;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpGEMM_workEstimation", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spgemm_checks(c, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg), d)
           .not_null(bufferSize1, 11, "bufferSize1"))
    return c.status();
  *bufferSize1 = kBufferBytes;
  return trn::cshim::guarded(g_log, "trnsparseSpGEMM_workEstimation", kStatusMap, [&] {
    d->result = sp::spgemm_symbolic(A->bsr, B->bsr);
    d->phase = 1;
  });
}

trnsparseStatus_t trnsparseSpGEMM_compute(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                          const void* alpha, trnsparseConstSpMatDescr_t A, trnsparseConstSpMatDescr_t B,
                                          const void* beta, trnsparseSpMatDescr_t C, trnDataType_t ct,
                                          trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t d, size_t* bufferSize2,
                                          void* externalBuffer2) {
  (void)externalBuffer2;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpGEMM_compute", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spgemm_checks(c, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg), d)
           .not_null(bufferSize2, 11, "bufferSize2")
           .require(d->phase >= 1, 10, "spgemmDescr"))  // workEstimation first
    return c.status();
  *bufferSize2 = kBufferBytes;
  const float a = *static_cast<const float*>(alpha);
  return trn::cshim::guarded(g_log, "trnsparseSpGEMM_compute", kStatusMap, [&] {
    sp::CallReport r;
    sp::spgemm_numeric(h->settings, a, A->bsr, B->bsr, d->result, &r);
    store_profile(h, r);
    d->phase = 2;
    C->bsr.bnnz = d->result.fill.bnnz;  // SpMatGetSize now reports C's block count
  });
}

trnsparseStatus_t trnsparseSpGEMM_copy(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                       const void* alpha, trnsparseConstSpMatDescr_t A, trnsparseConstSpMatDescr_t B,
                                       const void* beta, trnsparseSpMatDescr_t C, trnDataType_t ct, trnsparseSpGEMMAlg_t alg,
                                       trnsparseSpGEMMDescr_t d) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpGEMM_copy", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spgemm_checks(c, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg), d)
           .require(d->phase == 2, 11, "spgemmDescr"))  // compute first
    return c.status();
  sp::BsrView& out = C->bsr;
  const sp::OwnedBsr& res = d->result;
  const std::int64_t bnnz = res.fill.bnnz;
  c.require(out.bnnz == bnnz && out.offsets != nullptr && (bnnz == 0 || (out.columns != nullptr && out.values != nullptr)), 7,
            "matC");
  if (!c) return c.status();
  // Index copy (host) into C's index type and base; values copied block by block in C's order.
  const std::int64_t base = out.base == sp::IndexBase::one ? 1 : 0, rb = res.row_block, cb = res.col_block;
  auto store = [](const void* p, sp::IndexType t, std::int64_t i, std::int64_t v) {
    if (t == sp::IndexType::i32)
      static_cast<std::int32_t*>(const_cast<void*>(p))[i] = static_cast<std::int32_t>(v);
    else
      static_cast<std::int64_t*>(const_cast<void*>(p))[i] = v;
  };
  for (std::int64_t r = 0; r <= res.brows; ++r) store(out.offsets, out.offsets_type, r, res.offsets[static_cast<std::size_t>(r)] + base);
  const auto* src = reinterpret_cast<const float*>(res.values.data());
  auto* dst = static_cast<float*>(out.values);
  for (std::int64_t e = 0; e < bnnz; ++e) {
    store(out.columns, out.columns_type, e, res.columns[static_cast<std::size_t>(e)] + base);
    for (std::int64_t r = 0; r < rb; ++r)
      for (std::int64_t k = 0; k < cb; ++k)
        dst[e * rb * cb + (out.order == sp::BlockOrder::row ? r * cb + k : r + k * rb)] = src[e * rb * cb + r * cb + k];
  }
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseBsrSetPointers(trnsparseSpMatDescr_t d, void* offsets, void* columns, void* values) {
  Check c(g_log, "trnsparseBsrSetPointers", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_spmats.contains(d) && d->format == TRNSPARSE_FORMAT_BSR, 1, "spMatDescr").not_null(offsets, 2, "bsrRowOffsets");
  if (!c) return c.status();
  c.require(columns != nullptr || d->bsr.bnnz == 0, 3, "bsrColInd").require(values != nullptr || d->bsr.bnnz == 0, 4, "bsrValues");
  if (!c) return c.status();
  d->bsr.offsets = offsets;
  d->bsr.columns = columns;
  d->bsr.values = values;
  return TRNSPARSE_STATUS_SUCCESS;
}

}  // extern "C"

// ---- Krylov solvers and attention (extensions) -------------------------------------------------

namespace {

enum class Solver { cg, bicgstab, gmres };

// The shared body of trnsparseBsrCg/Bicgstab/Gmres. Positions: matA 1, vecB 2, vecX 3, tolerance 4,
// maxIterations 5, (GMRES: restart 6), then precond, iterations, residualHistory, info.
trnsparseStatus_t krylov(trnsparseHandle_t h, Solver which, const char* fn, const trnsparseSpMatDescr* A,
                         const trnsparseDnVecDescr* b, trnsparseDnVecDescr* x, float tol, int max_it, int restart,
                         int precond, int* iterations, float* history, int* info) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  const int shift = which == Solver::gmres ? 1 : 0;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.require(g_spmats.contains(A), 1, "matA").require(g_dnvecs.contains(b), 2, "vecB");
  c.require(g_dnvecs.contains(x) && !x->is_const, 3, "vecX").require(tol >= 0.0f, 4, "tolerance");
  c.nonnegative(max_it, 5, "maxIterations").require(which != Solver::gmres || restart >= 1, 6, "restart");
  c.one_of(precond, {TRNSPARSE_PRECOND_NONE, TRNSPARSE_PRECOND_JACOBI, TRNSPARSE_PRECOND_BLOCK_JACOBI}, 6 + shift, "precond");
  c.not_null(iterations, 7 + shift, "iterations").not_null(info, 9 + shift, "info");
  if (!c) return c.status();
  c.require_or(A->format == TRNSPARSE_FORMAT_BSR, TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "Krylov solvers take BSR operators");
  c.require_or(!A->fp64 && !b->fp64 && !x->fp64, TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "fp64 values: no fp64 tile path");
  if (!c) return c.status();
  c.require(A->bsr.rows() == A->bsr.cols() && A->bsr.value_type == trn::DType::f32, 1, "matA");
  c.require(b->size == A->bsr.rows() && b->dtype == trn::DType::f32, 2, "vecB");
  c.require(x->size == A->bsr.rows() && x->dtype == trn::DType::f32, 3, "vecX");
  if (!check_sparse(c, A, 1, "matA")) return c.status();
  if (A->bsr.rows() == 0) {  // an empty system is solved by the empty x (b and x may be NULL)
    *iterations = 0;
    *info = 0;
    if (history != nullptr) history[0] = 0.0f;
    return TRNSPARSE_STATUS_SUCCESS;
  }
  sp::KrylovOptions opt;
  opt.max_iterations = max_it;
  opt.tolerance = tol;
  opt.jacobi = precond == TRNSPARSE_PRECOND_JACOBI;
  opt.block_jacobi = precond == TRNSPARSE_PRECOND_BLOCK_JACOBI;
  opt.restart = restart;
  return run(h, fn, {{"matA", 1}, {"valueType", 1}, {"vector", 3}, {"restart", 6}}, [&] {
    const auto* bv = static_cast<const float*>(b->values);
    auto* xv = static_cast<float*>(x->values);
    const sp::KrylovResult r = which == Solver::cg         ? sp::cg(h->settings, A->bsr, bv, xv, opt)
                               : which == Solver::bicgstab ? sp::bicgstab(h->settings, A->bsr, bv, xv, opt)
                                                           : sp::gmres(h->settings, A->bsr, bv, xv, opt);
    *iterations = r.iterations;
    *info = r.converged ? 0 : r.breakdown ? 2 : 1;
    if (history != nullptr) {
      const std::size_t count = std::min(r.residual_history.size(), static_cast<std::size_t>(max_it) + 1);
      for (std::size_t k = 0; k < count; ++k) history[k] = static_cast<float>(r.residual_history[k]);
    }
    trnProfile_t p{};
    p.target = static_cast<trnTarget_t>(h->settings.target);
    p.total_ns = r.modeled_ns;
    h->last_profile = p;
  });
}

// Mask, head dimension and tile type checks shared by the attention entry points (positions 1, 2
// and `tile_pos`); seq = rows(mask).
Check& attention_checks(Check& c, const trnsparseSpMatDescr* mask, int64_t head_dim, int tile_type, int tile_pos) {
  c.require(g_spmats.contains(mask), 1, "mask").require(head_dim >= 1 && head_dim <= 128, 2, "headDim");
  c.one_of(tile_type, {TRN_R_32F, TRN_R_16BF}, tile_pos, "tileType");
  if (!c) return c;
  c.require_or(mask->format == TRNSPARSE_FORMAT_BSR, TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "attention masks are BSR patterns");
  if (!c) return c;
  const sp::BsrView& m = mask->bsr;
  c.require(m.brows == m.bcols && m.row_block == m.col_block && m.row_block <= 128, 1, "mask");
  return c;
}

}  // namespace

extern "C" {

trnsparseStatus_t trnsparseBsrCg(trnsparseHandle_t h, trnsparseConstSpMatDescr_t A, trnsparseConstDnVecDescr_t b,
                                 trnsparseDnVecDescr_t x, float tol, int maxIt, trnsparsePreconditioner_t pc, int* it,
                                 float* hist, int* info) {
  return krylov(h, Solver::cg, "trnsparseBsrCg", A, b, x, tol, maxIt, 1, enum_value(pc), it, hist, info);
}

trnsparseStatus_t trnsparseBsrBicgstab(trnsparseHandle_t h, trnsparseConstSpMatDescr_t A, trnsparseConstDnVecDescr_t b,
                                       trnsparseDnVecDescr_t x, float tol, int maxIt, trnsparsePreconditioner_t pc,
                                       int* it, float* hist, int* info) {
  return krylov(h, Solver::bicgstab, "trnsparseBsrBicgstab", A, b, x, tol, maxIt, 1, enum_value(pc), it, hist, info);
}

trnsparseStatus_t trnsparseBsrGmres(trnsparseHandle_t h, trnsparseConstSpMatDescr_t A, trnsparseConstDnVecDescr_t b,
                                    trnsparseDnVecDescr_t x, float tol, int maxIt, int restart,
                                    trnsparsePreconditioner_t pc, int* it, float* hist, int* info) {
  return krylov(h, Solver::gmres, "trnsparseBsrGmres", A, b, x, tol, maxIt, restart, enum_value(pc), it, hist, info);
}

trnsparseStatus_t trnsparseBlockSparseAttentionForward(trnsparseHandle_t h, trnsparseConstSpMatDescr_t mask,
                                                       int64_t headDim, const float* Q, const float* K, const float* V,
                                                       float scale, float* O, float* logsumexp, trnDataType_t tileType) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsparseBlockSparseAttentionForward";
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!attention_checks(c, mask, headDim, enum_value(tileType), 9)) return c.status();
  const bool any = mask->bsr.rows() > 0;
  c.require(Q != nullptr || !any, 3, "Q").require(K != nullptr || !any, 4, "K").require(V != nullptr || !any, 5, "V");
  c.require(std::isfinite(scale), 6, "scale").require(O != nullptr || !any, 7, "O");
  if (!check_sparse(c, mask, 1, "mask")) return c.status();
  const trn::DType tiles = enum_value(tileType) == TRN_R_16BF ? trn::DType::bf16 : trn::DType::f32;
  return run(h, fn, {{"mask", 1}, {"rowBlockSize", 1}, {"head_dim", 2}, {"Q", 3}}, [&] {
    sp::CallReport r;
    sp::attention_forward(h->settings, mask->bsr, headDim, Q, K, V, scale, O, tiles, &r, logsumexp);
    store_profile(h, r);
  });
}

trnsparseStatus_t trnsparseBlockSparseAttentionBackward(trnsparseHandle_t h, trnsparseConstSpMatDescr_t mask,
                                                        int64_t headDim, const float* Q, const float* K, const float* V,
                                                        const float* O, const float* dO, const float* logsumexp,
                                                        float scale, float* dQ, float* dK, float* dV,
                                                        trnDataType_t tileType) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsparseBlockSparseAttentionBackward";
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!attention_checks(c, mask, headDim, enum_value(tileType), 13)) return c.status();
  const bool any = mask->bsr.rows() > 0;
  c.require(Q != nullptr || !any, 3, "Q").require(K != nullptr || !any, 4, "K").require(V != nullptr || !any, 5, "V");
  c.require(O != nullptr || !any, 6, "O").require(dO != nullptr || !any, 7, "dO");
  c.require(logsumexp != nullptr || !any, 8, "logsumexp").require(std::isfinite(scale), 9, "scale");
  c.require(dQ != nullptr || !any, 10, "dQ").require(dK != nullptr || !any, 11, "dK").require(dV != nullptr || !any, 12, "dV");
  if (!check_sparse(c, mask, 1, "mask")) return c.status();
  const trn::DType tiles = enum_value(tileType) == TRN_R_16BF ? trn::DType::bf16 : trn::DType::f32;
  return run(h, fn, {{"mask", 1}, {"rowBlockSize", 1}, {"head_dim", 2}, {"Q", 3}, {"dQ", 10}}, [&] {
    sp::CallReport r;
    sp::attention_backward(h->settings, mask->bsr, headDim, Q, K, V, O, dO, logsumexp, scale, dQ, dK, dV, tiles, &r);
    store_profile(h, r);
  });
}

}  // extern "C"
