// nc_matmul and nc_transpose: the bit-level accumulation contract, every host ISA path, both
// numerics profiles, the accumulate rules and every limit's error.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "nki_matmul_tutorial.hpp"
#include "test_util.hpp"
#include "trn/core/core.hpp"

using namespace trn;
using trntest::random_values;
using trntest::read;
using trntest::read_bits;
using trntest::upload;

namespace {

// Reference of the contract, written independently of the kernels: per output element, start
// from +0 and add the K products in increasing k with one fp32 rounding per step. For fp32
// inputs the step is a fused multiply-add (std::fma in double-checked form below).
std::vector<float> contract_reference(const std::vector<float>& S, const std::vector<float>& Mv, int K, int M, int N,
                                      bool fused) {
  std::vector<float> C(static_cast<std::size_t>(M) * N);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float s = 0.0f;
      for (int k = 0; k < K; ++k) {
        const float a = S[static_cast<std::size_t>(k) * M + m], b = Mv[static_cast<std::size_t>(k) * N + n];
        if (fused) {
          // fma(a, b, s) computed exactly in long double then rounded once to float.
          s = static_cast<float>(std::fma(static_cast<long double>(a), static_cast<long double>(b),
                                          static_cast<long double>(s)));
        } else {
          const float p = a * b;  // exact for bf16/fp16/fp8 inputs
          s = s + p;
        }
      }
      C[static_cast<std::size_t>(m) * N + n] = s;
    }
  return C;
}

struct MatmulCase {
  DType dtype;
  int K, M, N;
};

class MatmulContract : public ::testing::TestWithParam<MatmulCase> {};

TEST_P(MatmulContract, BitsEqualSequentialFp32SumOnEveryIsa) {
  const auto [dt, K, M, N] = GetParam();
  const auto S = random_values(static_cast<std::size_t>(K) * M, dt, 11);
  const auto Mv = random_values(static_cast<std::size_t>(K) * N, dt, 12);
  const bool fused = dt == DType::f32;
  const auto ref = contract_reference(S, Mv, K, M, N, fused);
  std::vector<std::uint32_t> ref_bits(ref.size());
  std::memcpy(ref_bits.data(), ref.data(), ref.size() * 4);
  int paths = 0;
  for (MatmulIsa isa : {MatmulIsa::portable, MatmulIsa::avx2, MatmulIsa::avx512}) {
    if (!matmul_isa_available(isa)) continue;
    ++paths;
    CoreConfig cfg;
    cfg.matmul_isa = isa;
    NeuronCore nc(cfg);
    const Tile st = nc.sbuf().alloc(dt, K, {M}, "stationary");
    const Tile mv = nc.sbuf().alloc(dt, K, {N}, "moving");
    const Tile out = nc.psum().alloc(DType::f32, M, {N}, "out");
    upload(nc, st, S);
    upload(nc, mv, Mv);
    nc.nc_matmul(out, st, mv, false);
    EXPECT_EQ(read_bits(out), ref_bits) << "isa " << matmul_isa_name(isa) << " dtype " << dtype_name(dt);
  }
  EXPECT_GE(paths, 1);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, MatmulContract,
    ::testing::Values(MatmulCase{DType::bf16, 128, 128, 512}, MatmulCase{DType::bf16, 37, 5, 300},
                      MatmulCase{DType::bf16, 1, 1, 1}, MatmulCase{DType::f16, 128, 77, 129},
                      MatmulCase{DType::f8e4m3, 64, 128, 64}, MatmulCase{DType::f8e5m2, 128, 13, 33},
                      MatmulCase{DType::tf32, 100, 128, 200}, MatmulCase{DType::f32, 128, 128, 512},
                      MatmulCase{DType::f32, 3, 127, 511}),
    [](const auto& info) {
      return std::string(dtype_name(info.param.dtype)) + "_K" + std::to_string(info.param.K) + "_M" +
             std::to_string(info.param.M) + "_N" + std::to_string(info.param.N);
    });

// Narrow fp32 moving operands (N <= 8: the trsv kernel's row broadcasts) take an in-place kernel
// with lanes over m on the SIMD ISAs (matmul_kernels.hpp, matmul_narrow); the portable ISA keeps the
// general path. Every ISA must give the same bits, with and without accumulation, on operands that
// hold signed zeros, infinities, NaNs, subnormals and one-hot selector rows (0 x Inf -> NaN, -0 sums).
TEST(Matmul, NarrowMovingOperandsGiveTheSameBitsOnEveryIsa) {
  struct Shape {
    int K, M, N;
  };
  for (const Shape sh : {Shape{50, 128, 1}, Shape{128, 128, 8}, Shape{3, 17, 5}, Shape{1, 1, 1}, Shape{16, 33, 2},
                         Shape{100, 65, 9}}) {
    const auto [K, M, N] = sh;
    auto S = random_values(static_cast<std::size_t>(K) * M, DType::f32, 21);
    auto Mv = random_values(static_cast<std::size_t>(K) * N, DType::f32, 22);
    const float specials[] = {0.0f, -0.0f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                              std::numeric_limits<float>::quiet_NaN(), 1e-40f, -1e-42f, 1.0f};
    for (std::size_t i = 0; i < S.size(); i += 7) S[i] = specials[(i / 7) % 8];
    for (std::size_t i = 0; i < Mv.size(); i += 5) Mv[i] = specials[(i / 5 + 3) % 8];
    if (K > 2) {  // a one-hot selector column: row k of the moving operand onto every output row
      for (int m = 0; m < M; ++m)
        for (int k = 0; k < K; ++k) S[static_cast<std::size_t>(k) * M + m] = k == 2 ? 1.0f : 0.0f;
    }
    for (const bool accumulate : {false, true}) {
      std::vector<std::uint32_t> first;
      for (MatmulIsa isa : {MatmulIsa::portable, MatmulIsa::avx2, MatmulIsa::avx512}) {
        if (!matmul_isa_available(isa)) continue;
        CoreConfig cfg;
        cfg.matmul_isa = isa;
        NeuronCore nc(cfg);
        const Tile st = nc.sbuf().alloc(DType::f32, K, {M}, "stationary");
        const Tile mv = nc.sbuf().alloc(DType::f32, K, {N}, "moving");
        const Tile out = nc.psum().alloc(DType::f32, M, {N}, "out");
        upload(nc, st, S);
        upload(nc, mv, Mv);
        if (accumulate) nc.nc_matmul(out, st, mv, false);  // the sum, then the sum added onto it
        nc.nc_matmul(out, st, mv, accumulate);
        const auto bits = read_bits(out);
        if (first.empty()) {
          first = bits;
          if (!accumulate) {  // the contract's value where no NaN is involved
            const auto ref = contract_reference(S, Mv, K, M, N, true);
            for (std::size_t i = 0; i < ref.size(); ++i)
              if (!std::isnan(ref[i])) {
                std::uint32_t rb;
                std::memcpy(&rb, &ref[i], 4);
                ASSERT_EQ(bits[i], rb) << "K" << K << " M" << M << " N" << N << " element " << i;
              }
          }
        } else {
          EXPECT_EQ(bits, first) << "isa " << matmul_isa_name(isa) << " K" << K << " M" << M << " N" << N
                                 << " accumulate " << accumulate;
        }
      }
    }
  }
}

