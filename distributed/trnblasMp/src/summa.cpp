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
#include "local.hpp"
#include "trn/blasmp/blasmp.hpp"
#include "trn/blasmp/level3mp.hpp"
#include "trn/core/error.hpp"
#include "trn/core/link_step.hpp"
#include "trn/core/report.hpp"
#include "trn/core/scratch.hpp"

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

const char* mode_label(const SummaPlan& p) {
  if (p.complex) return p.fp64 ? "complex fp64 (4M, Ozaki)" : "complex fp32 (4M)";
  return p.fp64 ? "fp64 (Ozaki)" : blas::gemm_mode_name(p.mode);
}

}  // namespace

blas::Settings device_settings(blas::Settings s) {
  s.num_cores = hardware_spec(s.target).cores_per_device;
  return s;
}

SummaPlan plan_gemm(const blas::Settings& s, const Grid& g, blas::GemmMode mode, bool fp64, std::int64_t m,
                    std::int64_t n, std::int64_t k, std::int64_t mb, std::int64_t nb, std::int64_t kblock,
                    double beta, bool complex) {
  SummaPlan p;
  p.m = m, p.n = n, p.k = k, p.nprow = g.nprow, p.npcol = g.npcol, p.target = s.target, p.mode = mode, p.fp64 = fp64;
  p.complex = complex;
  p.elem_bytes = (fp64 ? 8 : 4) * (complex ? 2 : 1);
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
    return fp64 || complex ? -1.0 : predict_panel_ns(dev, mode, p.m_loc, p.n_loc, kp, first ? static_cast<float>(beta) : 1.0f);
  };
  p.a_panel_bytes = static_cast<double>(p.m_loc * p.kb) * es;
  p.b_panel_bytes = static_cast<double>(p.kb * p.n_loc) * es;
  p.link_ns_per_panel = link_ns(p.kb);
  p.gemm_ns_per_panel = gemm_ns(p.kb, false);
  p.link_ns_total = p.exchange_ns;
  const bool predicted = !fp64 && !complex;
  p.gemm_ns_total = predicted ? 0.0 : -1.0;
  const std::int64_t k_last = p.panels > 0 ? k - (p.panels - 1) * p.kb : 0;
  double link_end = p.exchange_ns, gemm_end = 0, gemm_end_prev = 0;
  for (std::int64_t q = 0; q < p.panels; ++q) {
    const std::int64_t kp = q == p.panels - 1 ? k_last : p.kb;
    const double L = kp == p.kb ? p.link_ns_per_panel : link_ns(kp);
    const double G = std::max(0.0, gemm_ns(kp, q == 0));
    p.link_ns_total += L;
    if (predicted) p.gemm_ns_total += G;
    // Panel q's transfers reuse buffer q % 2: they wait for panel q - 2's GEMM (write after read).
    const double link_start = std::max(link_end, gemm_end_prev);
    link_end = link_start + L;
    gemm_end_prev = gemm_end;
    gemm_end = std::max(gemm_end, link_end) + G;
  }
  p.predicted_ns = std::max(gemm_end, link_end);
  const HardwareSpec& hw = hardware_spec(s.target);
  const double passes = (!fp64 && mode == blas::GemmMode::fp32) ? hw.matmul_fp32_passes : 1.0;
  const double complex_products = complex ? 4.0 : 1.0;  // 4M: four real products per complex one
  const double peak = hw.tensor_peak_flops() * 1e-9 / passes * hw.cores_per_device;  // flop/ns of the device
  const double flops =
      2.0 * complex_products * static_cast<double>(p.m_loc) * static_cast<double>(p.n_loc) * static_cast<double>(k);
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
  char gemm_text[64] = "not predicted (fp64 / complex)", total_text[32] = "not predicted";
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
  GemmArgs x;  // op N, N on these descriptors (the panels only)
  x.fp64 = c.type == TRN_R_64F || c.type == TRN_C_64F;
  x.complex = c.type == TRN_C_32F || c.type == TRN_C_64F;
  x.m = c.m, x.n = c.n, x.k = k;
  x.desc_a = &a, x.desc_b = &b, x.desc_c = &c;
  return gemm_workspace_bytes(x);
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
  ScratchVector<char> send(static_cast<std::size_t>(mine * pg.len * es)), recv(static_cast<std::size_t>(total));
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
    const char* from = recv.data() + displs[static_cast<std::size_t>(owner)] + pos * pg.len * es;  // recv may be empty (len 0)
    for (std::int64_t e = 0; e < pg.len; ++e)
      std::memcpy(panel + ((g - k0) * out_slice + e * out_elem) * es, from + e * es, pg.es);
  }
  LinkTransfer t;
  t.name = name;
  t.ns = allgather_ns(fabric_spec(target), pg.set, static_cast<double>(total));
  t.peers = detail::peers_over(pg.comm);
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
  const trnDataType_t t = x.type();
  if (a.type != t || b.type != t || c.type != t) return "the descriptors' types do not match the compute type";
  const bool na = x.op_a == blas::COp::N, nb = x.op_b == blas::COp::N;
  if ((na ? a.m : a.n) != x.m || (na ? a.n : a.m) != x.k || (nb ? b.m : b.n) != x.k || (nb ? b.n : b.m) != x.n ||
      c.m != x.m || c.n != x.n)
    return "the descriptors' sizes do not match m, n, k";
  if (na && (a.mb != c.mb || a.rsrc != c.rsrc)) return "A's row blocks must be C's (mb, rsrc)";
  if (nb && (b.nb != c.nb || b.csrc != c.csrc)) return "B's column blocks must be C's (nb, csrc)";
  if (na && nb && a.nb != b.mb) return "A's column block must be B's row block (the K block)";
  const std::size_t need = gemm_workspace_bytes(x);
  if (x.work_bytes < need || (need > 0 && x.work == nullptr)) return "the workspace is smaller than gemm_bufferSize's";
  return {};
}

