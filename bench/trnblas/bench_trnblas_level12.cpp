// trnblas Levels 1 and 2 against OpenBLAS in one process, same data, one host thread each
// (TRN_NUM_THREADS=1, openblas_set_num_threads(1)); each iteration runs one trnblas call and one
// OpenBLAS call back to back (bench/paired.hpp). After the runs main() prints host milliseconds of
// both, the median per-pair ratio (OpenBLAS time / ours: > 1 would mean we are faster), and the
// modeled device time of one call on one trn1 NeuronCore (trnblasGetLastProfile) with each
// engine's busy time: these routines move O(1) bytes per flop, so the bound is the DMA time of
// their operands, and the busy column of the critical engine says how close the kernel gets.
// Rows per precision (S/D/C/Z): axpy, dot (complex: dotc), asum, nrm2, i?amax (S/C 1M elements, D/Z
// 64K: the fp64 reductions are Ozaki DGEMMs), trsv, ger (complex: geru) and zgemv.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <complex>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "openblas_native.hpp"
#include "paired.hpp"

#include "trn/blas/level12.hpp"
#include "trnblas.h"
#include "trnblas_typed.hpp"

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

// ---- one row per precision (S, D, C, Z) for the core Level 1 and 2 routines --------------------
using trnblas_typed::api;
using trnblas_typed::kComplex;
using trnblas_typed::prefix;
template <class T> auto scalar(const T* a) { return trnblas_typed::cblas_scalar(a); }

template <class T> std::vector<T> values(std::size_t n, std::uint64_t seed) {
  const std::vector<float> f = uniform(2 * n, seed);
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (kComplex<T>) v[i] = T(f[2 * i], f[2 * i + 1]);
    else v[i] = T(f[2 * i]);
  }
  return v;
}

// axpy, dot (complex: dotc), asum, nrm2, i?amax of n elements; flops as real operations (complex 4x).
template <class T> void register_level1(int n) {
  const double cx = kComplex<T> ? 4.0 : 1.0;
  const std::string p = prefix<T>(), sz = "/" + std::to_string(n);
  const auto reg = [&](const std::string& name, auto body) {
    benchmark::RegisterBenchmark(name.c_str(), body)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  };
  reg(p + "axpy" + sz, [n, cx, name = p + "axpy" + sz](benchmark::State& st) {
    const std::vector<T> x = values<T>(static_cast<std::size_t>(n), 3);
    std::vector<T> y = values<T>(static_cast<std::size_t>(n), 4), yr = y;
    const T a(0.5);
    paired(st, name, 2.0 * cx * n,
           [&](trnblasHandle_t h) -> trnblasStatus_t {
             TRNBLAS_BY_TYPE(T, trnblasSaxpy, trnblasDaxpy, trnblasCaxpy, trnblasZaxpy, h, n, api(&a), api(x.data()), 1, api(y.data()), 1);
           },
           [&] { [&] { TRNBLAS_BY_TYPE(T, cblas_saxpy, cblas_daxpy, cblas_caxpy, cblas_zaxpy, n, scalar(&a), x.data(), 1, yr.data(), 1); }(); });
  });
  const std::string dot = p + (kComplex<T> ? "dotc" : "dot") + sz;
  reg(dot, [n, cx, name = dot](benchmark::State& st) {
    const std::vector<T> x = values<T>(static_cast<std::size_t>(n), 3), y = values<T>(static_cast<std::size_t>(n), 4);
    T r{}, rr{};
    paired(st, name, 2.0 * cx * n,
           [&](trnblasHandle_t h) -> trnblasStatus_t {
             TRNBLAS_BY_TYPE(T, trnblasSdot, trnblasDdot, trnblasCdotc, trnblasZdotc, h, n, api(x.data()), 1, api(y.data()), 1, api(&r));
           },
           [&] {
             if constexpr (kComplex<T>) [&] { TRNBLAS_BY_TYPE(T, cblas_sdot, cblas_ddot, cblas_cdotc_sub, cblas_zdotc_sub, n, x.data(), 1, y.data(), 1, &rr); }();
             else rr = [&] { TRNBLAS_BY_TYPE(T, cblas_sdot, cblas_ddot, cblas_cdotc_sub, cblas_zdotc_sub, n, x.data(), 1, y.data(), 1); }();
             benchmark::DoNotOptimize(rr);
           });
  });
  using R = trnblas_typed::real_of<T>;
  const std::string asum = (kComplex<T> ? std::string(std::is_same_v<R, float> ? "sc" : "dz") : p) + "asum" + sz;
  reg(asum, [n, cx, name = asum](benchmark::State& st) {
    const std::vector<T> x = values<T>(static_cast<std::size_t>(n), 5);
    R r = 0;
    paired(st, name, cx / 2 * n,
           [&](trnblasHandle_t h) -> trnblasStatus_t {
             TRNBLAS_BY_TYPE(T, trnblasSasum, trnblasDasum, trnblasScasum, trnblasDzasum, h, n, api(x.data()), 1, &r);
           },
           [&] { benchmark::DoNotOptimize([&] { TRNBLAS_BY_TYPE(T, cblas_sasum, cblas_dasum, cblas_scasum, cblas_dzasum, n, x.data(), 1); }()); });
  });
  const std::string nrm2 = (kComplex<T> ? std::string(std::is_same_v<R, float> ? "sc" : "dz") : p) + "nrm2" + sz;
  reg(nrm2, [n, cx, name = nrm2](benchmark::State& st) {
    const std::vector<T> x = values<T>(static_cast<std::size_t>(n), 6);
    R r = 0;
    paired(st, name, 2.0 * cx / 2 * n,
           [&](trnblasHandle_t h) -> trnblasStatus_t {
             TRNBLAS_BY_TYPE(T, trnblasSnrm2, trnblasDnrm2, trnblasScnrm2, trnblasDznrm2, h, n, api(x.data()), 1, &r);
           },
           [&] { benchmark::DoNotOptimize([&] { TRNBLAS_BY_TYPE(T, cblas_snrm2, cblas_dnrm2, cblas_scnrm2, cblas_dznrm2, n, x.data(), 1); }()); });
  });
  const std::string amax = "i" + p + "amax" + sz;
  reg(amax, [n, name = amax](benchmark::State& st) {
    const std::vector<T> x = values<T>(static_cast<std::size_t>(n), 7);
    int r = 0;
    paired(st, name, double(n),
           [&](trnblasHandle_t h) -> trnblasStatus_t {
             TRNBLAS_BY_TYPE(T, trnblasIsamax, trnblasIdamax, trnblasIcamax, trnblasIzamax, h, n, api(x.data()), 1, &r);
           },
           [&] { benchmark::DoNotOptimize([&] { TRNBLAS_BY_TYPE(T, cblas_isamax, cblas_idamax, cblas_icamax, cblas_izamax, n, x.data(), 1); }()); });
  });
}

