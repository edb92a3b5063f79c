// The host-side short cuts of small calls (issue #30; docs/architecture.md "Per-call cost") against
// the element-by-element definitions they replace: memset's value encoded once, the VectorE
// transpose by fixed address steps, and the dirty ranges that let an allocation refill only what
// instructions wrote. Same bytes in every case. Then the hand-written fast paths of the
// per-instruction work against the general code they stand for: operands of one free dimension
// (describe's, the operand checks', and VectorE's one-pass checks and description of tensor_scalar /
// tensor_tensor) against the same operands as two-dimensional views, which take the general loops;
// the inline operand checks against the sequences of checks that throw; the schedule memo's AVX2
// record comparison against its SSE2 form and a field-by-field comparison.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "../../core/src/engine_util.hpp"  // the inline operand checks and their *_checked sequences
#include "../trace_records.hpp"
#include "trn/core/core.hpp"

namespace trn::detail {
// core/src/cost_model.cpp (a test hook, not in a public header): the schedule memo's record
// comparison on its AVX2 path (avx2 true, when the host has AVX2) or its SSE2 path.
bool schedule_memo_compare_records(const Instruction* a, const Instruction* b, std::size_t n, bool avx2,
                                   std::uint8_t* moved);
}  // namespace trn::detail

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

// ---- fast paths of the per-instruction work against the general code ----------------------------

// The same view as two free dimensions [1, n] (the outer one of size 1, any stride): the same
// elements in the same order, but every check and description of it runs the general loops.
Tile as_two_dims(const Tile& t) {
  Tile u = t;
  u.ndim = 2;
  u.size = {1, t.size[0], 1, 1};
  u.stride = {t.size[0] * t.stride[0] + 7, t.stride[0], 0, 0};
  return u;
}

// Every field but the index (the core's instruction counter, one further for the second run).
using trntest::expect_same_record;

// What one instruction did: its record and the bytes of the whole allocation afterwards (into a
// buffer the caller keeps: a fresh 64 KiB vector per run was most of the test's time), or the error
// it threw (then nothing may have been recorded).
struct Outcome {
  std::optional<Instruction> record;
  const std::vector<std::byte>* bytes = nullptr;
  std::string error;
};

// Runs `op` on nc after filling `whole` with a fixed pattern (finite values in every float format).
template <class Op>
Outcome run_instruction(NeuronCore& nc, const Tile& whole, std::vector<std::byte>& bytes, Op&& op) {
  const auto row = static_cast<std::size_t>(whole.bytes_per_partition());
  static std::vector<std::byte> fill;
  if (fill.size() < row + 128) {
    fill.resize(row + 128);
    for (std::size_t b = 0; b < fill.size(); ++b) fill[b] = static_cast<std::byte>((b * 13) % 61 + 1);
  }
  for (std::int32_t p = 0; p < whole.partitions; ++p)
    std::memcpy(whole.base + std::int64_t{p} * whole.partition_stride, fill.data() + p % 128, row);
  nc.trace().clear();
  Outcome o;
  try {
    op();
  } catch (const std::exception& e) {
    o.error = e.what();
  }
  if (!nc.trace().instructions.empty()) o.record = nc.trace().instructions.back();
  bytes.resize(static_cast<std::size_t>(whole.partitions) * row);
  for (std::int32_t p = 0; p < whole.partitions; ++p)
    std::memcpy(bytes.data() + static_cast<std::size_t>(p) * row, whole.base + std::int64_t{p} * whole.partition_stride, row);
  o.bytes = &bytes;
  if (!o.error.empty()) {
    EXPECT_FALSE(o.record.has_value()) << "recorded an instruction that threw: " << o.error;
  }
  return o;
}

void expect_same_outcome(const Outcome& flat, const Outcome& general, const std::string& what) {
  EXPECT_EQ(flat.error, general.error) << what;
  ASSERT_EQ(flat.record.has_value(), general.record.has_value()) << what;
  if (flat.record) expect_same_record(*flat.record, *general.record, what);
  EXPECT_TRUE(*flat.bytes == *general.bytes) << what << ": different bytes";
}

// A view of `t` (one free dimension) with a hand-set free pattern: `count` elements from element
// `first`, `step` apart (negative: walking down).
Tile pattern(const Tile& t, std::int64_t first, std::int64_t count, std::int64_t step) {
  Tile u = t;
  const std::int64_t es = dtype_size(t.dtype);
  u.base = t.base + first * es;
  u.offset_bytes = t.offset_bytes + first * es;
  u.size[0] = count;
  u.stride[0] = step;
  return u;
}