TEST(Matmul, AccumulateAddsTheTileSumWithOneRounding) {
  NeuronCore nc;
  const int K = 16, M = 8, N = 40;
  const auto S = random_values(K * M, DType::bf16, 1), Mv = random_values(K * N, DType::bf16, 2);
  const Tile st = nc.sbuf().alloc(DType::bf16, K, {M}), mv = nc.sbuf().alloc(DType::bf16, K, {N});
  const Tile out = nc.psum().alloc(DType::f32, M, {N});
  upload(nc, st, S);
  upload(nc, mv, Mv);
  nc.nc_matmul(out, st, mv, false);
  const auto first = read(out);
  nc.nc_matmul(out, st, mv, true);
  const auto second = read(out);
  const auto tile_sum = contract_reference(S, Mv, K, M, N, false);
  for (std::size_t i = 0; i < second.size(); ++i) {
    EXPECT_EQ(first[i], tile_sum[i]);
    EXPECT_EQ(second[i], tile_sum[i] + tile_sum[i]);  // psum + S, one fp32 rounding
  }
}

// The host keeps fp32 conversions of recent matmul operands (NeuronCore::converted_operand). They
// must never outlive the SBUF bytes they came from: every path that changes those bytes, however
// small the overlap, must be seen by the next matmul, for both ISA layouts.
TEST(Matmul, OperandConversionsNeverOutliveTheirSbufBytes) {
  for (MatmulIsa isa : {MatmulIsa::portable, MatmulIsa::avx512}) {
    if (!matmul_isa_available(isa)) continue;
    CoreConfig cfg;
    cfg.matmul_isa = isa;
    NeuronCore nc(cfg);
    const int K = 40, M = 30, N = 70;
    auto S = random_values(K * M, DType::bf16, 21), Mv = random_values(K * N, DType::bf16, 22);
    const Tile st = nc.sbuf().alloc(DType::bf16, K, {M}, "stationary");
    const Tile mv = nc.sbuf().alloc(DType::bf16, K, {N}, "moving");
    const Tile out = nc.psum().alloc(DType::f32, M, {N});
    upload(nc, st, S);
    upload(nc, mv, Mv);
    auto check = [&](const char* what) {
      nc.nc_matmul(out, st, mv, false);
      EXPECT_EQ(read(out), contract_reference(S, Mv, K, M, N, false)) << matmul_isa_name(isa) << ": " << what;
    };
    check("first use");
    check("memoised");
    // One element of one partition rewritten by a DMA.
    HbmTensor one(DType::f32, {1, 1});
    one.as<float>()[0] = 3.0f;
    nc.dma_copy(st.rows(17, 1).cols(29, 1), one.tile(0, 1, 0, 1));
    S[17 * M + 29] = 3.0f;
    check("after a one-element DMA into the stationary tile");
    // A VectorE op over a few partitions of the moving tile.
    nc.tensor_scalar(mv.rows(32, 8).cols(60, 3), mv.rows(32, 8).cols(60, 3), AluOp::multiply, -2.0f);
    for (int k = 32; k < 40; ++k)
      for (int n = 60; n < 63; ++n) Mv[static_cast<std::size_t>(k) * N + n] *= -2.0f;
    check("after a VectorE write into the moving tile");
    // A narrower view at the same address, then the full view again.
    const Tile narrow = st.cols(0, 10);
    const Tile out_narrow = nc.psum().alloc(DType::f32, 10, {N});
    nc.nc_matmul(out_narrow, narrow, mv, false);
    std::vector<float> Sn(static_cast<std::size_t>(K) * 10);
    for (int k = 0; k < K; ++k)
      for (int m = 0; m < 10; ++m) Sn[static_cast<std::size_t>(k) * 10 + m] = S[static_cast<std::size_t>(k) * M + m];
    EXPECT_EQ(read(out_narrow), contract_reference(Sn, Mv, K, 10, N, false)) << matmul_isa_name(isa);
    check("full view after a narrower view at the same address");
  }
}

