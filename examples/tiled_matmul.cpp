#include "tiled_matmul.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace trn::examples {

void tiled_matmul_kernel(NeuronCore& nc, const HbmTensor& A, const HbmTensor& B, const HbmTensor& C,
                         const TiledMatmulConfig& cfg) {
  const HardwareSpec& hw = nc.hw();
  const int kTileK = hw.pmax;                  // contraction tile: partitions
  const int kTileM = hw.gemm_stationary_fmax;  // output partitions per matmul
  const int kTileN = static_cast<int>(hw.psum_bank_bytes / 4);  // one PSUM bank of fp32
  const std::int64_t M = A.shape()[0], K = A.shape()[1], N = B.shape()[1];

  const std::int64_t m_begin = std::int64_t{nc.program_id(0)} * cfg.block_m;
  const std::int64_t n_begin = std::int64_t{nc.program_id(1)} * cfg.block_n;
  const int bm = static_cast<int>(std::min<std::int64_t>(cfg.block_m, M - m_begin));
  const int bn = static_cast<int>(std::min<std::int64_t>(cfg.block_n, N - n_begin));
  if (bm <= 0 || bn <= 0) return;
  const int tiles_m = (bm + kTileM - 1) / kTileM, tiles_n = (bn + kTileN - 1) / kTileN;

  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  // One PSUM bank per (i, j) accumulator.
  std::vector<Tile> acc;
  for (int i = 0; i < tiles_m; ++i)
    for (int j = 0; j < tiles_n; ++j) acc.push_back(psum.alloc(DType::f32, kTileM, {kTileN}, "acc"));
  const Tile a_t = sbuf.alloc(cfg.compute, kTileK, {bm}, "A^T tile");  // [k, m]
  const Tile b_t = sbuf.alloc(cfg.compute, kTileK, {bn}, "B tile");    // [k, n]
  const Tile c_t = sbuf.alloc(C.dtype(), kTileM, {bn}, "C tile");      // [m, n]

  for (std::int64_t k0 = 0; k0 < K; k0 += kTileK) {
    const int tk = static_cast<int>(std::min<std::int64_t>(kTileK, K - k0));
    nc.dma_copy(a_t.rows(0, tk), A.tile_transposed(m_begin, bm, k0, tk));  // A[m, k] -> [k, m]
    nc.dma_copy(b_t.rows(0, tk), B.tile(k0, tk, n_begin, bn));
    // j outer: consecutive matmuls share the (wide) moving tile.
    for (int j = 0; j < tiles_n; ++j) {
      const int tn = std::min(kTileN, bn - j * kTileN);
      for (int i = 0; i < tiles_m; ++i) {
        const int tm = std::min(kTileM, bm - i * kTileM);
        nc.nc_matmul(acc[static_cast<std::size_t>(i * tiles_n + j)].rows(0, tm).cols(0, tn),
                     a_t.rows(0, tk).cols(i * kTileM, tm), b_t.rows(0, tk).cols(j * kTileN, tn),
                     /*accumulate=*/k0 > 0);
      }
    }
  }
  for (int i = 0; i < tiles_m; ++i) {
    const int tm = std::min(kTileM, bm - i * kTileM);
    for (int j = 0; j < tiles_n; ++j) {
      const int tn = std::min(kTileN, bn - j * kTileN);
      nc.tensor_copy(c_t.rows(0, tm).cols(j * kTileN, tn), acc[static_cast<std::size_t>(i * tiles_n + j)].rows(0, tm).cols(0, tn));
    }
    nc.dma_copy(C.tile(m_begin + i * kTileM, tm, n_begin, bn), c_t.rows(0, tm));
  }
}

LaunchResult tiled_matmul(const HbmTensor& A, const HbmTensor& B, const HbmTensor& C, const TiledMatmulConfig& cfg,
                          LaunchConfig launch_cfg) {
  if (A.shape().size() != 2 || B.shape().size() != 2 || C.shape().size() != 2 || A.shape()[1] != B.shape()[0] ||
      C.shape()[0] != A.shape()[0] || C.shape()[1] != B.shape()[1])
    throw UsageError("tiled_matmul", "A/B/C", "shapes must be [M,K] x [K,N] -> [M,N]");
  const auto& hw = hardware_spec(launch_cfg.core.generation);
  const int bank_n = static_cast<int>(hw.psum_bank_bytes / 4);
  if (cfg.block_m % hw.gemm_stationary_fmax != 0 || cfg.block_n % bank_n != 0 || cfg.block_m <= 0 || cfg.block_n <= 0 ||
      (cfg.block_m / hw.gemm_stationary_fmax) * (cfg.block_n / bank_n) > hw.psum_banks)
    throw UsageError("tiled_matmul", "block", "block_m must be a multiple of 128, block_n of 512, using <= 8 PSUM banks");
  launch_cfg.grid = {static_cast<int>((A.shape()[0] + cfg.block_m - 1) / cfg.block_m),
                     static_cast<int>((B.shape()[1] + cfg.block_n - 1) / cfg.block_n), 1};
  return launch(launch_cfg, [&](NeuronCore& nc) { tiled_matmul_kernel(nc, A, B, C, cfg); });
}

}  // namespace trn::examples
