// The SOBOL32 / SOBOL64 engine path (trn/rand/sobol.hpp, run_sobol_kernel): one dimension (64-bit:
// one 32-bit half of a dimension) per partition, Gray-code XORs of the direction vectors in the
// GpSimd custom operator "sobol_gray_xor".
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <vector>

#include "trn/core/error.hpp"
#include "trn/rand/sobol.hpp"

namespace trn::rand {

namespace {
constexpr std::int64_t kMaxFree = 2048;
// Declared GpSimd operations: per point a count-trailing-zeros, an indexed load of V and an XOR
// (and a store); per tile and partition the start point's Gray-code XOR over 32 vectors (64 ops;
// twice that over 64 vectors).
constexpr double kSobolGpsimdOpsPerPoint = 4.0;
constexpr double kSobolGpsimdStartOps = 64.0;
// Points first .. first + cnt - 1 (indices modulo mask + 1) of one dimension: x_i = the XOR of
// dv[b] over the bits b of gray(i) = i ^ (i >> 1), i.e. the Gray-code recurrence
// x_i = x_{i-1} ^ dv[ctz(i)] (x_0 = 0) written in closed form. For i = 256 B + t (t < 256),
// gray(i) = gray(256 B) ^ gray(t) (i >> 1 is the disjoint sum of 128 B and t >> 1), so x_i =
// prefix(B) ^ T[t] with T[t] = the XOR of dv[b] over the bits of gray(t) (256 entries, built by the
// recurrence) and prefix(B) over the bits of gray(256 B) (bit 7 and up): one XOR per point, independent of the previous point, instead of
// the recurrence's serial chain (host speed only: XOR is exact, so the same words; issue #30, session
// 22: the operator was ~1/3 of a SOBOL64 2^22 call's host time).
void sobol_gray_row(const std::uint32_t* dv, std::int64_t nvec, std::uint64_t first, std::uint64_t mask, std::int64_t cnt,
                    std::uint32_t* out) {
  constexpr std::uint64_t kLow = 256;
  std::array<std::uint32_t, kLow> low{};
  for (std::uint64_t t = 1; t < kLow; ++t) low[t] = low[t - 1] ^ dv[std::countr_zero(t)];
  for (std::int64_t j = 0; j < cnt;) {
    const std::uint64_t i = (first + static_cast<std::uint64_t>(j)) & mask;
    const std::uint64_t base = i & ~(kLow - 1), gray = base ^ (base >> 1);
    std::uint32_t prefix = 0;
    for (std::int64_t b = 7; b < nvec; ++b)  // gray(256 B) has bits 7 and up
      if ((gray >> b) & 1u) prefix ^= dv[b];
    // The rest of this block of 256 indices (the index wraps to 0 only at a block's start).
    const std::int64_t n = std::min<std::int64_t>(cnt - j, static_cast<std::int64_t>(kLow - (i - base)));
    const std::uint32_t* lt = low.data() + (i - base);
    for (std::int64_t k = 0; k < n; ++k) out[j + k] = prefix ^ lt[k];
    j += n;
  }
}
}  // namespace

LaunchResult run_sobol_kernel(unsigned bits, std::uint32_t dimensions, std::uint64_t first_point, std::uint64_t points,
                              bool uniform, void* out, const EngineConfig& cfg) {
  if (dimensions < 1 || dimensions > kSobolMaxDimensions)
    throw UsageError("run_sobol_kernel", "dimensions", "1 .. 20000");
  if (bits != 32 && bits != 64) throw UsageError("run_sobol_kernel", "bits", "32 or 64");
  if (points == 0) return {};
  const bool wide = bits == 64;
  const HardwareSpec& hw = hardware_spec(cfg.target);
  const std::int64_t F = std::max<std::int64_t>(
      1, std::min<std::int64_t>({kMaxFree, hw.vector_sbuf_fmax, static_cast<std::int64_t>(points)}));
  const std::uint64_t tiles = (points + static_cast<std::uint64_t>(F) - 1) / static_cast<std::uint64_t>(F);
  // 64-bit words: one 32-bit half per partition, so a program holds pmax / 2 dimensions.
  const auto dims_per_program = static_cast<std::uint32_t>(wide ? hw.pmax / 2 : hw.pmax);
  const auto blocks = static_cast<int>((dimensions + dims_per_program - 1) / dims_per_program);
  // The direction tables in HBM (read-only) as u32 [20000, bits]; 64-bit: the little-endian low
  // and high halves of [20000, 64] u64 as two strided views.
  const auto table_rows = static_cast<std::int64_t>(kSobolMaxDimensions);
  HbmTensor dirs_lo, dirs_hi;
  if (wide) {
    auto* base = const_cast<SobolDirections64*>(sobol_direction_vectors64());
    dirs_lo = HbmTensor::wrap(base, DType::u32, {table_rows, 64}, {128, 2});
    dirs_hi = HbmTensor::wrap(reinterpret_cast<std::uint32_t*>(base) + 1, DType::u32, {table_rows, 64}, {128, 2});
  } else {
    dirs_lo = HbmTensor::wrap(const_cast<SobolDirections32*>(sobol_direction_vectors32()), DType::u32, {table_rows, 32});
  }
  const DType out_dt = uniform ? DType::f32 : DType::u32;
  const auto nvec = static_cast<std::int64_t>(bits);

  // Dimensions are independent: one program per pmax (64-bit: pmax / 2) of them.
  const LaunchConfig lc = engine_launch_config(cfg, blocks);

  return launch(lc, [&](NeuronCore& nc) {
    const std::int32_t P = nc.hw().pmax;
    const std::int64_t d0 = static_cast<std::int64_t>(nc.program_id(0)) * dims_per_program;
    const auto rows = static_cast<std::int32_t>(std::min<std::int64_t>(dims_per_program, dimensions - d0));
    // Partition ranges: 32-bit [0, rows); 64-bit low halves [0, rows), high halves [P/2, P/2 + rows).
    const std::int32_t hi0 = wide ? P / 2 : 0;
    const std::int32_t used = wide ? hi0 + rows : rows;
    OnChipMemory& sbuf = nc.sbuf();
    const Tile dirs = sbuf.alloc(DType::u32, P, {nvec}, "sobol_directions").rows(0, used);
    const Tile pts = sbuf.alloc(DType::u32, P, {F}, "sobol_points").rows(0, used);
    const Tile flt = sbuf.alloc(DType::f32, P, {F}, "sobol_uniforms");
    nc.dma_copy(dirs.rows(0, rows), dirs_lo.tile(static_cast<std::int32_t>(d0), rows, 0, nvec));
    if (wide) nc.dma_copy(dirs.rows(hi0, rows), dirs_hi.tile(static_cast<std::int32_t>(d0), rows, 0, nvec));
    for (std::uint64_t k = 0; k < tiles; ++k) {
      const std::uint64_t j0 = k * static_cast<std::uint64_t>(F);
      const auto cnt = static_cast<std::int64_t>(std::min<std::uint64_t>(static_cast<std::uint64_t>(F), points - j0));
      const Tile pt = pts.cols(0, cnt);
      const Tile outputs[] = {pt};
      const Tile inputs[] = {dirs};
      nc.custom_op("sobol_gray_xor", outputs, inputs,
                   hw.gpsimd_start + kSobolGpsimdStartOps * (bits / 32) + kSobolGpsimdOpsPerPoint * static_cast<double>(cnt),
                   [first = first_point + j0, cnt, nvec, bits, wide, rows, hi0](const CustomOpContext& ctx) {
                     const Tile& o = ctx.outputs[0];
                     const Tile& v = ctx.inputs[0];
                     // The point index runs modulo 2^bits (point 2^32 of SOBOL32 is point 0).
                     const std::uint64_t mask = bits == 64 ? ~std::uint64_t{0} : 0xffffffffull;
                     for (std::int32_t p = 0; p < o.partitions; ++p) {
                       if (wide && p >= rows && p < hi0) continue;  // unused partitions between the halves
                       std::array<std::uint32_t, 64> dv{};
                       std::memcpy(dv.data(), v.at(p, 0), static_cast<std::size_t>(nvec) * 4);
                       sobol_gray_row(dv.data(), nvec, first, mask, cnt, reinterpret_cast<std::uint32_t*>(o.at(p, 0)));
                     }
                   });
      if (uniform) {
        // The float uniform of a 64-bit word is that of its high half (_curand_uniform(unsigned long long)).
        const Tile u = flt.rows(hi0, rows).cols(0, cnt);
        uniform_from_words(nc, u, pt.rows(hi0, rows));
        auto* base = static_cast<std::uint8_t*>(out) + (static_cast<std::uint64_t>(d0) * points + j0) * 4;
        nc.dma_copy(HbmTensor::wrap(base, out_dt, {rows, cnt}, {static_cast<std::int64_t>(points), 1}).tile(0, rows, 0, cnt),
                    u);
      } else if (!wide) {
        // Rows to their dimensions' blocks of `out`: element (d, j) at d * points + j.
        auto* base = static_cast<std::uint8_t*>(out) + (static_cast<std::uint64_t>(d0) * points + j0) * 4;
        nc.dma_copy(HbmTensor::wrap(base, out_dt, {rows, cnt}, {static_cast<std::int64_t>(points), 1}).tile(0, rows, 0, cnt),
                    pt);
      } else {
        // 64-bit: word (d, j) at d * points + j; its low half at the even u32, the high half at the odd one.
        auto* base = static_cast<std::uint8_t*>(out) + (static_cast<std::uint64_t>(d0) * points + j0) * 8;
        const std::vector<std::int64_t> strides = {2 * static_cast<std::int64_t>(points), 2};
        nc.dma_copy(HbmTensor::wrap(base, DType::u32, {rows, cnt}, strides).tile(0, rows, 0, cnt), pt.rows(0, rows));
        nc.dma_copy(HbmTensor::wrap(base + 4, DType::u32, {rows, cnt}, strides).tile(0, rows, 0, cnt),
                    pt.rows(hi0, rows));
      }
    }
  });
}

}  // namespace trn::rand