// Allocation poisons the fresh bytes (NaN in every float format) without an instruction: a tile
// freed and re-allocated at the same address and read before it is written must read the poison,
// never a conversion remembered from the tile that lived there before.
TEST(Matmul, ReallocatedTileReadsPoisonNotAStaleConversion) {
  for (MatmulIsa isa : {MatmulIsa::portable, MatmulIsa::avx512}) {
    if (!matmul_isa_available(isa)) continue;
    CoreConfig cfg;
    cfg.matmul_isa = isa;
    NeuronCore nc(cfg);
    const int K = 16, M = 8, N = 24;
    auto S = random_values(K * M, DType::bf16, 31), Mv = random_values(K * N, DType::bf16, 32);
    const Tile mv = nc.sbuf().alloc(DType::bf16, K, {N}, "moving");
    const Tile out = nc.psum().alloc(DType::f32, M, {N});
    upload(nc, mv, Mv);
    {
      const Tile st = nc.sbuf().alloc(DType::bf16, K, {M}, "stationary");
      upload(nc, st, S);
      nc.nc_matmul(out, st, mv, false);  // remembers the conversion of st
      ASSERT_EQ(read(out), contract_reference(S, Mv, K, M, N, false));
      nc.sbuf().free(st);
    }
    const Tile again = nc.sbuf().alloc(DType::bf16, K, {M}, "stationary again");
    nc.nc_matmul(out, again, mv, false);
    for (float v : read(out)) ASSERT_TRUE(std::isnan(v)) << matmul_isa_name(isa) << ": read " << v;
  }
}

// More distinct stationary tiles than the conversion cache holds, used twice in a cycle: every
// result stays exact whatever the cache evicts.
TEST(Matmul, OperandCacheEvictionKeepsResultsExact) {
  NeuronCore nc;
  const int K = 4, M = 3, N = 16, tiles = 600;
  const Tile mv = nc.sbuf().alloc(DType::bf16, K, {N}, "moving");
  const auto Mv = random_values(K * N, DType::bf16, 31);
  upload(nc, mv, Mv);
  const Tile stat = nc.sbuf().alloc(DType::bf16, K, {tiles, M}, "stationaries");
  std::vector<std::vector<float>> S;
  for (int t = 0; t < tiles; ++t) {
    S.push_back(random_values(K * M, DType::bf16, 100 + t));
    upload(nc, stat.slice(0, t, 1).reshape({M}), S.back());
  }
  const Tile out = nc.psum().alloc(DType::f32, M, {N});
  for (int round = 0; round < 2; ++round)
    for (int t = 0; t < tiles; t += (round == 0 ? 1 : 7)) {
      nc.nc_matmul(out, stat.slice(0, t, 1).reshape({M}), mv, false);
      ASSERT_EQ(read(out), contract_reference(S[static_cast<std::size_t>(t)], Mv, K, M, N, false))
          << "round " << round << " tile " << t;
    }
}

TEST(Matmul, SubnormalProductsAreKept) {
  NeuronCore nc;
  // 2^-100 * 2^-40 = 2^-140: an fp32 subnormal. With FTZ it would be 0.
  const Tile st = nc.sbuf().alloc(DType::bf16, 2, {1}), mv = nc.sbuf().alloc(DType::bf16, 2, {1});
  const Tile out = nc.psum().alloc(DType::f32, 1, {1});
  upload(nc, st, {std::ldexp(1.0f, -100), std::ldexp(1.0f, -100)});
  upload(nc, mv, {std::ldexp(1.0f, -40), std::ldexp(1.0f, -41)});
  nc.nc_matmul(out, st, mv, false);
  EXPECT_EQ(read(out)[0], std::ldexp(1.0f, -140) + std::ldexp(1.0f, -141));
  EXPECT_GT(read(out)[0], 0.0f);
}

TEST(Matmul, Trn1MeasuredRoundsBf16ProductsBeforeAccumulation) {
  const int K = 128, M = 4, N = 64;
  const auto S = random_values(K * M, DType::bf16, 3), Mv = random_values(K * N, DType::bf16, 4);
  CoreConfig cfg;
  cfg.numerics = Numerics::trn1_measured;
  NeuronCore nc(cfg);
  const Tile st = nc.sbuf().alloc(DType::bf16, K, {M}), mv = nc.sbuf().alloc(DType::bf16, K, {N});
  const Tile out = nc.psum().alloc(DType::f32, M, {N});
  upload(nc, st, S);
  upload(nc, mv, Mv);
  nc.nc_matmul(out, st, mv, false);
  const auto got = read(out);
  const auto ideal = contract_reference(S, Mv, K, M, N, false);
  int differ = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float s = 0.0f;
      for (int k = 0; k < K; ++k) {
        // independent bf16 RNE of the exact product via Eigen-free bit arithmetic
        const float p = S[k * M + m] * Mv[k * N + n];
        std::uint32_t u;
        std::memcpy(&u, &p, 4);
        u = (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u;
        float pr;
        std::memcpy(&pr, &u, 4);
        s = s + pr;
      }
      EXPECT_EQ(got[m * N + n], s);
      differ += got[m * N + n] != ideal[m * N + n];
    }
  EXPECT_GT(differ, M * N / 2) << "product rounding should change most sums of random bf16 data";
}

