// trnsparse BSR SpMM against dense OpenBLAS SGEMM and Eigen's SparseMatrix<float> x dense, in one
// process on the same values: A is 4096 x 4096 in 128 x 128 blocks at block densities 1/5/10/25/50%
// (the dense copy for SGEMM holds zeros elsewhere), B 4096 x 256, C = A B. Every iteration runs
// trnsparse and the reference back to back (bench/paired.hpp; ratio = reference time / our time, so
// > 1 means trnsparse is faster). After the runs main() prints one table: host times, ratios, the
// crossover density against SGEMM, and the modeled trn1 device time of the BSR SpMM against density
// x the modeled time of the dense fp32 GEMM (trnblas, same shape), plus the modeled cost of smaller
// blocks at 25% density (under-filled TensorE).
//
// Runs: --benchmark_filter=... to select; MinTime 0.5 s per case keeps a full run to a few minutes.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <Eigen/Sparse>
#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "openblas_native.hpp"
#include "paired.hpp"
#include "trn/blas/blas.hpp"
#include "trn/sparse/sparse.hpp"

namespace {

namespace sp = trn::sparse;
constexpr int kN = 4096, kCols = 256, kBlock = 128;
const double kDensities[] = {0.01, 0.05, 0.10, 0.25, 0.50};

using EigenCsr = Eigen::SparseMatrix<float, Eigen::RowMajor, int>;

// One BSR matrix with exactly round(density * blocks) stored blocks, its dense and Eigen copies.
struct Problem {
  std::int64_t nb = 0, bs = 0;
  std::vector<std::int64_t> offsets, columns;
  std::vector<float> values, dense, B, C;
  EigenCsr eigen;
  sp::BsrView view() {
    return sp::BsrView{nb, nb, static_cast<std::int64_t>(columns.size()), bs, bs, offsets.data(), columns.data(),
                       values.data(), sp::IndexType::i64, sp::IndexType::i64, sp::IndexBase::zero, trn::DType::f32,
                       sp::BlockOrder::row};
  }
};

Problem make_problem(double density, std::int64_t bs, bool with_refs) {
  Problem p;
  p.bs = bs;
  p.nb = kN / bs;
  std::mt19937_64 rng(static_cast<std::uint64_t>(density * 1000) + static_cast<std::uint64_t>(bs));
  std::vector<std::int64_t> all(static_cast<std::size_t>(p.nb * p.nb));
  std::iota(all.begin(), all.end(), 0);
  std::shuffle(all.begin(), all.end(), rng);
  const auto count = static_cast<std::size_t>(std::max(1.0, std::round(density * static_cast<double>(all.size()))));
  std::vector<std::int64_t> chosen(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(count));
  std::sort(chosen.begin(), chosen.end());  // block row-major order = sorted columns per row
  p.offsets.assign(static_cast<std::size_t>(p.nb) + 1, 0);
  for (std::int64_t b : chosen) {
    ++p.offsets[static_cast<std::size_t>(b / p.nb) + 1];
    p.columns.push_back(b % p.nb);
  }
  std::partial_sum(p.offsets.begin(), p.offsets.end(), p.offsets.begin());
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  p.values.resize(count * static_cast<std::size_t>(bs * bs));
  for (float& x : p.values) x = u(rng);
  p.B.resize(static_cast<std::size_t>(kN) * kCols);
  for (float& x : p.B) x = u(rng);
  p.C.assign(static_cast<std::size_t>(kN) * kCols, 0.0f);
  if (!with_refs) return p;
  p.dense.assign(static_cast<std::size_t>(kN) * kN, 0.0f);
  std::vector<Eigen::Triplet<float, int>> trip;
  trip.reserve(p.values.size());
  for (std::int64_t R = 0; R < p.nb; ++R)
    for (std::int64_t e = p.offsets[static_cast<std::size_t>(R)]; e < p.offsets[static_cast<std::size_t>(R) + 1]; ++e)
      for (std::int64_t r = 0; r < bs; ++r)
        for (std::int64_t c = 0; c < bs; ++c) {
          const float v = p.values[static_cast<std::size_t>(e * bs * bs + r * bs + c)];
          const std::int64_t i = R * bs + r, j = p.columns[static_cast<std::size_t>(e)] * bs + c;
          p.dense[static_cast<std::size_t>(i + j * kN)] = v;
          trip.emplace_back(static_cast<int>(i), static_cast<int>(j), v);
        }
  p.eigen.resize(kN, kN);
  p.eigen.setFromTriplets(trip.begin(), trip.end());
  p.eigen.makeCompressed();
  return p;
}

Problem& problem(double density) {
  static std::map<int, Problem> cache;
  const int key = static_cast<int>(density * 1000);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, make_problem(density, kBlock, true)).first;
  return it->second;
}