// tensor_scalar, tensor_tensor and tensor_copy on operands of one free dimension (tensor_scalar's
// and tensor_tensor's one-pass flat path; describe's one-dimension branch for tensor_copy) and on
// the same operands as [1, n] views (the general checks and loops): the same record, bytes and
// errors, over dense, strided, reversed, single-element, in-place, overlapping, PSUM, bf16 and
// partition-offset operands, and over operands that each break one check. The one-dimension fp32
// operands take the dense fp32 front-ends of tensor_scalar / tensor_tensor (session 23) or, when
// those decline, the flat path.
TEST(SmallCallPaths, FlatOperandPathsMatchTheGeneralPath) {
  NeuronCore nc;
  const Tile whole = nc.sbuf().alloc(DType::f32, 128, {128});
  const Tile psum = nc.psum().alloc(DType::f32, 128, {64});
  Tile wide16 = whole.cols(96, 32);  // [128, 64] bf16 over the last 32 words
  wide16.dtype = DType::bf16;
  wide16.size[0] = 64;
  struct Ops {
    Tile dst, src, b, scalar;
    std::string name;
  };
  std::vector<Ops> cases;
  for (std::int32_t P : {1, 32, 128})
    for (std::int64_t n : {1, 5, 17}) {
      const Tile rows = whole.rows(0, P);
      const std::string tag = "P " + std::to_string(P) + " n " + std::to_string(n);
      cases.push_back({rows.cols(0, n), rows.cols(32, n), rows.cols(64, n), rows.cols(100, 1), "dense " + tag});
      cases.push_back({rows.cols(0, n), rows.cols(0, n), rows.cols(0, n), rows.cols(0, 1), "in place " + tag});
      cases.push_back({pattern(rows, 40, n, 2), rows.cols(0, n), pattern(rows, 80 + n, n, -1), rows.cols(120, 1),
                       "strided and reversed " + tag});
      cases.push_back({rows.cols(0, n), psum.rows(0, P).cols(0, n), rows.cols(40, n), psum.rows(0, P).cols(63, 1),
                       "PSUM source " + tag});
      cases.push_back({wide16.rows(0, P).cols(0, n), rows.cols(32, n), wide16.rows(0, P).cols(40, n), rows.cols(100, 1),
                       "bf16 " + tag});
      // dst and src overlapping by one element either way (rows neither the same nor disjoint: the
      // dense fp32 front-ends decline them) and a PSUM destination (session 23).
      cases.push_back({rows.cols(1, n), rows.cols(0, n), rows.cols(64, n), rows.cols(100, 1), "overlap, dst ahead " + tag});
      cases.push_back({rows.cols(0, n), rows.cols(1, n), rows.cols(64, n), rows.cols(100, 1), "overlap, src ahead " + tag});
      cases.push_back({psum.rows(0, P).cols(8, n), rows.cols(32, n), rows.cols(64, n), rows.cols(100, 1), "PSUM destination " + tag});
    }
  cases.push_back({whole.rows(32, 32).cols(0, 9), whole.rows(32, 32).cols(20, 9), whole.rows(32, 32).cols(40, 9),
                   whole.rows(32, 32).cols(60, 1), "partitions 32..63"});
  cases.push_back({whole.rows(64, 64).cols(0, 9), whole.rows(64, 64).cols(20, 9), whole.rows(64, 64).cols(40, 9),
                   whole.rows(64, 64).cols(60, 1), "partitions 64..127"});

  // Operands that break one check each (applied to one operand at a time).
  using Break = Tile (*)(Tile);
  const std::vector<std::pair<std::string, Break>> breaks{
      {"no partitions", [](Tile t) { t.partitions = 0; return t; }},
      {"null base", [](Tile t) { t.base = nullptr; return t; }},
      {"empty free axis", [](Tile t) { t.size[0] = 0; return t; }},
      {"partition broadcast", [](Tile t) { t.partitions = 2; t.partition_stride = 0; return t; }},
      {"misaligned start", [](Tile t) { t.partition_start += 1; t.partitions = 1; return t; }},
      {"past pmax", [](Tile t) { t.partition_start = 96; t.partitions = 64; return t; }},
      {"in HBM", [](Tile t) { t.mem = MemSpace::hbm; return t; }},
      {"over the free-size limit", [](Tile t) { t.size[0] = 70000; t.stride[0] = 0; return t; }},
      {"over the PSUM free-size limit", [](Tile t) { t.mem = MemSpace::psum; t.size[0] = 5000; t.stride[0] = 0; return t; }},
      {"two-element scalar", [](Tile t) { t.size[0] = 2; return t; }},
      {"one partition fewer", [](Tile t) { t.partitions = std::max(1, t.partitions - 1); return t; }},
      {"one element more", [](Tile t) { t.size[0] += 1; return t; }},
  };
  std::vector<std::byte> flat_bytes, general_bytes;
  const auto check = [&](const Ops& c, const std::string& what) {
    const Tile d2 = as_two_dims(c.dst), s2 = as_two_dims(c.src), b2 = as_two_dims(c.b), k2 = as_two_dims(c.scalar);
    struct Form {
      std::string name;
      std::function<void(const Tile&, const Tile&, const Tile&, const Tile&)> run;
    };
    const std::vector<Form> forms{
        {"tensor_scalar imm", [&](const Tile& d, const Tile& s, const Tile&, const Tile&) { nc.tensor_scalar(d, s, AluOp::multiply, 1.5f); }},
        {"tensor_scalar tile", [&](const Tile& d, const Tile& s, const Tile&, const Tile& k) { nc.tensor_scalar(d, s, AluOp::divide, k); }},
        {"tensor_scalar two ops", [&](const Tile& d, const Tile& s, const Tile&, const Tile& k) {
           nc.tensor_scalar(d, s, AluOp::subtract, k, AluOp::multiply, k, Engine::vector, true, false);
         }},
        {"tensor_scalar imm then tile", [&](const Tile& d, const Tile& s, const Tile&, const Tile& k) {
           nc.tensor_scalar(d, s, AluOp::maximum, -0.25f, AluOp::add, k);
         }},
        {"tensor_scalar on GpSimdE", [&](const Tile& d, const Tile& s, const Tile&, const Tile& k) {
           nc.tensor_scalar(d, s, AluOp::add, k, AluOp::bypass, 0.0f, Engine::gpsimd);
         }},
        {"tensor_tensor subtract", [&](const Tile& d, const Tile& s, const Tile& b, const Tile&) { nc.tensor_tensor(d, s, b, AluOp::subtract); }},
        {"tensor_tensor divide", [&](const Tile& d, const Tile& s, const Tile& b, const Tile&) { nc.tensor_tensor(d, b, s, AluOp::divide); }},
        {"tensor_tensor power", [&](const Tile& d, const Tile& s, const Tile& b, const Tile&) { nc.tensor_tensor(d, s, b, AluOp::power); }},
        {"tensor_copy", [&](const Tile& d, const Tile& s, const Tile&, const Tile&) { nc.tensor_copy(d, s); }},
    };
    for (const Form& f : forms) {
      const Outcome flat = run_instruction(nc, whole, flat_bytes, [&] { f.run(c.dst, c.src, c.b, c.scalar); });
      const Outcome general = run_instruction(nc, whole, general_bytes, [&] { f.run(d2, s2, b2, k2); });
      expect_same_outcome(flat, general, f.name + ", " + what);
    }
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Ops& c = cases[i];
    check(c, c.name);
    if (i % 4 != 0 && i + 2 < cases.size()) continue;  // the broken operands on a quarter of the cases
    for (const auto& [bname, brk] : breaks) {
      check({brk(c.dst), c.src, c.b, c.scalar, ""}, c.name + ", dst " + bname);
      check({c.dst, brk(c.src), c.b, c.scalar, ""}, c.name + ", src " + bname);
      check({c.dst, c.src, brk(c.b), c.scalar, ""}, c.name + ", b " + bname);
      check({c.dst, c.src, c.b, brk(c.scalar), ""}, c.name + ", scalar " + bname);
    }
  }
}

