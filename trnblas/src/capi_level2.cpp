// trnblas.h, Level 2: the C shim over trn/blas/level12.hpp. Checks in the reference BLAS's XERBLA
// order (enums, sizes, leading dimension, increments), then the scalar pointers, then the matrix
// and vector pointers that the call will read or write. Positions are 1-based, not counting the
// handle (cuBLAS's numbering, equal to the reference BLAS's).
#include <cstdint>
#include <type_traits>
#include <vector>

#include "capi_internal.hpp"
#include "trn/blas/level12.hpp"

namespace {

using blas_capi::arg_check;
using blas_capi::cpp;
using blas_capi::matrix_addressable;
using blas_capi::valid_handle;
using blas_capi::vector_addressable;
using trn::blas::CallReport;
using trn::blas::Op;
using trn::blas::Settings;
using trn::blas::Uplo;
using trn::cshim::enum_value;

// blas_capi::run with the body passed through a std::function that holds one reference (stored in
// place): a lambda capturing the call's arguments would be copied to the heap on every call.
template <class F>
trnblasStatus_t run(trnblasHandle_t h, const char* fn, F&& body) {
  return blas_capi::run(h, fn, [&body](const Settings& s, CallReport* r) { body(s, r); });
}

bool op_ok(int op) { return op == TRNBLAS_OP_N || op == TRNBLAS_OP_T || op == TRNBLAS_OP_C; }
Op to_op(int op) { return op == TRNBLAS_OP_N ? Op::N : Op::T; }
bool uplo_ok(int u) { return u == TRNBLAS_FILL_MODE_LOWER || u == TRNBLAS_FILL_MODE_UPPER; }
Uplo to_uplo(int u) { return u == TRNBLAS_FILL_MODE_LOWER ? Uplo::lower : Uplo::upper; }
bool diag_ok(int d) { return d == TRNBLAS_DIAG_NON_UNIT || d == TRNBLAS_DIAG_UNIT; }
bool inc_ok(std::int64_t n, std::int64_t inc) { return inc != 0 && vector_addressable(n, inc); }

// gemv: trans 1, m 2, n 3, alpha 4, A 5, lda 6, x 7, incx 8, beta 9, y 10, incy 11.
template <class I, class CT>
trnblasStatus_t gemv_impl(trnblasHandle_t h, const char* fn, int trans, I m, I n, const CT* alpha_c, const CT* A, I lda,
                          const CT* x, I incx, const CT* beta_c, CT* y, I incy) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const auto* alpha = cpp(alpha_c);
  const auto* beta = cpp(beta_c);
  using T = std::remove_const_t<std::remove_pointer_t<decltype(alpha)>>;
  const std::int64_t len_x = trans == TRNBLAS_OP_N ? n : m, len_y = trans == TRNBLAS_OP_N ? m : n;
  auto chk = arg_check(h, fn);
  chk.require(op_ok(trans), 1, "trans")
      .nonnegative(m, 2, "m")
      .nonnegative(n, 3, "n")
      .leading_dim(lda, m, 6, "lda")
      .require(matrix_addressable(m, n, lda), 6, "lda")
      .require(inc_ok(len_x, incx), 8, "incx")
      .require(inc_ok(len_y, incy), 11, "incy")
      .not_null(alpha, 4, "alpha")
      .not_null(beta, 9, "beta");
  if (!chk) return chk.status();
  const bool quick = m == 0 || n == 0 || (*alpha == T(0) && *beta == T(1));
  if (!quick) chk.require(*alpha == T(0) || A != nullptr, 5, "A").require(*alpha == T(0) || x != nullptr, 7, "x").not_null(y, 10, "y");
  if (!chk) return chk.status();
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (quick) return;
    if constexpr (std::is_floating_point_v<T>)
      trn::blas::gemv(s, to_op(trans), m, n, *alpha, A, lda, x, incx, *beta, y, incy, rep);
    else
      trn::blas::gemv(s, to_op(trans), trans == TRNBLAS_OP_C, m, n, *alpha, cpp(A), lda, cpp(x), incx, *beta, cpp(y),
                      incy, rep);
  });
}

// ger (geru, gerc): m 1, n 2, alpha 3, x 4, incx 5, y 6, incy 7, A 8, lda 9.
template <class I, class CT>
trnblasStatus_t ger_impl(trnblasHandle_t h, const char* fn, bool conjugate, I m, I n, const CT* alpha_c, const CT* x,
                         I incx, const CT* y, I incy, CT* A, I lda) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const auto* alpha = cpp(alpha_c);
  using T = std::remove_const_t<std::remove_pointer_t<decltype(alpha)>>;
  auto chk = arg_check(h, fn);
  chk.nonnegative(m, 1, "m")
      .nonnegative(n, 2, "n")
      .require(inc_ok(m, incx), 5, "incx")
      .require(inc_ok(n, incy), 7, "incy")
      .leading_dim(lda, m, 9, "lda")
      .require(matrix_addressable(m, n, lda), 9, "lda")
      .not_null(alpha, 3, "alpha");
  if (!chk) return chk.status();
  const bool quick = m == 0 || n == 0 || *alpha == T(0);
  if (!quick) chk.not_null(x, 4, "x").not_null(y, 6, "y").not_null(A, 8, "A");
  if (!chk) return chk.status();
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (quick) return;
    if constexpr (std::is_floating_point_v<T>)
      trn::blas::ger(s, m, n, *alpha, x, incx, y, incy, A, lda, rep);
    else
      trn::blas::ger(s, conjugate, m, n, *alpha, cpp(x), incx, cpp(y), incy, cpp(A), lda, rep);
  });
}

