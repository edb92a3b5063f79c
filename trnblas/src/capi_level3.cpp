// trnblas.h, Level 3 beyond GEMM/SYRK: the C entry points of TRSM, TRMM, SYMM, SYR2K and SYRKX
// (S/D), and complex GEMM (Cgemm, Zgemm, Cgemm3m, Zgemm3m, C/ZgemmStridedBatched), each also
// _64, over trn/blas/level3.hpp. Same contract as capi.cpp: every argument is
// checked in reference-BLAS (XERBLA) order with its 1-based position logged, nothing is written
// when a check fails, exceptions become statuses, and the profile is stored on the handle.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "capi_internal.hpp"
#include "trn/blas/level3.hpp"
#include "trn/blas/modes.hpp"
#include "trnblas.h"

namespace {

namespace capi = blas_capi;
using trn::blas::Diag;
using trn::blas::Op;
using trn::blas::Side;
using trn::blas::Uplo;
using trn::cshim::enum_value;

bool op_ok(int op) { return op == TRNBLAS_OP_N || op == TRNBLAS_OP_T || op == TRNBLAS_OP_C; }
Op to_op(int op) { return op == TRNBLAS_OP_N ? Op::N : Op::T; }  // real data: C is T
Side to_side(int s) { return s == TRNBLAS_SIDE_LEFT ? Side::left : Side::right; }
Uplo to_uplo(int u) { return u == TRNBLAS_FILL_MODE_LOWER ? Uplo::lower : Uplo::upper; }
Diag to_diag(int d) { return d == TRNBLAS_DIAG_UNIT ? Diag::unit : Diag::non_unit; }
trn::blas::COp to_cop(int op);
bool complex_addressable(std::int64_t rows, std::int64_t cols, std::int64_t ld);
using blas_capi::is_zero;
template <class T>
bool extent_ok(std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  if constexpr (std::is_arithmetic_v<T>)
    return capi::addressable(rows, cols, ld);
  else
    return complex_addressable(rows, cols, ld);
}

template <class T>
constexpr bool kF64 = std::is_same_v<T, double>;

// TRSM / TRMM: side 1, uplo 2, trans 3, diag 4, m 5, n 6, alpha 7, A 8, lda 9, B 10, ldb 11
// (TRMM: C 12, ldc 13). has_c selects TRMM.
template <class I, class T>
trnblasStatus_t triangular(trnblasHandle_t h, const char* fn, bool has_c, int side, int uplo, int trans, int diag, I m,
                           I n, const T* alpha, const T* A, I lda, T* B_inout, const T* B, I ldb, T* C, I ldc) {
  if (!capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const std::int64_t order = side == TRNBLAS_SIDE_LEFT ? m : n;
  auto check = capi::arg_check(h, fn);
  check.one_of(side, {TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT}, 1, "side")
      .one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 2, "uplo")
      .require(op_ok(trans), 3, "trans")
      .one_of(diag, {TRNBLAS_DIAG_NON_UNIT, TRNBLAS_DIAG_UNIT}, 4, "diag")
      .nonnegative(m, 5, "m")
      .nonnegative(n, 6, "n")
      .leading_dim(lda, order, 9, "lda")
      .require(extent_ok<T>(order, order, lda), 9, "lda")
      .leading_dim(ldb, m, 11, "ldb")
      .require(extent_ok<T>(m, n, ldb), 11, "ldb");
  if (has_c) check.leading_dim(ldc, m, 13, "ldc").require(extent_ok<T>(m, n, ldc), 13, "ldc");
  check.not_null(alpha, 7, "alpha");
  if (check && m > 0 && n > 0) {
    const bool reads = !is_zero(*alpha);
    // TRSM's B is its output (written even when alpha == 0); TRMM reads B only when alpha != 0.
    check.require(!reads || A != nullptr, 8, "A").require((has_c && !reads) || B != nullptr, 10, "B");
    if (has_c) check.not_null(C, 12, "C");
  }
  if (!check) return check.status();
  if (m == 0 || n == 0) return TRNBLAS_STATUS_SUCCESS;
  const std::int64_t lda_k = capi::kernel_ld(lda, order, order), ldb_k = capi::kernel_ld(ldb, m, n);
  const std::int64_t ldc_k = has_c ? capi::kernel_ld(ldc, m, n) : 0;
  return capi::run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    const Side sd = to_side(side);
    const Uplo ul = to_uplo(uplo);
    const Op tr = to_op(trans);
    const Diag dg = to_diag(diag);
    if constexpr (std::is_same_v<T, trnComplex> || std::is_same_v<T, trnDoubleComplex>) {
      const trn::blas::COp ct = to_cop(trans);
      const auto al = *capi::cpp(alpha);
      if constexpr (std::is_same_v<T, trnDoubleComplex>) {
        if (has_c)
          trn::blas::ztrmm(s, sd, ul, ct, dg, m, n, al, capi::cpp(A), lda_k, capi::cpp(B), ldb_k, capi::cpp(C), ldc_k, r);
        else
          trn::blas::ztrsm(s, sd, ul, ct, dg, m, n, al, capi::cpp(A), lda_k, capi::cpp(B_inout), ldb_k, r);
      } else {
        const trn::blas::GemmMode mode = capi::fp32_mode(h);
        if (has_c)
          trn::blas::ctrmm(s, mode, sd, ul, ct, dg, m, n, al, capi::cpp(A), lda_k, capi::cpp(B), ldb_k, capi::cpp(C),
                           ldc_k, r);
        else
          trn::blas::ctrsm(s, mode, sd, ul, ct, dg, m, n, al, capi::cpp(A), lda_k, capi::cpp(B_inout), ldb_k, r);
      }
    } else if constexpr (kF64<T>) {
      if (has_c)
        trn::blas::dtrmm(s, sd, ul, tr, dg, m, n, *alpha, A, lda_k, B, ldb_k, C, ldc_k, r);
      else
        trn::blas::dtrsm(s, sd, ul, tr, dg, m, n, *alpha, A, lda_k, B_inout, ldb_k, r);
    } else {
      const trn::blas::GemmMode mode = capi::fp32_mode(h);
      if (has_c)
        trn::blas::strmm(s, mode, sd, ul, tr, dg, m, n, *alpha, A, lda_k, B, ldb_k, C, ldc_k, r);
      else
        trn::blas::strsm(s, mode, sd, ul, tr, dg, m, n, *alpha, A, lda_k, B_inout, ldb_k, r);
    }
  });
}

template <class I, class T>
trnblasStatus_t trsm(trnblasHandle_t h, const char* fn, int side, int uplo, int trans, int diag, I m, I n, const T* alpha,
                     const T* A, I lda, T* B, I ldb) {
  return triangular<I, T>(h, fn, false, side, uplo, trans, diag, m, n, alpha, A, lda, B, B, ldb, nullptr, I{0});
}

template <class I, class T>
trnblasStatus_t trmm(trnblasHandle_t h, const char* fn, int side, int uplo, int trans, int diag, I m, I n, const T* alpha,
                     const T* A, I lda, const T* B, I ldb, T* C, I ldc) {
  return triangular<I, T>(h, fn, true, side, uplo, trans, diag, m, n, alpha, A, lda, nullptr, B, ldb, C, ldc);
}

// SYMM: side 1, uplo 2, m 3, n 4, alpha 5, A 6, lda 7, B 8, ldb 9, beta 10, C 11, ldc 12.
template <class I, class T>
trnblasStatus_t symm(trnblasHandle_t h, const char* fn, int side, int uplo, I m, I n, const T* alpha, const T* A, I lda,
                     const T* B, I ldb, const T* beta, T* C, I ldc) {
  if (!capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const std::int64_t order = side == TRNBLAS_SIDE_LEFT ? m : n;
  auto check = capi::arg_check(h, fn);
  check.one_of(side, {TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT}, 1, "side")
      .one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 2, "uplo")
      .nonnegative(m, 3, "m")
      .nonnegative(n, 4, "n")
      .leading_dim(lda, order, 7, "lda")
      .require(capi::addressable(order, order, lda), 7, "lda")
      .leading_dim(ldb, m, 9, "ldb")
      .require(capi::addressable(m, n, ldb), 9, "ldb")
      .leading_dim(ldc, m, 12, "ldc")
      .require(capi::addressable(m, n, ldc), 12, "ldc")
      .not_null(alpha, 5, "alpha")
      .not_null(beta, 10, "beta");
  if (check && m > 0 && n > 0) {
    const bool reads = *alpha != T(0);
    check.require(!reads || A != nullptr, 6, "A").require(!reads || B != nullptr, 8, "B").not_null(C, 11, "C");
  }
  if (!check) return check.status();
  if (m == 0 || n == 0) return TRNBLAS_STATUS_SUCCESS;
  const std::int64_t lda_k = capi::kernel_ld(lda, order, order), ldb_k = capi::kernel_ld(ldb, m, n),
                     ldc_k = capi::kernel_ld(ldc, m, n);
  return capi::run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    if constexpr (kF64<T>)
      trn::blas::dsymm(s, to_side(side), to_uplo(uplo), m, n, *alpha, A, lda_k, B, ldb_k, *beta, C, ldc_k, r);
    else
      trn::blas::ssymm(s, capi::fp32_mode(h), to_side(side), to_uplo(uplo), m, n, *alpha, A, lda_k, B, ldb_k, *beta,
                       C, ldc_k, r);
  });
}

