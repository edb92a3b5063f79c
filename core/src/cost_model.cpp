// Discrete-event cost model over the instruction trace. Formulas and constants: cost_model.hpp,
// hardware.cpp and docs/cost-model.md.
#include "trn/core/cost_model.hpp"
#include "trn/core/fabric.hpp"
#include "trn/core/host_simd.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/link_step.hpp"
#include "trn/core/perfetto_ranks.hpp"
#include "trn/core/scratch.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <immintrin.h>
#include <cstdio>
#include <cstring>
#include <deque>
#include <limits>
#include <new>
#include <sys/mman.h>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace trn {

namespace {

bool is16(DType t) { return t == DType::bf16 || t == DType::f16; }

bool touches(const Instruction& ins, MemSpace m) {
  for (std::uint8_t i = 0; i < ins.nregions; ++i)
    if (ins.regions[i].mem == m) return true;
  return false;
}

int writes(const Instruction& ins) {
  int n = 0;
  for (std::uint8_t i = 0; i < ins.nregions; ++i) n += ins.regions[i].write;
  return n;
}

bool input_in(const Instruction& ins, MemSpace m) {
  for (std::uint8_t i = 0; i < ins.nregions; ++i)
    if (!ins.regions[i].write && ins.regions[i].mem == m) return true;
  return false;
}

double engine_ghz(Engine e, const HardwareSpec& hw) {
  switch (e) {
    case Engine::tensor: return hw.tensor_ghz;
    case Engine::vector: return hw.vector_ghz;
    case Engine::scalar: return hw.scalar_ghz;
    default: return hw.gpsimd_ghz;
  }
}

int dma_queues_for(const Instruction& ins, const HardwareSpec& hw) {
  const int k = (std::max(ins.partitions, 1) + hw.dma_partitions_per_engine - 1) / hw.dma_partitions_per_engine;
  return std::clamp(k, 1, hw.dma_engines);
}

}  // namespace

double instruction_cycles(const Instruction& ins, const HardwareSpec& hw) {
  const double N = static_cast<double>(ins.free_elems);
  const double min_ii = hw.engine_min_ii;
  switch (ins.opcode) {
    case Opcode::nc_matmul: {
      // ISA-OLD: max(min(64, N_stationary), N_moving); fp32 inputs 4 passes (tf32 runs at bf16 rate).
      // double_row contracts 2 x 128 rows at the cost of 128 ("K = 256 costs what K = 128 costs in
      // BF16", ARCH3): the same formula over the N moving columns.
      const double c = std::max(std::min<double>(hw.matmul_min_ii, ins.matmul_m), N);
      return ins.in_dtype == DType::f32 ? c * hw.matmul_fp32_passes : c;
    }
    case Opcode::nc_transpose:
      if (ins.engine == Engine::tensor)  // max(P, min(64, F)) with F the free size of the source
        return std::max<double>(ins.partitions, std::min<double>(hw.matmul_min_ii, N));
      return std::max(min_ii, N);
    case Opcode::activation:  // + ActReadAccumulator when the instruction also writes a reduction
      return std::max(min_ii, N) + (writes(ins) > 1 ? min_ii : 0.0);
    case Opcode::tensor_scalar:
    case Opcode::tensor_copy: {
      double c = std::max(min_ii, N);
      // NC-v3 VectorE performance mode: 4x for 16-bit SBUF->SBUF contiguous, 2x otherwise (ARCH3).
      if (hw.vector_perf_mode && ins.engine == Engine::vector && is16(ins.in_dtype) && is16(ins.out_dtype))
        c = std::max(min_ii, N / ((ins.contiguous && !touches(ins, MemSpace::psum)) ? 4.0 : 2.0));
      return c;
    }
    case Opcode::tensor_tensor: {
      // max(MIN_II, N) with one input in PSUM and one in SBUF, else 2N (ISA-OLD). The bf16 SBUF
      // add/multiply/subtract fast path needs the ALU op: subop holds AluOp + 1 when recorded.
      const bool one_psum = input_in(ins, MemSpace::psum) && input_in(ins, MemSpace::sbuf);
      const bool bf16_fast = ins.in_dtype == DType::bf16 && ins.out_dtype == DType::bf16 && ins.contiguous &&
                             (ins.subop == 2 || ins.subop == 3 || ins.subop == 4);  // add, subtract, multiply
      double c = std::max(min_ii, (one_psum || bf16_fast) ? N : 2.0 * N);
      if (hw.vector_perf_mode && ins.engine == Engine::vector && is16(ins.in_dtype) && is16(ins.out_dtype) &&
          !touches(ins, MemSpace::psum))
        c = std::max(min_ii, c / 2.0);
      return c;
    }
    case Opcode::tensor_reduce: return std::max(1.0, N);
    case Opcode::tensor_tensor_scan: return std::max(min_ii, 2.0 * N);
    case Opcode::memset: return std::max(min_ii, N);
    case Opcode::bn_stats: return std::max(min_ii, N);
    case Opcode::bn_aggr: return std::max(min_ii, 13.0 * (N / 3.0));
    case Opcode::reciprocal: return std::max(min_ii, 8.0 * N);
    case Opcode::iota:
    case Opcode::affine_select: return hw.gpsimd_start + N;
    case Opcode::custom_op: return ins.declared_cycles;
    case Opcode::dma_copy:
    case Opcode::dma_transpose: return 0.0;  // DMA time is computed in ns (instruction_ns)
    case Opcode::host_compute: return 0.0;   // host time is computed in ns (host_step_ns)
    case Opcode::link_transfer: return 0.0;  // its modeled ns travel in the record (fabric.hpp)
  }
  return min_ii;
}

double host_step_ns(double bytes, double flops, const HardwareSpec& hw, const HostCostOptions& host) {
  if (!host.enabled) return 0.0;
  const double link = host.link_bytes_per_ns > 0 ? host.link_bytes_per_ns : hw.host_link_bytes_per_ns;
  const double rate = host.fp64_flops_per_ns > 0 ? host.fp64_flops_per_ns : hw.host_fp64_flops_per_ns;
  const double fixed = host.roundtrip_ns >= 0 ? host.roundtrip_ns : hw.host_roundtrip_ns;
  // The transfer to the host and the one back are sequential (the host computes between them); the
  // two directions of the link are not used at once.
  return fixed + bytes / link + flops / rate;
}

double host_step_ns(const Instruction& ins, const HardwareSpec& hw, const HostCostOptions& host) {
  return host_step_ns(static_cast<double>(ins.bytes_read + ins.bytes_written), ins.declared_cycles, hw, host);
}

double instruction_ns(const Instruction& ins, const HardwareSpec& hw, double dma_bw_per_queue) {
  if (ins.opcode == Opcode::host_compute) return host_step_ns(ins, hw);
  if (ins.opcode == Opcode::link_transfer) return ins.declared_cycles;
  if (ins.engine != Engine::dma) return instruction_cycles(ins, hw) / engine_ghz(ins.engine, hw);
  // Each DMA engine serves 8 partitions and moves its share of the bytes; every partition row is a
  // descriptor (dma_descriptor_ns), and an HBM endpoint moves data at dma_hbm_efficiency of the
  // engine's bandwidth (docs/cost-model.md section 3).
  const int queues = dma_queues_for(ins, hw);
  const double bytes = static_cast<double>(std::max(ins.bytes_read, ins.bytes_written));
  // An indirect DMA (dma_gather / dma_scatter) issues one descriptor per moved row, recorded in
  // declared_cycles, spread over the queues of its partitions.
  const double descriptors = ins.subop == kSubopIndirectDma && ins.opcode == Opcode::dma_copy
                                 ? ins.declared_cycles
                                 : static_cast<double>(std::max(ins.partitions, 1));
  const double rows_per_queue = std::ceil(descriptors / static_cast<double>(queues));
  double bw = dma_bw_per_queue * (touches(ins, MemSpace::hbm) ? hw.dma_hbm_efficiency : 1.0);
  if (ins.opcode == Opcode::dma_transpose) bw *= input_in(ins, MemSpace::hbm) ? 0.9 : 0.5;  // ARCH3
  return rows_per_queue * hw.dma_descriptor_ns + bytes / queues / bw;
}

double instruction_flops(const Instruction& ins) {
  if (ins.opcode == Opcode::nc_matmul)
    return 2.0 * ins.partitions * (ins.double_row ? 2.0 : 1.0) * static_cast<double>(ins.matmul_m) *
           static_cast<double>(ins.free_elems);
  if (ins.engine == Engine::dma) return 0.0;  // also host_compute records
  return static_cast<double>(ins.partitions) * static_cast<double>(ins.free_elems);
}

double instruction_roofline_ns(const Instruction& ins, const HardwareSpec& hw, double hbm_queue_bytes_per_ns) {
  if (ins.opcode == Opcode::host_compute || ins.opcode == Opcode::link_transfer) return 0.0;
  if (ins.engine == Engine::dma) {
    const double bytes = static_cast<double>(std::max(ins.bytes_read, ins.bytes_written));
    const double bw = touches(ins, MemSpace::hbm) ? hbm_queue_bytes_per_ns * hw.dma_hbm_efficiency : hw.dma_bytes_per_ns;
    return bytes / (hw.dma_engines * bw);
  }
  const double lanes = static_cast<double>(ins.partitions) / hw.pmax;  // share of the partition lanes in use
  const double N = static_cast<double>(ins.free_elems);
  double cycles = lanes * N;
  if (ins.opcode == Opcode::nc_matmul) {
    cycles *= static_cast<double>(ins.matmul_m) / hw.gemm_stationary_fmax;
    if (ins.in_dtype == DType::f32) cycles *= hw.matmul_fp32_passes;
  } else if (ins.opcode == Opcode::custom_op) {
    cycles = ins.declared_cycles;  // the operator's own cost is all that is known of its work
  } else if (hw.vector_perf_mode && ins.engine == Engine::vector && is16(ins.in_dtype) && is16(ins.out_dtype)) {
    cycles /= 4.0;
  }
  return cycles / engine_ghz(ins.engine, hw);
}

double Profile::roofline_bound_ns() const {
  double b = std::max(host_roundtrip_ns, link_ns);
  for (double r : roofline_ns) b = std::max(b, r / std::max(cores, 1));
  return b;
}

double Profile::roofline() const {
  const double b = roofline_bound_ns();
  return b > 0 ? total_ns / b : 0.0;
}

std::string_view Profile::roofline_engine() const {
  const auto most = std::max_element(roofline_ns.begin(), roofline_ns.end());
  if (link_ns > host_roundtrip_ns && link_ns > *most / std::max(cores, 1)) return "link";
  if (host_roundtrip_ns > *most / std::max(cores, 1)) return "host";
  return engine_name(static_cast<Engine>(most - roofline_ns.begin()));
}

Profile Profile::from_c(const trnProfile_t& p) {
  Profile q;
  q.target = static_cast<Generation>(p.target);
  q.total_ns = p.total_ns;
  for (int e = 0; e < kEngineCount; ++e) {
    q.busy_ns[e] = p.busy_ns[e];
    q.instructions[e] = p.instructions_per_engine[e];
    q.roofline_ns[e] = p.roofline_ns[e];
  }
  q.flops = p.flops;
  q.tensor_flops = p.tensor_flops;
  q.dma_bytes = p.dma_bytes;
  q.total_instructions = p.instructions;
  q.host_roundtrip_ns = p.host_roundtrip_ns;
  q.host_critical_ns = p.host_critical_ns;
  q.host_flops = p.host_flops;
  q.host_bytes = p.host_bytes;
  q.host_steps = p.host_steps;
  q.cores = p.cores > 0 ? p.cores : 1;
  return q;
}

double Profile::utilization(Engine e) const {
  return total_ns > 0 ? busy_ns[static_cast<int>(e)] / (total_ns * cores) : 0.0;
}

double Profile::active_fraction(Engine e) const {
  if (total_ns <= 0) return 0.0;
  if (e == Engine::dma) return dma_active_ns / (total_ns * cores);
  return utilization(e);
}

double Profile::tensor_peak_fraction() const {
  const double peak = hardware_spec(target).tensor_peak_flops();  // flop/s per core
  return total_ns > 0 ? tensor_flops / (peak * 1e-9 * total_ns * cores) : 0.0;
}

trnProfile_t Profile::to_c() const {
  trnProfile_t p{};
  p.target = static_cast<trnTarget_t>(target);
  p.total_ns = total_ns;
  for (int e = 0; e < kEngineCount; ++e) {
    p.busy_ns[e] = busy_ns[e];
    p.instructions_per_engine[e] = instructions[e];
    p.roofline_ns[e] = roofline_ns[e];
  }
  p.tensor_flops = tensor_flops;
  p.cores = cores;
  p.flops = flops;
  p.dma_bytes = dma_bytes;
  p.instructions = total_instructions;
  p.host_roundtrip_ns = host_roundtrip_ns;
  p.host_critical_ns = host_critical_ns;
  p.host_flops = host_flops;
  p.host_bytes = host_bytes;
  p.host_steps = host_steps;
  return p;
}

