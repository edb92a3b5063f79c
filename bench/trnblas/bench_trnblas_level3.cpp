// trnblas Level 3 beyond GEMM against OpenBLAS in one process: trnblasStrsm vs cblas_strsm,
// trnblasCgemm (4M) / trnblasCgemm3m vs cblas_cgemm, trnblasSgeam vs cblas_sgeadd (OpenBLAS
// extension, on a copy of B) and trnblasCherk vs cblas_cherk, 1 and 2 host threads, paired iterations
// (bench/paired.hpp: the ratio is the median of per-pair ratios). After the runs main() prints host
// GFLOP/s (TRSM m^2 n, complex GEMM 8 m n k real flops) with the ratio, and the modeled device time
// of one call on one trn1 NeuronCore (trnblasGetLastProfile) next to the busy time of TensorE,
// VectorE and DMA: total / TensorE busy says how far the call is from its TensorE bound.
// Both sides start each TRSM iteration from the same right-hand sides (a copy, timed on both sides).
// Per precision (S/D/C/Z): ?trsm vs cblas_?trsm (m^2 n multiply-adds), ?trmm (cuBLAS's out-of-place
// form) vs cblas_?trmm on a copy of B, ?trsmBatched vs cblas_?trsm looped, and the batched LU family
// (?getrfBatched, ?getrsBatched with one right-hand side, ?getriBatched, ?matinvBatched; the batch on
// the SBUF partitions for S/C, fp64 on the host side for D/Z) vs OpenBLAS's LAPACK ?getrf_/?getrs_/
// ?getri_ looped over the batch, each side on fresh copies of the same data; ?symm, ?syrk, ?syr2k,
// ?geam and ?dgmm per precision (BM_Sym).
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <algorithm>
#include <complex>
#include <cstdio>
#include <type_traits>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "blas_reference.hpp"
#include "bench_handle.hpp"
#include "openblas_native.hpp"
#include "paired.hpp"

#include "trnblas.h"
#include "trnblas_typed.hpp"

extern "C" {
#define LAPACK_LU(P, T)                                                                                          \
  void P##getrf_(const int* m, const int* n, T* a, const int* lda, int* ipiv, int* info);                        \
  void P##getrs_(const char* trans, const int* n, const int* nrhs, const T* a, const int* lda, const int* ipiv, T* b, \
                 const int* ldb, int* info, std::size_t trans_len);                                              \
  void P##getri_(const int* n, T* a, const int* lda, const int* ipiv, T* work, const int* lwork, int* info);
LAPACK_LU(s, float)
LAPACK_LU(d, double)
LAPACK_LU(c, std::complex<float>)
LAPACK_LU(z, std::complex<double>)
#undef LAPACK_LU
void strttp_(const char* uplo, const int* n, const float* a, const int* lda, float* ap, int* info, std::size_t uplo_len);
void stpttr_(const char* uplo, const int* n, const float* ap, float* a, const int* lda, int* info, std::size_t uplo_len);
}