// dma_copy between HBM and SBUF with HBM views of one free dimension (describe's one-dimension
// branch for HBM: the byte hull of a strided view) and the same views as [1, n]: the same record
// and bytes.
TEST(SmallCallPaths, OneDimensionHbmDescriptionMatchesTheGeneralLoop) {
  NeuronCore nc;
  const Tile whole = nc.sbuf().alloc(DType::f32, 16, {64});
  std::vector<float> host(4096);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i) * 0.5f - 7.0f;
  const HbmTensor h = HbmTensor::wrap(host.data(), DType::f32, {64, 64});
  std::vector<std::byte> flat_bytes, general_bytes;
  for (std::int32_t P : {1, 3, 16})
    for (std::int64_t n : {1, 4, 31}) {
      const Tile src = h.tile(2, P, 5, n);
      Tile strided = src;
      strided.stride[0] = 2;
      for (const Tile& s : {src, strided}) {
        const Tile d = whole.rows(0, P).cols(0, n);
        const Outcome flat = run_instruction(nc, whole, flat_bytes, [&] { nc.dma_copy(d, s); });
        const Outcome general = run_instruction(nc, whole, general_bytes, [&] { nc.dma_copy(d, as_two_dims(s)); });
        expect_same_outcome(flat, general, "load P " + std::to_string(P) + " n " + std::to_string(n));
      }
    }
}

// DMAs of one free dimension between a strided HBM vector (increment 3, 5, -1: the one-dimension
// runs copy_all_rows_bits takes without folding, session 24) and SBUF rows, loads and stores, against
// the same views as [1, n] (the folded general runs): the same record, SBUF bytes and HBM bytes.
TEST(SmallCallPaths, OneDimensionStridedDmaMatchesTheFoldedRuns) {
  NeuronCore nc;
  const Tile whole = nc.sbuf().alloc(DType::f32, 8, {64});
  std::vector<float> host(4096), host_flat, host_general;
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i) * 0.25f + 1.0f;
  const HbmTensor h = HbmTensor::wrap(host.data(), DType::f32, {64, 64});
  std::vector<std::byte> flat_bytes, general_bytes;
  for (std::int32_t P : {1, 2, 8})
    for (std::int64_t n : {2, 5, 9})
      for (std::int64_t step : {3, 5, -1}) {
        const Tile s = pattern(h.tile(1, P, 0, 1), step < 0 ? 40 : 2, n, step);
        const Tile d = whole.rows(0, P).cols(0, n);
        const std::string what = "P " + std::to_string(P) + " n " + std::to_string(n) + " step " + std::to_string(step);
        const std::vector<float> saved = host;
        const Outcome flat_load = run_instruction(nc, whole, flat_bytes, [&] { nc.dma_copy(d, s); });
        const Outcome general_load = run_instruction(nc, whole, general_bytes, [&] { nc.dma_copy(d, as_two_dims(s)); });
        expect_same_outcome(flat_load, general_load, "load " + what);
        const Outcome flat_store = run_instruction(nc, whole, flat_bytes, [&] { nc.dma_copy(s, d); });
        host_flat = host;
        host = saved;
        const Outcome general_store = run_instruction(nc, whole, general_bytes, [&] { nc.dma_copy(as_two_dims(s), d); });
        host_general = host;
        host = saved;
        expect_same_outcome(flat_store, general_store, "store " + what);
        EXPECT_TRUE(host_flat == host_general) << "store " << what << ": different HBM bytes";
        EXPECT_FALSE(host_flat == saved) << "store " << what << ": wrote nothing";
      }
}