std::string Profile::summary() const {
  const HardwareSpec& hw = hardware_spec(target);
  char buf[512];
  std::string s;
  std::snprintf(buf, sizeof buf, "%s x%d core(s): %.3f us modeled, %lld instructions, critical path on %s\n",
                std::string(hw.name).c_str(), cores, total_ns * 1e-3, static_cast<long long>(total_instructions),
                std::string(engine_name(critical_engine)).c_str());
  s += buf;
  if (as_written_total_ns > 0 && reorder_total_ns > 0) {
    std::snprintf(buf, sizeof buf, "  schedule: as written %.3f us, compiler-style reorder %.3f us (%s shown)\n",
                  as_written_total_ns * 1e-3, reorder_total_ns * 1e-3,
                  mode == ScheduleMode::reorder ? "reorder" : "as written");
    s += buf;
  }
  std::snprintf(buf, sizeof buf, "  TensorE %.2f TFLOP/s = %.1f%% of peak; DMA %.3f MB at %.1f GB/s\n", tensor_tflops(),
                100.0 * tensor_peak_fraction(), dma_bytes * 1e-6, dma_gbps());
  s += buf;
  for (int e = 0; e < kEngineCount; ++e) {
    std::snprintf(buf, sizeof buf, "  %-8s busy %10.3f us  active %5.1f%%  critical %10.3f us  instr %lld\n",
                  std::string(engine_name(static_cast<Engine>(e))).c_str(), busy_ns[e] * 1e-3,
                  100.0 * active_fraction(static_cast<Engine>(e)), critical_ns[e] * 1e-3,
                  static_cast<long long>(instructions[e]));
    s += buf;
  }
  if (host_steps > 0) {
    std::snprintf(buf, sizeof buf,
                  "  host     round trips %lld: %.3f us (critical %.3f us), %.3f MFLOP fp64, %.3f MB over %s\n",
                  static_cast<long long>(host_steps), host_roundtrip_ns * 1e-3, host_critical_ns * 1e-3,
                  host_flops * 1e-6, host_bytes * 1e-6, std::string(hw.host_link).c_str());
    s += buf;
  }
  if (link_transfers > 0) {
    std::snprintf(buf, sizeof buf,
                  "  link     transfers %lld: %.3f us (critical %.3f us, overlapped %.3f us), %.3f MB over %s / %s\n",
                  static_cast<long long>(link_transfers), link_ns * 1e-3, link_critical_ns * 1e-3,
                  (link_ns - link_critical_ns) * 1e-3, link_bytes * 1e-6,
                  std::string(fabric_spec(target).link).c_str(), std::string(fabric_spec(target).efa).c_str());
    s += buf;
  }
  if (link_waits > 0) {
    std::snprintf(buf, sizeof buf, "  waiting  for peers in %lld transfers: %.3f us (critical %.3f us)\n",
                  static_cast<long long>(link_waits), link_wait_ns * 1e-3, link_wait_critical_ns * 1e-3);
    s += buf;
  }
  if (!dma_queue_busy_ns.empty() && total_ns > 0) {
    s += "  DMA queues busy %:";
    for (double q : dma_queue_busy_ns) {
      std::snprintf(buf, sizeof buf, " %.0f", 100.0 * q / (total_ns * cores));
      s += buf;
    }
    std::snprintf(buf, sizeof buf, " (average %.1f%%)\n", 100.0 * utilization(Engine::dma));
    s += buf;
  }
  return s;
}

namespace {

// Last writer / reader of a piece of memory. Times in ns. Record indices as 32 bits (a trace holds
// fewer than 2^31 records: Scheduler checks): 32 bytes rather than 40, so a two-mode segment is 80
// bytes and the interval tables' walks and moves touch less memory.
struct AccessState {
  double w_end = 0, r_end = 0;
  std::int32_t w_idx = -1, r_idx = -1;
  Engine w_engine = Engine::tensor;
};
static_assert(sizeof(AccessState) == 32);

constexpr std::uint8_t kHostTrack = 0xff;  // eng[] of a host step (not an Engine)
constexpr std::uint8_t kLinkTrack = 0xfe;  // eng[] of a link transfer
constexpr int kQuadrant = 32;       // partitions per dependency quadrant (alignment unit, ARCH2)
constexpr int kQuadrants = 4;

// Exact byte intervals of one memory with their access states: of HBM (host addresses; regions are
// hulls of strided views) and of each partition quadrant of an on-chip memory (SBUF or PSUM; each
// core has one table per quadrant). Segments are disjoint, sorted and never
// empty; they are held inline in chunks of at most 2 kChunk (a sorted array of chunks with each
// chunk's end), so that a split or a gap fill moves at most one chunk's tail, not the whole table's
// (a flat array moved tens of KiB per record on Spotrf), and a lookup is two binary searches.
//
// One table per quadrant rather than one table of four states per segment: a write to some
// partitions cuts only its own quadrants' tables, so a whole-tile query walks each quadrant's own
// cuts (Spotrf's triangular loads, one partition row per DMA at a shifted offset, had cut the shared
// table into as many segments as rows, and every whole-tile query walked all of them for all four
// quadrants). The schedule is unchanged: a query folds each quadrant apart and Scheduler::ready_time
// takes the first largest candidate in (byte, quadrant) order, the order of the shared table's walk.
//
// Each chunk keeps an upper bound of its segments' write and read end times per mode (Bound; raised
// whenever a segment of the chunk is written or inserted, never lowered, so it stays an upper bound
// when segments go). A query given a `skip` test passes over a whole chunk whose bound says no
// segment of it can set a later constraint than the one found so far: an HBM region is the hull of a
// strided view, and a hull over a matrix that thousands of earlier writes cut walked every piece
// (ssyevd 256: 146 segments per HBM query, 22 M in all; most of them long finished).
template <class State>
class IntervalStates {
 public:
  struct Seg {
    std::uint64_t lo, hi;
    State st;
  };
  static constexpr std::size_t kModes = std::tuple_size_v<State>;
  struct Bound {  // per mode: >= every w_end and r_end a segment of the chunk has had since it was made
    std::array<double, kModes> w, r;
  };
  // Where a lookup of lo landed, while the table's segments have not moved since: a query's answer
  // for the update of the same region that follows it (an instruction's accesses are recorded right
  // after its operands are queried), so that the update does not look lo up again.
  struct Finger {
    std::uint64_t lo = 0, version = ~std::uint64_t{0};
    std::size_t c = 0, k = 0;
  };
  // f(state, first byte of [lo, hi) it covers) for every segment overlapping [lo, hi), in byte order.
  template <class F>
  Finger query(std::uint64_t lo, std::uint64_t hi, F&& f) const {
    const Pos p0 = first(lo);
    for (Pos p = p0; valid(p) && at(p).lo < hi; p = next(p)) f(at(p).st, std::max(at(p).lo, lo));
    return Finger{lo, version_, p0.c, p0.k};
  }
  // The same, passing over the rest of a chunk (from where the walk enters it) when skip(its Bound)
  // is true: only for an f that those segments could not change (see the class comment).
  template <class F, class Skip>
  Finger query(std::uint64_t lo, std::uint64_t hi, F&& f, Skip&& skip) const {
    const Pos p0 = first(lo);
    Pos p = p0;
    while (valid(p) && at(p).lo < hi) {
      if ((p.k == 0 || (p.c == p0.c && p.k == p0.k)) && skip(bounds_[p.c])) {
        p = Pos{p.c + 1, 0};
        continue;
      }
      f(at(p).st, std::max(at(p).lo, lo));
      p = next(p);
    }
    return Finger{lo, version_, p0.c, p0.k};
  }
  // A write: [lo, hi) becomes one segment of state `st`. Exact: the write started after every
  // earlier read and write of the range had ended (it waited for them), so from now on its own end
  // dominates any constraint those older states could impose; keeping them only multiplied the
  // segments that later queries walk (a strided row view's hull spans the whole matrix). A write
  // past the table's end (address-increasing tiles) is an append.
  void assign(std::uint64_t lo, std::uint64_t hi, const State& st, const Finger& f) {
    if (hi <= lo) return;
    if (chunks_.empty() || ends_.back() <= lo) {
      insert(Pos{chunks_.empty() ? 0 : chunks_.size() - 1, chunks_.empty() ? 0 : chunks_.back().size()}, Seg{lo, hi, st});
      return;
    }
    Pos p = first(lo, f);
    if (valid(p) && at(p).lo == lo && at(p).hi == hi) {  // the common case: a segment rewritten whole
      at(p).st = st;
      raise(p.c, st);
      return;
    }
    if (at(p).lo >= hi) {  // [lo, hi) lies in a gap
      insert(p, Seg{lo, hi, st});
      return;
    }
    // The run of segments it overlaps, p .. last: p keeps its part before lo (if any), the rest of
    // the run goes, then the written segment and the part of `last` after hi (if any) follow p.
    Pos last = p;
    for (Pos n = next(p); valid(n) && at(n).lo < hi; n = next(n)) last = n;
    const Seg head = at(p), tail = at(last);
    const bool keep_left = head.lo < lo, keep_right = tail.hi > hi;
    chunks_[p.c].set(p.k, keep_left ? Seg{head.lo, lo, head.st} : Seg{lo, hi, st});
    raise(p.c, st);
    set_end(p.c);
    erase_before(next(p), hi);
    Pos written = p;
    if (keep_left) written = insert(Pos{p.c, p.k + 1}, Seg{lo, hi, st});
    if (keep_right) insert(Pos{written.c, written.k + 1}, Seg{hi, tail.hi, tail.st});
  }
  // f(state) for every byte of [lo, hi), splitting at lo and hi and filling gaps with fresh states
  // first, so that f changes exactly [lo, hi).
  template <class F>
  void update(std::uint64_t lo, std::uint64_t hi, F&& f, const Finger& finger) {
    if (hi <= lo) return;
    Pos p = first(lo, finger);
    if (valid(p) && at(p).lo == lo && at(p).hi == hi) {  // the common case
      f(at(p).st);
      raise(p.c, at(p).st);
      return;
    }
    if (valid(p) && at(p).lo < lo) {  // cut at lo: the part before lo keeps its state
      Seg right = at(p);
      right.lo = lo;
      chunks_[p.c].set_hi(p.k, lo);
      p = insert(Pos{p.c, p.k + 1}, right);
    }
    for (std::uint64_t cur = lo; cur < hi; p = next(p)) {
      if (!valid(p) || at(p).lo > cur)  // a gap: a fresh state
        p = insert(p, Seg{cur, valid(p) ? std::min(hi, at(p).lo) : hi, {}});
      if (at(p).hi > hi) {  // cut at hi: the part after hi keeps its state
        Seg right = at(p);
        right.lo = hi;
        chunks_[p.c].set_hi(p.k, hi);
        p = prev(insert(Pos{p.c, p.k + 1}, right));
      }
      f(at(p).st);
      raise(p.c, at(p).st);
      cur = at(p).hi;
    }
  }

 private:
  // A chunk holds kChunk .. 2 kChunk segments once split. 16 rather than 32 (session 27): an insert
  // moves half as much of its chunk (80-byte two-mode segments), for a few more chunks to search;
  // callgrind of the replayed csrgeam2 / IRSXgels / Jacobi traces 1.6-3.1 % fewer host instructions.
  static constexpr std::size_t kChunk = 16;
  struct Pos {
    std::size_t c, k;  // chunk, index in it
  };
  bool valid(Pos p) const { return p.c < chunks_.size(); }
  // Chunk c's bound covers st (a NaN end never sets a constraint, so it need not raise it).
  void raise(std::size_t c, const State& st) {
    Bound& b = bounds_[c];
    for (std::size_t k = 0; k < kModes; ++k) {
      b.w[k] = std::max(b.w[k], st[k].w_end);
      b.r[k] = std::max(b.r[k], st[k].r_end);
    }
  }
  static Bound bound_of(const State& st) {
    Bound b;
    for (std::size_t k = 0; k < kModes; ++k) {
      b.w[k] = st[k].w_end;
      b.r[k] = st[k].r_end;
    }
    return b;
  }
  Seg& at(Pos p) { return chunks_[p.c][p.k]; }
  const Seg& at(Pos p) const { return chunks_[p.c][p.k]; }
  Pos next(Pos p) const { return p.k + 1 < chunks_[p.c].size() ? Pos{p.c, p.k + 1} : Pos{p.c + 1, 0}; }
  Pos prev(Pos p) const { return p.k > 0 ? Pos{p.c, p.k - 1} : Pos{p.c - 1, chunks_[p.c - 1].size() - 1}; }
  void set_end(std::size_t c) { ends_[c] = chunks_[c].back().hi; }
  // The first segment ending after lo (the first that may overlap [lo, ...)); invalid if none.
  // Consecutive lookups mostly land where the last one did or on the segment after it (a query and
  // the update of the same region; a loop over rows): those two are checked first, exactly (the
  // answer is the one segment ending after lo whose predecessor does not), before the binary searches.
  Pos first(std::uint64_t lo) const {
    if (hint_.c < chunks_.size() && hint_.k < chunks_[hint_.c].size())
      for (const Pos h : {hint_, next(hint_)})
        if (h.c < chunks_.size() && hi_at(h) > lo && !(prev_hi(h) > lo)) return hint_ = h;
    // The chunk: the hint's own when lo falls in it (a third of the misses), else a search of the ends.
    const std::size_t hc = hint_.c;
    const auto c = hc < chunks_.size() && ends_[hc] > lo && (hc == 0 || !(ends_[hc - 1] > lo))
                       ? hc
                       : static_cast<std::size_t>(std::upper_bound(ends_.begin(), ends_.end(), lo) - ends_.begin());
    if (c == chunks_.size()) return Pos{c, 0};
    const auto& ch = chunks_[c];
    hint_ = Pos{c, static_cast<std::size_t>(std::upper_bound(ch.his(), ch.his() + ch.size(), lo) - ch.his())};
    return hint_;
  }
  // first(lo), from a finger of lo when the segments have not moved since it was taken.
  Pos first(std::uint64_t lo, const Finger& f) const {
    return f.version == version_ && f.lo == lo ? Pos{f.c, f.k} : first(lo);
  }
  // The end of the segment before p (0 for the first segment).
  std::uint64_t prev_hi(Pos p) const {
    if (p.k > 0) return chunks_[p.c].his()[p.k - 1];
    return p.c > 0 ? ends_[p.c - 1] : 0;
  }
  std::uint64_t hi_at(Pos p) const { return chunks_[p.c].his()[p.k]; }
  // Inserts s before position p (an invalid p: at the end); splits a chunk that grew past 2 kChunk.
  // Returns where s is now.
  Pos insert(Pos p, const Seg& s) {
    ++version_;
    if (chunks_.empty()) {
      chunks_.emplace_back(1, s);
      ends_.push_back(s.hi);
      bounds_.push_back(bound_of(s.st));
      return Pos{0, 0};
    }
    if (!valid(p)) p = Pos{chunks_.size() - 1, chunks_.back().size()};
    auto& ch = chunks_[p.c];
    ch.insert(ch.begin() + p.k, s);
    raise(p.c, s.st);
    set_end(p.c);
    if (ch.size() <= 2 * kChunk) return p;
    Chunk upper(ch.begin() + kChunk, ch.end());
    ch.resize(kChunk);
    set_end(p.c);
    ends_.insert(ends_.begin() + static_cast<std::ptrdiff_t>(p.c + 1), upper.back().hi);
    // Both halves keep the whole's bound.
    bounds_.insert(bounds_.begin() + static_cast<std::ptrdiff_t>(p.c + 1), bounds_[p.c]);
    chunks_.insert(chunks_.begin() + static_cast<std::ptrdiff_t>(p.c + 1), std::move(upper));
    return p.k < kChunk ? p : Pos{p.c + 1, p.k - kChunk};
  }
  // Erases the segments from p on that start before hi; drops chunks that become empty.
  void erase_before(Pos p, std::uint64_t hi) {
    ++version_;
    while (valid(p)) {
      auto& ch = chunks_[p.c];
      std::size_t k1 = p.k;
      while (k1 < ch.size() && ch[k1].lo < hi) ++k1;
      const bool to_end = k1 == ch.size();  // the next chunk may hold more
      ch.erase(ch.begin() + p.k, ch.begin() + k1);
      if (ch.empty()) {
        chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(p.c));
        ends_.erase(ends_.begin() + static_cast<std::ptrdiff_t>(p.c));
        bounds_.erase(bounds_.begin() + static_cast<std::ptrdiff_t>(p.c));
        p = Pos{p.c, 0};
        continue;
      }
      set_end(p.c);
      if (!to_end) return;
      p = Pos{p.c + 1, 0};
    }
  }

