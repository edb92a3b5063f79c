// nc_matmul perf_mode double_row (fp8, NC-v3/v4): both documented accumulation orders bit for bit
// against loops written here, the cost (K = 256 at the price of K = 128), and every rule's error.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "test_util.hpp"
#include "trn/core/core.hpp"

using namespace trn;
using trntest::read_bits;
using trntest::upload;

namespace {

// Values exactly representable in the fp8 type, with a wide exponent spread (e4m3: 2^-6..2^7 with 3
// fraction bits; e5m2: 2^-14..2^15 with 2) so that products differ by more than 2^16 and the two
// documented orders round differently somewhere.
std::vector<float> fp8_values(std::size_t n, DType t, std::uint64_t seed) {
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  const bool e4 = t == DType::f8e4m3;
  const int frac_bits = e4 ? 3 : 2, emin = e4 ? -6 : -14, emax = e4 ? 7 : 15;
  std::vector<float> v(n);
  for (auto& f : v) {
    const int mant = (1 << frac_bits) + static_cast<int>(next() % (1u << frac_bits));
    const int e = emin + static_cast<int>(next() % static_cast<std::uint64_t>(emax - emin + 1));
    f = std::ldexp(static_cast<float>(mant), e - frac_bits) * ((next() & 1) ? -1.0f : 1.0f);
  }
  return v;
}

// Operands as the host sees them: S[p][r][m] (K x 2 x M), Mv[p][r][n]. Contraction row k = 2p + r.
std::vector<float> reference(const std::vector<float>& S, const std::vector<float>& Mv, int K, int M, int N,
                             DoubleRowOrder order) {
  std::vector<float> C(static_cast<std::size_t>(M) * N);
  auto s_at = [&](int p, int r, int m) { return S[(static_cast<std::size_t>(p) * 2 + r) * M + m]; };
  auto m_at = [&](int p, int r, int n) { return Mv[(static_cast<std::size_t>(p) * 2 + r) * N + n]; };
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float s = 0.0f;
      for (int p = 0; p < K; ++p) {
        const float x0 = s_at(p, 0, m) * m_at(p, 0, n), x1 = s_at(p, 1, m) * m_at(p, 1, n);  // exact (fp8)
        if (order == DoubleRowOrder::sequential) {
          s = s + x0;
          s = s + x1;
        } else {
          const float pair = x0 + x1;
          s = s + pair;
        }
      }
      C[static_cast<std::size_t>(m) * N + n] = s;
    }
  return C;
}

std::vector<std::uint32_t> bits_of(const std::vector<float>& v) {
  std::vector<std::uint32_t> b(v.size());
  std::memcpy(b.data(), v.data(), v.size() * 4);
  return b;
}

struct Case {
  DType dtype;
  int K, M, N;
  DoubleRowOrder order;
};

class DoubleRow : public ::testing::TestWithParam<Case> {};

// The stationary [K, 2, M] and moving [K, 2, N] fp8 operands uploaded and multiplied in double_row
// mode into a fresh PSUM tile (not accumulating).
struct DoubleRowTiles {
  Tile st, mv, out;
};
DoubleRowTiles double_row_product(NeuronCore& nc, DType dt, int K, int M, int N, const std::vector<float>& S,
                                  const std::vector<float>& Mv) {
  const DoubleRowTiles t{nc.sbuf().alloc(dt, K, {2, M}, "stationary"), nc.sbuf().alloc(dt, K, {2, N}, "moving"),
                         nc.psum().alloc(DType::f32, M, {N}, "out")};
  upload(nc, t.st, S);
  upload(nc, t.mv, Mv);
  nc.nc_matmul(t.out, t.st, t.mv, false, MatmulPerfMode::double_row);
  return t;
}

TEST_P(DoubleRow, BitsEqualTheDocumentedOrder) {
  const auto [dt, K, M, N, order] = GetParam();
  const auto S = fp8_values(static_cast<std::size_t>(K) * 2 * M, dt, 31);
  const auto Mv = fp8_values(static_cast<std::size_t>(K) * 2 * N, dt, 32);
  CoreConfig cfg;
  cfg.generation = Generation::trn2;
  cfg.double_row_order = order;
  NeuronCore nc(cfg);
  const auto [st, mv, out] = double_row_product(nc, dt, K, M, N, S, Mv);
  EXPECT_EQ(read_bits(out), bits_of(reference(S, Mv, K, M, N, order)));
  // accumulate adds the tile's sum with one rounding
  const auto once = trntest::read(out);
  nc.nc_matmul(out, st, mv, true, MatmulPerfMode::double_row);
  const auto twice = trntest::read(out);
  for (std::size_t i = 0; i < once.size(); ++i) EXPECT_EQ(twice[i], once[i] + once[i]);
}

