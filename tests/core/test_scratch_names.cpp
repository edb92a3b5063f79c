// Scratch blocks are named by allocation in traces (trn/core/scratch.hpp, trace_hbm_address;
// docs/cost-model.md section 2, "Scratch addresses"): a block that reuses a released block's bytes
// is another buffer to the cost model (no WAR/WAW edge to the dead one), while accesses to one live
// block keep their dependencies.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "trn/core/cost_model.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/memory.hpp"
#include "trn/core/scratch.hpp"
#include "trn/core/trace.hpp"

namespace {

using trn::Instruction;
using trn::MemSpace;
using trn::Region;

// A DMA between the HBM region `hbm` and 8 partitions of SBUF at byte `sbuf_lo` (direction from hbm.write).
Instruction dma(const Region& hbm, std::uint64_t sbuf_lo) {
  Instruction d;
  d.engine = trn::Engine::dma;
  d.opcode = trn::Opcode::dma_copy;
  d.partitions = 8;
  d.free_elems = 128;
  d.bytes_read = d.bytes_written = 8 * 128 * 4;
  d.add_region(Region{MemSpace::sbuf, !hbm.write, 0, 8, sbuf_lo, sbuf_lo + 512});
  d.add_region(hbm);
  return d;
}

Region hbm_region(float* p, bool write) {
  return trn::region_of(trn::HbmTensor::wrap(p, trn::DType::f32, {8, 128}).tile(0, 8, 0, 128), write);
}

// Store into block a, load it back (a true RAW), then store into block b, which the stack put at a's
// bytes after a was released: the timeline's dependency of each record.
std::vector<std::int64_t> depends(const Region& store_a, const Region& load_a, const Region& store_b) {
  trn::Trace t;
  for (const Instruction& ins : {dma(store_a, 0), dma(load_a, 1024), dma(store_b, 2048)}) {
    t.instructions.push_back(ins);
    t.instructions.back().index = t.instructions.size() - 1;
    ++t.per_engine[static_cast<int>(trn::Engine::dma)];
  }
  trn::CostModelOptions opt;
  opt.target = trn::Generation::trn2;
  opt.keep_timeline = true;
  const trn::Schedule s = trn::schedule_trace(t, opt);
  std::vector<std::int64_t> d;
  for (const auto& x : s.timeline) d.push_back(x.depends_on);
  return d;
}

}  // namespace

TEST(ScratchNames, AReusedBlockIsAnotherBufferAndALiveBlockKeepsItsDependencies) {
  auto* a = static_cast<float*>(trn::detail::scratch_allocate(8 * 128 * 4));
  const Region store_a = hbm_region(a, true), load_a = hbm_region(a, false);
  EXPECT_EQ(store_a.lo, load_a.lo);  // one live block: one name
  EXPECT_GE(store_a.lo, trn::detail::kScratchTraceTag);
  trn::detail::scratch_release(a);
  auto* b = static_cast<float*>(trn::detail::scratch_allocate(8 * 128 * 4));
  ASSERT_EQ(a, b);  // the stack hands the same bytes back
  const Region store_b = hbm_region(b, true);
  EXPECT_TRUE(store_b.hi <= store_a.lo || store_a.hi <= store_b.lo) << "a new block must not overlap a dead one";

  const std::vector<std::int64_t> named = depends(store_a, load_a, store_b);
  EXPECT_EQ(named[1], 0) << "the load of a live block waits for its store (RAW)";
  EXPECT_EQ(named[2], -1) << "the store into a fresh block waits for nothing";

  // The same three records by host address (what heap temporaries get): the fresh block's store
  // waits for the dead block's load (a false WAR edge).
  Region raw_a = store_a, raw_la = load_a, raw_b = store_b;
  const auto host = reinterpret_cast<std::uintptr_t>(a);
  for (Region* r : {&raw_a, &raw_la, &raw_b}) r->hi = host + (r->hi - r->lo), r->lo = host;
  const std::vector<std::int64_t> by_address = depends(raw_a, raw_la, raw_b);
  EXPECT_EQ(by_address[1], 0);
  EXPECT_EQ(by_address[2], 1);
  trn::detail::scratch_release(b);
}

// An address inside no live block (a released one, or the heap) keeps its host address.
TEST(ScratchNames, AddressesOutsideLiveBlocksAreUnchanged) {
  std::vector<float> heap(64);
  const auto h = reinterpret_cast<std::uintptr_t>(heap.data());
  EXPECT_EQ(trn::trace_hbm_address(h), h);
  auto* a = static_cast<char*>(trn::detail::scratch_allocate(256));
  const auto name = trn::trace_hbm_address(reinterpret_cast<std::uintptr_t>(a) + 100);
  EXPECT_EQ(name, trn::trace_hbm_address(reinterpret_cast<std::uintptr_t>(a)) + 100);  // offsets kept
  trn::detail::scratch_release(a);
  EXPECT_EQ(trn::trace_hbm_address(reinterpret_cast<std::uintptr_t>(a)), reinterpret_cast<std::uintptr_t>(a));
}

namespace {

// A DMA store into HBM at the name k, then a host step that reads the name x (4 KiB each): the host
// step overlaps the store unless the two regions overlap (RAW).
trn::Trace two_stores(std::uint64_t k, std::uint64_t x) {
  trn::Trace t;
  t.instructions.push_back(dma(Region{MemSpace::hbm, true, 0, 0, k, k + 4096}, 0));
  ++t.per_engine[static_cast<int>(trn::Engine::dma)];
  static const float host_bytes[1024] = {};
  trn::record_host_step(t, trn::HostStep{.name = "test.scratch_names.read", .flops = 1e4,
                                         .reads = {trn::HostSpan(host_bytes, 1024)}});
  t.instructions.back().regions[0].lo = x;  // the span's name, as trace_hbm_address would give it
  t.instructions.back().regions[0].hi = x + 4096;
  return t;
}
double modeled(const trn::Trace& t, bool memo) {
  trn::CostModelOptions opt;
  opt.target = trn::Generation::trn2;
  opt.keep_timeline = !memo;  // a timeline is never memoised
  return trn::schedule_trace(t, opt).profile.total_ns;
}
std::uint64_t name_of(std::uint64_t serial) { return trn::detail::kScratchTraceTag | serial << trn::detail::kScratchSlotShift; }

}  // namespace

// The memo answers a trace that repeats the last one but for fresh scratch serials (a loop of calls
// whose temporaries come from the stack in the same order) with the last profile only when the
// renaming keeps the order of every name (cost_model.cpp, repeats_last_renamed): here a kept block
// above the renamed one ends up overlapped by it, a WAW edge the last trace did not have.
TEST(ScratchNames, TheMemoAnswersARenamedRepeatOnlyWhenTheOrderIsKept) {
  const double apart = modeled(two_stores(name_of(9), name_of(5)), false);
  const double same = modeled(two_stores(name_of(9), name_of(9)), false);
  ASSERT_GT(same, apart) << "the overlapping stores must be ordered (the test needs the edge to show)";
  EXPECT_EQ(modeled(two_stores(name_of(9), name_of(5)), true), apart);
  EXPECT_EQ(modeled(two_stores(name_of(9), name_of(9)), true), same) << "block 5 renamed onto the kept block 9";
  // Kept below renamed: answered from the memo, and the same as the model.
  EXPECT_EQ(modeled(two_stores(name_of(2), name_of(5)), true), apart);
  EXPECT_EQ(modeled(two_stores(name_of(2), name_of(8)), true), apart);
  EXPECT_EQ(modeled(two_stores(name_of(2), name_of(8)), false), apart);
}