  // One chunk's segments, inline (at most 2 kChunk + 1: insert splits a chunk past 2 kChunk) with a
  // packed copy of their ends (the lookup's search reads 8-byte ends, not 96-byte segments), in a
  // block of this thread's BlockPool. As std::vector<Seg>, chunks were reallocated as they grew,
  // copied out on every split and freed with their tables: a malloc every few records.
  class Chunk {
   public:
    Chunk(std::size_t n, const Seg& s) : b_(pool().take()) {
      std::fill_n(b_->s, n, s);
      std::fill_n(b_->hi, n, s.hi);
      b_->n = n;
    }
    Chunk(const Seg* first, const Seg* last) : b_(pool().take()) {
      b_->n = static_cast<std::size_t>(last - first);
      std::copy(first, last, b_->s);
      for (std::size_t k = 0; k < b_->n; ++k) b_->hi[k] = b_->s[k].hi;
    }
    Chunk(Chunk&& o) noexcept : b_(std::exchange(o.b_, nullptr)) {}
    Chunk& operator=(Chunk&& o) noexcept {
      if (this != &o) {
        pool().give(b_);
        b_ = std::exchange(o.b_, nullptr);
      }
      return *this;
    }
    Chunk(const Chunk&) = delete;
    Chunk& operator=(const Chunk&) = delete;
    ~Chunk() { pool().give(b_); }
    std::size_t size() const { return b_->n; }
    bool empty() const { return b_->n == 0; }
    // A segment's end changes through set / set_hi only (his() keeps the packed copy).
    Seg& operator[](std::size_t k) { return b_->s[k]; }
    const Seg& operator[](std::size_t k) const { return b_->s[k]; }
    void set(std::size_t k, const Seg& s) {
      b_->s[k] = s;
      b_->hi[k] = s.hi;
    }
    void set_hi(std::size_t k, std::uint64_t hi) {
      b_->s[k].hi = hi;
      b_->hi[k] = hi;
    }
    const std::uint64_t* his() const { return b_->hi; }
    Seg* begin() { return b_->s; }
    Seg* end() { return b_->s + b_->n; }
    const Seg* begin() const { return b_->s; }
    const Seg* end() const { return b_->s + b_->n; }
    Seg& back() { return b_->s[b_->n - 1]; }
    const Seg& back() const { return b_->s[b_->n - 1]; }
    void insert(Seg* at, const Seg& s) {
      const auto k = static_cast<std::size_t>(at - b_->s);
      std::copy_backward(at, end(), end() + 1);
      std::copy_backward(b_->hi + k, b_->hi + b_->n, b_->hi + b_->n + 1);
      *at = s;
      b_->hi[k] = s.hi;
      ++b_->n;
    }
    void erase(Seg* first, Seg* last) {
      const auto k0 = static_cast<std::size_t>(first - b_->s), k1 = static_cast<std::size_t>(last - b_->s);
      std::copy(last, end(), first);
      std::copy(b_->hi + k1, b_->hi + b_->n, b_->hi + k0);
      b_->n -= k1 - k0;
    }
    void resize(std::size_t n) { b_->n = n; }  // n <= size()

   private:
    struct Block {
      std::size_t n = 0;
      std::uint64_t hi[2 * kChunk + 1];  // hi[k] == s[k].hi
      Seg s[2 * kChunk + 1];
    };
    // This thread's blocks, kept for its later schedules: a chunk gives its block back when it goes,
    // and nothing is unmapped before the thread ends. Blocks come in slabs mapped apart from the
    // malloc heap: slabs from malloc sat among a call's other allocations and changed when glibc
    // trims the heap's top (a warm spotrf 1024 call then grew and trimmed ~8 MiB of heap each
    // time, 9.3 k -> 16 k page faults for 6 calls). Pages are touched as blocks are first used.
    class BlockPool {
     public:
      BlockPool() = default;
      BlockPool(const BlockPool&) = delete;
      BlockPool& operator=(const BlockPool&) = delete;
      ~BlockPool() {
        for (void* slab : slabs_) munmap(slab, kSlabBytes);
      }
      Block* take() {
        if (free_.empty()) {
          void* m = mmap(nullptr, kSlabBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
          if (m == MAP_FAILED) throw std::bad_alloc();
          slabs_.push_back(m);
          auto* slab = static_cast<Block*>(m);
          for (std::size_t k = kSlabBlocks; k-- > 0;) free_.push_back(slab + k);
        }
        Block* b = free_.back();
        free_.pop_back();
        return new (b) Block;
      }
      void give(Block* b) {
        if (b != nullptr) free_.push_back(b);
      }

     private:
      static constexpr std::size_t kSlabBlocks = 256;
      static constexpr std::size_t kSlabBytes = kSlabBlocks * sizeof(Block);
      std::vector<void*> slabs_;
      std::vector<Block*> free_;
    };
    static BlockPool& pool() {
      thread_local BlockPool blocks;
      return blocks;
    }
    Block* b_;
  };
  std::vector<Chunk> chunks_;
  std::vector<std::uint64_t> ends_;  // ends_[c]: the end of chunk c's last segment
  std::vector<Bound> bounds_;        // bounds_[c]: chunk c's upper bound of end times (raise)
  mutable Pos hint_{0, 0};           // where the last lookup landed (first); may be stale
  std::uint64_t version_ = 0;        // counts the changes that move segments (insert, erase_before)
};

// Busy intervals of one resource (a DMA engine, or in reorder mode a compute engine or shared
// port). An activity takes the earliest gap at or after its ready time among the last `window`
// intervals (DMA: transfers from different queues interleave, 16 queues per engine round robin;
// compute engines: a compiler's bounded look-ahead list scheduling).
class Timeline {
 public:
  explicit Timeline(std::size_t window = 64) : window_(std::max<std::size_t>(window, 1)) {}
  // Earliest start >= ready of a d-long activity, and the activity whose interval pushed it (or -1).
  std::pair<double, std::int64_t> find(double ready, double d) const {
    // The common case first (a DMA queue or an engine idle by the time the operands are ready):
    // every interval ended by `ready` (their ends ascend), so the scan below would change nothing.
    if (ends_ascend_ && (busy_.empty() || busy_.back().end <= ready)) return {ready, -1};
    double t = ready;
    std::int64_t blocker = -1;
    std::size_t i = busy_.size() > window_ ? busy_.size() - window_ : 0;
    if (i > 0 && busy_[i - 1].end > t) {
      t = busy_[i - 1].end;
      blocker = busy_[i - 1].idx;
    }
    // The scan below skips every interval that ends by t without changing t. The intervals never
    // overlap, so their ends ascend like their starts: the first one ending after t is a binary
    // search away (checked on every insert; a timeline whose ends do not ascend scans them all).
    if (ends_ascend_)
      i = static_cast<std::size_t>(
          std::upper_bound(busy_.begin() + static_cast<std::ptrdiff_t>(i), busy_.end(), t,
                           [](double v, const Busy& b) { return v < b.end; }) -
          busy_.begin());
    for (; i < busy_.size(); ++i) {
      if (busy_[i].end <= t) continue;
      if (busy_[i].start >= t + d) break;
      t = busy_[i].end;
      blocker = busy_[i].idx;
    }
    return {t, blocker};
  }
  void insert(double t, double d, std::int64_t idx) {
    // A NaN time leaves the starts unordered for upper_bound: the scans take over for good.
    if (std::isnan(t + d)) ends_ascend_ = false;
    if (ends_ascend_ && (busy_.empty() || busy_.back().start <= t)) {  // after every start: upper_bound's end
      busy_.push_back(Busy{t, t + d, idx});
      if (busy_.size() > 1 && !(busy_[busy_.size() - 2].end <= busy_.back().end)) ends_ascend_ = false;
    } else {
      auto it = std::upper_bound(busy_.begin(), busy_.end(), t, [](double v, const Busy& b) { return v < b.start; });
      it = busy_.insert(it, Busy{t, t + d, idx});
      if ((it != busy_.begin() && !(std::prev(it)->end <= it->end)) ||
          (std::next(it) != busy_.end() && !(it->end <= std::next(it)->end)))
        ends_ascend_ = false;
    }
    if (busy_.size() > 4 * window_)
      busy_.erase(busy_.begin(), busy_.begin() + static_cast<std::ptrdiff_t>(2 * window_));
  }
  std::pair<double, std::int64_t> place(double ready, double d, std::int64_t idx) {
    const auto r = find(ready, d);
    insert(r.first, d, idx);
    return r;
  }

 private:
  struct Busy {
    double start, end;
    std::int64_t idx;
  };
  std::size_t window_;
  std::vector<Busy> busy_;
  bool ends_ascend_ = true;  // every interval ends no later than the next one (find's binary search)
};

// The state of one core in each mode a pass schedules: engines, ports and DMA queues per mode, the
// interval tables shared (their cuts depend only on the regions, never on times; each segment holds
// one access state per mode).
template <int M>
struct CoreState {
  struct Mode {
    std::array<double, 4> engine_free{};
    std::array<std::int64_t, 4> engine_last{-1, -1, -1, -1};
    std::vector<Timeline> dma;
    std::vector<Timeline> engine_tl, port_tl;  // reorder mode: per compute engine; SBUF and PSUM ports
    double sbuf_port_free = 0, psum_port_free = 0;
    std::int64_t sbuf_port_last = -1, psum_port_last = -1;
  };
  std::array<Mode, M> mode;
  std::array<IntervalStates<std::array<AccessState, M>>, kQuadrants> sbuf, psum;  // per partition quadrant
};

}  // namespace

namespace {

// The schedules of a trace (schedule_one, schedule_both): instructions placed in trace order, each
// at the earliest time its operands are ready and its engine (DMA queues, shared SBUF / PSUM ports)
// is free, either in program order per engine (as_written) or in the earliest free slot of a
// look-ahead window (reorder). Each step of an instruction's placement is one method, called in
// this order by run().
//
// A pass schedules M = 1 or 2 modes at once: mode 0 is the options' mode, whose profile and
// timeline the pass returns; mode 1 (compare_modes) the other, of which only the total time is
// kept. The modes' schedules are independent (each mode's placements read only that mode's states)
// and each is the one a pass of its own computes; what they share is the work that does not depend
// on times: walking and cutting the interval tables, the instruction's duration, queues and
// counters. The tables' cuts are the same in both modes as long as every write replaces its range in
// both or in neither (it does unless a duration is negative or NaN): when the modes disagree the
// pass stops (run() returns false) and each mode is scheduled alone.
//
// The per-instruction arrays of a schedule, kept by each host thread between schedules: fresh
// arrays of tens of MiB (25 bytes per record) were page-faulted in on every call. Every entry up to
// the trace's length is written before it is read.
struct SchedulerArrays {
  std::vector<double> dur, end;
  std::vector<std::int64_t> pred;
  std::vector<std::uint8_t> eng;
  std::vector<std::vector<std::pair<double, double>>> dma_spans;  // per core; cleared, capacity kept
};
SchedulerArrays& this_thread_scheduler_arrays() {
  thread_local SchedulerArrays arrays;
  return arrays;
}

template <int M>
class Scheduler {
  using States = std::array<AccessState, M>;

