// The fp64 slicing on GpSimdE / VectorE: algorithm, engines, accuracy and limits in trn/tile/fp64_slices.hpp.
#include "trn/tile/fp64_slices.hpp"

#include <array>

#include "trn/tile/view.hpp"

namespace trn::tile {
namespace {

constexpr Engine kWords = Engine::gpsimd;  // ops on 32-bit words: exact integer bitvec in both profiles
constexpr Engine kSmall = Engine::vector;  // integers below 2^21: exact on VectorE's fp32 path as well

int words_for(int S) { return (S + 3) / 4; }

// The per-value terms: the significand's high word, the shift k0 and the sign factor.
struct ValueTerms {
  Tile mhi, k0, sign;
};

// A [P, 1] integer constant (memset: whole numbers below 2^24 are exact in its fp32 value).
Tile constant(NeuronCore& nc, AllocScope& sb, DType dtype, std::int32_t P, float value) {
  const Tile t = sb.alloc(dtype, P, {1}, "dslice.const", 0, AllocFill::none);
  nc.memset(t, value, kSmall);
  return t;
}

// field = (hi >> 20) & 0x7ff; mhi = (hi & 0xfffff) + [field != 0] 2^20; k0 = o - max(field, 1);
// sign = 1 - 2 (hi >> 31). The ops on hi are GpSimdE tensor_tensor (tensor_scalar's bitvec ops are
// VectorE only, docs/numerics.md) with [P, 1] constants read by broadcast.
ValueTerms value_terms(NeuronCore& nc, AllocScope& sb, const DeviceSliceArgs& a) {
  const int P = a.words.partitions;
  const std::int64_t o = a.outer, i = a.inner;
  const FreePattern vals{{o, i}, {i, 1}};
  const auto each_value = [&](const Tile& c) { return view(c, 0, {{o, 0}, {i, 0}}); };
  const Tile hi = view(a.words, 1, {{o, 2 * i}, {i, 2}});
  const Tile field = sb.alloc(DType::i32, P, {o * i}, "dslice.field", 0, AllocFill::none);
  const Tile implicit = sb.alloc(DType::i32, P, {o * i}, "dslice.implicit", 0, AllocFill::none);
  ValueTerms t{sb.alloc(DType::u32, P, {o * i}, "dslice.mhi", 0, AllocFill::none),
               sb.alloc(DType::i32, P, {o * i}, "dslice.k0", 0, AllocFill::none),
               sb.alloc(DType::i32, P, {o * i}, "dslice.sign", 0, AllocFill::none)};
  const Tile c20 = constant(nc, sb, DType::u32, P, 20.0f), c31 = constant(nc, sb, DType::u32, P, 31.0f);
  const Tile cfrac = constant(nc, sb, DType::u32, P, static_cast<float>(0xfffff));
  nc.tensor_tensor(view(field, 0, vals), hi, each_value(c20), AluOp::right_shift, kWords);
  nc.tensor_scalar(field, field, AluOp::bitwise_and, 2047.0f, AluOp::bypass, 0.0f, kSmall);  // < 2^12 here
  Tile non_finite;  // 2^16 [field == 0x7ff]: k0 beyond every shift, zero slices
  if (a.zero_non_finite) {
    non_finite = sb.alloc(DType::i32, P, {o * i}, "dslice.nonfinite", 0, AllocFill::none);
    nc.tensor_scalar(non_finite, field, AluOp::equal, 2047.0f, AluOp::multiply, 65536.0f, kSmall);
  }
  nc.tensor_tensor(view(t.mhi, 0, vals), hi, each_value(cfrac), AluOp::bitwise_and, kWords);
  nc.tensor_scalar(implicit, field, AluOp::minimum, 1.0f, AluOp::multiply, static_cast<float>(1 << 20), kSmall);
  nc.tensor_tensor(t.mhi, t.mhi, implicit, AluOp::add, kSmall);  // < 2^21
  nc.tensor_scalar(field, field, AluOp::maximum, 1.0f, AluOp::bypass, 0.0f, kSmall);  // E
  nc.tensor_tensor(view(t.k0, 0, vals), a.offsets, view(field, 0, vals), AluOp::subtract, kSmall);
  if (a.zero_non_finite) nc.tensor_tensor(t.k0, t.k0, non_finite, AluOp::add, kSmall);  // < 2^17 + 2^12
  nc.tensor_tensor(view(t.sign, 0, vals), hi, each_value(c31), AluOp::right_shift, kWords);
  nc.tensor_scalar(t.sign, t.sign, AluOp::multiply, -2.0f, AluOp::add, 1.0f, kSmall);
  return t;
}

// word[(value, j)] = m >> K_j, K_j = k0 - 24 - 32 j, as the four shifted terms ORed (every shift
// amount outside [0, 32) gives 0).
Tile magnitude_words(NeuronCore& nc, AllocScope& sb, const DeviceSliceArgs& a, const ValueTerms& t) {
  const int P = a.words.partitions, W = words_for(a.S);
  const std::int64_t o = a.outer, i = a.inner;
  const FreePattern per_word{{o, i * W}, {i, W}, {W, 1}};
  const auto each_word = [&](const Tile& per_value, std::int64_t offset, std::int64_t step) {
    return view(per_value, offset, {{o, step * i}, {i, step}, {W, 0}});
  };
  const Tile lo = each_word(a.words, 0, 2), mhi = each_word(t.mhi, 0, 1);
  const Tile shift_base = sb.alloc(DType::i32, P, {W}, "dslice.jshift", 0, AllocFill::none);
  const std::array<std::array<std::int64_t, 2>, 1> jpattern{{{32, W}}};
  nc.iota(shift_base, jpattern, 24, 0);  // 24 + 32 j
  const Tile K = sb.alloc(DType::i32, P, {o * i * W}, "dslice.K", 0, AllocFill::none);
  const Tile amount = sb.alloc(DType::i32, P, {o * i * W}, "dslice.amount", 0, AllocFill::none);
  const Tile term = sb.alloc(DType::u32, P, {o * i * W}, "dslice.term", 0, AllocFill::none);
  const Tile word = sb.alloc(DType::u32, P, {o * i * W}, "dslice.word", 0, AllocFill::none);
  const Tile Kv = view(K, 0, per_word), amountv = view(amount, 0, per_word), termv = view(term, 0, per_word);
  nc.tensor_tensor(Kv, each_word(t.k0, 0, 1), view(shift_base, 0, {{o, 0}, {i, 0}, {W, 1}}), AluOp::subtract, kSmall);
  nc.tensor_tensor(view(word, 0, per_word), lo, Kv, AluOp::right_shift, kWords);  // lo >> K
  nc.tensor_scalar(amount, K, AluOp::subtract, 32.0f, AluOp::bypass, 0.0f, kSmall, /*reverse0=*/true);  // 32 - K
  nc.tensor_tensor(termv, mhi, amountv, AluOp::left_shift, kWords);
  nc.tensor_tensor(word, word, term, AluOp::bitwise_or, kWords);
  nc.tensor_scalar(amount, K, AluOp::subtract, 32.0f, AluOp::bypass, 0.0f, kSmall);  // K - 32
  nc.tensor_tensor(termv, mhi, amountv, AluOp::right_shift, kWords);
  nc.tensor_tensor(word, word, term, AluOp::bitwise_or, kWords);
  nc.tensor_scalar(amount, K, AluOp::multiply, -1.0f, AluOp::bypass, 0.0f, kSmall);  // -K
  nc.tensor_tensor(termv, lo, amountv, AluOp::left_shift, kWords);
  nc.tensor_tensor(word, word, term, AluOp::bitwise_or, kWords);
  return word;
}

// dst[(value, s)] = sign ((word_{s/4} >> (24 - 8 (s % 4))) & 255) as bf16: one GpSimdE shift of every
// word by 24, 16, 8, 0 into a u8 tile (the 32-bit result truncated to 8 bits is the & 255), then one
// VectorE multiply by the sign.
void signed_slices(NeuronCore& nc, AllocScope& sb, const DeviceSliceArgs& a, const ValueTerms& t, const Tile& word) {
  const int P = a.words.partitions, W = words_for(a.S);
  const std::int64_t o = a.outer, i = a.inner, S = a.S;
  const Tile byte_shift = sb.alloc(DType::i32, P, {4}, "dslice.bshift", 0, AllocFill::none);
  const std::array<std::array<std::int64_t, 2>, 1> bpattern{{{-8, 4}}};
  nc.iota(byte_shift, bpattern, 24, 0);  // 24, 16, 8, 0
  const Tile digit = sb.alloc(DType::u8, P, {o * i * 4 * W}, "dslice.digit", 0, AllocFill::none);
  nc.tensor_tensor(view(digit, 0, {{o * i * W, 4}, {4, 1}}), view(word, 0, {{o * i * W, 1}, {4, 0}}),
                   view(byte_shift, 0, {{o * i * W, 0}, {4, 1}}), AluOp::right_shift, kWords);
  nc.tensor_tensor(view(a.dst, 0, {{o, i * S}, {i, S}, {S, 1}}), view(digit, 0, {{o, i * 4 * W}, {i, 4 * W}, {S, 1}}),
                   view(t.sign, 0, {{o, i}, {i, 1}, {S, 0}}), AluOp::multiply, kSmall);
}

}  // namespace

void slice_fp64_on_device(NeuronCore& nc, const DeviceSliceArgs& a) {
  AllocScope sb(nc.sbuf());
  const ValueTerms t = value_terms(nc, sb, a);
  const Tile word = magnitude_words(nc, sb, a, t);
  signed_slices(nc, sb, a, t, word);
}

std::int64_t device_slice_scratch_bytes(int S, bool zero_non_finite) {
  const std::int64_t W = words_for(S);
  return (zero_non_finite ? 4 : 0) + 5 * 4 + 4 * 4 * W + 4 * W;  // [non_finite,] field, implicit, mhi, k0, sign; K, amount, term, word; u8 digits (the
                                      // constants, iotas: < 4 W + 32 bytes per call, within the caller's slack)
}

}  // namespace trn::tile
