// trnblas.h, gemvBatched / gemvStridedBatched (S, D, C, Z and the mixed HSH, HSS, TST, TSS forms, each
// also _64): y_b = alpha op(A_b) x_b + beta y_b for every b < batchCount, each entry one gemv of
// trn/blas/level12.hpp on the tile kernels, the entries' traces added up into one report.
//
// Checks in gemv's order (trans, m, n, lda, incx, incy), then batchCount, the strides (the byte offset
// of the last entry must be representable), alpha and beta, then — unless the call is a quick return
// (m, n or batchCount 0, or alpha 0 and beta 1) — every entry's pointers, before any entry is computed:
// on error nothing is written.
//
// Mixed forms: the 16-bit operands (binary16 for H, bfloat16 for T) widen exactly to fp32, the product
// is the fp32 gemv's, and a 16-bit y is rounded to nearest even once, after the update.
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "capi_internal.hpp"
#include "trn/blas/level12.hpp"
#include "trn/core/dtype.hpp"

namespace {

using blas_capi::arg_check;
using blas_capi::cpp;
using blas_capi::is_zero;
using blas_capi::matrix_addressable;
using blas_capi::vector_addressable;
using trn::blas::CallReport;
using trn::blas::Settings;
using trn::cshim::enum_value;

template <class T>
constexpr bool kNarrow = std::is_same_v<T, trnHalf> || std::is_same_v<T, trnBfloat16>;

float widen(trnHalf v) { return trn::f16_to_f32(v.x); }
float widen(trnBfloat16 v) { return trn::bf16_to_f32(v.x); }
trnHalf narrow_to(float f, const trnHalf*) { return trnFloat2Half_rn(f); }  // = trn::f32_to_f16_rne
trnBfloat16 narrow_to(float f, const trnBfloat16*) { return trnFloat2Bfloat16_rn(f); }  // = trn::f32_to_bf16_rne

// Where each argument sits (pointer arrays: A 5, lda 6, x 7, incx 8, beta 9, y 10, incy 11, batchCount 12;
// strided: A 5, lda 6, strideA 7, x 8, incx 9, stridex 10, beta 11, y 12, incy 13, stridey 14, batchCount 15).
struct Pos {
  int A, lda, x, incx, beta, y, incy, batch;
};
constexpr Pos kArrayPos{5, 6, 7, 8, 9, 10, 11, 12};
constexpr Pos kStridedPos{5, 6, 8, 9, 11, 12, 13, 15};

// Entry b's operands: from the pointer arrays, or base + b * stride elements.
template <class TA, class TY>
struct Operands {
  const TA* const* a_array = nullptr;
  const TA* const* x_array = nullptr;
  TY* const* y_array = nullptr;
  const TA* a = nullptr;
  const TA* x = nullptr;
  TY* y = nullptr;
  long long sa = 0, sx = 0, sy = 0;
  bool strided = false;
  template <class P>
  static P* at(P* base, long long stride, std::int64_t b) {
    return base == nullptr ? nullptr : base + b * stride;
  }
  const TA* A(std::int64_t b) const { return strided ? at(a, sa, b) : a_array == nullptr ? nullptr : a_array[b]; }
  const TA* X(std::int64_t b) const { return strided ? at(x, sx, b) : x_array == nullptr ? nullptr : x_array[b]; }
  TY* Y(std::int64_t b) const { return strided ? at(y, sy, b) : y_array == nullptr ? nullptr : y_array[b]; }
};

// Element i of a BLAS vector of len elements with increment inc (negative: from the far end).
inline std::int64_t elem(std::int64_t i, std::int64_t len, std::int64_t inc) {
  return inc > 0 ? i * inc : (len - 1 - i) * -inc;
}

// One entry: the C++ gemv on the stored types, or on fp32 copies of 16-bit operands.
template <class TA, class TS, class TY>
void gemv_entry(const Settings& s, int trans, std::int64_t m, std::int64_t n, const TS& alpha, const TA* A,
                std::int64_t lda, const TA* x, std::int64_t incx, const TS& beta, TY* y, std::int64_t incy,
                CallReport* rep) {
  const auto op = trans == TRNBLAS_OP_N ? trn::blas::Op::N : trn::blas::Op::T;
  if constexpr (!kNarrow<TA>) {
    if constexpr (std::is_floating_point_v<TS>)
      trn::blas::gemv(s, op, m, n, alpha, A, lda, x, incx, beta, y, incy, rep);
    else
      trn::blas::gemv(s, op, trans == TRNBLAS_OP_C, m, n, *cpp(&alpha), cpp(A), lda, cpp(x), incx, *cpp(&beta),
                      cpp(y), incy, rep);
  } else {
    const std::int64_t len_x = trans == TRNBLAS_OP_N ? n : m, len_y = trans == TRNBLAS_OP_N ? m : n;
    std::vector<float> a, xv;
    if (alpha != 0.0f) {  // alpha 0 reads neither A nor x
      a.resize(static_cast<std::size_t>(m * n));
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < m; ++i) a[static_cast<std::size_t>(j * m + i)] = widen(A[j * lda + i]);
      xv.resize(static_cast<std::size_t>(len_x));
      for (std::int64_t i = 0; i < len_x; ++i) xv[static_cast<std::size_t>(i)] = widen(x[elem(i, len_x, incx)]);
    }
    if constexpr (std::is_same_v<TY, float>) {
      trn::blas::gemv(s, op, m, n, alpha, a.data(), m, xv.data(), 1, beta, y, incy, rep);
    } else {
      std::vector<float> yv(static_cast<std::size_t>(len_y), 0.0f);  // beta 0 never reads y
      if (beta != 0.0f)
        for (std::int64_t i = 0; i < len_y; ++i) yv[static_cast<std::size_t>(i)] = widen(y[elem(i, len_y, incy)]);
      trn::blas::gemv(s, op, m, n, alpha, a.data(), m, xv.data(), 1, beta, yv.data(), 1, rep);
      for (std::int64_t i = 0; i < len_y; ++i) y[elem(i, len_y, incy)] = narrow_to(yv[static_cast<std::size_t>(i)], y);
    }
  }
}

