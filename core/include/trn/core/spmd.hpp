// SPMD launch: run a kernel over a grid of programs (nl.program_id analogue). Programs are
// distributed over host threads; each host thread owns one emulated NeuronCore (its own SBUF and
// PSUM) and runs whole programs on it, resetting memory, the instruction counter and the trace at
// every program start. Program p is assigned to emulated core p % num_cores (for the cost model).
//
// Determinism: a program's instructions, its stochastic-rounding bits (keyed by seed, linear program
// id, instruction index and element) and its trace do not depend on which host thread ran it or
// when, and the merged trace is in program order. Programs must write disjoint HBM regions (as on
// hardware, where nothing orders them); then results are bit-identical for any host thread count.
#pragma once
#include <array>
#include <functional>

#include "trn/core/neuron_core.hpp"

namespace trn {

struct LaunchConfig {
  std::array<int, 3> grid{1, 1, 1};
  int host_threads = 0;  // 0: TRN_NUM_THREADS if set, else std::thread::hardware_concurrency()
  int num_cores = 1;     // emulated NeuronCores the grid is spread over
  CoreConfig core{};
};

// What a library call asks of the emulator, shared by every library's settings (trnblas,
// trnsparse, trntensor, ...): the generation and numerics profile, stochastic rounding, how many
// NeuronCores and host threads, and whether the kernels compute or only record their traces.
struct EmulatorSettings {
  Generation target = Generation::trn1;
  Numerics numerics = Numerics::ideal;
  bool stochastic_rounding = false;
  std::uint64_t sr_seed = 0;
  int num_cores = 1;         // emulated NeuronCores the programs are spread over
  int host_threads = 0;      // 0: TRN_NUM_THREADS or all
  bool timing_only = false;  // record the kernels' traces without computing (cost-model studies)

  // The launch of a kernel over `grid` programs under these settings.
  LaunchConfig launch_config(std::array<int, 3> grid = {1, 1, 1}) const {
    LaunchConfig lc;
    lc.grid = grid;
    lc.host_threads = host_threads;
    lc.num_cores = num_cores > 1 ? num_cores : 1;
    lc.core.generation = target;
    lc.core.numerics = numerics;
    lc.core.stochastic_rounding = stochastic_rounding;
    lc.core.sr_seed = sr_seed;
    lc.core.execute = !timing_only;
    return lc;
  }
};

struct LaunchResult {
  Trace trace;                        // all programs' instructions, in program order
  std::int64_t sbuf_peak_bytes = 0;   // largest per-partition SBUF use of any program
  std::int64_t psum_peak_bytes = 0;
  int host_threads = 1;
};

using Kernel = std::function<void(NeuronCore&)>;

// Runs kernel once per program. If programs throw, the exception of the lowest program id is
// rethrown after all threads have stopped.
LaunchResult launch(const LaunchConfig& cfg, const Kernel& kernel);

int default_host_threads();

}  // namespace trn
