// GpSimdE: iota (int32 wrap-around arithmetic, casts), affine_select (masks such as the causal /
// lower-triangular one), custom_op (user code, declared cycles in the trace), the SBUF-only rule,
// and GpSimdE's native integer arithmetic in both numerics profiles.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_util.hpp"
#include "trn/core/core.hpp"

using namespace trn;
using namespace trntest;

namespace {

using Pattern = std::vector<std::array<std::int64_t, 2>>;



// Reference affine value with 64-bit arithmetic reduced modulo 2^32 to int32.
std::int32_t affine_ref(const Pattern& pat, std::int64_t offset, std::int64_t cm, int p, std::int64_t flat) {
  std::int64_t v = offset + std::int64_t{p} * cm;
  for (int d = static_cast<int>(pat.size()) - 1; d >= 0; --d) {
    v += (flat % pat[d][1]) * pat[d][0];
    flat /= pat[d][1];
  }
  const auto u = static_cast<std::uint32_t>(static_cast<std::uint64_t>(v));
  return static_cast<std::int32_t>(u);
}

// ================================================================================================
// iota
// ================================================================================================

TEST(GpsimdIota, AffineValuesOverMultiDimPatterns) {
  NeuronCore nc;
  const Tile d = nc.sbuf().alloc(DType::i32, 128, {4, 16});
  const Pattern pat = {{100, 4}, {-3, 16}};
  nc.iota(d, pat, 7, 1000);
  const auto got = read_int(d);
  for (int p = 0; p < 128; ++p)
    for (int i = 0; i < 64; ++i) ASSERT_EQ(got[p * 64 + i], affine_ref(pat, 7, 1000, p, i)) << p << "," << i;
  EXPECT_EQ(got[1 * 64 + 17], 7 + 1000 + 100 - 3);  // p = 1, (1, 1)
  const Instruction& ins = nc.trace().instructions.back();
  EXPECT_EQ(ins.opcode, Opcode::iota);
  EXPECT_EQ(ins.engine, Engine::gpsimd);
  EXPECT_EQ(ins.inputs, 0);
  EXPECT_EQ(ins.free_elems, 64);
}

TEST(GpsimdIota, PartitionIndexIsRelativeToTheTile) {
  NeuronCore nc;
  const Tile d = nc.sbuf().alloc(DType::i32, 32, {2}, "d", 64);
  nc.iota(d, Pattern{{1, 2}}, 0, 10);
  EXPECT_EQ(read_int(d)[0], 0);
  EXPECT_EQ(read_int(d)[2 * 31 + 1], 311);
}

TEST(GpsimdIota, Int32WrapAroundAndCasts) {
  NeuronCore nc;
  const Tile i32 = nc.sbuf().alloc(DType::i32, 2, {4});
  const Tile f32 = nc.sbuf().alloc(DType::f32, 2, {4});
  const Tile u8 = nc.sbuf().alloc(DType::u8, 2, {4});
  const Tile bf = nc.sbuf().alloc(DType::bf16, 2, {4});
  const Pattern pat = {{1, 4}};
  // offset INT32_MAX: element 1 wraps to INT32_MIN; partition 1 adds 2^32 + 5 (wraps to +5).
  const std::int64_t cm = (std::int64_t{1} << 32) + 5;
  nc.iota(i32, pat, INT32_MAX, cm);
  EXPECT_EQ(read_int(i32), (std::vector<std::int64_t>{INT32_MAX, INT32_MIN, INT32_MIN + 1, INT32_MIN + 2,
                                                      INT32_MIN + 4, INT32_MIN + 5, INT32_MIN + 6, INT32_MIN + 7}));
  nc.iota(f32, pat, INT32_MAX, cm);
  EXPECT_EQ(read(f32)[0], 2147483648.0f);  // int32 -> fp32 by RNE
  EXPECT_EQ(read(f32)[1], -2147483648.0f);
  nc.iota(u8, Pattern{{100, 4}}, -100, 300);  // saturating integer cast
  EXPECT_EQ(read_int(u8), (std::vector<std::int64_t>{0, 0, 100, 200, 200, 255, 255, 255}));
  nc.iota(bf, Pattern{{1, 4}}, 257, 0);  // 257 -> bf16 256 (RNE), 258, 259 -> 260
  EXPECT_EQ(read(bf), (std::vector<float>{256, 258, 260, 260, 256, 258, 260, 260}));
}

TEST(GpsimdIota, ChecksPatternAndMemory) {
  NeuronCore nc;
  const Tile d = nc.sbuf().alloc(DType::i32, 8, {16}, "d");
  const Tile ps = nc.psum().alloc(DType::f32, 8, {16}, "ps");
  nc.iota(d, Pattern{{1, 16}}, 5, 0);
  const auto before = raw_bytes(d);
  expect_error<LimitError>([&] { nc.iota(d, Pattern{{1, 4}, {1, 5}}, 0, 0); }, {"iota", "'pattern'", "20", "16"});
  expect_error<LimitError>([&] { nc.iota(d, Pattern{{1, 2}, {1, 2}, {1, 2}, {1, 2}, {1, 1}}, 0, 0); }, {"iota", "'pattern'", "dimensions", "5", "4"});
  expect_error<LimitError>([&] { nc.iota(d, Pattern{}, 0, 0); }, {"iota", "'pattern'", "dimensions"});
  expect_error<LimitError>([&] { nc.iota(d, Pattern{{1, 16}, {1, 0}}, 0, 0); }, {"iota", "'pattern'", "num"});
  expect_error<UsageError>([&] { nc.iota(ps, Pattern{{1, 16}}, 0, 0); }, {"iota", "'dst'", "PSUM"});
  EXPECT_EQ(raw_bytes(d), before);
}

// ================================================================================================
// affine_select
// ================================================================================================

TEST(GpsimdAffineSelect, LowerTriangularMask) {
  NeuronCore nc;
  const int N = 128;
  const Tile ones = nc.sbuf().alloc(DType::f32, N, {N}, "ones");
  const Tile mask = nc.sbuf().alloc(DType::f32, N, {N}, "mask");
  nc.memset(ones, 1.0f, Engine::gpsimd);
  // value = p - i; keep where p - i >= 0 (row p keeps columns 0..p).
  nc.affine_select(mask, Pattern{{-1, N}}, 0, 1, AluOp::greater_equal, ones, 0.0f);
  const auto got = read(mask);
  for (int p = 0; p < N; ++p)
    for (int i = 0; i < N; ++i) ASSERT_EQ(got[p * N + i], i <= p ? 1.0f : 0.0f) << p << "," << i;
  EXPECT_EQ(nc.trace().instructions.back().opcode, Opcode::affine_select);
  EXPECT_EQ(nc.trace().instructions.back().inputs, 1);
}

TEST(GpsimdAffineSelect, CausalMaskWithMinusInfinityInBf16InPlace) {
  NeuronCore nc;
  const int P = 64, F = 96;
  const Tile scores = nc.sbuf().alloc(DType::bf16, P, {F});
  HbmTensor h(DType::f32, {P, F});
  for (int k = 0; k < P * F; ++k) h.as<float>()[k] = static_cast<float>(k % 17) - 8.0f;
  nc.dma_copy(scores, h.tile(0, P, 0, F));
  // Query block starting at row 32 of a longer sequence: keep key i <= 32 + p, i.e. 32 + p - i >= 0.
  nc.affine_select(scores, Pattern{{-1, F}}, 32, 1, AluOp::greater_equal, scores, -std::numeric_limits<float>::infinity());
  const auto got = read(scores);
  for (int p = 0; p < P; ++p)
    for (int i = 0; i < F; ++i) {
      const float orig = static_cast<float>((p * F + i) % 17) - 8.0f;
      if (i <= 32 + p)
        ASSERT_EQ(got[p * F + i], orig);
      else
        ASSERT_EQ(got[p * F + i], -std::numeric_limits<float>::infinity());
    }
}

TEST(GpsimdAffineSelect, EveryComparisonAndExactIntegers) {
  NeuronCore nc;
  const Tile t = nc.sbuf().alloc(DType::u32, 1, {5});
  const Tile d = nc.sbuf().alloc(DType::u32, 1, {5});
  for (int i = 0; i < 5; ++i) store_int(DType::u32, t.at(0, i), 0xFFFFFF01u + static_cast<std::uint32_t>(i));  // > 2^24
  const Pattern pat = {{1, 5}};  // value = i - 2
  struct Case {
    AluOp cmp;
    std::vector<bool> keep;
  };
  const Case cases[] = {{AluOp::equal, {0, 0, 1, 0, 0}},         {AluOp::not_equal, {1, 1, 0, 1, 1}},
                        {AluOp::greater, {0, 0, 0, 1, 1}},       {AluOp::greater_equal, {0, 0, 1, 1, 1}},
                        {AluOp::less, {1, 1, 0, 0, 0}},          {AluOp::less_equal, {1, 1, 1, 0, 0}}};
  for (const Case& c : cases) {
    nc.affine_select(d, pat, -2, 0, c.cmp, t, 7.6f);
    const auto got = read_int(d);
    for (int i = 0; i < 5; ++i)
      EXPECT_EQ(got[i], c.keep[i] ? 0xFFFFFF01LL + i : 8) << alu_op_name(c.cmp) << " " << i;  // on_false: RNE 7.6 -> 8
  }
}

// Row-constant patterns (every step 0 or num 1: a row selector's [[0, 128]] mask, the [[0, 1]]
// columns of a triangular solve) select whole rows: the value is offset + p * channel_multiplier in
// int32 wrap-around arithmetic. Every comparison, fp32 -> bf16 (on_false rounded), integers, wrap.
TEST(GpsimdAffineSelect, RowConstantPatternsSelectWholeRows) {
  NeuronCore nc;
  const int P = 40, F = 24;
  const Tile src = nc.sbuf().alloc(DType::f32, P, {F}, "on_true");
  const Tile dst = nc.sbuf().alloc(DType::bf16, P, {F}, "dst");
  const Tile isrc = nc.sbuf().alloc(DType::i32, P, {F}, "int on_true");
  const Tile idst = nc.sbuf().alloc(DType::i32, P, {F}, "int dst");
  HbmTensor h(DType::f32, {P, F});
  for (int k = 0; k < P * F; ++k) h.as<float>()[k] = 1.0f + static_cast<float>(k) / 7.0f;
  nc.dma_copy(src, h.tile(0, P, 0, F));
  for (int p = 0; p < P; ++p)
    for (int i = 0; i < F; ++i) store_int(DType::i32, isrc.at(p, i), -1000 * p - i);
  const auto ref = read(src);
  const Pattern patterns[] = {{{0, F}}, {{0, 4}, {5, 1}, {0, 6}}, {{7, 1}, {0, F}}};
  struct Affine {
    std::int64_t offset, multiplier;
  };
  // p - 17; 3 - 2p; 2^31 - 5 + p wraps past INT32_MAX to negative values at p = 5.
  const Affine affines[] = {{-17, 1}, {3, -2}, {(std::int64_t{1} << 31) - 5, 1}};
  const AluOp cmps[] = {AluOp::equal, AluOp::not_equal, AluOp::greater, AluOp::greater_equal, AluOp::less,
                        AluOp::less_equal};
  for (const Pattern& pat : patterns)
    for (const Affine& a : affines)
      for (AluOp cmp : cmps) {
        nc.affine_select(dst, pat, a.offset, a.multiplier, cmp, src, 7.6f);
        nc.affine_select(idst, pat, a.offset, a.multiplier, cmp, isrc, 7.6f);
        const auto got = read(dst);
        const auto igot = read_int(idst);
        for (int p = 0; p < P; ++p) {
          const auto v = static_cast<std::int32_t>(static_cast<std::uint32_t>(a.offset) +
                                                   static_cast<std::uint32_t>(p) * static_cast<std::uint32_t>(a.multiplier));
          const bool keep = cmp == AluOp::equal ? v == 0 : cmp == AluOp::not_equal ? v != 0 : cmp == AluOp::greater ? v > 0
                            : cmp == AluOp::greater_equal ? v >= 0 : cmp == AluOp::less ? v < 0 : v <= 0;
          for (int i = 0; i < F; ++i) {
            const float want = keep ? bf16_to_f32(f32_to_bf16_rne(ref[p * F + i])) : 7.59375f;
            ASSERT_EQ(got[p * F + i], want) << alu_op_name(cmp) << " p=" << p << " i=" << i << " offset=" << a.offset;
            ASSERT_EQ(igot[p * F + i], keep ? -1000 * p - i : 8) << alu_op_name(cmp) << " p=" << p << " i=" << i;
          }
        }
      }
}

TEST(GpsimdAffineSelect, Checks) {
  NeuronCore nc;
  const Tile t = nc.sbuf().alloc(DType::f32, 32, {8}, "t");
  const Tile d = nc.sbuf().alloc(DType::f32, 32, {8}, "d");
  const Tile d16 = nc.sbuf().alloc(DType::f32, 16, {8}, "d16");
  const Tile ps = nc.psum().alloc(DType::f32, 32, {8}, "ps");
  nc.memset(d, 3.0f);
  const auto before = raw_bytes(d);
  expect_error<UsageError>([&] { nc.affine_select(d, Pattern{{1, 8}}, 0, 1, AluOp::add, t, 0.0f); }, {"affine_select", "'cmp'", "add"});
  expect_error<UsageError>([&] { nc.affine_select(d, Pattern{{1, 8}}, 0, 1, AluOp::less, ps, 0.0f); }, {"affine_select", "'on_true'", "PSUM"});
  expect_error<LimitError>([&] { nc.affine_select(d16, Pattern{{1, 8}}, 0, 1, AluOp::less, t, 0.0f); }, {"affine_select", "'dst'", "partitions", "16", "32"});
  expect_error<LimitError>([&] { nc.affine_select(d, Pattern{{1, 9}}, 0, 1, AluOp::less, t, 0.0f); }, {"affine_select", "'pattern'", "9", "8"});
  EXPECT_EQ(raw_bytes(d), before);
}

// ================================================================================================
// GpSimdE and PSUM; native integers
// ================================================================================================

TEST(GpsimdEngine, CannotReadOrWritePsum) {
  NeuronCore nc;
  const Tile ps = nc.psum().alloc(DType::f32, 128, {32}, "acc");
  const Tile sb = nc.sbuf().alloc(DType::f32, 128, {32}, "sb");
  nc.memset(sb, 1.0f);
  expect_error<UsageError>([&] { nc.tensor_tensor(sb, ps, sb, AluOp::add, Engine::gpsimd); }, {"tensor_tensor", "'a'", "PSUM"});
  expect_error<UsageError>([&] { nc.tensor_tensor(ps, sb, sb, AluOp::add, Engine::gpsimd); }, {"tensor_tensor", "'dst'", "PSUM"});
  expect_error<UsageError>([&] { nc.tensor_copy(sb, ps, Engine::gpsimd); }, {"tensor_copy", "'src'", "PSUM"});
  expect_error<UsageError>([&] { nc.tensor_scalar(sb, ps, AluOp::add, 1.0f, AluOp::bypass, 0.0f, Engine::gpsimd); }, {"tensor_scalar", "PSUM"});
  expect_error<UsageError>([&] { nc.memset(ps, 0.0f, Engine::gpsimd); }, {"memset", "PSUM"});
  nc.tensor_tensor(sb, sb, sb, AluOp::add, Engine::gpsimd);  // SBUF is fine
  EXPECT_EQ(read(sb)[4095], 2.0f);
}

TEST(GpsimdEngine, NativeIntegerArithmeticInBothProfiles) {
  for (Numerics num : {Numerics::ideal, Numerics::trn1_measured}) {
    CoreConfig cfg;
    cfg.numerics = num;
    NeuronCore nc(cfg);
    const Tile a = nc.sbuf().alloc(DType::u32, 1, {3});
    const Tile b = nc.sbuf().alloc(DType::u32, 1, {3});
    const Tile d = nc.sbuf().alloc(DType::u32, 1, {3});
    const std::uint32_t va[3] = {0x00FFFFFFu, 0x0000FFFFu, 0x7FFFFFFFu};
    const std::uint32_t vb[3] = {0xFFu, 0xD251u, 0x12345678u};
    for (int i = 0; i < 3; ++i) {
      store_int(DType::u32, a.at(0, i), va[i]);
      store_int(DType::u32, b.at(0, i), vb[i]);
    }
    nc.tensor_tensor(d, a, b, AluOp::multiply, Engine::gpsimd);
    auto got = read_int(d);
    EXPECT_EQ(got[0], 0x00FFFFFFLL * 0xFF) << numerics_name(num);
    EXPECT_EQ(got[1], 0xFFFFLL * 0xD251) << numerics_name(num);
    EXPECT_EQ(got[2], 0xFFFFFFFFLL) << numerics_name(num);  // saturated exact product (documented)
    nc.tensor_tensor(d, a, b, AluOp::subtract, Engine::gpsimd);
    got = read_int(d);
    EXPECT_EQ(got[0], 0x00FFFFFFLL - 0xFF);
    EXPECT_EQ(got[2], 0x7FFFFFFFLL - 0x12345678LL);
  }
}

// ================================================================================================
// custom_op
// ================================================================================================

TEST(GpsimdCustomOp, RunsUserCodeAndRecordsDeclaredCycles) {
  NeuronCore nc;
  const int P = 16, F = 8;
  const Tile in = nc.sbuf().alloc(DType::u32, P, {F}, "in");
  const Tile out = nc.sbuf().alloc(DType::u32, P, {F}, "out");
  const Tile out2 = nc.sbuf().alloc(DType::f32, P, {1}, "out2");
  nc.iota(in, std::vector<std::array<std::int64_t, 2>>{{1, F}}, 0x10000000, 256);
  const Tile outs[] = {out, out2};
  const Tile ins[] = {in};
  int calls = 0;
  nc.custom_op("xorshift", outs, ins, 1234.5, [&](const CustomOpContext& ctx) {
    ++calls;
    EXPECT_EQ(ctx.outputs.size(), 2u);
    EXPECT_EQ(ctx.inputs.size(), 1u);
    const Tile& src = ctx.inputs[0];
    for (int p = 0; p < src.partitions; ++p) {
      float row_sum = 0.0f;
      for (std::int64_t i = 0; i < src.free_size(); ++i) {
        std::uint32_t x;
        std::memcpy(&x, src.at(p, i), 4);
        x ^= x << 13;  // native 32-bit integer code
        x ^= x >> 17;
        x ^= x << 5;
        std::memcpy(ctx.outputs[0].at(p, i), &x, 4);
        row_sum += 1.0f;
      }
      std::memcpy(ctx.outputs[1].at(p, 0), &row_sum, 4);
    }
  });
  EXPECT_EQ(calls, 1);
  for (int p = 0; p < P; ++p)
    for (int i = 0; i < F; ++i) {
      std::uint32_t x = 0x10000000u + 256u * static_cast<std::uint32_t>(p) + static_cast<std::uint32_t>(i);
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      ASSERT_EQ(load_as_int(DType::u32, out.at(p, i)), x) << p << "," << i;
    }
  EXPECT_EQ(read(out2)[3], static_cast<float>(F));
  const Instruction& rec = nc.trace().instructions.back();
  EXPECT_EQ(rec.opcode, Opcode::custom_op);
  EXPECT_EQ(rec.engine, Engine::gpsimd);
  EXPECT_EQ(rec.declared_cycles, 1234.5);
  EXPECT_EQ(rec.inputs, 1);
  EXPECT_EQ(rec.nregions, 3);
  EXPECT_EQ(rec.bytes_written, P * F * 4 + P * 4);
  EXPECT_EQ(nc.trace().per_engine[static_cast<int>(Engine::gpsimd)], 2);  // iota + custom_op
  EXPECT_EQ(nc.instruction_count(), 2u);
}

TEST(GpsimdCustomOp, ChecksAndExceptionsFromUserCode) {
  NeuronCore nc;
  const Tile sb = nc.sbuf().alloc(DType::f32, 8, {4}, "sb");
  const Tile ps = nc.psum().alloc(DType::f32, 8, {4}, "ps");
  const Tile mis = nc.sbuf().alloc(DType::f32, 64, {4}, "mis", 32);
  auto noop = [](const CustomOpContext&) {};
  const Tile one_sb[] = {sb};
  const Tile one_ps[] = {ps};
  const Tile one_mis[] = {mis};
  expect_error<UsageError>([&] { nc.custom_op("k", one_ps, one_sb, 10, noop); }, {"custom_op 'k'", "'outputs[0]'", "PSUM"});
  expect_error<UsageError>([&] { nc.custom_op("k", one_sb, one_ps, 10, noop); }, {"custom_op 'k'", "'inputs[0]'", "PSUM"});
  expect_error<LimitError>([&] { nc.custom_op("k", one_mis, one_sb, 10, noop); }, {"custom_op 'k'", "'outputs[0]'", "partition start"});
  expect_error<UsageError>([&] { nc.custom_op("k", std::span<const Tile>{}, one_sb, 10, noop); }, {"custom_op 'k'", "'outputs'"});
  expect_error<UsageError>([&] { nc.custom_op("k", one_sb, one_sb, -1, noop); }, {"custom_op 'k'", "'cycles'"});
  expect_error<UsageError>([&] { nc.custom_op("k", one_sb, one_sb, std::nan(""), noop); }, {"custom_op 'k'", "'cycles'"});
  expect_error<UsageError>([&] { nc.custom_op("k", one_sb, one_sb, 1, CustomOpFn{}); }, {"custom_op 'k'", "'fn'"});
  EXPECT_EQ(nc.trace().instructions.size(), 0u);
  // An exception from the user code propagates and leaves no trace record behind.
  EXPECT_THROW(nc.custom_op("boom", one_sb, {}, 5, [](const CustomOpContext&) { throw std::runtime_error("user"); }),
               std::runtime_error);
  EXPECT_EQ(nc.trace().instructions.size(), 0u);
  EXPECT_EQ(nc.instruction_count(), 0u);
  nc.custom_op("ok", one_sb, {}, 5, noop);
  EXPECT_EQ(nc.trace().instructions.size(), 1u);
  EXPECT_EQ(nc.trace().total(), 1);
}

TEST(GpsimdCustomOp, TimingOnlyRunRecordsWithoutCallingUserCode) {
  CoreConfig cfg;
  cfg.execute = false;
  NeuronCore nc(cfg);
  const Tile sb = nc.sbuf().alloc(DType::f32, 8, {4});
  const Tile one[] = {sb};
  bool called = false;
  nc.custom_op("k", one, {}, 77, [&](const CustomOpContext&) { called = true; });
  EXPECT_FALSE(called);
  EXPECT_EQ(nc.trace().instructions.back().declared_cycles, 77);
}

}  // namespace
