// Complex-fp32 SpMM / SpMV on TensorE through the real 2 x 2 embedding (trn/sparse/generic.hpp
// spmm_c32): BSR (both block orders) and Blocked-ELL (with an empty slot) through the C API, op(A)
// N / T / C, real and complex alpha / beta, column- and row-major operands, against a long-double
// loop over the dense expansion (independent code) with the bound sqrt(2) gamma32_{2k+6} of
// docs/trnsparse.md "Complex-fp32 on TensorE", checked two-sided (a wrong op, a missed conjugate or
// a dropped block exceeds it by orders of magnitude); the profile is engine work (TensorE busy, no
// host step unless alpha / beta are complex); bits equal for 1 and 3 host threads and 1 and 2
// cores; the plan prints the embedding; an exact small case; the legacy Cbsrmv.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "c_api_test_util.hpp"
#include "trn/sparse/generic.hpp"
#include "trnsparse.h"

namespace {

using trnsparse_test::Handle;
using cf = std::complex<float>;
using cld = std::complex<long double>;
namespace sp = trn::sparse;

cld wide(cf v) { return {v.real(), v.imag()}; }

// A block-sparse complex matrix: brows x bcols blocks of bs x bs, about half of them stored; its BSR
// arrays (block order `row_order`), its Blocked-ELL arrays (slots = max blocks per row, -1 padded)
// and the dense expansion (row-major, long double).
struct Blocks {
  int brows, bcols, bs;
  std::vector<int> off{0}, col;
  std::vector<cf> bsr, ell;
  std::vector<int> ell_col;
  int slots = 0;
  std::vector<cld> dense;
  Blocks(int br, int bc, int b, bool row_order, std::uint64_t seed) : brows(br), bcols(bc), bs(b) {
    std::mt19937_64 g(seed);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::bernoulli_distribution keep(0.5);
    dense.assign(static_cast<size_t>(br * b * bc * b), 0);
    std::vector<std::vector<int>> rows(static_cast<size_t>(br));
    for (int I = 0; I < br; ++I) {
      for (int J = 0; J < bc; ++J)
        if (keep(g)) {
          rows[static_cast<size_t>(I)].push_back(J);
          col.push_back(J);
          for (int e = 0; e < b * b; ++e) {
            const cf v(d(g), d(g));
            bsr.push_back(v);
            const int r = row_order ? e / b : e % b, c = row_order ? e % b : e / b;
            dense[static_cast<size_t>((I * b + r) * bc * b + J * b + c)] = wide(v);
          }
        }
      off.push_back(static_cast<int>(col.size()));
      slots = std::max(slots, static_cast<int>(rows[static_cast<size_t>(I)].size()));
    }
    slots = std::min(slots + 1, bc);  // an empty slot in most rows (ellCols <= cols)
    ell.assign(static_cast<size_t>(br * b * slots * b), cf(7.0f, 7.0f));  // empty slots hold garbage
    ell_col.assign(static_cast<size_t>(br * slots), -1);
    for (int I = 0; I < br; ++I)
      for (size_t t = 0; t < rows[static_cast<size_t>(I)].size(); ++t) {
        const int J = rows[static_cast<size_t>(I)][t];
        const int slot = static_cast<int>(rows[static_cast<size_t>(I)].size() - 1 - t);  // reversed: unsorted slots
        ell_col[static_cast<size_t>(I * slots + slot)] = J;
        for (int r = 0; r < b; ++r)
          for (int c = 0; c < b; ++c) {
            const cld v = dense[static_cast<size_t>((I * b + r) * bc * b + J * b + c)];
            ell[static_cast<size_t>((I * b + r) * slots * b + slot * b + c)] =
                cf(static_cast<float>(v.real()), static_cast<float>(v.imag()));
          }
      }
  }
  int rows() const { return brows * bs; }
  int cols() const { return bcols * bs; }
  cld at(int i, int j, int op) const {
    const cld a = op == 0 ? dense[static_cast<size_t>(i * cols() + j)] : dense[static_cast<size_t>(j * cols() + i)];
    return op == 2 ? std::conj(a) : a;
  }
  bool stored(int i, int j, int op) const {  // op(A)(i, j) lies in a stored block
    const int r = op == 0 ? i : j, c = op == 0 ? j : i;
    for (int e = off[static_cast<size_t>(r / bs)]; e < off[static_cast<size_t>(r / bs) + 1]; ++e)
      if (col[static_cast<size_t>(e)] == c / bs) return true;
    return false;
  }
};

struct Case {
  int fmt = 0;  // 0 BSR row order, 1 BSR column order, 2 Blocked-ELL
  int opA = 0, opB = 0, n = 3;  // n == 0: SpMV
  cf alpha{0.75f, -0.5f}, beta{-0.25f, 0.125f};
  bool c_row_major = true;
};

// Runs the case through the C API; returns C and the profile.
std::vector<cf> run(const Case& k, const Blocks& a, const std::vector<cf>& B, const std::vector<cf>& C0, int M, int K,
                    trnProfile_t* prof) {
  Handle h;
  std::vector<int> off = a.off, col = a.col, ecol = a.ell_col;
  std::vector<cf> vals = k.fmt == 2 ? a.ell : a.bsr, C = C0;
  trnsparseSpMatDescr_t d = nullptr;
  if (k.fmt == 2)
    EXPECT_EQ(trnsparseCreateBlockedEll(&d, a.rows(), a.cols(), a.bs, a.slots * a.bs, ecol.data(), vals.data(),
                                        TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRN_C_32F),
              TRNSPARSE_STATUS_SUCCESS);
  else
    EXPECT_EQ(trnsparseCreateBsr(&d, a.brows, a.bcols, static_cast<int64_t>(col.size()), a.bs, a.bs, off.data(), col.data(),
                                 vals.data(), TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRN_C_32F,
                                 k.fmt == 0 ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL),
              TRNSPARSE_STATUS_SUCCESS);
  const auto oa = static_cast<trnsparseOperation_t>(k.opA), ob = static_cast<trnsparseOperation_t>(k.opB);
  std::vector<cf> b = B;
  if (k.n == 0) {
    trnsparseDnVecDescr_t x = nullptr, y = nullptr;
    EXPECT_EQ(trnsparseCreateDnVec(&x, K, b.data(), TRN_C_32F), TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(trnsparseCreateDnVec(&y, M, C.data(), TRN_C_32F), TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(trnsparseSpMV(h.h, oa, &k.alpha, d, x, &k.beta, y, TRN_C_32F, TRNSPARSE_SPMV_ALG_DEFAULT, nullptr),
              TRNSPARSE_STATUS_SUCCESS);
    trnsparseDestroyDnVec(x);
    trnsparseDestroyDnVec(y);
  } else {
    trnsparseDnMatDescr_t mB = nullptr, mC = nullptr;
    const int brows = k.opB == 0 ? K : k.n, bcols = k.opB == 0 ? k.n : K;
    EXPECT_EQ(trnsparseCreateDnMat(&mB, brows, bcols, brows, b.data(), TRN_C_32F, TRNSPARSE_ORDER_COL),
              TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(trnsparseCreateDnMat(&mC, M, k.n, k.c_row_major ? k.n : M, C.data(), TRN_C_32F,
                                   k.c_row_major ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL),
              TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(trnsparseSpMM(h.h, oa, ob, &k.alpha, d, mB, &k.beta, mC, TRN_C_32F, TRNSPARSE_SPMM_ALG_DEFAULT, nullptr),
              TRNSPARSE_STATUS_SUCCESS);
    trnsparseDestroyDnMat(mB);
    trnsparseDestroyDnMat(mC);
  }
  EXPECT_EQ(trnsparseGetLastProfile(h.h, prof), TRNSPARSE_STATUS_SUCCESS);
  trnsparseDestroySpMat(d);
  return C;
}

void check(const Case& k, std::uint64_t seed) {
  const Blocks a(4, 3, 3, k.fmt != 1, seed);
  const int M = k.opA == 0 ? a.rows() : a.cols(), K = k.opA == 0 ? a.cols() : a.rows();
  const int n = k.n == 0 ? 1 : k.n;
  std::mt19937_64 g(seed + 7);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<cf> B(static_cast<size_t>(K * n)), C0(static_cast<size_t>(M * n));
  for (auto& x : B) x = cf(d(g), d(g));
  for (auto& x : C0) x = cf(d(g), d(g));
  trnProfile_t prof{};
  const std::vector<cf> C = run(k, a, B, C0, M, K, &prof);
  if (k.n == 0) {  // SpMV on these small blocks (6 x 6 embedded): slot rows on VectorE (s23/bsr32)
    EXPECT_EQ(prof.busy_ns[TRN_ENGINE_TENSOR], 0.0) << "the small-block SpMV runs on VectorE";
    EXPECT_GT(prof.busy_ns[TRN_ENGINE_VECTOR], 0.0) << "the small-block SpMV runs on VectorE";
  } else {
    EXPECT_GT(prof.busy_ns[TRN_ENGINE_TENSOR], 0.0) << "the product runs on TensorE";
  }
  EXPECT_EQ(prof.host_steps, (k.alpha.imag() != 0 ? 1 : 0) + (k.beta.imag() != 0 ? 1 : 0)) << "host steps: the folds only";
  const bool c_row = k.n != 0 && k.c_row_major;
  const int brows = k.n == 0 || k.opB == 0 ? K : n;
  long double worst = 0;
  for (int r = 0; r < M; ++r) {
    int kk = 0;  // stored scalars of op(A)'s row r (the sum's terms)
    for (int j = 0; j < K; ++j) kk += a.stored(r, j, k.opA) ? 1 : 0;
    for (int c = 0; c < n; ++c) {
      cld acc = 0;
      long double mag = 0;
      for (int j = 0; j < K; ++j) {
        const cf braw = k.n == 0 || k.opB == 0 ? B[static_cast<size_t>(j + c * brows)] : B[static_cast<size_t>(c + j * brows)];
        const cld b = k.n != 0 && k.opB == 2 ? std::conj(wide(braw)) : wide(braw);  // (SpMV: x as is)
        acc += a.at(r, j, k.opA) * b;
        mag += std::abs(a.at(r, j, k.opA)) * std::abs(b);
      }
      const size_t ci = c_row ? static_cast<size_t>(r * n + c) : static_cast<size_t>(r + c * M);
      const cld want = wide(k.alpha) * acc + wide(k.beta) * wide(C0[ci]);
      const long double scale = std::abs(wide(k.alpha)) * mag + std::abs(wide(k.beta)) * std::abs(wide(C0[ci]));
      const int t = 2 * kk + 6;
      const long double bnd = std::sqrt(2.0L) * t * 0x1p-24L / (1 - t * 0x1p-24L) * scale;
      const long double err = std::abs(wide(C[ci]) - want);
      ASSERT_LE(err, bnd) << "row " << r << " col " << c;
      EXPECT_LT(bnd, 1e-4L * (scale + 1e-3L));  // far below one product: a wrong op or lost block fails
      worst = std::max(worst, err / (bnd + 1e-300L));
    }
  }
  EXPECT_GT(worst, 0.0L) << "fp32 sums round somewhere (the path is not an fp64 one)";
}

TEST(C32Engine, BsrAndBlockedEllSpMMAndSpMVWithinTheBound) {
  std::uint64_t seed = 100;
  for (int fmt = 0; fmt < 3; ++fmt)
    for (int opA = 0; opA < 3; ++opA) {
      SCOPED_TRACE(testing::Message() << "format " << fmt << " opA " << opA);
      Case k;
      k.fmt = fmt;
      k.opA = opA;
      k.opB = opA;  // op(B) N / T / C packed
      check(k, ++seed);
      k.n = 0;  // SpMV
      check(k, ++seed);
      k.n = 2;  // real alpha / beta, column-major C in place, op(B) N
      k.opB = 0;
      k.alpha = {1.5f, 0.0f};
      k.beta = {0.5f, 0.0f};
      k.c_row_major = false;
      check(k, ++seed);
    }
}

TEST(C32Engine, BitsDoNotDependOnThreadsOrCores) {
  const Blocks a(6, 5, 4, true, 9);
  const int M = a.rows(), K = a.cols(), n = 3;
  std::vector<cf> B(static_cast<size_t>(K * n)), C0(static_cast<size_t>(M * n));
  std::mt19937_64 g(3);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  for (auto& x : B) x = cf(d(g), d(g));
  for (auto& x : C0) x = cf(d(g), d(g));
  const sp::BsrView bsr{a.brows, a.bcols, static_cast<std::int64_t>(a.col.size()), a.bs, a.bs, a.off.data(), a.col.data(),
                        const_cast<cf*>(a.bsr.data()), sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero,
                        trn::DType::f32, sp::BlockOrder::row};
  const sp::BlockedEllView ell{a.rows(), a.cols(), a.bs, a.slots * a.bs, a.ell_col.data(), const_cast<cf*>(a.ell.data()),
                               sp::IndexType::i32, sp::IndexBase::zero, trn::DType::f32};
  auto product = [&](int fmt, int threads, int cores) {
    sp::Settings s;
    s.host_threads = threads;
    s.num_cores = cores;
    std::vector<cf> C = C0;
    const sp::DenseAny Bd{B.data(), sp::Value::c32, K, n, K, sp::Layout::col_major};
    const sp::DenseAny Cd{C.data(), sp::Value::c32, M, n, M, sp::Layout::col_major};
    if (fmt == 0)
      sp::spmm_c32(s, sp::GOp::N, sp::GOp::N, {0.5, 0.25}, bsr, Bd, {1.0, 0.0}, Cd);
    else
      sp::spmm_c32(s, sp::GOp::N, sp::GOp::N, {0.5, 0.25}, ell, Bd, {1.0, 0.0}, Cd);
    return C;
  };
  for (int fmt : {0, 1}) {
    const std::vector<cf> ref = product(fmt, 1, 1);
    EXPECT_NE(std::memcmp(ref.data(), C0.data(), ref.size() * sizeof(cf)), 0);
    for (auto [threads, cores] : {std::pair{3, 1}, std::pair{1, 2}, std::pair{2, 2}}) {
      const std::vector<cf> got = product(fmt, threads, cores);
      EXPECT_EQ(std::memcmp(got.data(), ref.data(), ref.size() * sizeof(cf)), 0) << threads << " threads, " << cores << " cores";
    }
  }
}

// A = [0 1+2i; 3+4i 0] (CSR), y = A^H x with x = (1, i): y = ((3-4i) i, 1-2i) = (4+3i, 1-2i), exact in fp32.
TEST(C32Engine, PlanPrintsTheEmbeddingAndSmallCaseIsExact) {
  const int off[3] = {0, 1, 2}, col[2] = {1, 0};
  cf val[2] = {{1, 2}, {3, 4}}, x[2] = {{1, 0}, {0, 1}}, y[2] = {{9, 9}, {9, 9}};
  const sp::SparseRef A{sp::SparseRef::Format::csr, 2, 2, 2, off, col, val, sp::IndexType::i32, sp::IndexType::i32,
                        sp::IndexBase::zero, sp::Value::c32};
  sp::CallReport r;
  sp::spmm_c32(sp::Settings{}, sp::GOp::C, sp::GOp::N, 1.0, A, {x, sp::Value::c32, 2, 1, 2, sp::Layout::col_major}, 0.0,
               {y, sp::Value::c32, 2, 1, 2, sp::Layout::col_major}, &r);
  EXPECT_EQ(y[0], cf(4, 3));
  EXPECT_EQ(y[1], cf(1, -2));
  EXPECT_NE(r.plan.find("spmv plan: CSR C_32F 2x2"), std::string::npos) << r.plan;
  EXPECT_NE(r.plan.find("real 2x2 embedding"), std::string::npos) << r.plan;
  EXPECT_NE(r.plan.find("TensorE"), std::string::npos) << r.plan;
  EXPECT_NE(r.plan.find("spmm plan"), std::string::npos) << "the fp32 kernel's own plan follows: " << r.plan;
  EXPECT_EQ(r.profile.host_steps, 0);
  EXPECT_GT(r.matmuls, 0);
  std::printf("%s\n", r.plan.c_str());
}

// The legacy Cbsrmv takes the same path: y = A x for a 2 x 2-block BSR (4 x 4 embedded: the
// small-block SpMV, slot rows on VectorE since s23/bsr32).
TEST(C32Engine, LegacyCbsrmvRunsOnTheEngines) {
  Handle h;
  trnsparseMatDescr_t descr = nullptr;
  ASSERT_EQ(trnsparseCreateMatDescr(&descr), TRNSPARSE_STATUS_SUCCESS);
  const Blocks a(3, 2, 2, true, 5);
  std::vector<cf> x(static_cast<size_t>(a.cols()), cf(0.5f, -1.0f)), y(static_cast<size_t>(a.rows()));
  const cf alpha(1, 0), beta(0, 0);
  ASSERT_EQ(trnsparseCbsrmv(h.h, TRNSPARSE_DIRECTION_ROW, TRNSPARSE_OPERATION_NON_TRANSPOSE, a.brows, a.bcols,
                            static_cast<int>(a.col.size()), reinterpret_cast<const trnComplex*>(&alpha), descr,
                            reinterpret_cast<const trnComplex*>(a.bsr.data()), a.off.data(), a.col.data(), a.bs,
                            reinterpret_cast<const trnComplex*>(x.data()), reinterpret_cast<const trnComplex*>(&beta),
                            reinterpret_cast<trnComplex*>(y.data())),
            TRNSPARSE_STATUS_SUCCESS);
  trnProfile_t prof{};
  ASSERT_EQ(trnsparseGetLastProfile(h.h, &prof), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(prof.busy_ns[TRN_ENGINE_TENSOR], 0.0);
  EXPECT_GT(prof.busy_ns[TRN_ENGINE_VECTOR], 0.0);
  EXPECT_EQ(prof.host_steps, 0);
  for (int r = 0; r < a.rows(); ++r) {
    cld want = 0;
    long double mag = 0;
    for (int j = 0; j < a.cols(); ++j) {
      want += a.at(r, j, 0) * wide(x[static_cast<size_t>(j)]);
      mag += std::abs(a.at(r, j, 0)) * std::abs(wide(x[static_cast<size_t>(j)]));
    }
    const int t = 2 * a.cols() + 6;
    EXPECT_LE(std::abs(wide(y[static_cast<size_t>(r)]) - want), std::sqrt(2.0L) * t * 0x1p-24L / (1 - t * 0x1p-24L) * mag);
  }
  trnsparseDestroyMatDescr(descr);
}

// ---- R_64F / C_64F BSR and Blocked-ELL: Ozaki GEMMs per block row (trn/sparse/generic.hpp spmm_fp64) ----

using cd = std::complex<double>;
template <class T>
T from_cf(cf v) {
  if constexpr (std::is_same_v<T, double>)
    return v.real();
  else
    return T(v.real(), v.imag());
}
template <class T>
cld wide64(T v) {
  if constexpr (std::is_same_v<T, double>)
    return cld(v, 0.0L);
  else
    return cld(v.real(), v.imag());
}

// C = alpha op(A) op(B) + beta C through the C API (fmt 0/1 BSR row/column order, 2 Blocked-ELL), against
// the long-double loop with trnblas's Ozaki bound per block row: 2^-50 k max|a_i.| max|b_.j| |alpha| plus
// the epilogue's roundings (4 u64 of the magnitudes), C_64F four real products: twice that.
template <class T>
void check_fp64(int fmt, int opA, int opB, int n_cols, std::uint64_t seed) {
  const Blocks a(4, 3, 3, fmt != 1, seed);
  const trnDataType_t vt = std::is_same_v<T, double> ? TRN_R_64F : TRN_C_64F;
  const int M = opA == 0 ? a.rows() : a.cols(), K = opA == 0 ? a.cols() : a.rows(), n = n_cols == 0 ? 1 : n_cols;
  std::mt19937_64 g(seed + 3);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<T> B(static_cast<size_t>(K * n)), C(static_cast<size_t>(M * n));
  for (auto& x : B) x = from_cf<T>(cf(1, 1)) * d(g) + from_cf<T>(cf(0, 1)) * d(g);
  for (auto& x : C) x = from_cf<T>(cf(1, 0)) * d(g);
  const std::vector<T> C0 = C;
  std::vector<T> vals;
  for (const cf v : fmt == 2 ? a.ell : a.bsr) vals.push_back(from_cf<T>(v));
  std::vector<int> off = a.off, col = a.col, ecol = a.ell_col;
  const T alpha = from_cf<T>(cf(0.75f, -0.5f)), beta = from_cf<T>(cf(-0.25f, 0.125f));
  Handle h;
  trnsparseSpMatDescr_t A = nullptr;
  if (fmt == 2)
    ASSERT_EQ(trnsparseCreateBlockedEll(&A, a.rows(), a.cols(), a.bs, a.slots * a.bs, ecol.data(), vals.data(), TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_BASE_ZERO, vt),
              TRNSPARSE_STATUS_SUCCESS);
  else
    ASSERT_EQ(trnsparseCreateBsr(&A, a.brows, a.bcols, static_cast<int64_t>(col.size()), a.bs, a.bs, off.data(), col.data(),
                                 vals.data(), TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, vt,
                                 fmt == 0 ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL),
              TRNSPARSE_STATUS_SUCCESS);
  const auto oa = static_cast<trnsparseOperation_t>(opA), ob = static_cast<trnsparseOperation_t>(opB);
  if (n_cols == 0) {
    trnsparseDnVecDescr_t x = nullptr, y = nullptr;
    ASSERT_EQ(trnsparseCreateDnVec(&x, K, B.data(), vt), TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(trnsparseCreateDnVec(&y, M, C.data(), vt), TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(trnsparseSpMV(h.h, oa, &alpha, A, x, &beta, y, vt, TRNSPARSE_SPMV_ALG_DEFAULT, nullptr), TRNSPARSE_STATUS_SUCCESS);
    trnsparseDestroyDnVec(x);
    trnsparseDestroyDnVec(y);
  } else {  // B column-major, C row-major
    trnsparseDnMatDescr_t mB = nullptr, mC = nullptr;
    const int br = opB == 0 ? K : n, bc = opB == 0 ? n : K;
    ASSERT_EQ(trnsparseCreateDnMat(&mB, br, bc, br, B.data(), vt, TRNSPARSE_ORDER_COL), TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(trnsparseCreateDnMat(&mC, M, n, n, C.data(), vt, TRNSPARSE_ORDER_ROW), TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(trnsparseSpMM(h.h, oa, ob, &alpha, A, mB, &beta, mC, vt, TRNSPARSE_SPMM_ALG_DEFAULT, nullptr), TRNSPARSE_STATUS_SUCCESS);
    trnsparseDestroyDnMat(mB);
    trnsparseDestroyDnMat(mC);
  }
  trnProfile_t prof{};
  ASSERT_EQ(trnsparseGetLastProfile(h.h, &prof), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_GT(prof.busy_ns[TRN_ENGINE_TENSOR], 0.0) << "Ozaki products on TensorE";
  trnsparseDestroySpMat(A);
  const int brows = n_cols == 0 || opB == 0 ? K : n;
  auto opb = [&](int j, int c) {
    const T raw = n_cols == 0 || opB == 0 ? B[static_cast<size_t>(j + c * brows)] : B[static_cast<size_t>(c + j * brows)];
    return n_cols != 0 && opB == 2 ? std::conj(wide64(raw)) : wide64(raw);
  };
  auto opa = [&](int r, int j) {  // op(A)(r, j) as stored in T (R_64F keeps the real parts)
    const cld x = a.at(r, j, opA);
    return std::is_same_v<T, double> ? cld(x.real(), 0.0L) : x;
  };
  long double max_b = 0;
  for (int j = 0; j < K; ++j)
    for (int c = 0; c < n; ++c) max_b = std::max(max_b, std::abs(opb(j, c)));
  long double worst = 0;
  for (int r = 0; r < M; ++r) {
    long double max_a = 0;
    int k = 0;
    for (int j = 0; j < K; ++j) {
      max_a = std::max(max_a, std::abs(opa(r, j)));
      k += a.stored(r, j, opA) ? 1 : 0;
    }
    for (int c = 0; c < n; ++c) {
      cld acc = 0;
      long double mag = 0;
      for (int j = 0; j < K; ++j) {
        acc += opa(r, j) * opb(j, c);
        mag += std::abs(opa(r, j)) * std::abs(opb(j, c));
      }
      const size_t ci = n_cols == 0 ? static_cast<size_t>(r) : static_cast<size_t>(r * n + c);
      const cld want = wide64(alpha) * acc + wide64(beta) * wide64(C0[ci]);
      const long double scale = std::abs(wide64(alpha)) * mag + std::abs(wide64(beta)) * std::abs(wide64(C0[ci]));
      const long double parts = std::is_same_v<T, double> ? 1.0L : 2.0L;
      const long double bnd = parts * (0x1p-50L * k * max_a * max_b * std::abs(wide64(alpha)) + 4 * 0x1p-53L * scale);
      const long double err = std::abs(wide64(C[ci]) - want);
      ASSERT_LE(err, bnd) << "row " << r << " col " << c;
      EXPECT_LT(bnd, 1e-12L * (scale + k * max_a * max_b + 1e-3L));  // a wrong op or a lost block is O(1)
      worst = std::max(worst, err / (bnd + 1e-300L));
    }
  }
  EXPECT_LE(worst, 1.0L);
}

TEST(Fp64Engine, BsrAndBlockedEllOzakiSpMMAndSpMVWithinTheBound) {
  std::uint64_t seed = 300;
  for (int fmt = 0; fmt < 3; ++fmt)
    for (int opA = 0; opA < 3; ++opA) {
      SCOPED_TRACE(testing::Message() << "format " << fmt << " opA " << opA);
      {
        SCOPED_TRACE("R_64F SpMM");
        check_fp64<double>(fmt, opA, opA, 3, ++seed);
      }
      {
        SCOPED_TRACE("R_64F SpMV");
        check_fp64<double>(fmt, opA, 0, 0, ++seed);
      }
      {
        SCOPED_TRACE("C_64F SpMM");
        check_fp64<cd>(fmt, opA, opA, 2, ++seed);
      }
      {
        SCOPED_TRACE("C_64F SpMV");
        check_fp64<cd>(fmt, opA, 0, 0, ++seed);
      }
    }
}

// The plan names the Ozaki GEMMs; the bits do not depend on host threads or cores.
TEST(Fp64Engine, PlanAndBitsIndependentOfThreadsAndCores) {
  const Blocks a(5, 4, 4, true, 21);
  std::vector<cd> vals;
  for (const cf v : a.bsr) vals.push_back(cd(v.real(), v.imag()));
  const sp::BsrView bsr{a.brows, a.bcols, static_cast<std::int64_t>(a.col.size()), a.bs, a.bs, a.off.data(), a.col.data(),
                        vals.data(), sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, trn::DType::f32,
                        sp::BlockOrder::row};
  const int M = a.rows(), K = a.cols(), n = 2;
  std::vector<cd> B(static_cast<size_t>(K * n)), C0(static_cast<size_t>(M * n), cd(0.5, -0.5));
  for (int i = 0; i < K * n; ++i) B[static_cast<size_t>(i)] = cd(std::sin(i + 1.0), std::cos(3.0 * i));
  auto product = [&](int threads, int cores, sp::CallReport* r) {
    sp::Settings s;
    s.host_threads = threads;
    s.num_cores = cores;
    std::vector<cd> C = C0;
    sp::spmm_fp64(s, sp::GOp::N, sp::GOp::N, {1.0, 0.5}, bsr, sp::Value::c64, {B.data(), sp::Value::c64, K, n, K, sp::Layout::col_major},
                  {0.5, 0.0}, {C.data(), sp::Value::c64, M, n, M, sp::Layout::col_major}, r);
    return C;
  };
  sp::CallReport r;
  const std::vector<cd> ref = product(1, 1, &r);
  EXPECT_NE(r.plan.find("spmm plan: BSR C_64F"), std::string::npos) << r.plan;
  EXPECT_NE(r.plan.find("Ozaki zgemm 4M per block row"), std::string::npos) << r.plan;
  EXPECT_GT(r.matmuls, 0);
  std::printf("%s\n", r.plan.c_str());
  for (auto [threads, cores] : {std::pair{3, 1}, std::pair{2, 2}}) {
    const std::vector<cd> got = product(threads, cores, nullptr);
    EXPECT_EQ(std::memcmp(got.data(), ref.data(), ref.size() * sizeof(cd)), 0) << threads << " threads, " << cores << " cores";
  }
}

// y = alpha op(A) x + beta y0 through spmm_fp64 (generic.hpp) for the small-block SpMV tests below:
// fmt 0 / 1 BSR row / column order, 2 Blocked-ELL; A's pattern from `a`, its values `vals` (R_64F or
// C_64F by T), host threads and cores as given; returns y.
template <class T>
std::vector<T> small_block_spmv(const Blocks& a, int fmt, sp::GOp op, T alpha, std::vector<T>& vals,
                                std::vector<T>& x, T beta, const std::vector<T>& y0, int threads, int cores,
                                sp::CallReport* r) {
  constexpr sp::Value v = std::is_same_v<T, double> ? sp::Value::f64 : sp::Value::c64;
  sp::Settings s;
  s.host_threads = threads;
  s.num_cores = cores;
  std::vector<T> y = y0;
  const std::int64_t K = static_cast<std::int64_t>(x.size()), M = static_cast<std::int64_t>(y.size());
  const sp::DenseAny xd{x.data(), v, K, 1, K, sp::Layout::col_major}, yd{y.data(), v, M, 1, M, sp::Layout::col_major};
  if (fmt == 2)
    sp::spmm_fp64(s, op, sp::GOp::N, alpha,
                  sp::BlockedEllView{a.rows(), a.cols(), a.bs, a.slots * a.bs, a.ell_col.data(), vals.data(),
                                     sp::IndexType::i32, sp::IndexBase::zero, trn::DType::f32},
                  v, xd, beta, yd, r);
  else
    sp::spmm_fp64(s, op, sp::GOp::N, alpha,
                  sp::BsrView{a.brows, a.bcols, static_cast<std::int64_t>(a.col.size()), a.bs, a.bs, a.off.data(),
                              a.col.data(), vals.data(), sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero,
                              trn::DType::f32, fmt == 0 ? sp::BlockOrder::row : sp::BlockOrder::col},
                  v, xd, beta, yd, r);
  return y;
}

// R_64F SpMV on small blocks (block rows of op(A) with <= 128 stored values on average) runs the
// dgemv row groups: per output |y_hat - y| <= 4.1 u (|alpha p| + |beta y|), p = (op(A) x) exactly
// (checked against error-free products summed in long double, whose own error is the 2^-60 term), for
// BSR row / column order and Blocked-ELL, op N / T / C; the plan names the row groups; the bits do not
// depend on host threads or cores. Large block rows keep one Ozaki GEMM per block row.
TEST(Fp64Engine, SmallBlockR64FSpMVIsDgemvRowGroupsWithinTheExactBound) {
  for (int fmt = 0; fmt < 3; ++fmt)
    for (int opA = 0; opA < 3; ++opA) {
      SCOPED_TRACE(testing::Message() << "format " << fmt << " opA " << opA);
      const Blocks a(12, 10, 2, fmt != 1, 700 + static_cast<std::uint64_t>(3 * fmt + opA));
      std::vector<double> vals;
      for (const cf v : fmt == 2 ? a.ell : a.bsr) vals.push_back(static_cast<double>(v.real()) * (1.0 + 0x1p-27 * v.imag()));
      const bool tr = opA != 0;
      const int M = tr ? a.cols() : a.rows(), K = tr ? a.rows() : a.cols();
      std::vector<double> x(static_cast<size_t>(K)), y0(static_cast<size_t>(M));
      for (int k = 0; k < K; ++k) x[static_cast<size_t>(k)] = std::sin(1.0 + 7.0 * k) * std::ldexp(1.0, k % 5 - 2);
      for (int i = 0; i < M; ++i) y0[static_cast<size_t>(i)] = std::cos(2.0 * i);
      const double alpha = 0.75, beta = -0.375;
      const sp::GOp op = opA == 0 ? sp::GOp::N : opA == 1 ? sp::GOp::T : sp::GOp::C;
      auto product = [&](int threads, int cores, sp::CallReport* r) {
        return small_block_spmv(a, fmt, op, alpha, vals, x, beta, y0, threads, cores, r);
      };
      sp::CallReport r;
      const std::vector<double> y = product(1, 1, &r);
      EXPECT_NE(r.plan.find("row groups"), std::string::npos) << r.plan;
      EXPECT_NE(r.plan.find("dgemv (fp64 slice pairs)"), std::string::npos) << r.plan;
      EXPECT_GT(r.matmuls, 0);
      for (auto [threads, cores] : {std::pair{3, 1}, std::pair{2, 2}}) {
        const std::vector<double> got = product(threads, cores, nullptr);
        EXPECT_EQ(std::memcmp(got.data(), y.data(), y.size() * sizeof(double)), 0) << threads << " threads, " << cores << " cores";
      }
      // The dense op(A) with the values as stored (real parts scaled as above), from the BSR blocks.
      std::vector<double> dense(static_cast<size_t>(a.rows() * a.cols()), 0.0);
      for (int I = 0; I < a.brows; ++I)
        for (int e = a.off[static_cast<size_t>(I)]; e < a.off[static_cast<size_t>(I) + 1]; ++e)
          for (int q = 0; q < a.bs * a.bs; ++q) {
            const int rr = fmt != 1 ? q / a.bs : q % a.bs, cc = fmt != 1 ? q % a.bs : q / a.bs;
            const cf v = a.bsr[static_cast<size_t>(e * a.bs * a.bs + q)];
            dense[static_cast<size_t>((I * a.bs + rr) * a.cols() + a.col[static_cast<size_t>(e)] * a.bs + cc)] =
                static_cast<double>(v.real()) * (1.0 + 0x1p-27 * v.imag());
          }
      for (int i = 0; i < M; ++i) {
        long double p = 0, mag = 0;
        for (int k = 0; k < K; ++k) {
          const double av = tr ? dense[static_cast<size_t>(k * a.cols() + i)] : dense[static_cast<size_t>(i * a.cols() + k)];
          const double hi = av * x[static_cast<size_t>(k)], lo = std::fma(av, x[static_cast<size_t>(k)], -hi);
          p += static_cast<long double>(hi) + static_cast<long double>(lo);
          mag += std::abs(static_cast<long double>(hi));
        }
        const long double want = alpha * p + static_cast<long double>(beta) * y0[static_cast<size_t>(i)];
        const long double bnd = 4.1L * 0x1p-53L * (std::abs(alpha * p) + std::abs(beta * y0[static_cast<size_t>(i)])) +
                                0x1p-60L * std::abs(alpha) * mag;
        ASSERT_LE(std::abs(y[static_cast<size_t>(i)] - want), bnd) << "row " << i;
      }
    }
  // Block rows above 128 stored values keep the Ozaki GEMM per block row (8 x 8 blocks, ~4 a row).
  const Blocks big(4, 8, 8, true, 77);
  std::vector<double> vals;
  for (const cf v : big.bsr) vals.push_back(v.real());
  std::vector<double> x(static_cast<size_t>(big.cols()), 0.5), y(static_cast<size_t>(big.rows()), 0.0);
  sp::CallReport r;
  sp::spmm_fp64(sp::Settings{}, sp::GOp::N, sp::GOp::N, 1.0,
                sp::BsrView{big.brows, big.bcols, static_cast<std::int64_t>(big.col.size()), 8, 8, big.off.data(),
                            big.col.data(), vals.data(), sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero,
                            trn::DType::f32, sp::BlockOrder::row},
                sp::Value::f64, {x.data(), sp::Value::f64, big.cols(), 1, big.cols(), sp::Layout::col_major}, 0.0,
                {y.data(), sp::Value::f64, big.rows(), 1, big.rows(), sp::Layout::col_major}, &r);
  EXPECT_NE(r.plan.find("Ozaki dgemm per block row"), std::string::npos) << r.plan;
}


// C_64F SpMV on small blocks runs the zgemv row groups (s22/sparse), each group's real representation
// under 4096 elements (trnblas slices it on the host): per output |y_hat - y| <= 8 u (|alpha| |p| +
// |beta| |y|), p = (op(A) x) exactly (+ 2^-60 |alpha| T, T = sum (|Re a| + |Im a|) (|Re x| + |Im x|), for
// long double's own error), checked against error-free products summed in long double, for BSR row /
// column order and Blocked-ELL, op N / T / C, complex alpha and beta; the plan names zgemv and the cap;
// the bits do not depend on host threads or cores. The 40 x 40 block pattern's groups are capped.
TEST(Fp64Engine, SmallBlockC64FSpMVIsZgemvRowGroupsWithinTheBound) {
  for (const int nb : {10, 40})
    for (int fmt = 0; fmt < 3; ++fmt)
      for (int opA = 0; opA < 3; ++opA) {
        SCOPED_TRACE(testing::Message() << "blocks " << nb << " format " << fmt << " opA " << opA);
        const Blocks a(nb + 2, nb, 2, fmt != 1, 900 + static_cast<std::uint64_t>(9 * nb + 3 * fmt + opA));
        auto value = [](cf v) { return cd(static_cast<double>(v.real()) * (1.0 + 0x1p-27 * v.imag()), v.imag() - 0x1p-30 * v.real()); };
        std::vector<cd> vals;
        for (const cf v : fmt == 2 ? a.ell : a.bsr) vals.push_back(value(v));
        const bool tr = opA != 0;
        const int M = tr ? a.cols() : a.rows(), K = tr ? a.rows() : a.cols();
        std::vector<cd> x(static_cast<size_t>(K)), y0(static_cast<size_t>(M));
        for (int k = 0; k < K; ++k) x[static_cast<size_t>(k)] = cd(std::sin(1.0 + 7.0 * k) * std::ldexp(1.0, k % 5 - 2), std::cos(0.5 + k));
        for (int i = 0; i < M; ++i) y0[static_cast<size_t>(i)] = cd(std::cos(2.0 * i), std::sin(3.0 * i));
        const cd alpha(0.75, -0.25), beta(-0.375, 0.125);
        const sp::GOp op = opA == 0 ? sp::GOp::N : opA == 1 ? sp::GOp::T : sp::GOp::C;
        auto product = [&](int threads, int cores, sp::CallReport* r) {
          return small_block_spmv(a, fmt, op, alpha, vals, x, beta, y0, threads, cores, r);
        };
        sp::CallReport r;
        const std::vector<cd> y = product(1, 1, &r);
        EXPECT_NE(r.plan.find("row groups"), std::string::npos) << r.plan;
        EXPECT_NE(r.plan.find("zgemv (fp64 slice pairs, real representation"), std::string::npos) << r.plan;
        const std::size_t w = r.plan.find("elements: largest ");
        ASSERT_NE(w, std::string::npos) << r.plan;
        EXPECT_LT(std::stoi(r.plan.substr(w + 18)), 4096) << r.plan;
        for (auto [threads, cores] : {std::pair{3, 1}, std::pair{2, 2}}) {
          const std::vector<cd> got = product(threads, cores, nullptr);
          EXPECT_EQ(std::memcmp(got.data(), y.data(), y.size() * sizeof(cd)), 0) << threads << " threads, " << cores << " cores";
        }
        // op(A)'s entries as stored (the perturbed values above), from the BSR blocks.
        auto opa = [&](int i, int k) -> cd {
          const int rr = tr ? k : i, cc = tr ? i : k;
          const int I = rr / a.bs, J = cc / a.bs;
          for (int e = a.off[static_cast<size_t>(I)]; e < a.off[static_cast<size_t>(I) + 1]; ++e)
            if (a.col[static_cast<size_t>(e)] == J) {
              const int q = fmt != 1 ? (rr % a.bs) * a.bs + cc % a.bs : (cc % a.bs) * a.bs + rr % a.bs;
              const cd v = value(a.bsr[static_cast<size_t>(e * a.bs * a.bs + q)]);
              return opA == 2 ? std::conj(v) : v;
            }
          return cd(0.0, 0.0);
        };
        auto exact = [](double p, double q) {  // p q as a long double, error-free in two parts
          const double hi = p * q, lo = std::fma(p, q, -hi);
          return static_cast<long double>(hi) + static_cast<long double>(lo);
        };
        for (int i = 0; i < M; ++i) {
          long double pr = 0, pi = 0, T = 0;
          for (int k = 0; k < K; ++k) {
            const cd av = opa(i, k), xv = x[static_cast<size_t>(k)];
            pr += exact(av.real(), xv.real()) - exact(av.imag(), xv.imag());
            pi += exact(av.real(), xv.imag()) + exact(av.imag(), xv.real());
            T += (std::abs(static_cast<long double>(av.real())) + std::abs(static_cast<long double>(av.imag()))) *
                 (std::abs(static_cast<long double>(xv.real())) + std::abs(static_cast<long double>(xv.imag())));
          }
          const cld p(pr, pi), al(alpha.real(), alpha.imag()), be(beta.real(), beta.imag()),
              yi(y0[static_cast<size_t>(i)].real(), y0[static_cast<size_t>(i)].imag());
          const cld want = al * p + be * yi;
          const long double bnd = 8 * 0x1p-53L * (std::abs(al) * std::abs(p) + std::abs(be) * std::abs(yi)) + 0x1p-60L * std::abs(al) * T;
          const cld got(y[static_cast<size_t>(i)].real(), y[static_cast<size_t>(i)].imag());
          ASSERT_LE(std::abs(got - want), bnd) << "row " << i;
        }
      }
  // SpMM and block rows above 128 stored values keep the zgemm 4M per block row (8 x 8 blocks).
  const Blocks big(4, 8, 8, true, 78);
  std::vector<cd> vals;
  for (const cf v : big.bsr) vals.push_back(cd(v.real(), v.imag()));
  std::vector<cd> x(static_cast<size_t>(big.cols()), cd(0.5, 0.25)), y(static_cast<size_t>(big.rows()));
  sp::CallReport r;
  sp::spmm_fp64(sp::Settings{}, sp::GOp::N, sp::GOp::N, 1.0,
                sp::BsrView{big.brows, big.bcols, static_cast<std::int64_t>(big.col.size()), 8, 8, big.off.data(),
                            big.col.data(), vals.data(), sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero,
                            trn::DType::f32, sp::BlockOrder::row},
                sp::Value::c64, {x.data(), sp::Value::c64, big.cols(), 1, big.cols(), sp::Layout::col_major}, 0.0,
                {y.data(), sp::Value::c64, big.rows(), 1, big.rows(), sp::Layout::col_major}, &r);
  EXPECT_NE(r.plan.find("Ozaki zgemm 4M per block row"), std::string::npos) << r.plan;
}

}  // namespace