namespace {

struct Row {
  trnsci::bench::PairedResult host;
  trnProfile_t trn1{};
};
std::map<std::string, Row>& rows() {
  static std::map<std::string, Row> r;
  return r;
}

using trnblas_bench::Handle;  // the emulator's host threads via TRN_NUM_THREADS

// Uniform(-1, 1) floats: the generator the tests use (tests/reference/blas_reference.hpp).
std::vector<float> uniform(std::size_t n, std::uint64_t seed) { return blastest::uniform_f(n, seed); }

std::string key(const std::string& what, int m, int n, int k, int threads) {
  return what + "/" + std::to_string(m) + "x" + std::to_string(n) + (k > 0 ? "x" + std::to_string(k) : "") +
         "/threads:" + std::to_string(threads);
}

using trnblas_typed::api;
using trnblas_typed::kComplex;
using trnblas_typed::prefix;
// Real flops of one multiply-add: 2 (real), 8 (complex).
template <class T> double madd_flops() { return kComplex<T> ? 8.0 : 2.0; }

template <class T> auto scalar(const T* a) { return trnblas_typed::cblas_scalar(a); }

template <class T>
trnblasStatus_t trn_trsm(trnblasHandle_t h, int m, int n, const T* alpha, const T* A, T* B) {
  TRNBLAS_BY_TYPE(T, trnblasStrsm, trnblasDtrsm, trnblasCtrsm, trnblasZtrsm, h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER,
             TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, m, n, api(alpha), api(A), m, api(B), m);
}
template <class T> void ref_trsm(int m, int n, const T* alpha, const T* A, T* B) {
  TRNBLAS_BY_TYPE(T, cblas_strsm, cblas_dtrsm, cblas_ctrsm, cblas_ztrsm, CblasColMajor, CblasLeft, CblasLower,
             CblasNoTrans, CblasNonUnit, m, n, scalar(alpha), A, m, B, m);
}
template <class T>
trnblasStatus_t trn_trmm(trnblasHandle_t h, int m, int n, const T* alpha, const T* A, const T* B, T* C) {
  TRNBLAS_BY_TYPE(T, trnblasStrmm, trnblasDtrmm, trnblasCtrmm, trnblasZtrmm, h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER,
             TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, m, n, api(alpha), api(A), m, api(B), m, api(C), m);
}
template <class T> void ref_trmm(int m, int n, const T* alpha, const T* A, T* B) {
  TRNBLAS_BY_TYPE(T, cblas_strmm, cblas_dtrmm, cblas_ctrmm, cblas_ztrmm, CblasColMajor, CblasLeft, CblasLower,
             CblasNoTrans, CblasNonUnit, m, n, scalar(alpha), A, m, B, m);
}
template <class T>
trnblasStatus_t trn_trsm_batched(trnblasHandle_t h, int m, int n, const T* alpha, const T* const* A, T* const* B,
                                 int batch) {
  TRNBLAS_BY_TYPE(T, trnblasStrsmBatched, trnblasDtrsmBatched, trnblasCtrsmBatched, trnblasZtrsmBatched, h,
             TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, m, n, api(alpha), api(A),
             m, api(B), m, batch);
}

template <class T>
trnblasStatus_t trn_getrf(trnblasHandle_t h, int n, T* const* A, int* piv, int* info, int batch) {
  TRNBLAS_BY_TYPE(T, trnblasSgetrfBatched, trnblasDgetrfBatched, trnblasCgetrfBatched, trnblasZgetrfBatched, h, n, api(A), n,
             piv, info, batch);
}
template <class T>
trnblasStatus_t trn_getrs(trnblasHandle_t h, int n, const T* const* F, const int* piv, T* const* B, int* info, int batch) {
  TRNBLAS_BY_TYPE(T, trnblasSgetrsBatched, trnblasDgetrsBatched, trnblasCgetrsBatched, trnblasZgetrsBatched, h, TRNBLAS_OP_N,
             n, 1, api(F), n, piv, api(B), n, info, batch);
}
template <class T>
trnblasStatus_t trn_getri(trnblasHandle_t h, int n, const T* const* F, const int* piv, T* const* C, int* info, int batch) {
  TRNBLAS_BY_TYPE(T, trnblasSgetriBatched, trnblasDgetriBatched, trnblasCgetriBatched, trnblasZgetriBatched, h, n, api(F), n,
             piv, api(C), n, info, batch);
}
template <class T>
trnblasStatus_t trn_matinv(trnblasHandle_t h, int n, const T* const* A, T* const* C, int* info, int batch) {
  TRNBLAS_BY_TYPE(T, trnblasSmatinvBatched, trnblasDmatinvBatched, trnblasCmatinvBatched, trnblasZmatinvBatched, h, n, api(A),
             n, api(C), n, info, batch);
}

// A well-conditioned m x m lower triangle: diagonal 1 + |u|, off-diagonal U(-1, 1) 2/m (each part).
template <class T> std::vector<T> lower_triangle(int m, std::uint64_t seed) {
  constexpr int parts = kComplex<T> ? 2 : 1;
  std::vector<float> f = uniform(static_cast<std::size_t>(parts) * m * m, seed);
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) {
      float* a = &f[static_cast<std::size_t>(parts) * static_cast<std::size_t>(i + j * m)];
      for (int p = 0; p < parts; ++p) a[p] = i == j ? (p == 0 ? 1.0f + std::abs(a[p]) : a[p]) : a[p] * 2.0f / float(m);
    }
  std::vector<T> A(static_cast<std::size_t>(m) * m);
  using R = trnblas_typed::real_of<T>;
  for (std::size_t k = 0; k < A.size(); ++k) {
    if constexpr (kComplex<T>) A[k] = T(R(f[2 * k]), R(f[2 * k + 1]));
    else A[k] = T(f[k]);
  }
  return A;
}
template <class T> std::vector<T> values(std::size_t n, std::uint64_t seed) {
  constexpr int parts = kComplex<T> ? 2 : 1;
  const std::vector<float> f = uniform(static_cast<std::size_t>(parts) * n, seed);
  std::vector<T> v(n);
  using R = trnblas_typed::real_of<T>;
  for (std::size_t k = 0; k < n; ++k) {
    if constexpr (kComplex<T>) v[k] = T(R(f[2 * k]), R(f[2 * k + 1]));
    else v[k] = T(f[k]);
  }
  return v;
}

