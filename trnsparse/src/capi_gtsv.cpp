// trnsparse C shim: the tridiagonal and pentadiagonal solvers (gtsv2, gtsv2_nopivot,
// gtsv2StridedBatch, gtsvInterleavedBatch, gpsvInterleavedBatch and their _bufferSizeExt) in S, D,
// C and Z over trn/sparse/banded.hpp. The buffer is never used (any size, NULL included); the
// query returns kBufferBytes.
#include <complex>

#include "capi_internal.hpp"
#include "trn/sparse/banded.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

namespace {

// One call's arguments after the shape checks: the systems and how to solve them.
struct Solve {
  const char* routine;
  sp::BandedAlgo algo;
  sp::BandedSystems b;
};

trnsparseStatus_t execute(trnsparseHandle_t h, const char* fn, const Solve& s) {
  std::string pivot;
  const trnsparseStatus_t st = run(h, fn, {}, [&] {
    sp::CallReport r;
    try {
      sp::banded_solve(h->settings, s.routine, s.algo, s.b, &r);
    } catch (const sp::ZeroPivot& e) {
      pivot = e.what();
      return;
    }
    store_profile(h, r);
  });
  if (pivot.empty() || st != TRNSPARSE_STATUS_SUCCESS) return st;
  g_log.log(trn::cshim::failure_message(fn, "TRNSPARSE_STATUS_ZERO_PIVOT", pivot + " (nothing written)"));
  return TRNSPARSE_STATUS_ZERO_PIVOT;
}

// A bufferSizeExt call (on) with its output, or a solve (off).
struct Query {
  bool on = false;
  size_t* size = nullptr;
};
// Ends the argument chain: a query is answered here (false, *st its status); a solve goes on (true).
bool proceed(Check& c, Query q, int pos, const char* name, trnsparseStatus_t* st) {
  if (q.on && c.not_null(q.size, pos, name)) *q.size = kBufferBytes;
  *st = c.status();
  return !q.on && static_cast<bool>(c);
}

// gtsv2 / gtsv2_nopivot (buffer query when `size` is set): m >= 3 (cuSPARSE), n >= 0, ldb >= max(1, m).
template <class T>
trnsparseStatus_t gtsv2(trnsparseHandle_t h, const char* fn, bool pivot, int m, int n, const T* dl, const T* d,
                        const T* du, const T* B, int ldb, Query q) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.require(m >= 3, 1, "m").nonnegative(n, 2, "n").not_null(dl, 3, "dl").not_null(d, 4, "d").not_null(du, 5, "du");
  c.require(B != nullptr || n == 0, 6, "B").leading_dim(ldb, m, 7, "ldb");
  trnsparseStatus_t st{};
  if (!proceed(c, q, 8, "bufferSizeInBytes", &st)) return st;
  sp::BandedSystems b{value_of<T>(), 1, m, n, {dl, d, du}, 1, 0, const_cast<T*>(B), 1, ldb};
  return execute(h, fn, {pivot ? "gtsv2" : "gtsv2_nopivot", pivot ? sp::BandedAlgo::lu_pivot : sp::BandedAlgo::no_pivot, b});
}

// gtsv2StridedBatch: m >= 3, batchCount >= 0, batchStride >= m.
template <class T>
trnsparseStatus_t strided(trnsparseHandle_t h, const char* fn, int m, const T* dl, const T* d, const T* du, const T* x,
                          int batchCount, int batchStride, Query q) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.require(m >= 3, 1, "m").not_null(dl, 2, "dl").not_null(d, 3, "d").not_null(du, 4, "du").not_null(x, 5, "x");
  c.nonnegative(batchCount, 6, "batchCount").require(batchStride >= m, 7, "batchStride");
  trnsparseStatus_t st{};
  if (!proceed(c, q, 8, "bufferSizeInBytes", &st)) return st;
  sp::BandedSystems b{value_of<T>(), 1, m, batchCount, {dl, d, du}, 1, batchStride, const_cast<T*>(x), 1, batchStride};
  return execute(h, fn, {"gtsv2StridedBatch", sp::BandedAlgo::no_pivot, b});
}

// gtsvInterleavedBatch (half 1: dl d du) and gpsvInterleavedBatch (half 2: ds dl d du dw); element i
// of system k at [i batchCount + k]. algo: gtsv 0 Thomas, 1 LU with pivoting, 2 QR; gpsv 0 QR.
template <class T>
trnsparseStatus_t interleaved(trnsparseHandle_t h, const char* fn, int half, int algo, int m, std::array<const T*, 5> bands,
                              const T* x, int batchCount, Query q) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  const int nb = 2 * half + 1;
  if (half == 1) c.one_of(algo, {0, 1, 2}, 1, "algo");
  else c.one_of(algo, {0}, 1, "algo");
  c.require(m >= 1, 2, "m");
  static constexpr const char* kNames[2][5] = {{"dl", "d", "du", "", ""}, {"ds", "dl", "d", "du", "dw"}};
  for (int k = 0; k < nb; ++k) c.not_null(bands[static_cast<std::size_t>(k)], 3 + k, kNames[half - 1][k]);
  c.not_null(x, 3 + nb, "x").nonnegative(batchCount, 4 + nb, "batchCount");
  trnsparseStatus_t st{};
  if (!proceed(c, q, 5 + nb, "pBufferSizeInBytes", &st)) return st;
  sp::BandedSystems b{value_of<T>(), half, m, batchCount, {}, batchCount, 1, const_cast<T*>(x), batchCount, 1};
  for (int k = 0; k < nb; ++k) b.band[static_cast<std::size_t>(k)] = bands[static_cast<std::size_t>(k)];
  const sp::BandedAlgo a = half == 2 || algo == 2 ? sp::BandedAlgo::qr_givens
                           : algo == 1           ? sp::BandedAlgo::lu_pivot
                                                 : sp::BandedAlgo::no_pivot;
  return execute(h, fn, {half == 1 ? "gtsvInterleavedBatch" : "gpsvInterleavedBatch", a, b});
}

}  // namespace

