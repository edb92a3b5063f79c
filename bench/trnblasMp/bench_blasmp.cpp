// trnblasMp bench (docs/scale-out.md "Bench"): the modeled time of a distributed fp32 GEMM of
// 16384^2 ... 65536^2 on 1, 2, 4, 8, 16 emulated trn1 devices, strong and weak scaling, predicted by
// the SUMMA plan (trnblas's GEMM predictor for the local panels, the fabric model for the
// allgathers) -- nothing of that size runs here. Then one size small enough to run: the plan's
// prediction against the modeled time of the ranks' actual traces (link records and local GEMMs
// scheduled together). Run: mpiexec -n P bench_blasmp [quick-size] (the table on rank 0 whatever P).
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "trn/blasmp/blasmp.hpp"

namespace {

using trn::blasmp::Grid;
using trn::blasmp::SummaPlan;

// The most square nprow x npcol = p with nprow <= npcol.
void grid_shape(int p, int* nprow, int* npcol) {
  *nprow = 1;
  for (int r = 1; r * r <= p; ++r)
    if (p % r == 0) *nprow = r;
  *npcol = p / *nprow;
}

// Process (0, 0): the largest local block, the slowest rank.
SummaPlan plan_for(std::int64_t n, int p, std::int64_t block) {
  Grid g;
  grid_shape(p, &g.nprow, &g.npcol);
  return trn::blasmp::plan_gemm(trn::blas::Settings{}, g, trn::blas::GemmMode::fp32, false, n, n, n, block, block, block);
}

void print_row(const char* kind, std::int64_t n, int p, const SummaPlan& s, double t1) {
  const double flops = 2.0 * static_cast<double>(n) * n * n;
  std::printf("%-6s %6lld %3d %2dx%-2d %5lld %4lld %12.3f %12.3f %12.3f %6.1f%% %12.3f %6.2f %8.2f %6.1f%%\n", kind,
              static_cast<long long>(n), p, s.nprow, s.npcol, static_cast<long long>(s.kb), static_cast<long long>(s.panels),
              s.compute_ns() * 1e-6, s.link_ns() * 1e-6, s.predicted_ns * 1e-6,
              100.0 * s.link_ns() / (s.link_ns() + s.compute_ns()), s.roofline_ns * 1e-6, s.predicted_ns / s.roofline_ns,
              flops / s.predicted_ns * 1e-3, t1 > 0 ? 100.0 * t1 / (p * s.predicted_ns) : 100.0);
}

void print_table() {
  std::printf("trnblasMp SGEMM (fp32 mode) on emulated trn1 devices, predicted by the SUMMA plan of process (0,0);\n"
              "block 1024; times in ms; link share = link / (link + compute); roofline bound = max(TensorE fp32 peak\n"
              "of the device's 2 NeuronCores, link time); eff = strong-scaling efficiency t1 / (P tP) (weak: t1 / tP at\n"
              "constant work per device)\n");
  std::printf("%-6s %6s %3s %5s %5s %4s %12s %12s %12s %7s %12s %6s %8s %7s\n", "kind", "N", "P", "grid", "kb", "pan",
              "compute", "link", "predicted", "link%", "roofline", "ratio", "TFLOP/s", "eff");
  const std::int64_t block = 1024;
  for (std::int64_t n : {16384, 32768, 65536}) {
    double t1 = 0;
    for (int p : {1, 2, 4, 8, 16}) {
      const SummaPlan s = plan_for(n, p, block);
      if (p == 1) t1 = s.predicted_ns;
      print_row("strong", n, p, s, t1);
    }
  }
  // Weak scaling: N^3 / P constant from 16384 on one device (N = 16384 P^(1/3), rounded to blocks).
  double t1 = 0;
  for (int p : {1, 2, 4, 8, 16}) {
    const auto n = static_cast<std::int64_t>(std::llround(16384.0 * std::cbrt(static_cast<double>(p)) / block)) * block;
    const SummaPlan s = plan_for(n, p, block);
    if (p == 1) t1 = s.predicted_ns;
    const double weak = t1 / s.predicted_ns * (static_cast<double>(n) * n * n) / (16384.0 * 16384.0 * 16384.0 * p);
    print_row("weak", n, p, s, weak * p * s.predicted_ns);
  }
}

// One GEMM that runs: every rank's modeled time against its plan's prediction.
void quick_check(std::int64_t n, int rank, int size) {
  int nprow, npcol;
  grid_shape(size, &nprow, &npcol);
  Grid g;
  trn::blasmp::grid_create(g, nprow, npcol, trn::blasmp::GridLayout::col_major, MPI_COMM_WORLD);
  const std::int64_t bs = 128;
  trn::blasmp::Descriptor d{n, n, bs, bs, 0, 0, 1, TRN_R_32F, &g};
  d.lld = std::max<std::int64_t>(1, d.local_rows());
  const auto elems = static_cast<std::size_t>(d.lld * std::max<std::int64_t>(1, d.local_cols()));
  std::vector<float> A(elems, 0.5f), B(elems, 0.25f), C(elems, 0.0f);
  std::vector<char> work(trn::blasmp::gemm_workspace_bytes(d, d, d, n));
  trn::blasmp::GemmArgs x;
  x.m = x.n = x.k = n;
  x.a = A.data(), x.b = B.data(), x.c = C.data(), x.desc_a = x.desc_b = x.desc_c = &d;
  x.work = work.data(), x.work_bytes = work.size();
  trn::blas::CallReport r;
  const double t0 = MPI_Wtime();
  trn::blasmp::gemm(trn::blas::Settings{}, x, &r);
  const double wall = MPI_Wtime() - t0;
  const SummaPlan p = trn::blasmp::plan_gemm(trn::blas::Settings{}, g, x.mode, false, n, n, n, bs, bs, bs, x.beta);
  double mine[3] = {r.profile.total_ns, p.predicted_ns, r.profile.link_ns - r.profile.link_critical_ns}, worst[3];
  MPI_Reduce(mine, worst, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("\nquick check, actually run: %lld^2 fp32 on %d rank(s) (%dx%d), block %lld\n", static_cast<long long>(n),
                size, nprow, npcol, static_cast<long long>(bs));
    std::printf("  slowest rank: modeled %.3f us, plan predicted %.3f us, ratio modeled/predicted %.3f; link overlapped "
                "with compute %.3f us; host wall %.2f s\n",
                worst[0] * 1e-3, worst[1] * 1e-3, worst[0] / worst[1], worst[2] * 1e-3, wall);
    std::printf("  rank 0 plan: %s\n  rank 0 profile:\n%s", r.plan.c_str(), r.profile.summary().c_str());
  }
  trn::blasmp::grid_destroy(g);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::int64_t quick = argc > 1 ? std::atoll(argv[1]) : 512;
  if (rank == 0) print_table();
  quick_check(quick, rank, size);
  MPI_Finalize();
  return 0;
}
