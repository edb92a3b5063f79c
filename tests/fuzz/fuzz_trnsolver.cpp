// libFuzzer harness over trnsolver's C API (issue: reliability): Ssyevj(Batched), Dsyevj, S/Dgesvdj(Batched),
// Ssygvj, Spotrf, Sgetrf, SHgesv, IRSXgesv, Xgetrf/Xgetrs and the QR family (S/D/C/Z geqrf, orgqr/ungqr,
// ormqr/unmqr, Xgeqrf), the tridiagonal family (S/D syevd, syevdx, sytrd, orgtr, ormtr, sygvd, sygvdx), the
// X eigensolvers, Xtrtri, gesvd/Xgesvd, potrf/potrsBatched and the complex factorisations and Hermitian
// eigensolvers (C/Z potrf, potrs, potri, getrf, getrs, heevd, hetrd, ungtr, unmtr), the IRS family (every
// <t1><t2>gesv / gels pair of issue #27), the SVD family (gebrd, orgbr/ungbr, gesvdaStridedBatched, C/Z gesvd,
// Xgesvdp, Xgesvdr), Xgeev, and the gaps slot (C/Z sytrf/sytri/lauum/laswp, C/Z potrf/potrsBatched, DS/DB/DX/SXgesv,
// IRSXgels with every IRS params setter, Sgesvd, Xpotrf/Xpotrs, DsyevjBatched, Dsygvj, the syevj/gesvdj info
// setters, SetAdvOptions, the handle surface, D getrf/getrs/potrf/potrs, the _bufferSize twins) with sizes, leading dimensions, enum values (valid and any int), workspace sizes and NULLs
// from the grammar of fuzz_input.hpp, on matrices that may hold NaN and Inf. Invariants beyond "no
// crash, no hang, no sanitizer report": statuses are cuSOLVER's; a call rejected by its argument
// checks (INVALID_VALUE) writes nothing but info; info is 0, -position or > 0 as cuSOLVER defines;
// a successful Ssyevj of a finite symmetric matrix returns ascending, finite eigenvalues whose sum is
// the trace (within the Jacobi bound).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <utility>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "fuzz_input.hpp"
#include "trnsolver.h"

namespace {

using trnfuzz::require;

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
      require(same_bytes(A, A0) && same_bytes(W, W0), "syevj wrote A or W after rejecting an argument");
      require(info <= 0, "info of a rejected call is not -position");
    }
    trnfuzz::reach("syevj_rejected", st == TRNSOLVER_STATUS_INVALID_VALUE);
    if (st == TRNSOLVER_STATUS_SUCCESS && info == 0 && n > 0) {
      trnfuzz::reach("syevj_checked");
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
          require(std::isfinite(W[static_cast<std::size_t>(i)]), "eigenvalue not finite");
          if (i > 0) require(W[static_cast<std::size_t>(i - 1)] <= W[static_cast<std::size_t>(i)], "eigenvalues not ascending");
          sum += W[static_cast<std::size_t>(i)];
        }
        require(std::fabs(sum - trace) <= 64.0 * n * 0x1p-24 * std::sqrt(mag) + 1e-30, "eigenvalues do not sum to the trace");
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
    if (st == TRNSOLVER_STATUS_INVALID_VALUE) require(same_bytes(A, A0) && same_bytes(W, W0), "Dsyevj wrote after rejecting");
  }
  require(st == TRNSOLVER_STATUS_SUCCESS || st == TRNSOLVER_STATUS_INVALID_VALUE || st == TRNSOLVER_STATUS_NOT_SUPPORTED ||
            st == TRNSOLVER_STATUS_EXECUTION_FAILED || st == TRNSOLVER_STATUS_INTERNAL_ERROR ||
            st == TRNSOLVER_STATUS_ALLOC_FAILED,
        "unexpected syevj status");
  require(st != TRNSOLVER_STATUS_SUCCESS || (info >= 0 && info <= n + 1), "syevj info out of cuSOLVER's range");
  trnsolverDnDestroySyevjInfo(params);
}

// SsyevjBatched with n up to 40: n <= 32 runs the packed kernel, n > 32 the block Jacobi (fused
// round updates). A rejected call writes nothing but info; per matrix, info in [0, n + 1]; a
// converged finite matrix has ascending finite eigenvalues summing to its trace.
void fuzz_syevj_batched(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  constexpr int kMaxBatchedN = 40, kMaxBatch = 3;
  const int jobz = in.choice({TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR});
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int n = static_cast<int>(std::clamp<std::int64_t>(in.size(kMaxBatchedN, false), INT32_MIN, INT32_MAX));
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false))
                             : static_cast<int>(std::min<std::int64_t>(INT32_MAX, std::int64_t{std::max(1, n)} + in.byte() % 2));
  // Negative batch sizes test the check; a larger one than the harness allocates info for is not a
  // valid call (cuSOLVER writes info[0..batchSize) whatever n), so the top is clamped.
  const int batch = static_cast<int>(std::clamp<std::int64_t>(in.size(kMaxBatch, false), INT32_MIN, kMaxBatch));
  const bool sized = n >= 0 && n <= kMaxBatchedN && lda >= std::max(1, n) && lda <= kMaxBatchedN + 2 && batch >= 0 &&
                     batch <= kMaxBatch;
  syevjInfo_t params = nullptr;
  trnsolverDnCreateSyevjInfo(&params);
  trnsolverDnXsyevjSetMaxSweeps(params, 1 + in.byte() % 12);
  const std::size_t msz = sized ? static_cast<std::size_t>(lda) * static_cast<std::size_t>(n) : 0;
  std::vector<float> A, W;
  if (sized) {
    for (int k = 0; k < batch; ++k) {
      const std::vector<float> a = matrix<float>(in, n, n, lda, true);
      A.insert(A.end(), a.begin(), a.begin() + static_cast<std::ptrdiff_t>(msz));
    }
    W.assign(static_cast<std::size_t>(std::max(1, n * batch)), 0.0f);
    if (A.empty()) A.assign(1, 0.0f);
  }
  int lwork = 0;
  trnsolverDnSsyevjBatched_bufferSize(h, static_cast<trnsolverEigMode_t>(jobz), static_cast<trnblasFillMode_t>(uplo), n,
                                      A.empty() ? nullptr : A.data(), lda, W.empty() ? nullptr : W.data(), &lwork, params,
                                      batch);
  if (in.flag(10)) lwork = lwork / 2;
  std::vector<float> work(static_cast<std::size_t>(std::max(lwork, 1)));
  std::vector<int> info(static_cast<std::size_t>(std::max(1, batch)), -12345);
  const std::vector<float> A0 = A, W0 = W;
  const trnsolverStatus_t st = trnsolverDnSsyevjBatched(
      h, static_cast<trnsolverEigMode_t>(jobz), static_cast<trnblasFillMode_t>(uplo), n, A.empty() ? nullptr : A.data(),
      lda, W.empty() ? nullptr : W.data(), work.data(), lwork, info.data(), params, batch);
  require(st == TRNSOLVER_STATUS_SUCCESS || st == TRNSOLVER_STATUS_INVALID_VALUE || st == TRNSOLVER_STATUS_NOT_SUPPORTED ||
            st == TRNSOLVER_STATUS_EXECUTION_FAILED || st == TRNSOLVER_STATUS_INTERNAL_ERROR ||
            st == TRNSOLVER_STATUS_ALLOC_FAILED,
        "unexpected syevjBatched status");
  if (st == TRNSOLVER_STATUS_INVALID_VALUE) require(same_bytes(A, A0) && same_bytes(W, W0), "syevjBatched wrote after rejecting");
  if (st == TRNSOLVER_STATUS_SUCCESS && sized)
    for (int k = 0; k < batch; ++k) {
      const int ik = info[static_cast<std::size_t>(k)];
      require(ik >= 0 && ik <= n + 1, "syevjBatched info out of cuSOLVER's range");
      if (ik != 0 || n == 0) continue;
      bool finite = true;
      double trace = 0, mag = 0;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const double v = A0[k * msz + static_cast<std::size_t>(i + j * lda)];
          finite = finite && std::isfinite(v) && std::fabs(v) < 1e15;
          if (i == j) trace += v;
          mag += v * v;
        }
      if (!finite) continue;
      const float* w = W.data() + static_cast<std::size_t>(k) * n;
      double sum = 0;
      for (int i = 0; i < n; ++i) {
        require(std::isfinite(w[i]), "batched eigenvalue not finite");
        if (i > 0) require(w[i - 1] <= w[i], "batched eigenvalues not ascending");
        sum += w[i];
      }
      require(std::fabs(sum - trace) <= 64.0 * n * 0x1p-24 * std::sqrt(mag) + 1e-30, "batched eigenvalues do not sum to the trace");
    }
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
    trnfuzz::reach("getrf_ok", st == TRNSOLVER_STATUS_SUCCESS && info >= 0 && sized);
    if (st == TRNSOLVER_STATUS_SUCCESS && info >= 0 && sized)
      for (int i = 0; i < std::min(m, n); ++i)
        require(ipiv[static_cast<std::size_t>(i)] == -7 ||
                  (ipiv[static_cast<std::size_t>(i)] >= i + 1 && ipiv[static_cast<std::size_t>(i)] <= m),
              "pivot index outside [i+1, m] (1-based)");
  } else {
    const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
    trnsolverDnSpotrf_bufferSize(h, static_cast<trnblasFillMode_t>(uplo), n, A.empty() ? nullptr : A.data(), lda, &lwork);
    std::vector<float> work(static_cast<std::size_t>(std::max(lwork, 1)));
    st = trnsolverDnSpotrf(h, static_cast<trnblasFillMode_t>(uplo), n, A.empty() ? nullptr : A.data(), lda, work.data(),
                           lwork, &info);
  }
  require(st != TRNSOLVER_STATUS_INVALID_VALUE || same_bytes(A, A0), "factorization wrote A after rejecting an argument");
  require(st != TRNSOLVER_STATUS_SUCCESS || (info >= 0 && info <= std::max(m, n)), "factorization info out of range");
}


// gesvdj (S or D, single or batched): shapes, leading dimensions, econ, jobz and NULLs from the
// grammar. Invariants: INVALID_VALUE writes nothing but info (<= 0); a success has info in
// [0, min(m, n) + 1]; a converged S of a finite matrix is descending, non-negative, and its squares
// sum to ||A||_F^2 (one-sided Jacobi keeps the Frobenius norm: rotations are orthogonal), within
// the rounding of the sweeps.
void fuzz_gesvdj(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  const bool dbl = in.flag(3), batched = in.flag(4);
  const int jobz = in.choice({TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR});
  const int econ = in.flag(2) ? 0 : static_cast<int>(in.byte());
  const int m = static_cast<int>(std::clamp<std::int64_t>(in.size(12, false), INT32_MIN, INT32_MAX));
  const int n = static_cast<int>(std::clamp<std::int64_t>(in.size(12, false), INT32_MIN, INT32_MAX));
  const int batch = batched ? static_cast<int>(std::clamp<std::int64_t>(in.size(3, false), INT32_MIN, INT32_MAX)) : 1;
  const bool sized = m >= 0 && n >= 0 && m <= 12 && n <= 12 && batch >= 0 && batch <= 3;
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false))
                            : static_cast<int>(std::min<std::int64_t>(INT32_MAX, std::int64_t{std::max(1, m)} + in.byte() % 2));
  const int ldu = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, m);
  const int ldv = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const bool fits = sized && lda >= std::max(1, m) && lda <= 14 && ldu >= std::max(1, m) && ldu <= 14 &&
                    ldv >= std::max(1, n) && ldv <= 14;
  const int k = std::max(0, std::min(m, n));
  // info has batchSize entries: a batch beyond what the harness allocates is only passed when another
  // argument makes the call invalid (m or n negative), i.e. never when the library may write info.
  if (batch > 3 && m >= 0 && n >= 0) return;
  const std::size_t bsz = static_cast<std::size_t>(std::clamp(batch, 1, 3));
  std::vector<double> A = fits ? matrix<double>(in, m, n * std::max(batch, 1), lda, false) : std::vector<double>();
  std::vector<double> S(fits ? std::max<std::size_t>(1, k * bsz) : 0, -3.0), U(fits ? ldu * std::max(m, 1) * bsz : 0, -4.0),
      V(fits ? ldv * std::max(n, 1) * bsz : 0, -5.0);
  gesvdjInfo_t params = nullptr;
  trnsolverDnCreateGesvdjInfo(&params);
  trnsolverDnXgesvdjSetMaxSweeps(params, 1 + in.byte() % 20);
  std::vector<int> info(bsz, -12345);
  int lwork = 1;
  auto ptr = [&](std::vector<double>& v) { return v.empty() || in.flag(30) ? nullptr : v.data(); };
  double* pa = ptr(A);
  double* ps = ptr(S);
  double* pu = ptr(U);
  double* pv = ptr(V);
  std::vector<float> Af(A.begin(), A.end()), Sf(S.begin(), S.end()), Uf(U.begin(), U.end()), Vf(V.begin(), V.end());
  const auto Af0 = Af, Sf0 = Sf, Uf0 = Uf, Vf0 = Vf;
  const auto A0 = A, S0 = S, U0 = U, V0 = V;
  auto fp = [](std::vector<float>& v, const double* p) { return p == nullptr ? nullptr : v.data(); };
  // Any int reaches the library as the enum: converted at each call (a prvalue; an enum-typed local
  // holding an out-of-range value would itself be an invalid load).
  const auto jz = [jobz] { return static_cast<trnsolverEigMode_t>(jobz); };
  double work[4];
  float workf[4];
  trnsolverStatus_t st;
  if (dbl)
    st = batched ? trnsolverDnDgesvdjBatched(h, jz(), m, n, pa, lda, ps, pu, ldu, pv, ldv, work, lwork, info.data(), params, batch)
                 : trnsolverDnDgesvdj(h, jz(), econ, m, n, pa, lda, ps, pu, ldu, pv, ldv, work, lwork, info.data(), params);
  else
    st = batched ? trnsolverDnSgesvdjBatched(h, jz(), m, n, fp(Af, pa), lda, fp(Sf, ps), fp(Uf, pu), ldu, fp(Vf, pv), ldv,
                                             workf, lwork, info.data(), params, batch)
                 : trnsolverDnSgesvdj(h, jz(), econ, m, n, fp(Af, pa), lda, fp(Sf, ps), fp(Uf, pu), ldu, fp(Vf, pv), ldv,
                                      workf, lwork, info.data(), params);
  require(st == TRNSOLVER_STATUS_SUCCESS || st == TRNSOLVER_STATUS_INVALID_VALUE || st == TRNSOLVER_STATUS_NOT_SUPPORTED,
        "unexpected gesvdj status");
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(same_bytes(A, A0) && same_bytes(S, S0) && same_bytes(U, U0) && same_bytes(V, V0) && same_bytes(Af, Af0) &&
              same_bytes(Sf, Sf0) && same_bytes(Uf, Uf0) && same_bytes(Vf, Vf0),
          "gesvdj wrote an output after rejecting an argument");
    require(info[0] <= 0 || info[0] == -12345, "info of a rejected gesvdj is not -position");
  } else if (fits && batch >= 1 && k > 0) {
    for (int b = 0; b < batch; ++b) {
      const int i = info[static_cast<std::size_t>(b)];
      require(i >= 0 && i <= k + 1, "gesvdj info out of range");
      if (i != 0 || batched) continue;
      double fro = 0, sum = 0;
      bool finite = true;
      for (int j = 0; j < n; ++j)
        for (int r = 0; r < m; ++r) {
          const double x = dbl ? A0[static_cast<std::size_t>(r + j * lda)] : Af0[static_cast<std::size_t>(r + j * lda)];
          finite = finite && std::isfinite(x) && std::fabs(x) < 1e15 && (x == 0 || std::fabs(x) > 1e-15);
          fro += x * x;
        }
      if (!finite) continue;
      for (int q = 0; q < k; ++q) {
        const double sv = dbl ? S[static_cast<std::size_t>(q)] : Sf[static_cast<std::size_t>(q)];
        if (!(sv >= 0 && std::isfinite(sv)) && std::getenv("TRNSOLVER_FUZZ_TRACE") != nullptr) {
          std::fprintf(stderr, "gesvdj %s m %d n %d econ %d jobz %d lda %d: sigma_%d = %g\n", dbl ? "D" : "S", m, n, econ,
                       jobz, lda, q, sv);
          for (int r = 0; r < m; ++r) {
            for (int j = 0; j < n; ++j)
              std::fprintf(stderr, " %g", dbl ? A0[static_cast<std::size_t>(r + j * lda)] : Af0[static_cast<std::size_t>(r + j * lda)]);
            std::fprintf(stderr, "\n");
          }
        }
        require(sv >= 0 && std::isfinite(sv), "singular value negative or not finite");
        if (q > 0) require((dbl ? S[q - 1] : Sf[q - 1]) >= sv, "singular values not descending");
        sum += sv * sv;
      }
      // ||A||_F^2 = sum sigma^2; each of the <= 20 sweeps' rotations perturbs it by O(u) relative.
      require(std::fabs(sum - fro) <= 200.0 * (m + n) * (dbl ? 0x1p-53 : 0x1p-24) * fro + 1e-300,
            "sum of sigma^2 differs from ||A||_F^2");
    }
  }
  trnsolverDnDestroyGesvdjInfo(params);
}

// sygvj (S): itype, uplo, sizes, NULLs; B made positive definite most of the time. Invariants:
// INVALID_VALUE writes nothing; a success has info in [0, 2n]; info > n + 1 (B not positive
// definite) writes nothing; converged eigenvalues of finite data are ascending and finite.
void fuzz_sygvj(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  const int itype = in.choice({1, 2, 3});
  const int jobz = in.choice({TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR});
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int n = static_cast<int>(std::clamp<std::int64_t>(in.size(10, false), INT32_MIN, INT32_MAX));
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const int ldb = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const bool fits = n >= 0 && n <= 10 && lda >= std::max(1, n) && lda <= 12 && ldb >= std::max(1, n) && ldb <= 12;
  std::vector<float> A = fits ? matrix<float>(in, n, n, lda, true) : std::vector<float>();
  std::vector<float> B = fits ? matrix<float>(in, n, n, ldb, true) : std::vector<float>();
  if (fits)
    for (int i = 0; i < n && !in.flag(5); ++i) B[static_cast<std::size_t>(i + i * ldb)] = std::fabs(B[i + i * ldb]) + 8.0f * n + 64.0f;
  std::vector<float> W(fits ? static_cast<std::size_t>(std::max(n, 1)) : 0, -2.0f), work(1);
  const auto A0 = A, B0 = B, W0 = W;
  syevjInfo_t params = nullptr;
  trnsolverDnCreateSyevjInfo(&params);
  int info = -12345;
  auto ptr = [&](std::vector<float>& v) { return v.empty() || in.flag(30) ? nullptr : v.data(); };
  const trnsolverStatus_t st =
      trnsolverDnSsygvj(h, static_cast<trnsolverEigType_t>(itype), static_cast<trnsolverEigMode_t>(jobz),
                        static_cast<trnblasFillMode_t>(uplo), n, ptr(A), lda, ptr(B), ldb, ptr(W), work.data(), 1, &info,
                        params);
  require(st == TRNSOLVER_STATUS_SUCCESS || st == TRNSOLVER_STATUS_INVALID_VALUE || st == TRNSOLVER_STATUS_NOT_SUPPORTED ||
            st == TRNSOLVER_STATUS_EXECUTION_FAILED || st == TRNSOLVER_STATUS_INTERNAL_ERROR,
        "unexpected sygvj status");
  if (st == TRNSOLVER_STATUS_INVALID_VALUE)
    require(same_bytes(A, A0) && same_bytes(B, B0) && same_bytes(W, W0) && info <= 0, "sygvj wrote after rejecting");
  if (st == TRNSOLVER_STATUS_SUCCESS && fits && n > 0) {
    require(info >= 0 && info <= 2 * n, "sygvj info out of range");
    if (info > n + 1) require(same_bytes(A, A0) && same_bytes(B, B0) && same_bytes(W, W0), "sygvj wrote with B not PD");
  }
  trnsolverDnDestroySyevjInfo(params);
}

