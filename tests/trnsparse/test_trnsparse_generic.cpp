// trnsparse generic API in every value type, through the C API: SpMV / SpMM over CSR, CSC and COO
// with fp64, complex-fp32 and complex-fp64 values and op(A) N / T / C, against a long-double loop
// (independent code: it expands the matrix to dense) with the bound of docs/trnsparse.md, checked
// two-sided (the error is within the bound, and the bound is tight enough that a wrong op, a missed
// conjugate or a dropped entry would exceed it); the descriptor getters and setters; the
// sparse-vector operations; the conversions and sorts; bad arguments per position with outputs
// untouched, out-of-range indices as INVALID_VALUE; SDDMM in the same three value types on CSR and
// BSR patterns (both block orders), strided batches and op N / T / C, against the same kind of loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "c_api_test_util.hpp"
#include "trn/core/error.hpp"
#include "trn/sparse/generic.hpp"
#include "trnsparse.h"

namespace {

using trnsparse_test::g_lines;
using trnsparse_test::Handle;
using cld = std::complex<long double>;

template <class T>
struct Traits;
template <>
struct Traits<double> {
  static constexpr trnDataType_t type = TRN_R_64F;
  static constexpr bool complex = false;
  static constexpr long double u = 0x1p-53L;
};
template <>
struct Traits<std::complex<float>> {
  static constexpr trnDataType_t type = TRN_C_32F;
  static constexpr bool complex = true;
  static constexpr long double u = 0x1p-24L;  // fp32 sums on TensorE (the real embedding)
};
template <>
struct Traits<std::complex<double>> {
  static constexpr trnDataType_t type = TRN_C_64F;
  static constexpr bool complex = true;
  static constexpr long double u = 0x1p-53L;
};

template <class T>
T draw(std::mt19937_64& g) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  if constexpr (Traits<T>::complex)
    return T(static_cast<typename T::value_type>(d(g)), static_cast<typename T::value_type>(d(g)));
  else
    return d(g);
}
template <class T>
cld wide(T v) {
  if constexpr (Traits<T>::complex)
    return cld(v.real(), v.imag());
  else
    return cld(v, 0.0L);
}
template <class T>
T narrow(cld v) {
  if constexpr (Traits<T>::complex)
    return T(static_cast<typename T::value_type>(v.real()), static_cast<typename T::value_type>(v.imag()));
  else
    return static_cast<T>(v.real());
}

// A random m x n CSR (sorted columns, density ~p, int32) and its dense copy (row-major, long double).
template <class T>
struct Csr {
  int m = 0, n = 0;
  std::vector<int> off, col;
  std::vector<T> val;
  std::vector<cld> dense;
  Csr(int m_, int n_, double p, std::uint64_t seed) : m(m_), n(n_), dense(static_cast<size_t>(m_ * n_)) {
    std::mt19937_64 g(seed);
    std::bernoulli_distribution keep(p);
    off.push_back(0);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j)
        if (keep(g)) {
          col.push_back(j);
          val.push_back(draw<T>(g));
          dense[static_cast<size_t>(i * n + j)] = wide(val.back());
        }
      off.push_back(static_cast<int>(col.size()));
    }
  }
  int nnz() const { return static_cast<int>(col.size()); }
  cld at(int i, int j, int op) const {  // op(A)(i, j)
    const cld a = op == 0 ? dense[static_cast<size_t>(i * n + j)] : dense[static_cast<size_t>(j * n + i)];
    return op == 2 ? std::conj(a) : a;
  }
};

// The descriptor of `fmt` for the CSR a: CSR as is; CSC of the same matrix (built from the dense copy);
// COO from the CSR rows. Arrays kept alive by the struct.
template <class T>
struct Desc {
  std::vector<int> a, b;
  std::vector<T> v;
  trnsparseSpMatDescr_t d = nullptr;
  Desc(const Csr<T>& s, trnsparseFormat_t fmt) {
    const trnDataType_t vt = Traits<T>::type;
    if (fmt == TRNSPARSE_FORMAT_CSR) {
      a = s.off, b = s.col, v = s.val;
      EXPECT_EQ(trnsparseCreateCsr(&d, s.m, s.n, s.nnz(), a.data(), b.data(), v.data(), TRNSPARSE_INDEX_32I,
                                   TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, vt),
                TRNSPARSE_STATUS_SUCCESS);
    } else if (fmt == TRNSPARSE_FORMAT_COO) {
      for (int i = 0; i < s.m; ++i)
        for (int e = s.off[static_cast<size_t>(i)]; e < s.off[static_cast<size_t>(i) + 1]; ++e) a.push_back(i);
      b = s.col, v = s.val;
      EXPECT_EQ(trnsparseCreateCoo(&d, s.m, s.n, s.nnz(), a.data(), b.data(), v.data(), TRNSPARSE_INDEX_32I,
                                   TRNSPARSE_INDEX_BASE_ZERO, vt),
                TRNSPARSE_STATUS_SUCCESS);
    } else {
      a.push_back(0);
      for (int j = 0; j < s.n; ++j) {
        for (int i = 0; i < s.m; ++i)
          if (s.dense[static_cast<size_t>(i * s.n + j)] != cld(0)) {
            b.push_back(i);
            v.push_back(narrow<T>(s.dense[static_cast<size_t>(i * s.n + j)]));
          }
        a.push_back(static_cast<int>(b.size()));
      }
      EXPECT_EQ(trnsparseCreateCsc(&d, s.m, s.n, s.nnz(), a.data(), b.data(), v.data(), TRNSPARSE_INDEX_32I,
                                   TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, vt),
                TRNSPARSE_STATUS_SUCCESS);
    }
  }
  ~Desc() { trnsparseDestroySpMat(d); }
  Desc(const Desc&) = delete;
  Desc& operator=(const Desc&) = delete;
};

// The documented bound: real fp64 gamma_{k+2}, complex sqrt(2) gamma_{k+4} of |alpha||op(A)||op(B)| +
// |beta||C| (host step); complex-fp32 on TensorE sqrt(2) gamma32_{2k+6} ("Complex-fp32 on TensorE",
// SpMM / SpMV and SDDMM with k = K); engine_c32 false: the complex-fp32 host step's bound (fp64 sums,
// sqrt(2) gamma_{k+4} plus the final rounding).
template <class T>
long double bound(int k, long double mag, long double result, bool engine_c32 = true) {
  if constexpr (std::is_same_v<T, std::complex<float>>) {
    if (engine_c32) {
      const int kk = 2 * k + 6;
      return std::sqrt(2.0L) * kk * 0x1p-24L / (1 - kk * 0x1p-24L) * mag;
    }
    const int kk = k + 4;
    const long double b = std::sqrt(2.0L) * kk * 0x1p-53L / (1 - kk * 0x1p-53L) * mag;
    return b * (1 + 0x1p-24L) + 0x1p-24L * result;
  }
  const long double u = Traits<T>::u;
  const int kk = k + (Traits<T>::complex ? 4 : 2);
  return kk * u / (1 - kk * u) * mag * (Traits<T>::complex ? std::sqrt(2.0L) : 1.0L);
}

// R_64F / C_64F run on TensorE through trnblas (docs/trnsparse.md "fp64 CSR, CSC, COO, SELL and SDDMM
// on TensorE"): SpMV by the fp64 GEMV (slice pairs), relative to the exact product p:
// 4.1 u (|alpha p| + |beta c|) real, 8 u complex; SpMM and SDDMM by the Ozaki GEMM, k its contraction
// length (K here: at least the gathered panel's): q (2^-50 k max|a_i.| max|b_.j| |alpha| +
// 4 u (|alpha| |op(A)| |op(B)| + |beta| |c|)), q = 1 real, 2 complex.
long double vector_bound(bool cplx, long double alpha_p, long double beta_c) {
  return (cplx ? 8.0L : 4.1L) * 0x1p-53L * (alpha_p + beta_c);
}
long double ozaki_bound(bool cplx, int k, long double max_a, long double max_b, long double alpha, long double mag,
                        long double beta_c) {
  return (cplx ? 2.0L : 1.0L) * (0x1p-50L * k * max_a * max_b * alpha + 4 * 0x1p-53L * (alpha * mag + beta_c));
}

