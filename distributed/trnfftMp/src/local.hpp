// trnfftMp internals shared by the slab (slab.cpp), pencil (pencil.cpp) and box (box.cpp) plans:
// the device settings of one rank, the all-to-all cost, a local plan's prediction and execution.
// Not installed.
#pragma once
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "trn/core/fabric.hpp"
#include "trn/core/report.hpp"
#include "trn/fft/fft.hpp"

namespace trn::fftmp::detail {

// The settings of one emulated device: every NeuronCore of the chip (as trnblasMp's ranks).
inline fft::Settings device_settings(fft::Settings s) {
  s.num_cores = hardware_spec(s.target).cores_per_device;
  return s;
}

// A personalized all-to-all among the set: p - 1 steps, this device's larger direction (what it
// sends to / receives from the others; its own share is a local copy) over its ring bandwidth --
// trnblasMp's assumption for its redistribution (docs/scale-out.md): no contention, no bisection limit.
inline double alltoall_ns(const FabricSpec& f, const RankSet& set, double send_bytes, double recv_bytes) {
  if (set.count <= 1) return 0;
  const bool cross = set.crosses_instances(f);
  return (set.count - 1) * f.step_latency_ns(cross) + std::max(send_bytes, recv_bytes) / f.ring_bytes_per_ns(cross);
}

// A transpose's own block (what a rank keeps) is a DMA re-layout through the device's HBM: read and
// written once, at the chip's HBM bandwidth; it runs beside the link transfer of the rest, so a
// transpose takes the longer of the two (slabs, pencils and boxes).
inline double relayout_ns(Generation target, double kept_bytes) { return 2 * kept_bytes / hardware_spec(target).hbm_bytes_per_ns; }

// Modeled time of one local plan of `full` transforms of `points` points each, as spec_for(batch)
// makes it, predicted at most 2^20 points (the dry run needs host memory in proportion to the data)
// and scaled by the batch ratio beyond. The axis-0 plan keeps its access pattern when narrowed:
// spec_for(b) is a shuffled slab of b columns (stride b), whose per-point cost is at most the wider
// slab's (trnfft's strided pass gets cheaper per point as the runs grow: docs/scale-out.md 9.1).
struct LocalPrediction {
  double ns = 0, roofline_ns = 0, bound = 0;
  bool scaled = false;
};
template <class SpecFor>
LocalPrediction predict_local(const fft::Settings& s, std::int64_t full, std::int64_t points, SpecFor&& spec_for) {
  LocalPrediction r;
  constexpr std::int64_t kCap = std::int64_t{1} << 20;
  const std::int64_t b = std::clamp<std::int64_t>(kCap / std::max<std::int64_t>(points, 1), 1, std::max<std::int64_t>(full, 1));
  const fft::Plan plan(spec_for(b), s);
  r.bound = plan.error_bound();
  if (full <= 0) return r;  // this rank has no planes / columns: only the bound (the plan never runs)
  r.scaled = b < full;
  const double scale = static_cast<double>(full) / static_cast<double>(b);
  r.ns = plan.modeled_ns() * scale;
  r.roofline_ns = plan.modeled_profile().roofline_bound_ns() * scale;
  return r;
}

// Runs one local plan (null: this rank has nothing for it) and appends its trace.
inline void run_local(const fft::Plan* plan, const void* in, void* out, int direction, Trace& trace) {
  if (plan == nullptr) return;
  fft::ExecReport r;
  r.plans_wanted = false;
  plan->execute(in, out, direction, &r);
  trace.append(std::move(r.trace));
}

// A real plan has one direction: R2C / D2Z forward, C2R / Z2D inverse; a complex one either.
inline bool direction_allowed(fft::Type t, int direction) {
  if (t == fft::Type::r2c || t == fft::Type::d2z) return direction == fft::kForward;
  if (t == fft::Type::c2r || t == fft::Type::z2d) return direction == fft::kInverse;
  return direction == fft::kForward || direction == fft::kInverse;
}

// An execution's argument exchange (every rank passes its local verdict and the direction; all
// throw together): Error on an MPI failure, UsageError when the directions differ or a rank's
// arguments are bad (`bad` says why).
void agree_execution(MPI_Comm comm, bool local_ok, int direction, const char* bad);
// A trace that starts with the argument exchange's latency-only link record (over comm's `ranks`).
Trace execution_trace(Generation target, int ranks, MPI_Comm comm);
// The report of an execution from its trace (the plan text when the caller wants plans).
void finish_execution(fft::ExecReport* report, Trace&& trace, const fft::Settings& settings, const std::string& plan_text);

}  // namespace trn::fftmp::detail
