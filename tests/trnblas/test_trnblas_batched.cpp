// trnblas batched GEMM: S/D/C/Z gemmBatched (pointer arrays) and DgemmStridedBatched through the C
// API, against OpenBLAS cblas_dgemm / cblas_zgemm per entry on the same (promoted) data with the
// GEMM bounds of docs/trnblas.md; every entry bit-identical to the single call; batchCount and
// pointer-entry errors at their positions with nothing written.
#include <cblas.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "blas_test_util.hpp"
#include "trnblas.h"

namespace {

using blastest::Handle;
using cf = std::complex<float>;
using cd = std::complex<double>;

constexpr double kU32 = 0x1p-24, kU64 = 0x1p-53;
double gamma(double k, double u) { return k * u / (1.0 - k * u); }  // Higham, ASNA 2nd ed., §3.1

template <class T>
constexpr bool kCx = !std::is_arithmetic_v<T>;

template <class T>
std::vector<T> random_values(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<T> v(count);
  for (T& x : v) {
    if constexpr (kCx<T>) {
      const double re = d(g), im = d(g);
      x = T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(im));
    } else {
      x = static_cast<T>(d(g));
    }
  }
  return v;
}

template <class T>
auto cp(T* p) {
  using U = std::remove_const_t<T>;
  if constexpr (std::is_same_v<U, cf>)
    return reinterpret_cast<std::conditional_t<std::is_const_v<T>, const trnComplex*, trnComplex*>>(p);
  else if constexpr (std::is_same_v<U, cd>)
    return reinterpret_cast<std::conditional_t<std::is_const_v<T>, const trnDoubleComplex*, trnDoubleComplex*>>(p);
  else
    return p;
}
template <class T>
auto cpp_arr(T* const* p) {  // an array of T* as the C API's array of trn pointers
  using E = decltype(cp(std::declval<T*>()));
  return reinterpret_cast<const E*>(p);
}

template <class T>
trnblasStatus_t batched(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m, int n, int k, T alpha,
                        const T* const* A, int lda, const T* const* B, int ldb, T beta, T* const* C, int ldc, int batch) {
  if constexpr (std::is_same_v<T, float>)
    return trnblasSgemmBatched(h, ta, tb, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc, batch);
  else if constexpr (std::is_same_v<T, double>)
    return trnblasDgemmBatched_64(h, ta, tb, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc, batch);
  else if constexpr (std::is_same_v<T, cf>)
    return trnblasCgemmBatched(h, ta, tb, m, n, k, cp(&alpha), cpp_arr(A), lda, cpp_arr(B), ldb, cp(&beta), cpp_arr(C),
                               ldc, batch);
  else
    return trnblasZgemmBatched_64(h, ta, tb, m, n, k, cp(&alpha), cpp_arr(A), lda, cpp_arr(B), ldb, cp(&beta),
                                  cpp_arr(C), ldc, batch);
}
template <class T>
trnblasStatus_t single(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m, int n, int k, T alpha,
                       const T* A, int lda, const T* B, int ldb, T beta, T* C, int ldc) {
  if constexpr (std::is_same_v<T, float>)
    return trnblasSgemm(h, ta, tb, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);
  else if constexpr (std::is_same_v<T, double>)
    return trnblasDgemm(h, ta, tb, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);
  else if constexpr (std::is_same_v<T, cf>)
    return trnblasCgemm(h, ta, tb, m, n, k, cp(&alpha), cp(A), lda, cp(B), ldb, cp(&beta), cp(C), ldc);
  else
    return trnblasZgemm(h, ta, tb, m, n, k, cp(&alpha), cp(A), lda, cp(B), ldb, cp(&beta), cp(C), ldc);
}

