// trnsparse BSR SpMM against dense OpenBLAS SGEMM and Eigen's SparseMatrix<float> x dense, in one
// process on the same values: A is 4096 x 4096 in 128 x 128 blocks at block densities 1/5/10/25/50%
// (the dense copy for SGEMM holds zeros elsewhere), B 4096 x 256, C = A B. Every iteration runs
// trnsparse and the reference back to back (bench/paired.hpp; ratio = reference time / our time, so
// > 1 means trnsparse is faster). After the runs main() prints one table: host times, ratios, the
// crossover density against SGEMM, and the modeled trn1 device time of the BSR SpMM against density
// x the modeled time of the dense fp32 GEMM (trnblas, same shape), plus the modeled cost of smaller
// blocks at 25% density (under-filled TensorE).
//
// Also paired: the same matrix as Blocked-ELL (lowered to BSR per call) against Eigen's sparse x
// dense at 10% and 25%; the Krylov solvers (CG, BiCGStab, GMRES(20), Jacobi) against Eigen's
// ConjugateGradient, BiCGSTAB and (unsupported) GMRES with a diagonal preconditioner on 2-D
// Laplacian / convection-diffusion operators of 1024 unknowns in 128-blocks; and the host time of
// block-sparse attention forward/backward (seq 1024, head_dim 64, BigBird-like mask) with the modeled
// trn1 time at seq 4096, head_dim 128 against the TensorE bound and the dense-mask kernel.
//
// Runs: --benchmark_filter=... to select; MinTime 0.5 s per case keeps a full run to a few minutes.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/Sparse>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>
#include <unsupported/Eigen/IterativeSolvers>
#include <cstdio>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "openblas_native.hpp"
#include "paired.hpp"
#include "sparse_reference.hpp"
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
  // The dense copy (OpenBLAS's operand) is the oracle's expansion; Eigen gets its nonzeros.
  p.dense = sparse_ref::bsr_to_dense(p.nb, p.nb, bs, bs, p.offsets, p.columns, true, [&](std::int64_t e, std::int64_t within) {
    return p.values[static_cast<std::size_t>(e * bs * bs + within)];
  });
  std::vector<Eigen::Triplet<float, int>> trip;
  trip.reserve(p.values.size());
  for (std::int64_t j = 0; j < kN; ++j)
    for (std::int64_t i = 0; i < kN; ++i)
      if (const float v = p.dense[static_cast<std::size_t>(i + j * kN)]; v != 0.0f)
        trip.emplace_back(static_cast<int>(i), static_cast<int>(j), v);
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

// The problem's blocks as Blocked-ELL: slots = the widest block row, empty slots -1, values copied
// into the rows x ellCols row-major array.
struct Ell {
  std::int64_t slots = 0;
  std::vector<std::int64_t> col;
  std::vector<float> values;
  sp::BlockedEllView view() {
    return {kN, kN, kBlock, slots * kBlock, col.data(), values.data(), sp::IndexType::i64, sp::IndexBase::zero, trn::DType::f32};
  }
};
Ell to_ell(const Problem& p) {
  Ell e;
  for (std::int64_t R = 0; R < p.nb; ++R)
    e.slots = std::max(e.slots, p.offsets[static_cast<std::size_t>(R) + 1] - p.offsets[static_cast<std::size_t>(R)]);
  const std::int64_t ell_cols = e.slots * kBlock;
  e.col.assign(static_cast<std::size_t>(p.nb * e.slots), -1);
  e.values.assign(static_cast<std::size_t>(kN * ell_cols), 0.0f);
  for (std::int64_t R = 0; R < p.nb; ++R)
    for (std::int64_t e0 = p.offsets[static_cast<std::size_t>(R)], t = 0; e0 + t < p.offsets[static_cast<std::size_t>(R) + 1]; ++t) {
      e.col[static_cast<std::size_t>(R * e.slots + t)] = p.columns[static_cast<std::size_t>(e0 + t)];
      for (std::int64_t r = 0; r < kBlock; ++r)
        for (std::int64_t c = 0; c < kBlock; ++c)
          e.values[static_cast<std::size_t>((R * kBlock + r) * ell_cols + t * kBlock + c)] =
              p.values[static_cast<std::size_t>((e0 + t) * kBlock * kBlock + r * kBlock + c)];
    }
  return e;
}

