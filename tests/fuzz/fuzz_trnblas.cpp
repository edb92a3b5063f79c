// libFuzzer harness over trnblas's C API (issue: reliability). Each input is a short program of
// calls on one handle: settings (valid and invalid values) and GEMM/SYRK/Level 3 (TRSM, TRMM, SYMM,
// SYR2K, SYRKX, complex GEMM) calls whose arguments come from the grammar of fuzz_input.hpp. Invariants checked, beyond "no crash, no sanitizer report":
//   * every status is one of cuBLAS's values;
//   * a call that does not succeed leaves its output bytes identical;
//   * inputs are never written;
//   * a successful fp32 SGEMM/SSYRK on default settings agrees with a long-double reference within
//     the fp32 accumulation bound (k + 3) u sum|alpha a b| + |beta c| (docs/trnblas.md).
// Buffers are sized exactly to what the arguments address; when that exceeds the harness's cap the
// pointer is NULL, so the only legal outcome is an error or a quick return.
#include <cmath>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "fuzz_input.hpp"
#include "trnblas.h"

namespace {

constexpr std::int64_t kCapElems = 1 << 12;

using trnfuzz::require;

bool known_status(trnblasStatus_t st) {
  trnfuzz::reach(st == TRNBLAS_STATUS_SUCCESS ? "call_ok" : "call_rejected");
  switch (st) {
    case TRNBLAS_STATUS_SUCCESS: case TRNBLAS_STATUS_NOT_INITIALIZED: case TRNBLAS_STATUS_ALLOC_FAILED:
    case TRNBLAS_STATUS_INVALID_VALUE: case TRNBLAS_STATUS_ARCH_MISMATCH: case TRNBLAS_STATUS_MAPPING_ERROR:
    case TRNBLAS_STATUS_EXECUTION_FAILED: case TRNBLAS_STATUS_INTERNAL_ERROR: case TRNBLAS_STATUS_NOT_SUPPORTED:
    case TRNBLAS_STATUS_LICENSE_ERROR:
      return true;
  }
  return false;
}

// rows + extra, saturating (the harness itself must not overflow on huge sizes).
std::int64_t pad(std::int64_t rows, int extra) {
  return rows > std::numeric_limits<std::int64_t>::max() - extra ? rows : rows + extra;
}

// Elements a (rows x cols, ld) column-major operand addresses; -1 when illegal or above the cap.
std::int64_t extent(std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  if (rows < 0 || cols < 0 || ld < 1 || ld < rows) return -1;
  if (rows == 0 || cols == 0) return 0;
  if (cols > kCapElems || ld > kCapElems) return -1;
  const std::int64_t e = ld * (cols - 1) + rows;
  return e <= kCapElems ? e : -1;
}

// Byte identity of two buffers (memcmp with NULL data is undefined, even for zero bytes).
template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <class T>
struct Operand {
  std::vector<T> data;
  bool null = true;
  T* ptr() { return null ? nullptr : data.data(); }
};

template <class T>
Operand<T> make(trnfuzz::Input& in, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  Operand<T> o;
  const std::int64_t e = extent(rows, cols, ld);
  if (e < 0 || in.flag(40)) return o;  // too big (or illegal), or a NULL by choice
  o.data.resize(static_cast<std::size_t>(std::max<std::int64_t>(e, 1)));
  for (auto& x : o.data) x = static_cast<T>(in.value());
  o.null = false;
  return o;
}

template <class T>
bool all_finite_and_moderate(const std::vector<T>& v) {
  for (T x : v)
    if (!std::isfinite(x) || std::fabs(x) > T(1e15)) return false;
  return true;
}

// C = alpha op(A) op(B) + beta C against a long-double reference (only the triangle for SYRK).
template <class T>
void check_gemm_result(int ta, int tb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const std::vector<T>& A,
                       std::int64_t lda, const std::vector<T>& B, std::int64_t ldb, T beta, const std::vector<T>& C0,
                       const std::vector<T>& C, std::int64_t ldc, int uplo /* -1: full */) {
  const long double u = std::is_same_v<T, float> ? 0x1p-24L : 0x1p-50L;  // Ozaki keeps fp64 accuracy
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      if (uplo == TRNBLAS_FILL_MODE_LOWER && i < j) continue;
      if (uplo == TRNBLAS_FILL_MODE_UPPER && i > j) continue;
      long double s = 0, mag = 0, amax = 0, bmax = 0;
      for (std::int64_t l = 0; l < k; ++l) {
        const long double a = ta == TRNBLAS_OP_N ? A[i + l * lda] : A[l + i * lda];
        const long double b = tb == TRNBLAS_OP_N ? B[l + j * ldb] : B[j + l * ldb];
        s += a * b;
        mag += std::fabs(a * b);
        amax = std::max(amax, std::fabs(a));
        bmax = std::max(bmax, std::fabs(b));
      }
      // The Ozaki scheme's error is relative to each row's and column's largest element (its
      // slices are scaled by them), not to the individual products.
      if (std::is_same_v<T, double>) mag = k * amax * bmax;
      const long double c0 = beta == T(0) ? 0.0L : static_cast<long double>(C0[i + j * ldc]);
      const long double ref = alpha * s + beta * c0;
      // Plus underflow: a product or partial sum below T's smallest normal may become zero in T
      // (fp32 PSUM flushes it; any fp32 BLAS rounds 2.7e-24^2 to 0), an absolute error of up to
      // that per term, which alpha then scales (found with alpha = -4.3e37: alpha a^2 = -3.2e-10 lost).
      const long double underflow = std::fabs(static_cast<long double>(alpha)) * (k + 1) *
                                    static_cast<long double>(std::numeric_limits<T>::min());
      const long double bound = (k + 3) * u * (std::fabs(static_cast<long double>(alpha)) * mag +
                                               std::fabs(static_cast<long double>(beta) * c0)) + underflow + 1e-30L;
      if (std::fabs(ref) + bound >= static_cast<long double>(std::numeric_limits<T>::max()) / 2) continue;  // overflows T
      if (!(std::fabs(C[i + j * ldc] - ref) <= bound))
        std::fprintf(stderr, "ta %d tb %d m %lld n %lld k %lld alpha %g beta %g: C(%lld,%lld) = %.17g, reference %.17Lg, bound %.3Lg\n",
                     ta, tb, static_cast<long long>(m), static_cast<long long>(n), static_cast<long long>(k),
                     static_cast<double>(alpha), static_cast<double>(beta), static_cast<long long>(i),
                     static_cast<long long>(j), static_cast<double>(C[i + j * ldc]), ref, bound);
      require(std::fabs(C[i + j * ldc] - ref) <= bound, "GEMM result outside the accumulation bound");
    }
}

