// trnblas Level 3 beyond GEMM against OpenBLAS in one process: trnblasStrsm vs cblas_strsm,
// trnblasCgemm (4M) / trnblasCgemm3m vs cblas_cgemm, trnblasSgeam vs cblas_sgeadd (OpenBLAS
// extension, on a copy of B) and trnblasCherk vs cblas_cherk, 1 and 2 host threads, paired iterations
// (bench/paired.hpp: the ratio is the median of per-pair ratios). After the runs main() prints host
// GFLOP/s (TRSM m^2 n, complex GEMM 8 m n k real flops) with the ratio, and the modeled device time
// of one call on one trn1 NeuronCore (trnblasGetLastProfile) next to the busy time of TensorE,
// VectorE and DMA: total / TensorE busy says how far the call is from its TensorE bound.
// Both sides start each TRSM iteration from the same right-hand sides (a copy, timed on both sides).
// Also trnblasCtrsm vs cblas_ctrsm (complex flops 4 m^2 n) and trnblasSgetrfBatched (the batch on the
// SBUF partitions) vs OpenBLAS's LAPACK sgetrf_ looped over the batch (2/3 n^3 per matrix), each side
// refactoring fresh copies of the same matrices.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "blas_reference.hpp"
#include "bench_handle.hpp"
#include "openblas_native.hpp"
#include "paired.hpp"

#include "trnblas.h"

extern "C" void sgetrf_(const int* m, const int* n, float* a, const int* lda, int* ipiv, int* info);

namespace {

struct Row {
  trnsci::bench::PairedResult host;
  trnProfile_t trn1{};
};
std::map<std::string, Row>& rows() {
  static std::map<std::string, Row> r;
  return r;
}

using trnblas_bench::Handle;  // the emulator's host threads via TRN_NUM_THREADS

// Uniform(-1, 1) floats: the generator the tests use (tests/reference/blas_reference.hpp).
std::vector<float> uniform(std::size_t n, std::uint64_t seed) { return blastest::uniform_f(n, seed); }

std::string key(const std::string& what, int m, int n, int k, int threads) {
  return what + "/" + std::to_string(m) + "x" + std::to_string(n) + (k > 0 ? "x" + std::to_string(k) : "") +
         "/threads:" + std::to_string(threads);
}

// Left, lower, no transpose, non-unit: a well-conditioned lower triangle (diagonal in [1, 2)).
void BM_Strsm(benchmark::State& st, int m, int n, int threads) {
  std::vector<float> A = uniform(static_cast<std::size_t>(m) * m, 1);
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) {
      float& a = A[static_cast<std::size_t>(i + j * m)];
      a = i == j ? 1.0f + std::abs(a) : a * 2.0f / float(m);
    }
  const std::vector<float> B0 = uniform(static_cast<std::size_t>(m) * n, 2);
  std::vector<float> X = B0, R = B0;
  Handle h(threads);
  openblas_set_num_threads(threads);
  const float one = 1.0f;
  auto ours = [&] {
    X = B0;
    return trnblasStrsm(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, m, n, &one,
                        A.data(), m, X.data(), m);
  };
  if (ours() != TRNBLAS_STATUS_SUCCESS) return st.SkipWithError("trnblasStrsm failed");
  Row& row = rows()[key("strsm", m, n, 0, threads)];
  trnblasGetLastProfile(h, &row.trn1);
  row.host = trnsci::bench::run_paired(
      st, double(m) * m * n, [&] { benchmark::DoNotOptimize(ours()); },
      [&] {
        R = B0;
        cblas_strsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, m, n, 1.0f, A.data(), m, R.data(),
                    m);
      });
}

void BM_Ctrsm(benchmark::State& st, int m, int n, int threads) {
  std::vector<float> A = uniform(2ull * m * m, 11);
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) {
      float* a = &A[2 * static_cast<std::size_t>(i + j * m)];
      if (i == j) {
        a[0] = 1.0f + std::abs(a[0]);
      } else {
        a[0] *= 2.0f / float(m);
        a[1] *= 2.0f / float(m);
      }
    }
  const std::vector<float> B0 = uniform(2ull * m * n, 12);
  std::vector<float> X = B0, R = B0;
  Handle h(threads);
  openblas_set_num_threads(threads);
  const trnComplex one{1.0f, 0.0f};
  auto ours = [&] {
    X = B0;
    return trnblasCtrsm(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, m, n, &one,
                        reinterpret_cast<const trnComplex*>(A.data()), m, reinterpret_cast<trnComplex*>(X.data()), m);
  };
  if (ours() != TRNBLAS_STATUS_SUCCESS) return st.SkipWithError("trnblasCtrsm failed");
  Row& row = rows()[key("ctrsm", m, n, 0, threads)];
  trnblasGetLastProfile(h, &row.trn1);
  row.host = trnsci::bench::run_paired(
      st, 4.0 * m * m * n, [&] { benchmark::DoNotOptimize(ours()); },
      [&] {
        R = B0;
        cblas_ctrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, m, n, &one, A.data(), m, R.data(),
                    m);
      });
}

