// DMA: casts through fp32 (RNE), bit-exact same-dtype copies, strided HBM views, endpoints and
// transposes per generation.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <random>

#include "test_util.hpp"
#include "trn/core/core.hpp"

using namespace trn;

namespace {

// Partition broadcast (NKI broadcast_to): one HBM row, or one SBUF partition, copied to every
// partition of the destination; with a dtype change each element is the RNE cast of the source
// (checked against store_from_f32 element by element). Engines reject the stride-0 view.
TEST(Dma, PartitionBroadcastCopiesOneRowToEveryPartition) {
  NeuronCore nc;
  HbmTensor h(DType::f32, {3, 40});
  const auto vals = trntest::random_values(3 * 40, DType::f32, 5, -10.0f, 10.0f);
  std::memcpy(h.data(), vals.data(), vals.size() * 4);
  const Tile wide = nc.sbuf().alloc(DType::bf16, 96, {30}, "wide");
  nc.dma_copy(wide, h.tile_broadcast(1, 96, 5, 30));  // row 1, columns 5..34
  for (int p = 0; p < 96; ++p)
    for (int i = 0; i < 30; ++i) {
      std::byte want[2];
      store_from_f32(DType::bf16, want, vals[static_cast<std::size_t>(40 + 5 + i)], Rounding::nearest_even, 0);
      ASSERT_EQ(std::memcmp(wide.at(p, i), want, 2), 0) << p << "," << i;
    }
  // SBUF -> SBUF: partition 7 of `wide` to 128 partitions, bit exact.
  const Tile all = nc.sbuf().alloc(DType::bf16, 128, {30}, "all");
  nc.dma_copy(all, wide.rows(7, 1).broadcast_partitions(128));
  for (int p = 0; p < 128; ++p) ASSERT_EQ(std::memcmp(all.at(p, 0), wide.at(7, 0), 60), 0) << p;
  // The trace reads one physical partition of the source.
  const Instruction& last = nc.trace().instructions.back();
  bool saw_source = false;
  for (int r = 0; r < last.nregions; ++r)
    if (!last.regions[static_cast<std::size_t>(r)].write) {
      EXPECT_EQ(last.regions[static_cast<std::size_t>(r)].np, 1);
      EXPECT_EQ(last.regions[static_cast<std::size_t>(r)].p0, 7);
      saw_source = true;
    }
  EXPECT_TRUE(saw_source);
  // Engines move data within partitions: the broadcast view is a DMA source only.
  const Tile out = nc.sbuf().alloc(DType::bf16, 128, {30}, "out");
  const std::uint64_t before = nc.instruction_count();
  EXPECT_THROW(nc.tensor_copy(out, wide.rows(7, 1).broadcast_partitions(128)), UsageError);
  EXPECT_THROW(nc.dma_copy(wide.rows(7, 1).broadcast_partitions(96), all.rows(0, 96)), UsageError);
  EXPECT_THROW(wide.broadcast_partitions(2), LimitError);  // the source must be one partition
  EXPECT_EQ(nc.instruction_count(), before);
}

// N-D HBM views: a box of a 3-D tensor with any axis on the partitions loads exactly the elements
// x[b, s, d] an index loop names (bit copy), and bad boxes are rejected.
TEST(Dma, NdHbmViewLoadsTheBoxWithAnyPartitionAxis) {
  NeuronCore nc;
  const std::int64_t B = 3, S = 20, D = 12;
  HbmTensor x(DType::f32, {B, S, D});
  for (std::int64_t i = 0; i < B * S * D; ++i) x.as<float>()[i] = static_cast<float>(i);
  auto at = [&](std::int64_t b, std::int64_t s, std::int64_t d) { return static_cast<float>((b * S + s) * D + d); };
  // S on partitions: x[1, 4:20, 2:10] -> [16 partitions][1, 8].
  const Tile a = nc.sbuf().alloc(DType::f32, 16, {1, 8});
  nc.dma_copy(a, x.tile_nd({1, 4, 2}, {1, 16, 8}, 1));
  for (int p = 0; p < 16; ++p)
    for (int f = 0; f < 8; ++f) ASSERT_EQ(*reinterpret_cast<const float*>(a.at(p, f)), at(1, 4 + p, 2 + f));
  // D on partitions (a transposed view): x[0:3, 5:7, 0:12] -> [12 partitions][3, 2].
  const Tile c = nc.sbuf().alloc(DType::f32, 12, {3, 2});
  nc.dma_copy(c, x.tile_nd({0, 5, 0}, {3, 2, 12}, 2));
  for (int p = 0; p < 12; ++p)
    for (int b = 0; b < 3; ++b)
      for (int s = 0; s < 2; ++s) ASSERT_EQ(*reinterpret_cast<const float*>(c.at(p, b * 2 + s)), at(b, 5 + s, p));
  EXPECT_THROW(x.tile_nd({0, 0}, {1, 1}), UsageError);
  EXPECT_THROW(x.tile_nd({0, 10, 0}, {1, 11, 12}, 1), LimitError);
  EXPECT_THROW(x.tile_nd({0, 0, 0}, {1, 1, 1}, 3), LimitError);
}

TEST(Dma, CastsThroughFp32WithRne) {
  NeuronCore nc;
  HbmTensor h(DType::f32, {128, 300});
  const auto vals = trntest::random_values(128 * 300, DType::f32, 1, -300.0f, 300.0f);
  std::memcpy(h.data(), vals.data(), vals.size() * 4);
  for (DType t : {DType::bf16, DType::f16, DType::f8e4m3, DType::f8e5m2, DType::tf32, DType::i16}) {
    const Tile s = nc.sbuf().alloc(t, 128, {300});
    nc.dma_copy(s, h.tile(0, 128, 0, 300));
    for (int p = 0; p < 128; p += 17)
      for (int i = 0; i < 300; i += 7) {
        std::byte expect[4];
        store_from_f32(t, expect, vals[p * 300 + i], Rounding::nearest_even, 0);
        ASSERT_EQ(std::memcmp(expect, s.at(p, i), static_cast<std::size_t>(dtype_size(t))), 0)
            << dtype_name(t) << " at " << p << "," << i;
      }
    nc.sbuf().free(s);
  }
}

TEST(Dma, SameDtypeIsBitExactIncludingNanPayloads) {
  NeuronCore nc;
  HbmTensor h(DType::f32, {2, 4});
  const std::uint32_t bits[8] = {0x7fa00001u, 0xffc12345u, 0x80000000u, 0x00000001u,
                                 0x7f800000u, 0x3f800000u, 0xff7fffffu, 0x7fffffffu};
  std::memcpy(h.data(), bits, sizeof bits);
  const Tile s = nc.sbuf().alloc(DType::f32, 2, {4});
  nc.dma_copy(s, h.tile(0, 2, 0, 4));
  HbmTensor back(DType::f32, {2, 4});
  nc.dma_copy(back.tile(0, 2, 0, 4), s);
  EXPECT_EQ(std::memcmp(back.data(), bits, sizeof bits), 0);
}

// Interleaved planes (element stride 2, trnfft's complex arrays): loads take every other element,
// stores write every other element and leave the ones between untouched, bit for bit (NaN payloads
// included), for run lengths around the host's 16-lane blocks.
TEST(Dma, StrideTwoPlanesLoadAndStoreEveryOtherElementExactly) {
  NeuronCore nc;
  std::mt19937 rng(11);
  for (const int L : {1, 15, 16, 17, 33, 40}) {
    HbmTensor h(DType::f32, {3, 2 * L}), back(DType::f32, {3, 2 * L});
    for (int i = 0; i < 3 * 2 * L; ++i) {
      h.as<std::uint32_t>()[i] = static_cast<std::uint32_t>(rng());
      back.as<std::uint32_t>()[i] = static_cast<std::uint32_t>(rng());
    }
    const std::vector<std::uint32_t> back0(back.as<std::uint32_t>(), back.as<std::uint32_t>() + 3 * 2 * L);
    const Tile s = nc.sbuf().alloc(DType::f32, 3, {L});
    nc.dma_copy(s, h.tile(0, 3, 0, 2 * L).slice(0, 1, L, 2));  // the odd plane
    for (int p = 0; p < 3; ++p)
      for (int i = 0; i < L; ++i) {
        std::uint32_t got = 0;
        std::memcpy(&got, s.at(p, i), 4);
        ASSERT_EQ(got, h.as<std::uint32_t>()[p * 2 * L + 2 * i + 1]) << "L " << L << " load " << p << "," << i;
      }
    nc.dma_copy(back.tile(0, 3, 0, 2 * L).slice(0, 0, L, 2), s);  // into the even plane
    for (int p = 0; p < 3; ++p)
      for (int i = 0; i < 2 * L; ++i) {
        const std::uint32_t want = i % 2 == 0 ? h.as<std::uint32_t>()[p * 2 * L + i + 1] : back0[static_cast<std::size_t>(p * 2 * L + i)];
        ASSERT_EQ(back.as<std::uint32_t>()[p * 2 * L + i], want) << "L " << L << " store " << p << "," << i;
      }
  }
}

// Several stride-2 runs per partition (the four-step's [block][t2][j2] plane views): every run of
// every partition moves exactly, the elements between runs and between the plane's elements stay.
TEST(Dma, StrideTwoRunsPerPartitionMoveExactly) {
  NeuronCore nc;
  std::mt19937 rng(12);
  constexpr int P = 5;
  for (const int L : {1, 15, 16, 17, 32})
    for (const int R : {1, 3, 4}) {
      const int gap = 2 * L + 3, cols = R * gap;  // runs not continuing one another
      HbmTensor h(DType::f32, {P, cols}), back(DType::f32, {P, cols});
      for (int i = 0; i < P * cols; ++i) {
        h.as<std::uint32_t>()[i] = static_cast<std::uint32_t>(rng());
        back.as<std::uint32_t>()[i] = static_cast<std::uint32_t>(rng());
      }
      const std::vector<std::uint32_t> back0(back.as<std::uint32_t>(), back.as<std::uint32_t>() + P * cols);
      auto runs = [&](const HbmTensor& t) {
        Tile v = t.tile(0, P, 0, cols);
        v.ndim = 2;
        v.size = {R, L, 1, 1};
        v.stride = {gap, 2, 0, 0};
        return v;
      };
      const Tile s = nc.sbuf().alloc(DType::f32, P, {R, L});
      nc.dma_copy(s, runs(h));
      for (int p = 0; p < P; ++p)
        for (int r = 0; r < R; ++r)
          for (int i = 0; i < L; ++i) {
            std::uint32_t got = 0;
            std::memcpy(&got, s.at(p, r * L + i), 4);
            ASSERT_EQ(got, h.as<std::uint32_t>()[p * cols + r * gap + 2 * i]) << "L " << L << " R " << R;
          }
      nc.dma_copy(runs(back), s);
      for (int p = 0; p < P; ++p)
        for (int c = 0; c < cols; ++c) {
          const int r = c / gap, i = c % gap;
          const bool written = i % 2 == 0 && i / 2 < L;
          const std::uint32_t want = written ? h.as<std::uint32_t>()[p * cols + c] : back0[static_cast<std::size_t>(p * cols + c)];
          ASSERT_EQ(back.as<std::uint32_t>()[p * cols + c], want) << "L " << L << " R " << R << " run " << r;
        }
      nc.sbuf().free(s);
    }
}

// HBM views with the elements on partitions one or two floats apart (planes of interleaved complex
// arrays, trnfft's DFT passes) and one strided free dimension: loads and stores in blocks of
// 16 x 16 must move the bits of the element loop, with partial blocks on both axes, leave the
// elements between untouched, and keep the element loop's last-writer order when a store's
// addresses alias.
TEST(Dma, PartitionStridedHbmColumnsMoveExactBits) {
  NeuronCore nc;
  std::mt19937 rng(13);
  auto view = [](std::uint32_t* base, int P, int ps, std::int64_t F, std::int64_t fs) {
    Tile t;
    t.mem = MemSpace::hbm;
    t.dtype = DType::f32;
    t.base = reinterpret_cast<std::byte*>(base);
    t.partitions = P;
    t.partition_stride = ps * 4;
    t.ndim = 1;
    t.size = {F, 1, 1, 1};
    t.stride = {fs, 0, 0, 0};
    return t;
  };
  for (const int ps : {1, 2})
    for (const auto& [P, F] : {std::pair{40, 37}, std::pair{128, 48}, std::pair{16, 16}}) {
      const std::int64_t fs = std::int64_t{P} * ps + 6, span = (F - 1) * fs + (P - 1) * ps + 1;
      std::vector<std::uint32_t> in(static_cast<std::size_t>(span)), out(static_cast<std::size_t>(span));
      for (auto& v : in) v = static_cast<std::uint32_t>(rng());
      for (auto& v : out) v = static_cast<std::uint32_t>(rng());
      const std::vector<std::uint32_t> out0 = out;
      const Tile s = nc.sbuf().alloc(DType::f32, P, {F});
      nc.dma_copy(s, view(in.data(), P, ps, F, fs));
      for (int p = 0; p < P; ++p)
        for (int f = 0; f < F; ++f) {
          std::uint32_t got = 0;
          std::memcpy(&got, s.at(p, f), 4);
          ASSERT_EQ(got, in[static_cast<std::size_t>(p * ps + f * fs)]) << "load ps " << ps << " P " << P << " " << p << "," << f;
        }
      nc.dma_copy(view(out.data(), P, ps, F, fs), s);
      std::vector<std::uint32_t> want = out0;
      for (int p = 0; p < P; ++p)
        for (int f = 0; f < F; ++f) want[static_cast<std::size_t>(p * ps + f * fs)] = in[static_cast<std::size_t>(p * ps + f * fs)];
      ASSERT_EQ(out, want) << "store ps " << ps << " P " << P;
    }
  // Aliasing store (element stride 1 < 16 partitions): the row-by-row order, last writer wins.
  std::vector<std::uint32_t> out(31, 0u), want(31, 0u);
  const Tile s = nc.sbuf().alloc(DType::f32, 16, {16});
  for (int p = 0; p < 16; ++p)
    for (int f = 0; f < 16; ++f) {
      const std::uint32_t v = static_cast<std::uint32_t>(p * 100 + f);
      std::memcpy(s.at(p, f), &v, 4);
      want[static_cast<std::size_t>(p + f)] = v;
    }
  nc.dma_copy(view(out.data(), 16, 1, 16, 1), s);
  EXPECT_EQ(out, want);
}

// The 2-byte form (bf16/fp16 B of a column-major GEMM): partitions are consecutive elements, 32 x 16
// blocks through the word transpose, partial blocks on both axes and an odd element offset.
TEST(Dma, PartitionConsecutiveTwoByteColumnsLoadExactBits) {
  NeuronCore nc;
  std::mt19937 rng(17);
  for (const DType dt : {DType::bf16, DType::f16})
    for (const auto& [P, F] : {std::pair{128, 48}, std::pair{70, 37}, std::pair{32, 16}, std::pair{96, 512}}) {
      const std::int64_t fs = std::int64_t{P} + 9, off = 1, span = off + (F - 1) * fs + P;
      std::vector<std::uint16_t> in(static_cast<std::size_t>(span));
      for (auto& v : in) v = static_cast<std::uint16_t>(rng());
      Tile h;
      h.mem = MemSpace::hbm;
      h.dtype = dt;
      h.base = reinterpret_cast<std::byte*>(in.data() + off);
      h.partitions = P;
      h.partition_stride = 2;
      h.ndim = 1;
      h.size = {F, 1, 1, 1};
      h.stride = {fs, 0, 0, 0};
      const Tile s = nc.sbuf().alloc(dt, P, {F});
      nc.dma_copy(s, h);
      for (int p = 0; p < P; ++p)
        for (int f = 0; f < F; ++f) {
          std::uint16_t got = 0;
          std::memcpy(&got, s.at(p, f), 2);
          ASSERT_EQ(got, in[static_cast<std::size_t>(off + p + f * fs)]) << "P " << P << " F " << F << " " << p << "," << f;
        }
    }
}

TEST(Dma, TransposedHbmViewLoadsColumnsAsPartitions) {
  NeuronCore nc;
  HbmTensor h(DType::f32, {5, 7});
  for (int i = 0; i < 35; ++i) h.as<float>()[i] = static_cast<float>(i);
  const Tile s = nc.sbuf().alloc(DType::bf16, 7, {5});
  nc.dma_copy(s, h.tile_transposed(0, 5, 0, 7));
  for (int c = 0; c < 7; ++c)
    for (int r = 0; r < 5; ++r) EXPECT_EQ(load_as_f32(DType::bf16, s.at(c, r)), r * 7 + c);
}

// Large enough for the blocked (16 x 16 register transpose) gather, with partial blocks on both axes.
TEST(Dma, TransposedHbmViewBlockedGatherMatchesElementwise) {
  NeuronCore nc;
  HbmTensor h(DType::f32, {70, 45});
  std::mt19937 rng(7);
  for (int i = 0; i < 70 * 45; ++i) h.as<std::uint32_t>()[i] = static_cast<std::uint32_t>(rng());
  const std::int64_t r0 = 3, c0 = 2;
  const int nrows = 61, ncols = 37;  // partitions 37 = 2 x 16 + 5, free 61 = 3 x 16 + 13
  const Tile f = nc.sbuf().alloc(DType::f32, ncols, {nrows});
  const Tile b = nc.sbuf().alloc(DType::bf16, ncols, {nrows});
  nc.dma_copy(f, h.tile_transposed(r0, nrows, c0, ncols));
  nc.dma_copy(b, h.tile_transposed(r0, nrows, c0, ncols));
  for (int c = 0; c < ncols; ++c)
    for (int r = 0; r < nrows; ++r) {
      const std::uint32_t x = h.as<std::uint32_t>()[(r0 + r) * 45 + c0 + c];
      std::uint32_t got = 0;
      std::memcpy(&got, f.at(c, r), 4);
      ASSERT_EQ(got, x) << "partition " << c << " element " << r;
      std::uint16_t got16 = 0;
      std::memcpy(&got16, b.at(c, r), 2);
      ASSERT_EQ(got16, f32_to_bf16_rne(std::bit_cast<float>(x))) << "partition " << c << " element " << r;
    }
}

TEST(Dma, EndpointsAndShapesAreChecked) {
  NeuronCore nc;
  HbmTensor h(DType::f32, {4, 8});
  const Tile p = nc.psum().alloc(DType::f32, 4, {8});
  const Tile s = nc.sbuf().alloc(DType::f32, 4, {8});
  try {
    nc.dma_copy(h.tile(0, 4, 0, 8), p);
    ADD_FAILURE();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("dma_copy: operand 'src': cannot be in PSUM"), std::string::npos) << e.what();
  }
  EXPECT_THROW(nc.dma_copy(s, h.tile(0, 3, 0, 8)), LimitError);
  EXPECT_THROW(nc.dma_copy(s, h.tile(0, 4, 0, 7)), LimitError);
  EXPECT_EQ(nc.instruction_count(), 0u);
}