// TRSM left, lower, no transpose, non-unit (m^2 n multiply-adds). Both sides start each iteration
// from the same right-hand sides (a copy, timed on both sides).
template <class T> void BM_Trsm(benchmark::State& st, int m, int n, int threads) {
  const std::vector<T> A = lower_triangle<T>(m, 1), B0 = values<T>(static_cast<std::size_t>(m) * n, 2);
  std::vector<T> X = B0, R = B0;
  Handle h(threads);
  openblas_set_num_threads(threads);
  const T one(1);
  auto ours = [&] {
    X = B0;
    return trn_trsm<T>(h, m, n, &one, A.data(), X.data());
  };
  if (ours() != TRNBLAS_STATUS_SUCCESS) return st.SkipWithError("trnblas ?trsm failed");
  Row& row = rows()[key(std::string(prefix<T>()) + "trsm", m, n, 0, threads)];
  trnblasGetLastProfile(h, &row.trn1);
  row.host = trnsci::bench::run_paired(
      st, madd_flops<T>() / 2 * m * m * n, [&] { benchmark::DoNotOptimize(ours()); },
      [&] {
        R = B0;
        ref_trsm<T>(m, n, &one, A.data(), R.data());
      });
}

// TRMM left, lower, N, non-unit, out of place (cuBLAS's form) against the in-place reference on a
// copy of B (the copy timed on the reference side): m^2 n / 2 multiply-adds.
template <class T> void BM_Trmm(benchmark::State& st, int m, int n, int threads) {
  const std::vector<T> A = lower_triangle<T>(m, 3), B = values<T>(static_cast<std::size_t>(m) * n, 4);
  std::vector<T> C(B.size()), R(B.size());
  Handle h(threads);
  openblas_set_num_threads(threads);
  const T one(1);
  auto ours = [&] { return trn_trmm<T>(h, m, n, &one, A.data(), B.data(), C.data()); };
  if (ours() != TRNBLAS_STATUS_SUCCESS) return st.SkipWithError("trnblas ?trmm failed");
  Row& row = rows()[key(std::string(prefix<T>()) + "trmm", m, n, 0, threads)];
  trnblasGetLastProfile(h, &row.trn1);
  row.host = trnsci::bench::run_paired(
      st, madd_flops<T>() / 4 * m * m * n, [&] { benchmark::DoNotOptimize(ours()); },
      [&] {
        R = B;
        ref_trmm<T>(m, n, &one, A.data(), R.data());
      });
}

// trsmBatched of `batch` m x m systems with m right-hand sides against the reference TRSM looped.
template <class T> void BM_TrsmBatched(benchmark::State& st, int m, int batch, int threads) {
  std::vector<std::vector<T>> A, B0;
  for (int b = 0; b < batch; ++b) {
    A.push_back(lower_triangle<T>(m, 20 + static_cast<std::uint64_t>(b)));
    B0.push_back(values<T>(static_cast<std::size_t>(m) * m, 2000 + static_cast<std::uint64_t>(b)));
  }
  std::vector<std::vector<T>> X = B0, R = B0;
  std::vector<const T*> a;
  std::vector<T*> x;
  for (int b = 0; b < batch; ++b) {
    a.push_back(A[static_cast<std::size_t>(b)].data());
    x.push_back(X[static_cast<std::size_t>(b)].data());
  }
  Handle h(threads);
  openblas_set_num_threads(threads);
  const T one(1);
  auto ours = [&] {
    for (int b = 0; b < batch; ++b) X[static_cast<std::size_t>(b)] = B0[static_cast<std::size_t>(b)];
    return trn_trsm_batched<T>(h, m, m, &one, a.data(), x.data(), batch);
  };
  if (ours() != TRNBLAS_STATUS_SUCCESS) return st.SkipWithError("trnblas ?trsmBatched failed");
  Row& row = rows()[key(std::string(prefix<T>()) + "trsmBatched", m, m, batch, threads)];
  trnblasGetLastProfile(h, &row.trn1);
  row.host = trnsci::bench::run_paired(
      st, madd_flops<T>() / 2 * m * m * m * batch, [&] { benchmark::DoNotOptimize(ours()); },
      [&] {
        for (int b = 0; b < batch; ++b) {
          const std::size_t k = static_cast<std::size_t>(b);
          R[k] = B0[k];
          ref_trsm<T>(m, m, &one, A[k].data(), R[k].data());
        }
      });
}

