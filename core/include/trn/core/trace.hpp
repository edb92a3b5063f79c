// Instruction trace: every emulated instruction is recorded with its engine, opcode, shapes,
// dtypes, bytes moved and the memory regions it reads and writes, so that the cost model can
// schedule it (read-after-write etc. on overlapping regions). Recording can be switched off.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "trn/core/dtype.hpp"
#include "trn/core/memory.hpp"
#include "trncore.h"

namespace trn {

enum class Engine : std::uint8_t {
  tensor = TRN_ENGINE_TENSOR,
  vector = TRN_ENGINE_VECTOR,
  scalar = TRN_ENGINE_SCALAR,
  gpsimd = TRN_ENGINE_GPSIMD,
  dma = TRN_ENGINE_DMA,
};
inline constexpr int kEngineCount = TRN_ENGINE_COUNT;
std::string_view engine_name(Engine e);

enum class Opcode : std::uint8_t {
  nc_matmul, nc_transpose,
  tensor_tensor, tensor_scalar, tensor_reduce, tensor_tensor_scan, tensor_copy, memset, bn_stats, bn_aggr,
  reciprocal, activation, iota, affine_select, custom_op, dma_copy, dma_transpose,
  // A round trip to the instance's host CPU (fp64 work no engine can do: docs/cost-model.md
  // section 7). Recorded by record_host_step (host_step.hpp), never by an engine: the record's
  // engine field reads dma (its data crosses the host link), but it occupies no DMA queue and is
  // counted in Trace::host_steps / Profile::host_*, not per engine.
  host_compute,
  // A message between emulated devices (a collective step or a device-to-device DMA over
  // NeuronLink or EFA: fabric.hpp, docs/scale-out.md). Recorded by record_link_transfer
  // (link_step.hpp) with its modeled time in declared_cycles (ns); engine field dma, but it runs
  // on the device's "link" resource, counted in Trace::link_transfers / Profile::link_*.
  link_transfer,
};
std::string_view opcode_name(Opcode op);

// A memory region touched by an instruction. On-chip: partitions [p0, p0+np) x bytes [lo, hi)
// within each partition. HBM: absolute host addresses [lo, hi) (p0 = np = 0).
struct Region {
  MemSpace mem = MemSpace::sbuf;
  bool write = false;
  std::int32_t p0 = 0, np = 0;
  std::uint64_t lo = 0, hi = 0;
};
Region region_of(const Tile& t, bool write);

struct Instruction {
  std::uint64_t index = 0;       // program order within its program
  std::int32_t program = 0;      // linear SPMD program id
  std::int32_t core = 0;         // emulated NeuronCore it ran on
  Engine engine = Engine::vector;
  Opcode opcode = Opcode::tensor_copy;
  DType in_dtype = DType::f32, out_dtype = DType::f32;
  std::int32_t partitions = 0;   // active partitions (matmul: K; link_transfer: its peer group + 1, link_step.hpp)
  std::int64_t free_elems = 0;   // elements per partition of the widest operand (matmul: N moving)
  std::int32_t matmul_m = 0;     // matmul stationary free size (output partitions; link_transfer: its root + 1)
  std::int32_t inputs = 1;       // tensor inputs read (Vector cost: 1 input ~N, 2 inputs ~2N)
  std::int64_t bytes_read = 0, bytes_written = 0;
  double declared_cycles = 0;    // custom operators declare their own cost; host_compute: its fp64 flops;
                                 // link_transfer: its modeled time in ns
  bool accumulate = false;       // nc_matmul accumulate flag
  bool double_row = false;       // nc_matmul perf_mode double_row: contracts 2 * partitions rows
  bool contiguous = true;        // every operand's free pattern is one dense run (VectorE perf modes)
  std::uint8_t subop = 0;        // instruction-specific detail for the cost model (e.g. AluOp of tensor_tensor)
  std::uint8_t nregions = 0;
  std::uint16_t host_label = 0;  // host_compute / link_transfer: the record's name (host_step_name); fills padding
  std::array<Region, 4> regions{};
  bool regions_dropped = false;  // more operands than `regions` holds (custom ops): some not recorded
  void add_region(const Region& r) {
    if (nregions < regions.size())
      regions[nregions++] = r;
    else
      regions_dropped = true;
  }
};

// Instruction::subop of a dma_copy record made by NeuronCore::dma_gather / dma_scatter: an indirect
// DMA whose declared_cycles holds its descriptor count (one per moved row).
inline constexpr std::uint8_t kSubopIndirectDma = 1;

namespace detail {
// The calling thread's warm pool of trace buffers (trace.cpp): a Trace's record buffer goes back to
// it when the Trace is destroyed or assigned over (or by recycle_trace), and Trace::reserve takes a
// kept buffer before allocating. A process's second call of a large routine otherwise faults its
// trace buffers in afresh (ssyevd 128: 131 page faults, 5.4 ms against 3.0 ms from the third call
// on, session 21). Host memory only: no record, byte or modeled time depends on it.
// - Bounded by a running total: the pool keeps at most kTraceBufferSlots buffers, each of at most
//   kTraceBufferMaxRecords records (a larger one is freed when given), and their capacities summed
//   stay within 2 * kTraceBufferMaxRecords records (~6.5 MiB a thread): a give that would pass the
//   bound first frees the smallest kept buffers.
// - A take wants a buffer of at least the records asked for and at most about twice as many (a
//   call's small launch traces would otherwise take the join's large buffer); it tries the slot the
//   last give filled or take emptied first (a loop of small calls takes one buffer per launch and
//   gives one back), then the smallest that fits.
// - A give fills the slot the last take emptied when the bound allows, else any empty slot, else
//   replaces the smallest kept buffer when that one is smaller, else frees the buffer.
inline constexpr std::size_t kTraceBufferSlots = 8;
inline constexpr std::size_t kTraceBufferMaxRecords = std::size_t{1} << 14;  // 3.3 MiB of records
// Takes `records`' buffer (left empty, no capacity) into the pool, or frees it.
void give_trace_buffer(std::vector<Instruction>& records) noexcept;
// Swaps a kept buffer of capacity n .. 2n + 256 (as above) into `records` (no capacity); false if none.
bool take_trace_buffer(std::vector<Instruction>& records, std::size_t n) noexcept;
}  // namespace detail

struct Trace {
  std::vector<Instruction> instructions;
  std::array<std::int64_t, kEngineCount> per_engine{};
  std::int64_t host_steps = 0;  // host_compute records (not in per_engine nor total())
  std::int64_t link_transfers = 0;  // link_transfer records (not in per_engine nor total())
  Trace() = default;
  Trace(const Trace&) = default;
  Trace(Trace&&) noexcept = default;
  Trace& operator=(const Trace&) = default;
  Trace& operator=(Trace&& other) noexcept {
    if (this != &other) {
      if (instructions.capacity() != 0) detail::give_trace_buffer(instructions);
      instructions = std::move(other.instructions);
      per_engine = other.per_engine;
      host_steps = other.host_steps;
      link_transfers = other.link_transfers;
    }
    return *this;
  }
  ~Trace() {
    if (instructions.capacity() != 0) detail::give_trace_buffer(instructions);
  }
  void clear() {
    instructions.clear();
    per_engine = {};
    host_steps = 0;
    link_transfers = 0;
  }
  void append(const Trace& other);
  void append(Trace&& other);  // takes other's instructions over when this trace is empty
  // Capacity for `records` instructions without changing the contents. Buffers of several MiB
  // (a factorization's merged trace reaches tens of MiB) are advised onto transparent huge pages
  // before the first record is written into them: first-touch faults on 4 KiB pages, one per
  // ~20 records, cost the host more than writing the records. append() grows through this.
  void reserve(std::size_t records);
  std::int64_t total() const;  // engine instructions (host steps excluded)
};

// Launch traces collected in order and joined once into an exactly sized Trace. Appending every
// launch to one growing Trace copies each instruction several times over (the vector regrows
// geometrically, and every regrown buffer is page-faulted in afresh): measured 20 % of the host
// time of a block-Jacobi Ssyevj at n = 512 (~0.5 M instructions of 216 bytes).
struct TraceParts {
  std::vector<Trace> parts;
  void add(Trace&& t) {
    if (!t.instructions.empty()) parts.push_back(std::move(t));
  }
  void add(TraceParts&& other) {
    for (Trace& t : other.parts) parts.push_back(std::move(t));
    other.parts.clear();
  }
  Trace join() &&;  // the parts in order (the first one's buffer reused when it is the only one)
};

}  // namespace trn