// symv (hemv for complex): uplo 1, n 2, alpha 3, A 4, lda 5, x 6, incx 7, beta 8, y 9, incy 10.
template <class I, class CT>
trnblasStatus_t symv_impl(trnblasHandle_t h, const char* fn, int uplo, I n, const CT* alpha_c, const CT* A, I lda,
                          const CT* x, I incx, const CT* beta_c, CT* y, I incy, bool hermitian = true) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const auto* alpha = cpp(alpha_c);
  const auto* beta = cpp(beta_c);
  using T = std::remove_const_t<std::remove_pointer_t<decltype(alpha)>>;
  auto chk = arg_check(h, fn);
  chk.require(uplo_ok(uplo), 1, "uplo")
      .nonnegative(n, 2, "n")
      .leading_dim(lda, n, 5, "lda")
      .require(matrix_addressable(n, n, lda), 5, "lda")
      .require(inc_ok(n, incx), 7, "incx")
      .require(inc_ok(n, incy), 10, "incy")
      .not_null(alpha, 3, "alpha")
      .not_null(beta, 8, "beta");
  if (!chk) return chk.status();
  const bool quick = n == 0 || (*alpha == T(0) && *beta == T(1));
  if (!quick) chk.require(*alpha == T(0) || A != nullptr, 4, "A").require(*alpha == T(0) || x != nullptr, 6, "x").not_null(y, 9, "y");
  if (!chk) return chk.status();
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (quick) return;
    if constexpr (std::is_floating_point_v<T>)
      trn::blas::symv(s, to_uplo(uplo), n, *alpha, A, lda, x, incx, *beta, y, incy, rep);
    else if (hermitian)
      trn::blas::hemv(s, to_uplo(uplo), n, *alpha, cpp(A), lda, cpp(x), incx, *beta, cpp(y), incy, rep);
    else
      trn::blas::symv(s, to_uplo(uplo), n, *alpha, cpp(A), lda, cpp(x), incx, *beta, cpp(y), incy, rep);
  });
}

// trmv / trsv: uplo 1, trans 2, diag 3, n 4, A 5, lda 6, x 7, incx 8.
template <class I, class T>
trnblasStatus_t tr_impl(trnblasHandle_t h, const char* fn, bool solve, int uplo, int trans, int diag, I n, const T* A,
                        I lda, T* x, I incx) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  auto chk = arg_check(h, fn);
  chk.require(uplo_ok(uplo), 1, "uplo")
      .require(op_ok(trans), 2, "trans")
      .require(diag_ok(diag), 3, "diag")
      .nonnegative(n, 4, "n")
      .leading_dim(lda, n, 6, "lda")
      .require(matrix_addressable(n, n, lda), 6, "lda")
      .require(inc_ok(n, incx), 8, "incx");
  if (n > 0) chk.not_null(A, 5, "A").not_null(x, 7, "x");
  if (!chk) return chk.status();
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (n == 0) return;
    const bool unit = diag == TRNBLAS_DIAG_UNIT;
    if constexpr (std::is_floating_point_v<T>) {
      if (solve) trn::blas::trsv(s, to_uplo(uplo), to_op(trans), unit, n, A, lda, x, incx, rep);
      else trn::blas::trmv(s, to_uplo(uplo), to_op(trans), unit, n, A, lda, x, incx, rep);
    } else {
      const bool conj = trans == TRNBLAS_OP_C;
      if (solve) trn::blas::trsv(s, to_uplo(uplo), to_op(trans), conj, unit, n, cpp(A), lda, cpp(x), incx, rep);
      else trn::blas::trmv(s, to_uplo(uplo), to_op(trans), conj, unit, n, cpp(A), lda, cpp(x), incx, rep);
    }
  });
}

// Packed storage of n(n + 1)/2 elements is addressable.
bool packed_addressable(std::int64_t n) {
  return n <= 0 || (trn::cshim::checked_mul(n, n + 1) >= 0 && trn::cshim::checked_mul(n * (n + 1) / 2, 8) >= 0);
}

