// trnsparse C shim: the legacy incomplete factorizations csric02 / csrilu02 (info objects,
// bufferSize / bufferSizeExt / analysis / factorization, zeroPivot, csrilu02_numericBoost) in S, D,
// C and Z over trn/sparse/incomplete.hpp. The buffer is never used (any pointer, NULL included).
#include "capi_internal.hpp"
#include "trn/sparse/incomplete.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

// What the analysis leaves for the factorization and the zeroPivot query.
struct IncompleteInfo {
  sp::IncompleteAnalysis a;
  bool analyzed = false;
  std::int64_t zero = -1;  // the last reported zero pivot (0-based), -1 none
  int base = 0;            // descrA's index base at analysis (zeroPivot reports in it)
};
struct csric02Info : IncompleteInfo {};
struct csrilu02Info : IncompleteInfo {
  sp::PivotBoost boost;
};

namespace {

trn::cshim::HandleRegistry<csric02Info> g_ic_infos;
trn::cshim::HandleRegistry<csrilu02Info> g_ilu_infos;

// One call's arguments; positions as cuSPARSE's (the handle not counted).
struct Args {
  int m = 0, nnz = 0;
  const trnsparseMatDescr* descr = nullptr;
  const void* val = nullptr;
  const int *row = nullptr, *col = nullptr;
  IncompleteInfo* info = nullptr;  // NULL when the info is not a live one of its family
};

Check& incomplete_checks(Check& c, const Args& a) {
  c.nonnegative(a.m, 1, "m").nonnegative(a.nnz, 2, "nnz").require(g_mat_descrs.contains(a.descr), 3, "descrA");
  c.require(a.val != nullptr || a.nnz == 0, 4, "csrSortedValA").not_null(a.row, 5, "csrSortedRowPtrA");
  c.require(a.col != nullptr || a.nnz == 0, 6, "csrSortedColIndA").require(a.info != nullptr, 7, "info");
  if (!c) return c;
  return c.require_or(a.descr->type == TRNSPARSE_MATRIX_TYPE_GENERAL, TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED,
                      "TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED", "only TRNSPARSE_MATRIX_TYPE_GENERAL");
}

// _bufferSize (int*) and _bufferSizeExt (size_t*): the argument chain, then the fixed size.
template <class Size>
trnsparseStatus_t buffer_size(trnsparseHandle_t h, const char* fn, const Args& a, Size* size) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!incomplete_checks(c, a).not_null(size, 8, "pBufferSizeInBytes")) return c.status();
  *size = static_cast<Size>(kBufferBytes);
  return TRNSPARSE_STATUS_SUCCESS;
}

const std::initializer_list<std::pair<const char*, int>> kArrays{
    {"values", 4}, {"offsets", 5}, {"nnz", 5}, {"columns", 6}};

trnsparseStatus_t analysis(trnsparseHandle_t h, const char* fn, sp::Incomplete kind, sp::Value value, const Args& a,
                           int policy) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!incomplete_checks(c, a).one_of(policy, {0, 1}, 8, "policy")) return c.status();
  const trn::HostStep step{.name = kind == sp::Incomplete::ic0 ? "trnsparse.csric02.analysis" : "trnsparse.csrilu02.analysis",
                           .flops = static_cast<double>(a.nnz) + a.m,
                           .reads = {trn::HostSpan(a.row, std::int64_t{a.m} + 1), trn::HostSpan(a.col, a.nnz)}};
  return run_on_host(h, fn, kArrays, step, [&] {
    sp::IncompleteAnalysis fresh = sp::analyze_incomplete(kind, a.m, a.nnz, a.row, a.col, a.val, value,
                                                          index_base(a.descr->base), policy == 1);
    a.info->zero = fresh.structural_zero;
    a.info->a = std::move(fresh);
    a.info->analyzed = true;
    a.info->base = a.descr->base;
  });
}

trnsparseStatus_t factor(trnsparseHandle_t h, const char* fn, sp::Value value, const Args& a, int policy,
                         const sp::PivotBoost& boost) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!incomplete_checks(c, a).one_of(policy, {0, 1}, 8, "policy")) return c.status();
  // The info must hold the analysis of this size, value type and index base (its pattern is used).
  const sp::IncompleteAnalysis& an = a.info->a;
  if (!c.require(a.info->analyzed && an.n == a.m && an.nnz == a.nnz && an.lower.value == value &&
                     a.info->base == a.descr->base,
                 7, "info"))
    return c.status();
  return run(h, fn, kArrays, [&] {
    sp::CallReport r;
    const std::int64_t row = sp::incomplete_factor(h->settings, an, value, const_cast<void*>(a.val), boost, &r);
    store_profile(h, r);
    a.info->zero = row;
  });
}

trnsparseStatus_t zero_pivot(trnsparseHandle_t h, const char* fn, const IncompleteInfo* info, int* position) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!c.require(info != nullptr, 1, "info").not_null(position, 2, "position")) return c.status();
  if (info->zero < 0) {
    *position = -1;
    return TRNSPARSE_STATUS_SUCCESS;
  }
  *position = static_cast<int>(info->zero + info->base);
  return TRNSPARSE_STATUS_ZERO_PIVOT;
}

template <class T>
trnsparseStatus_t numeric_boost(trnsparseHandle_t h, const char* fn, csrilu02Info* info, int enable, const double* tol,
                                const T* value) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.require(g_ilu_infos.contains(info), 1, "info");
  if (!c.require(enable == 0 || tol != nullptr, 3, "tol").require(enable == 0 || value != nullptr, 4, "boost_val"))
    return c.status();
  info->boost = {};
  if (enable != 0) info->boost = {true, *tol, sp::Scalar(*trn::cshim::as_cpp(value))};
  return TRNSPARSE_STATUS_SUCCESS;
}

