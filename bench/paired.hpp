// Side-by-side timing for a machine whose speed drifts (shared VMs: the same binary varies by 10-20%
// from one second to the next). Each benchmark iteration runs our code and the reference once,
// back to back, timing each; the reported ratio is the median of the per-pair ratios, so a slow
// phase of the machine affects both sides of a pair alike. GFLOP/s of each side come from the
// summed times.
#pragma once
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace trnsci::bench {

struct PairedResult {
  double ours_gflops = 0, ref_gflops = 0, median_ratio = 0;  // ratio = ours / ref throughput
};

template <class Ours, class Ref>
PairedResult run_paired(benchmark::State& st, double flops_per_call, Ours&& ours, Ref&& ref) {
  using clock = std::chrono::steady_clock;
  std::vector<double> ratios;
  double t_ours = 0, t_ref = 0;
  for (auto _ : st) {
    const auto t0 = clock::now();
    ours();
    const auto t1 = clock::now();
    ref();
    benchmark::ClobberMemory();
    const auto t2 = clock::now();
    const double a = std::chrono::duration<double>(t1 - t0).count(), b = std::chrono::duration<double>(t2 - t1).count();
    t_ours += a;
    t_ref += b;
    ratios.push_back(b / a);
  }
  PairedResult r;
  if (ratios.empty()) return r;
  std::sort(ratios.begin(), ratios.end());
  const std::size_t n = ratios.size();
  r.median_ratio = n % 2 ? ratios[n / 2] : 0.5 * (ratios[n / 2 - 1] + ratios[n / 2]);
  const double calls = static_cast<double>(n);
  r.ours_gflops = flops_per_call * calls / t_ours * 1e-9;
  r.ref_gflops = flops_per_call * calls / t_ref * 1e-9;
  st.counters["ours_GFLOP/s"] = r.ours_gflops;
  st.counters["ref_GFLOP/s"] = r.ref_gflops;
  st.counters["ratio"] = r.median_ratio;
  return r;
}

}  // namespace trnsci::bench
