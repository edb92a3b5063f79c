// trnblas against OpenBLAS in one process, on the same shapes and data: the emulated GEMM in every
// precision mode (trnblasGemmEx: bf16 A/B stored in memory, and fp32 inputs for the others) against cblas_sgemm, and the Ozaki-scheme
// trnblasDgemm against cblas_dgemm, on 1 and 2 host threads (TRN_NUM_THREADS for the emulator,
// openblas_set_num_threads for OpenBLAS). Every iteration runs one trnblas call and one OpenBLAS
// call back to back (bench/paired.hpp); the ratio is the median of the per-pair ratios, which
// holds steady on a machine whose speed drifts. After the runs main() prints one table: host
// GFLOP/s of both, the ratio with the targets (bf16 >= 0.75x SGEMM for whole emulated kernels, the floor decided with the emulator contract kept, bf16x3 >= 0.28x), and the modeled
// device time and TensorE utilization on trn1 and trn2 (trnblasGetLastProfile; utilization =
// busy_ns[TENSOR] / total_ns, one NeuronCore). Host GFLOP/s count 2 m n k per GEMM whatever the
// mode: a bf16x9 call does nine times the TensorE work of a bf16 call for the same count.
//
// Defaults keep a full run near three minutes (MinTime 1 s, one repetition); use
// --benchmark_filter=... to select, e.g. --benchmark_filter='bf16/|sgemm'. OpenBLAS runs with the
// kernels of the CPU's ISA (see use_native_openblas_kernels; set OPENBLAS_CORETYPE to override).
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <unistd.h>

#include "bench_handle.hpp"
#include "openblas_native.hpp"
#include "paired.hpp"

#include "trnblas.h"

namespace {

struct Shape {
  int m, n, k;
  std::string name() const { return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k); }
  double flops() const { return 2.0 * m * n * k; }
};

const Shape kShapes[] = {{512, 512, 512}, {1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 256, 4096}, {256, 4096, 256}};
const Shape kDgemmShapes[] = {{256, 256, 256}, {512, 512, 512}};
const int kThreads[] = {1, 2};

struct Mode {
  const char* name;
  trnblasComputeType_t compute;
  double target;  // minimum ratio to OpenBLAS SGEMM from the issue, 0: none
  trnDataType_t ab_type = TRN_R_32F;  // how A and B are stored in memory
};
// "bf16" is the GEMM-at-the-floor call exactly as a user makes it: A and B stored as bf16
// in memory (TRN_R_16BF), fp32 C, COMPUTE_32F, the whole C call timed. "fp32>bf16" takes fp32
// A/B and lets FAST_16BF round them to bf16 inside the call.
const Mode kModes[] = {{"bf16", TRNBLAS_COMPUTE_32F, 0.75, TRN_R_16BF},
                       {"fp32>bf16", TRNBLAS_COMPUTE_32F_FAST_16BF, 0},
                       {"fp16", TRNBLAS_COMPUTE_32F_FAST_16F, 0},
                       {"tf32", TRNBLAS_COMPUTE_32F_FAST_TF32, 0},
                       {"fp32", TRNBLAS_COMPUTE_32F, 0},
                       {"bf16x3", TRNBLAS_COMPUTE_32F_EMULATED_16BFX3, 0.28},
                       {"bf16x6", TRNBLAS_COMPUTE_32F_EMULATED_16BFX6, 0},
                       {"bf16x9", TRNBLAS_COMPUTE_32F_EMULATED_16BFX9, 0}};

