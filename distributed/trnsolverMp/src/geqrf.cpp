// trnsolverMp Geqrf / Ormqr / Gels: distributed Householder QR on the 2-D block-cyclic layout
// (solvermp.hpp; docs/scale-out.md section 6.3). ScaLAPACK's PDGEQRF shape (Choi, Dongarra, Ostrouchov,
// Petitet, Walker, Whaley, "The design and implementation of the ScaLAPACK LU, QR and Cholesky
// factorization routines", 1996): per block column, the panel on its process column, its compact-WY
// block reflector H = I - V T V^H (Schreiber & Van Loan 1989) broadcast along the process rows, and
// the trailing update A -= V (T^H (V^H A)) with V^H A summed over the process column.
// Engines: the panel (xGEQR2 + xLARFT) is trnsolver's geqrf panel step (qr_block_reflector: a recorded
//   host step in the working precision, as the single-device geqrf's); V^H A, T^H W and V W2 are
//   trnblas GEMMs (TensorE: fp32 mode for S, Ozaki for D, 4M for C / Z), the column sums trnblas GEAMs;
//   every message an MPI collective recorded as a link transfer (fabric model).
// Accuracy: Householder QR is normwise backward stable, ||A - Q R|| <= c m n u ||A|| and
//   ||Q^H Q - I|| <= c m n u (Higham, Accuracy and Stability, Thm 19.4); tested within 16 (m + n) u
//   (docs/scale-out.md 6.3).
// Limits: square blocks (mb = nb); the whole matrix (ia = ja = 1); Ormqr side left only; Gels trans N
//   with m >= n; the panel is gathered and factored redundantly on its process column (no distributed
//   Householder norms, no look-ahead); messages under 2 GiB.
// Determinism: the column sum of V^H A is an MPI_Allgather of the process rows' partial products
//   followed by trnblas GEAMs in process-row order 0, 1, ..., nprow - 1 (never MPI_Allreduce, whose
//   order Open MPI chooses by message size and process count): every rank of a process column holds
//   the same W, and the bits are fixed by the block size and nprow alone (not by npcol, the host
//   threads or the run). nprow = 1 needs no sum: any 1 x P grid gives the 1 x 1 grid's bits, which
//   are trnsolver's single-device geqrf's with qr_block_size = mb (the same panels and GEMMs).
#include <algorithm>
#include <complex>
#include <cstring>
#include <utility>
#include <vector>

#include "exchange.hpp"
#include "local.hpp"
#include "rows.hpp"
#include "trn/core/error.hpp"
#include "trn/core/link_step.hpp"
#include "trn/solver/qr.hpp"
#include "trn/solvermp/solvermp.hpp"