// IRS and the 64-bit X API (a third call slot, so the corpus's first two calls keep their meaning):
// SHgesv / IRSXgesv with refinement and precision values from the grammar (valid and any int), and
// Xgetrf + Xgetrs with data types from the grammar. Invariants: a rejected call (INVALID_VALUE or an
// IRS_* / NOT_SUPPORTED status) writes nothing but info; a success has info >= 0 and niters in
// [-MaxIters, MaxIters] or -2 / -3.
void fuzz_irs_x(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  const int n = static_cast<int>(std::clamp<std::int64_t>(in.size(kMaxN, false), INT32_MIN, INT32_MAX));
  const int ld = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const bool sized = n >= 0 && n <= kMaxN && ld >= std::max(1, n) && ld <= kMaxN;
  const bool f32 = in.flag(2);
  std::vector<double> Ad = sized ? matrix<double>(in, n, n, ld, false) : std::vector<double>();
  for (int i = 0; sized && i < n && !in.flag(4); ++i) Ad[static_cast<std::size_t>(i + i * ld)] += n;  // mostly regular
  std::vector<float> Af(Ad.begin(), Ad.end());
  // Two columns: IRSXgesv is sometimes called with nrhs = 2 (rejected for the GMRES solvers).
  std::vector<double> Bd(2 * static_cast<std::size_t>(sized ? std::max(ld, 1) : 1), 1.0), Xd(Bd.size(), -3.0);
  std::vector<float> Bf(Bd.begin(), Bd.end()), Xf(Xd.begin(), Xd.end());
  void* A = Ad.empty() ? nullptr : f32 ? static_cast<void*>(Af.data()) : static_cast<void*>(Ad.data());
  void* B = f32 ? static_cast<void*>(Bf.data()) : static_cast<void*>(Bd.data());
  void* X = f32 ? static_cast<void*>(Xf.data()) : static_cast<void*>(Xd.data());
  const auto Ad0 = Ad;
  const auto Af0 = Af;
  const auto Xd0 = Xd;
  const auto Xf0 = Xf;
  auto untouched = [&] { return same_bytes(Ad, Ad0) && same_bytes(Af, Af0) && same_bytes(Xd, Xd0) && same_bytes(Xf, Xf0); };
  int info = -12345, niters = -12345;
  trnsolverStatus_t st;
  switch (in.byte() % 3) {
    case 0: {
      std::vector<int> ipiv(sized ? static_cast<std::size_t>(std::max(n, 1)) : 1);  // unsized: A is NULL
      size_t bytes = 0;
      trnsolverDnSHgesv_bufferSize(h, n, 1, static_cast<float*>(A), ld, ipiv.data(), Bf.data(), ld, Xf.data(), ld,
                                   nullptr, &bytes);
      std::vector<char> ws(std::min<size_t>(bytes, 1 << 20) + 1);
      st = trnsolverDnSHgesv(h, n, 1, f32 ? static_cast<float*>(A) : (Af.empty() ? nullptr : Af.data()), ld,
                             ipiv.data(), Bf.data(), ld, Xf.data(), ld, ws.data(), in.flag(6) ? 0 : bytes, &niters,
                             &info);
      break;
    }
    case 1: {
      trnsolverDnIRSParams_t p = nullptr;
      trnsolverDnIRSInfos_t inf = nullptr;
      trnsolverDnIRSParamsCreate(&p);
      trnsolverDnIRSInfosCreate(&inf);
      trnsolverDnIRSParamsSetRefinementSolver(p, static_cast<trnsolverIRSRefinement_t>(in.choice(
          {TRNSOLVER_IRS_REFINE_NOT_SET, TRNSOLVER_IRS_REFINE_NONE, TRNSOLVER_IRS_REFINE_CLASSICAL,
           TRNSOLVER_IRS_REFINE_CLASSICAL_GMRES, TRNSOLVER_IRS_REFINE_GMRES, TRNSOLVER_IRS_REFINE_GMRES_GMRES,
           TRNSOLVER_IRS_REFINE_GMRES_NOPCOND})));
      trnsolverDnIRSParamsSetSolverPrecisions(
          p, f32 ? TRNSOLVER_R_32F : TRNSOLVER_R_64F,
          static_cast<trnsolverPrecType_t>(in.choice({TRNSOLVER_R_64F, TRNSOLVER_R_32F, TRNSOLVER_R_16F,
                                                          TRNSOLVER_R_16BF, TRNSOLVER_R_TF32, TRNSOLVER_R_8I})));
      trnsolverDnIRSParamsSetMaxIters(p, 1 + in.byte() % 8);
      trnsolverDnIRSParamsSetMaxItersInner(p, 1 + in.byte() % 8);
      if (in.flag(2)) trnsolverDnIRSParamsDisableFallback(p);
      if (in.flag(2)) trnsolverDnIRSInfosRequestResidual(inf);
      const int nrhs = in.flag(6) ? 2 : 1;
      size_t bytes = 0;
      trnsolverDnIRSXgesv_bufferSize(h, p, n, nrhs, &bytes);
      std::vector<char> ws(std::min<size_t>(bytes, 1 << 20) + 1);
      st = trnsolverDnIRSXgesv(h, p, inf, n, nrhs, A, ld, B, ld, X, ld, ws.data(), bytes, &niters, &info);
      int maxit = 0;
      trnsolverDnIRSParamsGetMaxIters(p, &maxit);
      require(st != TRNSOLVER_STATUS_SUCCESS || ((niters >= -maxit || niters == -2 || niters == -3) && niters <= maxit),
            "IRSXgesv niters out of range (-2 overflow, -3 zero pivot, -MaxIters, or the iterations)");
      void* hist = nullptr;
      trnsolverDnIRSInfosGetResidualHistory(inf, &hist);
      trnsolverDnIRSInfosDestroy(inf);
      trnsolverDnIRSParamsDestroy(p);
      break;
    }
    default: {
      trnsolverDnParams_t p = nullptr;
      trnsolverDnCreateParams(&p);
      const int dti = in.choice({TRN_R_32F, TRN_R_64F, TRN_R_16F});  // any int sometimes: cast at each call
      auto dt = [dti] { return static_cast<trnDataType_t>(dti); };
      // The buffers must have the type the call names (the fp32 copies for TRN_R_32F, complex copies for
      // TRN_C_32F / TRN_C_64F when the grammar's "any int" lands on them).
      std::vector<std::complex<float>> Ac(Af.begin(), Af.end()), Bc(Bf.begin(), Bf.end());
      std::vector<std::complex<double>> Az(Ad.begin(), Ad.end()), Bz(Bd.begin(), Bd.end());
      auto pick = [dti](auto& f, auto& d, auto& c, auto& z) -> void* {
        return dti == TRN_R_32F ? static_cast<void*>(f.data()) : dti == TRN_C_32F ? static_cast<void*>(c.data())
               : dti == TRN_C_64F ? static_cast<void*>(z.data()) : static_cast<void*>(d.data());
      };
      void* Ax = Ad.empty() ? nullptr : pick(Af, Ad, Ac, Az);
      void* Bx = pick(Bf, Bd, Bc, Bz);
      size_t dev = 0, host = 0;
      trnsolverDnXgetrf_bufferSize(h, p, n, n, dt(), Ax, ld, dt(), &dev, &host);
      std::vector<char> wd(std::min<size_t>(dev, 64) + 8);
      std::vector<int64_t> ipiv(sized ? static_cast<std::size_t>(std::max(n, 1)) : 1, 1);  // unsized: A is NULL
      st = trnsolverDnXgetrf(h, p, n, n, dt(), Ax, ld, in.flag(5) ? nullptr : ipiv.data(), dt(), wd.data(), dev, nullptr, 0,
                             &info);
      if (st == TRNSOLVER_STATUS_SUCCESS) {
        int info2 = -12345;
        const trnsolverStatus_t st2 = trnsolverDnXgetrs(h, p, TRNBLAS_OP_N, n, 1, dt(), Ax, ld, ipiv.data(), dt(), Bx, ld, &info2);
        require(st2 == TRNSOLVER_STATUS_SUCCESS || st2 == TRNSOLVER_STATUS_INVALID_VALUE, "Xgetrs status");
      }
      trnsolverDnDestroyParams(p);
      break;
    }
  }
  require(st == TRNSOLVER_STATUS_SUCCESS || untouched(), "IRS / X API wrote A or X after rejecting the call");
  require(st != TRNSOLVER_STATUS_SUCCESS || info >= 0, "IRS / X API info < 0 on success");
}

}  // namespace

std::vector<trnfuzz::Floor> trnfuzz::floors() { return {{"syevj_rejected", 35}, {"syevj_checked", 6}, {"getrf_ok", 9}}; }

// QR (S, D, C, Z): geqrf, orgqr/ungqr, ormqr/unmqr and Xgeqrf with sizes, leading dimensions, side,
// trans (any int), k, workspace sizes (the _bufferSize value, or less) and NULLs from the grammar.
// Invariants: INVALID_VALUE writes nothing but info (= -position); a success has info 0; a
// workspace below _bufferSize is rejected.
template <class T, class R>
struct QrApi {
  trnsolverStatus_t (*geqrf_bs)(trnsolverDnHandle_t, int, int, T*, int, int*);
  trnsolverStatus_t (*geqrf)(trnsolverDnHandle_t, int, int, T*, int, T*, T*, int, int*);
  trnsolverStatus_t (*org_bs)(trnsolverDnHandle_t, int, int, int, const T*, int, const T*, int*);
  trnsolverStatus_t (*org)(trnsolverDnHandle_t, int, int, int, T*, int, const T*, T*, int, int*);
  trnsolverStatus_t (*orm_bs)(trnsolverDnHandle_t, trnblasSideMode_t, trnblasOperation_t, int, int, int, const T*, int,
                              const T*, const T*, int, int*);
  trnsolverStatus_t (*orm)(trnsolverDnHandle_t, trnblasSideMode_t, trnblasOperation_t, int, int, int, const T*, int,
                           const T*, T*, int, T*, int, int*);
  trnDataType_t x_type;
};

int fuzz_dim(trnfuzz::Input& in) {
  return static_cast<int>(std::clamp<std::int64_t>(in.size(kMaxN, false), INT32_MIN, INT32_MAX));
}

template <class T, class R>
void fuzz_qr_typed(trnfuzz::Input& in, trnsolverDnHandle_t h, const QrApi<T, R>& api) {
  constexpr int kParts = static_cast<int>(sizeof(T) / sizeof(R));
  const int routine = in.byte() % 4, m = fuzz_dim(in), n = fuzz_dim(in), k = fuzz_dim(in);
  const int side = in.choice({TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT});
  const int trans = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C});
  const int nq = routine == 2 && side == TRNBLAS_SIDE_RIGHT ? n : m;
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, nq);
  const int ldc = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, m);
  const bool sized = m >= 0 && n >= 0 && m <= kMaxN && n <= kMaxN && lda >= 1 && lda <= kMaxN + 2 && ldc >= 1 &&
                     ldc <= kMaxN + 2;
  // k > kMaxN exceeds nq, which every routine rejects before reading A: no columns for it (and no
  // int overflow in ld * cols).
  const int cols = std::max({n, std::clamp(k, 0, kMaxN), 1});
  std::vector<R> a = sized ? matrix<R>(in, kParts * lda, cols, kParts * lda, false) : std::vector<R>();
  std::vector<R> c = sized ? matrix<R>(in, kParts * ldc, std::max(n, 1), kParts * ldc, false) : std::vector<R>();
  std::vector<R> tau(static_cast<std::size_t>(kParts * (kMaxN + 1)), R(0.5));
  auto* A = a.empty() ? nullptr : reinterpret_cast<T*>(a.data());
  auto* C = c.empty() ? nullptr : reinterpret_cast<T*>(c.data());
  auto* tp = in.flag(12) ? nullptr : reinterpret_cast<T*>(tau.data());
  // The enums are converted in the call (a prvalue): holding an out-of-range value in an enum-typed
  // variable and loading it is undefined behaviour (UBSan: invalid enum load), the shim's is not.
  int lwork = 0, info = -12345;
  trnsolverStatus_t bs = TRNSOLVER_STATUS_SUCCESS;
  if (routine == 0 || routine == 3) bs = api.geqrf_bs(h, m, n, A, lda, &lwork);
  if (routine == 1) bs = api.org_bs(h, m, n, k, A, lda, tp, &lwork);
  if (routine == 2)
    bs = api.orm_bs(h, static_cast<trnblasSideMode_t>(side), static_cast<trnblasOperation_t>(trans), m, n, k, A, lda,
                    tp, C, ldc, &lwork);
  const bool short_work = in.flag(6) && lwork > 1;
  if (short_work) lwork -= 1 + in.byte() % lwork;
  std::vector<T> work(static_cast<std::size_t>(std::max(lwork, 1)));
  const std::vector<R> a0 = a, c0 = c, tau0 = tau;
  trnsolverStatus_t st;
  if (routine == 0) st = api.geqrf(h, m, n, A, lda, tp, work.data(), lwork, &info);
  else if (routine == 1) st = api.org(h, m, n, k, A, lda, tp, work.data(), lwork, &info);
  else if (routine == 2)
    st = api.orm(h, static_cast<trnblasSideMode_t>(side), static_cast<trnblasOperation_t>(trans), m, n, k, A, lda, tp,
                 C, ldc, work.data(), lwork, &info);
  else {
    trnsolverDnParams_t p = nullptr;
    trnsolverDnCreateParams(&p);
    size_t dev = 0, host = 0;
    trnsolverDnXgeqrf_bufferSize(h, p, m, n, api.x_type, A, lda, api.x_type, tp, api.x_type, &dev, &host);
    if (short_work) dev /= 2;
    std::vector<unsigned char> buf(std::max<size_t>(dev, 1));
    st = trnsolverDnXgeqrf(h, p, m, n, api.x_type, A, lda, api.x_type, tp, api.x_type, buf.data(), dev, nullptr, 0,
                           &info);
    trnsolverDnDestroyParams(p);
  }
  trnfuzz::reach("qr_ok", st == TRNSOLVER_STATUS_SUCCESS && m > 0 && n > 0);
  if (st == TRNSOLVER_STATUS_INVALID_VALUE) {
    require(same_bytes(a, a0) && same_bytes(c, c0) && same_bytes(tau, tau0), "QR wrote an output after rejecting an argument");
    require(info == -12345 || info < 0, "info of a rejected QR call is not -position");
  }
  require(st != TRNSOLVER_STATUS_SUCCESS || info == 0, "QR success with info != 0");
  require(bs != TRNSOLVER_STATUS_SUCCESS || !short_work || st != TRNSOLVER_STATUS_SUCCESS,
          "QR accepted a workspace below its _bufferSize");
  // The panel width of the handle's later QR calls (trnsci extension; read after this call's bytes so
  // that the corpus keeps its meaning): any int, out of 0..128 rejected with the setting kept.
  const int nb = in.flag(4) ? (in.flag(3) ? static_cast<int>(in.u32()) : in.byte() % 20) : 0;
  int nb_before = -1, nb_after = -1;
  trnsolverDnGetQrBlockSize(h, &nb_before);
  const trnsolverStatus_t nb_st = trnsolverDnSetQrBlockSize(h, nb);
  trnsolverDnGetQrBlockSize(h, &nb_after);
  require(nb_st == (nb >= 0 && nb <= 128 ? TRNSOLVER_STATUS_SUCCESS : TRNSOLVER_STATUS_INVALID_VALUE),
          "SetQrBlockSize status");
  require(nb_after == (nb_st == TRNSOLVER_STATUS_SUCCESS ? nb : nb_before), "SetQrBlockSize changed a rejected value");
}

void fuzz_qr(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  switch (in.byte() % 4) {
    case 0:
      fuzz_qr_typed(in, h, QrApi<float, float>{trnsolverDnSgeqrf_bufferSize, trnsolverDnSgeqrf, trnsolverDnSorgqr_bufferSize,
                                              trnsolverDnSorgqr, trnsolverDnSormqr_bufferSize, trnsolverDnSormqr, TRN_R_32F});
      break;
    case 1:
      fuzz_qr_typed(in, h, QrApi<double, double>{trnsolverDnDgeqrf_bufferSize, trnsolverDnDgeqrf, trnsolverDnDorgqr_bufferSize,
                                                trnsolverDnDorgqr, trnsolverDnDormqr_bufferSize, trnsolverDnDormqr, TRN_R_64F});
      break;
    case 2:
      fuzz_qr_typed(in, h, QrApi<trnComplex, float>{trnsolverDnCgeqrf_bufferSize, trnsolverDnCgeqrf, trnsolverDnCungqr_bufferSize,
                                                   trnsolverDnCungqr, trnsolverDnCunmqr_bufferSize, trnsolverDnCunmqr, TRN_C_32F});
      break;
    default:
      fuzz_qr_typed(in, h, QrApi<trnDoubleComplex, double>{trnsolverDnZgeqrf_bufferSize, trnsolverDnZgeqrf,
                                                          trnsolverDnZungqr_bufferSize, trnsolverDnZungqr,
                                                          trnsolverDnZunmqr_bufferSize, trnsolverDnZunmqr, TRN_C_64F});
  }
}

// The tridiagonal family (S, D): syevd, syevdx, sytrd, orgtr, ormtr with sizes, leading dimensions, jobz,
// range, uplo, side and trans (any int), vl/vu/il/iu, workspace sizes (the _bufferSize value, or less) and NULLs. Invariants as
// QR's; a successful syevd has info 0 (finite input) or n (Inf/NaN in the read triangle) and, for a
// finite symmetric matrix, ascending eigenvalues.
template <class T>
struct EigApi {
  trnsolverStatus_t (*syevd_bs)(trnsolverDnHandle_t, trnsolverEigMode_t, trnblasFillMode_t, int, const T*, int,
                                const T*, int*);
  trnsolverStatus_t (*syevd)(trnsolverDnHandle_t, trnsolverEigMode_t, trnblasFillMode_t, int, T*, int, T*, T*, int,
                             int*);
  trnsolverStatus_t (*sytrd_bs)(trnsolverDnHandle_t, trnblasFillMode_t, int, const T*, int, const T*, const T*,
                                const T*, int*);
  trnsolverStatus_t (*sytrd)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, T*, T*, T*, T*, int, int*);
  trnsolverStatus_t (*orgtr_bs)(trnsolverDnHandle_t, trnblasFillMode_t, int, const T*, int, const T*, int*);
  trnsolverStatus_t (*orgtr)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, const T*, T*, int, int*);
  trnsolverStatus_t (*ormtr_bs)(trnsolverDnHandle_t, trnblasSideMode_t, trnblasFillMode_t, trnblasOperation_t, int,
                                int, const T*, int, const T*, const T*, int, int*);
  trnsolverStatus_t (*ormtr)(trnsolverDnHandle_t, trnblasSideMode_t, trnblasFillMode_t, trnblasOperation_t, int, int,
                             T*, int, T*, T*, int, T*, int, int*);
  trnsolverStatus_t (*syevdx_bs)(trnsolverDnHandle_t, trnsolverEigMode_t, trnsolverEigRange_t, trnblasFillMode_t, int,
                                 const T*, int, T, T, int, int, int*, const T*, int*);
  trnsolverStatus_t (*syevdx)(trnsolverDnHandle_t, trnsolverEigMode_t, trnsolverEigRange_t, trnblasFillMode_t, int, T*,
                              int, T, T, int, int, int*, T*, T*, int, int*);
};

template <class T>
void fuzz_eig_typed(trnfuzz::Input& in, trnsolverDnHandle_t h, const EigApi<T>& api) {
  const int routine = in.byte() % 5, m = fuzz_dim(in), n = fuzz_dim(in);
  const int range = in.choice({TRNSOLVER_EIG_RANGE_ALL, TRNSOLVER_EIG_RANGE_I, TRNSOLVER_EIG_RANGE_V});
  const T vl = static_cast<T>(in.value()), vu = static_cast<T>(in.value());
  const int il = static_cast<int>(in.size(kMaxN, false)), iu = static_cast<int>(in.size(kMaxN, false));
  int meig = -7;
  int* mp = in.flag(12) ? nullptr : &meig;
  const int jobz = in.choice({TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR});
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int side = in.choice({TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT});
  const int trans = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C});
  const int nq = routine == 3 ? (side == TRNBLAS_SIDE_RIGHT ? n : m) : n;
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, nq);
  const int ldc = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, m);
  const bool sized = m >= 0 && n >= 0 && m <= kMaxN && n <= kMaxN && lda >= 1 && lda <= kMaxN + 2 && ldc >= 1 &&
                     ldc <= kMaxN + 2;
  std::vector<T> a = sized ? matrix<T>(in, lda, std::max(nq, 1), lda, false) : std::vector<T>();
  std::vector<T> c = sized ? matrix<T>(in, ldc, std::max(n, 1), ldc, false) : std::vector<T>();
  std::vector<T> w(kMaxN + 1, T(0)), d(kMaxN + 1, T(0)), e(kMaxN + 1, T(0)), tau(kMaxN + 1, T(0.5));
  T* A = a.empty() ? nullptr : a.data();
  T* C = c.empty() ? nullptr : c.data();
  T* tp = in.flag(12) ? nullptr : tau.data();
  T* W = in.flag(12) ? nullptr : w.data();
  // Enums converted in the call (prvalues), as in fuzz_qr_typed.
  const auto J = [](int v) { return static_cast<trnsolverEigMode_t>(v); };
  const auto U = [](int v) { return static_cast<trnblasFillMode_t>(v); };
  const auto S = [](int v) { return static_cast<trnblasSideMode_t>(v); };
  const auto O = [](int v) { return static_cast<trnblasOperation_t>(v); };
  const auto R = [](int v) { return static_cast<trnsolverEigRange_t>(v); };
  int lwork = 0, info = -12345;
  trnsolverStatus_t bs = TRNSOLVER_STATUS_SUCCESS;
  if (routine == 0) bs = api.syevd_bs(h, J(jobz), U(uplo), n, A, lda, W, &lwork);
  if (routine == 1) bs = api.sytrd_bs(h, U(uplo), n, A, lda, d.data(), e.data(), tp, &lwork);
  if (routine == 2) bs = api.orgtr_bs(h, U(uplo), n, A, lda, tp, &lwork);
  if (routine == 3) bs = api.ormtr_bs(h, S(side), U(uplo), O(trans), m, n, A, lda, tp, C, ldc, &lwork);
  if (routine == 4) bs = api.syevdx_bs(h, J(jobz), R(range), U(uplo), n, A, lda, vl, vu, il, iu, mp, W, &lwork);
  const bool short_work = in.flag(6) && lwork > 1;
  if (short_work) lwork -= 1 + in.byte() % lwork;
  std::vector<T> work(static_cast<std::size_t>(std::max(lwork, 1)));
  const std::vector<T> a0 = a, c0 = c, tau0 = tau;
  bool finite = true;
  for (int j = 0; sized && lda >= n && j < n && (routine == 0 || routine == 4); ++j)
    for (int i = 0; i < n; ++i)
      if ((uplo == TRNBLAS_FILL_MODE_UPPER ? i <= j : i >= j) && !std::isfinite(a[i + j * lda])) finite = false;
  trnsolverStatus_t st;
  if (routine == 0) st = api.syevd(h, J(jobz), U(uplo), n, A, lda, W, work.data(), lwork, &info);
  else if (routine == 1) st = api.sytrd(h, U(uplo), n, A, lda, d.data(), e.data(), tp, work.data(), lwork, &info);
  else if (routine == 2) st = api.orgtr(h, U(uplo), n, A, lda, tp, work.data(), lwork, &info);
  else if (routine == 3) st = api.ormtr(h, S(side), U(uplo), O(trans), m, n, A, lda, tp, C, ldc, work.data(), lwork, &info);
  else st = api.syevdx(h, J(jobz), R(range), U(uplo), n, A, lda, vl, vu, il, iu, mp, W, work.data(), lwork, &info);
  trnfuzz::reach("eig_ok", st == TRNSOLVER_STATUS_SUCCESS && n > 1);
  if (st == TRNSOLVER_STATUS_INVALID_VALUE) {
    require(same_bytes(a, a0) && same_bytes(c, c0) && same_bytes(tau, tau0), "syevd family wrote after rejecting");
    require(info == -12345 || info < 0, "info of a rejected syevd-family call is not -position");
    require(meig == -7, "syevdx wrote meig after rejecting an argument");
  }
  if (st == TRNSOLVER_STATUS_SUCCESS && routine == 4) {
    require(info == (finite ? 0 : n) && meig >= 0 && meig <= n, "syevdx info/meig out of range");
    require(range != TRNSOLVER_EIG_RANGE_I || !finite || n == 0 || meig == iu - il + 1, "syevdx range I count");
  }
  if (st == TRNSOLVER_STATUS_SUCCESS && routine == 0) {
    require(info == (finite ? 0 : n), "syevd info is neither 0 (finite) nor n (Inf/NaN)");
    if (finite) require(std::is_sorted(w.begin(), w.begin() + n), "syevd eigenvalues not ascending");
  } else if (routine != 4) {  // syevdx's info was checked above (n for Inf/NaN data)
    require(st != TRNSOLVER_STATUS_SUCCESS || info == 0, "syevd-family success with info != 0");
  }
  require(bs != TRNSOLVER_STATUS_SUCCESS || !short_work || st != TRNSOLVER_STATUS_SUCCESS,
          "syevd family accepted a workspace below its _bufferSize");
}