IncompleteInfo* live(csric02Info_t info) { return g_ic_infos.contains(info) ? info : nullptr; }
IncompleteInfo* live(csrilu02Info_t info) { return g_ilu_infos.contains(info) ? info : nullptr; }
sp::PivotBoost boost_of(csric02Info_t) { return {}; }
sp::PivotBoost boost_of(csrilu02Info_t info) { return info->boost; }  // after incomplete_checks: live

}  // namespace

extern "C" {

trnsparseStatus_t trnsparseCreateCsric02Info(csric02Info_t* info) {
  return trn::cshim::create_registered(g_ic_infos, info, TRNSPARSE_STATUS_INVALID_VALUE, TRNSPARSE_STATUS_ALLOC_FAILED,
                                       TRNSPARSE_STATUS_SUCCESS);
}
trnsparseStatus_t trnsparseDestroyCsric02Info(csric02Info_t info) {
  return g_ic_infos.destroy(info) ? TRNSPARSE_STATUS_SUCCESS : TRNSPARSE_STATUS_INVALID_VALUE;
}
trnsparseStatus_t trnsparseCreateCsrilu02Info(csrilu02Info_t* info) {
  return trn::cshim::create_registered(g_ilu_infos, info, TRNSPARSE_STATUS_INVALID_VALUE, TRNSPARSE_STATUS_ALLOC_FAILED,
                                       TRNSPARSE_STATUS_SUCCESS);
}
trnsparseStatus_t trnsparseDestroyCsrilu02Info(csrilu02Info_t info) {
  return g_ilu_infos.destroy(info) ? TRNSPARSE_STATUS_SUCCESS : TRNSPARSE_STATUS_INVALID_VALUE;
}
trnsparseStatus_t trnsparseXcsric02_zeroPivot(trnsparseHandle_t h, csric02Info_t info, int* position) {
  return zero_pivot(h, "trnsparseXcsric02_zeroPivot", live(info), position);
}
trnsparseStatus_t trnsparseXcsrilu02_zeroPivot(trnsparseHandle_t h, csrilu02Info_t info, int* position) {
  return zero_pivot(h, "trnsparseXcsrilu02_zeroPivot", live(info), position);
}

// The S / D / C / Z entry points of one family (F: csric02 or csrilu02, K its sp::Incomplete).
#define TRNSPARSE_INCOMPLETE(X, T, F, K)                                                                              \
  trnsparseStatus_t trnsparse##X##F##_bufferSize(trnsparseHandle_t h, int m, int nnz, const trnsparseMatDescr_t d,      \
                                                 T* val, const int* row, const int* col, F##Info_t info,               \
                                                 int* pBufferSizeInBytes) {                                            \
    return buffer_size(h, "trnsparse" #X #F "_bufferSize", Args{m, nnz, d, val, row, col, live(info)},                 \
                       pBufferSizeInBytes);                                                                            \
  }                                                                                                                    \
  trnsparseStatus_t trnsparse##X##F##_bufferSizeExt(trnsparseHandle_t h, int m, int nnz, const trnsparseMatDescr_t d,   \
                                                    T* val, const int* row, const int* col, F##Info_t info,            \
                                                    size_t* pBufferSize) {                                             \
    return buffer_size(h, "trnsparse" #X #F "_bufferSizeExt", Args{m, nnz, d, val, row, col, live(info)}, pBufferSize); \
  }                                                                                                                    \
  trnsparseStatus_t trnsparse##X##F##_analysis(trnsparseHandle_t h, int m, int nnz, const trnsparseMatDescr_t d,       \
                                               const T* val, const int* row, const int* col, F##Info_t info,           \
                                               trnsparseSolvePolicy_t policy, void*) {                                 \
    return analysis(h, "trnsparse" #X #F "_analysis", K, value_of<T>(), Args{m, nnz, d, val, row, col, live(info)},    \
                    enum_value(policy));                                                                               \
  }                                                                                                                    \
  trnsparseStatus_t trnsparse##X##F(trnsparseHandle_t h, int m, int nnz, const trnsparseMatDescr_t d, T* val,          \
                                    const int* row, const int* col, F##Info_t info, trnsparseSolvePolicy_t policy,     \
                                    void*) {                                                                           \
    IncompleteInfo* in = live(info);                                                                                   \
    return factor(h, "trnsparse" #X #F, value_of<T>(), Args{m, nnz, d, val, row, col, in}, enum_value(policy),         \
                  in != nullptr ? boost_of(info) : sp::PivotBoost{});                                                  \
  }
#define TRNSPARSE_INCOMPLETE_TYPES(X, T)                                                                          \
  TRNSPARSE_INCOMPLETE(X, T, csric02, sp::Incomplete::ic0)                                                        \
  TRNSPARSE_INCOMPLETE(X, T, csrilu02, sp::Incomplete::ilu0)                                                      \
  trnsparseStatus_t trnsparse##X##csrilu02_numericBoost(trnsparseHandle_t h, csrilu02Info_t info, int enable_boost, \
                                                        double* tol, T* boost_val) {                                \
    return numeric_boost<T>(h, "trnsparse" #X "csrilu02_numericBoost", info, enable_boost, tol, boost_val);         \
  }
TRNSPARSE_INCOMPLETE_TYPES(S, float)
TRNSPARSE_INCOMPLETE_TYPES(D, double)
TRNSPARSE_INCOMPLETE_TYPES(C, trnComplex)
TRNSPARSE_INCOMPLETE_TYPES(Z, trnDoubleComplex)
#undef TRNSPARSE_INCOMPLETE_TYPES
#undef TRNSPARSE_INCOMPLETE

}  // extern "C"