// The operands both describe tests below run over: dense, strided, reversed, partition-broadcast,
// PSUM, bf16 and HBM (over `host`) views, then each again as a two-dimension view.
std::vector<Tile> description_operands(NeuronCore& nc, std::vector<float>& host) {
  const Tile sb = nc.sbuf().alloc(DType::f32, 16, {64});
  const Tile ps = nc.psum().alloc(DType::f32, 16, {64});
  const Tile b16 = nc.sbuf().alloc(DType::bf16, 4, {32});
  const HbmTensor h = HbmTensor::wrap(host.data(), DType::f32, {64, 64});
  std::vector<Tile> tiles = {sb, sb.rows(3, 5).cols(2, 9), pattern(sb.rows(0, 4), 1, 7, 3), pattern(sb.rows(0, 4), 20, 6, -2),
                             ps.rows(0, 8), b16, b16.rows(1, 2).cols(3, 5), h.tile(0, 4, 0, 16),
                             pattern(h.tile(2, 3, 0, 1), 5, 6, 7), pattern(h.tile(2, 3, 0, 1), 30, 4, -3),
                             sb.rows(2, 1).broadcast_partitions(16)};
  for (std::size_t i = 0, n = tiles.size(); i < n; ++i) tiles.push_back(as_two_dims(tiles[i]));
  return tiles;
}

// describe's one-source form (the DMA's record) against the list form it stands for, over dense,
// strided, reversed, multi-dimension, partition-broadcast, PSUM and HBM operands and a record whose
// region slots are full: every field the same.
TEST(SmallCallPaths, OneSourceDescriptionMatchesTheListForm) {
  NeuronCore nc;
  std::vector<float> host(4096);
  const std::vector<Tile> tiles = description_operands(nc, host);
  for (const Tile& dst : tiles)
    for (const Tile& src : tiles)
      for (std::uint8_t used : {0, 3, 4}) {
        Instruction one, list;
        one.nregions = list.nregions = used;  // 4: full, the regions are dropped
        one.bytes_read = list.bytes_read = 12;
        detail::describe(one, dst, src);
        detail::describe(list, dst, {&src});
        expect_same_record(one, list, "ndim " + std::to_string(dst.ndim) + "/" + std::to_string(src.ndim));
        EXPECT_EQ(one.index, list.index);
      }
}

// describe's fields against the Tile's own definitions (free_size, free_contiguous, region_of: the
// region hull of trace.cpp, not describe's one-pass walk), over the operands above and their 2-D
// views, with regions[0] the destination's and regions[1] the source's: an independent check of the
// one pass both forms above share (session 25: it reads every tile field before writing the region).
TEST(SmallCallPaths, DescriptionMatchesTheTileDefinitions) {
  NeuronCore nc;
  std::vector<float> host(4096);
  const std::vector<Tile> tiles = description_operands(nc, host);
  const auto same_region = [](const Region& a, const Region& b) {
    return a.mem == b.mem && a.write == b.write && a.p0 == b.p0 && a.np == b.np && a.lo == b.lo && a.hi == b.hi;
  };
  for (const Tile& dst : tiles)
    for (const Tile& src : tiles) {
      const std::string what = "ndim " + std::to_string(dst.ndim) + "/" + std::to_string(src.ndim) + " mem " +
                               std::to_string(static_cast<int>(dst.mem)) + "/" + std::to_string(static_cast<int>(src.mem));
      Instruction one;
      one.bytes_read = 12;
      detail::describe(one, dst, src);
      ASSERT_EQ(one.nregions, 2) << what;
      EXPECT_TRUE(same_region(one.regions[0], region_of(dst, true))) << what;
      EXPECT_TRUE(same_region(one.regions[1], region_of(src, false))) << what;
      EXPECT_EQ(one.out_dtype, dst.dtype) << what;
      EXPECT_EQ(one.in_dtype, src.dtype) << what;
      EXPECT_EQ(one.partitions, dst.partitions) << what;
      EXPECT_EQ(one.inputs, 1) << what;
      EXPECT_EQ(one.free_elems, std::max(dst.free_size(), src.free_size())) << what;
      EXPECT_EQ(one.bytes_written, dst.free_size() * dst.partitions * dtype_size(dst.dtype)) << what;
      EXPECT_EQ(one.bytes_read, 12 + src.free_size() * src.partitions * dtype_size(src.dtype)) << what;
      EXPECT_EQ(one.contiguous, dst.free_contiguous() && src.free_contiguous()) << what;
      EXPECT_FALSE(one.regions_dropped) << what;
    }
}

