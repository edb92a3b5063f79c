// Waiting for peers (docs/scale-out.md section 12): the modeled time of distributed GEMM, Cholesky,
// LU and the symmetric eigensolver run under mpiexec, each rank's report modeled alone (before: no
// waits, the lower bound of the critical path) and with its peers (after: a transfer starts when its
// root or last member reached it), with the communication share of each.
//   mpiexec -n P --oversubscribe ./build/bench/bench_mp_wait [N] [block] [N of syevd]
// Prints one row per routine: the slowest rank's modeled time alone and with the waits (us), the
// increase, the link share of the slowest rank (link busy time / its modeled time) before and after,
// and the longest wait of a rank. Nothing here is timed on the host: the numbers are modeled.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "trn/blasmp/blasmp.hpp"
#include "trn/core/report.hpp"
#include "trn/solvermp/solvermp.hpp"

namespace {

int g_rank = 0, g_size = 1;

// A local block of d: a symmetric, diagonally dominant matrix (SPD) from the global index.
std::vector<float> spd_block(const trn::blasmp::Descriptor& d) {
  const trn::blasmp::Grid& g = *d.grid;
  std::vector<float> v(static_cast<std::size_t>(d.lld * std::max<std::int64_t>(1, d.local_cols())), 0.0f);
  for (std::int64_t jl = 0; jl < d.local_cols(); ++jl)
    for (std::int64_t il = 0; il < d.local_rows(); ++il) {
      const std::int64_t i = (il / d.mb * g.nprow + g.myrow) * d.mb + il % d.mb, j = (jl / d.nb * g.npcol + g.mycol) * d.nb + jl % d.nb;
      const std::int64_t lo = std::min(i, j), hi = std::max(i, j);
      v[static_cast<std::size_t>(il + jl * d.lld)] = static_cast<float>((lo * 7919 + hi * 104729) % 1000) / 1000.0f - 0.5f + (i == j ? static_cast<float>(d.m) : 0.0f);
    }
  return v;
}

trn::blasmp::Descriptor square(const trn::blasmp::Grid& g, std::int64_t n, std::int64_t nb) {
  trn::blasmp::Descriptor d{n, n, nb, nb, 0, 0, 1, TRN_R_32F, &g};
  d.lld = std::max<std::int64_t>(1, d.local_rows());
  return d;
}

// One routine's row: this rank's report modeled with its peers (the report's) and alone.
void print_row(const char* routine, std::int64_t n, std::int64_t nb, const trn::blasmp::Grid& g, const trn::blas::CallReport& r) {
  trn::ReportSettings alone;
  alone.target = r.profile.target;
  alone.cores = r.profile.cores;
  const trn::Profile a = trn::model_trace(r.trace, alone);
  // The slowest rank's times, and the link busy time of the rank that is slowest in each view.
  double mine[4] = {a.total_ns, r.profile.total_ns, r.profile.link_wait_ns, 0};
  double most[4];
  MPI_Allreduce(mine, most, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  double share[2] = {a.total_ns == most[0] ? a.link_ns / a.total_ns : 0, r.profile.total_ns == most[1] ? r.profile.link_ns / r.profile.total_ns : 0};
  MPI_Allreduce(MPI_IN_PLACE, share, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (g_rank == 0)
    std::printf("| %s %lld², nb %lld | %d (%dx%d) | %.1f | %.1f | %+.1f %% | %.1f %% | %.1f %% | %.1f |\n", routine,
                static_cast<long long>(n), static_cast<long long>(nb), g_size, g.nprow, g.npcol, most[0] * 1e-3, most[1] * 1e-3,
                100.0 * (most[1] / most[0] - 1.0), 100.0 * share[0], 100.0 * share[1], most[2] * 1e-3);
}

void gemm_row(const trn::blasmp::Grid& g, std::int64_t n, std::int64_t nb) {
  const trn::blasmp::Descriptor d = square(g, n, nb);
  std::vector<float> A = spd_block(d), B = A, C = A;
  std::vector<char> work(trn::blasmp::gemm_workspace_bytes(d, d, d, n));
  trn::blasmp::GemmArgs x;
  x.m = x.n = x.k = n, x.a = A.data(), x.b = B.data(), x.c = C.data(), x.desc_a = x.desc_b = x.desc_c = &d;
  x.work = work.data(), x.work_bytes = work.size();
  trn::blas::CallReport r;
  trn::blasmp::gemm(trn::blas::Settings{}, x, &r);
  print_row("gemm", n, nb, g, r);
}

template <class Args, class Run>
void factor_row(const char* routine, const trn::blasmp::Grid& g, std::int64_t n, std::int64_t nb, Args x, Run run,
                std::size_t (*workspace)(const Args&)) {
  const trn::blasmp::Descriptor d = square(g, n, nb);
  std::vector<float> A = spd_block(d);
  std::vector<std::int64_t> ipiv(static_cast<std::size_t>(std::max<std::int64_t>(1, d.local_rows())));
  std::vector<float> w(static_cast<std::size_t>(n)), Z(A.size());
  x.n = n, x.a = A.data(), x.desc_a = &d;
  if constexpr (requires { x.m; }) x.m = n;
  if constexpr (requires { x.ipiv; }) x.ipiv = ipiv.data();
  if constexpr (requires { x.z; }) x.d = w.data(), x.z = Z.data(), x.desc_z = &d;
  std::vector<char> work(workspace(x));
  x.work = work.data(), x.work_bytes = work.size();
  trn::blas::CallReport r;
  run(trn::blas::Settings{}, x, &r);
  print_row(routine, n, nb, g, r);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : 256, nb = argc > 2 ? std::atoll(argv[2]) : 32;
  const std::int64_t n_eig = argc > 3 ? std::atoll(argv[3]) : 64;
  int nprow = 1;
  for (int q = 1; q * q <= g_size; ++q)
    if (g_size % q == 0) nprow = q;
  trn::blasmp::Grid g;
  trn::blasmp::grid_create(g, nprow, g_size / nprow, trn::blasmp::GridLayout::col_major, MPI_COMM_WORLD);
  namespace sm = trn::solvermp;
  gemm_row(g, n, nb);
  factor_row("potrf", g, n, nb, sm::PotrfArgs{}, [](const auto& s, auto& x, auto* r) { sm::potrf(s, x, r); }, sm::potrf_workspace_bytes);
  factor_row("getrf", g, n, nb, sm::GetrfArgs{}, [](const auto& s, auto& x, auto* r) { sm::getrf(s, x, r); }, sm::getrf_workspace_bytes);
  factor_row("syevd", g, n_eig, std::min<std::int64_t>(nb, 16), sm::SyevdArgs{}, [](const auto& s, auto& x, auto* r) { sm::syevd(s, x, r); },
             sm::syevd_workspace_bytes);
  trn::blasmp::grid_destroy(g);
  MPI_Finalize();
  return 0;
}
