#include "nki_matmul_tutorial.hpp"

#include <algorithm>
#include <cmath>
#include <array>
#include <cstdio>

namespace trn::examples {

namespace {

struct Sizes {
  std::int64_t K, M, N;
  int TILE_M, TILE_K, TILE_N;
};

Sizes check(const NeuronCore& nc, const HbmTensor& lhsT, const HbmTensor& rhs, const HbmTensor& result,
            std::int64_t block_m, std::int64_t block_n, std::int64_t block_k, const char* who) {
  const HardwareSpec& hw = nc.hw();
  Sizes s{0, 0, 0, hw.gemm_stationary_fmax, hw.pmax, static_cast<int>(hw.psum_bank_bytes / 4)};
  const auto& a = lhsT.shape();
  const auto& b = rhs.shape();
  const auto& c = result.shape();
  if (a.size() != 2 || b.size() != 2 || c.size() != 2 || a[0] != b[0] || c[0] != a[1] || c[1] != b[1])
    throw UsageError(who, "lhsT/rhs/result", "shapes must be [K,M], [K,N] -> [M,N]");
  s.K = a[0];
  s.M = a[1];
  s.N = b[1];
  if (s.M % (block_m * s.TILE_M) || s.N % (block_n * s.TILE_N) || s.K % (block_k * s.TILE_K))
    throw UsageError(who, "shape", "M, N, K must be multiples of the (block) tile sizes");
  return s;
}

// Up to `wanted` physical copies of a loop-local tile (the compiler's buffer rotation), as many as
// leave `reserve` bytes per partition free; at least one (which throws the capacity error if even
// that does not fit).
std::vector<Tile> rotating(AllocScope& scope, const OnChipMemory& mem, DType dt, int partitions,
                           std::initializer_list<std::int64_t> free_shape, int wanted, std::int64_t reserve,
                           const char* name) {
  std::int64_t bytes = dtype_size(dt);
  for (std::int64_t d : free_shape) bytes *= d;
  const std::int64_t padded = (bytes + kAllocAlignBytes - 1) / kAllocAlignBytes * kAllocAlignBytes;
  std::vector<Tile> v;
  for (int i = 0; i < std::max(wanted, 1); ++i) {
    if (i > 0 && mem.partition_bytes() - mem.used_bytes() - reserve < padded) break;
    v.push_back(scope.alloc(dt, partitions, free_shape, name));
  }
  return v;
}

template <class T>
const T& rot(const std::vector<T>& v, std::int64_t i) {
  return v[static_cast<std::size_t>(i % static_cast<std::int64_t>(v.size()))];
}

}  // namespace

void nki_matmul_tiled(NeuronCore& nc, const HbmTensor& lhsT, const HbmTensor& rhs, const HbmTensor& result,
                      const TutorialOptions& opt) {
  const Sizes s = check(nc, lhsT, rhs, result, 1, 1, 1, "nki_matmul_tiled");
  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  const auto lhsT_tile = rotating(sbuf, nc.sbuf(), lhsT.dtype(), s.TILE_K, {s.TILE_M}, opt.buffers, 0, "lhsT_tile");
  const auto rhs_tile = rotating(sbuf, nc.sbuf(), rhs.dtype(), s.TILE_K, {s.TILE_N}, opt.buffers, 0, "rhs_tile");
  const auto res_sb = rotating(sbuf, nc.sbuf(), result.dtype(), s.TILE_M, {s.TILE_N}, opt.buffers, 0, "res_sb");
  const auto res_psum = rotating(psum, nc.psum(), DType::f32, s.TILE_M, {s.TILE_N}, nc.hw().psum_banks, 0, "res_psum");
  std::int64_t it = 0, out = 0;
  for (std::int64_t m = 0; m < s.M / s.TILE_M; ++m)
    for (std::int64_t n = 0; n < s.N / s.TILE_N; ++n, ++out) {
      const Tile& acc = rot(res_psum, out);
      for (std::int64_t k = 0; k < s.K / s.TILE_K; ++k, ++it) {
        const Tile& a = rot(lhsT_tile, it);
        const Tile& b = rot(rhs_tile, it);
        nc.dma_copy(a, lhsT.tile(k * s.TILE_K, s.TILE_K, m * s.TILE_M, s.TILE_M));
        nc.dma_copy(b, rhs.tile(k * s.TILE_K, s.TILE_K, n * s.TILE_N, s.TILE_N));
        nc.nc_matmul(acc, a, b, k > 0);
      }
      const Tile& r = rot(res_sb, out);
      nc.tensor_copy(r, acc);
      nc.dma_copy(result.tile(m * s.TILE_M, s.TILE_M, n * s.TILE_N, s.TILE_N), r);
    }
}

void nki_matmul_hoist_load(NeuronCore& nc, const HbmTensor& lhsT, const HbmTensor& rhs, const HbmTensor& result,
                           const TutorialOptions& opt) {
  const Sizes s = check(nc, lhsT, rhs, result, 1, 1, 1, "nki_matmul_hoist_load");
  const std::int64_t KT = s.K / s.TILE_K;
  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  const auto res_sb = rotating(sbuf, nc.sbuf(), result.dtype(), s.TILE_M, {s.TILE_N}, opt.buffers, 0, "res_sb");
  const auto res_psum = rotating(psum, nc.psum(), DType::f32, s.TILE_M, {s.TILE_N}, nc.hw().psum_banks, 0, "res_psum");
  // One set = the K column of tiles ([128, KT, 128] for lhsT, [128, KT, 512] for rhs). lhsT keeps two
  // sets (the next m's loads overlap this m's last matmuls), rhs as many as fit after that.
  const std::int64_t rhs_set_bytes = KT * s.TILE_N * dtype_size(rhs.dtype());
  const auto lhsT_tiles =
      rotating(sbuf, nc.sbuf(), lhsT.dtype(), s.TILE_K, {KT, s.TILE_M}, 2, rhs_set_bytes, "lhsT_tiles");
  const auto rhs_tiles = rotating(sbuf, nc.sbuf(), rhs.dtype(), s.TILE_K, {KT, s.TILE_N}, opt.buffers, 0, "rhs_tiles");
  std::int64_t out = 0;
  for (std::int64_t m = 0; m < s.M / s.TILE_M; ++m) {
    const Tile& A = rot(lhsT_tiles, m);
    for (std::int64_t k = 0; k < KT; ++k)
      nc.dma_copy(A.slice(0, k, 1), lhsT.tile(k * s.TILE_K, s.TILE_K, m * s.TILE_M, s.TILE_M));
    for (std::int64_t n = 0; n < s.N / s.TILE_N; ++n, ++out) {
      const Tile& B = rot(rhs_tiles, out);
      for (std::int64_t k = 0; k < KT; ++k)
        nc.dma_copy(B.slice(0, k, 1), rhs.tile(k * s.TILE_K, s.TILE_K, n * s.TILE_N, s.TILE_N));
      const Tile& acc = rot(res_psum, out);
      for (std::int64_t k = 0; k < KT; ++k) nc.nc_matmul(acc, A.slice(0, k, 1), B.slice(0, k, 1), k > 0);
      const Tile& r = rot(res_sb, out);
      nc.tensor_copy(r, acc);
      nc.dma_copy(result.tile(m * s.TILE_M, s.TILE_M, n * s.TILE_N, s.TILE_N), r);
    }
  }
}

void nki_matmul_block_free_dimension(NeuronCore& nc, const HbmTensor& lhsT, const HbmTensor& rhs,
                                     const HbmTensor& result, const TutorialOptions& opt) {
  constexpr int TILES_IN_BLOCK_M = 2, TILES_IN_BLOCK_N = 2;  // the tutorial's fixed blocking
  const Sizes s = check(nc, lhsT, rhs, result, TILES_IN_BLOCK_M, TILES_IN_BLOCK_N, 1, "nki_matmul_block_free_dimension");
  const std::int64_t KT = s.K / s.TILE_K;
  const std::int64_t BLOCK_M = s.TILE_M * TILES_IN_BLOCK_M, BLOCK_N = s.TILE_N * TILES_IN_BLOCK_N;
  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  const auto result_tmp =
      rotating(sbuf, nc.sbuf(), result.dtype(), s.TILE_M, {s.TILE_N}, opt.buffers, 0, "result_tmp");
  const auto result_tile =
      rotating(psum, nc.psum(), DType::f32, s.TILE_M, {s.TILE_N}, nc.hw().psum_banks, 0, "result_tile");
  // lhsT_tiles[bm][k] and rhs_tiles[bn][k] as one tile per set: [128, TILES_IN_BLOCK * KT, TILE].
  // With bf16 at K = 8192 one rhs set is 128 KiB of trn1's 192: one set each fits (the loads of the
  // next block then wait tile by tile for the matmuls that read the previous contents). With fp32
  // the rhs set (256 KiB) exceeds SBUF; the compiler must then re-load: this port loads rhs's K
  // column for each output tile (bm, bn) right before its matmuls, into rotating [128, KT, 512] sets.
  const std::int64_t rhs_col_bytes = KT * s.TILE_N * dtype_size(rhs.dtype());
  const std::int64_t lhsT_set_bytes = TILES_IN_BLOCK_M * KT * s.TILE_M * dtype_size(lhsT.dtype());
  const std::int64_t free_bytes = nc.sbuf().partition_bytes() - nc.sbuf().used_bytes();
  const bool rhs_block_fits = lhsT_set_bytes + TILES_IN_BLOCK_N * rhs_col_bytes <= free_bytes;
  const std::int64_t rhs_set_bytes = rhs_block_fits ? TILES_IN_BLOCK_N * rhs_col_bytes : rhs_col_bytes;
  const auto lhsT_tiles = rotating(sbuf, nc.sbuf(), lhsT.dtype(), s.TILE_K, {TILES_IN_BLOCK_M * KT, s.TILE_M},
                                   opt.buffers, rhs_set_bytes, "lhsT_tiles");
  const auto rhs_tiles =
      rotating(sbuf, nc.sbuf(), rhs.dtype(), s.TILE_K, {(rhs_block_fits ? TILES_IN_BLOCK_N : 1) * KT, s.TILE_N},
               opt.buffers, 0, "rhs_tiles");
  std::int64_t out = 0, nset = 0;
  auto load_rhs = [&](const Tile& B, int slot, std::int64_t n, int bn) {
    for (std::int64_t k = 0; k < KT; ++k)
      nc.dma_copy(B.slice(0, slot * KT + k, 1),
                  rhs.tile(k * s.TILE_K, s.TILE_K, (n * TILES_IN_BLOCK_N + bn) * s.TILE_N, s.TILE_N));
  };
  for (std::int64_t m = 0; m < s.M / BLOCK_M; ++m) {
    const Tile& A = rot(lhsT_tiles, m);
    for (int bm = 0; bm < TILES_IN_BLOCK_M; ++bm)
      for (std::int64_t k = 0; k < KT; ++k)
        nc.dma_copy(A.slice(0, bm * KT + k, 1),
                    lhsT.tile(k * s.TILE_K, s.TILE_K, (m * TILES_IN_BLOCK_M + bm) * s.TILE_M, s.TILE_M));
    for (std::int64_t n = 0; n < s.N / BLOCK_N; ++n) {
      const Tile* B = &rot(rhs_tiles, nset);
      if (rhs_block_fits) {
        for (int bn = 0; bn < TILES_IN_BLOCK_N; ++bn) load_rhs(*B, bn, n, bn);
        ++nset;
      }
      for (int bm = 0; bm < TILES_IN_BLOCK_M; ++bm)
        for (int bn = 0; bn < TILES_IN_BLOCK_N; ++bn, ++out) {
          int slot = bn;
          if (!rhs_block_fits) {  // re-load this output tile's rhs column (see above)
            B = &rot(rhs_tiles, nset++);
            slot = 0;
            load_rhs(*B, 0, n, bn);
          }
          const Tile& acc = rot(result_tile, out);
          for (std::int64_t k = 0; k < KT; ++k)
            nc.nc_matmul(acc, A.slice(0, bm * KT + k, 1), B->slice(0, slot * KT + k, 1), k > 0);
          const Tile& r = rot(result_tmp, out);
          nc.tensor_copy(r, acc);
          nc.dma_copy(result.tile((m * TILES_IN_BLOCK_M + bm) * s.TILE_M, s.TILE_M,
                                  (n * TILES_IN_BLOCK_N + bn) * s.TILE_N, s.TILE_N),
                      r);
        }
    }
  }
}

void nki_matmul_fully_optimized(NeuronCore& nc, const HbmTensor& lhsT, const HbmTensor& rhs, const HbmTensor& result,
                                const TutorialOptions& opt) {
  const int TBM = opt.tiles_in_block_m, TBN = opt.tiles_in_block_n, TBK = opt.tiles_in_block_k;
  const Sizes s = check(nc, lhsT, rhs, result, TBM, TBN, TBK, "nki_matmul_fully_optimized");
  const std::int64_t BLOCK_M = std::int64_t{s.TILE_M} * TBM, BLOCK_N = std::int64_t{s.TILE_N} * TBN;
  const std::int64_t BLOCK_K = std::int64_t{s.TILE_K} * TBK;
  const std::int64_t NUM_BLOCK_M = s.M / BLOCK_M, NUM_BLOCK_N = s.N / BLOCK_N, NUM_BLOCK_K = s.K / BLOCK_K;
  const DType acc_dt = lhsT.dtype();  // the tutorial accumulates K blocks in lhsT's dtype
  AllocScope psum(nc.psum());
  const auto result_tile =
      rotating(psum, nc.psum(), DType::f32, s.TILE_M, {s.TILE_N}, nc.hw().psum_banks, 0, "result_tile");
  std::int64_t out = 0, kset = 0, mset = 0;
  for (std::int64_t n = 0; n < NUM_BLOCK_N; ++n) {
    AllocScope per_n(nc.sbuf());
    // result_tmps[m][bm][bn], each [TILE_M, TILE_N], zeroed.
    const Tile result_tmps = per_n.alloc(acc_dt, s.TILE_M, {NUM_BLOCK_M * TBM * TBN, s.TILE_N}, "result_tmps");
    auto tmp = [&](std::int64_t m, int bm, int bn) { return result_tmps.slice(0, (m * TBM + bm) * TBN + bn, 1); };
    for (std::int64_t m = 0; m < NUM_BLOCK_M; ++m)
      for (int bm = 0; bm < TBM; ++bm)
        for (int bn = 0; bn < TBN; ++bn) nc.memset(tmp(m, bm, bn), 0.0f);
    {
      AllocScope per_k(nc.sbuf());
      const std::int64_t lhsT_set_bytes = TBK * BLOCK_M * dtype_size(lhsT.dtype());
      const auto rhs_tiles = rotating(per_k, nc.sbuf(), rhs.dtype(), s.TILE_K, {TBK, BLOCK_N}, opt.buffers,
                                      lhsT_set_bytes, "rhs_tiles");
      const auto lhsT_tiles =
          rotating(per_k, nc.sbuf(), lhsT.dtype(), s.TILE_K, {TBK, BLOCK_M}, opt.buffers, 0, "lhsT_tiles");
      for (std::int64_t k = 0; k < NUM_BLOCK_K; ++k, ++kset) {
        const Tile& R = rot(rhs_tiles, kset);
        for (int bk_r = 0; bk_r < TBK; ++bk_r)
          nc.dma_copy(R.slice(0, bk_r, 1),
                      rhs.tile((TBK * k + bk_r) * s.TILE_K, s.TILE_K, BLOCK_N * n, BLOCK_N));
        for (std::int64_t m = 0; m < NUM_BLOCK_M; ++m, ++mset) {
          const Tile& L = rot(lhsT_tiles, mset);
          for (int bk_l = 0; bk_l < TBK; ++bk_l)
            nc.dma_copy(L.slice(0, bk_l, 1),
                        lhsT.tile((TBK * k + bk_l) * s.TILE_K, s.TILE_K, BLOCK_M * m, BLOCK_M));
          for (int bn = 0; bn < TBN; ++bn)
            for (int bm = 0; bm < TBM; ++bm, ++out) {
              const Tile& acc = rot(result_tile, out);
              for (int bk = 0; bk < TBK; ++bk)
                nc.nc_matmul(acc, L.slice(0, bk, 1).cols(bm * s.TILE_M, s.TILE_M),
                             R.slice(0, bk, 1).cols(bn * s.TILE_N, s.TILE_N), bk > 0);
              const Tile t = tmp(m, bm, bn);
              nc.tensor_tensor(t, t, acc, AluOp::add);
            }
        }
      }
    }  // the operand blocks are dead: their space holds the packed results (compiler buffer reuse)
    AllocScope per_store(nc.sbuf());
    const auto result_packed =
        rotating(per_store, nc.sbuf(), DType::f32, s.TILE_M, {BLOCK_N}, opt.buffers, 0, "result_packed");
    std::int64_t st = 0;
    for (std::int64_t m = 0; m < NUM_BLOCK_M; ++m)
      for (int bm = 0; bm < TBM; ++bm, ++st) {
        const Tile& P = rot(result_packed, st);
        for (int bn = 0; bn < TBN; ++bn) nc.tensor_copy(P.cols(bn * s.TILE_N, s.TILE_N), tmp(m, bm, bn));
        nc.dma_copy(result.tile((TBM * m + bm) * s.TILE_M, s.TILE_M, BLOCK_N * n, BLOCK_N), P);
      }
  }
}

const char* tutorial_kernel_name(TutorialKernel k) {
  switch (k) {
    case TutorialKernel::tiled: return "basic tiled";
    case TutorialKernel::hoist_load: return "hoisted loads";
    case TutorialKernel::block_free_dimension: return "M/N blocking";
    case TutorialKernel::fully_optimized: return "M/N/K blocking";
  }
  return "?";
}

void run_tutorial_kernel(TutorialKernel k, NeuronCore& nc, const HbmTensor& lhsT, const HbmTensor& rhs,
                         const HbmTensor& result, const TutorialOptions& opt) {
  switch (k) {
    case TutorialKernel::tiled: return nki_matmul_tiled(nc, lhsT, rhs, result, opt);
    case TutorialKernel::hoist_load: return nki_matmul_hoist_load(nc, lhsT, rhs, result, opt);
    case TutorialKernel::block_free_dimension: return nki_matmul_block_free_dimension(nc, lhsT, rhs, result, opt);
    case TutorialKernel::fully_optimized: return nki_matmul_fully_optimized(nc, lhsT, rhs, result, opt);
  }
}

const std::vector<PublishedFigure>& tutorial_published_figures() {
  using M = PublishedFigure::Metric;
  using K = TutorialKernel;
  static const std::vector<PublishedFigure> figures = {
      // MMTUT, older revision: latency on trn1, bf16, lhs 4096 x 8192, rhs 8192 x 8192.
      {K::tiled, Generation::trn1, DType::bf16, M::latency_ms, 51.80},
      {K::hoist_load, Generation::trn1, DType::bf16, M::latency_ms, 42.96},
      {K::block_free_dimension, Generation::trn1, DType::bf16, M::latency_ms, 22.07},
      {K::fully_optimized, Generation::trn1, DType::bf16, M::latency_ms, 6.97},
      // MMTUT, current revision: neuron-profile engine activity on trn2, fp32 inputs.
      {K::tiled, Generation::trn2, DType::f32, M::dma_active, 99.93},
      {K::tiled, Generation::trn2, DType::f32, M::tensor_active, 87.28},
      {K::hoist_load, Generation::trn2, DType::f32, M::dma_active, 99.73},
      {K::hoist_load, Generation::trn2, DType::f32, M::tensor_active, 99.85},
      {K::block_free_dimension, Generation::trn2, DType::f32, M::tensor_active, 99.52},
      {K::block_free_dimension, Generation::trn2, DType::f32, M::dma_active, 95.70},
      {K::fully_optimized, Generation::trn2, DType::f32, M::dma_active, 21.54},
      {K::fully_optimized, Generation::trn2, DType::f32, M::tensor_active, 99.50},
      {K::fully_optimized, Generation::trn2, DType::f32, M::vector_active, 10.55},
  };
  return figures;
}

std::vector<CalibrationRow> tutorial_calibration() {
  constexpr std::int64_t M = 4096, K = 8192, N = 8192;  // the tutorial's benchmark shape
  std::vector<CalibrationRow> rows;
  // One timing-only run per (kernel, target, dtype), shared by that run's figures.
  struct Key {
    TutorialKernel k;
    Generation g;
    DType dt;
    bool operator==(const Key&) const = default;
  };
  std::vector<std::pair<Key, std::array<Profile, 2>>> runs;  // as written, reordered
  for (const PublishedFigure& f : tutorial_published_figures()) {
    const Key key{f.kernel, f.target, f.dtype};
    auto it = std::find_if(runs.begin(), runs.end(), [&](const auto& r) { return r.first == key; });
    if (it == runs.end()) {
      CoreConfig cfg;
      cfg.generation = f.target;
      cfg.execute = false;
      NeuronCore nc(cfg);
      const HbmTensor lhsT(f.dtype, {K, M}), rhs(f.dtype, {K, N}), result(f.dtype, {M, N});
      run_tutorial_kernel(f.kernel, nc, lhsT, rhs, result);
      CostModelOptions opt;
      opt.target = f.target;
      opt.compare_modes = false;
      std::array<Profile, 2> p;
      p[0] = schedule_trace(nc.trace(), opt).profile;
      opt.mode = ScheduleMode::reorder;
      p[1] = schedule_trace(nc.trace(), opt).profile;
      runs.emplace_back(key, p);
      it = std::prev(runs.end());
    }
    auto value = [&](const Profile& p) {
      switch (f.metric) {
        case PublishedFigure::Metric::latency_ms: return p.total_ns * 1e-6;
        case PublishedFigure::Metric::tensor_active: return 100.0 * p.active_fraction(Engine::tensor);
        case PublishedFigure::Metric::dma_active: return 100.0 * p.active_fraction(Engine::dma);
        case PublishedFigure::Metric::vector_active: return 100.0 * p.active_fraction(Engine::vector);
      }
      return 0.0;
    };
    CalibrationRow row{f};
    row.modeled = value(it->second[0]);
    row.modeled_reorder = value(it->second[1]);
    if (f.metric == PublishedFigure::Metric::latency_ms) {
      row.error = row.modeled / f.published - 1.0;
      row.tolerance = 0.20;
      row.pass = std::fabs(row.error) <= row.tolerance;
    } else {
      row.error = row.modeled - f.published;
      row.tolerance = 10.0;
      row.pass = std::fabs(row.error) <= row.tolerance;
    }
    rows.push_back(row);
  }
  return rows;
}

std::string calibration_table_markdown(const std::vector<CalibrationRow>& rows) {
  static const char* metric[] = {"latency", "TensorE active", "DMA active", "VectorE active"};
  std::string s =
      "| kernel | target | figure | published | modeled (as written) | error | within | modeled (reorder) |\n"
      "|---|---|---|---|---|---|---|---|\n";
  char buf[320];
  for (const CalibrationRow& r : rows) {
    const bool ms = r.figure.metric == PublishedFigure::Metric::latency_ms;
    const char* unit = ms ? " ms" : "%";
    std::snprintf(buf, sizeof buf, "| %s | %s %s | %s | %.2f%s | %.2f%s | %+.1f%s | %s | %.2f%s |\n",
                  tutorial_kernel_name(r.figure.kernel), std::string(hardware_spec(r.figure.target).name).c_str(),
                  std::string(dtype_name(r.figure.dtype)).c_str(), metric[static_cast<int>(r.figure.metric)],
                  r.figure.published, unit, r.modeled, unit, ms ? 100.0 * r.error : r.error, ms ? "%" : " pt",
                  r.pass ? "yes" : "NO", r.modeled_reorder, unit);
    s += buf;
  }
  return s;
}

}  // namespace trn::examples