TEST(Dma, TransposeNeedsTrn2) {
  NeuronCore trn1;
  const Tile a = trn1.sbuf().alloc(DType::bf16, 16, {32}), b = trn1.sbuf().alloc(DType::bf16, 32, {16});
  EXPECT_THROW(trn1.dma_transpose(b, a), NotSupportedError);
  CoreConfig cfg;
  cfg.generation = Generation::trn2;
  NeuronCore nc(cfg);
  const auto vals = trntest::random_values(16 * 32, DType::bf16, 3);
  const Tile s = nc.sbuf().alloc(DType::bf16, 16, {32}), d = nc.sbuf().alloc(DType::bf16, 32, {16});
  trntest::upload(nc, s, vals);
  nc.dma_transpose(d, s);
  const auto out = trntest::read(d);
  for (int p = 0; p < 16; ++p)
    for (int f = 0; f < 32; ++f) EXPECT_EQ(out[f * 16 + p], vals[p * 32 + f]);
  const Tile e = nc.sbuf().alloc(DType::f8e5m2, 16, {32}), e2 = nc.sbuf().alloc(DType::f8e5m2, 32, {16});
  EXPECT_THROW(nc.dma_transpose(e2, e), UsageError);
}

TEST(Dma, TraceCountsBytesPerPartition) {
  NeuronCore nc;
  HbmTensor h(DType::f32, {64, 1024});
  const Tile s = nc.sbuf().alloc(DType::bf16, 64, {1024});
  nc.dma_copy(s, h.tile(0, 64, 0, 1024));
  const auto& ins = nc.trace().instructions.at(0);
  EXPECT_EQ(ins.engine, Engine::dma);
  EXPECT_EQ(ins.bytes_read, 64 * 1024 * 4);
  EXPECT_EQ(ins.bytes_written, 64 * 1024 * 2);
  EXPECT_EQ(ins.free_elems, 4096);  // source bytes per partition row
  EXPECT_EQ(ins.regions[0].mem, MemSpace::sbuf);
  EXPECT_TRUE(ins.regions[0].write);
  EXPECT_EQ(ins.regions[1].mem, MemSpace::hbm);
}