// SYR2K / SYRKX: uplo 1, trans 2, n 3, k 4, alpha 5, A 6, lda 7, B 8, ldb 9, beta 10, C 11, ldc 12.
template <class I, class T>
trnblasStatus_t rank2k(trnblasHandle_t h, const char* fn, bool syrkx, int uplo, int trans, I n, I k, const T* alpha,
                       const T* A, I lda, const T* B, I ldb, const T* beta, T* C, I ldc) {
  if (!capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const std::int64_t rows = trans == TRNBLAS_OP_N ? n : k, cols = trans == TRNBLAS_OP_N ? k : n;
  auto check = capi::arg_check(h, fn);
  check.one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 1, "uplo")
      .require(op_ok(trans), 2, "trans")
      .nonnegative(n, 3, "n")
      .nonnegative(k, 4, "k")
      .leading_dim(lda, rows, 7, "lda")
      .require(capi::addressable(rows, cols, lda), 7, "lda")
      .leading_dim(ldb, rows, 9, "ldb")
      .require(capi::addressable(rows, cols, ldb), 9, "ldb")
      .leading_dim(ldc, n, 12, "ldc")
      .require(capi::addressable(n, n, ldc), 12, "ldc")
      .not_null(alpha, 5, "alpha")
      .not_null(beta, 10, "beta");
  if (check && n > 0) {
    const bool reads = *alpha != T(0) && k > 0;
    check.require(!reads || A != nullptr, 6, "A").require(!reads || B != nullptr, 8, "B").not_null(C, 11, "C");
  }
  if (!check) return check.status();
  if (n == 0) return TRNBLAS_STATUS_SUCCESS;
  const std::int64_t lda_k = capi::kernel_ld(lda, rows, cols), ldb_k = capi::kernel_ld(ldb, rows, cols),
                     ldc_k = capi::kernel_ld(ldc, n, n);
  return capi::run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    const Uplo ul = to_uplo(uplo);
    const Op tr = to_op(trans);
    if constexpr (kF64<T>) {
      if (syrkx)
        trn::blas::dsyrkx(s, ul, tr, n, k, *alpha, A, lda_k, B, ldb_k, *beta, C, ldc_k, r);
      else
        trn::blas::dsyr2k(s, ul, tr, n, k, *alpha, A, lda_k, B, ldb_k, *beta, C, ldc_k, r);
    } else {
      const trn::blas::GemmMode mode = capi::fp32_mode(h);
      if (syrkx)
        trn::blas::ssyrkx(s, mode, ul, tr, n, k, *alpha, A, lda_k, B, ldb_k, *beta, C, ldc_k, r);
      else
        trn::blas::ssyr2k(s, mode, ul, tr, n, k, *alpha, A, lda_k, B, ldb_k, *beta, C, ldc_k, r);
    }
  });
}

// Complex GEMM: transa 1, transb 2, m 3, n 4, k 5, alpha 6, A 7, lda 8, B 9, ldb 10, beta 11, C 12,
// ldc 13; strided batches: A 7, lda 8, strideA 9, B 10, ldb 11, strideB 12, beta 13, C 14, ldc 15,
// strideC 16, batchCount 17 (strided == true). Checks in that order as far as the reference BLAS
// defines one (ops, sizes, leading dimensions), then alpha/beta, strides, batchCount and pointers.
// A complex (rows x cols, ld) operand spans an addressable extent: as a real (2 rows x cols, 2 ld)
// one, without overflow in the doubling.
bool complex_addressable(std::int64_t rows, std::int64_t cols, std::int64_t ld) {  // NOLINT(misc-use-internal-linkage)
  constexpr std::int64_t kHalf = std::numeric_limits<std::int64_t>::max() / 2;
  return rows <= kHalf && ld <= kHalf && capi::addressable(2 * rows, cols, 2 * ld);
}

bool complex_op_ok(int op) { return op == TRNBLAS_OP_N || op == TRNBLAS_OP_T || op == TRNBLAS_OP_C; }
trn::blas::COp to_cop(int op) {  // NOLINT(misc-use-internal-linkage): declared above
  return op == TRNBLAS_OP_N ? trn::blas::COp::N : op == TRNBLAS_OP_T ? trn::blas::COp::T : trn::blas::COp::C;
}

template <class I, class Cx>
trnblasStatus_t complex_gemm(trnblasHandle_t h, const char* fn, trn::blas::ComplexAlgo algo, bool strided, int ta,
                             int tb, I m, I n, I k, const Cx* alpha, const Cx* A, I lda, long long sa, const Cx* B,
                             I ldb, long long sb, const Cx* beta, Cx* C, I ldc, long long sc, I batch,
                             const Cx* const* A_array = nullptr, const Cx* const* B_array = nullptr,
                             Cx* const* C_array = nullptr, bool arrays = false) {
  if (!capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  using R = decltype(Cx{}.x);
  using Std = std::complex<R>;
  const int p = strided ? 1 : 0;  // strided signatures have strideA after lda, strideB after ldb
  const std::int64_t rows_a = ta == TRNBLAS_OP_N ? m : k, cols_a = ta == TRNBLAS_OP_N ? k : m;
  const std::int64_t rows_b = tb == TRNBLAS_OP_N ? k : n, cols_b = tb == TRNBLAS_OP_N ? n : k;
  auto check = capi::arg_check(h, fn);
  check.require(complex_op_ok(ta), 1, "transa")
      .require(complex_op_ok(tb), 2, "transb")
      .nonnegative(m, 3, "m")
      .nonnegative(n, 4, "n")
      .nonnegative(k, 5, "k")
      .leading_dim(lda, rows_a, 8, "lda")
      .require(complex_addressable(rows_a, cols_a, lda), 8, "lda")
      .leading_dim(ldb, rows_b, 10 + p, "ldb")
      .require(complex_addressable(rows_b, cols_b, ldb), 10 + p, "ldb")
      .leading_dim(ldc, m, 13 + 2 * p, "ldc")
      .require(complex_addressable(m, n, ldc), 13 + 2 * p, "ldc")
      .not_null(alpha, 6, "alpha")
      .not_null(beta, 11 + 2 * p, "beta");
  // A stride no buffer can have (its byte offset for the last entry overflows) is illegal.
  const std::int64_t last = batch > 0 ? static_cast<std::int64_t>(batch) - 1 : 0;
  auto stride_ok = [&](long long st) {
    if (st == std::numeric_limits<long long>::min()) return false;  // |stride| is not representable
    const std::int64_t bytes = trn::cshim::checked_mul(st < 0 ? -st : st, static_cast<std::int64_t>(sizeof(Cx)));
    return bytes >= 0 && trn::cshim::checked_mul(bytes, last) >= 0;
  };
  if (strided)
    check.require(stride_ok(sa), 9, "strideA").require(stride_ok(sb), 12, "strideB").require(stride_ok(sc), 16, "strideC")
        .nonnegative(batch, 17, "batchCount");
  if (arrays) check.nonnegative(batch, 14, "batchCount");
  if (check && m > 0 && n > 0 && batch > 0) {
    const bool reads = (alpha->x != R(0) || alpha->y != R(0)) && k > 0;
    if (arrays) {  // a NULL array reads as NULL entries; every entry is checked before any is computed
      for (I b = 0; b < batch && check; ++b)
        check.require(!reads || (A_array != nullptr && A_array[b] != nullptr), 7, "Aarray")
            .require(!reads || (B_array != nullptr && B_array[b] != nullptr), 9, "Barray")
            .require(C_array != nullptr && C_array[b] != nullptr, 12, "Carray");
    } else {
      check.require(!reads || A != nullptr, 7, "A").require(!reads || B != nullptr, 9 + p, "B").not_null(C, 12 + 2 * p, "C");
    }
  }
  if (!check) return check.status();
  if (m == 0 || n == 0 || batch == 0) return TRNBLAS_STATUS_SUCCESS;
  const std::int64_t lda_k = capi::kernel_ld(lda, rows_a, cols_a), ldb_k = capi::kernel_ld(ldb, rows_b, cols_b),
                     ldc_k = capi::kernel_ld(ldc, m, n);
  return capi::run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    const Std al(alpha->x, alpha->y), be(beta->x, beta->y);
    trn::Trace trace;
    trn::blas::CallReport one;
    one.plans_wanted = false;  // only the profile is kept (store_report): no plan text per entry
    for (I b = 0; b < batch; ++b) {
      const Cx* ab = arrays ? (A_array == nullptr ? nullptr : A_array[b]) : A;
      const Cx* bp = arrays ? (B_array == nullptr ? nullptr : B_array[b]) : B;
      Cx* cp = arrays ? C_array[b] : C;
      const long long step = arrays ? 0 : 1;
      const Std* a = ab == nullptr ? nullptr : reinterpret_cast<const Std*>(ab) + step * b * sa;
      const Std* bb = bp == nullptr ? nullptr : reinterpret_cast<const Std*>(bp) + step * b * sb;
      Std* c = reinterpret_cast<Std*>(cp) + step * b * sc;
      if constexpr (std::is_same_v<R, double>)
        trn::blas::zgemm(s, algo, to_cop(ta), to_cop(tb), m, n, k, al, a, lda_k, bb, ldb_k, be, c, ldc_k, &one);
      else
        trn::blas::cgemm(s, capi::fp32_mode(h), algo, to_cop(ta), to_cop(tb), m, n, k, al, a, lda_k, bb, ldb_k, be, c,
                         ldc_k, &one);
      trace.append(one.trace);
      r->ozaki_mantissa_bits = one.ozaki_mantissa_bits;
    }
    r->finish(s, std::move(trace));
  });
}

}  // namespace

