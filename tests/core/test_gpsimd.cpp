// GpSimdE: iota (int32 wrap-around arithmetic, casts), affine_select (masks such as the causal /
// lower-triangular one), custom_op (user code, declared cycles in the trace), the SBUF-only rule,
// and GpSimdE's native integer arithmetic in both numerics profiles. Then the typed row paths of the
// integer / bit-vector element work and tensor_reduce's fp32 single-run rows against the general
// per-element loops they replace (issue #30).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../core/src/engine_util.hpp"  // the row helpers and their *_general reference forms
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
  // channel_multiplier 0: every partition's row is partition 0's (computed once, stored in one batch),
  // in an integer and in a float tile.
  const Tile f = nc.sbuf().alloc(DType::f32, 128, {4, 16});
  nc.iota(d, pat, -5, 0);
  nc.iota(f, pat, -5, 0);
  const auto same = read_int(d);
  const auto same_f = read(f);
  for (int p = 0; p < 128; ++p)
    for (int i = 0; i < 64; ++i) {
      ASSERT_EQ(same[p * 64 + i], affine_ref(pat, -5, 0, p, i)) << p << "," << i;
      ASSERT_EQ(same_f[p * 64 + i], static_cast<float>(affine_ref(pat, -5, 0, p, i))) << p << "," << i;
    }
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

// ================================================================================================
// Typed integer / bit-vector rows and tensor_reduce's single-run rows (issue #30) against the
// per-element general paths
// ================================================================================================

namespace {

const DType kIntTypes[] = {DType::i8, DType::i16, DType::i32, DType::u8, DType::u16, DType::u32};

// Views of one [8, 96] allocation: dense rows, a dense partial row at an odd offset, one strided
// run, partial runs of 2-D and 3-D views, a reversed run (negative stride) and a stride-0 run.
std::vector<Tile> row_views(const Tile& whole) {
  const std::int64_t es = dtype_size(whole.dtype);
  std::vector<Tile> v;
  v.push_back(whole);
  v.push_back(whole.cols(5, 17));
  v.push_back(whole.slice(0, 1, 30, 3));
  v.push_back(whole.reshape({8, 12}).slice(1, 2, 7).rows(1, 5));
  v.push_back(whole.reshape({4, 6, 4}).slice(2, 1, 2, 2));
  v.push_back(whole.reshape({8, 12}).slice(0, 1, 3, 2).slice(1, 0, 12, 1));  // rows 1, 3, 5 of 12: dense runs
  Tile reversed = whole.cols(10, 20);
  reversed.base += 19 * es;
  reversed.offset_bytes += 19 * es;
  reversed.stride[0] = -1;
  v.push_back(reversed);
  Tile repeated = whole.cols(40, 6);
  repeated.stride[0] = 0;
  v.push_back(repeated);
  return v;
}

// `whole` with its free pattern replaced (sizes and element strides, outermost first).
Tile shaped(const Tile& whole, std::initializer_list<std::int64_t> size, std::initializer_list<std::int64_t> stride) {
  Tile t = whole;
  t.ndim = static_cast<int>(size.size());
  std::copy(size.begin(), size.end(), t.size.begin());
  std::copy(stride.begin(), stride.end(), t.stride.begin());
  return t;
}

// Short rows of several runs (IntRows' offset table, n <= 64) and stride-0 dimensions: the fp64
// slicing's [P, (values, words)] views (each value's word broadcast over W = 2 words, a value's hi
// word at stride 2), a broadcast [P, 1] constant, a 65-element row of runs (just past the table)
// and a four-dimensional one with a negative run.
std::vector<Tile> multi_run_views(const Tile& whole) {
  std::vector<Tile> v;
  v.push_back(shaped(whole, {3, 4, 2}, {8, 2, 0}));
  v.push_back(shaped(whole, {2, 3}, {6, 2}));
  v.push_back(shaped(whole, {4, 2, 1}, {0, 0, 1}));
  v.push_back(shaped(whole, {13, 5}, {7, 1}));
  Tile four = shaped(whole, {2, 3, 2, 4}, {40, 0, -4, 2});
  four.base += 8 * dtype_size(whole.dtype);  // element 0 at word 8: offsets -4 .. 54
  four.offset_bytes += 8 * dtype_size(whole.dtype);
  v.push_back(four);
  // Longer rows of short runs (IntRows' heap table, n > 64 with runs of <= 8): the slicing's words
  // broadcast over 3 words, a middle stride-0 dimension over runs of 2, and runs of 9 (the walk).
  v.push_back(shaped(whole, {48, 3}, {2, 0}));
  v.push_back(shaped(whole, {20, 4, 2}, {4, 0, 1}));
  v.push_back(shaped(whole, {8, 9}, {10, 1}));
  return v;
}

// Random bytes over every row of `whole`, with integer extremes and the fp32 bit patterns of NaN
// (quiet, signalling, negative), -0, +-Inf and subnormals planted at the start of each row.
void fill_random_bytes(const Tile& whole, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::int64_t row = whole.free_size() * dtype_size(whole.dtype);
  const std::uint32_t specials[] = {0x7fc00000u, 0x7f800001u, 0xffc00001u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                    0x00000001u, 0x7fffffffu, 0xffffffffu, 0x00000000u, 0x80000001u, 0x0000ff80u};
  for (std::int32_t p = 0; p < whole.partitions; ++p) {
    std::byte* b = whole.base + std::int64_t{p} * whole.partition_stride;
    for (std::int64_t i = 0; i < row; ++i) b[i] = static_cast<std::byte>(rng() & 0xff);
    std::memcpy(b, specials, std::min<std::int64_t>(row, sizeof specials));
  }
}

std::vector<std::uint8_t> all_row_bytes(const Tile& whole) {
  std::vector<std::uint8_t> out;
  const std::int64_t row = whole.free_size() * dtype_size(whole.dtype);
  for (std::int32_t p = 0; p < whole.partitions; ++p) {
    const auto* b = reinterpret_cast<const std::uint8_t*>(whole.base + std::int64_t{p} * whole.partition_stride);
    out.insert(out.end(), b, b + row);
  }
  return out;
}

}  // namespace

