// trnsolverMp plans (trn/solvermp/plan.hpp; docs/scale-out.md section 6.4): the drivers' step sequence
// priced part by part for process (0, 0).
#include "trn/solvermp/plan.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "local.hpp"
#include "trn/blasmp/blasmp.hpp"
#include "trn/core/cost_model.hpp"
#include "trn/core/fabric.hpp"
#include "trn/solver/solver.hpp"

namespace trn::solvermp {

namespace {

using blasmp::numroc;

// trnblas's fp32 GEMM prediction of m x n x k on the device (beyond 2048 in a dimension: at 2048,
// scaled by the flop ratio), cached per shape.
double gemm_ns(const blas::Settings& dev, std::int64_t m, std::int64_t n, std::int64_t k) {
  if (m <= 0 || n <= 0 || k <= 0) return 0;
  constexpr std::int64_t kCap = 2048;
  const std::int64_t mm = std::min(m, kCap), nn = std::min(n, kCap), kk = std::min(k, kCap);
  static std::mutex mu;
  static std::map<std::tuple<int, std::int64_t, std::int64_t, std::int64_t>, double> cache;
  const auto key = std::make_tuple(static_cast<int>(dev.target), mm, nn, kk);
  double t = 0;
  {
    const std::lock_guard<std::mutex> lock(mu);
    if (const auto it = cache.find(key); it != cache.end()) t = it->second;
  }
  if (t == 0) {
    t = blas::predict_gemm_ns(dev, blas::GemmMode::fp32, blas::Op::N, blas::Op::N, mm, nn, kk, 1.0f, 1.0f);
    const std::lock_guard<std::mutex> lock(mu);
    cache[key] = t;
  }
  return t * (static_cast<double>(m) / mm) * (static_cast<double>(n) / nn) * (static_cast<double>(k) / kk);
}

// trnsolver's spotrf of a kb x kb SPD block (potrf's diagonal step) or sgetrf of a rows x kb panel
// (getrf's panel, run at min(rows, 512) rows and scaled linearly in the rows): modeled, cached.
double panel_kernel_ns(const blas::Settings& dev, bool lu, std::int64_t rows, std::int64_t kb) {
  if (rows <= 0 || kb <= 0) return 0;
  constexpr std::int64_t kRows = 512;
  const std::int64_t r = lu ? std::min(rows, kRows) : kb;
  static std::mutex mu;
  static std::map<std::tuple<int, bool, std::int64_t, std::int64_t>, double> cache;
  const auto key = std::make_tuple(static_cast<int>(dev.target), lu, r, kb);
  double t = 0;
  {
    const std::lock_guard<std::mutex> lock(mu);
    if (const auto it = cache.find(key); it != cache.end()) t = it->second;
  }
  if (t == 0) {
    std::vector<float> a(static_cast<std::size_t>(r * kb));
    for (std::int64_t j = 0; j < kb; ++j)
      for (std::int64_t i = 0; i < r; ++i) a[static_cast<std::size_t>(i + j * r)] = i == j ? 2.0f * static_cast<float>(kb) : 1.0f / static_cast<float>(1 + i + j);
    solver::Settings ss;
    static_cast<EmulatorSettings&>(ss) = static_cast<const EmulatorSettings&>(dev);
    solver::CallReport rep;
    std::vector<int> ipiv(static_cast<std::size_t>(kb));
    if (lu)
      solver::sgetrf(ss, r, kb, a.data(), r, ipiv.data(), &rep);
    else
      solver::spotrf(ss, blas::Uplo::lower, kb, a.data(), kb, &rep);
    t = std::max(rep.profile.total_ns, 1e-9);
    const std::lock_guard<std::mutex> lock(mu);
    cache[key] = t;
  }
  return lu ? t * static_cast<double>(rows) / static_cast<double>(r) : t;
}

// Where one step works on process (0, 0): the block column's rows from r0, my local rows below r0 / r1
// and my local columns from r1 (the trailing block).
struct Step {
  std::int64_t r0, kb, r1, rows_below, m_loc, m_trail, n_trail;
  bool my_row, my_col;  // process (0, 0) is in block row / block column i's process row / column
};

Step step_of(const FactorPlan& p, std::int64_t i) {
  Step s{};
  s.r0 = i * p.nb;
  s.kb = std::min(p.nb, std::min(p.m, p.n) - s.r0);
  s.r1 = s.r0 + s.kb;
  s.m_loc = numroc(p.m, p.nb, 0, 0, p.nprow);
  s.rows_below = s.m_loc - numroc(s.r0, p.nb, 0, 0, p.nprow);
  s.m_trail = s.m_loc - numroc(s.r1, p.nb, 0, 0, p.nprow);
  s.n_trail = numroc(p.n, p.nb, 0, 0, p.npcol) - numroc(s.r1, p.nb, 0, 0, p.npcol);
  s.my_row = i % p.nprow == 0, s.my_col = i % p.npcol == 0;
  return s;
}

// The parts of one step: the panel kernel, the updates (TRSMs, GEMMs), the messages (count, bytes, time).
struct StepCost {
  double panel = 0, update = 0, link = 0, bytes = 0;
  int messages = 0;
  void message(double ns, double b) { link += ns, bytes += b, ++messages; }
};

StepCost potrf_step(const FactorPlan& p, const blas::Settings& dev, const Step& s, const RankSet& all, const RankSet& row,
                    const RankSet& col, double es) {
  const FabricSpec& f = fabric_spec(p.target);
  StepCost c;
  if (s.my_row && s.my_col) c.panel = panel_kernel_ns(dev, false, s.kb, s.kb);  // the owner of block (i, i)
  c.message(broadcast_ns(f, all, 4), 4);                                    // info
  if (s.my_col) {  // process column of i: L_ii down the column, the panel TRSM (as its GEMM)
    c.message(broadcast_ns(f, col, s.kb * s.kb * es), s.kb * s.kb * es);
    c.update = gemm_ns(dev, s.m_loc - numroc(s.r1, p.nb, 0, 0, p.nprow), s.kb, s.kb);
  }
  c.message(broadcast_ns(f, row, s.m_loc * s.kb * es), s.m_loc * s.kb * es);  // the panel along the row
  c.message(allgather_ns(f, col, s.n_trail * s.kb * es), s.n_trail * s.kb * es);  // its transpose
  c.update += gemm_ns(dev, s.m_trail, s.n_trail, s.kb);
  return c;
}

StepCost getrf_step(const FactorPlan& p, const blas::Settings& dev, const Step& s, const RankSet& row, const RankSet& col,
                    double es) {
  const FabricSpec& f = fabric_spec(p.target);
  const std::int64_t rows = p.m - s.r0, n_loc = numroc(p.n, p.nb, 0, 0, p.npcol);
  StepCost c;
  if (s.my_col) {  // process column of i: the panel gathered onto it and factored there
    c.message(allgather_ns(f, col, rows * s.kb * es), rows * s.kb * es);
    c.panel = panel_kernel_ns(dev, true, rows, s.kb);
  }
  c.message(broadcast_ns(f, row, 8.0 * (s.kb + 1)), 8.0 * (s.kb + 1));     // pivots and info
  c.message(allgather_ns(f, col, s.kb * n_loc * es), s.kb * n_loc * es);  // the interchange (priced as an allgather)
  if (s.my_row) {  // process row of i: L11 along the row, U12 = L11^-1 A12 (as its GEMM)
    c.message(broadcast_ns(f, row, s.kb * s.kb * es), s.kb * s.kb * es);
    c.update = gemm_ns(dev, s.kb, s.n_trail, s.kb);
  }
  c.message(broadcast_ns(f, col, s.kb * s.n_trail * es), s.kb * s.n_trail * es);  // U12 down the column
  c.message(broadcast_ns(f, row, s.m_trail * s.kb * es), s.m_trail * s.kb * es);  // L21 along the row
  c.update += gemm_ns(dev, s.m_trail, s.n_trail, s.kb);
  return c;
}

StepCost geqrf_step(const FactorPlan& p, const blas::Settings& dev, const Step& s, const RankSet& row, const RankSet& col,
                    double es) {
  const FabricSpec& f = fabric_spec(p.target);
  const std::int64_t rows = p.m - s.r0;
  StepCost c;
  if (s.my_col) {  // process column of i: the panel gathered and factored (a host step)
    c.message(allgather_ns(f, col, rows * s.kb * es), rows * s.kb * es);
    const double host_bytes = 2.0 * static_cast<double>(rows * s.kb) * es;  // the panel to the host and back
    c.panel = host_step_ns(host_bytes, 3.0 * static_cast<double>(rows) * s.kb * s.kb, hardware_spec(p.target));
  }
  if (s.r1 >= p.n) return c;
  c.message(broadcast_ns(f, row, (s.rows_below + s.kb) * s.kb * es), (s.rows_below + s.kb) * s.kb * es);  // V and T
  c.update = gemm_ns(dev, s.kb, s.n_trail, s.rows_below);                 // V^H A
  c.message(allgather_ns(f, col, p.nprow * s.kb * s.n_trail * es), p.nprow * s.kb * s.n_trail * es);  // column sum
  c.update += gemm_ns(dev, s.kb, s.n_trail, s.kb) + gemm_ns(dev, s.rows_below, s.n_trail, s.kb);  // T^H W, V W2
  return c;
}

// Syevd's column k (syevd.cpp's tridiagonalize) on process (0, 0): column k gathered on its process
// column and broadcast along the row, the reflector (xLARFG + xLARFT, a host step) and w (a host step),
// y = W22 v and the rank-2 update as the GEMMs of this rank's trailing block, the ordered row sum, y
// gathered along the column.
StepCost syevd_column(const FactorPlan& p, const blas::Settings& dev, std::int64_t k, const RankSet& row, const RankSet& col,
                      double es) {
  const FabricSpec& f = fabric_spec(p.target);
  const HardwareSpec& hw = hardware_spec(p.target);
  const std::int64_t len = p.n - k, mp = len - 1, r0 = k + 1;
  const std::int64_t mr = numroc(p.n, p.nb, 0, 0, p.nprow) - numroc(r0, p.nb, 0, 0, p.nprow);
  const std::int64_t nc = numroc(p.n, p.nb, 0, 0, p.npcol) - numroc(r0, p.nb, 0, 0, p.npcol);
  const double ops = p.complex ? 4.0 : 1.0;
  StepCost c;
  if ((k / p.nb) % p.npcol == 0) c.message(allgather_ns(f, col, len * es), len * es);
  c.message(broadcast_ns(f, row, len * es), len * es);
  c.panel = host_step_ns(2.0 * mp * es, ops * 4.0 * mp, hw) + host_step_ns(3.0 * mp * es, ops * 6.0 * mp, hw);
  c.update = gemm_ns(dev, mr, 1, nc) + gemm_ns(dev, mr, nc, 2);
  if (p.npcol > 1) c.message(allgather_ns(f, row, p.npcol * mr * es), p.npcol * mr * es);
  c.message(allgather_ns(f, col, mp * es), mp * es);
  return c;
}

// The replicated divide and conquer of order n (every rank): the merges' eigenvector products as (4/3)
// n^3 multiply-adds of GEMM (no deflation: an upper bound) and the secular equations as 20 n^2 host flops.
double stedc_ns(const FactorPlan& p, const blas::Settings& dev) {
  const double n = static_cast<double>(p.n);
  return 4.0 / 3.0 * gemm_ns(dev, p.n, p.n, p.n) + host_step_ns(8.0 * n * n, 20.0 * n * n, hardware_spec(p.target));
}

// Block i of the back-transformation Z = Q V (Ormqr over all n columns of Z): the block's reflectors
// gathered on their process column and T rebuilt there (xLARFT, a host step), V and T along the row,
// V^H Z, its column sum, T W and Z -= V W2.
StepCost back_transform_block(const FactorPlan& p, const blas::Settings& dev, const Step& s, const RankSet& row, const RankSet& col,
                              double es) {
  const FabricSpec& f = fabric_spec(p.target);
  const std::int64_t rows = p.n - s.r0, n_loc = numroc(p.n, p.nb, 0, 0, p.npcol);
  StepCost c;
  if (s.my_col) {
    c.message(allgather_ns(f, col, rows * s.kb * es), rows * s.kb * es);
    c.panel = host_step_ns(2.0 * static_cast<double>(rows * s.kb) * es, static_cast<double>(rows) * s.kb * s.kb, hardware_spec(p.target));
  }
  c.message(broadcast_ns(f, row, (s.rows_below + s.kb) * s.kb * es), (s.rows_below + s.kb) * s.kb * es);
  c.update = gemm_ns(dev, s.kb, n_loc, s.rows_below);
  if (p.nprow > 1) c.message(allgather_ns(f, col, p.nprow * s.kb * n_loc * es), p.nprow * s.kb * n_loc * es);
  c.update += gemm_ns(dev, s.kb, n_loc, s.kb) + gemm_ns(dev, s.rows_below, n_loc, s.kb);
  return c;
}

// Block i of one of Sygvd's n x n trnblasMp TRSMs (level3mp.cpp's trsm_step, lower): A's panel along the
// row, the diagonal solve (as its GEMM) on block row i's process row, X down the column, the update GEMM.
StepCost trsm_block(const FactorPlan& p, const blas::Settings& dev, const Step& s, const RankSet& row, const RankSet& col,
                    double es) {
  const FabricSpec& f = fabric_spec(p.target);
  const std::int64_t n_loc = numroc(p.n, p.nb, 0, 0, p.npcol);
  StepCost c;
  c.message(broadcast_ns(f, row, s.m_loc * s.kb * es), s.m_loc * s.kb * es);
  if (s.my_row) c.update = gemm_ns(dev, s.kb, n_loc, s.kb);
  c.message(broadcast_ns(f, col, s.kb * n_loc * es), s.kb * n_loc * es);
  c.update += gemm_ns(dev, s.m_trail, n_loc, s.kb);
  return c;
}

void add(FactorPlan& p, const StepCost& c) {
  p.panel_ns += c.panel, p.update_ns += c.update, p.link_ns += c.link, p.message_bytes += c.bytes, p.messages += c.messages;
}

// Syevd's (and Sygvd's) steps after the exchange, summed into p: see plan.hpp.
void plan_eig(FactorPlan& p, const blas::Settings& dev, const RankSet& all, const RankSet& row, const RankSet& col, double es) {
  const FabricSpec& f = fabric_spec(p.target);
  const std::int64_t blocks = p.nb > 0 ? (p.n + p.nb - 1) / p.nb : 0;
  const double local = static_cast<double>(numroc(p.n, p.nb, 0, 0, p.nprow) * numroc(p.n, p.nb, 0, 0, p.npcol)) * es;
  const int redistributions = p.kind == FactorKind::sygvd ? 5 : 1;  // the working copies' A^T (+ Sygvd's four)
  for (int r = 0; r < redistributions; ++r) {
    StepCost c;
    c.message(blasmp::detail::alltoall_ns(f, all, local, local), local);
    add(p, c);
  }
  if (p.kind == FactorKind::sygvd)
    for (std::int64_t i = 0; i < blocks; ++i) add(p, potrf_step(p, dev, step_of(p, i), all, row, col, es));
  for (int t = 0; p.kind == FactorKind::sygvd && t < 2; ++t)  // C = L^-1 A L^-H
    for (std::int64_t i = 0; i < blocks; ++i) add(p, trsm_block(p, dev, step_of(p, i), row, col, es));
  for (std::int64_t k = 0; k + 1 < p.n; ++k) add(p, syevd_column(p, dev, k, row, col, es));
  p.stedc_ns = stedc_ns(p, dev);
  p.update_ns += p.stedc_ns;
  for (std::int64_t i = 0; i < blocks; ++i) add(p, back_transform_block(p, dev, step_of(p, i), row, col, es));
  for (std::int64_t i = 0; p.kind == FactorKind::sygvd && i < blocks; ++i)  // Z = L^-H V
    add(p, trsm_block(p, dev, step_of(p, i), row, col, es));
  p.steps = (p.n > 0 ? p.n - 1 : 0) + blocks * (p.kind == FactorKind::sygvd ? 5 : 1);
}

const char* kind_name(FactorKind k) {
  switch (k) {
    case FactorKind::potrf: return "potrf";
    case FactorKind::getrf: return "getrf";
    case FactorKind::geqrf: return "geqrf";
    case FactorKind::syevd: return "syevd";
    default: return "sygvd";
  }
}

}  // namespace

FactorPlan plan_factor(const blas::Settings& s, FactorKind kind, int nprow, int npcol, std::int64_t m, std::int64_t n,
                       std::int64_t nb, bool fp64, bool complex) {
  FactorPlan p;
  const bool eig = kind == FactorKind::syevd || kind == FactorKind::sygvd;
  p.kind = kind, p.m = kind == FactorKind::potrf || eig ? n : m, p.n = n, p.nb = nb, p.nprow = nprow, p.npcol = npcol;
  p.target = s.target, p.fp64 = fp64, p.complex = complex;
  const std::int64_t kmin = std::min(p.m, p.n);
  p.steps = nb > 0 ? (kmin + nb - 1) / nb : 0;
  blasmp::Grid g;  // process (0, 0) of the shape: no communicator
  g.nprow = nprow, g.npcol = npcol;
  const RankSet all{0, 1, nprow * npcol}, row = g.row_set(), col = g.col_set();
  const double es = (fp64 ? 8.0 : 4.0) * (complex ? 2.0 : 1.0);
  const blas::Settings dev = blasmp::device_settings(s);
  p.link_ns = small_allreduce_ns(fabric_spec(s.target), all);  // the argument exchange
  p.messages = 1;
  if (eig) plan_eig(p, dev, all, row, col, es);
  for (std::int64_t i = 0; !eig && i < p.steps; ++i) {
    const Step st = step_of(p, i);
    const StepCost c = kind == FactorKind::potrf   ? potrf_step(p, dev, st, all, row, col, es)
                       : kind == FactorKind::getrf ? getrf_step(p, dev, st, row, col, es)
                                                   : geqrf_step(p, dev, st, row, col, es);
    p.panel_ns += c.panel, p.update_ns += c.update, p.link_ns += c.link, p.message_bytes += c.bytes, p.messages += c.messages;
  }
  if (fp64 || complex) p.panel_ns = p.update_ns = -1;  // Ozaki / 4M work: not predicted
  p.predicted_ns = p.compute_ns() < 0 ? -1.0 : p.compute_ns() + p.link_ns;
  const double M = static_cast<double>(p.m), N = static_cast<double>(p.n);
  const double n3 = N * N * N, eig_flops = 4.0 / 3.0 * n3 + 2.0 * n3;  // xSYTRD + xORMTR (stedc's merges not counted)
  p.flops = kind == FactorKind::potrf   ? n3 / 3.0
            : kind == FactorKind::getrf ? M * N * N - n3 / 3.0
            : kind == FactorKind::geqrf ? 2.0 * M * N * N - 2.0 * n3 / 3.0  // LAPACK's counts (m >= n)
            : kind == FactorKind::syevd ? eig_flops
                                        : eig_flops + n3 / 3.0 + n3 + n3;  // + xPOTRF, xSYGST, Z = L^-T V
  const HardwareSpec& hw = hardware_spec(s.target);
  const double peak = hw.tensor_peak_flops() * 1e-9 / (fp64 ? 1.0 : hw.matmul_fp32_passes) * hw.cores_per_device;
  p.roofline_ns = std::max(p.flops / (nprow * npcol) / peak, p.link_ns);
  return p;
}

std::string FactorPlan::print() const {
  const FabricSpec& f = fabric_spec(target);
  char comp[128] = "not predicted (fp64 / complex)", pred[48] = "not predicted";
  if (compute_ns() >= 0) std::snprintf(comp, sizeof comp, "%.3f us (panels %.3f, updates %.3f)", compute_ns() * 1e-3, panel_ns * 1e-3, update_ns * 1e-3);
  if (predicted_ns >= 0) std::snprintf(pred, sizeof pred, "%.3f us", predicted_ns * 1e-3);
  char buf[768];
  std::snprintf(buf, sizeof buf,
                "trnsolverMp %s plan %lldx%lld %s%s on %dx%d %s devices (%.*s): blocks %lld, %lld steps in sequence (no "
                "look-ahead), process (0,0): %lld messages, %.3f MB received, link %.3f us; compute %s; predicted %s "
                "(link share %.1f%%); roofline bound %.3f us (its share of %.3g flop at the TensorE peak, or the link)",
                kind_name(kind), static_cast<long long>(m), static_cast<long long>(n), complex ? "complex " : "",
                fp64 ? "fp64" : "fp32", nprow, npcol, std::string(hardware_spec(target).name).c_str(),
                static_cast<int>(f.link.size()), f.link.data(), static_cast<long long>(nb), static_cast<long long>(steps),
                static_cast<long long>(messages), message_bytes * 1e-6, link_ns * 1e-3, comp, pred,
                predicted_ns > 0 ? 100.0 * link_ns / predicted_ns : 0.0, roofline_ns * 1e-3, flops);
  std::string out = buf;
  if (stedc_ns > 0 && compute_ns() >= 0) {  // Syevd / Sygvd: what the replicated tridiagonal stage takes
    char eig[160];
    std::snprintf(eig, sizeof eig, "; of the compute, the replicated stedc (every rank, no deflation assumed) %.3f us", stedc_ns * 1e-3);
    out += eig;
  }
  return out;
}

}  // namespace trn::solvermp
