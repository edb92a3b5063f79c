#pragma once
// Inline launches (issue #30, docs/architecture.md "Inline launches"): a launch of several
// programs whose whole host work is too small to pay for handing programs to the worker pool runs
// every program on the calling thread, as TRN_NUM_THREADS=1 would.
//
// Algorithm: the caller estimates the launch's host work in multiply-add equivalents of the
//   host's matmul micro-kernel (launch_work below: a fixed cost per program for its ~10
//   instructions' dispatch, trace records and allocations, plus its multiply-adds and the elements
//   it moves, each element weighted as kWorkPerElement multiply-adds); inline_host_threads returns
//   1 when the estimate is under kInlineLaunchWork, else the configured thread count unchanged.
// Engines: none (host scheduling only). Which host thread runs a program never shows in its bits,
//   trace records or modeled time (trn/core/spmd.hpp, "Determinism"), so the choice is invisible.
// Accuracy: not applicable.
// Limits: the estimate is a coarse model fitted on the development VM (the measurements are in the
//   doc section); a wrong guess only moves host time, never a result.
#include <cstdint>

namespace trn {

// Host work units: one multiply-add of the fp32 micro-kernel (~0.02 ns on the development VM).
inline constexpr std::int64_t kWorkPerProgram = std::int64_t{1} << 18;  // ~5 us: begin, ~10 instructions, report
inline constexpr std::int64_t kWorkPerElement = 16;                     // DMA cast/widen/evacuate one element
inline constexpr std::int64_t kInlineLaunchWork = std::int64_t{1} << 22;  // ~80 us: below it, one thread

// The estimate of a launch's work: its programs, multiply-adds and the elements it reads and
// writes (double: no overflow for any shape; only the comparison with the threshold is used).
constexpr double launch_work(double programs, double multiply_adds, double elements) {
  return programs * static_cast<double>(kWorkPerProgram) + multiply_adds +
         static_cast<double>(kWorkPerElement) * elements;
}

// The host threads a launch of `work` units should use: 1 under kInlineLaunchWork, else `configured`
// (0 keeps meaning TRN_NUM_THREADS or all cores).
constexpr int inline_host_threads(int configured, double work) {
  return work < static_cast<double>(kInlineLaunchWork) ? 1 : configured;
}

}  // namespace trn
