// Waiting for peers in the model pass of a distributed call (docs/scale-out.md section 7), on 1, 2
// and 4 ranks. By hand: a broadcast whose root has a host step of h ns before it starts on every
// receiver at h (the receiver's profile: total h + b, waiting h, all of it critical); a symmetric
// collective after rank-dependent work starts everywhere at the latest rank's arrival. On the
// routines (trnblasMp Gemm, trnsolverMp Potrf / Getrf, trnfftMp slabs): every rank's modeled time with
// the waits is at least its time modeled alone, the slowest rank's too, the profile's waiting entry is
// in its summary, and the modeled times (with the waits) are the same bits for 1 and 2 host threads.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "trn/blasmp/blasmp.hpp"
#include "trn/core/cost_model.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/link_step.hpp"
#include "trn/core/report.hpp"
#include "trn/fftmp/fftmp.hpp"
#include "trn/solvermp/solvermp.hpp"

namespace {

int g_rank = 0, g_size = 1, g_failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    ++g_failures;
    std::fprintf(stderr, "[rank %d] FAILED: %s\n", g_rank, what.c_str());
  }
}

constexpr double kLinkNs = 1000;  // the hand-made transfers' fabric time

// The report settings every distributed call is modeled with (the peers over MPI), on trn1.
trn::ReportSettings with_peers() {
  trn::ReportSettings rs;
  rs.target = trn::Generation::trn1;
  rs.link_peers = &trn::blasmp::peer_exchange();
  return rs;
}

// A host step of `flops` fp64 flops that writes `out` (its time: the documented host_step_ns).
void host_work(trn::Trace& t, double flops, double* out) {
  trn::record_host_step(t, trn::HostStep{.name = "test.wait.work", .flops = flops, .writes = {trn::HostSpan(out, 16)}});
}

// Rank 0 works h ns, then broadcasts what it computed: every receiver waits h.
void broadcast_after_root_work() {
  std::vector<double> buf(16, 0.0);
  trn::Trace t;
  const double flops = 7.0e5;
  if (g_rank == 0) host_work(t, flops, buf.data());
  trn::LinkTransfer b{.name = "test.wait.broadcast", .ns = kLinkNs};
  (g_rank == 0 ? b.sends[0] : b.receives[0]) = trn::HostSpan(buf.data(), 16);
  b.peers = {static_cast<std::int32_t>(MPI_Comm_c2f(MPI_COMM_WORLD)), 0};
  trn::record_link_transfer(t, b);
  const trn::Profile p = trn::model_trace(t, with_peers());
  const trn::HardwareSpec& hw = trn::hardware_spec(trn::Generation::trn1);
  const double h = trn::host_step_ns(16 * sizeof(double), flops, hw);  // by hand: the root's arrival
  check(p.total_ns == h + kLinkNs, "broadcast: modeled " + std::to_string(p.total_ns) + " = h + b = " + std::to_string(h + kLinkNs));
  const double wait = g_rank == 0 || g_size == 1 ? 0.0 : h;
  check(p.link_wait_ns == wait, "broadcast: waited " + std::to_string(p.link_wait_ns) + " ns, by hand " + std::to_string(wait));
  check(p.link_wait_critical_ns == wait, "broadcast: the wait is on the critical path");
  check(p.link_waits == (wait > 0 ? 1 : 0), "broadcast: one waiting transfer on a receiver");
  check((p.summary().find("waiting  for peers") != std::string::npos) == (wait > 0), "broadcast: the summary's waiting entry");
  const trn::Profile alone = trn::model_trace(t, trn::ReportSettings{trn::Generation::trn1});
  check(alone.total_ns == (g_rank == 0 ? h : 0.0) + kLinkNs, "broadcast: modeled alone, a receiver does not wait");
}