void fuzz_eig(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  if (in.byte() % 2 == 0)
    fuzz_eig_typed(in, h, EigApi<float>{trnsolverDnSsyevd_bufferSize, trnsolverDnSsyevd, trnsolverDnSsytrd_bufferSize,
                                        trnsolverDnSsytrd, trnsolverDnSorgtr_bufferSize, trnsolverDnSorgtr,
                                        trnsolverDnSormtr_bufferSize, trnsolverDnSormtr, trnsolverDnSsyevdx_bufferSize,
                                        trnsolverDnSsyevdx});
  else
    fuzz_eig_typed(in, h, EigApi<double>{trnsolverDnDsyevd_bufferSize, trnsolverDnDsyevd, trnsolverDnDsytrd_bufferSize,
                                         trnsolverDnDsytrd, trnsolverDnDorgtr_bufferSize, trnsolverDnDorgtr,
                                         trnsolverDnDormtr_bufferSize, trnsolverDnDormtr, trnsolverDnDsyevdx_bufferSize,
                                         trnsolverDnDsyevdx});
}

// Enum arguments stay ints in the harness and become enum prvalues only in the call (an enum-typed
// variable holding a value outside the enum would be UB to load, -fsanitize=enum).
trnsolverEigType_t EI(int v) { return static_cast<trnsolverEigType_t>(v); }
trnsolverEigMode_t EJ(int v) { return static_cast<trnsolverEigMode_t>(v); }
trnsolverEigRange_t ER(int v) { return static_cast<trnsolverEigRange_t>(v); }
trnblasFillMode_t EU(int v) { return static_cast<trnblasFillMode_t>(v); }
trnblasDiagType_t ED(int v) { return static_cast<trnblasDiagType_t>(v); }
trnDataType_t ET(int v) { return static_cast<trnDataType_t>(v); }

// sygvd / sygvdx (S, D), a call slot after fuzz_eig: itype, jobz, range, uplo (any int), sizes, leading
// dimensions, vl/vu/il/iu, workspace (the _bufferSize value, or less) and NULLs; B made positive
// definite most of the time. Invariants: INVALID_VALUE writes nothing (info -position, meig untouched);
// a success has info in [0, 2n], writes nothing when info > n (B not positive definite), and for
// finite data with B positive definite eigenvalues ascending (sygvd) and meig = iu - il + 1 (range I).
template <class T>
void fuzz_sygvd_typed(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  constexpr bool kS = std::is_same_v<T, float>;
  const bool x = in.flag(2);
  const int itype = in.choice({1, 2, 3}), jobz = in.choice({TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR});
  const int range = in.choice({TRNSOLVER_EIG_RANGE_ALL, TRNSOLVER_EIG_RANGE_I, TRNSOLVER_EIG_RANGE_V});
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int n = fuzz_dim(in);
  const T vl = static_cast<T>(in.value()), vu = static_cast<T>(in.value());
  const int il = static_cast<int>(in.size(kMaxN, false)), iu = static_cast<int>(in.size(kMaxN, false));
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const int ldb = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const bool sized = n >= 0 && n <= kMaxN && lda >= std::max(1, n) && lda <= kMaxN + 2 && ldb >= std::max(1, n) &&
                     ldb <= kMaxN + 2;
  std::vector<T> a = sized ? matrix<T>(in, n, n, lda, true) : std::vector<T>();
  std::vector<T> b = sized ? matrix<T>(in, n, n, ldb, true) : std::vector<T>();
  if (sized)
    for (int i = 0; i < n && !in.flag(5); ++i) b[static_cast<std::size_t>(i + i * ldb)] = std::fabs(b[i + i * ldb]) + T(8 * n + 64);
  std::vector<T> w(kMaxN + 1, T(-2));
  int meig = -7;
  int* mp = in.flag(12) ? nullptr : &meig;
  T* A = a.empty() || in.flag(30) ? nullptr : a.data();
  T* B = b.empty() || in.flag(30) ? nullptr : b.data();
  T* W = in.flag(30) ? nullptr : w.data();
  int lwork = 0, info = -12345;
  trnsolverStatus_t bs;
  if constexpr (kS)
    bs = x ? trnsolverDnSsygvdx_bufferSize(h, EI(itype), EJ(jobz), ER(range), EU(uplo), n, A, lda, B, ldb, vl, vu, il, iu, mp, W, &lwork)
           : trnsolverDnSsygvd_bufferSize(h, EI(itype), EJ(jobz), EU(uplo), n, A, lda, B, ldb, W, &lwork);
  else
    bs = x ? trnsolverDnDsygvdx_bufferSize(h, EI(itype), EJ(jobz), ER(range), EU(uplo), n, A, lda, B, ldb, vl, vu, il, iu, mp, W, &lwork)
           : trnsolverDnDsygvd_bufferSize(h, EI(itype), EJ(jobz), EU(uplo), n, A, lda, B, ldb, W, &lwork);
  const bool short_work = in.flag(6) && lwork > 1;
  if (short_work) lwork -= 1 + in.byte() % lwork;
  std::vector<T> work(static_cast<std::size_t>(std::max(lwork, 1)));
  const auto a0 = a, b0 = b, w0 = w;
  bool finite = true;
  for (const T v : a) finite = finite && std::isfinite(v);
  for (const T v : b) finite = finite && std::isfinite(v);
  trnsolverStatus_t st;
  if constexpr (kS)
    st = x ? trnsolverDnSsygvdx(h, EI(itype), EJ(jobz), ER(range), EU(uplo), n, A, lda, B, ldb, vl, vu, il, iu, mp, W, work.data(), lwork, &info)
           : trnsolverDnSsygvd(h, EI(itype), EJ(jobz), EU(uplo), n, A, lda, B, ldb, W, work.data(), lwork, &info);
  else
    st = x ? trnsolverDnDsygvdx(h, EI(itype), EJ(jobz), ER(range), EU(uplo), n, A, lda, B, ldb, vl, vu, il, iu, mp, W, work.data(), lwork, &info)
           : trnsolverDnDsygvd(h, EI(itype), EJ(jobz), EU(uplo), n, A, lda, B, ldb, W, work.data(), lwork, &info);
  trnfuzz::reach("sygvd_ok", st == TRNSOLVER_STATUS_SUCCESS && n > 1 && info == 0);
  require(st == TRNSOLVER_STATUS_SUCCESS || st == TRNSOLVER_STATUS_INVALID_VALUE || st == TRNSOLVER_STATUS_NOT_SUPPORTED,
          "unexpected sygvd status");
  if (st == TRNSOLVER_STATUS_INVALID_VALUE) {
    require(same_bytes(a, a0) && same_bytes(b, b0) && same_bytes(w, w0), "sygvd wrote after rejecting");
    require(info == -12345 || info < 0, "info of a rejected sygvd call is not -position");
    require(meig == -7, "sygvdx wrote meig after rejecting an argument");
  }
  if (st == TRNSOLVER_STATUS_SUCCESS && n > 0) {
    require(info >= 0 && info <= 2 * n, "sygvd info out of range");
    if (info > n) require(same_bytes(a, a0) && same_bytes(b, b0) && same_bytes(w, w0), "sygvd wrote with B not PD");
    if (finite && info == 0 && !x) require(std::is_sorted(w.begin(), w.begin() + n), "sygvd eigenvalues not ascending");
    if (finite && info == 0 && x && range == TRNSOLVER_EIG_RANGE_I) require(meig == iu - il + 1, "sygvdx range I count");
  }
  require(bs != TRNSOLVER_STATUS_SUCCESS || !short_work || st != TRNSOLVER_STATUS_SUCCESS,
          "sygvd accepted a workspace below its _bufferSize");
}


// The last call slot: Xsyevd / Xsyevdx / XsyevBatched (data types from the grammar), Dgesvd / Xgesvd
// (jobu, jobvt any byte), S/DpotrfBatched + potrsBatched (NULL entries in the pointer arrays). Invariants:
// statuses are cuSOLVER's; INVALID_VALUE writes nothing but info; NOT_SUPPORTED (complex or mixed types)
// writes nothing; a successful Xsyevd of finite data has info 0 and ascending eigenvalues; gesvd's
// singular values of finite data are descending and non-negative; potrfBatched's info[k] in [0, n].
int fuzz_type(trnfuzz::Input& in) { return in.choice({TRN_R_64F, TRN_R_32F, TRN_C_32F, TRN_C_64F}); }

void expect_status(trnsolverStatus_t st, const char* what) {
  require(st == TRNSOLVER_STATUS_SUCCESS || st == TRNSOLVER_STATUS_INVALID_VALUE ||
              st == TRNSOLVER_STATUS_NOT_SUPPORTED,
          what);
}

// Xtrtri (any of its four types) wrote only its triangle: the other triangle, a unit diagonal and the
// elements past column n - 1 keep their bytes.
void xtrtri_kept_outside(const std::vector<double>& a, const std::vector<double>& a0, int type, bool lower, bool unit,
                         std::int64_t n, std::int64_t lda) {
  const std::size_t es = type == TRN_R_32F ? 4 : type == TRN_C_64F ? 16 : 8;
  const auto* p = reinterpret_cast<const unsigned char*>(a.data());
  const auto* p0 = reinterpret_cast<const unsigned char*>(a0.data());
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < lda; ++i) {
      const bool written = i < n && (lower ? i >= j : i <= j) && !(unit && i == j);
      const auto at = static_cast<std::size_t>(i + j * lda) * es;
      if (!written) require(std::memcmp(p + at, p0 + at, es) == 0, "Xtrtri wrote outside its triangle");
    }
  const std::size_t end = static_cast<std::size_t>(n * lda) * es, bytes = a.size() * sizeof(double);
  require(end >= bytes || std::memcmp(p + end, p0 + end, bytes - end) == 0, "Xtrtri wrote past column n - 1");
}

void fuzz_x_eig(trnfuzz::Input& in, trnsolverDnHandle_t h, trnsolverDnParams_t p) {
  const int routine = in.byte() % 4, n = fuzz_dim(in), batch = 1 + in.byte() % 3;  // 3: Xtrtri
  const int jobz = in.choice({TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR});
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int range = in.choice({TRNSOLVER_EIG_RANGE_ALL, TRNSOLVER_EIG_RANGE_I, TRNSOLVER_EIG_RANGE_V});
  const int ta = fuzz_type(in), tw = in.flag(8) ? fuzz_type(in) : ta;
  const std::int64_t lda = in.flag(8) ? in.size(3, false) : std::max(1, n);
  double vl = in.value(), vu = in.value();
  const std::int64_t il = in.size(kMaxN, false), iu = in.size(kMaxN, false);
  const bool sized = n >= 0 && n <= kMaxN && lda >= std::max(1, n) && lda <= kMaxN + 2;
  std::vector<double> a = sized ? matrix<double>(in, n, n, static_cast<int>(lda), true) : std::vector<double>();
  a.resize(a.size() * static_cast<std::size_t>(batch));  // room for the batch (and complex types) at ld lda
  a.resize(2 * a.size());
  std::vector<double> w(2 * (kMaxN + 1) * 3, -2.0);
  std::vector<int> info(4, -12345);
  std::int64_t meig = -7;
  size_t dev = 0, host = 0;
  void* A = a.empty() || in.flag(30) ? nullptr : a.data();
  const int diag = in.choice({TRNBLAS_DIAG_NON_UNIT, TRNBLAS_DIAG_UNIT});
  if (routine == 3) {
    size_t tb = 0, th = 0;
    void* T = a.empty() || in.flag(30) ? nullptr : a.data();
    const trnsolverStatus_t tbs = trnsolverDnXtrtri_bufferSize(h, EU(uplo), ED(diag), n, ET(ta), T, lda, &tb, &th);
    expect_status(tbs, "unexpected Xtrtri _bufferSize status");
    std::vector<unsigned char> tw(std::max<size_t>(tb, 8));
    const auto t0 = a;
    const trnsolverStatus_t ts =
        trnsolverDnXtrtri(h, EU(uplo), ED(diag), n, ET(ta), T, lda, tw.data(), in.flag(6) ? 0 : tw.size(), nullptr, 0,
                          info.data());
    expect_status(ts, "unexpected Xtrtri status");
    if (ts != TRNSOLVER_STATUS_SUCCESS) require(same_bytes(a, t0) && info[0] < 0, "Xtrtri wrote after rejecting");
    if (ts == TRNSOLVER_STATUS_SUCCESS) require(info[0] >= 0 && info[0] <= n, "Xtrtri info out of range");
    if (ts == TRNSOLVER_STATUS_SUCCESS && info[0] > 0) require(same_bytes(a, t0), "Xtrtri wrote a singular matrix");
    if (ts == TRNSOLVER_STATUS_SUCCESS) xtrtri_kept_outside(a, t0, ta, uplo == TRNBLAS_FILL_MODE_LOWER,
                                                            diag == TRNBLAS_DIAG_UNIT, n, lda);
    return;
  }
  trnsolverStatus_t bs;
  if (routine == 0)
    bs = trnsolverDnXsyevd_bufferSize(h, p, EJ(jobz), EU(uplo), n, ET(ta), A, lda, ET(tw), w.data(), ET(ta), &dev, &host);
  else if (routine == 1)
    bs = trnsolverDnXsyevdx_bufferSize(h, p, EJ(jobz), ER(range), EU(uplo), n, ET(ta), A, lda, &vl, &vu, il, iu, &meig, ET(tw),
                                       w.data(), ET(ta), &dev, &host);
  else
    bs = trnsolverDnXsyevBatched_bufferSize(h, p, EJ(jobz), EU(uplo), n, ET(ta), A, lda, ET(tw), w.data(), ET(ta), &dev, &host, batch);
  expect_status(bs, "unexpected X eigensolver _bufferSize status");
  if (bs != TRNSOLVER_STATUS_SUCCESS) dev = 8;
  if (in.flag(6) && dev > 1) dev -= 1;
  std::vector<unsigned char> work(std::max<size_t>(dev, 1));
  const auto a0 = a, w0 = w;
  trnsolverStatus_t st;
  if (routine == 0)
    st = trnsolverDnXsyevd(h, p, EJ(jobz), EU(uplo), n, ET(ta), A, lda, ET(tw), w.data(), ET(ta), work.data(), dev, nullptr, 0,
                           info.data());
  else if (routine == 1)
    st = trnsolverDnXsyevdx(h, p, EJ(jobz), ER(range), EU(uplo), n, ET(ta), A, lda, &vl, &vu, il, iu, &meig, ET(tw), w.data(), ET(ta),
                            work.data(), dev, nullptr, 0, info.data());
  else
    st = trnsolverDnXsyevBatched(h, p, EJ(jobz), EU(uplo), n, ET(ta), A, lda, ET(tw), w.data(), ET(ta), work.data(), dev, nullptr, 0,
                                 info.data(), batch);
  expect_status(st, "unexpected X eigensolver status");
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(same_bytes(a, a0) && same_bytes(w, w0) && meig == -7, "X eigensolver wrote after rejecting");
    require(info[0] == -12345 || info[0] < 0, "X eigensolver info not -position");
  } else if (routine == 0) {
    require(info[0] == 0 || info[0] == n, "Xsyevd info neither 0 nor n");
  }
}

void fuzz_gesvd(trnfuzz::Input& in, trnsolverDnHandle_t h, trnsolverDnParams_t p) {
  const bool x = in.flag(2);
  const signed char jobu = static_cast<signed char>(in.choice({'A', 'S', 'O', 'N'}));
  const signed char jobvt = static_cast<signed char>(in.choice({'A', 'S', 'O', 'N'}));
  const int m = fuzz_dim(in), n = fuzz_dim(in);
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, m);
  const int ldu = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, m);
  const int ldvt = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const int t = x ? fuzz_type(in) : TRN_R_64F;
  const bool sized = m >= 0 && n >= 0 && m <= kMaxN && n <= kMaxN && lda >= std::max(1, m) && lda <= kMaxN + 2 &&
                     ldu >= 1 && ldu <= kMaxN + 2 && ldvt >= 1 && ldvt <= kMaxN + 2;
  std::vector<double> a = sized ? matrix<double>(in, m, n, lda, false) : std::vector<double>();
  a.resize(2 * a.size());  // complex types read twice the doubles
  std::vector<double> s(2 * kMaxN + 2, -1.0), u(2 * (kMaxN + 2) * (kMaxN + 2), 9.0), vt(u.size(), 9.0), work(8);
  const auto a0 = a, s0 = s, u0 = u, vt0 = vt;
  int info = -12345;
  double* A = a.empty() || in.flag(30) ? nullptr : a.data();
  trnsolverStatus_t st;
  if (x)
    st = trnsolverDnXgesvd(h, p, jobu, jobvt, m, n, ET(t), A, lda, ET(t), s.data(), ET(t), u.data(), ldu, ET(t),
                           vt.data(), ldvt, ET(t),
                           work.data(), in.flag(6) ? 0 : sizeof work[0] * work.size(), nullptr, 0, &info);
  else
    st = trnsolverDnDgesvd(h, jobu, jobvt, m, n, A, lda, s.data(), u.data(), ldu, vt.data(), ldvt, work.data(),
                           in.flag(6) ? 0 : 1, nullptr, &info);
  expect_status(st, "unexpected gesvd status");
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(same_bytes(a, a0) && same_bytes(s, s0) && same_bytes(u, u0) && same_bytes(vt, vt0),
            "gesvd wrote after rejecting");
    require(info == -12345 || info < 0, "gesvd info not -position");
    return;
  }
  bool finite = true;
  for (const double v : a0) finite = finite && std::isfinite(v);
  require(info >= 0 && info <= std::max(1, n), "gesvd info out of range");
  if (finite && info == 0 && t == TRN_R_64F)
    for (int k = 0; k < n; ++k) require(s[k] >= 0 && (k == 0 || s[k] <= s[k - 1]), "gesvd S not descending");
}

void fuzz_potrf_batched(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  const bool dbl = in.flag(2);
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int n = fuzz_dim(in), batch = in.byte() % 5 - 1, nrhs = in.flag(8) ? 2 : 1;  // batch in [-1, 3]
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const bool sized = n >= 0 && n <= kMaxN && lda >= std::max(1, n) && lda <= kMaxN + 2 && batch >= 0 && batch <= 3;
  std::vector<std::vector<double>> a, b;
  for (int k = 0; sized && k < batch; ++k) {
    a.push_back(matrix<double>(in, n, n, lda, true));
    for (int i = 0; i < n && !in.flag(5); ++i) a.back()[static_cast<std::size_t>(i + i * lda)] = std::fabs(a.back()[i + i * lda]) + 4.0 * n;
    b.push_back(std::vector<double>(static_cast<std::size_t>(lda) * nrhs, 1.0));
  }
  std::vector<std::vector<float>> af, bf;
  for (const auto& m : a) af.emplace_back(m.begin(), m.end());
  for (const auto& m : b) bf.emplace_back(m.begin(), m.end());
  std::vector<double*> pa, pb;
  std::vector<float*> pfa, pfb;
  for (int k = 0; k < static_cast<int>(a.size()); ++k) {
    const bool null = in.flag(20);
    pa.push_back(null ? nullptr : a[k].data());
    pb.push_back(b[k].data());
    pfa.push_back(null ? nullptr : af[k].data());
    pfb.push_back(bf[k].data());
  }
  std::vector<int> info(4, -12345);
  const auto a0 = a;
  const auto af0 = af;
  const trnsolverStatus_t st =
      dbl ? trnsolverDnDpotrfBatched(h, EU(uplo), n, pa.empty() ? nullptr : pa.data(), lda, info.data(), batch)
          : trnsolverDnSpotrfBatched(h, EU(uplo), n, pfa.empty() ? nullptr : pfa.data(), lda, info.data(), batch);
  expect_status(st, "unexpected potrfBatched status");
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(a.size() == a0.size() && af.size() == af0.size(), "potrfBatched changed the batch");
    for (std::size_t k = 0; k < a.size(); ++k)
      require(same_bytes(a[k], a0[k]) && same_bytes(af[k], af0[k]), "potrfBatched wrote after rejecting");
    return;
  }
  for (int k = 0; k < batch; ++k) require(info[static_cast<std::size_t>(k)] >= 0 && info[static_cast<std::size_t>(k)] <= n, "potrfBatched info out of range");
  int sinfo = -12345;
  const trnsolverStatus_t rs =
      dbl ? trnsolverDnDpotrsBatched(h, EU(uplo), n, nrhs, pa.empty() ? nullptr : pa.data(), lda,
                                     pb.empty() ? nullptr : pb.data(), lda, &sinfo, batch)
          : trnsolverDnSpotrsBatched(h, EU(uplo), n, nrhs, pfa.empty() ? nullptr : pfa.data(), lda,
                                     pfb.empty() ? nullptr : pfb.data(), lda, &sinfo, batch);
  expect_status(rs, "unexpected potrsBatched status");
  require(rs != TRNSOLVER_STATUS_SUCCESS || sinfo == 0, "potrsBatched success with info != 0");
  require(rs == TRNSOLVER_STATUS_SUCCESS || sinfo < 0, "potrsBatched rejected without -position");
}