template <class T>
bool is_one(const T& v) {
  if constexpr (std::is_arithmetic_v<T>)
    return v == T(1);
  else
    return v.x == 1 && v.y == 0;
}

// A stride whose last entry's byte offset is representable.
template <class T>
bool stride_ok(long long stride, std::int64_t batch) {
  if (stride == std::numeric_limits<long long>::min()) return false;
  const std::int64_t bytes = trn::cshim::checked_mul(stride < 0 ? -stride : stride, sizeof(T));
  return bytes >= 0 && trn::cshim::checked_mul(bytes, batch > 0 ? batch - 1 : 0) >= 0;
}

template <class I, class TA, class TS, class TY>
trnblasStatus_t gemv_batched(trnblasHandle_t h, const char* fn, const Pos& p, int trans, I m, I n, const TS* alpha,
                             I lda, I incx, const TS* beta, I incy, I batch, const Operands<TA, TY>& ops) {
  if (!blas_capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const std::int64_t len_x = trans == TRNBLAS_OP_N ? n : m, len_y = trans == TRNBLAS_OP_N ? m : n;
  auto chk = arg_check(h, fn);
  chk.require(trans == TRNBLAS_OP_N || trans == TRNBLAS_OP_T || trans == TRNBLAS_OP_C, 1, "trans")  // C = T on real data
      .nonnegative(m, 2, "m")
      .nonnegative(n, 3, "n")
      .leading_dim(lda, m, p.lda, "lda")
      .require(matrix_addressable(m, n, lda), p.lda, "lda")
      .require(incx != 0 && vector_addressable(len_x, incx), p.incx, "incx")
      .require(incy != 0 && vector_addressable(len_y, incy), p.incy, "incy")
      .nonnegative(batch, p.batch, "batchCount");
  if (ops.strided)
    chk.require(stride_ok<TA>(ops.sa, batch), p.A + 2, "strideA")
        .require(stride_ok<TA>(ops.sx, batch), p.x + 2, "stridex")
        .require(stride_ok<TY>(ops.sy, batch), p.y + 2, "stridey");
  chk.not_null(alpha, 4, "alpha").not_null(beta, p.beta, "beta");
  if (!chk) return chk.status();
  const bool quick = m == 0 || n == 0 || batch == 0 || (is_zero(*alpha) && is_one(*beta));
  if (quick) return blas_capi::run(h, fn, [](const Settings&, CallReport*) {});
  const bool reads = !is_zero(*alpha);
  for (I b = 0; b < batch && chk; ++b)
    chk.require(!reads || ops.A(b) != nullptr, p.A, "A").require(!reads || ops.X(b) != nullptr, p.x, "x")
        .not_null(ops.Y(b), p.y, "y");
  if (!chk) return chk.status();
  return blas_capi::run(h, fn, [&](const Settings& s, CallReport* rep) {
    blas_capi::Accumulate acc;
    for (I b = 0; b < batch; ++b) {
      CallReport one;
      one.plans_wanted = false;  // only the profile is kept (store_report): no plan text per entry
      gemv_entry<TA, TS, TY>(s, trans, m, n, *alpha, ops.A(b), lda, ops.X(b), incx, *beta, ops.Y(b), incy, &one);
      acc.add(one);
    }
    acc.store(s, rep);
  });
}

template <class I, class TA, class TS, class TY>
trnblasStatus_t arrays(trnblasHandle_t h, const char* fn, int trans, I m, I n, const TS* alpha,
                       const TA* const A[], I lda, const TA* const x[], I incx, const TS* beta, TY* const y[], I incy,
                       I batch) {
  Operands<TA, TY> ops;
  ops.a_array = A;
  ops.x_array = x;
  ops.y_array = y;
  return gemv_batched<I, TA, TS, TY>(h, fn, kArrayPos, trans, m, n, alpha, lda, incx, beta, incy, batch,
                                     ops);
}

template <class I, class TA, class TS, class TY>
trnblasStatus_t strided(trnblasHandle_t h, const char* fn, int trans, I m, I n, const TS* alpha,
                        const TA* A, I lda, long long sa, const TA* x, I incx, long long sx, const TS* beta, TY* y,
                        I incy, long long sy, I batch) {
  Operands<TA, TY> ops;
  ops.strided = true;
  ops.a = A;
  ops.x = x;
  ops.y = y;
  ops.sa = sa;
  ops.sx = sx;
  ops.sy = sy;
  return gemv_batched<I, TA, TS, TY>(h, fn, kStridedPos, trans, m, n, alpha, lda, incx, beta, incy, batch,
                                     ops);
}

}  // namespace

