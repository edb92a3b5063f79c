// `trnsci profile` of the distributed routines (issue #31; docs/cli.md "profile", docs/scale-out.md
// section 11): `mpirun -n P trnsci profile gemm_mp|potrf_mp|getrf_mp|geqrf_mp|fft_mp [--shape S]
// [--target T] [--trace FILE]`. Every rank runs its part of one call on the most square grid of the
// world (fft_mp: slabs over the world); rank 0 prints its Report and the slowest rank's modeled time,
// and --trace writes one merged Perfetto trace (trn/blasmp/merged_trace.hpp: a process per rank).
// Without a launcher it runs on one rank (MPI singleton).
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "mpi_session.hpp"
#include "profile.hpp"
#include "registry.hpp"
#include "trn/blasmp/blasmp.hpp"
#include "trn/blasmp/merged_trace.hpp"
#include "trn/fftmp/fftmp.hpp"
#include "trn/solvermp/plan.hpp"
#include "trn/solvermp/solvermp.hpp"

namespace trnsci::cli {
namespace {

constexpr std::int64_t kBlock = 32;  // square blocks of every matrix routine

// The world's most square nprow x npcol grid (nprow <= npcol).
void world_grid(trn::blasmp::Grid& g) {
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int nprow = 1;
  for (int q = 1; q * q <= p; ++q)
    if (p % q == 0) nprow = q;
  trn::blasmp::grid_create(g, nprow, p / nprow, trn::blasmp::GridLayout::col_major, MPI_COMM_WORLD);
}

trn::blasmp::Descriptor square_blocks(const trn::blasmp::Grid& g, std::int64_t m, std::int64_t n) {
  trn::blasmp::Descriptor d{m, n, kBlock, kBlock, 0, 0, 1, TRN_R_32F, &g};
  d.lld = std::max<std::int64_t>(1, d.local_rows());
  return d;
}

// A local block of d with values in [-0.5, 0.5) from the global index (the same matrix on any grid),
// plus `diag` on the global diagonal (diagonally dominant: SPD when symmetric).
std::vector<float> local_values(const trn::blasmp::Descriptor& d, float diag) {
  const trn::blasmp::Grid& g = *d.grid;
  std::vector<float> v(static_cast<std::size_t>(d.lld * std::max<std::int64_t>(1, d.local_cols())));
  for (std::int64_t jl = 0; jl < d.local_cols(); ++jl)
    for (std::int64_t il = 0; il < d.local_rows(); ++il) {
      const std::int64_t i = (il / d.mb * g.nprow + g.myrow) * d.mb + il % d.mb;
      const std::int64_t j = (jl / d.nb * g.npcol + g.mycol) * d.nb + jl % d.nb;
      const std::int64_t lo = std::min(i, j), hi = std::max(i, j);  // symmetric
      v[static_cast<std::size_t>(il + jl * d.lld)] = static_cast<float>((lo * 7919 + hi * 104729) % 1000) / 1000.0f - 0.5f + (i == j ? diag : 0.0f);
    }
  return v;
}

// One call's report, and what its link records' communicators belong to (the grid or plan): kept
// until the merged trace is written, which models the report again with its peers (collective).
struct MpRun {
  trn::Report report;
  std::string label;
  MPI_Comm comm = MPI_COMM_WORLD;
  std::shared_ptr<trn::blasmp::Grid> grid;
  std::shared_ptr<const trn::fftmp::SlabPlan> plan;
};

std::shared_ptr<trn::blasmp::Grid> world_grid() {
  auto g = std::shared_ptr<trn::blasmp::Grid>(new trn::blasmp::Grid, [](trn::blasmp::Grid* p) {
    trn::blasmp::grid_destroy(*p);
    delete p;
  });
  world_grid(*g);
  return g;
}

MpRun run_gemm_mp(const std::vector<std::int64_t>& d, trn::blas::Settings s) {
  const std::int64_t m = d[0], n = d.size() > 1 ? d[1] : m, k = d.size() > 2 ? d[2] : n;
  std::shared_ptr<trn::blasmp::Grid> grid = world_grid();
  const trn::blasmp::Grid& g = *grid;
  const trn::blasmp::Descriptor da = square_blocks(g, m, k), db = square_blocks(g, k, n), dc = square_blocks(g, m, n);
  std::vector<float> A = local_values(da, 0), B = local_values(db, 0), C(static_cast<std::size_t>(dc.lld * std::max<std::int64_t>(1, dc.local_cols())));
  std::vector<char> work(trn::blasmp::gemm_workspace_bytes(da, db, dc, k));
  trn::blasmp::GemmArgs x;
  x.m = m, x.n = n, x.k = k, x.a = A.data(), x.b = B.data(), x.c = C.data(), x.desc_a = &da, x.desc_b = &db, x.desc_c = &dc;
  x.work = work.data(), x.work_bytes = work.size();
  trn::blas::CallReport r;
  trn::blasmp::gemm(s, x, &r);
  return {std::move(r), "fp32 SUMMA, " + std::to_string(g.nprow) + "x" + std::to_string(g.npcol) + " grid, blocks 32",
          MPI_COMM_WORLD, grid, nullptr};
}

// potrf_mp / getrf_mp / geqrf_mp: one factorisation of a diagonally dominant fp32 matrix.
template <class Args, class Call, class Work>
MpRun run_factor(const std::vector<std::int64_t>& d, trn::blas::Settings s, trn::solvermp::FactorKind kind, const char* what, Call call,
                 Work workspace) {
  const bool square = kind == trn::solvermp::FactorKind::potrf;
  const std::int64_t m = d[0], n = square || d.size() < 2 ? m : d[1];
  std::shared_ptr<trn::blasmp::Grid> grid = world_grid();
  const trn::blasmp::Grid& g = *grid;
  const trn::blasmp::Descriptor da = square_blocks(g, m, n);
  std::vector<float> A = local_values(da, static_cast<float>(n));
  std::vector<std::int64_t> ipiv(static_cast<std::size_t>(std::max<std::int64_t>(1, da.local_rows())));
  std::vector<float> tau(static_cast<std::size_t>(std::max<std::int64_t>(1, da.local_cols())));
  Args x;
  if constexpr (requires { x.m; }) x.m = m;
  x.n = n, x.a = A.data(), x.desc_a = &da;
  if constexpr (requires { x.ipiv; }) x.ipiv = ipiv.data();
  if constexpr (requires { x.tau; }) x.tau = tau.data();
  std::vector<char> work(workspace(x));
  x.work = work.data(), x.work_bytes = work.size();
  trn::blas::CallReport r;
  call(s, x, &r);
  MpRun out{std::move(r), std::string(what) + ", " + std::to_string(g.nprow) + "x" + std::to_string(g.npcol) + " grid, blocks 32",
            MPI_COMM_WORLD, grid, nullptr};
  out.report.add_plan(trn::solvermp::plan_factor(s, kind, g.nprow, g.npcol, m, n, kBlock));  // process (0, 0)'s prediction
  return out;
}

MpRun run_fft_mp(const std::vector<std::int64_t>& d, trn::blas::Settings s) {
  trn::fftmp::SlabSpec spec;
  spec.n = d.size() == 1 ? std::vector<std::int64_t>{d[0], d[0], d[0]} : d;
  spec.type = trn::fft::Type::c2c;
  trn::fft::Settings fs;
  fs.target = s.target;
  auto plan = std::make_shared<const trn::fftmp::SlabPlan>(spec, fs, MPI_COMM_WORLD);
  std::vector<float> x(static_cast<std::size_t>(2 * std::max(plan->inplace_elements(), plan->shuffled_elements())), 0.25f);
  trn::fft::ExecReport r;
  plan->execute(x.data(), x.data(), trn::fft::kForward, &r);
  return {std::move(r), "c2c forward fp32, slabs over " + std::to_string(plan->ranks()) + " rank(s)", MPI_COMM_WORLD, nullptr, plan};
}

struct MpOp {
  const char* name;
  const char* library;
  const char* shape;
  const char* default_shape;
};
const MpOp kMpOps[] = {
    {"gemm_mp", "trnblasMp", "MxNxK", "256"},
    {"potrf_mp", "trnsolverMp", "N", "256"},
    {"getrf_mp", "trnsolverMp", "M or MxN", "256"},
    {"geqrf_mp", "trnsolverMp", "M or MxN", "256x128"},
    {"fft_mp", "trnfftMp", "N (N^3) or N0xN1[xN2]", "32"},
};

MpRun run_mp(const std::string& op, const std::vector<std::int64_t>& d, const trn::blas::Settings& s) {
  namespace sm = trn::solvermp;
  if (op == "gemm_mp") return run_gemm_mp(d, s);
  if (op == "potrf_mp")
    return run_factor<sm::PotrfArgs>(d, s, sm::FactorKind::potrf, "fp32 Cholesky (lower)",
                                     [](auto& st, auto& x, auto* r) { sm::potrf(st, x, r); }, sm::potrf_workspace_bytes);
  if (op == "getrf_mp")
    return run_factor<sm::GetrfArgs>(d, s, sm::FactorKind::getrf, "fp32 LU, partial pivoting",
                                     [](auto& st, auto& x, auto* r) { sm::getrf(st, x, r); }, sm::getrf_workspace_bytes);
  if (op == "geqrf_mp")
    return run_factor<sm::GeqrfArgs>(d, s, sm::FactorKind::geqrf, "fp32 Householder QR",
                                     [](auto& st, auto& x, auto* r) { sm::geqrf(st, x, r); }, sm::geqrf_workspace_bytes);
  return run_fft_mp(d, s);
}

}  // namespace

bool is_profile_mp_op(const std::string& op) {
  return std::any_of(std::begin(kMpOps), std::end(kMpOps), [&](const MpOp& o) { return op == o.name; });
}

std::string profile_mp_op_list() {
  std::string s;
  for (const MpOp& o : kMpOps) s += (s.empty() ? "" : ", ") + std::string(o.name);
  return s;
}

int run_profile_mp(const ProfileFlags& f, const std::vector<std::int64_t>& dims, trn::Generation target) {
  const mp::Session session(true);
  const MpOp& op = *std::find_if(std::begin(kMpOps), std::end(kMpOps), [&](const MpOp& o) { return f.op == o.name; });
  trn::blas::Settings s;
  s.target = target;
  const double t0 = now_seconds();
  MpRun run = run_mp(f.op, dims, s);
  const double host = seconds_since(t0);
  // The slowest rank's modeled time with the waits for peers (the report's), and as every rank
  // modeled alone (no waits: the lower bound of the critical path; docs/scale-out.md section 7).
  trn::ReportSettings alone;
  alone.target = target;
  alone.cores = trn::hardware_spec(target).cores_per_device;
  double slowest[3] = {run.report.profile.total_ns, trn::model_trace(run.report.trace, alone).total_ns,
                       run.report.profile.link_wait_ns};
  MPI_Allreduce(MPI_IN_PLACE, slowest, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const bool wrote = f.trace_path.empty() || trn::blasmp::write_merged_trace(run.comm, run.report, target, f.trace_path);
  if (mp::rank() == 0) {
    std::printf("trnsci profile %s (%s) %s %s target=%s ranks=%d (emulation %.2f s host)\n", op.name, op.library,
                f.shape.empty() ? op.default_shape : f.shape.c_str(), run.label.c_str(), f.target.c_str(), mp::size(), host);
    std::printf("slowest rank's modeled time: %.3f us (every rank modeled alone, without waiting for peers: %.3f us; "
                "the longest wait of a rank: %.3f us); rank 0's report:\n%s",
                slowest[0] * 1e-3, slowest[1] * 1e-3, slowest[2] * 1e-3, run.report.print().c_str());
    if (!f.trace_path.empty() && wrote)
      std::printf("merged Perfetto trace (one process per rank): %s (open in ui.perfetto.dev)\n", f.trace_path.c_str());
    if (!wrote) std::fprintf(stderr, "trnsci profile: cannot write %s\n", f.trace_path.c_str());
  }
  return wrote ? 0 : 2;
}

const char* profile_mp_default_shape(const std::string& op) {
  for (const MpOp& o : kMpOps)
    if (op == o.name) return o.default_shape;
  return "";
}

}  // namespace trnsci::cli
