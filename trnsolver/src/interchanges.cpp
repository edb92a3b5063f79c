// Row interchanges as DMA instructions (interchanges.hpp).
#include "interchanges.hpp"

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

namespace trn::solver::detail {
namespace {

constexpr std::int64_t kStageBytes = 64 * 1024;  // staging per partition per column chunk

// src[i]: the source row that destination row i receives from the interchanges ipiv[k0 .. k1).
std::vector<std::int64_t> interchange_sources(const int* ipiv, std::int64_t k0, std::int64_t k1, bool forward,
                                              std::int64_t rows) {
  std::vector<std::int64_t> src(static_cast<std::size_t>(rows));
  std::iota(src.begin(), src.end(), std::int64_t{0});
  for (std::int64_t t = k0; t < k1; ++t) {
    const std::int64_t k = forward ? t : k0 + k1 - 1 - t, p = ipiv[k] - 1;
    if (p != k) std::swap(src[static_cast<std::size_t>(k)], src[static_cast<std::size_t>(p)]);
  }
  return src;
}

// The moved rows of one column chunk: loads of every source row into its staging slot, then the
// stores to the destinations.
void move_rows_kernel(NeuronCore& nc, const HbmTensor& b, const std::vector<std::pair<std::int64_t, std::int64_t>>& moves,
                      std::int64_t words, std::int64_t cols) {
  const std::int64_t P = nc.hw().pmax, moved = static_cast<std::int64_t>(moves.size());
  const std::int64_t slots = (moved + P - 1) / P;
  const std::int64_t chunk = std::max<std::int64_t>(1, kStageBytes / (4 * words * slots));
  AllocScope sb(nc.sbuf());
  const auto parts = static_cast<std::int32_t>(std::min(P, moved));
  Tile stage = sb.alloc(DType::u32, parts, {slots * std::min(chunk, cols) * words}, "moved rows");
  for (std::int64_t c0 = 0; c0 < cols; c0 += chunk) {
    const std::int64_t cc = std::min(chunk, cols - c0), run = cc * words;
    auto slot = [&](std::int64_t t) {
      return stage.rows(static_cast<std::int32_t>(t % P), 1).cols((t / P) * run, run);
    };
    for (std::int64_t t = 0; t < moved; ++t)
      nc.dma_copy(slot(t), b.tile_nd({moves[static_cast<std::size_t>(t)].second, c0, 0}, {1, cc, words}, 0));
    for (std::int64_t t = 0; t < moved; ++t)
      nc.dma_copy(b.tile_nd({moves[static_cast<std::size_t>(t)].first, c0, 0}, {1, cc, words}, 0), slot(t));
  }
}

}  // namespace

void apply_interchanges(const Settings& s, const int* ipiv, std::int64_t k0, std::int64_t k1, bool forward,
                        std::int64_t rows, std::int64_t cols, void* B, std::int64_t ldb, std::size_t elem_bytes,
                        TraceParts& trace) {
  if (ipiv == nullptr || k1 <= k0 || rows <= 0 || cols <= 0) return;
  const std::vector<std::int64_t> src = interchange_sources(ipiv, k0, k1, forward, rows);
  std::vector<std::pair<std::int64_t, std::int64_t>> moves;  // (destination, source)
  for (std::int64_t i = 0; i < rows; ++i)
    if (src[static_cast<std::size_t>(i)] != i) moves.emplace_back(i, src[static_cast<std::size_t>(i)]);
  if (moves.empty()) return;
  const auto words = static_cast<std::int64_t>(elem_bytes / 4);
  // (row, column, word) of B as 32-bit words: a bit copy whatever the element type.
  const HbmTensor b = HbmTensor::wrap(B, DType::u32, {rows, cols, words}, {words, ldb * words, 1});
  LaunchConfig lc = s.launch_config();
  lc.num_cores = 1;
  lc.core.execute = true;  // the solve's next launches read the moved rows
  trace.add(launch(lc, [&](NeuronCore& nc) { move_rows_kernel(nc, b, moves, words, cols); }).trace);
}

}  // namespace trn::solver::detail
