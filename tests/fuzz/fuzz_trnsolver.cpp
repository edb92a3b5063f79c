// libFuzzer harness over trnsolver's C API (issue: reliability): Ssyevj, Dsyevj, Spotrf and
// Sgetrf with sizes, leading dimensions, enum values (valid and any int), workspace sizes and NULLs
// from the grammar of fuzz_input.hpp, on matrices that may hold NaN and Inf. Invariants beyond "no
// crash, no hang, no sanitizer report": statuses are cuSOLVER's; a call rejected by its argument
// checks (INVALID_VALUE) writes nothing but info; info is 0, -position or > 0 as cuSOLVER defines;
// a successful Ssyevj of a finite symmetric matrix returns ascending, finite eigenvalues whose sum is
// the trace (within the Jacobi bound).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fuzz_input.hpp"
#include "trnsolver.h"

namespace {

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_trnsolver invariant violated: %s\n", what);
    std::abort();
  }
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

constexpr int kMaxN = 24;  // every flop is emulated: keep the matrices small

// A column-major rows x cols (ld >= rows) matrix, symmetric when asked (rows == cols), with a NaN
// or Inf sometimes.
template <class T>
std::vector<T> matrix(trnfuzz::Input& in, int rows, int cols, int ld, bool symmetric) {
  std::vector<T> a(static_cast<std::size_t>(std::max(1, ld * std::max(cols, 1))));
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) {
      const T v = static_cast<T>(in.value());
      a[static_cast<std::size_t>(i + j * ld)] = v;
      if (symmetric) a[static_cast<std::size_t>(j + i * ld)] = v;
    }
  return a;
}

void fuzz_syevj(trnfuzz::Input& in, trnsolverDnHandle_t h, bool dbl) {
  const int jobz = in.choice({TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR});
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  int n = static_cast<int>(std::clamp<std::int64_t>(in.size(kMaxN, false), INT32_MIN, INT32_MAX));
  int lda = in.flag(8) ? static_cast<int>(in.size(3, false))
                      : static_cast<int>(std::min<std::int64_t>(INT32_MAX, std::int64_t{std::max(1, n)} + in.byte() % 2));
  const bool sized = n >= 0 && n <= kMaxN && lda >= std::max(1, n) && lda <= kMaxN + 2;
  syevjInfo_t params = nullptr;
  trnsolverDnCreateSyevjInfo(&params);
  trnsolverDnXsyevjSetMaxSweeps(params, 1 + in.byte() % 12);
  int info = -12345;
  trnsolverStatus_t st;
  if (!dbl) {
    std::vector<float> A = sized ? matrix<float>(in, n, n, lda, true) : std::vector<float>();
    std::vector<float> W(sized ? static_cast<std::size_t>(std::max(n, 1)) : 0);
    int lwork = 0;
    trnsolverDnSsyevj_bufferSize(h, static_cast<trnsolverEigMode_t>(jobz), static_cast<trnblasFillMode_t>(uplo), n,
                                 A.empty() ? nullptr : A.data(), lda, W.empty() ? nullptr : W.data(), &lwork, params);
    if (in.flag(10)) lwork = lwork / 2;
    std::vector<float> work(static_cast<std::size_t>(std::max(lwork, 1)));
    const std::vector<float> A0 = A, W0 = W;
    st = trnsolverDnSsyevj(h, static_cast<trnsolverEigMode_t>(jobz), static_cast<trnblasFillMode_t>(uplo), n,
                           A.empty() ? nullptr : A.data(), lda, W.empty() ? nullptr : W.data(), work.data(), lwork, &info,
                           params);
    if (st == TRNSOLVER_STATUS_INVALID_VALUE) {
      check(same_bytes(A, A0) && same_bytes(W, W0), "syevj wrote A or W after rejecting an argument");
      check(info <= 0, "info of a rejected call is not -position");
    }
    if (st == TRNSOLVER_STATUS_SUCCESS && info == 0 && n > 0) {
      bool finite = true;
      double trace = 0, mag = 0;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const double v = A0[static_cast<std::size_t>(i + j * lda)];
          finite = finite && std::isfinite(v) && std::fabs(v) < 1e15;
          if (i == j) trace += v;
          mag += v * v;
        }
      if (finite) {
        double sum = 0;
        for (int i = 0; i < n; ++i) {
          check(std::isfinite(W[static_cast<std::size_t>(i)]), "eigenvalue not finite");
          if (i > 0) check(W[static_cast<std::size_t>(i - 1)] <= W[static_cast<std::size_t>(i)], "eigenvalues not ascending");
          sum += W[static_cast<std::size_t>(i)];
        }
        check(std::fabs(sum - trace) <= 64.0 * n * 0x1p-24 * std::sqrt(mag) + 1e-30, "eigenvalues do not sum to the trace");
      }
    }
  } else {
    std::vector<double> A = sized ? matrix<double>(in, n, n, lda, true) : std::vector<double>();
    std::vector<double> W(sized ? static_cast<std::size_t>(std::max(n, 1)) : 0);
    int lwork = 0;
    trnsolverDnDsyevj_bufferSize(h, static_cast<trnsolverEigMode_t>(jobz), static_cast<trnblasFillMode_t>(uplo), n,
                                 A.empty() ? nullptr : A.data(), lda, W.empty() ? nullptr : W.data(), &lwork, params);
    std::vector<double> work(static_cast<std::size_t>(std::max(lwork, 1)));
    const std::vector<double> A0 = A, W0 = W;
    st = trnsolverDnDsyevj(h, static_cast<trnsolverEigMode_t>(jobz), static_cast<trnblasFillMode_t>(uplo), n,
                           A.empty() ? nullptr : A.data(), lda, W.empty() ? nullptr : W.data(), work.data(), lwork, &info,
                           params);
    if (st == TRNSOLVER_STATUS_INVALID_VALUE) check(same_bytes(A, A0) && same_bytes(W, W0), "Dsyevj wrote after rejecting");
  }
  check(st == TRNSOLVER_STATUS_SUCCESS || st == TRNSOLVER_STATUS_INVALID_VALUE || st == TRNSOLVER_STATUS_NOT_SUPPORTED ||
            st == TRNSOLVER_STATUS_EXECUTION_FAILED || st == TRNSOLVER_STATUS_INTERNAL_ERROR ||
            st == TRNSOLVER_STATUS_ALLOC_FAILED,
        "unexpected syevj status");
  check(st != TRNSOLVER_STATUS_SUCCESS || (info >= 0 && info <= n + 1), "syevj info out of cuSOLVER's range");
  trnsolverDnDestroySyevjInfo(params);
}