void BM_EllSpmm_vs_EigenSparse(benchmark::State& st, double density) {
  Problem& p = problem(density);
  Ell e = to_ell(p);
  const Eigen::Map<const Eigen::MatrixXf> B(p.B.data(), kN, kCols);
  Eigen::MatrixXf C(kN, kCols);
  const double flops = 2.0 * static_cast<double>(p.values.size()) * kCols;
  results()[key("ell_eigen", density, 1)] = trnsci::bench::run_paired(
      st, flops,
      [&] {
        sp::spmm({}, sp::Op::N, sp::Op::N, 1.0f, e.view(), {p.B.data(), trn::DType::f32, kN, kCols, kN, sp::Layout::col_major},
                 0.0f, {p.C.data(), trn::DType::f32, kN, kCols, kN, sp::Layout::col_major});
      },
      [&] { C.noalias() = p.eigen * B; });
}

// ---- Krylov solvers against Eigen's -------------------------------------------------------------

constexpr int kGrid = 32, kRestart = 20;
constexpr float kTol = 1e-5f;

// -Laplacian (5-point, kGrid x kGrid) + c * first-order upwind convection in x: SPD for c = 0.
struct Operator {
  std::int64_t n = kGrid * kGrid, nb = kGrid * kGrid / kBlock;
  std::vector<std::int64_t> off{0}, col;
  std::vector<float> val, b;
  Eigen::SparseMatrix<float, Eigen::RowMajor, int> eigen;
  sp::BsrView view() {
    return {nb, nb, static_cast<std::int64_t>(col.size()), kBlock, kBlock, off.data(), col.data(), val.data(),
            sp::IndexType::i64, sp::IndexType::i64, sp::IndexBase::zero, trn::DType::f32, sp::BlockOrder::row};
  }
};
Operator make_operator(double c) {
  Operator a;
  std::vector<Eigen::Triplet<float, int>> trip;
  std::vector<std::map<std::int64_t, float>> rows(static_cast<std::size_t>(a.n));
  for (std::int64_t i = 0; i < a.n; ++i) {
    const std::int64_t x = i % kGrid, y = i / kGrid;
    auto& r = rows[static_cast<std::size_t>(i)];
    r[i] = static_cast<float>(4.0 + c);
    if (x > 0) r[i - 1] = static_cast<float>(-1.0 - c);
    if (x + 1 < kGrid) r[i + 1] = -1.0f;
    if (y > 0) r[i - kGrid] = -1.0f;
    if (y + 1 < kGrid) r[i + kGrid] = -1.0f;
    for (auto [j, v] : r) trip.emplace_back(static_cast<int>(i), static_cast<int>(j), v);
  }
  a.eigen.resize(static_cast<int>(a.n), static_cast<int>(a.n));
  a.eigen.setFromTriplets(trip.begin(), trip.end());
  for (std::int64_t R = 0; R < a.nb; ++R) {
    std::map<std::int64_t, std::vector<float>> blocks;
    for (std::int64_t r = 0; r < kBlock; ++r)
      for (auto [j, v] : rows[static_cast<std::size_t>(R * kBlock + r)]) {
        auto& blk = blocks[j / kBlock];
        blk.resize(kBlock * kBlock, 0.0f);
        blk[static_cast<std::size_t>(r * kBlock + j % kBlock)] = v;
      }
    for (auto& [C, blk] : blocks) {
      a.col.push_back(C);
      a.val.insert(a.val.end(), blk.begin(), blk.end());
    }
    a.off.push_back(static_cast<std::int64_t>(a.col.size()));
  }
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  a.b.resize(static_cast<std::size_t>(a.n));
  for (float& v : a.b) v = u(rng);
  return a;
}