namespace {

// The operands SUMMA runs on: A and B themselves (op N) or their redistributed op (T / C) in the
// layout SUMMA needs (op(A)'s rows in C's row blocks, op(B)'s columns in C's column blocks, K in
// the K block of the op-N operand, else A's K block). Holds descriptors `y` points to: not copied.
struct GemmOperands {
  Descriptor at, bt;
  GemmArgs y;
  GemmOperands(const GemmArgs& x, detail::Carve& carve) : y(x) {
    const Descriptor &a = *x.desc_a, &b = *x.desc_b, &c = *x.desc_c;
    const bool na = x.op_a == blas::COp::N, nb = x.op_b == blas::COp::N;
    const std::int64_t kblock = na ? a.nb : (nb ? b.mb : a.mb);
    const std::size_t es = x.elem_bytes();
    y.op_a = y.op_b = blas::COp::N;
    if (!na) {
      at = make_descriptor(*c.grid, x.m, x.k, c.mb, kblock, c.rsrc, 0, c.type);
      y.a = carve.take(detail::local_bytes(at, es));
      y.desc_a = &at;
    }
    if (!nb) {
      bt = make_descriptor(*c.grid, x.k, x.n, kblock, c.nb, 0, c.csrc, c.type);
      y.b = carve.take(detail::local_bytes(bt, es));
      y.desc_b = &bt;
    }
  }
  // Moves op(A) / op(B) into place (collective).
  void fill(const GemmArgs& x, Generation target, Trace& trace) const {
    if (x.op_a != blas::COp::N)
      redistribute(target, {x.desc_a, x.a, &at, const_cast<void*>(y.a), true, x.complex && x.op_a == blas::COp::C},
                   "trnblasMp.gemm.transpose_A", trace);
    if (x.op_b != blas::COp::N)
      redistribute(target, {x.desc_b, x.b, &bt, const_cast<void*>(y.b), true, x.complex && x.op_b == blas::COp::C},
                   "trnblasMp.gemm.transpose_B", trace);
  }
};

// The double-buffered K panels of SUMMA on y's operands.
struct PanelBuffers {
  char* a[2];
  char* b[2];
};
PanelBuffers take_panels(const GemmArgs& y, detail::Carve& carve) {
  const std::size_t es = y.elem_bytes();
  const std::int64_t kb = y.k > 0 ? panel_depth(y.k, y.desc_a->nb) : 0;
  const auto pa = static_cast<std::size_t>(y.desc_c->local_rows() * kb) * es;
  const auto pb = static_cast<std::size_t>(kb * y.desc_c->local_cols()) * es;
  PanelBuffers p{};
  p.a[0] = static_cast<char*>(carve.take(pa));
  p.a[1] = static_cast<char*>(carve.take(pa));
  p.b[0] = static_cast<char*>(carve.take(pb));
  p.b[1] = static_cast<char*>(carve.take(pb));
  return p;
}

}  // namespace