// Three entries of different data (op(A) = A^T, op(B) = B, m 33, n 21, k 40). Bound per element
// (component): real fp32 one PSUM sum of k exact products and the epilogue fl(alpha acc) + fl(beta c):
// gamma_{k+2}; complex 4M: 2k products and <= 3 epilogue roundings: gamma_{2k+3}, with
// |xr yr| + |xi yi| <= |x||y|; fp64 (Ozaki) 64 more roundings, plus the fp64 reference's own error.
template <class T>
void batched_case() {
  Handle h;
  const int m = 33, n = 21, k = 40, lda = k + 1, ldb = k + 2, ldc = m + 3, batch = 3;
  constexpr bool kF = std::is_same_v<T, float> || std::is_same_v<T, cf>;
  const double u = kF ? kU32 : kU64, K = kCx<T> ? 2.0 * k + 3 : k + 2.0;
  const double g = kF ? gamma(K, u) : gamma(K + 64, u) + gamma(K, u);
  T alpha, beta;
  if constexpr (kCx<T>) {
    alpha = T(0.5, -1.0);
    beta = T(0.25, 0.75);
  } else {
    alpha = T(1.5);
    beta = T(-0.5);
  }
  std::vector<std::vector<T>> A, B, C, C0;
  for (int b = 0; b < batch; ++b) {
    A.push_back(random_values<T>(static_cast<std::size_t>(lda * m), 10 + b));
    B.push_back(random_values<T>(static_cast<std::size_t>(ldb * n), 20 + b));
    C.push_back(random_values<T>(static_cast<std::size_t>(ldc * n), 30 + b));
  }
  C0 = C;
  std::vector<const T*> pa, pb;
  std::vector<T*> pc;
  for (int b = 0; b < batch; ++b) {
    pa.push_back(A[b].data());
    pb.push_back(B[b].data());
    pc.push_back(C[b].data());
  }
  ASSERT_EQ(batched<T>(h, TRNBLAS_OP_T, TRNBLAS_OP_N, m, n, k, alpha, pa.data(), lda, pb.data(), ldb, beta, pc.data(),
                       ldc, batch),
            TRNBLAS_STATUS_SUCCESS);
  for (int b = 0; b < batch; ++b) {
    std::vector<T> one = C0[b];
    ASSERT_EQ(single<T>(h, TRNBLAS_OP_T, TRNBLAS_OP_N, m, n, k, alpha, A[b].data(), lda, B[b].data(), ldb, beta,
                        one.data(), ldc),
              TRNBLAS_STATUS_SUCCESS);
    ASSERT_EQ(std::memcmp(one.data(), C[b].data(), one.size() * sizeof(T)), 0) << "entry " << b;
    // OpenBLAS reference on promoted data.
    using W = std::conditional_t<kCx<T>, cd, double>;
    std::vector<W> a(A[b].begin(), A[b].end()), bb(B[b].begin(), B[b].end()), ref(C0[b].begin(), C0[b].end());
    const W al(alpha), be(beta);
    if constexpr (kCx<T>)
      cblas_zgemm(CblasColMajor, CblasTrans, CblasNoTrans, m, n, k, &al, a.data(), lda, bb.data(), ldb, &be, ref.data(), ldc);
    else
      cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, m, n, k, al, a.data(), lda, bb.data(), ldb, be, ref.data(), ldc);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < ldc; ++i) {
        const std::size_t x = static_cast<std::size_t>(i + j * ldc);
        if (i >= m) {
          ASSERT_EQ(std::memcmp(&C[b][x], &C0[b][x], sizeof(T)), 0);
          continue;
        }
        double mag = 0;
        for (int l = 0; l < k; ++l) mag += std::abs(a[l + i * lda]) * std::abs(bb[l + j * ldb]);
        const double bound = g * (std::abs(al) * mag + std::abs(be) * std::abs(W(C0[b][x])));
        const W got(C[b][x]);
        if constexpr (kCx<T>) {
          EXPECT_LE(std::fabs(got.real() - ref[x].real()), bound) << b << ":" << i << "," << j;
          EXPECT_LE(std::fabs(got.imag() - ref[x].imag()), bound) << b << ":" << i << "," << j;
        } else {
          EXPECT_LE(std::fabs(got - ref[x]), bound) << b << ":" << i << "," << j;
        }
      }
  }
  // batchCount < 0 (position 14), a NULL entry of Aarray (7) or Carray (12): nothing written.
  const std::vector<std::vector<T>> before = C;
  auto pos = [&](trnblasStatus_t st) {
    int p = -1;
    trnblasGetLastErrorParameter(h, &p);
    return st == TRNBLAS_STATUS_INVALID_VALUE ? p : -100 - int(st);
  };
  EXPECT_EQ(pos(batched<T>(h, TRNBLAS_OP_T, TRNBLAS_OP_N, m, n, k, alpha, pa.data(), lda, pb.data(), ldb, beta,
                           pc.data(), ldc, -1)),
            14);
  pa[2] = nullptr;
  EXPECT_EQ(pos(batched<T>(h, TRNBLAS_OP_T, TRNBLAS_OP_N, m, n, k, alpha, pa.data(), lda, pb.data(), ldb, beta,
                           pc.data(), ldc, batch)),
            7);
  pa[2] = A[2].data();
  pc[1] = nullptr;
  EXPECT_EQ(pos(batched<T>(h, TRNBLAS_OP_T, TRNBLAS_OP_N, m, n, k, alpha, pa.data(), lda, pb.data(), ldb, beta,
                           pc.data(), ldc, batch)),
            12);
  EXPECT_EQ(pos(batched<T>(h, TRNBLAS_OP_T, TRNBLAS_OP_N, m, n, k, alpha, pa.data(), lda, pb.data(), ldb, beta,
                           nullptr, ldc, batch)),
            12);
  EXPECT_EQ(C, before);
  EXPECT_EQ(batched<T>(h, TRNBLAS_OP_T, TRNBLAS_OP_N, m, n, k, alpha, nullptr, lda, nullptr, ldb, beta, nullptr, ldc, 0),
            TRNBLAS_STATUS_SUCCESS);  // batchCount 0: nothing read
}