struct SolverReport {
  int ours = 0, eigen = 0;
  double modeled_ns = 0;
  std::int64_t launches = 0;
};
std::map<std::string, SolverReport>& solver_reports() {
  static std::map<std::string, SolverReport> r;
  return r;
}

template <class EigenSolver>
void BM_Solver(benchmark::State& st, const char* name, double c) {
  Operator a = make_operator(c);
  EigenSolver es;
  es.setTolerance(kTol);
  es.setMaxIterations(2000);
  if constexpr (requires { es.set_restart(kRestart); }) es.set_restart(kRestart);
  es.compute(a.eigen);
  const Eigen::Map<const Eigen::VectorXf> b(a.b.data(), a.n);
  Eigen::VectorXf xe(a.n);
  std::vector<float> x(static_cast<std::size_t>(a.n));
  sp::KrylovOptions opt{2000, kTol, true};
  opt.restart = kRestart;
  sp::KrylovResult r;
  const std::string n(name);
  results()[n] = trnsci::bench::run_paired(
      st, 0.0,
      [&] {
        std::fill(x.begin(), x.end(), 0.0f);
        r = n == "cg" ? sp::cg({}, a.view(), a.b.data(), x.data(), opt)
            : n == "bicgstab" ? sp::bicgstab({}, a.view(), a.b.data(), x.data(), opt)
                              : sp::gmres({}, a.view(), a.b.data(), x.data(), opt);
      },
      [&] { xe = es.solve(b); });
  solver_reports()[n] = {r.iterations, static_cast<int>(es.iterations()), r.modeled_ns, r.launches};
}

// ---- block-sparse attention ---------------------------------------------------------------------

// BigBird-like mask on nb x nb blocks: a window of 3, 2 global block columns, 3 random blocks.
struct AttnMask {
  std::int64_t nb = 0, b = 0;
  std::vector<std::int64_t> off{0}, col;
  sp::BsrView view() {
    return {nb, nb, static_cast<std::int64_t>(col.size()), b, b, off.data(), col.data(), nullptr, sp::IndexType::i64,
            sp::IndexType::i64, sp::IndexBase::zero, trn::DType::f32, sp::BlockOrder::row};
  }
};
AttnMask bigbird(std::int64_t nb, std::int64_t b, bool dense) {
  AttnMask m;
  m.nb = nb;
  m.b = b;
  std::mt19937_64 rng(10);
  for (std::int64_t r = 0; r < nb; ++r) {
    std::set<std::int64_t> cols;
    for (std::int64_t c = 0; c < nb && dense; ++c) cols.insert(c);
    for (std::int64_t w = -1; w <= 1; ++w)
      if (r + w >= 0 && r + w < nb) cols.insert(r + w);
    cols.insert(0);
    cols.insert(std::min<std::int64_t>(1, nb - 1));
    for (int k = 0; k < 3; ++k) cols.insert(std::uniform_int_distribution<std::int64_t>(0, nb - 1)(rng));
    m.col.insert(m.col.end(), cols.begin(), cols.end());
    m.off.push_back(static_cast<std::int64_t>(m.col.size()));
  }
  return m;
}

std::map<std::string, double>& attention_host_ms() {
  static std::map<std::string, double> r;
  return r;
}

