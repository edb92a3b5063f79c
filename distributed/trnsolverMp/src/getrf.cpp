// trnsolverMp Getrf / Getrs: distributed LU with partial pivoting on the 2-D block-cyclic layout
// (solvermp.hpp; docs/scale-out.md section 6.2). ScaLAPACK's PDGETRF order (Choi, Dongarra, Ostrouchov,
// Petitet, Walker, Whaley, "The design and implementation of the ScaLAPACK LU, QR and Cholesky
// factorization routines", 1996): per block column, the panel, the interchanges, U12, the trailing
// update; the panel is gathered onto its process column and factored there by trnsolver's getrf.
// Engines: the panel is trnsolver's getrf (fp32: its tile kernels on Vector/Scalar/GpSimd and TensorE;
//   fp64: its recursive Ozaki panel; C, Z: its recorded fp64 host panel); U12 trnblas TRSM (fp32, C, Z)
//   or trnsolver's dgetrf_u12 (D);
//   the trailing update one trnblas GEMM per rank (TensorE: fp32 mode, Ozaki for D, 4M for C / Z);
//   every message an MPI collective recorded as a link transfer (fabric model).
// Accuracy: LU with partial pivoting, ||P A - L U|| = O(n u) growth (Higham Thm 9.5); tested against
//   ScaLAPACK within 64 (min(m, n) + 2) u of max |LU| (docs/scale-out.md 6.2).
// Limits: square blocks (mb = nb), the whole matrix (ia = ja = 1); the panel is factored redundantly
//   on its process column (no distributed pivot search, no look-ahead); messages under 2 GiB.
#include <algorithm>
#include <climits>
#include <complex>
#include <cstring>
#include <map>
#include <utility>
#include <vector>

#include "exchange.hpp"
#include "local.hpp"
#include "rows.hpp"
#include "trn/core/error.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/link_step.hpp"
#include "trn/core/scratch.hpp"
#include "trn/solver/complex_factor.hpp"
#include "trn/solver/solver.hpp"
#include "trn/solvermp/solvermp.hpp"