// Column-major operands in [-1, 1), shared by both libraries (one copy per shape and type).
template <class T>
struct Operands {
  std::vector<T> A, B, C;
  explicit Operands(const Shape& s)
      : A(static_cast<std::size_t>(s.m) * s.k), B(static_cast<std::size_t>(s.k) * s.n),
        C(static_cast<std::size_t>(s.m) * s.n) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(s.m) * 31 + static_cast<std::uint64_t>(s.n) * 7 + s.k);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (auto& x : A) x = static_cast<T>(u(rng));
    for (auto& x : B) x = static_cast<T>(u(rng));
  }
};
template <class T>
Operands<T>& operands(const Shape& s) {
  static std::map<std::tuple<int, int, int>, Operands<T>> cache;
  auto it = cache.find({s.m, s.n, s.k});
  if (it == cache.end()) it = cache.emplace(std::tuple{s.m, s.n, s.k}, Operands<T>(s)).first;
  return it->second;
}
// The fp32 operands rounded to bf16 (RNE; the inputs are finite) for the bf16-in-memory mode.
struct Bf16Operands {
  std::vector<std::uint16_t> A, B;
};
std::uint16_t to_bf16(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  return static_cast<std::uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
Bf16Operands& bf16_operands(const Shape& s) {
  static std::map<std::tuple<int, int, int>, Bf16Operands> cache;
  auto it = cache.find({s.m, s.n, s.k});
  if (it == cache.end()) {
    const Operands<float>& f = operands<float>(s);
    Bf16Operands b;
    for (float x : f.A) b.A.push_back(to_bf16(x));
    for (float x : f.B) b.B.push_back(to_bf16(x));
    it = cache.emplace(std::tuple{s.m, s.n, s.k}, std::move(b)).first;
  }
  return it->second;
}

// Modeled device cost of one call (from the 1-thread runs; device time does not depend on host threads).
struct Modeled {
  trnProfile_t trn1{}, trn2{};
  int ozaki_bits = -1;
};
std::map<std::string, Modeled>& modeled() {  // key: "<mode>/<shape>"
  static std::map<std::string, Modeled> m;
  return m;
}

using trnblas_bench::Handle;  // the emulator's host threads via TRN_NUM_THREADS

void sgemm(const Shape& s, Operands<float>& op) {
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, s.m, s.n, s.k, 1.0f, op.A.data(), s.m, op.B.data(), s.k, 0.0f,
              op.C.data(), s.m);
}

std::map<std::string, trnsci::bench::PairedResult>& results() {  // key: gemm_name
  static std::map<std::string, trnsci::bench::PairedResult> r;
  return r;
}
std::string gemm_name(const std::string& mode, const Shape& s, int threads) {
  return mode + "/" + s.name() + "/threads:" + std::to_string(threads);
}

void BM_TrnblasGemmEx_vs_Sgemm(benchmark::State& st, Mode mode, Shape s, int threads) {
  Operands<float>& op = operands<float>(s);
  std::vector<float> C(op.C.size());
  Handle h(threads);
  openblas_set_num_threads(threads);
  const float one = 1.0f, zero = 0.0f;
  const bool bf16_in = mode.ab_type == TRN_R_16BF;
  const void* A = bf16_in ? static_cast<const void*>(bf16_operands(s).A.data()) : op.A.data();
  const void* B = bf16_in ? static_cast<const void*>(bf16_operands(s).B.data()) : op.B.data();
  auto call = [&] {
    return trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, s.m, s.n, s.k, &one, A, mode.ab_type, s.m, B, mode.ab_type, s.k,
                         &zero, C.data(), TRN_R_32F, s.m, mode.compute, TRNBLAS_GEMM_DEFAULT);
  };
  if (call() != TRNBLAS_STATUS_SUCCESS) {
    st.SkipWithError("trnblasGemmEx failed");
    return;
  }
  results()[gemm_name(mode.name, s, threads)] =
      trnsci::bench::run_paired(st, s.flops(), [&] { benchmark::DoNotOptimize(call()); }, [&] { sgemm(s, op); });
  if (threads != 1) return;
  Modeled& md = modeled()[std::string(mode.name) + "/" + s.name()];
  trnblasGetLastProfile(h, &md.trn1);  // the handle's default target is trn1
  trnblasSetTarget(h, TRN_TARGET_TRN2);
  call();
  trnblasGetLastProfile(h, &md.trn2);
}

void BM_TrnblasDgemm_vs_Dgemm(benchmark::State& st, Shape s, int threads) {
  Operands<double>& op = operands<double>(s);
  std::vector<double> C(op.C.size());
  Handle h(threads);
  openblas_set_num_threads(threads);
  int bits = -1;
  trnblasSetFixedPointEmulationMantissaBitCountPointer(h, &bits);
  const double one = 1.0, zero = 0.0;
  auto call = [&] {
    return trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, s.m, s.n, s.k, &one, op.A.data(), s.m, op.B.data(), s.k, &zero,
                        C.data(), s.m);
  };
  if (call() != TRNBLAS_STATUS_SUCCESS) {
    st.SkipWithError("trnblasDgemm failed");
    return;
  }
  results()[gemm_name("ozaki", s, threads)] = trnsci::bench::run_paired(
      st, s.flops(), [&] { benchmark::DoNotOptimize(call()); },
      [&] {
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, s.m, s.n, s.k, 1.0, op.A.data(), s.m, op.B.data(), s.k,
                    0.0, op.C.data(), s.m);
      });
  if (threads != 1) return;
  Modeled& md = modeled()["ozaki/" + s.name()];
  md.ozaki_bits = bits;
  trnblasGetLastProfile(h, &md.trn1);
  trnblasSetTarget(h, TRN_TARGET_TRN2);
  call();
  trnblasGetLastProfile(h, &md.trn2);
}

