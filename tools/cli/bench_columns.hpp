// Issue #30's two columns of every `trnsci bench` row, computed centrally from the row's profile:
//  - emulator bound: the least host time the emulator could take for the row's trace on this host:
//    the TensorE multiply-adds at the host's measured SGEMM rate, every other engine's element
//    operations at the measured streaming rate, DMA bytes at the measured copy rate, and the host
//    steps at their recorded sizes (fp64 flops at the SGEMM rate, link bytes at the copy rate; an
//    optimistic figure for scalar fp64 loops, so the bound stays a lower bound). The column is
//    host time / emulator bound.
//  - roofline of the modeled device time: modeled / max(TensorE, VectorE, ScalarE, GpSimdE, DMA,
//    host round-trip bound) (trn::Profile::roofline; docs/cost-model.md section 8).
// The host rates are measured once per run (measure_host_rates) and printed in the bench header.
#pragma once
#include <string>

#include "registry.hpp"

namespace trnsci::cli {

struct HostRates {
  double sgemm_flops_per_s = 0;      // OpenBLAS SGEMM 1024^3, `threads` threads, best of 3
  double stream_elements_per_s = 0;  // fp32 y = a x + y over 16 Mi elements (out of cache), `threads` threads
  double copy_bytes_per_s = 0;       // memcpy of 64 MiB (bytes copied), `threads` threads
  int threads = 0;
  bool measured() const { return sgemm_flops_per_s > 0 && stream_elements_per_s > 0 && copy_bytes_per_s > 0; }
};

// threads: the host threads the rows run on (`trnsci bench --threads`, which also sets the
// emulator's TRN_NUM_THREADS and OpenBLAS's thread count); 0 = every hardware thread.
HostRates measure_host_rates(int threads = 0);

// Seconds the emulator needs at least for the work `d` records (0 when it records none).
inline double emulator_bound_seconds(const DeviceCost& d, const HostRates& h) {
  if (!d.present || !h.measured()) return 0;
  return (d.tensor_flops + d.host_flops) / h.sgemm_flops_per_s + d.element_ops / h.stream_elements_per_s +
         (d.dma_bytes + d.host_bytes) / h.copy_bytes_per_s;
}

// The roofline the issue sets for a row (docs/cli.md): 1.15 (trn1) / 1.05 (trn2+) for the NKI
// tutorial's GEMM 4096x8192x8192, 1.05 for FFT, 1.5 for every other row at its large size.
double roofline_target(const BenchCase& c, const std::string& target);

// Why a row's modeled time is above its roofline bound, read off its profile: the bound engine's
// instructions below their peak rate (fixed costs, idle partition lanes, short free sizes), the
// busiest engine idle part of the time (dependencies, serialised engines), or host round trips.
std::string roofline_reason(const DeviceCost& d);

}  // namespace trnsci::cli