void BM_SgetrfBatched(benchmark::State& st, int n, int batch, int threads) {
  const std::vector<float> A0 = uniform(static_cast<std::size_t>(n) * n * batch, 13);
  std::vector<float> A = A0, R = A0;
  std::vector<int> piv(static_cast<std::size_t>(n) * batch), info(static_cast<std::size_t>(batch));
  std::vector<float*> ptr(static_cast<std::size_t>(batch));
  for (int b = 0; b < batch; ++b) ptr[static_cast<std::size_t>(b)] = A.data() + static_cast<std::size_t>(b) * n * n;
  Handle h(threads);
  openblas_set_num_threads(threads);
  auto ours = [&] {
    A = A0;
    return trnblasSgetrfBatched(h, n, ptr.data(), n, piv.data(), info.data(), batch);
  };
  if (ours() != TRNBLAS_STATUS_SUCCESS) return st.SkipWithError("trnblasSgetrfBatched failed");
  Row& row = rows()[key("sgetrfBatched", n, n, batch, threads)];
  trnblasGetLastProfile(h, &row.trn1);
  row.host = trnsci::bench::run_paired(
      st, 2.0 / 3.0 * double(n) * n * n * batch, [&] { benchmark::DoNotOptimize(ours()); },
      [&] {
        R = A0;
        for (int b = 0; b < batch; ++b) {
          int lapack_info = 0;
          sgetrf_(&n, &n, R.data() + static_cast<std::size_t>(b) * n * n, &n, piv.data() + static_cast<std::size_t>(b) * n,
                  &lapack_info);
        }
      });
}

void BM_Cgemm(benchmark::State& st, bool three_m, int m, int n, int k, int threads) {
  const std::vector<float> A = uniform(2ull * m * k, 3), B = uniform(2ull * k * n, 4);
  std::vector<float> C(2ull * m * n), R(C.size());
  Handle h(threads);
  openblas_set_num_threads(threads);
  const trnComplex one{1.0f, 0.0f}, zero{0.0f, 0.0f};
  const auto* a = reinterpret_cast<const trnComplex*>(A.data());
  const auto* b = reinterpret_cast<const trnComplex*>(B.data());
  auto* c = reinterpret_cast<trnComplex*>(C.data());
  auto ours = [&] {
    return (three_m ? trnblasCgemm3m : trnblasCgemm)(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, a, m, b, k, &zero,
                                                     c, m);
  };
  if (ours() != TRNBLAS_STATUS_SUCCESS) return st.SkipWithError("trnblasCgemm failed");
  Row& row = rows()[key(three_m ? "cgemm3m" : "cgemm", m, n, k, threads)];
  trnblasGetLastProfile(h, &row.trn1);
  row.host = trnsci::bench::run_paired(
      st, 8.0 * m * n * k, [&] { benchmark::DoNotOptimize(ours()); },
      [&] {
        cblas_cgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, &one, A.data(), m, B.data(), k, &zero, R.data(),
                    m);
      });
}

// Sgeam C = alpha A + beta B (N, N) vs OpenBLAS's extension cblas_sgeadd (C = alpha A + beta C) on
// a copy of B (the copy timed on the reference side): 3 m n flops.
void BM_Sgeam(benchmark::State& st, int m, int n, int threads) {
  std::vector<float> A = uniform(1ull * m * n, 5);
  const std::vector<float> B = uniform(1ull * m * n, 6);
  std::vector<float> C(B.size()), R(B.size());
  Handle h(threads);
  openblas_set_num_threads(threads);
  const float alpha = 0.5f, beta = -1.5f;
  auto ours = [&] { return trnblasSgeam(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, &alpha, A.data(), m, &beta, B.data(), m, C.data(), m); };
  if (ours() != TRNBLAS_STATUS_SUCCESS) return st.SkipWithError("trnblasSgeam failed");
  Row& row = rows()[key("sgeam", m, n, 0, threads)];
  trnblasGetLastProfile(h, &row.trn1);
  row.host = trnsci::bench::run_paired(
      st, 3.0 * m * n, [&] { benchmark::DoNotOptimize(ours()); },
      [&] {
        R = B;
        cblas_sgeadd(CblasColMajor, m, n, alpha, A.data(), m, beta, R.data(), m);
      });
}

