// The stateful generators' engine launch (trn/rand/slot_kernel.hpp): states in SBUF, one GpSimd
// custom operator per output tile, VectorE uniforms, DMA. Used by XORWOW and MRG32K3A.
#include "trn/rand/slot_kernel.hpp"

#include <algorithm>
#include <cstring>

#include "trn/core/error.hpp"

namespace trn::rand {

namespace {
constexpr std::int64_t kMaxFree = 2048;
// A copying operator's chunk (spec.round_values): ~128 KB of values, whole rounds, so the buffer stays
// in L2 between the slot routine's writes and the copy into the tile rows (a 1 MB buffer per tile
// missed on both).
constexpr std::uint64_t kChunkValues = 32768;
}

LaunchResult run_slot_kernel_bytes(const SlotKernelSpec& spec, std::span<std::byte> states, std::int64_t threads,
                                   std::span<std::byte> scratch, std::uint64_t values, DType out_dtype, void* out,
                                   const SlotRun& run, const EngineConfig& cfg, const SlotRunRows& run_rows) {
  if (values == 0) return {};
  const HardwareSpec& hw = hardware_spec(cfg.target);
  if (threads % hw.pmax != 0) throw NotSupportedError("run_slot_kernel", "threads not a multiple of pmax", hw.name);
  if (states.size() % static_cast<std::size_t>(threads) != 0 || (states.size() / static_cast<std::size_t>(threads)) % 4 != 0)
    throw UsageError("run_slot_kernel", "states", "whole 32-bit words per thread");
  if (spec.uniform_on_vector && out_dtype != DType::f32)
    throw UsageError("run_slot_kernel", "out_dtype", "VectorE uniforms are f32");
  const std::int64_t row_words = static_cast<std::int64_t>(states.size() / 4) / hw.pmax;  // per partition
  const std::int64_t vps = spec.values_per_slot;
  // Tile [pmax, F]: F a multiple of the slot's values, no more than the call needs.
  std::int64_t F = std::min<std::int64_t>(kMaxFree, hw.vector_sbuf_fmax) / vps * vps;
  const auto needed = static_cast<std::int64_t>((values + static_cast<std::uint64_t>(hw.pmax) - 1) /
                                                static_cast<std::uint64_t>(hw.pmax));
  F = std::max<std::int64_t>(vps, std::min(F, (needed + vps - 1) / vps * vps));
  const std::uint64_t tile_values = static_cast<std::uint64_t>(hw.pmax) * static_cast<std::uint64_t>(F);
  const std::uint64_t tiles = (values + tile_values - 1) / tile_values;
  const HbmTensor state_hbm = HbmTensor::wrap(states.data(), DType::u32, {hw.pmax, row_words});

  // The states are sequential: one program, tiles in order.
  const LaunchConfig lc = engine_launch_config(cfg, 1, true);

  // The operator's values of one tile: one buffer for every tile (a zero-filled vector per tile
  // was a fresh allocation, memset and first-touch faults of 1 MiB sixteen times per 2^22 values).
  // In place (spec.states_in_place): none, the operator writes the output tile's rows directly.
  // Chunks of whole rounds (spec.round_values): boundaries at round_phase + k round_values.
  const std::uint64_t chunk_values =
      spec.round_values == 0 ? tile_values : std::max(kChunkValues, spec.round_values);
  const auto chunk_end = [&](std::uint64_t p, std::uint64_t limit) {  // call value indices
    if (spec.round_values == 0) return limit;
    const std::uint64_t last = p + chunk_values, R = spec.round_values, phase = spec.round_phase;
    const std::uint64_t boundary = last < phase ? last : phase + (last - phase) / R * R;  // > p: chunk_values >= R > phase
    return std::min(boundary, limit);
  };
  std::vector<std::uint32_t> vals(
      run_rows ? 0 : static_cast<std::size_t>(std::min<std::uint64_t>(std::min(tile_values, chunk_values), values)));
  return launch(lc, [&](NeuronCore& nc) {
    const std::int32_t P = nc.hw().pmax;
    OnChipMemory& sbuf = nc.sbuf();
    const Tile state = sbuf.alloc(DType::u32, P, {row_words}, "thread_states");
    const Tile words = sbuf.alloc(DType::u32, P, {F}, "slot_words");
    const Tile floats = spec.uniform_on_vector ? sbuf.alloc(DType::f32, P, {F}, "slot_uniforms") : Tile{};
    nc.dma_copy(state, state_hbm.tile(0, P, 0, row_words));
    for (std::uint64_t k = 0; k < tiles; ++k) {
      const std::uint64_t v0 = k * tile_values, count = std::min(tile_values, values - v0);
      const auto rows = static_cast<std::int32_t>((count + static_cast<std::uint64_t>(F) - 1) / static_cast<std::uint64_t>(F));
      const Tile wt = words.rows(0, rows);
      const Tile outputs[] = {wt, state};
      const Tile inputs[] = {state};
      nc.custom_op(spec.op_name, outputs, inputs, hw.gpsimd_start + spec.gpsimd_ops_per_value * static_cast<double>(F),
                   [&, v0, count](const CustomOpContext& ctx) {
                     const Tile& st = ctx.outputs[1];
                     const Tile& wtile = ctx.outputs[0];  // value i at partition i / F, column i mod F
                     if (run_rows) {
                       std::vector<std::byte*> rows(static_cast<std::size_t>(st.partitions));
                       for (std::int32_t p = 0; p < st.partitions; ++p) rows[static_cast<std::size_t>(p)] = st.at(p, 0);
                       for (std::uint64_t i = 0; i < count; i += static_cast<std::uint64_t>(F)) {
                         const std::uint64_t n = std::min<std::uint64_t>(static_cast<std::uint64_t>(F), count - i);
                         run_rows(rows, v0 + i, v0 + i + n,
                                  reinterpret_cast<std::uint32_t*>(wtile.at(static_cast<std::int32_t>(i / static_cast<std::uint64_t>(F)), 0)));
                       }
                       return;
                     }
                     const auto row_bytes = static_cast<std::size_t>(row_words) * 4;
                     for (std::int32_t p = 0; p < st.partitions; ++p)
                       std::memcpy(scratch.data() + static_cast<std::size_t>(p) * row_bytes, st.at(p, 0), row_bytes);
                     // Value i of the tile is at partition i / F, column i mod F.
                     for (std::uint64_t i = 0; i < count;) {
                       const std::uint64_t end = chunk_end(v0 + i, v0 + count) - v0;
                       run(v0 + i, v0 + end, vals.data());
                       for (std::uint64_t k = i; k < end;) {
                         const auto row = static_cast<std::int32_t>(k / static_cast<std::uint64_t>(F));
                         const std::uint64_t col = k % static_cast<std::uint64_t>(F);
                         const std::uint64_t n = std::min<std::uint64_t>(static_cast<std::uint64_t>(F) - col, end - k);
                         std::memcpy(wtile.at(row, 0) + col * 4, &vals[static_cast<std::size_t>(k - i)], static_cast<std::size_t>(n) * 4);
                         k += n;
                       }
                       i = end;
                     }
                     for (std::int32_t p = 0; p < st.partitions; ++p)
                       std::memcpy(st.at(p, 0), scratch.data() + static_cast<std::size_t>(p) * row_bytes, row_bytes);
                   });
      // Without VectorE the operator wrote the output's bits (f32 outputs: their bit patterns).
      const Tile src = spec.uniform_on_vector ? floats.rows(0, rows) : wt.bitcast(out_dtype);
      if (spec.uniform_on_vector) uniform_from_words(nc, src, wt);
      // DMA: whole rows, then the tail row.
      const auto base = reinterpret_cast<std::uintptr_t>(out) + static_cast<std::uintptr_t>(v0 * 4);
      const std::int64_t full = static_cast<std::int64_t>(count / static_cast<std::uint64_t>(F));
      const std::int64_t tail = static_cast<std::int64_t>(count % static_cast<std::uint64_t>(F));
      if (full > 0)
        nc.dma_copy(HbmTensor::wrap(reinterpret_cast<void*>(base), out_dtype, {full, F}).tile(0, static_cast<std::int32_t>(full), 0, F),
                    src.rows(0, static_cast<std::int32_t>(full)));
      if (tail > 0)
        nc.dma_copy(HbmTensor::wrap(reinterpret_cast<void*>(base + static_cast<std::uintptr_t>(full * F * 4)), out_dtype,
                                    {1, tail})
                        .tile(0, 1, 0, tail),
                    src.rows(static_cast<std::int32_t>(full), 1).cols(0, tail));
    }
    nc.dma_copy(state_hbm.tile(0, P, 0, row_words), state);
  });
}

}  // namespace trn::rand
