// libtrnblas_blas.so, Levels 1 and 2: netlib's INFO checks and the Fortran-level calls (column-major,
// Fortran characters) that the Fortran and CBLAS entry points of level1_*.cpp and level2_*.cpp
// share. Every Level 1 and 2 routine of the reference BLAS and CBLAS (trn/blas/level12.hpp; SDSDOT
// and DSDOT through trn::blas::sdsdot / dsdot: the Ozaki DGEMM of the widened floats).
#pragma once

#include <algorithm>
#include <cstdio>
#include <vector>

#include "abi_internal.hpp"

namespace trnblas_abi {

// ---- Level 1 ------------------------------------------------------------------------------------

template <class F>
void l1_call(const Entry& e, const Config& cfg, int n, int incx, int incy, F&& body) {
  char args[96];
  trace_args(args, sizeof args, "n=%d incx=%d incy=%d", n, incx, incy);
  run(e, args, cfg, std::forward<F>(body));
}

// Netlib's reduction routines walk a vector of negative increment backwards (dot) or return 0
// (asum, i?amax: incx <= 0). NRM2 (LAPACK 3.10's dnrm2.f90) walks it backwards and reads x(1) n times
// for incx == 0: both give the same set of |x_i| as a positive increment, staged here for incx == 0.
template <class T>
real_t<T> nrm2_call(const Entry& e, int n, const T* x, int incx) {
  const Config cfg = level12_config<T>();
  real_t<T> r = 0;
  l1_call(e, cfg, n, incx, 0, [&](trn::blas::CallReport* rep) {
    if (n <= 0) return;
    if (incx != 0) {
      r = trn::blas::nrm2(cfg.settings, n, x, incx < 0 ? -static_cast<std::int64_t>(incx) : incx, rep);
    } else {
      const std::vector<T> copies(static_cast<std::size_t>(n), x[0]);  // data movement only
      r = trn::blas::nrm2(cfg.settings, n, copies.data(), 1, rep);
    }
  });
  return r;
}

template <class T>
real_t<T> asum_call(const Entry& e, int n, const T* x, int incx) {
  const Config cfg = level12_config<T>();
  real_t<T> r = 0;
  l1_call(e, cfg, n, incx, 0, [&](trn::blas::CallReport* rep) {
    if (n > 0 && incx > 0) r = trn::blas::asum(cfg.settings, n, x, incx, rep);
  });
  return r;
}

template <class T>
int iamax_call(const Entry& e, int n, const T* x, int incx) {
  const Config cfg = level12_config<T>();
  std::int64_t r = 0;
  l1_call(e, cfg, n, incx, 0, [&](trn::blas::CallReport* rep) {
    if (n > 0 && incx > 0) r = trn::blas::iamax(cfg.settings, n, x, incx, rep);
  });
  return static_cast<int>(r);
}

template <class T>
T dot_call(const Entry& e, bool conjugate, int n, const T* x, int incx, const T* y, int incy) {
  const Config cfg = level12_config<T>();
  T r{};
  l1_call(e, cfg, n, incx, incy, [&](trn::blas::CallReport* rep) {
    if (n <= 0) return;
    if constexpr (is_complex_v<T>)
      r = trn::blas::dot(cfg.settings, n, x, incx, y, incy, conjugate, rep);
    else
      r = trn::blas::dot(cfg.settings, n, x, incx, y, incy, rep);
  });
  return r;
}

// SDSDOT (sb != nullptr: float(sb + sum), the sum in fp64) and DSDOT (the fp64 sum); n <= 0 returns
// sb (SDSDOT) or 0 as the reference does. The result is double for both (SDSDOT's is a float value).
inline double dsdot_call(const Entry& e, const float* sb, int n, const float* x, int incx, const float* y, int incy) {
  const Config cfg = level12_config<double>();
  double r = sb != nullptr ? *sb : 0.0;
  l1_call(e, cfg, n, incx, incy, [&](trn::blas::CallReport* rep) {
    if (n <= 0) return;
    r = sb != nullptr ? trn::blas::sdsdot(cfg.settings, n, *sb, x, incx, y, incy, rep)
                      : trn::blas::dsdot(cfg.settings, n, x, incx, y, incy, rep);
  });
  return r;
}

template <class T>
void axpy_call(const Entry& e, int n, T alpha, const T* x, int incx, T* y, int incy) {
  const Config cfg = level12_config<T>();
  l1_call(e, cfg, n, incx, incy, [&](trn::blas::CallReport* rep) {
    if (n > 0 && alpha != T(0)) trn::blas::axpy(cfg.settings, n, alpha, x, incx, y, incy, rep);
  });
}

template <class T, class A>
void scal_call(const Entry& e, int n, A alpha, T* x, int incx) {
  const Config cfg = level12_config<T>();
  l1_call(e, cfg, n, incx, 0, [&](trn::blas::CallReport* rep) {
    if (n > 0 && incx > 0) trn::blas::scal(cfg.settings, n, alpha, x, incx, rep);
  });
}

template <class T>
void copy_call(const Entry& e, int n, const T* x, int incx, T* y, int incy) {
  const Config cfg = level12_config<T>();
  l1_call(e, cfg, n, incx, incy, [&](trn::blas::CallReport* rep) {
    if (n > 0) trn::blas::copy(cfg.settings, n, x, incx, y, incy, rep);
  });
}

template <class T>
void swap_call(const Entry& e, int n, T* x, int incx, T* y, int incy) {
  const Config cfg = level12_config<T>();
  l1_call(e, cfg, n, incx, incy, [&](trn::blas::CallReport* rep) {
    if (n > 0) trn::blas::swap(cfg.settings, n, x, incx, y, incy, rep);
  });
}

template <class T>
void rot_call(const Entry& e, int n, T* x, int incx, T* y, int incy, real_t<T> c, real_t<T> s) {
  const Config cfg = level12_config<T>();
  l1_call(e, cfg, n, incx, incy, [&](trn::blas::CallReport* rep) {
    if (n > 0) trn::blas::rot(cfg.settings, n, x, incx, y, incy, c, s, rep);
  });
}

template <class T>
void rotm_call(const Entry& e, int n, T* x, int incx, T* y, int incy, const T* param) {
  const Config cfg = level12_config<T>();
  l1_call(e, cfg, n, incx, incy, [&](trn::blas::CallReport* rep) {
    if (n > 0) trn::blas::rotm(cfg.settings, n, x, incx, y, incy, param, rep);
  });
}

// rotg / rotmg: scalar setups (host arithmetic in trnblas, no kernel; traced with 0 instructions).
template <class T, class B, class R>
void rotg_call(const Entry& e, T* a, B* b, R* c, T* s) {
  const Config cfg = level12_config<T>();
  run(e, "", cfg, [&](trn::blas::CallReport*) { trn::blas::rotg(*a, *b, *c, *s); });
}
template <class T>
void rotmg_call(const Entry& e, T* d1, T* d2, T* x1, T y1, T* param) {
  const Config cfg = level12_config<T>();
  run(e, "", cfg, [&](trn::blas::CallReport*) { trn::blas::rotmg(*d1, *d2, *x1, y1, param); });
}

// ---- Level 2: netlib INFO values (0: valid) ----------------------------------------------------

// A Level 2 call: INFO checked, then body(settings, report) unless netlib's quick return applies.
template <class T, class F>
void l2_call(const Entry& e, const char* args, int info, bool quick, F&& body) {
  run_checked(e, args, info, level12_config<T>, [&](const Config& cfg, trn::blas::CallReport* report) {
    if (!quick) body(cfg.settings, report);
  });
}

// GEMV INFO 1 trans, 2 m, 3 n, 6 lda, 8 incx, 11 incy; GBMV 1 trans, 2 m, 3 n, 4 kl, 5 ku, 8 lda,
// 10 incx, 13 incy (kl < 0: GEMV).
// conj_n (complex CBLAS row-major ConjTrans only): y = alpha conj(A) x + beta y with trans 'N'.
template <class T>
void gemv_call(const Entry& e, char trans, int m, int n, int kl, int ku, T alpha, const T* A, int lda, const T* x,
               int incx, T beta, T* y, int incy, bool band, bool conj_n = false) {
  char args[160];
  trace_args(args, sizeof args, "trans=%c m=%d n=%d kl=%d ku=%d lda=%d incx=%d incy=%d", trans, m, n, kl, ku, lda,
                incx, incy);
  const int o = band ? 2 : 0;
  const int info = first_info({{!trans_ok(trans), 1},
                               {m < 0, 2},
                               {n < 0, 3},
                               {band && kl < 0, 4},
                               {band && ku < 0, 5},
                               {lda < (band ? kl + ku + 1 : std::max(1, m)), 6 + o},
                               {incx == 0, 8 + o},
                               {incy == 0, 11 + o}});
  const bool quick = m == 0 || n == 0 || (alpha == T(0) && beta == T(1));
  l2_call<T>(e, args, info, quick, [&](const trn::blas::Settings& s, trn::blas::CallReport* rep) {
    if constexpr (is_complex_v<T>) {
      if (band)
        trn::blas::gbmv(s, to_op(trans), conj_n || lsame(trans, 'C'), m, n, kl, ku, alpha, A, lda, x, incx, beta, y,
                        incy, rep);
      else
        trn::blas::gemv(s, to_op(trans), conj_n || lsame(trans, 'C'), m, n, alpha, A, lda, x, incx, beta, y, incy, rep);
    } else if (band)
      trn::blas::gbmv(s, to_op(trans), m, n, kl, ku, alpha, A, lda, x, incx, beta, y, incy, rep);
    else
      trn::blas::gemv(s, to_op(trans), m, n, alpha, A, lda, x, incx, beta, y, incy, rep);
  });
}

// SYMV/HEMV INFO 1 uplo, 2 n, 5 lda, 7 incx, 10 incy; SBMV/HBMV 1, 2, 3 k, 6 lda, 8, 11; SPMV/HPMV
// 1, 2, 6 incx, 9 incy. kind: 0 dense, 1 band, 2 packed.
template <class T>
void symv_call(const Entry& e, int kind, char uplo, int n, int k, T alpha, const T* A, int lda, const T* x, int incx,
               T beta, T* y, int incy) {
  char args[160];
  trace_args(args, sizeof args, "uplo=%c n=%d k=%d lda=%d incx=%d incy=%d", uplo, n, k, lda, incx, incy);
  const int o = kind == 1 ? 1 : kind == 2 ? -1 : 0;
  const int info = first_info({{!uplo_ok(uplo), 1},
                               {n < 0, 2},
                               {kind == 1 && k < 0, 3},
                               {kind == 0 && lda < std::max(1, n), 5},
                               {kind == 1 && lda < k + 1, 6},
                               {incx == 0, 7 + o},
                               {incy == 0, 10 + o}});
  const bool quick = n == 0 || (alpha == T(0) && beta == T(1));
  l2_call<T>(e, args, info, quick, [&](const trn::blas::Settings& s, trn::blas::CallReport* rep) {
    const Uplo ul = to_uplo(uplo);
    if constexpr (is_complex_v<T>) {
      if (kind == 0) trn::blas::hemv(s, ul, n, alpha, A, lda, x, incx, beta, y, incy, rep);
      else if (kind == 1) trn::blas::hbmv(s, ul, n, k, alpha, A, lda, x, incx, beta, y, incy, rep);
      else trn::blas::hpmv(s, ul, n, alpha, A, x, incx, beta, y, incy, rep);
    } else {
      if (kind == 0) trn::blas::symv(s, ul, n, alpha, A, lda, x, incx, beta, y, incy, rep);
      else if (kind == 1) trn::blas::sbmv(s, ul, n, k, alpha, A, lda, x, incx, beta, y, incy, rep);
      else trn::blas::spmv(s, ul, n, alpha, A, x, incx, beta, y, incy, rep);
    }
  });
}

// TRMV/TRSV INFO 1 uplo, 2 trans, 3 diag, 4 n, 6 lda, 8 incx; TBMV/TBSV 1-4, 5 k, 7 lda, 9 incx;
// TPMV/TPSV 1-4, 7 incx. kind: 0 dense, 1 band, 2 packed. Complex: trans 'C' is the conjugate transpose.
template <class T>
void tr_call(const Entry& e, int kind, bool solve, char uplo, char trans, char diag, int n, int k, const T* A, int lda,
             T* x, int incx) {
  char args[160];
  trace_args(args, sizeof args, "uplo=%c trans=%c diag=%c n=%d k=%d lda=%d incx=%d", uplo, trans, diag, n, k, lda,
                incx);
  const int info = first_info({{!uplo_ok(uplo), 1},
                               {!trans_ok(trans), 2},
                               {!diag_ok(diag), 3},
                               {n < 0, 4},
                               {kind == 1 && k < 0, 5},
                               {kind == 0 && lda < std::max(1, n), 6},
                               {kind == 1 && lda < k + 1, 7},
                               {incx == 0, kind == 0 ? 8 : kind == 1 ? 9 : 7}});
  l2_call<T>(e, args, info, n == 0, [&](const trn::blas::Settings& s, trn::blas::CallReport* rep) {
    const Uplo ul = to_uplo(uplo);
    const Op op = to_op(trans);
    const bool unit = lsame(diag, 'U');
    if constexpr (is_complex_v<T>) {
      const bool c = lsame(trans, 'C');
      if (kind == 0) {
        if (solve) trn::blas::trsv(s, ul, op, c, unit, n, A, lda, x, incx, rep);
        else trn::blas::trmv(s, ul, op, c, unit, n, A, lda, x, incx, rep);
      } else if (kind == 1) {
        if (solve) trn::blas::tbsv(s, ul, op, c, unit, n, k, A, lda, x, incx, rep);
        else trn::blas::tbmv(s, ul, op, c, unit, n, k, A, lda, x, incx, rep);
      } else {
        if (solve) trn::blas::tpsv(s, ul, op, c, unit, n, A, x, incx, rep);
        else trn::blas::tpmv(s, ul, op, c, unit, n, A, x, incx, rep);
      }
    } else if (kind == 0) {
      if (solve) trn::blas::trsv(s, ul, op, unit, n, A, lda, x, incx, rep);
      else trn::blas::trmv(s, ul, op, unit, n, A, lda, x, incx, rep);
    } else if (kind == 1) {
      if (solve) trn::blas::tbsv(s, ul, op, unit, n, k, A, lda, x, incx, rep);
      else trn::blas::tbmv(s, ul, op, unit, n, k, A, lda, x, incx, rep);
    } else {
      if (solve) trn::blas::tpsv(s, ul, op, unit, n, A, x, incx, rep);
      else trn::blas::tpmv(s, ul, op, unit, n, A, x, incx, rep);
    }
  });
}

// GER/GERU/GERC INFO 1 m, 2 n, 5 incx, 7 incy, 9 lda.
template <class T>
void ger_call(const Entry& e, bool conjugate, int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* A,
              int lda) {
  char args[128];
  trace_args(args, sizeof args, "m=%d n=%d incx=%d incy=%d lda=%d", m, n, incx, incy, lda);
  const int info = first_info({{m < 0, 1}, {n < 0, 2}, {incx == 0, 5}, {incy == 0, 7}, {lda < std::max(1, m), 9}});
  const bool quick = m == 0 || n == 0 || alpha == T(0);
  l2_call<T>(e, args, info, quick, [&](const trn::blas::Settings& s, trn::blas::CallReport* rep) {
    if constexpr (is_complex_v<T>)
      trn::blas::ger(s, conjugate, m, n, alpha, x, incx, y, incy, A, lda, rep);
    else
      trn::blas::ger(s, m, n, alpha, x, incx, y, incy, A, lda, rep);
  });
}

// SYR/HER INFO 1 uplo, 2 n, 5 incx, 7 lda; SPR/HPR 1, 2, 5; SYR2/HER2 1, 2, 5, 7 incy, 9 lda;
// SPR2/HPR2 1, 2, 5, 7. A is the packed AP when `packed`. alpha: real for SYR/SPR/HER/HPR.
template <class T, class A>
void syr_call(const Entry& e, bool packed, bool two, char uplo, int n, A alpha, const T* x, int incx, const T* y,
              int incy, T* a, int lda) {
  char args[128];
  trace_args(args, sizeof args, "uplo=%c n=%d incx=%d incy=%d lda=%d", uplo, n, incx, incy, lda);
  const int info = first_info({{!uplo_ok(uplo), 1},
                               {n < 0, 2},
                               {incx == 0, 5},
                               {two && incy == 0, 7},
                               {!packed && lda < std::max(1, n), two ? 9 : 7}});
  const bool quick = n == 0 || alpha == A(0);
  l2_call<T>(e, args, info, quick, [&](const trn::blas::Settings& s, trn::blas::CallReport* rep) {
    const Uplo ul = to_uplo(uplo);
    if constexpr (is_complex_v<T> && !is_complex_v<A>) {  // her, hpr
      if (packed) trn::blas::hpr(s, ul, n, alpha, x, incx, a, rep);
      else trn::blas::her(s, ul, n, alpha, x, incx, a, lda, rep);
    } else if constexpr (is_complex_v<T>) {  // her2, hpr2
      if (packed) trn::blas::hpr2(s, ul, n, alpha, x, incx, y, incy, a, rep);
      else trn::blas::her2(s, ul, n, alpha, x, incx, y, incy, a, lda, rep);
    } else if (two) {
      if (packed) trn::blas::spr2(s, ul, n, alpha, x, incx, y, incy, a, rep);
      else trn::blas::syr2(s, ul, n, alpha, x, incx, y, incy, a, lda, rep);
    } else {
      if (packed) trn::blas::spr(s, ul, n, alpha, x, incx, a, rep);
      else trn::blas::syr(s, ul, n, alpha, x, incx, a, lda, rep);
    }
  });
}

}  // namespace trnblas_abi
