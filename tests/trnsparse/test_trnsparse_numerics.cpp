// trnsparse numerics: SpMM / SpMV / SDDMM against dense OpenBLAS (cblas_sgemm / sgemv on the
// densified matrix, expanded by the test's own code) over densities 1%..100%, both block orders,
// both index bases, 32/64-bit indices, opA/opB N and T, both dense layouts; exactness against
// OpenBLAS for integer bf16 inputs; Eigen SparseMatrix as a second oracle through CSR -> BSR.
#include <gtest/gtest.h>

#include <Eigen/Sparse>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <limits>
#include <tuple>

#include "sparse_test_util.hpp"

using namespace trnsparse_test;
namespace sp = trn::sparse;

namespace {

// Runs SpMM and checks every element of C against OpenBLAS within the documented bound.
// Returns the largest error / bound ratio.
double check_spmm(TestBsr& A, Op opA, Op opB, std::int64_t n, Layout lb, Layout lc, float alpha, float beta,
                  std::uint64_t seed, DType b_type = DType::f32, const sp::Settings& s = {}) {
  const std::int64_t M = opA == Op::N ? A.rows() : A.cols(), K = opA == Op::N ? A.cols() : A.rows();
  TestDense B = random_dense(opB == Op::N ? K : n, opB == Op::N ? n : K, lb, seed, b_type);
  TestDense C = random_dense(M, n, lc, seed + 1);
  const std::vector<float> Ad = A.dense();
  const Reference ref = reference_gemm(opA, opB, M, n, K, alpha, Ad, A.rows(), B.colmajor, B.rows, beta, C.colmajor);
  sp::CallReport rep;
  sp::spmm(s, opA, opB, alpha, A.view(), B.ref(), beta, C.mref(), &rep);
  C.refresh_colmajor();
  double worst = 0;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < M; ++i) {
      const std::size_t q = static_cast<std::size_t>(i + j * M);
      const double err = std::fabs(double(C.colmajor[q]) - double(ref.c[q])), bnd = bound(K, ref.scale[q]);
      worst = std::max(worst, err / bnd);
      if (err > bnd) {
        ADD_FAILURE() << "C(" << i << "," << j << ") = " << C.colmajor[q] << " vs OpenBLAS " << ref.c[q] << ", error "
                      << err << " > bound " << bnd;
        return worst;
      }
    }
  return worst;
}

using SweepParam = std::tuple<double, BlockOrder, IndexBase, IndexType, Op, Op, Layout, Layout>;

class SpmmSweep : public ::testing::TestWithParam<SweepParam> {};

TEST_P(SpmmSweep, MatchesDenseOpenBlasWithinBound) {
  const auto [density, order, base, index, opA, opB, lb, lc] = GetParam();
  // 16 x 12 blocks of 8 x 6 values (rectangular): 192 blocks, so 1% is about 2 stored blocks.
  TestBsr A = random_bsr(16, 12, 8, 6, density, 7 + static_cast<std::uint64_t>(density * 100), order, base, index);
  check_spmm(A, opA, opB, 20, lb, lc, 1.5f, -0.75f, 11);
}

INSTANTIATE_TEST_SUITE_P(
    Densities, SpmmSweep,
    ::testing::Combine(::testing::Values(0.01, 0.2, 1.0), ::testing::Values(BlockOrder::row, BlockOrder::col),
                       ::testing::Values(IndexBase::zero, IndexBase::one), ::testing::Values(IndexType::i32, IndexType::i64),
                       ::testing::Values(Op::N, Op::T), ::testing::Values(Op::N, Op::T),
                       ::testing::Values(Layout::col_major, Layout::row_major),
                       ::testing::Values(Layout::col_major, Layout::row_major)));

TEST(Spmm, NativeBlocks128AcrossDensities) {
  for (double d : {0.05, 0.25, 0.5, 1.0}) {
    TestBsr A = random_bsr(3, 4, 128, 128, d, 100 + static_cast<std::uint64_t>(d * 100));
    sp::CallReport rep;
    TestDense B = random_dense(A.cols(), 64, Layout::col_major, 5);
    TestDense C = random_dense(A.rows(), 64, Layout::col_major, 6);
    sp::spmm({}, Op::N, Op::N, 1.0f, A.view(), B.ref(), 0.0f, C.mref(), &rep);
    // One nc_matmul per stored 128 x 128 block: empty blocks cost nothing.
    EXPECT_EQ(rep.matmuls, A.bnnz()) << "density " << d;
    EXPECT_EQ(rep.b_resident, A.bnnz() > 0);
    check_spmm(A, Op::N, Op::N, 64, Layout::col_major, Layout::col_major, 1.0f, 0.0f, 5);
  }
}

TEST(Spmm, LargeAndTinyBlocksAndWideN) {
  // Blocks larger than one tile (rows and contraction split into 128-chunks), 1 x 1 blocks, 3 x 5
  // blocks, and n beyond one PSUM bank (two column chunks).
  TestBsr big = random_bsr(2, 2, 130, 200, 0.75, 21, BlockOrder::col);
  check_spmm(big, Op::N, Op::N, 40, Layout::col_major, Layout::row_major, 2.0f, 0.5f, 22);
  check_spmm(big, Op::T, Op::T, 40, Layout::row_major, Layout::col_major, 2.0f, 0.5f, 23);
  TestBsr one = random_bsr(40, 30, 1, 1, 0.2, 24, BlockOrder::row, IndexBase::one);
  check_spmm(one, Op::N, Op::N, 7, Layout::col_major, Layout::col_major, 1.0f, 1.0f, 25);
  TestBsr odd = random_bsr(7, 9, 3, 5, 0.4, 26);
  check_spmm(odd, Op::T, Op::N, 600, Layout::row_major, Layout::row_major, -1.0f, 0.0f, 27);
}