std::size_t gemm_workspace_bytes(const GemmArgs& x) {
  detail::Carve carve;
  const GemmOperands ops(x, carve);
  take_panels(ops.y, carve);
  return carve.used;
}

namespace detail {

SummaPlan summa(const blas::Settings& s, const GemmArgs& x, Carve& carve, Trace& trace) {
  const Descriptor &da = *x.desc_a, &db = *x.desc_b, &dc = *x.desc_c;
  const Grid& g = *dc.grid;
  const Local loc = make_local(s, x, trace);
  const std::size_t es = x.elem_bytes();
  const std::int64_t m_loc = dc.local_rows(), n_loc = dc.local_cols();
  const SummaPlan plan = plan_gemm(s, g, x.mode, x.fp64, x.m, x.n, x.k, dc.mb, dc.nb, da.nb, x.beta, x.complex);
  const cd alpha(x.alpha, x.alpha_im), beta(x.beta, x.beta_im);
  if (plan.panels == 0) local_gemm(loc, m_loc, n_loc, 0, alpha, nullptr, 1, nullptr, 1, beta, x.c, dc.lld);  // C = beta C
  const PanelBuffers buf = take_panels(x, carve);
  const PanelGather ga{g.row_comm, g.row_set(), g.npcol, g.mycol, da.nb, da.csrc, m_loc, es};
  const PanelGather gb{g.col_comm, g.col_set(), g.nprow, g.myrow, db.mb, db.rsrc, n_loc, es};
  for (std::int64_t p = 0; p < plan.panels; ++p) {
    const std::int64_t k0 = p * plan.kb, k1 = std::min(x.k, k0 + plan.kb), kp = k1 - k0;
    const auto i = static_cast<std::size_t>(p % 2);
    gather_panel(ga, k0, k1, {static_cast<const char*>(x.a), da.lld, 1}, buf.a[i], m_loc, 1, "trnblasMp.gemm.allgather_A",
                 s.target, trace);
    gather_panel(gb, k0, k1, {static_cast<const char*>(x.b), 1, db.lld}, buf.b[i], 1, kp, "trnblasMp.gemm.allgather_B",
                 s.target, trace);
    local_gemm(loc, m_loc, n_loc, kp, alpha, buf.a[i], m_loc, buf.b[i], kp, p == 0 ? beta : cd(1.0), x.c, dc.lld);
  }
  return plan;
}

SummaPlan gemm_in(const blas::Settings& s, const GemmArgs& x, Carve& carve, Trace& trace) {
  const GemmOperands ops(x, carve);
  ops.fill(x, s.target, trace);
  return summa(s, ops.y, carve, trace);
}

}  // namespace detail

void gemm(const blas::Settings& s0, const GemmArgs& x, blas::CallReport* report) {
  if (const std::string why = gemm_mismatch(x); !why.empty()) throw UsageError("trnblasMp gemm: " + why);
  const blas::Settings s = device_settings(s0);
  Trace trace;
  detail::record_exchange(*x.desc_c->grid, s.target, "trnblasMp.gemm.exchange", trace);
  detail::Carve carve{static_cast<char*>(x.work)};
  const SummaPlan plan = detail::gemm_in(s, x, carve, trace);
  if (report != nullptr) {
    detail::finish_collective(s, std::move(trace), report);
    report->add_plan(plan);
  }
}

}  // namespace trn::blasmp