namespace trn::solvermp {

// The block-cyclic index helpers and the panel gather (rows.hpp), shared with geqrf.cpp.
namespace detail {

using blasmp::numroc;

char* at(void* base, std::int64_t elems, std::size_t es) { return static_cast<char*>(base) + static_cast<std::size_t>(elems) * es; }

// The process owning global index g (blocks nb, first block on src, np processes) and its local index.
int owner_of(std::int64_t g, std::int64_t nb, std::int64_t src, int np) { return static_cast<int>((src + g / nb) % np); }
std::int64_t local_of(std::int64_t g, std::int64_t nb, int np) { return (g / nb / np) * nb + g % nb; }
std::int64_t global_of(std::int64_t l, std::int64_t nb, int p, std::int64_t src, int np) {
  return ((l / nb) * np + (p - src + np) % np) * nb + l % nb;
}

int checked_int(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(INT_MAX)) throw NotSupportedError("trnsolverMp getrf", "a message over 2 GiB", "any");
  return static_cast<int>(bytes);
}

// Rows [r0, rows.count) of `cols` columns (local columns lc0.. of `a`, ld lda) gathered along this
// process column into `out` ((count - r0) x cols, column-major, ld count - r0), in global row order:
// each process row contributes its local rows in increasing order (one MPI_Allgatherv).
void gather_rows(const blasmp::Grid& g, const RowLayout& rows, std::int64_t r0, const char* a, std::int64_t lda,
                 std::int64_t lc0, std::int64_t cols, std::size_t es, char* out, const char* name, Generation target,
                 Trace& trace) {
  const std::int64_t mine0 = numroc(r0, rows.nb, g.myrow, rows.src, g.nprow);
  const std::int64_t mine1 = numroc(rows.count, rows.nb, g.myrow, rows.src, g.nprow);
  ScratchVector<char> send(static_cast<std::size_t>((mine1 - mine0) * cols) * es);
  for (std::int64_t il = mine0, k = 0; il < mine1; ++il)  // row by row: a contribution is whole rows
    for (std::int64_t p = 0; p < cols; ++p, ++k)
      std::memcpy(send.data() + static_cast<std::size_t>(k) * es, a + static_cast<std::size_t>(il + (lc0 + p) * lda) * es, es);
  std::vector<int> counts(static_cast<std::size_t>(g.nprow)), displs(static_cast<std::size_t>(g.nprow));
  std::size_t total = 0;
  for (int q = 0; q < g.nprow; ++q) {
    const std::int64_t nq = numroc(rows.count, rows.nb, q, rows.src, g.nprow) - numroc(r0, rows.nb, q, rows.src, g.nprow);
    counts[static_cast<std::size_t>(q)] = checked_int(static_cast<std::size_t>(nq * cols) * es);
    displs[static_cast<std::size_t>(q)] = checked_int(total);
    total += static_cast<std::size_t>(counts[static_cast<std::size_t>(q)]);
  }
  ScratchVector<char> recv(total);
  blasmp::detail::check_mpi(MPI_Allgatherv(send.data(), checked_int(send.size()), MPI_BYTE, recv.data(), counts.data(),
                                           displs.data(), MPI_BYTE, g.col_comm),
                            "MPI_Allgatherv");
  std::vector<std::size_t> cursor(displs.begin(), displs.end());
  const std::int64_t ld = rows.count - r0;
  for (std::int64_t r = r0; r < rows.count; ++r) {
    std::size_t& cur = cursor[static_cast<std::size_t>(owner_of(r, rows.nb, rows.src, g.nprow))];
    for (std::int64_t p = 0; p < cols; ++p, cur += es)
      std::memcpy(out + static_cast<std::size_t>((r - r0) + p * ld) * es, recv.data() + cur, es);
  }
  LinkTransfer t;
  t.name = name;
  t.ns = allgather_ns(fabric_spec(target), g.col_set(), static_cast<double>(total));
  t.peers = blasmp::detail::peers_over(g.col_comm);
  if (total > 0) t.receives[0].data = out, t.receives[0].hull = t.receives[0].bytes = total;
  record_link_transfer(trace, t);
}

void finish(const blas::Settings& s, Trace&& trace, blas::CallReport* report) {
  blasmp::detail::finish_collective(s, std::move(trace), report);
}

}  // namespace detail

