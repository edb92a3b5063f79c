// Cost-model benchmarks:
//  1. Roofline (issue #3): a bf16 GEMM of 4096 x 8192 x 8192 (lhsT [8192, 4096], rhs [8192, 8192], the
//     NKI matmul tutorial's benchmark shape) on trn1, run timing-only through the emulator and
//     scheduled by the cost model. Reports the modeled time, TensorE utilization and the ratio to the
//     91.75 TFLOPS bound for the blocked kernel, and shows the naive tiled kernel is DMA-bound.
//  2. Scheduling speed: a synthetic one-million-instruction trace (target: well under a second).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>

#include "matmul_variants.hpp"
#include "trn/core/core.hpp"

namespace {

trn::Trace million_instruction_trace() {
  trn::CoreConfig cfg;
  cfg.execute = false;
  trn::NeuronCore nc(cfg);
  trn::HbmTensor a(trn::DType::bf16, {8192, 512});
  const trn::Tile st = nc.sbuf().alloc(trn::DType::bf16, 128, {128});
  trn::Tile mv[2] = {nc.sbuf().alloc(trn::DType::bf16, 128, {512}), nc.sbuf().alloc(trn::DType::bf16, 128, {512})};
  std::vector<trn::Tile> acc;
  for (int b = 0; b < 8; ++b) acc.push_back(nc.psum().alloc(trn::DType::f32, 128, {512}));
  const trn::Tile out = nc.sbuf().alloc(trn::DType::f32, 128, {512});
  long i = 0;
  while (nc.trace().instructions.size() < 1000000) {
    nc.dma_copy(mv[i % 2], a.tile((i % 64) * 128, 128, 0, 512));
    for (int k = 0; k < 6; ++k) nc.nc_matmul(acc[static_cast<std::size_t>(i % 8)], st, mv[i % 2], k > 0);
    nc.tensor_copy(out, acc[static_cast<std::size_t>(i % 8)]);
    ++i;
  }
  return std::move(nc.trace());
}

void BM_CostModel_ScheduleMillionInstructions(benchmark::State& st) {
  static const trn::Trace trace = million_instruction_trace();
  for (auto _ : st) {
    auto s = trn::schedule_trace(trace, trn::CostModelOptions{trn::Generation::trn1, 1, false});
    benchmark::DoNotOptimize(s.profile.total_ns);
  }
  st.counters["instructions"] = static_cast<double>(trace.instructions.size());
  st.counters["Minstr/s"] = benchmark::Counter(static_cast<double>(trace.instructions.size()) * st.iterations() * 1e-6,
                                               benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CostModel_ScheduleMillionInstructions)->Unit(benchmark::kMillisecond)->UseRealTime();

void report_roofline() {
  const std::int64_t M = 4096, N = 8192, K = 8192;
  trn::HbmTensor lhsT(trn::DType::bf16, {K, M}), rhs(trn::DType::bf16, {K, N}), C(trn::DType::bf16, {M, N});
  trn::LaunchConfig lc;
  lc.core.execute = false;  // timing only: 550 GFLOP are not computed on the host
  lc.core.generation = trn::Generation::trn1;
  const auto& hw = trn::hardware_spec(trn::Generation::trn1);
  const double bound_ns = 2.0 * M * N * K / hw.tensor_peak_flops() * 1e9;
  std::printf("\nRoofline: bf16 GEMM M=%lld N=%lld K=%lld on one trn1 NeuronCore (TensorE bound %.2f TFLOPS -> %.3f ms)\n",
              static_cast<long long>(M), static_cast<long long>(N), static_cast<long long>(K),
              hw.tensor_peak_flops() * 1e-12, bound_ns * 1e-6);
  const auto t0 = std::chrono::steady_clock::now();
  const auto blocked = trn::examples::blocked_matmul(lhsT, rhs, C, trn::examples::BlockedMatmulConfig{}, lc);
  const auto t1 = std::chrono::steady_clock::now();
  const trn::Profile pb = trn::model_profile(blocked.trace, trn::Generation::trn1);
  const auto t2 = std::chrono::steady_clock::now();
  std::printf("blocked kernel (2048 x 1024 x 1024 blocks): %.3f ms modeled = %.3fx the bound, TensorE %.1f%% of peak\n",
              pb.total_ns * 1e-6, pb.total_ns / bound_ns, 100.0 * pb.tensor_peak_fraction());
  std::printf("%s", pb.summary().c_str());
  std::printf("  (emulating the trace: %.2f s host, scheduling %zu instructions: %.3f s host)\n",
              std::chrono::duration<double>(t1 - t0).count(), blocked.trace.instructions.size(),
              std::chrono::duration<double>(t2 - t1).count());
  const auto naive = trn::examples::naive_tiled_matmul(lhsT, rhs, C, lc);
  const trn::Profile pn = trn::model_profile(naive.trace, trn::Generation::trn1);
  std::printf("naive tiled kernel: %.3f ms modeled = %.2fx the bound, critical path on %s\n", pn.total_ns * 1e-6,
              pn.total_ns / bound_ns, std::string(trn::engine_name(pn.critical_engine)).c_str());
  std::printf("%s", pn.summary().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  report_roofline();
  benchmark::Shutdown();
  return 0;
}