// gbmv: trans 1, m 2, n 3, kl 4, ku 5, alpha 6, A 7, lda 8, x 9, incx 10, beta 11, y 12, incy 13.
template <class I, class CT>
trnblasStatus_t gbmv_impl(trnblasHandle_t h, const char* fn, int trans, I m, I n, I kl, I ku, const CT* alpha_c,
                          const CT* A, I lda, const CT* x, I incx, const CT* beta_c, CT* y, I incy) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const auto* alpha = cpp(alpha_c);
  const auto* beta = cpp(beta_c);
  using T = std::remove_const_t<std::remove_pointer_t<decltype(alpha)>>;
  const std::int64_t len_x = trans == TRNBLAS_OP_N ? n : m, len_y = trans == TRNBLAS_OP_N ? m : n;
  auto chk = arg_check(h, fn);
  chk.require(op_ok(trans), 1, "trans")
      .nonnegative(m, 2, "m")
      .nonnegative(n, 3, "n")
      .nonnegative(kl, 4, "kl")
      .nonnegative(ku, 5, "ku")
      .require(static_cast<std::int64_t>(lda) >= static_cast<std::int64_t>(kl) + ku + 1 &&
                   matrix_addressable(static_cast<std::int64_t>(kl) + ku + 1, n, lda), 8, "lda")
      .require(inc_ok(len_x, incx), 10, "incx")
      .require(inc_ok(len_y, incy), 13, "incy")
      .not_null(alpha, 6, "alpha")
      .not_null(beta, 11, "beta");
  if (!chk) return chk.status();
  const bool quick = m == 0 || n == 0 || (*alpha == T(0) && *beta == T(1));
  if (!quick) chk.require(*alpha == T(0) || A != nullptr, 7, "A").require(*alpha == T(0) || x != nullptr, 9, "x").not_null(y, 12, "y");
  if (!chk) return chk.status();
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (quick) return;
    if constexpr (std::is_floating_point_v<T>)
      trn::blas::gbmv(s, to_op(trans), m, n, kl, ku, *alpha, A, lda, x, incx, *beta, y, incy, rep);
    else
      trn::blas::gbmv(s, to_op(trans), trans == TRNBLAS_OP_C, m, n, kl, ku, *alpha, cpp(A), lda, cpp(x), incx, *beta,
                      cpp(y), incy, rep);
  });
}

// sbmv: uplo 1, n 2, k 3, alpha 4, A 5, lda 6, x 7, incx 8, beta 9, y 10, incy 11;
// spmv: uplo 1, n 2, alpha 3, AP 4, x 5, incx 6, beta 7, y 8, incy 9 (band < 0: packed).
// Also hbmv / hpmv for complex types.
template <class I, class CT>
trnblasStatus_t sbmv_impl(trnblasHandle_t h, const char* fn, bool packed, int uplo, I n, I k, const CT* alpha_c,
                          const CT* A, I lda, const CT* x, I incx, const CT* beta_c, CT* y, I incy) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const auto* alpha = cpp(alpha_c);
  const auto* beta = cpp(beta_c);
  using T = std::remove_const_t<std::remove_pointer_t<decltype(alpha)>>;
  const int o = packed ? -1 : 0;  // packed signatures have no k and no lda
  auto chk = arg_check(h, fn);
  chk.require(uplo_ok(uplo), 1, "uplo").nonnegative(n, 2, "n");
  if (!packed)
    chk.nonnegative(k, 3, "k").require(lda >= k + 1 && matrix_addressable(static_cast<std::int64_t>(k) + 1, n, lda), 6, "lda");
  else
    chk.require(packed_addressable(n), 2, "n");
  chk.require(inc_ok(n, incx), 8 + 2 * o, "incx")
      .require(inc_ok(n, incy), 11 + 2 * o, "incy")
      .not_null(alpha, 4 + o, "alpha")
      .not_null(beta, 9 + 2 * o, "beta");
  if (!chk) return chk.status();
  const bool quick = n == 0 || (*alpha == T(0) && *beta == T(1));
  if (!quick)
    chk.require(*alpha == T(0) || A != nullptr, 5 + o, packed ? "AP" : "A")
        .require(*alpha == T(0) || x != nullptr, 7 + 2 * o, "x")
        .not_null(y, 10 + 2 * o, "y");
  if (!chk) return chk.status();
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (quick) return;
    if constexpr (std::is_floating_point_v<T>) {
      if (packed) trn::blas::spmv(s, to_uplo(uplo), n, *alpha, A, x, incx, *beta, y, incy, rep);
      else trn::blas::sbmv(s, to_uplo(uplo), n, k, *alpha, A, lda, x, incx, *beta, y, incy, rep);
    } else {
      if (packed) trn::blas::hpmv(s, to_uplo(uplo), n, *alpha, cpp(A), cpp(x), incx, *beta, cpp(y), incy, rep);
      else trn::blas::hbmv(s, to_uplo(uplo), n, k, *alpha, cpp(A), lda, cpp(x), incx, *beta, cpp(y), incy, rep);
    }
  });
}

