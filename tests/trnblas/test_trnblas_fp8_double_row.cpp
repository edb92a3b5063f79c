// fp8 GEMM on NC-v3/v4 runs TensorE's double_row mode: K tiles of 256 rows, one nc_matmul each.
// Bits against a float loop written here (K tiles of 256 on trn2/trn3, 128 on trn1), and the
// modeled TensorE time against the bf16 GEMM's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "trn/blas/blas.hpp"

namespace {

using trn::DType;
using trn::Generation;
using trn::blas::GemmMode;
using trn::blas::Op;

// Values exactly representable in Neuron's e4m3 (1-4-3, bias 7, max 240): m * 2^e with a 4-bit
// significand, over a wide exponent range so that the K association changes the fp32 sums.
std::vector<float> e4m3_values(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<int> mant(8, 15), expo(-6, 4), sign(0, 1);
  std::vector<float> v(n);
  for (auto& x : v) x = std::ldexp(static_cast<float>(mant(g)), expo(g) - 3) * (sign(g) ? -1.0f : 1.0f);
  return v;
}

// C (column-major, m x n) = A (m x k, column-major) B (k x n): per element, K tiles of `tile`
// rows in increasing k, each summed from +0 with one fp32 rounding per product (exact products),
// then added to the running result with one rounding.
std::vector<float> tiled_reference(const std::vector<float>& A, const std::vector<float>& B, int m, int n, int k,
                                   int tile) {
  std::vector<float> C(static_cast<std::size_t>(m) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      float acc = 0.0f;
      for (int k0 = 0; k0 < k; k0 += tile) {
        float s = 0.0f;
        for (int kk = k0; kk < std::min(k, k0 + tile); ++kk) {
          const float p = A[static_cast<std::size_t>(kk) * m + i] * B[static_cast<std::size_t>(j) * k + kk];
          s = s + p;
        }
        acc = k0 == 0 ? s : acc + s;
      }
      C[static_cast<std::size_t>(j) * m + i] = acc;
    }
  return C;
}

std::vector<float> run(Generation gen, const std::vector<float>& A, const std::vector<float>& B, int m, int n, int k,
                       trn::blas::CallReport* rep) {
  trn::blas::Settings s;
  s.target = gen;
  std::vector<float> C(static_cast<std::size_t>(m) * n, 0.0f);
  trn::blas::gemm(s, GemmMode::fp8_e4m3, Op::N, Op::N, m, n, k, 1.0f, {A.data(), DType::f32, m},
                  {B.data(), DType::f32, k}, 0.0f, {C.data(), DType::f32, m}, rep);
  return C;
}

std::vector<std::uint32_t> bits(const std::vector<float>& v) {
  std::vector<std::uint32_t> b(v.size());
  std::memcpy(b.data(), v.data(), v.size() * 4);
  return b;
}

TEST(TrnblasFp8DoubleRow, BitsFollow256RowKTilesOnTrn2AndTrn3And128OnTrn1) {
  const int m = 40, n = 70, k = 601;  // K tiles 256 + 256 + 89 (odd last tile: a zeroed pair row)
  const auto A = e4m3_values(static_cast<std::size_t>(m) * k, 1), B = e4m3_values(static_cast<std::size_t>(k) * n, 2);
  const auto ref256 = tiled_reference(A, B, m, n, k, 256), ref128 = tiled_reference(A, B, m, n, k, 128);
  ASSERT_NE(bits(ref256), bits(ref128)) << "inputs too tame: the two tilings agree everywhere";
  for (Generation gen : {Generation::trn2, Generation::trn3}) {
    trn::blas::CallReport rep;
    EXPECT_EQ(bits(run(gen, A, B, m, n, k, &rep)), bits(ref256)) << trn::hardware_spec(gen).name;
    int double_row = 0, single = 0;
    for (const auto& ins : rep.trace.instructions)
      if (ins.opcode == trn::Opcode::nc_matmul) (ins.double_row ? double_row : single)++;
    EXPECT_EQ(double_row, 3);  // one output tile, three K tiles
    EXPECT_EQ(single, 0);
    EXPECT_NE(rep.plan.find("double_row"), std::string::npos) << rep.plan;
  }
  trn::blas::CallReport rep1;
  EXPECT_EQ(bits(run(Generation::trn1, A, B, m, n, k, &rep1)), bits(ref128));
  for (const auto& ins : rep1.trace.instructions) EXPECT_FALSE(ins.double_row);
}

TEST(TrnblasFp8DoubleRow, TensorETimeHalvesOnTrn2) {
  // Timing-only: the cost model at 2048^3, fp32 C. TensorE's busy time halves (256-row K tiles at
  // the cost of 128); the whole GEMM gets faster but is then bound by moving C (fp32) and operands.
  const int n = 2048;
  auto modeled = [&](GemmMode mode) {
    trn::blas::Settings s;
    s.target = Generation::trn2;
    s.timing_only = true;
    trn::blas::CallReport rep;
    std::vector<float> A(static_cast<std::size_t>(n) * n), B(A.size()), C(A.size());
    trn::blas::gemm(s, mode, Op::N, Op::N, n, n, n, 1.0f, {A.data(), DType::f32, n}, {B.data(), DType::f32, n}, 0.0f,
                    {C.data(), DType::f32, n}, &rep);
    return rep.profile;
  };
  const trn::Profile bf16 = modeled(GemmMode::bf16), fp8 = modeled(GemmMode::fp8_e4m3);
  const auto tensor = static_cast<std::size_t>(trn::Engine::tensor);
  RecordProperty("trn2_bf16_ns", std::to_string(bf16.total_ns));
  RecordProperty("trn2_fp8_ns", std::to_string(fp8.total_ns));
  EXPECT_NEAR(fp8.busy_ns[tensor] / bf16.busy_ns[tensor], 0.5, 0.02)
      << "TensorE bf16 " << bf16.busy_ns[tensor] << " ns, fp8 " << fp8.busy_ns[tensor] << " ns";
  EXPECT_LT(fp8.total_ns, 0.85 * bf16.total_ns) << "bf16 " << bf16.total_ns << " ns, fp8 " << fp8.total_ns << " ns";
}

}  // namespace