// One C entry point and its _64 twin per routine and precision. Enum parameters are read as the
// caller's int bits (enum_value): copying an enum object that holds an undeclared value is UB.
#define EV(x) enum_value(x)
#define TRNBLAS_L3_TRSM(NAME, T)                                                                                    \
  trnblasStatus_t NAME(trnblasHandle_t h, trnblasSideMode_t side, trnblasFillMode_t uplo, trnblasOperation_t trans, \
                       trnblasDiagType_t diag, int m, int n, const T* alpha, const T* A, int lda, T* B, int ldb) {  \
    return trsm<int, T>(h, #NAME, EV(side), EV(uplo), EV(trans), EV(diag), m, n, alpha, A, lda, B, ldb);                            \
  }                                                                                                                 \
  trnblasStatus_t NAME##_64(trnblasHandle_t h, trnblasSideMode_t side, trnblasFillMode_t uplo,                      \
                            trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n, const T* alpha, \
                            const T* A, int64_t lda, T* B, int64_t ldb) {                                           \
    return trsm<int64_t, T>(h, #NAME "_64", EV(side), EV(uplo), EV(trans), EV(diag), m, n, alpha, A, lda, B, ldb);                  \
  }
#define TRNBLAS_L3_TRMM(NAME, T)                                                                                     \
  trnblasStatus_t NAME(trnblasHandle_t h, trnblasSideMode_t side, trnblasFillMode_t uplo, trnblasOperation_t trans,  \
                       trnblasDiagType_t diag, int m, int n, const T* alpha, const T* A, int lda, const T* B, int ldb, \
                       T* C, int ldc) {                                                                              \
    return trmm<int, T>(h, #NAME, EV(side), EV(uplo), EV(trans), EV(diag), m, n, alpha, A, lda, B, ldb, C, ldc);                     \
  }                                                                                                                  \
  trnblasStatus_t NAME##_64(trnblasHandle_t h, trnblasSideMode_t side, trnblasFillMode_t uplo,                       \
                            trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n, const T* alpha,  \
                            const T* A, int64_t lda, const T* B, int64_t ldb, T* C, int64_t ldc) {                   \
    return trmm<int64_t, T>(h, #NAME "_64", EV(side), EV(uplo), EV(trans), EV(diag), m, n, alpha, A, lda, B, ldb, C, \
                            ldc);           \
  }
#define TRNBLAS_L3_SYMM(NAME, T)                                                                                    \
  trnblasStatus_t NAME(trnblasHandle_t h, trnblasSideMode_t side, trnblasFillMode_t uplo, int m, int n,             \
                       const T* alpha, const T* A, int lda, const T* B, int ldb, const T* beta, T* C, int ldc) {    \
    return symm<int, T>(h, #NAME, EV(side), EV(uplo), m, n, alpha, A, lda, B, ldb, beta, C, ldc);                           \
  }                                                                                                                 \
  trnblasStatus_t NAME##_64(trnblasHandle_t h, trnblasSideMode_t side, trnblasFillMode_t uplo, int64_t m,           \
                            int64_t n, const T* alpha, const T* A, int64_t lda, const T* B, int64_t ldb,            \
                            const T* beta, T* C, int64_t ldc) {                                                     \
    return symm<int64_t, T>(h, #NAME "_64", EV(side), EV(uplo), m, n, alpha, A, lda, B, ldb, beta, C, ldc);                 \
  }
#define TRNBLAS_L3_RANK2K(NAME, T, SYRKX)                                                                           \
  trnblasStatus_t NAME(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans, int n, int k,           \
                       const T* alpha, const T* A, int lda, const T* B, int ldb, const T* beta, T* C, int ldc) {    \
    return rank2k<int, T>(h, #NAME, SYRKX, EV(uplo), EV(trans), n, k, alpha, A, lda, B, ldb, beta, C, ldc);                 \
  }                                                                                                                 \
  trnblasStatus_t NAME##_64(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,         \
                            int64_t k, const T* alpha, const T* A, int64_t lda, const T* B, int64_t ldb,            \
                            const T* beta, T* C, int64_t ldc) {                                                     \
    return rank2k<int64_t, T>(h, #NAME "_64", SYRKX, EV(uplo), EV(trans), n, k, alpha, A, lda, B, ldb, beta, C, ldc);       \
  }

#define TRNBLAS_L3_CGEMM(NAME, Cx, ALGO)                                                                            \
  trnblasStatus_t NAME(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m, int n, int k,        \
                       const Cx* alpha, const Cx* A, int lda, const Cx* B, int ldb, const Cx* beta, Cx* C, int ldc) { \
    return complex_gemm<int, Cx>(h, #NAME, ALGO, false, EV(ta), EV(tb), m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, \
                                 ldc, 0, 1);                                                                                \
  }                                                                                                                 \
  trnblasStatus_t NAME##_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int64_t m, int64_t n,  \
                            int64_t k, const Cx* alpha, const Cx* A, int64_t lda, const Cx* B, int64_t ldb,         \
                            const Cx* beta, Cx* C, int64_t ldc) {                                                   \
    return complex_gemm<int64_t, Cx>(h, #NAME "_64", ALGO, false, EV(ta), EV(tb), m, n, k, alpha, A, lda, 0, B, ldb, 0, \
                                     beta, C, ldc, 0, 1);                                                                 \
  }
#define TRNBLAS_L3_CGEMM_STRIDED(NAME, Cx) TRNBLAS_L3_CGEMM_STRIDED_ALGO(NAME, Cx, four_m)
#define TRNBLAS_L3_CGEMM_STRIDED_ALGO(NAME, Cx, ALGO)                                                               \
  trnblasStatus_t NAME(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m, int n, int k,        \
                       const Cx* alpha, const Cx* A, int lda, long long sa, const Cx* B, int ldb, long long sb,     \
                       const Cx* beta, Cx* C, int ldc, long long sc, int batchCount) {                              \
    return complex_gemm<int, Cx>(h, #NAME, trn::blas::ComplexAlgo::ALGO, true, EV(ta), EV(tb), m, n, k, alpha, A, lda, \
                                 sa, B, ldb, sb, beta, C, ldc, sc, batchCount);                                         \
  }                                                                                                                 \
  trnblasStatus_t NAME##_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int64_t m, int64_t n,  \
                            int64_t k, const Cx* alpha, const Cx* A, int64_t lda, long long sa, const Cx* B,        \
                            int64_t ldb, long long sb, const Cx* beta, Cx* C, int64_t ldc, long long sc,            \
                            int64_t batchCount) {                                                                   \
    return complex_gemm<int64_t, Cx>(h, #NAME "_64", trn::blas::ComplexAlgo::ALGO, true, EV(ta), EV(tb), m, n, k, \
                                     alpha, A, lda, sa, B, ldb, sb, beta, C, ldc, sc, batchCount);                            \
  }

#define TRNBLAS_L3_CGEMM_BATCHED(NAME, Cx) TRNBLAS_L3_CGEMM_BATCHED_ALGO(NAME, Cx, four_m)
#define TRNBLAS_L3_CGEMM_BATCHED_ALGO(NAME, Cx, ALGO)                                                               \
  trnblasStatus_t NAME(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m, int n, int k,        \
                       const Cx* alpha, const Cx* const Aarray[], int lda, const Cx* const Barray[], int ldb,       \
                       const Cx* beta, Cx* const Carray[], int ldc, int batchCount) {                               \
    return complex_gemm<int, Cx>(h, #NAME, trn::blas::ComplexAlgo::ALGO, false, EV(ta), EV(tb), m, n, k, alpha,   \
                                 nullptr, lda, 0, nullptr, ldb, 0, beta, nullptr, ldc, 0, batchCount, Aarray,       \
                                 Barray, Carray, true);                                                             \
  }                                                                                                                 \
  trnblasStatus_t NAME##_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int64_t m, int64_t n,  \
                            int64_t k, const Cx* alpha, const Cx* const Aarray[], int64_t lda,                      \
                            const Cx* const Barray[], int64_t ldb, const Cx* beta, Cx* const Carray[], int64_t ldc, \
                            int64_t batchCount) {                                                                   \
    return complex_gemm<int64_t, Cx>(h, #NAME "_64", trn::blas::ComplexAlgo::ALGO, false, EV(ta), EV(tb), m, n,   \
                                     k, alpha, nullptr, lda, 0, nullptr, ldb, 0, beta, nullptr, ldc, 0, batchCount, \
                                     Aarray, Barray, Carray, true);                                                 \
  }