// tbmv/tbsv: uplo 1, trans 2, diag 3, n 4, k 5, A 6, lda 7, x 8, incx 9;
// tpmv/tpsv: uplo 1, trans 2, diag 3, n 4, AP 5, x 6, incx 7.
template <class I, class T>
trnblasStatus_t tb_impl(trnblasHandle_t h, const char* fn, bool packed, bool solve, int uplo, int trans, int diag, I n,
                        I k, const T* A, I lda, T* x, I incx) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const int o = packed ? -2 : 0;
  auto chk = arg_check(h, fn);
  chk.require(uplo_ok(uplo), 1, "uplo").require(op_ok(trans), 2, "trans").require(diag_ok(diag), 3, "diag").nonnegative(n, 4, "n");
  if (!packed)
    chk.nonnegative(k, 5, "k").require(lda >= k + 1 && matrix_addressable(static_cast<std::int64_t>(k) + 1, n, lda), 7, "lda");
  else
    chk.require(packed_addressable(n), 4, "n");
  chk.require(inc_ok(n, incx), 9 + o, "incx");
  if (n > 0) chk.not_null(A, packed ? 5 : 6, packed ? "AP" : "A").not_null(x, 8 + o, "x");
  if (!chk) return chk.status();
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (n == 0) return;
    const bool unit = diag == TRNBLAS_DIAG_UNIT;
    const Uplo u = to_uplo(uplo);
    const Op t = to_op(trans);
    if constexpr (std::is_floating_point_v<T>) {
      if (packed) {
        if (solve) trn::blas::tpsv(s, u, t, unit, n, A, x, incx, rep);
        else trn::blas::tpmv(s, u, t, unit, n, A, x, incx, rep);
      } else {
        if (solve) trn::blas::tbsv(s, u, t, unit, n, k, A, lda, x, incx, rep);
        else trn::blas::tbmv(s, u, t, unit, n, k, A, lda, x, incx, rep);
      }
    } else {
      const bool c = trans == TRNBLAS_OP_C;
      if (packed) {
        if (solve) trn::blas::tpsv(s, u, t, c, unit, n, cpp(A), cpp(x), incx, rep);
        else trn::blas::tpmv(s, u, t, c, unit, n, cpp(A), cpp(x), incx, rep);
      } else {
        if (solve) trn::blas::tbsv(s, u, t, c, unit, n, k, cpp(A), lda, cpp(x), incx, rep);
        else trn::blas::tbmv(s, u, t, c, unit, n, k, cpp(A), lda, cpp(x), incx, rep);
      }
    }
  });
}

// syr: uplo 1, n 2, alpha 3, x 4, incx 5, A 6, lda 7; spr: ... AP 6.
// syr2: uplo 1, n 2, alpha 3, x 4, incx 5, y 6, incy 7, A 8, lda 9; spr2: ... AP 8.
// Also her/hpr (real alpha) and her2/hpr2 (complex alpha) for complex x, y, A.
template <class I, class AT, class CT>
trnblasStatus_t syr_impl(trnblasHandle_t h, const char* fn, bool packed, bool two, int uplo, I n, const AT* alpha_c,
                         const CT* x, I incx, const CT* y, I incy, CT* A, I lda, bool hermitian = true) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const auto* alpha = cpp(alpha_c);
  using T = std::remove_const_t<std::remove_pointer_t<decltype(alpha)>>;
  const int o = two ? 2 : 0;
  auto chk = arg_check(h, fn);
  chk.require(uplo_ok(uplo), 1, "uplo").nonnegative(n, 2, "n").require(inc_ok(n, incx), 5, "incx");
  if (two) chk.require(inc_ok(n, incy), 7, "incy");
  if (!packed) chk.leading_dim(lda, n, 7 + o, "lda").require(matrix_addressable(n, n, lda), 7 + o, "lda");
  else chk.require(packed_addressable(n), 2, "n");
  chk.not_null(alpha, 3, "alpha");
  if (!chk) return chk.status();
  const bool quick = n == 0 || *alpha == T(0);
  if (!quick) {
    chk.not_null(x, 4, "x");
    if (two) chk.not_null(y, 6, "y");
    chk.not_null(A, 6 + o, packed ? "AP" : "A");
  }
  if (!chk) return chk.status();
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (quick) return;
    const Uplo u = to_uplo(uplo);
    if constexpr (std::is_same_v<CT, trnFloatComplex> || std::is_same_v<CT, trnDoubleComplex>) {
      if constexpr (std::is_floating_point_v<T>) {  // her, hpr
        if (packed) trn::blas::hpr(s, u, n, *alpha, cpp(x), incx, cpp(A), rep);
        else trn::blas::her(s, u, n, *alpha, cpp(x), incx, cpp(A), lda, rep);
      } else if (!hermitian) {  // complex symmetric syr, syr2 (dense only, as cuBLAS)
        if (two) trn::blas::syr2(s, u, n, *alpha, cpp(x), incx, cpp(y), incy, cpp(A), lda, rep);
        else trn::blas::syr(s, u, n, *alpha, cpp(x), incx, cpp(A), lda, rep);
      } else {  // her2, hpr2
        if (packed) trn::blas::hpr2(s, u, n, *alpha, cpp(x), incx, cpp(y), incy, cpp(A), rep);
        else trn::blas::her2(s, u, n, *alpha, cpp(x), incx, cpp(y), incy, cpp(A), lda, rep);
      }
    } else {
      if (two && packed) trn::blas::spr2(s, u, n, *alpha, x, incx, y, incy, A, rep);
      else if (two) trn::blas::syr2(s, u, n, *alpha, x, incx, y, incy, A, lda, rep);
      else if (packed) trn::blas::spr(s, u, n, *alpha, x, incx, A, rep);
      else trn::blas::syr(s, u, n, *alpha, x, incx, A, lda, rep);
    }
  });
}

}  // namespace