void BM_Attention(benchmark::State& st, bool backward) {
  const std::int64_t seq = 1024, d = 64;
  AttnMask m = bigbird(seq / kBlock, kBlock, false);
  std::mt19937_64 rng(3);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<float> Q(static_cast<std::size_t>(seq * d)), K(Q.size()), V(Q.size()), dO(Q.size()), O(Q.size()),
      L(static_cast<std::size_t>(seq)), dQ(Q.size()), dK(Q.size()), dV(Q.size());
  for (auto* v : {&Q, &K, &V, &dO})
    for (float& x : *v) x = g(rng);
  const float scale = 0.125f;
  sp::attention_forward({}, m.view(), d, Q.data(), K.data(), V.data(), scale, O.data(), trn::DType::f32, nullptr, L.data());
  double total = 0;
  int calls = 0;
  for (auto _ : st) {
    const auto t0 = std::chrono::steady_clock::now();
    if (backward)
      sp::attention_backward({}, m.view(), d, Q.data(), K.data(), V.data(), O.data(), dO.data(), L.data(), scale, dQ.data(),
                             dK.data(), dV.data());
    else
      sp::attention_forward({}, m.view(), d, Q.data(), K.data(), V.data(), scale, O.data(), trn::DType::f32, nullptr,
                            L.data());
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ++calls;
  }
  attention_host_ms()[backward ? "backward" : "forward"] = calls > 0 ? 1e3 * total / calls : 0;
}