// The thread's pool of trace buffers (trace.cpp): a buffer handed back is the one the next take of
// a fitting size gets (a loop of small calls), a take never returns one more than about twice the
// size asked for, and the pool keeps at most two of the largest buffers (given three, one is freed).
TEST(SmallCallPaths, TraceBufferPoolReusesAndStaysBounded) {
  std::vector<Instruction> drain;  // the buffers earlier tests left: a take of n gets [n, 2n + 256]
  for (std::size_t want = 1; want <= detail::kTraceBufferMaxRecords; want *= 2)
    while (detail::take_trace_buffer(drain, want)) std::vector<Instruction>().swap(drain);
  for (int round = 0; round < 5; ++round) {
    std::vector<Instruction> a;
    a.reserve(100);
    const Instruction* data = a.data();
    detail::give_trace_buffer(a);
    EXPECT_EQ(a.capacity(), 0u);
    std::vector<Instruction> b;
    ASSERT_TRUE(detail::take_trace_buffer(b, 60)) << "round " << round;
    EXPECT_EQ(b.data(), data) << "round " << round;
    std::vector<Instruction> c;
    EXPECT_FALSE(detail::take_trace_buffer(c, 20)) << "a buffer over twice the size asked for, round " << round;
  }
  const std::size_t max = detail::kTraceBufferMaxRecords;
  std::vector<const Instruction*> given;
  for (int i = 0; i < 3; ++i) {
    std::vector<Instruction> big;
    big.reserve(max);
    given.push_back(big.data());
    detail::give_trace_buffer(big);
  }
  int kept = 0;
  for (int i = 0; i < 3; ++i) {
    std::vector<Instruction> t;
    if (!detail::take_trace_buffer(t, max)) continue;
    ++kept;
    EXPECT_TRUE(t.data() == given[0] || t.data() == given[1] || t.data() == given[2]);
  }
  EXPECT_EQ(kept, 2);
}

// The inline operand checks (engine_util.hpp: one test of the whole condition) against the
// sequences of checks they stand for (the *_checked forms, which throw the first failing check):
// the condition holds exactly when the sequence throws nothing, for one- and two-dimension views.
TEST(SmallCallPaths, InlineOperandChecksAgreeWithTheCheckSequences) {
  NeuronCore nc;
  const HardwareSpec& hw = nc.hw();
  const Tile sb = nc.sbuf().alloc(DType::f32, 128, {64});
  const Tile ps = nc.psum().alloc(DType::f32, 128, {64});
  std::vector<Tile> tiles;
  for (const Tile& base : {sb, ps})
    for (std::int32_t start : {0, 1, 32, 64, 96, 127})
      for (std::int32_t P : {0, 1, 2, 31, 32, 33, 64, 65, 128})
        for (std::int64_t n : {0, 1, 7, 5000, 70000}) {
          Tile t = base;
          t.partition_start = start;
          t.partitions = P;
          t.size[0] = n;
          t.stride[0] = n > 64 ? 0 : 1;
          tiles.push_back(t);
          Tile broadcast = t;
          broadcast.partition_stride = 0;
          tiles.push_back(broadcast);
          Tile null = t;
          null.base = nullptr;
          tiles.push_back(null);
          Tile hbm = t;
          hbm.mem = MemSpace::hbm;
          tiles.push_back(hbm);
        }
  const auto throws = [](auto&& f) {
    try {
      f();
    } catch (const std::exception&) {
      return true;
    }
    return false;
  };
  for (const Tile& one : tiles)
    for (const Tile& t : {one, as_two_dims(one)})
      for (Engine e : {Engine::vector, Engine::scalar, Engine::gpsimd}) {
        const bool ok = detail::engine_operand_ok(t, hw, e);
        EXPECT_EQ(ok, !throws([&] { detail::check_engine_operand_checked("test", "t", t, hw, e); }))
            << "start " << t.partition_start << " P " << t.partitions << " n " << t.free_size() << " ndim " << t.ndim;
        EXPECT_EQ(detail::free_size_of(t), t.free_size());
        EXPECT_EQ(detail::free_contiguous_of(t), t.free_contiguous());
        EXPECT_EQ(detail::partition_alignment_ok(t, hw),
                  !throws([&] { detail::require_partition_alignment_checked("test", "t", t, hw); }));
        EXPECT_EQ(detail::elem_bytes(t.dtype), dtype_size(t.dtype));
      }
  for (int d = 0; d < kDTypeCount; ++d) EXPECT_EQ(detail::elem_bytes(static_cast<DType>(d)), dtype_size(static_cast<DType>(d)));
}

