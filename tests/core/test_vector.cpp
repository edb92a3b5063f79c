// VectorE instructions (and their GpSimdE/ScalarE variants): tensor_tensor, tensor_scalar,
// tensor_reduce, tensor_tensor_scan, memset, bn_stats, bn_aggr, reciprocal. Every result is checked
// against an independent reference (double / long double loops over the same inputs); exact where
// the documented semantics make the result exact (one fp32 rounding of an operation whose double
// result is exact or innocuously double-rounded), with fp32-epsilon tolerances otherwise.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "test_util.hpp"
#include "trn/core/core.hpp"
#include "trn/tile/view.hpp"

using namespace trn;
using namespace trntest;

namespace {

constexpr float kEps = std::numeric_limits<float>::epsilon();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInfF = std::numeric_limits<float>::infinity();



// Expects exception E whose message mentions every needle (instruction, operand, value, limit).

// Reference of one fp32 operation: the exact double result rounded once to fp32 (for + - * / the
// double result is exact or double rounding is innocuous, so this is the correctly rounded fp32 op).
float ref_op(AluOp op, float a, float b) {
  const double x = a, y = b;
  switch (op) {
    case AluOp::add: return static_cast<float>(x + y);
    case AluOp::subtract: return static_cast<float>(x - y);
    case AluOp::multiply: return static_cast<float>(x * y);
    case AluOp::divide: return static_cast<float>(x / y);
    case AluOp::maximum: return std::isnan(a) || std::isnan(b) ? kNaN : static_cast<float>(std::max(x, y));
    case AluOp::minimum: return std::isnan(a) || std::isnan(b) ? kNaN : static_cast<float>(std::min(x, y));
    case AluOp::abs_max: return static_cast<float>(std::max(std::fabs(x), std::fabs(y)));
    case AluOp::abs_min: return static_cast<float>(std::min(std::fabs(x), std::fabs(y)));
    case AluOp::equal: return x == y;
    case AluOp::not_equal: return x != y;
    case AluOp::greater: return x > y;
    case AluOp::greater_equal: return x >= y;
    case AluOp::less: return x < y;
    case AluOp::less_equal: return x <= y;
    case AluOp::logical_and: return (x != 0) && (y != 0);
    case AluOp::logical_or: return (x != 0) || (y != 0);
    case AluOp::logical_xor: return (x != 0) != (y != 0);
    case AluOp::bypass: return a;
    default: ADD_FAILURE() << "no reference for " << alu_op_name(op); return 0.0f;
  }
}

// ================================================================================================
// tensor_tensor
// ================================================================================================

TEST(VectorTensorTensor, ArithmeticOpsAreCorrectlyRoundedFp32) {
  NeuronCore nc;
  const int P = 128, F = 200;
  const Tile a = nc.sbuf().alloc(DType::f32, P, {F}, "a");
  const Tile b = nc.sbuf().alloc(DType::f32, P, {F}, "b");
  const Tile d = nc.sbuf().alloc(DType::f32, P, {F}, "d");
  const auto va = random_values(P * F, DType::f32, 1, -100.0f, 100.0f);
  auto vb = random_values(P * F, DType::f32, 2, -3.0f, 3.0f);
  vb[5] = 0.0f;  // x / 0
  upload(nc, a, va);
  upload(nc, b, vb);
  for (AluOp op : {AluOp::add, AluOp::subtract, AluOp::multiply, AluOp::divide, AluOp::maximum, AluOp::minimum,
                   AluOp::abs_max, AluOp::abs_min, AluOp::bypass}) {
    nc.tensor_tensor(d, a, b, op);
    const auto got = read(d);
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_TRUE(same_bits(got[i], ref_op(op, va[i], vb[i])))
          << alu_op_name(op) << " at " << i << ": " << va[i] << ", " << vb[i] << " -> " << got[i];
  }
}

// fp32 sources are read in place by the host (no row copy); results must not depend on it, also
// when the destination is the source or overlaps it through another dtype's view.
TEST(VectorTensorTensor, InPlaceAndOverlappingOperandsGiveTheUnaliasedResult) {
  NeuronCore nc;
  const int P = 32, F = 40;
  const auto va = random_values(P * F, DType::f32, 5), vb = random_values(P * F, DType::f32, 6);
  const Tile a = nc.sbuf().alloc(DType::f32, P, {F}), b = nc.sbuf().alloc(DType::f32, P, {F});
  upload(nc, a, va);
  upload(nc, b, vb);
  nc.tensor_tensor(a, a, b, AluOp::subtract);  // dst == a
  const auto r1 = read(a);
  for (int i = 0; i < P * F; ++i) ASSERT_EQ(r1[static_cast<std::size_t>(i)], va[static_cast<std::size_t>(i)] - vb[static_cast<std::size_t>(i)]);
  nc.tensor_tensor(b, a, b, AluOp::add);  // dst == b
  const auto r2 = read(b);
  for (int i = 0; i < P * F; ++i) ASSERT_EQ(r2[static_cast<std::size_t>(i)], r1[static_cast<std::size_t>(i)] + vb[static_cast<std::size_t>(i)]);
  // tensor_copy fp32 -> bf16 into the second half of the source's own bytes.
  upload(nc, a, va);
  // The same bytes seen as bf16, starting half-way: writing element i lands on fp32 source F/2 + i/2,
  // which a streaming in-place read would only reach later.
  Tile half = a;
  half.dtype = DType::bf16;
  half.base += 2 * F;
  half.offset_bytes += 2 * F;
  nc.tensor_copy(half, a);
  for (int p = 0; p < P; ++p)
    for (int i = 0; i < F; ++i)
      ASSERT_EQ(load_as_f32(DType::bf16, half.at(p, i)),
                bf16_to_f32(f32_to_bf16_rne(va[static_cast<std::size_t>(p * F + i)])))
          << p << "," << i;
}

TEST(VectorTensorTensor, PowerIsFp32PowfWithinOneUlp) {
  NeuronCore nc;
  const Tile a = nc.sbuf().alloc(DType::f32, 32, {64});
  const Tile b = nc.sbuf().alloc(DType::f32, 32, {64});
  const Tile d = nc.sbuf().alloc(DType::f32, 32, {64});
  const auto va = random_values(32 * 64, DType::f32, 3, 0.01f, 10.0f);
  const auto vb = random_values(32 * 64, DType::f32, 4, -4.0f, 4.0f);
  upload(nc, a, va);
  upload(nc, b, vb);
  EXPECT_THROW(nc.tensor_tensor(d, a, b, AluOp::power, Engine::vector), UsageError);  // power is GpSimd-only
  nc.tensor_tensor(d, a, b, AluOp::power, Engine::gpsimd);
  const auto got = read(d);
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double ref = std::pow(static_cast<double>(va[i]), static_cast<double>(vb[i]));
    EXPECT_LE(std::fabs(got[i] - ref), kEps * std::fabs(ref)) << va[i] << "^" << vb[i];
  }
}

TEST(VectorTensorTensor, ComparisonsAndLogicalOpsGiveOneOrZero) {
  NeuronCore nc;
  const int P = 16, F = 50;
  const Tile a = nc.sbuf().alloc(DType::bf16, P, {F});
  const Tile b = nc.sbuf().alloc(DType::f32, P, {F});
  const Tile d = nc.sbuf().alloc(DType::f32, P, {F});
  std::vector<float> va(P * F), vb(P * F);
  std::mt19937 rng(5);
  for (std::size_t i = 0; i < va.size(); ++i) {  // small integers so that ties and zeros occur
    va[i] = static_cast<float>(static_cast<int>(rng() % 5) - 2);
    vb[i] = static_cast<float>(static_cast<int>(rng() % 5) - 2);
  }
  va[0] = kNaN;  // NaN: comparisons false except not_equal; logically "true"
  upload(nc, a, va);
  upload(nc, b, vb);
  for (AluOp op : {AluOp::equal, AluOp::not_equal, AluOp::greater, AluOp::greater_equal, AluOp::less,
                   AluOp::less_equal, AluOp::logical_and, AluOp::logical_or, AluOp::logical_xor}) {
    nc.tensor_tensor(d, a, b, op);
    const auto got = read(d);
    int ones = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], ref_op(op, va[i], vb[i])) << alu_op_name(op) << " at " << i;
      ones += got[i] == 1.0f;
    }
    EXPECT_GT(ones, 0) << alu_op_name(op);
    EXPECT_LT(ones, P * F) << alu_op_name(op);
  }
}

TEST(VectorTensorTensor, MaximumMinimumPropagateNanAndOrderSignedZeros) {
  NeuronCore nc;
  const Tile a = nc.sbuf().alloc(DType::f32, 1, {6});
  const Tile b = nc.sbuf().alloc(DType::f32, 1, {6});
  const Tile d = nc.sbuf().alloc(DType::f32, 1, {6});
  poke(a, {kNaN, 1.0f, kNaN, -0.0f, 0.0f, -kInfF});
  poke(b, {1.0f, kNaN, kNaN, 0.0f, -0.0f, 3.0f});
  nc.tensor_tensor(d, a, b, AluOp::maximum);
  auto g = read(d);
  EXPECT_TRUE(std::isnan(g[0]) && std::isnan(g[1]) && std::isnan(g[2]));
  EXPECT_TRUE(same_bits(g[3], 0.0f) && same_bits(g[4], 0.0f));  // max(-0, +0) = +0
  EXPECT_EQ(g[5], 3.0f);
  nc.tensor_tensor(d, a, b, AluOp::minimum);
  g = read(d);
  EXPECT_TRUE(std::isnan(g[0]) && std::isnan(g[1]) && std::isnan(g[2]));
  EXPECT_TRUE(same_bits(g[3], -0.0f) && same_bits(g[4], -0.0f));  // min(-0, +0) = -0
  EXPECT_EQ(g[5], -kInfF);
  nc.tensor_tensor(d, a, b, AluOp::abs_max);
  EXPECT_TRUE(std::isnan(read(d)[0]));
}

TEST(VectorTensorTensor, NarrowOutputIsRneOfTheFp32Result) {
  NeuronCore nc;
  const int P = 64, F = 300;
  const Tile a = nc.sbuf().alloc(DType::bf16, P, {F});
  const Tile b = nc.sbuf().alloc(DType::f16, P, {F});
  const Tile d = nc.sbuf().alloc(DType::bf16, P, {F});
  const Tile h = nc.sbuf().alloc(DType::f16, P, {F});
  const auto va = random_values(P * F, DType::bf16, 6, -8.0f, 8.0f);
  const auto vb = random_values(P * F, DType::f16, 7, -8.0f, 8.0f);
  upload(nc, a, va);
  upload(nc, b, vb);
  nc.tensor_tensor(d, a, b, AluOp::multiply);
  nc.tensor_tensor(h, a, b, AluOp::add);
  for (int p = 0; p < P; ++p)
    for (int i = 0; i < F; ++i) {
      const std::size_t k = static_cast<std::size_t>(p * F + i);
      const float prod = va[k] * vb[k];  // the fp32 result
      std::uint16_t got;
      std::memcpy(&got, d.at(p, i), 2);
      ASSERT_EQ(got, f32_to_bf16_rne(prod)) << k;
      std::memcpy(&got, h.at(p, i), 2);
      ASSERT_EQ(got, f32_to_f16_rne(va[k] + vb[k])) << k;
    }
}

