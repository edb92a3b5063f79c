// trn::tile views (trn/tile/view.hpp), complex-plane arithmetic (trn/tile/complex.hpp) and the
// streaming-rows launch (trn/tile/launch_rows.hpp): what each addresses, what each rejects (with
// the offending values in the message), and the instruction sequences' results against the same
// fp32 operations on the host.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "test_util.hpp"
#include "trn/core/core.hpp"
#include "trn/tile/complex.hpp"
#include "trn/tile/launch_rows.hpp"
#include "trn/tile/view.hpp"

using namespace trn;

namespace {

using trntest::error_of;

float f32_at(const Tile& t, std::int32_t p, std::int64_t i) {
  float v;
  std::memcpy(&v, t.at(p, i), 4);
  return v;
}

// A [partitions, n] f32 SBUF tile holding 1000 p + i at (p, i).
Tile numbered(NeuronCore& nc, std::int32_t partitions, std::int64_t n) {
  const Tile t = nc.sbuf().alloc(DType::f32, partitions, {n}, "numbered");
  for (std::int32_t p = 0; p < partitions; ++p)
    for (std::int64_t i = 0; i < n; ++i) {
      const float v = static_cast<float>(1000 * p + i);
      std::memcpy(t.at(p, i), &v, 4);
    }
  return t;
}

TEST(TileView, AddressesThePatternFromTheOffset) {
  NeuronCore nc;
  const Tile flat = numbered(nc, 2, 24);
  // A column-major 4 x 6 matrix from element 0 as [cols, rows]: (c, r) = element 4 c + r.
  const Tile m = tile::view(flat, 0, {{6, 4}, {4, 1}});
  EXPECT_EQ(m.ndim, 2);
  EXPECT_EQ(m.free_size(), 24);
  EXPECT_EQ(f32_at(m, 1, 2 * 4 + 3), 1000.0f + 11.0f);
  // Element 5 of each of 3 groups of 6, repeated 4 times (stride 0), from offset 5.
  const Tile rep = tile::view(flat, 5, {{3, 6}, {4, 0}});
  for (std::int64_t g = 0; g < 3; ++g)
    for (std::int64_t k = 0; k < 4; ++k) EXPECT_EQ(f32_at(rep, 0, g * 4 + k), static_cast<float>(5 + 6 * g));
  EXPECT_EQ(rep.offset_bytes, flat.offset_bytes + 5 * 4);
  EXPECT_EQ(rep.size[2], 1);
  EXPECT_EQ(rep.stride[2], 0);
  // An engine reads the view like any pattern: the repeated column copied out.
  const Tile out = nc.sbuf().alloc(DType::f32, 2, {12}, "out");
  nc.tensor_copy(out.reshape({3, 4}), rep);
  EXPECT_EQ(f32_at(out, 1, 11), 1000.0f + 17.0f);
}

TEST(TileView, RejectsPatternsOutsideTheDenseRunWithTheirValues) {
  NeuronCore nc;
  const Tile flat = numbered(nc, 1, 24);
  std::string msg = error_of([&] { tile::view(flat, 1, {{6, 4}, {4, 1}}); });
  EXPECT_NE(msg.find("tile::view"), std::string::npos) << msg;
  EXPECT_NE(msg.find("last element 24"), std::string::npos) << msg;
  EXPECT_NE(msg.find("source free size 24"), std::string::npos) << msg;
  msg = error_of([&] { tile::view(flat, 1, {{3, -1}}); });
  EXPECT_NE(msg.find("first element -1"), std::string::npos) << msg;
  msg = error_of([&] { tile::view(flat.slice(0, 0, 12, 2), 0, {{2, 1}}); });
  EXPECT_NE(msg.find("not one dense run"), std::string::npos) << msg;
  msg = error_of([&] { tile::view(flat, 0, {{1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}}); });
  EXPECT_NE(msg.find("free dimensions 5"), std::string::npos) << msg;
  // An empty view may sit at the end of the run, like an empty slice.
  EXPECT_EQ(tile::view(flat, 24, {{0, 1}}).free_size(), 0);
}

TEST(TileView, ComplexPlanesAreTheStepTwoViewsOfInterleavedElements) {
  NeuronCore nc;
  const Tile flat = numbered(nc, 1, 16);  // 8 complex elements (re 2k, im 2k + 1)
  const Tile re = tile::complex_plane(flat, 0, 1, {{2, 4}, {3, 1}});
  const Tile im = tile::complex_plane(flat, 1, 1, {{2, 4}, {3, 1}});
  for (std::int64_t g = 0; g < 2; ++g)
    for (std::int64_t k = 0; k < 3; ++k) {
      const std::int64_t e = 1 + 4 * g + k;
      EXPECT_EQ(f32_at(re, 0, 3 * g + k), static_cast<float>(2 * e));
      EXPECT_EQ(f32_at(im, 0, 3 * g + k), static_cast<float>(2 * e + 1));
    }
  EXPECT_NE(error_of([&] { tile::complex_plane(flat, 2, 0, {{1, 1}}); }).find("part 2"), std::string::npos);
  EXPECT_NE(error_of([&] { tile::complex_plane(flat, 1, 7, {{2, 1}}); }).find("last element 17"), std::string::npos);
}

TEST(TileView, BroadcastAndStackOuterRepeatWithoutCopying) {
  NeuronCore nc;
  const Tile flat = numbered(nc, 2, 12);
  const Tile col = flat.cols(5, 1);
  const Tile b = tile::broadcast(col, 0, 7);
  EXPECT_EQ(b.size[0], 7);
  EXPECT_EQ(b.stride[0], 0);
  EXPECT_EQ(f32_at(b, 1, 6), 1005.0f);
  std::string msg = error_of([&] { tile::broadcast(flat, 0, 3); });
  EXPECT_NE(msg.find("size of the broadcast dimension 12"), std::string::npos) << msg;
  msg = error_of([&] { tile::broadcast(col, 1, 3); });
  EXPECT_NE(msg.find("dimension 1"), std::string::npos) << msg;

  const Tile row = flat.cols(2, 3);  // elements 2, 3, 4
  const Tile s0 = tile::stack_outer(row, 4, 0), s3 = tile::stack_outer(row, 3, 3);
  EXPECT_EQ(s0.ndim, 2);
  EXPECT_EQ(f32_at(s0, 0, 3 * 3 + 2), 4.0f);   // the same row again
  EXPECT_EQ(f32_at(s3, 1, 2 * 3 + 1), 1009.0f);  // element 2 + 3 * 2 + 1
  const Tile four = flat.reshape({1, 2, 2, 3});
  msg = error_of([&] { tile::stack_outer(four, 2, 0); });
  EXPECT_NE(msg.find("free dimensions 5"), std::string::npos) << msg;
}

TEST(TileView, HbmViewAndPartitionPairsMoveTheAddressedElements) {
  NeuronCore nc;
  // Host memory: 6 rows of 10 floats, value 100 r + c.
  std::vector<float> host(60);
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 10; ++c) host[static_cast<std::size_t>(10 * r + c)] = static_cast<float>(100 * r + c);
  // Partitions = rows 1, 3, 5 (stride 20 elements), free = columns 2, 5, 8 (stride 3).
  const Tile h = tile::hbm_view(host.data() + 10 + 2, DType::f32, 3, 20, {{3, 3}});
  const Tile s = nc.sbuf().alloc(DType::f32, 3, {3}, "s");
  nc.dma_copy(s, h);
  EXPECT_EQ(f32_at(s, 2, 1), 505.0f);
  EXPECT_EQ(h.mem, MemSpace::hbm);
  EXPECT_NE(error_of([&] { tile::hbm_view(host.data(), DType::f32, -1, 10, {{1, 1}}); }).find("partitions -1"),
            std::string::npos);

