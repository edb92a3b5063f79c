// The merged multi-rank Perfetto trace (trn/blasmp/merged_trace.hpp, docs/scale-out.md section 11), on
// 1 and 2 ranks: for a trnblasMp GEMM, a trnsolverMp Cholesky and a trnfftMp slab FFT, the document rank
// 0 gets parses as JSON, has one process per rank (pid = rank, named "rank r"), and each rank's
// instruction events equal, in number, that rank's own single-device perfetto_json of the same report
// (and its trace's instruction count); its link transfers sit on its Fabric track, every event inside
// [0, the rank's modeled time]. Through the C API (TRNSCI_MP_TRACE): a trnsolverMp Potrf writes the file
// when every rank sets the variable, and returns INVALID_VALUE on every rank when only rank 0 does.
// And trnsolverMp's plans (plan.hpp) predict fp32 factorisations within [0.5, 1.5] of the slowest rank's
// modeled time.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "trn/blasmp/blasmp.hpp"
#include "trn/blasmp/merged_trace.hpp"
#include "trn/core/cost_model.hpp"
#include "trn/fftmp/fftmp.hpp"
#include "trn/solvermp/plan.hpp"
#include "trn/solvermp/solvermp.hpp"
#include "trnsolverMp.h"

namespace {

int g_rank = 0, g_size = 1, g_failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    ++g_failures;
    std::fprintf(stderr, "[rank %d] FAILED: %s\n", g_rank, what.c_str());
  }
}

void grid_shape(int p, int* nprow, int* npcol) {
  *nprow = 1;
  for (int r = 1; r * r <= p; ++r)
    if (p % r == 0) *nprow = r;
  *npcol = p / *nprow;
}

// What a rank knows of its own report: instruction events in its own perfetto_json, link transfers,
// modeled time.
struct Own {
  double events = 0, links = 0, total_us = 0, instructions = 0;
};

Own own_counts(const trn::Report& r) {
  trn::ReportSettings rs;
  rs.target = r.profile.target;
  rs.cores = trn::hardware_spec(rs.target).cores_per_device;
  rs.link_peers = &trn::blasmp::peer_exchange();  // the report's waits for peers (collective: every rank models)
  trn::Schedule s;
  s.profile = trn::model_trace(r.trace, rs, &s.timeline);
  const nlohmann::json j = nlohmann::json::parse(trn::perfetto_json(r.trace, s));
  Own o;
  for (const auto& e : j["traceEvents"]) o.events += e["ph"] == "X" ? 1 : 0;
  o.links = static_cast<double>(s.profile.link_transfers);
  o.total_us = s.profile.total_ns * 1e-3;
  o.instructions = static_cast<double>(r.trace.instructions.size());
  check(s.profile.total_ns == r.profile.total_ns, "the timeline's schedule is the report's (same modeled time)");
  return o;
}