namespace {

using blasmp::numroc;
using blasmp::detail::Carve;
using blasmp::detail::cd;
using blasmp::detail::Local;
using namespace detail;

// One row interchange of the final permutation: row `dst` receives the old row `src` (global rows).
struct RowMove {
  std::int64_t dst, src;
};

// The moves that apply the interchanges piv[0..k) (row first + j with the 1-based row piv[j]) in
// order (forward) or in reverse, as one permutation: only the rows that change.
std::vector<RowMove> moves_of(const std::int64_t* piv, std::int64_t k, std::int64_t first, bool forward) {
  std::map<std::int64_t, std::int64_t> content;  // row -> the old row it holds (absent: itself)
  auto holds = [&](std::int64_t r) {
    const auto it = content.find(r);
    return it == content.end() ? r : it->second;
  };
  for (std::int64_t t = 0; t < k; ++t) {
    const std::int64_t j = forward ? t : k - 1 - t, r = first + j, p = piv[j] - 1;
    if (p == r) continue;
    const std::int64_t hr = holds(r), hp = holds(p);
    content[r] = hp;
    content[p] = hr;
  }
  std::vector<RowMove> moves;
  for (const auto& [dst, src] : content)
    if (dst != src) moves.push_back({dst, src});
  return moves;
}

// Applies `moves` to the local columns of the block-cyclic matrix `a` (rows in `rows`' layout, ld
// lda, local columns 0..cols except [skip0, skip1)): rows travel along the process column, one
// MPI_Alltoallv (both sides enumerate the moves in order: bare values travel). Collective over the
// process column (every rank of it passes the same moves).
void permute_rows(const blasmp::Grid& g, const RowLayout& rows, char* a, std::int64_t lda, std::int64_t cols,
                  std::int64_t skip0, std::int64_t skip1, std::size_t es, const std::vector<RowMove>& moves,
                  const char* name, Generation target, Trace& trace) {
  std::vector<std::int64_t> col;
  for (std::int64_t j = 0; j < cols; ++j)
    if (j < skip0 || j >= skip1) col.push_back(j);
  const std::size_t row_bytes = col.size() * es;
  const auto P = static_cast<std::size_t>(g.nprow);
  std::vector<int> scount(P), sdispl(P), rcount(P), rdispl(P);
  auto owner = [&](std::int64_t r) { return owner_of(r, rows.nb, rows.src, g.nprow); };
  for (const RowMove& mv : moves) {
    if (owner(mv.src) == g.myrow) scount[static_cast<std::size_t>(owner(mv.dst))] += checked_int(row_bytes);
    if (owner(mv.dst) == g.myrow) rcount[static_cast<std::size_t>(owner(mv.src))] += checked_int(row_bytes);
  }
  std::size_t stotal = 0, rtotal = 0;
  for (std::size_t q = 0; q < P; ++q) {
    sdispl[q] = checked_int(stotal), rdispl[q] = checked_int(rtotal);
    stotal += static_cast<std::size_t>(scount[q]), rtotal += static_cast<std::size_t>(rcount[q]);
  }
  ScratchVector<char> send(stotal), recv(rtotal);
  std::vector<std::size_t> cur(sdispl.begin(), sdispl.end());
  for (const RowMove& mv : moves) {  // pack every row before any is overwritten
    if (owner(mv.src) != g.myrow) continue;
    std::size_t& c = cur[static_cast<std::size_t>(owner(mv.dst))];
    const std::int64_t il = local_of(mv.src, rows.nb, g.nprow);
    for (std::int64_t j : col) std::memcpy(send.data() + c, a + static_cast<std::size_t>(il + j * lda) * es, es), c += es;
  }
  blasmp::detail::check_mpi(MPI_Alltoallv(send.data(), scount.data(), sdispl.data(), MPI_BYTE, recv.data(), rcount.data(),
                                          rdispl.data(), MPI_BYTE, g.col_comm),
                            "MPI_Alltoallv");
  cur.assign(rdispl.begin(), rdispl.end());
  for (const RowMove& mv : moves) {
    if (owner(mv.dst) != g.myrow) continue;
    std::size_t& c = cur[static_cast<std::size_t>(owner(mv.src))];
    const std::int64_t il = local_of(mv.dst, rows.nb, g.nprow);
    for (std::int64_t j : col) std::memcpy(a + static_cast<std::size_t>(il + j * lda) * es, recv.data() + c, es), c += es;
  }
  const auto self = static_cast<std::size_t>(g.myrow);
  LinkTransfer t;
  t.name = name;
  t.ns = blasmp::detail::alltoall_ns(fabric_spec(target), g.col_set(), static_cast<double>(stotal - static_cast<std::size_t>(scount[self])),
                                     static_cast<double>(rtotal - static_cast<std::size_t>(rcount[self])));
  t.peers = blasmp::detail::peers_over(g.col_comm);
  record_link_transfer(trace, t);
}

// trnsolver's LU of the gathered mp x kb panel (ld mp) on this rank's device: ipiv (kb entries,
// 1-based, relative to the panel) or nullptr. Returns its info (relative).
int panel_getrf(const Local& l, std::int64_t mp, std::int64_t kb, void* p, int* ipiv) {
  solver::Settings ss;
  static_cast<EmulatorSettings&>(ss) = static_cast<const EmulatorSettings&>(l.st);
  solver::CallReport r;
  int info = 0;
  if (l.t.complex && l.t.fp64)
    info = solver::getrf(ss, mp, kb, static_cast<std::complex<double>*>(p), mp, ipiv, &r);
  else if (l.t.complex)
    info = solver::getrf(ss, mp, kb, static_cast<std::complex<float>*>(p), mp, ipiv, &r);
  else
    info = l.t.fp64 ? solver::dgetrf(ss, mp, kb, static_cast<double*>(p), mp, ipiv, &r)
                    : solver::sgetrf(ss, mp, kb, static_cast<float*>(p), mp, ipiv, &r);
  l.trace->append(std::move(r.trace));
  return info;
}

// U12 = L11^-1 A12 (L11 kb x kb unit lower, ld kb; A12 kb x cols, ld lda) as trnsolver's getrf does
// it: fp64 by trnsolver's dgetrf_u12 (recursive, Ozaki DGEMMs), fp32 by trnblas STRSM, complex
// by trnblas's substitution TRSM (cgetrf / zgetrf's).
void solve_u12(const Local& l, std::int64_t kb, std::int64_t cols, std::int64_t whole_cols, const void* l11, void* a12,
               std::int64_t lda) {
  if (kb <= 0 || cols <= 0) return;
  if (l.t.fp64 && !l.t.complex) {
    solver::Settings ss;
    static_cast<EmulatorSettings&>(ss) = static_cast<const EmulatorSettings&>(l.st);
    solver::CallReport r;
    solver::dgetrf_u12(ss, kb, cols, static_cast<const double*>(l11), kb, static_cast<double*>(a12), lda, &r);
    l.trace->append(std::move(r.trace));
    return;
  }
  Local sub = l;
  sub.st.trsm_substitution = l.t.complex;
  blasmp::detail::local_trsm(sub, blas::Side::left, blas::Uplo::lower, blas::COp::N, blas::Diag::unit, kb, cols, whole_cols, cd(1.0),
                             l11, kb, a12, lda);
}

// The per-step buffers of the factorization (carved from the workspace).
struct GetrfBuffers {
  void* panel = nullptr;  // the gathered panel, (m - r0) x kb
  void* diag = nullptr;   // L11, kb x kb
  void* lrow = nullptr;   // my rows of L21, (m_loc - s1) x kb
  void* urow = nullptr;   // U12 for my columns, kb x (n_loc - c1)
  GetrfBuffers(const GetrfArgs& x, Carve& carve) {
    const Descriptor& a = *x.desc_a;
    const std::size_t es = x.elem_bytes();
    const auto nb = static_cast<std::size_t>(a.mb);
    panel = carve.take(static_cast<std::size_t>(std::max<std::int64_t>(x.m, 0)) * nb * es);
    diag = carve.take(nb * nb * es);
    lrow = carve.take(static_cast<std::size_t>(a.local_rows()) * nb * es);
    urow = carve.take(nb * static_cast<std::size_t>(a.local_cols()) * es);
  }
};

}  // namespace