// Complex factorisations and the Hermitian eigensolver family (C, Z): potrf, potrs, potri, getrf,
// getrs, heevd, hetrd, ungtr, unmtr with sizes, leading dimensions, uplo, jobz, side and trans (any
// int), pivots (in or out of [1, n]), workspace sizes (_bufferSize or less) and NULLs. Invariants:
// INVALID_VALUE writes nothing but info (= -position); a success has info 0 (solves, hetrd/ungtr/unmtr),
// in [0, n] (factorisations, heevd), heevd's W ascending for finite input.
template <class T, class R>
struct ComplexFactorApi {
  trnsolverStatus_t (*potrf_bs)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, int*);
  trnsolverStatus_t (*potrf)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, T*, int, int*);
  trnsolverStatus_t (*potrs)(trnsolverDnHandle_t, trnblasFillMode_t, int, int, const T*, int, T*, int, int*);
  trnsolverStatus_t (*potri)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, T*, int, int*);
  trnsolverStatus_t (*getrf_bs)(trnsolverDnHandle_t, int, int, T*, int, int*);
  trnsolverStatus_t (*getrf)(trnsolverDnHandle_t, int, int, T*, int, T*, int*, int*);
  trnsolverStatus_t (*getrs)(trnsolverDnHandle_t, trnblasOperation_t, int, int, const T*, int, const int*, T*, int,
                             int*);
  trnsolverStatus_t (*heevd_bs)(trnsolverDnHandle_t, trnsolverEigMode_t, trnblasFillMode_t, int, const T*, int,
                                const R*, int*);
  trnsolverStatus_t (*heevd)(trnsolverDnHandle_t, trnsolverEigMode_t, trnblasFillMode_t, int, T*, int, R*, T*, int,
                             int*);
  trnsolverStatus_t (*hetrd_bs)(trnsolverDnHandle_t, trnblasFillMode_t, int, const T*, int, const R*, const R*,
                                const T*, int*);
  trnsolverStatus_t (*hetrd)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, R*, R*, T*, T*, int, int*);
  trnsolverStatus_t (*ungtr_bs)(trnsolverDnHandle_t, trnblasFillMode_t, int, const T*, int, const T*, int*);
  trnsolverStatus_t (*ungtr)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, const T*, T*, int, int*);
  trnsolverStatus_t (*unmtr_bs)(trnsolverDnHandle_t, trnblasSideMode_t, trnblasFillMode_t, trnblasOperation_t, int,
                                int, const T*, int, const T*, const T*, int, int*);
  trnsolverStatus_t (*unmtr)(trnsolverDnHandle_t, trnblasSideMode_t, trnblasFillMode_t, trnblasOperation_t, int, int,
                             T*, int, T*, T*, int, T*, int, int*);
};

// The heevd family's calls (routine 5 heevd, 6 hetrd, 7 ungtr, 8 unmtr); A n x n (unmtr: order nq), B
// the m x nrhs C of unmtr. Returns the status; *bs_ok / *short_work: the _bufferSize call's success and
// whether lwork was cut below it.
template <class T, class R>
trnsolverStatus_t heevd_family_call(trnfuzz::Input& in, trnsolverDnHandle_t h, const ComplexFactorApi<T, R>& api,
                                    int routine, int uplo, int trans, int m, int n, T* A, int lda, T* B, int ldb,
                                    std::vector<R>& w, std::vector<T>& tau, int* info, bool* bs_ok, bool* short_work) {
  const int jobz = in.choice({TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR});
  const int side = in.choice({TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT});
  const auto U = [](int v) { return static_cast<trnblasFillMode_t>(v); };
  const auto S = [](int v) { return static_cast<trnblasSideMode_t>(v); };
  const auto O = [](int v) { return static_cast<trnblasOperation_t>(v); };
  const auto J = [](int v) { return static_cast<trnsolverEigMode_t>(v); };
  R* W = in.flag(12) ? nullptr : w.data();
  T* tp = in.flag(12) ? nullptr : tau.data();
  std::vector<R> e(w.size());
  int lwork = 0;
  trnsolverStatus_t bs;
  if (routine == 5) bs = api.heevd_bs(h, J(jobz), U(uplo), n, A, lda, W, &lwork);
  else if (routine == 6) bs = api.hetrd_bs(h, U(uplo), n, A, lda, W, e.data(), tp, &lwork);
  else if (routine == 7) bs = api.ungtr_bs(h, U(uplo), n, A, lda, tp, &lwork);
  else bs = api.unmtr_bs(h, S(side), U(uplo), O(trans), m, n, A, lda, tp, B, ldb, &lwork);
  *bs_ok = bs == TRNSOLVER_STATUS_SUCCESS;
  *short_work = in.flag(6) && lwork > 1;
  if (*short_work) lwork -= 1 + in.byte() % lwork;
  std::vector<T> work(static_cast<std::size_t>(std::max(lwork, 1)));
  if (routine == 5) return api.heevd(h, J(jobz), U(uplo), n, A, lda, W, work.data(), lwork, info);
  if (routine == 6) return api.hetrd(h, U(uplo), n, A, lda, W, e.data(), tp, work.data(), lwork, info);
  if (routine == 7) return api.ungtr(h, U(uplo), n, A, lda, tp, work.data(), lwork, info);
  return api.unmtr(h, S(side), U(uplo), O(trans), m, n, A, lda, tp, B, ldb, work.data(), lwork, info);
}

template <class T, class R>
void fuzz_complex_factor_typed(trnfuzz::Input& in, trnsolverDnHandle_t h, const ComplexFactorApi<T, R>& api) {
  constexpr int kParts = 2;
  const int routine = in.byte() % 9, m = fuzz_dim(in), n = fuzz_dim(in), nrhs = fuzz_dim(in);
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int trans = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C});
  const int rows = routine == 3 ? m : n;
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, rows);
  const int ldb = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const bool sized = m >= 0 && n >= 0 && nrhs >= 0 && m <= kMaxN && n <= kMaxN && nrhs <= kMaxN && lda >= 1 &&
                     lda <= kMaxN + 2 && ldb >= 1 && ldb <= kMaxN + 2;
  const int acols = std::max({n, routine == 8 ? nrhs : 0, 1});  // unmtr from the right: Q of order nrhs
  std::vector<R> a = sized ? matrix<R>(in, kParts * lda, acols, kParts * lda, false) : std::vector<R>();
  std::vector<R> b = sized ? matrix<R>(in, kParts * ldb, std::max(nrhs, 1), kParts * ldb, false) : std::vector<R>();
  if (sized && routine < 3 && lda >= n && !in.flag(4))  // mostly positive definite: n on the diagonal
    for (int i = 0; i < n; ++i) a[static_cast<std::size_t>(kParts * (i + i * lda))] += static_cast<R>(2 * n);
  std::vector<int> ipiv(kMaxN + 1);
  for (int& p : ipiv) p = in.flag(10) ? static_cast<int>(in.byte()) - 1 : 1;
  auto* A = a.empty() ? nullptr : reinterpret_cast<T*>(a.data());
  auto* B = b.empty() ? nullptr : reinterpret_cast<T*>(b.data());
  int* ip = in.flag(12) ? nullptr : ipiv.data();
  const auto U = [](int v) { return static_cast<trnblasFillMode_t>(v); };
  int lwork = 0, info = -12345;
  if (routine == 3) api.getrf_bs(h, m, n, A, lda, &lwork);
  else api.potrf_bs(h, U(uplo), n, A, lda, &lwork);
  std::vector<T> work(static_cast<std::size_t>(std::max(lwork, 1)));
  T* wp = in.flag(12) ? nullptr : work.data();
  const std::vector<R> a0 = a, b0 = b;
  const std::vector<int> ipiv0 = ipiv;
  std::vector<R> w(kMaxN + 1, R(-7));
  std::vector<T> tau(kMaxN + 1);
  bool bs_ok = false, short_work = false;
  trnsolverStatus_t st;
  if (routine >= 5)  // unmtr: Q of order n (side as drawn), C is B (m x nrhs -> the routine's m, n)
    st = heevd_family_call(in, h, api, routine, uplo, trans, routine == 8 ? n : m, routine == 8 ? nrhs : n, A, lda, B,
                           ldb, w, tau, &info, &bs_ok, &short_work);
  else if (routine == 0) st = api.potrf(h, U(uplo), n, A, lda, wp, lwork, &info);
  else if (routine == 1) st = api.potrs(h, U(uplo), n, nrhs, A, lda, B, ldb, &info);
  else if (routine == 2) st = api.potri(h, U(uplo), n, A, lda, wp, lwork, &info);
  else if (routine == 3) st = api.getrf(h, m, n, A, lda, wp, ip, &info);
  else st = api.getrs(h, static_cast<trnblasOperation_t>(trans), n, nrhs, A, lda, ip, B, ldb, &info);
  trnfuzz::reach("complex_factor_ok", st == TRNSOLVER_STATUS_SUCCESS && n > 0);
  if (st == TRNSOLVER_STATUS_INVALID_VALUE) {
    require(same_bytes(a, a0) && same_bytes(b, b0) && ipiv == ipiv0, "complex factor wrote after rejecting");
    require(info == -12345 || info < 0, "info of a rejected complex factor call is not -position");
  }
  if (st == TRNSOLVER_STATUS_SUCCESS) {
    const bool zero_info = routine == 1 || routine == 4 || routine >= 6;
    require(zero_info ? info == 0 : info >= 0 && info <= std::max(m, n), "complex factor / heevd info out of range");
  }
  if (st == TRNSOLVER_STATUS_SUCCESS && routine == 5 && info == 0)
    require(std::is_sorted(w.begin(), w.begin() + n), "heevd eigenvalues not ascending");
  require(!bs_ok || !short_work || st != TRNSOLVER_STATUS_SUCCESS, "heevd family accepted a workspace below _bufferSize");
  if (st == TRNSOLVER_STATUS_SUCCESS && routine == 3 && ip != nullptr)
    for (int i = 0; i < std::min(m, n); ++i)
      require(ipiv[static_cast<std::size_t>(i)] >= i + 1 && ipiv[static_cast<std::size_t>(i)] <= m,
              "complex getrf pivot outside [i+1, m]");
}

void fuzz_complex_factor(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  if (in.byte() % 2 == 0)
    fuzz_complex_factor_typed(in, h, ComplexFactorApi<trnComplex, float>{
                                         trnsolverDnCpotrf_bufferSize, trnsolverDnCpotrf, trnsolverDnCpotrs,
                                         trnsolverDnCpotri, trnsolverDnCgetrf_bufferSize, trnsolverDnCgetrf,
                                         trnsolverDnCgetrs, trnsolverDnCheevd_bufferSize, trnsolverDnCheevd,
                                         trnsolverDnChetrd_bufferSize, trnsolverDnChetrd, trnsolverDnCungtr_bufferSize,
                                         trnsolverDnCungtr, trnsolverDnCunmtr_bufferSize, trnsolverDnCunmtr});
  else
    fuzz_complex_factor_typed(in, h, ComplexFactorApi<trnDoubleComplex, double>{
                                         trnsolverDnZpotrf_bufferSize, trnsolverDnZpotrf, trnsolverDnZpotrs,
                                         trnsolverDnZpotri, trnsolverDnZgetrf_bufferSize, trnsolverDnZgetrf,
                                         trnsolverDnZgetrs, trnsolverDnZheevd_bufferSize, trnsolverDnZheevd,
                                         trnsolverDnZhetrd_bufferSize, trnsolverDnZhetrd, trnsolverDnZungtr_bufferSize,
                                         trnsolverDnZungtr, trnsolverDnZunmtr_bufferSize, trnsolverDnZunmtr});
}

// ---- complex Hermitian eigen and complex Jacobi (C, Z; a call slot after fuzz_complex_factor) ----------
// routine 0 heevdx, 1 hegvd, 2 hegvdx, 3 heevj, 4 heevjBatched, 5 hegvj, 6 gesvdj, 7 gesvdjBatched with
// sizes, leading dimensions, enums (any int), vl/vu/il/iu, econ, batch, max_sweeps, workspace (the
// _bufferSize value, or less for heevdx/hegvd(x)) and NULLs. Invariants: INVALID_VALUE writes nothing but
// info (= -position); a success has info in its documented range (heevdx {0, n}; hegvd(x)/hegvj [0, 2n];
// heevj {0, n + 1}; gesvdj {0, min(m, n) + 1}), and for finite data with info 0 W ascending (heevdx's
// first meig, heevj, hegvd) or S descending (gesvdj), heevdx/hegvdx range I: meig = iu - il + 1.
#define TRNFUZZ_CEIG(out, name, ...)        \
  if constexpr (kC)                         \
    out = trnsolverDnC##name(__VA_ARGS__);  \
  else                                      \
    out = trnsolverDnZ##name(__VA_ARGS__)
template <class T, class R>
void fuzz_complex_eig_typed(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  constexpr bool kC = std::is_same_v<T, trnComplex>;
  const int routine = in.byte() % 8, itype = in.choice({1, 2, 3}), econ = in.byte() % 2;
  const int jobz = in.choice({TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR});
  const int range = in.choice({TRNSOLVER_EIG_RANGE_ALL, TRNSOLVER_EIG_RANGE_I, TRNSOLVER_EIG_RANGE_V});
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int m = fuzz_dim(in), n = fuzz_dim(in), batch = static_cast<int>(in.size(3, false));
  const R vl = static_cast<R>(in.value()), vu = static_cast<R>(in.value());
  const int il = static_cast<int>(in.size(kMaxN, false)), iu = static_cast<int>(in.size(kMaxN, false));
  const bool svd = routine >= 6;
  const int rows = svd ? m : n, mn = std::min(m, n);
  const bool batched = routine == 4 || routine == 7;
  // info (and W/S) have batchSize entries: a batch beyond what the harness allocates is only passed
  // when another argument makes the call invalid (n, or gesvdjBatched's m, negative), never when the
  // library may write.
  if (batched && batch > 3 && n >= 0 && (routine == 4 || m >= 0)) return;
  const int count = batched ? std::clamp(batch, 1, 3) : 1;
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, rows);
  const int ldb = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, svd ? m : n);
  const int ldv = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const bool sized = m >= 0 && n >= 0 && m <= kMaxN && n <= kMaxN && lda >= 1 && lda <= kMaxN + 2 && ldb >= 1 &&
                     ldb <= kMaxN + 2 && ldv >= 1 && ldv <= kMaxN + 2 && batch <= 3;
  const int acols = sized ? std::max(1, n * count) : 1;
  std::vector<R> a = sized ? matrix<R>(in, 2 * lda, acols, 2 * lda, false) : std::vector<R>();
  std::vector<R> b = sized ? matrix<R>(in, 2 * ldb, std::max(1, svd ? m * count : n), 2 * ldb, false) : std::vector<R>();
  std::vector<R> v = sized ? std::vector<R>(static_cast<std::size_t>(2 * ldv * std::max(1, n * count)), R(-3)) : std::vector<R>();
  if (sized && !svd)
    for (int i = 0; i < std::min(n, ldb) && !in.flag(5); ++i)  // inside the 2 ldb x n buffer when ldb < n
      b[static_cast<std::size_t>(2 * (i + i * ldb))] += R(8 * n + 64);
  std::vector<R> w(static_cast<std::size_t>((kMaxN + 1) * count), R(-2));
  int meig = -7;
  int* mp = in.flag(12) ? nullptr : &meig;
  T* A = a.empty() || in.flag(30) ? nullptr : reinterpret_cast<T*>(a.data());
  T* B = b.empty() || in.flag(30) ? nullptr : reinterpret_cast<T*>(b.data());
  T* V = v.empty() || in.flag(30) ? nullptr : reinterpret_cast<T*>(v.data());
  R* W = in.flag(30) ? nullptr : w.data();
  syevjInfo_t sp = nullptr;
  gesvdjInfo_t gp = nullptr;
  trnsolverDnCreateSyevjInfo(&sp);
  trnsolverDnCreateGesvdjInfo(&gp);
  trnsolverDnXsyevjSetMaxSweeps(sp, 1 + in.byte() % 12);
  trnsolverDnXgesvdjSetMaxSweeps(gp, 1 + in.byte() % 12);
  int lwork = 0;
  trnsolverStatus_t bs = TRNSOLVER_STATUS_SUCCESS, st = TRNSOLVER_STATUS_SUCCESS;
  switch (routine) {
    case 0: TRNFUZZ_CEIG(bs, heevdx_bufferSize, h, EJ(jobz), ER(range), EU(uplo), n, A, lda, vl, vu, il, iu, mp, W, &lwork); break;
    case 1: TRNFUZZ_CEIG(bs, hegvd_bufferSize, h, EI(itype), EJ(jobz), EU(uplo), n, A, lda, B, ldb, W, &lwork); break;
    case 2: TRNFUZZ_CEIG(bs, hegvdx_bufferSize, h, EI(itype), EJ(jobz), ER(range), EU(uplo), n, A, lda, B, ldb, vl, vu, il, iu, mp, W, &lwork); break;
    case 3: TRNFUZZ_CEIG(bs, heevj_bufferSize, h, EJ(jobz), EU(uplo), n, A, lda, W, &lwork, sp); break;
    case 4: TRNFUZZ_CEIG(bs, heevjBatched_bufferSize, h, EJ(jobz), EU(uplo), n, A, lda, W, &lwork, sp, batch); break;
    case 5: TRNFUZZ_CEIG(bs, hegvj_bufferSize, h, EI(itype), EJ(jobz), EU(uplo), n, A, lda, B, ldb, W, &lwork, sp); break;
    case 6: TRNFUZZ_CEIG(bs, gesvdj_bufferSize, h, EJ(jobz), econ, m, n, A, lda, W, B, ldb, V, ldv, &lwork, gp); break;
    default: TRNFUZZ_CEIG(bs, gesvdjBatched_bufferSize, h, EJ(jobz), m, n, A, lda, W, B, ldb, V, ldv, &lwork, gp, batch);
  }
  const bool short_work = routine <= 2 && in.flag(6) && lwork > 1;
  if (short_work) lwork -= 1 + in.byte() % lwork;
  std::vector<T> work(static_cast<std::size_t>(std::max(lwork, 1)));
  const auto a0 = a, b0 = b, v0 = v, w0 = w;
  bool finite = true;
  for (const R x : a) finite = finite && std::isfinite(x);
  for (const R x : b) finite = finite && (svd || std::isfinite(x));
  std::vector<int> info(static_cast<std::size_t>(count), -12345);
  int* ip = in.flag(30) ? nullptr : info.data();
  T* wk = work.data();
  switch (routine) {
    case 0: TRNFUZZ_CEIG(st, heevdx, h, EJ(jobz), ER(range), EU(uplo), n, A, lda, vl, vu, il, iu, mp, W, wk, lwork, ip); break;
    case 1: TRNFUZZ_CEIG(st, hegvd, h, EI(itype), EJ(jobz), EU(uplo), n, A, lda, B, ldb, W, wk, lwork, ip); break;
    case 2: TRNFUZZ_CEIG(st, hegvdx, h, EI(itype), EJ(jobz), ER(range), EU(uplo), n, A, lda, B, ldb, vl, vu, il, iu, mp, W, wk, lwork, ip); break;
    case 3: TRNFUZZ_CEIG(st, heevj, h, EJ(jobz), EU(uplo), n, A, lda, W, wk, lwork, ip, sp); break;
    case 4: TRNFUZZ_CEIG(st, heevjBatched, h, EJ(jobz), EU(uplo), n, A, lda, W, wk, lwork, ip, sp, batch); break;
    case 5: TRNFUZZ_CEIG(st, hegvj, h, EI(itype), EJ(jobz), EU(uplo), n, A, lda, B, ldb, W, wk, lwork, ip, sp); break;
    case 6: TRNFUZZ_CEIG(st, gesvdj, h, EJ(jobz), econ, m, n, A, lda, W, B, ldb, V, ldv, wk, lwork, ip, gp); break;
    default: TRNFUZZ_CEIG(st, gesvdjBatched, h, EJ(jobz), m, n, A, lda, W, B, ldb, V, ldv, wk, lwork, ip, gp, batch);
  }
  trnsolverDnDestroySyevjInfo(sp);
  trnsolverDnDestroyGesvdjInfo(gp);
  trnfuzz::reach("complex_eig_ok", st == TRNSOLVER_STATUS_SUCCESS && n > 1 && info[0] == 0);
  require(st == TRNSOLVER_STATUS_SUCCESS || st == TRNSOLVER_STATUS_INVALID_VALUE || st == TRNSOLVER_STATUS_NOT_SUPPORTED,
          "unexpected complex eig status");
  if (st == TRNSOLVER_STATUS_INVALID_VALUE) {
    require(same_bytes(a, a0) && same_bytes(b, b0) && same_bytes(v, v0) && same_bytes(w, w0),
            "complex eig wrote after rejecting");
    require(info[0] == -12345 || info[0] < 0, "info of a rejected complex eig call is not -position");
    require(meig == -7, "heevdx/hegvdx wrote meig after rejecting an argument");
  }
  require(!short_work || bs != TRNSOLVER_STATUS_SUCCESS || st != TRNSOLVER_STATUS_SUCCESS,
          "heevdx/hegvd accepted a workspace below its _bufferSize");
  if (st != TRNSOLVER_STATUS_SUCCESS || (svd ? mn : n) == 0 || batch == 0) return;
  const int i0 = info[0], top = svd ? mn + 1 : routine == 0 ? n : routine == 3 || routine == 4 ? n + 1 : 2 * n;
  require(i0 >= 0 && i0 <= top, "complex eig info out of range");
  require(routine != 0 || i0 == 0 || i0 == n, "heevdx info neither 0 nor n");
  require(routine == 1 || routine == 2 || routine == 5 || i0 == 0 || i0 == top, "complex Jacobi info neither 0 nor top");
  if (!finite || i0 != 0) return;
  const int sorted = routine == 0 || routine == 2 ? meig : svd ? mn : n;
  if (routine != 4 && routine != 7) {
    if (svd) require(std::is_sorted(w.begin(), w.begin() + sorted, std::greater<>()), "gesvdj S not descending");
    else require(std::is_sorted(w.begin(), w.begin() + sorted), "complex eigenvalues not ascending");
  }
  if ((routine == 0 || routine == 2) && range == TRNSOLVER_EIG_RANGE_I) require(meig == iu - il + 1, "heevdx range I count");
}
#undef TRNFUZZ_CEIG

