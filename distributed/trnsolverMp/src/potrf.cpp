// trnsolverMp Potrf / Potrs: distributed block Cholesky (solvermp.hpp; docs/scale-out.md section 6).
#include <algorithm>
#include <climits>
#include <complex>
#include <cstring>
#include <utility>
#include <vector>

#include "exchange.hpp"
#include "local.hpp"
#include "rows.hpp"
#include "trn/core/error.hpp"
#include "trn/core/link_step.hpp"
#include "trn/core/scratch.hpp"
#include "trn/solver/complex_factor.hpp"
#include "trn/solver/solver.hpp"
#include "trn/solvermp/solvermp.hpp"

namespace trn::solvermp {

namespace {

using blasmp::detail::Carve;
using blasmp::detail::cd;
using blasmp::detail::Local;
using blasmp::numroc;
using detail::at;
using detail::DriverPrologue;
using detail::finish;

// The lower problem's working copy W (A, or A^T for upper, in A's blocks; lld = local rows) and the
// per-step buffers. Holds the descriptor W's pointers refer to: not copied.
struct PotrfBuffers {
  Descriptor wd;
  void* w = nullptr;
  void* back = nullptr;  // upper: U = W^T in A's layout before its triangle is copied into A
  void* diag = nullptr;  // nb x nb: L_ii
  void* lrow = nullptr;  // m_loc x nb: my rows of the panel L(:, i)
  void* lcol = nullptr;  // nb x n_loc: L(j, i)^T for my columns j
  PotrfBuffers(const PotrfArgs& x, Carve& carve) {
    const Descriptor& a = *x.desc_a;
    const std::size_t es = x.elem_bytes();
    wd = blasmp::make_descriptor(*a.grid, x.n, x.n, a.mb, a.mb, a.rsrc, a.csrc, a.type);
    w = carve.take(blasmp::detail::local_bytes(wd, es));
    if (x.uplo == blas::Uplo::upper) back = carve.take(blasmp::detail::local_bytes(wd, es));
    diag = carve.take(static_cast<std::size_t>(a.mb * a.mb) * es);
    lrow = carve.take(static_cast<std::size_t>(wd.local_rows() * a.mb) * es);
    lcol = carve.take(static_cast<std::size_t>(a.mb * wd.local_cols()) * es);
  }
};

// trnsolver's Cholesky of the kb x kb diagonal block (lower), on the rank's device.
int local_potrf(const Local& l, std::int64_t kb, void* a, std::int64_t lda) {
  solver::Settings ss;
  static_cast<EmulatorSettings&>(ss) = static_cast<const EmulatorSettings&>(l.st);
  solver::CallReport r;
  const blas::Uplo lo = blas::Uplo::lower;
  int info = 0;
  if (l.t.complex && l.t.fp64)
    info = solver::potrf(ss, lo, kb, static_cast<std::complex<double>*>(a), lda, &r);
  else if (l.t.complex)
    info = solver::potrf(ss, lo, kb, static_cast<std::complex<float>*>(a), lda, &r);
  else
    info = l.t.fp64 ? solver::dpotrf(ss, lo, kb, static_cast<double*>(a), lda, &r)
                    : solver::spotrf(ss, lo, kb, static_cast<float*>(a), lda, &r);
  l.trace->append(std::move(r.trace));
  return info;
}

// L(j, i)^T (complex: L(j, i)^H) for my local columns j >= r1 (global), gathered along my process
// column: each process row contributes the rows of its panel whose global index is one of this
// process column's columns.
void gather_transposed_panel(const Local& l, const Descriptor& wd, std::int64_t r1, std::int64_t kb, std::size_t es,
                             const char* lrow, char* lcol, Generation target) {
  const blasmp::Grid& g = *wd.grid;
  const std::int64_t nb = wd.mb, n = wd.n, m_loc = wd.local_rows();
  auto row_owner = [&](std::int64_t j) { return static_cast<int>((wd.rsrc + j / nb) % g.nprow); };
  auto col_owner = [&](std::int64_t j) { return static_cast<int>((wd.csrc + j / nb) % g.npcol); };
  std::vector<int> counts(static_cast<std::size_t>(g.nprow)), displs(static_cast<std::size_t>(g.nprow));
  ScratchVector<char> send;
  const auto row_bytes = static_cast<std::size_t>(kb) * es;
  for (std::int64_t j = r1; j < n; ++j) {
    if (col_owner(j) != g.mycol) continue;
    counts[static_cast<std::size_t>(row_owner(j))] += static_cast<int>(row_bytes);
    if (row_owner(j) != g.myrow) continue;
    const std::int64_t il = (j / nb / g.nprow) * nb + j % nb;  // its local row
    for (std::int64_t p = 0; p < kb; ++p) {
      const char* e = lrow + static_cast<std::size_t>(il + p * m_loc) * es;
      send.insert(send.end(), e, e + es);
    }
  }
  std::size_t total = 0;
  for (int q = 0; q < g.nprow; ++q) {
    displs[static_cast<std::size_t>(q)] = static_cast<int>(total);
    total += static_cast<std::size_t>(counts[static_cast<std::size_t>(q)]);
  }
  if (total > static_cast<std::size_t>(INT_MAX)) throw NotSupportedError("trnsolverMp potrf", "a panel message over 2 GiB", "any");
  ScratchVector<char> recv(total);
  blasmp::detail::check_mpi(MPI_Allgatherv(send.data(), static_cast<int>(send.size()), MPI_BYTE, recv.data(), counts.data(),
                                           displs.data(), MPI_BYTE, g.col_comm),
                            "MPI_Allgatherv");
  std::vector<std::size_t> cursor(displs.begin(), displs.end());
  const std::int64_t c0 = numroc(r1, nb, g.mycol, wd.csrc, g.npcol), n_loc = wd.local_cols();
  for (std::int64_t jl = c0; jl < n_loc; ++jl) {
    const std::int64_t j = ((jl / nb) * g.npcol + (g.mycol - wd.csrc + g.npcol) % g.npcol) * nb + jl % nb;
    std::size_t& cur = cursor[static_cast<std::size_t>(row_owner(j))];
    std::memcpy(lcol + static_cast<std::size_t>(jl * kb) * es, recv.data() + cur, row_bytes);
    for (std::int64_t p = 0; l.t.complex && p < kb; ++p)
      blasmp::detail::conjugate(lcol + static_cast<std::size_t>(jl * kb + p) * es, es);
    cur += row_bytes;
  }
  LinkTransfer t;
  t.name = "trnsolverMp.potrf.allgather_panel_T";
  t.ns = allgather_ns(fabric_spec(target), g.col_set(), static_cast<double>(total));
  t.peers = blasmp::detail::peers_over(g.col_comm);
  if (total > 0 && n_loc > c0) {
    t.receives[0].data = lcol + static_cast<std::size_t>(c0 * kb) * es;
    t.receives[0].hull = t.receives[0].bytes = static_cast<std::size_t>((n_loc - c0) * kb) * es;
  }
  record_link_transfer(*l.trace, t);
}

// One step of the right-looking factorisation: block column i (rows r0..r0+kb). Returns the info
// every rank agrees on (0, or the order of the first non-positive-definite minor).
int potrf_step(const Local& l, const PotrfBuffers& b, std::int64_t i, Generation target) {
  const Descriptor& wd = b.wd;
  const blasmp::Grid& g = *wd.grid;
  const std::size_t es = l.t.elem_bytes();
  const std::int64_t nb = wd.mb, r0 = i * nb, kb = std::min(wd.n, r0 + nb) - r0, r1 = r0 + kb;
  const std::int64_t m_loc = wd.local_rows(), n_loc = wd.local_cols(), ld = wd.lld;
  const auto pr = static_cast<int>((wd.rsrc + i) % g.nprow), pc = static_cast<int>((wd.csrc + i) % g.npcol);
  const std::int64_t lc0 = numroc(r0, nb, g.mycol, wd.csrc, g.npcol), s0 = numroc(r1, nb, g.myrow, wd.rsrc, g.nprow);
  int info = 0;
  if (g.myrow == pr && g.mycol == pc) {
    const std::int64_t lr0 = numroc(r0, nb, pr, wd.rsrc, g.nprow);
    const int local = local_potrf(l, kb, at(b.w, lr0 + lc0 * ld, es), ld);
    info = local > 0 ? static_cast<int>(r0) + local : 0;
    for (std::int64_t j = 0; j < kb; ++j)
      std::memcpy(at(b.diag, j * kb, es), at(b.w, lr0 + (lc0 + j) * ld, es), static_cast<std::size_t>(kb) * es);
  }
  blasmp::detail::broadcast(g.comm, RankSet{0, 1, g.nprow * g.npcol}, g.rank_of(pr, pc), g.rank, &info, sizeof info,
                            "trnsolverMp.potrf.broadcast_info", target, *l.trace);
  if (info != 0) return info;
  if (g.mycol == pc) {  // the panel below the diagonal block: L(:, i) = A(:, i) L_ii^-T (complex: ^-H)
    blasmp::detail::broadcast(g.col_comm, g.col_set(), pr, g.myrow, b.diag, static_cast<std::size_t>(kb * kb) * es,
                              "trnsolverMp.potrf.broadcast_diag", target, *l.trace);
    blasmp::detail::local_trsm(l, blas::Side::right, blas::Uplo::lower, l.t.complex ? blas::COp::C : blas::COp::T, blas::Diag::non_unit, m_loc - s0, kb, wd.n - r1,
                               cd(1.0), b.diag, kb, at(b.w, s0 + lc0 * ld, es), ld);
    for (std::int64_t j = 0; j < kb; ++j)
      std::memcpy(at(b.lrow, j * m_loc, es), at(b.w, (lc0 + j) * ld, es), static_cast<std::size_t>(m_loc) * es);
  }
  blasmp::detail::broadcast(g.row_comm, g.row_set(), pc, g.mycol, b.lrow, static_cast<std::size_t>(m_loc * kb) * es,
                            "trnsolverMp.potrf.broadcast_panel", target, *l.trace);
  gather_transposed_panel(l, wd, r1, kb, es, static_cast<const char*>(b.lrow), static_cast<char*>(b.lcol), target);
  const std::int64_t c0 = numroc(r1, nb, g.mycol, wd.csrc, g.npcol);
  blasmp::detail::local_gemm(l, m_loc - s0, n_loc - c0, kb, cd(-1.0), at(b.lrow, s0, es), m_loc, at(b.lcol, c0 * kb, es), kb,
                             cd(1.0), at(b.w, s0 + c0 * ld, es), ld);
  return 0;
}

}  // namespace

std::string potrf_mismatch(const PotrfArgs& x) {
  return detail::factor_mismatch(x, x.n, x.n, "n x n", potrf_workspace_bytes);
}

std::size_t potrf_workspace_bytes(const PotrfArgs& x) {
  Carve carve;
  const PotrfBuffers b(x, carve);
  return carve.used;
}

int potrf(const blas::Settings& s0, const PotrfArgs& x, blas::CallReport* report) {
  DriverPrologue p(s0, x, potrf_mismatch, "potrf", "trnsolverMp.potrf.exchange");
  const blas::Settings& s = p.s;
  Trace& trace = p.trace;
  const Descriptor& a = *x.desc_a;
  const std::size_t es = x.elem_bytes();
  const PotrfBuffers b(x, p.carve);
  const bool upper = x.uplo == blas::Uplo::upper;
  if (upper)  // the lower problem: W = A^T (complex: A^H; only A's upper triangle is used)
    blasmp::redistribute(s.target, {&a, x.a, &b.wd, b.w, true, x.complex}, "trnsolverMp.potrf.transpose_A", trace);
  else
    for (std::int64_t j = 0; j < a.local_cols(); ++j)
      std::memcpy(at(b.w, j * b.wd.lld, es), at(x.a, j * a.lld, es), static_cast<std::size_t>(a.local_rows()) * es);
  const Local l = p.local(x);
  const std::int64_t blocks = (x.n + a.mb - 1) / a.mb;
  int info = 0;
  for (std::int64_t i = 0; i < blocks && info == 0; ++i) info = potrf_step(l, b, i, s.target);
  if (upper) {
    // W has A's layout (lld: its local rows): U = W^T (complex: W^H) into `back`, then U's triangle into A.
    blasmp::redistribute(s.target, {&b.wd, b.w, &b.wd, b.back, true, x.complex}, "trnsolverMp.potrf.transpose_U", trace);
    blasmp::detail::copy_trapezoid(a, blas::Uplo::upper, es, b.back, b.wd.lld, x.a, a.lld);
  } else {
    blasmp::detail::copy_trapezoid(a, blas::Uplo::lower, es, b.w, b.wd.lld, x.a, a.lld);
  }
  finish(s, std::move(trace), report);
  return info;
}

namespace {

// Potrs's two solves: op(A_1) Y = B, op(A_2) X = Y (lower: L then L^T; upper: U^T then U).
blasmp::TrsmArgs potrs_solve(const PotrsArgs& x, bool second) {
  blasmp::TrsmArgs t;
  static_cast<blasmp::Scalars&>(t) = x;
  t.alpha = 1, t.alpha_im = 0;
  t.side = blas::Side::left;
  t.uplo = x.uplo;
  const bool transposed = (x.uplo == blas::Uplo::lower) == second;
  t.trans = transposed ? (x.complex ? blas::COp::C : blas::COp::T) : blas::COp::N;
  t.m = x.n, t.n = x.nrhs;
  static_cast<blasmp::SolveOperands&>(t) = x;
  static_cast<blasmp::Workspace&>(t) = x;
  return t;
}

}  // namespace

std::string potrs_mismatch(const PotrsArgs& x) {
  if (std::string why = blasmp::trsm_mismatch(potrs_solve(x, false)); !why.empty()) return why;
  return blasmp::trsm_mismatch(potrs_solve(x, true));
}

std::size_t potrs_workspace_bytes(const PotrsArgs& x) {
  return std::max(blasmp::trsm_workspace_bytes(potrs_solve(x, false)), blasmp::trsm_workspace_bytes(potrs_solve(x, true)));
}

void potrs(const blas::Settings& s, const PotrsArgs& x, blas::CallReport* report) {
  if (const std::string why = potrs_mismatch(x); !why.empty()) throw UsageError("trnsolverMp potrs: " + why);
  blas::CallReport r1, r2;
  blasmp::trsm(s, potrs_solve(x, false), report != nullptr ? &r1 : nullptr);
  blasmp::trsm(s, potrs_solve(x, true), report != nullptr ? &r2 : nullptr);
  if (report == nullptr) return;
  Trace trace = std::move(r1.trace);
  trace.append(std::move(r2.trace));
  finish(blasmp::device_settings(s), std::move(trace), report);
}

}  // namespace trn::solvermp
