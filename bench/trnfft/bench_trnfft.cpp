// trnfft against FFTW (single precision, FFTW_MEASURE plans, 1 thread) in one process: batched C2C
// at N = 64 / 256 / 1024 / 4096 over 2^20 points per call, paired timing (bench/paired.hpp), the
// (libfftw3f without its threads library: one thread) relative L2 error of each side against FFTW in FP64 with the plan's bound, and the modeled trn1
// device time next to the bound TensorE's FLOP rate gives for the useful DFT-GEMM flops (fp32 matmuls at a
// quarter of the bf16 peak).
//
//   ./bench_trnfft [--benchmark_filter=...]     TRN_NUM_THREADS=2 for two host threads
#include <fftw3.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <random>
#include <vector>

#include "fft_reference.hpp"
#include "paired.hpp"
#include "trn/fft/fft.hpp"

namespace {

using trnfft_test::cd;
using trnfft_test::cf;
using trnfft_test::fftw_c2c;
using trnfft_test::rel_l2;
constexpr std::int64_t kPoints = std::int64_t{1} << 20;

void BM_C2C(benchmark::State& st, trn::fft::Mode mode) {
  const int n = static_cast<int>(st.range(0));
  const int batch = static_cast<int>(kPoints / n);
  std::mt19937_64 g(1);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<cf> x(static_cast<std::size_t>(kPoints));
  for (cf& v : x) v = cf(static_cast<float>(u(g)), static_cast<float>(u(g)));
  std::vector<cf> y(x.size()), yf(x.size()), xf(x.size());
  trn::fft::PlanSpec spec;
  spec.n = {n};
  spec.batch = batch;
  spec.mode = mode;
  const trn::fft::Plan plan(spec);
  fftwf_plan pf = fftwf_plan_many_dft(1, &n, batch, reinterpret_cast<fftwf_complex*>(xf.data()), nullptr, 1, n,
                                      reinterpret_cast<fftwf_complex*>(yf.data()), nullptr, 1, n, FFTW_FORWARD, FFTW_MEASURE);
  xf = x;  // FFTW_MEASURE scribbles on the arrays
  // Accuracy of both sides against FFTW in FP64 (the oracle of the tests and `trnsci validate`).
  const std::vector<cd> ref = fftw_c2c(x, {n}, batch, FFTW_FORWARD);
  trn::fft::ExecReport rep;
  plan.execute(x.data(), y.data(), trn::fft::kForward, &rep);
  fftwf_execute(pf);
  const double flops = 5.0 * n * std::log2(static_cast<double>(n)) * batch;  // the conventional FFT count
  trnsci::bench::run_paired(st, flops, [&] { plan.execute(x.data(), y.data(), trn::fft::kForward); },
                            [&] { fftwf_execute(pf); });
  const trn::HardwareSpec& hw = trn::hardware_spec(trn::Generation::trn1);
  const double peak = hw.tensor_peak_flops() / (mode == trn::fft::Mode::fp32 ? hw.matmul_fp32_passes : 1);
  // Useful DFT-GEMM flops: a complex DFT-GEMM stage of radix r costs 4 real matmuls of 2 r flops per
  // output point (stacked block-diagonal zeros and padding not counted).
  double useful = 0;
  for (std::int64_t r : trn::fft::detail::stage_radices(n)) useful += 8.0 * static_cast<double>(r) * static_cast<double>(kPoints);
  if (mode == trn::fft::Mode::bf16x3) useful *= 3;  // three bf16 products per real product
  const double bound_ns = useful / peak * 1e9;
  st.counters["err"] = rel_l2(y, ref);
  st.counters["err_fftwf"] = rel_l2(yf, ref);
  st.counters["err_bound"] = plan.error_bound();
  st.counters["trn1_us"] = rep.profile.total_ns * 1e-3;
  st.counters["tensor_bound_us"] = bound_ns * 1e-3;
  st.counters["tensor_busy_pct"] = 100.0 * rep.profile.utilization(trn::Engine::tensor);
  st.counters["critical"] = static_cast<double>(static_cast<int>(rep.profile.critical_engine));
  // Per-engine busy time on trn1 (this execution) and trn2 (the plan's timing-only dry run).
  const auto engines = [&](const trn::Profile& p, const char* gen) {
    const std::string g(gen);
    st.counters[g + "_tensor_us"] = p.busy_ns[static_cast<int>(trn::Engine::tensor)] * 1e-3;
    st.counters[g + "_vector_us"] = p.busy_ns[static_cast<int>(trn::Engine::vector)] * 1e-3;
    st.counters[g + "_scalar_us"] = p.busy_ns[static_cast<int>(trn::Engine::scalar)] * 1e-3;
    st.counters[g + "_dma_us"] = p.busy_ns[static_cast<int>(trn::Engine::dma)] * 1e-3;
  };
  engines(rep.profile, "trn1");
  trn::fft::Settings trn2;
  trn2.target = trn::Generation::trn2;
  const trn::fft::Plan plan2(spec, trn2);
  const trn::Profile p2 = plan2.modeled_profile();
  engines(p2, "trn2");
  const trn::HardwareSpec& hw2 = trn::hardware_spec(trn::Generation::trn2);
  st.counters["trn2_us"] = p2.total_ns * 1e-3;
  st.counters["trn2_tensor_bound_us"] = useful / (hw2.tensor_peak_flops() / (mode == trn::fft::Mode::fp32 ? hw2.matmul_fp32_passes : 1)) * 1e6;
  st.counters["trn2_tensor_busy_pct"] = 100.0 * p2.utilization(trn::Engine::tensor);
  st.SetLabel(std::string(trn::blas::gemm_mode_name(mode)) + " batch " + std::to_string(batch));
  fftwf_destroy_plan(pf);
}

}  // namespace

BENCHMARK_CAPTURE(BM_C2C, fp32, trn::fft::Mode::fp32)->Arg(64)->Arg(256)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_C2C, bf16x3, trn::fft::Mode::bf16x3)->Arg(256)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_C2C, bf16, trn::fft::Mode::bf16)->Arg(256)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