// Indirect DMA (dma_gather / dma_scatter): each (p, k) of the int32 index tile names a table row
// (minus the index base) moved as bits; int64 indices work through a step-2 view of their low
// words; scatter keeps the last (p, k) of a row named twice; a bad index raises before anything
// moves; the record counts one descriptor per row and the cost model charges each.
TEST(Dma, IndirectGatherAndScatterMoveTheIndexedRows) {
  NeuronCore nc;
  const std::int64_t R = 1000, P = 96, K = 7;
  HbmTensor table(DType::f32, {R, 2});  // rows of two fp32 words (a complex fp32 value)
  for (std::int64_t i = 0; i < 2 * R; ++i) table.as<float>()[i] = static_cast<float>(i) + 0.25f;
  std::mt19937 gen(11);
  std::vector<std::int64_t> idx64(static_cast<std::size_t>(P * K));
  for (auto& v : idx64) v = 1 + static_cast<std::int64_t>(gen() % R);  // one-based
  HbmTensor hidx(DType::i32, {P, 2 * K});
  std::memcpy(hidx.data(), idx64.data(), idx64.size() * 8);
  const Tile words = nc.sbuf().alloc(DType::i32, 128, {2 * K}, "index words");
  nc.dma_copy(words.rows(0, static_cast<std::int32_t>(P)), hidx.tile(0, static_cast<std::int32_t>(P), 0, 2 * K));
  const Tile low = words.rows(0, static_cast<std::int32_t>(P)).slice(0, 0, K, 2);
  const Tile got = nc.sbuf().alloc(DType::f32, 128, {2 * K}, "gathered");
  const Tile dst = got.rows(0, static_cast<std::int32_t>(P));
  const Tile rows = table.tile(0, static_cast<std::int32_t>(R), 0, 2);
  nc.dma_gather(dst, rows, low, 1);
  for (std::int64_t p = 0; p < P; ++p)
    for (std::int64_t k = 0; k < K; ++k)
      for (int j = 0; j < 2; ++j)
        ASSERT_EQ(*reinterpret_cast<const float*>(dst.at(static_cast<std::int32_t>(p), 2 * k + j)),
                  table.as<float>()[2 * (idx64[static_cast<std::size_t>(p * K + k)] - 1) + j])
            << p << "," << k;
  const Instruction ins = nc.trace().instructions.back();
  EXPECT_EQ(ins.engine, Engine::dma);
  EXPECT_EQ(ins.subop, kSubopIndirectDma);
  EXPECT_EQ(ins.declared_cycles, static_cast<double>(P * K));
  EXPECT_EQ(ins.bytes_read, P * K * 8);
  EXPECT_EQ(ins.free_elems, 8);  // bytes per descriptor
  // One descriptor per row: 96 partitions use 12 queues, 672 rows are 56 descriptors per queue
  // where a plain copy of the same bytes has 8 (one per partition row).
  const HardwareSpec& hw = nc.hw();
  Instruction as_rows = ins;
  as_rows.subop = 0;
  EXPECT_NEAR(instruction_ns(ins, hw, hw.dma_bytes_per_ns) - instruction_ns(as_rows, hw, hw.dma_bytes_per_ns),
              (56 - 8) * hw.dma_descriptor_ns, 1e-9);

  // Scatter back into a zeroed table: every named row holds the value of its last (p, k).
  HbmTensor back(DType::f32, {R, 2});
  nc.dma_scatter(back.tile(0, static_cast<std::int32_t>(R), 0, 2), dst, low, 1);
  std::vector<float> want(static_cast<std::size_t>(2 * R), 0.0f);
  for (std::int64_t p = 0; p < P; ++p)
    for (std::int64_t k = 0; k < K; ++k) {
      const std::int64_t r = idx64[static_cast<std::size_t>(p * K + k)] - 1;
      for (int j = 0; j < 2; ++j)
        want[static_cast<std::size_t>(2 * r + j)] = *reinterpret_cast<const float*>(dst.at(static_cast<std::int32_t>(p), 2 * k + j));
    }
  EXPECT_EQ(std::memcmp(back.data(), want.data(), want.size() * 4), 0);
  // Duplicates: row 5 named by (0, 0) and (0, 1) keeps (0, 1)'s value.
  const Tile one = nc.sbuf().alloc(DType::i32, 1, {2}, "two indices");
  const Tile vals = nc.sbuf().alloc(DType::f32, 1, {2}, "two values");
  HbmTensor two(DType::i32, {1, 2});
  two.as<std::int32_t>()[0] = two.as<std::int32_t>()[1] = 5;
  HbmTensor twov(DType::f32, {1, 2});
  twov.as<float>()[0] = 1.0f;
  twov.as<float>()[1] = 2.0f;
  nc.dma_copy(one, two.tile(0, 1, 0, 2));
  nc.dma_copy(vals, twov.tile(0, 1, 0, 2));
  HbmTensor single(DType::f32, {8, 1});
  nc.dma_scatter(single.tile(0, 8, 0, 1), vals, one);
  EXPECT_EQ(single.as<float>()[5], 2.0f);
  // Out of range (row 1000 of 1000 with base 0), wrong index dtype, shape mismatch: nothing moves.
  const std::uint64_t before = nc.instruction_count();
  two.as<std::int32_t>()[1] = 8;
  nc.dma_copy(one, two.tile(0, 1, 0, 2));
  single.as<float>()[5] = 0.0f;
  EXPECT_THROW(nc.dma_scatter(single.tile(0, 8, 0, 1), vals, one), UsageError);
  EXPECT_EQ(single.as<float>()[5], 0.0f);
  EXPECT_THROW(nc.dma_gather(vals, single.tile(0, 8, 0, 1), vals), UsageError);
  EXPECT_THROW(nc.dma_gather(vals.cols(0, 1), single.tile(0, 8, 0, 1), one), LimitError);
  EXPECT_EQ(nc.instruction_count(), before + 1);  // the index load only
}

}  // namespace

