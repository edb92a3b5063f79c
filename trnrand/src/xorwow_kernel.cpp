// The XORWOW engine path (trn/rand/xorwow.hpp, run_xorwow_kernel): the 4096 thread states in an
// SBUF tile advancing in the GpSimd custom operator "xorwow_slots", VectorE for the uniforms, DMA.
#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "trn/core/error.hpp"
#include "trn/rand/xorwow.hpp"

namespace trn::rand {

namespace {

constexpr std::int64_t kStateWords = 8;  // v0..v4, d, pending flag, pending value (bits)
constexpr std::int64_t kThreadsPerPartition = 32;  // 4096 threads over 128 partitions
constexpr std::int64_t kMaxFree = 2048;
// Declared GpSimd integer operations per generated word: the xorshift (2 shifts, 4 XORs, 3 moves of
// the state window), the Weyl add and the output add; the state stays in the operator's registers.
constexpr double kXorwowGpsimdOpsPerWord = 11.0;

void pack(std::span<const XorwowState> states, std::uint32_t* t) {
  for (std::size_t k = 0; k < states.size(); ++k) {
    const XorwowState& s = states[k];
    std::uint32_t* row = t + k * kStateWords;
    std::copy(s.v.begin(), s.v.end(), row);
    row[5] = s.d;
    row[6] = s.has_extra_normal ? 1u : 0u;
    row[7] = std::bit_cast<std::uint32_t>(s.extra_normal);
  }
}

void unpack(const std::uint32_t* t, std::span<XorwowState> states) {
  for (std::size_t k = 0; k < states.size(); ++k) {
    const std::uint32_t* row = t + k * kStateWords;
    XorwowState& s = states[k];
    std::copy(row, row + 5, s.v.begin());
    s.d = row[5];
    s.has_extra_normal = row[6] != 0;
    s.extra_normal = std::bit_cast<float>(row[7]);
  }
}

}  // namespace

LaunchResult run_xorwow_kernel(std::span<XorwowState> states, std::uint64_t first_slot, std::uint64_t slots,
                               XorwowSlot kind, bool uniform, void* out, const EngineConfig& cfg) {
  if (states.size() != kXorwowThreads) throw UsageError("run_xorwow_kernel", "states", "needs 4096 thread states");
  if (uniform && kind != XorwowSlot::words1) throw UsageError("run_xorwow_kernel", "uniform", "needs 1 word per slot");
  if (slots == 0) return {};
  const HardwareSpec& hw = hardware_spec(cfg.target);
  if (hw.pmax * kThreadsPerPartition != static_cast<std::int64_t>(kXorwowThreads))
    throw NotSupportedError("run_xorwow_kernel", "a generation without 128 partitions", hw.name);
  const std::int64_t w = xorwow_values_per_slot(kind);
  const std::uint64_t values = slots * static_cast<std::uint64_t>(w);
  // Tile [pmax, F]: F a multiple of 4 (whole slots per tile), no more than the call needs.
  std::int64_t F = std::min<std::int64_t>(kMaxFree, hw.vector_sbuf_fmax);
  const auto needed = static_cast<std::int64_t>((values + static_cast<std::uint64_t>(hw.pmax) - 1) /
                                                static_cast<std::uint64_t>(hw.pmax));
  F = std::max<std::int64_t>(4, std::min(F, (needed + 3) / 4 * 4));
  const std::uint64_t tile_values = static_cast<std::uint64_t>(hw.pmax) * static_cast<std::uint64_t>(F);
  const std::uint64_t tiles = (values + tile_values - 1) / tile_values;

  HbmTensor state_hbm(DType::u32, {hw.pmax, kThreadsPerPartition * kStateWords});
  pack(states, state_hbm.as<std::uint32_t>());

  LaunchConfig lc;
  lc.grid = {1, 1, 1};  // the states are sequential: one program, tiles in order
  lc.host_threads = cfg.host_threads;
  lc.num_cores = 1;
  lc.core.generation = cfg.target;
  lc.core.numerics = cfg.numerics;
  lc.core.execute = cfg.execute;

  const DType out_dt = uniform ? DType::f32 : DType::u32;
  LaunchResult result = launch(lc, [&](NeuronCore& nc) {
    const std::int32_t P = nc.hw().pmax;
    OnChipMemory& sbuf = nc.sbuf();
    const Tile state = sbuf.alloc(DType::u32, P, {kThreadsPerPartition * kStateWords}, "xorwow_states");
    const Tile words = sbuf.alloc(DType::u32, P, {F}, "xorwow_words");
    const Tile floats = sbuf.alloc(DType::f32, P, {F}, "xorwow_uniforms");
    nc.dma_copy(state, state_hbm.tile(0, P, 0, kThreadsPerPartition * kStateWords));
    for (std::uint64_t k = 0; k < tiles; ++k) {
      const std::uint64_t v0 = k * tile_values, count = std::min(tile_values, values - v0);
      const auto rows = static_cast<std::int32_t>((count + static_cast<std::uint64_t>(F) - 1) / static_cast<std::uint64_t>(F));
      const Tile wt = words.rows(0, rows);
      const Tile outputs[] = {wt, state};
      const Tile inputs[] = {state};
      nc.custom_op("xorwow_slots", outputs, inputs,
                   hw.gpsimd_start + kXorwowGpsimdOpsPerWord * static_cast<double>(F),
                   [=](const CustomOpContext& ctx) {
                     // The states as one array (thread k at partition k / 32, column (k mod 32) 8).
                     const Tile& st = ctx.outputs[1];
                     std::vector<XorwowState> s(kXorwowThreads);
                     std::vector<std::uint32_t> flat(kXorwowThreads * kStateWords);
                     const std::int64_t row_words = kThreadsPerPartition * kStateWords;
                     for (std::int32_t p = 0; p < st.partitions; ++p)
                       std::memcpy(flat.data() + p * row_words, st.at(p, 0), static_cast<std::size_t>(row_words) * 4);
                     unpack(flat.data(), s);
                     std::vector<std::uint32_t> vals(static_cast<std::size_t>(count));
                     xorwow_run_slots(s, first_slot, v0 / static_cast<std::uint64_t>(w),
                                      (v0 + count) / static_cast<std::uint64_t>(w), kind, vals.data());
                     pack(s, flat.data());
                     for (std::int32_t p = 0; p < st.partitions; ++p)
                       std::memcpy(st.at(p, 0), flat.data() + p * row_words, static_cast<std::size_t>(row_words) * 4);
                     const Tile& wtile = ctx.outputs[0];  // value i at partition i / F, column i mod F
                     for (std::uint64_t i = 0; i < count; i += static_cast<std::uint64_t>(F)) {
                       const std::uint64_t n = std::min<std::uint64_t>(static_cast<std::uint64_t>(F), count - i);
                       std::memcpy(wtile.at(static_cast<std::int32_t>(i / static_cast<std::uint64_t>(F)), 0),
                                   &vals[static_cast<std::size_t>(i)], static_cast<std::size_t>(n) * 4);
                     }
                   });
      const Tile src = uniform ? floats.rows(0, rows) : wt;
      if (uniform) uniform_from_words(nc, src, wt);
      // DMA: whole rows, then the tail row.
      const auto base = reinterpret_cast<std::uintptr_t>(out) + static_cast<std::uintptr_t>(v0 * 4);
      const std::int64_t full = static_cast<std::int64_t>(count / static_cast<std::uint64_t>(F));
      const std::int64_t tail = static_cast<std::int64_t>(count % static_cast<std::uint64_t>(F));
      if (full > 0)
        nc.dma_copy(HbmTensor::wrap(reinterpret_cast<void*>(base), out_dt, {full, F}).tile(0, static_cast<std::int32_t>(full), 0, F),
                    src.rows(0, static_cast<std::int32_t>(full)));
      if (tail > 0)
        nc.dma_copy(HbmTensor::wrap(reinterpret_cast<void*>(base + static_cast<std::uintptr_t>(full * F * 4)), out_dt,
                                    {1, tail})
                        .tile(0, 1, 0, tail),
                    src.rows(static_cast<std::int32_t>(full), 1).cols(0, tail));
    }
    nc.dma_copy(state_hbm.tile(0, P, 0, kThreadsPerPartition * kStateWords), state);
  });
  if (cfg.execute) unpack(state_hbm.as<std::uint32_t>(), states);
  return result;
}

}  // namespace trn::rand