// C = alpha op(A) op(B) + beta C through trnsparseSpMM (n columns; SpMV when n == 0) and the check.
template <class T>
void check_product(trnsparseFormat_t fmt, int opA, int opB, int n_cols, std::uint64_t seed) {
  Handle h;
  const Csr<T> s(23, 17, 0.25, seed);
  Desc<T> A(s, fmt);
  const bool spmv = n_cols == 0;
  const int n = spmv ? 1 : n_cols;
  const int M = opA == 0 ? s.m : s.n, K = opA == 0 ? s.n : s.m;
  std::mt19937_64 g(seed + 1);
  std::vector<T> B(static_cast<size_t>(K * n)), C(static_cast<size_t>(M * n));
  for (auto& x : B) x = draw<T>(g);
  for (auto& x : C) x = draw<T>(g);
  const std::vector<T> C0 = C;
  const T alpha = narrow<T>(cld(0.75L, Traits<T>::complex ? -0.5L : 0.0L));
  const T beta = narrow<T>(cld(-0.25L, Traits<T>::complex ? 0.125L : 0.0L));
  const trnDataType_t vt = Traits<T>::type;
  size_t bytes = 0;
  if (spmv) {
    trnsparseDnVecDescr_t x = nullptr, y = nullptr;
    ASSERT_EQ(trnsparseCreateDnVec(&x, K, B.data(), vt), TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(trnsparseCreateDnVec(&y, M, C.data(), vt), TRNSPARSE_STATUS_SUCCESS);
    const auto op = static_cast<trnsparseOperation_t>(opA);
    ASSERT_EQ(trnsparseSpMV_bufferSize(h.h, op, &alpha, A.d, x, &beta, y, vt, TRNSPARSE_SPMV_ALG_DEFAULT, &bytes),
              TRNSPARSE_STATUS_SUCCESS);
    std::vector<char> buf(bytes);
    ASSERT_EQ(trnsparseSpMV_preprocess(h.h, op, &alpha, A.d, x, &beta, y, vt, TRNSPARSE_SPMV_ALG_DEFAULT, buf.data()),
              TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(trnsparseSpMV(h.h, op, &alpha, A.d, x, &beta, y, vt, TRNSPARSE_SPMV_ALG_DEFAULT, buf.data()),
              TRNSPARSE_STATUS_SUCCESS);
    trnsparseDestroyDnVec(x);
    trnsparseDestroyDnVec(y);
  } else {  // B column-major (op N: K x n; op T/C: n x K), C row-major: both layouts exercised
    trnsparseDnMatDescr_t mB = nullptr, mC = nullptr;
    const int brows = opB == 0 ? K : n, bcols = opB == 0 ? n : K;
    ASSERT_EQ(trnsparseCreateDnMat(&mB, brows, bcols, brows, B.data(), vt, TRNSPARSE_ORDER_COL), TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(trnsparseCreateDnMat(&mC, M, n, n, C.data(), vt, TRNSPARSE_ORDER_ROW), TRNSPARSE_STATUS_SUCCESS);
    const auto oa = static_cast<trnsparseOperation_t>(opA), ob = static_cast<trnsparseOperation_t>(opB);
    ASSERT_EQ(trnsparseSpMM_bufferSize(h.h, oa, ob, &alpha, A.d, mB, &beta, mC, vt, TRNSPARSE_SPMM_ALG_DEFAULT, &bytes),
              TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(trnsparseSpMM(h.h, oa, ob, &alpha, A.d, mB, &beta, mC, vt, TRNSPARSE_SPMM_ALG_DEFAULT, nullptr),
              TRNSPARSE_STATUS_SUCCESS);
    trnsparseDestroyDnMat(mB);
    trnsparseDestroyDnMat(mC);
  }
  trnProfile_t prof{};
  ASSERT_EQ(trnsparseGetLastProfile(h.h, &prof), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_GT(prof.total_ns, 0.0) << "the call is costed";
  EXPECT_GT(prof.busy_ns[TRN_ENGINE_TENSOR], 0.0) << "every value type runs on TensorE";
  if constexpr (std::is_same_v<T, std::complex<float>>) {  // the complex alpha and beta folds on the host
    EXPECT_EQ(prof.host_steps, 2);
  } else {
    EXPECT_GE(prof.host_steps, 2) << "trnblas's fp64 host steps (slicing or scaling, fold or reconstruction)";
  }
  const int brows = spmv ? K : (opB == 0 ? K : n);
  int k_max = 0;
  for (int r = 0; r < M; ++r) {
    int k = 0;
    for (int j = 0; j < K; ++j) k += s.at(r, j, opA) != cld(0) ? 1 : 0;
    k_max = std::max(k_max, k);
  }
  long double worst = 0;
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < n; ++c) {
      cld acc = 0;
      long double mag = 0, max_a = 0, max_b = 0;
      for (int j = 0; j < K; ++j) {
        const cld b = spmv || opB == 0 ? wide(B[static_cast<size_t>(j + c * brows)])
                                       : (opB == 2 ? std::conj(wide(B[static_cast<size_t>(c + j * brows)]))
                                                   : wide(B[static_cast<size_t>(c + j * brows)]));
        acc += s.at(r, j, opA) * b;
        mag += std::abs(s.at(r, j, opA)) * std::abs(b);
        max_a = std::max(max_a, std::abs(s.at(r, j, opA)));
        max_b = std::max(max_b, std::abs(b));
      }
      const size_t ci = spmv ? static_cast<size_t>(r) : static_cast<size_t>(r * n + c);
      const cld want = wide(alpha) * acc + wide(beta) * wide(C0[ci]);
      const long double err = std::abs(wide(C[ci]) - want);
      const long double al = std::abs(wide(alpha)), bc = std::abs(wide(beta)) * std::abs(wide(C0[ci]));
      long double bnd = 0;
      if constexpr (std::is_same_v<T, std::complex<float>>)
        bnd = bound<T>(k_max, al * mag + bc, std::abs(want));
      else
        bnd = spmv ? vector_bound(Traits<T>::complex, al * std::abs(acc), bc)
                   : ozaki_bound(Traits<T>::complex, K, max_a, max_b, al, mag, bc);
      ASSERT_LE(err, bnd) << "row " << r << " col " << c;
      // Tight enough to catch a wrong op or a lost entry: far below the size of one product.
      EXPECT_LT(bnd, 1e-5L * (std::abs(wide(alpha)) * mag + 1e-3L));
      worst = std::max(worst, err / (bnd + 1e-300L));
    }
  EXPECT_LE(worst, 1.0L);
}

template <class T>
void sweep() {
  std::uint64_t seed = 11;
  for (auto fmt : {TRNSPARSE_FORMAT_CSR, TRNSPARSE_FORMAT_CSC, TRNSPARSE_FORMAT_COO})
    for (int opA = 0; opA < 3; ++opA) {
      SCOPED_TRACE(testing::Message() << "format " << fmt << " opA " << opA);
      check_product<T>(fmt, opA, 0, 0, ++seed);  // SpMV
      check_product<T>(fmt, opA, opA == 0 ? 0 : 2, 3, ++seed);
    }
}

TEST(GenericProducts, Fp64SpMVAndSpMMWithinTheBound) { sweep<double>(); }
TEST(GenericProducts, ComplexFp32SpMVAndSpMMWithinTheBound) { sweep<std::complex<float>>(); }
TEST(GenericProducts, ComplexFp64SpMVAndSpMMWithinTheBound) { sweep<std::complex<double>>(); }

TEST(GenericProducts, MixedTypesAndBatchesAreNotSupportedAndOutputUntouched) {
  Handle h;
  const Csr<double> s(6, 5, 0.5, 3);
  Desc<double> A(s, TRNSPARSE_FORMAT_CSR);
  std::vector<double> x(5, 1.0), y(6, 2.0);
  std::vector<float> yf(6, 2.0f);
  trnsparseDnVecDescr_t vx = nullptr, vy = nullptr, vyf = nullptr;
  trnsparseCreateDnVec(&vx, 5, x.data(), TRN_R_64F);
  trnsparseCreateDnVec(&vy, 6, y.data(), TRN_R_64F);
  trnsparseCreateDnVec(&vyf, 6, yf.data(), TRN_R_32F);
  const double one = 1.0, zero = 0.0;
  const auto N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
  EXPECT_EQ(trnsparseSpMV(h.h, N, &one, A.d, vx, &zero, vyf, TRN_R_64F, TRNSPARSE_SPMV_ALG_DEFAULT, nullptr),
            TRNSPARSE_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(trnsparseSpMV(h.h, N, &one, A.d, vx, &zero, vy, TRN_R_32F, TRNSPARSE_SPMV_ALG_DEFAULT, nullptr),
            TRNSPARSE_STATUS_NOT_SUPPORTED);
  ASSERT_EQ(trnsparseCsrSetStridedBatch(A.d, 2, 0, s.nnz()), TRNSPARSE_STATUS_SUCCESS);
  int batches = 0;
  ASSERT_EQ(trnsparseSpMatGetStridedBatch(A.d, &batches), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(batches, 2);
  EXPECT_EQ(trnsparseSpMV(h.h, N, &one, A.d, vx, &zero, vy, TRN_R_64F, TRNSPARSE_SPMV_ALG_DEFAULT, nullptr),
            TRNSPARSE_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(y, std::vector<double>(6, 2.0));
  EXPECT_EQ(yf, std::vector<float>(6, 2.0f));
  trnsparseDestroyDnVec(vx);
  trnsparseDestroyDnVec(vy);
  trnsparseDestroyDnVec(vyf);
}

TEST(GenericProducts, BadArgumentsAtTheirPositionAndOutOfRangeColumnIsInvalid) {
  Handle h;
  Csr<std::complex<double>> s(6, 5, 0.5, 4);
  Desc<std::complex<double>> A(s, TRNSPARSE_FORMAT_CSR);
  std::vector<std::complex<double>> x(5, 1.0), y(6, 2.0), y4(4, 2.0);
  trnsparseDnVecDescr_t vx = nullptr, vy = nullptr, vy4 = nullptr;
  trnsparseCreateDnVec(&vx, 5, x.data(), TRN_C_64F);
  trnsparseCreateDnVec(&vy, 6, y.data(), TRN_C_64F);
  trnsparseCreateDnVec(&vy4, 4, y4.data(), TRN_C_64F);
  const std::complex<double> one = 1.0, zero = 0.0;
  const auto N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
  const auto vt = TRN_C_64F;
  auto call = [&](int op, const void* al, trnsparseConstSpMatDescr_t a, trnsparseConstDnVecDescr_t xx, const void* be,
                  trnsparseDnVecDescr_t yy, int ct, int alg) {
    return trnsparseSpMV(h.h, static_cast<trnsparseOperation_t>(op), al, a, xx, be, yy, static_cast<trnDataType_t>(ct),
                         static_cast<trnsparseSpMVAlg_t>(alg), nullptr);
  };
  EXPECT_EQ(call(3, &one, A.d, vx, &zero, vy, vt, 0), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 1);
  EXPECT_EQ(call(N, nullptr, A.d, vx, &zero, vy, vt, 0), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 2);
  EXPECT_EQ(call(N, &one, nullptr, vx, &zero, vy, vt, 0), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 3);
  EXPECT_EQ(call(N, &one, A.d, vy, &zero, vy, vt, 0), TRNSPARSE_STATUS_INVALID_VALUE);  // x of length 6
  EXPECT_EQ(h.last_param(), 4);
  EXPECT_EQ(call(N, &one, A.d, vx, nullptr, vy, vt, 0), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 5);
  EXPECT_EQ(call(N, &one, A.d, vx, &zero, vy4, vt, 0), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 6);
  EXPECT_EQ(call(N, &one, A.d, vx, &zero, vy, 99, 0), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 7);
  EXPECT_EQ(call(N, &one, A.d, vx, &zero, vy, vt, 42), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 8);
  // An out-of-range column index: INVALID_VALUE at matA, y untouched, nothing read past x.
  ASSERT_GT(s.nnz(), 0);
  A.b[0] = 5;
  EXPECT_EQ(call(N, &one, A.d, vx, &zero, vy, vt, 0), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 3);
  EXPECT_EQ(y, std::vector<std::complex<double>>(6, 2.0));
  trnsparseDestroyDnVec(vx);
  trnsparseDestroyDnVec(vy);
  trnsparseDestroyDnVec(vy4);
}

TEST(GenericProducts, StridedBatchSpMMEqualsOneCallPerBatch) {
  Handle h;
  using T = std::complex<double>;
  const Csr<T> s0(7, 6, 0.4, 31);
  Csr<T> s1(7, 6, 0.4, 31);  // the same pattern, other values
  for (auto& v : s1.val) v = v * T(0.5, -2.0);
  std::vector<int> off = s0.off, col(2 * s0.col.size());
  std::vector<T> val(2 * s0.val.size());
  std::copy(s0.col.begin(), s0.col.end(), col.begin());
  std::copy(s0.col.begin(), s0.col.end(), col.begin() + static_cast<long>(s0.col.size()));
  std::copy(s0.val.begin(), s0.val.end(), val.begin());
  std::copy(s1.val.begin(), s1.val.end(), val.begin() + static_cast<long>(s0.val.size()));
  std::vector<T> B(2 * 6 * 3), C(2 * 7 * 3, T(1, 1)), Cref = C;
  std::mt19937_64 g(5);
  for (auto& x : B) x = draw<T>(g);
  const T alpha(1.5, 0.5), beta(0.25, 0);
  const auto N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
  trnsparseSpMatDescr_t A = nullptr;
  trnsparseDnMatDescr_t mB = nullptr, mC = nullptr;
  ASSERT_EQ(trnsparseCreateCsr(&A, 7, 6, s0.nnz(), off.data(), col.data(), val.data(), TRNSPARSE_INDEX_32I,
                               TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRN_C_64F),
            TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseCsrSetStridedBatch(A, 2, 0, s0.nnz()), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseCreateDnMat(&mB, 6, 3, 6, B.data(), TRN_C_64F, TRNSPARSE_ORDER_COL), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseDnMatSetStridedBatch(mB, 2, 18), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseCreateDnMat(&mC, 7, 3, 7, C.data(), TRN_C_64F, TRNSPARSE_ORDER_COL), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseDnMatSetStridedBatch(mC, 2, 21), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseSpMM(h.h, N, N, &alpha, A, mB, &beta, mC, TRN_C_64F, TRNSPARSE_SPMM_ALG_DEFAULT, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  for (int b = 0; b < 2; ++b) {  // the same product, one plain call per batch
    trnsparseSpMatDescr_t Ab = nullptr;
    trnsparseDnMatDescr_t Bb = nullptr, Cb = nullptr;
    ASSERT_EQ(trnsparseCreateCsr(&Ab, 7, 6, s0.nnz(), off.data(), col.data() + b * s0.nnz(), val.data() + b * s0.nnz(),
                                 TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRN_C_64F),
              TRNSPARSE_STATUS_SUCCESS);
    trnsparseCreateDnMat(&Bb, 6, 3, 6, B.data() + 18 * b, TRN_C_64F, TRNSPARSE_ORDER_COL);
    trnsparseCreateDnMat(&Cb, 7, 3, 7, Cref.data() + 21 * b, TRN_C_64F, TRNSPARSE_ORDER_COL);
    ASSERT_EQ(trnsparseSpMM(h.h, N, N, &alpha, Ab, Bb, &beta, Cb, TRN_C_64F, TRNSPARSE_SPMM_ALG_DEFAULT, nullptr),
              TRNSPARSE_STATUS_SUCCESS);
    trnsparseDestroySpMat(Ab);
    trnsparseDestroyDnMat(Bb);
    trnsparseDestroyDnMat(Cb);
  }
  EXPECT_EQ(C, Cref);
  // A bad column in batch 1 only: INVALID_VALUE at matA before batch 0 is written.
  const std::vector<T> before = C;
  col[static_cast<size_t>(s0.nnz())] = 6;
  EXPECT_EQ(trnsparseSpMM(h.h, N, N, &alpha, A, mB, &beta, mC, TRN_C_64F, TRNSPARSE_SPMM_ALG_DEFAULT, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 4);
  EXPECT_EQ(C, before);
  trnsparseDestroySpMat(A);
  trnsparseDestroyDnMat(mB);
  trnsparseDestroyDnMat(mC);
}

// ---- descriptors -----------------------------------------------------------------------------

TEST(GenericDescriptors, GettersReturnWhatWasSetAndSettersCheck) {
  int off[3] = {0, 1, 2}, col[2] = {1, 0}, off2[3] = {0, 1, 2};
  std::complex<float> val[2] = {{1, 2}, {3, 4}};
  trnsparseSpMatDescr_t d = nullptr;
  ASSERT_EQ(trnsparseCreateCsr(&d, 2, 2, 2, off, col, val, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                               TRNSPARSE_INDEX_BASE_ZERO, TRN_C_32F),
            TRNSPARSE_STATUS_SUCCESS);
  int64_t r = 0, c = 0, nnz = 0;
  void *po = nullptr, *pc = nullptr, *pv = nullptr;
  trnsparseIndexType_t ot{}, ct{};
  trnsparseIndexBase_t b{};
  trnDataType_t vt{};
  ASSERT_EQ(trnsparseCsrGet(d, &r, &c, &nnz, &po, &pc, &pv, &ot, &ct, &b, &vt), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(r, 2);
  EXPECT_EQ(nnz, 2);
  EXPECT_EQ(po, off);
  EXPECT_EQ(pv, val);
  EXPECT_EQ(ct, TRNSPARSE_INDEX_32I);
  EXPECT_EQ(vt, TRN_C_32F);
  EXPECT_EQ(trnsparseCsrGet(d, &r, &c, &nnz, &po, nullptr, &pv, &ot, &ct, &b, &vt), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsparseCooGet(d, &r, &c, &nnz, &po, &pc, &pv, &ot, &b, &vt), TRNSPARSE_STATUS_INVALID_VALUE);
  ASSERT_EQ(trnsparseCsrSetPointers(d, off2, col, val), TRNSPARSE_STATUS_SUCCESS);
  const void* cpo = nullptr;
  const void* cpc = nullptr;
  const void* cpv = nullptr;
  ASSERT_EQ(trnsparseConstCsrGet(d, &r, &c, &nnz, &cpo, &cpc, &cpv, &ot, &ct, &b, &vt), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(cpo, off2);
  EXPECT_EQ(trnsparseCsrSetPointers(d, nullptr, col, val), TRNSPARSE_STATUS_INVALID_VALUE);
  int fill = TRNSPARSE_FILL_MODE_UPPER, got = -1;
  ASSERT_EQ(trnsparseSpMatSetAttribute(d, TRNSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseSpMatGetAttribute(d, TRNSPARSE_SPMAT_FILL_MODE, &got, sizeof got), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(got, TRNSPARSE_FILL_MODE_UPPER);
  EXPECT_EQ(trnsparseCsrSetStridedBatch(d, 0, 0, 0), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsparseCsrSetStridedBatch(d, 2, 0, 1), TRNSPARSE_STATUS_INVALID_VALUE);  // 0 < stride < nnz
  trnsparseDestroySpMat(d);

  double dv[6] = {};
  trnsparseDnMatDescr_t m = nullptr;
  ASSERT_EQ(trnsparseCreateDnMat(&m, 2, 3, 2, dv, TRN_R_64F, TRNSPARSE_ORDER_COL), TRNSPARSE_STATUS_SUCCESS);
  int64_t ld = 0;
  trnsparseOrder_t order{};
  ASSERT_EQ(trnsparseDnMatGet(m, &r, &c, &ld, &pv, &vt, &order), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(c, 3);
  EXPECT_EQ(ld, 2);
  EXPECT_EQ(pv, dv);
  EXPECT_EQ(vt, TRN_R_64F);
  EXPECT_EQ(order, TRNSPARSE_ORDER_COL);
  EXPECT_EQ(trnsparseDnMatSetStridedBatch(m, 3, 5), TRNSPARSE_STATUS_INVALID_VALUE);  // < ld * cols
  ASSERT_EQ(trnsparseDnMatSetStridedBatch(m, 3, 6), TRNSPARSE_STATUS_SUCCESS);
  int bc = 0;
  int64_t bs = 0;
  ASSERT_EQ(trnsparseDnMatGetStridedBatch(m, &bc, &bs), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(bc, 3);
  EXPECT_EQ(bs, 6);
  EXPECT_EQ(trnsparseDnMatSetValues(m, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  trnsparseDestroyDnMat(m);

  int idx[2] = {3, 0};
  double xv[2] = {1, 2};
  trnsparseSpVecDescr_t v = nullptr;
  EXPECT_EQ(trnsparseCreateSpVec(&v, 4, 5, idx, xv, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRN_R_64F),
            TRNSPARSE_STATUS_INVALID_VALUE);  // nnz > size
  ASSERT_EQ(trnsparseCreateSpVec(&v, 4, 2, idx, xv, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRN_R_64F),
            TRNSPARSE_STATUS_SUCCESS);
  int64_t size = 0;
  void *pi = nullptr, *pxv = nullptr;
  ASSERT_EQ(trnsparseSpVecGet(v, &size, &nnz, &pi, &pxv, &ot, &b, &vt), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(size, 4);
  EXPECT_EQ(pi, idx);
  EXPECT_EQ(pxv, xv);
  trnsparseDestroySpVec(v);
  EXPECT_EQ(trnsparseDestroySpVec(v), TRNSPARSE_STATUS_INVALID_VALUE);  // already destroyed
}

// ---- sparse vectors ---------------------------------------------------------------------------

TEST(GenericVectors, AxpbyRotSpvvGatherScatterAgainstLoops) {
  Handle h;
  using C = std::complex<double>;
  int idx[3] = {4, 0, 2};
  C xv[3] = {{1, 2}, {-3, 0.5}, {0.25, -1}};
  C y[6] = {{1, 1}, {2, 0}, {0, 3}, {-1, -1}, {5, 0}, {0, 0}};
  const C alpha(0.5, -1), beta(2, 0.25);
  trnsparseSpVecDescr_t x = nullptr;
  trnsparseDnVecDescr_t vy = nullptr;
  ASSERT_EQ(trnsparseCreateSpVec(&x, 6, 3, idx, xv, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRN_C_64F),
            TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseCreateDnVec(&vy, 6, y, TRN_C_64F), TRNSPARSE_STATUS_SUCCESS);
  C want[6];
  for (int i = 0; i < 6; ++i) want[i] = beta * y[i];
  for (int e = 0; e < 3; ++e) want[idx[e]] += alpha * xv[e];
  ASSERT_EQ(trnsparseAxpby(h.h, &alpha, x, &beta, vy), TRNSPARSE_STATUS_SUCCESS);
  for (int i = 0; i < 6; ++i) EXPECT_LE(std::abs(y[i] - want[i]), 1e-15 * (1 + std::abs(want[i])));
  C dot = 0, result = 0;
  for (int e = 0; e < 3; ++e) dot += std::conj(xv[e]) * y[idx[e]];
  size_t bytes = 0;
  ASSERT_EQ(trnsparseSpVV_bufferSize(h.h, TRNSPARSE_OPERATION_CONJUGATE_TRANSPOSE, x, vy, &result, TRN_C_64F, &bytes),
            TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseSpVV(h.h, TRNSPARSE_OPERATION_CONJUGATE_TRANSPOSE, x, vy, &result, TRN_C_64F, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  EXPECT_LE(std::abs(result - dot), 1e-14);
  EXPECT_EQ(trnsparseSpVV(h.h, TRNSPARSE_OPERATION_NON_TRANSPOSE, x, vy, &result, TRN_R_64F, nullptr),
            TRNSPARSE_STATUS_NOT_SUPPORTED);
  const C cc(0.6, 0), ss(0.8, 0);
  C xr[3], yr[6];
  std::copy(xv, xv + 3, xr);
  std::copy(y, y + 6, yr);
  for (int e = 0; e < 3; ++e) {
    const C a = xr[e], b = yr[idx[e]];
    xr[e] = cc * a + ss * b;
    yr[idx[e]] = cc * b - ss * a;
  }
  ASSERT_EQ(trnsparseRot(h.h, &cc, &ss, x, vy), TRNSPARSE_STATUS_SUCCESS);
  for (int e = 0; e < 3; ++e) EXPECT_LE(std::abs(xv[e] - xr[e]), 1e-15 * (1 + std::abs(xr[e])));
  for (int i = 0; i < 6; ++i) EXPECT_LE(std::abs(y[i] - yr[i]), 1e-15 * (1 + std::abs(yr[i])));
  // Scatter then Gather round trip (moves only: exact).
  C z[6] = {};
  trnsparseDnVecDescr_t vz = nullptr;
  ASSERT_EQ(trnsparseCreateDnVec(&vz, 6, z, TRN_C_64F), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseScatter(h.h, x, vz), TRNSPARSE_STATUS_SUCCESS);
  for (int e = 0; e < 3; ++e) EXPECT_EQ(z[idx[e]], xv[e]);
  EXPECT_EQ(z[1], C(0));
  for (auto& v : xv) v = 0;
  ASSERT_EQ(trnsparseGather(h.h, vz, x), TRNSPARSE_STATUS_SUCCESS);
  for (int e = 0; e < 3; ++e) EXPECT_EQ(xv[e], z[idx[e]]);
  // An index out of range: INVALID_VALUE at vecX, y untouched.
  idx[1] = 6;
  const std::vector<C> before(z, z + 6);
  EXPECT_EQ(trnsparseScatter(h.h, x, vz), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 1);
  EXPECT_EQ(std::vector<C>(z, z + 6), before);
  EXPECT_EQ(trnsparseAxpby(h.h, &alpha, x, &beta, vz), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 2);
  EXPECT_EQ(std::vector<C>(z, z + 6), before);
  trnsparseDestroySpVec(x);
  trnsparseDestroyDnVec(vy);
  trnsparseDestroyDnVec(vz);
}

// ---- conversions ------------------------------------------------------------------------------

TEST(GenericConversions, DenseToCsrToDenseAndCsr2cscAgainstTheDenseCopy) {
  Handle h;
  using T = std::complex<double>;
  const Csr<T> s(9, 7, 0.3, 21);
  std::vector<T> dense(static_cast<size_t>(9 * 7));  // column-major, ld 9
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 7; ++j) dense[static_cast<size_t>(i + j * 9)] = narrow<T>(s.dense[static_cast<size_t>(i * 7 + j)]);
  trnsparseDnMatDescr_t mA = nullptr;
  ASSERT_EQ(trnsparseCreateDnMat(&mA, 9, 7, 9, dense.data(), TRN_C_64F, TRNSPARSE_ORDER_COL), TRNSPARSE_STATUS_SUCCESS);
  std::vector<int> off(10, -1);
  trnsparseSpMatDescr_t B = nullptr;
  ASSERT_EQ(trnsparseCreateCsr(&B, 9, 7, 0, off.data(), nullptr, nullptr, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                               TRNSPARSE_INDEX_BASE_ONE, TRN_C_64F),
            TRNSPARSE_STATUS_SUCCESS);
  size_t bytes = 0;
  ASSERT_EQ(trnsparseDenseToSparse_bufferSize(h.h, mA, B, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, &bytes),
            TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseDenseToSparse_analysis(h.h, mA, B, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  int64_t r = 0, c = 0, nnz = 0;
  ASSERT_EQ(trnsparseSpMatGetSize(B, &r, &c, &nnz), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(nnz, s.nnz());
  std::vector<int> col(static_cast<size_t>(nnz));
  std::vector<T> val(static_cast<size_t>(nnz));
  ASSERT_EQ(trnsparseCsrSetPointers(B, off.data(), col.data(), val.data()), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseDenseToSparse_convert(h.h, mA, B, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  for (size_t i = 0; i < s.off.size(); ++i) EXPECT_EQ(off[i], s.off[i] + 1);
  for (size_t e = 0; e < s.col.size(); ++e) {
    EXPECT_EQ(col[e], s.col[e] + 1);
    EXPECT_EQ(val[e], s.val[e]);
  }
  // SparseToDense of the result (row-major this time) reproduces the dense copy exactly.
  std::vector<T> back(static_cast<size_t>(9 * 7), T(9, 9));
  trnsparseDnMatDescr_t mBack = nullptr;
  ASSERT_EQ(trnsparseCreateDnMat(&mBack, 9, 7, 7, back.data(), TRN_C_64F, TRNSPARSE_ORDER_ROW), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseSparseToDense(h.h, B, mBack, TRNSPARSE_SPARSETODENSE_ALG_DEFAULT, nullptr), TRNSPARSE_STATUS_SUCCESS);
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 7; ++j) EXPECT_EQ(back[static_cast<size_t>(i * 7 + j)], dense[static_cast<size_t>(i + j * 9)]);
  // Csr2cscEx2 (zero-based, the generator's CSR): the CSC of the dense copy.
  std::vector<int> cptr(8), rind(static_cast<size_t>(s.nnz()));
  std::vector<T> cval(static_cast<size_t>(s.nnz()));
  ASSERT_EQ(trnsparseCsr2cscEx2(h.h, 9, 7, s.nnz(), s.val.data(), s.off.data(), s.col.data(), cval.data(), cptr.data(),
                                rind.data(), TRN_C_64F, TRNSPARSE_ACTION_NUMERIC, TRNSPARSE_INDEX_BASE_ZERO,
                                TRNSPARSE_CSR2CSC_ALG1, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  size_t e = 0;
  for (int j = 0; j < 7; ++j) {
    EXPECT_EQ(cptr[static_cast<size_t>(j)], static_cast<int>(e));
    for (int i = 0; i < 9; ++i)
      if (s.dense[static_cast<size_t>(i * 7 + j)] != cld(0)) {
        EXPECT_EQ(rind[e], i);
        EXPECT_EQ(cval[e], dense[static_cast<size_t>(i + j * 9)]);
        ++e;
      }
  }
  // An out-of-range column: INVALID_VALUE at csrColInd (6), outputs untouched.
  std::vector<int> badcol = s.col;
  badcol.back() = 7;
  const std::vector<int> cptr0 = cptr;
  EXPECT_EQ(trnsparseCsr2cscEx2(h.h, 9, 7, s.nnz(), s.val.data(), s.off.data(), badcol.data(), cval.data(), cptr.data(),
                                rind.data(), TRN_C_64F, TRNSPARSE_ACTION_NUMERIC, TRNSPARSE_INDEX_BASE_ZERO,
                                TRNSPARSE_CSR2CSC_ALG1, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 6);
  EXPECT_EQ(cptr, cptr0);
  trnsparseDestroyDnMat(mA);
  trnsparseDestroyDnMat(mBack);
  trnsparseDestroySpMat(B);
}

// The C++ API takes int64 dimensions: an index range wider than 2^31 (a dimension above int32's) must
// still refuse a negative int32 index and keep the largest one (the vectorised range check clamps the
// range to int32's before its unsigned test; unclamped, INT32_MIN passed: session 26 review).
TEST(GenericConversions, IndexRangeWiderThanInt32StillRefusesNegativeIndices) {
  const std::int64_t wide = std::int64_t{1} << 31;
  for (const std::int32_t bad : {INT32_MIN, INT32_MIN + 1, -1}) {
    std::int32_t rows[1] = {bad}, cols[1] = {0}, P[1] = {0};
    EXPECT_THROW(trn::sparse::coo_sort(wide, 4, 1, rows, cols, P, true), trn::InvalidArgument) << bad;
    EXPECT_EQ(rows[0], bad);
    std::int32_t rows2[1] = {0}, cols2[1] = {bad};
    EXPECT_THROW(trn::sparse::coo_sort(4, wide + 5, 1, rows2, cols2, P, false), trn::InvalidArgument) << bad;
  }
  std::int32_t rows[2] = {INT32_MAX, 0}, cols[2] = {0, 1}, P[2] = {0, 1};
  trn::sparse::coo_sort(wide, 4, 2, rows, cols, P, true);  // both in [0, 2^31]: sorted, no error
  EXPECT_EQ(std::vector<std::int32_t>(rows, rows + 2), (std::vector<std::int32_t>{0, INT32_MAX}));
  EXPECT_EQ(std::vector<std::int32_t>(P, P + 2), (std::vector<std::int32_t>{1, 0}));
}

TEST(GenericConversions, CooCsrRoundTripAndSortsCarryThePermutation) {
  Handle h;
  int rows[6] = {2, 0, 1, 0, 2, 1}, cols[6] = {1, 3, 0, 0, 0, 2}, P[6];
  ASSERT_EQ(trnsparseCreateIdentityPermutation(h.h, 6, P), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseXcoosortByRow(h.h, 3, 4, 6, rows, cols, P, nullptr), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(std::vector<int>(rows, rows + 6), (std::vector<int>{0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(std::vector<int>(cols, cols + 6), (std::vector<int>{0, 3, 0, 2, 0, 1}));
  EXPECT_EQ(std::vector<int>(P, P + 6), (std::vector<int>{3, 1, 2, 5, 4, 0}));
  int ptr[4];
  ASSERT_EQ(trnsparseXcoo2csr(h.h, rows, 6, 3, ptr, TRNSPARSE_INDEX_BASE_ZERO), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(std::vector<int>(ptr, ptr + 4), (std::vector<int>{0, 2, 4, 6}));
  int back[6];
  ASSERT_EQ(trnsparseXcsr2coo(h.h, ptr, 6, 3, back, TRNSPARSE_INDEX_BASE_ZERO), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(std::vector<int>(back, back + 6), std::vector<int>(rows, rows + 6));
  // csrsort: shuffle the columns within rows, sort back, P says where each came from.
  int scol[6] = {3, 0, 2, 0, 1, 0}, Q[6] = {0, 1, 2, 3, 4, 5};
  trnsparseMatDescr_t descr = nullptr;
  ASSERT_EQ(trnsparseCreateMatDescr(&descr), TRNSPARSE_STATUS_SUCCESS);
  size_t bytes = 0;
  ASSERT_EQ(trnsparseXcsrsort_bufferSizeExt(h.h, 3, 4, 6, ptr, scol, &bytes), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseXcsrsort(h.h, 3, 4, 6, descr, ptr, scol, Q, nullptr), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(std::vector<int>(scol, scol + 6), (std::vector<int>{0, 3, 0, 2, 0, 1}));
  EXPECT_EQ(std::vector<int>(Q, Q + 6), (std::vector<int>{1, 0, 3, 2, 5, 4}));
  // Unsorted COO rows in coo2csr, an out-of-range column in csrsort: INVALID_VALUE, outputs untouched.
  int unsorted[3] = {1, 0, 2}, ptr2[4] = {7, 7, 7, 7};
  EXPECT_EQ(trnsparseXcoo2csr(h.h, unsorted, 3, 3, ptr2, TRNSPARSE_INDEX_BASE_ZERO), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 1);
  EXPECT_EQ(ptr2[0], 7);
  scol[2] = 4;
  EXPECT_EQ(trnsparseXcsrsort(h.h, 3, 4, 6, descr, ptr, scol, Q, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 6);
  EXPECT_EQ(Q[0], 1);
  trnsparseDestroyMatDescr(descr);
}


// ---- SDDMM in fp64 / complex (CSR and BSR patterns, batches, op N / T / C) ---------------------

// SDDMM's output pattern: CSR (random, ~40% of m x n) or BSR (block rows x block cols of rb x cb
// blocks, ~50% of the blocks, row or column order inside a block), with where[e] = (i, j) of every
// value slot e, from the layout rules of cuSPARSE's CSR / BSR (written here independently of the
// library's walk).
struct SddmmPattern {
  bool bsr = false;
  int m = 0, n = 0, brows = 0, bcols = 0, rb = 1, cb = 1, nnzb = 0;
  bool row_order = true;
  std::vector<int> off, col;
  std::vector<std::pair<int, int>> where;
  SddmmPattern(bool bsr_, bool row_order_, std::uint64_t seed) : bsr(bsr_), row_order(row_order_) {
    std::mt19937_64 g(seed);
    std::bernoulli_distribution keep(bsr ? 0.5 : 0.4);
    brows = bsr ? 3 : 11, bcols = bsr ? 4 : 9, rb = bsr ? 2 : 1, cb = bsr ? 3 : 1;
    m = brows * rb, n = bcols * cb;
    off.push_back(0);
    for (int I = 0; I < brows; ++I) {
      for (int J = 0; J < bcols; ++J)
        if (keep(g)) col.push_back(J);
      off.push_back(static_cast<int>(col.size()));
    }
    nnzb = static_cast<int>(col.size());
    where.resize(static_cast<size_t>(nnzb * rb * cb));
    for (int I = 0; I < brows; ++I)
      for (int b = off[static_cast<size_t>(I)]; b < off[static_cast<size_t>(I) + 1]; ++b)
        for (int r = 0; r < rb; ++r)
          for (int c = 0; c < cb; ++c)
            where[static_cast<size_t>(b * rb * cb + (row_order ? r * cb + c : c * rb + r))] = {I * rb + r,
                                                                                                 col[static_cast<size_t>(b)] * cb + c};
  }
  int values() const { return static_cast<int>(where.size()); }
  trnsparseSpMatDescr_t create(int* offp, int* colp, void* val, trnDataType_t vt) const {
    trnsparseSpMatDescr_t d = nullptr;
    const trnsparseStatus_t st =
        bsr ? trnsparseCreateBsr(&d, brows, bcols, nnzb, rb, cb, offp, colp, val, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                 TRNSPARSE_INDEX_BASE_ZERO, vt, row_order ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL)
            : trnsparseCreateCsr(&d, m, n, nnzb, offp, colp, val, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                 TRNSPARSE_INDEX_BASE_ZERO, vt);
    EXPECT_EQ(st, TRNSPARSE_STATUS_SUCCESS);
    return d;
  }
};

// C = alpha (op(A) op(B)) o spy(C) + beta C through trnsparseSDDMM (bufferSize, preprocess, call) on
// `batches` strided batches (A, B and C's values strided; C's pattern shared), against a long-double
// loop: A row-major, B column-major (op N: A M x K, B K x N; op T / C: A K x M, B N x K).
template <class T>
void check_sddmm(bool bsr, bool row_order, int opA, int opB, int batches, std::uint64_t seed) {
  Handle h;
  SddmmPattern p(bsr, row_order, seed);
  const int M = p.m, N = p.n, K = 13, nv = p.values();
  const int arows = opA == 0 ? M : K, acols = opA == 0 ? K : M, brows = opB == 0 ? K : N, bcols = opB == 0 ? N : K;
  std::mt19937_64 g(seed + 7);
  std::vector<T> A(static_cast<size_t>(M * K * batches)), B(static_cast<size_t>(K * N * batches)),
      C(static_cast<size_t>(nv * batches));
  for (auto& x : A) x = draw<T>(g);
  for (auto& x : B) x = draw<T>(g);
  for (auto& x : C) x = draw<T>(g);
  const std::vector<T> C0 = C;
  std::vector<int> cols = p.col;  // per batch for CSR (columns move with the values' stride)
  if (!bsr)
    for (int b = 1; b < batches; ++b) cols.insert(cols.end(), p.col.begin(), p.col.end());
  const T alpha = narrow<T>(cld(0.75L, Traits<T>::complex ? -0.5L : 0.0L));
  const T beta = narrow<T>(cld(-0.25L, Traits<T>::complex ? 0.125L : 0.0L));
  const trnDataType_t vt = Traits<T>::type;
  trnsparseDnMatDescr_t dA = nullptr, dB = nullptr;
  ASSERT_EQ(trnsparseCreateDnMat(&dA, arows, acols, acols, A.data(), vt, TRNSPARSE_ORDER_ROW), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseCreateDnMat(&dB, brows, bcols, brows, B.data(), vt, TRNSPARSE_ORDER_COL), TRNSPARSE_STATUS_SUCCESS);
  trnsparseSpMatDescr_t sC = p.create(p.off.data(), cols.data(), C.data(), vt);
  if (batches > 1) {
    ASSERT_EQ(trnsparseDnMatSetStridedBatch(dA, batches, M * K), TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(trnsparseDnMatSetStridedBatch(dB, batches, K * N), TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(bsr ? trnsparseBsrSetStridedBatch(sC, batches, 0, 0, nv) : trnsparseCsrSetStridedBatch(sC, batches, 0, p.nnzb),
              TRNSPARSE_STATUS_SUCCESS);
  }
  const auto oa = static_cast<trnsparseOperation_t>(opA), ob = static_cast<trnsparseOperation_t>(opB);
  size_t bytes = 0;
  ASSERT_EQ(trnsparseSDDMM_bufferSize(h.h, oa, ob, &alpha, dA, dB, &beta, sC, vt, TRNSPARSE_SDDMM_ALG_DEFAULT, &bytes),
            TRNSPARSE_STATUS_SUCCESS);
  std::vector<char> buf(bytes);
  ASSERT_EQ(trnsparseSDDMM_preprocess(h.h, oa, ob, &alpha, dA, dB, &beta, sC, vt, TRNSPARSE_SDDMM_ALG_DEFAULT, buf.data()),
            TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseSDDMM(h.h, oa, ob, &alpha, dA, dB, &beta, sC, vt, TRNSPARSE_SDDMM_ALG_DEFAULT, buf.data()),
            TRNSPARSE_STATUS_SUCCESS);
  trnProfile_t prof{};
  ASSERT_EQ(trnsparseGetLastProfile(h.h, &prof), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_GT(prof.total_ns, 0.0) << "the call is costed";
  EXPECT_GT(prof.busy_ns[TRN_ENGINE_TENSOR], 0.0) << "C_32F, R_64F and C_64F on TensorE";
  trnsparseDestroyDnMat(dA);
  trnsparseDestroyDnMat(dB);
  trnsparseDestroySpMat(sC);
  auto opa = [&](int b, int i, int k) {  // op(A)(i, k) of batch b
    const T* a = A.data() + static_cast<size_t>(b * M * K);
    const cld v = wide(opA == 0 ? a[i * K + k] : a[k * M + i]);
    return opA == 2 ? std::conj(v) : v;
  };
  auto opb = [&](int b, int k, int j) {  // op(B)(k, j) of batch b
    const T* x = B.data() + static_cast<size_t>(b * K * N);
    const cld v = wide(opB == 0 ? x[k + j * K] : x[j + k * N]);
    return opB == 2 ? std::conj(v) : v;
  };
  long double worst = 0;
  for (int b = 0; b < batches; ++b)
    for (int e = 0; e < nv; ++e) {
      const auto [i, j] = p.where[static_cast<size_t>(e)];
      cld acc = 0;
      long double mag = 0, max_a = 0, max_b = 0;
      for (int k = 0; k < K; ++k) {
        acc += opa(b, i, k) * opb(b, k, j);
        mag += std::abs(opa(b, i, k)) * std::abs(opb(b, k, j));
        max_a = std::max(max_a, std::abs(opa(b, i, k)));
        max_b = std::max(max_b, std::abs(opb(b, k, j)));
      }
      const size_t ci = static_cast<size_t>(b * nv + e);
      const cld want = wide(alpha) * acc + wide(beta) * wide(C0[ci]);
      const long double err = std::abs(wide(C[ci]) - want);
      const long double al = std::abs(wide(alpha)), bc = std::abs(wide(beta)) * std::abs(wide(C0[ci]));
      long double bnd = 0;
      if constexpr (std::is_same_v<T, std::complex<float>>)
        bnd = bound<T>(K, al * mag + bc, std::abs(want));
      else  // one segmented slice-pair SpMV over the entries (s12/spdev): each dot rounded once, then the epilogue
        bnd = (Traits<T>::complex ? 8.0L : 4.1L) * 0x1p-53L * (al * std::abs(acc) + bc);
      (void)max_a;
      (void)max_b;
      ASSERT_LE(err, bnd) << "batch " << b << " entry " << e << " (" << i << ", " << j << ")";
      // Tight enough to catch a wrong op, a missed conjugate or a misplaced entry: far below one product.
      EXPECT_LT(bnd, 1e-5L * (std::abs(wide(alpha)) * mag + 1e-3L));
      worst = std::max(worst, err / (bnd + 1e-300L));
    }
  EXPECT_LE(worst, 1.0L);
}

template <class T>
void sddmm_sweep() {
  std::uint64_t seed = 101;
  for (bool bsr : {false, true})
    for (int opA = 0; opA < 3; ++opA)
      for (int opB = 0; opB < 3; ++opB) {
        SCOPED_TRACE(testing::Message() << (bsr ? "BSR" : "CSR") << " opA " << opA << " opB " << opB);
        check_sddmm<T>(bsr, (opA + opB) % 2 == 0, opA, opB, 1, ++seed);
      }
  for (bool bsr : {false, true}) {  // strided batches, both block orders
    SCOPED_TRACE(testing::Message() << (bsr ? "BSR" : "CSR") << " batched");
    check_sddmm<T>(bsr, true, 1, 0, 3, ++seed);
    check_sddmm<T>(bsr, false, 0, 2, 2, ++seed);
  }
}

TEST(GenericSddmm, Fp64CsrAndBsrWithinTheBound) { sddmm_sweep<double>(); }
TEST(GenericSddmm, ComplexFp32CsrAndBsrWithinTheBound) { sddmm_sweep<std::complex<float>>(); }
TEST(GenericSddmm, ComplexFp64CsrAndBsrWithinTheBound) { sddmm_sweep<std::complex<double>>(); }

// Mixed value types / compute types: NOT_SUPPORTED (cuSPARSE's table: A, B, C and computeType of
// one type for R_64F / C_32F / C_64F); bad arguments INVALID_VALUE at their position; a bad pattern
// column in batch 1 rejected before batch 0 is written; C untouched every time.
TEST(GenericSddmm, MixedTypesBadArgumentsAndBadPatternLeaveCUntouched) {
  Handle h;
  using Z = std::complex<double>;
  SddmmPattern p(false, true, 5);
  const int M = p.m, N = p.n, K = 4, nv = p.values();
  std::vector<Z> A(static_cast<size_t>(M * K * 2), Z(1, 1)), B(static_cast<size_t>(K * N * 2), Z(0.5, -1));
  std::vector<double> Bd(static_cast<size_t>(K * N), 0.5);
  std::vector<std::complex<float>> Bc(static_cast<size_t>(K * N), {0.5f, -1.0f});
  std::vector<Z> C(static_cast<size_t>(nv * 2), Z(2, 3));
  std::vector<int> cols = p.col;
  cols.insert(cols.end(), p.col.begin(), p.col.end());
  const std::vector<Z> before = C;
  trnsparseDnMatDescr_t dA = nullptr, dB = nullptr, dBd = nullptr, dBc = nullptr;
  trnsparseCreateDnMat(&dA, M, K, K, A.data(), TRN_C_64F, TRNSPARSE_ORDER_ROW);
  trnsparseCreateDnMat(&dB, K, N, K, B.data(), TRN_C_64F, TRNSPARSE_ORDER_COL);
  trnsparseCreateDnMat(&dBd, K, N, K, Bd.data(), TRN_R_64F, TRNSPARSE_ORDER_COL);
  trnsparseCreateDnMat(&dBc, K, N, K, Bc.data(), TRN_C_32F, TRNSPARSE_ORDER_COL);
  trnsparseSpMatDescr_t sC = p.create(p.off.data(), cols.data(), C.data(), TRN_C_64F);
  const Z alpha(1, 0), beta(0.5, 0);
  const auto Nop = TRNSPARSE_OPERATION_NON_TRANSPOSE;
  auto sddmm = [&](trnsparseDnMatDescr_t b, int ct, const void* al = nullptr) {
    return trnsparseSDDMM(h.h, Nop, Nop, al != nullptr ? al : &alpha, dA, b, &beta, sC, static_cast<trnDataType_t>(ct),
                          TRNSPARSE_SDDMM_ALG_DEFAULT, nullptr);
  };
  EXPECT_EQ(sddmm(dBd, TRN_C_64F), TRNSPARSE_STATUS_NOT_SUPPORTED);  // B R_64F
  EXPECT_EQ(sddmm(dBc, TRN_C_64F), TRNSPARSE_STATUS_NOT_SUPPORTED);  // B C_32F
  EXPECT_EQ(sddmm(dB, TRN_R_64F), TRNSPARSE_STATUS_NOT_SUPPORTED);   // compute R_64F
  EXPECT_EQ(sddmm(dB, TRN_C_32F), TRNSPARSE_STATUS_NOT_SUPPORTED);   // compute C_32F
  EXPECT_EQ(sddmm(dB, TRN_R_16F), TRNSPARSE_STATUS_INVALID_VALUE);   // not a compute type
  EXPECT_EQ(h.last_param(), 8);
  EXPECT_EQ(trnsparseSDDMM(h.h, Nop, Nop, nullptr, dA, dB, &beta, sC, TRN_C_64F, TRNSPARSE_SDDMM_ALG_DEFAULT, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 3);
  EXPECT_EQ(trnsparseSDDMM(h.h, TRNSPARSE_OPERATION_TRANSPOSE, Nop, &alpha, dA, dB, &beta, sC, TRN_C_64F,
                           TRNSPARSE_SDDMM_ALG_DEFAULT, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);  // op(A) = A^T is K x M
  EXPECT_EQ(h.last_param(), 4);
  EXPECT_EQ(C, before);
  // Strided batch of 2 with a bad column in batch 1 only.
  trnsparseDnMatSetStridedBatch(dA, 2, M * K);
  trnsparseDnMatSetStridedBatch(dB, 2, K * N);
  ASSERT_EQ(trnsparseCsrSetStridedBatch(sC, 2, 0, p.nnzb), TRNSPARSE_STATUS_SUCCESS);
  cols[static_cast<size_t>(p.nnzb)] = N;  // out of range
  EXPECT_EQ(sddmm(dB, TRN_C_64F), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 7);
  EXPECT_EQ(C, before);
  cols[static_cast<size_t>(p.nnzb)] = p.col[0];
  ASSERT_EQ(sddmm(dB, TRN_C_64F), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_NE(C, before);
  trnsparseDestroyDnMat(dA);
  trnsparseDestroyDnMat(dB);
  trnsparseDestroyDnMat(dBd);
  trnsparseDestroyDnMat(dBc);
  trnsparseDestroySpMat(sC);
}

}  // namespace

// The C++ layer's report: the plan prints the format, the value type and where it ran (C_64F SpMV:
// the segmented slice-pair launch on TensorE, s11/spseg), and the profile holds the modeled time.
TEST(GenericPlan, Fp64EnginePlanPrintsFormatTypeAndEngines) {
  namespace sp = trn::sparse;
  const int off[3] = {0, 1, 2}, col[2] = {1, 0};
  std::complex<double> val[2] = {{1, 2}, {3, 4}}, x[2] = {{1, 0}, {0, 1}}, y[2] = {};
  const sp::SparseRef A{sp::SparseRef::Format::csr, 2, 2, 2, off, col, val, sp::IndexType::i32, sp::IndexType::i32,
                        sp::IndexBase::zero, sp::Value::c64};
  sp::CallReport r;
  sp::spmv_host(sp::Settings{}, sp::GOp::C, 1.0, A, x, 0.0, y, &r);
  EXPECT_NE(r.plan.find("spmv plan"), std::string::npos) << r.plan;
  EXPECT_NE(r.plan.find("CSR C_64F"), std::string::npos) << r.plan;
  EXPECT_NE(r.plan.find("segmented slice pairs"), std::string::npos) << r.plan;
  EXPECT_NE(r.plan.find("TensorE"), std::string::npos) << r.plan;
  EXPECT_GT(r.modeled_ns(), 0.0);
  EXPECT_GT(r.matmuls, 0);
  // y = A^H x: A = [0 1+2i; 3+4i 0], A^H = [0 3-4i; 1-2i 0]: y = (3-4i) i, (1-2i) 1.
  EXPECT_EQ(y[0], std::complex<double>(4, 3));
  EXPECT_EQ(y[1], std::complex<double>(1, -2));
  std::printf("%s\n", r.plan.c_str());
}


TEST(GenericSddmm, Fp64EnginePlanPrintsFormatTypeAndEngines) {
  namespace sp = trn::sparse;
  // C = [x 0; 0 x] (CSR), A = [1 i; 2 0], B = I: C = A o spy(C) = [1 0; 0 0] + beta C.
  const int off[3] = {0, 1, 2}, col[2] = {0, 1};
  std::complex<double> a[4] = {{1, 0}, {2, 0}, {0, 1}, {0, 0}}, b[4] = {{1, 0}, {0, 0}, {0, 0}, {1, 0}}, c[2] = {{5, 5}, {7, 7}};
  const sp::DenseAny A{a, sp::Value::c64, 2, 2, 2, sp::Layout::col_major}, B{b, sp::Value::c64, 2, 2, 2, sp::Layout::col_major};
  const sp::SparseRef C{sp::SparseRef::Format::csr, 2, 2, 2, off, col, c, sp::IndexType::i32, sp::IndexType::i32,
                        sp::IndexBase::zero, sp::Value::c64};
  sp::CallReport r;
  sp::sddmm_host(sp::Settings{}, sp::GOp::N, sp::GOp::N, 1.0, A, B, 0.0, C, &r);
  EXPECT_NE(r.plan.find("sddmm plan"), std::string::npos) << r.plan;
  EXPECT_NE(r.plan.find("CSR C_64F"), std::string::npos) << r.plan;
  EXPECT_NE(r.plan.find("segmented slice-pair SpMV"), std::string::npos) << r.plan;
  EXPECT_GT(r.modeled_ns(), 0.0);
  EXPECT_GT(r.matmuls, 0);
  EXPECT_EQ(c[0], std::complex<double>(1, 0));
  EXPECT_EQ(c[1], std::complex<double>(0, 0));
  std::printf("%s\n", r.plan.c_str());
}

// ---- s10/spfp64: the R_64F / C_64F row groups on TensorE (rows_fp64.cpp, sddmm_fp64) ------------

namespace {

namespace sp = trn::sparse;
using cd = std::complex<double>;

// A rows x cols CSR (int32): band = true, entries at |i - j| <= 3 (each group of rows shares its
// columns); false, ~2% scattered (seeded). Values complex; R_64F runs read their real parts.
struct RowsCsr {
  int rows, cols;
  std::vector<int> off{0}, col;
  std::vector<cd> val;
  std::vector<double> re;
  RowsCsr(int m, int n, bool band, std::uint64_t seed) : rows(m), cols(n) {
    std::mt19937_64 g(seed);
    std::bernoulli_distribution keep(0.02);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j)
        if (band ? std::abs(i - j) <= 3 : keep(g)) {
          col.push_back(j);
          val.emplace_back(u(g), u(g));
          re.push_back(val.back().real());
        }
      off.push_back(static_cast<int>(col.size()));
    }
  }
  sp::SparseRef ref(sp::Value v) {
    return {sp::SparseRef::Format::csr, rows, cols, static_cast<std::int64_t>(col.size()), off.data(), col.data(),
            v == sp::Value::c64 ? static_cast<void*>(val.data()) : static_cast<void*>(re.data()), sp::IndexType::i32,
            sp::IndexType::i32, sp::IndexBase::zero, v};
  }
};

// C = 0.75 A B - 0.25 C (n columns; n == 1 through spmv_host) and SDDMM on A's pattern, as raw bytes.
std::vector<unsigned char> rows_run(RowsCsr& a, sp::Value v, int n, const sp::Settings& s, sp::CallReport* r) {
  const std::size_t vb = sp::value_bytes(v);
  std::vector<unsigned char> B(static_cast<std::size_t>(a.cols * n) * vb), C(static_cast<std::size_t>(a.rows * n) * vb);
  for (std::size_t i = 0; i < B.size() / 8; ++i) reinterpret_cast<double*>(B.data())[i] = std::sin(1.0 + static_cast<double>(i));
  for (std::size_t i = 0; i < C.size() / 8; ++i) reinterpret_cast<double*>(C.data())[i] = std::cos(2.0 * static_cast<double>(i));
  if (n == 1)
    sp::spmv_host(s, sp::GOp::N, 0.75, a.ref(v), B.data(), -0.25, C.data(), r);
  else
    sp::spmm_host(s, sp::GOp::N, sp::GOp::N, 0.75, a.ref(v), {B.data(), v, a.cols, n, a.cols, sp::Layout::col_major}, -0.25,
                  {C.data(), v, a.rows, n, a.rows, sp::Layout::col_major}, r);
  // SDDMM on a copy of A's pattern: A_d (rows x 5) times B_d (5 x cols), both from B's bytes.
  std::vector<unsigned char> vals(a.col.size() * vb, 0);
  std::vector<unsigned char> Ad(static_cast<std::size_t>(a.rows * 5) * vb), Bd(static_cast<std::size_t>(5 * a.cols) * vb);
  for (std::size_t i = 0; i < Ad.size() / 8; ++i) reinterpret_cast<double*>(Ad.data())[i] = std::cos(0.5 + static_cast<double>(i));
  for (std::size_t i = 0; i < Bd.size() / 8; ++i) reinterpret_cast<double*>(Bd.data())[i] = std::sin(0.25 * static_cast<double>(i));
  sp::SparseRef pat = a.ref(v);
  pat.values = vals.data();
  sp::sddmm_host(s, sp::GOp::N, sp::GOp::N, 0.75, {Ad.data(), v, a.rows, 5, a.rows, sp::Layout::col_major},
                 {Bd.data(), v, 5, a.cols, 5, sp::Layout::col_major}, 0.0, pat, nullptr);
  C.insert(C.end(), vals.begin(), vals.end());
  return C;
}

}  // namespace

// Same bits for 1 / 3 host threads, 1 / 2 cores and trn1 / trn2 (the grouping depends on the pattern
// alone); the plan names the group size: banded rows (which share their columns) take larger groups
// than scattered rows (which pad a group's panel with its rows' distinct columns); TensorE runs the
// products.
TEST(Fp64Rows, BitsIndependentOfThreadsCoresAndTargetAndGroupSizeFollowsThePattern) {
  auto group_rows = [](const std::string& plan) {
    const auto at = plan.find("row groups of ");
    return at == std::string::npos ? -1 : std::stoi(plan.substr(at + 14));
  };
  int g_band = 0, g_scattered = 0;
  for (const bool band : {true, false}) {
    RowsCsr a(300, 280, band, 9);
    for (const sp::Value v : {sp::Value::f64, sp::Value::c64})
      for (const int n : {1, 3, 17, 65}) {  // n <= 64: the segmented kernel (s11/spseg, s12/spdev); 65: the row groups
        SCOPED_TRACE(testing::Message() << (band ? "band" : "scattered") << " " << sp::value_name(v) << " n " << n);
        sp::CallReport r;
        const std::vector<unsigned char> ref = rows_run(a, v, n, sp::Settings{}, &r);
        EXPECT_GT(r.matmuls, 0);
        EXPECT_GT(r.profile.busy_ns[static_cast<int>(trn::Engine::tensor)], 0.0);
        if (n <= 64) {  // SpMV and SpMM up to 64 columns: the segmented slice-pair launch, no row groups
          EXPECT_NE(r.plan.find("segmented slice pairs"), std::string::npos) << r.plan;
        } else {
          const int g = group_rows(r.plan);
          EXPECT_GE(g, 1) << r.plan;
          (band ? g_band : g_scattered) = std::max(band ? g_band : g_scattered, g);
        }
        for (auto [threads, cores, target] : {std::tuple{3, 1, trn::Generation::trn1}, std::tuple{2, 2, trn::Generation::trn1},
                                              std::tuple{1, 1, trn::Generation::trn2}}) {
          sp::Settings s;
          s.host_threads = threads;
          s.num_cores = cores;
          s.target = target;
          EXPECT_TRUE(rows_run(a, v, n, s, nullptr) == ref) << threads << " threads, " << cores << " cores";
        }
      }
  }
  EXPECT_GT(g_band, g_scattered);
  std::printf("row groups: band %d rows, scattered %d rows\n", g_band, g_scattered);
}

// DenseToSparse_convert walks A in memory order (s16/sparse: a column-major A to CSR / COO, a
// row-major one to CSC, fill per-major slots): the arrays must equal the output-order loop's, bit for
// bit, for every value type, format, layout and base, with NaN, -0 and a padded ld in A.
TEST(GenericConvert, DenseToSparseEqualsTheOutputOrderLoopEveryLayout) {
  namespace sp = trn::sparse;
  std::mt19937_64 g(2026);
  for (sp::Value v : {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64})
    for (sp::Layout layout : {sp::Layout::col_major, sp::Layout::row_major})
      for (sp::SparseRef::Format fmt : {sp::SparseRef::Format::csr, sp::SparseRef::Format::csc, sp::SparseRef::Format::coo})
        for (sp::IndexBase base : {sp::IndexBase::zero, sp::IndexBase::one}) {
          const std::int64_t rows = 37, cols = 29, ld = (layout == sp::Layout::col_major ? rows : cols) + 3;
          const std::size_t w = sp::value_bytes(v), parts = w / (v == sp::Value::f32 || v == sp::Value::c32 ? 4 : 8);
          const bool f32 = v == sp::Value::f32 || v == sp::Value::c32;
          std::vector<unsigned char> a(static_cast<std::size_t>(ld * (layout == sp::Layout::col_major ? cols : rows)) * w, 0);
          auto at = [&](std::int64_t r, std::int64_t c) {
            return a.data() + static_cast<std::size_t>(layout == sp::Layout::col_major ? r + c * ld : r * ld + c) * w;
          };
          for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t c = 0; c < cols; ++c)
              for (std::size_t p = 0; p < parts; ++p) {
                const int kind = static_cast<int>(g() % 12);
                const double x = kind == 0 ? std::nan("") : kind == 1 ? -0.0 : kind < 4 ? static_cast<double>(g() % 7) - 3.0 : 0.0;
                if (f32) {
                  const float f = static_cast<float>(x);
                  std::memcpy(at(r, c) + p * 4, &f, 4);
                } else {
                  std::memcpy(at(r, c) + p * 8, &x, 8);
                }
              }
          const sp::DenseAny A{a.data(), v, rows, cols, ld, layout};
          const bool by_cols = fmt == sp::SparseRef::Format::csc;
          const std::int64_t major = by_cols ? cols : rows, minor = by_cols ? rows : cols, b = base == sp::IndexBase::one;
          // The output-order loop.
          std::vector<std::int32_t> want_off(static_cast<std::size_t>(major) + 1, static_cast<std::int32_t>(b)), want_ind, want_major;
          std::vector<unsigned char> want_val;
          for (std::int64_t m = 0; m < major; ++m) {
            for (std::int64_t k = 0; k < minor; ++k) {
              const unsigned char* e = by_cols ? at(k, m) : at(m, k);
              bool nz = false;
              for (std::size_t p = 0; p < parts; ++p) {
                if (f32) {
                  float f;
                  std::memcpy(&f, e + p * 4, 4);
                  nz = nz || f != 0.0f;
                } else {
                  double d;
                  std::memcpy(&d, e + p * 8, 8);
                  nz = nz || d != 0.0;
                }
              }
              if (!nz) continue;
              want_ind.push_back(static_cast<std::int32_t>(k + b));
              want_major.push_back(static_cast<std::int32_t>(m + b));
              want_val.insert(want_val.end(), e, e + w);
            }
            want_off[static_cast<std::size_t>(m) + 1] = static_cast<std::int32_t>(want_ind.size() + b);
          }
          const auto nnz = static_cast<std::int64_t>(want_ind.size());
          const bool coo = fmt == sp::SparseRef::Format::coo;
          std::vector<std::int32_t> off(coo ? static_cast<std::size_t>(nnz) : static_cast<std::size_t>(major) + 1, -7);
          std::vector<std::int32_t> ind(static_cast<std::size_t>(nnz), -7);
          std::vector<unsigned char> val(static_cast<std::size_t>(nnz) * w, 0xCD);
          sp::SparseRef out{fmt, rows, cols, 0, off.data(), ind.data(), val.data(), sp::IndexType::i32, sp::IndexType::i32, base, v};
          out.nnz = sp::dense_to_sparse_analysis(A, out);
          ASSERT_EQ(out.nnz, nnz);
          sp::dense_to_sparse_convert(A, out);
          EXPECT_EQ(ind, want_ind);
          EXPECT_EQ(val, want_val);
          EXPECT_EQ(off, coo ? want_major : want_off);
        }
}