// Rank r works (r + 1) units, then an allgather: everyone starts at the last rank's arrival.
void allgather_after_uneven_work() {
  std::vector<double> buf(16, 0.0);
  trn::Trace t;
  const double unit = 2.0e5;
  host_work(t, unit * (g_rank + 1), buf.data());
  trn::LinkTransfer a{.name = "test.wait.allgather", .ns = kLinkNs};
  a.sends[0] = trn::HostSpan(buf.data(), 16);
  a.peers = {static_cast<std::int32_t>(MPI_Comm_c2f(MPI_COMM_WORLD)), -1};
  trn::record_link_transfer(t, a);
  const trn::Profile p = trn::model_trace(t, with_peers());
  const trn::HardwareSpec& hw = trn::hardware_spec(trn::Generation::trn1);
  const double mine = trn::host_step_ns(16 * sizeof(double), unit * (g_rank + 1), hw);
  const double last = trn::host_step_ns(16 * sizeof(double), unit * g_size, hw);
  check(p.total_ns == last + kLinkNs, "allgather: modeled " + std::to_string(p.total_ns) + ", by hand " + std::to_string(last + kLinkNs));
  check(p.link_wait_ns == last - mine, "allgather: waited " + std::to_string(p.link_wait_ns) + ", by hand " + std::to_string(last - mine));
}

void grid_shape(int p, int* nprow, int* npcol) {
  *nprow = 1;
  for (int r = 1; r * r <= p; ++r)
    if (p % r == 0) *nprow = r;
  *npcol = p / *nprow;
}

// What one routine's report says on this rank, under `threads` host threads.
struct Modeled {
  double total = 0, alone = 0, wait = 0;
  std::string summary;
};

Modeled modeled(const trn::blas::CallReport& r) {
  trn::ReportSettings rs;
  rs.target = r.profile.target;
  rs.cores = trn::hardware_spec(rs.target).cores_per_device;
  return {r.profile.total_ns, trn::model_trace(r.trace, rs).total_ns, r.profile.link_wait_ns, r.profile.summary()};
}

Modeled run_potrf(const trn::blasmp::Grid& g, int threads) {
  const std::int64_t n = 96, nb = 16;
  trn::blasmp::Descriptor d{n, n, nb, nb, 0, 0, 1, TRN_R_32F, &g};
  d.lld = std::max<std::int64_t>(1, d.local_rows());
  std::vector<float> A(static_cast<std::size_t>(d.lld * std::max<std::int64_t>(1, d.local_cols())), 0.0f);
  for (std::int64_t jl = 0; jl < d.local_cols(); ++jl)
    for (std::int64_t il = 0; il < d.local_rows(); ++il) {
      const std::int64_t i = (il / nb * g.nprow + g.myrow) * nb + il % nb, j = (jl / nb * g.npcol + g.mycol) * nb + jl % nb;
      A[static_cast<std::size_t>(il + jl * d.lld)] = i == j ? 2.0f * n : 1.0f / static_cast<float>(1 + i + j);
    }
  trn::solvermp::PotrfArgs x;
  x.n = n, x.a = A.data(), x.desc_a = &d;
  std::vector<char> work(trn::solvermp::potrf_workspace_bytes(x));
  x.work = work.data(), x.work_bytes = work.size();
  trn::blas::Settings s;
  s.host_threads = threads;
  trn::blas::CallReport r;
  check(trn::solvermp::potrf(s, x, &r) == 0, "potrf info 0");
  return modeled(r);
}

Modeled run_getrf(const trn::blasmp::Grid& g, int threads) {
  const std::int64_t n = 96, nb = 16;
  trn::blasmp::Descriptor d{n, n, nb, nb, 0, 0, 1, TRN_R_32F, &g};
  d.lld = std::max<std::int64_t>(1, d.local_rows());
  std::vector<float> A(static_cast<std::size_t>(d.lld * std::max<std::int64_t>(1, d.local_cols())));
  for (std::size_t e = 0; e < A.size(); ++e) A[e] = static_cast<float>((e * 7919 + static_cast<std::size_t>(g_rank) * 104729) % 1000) / 1000.0f - 0.5f;
  std::vector<std::int64_t> ipiv(static_cast<std::size_t>(std::max<std::int64_t>(1, d.local_rows())));
  trn::solvermp::GetrfArgs x;
  x.m = x.n = n, x.a = A.data(), x.desc_a = &d, x.ipiv = ipiv.data();
  std::vector<char> work(trn::solvermp::getrf_workspace_bytes(x));
  x.work = work.data(), x.work_bytes = work.size();
  trn::blas::Settings s;
  s.host_threads = threads;
  trn::blas::CallReport r;
  trn::solvermp::getrf(s, x, &r);
  return modeled(r);
}