// load_row_int / store_row_int / load_row_bits / store_row_bits (typed loops over whole runs) give
// the per-element loops' values and bytes for every integer dtype over dense, partial, strided,
// reversed and stride-0 views, with values outside every dtype's range (saturation) and patterns
// with high bits set (truncation). Float dtypes take the general loops.
TEST(GpsimdRows, TypedIntegerRowsMatchTheElementLoops) {
  std::vector<DType> types(std::begin(kIntTypes), std::end(kIntTypes));
  types.push_back(DType::f32);
  types.push_back(DType::bf16);
  const std::int64_t extremes[] = {0, -1, 1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32769, 65535, 65536,
                                   0x7fffffffLL, 0x80000000LL, -0x80000001LL, 0xffffffffLL, 0x100000000LL,
                                   std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
  std::mt19937_64 rng(30);
  int views_checked = 0;
  for (DType dt : types) {
    NeuronCore nc;
    const Tile w1 = nc.sbuf().alloc(dt, 8, {96});
    const Tile w2 = nc.sbuf().alloc(dt, 8, {96});
    fill_random_bytes(w1, 7 + static_cast<std::uint64_t>(dt));
    std::vector<Tile> v1 = row_views(w1), v2 = row_views(w2);
    for (const Tile& t : multi_run_views(w1)) v1.push_back(t);
    for (const Tile& t : multi_run_views(w2)) v2.push_back(t);
    for (std::size_t k = 0; k < v1.size(); ++k) {
      const Tile& t1 = v1[k];
      const Tile& t2 = v2[k];
      const std::int64_t n = t1.free_size();
      std::vector<std::int64_t> fast(static_cast<std::size_t>(n)), general(static_cast<std::size_t>(n));
      for (std::int32_t p = 0; p < t1.partitions; ++p) {
        detail::load_row_int(t1, p, fast.data());
        detail::load_row_int_general(t1, p, general.data());
        ASSERT_EQ(fast, general) << "load_row_int " << dtype_name(dt) << " view " << k << " p " << p;
        for (bool through_fp32 : {false, true}) {
          detail::load_row_bits(t1, p, through_fp32, fast.data());
          detail::load_row_bits_general(t1, p, through_fp32, general.data());
          ASSERT_EQ(fast, general) << "load_row_bits " << dtype_name(dt) << " view " << k << " p " << p << " fp32 "
                                   << through_fp32;
        }
      }
      // One IntRows over every partition (as the instructions' loops use it), past a row's end
      // untouched: the same values as the element loops row by row.
      for (const detail::IntConv conv : {detail::IntConv::value, detail::IntConv::pattern, detail::IntConv::pattern_via_fp32}) {
        const detail::IntRows rows(t1, conv);
        std::vector<std::int64_t> guarded(static_cast<std::size_t>(n) + 8, -7);
        for (std::int32_t p = 0; p < t1.partitions; ++p) {
          rows.load(p, guarded.data());
          if (conv == detail::IntConv::value)
            detail::load_row_int_general(t1, p, general.data());
          else
            detail::load_row_bits_general(t1, p, conv == detail::IntConv::pattern_via_fp32, general.data());
          ASSERT_TRUE(std::equal(general.begin(), general.end(), guarded.begin()))
              << "IntRows " << dtype_name(dt) << " view " << k << " p " << p << " conv " << static_cast<int>(conv);
          ASSERT_TRUE(std::all_of(guarded.begin() + n, guarded.end(), [](std::int64_t x) { return x == -7; }));
        }
      }
      // Stores: the same random rows into two copies of the same bytes, one by each path.
      for (std::int32_t p = 0; p < 8; ++p)
        std::memcpy(w2.at(p, 0), w1.at(p, 0), static_cast<std::size_t>(96 * dtype_size(dt)));
      ASSERT_EQ(all_row_bytes(w1), all_row_bytes(w2));
      for (std::int32_t p = 0; p < t1.partitions; ++p) {
        for (std::int64_t i = 0; i < n; ++i)
          fast[static_cast<std::size_t>(i)] =
              (rng() & 3) == 0 ? extremes[rng() % std::size(extremes)] : static_cast<std::int64_t>(rng()) >> (rng() % 64);
        general = fast;
        detail::store_row_int(t1, p, fast.data());
        detail::store_row_int_general(t2, p, general.data());
        ASSERT_EQ(all_row_bytes(w1), all_row_bytes(w2)) << "store_row_int " << dtype_name(dt) << " view " << k << " p " << p;
        general = fast;
        detail::store_row_bits(t1, p, fast.data());
        detail::store_row_bits_general(t2, p, general.data());
        ASSERT_EQ(all_row_bytes(w1), all_row_bytes(w2)) << "store_row_bits " << dtype_name(dt) << " view " << k << " p " << p;
      }
      ++views_checked;
    }
  }
  EXPECT_EQ(views_checked, 8 * 16);
}

// IntRows::load_rows / store_rows (every partition in one call: the batch of short integer rows) give
// load(p) / store(p)'s values and bytes for p = 0, 1, ... over every view above, in every conversion;
// and the batched instructions (rows of <= 64: in place, into a disjoint tile, the tensor_scalar
// form with immediate scalars) give the row loop's element results, as do rows of 65 (not batched).
TEST(GpsimdRows, ShortRowsInOneBatchKeepTheRowOrder) {
  int views_checked = 0;
  for (DType dt : kIntTypes) {
    NeuronCore nc;
    const Tile w1 = nc.sbuf().alloc(dt, 8, {96});
    const Tile w2 = nc.sbuf().alloc(dt, 8, {96});
    fill_random_bytes(w1, 11 + static_cast<std::uint64_t>(dt));
    std::vector<Tile> v1 = row_views(w1), v2 = row_views(w2);
    for (const Tile& t : multi_run_views(w1)) v1.push_back(t);
    for (const Tile& t : multi_run_views(w2)) v2.push_back(t);
    std::mt19937_64 rng(41);
    for (std::size_t k = 0; k < v1.size(); ++k) {
      const Tile &t1 = v1[k], &t2 = v2[k];
      const std::int64_t n = t1.free_size(), P = t1.partitions;
      for (const detail::IntConv conv : {detail::IntConv::value, detail::IntConv::pattern, detail::IntConv::pattern_via_fp32}) {
        const detail::IntRows rows(t1, conv);
        std::vector<std::int64_t> batch(static_cast<std::size_t>(P * n) + 8, -7), one(static_cast<std::size_t>(n));
        rows.load_rows(t1.partitions, batch.data());
        for (std::int32_t p = 0; p < t1.partitions; ++p) {
          rows.load(p, one.data());
          ASSERT_TRUE(std::equal(one.begin(), one.end(), batch.begin() + p * n))
              << "load_rows " << dtype_name(dt) << " view " << k << " p " << p << " conv " << static_cast<int>(conv);
        }
        ASSERT_TRUE(std::all_of(batch.end() - 8, batch.end(), [](std::int64_t x) { return x == -7; }));
        if (conv == detail::IntConv::pattern_via_fp32) continue;  // a load conversion only
        for (std::int32_t p = 0; p < 8; ++p)
          std::memcpy(w2.at(p, 0), w1.at(p, 0), static_cast<std::size_t>(96 * dtype_size(dt)));
        for (std::int64_t i = 0; i < P * n; ++i)
          batch[static_cast<std::size_t>(i)] = static_cast<std::int64_t>(rng()) >> (rng() % 64);
        std::vector<std::int64_t> copy = batch;
        rows.store_rows(t1.partitions, batch.data());
        const detail::IntRows rows2(t2, conv);
        for (std::int32_t p = 0; p < t2.partitions; ++p) rows2.store(p, copy.data() + p * n);
        ASSERT_EQ(all_row_bytes(w1), all_row_bytes(w2)) << "store_rows " << dtype_name(dt) << " view " << k;
      }
      ++views_checked;
    }
  }
  EXPECT_EQ(views_checked, 6 * 16);

  // The instructions, batched: in place and into a disjoint tile, rows of 4 and of 64 (the batch's
  // limit) and of 65 (the row loop), row p of b = p + 1 + i (small: no saturation).
  for (const std::int64_t n : {std::int64_t{4}, std::int64_t{64}, std::int64_t{65}}) {
    NeuronCore nc;
    const Tile a = nc.sbuf().alloc(DType::i32, 32, {n});
    const Tile b = nc.sbuf().alloc(DType::i32, 32, {n});
    const Tile out = nc.sbuf().alloc(DType::u32, 32, {n});
    for (const bool bits : {false, true}) {
      const AluOp op = bits ? AluOp::bitwise_xor : AluOp::add;
      for (std::int32_t p = 0; p < 32; ++p)
        for (std::int64_t i = 0; i < n; ++i) {
          store_int(DType::i32, a.at(p, i), 10 * i - p);
          store_int(DType::i32, b.at(p, i), p + 1 + i);
        }
      const auto f = [&](std::int64_t x, std::int64_t y) { return bits ? x ^ y : x + y; };
      nc.tensor_tensor(a, a, b, op, Engine::gpsimd);  // in place
      nc.tensor_tensor(out, a, b, op, Engine::gpsimd);
      nc.tensor_scalar(a, a, op, 3.0f, op, 5.0f, bits ? Engine::vector : Engine::gpsimd);  // bit-vector ops: VectorE
      for (std::int32_t p = 0; p < 32; ++p)
        for (std::int64_t i = 0; i < n; ++i) {
          const std::int64_t once = f(10 * i - p, p + 1 + i);
          ASSERT_EQ(load_as_int(DType::u32, out.at(p, i)), static_cast<std::uint32_t>(f(once, p + 1 + i)))
              << "tensor_tensor n " << n << " bits " << bits << " p " << p << " i " << i;
          ASSERT_EQ(load_as_int(DType::i32, a.at(p, i)), f(f(once, 3), 5))
              << "tensor_scalar n " << n << " bits " << bits << " p " << p << " i " << i;
        }
    }
  }
}

// The batched integer rows (rows of <= kIntBatchRow: every source row loaded, the op, every dst row
// stored) read their sources before storing when dst overlaps them on the same partitions, as the row
// loop does (VectorStridedViews' fp32 tests state the rule): tensor_tensor with dst one element right
// or left of a in the same rows, tensor_scalar with its [P, 1] scalar column at dst's first or last
// element; on partitions 32..63, GpSimdE, i32. And iota with channel_multiplier 0 (the row computed
// once) into saturating narrow dtypes and f32, on partitions 32..63, rows of 64 (batched) and 100
// (row by row).
TEST(GpsimdRows, BatchedIntegerRowsReadTheirSourcesFirst) {
  constexpr std::int64_t n = 32, W = n + 1;
  NeuronCore nc;
  const Tile t = nc.sbuf().alloc(DType::i32, 64, {W}).rows(32, 32);
  const Tile b = nc.sbuf().alloc(DType::i32, 64, {n}).rows(32, 32);
  std::mt19937 rng(5);
  const auto snapshot = [&](const Tile& x) {
    std::vector<std::int64_t> v;
    for (std::int32_t p = 0; p < 32; ++p)
      for (std::int64_t i = 0; i < x.free_size(); ++i) v.push_back(load_as_int(DType::i32, x.at(p, i)));
    return v;
  };
  const auto fill = [&] {
    for (std::int32_t p = 0; p < 32; ++p) {
      for (std::int64_t i = 0; i < W; ++i) store_int(DType::i32, t.at(p, i), static_cast<std::int64_t>(rng() % 2001) - 1000);
      for (std::int64_t i = 0; i < n; ++i) store_int(DType::i32, b.at(p, i), static_cast<std::int64_t>(rng() % 2001) - 1000);
    }
  };
  for (const int shift : {1, -1}) {  // dst = a one element right (1) or left (-1)
    fill();
    const std::vector<std::int64_t> before = snapshot(t), bv = snapshot(b);
    const std::int64_t d0 = shift > 0 ? 1 : 0, a0 = shift > 0 ? 0 : 1;
    nc.tensor_tensor(t.cols(d0, n), t.cols(a0, n), b, AluOp::subtract, Engine::gpsimd);
    std::vector<std::int64_t> want = before;
    for (std::int64_t p = 0; p < 32; ++p)
      for (std::int64_t i = 0; i < n; ++i)
        want[static_cast<std::size_t>(p * W + d0 + i)] = before[static_cast<std::size_t>(p * W + a0 + i)] - bv[static_cast<std::size_t>(p * n + i)];
    ASSERT_EQ(snapshot(t), want) << "tensor_tensor shift " << shift;
  }
  for (const std::int64_t at : {std::int64_t{0}, n - 1}) {  // the scalar column: dst's first / last element
    fill();
    const std::vector<std::int64_t> before = snapshot(t);
    nc.tensor_scalar(t.cols(0, n), t.cols(0, n), AluOp::subtract, ScalarOperand(t.cols(at, 1)), AluOp::add, 7.0f,
                     Engine::gpsimd);
    std::vector<std::int64_t> want = before;
    for (std::int64_t p = 0; p < 32; ++p)
      for (std::int64_t i = 0; i < n; ++i)
        want[static_cast<std::size_t>(p * W + i)] = before[static_cast<std::size_t>(p * W + i)] - before[static_cast<std::size_t>(p * W + at)] + 7;
    ASSERT_EQ(snapshot(t), want) << "tensor_scalar scalar at " << at;
  }
  for (const std::int64_t len : {std::int64_t{64}, std::int64_t{100}})
    for (const DType dt : {DType::u8, DType::i8, DType::i16, DType::f32}) {
      const Tile d = nc.sbuf().alloc(dt, 64, {len}).rows(32, 32);
      nc.iota(d, Pattern{{7, len}}, -100, 0);  // -100, -93, ..., 593: below 0 and above 127 / 255
      for (std::int32_t p = 0; p < 32; ++p)
        for (std::int64_t i = 0; i < len; ++i) {
          const std::int64_t v = -100 + 7 * i;
          if (dt == DType::f32) {
            float got;
            std::memcpy(&got, d.at(p, i), sizeof got);
            ASSERT_EQ(got, static_cast<float>(v)) << "iota f32 len " << len << " p " << p << " i " << i;
          } else {
            const std::int64_t lo = dt == DType::u8 ? 0 : dt == DType::i8 ? -128 : -32768;
            const std::int64_t hi = dt == DType::u8 ? 255 : dt == DType::i8 ? 127 : 32767;
            ASSERT_EQ(load_as_int(dt, d.at(p, i)), std::clamp(v, lo, hi))
                << "iota " << dtype_name(dt) << " len " << len << " p " << p << " i " << i;
          }
        }
    }
}

// load_row's fp32 / tf32 walk (one pass over the folded dimensions) gives load_row_general's words
// (the per-run loop through load_row_f32) bit for bit — NaN payloads, signalling NaNs, -0 and
// subnormals included — over row_views' dense, strided, reversed and stride-0 views and the
// broadcast patterns of the segmented kernel's mask products (stride 0 in an inner or a middle
// dimension, up to four dimensions); other dtypes take the general loop. read_row_f32 agrees.
TEST(GpsimdRows, Fp32RowWalkMatchesTheRunLoop) {
  int views_checked = 0;
  std::vector<DType> types = {DType::f32, DType::tf32, DType::bf16};
  types.insert(types.end(), std::begin(kIntTypes), std::end(kIntTypes));
  for (DType dt : types) {
    NeuronCore nc;
    const Tile whole = nc.sbuf().alloc(dt, 8, {96});
    fill_random_bytes(whole, 11 + static_cast<std::uint64_t>(dt));
    std::vector<Tile> views = row_views(whole);
    views.push_back(shaped(whole, {2, 32, 7}, {7, 1, 0}));        // mask[t, j] over the Sa slices (inner broadcast)
    views.push_back(shaped(whole, {2, 32, 7}, {7, 0, 1}));        // qa[t, s] over the J segments (middle broadcast)
    views.push_back(shaped(whole, {3, 1, 4, 5}, {20, 0, 5, 1}));  // a size-1 dimension folded away
    Tile four = shaped(whole, {2, 3, 2, 4}, {40, 0, -4, 2});      // four dimensions, negative and stride-2 runs
    four.base += 8 * dtype_size(dt);                              // element 0 at word 8: offsets -4 .. 54
    four.offset_bytes += 8 * dtype_size(dt);
    views.push_back(four);
    views.push_back(shaped(whole, {1}, {1}));                     // one element
    views.push_back(shaped(whole, {6, 4}, {4, 1}));               // continuing dimensions: one run of 24
    views.push_back(shaped(whole, {3, 5, 2, 3}, {0, 9, 1, 0}));   // stride 0 outermost, broadcast runs of 3
    views.push_back(shaped(whole, {5, 3, 2}, {2, 0, 0}));         // stride-0 dimensions folded into runs of 6
    for (const Tile& t : views) {
      const std::int64_t n = t.free_size();
      // 8 guard words past the row: a broadcast run's fixed-size store must stay inside the row.
      std::vector<float> fast(static_cast<std::size_t>(n) + 8), general(static_cast<std::size_t>(n)), scratch(fast.size());
      for (std::int32_t p = 0; p < t.partitions; ++p) {
        std::fill(fast.begin(), fast.end(), 1.5f);
        std::fill(general.begin(), general.end(), -2.5f);
        detail::load_row(t, p, fast.data());
        detail::load_row_general(t, p, general.data());
        ASSERT_EQ(std::memcmp(fast.data(), general.data(), general.size() * sizeof(float)), 0)
            << "load_row " << dtype_name(dt) << " view " << views_checked << " p " << p;
        ASSERT_TRUE(std::all_of(fast.begin() + n, fast.end(), [](float x) { return x == 1.5f; }))
            << "load_row wrote past the row: " << dtype_name(dt) << " view " << views_checked;
        const float* read = detail::read_row_f32(t, p, scratch.data());
        ASSERT_EQ(std::memcmp(read, general.data(), general.size() * sizeof(float)), 0)
            << "read_row_f32 " << dtype_name(dt) << " view " << views_checked << " p " << p;
      }
      ++views_checked;
    }
  }
  EXPECT_EQ(views_checked, 9 * 16);
}

// The instructions on those rows: tensor_tensor's bit-vector and native integer ops on GpSimdE,
// tensor_scalar's bit-vector ops on VectorE and tensor_reduce's bitwise_or, over integer operands
// of every dtype pair (strided and 2-D views included), against the documented element semantics:
// bitvec = 32-bit patterns zero-extended from each dtype's width, the result's low bits stored;
// native integer = exact int64, stored with saturation to dst's range.
TEST(GpsimdRows, BitvecAndIntegerInstructionsFollowTheElementSemantics) {
  const auto pattern = [](DType t, std::int64_t v) { return static_cast<std::int64_t>(detail::to_pattern(t, v)); };
  const auto low_bits = [](DType t, std::uint32_t u) { return detail::from_pattern(t, u); };
  const auto saturate = [](DType t, std::int64_t v) {
    std::int64_t lo = 0, hi = 0xffffffffLL;
    switch (t) {
      case DType::i8: lo = -128, hi = 127; break;
      case DType::i16: lo = -32768, hi = 32767; break;
      case DType::i32: lo = -0x80000000LL, hi = 0x7fffffffLL; break;
      case DType::u8: hi = 255; break;
      case DType::u16: hi = 65535; break;
      default: break;
    }
    return std::clamp(v, lo, hi);
  };
  const AluOp bit_ops[] = {AluOp::bitwise_and, AluOp::bitwise_or, AluOp::bitwise_xor, AluOp::left_shift, AluOp::right_shift};
  const AluOp int_ops[] = {AluOp::add, AluOp::subtract, AluOp::multiply, AluOp::maximum, AluOp::abs_min, AluOp::less};
  const auto bit_ref = [](AluOp op, std::uint32_t a, std::uint32_t b) -> std::uint32_t {
    switch (op) {
      case AluOp::bitwise_and: return a & b;
      case AluOp::bitwise_or: return a | b;
      case AluOp::bitwise_xor: return a ^ b;
      case AluOp::left_shift: return b >= 32 ? 0u : a << b;
      default: return b >= 32 ? 0u : a >> b;
    }
  };
  const auto int_ref = [](AluOp op, std::int64_t a, std::int64_t b) -> std::int64_t {
    switch (op) {
      case AluOp::add: return a + b;
      case AluOp::subtract: return a - b;
      case AluOp::multiply: {  // exact, saturating at the int64 range (u32 x u32 may exceed it)
        std::int64_t r = 0;
        if (__builtin_mul_overflow(a, b, &r))
          return (a < 0) != (b < 0) ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int64_t>::max();
        return r;
      }
      case AluOp::maximum: return std::max(a, b);
      case AluOp::abs_min: return std::min(a < 0 ? -a : a, b < 0 ? -b : b);
      default: return a < b;
    }
  };
  int cases = 0;
  for (DType ta : kIntTypes)
    for (DType td : kIntTypes) {
      const DType tb = kIntTypes[(static_cast<int>(ta) + static_cast<int>(td)) % 6];
      NeuronCore nc;
      const Tile wa = nc.sbuf().alloc(ta, 8, {96});
      const Tile wb = nc.sbuf().alloc(tb, 8, {96});
      const Tile wd = nc.sbuf().alloc(td, 8, {96});
      fill_random_bytes(wa, 100 + static_cast<std::uint64_t>(ta));
      fill_random_bytes(wb, 200 + static_cast<std::uint64_t>(tb));
      // Shift counts 0..40 in b's first 64 elements of each row (shifts by >= 32 give 0).
      for (std::int32_t p = 0; p < 8; ++p)
        for (std::int64_t i = 0; i < 64; i += 2) store_int(tb, wb.at(p, i), (i * 7 + p) % 41);
      // Operand views of 30 elements: dense, stride 3, a 2-D [5, 6] view of partial runs.
      const auto views = [](const Tile& w) {
        return std::vector<Tile>{w.cols(3, 30), w.slice(0, 1, 30, 3), w.reshape({8, 12}).slice(1, 1, 6).slice(0, 2, 5)};
      };
      const std::vector<Tile> va = views(wa), vb = views(wb), vd = views(wd);
      for (std::size_t k = 0; k < va.size(); ++k) {
        const Tile &a = va[k], &b = vb[(k + 1) % 3], &d = vd[(k + 2) % 3];
        const auto xa = read_int(a), xb = read_int(b);
        for (AluOp op : bit_ops) {
          nc.tensor_tensor(d, a, b, op, Engine::gpsimd);
          const auto got = read_int(d);
          for (std::size_t i = 0; i < got.size(); ++i) {
            const auto want = low_bits(td, bit_ref(op, static_cast<std::uint32_t>(pattern(ta, xa[i])),
                                                   static_cast<std::uint32_t>(pattern(tb, xb[i]))));
            ASSERT_EQ(got[i], want) << alu_op_name(op) << " " << dtype_name(ta) << " " << dtype_name(tb) << " -> "
                                    << dtype_name(td) << " view " << k << " i " << i;
          }
          // tensor_scalar (VectorE, ideal numerics): a, op with an immediate, then bitwise_xor with [P, 1] b.
          Tile b_col = b;  // element 0 of each of b's rows, as a [P, 1] tile
          for (int dim = 0; dim < b_col.ndim; ++dim) b_col = b_col.slice(dim, 0, 1);
          nc.tensor_scalar(d, a, op, 5.0f, AluOp::bitwise_xor, ScalarOperand(b_col), Engine::vector);
          const auto got_s = read_int(d);
          const std::int64_t per_row = a.free_size();
          for (std::size_t i = 0; i < got_s.size(); ++i) {
            const auto s1 = static_cast<std::uint32_t>(pattern(tb, xb[i / per_row * per_row]));
            const auto want = low_bits(td, bit_ref(op, static_cast<std::uint32_t>(pattern(ta, xa[i])), 5u) ^ s1);
            ASSERT_EQ(got_s[i], want) << "tensor_scalar " << alu_op_name(op) << " " << dtype_name(ta) << " view " << k;
          }
        }
        for (AluOp op : int_ops) {
          nc.tensor_tensor(d, a, b, op, Engine::gpsimd);
          const auto got = read_int(d);
          for (std::size_t i = 0; i < got.size(); ++i)
            ASSERT_EQ(got[i], saturate(td, int_ref(op, xa[i], xb[i])))
                << alu_op_name(op) << " " << dtype_name(ta) << " " << dtype_name(tb) << " -> " << dtype_name(td)
                << " view " << k << " i " << i;
        }
        // tensor_reduce bitwise_or over each row into a [P, 1] column of dst's dtype.
        const Tile col = wd.cols(90, 1).rows(0, a.partitions);
        nc.tensor_reduce(col, a, AluOp::bitwise_or);
        const auto got_r = read_int(col);
        const std::int64_t per_row = a.free_size();
        for (std::int32_t p = 0; p < a.partitions; ++p) {
          std::uint32_t acc = 0;
          for (std::int64_t i = 0; i < per_row; ++i) acc |= static_cast<std::uint32_t>(pattern(ta, xa[static_cast<std::size_t>(p * per_row + i)]));
          ASSERT_EQ(got_r[static_cast<std::size_t>(p)], low_bits(td, acc)) << dtype_name(ta) << " view " << k << " p " << p;
        }
        ++cases;
      }
    }
  EXPECT_EQ(cases, 6 * 6 * 3);
}

// tensor_reduce over fp32 rows of one run (dense: read in place; strided: gathered) and an fp32
// [P, 1] destination written at its address, against the same bits through the general row walk
// (the same bytes read as tf32, whose row load is the same bit copy, so the instruction takes
// load_row): every op, negate, NaN payloads, -0, Inf, subnormals, 1 to 64 elements, 1 to 64
// partitions, destination columns inside wider rows and partition sub-ranges.
TEST(GpsimdRows, ReduceSingleRunRowsMatchTheGeneralRowWalk) {
  const AluOp ops[] = {AluOp::add,     AluOp::multiply,    AluOp::maximum,    AluOp::minimum,
                       AluOp::logical_and, AluOp::logical_or, AluOp::logical_xor};
  const std::uint32_t specials[] = {0x7fc00000u, 0x7fc00123u, 0xffc00456u, 0x80000000u, 0x00000000u,
                                    0x7f800000u, 0xff800000u, 0x00000001u, 0x807fffffu, 0x3f800000u};
  std::mt19937_64 rng(2030);
  int cases = 0;
  for (std::int64_t n : {1, 2, 3, 64})
    for (std::int32_t parts : {7, 64})
      for (int special_mix = 0; special_mix < 3; ++special_mix) {
        NeuronCore nc;
        const Tile src = nc.sbuf().alloc(DType::f32, 64, {2 * n});
        const Tile out = nc.sbuf().alloc(DType::f32, 128, {6});
        for (std::int32_t p = 0; p < 64; ++p)
          for (std::int64_t i = 0; i < 2 * n; ++i) {
            std::uint32_t bits = 0;
            if (special_mix > 0 && rng() % (special_mix == 1 ? 8 : 2) == 0)
              bits = specials[rng() % std::size(specials)];
            else
              bits = std::bit_cast<std::uint32_t>(std::ldexp(static_cast<float>(static_cast<std::int32_t>(rng() % 2001) - 1000) / 1000.0f,
                                                             static_cast<int>(rng() % 9) - 4));
            std::memcpy(src.at(p, i), &bits, 4);
          }
        const Tile dense = src.cols(0, n).rows(0, parts);                  // one run, read in place
        const Tile strided = src.slice(0, 1, n, 2).rows(0, parts);          // one run of stride 2, gathered
        for (AluOp op : ops)
          for (bool negate : {false, true}) {
            for (const Tile& s : {dense, strided}) {
              const Tile fast_col = out.cols(1, 1).rows(64, parts);  // partition sub-range, column 1 of 6
              const Tile general_col = out.cols(4, 1).rows(0, parts);
              nc.memset(out, -7.0f);
              nc.tensor_reduce(fast_col, s, op, negate);
              nc.tensor_reduce(general_col, s.bitcast(DType::tf32), op, negate);
              const auto cell = [&](std::int32_t p, std::int64_t c) { return out.base + p * out.partition_stride + c * 4; };
              for (std::int32_t p = 0; p < 128; ++p)
                for (std::int64_t c = 0; c < 6; ++c) {
                  std::uint32_t got = 0, want = 0;
                  std::memcpy(&got, cell(p, c), 4);
                  const bool fast_cell = c == 1 && p >= 64 && p < 64 + parts;
                  const bool general_cell = c == 4 && p < parts;
                  if (fast_cell)
                    std::memcpy(&want, cell(p - 64, 4), 4);
                  else
                    want = general_cell ? got : std::bit_cast<std::uint32_t>(-7.0f);
                  ASSERT_EQ(got, want) << alu_op_name(op) << " negate " << negate << " n " << n << " parts " << parts
                                       << " stride " << s.stride[0] << " p " << p << " c " << c;
                }
              ++cases;
            }
          }
      }
  EXPECT_EQ(cases, 4 * 2 * 3 * 7 * 2 * 2);
}