template <class T, class I>
void fuzz_gemm(trnfuzz::Input& in, trnblasHandle_t h, bool defaults, bool wide) {
  const int ta = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}), tb = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T});
  const std::int64_t m = in.size(20, wide), n = in.size(20, wide), k = in.size(40, wide);
  const std::int64_t ra = ta == TRNBLAS_OP_N ? m : k, ca = ta == TRNBLAS_OP_N ? k : m;
  const std::int64_t rb = tb == TRNBLAS_OP_N ? k : n, cb = tb == TRNBLAS_OP_N ? n : k;
  auto ld = [&](std::int64_t rows) { return in.flag(8) ? in.size(3, wide) : pad(std::max<std::int64_t>(1, rows), in.byte() % 3); };
  const std::int64_t lda = ld(ra), ldb = ld(rb), ldc = ld(m);
  if (!wide && (lda > INT32_MAX || ldb > INT32_MAX || ldc > INT32_MAX || m > INT32_MAX || n > INT32_MAX || k > INT32_MAX ||
                lda < INT32_MIN || ldb < INT32_MIN || ldc < INT32_MIN || m < INT32_MIN || n < INT32_MIN || k < INT32_MIN))
    return;
  auto A = make<T>(in, ra, ca, lda), B = make<T>(in, rb, cb, ldb), C = make<T>(in, m, n, ldc);
  const T alpha = static_cast<T>(in.value()), beta = in.flag(3) ? T(0) : static_cast<T>(in.value());
  const bool null_alpha = in.flag(50), null_beta = in.flag(50);
  const bool alias = !C.null && !A.null && in.flag(16) && A.data.size() == C.data.size();
  const std::vector<T> A0 = A.data, B0 = B.data, C0 = C.data;
  T* a = alias ? C.ptr() : A.ptr();
  trnblasStatus_t st;
  if constexpr (std::is_same_v<T, float>) {
    if constexpr (std::is_same_v<I, int>)
      st = trnblasSgemm(h, static_cast<trnblasOperation_t>(ta), static_cast<trnblasOperation_t>(tb), static_cast<int>(m),
                        static_cast<int>(n), static_cast<int>(k), null_alpha ? nullptr : &alpha, a, static_cast<int>(lda),
                        B.ptr(), static_cast<int>(ldb), null_beta ? nullptr : &beta, C.ptr(), static_cast<int>(ldc));
    else
      st = trnblasSgemm_64(h, static_cast<trnblasOperation_t>(ta), static_cast<trnblasOperation_t>(tb), m, n, k,
                           null_alpha ? nullptr : &alpha, a, lda, B.ptr(), ldb, null_beta ? nullptr : &beta, C.ptr(), ldc);
  } else {
    if constexpr (std::is_same_v<I, int>)
      st = trnblasDgemm(h, static_cast<trnblasOperation_t>(ta), static_cast<trnblasOperation_t>(tb), static_cast<int>(m),
                        static_cast<int>(n), static_cast<int>(k), null_alpha ? nullptr : &alpha, a, static_cast<int>(lda),
                        B.ptr(), static_cast<int>(ldb), null_beta ? nullptr : &beta, C.ptr(), static_cast<int>(ldc));
    else
      st = trnblasDgemm_64(h, static_cast<trnblasOperation_t>(ta), static_cast<trnblasOperation_t>(tb), m, n, k,
                           null_alpha ? nullptr : &alpha, a, lda, B.ptr(), ldb, null_beta ? nullptr : &beta, C.ptr(), ldc);
  }
  require(known_status(st), "unknown status");
  if (!alias) {
    require(same_bytes(A.data, A0), "A was written");
    require(same_bytes(B.data, B0), "B was written");
  }
  if (st != TRNBLAS_STATUS_SUCCESS) {
    require(same_bytes(C.data, C0), "C written by a failing call");
    return;
  }
  if (!defaults || alias || m <= 0 || n <= 0 || !std::isfinite(alpha) || !std::isfinite(beta)) return;
  if (!all_finite_and_moderate(A0) || !all_finite_and_moderate(B0) || !all_finite_and_moderate(C0)) return;
  if (alpha != T(0) && k > 0 && (A.null || B.null)) return;
  check_gemm_result<T>(ta, tb, m, n, alpha == T(0) ? 0 : k, alpha, A0, lda, B0, ldb, beta, C0, C.data, ldc, -1);
}

