// The GEMM plan against the hardware's capacities: for every plan shape the rule can pick (streaming
// and resident, 1..8 PSUM banks, 2..4 operand buffers, 1..2 strips) and every operand layout (split
// terms, fp32 loads, beta reads of C, cast outputs, triangles), on every generation, the kernel runs
// without an SBUF/PSUM capacity error and within the SBUF bytes the plan accounted for (the launch
// checks the kernel's peak against the plan and throws otherwise). Timing-only emulation: the
// instruction stream and allocations are real, the arithmetic is skipped.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
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
  // {1024, 4096, 1100} and {128, 1536, 1100} take the K-blocked plan (output block in SBUF).
  const std::vector<Shape> shapes = {{1, 1, 1},       {700, 130, 129},   {512, 1024, 16384}, {1500, 2100, 3000},
                                     {4096, 256, 512}, {256, 4096, 2048}, {130, 9000, 300}, {1024, 4096, 1100},
                                     {128, 1536, 1100}};
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
  EXPECT_EQ(runs, 3 * 9 * 5 * 2);
}

float bf16_rne(float x) {  // finite x: round to the nearest bf16, ties to even
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  u = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
  std::memcpy(&x, &u, 4);
  return x;
}

// The K-blocked plan (docs/trnblas.md "GEMM kernel"): each chunk of 512 rows of K is one PSUM
// accumulation group (128-row K tiles: sequential fp32 sums, tile sums added in order), and VectorE
// adds the chunk sums in chunk order in fp32; then alpha, beta C. Checked bit for bit against a float
// loop that does exactly that, on a shape whose plan is K-blocked (three chunks: 512, 512, 76), with
// alpha/beta (epilogue in place) and without (fp32 columns stored whole), and for 1 or 3 host threads
// and 1 or 2 emulated cores.
TEST(TrnblasPlan, KBlockedPlanAddsItsChunkSumsInOrderBitForBit) {
  const std::int64_t m = 128, n = 1536, k = 1100, chunk = 512, tile = 128;
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> A(static_cast<std::size_t>(m * k)), B(static_cast<std::size_t>(n * k)), C0(static_cast<std::size_t>(m * n));
  for (float& x : A) x = u(gen);
  for (float& x : B) x = u(gen);  // op(B) = B^T, B is n x k
  for (float& x : C0) x = u(gen);
  for (const auto& [alpha, beta] : {std::pair{1.0f, 0.0f}, std::pair{0.75f, -0.5f}}) {
    std::vector<float> ref(C0.size());
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i) {
        float acc = 0.0f;
        for (std::int64_t c0 = 0; c0 < k; c0 += chunk) {
          float psum = 0.0f;
          for (std::int64_t t0 = c0; t0 < std::min(k, c0 + chunk); t0 += tile) {
            float s = 0.0f;
            for (std::int64_t kk = t0; kk < std::min(k, t0 + tile); ++kk) {
              const volatile float p = bf16_rne(A[static_cast<std::size_t>(i + kk * m)]) *
                                       bf16_rne(B[static_cast<std::size_t>(j + kk * n)]);  // exact
              s = s + p;
            }
            psum = t0 == c0 ? s : psum + s;
          }
          acc = c0 == 0 ? psum : acc + psum;
        }
        float v = acc;
        if (alpha != 1.0f) {
          const volatile float scaled = alpha * acc;
          v = scaled;
        }
        if (beta != 0.0f) {
          const volatile float cv = beta * C0[static_cast<std::size_t>(i + j * m)];
          v = v + cv;
        }
        ref[static_cast<std::size_t>(i + j * m)] = v;
      }
    for (const auto& [threads, cores] : {std::pair{1, 1}, std::pair{3, 2}}) {
      trn::blas::Settings set;
      set.host_threads = threads;
      set.num_cores = cores;
      std::vector<float> C = C0;
      trn::blas::CallReport rep;
      ASSERT_NO_THROW(trn::blas::gemm(set, GemmMode::bf16, Op::N, Op::T, m, n, k, alpha, {A.data(), DType::f32, m},
                                      {B.data(), DType::f32, n}, beta, {C.data(), DType::f32, m}, &rep));
      ASSERT_NE(rep.plan.find("accumulated in fp32 SBUF across K chunks of 512 rows"), std::string::npos) << rep.plan;
      EXPECT_EQ(std::memcmp(C.data(), ref.data(), C.size() * 4), 0)
          << "alpha " << alpha << " beta " << beta << ", " << threads << " threads, " << cores << " cores";
    }
  }
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