TEST(VectorTensorTensor, StochasticRoundingPicksANeighbourAndIsReproducible) {
  CoreConfig cfg;
  cfg.stochastic_rounding = true;
  cfg.sr_seed = 42;
  std::vector<std::uint8_t> first;
  for (int run = 0; run < 2; ++run) {
    NeuronCore nc(cfg);
    const int P = 32, F = 256;
    const Tile a = nc.sbuf().alloc(DType::f32, P, {F});
    const Tile b = nc.sbuf().alloc(DType::f32, P, {F});
    const Tile d = nc.sbuf().alloc(DType::bf16, P, {F});
    const auto va = random_values(P * F, DType::f32, 8);
    const auto vb = random_values(P * F, DType::f32, 9);
    upload(nc, a, va);
    upload(nc, b, vb);
    nc.tensor_tensor(d, a, b, AluOp::add);
    int differs_from_rne = 0;
    for (int k = 0; k < P * F; ++k) {
      const float exact = va[k] + vb[k];
      std::uint16_t got;
      std::memcpy(&got, d.at(k / F, k % F), 2);
      const float g = bf16_to_f32(got);
      const float dn = bf16_to_f32(static_cast<std::uint16_t>(f32_to_bits(exact) >> 16));  // truncation
      const float up = bf16_to_f32(static_cast<std::uint16_t>((f32_to_bits(exact) >> 16) + 1));
      ASSERT_TRUE(g == dn || g == up || g == exact) << k;
      differs_from_rne += got != f32_to_bf16_rne(exact);
    }
    EXPECT_GT(differs_from_rne, P * F / 10);  // SR really is on
    if (run == 0) first = raw_bytes(d);
    else EXPECT_EQ(raw_bytes(d), first);  // same seed, same program, same instruction index -> same bits
  }
}

TEST(VectorTensorTensor, AccessPatternsAndMultiDimTiles) {
  NeuronCore nc;
  const Tile a = nc.sbuf().alloc(DType::f32, 8, {4, 10}, "a");
  const Tile b = nc.sbuf().alloc(DType::f32, 8, {40}, "b");
  const Tile d = nc.sbuf().alloc(DType::f32, 8, {20}, "d");
  const auto va = random_values(8 * 40, DType::f32, 10);
  const auto vb = random_values(8 * 40, DType::f32, 11);
  poke(a, va);
  poke(b, vb);
  // a[:, :, 0:10:2] (strided, 4 x 5) + b[:, 20:40]
  const Tile as = a.slice(1, 0, 5, 2);
  nc.tensor_tensor(d, as, b.cols(20, 20), AluOp::subtract);
  for (int p = 0; p < 8; ++p)
    for (int i = 0; i < 20; ++i) {
      const float x = va[p * 40 + (i / 5) * 10 + (i % 5) * 2], y = vb[p * 40 + 20 + i];
      ASSERT_EQ(load_as_f32(DType::f32, d.at(p, i)), x - y);
    }
}

// fp32 operands with equal dense innermost runs are combined run by run in place (the host's fast
// path): a PSUM input, a table broadcast over blocks through a stride-0 dimension, in place, and a
// destination overlapping its input one run further on (which must still read the input row first).
TEST(VectorTensorTensor, RunWiseOperandsBroadcastTablesAndShiftedOverlap) {
  NeuronCore nc;
  const int P = 16, B = 4, L = 24;
  const Tile y = nc.psum().alloc(DType::f32, P, {B * L}, "psum y");
  const Tile table = nc.sbuf().alloc(DType::f32, P, {L}, "table");
  const Tile out = nc.sbuf().alloc(DType::f32, P, {(B + 1) * L}, "out");
  const auto vy = random_values(P * B * L, DType::f32, 31), vt = random_values(P * L, DType::f32, 32);
  poke(y, vy);
  poke(table, vt);
  Tile bcast = table;  // [P, B, L] with stride 0 over the blocks
  bcast.ndim = 2;
  bcast.size = {B, L, 1, 1};
  bcast.stride = {0, 1, 0, 0};
  const Tile dst = out.cols(0, B * L).reshape({B, L});
  Tile ysh = y;
  ysh.ndim = 2;
  ysh.size = {B, L, 1, 1};
  ysh.stride = {L, 1, 0, 0};
  nc.tensor_tensor(dst, ysh, bcast, AluOp::multiply);
  auto at = [](const Tile& t, int p, int i) { return load_as_f32(DType::f32, t.at(p, i)); };
  for (int p = 0; p < P; ++p)
    for (int i = 0; i < B * L; ++i)
      ASSERT_TRUE(same_bits(at(out, p, i), vy[static_cast<std::size_t>(p * B * L + i)] * vt[static_cast<std::size_t>(p * L + i % L)]));
  // In place: dst is a's own view.
  std::vector<float> before(static_cast<std::size_t>(P * B * L));
  for (int p = 0; p < P; ++p)
    for (int i = 0; i < B * L; ++i) before[static_cast<std::size_t>(p * B * L + i)] = at(out, p, i);
  nc.tensor_tensor(dst, dst, bcast, AluOp::subtract);
  for (int p = 0; p < P; ++p)
    for (int i = 0; i < B * L; ++i)
      ASSERT_TRUE(same_bits(at(out, p, i), before[static_cast<std::size_t>(p * B * L + i)] - vt[static_cast<std::size_t>(p * L + i % L)]));
  // Destination one run further on inside the input's bytes: every input element is read before
  // the row is written (as if through a copy), not the freshly written values.
  for (int p = 0; p < P; ++p)
    for (int i = 0; i < B * L; ++i) before[static_cast<std::size_t>(p * B * L + i)] = at(out, p, i);
  const Tile shifted = out.cols(L, B * L).reshape({B, L});
  nc.tensor_tensor(shifted, dst, bcast, AluOp::add);
  for (int p = 0; p < P; ++p)
    for (int i = 0; i < B * L; ++i)
      ASSERT_TRUE(same_bits(at(out, p, L + i), before[static_cast<std::size_t>(p * B * L + i)] + vt[static_cast<std::size_t>(p * L + i % L)]))
          << p << "," << i;
}

TEST(VectorTensorTensor, OnePsumInputIsAllowedBothAreNot) {
  NeuronCore nc;
  const Tile ps = nc.psum().alloc(DType::f32, 128, {64}, "ps");
  const Tile ps2 = nc.psum().alloc(DType::f32, 128, {64}, "ps2");
  const Tile sb = nc.sbuf().alloc(DType::f32, 128, {64}, "sb");
  const Tile d = nc.sbuf().alloc(DType::f32, 128, {64}, "d");
  const auto v = random_values(128 * 64, DType::f32, 12);
  poke(ps, v);
  poke(ps2, v);
  poke(sb, v);
  nc.tensor_tensor(d, ps, sb, AluOp::add);
  EXPECT_EQ(read(d)[77], v[77] + v[77]);
  nc.memset(d, 7.0f);
  const auto before = raw_bytes(d);
  const auto count = nc.instruction_count();
  const auto traced = nc.trace().instructions.size();
  expect_error<UsageError>([&] { nc.tensor_tensor(d, ps, ps2, AluOp::add); },
                           {"tensor_tensor", "'b'", "inputs 'a' and 'b' cannot both reside in PSUM"});
  EXPECT_EQ(raw_bytes(d), before);  // nothing written
  EXPECT_EQ(nc.instruction_count(), count);
  EXPECT_EQ(nc.trace().instructions.size(), traced);
}

TEST(VectorTensorTensor, OperandChecksNameInstructionOperandValueAndLimit) {
  NeuronCore nc;
  const Tile a = nc.sbuf().alloc(DType::f32, 64, {16}, "a");
  const Tile b = nc.sbuf().alloc(DType::f32, 32, {16}, "b");
  const Tile d = nc.sbuf().alloc(DType::f32, 64, {16}, "d");
  const Tile d17 = nc.sbuf().alloc(DType::f32, 64, {17}, "d17");
  expect_error<LimitError>([&] { nc.tensor_tensor(d, a, b, AluOp::add); }, {"tensor_tensor", "'b'", "partitions", "32", "64"});
  expect_error<LimitError>([&] { nc.tensor_tensor(d17, a, a, AluOp::add); }, {"tensor_tensor", "'dst'", "free size", "17", "16"});
  // 64 partitions starting at 32: start must be a multiple of 64.
  const Tile mis = nc.sbuf().alloc(DType::f32, 64, {16}, "mis", 32);
  expect_error<LimitError>([&] { nc.tensor_tensor(d, mis, a, AluOp::add); }, {"tensor_tensor", "'a'", "partition start", "32", "64"});
  // HBM operands are not engine operands.
  HbmTensor h(DType::f32, {64, 16});
  expect_error<UsageError>([&] { nc.tensor_tensor(d, a, h.tile(0, 64, 0, 16), AluOp::add); }, {"tensor_tensor", "'b'", "HBM"});
  // Engine.
  expect_error<UsageError>([&] { nc.tensor_tensor(d, a, a, AluOp::add, Engine::scalar); }, {"tensor_tensor", "engine", "ScalarE"});
  // Free-size limits: 4K elements from PSUM, 64K from SBUF.
  const Tile big_ps = nc.psum().alloc(DType::bf16, 4, {5000}, "big_ps");
  const Tile big_sb = nc.sbuf().alloc(DType::bf16, 4, {5000}, "big_sb");
  expect_error<LimitError>([&] { nc.tensor_tensor(big_sb, big_ps, big_sb, AluOp::add); }, {"tensor_tensor", "'a'", "5000", "4096"});
  const Tile huge = nc.sbuf().alloc(DType::u8, 4, {70000}, "huge");
  expect_error<LimitError>([&] { nc.tensor_tensor(huge, huge, huge, AluOp::add); }, {"tensor_tensor", "70000", "65536"});
  // GpSimd cannot read PSUM.
  const Tile ps = nc.psum().alloc(DType::f32, 64, {16}, "ps");
  expect_error<UsageError>([&] { nc.tensor_tensor(d, ps, a, AluOp::add, Engine::gpsimd); }, {"tensor_tensor", "'a'", "PSUM"});
  // bitvec ops need integers.
  expect_error<UsageError>([&] { nc.tensor_tensor(d, a, a, AluOp::bitwise_and); }, {"tensor_tensor", "'a'", "bitwise_and", "integer"});
}

TEST(VectorTensorTensor, TraceRecordsEngineShapesAndInputs) {
  NeuronCore nc;
  const Tile a = nc.sbuf().alloc(DType::bf16, 128, {512});
  const Tile b = nc.sbuf().alloc(DType::bf16, 128, {512});
  const Tile d = nc.sbuf().alloc(DType::f32, 128, {512});
  nc.memset(a, 1.0f);
  nc.memset(b, 2.0f, Engine::gpsimd);
  nc.tensor_tensor(d, a, b, AluOp::add, Engine::gpsimd);
  const Instruction& ins = nc.trace().instructions.back();
  EXPECT_EQ(ins.opcode, Opcode::tensor_tensor);
  EXPECT_EQ(ins.engine, Engine::gpsimd);
  EXPECT_EQ(ins.inputs, 2);
  EXPECT_EQ(ins.partitions, 128);
  EXPECT_EQ(ins.free_elems, 512);
  EXPECT_EQ(ins.bytes_read, 2 * 128 * 512 * 2);
  EXPECT_EQ(ins.bytes_written, 128 * 512 * 4);
  EXPECT_EQ(nc.trace().per_engine[static_cast<int>(Engine::gpsimd)], 2);
  EXPECT_EQ(read(d)[1000], 3.0f);
}