void fuzz_strided(trnfuzz::Input& in, trnblasHandle_t h) {
  const int ta = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T}), tb = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T});
  const std::int64_t m = in.size(8, true), n = in.size(8, true), k = in.size(8, true), batch = in.size(4, true);
  const std::int64_t lda = std::max<std::int64_t>(1, ta == TRNBLAS_OP_N ? m : k), ldb = std::max<std::int64_t>(1, tb == TRNBLAS_OP_N ? k : n),
                     ldc = std::max<std::int64_t>(1, m);
  auto packed = [](std::int64_t ld, std::int64_t cols) {  // ld * cols, or a huge stride when it overflows
    long long r = 0;
    return __builtin_mul_overflow(ld, std::max<std::int64_t>(1, cols), &r) ? std::numeric_limits<long long>::max() : r;
  };
  const long long sa = in.flag(6) ? static_cast<long long>(in.u64()) : packed(lda, ta == TRNBLAS_OP_N ? k : m);
  const long long sb = packed(ldb, tb == TRNBLAS_OP_N ? n : k), sc = packed(ldc, n);
  // Buffers only when every entry fits the cap (else NULL: an error or quick return is required).
  auto buf = [&](long long stride, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
    std::vector<float> v;
    const std::int64_t e = extent(rows, cols, ld);
    if (e < 0 || batch < 0 || batch > 64 || stride < 0 || stride > kCapElems) return v;
    const std::int64_t total = batch > 0 ? stride * (batch - 1) + e : 0;  // small: stride, batch capped above
    if (total > kCapElems * 4) return v;
    v.assign(static_cast<std::size_t>(std::max<std::int64_t>(total, 1)), 1.0f);
    return v;
  };
  auto A = buf(sa, ta == TRNBLAS_OP_N ? m : k, ta == TRNBLAS_OP_N ? k : m, lda), B = buf(sb, tb == TRNBLAS_OP_N ? k : n, tb == TRNBLAS_OP_N ? n : k, ldb),
       C = buf(sc, m, n, ldc);
  const std::vector<float> C0 = C;
  const float one = 1.0f;
  const trnblasStatus_t st = trnblasSgemmStridedBatched_64(
      h, static_cast<trnblasOperation_t>(ta), static_cast<trnblasOperation_t>(tb), m, n, k, &one, A.empty() ? nullptr : A.data(), lda,
      sa, B.empty() ? nullptr : B.data(), ldb, sb, &one, C.empty() ? nullptr : C.data(), ldc, sc, batch);
  require(known_status(st), "unknown status");
  if (st != TRNBLAS_STATUS_SUCCESS) require(same_bytes(C, C0), "C written by a failing strided call");
}

template <class T>
void fuzz_syrk(trnfuzz::Input& in, trnblasHandle_t h, bool defaults) {
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}), trans = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T});
  const std::int64_t n = in.size(20, true), k = in.size(30, true);
  const std::int64_t ra = trans == TRNBLAS_OP_N ? n : k, ca = trans == TRNBLAS_OP_N ? k : n;
  const std::int64_t lda = in.flag(8) ? in.size(3, true) : std::max<std::int64_t>(1, ra);
  const std::int64_t ldc = in.flag(8) ? in.size(3, true) : pad(std::max<std::int64_t>(1, n), in.byte() % 2);
  auto A = make<T>(in, ra, ca, lda), C = make<T>(in, n, n, ldc);
  const T alpha = static_cast<T>(in.value()), beta = static_cast<T>(in.value());
  const std::vector<T> A0 = A.data, C0 = C.data;
  trnblasStatus_t st;
  if constexpr (std::is_same_v<T, float>)
    st = trnblasSsyrk_64(h, static_cast<trnblasFillMode_t>(uplo), static_cast<trnblasOperation_t>(trans), n, k, &alpha, A.ptr(), lda,
                         &beta, C.ptr(), ldc);
  else
    st = trnblasDsyrk_64(h, static_cast<trnblasFillMode_t>(uplo), static_cast<trnblasOperation_t>(trans), n, k, &alpha, A.ptr(), lda,
                         &beta, C.ptr(), ldc);
  require(known_status(st), "unknown status");
  require(same_bytes(A.data, A0), "A was written");
  if (st != TRNBLAS_STATUS_SUCCESS) {
    require(same_bytes(C.data, C0), "C written by a failing call");
    return;
  }
  if (!defaults || n <= 0 || A.null || !std::isfinite(alpha) || !std::isfinite(beta)) return;
  if (!all_finite_and_moderate(A0) || !all_finite_and_moderate(C0)) return;
  const int tb = trans == TRNBLAS_OP_N ? TRNBLAS_OP_T : TRNBLAS_OP_N;  // op(A) op(A)^T
  check_gemm_result<T>(trans, tb, n, n, alpha == T(0) ? 0 : k, alpha, A0, lda, A0, lda, beta, C0, C.data, ldc, uplo);
  // The other triangle is never written.
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      if ((uplo == TRNBLAS_FILL_MODE_LOWER && i < j) || (uplo == TRNBLAS_FILL_MODE_UPPER && i > j))
        require(std::memcmp(&C.data[i + j * ldc], &C0[i + j * ldc], sizeof(T)) == 0, "SYRK wrote the other triangle");
}

// ---- Level 3 beyond GEMM/SYRK: statuses, inputs never written, outputs untouched on failure, and
// (SYR2K/SYRKX) the other triangle never written.

// A complex (rows x cols, ld) operand as interleaved floats (NULL when too big or by choice).
Operand<float> make_complex(trnfuzz::Input& in, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  if (rows > kCapElems || ld > kCapElems || ld < 1 || ld < rows) return {};
  return make<float>(in, 2 * rows, cols, 2 * ld);
}

template <class T>
void fuzz_triangular(trnfuzz::Input& in, trnblasHandle_t h) {
  const int side = in.choice({TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT});
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int trans = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C});
  const int diag = in.choice({TRNBLAS_DIAG_NON_UNIT, TRNBLAS_DIAG_UNIT});
  const bool trmm = in.flag(2);
  const std::int64_t m = in.size(20, true), n = in.size(20, true), order = side == TRNBLAS_SIDE_LEFT ? m : n;
  auto ld = [&](std::int64_t rows) { return in.flag(8) ? in.size(3, true) : pad(std::max<std::int64_t>(1, rows), in.byte() % 2); };
  const std::int64_t lda = ld(order), ldb = ld(m), ldc = ld(m);
  auto A = make<T>(in, order, order, lda), B = make<T>(in, m, n, ldb), C = make<T>(in, m, n, ldc);
  const T alpha = in.flag(4) ? T(0) : static_cast<T>(in.value());
  const std::vector<T> A0 = A.data, B0 = B.data, C0 = C.data;
  // (Enum arguments are cast in the call expressions: a stored invalid enum value would be UB.)