extern "C" {

#define TRNBLAS_GEMV_BATCHED(NAME, TA, TS, TY, SUF, I)                                                                \
  trnblasStatus_t trnblas##NAME##gemvBatched##SUF(trnblasHandle_t h, trnblasOperation_t trans, I m, I n,             \
                                                  const TS* alpha, const TA* const Aarray[], I lda,                  \
                                                  const TA* const xarray[], I incx, const TS* beta,                  \
                                                  TY* const yarray[], I incy, I batchCount) {                        \
    return arrays<I, TA, TS, TY>(h, "trnblas" #NAME "gemvBatched" #SUF, enum_value(trans), m, n, alpha, Aarray,     \
                                 lda, xarray, incx, beta, yarray, incy, batchCount);                                 \
  }                                                                                                                   \
  trnblasStatus_t trnblas##NAME##gemvStridedBatched##SUF(                                                             \
      trnblasHandle_t h, trnblasOperation_t trans, I m, I n, const TS* alpha, const TA* A, I lda, long long sa,       \
      const TA* x, I incx, long long sx, const TS* beta, TY* y, I incy, long long sy, I batchCount) {                 \
    return strided<I, TA, TS, TY>(h, "trnblas" #NAME "gemvStridedBatched" #SUF, enum_value(trans), m, n, alpha, A, \
                                  lda, sa, x, incx, sx, beta, y, incy, sy, batchCount);                              \
  }
#define TRNBLAS_GEMV_BATCHED_BOTH(NAME, TA, TS, TY) \
  TRNBLAS_GEMV_BATCHED(NAME, TA, TS, TY, , int)     \
  TRNBLAS_GEMV_BATCHED(NAME, TA, TS, TY, _64, int64_t)
TRNBLAS_GEMV_BATCHED_BOTH(S, float, float, float)
TRNBLAS_GEMV_BATCHED_BOTH(D, double, double, double)
TRNBLAS_GEMV_BATCHED_BOTH(C, trnComplex, trnComplex, trnComplex)
TRNBLAS_GEMV_BATCHED_BOTH(Z, trnDoubleComplex, trnDoubleComplex, trnDoubleComplex)
TRNBLAS_GEMV_BATCHED_BOTH(HSH, trnHalf, float, trnHalf)
TRNBLAS_GEMV_BATCHED_BOTH(HSS, trnHalf, float, float)
TRNBLAS_GEMV_BATCHED_BOTH(TST, trnBfloat16, float, trnBfloat16)
TRNBLAS_GEMV_BATCHED_BOTH(TSS, trnBfloat16, float, float)
#undef TRNBLAS_GEMV_BATCHED_BOTH
#undef TRNBLAS_GEMV_BATCHED

}  // extern "C"