namespace detail {

// Where step i works: rows / columns [r0, r1), the owners of block row and column i, my first local
// rows and columns at r0 and at r1.
StepPlace place_step(const Descriptor& d, std::int64_t i, std::int64_t kmin) {
  const blasmp::Grid& g = *d.grid;
  StepPlace p{};
  p.r0 = i * d.mb;
  p.kb = std::min(d.mb, kmin - p.r0);
  p.r1 = p.r0 + p.kb;
  p.pr = owner_of(p.r0, d.mb, d.rsrc, g.nprow);
  p.pc = owner_of(p.r0, d.nb, d.csrc, g.npcol);
  p.lr0 = numroc(p.r0, d.mb, g.myrow, d.rsrc, g.nprow);
  p.lc0 = numroc(p.r0, d.nb, g.mycol, d.csrc, g.npcol);
  p.s1 = numroc(p.r1, d.mb, g.myrow, d.rsrc, g.nprow);
  p.c1 = numroc(p.r1, d.nb, g.mycol, d.csrc, g.npcol);
  return p;
}

}  // namespace detail

namespace {

// The panel of step `st` on its process column: gathered, factored (every rank of the column alike),
// my rows written back. Fills piv_info = (relative info, relative pivots...).
void factor_panel(const Local& l, const GetrfArgs& x, const GetrfBuffers& b, const StepPlace& st, std::vector<int>& piv_info,
                  Generation target) {
  const Descriptor& d = *x.desc_a;
  const blasmp::Grid& g = *d.grid;
  const std::size_t es = x.elem_bytes();
  const std::int64_t mp = x.m - st.r0;
  gather_rows(g, {x.m, d.mb, d.rsrc}, st.r0, static_cast<const char*>(x.a), d.lld, st.lc0, st.kb, es,
              static_cast<char*>(b.panel), "trnsolverMp.getrf.gather_panel", target, *l.trace);
  piv_info[0] = panel_getrf(l, mp, st.kb, b.panel, x.ipiv != nullptr ? piv_info.data() + 1 : nullptr);
  const std::int64_t lr_first = numroc(st.r0, d.mb, g.myrow, d.rsrc, g.nprow), m_loc = d.local_rows();
  for (std::int64_t il = lr_first; il < m_loc; ++il) {
    const std::int64_t r = global_of(il, d.mb, g.myrow, d.rsrc, g.nprow) - st.r0;
    for (std::int64_t p = 0; p < st.kb; ++p)
      std::memcpy(at(x.a, il + (st.lc0 + p) * d.lld, es), at(b.panel, r + p * mp, es), es);
  }
}

// U12 on block row i's process row, then U12 down the process columns, L21 along the process rows and
// the trailing update A22 -= L21 U12 on every rank.
void update_trailing(const Local& l, const GetrfArgs& x, const GetrfBuffers& b, const StepPlace& st, Generation target) {
  const Descriptor& d = *x.desc_a;
  const blasmp::Grid& g = *d.grid;
  const std::size_t es = x.elem_bytes();
  const std::int64_t m_loc = d.local_rows(), n_loc = d.local_cols(), ncols = n_loc - st.c1, nrows = m_loc - st.s1;
  const std::int64_t mp = x.m - st.r0;
  if (g.mycol == st.pc) {
    for (std::int64_t p = 0; p < st.kb; ++p) {  // L11 from the factored panel, my rows of L21 from A
      std::memcpy(at(b.diag, p * st.kb, es), at(b.panel, p * mp, es), static_cast<std::size_t>(st.kb) * es);
      if (nrows > 0)
        std::memcpy(at(b.lrow, p * nrows, es), at(x.a, st.s1 + (st.lc0 + p) * d.lld, es), static_cast<std::size_t>(nrows) * es);
    }
  }
  if (g.myrow == st.pr) {
    blasmp::detail::broadcast(g.row_comm, g.row_set(), st.pc, g.mycol, b.diag, static_cast<std::size_t>(st.kb * st.kb) * es,
                              "trnsolverMp.getrf.broadcast_L11", target, *l.trace);
    solve_u12(l, st.kb, ncols, x.n - st.r1, b.diag, at(x.a, st.lr0 + st.c1 * d.lld, es), d.lld);
    for (std::int64_t j = 0; j < ncols; ++j)
      std::memcpy(at(b.urow, j * st.kb, es), at(x.a, st.lr0 + (st.c1 + j) * d.lld, es), static_cast<std::size_t>(st.kb) * es);
  }
  blasmp::detail::broadcast(g.col_comm, g.col_set(), st.pr, g.myrow, b.urow, static_cast<std::size_t>(st.kb * ncols) * es,
                            "trnsolverMp.getrf.broadcast_U12", target, *l.trace);
  blasmp::detail::broadcast(g.row_comm, g.row_set(), st.pc, g.mycol, b.lrow, static_cast<std::size_t>(st.kb * nrows) * es,
                            "trnsolverMp.getrf.broadcast_L21", target, *l.trace);
  blasmp::detail::local_gemm(l, nrows, ncols, st.kb, cd(-1.0), b.lrow, std::max<std::int64_t>(nrows, 1), b.urow, st.kb,
                             cd(1.0), at(x.a, st.s1 + st.c1 * d.lld, es), d.lld);
}

// One block column of the factorization; returns the step's info (0 or the global 1-based column).
int getrf_step(const Local& l, const GetrfArgs& x, const GetrfBuffers& b, std::int64_t i, Generation target) {
  const Descriptor& d = *x.desc_a;
  const blasmp::Grid& g = *d.grid;
  const StepPlace st = place_step(d, i, std::min(x.m, x.n));
  std::vector<int> piv_info(static_cast<std::size_t>(st.kb + 1));
  if (g.mycol == st.pc) factor_panel(l, x, b, st, piv_info, target);
  blasmp::detail::broadcast(g.row_comm, g.row_set(), st.pc, g.mycol, piv_info.data(), piv_info.size() * sizeof(int),
                            "trnsolverMp.getrf.broadcast_pivots", target, *l.trace);
  if (x.ipiv != nullptr) {
    std::vector<std::int64_t> piv(static_cast<std::size_t>(st.kb));
    for (std::int64_t j = 0; j < st.kb; ++j) piv[static_cast<std::size_t>(j)] = st.r0 + piv_info[static_cast<std::size_t>(j + 1)];
    for (std::int64_t il = st.lr0; il < st.s1; ++il)  // ScaLAPACK's layout: my local rows of block row i
      x.ipiv[il] = piv[static_cast<std::size_t>(global_of(il, d.mb, g.myrow, d.rsrc, g.nprow) - st.r0)];
    const bool mine = g.mycol == st.pc;
    permute_rows(g, {x.m, d.mb, d.rsrc}, static_cast<char*>(x.a), d.lld, d.local_cols(), mine ? st.lc0 : 0,
                 mine ? st.lc0 + st.kb : 0, x.elem_bytes(), moves_of(piv.data(), st.kb, st.r0, true),
                 "trnsolverMp.getrf.interchange", target, *l.trace);
  }
  if (st.r1 < x.n) update_trailing(l, x, b, st, target);
  return piv_info[0] > 0 ? static_cast<int>(st.r0) + piv_info[0] : 0;
}

}  // namespace