extern "C" {

#define TRNBLAS_L2_REAL(P, T, I, SUF)                                                                                  \
  trnblasStatus_t trnblas##P##gemv##SUF(trnblasHandle_t h, trnblasOperation_t trans, I m, I n, const T* alpha,         \
                                        const T* A, I lda, const T* x, I incx, const T* beta, T* y, I incy) {          \
    return gemv_impl<I, T>(h, "trnblas" #P "gemv" #SUF, enum_value(trans), m, n, alpha, A, lda, x, incx, beta, y,      \
                           incy);                                                                                      \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##ger##SUF(trnblasHandle_t h, I m, I n, const T* alpha, const T* x, I incx, const T* y,    \
                                       I incy, T* A, I lda) {                                                          \
    return ger_impl<I, T>(h, "trnblas" #P "ger" #SUF, false, m, n, alpha, x, incx, y, incy, A, lda);                          \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##symv##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, I n, const T* alpha, const T* A,    \
                                        I lda, const T* x, I incx, const T* beta, T* y, I incy) {                      \
    return symv_impl<I, T>(h, "trnblas" #P "symv" #SUF, enum_value(uplo), n, alpha, A, lda, x, incx, beta, y, incy);   \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##trmv##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans,           \
                                        trnblasDiagType_t diag, I n, const T* A, I lda, T* x, I incx) {                \
    return tr_impl<I, T>(h, "trnblas" #P "trmv" #SUF, false, enum_value(uplo), enum_value(trans), enum_value(diag), n, \
                         A, lda, x, incx);                                                                             \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##trsv##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans,           \
                                        trnblasDiagType_t diag, I n, const T* A, I lda, T* x, I incx) {                \
    return tr_impl<I, T>(h, "trnblas" #P "trsv" #SUF, true, enum_value(uplo), enum_value(trans), enum_value(diag), n,  \
                         A, lda, x, incx);                                                                             \
  }

TRNBLAS_L2_REAL(S, float, int, )
TRNBLAS_L2_REAL(S, float, int64_t, _64)
TRNBLAS_L2_REAL(D, double, int, )
TRNBLAS_L2_REAL(D, double, int64_t, _64)

// The banded and packed triangular routines (TBMV, TBSV, TPMV, TPSV), real and complex.
#define TRNBLAS_CAPI_L2_BANDED_PACKED_TRIANGULAR(P, I, T, SUF)                                                         \
  trnblasStatus_t trnblas##P##tbmv##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans,           \
                                        trnblasDiagType_t diag, I n, I k, const T* A, I lda, T* x, I incx) {           \
    return tb_impl<I, T>(h, "trnblas" #P "tbmv" #SUF, false, false, enum_value(uplo), enum_value(trans),               \
                         enum_value(diag), n, k, A, lda, x, incx);                                                     \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##tbsv##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans,           \
                                        trnblasDiagType_t diag, I n, I k, const T* A, I lda, T* x, I incx) {           \
    return tb_impl<I, T>(h, "trnblas" #P "tbsv" #SUF, false, true, enum_value(uplo), enum_value(trans),                \
                         enum_value(diag), n, k, A, lda, x, incx);                                                     \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##tpmv##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans,           \
                                        trnblasDiagType_t diag, I n, const T* AP, T* x, I incx) {                      \
    return tb_impl<I, T>(h, "trnblas" #P "tpmv" #SUF, true, false, enum_value(uplo), enum_value(trans),                \
                         enum_value(diag), n, I{0}, AP, I{1}, x, incx);                                                \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##tpsv##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans,           \
                                        trnblasDiagType_t diag, I n, const T* AP, T* x, I incx) {                      \
    return tb_impl<I, T>(h, "trnblas" #P "tpsv" #SUF, true, true, enum_value(uplo), enum_value(trans),                 \
                         enum_value(diag), n, I{0}, AP, I{1}, x, incx);                                                \
  }

#define TRNBLAS_L2_STORAGE(P, T, I, SUF)                                                                               \
  trnblasStatus_t trnblas##P##gbmv##SUF(trnblasHandle_t h, trnblasOperation_t trans, I m, I n, I kl, I ku,             \
                                        const T* alpha, const T* A, I lda, const T* x, I incx, const T* beta, T* y,    \
                                        I incy) {                                                                      \
    return gbmv_impl<I, T>(h, "trnblas" #P "gbmv" #SUF, enum_value(trans), m, n, kl, ku, alpha, A, lda, x, incx, beta, \
                           y, incy);                                                                                   \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##sbmv##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, I n, I k, const T* alpha,           \
                                        const T* A, I lda, const T* x, I incx, const T* beta, T* y, I incy) {          \
    return sbmv_impl<I, T>(h, "trnblas" #P "sbmv" #SUF, false, enum_value(uplo), n, k, alpha, A, lda, x, incx, beta,   \
                           y, incy);                                                                                   \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##spmv##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, I n, const T* alpha, const T* AP,   \
                                        const T* x, I incx, const T* beta, T* y, I incy) {                             \
    return sbmv_impl<I, T>(h, "trnblas" #P "spmv" #SUF, true, enum_value(uplo), n, I{0}, alpha, AP, I{1}, x, incx,     \
                           beta, y, incy);                                                                             \
  }                                                                                                                    \
  TRNBLAS_CAPI_L2_BANDED_PACKED_TRIANGULAR(P, I, T, SUF)                                                               \
  trnblasStatus_t trnblas##P##syr##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, I n, const T* alpha, const T* x,     \
                                       I incx, T* A, I lda) {                                                          \
    return syr_impl<I, T, T>(h, "trnblas" #P "syr" #SUF, false, false, enum_value(uplo), n, alpha, x, incx, nullptr,      \
                          I{1}, A, lda);                                                                               \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##spr##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, I n, const T* alpha, const T* x,     \
                                       I incx, T* AP) {                                                                \
    return syr_impl<I, T, T>(h, "trnblas" #P "spr" #SUF, true, false, enum_value(uplo), n, alpha, x, incx, nullptr, I{1}, \
                          AP, I{1});                                                                                   \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##syr2##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, I n, const T* alpha, const T* x,    \
                                        I incx, const T* y, I incy, T* A, I lda) {                                     \
    return syr_impl<I, T, T>(h, "trnblas" #P "syr2" #SUF, false, true, enum_value(uplo), n, alpha, x, incx, y, incy, A,   \
                          lda);                                                                                        \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##spr2##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, I n, const T* alpha, const T* x,    \
                                        I incx, const T* y, I incy, T* AP) {                                           \
    return syr_impl<I, T, T>(h, "trnblas" #P "spr2" #SUF, true, true, enum_value(uplo), n, alpha, x, incx, y, incy, AP,   \
                          I{1});                                                                                       \
  }