 public:
  // mode0_reorder: the mode of mode 0 (mode 1, when M = 2, is the other one).
  Scheduler(const Trace& trace, const CostModelOptions& opt, bool mode0_reorder)
      : trace_(trace), opt_(opt), hw_(hardware_spec(opt.target)), n_(trace.instructions.size()),
        arrays_(this_thread_scheduler_arrays()), dur_(arrays_.dur), end_(arrays_.end), pred_(arrays_.pred),
        eng_(arrays_.eng), dma_spans_(arrays_.dma_spans) {
    for (int m = 0; m < M; ++m) reorder_[m] = m == 0 ? mode0_reorder : !mode0_reorder;
    cores_ = opt.num_cores;
    if (cores_ <= 0) {
      cores_ = 1;
      for (const auto& ins : trace.instructions) cores_ = std::max(cores_, ins.core + 1);
    }
    Profile& prof = sched_.profile;
    prof.target = opt.target;
    prof.cores = cores_;
    if (opt.keep_timeline) sched_.timeline.resize(n_);
    // Cores of one device share HBM: each DMA engine gets at most its share of the chip's bandwidth.
    const int active = std::min(cores_, hw_.cores_per_device);
    queue_bw_hbm_ = std::min(hw_.dma_bytes_per_ns, hw_.hbm_bytes_per_ns / (active * hw_.dma_engines));
    if (n_ > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
      throw std::length_error("schedule_trace: more than 2^31 - 1 records");  // AccessState's indices
    cs_.resize(static_cast<std::size_t>(cores_));
    for (auto& c : cs_)
      for (int m = 0; m < M; ++m) {
        auto& cm = c.mode[static_cast<std::size_t>(m)];
        cm.dma.resize(static_cast<std::size_t>(hw_.dma_engines));
        if (reorder_[m]) {
          cm.engine_tl.assign(4, Timeline(static_cast<std::size_t>(opt.reorder_window)));
          cm.port_tl.assign(2, Timeline(static_cast<std::size_t>(opt.reorder_window)));
        }
      }
    prof.mode = mode0_reorder ? ScheduleMode::reorder : ScheduleMode::as_written;
    dur_.resize(n_);
    end_.resize(n_);
    pred_.assign(n_, -1);
    eng_.resize(n_);
    dma_spans_.resize(static_cast<std::size_t>(cores_));
    for (auto& spans : dma_spans_) spans.clear();
    // One span per DMA record: grown by doubling, a factorization's spans were copied and
    // first-touched again on every schedule.
    if (cores_ == 1) dma_spans_[0].reserve(static_cast<std::size_t>(std::max<std::int64_t>(0, trace.per_engine[static_cast<int>(Engine::dma)])));
    prof.dma_queue_busy_ns.assign(static_cast<std::size_t>(hw_.dma_engines), 0.0);
    for (int p = 0; p < kEngineCount; ++p)
      for (int q = 0; q < kEngineCount; ++q) {
        const double l = result_latency_ns(static_cast<Engine>(p), static_cast<Engine>(q));
        latency_[static_cast<std::size_t>(p)][static_cast<std::size_t>(q)] = l;
        max_latency_to_[static_cast<std::size_t>(q)] = std::max(max_latency_to_[static_cast<std::size_t>(q)], l);
      }
  }

  // False when the modes' table cuts would differ (M = 2 only; see above): nothing is returned then.
  bool run() {
    std::array<double, M> total{};
    std::array<Placement, M> pl;
    for (std::size_t i = 0; i < n_; ++i) {
      const Instruction& ins = trace_.instructions[i];
      CoreState<M>& c = cs_[static_cast<std::size_t>(std::min(ins.core, cores_ - 1))];
      ready_time(c, ins, pl);
      if (ins.opcode == Opcode::host_compute) {
        place_host(ins, i, pl);
      } else if (ins.opcode == Opcode::link_transfer) {
        place_link(ins, i, pl);
      } else if (ins.engine == Engine::dma) {
        place_dma(c, ins, i, pl);
      } else {
        const double d = instruction_ns(ins, hw_, 0);
        const bool sbuf_port = needs_sbuf_port(ins), psum_port = needs_psum_port(ins);
        for (int m = 0; m < M; ++m) {
          auto& cm = c.mode[static_cast<std::size_t>(m)];
          if (reorder_[m])
            place_compute_reordered(cm, ins, i, d, sbuf_port, psum_port, pl[static_cast<std::size_t>(m)]);
          else
            place_compute_in_order(cm, ins, i, d, sbuf_port, psum_port, pl[static_cast<std::size_t>(m)]);
        }
        sched_.profile.busy_ns[static_cast<int>(ins.engine)] += d;
      }
      if (!record_accesses(c, ins, i, pl)) return false;
      record_instruction(ins, i, pl[0]);
      for (int m = 0; m < M; ++m) total[static_cast<std::size_t>(m)] = std::max(total[static_cast<std::size_t>(m)], pl[static_cast<std::size_t>(m)].fin);
    }
    sched_.profile.total_ns = total[0];
    if constexpr (M == 2) other_total_ns_ = total[1];
    sum_dma_active();
    sched_.profile.total_instructions =
        static_cast<std::int64_t>(n_) - sched_.profile.host_steps - sched_.profile.link_transfers;
    walk_critical_path();
    return true;
  }
  Schedule take() { return std::move(sched_); }
  // Mode 1's total time (M = 2).
  double other_total_ns() const { return other_total_ns_; }

 private:
  // Where one instruction goes in one mode: ready (its operands' readiness, set by ready_by), then
  // start / fin and the instruction p that set the start; DMA: the first queue q0 and the queue count nq.
  struct Placement {
    double ready = 0;
    std::int64_t ready_by = -1;
    double start = 0, d = 0, fin = 0;
    std::int64_t p = -1;
    int q0 = -1, nq = 0;
    double wait = 0;  // link transfers: time waited for peers (wait_for_peers)
  };

  double result_latency_ns(Engine producer, Engine consumer) const {
    double lat = 0;
    if (producer == Engine::dma) {
      lat = consumer == Engine::dma ? 0.0 : hw_.dma_fixed_ns;  // semaphore-to-start (DMABW)
    } else if (producer == Engine::tensor) {
      // PSUM accumulation chains on TensorE are pipelined (back-to-back matmuls issue every
      // max(N, 64) cycles); other engines see the result after the matmul's initiation latency.
      lat = consumer == Engine::tensor ? 0.0 : hw_.matmul_min_ii / hw_.tensor_ghz;
    } else {
      lat = hw_.engine_latency_cycles / engine_ghz(producer, hw_);
    }
    if (producer != consumer && producer != Engine::dma && consumer != Engine::dma) lat += hw_.semaphore_ns;
    return lat;
  }

  // The partition quadrants [q0, q1] an on-chip region's partitions fall in.
  static std::pair<int, int> quadrants_of(const Region& r) {
    return {r.p0 / kQuadrant, std::min(kQuadrants - 1, (r.p0 + std::max(r.np, 1) - 1) / kQuadrant)};
  }

  // The latest constraint so far (ready, set by `by`) and the first byte x of the state it was
  // found in (on-chip regions).
  struct Candidate {
    double ready = 0;
    std::int64_t by = -1;
    std::uint64_t x = 0;
  };
  // One access state's constraints on an instruction of engine `consumer` accessing region `reg`:
  // after the last write (plus the producer's result latency when it reads), and for a write after
  // the last read. Strictly later only: the first of equal constraints stays.
  void consider(const AccessState& st, const Region& reg, Engine consumer, std::uint64_t x, Candidate& c) const {
    if (st.w_idx >= 0) {
      const double t = st.w_end + (reg.write ? 0.0 : latency_[static_cast<std::size_t>(st.w_engine)][static_cast<std::size_t>(consumer)]);
      if (t > c.ready) c = Candidate{t, st.w_idx, x};
    }
    if (reg.write && st.r_idx >= 0 && st.r_end > c.ready) c = Candidate{st.r_end, st.r_idx, x};
  }

  // The earliest start its operands allow, per mode: after the last write of what it reads (plus
  // the producer's result latency) and, for a write, after the last read and write of its region.
  // The constraint that sets it is the first largest one in the order of the regions, then bytes,
  // then quadrants (then write before read within a state): each quadrant's table is folded apart
  // and the quadrants' winners compared by (byte, quadrant), which is that order.
  void ready_time(CoreState<M>& c, const Instruction& ins, std::array<Placement, M>& pl) {
    pl.fill(Placement{});
    for (std::uint8_t r = 0; r < ins.nregions; ++r) {
      const Region& reg = ins.regions[r];
      if (reg.hi <= reg.lo) continue;  // a region of no bytes touches nothing
      std::array<Candidate, M> before, best;
      for (int m = 0; m < M; ++m) {
        const auto k = static_cast<std::size_t>(m);
        before[k] = best[k] = Candidate{pl[k].ready, pl[k].ready_by, 0};
      }
      auto& fingers = fingers_[r];
      if (reg.mem == MemSpace::hbm) {
        // A chunk none of whose ends (plus the largest result latency to this consumer, for a read)
        // is later than every mode's constraint so far cannot change it (consider: strictly later
        // only; fl(a + b) is monotone in a and b).
        const double lat = reg.write ? 0.0 : max_latency_to_[static_cast<std::size_t>(ins.engine)];
        fingers[0] = hbm_.query(
            reg.lo, reg.hi,
            [&](const States& st, std::uint64_t) {
              for (std::size_t k = 0; k < M; ++k) consider(st[k], reg, ins.engine, 0, best[k]);
            },
            [&](const typename IntervalStates<States>::Bound& b) {
              for (std::size_t k = 0; k < M; ++k)
                if (!(b.w[k] + lat <= best[k].ready) || (reg.write && !(b.r[k] <= best[k].ready))) return false;
              return true;
            });
      } else {
        auto& tables = reg.mem == MemSpace::sbuf ? c.sbuf : c.psum;
        const auto [q0, q1] = quadrants_of(reg);
        for (int q = q0; q <= q1; ++q) {
          std::array<Candidate, M> got = before;
          fingers[static_cast<std::size_t>(q)] = tables[static_cast<std::size_t>(q)].query(reg.lo, reg.hi, [&](const States& st, std::uint64_t x) {
            for (std::size_t k = 0; k < M; ++k) consider(st[k], reg, ins.engine, x, got[k]);
          });
          for (std::size_t k = 0; k < M; ++k)
            if (got[k].ready > before[k].ready &&
                (got[k].ready > best[k].ready || (got[k].ready == best[k].ready && got[k].x < best[k].x)))
              best[k] = got[k];
        }
      }
      for (std::size_t k = 0; k < M; ++k) {
        pl[k].ready = best[k].ready;
        pl[k].ready_by = best[k].by;
      }
    }
    for (auto& p : pl) {
      p.start = p.ready;
      p.p = p.ready_by;
    }
  }

  // One in-order resource outside the engines and DMA queues (the host thread, the device's link):
  // instruction i of duration pl.d starts when its operands allow and the resource is free.
  struct SerialResource {
    double free = 0;
    std::int64_t last = -1;
  };
  static void place_serial(SerialResource& r, std::size_t i, Placement& pl) {
    if (r.free > pl.start) {
      pl.start = r.free;
      pl.p = r.last;
    }
    pl.fin = pl.start + pl.d;
    r.free = pl.fin;
    r.last = static_cast<std::int64_t>(i);
  }

  // A host round trip (docs/cost-model.md section 7): one host thread runs the host steps in program
  // order, outside the engines and DMA queues; its region dependencies were resolved by ready_time.
  void place_host(const Instruction& ins, std::size_t i, std::array<Placement, M>& pl) {
    Profile& prof = sched_.profile;
    const double d = host_step_ns(ins, hw_, opt_.host);
    for (std::size_t k = 0; k < M; ++k) {
      pl[k].d = d;
      place_serial(host_[k], i, pl[k]);
    }
    ++prof.host_steps;
    prof.host_roundtrip_ns += d;
    prof.host_flops += ins.declared_cycles;
    prof.host_bytes += static_cast<double>(ins.bytes_read + ins.bytes_written);
  }

  // A message between devices (link_step.hpp): the device's link resource runs them in program
  // order, beside the engines; its time is the record's own (the fabric model's). With a peer
  // exchange (M = 1 only), a tagged record starts no earlier than its peers allow (wait_for_peers).
  void place_link(const Instruction& ins, std::size_t i, std::array<Placement, M>& pl) {
    Profile& prof = sched_.profile;
    for (std::size_t k = 0; k < M; ++k) {
      pl[k].d = ins.declared_cycles;
      place_serial(link_[k], i, pl[k]);
    }
    if constexpr (M == 1) wait_for_peers(ins, i, pl[0]);
    ++prof.link_transfers;
    prof.link_ns += pl[0].d;
    prof.link_bytes += static_cast<double>(ins.bytes_read + ins.bytes_written);
  }

  // docs/scale-out.md section 12: pl.start is this device's arrival at the collective (operands ready,
  // link free); the record starts at max(arrival, the peers' answer) = the root's arrival for a
  // broadcast's receiver, the group's latest arrival for a symmetric collective. The gap is waiting:
  // counted apart (Profile::link_wait_*), the link resource busy through it (the rank is inside
  // the collective call).
  void wait_for_peers(const Instruction& ins, std::size_t i, Placement& pl) {
    if (opt_.link_peers == nullptr) return;
    const LinkPeers peers = link_peers_of(ins);
    if (peers.group < 0) return;
    const double not_before = opt_.link_peers->not_before(peers, pl.start);
    if (!(not_before > pl.start)) return;
    pl.wait = not_before - pl.start;
    pl.start = not_before;
    pl.fin = not_before + pl.d;
    link_[0].free = pl.fin;
    waits_.emplace_back(static_cast<std::int64_t>(i), pl.wait);
    Profile& prof = sched_.profile;
    ++prof.link_waits;
    prof.link_wait_ns += pl.wait;
  }

  // A DMA on its queues: partitions 8q .. 8q+7 are served by DMA engine q (DMAOV); each engine
  // moves its share.
  void place_dma(CoreState<M>& c, const Instruction& ins, std::size_t i, std::array<Placement, M>& pls) {
    Profile& prof = sched_.profile;
    const int nq = dma_queues_for(ins, hw_);
    const double d = instruction_ns(ins, hw_, touches(ins, MemSpace::hbm) ? queue_bw_hbm_ : hw_.dma_bytes_per_ns);
    const int p0 = std::max(0, ins.regions[0].mem == MemSpace::hbm ? ins.regions[1].p0 : ins.regions[0].p0);
    const int q0 = std::min(hw_.dma_engines - nq, p0 / hw_.dma_partitions_per_engine);
    for (std::size_t m = 0; m < M; ++m) {
      Placement& pl = pls[m];
      pl.nq = nq;
      pl.d = d;
      pl.q0 = q0;
      double first_start = std::numeric_limits<double>::infinity();
      pl.fin = 0;
      auto& dma = c.mode[m].dma;
      for (int k = 0; k < nq; ++k) {
        const auto [s0, blocker] = dma[static_cast<std::size_t>(q0 + k)].place(pl.ready, d, static_cast<std::int64_t>(i));
        first_start = std::min(first_start, s0);
        if (s0 + d > pl.fin) {
          pl.fin = s0 + d;
          if (s0 > pl.ready) pl.p = blocker;  // the latest part was delayed by another transfer on its engine
        }
      }
      pl.start = first_start;
    }
    dma_spans_[static_cast<std::size_t>(std::min(ins.core, cores_ - 1))].emplace_back(pls[0].start, pls[0].fin);
    for (int k = 0; k < nq; ++k) prof.dma_queue_busy_ns[static_cast<std::size_t>(q0 + k)] += d;
    prof.busy_ns[static_cast<int>(Engine::dma)] += d * nq / hw_.dma_engines;
    prof.dma_bytes += static_cast<double>(std::max(ins.bytes_read, ins.bytes_written));
  }

  // Whether a compute instruction holds the SBUF port VectorE shares with GpSimdE, or the PSUM
  // port VectorE shares with ScalarE.
  bool needs_sbuf_port(const Instruction& ins) const {
    return hw_.shared_sbuf_port_vector_gpsimd && (ins.engine == Engine::vector || ins.engine == Engine::gpsimd) &&
           touches(ins, MemSpace::sbuf);
  }
  bool needs_psum_port(const Instruction& ins) const {
    return hw_.shared_psum_port_vector_scalar && (ins.engine == Engine::vector || ins.engine == Engine::scalar) &&
           touches(ins, MemSpace::psum);
  }

  // List scheduling: the earliest slot >= ready that is free on the engine (and the shared ports
  // it needs) among the last reorder_window instructions there.
  static void place_compute_reordered(typename CoreState<M>::Mode& c, const Instruction& ins, std::size_t i, double d,
                                      bool sbuf_port, bool psum_port, Placement& pl) {
    const int e = static_cast<int>(ins.engine);
    pl.d = d;
    Timeline* tls[3] = {&c.engine_tl[static_cast<std::size_t>(e)], sbuf_port ? &c.port_tl[0] : nullptr,
                        psum_port ? &c.port_tl[1] : nullptr};
    for (bool moved = true; moved;) {
      moved = false;
      for (Timeline* tl : tls) {
        if (!tl) continue;
        const auto [t, blocker] = tl->find(pl.start, d);
        if (t > pl.start) {
          pl.start = t;
          pl.p = blocker;
          moved = true;
        }
      }
    }
    for (Timeline* tl : tls)
      if (tl) tl->insert(pl.start, d, static_cast<std::int64_t>(i));
    pl.fin = pl.start + d;
  }

  // Program order per engine: after the engine's (and the shared ports') previous instruction.
  void place_compute_in_order(typename CoreState<M>::Mode& c, const Instruction& ins, std::size_t i, double d,
                              bool sbuf_port, bool psum_port, Placement& pl) {
    const int e = static_cast<int>(ins.engine);
    pl.d = d;
    if (!(c.engine_free[e] <= pl.start) || (sbuf_port && !(c.sbuf_port_free <= pl.start)) ||
        (psum_port && !(c.psum_port_free <= pl.start)) || !(d >= 0))
      waited_in_order_ = true;
    if (c.engine_free[e] > pl.start) {
      pl.start = c.engine_free[e];
      pl.p = c.engine_last[e];
    }
    if (sbuf_port && c.sbuf_port_free > pl.start) {
      pl.start = c.sbuf_port_free;
      pl.p = c.sbuf_port_last;
    }
    if (psum_port && c.psum_port_free > pl.start) {
      pl.start = c.psum_port_free;
      pl.p = c.psum_port_last;
    }
    pl.fin = pl.start + d;
    c.engine_free[e] = pl.fin;
    c.engine_last[e] = static_cast<std::int64_t>(i);
    if (sbuf_port) {
      c.sbuf_port_free = pl.fin;
      c.sbuf_port_last = static_cast<std::int64_t>(i);
    }
    if (psum_port) {
      c.psum_port_free = pl.fin;
      c.psum_port_last = static_cast<std::int64_t>(i);
    }
  }

  // The instruction's reads and writes as the access states later instructions wait for. False
  // when the modes disagree on whether a write replaces its range (M = 2; see the class comment).
  bool record_accesses(CoreState<M>& c, const Instruction& ins, std::size_t i, const std::array<Placement, M>& pl) {
    const Engine E = ins.engine;
    const auto idx = static_cast<std::int32_t>(i);
    for (std::uint8_t r = 0; r < ins.nregions; ++r) {
      const Region& reg = ins.regions[r];
      if (reg.hi <= reg.lo) continue;  // a region of no bytes touches nothing
      // A write that waited for every earlier access of its region replaces them (IntervalStates::assign).
      const bool replace = reg.write && pl[0].fin >= pl[0].start;
      for (std::size_t k = 1; k < M; ++k)
        if ((reg.write && pl[k].fin >= pl[k].start) != replace) return false;
      States written;
      for (std::size_t k = 0; k < M; ++k) {
        written[k].w_end = pl[k].fin;
        written[k].w_idx = idx;
        written[k].w_engine = E;
      }
      const auto apply = [&](States& st) {
        for (std::size_t k = 0; k < M; ++k) {
          AccessState& s = st[k];
          if (reg.write) {
            s.w_end = pl[k].fin;
            s.w_idx = idx;
            s.w_engine = E;
          } else if (pl[k].fin >= s.r_end) {
            s.r_end = pl[k].fin;
            s.r_idx = idx;
          }
        }
      };
      const auto& fingers = fingers_[r];  // where ready_time's queries landed
      if (reg.mem == MemSpace::hbm) {
        if (replace)
          hbm_.assign(reg.lo, reg.hi, written, fingers[0]);
        else
          hbm_.update(reg.lo, reg.hi, apply, fingers[0]);
        continue;
      }
      auto& tables = reg.mem == MemSpace::sbuf ? c.sbuf : c.psum;
      const auto [q0, q1] = quadrants_of(reg);
      for (int q = q0; q <= q1; ++q) {
        auto& t = tables[static_cast<std::size_t>(q)];
        const auto& f = fingers[static_cast<std::size_t>(q)];
        if (replace)
          t.assign(reg.lo, reg.hi, written, f);
        else
          t.update(reg.lo, reg.hi, apply, f);
      }
    }
    return true;
  }

  // Counters, the critical-path links and the timeline entry of instruction i (mode 0).
  void record_instruction(const Instruction& ins, std::size_t i, const Placement& pl) {
    Profile& prof = sched_.profile;
    dur_[i] = pl.fin - pl.start;
    end_[i] = pl.fin;
    pred_[i] = pl.p;
    const bool link = ins.opcode == Opcode::link_transfer;
    const bool host = ins.opcode == Opcode::host_compute || link;
    eng_[i] = link ? kLinkTrack : host ? kHostTrack : static_cast<std::uint8_t>(ins.engine);
    if (!host) ++prof.instructions[static_cast<int>(ins.engine)];
    const double fl = instruction_flops(ins);
    prof.flops += fl;
    if (ins.opcode == Opcode::nc_matmul) prof.tensor_flops += fl;
    if (!host) prof.roofline_ns[static_cast<int>(ins.engine)] += instruction_roofline_ns(ins, hw_, queue_bw_hbm_);
    if (opt_.keep_timeline) {
      auto& t = sched_.timeline[i];
      t.start_ns = pl.start;
      t.end_ns = pl.fin;
      t.queue = pl.q0;
      t.queues = pl.nq;
      t.depends_on = pl.ready_by >= 0 && pl.ready >= pl.start ? pl.ready_by : -1;
      t.wait_ns = pl.wait;
    }
  }

  // "DMA active": the union of each core's DMA transfer intervals.
  void sum_dma_active() {
    for (auto& spans : dma_spans_) {
      if (!std::is_sorted(spans.begin(), spans.end())) std::sort(spans.begin(), spans.end());  // mostly in order already
      double covered_to = -1;
      for (const auto& [a, b] : spans) {
        const double from = std::max(a, covered_to);
        if (b > from) sched_.profile.dma_active_ns += b - from;
        covered_to = std::max(covered_to, b);
      }
    }
  }

  // The time link record i waited for its peers (waits_ is in trace order).
  double wait_of(std::int64_t i) const {
    const auto it = std::lower_bound(waits_.begin(), waits_.end(), i,
                                     [](const std::pair<std::int64_t, double>& w, std::int64_t k) { return w.first < k; });
    return it != waits_.end() && it->first == i ? it->second : 0.0;
  }

  // Critical path: walk back from the instruction that finishes last through whatever set each
  // start (a dependency, the engine's previous instruction, or a shared port).
  void walk_critical_path() {
    if (n_ == 0) return;
    Profile& prof = sched_.profile;
    std::int64_t i = static_cast<std::int64_t>(std::max_element(end_.begin(), end_.begin() + static_cast<std::ptrdiff_t>(n_)) - end_.begin());
    while (i >= 0) {
      const std::uint8_t e = eng_[static_cast<std::size_t>(i)];
      (e == kLinkTrack   ? prof.link_critical_ns
       : e == kHostTrack ? prof.host_critical_ns
                         : prof.critical_ns[e]) += dur_[static_cast<std::size_t>(i)];
      if (e == kLinkTrack) prof.link_wait_critical_ns += wait_of(i);
      const std::int64_t nxt = pred_[static_cast<std::size_t>(i)];
      if (nxt >= i) break;  // defensive: predecessors always precede
      i = nxt;
    }
    prof.critical_engine = static_cast<Engine>(
        std::max_element(prof.critical_ns.begin(), prof.critical_ns.end()) - prof.critical_ns.begin());
  }

 public:
  // Whether some compute instruction of an as_written schedule started later than its operands
  // allowed (its engine or a shared port was still busy, or its duration is not a number >= 0).
  // When none did, the reorder schedule is the same schedule (schedule_uncached). M = 1.
  bool waited_in_order() const { return waited_in_order_; }

 private:
  bool waited_in_order_ = false;
  const Trace& trace_;
  const CostModelOptions& opt_;
  std::array<bool, M> reorder_{};
  const HardwareSpec& hw_;
  const std::size_t n_;
  int cores_ = 1;
  double queue_bw_hbm_ = 0;
  double other_total_ns_ = 0;
  std::array<std::array<double, kEngineCount>, kEngineCount> latency_{};  // result_latency_ns(producer, consumer)
  std::array<double, kEngineCount> max_latency_to_{};  // per consumer: the largest latency_[.][consumer]
  Schedule sched_;
  std::vector<CoreState<M>> cs_;
  IntervalStates<States> hbm_;
  // Per region of the instruction being placed (per quadrant on chip; HBM: [0]): where ready_time's
  // queries landed, for record_accesses.
  std::array<std::array<typename IntervalStates<States>::Finger, kQuadrants>, 4> fingers_{};
  SchedulerArrays& arrays_;  // this thread's; sized to n_ (one Scheduler at a time per thread)
  std::vector<double>& dur_;
  std::vector<double>& end_;
  std::vector<std::int64_t>& pred_;
  std::vector<std::uint8_t>& eng_;
  std::vector<std::vector<std::pair<double, double>>>& dma_spans_;  // DMA transfer intervals per core (mode 0; arrays_')
  std::array<SerialResource, M> host_;  // one host thread runs the host steps in program order
  std::array<SerialResource, M> link_;  // one link resource per device runs the link transfers in program order
  std::vector<std::pair<std::int64_t, double>> waits_;  // (link record, time it waited for peers), in order
};

Schedule schedule_one(const Trace& trace, const CostModelOptions& opt, bool reorder, bool* waited_in_order = nullptr) {
  Scheduler<1> sched(trace, opt, reorder);
  sched.run();
  if (waited_in_order != nullptr) *waited_in_order = sched.waited_in_order();
  return sched.take();
}

// Both modes in one pass (compare_modes without a peer exchange): the schedule of opt.mode with the
// other mode's total, or nothing when the modes' table cuts would differ.
std::optional<Schedule> schedule_both(const Trace& trace, const CostModelOptions& opt) {
  const bool reorder = opt.mode == ScheduleMode::reorder;
  Scheduler<2> sched(trace, opt, reorder);
  if (!sched.run()) return std::nullopt;
  Schedule s = sched.take();
  (reorder ? s.profile.as_written_total_ns : s.profile.reorder_total_ns) = sched.other_total_ns();
  (reorder ? s.profile.reorder_total_ns : s.profile.as_written_total_ns) = s.profile.total_ns;
  return s;
}

}  // namespace

// ---- The schedule memo (docs/cost-model.md "Per-call cost") ------------------------------------
// Small calls repeat: a loop of Sdot(n = 4) models the same dozen instructions on every call, and
// the traces differ only in the caller's HBM addresses. The schedule reads those addresses only by
// comparing region endpoints with one another (which intervals overlap, where HbmIntervals splits),
// never by arithmetic, so the trace with every HBM endpoint replaced by its rank among the trace's
// HBM endpoints schedules exactly as the trace does (a strictly increasing map keeps every
// comparison). A per-thread memo keyed by that canonical trace and the options returns the profile
// stored under an equal key: the same profile, bit for bit, without scheduling again. Never when a
// timeline is asked for.
//
// Short traces (at most kMemoMaxInstructions records: there the schedule's fixed cost is most of a
// call) are keyed on every call and also compared with the last trace verbatim (repeats_last).
// Long traces (up to kLongMemoMaxInstructions: a Krylov solve's level-set SpSV of ~1 500 records
// four times an iteration, a Jacobi sweep's or an FFT plan's launch run again) are keyed only from
// their second sighting: a first sighting costs one pass over the records for a fingerprint (no
// key: a one-shot factorization's trace never pays for building, sorting and storing one), and the
// keys kept for long traces are bounded in words per thread (kLongMemoWords), the oldest dropped
// first. The comparison is the short traces' one: the full canonical key, word for word.
namespace {

// 256: the C API's small solves repeat too (Strsv n = 50 is 151 instructions, Ctrsv n = 32 169; at 128
// they were scheduled afresh every call: two thirds of a C API Strsv n = 50, callgrind).
constexpr std::size_t kMemoMaxInstructions = 256;
constexpr std::size_t kMemoEntries = 32;
// Long traces: at most 16 Ki records (a key of at most 25 words a record: <= 3.2 MiB, stored when it
// is at most half the budget), at most 8 MiB of keys kept per thread, at most kLongMemoEntries of them; fingerprints of kLongSeen first sightings.
constexpr std::size_t kLongMemoMaxInstructions = std::size_t{1} << 14;
constexpr std::size_t kLongMemoWords = std::size_t{1} << 20;
constexpr std::size_t kLongMemoEntries = 16;
constexpr std::size_t kLongSeen = 16;

// Every field of Instruction and Region enters the key: a new field must be added to memo_key.
static_assert(sizeof(Region) == 32 && sizeof(Instruction) == 208, "Instruction changed: update memo_key");
static_assert(sizeof(HostCostOptions) == 32, "HostCostOptions changed: update memo_key");

std::uint64_t bits_of(double d) {
  std::uint64_t u = 0;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

// The options' part of a key.
constexpr std::size_t kHeadWords = 5;
using HeadWords = std::array<std::uint64_t, kHeadWords>;
HeadWords head_words(const CostModelOptions& opt) {
  const auto u32 = [](std::int32_t v) { return static_cast<std::uint64_t>(static_cast<std::uint32_t>(v)); };
  return {static_cast<std::uint64_t>(opt.target) | std::uint64_t{static_cast<std::uint8_t>(opt.mode)} << 8 |
              std::uint64_t{opt.compare_modes} << 16 | std::uint64_t{opt.host.enabled} << 17 | u32(opt.num_cores) << 32,
          u32(opt.reorder_window), bits_of(opt.host.link_bytes_per_ns), bits_of(opt.host.fp64_flops_per_ns),
          bits_of(opt.host.roundtrip_ns)};
}

// The canonical key of (trace, options); false when the trace is longer than max_records. The key
// is sized once and written through a pointer (a push_back per word was a third of a memo hit).
bool memo_key(const Trace& trace, const CostModelOptions& opt, std::vector<std::uint64_t>& key,
              std::vector<std::uint64_t>& ends, std::size_t max_records = kMemoMaxInstructions) {
  const auto& ins = trace.instructions;
  if (ins.size() > max_records || opt.keep_timeline) return false;
  constexpr std::size_t kInstructionWords = 9, kRegionWords = 4;
  std::size_t words = kHeadWords;
  ends.clear();
  for (const Instruction& i : ins) {
    words += kInstructionWords + kRegionWords * i.nregions;
    for (std::uint8_t r = 0; r < i.nregions; ++r)
      if (i.regions[r].mem == MemSpace::hbm) {
        ends.push_back(i.regions[r].lo);
        ends.push_back(i.regions[r].hi);
      }
  }
  std::sort(ends.begin(), ends.end());
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  const auto rank = [&](std::uint64_t a) {
    return static_cast<std::uint64_t>(std::lower_bound(ends.begin(), ends.end(), a) - ends.begin());
  };
  const auto u32 = [](std::int32_t v) { return static_cast<std::uint64_t>(static_cast<std::uint32_t>(v)); };
  key.resize(words);
  std::uint64_t* k = key.data();
  const HeadWords head = head_words(opt);
  k = std::copy(head.begin(), head.end(), k);
  for (const Instruction& i : ins) {
    *k++ = i.index;
    *k++ = u32(i.program) | u32(i.core) << 32;
    *k++ = std::uint64_t{static_cast<std::uint8_t>(i.engine)} | std::uint64_t{static_cast<std::uint8_t>(i.opcode)} << 8 |
           std::uint64_t{static_cast<std::uint8_t>(i.in_dtype)} << 16 |
           std::uint64_t{static_cast<std::uint8_t>(i.out_dtype)} << 24 | std::uint64_t{i.subop} << 32 |
           std::uint64_t{i.nregions} << 40 | std::uint64_t{i.accumulate} << 48 | std::uint64_t{i.double_row} << 49 |
           std::uint64_t{i.contiguous} << 50 | std::uint64_t{i.regions_dropped} << 51;
    *k++ = u32(i.partitions) | u32(i.matmul_m) << 32;
    *k++ = u32(i.inputs) | std::uint64_t{i.host_label} << 32;
    *k++ = static_cast<std::uint64_t>(i.free_elems);
    *k++ = static_cast<std::uint64_t>(i.bytes_read);
    *k++ = static_cast<std::uint64_t>(i.bytes_written);
    *k++ = bits_of(i.declared_cycles);
    for (std::uint8_t r = 0; r < i.nregions; ++r) {
      const Region& g = i.regions[r];
      const bool hbm = g.mem == MemSpace::hbm;
      *k++ = std::uint64_t{static_cast<std::uint8_t>(g.mem)} | std::uint64_t{g.write} << 8 | u32(g.p0) << 32;
      *k++ = u32(g.np);
      *k++ = hbm ? rank(g.lo) : g.lo;
      *k++ = hbm ? rank(g.hi) : g.hi;
    }
  }
  return true;
}

// The hash of a key: its length and at most its first and last kHashedWords words, in four
// independent multiply chains joined at the end (one chain over every word was a serial multiply
// per word, most of a memo hit's time). Any function of the key would do: entries are compared in
// full, and keys that differ only in the middle cost one more comparison each.
std::uint64_t hash_key(const std::vector<std::uint64_t>& key) {
  constexpr std::size_t kHashedWords = 32;
  constexpr std::uint64_t kMul = 0xFF51AFD7ED558CCDull;
  std::uint64_t lane[4] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull, 0x27D4EB2F165667C5ull};
  const std::size_t n = key.size();
  const auto mix = [&](const std::uint64_t* w, std::size_t count) {
    for (std::size_t b = 0; b < count / 4; ++b, w += 4)
      for (std::size_t l = 0; l < 4; ++l) lane[l] = std::rotl((lane[l] ^ w[l]) * kMul, 31);
    for (std::size_t r = 0; r < count % 4; ++r) lane[0] = std::rotl((lane[0] ^ w[r]) * kMul, 31);
  };
  if (n <= 2 * kHashedWords) {
    mix(key.data(), n);
  } else {
    mix(key.data(), kHashedWords);
    mix(key.data() + (n - kHashedWords), kHashedWords);
  }
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  for (std::uint64_t w : lane) {
    h ^= w + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= kMul;
  }
  return h ^ (h >> 29);
}

// A long trace's fingerprint: the options, the length and every record's fields but its regions'
// addresses (what a renaming keeps), in four multiply chains. Equal traces under memo_key's renaming
// have equal fingerprints; unequal ones may too (the key decides). One pass, no allocation.
std::uint64_t long_fingerprint(const Trace& trace, const CostModelOptions& opt) {
  constexpr std::uint64_t kMul = 0xFF51AFD7ED558CCDull;
  std::uint64_t lane[4] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull, 0x27D4EB2F165667C5ull};
  const auto mix = [&](std::size_t l, std::uint64_t w) { lane[l] = std::rotl((lane[l] ^ w) * kMul, 31); };
  const HeadWords head = head_words(opt);
  for (std::size_t k = 0; k < kHeadWords; ++k) mix(k % 4, head[k]);
  const auto u32 = [](std::int32_t v) { return static_cast<std::uint64_t>(static_cast<std::uint32_t>(v)); };
  for (const Instruction& i : trace.instructions) {
    mix(0, std::uint64_t{static_cast<std::uint8_t>(i.engine)} | std::uint64_t{static_cast<std::uint8_t>(i.opcode)} << 8 |
               std::uint64_t{i.subop} << 16 | std::uint64_t{i.nregions} << 24 | u32(i.partitions) << 32);
    mix(1, static_cast<std::uint64_t>(i.free_elems) ^ (u32(i.matmul_m) << 40));
    mix(2, static_cast<std::uint64_t>(i.bytes_read) ^ static_cast<std::uint64_t>(i.bytes_written) << 21);
    mix(3, bits_of(i.declared_cycles) ^ i.index);
  }
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ trace.instructions.size();
  for (std::uint64_t w : lane) {
    h ^= w + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= kMul;
  }
  return h ^ (h >> 29);
}

// Which bytes of an Instruction are fields (0xFF) and which are padding (0), as 64-bit words.
// Region has 2 + 4 bytes of padding and Instruction 1 + 7 of its own; a record copied out of a
// temporary carries whatever those bytes held (uninitialised memory: valgrind flagged the bytewise
// compare below). Comparing the field bytes only is exact whatever the padding holds.
constexpr std::size_t kRecordWords = sizeof(Instruction) / 8;
static_assert(sizeof(Instruction) % 8 == 0 && alignof(Instruction) == 8);
constexpr std::array<std::uint64_t, kRecordWords> record_field_mask() {
  std::array<unsigned char, sizeof(Instruction)> b{};
  const auto mark = [&](std::size_t offset, std::size_t bytes) {
    for (std::size_t i = 0; i < bytes; ++i) b[offset + i] = 0xFF;
  };
#define TRN_MARK(f) mark(offsetof(Instruction, f), sizeof(Instruction::f))
  TRN_MARK(index); TRN_MARK(program); TRN_MARK(core); TRN_MARK(engine); TRN_MARK(opcode); TRN_MARK(in_dtype);
  TRN_MARK(out_dtype); TRN_MARK(partitions); TRN_MARK(free_elems); TRN_MARK(matmul_m); TRN_MARK(inputs);
  TRN_MARK(bytes_read); TRN_MARK(bytes_written); TRN_MARK(declared_cycles); TRN_MARK(accumulate);
  TRN_MARK(double_row); TRN_MARK(contiguous); TRN_MARK(subop); TRN_MARK(nregions); TRN_MARK(host_label);
  TRN_MARK(regions_dropped);
#undef TRN_MARK
  for (std::size_t r = 0; r < std::tuple_size_v<decltype(Instruction::regions)>; ++r) {
    const std::size_t base = offsetof(Instruction, regions) + r * sizeof(Region);
#define TRN_MARK(f) mark(base + offsetof(Region, f), sizeof(Region::f))
    TRN_MARK(mem); TRN_MARK(write); TRN_MARK(p0); TRN_MARK(np); TRN_MARK(lo); TRN_MARK(hi);
#undef TRN_MARK
  }
  std::array<std::uint64_t, kRecordWords> w{};
  for (std::size_t i = 0; i < sizeof(Instruction); ++i) w[i / 8] |= std::uint64_t{b[i]} << (8 * (i % 8));
  return w;
}
constexpr std::array<std::uint64_t, kRecordWords> kRecordFieldMask = record_field_mask();
constexpr int field_bytes() {
  int n = 0;
  for (std::uint64_t w : kRecordFieldMask) n += std::popcount(w) / 8;
  return n;
}
// 200 bytes of fields in 208 (Region: 26 in 32): a field added without updating the mask fails here.
static_assert(field_bytes() == 208 - 8 - 4 * 6, "Instruction or Region changed: update record_field_mask");

// The fields but the regions' addresses (lo, hi: whole words), for repeats_last_renamed.
constexpr std::array<std::uint64_t, kRecordWords> record_mask_without_addresses() {
  std::array<std::uint64_t, kRecordWords> w = kRecordFieldMask;
  for (std::size_t r = 0; r < std::tuple_size_v<decltype(Instruction::regions)>; ++r) {
    const std::size_t base = offsetof(Instruction, regions) + r * sizeof(Region);
    w[(base + offsetof(Region, lo)) / 8] = 0;
    w[(base + offsetof(Region, hi)) / 8] = 0;
  }
  return w;
}
static_assert(offsetof(Instruction, regions) % 8 == 0 && sizeof(Region) % 8 == 0 && offsetof(Region, lo) % 8 == 0 &&
              offsetof(Region, hi) % 8 == 0);

// The regions' addresses (lo, hi: whole words) of one record: what record_mask_without_addresses drops.
constexpr std::array<std::uint64_t, kRecordWords> record_address_mask() {
  std::array<std::uint64_t, kRecordWords> w{};
  for (std::size_t r = 0; r < std::tuple_size_v<decltype(Instruction::regions)>; ++r) {
    const std::size_t base = offsetof(Instruction, regions) + r * sizeof(Region);
    w[(base + offsetof(Region, lo)) / 8] = ~std::uint64_t{0};
    w[(base + offsetof(Region, hi)) / 8] = ~std::uint64_t{0};
  }
  return w;
}

// The memo's comparison of a trace with the last one (ScheduleMemo::repeats_last), in one pass over
// both: false when a field other than the regions' addresses differs (padding ignored); otherwise
// moved[i] says whether any region address word of record i differs (all four region slots; the
// unused ones are zero in both, records start as a blank copy). Every record is all fields or none:
// "no record moved" is "the same records", and a moved record is looked at region by region. The
// masks: `fields` keeps every field but the addresses, `addresses` only the addresses (kRecordWords
// words each, 16-byte aligned).
bool compare_record_sse2(const unsigned char* x, const unsigned char* y, const std::uint64_t* fields,
                         const std::uint64_t* addresses, std::uint8_t& moved) {
  __m128i diff = _mm_setzero_si128(), addr = _mm_setzero_si128();
  for (std::size_t k = 0; k < kRecordWords / 2; ++k) {
    const __m128i u = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + 16 * k));
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(y + 16 * k));
    const __m128i d = _mm_xor_si128(u, v);
    diff = _mm_or_si128(diff, _mm_and_si128(d, _mm_load_si128(reinterpret_cast<const __m128i*>(fields + 2 * k))));
    addr = _mm_or_si128(addr, _mm_and_si128(d, _mm_load_si128(reinterpret_cast<const __m128i*>(addresses + 2 * k))));
  }
  const __m128i zero = _mm_setzero_si128();
  moved = _mm_movemask_epi8(_mm_cmpeq_epi8(addr, zero)) != 0xFFFF;
  return _mm_movemask_epi8(_mm_cmpeq_epi8(diff, zero)) == 0xFFFF;
}