// gemv N, trsv (lower, N, non-unit) and ger/geru of order n.
template <class T> void register_level2(int n) {
  const double cx = kComplex<T> ? 4.0 : 1.0;
  const std::string p = prefix<T>(), sz = "/" + std::to_string(n);
  const auto reg = [&](const std::string& name, auto body) {
    benchmark::RegisterBenchmark(name.c_str(), body)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  };
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  if (std::is_same_v<T, std::complex<double>>)  // sgemv, cgemv and dgemv have their own rows
    reg(p + "gemv_N" + sz, [n, nn, cx, name = p + "gemv_N" + sz](benchmark::State& st) {
      const std::vector<T> A = values<T>(nn, 1), x = values<T>(static_cast<std::size_t>(n), 2);
      std::vector<T> y(static_cast<std::size_t>(n)), yr = y;
      const T one(1), zero(0);
      paired(st, name, 2.0 * cx * n * n,
             [&](trnblasHandle_t h) -> trnblasStatus_t {
               TRNBLAS_BY_TYPE(T, trnblasSgemv, trnblasDgemv, trnblasCgemv, trnblasZgemv, h, TRNBLAS_OP_N, n, n, api(&one), api(A.data()),
                       n, api(x.data()), 1, api(&zero), api(y.data()), 1);
             },
             [&] {
               [&] { TRNBLAS_BY_TYPE(T, cblas_sgemv, cblas_dgemv, cblas_cgemv, cblas_zgemv, CblasColMajor, CblasNoTrans, n, n, scalar(&one),
                             A.data(), n, x.data(), 1, scalar(&zero), yr.data(), 1); }();
             });
    });
  if (!std::is_same_v<T, std::complex<float>>)  // ctrsv has its own row
    reg(p + "trsv_N" + sz, [n, nn, cx, name = p + "trsv_N" + sz](benchmark::State& st) {
      std::vector<T> A = values<T>(nn, 11);
      for (int i = 0; i < n; ++i) A[static_cast<std::size_t>(i) * n + static_cast<std::size_t>(i)] += T(4);
      const std::vector<T> b = values<T>(static_cast<std::size_t>(n), 12);
      std::vector<T> x = b, xr = b;
      paired(st, name, cx * n * n,
             [&](trnblasHandle_t h) -> trnblasStatus_t {
               x = b;
               TRNBLAS_BY_TYPE(T, trnblasStrsv, trnblasDtrsv, trnblasCtrsv, trnblasZtrsv, h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N,
                       TRNBLAS_DIAG_NON_UNIT, n, api(A.data()), n, api(x.data()), 1);
             },
             [&] {
               xr = b;
               [&] { TRNBLAS_BY_TYPE(T, cblas_strsv, cblas_dtrsv, cblas_ctrsv, cblas_ztrsv, CblasColMajor, CblasLower, CblasNoTrans,
                             CblasNonUnit, n, A.data(), n, xr.data(), 1); }();
             });
    });
  const std::string ger = p + (kComplex<T> ? "geru" : "ger") + sz;
  reg(ger, [n, nn, cx, name = ger](benchmark::State& st) {
    const std::vector<T> x = values<T>(static_cast<std::size_t>(n), 21), y = values<T>(static_cast<std::size_t>(n), 22);
    std::vector<T> A = values<T>(nn, 23), Ar = A;
    const T a(0.5);
    paired(st, name, 2.0 * cx * n * n,
           [&](trnblasHandle_t h) -> trnblasStatus_t {
             TRNBLAS_BY_TYPE(T, trnblasSger, trnblasDger, trnblasCgeru, trnblasZgeru, h, n, n, api(&a), api(x.data()), 1, api(y.data()), 1,
                     api(A.data()), n);
           },
           [&] {
             [&] { TRNBLAS_BY_TYPE(T, cblas_sger, cblas_dger, cblas_cgeru, cblas_zgeru, CblasColMajor, n, n, scalar(&a), x.data(), 1,
                           y.data(), 1, Ar.data(), n); }();
           });
  });
}