std::map<std::string, trnsci::bench::PairedResult>& results() {
  static std::map<std::string, trnsci::bench::PairedResult> r;
  return r;
}
std::map<int, sp::CallReport>& reports() {  // key: density per mille
  static std::map<int, sp::CallReport> r;
  return r;
}
std::string key(const char* ref, double d, int threads) {
  return std::string(ref) + "/" + std::to_string(static_cast<int>(d * 100)) + "%/threads:" + std::to_string(threads);
}

void run_ours(Problem& p, int threads, sp::CallReport* rep = nullptr) {
  sp::Settings s;
  s.host_threads = threads;
  sp::spmm(s, sp::Op::N, sp::Op::N, 1.0f, p.view(), {p.B.data(), trn::DType::f32, kN, kCols, kN, sp::Layout::col_major},
           0.0f, {p.C.data(), trn::DType::f32, kN, kCols, kN, sp::Layout::col_major}, rep);
}

void BM_Spmm_vs_Sgemm(benchmark::State& st, double density, int threads) {
  Problem& p = problem(density);
  openblas_set_num_threads(threads);
  std::vector<float> Cref(p.C.size());
  const double flops = 2.0 * static_cast<double>(p.values.size()) * kCols;  // stored values only
  results()[key("sgemm", density, threads)] = trnsci::bench::run_paired(
      st, flops, [&] { run_ours(p, threads); },
      [&] {
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, kN, kCols, kN, 1.0f, p.dense.data(), kN, p.B.data(), kN,
                    0.0f, Cref.data(), kN);
      });
  if (threads == 1) run_ours(p, 1, &reports()[static_cast<int>(density * 1000)]);
}

void BM_Spmm_vs_EigenSparse(benchmark::State& st, double density) {
  Problem& p = problem(density);
  const Eigen::Map<const Eigen::MatrixXf> B(p.B.data(), kN, kCols);
  Eigen::MatrixXf C(kN, kCols);
  const double flops = 2.0 * static_cast<double>(p.values.size()) * kCols;
  results()[key("eigen", density, 1)] = trnsci::bench::run_paired(
      st, flops, [&] { run_ours(p, 1); }, [&] { C.noalias() = p.eigen * B; });
}

void register_all() {
  for (double d : kDensities) {
    for (int t : {1, 2})
      benchmark::RegisterBenchmark(("spmm_vs_sgemm/" + key("sgemm", d, t)).c_str(), BM_Spmm_vs_Sgemm, d, t)
          ->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
    benchmark::RegisterBenchmark(("spmm_vs_eigen/" + key("eigen", d, 1)).c_str(), BM_Spmm_vs_EigenSparse, d)
        ->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  }
}

