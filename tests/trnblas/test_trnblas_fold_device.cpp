// The exact fold of slice-pair partials on GpSimdE (trn/blas/fp64_fold_device.hpp) against the host
// fold, bit for bit, on adversarial partials: cancellation to tiny and to zero sums, carries through
// every digit, negative leading parts, subnormal and overflowing results, rows without exponent (+0),
// rows spanning tiles and partitions, empty rows, several programs and column groups. The reference
// sums the partials by weight in its own loop (exact in double) and rounds with the host functions
// (trn/blas/fp64_slices.hpp: digits_to_double, round_digits_once) that the callers used before.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "trn/blas/fp64_fold_device.hpp"
#include "trn/blas/fp64_slices.hpp"
#include "trn/core/hardware.hpp"

namespace {

namespace tb = trn::blas;
namespace sl = trn::blas::slices;

// One fold problem: partials [tiles][n Sx][J Sa], segment rows [tiles][J], exponents.
struct Problem {
  std::int64_t tiles = 1, n = 1, rows = 1;
  int Sx = 1, Sa = 1, J = 1;
  std::vector<float> partial;
  std::vector<std::int64_t> seg_row;
  std::vector<std::int32_t> row_exp, col_exp;
};

// The host fold, written out: T[g] = sum of the row's partials at weight g = a + x, then one rounding.
std::vector<double> host_fold(const Problem& p, bool correctly_rounded) {
  const int G = p.Sa + p.Sx - 1;
  const std::int64_t N = static_cast<std::int64_t>(p.J) * p.Sa, W = p.n * p.Sx;
  std::vector<double> T(static_cast<std::size_t>(p.rows * p.n * G), 0.0), out(static_cast<std::size_t>(p.rows * p.n), 0.0);
  for (std::int64_t t = 0; t < p.tiles; ++t)
    for (int j = 0; j < p.J; ++j) {
      const std::int64_t r = p.seg_row[static_cast<std::size_t>(t * p.J + j)];
      if (r < 0) break;
      for (std::int64_t c = 0; c < p.n; ++c)
        for (int x = 0; x < p.Sx; ++x)
          for (int a = 0; a < p.Sa; ++a)
            T[static_cast<std::size_t>((r * p.n + c) * G + a + x)] +=
                p.partial[static_cast<std::size_t>((t * W + c * p.Sx + x) * N + j * p.Sa + a)];
    }
  for (std::int64_t r = 0; r < p.rows; ++r)
    for (std::int64_t c = 0; c < p.n; ++c) {
      if (p.row_exp[static_cast<std::size_t>(r)] == sl::kNoExp || p.col_exp[static_cast<std::size_t>(c)] == sl::kNoExp) continue;
      double* Tr = T.data() + (r * p.n + c) * G;
      const int e = p.row_exp[static_cast<std::size_t>(r)] + p.col_exp[static_cast<std::size_t>(c)] - 16;
      out[static_cast<std::size_t>(r * p.n + c)] =
          correctly_rounded ? sl::round_digits_once(Tr, G, e) : sl::digits_to_double(Tr, G, e);
    }
  return out;
}

tb::DeviceFoldArgs args_of(const Problem& p, bool correctly_rounded, double* out) {
  return tb::DeviceFoldArgs{.partial = p.partial.data(), .tiles = p.tiles, .n = p.n, .rows = p.rows, .Sx = p.Sx, .Sa = p.Sa,
                            .J = p.J, .seg_row = p.seg_row, .seg_stride = p.J, .row_exp = p.row_exp.data(),
                            .col_exp = p.col_exp.data(), .correctly_rounded = correctly_rounded, .out = out};
}

constexpr float kMaxPartial = 128.0f * 255.0f * 255.0f;  // a 128-entry segment sum of slice products

// Rows over the tiles' segments: a row ends at a segment with probability 1 / (1 + span) (span 0:
// one segment per row; large spans: rows over many tiles), a tile holds 1..J segments, rows without
// segments are skipped now and then.
void make_pattern(Problem& p, std::mt19937_64& rng, int span) {
  p.seg_row.assign(static_cast<std::size_t>(p.tiles * p.J), -1);
  std::int64_t row = 0;
  std::uniform_int_distribution<int> segs(1, p.J), cont(0, span), skip(0, 7);
  for (std::int64_t t = 0; t < p.tiles; ++t) {
    const int s = t == 0 ? p.J : segs(rng);
    for (int j = 0; j < s; ++j) {
      if (!(t == 0 && j == 0) && cont(rng) == 0) row += skip(rng) == 0 ? 2 : 1;  // a new row (sometimes one empty between)
      p.seg_row[static_cast<std::size_t>(t * p.J + j)] = row;
    }
  }
  p.rows = row + 1 + skip(rng) % 2;  // sometimes an empty last row
}

// Partials of one kind: 0 full-range random, 1 cancelling (each segment's partials in +/- pairs
// plus a small residue), 2 all negative, 3 carries (255, 256, 65535 multiples), 4 mostly zero.
void make_values(Problem& p, std::mt19937_64& rng, int kind) {
  const std::int64_t N = static_cast<std::int64_t>(p.J) * p.Sa, tile = p.n * p.Sx * N, count = p.tiles * tile;
  p.partial.assign(static_cast<std::size_t>(count), 0.0f);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> small(-3, 3), pick(0, 5);
  for (std::int64_t i = 0; i < count; ++i) {
    float v = 0;
    switch (kind) {
      case 0: v = std::trunc(static_cast<float>(u(rng)) * kMaxPartial); break;
      case 1:  // odd tiles cancel the previous tile at the same weight, up to a small residue
        v = (i / tile) % 2 == 0 ? std::trunc(static_cast<float>(u(rng)) * kMaxPartial)
                                : -p.partial[static_cast<std::size_t>(i - tile)] + (pick(rng) == 0 ? static_cast<float>(small(rng)) : 0.0f);
        break;
      case 2: v = -std::trunc(static_cast<float>(std::abs(u(rng))) * kMaxPartial); break;
      case 3: {
        const float unit[] = {255.0f, 256.0f, 65535.0f, 65536.0f, 1.0f, -1.0f};
        v = unit[pick(rng)] * static_cast<float>(small(rng) + 4);
        break;
      }
      default: v = pick(rng) == 0 ? static_cast<float>(small(rng)) : (pick(rng) == 1 ? -0.0f : 0.0f); break;
    }
    p.partial[static_cast<std::size_t>(i)] = v;
  }
}

// Exponents: normal results, the subnormal range, overflow, and lines without exponent.
void make_exponents(Problem& p, std::mt19937_64& rng, int range) {
  std::uniform_int_distribution<int> normal(-60, 60), nexp(0, 9);
  const int base = range == 0 ? 0 : (range == 1 ? -1060 : 1000);
  p.row_exp.resize(static_cast<std::size_t>(p.rows));
  p.col_exp.resize(static_cast<std::size_t>(p.n));
  for (auto& e : p.row_exp) e = nexp(rng) == 0 ? sl::kNoExp : base / 2 + normal(rng) / 4;
  for (auto& e : p.col_exp) e = nexp(rng) == 0 ? sl::kNoExp : base / 2 + normal(rng) / 4;
}

void expect_same_bits(const Problem& p, bool correctly_rounded, const char* what) {
  std::vector<double> dev(static_cast<std::size_t>(p.rows * p.n), 12345.0);
  trn::Trace trace;
  const tb::DeviceFoldFacts f = tb::fold_on_device(trn::LaunchConfig{}, args_of(p, correctly_rounded, dev.data()), trace);
  ASSERT_TRUE(f.fits) << what;
  ASSERT_GE(f.programs, 1) << what;
  const std::vector<double> ref = host_fold(p, correctly_rounded);
  for (std::size_t i = 0; i < ref.size(); ++i)
    ASSERT_EQ(std::bit_cast<std::uint64_t>(dev[i]), std::bit_cast<std::uint64_t>(ref[i]))
        << what << " output " << i << ": device " << dev[i] << " host " << ref[i];
}

TEST(FoldDevice, RandomAdversarialPartialsBitIdenticalToHostFold) {
  std::mt19937_64 rng(20261206);
  std::uniform_int_distribution<int> slices(1, 7), segs(1, 32), cols(1, 4), tiles(1, 300), kind(0, 4), range(0, 2),
      span(0, 40);
  int subnormal_seen = 0, zero_seen = 0, negative_seen = 0;
  for (int trial = 0; trial < 120; ++trial) {
    Problem p;
    p.Sa = slices(rng);
    p.Sx = slices(rng);
    p.J = trial % 3 == 0 ? 1 : segs(rng);
    p.n = cols(rng);
    p.tiles = trial % 5 == 0 ? tiles(rng) : tiles(rng) % 12 + 1;
    make_pattern(p, rng, trial % 4 == 0 ? 0 : span(rng));
    make_values(p, rng, kind(rng));
    make_exponents(p, rng, range(rng));
    const bool cr = trial % 2 == 1;
    expect_same_bits(p, cr, cr ? "round_digits_once" : "digits_to_double");
    for (const double v : host_fold(p, cr)) {
      subnormal_seen += v != 0.0 && std::fpclassify(v) == FP_SUBNORMAL;
      zero_seen += v == 0.0;
      negative_seen += v < 0.0;
    }
  }
  EXPECT_GT(subnormal_seen, 0);  // the cases reached what they are meant to
  EXPECT_GT(zero_seen, 0);
  EXPECT_GT(negative_seen, 0);
}

// Many programs: tiles beyond one program's partials (J = 32, 7 x 7 slices: 1280 tiles a program),
// and 64 columns (column groups of <= 10 at one tile per partition).
TEST(FoldDevice, SeveralProgramsAndColumnGroups) {
  std::mt19937_64 rng(7);
  Problem p;
  p.Sa = p.Sx = 7;
  p.J = 32;
  p.tiles = 1400;
  make_pattern(p, rng, 3);
  make_values(p, rng, 0);
  make_exponents(p, rng, 0);
  trn::Trace trace;
  std::vector<double> dev(static_cast<std::size_t>(p.rows * p.n));
  EXPECT_GE(tb::fold_on_device(trn::LaunchConfig{}, args_of(p, false, dev.data()), trace).programs, 2);
  expect_same_bits(p, false, "two programs");
  Problem q;
  q.Sa = q.Sx = 7;
  q.J = 32;
  q.n = 64;
  q.tiles = 20;
  make_pattern(q, rng, 2);
  make_values(q, rng, 1);
  make_exponents(q, rng, 0);
  expect_same_bits(q, true, "column groups");
}

// A row whose partials exceed one program: nothing launched, the caller keeps the host fold.
TEST(FoldDevice, RowTooLongForOneProgramIsNotLaunched) {
  Problem p;
  p.Sa = p.Sx = 7;
  p.J = 32;
  p.tiles = 1300;
  p.seg_row.assign(static_cast<std::size_t>(p.tiles * p.J), -1);
  for (std::int64_t t = 0; t < p.tiles; ++t) p.seg_row[static_cast<std::size_t>(t * p.J)] = 0;
  p.rows = 1;
  p.row_exp = {0};
  p.col_exp = {0};
  p.partial.assign(static_cast<std::size_t>(p.tiles * p.Sx * p.J * p.Sa), 1.0f);
  trn::Trace trace;
  std::vector<double> dev(1, 5.0);
  const tb::DeviceFoldFacts f = tb::fold_on_device(trn::LaunchConfig{}, args_of(p, false, dev.data()), trace);
  EXPECT_FALSE(f.fits);
  EXPECT_EQ(f.programs, 0);
  EXPECT_TRUE(trace.instructions.empty());
  EXPECT_EQ(dev[0], 5.0);
}

// The operator is one GpSimdE custom_op per program with its declared cycles: the start-up plus at least
// the per-output fold of its outputs (fp64_fold_device.cpp derives the counts), never 0.
TEST(FoldDevice, DeclaredCyclesCountTheIntegerWork) {
  std::mt19937_64 rng(3);
  Problem p;
  p.Sa = p.Sx = 7;
  p.J = 4;
  p.n = 2;
  p.tiles = 5;
  make_pattern(p, rng, 1);
  make_values(p, rng, 0);
  make_exponents(p, rng, 0);
  trn::LaunchConfig lc;
  lc.core.execute = false;  // timing only: the same trace, nothing computed
  trn::Trace trace;
  std::vector<double> dev(static_cast<std::size_t>(p.rows * p.n), 9.0);
  const tb::DeviceFoldFacts f = tb::fold_on_device(lc, args_of(p, false, dev.data()), trace);
  std::int64_t ops = 0;
  const double per_output = tb::fold_ops_per_output(13, false);
  EXPECT_GT(per_output, 13 * 40.0);  // at least one software fp64 add per digit
  EXPECT_GT(tb::fold_ops_per_output(13, false), tb::fold_ops_per_output(13, true));
  for (const trn::Instruction& ins : trace.instructions)
    if (ins.opcode == trn::Opcode::custom_op) {
      ++ops;
      EXPECT_EQ(ins.engine, trn::Engine::gpsimd);
      EXPECT_GE(ins.declared_cycles, trn::hardware_spec(trn::Generation::trn1).gpsimd_start + per_output);
    }
  EXPECT_EQ(ops, f.programs);
  EXPECT_EQ(dev[0], 9.0);  // timing only writes nothing
}

}  // namespace