// The merged document of report r against every rank's own counts.
void check_merged(const trn::Report& r, const std::string& what) {
  const Own own = own_counts(r);
  const std::string doc = trn::blasmp::merged_perfetto_json(MPI_COMM_WORLD, r, r.profile.target);
  std::vector<Own> all(static_cast<std::size_t>(g_size));
  MPI_Gather(&own, 4, MPI_DOUBLE, all.data(), 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (g_rank != 0) {
    check(doc.empty(), what + ": only rank 0 gets the document");
    return;
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(doc);
  } catch (const std::exception& e) {
    check(false, what + ": the merged trace does not parse: " + e.what());
    return;
  }
  std::vector<double> events(all.size()), fabric(all.size());
  std::vector<int> named(all.size());
  for (const auto& e : j["traceEvents"]) {
    const int pid = e["pid"].get<int>();
    check(pid >= 0 && pid < g_size, what + ": pid " + std::to_string(pid) + " is a rank");
    if (pid < 0 || pid >= g_size) continue;
    const auto q = static_cast<std::size_t>(pid);
    if (e["ph"] == "M" && e["name"] == "process_name") named[q] += e["args"]["name"] == "rank " + std::to_string(pid) ? 1 : 0;
    if (e["ph"] != "X") continue;
    const double ts = e["ts"].get<double>(), end = ts + e["dur"].get<double>();
    check(ts >= 0 && end <= all[q].total_us * (1 + 1e-9) + 1e-3, what + ": an event of rank " + std::to_string(pid) + " outside [0, its modeled time]");
    if (e["cat"] == "overlap") continue;  // derived: the link hidden behind compute
    if (e["cat"] == "wait") {  // derived: the time a transfer waited for its peers (section 12)
      check(e["tid"] == 90003, what + ": a wait event on the \"waiting for peers\" track");
      continue;
    }
    events[q] += 1;
    fabric[q] += e["tid"] == 90001 ? 1 : 0;
  }
  for (std::size_t q = 0; q < all.size(); ++q) {
    const std::string rq = what + ": rank " + std::to_string(q);
    check(named[q] == 1, rq + " has one process named \"rank " + std::to_string(q) + "\"");
    check(events[q] == all[q].events && events[q] == all[q].instructions,
          rq + " events " + std::to_string(events[q]) + " vs its own trace's " + std::to_string(all[q].events));
    check(fabric[q] == all[q].links, rq + " Fabric-track events " + std::to_string(fabric[q]) + " vs link transfers " + std::to_string(all[q].links));
    check(g_size == 1 || all[q].links > 0, rq + " has link transfers on more than one rank");
  }
}

void gemm_trace() {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  trn::blasmp::Grid g;
  trn::blasmp::grid_create(g, nprow, npcol, trn::blasmp::GridLayout::col_major, MPI_COMM_WORLD);
  const std::int64_t n = 64;
  trn::blasmp::Descriptor d{n, n, 16, 16, 0, 0, 1, TRN_R_32F, &g};
  d.lld = std::max<std::int64_t>(1, d.local_rows());
  std::vector<float> A(static_cast<std::size_t>(d.lld * std::max<std::int64_t>(1, d.local_cols())), 0.5f), B = A, C = A;
  std::vector<char> work(trn::blasmp::gemm_workspace_bytes(d, d, d, n));
  trn::blasmp::GemmArgs x;
  x.m = x.n = x.k = n, x.a = A.data(), x.b = B.data(), x.c = C.data(), x.desc_a = x.desc_b = x.desc_c = &d;
  x.work = work.data(), x.work_bytes = work.size();
  trn::blas::CallReport r;
  trn::blasmp::gemm(trn::blas::Settings{}, x, &r);
  check_merged(r, "trnblasMp gemm");
  trn::blasmp::grid_destroy(g);
}

void potrf_trace() {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  trn::blasmp::Grid g;
  trn::blasmp::grid_create(g, nprow, npcol, trn::blasmp::GridLayout::col_major, MPI_COMM_WORLD);
  const std::int64_t n = 48;
  trn::blasmp::Descriptor d{n, n, 16, 16, 0, 0, 1, TRN_R_64F, &g};
  d.lld = std::max<std::int64_t>(1, d.local_rows());
  std::vector<double> A(static_cast<std::size_t>(d.lld * std::max<std::int64_t>(1, d.local_cols())), 0.0);
  for (std::int64_t jl = 0; jl < d.local_cols(); ++jl)
    for (std::int64_t il = 0; il < d.local_rows(); ++il) {
      const std::int64_t i = (il / 16 * nprow + g.myrow) * 16 + il % 16, j = (jl / 16 * npcol + g.mycol) * 16 + jl % 16;
      A[static_cast<std::size_t>(il + jl * d.lld)] = i == j ? 2.0 * n : 1.0 / static_cast<double>(1 + i + j);
    }
  trn::solvermp::PotrfArgs x;
  x.fp64 = true, x.n = n, x.a = A.data(), x.desc_a = &d;
  std::vector<char> work(trn::solvermp::potrf_workspace_bytes(x));
  x.work = work.data(), x.work_bytes = work.size();
  trn::blas::CallReport r;
  check(trn::solvermp::potrf(trn::blas::Settings{}, x, &r) == 0, "potrf info 0");
  check_merged(r, "trnsolverMp potrf");
  trn::blasmp::grid_destroy(g);
}

void fft_trace() {
  trn::fftmp::SlabSpec spec;
  spec.n = {8, 8, 8};
  spec.type = trn::fft::Type::c2c;
  const trn::fftmp::SlabPlan plan(spec, trn::fft::Settings{}, MPI_COMM_WORLD);
  std::vector<float> x(static_cast<std::size_t>(2 * std::max(plan.inplace_elements(), plan.shuffled_elements())), 0.25f);
  trn::fft::ExecReport r;
  plan.execute(x.data(), x.data(), trn::fft::kForward, &r);
  check_merged(r, "trnfftMp slab c2c");
}

// The C API: TRNSCI_MP_TRACE on every rank -> rank 0 writes a merged trace with every rank's process;
// on rank 0 only -> INVALID_VALUE on every rank (the request is part of the argument exchange).
void capi_trace() {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  trnsolverMpHandle_t h = nullptr;
  trnsolverMpGrid_t grid = nullptr;
  check(trnsolverMpCreate(&h, 0, nullptr) == TRNSOLVER_STATUS_SUCCESS, "trnsolverMpCreate");
  check(trnsolverMpCreateDeviceGrid(h, &grid, MPI_COMM_WORLD, nprow, npcol, TRNSOLVERMP_GRID_MAPPING_COL_MAJOR) == TRNSOLVER_STATUS_SUCCESS,
        "CreateDeviceGrid");
  const int n = 32, nb = 8, myrow = g_rank % nprow, mycol = g_rank / nprow;
  const int64_t lr = trnsolverMpNUMROC(n, nb, static_cast<uint32_t>(myrow), 0, static_cast<uint32_t>(nprow));
  const int64_t lc = trnsolverMpNUMROC(n, nb, static_cast<uint32_t>(mycol), 0, static_cast<uint32_t>(npcol));
  trnsolverMpMatrixDescriptor_t da = nullptr;
  check(trnsolverMpCreateMatrixDesc(&da, grid, TRN_R_32F, n, n, nb, nb, 0, 0, std::max<int64_t>(1, lr)) == TRNSOLVER_STATUS_SUCCESS, "desc");
  std::vector<float> A(static_cast<std::size_t>(std::max<int64_t>(1, lr) * std::max<int64_t>(1, lc)), 0.0f);
  for (int64_t jl = 0; jl < lc; ++jl)
    for (int64_t il = 0; il < lr; ++il)
      if ((il / nb * nprow + myrow) * nb + il % nb == (jl / nb * npcol + mycol) * nb + jl % nb) A[static_cast<std::size_t>(il + jl * lr)] = 4.0f;
  size_t wd = 0, wh = 0;
  check(trnsolverMpPotrf_bufferSize(h, TRNBLAS_FILL_MODE_LOWER, n, A.data(), 1, 1, da, TRN_R_32F, &wd, &wh) == TRNSOLVER_STATUS_SUCCESS, "bufferSize");
  std::vector<char> work(wd);
  char dir[] = "/tmp/trnsci_mp_trace_XXXXXX";
  std::string path;
  if (g_rank == 0 && mkdtemp(dir) != nullptr) path = std::string(dir) + "/potrf.json";
  int len = static_cast<int>(path.size());
  MPI_Bcast(&len, 1, MPI_INT, 0, MPI_COMM_WORLD);
  path.resize(static_cast<std::size_t>(len));
  MPI_Bcast(path.data(), len, MPI_CHAR, 0, MPI_COMM_WORLD);
  setenv(trn::blasmp::kMergedTraceEnv, path.c_str(), 1);
  int info = -1;
  int st = trnsolverMpPotrf(h, TRNBLAS_FILL_MODE_LOWER, n, A.data(), 1, 1, da, TRN_R_32F, work.data(), wd, nullptr, 0, &info);
  check(st == TRNSOLVER_STATUS_SUCCESS && info == 0, "C API Potrf with TRNSCI_MP_TRACE on every rank succeeds");
  if (g_rank == 0) {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    std::vector<int> seen(static_cast<std::size_t>(g_size));
    try {
      const nlohmann::json doc = nlohmann::json::parse(ss.str());
      for (const auto& e : doc["traceEvents"])
        if (e["ph"] == "M" && e["name"] == "process_name") seen[static_cast<std::size_t>(e["pid"].get<int>())] += 1;
    } catch (const std::exception& e) {
      check(false, std::string("the C API's trace file does not parse: ") + e.what());
    }
    for (int q = 0; q < g_size; ++q) check(seen[static_cast<std::size_t>(q)] == 1, "the C API's trace has rank " + std::to_string(q) + "'s process");
    std::remove(path.c_str());
    rmdir(dir);
  }
  if (g_size > 1) {  // only rank 0 asks: every rank gets INVALID_VALUE, nobody waits in the gather
    if (g_rank != 0) unsetenv(trn::blasmp::kMergedTraceEnv);
    st = trnsolverMpPotrf(h, TRNBLAS_FILL_MODE_LOWER, n, A.data(), 1, 1, da, TRN_R_32F, work.data(), wd, nullptr, 0, &info);
    int worst = st, best = st;
    MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &best, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    check(worst == TRNSOLVER_STATUS_INVALID_VALUE && best == worst, "TRNSCI_MP_TRACE on rank 0 only: INVALID_VALUE on every rank");
  }
  unsetenv(trn::blasmp::kMergedTraceEnv);
  trnsolverMpDestroyMatrixDesc(da);
  trnsolverMpDestroyGrid(grid);
  trnsolverMpDestroy(h);
}

// trnsolverMp's plans (plan.hpp) against the slowest rank's modeled time of the same fp32 call: 128 x 128
// (geqrf 128 x 64), blocks 32, within [0.5, 1.5] (docs/scale-out.md 6.4: measured 0.69 .. 1.13 at 256).
void plans_vs_traces() {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  trn::blasmp::Grid g;
  trn::blasmp::grid_create(g, nprow, npcol, trn::blasmp::GridLayout::col_major, MPI_COMM_WORLD);
  namespace sm = trn::solvermp;
  for (sm::FactorKind kind : {sm::FactorKind::potrf, sm::FactorKind::getrf, sm::FactorKind::geqrf}) {
    const std::int64_t m = 128, n = kind == sm::FactorKind::geqrf ? 64 : 128, nb = 32;
    trn::blasmp::Descriptor d{m, n, nb, nb, 0, 0, 1, TRN_R_32F, &g};
    d.lld = std::max<std::int64_t>(1, d.local_rows());
    std::vector<float> A(static_cast<std::size_t>(d.lld * std::max<std::int64_t>(1, d.local_cols())), 0.0f);
    for (std::int64_t jl = 0; jl < d.local_cols(); ++jl)
      for (std::int64_t il = 0; il < d.local_rows(); ++il) {
        const std::int64_t i = (il / nb * nprow + g.myrow) * nb + il % nb, j = (jl / nb * npcol + g.mycol) * nb + jl % nb;
        A[static_cast<std::size_t>(il + jl * d.lld)] = i == j ? 4.0f * m : 1.0f / static_cast<float>(1 + i + j);
      }
    std::vector<std::int64_t> ipiv(static_cast<std::size_t>(std::max<std::int64_t>(1, d.local_rows())));
    std::vector<float> tau(static_cast<std::size_t>(std::max<std::int64_t>(1, d.local_cols())));
    std::vector<char> work;
    trn::blas::CallReport r;
    const trn::blas::Settings s;
    if (kind == sm::FactorKind::potrf) {
      sm::PotrfArgs x;
      x.n = n, x.a = A.data(), x.desc_a = &d;
      work.resize(sm::potrf_workspace_bytes(x)), x.work = work.data(), x.work_bytes = work.size();
      sm::potrf(s, x, &r);
    } else if (kind == sm::FactorKind::getrf) {
      sm::GetrfArgs x;
      x.m = m, x.n = n, x.a = A.data(), x.desc_a = &d, x.ipiv = ipiv.data();
      work.resize(sm::getrf_workspace_bytes(x)), x.work = work.data(), x.work_bytes = work.size();
      sm::getrf(s, x, &r);
    } else {
      sm::GeqrfArgs x;
      x.m = m, x.n = n, x.a = A.data(), x.desc_a = &d, x.tau = tau.data();
      work.resize(sm::geqrf_workspace_bytes(x)), x.work = work.data(), x.work_bytes = work.size();
      sm::geqrf(s, x, &r);
    }
    double slowest = r.profile.total_ns;
    MPI_Allreduce(MPI_IN_PLACE, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    const sm::FactorPlan plan = sm::plan_factor(s, kind, nprow, npcol, m, n, nb);
    const double ratio = plan.predicted_ns / slowest;
    if (g_rank == 0) std::printf("plan %s: predicted / modeled %.3f\n", plan.print().substr(0, 40).c_str(), ratio);
    check(ratio >= 0.5 && ratio <= 1.5, "plan prediction within [0.5, 1.5] of the slowest rank's modeled time: " + plan.print());
  }
  trn::blasmp::grid_destroy(g);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  gemm_trace();
  potrf_trace();
  fft_trace();
  capi_trace();
  plans_vs_traces();
  int total = 0;
  MPI_Allreduce(&g_failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (g_rank == 0) std::printf("%s: %d failure(s) over %d rank(s)\n", total == 0 ? "PASSED" : "FAILED", total, g_size);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