TEST(Spmm, BetaZeroNeverReadsCAlphaZeroNeverReadsAB) {
  TestBsr A = random_bsr(4, 4, 16, 16, 0.5, 31);
  TestDense B = random_dense(A.cols(), 8, Layout::col_major, 32);
  TestDense C = random_dense(A.rows(), 8, Layout::col_major, 33);
  for (auto& x : C.values.f32) x = std::numeric_limits<float>::quiet_NaN();
  sp::spmm({}, Op::N, Op::N, 1.0f, A.view(), B.ref(), 0.0f, C.mref());
  for (std::int64_t j = 0; j < 8; ++j)
    for (std::int64_t i = 0; i < A.rows(); ++i) ASSERT_FALSE(std::isnan(C.get(i, j)));
  // alpha == 0: C = beta C, and NaN in A and B must not leak in.
  TestDense C2 = random_dense(A.rows(), 8, Layout::col_major, 34);
  for (auto& x : A.values.f32) x = std::numeric_limits<float>::quiet_NaN();
  for (auto& x : B.values.f32) x = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> before = C2.colmajor;
  sp::spmm({}, Op::N, Op::N, 0.0f, A.view(), B.ref(), 2.0f, C2.mref());
  C2.refresh_colmajor();
  for (std::size_t i = 0; i < before.size(); ++i) ASSERT_EQ(C2.colmajor[i], 2.0f * before[i]);
}

TEST(Spmm, HalfPrecisionValuesWithFp32Compute) {
  for (DType t : {DType::bf16, DType::f16}) {
    TestBsr A = random_bsr(6, 5, 16, 24, 0.5, 41, BlockOrder::row, IndexBase::zero, IndexType::i32, t);
    // Same 16-bit type for B: 16-bit tiles; fp32 B: fp32 tiles (exact widening of A).
    check_spmm(A, Op::N, Op::N, 33, Layout::col_major, Layout::col_major, 1.0f, 0.5f, 42, t);
    check_spmm(A, Op::T, Op::T, 33, Layout::row_major, Layout::col_major, 1.0f, 0.5f, 43, DType::f32);
  }
}

// Exactness (docs/trnsparse.md): integer bf16 inputs |x| <= 16 with at most 256 products per output
// make every partial sum an integer below 2^24, so any summation order gives the same fp32 value:
// trnsparse must equal cblas_sgemm bit for bit, under both numerics profiles.
TEST(Spmm, IntegerBf16InputsAreBitIdenticalToOpenBlas) {
  for (trn::Numerics num : {trn::Numerics::ideal, trn::Numerics::trn1_measured})
    for (Op opA : {Op::N, Op::T})
      for (Op opB : {Op::N, Op::T})
        for (std::int64_t bs : {128, 32}) {
          // k per block row <= 256: two block columns of 128 (or eight of 32).
          TestBsr A = random_bsr(256 / bs + 1, 256 / bs, bs, bs, 0.7, 51 + static_cast<std::uint64_t>(bs), BlockOrder::col,
                                 IndexBase::one, IndexType::i64, DType::bf16, 16);
          if (opA == Op::T) A = random_bsr(256 / bs, 256 / bs + 1, bs, bs, 0.7, 52, BlockOrder::row, IndexBase::zero,
                                           IndexType::i32, DType::bf16, 16);
          const std::int64_t M = opA == Op::N ? A.rows() : A.cols(), K = opA == Op::N ? A.cols() : A.rows(), n = 48;
          ASSERT_LE(K, 256);
          TestDense B = random_dense(opB == Op::N ? K : n, opB == Op::N ? n : K, Layout::row_major, 53, DType::bf16, 16);
          TestDense C = random_dense(M, n, Layout::col_major, 54);
          const Reference ref = reference_gemm(opA, opB, M, n, K, 1.0f, A.dense(), A.rows(), B.colmajor, B.rows, 0.0f, C.colmajor);
          sp::Settings s;
          s.numerics = num;
          sp::spmm(s, opA, opB, 1.0f, A.view(), B.ref(), 0.0f, C.mref());
          C.refresh_colmajor();
          ASSERT_EQ(std::memcmp(C.colmajor.data(), ref.c.data(), ref.c.size() * sizeof(float)), 0)
              << "block " << bs << " numerics " << trn::numerics_name(num);
        }
}

TEST(Spmm, BitsIndependentOfHostThreadsAndCores) {
  TestBsr A = random_bsr(9, 7, 32, 16, 0.4, 61);
  TestDense B = random_dense(A.cols(), 40, Layout::col_major, 62);
  std::vector<std::vector<float>> outs;
  for (auto [threads, cores] : {std::pair{1, 1}, std::pair{2, 1}, std::pair{2, 2}, std::pair{1, 4}}) {
    TestDense C = random_dense(A.rows(), 40, Layout::col_major, 63);
    sp::Settings s;
    s.host_threads = threads;
    s.num_cores = cores;
    sp::spmm(s, Op::N, Op::N, 1.25f, A.view(), B.ref(), 0.5f, C.mref());
    outs.push_back(C.values.f32);
  }
  for (std::size_t i = 1; i < outs.size(); ++i)
    ASSERT_EQ(std::memcmp(outs[0].data(), outs[i].data(), outs[0].size() * sizeof(float)), 0);
}

TEST(Spmv, MatchesOpenBlasSgemv) {
  for (Op opA : {Op::N, Op::T})
    for (double d : {0.02, 0.3, 1.0}) {
      TestBsr A = random_bsr(12, 10, 16, 12, d, 71, BlockOrder::col, IndexBase::one, IndexType::i64);
      const std::int64_t M = opA == Op::N ? A.rows() : A.cols(), K = opA == Op::N ? A.cols() : A.rows();
      TestDense x = random_dense(K, 1, Layout::col_major, 72, DType::f32, 0, 0);
      TestDense y = random_dense(M, 1, Layout::col_major, 73, DType::f32, 0, 0);
      const std::vector<float> Ad = A.dense();
      std::vector<float> yref = y.colmajor;
      cblas_sgemv(CblasColMajor, cblas_op(opA), static_cast<int>(A.rows()), static_cast<int>(A.cols()), 0.5f, Ad.data(),
                  static_cast<int>(A.rows()), x.colmajor.data(), 1, 2.0f, yref.data(), 1);
      const Reference scale = reference_gemm(opA, Op::N, M, 1, K, 0.5f, Ad, A.rows(), x.colmajor, K, 2.0f, y.colmajor);
      sp::spmv({}, opA, 0.5f, A.view(), x.values.data(), DType::f32, 2.0f, y.values.data(), DType::f32);
      for (std::int64_t i = 0; i < M; ++i)
        ASSERT_LE(std::fabs(double(y.values.f32[i]) - yref[i]), bound(K, scale.scale[i])) << "row " << i;
    }
}