// S / D / C / Z entry points of each family (C types of trnsparse.h; the template does the rest).
#define TRNSPARSE_GTSV2(X, T)                                                                                        \
  trnsparseStatus_t trnsparse##X##gtsv2_bufferSizeExt(trnsparseHandle_t h, int m, int n, const T* dl, const T* d,      \
                                                      const T* du, const T* B, int ldb, size_t* bufferSizeInBytes) { \
    return gtsv2<T>(h, "trnsparse" #X "gtsv2_bufferSizeExt", true, m, n, dl, d, du, B, ldb,                          \
                    Query{true, bufferSizeInBytes});                                \
  }                                                                                                                  \
  trnsparseStatus_t trnsparse##X##gtsv2(trnsparseHandle_t h, int m, int n, const T* dl, const T* d, const T* du, T* B, \
                                        int ldb, void*) {                                                            \
    return gtsv2<T>(h, "trnsparse" #X "gtsv2", true, m, n, dl, d, du, B, ldb, Query{});                              \
  }                                                                                                                  \
  trnsparseStatus_t trnsparse##X##gtsv2_nopivot_bufferSizeExt(trnsparseHandle_t h, int m, int n, const T* dl,          \
                                                              const T* d, const T* du, const T* B, int ldb,          \
                                                              size_t* bufferSizeInBytes) {                           \
    return gtsv2<T>(h, "trnsparse" #X "gtsv2_nopivot_bufferSizeExt", false, m, n, dl, d, du, B, ldb,                 \
                    Query{true, bufferSizeInBytes});                                \
  }                                                                                                                  \
  trnsparseStatus_t trnsparse##X##gtsv2_nopivot(trnsparseHandle_t h, int m, int n, const T* dl, const T* d,            \
                                                const T* du, T* B, int ldb, void*) {                                 \
    return gtsv2<T>(h, "trnsparse" #X "gtsv2_nopivot", false, m, n, dl, d, du, B, ldb, Query{});                     \
  }                                                                                                                  \
  trnsparseStatus_t trnsparse##X##gtsv2StridedBatch_bufferSizeExt(trnsparseHandle_t h, int m, const T* dl, const T* d, \
                                                                  const T* du, const T* x, int batchCount,           \
                                                                  int batchStride, size_t* bufferSizeInBytes) {      \
    return strided<T>(h, "trnsparse" #X "gtsv2StridedBatch_bufferSizeExt", m, dl, d, du, x, batchCount, batchStride, \
                      Query{true, bufferSizeInBytes});                              \
  }                                                                                                                  \
  trnsparseStatus_t trnsparse##X##gtsv2StridedBatch(trnsparseHandle_t h, int m, const T* dl, const T* d, const T* du,  \
                                                    T* x, int batchCount, int batchStride, void*) {                  \
    return strided<T>(h, "trnsparse" #X "gtsv2StridedBatch", m, dl, d, du, x, batchCount, batchStride, Query{});     \
  }                                                                                                                  \
  trnsparseStatus_t trnsparse##X##gtsvInterleavedBatch_bufferSizeExt(trnsparseHandle_t h, int algo, int m,             \
                                                                     const T* dl, const T* d, const T* du, const T* x, \
                                                                     int batchCount, size_t* pBufferSizeInBytes) {   \
    return interleaved<T>(h, "trnsparse" #X "gtsvInterleavedBatch_bufferSizeExt", 1, algo, m, {dl, d, du}, x,       \
                          batchCount, Query{true, pBufferSizeInBytes});            \
  }                                                                                                                  \
  trnsparseStatus_t trnsparse##X##gtsvInterleavedBatch(trnsparseHandle_t h, int algo, int m, T* dl, T* d, T* du, T* x, \
                                                       int batchCount, void*) {                                      \
    return interleaved<T>(h, "trnsparse" #X "gtsvInterleavedBatch", 1, algo, m, {dl, d, du}, x, batchCount, Query{}); \
  }                                                                                                                  \
  trnsparseStatus_t trnsparse##X##gpsvInterleavedBatch_bufferSizeExt(trnsparseHandle_t h, int algo, int m,             \
                                                                     const T* ds, const T* dl, const T* d,           \
                                                                     const T* du, const T* dw, const T* x,           \
                                                                     int batchCount, size_t* pBufferSizeInBytes) {   \
    return interleaved<T>(h, "trnsparse" #X "gpsvInterleavedBatch_bufferSizeExt", 2, algo, m, {ds, dl, d, du, dw}, x, \
                          batchCount, Query{true, pBufferSizeInBytes});            \
  }                                                                                                                  \
  trnsparseStatus_t trnsparse##X##gpsvInterleavedBatch(trnsparseHandle_t h, int algo, int m, T* ds, T* dl, T* d,       \
                                                       T* du, T* dw, T* x, int batchCount, void*) {                  \
    return interleaved<T>(h, "trnsparse" #X "gpsvInterleavedBatch", 2, algo, m, {ds, dl, d, du, dw}, x, batchCount,  \
                          Query{});                                                                                  \
  }

extern "C" {
TRNSPARSE_GTSV2(S, float)
TRNSPARSE_GTSV2(D, double)
TRNSPARSE_GTSV2(C, trnComplex)
TRNSPARSE_GTSV2(Z, trnDoubleComplex)
}  // extern "C"