TEST(Matmul, SplitBf16PairRecoversFp32OnlyWithExactProducts) {
  // x = hi + lo (bf16 parts). With exact products, hi*y + lo*y ~ x*y to ~2^-16; when products are
  // rounded to bf16 (trn1_measured) the lo term is drowned and the split buys nothing.
  const int K = 128, N = 32;
  auto X = random_values(K, DType::f32, 5);
  const auto Y = random_values(K * N, DType::bf16, 6);
  std::vector<float> hi(K), lo(K);
  for (int k = 0; k < K; ++k) {
    hi[k] = bf16_to_f32(f32_to_bf16_rne(X[k]));
    lo[k] = bf16_to_f32(f32_to_bf16_rne(X[k] - hi[k]));
  }
  auto split_error = [&](Numerics prof) {
    CoreConfig cfg;
    cfg.numerics = prof;
    NeuronCore nc(cfg);
    const Tile sh = nc.sbuf().alloc(DType::bf16, K, {1}), sl = nc.sbuf().alloc(DType::bf16, K, {1});
    const Tile mv = nc.sbuf().alloc(DType::bf16, K, {N});
    const Tile out = nc.psum().alloc(DType::f32, 1, {N});
    upload(nc, sh, hi);
    upload(nc, sl, lo);
    upload(nc, mv, Y);
    nc.nc_matmul(out, sh, mv, false);
    nc.nc_matmul(out, sl, mv, true);
    const auto got = read(out);
    double num = 0, den = 0;
    for (int n = 0; n < N; ++n) {
      double exact = 0;
      for (int k = 0; k < K; ++k) exact += double(X[k]) * Y[k * N + n];
      num += (got[n] - exact) * (got[n] - exact);
      den += exact * exact;
    }
    return std::sqrt(num / den);
  };
  const double ideal = split_error(Numerics::ideal), measured = split_error(Numerics::trn1_measured);
  EXPECT_LT(ideal, 2e-5);
  EXPECT_GT(measured, 1e-4);
}

TEST(Matmul, LimitsNameInstructionOperandAndLimit) {
  NeuronCore nc;  // trn1
  const Tile st = nc.sbuf().alloc(DType::bf16, 128, {128}, "st");
  const Tile mv = nc.sbuf().alloc(DType::bf16, 128, {1024}, "mv");
  const Tile out = nc.psum().alloc(DType::f32, 128, {512}, "out");
  const Tile out2 = nc.psum().alloc(DType::f32, 128, {1024}, "out2");
  auto expect_msg = [](auto&& fn, const std::string& needle) {
    try {
      fn();
      ADD_FAILURE() << "expected an error containing: " << needle;
    } catch (const trn::Error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("nc_matmul"), std::string::npos) << e.what();
    }
  };
  expect_msg([&] { nc.nc_matmul(out2.cols(0, 600), st, mv.cols(0, 600), false); }, "'moving': free size 600");
  expect_msg([&] { nc.nc_matmul(out2.cols(0, 600), st, mv.cols(0, 600), false); }, "gemm_moving_fmax 512 (trn1)");
  const Tile big = nc.sbuf().alloc(DType::bf16, 128, {129}, "big");
  expect_msg([&] { nc.nc_matmul(out.rows(0, 128).cols(0, 10), big, mv.cols(0, 10), false); }, "gemm_stationary_fmax 128");
  expect_msg([&] { nc.nc_matmul(out, st, mv.rows(0, 64).cols(0, 512), false); }, "'moving': partitions 64");
  expect_msg([&] { nc.nc_matmul(st, st, mv.cols(0, 128), false); }, "'dst': cannot be in SBUF");
  const Tile pst = nc.psum().alloc(DType::f32, 128, {128}, "pst");
  expect_msg([&] { nc.nc_matmul(out, pst, mv.cols(0, 512), false); }, "'stationary': cannot be in PSUM");
  const Tile f32mv = nc.sbuf().alloc(DType::f32, 128, {512}, "f32mv");
  expect_msg([&] { nc.nc_matmul(out, st, f32mv, false); }, "tfloat32/float32 the other must be too");
  // OCP e4m3fn cannot even be allocated on trn1; a bitcast view of it is rejected by the matmul.
  EXPECT_THROW(nc.sbuf().alloc(DType::f8e4m3fn, 128, {128}, "e4"), NotSupportedError);
  const Tile e4 = nc.sbuf().alloc(DType::u8, 128, {128}, "e4").bitcast(DType::f8e4m3fn);
  expect_msg([&] { nc.nc_matmul(out.cols(0, 128), e4, e4, false); }, "not supported on trn1");
  // dst straddling two PSUM banks
  expect_msg([&] { nc.nc_matmul(out2.cols(256, 512), st, mv.cols(0, 512), false); }, "PSUM bank size 2048");
  // partition start alignment: a 64-partition operand must start at 0 or 64
  const Tile st96 = nc.sbuf().alloc(DType::bf16, 128, {64}, "st96");
  expect_msg([&] { nc.nc_matmul(out.rows(32, 64).cols(0, 8), st96.rows(0, 64), mv.rows(0, 64).cols(0, 8), false); },
             "partition start 32");
}

TEST(Matmul, NothingWrittenOnError) {
  NeuronCore nc;
  const Tile st = nc.sbuf().alloc(DType::bf16, 128, {128});
  const Tile mv = nc.sbuf().alloc(DType::f32, 128, {512});
  const Tile out = nc.psum().alloc(DType::f32, 128, {512});
  const auto before = read_bits(out);
  EXPECT_THROW(nc.nc_matmul(out, st, mv, false), trn::UsageError);
  EXPECT_EQ(read_bits(out), before);
  EXPECT_EQ(nc.instruction_count(), 0u);
}

TEST(Matmul, Fp8E4m3fnRunsOnTrn3) {
  CoreConfig cfg;
  cfg.generation = Generation::trn3;
  NeuronCore nc(cfg);
  const auto S = random_values(32 * 8, DType::f8e4m3fn, 7), Mv = random_values(32 * 1024, DType::f8e4m3fn, 8);
  const Tile st = nc.sbuf().alloc(DType::f8e4m3fn, 32, {8}), mv = nc.sbuf().alloc(DType::f8e4m3fn, 32, {1024});
  const Tile out = nc.psum().alloc(DType::f32, 8, {1024});  // trn3: moving up to 4096 across banks
  upload(nc, st, S);
  upload(nc, mv, Mv);
  nc.nc_matmul(out, st, mv, false);
  EXPECT_EQ(read(out), contract_reference(S, Mv, 32, 8, 1024, false));
}