// Two records (416 bytes, 13 x 32) at a time with AVX2 (the masks' period), then SSE2 for an odd
// one. `fields2` is the fields mask repeated for two records, `addr_first` / `addr_second` the
// address mask of the first / second record of a pair (zero over the other); all 32-byte aligned.
struct PairMasks {
  alignas(32) std::array<std::uint64_t, 2 * kRecordWords> all2, fields2, addr_first, addr_second;
  alignas(16) std::array<std::uint64_t, kRecordWords> fields, addresses;
};
constexpr PairMasks pair_masks() {
  PairMasks m{};
  const std::array<std::uint64_t, kRecordWords> f = record_mask_without_addresses(), a = record_address_mask();
  m.fields = f;
  m.addresses = a;
  for (std::size_t k = 0; k < 2 * kRecordWords; ++k) {
    m.all2[k] = kRecordFieldMask[k % kRecordWords];
    m.fields2[k] = f[k % kRecordWords];
    m.addr_first[k] = k < kRecordWords ? a[k] : 0;
    m.addr_second[k] = k < kRecordWords ? 0 : a[k - kRecordWords];
  }
  return m;
}
alignas(32) constexpr PairMasks kPairMasks = pair_masks();
static_assert(offsetof(PairMasks, all2) % 32 == 0 && offsetof(PairMasks, fields2) % 32 == 0 &&
              offsetof(PairMasks, addr_first) % 32 == 0 && offsetof(PairMasks, addr_second) % 32 == 0 &&
              offsetof(PairMasks, fields) % 16 == 0 && offsetof(PairMasks, addresses) % 16 == 0);