#define TRNBLAS_FUZZ_ENUMS                                                                                        \
  static_cast<trnblasSideMode_t>(side), static_cast<trnblasFillMode_t>(uplo), static_cast<trnblasOperation_t>(trans), \
      static_cast<trnblasDiagType_t>(diag)
  trnblasStatus_t st;
  if constexpr (std::is_same_v<T, float>)
    st = trmm ? trnblasStrmm_64(h, TRNBLAS_FUZZ_ENUMS, m, n, &alpha, A.ptr(), lda, B.ptr(), ldb, C.ptr(), ldc)
              : trnblasStrsm_64(h, TRNBLAS_FUZZ_ENUMS, m, n, &alpha, A.ptr(), lda, B.ptr(), ldb);
  else
    st = trmm ? trnblasDtrmm_64(h, TRNBLAS_FUZZ_ENUMS, m, n, &alpha, A.ptr(), lda, B.ptr(), ldb, C.ptr(), ldc)
              : trnblasDtrsm_64(h, TRNBLAS_FUZZ_ENUMS, m, n, &alpha, A.ptr(), lda, B.ptr(), ldb);
#undef TRNBLAS_FUZZ_ENUMS
  require(known_status(st), "unknown status");
  require(same_bytes(A.data, A0), "A was written");
  if (trmm) require(same_bytes(B.data, B0), "TRMM wrote B");
  if (st != TRNBLAS_STATUS_SUCCESS) {
    require(same_bytes(B.data, B0) && same_bytes(C.data, C0), "output written by a failing call");
    return;
  }
  // Padding rows (beyond m) of the output are never written.
  std::vector<T>& out = trmm ? C.data : B.data;
  const std::vector<T>& out0 = trmm ? C0 : B0;
  const std::int64_t ldo = trmm ? ldc : ldb;
  if (m == 0 || (trmm ? C.null : B.null)) return;  // quick return: the buffer may be a 1-element stand-in
  for (std::int64_t j = 0; j + 1 < n; ++j)
    for (std::int64_t i = m; i < ldo; ++i)
      require(std::memcmp(&out[i + j * ldo], &out0[i + j * ldo], sizeof(T)) == 0, "padding row written");
}

template <class T>
void fuzz_rank2k_symm(trnfuzz::Input& in, trnblasHandle_t h) {
  const int kind = in.byte() % 3;  // 0 SYR2K, 1 SYRKX, 2 SYMM
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int trans = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T}), side = in.choice({TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT});
  const std::int64_t n = in.size(20, true), k = in.size(30, true);
  // SYMM: m = n (C square), the order of A from side; SYR2K/SYRKX: op(A), op(B) n x k.
  const std::int64_t ra = kind == 2 ? n : trans == TRNBLAS_OP_N ? n : k, ca = kind == 2 ? n : trans == TRNBLAS_OP_N ? k : n;
  const std::int64_t rb = kind == 2 ? n : ra, cb = kind == 2 ? n : ca;
  auto ld = [&](std::int64_t rows) { return in.flag(8) ? in.size(3, true) : pad(std::max<std::int64_t>(1, rows), in.byte() % 2); };
  const std::int64_t lda = ld(ra), ldb = ld(rb), ldc = ld(n);
  auto A = make<T>(in, ra, ca, lda), B = make<T>(in, rb, cb, ldb), C = make<T>(in, n, n, ldc);
  const T alpha = static_cast<T>(in.value()), beta = in.flag(3) ? T(0) : static_cast<T>(in.value());
  const std::vector<T> A0 = A.data, B0 = B.data, C0 = C.data;
  trnblasStatus_t st;  // enum arguments cast in the call expressions (a stored invalid enum is UB)
  if constexpr (std::is_same_v<T, float>) {
    if (kind == 2)
      st = trnblasSsymm_64(h, static_cast<trnblasSideMode_t>(side), static_cast<trnblasFillMode_t>(uplo), n, n, &alpha, A.ptr(), lda, B.ptr(), ldb, &beta,
                           C.ptr(), ldc);
    else
      st = (kind == 0 ? trnblasSsyr2k_64 : trnblasSsyrkx_64)(h, static_cast<trnblasFillMode_t>(uplo), static_cast<trnblasOperation_t>(trans), n, k,
                                                             &alpha, A.ptr(), lda, B.ptr(), ldb, &beta,
                                                           C.ptr(), ldc);
  } else {
    if (kind == 2)
      st = trnblasDsymm_64(h, static_cast<trnblasSideMode_t>(side), static_cast<trnblasFillMode_t>(uplo), n, n, &alpha, A.ptr(), lda, B.ptr(), ldb, &beta,
                           C.ptr(), ldc);
    else
      st = (kind == 0 ? trnblasDsyr2k_64 : trnblasDsyrkx_64)(h, static_cast<trnblasFillMode_t>(uplo), static_cast<trnblasOperation_t>(trans), n, k,
                                                             &alpha, A.ptr(), lda, B.ptr(), ldb, &beta,
                                                           C.ptr(), ldc);
  }
  require(known_status(st), "unknown status");
  require(same_bytes(A.data, A0) && same_bytes(B.data, B0), "an input was written");
  if (st != TRNBLAS_STATUS_SUCCESS) {
    require(same_bytes(C.data, C0), "C written by a failing call");
    return;
  }
  if (kind == 2 || C.null) return;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      if ((uplo == TRNBLAS_FILL_MODE_LOWER && i < j) || (uplo == TRNBLAS_FILL_MODE_UPPER && i > j))
        require(std::memcmp(&C.data[i + j * ldc], &C0[i + j * ldc], sizeof(T)) == 0, "SYR2K/SYRKX wrote the other triangle");
}