// Cherk C = A A^H (lower, N) vs cblas_cherk: 4 n^2 k real flops (half of the complex product).
void BM_Cherk(benchmark::State& st, int n, int k, int threads) {
  const std::vector<float> A = uniform(2ull * n * k, 7);
  std::vector<float> C(2ull * n * n), R(C.size());
  Handle h(threads);
  openblas_set_num_threads(threads);
  const float one = 1.0f, zero = 0.0f;
  const auto* a = reinterpret_cast<const trnComplex*>(A.data());
  auto* c = reinterpret_cast<trnComplex*>(C.data());
  auto ours = [&] { return trnblasCherk(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, n, k, &one, a, n, &zero, c, n); };
  if (ours() != TRNBLAS_STATUS_SUCCESS) return st.SkipWithError("trnblasCherk failed");
  Row& row = rows()[key("cherk", n, n, k, threads)];
  trnblasGetLastProfile(h, &row.trn1);
  row.host = trnsci::bench::run_paired(
      st, 4.0 * n * n * k, [&] { benchmark::DoNotOptimize(ours()); },
      [&] { cblas_cherk(CblasColMajor, CblasLower, CblasNoTrans, n, k, one, A.data(), n, zero, R.data(), n); });
}

void configure(benchmark::internal::Benchmark* b) { b->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0); }

void register_all() {
  for (int t : {1, 2}) {
    for (int s : {512, 1024})
      configure(benchmark::RegisterBenchmark(("trnblas_level3/" + key("strsm", s, s, 0, t)).c_str(), BM_Strsm, s, s, t));
    for (bool three : {false, true})
      for (int s : {256, 512})
        configure(benchmark::RegisterBenchmark(("trnblas_level3/" + key(three ? "cgemm3m" : "cgemm", s, s, s, t)).c_str(),
                                               BM_Cgemm, three, s, s, s, t));
    configure(benchmark::RegisterBenchmark(("trnblas_level3/" + key("sgeam", 1024, 1024, 0, t)).c_str(), BM_Sgeam, 1024,
                                           1024, t));
    configure(benchmark::RegisterBenchmark(("trnblas_level3/" + key("cherk", 512, 512, 512, t)).c_str(), BM_Cherk, 512,
                                           512, t));
    configure(benchmark::RegisterBenchmark(("trnblas_level3/" + key("ctrsm", 512, 512, 0, t)).c_str(), BM_Ctrsm, 512,
                                           512, t));
    configure(benchmark::RegisterBenchmark(("trnblas_level3/" + key("sgetrfBatched", 32, 32, 1024, t)).c_str(),
                                           BM_SgetrfBatched, 32, 1024, t));
  }
}

void print_table() {
  std::printf("\nHost GFLOP/s, emulated trnblas vs OpenBLAS (%s kernels) in this process; modeled device time of\n"
              "one call on one trn1 NeuronCore and the busy time of its engines (cost model).\n\n",
              openblas_get_corename());
  std::printf("%-34s %9s %9s %7s  %10s %10s %10s %10s %7s\n", "routine/shape/threads", "trnblas", "OpenBLAS", "ratio",
              "trn1 us", "TensorE us", "VectorE us", "DMA us", "tot/TE");
  for (const auto& [name, r] : rows()) {
    const trnProfile_t& p = r.trn1;
    const double te = p.busy_ns[TRN_ENGINE_TENSOR];
    std::printf("%-34s %9.2f %9.2f %7.3f  %10.1f %10.1f %10.1f %10.1f %7.2f\n", name.c_str(), r.host.ours_gflops,
                r.host.ref_gflops, r.host.median_ratio, p.total_ns * 1e-3, te * 1e-3,
                p.busy_ns[TRN_ENGINE_VECTOR] * 1e-3, p.busy_ns[TRN_ENGINE_DMA] * 1e-3, te > 0 ? p.total_ns / te : 0.0);
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
