// Validation cases of suite "blas" for trnblas's Level 3 routines beyond GEMM and TRSM/TRMM, one per
// precision (S, D, C, Z) through the C API: SYMM (C/Z also HEMM), SYRK (HERK), SYR2K (HER2K), GEAM
// and DGMM. Metric: the largest |C^ - C| / M over the elements the routine writes, M the magnitude
// of its bound (|alpha| |op(A)| |op(B)| + |beta| |C|, |z| = |re| + |im|), against long-double loops;
// the triangle SYRK/SYR2K must not write is checked to keep its bits (NaNs; else the case fails).
// Bounds (docs/trnblas.md "Level 3", "Complex SYRK, HERK, HEMM", "GEAM and DGMM"; u of the data):
//   SYMM gamma_{d+2}, SYRK gamma_{k+2}, SYR2K gamma_{2k+2} (one fp32 PSUM sum and the epilogue);
//   complex: each part bounded by gamma_{2d+3} / gamma_{2k+8} of the modulus magnitudes, so twice
//   that in |re| + |im|; GEAM gamma_2 (complex 2 gamma_3), DGMM gamma_1 (complex 2 gamma_2);
//   D and Z products through the Ozaki DGEMM: + 62 roundings (as the Dtrsm tests).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "registry.hpp"
#include "suite_blas_capi.hpp"
#include "trnblas.h"

namespace trnsci::cli {
namespace {

using namespace blas_capi_suite;  // NOLINT: the typed C-API helpers of this suite family

template <class T> T beta_value() {
  if constexpr (kComplex<T>) return T(real_of<T>(-0.25), real_of<T>(0.5));
  else return T(-0.25);
}

// Largest err / magnitude; a NaN or an infinite error makes the case fail.
struct Worst {
  double value = 0;
  void add(L got, L exact, long double magnitude) {
    const long double e = abs1(got - exact);
    const double r = std::isfinite(static_cast<double>(e)) ? static_cast<double>(e / magnitude) : INFINITY;
    value = std::max(value, std::isnan(r) ? INFINITY : r);
  }
};

template <class T> double ozaki_roundings() { return std::is_same_v<real_of<T>, double> ? 62.0 : 0.0; }

// SYMM (hermitian = false) or HEMM: side left, lower triangle stored (the upper holds NaN; HEMM's
// diagonal imaginary parts are nonzero and must be read as zero), m = 130 (two blocks), n = 40.
template <class T> CaseResult symm_case(bool hermitian) {
  const int m = 130, n = 40;
  std::vector<T> A = random<T>(static_cast<std::size_t>(m) * m, 201);
  const std::vector<T> B = random<T>(static_cast<std::size_t>(m) * n, 202), C0 = random<T>(static_cast<std::size_t>(m) * n, 203);
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < j; ++i) A[ix(i, j, m)] = T(std::numeric_limits<real_of<T>>::quiet_NaN());
  std::vector<T> C = C0;
  const T alpha = alpha_value<T>(), beta = beta_value<T>();
  Handle h;
  const double t0 = now_seconds();
  const trnblasStatus_t st = [&]() -> trnblasStatus_t {
    if constexpr (kComplex<T>) {
      if (hermitian)
        TRNBLAS_BY_TYPE(T, trnblasSsymm, trnblasDsymm, trnblasChemm, trnblasZhemm, h.h, TRNBLAS_SIDE_LEFT,
                        TRNBLAS_FILL_MODE_LOWER, m, n, api(&alpha), api(A.data()), m, api(B.data()), m, api(&beta),
                        api(C.data()), m);
    }
    TRNBLAS_TYPED_CALL(T, symm, h.h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, m, n, api(&alpha), api(A.data()), m,
                       api(B.data()), m, api(&beta), api(C.data()), m);
  }();
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  if (st != TRNBLAS_STATUS_SUCCESS) throw std::runtime_error("trnblas ?symm/?hemm failed");
  r.device = h.device();
  const auto full = [&](int i, int l) {
    L v = i >= l ? wide(A[ix(i, l, m)]) : wide(A[ix(l, i, m)]);
    if (hermitian && i < l) v = std::conj(v);
    if (hermitian && i == l) v = L(v.real(), 0);
    return v;
  };
  Worst w;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      L s = 0;
      long double mag = 0;
      for (int l = 0; l < m; ++l) {
        s += full(i, l) * wide(B[ix(l, j, m)]);
        mag += abs1(full(i, l)) * abs1(wide(B[ix(l, j, m)]));
      }
      w.add(wide(C[ix(i, j, m)]), wide(alpha) * s + wide(beta) * wide(C0[ix(i, j, m)]),
            abs1(wide(alpha)) * mag + abs1(wide(beta)) * abs1(wide(C0[ix(i, j, m)])));
    }
  const double u = unit_roundoff<T>(), extra = ozaki_roundings<T>();
  r.measured = w.value;
  r.bound = kComplex<T> ? 2 * gamma_u(2.0 * m + 3 + extra, u) : gamma_u(m + 2.0 + extra, u);
  r.pass = r.measured <= r.bound;
  r.note = hermitian ? "Hermitian A packed from its triangle, one 4M GEMM" : "symmetric A packed from its triangle, one GEMM";
  return r;
}