// The schedule memo's comparison of a trace with the last one (cost_model.cpp compare_records):
// AVX2 (two records per pass) and SSE2 give the field-by-field answer -- false when a field other
// than the regions' addresses differs, else which records' addresses moved -- for every byte of
// every record changed in turn (padding bytes change nothing), over odd and even lengths.
TEST(SmallCallPaths, ScheduleMemoRecordComparisonMatchesFieldByField) {
  NeuronCore nc;
  const Tile t = nc.sbuf().alloc(DType::f32, 4, {32});
  std::vector<float> host(256, 1.0f);
  const HbmTensor h = HbmTensor::wrap(host.data(), DType::f32, {4, 64});
  nc.dma_copy(t, h.tile(0, 4, 0, 32));
  nc.tensor_scalar(t.cols(0, 8), t.cols(8, 8), AluOp::multiply, t.cols(31, 1));
  nc.tensor_tensor(t.cols(0, 4), t.cols(4, 4), t.cols(12, 4), AluOp::add);
  nc.memset(t.cols(16, 4), 2.0f);
  nc.tensor_copy(t.cols(20, 4), t.cols(0, 4), Engine::gpsimd);
  nc.dma_copy(h.tile(0, 4, 32, 32), t);
  nc.tensor_reduce(t.cols(24, 1), t.cols(0, 16), AluOp::add);
  const std::vector<Instruction> base = nc.trace().instructions;
  ASSERT_EQ(base.size(), 7u);
  // Field by field: fields_equal false on a differing field but the addresses; moved[i] on
  // differing addresses of record i (all four region slots).
  const auto reference = [](const Instruction* a, const Instruction* b, std::size_t n, std::vector<std::uint8_t>& moved) {
    bool fields_equal = true;
    for (std::size_t i = 0; i < n; ++i) {
      const Instruction &x = a[i], &y = b[i];
      // Byte comparisons of each field (a changed bool byte may hold any value).
      const auto eq = [](const auto& u, const auto& v) { return std::memcmp(&u, &v, sizeof u) == 0; };
      fields_equal = fields_equal && eq(x.index, y.index) && eq(x.program, y.program) && eq(x.core, y.core) &&
                     eq(x.engine, y.engine) && eq(x.opcode, y.opcode) && eq(x.in_dtype, y.in_dtype) &&
                     eq(x.out_dtype, y.out_dtype) && eq(x.partitions, y.partitions) && eq(x.free_elems, y.free_elems) &&
                     eq(x.matmul_m, y.matmul_m) && eq(x.inputs, y.inputs) && eq(x.bytes_read, y.bytes_read) &&
                     eq(x.bytes_written, y.bytes_written) && eq(x.declared_cycles, y.declared_cycles) &&
                     eq(x.accumulate, y.accumulate) && eq(x.double_row, y.double_row) && eq(x.contiguous, y.contiguous) &&
                     eq(x.subop, y.subop) && eq(x.nregions, y.nregions) && eq(x.host_label, y.host_label) &&
                     eq(x.regions_dropped, y.regions_dropped);
      bool addresses = false;
      for (std::size_t r = 0; r < x.regions.size(); ++r) {
        const Region &g = x.regions[r], &k = y.regions[r];
        fields_equal = fields_equal && eq(g.mem, k.mem) && eq(g.write, k.write) && eq(g.p0, k.p0) && eq(g.np, k.np);
        addresses = addresses || !eq(g.lo, k.lo) || !eq(g.hi, k.hi);
      }
      moved[i] = addresses;
    }
    return fields_equal;
  };
  int differing = 0, moved_seen = 0, padding = 0;
  for (std::size_t n : {base.size(), base.size() - 1})
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t byte = 0; byte < sizeof(Instruction); ++byte) {
        std::vector<Instruction> changed = base;
        reinterpret_cast<unsigned char*>(&changed[i])[byte] ^= 0x5A;
        std::vector<std::uint8_t> want(n), avx2(n, 2), sse2(n, 2);
        const bool same = reference(changed.data(), base.data(), n, want);
        const bool got_avx2 = detail::schedule_memo_compare_records(changed.data(), base.data(), n, true, avx2.data());
        const bool got_sse2 = detail::schedule_memo_compare_records(changed.data(), base.data(), n, false, sse2.data());
        ASSERT_EQ(got_avx2, same) << "record " << i << " byte " << byte << " of " << n;
        ASSERT_EQ(got_sse2, same) << "record " << i << " byte " << byte << " of " << n;
        if (same) {
          ASSERT_EQ(avx2, want) << "record " << i << " byte " << byte << " of " << n;
          ASSERT_EQ(sse2, want) << "record " << i << " byte " << byte << " of " << n;
          (want[i] ? moved_seen : padding) += 1;
        } else {
          ++differing;
        }
      }
  // Each kind of byte was met: fields, addresses (8 words per record), padding (8 bytes per record).
  EXPECT_GT(differing, 0);
  EXPECT_EQ(moved_seen, 64 * 13);
  EXPECT_EQ(padding, 32 * 13);
}

// ---- session 22: commit_instruction's inline dirty-range test over several partition groups, and
// the indirect DMA's one-row-per-partition path ------------------------------------------------

