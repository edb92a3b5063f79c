// trnsolver vs LAPACKE (OpenBLAS) in one process, paired (bench/paired.hpp): each iteration runs
// our call and the reference back to back. "ratio" = reference time / our time (> 1: we are
// faster on this host). Modeled device time of our call on trn1 and trn2 is printed as counters
// (us) with the busy share of the critical engine. OpenBLAS threads: set OPENBLAS_NUM_THREADS=1 for
// the 1-thread comparison of the issue.
#include <benchmark/benchmark.h>
#include <cblas.h>
#include <lapacke.h>

#include <cmath>
#include <random>
#include <vector>

#include "paired.hpp"
#include "trn/solver/solver.hpp"

namespace {

namespace ts = trn::solver;

std::vector<float> random_symmetric(int n, int batch, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> nd;
  std::vector<float> a(static_cast<std::size_t>(n) * n * batch);
  for (int k = 0; k < batch; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = j; i < n; ++i) {
        const float x = nd(rng);
        a[(static_cast<std::size_t>(k) * n + j) * n + i] = x;
        a[(static_cast<std::size_t>(k) * n + i) * n + j] = x;
      }
  return a;
}

void model_counters(benchmark::State& st, const ts::CallReport& rep) {
  for (trn::Generation g : {trn::Generation::trn1, trn::Generation::trn2}) {
    const trn::Profile p = trn::model_profile(rep.trace, g);
    const char* name = g == trn::Generation::trn1 ? "trn1" : "trn2";
    st.counters[std::string(name) + "_us"] = p.total_ns * 1e-3;
    st.counters[std::string(name) + "_vector_busy%"] = 100.0 * p.utilization(trn::Engine::vector);
    st.counters[std::string(name) + "_tensor_busy%"] = 100.0 * p.utilization(trn::Engine::tensor);
  }
}

// Ssyevj (vectors) vs LAPACKE_ssyevd, one n x n matrix.
void BM_Ssyevj_vs_ssyevd(benchmark::State& st) {
  const int n = static_cast<int>(st.range(0));
  const auto a0 = random_symmetric(n, 1, 5);
  std::vector<float> a(a0), r(a0), w(n), wr(n);
  ts::CallReport rep;
  trnsci::bench::run_paired(
      st, 0.0,
      [&] {
        a = a0;
        ts::ssyevj({}, true, ts::Uplo::lower, n, a.data(), n, w.data(), {}, &rep);
      },
      [&] {
        r = a0;
        LAPACKE_ssyevd(LAPACK_COL_MAJOR, 'V', 'L', n, r.data(), n, wr.data());
      });
  model_counters(st, rep);
}
BENCHMARK(BM_Ssyevj_vs_ssyevd)->Arg(32)->Arg(64)->Arg(128)->Arg(256)->Arg(512)->Arg(1024)->Unit(benchmark::kMillisecond)->Iterations(1);

// SsyevjBatched (vectors) vs a loop of LAPACKE_ssyevd over the same matrices.
void BM_SsyevjBatched_vs_ssyevd_loop(benchmark::State& st) {
  const int n = static_cast<int>(st.range(0)), batch = static_cast<int>(st.range(1));
  const auto a0 = random_symmetric(n, batch, 6);
  std::vector<float> a(a0), r(a0), w(static_cast<std::size_t>(n) * batch), wr(w.size());
  ts::CallReport rep;
  trnsci::bench::run_paired(
      st, 0.0,
      [&] {
        a = a0;
        ts::ssyevj_batched({}, true, ts::Uplo::lower, n, a.data(), n, w.data(), {}, batch, &rep);
      },
      [&] {
        r = a0;
        for (int k = 0; k < batch; ++k)
          LAPACKE_ssyevd(LAPACK_COL_MAJOR, 'V', 'L', n, r.data() + static_cast<std::size_t>(k) * n * n, n,
                         wr.data() + static_cast<std::size_t>(k) * n);
      });
  model_counters(st, rep);
}
BENCHMARK(BM_SsyevjBatched_vs_ssyevd_loop)->Args({32, 256})->Args({32, 2000})->Args({128, 200})->Unit(benchmark::kMillisecond)->Iterations(1);

// Spotrf vs LAPACKE_spotrf on an SPD matrix (G G^T / n + I); GFLOP/s from n^3 / 3.
void BM_Spotrf_vs_spotrf(benchmark::State& st) {
  const int n = static_cast<int>(st.range(0));
  std::mt19937_64 rng(7);
  std::normal_distribution<float> nd;
  std::vector<double> g(static_cast<std::size_t>(n) * n), s(g.size());
  for (double& x : g) x = nd(rng);
  // Set-up, not timed: S = G G^T / n in fp64 (a strided triple loop here took ~30 s at n = 2048).
  cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, n, n, 1.0 / n, g.data(), n, 0.0, s.data(), n);
  std::vector<float> a0(g.size());
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i)
      a0[i + static_cast<std::size_t>(j) * n] = a0[j + static_cast<std::size_t>(i) * n] =
          static_cast<float>(s[i + static_cast<std::size_t>(j) * n] + (i == j));
  std::vector<float> a(a0), r(a0);
  ts::CallReport rep;
  trnsci::bench::run_paired(
      st, static_cast<double>(n) * n * n / 3.0,
      [&] {
        a = a0;
        ts::spotrf({}, ts::Uplo::lower, n, a.data(), n, &rep);
      },
      [&] {
        r = a0;
        LAPACKE_spotrf(LAPACK_COL_MAJOR, 'L', n, r.data(), n);
      });
  model_counters(st, rep);
}
BENCHMARK(BM_Spotrf_vs_spotrf)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->Iterations(2);