void fuzz_complex_eig(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  if (in.byte() % 2 == 0)
    fuzz_complex_eig_typed<trnComplex, float>(in, h);
  else
    fuzz_complex_eig_typed<trnDoubleComplex, double>(in, h);
}

// ---- IRS family (issue #27): <t1><t2>gesv (complex pairs, DD, SS) and <t1><t2>gels ----------------
// Shapes, leading dimensions, NULLs and workspace sizes from the grammar; the pair from a table per I/O
// type. Invariants: a rejected call writes nothing but d_info (= -position); a success has d_info >= 0
// and iter in [-50, 50] (the simple API's 50 iterations; -2 overflow, -3 singular low-precision factor).
template <class C>
struct IrsPairs {
  using Gesv = trnsolverStatus_t (*)(trnsolverDnHandle_t, int, int, C*, int, int*, C*, int, C*, int, void*, size_t,
                                     int*, int*);
  using GesvBuf = trnsolverStatus_t (*)(trnsolverDnHandle_t, int, int, C*, int, int*, C*, int, C*, int, void*,
                                        size_t*);
  using Gels = trnsolverStatus_t (*)(trnsolverDnHandle_t, int, int, int, C*, int, C*, int, C*, int, void*, size_t, int*,
                                     int*);
  using GelsBuf = trnsolverStatus_t (*)(trnsolverDnHandle_t, int, int, int, C*, int, C*, int, C*, int, void*, size_t*);
  std::vector<std::pair<GesvBuf, Gesv>> gesv;
  std::vector<std::pair<GelsBuf, Gels>> gels;
};
#define IRS_PAIR(P) {trnsolverDn##P##_bufferSize, trnsolverDn##P}
const IrsPairs<double> kIrsD{{IRS_PAIR(DDgesv), IRS_PAIR(DHgesv)},
                             {IRS_PAIR(DDgels), IRS_PAIR(DSgels), IRS_PAIR(DHgels), IRS_PAIR(DBgels), IRS_PAIR(DXgels)}};
const IrsPairs<float> kIrsS{{IRS_PAIR(SSgesv), IRS_PAIR(SBgesv)},
                            {IRS_PAIR(SSgels), IRS_PAIR(SHgels), IRS_PAIR(SBgels), IRS_PAIR(SXgels)}};
const IrsPairs<trnDoubleComplex> kIrsZ{
    {IRS_PAIR(ZZgesv), IRS_PAIR(ZCgesv), IRS_PAIR(ZKgesv), IRS_PAIR(ZEgesv), IRS_PAIR(ZYgesv)},
    {IRS_PAIR(ZZgels), IRS_PAIR(ZCgels), IRS_PAIR(ZKgels), IRS_PAIR(ZEgels), IRS_PAIR(ZYgels)}};
const IrsPairs<trnComplex> kIrsC{{IRS_PAIR(CCgesv), IRS_PAIR(CKgesv), IRS_PAIR(CEgesv), IRS_PAIR(CYgesv)},
                                 {IRS_PAIR(CCgels), IRS_PAIR(CKgels), IRS_PAIR(CEgels), IRS_PAIR(CYgels)}};
#undef IRS_PAIR

template <class C>
void fuzz_irs_family_typed(trnfuzz::Input& in, trnsolverDnHandle_t h, const IrsPairs<C>& pairs) {
  const bool ls = in.flag(2);
  auto dim = [&] { return static_cast<int>(std::clamp<std::int64_t>(in.size(kMaxN, false), INT32_MIN, INT32_MAX)); };
  const int n = dim(), m = ls ? dim() : n, nrhs = in.flag(8) ? dim() : 1;
  auto lead = [&](int want) { return in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, want); };
  const int lda = lead(m), ldb = lead(m), ldx = lead(n);
  auto fits = [](int v) { return v >= 0 && v <= kMaxN; };
  const bool sized = fits(m) && fits(n) && fits(nrhs) && fits(lda) && fits(ldb) && fits(ldx);
  using R = std::conditional_t<std::is_same_v<C, double> || std::is_same_v<C, trnDoubleComplex>, double, float>;
  constexpr int parts = std::is_floating_point_v<C> ? 1 : 2;
  auto buffer = [&](int ld, int cols) {
    std::vector<R> v(static_cast<std::size_t>(parts) * std::max(1, ld) * std::max(1, cols));
    for (R& x : v) x = static_cast<R>(in.value());
    return v;
  };
  std::vector<R> A = sized ? buffer(lda, n) : std::vector<R>(), B = sized ? buffer(ldb, nrhs) : std::vector<R>(1),
                 X = sized ? buffer(ldx, nrhs) : std::vector<R>(1);
  // The diagonal boost stays inside the buffer (lda x n) when a fuzzed lda is shorter than m.
  for (int i = 0; sized && i < std::min({m, n, lda}); ++i) A[static_cast<std::size_t>(parts) * (i + i * lda)] += 4 * n;
  const auto A0 = A, X0 = X;
  auto cptr = [](std::vector<R>& v) { return v.empty() ? nullptr : reinterpret_cast<C*>(v.data()); };
  std::vector<int> ipiv(static_cast<std::size_t>(sized ? std::max(1, n) : 1), -9);
  const auto ipiv0 = ipiv;
  int iter = -12345, info = -12345;
  size_t bytes = 0;
  trnsolverStatus_t st;
  if (!ls) {
    const auto& f = pairs.gesv[in.byte() % pairs.gesv.size()];
    f.first(h, n, nrhs, cptr(A), lda, ipiv.data(), cptr(B), ldb, cptr(X), ldx, nullptr, &bytes);
    std::vector<char> ws(std::min<size_t>(bytes, 1 << 20) + 1);
    const size_t lw = in.flag(6) ? bytes / 2 : bytes;
    st = f.second(h, n, nrhs, cptr(A), lda, in.flag(16) ? nullptr : ipiv.data(), cptr(B), ldb, cptr(X), ldx, ws.data(),
                  lw, &iter, &info);
  } else {
    const auto& f = pairs.gels[in.byte() % pairs.gels.size()];
    f.first(h, m, n, nrhs, cptr(A), lda, cptr(B), ldb, cptr(X), ldx, nullptr, &bytes);
    std::vector<char> ws(std::min<size_t>(bytes, 1 << 20) + 1);
    const size_t lw = in.flag(6) ? bytes / 2 : bytes;
    st = f.second(h, m, n, nrhs, cptr(A), lda, cptr(B), ldb, cptr(X), ldx, ws.data(), lw, &iter, &info);
  }
  require(st == TRNSOLVER_STATUS_SUCCESS || st == TRNSOLVER_STATUS_INVALID_VALUE, "unexpected IRS family status");
  if (st == TRNSOLVER_STATUS_INVALID_VALUE) {
    require(same_bytes(A, A0) && same_bytes(X, X0) && ipiv == ipiv0, "IRS family wrote after rejecting an argument");
    require(info == -12345 || (info < 0 && info >= -13), "IRS family d_info of a rejected call is not -position");
  } else {
    require(info >= 0 && iter >= -50 && iter <= 50, "IRS family info / iter out of range");
  }
}

void fuzz_irs_family(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  switch (in.byte() % 4) {
    case 0: fuzz_irs_family_typed(in, h, kIrsD); break;
    case 1: fuzz_irs_family_typed(in, h, kIrsS); break;
    case 2: fuzz_irs_family_typed(in, h, kIrsZ); break;
    default: fuzz_irs_family_typed(in, h, kIrsC); break;
  }
}
// ---- SVD family slot (svd helper, issue 27): S/D/C/Z gebrd, orgbr/ungbr, gesvdaStridedBatched, C/Z
// gesvd, Xgesvdp, Xgesvdr with sizes, leading dimensions, strides, enum values (valid and any int),
// workspace sizes (_bufferSize or less), NULLs and data types from the grammar, on data that may hold NaN
// and Inf. Invariants: statuses are cuSOLVER's; a rejected call writes nothing but info (= -position); a
// success has info >= 0 (gebrd, orgbr: 0; Xgesvdp: 0 or 1) and non-negative singular values for finite
// data. -------------------------------------------------------------------------------------------------
trnblasSideMode_t ES(int v) { return static_cast<trnblasSideMode_t>(v); }

template <class T, class R>
struct SvdFamilyApi {
  trnsolverStatus_t (*gebrd_bs)(trnsolverDnHandle_t, int, int, int*);
  trnsolverStatus_t (*gebrd)(trnsolverDnHandle_t, int, int, T*, int, R*, R*, T*, T*, T*, int, int*);
  trnsolverStatus_t (*orgbr_bs)(trnsolverDnHandle_t, trnblasSideMode_t, int, int, int, const T*, int, const T*, int*);
  trnsolverStatus_t (*orgbr)(trnsolverDnHandle_t, trnblasSideMode_t, int, int, int, T*, int, const T*, T*, int, int*);
  trnsolverStatus_t (*gesvda_bs)(trnsolverDnHandle_t, trnsolverEigMode_t, int, int, int, const T*, int, long long,
                                 const R*, long long, const T*, int, long long, const T*, int, long long, int*, int);
  trnsolverStatus_t (*gesvda)(trnsolverDnHandle_t, trnsolverEigMode_t, int, int, int, const T*, int, long long, R*,
                              long long, T*, int, long long, T*, int, long long, T*, int, int*, double*, int);
  trnsolverStatus_t (*gesvd_bs)(trnsolverDnHandle_t, int, int, int*);  // C/Z only (else nullptr)
  trnsolverStatus_t (*gesvd)(trnsolverDnHandle_t, signed char, signed char, int, int, T*, int, R*, T*, int, T*, int,
                             T*, int, R*, int*);
};

// The buffers of one SVD-family call: A and four outputs, each room for 2 matrices of (kMaxN + 2)^2
// complex doubles.
struct SvdBuffers {
  static constexpr std::size_t kElems = 4 * (kMaxN + 2) * (kMaxN + 2);
  std::vector<double> a, o1 = std::vector<double>(kElems, -2.0), o2 = o1, o3 = o1, o4 = o1;
  std::vector<int> info = std::vector<int>(4, -12345);
  std::vector<double> rn = std::vector<double>(4, -3.0);
  bool untouched(const SvdBuffers& b) const {
    return same_bytes(a, b.a) && same_bytes(o1, b.o1) && same_bytes(o2, b.o2) && same_bytes(o3, b.o3) &&
           same_bytes(o4, b.o4) && same_bytes(rn, b.rn);
  }
};

void check_svd_call(trnsolverStatus_t st, const SvdBuffers& b, const SvdBuffers& b0, const char* what) {
  expect_status(st, what);
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(b.untouched(b0), "SVD family wrote after rejecting an argument");
    require(b.info[0] == -12345 || b.info[0] < 0, "SVD family info of a rejected call is not -position");
  } else {
    require(b.info[0] >= 0, "SVD family info negative on success");
    trnfuzz::reach("svd_family_ok");
  }
  trnfuzz::reach("svd_family_rejected", st == TRNSOLVER_STATUS_INVALID_VALUE);
}

template <class T, class R>
void fuzz_svd_typed(trnfuzz::Input& in, trnsolverDnHandle_t h, const SvdFamilyApi<T, R>& api, int routine) {
  const int m = fuzz_dim(in), n = fuzz_dim(in), k = fuzz_dim(in), batch = in.flag(4) ? -1 : 1 + in.byte() % 2;
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, m);
  const int ld2 = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, std::max(m, n));
  const bool sized = m >= 0 && n >= 0 && m <= kMaxN && n <= kMaxN && lda >= 1 && lda <= kMaxN + 2 && ld2 >= 1 &&
                     ld2 <= kMaxN + 2;
  const int side = in.choice({TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT});
  const int jobz = in.choice({TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR});
  const signed char ju = static_cast<signed char>(in.choice({'A', 'S', 'O', 'N'}));
  const signed char jv = static_cast<signed char>(in.choice({'A', 'S', 'O', 'N'}));
  SvdBuffers b;
  b.a = sized ? matrix<double>(in, 2 * lda, n, 2 * lda, false) : std::vector<double>();
  b.a.resize(SvdBuffers::kElems, 0.5);
  T* A = !sized || in.flag(30) ? nullptr : reinterpret_cast<T*>(b.a.data());  // (unsized: lda may exceed the buffer)
  R* O1 = in.flag(30) ? nullptr : reinterpret_cast<R*>(b.o1.data());
  T* O2 = in.flag(30) ? nullptr : reinterpret_cast<T*>(b.o2.data());
  T* O3 = in.flag(30) ? nullptr : reinterpret_cast<T*>(b.o3.data());
  T* O4 = reinterpret_cast<T*>(b.o4.data());
  int lwork = 0;
  trnsolverStatus_t bs = TRNSOLVER_STATUS_SUCCESS;
  if (routine == 0) bs = api.gebrd_bs(h, m, n, &lwork);
  if (routine == 1) bs = api.orgbr_bs(h, ES(side), m, n, k, A, lda, O2, &lwork);
  const long long sa = static_cast<long long>(lda) * std::max(n, 0), su = static_cast<long long>(ld2) * std::max(k, 0);
  if (routine == 2)
    bs = api.gesvda_bs(h, EJ(jobz), k, m, n, A, lda, sa, O1, k, O2, ld2, su, O3, ld2, su, &lwork, batch);
  if (routine == 3) bs = api.gesvd_bs(h, m, n, &lwork);
  expect_status(bs, "unexpected SVD family _bufferSize status");
  if (bs != TRNSOLVER_STATUS_SUCCESS || lwork < 0 || lwork > static_cast<int>(SvdBuffers::kElems / 2)) lwork = 8;
  if (in.flag(6) && lwork > 0) lwork -= 1;
  const SvdBuffers b0 = b;
  trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
  int* info = in.flag(40) ? nullptr : b.info.data();
  if (routine == 0) st = api.gebrd(h, m, n, A, lda, O1, O1 == nullptr ? nullptr : O1 + kMaxN + 2, O2, O3, O4, lwork, info);
  if (routine == 1) st = api.orgbr(h, ES(side), m, n, k, A, lda, O2, O4, lwork, info);
  if (routine == 2)
    st = api.gesvda(h, EJ(jobz), k, m, n, A, lda, sa, O1, k, O2, ld2, su, O3, ld2, su, O4, lwork, info, b.rn.data(),
                    batch);
  if (routine == 3) st = api.gesvd(h, ju, jv, m, n, A, lda, O1, O2, ld2, O3, ld2, O4, lwork, nullptr, info);
  check_svd_call(st, b, b0, "unexpected SVD family status");
  if (st == TRNSOLVER_STATUS_SUCCESS && routine <= 1) require(b.info[0] == 0, "gebrd / orgbr info not 0");
}

void fuzz_svd_x(trnfuzz::Input& in, trnsolverDnHandle_t h, bool gesvdr) {
  trnsolverDnParams_t p = nullptr;
  trnsolverDnCreateParams(&p);
  const int m = fuzz_dim(in), n = fuzz_dim(in), k = fuzz_dim(in), pp = in.byte() % 4 - 1, it = in.byte() % 4 - 1;
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, m);
  const int ldu = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, m);
  const int ldv = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const bool sized = m >= 0 && n >= 0 && m <= kMaxN && n <= kMaxN && lda >= 1 && lda <= kMaxN + 2 && ldu >= 1 &&
                     ldu <= kMaxN + 2 && ldv >= 1 && ldv <= kMaxN + 2;
  const int ta = fuzz_type(in), ts = in.flag(8) ? fuzz_type(in) : (ta == TRN_C_32F ? TRN_R_32F : ta == TRN_C_64F ? TRN_R_64F : ta);
  const int jobz = in.choice({TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR}), econ = in.byte() % 3;
  const signed char ju = static_cast<signed char>(in.choice({'S', 'N', 'A'}));
  const signed char jv = static_cast<signed char>(in.choice({'S', 'N', 'A'}));
  SvdBuffers b;
  b.a = sized ? matrix<double>(in, 2 * lda, n, 2 * lda, false) : std::vector<double>();
  b.a.resize(SvdBuffers::kElems, 0.5);
  void* A = !sized || in.flag(30) ? nullptr : b.a.data();
  void* S = in.flag(30) ? nullptr : b.o1.data();
  void* U = in.flag(30) ? nullptr : b.o2.data();
  void* V = in.flag(30) ? nullptr : b.o3.data();
  size_t dev = 0, host = 0;
  const trnsolverStatus_t bs =
      gesvdr ? trnsolverDnXgesvdr_bufferSize(h, p, ju, jv, m, n, k, pp, it, ET(ta), A, lda, ET(ts), S, ET(ta), U, ldu,
                                             ET(ta), V, ldv, ET(ta), &dev, &host)
             : trnsolverDnXgesvdp_bufferSize(h, p, EJ(jobz), econ, m, n, ET(ta), A, lda, ET(ts), S, ET(ta), U, ldu,
                                             ET(ta), V, ldv, ET(ta), &dev, &host);
  expect_status(bs, "unexpected Xgesvdp / Xgesvdr _bufferSize status");
  if (bs != TRNSOLVER_STATUS_SUCCESS || dev > 64) dev = 16;
  if (in.flag(6) && dev > 0) dev -= 1;
  const SvdBuffers b0 = b;
  double err = -3.0;
  int* info = in.flag(40) ? nullptr : b.info.data();
  const trnsolverStatus_t st =
      gesvdr ? trnsolverDnXgesvdr(h, p, ju, jv, m, n, k, pp, it, ET(ta), A, lda, ET(ts), S, ET(ta), U, ldu, ET(ta), V,
                                  ldv, ET(ta), b.o4.data(), dev, nullptr, 0, info)
             : trnsolverDnXgesvdp(h, p, EJ(jobz), econ, m, n, ET(ta), A, lda, ET(ts), S, ET(ta), U, ldu, ET(ta), V, ldv,
                                  ET(ta), b.o4.data(), dev, nullptr, 0, info, &err);
  check_svd_call(st, b, b0, "unexpected Xgesvdp / Xgesvdr status");
  if (st != TRNSOLVER_STATUS_SUCCESS) require(err == -3.0, "Xgesvdp wrote h_err_sigma after rejecting");
  if (st == TRNSOLVER_STATUS_SUCCESS && !gesvdr) require(b.info[0] == 0 || b.info[0] == 1, "Xgesvdp info not 0 or 1");
  trnsolverDnDestroyParams(p);
}

void fuzz_svd_family(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  const int routine = in.byte() % 6;
  trnfuzz::reach(routine >= 4 ? "svd_family_x_call" : "svd_family_call");
  if (routine >= 4) {
    fuzz_svd_x(in, h, routine == 5);
    return;
  }
  switch (in.byte() % 4) {
    case 0:
      if (routine < 3)
        fuzz_svd_typed(in, h, SvdFamilyApi<float, float>{trnsolverDnSgebrd_bufferSize, trnsolverDnSgebrd,
                                                         trnsolverDnSorgbr_bufferSize, trnsolverDnSorgbr,
                                                         trnsolverDnSgesvdaStridedBatched_bufferSize,
                                                         trnsolverDnSgesvdaStridedBatched, nullptr, nullptr},
                       routine);
      break;
    case 1:
      if (routine < 3)
        fuzz_svd_typed(in, h, SvdFamilyApi<double, double>{trnsolverDnDgebrd_bufferSize, trnsolverDnDgebrd,
                                                           trnsolverDnDorgbr_bufferSize, trnsolverDnDorgbr,
                                                           trnsolverDnDgesvdaStridedBatched_bufferSize,
                                                           trnsolverDnDgesvdaStridedBatched, nullptr, nullptr},
                       routine);
      break;
    case 2:
      fuzz_svd_typed(in, h, SvdFamilyApi<trnComplex, float>{trnsolverDnCgebrd_bufferSize, trnsolverDnCgebrd,
                                                            trnsolverDnCungbr_bufferSize, trnsolverDnCungbr,
                                                            trnsolverDnCgesvdaStridedBatched_bufferSize,
                                                            trnsolverDnCgesvdaStridedBatched,
                                                            trnsolverDnCgesvd_bufferSize, trnsolverDnCgesvd},
                     routine);
      break;
    default:
      fuzz_svd_typed(in, h, SvdFamilyApi<trnDoubleComplex, double>{trnsolverDnZgebrd_bufferSize, trnsolverDnZgebrd,
                                                                   trnsolverDnZungbr_bufferSize, trnsolverDnZungbr,
                                                                   trnsolverDnZgesvdaStridedBatched_bufferSize,
                                                                   trnsolverDnZgesvdaStridedBatched,
                                                                   trnsolverDnZgesvd_bufferSize, trnsolverDnZgesvd},
                     routine);
  }
}
// ---- end of the SVD family slot ------------------------------------------------------------------------
// ---- misc (#27): sytrf / sytri / lauum / potri / laswp (S, D), Xsytrs, Xlarft, ZpotrfBatched, the
// math mode / emulation strategy / GetProperty / logger surface. Invariants: statuses are cuSOLVER's,
// a rejected call writes nothing but info (= -position), a workspace below _bufferSize is never
// accepted, sytrf's info is in [0, n] and its ipiv has LAPACK's pattern (Xsytrs accepts it back).
template <class T>
struct MiscApi {
  trnsolverStatus_t (*sytrf_bs)(trnsolverDnHandle_t, int, T*, int, int*);
  trnsolverStatus_t (*sytrf)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, int*, T*, int, int*);
  trnsolverStatus_t (*sytri)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, const int*, T*, int, int*);
  trnsolverStatus_t (*lauum)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, T*, int, int*);
  trnsolverStatus_t (*potri)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, T*, int, int*);
  trnsolverStatus_t (*laswp)(trnsolverDnHandle_t, int, T*, int, int, int, const int*, int);
  trnDataType_t x_type;
};

