// `trnsci demo`: a tiled bf16 matmul on the emulated NeuronCore with its error against OpenBLAS and
// an fp64 reference, its instruction counts and its modeled device time; and `trnsci info`.
#include <cblas.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "tiled_matmul.hpp"
#include "trn/core/core.hpp"
#include "trnblas.h"
#include "trnfft.h"
#include "trnrand.h"
#include "trnsolver.h"
#include "trnsparse.h"
#include "trntensor.h"

namespace trnsci::cli {

void demo_usage(FILE* f) {
  std::fprintf(f,
               "usage: trnsci <command> [options]\n"
               "commands:\n"
               "  demo   run a tiled matmul on the emulated NeuronCore and compare it with OpenBLAS\n"
               "         --m M --n N --k K     shape of C[M,N] = A[M,K] B[K,N] (default 512 1024 768)\n"
               "         --dtype bf16|fp16|fp8_e4m3|fp32   compute dtype of the TensorE inputs (bf16)\n"
               "         --target trn1|trn2|trn3           emulated generation (trn1)\n"
               "         --threads T           host threads (default: all)\n"
               "         --trace F.json        write the modeled timeline as a Perfetto/Chrome trace\n"
               "");
}

bool parse_dtype(std::string_view s, trn::DType* t) {
  if (s == "bf16") *t = trn::DType::bf16;
  else if (s == "fp16") *t = trn::DType::f16;
  else if (s == "fp8_e4m3") *t = trn::DType::f8e4m3;
  else if (s == "fp8_e5m2") *t = trn::DType::f8e5m2;
  else if (s == "tf32") *t = trn::DType::tf32;
  else if (s == "fp32") *t = trn::DType::f32;
  else return false;
  return true;
}

// openblas_get_corename / openblas_get_config are OpenBLAS extensions (cblas.h of libopenblas-dev).
extern "C" char* openblas_get_corename(void);
extern "C" char* openblas_get_config(void);

int cmd_info() {
  std::printf("trnsci %s (%s build)\n", TRNSCI_VERSION_STRING, TRNSCI_BUILD_TYPE);
  // Each library's version as its own query function reports it (cuBLAS/cuSPARSE-style calls take
  // a handle).
  int blas = -1, fft = -1, rand = -1, solver = -1, sparse = -1;
  trnblasHandle_t bh = nullptr;
  if (trnblasCreate(&bh) == TRNBLAS_STATUS_SUCCESS) {
    trnblasGetVersion(bh, &blas);
    trnblasDestroy(bh);
  }
  trnsparseHandle_t sh = nullptr;
  if (trnsparseCreate(&sh) == TRNSPARSE_STATUS_SUCCESS) {
    trnsparseGetVersion(sh, &sparse);
    trnsparseDestroy(sh);
  }
  trnfftGetVersion(&fft);
  trnrandGetVersion(&rand);
  trnsolverGetVersion(&solver);
  std::printf("libraries: trncore %s, trnblas %d, trnfft %d, trnrand %d, trnsolver %d, trnsparse %d, trntensor %zu\n",
              TRNSCI_VERSION_STRING, blas, fft, rand, solver, sparse, trntensorGetVersion());
  std::printf("python module trnsci._core: %s\n", TRNSCI_PYTHON_STATE);
  std::string isas;
  for (auto level : {trn::HostSimd::avx512, trn::HostSimd::avx2, trn::HostSimd::portable})
    isas += (isas.empty() ? "" : ", ") + std::string(trn::host_simd_name(level)) +
            (trn::host_simd_available(level) ? "" : " (unavailable)");
  std::printf("host SIMD path in use: %s (%s)\n", std::string(trn::host_simd_name(trn::host_simd())).c_str(), isas.c_str());
  std::printf("reference OpenBLAS: kernel family %s (%s)\n", openblas_get_corename(), openblas_get_config());
  for (auto g : {trn::Generation::trn1, trn::Generation::trn2, trn::Generation::trn3}) {
    const auto& h = trn::hardware_spec(g);
    std::printf("%s (%s): SBUF %d x %lld KiB, PSUM %d x %lld KiB (%d banks), TensorE %.2f GHz, VectorE %.2f GHz, "
                "ScalarE %.2f GHz, GpSimdE %.2f GHz, moving fmax %d, DMA %d engines x %.0f B/ns\n",
                std::string(h.name).c_str(), std::string(h.nc_version).c_str(), h.pmax,
                static_cast<long long>(h.sbuf_partition_bytes / 1024), h.pmax,
                static_cast<long long>(h.psum_partition_bytes / 1024), h.psum_banks, h.tensor_ghz, h.vector_ghz,
                h.scalar_ghz, h.gpsimd_ghz, h.gemm_moving_fmax, h.dma_engines, h.dma_bytes_per_ns);
  }
  return 0;
}

int cmd_demo(int argc, char** argv) {
  long m = 512, n = 1024, k = 768;
  int threads = 0;
  std::string trace_path;
  trn::DType dtype = trn::DType::bf16;
  trn::Generation gen = trn::Generation::trn1;
  for (int i = 0; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "trnsci demo: option %s needs a value\n", argv[i]);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--m") m = std::atol(value());
    else if (a == "--n") n = std::atol(value());
    else if (a == "--k") k = std::atol(value());
    else if (a == "--threads") threads = std::atoi(value());
    else if (a == "--trace") trace_path = value();
    else if (a == "--dtype") {
      const char* v = value();
      if (!parse_dtype(v, &dtype)) {
        std::fprintf(stderr, "trnsci demo: unknown dtype '%s'\n", v);
        return 2;
      }
    } else if (a == "--target") {
      const char* v = value();
      if (!trn::parse_generation(v, &gen)) {
        std::fprintf(stderr, "trnsci demo: unknown target '%s' (trn1, trn2, trn3)\n", v);
        return 2;
      }
    } else if (a == "--help" || a == "-h") {
      demo_usage(stdout);
      return 0;
    } else {
      std::fprintf(stderr, "trnsci demo: unknown option '%s'\n", argv[i]);
      demo_usage(stderr);
      return 2;
    }
  }
  if (m < 1 || n < 1 || k < 1) {
    std::fprintf(stderr, "trnsci demo: --m, --n, --k must be positive\n");
    return 2;
  }