// ---- integers -----------------------------------------------------------------------------------

struct IntCase {
  std::uint32_t a, b;
};

TEST(VectorTensorTensor, BitvecOpsActOnBitPatternsExactly) {
  for (Numerics num : {Numerics::ideal, Numerics::trn1_measured}) {
    for (Engine eng : {Engine::vector, Engine::gpsimd}) {
      if (num == Numerics::trn1_measured && eng == Engine::vector) continue;  // I1308 model: separate test
      CoreConfig cfg;
      cfg.numerics = num;
      NeuronCore nc(cfg);
      const int P = 8, F = 100;
      const Tile a = nc.sbuf().alloc(DType::u32, P, {F});
      const Tile b = nc.sbuf().alloc(DType::u32, P, {F});
      const Tile d = nc.sbuf().alloc(DType::u32, P, {F});
      std::mt19937 rng(13);
      std::vector<std::int64_t> va(P * F), vb(P * F), sh(P * F);
      for (std::size_t i = 0; i < va.size(); ++i) {
        va[i] = rng();
        vb[i] = rng();
        sh[i] = rng() % 40;  // includes shifts >= 32 (-> 0)
      }
      poke_int(a, va);
      for (AluOp op : {AluOp::bitwise_and, AluOp::bitwise_or, AluOp::bitwise_xor, AluOp::left_shift, AluOp::right_shift}) {
        const bool shift = op == AluOp::left_shift || op == AluOp::right_shift;
        poke_int(b, shift ? sh : vb);
        nc.tensor_tensor(d, a, b, op, eng);
        const auto got = read_int(d);
        for (std::size_t i = 0; i < got.size(); ++i) {
          const auto x = static_cast<std::uint32_t>(va[i]);
          const auto y = static_cast<std::uint32_t>(shift ? sh[i] : vb[i]);
          std::uint32_t ref = 0;
          switch (op) {
            case AluOp::bitwise_and: ref = x & y; break;
            case AluOp::bitwise_or: ref = x | y; break;
            case AluOp::bitwise_xor: ref = x ^ y; break;
            case AluOp::left_shift: ref = y >= 32 ? 0 : x << y; break;
            default: ref = y >= 32 ? 0 : x >> y; break;
          }
          ASSERT_EQ(got[i], ref) << alu_op_name(op) << " " << numerics_name(num) << " " << engine_name(eng);
        }
      }
    }
  }
}

TEST(VectorTensorTensor, BitvecOnNarrowAndSignedDtypesTruncatesToDstWidth) {
  NeuronCore nc;
  const Tile a = nc.sbuf().alloc(DType::u8, 1, {3});
  const Tile s = nc.sbuf().alloc(DType::u8, 1, {3});
  const Tile d = nc.sbuf().alloc(DType::u8, 1, {3});
  poke_int(a, {0x80, 0xF0, 0x01});
  poke_int(s, {1, 4, 7});
  nc.tensor_tensor(d, a, s, AluOp::left_shift);
  EXPECT_EQ(read_int(d), (std::vector<std::int64_t>{0x00, 0x00, 0x80}));  // bits shifted out of the byte are lost
  // int8 -1 is the pattern 0xFF (zero-extended): logical right shift gives 0x7F; into int16: 0x00FF | ...
  const Tile i8 = nc.sbuf().alloc(DType::i8, 1, {3});
  const Tile i16 = nc.sbuf().alloc(DType::i16, 1, {3});
  poke_int(i8, {-1, -128, 5});
  nc.tensor_tensor(i16, i8, s, AluOp::right_shift);
  EXPECT_EQ(read_int(i16), (std::vector<std::int64_t>{0x7F, 0x08, 0}));
  const Tile i8o = nc.sbuf().alloc(DType::i8, 1, {3});
  nc.tensor_tensor(i8o, i8, i8, AluOp::bitwise_or);
  EXPECT_EQ(read_int(i8o), (std::vector<std::int64_t>{-1, -128, 5}));  // pattern read back as signed
}

TEST(VectorTensorTensor, IntegerArithmeticIsExactInIdealAndFp32RoutedInTrn1Measured) {
  // uint32: 0xFFFF * 0xD251 = 0xD250_2DAF fits in 32 bits but needs 32 significant bits.
  const std::vector<IntCase> cases = {{0xFFFFu, 0xD251u}, {0x7FFFFFFFu, 0xD251u}, {0x01000001u, 1u},
                                      {0xFFFFFFFFu, 0u}, {0x7FFFFFFFu, 1u}};
  for (Numerics num : {Numerics::ideal, Numerics::trn1_measured}) {
    CoreConfig cfg;
    cfg.numerics = num;
    NeuronCore nc(cfg);
    const int n = static_cast<int>(cases.size());
    const Tile a = nc.sbuf().alloc(DType::u32, 1, {n});
    const Tile b = nc.sbuf().alloc(DType::u32, 1, {n});
    const Tile d = nc.sbuf().alloc(DType::u32, 1, {n});
    const Tile g = nc.sbuf().alloc(DType::u32, 1, {n});
    std::vector<std::int64_t> va, vb;
    for (auto c : cases) {
      va.push_back(c.a);
      vb.push_back(c.b);
    }
    poke_int(a, va);
    poke_int(b, vb);
    for (AluOp op : {AluOp::multiply, AluOp::add}) {
      nc.tensor_tensor(d, a, b, op);                  // VectorE
      nc.tensor_tensor(g, a, b, op, Engine::gpsimd);  // GpSimdE: native in both profiles
      const auto got = read_int(d), got_g = read_int(g);
      for (int i = 0; i < n; ++i) {
        const std::uint64_t x = cases[i].a, y = cases[i].b;
        const std::uint64_t exact = op == AluOp::multiply ? x * y : x + y;
        const std::int64_t saturated = static_cast<std::int64_t>(std::min<std::uint64_t>(exact, 0xFFFFFFFFu));
        EXPECT_EQ(got_g[i], saturated) << "GpSimd " << alu_op_name(op) << " case " << i;
        if (num == Numerics::ideal) {
          EXPECT_EQ(got[i], saturated) << alu_op_name(op) << " case " << i;
        } else {
          const float fx = static_cast<float>(x), fy = static_cast<float>(y);
          const float fr = op == AluOp::multiply ? fx * fy : fx + fy;
          EXPECT_EQ(got[i], f32_to_int_saturate(DType::u32, fr)) << alu_op_name(op) << " case " << i;
        }
      }
      if (num == Numerics::trn1_measured && op == AluOp::multiply) {
        EXPECT_NE(got[0], 0xFFFFLL * 0xD251LL);  // the low bits are lost (I1308)
        EXPECT_EQ(got[0] >> 8, (0xFFFFLL * 0xD251LL + 0x80) >> 8);
      }
      if (num == Numerics::trn1_measured && op == AluOp::add) {
        EXPECT_EQ(got[4], 0x80000000LL);  // 0x7FFFFFFF + 1: right by luck (2^31 + 1 rounds to 2^31)
        EXPECT_EQ(got[2], 0x01000000LL);  // (2^24 + 1) + 1: exact 2^24 + 2, through fp32 2^24
      }
    }
  }
}

TEST(VectorTensorTensor, SignedIntegerArithmeticSaturatesToDst) {
  NeuronCore nc;
  const Tile a = nc.sbuf().alloc(DType::i32, 1, {4});
  const Tile b = nc.sbuf().alloc(DType::i32, 1, {4});
  const Tile d = nc.sbuf().alloc(DType::i32, 1, {4});
  const Tile d8 = nc.sbuf().alloc(DType::i8, 1, {4});
  poke_int(a, {INT32_MAX, INT32_MIN, -100000, 123456789});
  poke_int(b, {1, 1, 100000, -987654321});
  nc.tensor_tensor(d, a, b, AluOp::add);
  EXPECT_EQ(read_int(d), (std::vector<std::int64_t>{INT32_MAX, INT32_MIN + 1, 0, 123456789LL - 987654321LL}));
  nc.tensor_tensor(d, a, b, AluOp::subtract);
  EXPECT_EQ(read_int(d), (std::vector<std::int64_t>{INT32_MAX - 1, INT32_MIN, -200000, 123456789LL + 987654321LL}));
  nc.tensor_tensor(d, a, b, AluOp::multiply);
  EXPECT_EQ(read_int(d), (std::vector<std::int64_t>{INT32_MAX, INT32_MIN, INT32_MIN, INT32_MIN}));
  nc.tensor_tensor(d8, a, b, AluOp::abs_max);
  EXPECT_EQ(read_int(d8), (std::vector<std::int64_t>{127, 127, 127, 127}));
  nc.tensor_tensor(d, a, b, AluOp::greater);
  EXPECT_EQ(read_int(d), (std::vector<std::int64_t>{1, 0, 0, 1}));
}

// The Philox mulhi through 16-bit limbs, as trnrand writes it on the engines: exact in the ideal
// profile and on GpSimdE; in trn1_measured on VectorE every product above 2^24 loses low bits and
// the high word comes out wrong in its low bits (aws-neuron-sdk I1308).
std::uint32_t mulhi_on_engines(NeuronCore& nc, std::uint32_t a, std::uint32_t b, Engine eng) {
  auto t = [&](const char* name) { return nc.sbuf().alloc(DType::u32, 1, {1}, name); };
  const Tile A = t("A"), B = t("B"), al = t("al"), ah = t("ah"), bl = t("bl"), bh = t("bh");
  const Tile ll = t("ll"), lh = t("lh"), hl = t("hl"), hh = t("hh"), mid = t("mid"), tmp = t("tmp"), hi = t("hi");
  store_int(DType::u32, A.at(0, 0), a);
  store_int(DType::u32, B.at(0, 0), b);
  const Engine bit = Engine::vector;  // tensor_scalar bitvec ops are VectorE-only
  nc.tensor_scalar(al, A, AluOp::bitwise_and, 65535.0f, AluOp::bypass, 0.0f, bit);
  nc.tensor_scalar(ah, A, AluOp::right_shift, 16.0f, AluOp::bypass, 0.0f, bit);
  nc.tensor_scalar(bl, B, AluOp::bitwise_and, 65535.0f, AluOp::bypass, 0.0f, bit);
  nc.tensor_scalar(bh, B, AluOp::right_shift, 16.0f, AluOp::bypass, 0.0f, bit);
  nc.tensor_tensor(ll, al, bl, AluOp::multiply, eng);
  nc.tensor_tensor(lh, al, bh, AluOp::multiply, eng);
  nc.tensor_tensor(hl, ah, bl, AluOp::multiply, eng);
  nc.tensor_tensor(hh, ah, bh, AluOp::multiply, eng);
  // mid = (ll >> 16) + (lh & 0xFFFF) + (hl & 0xFFFF)
  nc.tensor_scalar(mid, ll, AluOp::right_shift, 16.0f, AluOp::bypass, 0.0f, bit);
  nc.tensor_scalar(tmp, lh, AluOp::bitwise_and, 65535.0f, AluOp::bypass, 0.0f, bit);
  nc.tensor_tensor(mid, mid, tmp, AluOp::add, eng);
  nc.tensor_scalar(tmp, hl, AluOp::bitwise_and, 65535.0f, AluOp::bypass, 0.0f, bit);
  nc.tensor_tensor(mid, mid, tmp, AluOp::add, eng);
  // hi = hh + (lh >> 16) + (hl >> 16) + (mid >> 16)
  nc.tensor_scalar(tmp, lh, AluOp::right_shift, 16.0f, AluOp::bypass, 0.0f, bit);
  nc.tensor_tensor(hi, hh, tmp, AluOp::add, eng);
  nc.tensor_scalar(tmp, hl, AluOp::right_shift, 16.0f, AluOp::bypass, 0.0f, bit);
  nc.tensor_tensor(hi, hi, tmp, AluOp::add, eng);
  nc.tensor_scalar(tmp, mid, AluOp::right_shift, 16.0f, AluOp::bypass, 0.0f, bit);
  nc.tensor_tensor(hi, hi, tmp, AluOp::add, eng);
  return static_cast<std::uint32_t>(load_as_int(DType::u32, hi.at(0, 0)));
}

