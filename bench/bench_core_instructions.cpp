// Host cost of an emulated instruction (issue #30, "instructions cost under a microsecond"), over
// the instruction stream of one trnsolver spotrf call (default n = 2048, lower, 1 host thread).
//
// The core's instruction probe (core/src/engine_util.hpp, off by default) stamps the time-stamp
// counter at every committed instruction; an instruction's host cost is the interval since the
// previous commit on the same thread: the driver's code that issues it, argument checks,
// dispatch, element work and its trace record. The first instruction of each program also carries
// the launch / report of the call (per-call overhead, another issue item): those intervals are
// counted apart. The cost model's share per record is the time of schedule_trace over the captured
// records (report.cpp's options) divided by their count.
//
// Printed: median / p90 per instruction overall and for instructions of <= 128 x 512 elements, the
// same per opcode (with the share of the stream's time), and the element-work rate (bytes read +
// written per second of interval) of large VectorE/ScalarE/GpSimdE instructions next to this
// host's streaming rates (memcpy and an fp32 a + b loop) on 256 KiB (cache-resident, like SBUF
// tiles) and 64 MiB (memory) buffers.
//
// Each interval is the least over three identical calls (drops preemptions on a shared machine).
//
//   bench_core_instructions [n] [host_threads] [cost-model repetitions, default 3]
#include <x86intrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine_util.hpp"
#include "trn/core/core.hpp"
#include "trn/solver/solver.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// A diagonally dominant symmetric matrix (SPD), column-major.
std::vector<float> spd_matrix(int n) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> a(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) {
      const float v = i == j ? static_cast<float>(n) : u(rng);
      a[i + static_cast<std::size_t>(j) * n] = a[j + static_cast<std::size_t>(i) * n] = v;
    }
  return a;
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

struct Kind {
  std::vector<double> ns;
  double total_ns = 0, elems = 0;
  double large_bytes = 0, large_ns = 0;  // instructions of >= 64 x 512 elements
};

// GB/s (read + written bytes) of the best of `reps` passes of f over `bytes`-sized buffers.
template <class F> double best_rate(double bytes_moved, int reps, F&& f) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    f();
    best = std::min(best, seconds_since(t0));
  }
  return bytes_moved / best * 1e-9;
}