// Small-block fp32 SpMV (n = 1, blocks of <= 64 values) runs as slot rows on VectorE
// (bsr_kernels.hpp "Small-block SpMV", s23/bsr32): the plan names it and no TensorE instruction
// runs; every output within gamma_{d+3} (|alpha| |op(A)| |x| + |beta| |y|), d = ceil(log2 S) +
// ceil(log2 cb') (S the most stored blocks of a block row of op(A), cb' its block width), against a
// long-double loop; a +Inf in x reaches only the rows whose blocks meet it (the pads multiply -0 by
// the table's +0 row, never x); beta = 0 never reads y (NaN there); the bits equal across 1 / 3 host
// threads, 1 / 2 cores and the chunked / multi-program layout.
TEST(Spmv, SmallBlocksAreSlotRowsWithinTheBound) {
  struct Case {
    std::int64_t brows, bcols, rb, cb;
    double density;
    BlockOrder order;
  };
  const auto ceil_log2 = [](std::int64_t m) {
    std::int64_t d = 0;
    while ((std::int64_t{1} << d) < m) ++d;
    return d;
  };
  // 301 block rows: 3 per partition, the last partition holds 1 (its store is the partial one);
  // 1800 blocks rows of 12 8 x 8 blocks: two chunks per partition, two programs on two cores.
  for (const Case& c : {Case{301, 280, 4, 4, 0.02, BlockOrder::row}, Case{301, 97, 2, 3, 0.05, BlockOrder::col},
                        Case{130, 64, 8, 8, 0.06, BlockOrder::row}, Case{260, 250, 1, 1, 0.03, BlockOrder::col},
                        Case{1800, 40, 8, 8, 0.3, BlockOrder::row}})
    for (Op opA : {Op::N, Op::T})
      for (const auto& [alpha, beta] : {std::pair{1.0f, 0.0f}, std::pair{0.75f, -0.5f}}) {
        if (c.brows == 1800 && opA == Op::T) continue;  // (its op T has 40 long block rows: the per-block kernel)
        TestBsr A = random_bsr(c.brows, c.bcols, c.rb, c.cb, c.density, 81 + static_cast<std::uint64_t>(c.rb), c.order);
        const std::int64_t M = opA == Op::N ? A.rows() : A.cols(), K = opA == Op::N ? A.cols() : A.rows();
        const std::int64_t orows = opA == Op::N ? A.brows : A.bcols, cbp = opA == Op::N ? A.cb : A.rb;
        std::vector<std::int64_t> per_row(static_cast<std::size_t>(orows), 0);
        for (std::int64_t R = 0; R < A.brows; ++R)
          for (std::int64_t e = A.offsets[R]; e < A.offsets[R + 1]; ++e)
            ++per_row[static_cast<std::size_t>(opA == Op::N ? R : A.columns[e])];
        const std::int64_t S = *std::max_element(per_row.begin(), per_row.end());
        const long double u = std::ldexp(1.0L, -24), d = static_cast<long double>(ceil_log2(S) + ceil_log2(cbp) + 3);
        const long double gamma = d * u / (1 - d * u);
        const std::vector<float> Ad = A.dense();  // column-major rows() x cols()
        const auto a_op = [&](std::int64_t i, std::int64_t k) {
          return opA == Op::N ? Ad[static_cast<std::size_t>(i + k * A.rows())] : Ad[static_cast<std::size_t>(k + i * A.rows())];
        };
        std::mt19937_64 rng(91);
        std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
        std::vector<float> x(static_cast<std::size_t>(K)), y0(static_cast<std::size_t>(M));
        for (float& v : x) v = dist(rng);
        for (float& v : y0) v = beta != 0.0f ? dist(rng) : std::numeric_limits<float>::quiet_NaN();
        // one +Inf in x, in block column 0 of op(A): a pad reading x's first row (not the table's
        // row of zeros) would turn rows that never meet it into NaN
        const std::int64_t inf_at = cbp - 1;
        x[static_cast<std::size_t>(inf_at)] = std::numeric_limits<float>::infinity();
        std::vector<std::vector<float>> runs;
        for (auto [threads, cores] : {std::pair{1, 1}, std::pair{3, 1}, std::pair{1, 2}}) {
          sp::Settings s;
          s.host_threads = threads;
          s.num_cores = cores;
          std::vector<float> y = y0;
          sp::CallReport rep;
          rep.plans_wanted = true;
          sp::spmv(s, opA, alpha, A.view(), x.data(), DType::f32, beta, y.data(), DType::f32, &rep);
          ASSERT_NE(rep.plan.find("slot rows on VectorE"), std::string::npos) << rep.plan;
          ASSERT_EQ(rep.profile.instructions[static_cast<int>(trn::Engine::tensor)], 0);
          runs.push_back(y);
        }
        for (std::size_t r = 1; r < runs.size(); ++r)
          ASSERT_EQ(std::memcmp(runs[0].data(), runs[r].data(), runs[0].size() * sizeof(float)), 0) << "run " << r;
        const std::vector<float>& y = runs[0];
        for (std::int64_t i = 0; i < M; ++i) {
          long double p = 0, mag = 0;
          bool meets_inf = false;
          for (std::int64_t k = 0; k < K; ++k) {
            const float a = a_op(i, k);
            if (k == inf_at) {
              meets_inf = meets_inf || a != 0.0f;
              continue;
            }
            p += static_cast<long double>(a) * x[static_cast<std::size_t>(k)];
            mag += std::fabs(static_cast<long double>(a) * x[static_cast<std::size_t>(k)]);
          }
          const float yi = y[static_cast<std::size_t>(i)];
          if (meets_inf) {  // a stored nonzero times +Inf: the row is not finite
            ASSERT_FALSE(std::isfinite(yi)) << "row " << i;
            continue;
          }
          const long double y0i = beta != 0.0f ? y0[static_cast<std::size_t>(i)] : 0.0L;
          const long double want = static_cast<long double>(alpha) * p + static_cast<long double>(beta) * y0i;
          const long double bnd = gamma * (std::fabs(static_cast<long double>(alpha)) * mag + std::fabs(static_cast<long double>(beta) * y0i));
          ASSERT_TRUE(std::isfinite(yi)) << "row " << i << " (a pad or an unread y leaked a NaN)";
          ASSERT_LE(std::fabs(static_cast<long double>(yi) - want), bnd) << "row " << i << " rb " << c.rb << " op " << (opA == Op::N);
        }
      }
}

