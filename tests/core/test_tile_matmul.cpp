// trn::tile TensorE collectives: each one issues the instructions its contract lists (checked in
// the trace: opcodes, engines, accumulate flags, operand shapes) and computes what it says
// (checked against host arithmetic on exactly representable data).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include "trn/core/core.hpp"
#include "trn/tile/matmul.hpp"

using namespace trn;

namespace {

// Fills an fp32 SBUF tile [P, F] with f(p, i) through a DMA from host memory.
template <class F>
void fill(NeuronCore& nc, const Tile& t, F&& f) {
  const std::int64_t cols = t.free_size();
  std::vector<float> v(static_cast<std::size_t>(t.partitions * cols));
  for (int p = 0; p < t.partitions; ++p)
    for (std::int64_t i = 0; i < cols; ++i) v[static_cast<std::size_t>(p * cols + i)] = f(p, i);
  nc.dma_copy(t, HbmTensor::wrap(v.data(), DType::f32, {t.partitions, cols}).tile(0, t.partitions, 0, cols));
}

float at(const Tile& t, int p, std::int64_t i) {
  float v = 0;
  std::memcpy(&v, t.at(p, i), 4);
  return v;
}

std::vector<const Instruction*> since(NeuronCore& nc, std::size_t first) {
  std::vector<const Instruction*> v;
  for (std::size_t i = first; i < nc.trace().instructions.size(); ++i) v.push_back(&nc.trace().instructions[i]);
  return v;
}

// The group's first product overwrites, later ones add; copy_out restarts the group.
TEST(TileAccumulator, FirstProductOverwritesLaterOnesAccumulate) {
  NeuronCore nc;
  const Tile s = nc.sbuf().alloc(DType::f32, 4, {3}), m = nc.sbuf().alloc(DType::f32, 4, {5});
  fill(nc, s, [](int p, std::int64_t i) { return static_cast<float>(p + i); });
  fill(nc, m, [](int p, std::int64_t i) { return static_cast<float>(p == i ? 1 : 0); });
  const Tile ps = nc.psum().alloc(DType::f32, 3, {5});
  nc.memset(ps, 100.0f);  // stale bytes the first product must not add to
  const Tile out = nc.sbuf().alloc(DType::f32, 3, {5});
  const std::size_t first = nc.trace().instructions.size();
  tile::Accumulator acc(nc, ps);
  EXPECT_FALSE(acc.started());
  acc.matmul(s, m);
  acc.matmul(s, m);
  EXPECT_TRUE(acc.started());
  acc.copy_out(out);
  EXPECT_FALSE(acc.started());
  acc.matmul(s, m);
  const auto ins = since(nc, first);
  ASSERT_EQ(ins.size(), 4u);
  EXPECT_EQ(ins[0]->opcode, Opcode::nc_matmul);
  EXPECT_FALSE(ins[0]->accumulate);
  EXPECT_TRUE(ins[1]->accumulate);
  EXPECT_EQ(ins[2]->opcode, Opcode::tensor_copy);
  EXPECT_FALSE(ins[3]->accumulate);
  // out[m, n] = 2 * sum_p s[p, m] (p == n) = 2 * (n + m) for n < 4, 0 for n = 4.
  for (int r = 0; r < 3; ++r)
    for (int n = 0; n < 5; ++n) EXPECT_EQ(at(out, r, n), n < 4 ? 2.0f * static_cast<float>(n + r) : 0.0f) << r << "," << n;
}

// terms() issues one product per pair, in the pairs' order, with the named operands.
TEST(TileAccumulator, TermPairsIssueInOrder) {
  NeuronCore nc;
  std::array<Tile, 2> s{nc.sbuf().alloc(DType::f32, 8, {2}), nc.sbuf().alloc(DType::f32, 8, {3})};
  std::array<Tile, 2> m{nc.sbuf().alloc(DType::f32, 8, {4}), nc.sbuf().alloc(DType::f32, 8, {4})};
  for (const Tile& t : {s[0], s[1], m[0], m[1]}) nc.memset(t, 1.0f);
  const Tile ps = nc.psum().alloc(DType::f32, 2, {4});
  const std::size_t first = nc.trace().instructions.size();
  tile::Accumulator acc(nc, ps);
  const tile::TermPair pairs[] = {{0, 1}, {0, 0}};
  acc.terms(s, m, pairs);
  const auto ins = since(nc, first);
  ASSERT_EQ(ins.size(), 2u);
  EXPECT_EQ(ins[0]->matmul_m, 2);
  EXPECT_FALSE(ins[0]->accumulate);
  EXPECT_TRUE(ins[1]->accumulate);
  EXPECT_EQ(at(ps, 1, 3), 16.0f);
  const tile::TermPair bad[] = {{2, 0}};
  EXPECT_THROW(acc.terms(s, m, bad), UsageError);
}

// bf16 hi/lo (and hi/mid/lo) split: the terms are bf16 roundings and their fp32 sum restores x to
// within the dropped tail; the engines and the lockstep order are the ones asked for.
TEST(TileSplitTerms, TermsSumToTheValueAndFollowTheEngines) {
  NeuronCore nc;
  const Tile x = nc.sbuf().alloc(DType::f32, 2, {16}), r = nc.sbuf().alloc(DType::f32, 2, {16});
  fill(nc, x, [](int p, std::int64_t i) { return std::ldexp(1.0f + static_cast<float>(i * 37 + p) / 1024.0f, -3) + 1e-6f * static_cast<float>(i); });
  std::array<Tile, 3> t{nc.sbuf().alloc(DType::bf16, 2, {16}), nc.sbuf().alloc(DType::bf16, 2, {16}),
                        nc.sbuf().alloc(DType::bf16, 2, {16})};
  const std::size_t first = nc.trace().instructions.size();
  tile::split_terms(nc, tile::SplitOperand{x, r, t}, tile::TermSplit{Engine::scalar, Engine::vector, {Rounding::nearest_even}, false});
  const auto ins = since(nc, first);
  ASSERT_EQ(ins.size(), 5u);  // copy, subtract, copy, subtract, copy
  EXPECT_EQ(ins[0]->engine, Engine::scalar);
  EXPECT_EQ(ins[1]->engine, Engine::vector);
  EXPECT_EQ(ins[1]->opcode, Opcode::tensor_tensor);
  EXPECT_EQ(ins[4]->engine, Engine::scalar);
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 16; ++i) {
      double sum = 0;
      for (const Tile& term : t) {
        std::uint16_t bits = 0;
        std::memcpy(&bits, term.at(p, i), 2);
        sum += static_cast<double>(bf16_to_f32(bits));
      }
      const double want = static_cast<double>(at(x, p, i));
      EXPECT_NEAR(sum, want, std::ldexp(std::fabs(want), -24)) << p << "," << i;
    }
  // Two operands in lockstep, first term already loaded: subtract, subtract, copy, copy.
  const std::size_t second = nc.trace().instructions.size();
  const tile::SplitOperand both[] = {{x, x, std::span<const Tile>(t).first(2)}, {r, r, std::span<const Tile>(t).first(2)}};
  tile::split_terms(nc, both, tile::TermSplit{Engine::vector, Engine::vector, {}, true});
  const auto lock = since(nc, second);
  ASSERT_EQ(lock.size(), 4u);
  EXPECT_EQ(lock[0]->opcode, Opcode::tensor_tensor);
  EXPECT_EQ(lock[1]->opcode, Opcode::tensor_tensor);
  EXPECT_EQ(lock[2]->opcode, Opcode::tensor_copy);
  EXPECT_EQ(lock[3]->opcode, Opcode::tensor_copy);
}