// SYMM (left, lower), SYRK and SYR2K (upper, N), GEAM (N, N) and DGMM (right) of order n, against
// cblas_?symm / ?syrk / ?syr2k, OpenBLAS's cblas_?geadd on a copy of B, and for DGMM a copy of A
// with each column scaled by cblas_?scal (the BLAS form of A diag(x)). Flops (real): 2 m^2 n, n^2 k,
// 2 n^2 k, 3 m n, m n (complex 4x).
enum class Sym { symm, syrk, syr2k, geam, dgmm };
const char* sym_name(Sym op) {
  return op == Sym::symm ? "symm" : op == Sym::syrk ? "syrk" : op == Sym::syr2k ? "syr2k" : op == Sym::geam ? "geam" : "dgmm";
}
template <class T> void BM_Sym(benchmark::State& st, Sym op, int n, int threads) {
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  const std::vector<T> A = values<T>(nn, 31), B = values<T>(nn, 32), x = values<T>(static_cast<std::size_t>(n), 33);
  std::vector<T> C = values<T>(nn, 34), R = C;
  Handle h(threads);
  openblas_set_num_threads(threads);
  const T alpha(0.5), beta(-1.5);
  auto ours = [&]() -> trnblasStatus_t {
    switch (op) {
      case Sym::symm:
        TRNBLAS_TYPED_CALL(T, symm, h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, n, n, api(&alpha), api(A.data()), n,
                           api(B.data()), n, api(&beta), api(C.data()), n);
      case Sym::syrk:
        TRNBLAS_TYPED_CALL(T, syrk, h, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, n, n, api(&alpha), api(A.data()), n,
                           api(&beta), api(C.data()), n);
      case Sym::syr2k:
        TRNBLAS_TYPED_CALL(T, syr2k, h, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, n, n, api(&alpha), api(A.data()), n,
                           api(B.data()), n, api(&beta), api(C.data()), n);
      case Sym::geam:
        TRNBLAS_TYPED_CALL(T, geam, h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, api(&alpha), api(A.data()), n, api(&beta),
                           api(B.data()), n, api(C.data()), n);
      default:
        TRNBLAS_TYPED_CALL(T, dgmm, h, TRNBLAS_SIDE_RIGHT, n, n, api(A.data()), n, api(x.data()), 1, api(C.data()), n);
    }
  };
  if (ours() != TRNBLAS_STATUS_SUCCESS) return st.SkipWithError("trnblas call failed");
  Row& row = rows()[key(std::string(prefix<T>()) + sym_name(op), n, n, 0, threads)];
  trnblasGetLastProfile(h, &row.trn1);
  using Rl = trnblas_typed::real_of<T>;
  const auto raw = [](const T* p) { return const_cast<Rl*>(reinterpret_cast<const Rl*>(p)); };  // cblas_?geadd's float*
  const double real_flops = op == Sym::symm ? 2.0 * n * nn : op == Sym::syrk ? 1.0 * n * nn : op == Sym::syr2k ? 2.0 * n * nn
                          : op == Sym::geam ? 3.0 * nn : 1.0 * nn;
  row.host = trnsci::bench::run_paired(
      st, real_flops * (kComplex<T> ? 4 : 1), [&] { benchmark::DoNotOptimize(ours()); },
      [&] {
        switch (op) {
          case Sym::symm:
            [&] { TRNBLAS_BY_TYPE(T, cblas_ssymm, cblas_dsymm, cblas_csymm, cblas_zsymm, CblasColMajor, CblasLeft, CblasLower,
                                  n, n, scalar(&alpha), A.data(), n, B.data(), n, scalar(&beta), R.data(), n); }();
            break;
          case Sym::syrk:
            [&] { TRNBLAS_BY_TYPE(T, cblas_ssyrk, cblas_dsyrk, cblas_csyrk, cblas_zsyrk, CblasColMajor, CblasUpper,
                                  CblasNoTrans, n, n, scalar(&alpha), A.data(), n, scalar(&beta), R.data(), n); }();
            break;
          case Sym::syr2k:
            [&] { TRNBLAS_BY_TYPE(T, cblas_ssyr2k, cblas_dsyr2k, cblas_csyr2k, cblas_zsyr2k, CblasColMajor, CblasUpper,
                                  CblasNoTrans, n, n, scalar(&alpha), A.data(), n, B.data(), n, scalar(&beta), R.data(), n); }();
            break;
          case Sym::geam:
            std::copy(B.begin(), B.end(), R.begin());
            [&] {
              if constexpr (kComplex<T>)
                TRNBLAS_BY_TYPE(T, cblas_sgeadd, cblas_dgeadd, cblas_cgeadd, cblas_zgeadd, CblasColMajor, n, n,
                                raw(&alpha), raw(A.data()), n, raw(&beta), raw(R.data()), n);
              else
                TRNBLAS_BY_TYPE(T, cblas_sgeadd, cblas_dgeadd, cblas_cgeadd, cblas_zgeadd, CblasColMajor, n, n, alpha,
                                raw(A.data()), n, beta, raw(R.data()), n);
            }();
            break;
          default:
            std::copy(A.begin(), A.end(), R.begin());
            for (int j = 0; j < n; ++j)
              [&] { TRNBLAS_BY_TYPE(T, cblas_sscal, cblas_dscal, cblas_cscal, cblas_zscal, n, scalar(&x[static_cast<std::size_t>(j)]),
                                    R.data() + static_cast<std::size_t>(j) * n, 1); }();
        }
      });
}