// Sgetrf (partial pivoting) vs LAPACKE_sgetrf on a random matrix; GFLOP/s from 2 n^3 / 3.
void BM_Sgetrf_vs_sgetrf(benchmark::State& st) {
  const int n = static_cast<int>(st.range(0));
  std::mt19937_64 rng(8);
  std::normal_distribution<float> nd;
  std::vector<float> a0(static_cast<std::size_t>(n) * n);
  for (float& x : a0) x = nd(rng);
  std::vector<float> a(a0), r(a0);
  std::vector<int> ip(n), rip(n);
  ts::CallReport rep;
  trnsci::bench::run_paired(
      st, 2.0 * n * n * n / 3.0,
      [&] {
        a = a0;
        ts::sgetrf({}, n, n, a.data(), n, ip.data(), &rep);
      },
      [&] {
        r = a0;
        LAPACKE_sgetrf(LAPACK_COL_MAJOR, n, n, r.data(), n, rip.data());
      });
  model_counters(st, rep);
}
BENCHMARK(BM_Sgetrf_vs_sgetrf)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->Iterations(2);

// DBgesv with GMRES-IR (bf16 trailing-update inputs, CLASSICAL_GMRES, residual by Ozaki DGEMM) vs
// LAPACKE_dgesv on an HPL-MxP matrix (uniform(-0.5, 0.5), a_ii = sum_j |a_ij|, LU without pivoting
// for ours); GFLOP/s from 2 n^3 / 3. The target: <= 1.5x dgesv's wall time at n = 4096.
void BM_DBgesvGmres_vs_dgesv(benchmark::State& st) {
  const int n = static_cast<int>(st.range(0));
  std::mt19937_64 rng(1234);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<double> a0(static_cast<std::size_t>(n) * n), b(n), x(n);
  for (double& v : a0) v = u(rng);
  for (int i = 0; i < n; ++i) {
    double row = 0;
    for (int j = 0; j < n; ++j) row += std::abs(a0[i + static_cast<std::size_t>(j) * n]);
    a0[i + static_cast<std::size_t>(i) * n] = row;
  }
  for (double& v : b) v = u(rng);
  std::vector<double> a(a0), r(a0), rb(b);
  std::vector<int> rip(n);
  ts::IrsOptions o;
  o.lu_mode = trn::blas::GemmMode::bf16;
  o.refinement = ts::IrsRefinement::classical_gmres;
  o.pivoting = false;
  ts::CallReport rep;
  int niters = 0;
  trnsci::bench::run_paired(
      st, 2.0 * n * n * n / 3.0,
      [&] {
        a = a0;
        niters = ts::irs_gesv<double>({}, o, n, 1, a.data(), n, nullptr, b.data(), n, x.data(), n, &rep).niters;
      },
      [&] {
        r = a0;
        rb = b;
        LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, r.data(), n, rip.data(), rb.data(), n);
      });
  model_counters(st, rep);
  st.counters["niters"] = niters;
}
BENCHMARK(BM_DBgesvGmres_vs_dgesv)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
