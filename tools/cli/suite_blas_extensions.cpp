// Validation cases of suite "blas" for cuBLAS's Extensions with typed A: CsyrkEx, Csyrk3mEx, CherkEx
// and Cherk3mEx with A as TRN_C_32F and as exact complex int8 (TRN_C_8I), and the packed-storage
// conversions S/D/C/Z tpttr and trttp. Metrics:
//   rank-k: the largest |C^ - C| / M over the upper triangle, M = |alpha| sum |a_il| |a_jl| + |beta| |c|
//     (|z| = |re| + |im|) against a long-double loop; the strict lower triangle holds NaN and must keep
//     its bits. Bound 2 gamma_{2k+8} (docs/trnblas.md "Complex SYRK, HERK, HEMM": each part one fp32 PSUM
//     sum of 2k products, then the epilogue); for C_8I the products and their sums are exact integers
//     (|sum| <= 2k 127^2 < 2^24), so only the epilogue rounds — the same bound holds a fortiori.
//   tpttr / trttp: a round trip TR -> TP -> TR of a random matrix, both triangles; metric the number of
//     elements whose bits differ from LAPACK's packed order (computed here by its index formula) or
//     from the original, plus those of the other triangle of A that changed (metric bit_exact: the count). Bound 0.
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "registry.hpp"
#include "suite_blas_capi.hpp"
#include "trnblas.h"

namespace trnsci::cli {
namespace {

using namespace blas_capi_suite;  // NOLINT: the typed C-API helpers of this suite family
using C32 = std::complex<float>;

// rank-k Ex call: herk (else syrk), three_m (the 3m entry point), int8 A (else C_32F). n = 130 (two
// row blocks), k = 64, upper, trans N.
CaseResult rank_ex_case(bool herk, bool three_m, bool int8) {
  const int n = 130, k = 64;
  std::vector<C32> A = random<C32>(static_cast<std::size_t>(n) * k, 311);
  std::vector<std::int8_t> A8(static_cast<std::size_t>(2) * n * k);
  if (int8)  // integer parts in [-127, 127]; A holds the same values for the reference
    for (std::size_t e = 0; e < A.size(); ++e) {
      const auto re = static_cast<std::int8_t>(std::lround(A[e].real() * 127)), im = static_cast<std::int8_t>(std::lround(A[e].imag() * 127));
      A8[2 * e] = re;
      A8[2 * e + 1] = im;
      A[e] = C32(re, im);
    }
  std::vector<C32> C0 = random<C32>(static_cast<std::size_t>(n) * n, 313);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int j = 0; j < n; ++j)
    for (int i = j + 1; i < n; ++i) C0[ix(i, j, n)] = C32(nan, nan);
  std::vector<C32> C = C0;
  const C32 alpha = int8 ? C32(0.0625f, -0.125f) : alpha_value<C32>(), beta(-0.25f, 0.5f);
  const float alpha_r = int8 ? 0.0625f : 0.75f, beta_r = -0.25f;
  const void* a = int8 ? static_cast<const void*>(A8.data()) : static_cast<const void*>(A.data());
  const trnDataType_t at = int8 ? TRN_C_8I : TRN_C_32F;
  Handle h;
  const double t0 = now_seconds();
  trnblasStatus_t st;
  if (herk)
    st = (three_m ? trnblasCherk3mEx : trnblasCherkEx)(h.h, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, n, k, &alpha_r, a, at,
                                                       n, &beta_r, C.data(), TRN_C_32F, n);
  else
    st = (three_m ? trnblasCsyrk3mEx : trnblasCsyrkEx)(h.h, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, n, k, api(&alpha), a,
                                                       at, n, api(&beta), C.data(), TRN_C_32F, n);
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  if (st != TRNBLAS_STATUS_SUCCESS) throw std::runtime_error("trnblas rank-k Ex update failed");
  r.device = h.device();
  const L al = herk ? L(alpha_r, 0) : wide(alpha), be = herk ? L(beta_r, 0) : wide(beta);
  double worst = 0;
  bool other_triangle_kept = true;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      if (i > j) {
        other_triangle_kept = other_triangle_kept && std::memcmp(&C[ix(i, j, n)], &C0[ix(i, j, n)], sizeof(C32)) == 0;
        continue;
      }
      L s = 0;
      long double mag = 0;
      for (int l = 0; l < k; ++l) {
        const L a_i = wide(A[ix(i, l, n)]), a_j = wide(A[ix(j, l, n)]);
        s += al * a_i * (herk ? std::conj(a_j) : a_j);
        mag += abs1(al) * abs1(a_i) * abs1(a_j);
      }
      L c0 = wide(C0[ix(i, j, n)]);
      if (herk && i == j) c0 = L(c0.real(), 0);
      L got = wide(C[ix(i, j, n)]);
      if (herk && i == j && got.imag() != 0) got = L(NAN, NAN);  // the diagonal is real
      const long double e = abs1(got - (s + be * c0)) / (mag + abs1(be) * abs1(c0));
      const double rel = std::isfinite(static_cast<double>(e)) ? static_cast<double>(e) : INFINITY;
      worst = std::max(worst, std::isnan(rel) ? INFINITY : rel);
    }
  r.measured = other_triangle_kept ? worst : INFINITY;
  r.bound = 2 * gamma_u(2.0 * k + 8, unit_roundoff<C32>());
  r.pass = r.measured <= r.bound;
  r.note = int8 ? "C_8I A widened exactly, bf16 products exact; upper triangle only" : "4M products in one fp32 PSUM sum; upper triangle only";
  return r;
}