void fuzz_cgemm(trnfuzz::Input& in, trnblasHandle_t h) {
  const int ta = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}), tb = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C});
  const bool three = in.flag(2);
  const std::int64_t m = in.size(12, true), n = in.size(12, true), k = in.size(16, true);
  const std::int64_t ra = ta == TRNBLAS_OP_N ? m : k, ca = ta == TRNBLAS_OP_N ? k : m;
  const std::int64_t rb = tb == TRNBLAS_OP_N ? k : n, cb = tb == TRNBLAS_OP_N ? n : k;
  auto ld = [&](std::int64_t rows) { return in.flag(8) ? in.size(3, true) : pad(std::max<std::int64_t>(1, rows), in.byte() % 2); };
  const std::int64_t lda = ld(ra), ldb = ld(rb), ldc = ld(m);
  auto A = make_complex(in, ra, ca, lda), B = make_complex(in, rb, cb, ldb), C = make_complex(in, m, n, ldc);
  const trnComplex alpha{in.value(), in.flag(2) ? 0.0f : in.value()}, beta{in.flag(3) ? 0.0f : in.value(), in.value()};
  const std::vector<float> A0 = A.data, B0 = B.data, C0 = C.data;
  const trnblasStatus_t st = (three ? trnblasCgemm3m_64 : trnblasCgemm_64)(
      h, static_cast<trnblasOperation_t>(ta), static_cast<trnblasOperation_t>(tb), m, n, k, &alpha,
      reinterpret_cast<const trnComplex*>(A.ptr()), lda, reinterpret_cast<const trnComplex*>(B.ptr()), ldb, &beta,
      reinterpret_cast<trnComplex*>(C.ptr()), ldc);
  require(known_status(st), "unknown status");
  require(same_bytes(A.data, A0) && same_bytes(B.data, B0), "an input was written");
  if (st != TRNBLAS_STATUS_SUCCESS) require(same_bytes(C.data, C0), "C written by a failing call");
}

// CsyrkEx/CherkEx (and the 3m forms): typed A (C_32F, exact C_8I pairs, or an unsupported type) and C.
void fuzz_rank_k_ex(trnfuzz::Input& in, trnblasHandle_t h) {
  const int uplo = in.flag(10) ? static_cast<int>(in.byte()) : in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int trans = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C});
  // Types from lists (a value outside trnDataType_t's range is not a valid enum object in C++).
  const trnDataType_t atypes[] = {TRN_C_32F, TRN_C_8I, TRN_R_32F, TRN_C_16BF}, ctypes[] = {TRN_C_32F, TRN_C_32F, TRN_C_16F};
  const trnDataType_t atype = atypes[in.byte() % 4], ctype = ctypes[in.byte() % 3];
  const std::int64_t n = in.size(12, true), k = in.size(16, true);
  const std::int64_t ra = trans == TRNBLAS_OP_N ? n : k, ca = trans == TRNBLAS_OP_N ? k : n;
  auto ld = [&](std::int64_t rows) { return in.flag(8) ? in.size(3, true) : pad(std::max<std::int64_t>(1, rows), in.byte() % 2); };
  const std::int64_t lda = ld(ra), ldc = ld(n);
  auto A = make_complex(in, ra, ca, lda), C = make_complex(in, n, n, ldc);  // C_8I reads 2 bytes of A's 8 per element
  const std::vector<float> A0 = A.data, C0 = C.data;
  trnblasStatus_t st;
  switch (in.byte() % 4) {
    case 0: {
      const trnComplex alpha{in.value(), in.value()}, beta{in.flag(3) ? 0.0f : in.value(), in.value()};
      st = trnblasCsyrkEx_64(h, static_cast<trnblasFillMode_t>(uplo), static_cast<trnblasOperation_t>(trans), n, k, &alpha,
                             A.ptr(), atype, lda, &beta, C.ptr(), ctype, ldc);
      break;
    }
    case 1: {
      const trnComplex alpha{in.value(), in.value()}, beta{in.value(), in.value()};
      st = trnblasCsyrk3mEx(h, static_cast<trnblasFillMode_t>(uplo), static_cast<trnblasOperation_t>(trans),
                            static_cast<int>(n), static_cast<int>(k), &alpha, A.ptr(), atype, static_cast<int>(lda), &beta,
                            C.ptr(), ctype, static_cast<int>(ldc));
      break;
    }
    default: {
      const float alpha = in.value(), beta = in.flag(3) ? 0.0f : in.value();
      st = (in.flag(2) ? trnblasCherkEx_64 : trnblasCherk3mEx_64)(h, static_cast<trnblasFillMode_t>(uplo),
                                                                  static_cast<trnblasOperation_t>(trans), n, k, &alpha, A.ptr(),
                                                                  atype, lda, &beta, C.ptr(), ctype, ldc);
      break;
    }
  }
  require(known_status(st), "unknown status");
  require(same_bytes(A.data, A0), "an input was written");
  if (st != TRNBLAS_STATUS_SUCCESS) require(same_bytes(C.data, C0), "C written by a failing call");
}

// Stpttr/Strttp: packed <-> full triangle; the other triangle of A and the input are never written.
void fuzz_packed(trnfuzz::Input& in, trnblasHandle_t h) {
  const int uplo = in.flag(10) ? static_cast<int>(in.byte()) : in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  // The int API: n and lda as ints (sizes beyond int arrive as INT_MAX); buffers too big stay NULL.
  const int n = static_cast<int>(std::min<std::int64_t>(in.size(40, true), INT32_MAX));
  const int lda = static_cast<int>(
      std::min<std::int64_t>(in.flag(8) ? in.size(3, true) : pad(std::max(1, n), in.byte() % 2), INT32_MAX));
  const std::int64_t packed = n <= 1024 ? std::max<std::int64_t>(1, std::int64_t{n} * (n + 1) / 2) : -1;
  auto AP = packed > 0 ? make<float>(in, packed, 1, packed) : Operand<float>{};
  auto A = make<float>(in, n, n, std::max(lda, 1));
  const std::vector<float> AP0 = AP.data, A0 = A.data;
  const bool to_full = in.flag(2);
  const trnblasStatus_t st =
      to_full ? trnblasStpttr(h, static_cast<trnblasFillMode_t>(uplo), n, AP.ptr(), A.ptr(), lda)
              : trnblasStrttp(h, static_cast<trnblasFillMode_t>(uplo), n, A.ptr(), lda, AP.ptr());
  require(known_status(st), "unknown status");
  if (to_full) {
    require(same_bytes(AP.data, AP0), "AP (input) written");
    if (st != TRNBLAS_STATUS_SUCCESS) require(same_bytes(A.data, A0), "A written by a failing call");
    if (st == TRNBLAS_STATUS_SUCCESS && !A.null)
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < n; ++i)
          if ((uplo == TRNBLAS_FILL_MODE_LOWER) ? i < j : i > j)
            require(std::memcmp(&A.data[static_cast<std::size_t>(i + j * lda)], &A0[static_cast<std::size_t>(i + j * lda)], 4) == 0,
                  "the other triangle written");
  } else {
    require(same_bytes(A.data, A0), "A (input) written");
    if (st != TRNBLAS_STATUS_SUCCESS) require(same_bytes(AP.data, AP0), "AP written by a failing call");
  }
}

}  // namespace

