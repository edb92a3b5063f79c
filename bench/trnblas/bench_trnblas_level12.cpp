// trnblas Levels 1 and 2 against OpenBLAS in one process, same data, one host thread each
// (TRN_NUM_THREADS=1, openblas_set_num_threads(1)); each iteration runs one trnblas call and one
// OpenBLAS call back to back (bench/paired.hpp). After the runs main() prints host milliseconds of
// both, the median per-pair ratio (OpenBLAS time / ours: > 1 would mean we are faster), and the
// modeled device time of one call on one trn1 NeuronCore (trnblasGetLastProfile) with each
// engine's busy time: these routines move O(1) bytes per flop, so the bound is the DMA time of
// their operands, and the busy column of the critical engine says how close the kernel gets.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "openblas_native.hpp"
#include "paired.hpp"

#include "trnblas.h"

namespace {

std::vector<float> uniform(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = u(rng);
  return v;
}

struct Row {
  trnsci::bench::PairedResult r;
  double flops = 0;
  trnProfile_t trn1{};
};
std::map<std::string, Row>& rows() {
  static std::map<std::string, Row> m;
  return m;
}

struct Handle {
  trnblasHandle_t h = nullptr;
  Handle() {
    setenv("TRN_NUM_THREADS", "1", 1);
    trnblasCreate(&h);
  }
  ~Handle() { trnblasDestroy(h); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
};

// One paired benchmark: ours() must return a status; ref() is the OpenBLAS call.
void paired(benchmark::State& st, const std::string& name, double flops, const std::function<trnblasStatus_t(trnblasHandle_t)>& ours,
            const std::function<void()>& ref) {
  Handle h;
  openblas_set_num_threads(1);
  if (ours(h.h) != TRNBLAS_STATUS_SUCCESS) {
    st.SkipWithError("trnblas call failed");
    return;
  }
  Row& row = rows()[name];
  trnblasGetLastProfile(h.h, &row.trn1);
  row.flops = flops;
  row.r = trnsci::bench::run_paired(st, flops, [&] { benchmark::DoNotOptimize(ours(h.h)); }, ref);
}

void register_all() {
  for (int n : {1024, 4096}) {
    for (bool trans : {false, true}) {
      const std::string name = std::string("sgemv_") + (trans ? "T" : "N") + "/" + std::to_string(n);
      benchmark::RegisterBenchmark(name.c_str(), [n, trans, name](benchmark::State& st) {
        const std::vector<float> A = uniform(static_cast<std::size_t>(n) * n, 1), x = uniform(n, 2);
        std::vector<float> y(n), yr(n);
        const float one = 1.0f, zero = 0.0f;
        paired(
            st, name, 2.0 * n * n,
            [&](trnblasHandle_t h) {
              return trnblasSgemv(h, trans ? TRNBLAS_OP_T : TRNBLAS_OP_N, n, n, &one, A.data(), n, x.data(), 1, &zero,
                                  y.data(), 1);
            },
            [&] {
              cblas_sgemv(CblasColMajor, trans ? CblasTrans : CblasNoTrans, n, n, 1.0f, A.data(), n, x.data(), 1, 0.0f,
                          yr.data(), 1);
            });
      })->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
    }
  }
  const int nv = 1 << 20;
  benchmark::RegisterBenchmark("sdot/1M", [nv](benchmark::State& st) {
    const std::vector<float> x = uniform(nv, 3), y = uniform(nv, 4);
    float r = 0;
    paired(st, "sdot/1M", 2.0 * nv, [&](trnblasHandle_t h) { return trnblasSdot(h, nv, x.data(), 1, y.data(), 1, &r); },
           [&] { benchmark::DoNotOptimize(cblas_sdot(nv, x.data(), 1, y.data(), 1)); });
  })->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  benchmark::RegisterBenchmark("saxpy/1M", [nv](benchmark::State& st) {
    const std::vector<float> x = uniform(nv, 3);
    std::vector<float> y = uniform(nv, 4), yr = y;
    const float a = 0.5f;
    paired(st, "saxpy/1M", 2.0 * nv, [&](trnblasHandle_t h) { return trnblasSaxpy(h, nv, &a, x.data(), 1, y.data(), 1); },
           [&] { cblas_saxpy(nv, a, x.data(), 1, yr.data(), 1); });
  })->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  benchmark::RegisterBenchmark("snrm2/1M", [nv](benchmark::State& st) {
    const std::vector<float> x = uniform(nv, 5);
    float r = 0;
    paired(st, "snrm2/1M", 2.0 * nv, [&](trnblasHandle_t h) { return trnblasSnrm2(h, nv, x.data(), 1, &r); },
           [&] { benchmark::DoNotOptimize(cblas_snrm2(nv, x.data(), 1)); });
  })->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  benchmark::RegisterBenchmark("srotm/1M", [nv](benchmark::State& st) {
    std::vector<float> x = uniform(nv, 7), y = uniform(nv, 8), xr = x, yr = y;
    const float param[5] = {-1.0f, 0.6f, -0.8f, 0.8f, 0.6f};
    paired(st, "srotm/1M", 6.0 * nv, [&](trnblasHandle_t h) { return trnblasSrotm(h, nv, x.data(), 1, y.data(), 1, param); },
           [&] { cblas_srotm(nv, xr.data(), 1, yr.data(), 1, param); });
  })->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  // Complex: cgemv (one real GEMM of op(A)'s real representation) and ctrsv (row scaling, then the
  // real substitution kernel of order 2n); flops as 8 mn and 4 n^2 real operations.
  benchmark::RegisterBenchmark("cgemv_N/1024", [](benchmark::State& st) {
    const int n = 1024;
    const std::vector<float> A = uniform(2 * static_cast<std::size_t>(n) * n, 9), x = uniform(2 * static_cast<std::size_t>(n), 10);
    std::vector<float> y(2 * static_cast<std::size_t>(n)), yr = y;
    const float one[2] = {1.0f, 0.0f}, zero[2] = {0.0f, 0.0f};
    const auto c = [](const float* p) { return reinterpret_cast<const trnComplex*>(p); };
    paired(
        st, "cgemv_N/1024", 8.0 * n * n,
        [&](trnblasHandle_t h) {
          return trnblasCgemv(h, TRNBLAS_OP_N, n, n, c(one), c(A.data()), n, c(x.data()), 1, c(zero),
                              reinterpret_cast<trnComplex*>(y.data()), 1);
        },
        [&] { cblas_cgemv(CblasColMajor, CblasNoTrans, n, n, one, A.data(), n, x.data(), 1, zero, yr.data(), 1); });
  })->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  benchmark::RegisterBenchmark("ctrsv_N/256", [](benchmark::State& st) {
    const int n = 256;
    std::vector<float> A = uniform(2 * static_cast<std::size_t>(n) * n, 11);
    for (int i = 0; i < n; ++i) A[2 * (static_cast<std::size_t>(i) * n + i)] += 4.0f;  // a well-conditioned lower triangle
    const std::vector<float> b = uniform(2 * static_cast<std::size_t>(n), 12);
    std::vector<float> x = b, xr = b;
    paired(
        st, "ctrsv_N/256", 4.0 * n * n,
        [&](trnblasHandle_t h) {
          x = b;
          return trnblasCtrsv(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, n,
                              reinterpret_cast<const trnComplex*>(A.data()), n, reinterpret_cast<trnComplex*>(x.data()), 1);
        },
        [&] {
          xr = b;
          cblas_ctrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, n, A.data(), n, xr.data(), 1);
        });
  })->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  benchmark::RegisterBenchmark("dgemv_N/512", [](benchmark::State& st) {
    const int n = 512;
    std::vector<double> A(static_cast<std::size_t>(n) * n), x(n), y(n), yr(n);
    const std::vector<float> f = uniform(A.size() + n, 6);
    for (std::size_t i = 0; i < A.size(); ++i) A[i] = f[i];
    for (int i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = f[A.size() + static_cast<std::size_t>(i)];
    const double one = 1.0, zero = 0.0;
    paired(
        st, "dgemv_N/512", 2.0 * n * n,
        [&](trnblasHandle_t h) { return trnblasDgemv(h, TRNBLAS_OP_N, n, n, &one, A.data(), n, x.data(), 1, &zero, y.data(), 1); },
        [&] { cblas_dgemv(CblasColMajor, CblasNoTrans, n, n, 1.0, A.data(), n, x.data(), 1, 0.0, yr.data(), 1); });
  })->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
}

void print_table() {
  std::printf("\nHost milliseconds per call, one thread each (OpenBLAS %s kernels); ratio = median of OpenBLAS/ours\n"
              "per pair. Modeled device time of one call on one trn1 NeuronCore and each engine's busy time (us).\n\n",
              openblas_get_corename());
  std::printf("%-14s %10s %10s %8s  %10s %9s %9s %9s %9s\n", "routine", "ms ours", "ms OB", "ratio", "trn1 us", "TensorE",
              "VectorE", "GpSimdE", "DMA");
  for (const auto& [name, row] : rows()) {
    if (row.r.ours_gflops <= 0) continue;
    const trnProfile_t& p = row.trn1;
    std::printf("%-14s %10.3f %10.3f %8.4f  %10.1f %9.1f %9.1f %9.1f %9.1f\n", name.c_str(),
                row.flops / row.r.ours_gflops * 1e-6, row.flops / row.r.ref_gflops * 1e-6, row.r.median_ratio,
                p.total_ns * 1e-3, p.busy_ns[TRN_ENGINE_TENSOR] * 1e-3, p.busy_ns[TRN_ENGINE_VECTOR] * 1e-3,
                p.busy_ns[TRN_ENGINE_GPSIMD] * 1e-3, p.busy_ns[TRN_ENGINE_DMA] * 1e-3);
  }
}

}  // namespace

int main(int argc, char** argv) {
  trnsci::bench::use_native_openblas_kernels(argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  print_table();
  benchmark::Shutdown();
  return 0;
}