extern "C" {
TRNBLAS_L3_CGEMM_BATCHED(trnblasCgemmBatched, trnComplex)
TRNBLAS_L3_CGEMM_BATCHED(trnblasZgemmBatched, trnDoubleComplex)
TRNBLAS_L3_TRSM(trnblasStrsm, float)
TRNBLAS_L3_TRSM(trnblasDtrsm, double)
TRNBLAS_L3_TRMM(trnblasStrmm, float)
TRNBLAS_L3_TRMM(trnblasDtrmm, double)
TRNBLAS_L3_TRSM(trnblasCtrsm, trnComplex)
TRNBLAS_L3_TRSM(trnblasZtrsm, trnDoubleComplex)
TRNBLAS_L3_TRMM(trnblasCtrmm, trnComplex)
TRNBLAS_L3_TRMM(trnblasZtrmm, trnDoubleComplex)
TRNBLAS_L3_SYMM(trnblasSsymm, float)
TRNBLAS_L3_SYMM(trnblasDsymm, double)
TRNBLAS_L3_RANK2K(trnblasSsyr2k, float, false)
TRNBLAS_L3_RANK2K(trnblasDsyr2k, double, false)
TRNBLAS_L3_RANK2K(trnblasSsyrkx, float, true)
TRNBLAS_L3_RANK2K(trnblasDsyrkx, double, true)
TRNBLAS_L3_CGEMM(trnblasCgemm, trnComplex, trn::blas::ComplexAlgo::four_m)
TRNBLAS_L3_CGEMM(trnblasZgemm, trnDoubleComplex, trn::blas::ComplexAlgo::four_m)
TRNBLAS_L3_CGEMM(trnblasCgemm3m, trnComplex, trn::blas::ComplexAlgo::three_m)
TRNBLAS_L3_CGEMM(trnblasZgemm3m, trnDoubleComplex, trn::blas::ComplexAlgo::three_m)
TRNBLAS_L3_CGEMM_STRIDED(trnblasCgemmStridedBatched, trnComplex)
TRNBLAS_L3_CGEMM_STRIDED(trnblasZgemmStridedBatched, trnDoubleComplex)
TRNBLAS_L3_CGEMM_BATCHED_ALGO(trnblasCgemm3mBatched, trnComplex, three_m)
TRNBLAS_L3_CGEMM_STRIDED_ALGO(trnblasCgemm3mStridedBatched, trnComplex, three_m)
}  // extern "C"

// ---- GEAM and DGMM ------------------------------------------------------------------------------

namespace {

// A BLAS vector of n elements of T, step inc, is addressable in int64 bytes (complex: as floats).
template <class T>
bool vector_ok(std::int64_t n, std::int64_t inc) {
  if constexpr (std::is_arithmetic_v<T>) {
    return blas_capi::vector_addressable(n, inc);
  } else {
    constexpr std::int64_t kHalf = std::numeric_limits<std::int64_t>::max() / 2;
    return inc >= -kHalf && inc <= kHalf && blas_capi::vector_addressable(n, 2 * inc);
  }
}
// The C++ API's scalar and operand types of a C element type.
template <class T>
auto cpp_scalar(const T& v) {
  if constexpr (std::is_arithmetic_v<T>)
    return v;
  else
    return std::complex<decltype(v.x)>(v.x, v.y);
}
template <class T>
auto cpp_ptr(T* p) {
  if constexpr (std::is_arithmetic_v<std::remove_const_t<T>>) {
    return p;
  } else {
    using R = decltype(p->x);
    using Cx = std::conditional_t<std::is_const_v<T>, const std::complex<R>, std::complex<R>>;
    return reinterpret_cast<Cx*>(p);
  }
}

// GEAM: transa 1, transb 2, m 3, n 4, alpha 5, A 6, lda 7, beta 8, B 9, ldb 10, C 11, ldc 12.
// In place only as cuBLAS allows (C == A with transa N and lda == ldc, or C == B likewise):
// otherwise INVALID_VALUE at C's position.
template <class I, class T>
trnblasStatus_t geam(trnblasHandle_t h, const char* fn, int ta, int tb, I m, I n, const T* alpha, const T* A, I lda,
                     const T* beta, const T* B, I ldb, T* C, I ldc) {
  if (!capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const std::int64_t rows_a = ta == TRNBLAS_OP_N ? m : n, cols_a = ta == TRNBLAS_OP_N ? n : m;
  const std::int64_t rows_b = tb == TRNBLAS_OP_N ? m : n, cols_b = tb == TRNBLAS_OP_N ? n : m;
  auto check = capi::arg_check(h, fn);
  check.require(op_ok(ta), 1, "transa")
      .require(op_ok(tb), 2, "transb")
      .nonnegative(m, 3, "m")
      .nonnegative(n, 4, "n")
      .leading_dim(lda, rows_a, 7, "lda")
      .require(extent_ok<T>(rows_a, cols_a, lda), 7, "lda")
      .leading_dim(ldb, rows_b, 10, "ldb")
      .require(extent_ok<T>(rows_b, cols_b, ldb), 10, "ldb")
      .leading_dim(ldc, m, 12, "ldc")
      .require(extent_ok<T>(m, n, ldc), 12, "ldc")
      .not_null(alpha, 5, "alpha")
      .not_null(beta, 8, "beta");
  bool use_a = false, use_b = false;
  if (check && m > 0 && n > 0) {
    use_a = !is_zero(*alpha);
    use_b = !is_zero(*beta);
    check.require(!use_a || A != nullptr, 6, "A")
        .require(!use_b || B != nullptr, 9, "B")
        .not_null(C, 11, "C")
        .require(!(use_a && A == C && (ta != TRNBLAS_OP_N || lda != ldc)), 11, "C (in place: C == A needs transa N, lda == ldc)")
        .require(!(use_b && B == C && (tb != TRNBLAS_OP_N || ldb != ldc)), 11, "C (in place: C == B needs transb N, ldb == ldc)");
  }
  if (!check) return check.status();
  if (m == 0 || n == 0) return TRNBLAS_STATUS_SUCCESS;
  // A single column keeps its ld in place so that the in-place rule (C == A, lda == ldc) still holds.
  const std::int64_t lda_k = capi::kernel_ld(lda, rows_a, cols_a), ldb_k = capi::kernel_ld(ldb, rows_b, cols_b),
                     ldc_k = capi::kernel_ld(ldc, m, n);
  const std::int64_t lda_c = use_a && A == C ? ldc_k : lda_k, ldb_c = use_b && B == C ? ldc_k : ldb_k;
  return capi::run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    if constexpr (std::is_same_v<T, float>)
      trn::blas::sgeam(s, to_op(ta), to_op(tb), m, n, *alpha, A, lda_c, *beta, B, ldb_c, C, ldc_k, r);
    else if constexpr (std::is_same_v<T, double>)
      trn::blas::dgeam(s, to_op(ta), to_op(tb), m, n, *alpha, A, lda_c, *beta, B, ldb_c, C, ldc_k, r);
    else if constexpr (std::is_same_v<T, trnComplex>)
      trn::blas::cgeam(s, to_cop(ta), to_cop(tb), m, n, cpp_scalar(*alpha), cpp_ptr(A), lda_c, cpp_scalar(*beta),
                       cpp_ptr(B), ldb_c, cpp_ptr(C), ldc_k, r);
    else
      trn::blas::zgeam(s, to_cop(ta), to_cop(tb), m, n, cpp_scalar(*alpha), cpp_ptr(A), lda_c, cpp_scalar(*beta),
                       cpp_ptr(B), ldb_c, cpp_ptr(C), ldc_k, r);
  });
}

// DGMM: mode 1, m 2, n 3, A 4, lda 5, x 6, incx 7, C 8, ldc 9. C == A needs lda == ldc.
template <class I, class T>
trnblasStatus_t dgmm(trnblasHandle_t h, const char* fn, int mode, I m, I n, const T* A, I lda, const T* x, I incx, T* C,
                     I ldc) {
  if (!capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const std::int64_t len = mode == TRNBLAS_SIDE_LEFT ? m : n;
  auto check = capi::arg_check(h, fn);
  check.one_of(mode, {TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT}, 1, "mode")
      .nonnegative(m, 2, "m")
      .nonnegative(n, 3, "n")
      .leading_dim(lda, m, 5, "lda")
      .require(extent_ok<T>(m, n, lda), 5, "lda")
      .require(vector_ok<T>(len, incx), 7, "incx")
      .leading_dim(ldc, m, 9, "ldc")
      .require(extent_ok<T>(m, n, ldc), 9, "ldc");
  if (check && m > 0 && n > 0)
    check.not_null(A, 4, "A").not_null(x, 6, "x").not_null(C, 8, "C").require(A != C || lda == ldc, 8,
                                                                              "C (in place: C == A needs lda == ldc)");
  if (!check) return check.status();
  if (m == 0 || n == 0) return TRNBLAS_STATUS_SUCCESS;
  const std::int64_t ldc_k = capi::kernel_ld(ldc, m, n), lda_k = A == C ? ldc_k : capi::kernel_ld(lda, m, n);
  return capi::run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    const Side sd = to_side(mode);
    if constexpr (std::is_same_v<T, float>)
      trn::blas::sdgmm(s, sd, m, n, A, lda_k, x, incx, C, ldc_k, r);
    else if constexpr (std::is_same_v<T, double>)
      trn::blas::ddgmm(s, sd, m, n, A, lda_k, x, incx, C, ldc_k, r);
    else if constexpr (std::is_same_v<T, trnComplex>)
      trn::blas::cdgmm(s, sd, m, n, cpp_ptr(A), lda_k, cpp_ptr(x), incx, cpp_ptr(C), ldc_k, r);
    else
      trn::blas::zdgmm(s, sd, m, n, cpp_ptr(A), lda_k, cpp_ptr(x), incx, cpp_ptr(C), ldc_k, r);
  });
}

}  // namespace

