// The SOBOL32 engine path (trn/rand/sobol.hpp, run_sobol_kernel): one dimension per partition,
// Gray-code XORs of the direction vectors in the GpSimd custom operator "sobol_gray_xor".
#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "trn/core/error.hpp"
#include "trn/rand/sobol.hpp"

namespace trn::rand {

namespace {
constexpr std::int64_t kMaxFree = 2048;
// Declared GpSimd operations: per point a count-trailing-zeros, an indexed load of V and an XOR
// (and a store); per tile and partition the start point's Gray-code XOR over 32 vectors (64 ops).
constexpr double kSobolGpsimdOpsPerPoint = 4.0;
constexpr double kSobolGpsimdStartOps = 64.0;
}  // namespace

LaunchResult run_sobol_kernel(std::uint32_t dimensions, std::uint64_t first_point, std::uint64_t points, bool uniform,
                              void* out, const EngineConfig& cfg) {
  if (dimensions < 1 || dimensions > kSobolMaxDimensions)
    throw UsageError("run_sobol_kernel", "dimensions", "1 .. 20000");
  if (points == 0) return {};
  const HardwareSpec& hw = hardware_spec(cfg.target);
  const std::int64_t F = std::max<std::int64_t>(
      1, std::min<std::int64_t>({kMaxFree, hw.vector_sbuf_fmax, static_cast<std::int64_t>(points)}));
  const std::uint64_t tiles = (points + static_cast<std::uint64_t>(F) - 1) / static_cast<std::uint64_t>(F);
  const auto blocks = static_cast<int>((dimensions + static_cast<std::uint32_t>(hw.pmax) - 1) /
                                       static_cast<std::uint32_t>(hw.pmax));
  // The direction table in HBM (read-only): [20000, 32] u32.
  const HbmTensor dirs_hbm = HbmTensor::wrap(const_cast<SobolDirections32*>(sobol_direction_vectors32()), DType::u32,
                                             {static_cast<std::int64_t>(kSobolMaxDimensions), 32});
  const DType out_dt = uniform ? DType::f32 : DType::u32;

  LaunchConfig lc;
  lc.grid = {blocks, 1, 1};  // dimensions are independent: one program per 128 of them
  lc.host_threads = cfg.host_threads;
  lc.num_cores = cfg.num_cores;
  lc.core.generation = cfg.target;
  lc.core.numerics = cfg.numerics;
  lc.core.execute = cfg.execute;

  return launch(lc, [&](NeuronCore& nc) {
    const std::int32_t P = nc.hw().pmax;
    const std::int64_t d0 = static_cast<std::int64_t>(nc.program_id(0)) * P;
    const auto rows = static_cast<std::int32_t>(std::min<std::int64_t>(P, dimensions - d0));
    OnChipMemory& sbuf = nc.sbuf();
    const Tile dirs = sbuf.alloc(DType::u32, P, {32}, "sobol_directions").rows(0, rows);
    const Tile pts = sbuf.alloc(DType::u32, P, {F}, "sobol_points").rows(0, rows);
    const Tile flt = sbuf.alloc(DType::f32, P, {F}, "sobol_uniforms").rows(0, rows);
    nc.dma_copy(dirs, dirs_hbm.tile(static_cast<std::int32_t>(d0), rows, 0, 32));
    for (std::uint64_t k = 0; k < tiles; ++k) {
      const std::uint64_t j0 = k * static_cast<std::uint64_t>(F);
      const auto cnt = static_cast<std::int64_t>(std::min<std::uint64_t>(static_cast<std::uint64_t>(F), points - j0));
      const Tile pt = pts.cols(0, cnt);
      const Tile outputs[] = {pt};
      const Tile inputs[] = {dirs};
      nc.custom_op("sobol_gray_xor", outputs, inputs,
                   hw.gpsimd_start + kSobolGpsimdStartOps + kSobolGpsimdOpsPerPoint * static_cast<double>(cnt),
                   [first = first_point + j0, cnt](const CustomOpContext& ctx) {
                     const Tile& o = ctx.outputs[0];
                     const Tile& v = ctx.inputs[0];
                     for (std::int32_t p = 0; p < o.partitions; ++p) {
                       SobolDirections32 dv;
                       std::memcpy(dv.data(), v.at(p, 0), 32 * 4);
                       std::vector<std::uint32_t> row(static_cast<std::size_t>(cnt));
                       std::uint32_t x = sobol_point32(dv, first);
                       row[0] = x;
                       for (std::int64_t j = 1; j < cnt; ++j) {
                         const auto i = static_cast<std::uint32_t>(first + static_cast<std::uint64_t>(j));
                         x = i == 0 ? 0u : x ^ dv[static_cast<std::size_t>(std::countr_zero(i))];
                         row[static_cast<std::size_t>(j)] = x;
                       }
                       std::memcpy(o.at(p, 0), row.data(), row.size() * 4);
                     }
                   });
      const Tile src = uniform ? flt.cols(0, cnt) : pt;
      if (uniform) uniform_from_words(nc, src, pt);
      // Rows to their dimensions' blocks of `out`: element (d, j) at d * points + j.
      auto* base = static_cast<std::uint8_t*>(out) + (static_cast<std::uint64_t>(d0) * points + j0) * 4;
      nc.dma_copy(HbmTensor::wrap(base, out_dt, {rows, cnt}, {static_cast<std::int64_t>(points), 1}).tile(0, rows, 0, cnt),
                  src);
    }
  });
}

}  // namespace trn::rand