// Empty block rows on the slot path: y is +0 (BLAS's y := 0; y += alpha a x) for any alpha when
// beta = 0, and beta y exactly otherwise; every (alpha, beta) branch of the epilogue, including
// alpha = 1 with beta != 0 (y updated in place in the sums' view).
TEST(Spmv, SlotRowsEmptyBlockRowsGivePlusZero) {
  TestBsr A = random_bsr(40, 30, 4, 4, 0.1, 7);
  TestBsr B = A;  // A with every third block row emptied
  B.columns.clear();
  B.offsets.assign(1, 0);
  std::vector<float> vals;
  for (std::int64_t R = 0; R < A.brows; ++R) {
    if (R % 3 != 1)
      for (std::int64_t e = A.offsets[R]; e < A.offsets[R + 1]; ++e) {
        B.columns.push_back(A.columns[e]);
        vals.insert(vals.end(), A.values.f32.begin() + e * 16, A.values.f32.begin() + (e + 1) * 16);
      }
    B.offsets.push_back(static_cast<std::int64_t>(B.columns.size()));
  }
  B.values.f32 = vals;
  B.store_indices();
  std::vector<float> x(static_cast<std::size_t>(B.cols()), 1.0f);
  std::int64_t slots = 0, depth = 3 + 2;  // the bound's d + 3: log2 S + log2 cb (4) + 3
  for (std::int64_t R = 0; R < B.brows; ++R) slots = std::max(slots, B.offsets[R + 1] - B.offsets[R]);
  while ((std::int64_t{1} << (depth - 5)) < slots) ++depth;
  const long double u = std::ldexp(1.0L, -24), gamma = depth * u / (1 - depth * u);
  for (const auto& [alpha, beta] : {std::pair{1.0f, 0.0f}, std::pair{2.0f, 0.0f}, std::pair{-2.0f, 0.0f},
                                    std::pair{1.0f, 0.5f}, std::pair{-2.0f, -0.5f}}) {
    std::vector<float> y0(static_cast<std::size_t>(B.rows()), beta != 0.0f ? 3.0f : std::numeric_limits<float>::quiet_NaN());
    std::vector<float> y = y0;
    sp::CallReport rep;
    rep.plans_wanted = true;
    sp::spmv({}, Op::N, alpha, B.view(), x.data(), DType::f32, beta, y.data(), DType::f32, &rep);
    ASSERT_NE(rep.plan.find("slot rows on VectorE"), std::string::npos) << rep.plan;
    for (std::int64_t i = 0; i < B.rows(); ++i) {
      const float yi = y[static_cast<std::size_t>(i)];
      if ((i / B.rb) % 3 == 1) {
        if (beta == 0.0f) {
          ASSERT_EQ(yi, 0.0f) << "row " << i << " alpha " << alpha;
          ASSERT_FALSE(std::signbit(yi)) << "row " << i << " alpha " << alpha;
        } else {
          ASSERT_EQ(yi, beta * 3.0f) << "row " << i << " alpha " << alpha;
        }
        continue;
      }
      long double p = 0, mag = 0;
      for (std::int64_t e = B.offsets[i / B.rb]; e < B.offsets[i / B.rb + 1]; ++e)
        for (std::int64_t c = 0; c < B.cb; ++c) {
          const float a = B.values.f32[static_cast<std::size_t>(e * 16 + (i % B.rb) * B.cb + c)];
          p += a;
          mag += std::fabs(static_cast<long double>(a));
        }
      const long double want = static_cast<long double>(alpha) * p + (beta != 0.0f ? beta * 3.0L : 0.0L);
      ASSERT_LE(std::fabs(yi - want), gamma * (std::fabs(static_cast<long double>(alpha)) * mag + std::fabs(beta * 3.0L)))
          << "row " << i << " alpha " << alpha << " beta " << beta;
    }
  }
}

// SDDMM reference: the dense product by cblas_sgemm, sampled, combined in double.
void check_sddmm_values(Op opA, Op opB, std::int64_t M, std::int64_t N, std::int64_t K, float alpha, float beta,
                        const TestDense& A, const TestDense& B, const std::vector<std::int64_t>& rows,
                        const std::vector<std::int64_t>& cols, const std::vector<float>& before, const Values& after) {
  const std::vector<float> zeros(static_cast<std::size_t>(M * N), 0.0f);
  const Reference p = reference_gemm(opA, opB, M, N, K, 1.0f, A.colmajor, A.rows, B.colmajor, B.rows, 0.0f, zeros);
  for (std::size_t e = 0; e < rows.size(); ++e) {
    const std::size_t q = static_cast<std::size_t>(rows[e] + cols[e] * M);
    const double want = double(alpha) * p.c[q] + double(beta) * before[e];
    const double scale = std::fabs(alpha) * p.scale[q] + std::fabs(beta) * std::fabs(before[e]);
    ASSERT_LE(std::fabs(after.get(e) - want), 2 * bound(K, scale)) << "entry " << e;  // sgemm and ours both round
  }
}

TEST(Sddmm, BsrPatternMatchesSampledOpenBlas) {
  for (Op opA : {Op::N, Op::T})
    for (Op opB : {Op::N, Op::T})
      for (BlockOrder order : {BlockOrder::row, BlockOrder::col}) {
        TestBsr C = random_bsr(5, 6, 24, 20, 0.3, 81, order, IndexBase::one, IndexType::i64);
        const std::int64_t M = C.rows(), N = C.cols(), K = 150;
        TestDense A = random_dense(opA == Op::N ? M : K, opA == Op::N ? K : M, Layout::row_major, 82);
        TestDense B = random_dense(opB == Op::N ? K : N, opB == Op::N ? N : K, Layout::col_major, 83);
        std::vector<std::int64_t> rows, cols;
        std::vector<std::size_t> pos;
        for (std::int64_t R = 0; R < C.brows; ++R)
          for (std::int64_t e = C.offsets[R]; e < C.offsets[R + 1]; ++e)
            for (std::int64_t r = 0; r < C.rb; ++r)
              for (std::int64_t c = 0; c < C.cb; ++c) {
                rows.push_back(R * C.rb + r);
                cols.push_back(C.columns[e] * C.cb + c);
                pos.push_back(static_cast<std::size_t>(e * C.rb * C.cb + (order == BlockOrder::row ? r * C.cb + c : r + c * C.rb)));
              }
        std::vector<float> before;
        for (std::size_t p : pos) before.push_back(C.values.get(p));
        sp::sddmm({}, opA, opB, 1.5f, A.ref(), B.ref(), -0.5f, C.view());
        Values after;
        after.resize(pos.size());
        for (std::size_t i = 0; i < pos.size(); ++i) after.set(i, C.values.get(pos[i]));
        check_sddmm_values(opA, opB, M, N, K, 1.5f, -0.5f, A, B, rows, cols, before, after);
      }
}