template <class T>
void fuzz_misc_typed(trnfuzz::Input& in, trnsolverDnHandle_t h, const MiscApi<T>& api) {
  const int routine = in.byte() % 5, n = fuzz_dim(in);
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const bool sized = n >= 0 && n <= kMaxN && lda >= 1 && lda <= kMaxN + 2;
  const int ld = std::max(lda, n);  // the buffer's leading dimension (lda < n is rejected before any read)
  std::vector<T> a = sized ? matrix<T>(in, n, n, ld, true) : std::vector<T>(1, T(0));
  for (int i = 0; sized && i < n && routine == 3 && !in.flag(6); ++i) a[static_cast<std::size_t>(i + i * ld)] += T(2);
  std::vector<int> ipiv(static_cast<std::size_t>(std::max(1, sized ? n : 1)), 1);
  int lwork = 0;
  const bool bs_ok = api.sytrf_bs(h, n, sized ? a.data() : nullptr, lda, &lwork) == TRNSOLVER_STATUS_SUCCESS;
  const bool short_work = in.flag(6);
  const int lw = bs_ok ? (short_work ? lwork - 1 : lwork) : static_cast<int>(in.size(4, false));
  std::vector<T> work(static_cast<std::size_t>(std::clamp(lw, 1, kMaxN * 64 + 1)));
  T* A = sized && !in.flag(20) ? a.data() : nullptr;
  const auto a0 = a;
  const auto ipiv0 = ipiv;
  int info = -12345;
  trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
  const int lwork_arg = std::min(lw, static_cast<int>(work.size()));
  if (routine == 0) {
    st = api.sytrf(h, EU(uplo), n, A, lda, ipiv.data(), work.data(), lwork_arg, &info);
    require(!bs_ok || !short_work || st != TRNSOLVER_STATUS_SUCCESS || n == 0, "sytrf accepted a workspace below _bufferSize");
    if (st == TRNSOLVER_STATUS_SUCCESS && n > 0) {
      require(info >= 0 && info <= n, "sytrf info out of [0, n]");
      std::vector<std::int64_t> p64(ipiv.begin(), ipiv.begin() + n);
      std::vector<double> b(static_cast<std::size_t>(std::max(1, n)), 1.0);
      std::vector<char> buf(64);
      int xinfo = -12345;
      const trnsolverStatus_t xs =
          trnsolverDnXsytrs(h, EU(uplo), n, 1, api.x_type, a.data(), lda, p64.data(), api.x_type, b.data(), n,
                            buf.data(), buf.size(), nullptr, 0, &xinfo);
      require(xs == TRNSOLVER_STATUS_SUCCESS && xinfo == 0, "Xsytrs rejected sytrf's own pivots");
      std::size_t xdev = 0, xhost = 0;  // its workspace query, same arguments (#27 acceptance audit)
      require(trnsolverDnXsytrs_bufferSize(h, EU(uplo), n, 1, api.x_type, a.data(), lda, p64.data(), api.x_type, b.data(), n,
                                           &xdev, &xhost) == TRNSOLVER_STATUS_SUCCESS,
              "Xsytrs_bufferSize rejected the arguments Xsytrs accepted");
      trnfuzz::reach("sytrf_ok", true);
    }
  } else if (routine == 1) {
    // The workspace is n long only for a sized n (a fuzzed n near INT_MAX would allocate gigabytes; A is
    // null then, so the call is rejected before any workspace is touched).
    std::vector<T> w(static_cast<std::size_t>(sized ? std::max(1, n) : 1));
    for (int k = 0; k < static_cast<int>(ipiv.size()); ++k) {  // any pivot, negated in int64 (INT_MIN has no int negation)
      const std::int64_t v = in.size(kMaxN, false);
      ipiv[static_cast<std::size_t>(k)] = static_cast<int>(std::clamp<std::int64_t>(in.flag(4) ? -v : v, INT32_MIN, INT32_MAX));
    }
    const auto ip0 = ipiv;
    st = api.sytri(h, EU(uplo), n, A, lda, ipiv.data(), w.data(), in.flag(8) ? 0 : static_cast<int>(w.size()), &info);
    require(ipiv == ip0, "sytri wrote ipiv");
  } else if (routine == 2 || routine == 3) {
    st = (routine == 2 ? api.lauum : api.potri)(h, EU(uplo), n, A, lda, work.data(), in.flag(10) ? 0 : 1, &info);
    if (st == TRNSOLVER_STATUS_SUCCESS) require(routine == 2 ? info == 0 : info >= 0 && info <= n, "lauum / potri info");
  } else {
    const int k1 = static_cast<int>(in.size(4, false)), k2 = static_cast<int>(in.size(kMaxN, false));
    const int incx = in.choice({1, -1});
    std::vector<int> piv(static_cast<std::size_t>(kMaxN + 2));
    for (auto& p : piv) p = static_cast<int>(in.size(kMaxN + 2, false));
    const bool fits = k1 >= 1 && k2 >= k1 && k2 <= kMaxN + 2;
    st = api.laswp(h, n, A, lda, k1, k2, fits ? piv.data() : nullptr, incx);
  }
  expect_status(st, "unexpected misc status");
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(same_bytes(a, a0) && (routine == 1 || ipiv == ipiv0), "misc routine wrote after rejecting");  // 1: sytri's own ipiv
    require(info == -12345 || info < 0, "info of a rejected misc call is not -position");
  }
}

void fuzz_misc(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  const int which = in.byte() % 5;
  if (which == 0)
    return fuzz_misc_typed(in, h, MiscApi<float>{trnsolverDnSsytrf_bufferSize, trnsolverDnSsytrf, trnsolverDnSsytri,
                                                 trnsolverDnSlauum, trnsolverDnSpotri, trnsolverDnSlaswp, TRN_R_32F});
  if (which == 1)
    return fuzz_misc_typed(in, h, MiscApi<double>{trnsolverDnDsytrf_bufferSize, trnsolverDnDsytrf, trnsolverDnDsytri,
                                                  trnsolverDnDlauum, trnsolverDnDpotri, trnsolverDnDlaswp, TRN_R_64F});
  if (which == 2) {  // Xlarft: types, direct, storev (any int), sizes, workspace
    trnsolverDnParams_t p = nullptr;
    trnsolverDnCreateParams(&p);
    const int n = fuzz_dim(in), k = fuzz_dim(in), ldv = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
    const int dt = in.choice({TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F});
    const int dir = in.choice({TRNBLAS_DIRECT_FORWARD, TRNBLAS_DIRECT_BACKWARD});
    const int sv = in.choice({TRNBLAS_STOREV_COLUMNWISE, TRNBLAS_STOREV_ROWWISE});
    const bool sized = n >= 0 && n <= kMaxN && k >= 0 && k <= kMaxN && ldv >= 1 && ldv <= kMaxN + 2;
    std::vector<double> v = sized ? matrix<double>(in, std::max(n, 1), std::max(k, 1), 2 * (kMaxN + 2), false)
                                  : std::vector<double>(1);
    std::vector<double> tau(static_cast<std::size_t>(2 * kMaxN + 2), 1.5), t(static_cast<std::size_t>(2 * (kMaxN + 2) * (kMaxN + 2)), 0.0);
    std::vector<char> buf(32);
    const auto t0 = t;
    size_t dev = 0, host = 0;
    const auto T = [](int x) { return static_cast<trnDataType_t>(x); };
    trnsolverDnXlarft_bufferSize(h, p, static_cast<trnsolverDirectMode_t>(dir), static_cast<trnsolverStorevMode_t>(sv), n, k,
                                 T(dt), v.data(), ldv, T(dt), tau.data(), T(dt), t.data(), std::max(1, k), T(dt), &dev, &host);
    const trnsolverStatus_t st = trnsolverDnXlarft(
        h, p, static_cast<trnsolverDirectMode_t>(dir), static_cast<trnsolverStorevMode_t>(sv), n, k, T(dt),
        sized ? v.data() : nullptr, ldv, T(dt), tau.data(), T(dt), t.data(), in.flag(8) ? 0 : std::max(1, k), T(dt),
        buf.data(), in.flag(6) ? 1 : buf.size(), nullptr, 0);
    expect_status(st, "unexpected Xlarft status");
    if (st != TRNSOLVER_STATUS_SUCCESS) require(same_bytes(t, t0), "Xlarft wrote after rejecting");
    trnsolverDnDestroyParams(p);
    return;
  }
  if (which == 3) {  // ZpotrfBatched on one matrix
    const int n = fuzz_dim(in), lda = std::max(1, n);
    const bool sized = n >= 0 && n <= kMaxN;
    std::vector<trnDoubleComplex> z(static_cast<std::size_t>(sized ? lda * std::max(n, 1) : 1), trnDoubleComplex{0, 0});
    for (int i = 0; sized && i < n; ++i) z[static_cast<std::size_t>(i + i * lda)] = trnDoubleComplex{in.value(), 0};
    trnDoubleComplex* arr[] = {sized ? z.data() : nullptr};
    int info = -12345;
    const trnsolverStatus_t st = trnsolverDnZpotrfBatched(h, EU(in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER})),
                                                          n, arr, lda, &info, 1);
    expect_status(st, "unexpected ZpotrfBatched status");
    if (st == TRNSOLVER_STATUS_SUCCESS) require(info >= 0 && info <= n, "ZpotrfBatched info out of range");
    return;
  }
  // the handle surface: any int for the enums
  const int mode = in.choice({TRNSOLVER_DEFAULT_MATH, TRNSOLVER_FP32_EMULATED_BF16X9_MATH});
  const trnsolverStatus_t ms = trnsolverDnSetMathMode(h, static_cast<trnsolverMathMode_t>(mode));
  require((ms == TRNSOLVER_STATUS_SUCCESS) == (mode == 1 || mode == 2), "SetMathMode accepted an illegal mode");
  const int strat = in.choice({TRN_EMULATION_STRATEGY_DEFAULT, TRN_EMULATION_STRATEGY_PERFORMANT, TRN_EMULATION_STRATEGY_EAGER});
  const trnsolverStatus_t es = trnsolverDnSetEmulationStrategy(h, static_cast<trnEmulationStrategy_t>(strat));
  require((es == TRNSOLVER_STATUS_SUCCESS) == (strat >= 0 && strat <= 2), "SetEmulationStrategy accepted an illegal value");
  int value = -1;
  const int prop = in.choice({MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL});
  const trnsolverStatus_t ps = trnsolverGetProperty(static_cast<libraryPropertyType>(prop), &value);
  require((ps == TRNSOLVER_STATUS_SUCCESS) == (prop >= 0 && prop <= 2), "GetProperty status");
  expect_status(trnsolverDnLoggerSetLevel(in.choice({0, 1, 5})), "unexpected LoggerSetLevel status");
  trnsolverDnLoggerForceDisable();
  // The rest of the logger surface and GetVersion (#27 acceptance audit: the entry points no slot called),
  // deterministic (no input consumed, so the grammar and the corpus keep their meaning). The FILE* the
  // logger holds is released by ForceDisable before it is closed.
  int version = -1;
  require(trnsolverGetVersion(&version) == TRNSOLVER_STATUS_SUCCESS && version > 0, "GetVersion");
  require(trnsolverDnLoggerSetMask(32) == TRNSOLVER_STATUS_INVALID_VALUE, "LoggerSetMask accepted 32");
  expect_status(trnsolverDnLoggerSetMask(1), "unexpected LoggerSetMask status");
  require(trnsolverDnLoggerSetFile(nullptr) == TRNSOLVER_STATUS_INVALID_VALUE, "LoggerSetFile accepted NULL");
  if (std::FILE* f = std::fopen("/dev/null", "w")) {
    require(trnsolverDnLoggerSetFile(f) == TRNSOLVER_STATUS_SUCCESS, "LoggerSetFile rejected a stream");
    trnsolverDnLoggerForceDisable();
    std::fclose(f);
  }
  expect_status(trnsolverDnLoggerOpenFile("/dev/null"), "unexpected LoggerOpenFile status");
  require(trnsolverDnLoggerSetCallback([](int, const char*, const char*) {}) == TRNSOLVER_STATUS_SUCCESS,
          "LoggerSetCallback");
  require(trnsolverDnLoggerSetCallback(nullptr) == TRNSOLVER_STATUS_SUCCESS, "LoggerSetCallback(NULL)");
  trnsolverDnLoggerForceDisable();
}

// ---- Xgeev slot (geev helper, issue 27): Xgeev_bufferSize + Xgeev with jobvl / jobvr (valid and any int),
// sizes, leading dimensions, the five data types (W also the complex type of a real A), workspace sizes
// (_bufferSize or less), NULLs and a NULL params from the grammar, on data that may hold NaN and Inf.
// Buffers: A and VR hold (kMaxN + 2)^2 complex doubles, W 2 (kMaxN + 2) complex doubles -- more than any
// accepted call writes (n <= kMaxN and lda, ldvr <= kMaxN + 2 when real buffers are passed; NULL otherwise,
// which the checks reject). Invariants: statuses are cuSOLVER's; a rejected call writes nothing but info
// (= -position); a success has 0 <= info <= n. ------------------------------------------------------------
void fuzz_geev(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  trnsolverDnParams_t p = nullptr;
  trnsolverDnCreateParams(&p);
  const int n = fuzz_dim(in);
  const int jobvl = in.flag(6) ? TRNSOLVER_EIG_MODE_VECTOR : in.choice({TRNSOLVER_EIG_MODE_NOVECTOR});
  const int jobvr = in.choice({TRNSOLVER_EIG_MODE_VECTOR, TRNSOLVER_EIG_MODE_NOVECTOR});
  const int ta = fuzz_type(in), tc = in.flag(8) ? fuzz_type(in) : ta, tv = in.flag(8) ? fuzz_type(in) : ta;
  const int cplx_of_a = ta == TRN_R_32F ? TRN_C_32F : ta == TRN_R_64F ? TRN_C_64F : ta;
  const int tw = in.flag(8) ? fuzz_type(in) : in.flag() ? cplx_of_a : ta;
  const std::int64_t lda = in.flag(8) ? in.size(3, true) : std::max(1, n);
  const std::int64_t ldvl = in.flag(8) ? in.size(2, true) : 1;
  const std::int64_t ldvr = in.flag(8) ? in.size(3, true) : std::max(1, n);
  const bool sized = n >= 0 && n <= kMaxN && lda >= std::max(1, n) && lda <= kMaxN + 2 && ldvr >= 1 &&
                     ldvr <= kMaxN + 2;
  constexpr std::size_t kMat = 2 * (kMaxN + 2) * (kMaxN + 2);
  std::vector<double> A(kMat, 0.0), W(4 * (kMaxN + 2), -2.0), VR(kMat, -3.0);
  if (sized) {
    const bool single = ta == TRN_R_32F || ta == TRN_C_32F;
    const int parts = ta == TRN_C_32F || ta == TRN_C_64F ? 2 : 1;
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < lda * parts; ++i) {
        const float v = in.value();
        if (single) reinterpret_cast<float*>(A.data())[i + j * lda * parts] = v;
        else A[static_cast<std::size_t>(i + j * lda * parts)] = v;
      }
  }
  void* a = sized && !in.flag(16) ? A.data() : nullptr;
  void* w = sized && !in.flag(16) ? W.data() : nullptr;
  void* vr = sized && !in.flag(16) ? VR.data() : nullptr;
  trnsolverDnParams_t pp = in.flag(16) ? nullptr : p;
  const auto E = [](int v) { return static_cast<trnsolverEigMode_t>(v); };
  const auto D = [](int v) { return static_cast<trnDataType_t>(v); };
  size_t dev = 0, host = 0;
  const trnsolverStatus_t bs = trnsolverDnXgeev_bufferSize(h, pp, E(jobvl), E(jobvr), n, D(ta), a, lda, D(tw), w, D(tv),
                                                           nullptr, ldvl, D(tv), vr, ldvr, D(tc), &dev, &host);
  expect_status(bs, "Xgeev_bufferSize status");
  if (bs != TRNSOLVER_STATUS_SUCCESS) dev = host = 8;
  require(dev <= (std::size_t{1} << 26) && host <= (std::size_t{1} << 26), "Xgeev_bufferSize above the sized bound");
  if (in.flag(8)) dev /= 2;
  if (in.flag(8)) host /= 2;
  std::vector<char> dw(std::max<std::size_t>(dev, 1)), hw(std::max<std::size_t>(host, 1));
  const std::vector<double> A0 = A, W0 = W, VR0 = VR;
  int info = -12345;
  const trnsolverStatus_t st =
      trnsolverDnXgeev(h, pp, E(jobvl), E(jobvr), n, D(ta), a, lda, D(tw), w, D(tv), nullptr, ldvl, D(tv), vr, ldvr,
                       D(tc), in.flag(16) ? nullptr : dw.data(), dev, in.flag(16) ? nullptr : hw.data(), host,
                       in.flag(32) ? nullptr : &info);
  expect_status(st, "Xgeev status");
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(same_bytes(A, A0) && same_bytes(W, W0) && same_bytes(VR, VR0), "Xgeev wrote after rejecting an argument");
    require(info == -12345 || info < 0, "Xgeev info of a rejected call is not -position");
  } else {
    require(info >= 0 && info <= n, "Xgeev info out of [0, n] on success");
    trnfuzz::reach("geev_ok");
  }
  trnfuzz::reach("geev_rejected", st == TRNSOLVER_STATUS_INVALID_VALUE);
  trnsolverDnDestroyParams(p);
}
// ---- end of the Xgeev slot -------------------------------------------------------------------------------

// ---- gaps slot (#27 fuzz gaps): the entry points no earlier slot reaches -------------------------------------
// routine 0 sytrf / sytri / lauum / potri / laswp with their _bufferSize twins (S, D, C, Z), 1 C/Z potrfBatched
// + potrsBatched, 2 DSgesv / DBgesv / DXgesv / SXgesv, 3 IRSXgels with every params setter and infos getter, 4
// Sgesvd and the S/D/X gesvd _bufferSize, 5 Xpotrf + Xpotrs, 6 DsyevjBatched, 7 Dsygvj (+ S/D _bufferSize), 8 the
// syevj / gesvdj info setters and getters, SetAdvOptions and the handle surface, 9 Dgetrf/Dgetrs, Dpotrf/Dpotrs,
// Sgetrs/Spotrs. Buffers: every matrix the library may write holds (kMaxN + 2)^2 elements of the widest type
// the call may name, info arrays the batch. Invariants: statuses are cuSOLVER's; a rejected call writes
// nothing but info (= -position); a success has info in the routine's documented range.
template <class T>
struct GapsMiscApi {
  trnsolverStatus_t (*sytrf_bs)(trnsolverDnHandle_t, int, T*, int, int*);
  trnsolverStatus_t (*sytrf)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, int*, T*, int, int*);
  trnsolverStatus_t (*sytri_bs)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, const int*, int*);
  trnsolverStatus_t (*sytri)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, const int*, T*, int, int*);
  trnsolverStatus_t (*lauum_bs)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, int*);
  trnsolverStatus_t (*lauum)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, T*, int, int*);
  trnsolverStatus_t (*potri_bs)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, int*);
  trnsolverStatus_t (*potri)(trnsolverDnHandle_t, trnblasFillMode_t, int, T*, int, T*, int, int*);
  trnsolverStatus_t (*laswp)(trnsolverDnHandle_t, int, T*, int, int, int, const int*, int);
};

// The workspace of a _bufferSize answer (or a fuzzed size when it failed), at most kMaxN * 64 + 1 elements:
// the lwork passed is never above the buffer.
template <class T>
std::vector<T> gaps_work(trnfuzz::Input& in, bool bs_ok, int lwork, bool* short_work) {
  *short_work = bs_ok && lwork > 0 && in.flag(6);
  const int lw = bs_ok ? (*short_work ? lwork - 1 : lwork) : static_cast<int>(in.size(4, false));
  return std::vector<T>(static_cast<std::size_t>(std::clamp(lw, 1, kMaxN * 64 + 1)));
}

template <class T>
int gaps_lwork(const std::vector<T>& work, bool bs_ok, int lwork, bool short_work) {
  const int want = bs_ok ? (short_work ? lwork - 1 : lwork) : static_cast<int>(work.size());
  return std::min(want, static_cast<int>(work.size()));
}