// The ring hands out its slots round robin, each as a fresh group.
TEST(TilePsumRing, SlotsRotate) {
  NeuronCore nc;
  AllocScope psum(nc.psum());
  tile::PsumRing ring(psum, 3, 8, 16, "ring");
  std::vector<int> slots;
  for (int i = 0; i < 7; ++i) {
    const tile::Accumulator a = ring.open(nc, 4, 8);
    EXPECT_FALSE(a.started());
    EXPECT_EQ(a.psum().partitions, 4);
    EXPECT_EQ(a.psum().base, ring[ring.slot()].base);
    slots.push_back(ring.slot());
  }
  EXPECT_EQ(slots, (std::vector<int>{0, 1, 2, 0, 1, 2, 0}));
}

// An empty group is never read: zeros; alpha == 1 copies; otherwise one multiply. beta C and the cast.
TEST(TileEvacuate, EmptyGroupsWriteZerosAndAlphaBetaCastFollow) {
  NeuronCore nc;
  const Tile ps = nc.psum().alloc(DType::f32, 2, {4}), v = nc.sbuf().alloc(DType::f32, 2, {4});
  const Tile c = nc.sbuf().alloc(DType::f32, 2, {4}), o = nc.sbuf().alloc(DType::bf16, 2, {4});
  std::size_t first = nc.trace().instructions.size();
  tile::evacuate(nc, v, ps, 3.0f, false);  // PSUM holds poison: not read
  EXPECT_EQ(since(nc, first).front()->opcode, Opcode::memset);
  EXPECT_EQ(at(v, 1, 3), 0.0f);
  const Tile s = nc.sbuf().alloc(DType::f32, 1, {2}), m = nc.sbuf().alloc(DType::f32, 1, {4});
  nc.memset(s, 2.0f);
  nc.memset(m, 1.5f);
  tile::Accumulator acc(nc, ps);
  acc.matmul(s, m);  // 3 everywhere
  first = nc.trace().instructions.size();
  tile::evacuate(nc, v, acc, 1.0f);
  EXPECT_EQ(since(nc, first).front()->opcode, Opcode::tensor_copy);
  tile::evacuate(nc, v, acc, 2.0f);  // 6
  fill(nc, c, [](int, std::int64_t i) { return static_cast<float>(i); });
  first = nc.trace().instructions.size();
  const Tile out = tile::add_beta_c_and_cast(nc, v, &c, 0.5f, &o);
  EXPECT_EQ(since(nc, first).size(), 3u);
  EXPECT_EQ(out.dtype, DType::bf16);
  std::uint16_t bits = 0;
  std::memcpy(&bits, o.at(1, 2), 2);
  EXPECT_EQ(bf16_to_f32(bits), 7.0f);  // 6 + 0.5 * 2
  EXPECT_EQ(tile::add_beta_c_and_cast(nc, v, nullptr, 0.0f, nullptr).base, v.base);
}