namespace {
// The general copy loop every same-dtype DMA path must equal (core's copy_row_bits, partition by
// partition in order): the row's elements in access-pattern order read whole, then written.
void reference_copy(const Tile& dst, const Tile& src) {
  const std::int64_t es = dtype_size(src.dtype), F = src.free_size();
  std::vector<std::byte> row(static_cast<std::size_t>(F * es));
  for (std::int32_t p = 0; p < src.partitions; ++p) {
    for (std::int64_t f = 0; f < F; ++f) std::memcpy(row.data() + f * es, src.at(p, f), static_cast<std::size_t>(es));
    for (std::int64_t f = 0; f < F; ++f) std::memcpy(dst.at(p, f), row.data() + f * es, static_cast<std::size_t>(es));
  }
}

// A view of `arena` (4-byte words) as `dtype` elements: first element `at` bytes in, partitions
// `ps` bytes apart, free dims {size, stride in elements} outermost first.
Tile arena_view(std::vector<std::uint32_t>& arena, DType dtype, std::int64_t at, std::int32_t P, std::int64_t ps,
                std::initializer_list<std::array<std::int64_t, 2>> dims) {
  Tile t;
  t.mem = MemSpace::hbm;
  t.dtype = dtype;
  t.base = reinterpret_cast<std::byte*>(arena.data()) + at;
  t.partitions = P;
  t.partition_stride = ps;
  t.ndim = static_cast<int>(dims.size());
  t.size = {1, 1, 1, 1};
  t.stride = {0, 0, 0, 0};
  int d = 0;
  for (const auto& [n, st] : dims) {
    t.size[static_cast<std::size_t>(d)] = n;
    t.stride[static_cast<std::size_t>(d)] = st;
    ++d;
  }
  return t;
}
// The same view over another arena of the same size (the reference runs on a copy).
Tile rebased(const Tile& t, const std::vector<std::uint32_t>& from, std::vector<std::uint32_t>& to) {
  Tile r = t;
  r.base = reinterpret_cast<std::byte*>(to.data()) + (t.base - reinterpret_cast<const std::byte*>(from.data()));
  return r;
}
}  // namespace

