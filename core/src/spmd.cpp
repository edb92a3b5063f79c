#include "trn/core/spmd.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <pthread.h>
#include <thread>
#include <vector>

#include "onchip_dirty.hpp"
#include "trn/core/error.hpp"
#include "trn/core/trace_recycle.hpp"

namespace trn {

int default_host_threads() {
  if (const char* env = std::getenv("TRN_NUM_THREADS")) {
    const int n = std::atoi(env);
    if (n > 0) return n;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

namespace {

// Persistent host worker threads: launches reuse them (and the emulated core each one keeps), so a
// launch costs neither thread creation nor fresh 24 MiB SBUF pages. The calling thread is worker 0.
class WorkerPool {
 public:
  static WorkerPool& instance() {
    static WorkerPool pool;
    return pool;
  }
  WorkerPool() {
    // fork() copies only the calling thread: a child that launched would wait forever on workers
    // that do not exist, and its exit would join them. So the pool is held still across fork()
    // (no launch in flight), and the child forgets the parent's workers and starts its own on its
    // first multi-program launch (Python multiprocessing, MPI spawners and test runners fork).
    pthread_atfork([] { instance().before_fork(); }, [] { instance().after_fork_in_parent(); },
                   [] { instance().after_fork_in_child(); });
  }
  ~WorkerPool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  // Runs body(w) for w in [0, count) on up to count threads and waits for every thread that took
  // part. The calling thread runs body(0) at once; a worker runs body(w) only if it wakes while the
  // job is still open. When body(0) returns, every program has been claimed (body loops over an
  // atomic program counter), so the job is closed and the caller waits only for the workers that
  // joined: one that the scheduler has not woken by then (a loaded 2-core machine can take
  // milliseconds) sits the job out instead of holding up the launch. The caller never spins.
  void run(int count, const std::function<void(int)>& body) {
    if (count <= 1 || inside_) {  // a launch from inside a kernel runs inline
      body(0);
      return;
    }
    std::lock_guard<std::mutex> serial(run_mu_);
    {
      std::lock_guard<std::mutex> lock(mu_);
      while (static_cast<int>(threads_.size()) < count - 1) {
        const int index = static_cast<int>(threads_.size()) + 1;
        threads_.emplace_back([this, index] { loop(index); });
      }
      job_ = &body;
      job_count_ = count;
      open_ = true;
      joined_ = finished_ = 0;
      ++generation_;
    }
    cv_.notify_all();
    inside_ = true;
    body(0);
    inside_ = false;
    std::unique_lock<std::mutex> lock(mu_);
    open_ = false;
    done_cv_.wait(lock, [this] { return finished_ == joined_; });
    job_ = nullptr;
  }

 private:
  void before_fork() {
    run_mu_.lock();
    mu_.lock();
  }
  void after_fork_in_parent() {
    mu_.unlock();
    run_mu_.unlock();
  }
  void after_fork_in_child() {
    // The std::thread objects name threads of the parent: destroying or joining them is undefined,
    // so they are kept, never destroyed (a few bytes per fork). The condition variables may count
    // those threads as waiters (glibc would wait for them on the next notify) and the mutexes are
    // held by this thread's prepare step: all four are constructed afresh, not destroyed.
    abandoned_threads_ = new std::vector<std::thread>(std::move(threads_));
    threads_.clear();
    job_ = nullptr;
    job_count_ = joined_ = finished_ = 0;
    open_ = false;
    new (&run_mu_) std::mutex();
    new (&mu_) std::mutex();
    new (&cv_) std::condition_variable();
    new (&done_cv_) std::condition_variable();
  }
  void loop(int index) {
    inside_ = true;
    std::uint64_t seen = 0;
    for (;;) {
      const std::function<void(int)>* job;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        if (index >= job_count_ || !open_) continue;  // not needed, or woken after the caller closed it
        ++joined_;
        job = job_;
      }
      (*job)(index);
      {
        std::lock_guard<std::mutex> lock(mu_);
        ++finished_;
      }
      done_cv_.notify_one();
    }
  }
  static thread_local bool inside_;
  std::mutex run_mu_, mu_;
  std::condition_variable cv_, done_cv_;
  std::vector<std::thread> threads_;
  std::vector<std::thread>* abandoned_threads_ = nullptr;  // a forked child's copy of the parent's
  const std::function<void(int)>* job_ = nullptr;
  int job_count_ = 0;
  int joined_ = 0, finished_ = 0;  // workers that took part in the current job, and those done
  bool open_ = false;              // the current job still takes workers (the caller has not finished body(0))
  std::uint64_t generation_ = 0;
  bool stop_ = false;
};
thread_local bool WorkerPool::inside_ = false;

// Every field of two core configurations equal (a new field must be added here: the binding below
// compiles only while CoreConfig has these 12 fields; a sizeof test would miss a one-byte field added
// into its padding).
bool same_config(const CoreConfig& a, const CoreConfig& b) {
  [[maybe_unused]] const auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11] = a;
  return a.generation == b.generation && a.numerics == b.numerics && a.stochastic_rounding == b.stochastic_rounding &&
         a.sr_seed == b.sr_seed && a.trace == b.trace && a.execute == b.execute && a.strict == b.strict &&
         a.activation_out_of_range == b.activation_out_of_range && a.matmul_isa == b.matmul_isa &&
         a.double_row_order == b.double_row_order && a.matmul_skip_zero_terms == b.matmul_skip_zero_terms &&
         a.two_nan_result == b.two_nan_result;
}

// The emulated core a host thread keeps between launches. Every launch starts its programs with
// begin_program, which resets what reconfigure would (the operand memo, the strict-mode PSUM
// record), so a launch under the configuration the core already has skips reconfigure (a loop of
// small calls: ~100 host instructions a launch, session 23). The core is found through a trivially
// destructible thread-local pointer (one thread-local address, no guard variable; session 25); the
// unique_ptr that destroys it at thread exit is constructed with it, once per thread.
thread_local NeuronCore* t_core = nullptr;
struct ThreadCoreOwner {
  std::unique_ptr<NeuronCore> core;
  ~ThreadCoreOwner() { t_core = nullptr; }
};
[[gnu::noinline, gnu::cold]] NeuronCore& create_thread_core(const CoreConfig& cfg) {
  thread_local ThreadCoreOwner owner;
  owner.core = std::make_unique<NeuronCore>(cfg);
  t_core = owner.core.get();
  return *t_core;
}
NeuronCore& thread_core(const CoreConfig& cfg) {
  NeuronCore* const core = t_core;
  if (core == nullptr) [[unlikely]]
    return create_thread_core(cfg);
  if (!same_config(core->config(), cfg)) [[unlikely]]
    core->reconfigure(cfg);
  return *core;
}

// A program stopped by an exception may have stopped inside an instruction that had written part
// of its output: every on-chip byte counts as written (the next allocations fill in full).
void forget_filled(NeuronCore& nc) {
  detail::note_onchip_write_all(nc.sbuf());
  detail::note_onchip_write_all(nc.psum());
}

// The peak use of a core's memories after a program, folded into a launch's maxima.
void fold_peak(std::atomic<std::int64_t>& peak, std::int64_t v) {
  for (std::int64_t cur = peak.load(); v > cur && !peak.compare_exchange_weak(cur, v);) {}
}

// A grid of one program (every small library call): run on the calling thread's core, with no
// hand-off to the worker pool and no per-program bookkeeping. The program sees exactly what the
// general path gives program 0 (begin_program resets the core the same way), an exception
// propagates as the general path would rethrow it, and the trace leaves the core the same way.
LaunchResult launch_one(const LaunchConfig& cfg, const Kernel& kernel) {
  NeuronCore& nc = thread_core(cfg.core);
  nc.begin_program({0, 0, 0}, cfg.grid, 0, 0);
  try {
    kernel(nc);
  } catch (...) {
    forget_filled(nc);
    throw;
  }
  LaunchResult r{.trace = std::move(nc.trace()),
                 .sbuf_peak_bytes = nc.sbuf().peak_bytes(),
                 .psum_peak_bytes = nc.psum().peak_bytes(),
                 .host_threads = 1};
  // The next trace records into a warm buffer of this thread's pool when one holds this one's
  // length (trace.hpp; recycle_trace and finished reports hand theirs back), else a new one.
  nc.trace().reserve(r.trace.instructions.size());
  return r;
}

}  // namespace

void recycle_trace(Trace&& trace) {
  detail::give_trace_buffer(trace.instructions);
  trace.clear();
}

LaunchResult launch(const LaunchConfig& cfg, const Kernel& kernel) {
  for (int a = 0; a < 3; ++a)
    if (cfg.grid[a] < 1) throw LimitError("launch", "grid", "size of axis " + std::to_string(a), cfg.grid[a], "minimum", 1, "");
  if (cfg.num_cores < 1) throw LimitError("launch", "num_cores", "cores", cfg.num_cores, "minimum", 1, "");
  const int total = cfg.grid[0] * cfg.grid[1] * cfg.grid[2];
  if (total == 1) return launch_one(cfg, kernel);
  const int threads = std::min(total, cfg.host_threads > 0 ? cfg.host_threads : default_host_threads());

  std::vector<Trace> traces(static_cast<std::size_t>(total));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(total));
  std::atomic<int> next{0};
  std::atomic<std::int64_t> sbuf_peak{0}, psum_peak{0};