// SYRK / HERK (rank = 1) or SYR2K / HER2K (rank = 2): upper, trans N, n = 130 (two blocks), k = 64;
// C's strict lower triangle holds NaN and must keep it; HERK/HER2K: alpha (HERK) and beta real, the
// diagonal's imaginary parts read as zero and written as zero.
template <class T> CaseResult rank_case(int rank, bool hermitian) {
  const int n = 130, k = 64;
  const std::vector<T> A = random<T>(static_cast<std::size_t>(n) * k, 211), B = random<T>(static_cast<std::size_t>(n) * k, 212);
  std::vector<T> C0 = random<T>(static_cast<std::size_t>(n) * n, 213);
  const real_of<T> nan = std::numeric_limits<real_of<T>>::quiet_NaN();
  for (int j = 0; j < n; ++j)
    for (int i = j + 1; i < n; ++i) C0[ix(i, j, n)] = T(nan);
  std::vector<T> C = C0;
  const real_of<T> alpha_r = std::real(alpha_value<T>()), beta_r = std::real(beta_value<T>());
  const T alpha = hermitian && rank == 1 ? T(alpha_r) : alpha_value<T>();
  const T beta = hermitian ? T(beta_r) : beta_value<T>();
  Handle h;
  const double t0 = now_seconds();
  const trnblasStatus_t st = [&]() -> trnblasStatus_t {
    if constexpr (kComplex<T>) {
      if (hermitian && rank == 1)
        TRNBLAS_BY_TYPE(T, trnblasSsyrk, trnblasDsyrk, trnblasCherk, trnblasZherk, h.h, TRNBLAS_FILL_MODE_UPPER,
                        TRNBLAS_OP_N, n, k, &alpha_r, api(A.data()), n, &beta_r, api(C.data()), n);
      if (hermitian)
        TRNBLAS_BY_TYPE(T, trnblasSsyr2k, trnblasDsyr2k, trnblasCher2k, trnblasZher2k, h.h, TRNBLAS_FILL_MODE_UPPER,
                        TRNBLAS_OP_N, n, k, api(&alpha), api(A.data()), n, api(B.data()), n, &beta_r, api(C.data()), n);
    }
    if (rank == 1)
      TRNBLAS_TYPED_CALL(T, syrk, h.h, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, n, k, api(&alpha), api(A.data()), n,
                         api(&beta), api(C.data()), n);
    TRNBLAS_TYPED_CALL(T, syr2k, h.h, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, n, k, api(&alpha), api(A.data()), n,
                       api(B.data()), n, api(&beta), api(C.data()), n);
  }();
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  if (st != TRNBLAS_STATUS_SUCCESS) throw std::runtime_error("trnblas rank-k update failed");
  r.device = h.device();
  const auto op = [&](L v) { return hermitian ? std::conj(v) : v; };
  Worst w;
  bool other_triangle_kept = true;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      if (i > j) {  // bit for bit untouched
        other_triangle_kept = other_triangle_kept && std::memcmp(&C[ix(i, j, n)], &C0[ix(i, j, n)], sizeof(T)) == 0;
        continue;
      }
      L s = 0;
      long double mag = 0;
      for (int l = 0; l < k; ++l) {
        const L a_i = wide(A[ix(i, l, n)]), a_j = wide(A[ix(j, l, n)]), b_i = wide(B[ix(i, l, n)]), b_j = wide(B[ix(j, l, n)]);
        if (rank == 1) {
          s += wide(alpha) * a_i * op(a_j);
          mag += abs1(wide(alpha)) * abs1(a_i) * abs1(a_j);
        } else {  // alpha A B^T + alpha B A^T (Hermitian: alpha A B^H + conj(alpha) B A^H)
          s += wide(alpha) * a_i * op(b_j) + (hermitian ? std::conj(wide(alpha)) : wide(alpha)) * b_i * op(a_j);
          mag += abs1(wide(alpha)) * (abs1(a_i) * abs1(b_j) + abs1(b_i) * abs1(a_j));
        }
      }
      L c0 = wide(C0[ix(i, j, n)]);
      if (hermitian && i == j) c0 = L(c0.real(), 0);
      L got = wide(C[ix(i, j, n)]);
      if (hermitian && i == j && got.imag() != 0) got = L(NAN, NAN);  // written as exactly zero
      w.add(got, s + wide(beta) * c0, mag + abs1(wide(beta)) * abs1(c0));
    }
  const double u = unit_roundoff<T>(), extra = ozaki_roundings<T>();
  r.measured = other_triangle_kept ? w.value : INFINITY;
  r.bound = kComplex<T> ? 2 * gamma_u(2.0 * k + 8 + extra, u) : gamma_u(rank * k + 2.0 + extra, u);
  r.pass = r.measured <= r.bound;
  r.note = "the uplo triangle by 128-row blocks; the other triangle keeps its NaNs";
  return r;
}

