#include "trn/core/spmd.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "trn/core/error.hpp"

namespace trn {

int default_host_threads() {
  if (const char* env = std::getenv("TRN_NUM_THREADS")) {
    const int n = std::atoi(env);
    if (n > 0) return n;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

LaunchResult launch(const LaunchConfig& cfg, const Kernel& kernel) {
  for (int a = 0; a < 3; ++a)
    if (cfg.grid[a] < 1) throw LimitError("launch", "grid", "size of axis " + std::to_string(a), cfg.grid[a], "minimum", 1, "");
  if (cfg.num_cores < 1) throw LimitError("launch", "num_cores", "cores", cfg.num_cores, "minimum", 1, "");
  const int total = cfg.grid[0] * cfg.grid[1] * cfg.grid[2];
  const int threads = std::min(total, cfg.host_threads > 0 ? cfg.host_threads : default_host_threads());

  std::vector<Trace> traces(static_cast<std::size_t>(total));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(total));
  std::atomic<int> next{0};
  std::atomic<std::int64_t> sbuf_peak{0}, psum_peak{0};

  auto worker = [&] {
    NeuronCore nc(cfg.core);
    for (;;) {
      const int p = next.fetch_add(1);
      if (p >= total) break;
      const std::array<int, 3> pid{p % cfg.grid[0], (p / cfg.grid[0]) % cfg.grid[1], p / (cfg.grid[0] * cfg.grid[1])};
      nc.begin_program(pid, cfg.grid, p, p % cfg.num_cores);
      try {
        kernel(nc);
      } catch (...) {
        errors[static_cast<std::size_t>(p)] = std::current_exception();
      }
      traces[static_cast<std::size_t>(p)] = std::move(nc.trace());
      std::int64_t v = nc.sbuf().peak_bytes();
      for (std::int64_t cur = sbuf_peak.load(); v > cur && !sbuf_peak.compare_exchange_weak(cur, v);) {}
      v = nc.psum().peak_bytes();
      for (std::int64_t cur = psum_peak.load(); v > cur && !psum_peak.compare_exchange_weak(cur, v);) {}
    }
  };
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    pool.reserve(static_cast<std::size_t>(threads));
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (auto& th : pool) th.join();
  }
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);

  LaunchResult r;
  r.host_threads = std::max(1, threads);
  r.sbuf_peak_bytes = sbuf_peak.load();
  r.psum_peak_bytes = psum_peak.load();
  std::size_t n = 0;
  for (const auto& t : traces) n += t.instructions.size();
  r.trace.instructions.reserve(n);
  for (const auto& t : traces) r.trace.append(t);
  return r;
}

}  // namespace trn