  const std::function<void(int)> worker = [&](int) {
    NeuronCore& nc = thread_core(cfg.core);
    for (;;) {
      const int p = next.fetch_add(1);
      if (p >= total) break;
      const std::array<int, 3> pid{p % cfg.grid[0], (p / cfg.grid[0]) % cfg.grid[1], p / (cfg.grid[0] * cfg.grid[1])};
      nc.begin_program(pid, cfg.grid, p, p % cfg.num_cores);
      try {
        kernel(nc);
      } catch (...) {
        errors[static_cast<std::size_t>(p)] = std::current_exception();
        forget_filled(nc);
      }
      // Moved out; the core's next trace starts with this one's length reserved (one allocation
      // instead of regrowing by doubling every program).
      const std::size_t length = nc.trace().instructions.size();
      traces[static_cast<std::size_t>(p)] = std::move(nc.trace());
      nc.trace().reserve(length);
      fold_peak(sbuf_peak, nc.sbuf().peak_bytes());
      fold_peak(psum_peak, nc.psum().peak_bytes());
    }
  };
  WorkerPool::instance().run(std::max(1, threads), worker);
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);

  LaunchResult r;
  r.host_threads = std::max(1, threads);
  r.sbuf_peak_bytes = sbuf_peak.load();
  r.psum_peak_bytes = psum_peak.load();
  if (traces.size() == 1) {
    r.trace = std::move(traces.front());
    return r;
  }
  std::size_t n = 0;
  for (const auto& t : traces) n += t.instructions.size();
  r.trace.reserve(n);
  for (const auto& t : traces) r.trace.append(t);
  return r;
}

}  // namespace trn
