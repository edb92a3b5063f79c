// SPMD launch: program ids, error propagation, and bit-identical results and traces for any host
// thread count and any number of emulated cores (including under stochastic rounding).
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <thread>
#include <cmath>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.hpp"
#include "tiled_matmul.hpp"
#include "trn/core/core.hpp"

using namespace trn;

namespace {

TEST(Spmd, ProgramIdsCoverTheGrid) {
  std::vector<int> seen(2 * 3 * 4, 0);
  LaunchConfig lc;
  lc.grid = {2, 3, 4};
  lc.host_threads = 3;
  std::mutex mu;
  launch(lc, [&](NeuronCore& nc) {
    std::lock_guard<std::mutex> lock(mu);
    const int id = nc.program_id(0) + 2 * (nc.program_id(1) + 3 * nc.program_id(2));
    EXPECT_EQ(id, nc.linear_program_id());
    EXPECT_EQ(nc.num_programs(1), 3);
    ++seen[static_cast<std::size_t>(id)];
  });
  for (int v : seen) EXPECT_EQ(v, 1);
}

// A thread's warm core is reconfigured only when a launch asks for another configuration (spmd.cpp
// thread_core): every launch's program still sees exactly the configuration it launched with, after
// launches under other ones, and after a program changed its own core's stochastic rounding.
TEST(Spmd, EveryLaunchSeesItsOwnConfigurationOnAWarmCore) {
  std::vector<CoreConfig> configs(6);
  configs[1].generation = Generation::trn2;
  configs[2].stochastic_rounding = true;
  configs[2].sr_seed = 11;
  configs[3].numerics = Numerics::trn1_measured;
  configs[4].execute = false;
  configs[5].strict = true;
  for (int round = 0; round < 3; ++round)
    for (std::size_t k = 0; k < configs.size(); ++k) {
      LaunchConfig lc;
      lc.core = configs[k];
      lc.host_threads = 1;
      for (bool tamper : {true, false})
        launch(lc, [&](NeuronCore& nc) {
          const CoreConfig& c = nc.config();
          EXPECT_EQ(c.generation, configs[k].generation) << k;
          EXPECT_EQ(c.numerics, configs[k].numerics) << k;
          EXPECT_EQ(c.stochastic_rounding, configs[k].stochastic_rounding) << k;
          EXPECT_EQ(c.sr_seed, configs[k].sr_seed) << k;
          EXPECT_EQ(c.execute, configs[k].execute) << k;
          EXPECT_EQ(c.strict, configs[k].strict) << k;
          EXPECT_EQ(nc.sbuf().partition_bytes(), hardware_spec(configs[k].generation).sbuf_partition_bytes) << k;
          if (tamper) nc.set_stochastic_rounding(!c.stochastic_rounding, c.sr_seed + 1);  // the next launch undoes it
        });
    }
}

// The worker pool closes a job when the calling thread has claimed the last program (a worker woken
// later sits it out, docs/architecture.md "Inline launches"): over many short launches of 2..9
// programs on two and three threads, every program still runs exactly once and its launch has
// returned only after all of its programs finished (a program still running would be caught by
// the next launch's counts, which are reset between launches); a slow program 0 leaves the others
// to the workers that joined.
TEST(Spmd, ShortLaunchesRunEveryProgramOnceAndWaitForJoinedWorkers) {
  std::array<std::atomic<int>, 9> runs{};
  for (int launch_index = 0; launch_index < 600; ++launch_index) {
    const int programs = 2 + launch_index % 8;
    LaunchConfig lc;
    lc.grid = {programs, 1, 1};
    lc.host_threads = 2 + launch_index % 2;
    for (auto& r : runs) r.store(0);
    const bool slow_first = launch_index % 50 == 0;
    launch(lc, [&](NeuronCore& nc) {
      if (slow_first && nc.program_id(0) == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      if (nc.program_id(0) == programs - 1) std::this_thread::sleep_for(std::chrono::microseconds(launch_index % 3));
      runs[static_cast<std::size_t>(nc.program_id(0))].fetch_add(1);
    });
    for (int p = 0; p < 9; ++p)
      ASSERT_EQ(runs[static_cast<std::size_t>(p)].load(), p < programs ? 1 : 0) << "launch " << launch_index << " program " << p;
  }
}

TEST(Spmd, LowestProgramErrorIsRethrown) {
  LaunchConfig lc;
  lc.grid = {8, 1, 1};
  lc.host_threads = 2;
  try {
    launch(lc, [](NeuronCore& nc) {
      if (nc.program_id() >= 3) nc.sbuf().alloc(DType::f32, 128, {1 << 20}, "p" + std::to_string(nc.program_id()));
    });
    ADD_FAILURE();
  } catch (const LimitError& e) {
    EXPECT_NE(std::string(e.what()).find("'p3'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(launch(LaunchConfig{.grid = {0, 1, 1}}, [](NeuronCore&) {}), LimitError);
}

// fork() after the worker pool has started: the child's multi-threaded launch must run on fresh
// workers (it used to wait forever for the parent's, which a fork does not copy), and both sides
// keep working afterwards. The child is killed by alarm() if it hangs, so a regression fails.
TEST(Spmd, LaunchesWorkAfterFork) {
  const auto count_programs = [] {
    LaunchConfig lc;
    lc.grid = {6, 1, 1};
    lc.host_threads = 3;
    std::atomic<int> ran{0};
    launch(lc, [&](NeuronCore&) { ++ran; });
    return ran.load();
  };
  ASSERT_EQ(count_programs(), 6);  // the pool's workers exist now
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    alarm(20);
    _exit(count_programs() == 6 && count_programs() == 6 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status)) << "the child did not exit (signal " << WTERMSIG(status) << ")";
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(count_programs(), 6);
}

struct RunResult {
  std::vector<std::uint32_t> bits;
  std::vector<std::tuple<int, int, int, std::uint64_t, std::int64_t>> trace;
};

RunResult run_matmul(int threads, int cores, bool sr, DType out_dtype) {
  const long M = 300, N = 1100, K = 260;
  HbmTensor A(DType::f32, {M, K}), B(DType::f32, {K, N}), C(out_dtype, {M, N});
  const auto a = trntest::random_values(static_cast<std::size_t>(M * K), DType::f32, 21);
  const auto b = trntest::random_values(static_cast<std::size_t>(K * N), DType::f32, 22);
  std::memcpy(A.data(), a.data(), a.size() * 4);
  std::memcpy(B.data(), b.data(), b.size() * 4);
  LaunchConfig lc;
  lc.host_threads = threads;
  lc.num_cores = cores;
  lc.core.stochastic_rounding = sr;
  lc.core.sr_seed = 1234;
  examples::TiledMatmulConfig tc;
  tc.block_m = 128;
  tc.block_n = 512;
  const LaunchResult r = examples::tiled_matmul(A, B, C, tc, lc);
  RunResult out;
  out.bits.resize(static_cast<std::size_t>(M * N));
  for (long i = 0; i < M * N; ++i) {
    std::uint32_t u = 0;
    std::memcpy(&u, C.data() + i * dtype_size(out_dtype), static_cast<std::size_t>(dtype_size(out_dtype)));
    out.bits[static_cast<std::size_t>(i)] = u;
  }
  for (const auto& ins : r.trace.instructions)
    out.trace.emplace_back(ins.program, static_cast<int>(ins.opcode), ins.core, ins.index, ins.free_elems);
  return out;
}

TEST(Spmd, BitIdenticalForAnyThreadAndCoreCount) {
  const RunResult ref = run_matmul(1, 1, false, DType::f32);
  for (auto [threads, cores] : {std::pair{2, 1}, std::pair{3, 2}, std::pair{4, 4}}) {
    const RunResult r = run_matmul(threads, cores, false, DType::f32);
    EXPECT_EQ(r.bits, ref.bits) << threads << " threads, " << cores << " cores";
    ASSERT_EQ(r.trace.size(), ref.trace.size());
    for (std::size_t i = 0; i < r.trace.size(); ++i) {
      EXPECT_EQ(std::get<0>(r.trace[i]), std::get<0>(ref.trace[i]));
      EXPECT_EQ(std::get<1>(r.trace[i]), std::get<1>(ref.trace[i]));
      EXPECT_EQ(std::get<3>(r.trace[i]), std::get<3>(ref.trace[i]));
    }
  }
}

TEST(Spmd, StochasticRoundingIsDeterministicAcrossThreadCounts) {
  // bf16 output: the PSUM -> SBUF copy rounds stochastically (global SR mode).
  const RunResult ref = run_matmul(1, 1, true, DType::bf16);
  const RunResult r2 = run_matmul(2, 2, true, DType::bf16);
  const RunResult r3 = run_matmul(3, 1, true, DType::bf16);
  EXPECT_EQ(r2.bits, ref.bits);
  EXPECT_EQ(r3.bits, ref.bits);
  const RunResult rne = run_matmul(2, 1, false, DType::bf16);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < rne.bits.size(); ++i) differ += rne.bits[i] != ref.bits[i];
  EXPECT_GT(differ, rne.bits.size() / 10) << "SR must actually change the rounding of some outputs";
}

}  // namespace
