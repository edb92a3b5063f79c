// Cost model: turns an instruction trace into per-engine time on trn1 / trn2 / trn3.
//
// Per-instruction cost comes from the documented formulas (ISA-OLD, ARCH2/3, PERF; docs/references.md);
// a discrete-event schedule then runs each engine's instruction stream in program order (or, in
// ScheduleMode::reorder, list-scheduled within a bounded look-ahead window, as a compiler orders
// it): an instruction starts when its engine (for DMA: enough of the 16 DMA queues) is free, every earlier
// instruction it depends on through overlapping memory regions (read-after-write, write-after-read,
// write-after-write) has produced its result, and shared ports are free (NC-v2: VectorE/GpSimdE on
// SBUF, VectorE/ScalarE on PSUM). Every undocumented constant and its expected error is listed in
// docs/cost-model.md; the constants live in the HardwareSpec table.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "trn/core/hardware.hpp"
#include "trn/core/trace.hpp"
#include "trncore.h"

namespace trn {

class LinkPeerExchange;  // link_step.hpp

// Occupancy of one instruction on its engine, in that engine's cycles (DMA: nanoseconds of one
// queue) — the documented per-instruction formula, before any dependency stall.
double instruction_cycles(const Instruction& ins, const HardwareSpec& hw);
// Same, in nanoseconds (cycles / engine clock); for DMA the transfer time on each queue it uses.
double instruction_ns(const Instruction& ins, const HardwareSpec& hw, double dma_bytes_per_ns_per_queue);
// Floating-point operations of an instruction (2*K*M*N for nc_matmul, elements for element-wise;
// 0 for host steps, whose fp64 flops Profile::host_flops counts).
double instruction_flops(const Instruction& ins);
// The instruction's work at its engine's peak rate, in ns (the roofline's per-engine bound;
// docs/cost-model.md section 8): TensorE P*M*N / (pmax * stationary fmax) cycles at the input type's
// pass count (fp32: 4 passes), Vector/Scalar/GpSimd one element per partition lane per cycle (VectorE
// 16-bit perf mode: 4), DMA its bytes over every queue at the best achievable rate
// (hbm_queue_bytes_per_ns for an HBM endpoint). Never more than instruction_ns; 0 for host steps.
double instruction_roofline_ns(const Instruction& ins, const HardwareSpec& hw, double hbm_queue_bytes_per_ns);

// The cost of host round trips (record_host_step; docs/cost-model.md section 7). The rates are the
// target's HardwareSpec row unless overridden here: they are documented choices, not published
// figures, so a study can replace them (or switch host steps off: `enabled = false` costs them 0 ns,
// the device-only view).
struct HostCostOptions {
  bool enabled = true;
  double link_bytes_per_ns = 0;   // > 0: replaces HardwareSpec::host_link_bytes_per_ns
  double fp64_flops_per_ns = 0;   // > 0: replaces HardwareSpec::host_fp64_flops_per_ns
  double roundtrip_ns = -1;       // >= 0: replaces HardwareSpec::host_roundtrip_ns
};
// Time of one host_compute record: roundtrip + (bytes to the host + bytes back) / link + flops / rate.
double host_step_ns(const Instruction& ins, const HardwareSpec& hw, const HostCostOptions& host = {});
// The same for a step that moves `bytes` over the link (both directions) and does `flops`: what a
// plan predicts for a host step before it is recorded.
double host_step_ns(double bytes, double flops, const HardwareSpec& hw, const HostCostOptions& host = {});

// How each compute engine's instruction stream is ordered (docs/cost-model.md section 2).
//  as_written: the author's program order (engines run their streams in order; the default).
//  reorder:    compiler-style list scheduling: an instruction may start before earlier independent
//              instructions of its engine (up to reorder_window of them) as soon as its dependencies
//              (SBUF/PSUM/HBM read/write sets, i.e. the semaphores) allow, as the Neuron compiler
//              orders each engine's stream within the dependency graph.
enum class ScheduleMode : std::uint8_t { as_written, reorder };

struct Profile {
  Generation target = Generation::trn1;
  ScheduleMode mode = ScheduleMode::as_written;
  // Total modeled time in both modes when the schedule computed both (CostModelOptions::
  // compare_modes; 0 when not computed). total_ns is the one of `mode`.
  double as_written_total_ns = 0, reorder_total_ns = 0;
  int cores = 1;
  double total_ns = 0;
  std::array<double, kEngineCount> busy_ns{};      // per engine (DMA: queue-time / queues)
  std::array<double, kEngineCount> critical_ns{};  // time each engine contributes to the critical path
  std::array<std::int64_t, kEngineCount> instructions{};
  std::int64_t total_instructions = 0;  // engine instructions (host steps: host_steps)
  double flops = 0;            // all engines
  double tensor_flops = 0;     // TensorE matmul flops
  double dma_bytes = 0;
  Engine critical_engine = Engine::tensor;  // among the engines (host time: host_critical_ns)