std::string getrf_mismatch(const GetrfArgs& x) { return factor_mismatch(x, x.m, x.n, "m x n", getrf_workspace_bytes); }

std::size_t getrf_workspace_bytes(const GetrfArgs& x) {
  Carve carve;
  const GetrfBuffers b(x, carve);
  return carve.used;
}

int getrf(const blas::Settings& s0, const GetrfArgs& x, blas::CallReport* report) {
  DriverPrologue p(s0, x, getrf_mismatch, "getrf", "trnsolverMp.getrf.exchange");
  const blas::Settings& s = p.s;
  const Descriptor& a = *x.desc_a;
  const GetrfBuffers b(x, p.carve);
  const Local l = p.local(x);
  const std::int64_t kmin = std::min(x.m, x.n), blocks = (kmin + a.mb - 1) / a.mb;
  int info = 0;
  for (std::int64_t i = 0; i < blocks; ++i) {
    const int step = getrf_step(l, x, b, i, s.target);
    if (info == 0) info = step;
  }
  finish(s, std::move(p.trace), report);
  return info;
}

// ---- Getrs ----

namespace {

// Getrs's two solves: op(A_1) Y = B, op(A_2) X = Y (N: L unit lower, then U; T / C: U^T, then L^T).
blasmp::TrsmArgs getrs_solve(const GetrsArgs& x, bool second) {
  blasmp::TrsmArgs t;
  static_cast<blasmp::Scalars&>(t) = x;
  t.alpha = 1, t.alpha_im = 0;
  t.side = blas::Side::left;
  const bool lower = (x.trans == blas::COp::N) != second;
  t.uplo = lower ? blas::Uplo::lower : blas::Uplo::upper;
  t.diag = lower ? blas::Diag::unit : blas::Diag::non_unit;
  t.trans = x.complex || x.trans != blas::COp::C ? x.trans : blas::COp::T;
  t.m = x.n, t.n = x.nrhs;
  static_cast<blasmp::SolveOperands&>(t) = x;
  static_cast<blasmp::Workspace&>(t) = x;
  return t;
}

// Every global pivot ipiv[0..n) from the ranks' local entries (ScaLAPACK's layout), on every rank.
std::vector<std::int64_t> global_pivots(const GetrsArgs& x, Generation target, Trace& trace) {
  const Descriptor& a = *x.desc_a;
  std::vector<std::int64_t> piv(static_cast<std::size_t>(x.n));
  gather_rows(*a.grid, {x.n, a.mb, a.rsrc}, 0, reinterpret_cast<const char*>(x.ipiv), std::max<std::int64_t>(a.local_rows(), 1),
              0, 1, sizeof(std::int64_t), reinterpret_cast<char*>(piv.data()), "trnsolverMp.getrs.gather_pivots", target, trace);
  for (std::int64_t p : piv)  // every rank holds the same pivots: every rank throws alike
    if (p < 1 || p > x.n) throw UsageError("trnsolverMp getrs: ipiv holds a row outside 1 .. n");
  return piv;
}

void apply_pivots(const GetrsArgs& x, const std::vector<std::int64_t>& piv, bool forward, Generation target, Trace& trace) {
  const Descriptor& b = *x.desc_b;
  permute_rows(*b.grid, {x.n, b.mb, b.rsrc}, static_cast<char*>(x.b), b.lld, b.local_cols(), 0, 0, x.elem_bytes(),
               moves_of(piv.data(), x.n, 0, forward), "trnsolverMp.getrs.interchange", target, trace);
}

}  // namespace