std::vector<trnfuzz::Floor> trnfuzz::floors() {
  return {{"call_ok", 500}, {"call_rejected", 600}, {"geqrf_batched_ran", 2}, {"gels_batched_ran", 2}, {"uint8gemm_bias_ran", 2}};
}

// Set/GetMatrix_64 (and the vector forms as 1 x n): fuzzed sizes, element sizes and leading
// dimensions; buffers only when the extent fits the cap (else NULL). A failing call copies nothing;
// a successful one copies exactly the rows x cols block.
void fuzz_set_get(trnfuzz::Input& in) {
  const std::int64_t rows = in.size(6, true), cols = in.size(6, true), elem = in.flag(20) ? in.size(8, true) : 4;
  const std::int64_t lda = in.flag(30) ? in.size(8, true) : std::max<std::int64_t>(1, rows);
  const std::int64_t ldb = in.flag(30) ? in.size(8, true) : std::max<std::int64_t>(1, rows);
  const bool vector = in.flag(50);
  const std::int64_t r = vector ? 1 : rows;  // a vector is a 1 x n matrix with ld = inc
  auto bytes = [&](std::int64_t ld) -> std::int64_t {
    const std::int64_t e = extent(r, cols, ld);
    return e < 0 || elem < 1 || elem > 16 ? -1 : e * elem;
  };
  const std::int64_t ba = bytes(lda), bb = bytes(ldb);
  std::vector<unsigned char> A(static_cast<std::size_t>(std::max<std::int64_t>(ba, 1))), B(static_cast<std::size_t>(std::max<std::int64_t>(bb, 1)), 0xEE);
  for (auto& c : A) c = in.byte();
  const std::vector<unsigned char> B0 = B;
  const trnblasStatus_t st =
      vector ? trnblasGetVector_64(cols, elem, ba < 0 ? nullptr : A.data(), lda, bb < 0 ? nullptr : B.data(), ldb)
             : trnblasSetMatrix_64(rows, cols, elem, ba < 0 ? nullptr : A.data(), lda, bb < 0 ? nullptr : B.data(), ldb);
  require(known_status(st), "unknown status");
  if (st != TRNBLAS_STATUS_SUCCESS) {
    require(same_bytes(B, B0), "B written by a failing Set/Get call");
    return;
  }
  for (std::int64_t j = 0; r > 0 && ba > 0 && bb > 0 && j < cols; ++j)  // ba > 0: cols <= the cap
    require(std::memcmp(&B[static_cast<std::size_t>(j * ldb * elem)], &A[static_cast<std::size_t>(j * lda * elem)],
                        static_cast<std::size_t>(r * elem)) == 0,
            "Set/Get copied the wrong bytes");
}

// SgemvStridedBatched_64 / HSSgemvStridedBatched_64 with fuzzed sizes, increments, strides and batch: a
// failing call writes nothing.
void fuzz_gemv_batched(trnfuzz::Input& in, trnblasHandle_t h) {
  const int trans = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C});
  const std::int64_t m = in.size(8, true), n = in.size(8, true), batch = in.size(4, true);
  const std::int64_t lda = in.flag(20) ? in.size(8, true) : std::max<std::int64_t>(1, m);
  const std::int64_t incx = in.flag(20) ? in.size(3, true) : 1, incy = in.flag(20) ? in.size(3, true) : 1;
  const long long sa = in.flag(10) ? static_cast<long long>(in.u64()) : 64, sx = 16, sy = 16;
  const bool ok_sizes = m >= 0 && n >= 0 && m <= 8 && n <= 8 && lda >= 1 && lda <= 16 && batch >= 0 && batch <= 8 &&
                        incx >= -3 && incx <= 3 && incy >= -3 && incy <= 3 && sa >= 0 && sa <= 64;
  std::vector<float> A, x, y;
  if (ok_sizes) {  // room for every entry: strides 64 / 16 / 16 hold any (m, n, lda, inc) accepted above
    A.assign(static_cast<std::size_t>(64 * (batch + 2)), 0.5f);
    x.assign(static_cast<std::size_t>(32 * (batch + 2)), 0.25f);
    y.assign(static_cast<std::size_t>(32 * (batch + 2)), 2.0f);
  }
  const std::vector<float> y0 = y;
  const float alpha = in.flag(20) ? 0.0f : 1.0f, beta = in.flag(20) ? 1.0f : 0.5f;
  trnblasStatus_t st;
  if (in.flag(50)) {
    st = trnblasSgemvStridedBatched_64(h, static_cast<trnblasOperation_t>(trans), m, n, &alpha,
                                       A.empty() ? nullptr : A.data(), lda, sa, x.empty() ? nullptr : x.data(), incx,
                                       sx, &beta, y.empty() ? nullptr : y.data(), incy, sy, batch);
  } else {
    std::vector<trnHalf> Ah(A.size(), trnHalf(0.5f)), xh(x.size(), trnHalf(0.25f));  // 0x3800, 0x3400
    st = trnblasHSSgemvStridedBatched_64(h, static_cast<trnblasOperation_t>(trans), m, n, &alpha,
                                         Ah.empty() ? nullptr : Ah.data(), lda, sa, xh.empty() ? nullptr : xh.data(),
                                         incx, sx, &beta, y.empty() ? nullptr : y.data(), incy, sy, batch);
  }
  require(known_status(st), "unknown status");
  if (st != TRNBLAS_STATUS_SUCCESS) require(same_bytes(y, y0), "y written by a failing gemvBatched call");
}

