// libtrnblas_blas.so, Level 3: netlib's INFO checks and the Fortran-level calls (column-major,
// Fortran characters) that the Fortran and CBLAS entry points of level3_fortran.cpp and
// level3_cblas.cpp share. T: float, double, std::complex<float> or std::complex<double>.
#pragma once

#include <algorithm>
#include <cstdio>

#include "abi_internal.hpp"

namespace trnblas_abi {

// SGEMM (and D, C, Z) INFO: 1 transa, 2 transb, 3 m, 4 n, 5 k, 8 lda, 10 ldb, 13 ldc (0: valid).
inline int gemm_info(char ta, char tb, int m, int n, int k, int lda, int ldb, int ldc) {
  const int nrowa = lsame(ta, 'N') ? m : k, nrowb = lsame(tb, 'N') ? k : n;
  return first_info({{!trans_ok(ta), 1},
                     {!trans_ok(tb), 2},
                     {m < 0, 3},
                     {n < 0, 4},
                     {k < 0, 5},
                     {lda < std::max(1, nrowa), 8},
                     {ldb < std::max(1, nrowb), 10},
                     {ldc < std::max(1, m), 13}});
}

// SSYRK (and C/Z SYRK, HERK) INFO: 1 uplo, 2 trans, 3 n, 4 k, 7 lda, 10 ldc; SSYR2K (and C/Z
// SYR2K, HER2K): ... 7 lda, 9 ldb, 12 ldc (two). trans is one of `accepted`.
inline int rank_k_info(bool two, char uplo, char trans, int n, int k, int lda, int ldb, int ldc, const char* accepted) {
  const int nrowa = lsame(trans, 'N') ? n : k;
  return first_info({{!uplo_ok(uplo), 1},
                     {!trans_in(trans, accepted), 2},
                     {n < 0, 3},
                     {k < 0, 4},
                     {lda < std::max(1, nrowa), 7},
                     {two && ldb < std::max(1, nrowa), 9},
                     {ldc < std::max(1, n), two ? 12 : 10}});
}

// STRSM/STRMM (and D, C, Z) INFO: 1 side, 2 uplo, 3 transa, 4 diag, 5 m, 6 n, 9 lda, 11 ldb.
inline int triangular_info(char side, char uplo, char ta, char diag, int m, int n, int lda, int ldb) {
  const int nrowa = lsame(side, 'L') ? m : n;
  return first_info({{!side_ok(side), 1},
                     {!uplo_ok(uplo), 2},
                     {!trans_ok(ta), 3},
                     {!diag_ok(diag), 4},
                     {m < 0, 5},
                     {n < 0, 6},
                     {lda < std::max(1, nrowa), 9},
                     {ldb < std::max(1, m), 11}});
}

// SSYMM (and D, C/Z SYMM, HEMM) INFO: 1 side, 2 uplo, 3 m, 4 n, 7 lda, 9 ldb, 12 ldc.
inline int symm_info(char side, char uplo, int m, int n, int lda, int ldb, int ldc) {
  const int nrowa = lsame(side, 'L') ? m : n;
  return first_info({{!side_ok(side), 1},
                     {!uplo_ok(uplo), 2},
                     {m < 0, 3},
                     {n < 0, 4},
                     {lda < std::max(1, nrowa), 7},
                     {ldb < std::max(1, m), 9},
                     {ldc < std::max(1, m), 12}});
}

// S: T, or const void* for a complex scalar read only once the arguments passed (as CGEMM reads ALPHA).
template <class T, class S = T>
void gemm_call(const Entry& e, char ta, char tb, int m, int n, int k, S alpha_in, const T* A, int lda, const T* B,
               int ldb, S beta_in, T* C, int ldc) {
  char args[160];
  trace_args(args, sizeof args, "transa=%c transb=%c m=%d n=%d k=%d lda=%d ldb=%d ldc=%d", ta, tb, m, n, k, lda,
                ldb, ldc);
  const int info = gemm_info(ta, tb, m, n, k, lda, ldb, ldc);
  // Quick returns, beta == 0 and alpha == 0 follow netlib inside trn::blas (blas.hpp). C/Z: the 4M
  // complex GEMM ('C' is the conjugate transpose).
  run_checked(e, args, info, config_from_env<T>, [&](const Config& cfg, trn::blas::CallReport* report) {
    const auto& s = cfg.settings;
    const T alpha = scalar_value<T>(alpha_in), beta = scalar_value<T>(beta_in);
    constexpr auto four_m = trn::blas::ComplexAlgo::four_m;
    if constexpr (std::is_same_v<T, cdouble>)
      trn::blas::zgemm(s, four_m, to_cop(ta), to_cop(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
    else if constexpr (std::is_same_v<T, cfloat>)
      trn::blas::cgemm(s, cfg.mode, four_m, to_cop(ta), to_cop(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
    else if constexpr (std::is_same_v<T, double>)
      trn::blas::dgemm(s, to_op(ta), to_op(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
    else
      trn::blas::gemm(s, cfg.mode, to_op(ta), to_op(tb), m, n, k, alpha, {A, trn::DType::f32, lda},
                      {B, trn::DType::f32, ldb}, beta, {C, trn::DType::f32, ldc}, report);
  });
}

template <class T>
void syrk_call(const Entry& e, char uplo, char trans, int n, int k, T alpha, const T* A, int lda, T beta, T* C,
               int ldc) {
  char args[160];
  trace_args(args, sizeof args, "uplo=%c trans=%c n=%d k=%d lda=%d ldc=%d", uplo, trans, n, k, lda, ldc);
  const int info = rank_k_info(false, uplo, trans, n, k, lda, 0, ldc, kComplexL3<T> ? "NT" : "NTC");
  run_checked(e, args, info, config_from_env<T>, [&](const Config& cfg, trn::blas::CallReport* report) {
    const auto& s = cfg.settings;
    const Uplo ul = to_uplo(uplo);
    if constexpr (std::is_same_v<T, cdouble>)
      trn::blas::zsyrk(s, ul, to_cop(trans), n, k, alpha, A, lda, beta, C, ldc, report);
    else if constexpr (std::is_same_v<T, cfloat>)
      trn::blas::csyrk(s, cfg.mode, ul, to_cop(trans), n, k, alpha, A, lda, beta, C, ldc, report);
    else if constexpr (std::is_same_v<T, double>)
      trn::blas::dsyrk(s, ul, to_op(trans), n, k, alpha, A, lda, beta, C, ldc, report);
    else
      trn::blas::syrk(s, cfg.mode, ul, to_op(trans), n, k, alpha, {A, trn::DType::f32, lda}, beta,
                      {C, trn::DType::f32, ldc}, report);
  });
}

// TRSM (B := X) and TRMM (B := alpha op(A) B, the in-place form: trnblas's TRMM with C = B).
template <class T>
void triangular_call(const Entry& e, bool trmm, char side, char uplo, char ta, char diag, int m, int n, T alpha,
                     const T* A, int lda, T* B, int ldb) {
  char args[160];
  trace_args(args, sizeof args, "side=%c uplo=%c transa=%c diag=%c m=%d n=%d lda=%d ldb=%d", side, uplo, ta, diag, m,
                n, lda, ldb);
  const int info = triangular_info(side, uplo, ta, diag, m, n, lda, ldb);
  run_checked(e, args, info, config_from_env<T>, [&](const Config& cfg, trn::blas::CallReport* report) {
    const auto& s = cfg.settings;
    const auto sd = to_side(side);
    const Uplo ul = to_uplo(uplo);
    const auto dg = to_diag(diag);
    if constexpr (std::is_same_v<T, cdouble>) {
      if (trmm) trn::blas::ztrmm(s, sd, ul, to_cop(ta), dg, m, n, alpha, A, lda, B, ldb, B, ldb, report);
      else trn::blas::ztrsm(s, sd, ul, to_cop(ta), dg, m, n, alpha, A, lda, B, ldb, report);
    } else if constexpr (std::is_same_v<T, cfloat>) {
      if (trmm) trn::blas::ctrmm(s, cfg.mode, sd, ul, to_cop(ta), dg, m, n, alpha, A, lda, B, ldb, B, ldb, report);
      else trn::blas::ctrsm(s, cfg.mode, sd, ul, to_cop(ta), dg, m, n, alpha, A, lda, B, ldb, report);
    } else if constexpr (std::is_same_v<T, double>) {
      if (trmm) trn::blas::dtrmm(s, sd, ul, to_op(ta), dg, m, n, alpha, A, lda, B, ldb, B, ldb, report);
      else trn::blas::dtrsm(s, sd, ul, to_op(ta), dg, m, n, alpha, A, lda, B, ldb, report);
    } else {
      if (trmm) trn::blas::strmm(s, cfg.mode, sd, ul, to_op(ta), dg, m, n, alpha, A, lda, B, ldb, B, ldb, report);
      else trn::blas::strsm(s, cfg.mode, sd, ul, to_op(ta), dg, m, n, alpha, A, lda, B, ldb, report);
    }
  });
}

// herm: C/Z HEMM (A Hermitian; the same INFO).
template <class T>
void symm_call(const Entry& e, char side, char uplo, int m, int n, T alpha, const T* A, int lda, const T* B, int ldb,
               T beta, T* C, int ldc, bool herm = false) {
  char args[160];
  trace_args(args, sizeof args, "side=%c uplo=%c m=%d n=%d lda=%d ldb=%d ldc=%d", side, uplo, m, n, lda, ldb, ldc);
  const int info = symm_info(side, uplo, m, n, lda, ldb, ldc);
  run_checked(e, args, info, config_from_env<T>, [&](const Config& cfg, trn::blas::CallReport* report) {
    const auto& s = cfg.settings;
    const auto sd = to_side(side);
    const Uplo ul = to_uplo(uplo);
    if constexpr (std::is_same_v<T, cdouble>) {
      if (herm) trn::blas::zhemm(s, sd, ul, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
      else trn::blas::zsymm(s, sd, ul, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
    } else if constexpr (std::is_same_v<T, cfloat>) {
      if (herm) trn::blas::chemm(s, cfg.mode, sd, ul, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
      else trn::blas::csymm(s, cfg.mode, sd, ul, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
    } else if constexpr (std::is_same_v<T, double>) {
      trn::blas::dsymm(s, sd, ul, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
    } else {
      trn::blas::ssymm(s, cfg.mode, sd, ul, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
    }
  });
}

template <class T>
void syr2k_call(const Entry& e, char uplo, char trans, int n, int k, T alpha, const T* A, int lda, const T* B, int ldb,
                T beta, T* C, int ldc) {
  char args[160];
  trace_args(args, sizeof args, "uplo=%c trans=%c n=%d k=%d lda=%d ldb=%d ldc=%d", uplo, trans, n, k, lda, ldb, ldc);
  const int info = rank_k_info(true, uplo, trans, n, k, lda, ldb, ldc, kComplexL3<T> ? "NT" : "NTC");
  run_checked(e, args, info, config_from_env<T>, [&](const Config& cfg, trn::blas::CallReport* report) {
    const auto& s = cfg.settings;
    const Uplo ul = to_uplo(uplo);
    if constexpr (std::is_same_v<T, cdouble>)
      trn::blas::zsyr2k(s, ul, to_cop(trans), n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
    else if constexpr (std::is_same_v<T, cfloat>)
      trn::blas::csyr2k(s, cfg.mode, ul, to_cop(trans), n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
    else if constexpr (std::is_same_v<T, double>)
      trn::blas::dsyr2k(s, ul, to_op(trans), n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
    else
      trn::blas::ssyr2k(s, cfg.mode, ul, to_op(trans), n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
  });
}

// C/Z HERK (alpha, beta real) and HER2K (two; alpha2 complex, beta real): trans N or C (INFO 2 otherwise).
template <class T>
void herk_call(const Entry& e, char uplo, char trans, int n, int k, real_t<T> alpha, const T* A, int lda,
               const T* B, int ldb, T alpha2, real_t<T> beta, T* C, int ldc, bool two) {
  char args[160];
  trace_args(args, sizeof args, "uplo=%c trans=%c n=%d k=%d lda=%d ldb=%d ldc=%d", uplo, trans, n, k, lda, ldb, ldc);
  const int info = rank_k_info(two, uplo, trans, n, k, lda, ldb, ldc, "NC");
  run_checked(e, args, info, config_from_env<T>, [&](const Config& cfg, trn::blas::CallReport* report) {
    const auto& s = cfg.settings;
    const Uplo ul = to_uplo(uplo);
    if constexpr (std::is_same_v<T, cdouble>) {
      if (two) trn::blas::zher2k(s, ul, to_cop(trans), n, k, alpha2, A, lda, B, ldb, beta, C, ldc, report);
      else trn::blas::zherk(s, ul, to_cop(trans), n, k, alpha, A, lda, beta, C, ldc, report);
    } else {
      if (two) trn::blas::cher2k(s, cfg.mode, ul, to_cop(trans), n, k, alpha2, A, lda, B, ldb, beta, C, ldc, report);
      else trn::blas::cherk(s, cfg.mode, ul, to_cop(trans), n, k, alpha, A, lda, beta, C, ldc, report);
    }
  });
}

}  // namespace trnblas_abi