__attribute__((target("avx2"))) bool compare_records_avx2(const unsigned char* x, const unsigned char* y, std::size_t n,
                                                          std::uint8_t* moved) {
  static_assert(2 * sizeof(Instruction) % 32 == 0);
  const PairMasks& m = kPairMasks;
  const auto* all2 = reinterpret_cast<const __m256i*>(m.all2.data());
  const auto* fields2 = reinterpret_cast<const __m256i*>(m.fields2.data());
  const auto* addr_first = reinterpret_cast<const __m256i*>(m.addr_first.data());
  const auto* addr_second = reinterpret_cast<const __m256i*>(m.addr_second.data());
  std::size_t i = 0;
  for (; i + 2 <= n; i += 2, x += 2 * sizeof(Instruction), y += 2 * sizeof(Instruction)) {
    // Two equal records first (every field, addresses included: most records of a repeated call),
    // with one mask; only a pair that differs is taken apart below.
    __m256i any = _mm256_setzero_si256();
    for (std::size_t k = 0; k < 2 * sizeof(Instruction) / 32; ++k) {
      const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + 32 * k));
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y + 32 * k));
      any = _mm256_or_si256(any, _mm256_and_si256(_mm256_xor_si256(u, v), _mm256_load_si256(all2 + k)));
    }
    if (_mm256_testz_si256(any, any)) {
      moved[i] = moved[i + 1] = 0;
      continue;
    }
    __m256i diff = _mm256_setzero_si256(), first = _mm256_setzero_si256(), second = _mm256_setzero_si256();
    for (std::size_t k = 0; k < 2 * sizeof(Instruction) / 32; ++k) {
      const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + 32 * k));
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y + 32 * k));
      const __m256i d = _mm256_xor_si256(u, v);
      diff = _mm256_or_si256(diff, _mm256_and_si256(d, _mm256_load_si256(fields2 + k)));
      first = _mm256_or_si256(first, _mm256_and_si256(d, _mm256_load_si256(addr_first + k)));
      second = _mm256_or_si256(second, _mm256_and_si256(d, _mm256_load_si256(addr_second + k)));
    }
    if (!_mm256_testz_si256(diff, diff)) return false;
    moved[i] = !_mm256_testz_si256(first, first);
    moved[i + 1] = !_mm256_testz_si256(second, second);
  }
  return i == n || compare_record_sse2(x, y, m.fields.data(), m.addresses.data(), moved[i]);
}

