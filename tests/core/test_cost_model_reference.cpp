// Differential test of the cost model's schedule (issue #30, "instructions cost under a
// microsecond"): schedule_trace against the scheduler it replaced, kept here verbatim as the
// reference (one table of four quadrant states per SBUF/PSUM segment, a std::map of HBM intervals,
// a linear Timeline window scan). The new data structures (per-quadrant chunked interval tables,
// Timeline's binary search) must give every profile field and every timeline entry bit for bit, on
// random traces built to collide (overlapping regions on a small byte grid, partial quadrants,
// strided-hull HBM ranges, several cores, host steps and link transfers, both modes, short reorder
// windows) and on real kernels' traces.
//
// The reference differs from the code it was in two ways only: no link peer exchange (these traces
// are modeled alone) and its per-instruction arrays are members rather than per-thread. Regions of
// no bytes are not generated: the new schedule ignores them, the old one let an empty range depend on
// the segment around it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <vector>

#include "matmul_variants.hpp"
#include "trn/core/core.hpp"

using namespace trn;

namespace reference {
namespace {

bool touches(const Instruction& ins, MemSpace m) {
  for (std::uint8_t i = 0; i < ins.nregions; ++i)
    if (ins.regions[i].mem == m) return true;
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


// Last writer / reader of a piece of memory. Times in ns.
struct AccessState {
  double w_end = 0, r_end = 0;
  std::int64_t w_idx = -1, r_idx = -1;
  Engine w_engine = Engine::tensor;
};

bool same_state(const AccessState& a, const AccessState& b) {
  return a.w_end == b.w_end && a.r_end == b.r_end && a.w_idx == b.w_idx && a.r_idx == b.r_idx &&
         a.w_engine == b.w_engine;
}

constexpr std::uint8_t kHostTrack = 0xff;  // eng[] of a host step (not an Engine)
constexpr std::uint8_t kLinkTrack = 0xfe;  // eng[] of a link transfer
constexpr int kQuadrant = 32;       // partitions per dependency quadrant (alignment unit, ARCH2)
constexpr int kQuadrants = 4;

// Exact byte intervals of one on-chip memory, each with the state of its four partition quadrants.
// Segments are disjoint and sorted; regions usually coincide with an existing segment (tiles are
// reused), so a lookup is one binary search. The sorted array holds (lo, hi, slot) and the four
// states live in a pool by slot: splitting or filling a gap moves 24-byte entries, not 176-byte
// segments (the memmove of the tail was a fifth of Spotrf's host time), and walks stay contiguous.
class SegmentTable {
 public:
  struct Seg {
    std::int64_t lo, hi;
    std::uint32_t slot;
  };
  template <class F>
  void query(std::int64_t lo, std::int64_t hi, int q0, int q1, F&& f) {
    for (std::size_t i = first(lo); i < segs_.size() && segs_[i].lo < hi; ++i)
      if (segs_[i].hi > lo)
        for (int q = q0; q <= q1; ++q) f(st_(segs_[i])[static_cast<std::size_t>(q)]);
  }
  // A write: quadrants q0..q1 of [lo, hi) take `st` (exact for the reason HbmIntervals::assign gives),
  // and the run of segments it covers becomes one segment when the other quadrants agree along it, so
  // column-by-column writes into a tile do not leave it cut into as many segments as it has columns.
  void assign(std::int64_t lo, std::int64_t hi, int q0, int q1, const AccessState& st) {
    std::size_t i0 = first(lo);
    if (!(i0 < segs_.size() && segs_[i0].lo == lo && segs_[i0].hi == hi)) i0 = cover(lo, hi);
    std::size_t i1 = i0;
    for (; i1 < segs_.size() && segs_[i1].lo < hi; ++i1)
      for (int q = q0; q <= q1; ++q) st_(segs_[i1])[static_cast<std::size_t>(q)] = st;
    if (i1 - i0 < 2) return;
    for (std::size_t i = i0 + 1; i < i1; ++i)
      for (int q = 0; q < kQuadrants; ++q)
        if ((q < q0 || q > q1) && !same_state(st_(segs_[i])[static_cast<std::size_t>(q)], st_(segs_[i0])[static_cast<std::size_t>(q)]))
          return;
    segs_[i0].hi = segs_[i1 - 1].hi;
    for (std::size_t i = i0 + 1; i < i1; ++i) free_.push_back(segs_[i].slot);
    segs_.erase(segs_.begin() + static_cast<std::ptrdiff_t>(i0 + 1), segs_.begin() + static_cast<std::ptrdiff_t>(i1));
  }
  template <class F>
  void update(std::int64_t lo, std::int64_t hi, int q0, int q1, F&& f) {
    std::size_t i = first(lo);
    if (!(i < segs_.size() && segs_[i].lo == lo && segs_[i].hi == hi)) i = cover(lo, hi);
    for (; i < segs_.size() && segs_[i].lo < hi; ++i)
      for (int q = q0; q <= q1; ++q) f(st_(segs_[i])[static_cast<std::size_t>(q)]);
  }

 private:
  // Index of the first segment that may overlap [lo, ...).
  std::size_t first(std::int64_t lo) const {
    auto it = std::upper_bound(segs_.begin(), segs_.end(), lo, [](std::int64_t v, const Seg& s) { return v < s.lo; });
    if (it != segs_.begin() && std::prev(it)->hi > lo) --it;
    return static_cast<std::size_t>(it - segs_.begin());
  }
  // Split and fill so that [lo, hi) is exactly a run of segments; returns the index of the first.
  std::size_t cover(std::int64_t lo, std::int64_t hi) {
    split_at(lo);
    split_at(hi);
    std::size_t i = first(lo);
    std::int64_t cur = lo;
    std::size_t start = i;
    bool first_set = false;
    while (cur < hi) {
      if (i >= segs_.size() || segs_[i].lo > cur) {
        const std::int64_t e = i >= segs_.size() ? hi : std::min(hi, segs_[i].lo);
        segs_.insert(segs_.begin() + static_cast<std::ptrdiff_t>(i), Seg{cur, e, new_slot()});
      }
      if (!first_set) {
        start = i;
        first_set = true;
      }
      cur = segs_[i].hi;
      ++i;
    }
    return start;
  }
  void split_at(std::int64_t x) {
    std::size_t i = first(x);
    if (i < segs_.size() && segs_[i].lo < x && segs_[i].hi > x) {
      Seg right{x, segs_[i].hi, new_slot()};
      pool_[right.slot] = pool_[segs_[i].slot];
      segs_[i].hi = x;
      segs_.insert(segs_.begin() + static_cast<std::ptrdiff_t>(i + 1), right);
    }
  }
  using States = std::array<AccessState, kQuadrants>;
  States& st_(const Seg& s) { return pool_[s.slot]; }
  std::uint32_t new_slot() {
    if (!free_.empty()) {
      const std::uint32_t k = free_.back();
      free_.pop_back();
      pool_[k] = {};
      return k;
    }
    pool_.emplace_back();
    return static_cast<std::uint32_t>(pool_.size() - 1);
  }
  std::vector<Seg> segs_;
  std::vector<States> pool_;
  std::vector<std::uint32_t> free_;
};

// Exact byte intervals of HBM (host addresses; regions are hulls of strided views). A map, because
// HBM regions are many and scattered; disjoint segments, split on demand.
class HbmIntervals {
 public:
  template <class F>
  void query(std::uint64_t lo, std::uint64_t hi, F&& f) {
    for (auto it = first(lo); it != m_.end() && it->first < hi; ++it)
      if (it->second.hi > lo) f(it->second.st);
  }
  // A write's state replaces every segment it covers by one segment. Exact: the write started after
  // every earlier read and write of the range had ended (it waited for them), so from now on its own
  // end dominates any constraint those older states could impose; keeping them only multiplied the
  // segments that later queries walk (a strided row view's hull spans the whole matrix).
  void assign(std::uint64_t lo, std::uint64_t hi, const AccessState& st) {
    split_at(lo);
    split_at(hi);
    m_.erase(m_.lower_bound(lo), m_.lower_bound(hi));
    m_.emplace(lo, Seg{hi, st});
  }
  template <class F>
  void update(std::uint64_t lo, std::uint64_t hi, F&& f) {
    split_at(lo);
    split_at(hi);
    std::uint64_t cur = lo;
    auto it = m_.lower_bound(lo);
    while (cur < hi) {
      if (it == m_.end() || it->first > cur) {
        const std::uint64_t e = it == m_.end() ? hi : std::min(hi, it->first);
        it = m_.emplace_hint(it, cur, Seg{e, {}});
      }
      f(it->second.st);
      cur = it->second.hi;
      ++it;
    }
  }

 private:
  struct Seg {
    std::uint64_t hi;
    AccessState st;
  };
  std::map<std::uint64_t, Seg>::iterator first(std::uint64_t lo) {
    auto it = m_.upper_bound(lo);
    if (it != m_.begin() && std::prev(it)->second.hi > lo) --it;
    return it;
  }
  void split_at(std::uint64_t x) {
    auto it = m_.upper_bound(x);
    if (it == m_.begin()) return;
    --it;
    if (it->first < x && it->second.hi > x) {
      Seg right = it->second;
      it->second.hi = x;
      m_.emplace_hint(std::next(it), x, right);
    }
  }
  std::map<std::uint64_t, Seg> m_;
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
    double t = ready;
    std::int64_t blocker = -1;
    std::size_t i = busy_.size() > window_ ? busy_.size() - window_ : 0;
    if (i > 0 && busy_[i - 1].end > t) {
      t = busy_[i - 1].end;
      blocker = busy_[i - 1].idx;
    }
    for (; i < busy_.size(); ++i) {
      if (busy_[i].end <= t) continue;
      if (busy_[i].start >= t + d) break;
      t = busy_[i].end;
      blocker = busy_[i].idx;
    }
    return {t, blocker};
  }
  void insert(double t, double d, std::int64_t idx) {
    auto it = std::upper_bound(busy_.begin(), busy_.end(), t, [](double v, const Busy& b) { return v < b.start; });
    busy_.insert(it, Busy{t, t + d, idx});
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
};

struct CoreState {
  std::array<double, 4> engine_free{};
  std::array<std::int64_t, 4> engine_last{-1, -1, -1, -1};
  std::vector<Timeline> dma;
  std::vector<Timeline> engine_tl, port_tl;  // reorder mode: per compute engine; SBUF and PSUM ports
  double sbuf_port_free = 0, psum_port_free = 0;
  std::int64_t sbuf_port_last = -1, psum_port_last = -1;
  SegmentTable sbuf, psum;
};



// One schedule of a trace (schedule_one): instructions placed in trace order, each at the earliest
// time its operands are ready and its engine (DMA queues, shared SBUF / PSUM ports) is free, either
// in program order per engine (as_written) or in the earliest free slot of a look-ahead window
// (reorder). Each step of an instruction's placement is one method, called in this order by run().
// The per-instruction arrays of a schedule, kept by each host thread between schedules: fresh
// arrays of tens of MiB (25 bytes per record) were page-faulted in on every call, and a call
// schedules twice (both modes). Every entry up to the trace's length is written before it is read.
struct SchedulerArrays {
  std::vector<double> dur, end;
  std::vector<std::int64_t> pred;
  std::vector<std::uint8_t> eng;
};


class Scheduler {
 public:
  Scheduler(const Trace& trace, const CostModelOptions& opt, bool reorder)
      : trace_(trace), opt_(opt), reorder_(reorder), hw_(hardware_spec(opt.target)), n_(trace.instructions.size()),
        arrays_(), dur_(arrays_.dur), end_(arrays_.end), pred_(arrays_.pred),
        eng_(arrays_.eng) {
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
    cs_.resize(static_cast<std::size_t>(cores_));
    for (auto& c : cs_) {
      c.dma.resize(static_cast<std::size_t>(hw_.dma_engines));
      if (reorder) {
        c.engine_tl.assign(4, Timeline(static_cast<std::size_t>(opt.reorder_window)));
        c.port_tl.assign(2, Timeline(static_cast<std::size_t>(opt.reorder_window)));
      }
    }
    prof.mode = reorder ? ScheduleMode::reorder : ScheduleMode::as_written;
    dur_.resize(n_);
    end_.resize(n_);
    pred_.assign(n_, -1);
    eng_.resize(n_);
    dma_spans_.resize(static_cast<std::size_t>(cores_));
    prof.dma_queue_busy_ns.assign(static_cast<std::size_t>(hw_.dma_engines), 0.0);
  }

  Schedule run() {
    double total = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      const Instruction& ins = trace_.instructions[i];
      CoreState& c = cs_[static_cast<std::size_t>(std::min(ins.core, cores_ - 1))];
      Placement pl = ready_time(c, ins);
      if (ins.opcode == Opcode::host_compute)
        place_host(ins, i, pl);
      else if (ins.opcode == Opcode::link_transfer)
        place_link(ins, i, pl);
      else if (ins.engine == Engine::dma)
        place_dma(c, ins, i, pl);
      else if (reorder_)
        place_compute_reordered(c, ins, i, pl);
      else
        place_compute_in_order(c, ins, i, pl);
      record_accesses(c, ins, i, pl);
      record_instruction(ins, i, pl);
      total = std::max(total, pl.fin);
    }
    sched_.profile.total_ns = total;
    sum_dma_active();
    sched_.profile.total_instructions =
        static_cast<std::int64_t>(n_) - sched_.profile.host_steps - sched_.profile.link_transfers;
    walk_critical_path();
    return std::move(sched_);
  }

 private:
  // Where one instruction goes: ready (its operands' readiness, set by ready_by), then start / fin
  // and the instruction p that set the start; DMA: the first queue q0 and the queue count nq.
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

  // Applies f to the access states a region overlaps (query) or covers exactly (update).
  template <class F>
  void visit(CoreState& c, const Region& r, bool update, F&& f) {
    if (r.mem == MemSpace::hbm) {
      if (update)
        hbm_.update(r.lo, r.hi, f);
      else
        hbm_.query(r.lo, r.hi, f);
      return;
    }
    SegmentTable& t = r.mem == MemSpace::sbuf ? c.sbuf : c.psum;
    const int q0 = r.p0 / kQuadrant, q1 = std::min(kQuadrants - 1, (r.p0 + std::max(r.np, 1) - 1) / kQuadrant);
    const auto lo = static_cast<std::int64_t>(r.lo), hi = static_cast<std::int64_t>(r.hi);
    if (update)
      t.update(lo, hi, q0, q1, f);
    else
      t.query(lo, hi, q0, q1, f);
  }

  // The earliest start its operands allow: after the last write of what it reads (plus the
  // producer's result latency) and, for a write, after the last read and write of its region.
  Placement ready_time(CoreState& c, const Instruction& ins) {
    Placement pl;
    for (std::uint8_t r = 0; r < ins.nregions; ++r) {
      const Region& reg = ins.regions[r];
      visit(c, reg, false, [&](const AccessState& st) {
        if (st.w_idx >= 0) {
          const double t = st.w_end + (reg.write ? 0.0 : result_latency_ns(st.w_engine, ins.engine));
          if (t > pl.ready) {
            pl.ready = t;
            pl.ready_by = st.w_idx;
          }
        }
        if (reg.write && st.r_idx >= 0 && st.r_end > pl.ready) {
          pl.ready = st.r_end;
          pl.ready_by = st.r_idx;
        }
      });
    }
    pl.start = pl.ready;
    pl.p = pl.ready_by;
    return pl;
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
  void place_host(const Instruction& ins, std::size_t i, Placement& pl) {
    Profile& prof = sched_.profile;
    pl.d = host_step_ns(ins, hw_, opt_.host);
    place_serial(host_, i, pl);
    ++prof.host_steps;
    prof.host_roundtrip_ns += pl.d;
    prof.host_flops += ins.declared_cycles;
    prof.host_bytes += static_cast<double>(ins.bytes_read + ins.bytes_written);
  }

  // A message between devices (link_step.hpp): the device's link resource runs them in program
  // order, beside the engines; its time is the record's own (the fabric model's). With a peer
  // exchange, a tagged record starts no earlier than its peers allow (wait_for_peers).
  void place_link(const Instruction& ins, std::size_t i, Placement& pl) {
    Profile& prof = sched_.profile;
    pl.d = ins.declared_cycles;
    place_serial(link_, i, pl);
    wait_for_peers(ins, i, pl);
    ++prof.link_transfers;
    prof.link_ns += pl.d;
    prof.link_bytes += static_cast<double>(ins.bytes_read + ins.bytes_written);
  }

  // docs/scale-out.md section 12: pl.start is this device's arrival at the collective (operands ready,
  // link free); the record starts at max(arrival, the peers' answer) = the root's arrival for a
  // broadcast's receiver, the group's latest arrival for a symmetric collective. The gap is waiting:
  // counted apart (Profile::link_wait_*), the link resource busy through it (the rank is inside
  // the collective call).
  void wait_for_peers(const Instruction&, std::size_t, Placement&) {}  // the reference models alone


  // A DMA on its queues: partitions 8q .. 8q+7 are served by DMA engine q (DMAOV); each engine
  // moves its share.
  void place_dma(CoreState& c, const Instruction& ins, std::size_t i, Placement& pl) {
    Profile& prof = sched_.profile;
    const int nq = dma_queues_for(ins, hw_);
    pl.nq = nq;
    const double d = instruction_ns(ins, hw_, touches(ins, MemSpace::hbm) ? queue_bw_hbm_ : hw_.dma_bytes_per_ns);
    pl.d = d;
    const int p0 = std::max(0, ins.regions[0].mem == MemSpace::hbm ? ins.regions[1].p0 : ins.regions[0].p0);
    pl.q0 = std::min(hw_.dma_engines - nq, p0 / hw_.dma_partitions_per_engine);
    double first_start = std::numeric_limits<double>::infinity();
    pl.fin = 0;
    for (int k = 0; k < nq; ++k) {
      const auto [s0, blocker] = c.dma[static_cast<std::size_t>(pl.q0 + k)].place(pl.ready, d, static_cast<std::int64_t>(i));
      first_start = std::min(first_start, s0);
      if (s0 + d > pl.fin) {
        pl.fin = s0 + d;
        if (s0 > pl.ready) pl.p = blocker;  // the latest part was delayed by another transfer on its engine
      }
    }
    pl.start = first_start;
    dma_spans_[static_cast<std::size_t>(std::min(ins.core, cores_ - 1))].emplace_back(pl.start, pl.fin);
    for (int k = 0; k < nq; ++k) prof.dma_queue_busy_ns[static_cast<std::size_t>(pl.q0 + k)] += d;
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
  void place_compute_reordered(CoreState& c, const Instruction& ins, std::size_t i, Placement& pl) {
    const int e = static_cast<int>(ins.engine);
    const double d = instruction_ns(ins, hw_, 0);
    pl.d = d;
    Timeline* tls[3] = {&c.engine_tl[static_cast<std::size_t>(e)], needs_sbuf_port(ins) ? &c.port_tl[0] : nullptr,
                        needs_psum_port(ins) ? &c.port_tl[1] : nullptr};
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
    sched_.profile.busy_ns[e] += d;
  }

  // Program order per engine: after the engine's (and the shared ports') previous instruction.
  void place_compute_in_order(CoreState& c, const Instruction& ins, std::size_t i, Placement& pl) {
    const int e = static_cast<int>(ins.engine);
    const double d = instruction_ns(ins, hw_, 0);
    pl.d = d;
    const bool sbuf_port = needs_sbuf_port(ins), psum_port = needs_psum_port(ins);
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
    sched_.profile.busy_ns[e] += d;
  }

  // The instruction's reads and writes as the access states later instructions wait for.
  void record_accesses(CoreState& c, const Instruction& ins, std::size_t i, const Placement& pl) {
    const Engine E = ins.engine;
    const double fin = pl.fin;
    for (std::uint8_t r = 0; r < ins.nregions; ++r) {
      const Region& reg = ins.regions[r];
      if (reg.write && fin >= pl.start) {  // the write waited for every earlier access of its region
        AccessState st;
        st.w_end = fin;
        st.w_idx = static_cast<std::int64_t>(i);
        st.w_engine = E;
        if (reg.mem == MemSpace::hbm) {
          hbm_.assign(reg.lo, reg.hi, st);
        } else {
          SegmentTable& t = reg.mem == MemSpace::sbuf ? c.sbuf : c.psum;
          const int q0 = reg.p0 / kQuadrant,
                    q1 = std::min(kQuadrants - 1, (reg.p0 + std::max(reg.np, 1) - 1) / kQuadrant);
          t.assign(static_cast<std::int64_t>(reg.lo), static_cast<std::int64_t>(reg.hi), q0, q1, st);
        }
        continue;
      }
      visit(c, reg, true, [&](AccessState& st) {
        if (reg.write) {
          st.w_end = fin;
          st.w_idx = static_cast<std::int64_t>(i);
          st.w_engine = E;
        } else if (fin >= st.r_end) {
          st.r_end = fin;
          st.r_idx = static_cast<std::int64_t>(i);
        }
      });
    }
  }

  // Counters, the critical-path links and the timeline entry of instruction i.
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
      std::sort(spans.begin(), spans.end());
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
    std::int64_t i = static_cast<std::int64_t>(std::max_element(end_.begin(), end_.end()) - end_.begin());
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

  const Trace& trace_;
  const CostModelOptions& opt_;
  const bool reorder_;
  const HardwareSpec& hw_;
  const std::size_t n_;
  int cores_ = 1;
  double queue_bw_hbm_ = 0;
  Schedule sched_;
  std::vector<CoreState> cs_;
  HbmIntervals hbm_;
  SchedulerArrays arrays_;
  std::vector<double>& dur_;
  std::vector<double>& end_;
  std::vector<std::int64_t>& pred_;
  std::vector<std::uint8_t>& eng_;
  std::vector<std::vector<std::pair<double, double>>> dma_spans_;  // DMA transfer intervals per core
  SerialResource host_;  // one host thread runs the host steps in program order
  SerialResource link_;  // one link resource per device runs the link transfers in program order
  std::vector<std::pair<std::int64_t, double>> waits_;  // (link record, time it waited for peers), in order
};

Schedule schedule_one(const Trace& trace, const CostModelOptions& opt, bool reorder) {
  return Scheduler(trace, opt, reorder).run();
}


Schedule schedule_trace(const Trace& trace, const CostModelOptions& opt) {
  Schedule s = schedule_one(trace, opt, opt.mode == ScheduleMode::reorder);
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
}  // namespace reference

namespace {

// Every field of a profile and a timeline as bits (doubles compared by representation).
template <class T>
void put(std::vector<std::uint64_t>& out, const T& v) {
  static_assert(sizeof(T) <= 8);
  std::uint64_t u = 0;
  std::memcpy(&u, &v, sizeof v);
  out.push_back(u);
}
template <class T, std::size_t N>
void put(std::vector<std::uint64_t>& out, const std::array<T, N>& a) {
  for (const T& v : a) put(out, v);
}
std::vector<std::uint64_t> bits(const Schedule& s) {
  const Profile& p = s.profile;
  std::vector<std::uint64_t> o;
  put(o, p.target), put(o, p.mode), put(o, p.as_written_total_ns), put(o, p.reorder_total_ns), put(o, p.cores);
  put(o, p.total_ns), put(o, p.busy_ns), put(o, p.critical_ns), put(o, p.instructions), put(o, p.total_instructions);
  put(o, p.flops), put(o, p.tensor_flops), put(o, p.dma_bytes), put(o, p.critical_engine);
  put(o, p.host_steps), put(o, p.host_roundtrip_ns), put(o, p.host_critical_ns), put(o, p.host_flops), put(o, p.host_bytes);
  put(o, p.link_transfers), put(o, p.link_ns), put(o, p.link_critical_ns), put(o, p.link_bytes);
  put(o, p.link_waits), put(o, p.link_wait_ns), put(o, p.link_wait_critical_ns);
  put(o, p.roofline_ns), put(o, p.dma_active_ns);
  for (double d : p.dma_queue_busy_ns) put(o, d);
  for (const ScheduledInstruction& t : s.timeline) {
    put(o, t.start_ns), put(o, t.end_ns), put(o, t.queue), put(o, t.queues), put(o, t.depends_on), put(o, t.wait_ns);
  }
  return o;
}

// A random trace whose accesses collide: regions on a 64-byte grid of a few KiB per partition
// (SBUF/PSUM, random partition ranges across quadrants) and of three HBM buffers (row slices,
// column hulls spanning a buffer, sometimes address-increasing runs), random engines and shapes.
Trace random_trace(std::mt19937_64& rng, std::size_t records, int cores) {
  auto uni = [&](int a, int b) { return std::uniform_int_distribution<int>(a, b)(rng); };
  Trace t;
  const std::uint64_t hbm_base[3] = {0x10000000ull, 0x10040000ull, 0x20000000ull};
  std::uint64_t sweep = 0;  // an address-increasing run through SBUF
  auto onchip = [&](MemSpace m, bool write) {
    Region r;
    r.mem = m;
    r.write = write;
    r.p0 = uni(0, 127);
    r.np = uni(0, 3) == 0 ? 1 : uni(1, 128 - r.p0);
    const int span = m == MemSpace::psum ? 32 : 96;
    if (uni(0, 4) == 0) {
      r.lo = sweep;
      sweep = (sweep + 64 * static_cast<std::uint64_t>(uni(1, 4))) % (64 * span);
      r.hi = r.lo + 64 * static_cast<std::uint64_t>(uni(1, 3));
    } else {
      r.lo = 64 * static_cast<std::uint64_t>(uni(0, span - 1)) + (uni(0, 3) == 0 ? 4 * static_cast<std::uint64_t>(uni(0, 15)) : 0);
      r.hi = r.lo + 4 * static_cast<std::uint64_t>(uni(1, 256));
    }
    return r;
  };
  auto hbm = [&](bool write) {
    Region r;
    r.mem = MemSpace::hbm;
    r.write = write;
    const std::uint64_t base = hbm_base[uni(0, 2)];
    if (uni(0, 3) == 0) {  // a column view's hull: most of the buffer
      r.lo = base + 4 * static_cast<std::uint64_t>(uni(0, 63));
      r.hi = base + 0x8000 + 4 * static_cast<std::uint64_t>(uni(0, 4095));
    } else {
      r.lo = base + 256 * static_cast<std::uint64_t>(uni(0, 255));
      r.hi = r.lo + 4 * static_cast<std::uint64_t>(uni(1, 512));
    }
    return r;
  };
  const Opcode vector_ops[] = {Opcode::tensor_tensor, Opcode::tensor_scalar, Opcode::tensor_copy, Opcode::tensor_reduce,
                               Opcode::memset, Opcode::nc_transpose};
  // Equal constraints from different quadrants and bytes: identical DMAs (same size, so the same
  // duration on their own queues) into one row of each quadrant at staggered offsets, then a
  // whole-tile reader; which of the equal writers it depends on is the order the fold must keep.
  auto tie_burst = [&]() {
    const std::uint64_t lo = 64 * static_cast<std::uint64_t>(uni(0, 40));
    const int stagger = uni(0, 2);
    for (int q = 3; q >= 0; --q) {
      Instruction d;
      d.engine = Engine::dma;
      d.opcode = Opcode::dma_copy;
      d.partitions = 1;
      d.free_elems = 64;
      d.bytes_read = d.bytes_written = 256;
      Region w{MemSpace::sbuf, true, 32 * q + uni(0, 31), 1, lo + 4 * static_cast<std::uint64_t>(stagger * (q % 2)), 0};
      w.hi = w.lo + 256;
      d.add_region(w);
      d.add_region(hbm(false));
      t.instructions.push_back(d);
      ++t.per_engine[static_cast<int>(Engine::dma)];
    }
    Instruction v;
    v.engine = Engine::vector;
    v.opcode = Opcode::tensor_copy;
    v.partitions = 128;
    v.free_elems = 64;
    v.add_region(onchip(MemSpace::sbuf, true));
    v.add_region(Region{MemSpace::sbuf, false, 0, 128, lo, lo + 512});
    t.instructions.push_back(v);
    ++t.per_engine[static_cast<int>(Engine::vector)];
  };
  for (std::size_t i = 0; i < records; ++i) {
    if (uni(0, 30) == 0) tie_burst();
    Instruction ins;
    ins.index = i;
    ins.core = uni(0, cores - 1);
    ins.program = ins.core;
    ins.partitions = uni(1, 128);
    ins.free_elems = uni(1, 2048);
    ins.in_dtype = uni(0, 1) ? DType::f32 : DType::bf16;
    ins.out_dtype = uni(0, 1) ? DType::f32 : DType::bf16;
    ins.contiguous = uni(0, 3) != 0;
    ins.bytes_read = ins.bytes_written = static_cast<std::int64_t>(ins.partitions) * ins.free_elems * 4;
    const int kind = uni(0, 99);
    if (kind < 35) {  // DMA: HBM <-> SBUF, or SBUF -> SBUF
      ins.engine = Engine::dma;
      ins.opcode = Opcode::dma_copy;
      const bool load = uni(0, 1);
      if (uni(0, 5) == 0) {
        ins.add_region(onchip(MemSpace::sbuf, true));
        ins.add_region(onchip(MemSpace::sbuf, false));
      } else if (load) {
        ins.add_region(onchip(MemSpace::sbuf, true));
        ins.add_region(hbm(false));
      } else {
        ins.add_region(hbm(true));
        ins.add_region(onchip(MemSpace::sbuf, false));
      }
    } else if (kind < 50) {
      ins.engine = Engine::tensor;
      ins.opcode = Opcode::nc_matmul;
      ins.matmul_m = uni(1, 128);
      ins.accumulate = uni(0, 1);
      ins.add_region(onchip(MemSpace::psum, true));
      ins.add_region(onchip(MemSpace::sbuf, false));
      ins.add_region(onchip(MemSpace::sbuf, false));
      if (ins.accumulate) ins.add_region(onchip(MemSpace::psum, false));
    } else if (kind < 94) {
      const int e = uni(0, 2);
      ins.engine = e == 0 ? Engine::vector : e == 1 ? Engine::scalar : Engine::gpsimd;
      ins.opcode = e == 1 ? Opcode::activation : e == 2 ? Opcode::iota : vector_ops[uni(0, 5)];
      ins.subop = static_cast<std::uint8_t>(uni(0, 5));
      ins.inputs = uni(1, 2);
      ins.add_region(onchip(uni(0, 3) == 0 ? MemSpace::psum : MemSpace::sbuf, true));
      for (int k = 0; k < ins.inputs; ++k) ins.add_region(onchip(uni(0, 2) == 0 ? MemSpace::psum : MemSpace::sbuf, false));
      if (e == 1 && uni(0, 3) == 0) ins.add_region(onchip(MemSpace::sbuf, true));  // an accumulated output
    } else if (kind < 97) {  // a host round trip through HBM
      ins.engine = Engine::dma;
      ins.opcode = Opcode::host_compute;
      ins.declared_cycles = uni(1, 10000);
      ins.add_region(hbm(false));
      ins.add_region(hbm(true));
    } else {  // a link transfer (modeled alone)
      ins.engine = Engine::dma;
      ins.opcode = Opcode::link_transfer;
      ins.declared_cycles = uni(100, 5000);
      ins.add_region(hbm(uni(0, 1)));
    }
    if (ins.opcode == Opcode::host_compute)
      ++t.host_steps;
    else if (ins.opcode == Opcode::link_transfer)
      ++t.link_transfers;
    else
      ++t.per_engine[static_cast<int>(ins.engine)];
    t.instructions.push_back(ins);
  }
  return t;
}

void expect_same_schedule(const Trace& t, const CostModelOptions& opt, const char* what) {
  const Schedule want = reference::schedule_trace(t, opt);
  const Schedule got = schedule_trace(t, opt);
  ASSERT_EQ(got.timeline.size(), want.timeline.size()) << what;
  EXPECT_EQ(got.profile.total_ns, want.profile.total_ns) << what;
  EXPECT_TRUE(bits(got) == bits(want)) << what << ": a profile field or timeline entry differs";
}

TEST(CostModelReference, RandomTracesScheduleBitForBitAsTheReplacedScheduler) {
  std::mt19937_64 rng(30);
  int cases = 0;
  for (int round = 0; round < 60; ++round) {
    const int cores = round % 3 == 0 ? 2 : 1;
    const std::size_t records = round % 10 == 9 ? 3000 : 129 + static_cast<std::size_t>(round) * 23;
    const Trace t = random_trace(rng, records, cores);
    for (const ScheduleMode mode : {ScheduleMode::as_written, ScheduleMode::reorder}) {
      CostModelOptions opt;
      opt.target = round % 2 == 0 ? Generation::trn1 : Generation::trn2;
      opt.mode = mode;
      opt.keep_timeline = true;
      opt.compare_modes = round % 4 != 3;
      opt.reorder_window = round % 5 == 0 ? 4 : 64;
      expect_same_schedule(t, opt, "random trace");
      ++cases;
    }
  }
  EXPECT_EQ(cases, 120);
}

// Durations that are not numbers >= 0 (a custom operator declaring NaN, a negative or an infinite
// cost): a write then may not replace its range (its end is before its start, or NaN), the case in
// which the one-pass schedule of both modes must agree on the tables' cuts or stop and schedule
// each mode alone. Both must still give the replaced scheduler's bits.
TEST(CostModelReference, UnusualDurationsScheduleBitForBitAsTheReplacedScheduler) {
  std::mt19937_64 rng(31);
  const double declared[] = {std::numeric_limits<double>::quiet_NaN(), -5.0, -1e9, 0.0, 3.0,
                             std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (int round = 0; round < 24; ++round) {
    Trace t = random_trace(rng, 300 + static_cast<std::size_t>(round) * 17, round % 3 == 0 ? 2 : 1);
    std::size_t k = 0;
    for (Instruction& ins : t.instructions)
      if (ins.engine == Engine::gpsimd && (k++ % 3 == 0)) {
        ins.opcode = Opcode::custom_op;
        ins.declared_cycles = declared[(k + static_cast<std::size_t>(round)) % std::size(declared)];
      }
    for (const ScheduleMode mode : {ScheduleMode::as_written, ScheduleMode::reorder}) {
      CostModelOptions opt;
      opt.target = round % 2 == 0 ? Generation::trn1 : Generation::trn2;
      opt.mode = mode;
      opt.keep_timeline = true;
      opt.reorder_window = round % 4 == 0 ? 4 : 64;
      expect_same_schedule(t, opt, "unusual durations");
    }
  }
}

// A real kernel's trace: the blocked matmul (many programs on a grid of C blocks, DMA-heavy) and the
// naive tiled one, timing only.
TEST(CostModelReference, MatmulKernelTracesScheduleBitForBitAsTheReplacedScheduler) {
  HbmTensor lhsT(DType::bf16, {1024, 512}), rhs(DType::bf16, {1024, 2048}), C(DType::bf16, {512, 2048});
  LaunchConfig lc;
  lc.core.execute = false;
  const Trace naive = examples::naive_tiled_matmul(lhsT, rhs, C, lc).trace;
  examples::BlockedMatmulConfig cfg;
  cfg.block_m = 256;
  cfg.block_n = 512;
  cfg.block_k = 256;
  const Trace blocked = examples::blocked_matmul(lhsT, rhs, C, cfg, lc).trace;
  ASSERT_GT(naive.instructions.size(), 128u);
  ASSERT_GT(blocked.instructions.size(), 128u);
  for (const Trace* t : {&naive, &blocked})
    for (const ScheduleMode mode : {ScheduleMode::as_written, ScheduleMode::reorder}) {
      CostModelOptions opt;
      opt.mode = mode;
      opt.keep_timeline = true;
      expect_same_schedule(*t, opt, t == &naive ? "naive matmul" : "blocked matmul");
    }
}

}  // namespace

// A dependent chain (each instruction reads what the one before wrote, across engines and DMA):
// no instruction waits for its engine or a port in program order, the case in which schedule_trace
// takes the reorder schedule to be the as_written one without computing it; the reference computes
// both. Then the same chain with a second, independent stream interleaved, which does wait.
TEST(CostModelReference, InOrderWithoutWaitsGivesTheReorderScheduleBitForBit) {
  for (const bool interleaved : {false, true}) {
    Trace t;
    const Engine engines[] = {Engine::vector, Engine::scalar, Engine::gpsimd, Engine::tensor, Engine::dma};
    std::uint64_t at = 0;
    MemSpace read_from = MemSpace::sbuf;
    for (std::size_t i = 0; i < 400; ++i) {
      Instruction ins;
      ins.index = i;
      ins.engine = engines[i % 5];
      ins.opcode = ins.engine == Engine::tensor ? Opcode::nc_matmul
                   : ins.engine == Engine::dma  ? Opcode::dma_copy
                                                : Opcode::tensor_copy;
      ins.partitions = 128;
      ins.free_elems = 64 + static_cast<std::int64_t>(i % 7) * 32;
      ins.matmul_m = 128;
      ins.bytes_read = ins.bytes_written = 128 * ins.free_elems * 4;
      const MemSpace out = ins.engine == Engine::tensor ? MemSpace::psum : MemSpace::sbuf;
      ins.add_region(Region{out, true, 0, 128, (at + 1024) % 8192, (at + 1024) % 8192 + 1024});
      ins.add_region(Region{read_from, false, 0, 128, at % 8192, at % 8192 + 1024});  // what the one before wrote
      read_from = out;
      at += 1024;
      ++t.per_engine[static_cast<int>(ins.engine)];
      t.instructions.push_back(ins);
      if (interleaved && i % 3 == 0) {  // an independent VectorE stream: it waits for the engine
        Instruction v = ins;
        v.engine = Engine::vector;
        v.opcode = Opcode::tensor_copy;
        v.regions[0] = Region{MemSpace::sbuf, true, 0, 128, 65536, 66560};
        v.regions[1] = Region{MemSpace::sbuf, false, 0, 128, 70000, 71024};
        ++t.per_engine[static_cast<int>(Engine::vector)];
        t.instructions.push_back(v);
      }
    }
    CostModelOptions opt;
    opt.keep_timeline = true;
    expect_same_schedule(t, opt, interleaved ? "interleaved chains" : "dependent chain");
    const Schedule s = schedule_trace(t, opt);
    if (!interleaved) {
      EXPECT_EQ(s.profile.reorder_total_ns, s.profile.as_written_total_ns);
    }
  }
}

// ---- The schedule memo of long traces (core/src/cost_model.cpp, "The schedule memo") -----------
namespace trn::detail {
std::int64_t schedule_memo_long_hits();  // test hook: this thread's long-trace memo hits so far
}  // namespace trn::detail

namespace {

// A schedule's profile fields (bits(), without a timeline).
std::vector<std::uint64_t> profile_bits(Schedule s) {
  s.timeline.clear();
  return bits(s);
}

// The trace with every HBM endpoint moved by a strictly increasing map (another call's buffers).
Trace hbm_moved(const Trace& t) {
  Trace m = t;
  for (Instruction& ins : m.instructions)
    for (std::uint8_t r = 0; r < ins.nregions; ++r)
      if (ins.regions[r].mem == MemSpace::hbm) {
        ins.regions[r].lo = 2 * ins.regions[r].lo + 0x40000000ull;
        ins.regions[r].hi = 2 * ins.regions[r].hi + 0x40000000ull;
      }
  return m;
}

}  // namespace

// A long trace (more than the 256 records of the short memo) is scheduled afresh at its first
// sighting, keyed and kept at its second, and answered from the memo from its third on, also with
// its HBM buffers elsewhere in the same order: every answer equal, field by field, to the reference
// scheduler's profile of that trace.
TEST(CostModelReference, LongTraceMemoHitIsTheFreshScheduleBitForBit) {
  std::mt19937_64 rng(32);
  for (int round = 0; round < 6; ++round) {
    const Trace t = random_trace(rng, 300 + static_cast<std::size_t>(round) * 700, round % 3 == 0 ? 2 : 1);
    CostModelOptions opt;
    opt.target = round % 2 == 0 ? Generation::trn1 : Generation::trn2;
    opt.mode = round % 2 == 0 ? ScheduleMode::as_written : ScheduleMode::reorder;
    opt.compare_modes = round % 4 != 3;
    const std::vector<std::uint64_t> want = profile_bits(reference::schedule_trace(t, opt));
    const std::int64_t hits = detail::schedule_memo_long_hits();
    for (int call = 0; call < 3; ++call)
      EXPECT_TRUE(profile_bits(schedule_trace(t, opt)) == want) << "round " << round << " call " << call;
    EXPECT_EQ(detail::schedule_memo_long_hits() - hits, 1) << "round " << round;
    const Trace moved = hbm_moved(t);
    EXPECT_TRUE(profile_bits(schedule_trace(moved, opt)) == profile_bits(reference::schedule_trace(moved, opt)))
        << "round " << round;
    EXPECT_EQ(detail::schedule_memo_long_hits() - hits, 2) << "round " << round;
  }
}

// A long trace kept in the memo, then traces that differ from it in one record (first, middle or
// last; one field, or one region's bounds, on chip or in HBM, the HBM change reordering the
// endpoints): the first sighting of each is a miss (keyed against the kept trace when only regions
// changed), and every answer is the reference scheduler's profile of the variant.
TEST(CostModelReference, LongTraceMemoMissesOnAnyOneRecordDifference) {
  std::mt19937_64 rng(33);
  const Trace t = random_trace(rng, 1500, 1);
  CostModelOptions opt;
  for (int call = 0; call < 3; ++call) (void)schedule_trace(t, opt);
  const std::size_t n = t.instructions.size();
  int variants = 0;
  for (const std::size_t k : {std::size_t{0}, n / 2, n - 1}) {
    for (int change = 0; change < 6; ++change) {
      Trace v = t;
      Instruction& ins = v.instructions[k];
      Region* onchip = nullptr;
      Region* hbm = nullptr;
      for (std::uint8_t r = 0; r < ins.nregions; ++r) (ins.regions[r].mem == MemSpace::hbm ? hbm : onchip) = &ins.regions[r];
      switch (change) {
        case 0: ins.free_elems += 1; break;
        case 1: ins.index += 1; break;
        case 2: ins.declared_cycles += 1; break;
        case 3:
          if (onchip == nullptr) continue;
          onchip->hi += 4;
          break;
        case 4:
          if (onchip == nullptr) continue;
          onchip->p0 = onchip->p0 > 0 ? onchip->p0 - 1 : onchip->p0 + 1;
          break;
        case 5:
          if (hbm == nullptr) continue;
          hbm->lo = 0x18000000ull;  // between two buffers: every later endpoint's rank moves
          hbm->hi = hbm->lo + 64;
          break;
      }
      const std::vector<std::uint64_t> want = profile_bits(reference::schedule_trace(v, opt));
      const std::int64_t hits = detail::schedule_memo_long_hits();
      EXPECT_TRUE(profile_bits(schedule_trace(v, opt)) == want) << "record " << k << " change " << change;
      EXPECT_EQ(detail::schedule_memo_long_hits(), hits) << "record " << k << " change " << change << ": first sighting";
      // The second sighting: a miss, or (when the first was keyed: only the regions changed, which
      // the fingerprint leaves out) a hit on the variant's own entry. Either way its own profile.
      EXPECT_TRUE(profile_bits(schedule_trace(v, opt)) == want) << "record " << k << " change " << change;
      EXPECT_LE(detail::schedule_memo_long_hits() - hits, 1) << "record " << k << " change " << change;
      ++variants;
    }
  }
  EXPECT_GE(variants, 12);
}
