#include "bench_columns.hpp"

#include <cblas.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

namespace trnsci::cli {

namespace {

// On the bench's clock (now_seconds: wall, or process CPU with --clock cpu), like the rows it divides.
double best_of_3(const auto& run) {
  double best = 1e300;
  for (int i = 0; i < 3; ++i) {
    const double t0 = now_seconds();
    run();
    best = std::min(best, seconds_since(t0));
  }
  return std::max(best, 1e-9);
}

// Runs body(begin, end) over [0, n) split across `threads` host threads.
void split(std::size_t n, int threads, const auto& body) {
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] { body(n * static_cast<std::size_t>(t) / static_cast<std::size_t>(threads),
                                    n * static_cast<std::size_t>(t + 1) / static_cast<std::size_t>(threads)); });
  for (auto& th : pool) th.join();
}

}  // namespace

HostRates measure_host_rates(int threads) {
  HostRates h;
  h.threads = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int n = 1024;
  std::vector<float> A(static_cast<std::size_t>(n) * n, 0.5f), B(A.size(), 0.25f), C(A.size(), 0.0f);
  auto gemm = [&] { cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, A.data(), n, B.data(), n, 0.0f, C.data(), n); };
  gemm();  // warm-up: OpenBLAS's threads and buffers
  h.sgemm_flops_per_s = 2.0 * n * n * n / best_of_3(gemm);
  const std::size_t m = std::size_t{16} << 20;
  std::vector<float> x(m, 1.0f), y(m, 2.0f);
  auto triad = [&] {
    split(m, h.threads, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) y[i] = 0.5f * x[i] + y[i];
    });
  };
  triad();
  h.stream_elements_per_s = static_cast<double>(m) / best_of_3(triad);
  auto copy = [&] {
    split(m, h.threads, [&](std::size_t b, std::size_t e) { std::memcpy(y.data() + b, x.data() + b, (e - b) * sizeof(float)); });
  };
  copy();
  h.copy_bytes_per_s = static_cast<double>(m * sizeof(float)) / best_of_3(copy);
  return h;
}

double roofline_target(const BenchCase& c, const std::string& target) {
  if (c.op == "gemm" && c.shape == "4096x8192x8192") return target == "trn1" ? 1.15 : 1.05;
  if (c.suite == "fft") return 1.05;
  return 1.5;
}

std::string roofline_reason(const DeviceCost& d) {
  if (!d.present || d.total_ns <= 0) return "";
  char buf[320];
  if (d.roofline_engine == "host") {
    std::snprintf(buf, sizeof buf, "host round trips %.0f%% of the modeled time", 100.0 * d.host_roundtrip_ns / d.total_ns);
    return buf;
  }
  // modeled / bound = (modeled / busiest busy) x (busiest busy / its own peak-rate work) x (that / the bound).
  const auto busiest = static_cast<int>(std::max_element(d.busy_ns.begin(), d.busy_ns.end()) - d.busy_ns.begin());
  const std::string name(trn::engine_name(static_cast<trn::Engine>(busiest)));
  const double active = d.busy_ns[busiest] / d.cores / d.total_ns;
  const double rate = d.busy_ns[busiest] > 0 ? d.roofline_ns[busiest] / d.busy_ns[busiest] : 1.0;
  std::snprintf(buf, sizeof buf, "%s busy %.0f%% of the modeled time (dependency waits, engines in series), its "
                "instructions at %.0f%% of peak rate (fixed costs, descriptors, idle lanes, short free sizes)",
                name.c_str(), 100.0 * active, 100.0 * rate);
  std::string out = buf;
  if (name != d.roofline_engine) out += "; bound engine " + d.roofline_engine;
  return out;
}

}  // namespace trnsci::cli