#define TRNBLAS_L3_GEAM(NAME, T)                                                                                    \
  trnblasStatus_t NAME(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m, int n,              \
                       const T* alpha, const T* A, int lda, const T* beta, const T* B, int ldb, T* C, int ldc) {     \
    return geam<int, T>(h, #NAME, EV(ta), EV(tb), m, n, alpha, A, lda, beta, B, ldb, C, ldc);                       \
  }                                                                                                                 \
  trnblasStatus_t NAME##_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int64_t m, int64_t n,  \
                            const T* alpha, const T* A, int64_t lda, const T* beta, const T* B, int64_t ldb, T* C,  \
                            int64_t ldc) {                                                                          \
    return geam<int64_t, T>(h, #NAME "_64", EV(ta), EV(tb), m, n, alpha, A, lda, beta, B, ldb, C, ldc);             \
  }
#define TRNBLAS_L3_DGMM(NAME, T)                                                                                    \
  trnblasStatus_t NAME(trnblasHandle_t h, trnblasSideMode_t mode, int m, int n, const T* A, int lda, const T* x,    \
                       int incx, T* C, int ldc) {                                                                   \
    return dgmm<int, T>(h, #NAME, EV(mode), m, n, A, lda, x, incx, C, ldc);                                         \
  }                                                                                                                 \
  trnblasStatus_t NAME##_64(trnblasHandle_t h, trnblasSideMode_t mode, int64_t m, int64_t n, const T* A,            \
                            int64_t lda, const T* x, int64_t incx, T* C, int64_t ldc) {                             \
    return dgmm<int64_t, T>(h, #NAME "_64", EV(mode), m, n, A, lda, x, incx, C, ldc);                               \
  }

extern "C" {
TRNBLAS_L3_GEAM(trnblasSgeam, float)
TRNBLAS_L3_GEAM(trnblasDgeam, double)
TRNBLAS_L3_GEAM(trnblasCgeam, trnComplex)
TRNBLAS_L3_GEAM(trnblasZgeam, trnDoubleComplex)
TRNBLAS_L3_DGMM(trnblasSdgmm, float)
TRNBLAS_L3_DGMM(trnblasDdgmm, double)
TRNBLAS_L3_DGMM(trnblasCdgmm, trnComplex)
TRNBLAS_L3_DGMM(trnblasZdgmm, trnDoubleComplex)
}  // extern "C"

// ---- Complex SYRK/HERK family, SYMM/HEMM ----------------------------------------------------------

namespace {

using trn::blas::COp;

// The first checks of every complex rank-k form: uplo 1, trans 2 (N or `other`), n 3, k 4.
template <class Check>
Check& rank_k_shape(Check& check, int uplo, int trans, int other, std::int64_t n, std::int64_t k) {
  return check.one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 1, "uplo")
      .one_of(trans, {TRNBLAS_OP_N, other}, 2, "trans")
      .nonnegative(n, 3, "n")
      .nonnegative(k, 4, "k");
}

// The complex rank-k family. form 0 (syrk/herk): uplo 1, trans 2, n 3, k 4, alpha 5, A 6, lda 7,
// beta 8, C 9, ldc 10; forms 1 (syr2k/her2k) and 2 (syrkx/herkx): ... lda 7, B 8, ldb 9, beta 10,
// C 11, ldc 12. trans: N or T (sym), N or C (herm), as reference xSYRK/xHERK. Alpha and beta are
// complex, except herk's alpha and the herm forms' beta (real), as in cuBLAS.
template <bool kHerm, int kForm, class I, class Cx, class Ta, class Tb>
trnblasStatus_t complex_rank(trnblasHandle_t h, const char* fn, int uplo, int trans, I n, I k, const Ta* alpha,
                             const Cx* A, I lda, const Cx* B, I ldb, const Tb* beta, Cx* C, I ldc) {
  if (!capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const int q = kForm == 0 ? 0 : 2;  // B and ldb shift beta, C and ldc by two
  const int other = kHerm ? TRNBLAS_OP_C : TRNBLAS_OP_T;
  const std::int64_t rows = trans == TRNBLAS_OP_N ? n : k, cols = trans == TRNBLAS_OP_N ? k : n;
  auto check = capi::arg_check(h, fn);
  rank_k_shape(check, uplo, trans, other, n, k)
      .leading_dim(lda, rows, 7, "lda")
      .require(complex_addressable(rows, cols, lda), 7, "lda");
  if (kForm != 0) check.leading_dim(ldb, rows, 9, "ldb").require(complex_addressable(rows, cols, ldb), 9, "ldb");
  check.leading_dim(ldc, n, 10 + q, "ldc")
      .require(complex_addressable(n, n, ldc), 10 + q, "ldc")
      .not_null(alpha, 5, "alpha")
      .not_null(beta, 8 + q, "beta");
  if (check && n > 0) {
    const bool reads = !is_zero(*alpha) && k > 0;
    check.require(!reads || A != nullptr, 6, "A");
    if (kForm != 0) check.require(!reads || B != nullptr, 8, "B");
    check.not_null(C, 9 + q, "C");
  }
  if (!check) return check.status();
  if (n == 0) return TRNBLAS_STATUS_SUCCESS;
  const std::int64_t lda_k = capi::kernel_ld(lda, rows, cols), ldb_k = kForm != 0 ? capi::kernel_ld(ldb, rows, cols) : 1,
                     ldc_k = capi::kernel_ld(ldc, n, n);
  return capi::run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    const Uplo ul = to_uplo(uplo);
    const COp tr = to_cop(trans);
    const auto al = cpp_scalar(*alpha);
    const auto be = cpp_scalar(*beta);
    const auto a = cpp_ptr(A);
    const auto b = cpp_ptr(B);
    const auto c = cpp_ptr(C);
    namespace tb = trn::blas;
    if constexpr (std::is_same_v<Cx, trnComplex>) {
      const tb::GemmMode mode = capi::fp32_mode(h);
      if constexpr (!kHerm && kForm == 0) tb::csyrk(s, mode, ul, tr, n, k, al, a, lda_k, be, c, ldc_k, r);
      if constexpr (!kHerm && kForm == 1) tb::csyr2k(s, mode, ul, tr, n, k, al, a, lda_k, b, ldb_k, be, c, ldc_k, r);
      if constexpr (!kHerm && kForm == 2) tb::csyrkx(s, mode, ul, tr, n, k, al, a, lda_k, b, ldb_k, be, c, ldc_k, r);
      if constexpr (kHerm && kForm == 0) tb::cherk(s, mode, ul, tr, n, k, al, a, lda_k, be, c, ldc_k, r);
      if constexpr (kHerm && kForm == 1) tb::cher2k(s, mode, ul, tr, n, k, al, a, lda_k, b, ldb_k, be, c, ldc_k, r);
      if constexpr (kHerm && kForm == 2) tb::cherkx(s, mode, ul, tr, n, k, al, a, lda_k, b, ldb_k, be, c, ldc_k, r);
    } else {
      if constexpr (!kHerm && kForm == 0) tb::zsyrk(s, ul, tr, n, k, al, a, lda_k, be, c, ldc_k, r);
      if constexpr (!kHerm && kForm == 1) tb::zsyr2k(s, ul, tr, n, k, al, a, lda_k, b, ldb_k, be, c, ldc_k, r);
      if constexpr (!kHerm && kForm == 2) tb::zsyrkx(s, ul, tr, n, k, al, a, lda_k, b, ldb_k, be, c, ldc_k, r);
      if constexpr (kHerm && kForm == 0) tb::zherk(s, ul, tr, n, k, al, a, lda_k, be, c, ldc_k, r);
      if constexpr (kHerm && kForm == 1) tb::zher2k(s, ul, tr, n, k, al, a, lda_k, b, ldb_k, be, c, ldc_k, r);
      if constexpr (kHerm && kForm == 2) tb::zherkx(s, ul, tr, n, k, al, a, lda_k, b, ldb_k, be, c, ldc_k, r);
    }
  });
}

// CSYMM / CHEMM: side 1, uplo 2, m 3, n 4, alpha 5, A 6, lda 7, B 8, ldb 9, beta 10, C 11, ldc 12.
template <bool kHerm, class I, class Cx>
trnblasStatus_t complex_symm(trnblasHandle_t h, const char* fn, int side, int uplo, I m, I n, const Cx* alpha,
                             const Cx* A, I lda, const Cx* B, I ldb, const Cx* beta, Cx* C, I ldc) {
  if (!capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const std::int64_t order = side == TRNBLAS_SIDE_LEFT ? m : n;
  auto check = capi::arg_check(h, fn);
  check.one_of(side, {TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT}, 1, "side")
      .one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 2, "uplo")
      .nonnegative(m, 3, "m")
      .nonnegative(n, 4, "n")
      .leading_dim(lda, order, 7, "lda")
      .require(complex_addressable(order, order, lda), 7, "lda")
      .leading_dim(ldb, m, 9, "ldb")
      .require(complex_addressable(m, n, ldb), 9, "ldb")
      .leading_dim(ldc, m, 12, "ldc")
      .require(complex_addressable(m, n, ldc), 12, "ldc")
      .not_null(alpha, 5, "alpha")
      .not_null(beta, 10, "beta");
  if (check && m > 0 && n > 0) {
    const bool reads = !is_zero(*alpha);
    check.require(!reads || A != nullptr, 6, "A").require(!reads || B != nullptr, 8, "B").not_null(C, 11, "C");
  }
  if (!check) return check.status();
  if (m == 0 || n == 0) return TRNBLAS_STATUS_SUCCESS;
  const std::int64_t lda_k = capi::kernel_ld(lda, order, order), ldb_k = capi::kernel_ld(ldb, m, n),
                     ldc_k = capi::kernel_ld(ldc, m, n);
  return capi::run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    const Side sd = to_side(side);
    const Uplo ul = to_uplo(uplo);
    namespace tb = trn::blas;
    const auto al = cpp_scalar(*alpha), be = cpp_scalar(*beta);
    if constexpr (std::is_same_v<Cx, trnComplex>) {
      if constexpr (kHerm)
        tb::chemm(s, capi::fp32_mode(h), sd, ul, m, n, al, cpp_ptr(A), lda_k, cpp_ptr(B), ldb_k, be, cpp_ptr(C), ldc_k, r);
      else
        tb::csymm(s, capi::fp32_mode(h), sd, ul, m, n, al, cpp_ptr(A), lda_k, cpp_ptr(B), ldb_k, be, cpp_ptr(C), ldc_k, r);
    } else {
      if constexpr (kHerm)
        tb::zhemm(s, sd, ul, m, n, al, cpp_ptr(A), lda_k, cpp_ptr(B), ldb_k, be, cpp_ptr(C), ldc_k, r);
      else
        tb::zsymm(s, sd, ul, m, n, al, cpp_ptr(A), lda_k, cpp_ptr(B), ldb_k, be, cpp_ptr(C), ldc_k, r);
    }
  });
}

}  // namespace