TEST(Sddmm, WideOperandStreamsOpBWhenItDoesNotFitInSbuf) {
  // K = 1100 (9 K tiles) x N = 5000: op(B) needs 9 * 5000 * 4 bytes per partition, more than SBUF
  // holds beside the rest, so its tiles are streamed per block.
  TestBsr C = random_bsr(2, 50, 64, 100, 0.04, 85, BlockOrder::col, IndexBase::zero, IndexType::i64);
  ASSERT_GT(C.bnnz(), 0);
  const std::int64_t M = C.rows(), N = C.cols(), K = 1100;
  TestDense A = random_dense(M, K, Layout::col_major, 86, DType::f32, 0, 0);
  TestDense B = random_dense(K, N, Layout::row_major, 87, DType::f32, 0, 0);
  std::vector<std::int64_t> rows, cols;
  std::vector<std::size_t> pos;
  for (std::int64_t R = 0; R < C.brows; ++R)
    for (std::int64_t e = C.offsets[R]; e < C.offsets[R + 1]; ++e)
      for (std::int64_t r = 0; r < C.rb; ++r)
        for (std::int64_t c = 0; c < C.cb; ++c) {
          rows.push_back(R * C.rb + r);
          cols.push_back(C.columns[e] * C.cb + c);
          pos.push_back(static_cast<std::size_t>(e * C.rb * C.cb + r + c * C.rb));
        }
  std::vector<float> before;
  for (std::size_t p : pos) before.push_back(C.values.get(p));
  sp::sddmm({}, Op::N, Op::N, 1.0f, A.ref(), B.ref(), 0.25f, C.view());
  Values after;
  after.resize(pos.size());
  for (std::size_t i = 0; i < pos.size(); ++i) after.set(i, C.values.get(pos[i]));
  check_sddmm_values(Op::N, Op::N, M, N, K, 1.0f, 0.25f, A, B, rows, cols, before, after);
}

TEST(Sddmm, CsrPatternMatchesSampledOpenBlas) {
  for (Op opA : {Op::N, Op::T})
    for (double d : {0.02, 0.3}) {
      const std::int64_t M = 150, N = 530, K = 40;  // two row tiles, two column chunks
      std::mt19937_64 rng(91);
      std::uniform_real_distribution<double> u(0, 1);
      std::vector<std::int32_t> off{1}, col;
      std::vector<std::int64_t> rows, cols;
      for (std::int64_t i = 0; i < M; ++i) {
        for (std::int64_t j = 0; j < N; ++j)
          if (u(rng) < d || (i % 7 == 0 && j >= 100 && j < 120)) {  // random entries plus runs
            col.push_back(static_cast<std::int32_t>(j + 1));
            rows.push_back(i);
            cols.push_back(j);
          }
        off.push_back(static_cast<std::int32_t>(col.size() + 1));
      }
      Values vals;
      vals.resize(col.size());
      for (std::size_t e = 0; e < col.size(); ++e) vals.set(e, draw(rng, 0));
      const std::vector<float> before = vals.f32;
      TestDense A = random_dense(opA == Op::N ? M : K, opA == Op::N ? K : M, Layout::col_major, 92);
      TestDense B = random_dense(K, N, Layout::row_major, 93);
      sp::CsrView c{M, N, static_cast<std::int64_t>(col.size()), off.data(), col.data(), vals.data(), IndexType::i32,
                    IndexType::i32, IndexBase::one, DType::f32};
      sp::sddmm({}, opA, Op::N, 0.75f, A.ref(), B.ref(), 2.0f, c);
      check_sddmm_values(opA, Op::N, M, N, K, 0.75f, 2.0f, A, B, rows, cols, before, vals);
    }
}