// LAPACK of the OpenBLAS build (Fortran symbols; ?getrs_'s hidden length of TRANS passed explicitly).
template <class T>
void ref_getrf(int n, T* a, int* piv, int* info) {
  TRNBLAS_BY_TYPE(T, sgetrf_, dgetrf_, cgetrf_, zgetrf_, &n, &n, a, &n, piv, info);
}
template <class T>
void ref_getrs(int n, int nrhs, const T* a, const int* piv, T* b, int* info) {
  TRNBLAS_BY_TYPE(T, sgetrs_, dgetrs_, cgetrs_, zgetrs_, "N", &n, &nrhs, a, &n, piv, b, &n, info, std::size_t{1});
}
template <class T>
void ref_getri(int n, T* a, const int* piv, T* work, int lwork, int* info) {
  TRNBLAS_BY_TYPE(T, sgetri_, dgetri_, cgetri_, zgetri_, &n, a, &n, piv, work, &lwork, info);
}

enum class Lu { getrf, getrs, getri, matinv };
const char* lu_name(Lu op) {
  return op == Lu::getrf ? "getrfBatched" : op == Lu::getrs ? "getrsBatched" : op == Lu::getri ? "getriBatched" : "matinvBatched";
}

// The batched LU family (the batch on the SBUF partitions for S/C) against OpenBLAS's LAPACK looped
// over the batch, each side working on fresh copies of the same data: getrf factors; getrs solves
// one right-hand side with the factors; getri inverts from the factors (LAPACK in place on a copy);
// matinv factors and inverts. Flops (real; complex 4x): 2/3 n^3, 2 n^2, 4/3 n^3, 2 n^3 per matrix.
template <class T> void BM_LuBatched(benchmark::State& st, Lu op, int n, int batch, int threads) {
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  const std::vector<T> A0 = values<T>(nn * batch, 13), B0 = values<T>(static_cast<std::size_t>(n) * batch, 14);
  std::vector<T> F = A0, A = A0, R = A0, X(op == Lu::getrs ? B0.size() : nn * batch), work(nn);
  std::vector<int> piv(static_cast<std::size_t>(n) * batch), info(static_cast<std::size_t>(batch));
  auto entries = [&](std::vector<T>& v, std::size_t step) {
    std::vector<T*> p;
    for (int b = 0; b < batch; ++b) p.push_back(v.data() + static_cast<std::size_t>(b) * step);
    return p;
  };
  const std::vector<T*> f = entries(F, nn), a = entries(A, nn), x = entries(X, op == Lu::getrs ? n : nn);
  const std::vector<const T*> fc(f.begin(), f.end()), ac(a.begin(), a.end());
  Handle h(threads);
  openblas_set_num_threads(threads);
  if (op != Lu::getrf) {  // the factors getrs/getri start from
    if (trn_getrf<T>(h, n, f.data(), piv.data(), info.data(), batch) != TRNBLAS_STATUS_SUCCESS)
      return st.SkipWithError("trnblas ?getrfBatched failed");
  }
  int arg_info = 0;
  auto ours = [&] {
    switch (op) {
      case Lu::getrf:
        A = A0;
        return trn_getrf<T>(h, n, a.data(), piv.data(), info.data(), batch);
      case Lu::getrs:
        X = B0;
        return trn_getrs<T>(h, n, fc.data(), piv.data(), x.data(), &arg_info, batch);
      case Lu::getri:
        return trn_getri<T>(h, n, fc.data(), piv.data(), x.data(), info.data(), batch);
      default:
        return trn_matinv<T>(h, n, ac.data(), x.data(), info.data(), batch);
    }
  };
  if (ours() != TRNBLAS_STATUS_SUCCESS) return st.SkipWithError("trnblas batched LU call failed");
  Row& row = rows()[key(std::string(prefix<T>()) + lu_name(op), n, n, batch, threads)];
  trnblasGetLastProfile(h, &row.trn1);
  const double per = op == Lu::getrf ? 2.0 / 3 * n * n * n : op == Lu::getrs ? 2.0 * n * n : op == Lu::getri ? 4.0 / 3 * n * n * n : 2.0 * n * n * n;
  std::vector<int> rpiv(piv.size());
  row.host = trnsci::bench::run_paired(
      st, per * batch * (kComplex<T> ? 4 : 1), [&] { benchmark::DoNotOptimize(ours()); },
      [&] {
        if (op == Lu::getrs) std::copy(B0.begin(), B0.end(), R.begin());
        else R = op == Lu::getri ? F : A0;
        for (int b = 0; b < batch; ++b) {
          int lapack_info = 0;
          const std::size_t k = static_cast<std::size_t>(b);
          int* p = (op == Lu::getrf || op == Lu::matinv ? rpiv.data() : piv.data()) + k * static_cast<std::size_t>(n);
          if (op == Lu::getrf || op == Lu::matinv) ref_getrf<T>(n, R.data() + k * nn, p, &lapack_info);
          if (op == Lu::getrs) ref_getrs<T>(n, 1, F.data() + k * nn, p, R.data() + k * static_cast<std::size_t>(n), &lapack_info);
          if (op == Lu::getri || op == Lu::matinv) ref_getri<T>(n, R.data() + k * nn, p, work.data(), static_cast<int>(nn), &lapack_info);
        }
      });
}