#define TRNBLAS_L3_CRANK1(NAME, HERM, Cx, Ta)                                                                        \
  trnblasStatus_t NAME(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans, int n, int k,           \
                       const Ta* alpha, const Cx* A, int lda, const Ta* beta, Cx* C, int ldc) {                     \
    return complex_rank<HERM, 0, int, Cx, Ta, Ta>(h, #NAME, EV(uplo), EV(trans), n, k, alpha, A, lda, nullptr, 0,   \
                                                  beta, C, ldc);                                                    \
  }                                                                                                                 \
  trnblasStatus_t NAME##_64(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,         \
                            int64_t k, const Ta* alpha, const Cx* A, int64_t lda, const Ta* beta, Cx* C,            \
                            int64_t ldc) {                                                                          \
    return complex_rank<HERM, 0, int64_t, Cx, Ta, Ta>(h, #NAME "_64", EV(uplo), EV(trans), n, k, alpha, A, lda,     \
                                                      nullptr, 0, beta, C, ldc);                                    \
  }
#define TRNBLAS_L3_CRANK2(NAME, HERM, FORM, Cx, Tb)                                                                  \
  trnblasStatus_t NAME(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans, int n, int k,           \
                       const Cx* alpha, const Cx* A, int lda, const Cx* B, int ldb, const Tb* beta, Cx* C,          \
                       int ldc) {                                                                                   \
    return complex_rank<HERM, FORM, int, Cx, Cx, Tb>(h, #NAME, EV(uplo), EV(trans), n, k, alpha, A, lda, B, ldb,    \
                                                     beta, C, ldc);                                                 \
  }                                                                                                                 \
  trnblasStatus_t NAME##_64(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,         \
                            int64_t k, const Cx* alpha, const Cx* A, int64_t lda, const Cx* B, int64_t ldb,         \
                            const Tb* beta, Cx* C, int64_t ldc) {                                                   \
    return complex_rank<HERM, FORM, int64_t, Cx, Cx, Tb>(h, #NAME "_64", EV(uplo), EV(trans), n, k, alpha, A, lda, \
                                                         B, ldb, beta, C, ldc);                                     \
  }
#define TRNBLAS_L3_CSYMM(NAME, HERM, Cx)                                                                             \
  trnblasStatus_t NAME(trnblasHandle_t h, trnblasSideMode_t side, trnblasFillMode_t uplo, int m, int n,             \
                       const Cx* alpha, const Cx* A, int lda, const Cx* B, int ldb, const Cx* beta, Cx* C,          \
                       int ldc) {                                                                                   \
    return complex_symm<HERM, int, Cx>(h, #NAME, EV(side), EV(uplo), m, n, alpha, A, lda, B, ldb, beta, C, ldc);    \
  }                                                                                                                 \
  trnblasStatus_t NAME##_64(trnblasHandle_t h, trnblasSideMode_t side, trnblasFillMode_t uplo, int64_t m,           \
                            int64_t n, const Cx* alpha, const Cx* A, int64_t lda, const Cx* B, int64_t ldb,         \
                            const Cx* beta, Cx* C, int64_t ldc) {                                                   \
    return complex_symm<HERM, int64_t, Cx>(h, #NAME "_64", EV(side), EV(uplo), m, n, alpha, A, lda, B, ldb, beta,   \
                                           C, ldc);                                                                 \
  }

extern "C" {
TRNBLAS_L3_CRANK1(trnblasCsyrk, false, trnComplex, trnComplex)
TRNBLAS_L3_CRANK1(trnblasZsyrk, false, trnDoubleComplex, trnDoubleComplex)
TRNBLAS_L3_CRANK1(trnblasCherk, true, trnComplex, float)
TRNBLAS_L3_CRANK1(trnblasZherk, true, trnDoubleComplex, double)
TRNBLAS_L3_CRANK2(trnblasCsyr2k, false, 1, trnComplex, trnComplex)
TRNBLAS_L3_CRANK2(trnblasZsyr2k, false, 1, trnDoubleComplex, trnDoubleComplex)
TRNBLAS_L3_CRANK2(trnblasCsyrkx, false, 2, trnComplex, trnComplex)
TRNBLAS_L3_CRANK2(trnblasZsyrkx, false, 2, trnDoubleComplex, trnDoubleComplex)
TRNBLAS_L3_CRANK2(trnblasCher2k, true, 1, trnComplex, float)
TRNBLAS_L3_CRANK2(trnblasZher2k, true, 1, trnDoubleComplex, double)
TRNBLAS_L3_CRANK2(trnblasCherkx, true, 2, trnComplex, float)
TRNBLAS_L3_CRANK2(trnblasZherkx, true, 2, trnDoubleComplex, double)
TRNBLAS_L3_CSYMM(trnblasCsymm, false, trnComplex)
TRNBLAS_L3_CSYMM(trnblasZsymm, false, trnDoubleComplex)
TRNBLAS_L3_CSYMM(trnblasChemm, true, trnComplex)
TRNBLAS_L3_CSYMM(trnblasZhemm, true, trnDoubleComplex)
}  // extern "C"

// ---- GemmEx-family calls with complex types -----------------------------------------------------

namespace blas_capi {

bool is_complex_type(int type) {
  return type == TRN_C_8I || type == TRN_C_16F || type == TRN_C_16BF || type == TRN_C_32F || type == TRN_C_64F;
}

namespace {

// A complex 8-bit integer or 16-bit float operand (rows x cols, ld) widened to complex<float> (exact:
// every int8, binary16 and bfloat16 value is a binary32 value), packed with leading dimension rows.
std::vector<std::complex<float>> widen(const void* p, int type, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  std::vector<std::complex<float>> out(static_cast<std::size_t>(rows * cols));
  if (type == TRN_C_8I) {
    const auto* e8 = static_cast<const std::int8_t*>(p);
    for (std::int64_t j = 0; j < cols; ++j)
      for (std::int64_t i = 0; i < rows; ++i) {
        const std::int8_t* e = e8 + 2 * (i + j * ld);
        out[static_cast<std::size_t>(i + j * rows)] = {static_cast<float>(e[0]), static_cast<float>(e[1])};
      }
    return out;
  }
  const auto* h = static_cast<const std::uint16_t*>(p);
  auto f = [&](std::uint16_t v) { return type == TRN_C_16BF ? trn::bf16_to_f32(v) : trn::f16_to_f32(v); };
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) {
      const std::uint16_t* e = h + 2 * (i + j * ld);
      out[static_cast<std::size_t>(i + j * rows)] = {f(e[0]), f(e[1])};
    }
  return out;
}

// The m x n complex<float> result stored into a C_16F / C_16BF C (ld), each part rounded once to
// nearest even.
void narrow(const std::vector<std::complex<float>>& r, int type, std::int64_t m, std::int64_t n, void* p, std::int64_t ld) {
  auto* h = static_cast<std::uint16_t*>(p);
  auto f = [&](float v) { return type == TRN_C_16BF ? trn::f32_to_bf16_rne(v) : trn::f32_to_f16_rne(v); };
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      const std::complex<float> v = r[static_cast<std::size_t>(i + j * m)];
      h[2 * (i + j * ld)] = f(v.real());
      h[2 * (i + j * ld) + 1] = f(v.imag());
    }
}

}  // namespace