// The sequential order runs the micro-kernel contract over 2K rows on every host ISA (the SIMD
// kernels on operands packed for them, core/src/isa_tensor.cpp): the same bits on each.
TEST(DoubleRow, SequentialOrderGivesTheSameBitsOnEveryHostIsa) {
  for (const DType dt : {DType::f8e4m3, DType::f8e5m2}) {
    const int K = 77, M = 29, N = 45;  // edges of every panel width (12 / 6 rows, 32 / 16 columns)
    const auto S = fp8_values(static_cast<std::size_t>(K) * 2 * M, dt, 41);
    const auto Mv = fp8_values(static_cast<std::size_t>(K) * 2 * N, dt, 42);
    const auto want = bits_of(reference(S, Mv, K, M, N, DoubleRowOrder::sequential));
    for (const MatmulIsa isa : {MatmulIsa::portable, MatmulIsa::avx2, MatmulIsa::avx512}) {
      if (!matmul_isa_available(isa)) continue;
      CoreConfig cfg;
      cfg.generation = Generation::trn2;
      cfg.double_row_order = DoubleRowOrder::sequential;
      cfg.matmul_isa = isa;
      NeuronCore nc(cfg);
      EXPECT_EQ(read_bits(double_row_product(nc, dt, K, M, N, S, Mv).out), want) << dtype_name(dt) << " isa " << static_cast<int>(isa);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, DoubleRow,
    ::testing::Values(Case{DType::f8e4m3, 128, 128, 512, DoubleRowOrder::sequential},
                      Case{DType::f8e4m3, 128, 128, 512, DoubleRowOrder::pair_sum},
                      Case{DType::f8e5m2, 37, 5, 300, DoubleRowOrder::sequential},
                      Case{DType::f8e5m2, 1, 1, 1, DoubleRowOrder::pair_sum}),
    [](const auto& info) {
      return std::string(dtype_name(info.param.dtype)) + "_K" + std::to_string(info.param.K) + "_M" +
             std::to_string(info.param.M) + "_N" + std::to_string(info.param.N) +
             (info.param.order == DoubleRowOrder::sequential ? "_sequential" : "_pair_sum");
    });

TEST(DoubleRow, TheTwoOrdersAreDistinguishable) {
  // Guards the test above: with these inputs the orders really give different bits somewhere.
  const int K = 128, M = 64, N = 64;
  const auto S = fp8_values(static_cast<std::size_t>(K) * 2 * M, DType::f8e4m3, 31);
  const auto Mv = fp8_values(static_cast<std::size_t>(K) * 2 * N, DType::f8e4m3, 32);
  EXPECT_NE(bits_of(reference(S, Mv, K, M, N, DoubleRowOrder::sequential)),
            bits_of(reference(S, Mv, K, M, N, DoubleRowOrder::pair_sum)));
}

TEST(DoubleRow, CostsWhatA128RowMatmulCostsAndCountsTwiceTheFlops) {
  CoreConfig cfg;
  cfg.generation = Generation::trn2;
  NeuronCore nc(cfg);
  const Tile st2 = nc.sbuf().alloc(DType::f8e4m3, 128, {2, 128}), mv2 = nc.sbuf().alloc(DType::f8e4m3, 128, {2, 512});
  const Tile st = nc.sbuf().alloc(DType::bf16, 128, {128}), mv = nc.sbuf().alloc(DType::bf16, 128, {512});
  const Tile out = nc.psum().alloc(DType::f32, 128, {512});
  nc.memset(st2, 0.0f);
  nc.memset(mv2, 0.0f);
  nc.memset(st, 0.0f);
  nc.memset(mv, 0.0f);
  const std::size_t first = nc.trace().instructions.size();
  nc.nc_matmul(out, st2, mv2, false, MatmulPerfMode::double_row);
  nc.nc_matmul(out, st, mv, false);
  const Instruction& dr = nc.trace().instructions[first];
  const Instruction& single = nc.trace().instructions[first + 1];
  const HardwareSpec& hw = hardware_spec(Generation::trn2);
  EXPECT_TRUE(dr.double_row);
  EXPECT_EQ(instruction_cycles(dr, hw), instruction_cycles(single, hw));
  EXPECT_EQ(instruction_flops(dr), 2.0 * 256 * 128 * 512);
  EXPECT_EQ(instruction_flops(single), 2.0 * 128 * 128 * 512);
}

TEST(DoubleRow, RulesNameTheOperandAndTheLimit) {
  {  // NeuronCore-v2 has no double_row
    NeuronCore nc;
    const Tile st = nc.sbuf().alloc(DType::f8e4m3, 128, {2, 128}), mv = nc.sbuf().alloc(DType::f8e4m3, 128, {2, 64});
    const Tile out = nc.psum().alloc(DType::f32, 128, {64});
    EXPECT_THROW(nc.nc_matmul(out, st, mv, false, MatmulPerfMode::double_row), NotSupportedError);
  }
  CoreConfig cfg;
  cfg.generation = Generation::trn3;
  NeuronCore nc(cfg);
  const Tile out = nc.psum().alloc(DType::f32, 128, {64});
  {  // fp8 only
    const Tile st = nc.sbuf().alloc(DType::bf16, 128, {2, 128}), mv = nc.sbuf().alloc(DType::bf16, 128, {2, 64});
    try {
      nc.nc_matmul(out, st, mv, false, MatmulPerfMode::double_row);
      FAIL() << "bf16 double_row accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("stationary"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("fp8"), std::string::npos) << e.what();
    }
  }
  {  // the pair must be the first free dimension, of size 2
    const Tile st = nc.sbuf().alloc(DType::f8e4m3, 128, {256}), mv = nc.sbuf().alloc(DType::f8e4m3, 128, {2, 64});
    EXPECT_THROW(nc.nc_matmul(out, st, mv, false, MatmulPerfMode::double_row), UsageError);
  }
  {  // moving free size per row still <= 512
    const Tile st = nc.sbuf().alloc(DType::f8e4m3, 128, {2, 128}), mv = nc.sbuf().alloc(DType::f8e4m3, 128, {2, 513});
    EXPECT_THROW(nc.nc_matmul(out, st, mv, false, MatmulPerfMode::double_row), LimitError);
  }
}

}  // namespace