TEST(Matmul, StrictModeRejectsAccumulateOntoUninitialisedPsum) {
  CoreConfig cfg;
  cfg.strict = true;
  NeuronCore nc(cfg);
  const Tile st = nc.sbuf().alloc(DType::bf16, 8, {8}), mv = nc.sbuf().alloc(DType::bf16, 8, {8});
  upload(nc, st, std::vector<float>(64, 1.0f));
  upload(nc, mv, std::vector<float>(64, 1.0f));
  const Tile out = nc.psum().alloc(DType::f32, 8, {8});
  EXPECT_THROW(nc.nc_matmul(out, st, mv, true), trn::UsageError);
  nc.nc_matmul(out, st, mv, false);
  EXPECT_NO_THROW(nc.nc_matmul(out, st, mv, true));
  EXPECT_EQ(read(out)[0], 16.0f);
  // A VectorE write to that PSUM region makes accumulate=true undefined again (v2/v3).
  nc.memset(out, 0.0f);
  EXPECT_THROW(nc.nc_matmul(out, st, mv, true), trn::UsageError);
  // Without strict mode the fresh PSUM is NaN-poisoned, so accumulate=true on it yields NaN.
  NeuronCore lax;
  const Tile st2 = lax.sbuf().alloc(DType::bf16, 8, {8}), mv2 = lax.sbuf().alloc(DType::bf16, 8, {8});
  upload(lax, st2, std::vector<float>(64, 1.0f));
  upload(lax, mv2, std::vector<float>(64, 1.0f));
  const Tile out2 = lax.psum().alloc(DType::f32, 8, {8});
  lax.nc_matmul(out2, st2, mv2, true);
  EXPECT_TRUE(std::isnan(read(out2)[0]));
}

TEST(Transpose, TensorEngineOnTrn1SpreadsNanAlongTheRowAndLosesNegativeZero) {
  NeuronCore nc;  // trn1: transpose through the multiplier
  const int P = 4, F = 3;
  std::vector<float> src(P * F);
  for (int i = 0; i < P * F; ++i) src[i] = static_cast<float>(i + 1);
  src[2 * F + 1] = std::numeric_limits<float>::quiet_NaN();  // src[2][1]
  src[0 * F + 2] = -0.0f;                                    // src[0][2]
  const Tile s = nc.sbuf().alloc(DType::bf16, P, {F}), d = nc.psum().alloc(DType::f32, F, {P});
  upload(nc, s, src);
  nc.nc_transpose(d, s, Engine::tensor);
  const auto out = read(d);
  for (int p = 0; p < P; ++p) {
    EXPECT_EQ(out[0 * P + p], src[p * F + 0]);
    EXPECT_TRUE(std::isnan(out[1 * P + p])) << "row 1 (src column 1 holds a NaN) must be NaN at " << p;
  }
  EXPECT_EQ(read_bits(d)[2 * P + 0], 0u) << "-0 becomes +0 through the fp32 sum";
}

TEST(Transpose, TensorEngineOnTrn2IsBitAccurate) {
  CoreConfig cfg;
  cfg.generation = Generation::trn2;
  NeuronCore nc(cfg);
  const int P = 128, F = 96;
  auto src = random_values(P * F, DType::bf16, 9);
  src[5] = std::numeric_limits<float>::infinity();
  src[7] = -0.0f;
  const Tile s = nc.sbuf().alloc(DType::bf16, P, {F}), d = nc.psum().alloc(DType::bf16, F, {P});
  upload(nc, s, src);
  nc.nc_transpose(d, s, Engine::tensor);
  const auto sb = read_bits(s), db = read_bits(d);
  for (int p = 0; p < P; ++p)
    for (int f = 0; f < F; ++f) ASSERT_EQ(db[f * P + p], sb[p * F + f]);
}

TEST(Transpose, VectorEngineBlockLimit) {
  NeuronCore nc;
  const Tile s = nc.sbuf().alloc(DType::f32, 32, {33}), d = nc.sbuf().alloc(DType::f32, 33, {32});
  try {
    nc.nc_transpose(d, s, Engine::vector);
    ADD_FAILURE();
  } catch (const LimitError& e) {
    EXPECT_EQ(e.value(), 33);
    EXPECT_EQ(e.limit(), 32);
  }
  const auto src = random_values(32 * 32, DType::f32, 10);
  const Tile s2 = nc.sbuf().alloc(DType::f32, 32, {32}), d2 = nc.sbuf().alloc(DType::f32, 32, {32});
  upload(nc, s2, src);
  nc.nc_transpose(d2, s2, Engine::vector);
  const auto out = read(d2);
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) EXPECT_EQ(out[j * 32 + i], src[i * 32 + j]);
}

TEST(Matmul, TraceRecordsShapesAndBytes) {
  NeuronCore nc;
  const Tile st = nc.sbuf().alloc(DType::bf16, 128, {96}), mv = nc.sbuf().alloc(DType::bf16, 128, {200});
  const Tile out = nc.psum().alloc(DType::f32, 96, {200});
  nc.nc_matmul(out, st, mv, false);
  ASSERT_EQ(nc.trace().instructions.size(), 1u);
  const Instruction& ins = nc.trace().instructions[0];
  EXPECT_EQ(ins.engine, Engine::tensor);
  EXPECT_EQ(ins.opcode, Opcode::nc_matmul);
  EXPECT_EQ(ins.partitions, 128);
  EXPECT_EQ(ins.matmul_m, 96);
  EXPECT_EQ(ins.free_elems, 200);
  EXPECT_EQ(ins.bytes_read, 128 * 96 * 2 + 128 * 200 * 2);
  EXPECT_EQ(ins.bytes_written, 96 * 200 * 4);
  EXPECT_EQ(ins.nregions, 3);
  EXPECT_EQ(nc.trace().per_engine[static_cast<int>(Engine::tensor)], 1);
}

}  // namespace