// Types as cuBLAS's GemmEx table has them for complex data: C_32F A/B/C with the 32F compute types
// (scale type C_32F), C_64F with the 64F ones (scale C_64F), C_8I / C_16F / C_16BF A/B with C_32F C,
// and C_16F / C_16BF A/B/C (COMPUTE_32F or _PEDANTIC). Everything runs through cgemm/zgemm (4M);
// 8- and 16-bit inputs are widened exactly and multiplied in the matching 1-pass mode (bf16 for
// int8 and bfloat16, fp16 for binary16: the DMA rounding is then the identity); a 16-bit C is
// widened (when beta reads it), the product and epilogue are cgemm's in fp32, and each part is
// rounded once to C's type.
trnblasStatus_t complex_gemm_ex(trnblasHandle_t h, const char* fn, const ComplexGemmEx& c) {
  auto check = arg_check(h, fn);
  check.require(c.pos_algo == 0 || c.algo_ok, c.pos_algo, "algo");
  const bool c16 = c.at == TRN_C_16F || c.at == TRN_C_16BF, c8 = c.at == TRN_C_8I;
  const bool narrow_c = c16 && c.ct == c.at;  // 16-bit complex C
  const bool is64 = c.compute == TRNBLAS_COMPUTE_64F || c.compute == TRNBLAS_COMPUTE_64F_PEDANTIC ||
                    c.compute == TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT;
  const trn::blas::ModeTraits* traits = trn::blas::mode_by_compute_type(c.compute);
  const bool is32 = c.compute == TRNBLAS_COMPUTE_32F || c.compute == TRNBLAS_COMPUTE_32F_PEDANTIC ||
                    (traits != nullptr && traits->mode != trn::blas::GemmMode::fp64_ozaki);
  const bool known = is64 || is32 || c.compute == TRNBLAS_COMPUTE_16F || c.compute == TRNBLAS_COMPUTE_16F_PEDANTIC ||
                     c.compute == TRNBLAS_COMPUTE_32I || c.compute == TRNBLAS_COMPUTE_32I_PEDANTIC;
  check.require(known, c.pos_compute, "computeType")
      .require_or(c.at == c.bt && is_complex_type(c.at) && is_complex_type(c.ct), TRNBLAS_STATUS_NOT_SUPPORTED,
                  "NOT_SUPPORTED", "complex GemmEx needs complex A, B and C and one type for A and B")
      .require_or(is64 ? c.at == TRN_C_64F && c.ct == TRN_C_64F
                       : is32 && c.at != TRN_C_64F && (c.ct == TRN_C_32F || narrow_c),
                  TRNBLAS_STATUS_NOT_SUPPORTED, "NOT_SUPPORTED",
                  "complex types: C_64F with a 64F compute type; C_32F/C_8I/C_16F/C_16BF inputs and C_32F C, or "
                  "C_16F/C_16BF A, B and C, with a 32F one")
      .require_or(is64 || traits == nullptr || (traits->mode != trn::blas::GemmMode::fp8_e4m3 &&
                                                traits->mode != trn::blas::GemmMode::fp8_e5m2),
                  TRNBLAS_STATUS_NOT_SUPPORTED, "NOT_SUPPORTED", "no fp8 compute types for complex data")
      .require_or(!(c16 || c8) || c.compute == TRNBLAS_COMPUTE_32F || c.compute == TRNBLAS_COMPUTE_32F_PEDANTIC,
                  TRNBLAS_STATUS_NOT_SUPPORTED, "NOT_SUPPORTED", "C_8I/C_16F/C_16BF inputs take COMPUTE_32F")
      .require(c.pos_batch == 0 || c.batch >= 0, c.pos_batch, "batchCount");
  if (!check) return check.status();
  if (c.batch == 0 || c.m == 0 || c.n == 0) return TRNBLAS_STATUS_SUCCESS;
  const bool zero_alpha = is64 ? (static_cast<const double*>(c.alpha)[0] == 0 && static_cast<const double*>(c.alpha)[1] == 0)
                               : (static_cast<const float*>(c.alpha)[0] == 0 && static_cast<const float*>(c.alpha)[1] == 0);
  const bool need_ab = !zero_alpha && c.k > 0;
  const std::int64_t entries = c.strided ? 1 : c.batch;
  for (std::int64_t b = 0; b < entries && check; ++b)
    check.require(!need_ab || c.A(b) != nullptr, c.pos_A, "A")
        .require(!need_ab || c.B(b) != nullptr, c.pos_B, "B")
        .require(c.C(b) != nullptr, c.pos_C, "C");
  if (!check) return check.status();
  const std::int64_t rows_a = c.ta == TRNBLAS_OP_N ? c.m : c.k, cols_a = c.ta == TRNBLAS_OP_N ? c.k : c.m;
  const std::int64_t rows_b = c.tb == TRNBLAS_OP_N ? c.k : c.n, cols_b = c.tb == TRNBLAS_OP_N ? c.n : c.k;
  const std::int64_t lda_k = kernel_ld(c.lda, rows_a, cols_a), ldb_k = kernel_ld(c.ldb, rows_b, cols_b),
                     ldc_k = kernel_ld(c.ldc, c.m, c.n);
  const trn::blas::COp oa = to_cop(c.ta), ob = to_cop(c.tb);
  trn::blas::GemmMode mode = trn::blas::GemmMode::fp32;
  if (c16 || c8)
    mode = c.at == TRN_C_16F ? trn::blas::GemmMode::fp16 : trn::blas::GemmMode::bf16;
  else if (c.compute == TRNBLAS_COMPUTE_32F)
    mode = fp32_mode(h);
  else if (!is64 && c.compute != TRNBLAS_COMPUTE_32F_PEDANTIC)
    mode = traits->mode;
  return run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    trn::Trace trace;
    trn::blas::CallReport one;
    one.plans_wanted = false;  // only the profile is kept (store_report): no plan text per entry
    for (std::int64_t b = 0; b < c.batch; ++b) {
      if (is64) {
        const auto* al = static_cast<const std::complex<double>*>(c.alpha);
        const auto* be = static_cast<const std::complex<double>*>(c.beta);
        trn::blas::zgemm(s, trn::blas::ComplexAlgo::four_m, oa, ob, c.m, c.n, c.k, *al,
                         need_ab ? static_cast<const std::complex<double>*>(c.A(b)) : nullptr, lda_k,
                         need_ab ? static_cast<const std::complex<double>*>(c.B(b)) : nullptr, ldb_k, *be,
                         static_cast<std::complex<double>*>(c.C(b)), ldc_k, &one);
      } else {
        const auto* al = static_cast<const std::complex<float>*>(c.alpha);
        const auto* be = static_cast<const std::complex<float>*>(c.beta);
        std::vector<std::complex<float>> wa, wb;
        const std::complex<float>* pa = need_ab ? static_cast<const std::complex<float>*>(c.A(b)) : nullptr;
        const std::complex<float>* pb = need_ab ? static_cast<const std::complex<float>*>(c.B(b)) : nullptr;
        std::int64_t la = lda_k, lb = ldb_k;
        if ((c16 || c8) && need_ab) {
          wa = widen(c.A(b), c.at, rows_a, cols_a, lda_k);
          wb = widen(c.B(b), c.bt, rows_b, cols_b, ldb_k);
          pa = wa.data();
          pb = wb.data();
          la = std::max<std::int64_t>(1, rows_a);
          lb = std::max<std::int64_t>(1, rows_b);
        }
        if (narrow_c) {
          const bool read_c = be->real() != 0.0f || be->imag() != 0.0f;  // beta == 0 never reads C
          std::vector<std::complex<float>> wc =
              read_c ? widen(c.C(b), c.ct, c.m, c.n, ldc_k)
                     : std::vector<std::complex<float>>(static_cast<std::size_t>(c.m * c.n));
          trn::blas::cgemm(s, mode, trn::blas::ComplexAlgo::four_m, oa, ob, c.m, c.n, c.k, *al, pa, la, pb, lb, *be,
                           wc.data(), c.m, &one);
          if (!s.timing_only) narrow(wc, c.ct, c.m, c.n, c.C(b), ldc_k);
        } else {
          trn::blas::cgemm(s, mode, trn::blas::ComplexAlgo::four_m, oa, ob, c.m, c.n, c.k, *al, pa, la, pb, lb, *be,
                           static_cast<std::complex<float>*>(c.C(b)), ldc_k, &one);
        }
      }
      trace.append(one.trace);
      r->ozaki_mantissa_bits = one.ozaki_mantissa_bits;
    }
    r->finish(s, std::move(trace));
  });
}

bool is_int8_gemm_ex(int at, int bt, int ct, int compute) {
  if (at != TRN_R_8I || bt != TRN_R_8I) return false;
  if (compute == TRNBLAS_COMPUTE_32I || compute == TRNBLAS_COMPUTE_32I_PEDANTIC) return ct == TRN_R_32I || ct == TRN_R_8I;
  return (compute == TRNBLAS_COMPUTE_32F || compute == TRNBLAS_COMPUTE_32F_PEDANTIC) && ct == TRN_R_32F;
}

