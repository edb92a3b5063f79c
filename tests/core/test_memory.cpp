// SBUF/PSUM capacities per generation, allocation placement, poisoning, views and their limits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "test_util.hpp"
#include "trn/core/access_pattern.hpp"
#include "trn/core/core.hpp"

using namespace trn;

namespace {

using trntest::error_of;

TEST(Memory, CapacitiesComeFromTheGenerationTable) {
  EXPECT_EQ(hardware_spec(Generation::trn1).sbuf_partition_bytes, 192 * 1024);
  EXPECT_EQ(hardware_spec(Generation::trn2).sbuf_partition_bytes, 224 * 1024);
  EXPECT_EQ(hardware_spec(Generation::trn3).sbuf_partition_bytes, 256 * 1024);
  for (auto g : {Generation::trn1, Generation::trn2, Generation::trn3}) {
    const auto& h = hardware_spec(g);
    EXPECT_EQ(h.pmax, 128);
    EXPECT_EQ(h.psum_partition_bytes, 16 * 1024);
    EXPECT_EQ(h.psum_banks * h.psum_bank_bytes, h.psum_partition_bytes);
    CoreConfig cfg;
    cfg.generation = g;
    NeuronCore nc(cfg);
    EXPECT_EQ(nc.sbuf().partition_bytes(), h.sbuf_partition_bytes);
    // The whole partition can be allocated, one byte more cannot.
    const Tile all = nc.sbuf().alloc(DType::u8, 128, {h.sbuf_partition_bytes}, "all");
    const std::string msg = error_of([&] { nc.sbuf().alloc(DType::u8, 128, {1}, "one_more"); });
    EXPECT_NE(msg.find("SBUF alloc"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'one_more'"), std::string::npos) << msg;
    EXPECT_NE(msg.find(std::to_string(h.sbuf_partition_bytes)), std::string::npos) << msg;
    nc.sbuf().free(all);
    EXPECT_NO_THROW(nc.sbuf().alloc(DType::u8, 128, {1}, "fits_again"));
  }
}

TEST(Memory, OversizedRequestNamesTheLimit) {
  NeuronCore nc;
  const std::string msg = error_of([&] { nc.sbuf().alloc(DType::f32, 128, {50000}, "huge"); });
  EXPECT_NE(msg.find("bytes per partition 200000"), std::string::npos) << msg;
  EXPECT_NE(msg.find("196608"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(trn1)"), std::string::npos) << msg;
  const std::string msg2 = error_of([&] { nc.sbuf().alloc(DType::f32, 129, {1}, "tall"); });
  EXPECT_NE(msg2.find("pmax 128"), std::string::npos) << msg2;
}

// When the request fits the partition but not the free space, the message names the largest free
// contiguous range as the limit and says how much is in use.
TEST(Memory, CapacityErrorNamesTheLargestFreeRangeAndTheUse) {
  NeuronCore nc(CoreConfig{.generation = Generation::trn2});
  const std::int64_t cap = nc.sbuf().partition_bytes();  // 224 KiB on trn2
  const Tile a = nc.sbuf().alloc(DType::u8, 128, {64 * 1024}, "a");
  const Tile b = nc.sbuf().alloc(DType::u8, 128, {128 * 1024}, "b");
  nc.sbuf().free(a);  // free: [0, 64 KiB) and [192 KiB, 224 KiB)
  const std::string msg = error_of([&] { nc.sbuf().alloc(DType::u8, 128, {96 * 1024}, "big"); });
  EXPECT_NE(msg.find("'big'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("bytes per partition requested 98304 violates largest free contiguous range 65536"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("(trn2; 131072 of " + std::to_string(cap) + " bytes per partition in use)"), std::string::npos)
      << msg;
  (void)b;
}

TEST(Memory, PsumTilesStayInsideABank) {
  NeuronCore nc;
  const auto& h = nc.hw();
  const Tile a = nc.psum().alloc(DType::f32, 128, {384}, "a");  // 1536 B
  const Tile b = nc.psum().alloc(DType::f32, 128, {384}, "b");  // would straddle bank 0/1
  EXPECT_EQ(a.offset_bytes, 0);
  EXPECT_EQ(b.offset_bytes, h.psum_bank_bytes);
  const Tile big = nc.psum().alloc(DType::f32, 128, {1024}, "two banks");
  EXPECT_EQ(big.offset_bytes % h.psum_bank_bytes, 0);
  // 8 banks in all: after a, b and big (4 banks) four banks remain.
  for (int i = 0; i < 4; ++i) nc.psum().alloc(DType::f32, 128, {512});
  EXPECT_THROW(nc.psum().alloc(DType::f32, 128, {512}), LimitError);  // no whole bank left
  EXPECT_EQ(nc.psum().alloc(DType::f32, 128, {128}).offset_bytes, 1536);  // the gap after 'a' in bank 0
}

TEST(Memory, FreshAllocationsArePoisonedWithNan) {
  NeuronCore nc;
  const Tile f = nc.sbuf().alloc(DType::f32, 4, {8});
  const Tile b = nc.sbuf().alloc(DType::bf16, 4, {8});
  const Tile e = nc.sbuf().alloc(DType::f8e4m3, 4, {8});
  for (float v : trntest::read(f)) EXPECT_TRUE(std::isnan(v));
  for (float v : trntest::read(b)) EXPECT_TRUE(std::isnan(v));
  for (float v : trntest::read(e)) EXPECT_TRUE(std::isnan(v));
}

// AllocFill::none (tiles a kernel writes before reading) skips the NaN fill: the range keeps the
// bytes it held; the default allocation after it is poisoned again.
TEST(Memory, AllocFillNoneKeepsTheRangesBytes) {
  NeuronCore nc;
  const Tile a = nc.sbuf().alloc(DType::f32, 4, {8});
  for (int p = 0; p < 4; ++p)
    for (int i = 0; i < 8; ++i) *reinterpret_cast<float*>(a.at(p, i)) = static_cast<float>(p * 8 + i);
  nc.sbuf().free(a);
  const Tile b = nc.sbuf().alloc(DType::f32, 4, {8}, "kept", 0, AllocFill::none);
  ASSERT_EQ(b.offset_bytes, a.offset_bytes);
  const std::vector<float> kept = trntest::read(b);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(kept[static_cast<std::size_t>(i)], static_cast<float>(i));
  nc.sbuf().free(b);
  const Tile c = nc.sbuf().alloc(DType::f32, 4, {8});
  for (float v : trntest::read(c)) EXPECT_TRUE(std::isnan(v));
}

// Freed host blocks are kept only outside AddressSanitizer / ThreadSanitizer builds (memory.cpp);
// the two tests below check the keeping itself, so a sanitizer build says it skips them.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TRN_SKIP_WITHOUT_KEPT_BLOCKS() GTEST_SKIP() << "freed host blocks are not kept under sanitizers (memory.cpp)"
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TRN_SKIP_WITHOUT_KEPT_BLOCKS() GTEST_SKIP() << "freed host blocks are not kept under sanitizers (memory.cpp)"
#endif
#endif
#ifndef TRN_SKIP_WITHOUT_KEPT_BLOCKS
#define TRN_SKIP_WITHOUT_KEPT_BLOCKS() (void)0
#endif

// On-chip storage comes from host blocks that may be recycled (freed blocks of 2 MiB or more are
// kept for reuse, memory.cpp): whatever such a block held before, from an HBM tensor or from the
// core itself before it changed generation and back, a fresh allocation is poisoned as on a new core.
TEST(Memory, RecycledOnChipStorageIsPoisonedAfresh) {
  TRN_SKIP_WITHOUT_KEPT_BLOCKS();
  const auto expect_poisoned = [](const Tile& t) {
    for (std::int32_t q = 0; q < t.partitions; ++q)
      for (std::int64_t i = 0; i < t.free_size(); ++i)
        ASSERT_EQ(*reinterpret_cast<const std::uint32_t*>(t.at(q, i)), 0xFFFFFFFFu)
            << mem_space_name(t.mem) << " partition " << q << " element " << i;
  };
  CoreConfig trn1;
  trn1.generation = Generation::trn1;
  CoreConfig trn2 = trn1;
  trn2.generation = Generation::trn2;
  const std::int64_t sbuf_words = hardware_spec(Generation::trn1).sbuf_partition_bytes / 4;
  {
    // 26 MiB: the trn1 SBUF's host block (128 partitions of 192 KiB + 64 B and its records, in
    // whole 2 MiB), so the core below takes this one, full of other bytes.
    const HbmTensor junk(DType::u8, {std::int64_t{26} << 20});
    std::memset(junk.data(), 0x5A, std::size_t{26} << 20);
  }
  NeuronCore nc(trn1);
  expect_poisoned(nc.sbuf().alloc(DType::u32, 128, {sbuf_words}, "whole"));
  nc.sbuf().reset();
  const std::byte* const sbuf = nc.sbuf().storage();
  const std::byte* const psum = nc.psum().storage();
  {
    const Tile s = nc.sbuf().alloc(DType::f32, 128, {1024}, "written");
    const Tile p = nc.psum().alloc(DType::f32, 128, {512}, "written");
    nc.memset(s, 1.0f);
    nc.memset(p, 2.0f);
    nc.sbuf().free(s);
    nc.psum().free(p);
  }
  nc.reconfigure(trn2);
  nc.reconfigure(trn1);
  EXPECT_EQ(nc.sbuf().storage(), sbuf);  // the same host blocks: the bytes written above are still in them
  EXPECT_EQ(nc.psum().storage(), psum);
  expect_poisoned(nc.sbuf().alloc(DType::u32, 128, {1024}, "fresh"));
  expect_poisoned(nc.psum().alloc(DType::u32, 128, {512}, "fresh"));
}

// Host blocks of 2 MiB or more are kept after release and handed to a later request they fit
// (memory.cpp, KeptBlocks): never one smaller than asked for, zero-filled when zeros are asked for.
TEST(Memory, KeptHostBlocksFitTheRequestAndAreZeroedOnRequest) {
  TRN_SKIP_WITHOUT_KEPT_BLOCKS();
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  std::byte* a = detail::allocate_host_bytes(4 * kMiB, false);
  std::memset(a, 0xAB, 4 * kMiB);
  detail::HostFree{}(a);
  // A larger request cannot take the kept 4 MiB block. (Blocks fit by glibc's usable size, which for
  // a mapped 4 MiB block is up to 2 MiB more, by where the mapping fell: 8 MiB is past it always.)
  std::byte* larger = detail::allocate_host_bytes(8 * kMiB, false);
  EXPECT_NE(larger, a);
  // A request it fits takes it (the block kept last of its size), zero-filled as asked.
  std::byte* zeroed = detail::allocate_host_bytes(4 * kMiB, true);
  EXPECT_EQ(zeroed, a);
  for (std::size_t i = 0; i < 4 * kMiB; i += 997) ASSERT_EQ(zeroed[i], std::byte{0}) << i;
  ASSERT_EQ(zeroed[4 * kMiB - 1], std::byte{0});
  // A kept block goes to one request only.
  std::byte* another = detail::allocate_host_bytes(4 * kMiB, false);
  EXPECT_NE(another, zeroed);
  detail::HostFree{}(another);
  detail::HostFree{}(zeroed);
  detail::HostFree{}(larger);
}

TEST(Memory, AllocScopeFreesAndViewsCheckBounds) {
  NeuronCore nc;
  {
    AllocScope scope(nc.sbuf());
    scope.alloc(DType::f32, 128, {1000});
    scope.alloc(DType::bf16, 64, {10, 20});
    EXPECT_GT(nc.sbuf().used_bytes(), 4000);
  }
  EXPECT_EQ(nc.sbuf().used_bytes(), 0);
  const Tile t = nc.sbuf().alloc(DType::f32, 128, {8, 16});
  EXPECT_EQ(t.free_size(), 128);
  EXPECT_TRUE(t.free_contiguous());
  const Tile s = t.slice(1, 0, 8, 2);
  EXPECT_EQ(s.free_size(), 64);
  EXPECT_FALSE(s.free_contiguous());
  EXPECT_EQ(s.at(3, 9) - t.at(3, 0), (1 * 16 + 2) * 4);
  EXPECT_THROW(t.rows(100, 29), LimitError);
  EXPECT_THROW(t.slice(1, 10, 7), LimitError);
  EXPECT_THROW(s.reshape({64}), UsageError);
  EXPECT_EQ(t.reshape({128}).free_size(), 128);
  EXPECT_THROW(t.reshape({100}), LimitError);
  EXPECT_THROW(t.bitcast(DType::bf16), UsageError);
}

TEST(Memory, HbmViews) {
  HbmTensor h(DType::f32, {6, 10});
  for (int i = 0; i < 60; ++i) h.as<float>()[i] = static_cast<float>(i);
  const Tile t = h.tile(1, 2, 3, 4);
  EXPECT_EQ(load_as_f32(DType::f32, t.at(1, 2)), 2 * 10 + 5);
  const Tile tt = h.tile_transposed(1, 3, 2, 5);  // columns 2..6 as partitions, rows 1..3 as free
  EXPECT_EQ(tt.partitions, 5);
  EXPECT_EQ(load_as_f32(DType::f32, tt.at(4, 2)), 3 * 10 + 6);
  EXPECT_THROW(h.tile(5, 2, 0, 1), LimitError);
  EXPECT_THROW(h.tile_transposed(0, 1, 8, 3), LimitError);
}

// trn::access_pattern (the NKI front end's views): a free-axis permutation of an SBUF allocation, an
// HBM view whose partitions step along a column, and every bound checked.
TEST(Memory, AccessPatternsPermuteAndStayInside) {
  NeuronCore nc;
  AllocScope sbuf(nc.sbuf());
  const Tile root = sbuf.alloc(DType::f32, 4, {12}, "root");  // [4, 3 x 4]
  for (int p = 0; p < 4; ++p)
    for (int i = 0; i < 12; ++i) *reinterpret_cast<float*>(root.at(p, i)) = static_cast<float>(100 * p + i);
  const std::array<std::int64_t, 2> perm[] = {{4, 1}, {3, 4}};  // [p, j, i] = root[p, i * 4 + j]
  const Tile t = access_pattern(root, 1, 2, 0, 0, perm);
  EXPECT_EQ(t.partitions, 2);
  EXPECT_EQ(t.partition_start, 1);
  for (int p = 0; p < 2; ++p)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 3; ++i)
        EXPECT_EQ(*reinterpret_cast<const float*>(t.at(p, j * 3 + i)), 100.0f * (p + 1) + i * 4 + j);
  const std::array<std::int64_t, 2> too_far[] = {{4, 1}, {4, 4}};
  EXPECT_THROW(access_pattern(root, 0, 4, 0, 0, too_far), LimitError);
  EXPECT_THROW(access_pattern(root, 3, 2, 0, 0, perm), LimitError);
  const std::array<std::int64_t, 2> back[] = {{3, -1}};
  EXPECT_THROW(access_pattern(root, 0, 1, 0, 1, back), LimitError);  // reaches element -1
  EXPECT_NO_THROW(access_pattern(root, 0, 1, 0, 2, back));
  EXPECT_THROW(access_pattern(root, 0, 2, 5, 0, perm), UsageError);  // on-chip rows have no step

  std::vector<float> host(6 * 5);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i);
  const Tile flat = HbmTensor::wrap(host.data(), DType::f32, {1, 30}).tile(0, 1, 0, 30);
  const std::array<std::int64_t, 2> row[] = {{6, 5}};  // partitions = the 5 columns, free = the 6 rows
  const Tile tr = access_pattern(flat, 0, 5, 1, 0, row);
  EXPECT_EQ(tr.partitions, 5);
  EXPECT_EQ(*reinterpret_cast<const float*>(tr.at(3, 4)), 4 * 5 + 3);
  EXPECT_THROW(access_pattern(flat, 0, 6, 1, 0, row), LimitError);  // column 5 does not exist
}

}  // namespace