// A write of 64 partitions whose bytes the first partition group (0..31) already holds as written
// and the second (32..63) does not: commit_instruction's inline test must not take it as known
// (it tests every group the write reaches), so the next allocation over those bytes poisons both
// groups. Fails when the inline test looks at the first group only (the session-21 form accepted
// only writes inside one group; a form that stops after the first group would leave partitions
// 32..63 holding the memset's bytes). Also the write the other way round (the second group known),
// one inside group 3, and a 128-partition write after both halves were written.
TEST(SmallCallPaths, MultiGroupWritesAreNotedInEveryGroup) {
  for (int variant = 0; variant < 4; ++variant) {
    NeuronCore nc;
    const Tile t = nc.sbuf().alloc(DType::f32, 128, {64}, "t");
    ASSERT_TRUE(all_poison(t));
    const Tile cols = t.cols(16, 16);
    switch (variant) {
      case 0:  // group 0 first, then groups 0 and 1
        nc.memset(cols.rows(0, 32), 1.0f);
        nc.memset(cols.rows(0, 64), 2.0f);
        break;
      case 1:  // group 1 first, then groups 0 and 1
        nc.memset(cols.rows(32, 32), 1.0f);
        nc.memset(cols.rows(0, 64), 2.0f);
        break;
      case 2:  // groups 0..1, then a write inside group 3 (the one-group form), then all four groups
        nc.memset(cols.rows(0, 64), 1.0f);
        nc.memset(cols.rows(96, 32), 3.0f);
        nc.memset(cols, 2.0f);
        break;
      default: {  // DMA writes of partitions 16..95 (three groups, none aligned): the same range again
        // (known, nothing to note), then partitions 40..89
        HbmTensor h(DType::f32, {128, 16});
        nc.dma_copy(cols.rows(16, 80), h.tile(0, 80, 0, 16));
        nc.dma_copy(cols.rows(16, 80), h.tile(1, 80, 0, 16));
        nc.dma_copy(cols.rows(40, 50), h.tile(2, 50, 0, 16));
        break;
      }
    }
    nc.sbuf().free(t);
    const Tile again = nc.sbuf().alloc(DType::f32, 128, {64}, "again");
    ASSERT_EQ(again.offset_bytes, t.offset_bytes);
    EXPECT_TRUE(all_poison(again)) << "variant " << variant;
  }
}

// dma_gather / dma_scatter with one index per partition and rows of one 4- or 8-byte word take a
// flat loop down the partitions (isa_dma.cpp move_one_row_per_partition, and check_indices' flat
// test); K = 2 (each partition's index twice) takes the general (p, k) loop. Column 0 of the K = 2
// gather is the K = 1 gather; a K = 2 scatter of each partition's value twice leaves the table as
// the K = 1 scatter (the last partition naming a row wins in both); a bad index raises the same
// error with nothing moved. Over rows of 4 and 8 bytes (and 12: the general copy), P = 1, 17, 64,
// 128, an on-chip side starting at partition 32, indices with repeats, and an index tile that is a
// column of a wider one (partition stride > 4).
TEST(SmallCallPaths, OneRowPerPartitionIndirectDmaMatchesTheGeneralLoop) {
  const std::int64_t R = 300;
  for (const std::int64_t words : {1, 2, 3})
    for (const std::int32_t P : {1, 17, 64, 128})
      for (const std::int32_t p0 : {0, 32}) {
        if (p0 + P > 128) continue;
        const std::string what = "words " + std::to_string(words) + " P " + std::to_string(P) + " p0 " + std::to_string(p0);
        NeuronCore nc;
        HbmTensor table(DType::f32, {R, words});
        for (std::int64_t i = 0; i < R * words; ++i) table.as<float>()[i] = static_cast<float>(i) * 0.5f + 0.125f;
        const Tile rows = table.tile(0, static_cast<std::int32_t>(R), 0, words);
        // Index words: column 1 of a [128, 3] tile (K = 1) and columns 1..2 (K = 2, the same index twice).
        HbmTensor hidx(DType::i32, {128, 3});
        for (std::int64_t p = 0; p < 128; ++p) {
          const auto v = static_cast<std::int32_t>(1 + (p * 37 + 11) % (p % 5 == 0 ? 7 : R));  // repeats among p % 5 == 0
          hidx.as<std::int32_t>()[3 * p] = -99;
          hidx.as<std::int32_t>()[3 * p + 1] = v;
          hidx.as<std::int32_t>()[3 * p + 2] = v;
        }
        const Tile iw = nc.sbuf().alloc(DType::i32, 128, {3}, "index words");
        nc.dma_copy(iw, hidx.tile(0, 128, 0, 3));
        const Tile one = iw.rows(p0, P).cols(1, 1), two = iw.rows(p0, P).cols(1, 2);
        const Tile g1 = nc.sbuf().alloc(DType::f32, 128, {words}, "g1");
        const Tile g2 = nc.sbuf().alloc(DType::f32, 128, {2 * words}, "g2");
        nc.dma_gather(g1.rows(p0, P), rows, one, 1);
        nc.dma_gather(g2.rows(p0, P), rows, two, 1);
        for (std::int32_t p = p0; p < p0 + P; ++p)
          for (std::int64_t j = 0; j < words; ++j) {
            const float want = table.as<float>()[(hidx.as<std::int32_t>()[3 * p + 1] - 1) * words + j];
            ASSERT_EQ(*reinterpret_cast<const float*>(g1.at(p, j)), want) << what << " p " << p;
            ASSERT_EQ(*reinterpret_cast<const float*>(g2.at(p, j)), want) << what << " p " << p;
          }
        // Scatter distinct values back: K = 1 from [P, words] into one table, K = 2 (each partition's
        // values twice) into a copy.
        HbmTensor vals(DType::f32, {128, words});
        for (std::int64_t i = 0; i < 128 * words; ++i) vals.as<float>()[i] = 5000.0f + static_cast<float>(i);
        const Tile v = vals.tile(p0, P, 0, words);
        nc.dma_copy(g1.rows(p0, P), v);
        nc.dma_copy(g2.rows(p0, P).cols(0, words), v);
        nc.dma_copy(g2.rows(p0, P).cols(words, words), v);
        HbmTensor t1(DType::f32, {R, words}), t2(DType::f32, {R, words});
        std::memcpy(t1.data(), table.data(), static_cast<std::size_t>(R * words * 4));
        std::memcpy(t2.data(), table.data(), static_cast<std::size_t>(R * words * 4));
        nc.dma_scatter(t1.tile(0, static_cast<std::int32_t>(R), 0, words), g1.rows(p0, P), one, 1);
        nc.dma_scatter(t2.tile(0, static_cast<std::int32_t>(R), 0, words), g2.rows(p0, P), two, 1);
        EXPECT_EQ(std::memcmp(t1.data(), t2.data(), static_cast<std::size_t>(R * words * 4)), 0) << what;
        EXPECT_NE(std::memcmp(t1.data(), table.data(), static_cast<std::size_t>(R * words * 4)), 0) << what;
        // A bad index (below and above the table) in the last partition: the same error, nothing moved.
        for (const std::int32_t bad : {0, static_cast<std::int32_t>(R + 1)}) {
          HbmTensor b(DType::i32, {1, 2});
          b.as<std::int32_t>()[0] = bad;
          b.as<std::int32_t>()[1] = bad;
          nc.dma_copy(iw.rows(p0 + P - 1, 1).cols(1, 2), b.tile(0, 1, 0, 2));
          const std::vector<std::byte> before1 = row_bytes(g1), before2 = row_bytes(g2);
          std::string e1, e2;
          try {
            nc.dma_gather(g1.rows(p0, P), rows, one, 1);
          } catch (const UsageError& e) {
            e1 = e.what();
          }
          try {
            nc.dma_gather(g2.rows(p0, P), rows, two, 1);
          } catch (const UsageError& e) {
            e2 = e.what();
          }
          EXPECT_FALSE(e1.empty()) << what << " bad " << bad;
          EXPECT_EQ(e1, e2) << what << " bad " << bad;
          EXPECT_TRUE(row_bytes(g1) == before1 && row_bytes(g2) == before2) << what << " bad " << bad;
        }
      }
}