// The NKI tutorial kernels ported to the tile API (examples/nki_matmul_tutorial.cpp) compute
// lhsT^T @ rhs. bf16 inputs: every product is exact in fp32, so against a float64 loop
//  - tiled, hoisted, free-dimension blocking: the fp32 PSUM sum over K plus nothing else (fp32
//    result): |err| <= gamma_K(fp32) * sum |a||b|, gamma_K = K u / (1 - K u), u = 2^-24;
//  - fully optimized: each K block's fp32 PSUM sum is added into a bf16 result tile (the tutorial
//    accumulates in lhsT's dtype), one bf16 rounding per K block after the zero start:
//    |err| <= (gamma_K(fp32) + gamma_{NB}(bf16)) * sum |a||b|, NB = K / BLOCK_K, u = 2^-8.
TEST(NkiTutorialKernels, ComputeTheProductWithinTheirAccuracyBounds) {
  const std::int64_t M = 512, K = 512, N = 1024;
  const auto a = trntest::random_values(static_cast<std::size_t>(K * M), trn::DType::bf16, 71);
  const auto b = trntest::random_values(static_cast<std::size_t>(K * N), trn::DType::bf16, 72);
  trn::HbmTensor lhsT(trn::DType::bf16, {K, M}), rhs(trn::DType::bf16, {K, N});
  for (std::int64_t i = 0; i < K * M; ++i)
    trn::store_from_f32(trn::DType::bf16, lhsT.data() + 2 * i, a[static_cast<std::size_t>(i)],
                        trn::Rounding::nearest_even, 0);
  for (std::int64_t i = 0; i < K * N; ++i)
    trn::store_from_f32(trn::DType::bf16, rhs.data() + 2 * i, b[static_cast<std::size_t>(i)],
                        trn::Rounding::nearest_even, 0);
  std::vector<double> ref(static_cast<std::size_t>(M * N)), mag(ref.size());
  for (std::int64_t k = 0; k < K; ++k)
    for (std::int64_t m = 0; m < M; ++m) {
      const double x = a[static_cast<std::size_t>(k * M + m)];
      for (std::int64_t n = 0; n < N; ++n) {
        const double y = b[static_cast<std::size_t>(k * N + n)];
        ref[static_cast<std::size_t>(m * N + n)] += x * y;
        mag[static_cast<std::size_t>(m * N + n)] += std::fabs(x * y);
      }
    }
  auto gamma = [](double k, double u) { return k * u / (1 - k * u); };
  trn::examples::TutorialOptions opt;
  opt.tiles_in_block_m = 2;  // BLOCK_M 256, BLOCK_N 512, BLOCK_K 256: two K blocks
  opt.tiles_in_block_n = 1;
  opt.tiles_in_block_k = 2;
  for (const auto kernel : trn::examples::kTutorialKernels) {
    trn::NeuronCore nc;
    trn::HbmTensor C(trn::DType::f32, {M, N});
    trn::examples::run_tutorial_kernel(kernel, nc, lhsT, rhs, C, opt);
    const bool blocked_k = kernel == trn::examples::TutorialKernel::fully_optimized;
    const double nb = static_cast<double>(K) / (opt.tiles_in_block_k * 128);
    const double factor = gamma(K, 0x1p-24) + (blocked_k ? gamma(nb, 0x1p-8) : 0.0);
    double worst = 0;
    for (std::size_t i = 0; i < ref.size(); ++i)
      worst = std::max(worst, std::fabs(C.as<float>()[i] - ref[i]) / (factor * mag[i]));
    EXPECT_LE(worst, 1.0) << trn::examples::tutorial_kernel_name(kernel);
    EXPECT_GT(nc.trace().per_engine[static_cast<int>(trn::Engine::tensor)], 0);
  }
}

// ---- Zero-term skipping (CoreConfig::matmul_skip_zero_terms): exact, bit for bit -----------------
// The host kernels leave out rows whose terms are all exact signed zeros (a +-0 operand block
// against finite values) and recompute outputs that come out -0 (matmul_kernels.hpp). Skipped and
// dense runs must agree in every bit, including -0 against +0 and NaN payloads.
namespace {

// One nc_matmul with the skip switch on or off; psum_init (M x N) is poked into PSUM first when
// accumulating. moving_stride 2 makes the moving operand a non-contiguous view (memoised B panels).
std::vector<std::uint32_t> run_matmul(bool skip, MatmulIsa isa, Numerics numerics, DType dt, int K, int M, int N,
                                      const std::vector<float>& S, const std::vector<float>& Mv, bool accumulate,
                                      const std::vector<float>& psum_init, int moving_stride = 1) {
  CoreConfig cfg;
  cfg.matmul_isa = isa;
  cfg.numerics = numerics;
  cfg.matmul_skip_zero_terms = skip;
  NeuronCore nc(cfg);
  const Tile st = nc.sbuf().alloc(dt, K, {M});
  const Tile mv_full = nc.sbuf().alloc(dt, K, {N * moving_stride});
  const Tile mv = moving_stride == 1 ? mv_full : mv_full.slice(0, 0, N, moving_stride);
  const Tile out = nc.psum().alloc(DType::f32, M, {N});
  upload(nc, st, S);
  std::vector<float> wide(static_cast<std::size_t>(K) * N * moving_stride, 0.0f);
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < N; ++n) wide[(static_cast<std::size_t>(k) * N + n) * moving_stride] = Mv[static_cast<std::size_t>(k) * N + n];
  upload(nc, mv_full, wide);
  if (accumulate) trntest::poke(out, psum_init);
  nc.nc_matmul(out, st, mv, accumulate);
  return read_bits(out);
}