// S/D geqrfBatched and gelsBatched with fuzzed sizes, leading dimensions, trans, NULL pointers and
// batch: a failing call writes nothing but the host info (-position); success means info 0.
template <class T>
void fuzz_qr_batched(trnfuzz::Input& in, trnblasHandle_t h) {
  const int m = static_cast<int>(in.size(8, false)), n = static_cast<int>(in.size(8, false));
  const int nrhs = static_cast<int>(in.size(4, false)), batch = static_cast<int>(in.size(3, false));
  const int lda = in.flag(20) ? static_cast<int>(in.size(10, false)) : std::max(1, m);
  const int ldc = in.flag(20) ? static_cast<int>(in.size(10, false)) : std::max(1, m);
  const int trans = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C});
  const bool ok = m >= 0 && m <= 8 && n >= 0 && n <= 8 && nrhs >= 0 && nrhs <= 4 && batch >= 0 && batch <= 3 &&
                  lda >= 1 && lda <= 12 && ldc >= 1 && ldc <= 12;
  std::vector<std::vector<T>> A, C, tau;
  for (int b = 0; ok && b < batch; ++b) {  // room for any accepted shape: 12 x 8 and 12 x 4
    A.emplace_back(96);
    for (auto& x : A.back()) x = static_cast<T>(in.value());
    C.emplace_back(48, T(0.5));
    tau.emplace_back(8, T(3));
  }
  std::vector<T*> ap, cp, tp;
  for (int b = 0; b < static_cast<int>(A.size()); ++b) {
    ap.push_back(in.flag(30) ? nullptr : A[static_cast<std::size_t>(b)].data());
    cp.push_back(C[static_cast<std::size_t>(b)].data());
    tp.push_back(tau[static_cast<std::size_t>(b)].data());
  }
  const auto A0 = A, C0 = C, T0 = tau;
  std::vector<int> dev(static_cast<std::size_t>(std::max(batch, 0) > 3 ? 0 : std::max(batch, 0)), -9);
  const auto dev0 = dev;
  int info = 77;
  const bool geqrf = in.flag(2);
  T* const* a = ok && !in.flag(20) ? ap.data() : nullptr;
  trnblasStatus_t st;
  if constexpr (std::is_same_v<T, float>)
    st = geqrf ? trnblasSgeqrfBatched(h, m, n, a, lda, tp.data(), &info, batch)
               : trnblasSgelsBatched(h, static_cast<trnblasOperation_t>(trans), m, n, nrhs, a, lda, cp.data(), ldc, &info,
                                     dev.empty() ? nullptr : dev.data(), batch);
  else
    st = geqrf ? trnblasDgeqrfBatched(h, m, n, a, lda, tp.data(), &info, batch)
               : trnblasDgelsBatched(h, static_cast<trnblasOperation_t>(trans), m, n, nrhs, a, lda, cp.data(), ldc, &info,
                                     dev.empty() ? nullptr : dev.data(), batch);
  require(known_status(st), "unknown status");
  if (st == TRNBLAS_STATUS_SUCCESS) {
    require(info == 0, "a successful geqrf/gelsBatched left info != 0");
    trnfuzz::reach(geqrf ? "geqrf_batched_ran" : "gels_batched_ran");
  } else {
    const auto same = [](const std::vector<std::vector<T>>& x, const std::vector<std::vector<T>>& y) {
      for (std::size_t b = 0; b < x.size(); ++b)
        if (!same_bytes(x[b], y[b])) return false;  // bytes: a NaN input equals itself
      return true;
    };
    require(same(A, A0) && same(C, C0) && same(tau, T0) && dev == dev0, "a failing geqrf/gelsBatched call wrote its outputs");
    require(info == 77 || info < 0, "a failing geqrf/gelsBatched call set info >= 0");
  }
}