void BM_Cgemm(benchmark::State& st, bool three_m, int m, int n, int k, int threads) {
  const std::vector<float> A = uniform(2ull * m * k, 3), B = uniform(2ull * k * n, 4);
  std::vector<float> C(2ull * m * n), R(C.size());
  Handle h(threads);
  openblas_set_num_threads(threads);
  const trnComplex one{1.0f, 0.0f}, zero{0.0f, 0.0f};
  const auto* a = reinterpret_cast<const trnComplex*>(A.data());
  const auto* b = reinterpret_cast<const trnComplex*>(B.data());
  auto* c = reinterpret_cast<trnComplex*>(C.data());
  auto ours = [&] {
    return (three_m ? trnblasCgemm3m : trnblasCgemm)(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, a, m, b, k, &zero,
                                                     c, m);
  };
  if (ours() != TRNBLAS_STATUS_SUCCESS) return st.SkipWithError("trnblasCgemm failed");
  Row& row = rows()[key(three_m ? "cgemm3m" : "cgemm", m, n, k, threads)];
  trnblasGetLastProfile(h, &row.trn1);
  row.host = trnsci::bench::run_paired(
      st, 8.0 * m * n * k, [&] { benchmark::DoNotOptimize(ours()); },
      [&] {
        cblas_cgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, &one, A.data(), m, B.data(), k, &zero, R.data(),
                    m);
      });
}

// Sgeam C = alpha A + beta B (N, N) vs OpenBLAS's extension cblas_sgeadd (C = alpha A + beta C) on
// a copy of B (the copy timed on the reference side): 3 m n flops.
void BM_Sgeam(benchmark::State& st, int m, int n, int threads) {
  std::vector<float> A = uniform(1ull * m * n, 5);
  const std::vector<float> B = uniform(1ull * m * n, 6);
  std::vector<float> C(B.size()), R(B.size());
  Handle h(threads);
  openblas_set_num_threads(threads);
  const float alpha = 0.5f, beta = -1.5f;
  auto ours = [&] { return trnblasSgeam(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, &alpha, A.data(), m, &beta, B.data(), m, C.data(), m); };
  if (ours() != TRNBLAS_STATUS_SUCCESS) return st.SkipWithError("trnblasSgeam failed");
  Row& row = rows()[key("sgeam", m, n, 0, threads)];
  trnblasGetLastProfile(h, &row.trn1);
  row.host = trnsci::bench::run_paired(
      st, 3.0 * m * n, [&] { benchmark::DoNotOptimize(ours()); },
      [&] {
        R = B;
        cblas_sgeadd(CblasColMajor, m, n, alpha, A.data(), m, beta, R.data(), m);
      });
}

// Cherk C = A A^H (lower, N) vs cblas_cherk: 4 n^2 k real flops (half of the complex product).
void BM_Cherk(benchmark::State& st, int n, int k, int threads) {
  const std::vector<float> A = uniform(2ull * n * k, 7);
  std::vector<float> C(2ull * n * n), R(C.size());
  Handle h(threads);
  openblas_set_num_threads(threads);
  const float one = 1.0f, zero = 0.0f;
  const auto* a = reinterpret_cast<const trnComplex*>(A.data());
  auto* c = reinterpret_cast<trnComplex*>(C.data());
  auto ours = [&] { return trnblasCherk(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, n, k, &one, a, n, &zero, c, n); };
  if (ours() != TRNBLAS_STATUS_SUCCESS) return st.SkipWithError("trnblasCherk failed");
  Row& row = rows()[key("cherk", n, n, k, threads)];
  trnblasGetLastProfile(h, &row.trn1);
  row.host = trnsci::bench::run_paired(
      st, 4.0 * n * n * k, [&] { benchmark::DoNotOptimize(ours()); },
      [&] { cblas_cherk(CblasColMajor, CblasLower, CblasNoTrans, n, k, one, A.data(), n, zero, R.data(), n); });
}