// Random writes (memset of engine-aligned partition quadrants, DMA of any partition span) over
// random byte windows of a few tiles, each freed and allocated again: every fresh allocation reads
// as poison. Exercises the dirty ranges' splits, joins and merges (poison's in-place remove_dirty,
// session 22): a removal of more than the filled bytes leaves old bytes in a fresh tile.
TEST(SmallCallPaths, RandomPartialWritesNeverLeakIntoAFreshAllocation) {
  NeuronCore nc;
  std::mt19937 gen(22);
  HbmTensor src(DType::f32, {128, 512});
  for (std::int64_t i = 0; i < 128 * 512; ++i) src.as<float>()[i] = static_cast<float>(i % 1000) + 0.5f;
  std::vector<Tile> live;
  for (int step = 0; step < 3000; ++step) {
    if (live.size() < 3 || gen() % 3 == 0) {
      if (live.size() >= 4) {
        const std::size_t k = gen() % live.size();
        nc.sbuf().free(live[k]);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      }
      const std::int64_t cols = 16 * (1 + static_cast<std::int64_t>(gen() % 6));
      const Tile t = nc.sbuf().alloc(DType::f32, 128, {cols}, "t");
      ASSERT_TRUE(all_poison(t)) << "step " << step;
      live.push_back(t);
      continue;
    }
    const Tile& t = live[gen() % live.size()];
    const std::int64_t F = t.free_size(), c0 = static_cast<std::int64_t>(gen() % static_cast<unsigned>(F));
    const std::int64_t n = 1 + static_cast<std::int64_t>(gen() % static_cast<unsigned>(F - c0));
    if (gen() % 2 == 0) {
      const std::int32_t q = static_cast<std::int32_t>(gen() % 4), w = gen() % 3 == 0 ? 128 : 32;
      nc.memset(w == 128 ? t.cols(c0, n) : t.rows(32 * q, 32).cols(c0, n), static_cast<float>(step));
    } else {
      const std::int32_t p0 = static_cast<std::int32_t>(gen() % 128);
      const std::int32_t np = 1 + static_cast<std::int32_t>(gen() % static_cast<unsigned>(128 - p0));
      nc.dma_copy(t.rows(p0, np).cols(c0, n), src.tile(0, np, 0, n));
    }
  }
}

}  // namespace