namespace {

// The host-or-device choice: a caller whose host fold is modeled cheaper than the launch keeps it
// (nothing launched, out untouched); a large fold goes to the device.
TEST(FoldDevice, SmallFoldsStayOnTheHostLargeOnesMove) {
  std::mt19937_64 rng(11);
  Problem p;
  p.Sa = p.Sx = 7;
  p.J = 1;
  p.tiles = 1;
  make_pattern(p, rng, 0);
  make_values(p, rng, 0);
  make_exponents(p, rng, 0);
  const trn::HardwareSpec& hw = trn::hardware_spec(trn::Generation::trn1);
  const double partials = static_cast<double>(p.partial.size());
  std::vector<double> dev(static_cast<std::size_t>(p.rows * p.n), 5.0);
  tb::DeviceFoldArgs a = args_of(p, false, dev.data());
  a.host_fold_ns = tb::host_fold_ns(hw, partials, static_cast<double>(p.rows * p.n), 13);
  trn::Trace trace;
  const tb::DeviceFoldFacts small = tb::fold_on_device(trn::LaunchConfig{}, a, trace);
  EXPECT_FALSE(small.fits);
  EXPECT_TRUE(small.host_cheaper);
  EXPECT_GT(small.device_ns, a.host_fold_ns);
  EXPECT_TRUE(trace.instructions.empty());
  EXPECT_EQ(dev[0], 5.0);
  Problem q;  // a dot of 256 K entries: 2048 tiles of one segment
  q.Sa = q.Sx = 7;
  q.J = 1;
  q.tiles = 2048;
  q.seg_row.assign(2048, 0);
  q.rows = 1;
  q.row_exp = {3};
  q.col_exp = {-2};
  make_values(q, rng, 1);
  std::vector<double> out(1, 5.0);
  tb::DeviceFoldArgs b = args_of(q, false, out.data());
  b.host_fold_ns = tb::host_fold_ns(hw, static_cast<double>(q.partial.size()), 1.0, 13);
  const tb::DeviceFoldFacts large = tb::fold_on_device(trn::LaunchConfig{}, b, trace);
  EXPECT_TRUE(large.fits);
  EXPECT_LT(large.device_ns, b.host_fold_ns);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(out[0]), std::bit_cast<std::uint64_t>(host_fold(q, false)[0]));
}

}  // namespace