template <class T, class R>
void fuzz_gaps_misc(trnfuzz::Input& in, trnsolverDnHandle_t h, const GapsMiscApi<T>& api) {
  constexpr int kParts = static_cast<int>(sizeof(T) / sizeof(R));
  const int routine = in.byte() % 5, n = fuzz_dim(in);
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const bool sized = n >= 0 && n <= kMaxN && lda >= 1 && lda <= kMaxN + 2;
  const int ld = std::max(lda, n);  // the buffer's leading dimension (lda < n is rejected before any read)
  std::vector<R> a = sized ? matrix<R>(in, kParts * ld, std::max(n, 1), kParts * ld, false) : std::vector<R>(kParts, R(0));
  for (int i = 0; sized && i < n && !in.flag(6); ++i) a[static_cast<std::size_t>(kParts * (i + i * ld))] += R(2 * n + 2);
  T* A = sized && !in.flag(20) ? reinterpret_cast<T*>(a.data()) : nullptr;
  std::vector<int> ipiv(static_cast<std::size_t>(kMaxN + 2), 1);
  const auto U = [](int v) { return static_cast<trnblasFillMode_t>(v); };
  int lwork = 0, info = -12345;
  bool short_work = false;
  trnsolverStatus_t st;
  std::vector<R> a0 = a;
  if (routine == 0) {  // sytrf, then sytri on its own factors (and pivots) when it succeeded
    const bool bs_ok = api.sytrf_bs(h, n, A, lda, &lwork) == TRNSOLVER_STATUS_SUCCESS;
    std::vector<T> work = gaps_work<T>(in, bs_ok, lwork, &short_work);
    st = api.sytrf(h, U(uplo), n, A, lda, ipiv.data(), work.data(), gaps_lwork(work, bs_ok, lwork, short_work), &info);
    require(!bs_ok || !short_work || st != TRNSOLVER_STATUS_SUCCESS, "sytrf accepted a workspace below _bufferSize");
    if (st == TRNSOLVER_STATUS_SUCCESS) {
      require(info >= 0 && info <= n, "sytrf info out of [0, n]");
      for (int i = 0; i < n; ++i) require(ipiv[static_cast<std::size_t>(i)] != 0 && std::abs(ipiv[i]) <= n, "sytrf pivot out of range");
      trnfuzz::reach("gaps_sytrf_ok", n > 0);
      if (info == 0 && n > 0) {  // sytri on sytrf's factors: info 0 (D nonsingular)
        int swork = 0, sinfo = -12345;
        const bool sbs = api.sytri_bs(h, U(uplo), n, A, lda, ipiv.data(), &swork) == TRNSOLVER_STATUS_SUCCESS;
        require(sbs && swork >= 1, "sytri_bufferSize rejected sytrf's own output");
        std::vector<T> w(static_cast<std::size_t>(std::clamp(swork, 1, kMaxN * 64 + 1)));
        const auto ip0 = ipiv;
        const trnsolverStatus_t s2 = api.sytri(h, U(uplo), n, A, lda, ipiv.data(), w.data(),
                                               std::min(swork, static_cast<int>(w.size())), &sinfo);
        require(s2 == TRNSOLVER_STATUS_SUCCESS && sinfo == 0, "sytri failed on sytrf's nonsingular factors");
        require(ipiv == ip0, "sytri wrote ipiv");
      }
    }
    a0 = a;  // the checks below are about the last call
  } else if (routine == 1) {  // sytri on fuzzed pivots
    for (int k = 0; k < static_cast<int>(ipiv.size()); ++k) {
      const std::int64_t v = in.size(kMaxN, false);
      ipiv[static_cast<std::size_t>(k)] = static_cast<int>(std::clamp<std::int64_t>(in.flag(4) ? -v : v, INT32_MIN, INT32_MAX));
    }
    const bool bs_ok = api.sytri_bs(h, U(uplo), n, A, lda, ipiv.data(), &lwork) == TRNSOLVER_STATUS_SUCCESS;
    std::vector<T> work = gaps_work<T>(in, bs_ok, lwork, &short_work);
    const auto ip0 = ipiv;
    st = api.sytri(h, U(uplo), n, A, lda, ipiv.data(), work.data(), gaps_lwork(work, bs_ok, lwork, short_work), &info);
    require(ipiv == ip0, "sytri wrote ipiv");
    require(!bs_ok || !short_work || st != TRNSOLVER_STATUS_SUCCESS, "sytri accepted a workspace below _bufferSize");
  } else if (routine == 2 || routine == 3) {  // lauum / potri with their _bufferSize
    const bool bs_ok = (routine == 2 ? api.lauum_bs : api.potri_bs)(h, U(uplo), n, A, lda, &lwork) == TRNSOLVER_STATUS_SUCCESS;
    std::vector<T> work = gaps_work<T>(in, bs_ok, lwork, &short_work);
    st = (routine == 2 ? api.lauum : api.potri)(h, U(uplo), n, A, lda, work.data(),
                                                gaps_lwork(work, bs_ok, lwork, short_work), &info);
    if (st == TRNSOLVER_STATUS_SUCCESS) require(routine == 2 ? info == 0 : info >= 0 && info <= n, "lauum / potri info");
  } else {  // laswp: pivots in or out of [1, lda], k1..k2 inside the pivot buffer or a NULL ipiv
    const int k1 = static_cast<int>(in.size(4, false)), k2 = static_cast<int>(in.size(kMaxN, false));
    const int incx = in.choice({1, -1});
    for (auto& p : ipiv) p = static_cast<int>(in.size(kMaxN + 2, false));
    const bool fits = k1 >= 1 && k2 >= k1 && k2 <= kMaxN + 2;
    st = api.laswp(h, n, A, lda, k1, k2, fits ? ipiv.data() : nullptr, incx);
  }
  expect_status(st, "unexpected gaps misc status");
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(same_bytes(a, a0), "gaps misc routine wrote after rejecting");
    require(info == -12345 || info < 0, "info of a rejected gaps misc call is not -position");
  }
}

template <class R>
bool same_batch(const std::vector<std::vector<R>>& a, const std::vector<std::vector<R>>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (!same_bytes(a[k], b[k])) return false;
  return true;
}

// C/Z potrfBatched + potrsBatched: batch in [-1, 3] (info holds 4), NULL entries in the arrays.
template <class T, class R>
void fuzz_gaps_potrf_batched(trnfuzz::Input& in, trnsolverDnHandle_t h,
                             trnsolverStatus_t (*potrf)(trnsolverDnHandle_t, trnblasFillMode_t, int, T**, int, int*, int),
                             trnsolverStatus_t (*potrs)(trnsolverDnHandle_t, trnblasFillMode_t, int, int, T**, int, T**,
                                                        int, int*, int)) {
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int n = fuzz_dim(in), batch = in.byte() % 5 - 1, nrhs = in.flag(8) ? 2 : 1;
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const int ldb = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const bool sized = n >= 0 && n <= kMaxN && lda >= std::max(1, n) && lda <= kMaxN + 2 && ldb >= 1 &&
                     ldb <= kMaxN + 2 && batch >= 0 && batch <= 3;
  std::vector<std::vector<R>> a, b;
  for (int k = 0; sized && k < batch; ++k) {
    a.push_back(matrix<R>(in, 2 * n, n, 2 * lda, false));
    for (int i = 0; i < n && !in.flag(5); ++i) a.back()[static_cast<std::size_t>(2 * (i + i * lda))] += R(4 * n + 4);
    b.push_back(std::vector<R>(static_cast<std::size_t>(2 * std::max(ldb, n) * nrhs), R(1)));
  }
  std::vector<T*> pa, pb;
  for (std::size_t k = 0; k < a.size(); ++k) {
    pa.push_back(in.flag(20) ? nullptr : reinterpret_cast<T*>(a[k].data()));
    pb.push_back(reinterpret_cast<T*>(b[k].data()));
  }
  std::vector<int> info(4, -12345);
  const auto a0 = a, b0 = b;
  const trnsolverStatus_t st = potrf(h, EU(uplo), n, pa.empty() ? nullptr : pa.data(), lda, info.data(), batch);
  expect_status(st, "unexpected C/Z potrfBatched status");
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(same_batch(a, a0), "C/Z potrfBatched wrote after rejecting");
    return;
  }
  for (int k = 0; k < batch; ++k) require(info[static_cast<std::size_t>(k)] >= 0 && info[static_cast<std::size_t>(k)] <= n, "C/Z potrfBatched info out of range");
  trnfuzz::reach("gaps_cpotrf_batched_ok", batch > 0 && n > 0);
  int sinfo = -12345;
  const auto a1 = a;
  const trnsolverStatus_t rs = potrs(h, EU(uplo), n, nrhs, pa.empty() ? nullptr : pa.data(), lda,
                                     pb.empty() ? nullptr : pb.data(), in.flag(10) ? 0 : ldb, &sinfo, batch);
  expect_status(rs, "unexpected C/Z potrsBatched status");
  require(rs != TRNSOLVER_STATUS_SUCCESS || sinfo == 0, "C/Z potrsBatched success with info != 0");
  require(rs == TRNSOLVER_STATUS_SUCCESS || (sinfo < 0 && same_batch(b, b0)), "C/Z potrsBatched rejected without -position or wrote B");
  require(same_batch(a, a1), "potrsBatched wrote A");
}

// IRS statuses (INVALID_VALUE and the IRS_* family of cuSOLVER's IRS API).
bool irs_status(trnsolverStatus_t st) {
  return st == TRNSOLVER_STATUS_SUCCESS || st == TRNSOLVER_STATUS_INVALID_VALUE || st == TRNSOLVER_STATUS_NOT_SUPPORTED ||
         (st >= TRNSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED && st <= TRNSOLVER_STATUS_IRS_MATRIX_SINGULAR);
}

// IRSXgels with every params setter (main / lowest precision, Tol, TolInner, fallback) and infos getter.
// Buffers hold complex doubles (the widest main precision) at the fuzzed leading dimensions.
void fuzz_gaps_irs_xgels(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  const int m = fuzz_dim(in), n = fuzz_dim(in), nrhs = in.flag(4) ? fuzz_dim(in) : 1;
  auto lead = [&](int want) { return in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, want); };
  const int lda = lead(m), ldb = lead(m), ldx = lead(n);
  auto fits = [](int v) { return v >= 0 && v <= kMaxN + 2; };
  const bool sized = fits(m) && fits(n) && fits(nrhs) && m <= kMaxN && n <= kMaxN && nrhs <= kMaxN && lda >= 1 &&
                     fits(lda) && ldb >= 1 && fits(ldb) && ldx >= 1 && fits(ldx);
  const std::size_t cap = 2 * static_cast<std::size_t>(kMaxN + 2) * (kMaxN + 2);
  std::vector<double> A(cap), B(cap), X(cap, -3.0);
  for (std::size_t i = 0; sized && i < static_cast<std::size_t>(2 * lda * n); ++i) A[i] = in.value();
  for (std::size_t i = 0; sized && i < static_cast<std::size_t>(2 * ldb * nrhs); ++i) B[i] = in.value();
  const int main = in.choice({TRNSOLVER_R_64F, TRNSOLVER_R_32F, TRNSOLVER_C_64F, TRNSOLVER_C_32F});
  const int lowest = in.choice({TRNSOLVER_R_64F, TRNSOLVER_R_32F, TRNSOLVER_R_16F, TRNSOLVER_R_16BF, TRNSOLVER_R_TF32,
                                TRNSOLVER_C_64F, TRNSOLVER_C_32F, TRNSOLVER_C_16F, TRNSOLVER_C_16BF, TRNSOLVER_C_TF32});
  trnsolverDnIRSParams_t p = nullptr;
  trnsolverDnIRSInfos_t inf = nullptr;
  trnsolverDnIRSParamsCreate(&p);
  trnsolverDnIRSInfosCreate(&inf);
  trnsolverDnIRSParamsSetRefinementSolver(p, static_cast<trnsolverIRSRefinement_t>(in.choice(
      {TRNSOLVER_IRS_REFINE_CLASSICAL, TRNSOLVER_IRS_REFINE_NONE, TRNSOLVER_IRS_REFINE_GMRES, TRNSOLVER_IRS_REFINE_NOT_SET})));
  expect_status(trnsolverDnIRSParamsSetSolverMainPrecision(p, static_cast<trnsolverPrecType_t>(main)), "SetSolverMainPrecision");
  if (in.flag(2))
    expect_status(trnsolverDnIRSParamsSetSolverLowestPrecision(p, static_cast<trnsolverPrecType_t>(lowest)),
                  "SetSolverLowestPrecision");
  const double tols[] = {0.0, 1e-12, 1e-3, -1.0, std::numeric_limits<double>::quiet_NaN()};
  expect_status(trnsolverDnIRSParamsSetTol(p, tols[in.byte() % 5]), "SetTol status");
  expect_status(trnsolverDnIRSParamsSetTolInner(p, tols[in.byte() % 5]), "SetTolInner status");
  trnsolverDnIRSParamsSetMaxIters(p, 1 + in.byte() % 8);
  if (in.flag(2)) trnsolverDnIRSParamsDisableFallback(p);
  if (in.flag(2)) require(trnsolverDnIRSParamsEnableFallback(p) == TRNSOLVER_STATUS_SUCCESS, "EnableFallback");
  if (in.flag(2)) trnsolverDnIRSInfosRequestResidual(inf);
  size_t bytes = 0;
  const trnsolverStatus_t bs = trnsolverDnIRSXgels_bufferSize(h, in.flag(16) ? nullptr : p, m, n, nrhs, &bytes);
  require(irs_status(bs), "unexpected IRSXgels_bufferSize status");
  std::vector<char> ws(std::min<size_t>(bytes, 1 << 20) + 1);
  const size_t lw = std::min(in.flag(6) ? bytes / 2 : bytes, ws.size());
  const auto A0 = A, X0 = X;
  int niters = -12345, info = -12345;
  const trnsolverStatus_t st =
      trnsolverDnIRSXgels(h, in.flag(16) ? nullptr : p, in.flag(16) ? nullptr : inf, m, n, nrhs,
                          sized && !in.flag(20) ? A.data() : nullptr, lda, B.data(), ldb, X.data(), ldx, ws.data(), lw,
                          &niters, &info);
  require(irs_status(st), "unexpected IRSXgels status");
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(same_bytes(A, A0) && same_bytes(X, X0), "IRSXgels wrote after rejecting");
    require(info == -12345 || info < 0, "IRSXgels info of a rejected call is not -position");
  } else {
    require(info >= 0 && info <= n, "IRSXgels info out of [0, n]");
    int it = -1, outer = -1, maxit = -1;
    require(trnsolverDnIRSInfosGetNiters(inf, &it) == TRNSOLVER_STATUS_SUCCESS && it == niters, "GetNiters != niters");
    require(trnsolverDnIRSInfosGetOuterNiters(inf, &outer) == TRNSOLVER_STATUS_SUCCESS, "GetOuterNiters status");
    require(trnsolverDnIRSInfosGetMaxIters(inf, &maxit) == TRNSOLVER_STATUS_SUCCESS && maxit >= 1, "GetMaxIters");
    require(niters <= maxit && (niters >= -maxit || niters == -2 || niters == -3), "IRSXgels niters out of range");
    trnfuzz::reach("gaps_irsxgels_ok", n > 0);
  }
  trnsolverDnIRSInfosDestroy(inf);
  trnsolverDnIRSParamsDestroy(p);
}

// Sgesvd (m >= n as cuSOLVER) with its _bufferSize, the D/X _bufferSize twins: U, VT (kMaxN + 2)^2.
void fuzz_gaps_sgesvd(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  const signed char jobu = static_cast<signed char>(in.choice({'A', 'S', 'O', 'N'}));
  const signed char jobvt = static_cast<signed char>(in.choice({'A', 'S', 'O', 'N'}));
  const int m = fuzz_dim(in), n = fuzz_dim(in);
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, m);
  const int ldu = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, m);
  const int ldvt = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const bool sized = m >= 0 && n >= 0 && m <= kMaxN && n <= kMaxN && lda >= std::max(1, m) && lda <= kMaxN + 2 &&
                     ldu >= 1 && ldu <= kMaxN + 2 && ldvt >= 1 && ldvt <= kMaxN + 2;
  std::vector<float> a = sized ? matrix<float>(in, m, n, lda, false) : std::vector<float>(1);
  std::vector<float> s(kMaxN + 2, -1.0f), u((kMaxN + 2) * (kMaxN + 2), 9.0f), vt(u.size(), 9.0f);
  int lwork = 0, dlwork = 0;
  const bool bs_ok = trnsolverDnSgesvd_bufferSize(h, m, n, &lwork) == TRNSOLVER_STATUS_SUCCESS;
  expect_status(trnsolverDnDgesvd_bufferSize(h, m, n, &dlwork), "Dgesvd_bufferSize status");
  size_t dev = 0, host = 0;
  const int t = fuzz_type(in);
  expect_status(trnsolverDnXgesvd_bufferSize(h, nullptr, jobu, jobvt, m, n, ET(t), a.data(), lda, ET(t), s.data(), ET(t),
                                             u.data(), ldu, ET(t), vt.data(), ldvt, ET(t), &dev, &host),
                "Xgesvd_bufferSize status");
  bool short_work = false;
  std::vector<float> work = gaps_work<float>(in, bs_ok, lwork, &short_work);
  const auto a0 = a, s0 = s, u0 = u, vt0 = vt;
  int info = -12345;
  const trnsolverStatus_t st =
      trnsolverDnSgesvd(h, jobu, jobvt, m, n, sized && !in.flag(20) ? a.data() : nullptr, lda, s.data(), u.data(), ldu,
                        vt.data(), ldvt, work.data(), gaps_lwork(work, bs_ok, lwork, short_work), nullptr, &info);
  expect_status(st, "unexpected Sgesvd status");
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(same_bytes(a, a0) && same_bytes(s, s0) && same_bytes(u, u0) && same_bytes(vt, vt0), "Sgesvd wrote after rejecting");
    require(info == -12345 || info < 0, "Sgesvd info not -position");
    return;
  }
  require(info >= 0 && info <= std::max(1, n), "Sgesvd info out of range");
  bool finite = sized;
  for (int j = 0; sized && j < n; ++j)
    for (int i = 0; i < m; ++i) finite = finite && std::isfinite(a0[static_cast<std::size_t>(i + j * lda)]);
  if (finite && info == 0) {
    trnfuzz::reach("gaps_sgesvd_ok", n > 0);
    for (int k = 0; k < std::min(m, n); ++k) require(s[k] >= 0 && (k == 0 || s[k] <= s[k - 1]), "Sgesvd S not descending");
  }
}

// Xpotrf + Xpotrs: the four data types (and any int), NULL params, workspace from _bufferSize or less.
void fuzz_gaps_xpotrf(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  trnsolverDnParams_t p = nullptr;
  trnsolverDnCreateParams(&p);
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int ta = fuzz_type(in), tc = in.flag(8) ? fuzz_type(in) : ta, tb = in.flag(8) ? fuzz_type(in) : ta;
  const std::int64_t n = in.size(kMaxN, true), nrhs = in.flag(4) ? in.size(3, true) : 1;
  const std::int64_t lda = in.flag(8) ? in.size(3, true) : std::max<std::int64_t>(1, n);
  const std::int64_t ldb = in.flag(8) ? in.size(3, true) : std::max<std::int64_t>(1, n);
  const bool sized = n >= 0 && n <= kMaxN && lda >= std::max<std::int64_t>(1, n) && lda <= kMaxN + 2 && ldb >= 1 &&
                     ldb <= kMaxN + 2 && nrhs >= 0 && nrhs <= 3;
  const std::size_t cap = 2 * static_cast<std::size_t>(kMaxN + 2) * (kMaxN + 2);
  std::vector<double> A(cap, 0.0), B(cap, 1.0);
  // The matrix is written in the element type the call names (the bytes of a double buffer).
  const bool single = ta == TRN_R_32F || ta == TRN_C_32F;
  const int parts = ta == TRN_C_32F || ta == TRN_C_64F ? 2 : 1;
  for (std::int64_t j = 0; sized && j < n; ++j)
    for (std::int64_t i = 0; i < n * parts; ++i) {
      const double v = in.value() + (i == j * parts ? 4.0 * n + 4 : 0.0);
      if (single) reinterpret_cast<float*>(A.data())[i + j * lda * parts] = static_cast<float>(v);
      else A[static_cast<std::size_t>(i + j * lda * parts)] = v;
    }
  size_t dev = 0, host = 0;
  void* a = sized && !in.flag(20) ? A.data() : nullptr;
  trnsolverDnParams_t pp = in.flag(16) ? nullptr : p;
  const trnsolverStatus_t bs = trnsolverDnXpotrf_bufferSize(h, pp, EU(uplo), n, ET(ta), a, lda, ET(tc), &dev, &host);
  expect_status(bs, "Xpotrf_bufferSize status");
  if (bs != TRNSOLVER_STATUS_SUCCESS) dev = host = 8;
  dev = std::min<size_t>(dev, 1 << 16);
  host = std::min<size_t>(host, 1 << 16);
  if (in.flag(8) && dev > 0) dev -= 1;
  std::vector<char> dw(dev + 1), hw(host + 1);
  const auto A0 = A;
  int info = -12345;
  const trnsolverStatus_t st = trnsolverDnXpotrf(h, pp, EU(uplo), n, ET(ta), a, lda, ET(tc), dw.data(), dev, hw.data(), host,
                                                 in.flag(32) ? nullptr : &info);
  expect_status(st, "Xpotrf status");
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(same_bytes(A, A0), "Xpotrf wrote after rejecting");
    require(info == -12345 || info < 0, "Xpotrf info not -position");
  } else {
    require(info >= 0 && info <= n, "Xpotrf info out of [0, n]");
  }
  const auto A1 = A, B0 = B;
  int sinfo = -12345;
  const trnsolverStatus_t rs = trnsolverDnXpotrs(h, pp, EU(uplo), n, nrhs, ET(ta), a, lda, ET(tb), B.data(), ldb, &sinfo);
  expect_status(rs, "Xpotrs status");
  require(same_bytes(A, A1), "Xpotrs wrote A");
  if (rs != TRNSOLVER_STATUS_SUCCESS) require(same_bytes(B, B0) && sinfo < 0, "Xpotrs wrote after rejecting");
  else require(sinfo == 0, "Xpotrs success with info != 0");
  trnfuzz::reach("gaps_xpotrs_ok", rs == TRNSOLVER_STATUS_SUCCESS && n > 0);
  trnsolverDnDestroyParams(p);
}

// DsyevjBatched (batch clamped to the harness's info): per matrix info in [0, n + 1], converged finite
// matrices give ascending eigenvalues.
void fuzz_gaps_dsyevj_batched(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  constexpr int kMaxBatch = 3, kN = 16;
  const int jobz = in.choice({TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR});
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int n = static_cast<int>(std::clamp<std::int64_t>(in.size(kN, false), INT32_MIN, INT32_MAX));
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const int batch = static_cast<int>(std::clamp<std::int64_t>(in.size(kMaxBatch, false), INT32_MIN, kMaxBatch));
  const bool sized = n >= 0 && n <= kN && lda >= std::max(1, n) && lda <= kN + 2 && batch >= 0;
  syevjInfo_t params = nullptr;
  trnsolverDnCreateSyevjInfo(&params);
  trnsolverDnXsyevjSetMaxSweeps(params, 1 + in.byte() % 12);
  const std::size_t msz = sized ? static_cast<std::size_t>(lda) * static_cast<std::size_t>(n) : 0;
  std::vector<double> A, W;
  for (int k = 0; sized && k < batch; ++k) {
    const std::vector<double> a = matrix<double>(in, n, n, lda, true);
    A.insert(A.end(), a.begin(), a.begin() + static_cast<std::ptrdiff_t>(msz));
  }
  if (sized) W.assign(static_cast<std::size_t>(std::max(1, n * batch)), 0.0);
  if (sized && A.empty()) A.assign(1, 0.0);
  int lwork = 0;
  const bool bs_ok = trnsolverDnDsyevjBatched_bufferSize(h, EJ(jobz), EU(uplo), n, A.empty() ? nullptr : A.data(), lda,
                                                         W.empty() ? nullptr : W.data(), &lwork, params, batch) ==
                     TRNSOLVER_STATUS_SUCCESS;
  bool short_work = false;
  std::vector<double> work = gaps_work<double>(in, bs_ok, lwork, &short_work);
  std::vector<int> info(kMaxBatch, -12345);
  const auto A0 = A, W0 = W;
  const trnsolverStatus_t st =
      trnsolverDnDsyevjBatched(h, EJ(jobz), EU(uplo), n, A.empty() ? nullptr : A.data(), lda, W.empty() ? nullptr : W.data(),
                               work.data(), gaps_lwork(work, bs_ok, lwork, short_work), info.data(), params, batch);
  expect_status(st, "unexpected DsyevjBatched status");
  if (st != TRNSOLVER_STATUS_SUCCESS) require(same_bytes(A, A0) && same_bytes(W, W0), "DsyevjBatched wrote after rejecting");
  for (int k = 0; st == TRNSOLVER_STATUS_SUCCESS && sized && k < batch; ++k) {
    const int ik = info[static_cast<std::size_t>(k)];
    require(ik >= 0 && ik <= n + 1, "DsyevjBatched info out of range");
    bool finite = true;
    for (std::size_t i = 0; i < msz; ++i) finite = finite && std::isfinite(A0[k * msz + i]);
    if (ik != 0 || !finite) continue;
    trnfuzz::reach("gaps_dsyevj_batched_ok", n > 1);
    const double* w = W.data() + static_cast<std::size_t>(k) * n;
    for (int i = 1; i < n; ++i) require(w[i - 1] <= w[i], "DsyevjBatched eigenvalues not ascending");
  }
  trnsolverDnDestroySyevjInfo(params);
}