// Partition-broadcast sources gathered from runs (trnblas Dot2's B block to every partition of a
// group) take core's one-gather-then-copy-rows path; strided and partial views take the per-run
// paths. Every case must leave the bytes of the general copy loop: 4- and 2-byte elements; runs of
// 8 to 64 bytes (the fixed-size copies) and others; run strides 1, 2 (complex planes) and 3; one to
// 128 partitions; destinations that are a partition sub-range and a column sub-range of a wider
// tile (bytes around them untouched).
TEST(Dma, BroadcastAndStridedGathersMatchTheGeneralCopyLoop) {
  NeuronCore nc;
  std::mt19937 rng(31);
  const Tile whole32 = nc.sbuf().alloc(DType::u32, 128, {300}, "whole32");
  const Tile whole16 = nc.sbuf().alloc(DType::bf16, 128, {600}, "whole16");
  constexpr std::int64_t kRowBytes = 1200;
  // Random bytes in the wide tiles and their mirrors in host memory (one row per partition); after
  // every case the two must be equal again, so they start each case equal.
  std::vector<std::uint32_t> mirror32(128 * 300), mirror16(128 * 300);
  for (const Tile* w : {&whole32, &whole16})
    for (std::int32_t p = 0; p < 128; ++p) {
      std::uint32_t* m = (w == &whole32 ? mirror32 : mirror16).data() + p * 300;
      for (int i = 0; i < 300; ++i) m[i] = static_cast<std::uint32_t>(rng());
      std::memcpy(w->at(p, 0), m, kRowBytes);
    }
  for (const DType dt : {DType::u32, DType::bf16})
    for (const std::int64_t L : {2, 4, 5, 8, 16, 32})
      for (const std::int64_t R : {1, 3})
        for (const std::int64_t rstride : {1, 2, 3})
          for (const std::int32_t P : {1, 2, 7, 32, 128})
            for (const bool broadcast : {true, false}) {
              const std::int64_t es = dtype_size(dt), gap = L * rstride + 3;
              std::vector<std::uint32_t> src_arena(static_cast<std::size_t>(128 * 64 + 4096));
              for (auto& v : src_arena) v = static_cast<std::uint32_t>(rng());
              const Tile src = arena_view(src_arena, dt, 12, P, broadcast ? 0 : 64 * 4, {{R, gap}, {L, rstride}});
              // Destination: partitions 1.. (or 0 for 128) and columns 3.. of the wide tile, dense rows.
              const std::int32_t p0 = P == 128 ? 0 : 1;
              const Tile& whole = dt == DType::u32 ? whole32 : whole16;
              const Tile dst = whole.rows(p0, P).cols(3, R * L);
              ASSERT_TRUE(dst.free_contiguous());
              std::vector<std::uint32_t>& mirror = dt == DType::u32 ? mirror32 : mirror16;
              const std::int64_t row_bytes = kRowBytes;
              Tile mdst = dst;
              mdst.mem = MemSpace::hbm;
              mdst.base = reinterpret_cast<std::byte*>(mirror.data()) + std::int64_t{p0} * row_bytes + 3 * es;
              mdst.partition_stride = row_bytes;
              reference_copy(mdst, src);
              nc.dma_copy(dst, src);
              for (std::int32_t p = 0; p < 128; ++p)
                ASSERT_EQ(std::memcmp(whole.at(p, 0), mirror.data() + p * 300, static_cast<std::size_t>(row_bytes)), 0)
                    << dtype_name(dt) << " L " << L << " R " << R << " rstride " << rstride << " P " << P
                    << " broadcast " << broadcast << " partition " << p;
            }
}