TRNBLAS_L2_STORAGE(S, float, int, )
TRNBLAS_L2_STORAGE(S, float, int64_t, _64)
TRNBLAS_L2_STORAGE(D, double, int, )
TRNBLAS_L2_STORAGE(D, double, int64_t, _64)

#define TRNBLAS_L2_COMPLEX(P, T, I, SUF)                                                                               \
  trnblasStatus_t trnblas##P##gemv##SUF(trnblasHandle_t h, trnblasOperation_t trans, I m, I n, const T* alpha,         \
                                        const T* A, I lda, const T* x, I incx, const T* beta, T* y, I incy) {          \
    return gemv_impl<I, T>(h, "trnblas" #P "gemv" #SUF, enum_value(trans), m, n, alpha, A, lda, x, incx, beta, y,      \
                           incy);                                                                                      \
  }

// Complex Hermitian and rank-1 forms.
#define TRNBLAS_L2_COMPLEX_MORE(P, T, R, I, SUF)                                                                          \
  trnblasStatus_t trnblas##P##hemv##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, I n, const T* alpha, const T* A,    \
                                        I lda, const T* x, I incx, const T* beta, T* y, I incy) {                      \
    return symv_impl<I, T>(h, "trnblas" #P "hemv" #SUF, enum_value(uplo), n, alpha, A, lda, x, incx, beta, y, incy);   \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##geru##SUF(trnblasHandle_t h, I m, I n, const T* alpha, const T* x, I incx, const T* y,   \
                                        I incy, T* A, I lda) {                                                         \
    return ger_impl<I, T>(h, "trnblas" #P "geru" #SUF, false, m, n, alpha, x, incx, y, incy, A, lda);                  \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##gerc##SUF(trnblasHandle_t h, I m, I n, const T* alpha, const T* x, I incx, const T* y,   \
                                        I incy, T* A, I lda) {                                                         \
    return ger_impl<I, T>(h, "trnblas" #P "gerc" #SUF, true, m, n, alpha, x, incx, y, incy, A, lda);                   \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##hbmv##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, I n, I k, const T* alpha,           \
                                        const T* A, I lda, const T* x, I incx, const T* beta, T* y, I incy) {          \
    return sbmv_impl<I, T>(h, "trnblas" #P "hbmv" #SUF, false, enum_value(uplo), n, k, alpha, A, lda, x, incx, beta,   \
                           y, incy);                                                                                   \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##hpmv##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, I n, const T* alpha, const T* AP,   \
                                        const T* x, I incx, const T* beta, T* y, I incy) {                             \
    return sbmv_impl<I, T>(h, "trnblas" #P "hpmv" #SUF, true, enum_value(uplo), n, I{0}, alpha, AP, I{1}, x, incx,     \
                           beta, y, incy);                                                                             \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##her##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, I n, const R* alpha, const T* x,     \
                                       I incx, T* A, I lda) {                                                          \
    return syr_impl<I, R, T>(h, "trnblas" #P "her" #SUF, false, false, enum_value(uplo), n, alpha, x, incx, nullptr,   \
                             I{1}, A, lda);                                                                            \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##hpr##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, I n, const R* alpha, const T* x,     \
                                       I incx, T* AP) {                                                                \
    return syr_impl<I, R, T>(h, "trnblas" #P "hpr" #SUF, true, false, enum_value(uplo), n, alpha, x, incx, nullptr,    \
                             I{1}, AP, I{1});                                                                          \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##her2##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, I n, const T* alpha, const T* x,    \
                                        I incx, const T* y, I incy, T* A, I lda) {                                     \
    return syr_impl<I, T, T>(h, "trnblas" #P "her2" #SUF, false, true, enum_value(uplo), n, alpha, x, incx, y, incy,   \
                             A, lda);                                                                                  \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##hpr2##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, I n, const T* alpha, const T* x,    \
                                        I incx, const T* y, I incy, T* AP) {                                           \
    return syr_impl<I, T, T>(h, "trnblas" #P "hpr2" #SUF, true, true, enum_value(uplo), n, alpha, x, incx, y, incy,    \
                             AP, I{1});                                                                                \
  }

TRNBLAS_L2_COMPLEX_MORE(C, trnFloatComplex, float, int, )
TRNBLAS_L2_COMPLEX_MORE(C, trnFloatComplex, float, int64_t, _64)
TRNBLAS_L2_COMPLEX_MORE(Z, trnDoubleComplex, double, int, )
TRNBLAS_L2_COMPLEX_MORE(Z, trnDoubleComplex, double, int64_t, _64)

// Complex symmetric, banded and triangular forms.
#define TRNBLAS_L2_COMPLEX_EXTRA(P, T, I, SUF)                                                                         \
  trnblasStatus_t trnblas##P##symv##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, I n, const T* alpha, const T* A,    \
                                        I lda, const T* x, I incx, const T* beta, T* y, I incy) {                      \
    return symv_impl<I, T>(h, "trnblas" #P "symv" #SUF, enum_value(uplo), n, alpha, A, lda, x, incx, beta, y, incy,    \
                           false);                                                                                     \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##syr##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, I n, const T* alpha, const T* x,     \
                                       I incx, T* A, I lda) {                                                          \
    return syr_impl<I, T, T>(h, "trnblas" #P "syr" #SUF, false, false, enum_value(uplo), n, alpha, x, incx, nullptr,   \
                             I{1}, A, lda, false);                                                                     \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##syr2##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, I n, const T* alpha, const T* x,    \
                                        I incx, const T* y, I incy, T* A, I lda) {                                     \
    return syr_impl<I, T, T>(h, "trnblas" #P "syr2" #SUF, false, true, enum_value(uplo), n, alpha, x, incx, y, incy,   \
                             A, lda, false);                                                                           \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##gbmv##SUF(trnblasHandle_t h, trnblasOperation_t trans, I m, I n, I kl, I ku,             \
                                        const T* alpha, const T* A, I lda, const T* x, I incx, const T* beta, T* y,    \
                                        I incy) {                                                                      \
    return gbmv_impl<I, T>(h, "trnblas" #P "gbmv" #SUF, enum_value(trans), m, n, kl, ku, alpha, A, lda, x, incx, beta, \
                           y, incy);                                                                                   \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##trmv##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans,           \
                                        trnblasDiagType_t diag, I n, const T* A, I lda, T* x, I incx) {                \
    return tr_impl<I, T>(h, "trnblas" #P "trmv" #SUF, false, enum_value(uplo), enum_value(trans), enum_value(diag), n, \
                         A, lda, x, incx);                                                                             \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##trsv##SUF(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans,           \
                                        trnblasDiagType_t diag, I n, const T* A, I lda, T* x, I incx) {                \
    return tr_impl<I, T>(h, "trnblas" #P "trsv" #SUF, true, enum_value(uplo), enum_value(trans), enum_value(diag), n,  \
                         A, lda, x, incx);                                                                             \
  }                                                                                                                    \
  TRNBLAS_CAPI_L2_BANDED_PACKED_TRIANGULAR(P, I, T, SUF)

TRNBLAS_L2_COMPLEX_EXTRA(C, trnFloatComplex, int, )
TRNBLAS_L2_COMPLEX_EXTRA(C, trnFloatComplex, int64_t, _64)
TRNBLAS_L2_COMPLEX_EXTRA(Z, trnDoubleComplex, int, )
TRNBLAS_L2_COMPLEX_EXTRA(Z, trnDoubleComplex, int64_t, _64)

TRNBLAS_L2_COMPLEX(C, trnFloatComplex, int, )
TRNBLAS_L2_COMPLEX(C, trnFloatComplex, int64_t, _64)
TRNBLAS_L2_COMPLEX(Z, trnDoubleComplex, int, )
TRNBLAS_L2_COMPLEX(Z, trnDoubleComplex, int64_t, _64)

}  // extern "C"

// ---- tpttr / trttp (cuBLAS Extensions; LAPACK's xTPTTR / xTRTTP) ---------------------------------

namespace {

// A triangle between packed (AP) and full (A, lda) storage. tpttr: uplo 1, n 2, AP 3, A 4, lda 5;
// trttp: uplo 1, n 2, A 3, lda 4, AP 5. Column j of the triangle is contiguous in both layouts
// (rows 0..j for upper, j..n-1 for lower; in AP from j(j+1)/2, resp. j(2n-j+1)/2, LAPACK's
// packed columnwise order), so the conversion is n contiguous copies: one program of copy_segments
// (one DMA in and one out per column) in every precision (fp64 and complex elements as their fp32
// words: a same-dtype DMA copies bits). The other triangle of A is neither read nor written.
template <class T>
trnblasStatus_t packed_full(trnblasHandle_t h, const char* fn, bool to_full, int uplo, int n, const T* src, int lda,
                            T* dst) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const int pos_lda = to_full ? 5 : 4;
  auto chk = arg_check(h, fn);
  chk.require(uplo_ok(uplo), 1, "uplo")
      .nonnegative(n, 2, "n")
      .require(packed_addressable(n), 2, "n")
      .leading_dim(lda, n, pos_lda, "lda")
      .require(matrix_addressable(n, n, lda), pos_lda, "lda");
  if (n > 0) chk.not_null(src, 3, to_full ? "AP" : "A").not_null(dst, to_full ? 4 : 5, to_full ? "A" : "AP");
  if (!chk) return chk.status();
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    const bool upper = uplo == TRNBLAS_FILL_MODE_UPPER;
    const std::int64_t order = n;
    // Column j: its offsets in src and dst and its length.
    auto column = [&](std::int64_t j, std::int64_t* from, std::int64_t* to, std::int64_t* length) {
      const std::int64_t packed = upper ? j * (j + 1) / 2 : j * (2 * order - j + 1) / 2;
      const std::int64_t full = (upper ? 0 : j) + j * static_cast<std::int64_t>(lda);
      *from = to_full ? packed : full;
      *to = to_full ? full : packed;
      *length = upper ? j + 1 : order - j;
    };
    std::int64_t from = 0, to = 0, length = 0;
    // Every element type is whole fp32 words: a same-dtype DMA moves the bits of fp64 and complex
    // elements unchanged, so D and Z take the same DMA program (no host loop).
    constexpr std::int64_t kFloats = sizeof(T) / sizeof(float);
    std::vector<trn::blas::CopySegment> columns(static_cast<std::size_t>(order));
    for (std::int64_t j = 0; j < order; ++j) {
      column(j, &from, &to, &length);
      columns[static_cast<std::size_t>(j)] = {reinterpret_cast<const float*>(src + from),
                                              reinterpret_cast<float*>(dst + to), kFloats * length};
    }
    trn::blas::copy_segments(s, columns, rep);
  });
}

}  // namespace

extern "C" {

#define TRNBLAS_CAPI_PACKED_FULL(P, T)                                                                                  \
  trnblasStatus_t trnblas##P##tpttr(trnblasHandle_t h, trnblasFillMode_t uplo, int n, const T* AP, T* A, int lda) {    \
    return packed_full<T>(h, "trnblas" #P "tpttr", true, enum_value(uplo), n, AP, lda, A);                            \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##trttp(trnblasHandle_t h, trnblasFillMode_t uplo, int n, const T* A, int lda, T* AP) {    \
    return packed_full<T>(h, "trnblas" #P "trttp", false, enum_value(uplo), n, A, lda, AP);                           \
  }

TRNBLAS_CAPI_PACKED_FULL(S, float)
TRNBLAS_CAPI_PACKED_FULL(D, double)
TRNBLAS_CAPI_PACKED_FULL(C, trnFloatComplex)
TRNBLAS_CAPI_PACKED_FULL(Z, trnDoubleComplex)

}  // extern "C"
