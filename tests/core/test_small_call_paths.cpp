// The host-side short cuts of small calls (issue #30; docs/architecture.md "Per-call cost") against
// the element-by-element definitions they replace: memset's value encoded once, the VectorE
// transpose by fixed address steps, and the dirty ranges that let an allocation refill only what
// instructions wrote. Same bytes in every case.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "trn/core/core.hpp"

namespace {

using namespace trn;

// The bytes of every partition row of a [P, F] tile (its whole allocation), in order.
std::vector<std::byte> row_bytes(const Tile& t) {
  const auto row = static_cast<std::size_t>(t.free_size() * dtype_size(t.dtype));
  std::vector<std::byte> out;
  for (std::int32_t p = 0; p < t.partitions; ++p) {
    const std::byte* b = t.base + std::int64_t{p} * t.partition_stride;
    out.insert(out.end(), b, b + row);
  }
  return out;
}

bool all_poison(const Tile& t) {
  for (std::byte b : row_bytes(t))
    if (b != std::byte{0xFF}) return false;
  return true;
}

// memset through a strided one-run view and a two-dimensional view: each addressed element holds
// store_from_f32(value) (RNE), every other byte keeps the allocation's poison.
TEST(SmallCallPaths, MemsetWritesTheRoundedValueIntoEveryAddressedElement) {
  const std::vector<DType> types{DType::f32, DType::bf16, DType::f16, DType::tf32, DType::f8e4m3, DType::f8e5m2,
                                 DType::i8,  DType::i16,  DType::i32, DType::u8,   DType::u16,    DType::u32};
  for (DType dt : types)
    for (float value : {1.3f, -2.7e5f, 3.0e-41f, 300.7f}) {
      NeuronCore nc;
      const Tile whole = nc.sbuf().alloc(dt, 8, {32});
      const Tile strided = whole.slice(0, 1, 10, 3);                       // one run, stride 3
      const Tile two_dim = whole.reshape({4, 8}).slice(1, 2, 3, 2).rows(0, 4);  // [4, 3] of stride 2, 4 rows
      nc.memset(strided, value);
      nc.memset(two_dim, value);
      std::byte want[4] = {};
      store_from_f32(dt, want, value, Rounding::nearest_even, 0);
      const std::int64_t es = dtype_size(dt);
      for (std::int32_t p = 0; p < 8; ++p)
        for (std::int64_t f = 0; f < 32; ++f) {
          const bool in_strided = f >= 1 && f <= 28 && (f - 1) % 3 == 0;
          const std::int64_t r = f / 8, c = f % 8;
          const bool in_two_dim = p < 4 && c >= 2 && c <= 6 && (c - 2) % 2 == 0 && r < 4;
          const std::byte* got = whole.at(p, f);
          for (std::int64_t b = 0; b < es; ++b)
            ASSERT_EQ(got[b], (in_strided || in_two_dim) ? want[b] : std::byte{0xFF})
                << dtype_name(dt) << " value " << value << " p " << p << " f " << f;
        }
    }
}

// The transpose of single-run views (strided free axes) and of a two-dimensional view (the
// general path): dst[f, p] = src[p, f], bit for bit, in 4- and 2-byte types.
TEST(SmallCallPaths, VectorTransposeMovesEveryElement) {
  for (DType dt : {DType::f32, DType::bf16}) {
    NeuronCore nc;
    const Tile src = nc.sbuf().alloc(dt, 8, {32});
    const std::int64_t es = dtype_size(dt);
    for (std::int32_t p = 0; p < 8; ++p)
      for (std::int64_t f = 0; f < 32; ++f)
        for (std::int64_t b = 0; b < es; ++b) src.at(p, f)[b] = static_cast<std::byte>((p * 37 + f * 11 + b * 5) & 0x7F);
    const Tile dst = nc.sbuf().alloc(dt, 32, {32});
    struct Case {
      Tile s, d;
    };
    const std::vector<Case> cases{
        {src.rows(0, 8).slice(0, 2, 5, 3), dst.rows(0, 5).slice(0, 1, 8, 2)},               // single runs
        {src.rows(0, 8).reshape({4, 8}).slice(1, 0, 4, 2), dst},  // [4, 4] free axes: the general path
    };
    for (const Case& c : cases) {
      const Tile d = c.d.rows(0, static_cast<std::int32_t>(c.s.free_size())).cols(0, c.s.partitions);
      nc.nc_transpose(d, c.s, Engine::vector);
      for (std::int32_t p = 0; p < c.s.partitions; ++p)
        for (std::int64_t f = 0; f < c.s.free_size(); ++f)
          ASSERT_EQ(std::memcmp(d.at(static_cast<std::int32_t>(f), p), c.s.at(p, f), static_cast<std::size_t>(es)), 0)
              << dtype_name(dt) << " p " << p << " f " << f;
    }
  }
}

// Many small tiles written by instructions in scattered partitions and byte ranges (more ranges
// per partition group than the dirty set holds, so neighbours merge), freed, then one allocation
// over all of them, refilled, written in part and allocated again: poison everywhere each time.
TEST(SmallCallPaths, AllocationAfterScatteredWritesReadsAsPoison) {
  NeuronCore nc;
  const Tile big = nc.sbuf().alloc(DType::f32, 128, {2048});
  ASSERT_TRUE(all_poison(big));
  nc.sbuf().free(big);
  std::vector<Tile> small;
  for (int i = 0; i < 48; ++i) small.push_back(nc.sbuf().alloc(DType::f32, 128, {16 * (1 + i % 3)}));
  for (int i = 0; i < 48; i += 2) {  // every other tile, in one quadrant or all partitions
    const Tile& t = small[static_cast<std::size_t>(i)];
    nc.memset(i % 6 == 0 ? t : t.rows(32 * (i % 4), 32), static_cast<float>(i));
  }
  for (auto it = small.rbegin(); it != small.rend(); ++it) nc.sbuf().free(*it);
  const Tile again = nc.sbuf().alloc(DType::f32, 128, {2048});
  ASSERT_EQ(again.offset_bytes, big.offset_bytes);
  EXPECT_TRUE(all_poison(again));
  nc.memset(again.rows(64, 32).cols(100, 300), 2.0f);  // one quadrant, in the middle of the range
  nc.memset(again.rows(0, 32).cols(0, 1), 3.0f);
  nc.sbuf().free(again);
  const Tile part = nc.sbuf().alloc(DType::f32, 96, {256});  // partitions 0..95, the first 1 KiB
  EXPECT_TRUE(all_poison(part));
  nc.sbuf().free(part);
  const Tile last = nc.sbuf().alloc(DType::f32, 128, {2048});
  EXPECT_TRUE(all_poison(last));
}

}  // namespace