// Overlaps in one HBM arena (the general loop's partition order decides the bytes): destination
// rows that overlap one another, a broadcast source inside the destination's rows, a source between
// two destination rows, and row-shifted gathers and scatters within one buffer. The DMA and the
// general loop run on two copies of the same arena, which must end equal byte for byte.
TEST(Dma, OverlappingPartitionCopiesMatchTheGeneralCopyLoop) {
  NeuronCore nc;
  std::mt19937 rng(32);
  struct Case {
    const char* what;
    DType dt;
    std::int64_t src_at, src_ps, dst_at, dst_ps;
    std::int32_t P;
    std::vector<std::array<std::int64_t, 2>> src_dims, dst_dims;
  };
  // In elements of 4 bytes unless bf16; arena of 4096 words. Offsets and partition strides in bytes.
  const std::vector<Case> cases = {
      {"broadcast into overlapping rows", DType::u32, 8000, 0, 40, 8, 16, {{4, 11}, {8, 1}}, {{32, 1}}},
      {"broadcast inside the destination", DType::u32, 600, 0, 0, 256, 16, {{4, 11}, {8, 1}}, {{32, 1}}},
      {"broadcast between two rows", DType::u32, 140, 0, 0, 512, 8, {{2, 9}, {8, 1}}, {{16, 1}}},
      {"broadcast stride-2 into overlapping rows", DType::u32, 9000, 0, 100, 12, 20, {{3, 40}, {16, 2}}, {{48, 1}}},
      {"bf16 broadcast inside the destination", DType::bf16, 260, 0, 0, 128, 24, {{5, 7}, {4, 1}}, {{20, 1}}},
      {"gather shifted by a partition", DType::u32, 64, 64, 0, 64, 30, {{4, 6}, {4, 1}}, {{16, 1}}},
      {"gather onto its own rows", DType::u32, 0, 96, 4, 96, 24, {{3, 9}, {8, 1}}, {{24, 1}}},
      {"scatter shifted by a partition", DType::u32, 0, 64, 64, 64, 30, {{16, 1}}, {{4, 6}, {4, 1}}},
      {"scatter of a broadcast row", DType::u32, 12000, 0, 0, 16, 40, {{24, 1}}, {{3, 9}, {8, 1}}},
      {"bf16 scatter onto its own rows", DType::bf16, 0, 80, 2, 80, 24, {{32, 1}}, {{8, 5}, {4, 1}}},
  };
  for (const Case& c : cases) {
    std::vector<std::uint32_t> arena(4096);
    for (auto& v : arena) v = static_cast<std::uint32_t>(rng());
    std::vector<std::uint32_t> want = arena;
    auto view = [&](std::vector<std::uint32_t>& a, std::int64_t at, std::int64_t ps, const std::vector<std::array<std::int64_t, 2>>& dims) {
      Tile t = arena_view(a, c.dt, at, c.P, ps, {{1, 0}});
      t.ndim = static_cast<int>(dims.size());
      for (std::size_t d = 0; d < dims.size(); ++d) {
        t.size[d] = dims[d][0];
        t.stride[d] = dims[d][1];
      }
      return t;
    };
    const Tile src = view(arena, c.src_at, c.src_ps, c.src_dims), dst = view(arena, c.dst_at, c.dst_ps, c.dst_dims);
    ASSERT_EQ(src.free_size(), dst.free_size()) << c.what;
    reference_copy(rebased(dst, arena, want), rebased(src, arena, want));
    nc.dma_copy(dst, src);
    EXPECT_EQ(arena, want) << c.what;
  }
}