// CherkEx with exact complex int8 A (TRN_C_8I, lower, N) vs cblas_cherk on the same values as floats:
// 4 n^2 k real flops.
void BM_CherkEx8I(benchmark::State& st, int n, int k, int threads) {
  std::vector<std::int8_t> A8(2ull * n * k);
  std::mt19937 rng(9);
  std::uniform_int_distribution<int> d(-127, 127);
  for (auto& v : A8) v = static_cast<std::int8_t>(d(rng));
  const std::vector<float> A(A8.begin(), A8.end());
  std::vector<float> C(2ull * n * n), R(C.size());
  Handle h(threads);
  openblas_set_num_threads(threads);
  const float one = 1.0f, zero = 0.0f;
  auto ours = [&] {
    return trnblasCherkEx(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, n, k, &one, A8.data(), TRN_C_8I, n, &zero, C.data(),
                          TRN_C_32F, n);
  };
  if (ours() != TRNBLAS_STATUS_SUCCESS) return st.SkipWithError("trnblasCherkEx failed");
  Row& row = rows()[key("cherkEx_c8i", n, n, k, threads)];
  trnblasGetLastProfile(h, &row.trn1);
  row.host = trnsci::bench::run_paired(
      st, 4.0 * n * n * k, [&] { benchmark::DoNotOptimize(ours()); },
      [&] { cblas_cherk(CblasColMajor, CblasLower, CblasNoTrans, n, k, one, A.data(), n, zero, R.data(), n); });
}

// Strttp then Stpttr (upper, n x n, full to packed and back) vs LAPACK's strttp + stpttr (OpenBLAS);
// "flops" = elements moved, n (n + 1).
void BM_StrttpTpttr(benchmark::State& st, int n, int threads) {
  const std::vector<float> A = uniform(1ull * n * n, 10);
  std::vector<float> AP(1ull * n * (n + 1) / 2), B(A.size()), RP(AP.size()), RB(A.size());
  Handle h(threads);
  auto ours = [&] {
    const trnblasStatus_t s = trnblasStrttp(h, TRNBLAS_FILL_MODE_UPPER, n, A.data(), n, AP.data());
    return s != TRNBLAS_STATUS_SUCCESS ? s : trnblasStpttr(h, TRNBLAS_FILL_MODE_UPPER, n, AP.data(), B.data(), n);
  };
  if (ours() != TRNBLAS_STATUS_SUCCESS) return st.SkipWithError("trnblasStrttp/Stpttr failed");
  Row& row = rows()[key("strttp+tpttr", n, n, 0, threads)];
  trnblasGetLastProfile(h, &row.trn1);  // Stpttr's program
  row.host = trnsci::bench::run_paired(
      st, 1.0 * n * (n + 1), [&] { benchmark::DoNotOptimize(ours()); },
      [&] {
        int info = 0;
        strttp_("U", &n, A.data(), &n, RP.data(), &info, 1);
        stpttr_("U", &n, RP.data(), RB.data(), &n, &info, 1);
      });
}

void configure(benchmark::internal::Benchmark* b) { b->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0); }

// Registers a typed routine under its name with the precision prefix ("c" + "trsm"); BM(m, n or
// batch, threads), batch > 0 for the batched forms.
template <class T, class F> void reg(const std::string& what, F bm, int m, int n, int batch, int threads) {
  const std::string name = "trnblas_level3/" + key(std::string(prefix<T>()) + what, m, n, batch, threads);
  if (batch > 0) configure(benchmark::RegisterBenchmark(name.c_str(), bm, m, batch, threads));
  else configure(benchmark::RegisterBenchmark(name.c_str(), bm, m, n, threads));
}
template <class T> void reg_sym(Sym op, int n, int threads) {
  const std::string name = "trnblas_level3/" + key(std::string(prefix<T>()) + sym_name(op), n, n, 0, threads);
  configure(benchmark::RegisterBenchmark(name.c_str(), BM_Sym<T>, op, n, threads));
}
template <class T> void reg_lu(Lu op, int n, int batch, int threads) {
  const std::string name = "trnblas_level3/" + key(std::string(prefix<T>()) + lu_name(op), n, n, batch, threads);
  configure(benchmark::RegisterBenchmark(name.c_str(), BM_LuBatched<T>, op, n, batch, threads));
}

