#include "registry.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <fstream>

namespace trnsci::cli {

Registry& Registry::get() {
  static Registry r;
  return r;
}

std::vector<std::string> Registry::suites() const {
  std::vector<std::string> s;
  for (const auto& c : validation_)
    if (std::find(s.begin(), s.end(), c.suite) == s.end()) s.push_back(c.suite);
  for (const auto& c : bench_)
    if (std::find(s.begin(), s.end(), c.suite) == s.end()) s.push_back(c.suite);
  return s;
}

DeviceCost DeviceCost::from(const trn::Profile& p) {
  DeviceCost d;
  d.present = true;
  d.target = std::string(trn::hardware_spec(p.target).name);
  d.total_ns = p.total_ns;
  d.tensor_utilization = p.utilization(trn::Engine::tensor);
  for (int e = 0; e < trn::kEngineCount; ++e) {
    d.busy_ns[e] = p.busy_ns[e];
    d.utilization[e] = p.utilization(static_cast<trn::Engine>(e));
  }
  d.roofline = p.roofline();
  d.roofline_ns = p.roofline_ns;
  d.cores = std::max(p.cores, 1);
  d.host_roundtrip_ns = p.host_roundtrip_ns;
  d.roofline_engine = std::string(p.roofline_engine());
  d.tensor_flops = p.tensor_flops;
  d.element_ops = p.flops - p.tensor_flops;
  d.dma_bytes = p.dma_bytes;
  d.host_flops = p.host_flops;
  d.host_bytes = p.host_bytes;
  d.instructions = p.total_instructions;
  d.host_steps = p.host_steps;
  return d;
}

std::string sci(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

namespace {
BenchClock g_bench_clock = BenchClock::wall;
}  // namespace

void set_bench_clock(BenchClock c) { g_bench_clock = c; }
BenchClock bench_clock() { return g_bench_clock; }

double now_seconds() {
  if (g_bench_clock == BenchClock::process_cpu) {
    // CPU seconds of every thread of this process (POSIX CLOCK_PROCESS_CPUTIME_ID): what the rows
    // and the host rates cost the process, whatever else the machine runs (docs/cli.md, --clock).
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
double seconds_since(double start) { return now_seconds() - start; }

double best_seconds(int reps, const std::function<void()>& f) {
  double best = 1e300;
  for (int i = 0; i < reps; ++i) {
    const double t0 = now_seconds();
    f();
    best = std::min(best, seconds_since(t0));
  }
  return best;
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
  if (!f) {
    std::fprintf(stderr, "trnsci: cannot write %s\n", path.c_str());
    return false;
  }
  return true;
}

double rel_frobenius(const std::vector<double>& x, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    num += (x[i] - ref[i]) * (x[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

std::string bound_text(const CaseResult& r) {
  const bool lo = std::isfinite(r.lower), hi = std::isfinite(r.bound);
  if (lo && hi) return "[" + sci(r.lower) + ", " + sci(r.bound) + "]";
  if (hi) return "<= " + sci(r.bound);
  if (lo) return ">= " + sci(r.lower);
  return "-";
}

}  // namespace trnsci::cli