// Eigen's SparseMatrix as a second oracle: CSR (from Eigen) -> BSR -> SpMM vs Eigen sparse x dense.
TEST(Conversions, CsrToBsrSpmmMatchesEigenSparse) {
  const int m = 70, k = 90, n = 12, bd = 16;
  std::mt19937_64 rng(101);
  std::uniform_real_distribution<float> u(-1, 1);
  std::uniform_real_distribution<double> pick(0, 1);
  Eigen::SparseMatrix<float, Eigen::RowMajor, std::int32_t> S(m, k);
  std::vector<Eigen::Triplet<float>> trip;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < k; ++j)
      if (pick(rng) < 0.08) trip.emplace_back(i, j, u(rng));
  S.setFromTriplets(trip.begin(), trip.end());
  S.makeCompressed();
  sp::CsrView csr{m, k, S.nonZeros(), S.outerIndexPtr(), S.innerIndexPtr(), S.valuePtr(), IndexType::i32, IndexType::i32,
                  IndexBase::zero, DType::f32};
  const std::int64_t mb = (m + bd - 1) / bd, nb = (k + bd - 1) / bd;
  std::vector<std::int64_t> boff(static_cast<std::size_t>(mb + 1));
  const std::int64_t bnnz = sp::csr_to_bsr_nnz(csr, bd, IndexBase::one, boff.data(), IndexType::i64);
  std::vector<std::int64_t> bcol(static_cast<std::size_t>(bnnz));
  std::vector<float> bval(static_cast<std::size_t>(bnnz * bd * bd));
  const sp::FillReport fill = sp::csr_to_bsr(csr, bd, BlockOrder::col, IndexBase::one, boff.data(), IndexType::i64,
                                             bcol.data(), bval.data());
  EXPECT_EQ(fill.bnnz, bnnz);
  EXPECT_DOUBLE_EQ(fill.fill, double(S.nonZeros()) / double(bnnz * bd * bd));
  // The padded matrix is mb*bd x nb*bd; B gets zero rows beyond k.
  const std::int64_t Mp = mb * bd, Kp = nb * bd;
  sp::BsrView a{mb, nb, bnnz, bd, bd, boff.data(), bcol.data(), bval.data(), IndexType::i64, IndexType::i64,
                IndexBase::one, DType::f32, BlockOrder::col};
  Eigen::MatrixXf B = Eigen::MatrixXf::Random(k, n), Bp = Eigen::MatrixXf::Zero(Kp, n);
  Bp.topRows(k) = B;
  Eigen::MatrixXf C = Eigen::MatrixXf::Zero(Mp, n);
  sp::spmm({}, Op::N, Op::N, 1.0f, a, {Bp.data(), DType::f32, Kp, n, Kp, Layout::col_major}, 0.0f,
           {C.data(), DType::f32, Mp, n, Mp, Layout::col_major});
  const Eigen::MatrixXf E = S * B;
  const Eigen::MatrixXf absE = S.cwiseAbs() * B.cwiseAbs();
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) ASSERT_LE(std::fabs(C(i, j) - E(i, j)), bound(k, absE(i, j))) << i << "," << j;
  EXPECT_EQ(C.bottomRows(Mp - m).cwiseAbs().maxCoeff(), 0.0f);
  // Back to CSR: every block value becomes an entry; the expansion equals the original matrix.
  std::vector<std::int32_t> coff(static_cast<std::size_t>(Mp + 1)), ccol(static_cast<std::size_t>(bnnz * bd * bd));
  std::vector<float> cval(ccol.size());
  sp::bsr_to_csr(a, IndexBase::zero, coff.data(), ccol.data(), cval.data(), IndexType::i32);
  Eigen::MatrixXf back = Eigen::MatrixXf::Zero(Mp, Kp);
  for (std::int64_t i = 0; i < Mp; ++i) {
    for (std::int32_t e = coff[i]; e < coff[i + 1]; ++e) {
      if (e > coff[i]) {
        ASSERT_LT(ccol[e - 1], ccol[e]);
      }
      back(i, ccol[e]) = cval[e];
    }
  }
  EXPECT_EQ(coff[Mp], bnnz * bd * bd);
  EXPECT_TRUE(back.topLeftCorner(m, k) == Eigen::MatrixXf(S));
}

TEST(Conversions, DenseToBsrThresholdReportsFill) {
  TestDense A = random_dense(50, 37, Layout::row_major, 111);
  // Zero out most of the matrix so that some blocks drop.
  for (std::int64_t i = 0; i < 50; ++i)
    for (std::int64_t j = 0; j < 37; ++j)
      if ((i / 10 + j / 8) % 3 != 0) A.values.f32[A.at(i, j)] *= 1e-3f;
  const float t = 0.01f;
  sp::OwnedBsr b = sp::dense_to_bsr(A.ref(), 10, 8, t, BlockOrder::col);
  std::int64_t kept_entries = 0, blocks = 0;
  for (std::int64_t R = 0; R < 5; ++R)
    for (std::int64_t Cb = 0; Cb < 5; ++Cb) {
      std::int64_t cnt = 0;
      for (std::int64_t i = R * 10; i < std::min<std::int64_t>(50, R * 10 + 10); ++i)
        for (std::int64_t j = Cb * 8; j < std::min<std::int64_t>(37, Cb * 8 + 8); ++j) cnt += std::fabs(A.get(i, j)) > t;
      blocks += cnt > 0;
      kept_entries += cnt;
    }
  EXPECT_EQ(b.fill.bnnz, blocks);
  EXPECT_EQ(b.fill.nnz, kept_entries);
  EXPECT_GT(blocks, 0);
  EXPECT_LT(blocks, 25);
  EXPECT_DOUBLE_EQ(b.fill.fill, double(kept_entries) / double(blocks * 80));
  // SpMM with the thresholded matrix equals OpenBLAS on the thresholded dense matrix.
  sp::BsrView v = b.view();
  std::vector<float> Ad(static_cast<std::size_t>(v.rows() * v.cols()), 0.0f);
  for (std::int64_t i = 0; i < 50; ++i)
    for (std::int64_t j = 0; j < 37; ++j)
      if (std::fabs(A.get(i, j)) > t) Ad[static_cast<std::size_t>(i + j * v.rows())] = A.get(i, j);
  TestDense B = random_dense(v.cols(), 9, Layout::col_major, 112);
  TestDense C = random_dense(v.rows(), 9, Layout::col_major, 113);
  const Reference ref = reference_gemm(Op::N, Op::N, v.rows(), 9, v.cols(), 1.0f, Ad, v.rows(), B.colmajor, B.rows, 0.0f, C.colmajor);
  sp::spmm({}, Op::N, Op::N, 1.0f, v, B.ref(), 0.0f, C.mref());
  C.refresh_colmajor();
  for (std::size_t q = 0; q < ref.c.size(); ++q) ASSERT_LE(std::fabs(C.colmajor[q] - ref.c[q]), bound(v.cols(), ref.scale[q]));
}

// Bad index arrays: InvalidArgument naming the array, C untouched.
TEST(Validation, BadIndexArraysThrowAndLeaveCUntouched) {
  auto run = [](TestBsr A, const char* item) {
    TestDense B = random_dense(A.cols(), 4, Layout::col_major, 121);
    TestDense C = random_dense(A.rows(), 4, Layout::col_major, 122);
    const std::vector<float> before = C.values.f32;
    try {
      sp::spmm({}, Op::N, Op::N, 1.0f, A.view(), B.ref(), 1.0f, C.mref());
      ADD_FAILURE() << "no exception for " << item;
    } catch (const sp::InvalidArgument& e) {
      EXPECT_EQ(e.item(), item) << e.what();
    }
    EXPECT_EQ(before, C.values.f32);
  };
  TestBsr good = random_bsr(4, 5, 2, 3, 0.6, 123, BlockOrder::row, IndexBase::one);
  ASSERT_GE(good.bnnz(), 4);
  TestBsr a = good;
  a.col32[1] = 99;  // out of range
  run(a, "columns");
  a = good;
  a.col32[0] = 0;  // below base 1
  run(a, "columns");
  a = good;
  std::swap(a.off32[1], a.off32[2]);  // non-monotone (if they differ)
  if (a.off32[1] != a.off32[2]) run(a, "offsets");
  a = good;
  a.off32[0] = 0;  // differs from base
  run(a, "offsets");
  a = good;
  a.columns.pop_back();  // bnnz inconsistent with offsets
  a.store_indices();
  run(a, "nnz");
  a = good;
  for (std::int64_t R = 0; R < a.brows; ++R)  // unsorted columns in the first row with two blocks
    if (a.offsets[R + 1] - a.offsets[R] >= 2) {
      std::swap(a.col32[a.offsets[R]], a.col32[a.offsets[R] + 1]);
      break;
    }
  run(a, "columns");
  a = good;
  a.rb = 0;
  run(a, "rowBlockSize");
}

}  // namespace