void register_all() {
  for (int t : {1, 2}) {
    for (bool three : {false, true})
      for (int s : {256, 512})
        configure(benchmark::RegisterBenchmark(("trnblas_level3/" + key(three ? "cgemm3m" : "cgemm", s, s, s, t)).c_str(),
                                               BM_Cgemm, three, s, s, s, t));
    configure(benchmark::RegisterBenchmark(("trnblas_level3/" + key("sgeam", 1024, 1024, 0, t)).c_str(), BM_Sgeam, 1024,
                                           1024, t));
    configure(benchmark::RegisterBenchmark(("trnblas_level3/" + key("cherk", 512, 512, 512, t)).c_str(), BM_Cherk, 512,
                                           512, t));
    configure(benchmark::RegisterBenchmark(("trnblas_level3/" + key("cherkEx_c8i", 512, 512, 512, t)).c_str(),
                                           BM_CherkEx8I, 512, 512, t));
    configure(benchmark::RegisterBenchmark(("trnblas_level3/" + key("strttp+tpttr", 2048, 2048, 0, t)).c_str(),
                                           BM_StrttpTpttr, 2048, t));
    for (Lu op : {Lu::getrf, Lu::getrs, Lu::getri, Lu::matinv}) {
      reg_lu<float>(op, 32, 1024, t);
      reg_lu<std::complex<float>>(op, 32, 1024, t);
      reg_lu<double>(op, 32, 256, t);
      reg_lu<std::complex<double>>(op, 32, 256, t);
    }
    for (int s : {512, 1024})
      reg<float>("trsm", BM_Trsm<float>, s, s, 0, t);
    reg<std::complex<float>>("trsm", BM_Trsm<std::complex<float>>, 512, 512, 0, t);
    reg<double>("trsm", BM_Trsm<double>, 512, 512, 0, t);
    reg<std::complex<double>>("trsm", BM_Trsm<std::complex<double>>, 256, 256, 0, t);
    for (Sym op : {Sym::symm, Sym::syrk, Sym::syr2k, Sym::geam, Sym::dgmm}) {
      reg_sym<float>(op, 512, t);
      reg_sym<std::complex<float>>(op, 512, t);
      reg_sym<double>(op, 256, t);
      reg_sym<std::complex<double>>(op, 256, t);
    }
    reg<float>("trmm", BM_Trmm<float>, 1024, 1024, 0, t);
    reg<std::complex<float>>("trmm", BM_Trmm<std::complex<float>>, 512, 512, 0, t);
    reg<double>("trmm", BM_Trmm<double>, 512, 512, 0, t);
    reg<std::complex<double>>("trmm", BM_Trmm<std::complex<double>>, 256, 256, 0, t);
    reg<float>("trsmBatched", BM_TrsmBatched<float>, 64, 64, 64, t);
    reg<std::complex<float>>("trsmBatched", BM_TrsmBatched<std::complex<float>>, 64, 64, 64, t);
    reg<double>("trsmBatched", BM_TrsmBatched<double>, 64, 64, 64, t);
    reg<std::complex<double>>("trsmBatched", BM_TrsmBatched<std::complex<double>>, 64, 64, 64, t);
  }
}

void print_table() {
  std::printf("\nHost GFLOP/s, emulated trnblas vs OpenBLAS (%s kernels) in this process; modeled device time of\n"
              "one call on one trn1 NeuronCore and the busy time of its engines (cost model).\n\n",
              openblas_get_corename());
  std::printf("%-34s %9s %9s %7s  %10s %10s %10s %10s %7s\n", "routine/shape/threads", "trnblas", "OpenBLAS", "ratio",
              "trn1 us", "TensorE us", "VectorE us", "DMA us", "tot/TE");
  for (const auto& [name, r] : rows()) {
    const trnProfile_t& p = r.trn1;
    const double te = p.busy_ns[TRN_ENGINE_TENSOR];
    std::printf("%-34s %9.2f %9.2f %7.3f  %10.1f %10.1f %10.1f %10.1f %7.2f\n", name.c_str(), r.host.ours_gflops,
                r.host.ref_gflops, r.host.median_ratio, p.total_ns * 1e-3, te * 1e-3,
                p.busy_ns[TRN_ENGINE_VECTOR] * 1e-3, p.busy_ns[TRN_ENGINE_DMA] * 1e-3, te > 0 ? p.total_ns / te : 0.0);
  }
}

}  // namespace

int main(int argc, char** argv) {
  trnsci::bench::use_native_openblas_kernels(argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  print_table();
  benchmark::Shutdown();
  return 0;
}