TEST(VectorTensorTensor, PhiloxMulhiIsExactInIdealAndClobberedInTrn1Measured) {
  const std::uint32_t a = 0x7FFFFFFFu, m = 0xD2511F53u;  // Philox M0
  const auto exact = static_cast<std::uint32_t>((std::uint64_t{a} * m) >> 32);
  CoreConfig ideal;
  NeuronCore nc_ideal(ideal);
  EXPECT_EQ(mulhi_on_engines(nc_ideal, a, m, Engine::vector), exact);
  CoreConfig measured;
  measured.numerics = Numerics::trn1_measured;
  NeuronCore nc_meas(measured);
  const std::uint32_t wrong = mulhi_on_engines(nc_meas, a, m, Engine::vector);
  EXPECT_NE(wrong, exact);
  EXPECT_EQ(wrong >> 16, exact >> 16);  // only the low bits are clobbered
}

TEST(VectorTensorTensor, Trn1MeasuredBitvecLosesLowBitsOfLargeOperands) {
  CoreConfig cfg;
  cfg.numerics = Numerics::trn1_measured;
  NeuronCore nc(cfg);
  const Tile a = nc.sbuf().alloc(DType::u32, 1, {3});
  const Tile b = nc.sbuf().alloc(DType::u32, 1, {3});
  const Tile d = nc.sbuf().alloc(DType::u32, 1, {3});
  poke_int(a, {0x7FFFFFFF, 0x01000001, 0x00FFFFFF});
  poke_int(b, {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF});
  nc.tensor_tensor(d, a, b, AluOp::bitwise_and);
  // 0x7FFFFFFF -> 2^31 in fp32 -> 0x80000000 (the I1308 pattern); 2^24 + 1 -> 2^24; below 2^24 exact.
  EXPECT_EQ(read_int(d), (std::vector<std::int64_t>{0x80000000LL, 0x01000000LL, 0x00FFFFFFLL}));
  nc.tensor_tensor(d, a, b, AluOp::bitwise_and, Engine::gpsimd);  // GpSimdE stays exact
  EXPECT_EQ(read_int(d), (std::vector<std::int64_t>{0x7FFFFFFFLL, 0x01000001LL, 0x00FFFFFFLL}));
}

// ================================================================================================
// tensor_scalar
// ================================================================================================

TEST(VectorTensorScalar, TwoOpsWithImmediatesAndReverseFlags) {
  NeuronCore nc;
  const int P = 128, F = 96;
  const Tile s = nc.sbuf().alloc(DType::f32, P, {F});
  const Tile d = nc.sbuf().alloc(DType::f32, P, {F});
  const auto v = random_values(P * F, DType::f32, 20, -10.0f, 10.0f);
  upload(nc, s, v);
  const float s0 = 1.7f, s1 = -0.37f;
  for (int rev = 0; rev < 4; ++rev) {
    const bool r0 = rev & 1, r1 = rev & 2;
    nc.tensor_scalar(d, s, AluOp::subtract, s0, AluOp::divide, s1, Engine::vector, r0, r1);
    const auto got = read(d);
    for (std::size_t i = 0; i < got.size(); ++i) {
      const float t = r0 ? ref_op(AluOp::subtract, s0, v[i]) : ref_op(AluOp::subtract, v[i], s0);
      const float ref = r1 ? ref_op(AluOp::divide, s1, t) : ref_op(AluOp::divide, t, s1);
      ASSERT_TRUE(same_bits(got[i], ref)) << "reverse " << rev << " at " << i;
    }
  }
  nc.tensor_scalar(d, s, AluOp::maximum, 0.0f);  // relu; op1 = bypass
  const auto got = read(d);
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], std::max(v[i], 0.0f));
}

// Dense fp32 rows take one fused pass for (add, subtract, multiply, divide) x (bypass or one of
// them); strided views take the row-by-row path. Both must give the same bits for every op pair and
// reverse flag, with NaN payloads in the source and in the scalars (one NaN operand, and both),
// infinities, signed zeros and subnormals, rows that are not a multiple of 16 lanes, and dst either
// the source itself or another tile.
TEST(VectorTensorScalar, FusedDenseRowsGiveTheBitsOfTheRowByRowPath) {
  NeuronCore nc;
  const int P = 48, F = 37;
  std::mt19937 rng(77);
  const std::uint32_t specials[] = {0x7fc00001u, 0xffc12345u, 0x7fa00000u /* signalling */, 0x7f800000u, 0xff800000u,
                                    0x80000000u, 0x00000000u, 0x00000007u, 0x80400000u, 0x3f800000u};
  std::vector<std::uint32_t> src_bits(static_cast<std::size_t>(P * F));
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  for (std::size_t i = 0; i < src_bits.size(); ++i)
    src_bits[i] = i % 5 == 0 ? specials[(i / 5) % std::size(specials)] : std::bit_cast<std::uint32_t>(u(rng));
  auto poke_bits = [](const Tile& t, const std::vector<std::uint32_t>& bits) {
    for (int p = 0; p < t.partitions; ++p)
      for (std::int64_t i = 0; i < t.free_size(); ++i)
        std::memcpy(t.at(p, i), &bits[static_cast<std::size_t>(p * t.free_size() + i)], 4);
  };
  const Tile dense = nc.sbuf().alloc(DType::f32, P, {F}), out = nc.sbuf().alloc(DType::f32, P, {F});
  const Tile wide = nc.sbuf().alloc(DType::f32, P, {2 * F}), wide_out = nc.sbuf().alloc(DType::f32, P, {2 * F});
  const Tile strided = wide.slice(0, 0, F, 2), strided_out = wide_out.slice(0, 0, F, 2);
  const Tile col0 = nc.sbuf().alloc(DType::f32, P, {1}), col1 = nc.sbuf().alloc(DType::f32, P, {1});
  std::vector<std::uint32_t> c0(static_cast<std::size_t>(P)), c1(static_cast<std::size_t>(P));
  for (int p = 0; p < P; ++p) {
    c0[static_cast<std::size_t>(p)] = p % 7 == 0 ? specials[static_cast<std::size_t>(p / 7) % std::size(specials)]
                                                 : std::bit_cast<std::uint32_t>(u(rng));
    c1[static_cast<std::size_t>(p)] = p % 5 == 1 ? 0xffc0beefu : std::bit_cast<std::uint32_t>(u(rng));
  }
  poke_bits(col0, c0);
  poke_bits(col1, c1);
  const AluOp ops[] = {AluOp::add, AluOp::subtract, AluOp::multiply, AluOp::divide};
  int cases = 0;
  for (const AluOp op0 : ops)
    for (const AluOp op1 : {AluOp::bypass, AluOp::add, AluOp::subtract, AluOp::multiply, AluOp::divide})
      for (int rev = 0; rev < 4; ++rev)
        for (int form = 0; form < 3; ++form) {  // immediates; [P,1] tiles; a NaN immediate
          const bool r0 = rev & 1, r1 = rev & 2;
          const ScalarOperand s0 = form == 1 ? ScalarOperand(col0) : ScalarOperand(form == 2 ? kNaN : 1.25f);
          const ScalarOperand s1 = form == 1 ? ScalarOperand(col1) : ScalarOperand(-0.75f);
          std::vector<std::uint32_t> wide_bits(static_cast<std::size_t>(P * 2 * F), 0u);
          for (int p = 0; p < P; ++p)
            for (int i = 0; i < F; ++i)
              wide_bits[static_cast<std::size_t>(p * 2 * F + 2 * i)] = src_bits[static_cast<std::size_t>(p * F + i)];
          poke_bits(wide, wide_bits);
          nc.tensor_scalar(strided_out, strided, op0, s0, op1, s1, Engine::vector, r0, r1);
          const auto want = read_bits(strided_out);
          poke_bits(dense, src_bits);
          // The first element whose bits differ from the row-by-row path's (none: the size).
          const auto first_difference = [&](const std::vector<std::uint32_t>& got) {
            std::size_t i = 0;
            while (i < got.size() && got[i] == want[i]) ++i;
            return i;
          };
          nc.tensor_scalar(out, dense, op0, s0, op1, s1, Engine::vector, r0, r1);
          std::size_t i = first_difference(read_bits(out));
          ASSERT_EQ(i, want.size()) << alu_op_name(op0) << ", " << alu_op_name(op1) << " reverse " << rev << " form "
                                    << form << ": element " << i << " (source bits " << std::hex << src_bits[i]
                                    << ") gives " << read_bits(out)[i] << ", row by row " << want[i];
          nc.tensor_scalar(dense, dense, op0, s0, op1, s1, Engine::vector, r0, r1);
          i = first_difference(read_bits(dense));
          ASSERT_EQ(i, want.size()) << "in place: " << alu_op_name(op0) << ", " << alu_op_name(op1) << " reverse "
                                    << rev << " form " << form << ": element " << i;
          ++cases;
        }
  EXPECT_EQ(cases, 240);
}

TEST(VectorTensorScalar, PerPartitionScalarTilesAndBf16Output) {
  NeuronCore nc;
  const int P = 64, F = 40;
  const Tile s = nc.sbuf().alloc(DType::bf16, P, {F});
  const Tile d = nc.sbuf().alloc(DType::bf16, P, {F});
  const Tile mul = nc.sbuf().alloc(DType::f32, P, {1}, "mul");
  const Tile add = nc.psum().alloc(DType::f32, P, {1}, "add");  // VectorE may read a PSUM scalar column
  const auto v = random_values(P * F, DType::bf16, 21, -4.0f, 4.0f);
  const auto vm = random_values(P, DType::f32, 22, 0.5f, 2.0f);
  const auto va = random_values(P, DType::f32, 23, -1.0f, 1.0f);
  upload(nc, s, v);
  poke(mul, vm);
  poke(add, va);
  nc.tensor_scalar(d, s, AluOp::multiply, mul, AluOp::add, add);
  for (int p = 0; p < P; ++p)
    for (int i = 0; i < F; ++i) {
      const float r = v[p * F + i] * vm[p] + va[p];  // fp32, two roundings (no FMA: -ffp-contract=off)
      std::uint16_t got;
      std::memcpy(&got, d.at(p, i), 2);
      ASSERT_EQ(got, f32_to_bf16_rne(r)) << p << "," << i;
    }
}

