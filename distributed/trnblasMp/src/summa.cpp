// trnblasMp GEMM: SUMMA over trnblas's tile kernels (blasmp.hpp; docs/scale-out.md "SUMMA").
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "exchange.hpp"
#include "trn/blasmp/blasmp.hpp"
#include "trn/core/error.hpp"
#include "trn/core/link_step.hpp"
#include "trn/core/report.hpp"

namespace trn::blasmp {

namespace {

std::int64_t panel_depth(std::int64_t k, std::int64_t kblock) {
  if (k <= kMaxPanelK) return k;
  return std::max(kblock, (kMaxPanelK / kblock) * kblock);
}

// trnblas's modeled time of one local panel GEMM (beta = 0 skips reading C; any other beta costs
// the same as 1). Shapes beyond 2048 in a dimension are predicted
// at 2048 and scaled by the flop ratio (the predictor runs the kernel timing-only; 65536-wide shapes
// would take minutes of host time); cached per shape.
double predict_panel_ns(const blas::Settings& s, blas::GemmMode mode, std::int64_t m, std::int64_t n, std::int64_t k,
                        float beta) {
  if (m <= 0 || n <= 0 || k <= 0) return 0;
  constexpr std::int64_t kCap = 2048;
  const std::int64_t mm = std::min(m, kCap), nn = std::min(n, kCap), kk = std::min(k, kCap);
  static std::mutex mu;
  static std::map<std::tuple<int, int, std::int64_t, std::int64_t, std::int64_t, bool>, double> cache;
  const auto key = std::make_tuple(static_cast<int>(s.target), static_cast<int>(mode), mm, nn, kk, beta == 0.0f);
  double t = 0;
  {
    const std::lock_guard<std::mutex> lock(mu);
    const auto it = cache.find(key);
    if (it != cache.end()) t = it->second;
  }
  if (t == 0) {
    t = blas::predict_gemm_ns(s, mode, blas::Op::N, blas::Op::N, mm, nn, kk, 1.0f, beta == 0.0f ? 0.0f : 1.0f);
    const std::lock_guard<std::mutex> lock(mu);
    cache[key] = t;
  }
  return t * (static_cast<double>(m) / mm) * (static_cast<double>(n) / nn) * (static_cast<double>(k) / kk);
}

const char* mode_label(const SummaPlan& p) { return p.fp64 ? "fp64 (Ozaki)" : blas::gemm_mode_name(p.mode); }

}  // namespace

blas::Settings device_settings(blas::Settings s) {
  s.num_cores = hardware_spec(s.target).cores_per_device;
  return s;
}

SummaPlan plan_gemm(const blas::Settings& s, const Grid& g, blas::GemmMode mode, bool fp64, std::int64_t m,
                    std::int64_t n, std::int64_t k, std::int64_t mb, std::int64_t nb, std::int64_t kblock,
                    double beta) {
  SummaPlan p;
  p.m = m, p.n = n, p.k = k, p.nprow = g.nprow, p.npcol = g.npcol, p.target = s.target, p.mode = mode, p.fp64 = fp64;
  p.elem_bytes = fp64 ? 8 : 4;
  p.kb = k > 0 ? panel_depth(k, kblock) : 0;
  p.panels = p.kb > 0 ? (k + p.kb - 1) / p.kb : 0;
  p.m_loc = numroc(m, mb, g.myrow, 0, g.nprow);
  p.n_loc = numroc(n, nb, g.mycol, 0, g.npcol);
  const FabricSpec& f = fabric_spec(s.target);
  const auto es = static_cast<double>(p.elem_bytes);
  p.exchange_ns = small_allreduce_ns(f, RankSet{0, 1, g.nprow * g.npcol});
  // Per panel (full depth, and the last one's) link and GEMM times; the pipeline recurrence.
  auto link_ns = [&](std::int64_t kp) {
    return allgather_ns(f, g.row_set(), static_cast<double>(p.m_loc * kp) * es) +
           allgather_ns(f, g.col_set(), static_cast<double>(kp * p.n_loc) * es);
  };
  const blas::Settings dev = device_settings(s);
  auto gemm_ns = [&](std::int64_t kp, bool first) {
    return fp64 ? -1.0 : predict_panel_ns(dev, mode, p.m_loc, p.n_loc, kp, first ? static_cast<float>(beta) : 1.0f);
  };
  p.a_panel_bytes = static_cast<double>(p.m_loc * p.kb) * es;
  p.b_panel_bytes = static_cast<double>(p.kb * p.n_loc) * es;
  p.link_ns_per_panel = link_ns(p.kb);
  p.gemm_ns_per_panel = gemm_ns(p.kb, false);
  p.link_ns_total = p.exchange_ns;
  p.gemm_ns_total = fp64 ? -1.0 : 0.0;
  const std::int64_t k_last = p.panels > 0 ? k - (p.panels - 1) * p.kb : 0;
  double link_end = p.exchange_ns, gemm_end = 0, gemm_end_prev = 0;
  for (std::int64_t q = 0; q < p.panels; ++q) {
    const std::int64_t kp = q == p.panels - 1 ? k_last : p.kb;
    const double L = kp == p.kb ? p.link_ns_per_panel : link_ns(kp);
    const double G = std::max(0.0, gemm_ns(kp, q == 0));
    p.link_ns_total += L;
    if (!fp64) p.gemm_ns_total += G;
    // Panel q's transfers reuse buffer q % 2: they wait for panel q - 2's GEMM (write after read).
    const double link_start = std::max(link_end, gemm_end_prev);
    link_end = link_start + L;
    gemm_end_prev = gemm_end;
    gemm_end = std::max(gemm_end, link_end) + G;
  }
  p.predicted_ns = std::max(gemm_end, link_end);
  const HardwareSpec& hw = hardware_spec(s.target);
  const double passes = (!fp64 && mode == blas::GemmMode::fp32) ? hw.matmul_fp32_passes : 1.0;
  const double peak = hw.tensor_peak_flops() * 1e-9 / passes * hw.cores_per_device;  // flop/ns of the device
  const double flops = 2.0 * static_cast<double>(p.m_loc) * static_cast<double>(p.n_loc) * static_cast<double>(k);
  p.roofline_ns = std::max(flops / peak, p.link_ns());
  p.why = p.panels <= 1 ? "k <= " + std::to_string(kMaxPanelK) + ": one panel, trnblas's own K order (single-device bits)"
                        : "k > " + std::to_string(kMaxPanelK) + ": panels of " + std::to_string(p.kb) +
                              " (a multiple of the K block), double-buffered so panel q+1's allgathers overlap panel q's GEMM";
  return p;
}

std::string SummaPlan::print() const {
  const FabricSpec& f = fabric_spec(target);
  char buf[768];
  const double comm = link_ns(), comp = compute_ns();
  char gemm_text[64] = "not predicted (fp64: data-dependent Ozaki work)", total_text[32] = "not predicted";
  if (gemm_ns_per_panel >= 0) std::snprintf(gemm_text, sizeof gemm_text, "%.3f us", gemm_ns_per_panel * 1e-3);
  if (comp >= 0) std::snprintf(total_text, sizeof total_text, "%.3f us", comp * 1e-3);
  std::snprintf(buf, sizeof buf,
                "trnblasMp gemm plan %lldx%lldx%lld %s on %dx%d %s devices (%s, %.*s, %.*s): SUMMA, kb %lld (%lld panel%s), "
                "per panel allgather A %.3f MB along the row + B %.3f MB along the column = %.3f us, local GEMM %lldx%lldx%lld "
                "%s; predicted %.3f us (link %.3f us, compute %s, link share %.1f%%); roofline bound %.3f us; why: %s",
                static_cast<long long>(m), static_cast<long long>(n), static_cast<long long>(k), mode_label(*this), nprow,
                npcol, std::string(hardware_spec(target).name).c_str(), std::string(f.instance).c_str(),
                static_cast<int>(f.link.size()), f.link.data(), static_cast<int>(f.topology.size()), f.topology.data(),
                static_cast<long long>(kb), static_cast<long long>(panels), panels == 1 ? "" : "s", a_panel_bytes * 1e-6,
                b_panel_bytes * 1e-6, link_ns_per_panel * 1e-3, static_cast<long long>(m_loc), static_cast<long long>(n_loc),
                static_cast<long long>(kb), gemm_text, predicted_ns * 1e-3, comm * 1e-3, total_text,
                predicted_ns > 0 ? 100.0 * comm / (comm + std::max(comp, 0.0)) : 0.0, roofline_ns * 1e-3, why.c_str());
  return buf;
}

std::size_t gemm_workspace_bytes(const Descriptor& a, const Descriptor& b, const Descriptor& c, std::int64_t k) {
  (void)b;
  const std::int64_t es = c.type == TRN_R_64F ? 8 : 4;
  const std::int64_t kb = k > 0 ? panel_depth(k, a.nb) : 0;
  return static_cast<std::size_t>(2 * es * kb * (c.local_rows() + c.local_cols()));
}

namespace {

// How slices (columns of A's panel, rows of B's) lie in a buffer, in elements.
struct SliceLayout {
  const char* base;
  std::int64_t slice_stride, elem_stride;
};

// One panel's allgather along a process row (A: slices are columns) or column (B: rows): process q
// of `comm` owns the K indices of blocks (src + j) % nprocs == q; each contributes its slices of
// [k0, k1) (contiguous in its local storage), and every rank assembles them in global K order into
// `panel` (slice g - k0 at panel + (g - k0) * out.slice_stride). Records the transfer as one
// link_transfer on `trace`.
struct PanelGather {
  MPI_Comm comm;
  RankSet set;
  int nprocs, me;
  std::int64_t block, src, len;  // K block, source process, elements per slice
  std::size_t es;
};

void gather_panel(const PanelGather& pg, std::int64_t k0, std::int64_t k1, SliceLayout local, char* panel,
                  std::int64_t out_slice, std::int64_t out_elem, const char* name, Generation target, Trace& trace) {
  const auto es = static_cast<std::int64_t>(pg.es);
  std::vector<int> counts(static_cast<std::size_t>(pg.nprocs)), displs(static_cast<std::size_t>(pg.nprocs));
  std::int64_t total = 0;
  for (int q = 0; q < pg.nprocs; ++q) {
    const std::int64_t cnt = numroc(k1, pg.block, q, pg.src, pg.nprocs) - numroc(k0, pg.block, q, pg.src, pg.nprocs);
    const std::int64_t bytes = cnt * pg.len * es;
    if (bytes > INT_MAX || total + bytes > INT_MAX) throw NotSupportedError("trnblasMp gemm", "a panel message over 2 GiB (split the K panels)", "any");
    counts[static_cast<std::size_t>(q)] = static_cast<int>(bytes);
    displs[static_cast<std::size_t>(q)] = static_cast<int>(total);
    total += bytes;
  }
  const std::int64_t lo = numroc(k0, pg.block, pg.me, pg.src, pg.nprocs);
  const std::int64_t mine = numroc(k1, pg.block, pg.me, pg.src, pg.nprocs) - lo;
  std::vector<char> send(static_cast<std::size_t>(mine * pg.len * es)), recv(static_cast<std::size_t>(total));
  for (std::int64_t i = 0; i < mine; ++i)
    for (std::int64_t e = 0; e < pg.len; ++e)
      std::memcpy(&send[static_cast<std::size_t>((i * pg.len + e) * es)],
                  local.base + ((lo + i) * local.slice_stride + e * local.elem_stride) * es, pg.es);
  detail::check_mpi(MPI_Allgatherv(send.data(), static_cast<int>(send.size()), MPI_BYTE, recv.data(), counts.data(),
                                   displs.data(), MPI_BYTE, pg.comm),
                    "MPI_Allgatherv");
  for (std::int64_t g = k0; g < k1; ++g) {
    const std::int64_t owner = (pg.src + g / pg.block) % pg.nprocs;
    const std::int64_t pos = numroc(g, pg.block, owner, pg.src, pg.nprocs) - numroc(k0, pg.block, owner, pg.src, pg.nprocs);
    const char* from = &recv[static_cast<std::size_t>(displs[static_cast<std::size_t>(owner)] + pos * pg.len * es)];
    for (std::int64_t e = 0; e < pg.len; ++e)
      std::memcpy(panel + ((g - k0) * out_slice + e * out_elem) * es, from + e * es, pg.es);
  }
  LinkTransfer t;
  t.name = name;
  t.ns = allgather_ns(fabric_spec(target), pg.set, static_cast<double>(total));
  if (mine > 0 && pg.len > 0) {
    t.sends[0].data = local.base + lo * local.slice_stride * es;
    t.sends[0].hull = static_cast<std::size_t>(((mine - 1) * local.slice_stride + (pg.len - 1) * local.elem_stride + 1) * es);
    t.sends[0].bytes = static_cast<std::size_t>(mine * pg.len * es);
  }
  if (total > 0) {
    t.receives[0].data = panel;
    t.receives[0].hull = t.receives[0].bytes = static_cast<std::size_t>((k1 - k0) * pg.len * es);
  }
  record_link_transfer(trace, t);
}

}  // namespace

std::string gemm_mismatch(const GemmArgs& x) {
  if (x.desc_a == nullptr || x.desc_b == nullptr || x.desc_c == nullptr) return "a descriptor is NULL";
  const Descriptor &a = *x.desc_a, &b = *x.desc_b, &c = *x.desc_c;
  if (a.grid == nullptr || a.grid != b.grid || a.grid != c.grid) return "A, B and C must be on one grid";
  const trnDataType_t t = x.fp64 ? TRN_R_64F : TRN_R_32F;
  if (a.type != t || b.type != t || c.type != t) return "the descriptors' types do not match the compute type";
  if (a.m != x.m || a.n != x.k || b.m != x.k || b.n != x.n || c.m != x.m || c.n != x.n)
    return "the descriptors' sizes do not match m, n, k";
  if (a.mb != c.mb || a.rsrc != c.rsrc) return "A's row blocks must be C's (mb, rsrc)";
  if (b.nb != c.nb || b.csrc != c.csrc) return "B's column blocks must be C's (nb, csrc)";
  if (a.nb != b.mb) return "A's column block must be B's row block (the K block)";
  const std::size_t need = gemm_workspace_bytes(a, b, c, x.k);
  if (x.work_bytes < need || (need > 0 && x.work == nullptr)) return "the workspace is smaller than gemm_bufferSize's";
  return {};
}

void gemm(const blas::Settings& s0, const GemmArgs& x, blas::CallReport* report) {
  if (const std::string why = gemm_mismatch(x); !why.empty()) throw UsageError("trnblasMp gemm: " + why);
  const Descriptor &da = *x.desc_a, &db = *x.desc_b, &dc = *x.desc_c;
  const Grid& g = *dc.grid;
  const blas::Settings s = device_settings(s0);
  blas::Settings st = s;
  st.report_trace_only = true;  // the rank's trace is modeled once, with its link records
  const std::size_t es = x.fp64 ? 8 : 4;
  const std::int64_t m_loc = dc.local_rows(), n_loc = dc.local_cols();
  const SummaPlan plan = plan_gemm(s, g, x.mode, x.fp64, x.m, x.n, x.k, dc.mb, dc.nb, da.nb, x.beta);
  Trace trace;
  LinkTransfer exchange;  // the argument exchange the C API makes first (a small allreduce)
  exchange.name = "trnblasMp.gemm.exchange";
  exchange.ns = plan.exchange_ns;
  record_link_transfer(trace, exchange);
  auto local_gemm = [&](std::int64_t kp, const char* ap, const char* bp, double beta) {
    if (m_loc == 0 || n_loc == 0) return;
    blas::CallReport r;
    if (x.fp64)
      blas::dgemm(st, blas::Op::N, blas::Op::N, m_loc, n_loc, kp, x.alpha, reinterpret_cast<const double*>(ap), m_loc,
                  reinterpret_cast<const double*>(bp), std::max<std::int64_t>(kp, 1), beta, static_cast<double*>(x.c),
                  dc.lld, &r);
    else
      blas::gemm(st, x.mode, blas::Op::N, blas::Op::N, m_loc, n_loc, kp, static_cast<float>(x.alpha),
                 {ap, DType::f32, m_loc}, {bp, DType::f32, std::max<std::int64_t>(kp, 1)}, static_cast<float>(beta),
                 {x.c, DType::f32, dc.lld}, &r);
    trace.append(std::move(r.trace));
  };
  if (plan.panels == 0) local_gemm(0, nullptr, nullptr, x.beta);  // k == 0: C = beta C, no messages
  char* work = static_cast<char*>(x.work);
  const auto panel_a = static_cast<std::size_t>(m_loc * plan.kb) * es, panel_b = static_cast<std::size_t>(plan.kb * n_loc) * es;
  char* a_buf[2] = {work, work + panel_a};
  char* b_buf[2] = {work + 2 * panel_a, work + 2 * panel_a + panel_b};
  const PanelGather ga{g.row_comm, g.row_set(), g.npcol, g.mycol, da.nb, da.csrc, m_loc, es};
  const PanelGather gb{g.col_comm, g.col_set(), g.nprow, g.myrow, db.mb, db.rsrc, n_loc, es};
  for (std::int64_t p = 0; p < plan.panels; ++p) {
    const std::int64_t k0 = p * plan.kb, k1 = std::min(x.k, k0 + plan.kb), kp = k1 - k0;
    const int buf = static_cast<int>(p % 2);
    gather_panel(ga, k0, k1, {static_cast<const char*>(x.a), da.lld, 1}, a_buf[buf], m_loc, 1, "trnblasMp.gemm.allgather_A",
                 s.target, trace);
    gather_panel(gb, k0, k1, {static_cast<const char*>(x.b), 1, db.lld}, b_buf[buf], 1, kp, "trnblasMp.gemm.allgather_B",
                 s.target, trace);
    local_gemm(kp, a_buf[buf], b_buf[buf], p == 0 ? x.beta : 1.0);
  }
  if (report != nullptr) {
    *report = blas::CallReport{};
    report->finish(s, std::move(trace));
    report->add_plan(plan);
  }
}

}  // namespace trn::blasmp