  // Host round trips (host_compute records), apart from the engines: their number, the time the host
  // link and CPU take (summed; one host thread runs them in order), the part of it on the critical
  // path (included in total_ns), their fp64 flops and the bytes they move over the host link.
  std::int64_t host_steps = 0;
  double host_roundtrip_ns = 0;
  double host_critical_ns = 0;
  double host_flops = 0;
  double host_bytes = 0;

  // Messages between devices (link_transfer records, link_step.hpp; docs/scale-out.md): their number,
  // the time the device's link resource is busy (summed; they run in order), the part of it on the
  // critical path (included in total_ns) and the bytes sent plus received. Communication that
  // overlaps compute is link_ns - link_critical_ns.
  std::int64_t link_transfers = 0;
  double link_ns = 0;
  double link_critical_ns = 0;
  double link_bytes = 0;
  // Waiting for peers (a schedule given a LinkPeerExchange; docs/scale-out.md section 7): the link
  // transfers that started later than this device reached them because a peer reached them later
  // (a broadcast's root, or the last member of a symmetric collective), the time they waited (summed)
  // and the part of it on the critical path (inside total_ns, in no engine's or the link's critical
  // time). 0 when modeled alone.
  std::int64_t link_waits = 0;
  double link_wait_ns = 0;
  double link_wait_critical_ns = 0;

  // Roofline (docs/cost-model.md section 8): per engine, its instructions' work at the engine's peak
  // rate (instruction_roofline_ns), summed over cores. roofline_bound_ns() is the largest of the
  // per-core engine bounds, the host round trips' time and the link transfers' time; roofline() =
  // total_ns / that bound >= 1.
  std::array<double, kEngineCount> roofline_ns{};
  double roofline_bound_ns() const;
  double roofline() const;
  // The engine whose bound is the largest ("host" when the host round trips are, "link" when the
  // link transfers are).
  std::string_view roofline_engine() const;

  // neuron-profile's per-core views, averaged over cores:
  //  - DMA active: the share of the kernel's span in which at least one DMA queue has a transfer
  //    in flight (dma_active_ns, the union of transfer intervals per core, summed over cores);
  //  - per DMA queue: dma_queue_busy_ns[q] (summed over cores);
  //  - compute engines: busy / span (the same as utilization()).
  double dma_active_ns = 0;
  std::vector<double> dma_queue_busy_ns;

  double utilization(Engine e) const;  // busy / (total * cores); DMA: average over the queues
  double active_fraction(Engine e) const;  // "active %" as neuron-profile reports it (see above)
  double dma_gbps() const { return total_ns > 0 ? dma_bytes / total_ns : 0; }
  double tensor_peak_fraction() const;  // tensor_flops / (peak * cores * total)
  double tensor_tflops() const { return total_ns > 0 ? tensor_flops / total_ns * 1e-3 : 0; }
  trnProfile_t to_c() const;
  static Profile from_c(const trnProfile_t& p);  // the inverse of to_c for the fields the C struct has
  std::string summary() const;  // compact multi-line text
};

struct ScheduledInstruction {
  double start_ns = 0, end_ns = 0;
  std::int32_t queue = -1;        // DMA: first queue used; compute engines: -1
  std::int32_t queues = 0;        // DMA: number of queues used
  std::int64_t depends_on = -1;   // index (in the trace) of the instruction that set the start, if a dependency did
  double wait_ns = 0;             // link transfers: time waited for peers before start_ns (Profile::link_wait_ns)
};

struct CostModelOptions {
  Generation target = Generation::trn1;
  int num_cores = 0;            // 0: one more than the largest core index in the trace
  bool keep_timeline = false;   // fill Schedule::timeline (needed for the Perfetto trace)
  ScheduleMode mode = ScheduleMode::as_written;
  int reorder_window = 64;      // look-ahead of the reorder mode, in instructions per engine
  bool compare_modes = true;    // also schedule in the other mode (Profile::*_total_ns)
  HostCostOptions host{};       // host round-trip rates (docs/cost-model.md section 7)
  // A multi-rank call's peers (link_step.hpp): tagged link records wait for their peers' arrival.
  // Null: every record is modeled alone. Not null makes the schedule collective over the records'
  // groups (it is never memoised).
  LinkPeerExchange* link_peers = nullptr;
};

struct Schedule {
  Profile profile;
  std::vector<ScheduledInstruction> timeline;  // parallel to trace.instructions when kept
};

Schedule schedule_trace(const Trace& trace, const CostModelOptions& opt);
inline Profile model_profile(const Trace& trace, Generation target) {
  CostModelOptions opt;
  opt.target = target;
  return schedule_trace(trace, opt).profile;
}

// Chrome trace-event JSON (opens in ui.perfetto.dev): one process per emulated core, one track per
// engine and per DMA queue, a "host" process with one track for the host round trips, flow arrows
// for cross-engine dependencies (at most max_flows).
std::string perfetto_json(const Trace& trace, const Schedule& schedule, std::size_t max_flows = 200000);

}  // namespace trn
