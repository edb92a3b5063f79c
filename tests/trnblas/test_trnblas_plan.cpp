// The GEMM plan against the hardware's capacities: for every plan shape the rule can pick (streaming
// and resident, 1..8 PSUM banks, 2..4 operand buffers, 1..2 strips) and every operand layout (split
// terms, fp32 loads, beta reads of C, cast outputs, triangles), on every generation, the kernel runs
// without an SBUF/PSUM capacity error and within the SBUF bytes the plan accounted for (the launch
// checks the kernel's peak against the plan and throws otherwise). Timing-only emulation: the
// instruction stream and allocations are real, the arithmetic is skipped.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <string>
#include <vector>

#include "trn/blas/blas.hpp"

namespace {

using trn::DType;
using trn::blas::GemmMode;
using trn::blas::Op;

struct Shape {
  std::int64_t m, n, k;
};

TEST(TrnblasPlan, EveryPlanFitsTheGenerationsCapacities) {
  // Long K makes the resident strip large (the capacity edge); long m with short n and the other
  // way round give the streaming plans and the partial tiles.
  const std::vector<Shape> shapes = {{1, 1, 1},       {700, 130, 129},   {512, 1024, 16384}, {1500, 2100, 3000},
                                     {4096, 256, 512}, {256, 4096, 2048}, {130, 9000, 300}};
  const GemmMode modes[] = {GemmMode::bf16, GemmMode::fp32, GemmMode::bf16x3, GemmMode::bf16x9, GemmMode::fp8_e4m3};
  // (C's dtype, beta): fp32 C written only, and bf16 C read for beta and cast (the most epilogue tiles).
  const std::pair<DType, float> epilogues[] = {{DType::f32, 0.0f}, {DType::bf16, 0.5f}};
  int runs = 0;
  for (const trn::Generation gen : {trn::Generation::trn1, trn::Generation::trn2, trn::Generation::trn3})
    for (const Shape& s : shapes)
      for (const GemmMode mode : modes)
        for (const auto& [c_type, beta] : epilogues) {
            trn::blas::Settings set;
            set.target = gen;
            set.timing_only = true;
            std::vector<float> A(static_cast<std::size_t>(s.m * s.k)), B(static_cast<std::size_t>(s.k * s.n));
            std::vector<float> C(static_cast<std::size_t>(s.m * s.n));
            trn::blas::CallReport rep;
            ASSERT_NO_THROW(trn::blas::gemm(set, mode, Op::N, Op::T, s.m, s.n, s.k, 1.0f, {A.data(), DType::f32, s.m},
                                            {B.data(), DType::f32, s.n}, beta, {C.data(), c_type, s.m}, &rep))
                << s.m << "x" << s.n << "x" << s.k << " mode " << trn::blas::gemm_mode_name(mode);
            EXPECT_NE(rep.plan.find("gemm plan"), std::string::npos);
            ++runs;
          }
  EXPECT_EQ(runs, 3 * 7 * 5 * 2);
}

TEST(TrnblasPlan, SyrkTrianglesFitToo) {
  for (const trn::Generation gen : {trn::Generation::trn1, trn::Generation::trn3})
    for (const std::int64_t n : {129, 1100, 2100})
      for (const trn::blas::Uplo uplo : {trn::blas::Uplo::lower, trn::blas::Uplo::upper}) {
        trn::blas::Settings set;
        set.target = gen;
        set.timing_only = true;
        const std::int64_t k = 3000;
        std::vector<float> A(static_cast<std::size_t>(n * k)), C(static_cast<std::size_t>(n * n));
        trn::blas::CallReport rep;
        ASSERT_NO_THROW(trn::blas::syrk(set, GemmMode::bf16x3, uplo, Op::N, n, k, 1.0f, {A.data(), DType::f32, n}, 1.0f,
                                        {C.data(), DType::f32, n}, &rep))
            << "n " << n;
        EXPECT_NE(rep.plan.find("gemm plan"), std::string::npos);
      }
}

}  // namespace