TEST(TrnblasBatched, SgemmBatched) { batched_case<float>(); }
TEST(TrnblasBatched, DgemmBatched) { batched_case<double>(); }
TEST(TrnblasBatched, CgemmBatched) { batched_case<cf>(); }
TEST(TrnblasBatched, ZgemmBatched) { batched_case<cd>(); }

// DgemmStridedBatched with a shared A (strideA 0) and padded strides: each entry equals Dgemm on
// it bit for bit and is within the Ozaki GEMM bound of OpenBLAS cblas_dgemm.
TEST(TrnblasBatched, DgemmStridedBatched) {
  Handle h;
  const int m = 17, n = 12, k = 30, batch = 3;
  const long long sb = static_cast<long long>(k) * n + 5, sc = static_cast<long long>(m) * n + 7;
  const std::vector<double> A = random_values<double>(static_cast<std::size_t>(m * k), 1);
  const std::vector<double> B = random_values<double>(static_cast<std::size_t>(sb * batch), 2);
  std::vector<double> C = random_values<double>(static_cast<std::size_t>(sc * batch), 3);
  const std::vector<double> C0 = C;
  const double alpha = 0.75, beta = 1.25;
  ASSERT_EQ(trnblasDgemmStridedBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), m, 0, B.data(), k, sb,
                                       &beta, C.data(), m, sc, batch),
            TRNBLAS_STATUS_SUCCESS);
  const double g = gamma(k + 2 + 64, kU64) + gamma(k + 2, kU64);
  for (int b = 0; b < batch; ++b) {
    std::vector<double> one(C0.begin() + b * sc, C0.begin() + b * sc + m * n), ref = one;
    ASSERT_EQ(trnblasDgemm_64(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), m, B.data() + b * sb, k, &beta,
                              one.data(), m),
              TRNBLAS_STATUS_SUCCESS);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, alpha, A.data(), m, B.data() + b * sb, k, beta,
                ref.data(), m);
    for (int x = 0; x < m * n; ++x) {
      ASSERT_EQ(C[b * sc + x], one[x]) << b << ":" << x;
      const int i = x % m, j = x / m;
      double mag = 0;
      for (int l = 0; l < k; ++l) mag += std::fabs(A[i + l * m]) * std::fabs(B[b * sb + l + j * k]);
      EXPECT_LE(std::fabs(C[b * sc + x] - ref[x]), g * (std::fabs(alpha) * mag + std::fabs(beta * C0[b * sc + x])));
    }
    for (long long x = m * n; x < sc; ++x) ASSERT_EQ(C[b * sc + x], C0[b * sc + x]);  // the gaps between entries
  }
  int p = -1;
  EXPECT_EQ(trnblasDgemmStridedBatched_64(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), m, 0, B.data(), k,
                                          sb, &beta, C.data(), m, sc, -2),
            TRNBLAS_STATUS_INVALID_VALUE);
  trnblasGetLastErrorParameter(h, &p);
  EXPECT_EQ(p, 17);
}