std::vector<MatmulIsa> available_isas() {
  std::vector<MatmulIsa> v;
  for (MatmulIsa isa : {MatmulIsa::portable, MatmulIsa::avx2, MatmulIsa::avx512})
    if (matmul_isa_available(isa)) v.push_back(isa);
  return v;
}

// Values of dtype dt: a quarter +-0, a quarter tiny (+-2^-100..2^-99: tiny x tiny underflows fp32 to
// a signed zero, so running sums pass through -0), the rest +-[0.5, 2). f16/fp8 flush the tiny ones.
float mixed_value(std::mt19937_64& g, DType dt, bool zero_or_tiny_only = false) {
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const float sign = u(g) < 0.5f ? -1.0f : 1.0f, r = u(g);
  float v;
  if (r < 0.25f || (zero_or_tiny_only && r < 0.6f)) v = sign * 0.0f;
  else if (r < 0.5f || zero_or_tiny_only) v = sign * std::ldexp(1.0f + u(g), -100);
  else v = sign * (0.5f + 1.5f * u(g));
  std::byte buf[4];
  store_from_f32(dt, buf, v, Rounding::nearest_even, 0);
  return load_as_f32(dt, buf);
}

float representable(DType dt, float v) {
  std::byte buf[4];
  store_from_f32(dt, buf, v, Rounding::nearest_even, 0);
  return load_as_f32(dt, buf);
}

// K x cols block-diagonal operand: entry (k, c) is in a block when k / bs == (c / bs) mod (K / bs);
// off-block entries are +0 or -0 at random.
std::vector<float> block_diagonal(std::mt19937_64& g, DType dt, int K, int cols, int bs) {
  std::vector<float> v(static_cast<std::size_t>(K) * cols);
  const int blocks = (K + bs - 1) / bs;
  for (int k = 0; k < K; ++k)
    for (int c = 0; c < cols; ++c) {
      const bool in_block = k / bs == (c / bs) % blocks;
      v[static_cast<std::size_t>(k) * cols + c] = in_block ? mixed_value(g, dt) : (g() & 1 ? -0.0f : 0.0f);
    }
  return v;
}

// K x cols data operand: mixed values, every 5th column zero-or-tiny only (so its sums are often
// +-0), and Inf/-Inf/NaN in a few rows (inside and outside the other operand's zero blocks).
std::vector<float> data_operand(std::mt19937_64& g, DType dt, int K, int cols) {
  std::vector<float> v(static_cast<std::size_t>(K) * cols);
  for (int k = 0; k < K; ++k)
    for (int c = 0; c < cols; ++c) v[static_cast<std::size_t>(k) * cols + c] = mixed_value(g, dt, c % 5 == 0);
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const int special[][2] = {{3, 1}, {K / 2 + 1, cols - 1}, {K - 2, cols / 2}, {K / 3, 2}};
  const float what[] = {inf, -inf, nan, inf};
  for (int i = 0; i < 4; ++i) v[static_cast<std::size_t>(special[i][0]) * cols + special[i][1]] = representable(dt, what[i]);
  return v;
}

}  // namespace

// Hand-made: the full sum is +0, the sum without the zero rows is -0 (an underflowed product makes
// the running sum -0; the skipped rows' +0 products make the full one +0 again). Both orientations
// (zero stationary rows: trnfft's DFT stacks; zero moving rows: its data-stationary first stage),
// overwrite and accumulate onto -0 / +0 PSUM, every ISA.
TEST(MatmulZeroSkip, NegativeZeroSumsAreRecomputed) {
  const int K = 64, W = 12, N = 20;
  const float tiny = std::ldexp(1.0f, -100);
  for (DType dt : {DType::f32, DType::bf16})
    for (bool zero_stationary : {true, false})
      for (MatmulIsa isa : available_isas())
        for (int acc = 0; acc < 3; ++acc) {  // overwrite, accumulate onto -0, onto +0
          // Z (K x W): row 0 = -tiny, rows 1..63 = +0 (rows 1..63 skippable). D (K x N): row 0 = tiny
          // (product -2^-200 -> -0), rows 1..31 = -1 (products -0 keep -0), rows 32..63 = +1
          // (products +0 turn the full sum into +0).
          std::vector<float> Z(static_cast<std::size_t>(K) * W, 0.0f), D(static_cast<std::size_t>(K) * N);
          for (int c = 0; c < W; ++c) Z[static_cast<std::size_t>(c)] = -tiny;
          for (int k = 0; k < K; ++k)
            for (int n = 0; n < N; ++n) D[static_cast<std::size_t>(k) * N + n] = k == 0 ? tiny : k < 32 ? -1.0f : 1.0f;
          const int M = zero_stationary ? W : N, NN = zero_stationary ? N : W;
          const auto& S = zero_stationary ? Z : D;
          const auto& Mv = zero_stationary ? D : Z;
          const std::vector<float> init(static_cast<std::size_t>(M) * NN, acc == 1 ? -0.0f : 0.0f);
          const auto dense = run_matmul(false, isa, Numerics::ideal, dt, K, M, NN, S, Mv, acc > 0, init);
          const auto skipped = run_matmul(true, isa, Numerics::ideal, dt, K, M, NN, S, Mv, acc > 0, init);
          ASSERT_EQ(dense, std::vector<std::uint32_t>(dense.size(), 0u)) << "the full sum is +0";
          EXPECT_EQ(skipped, dense) << matmul_isa_name(isa) << " " << dtype_name(dt) << " zero_stationary "
                                    << zero_stationary << " acc " << acc;
        }
}

