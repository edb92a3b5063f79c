// Issue #28's sparse bench columns (tools/cli/sparse_columns.hpp): the crossover search on known
// monotone cost curves (the density where they meet the dense time, to its 5% tolerance, and the
// "> hi" / "< lo" outcomes) and the dense path's time as trnblas predicts it.
#include <gtest/gtest.h>

#include <cmath>

#include "registry.hpp"
#include "sparse_columns.hpp"
#include "trn/blas/blas.hpp"

using namespace trnsci::cli;

TEST(SparseColumns, CrossoverOfALinearCostCurve) {
  BenchResult b;
  int calls = 0;
  // sparse(d) = 10 + 4000 d (ns), dense 50: they meet at d = 0.01, above the row's 0.005.
  set_crossover(b, "dense", 50.0, 0.005, 30.0, 1e-6, 0.5, [&](double d) {
    ++calls;
    return 10.0 + 4000.0 * d;
  });
  EXPECT_NEAR(b.crossover_density, 0.01, 0.01 * 0.05);
  EXPECT_EQ(b.dense_name, "dense");
  EXPECT_EQ(b.dense_ns, 50.0);
  EXPECT_LT(calls, 12);
  // The same curve met below the row's density: halving brackets it.
  BenchResult c;
  set_crossover(c, "dense", 12.0, 0.005, 30.0, 1e-6, 0.5, [](double d) { return 10.0 + 4000.0 * d; });
  EXPECT_NEAR(c.crossover_density, 5e-4, 5e-4 * 0.05);
}

TEST(SparseColumns, CrossoverOutsideTheRangeSaysSo) {
  BenchResult above, below;
  set_crossover(above, "dense", 1e9, 0.005, 10.0, 1e-6, 0.5, [](double d) { return 10.0 + d; });
  EXPECT_TRUE(std::isnan(above.crossover_density));
  EXPECT_EQ(above.crossover_text, "> 0.5");
  set_crossover(below, "dense", 1.0, 0.005, 10.0, 1e-6, 0.5, [](double d) { return 10.0 + d; });
  EXPECT_TRUE(std::isnan(below.crossover_density));
  EXPECT_EQ(below.crossover_text, "< 1e-06");
}

TEST(SparseColumns, DenseTimeIsTrnblasPrediction) {
  trn::blas::Settings s;
  s.target = trn::Generation::trn2;
  EXPECT_EQ(dense_gemm_ns(trn::Generation::trn2, trn::sparse::Value::f32, 256, 4, 256),
            trn::blas::predict_gemm_ns(s, trn::blas::GemmMode::fp32, trn::blas::Op::N, trn::blas::Op::N, 256, 4, 256, 0.75f, -0.25f));
  EXPECT_GT(dense_trsm_ns(trn::Generation::trn1, trn::sparse::Value::f32, 256, 2), 0.0);
  // Complex: the 4M path's one real GEMM of the real representation, 2M x N x 2K.
  trn::blas::Settings s1;
  s1.target = trn::Generation::trn1;
  EXPECT_EQ(dense_gemm_ns(trn::Generation::trn1, trn::sparse::Value::c64, 256, 1, 256),
            trn::blas::predict_dgemm_ns(s1, trn::blas::Op::N, trn::blas::Op::N, 512, 1, 512, 0.75, -0.25));
  EXPECT_EQ(dense_gemm_ns(trn::Generation::trn2, trn::sparse::Value::c32, 256, 4, 256),
            trn::blas::predict_gemm_ns(s, trn::blas::GemmMode::fp32, trn::blas::Op::N, trn::blas::Op::N, 512, 4, 512, 0.75f, -0.25f));
  EXPECT_GT(dense_trsm_ns(trn::Generation::trn1, trn::sparse::Value::c64, 64, 2), 0.0);
}