  // Rows [6, 4] read as pairs: partition p holds rows 2p, 2p + 1.
  const HbmTensor t = HbmTensor::wrap(host.data(), DType::f32, {6, 10});
  const Tile pairs = tile::partition_pairs(t.tile(0, 6, 1, 4));
  EXPECT_EQ(pairs.partitions, 3);
  const Tile d = nc.sbuf().alloc(DType::f32, 3, {2, 4}, "pairs");
  nc.dma_copy(d, pairs);
  EXPECT_EQ(f32_at(d, 2, 1 * 4 + 3), 504.0f);  // row 5, column 4
  EXPECT_EQ(f32_at(d, 1, 0 * 4 + 0), 201.0f);  // row 2, column 1
  std::string msg = error_of([&] { tile::partition_pairs(t.tile(0, 5, 0, 4)); });
  EXPECT_NE(msg.find("partitions 5"), std::string::npos) << msg;
  msg = error_of([&] { tile::partition_pairs(d.rows(0, 2).reshape({8})); });
  EXPECT_NE(msg.find("HBM"), std::string::npos) << msg;
}

// The complex collectives give the fp32 results of their documented instruction sequences.
TEST(TileComplex, ProductsScaleAndReciprocalMatchTheirFp32Sequences) {
  NeuronCore nc;
  const Tile v = nc.sbuf().alloc(DType::f32, 2, {16}, "values");
  const float vals[2][8] = {{1.5f, -2.25f, 0.75f, 3.0f, -1.0f, 0.5f, 2.0f, 1e-3f},
                            {-3.5f, 1.25f, 2.5f, -0.125f, 4.0f, -2.0f, 1e30f, -3e30f}};
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 8; ++i) std::memcpy(v.at(p, i), &vals[p][i], 4);
  const auto c = [&](int i) { return v.cols(i, 1); };
  const tile::ComplexPlanes a{c(0), c(1)}, b{c(2), c(3)}, out{c(8), c(9)}, acc{c(4), c(5)};
  tile::complex_multiply(nc, out, a, b, c(10));
  tile::complex_multiply_subtract(nc, acc, a, b, c(11), c(12));
  for (int p = 0; p < 2; ++p) {
    const float* x = vals[p];
    const float re = x[0] * x[2] - x[1] * x[3], im = x[0] * x[3] + x[1] * x[2];
    EXPECT_EQ(f32_at(v, p, 8), re);
    EXPECT_EQ(f32_at(v, p, 9), im);
    EXPECT_EQ(f32_at(v, p, 4), x[4] - re);
    EXPECT_EQ(f32_at(v, p, 5), x[5] - im);
  }
  // 1 / e for e = (x6, x7): scaled by m = max(|x6|, |x7|), finite even for |e| ~ 1e30.
  const Tile m = c(13);
  nc.tensor_tensor(m, c(6), c(7), AluOp::abs_max);
  const Tile w = nc.sbuf().alloc(DType::f32, 2, {6}, "work");
  const tile::ComplexPlanes r{w.cols(4, 1), w.cols(5, 1)};
  tile::complex_reciprocal(nc, c(6), c(7), m, {w.cols(0, 1), w.cols(1, 1), w.cols(2, 1), w.cols(3, 1)}, r);
  for (int p = 0; p < 2; ++p) {
    const float er = vals[p][6], ei = vals[p][7];
    const float mm = std::max(std::fabs(er), std::fabs(ei)), a1 = er / mm, b1 = ei / mm;
    const float q = (a1 * a1 + b1 * b1) * mm;
    EXPECT_EQ(f32_at(r.re, p, 0), a1 / q);
    EXPECT_EQ(f32_at(r.im, p, 0), -(b1 / q));
    EXPECT_TRUE(std::isfinite(f32_at(r.re, p, 0)) && f32_at(r.re, p, 0) != 0.0f);
  }
  // x *= s for the per-partition scalar s = r (tiles) and an immediate.
  const tile::ComplexPlanes x{c(0), c(1)};
  const Tile t = nc.sbuf().alloc(DType::f32, 2, {3}, "t");
  tile::complex_scale(nc, x, 2.0f, -0.5f, t.cols(0, 1), t.cols(1, 1), t.cols(2, 1));
  for (int p = 0; p < 2; ++p) {
    const float xr = vals[p][0], xi = vals[p][1];
    EXPECT_EQ(f32_at(v, p, 0), xr * 2.0f - xi * -0.5f);
    EXPECT_EQ(f32_at(v, p, 1), xr * -0.5f + xi * 2.0f);
  }
}