// Uint8gemmBias with fuzzed ops, sizes, leading dimensions, offsets and shift: a failing call writes
// nothing; a successful one equals gemmlowp's reference loop (written here, 64-bit integers).
void fuzz_uint8gemm_bias(trnfuzz::Input& in, trnblasHandle_t h) {
  const int ta = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T}), tb = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T});
  const int tc = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T});
  const int m = static_cast<int>(in.size(6, false)), n = static_cast<int>(in.size(6, false)), k = static_cast<int>(in.size(6, false));
  const int lda = in.flag(20) ? static_cast<int>(in.size(8, false)) : 6, ldb = in.flag(20) ? static_cast<int>(in.size(8, false)) : 6;
  const int ldc = in.flag(20) ? static_cast<int>(in.size(8, false)) : 6;
  const int ab = static_cast<int>(in.u32() % 512) - 256, bb = static_cast<int>(in.u32() % 512) - 256;
  const int cb = static_cast<int>(in.u32() % 65536) - 32768, cm = static_cast<int>(in.byte() % 9);
  const int shift = in.flag(20) ? static_cast<int>(in.u32()) : in.byte() % 24;
  std::vector<unsigned char> A(64), B(64), C(64, 17);
  for (auto& x : A) x = in.byte();
  for (auto& x : B) x = in.byte();
  const auto C0 = C;
  // The 64-byte buffers hold any accepted shape up to 6 x 6 with leading dimensions up to 8; beyond
  // that the call gets NULLs (rejected, or nothing to read).
  const bool small = m <= 6 && n <= 6 && k <= 6 && lda <= 8 && ldb <= 8 && ldc <= 8;
  const trnblasStatus_t st = trnblasUint8gemmBias(
      h, static_cast<trnblasOperation_t>(ta), static_cast<trnblasOperation_t>(tb), static_cast<trnblasOperation_t>(tc), m,
      n, k, small && !in.flag(30) ? A.data() : nullptr, ab, lda, small ? B.data() : nullptr, bb, ldb,
      small ? C.data() : nullptr, cb, ldc, cm, shift);
  require(known_status(st), "unknown status");
  if (st != TRNBLAS_STATUS_SUCCESS || !small) {
    require(C == C0, "Uint8gemmBias wrote C after failing (or without it)");
    return;
  }
  trnfuzz::reach("uint8gemm_bias_ran");
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      long long total = 0;
      for (int l = 0; l < k; ++l) {
        const int a = ta == TRNBLAS_OP_N ? A[static_cast<std::size_t>(i + l * lda)] : A[static_cast<std::size_t>(l + i * lda)];
        const int b = tb == TRNBLAS_OP_N ? B[static_cast<std::size_t>(l + j * ldb)] : B[static_cast<std::size_t>(j + l * ldb)];
        total += static_cast<long long>(a + ab) * (b + bb);
      }
      long long v = (total + cb) * cm + (shift > 0 ? 1LL << (shift - 1) : 0);
      v >>= shift;
      const std::size_t at = tc == TRNBLAS_OP_N ? static_cast<std::size_t>(i + j * ldc) : static_cast<std::size_t>(j + i * ldc);
      require(C[at] == static_cast<unsigned char>(std::clamp(v, 0LL, 255LL)), "Uint8gemmBias differs from the reference");
    }
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  trnfuzz::Input in(data, size);
  trnblasHandle_t h = nullptr;
  if (trnblasCreate(&h) != TRNBLAS_STATUS_SUCCESS) return 0;
  bool defaults = true;
  for (int call = 0; call < 4 && !in.empty(); ++call) {
    switch (in.byte() % 9) {
      case 0: {  // settings, valid and invalid
        const int v = in.flag(4) ? static_cast<int>(in.u32()) : in.byte() % 5;
        trnblasStatus_t st = TRNBLAS_STATUS_SUCCESS;
        switch (in.byte() % 6) {
          case 0: st = trnblasSetMathMode(h, static_cast<trnblasMath_t>(v)); break;
          case 1: st = trnblasSetNumCores(h, v); break;
          case 2: st = trnblasSetFixedPointEmulationMaxMantissaBitCount(h, v % 300); break;
          case 3: st = trnblasSetFixedPointEmulationMantissaControl(h, static_cast<trnblasEmulationMantissaControl_t>(v)); break;
          case 4: st = trnblasSetTarget(h, static_cast<trnTarget_t>(v)); break;
          default: st = trnblasSetStochasticRounding(h, v & 1, in.u64()); break;
        }
        require(known_status(st), "unknown status");
        defaults = false;
        break;
      }
      case 1: fuzz_gemm<float, int>(in, h, defaults, false); break;
      case 2: fuzz_gemm<float, std::int64_t>(in, h, defaults, true); break;
      case 3: fuzz_gemm<double, int>(in, h, defaults, false); break;
      case 4: fuzz_gemm<double, std::int64_t>(in, h, defaults, true); break;
      case 5: fuzz_strided(in, h); break;
      case 6: fuzz_syrk<float>(in, h, defaults); break;
      case 7: fuzz_syrk<double>(in, h, defaults); break;
      default: {
        switch (in.byte() % 10) {
          case 8: fuzz_set_get(in); continue;
          case 9: fuzz_gemv_batched(in, h); continue;
          case 1: fuzz_triangular<float>(in, h); continue;
          case 2: fuzz_triangular<double>(in, h); continue;
          case 3: fuzz_rank2k_symm<float>(in, h); continue;
          case 4: fuzz_rank2k_symm<double>(in, h); continue;
          case 5: fuzz_cgemm(in, h); continue;
          case 6: fuzz_rank_k_ex(in, h); continue;
          case 7: fuzz_packed(in, h); continue;
          default: break;
        }
        switch (in.byte() % 4) {  // issue 29's batched QR / least squares and Uint8gemmBias
          case 1: fuzz_qr_batched<float>(in, h); continue;
          case 2: fuzz_qr_batched<double>(in, h); continue;
          case 3: fuzz_uint8gemm_bias(in, h); continue;
          default: break;
        }
        // a destroyed handle must be rejected, never used
        trnblasHandle_t dead = nullptr;
        if (trnblasCreate(&dead) == TRNBLAS_STATUS_SUCCESS) {
          trnblasDestroy(dead);
          const float one = 1.0f;
          float c = 5.0f;
          require(trnblasSgemm(dead, TRNBLAS_OP_N, TRNBLAS_OP_N, 1, 1, 1, &one, &one, 1, &one, 1, &one, &c, 1) ==
                    TRNBLAS_STATUS_NOT_INITIALIZED && c == 5.0f, "destroyed handle accepted");
          require(trnblasDestroy(dead) == TRNBLAS_STATUS_NOT_INITIALIZED, "double destroy accepted");
        }
      }
    }
  }
  // The sized profile read (the kit's, the same in all six shims): any size writes exactly that many
  // bytes (a prefix of the profile, zeros past it), below TRN_PROFILE_SIZE_V1 nothing at all.
  if (!in.empty()) {
    const std::size_t cap = sizeof(trnProfile_t) + 64;
    const std::size_t want = in.u32() % (cap + 1);
    std::vector<unsigned char> buf(cap + 16, 0xA5);
    const trnblasStatus_t st = trnblasGetLastProfileSized(h, reinterpret_cast<trnProfile_t*>(buf.data()), want);
    require(st == (want < TRN_PROFILE_SIZE_V1 ? TRNBLAS_STATUS_INVALID_VALUE : TRNBLAS_STATUS_SUCCESS),
            "GetLastProfileSized status");
    for (std::size_t i = st == TRNBLAS_STATUS_SUCCESS ? want : 0; i < buf.size(); ++i)
      require(buf[i] == 0xA5, "GetLastProfileSized wrote past its size");
  }
  trnblasDestroy(h);
  return 0;
}