// Dsygvj with its _bufferSize (and Ssygvj's): B positive definite most of the time.
void fuzz_gaps_dsygvj(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  const int itype = in.choice({1, 2, 3});
  const int jobz = in.choice({TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR});
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int n = static_cast<int>(std::clamp<std::int64_t>(in.size(10, false), INT32_MIN, INT32_MAX));
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const int ldb = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const bool fits = n >= 0 && n <= 10 && lda >= std::max(1, n) && lda <= 12 && ldb >= std::max(1, n) && ldb <= 12;
  std::vector<double> A = fits ? matrix<double>(in, n, n, lda, true) : std::vector<double>();
  std::vector<double> B = fits ? matrix<double>(in, n, n, ldb, true) : std::vector<double>();
  for (int i = 0; fits && i < n && !in.flag(5); ++i)
    B[static_cast<std::size_t>(i + i * ldb)] = std::fabs(B[static_cast<std::size_t>(i + i * ldb)]) + 8.0 * n + 64.0;
  std::vector<double> W(fits ? static_cast<std::size_t>(std::max(n, 1)) : 0, -2.0);
  syevjInfo_t params = nullptr;
  trnsolverDnCreateSyevjInfo(&params);
  auto ptr = [&](std::vector<double>& v) { return v.empty() || in.flag(30) ? nullptr : v.data(); };
  double* pa = ptr(A);
  double* pb = ptr(B);
  double* pw = ptr(W);
  const auto IT = [](int v) { return static_cast<trnsolverEigType_t>(v); };
  int lwork = 0, slwork = 0;
  const bool bs_ok = trnsolverDnDsygvj_bufferSize(h, IT(itype), EJ(jobz), EU(uplo), n, pa, lda, pb, ldb, pw, &lwork,
                                                  params) == TRNSOLVER_STATUS_SUCCESS;
  std::vector<float> af(A.begin(), A.end()), bf(B.begin(), B.end()), wf(W.begin(), W.end());
  expect_status(trnsolverDnSsygvj_bufferSize(h, IT(itype), EJ(jobz), EU(uplo), n, pa ? af.data() : nullptr, lda,
                                             pb ? bf.data() : nullptr, ldb, pw ? wf.data() : nullptr, &slwork, params),
                "Ssygvj_bufferSize status");
  bool short_work = false;
  std::vector<double> work = gaps_work<double>(in, bs_ok, lwork, &short_work);
  const auto A0 = A, B0 = B, W0 = W;
  int info = -12345;
  const trnsolverStatus_t st = trnsolverDnDsygvj(h, IT(itype), EJ(jobz), EU(uplo), n, pa, lda, pb, ldb, pw, work.data(),
                                                 gaps_lwork(work, bs_ok, lwork, short_work), &info, params);
  expect_status(st, "unexpected Dsygvj status");
  if (st != TRNSOLVER_STATUS_SUCCESS)
    require(same_bytes(A, A0) && same_bytes(B, B0) && same_bytes(W, W0) && info <= 0, "Dsygvj wrote after rejecting");
  if (st == TRNSOLVER_STATUS_SUCCESS && fits && n > 0) {
    require(info >= 0 && info <= 2 * n, "Dsygvj info out of range");
    if (info > n + 1) require(same_bytes(A, A0) && same_bytes(W, W0), "Dsygvj wrote with B not PD");
    trnfuzz::reach("gaps_dsygvj_ok", info == 0);
  }
  trnsolverDnDestroySyevjInfo(params);
}

// The syevj / gesvdj info setters and getters around a small Ssyevj / Sgesvdj (tolerance, sort: any value;
// a setter rejects what cuSOLVER rejects), the S/D gesvdj(Batched) _bufferSize, SetAdvOptions (any int), and
// the handle surface (stream, deterministic mode, math mode, emulation strategy, cores).
void fuzz_gaps_params(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  const double tols[] = {0.0, 1e-7, 1e-14, -1.0, std::numeric_limits<double>::quiet_NaN(), 1e300};
  const int n = static_cast<int>(in.byte() % 9);
  std::vector<float> a = matrix<float>(in, n, n, std::max(1, n), true), w(static_cast<std::size_t>(n + 1));
  syevjInfo_t sp = nullptr;
  trnsolverDnCreateSyevjInfo(&sp);
  expect_status(trnsolverDnXsyevjSetTolerance(sp, tols[in.byte() % 6]), "XsyevjSetTolerance status");
  expect_status(trnsolverDnXsyevjSetSortEig(sp, in.choice({0, 1})), "XsyevjSetSortEig status");
  trnsolverDnXsyevjSetMaxSweeps(sp, 1 + in.byte() % 8);
  float work[2];
  int info = -12345;
  const auto J = [](int v) { return static_cast<trnsolverEigMode_t>(v); };
  const trnsolverStatus_t st = trnsolverDnSsyevj(h, J(TRNSOLVER_EIG_MODE_VECTOR), EU(TRNBLAS_FILL_MODE_LOWER), n, a.data(),
                                                 std::max(1, n), w.data(), work, 1, &info, sp);
  expect_status(st, "Ssyevj status (params slot)");
  double residual = -1;
  int sweeps = -1;
  const trnsolverStatus_t rs = trnsolverDnXsyevjGetResidual(h, sp, &residual);
  const trnsolverStatus_t ss = trnsolverDnXsyevjGetSweeps(h, sp, &sweeps);
  expect_status(rs, "XsyevjGetResidual status");
  expect_status(ss, "XsyevjGetSweeps status");
  if (st == TRNSOLVER_STATUS_SUCCESS && info == 0 && ss == TRNSOLVER_STATUS_SUCCESS)
    require(sweeps >= 0 && sweeps <= 8, "Xsyevj sweeps beyond max_sweeps");
  trnsolverDnDestroySyevjInfo(sp);
  gesvdjInfo_t gp = nullptr;
  trnsolverDnCreateGesvdjInfo(&gp);
  expect_status(trnsolverDnXgesvdjSetTolerance(gp, tols[in.byte() % 6]), "XgesvdjSetTolerance status");
  expect_status(trnsolverDnXgesvdjSetSortEig(gp, in.choice({0, 1})), "XgesvdjSetSortEig status");
  const int m = std::max(n, 1), ld = std::max(1, m);
  std::vector<float> s(static_cast<std::size_t>(m)), u(static_cast<std::size_t>(ld * m)), v(u.size());
  std::vector<double> ad(a.begin(), a.end()), sd(s.size()), ud(u.size()), vd(v.size());
  ad.resize(std::max<std::size_t>(ad.size(), 1));
  a.resize(ad.size());
  int lw = 0;
  const int econ = in.byte() % 2;
  expect_status(trnsolverDnSgesvdj_bufferSize(h, J(TRNSOLVER_EIG_MODE_VECTOR), econ, n, n, a.data(), ld, s.data(), u.data(),
                                              ld, v.data(), ld, &lw, gp), "Sgesvdj_bufferSize status");
  expect_status(trnsolverDnDgesvdj_bufferSize(h, J(TRNSOLVER_EIG_MODE_VECTOR), econ, n, n, ad.data(), ld, sd.data(),
                                              ud.data(), ld, vd.data(), ld, &lw, gp), "Dgesvdj_bufferSize status");
  expect_status(trnsolverDnSgesvdjBatched_bufferSize(h, J(in.choice({TRNSOLVER_EIG_MODE_VECTOR})), n, n, a.data(), ld,
                                                     s.data(), u.data(), ld, v.data(), ld, &lw, gp, 1),
                "SgesvdjBatched_bufferSize status");
  expect_status(trnsolverDnDgesvdjBatched_bufferSize(h, J(TRNSOLVER_EIG_MODE_VECTOR), n, n, ad.data(), ld, sd.data(),
                                                     ud.data(), ld, vd.data(), ld, &lw, gp, static_cast<int>(in.size(2, false))),
                "DgesvdjBatched_bufferSize status");
  float gw[2];
  const trnsolverStatus_t gs = trnsolverDnSgesvdj(h, J(TRNSOLVER_EIG_MODE_VECTOR), econ, n, n, a.data(), ld, s.data(),
                                                  u.data(), ld, v.data(), ld, gw, 1, &info, gp);
  expect_status(gs, "Sgesvdj status (params slot)");
  expect_status(trnsolverDnXgesvdjGetResidual(h, gp, &residual), "XgesvdjGetResidual status");
  expect_status(trnsolverDnXgesvdjGetSweeps(h, gp, &sweeps), "XgesvdjGetSweeps status");
  trnsolverDnDestroyGesvdjInfo(gp);
  trnsolverDnParams_t p = nullptr;
  trnsolverDnCreateParams(&p);
  const int fn = in.choice({TRNSOLVERDN_GETRF, TRNSOLVERDN_POTRF, TRNSOLVERDN_SYEVBATCHED});
  const int alg = in.choice({TRNSOLVER_ALG_0, TRNSOLVER_ALG_1, TRNSOLVER_ALG_2});
  expect_status(trnsolverDnSetAdvOptions(in.flag(16) ? nullptr : p, static_cast<trnsolverDnFunction_t>(fn),
                                         static_cast<trnsolverAlgMode_t>(alg)),
                "SetAdvOptions status");
  trnsolverDnDestroyParams(p);
  // the handle surface (the earlier slots' calls are done: a changed mode affects nothing after)
  trnStream_t stream = nullptr;
  expect_status(trnsolverDnSetStream(h, nullptr), "SetStream status");
  expect_status(trnsolverDnGetStream(h, &stream), "GetStream status");
  const int det = in.choice({TRNSOLVER_DETERMINISTIC_RESULTS, TRNSOLVER_ALLOW_NON_DETERMINISTIC_RESULTS});
  expect_status(trnsolverDnSetDeterministicMode(h, static_cast<trnsolverDeterministicMode_t>(det)), "SetDeterministicMode");
  trnsolverDeterministicMode_t dm{};
  expect_status(trnsolverDnGetDeterministicMode(h, &dm), "GetDeterministicMode status");
  trnsolverMathMode_t mm{};
  expect_status(trnsolverDnGetMathMode(h, &mm), "GetMathMode status");
  trnEmulationStrategy_t es{};
  expect_status(trnsolverDnGetEmulationStrategy(h, &es), "GetEmulationStrategy status");
  const int cores = in.choice({1, 2});
  const trnsolverStatus_t cs = in.flag(2) ? trnsolverDnSetNumCores(h, cores) : trnsolverDnSetEmulatedCores(h, cores);
  require(cs == TRNSOLVER_STATUS_SUCCESS || cs == TRNSOLVER_STATUS_INVALID_VALUE, "SetNumCores status");
  int got = -1;
  expect_status(trnsolverDnGetNumCores(h, &got), "GetNumCores status");
  require(cs != TRNSOLVER_STATUS_SUCCESS || got == cores, "GetNumCores differs from the accepted SetNumCores");
}

// D getrf/getrs, D potrf/potrs and S getrs/potrs: a factorisation then a solve with its output.
template <class T>
void fuzz_gaps_real_solve(trnfuzz::Input& in, trnsolverDnHandle_t h, bool lu) {
  const int n = fuzz_dim(in), nrhs = in.flag(4) ? fuzz_dim(in) : 1;
  const int lda = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const int ldb = in.flag(8) ? static_cast<int>(in.size(3, false)) : std::max(1, n);
  const bool sized = n >= 0 && n <= kMaxN && nrhs >= 0 && nrhs <= 3 && lda >= std::max(1, n) && lda <= kMaxN + 2 &&
                     ldb >= 1 && ldb <= kMaxN + 2;
  std::vector<T> A = sized ? matrix<T>(in, n, n, lda, !lu) : std::vector<T>(1);
  for (int i = 0; sized && i < n && !in.flag(4); ++i) A[static_cast<std::size_t>(i + i * lda)] += static_cast<T>(2 * n + 2);
  // B: what a legal solve writes (ldb x nrhs, nrhs <= 3); an unsized call passes a NULL A and is rejected first.
  std::vector<T> B(sized ? static_cast<std::size_t>(std::max({ldb, n, 1})) * 3 : 3, T(1));
  std::vector<int> ipiv(static_cast<std::size_t>(kMaxN + 1), 1);
  const int uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  const int trans = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C});
  T* a = sized && !in.flag(20) ? A.data() : nullptr;
  int lwork = 0, info = -12345;
  trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
  const auto A0 = A;
  if constexpr (std::is_same_v<T, double>) {
    if (lu) trnsolverDnDgetrf_bufferSize(h, n, n, a, lda, &lwork);
    else trnsolverDnDpotrf_bufferSize(h, EU(uplo), n, a, lda, &lwork);
    std::vector<T> work(static_cast<std::size_t>(std::clamp(lwork, 1, kMaxN * 64 + 1)));
    st = lu ? trnsolverDnDgetrf(h, n, n, a, lda, work.data(), ipiv.data(), &info)
            : trnsolverDnDpotrf(h, EU(uplo), n, a, lda, work.data(), std::min(lwork, static_cast<int>(work.size())), &info);
  } else {
    if (lu) trnsolverDnSgetrf_bufferSize(h, n, n, a, lda, &lwork);
    else trnsolverDnSpotrf_bufferSize(h, EU(uplo), n, a, lda, &lwork);
    std::vector<T> work(static_cast<std::size_t>(std::clamp(lwork, 1, kMaxN * 64 + 1)));
    st = lu ? trnsolverDnSgetrf(h, n, n, a, lda, work.data(), ipiv.data(), &info)
            : trnsolverDnSpotrf(h, EU(uplo), n, a, lda, work.data(), std::min(lwork, static_cast<int>(work.size())), &info);
  }
  expect_status(st, "unexpected real factor status (gaps)");
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(same_bytes(A, A0), "real factor wrote after rejecting");
    return;
  }
  require(info >= 0 && info <= n, "real factor info out of [0, n]");
  if (info != 0) return;
  const auto A1 = A, B0 = B;
  int sinfo = -12345;
  trnsolverStatus_t rs;
  if constexpr (std::is_same_v<T, double>)
    rs = lu ? trnsolverDnDgetrs(h, static_cast<trnblasOperation_t>(trans), n, nrhs, a, lda, ipiv.data(), B.data(), ldb, &sinfo)
            : trnsolverDnDpotrs(h, EU(uplo), n, nrhs, a, lda, B.data(), ldb, &sinfo);
  else
    rs = lu ? trnsolverDnSgetrs(h, static_cast<trnblasOperation_t>(trans), n, nrhs, a, lda, ipiv.data(), B.data(), ldb, &sinfo)
            : trnsolverDnSpotrs(h, EU(uplo), n, nrhs, a, lda, B.data(), ldb, &sinfo);
  expect_status(rs, "unexpected real solve status (gaps)");
  require(same_bytes(A, A1), "real solve wrote A");
  if (rs != TRNSOLVER_STATUS_SUCCESS) require(same_bytes(B, B0) && sinfo < 0, "real solve wrote after rejecting");
  else require(sinfo == 0, "real solve info != 0 on success");
  trnfuzz::reach("gaps_real_solve_ok", rs == TRNSOLVER_STATUS_SUCCESS && n > 0);
}

const IrsPairs<double> kIrsGapsD{{{trnsolverDnDSgesv_bufferSize, trnsolverDnDSgesv},
                                  {trnsolverDnDBgesv_bufferSize, trnsolverDnDBgesv},
                                  {trnsolverDnDXgesv_bufferSize, trnsolverDnDXgesv}},
                                 kIrsD.gels};
const IrsPairs<float> kIrsGapsS{{{trnsolverDnSXgesv_bufferSize, trnsolverDnSXgesv}}, kIrsS.gels};

void fuzz_gaps(trnfuzz::Input& in, trnsolverDnHandle_t h) {
  switch (in.byte() % 10) {
    case 0:
      switch (in.byte() % 4) {
        case 0:
          return fuzz_gaps_misc<trnComplex, float>(
              in, h, {trnsolverDnCsytrf_bufferSize, trnsolverDnCsytrf, trnsolverDnCsytri_bufferSize, trnsolverDnCsytri,
                      trnsolverDnClauum_bufferSize, trnsolverDnClauum, trnsolverDnCpotri_bufferSize, trnsolverDnCpotri,
                      trnsolverDnClaswp});
        case 1:
          return fuzz_gaps_misc<trnDoubleComplex, double>(
              in, h, {trnsolverDnZsytrf_bufferSize, trnsolverDnZsytrf, trnsolverDnZsytri_bufferSize, trnsolverDnZsytri,
                      trnsolverDnZlauum_bufferSize, trnsolverDnZlauum, trnsolverDnZpotri_bufferSize, trnsolverDnZpotri,
                      trnsolverDnZlaswp});
        case 2:
          return fuzz_gaps_misc<float, float>(
              in, h, {trnsolverDnSsytrf_bufferSize, trnsolverDnSsytrf, trnsolverDnSsytri_bufferSize, trnsolverDnSsytri,
                      trnsolverDnSlauum_bufferSize, trnsolverDnSlauum, trnsolverDnSpotri_bufferSize, trnsolverDnSpotri,
                      trnsolverDnSlaswp});
        default:
          return fuzz_gaps_misc<double, double>(
              in, h, {trnsolverDnDsytrf_bufferSize, trnsolverDnDsytrf, trnsolverDnDsytri_bufferSize, trnsolverDnDsytri,
                      trnsolverDnDlauum_bufferSize, trnsolverDnDlauum, trnsolverDnDpotri_bufferSize, trnsolverDnDpotri,
                      trnsolverDnDlaswp});
      }
    case 1:
      if (in.flag(2))
        return fuzz_gaps_potrf_batched<trnComplex, float>(in, h, trnsolverDnCpotrfBatched, trnsolverDnCpotrsBatched);
      return fuzz_gaps_potrf_batched<trnDoubleComplex, double>(in, h, trnsolverDnZpotrfBatched, trnsolverDnZpotrsBatched);
    case 2:
      if (in.flag(2)) return fuzz_irs_family_typed(in, h, kIrsGapsD);
      return fuzz_irs_family_typed(in, h, kIrsGapsS);
    case 3: return fuzz_gaps_irs_xgels(in, h);
    case 4: return fuzz_gaps_sgesvd(in, h);
    case 5: return fuzz_gaps_xpotrf(in, h);
    case 6: return fuzz_gaps_dsyevj_batched(in, h);
    case 7: return fuzz_gaps_dsygvj(in, h);
    case 8: return fuzz_gaps_params(in, h);
    default:
      if (in.flag(2)) return fuzz_gaps_real_solve<double>(in, h, in.flag(2));
      return fuzz_gaps_real_solve<float>(in, h, in.flag(2));
  }
}
// ---- end of the gaps slot ---------------------------------------------------------------------------------

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  trnfuzz::Input in(data, size);
  trnsolverDnHandle_t h = nullptr;
  if (trnsolverDnCreate(&h) != TRNSOLVER_STATUS_SUCCESS) return 0;
  for (int call = 0; call < 2 && !in.empty(); ++call) {
    switch (in.byte() % 5) {
      case 0: fuzz_syevj(in, h, false); break;
      case 1: fuzz_syevj(in, h, true); break;
      case 2: fuzz_gesvdj(in, h); break;
      case 3: fuzz_sygvj(in, h); break;
      default: fuzz_factor(in, h); break;
    }
  }
  if (!in.empty()) fuzz_irs_x(in, h);
  if (!in.empty()) fuzz_syevj_batched(in, h);
  if (!in.empty()) fuzz_qr(in, h);
  if (!in.empty()) fuzz_eig(in, h);  // the bytes before it keep their meaning
  if (!in.empty()) {  // sygvd / sygvdx
    if (in.byte() % 2 == 0)
      fuzz_sygvd_typed<float>(in, h);
    else
      fuzz_sygvd_typed<double>(in, h);
  }
  if (!in.empty()) {  // the X eigensolvers, gesvd / Xgesvd, potrf/potrsBatched
    trnsolverDnParams_t p = nullptr;
    trnsolverDnCreateParams(&p);
    switch (in.byte() % 3) {
      case 0: fuzz_x_eig(in, h, p); break;
      case 1: fuzz_gesvd(in, h, p); break;
      default: fuzz_potrf_batched(in, h);
    }
    trnsolverDnDestroyParams(p);
  }
  if (!in.empty()) fuzz_complex_factor(in, h);  // the bytes before it keep their meaning
  if (!in.empty()) fuzz_complex_eig(in, h);  // complex heevdx/hegvd(x)/heevj(Batched)/hegvj/gesvdj(Batched)
  if (!in.empty()) fuzz_irs_family(in, h);  // IRS family (issue #27); appended, earlier bytes keep their meaning
  if (!in.empty()) fuzz_svd_family(in, h);  // SVD family slot (appended: earlier bytes keep their meaning)
  if (!in.empty()) fuzz_misc(in, h);  // misc (#27): appended, earlier bytes keep their meaning
  if (!in.empty()) fuzz_geev(in, h);  // Xgeev (#27): appended, earlier bytes keep their meaning
  if (!in.empty()) fuzz_gaps(in, h);  // the #27 fuzz gaps: appended, earlier bytes keep their meaning
  trnsolverDnDestroy(h);
  return 0;
}