TEST(VectorTensorScalar, ScalarEngineOnlyOnTrn2WithItsOpPairs) {
  {
    NeuronCore nc;  // trn1
    const Tile s = nc.sbuf().alloc(DType::f32, 4, {8});
    nc.memset(s, 1.0f);
    expect_error<NotSupportedError>([&] { nc.tensor_scalar(s, s, AluOp::multiply, 2.0f, AluOp::add, 1.0f, Engine::scalar); },
                                    {"tensor_scalar", "ScalarE", "trn1"});
  }
  CoreConfig cfg;
  cfg.generation = Generation::trn2;
  NeuronCore nc(cfg);
  const Tile s = nc.sbuf().alloc(DType::f32, 4, {8});
  const Tile d = nc.sbuf().alloc(DType::f32, 4, {8});
  nc.memset(s, 1.5f);
  nc.tensor_scalar(d, s, AluOp::multiply, 2.0f, AluOp::add, 1.0f, Engine::scalar);
  EXPECT_EQ(read(d)[31], 4.0f);
  EXPECT_EQ(nc.trace().instructions.back().engine, Engine::scalar);
  nc.tensor_scalar(d, s, AluOp::add, 2.0f, AluOp::bypass, 0.0f, Engine::scalar);
  EXPECT_EQ(read(d)[0], 3.5f);
  expect_error<UsageError>([&] { nc.tensor_scalar(d, s, AluOp::subtract, 2.0f, AluOp::bypass, 0.0f, Engine::scalar); },
                           {"tensor_scalar", "subtract", "ScalarE"});
  expect_error<UsageError>([&] { nc.tensor_scalar(d, s, AluOp::add, 2.0f, AluOp::multiply, 0.0f, Engine::scalar); },
                           {"tensor_scalar", "(add, multiply)"});
}

TEST(VectorTensorScalar, OperandChecks) {
  NeuronCore nc;
  const Tile s = nc.sbuf().alloc(DType::u32, 32, {8}, "s");
  const Tile d = nc.sbuf().alloc(DType::u32, 32, {8}, "d");
  const Tile col16 = nc.sbuf().alloc(DType::f32, 16, {1}, "col16");
  const Tile col2 = nc.sbuf().alloc(DType::f32, 32, {2}, "col2");
  const Tile ps = nc.psum().alloc(DType::f32, 32, {8}, "ps");
  nc.memset(d, 5.0f);
  const auto before = raw_bytes(d);
  expect_error<LimitError>([&] { nc.tensor_scalar(d, s, AluOp::add, col16); }, {"tensor_scalar", "'operand0'", "partitions", "16", "32"});
  expect_error<LimitError>([&] { nc.tensor_scalar(d, s, AluOp::add, 1.0f, AluOp::add, col2); }, {"tensor_scalar", "'operand1'", "free size", "2", "1"});
  expect_error<UsageError>([&] { nc.tensor_scalar(d, s, AluOp::bitwise_and, 3.0f, AluOp::add, 1.0f); }, {"tensor_scalar", "'op1'", "both be bitvec"});
  expect_error<UsageError>([&] { nc.tensor_scalar(d, s, AluOp::bitwise_and, 3.0f, AluOp::bypass, 0.0f, Engine::gpsimd); },
                           {"tensor_scalar", "VectorE only", "GpSimdE"});
  expect_error<UsageError>([&] { nc.tensor_scalar(d, s, AluOp::left_shift, 1.5f); }, {"tensor_scalar", "'operand0'", "whole number"});
  expect_error<UsageError>([&] { nc.tensor_scalar(d, s, AluOp::bitwise_and, 4294967296.0f); }, {"tensor_scalar", "'operand0'"});
  expect_error<UsageError>([&] { nc.tensor_scalar(d, ps, AluOp::add, 1.0f, AluOp::bypass, 0.0f, Engine::gpsimd); },
                           {"tensor_scalar", "'src'", "PSUM"});
  const Tile f = nc.sbuf().alloc(DType::f32, 32, {8}, "f");
  expect_error<UsageError>([&] { nc.tensor_scalar(f, f, AluOp::right_shift, 1.0f); }, {"tensor_scalar", "'src'", "integer"});
  EXPECT_EQ(raw_bytes(d), before);
}

TEST(VectorTensorScalar, BitvecWithImmediatesAndIntegerTiles) {
  for (Numerics num : {Numerics::ideal, Numerics::trn1_measured}) {
    CoreConfig cfg;
    cfg.numerics = num;
    NeuronCore nc(cfg);
    const Tile s = nc.sbuf().alloc(DType::u32, 2, {4});
    const Tile d = nc.sbuf().alloc(DType::u32, 2, {4});
    const Tile k = nc.sbuf().alloc(DType::u16, 2, {1});
    const std::vector<std::int64_t> v = {0x12345678, 0xDEADBEEF, 0x00ABCDEF, 0x7FFFFFFF,
                                         0x00000001, 0x00FFFFFF, 0x80000000, 0xFFFFFFFF};
    poke_int(s, v);
    poke_int(k, {0x00F0, 0xFFFF});
    // (x >> 8) & 0xFF
    nc.tensor_scalar(d, s, AluOp::right_shift, 8.0f, AluOp::bitwise_and, 255.0f);
    auto got = read_int(d);
    for (std::size_t i = 0; i < v.size(); ++i) {
      std::int64_t x = v[i];
      if (num == Numerics::trn1_measured) x = f32_to_int_saturate(DType::u32, static_cast<float>(x));
      EXPECT_EQ(got[i], (static_cast<std::uint32_t>(x) >> 8) & 0xFFu) << numerics_name(num) << " " << i;
    }
    // x ^ k with a per-partition uint16 [P,1] tile.
    nc.tensor_scalar(d, s, AluOp::bitwise_xor, k);
    got = read_int(d);
    if (num == Numerics::ideal) {
      for (std::size_t i = 0; i < v.size(); ++i) EXPECT_EQ(got[i], v[i] ^ (i < 4 ? 0x00F0 : 0xFFFF)) << i;
    } else {
      EXPECT_EQ(got[1], (0xDEADBF00LL) ^ 0x00F0);  // 0xDEADBEEF rounds to 0xDEADBF00 in fp32
    }
    // reverse0: 16 << x (the immediate is the shifted value); 16 << 31 and shifts >= 32 give 0.
    poke_int(s, {0, 1, 2, 3, 4, 31, 32, 40});
    nc.tensor_scalar(d, s, AluOp::left_shift, 16.0f, AluOp::bypass, 0.0f, Engine::vector, /*reverse0=*/true);
    EXPECT_EQ(read_int(d), (std::vector<std::int64_t>{16, 32, 64, 128, 256, 0, 0, 0}));
  }
}

TEST(VectorTensorScalar, IntegerArithmeticWithIntegralImmediates) {
  for (Numerics num : {Numerics::ideal, Numerics::trn1_measured}) {
    CoreConfig cfg;
    cfg.numerics = num;
    NeuronCore nc(cfg);
    const Tile s = nc.sbuf().alloc(DType::i32, 1, {4});
    const Tile d = nc.sbuf().alloc(DType::i32, 1, {4});
    const Tile g = nc.sbuf().alloc(DType::i32, 1, {4});
    const std::vector<std::int64_t> v = {16777217, -33554433, 100, 715827883};
    poke_int(s, v);
    nc.tensor_scalar(d, s, AluOp::multiply, 3.0f, AluOp::add, 7.0f);
    nc.tensor_scalar(g, s, AluOp::multiply, 3.0f, AluOp::add, 7.0f, Engine::gpsimd);
    const auto got = read_int(d), got_g = read_int(g);
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::int64_t exact = std::min<std::int64_t>(v[i] * 3 + 7, INT32_MAX);
      EXPECT_EQ(got_g[i], exact) << i;  // GpSimdE: native in both profiles
      if (num == Numerics::ideal)
        EXPECT_EQ(got[i], exact) << i;
      else
        EXPECT_EQ(got[i], f32_to_int_saturate(DType::i32, static_cast<float>(v[i]) * 3.0f + 7.0f)) << i;
    }
    if (num == Numerics::trn1_measured) {
      EXPECT_NE(got[0], v[0] * 3 + 7);
    }
    // A non-integral immediate takes the fp32 path: 100 * 0.5 = 50, 715827883 * 0.5 -> RNE in fp32.
    nc.tensor_scalar(d, s, AluOp::multiply, 0.5f);
    EXPECT_EQ(read_int(d)[2], 50);
    EXPECT_EQ(read_int(d)[3], f32_to_int_saturate(DType::i32, static_cast<float>(715827883) * 0.5f));
  }
}

// ================================================================================================
// tensor_reduce
// ================================================================================================

TEST(VectorTensorReduce, SequentialFp32OrderAndErrorBound) {
  NeuronCore nc;
  const int P = 128, F = 1000;
  const Tile s = nc.sbuf().alloc(DType::f32, P, {F});
  const Tile d = nc.sbuf().alloc(DType::f32, P, {1});
  const auto v = random_values(P * F, DType::f32, 30, -1.0f, 1.0f);
  upload(nc, s, v);
  for (AluOp op : {AluOp::add, AluOp::maximum, AluOp::minimum, AluOp::multiply}) {
    for (bool neg : {false, true}) {
      nc.tensor_reduce(d, s, op, neg);
      const auto got = read(d);
      for (int p = 0; p < P; ++p) {
        const float* row = v.data() + p * F;
        // Documented order: acc = x0; acc = op(acc, x_i) left to right, each step one fp32 rounding.
        float seq = row[0];
        long double exact = row[0];
        for (int i = 1; i < F; ++i) {
          seq = ref_op(op, seq, row[i]);
          exact = op == AluOp::add ? exact + row[i]
                  : op == AluOp::multiply ? exact * row[i]
                  : op == AluOp::maximum ? std::max<long double>(exact, row[i])
                                         : std::min<long double>(exact, row[i]);
        }
        if (neg) {
          seq = -seq;
          exact = -exact;
        }
        ASSERT_TRUE(same_bits(got[p], seq)) << alu_op_name(op) << " p " << p;
        if (op == AluOp::add) {
          long double abs_sum = 0;
          for (int i = 0; i < F; ++i) abs_sum += std::fabs(row[i]);
          EXPECT_LE(std::fabs(got[p] - exact), (F - 1) * kEps / 2 * abs_sum);  // gamma_{n-1} bound
        } else if (op != AluOp::multiply) {
          EXPECT_EQ(got[p], static_cast<float>(exact));
        }
      }
    }
  }
}