// Hand-made: a zero operand row against Inf / NaN gives NaN (0 * Inf), so such rows are not skipped.
TEST(MatmulZeroSkip, NonFiniteValuesOppositeZeroRowsStillMakeNaN) {
  const int K = 64, W = 24, N = 40;
  const float inf = std::numeric_limits<float>::infinity();
  for (bool zero_stationary : {true, false})
    for (MatmulIsa isa : available_isas()) {
      std::vector<float> Z(static_cast<std::size_t>(K) * W, 0.0f), D(static_cast<std::size_t>(K) * N, 0.5f);
      for (int k = 0; k < 32; ++k)
        for (int c = 0; c < W; ++c) Z[static_cast<std::size_t>(k) * W + c] = 1.0f;  // rows 32..63 all zero
      D[40 * N + 3] = inf;
      D[50 * N + 7] = -inf;
      D[60 * N + 9] = std::numeric_limits<float>::quiet_NaN();
      const int M = zero_stationary ? W : N, NN = zero_stationary ? N : W;
      const auto& S = zero_stationary ? Z : D;
      const auto& Mv = zero_stationary ? D : Z;
      const auto dense = run_matmul(false, isa, Numerics::ideal, DType::f32, K, M, NN, S, Mv, false, {});
      const auto skipped = run_matmul(true, isa, Numerics::ideal, DType::f32, K, M, NN, S, Mv, false, {});
      int nans = 0;
      for (std::uint32_t b : dense) nans += (b & 0x7fffffffu) > 0x7f800000u;
      EXPECT_EQ(nans, 3 * W) << "three data lines against all-zero rows";
      EXPECT_EQ(skipped, dense) << matmul_isa_name(isa) << " zero_stationary " << zero_stationary;
    }
}

// Randomised: block-diagonal +-0 stacks as either operand, mixed data with Inf/NaN, every dtype,
// ISA, both numerics profiles (trn1_measured bf16: the product-rounded kernel), overwrite and
// accumulate onto PSUM holding -0/+0/values, contiguous and strided moving views, run as programs of
// a launch on 1 and 3 host threads.
TEST(MatmulZeroSkip, RandomBlockDiagonalBitsEqualDenseOnEveryPath) {
  struct Case {
    DType dt;
    MatmulIsa isa;
    Numerics numerics;
    bool zero_stationary, accumulate;
    int K, M, N, bs, moving_stride;
  };
  std::vector<Case> cases;
  const int shapes[][4] = {{128, 128, 300, 32}, {100, 77, 70, 16}, {128, 40, 128, 64}};
  for (DType dt : {DType::f32, DType::tf32, DType::bf16, DType::f16, DType::f8e4m3, DType::f8e5m2})
    for (MatmulIsa isa : available_isas())
      for (int s = 0; s < 3; ++s)
        for (bool zs : {true, false})
          cases.push_back({dt, isa, Numerics::ideal, zs, (s + zs) % 2 == 1, shapes[s][0], shapes[s][1], shapes[s][2],
                           shapes[s][3], s == 1 ? 2 : 1});
  for (bool zs : {true, false})
    for (bool acc : {false, true})
      cases.push_back({DType::bf16, MatmulIsa::automatic, Numerics::trn1_measured, zs, acc, 128, 128, 300, 32, 1});

  struct Result {
    std::vector<std::uint32_t> dense, skipped;
    int zeros = 0, nans = 0;
  };
  auto run_all = [&](int threads) {
    std::vector<Result> results(cases.size());
    LaunchConfig lc;
    lc.grid = {static_cast<int>(cases.size()), 1, 1};
    lc.host_threads = threads;
    launch(lc, [&](NeuronCore& core) {
      const auto i = static_cast<std::size_t>(core.program_id(0));
      const Case& c = cases[i];
      std::mt19937_64 g(1000 + i);
      const int zcols = c.zero_stationary ? c.M : c.N, dcols = c.zero_stationary ? c.N : c.M;
      const auto Z = block_diagonal(g, c.dt, c.K, zcols, c.bs);
      const auto D = data_operand(g, c.dt, c.K, dcols);
      std::vector<float> init(static_cast<std::size_t>(c.M) * c.N);
      for (float& v : init) v = g() % 3 == 0 ? -0.0f : g() % 2 == 0 ? 0.0f : mixed_value(g, DType::f32);
      const auto& S = c.zero_stationary ? Z : D;
      const auto& Mv = c.zero_stationary ? D : Z;
      Result& r = results[i];
      r.dense = run_matmul(false, c.isa, c.numerics, c.dt, c.K, c.M, c.N, S, Mv, c.accumulate, init, c.moving_stride);
      r.skipped = run_matmul(true, c.isa, c.numerics, c.dt, c.K, c.M, c.N, S, Mv, c.accumulate, init, c.moving_stride);
      for (std::uint32_t b : r.dense) {
        r.zeros += (b & 0x7fffffffu) == 0;
        r.nans += (b & 0x7fffffffu) > 0x7f800000u;
      }
    });
    return results;
  };
  const auto one = run_all(1), three = run_all(3);
  int zeros = 0, nans = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const std::string what = std::string(dtype_name(c.dt)) + " " + std::string(matmul_isa_name(c.isa)) + " " +
                             std::string(numerics_name(c.numerics)) + " zero_stationary " +
                             std::to_string(c.zero_stationary) + " accumulate " + std::to_string(c.accumulate) +
                             " K" + std::to_string(c.K) + " M" + std::to_string(c.M) + " N" + std::to_string(c.N);
    EXPECT_EQ(one[i].skipped, one[i].dense) << what;
    EXPECT_EQ(three[i].skipped, one[i].dense) << what << " (3 threads)";
    EXPECT_EQ(three[i].dense, one[i].dense) << what << " (3 threads)";
    zeros += one[i].zeros;
    nans += one[i].nans;
  }
  // The data reach the cases that need care: signed-zero results and NaN from 0 * Inf.
  EXPECT_GT(zeros, 1000);
  EXPECT_GT(nans, 100);
}