// Row broadcast through the selector, and the two layouts of the partition sum.
TEST(TileCrossPartition, RowSelectorAndPartitionSums) {
  NeuronCore nc;
  const int P = nc.hw().pmax;
  const Tile ones = nc.sbuf().alloc(DType::f32, P, {P}), sel = nc.sbuf().alloc(DType::f32, P, {P});
  nc.memset(ones, 1.0f);
  const Tile src = nc.sbuf().alloc(DType::f32, 40, {6});
  fill(nc, src, [](int p, std::int64_t i) { return static_cast<float>(p * 10 + i); });
  const Tile bc = nc.psum().alloc(DType::f32, P, {6});
  tile::RowSelector rs(nc, sel, ones);
  EXPECT_THROW(rs.broadcast(bc, src), UsageError);
  rs.select(17, 40);
  rs.broadcast(bc, src);
  for (int m : {0, 5, P - 1})
    for (int i = 0; i < 6; ++i) EXPECT_EQ(at(bc, m, i), static_cast<float>(170 + i));
  // broadcast layout over two row tiles: every row gets sum_p x[p, n].
  tile::PartitionSum bsum(nc, nc.psum().alloc(DType::f32, 8, {6}), ones, tile::PartitionSum::Layout::broadcast);
  bsum.add(src);
  bsum.add(src.rows(0, 10));
  EXPECT_EQ(nc.trace().instructions.back().matmul_m, 8);
  const float col0 = 10.0f * (39 * 40 / 2) + 10.0f * (9 * 10 / 2);
  EXPECT_EQ(at(bsum.accumulator().psum(), 7, 0), col0);
  // column layout: sums of the columns land on partitions.
  tile::PartitionSum csum(nc, nc.psum().alloc(DType::f32, 6, {1}), ones, tile::PartitionSum::Layout::column);
  csum.add(src);
  EXPECT_EQ(nc.trace().instructions.back().free_elems, 1);
  EXPECT_EQ(at(csum.accumulator().psum(), 2, 0), 10.0f * (39 * 40 / 2) + 2.0f * 40);
}

// Wide moving operands: one product per chunk, each its own group.
TEST(TileMatmulByColumns, OneGroupPerChunk) {
  NeuronCore nc;
  const Tile s = nc.sbuf().alloc(DType::f32, 2, {3}), m = nc.sbuf().alloc(DType::f32, 2, {10});
  nc.memset(s, 1.0f);
  fill(nc, m, [](int p, std::int64_t i) { return static_cast<float>(p + i); });
  const Tile dst = nc.psum().alloc(DType::f32, 3, {10});
  const std::size_t first = nc.trace().instructions.size();
  tile::matmul_by_columns(nc, dst, s, m, 4);
  const auto ins = since(nc, first);
  ASSERT_EQ(ins.size(), 3u);
  EXPECT_EQ(ins[2]->free_elems, 2);
  for (const Instruction* i : ins) EXPECT_FALSE(i->accumulate);
  EXPECT_EQ(at(dst, 2, 9), 19.0f);
}

}  // namespace