void register_all() {
  for (double d : kDensities) {
    for (int t : {1, 2})
      benchmark::RegisterBenchmark(("spmm_vs_sgemm/" + key("sgemm", d, t)).c_str(), BM_Spmm_vs_Sgemm, d, t)
          ->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
    benchmark::RegisterBenchmark(("spmm_vs_eigen/" + key("eigen", d, 1)).c_str(), BM_Spmm_vs_EigenSparse, d)
        ->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  }
  for (double d : {0.10, 0.25})
    benchmark::RegisterBenchmark(("ell_spmm_vs_eigen/" + key("ell_eigen", d, 1)).c_str(), BM_EllSpmm_vs_EigenSparse, d)
        ->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  using EigenCsrF = Eigen::SparseMatrix<float, Eigen::RowMajor, int>;
  benchmark::RegisterBenchmark("solver_vs_eigen/cg", BM_Solver<Eigen::ConjugateGradient<EigenCsrF, Eigen::Lower | Eigen::Upper>>,
                               "cg", 0.0)
      ->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  benchmark::RegisterBenchmark("solver_vs_eigen/bicgstab", BM_Solver<Eigen::BiCGSTAB<EigenCsrF>>, "bicgstab", 2.0)
      ->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  benchmark::RegisterBenchmark("solver_vs_eigen/gmres", BM_Solver<Eigen::GMRES<EigenCsrF>>, "gmres", 2.0)
      ->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  benchmark::RegisterBenchmark("attention/forward", BM_Attention, false)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
  benchmark::RegisterBenchmark("attention/backward", BM_Attention, true)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
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
  std::printf("%8s %12s %12s %12s %12s %12s | %12s %14s %8s %8s\n", "density", "vs_sgemm_1t", "vs_sgemm_2t", "vs_eigen_1t",
              "ours_GF/s_1t", "eigen_GF/s", "trn1_us", "d*dense_us", "ratio", "TensorE");
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
    std::printf("%7.0f%% %12.2f %12.2f %12.2f %12.1f %12.1f | %12.1f %14.1f %8.3f %7.1f%%\n", d * 100, s1.median_ratio,
                s2.median_ratio, e1.median_ratio, s1.ours_gflops, e1.ref_gflops, ns * 1e-3, d * dense_ns * 1e-3,
                ns / (d * dense_ns), 100 * util);
    if (crossover < 0 && s1.median_ratio > 0 && s1.median_ratio < 1.0) crossover = d;
  }
  std::printf("dense fp32 GEMM 4096x256x4096 modeled on trn1: %.1f us\n", dense_ns * 1e-3);
  if (crossover > 0)
    std::printf("host crossover vs SGEMM (1 thread): trnsparse slower from %.0f%% block density\n", crossover * 100);
  else if (results().count(key("sgemm", kDensities[0], 1)) != 0)
    std::printf("host crossover vs SGEMM (1 thread): trnsparse faster at every density measured\n");
  std::printf("\nSpMV and SDDMM (K = 128) on the same 4096x4096 128-block patterns, modeled trn1:\n");
  for (double d : {0.10, 0.25}) {
    Problem p = make_problem(d, kBlock, false);
    sp::Settings s;
    s.timing_only = true;
    sp::CallReport rv, rs;
    sp::spmv(s, sp::Op::N, 1.0f, p.view(), p.B.data(), trn::DType::f32, 0.0f, p.C.data(), trn::DType::f32, &rv);
    std::vector<float> f(static_cast<std::size_t>(kN) * kBlock);
    sp::sddmm(s, sp::Op::N, sp::Op::N, 1.0f, {f.data(), trn::DType::f32, kN, kBlock, kN, sp::Layout::col_major},
              {f.data(), trn::DType::f32, kBlock, kN, kBlock, sp::Layout::col_major}, 0.0f, p.view(), &rs);
    std::printf("%7.0f%%: SpMV %.1f us (DMA %.0f%% busy), SDDMM %.1f us\n", d * 100, rv.profile.total_ns * 1e-3,
                100 * rv.profile.utilization(trn::Engine::dma), rs.profile.total_ns * 1e-3);
  }
  std::printf("\nBlocked-ELL (same blocks, lowered to BSR per call) vs Eigen sparse x dense, 1 thread:\n");
  for (double d : {0.10, 0.25})
    if (auto it = results().find(key("ell_eigen", d, 1)); it != results().end())
      std::printf("%7.0f%%: ratio %.2f (ours %.1f GF/s)\n", d * 100, it->second.median_ratio, it->second.ours_gflops);
  if (!solver_reports().empty()) {
    std::printf("\nKrylov solvers, %dx%d grid (n = %d) in 128-blocks, tol %.0e, Jacobi; ratio = Eigen time / ours\n", kGrid,
                kGrid, kGrid * kGrid, double(kTol));
    std::printf("%10s %8s %12s %12s %12s %10s\n", "solver", "ratio", "iterations", "eigen_iters", "trn1_us", "launches");
    for (const auto& [n, r] : solver_reports())
      std::printf("%10s %8.4f %12d %12d %12.1f %10lld\n", n.c_str(), results()[n].median_ratio, r.ours, r.eigen,
                  r.modeled_ns * 1e-3, static_cast<long long>(r.launches));
  }
  {
    // Modeled trn1: seq 4096, head_dim 128, bf16 tiles; TensorE bound = the TensorE busy time alone.
    AttnMask sparse = bigbird(32, kBlock, false), dense = bigbird(32, kBlock, true);
    std::vector<float> X(4096 * 128), L(4096), G(4096 * 128);
    sp::Settings s;
    s.timing_only = true;
    std::printf("\nBlock-sparse attention, seq 4096, head_dim 128, bf16, modeled trn1 (density %.3f); host ms at seq 1024 d 64 fp32\n",
                double(sparse.col.size()) / (32.0 * 32.0));
    std::printf("%10s %12s %14s %14s %12s %10s\n", "pass", "sparse_us", "TensorE_us", "dense_mask_us", "ratio", "host_ms");
    for (bool bwd : {false, true}) {
      sp::CallReport rs, rd;
      for (auto [m, r] : {std::pair{&sparse, &rs}, std::pair{&dense, &rd}}) {
        if (bwd)
          sp::attention_backward(s, m->view(), 128, X.data(), X.data(), X.data(), X.data(), X.data(), L.data(), 0.088f,
                                 G.data(), G.data(), G.data(), trn::DType::bf16, r);
        else
          sp::attention_forward(s, m->view(), 128, X.data(), X.data(), X.data(), 0.088f, G.data(), trn::DType::bf16, r);
      }
      std::printf("%10s %12.1f %14.1f %14.1f %12.3f %10.1f\n", bwd ? "backward" : "forward", rs.profile.total_ns * 1e-3,
                  rs.profile.busy_ns[static_cast<int>(trn::Engine::tensor)] * 1e-3, rd.profile.total_ns * 1e-3,
                  rs.profile.total_ns / rd.profile.total_ns, attention_host_ms()[bwd ? "backward" : "forward"]);
    }
  }
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