// DSDOT / SDSDOT (the reference BLAS's extended-precision dots; C++ API and BLAS shim only: cuBLAS has
// no such routine) against OpenBLAS's cblas_dsdot / cblas_sdsdot; the modeled time from the call's
// CallReport (the Ozaki DGEMM 1 x 1 x n of the widened floats).
void register_dsdot(int n) {
  for (bool with_sb : {false, true}) {
    const std::string name = std::string(with_sb ? "sdsdot" : "dsdot") + "/" + std::to_string(n);
    benchmark::RegisterBenchmark(name.c_str(), [n, with_sb, name](benchmark::State& st) {
      const std::vector<float> x = uniform(static_cast<std::size_t>(n), 41), y = uniform(static_cast<std::size_t>(n), 42);
      trn::blas::Settings settings;
      settings.host_threads = 1;
      trn::blas::CallReport rep;
      auto ours = [&] {
        return with_sb ? double(trn::blas::sdsdot(settings, n, 0.25f, x.data(), 1, y.data(), 1, &rep))
                       : trn::blas::dsdot(settings, n, x.data(), 1, y.data(), 1, &rep);
      };
      ours();
      Row& row = rows()[name];
      row.trn1.target = TRN_TARGET_TRN1;
      row.trn1.total_ns = rep.profile.total_ns;
      for (int e = 0; e < TRN_ENGINE_COUNT; ++e) row.trn1.busy_ns[e] = rep.profile.busy_ns[static_cast<std::size_t>(e)];
      row.flops = 2.0 * n;
      openblas_set_num_threads(1);
      row.r = trnsci::bench::run_paired(
          st, 2.0 * n, [&] { benchmark::DoNotOptimize(ours()); },
          [&] {
            if (with_sb) benchmark::DoNotOptimize(cblas_sdsdot(n, 0.25f, x.data(), 1, y.data(), 1));
            else benchmark::DoNotOptimize(cblas_dsdot(n, x.data(), 1, y.data(), 1));
          });
    })->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  }
}

void register_typed() {
  register_dsdot(1 << 16);
  register_level1<float>(1 << 20);
  register_level1<std::complex<float>>(1 << 20);
  register_level1<double>(1 << 16);
  register_level1<std::complex<double>>(1 << 16);
  register_level2<float>(512);
  register_level2<std::complex<float>>(512);
  register_level2<double>(256);
  register_level2<std::complex<double>>(256);
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
  benchmark::RegisterBenchmark("sdot/1M", [](benchmark::State& st) {  // nv: a constant
    const std::vector<float> x = uniform(nv, 3), y = uniform(nv, 4);
    float r = 0;
    paired(st, "sdot/1M", 2.0 * nv, [&](trnblasHandle_t h) { return trnblasSdot(h, nv, x.data(), 1, y.data(), 1, &r); },
           [&] { benchmark::DoNotOptimize(cblas_sdot(nv, x.data(), 1, y.data(), 1)); });
  })->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  benchmark::RegisterBenchmark("saxpy/1M", [](benchmark::State& st) {  // nv: a constant
    const std::vector<float> x = uniform(nv, 3);
    std::vector<float> y = uniform(nv, 4), yr = y;
    const float a = 0.5f;
    paired(st, "saxpy/1M", 2.0 * nv, [&](trnblasHandle_t h) { return trnblasSaxpy(h, nv, &a, x.data(), 1, y.data(), 1); },
           [&] { cblas_saxpy(nv, a, x.data(), 1, yr.data(), 1); });
  })->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  benchmark::RegisterBenchmark("snrm2/1M", [](benchmark::State& st) {  // nv: a constant
    const std::vector<float> x = uniform(nv, 5);
    float r = 0;
    paired(st, "snrm2/1M", 2.0 * nv, [&](trnblasHandle_t h) { return trnblasSnrm2(h, nv, x.data(), 1, &r); },
           [&] { benchmark::DoNotOptimize(cblas_snrm2(nv, x.data(), 1)); });
  })->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  benchmark::RegisterBenchmark("srotm/1M", [](benchmark::State& st) {  // nv: a constant
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
  register_typed();
  benchmark::RunSpecifiedBenchmarks();
  print_table();
  benchmark::Shutdown();
  return 0;
}
