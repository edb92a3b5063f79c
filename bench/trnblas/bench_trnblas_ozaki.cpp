// The fp64 Ozaki schemes against OpenBLAS DGEMM in one process, 1 host thread (issue #12's targets):
// scheme II (CRT, the default) and scheme I (slices) trnblasDgemm vs cblas_dgemm on the same
// operands (GEMMul8's phi generator, phi = 0.5), paired iterations (bench/paired.hpp). After the
// runs main() prints host milliseconds of both, the ratio (target: scheme II <= 15x OpenBLAS DGEMM
// at 1024^3), the moduli / slice products, TensorE passes, and the modeled trn1 device time against
// products x the modeled time of one bf16 GEMM of the same shape (bf16 A and B, fp32 C, one
// NeuronCore; target <= 1.2x). The host steps of the schemes (scaling, residues, reconstruction in
// fp64) are host time, not device time (src/ozaki.hpp).
//
// Run with `env -u OPENBLAS_CORETYPE` so that OpenBLAS uses the CPU's own kernels.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "openblas_native.hpp"
#include "paired.hpp"
#include "blas_reference.hpp"
#include "trnblas.h"

namespace {

struct Case {
  const char* scheme;
  trnblasEmulationScheme_t value;
  int size;
  double target;  // minimum throughput ratio to OpenBLAS DGEMM (1 / 15), 0: none
};
const Case kCases[] = {{"ozaki2", TRNBLAS_EMULATION_SCHEME_OZAKI_II, 512, 0},
                       {"ozaki2", TRNBLAS_EMULATION_SCHEME_OZAKI_II, 1024, 1.0 / 15},
                       {"ozaki1", TRNBLAS_EMULATION_SCHEME_OZAKI_I, 512, 0}};

struct Row {
  trnsci::bench::PairedResult host;
  int bits = -1;
  long long passes = 0;
  double trn1_us = 0, bf16_us = 0;
};
std::map<std::string, Row>& rows() {
  static std::map<std::string, Row> r;
  return r;
}
std::string key(const Case& c) { return std::string(c.scheme) + "/" + std::to_string(c.size); }

// Modeled trn1 time of one bf16 GEMM (bf16 A and B, fp32 C, compute 32F) of n^3.
double bf16_gemm_us(trnblasHandle_t h, int n) {
  std::vector<std::uint16_t> A(static_cast<std::size_t>(n) * n, 0x3f80), B(A);
  std::vector<float> C(static_cast<std::size_t>(n) * n);
  const float one = 1, zero = 0;
  trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, A.data(), TRN_R_16BF, n, B.data(), TRN_R_16BF, n, &zero,
                C.data(), TRN_R_32F, n, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT);
  trnProfile_t p{};
  trnblasGetLastProfile(h, &p);
  return p.total_ns * 1e-3;
}

void BM_Ozaki_vs_Dgemm(benchmark::State& st, Case c) {
  const int n = c.size;
  const auto A = blastest::phi_matrix(static_cast<std::size_t>(n) * n, 0.5, 1), B = blastest::phi_matrix(static_cast<std::size_t>(n) * n, 0.5, 2);
  std::vector<double> C(A.size()), R(A.size());
  setenv("TRN_NUM_THREADS", "1", 1);
  openblas_set_num_threads(1);
  trnblasHandle_t h = nullptr;
  trnblasCreate(&h);
  trnblasSetFixedPointEmulationScheme(h, c.value);
  Row& row = rows()[key(c)];
  trnblasSetFixedPointEmulationMantissaBitCountPointer(h, &row.bits);
  const double one = 1, zero = 0;
  auto call = [&] {
    return trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, A.data(), n, B.data(), n, &zero, C.data(), n);
  };
  if (call() != TRNBLAS_STATUS_SUCCESS) {
    st.SkipWithError("trnblasDgemm failed");
    trnblasDestroy(h);
    return;
  }
  trnProfile_t p{};
  trnblasGetLastProfile(h, &p);
  row.passes = p.instructions_per_engine[TRN_ENGINE_TENSOR];
  row.trn1_us = p.total_ns * 1e-3;
  row.bf16_us = bf16_gemm_us(h, n);
  row.host = trnsci::bench::run_paired(
      st, 2.0 * n * n * n, [&] { benchmark::DoNotOptimize(call()); },
      [&] {
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A.data(), n, B.data(), n, 0.0, R.data(), n);
      });
  trnblasDestroy(h);
}

}  // namespace

int main(int argc, char** argv) {
  trnsci::bench::use_native_openblas_kernels(argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  for (const Case& c : kCases)
    benchmark::RegisterBenchmark(("ozaki_vs_dgemm/" + key(c)).c_str(), BM_Ozaki_vs_Dgemm, c)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MinTime(2.0);
  benchmark::RunSpecifiedBenchmarks();
  std::printf("\nfp64 Ozaki trnblasDgemm vs OpenBLAS DGEMM (%s kernels), 1 thread, phi = 0.5 inputs. slowdown = ms ours /\n"
              "ms OpenBLAS (target: scheme II <= 15x at 1024^3); products = passes / passes of one bf16 GEMM;\n"
              "device = modeled trn1 us / (products x one bf16 GEMM's modeled us) (target <= 1.2).\n\n",
              openblas_get_corename());
  std::printf("%-8s %6s %5s %9s %9s %9s %-8s %8s %9s %9s %8s\n", "scheme", "n", "bits", "ms ours", "ms OB", "slowdown",
              "target", "passes", "trn1 us", "bf16 us", "device");
  for (const Case& c : kCases) {
    auto it = rows().find(key(c));
    if (it == rows().end() || it->second.host.ours_gflops <= 0) continue;
    const Row& r = it->second;
    const double flops = 2.0 * c.size * c.size * c.size;
    const double ms_ours = flops / r.host.ours_gflops * 1e-6, ms_ref = flops / r.host.ref_gflops * 1e-6;
    const double slowdown = 1.0 / r.host.median_ratio;
    const long long bf16_passes = static_cast<long long>((c.size + 127) / 128) * ((c.size + 511) / 512) * ((c.size + 127) / 128);
    const double products = static_cast<double>(r.passes) / static_cast<double>(bf16_passes);
    char target[16] = "";
    if (c.target > 0) std::snprintf(target, sizeof target, "<=15x %s", r.host.median_ratio >= c.target ? "ok" : "MISS");
    std::printf("%-8s %6d %5d %9.1f %9.2f %9.2f %-8s %8lld %9.1f %9.1f %8.3f\n", c.scheme, c.size, r.bits, ms_ours, ms_ref,
                slowdown, target, r.passes, r.trn1_us, r.bf16_us, r.trn1_us / (products * r.bf16_us));
  }
  benchmark::Shutdown();
  return 0;
}