// Modeled trn1 time of the dense fp32 GEMM of the same shape (trnblas, timing only).
double dense_gemm_modeled_ns() {
  trn::blas::Settings s;
  s.timing_only = true;
  trn::blas::CallReport r;
  static std::vector<float> dummy(1);
  trn::blas::gemm(s, trn::blas::GemmMode::fp32, trn::blas::Op::N, trn::blas::Op::N, kN, kCols, kN, 1.0f,
                  {dummy.data(), trn::DType::f32, kN}, {dummy.data(), trn::DType::f32, kN}, 0.0f,
                  {dummy.data(), trn::DType::f32, kN}, &r);
  return r.profile.total_ns;
}

double bsr_modeled_ns(double density, std::int64_t bs, std::int64_t* matmuls, double* tensor_util) {
  Problem p = make_problem(density, bs, false);
  sp::Settings s;
  s.timing_only = true;
  sp::CallReport r;
  sp::spmm(s, sp::Op::N, sp::Op::N, 1.0f, p.view(), {p.B.data(), trn::DType::f32, kN, kCols, kN, sp::Layout::col_major},
           0.0f, {p.C.data(), trn::DType::f32, kN, kCols, kN, sp::Layout::col_major}, &r);
  *matmuls = r.matmuls;
  *tensor_util = r.profile.busy_ns[static_cast<int>(trn::Engine::tensor)] / r.profile.total_ns;
  return r.profile.total_ns;
}

void print_table() {
  std::printf("\nBSR SpMM 4096x4096 (128-blocks) x 4096x256, fp32; ratio = reference time / trnsparse time\n");
  std::printf("%8s %12s %12s %12s %12s %12s | %12s %14s %8s\n", "density", "vs_sgemm_1t", "vs_sgemm_2t", "vs_eigen_1t",
              "ours_GF/s_1t", "eigen_GF/s", "trn1_us", "d*dense_us", "ratio");
  const double dense_ns = dense_gemm_modeled_ns();
  double crossover = -1;
  for (double d : kDensities) {
    auto get = [&](const std::string& k) {
      auto it = results().find(k);
      return it == results().end() ? trnsci::bench::PairedResult{} : it->second;
    };
    const auto s1 = get(key("sgemm", d, 1)), s2 = get(key("sgemm", d, 2)), e1 = get(key("eigen", d, 1));
    std::int64_t mm = 0;
    double util = 0;
    const double ns = bsr_modeled_ns(d, kBlock, &mm, &util);
    std::printf("%7.0f%% %12.2f %12.2f %12.2f %12.1f %12.1f | %12.1f %14.1f %8.3f\n", d * 100, s1.median_ratio,
                s2.median_ratio, e1.median_ratio, s1.ours_gflops, e1.ref_gflops, ns * 1e-3, d * dense_ns * 1e-3,
                ns / (d * dense_ns));
    if (crossover < 0 && s1.median_ratio > 0 && s1.median_ratio < 1.0) crossover = d;
  }
  std::printf("dense fp32 GEMM 4096x256x4096 modeled on trn1: %.1f us\n", dense_ns * 1e-3);
  if (crossover > 0)
    std::printf("host crossover vs SGEMM (1 thread): trnsparse slower from %.0f%% block density\n", crossover * 100);
  else if (results().count(key("sgemm", kDensities[0], 1)) != 0)
    std::printf("host crossover vs SGEMM (1 thread): trnsparse faster at every density measured\n");
  std::printf("\nSmaller blocks at 25%% block density (same 4096x4096x256 problem), modeled trn1:\n");
  std::printf("%8s %10s %12s %12s\n", "block", "matmuls", "trn1_us", "TensorE_util");
  for (std::int64_t bs : {128, 64, 32, 16}) {
    std::int64_t mm = 0;
    double util = 0;
    const double ns = bsr_modeled_ns(0.25, bs, &mm, &util);
    std::printf("%8lld %10lld %12.1f %11.1f%%\n", static_cast<long long>(bs), static_cast<long long>(mm), ns * 1e-3,
                100 * util);
  }
}

}  // namespace

int main(int argc, char** argv) {
  trnsci::bench::use_native_openblas_kernels(argv);
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  print_table();
  return 0;
}