// GEAM C = alpha op(A) + beta B (op T, complex C), 130 x 100; DGMM C = A diag(x) (right side).
template <class T> CaseResult elementwise_case(bool dgmm) {
  const int m = 130, n = 100;
  const std::vector<T> A = random<T>(static_cast<std::size_t>(m) * n, 221), B = random<T>(static_cast<std::size_t>(m) * n, 222),
                       x = random<T>(static_cast<std::size_t>(n), 223);
  std::vector<T> C(static_cast<std::size_t>(m) * n, T(std::numeric_limits<real_of<T>>::quiet_NaN()));
  const T alpha = alpha_value<T>(), beta = beta_value<T>();
  const trnblasOperation_t op_a = kComplex<T> ? TRNBLAS_OP_C : TRNBLAS_OP_T;
  Handle h;
  const double t0 = now_seconds();
  const trnblasStatus_t st = [&]() -> trnblasStatus_t {
    if (dgmm)
      TRNBLAS_TYPED_CALL(T, dgmm, h.h, TRNBLAS_SIDE_RIGHT, m, n, api(A.data()), m, api(x.data()), 1, api(C.data()), m);
    TRNBLAS_TYPED_CALL(T, geam, h.h, op_a, TRNBLAS_OP_N, m, n, api(&alpha), api(A.data()), n, api(&beta), api(B.data()),
                       m, api(C.data()), m);
  }();
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  if (st != TRNBLAS_STATUS_SUCCESS) throw std::runtime_error("trnblas ?geam/?dgmm failed");
  r.device = h.device();
  Worst w;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      const L got = wide(C[ix(i, j, m)]);
      if (dgmm) {
        const L a = wide(A[ix(i, j, m)]), xj = wide(x[static_cast<std::size_t>(j)]);
        w.add(got, a * xj, abs1(a) * abs1(xj));
      } else {
        L a = wide(A[ix(j, i, n)]);  // op(A)(i, j) = A(j, i), conjugated for op C
        if (kComplex<T>) a = std::conj(a);
        const L b = wide(B[ix(i, j, m)]);
        w.add(got, wide(alpha) * a + wide(beta) * b, abs1(wide(alpha)) * abs1(a) + abs1(wide(beta)) * abs1(b));
      }
    }
  const double u = unit_roundoff<T>();
  r.measured = w.value;
  r.bound = dgmm ? (kComplex<T> ? 2 * gamma_u(2, u) : gamma_u(1, u)) : (kComplex<T> ? 2 * gamma_u(3, u) : gamma_u(2, u));
  r.pass = r.measured <= r.bound;
  r.note = std::is_same_v<real_of<T>, float> ? "VectorE, one column of C per partition" : "fp64 on the host side";
  return r;
}

template <class T> void add_typed(Registry& reg) {
  auto add = [&](ValidationCase c) {
    c.metric = "max_comp_rel";
    add_blas_case(reg, std::move(c));
  };
  const std::string p = prefix<T>(), precision = std::is_same_v<real_of<T>, float> ? "fp32" : "fp64";
  add({.op = p + "symm", .mode = precision + " left, lower", .shape = "130x40", .bound_text = "S g_{d+2}, C 2 g_{2d+3} (D/Z + 62)",
       .size = 130, .run = [] { return symm_case<T>(false); }});
  add({.op = p + "syrk", .mode = precision + " upper, N", .shape = "n 130, k 64", .bound_text = "S g_{k+2}, C 2 g_{2k+8} (D/Z + 62)",
       .size = 130, .run = [] { return rank_case<T>(1, false); }});
  add({.op = p + "syr2k", .mode = precision + " upper, N", .shape = "n 130, k 64", .bound_text = "S g_{2k+2}, C 2 g_{2k+8} (D/Z + 62)",
       .size = 130, .run = [] { return rank_case<T>(2, false); }});
  if constexpr (kComplex<T>) {
    add({.op = p + "hemm", .mode = precision + " left, lower", .shape = "130x40", .bound_text = "2 g_{2d+3} (Z + 62)",
         .size = 130, .run = [] { return symm_case<T>(true); }});
    add({.op = p + "herk", .mode = precision + " upper, N", .shape = "n 130, k 64", .bound_text = "2 g_{2k+8} (Z + 62)",
         .size = 130, .run = [] { return rank_case<T>(1, true); }});
    add({.op = p + "her2k", .mode = precision + " upper, N", .shape = "n 130, k 64", .bound_text = "2 g_{2k+8} (Z + 62)",
         .size = 130, .run = [] { return rank_case<T>(2, true); }});
  }
  add({.op = p + "geam", .mode = precision + (kComplex<T> ? " C, N" : " T, N"), .shape = "130x100",
       .bound_text = "g_2 (complex 2 g_3)", .run = [] { return elementwise_case<T>(false); }});
  add({.op = p + "dgmm", .mode = precision + " right", .shape = "130x100", .bound_text = "g_1 (complex 2 g_2)",
       .run = [] { return elementwise_case<T>(true); }});
}

void add_blas_level3_typed(Registry& reg) {
  for_each_precision([&](auto tag) { add_typed<decltype(tag)>(reg); });
}

const Registrar kRegistrar(add_blas_level3_typed);

}  // namespace
}  // namespace trnsci::cli