// maximum/minimum over rows of special values: signed zeros, infinities, subnormals, repeated
// values and NaNs with distinct payloads at various positions. The reference is the documented
// left-to-right fold of IEEE 754-2019 maximum/minimum (-0 < +0; with a NaN the result is the first
// NaN's payload, quieted), bit for bit, whatever order the emulator reduces in.
TEST(VectorTensorReduce, MaximumMinimumBitsOfTheSequentialFoldOnSpecialValues) {
  auto nan_with = [](std::uint32_t payload) { return std::bit_cast<float>(0x7fc00000u | payload); };
  auto fold = [](bool is_max, const float* x, int n) {
    float acc = x[0];
    for (int i = 1; i < n; ++i) {
      const float b = x[i];
      if (std::isnan(acc)) continue;  // the first NaN stays
      if (std::isnan(b)) {
        acc = std::bit_cast<float>(std::bit_cast<std::uint32_t>(b) | 0x00400000u);  // quieted
      } else if (acc == 0.0f && b == 0.0f) {  // max is -0 only if both are; min is -0 if either is
        const bool negative = is_max ? std::signbit(acc) && std::signbit(b) : std::signbit(acc) || std::signbit(b);
        acc = negative ? -0.0f : 0.0f;
      } else if (is_max ? b > acc : b < acc) {
        acc = b;
      }
    }
    return acc;
  };
  const float specials[] = {0.0f, -0.0f, kInfF, -kInfF, 1e-45f, -1e-45f, 1e-40f, -3.0f, 3.0f, 3.0f, -3.0f,
                            std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()};
  NeuronCore nc;
  const int P = 32, F = 53;  // not a multiple of any lane count
  const Tile s = nc.sbuf().alloc(DType::f32, P, {F});
  const Tile d = nc.sbuf().alloc(DType::f32, P, {1});
  std::mt19937 rng(41);
  std::vector<float> v(static_cast<std::size_t>(P) * F);
  for (int p = 0; p < P; ++p)
    for (int i = 0; i < F; ++i) {
      float x = specials[rng() % std::size(specials)];
      if (p < 6) x = p % 2 ? -0.0f : 0.0f;                                          // all zeros of one sign
      if ((p == 6 || p == 7) && i % 2) x = -x;                                      // mixed signed zeros
      if (p >= 24 && i == (p * 7) % F) x = nan_with(static_cast<std::uint32_t>(p));  // one NaN
      if (p >= 28 && i == (p * 3) % F) x = nan_with(0x1000u + static_cast<std::uint32_t>(p));  // a second
      v[static_cast<std::size_t>(p) * F + i] = x;
    }
  upload(nc, s, v);
  for (AluOp op : {AluOp::maximum, AluOp::minimum}) {
    nc.tensor_reduce(d, s, op);
    const auto got = read(d);
    for (int p = 0; p < P; ++p) {
      const float want = fold(op == AluOp::maximum, v.data() + static_cast<std::size_t>(p) * F, F);
      EXPECT_TRUE(same_bits(got[p], want)) << alu_op_name(op) << " p " << p << ": " << got[p] << " vs " << want;
    }
  }
}

// tensor_scalar maximum/minimum/abs_max/abs_min, both operand orders, over rows of special values
// (signed zeros, infinities, subnormals, NaNs with payloads) and scalars among them, against IEEE
// 754-2019 maximum/minimum written here: -0 < +0; a NaN operand gives that NaN, quieted.
TEST(VectorTensorScalar, ExtremeOpsBitsOnSpecialValuesBothOperandOrders) {
  auto ieee = [](bool is_max, float a, float b) {
    if (std::isnan(a) || std::isnan(b)) return std::bit_cast<float>(std::bit_cast<std::uint32_t>(std::isnan(a) ? a : b) | 0x00400000u);
    if (a == 0.0f && b == 0.0f) {
      const bool negative = is_max ? std::signbit(a) && std::signbit(b) : std::signbit(a) || std::signbit(b);
      return negative ? -0.0f : 0.0f;
    }
    return is_max ? std::max(a, b) : std::min(a, b);
  };
  const float specials[] = {0.0f, -0.0f, kInfF, -kInfF, 1e-45f, -1e-45f, 1e-40f, -3.0f, 3.0f, -2.5f, 7.0f,
                            std::bit_cast<float>(0x7fc00123u), std::bit_cast<float>(0xffa00077u)};
  NeuronCore nc;
  const int P = 4, F = 37;  // a partial last group of 16 lanes
  const Tile s = nc.sbuf().alloc(DType::f32, P, {F});
  const Tile d = nc.sbuf().alloc(DType::f32, P, {F});
  std::vector<float> v(static_cast<std::size_t>(P) * F);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = specials[(i * 5 + i / 7) % std::size(specials)];
  upload(nc, s, v);
  for (AluOp op : {AluOp::maximum, AluOp::minimum, AluOp::abs_max, AluOp::abs_min})
    for (float scalar : {0.0f, -0.0f, 3.0f, -kInfF})
      for (bool reverse : {false, true}) {
        nc.tensor_scalar(d, s, op, scalar, AluOp::bypass, 0.0f, Engine::vector, reverse);
        const auto got = read(d);
        const bool is_max = op == AluOp::maximum || op == AluOp::abs_max;
        const bool absolute = op == AluOp::abs_max || op == AluOp::abs_min;
        for (std::size_t i = 0; i < v.size(); ++i) {
          const float x = absolute ? std::fabs(v[i]) : v[i], c = absolute ? std::fabs(scalar) : scalar;
          const float want = reverse ? ieee(is_max, c, x) : ieee(is_max, x, c);
          ASSERT_TRUE(same_bits(got[i], want)) << alu_op_name(op) << " scalar " << scalar << " reverse " << reverse
                                               << " i " << i << ": " << got[i] << " vs " << want;
        }
      }
}

TEST(VectorTensorReduce, AccessPatternOrderOverMultiDimStridedView) {
  NeuronCore nc;
  const Tile s = nc.sbuf().alloc(DType::bf16, 4, {6, 10});
  const Tile d = nc.sbuf().alloc(DType::bf16, 4, {1});
  upload(nc, s, random_values(4 * 60, DType::bf16, 31, 0.0f, 100.0f));
  const auto vals = read(s);
  const Tile sub = s.slice(0, 1, 3, 2).slice(1, 2, 4, 2);  // rows 1,3,5 x cols 2,4,6,8
  nc.tensor_reduce(d, sub, AluOp::add);
  for (int p = 0; p < 4; ++p) {
    float acc = 0.0f;
    bool first = true;
    for (int r = 1; r < 6; r += 2)
      for (int c = 2; c < 10; c += 2) {
        const float x = vals[p * 60 + r * 10 + c];
        acc = first ? x : acc + x;
        first = false;
      }
    std::uint16_t got;
    std::memcpy(&got, d.at(p, 0), 2);
    EXPECT_EQ(got, f32_to_bf16_rne(acc)) << p;
  }
}

TEST(VectorTensorReduce, BitwiseAndLogicalReductions) {
  NeuronCore nc;
  const Tile s = nc.sbuf().alloc(DType::u32, 3, {5});
  const Tile d = nc.sbuf().alloc(DType::u32, 3, {1});
  poke_int(s, {0xFFFFFFFF, 0xF0F0F0F0, 0xFF00FF00, 0xFFFFFFFF, 0xF000000F,  //
               1, 2, 4, 8, 0x80000000,                                          //
               0, 0, 0, 0, 0});
  nc.tensor_reduce(d, s, AluOp::bitwise_and);
  EXPECT_EQ(read_int(d), (std::vector<std::int64_t>{0xF0000000LL, 0, 0}));
  nc.tensor_reduce(d, s, AluOp::bitwise_or);
  EXPECT_EQ(read_int(d), (std::vector<std::int64_t>{0xFFFFFFFFLL, 0x8000000FLL, 0}));
  nc.tensor_reduce(d, s, AluOp::bitwise_xor);
  EXPECT_EQ(read_int(d)[1], 0x8000000FLL);
  nc.tensor_reduce(d, s, AluOp::logical_or);
  EXPECT_EQ(read_int(d), (std::vector<std::int64_t>{1, 1, 0}));
  nc.tensor_reduce(d, s, AluOp::logical_and);
  EXPECT_EQ(read_int(d), (std::vector<std::int64_t>{1, 1, 0}));
  const Tile f = nc.sbuf().alloc(DType::f32, 3, {5});
  const Tile fd = nc.sbuf().alloc(DType::f32, 3, {1});
  poke(f, {1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0});
  nc.tensor_reduce(fd, f, AluOp::logical_and);
  EXPECT_EQ(read(fd), (std::vector<float>{0, 1, 0}));
  nc.tensor_reduce(fd, f, AluOp::logical_xor);
  EXPECT_EQ(read(fd), (std::vector<float>{0, 1, 0}));  // 4 ones -> 0, 5 ones -> 1
}

TEST(VectorTensorReduce, IntegerSumExactInIdealFp32InTrn1Measured) {
  for (Numerics num : {Numerics::ideal, Numerics::trn1_measured}) {
    CoreConfig cfg;
    cfg.numerics = num;
    NeuronCore nc(cfg);
    const Tile s = nc.sbuf().alloc(DType::i32, 1, {4});
    const Tile d = nc.sbuf().alloc(DType::i32, 1, {1});
    poke_int(s, {16777216, 1, 1, 1});
    nc.tensor_reduce(d, s, AluOp::add);
    EXPECT_EQ(read_int(d)[0], num == Numerics::ideal ? 16777219 : 16777216) << numerics_name(num);
    nc.tensor_reduce(d, s, AluOp::add, /*negate=*/true);
    EXPECT_EQ(read_int(d)[0], num == Numerics::ideal ? -16777219 : -16777216);
  }
}

TEST(VectorTensorReduce, Checks) {
  NeuronCore nc;
  const Tile s = nc.sbuf().alloc(DType::f32, 8, {16}, "s");
  const Tile d2 = nc.sbuf().alloc(DType::f32, 8, {2}, "d2");
  const Tile d = nc.sbuf().alloc(DType::f32, 8, {1}, "d");
  const Tile u = nc.sbuf().alloc(DType::u32, 8, {16}, "u");
  const Tile ud = nc.sbuf().alloc(DType::u32, 8, {1}, "ud");
  expect_error<LimitError>([&] { nc.tensor_reduce(d2, s, AluOp::add); }, {"tensor_reduce", "'dst'", "free size", "2", "1"});
  expect_error<UsageError>([&] { nc.tensor_reduce(d, s, AluOp::subtract); }, {"tensor_reduce", "'op'", "subtract"});
  expect_error<UsageError>([&] { nc.tensor_reduce(d, s, AluOp::bitwise_or); }, {"tensor_reduce", "'src'", "integer"});
  expect_error<UsageError>([&] { nc.tensor_reduce(ud, u, AluOp::bitwise_or, true); }, {"tensor_reduce", "negate"});
  expect_error<LimitError>([&] { nc.tensor_reduce(d.rows(0, 4), s, AluOp::add); }, {"tensor_reduce", "'dst'", "partitions"});
}

// ================================================================================================
// tensor_tensor_scan
// ================================================================================================

TEST(VectorTensorTensorScan, LinearRecurrenceIsSequentialFp32) {
  NeuronCore nc;
  const int P = 64, F = 300;
  const Tile a = nc.sbuf().alloc(DType::f32, P, {F});
  const Tile b = nc.sbuf().alloc(DType::bf16, P, {F});
  const Tile d = nc.sbuf().alloc(DType::f32, P, {F});
  const auto va = random_values(P * F, DType::f32, 40, 0.5f, 1.0f);
  const auto vb = random_values(P * F, DType::bf16, 41, -1.0f, 1.0f);
  upload(nc, a, va);
  upload(nc, b, vb);
  const float init = 0.25f;
  nc.tensor_tensor_scan(d, a, b, init, AluOp::multiply, AluOp::add);  // r = a * r + b (Mamba-style)
  const auto got = read(d);
  for (int p = 0; p < P; ++p) {
    float r = init;
    long double exact = init;
    for (int i = 0; i < F; ++i) {
      const std::size_t k = static_cast<std::size_t>(p * F + i);
      r = ref_op(AluOp::add, ref_op(AluOp::multiply, va[k], r), vb[k]);
      exact = static_cast<long double>(va[k]) * exact + vb[k];
      ASSERT_TRUE(same_bits(got[k], r)) << p << "," << i;
      EXPECT_NEAR(got[k], static_cast<double>(exact), 1e-4);  // |a| < 1: errors decay; loose sanity bound
    }
  }
}

