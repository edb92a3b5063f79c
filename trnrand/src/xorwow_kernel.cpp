// The XORWOW engine path (trn/rand/xorwow.hpp, run_xorwow_kernel): the 4096 thread states in an
// SBUF tile advancing in the GpSimd custom operator "xorwow_slots", VectorE for the uniforms, DMA
// (the shared stateful-generator launch, trn/rand/slot_kernel.hpp).
#include "trn/core/error.hpp"
#include "trn/rand/slot_kernel.hpp"
#include "trn/rand/xorwow.hpp"

namespace trn::rand {

namespace {
// Declared GpSimd integer operations per generated word: the xorshift (2 shifts, 4 XORs, 3 moves of
// the state window), the Weyl add and the output add; the state stays in the operator's registers.
constexpr double kXorwowGpsimdOpsPerWord = 11.0;
static_assert(sizeof(XorwowState) == 32, "8 words per XORWOW thread state in SBUF");
}  // namespace

LaunchResult run_xorwow_kernel(std::span<XorwowState> states, std::uint64_t first_slot, std::uint64_t slots,
                               XorwowSlot kind, bool uniform, void* out, const EngineConfig& cfg) {
  if (uniform && kind != XorwowSlot::words1) throw UsageError("run_xorwow_kernel", "uniform", "needs 1 word per slot");
  const SlotKernelSpec spec{"xorwow_slots", xorwow_values_per_slot(kind), kXorwowGpsimdOpsPerWord, uniform};
  return run_slots_kernel(
      "run_xorwow_kernel", spec, states, kXorwowThreads, first_slot, slots, uniform ? DType::f32 : DType::u32, out,
      [&](std::span<XorwowState> s, std::uint64_t first, std::uint64_t b, std::uint64_t e, std::uint32_t* o) {
        xorwow_run_slots(s, first, b, e, kind, o);
      },
      cfg);
}

}  // namespace trn::rand