std::string getrs_mismatch(const GetrsArgs& x) {
  if (x.desc_a == nullptr || x.desc_b == nullptr) return "a descriptor is NULL";
  if (x.desc_a->mb != x.desc_a->nb) return "A's blocks must be square (mb = nb)";
  if (x.n > 0 && x.ipiv == nullptr && x.desc_a->local_rows() > 0) return "ipiv is NULL";
  if (std::string why = blasmp::trsm_mismatch(getrs_solve(x, false)); !why.empty()) return why;
  return blasmp::trsm_mismatch(getrs_solve(x, true));
}

std::size_t getrs_workspace_bytes(const GetrsArgs& x) {
  return std::max(blasmp::trsm_workspace_bytes(getrs_solve(x, false)), blasmp::trsm_workspace_bytes(getrs_solve(x, true)));
}

void getrs(const blas::Settings& s0, const GetrsArgs& x, blas::CallReport* report) {
  if (const std::string why = getrs_mismatch(x); !why.empty()) throw UsageError("trnsolverMp getrs: " + why);
  const blas::Settings s = blasmp::device_settings(s0);
  Trace trace;
  const std::vector<std::int64_t> piv = global_pivots(x, s.target, trace);
  const bool n = x.trans == blas::COp::N;
  if (n) apply_pivots(x, piv, true, s.target, trace);
  blas::CallReport r1, r2;
  blasmp::trsm(s0, getrs_solve(x, false), report != nullptr ? &r1 : nullptr);
  blasmp::trsm(s0, getrs_solve(x, true), report != nullptr ? &r2 : nullptr);
  if (report != nullptr) trace.append(std::move(r1.trace)), trace.append(std::move(r2.trace));
  if (!n) apply_pivots(x, piv, false, s.target, trace);
  finish(s, std::move(trace), report);
}

}  // namespace trn::solvermp