// A [P, 1] tile as the initial value: each partition starts from its own value (here: a chunked
// scan, the second chunk starting from the first chunk's last column), bit-identical to one scan
// over the whole row and to a plain fp32 loop.
TEST(VectorTensorTensorScan, TileInitialValueContinuesAChunkedScan) {
  NeuronCore nc;
  const int P = 32, F = 64, H = F / 2;
  const Tile a = nc.sbuf().alloc(DType::f32, P, {F}), b = nc.sbuf().alloc(DType::f32, P, {F});
  const Tile whole = nc.sbuf().alloc(DType::f32, P, {F}), chunked = nc.sbuf().alloc(DType::f32, P, {F});
  const Tile init = nc.sbuf().alloc(DType::f32, P, {1});
  const auto va = random_values(P * F, DType::f32, 42, 0.5f, 1.0f);
  const auto vb = random_values(P * F, DType::f32, 43, -1.0f, 1.0f);
  const auto vi = random_values(P, DType::f32, 44, -2.0f, 2.0f);
  upload(nc, a, va);
  upload(nc, b, vb);
  upload(nc, init, vi);
  nc.tensor_tensor_scan(whole, a, b, init, AluOp::multiply, AluOp::add);
  nc.tensor_tensor_scan(chunked.cols(0, H), a.cols(0, H), b.cols(0, H), init, AluOp::multiply, AluOp::add);
  nc.tensor_tensor_scan(chunked.cols(H, H), a.cols(H, H), b.cols(H, H), chunked.cols(H - 1, 1), AluOp::multiply,
                        AluOp::add);
  const auto got = read(whole);
  EXPECT_EQ(read_bits(chunked), read_bits(whole));
  for (int p = 0; p < P; ++p) {
    float r = vi[static_cast<std::size_t>(p)];
    for (int i = 0; i < F; ++i) {
      const std::size_t k = static_cast<std::size_t>(p * F + i);
      r = ref_op(AluOp::add, ref_op(AluOp::multiply, va[k], r), vb[k]);
      ASSERT_TRUE(same_bits(got[k], r)) << p << "," << i;
    }
  }
  // The initial tile is an input of the instruction: the cost model orders it after its producer.
  const Instruction& ins = nc.trace().instructions.back();
  EXPECT_EQ(ins.nregions, 4);
  // One value per partition, same partitions as the data.
  const Tile wide_init = nc.sbuf().alloc(DType::f32, P, {2}), short_init = nc.sbuf().alloc(DType::f32, P / 2, {1});
  expect_error<LimitError>([&] { nc.tensor_tensor_scan(whole, a, b, wide_init, AluOp::add, AluOp::add); },
                           {"tensor_tensor_scan", "'initial'", "2", "1"});
  expect_error<LimitError>([&] { nc.tensor_tensor_scan(whole, a, b, short_init, AluOp::add, AluOp::add); },
                           {"tensor_tensor_scan", "initial"});
}

TEST(VectorTensorTensorScan, CumulativeSumAndMax) {
  NeuronCore nc;
  const Tile a = nc.sbuf().alloc(DType::f32, 2, {6});
  const Tile z = nc.sbuf().alloc(DType::f32, 2, {6});
  const Tile d = nc.sbuf().alloc(DType::f32, 2, {6});
  poke(a, {1, 2, 3, 4, 5, 6, 3, -1, 4, -1, 5, -9});
  nc.memset(z, 0.0f);
  nc.tensor_tensor_scan(d, a, z, 0.0f, AluOp::add, AluOp::add);  // cumsum
  EXPECT_EQ(read(d), (std::vector<float>{1, 3, 6, 10, 15, 21, 3, 2, 6, 5, 10, 1}));
  nc.tensor_tensor_scan(d, a, z, -kInfF, AluOp::maximum, AluOp::bypass);  // running max
  EXPECT_EQ(read(d), (std::vector<float>{1, 2, 3, 4, 5, 6, 3, 3, 4, 4, 5, 5}));
}

TEST(VectorTensorTensorScan, Checks) {
  NeuronCore nc;
  const Tile p1 = nc.psum().alloc(DType::f32, 4, {8}, "p1");
  const Tile p2 = nc.psum().alloc(DType::f32, 4, {8}, "p2");
  const Tile d = nc.sbuf().alloc(DType::f32, 4, {8}, "d");
  const Tile d9 = nc.sbuf().alloc(DType::f32, 4, {9}, "d9");
  poke(p1, std::vector<float>(32, 1.0f));
  nc.memset(d, 2.0f);
  const auto before = raw_bytes(d);
  // The two-input checks are tensor_tensor's (check_two_inputs), with this instruction's operand names.
  expect_error<UsageError>([&] { nc.tensor_tensor_scan(d, p1, p2, 0.0f, AluOp::add, AluOp::add); },
                           {"tensor_tensor_scan", "'data1'", "inputs 'data0' and 'data1' cannot both reside in PSUM"});
  expect_error<UsageError>([&] { nc.tensor_tensor_scan(d, d, d, 0.0f, AluOp::bitwise_or, AluOp::add); }, {"tensor_tensor_scan", "'op0'"});
  expect_error<LimitError>([&] { nc.tensor_tensor_scan(d9, d, d, 0.0f, AluOp::add, AluOp::add); }, {"tensor_tensor_scan", "'dst'", "9", "8"});
  EXPECT_EQ(raw_bytes(d), before);
  nc.tensor_tensor_scan(d, p1, d, 0.0f, AluOp::add, AluOp::add);  // one PSUM input is fine
  EXPECT_EQ(read(d)[7], 8.0f + 7 * 2.0f + 2.0f);
}

// ================================================================================================
// memset
// ================================================================================================

TEST(VectorMemset, CastsTheValueOnceToTheDstDtype) {
  NeuronCore nc;
  const Tile f = nc.sbuf().alloc(DType::f32, 128, {33});
  const Tile b = nc.sbuf().alloc(DType::bf16, 128, {33});
  const Tile i = nc.sbuf().alloc(DType::i32, 128, {33});
  const Tile u8 = nc.sbuf().alloc(DType::u8, 128, {33});
  const Tile i16 = nc.sbuf().alloc(DType::i16, 128, {33});
  const Tile ps = nc.psum().alloc(DType::f32, 128, {33});
  nc.memset(f, 0.1f);
  nc.memset(b, 0.1f, Engine::gpsimd);
  nc.memset(i, 1e10f);
  nc.memset(u8, -3.0f);
  nc.memset(i16, 2.5f);
  nc.memset(ps, -1.0f);
  for (int p = 0; p < 128; p += 31)
    for (int k = 0; k < 33; k += 8) {
      EXPECT_EQ(load_as_f32(DType::f32, f.at(p, k)), 0.1f);
      std::uint16_t bb;
      std::memcpy(&bb, b.at(p, k), 2);
      EXPECT_EQ(bb, f32_to_bf16_rne(0.1f));
      EXPECT_EQ(load_as_int(DType::i32, i.at(p, k)), INT32_MAX);
      EXPECT_EQ(load_as_int(DType::u8, u8.at(p, k)), 0);
      EXPECT_EQ(load_as_int(DType::i16, i16.at(p, k)), 2);  // RNE: 2.5 -> 2
      EXPECT_EQ(load_as_f32(DType::f32, ps.at(p, k)), -1.0f);
    }
  expect_error<UsageError>([&] { nc.memset(f, 0.0f, Engine::scalar); }, {"memset", "engine"});
  expect_error<UsageError>([&] { nc.memset(ps, 0.0f, Engine::gpsimd); }, {"memset", "'dst'", "PSUM"});
  EXPECT_EQ(nc.trace().instructions.back().opcode, Opcode::memset);
  EXPECT_EQ(nc.trace().instructions.back().inputs, 0);
}

// ================================================================================================
// bn_stats / bn_aggr
// ================================================================================================

struct Moments {
  double count, mean, m2;
};
Moments moments(const float* x, int n, int parity) {
  long double s = 0;
  int c = 0;
  for (int i = parity; i < n; i += 2, ++c) s += x[i];
  const long double mean = c ? s / c : 0;
  long double m2 = 0;
  for (int i = parity; i < n; i += 2) m2 += (x[i] - mean) * (x[i] - mean);
  return {static_cast<double>(c), static_cast<double>(mean), static_cast<double>(m2)};
}

TEST(VectorBnStats, EvenOddCountMeanAndM2) {
  NeuronCore nc;
  for (int F : {512, 333, 2, 1}) {
    const int P = 128;
    const Tile s = nc.sbuf().alloc(DType::bf16, P, {F});
    const Tile d = nc.sbuf().alloc(DType::f32, P, {6});
    const auto v = random_values(static_cast<std::size_t>(P * F), DType::bf16, 50 + F, 3.0f, 5.0f);
    upload(nc, s, v);
    nc.bn_stats(d, s);
    const auto got = read(d);
    for (int p = 0; p < P; ++p) {
      for (int parity = 0; parity < 2; ++parity) {
        const Moments m = moments(v.data() + p * F, F, parity);
        const float* g = got.data() + p * 6 + 3 * parity;
        EXPECT_EQ(g[0], m.count) << F << " " << p;
        const double n = std::max(1.0, m.count);
        EXPECT_NEAR(g[1], m.mean, n * kEps * 5.0) << F << " " << p;  // |x| <= 5: sum error <= n u max|x|
        EXPECT_NEAR(g[2], m.m2, 1e-4 * std::max(1.0, m.m2) + n * 4 * kEps) << F << " " << p;
      }
    }
    nc.sbuf().free(d);
    nc.sbuf().free(s);
  }
}

TEST(VectorBnStats, LimitsAndShapes) {
  NeuronCore nc;
  const Tile s = nc.sbuf().alloc(DType::f32, 16, {513}, "s");
  const Tile d = nc.sbuf().alloc(DType::f32, 16, {6}, "d");
  const Tile d5 = nc.sbuf().alloc(DType::f32, 16, {5}, "d5");
  nc.memset(d, 3.0f);
  const auto before = raw_bytes(d);
  expect_error<LimitError>([&] { nc.bn_stats(d, s); }, {"bn_stats", "'src'", "513", "bn_stats_fmax", "512"});
  EXPECT_EQ(raw_bytes(d), before);
  expect_error<LimitError>([&] { nc.bn_stats(d5, s.cols(0, 512)); }, {"bn_stats", "'dst'", "5", "6"});
  const Tile mis = nc.sbuf().alloc(DType::f32, 16, {6}, "mis", 8);
  expect_error<LimitError>([&] { nc.bn_stats(mis, s.cols(0, 10)); }, {"bn_stats", "'dst'", "partition"});
}