namespace trn::solvermp {

namespace {

using blasmp::numroc;
using blasmp::detail::Carve;
using blasmp::detail::cd;
using blasmp::detail::Local;
using namespace detail;

// trnsolver's block reflector of the gathered mp x kb panel (ld mp) on this rank's device: factor
// (geqrf's panel step: the panel overwritten, tau written) or V and T alone from the reflectors and tau.
void block_reflector(const Local& l, bool factor, std::int64_t mp, std::int64_t kb, void* panel, void* tau, void* v,
                     void* t) {
  solver::Settings ss;
  static_cast<EmulatorSettings&>(ss) = static_cast<const EmulatorSettings&>(l.st);
  solver::CallReport r;
  using cf = std::complex<float>;
  if (l.t.complex && l.t.fp64)
    solver::qr_block_reflector(ss, factor, mp, kb, static_cast<cd*>(panel), mp, static_cast<cd*>(tau), static_cast<cd*>(v),
                               static_cast<cd*>(t), &r);
  else if (l.t.complex)
    solver::qr_block_reflector(ss, factor, mp, kb, static_cast<cf*>(panel), mp, static_cast<cf*>(tau), static_cast<cf*>(v),
                               static_cast<cf*>(t), &r);
  else if (l.t.fp64)
    solver::qr_block_reflector(ss, factor, mp, kb, static_cast<double*>(panel), mp, static_cast<double*>(tau),
                               static_cast<double*>(v), static_cast<double*>(t), &r);
  else
    solver::qr_block_reflector(ss, factor, mp, kb, static_cast<float*>(panel), mp, static_cast<float*>(tau),
                               static_cast<float*>(v), static_cast<float*>(t), &r);
  l.trace->append(std::move(r.trace));
}

// The per-step buffers of Geqrf and Ormqr (carved from the workspace): `rows` the order of Q (A's m),
// `cols` the local columns of the matrix updated (A's or C's), blocks of nb.
struct QrBuffers {
  void* panel = nullptr;     // the gathered panel, (rows - r0) x kb
  void* v = nullptr;         // its explicit V, (rows - r0) x kb
  void* t = nullptr;         // T, kb x kb
  void* tau = nullptr;       // the panel's tau, kb
  void* vt = nullptr;        // what the process row receives: my rows of V ((m_loc - lr0) x kb), then T
  void* partial = nullptr;   // my V^H A, kb x cols
  void* gathered = nullptr;  // every process row's partial (nprow > 1), nprow x kb x cols
  void* w2 = nullptr;        // op(T) W, kb x cols
  QrBuffers(const Descriptor& a, std::int64_t rows, std::int64_t cols, std::size_t es, Carve& carve) {
    const auto nb = static_cast<std::size_t>(a.mb), r = static_cast<std::size_t>(std::max<std::int64_t>(rows, 0));
    const auto c = static_cast<std::size_t>(std::max<std::int64_t>(cols, 0));
    panel = carve.take(r * nb * es);
    v = carve.take(r * nb * es);
    t = carve.take(nb * nb * es);
    tau = carve.take(nb * es);
    vt = carve.take((static_cast<std::size_t>(a.local_rows()) + nb) * nb * es);
    partial = carve.take(nb * c * es);
    if (a.grid->nprow > 1) gathered = carve.take(static_cast<std::size_t>(a.grid->nprow) * nb * c * es);
    w2 = carve.take(nb * c * es);
  }
};

// My rows of the step's V (global rows r0.. in `rows` layout; V ld mp) and T packed into b.vt on the
// panel's process column, then broadcast along the process row. Returns the number of my V rows.
std::int64_t share_reflector(const Local& l, const Descriptor& d, std::int64_t m, const StepPlace& st, const QrBuffers& b,
                             std::size_t es, const char* name, Generation target) {
  const blasmp::Grid& g = *d.grid;
  const std::int64_t nrows = d.local_rows() - st.lr0, mp = m - st.r0;
  char* vt = static_cast<char*>(b.vt);
  if (g.mycol == st.pc) {
    for (std::int64_t il = st.lr0; il < d.local_rows(); ++il) {
      const std::int64_t r = global_of(il, d.mb, g.myrow, d.rsrc, g.nprow) - st.r0;
      for (std::int64_t p = 0; p < st.kb; ++p) std::memcpy(at(vt, (il - st.lr0) + p * nrows, es), at(b.v, r + p * mp, es), es);
    }
    std::memcpy(at(vt, nrows * st.kb, es), b.t, static_cast<std::size_t>(st.kb * st.kb) * es);
  }
  blasmp::detail::broadcast(g.row_comm, g.row_set(), st.pc, g.mycol, vt, static_cast<std::size_t>((nrows + st.kb) * st.kb) * es,
                            name, target, *l.trace);
  return nrows;
}

// C(r0:m, cols) = op(H) C(r0:m, cols) for the step's H = I - V T V^H (my rows of V and T in b.vt, nrows
// of them; C's local rows from lr0, local columns c0 .. c0 + cols, ld ldc): W = V^H C summed over the
// process column, W2 = op(T) W (adjoint: T^H, H^H applied), C -= V W2. Three trnblas GEMMs.
void apply_reflector(const Local& l, const blasmp::Grid& g, const StepPlace& st, std::int64_t nrows, const QrBuffers& b,
                     bool adjoint, void* c, std::int64_t ldc, std::int64_t c0, std::int64_t cols, std::size_t es,
                     Generation target) {
  using blas::COp;
  const void* vloc = b.vt;
  const void* t = at(b.vt, nrows * st.kb, es);
  char* c_rows = at(c, st.lr0 + c0 * ldc, es);
  if (nrows > 0)
    blasmp::detail::local_gemm(l, COp::C, COp::N, st.kb, cols, nrows, cd(1.0), vloc, nrows, c_rows, ldc, cd(0.0), b.partial, st.kb);
  else if (cols > 0)
    std::memset(b.partial, 0, static_cast<std::size_t>(st.kb * cols) * es);
  // W = the partials summed over the process column in process-row order (rows.hpp's ordered_sum).
  const void* w = ordered_sum(l, g.col_comm, g.col_set(), g.nprow, st.kb, cols, b.partial, b.gathered, es,
                              "trnsolverMp.qr.column_sum", target);
  blasmp::detail::local_gemm(l, adjoint ? COp::C : COp::N, COp::N, st.kb, cols, st.kb, cd(1.0), t, st.kb, w, st.kb, cd(0.0),
                             b.w2, st.kb);
  blasmp::detail::local_gemm(l, COp::N, COp::N, nrows, cols, st.kb, cd(-1.0), vloc, nrows, b.w2, st.kb, cd(1.0), c_rows, ldc);
}

// One block column of Geqrf: the panel gathered and factored on its process column (my rows and tau
// written back), V and T along the process rows, the trailing columns updated with H^H.
void geqrf_step(const Local& l, const GeqrfArgs& x, const QrBuffers& b, std::int64_t i, Generation target) {
  const Descriptor& d = *x.desc_a;
  const blasmp::Grid& g = *d.grid;
  const std::size_t es = x.elem_bytes();
  const StepPlace st = place_step(d, i, std::min(x.m, x.n));
  const std::int64_t mp = x.m - st.r0;
  if (g.mycol == st.pc) {
    gather_rows(g, {x.m, d.mb, d.rsrc}, st.r0, static_cast<const char*>(x.a), d.lld, st.lc0, st.kb, es,
                static_cast<char*>(b.panel), "trnsolverMp.geqrf.gather_panel", target, *l.trace);
    block_reflector(l, true, mp, st.kb, b.panel, b.tau, b.v, b.t);
    for (std::int64_t il = st.lr0; il < d.local_rows(); ++il) {
      const std::int64_t r = global_of(il, d.mb, g.myrow, d.rsrc, g.nprow) - st.r0;
      for (std::int64_t p = 0; p < st.kb; ++p)
        std::memcpy(at(x.a, il + (st.lc0 + p) * d.lld, es), at(b.panel, r + p * mp, es), es);
    }
    std::memcpy(at(x.tau, st.lc0, es), b.tau, static_cast<std::size_t>(st.kb) * es);  // ScaLAPACK's LOCc layout
  }
  if (st.r1 >= x.n) return;  // no trailing columns anywhere
  const std::int64_t nrows = share_reflector(l, d, x.m, st, b, es, "trnsolverMp.geqrf.broadcast_VT", target);
  apply_reflector(l, g, st, nrows, b, true, x.a, d.lld, st.c1, d.local_cols() - st.c1, es, target);
}

}  // namespace

std::string geqrf_mismatch(const GeqrfArgs& x) { return factor_mismatch(x, x.m, x.n, "m x n", geqrf_workspace_bytes); }

std::size_t geqrf_workspace_bytes(const GeqrfArgs& x) {
  if (x.desc_a == nullptr || x.desc_a->grid == nullptr) return 0;
  Carve carve;
  const QrBuffers b(*x.desc_a, x.m, x.desc_a->local_cols(), x.elem_bytes(), carve);
  return carve.used;
}

int geqrf(const blas::Settings& s0, const GeqrfArgs& x, blas::CallReport* report) {
  DriverPrologue p(s0, x, geqrf_mismatch, "geqrf", "trnsolverMp.geqrf.exchange");
  const blas::Settings& s = p.s;
  Trace& trace = p.trace;
  const Descriptor& a = *x.desc_a;
  const QrBuffers b(a, x.m, a.local_cols(), x.elem_bytes(), p.carve);
  const Local l = p.local(x);
  const std::int64_t blocks = (std::min(x.m, x.n) + a.mb - 1) / a.mb;
  for (std::int64_t i = 0; i < blocks; ++i) geqrf_step(l, x, b, i, s.target);
  finish(s, std::move(trace), report);
  return 0;
}

// ---- Ormqr ----

namespace {

// One block reflector of Ormqr: V and T rebuilt from A's reflectors and tau on their process column
// (ScaLAPACK's PDORMQR rebuilds T with PDLARFT the same way), shared along the process rows, applied
// to every local column of C.
void ormqr_step(const Local& l, const OrmqrArgs& x, const QrBuffers& b, std::int64_t j, Generation target) {
  const Descriptor& d = *x.desc_a;
  const Descriptor& dc = *x.desc_c;
  const blasmp::Grid& g = *d.grid;
  const std::size_t es = x.elem_bytes();
  const StepPlace st = place_step(d, j, x.k);
  if (g.mycol == st.pc) {
    gather_rows(g, {x.m, d.mb, d.rsrc}, st.r0, static_cast<const char*>(x.a), d.lld, st.lc0, st.kb, es,
                static_cast<char*>(b.panel), "trnsolverMp.ormqr.gather_panel", target, *l.trace);
    std::memcpy(b.tau, static_cast<const char*>(x.tau) + static_cast<std::size_t>(st.lc0) * es, static_cast<std::size_t>(st.kb) * es);
    block_reflector(l, false, x.m - st.r0, st.kb, b.panel, b.tau, b.v, b.t);
  }
  const std::int64_t nrows = share_reflector(l, d, x.m, st, b, es, "trnsolverMp.ormqr.broadcast_VT", target);
  apply_reflector(l, g, st, nrows, b, x.trans != blas::COp::N, x.c, dc.lld, 0, dc.local_cols(), es, target);
}

}  // namespace

std::string ormqr_mismatch(const OrmqrArgs& x) {
  if (x.desc_a == nullptr || x.desc_c == nullptr || x.desc_a->grid == nullptr) return "a descriptor is NULL";
  const Descriptor &a = *x.desc_a, &c = *x.desc_c;
  if (a.type != x.type() || c.type != x.type()) return "the descriptors' type does not match the call's";
  if (x.side != blas::Side::left) return "only side = left is supported";
  if (x.k < 0 || x.k > x.m) return "k must be in 0 .. m";
  if (a.m != x.m || a.n < x.k) return "A's descriptor must be m x (at least k)";
  if (c.m != x.m || c.n != x.n) return "C's descriptor must be m x n";
  if (a.mb != a.nb) return "A's blocks must be square (mb = nb)";
  if (a.grid != c.grid || c.mb != a.mb || c.rsrc != a.rsrc) return "C's rows must be distributed as A's (same grid, MB and RSRC)";
  const std::size_t need = ormqr_workspace_bytes(x);
  if (x.work_bytes < need || (need > 0 && x.work == nullptr)) return "the workspace is smaller than the _bufferSize's";
  return {};
}

std::size_t ormqr_workspace_bytes(const OrmqrArgs& x) {
  if (x.desc_a == nullptr || x.desc_c == nullptr || x.desc_a->grid == nullptr) return 0;
  Carve carve;
  const QrBuffers b(*x.desc_a, x.m, x.desc_c->local_cols(), x.elem_bytes(), carve);
  return carve.used;
}

void detail::ormqr_steps(DriverPrologue& p, const OrmqrArgs& x) {
  const QrBuffers b(*x.desc_a, x.m, x.desc_c->local_cols(), x.elem_bytes(), p.carve);
  const Local l = p.local(x);
  const std::int64_t blocks = (x.k + x.desc_a->mb - 1) / x.desc_a->mb;
  // LAPACK's order: Q^H C = H_k^H ... H_1^H C applies the blocks first to last, Q C last to first.
  const bool forward = x.trans != blas::COp::N;
  if (x.m > 0 && x.n > 0)
    for (std::int64_t i = 0; i < blocks; ++i) ormqr_step(l, x, b, forward ? i : blocks - 1 - i, p.s.target);
}

void ormqr(const blas::Settings& s0, const OrmqrArgs& x, blas::CallReport* report) {
  DriverPrologue p(s0, x, ormqr_mismatch, "ormqr", "trnsolverMp.ormqr.exchange");
  detail::ormqr_steps(p, x);
  finish(p.s, std::move(p.trace), report);
}

// ---- Gels ----

namespace {

// Gels's pieces: A = Q R in place (tau carved from the workspace), Q^H B, then R X = (Q^H B)(0:n) by
// trnblasMp's TRSM on the leading n x n of A and n rows of B (descriptors of the same local arrays:
// the first n global rows and columns are the first local ones).
struct GelsParts {
  GeqrfArgs qr;
  OrmqrArgs q;
  blasmp::TrsmArgs solve;
  Descriptor r, top;
  std::size_t tau_bytes = 0;
  explicit GelsParts(const GelsArgs& x) {
    static_cast<blasmp::Scalars&>(qr) = x;
    qr.m = x.m, qr.n = x.n, qr.a = x.a, qr.desc_a = x.desc_a;
    static_cast<blasmp::Scalars&>(q) = x;
    q.trans = x.complex ? blas::COp::C : blas::COp::T;
    q.m = x.m, q.n = x.nrhs, q.k = x.n, q.a = x.a, q.desc_a = x.desc_a, q.c = x.b, q.desc_c = x.desc_b;
    if (x.desc_a != nullptr) r = *x.desc_a, r.m = x.n;
    if (x.desc_b != nullptr) top = *x.desc_b, top.m = x.n;
    static_cast<blasmp::Scalars&>(solve) = x;
    solve.alpha = 1, solve.alpha_im = 0;
    solve.side = blas::Side::left, solve.uplo = blas::Uplo::upper, solve.trans = blas::COp::N;
    solve.m = x.n, solve.n = x.nrhs, solve.a = x.a, solve.desc_a = &r, solve.b = x.b, solve.desc_b = &top;
    if (x.desc_a != nullptr && x.desc_a->grid != nullptr)
      tau_bytes = blasmp::detail::aligned(static_cast<std::size_t>(std::max<std::int64_t>(x.desc_a->local_cols(), 1)) * x.elem_bytes());
  }
  // The workspace after tau (each step's in turn).
  void place(const GelsArgs& x) {
    void* rest = x.work != nullptr ? static_cast<char*>(x.work) + tau_bytes : nullptr;
    const std::size_t left = x.work_bytes >= tau_bytes ? x.work_bytes - tau_bytes : 0;
    qr.tau = x.work;
    q.tau = x.work;
    qr.work = q.work = solve.work = rest;
    qr.work_bytes = q.work_bytes = solve.work_bytes = left;
  }
};

// Every real part of the element at e (es bytes, fp64 or fp32 parts) is +0 or -0.
bool is_zero(const char* e, bool fp64, std::size_t es) {
  for (std::size_t p = 0; p < es; p += fp64 ? 8 : 4) {
    double v = 0;
    if (fp64) std::memcpy(&v, e + p, 8);
    else {
      float f;
      std::memcpy(&f, e + p, 4);
      v = f;
    }
    if (v != 0.0) return false;
  }
  return true;
}

// The first exactly zero diagonal entry of R (1-based, the same on every rank: a MIN allreduce), or 0.
int zero_diagonal(const GelsArgs& x, Generation target, Trace& trace) {
  const Descriptor& d = *x.desc_a;
  const blasmp::Grid& g = *d.grid;
  const std::size_t es = x.elem_bytes();
  long long first = x.n + 1;
  for (std::int64_t jl = 0; jl < d.local_cols(); ++jl) {
    const std::int64_t j = global_of(jl, d.nb, g.mycol, d.csrc, g.npcol);
    if (j >= x.n || owner_of(j, d.mb, d.rsrc, g.nprow) != g.myrow) continue;
    if (is_zero(at(x.a, local_of(j, d.mb, g.nprow) + jl * d.lld, es), x.fp64, es)) first = std::min<long long>(first, j + 1);
  }
  long long all = first;
  blasmp::detail::check_mpi(MPI_Allreduce(&first, &all, 1, MPI_LONG_LONG, MPI_MIN, g.comm), "MPI_Allreduce");
  LinkTransfer t;
  t.name = "trnsolverMp.gels.rank_check";
  t.ns = small_allreduce_ns(fabric_spec(target), RankSet{0, 1, g.nprow * g.npcol});
  t.peers = blasmp::detail::peers_over(g.comm);
  record_link_transfer(trace, t);
  return all <= x.n ? static_cast<int>(all) : 0;
}

}  // namespace

std::string gels_mismatch(const GelsArgs& x) {
  if (x.desc_a == nullptr || x.desc_b == nullptr || x.desc_a->grid == nullptr) return "a descriptor is NULL";
  if (x.trans != blas::COp::N) return "only trans = N is supported";
  if (x.m < x.n) return "only m >= n (least squares) is supported";
  GelsParts p(x);
  p.qr.work_bytes = p.q.work_bytes = p.solve.work_bytes = static_cast<std::size_t>(-1);
  p.qr.work = p.q.work = p.solve.work = &p;
  if (std::string why = geqrf_mismatch(p.qr); !why.empty()) return why;
  if (x.desc_b->m != x.m || x.desc_b->n != x.nrhs) return "B's descriptor must be m x nrhs";
  if (std::string why = ormqr_mismatch(p.q); !why.empty()) return why;
  if (std::string why = blasmp::trsm_mismatch(p.solve); !why.empty()) return why;
  const std::size_t need = gels_workspace_bytes(x);
  if (x.work_bytes < need || (need > 0 && x.work == nullptr)) return "the workspace is smaller than the _bufferSize's";
  return {};
}

std::size_t gels_workspace_bytes(const GelsArgs& x) {
  const GelsParts p(x);
  return p.tau_bytes + std::max({geqrf_workspace_bytes(p.qr), ormqr_workspace_bytes(p.q), blasmp::trsm_workspace_bytes(p.solve)});
}

int gels(const blas::Settings& s0, const GelsArgs& x, blas::CallReport* report) {
  if (const std::string why = gels_mismatch(x); !why.empty()) throw UsageError("trnsolverMp gels: " + why);
  const blas::Settings s = blasmp::device_settings(s0);
  GelsParts p(x);
  p.place(x);
  blas::CallReport r1, r2, r3;
  const bool rep = report != nullptr;
  geqrf(s0, p.qr, rep ? &r1 : nullptr);
  Trace trace;
  if (rep) trace.append(std::move(r1.trace));
  const int info = zero_diagonal(x, s.target, trace);
  if (info == 0) {  // a rank-deficient R leaves B as it was (LAPACK xGELS returns before touching B)
    ormqr(s0, p.q, rep ? &r2 : nullptr);
    blasmp::trsm(s0, p.solve, rep ? &r3 : nullptr);
    if (rep) trace.append(std::move(r2.trace)), trace.append(std::move(r3.trace));
  }
  finish(s, std::move(trace), report);
  return info;
}

}  // namespace trn::solvermp