// compare_records_avx2's answer with SSE2 (x86-64's baseline), one record at a time.
bool compare_records_sse2(const unsigned char* x, const unsigned char* y, std::size_t n, std::uint8_t* moved) {
  for (std::size_t i = 0; i < n; ++i, x += sizeof(Instruction), y += sizeof(Instruction))
    if (!compare_record_sse2(x, y, kPairMasks.fields.data(), kPairMasks.addresses.data(), moved[i])) return false;
  return true;
}

// a[0, n) and b[0, n) agree on every field but perhaps the regions' addresses; moved[i]: record i's
// addresses differ. AVX2 when the host has it.
bool compare_records(const Instruction* a, const Instruction* b, std::size_t n, std::uint8_t* moved, bool avx2) {
  const auto* x = reinterpret_cast<const unsigned char*>(a);
  const auto* y = reinterpret_cast<const unsigned char*>(b);
  return avx2 ? compare_records_avx2(x, y, n, moved) : compare_records_sse2(x, y, n, moved);
}
bool host_has_avx2() {
  static const bool avx2 = host_simd_available(HostSimd::avx2);
  return avx2;
}

struct ScheduleMemo {
  struct Entry {
    std::uint64_t hash = 0;
    std::vector<std::uint64_t> key;
    Profile profile;
  };
  std::vector<Entry> entries;
  std::size_t next = 0;  // round-robin replacement
  std::vector<std::uint64_t> key, ends;  // scratch of the current lookup

  // The last memoisable trace looked up, verbatim (HBM addresses included), its options and its
  // profile. A call that repeats it byte for byte (a loop of calls on the same buffers) has the
  // same key, so its profile is returned without building, hashing and comparing the key. Any
  // field byte that differs only sends the lookup down the keyed path (padding is not compared).
  std::vector<Instruction> last_trace;
  // Per record of last_trace: the largest end of its HBM regions named by the scratch stack (0:
  // none), what repeats_last_renamed keeps of a record whose addresses did not move. A fixed array
  // (last_trace is memoisable, so at most kMemoMaxInstructions records), not a heap block: an
  // allocation would change the process's malloc history, and with it the order of the host
  // addresses of later heap temporaries (which the trace records as HBM addresses).
  std::array<std::uint64_t, kMemoMaxInstructions> last_named_hi{};
  HeadWords last_head{};
  Profile last_profile;
  bool has_last = false;

  // The same records as the last trace (then its key, so its profile), or the same but for the
  // names of scratch blocks (scratch.hpp: 2^62 | serial << 36 | offset), each changed name moved up
  // by one common multiple of 2^36 and every unchanged one below every changed one. The second is
  // a loop of calls whose temporaries come from the scratch stack in the same order (fresh serials
  // each call; per-thread buffers kept, older). Such a renaming keeps the order of every HBM end
  // (host addresses lie below every name), so memo_key's ranks, the key and the profile are the
  // last trace's: without it each such call paid for building, sorting and hashing the key (+3.8 k
  // instructions of 41.7 k for a small trntensor elementwise call under callgrind). Both tests in
  // one pass over the records (compare_records): every C API Strsv takes the second, since x is
  // gathered into a fresh scratch block each call; the two passes it took were ~2.2 k instructions.
  bool repeats_last(const Trace& trace, const CostModelOptions& opt) const {
    const auto& ins = trace.instructions;
    if (!has_last || opt.keep_timeline || ins.size() != last_trace.size() || ins.size() > kMemoMaxInstructions ||
        head_words(opt) != last_head)
      return false;
    std::array<std::uint8_t, kMemoMaxInstructions> moved;
    if (!compare_records(ins.data(), last_trace.data(), ins.size(), moved.data(), host_has_avx2())) return false;
    constexpr std::uint64_t kOffsetMask = (std::uint64_t{1} << detail::kScratchSlotShift) - 1;
    std::uint64_t delta = 0, lowest_changed = ~std::uint64_t{0}, highest_kept = 0;
    bool any_moved = false;
    for (std::size_t i = 0; i < ins.size(); ++i) {
      // A record whose addresses are all unchanged (most of them) adds only its named ends.
      if (moved[i] == 0) {
        highest_kept = std::max(highest_kept, last_named_hi[i]);
        continue;
      }
      any_moved = true;
      const Instruction &a = ins[i], &b = last_trace[i];
      for (std::uint8_t r = 0; r < a.nregions; ++r) {
        const Region &g = a.regions[r], &h = b.regions[r];
        const bool named = (h.lo & detail::kScratchTraceTag) != 0;
        if (g.lo == h.lo && g.hi == h.hi) {
          if (g.mem == MemSpace::hbm && named) highest_kept = std::max(highest_kept, h.hi);
          continue;
        }
        if (g.mem != MemSpace::hbm || !named || g.lo <= h.lo) return false;
        const std::uint64_t d = g.lo - h.lo;
        if ((d & kOffsetMask) != 0 || g.hi - h.hi != d || (delta != 0 && d != delta)) return false;
        delta = d;
        lowest_changed = std::min(lowest_changed, h.lo);
      }
    }
    return !any_moved || highest_kept < lowest_changed;
  }
  void remember_last(const Trace& trace, const CostModelOptions& opt, const Profile& p) {
    last_trace.assign(trace.instructions.begin(), trace.instructions.end());
    for (std::size_t i = 0; i < last_trace.size(); ++i) {
      const Instruction& b = last_trace[i];
      last_named_hi[i] = 0;
      for (std::uint8_t r = 0; r < b.nregions; ++r) {
        const Region& h = b.regions[r];
        if (h.mem == MemSpace::hbm && (h.lo & detail::kScratchTraceTag) != 0)
          last_named_hi[i] = std::max(last_named_hi[i], h.hi);
      }
    }
    last_head = head_words(opt);
    last_profile = p;
    has_last = true;
  }

  const Profile* find(std::uint64_t h) const {
    for (const Entry& e : entries)
      if (e.hash == h && e.key == key) return &e.profile;
    return nullptr;
  }
  void store(std::uint64_t h, const Profile& p) {
    Entry* e = nullptr;
    if (entries.size() < kMemoEntries) {
      e = &entries.emplace_back();
    } else {
      e = &entries[next];
      next = (next + 1) % kMemoEntries;
    }
    e->hash = h;
    e->key = key;
    e->profile = p;
  }

  // Long traces (see the section's comment): their keyed entries, oldest first, with the words
  // they hold, and the fingerprints of long traces seen once (ring).
  struct LongEntry {
    std::uint64_t fingerprint = 0, hash = 0;
    std::vector<std::uint64_t> key;
    Profile profile;
  };
  std::deque<LongEntry> long_entries;
  std::size_t long_words = 0;
  std::array<std::uint64_t, kLongSeen> seen{};
  std::size_t seen_next = 0;
  std::int64_t long_hits = 0;  // (test hook: detail::schedule_memo_long_hits)

  // Whether a long trace of this fingerprint was seen before (noted now if not).
  bool seen_before(std::uint64_t fp) {
    for (const LongEntry& e : long_entries)
      if (e.fingerprint == fp) return true;
    for (std::uint64_t s : seen)
      if (s == fp) return true;
    seen[seen_next] = fp;
    seen_next = (seen_next + 1) % kLongSeen;
    return false;
  }
  const Profile* find_long(std::uint64_t h) const {
    for (const LongEntry& e : long_entries)
      if (e.hash == h && e.key == key) return &e.profile;
    return nullptr;
  }
  void store_long(std::uint64_t fp, std::uint64_t h, const Profile& p) {
    // One key may take half the budget: a trace of kLongMemoMaxInstructions records of four regions
    // each (9 + 4 x 4 words a record) always fits, so no trace the memo keys is keyed in vain.
    static_assert(kHeadWords + kLongMemoMaxInstructions * (9 + 4 * 4) <= kLongMemoWords / 2);
    if (key.size() > kLongMemoWords / 2) return;
    while (!long_entries.empty() && (long_entries.size() >= kLongMemoEntries || long_words + key.size() > kLongMemoWords)) {
      long_words -= long_entries.front().key.size();
      long_entries.pop_front();
    }
    LongEntry& e = long_entries.emplace_back();
    e.fingerprint = fp;
    e.hash = h;
    e.key = key;  // exactly sized
    e.profile = p;
    long_words += e.key.size();
  }
};

Schedule schedule_uncached(const Trace& trace, const CostModelOptions& opt);

// This thread's memo, its address taken once per call (every use of a thread_local in a shared
// library is a __tls_get_addr call). Not inlined: inlined, GCC recomputed the address (a call)
// at uses inside the memo's loops instead of keeping it in a register.
[[gnu::noinline]] ScheduleMemo& this_thread_memo() {
  thread_local ScheduleMemo memo;
  return memo;
}

}  // namespace

namespace detail {
// Test hook (tests/core/test_small_call_paths.cpp declares it; not in a public header): the schedule
// memo's record comparison (compare_records) on its AVX2 path (avx2 true; only on a host with AVX2)
// or its SSE2 one.
bool schedule_memo_compare_records(const Instruction* a, const Instruction* b, std::size_t n, bool avx2,
                                   std::uint8_t* moved) {
  return compare_records(a, b, n, moved, avx2 && host_has_avx2());
}
// Test hook (tests/core/test_cost_model_reference.cpp): long traces answered from this thread's memo.
std::int64_t schedule_memo_long_hits() { return this_thread_memo().long_hits; }
}  // namespace detail

Schedule schedule_trace(const Trace& trace, const CostModelOptions& opt) {
  // A schedule with peers is collective (it exchanges arrival times): never answered from the memo.
  if (opt.link_peers != nullptr) return schedule_uncached(trace, opt);
  ScheduleMemo& memo = this_thread_memo();
  Schedule s;
  if (memo.repeats_last(trace, opt)) {
    s.profile = memo.last_profile;
    return s;
  }
  const std::size_t n = trace.instructions.size();
  if (n > kMemoMaxInstructions && n <= kLongMemoMaxInstructions && !opt.keep_timeline) {
    // A long trace: keyed from its second sighting (the section's comment); never `last`.
    const std::uint64_t fp = long_fingerprint(trace, opt);
    if (!memo.seen_before(fp) || !memo_key(trace, opt, memo.key, memo.ends, kLongMemoMaxInstructions))
      return schedule_uncached(trace, opt);
    const std::uint64_t h = hash_key(memo.key);
    if (const Profile* p = memo.find_long(h)) {
      s.profile = *p;
      ++memo.long_hits;
      return s;
    }
    s = schedule_uncached(trace, opt);
    memo.store_long(fp, h, s.profile);
    return s;
  }
  if (!memo_key(trace, opt, memo.key, memo.ends)) return schedule_uncached(trace, opt);
  const std::uint64_t h = hash_key(memo.key);
  if (const Profile* p = memo.find(h)) {
    s.profile = *p;
  } else {
    s = schedule_uncached(trace, opt);
    memo.store(h, s.profile);
  }
  memo.remember_last(trace, opt, s.profile);
  return s;
}

