// The fp64 slicing on GpSimdE / VectorE (trnsparse/src/device_slices.hpp, issue #28): every bf16
// slice the engines cut from an fp64 value's two uint32 words equals trn::blas::slices::cut_slices's
// (the host splitting it replaces) bit for bit up to the sign of a zero slice — signs, subnormals, values far below the
// line's exponent (all-zero slices), slice counts 1..136 (1..34 words) and broadcast offsets — under
// both numerics profiles (the word ops run on GpSimdE, exact in both; VectorE only sees integers below
// 2^21). A wrong shift case (K outside [0, 32), one word's boundary) or a lost sign flips bits here.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "../../trnsparse/src/device_slices.hpp"
#include "trn/blas/fp64_slices.hpp"
#include "trn/core/spmd.hpp"
#include "trn/tile/view.hpp"

namespace {

namespace sl = trn::blas::slices;
using trn::DType;
using trn::Tile;
constexpr int kP = 128;

// Values v[p][i] with offsets e[p][i] (e >= exp_of(v)), run through slice_fp64_on_device in one
// program; returns the bf16 slices [p][i][S].
std::vector<std::uint16_t> device_slices(const std::vector<double>& v, const std::vector<std::int32_t>& e, int C, int S,
                                         trn::Numerics numerics, bool broadcast_offsets) {
  std::vector<std::int32_t> off(e.size());
  for (std::size_t k = 0; k < e.size(); ++k) off[k] = trn::sparse::kSliceOffsetBias + e[k];
  std::vector<std::uint16_t> out(static_cast<std::size_t>(kP) * C * S, 0xDEAD);
  trn::LaunchConfig cfg;
  cfg.core.numerics = numerics;
  cfg.host_threads = 1;
  trn::launch(cfg, [&](trn::NeuronCore& nc) {
    trn::AllocScope sb(nc.sbuf());
    const Tile words = sb.alloc(DType::u32, kP, {2 * C}, "t.words");
    const Tile offs = sb.alloc(DType::i32, kP, {C}, "t.off");
    const Tile dst = sb.alloc(DType::bf16, kP, {C * S}, "t.dst");
    nc.dma_copy(words, trn::tile::hbm_view(v.data(), DType::u32, kP, 2 * C, {{2 * C, 1}}));
    // broadcast: every partition reads row 0's C offsets (the form the SpMM kernel uses for X's columns)
    nc.dma_copy(offs, trn::tile::hbm_view(off.data(), DType::i32, kP, broadcast_offsets ? 0 : C, {{C, 1}}));
    trn::sparse::slice_fp64_on_device(
        nc, {.dst = dst, .words = words, .offsets = trn::tile::view(offs, 0, {{1, C}, {C, 1}}), .outer = 1, .inner = C, .S = S});
    nc.dma_copy(trn::tile::hbm_view(out.data(), DType::bf16, kP, static_cast<std::int64_t>(C) * S, {{C * S, 1}}), dst);
  });
  return out;
}

// One value of every kind the slicing meets, its offset e drawn at or above exp_of(v).
struct Sample {
  std::vector<double> v;
  std::vector<std::int32_t> e;
};
Sample make_sample(int C, std::uint64_t seed, bool same_e_per_column) {
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<int> ex(-1060, 1000), gap(0, 80), kind(0, 9);
  std::uniform_real_distribution<double> m(-1.0, 1.0);
  Sample s;
  std::vector<std::int32_t> column_e(static_cast<std::size_t>(C));
  for (auto& ce : column_e) ce = ex(g) + 60;
  for (int p = 0; p < kP; ++p)
    for (int i = 0; i < C; ++i) {
      double v = 0;
      switch (kind(g)) {
        case 0: v = (g() & 1) ? 0.0 : -0.0; break;
        case 1: v = std::ldexp(m(g), -1040 - gap(g)); break;  // subnormal
        case 2: v = (g() & 1 ? 1 : -1) * std::ldexp(1.0, ex(g)); break;  // a power of two (m = 2^52)
        case 3: v = std::bit_cast<double>(g() & 0x7fefffffffffffffull) * (g() & 1 ? 1 : -1); break;  // any finite bits
        default: v = std::ldexp(m(g), ex(g));
      }
      const int ev = sl::exp_of(v);
      std::int32_t e = ev == sl::kNoExp ? ex(g) : ev + (kind(g) < 5 ? 0 : gap(g));  // e == exp_of(v) half the time
      if (same_e_per_column) {
        e = column_e[static_cast<std::size_t>(i)];
        if (ev != sl::kNoExp && ev > e) v = std::ldexp(v, e - ev);  // keep |v| < 2^e
      }
      s.v.push_back(v);
      s.e.push_back(std::min(e, 1024));
    }
  return s;
}

// Equal bits, except the sign of a zero slice: cut_slices's trunc gives -0 for a negative value's zero
// digit while a remainder is left and +0 after it is exhausted; the device gives every zero slice of a
// negative value -0. Products with +-0 are +-0 and PSUM sums of them never reach the fold's sum (it
// starts at +0), so the results' bits cannot see the difference (test_trnsparse_segmented checks them).
bool same_slice(std::uint16_t device, std::uint16_t host) {
  return device == host || ((device | host) & 0x7fff) == 0;
}

void expect_equal_to_cut_slices(const Sample& s, int C, int S, trn::Numerics numerics, bool broadcast) {
  const std::vector<std::uint16_t> got = device_slices(s.v, s.e, C, S, numerics, broadcast);
  std::vector<std::uint16_t> want(static_cast<std::size_t>(S));
  int mismatches = 0;
  for (int p = 0; p < kP; ++p)
    for (int i = 0; i < C; ++i) {
      const std::size_t k = static_cast<std::size_t>(p) * C + i;
      const double v = s.v[k];
      const int e = s.e[k];
      if (std::fabs(v) != 0 && std::fpclassify(std::ldexp(v, -e)) == FP_SUBNORMAL) continue;  // cut_slices rounds there
      sl::cut_slices(v, -e, S, want.data(), 1);
      for (int t = 0; t < S; ++t)
        if (!same_slice(got[k * S + t], want[t]) && ++mismatches <= 5)
          ADD_FAILURE() << "v = " << v << " e = " << e << " S = " << S << " slice " << t << ": device 0x" << std::hex
                        << got[k * S + t] << " cut_slices 0x" << want[t];
    }
  EXPECT_EQ(mismatches, 0) << "S = " << S;
}

TEST(DeviceSlices, EqualCutSlicesBitForBitInBothProfiles) {
  for (trn::Numerics n : {trn::Numerics::ideal, trn::Numerics::trn1_measured})
    for (int S : {1, 4, 5, 9, 17, 136}) expect_equal_to_cut_slices(make_sample(6, 100 + S, false), 6, S, n, false);
}

TEST(DeviceSlices, BroadcastColumnOffsetsAsTheSpmmKernelUses) {
  for (int S : {3, 8, 12}) expect_equal_to_cut_slices(make_sample(5, 7 + S, true), 5, S, trn::Numerics::trn1_measured, true);
}

// The sample must reach every shift case, or the tests above prove little: values whose top slice
// needs bits of both words, of lo alone (K < 0 for the last slices) and all-zero slices.
TEST(DeviceSlices, SampleCoversEveryShiftCase) {
  const Sample s = make_sample(6, 109, false);
  int both = 0, below = 0, zero = 0, subnormal = 0, negative = 0;
  for (std::size_t k = 0; k < s.v.size(); ++k) {
    const int ev = sl::exp_of(s.v[k]);
    if (ev == sl::kNoExp) continue;
    const int gap = s.e[k] - ev;
    both += gap < 8;
    below += gap > 16;
    zero += gap > 72;
    subnormal += std::fpclassify(s.v[k]) == FP_SUBNORMAL;
    negative += std::signbit(s.v[k]);
  }
  EXPECT_GT(both, 50);
  EXPECT_GT(below, 20);
  EXPECT_GT(zero, 0);
  EXPECT_GT(subnormal, 20);
  EXPECT_GT(negative, 200);
}

}  // namespace