namespace {

// RCM (host index work): a 2-D Laplacian with scrambled numbering needs nearly every 128-block;
// after RCM the pattern is banded again and needs few, fuller blocks. P A P^T is checked entry by
// entry against the test's own permutation of the scrambled matrix.
TEST(Reorder, RcmRestoresBandedBlocksAndPermutesExactly) {
  const std::int64_t g = 48, n = g * g, bd = 128;
  std::vector<std::int64_t> scramble(static_cast<std::size_t>(n));
  std::iota(scramble.begin(), scramble.end(), 0);
  std::shuffle(scramble.begin(), scramble.end(), std::mt19937_64(131));
  // Row scramble[i] of the scrambled matrix is grid point i.
  std::vector<std::vector<std::pair<std::int64_t, float>>> rows(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t x = i % g, y = i / g;
    auto add = [&](std::int64_t j, float v) { rows[static_cast<std::size_t>(scramble[static_cast<std::size_t>(i)])].push_back({scramble[static_cast<std::size_t>(j)], v}); };
    add(i, 4.0f + static_cast<float>(i % 7));
    if (x > 0) add(i - 1, -1.0f);
    if (x + 1 < g) add(i + 1, -1.0f);
    if (y > 0) add(i - g, -2.0f);
    if (y + 1 < g) add(i + g, -2.0f);
  }
  std::vector<std::int64_t> off{0}, col;
  std::vector<float> val;
  for (auto& r : rows) {
    std::sort(r.begin(), r.end());
    for (auto [c, v] : r) {
      col.push_back(c);
      val.push_back(v);
    }
    off.push_back(static_cast<std::int64_t>(col.size()));
  }
  const sp::CsrView A{n, n, static_cast<std::int64_t>(col.size()), off.data(), col.data(), val.data(), IndexType::i64,
                      IndexType::i64, IndexBase::zero, DType::f32};
  auto bnnz_of = [&](const sp::CsrView& m) {
    std::vector<std::int64_t> boff(static_cast<std::size_t>((n + bd - 1) / bd + 1));
    return sp::csr_to_bsr_nnz(m, bd, IndexBase::zero, boff.data(), IndexType::i64);
  };
  const std::vector<std::int64_t> perm = sp::rcm_ordering(A);
  std::vector<std::int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(sorted[static_cast<std::size_t>(i)], i);
  sp::OwnedCsr B = sp::permute_symmetric(A, perm);
  // With a report: the same result, the call's profile one host round trip of the arrays it moves
  // (int64 offsets and columns read, the permutation back; then the permuted arrays, 4-byte values).
  sp::CallReport rr, pr;
  EXPECT_EQ(sp::rcm_ordering(sp::Settings{}, A, &rr), perm);
  const auto nz = static_cast<double>(col.size()), nd = static_cast<double>(n);
  EXPECT_EQ(rr.profile.host_steps, 1);
  EXPECT_EQ(rr.profile.host_bytes, 8.0 * (nd + 1 + nz) + 8.0 * nd);
  EXPECT_EQ(sp::permute_symmetric(sp::Settings{}, A, perm, &pr).columns, B.columns);
  EXPECT_EQ(pr.profile.host_steps, 1);
  EXPECT_EQ(pr.profile.host_bytes, (8.0 * (nd + 1 + nz) + 4.0 * nz + 8.0 * nd) + (8.0 * (nd + 1 + nz) + 4.0 * nz));
  EXPECT_GT(pr.profile.total_ns, rr.profile.total_ns);
  const std::int64_t before = bnnz_of(A), after = bnnz_of(B.view());
  std::printf("RCM: 128-blocks %lld -> %lld (of %lld)\n", static_cast<long long>(before), static_cast<long long>(after),
              static_cast<long long>(((n + bd - 1) / bd) * ((n + bd - 1) / bd)));
  EXPECT_GT(before, 250);  // scrambled: almost all 18 x 18 blocks
  EXPECT_LT(after, 70);    // banded (bandwidth ~ 2 g): about three blocks per block row
  // B(i, j) = A(perm[i], perm[j]) for every stored entry, and the entry counts agree.
  ASSERT_EQ(B.columns.size(), col.size());
  std::vector<std::int64_t> inverse(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) inverse[static_cast<std::size_t>(perm[static_cast<std::size_t>(i)])] = i;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t old = perm[static_cast<std::size_t>(i)];
    for (std::int64_t e = off[static_cast<std::size_t>(old)]; e < off[static_cast<std::size_t>(old) + 1]; ++e) {
      const std::int64_t j = inverse[static_cast<std::size_t>(col[static_cast<std::size_t>(e)])];
      const auto first = B.columns.begin() + B.offsets[static_cast<std::size_t>(i)];
      const auto last = B.columns.begin() + B.offsets[static_cast<std::size_t>(i) + 1];
      const auto it = std::lower_bound(first, last, j);
      ASSERT_TRUE(it != last && *it == j);
      float v;
      std::memcpy(&v, B.values.data() + (it - B.columns.begin()) * 4, 4);
      ASSERT_EQ(v, val[static_cast<std::size_t>(e)]);
    }
  }
}

}  // namespace

