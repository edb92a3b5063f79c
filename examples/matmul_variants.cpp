#include "matmul_variants.hpp"

#include <vector>

namespace trn::examples {

namespace {
void check_shapes(const HbmTensor& lhsT, const HbmTensor& rhs, const HbmTensor& C, std::int64_t bm, std::int64_t bn,
                  std::int64_t bk, const char* who) {
  const auto& a = lhsT.shape();
  const auto& b = rhs.shape();
  const auto& c = C.shape();
  if (a.size() != 2 || b.size() != 2 || c.size() != 2 || a[0] != b[0] || c[0] != a[1] || c[1] != b[1])
    throw UsageError(who, "lhsT/rhs/C", "shapes must be [K,M], [K,N] -> [M,N]");
  if (a[1] % bm || b[1] % bn || a[0] % bk)
    throw UsageError(who, "shape", "M, N, K must be multiples of the block sizes");
}
}  // namespace

void naive_tiled_matmul_kernel(NeuronCore& nc, const HbmTensor& lhsT, const HbmTensor& rhs, const HbmTensor& C) {
  const HardwareSpec& hw = nc.hw();
  const int TK = hw.pmax, TM = hw.gemm_stationary_fmax, TN = static_cast<int>(hw.psum_bank_bytes / 4);
  const std::int64_t K = lhsT.shape()[0];
  const std::int64_t m0 = std::int64_t{nc.program_id(1)} * TM, n0 = std::int64_t{nc.program_id(0)} * TN;
  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  const Tile acc = psum.alloc(DType::f32, TM, {TN}, "acc");
  const Tile a = sbuf.alloc(lhsT.dtype(), TK, {TM}, "lhsT tile");
  const Tile b = sbuf.alloc(rhs.dtype(), TK, {TN}, "rhs tile");
  const Tile c = sbuf.alloc(C.dtype(), TM, {TN}, "result");
  for (std::int64_t k0 = 0; k0 < K; k0 += TK) {
    nc.dma_copy(a, lhsT.tile(k0, TK, m0, TM));
    nc.dma_copy(b, rhs.tile(k0, TK, n0, TN));
    nc.nc_matmul(acc, a, b, k0 > 0);
  }
  nc.tensor_copy(c, acc);
  nc.dma_copy(C.tile(m0, TM, n0, TN), c);
}

LaunchResult naive_tiled_matmul(const HbmTensor& lhsT, const HbmTensor& rhs, const HbmTensor& C, LaunchConfig lc) {
  const auto& hw = hardware_spec(lc.core.generation);
  const int TN = static_cast<int>(hw.psum_bank_bytes / 4);
  check_shapes(lhsT, rhs, C, hw.gemm_stationary_fmax, TN, hw.pmax, "naive_tiled_matmul");
  lc.grid = {static_cast<int>(rhs.shape()[1] / TN), static_cast<int>(lhsT.shape()[1] / hw.gemm_stationary_fmax), 1};
  return launch(lc, [&](NeuronCore& nc) { naive_tiled_matmul_kernel(nc, lhsT, rhs, C); });
}

void blocked_matmul_kernel(NeuronCore& nc, const HbmTensor& lhsT, const HbmTensor& rhs, const HbmTensor& C,
                           const BlockedMatmulConfig& cfg) {
  const HardwareSpec& hw = nc.hw();
  const int TK = hw.pmax, TM = hw.gemm_stationary_fmax, TN = static_cast<int>(hw.psum_bank_bytes / 4);
  const std::int64_t K = lhsT.shape()[0];
  const int tiles_m = cfg.block_m / TM, tiles_n = cfg.block_n / TN, tiles_k = cfg.block_k / TK;
  const std::int64_t m_begin = std::int64_t{nc.program_id(1)} * cfg.block_m;
  const std::int64_t n_begin = std::int64_t{nc.program_id(0)} * cfg.block_n;

  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  // fp32 result block: tiles_m tiles of [128, block_n].
  std::vector<Tile> result;
  for (int i = 0; i < tiles_m; ++i) result.push_back(sbuf.alloc(DType::f32, TM, {cfg.block_n}, "result block"));
  // Double-buffered operand blocks: [128, tiles_k * block_m] and [128, tiles_k * block_n].
  Tile a_blk[2], b_blk[2];
  for (int s = 0; s < 2; ++s) {
    a_blk[s] = sbuf.alloc(lhsT.dtype(), TK, {tiles_k, cfg.block_m}, "lhsT block");
    b_blk[s] = sbuf.alloc(rhs.dtype(), TK, {tiles_k, cfg.block_n}, "rhs block");
  }
  std::vector<Tile> banks;
  for (int i = 0; i < hw.psum_banks; ++i) banks.push_back(psum.alloc(DType::f32, TM, {TN}, "psum bank"));
  // Rotating output tiles so that VectorE casts tile i+1 while DMA stores tile i.
  constexpr int kOutBuffers = 4;
  std::vector<Tile> out;
  for (int i = 0; i < kOutBuffers; ++i) out.push_back(sbuf.alloc(C.dtype(), TM, {cfg.block_n}, "output tile"));

  int bank = 0;
  for (std::int64_t kb = 0, step = 0; kb < K; kb += cfg.block_k, ++step) {
    const Tile& A = a_blk[step % 2];
    const Tile& B = b_blk[step % 2];
    for (int t = 0; t < tiles_k; ++t) {
      nc.dma_copy(A.slice(0, t, 1), lhsT.tile(kb + std::int64_t{t} * TK, TK, m_begin, cfg.block_m));
      nc.dma_copy(B.slice(0, t, 1), rhs.tile(kb + std::int64_t{t} * TK, TK, n_begin, cfg.block_n));
    }
    for (int i = 0; i < tiles_m; ++i)
      for (int j = 0; j < tiles_n; ++j) {
        const Tile& acc = banks[static_cast<std::size_t>(bank)];
        bank = (bank + 1) % hw.psum_banks;
        for (int t = 0; t < tiles_k; ++t)
          nc.nc_matmul(acc, A.slice(0, t, 1).slice(1, i * TM, TM), B.slice(0, t, 1).slice(1, j * TN, TN), t > 0);
        const Tile r = result[static_cast<std::size_t>(i)].cols(j * TN, TN);
        if (kb == 0)
          nc.tensor_copy(r, acc);
        else
          nc.tensor_tensor(r, r, acc, AluOp::add);
      }
  }
  for (int i = 0; i < tiles_m; ++i) {
    const Tile& o = out[static_cast<std::size_t>(i % kOutBuffers)];
    // ScalarE casts the result so that VectorE can start on the next block's PSUM evacuations.
    nc.activation(o, result[static_cast<std::size_t>(i)], ActFunc::copy);
    nc.dma_copy(C.tile(m_begin + std::int64_t{i} * TM, TM, n_begin, cfg.block_n), o);
  }
}

LaunchResult blocked_matmul(const HbmTensor& lhsT, const HbmTensor& rhs, const HbmTensor& C,
                            const BlockedMatmulConfig& cfg, LaunchConfig lc) {
  check_shapes(lhsT, rhs, C, cfg.block_m, cfg.block_n, cfg.block_k, "blocked_matmul");
  lc.grid = {static_cast<int>(rhs.shape()[1] / cfg.block_n), static_cast<int>(lhsT.shape()[1] / cfg.block_m), 1};
  return launch(lc, [&](NeuronCore& nc) { blocked_matmul_kernel(nc, lhsT, rhs, C, cfg); });
}

}  // namespace trn::examples