Modeled run_gemm(const trn::blasmp::Grid& g, int threads) {
  const std::int64_t n = 128, nb = 32;
  trn::blasmp::Descriptor d{n, n, nb, nb, 0, 0, 1, TRN_R_32F, &g};
  d.lld = std::max<std::int64_t>(1, d.local_rows());
  std::vector<float> A(static_cast<std::size_t>(d.lld * std::max<std::int64_t>(1, d.local_cols())), 0.5f), B = A, C = A;
  std::vector<char> work(trn::blasmp::gemm_workspace_bytes(d, d, d, n));
  trn::blasmp::GemmArgs x;
  x.m = x.n = x.k = n, x.a = A.data(), x.b = B.data(), x.c = C.data(), x.desc_a = x.desc_b = x.desc_c = &d;
  x.work = work.data(), x.work_bytes = work.size();
  trn::blas::Settings s;
  s.host_threads = threads;
  trn::blas::CallReport r;
  trn::blasmp::gemm(s, x, &r);
  return modeled(r);
}

Modeled run_fft(int threads) {
  trn::fftmp::SlabSpec spec;
  spec.n = {16, 16, 8};
  spec.type = trn::fft::Type::c2c;
  trn::fft::Settings fs;
  fs.host_threads = threads;
  const trn::fftmp::SlabPlan plan(spec, fs, MPI_COMM_WORLD);
  std::vector<float> x(static_cast<std::size_t>(2 * std::max(plan.inplace_elements(), plan.shuffled_elements())), 0.25f);
  trn::fft::ExecReport r;
  plan.execute(x.data(), x.data(), trn::fft::kForward, &r);
  trn::ReportSettings rs;
  rs.target = r.profile.target;
  rs.cores = r.profile.cores;
  return {r.profile.total_ns, trn::model_trace(r.trace, rs).total_ns, r.profile.link_wait_ns, r.profile.summary()};
}

// The routine's modeled times with waits against alone, and the same bits for 1 and 2 host threads.
template <class Run>
void check_routine(const char* name, Run run) {
  const Modeled one = run(1), two = run(2);
  const std::string w = name;
  check(std::memcmp(&one.total, &two.total, sizeof(double)) == 0 && std::memcmp(&one.wait, &two.wait, sizeof(double)) == 0,
        w + ": the modeled time and wait are the same bits for 1 and 2 host threads");
  check(one.total >= one.alone, w + ": modeled with the waits (" + std::to_string(one.total) + ") >= alone (" + std::to_string(one.alone) + ")");
  check((one.wait > 0) == (one.summary.find("waiting  for peers") != std::string::npos), w + ": the summary's waiting entry");
  if (g_size == 1) check(one.total == one.alone && one.wait == 0, w + ": one rank has nothing to wait for");
  double v[3] = {one.total, one.alone, one.wait}, slowest[3] = {0, 0, 0};
  MPI_Allreduce(v, slowest, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  check(slowest[0] >= slowest[1], w + ": the slowest rank with the waits >= the slowest alone");
  if (g_rank == 0)
    std::printf("%s on %d rank(s): slowest rank %.3f us with the waits, %.3f us alone; the longest wait %.3f us\n", name, g_size,
                slowest[0] * 1e-3, slowest[1] * 1e-3, slowest[2] * 1e-3);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  broadcast_after_root_work();
  allgather_after_uneven_work();
  int nprow = 1, npcol = 1;
  grid_shape(g_size, &nprow, &npcol);
  trn::blasmp::Grid g;
  trn::blasmp::grid_create(g, nprow, npcol, trn::blasmp::GridLayout::col_major, MPI_COMM_WORLD);
  check_routine("trnblasMp gemm 128^2", [&](int th) { return run_gemm(g, th); });
  check_routine("trnsolverMp potrf 96^2", [&](int th) { return run_potrf(g, th); });
  check_routine("trnsolverMp getrf 96^2", [&](int th) { return run_getrf(g, th); });
  check_routine("trnfftMp slab c2c 16x16x8", [&](int th) { return run_fft(th); });
  trn::blasmp::grid_destroy(g);
  int total = 0;
  MPI_Allreduce(&g_failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (g_rank == 0) std::printf("%s: %d failure(s) over %d rank(s)\n", total == 0 ? "PASSED" : "FAILED", total, g_size);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