// int8 A and B (is_int8_gemm_ex): COMPUTE_32I with 32I C and int32 scalars (trn::blas::gemm_i8, exact
// modulo 2^32) or 8I C and float scalars (gemm_i8_to_i8: exact sum, float epilogue, saturated), and
// COMPUTE_32F with 32F C (gemm_i8_f32: exact products, fp32 accumulation).
trnblasStatus_t int8_gemm_ex(trnblasHandle_t h, const char* fn, const ComplexGemmEx& c) {
  auto check = arg_check(h, fn);
  check.require(c.pos_algo == 0 || c.algo_ok, c.pos_algo, "algo").require(c.pos_batch == 0 || c.batch >= 0, c.pos_batch,
                                                                          "batchCount");
  if (!check) return check.status();
  if (c.batch == 0 || c.m == 0 || c.n == 0) return TRNBLAS_STATUS_SUCCESS;
  const bool int_scalars = c.ct == TRN_R_32I;
  const std::int32_t alpha = int_scalars ? *static_cast<const std::int32_t*>(c.alpha) : 0,
                     beta = int_scalars ? *static_cast<const std::int32_t*>(c.beta) : 0;
  const float alpha_f = int_scalars ? 0.0f : *static_cast<const float*>(c.alpha),
              beta_f = int_scalars ? 0.0f : *static_cast<const float*>(c.beta);
  const bool zero_alpha = int_scalars ? alpha == 0 : alpha_f == 0.0f;
  const bool need_ab = !zero_alpha && c.k > 0;
  const std::int64_t entries = c.strided ? 1 : c.batch;
  for (std::int64_t b = 0; b < entries && check; ++b)
    check.require(!need_ab || c.A(b) != nullptr, c.pos_A, "A")
        .require(!need_ab || c.B(b) != nullptr, c.pos_B, "B")
        .require(c.C(b) != nullptr, c.pos_C, "C");
  if (!check) return check.status();
  const std::int64_t rows_a = c.ta == TRNBLAS_OP_N ? c.m : c.k, cols_a = c.ta == TRNBLAS_OP_N ? c.k : c.m;
  const std::int64_t rows_b = c.tb == TRNBLAS_OP_N ? c.k : c.n, cols_b = c.tb == TRNBLAS_OP_N ? c.n : c.k;
  const std::int64_t lda_k = kernel_ld(c.lda, rows_a, cols_a), ldb_k = kernel_ld(c.ldb, rows_b, cols_b),
                     ldc_k = kernel_ld(c.ldc, c.m, c.n);
  const trn::blas::Op oa = c.ta == TRNBLAS_OP_N ? trn::blas::Op::N : trn::blas::Op::T;
  const trn::blas::Op ob = c.tb == TRNBLAS_OP_N ? trn::blas::Op::N : trn::blas::Op::T;
  return run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    trn::Trace trace;
    trn::blas::CallReport one;
    one.plans_wanted = false;  // only the profile is kept (store_report): no plan text per entry
    for (std::int64_t b = 0; b < c.batch; ++b) {
      const auto* a = static_cast<const std::int8_t*>(c.A(b));
      const auto* bb = static_cast<const std::int8_t*>(c.B(b));
      if (c.ct == TRN_R_32I)
        trn::blas::gemm_i8(s, oa, ob, c.m, c.n, c.k, alpha, a, lda_k, bb, ldb_k, beta, static_cast<std::int32_t*>(c.C(b)),
                           ldc_k, &one);
      else if (c.ct == TRN_R_8I)
        trn::blas::gemm_i8_to_i8(s, oa, ob, c.m, c.n, c.k, alpha_f, a, lda_k, bb, ldb_k, beta_f,
                                 static_cast<std::int8_t*>(c.C(b)), ldc_k, &one);
      else
        trn::blas::gemm_i8_f32(s, oa, ob, c.m, c.n, c.k, alpha_f, a, lda_k, bb, ldb_k, beta_f,
                               static_cast<float*>(c.C(b)), ldc_k, &one);
      trace.append(one.trace);
    }
    r->finish(s, std::move(trace));
  });
}

}  // namespace blas_capi

// ---- CsyrkEx, Csyrk3mEx, CherkEx, Cherk3mEx (cuBLAS Extensions) ----------------------------------

namespace {

// uplo 1, trans 2, n 3, k 4, alpha 5, A 6, Atype 7, lda 8, beta 9, C 10, Ctype 11, ldc 12.
// cuBLAS's table for these routines: A C_32F or C_8I, C C_32F. C_32F data is Csyrk's/Cherk's (the
// handle's fp32 mode); complex int8 data is widened exactly to complex<float> (as complex GemmEx)
// and multiplied in the bf16 mode, exact for int8 (every int8 is a bfloat16, products exact in
// fp32 PSUM). The 3m forms run the same 4M products: the rank-k kernels have no 3M split.
template <bool kHerm, class I, class Ta>
trnblasStatus_t complex_rank_ex(trnblasHandle_t h, const char* fn, int uplo, int trans, I n, I k, const Ta* alpha,
                                const void* A, int atype, I lda, const Ta* beta, void* C, int ctype, I ldc) {
  if (!capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const int other = kHerm ? TRNBLAS_OP_C : TRNBLAS_OP_T;
  const bool int8_a = atype == TRN_C_8I;
  const std::int64_t rows = trans == TRNBLAS_OP_N ? n : k, cols = trans == TRNBLAS_OP_N ? k : n;
  auto check = capi::arg_check(h, fn);
  rank_k_shape(check, uplo, trans, other, n, k)
      .require_or((atype == TRN_C_32F || int8_a) && ctype == TRN_C_32F, TRNBLAS_STATUS_NOT_SUPPORTED, "NOT_SUPPORTED",
                  "A C_32F or C_8I, C C_32F")
      .leading_dim(lda, rows, 8, "lda")
      .require(complex_addressable(rows, cols, lda), 8, "lda")
      .leading_dim(ldc, n, 12, "ldc")
      .require(complex_addressable(n, n, ldc), 12, "ldc")
      .not_null(alpha, 5, "alpha")
      .not_null(beta, 9, "beta");
  const bool reads_a = check && !is_zero(*alpha) && k > 0;
  if (check && n > 0) check.require(!reads_a || A != nullptr, 6, "A").not_null(C, 10, "C");
  if (!check) return check.status();
  if (n == 0) return TRNBLAS_STATUS_SUCCESS;
  return capi::run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    std::int64_t lda_k = capi::kernel_ld(lda, rows, cols);
    const std::int64_t ldc_k = capi::kernel_ld(ldc, n, n);
    const auto* a = static_cast<const std::complex<float>*>(A);
    std::vector<std::complex<float>> widened;
    trn::blas::GemmMode mode = capi::fp32_mode(h);
    if (int8_a) {
      mode = trn::blas::GemmMode::bf16;
      if (reads_a) {
        widened = capi::widen(A, atype, rows, cols, lda_k);
        a = widened.data();
        lda_k = std::max<std::int64_t>(1, rows);
      }
    }
    auto* c = static_cast<std::complex<float>*>(C);
    if constexpr (kHerm)
      trn::blas::cherk(s, mode, to_uplo(uplo), to_cop(trans), n, k, *alpha, a, lda_k, *beta, c, ldc_k, r);
    else
      trn::blas::csyrk(s, mode, to_uplo(uplo), to_cop(trans), n, k, cpp_scalar(*alpha), a, lda_k, cpp_scalar(*beta), c,
                       ldc_k, r);
  });
}

}  // namespace

#define TRNBLAS_L3_RANK_EX(NAME, HERM, Ta)                                                                           \
  trnblasStatus_t NAME(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans, int n, int k,           \
                       const Ta* alpha, const void* A, trnDataType_t Atype, int lda, const Ta* beta, void* C,       \
                       trnDataType_t Ctype, int ldc) {                                                              \
    return complex_rank_ex<HERM, int, Ta>(h, #NAME, EV(uplo), EV(trans), n, k, alpha, A, EV(Atype), lda, beta, C,   \
                                          EV(Ctype), ldc);                                                          \
  }                                                                                                                 \
  trnblasStatus_t NAME##_64(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,         \
                            int64_t k, const Ta* alpha, const void* A, trnDataType_t Atype, int64_t lda,            \
                            const Ta* beta, void* C, trnDataType_t Ctype, int64_t ldc) {                            \
    return complex_rank_ex<HERM, int64_t, Ta>(h, #NAME "_64", EV(uplo), EV(trans), n, k, alpha, A, EV(Atype), lda, \
                                              beta, C, EV(Ctype), ldc);                                             \
  }

extern "C" {
TRNBLAS_L3_RANK_EX(trnblasCsyrkEx, false, trnComplex)
TRNBLAS_L3_RANK_EX(trnblasCsyrk3mEx, false, trnComplex)
TRNBLAS_L3_RANK_EX(trnblasCherkEx, true, float)
TRNBLAS_L3_RANK_EX(trnblasCherk3mEx, true, float)
}  // extern "C"