void stream_rates(std::size_t bytes, double& copy_gbs, double& add_gbs) {
  const std::size_t n = bytes / 4;
  std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n, 0.0f);
  const int reps = bytes > (1u << 24) ? 5 : 2000;
  copy_gbs = best_rate(2.0 * static_cast<double>(bytes), reps, [&] {
    std::memcpy(c.data(), a.data(), bytes);
    asm volatile("" ::"r"(c.data()) : "memory");
  });
  add_gbs = best_rate(3.0 * static_cast<double>(bytes), reps, [&] {
    float* __restrict cc = c.data();
    const float* __restrict aa = a.data();
    const float* __restrict bb = b.data();
    for (std::size_t i = 0; i < n; ++i) cc[i] = aa[i] + bb[i];
    asm volatile("" ::"r"(cc) : "memory");
  });
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2048;
  trn::solver::Settings s;
  s.host_threads = argc > 2 ? std::atoi(argv[2]) : 1;
  const std::vector<float> a0 = spd_matrix(n);
  std::vector<float> a = a0;
  trn::solver::CallReport rep;
  if (trn::solver::spotrf(s, trn::solver::Uplo::lower, n, a.data(), n, &rep) != 0) {  // warm-up
    std::fprintf(stderr, "spotrf failed\n");
    return 1;
  }
  // The stream is deterministic: each instruction's interval is the least over `runs` calls, which
  // drops the preemptions of a shared machine (the raw single-call figures are printed too).
  constexpr int kRuns = 3;
  std::vector<trn::detail::InstrProbeSample> samples;
  std::vector<double> best_ns;
  double call_s = 1e30;
  for (int run = 0; run < kRuns; ++run) {
    a = a0;
    (void)trn::detail::instr_probe_take();
    trn::detail::g_instr_probe.store(true);
    const auto t0 = Clock::now();
    const std::uint64_t c0 = __rdtsc();
    trn::solver::spotrf(s, trn::solver::Uplo::lower, n, a.data(), n, &rep);
    const std::uint64_t c1 = __rdtsc();
    const double t = seconds_since(t0);
    trn::detail::g_instr_probe.store(false);
    std::vector<trn::detail::InstrProbeSample> got = trn::detail::instr_probe_take();
    // Per thread, in commit order (a stable sort keeps each thread's order).
    std::stable_sort(got.begin(), got.end(), [](const auto& x, const auto& y) { return x.thread < y.thread; });
    const double tick = t * 1e9 / static_cast<double>(c1 - c0);
    if (run > 0 && got.size() != samples.size()) {
      std::fprintf(stderr, "the instruction stream changed between calls (%zu vs %zu)\n", got.size(), samples.size());
      return 1;
    }
    if (run == 0) best_ns.assign(got.size(), 1e30);
    for (std::size_t i = 1; i < got.size(); ++i)
      best_ns[i] = std::min(best_ns[i], static_cast<double>(got[i].tsc - got[i - 1].tsc) * tick);
    if (t < call_s) call_s = t;
    samples = std::move(got);
  }

  // Intervals per thread, in commit order (a stable sort keeps each thread's order).
  std::map<std::string, Kind> kinds;
  std::vector<double> all, small, firsts;
  double stream_ns = 0, elem_bytes = 0, elem_ns = 0;
  for (std::size_t i = 1; i < samples.size(); ++i) {
    const auto& prev = samples[i - 1];
    const auto& cur = samples[i];
    if (cur.thread != prev.thread) continue;
    const double ns = best_ns[i];
    if (cur.ins.index == 0 || cur.ins.program != prev.ins.program) {  // carries a launch / report
      firsts.push_back(ns);
      continue;
    }
    const trn::Instruction& ins = cur.ins;
    const double dma_bytes = ins.engine == trn::Engine::dma ? std::max(1, trn::dtype_size(ins.in_dtype)) : 1;
    const double elems = static_cast<double>(ins.partitions) * static_cast<double>(ins.free_elems) / dma_bytes;
    std::string key(trn::opcode_name(ins.opcode));
    key += "/" + std::string(trn::engine_name(ins.engine));
    Kind& k = kinds[key];
    k.ns.push_back(ns);
    k.total_ns += ns;
    k.elems += elems;
    all.push_back(ns);
    if (elems <= 128.0 * 512.0) small.push_back(ns);
    stream_ns += ns;
    const bool elementwise = ins.opcode == trn::Opcode::tensor_tensor || ins.opcode == trn::Opcode::tensor_copy ||
                             ins.opcode == trn::Opcode::activation || ins.opcode == trn::Opcode::tensor_scalar;
    if (elems >= 64.0 * 512.0) {
      k.large_bytes += static_cast<double>(ins.bytes_read + ins.bytes_written);
      k.large_ns += ns;
    }
    if (elementwise && elems >= 64.0 * 512.0) {
      elem_bytes += static_cast<double>(ins.bytes_read + ins.bytes_written);
      elem_ns += ns;
    }
  }

  // The cost model's work per record, as report.cpp schedules a call's trace.
  trn::Trace trace;
  trace.reserve(samples.size());
  for (const auto& x : samples) {
    trace.instructions.push_back(x.ins);
    if (x.ins.opcode == trn::Opcode::host_compute)
      ++trace.host_steps;
    else
      ++trace.per_engine[static_cast<int>(x.ins.engine)];
  }
  trn::CostModelOptions opt;
  opt.target = trn::Generation::trn1;
  double model_ns = 1e30;  // the best run (this thread's CPU time: robust on a shared machine)
  trn::Schedule sched;
  const int model_runs = argc > 3 ? std::atoi(argv[3]) : 3;  // more: a profile of the cost model alone
  for (int r = 0; r < model_runs; ++r) {
    const double m0 = thread_cpu_seconds();
    sched = trn::schedule_trace(trace, opt);
    model_ns = std::min(model_ns, (thread_cpu_seconds() - m0) * 1e9 / static_cast<double>(std::max<std::size_t>(1, samples.size())));
  }

  std::printf("spotrf n=%d, %d host thread(s): %zu instructions, best of %d calls %.1f ms host (%.2f us per instruction), "
              "modeled %.1f us on trn1\n",
              n, s.host_threads, samples.size(), kRuns, call_s * 1e3, call_s * 1e6 / static_cast<double>(samples.size()),
              sched.profile.total_ns * 1e-3);
  std::printf("per-instruction host cost (least interval between commits over the calls), ns:  median %.0f  p90 %.0f  mean %.0f  (%zu)\n",
              quantile(all, 0.5), quantile(all, 0.9), stream_ns / static_cast<double>(std::max<std::size_t>(1, all.size())),
              all.size());
  std::printf("  instructions of <= 128 x 512 elements:                   median %.0f  p90 %.0f  (%zu)\n",
              quantile(small, 0.5), quantile(small, 0.9), small.size());
  std::printf("  + cost model per record (schedule_trace / records):      %.0f\n", model_ns);
  std::printf("  first instruction of a program (carries launch/report):  median %.0f  p90 %.0f  (%zu)\n\n",
              quantile(firsts, 0.5), quantile(firsts, 0.9), firsts.size());
  std::printf("%-26s %8s %9s %9s %7s %11s %13s\n", "opcode/engine", "count", "median ns", "p90 ns", "share", "mean elems",
              "GB/s >=64x512");
  for (const auto& [key, k] : kinds) {
    std::printf("%-26s %8zu %9.0f %9.0f %6.1f%% %11.0f", key.c_str(), k.ns.size(), quantile(k.ns, 0.5),
                quantile(k.ns, 0.9), 100.0 * k.total_ns / stream_ns, k.elems / static_cast<double>(k.ns.size()));
    if (k.large_ns > 0)
      std::printf(" %13.1f", k.large_bytes / k.large_ns);
    std::printf("\n");
  }
  double copy_small = 0, add_small = 0, copy_big = 0, add_big = 0;
  stream_rates(256u << 10, copy_small, add_small);
  stream_rates(64u << 20, copy_big, add_big);
  std::printf("\nelement work of tensor_tensor/tensor_copy/activation/tensor_scalar with >= 64 x 512 elements: "
              "%.1f GB/s (bytes read + written per second of interval)\n",
              elem_ns > 0 ? elem_bytes / elem_ns : 0.0);
  std::printf("host streaming: memcpy %.1f GB/s, fp32 a+b %.1f GB/s on 256 KiB; memcpy %.1f, a+b %.1f GB/s on 64 MiB\n",
              copy_small, add_small, copy_big, add_big);
  return 0;
}
