// The engine scaffolding shared by cuRAND's stateful host generators (XORWOW, MRG32K3A): a fixed
// set of thread states, slots dealt round-robin to them, each thread advancing its own state.
//
//   Layout: the states in one SBUF tile [pmax, threads / pmax x state words] (thread k in partition
//     k / (threads / pmax); a state is its struct's 32-bit words), DMA'd in from the generator at the
//     start of the call and back at the end.
//   Per output tile [pmax, F] (F <= 2048, whole slots): one GpSimd custom operator advances the
//     states in slot order and writes the values (value i of the tile at partition i / F, column
//     i mod F); optionally VectorE converts the words to cuRAND's float uniforms
//     (float(x) 2^-32 + 2^-33, uniform_from_words); DMA to `out` (whole rows, then the tail row).
//   Cost: GPSIMD_START + ops_per_value x F GpSimd cycles per tile (one 32-bit integer operation per
//     partition per cycle, kernels.hpp); the states' two DMAs per call.
//   Accuracy: the operator runs the same slot routine as the host path, so both give the same bits.
//   Limits: one program (the states are sequential), tiles in order; threads a multiple of pmax.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "trn/core/error.hpp"
#include "trn/rand/kernels.hpp"

namespace trn::rand {

// curand_normal on a thread state with a pending-value slot (CURAND: curand_normal's Box-Muller
// flag): a fresh pair (fresh() -> {sine, cosine}) gives the sine now and keeps the cosine for the
// thread's next such slot; the slot routines of XORWOW and MRG32K3A.
template <class State, class FreshPair>
float carried_normal(State& s, FreshPair&& fresh) {
  if (s.has_extra_normal) {
    s.has_extra_normal = false;
    return s.extra_normal;
  }
  const auto pair = fresh();
  s.extra_normal = pair[1];
  s.has_extra_normal = true;
  return pair[0];
}

struct SlotKernelSpec {
  std::string_view op_name;           // the GpSimd custom operator's name in the trace
  std::int64_t values_per_slot = 1;   // tiles hold whole slots
  double gpsimd_ops_per_value = 1.0;  // declared GpSimd integer operations per value written
  bool uniform_on_vector = false;     // VectorE turns the operator's words into float uniforms
  // The operator advances the states where they are, in their SBUF partition rows, and writes its
  // values straight into the output tile's rows (no copy of every state out of SBUF and back per
  // tile: 2 x 2.6 MB per tile for MRG32K3A's 81920 states). Needs a slot routine that takes any
  // contiguous run of threads (XORWOW's whole-round path wants all 4096 states: it copies).
  bool states_in_place = false;
  // Copying operators (states_in_place false): the values of a whole round of the threads
  // (threads x values_per_slot; 0: no rounds) and the call's value index of its first round boundary.
  // The operator then runs its tile in chunks of whole rounds into a small buffer that stays in
  // cache and copies each chunk into the tile rows (session 25; the same values: the slot routine
  // takes the slots in order, and whole rounds keep its fast path).
  std::uint64_t round_values = 0;
  std::uint64_t round_phase = 0;
};

// Values [value_begin, value_end) of the call from the states (already copied out of SBUF into the
// caller's typed scratch), written to out.
using SlotRun = std::function<void(std::uint64_t value_begin, std::uint64_t value_end, std::uint32_t* out)>;
// The same from the states in their SBUF rows (spec.states_in_place): rows[p] is the first state of
// partition p (threads / pmax states per partition).
using SlotRunRows = std::function<void(std::span<std::byte* const> rows, std::uint64_t value_begin,
                                       std::uint64_t value_end, std::uint32_t* out)>;

// The untyped launch: `states` are the states' bytes (threads x state_bytes), `scratch` a buffer of
// the same size that the operator fills from SBUF before run() and copies back after it.
LaunchResult run_slot_kernel_bytes(const SlotKernelSpec& spec, std::span<std::byte> states, std::int64_t threads,
                                   std::span<std::byte> scratch, std::uint64_t values, DType out_dtype, void* out,
                                   const SlotRun& run, const EngineConfig& cfg, const SlotRunRows& run_rows = {});

// One call of `values` values (u32 words or f32 bits by out_dtype) on the engines. run(states,
// value_begin, value_end, out) is the host path's slot routine on the typed states.
template <class State, class Run>
LaunchResult run_slot_kernel(const SlotKernelSpec& spec, std::span<State> states, std::uint64_t values, DType out_dtype,
                             void* out, Run&& run, const EngineConfig& cfg) {
  static_assert(std::is_trivially_copyable_v<State> && sizeof(State) % 4 == 0, "states are SBUF words");
  std::vector<State> scratch(states.size());
  return run_slot_kernel_bytes(
      spec, std::as_writable_bytes(states), static_cast<std::int64_t>(states.size()),
      std::as_writable_bytes(std::span<State>(scratch)), values, out_dtype, out,
      [&](std::uint64_t b, std::uint64_t e, std::uint32_t* o) { run(std::span<State>(scratch), b, e, o); }, cfg);
}

// One call of `slots` slots from first_slot (spec.values_per_slot values each) on the generator's
// `threads` states (UsageError for another count, naming `who`). run_slots(states, first_slot,
// slot_begin, slot_end, out) is the host path's slot routine; with spec.states_in_place it is called
// on each run of consecutive threads inside one partition row (states = that run, first_slot 0).
template <class State, class RunSlots>
LaunchResult run_slots_kernel(std::string_view who, const SlotKernelSpec& spec, std::span<State> states,
                              std::uint64_t threads, std::uint64_t first_slot, std::uint64_t slots, DType out_dtype,
                              void* out, RunSlots&& run_slots, const EngineConfig& cfg) {
  if (states.size() != threads)
    throw UsageError(who, "states", "needs " + std::to_string(threads) + " thread states");
  const auto w = static_cast<std::uint64_t>(spec.values_per_slot);
  if (!spec.states_in_place) {
    SlotKernelSpec rounds = spec;
    rounds.round_values = threads * w;
    rounds.round_phase = (threads - first_slot % threads) % threads * w;
    return run_slot_kernel(
        rounds, states, slots * w, out_dtype, out,
        [&](std::span<State> s, std::uint64_t v0, std::uint64_t v1, std::uint32_t* o) {
          run_slots(s, first_slot, v0 / w, v1 / w, o);
        },
        cfg);
  }
  static_assert(std::is_trivially_copyable_v<State> && sizeof(State) % 4 == 0, "states are SBUF words");
  // Slot s is thread (first_slot + s) mod threads; partition p holds threads p tpp .. p tpp + tpp - 1.
  // The runs are taken in slot order, so every thread's steps stay in order (the same values).
  const SlotRunRows rows_run = [&](std::span<std::byte* const> rows, std::uint64_t v0, std::uint64_t v1,
                                   std::uint32_t* o) {
    const std::uint64_t tpp = threads / rows.size();
    for (std::uint64_t s = v0 / w, e = v1 / w; s < e;) {
      const std::uint64_t t = (first_slot + s) % threads, local = t % tpp;
      const std::uint64_t n = std::min(e - s, tpp - local);
      State* run_states = reinterpret_cast<State*>(rows[static_cast<std::size_t>(t / tpp)]) + local;
      run_slots(std::span<State>(run_states, static_cast<std::size_t>(n)), 0, 0, n, o);
      o += n * w;
      s += n;
    }
  };
  return run_slot_kernel_bytes(spec, std::as_writable_bytes(states), static_cast<std::int64_t>(states.size()), {},
                               slots * w, out_dtype, out, {}, cfg, rows_run);
}

}  // namespace trn::rand