TEST(VectorBnAggr, ChanCombinationMatchesTheFullRowMoments) {
  NeuronCore nc;
  const int P = 32, F = 1500, chunks = 3;  // 3 bn_stats of 500
  const Tile s = nc.sbuf().alloc(DType::f32, P, {F});
  const Tile st = nc.sbuf().alloc(DType::f32, P, {6 * chunks});
  const Tile agg = nc.sbuf().alloc(DType::f32, P, {2});
  const auto v = random_values(static_cast<std::size_t>(P * F), DType::f32, 60, -2.0f, 6.0f);
  upload(nc, s, v);
  for (int c = 0; c < chunks; ++c) nc.bn_stats(st.cols(6 * c, 6), s.cols(500 * c, 500));
  nc.bn_aggr(agg, st);
  const auto got = read(agg);
  for (int p = 0; p < P; ++p) {
    long double sum = 0;
    for (int i = 0; i < F; ++i) sum += v[p * F + i];
    const long double mean = sum / F;
    long double m2 = 0;
    for (int i = 0; i < F; ++i) m2 += (v[p * F + i] - mean) * (v[p * F + i] - mean);
    const double var = static_cast<double>(m2 / F);
    // Each group sum of 250 terms carries at most ~250 u relative error (gamma_n); Chan adds O(u).
    const double n_group = F / chunks / 2 + 16;
    EXPECT_NEAR(got[2 * p], static_cast<double>(mean), n_group * kEps * 6) << p;
    EXPECT_NEAR(got[2 * p + 1], var, n_group * kEps * var) << p;
  }
}

TEST(VectorBnAggr, SkipsEmptyGroupsAndChecksShapes) {
  NeuronCore nc;
  const Tile s = nc.sbuf().alloc(DType::f32, 1, {1}, "s");
  const Tile st = nc.sbuf().alloc(DType::f32, 1, {6}, "st");
  const Tile agg = nc.sbuf().alloc(DType::f32, 1, {2}, "agg");
  poke(s, {7.5f});
  nc.bn_stats(st, s);  // odd group empty
  EXPECT_EQ(read(st), (std::vector<float>{1, 7.5f, 0, 0, 0, 0}));
  nc.bn_aggr(agg, st);
  EXPECT_EQ(read(agg), (std::vector<float>{7.5f, 0.0f}));
  const Tile st5 = nc.sbuf().alloc(DType::f32, 1, {5}, "st5");
  const Tile agg3 = nc.sbuf().alloc(DType::f32, 1, {3}, "agg3");
  expect_error<LimitError>([&] { nc.bn_aggr(agg, st5); }, {"bn_aggr", "'src'", "5", "6"});
  expect_error<LimitError>([&] { nc.bn_aggr(agg3, st); }, {"bn_aggr", "'dst'", "3", "2"});
}

// ================================================================================================
// reciprocal
// ================================================================================================

TEST(VectorReciprocal, CorrectlyRoundedFp32Division) {
  NeuronCore nc;
  const int P = 128, F = 64;
  const Tile s = nc.sbuf().alloc(DType::f32, P, {F});
  const Tile d = nc.sbuf().alloc(DType::f32, P, {F});
  auto v = random_values(P * F, DType::f32, 70, -1000.0f, 1000.0f);
  v[0] = 0.0f;
  v[1] = -0.0f;
  v[2] = kInfF;
  v[3] = 1e-40f;  // subnormal -> 1/x overflows to inf
  upload(nc, s, v);
  nc.reciprocal(d, s);
  const auto got = read(d);
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_TRUE(same_bits(got[i], static_cast<float>(1.0 / static_cast<double>(v[i])))) << v[i];
  EXPECT_EQ(got[0], kInfF);
  EXPECT_EQ(got[1], -kInfF);
  EXPECT_TRUE(same_bits(got[2], 0.0f));
  const Tile b = nc.sbuf().alloc(DType::bf16, P, {F});
  nc.reciprocal(b, s);
  std::uint16_t bb;
  std::memcpy(&bb, b.at(5, 7), 2);
  EXPECT_EQ(bb, f32_to_bf16_rne(1.0f / v[5 * F + 7]));
  const Tile d2 = nc.sbuf().alloc(DType::f32, P, {F - 1});
  expect_error<LimitError>([&] { nc.reciprocal(d2, s); }, {"reciprocal", "'dst'", "free size"});
  EXPECT_EQ(nc.trace().instructions.back().opcode, Opcode::reciprocal);
}

// ---- one-dimension fp32 views of any stride (session 25: the element-by-element loop) -----------
// An instruction reads its input rows whole before it writes its destination row (numerics.md; the
// scratch rows do exactly that). The element loop (core's tt_fp32_strided / ts_fp32_strided) reads
// element k and writes element k in turn, which is the same only for some overlaps. Each case
// below views one buffer three ways; the reference applies the op to snapshots of the input rows
// and writes the destination's elements in order, and every byte of the buffer (all partitions) is
// compared, so a destination element written before an input element that aliases it is read
// shows. Cases: interleaved planes (the SpSV's products), the same view, a destination behind its
// input (the loop) and ahead of it (must read whole rows first), unequal strides, negative strides,
// a broadcast input, dense short rows (the dense front-end), [P, 1] columns with stride fields 2.
struct StridedView {
  std::int64_t offset, stride;
};
struct StridedCase {
  std::int64_t n;
  StridedView d, a, b;
};
constexpr StridedCase kStridedCases[] = {
    {2, {0, 2}, {1, 2}, {0, 2}},     // d = b, a the other plane
    {2, {1, 2}, {0, 2}, {1, 2}},     // the same, im plane written
    {6, {0, 2}, {2, 2}, {1, 2}},     // d behind a by one element: d_k = a_{k-1}, read a step earlier
    {6, {2, 2}, {0, 2}, {1, 2}},     // d ahead of a by one element: d_k = a_{k+1}
    {5, {0, 1}, {1, 1}, {7, 1}},     // dense short rows, d behind a
    {5, {1, 1}, {0, 1}, {7, 1}},     // dense short rows, d ahead of a
    {5, {3, 1}, {3, 1}, {3, 1}},     // one dense view three times
    {6, {0, 1}, {0, 2}, {20, 1}},    // unequal strides, overlapping hulls
    {6, {11, -2}, {10, -2}, {0, 2}}, // negative stride, interleaved
    {6, {10, -2}, {12, -2}, {1, 2}}, // negative stride, d ahead of a (d_k = a_{k+1})
    {6, {12, -2}, {10, -2}, {1, 2}}, // negative stride, d behind a
    {6, {8, 1}, {3, 0}, {20, 3}},    // a broadcast element, disjoint from d
    {6, {2, 1}, {3, 0}, {20, 3}},    // a broadcast element inside d's row
    {1, {4, 2}, {5, 2}, {4, 2}},     // [P, 1] columns, stride fields 2
    {20, {1, 3}, {0, 3}, {2, 3}},    // a longer strided row, three interleaved planes
    {12, {0, 2}, {2, 2}, {4, 2}},    // d behind both inputs
};
constexpr std::int64_t kStridedWidth = 64;
constexpr std::int32_t kStridedPartitions = 5;

Tile strided_view(const Tile& buf, std::int64_t n, StridedView v) { return tile::view(buf, v.offset, {{n, v.stride}}); }
std::vector<float> buffer_values(const Tile& buf) {
  std::vector<float> v(static_cast<std::size_t>(buf.partitions * kStridedWidth));
  for (std::int32_t p = 0; p < buf.partitions; ++p)
    for (std::int64_t i = 0; i < kStridedWidth; ++i)
      std::memcpy(&v[static_cast<std::size_t>(p * kStridedWidth + i)], buf.at(p, i), 4);
  return v;
}
void fill_buffer(const Tile& buf, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  for (std::int32_t p = 0; p < buf.partitions; ++p)
    for (std::int64_t i = 0; i < kStridedWidth; ++i) {
      const float v = u(rng);
      std::memcpy(buf.at(p, i), &v, 4);
    }
}
std::size_t at(std::int32_t p, StridedView v, std::int64_t k) {
  return static_cast<std::size_t>(p * kStridedWidth + v.offset + k * v.stride);
}
std::string case_name(const StridedCase& c) {
  return "n " + std::to_string(c.n) + " d (" + std::to_string(c.d.offset) + ", " + std::to_string(c.d.stride) + ") a (" +
         std::to_string(c.a.offset) + ", " + std::to_string(c.a.stride) + ") b (" + std::to_string(c.b.offset) + ", " +
         std::to_string(c.b.stride) + ")";
}

TEST(VectorStridedViews, TensorTensorReadsWholeInputRowsFirst) {
  NeuronCore nc;
  const Tile buf = nc.sbuf().alloc(DType::f32, kStridedPartitions, {kStridedWidth}, "buf");
  std::mt19937 rng(25);
  for (const StridedCase& c : kStridedCases)
    for (const AluOp op : {AluOp::add, AluOp::subtract, AluOp::multiply, AluOp::maximum}) {
      fill_buffer(buf, rng);
      const std::vector<float> before = buffer_values(buf);
      std::vector<float> want = before;
      for (std::int32_t p = 0; p < kStridedPartitions; ++p)
        for (std::int64_t k = 0; k < c.n; ++k)
          want[at(p, c.d, k)] = ref_op(op, before[at(p, c.a, k)], before[at(p, c.b, k)]);
      nc.tensor_tensor(strided_view(buf, c.n, c.d), strided_view(buf, c.n, c.a), strided_view(buf, c.n, c.b), op);
      const std::vector<float> got = buffer_values(buf);
      for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_TRUE(same_bits(got[i], want[i])) << alu_op_name(op) << " " << case_name(c) << " at word " << i;
    }
}

TEST(VectorStridedViews, TensorScalarReadsTheScalarAndTheRowFirst) {
  NeuronCore nc;
  const Tile buf = nc.sbuf().alloc(DType::f32, kStridedPartitions, {kStridedWidth}, "buf");
  std::mt19937 rng(26);
  for (const StridedCase& c : kStridedCases)
    for (const bool reverse : {false, true})
      for (const std::int64_t scalar_at : {std::int64_t{-1}, c.d.offset, c.d.offset + c.d.stride * (c.n - 1)}) {
        // the scalar: an immediate, or a [P, 1] column at dst's first or last element (written by the op)
        fill_buffer(buf, rng);
        const std::vector<float> before = buffer_values(buf);
        std::vector<float> want = before;
        for (std::int32_t p = 0; p < kStridedPartitions; ++p) {
          const float s = scalar_at < 0 ? 0.75f : before[static_cast<std::size_t>(p * kStridedWidth + scalar_at)];
          for (std::int64_t k = 0; k < c.n; ++k) {
            const float x = before[at(p, c.a, k)];
            want[at(p, c.d, k)] = reverse ? ref_op(AluOp::subtract, s, x) : ref_op(AluOp::subtract, x, s);
          }
        }
        const ScalarOperand s = scalar_at < 0 ? ScalarOperand(0.75f) : ScalarOperand(buf.cols(scalar_at, 1));
        nc.tensor_scalar(strided_view(buf, c.n, c.d), strided_view(buf, c.n, c.a), AluOp::subtract, s, AluOp::bypass, 0.0f,
                         Engine::vector, reverse);
        const std::vector<float> got = buffer_values(buf);
        for (std::size_t i = 0; i < got.size(); ++i)
          ASSERT_TRUE(same_bits(got[i], want[i]))
              << case_name(c) << (reverse ? " reversed" : "") << " scalar at " << scalar_at << " at word " << i;
      }
}

}  // namespace