// Packed index of (i, j) in uplo's triangle, LAPACK's column-major packed order.
std::size_t packed_index(bool upper, int n, int i, int j) {
  return upper ? static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * (j + 1) / 2
               : static_cast<std::size_t>(i - j) + static_cast<std::size_t>(j) * (2 * static_cast<std::size_t>(n) - j + 1) / 2;
}

template <class T> CaseResult packed_case(bool upper) {
  const int n = 300, lda = 301;
  const std::vector<T> A = random<T>(static_cast<std::size_t>(lda) * n, 321);
  std::vector<T> AP(static_cast<std::size_t>(n) * (n + 1) / 2), B = random<T>(static_cast<std::size_t>(lda) * n, 322);
  const std::vector<T> B0 = B;
  const trnblasFillMode_t uplo = upper ? TRNBLAS_FILL_MODE_UPPER : TRNBLAS_FILL_MODE_LOWER;
  Handle h;
  const double t0 = now_seconds();
  trnblasStatus_t st = [&]() -> trnblasStatus_t {
    TRNBLAS_BY_TYPE(T, trnblasStrttp, trnblasDtrttp, trnblasCtrttp, trnblasZtrttp, h.h, uplo, n, api(A.data()), lda,
                    api(AP.data()));
  }();
  CaseResult r;
  r.device = h.device();  // trttp's profile (S/C: one DMA program; D/Z: a host copy)
  if (st == TRNBLAS_STATUS_SUCCESS)
    st = [&]() -> trnblasStatus_t {
      TRNBLAS_BY_TYPE(T, trnblasStpttr, trnblasDtpttr, trnblasCtpttr, trnblasZtpttr, h.h, uplo, n, api(AP.data()),
                      api(B.data()), lda);
    }();
  r.host_seconds = seconds_since(t0);
  if (st != TRNBLAS_STATUS_SUCCESS) throw std::runtime_error("trnblas tpttr/trttp failed");
  std::int64_t wrong = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < lda; ++i) {
      const bool in_triangle = i < n && (upper ? i <= j : i >= j);
      const T& want = in_triangle ? A[ix(i, j, lda)] : B0[ix(i, j, lda)];
      wrong += std::memcmp(&B[ix(i, j, lda)], &want, sizeof(T)) != 0;
      if (in_triangle) wrong += std::memcmp(&AP[packed_index(upper, n, i, j)], &A[ix(i, j, lda)], sizeof(T)) != 0;
    }
  r.measured = static_cast<double>(wrong);
  r.bound = 0;
  r.pass = wrong == 0;
  r.note = "trttp then tpttr: LAPACK's packed order, bits copied, the other triangle and the pad rows untouched";
  return r;
}

void add_blas_extensions(Registry& reg) {
  for (bool int8 : {false, true})
    for (bool herk : {false, true})
      for (bool three_m : {false, true}) {
        const std::string op = std::string(herk ? "Cherk" : "Csyrk") + (three_m ? "3mEx" : "Ex");
        add_blas_case(reg, {.op = op, .mode = std::string(int8 ? "A C_8I" : "A C_32F") + ", C C_32F, upper, N",
                            .shape = "n 130, k 64", .metric = "max_comp_rel", .bound_text = "2 g_{2k+8}", .size = 130,
                            .run = [=] { return rank_ex_case(herk, three_m, int8); }});
      }
  for_each_precision([&](auto tag) {
    using T = decltype(tag);
    for (bool upper : {true, false})
      add_blas_case(reg, {.op = std::string(prefix<T>()) + "trttp+tpttr", .mode = upper ? "upper" : "lower", .shape = "n 300, lda 301",
                          .metric = "bit_exact", .bound_text = "0 (a copy)", .size = 300,
                          .run = [=] { return packed_case<T>(upper); }});
  });
}

const Registrar kRegistrar(add_blas_extensions);

}  // namespace
}  // namespace trnsci::cli