namespace {

// COO input: the same values as a random BSR expanded entry by entry (row-sorted), SpMM/SpMV
// against OpenBLAS; unsorted or out-of-range entries are rejected.
TEST(Coo, SpmmAndSpmvMatchOpenBlasAndUnsortedIsRejected) {
  TestBsr A = random_bsr(6, 5, 7, 9, 0.4, 141);
  const std::vector<float> Ad = A.dense();
  std::vector<std::int64_t> ri, ci;
  std::vector<float> vals;
  for (std::int64_t i = 0; i < A.rows(); ++i)
    for (std::int64_t j = 0; j < A.cols(); ++j)
      if (Ad[static_cast<std::size_t>(i + j * A.rows())] != 0.0f) {
        ri.push_back(i + 1);
        ci.push_back(j + 1);
        vals.push_back(Ad[static_cast<std::size_t>(i + j * A.rows())]);
      }
  const sp::CooView coo{A.rows(), A.cols(), static_cast<std::int64_t>(vals.size()), ri.data(), ci.data(), vals.data(),
                        IndexType::i64, IndexBase::one, DType::f32};
  TestDense B = random_dense(A.cols(), 11, Layout::row_major, 142);
  TestDense C = random_dense(A.rows(), 11, Layout::col_major, 143);
  const Reference ref = reference_gemm(Op::N, Op::N, A.rows(), 11, A.cols(), 1.0f, Ad, A.rows(), B.colmajor, B.rows, 0.5f, C.colmajor);
  sp::spmm({}, Op::N, Op::N, 1.0f, coo, B.ref(), 0.5f, C.mref());
  C.refresh_colmajor();
  for (std::size_t q = 0; q < ref.c.size(); ++q) ASSERT_LE(std::fabs(C.colmajor[q] - ref.c[q]), bound(A.cols(), ref.scale[q]));
  std::vector<float> x(static_cast<std::size_t>(A.rows()), 1.0f), y(static_cast<std::size_t>(A.cols()), 0.0f);
  sp::spmv({}, Op::T, 1.0f, coo, x.data(), DType::f32, 0.0f, y.data(), DType::f32);  // column sums
  for (std::int64_t j = 0; j < A.cols(); ++j) {
    double s = 0, sa = 0;
    for (std::int64_t i = 0; i < A.rows(); ++i) {
      s += Ad[static_cast<std::size_t>(i + j * A.rows())];
      sa += std::fabs(Ad[static_cast<std::size_t>(i + j * A.rows())]);
    }
    ASSERT_LE(std::fabs(y[static_cast<std::size_t>(j)] - s), bound(A.rows(), sa));
  }
  ASSERT_GE(ri.size(), 3u);
  std::swap(ri[0], ri[ri.size() - 1]);  // rows no longer sorted
  EXPECT_THROW(sp::spmm({}, Op::N, Op::N, 1.0f, coo, B.ref(), 0.5f, C.mref()), sp::InvalidArgument);
}

}  // namespace

namespace {

// SpGEMM (BSR x BSR): the symbolic pattern against the structural product computed here, the
// values against OpenBLAS on the densified operands (the SpMM bound with k = A.cols), bits for
// integer bf16 inputs.
TEST(Spgemm, PatternAndValuesMatchDenseOpenBlas) {
  for (DType vt : {DType::f32, DType::bf16}) {
    const int imax = vt == DType::bf16 ? 16 : 0;
    TestBsr A = random_bsr(6, 5, 8, 12, 0.35, 151, BlockOrder::col, IndexBase::one, IndexType::i32, vt, imax);
    TestBsr B = random_bsr(5, 7, 12, 10, 0.35, 152, BlockOrder::row, IndexBase::zero, IndexType::i64, vt, imax);
    sp::OwnedBsr C = sp::spgemm_symbolic(A.view(), B.view());
    // Structural product.
    std::int64_t expect_blocks = 0;
    for (std::int64_t i = 0; i < A.brows; ++i)
      for (std::int64_t j = 0; j < B.bcols; ++j) {
        bool hit = false;
        for (std::int64_t e = A.offsets[i]; e < A.offsets[i + 1] && !hit; ++e)
          for (std::int64_t f = B.offsets[A.columns[e]]; f < B.offsets[A.columns[e] + 1]; ++f) hit = hit || B.columns[f] == j;
        if (!hit) continue;
        ++expect_blocks;
        const auto first = C.columns.begin() + C.offsets[i], last = C.columns.begin() + C.offsets[i + 1];
        ASSERT_TRUE(std::binary_search(first, last, j)) << i << "," << j;
      }
    ASSERT_EQ(static_cast<std::int64_t>(C.columns.size()), expect_blocks);
    sp::CallReport rep;
    sp::spgemm_numeric({}, 0.75f, A.view(), B.view(), C, &rep);
    const std::int64_t M = A.rows(), N = B.cols(), K = A.cols();
    const std::vector<float> zeros(static_cast<std::size_t>(M * N), 0.0f);
    const Reference ref = reference_gemm(Op::N, Op::N, M, N, K, 0.75f, A.dense(), M, B.dense(), K, 0.0f, zeros);
    // C's blocks against the reference; positions outside C's pattern must be exact zeros there.
    std::vector<float> cd(static_cast<std::size_t>(M * N), 0.0f);
    for (std::int64_t i = 0; i < C.brows; ++i)
      for (std::int64_t e = C.offsets[static_cast<std::size_t>(i)]; e < C.offsets[static_cast<std::size_t>(i) + 1]; ++e)
        for (std::int64_t r = 0; r < C.row_block; ++r)
          for (std::int64_t c = 0; c < C.col_block; ++c) {
            float v;
            std::memcpy(&v, C.values.data() + (e * C.row_block * C.col_block + r * C.col_block + c) * 4, 4);
            cd[static_cast<std::size_t>((i * C.row_block + r) + (C.columns[static_cast<std::size_t>(e)] * C.col_block + c) * M)] = v;
          }
    for (std::size_t q = 0; q < cd.size(); ++q) {
      if (imax > 0)
        ASSERT_EQ(cd[q], ref.c[q]) << "integer bf16 inputs: exact";
      else
        ASSERT_LE(std::fabs(cd[q] - ref.c[q]), bound(K, ref.scale[q])) << q;
    }
    EXPECT_GT(rep.matmuls, 0);
  }
}

TEST(Spgemm, MismatchedShapesAreRejected) {
  TestBsr A = random_bsr(3, 4, 8, 8, 0.5, 161), B = random_bsr(5, 2, 8, 8, 0.5, 162);
  EXPECT_THROW(sp::spgemm_symbolic(A.view(), B.view()), sp::InvalidArgument);
}

}  // namespace