// S/DgemmGroupedBatched: two groups of different shapes and ops (sizes 2 and 1) and an empty third
// group; every entry bit-identical to the single S/Dgemm call and within the GEMM bound of OpenBLAS
// (fp32 gamma_{k+2}; fp64 Ozaki gamma_{k+66} plus the reference's gamma_{k+2}). A bad lda in the
// last group (position 8) or a negative group size (15) fails before any group is computed.
template <class T>
void grouped_case() {
  Handle h;
  constexpr bool kF = std::is_same_v<T, float>;
  const trnblasOperation_t ta[] = {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_N};
  const trnblasOperation_t tb[] = {TRNBLAS_OP_T, TRNBLAS_OP_N, TRNBLAS_OP_N};
  int m[] = {20, 9, 4}, n[] = {7, 30, 4}, k[] = {50, 129, 4}, lda[] = {22, 130, 4}, ldb[] = {8, 131, 4},
      ldc[] = {21, 9, 4}, size[] = {2, 1, 0};
  const T alpha[] = {T(1.5), T(-0.25), T(1)}, beta[] = {T(0), T(2), T(1)};
  std::vector<std::vector<T>> A, B, C;
  std::vector<int> group;
  for (int g = 0; g < 3; ++g)
    for (int e = 0; e < size[g]; ++e) {
      const int acols = ta[g] == TRNBLAS_OP_N ? k[g] : m[g], bcols = tb[g] == TRNBLAS_OP_N ? n[g] : k[g];
      A.push_back(random_values<T>(static_cast<std::size_t>(lda[g] * acols), 50 + A.size()));
      B.push_back(random_values<T>(static_cast<std::size_t>(ldb[g] * bcols), 60 + B.size()));
      C.push_back(random_values<T>(static_cast<std::size_t>(ldc[g] * n[g]), 70 + C.size()));
      group.push_back(g);
    }
  const std::vector<std::vector<T>> C0 = C;
  std::vector<const T*> pa, pb;
  std::vector<T*> pc;
  for (std::size_t x = 0; x < A.size(); ++x) {
    pa.push_back(A[x].data());
    pb.push_back(B[x].data());
    pc.push_back(C[x].data());
  }
  auto call = [&] {
    if constexpr (kF)
      return trnblasSgemmGroupedBatched(h, ta, tb, m, n, k, alpha, pa.data(), lda, pb.data(), ldb, beta, pc.data(), ldc,
                                        3, size);
    else
      return trnblasDgemmGroupedBatched(h, ta, tb, m, n, k, alpha, pa.data(), lda, pb.data(), ldb, beta, pc.data(), ldc,
                                        3, size);
  };
  int p = -1;
  lda[1] = 5;  // < k for op T: position 8, nothing written (group 0 is valid)
  EXPECT_EQ(call(), TRNBLAS_STATUS_INVALID_VALUE);
  trnblasGetLastErrorParameter(h, &p);
  EXPECT_EQ(p, 8);
  lda[1] = 130;
  size[2] = -1;
  EXPECT_EQ(call(), TRNBLAS_STATUS_INVALID_VALUE);
  trnblasGetLastErrorParameter(h, &p);
  EXPECT_EQ(p, 15);
  size[2] = 0;
  EXPECT_EQ(C, C0);
  ASSERT_EQ(call(), TRNBLAS_STATUS_SUCCESS);
  const double u = kF ? kU32 : kU64;
  for (std::size_t x = 0; x < A.size(); ++x) {
    const int g = group[x];
    std::vector<T> one = C0[x];
    const auto ca = ta[g] == TRNBLAS_OP_N ? CblasNoTrans : CblasTrans, cb = tb[g] == TRNBLAS_OP_N ? CblasNoTrans : CblasTrans;
    if constexpr (kF)
      ASSERT_EQ(trnblasSgemm(h, ta[g], tb[g], m[g], n[g], k[g], &alpha[g], A[x].data(), lda[g], B[x].data(), ldb[g],
                             &beta[g], one.data(), ldc[g]),
                TRNBLAS_STATUS_SUCCESS);
    else
      ASSERT_EQ(trnblasDgemm(h, ta[g], tb[g], m[g], n[g], k[g], &alpha[g], A[x].data(), lda[g], B[x].data(), ldb[g],
                             &beta[g], one.data(), ldc[g]),
                TRNBLAS_STATUS_SUCCESS);
    ASSERT_EQ(std::memcmp(one.data(), C[x].data(), one.size() * sizeof(T)), 0) << "entry " << x;
    std::vector<double> a(A[x].begin(), A[x].end()), b(B[x].begin(), B[x].end()), ref(C0[x].begin(), C0[x].end());
    cblas_dgemm(CblasColMajor, ca, cb, m[g], n[g], k[g], alpha[g], a.data(), lda[g], b.data(), ldb[g], beta[g], ref.data(),
                ldc[g]);
    const double gk = kF ? gamma(k[g] + 2, u) : gamma(k[g] + 66, u) + gamma(k[g] + 2, u);
    for (int j = 0; j < n[g]; ++j)
      for (int i = 0; i < m[g]; ++i) {
        double mag = 0;
        for (int l = 0; l < k[g]; ++l) {
          const double av = ta[g] == TRNBLAS_OP_N ? a[i + l * lda[g]] : a[l + i * lda[g]];
          const double bv = tb[g] == TRNBLAS_OP_N ? b[l + j * ldb[g]] : b[j + l * ldb[g]];
          mag += std::fabs(av * bv);
        }
        const std::size_t y = static_cast<std::size_t>(i + j * ldc[g]);
        const double bound = gk * (std::fabs(double(alpha[g])) * mag + std::fabs(double(beta[g]) * double(C0[x][y])));
        EXPECT_LE(std::fabs(double(C[x][y]) - ref[y]), bound) << x << ":" << i << "," << j;
      }
  }
  trnProfile_t prof{};
  ASSERT_EQ(call(), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasGetLastProfile(h, &prof), TRNBLAS_STATUS_SUCCESS);
  EXPECT_GT(prof.instructions_per_engine[TRN_ENGINE_TENSOR], 0);  // both groups' GEMMs are in one profile
}

TEST(TrnblasBatched, SgemmGroupedBatched) { grouped_case<float>(); }
TEST(TrnblasBatched, DgemmGroupedBatched) { grouped_case<double>(); }

}  // namespace