TEST(TileLaunchRows, EveryElementOnceInPmaxRowBlocksAndOneTail) {
  const std::int64_t width = 512, n = 128 * width * 2 + width + 188;  // 257 rows + a tail of 188
  std::vector<float> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n), -1.0f);
  std::iota(x.begin(), x.end(), 0.0f);
  const LaunchConfig lc = EmulatorSettings{}.launch_config();
  const LaunchResult r = tile::launch_rows(lc, n, width, [&](NeuronCore& nc, const tile::RowBlock& rb) {
    AllocScope sb(nc.sbuf());
    const Tile t = sb.alloc(DType::f32, rb.partitions, {rb.width}, "x");
    nc.dma_copy(t, rb.of(x.data(), DType::f32));
    nc.tensor_scalar(t, t, AluOp::multiply, 2.0f);
    nc.dma_copy(rb.of(y.data(), DType::f32), t);
  });
  // Programs: rows 0-127, 128-255, 256 (one partition), and the tail [1, 188]: 3 instructions each.
  EXPECT_EQ(r.trace.instructions.size(), 4u * 3u);
  EXPECT_EQ(r.trace.instructions.back().bytes_written, 188 * 4);  // the tail: one partition of 188 floats
  EXPECT_EQ(r.trace.instructions.back().partitions, 1);
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(y[static_cast<std::size_t>(i)], 2.0f * static_cast<float>(i)) << i;
  EXPECT_TRUE(tile::launch_rows(lc, 0, width, [](NeuronCore&, const tile::RowBlock&) { FAIL(); }).trace.instructions.empty());
  EXPECT_NE(error_of([&] { tile::launch_rows(lc, 10, 0, [](NeuronCore&, const tile::RowBlock&) {}); }).find("row width 0"),
            std::string::npos);
}

}  // namespace