void fuzz_factor(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  const bool lu = in.flag(2);
  const int n = static_cast<int>(std::clamp<std::int64_t>(in.size(kMaxN, false), INT32_MIN, INT32_MAX));
  const int m = lu ? static_cast<int>(std::clamp<std::int64_t>(in.size(kMaxN, false), INT32_MIN, INT32_MAX)) : n;
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, m);
  const bool sized = n >= 0 && m >= 0 && n <= kMaxN && m <= kMaxN && lda >= std::max(1, m) && lda <= kMaxN;
  std::vector<float> A = sized ? matrix<float>(in, m, n, lda, !lu) : std::vector<float>();
  if (sized && !lu)  // make it SPD most of the time: add n to the diagonal
    for (int i = 0; i < n && !in.flag(4); ++i) A[static_cast<std::size_t>(i + i * lda)] += static_cast<float>(n);
  const std::vector<float> A0 = A;
  int lwork = 0, info = -12345;
  trnsolverStatus_t st;
  if (lu) {
    trnsolverDnSgetrf_bufferSize(h, m, n, A.empty() ? nullptr : A.data(), lda, &lwork);
    std::vector<float> work(static_cast<std::size_t>(std::max(lwork, 1)));
    std::vector<int> ipiv(sized ? static_cast<std::size_t>(std::max(std::min(m, n), 1)) : 1, -7);  // unsized: A is NULL
    st = trnsolverDnSgetrf(h, m, n, A.empty() ? nullptr : A.data(), lda, work.data(), in.flag(5) ? nullptr : ipiv.data(), &info);
    if (st == TRNSOLVER_STATUS_SUCCESS && info >= 0 && sized)
      for (int i = 0; i < std::min(m, n); ++i)
        check(ipiv[static_cast<std::size_t>(i)] == -7 ||
                  (ipiv[static_cast<std::size_t>(i)] >= i + 1 && ipiv[static_cast<std::size_t>(i)] <= m),
              "pivot index outside [i+1, m] (1-based)");
  } else {
    const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
    trnsolverDnSpotrf_bufferSize(h, static_cast<trnblasFillMode_t>(uplo), n, A.empty() ? nullptr : A.data(), lda, &lwork);
    std::vector<float> work(static_cast<std::size_t>(std::max(lwork, 1)));
    st = trnsolverDnSpotrf(h, static_cast<trnblasFillMode_t>(uplo), n, A.empty() ? nullptr : A.data(), lda, work.data(),
                           lwork, &info);
  }
  check(st != TRNSOLVER_STATUS_INVALID_VALUE || same_bytes(A, A0), "factorization wrote A after rejecting an argument");
  check(st != TRNSOLVER_STATUS_SUCCESS || (info >= 0 && info <= std::max(m, n)), "factorization info out of range");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  trnfuzz::Input in(data, size);
  trnsolverDnHandle_t h = nullptr;
  if (trnsolverDnCreate(&h) != TRNSOLVER_STATUS_SUCCESS) return 0;
  for (int call = 0; call < 2 && !in.empty(); ++call) {
    switch (in.byte() % 3) {
      case 0: fuzz_syevj(in, h, false); break;
      case 1: fuzz_syevj(in, h, true); break;
      default: fuzz_factor(in, h); break;
    }
  }
  trnsolverDnDestroy(h);
  return 0;
}
