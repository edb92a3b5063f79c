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

void set_flops(benchmark::State& st, long n) {
  st.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * n * n * n * static_cast<double>(st.iterations()), benchmark::Counter::kIsRate,
                         benchmark::Counter::kIs1000);
}

void BM_Emulator_Bf16TiledMatmul(benchmark::State& st) {
  const long n = st.range(0);
  const int threads = static_cast<int>(st.range(1));
  const bool trace = st.range(2) != 0;
  Problem& p = problem(n);
  trn::LaunchConfig lc;
  lc.host_threads = threads;
  lc.core.trace = trace;
  trn::examples::TiledMatmulConfig tc;
  for (auto _ : st) {
    auto r = trn::examples::tiled_matmul(p.A, p.B, p.C, tc, lc);
    benchmark::DoNotOptimize(r.trace.per_engine);
  }
  set_flops(st, n);
}

void BM_Emulator_Bf16BlockedMatmul(benchmark::State& st) {
  const long n = st.range(0);
  static std::map<long, Bf16Problem> cache;
  auto it = cache.find(n);
  if (it == cache.end()) it = cache.emplace(n, Bf16Problem(n)).first;
  Bf16Problem& p = it->second;
  trn::LaunchConfig lc;
  lc.host_threads = static_cast<int>(st.range(1));
  // Blocks of 1024 x 1024 (8 PSUM banks) and K blocks of 1024: four programs for 2048^2 outputs.
  const trn::examples::BlockedMatmulConfig bc{1024, 1024, 1024};
  for (auto _ : st) {
    auto r = trn::examples::blocked_matmul(p.lhsT, p.rhs, p.C, bc, lc);
    benchmark::DoNotOptimize(r.trace.per_engine);
  }
  set_flops(st, n);
}

void BM_OpenBLAS_Sgemm(benchmark::State& st) {
  const long n = st.range(0);
  const int threads = static_cast<int>(st.range(1));
  Problem& p = problem(n);
  openblas_set_num_threads(threads);
  for (auto _ : st) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(n), static_cast<int>(n),
                static_cast<int>(n), 1.0f, p.A.as<float>(), static_cast<int>(n), p.B.as<float>(), static_cast<int>(n),
                0.0f, p.C.as<float>(), static_cast<int>(n));
    benchmark::ClobberMemory();
  }
  set_flops(st, n);
}

BENCHMARK(BM_Emulator_Bf16TiledMatmul)->ArgsProduct({{2048}, {1, 2}, {1}})->Args({2048, 1, 0})
    ->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_Emulator_Bf16BlockedMatmul)->ArgsProduct({{2048}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime()
    ->MinTime(2.0);
BENCHMARK(BM_OpenBLAS_Sgemm)->ArgsProduct({{2048}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

// Collects GFLOP/s per run so that main() can print the ratios.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> gflops;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs) {
      auto it = r.counters.find("GFLOP/s");
      if (it != r.counters.end()) gflops[r.benchmark_name()] = it->second;
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

}  // namespace

int main(int argc, char** argv) {
  trnsci::bench::use_native_openblas_kernels(argv);
  std::printf("OpenBLAS kernels: %s\n", openblas_get_corename());
  benchmark::Initialize(&argc, argv);
  RatioReporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);
  auto get = [&](const std::string& k) {
    for (const auto& [name, v] : rep.gflops)
      if (name.rfind(k, 0) == 0) return v;
    return 0.0;
  };
  std::printf("\nratio emulator(bf16 tiled, fp32 operands cast by the DMA, traced) / OpenBLAS sgemm, 2048^3:\n");
  for (int t : {1, 2}) {
    const double e = get("BM_Emulator_Bf16TiledMatmul/2048/" + std::to_string(t) + "/1");
    const double o = get("BM_OpenBLAS_Sgemm/2048/" + std::to_string(t));
    if (e > 0 && o > 0)
      std::printf("  %d thread(s): %.1f / %.1f GFLOP/s = %.3f (target >= 0.9)\n", t, e * 1e-9, o * 1e-9, e / o);
  }
  std::printf("ratio emulator(bf16 blocked, bf16 operands in HBM as in the NKI tutorial) / OpenBLAS sgemm, 2048^3:\n");
  for (int t : {1, 2}) {
    const double e = get("BM_Emulator_Bf16BlockedMatmul/2048/" + std::to_string(t));
    const double o = get("BM_OpenBLAS_Sgemm/2048/" + std::to_string(t));
    if (e > 0 && o > 0)
      std::printf("  %d thread(s): %.1f / %.1f GFLOP/s = %.3f (target >= 0.9)\n", t, e * 1e-9, o * 1e-9, e / o);
  }
  const double on = get("BM_Emulator_Bf16TiledMatmul/2048/1/1"), off = get("BM_Emulator_Bf16TiledMatmul/2048/1/0");
  if (on > 0 && off > 0) std::printf("  tracing overhead (1 thread): %.2f%% (target < 5%%)\n", (off / on - 1.0) * 100.0);
  benchmark::Shutdown();
  return 0;
}
