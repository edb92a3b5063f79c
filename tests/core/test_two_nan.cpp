// The two-NaN rule of the element instructions (docs/numerics.md section 10, row 6;
// CoreConfig::two_nan_result) on the host SIMD path this process runs: ctest runs this suite once
// per TRN_HOST_SIMD level (portable, avx2, avx512; a level the CPU lacks is skipped), and each run
// checks every output word against a reference written here from the rule's text. Operands mix
// quiet and signalling NaNs of both signs and several payloads with ordinary values, so lanes hold
// two NaNs, one NaN, or none; shapes and views take each host loop (a [P, 1] column, one element,
// one long row, dense rows with odd tails, in place, two free dimensions, a strided view through
// the scratch rows). Both rules are checked, so a loop that falls back on the host instruction's
// operand order (which the compiler may swap) fails one of them.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "trn/core/core.hpp"

using namespace trn;

namespace {

constexpr std::uint32_t kValues[] = {
    0x7fc00001u, 0xffc00002u, 0x7f800003u, 0xff900004u, 0x7fffffffu, 0xffa0beefu,  // NaNs (quiet, signalling)
    0x3fc00000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x00000001u, 0x40400000u, 0xc0100000u};  // 1.5 -0 +-inf ...

float from_bits(std::uint32_t u) { return std::bit_cast<float>(u); }
std::uint32_t bits_of(float f) { return std::bit_cast<std::uint32_t>(f); }
float quieted(float x) { return from_bits(bits_of(x) | 0x00400000u); }

// The documented semantics (numerics.md sections 5 and 10), written out independently: two NaN
// operands give the rule's operand, quieted; one gives that NaN, quieted; otherwise the correctly
// rounded fp32 result (double rounding is innocuous for + - * / of fp32 values).
float reference(AluOp op, float a, float b, TwoNanResult rule) {
  if (op == AluOp::abs_max || op == AluOp::abs_min) {
    a = std::fabs(a);
    b = std::fabs(b);
  }
  if (std::isnan(a) && std::isnan(b)) return quieted(rule == TwoNanResult::second_operand ? b : a);
  if (op == AluOp::power) return std::pow(a, b);
  if (std::isnan(a)) return quieted(a);
  if (std::isnan(b)) return quieted(b);
  const double x = a, y = b;
  switch (op) {
    case AluOp::add: return static_cast<float>(x + y);
    case AluOp::subtract: return static_cast<float>(x - y);
    case AluOp::multiply: return static_cast<float>(x * y);
    case AluOp::divide: return static_cast<float>(x / y);
    case AluOp::maximum:
    case AluOp::abs_max: return a == b ? from_bits(bits_of(a) & bits_of(b)) : (a > b ? a : b);
    case AluOp::minimum:
    case AluOp::abs_min: return a == b ? from_bits(bits_of(a) | bits_of(b)) : (a < b ? a : b);
    default: ADD_FAILURE() << "no reference for " << alu_op_name(op); return 0.0f;
  }
}

constexpr AluOp kOps[] = {AluOp::add,     AluOp::subtract, AluOp::multiply, AluOp::divide, AluOp::maximum,
                          AluOp::minimum, AluOp::abs_max,  AluOp::abs_min,  AluOp::power};

// An operand layout: partitions, free shape, and how the tile is viewed.
struct Shape {
  std::int32_t partitions;
  std::int64_t outer, inner;  // free shape [outer, inner] (outer 1: one free dimension)
  bool strided;               // a step-2 view of a twice-as-long row (the scratch-row loops)
};
constexpr Shape kShapes[] = {{128, 1, 1, false}, {1, 1, 1, false},  {1, 1, 37, false}, {128, 1, 16, false},
                             {3, 1, 33, false},  {4, 2, 9, false},  {5, 1, 17, true}};

Tile make_tile(NeuronCore& nc, const Shape& s, const char* name) {
  if (s.strided) return nc.sbuf().alloc(DType::f32, s.partitions, {2 * s.inner}, name).slice(0, 0, s.inner, 2);
  if (s.outer > 1) return nc.sbuf().alloc(DType::f32, s.partitions, {s.outer, s.inner}, name);
  return nc.sbuf().alloc(DType::f32, s.partitions, {s.inner}, name);
}
void put(const Tile& t, std::int32_t p, std::int64_t i, float v) { std::memcpy(t.at(p, i), &v, 4); }
float get(const Tile& t, std::int32_t p, std::int64_t i) {
  float v;
  std::memcpy(&v, t.at(p, i), 4);
  return v;
}
void fill(const Tile& t, std::mt19937& rng) {
  for (std::int32_t p = 0; p < t.partitions; ++p)
    for (std::int64_t i = 0; i < t.free_size(); ++i) put(t, p, i, from_bits(kValues[rng() % std::size(kValues)]));
}
std::vector<float> snapshot(const Tile& t) {
  std::vector<float> v;
  for (std::int32_t p = 0; p < t.partitions; ++p)
    for (std::int64_t i = 0; i < t.free_size(); ++i) v.push_back(get(t, p, i));
  return v;
}

#define EXPECT_SAME_BITS(got, want, what) \
  ASSERT_EQ(bits_of(got), bits_of(want)) << what << " (" << std::hex << bits_of(got) << " vs " << bits_of(want) << ")"

std::string describe(const char* instr, AluOp op, TwoNanResult rule, const Shape& s, std::int32_t p, std::int64_t i) {
  return std::string(instr) + " " + std::string(alu_op_name(op)) +
         (rule == TwoNanResult::first_operand ? " first_operand" : " second_operand") + " P=" +
         std::to_string(s.partitions) + " shape " + std::to_string(s.outer) + "x" + std::to_string(s.inner) +
         (s.strided ? " strided" : "") + " at [" + std::to_string(p) + ", " + std::to_string(i) + "] on " +
         std::string(host_simd_name(host_simd()));
}

class TwoNan : public ::testing::TestWithParam<TwoNanResult> {
 protected:
  void SetUp() override {
    // The level ctest asked for must be the one in use (or the CPU lacks it: skip).
    const char* want = std::getenv("TRN_HOST_SIMD");
    if (want != nullptr && std::string(want) != std::string(host_simd_name(host_simd())))
      GTEST_SKIP() << "this CPU lacks TRN_HOST_SIMD=" << want;
    CoreConfig cfg;
    cfg.two_nan_result = GetParam();
    nc_ = std::make_unique<NeuronCore>(cfg);
  }
  std::unique_ptr<NeuronCore> nc_;
  std::mt19937 rng_{7};
};

TEST_P(TwoNan, TensorTensorFollowsTheRule) {
  NeuronCore& nc = *nc_;
  const TwoNanResult rule = GetParam();
  for (const Shape& s : kShapes)
    for (const AluOp op : kOps)
      for (int place = 0; place < 3; ++place) {  // dst apart, dst = a, dst = b
        const Tile a = make_tile(nc, s, "a"), b = make_tile(nc, s, "b"), d = make_tile(nc, s, "d");
        fill(a, rng_);
        fill(b, rng_);
        const std::vector<float> va = snapshot(a), vb = snapshot(b);
        const Tile& dst = place == 1 ? a : place == 2 ? b : d;
        nc.tensor_tensor(dst, a, b, op, op == AluOp::power ? Engine::gpsimd : Engine::vector);
        std::size_t k = 0;
        for (std::int32_t p = 0; p < s.partitions; ++p)
          for (std::int64_t i = 0; i < dst.free_size(); ++i, ++k)
            EXPECT_SAME_BITS(get(dst, p, i), reference(op, va[k], vb[k], rule), describe("tensor_tensor", op, rule, s, p, i));
        nc.sbuf().reset();
      }
}

TEST_P(TwoNan, TensorScalarFollowsTheRule) {
  NeuronCore& nc = *nc_;
  const TwoNanResult rule = GetParam();
  for (const Shape& s : kShapes)
    for (const AluOp op0 : kOps)
      for (const AluOp op1 : {AluOp::bypass, AluOp::add, AluOp::maximum, AluOp::multiply, AluOp::abs_min}) {
        const bool rev0 = rng_() % 2 == 1, rev1 = rng_() % 2 == 1, tile0 = rng_() % 2 == 1, tile1 = rng_() % 2 == 1;
        const Tile x = make_tile(nc, s, "x"), d = make_tile(nc, s, "d");
        const Tile c0 = nc.sbuf().alloc(DType::f32, s.partitions, {1}, "c0");
        const Tile c1 = nc.sbuf().alloc(DType::f32, s.partitions, {1}, "c1");
        fill(x, rng_);
        fill(c0, rng_);
        fill(c1, rng_);
        const float imm0 = from_bits(kValues[rng_() % std::size(kValues)]);
        const float imm1 = from_bits(kValues[rng_() % std::size(kValues)]);
        const std::vector<float> vx = snapshot(x);
        const bool gp = op0 == AluOp::power;
        const Tile& dst = rng_() % 2 == 1 ? x : d;
        nc.tensor_scalar(dst, x, op0, tile0 ? ScalarOperand(c0) : ScalarOperand(imm0), op1,
                         tile1 ? ScalarOperand(c1) : ScalarOperand(imm1), gp ? Engine::gpsimd : Engine::vector, rev0, rev1);
        std::size_t k = 0;
        for (std::int32_t p = 0; p < s.partitions; ++p) {
          const float s0 = tile0 ? get(c0, p, 0) : imm0, s1 = tile1 ? get(c1, p, 0) : imm1;
          for (std::int64_t i = 0; i < dst.free_size(); ++i, ++k) {
            float want = rev0 ? reference(op0, s0, vx[k], rule) : reference(op0, vx[k], s0, rule);
            if (op1 != AluOp::bypass) want = rev1 ? reference(op1, s1, want, rule) : reference(op1, want, s1, rule);
            EXPECT_SAME_BITS(get(dst, p, i), want,
                             describe("tensor_scalar", op0, rule, s, p, i) + " then " + std::string(alu_op_name(op1)) +
                                 (rev0 ? " rev0" : "") + (rev1 ? " rev1" : "") + (tile0 ? " tile0" : " imm0") +
                                 (tile1 ? " tile1" : " imm1"));
          }
        }
        nc.sbuf().reset();
      }
}

// tensor_reduce folds acc = op(acc, x_i) left to right (the running value first); the scan is
// r_i = op1(op0(d0_i, r_{i-1}), d1_i); activation's affine part is (x * scale) + bias.
TEST_P(TwoNan, ReduceScanAndActivationFollowTheRule) {
  NeuronCore& nc = *nc_;
  const TwoNanResult rule = GetParam();
  for (const Shape& s : kShapes) {
    for (const AluOp op : {AluOp::add, AluOp::multiply, AluOp::maximum, AluOp::minimum}) {
      const Tile x = make_tile(nc, s, "x"), y = make_tile(nc, s, "y"), d = make_tile(nc, s, "d");
      const Tile col = nc.sbuf().alloc(DType::f32, s.partitions, {1}, "col");
      fill(x, rng_);
      fill(y, rng_);
      nc.tensor_reduce(col, x, op);
      const float init = from_bits(kValues[rng_() % std::size(kValues)]);
      nc.tensor_tensor_scan(d, x, y, init, op, AluOp::add);
      for (std::int32_t p = 0; p < s.partitions; ++p) {
        float acc = get(x, p, 0), r = init;
        for (std::int64_t i = 1; i < x.free_size(); ++i) acc = reference(op, acc, get(x, p, i), rule);
        EXPECT_SAME_BITS(get(col, p, 0), acc, describe("tensor_reduce", op, rule, s, p, 0));
        for (std::int64_t i = 0; i < x.free_size(); ++i) {
          r = reference(AluOp::add, reference(op, get(x, p, i), r, rule), get(y, p, i), rule);
          EXPECT_SAME_BITS(get(d, p, i), r, describe("tensor_tensor_scan", op, rule, s, p, i));
        }
      }
      nc.sbuf().reset();
    }
    const Tile x = make_tile(nc, s, "x"), d = make_tile(nc, s, "d");
    const Tile scale = nc.sbuf().alloc(DType::f32, s.partitions, {1}, "scale");
    const Tile bias = nc.sbuf().alloc(DType::f32, s.partitions, {1}, "bias");
    const Tile sum = nc.sbuf().alloc(DType::f32, s.partitions, {1}, "sum");
    fill(x, rng_);
    fill(scale, rng_);
    fill(bias, rng_);
    nc.activation(d, x, ActFunc::copy, bias, scale, &sum);
    for (std::int32_t p = 0; p < s.partitions; ++p) {
      float acc = 0.0f;
      for (std::int64_t i = 0; i < x.free_size(); ++i) {
        const float v =
            reference(AluOp::add, reference(AluOp::multiply, get(x, p, i), get(scale, p, 0), rule), get(bias, p, 0), rule);
        EXPECT_SAME_BITS(get(d, p, i), v, describe("activation copy", AluOp::add, rule, s, p, i));
        acc = reference(AluOp::add, acc, v, rule);
      }
      EXPECT_SAME_BITS(get(sum, p, 0), acc, describe("activation reduce", AluOp::add, rule, s, p, 0));
    }
    nc.sbuf().reset();
  }
}

INSTANTIATE_TEST_SUITE_P(Rules, TwoNan,
                         ::testing::Values(TwoNanResult::first_operand, TwoNanResult::second_operand),
                         [](const auto& info) {
                           return info.param == TwoNanResult::first_operand ? std::string("FirstOperand")
                                                                            : std::string("SecondOperand");
                         });

}  // namespace
