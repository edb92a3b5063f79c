// Warm one-program GEMM launches (issue #30, docs/architecture.md "Per-call cost", seventh round).
//
// Algorithm: tile::launch_gemm of one problem whose plan is one program (every Level 2 call and
//   small GEMM) looks its key up in a per-thread table of recent launches: the core configuration
//   (generation, numerics, stochastic rounding and seed, trace/execute/strict flags, matmul host
//   kernel choices) and every field of the problem that decides the instruction stream (operand
//   term counts, dtypes, shapes and strides, load dtype, split, term pairs, m, n, K range, C's
//   layout, alpha and beta bit for bit, multiply/raw/triangle). The first launch of a key runs
//   cold (its hash is noted), the second plans and runs the kernel while program_replay.hpp
//   records it; later launches reuse the plan and replay the recording with the new call's tensors.
// Engines: the recorded instructions, run for real (program_replay.hpp): same bits, trace records
//   and modeled times as the cold kernel.
// Accuracy: not applicable.
// Limits: calls whose HBM operands overlap (e.g. a SYRK's A read as both operands), with more than
//   kMaxWarmOperands tensors, or whose kernel issues an instruction the recorder does not note run
//   cold. kWarmGemmEntries keys per thread, replaced round-robin; an exception drops the key.
#pragma once
#include <vector>

#include "trn/core/spmd.hpp"
#include "trn/tile/gemm.hpp"

namespace trn::tile::gemm_detail {

inline constexpr int kWarmGemmEntries = 128;
inline constexpr int kMaxWarmOperands = 8;

struct WarmGemm;  // gemm_replay.cpp

// The thread's entry for this launch (found, or a fresh one keyed by it), or nullptr when the
// launch cannot be replayed. The entry stays valid until the thread's next warm_gemm_entry call.
WarmGemm* warm_gemm_entry(const LaunchConfig& lc, const std::vector<BlockGemmArgs>& problems);
// The plan a recorded entry keeps (nullptr: none yet).
const GemmPlan* warm_gemm_plan(const WarmGemm& w);
// Runs the program: the replay when `w` holds a recording for this core, else the kernel recorded.
void warm_gemm_run(NeuronCore& nc, WarmGemm& w, const BlockGemmArgs& g, const BlockShape& b, const GemmPlan& plan);
// Forgets `w` (after an exception).
void warm_gemm_drop(WarmGemm& w);

}  // namespace trn::tile::gemm_detail