// Rows between HBM and SBUF with one side dense and the other in runs (core's copy_rows_across_memories):
// gathers into and scatters out of dense SBUF rows, every byte of the general copy loop's. Runs of 1,
// 2, 3, 4, 8 and 16 elements of 1, 2 and 4 bytes (fp64 words as u32 pairs: runs of 2), run steps
// forward, backward and zero, element strides 3, -1 and 5, one to 128 partitions, HBM partition
// strides apart, 8 and 4 bytes (rows overlapping one another: in a scatter the later row's bytes win) and
// zero (gathers); the SBUF
// side is a partition and column sub-range of a wider tile (bytes around it untouched).
TEST(Dma, StridedRunsAcrossMemoriesMatchTheGeneralCopyLoop) {
  NeuronCore nc;
  std::mt19937 rng(33);
  constexpr std::int64_t kWords = 300;
  const Tile whole = nc.sbuf().alloc(DType::u32, 128, {kWords}, "whole");
  std::vector<std::uint32_t> mirror(128 * kWords);
  // Fresh random rows for every case (a gather leaves rows that repeat one another's bytes, which
  // would hide a scatter's row order).
  const auto refill = [&] {
    for (std::int32_t p = 0; p < 128; ++p) {
      for (std::int64_t i = 0; i < kWords; ++i) mirror[static_cast<std::size_t>(p * kWords + i)] = static_cast<std::uint32_t>(rng());
      std::memcpy(whole.at(p, 0), mirror.data() + p * kWords, kWords * 4);
    }
  };
  struct Pattern {
    std::vector<std::array<std::int64_t, 2>> dims;  // {size, stride in elements}, outermost first
    std::int64_t at;                                // first element's byte offset into the arena
  };
  const std::vector<Pattern> patterns = {
      {{{8, 20}, {2, 1}}, 64},     // 8 fp64 words of a column-major matrix row
      {{{5, 7}, {1, 1}}, 64},      // single elements, folded to one strided dimension
      {{{4, 3}, {3, 1}}, 64},      // runs of 3 that touch (step = run)
      {{{6, -9}, {4, 1}}, 4000},   // runs backwards
      {{{3, 0}, {2, 1}}, 64},      // the same run three times (a scatter's later copy wins)
      {{{7, 5}}, 64},              // element stride 5
      {{{9, -1}}, 4000},           // element stride -1
      {{{2, 40}, {16, 1}}, 64},    // runs of 16
      {{{2, 40}, {3, 2}}, 64},     // stride-2 runs (the vector path, not this one)
  };
  for (const DType dt : {DType::u32, DType::bf16, DType::u8})
    for (const Pattern& pat : patterns)
      for (const std::int32_t P : {1, 3, 8, 128})
        for (const std::int64_t hbm_ps : {std::int64_t{256}, std::int64_t{8}, std::int64_t{4}, std::int64_t{0}})
          for (const bool gather : {true, false}) {
            if (!gather && hbm_ps == 0 && P > 1) continue;  // a DMA destination has physical partitions
            refill();
            const std::int64_t es = dtype_size(dt);
            std::vector<std::uint32_t> arena(32768), want;
            for (auto& v : arena) v = static_cast<std::uint32_t>(rng());
            Tile hbm = arena_view(arena, dt, pat.at * es, P, hbm_ps, {{1, 0}});
            hbm.ndim = static_cast<int>(pat.dims.size());
            for (std::size_t d = 0; d < pat.dims.size(); ++d) {
              hbm.size[d] = pat.dims[d][0];
              hbm.stride[d] = pat.dims[d][1];
            }
            const std::int64_t F = hbm.free_size();
            const std::int32_t p0 = P == 128 ? 0 : 1;
            Tile sb = whole.rows(p0, P);  // F dense elements of dt from byte 12 of each row
            sb.dtype = dt;
            sb.base += 12;
            sb.offset_bytes += 12;
            sb.size[0] = F;
            // The reference on copies: the SBUF side mirrored in host memory (same row bytes).
            Tile msb = sb;
            msb.mem = MemSpace::hbm;
            msb.base = reinterpret_cast<std::byte*>(mirror.data()) + std::int64_t{p0} * kWords * 4 + 12;
            msb.partition_stride = kWords * 4;
            want = arena;
            if (gather) {
              reference_copy(msb, rebased(hbm, arena, want));
              nc.dma_copy(sb, hbm);
            } else {
              reference_copy(rebased(hbm, arena, want), msb);
              nc.dma_copy(hbm, sb);
            }
            const std::string what = std::string(dtype_name(dt)) + " pattern " + std::to_string(&pat - patterns.data()) +
                                     " P " + std::to_string(P) + " hbm partition stride " + std::to_string(hbm_ps) +
                                     (gather ? " gather" : " scatter");
            ASSERT_EQ(arena, want) << what;
            for (std::int32_t p = 0; p < 128; ++p)
              ASSERT_EQ(std::memcmp(whole.at(p, 0), mirror.data() + p * kWords, kWords * 4), 0) << what << " partition " << p;
          }
}