  trn::HbmTensor A(trn::DType::f32, {m, k}), B(trn::DType::f32, {k, n}), C(trn::DType::f32, {m, n});
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (long i = 0; i < m * k; ++i) A.as<float>()[i] = u(rng);
  for (long i = 0; i < k * n; ++i) B.as<float>()[i] = u(rng);

  trn::LaunchConfig lc;
  lc.host_threads = threads;
  lc.core.generation = gen;
  trn::examples::TiledMatmulConfig tc;
  tc.compute = dtype;
  const auto t0 = std::chrono::steady_clock::now();
  const trn::LaunchResult r = trn::examples::tiled_matmul(A, B, C, tc, lc);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::vector<float> ref(static_cast<std::size_t>(m * n));
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k),
              1.0f, A.as<float>(), static_cast<int>(k), B.as<float>(), static_cast<int>(n), 0.0f, ref.data(),
              static_cast<int>(n));
  // fp64 reference of the exact product of the fp32 inputs (Frobenius-norm relative error).
  std::vector<double> exact(static_cast<std::size_t>(m * n), 0.0);
  for (long i = 0; i < m; ++i)
    for (long p = 0; p < k; ++p) {
      const double a = A.as<float>()[i * k + p];
      for (long j = 0; j < n; ++j) exact[static_cast<std::size_t>(i * n + j)] += a * B.as<float>()[p * n + j];
    }
  double num = 0, num_blas = 0, den = 0, maxdiff = 0;
  for (std::size_t i = 0; i < exact.size(); ++i) {
    const double c = C.as<float>()[i];
    num += (c - exact[i]) * (c - exact[i]);
    num_blas += (ref[i] - exact[i]) * (ref[i] - exact[i]);
    den += exact[i] * exact[i];
    maxdiff = std::max(maxdiff, std::fabs(c - ref[i]));
  }
  std::printf("trnsci demo: C[%ld x %ld] = A[%ld x %ld] B[%ld x %ld] on emulated %s, %s inputs, fp32 PSUM\n", m, n,
              m, k, k, n, std::string(trn::hardware_spec(gen).name).c_str(),
              std::string(trn::dtype_name(dtype)).c_str());
  std::printf("  relative Frobenius error vs fp64:  emulator %.3e   OpenBLAS sgemm %.3e\n", std::sqrt(num / den),
              std::sqrt(num_blas / den));
  std::printf("  max |emulator - OpenBLAS|: %.3e\n", maxdiff);
  std::printf("  host time %.3f s on %d thread(s) (%.1f GFLOP/s)\n", secs, r.host_threads,
              2.0 * m * n * k / secs * 1e-9);
  std::printf("  instructions: %lld total", static_cast<long long>(r.trace.total()));
  for (int e = 0; e < trn::kEngineCount; ++e)
    std::printf(", %s %lld", std::string(trn::engine_name(static_cast<trn::Engine>(e))).c_str(),
                static_cast<long long>(r.trace.per_engine[e]));
  std::printf("\n  peak SBUF %lld B/partition, PSUM %lld B/partition\n", static_cast<long long>(r.sbuf_peak_bytes),
              static_cast<long long>(r.psum_peak_bytes));
  const trn::Schedule sched = trn::schedule_trace(r.trace, trn::CostModelOptions{gen, 1, !trace_path.empty()});
  std::printf("modeled device time (cost model, docs/cost-model.md):\n%s", sched.profile.summary().c_str());
  if (!trace_path.empty()) {
    FILE* f = std::fopen(trace_path.c_str(), "w");
    if (f == nullptr) {
      std::fprintf(stderr, "trnsci demo: cannot write %s\n", trace_path.c_str());
      return 2;
    }
    const std::string json = trn::perfetto_json(r.trace, sched);
    std::fwrite(json.data(), 1, json.size(), f);
    std::fclose(f);
    std::printf("  Perfetto trace written to %s (open in ui.perfetto.dev)\n", trace_path.c_str());
  }
  // The demo's own sanity bound: bf16 inputs give ~2^-8 relative error, never more than 1e-2.
  const double bound = trn::dtype_size(dtype) == 1 ? 0.2 : 1e-2;
  return std::sqrt(num / den) < bound ? 0 : 1;
}

}  // namespace trnsci::cli