// Short runs: one iteration of the largest shapes already takes seconds.
void configure(benchmark::internal::Benchmark* b) { b->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0); }

void register_all() {
  for (const Shape& s : kShapes)
    for (int t : kThreads)
      for (const Mode& m : kModes)
        configure(benchmark::RegisterBenchmark(("trnblas_vs_sgemm/" + gemm_name(m.name, s, t)).c_str(),
                                               BM_TrnblasGemmEx_vs_Sgemm, m, s, t));
  for (const Shape& s : kDgemmShapes)
    for (int t : kThreads)
      configure(benchmark::RegisterBenchmark(("trnblas_vs_dgemm/" + gemm_name("ozaki", s, t)).c_str(),
                                             BM_TrnblasDgemm_vs_Dgemm, s, t));
}

void print_modeled(const Modeled* md) {
  if (md == nullptr || md->trn1.total_ns <= 0) {
    std::printf("  %10s %6s %10s %6s", "-", "-", "-", "-");
    return;
  }
  for (const trnProfile_t* p : {&md->trn1, &md->trn2})
    std::printf("  %10.1f %5.1f%%", p->total_ns * 1e-3, 100.0 * p->busy_ns[TRN_ENGINE_TENSOR] / p->total_ns);
}

void print_table() {
  auto get = [&](const std::string& name) -> const trnsci::bench::PairedResult* {
    auto it = results().find(name);
    return it == results().end() ? nullptr : &it->second;
  };
  auto find_modeled = [](const std::string& key) -> const Modeled* {
    auto it = modeled().find(key);
    return it == modeled().end() ? nullptr : &it->second;
  };
  std::printf("\nHost GFLOP/s (2mnk per call), emulated trnblas vs OpenBLAS (%s kernels) in this process; modeled\n"
              "device time of one call on one NeuronCore (cost model), TensorE utilization = busy_ns[TENSOR] / total_ns.\n\n",
              openblas_get_corename());
  std::printf("%-15s %-9s %3s %9s %9s %7s %-9s  %10s %6s  %10s %6s\n", "shape MxNxK", "mode", "thr", "trnblas",
              "OpenBLAS", "ratio", "target", "trn1 us", "TensE", "trn2 us", "TensE");
  for (const Shape& s : kShapes)
    for (const Mode& m : kModes)
      for (int t : kThreads) {
        const trnsci::bench::PairedResult* r = get(gemm_name(m.name, s, t));
        if (r == nullptr) continue;
        char target[16] = "";
        if (m.target > 0)
          std::snprintf(target, sizeof target, ">=%.2f %s", m.target, r->median_ratio >= m.target ? "ok" : "MISS");
        std::printf("%-15s %-9s %3d %9.1f %9.1f %7.3f %-9s", s.name().c_str(), m.name, t, r->ours_gflops,
                    r->ref_gflops, r->median_ratio, target);
        print_modeled(find_modeled(std::string(m.name) + "/" + s.name()));
        std::printf("\n");
      }
  std::printf("\nOzaki-scheme DGEMM (default scheme II: CRT residue GEMMs on the emulated TensorE, residues, fold and\n"
              "reconstruction on GpSimdE, fp64 scaling and epilogue on the host; bench_trnblas_ozaki compares schemes II and I)\n"
              "vs OpenBLAS DGEMM: host GFLOP/s and host milliseconds per call; bits = mantissa bits kept per input,\n"
              "passes = nc_matmul instructions per call.\n\n");
  std::printf("%-15s %5s %3s %9s %9s %7s %9s %9s %6s  %10s %6s  %10s %6s\n", "shape MxNxK", "bits", "thr", "trnblas",
              "OpenBLAS", "ratio", "ms ours", "ms OB", "passes", "trn1 us", "TensE", "trn2 us", "TensE");
  for (const Shape& s : kDgemmShapes)
    for (int t : kThreads) {
      const trnsci::bench::PairedResult* r = get(gemm_name("ozaki", s, t));
      if (r == nullptr) continue;
      const double ours = r->ours_gflops, ref = r->ref_gflops;
      const Modeled* md = find_modeled("ozaki/" + s.name());
      std::printf("%-15s %5d %3d %9.2f %9.1f %7.3f %9.2f %9.2f %6lld", s.name().c_str(), md ? md->ozaki_bits : -1, t,
                  ours, ref, r->median_ratio, s.flops() / ours * 1e-6, s.flops() / ref * 1e-6,
                  md ? md->trn1.instructions_per_engine[TRN_ENGINE_TENSOR] : 0LL);
      print_modeled(md);
      std::printf("\n");
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