namespace {
// Both modes when compare_modes asks: in one pass (schedule_both) unless a peer exchange makes the
// schedule collective (every schedule of a collective call exchanges its arrivals with the peers'
// schedules, mode for mode) or the modes' table cuts would differ; then one pass per mode. The
// reorder schedule of a trace whose as_written schedule never held a compute instruction back
// (Scheduler::waited_in_order) is that same schedule, so it is not computed again: each instruction
// in turn finds every earlier interval on its engine and ports ended by its ready time (they are the
// in-order ones, which ended by then), so the look-ahead window places it at its ready time with the
// same predecessor, and DMA queues, host steps and link transfers are placed alike in both modes
// (test CostModelReference.*InOrderWithoutWaits*).
Schedule schedule_uncached(const Trace& trace, const CostModelOptions& opt) {
  if (opt.compare_modes && opt.link_peers == nullptr)
    if (std::optional<Schedule> s = schedule_both(trace, opt)) return std::move(*s);
  bool waited = true;
  Schedule s = schedule_one(trace, opt, opt.mode == ScheduleMode::reorder, &waited);
  if (opt.compare_modes && opt.mode == ScheduleMode::as_written && !waited && opt.link_peers == nullptr) {
    s.profile.reorder_total_ns = s.profile.as_written_total_ns = s.profile.total_ns;
    return s;
  }
  if (opt.compare_modes) {
    CostModelOptions other = opt;
    other.keep_timeline = false;
    const bool reorder = opt.mode != ScheduleMode::reorder;
    const Profile p = schedule_one(trace, other, reorder).profile;
    (reorder ? s.profile.reorder_total_ns : s.profile.as_written_total_ns) = p.total_ns;
  }
  (opt.mode == ScheduleMode::reorder ? s.profile.reorder_total_ns : s.profile.as_written_total_ns) =
      s.profile.total_ns;
  return s;
}
}  // namespace


namespace {

// Where perfetto_json's events go. Single device (rank < 0): one process per NeuronCore (pid = core,
// tid = engine or 10 + DMA queue), the host round trips and the fabric each a process after them.
// One rank of a merged multi-rank trace (rank >= 0): every track in process `rank`, the cores as
// groups of threads (tid = 100 core + the single-device tid), the host on tid kHostTid, the link
// transfers on tid kFabricTid; flow ids offset by rank << 40 so that ranks' arrows never pair up.
struct EventLayout {
  static constexpr int kHostTid = 90000, kFabricTid = 90001, kHiddenTid = 90002, kWaitTid = 90003;
  int rank = -1;
  int cores = 1;
  int core_pid(int core) const { return rank < 0 ? core : rank; }
  int core_tid(int core, int track) const { return rank < 0 ? track : 100 * core + track; }
  int host_pid() const { return rank < 0 ? cores : rank; }
  int host_tid() const { return rank < 0 ? 0 : kHostTid; }
  int link_pid() const { return rank < 0 ? cores + 1 : rank; }
  int link_tid() const { return rank < 0 ? 0 : kFabricTid; }
  unsigned long long flow_id(std::size_t k) const {
    return (rank < 0 ? 0ull : static_cast<unsigned long long>(rank) << 40) + static_cast<unsigned long long>(k);
  }
};

// Appends event objects to `out`, comma-separated (`first`: nothing before the next one yet).
struct EventSink {
  std::string& out;
  bool first = true;
  void emit(const char* s) {
    if (!first) out += ",\n";
    first = false;
    out += s;
  }
};

// The metadata events: process and thread names of every track the schedule uses.
void emit_track_names(const Schedule& schedule, const EventLayout& lay, EventSink& sink) {
  char buf[512];
  const HardwareSpec& hw = hardware_spec(schedule.profile.target);
  auto thread_name = [&](int pid, int tid, const std::string& name) {
    std::snprintf(buf, sizeof buf, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"%s\"}}",
                  pid, tid, name.c_str());
    sink.emit(buf);
  };
  if (lay.rank >= 0) {
    std::snprintf(buf, sizeof buf, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":\"rank %d\"}}",
                  lay.rank, lay.rank);
    sink.emit(buf);
    std::snprintf(buf, sizeof buf, "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%d,\"args\":{\"sort_index\":%d}}",
                  lay.rank, lay.rank);
    sink.emit(buf);
  }
  // Track ids: 0..3 compute engines, 10 + q for DMA queue q.
  for (int core = 0; core < schedule.profile.cores; ++core) {
    const std::string prefix = lay.rank < 0 ? "" : "NeuronCore " + std::to_string(core) + " ";
    if (lay.rank < 0) {
      std::snprintf(buf, sizeof buf, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":\"NeuronCore %d (%s)\"}}",
                    core, core, std::string(hw.name).c_str());
      sink.emit(buf);
    }
    for (int e = 0; e < 4; ++e)
      thread_name(lay.core_pid(core), lay.core_tid(core, e), prefix + std::string(engine_name(static_cast<Engine>(e))));
    for (int q = 0; q < hw.dma_engines; ++q)
      thread_name(lay.core_pid(core), lay.core_tid(core, 10 + q), prefix + "DMA queue " + std::to_string(q));
  }
  // Host round trips: a process of their own after the cores (a thread of the rank's), one "host" track.
  if (schedule.profile.host_steps > 0) {
    if (lay.rank < 0) {
      std::snprintf(buf, sizeof buf, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":\"Host CPU (%s)\"}}",
                    lay.host_pid(), std::string(hw.host_cpu).c_str());
      sink.emit(buf);
    }
    thread_name(lay.host_pid(), lay.host_tid(), lay.rank < 0 ? "host" : "host (" + std::string(hw.host_cpu) + ")");
  }
  // Link transfers (link_step.hpp): a "fabric" process after the host's (a thread of the rank's).
  if (schedule.profile.link_transfers > 0) {
    const std::string link = "Fabric (" + std::string(fabric_spec(schedule.profile.target).link) + ")";
    if (lay.rank < 0) {
      std::snprintf(buf, sizeof buf, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":\"%s\"}}",
                    lay.link_pid(), link.c_str());
      sink.emit(buf);
    } else {
      thread_name(lay.link_pid(), lay.link_tid(), link);
      thread_name(lay.rank, EventLayout::kHiddenTid, "link hidden behind compute");
      if (schedule.profile.link_waits > 0) thread_name(lay.rank, EventLayout::kWaitTid, "waiting for peers");
    }
  }
}

// One "X" event per scheduled instruction and the flow arrows of cross-engine dependencies.
void emit_instructions(const Trace& trace, const Schedule& schedule, const EventLayout& lay, std::size_t max_flows,
                       EventSink& sink) {
  char buf[512];
  const auto& tl = schedule.timeline;
  auto is_link = [&](std::size_t i) { return trace.instructions[i].opcode == Opcode::link_transfer; };
  auto is_host = [&](std::size_t i) { return trace.instructions[i].opcode == Opcode::host_compute || is_link(i); };
  auto track = [&](std::size_t i) {
    const Instruction& ins = trace.instructions[i];
    if (is_host(i)) return 0;
    return ins.engine == Engine::dma ? 10 + std::max(0, tl[i].queue) : static_cast<int>(ins.engine);
  };
  auto pid = [&](std::size_t i) { return is_link(i) ? lay.link_pid() : is_host(i) ? lay.host_pid() : lay.core_pid(trace.instructions[i].core); };
  auto tid = [&](std::size_t i) {
    return is_link(i) ? lay.link_tid() : is_host(i) ? lay.host_tid() : lay.core_tid(trace.instructions[i].core, track(i));
  };
  std::size_t flows = 0;
  for (std::size_t i = 0; i < tl.size() && i < trace.instructions.size(); ++i) {
    const Instruction& ins = trace.instructions[i];
    if (is_host(i)) {
      std::snprintf(buf, sizeof buf,
                    "{\"ph\":\"X\",\"name\":\"%s\",\"cat\":\"host\",\"pid\":%d,\"tid\":%d,\"ts\":%.4f,\"dur\":%.4f,"
                    "\"args\":{\"index\":%llu,\"flops\":%.0f,\"bytes_to_host\":%lld,\"bytes_to_device\":%lld}}",
                    std::string(host_step_name(ins.host_label)).c_str(), pid(i), tid(i), tl[i].start_ns * 1e-3,
                    (tl[i].end_ns - tl[i].start_ns) * 1e-3, static_cast<unsigned long long>(ins.index),
                    ins.declared_cycles, static_cast<long long>(ins.bytes_read), static_cast<long long>(ins.bytes_written));
    } else {
      std::snprintf(buf, sizeof buf,
                    "{\"ph\":\"X\",\"name\":\"%s\",\"cat\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%.4f,\"dur\":%.4f,"
                    "\"args\":{\"program\":%d,\"index\":%llu,\"partitions\":%d,\"free\":%lld,\"bytes\":%lld,\"queues\":%d}}",
                    std::string(opcode_name(ins.opcode)).c_str(), std::string(engine_name(ins.engine)).c_str(), pid(i),
                    tid(i), tl[i].start_ns * 1e-3, (tl[i].end_ns - tl[i].start_ns) * 1e-3, ins.program,
                    static_cast<unsigned long long>(ins.index), ins.partitions, static_cast<long long>(ins.free_elems),
                    static_cast<long long>(std::max(ins.bytes_read, ins.bytes_written)), tl[i].queues);
    }
    sink.emit(buf);
    const std::int64_t d = tl[i].depends_on;
    const auto du = static_cast<std::size_t>(d);
    if (d >= 0 && flows < max_flows &&
        (trace.instructions[du].engine != ins.engine || is_host(du) != is_host(i))) {
      std::snprintf(buf, sizeof buf, "{\"ph\":\"s\",\"name\":\"dep\",\"cat\":\"dep\",\"id\":%llu,\"pid\":%d,\"tid\":%d,\"ts\":%.4f}",
                    lay.flow_id(flows), pid(du), tid(du), tl[du].end_ns * 1e-3);
      sink.emit(buf);
      std::snprintf(buf, sizeof buf,
                    "{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"dep\",\"cat\":\"dep\",\"id\":%llu,\"pid\":%d,\"tid\":%d,\"ts\":%.4f}",
                    lay.flow_id(flows), pid(i), tid(i), tl[i].start_ns * 1e-3);
      sink.emit(buf);
      ++flows;
    }
  }
}

// The parts of the link transfers that overlap device work (any engine of any core, or a host
// step): one "X" event (cat "overlap") per overlapping piece on the rank's "link hidden behind
// compute" track -- the communication the schedule hid, drawn (its sum is at most
// Profile::link_ns - link_critical_ns plus what overlapped other critical work).
void emit_hidden_link(const Trace& trace, const Schedule& schedule, const EventLayout& lay, EventSink& sink) {
  const auto& tl = schedule.timeline;
  std::vector<std::pair<double, double>> busy, links;
  for (std::size_t i = 0; i < tl.size() && i < trace.instructions.size(); ++i)
    (trace.instructions[i].opcode == Opcode::link_transfer ? links : busy).emplace_back(tl[i].start_ns, tl[i].end_ns);
  std::sort(busy.begin(), busy.end());
  std::vector<std::pair<double, double>> merged;  // the union of the device's busy intervals
  for (const auto& b : busy)
    if (!merged.empty() && b.first <= merged.back().second)
      merged.back().second = std::max(merged.back().second, b.second);
    else
      merged.push_back(b);
  char buf[256];
  for (const auto& l : links)
    for (auto it = std::lower_bound(merged.begin(), merged.end(), std::make_pair(l.first, l.first),
                                    [](const auto& a, const auto& b) { return a.second < b.first; });
         it != merged.end() && it->first < l.second; ++it) {
      const double s0 = std::max(l.first, it->first), s1 = std::min(l.second, it->second);
      if (s1 <= s0) continue;
      std::snprintf(buf, sizeof buf,
                    "{\"ph\":\"X\",\"name\":\"hidden link\",\"cat\":\"overlap\",\"pid\":%d,\"tid\":%d,\"ts\":%.4f,\"dur\":%.4f}",
                    lay.rank, EventLayout::kHiddenTid, s0 * 1e-3, (s1 - s0) * 1e-3);
      sink.emit(buf);
    }
}

// The time the link transfers waited for their peers (ScheduledInstruction::wait_ns): one "X" event
// (cat "wait") per waiting transfer on the rank's "waiting for peers" track, ending where the
// transfer starts.
void emit_peer_waits(const Trace& trace, const Schedule& schedule, const EventLayout& lay, EventSink& sink) {
  const auto& tl = schedule.timeline;
  char buf[320];
  for (std::size_t i = 0; i < tl.size() && i < trace.instructions.size(); ++i) {
    if (!(tl[i].wait_ns > 0)) continue;
    std::snprintf(buf, sizeof buf,
                  "{\"ph\":\"X\",\"name\":\"wait: %s\",\"cat\":\"wait\",\"pid\":%d,\"tid\":%d,\"ts\":%.4f,\"dur\":%.4f}",
                  std::string(host_step_name(trace.instructions[i].host_label)).c_str(), lay.rank, EventLayout::kWaitTid,
                  (tl[i].start_ns - tl[i].wait_ns) * 1e-3, tl[i].wait_ns * 1e-3);
    sink.emit(buf);
  }
}

}  // namespace

std::string perfetto_json(const Trace& trace, const Schedule& schedule, std::size_t max_flows) {
  std::string out = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  EventSink sink{out};
  const EventLayout lay{-1, schedule.profile.cores};
  emit_track_names(schedule, lay, sink);
  emit_instructions(trace, schedule, lay, max_flows, sink);
  out += "\n]}\n";
  return out;
}

std::string perfetto_rank_events(const Trace& trace, const Schedule& schedule, int rank, std::size_t max_flows) {
  std::string out;
  EventSink sink{out};
  const EventLayout lay{std::max(0, rank), schedule.profile.cores};
  emit_track_names(schedule, lay, sink);
  emit_instructions(trace, schedule, lay, max_flows, sink);
  if (schedule.profile.link_transfers > 0) emit_hidden_link(trace, schedule, lay, sink);
  if (schedule.profile.link_waits > 0) emit_peer_waits(trace, schedule, lay, sink);
  return out;
}

}  // namespace trn
