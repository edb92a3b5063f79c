// The emulator's hot loop against OpenBLAS: a tiled bf16 matmul run through the emulated
// NeuronCore (DMA -> SBUF -> nc_matmul -> PSUM -> VectorE -> DMA) and cblas_sgemm on the same
// shape, on 1 and 2 host threads, in one process. Prints GFLOP/s and the ratio emulator / OpenBLAS
// (target >= 0.9). Also measures the cost of instruction tracing (target < 5%).
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "matmul_variants.hpp"
#include "openblas_native.hpp"
#include "paired.hpp"
#include "tiled_matmul.hpp"
#include "trn/core/core.hpp"

namespace {

struct Problem {
  trn::HbmTensor A, B, C;
  explicit Problem(long n) : A(trn::DType::f32, {n, n}), B(trn::DType::f32, {n, n}), C(trn::DType::f32, {n, n}) {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (long i = 0; i < n * n; ++i) A.as<float>()[i] = u(rng);
    for (long i = 0; i < n * n; ++i) B.as<float>()[i] = u(rng);
  }
};

// The NKI tutorial's layout: bf16 lhsT [K, M] and rhs [K, N] already in HBM (the values of the fp32
// problem rounded to bf16), so the DMA copies bits instead of converting.
struct Bf16Problem {
  trn::HbmTensor lhsT, rhs, C;
  explicit Bf16Problem(long n)
      : lhsT(trn::DType::bf16, {n, n}), rhs(trn::DType::bf16, {n, n}), C(trn::DType::f32, {n, n}) {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    auto* a = lhsT.as<std::uint16_t>();
    auto* b = rhs.as<std::uint16_t>();
    for (long i = 0; i < n * n; ++i) a[i] = trn::f32_to_bf16_rne(u(rng));
    for (long i = 0; i < n * n; ++i) b[i] = trn::f32_to_bf16_rne(u(rng));
  }
};

Problem& problem(long n) {
  static std::map<long, Problem> cache;
  auto it = cache.find(n);
  if (it == cache.end()) it = cache.emplace(n, Problem(n)).first;
  return it->second;
}

void sgemm(Problem& p, long n) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(n), static_cast<int>(n), static_cast<int>(n),
              1.0f, p.A.as<float>(), static_cast<int>(n), p.B.as<float>(), static_cast<int>(n), 0.0f, p.C.as<float>(),
              static_cast<int>(n));
}

std::map<std::string, trnsci::bench::PairedResult>& results() {
  static std::map<std::string, trnsci::bench::PairedResult> r;
  return r;
}

// Tiled kernel (fp32 operands in HBM, cast to bf16 by the DMA) paired with cblas_sgemm.
void BM_Paired_Bf16Tiled_vs_Sgemm(benchmark::State& st) {
  const long n = st.range(0);
  const int threads = static_cast<int>(st.range(1));
  Problem& p = problem(n);
  trn::LaunchConfig lc;
  lc.host_threads = threads;
  openblas_set_num_threads(threads);
  trn::examples::TiledMatmulConfig tc;
  trn::HbmTensor C(trn::DType::f32, {n, n});
  results()["tiled/" + std::to_string(threads)] = trnsci::bench::run_paired(
      st, 2.0 * n * n * n, [&] { benchmark::DoNotOptimize(trn::examples::tiled_matmul(p.A, p.B, C, tc, lc).trace.per_engine); },
      [&] { sgemm(p, n); });
}

// Blocked kernel (bf16 lhsT / rhs in HBM as in the NKI tutorial) paired with cblas_sgemm.
void BM_Paired_Bf16Blocked_vs_Sgemm(benchmark::State& st) {
  const long n = st.range(0);
  const int threads = static_cast<int>(st.range(1));
  static std::map<long, Bf16Problem> cache;
  auto it = cache.find(n);
  if (it == cache.end()) it = cache.emplace(n, Bf16Problem(n)).first;
  Bf16Problem& b = it->second;
  Problem& p = problem(n);
  trn::LaunchConfig lc;
  lc.host_threads = threads;
  openblas_set_num_threads(threads);
  // Blocks of 1024 x 1024 (8 PSUM banks) and K blocks of 1024: four programs for 2048^2 outputs.
  const trn::examples::BlockedMatmulConfig bc{1024, 1024, 1024};
  results()["blocked/" + std::to_string(threads)] = trnsci::bench::run_paired(
      st, 2.0 * n * n * n, [&] { benchmark::DoNotOptimize(trn::examples::blocked_matmul(b.lhsT, b.rhs, b.C, bc, lc).trace.per_engine); },
      [&] { sgemm(p, n); });
}

// Tracing cost: the tiled kernel untraced ("ours") paired with the same kernel traced ("ref").
void BM_Paired_Untraced_vs_Traced(benchmark::State& st) {
  const long n = st.range(0);
  Problem& p = problem(n);
  trn::LaunchConfig on, off;
  on.host_threads = off.host_threads = 1;
  off.core.trace = false;
  trn::examples::TiledMatmulConfig tc;
  trn::HbmTensor C(trn::DType::f32, {n, n});
  results()["trace"] = trnsci::bench::run_paired(
      st, 2.0 * n * n * n, [&] { benchmark::DoNotOptimize(trn::examples::tiled_matmul(p.A, p.B, C, tc, off).trace.per_engine); },
      [&] { benchmark::DoNotOptimize(trn::examples::tiled_matmul(p.A, p.B, C, tc, on).trace.per_engine); });
}

BENCHMARK(BM_Paired_Bf16Tiled_vs_Sgemm)->ArgsProduct({{2048}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime()
    ->MinTime(4.0);
BENCHMARK(BM_Paired_Bf16Blocked_vs_Sgemm)->ArgsProduct({{2048}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime()
    ->MinTime(4.0);
BENCHMARK(BM_Paired_Untraced_vs_Traced)->Args({2048})->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(4.0);

}  // namespace

int main(int argc, char** argv) {
  trnsci::bench::use_native_openblas_kernels(argv);
  std::printf("OpenBLAS kernels: %s\n", openblas_get_corename());
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  std::printf("\nemulator / OpenBLAS sgemm at 2048^3, median of per-pair ratios (target >= 0.9):\n");
  const char* what[] = {"tiled", "blocked"};
  const char* desc[] = {"bf16 tiled, fp32 operands cast by the DMA, traced", "bf16 blocked, bf16 operands in HBM (NKI tutorial)"};
  for (int w = 0; w < 2; ++w)
    for (int t : {1, 2}) {
      auto it = results().find(std::string(what[w]) + "/" + std::to_string(t));
      if (it == results().end()) continue;
      const auto& r = it->second;
      std::printf("  %-50s %d thread(s): %6.1f / %6.1f GFLOP/s, ratio %.3f\n", desc[w], t, r.ours_gflops, r.ref_gflops,
                  r.median_ratio);
    }
  if (auto it = results().find("trace"); it != results().end())
    std::printf("  tracing overhead (1 thread, median of pairs): %.2f%% (target < 5%%)\n",
                (it->second.median_ratio - 1.0) * 100.0);
  benchmark::Shutdown();
  return 0;
}
