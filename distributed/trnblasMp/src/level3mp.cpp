// trnblasMp GEADD / TRADD, SYRK and TRSM (level3mp.hpp; docs/scale-out.md sections 2.3-2.5).
#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include "exchange.hpp"
#include "local.hpp"
#include "trn/blasmp/level3mp.hpp"
#include "trn/core/error.hpp"

namespace trn::blasmp {

namespace {

using detail::cd;

// What every routine checks first: descriptors present, on one grid, of the call's type.
std::string common_mismatch(const Scalars& t, std::initializer_list<const Descriptor*> ds) {
  const Grid* g = nullptr;
  for (const Descriptor* d : ds) {
    if (d == nullptr) return "a descriptor is NULL";
    if (d->grid == nullptr || (g != nullptr && d->grid != g)) return "the matrices must be on one grid";
    g = d->grid;
    if (d->type != t.type()) return "the descriptors' types do not match the call's type";
  }
  return {};
}

std::string workspace_mismatch(std::size_t have, const void* work, std::size_t need) {
  if (have < need || (need > 0 && work == nullptr)) return "the workspace is smaller than the _bufferSize's";
  return {};
}

bool same_layout(const Descriptor& a, const Descriptor& c) {
  return a.mb == c.mb && a.nb == c.nb && a.rsrc == c.rsrc && a.csrc == c.csrc;
}

// Copies the local block of d (lld ld_from) into `to` (ld = local rows).
void copy_local(const Descriptor& d, std::size_t es, const void* from, std::int64_t ld_from, void* to) {
  const std::int64_t rows = d.local_rows(), cols = d.local_cols();
  for (std::int64_t j = 0; j < cols; ++j)
    std::memcpy(static_cast<char*>(to) + static_cast<std::size_t>(j * rows) * es,
                static_cast<const char*>(from) + static_cast<std::size_t>(j * ld_from) * es, static_cast<std::size_t>(rows) * es);
}

void finish(const blas::Settings& s, Trace&& trace, blas::CallReport* report) {
  detail::finish_collective(s, std::move(trace), report);
}

// ---- GEADD / TRADD ----

// op(A) in C's layout (A itself when op N and the layouts agree), and tradd's result buffer.
struct AddOperands {
  Descriptor at;
  const void* a = nullptr;
  std::int64_t lda = 1;
  bool moved = false;
  void* out = nullptr;  // tradd: alpha op(A) + beta C before the trapezoid is copied into C
  AddOperands(const AddArgs& x, detail::Carve& carve) {
    const Descriptor &da = *x.desc_a, &dc = *x.desc_c;
    moved = x.op != blas::COp::N || !same_layout(da, dc);
    if (moved) {
      at = make_descriptor(*dc.grid, x.m, x.n, dc.mb, dc.nb, dc.rsrc, dc.csrc, dc.type);
      a = carve.take(detail::local_bytes(at, x.elem_bytes()));
      lda = at.lld;
    } else {
      a = x.a;
      lda = da.lld;
    }
    if (x.trapezoid) out = carve.take(static_cast<std::size_t>(dc.local_rows() * dc.local_cols()) * x.elem_bytes());
  }
};

// ---- TRSM ----

blas::Uplo flip(blas::Uplo u) { return u == blas::Uplo::lower ? blas::Uplo::upper : blas::Uplo::lower; }

// The system op'(A') X' = alpha B' every TRSM is reduced to: left side, op N, A' in B''s row blocks.
// Left: A' = op(A), B' = B. Right (X op(A) = alpha B): A' = op(A)^T, B' = B^T (redistributed back
// after the solve). Holds descriptors its pointers refer to: not copied.
struct TrsmSystem {
  Descriptor ad, bd;
  const Descriptor* da = nullptr;
  const Descriptor* db = nullptr;
  const void* a = nullptr;
  void* b = nullptr;
  blas::Uplo uplo = blas::Uplo::lower;
  bool move_a = false, move_b = false, a_transpose = false, a_conj = false;
  void* a_panel = nullptr;  // m_loc x nb: A''s block column, this process row's rows
  void* x_panel = nullptr;  // nb x n_loc: the solved block row of B', this process column's columns
  TrsmSystem(const TrsmArgs& x, detail::Carve& carve) {
    const Descriptor &A = *x.desc_a, &B = *x.desc_b;
    const Grid& g = *B.grid;
    const std::size_t es = x.elem_bytes();
    const bool right = x.side == blas::Side::right;
    move_b = right;
    if (right) {
      bd = make_descriptor(g, x.n, x.m, B.nb, B.mb, B.csrc, B.rsrc, B.type);
      b = carve.take(detail::local_bytes(bd, es));
      db = &bd;
    } else {
      b = x.b;
      db = &B;
    }
    a_transpose = right ? x.trans == blas::COp::N : x.trans != blas::COp::N;
    a_conj = x.complex && x.trans == blas::COp::C;
    uplo = a_transpose ? flip(x.uplo) : x.uplo;
    move_a = a_transpose || a_conj || A.mb != db->mb || A.nb != db->mb || A.rsrc != db->rsrc;
    if (move_a) {
      ad = make_descriptor(g, db->m, db->m, db->mb, db->mb, db->rsrc, 0, B.type);
      a = carve.take(detail::local_bytes(ad, es));
      da = &ad;
    } else {
      a = x.a;
      da = &A;
    }
    const std::int64_t nb = db->mb;
    a_panel = carve.take(static_cast<std::size_t>(db->local_rows() * nb) * es);
    x_panel = carve.take(static_cast<std::size_t>(nb * db->local_cols()) * es);
  }
};

// One step of the block substitution: block row i of B' (rows r0..r0+kb) solved and applied.
struct TrsmStep {
  std::int64_t i, r0, kb;
  bool first;
};

void trsm_step(const detail::Local& loc, const TrsmSystem& sys, const TrsmArgs& x, const TrsmStep& st, Generation target,
               Trace& trace) {
  const Descriptor &A = *sys.da, &B = *sys.db;
  const Grid& g = *B.grid;
  const std::size_t es = x.elem_bytes();
  const std::int64_t nb = B.mb, m_loc = B.local_rows(), n_loc = B.local_cols();
  const auto pr = static_cast<int>((B.rsrc + st.i) % g.nprow), pc = static_cast<int>((A.csrc + st.i) % g.npcol);
  char* ap = static_cast<char*>(sys.a_panel);
  char* xp = static_cast<char*>(sys.x_panel);
  char* b = static_cast<char*>(sys.b);
  if (g.mycol == pc) {  // A''s block column i: local columns lc0.. of this process column
    const std::int64_t lc0 = numroc(st.r0, nb, pc, A.csrc, g.npcol);
    for (std::int64_t j = 0; j < st.kb; ++j)
      std::memcpy(ap + static_cast<std::size_t>(j * m_loc) * es,
                  static_cast<const char*>(sys.a) + static_cast<std::size_t>((lc0 + j) * A.lld) * es,
                  static_cast<std::size_t>(m_loc) * es);
  }
  detail::broadcast(g.row_comm, g.row_set(), pc, g.mycol, ap, static_cast<std::size_t>(m_loc * st.kb) * es,
                    "trnblasMp.trsm.broadcast_A", target, trace);
  const cd scale = st.first ? cd(x.alpha, x.alpha_im) : cd(1.0);
  if (g.myrow == pr) {  // solve the diagonal block against this process row's block row of B'
    const std::int64_t lr0 = numroc(st.r0, nb, pr, B.rsrc, g.nprow);
    detail::local_trsm(loc, blas::Side::left, sys.uplo, blas::COp::N, x.diag, st.kb, n_loc, B.n, scale, ap + static_cast<std::size_t>(lr0) * es, m_loc,
                       b + static_cast<std::size_t>(lr0) * es, B.lld);
    for (std::int64_t j = 0; j < n_loc; ++j)
      std::memcpy(xp + static_cast<std::size_t>(j * st.kb) * es, b + static_cast<std::size_t>(lr0 + j * B.lld) * es,
                  static_cast<std::size_t>(st.kb) * es);
  }
  detail::broadcast(g.col_comm, g.col_set(), pr, g.myrow, xp, static_cast<std::size_t>(st.kb * n_loc) * es,
                    "trnblasMp.trsm.broadcast_X", target, trace);
  // The rows still to solve: below block i (lower), above it (upper).
  const bool lower = sys.uplo == blas::Uplo::lower;
  const std::int64_t s0 = lower ? numroc(st.r0 + st.kb, nb, g.myrow, B.rsrc, g.nprow) : 0;
  const std::int64_t cnt = lower ? m_loc - s0 : numroc(st.r0, nb, g.myrow, B.rsrc, g.nprow);
  detail::local_gemm(loc, cnt, n_loc, st.kb, cd(-1.0), ap + static_cast<std::size_t>(s0) * es, m_loc, xp, st.kb, scale,
                     b + static_cast<std::size_t>(s0) * es, B.lld);
}

}  // namespace

// ---- GEADD / TRADD ----

std::string add_mismatch(const AddArgs& x) {
  if (std::string why = common_mismatch(x, {x.desc_a, x.desc_c}); !why.empty()) return why;
  const Descriptor &a = *x.desc_a, &c = *x.desc_c;
  const bool n = x.op == blas::COp::N;
  if (c.m != x.m || c.n != x.n || (n ? a.m : a.n) != x.m || (n ? a.n : a.m) != x.n)
    return "the descriptors' sizes do not match m, n";
  return workspace_mismatch(x.work_bytes, x.work, add_workspace_bytes(x));
}

std::size_t add_workspace_bytes(const AddArgs& x) {
  detail::Carve carve;
  const AddOperands ops(x, carve);
  return carve.used;
}

void geadd(const blas::Settings& s0, const AddArgs& x, blas::CallReport* report) {
  if (const std::string why = add_mismatch(x); !why.empty()) throw UsageError("trnblasMp geadd: " + why);
  const blas::Settings s = device_settings(s0);
  const Descriptor& dc = *x.desc_c;
  Trace trace;
  detail::record_exchange(*dc.grid, s.target, x.trapezoid ? "trnblasMp.tradd.exchange" : "trnblasMp.geadd.exchange", trace);
  detail::Carve carve{static_cast<char*>(x.work)};
  const AddOperands ops(x, carve);
  if (ops.moved)
    redistribute(s.target, {x.desc_a, x.a, &ops.at, const_cast<void*>(ops.a), x.op != blas::COp::N,
                            x.complex && x.op == blas::COp::C},
                 "trnblasMp.geadd.redistribute_A", trace);
  const detail::Local loc = detail::make_local(s, x, trace);
  const std::int64_t m_loc = dc.local_rows(), n_loc = dc.local_cols();
  const cd alpha(x.alpha, x.alpha_im), beta(x.beta, x.beta_im);
  if (!x.trapezoid) {
    detail::local_geam(loc, m_loc, n_loc, alpha, ops.a, ops.lda, beta, x.c, dc.lld, x.c, dc.lld);
  } else {
    detail::local_geam(loc, m_loc, n_loc, alpha, ops.a, ops.lda, beta, x.c, dc.lld, ops.out, std::max<std::int64_t>(m_loc, 1));
    detail::copy_trapezoid(dc, x.uplo, x.elem_bytes(), ops.out, std::max<std::int64_t>(m_loc, 1), x.c, dc.lld);
  }
  finish(s, std::move(trace), report);
}

// ---- SYRK ----

namespace {

// The GEMM a SYRK runs: alpha op(A) op(A)^T + beta Ct, Ct a copy of C in C's layout (lld: local rows).
GemmArgs syrk_gemm(const SyrkArgs& x, const Descriptor* ct, void* c_copy) {
  GemmArgs y;
  static_cast<Scalars&>(y) = x;
  const bool n = x.trans == blas::COp::N;
  y.op_a = n ? blas::COp::N : blas::COp::T;
  y.op_b = n ? blas::COp::T : blas::COp::N;
  y.m = y.n = x.n;
  y.k = x.k;
  y.a = y.b = x.a;
  y.desc_a = y.desc_b = x.desc_a;
  y.c = c_copy;
  y.desc_c = ct;
  y.work_bytes = std::numeric_limits<std::size_t>::max();
  static char sizing_only;  // the layout checks only (the workspace is syrk's)
  y.work = c_copy == nullptr ? &sizing_only : c_copy;
  return y;
}

}  // namespace

std::string syrk_mismatch(const SyrkArgs& x) {
  if (std::string why = common_mismatch(x, {x.desc_a, x.desc_c}); !why.empty()) return why;
  if (x.complex && x.trans == blas::COp::C) return "complex SYRK takes trans N or T (C is HERK's)";
  const Descriptor& c = *x.desc_c;
  if (c.m != x.n || c.n != x.n) return "C must be n x n";
  const Descriptor ct = make_descriptor(*c.grid, c.m, c.n, c.mb, c.nb, c.rsrc, c.csrc, c.type);
  if (std::string why = gemm_mismatch(syrk_gemm(x, &ct, nullptr)); !why.empty()) return why;
  return workspace_mismatch(x.work_bytes, x.work, syrk_workspace_bytes(x));
}

std::size_t syrk_workspace_bytes(const SyrkArgs& x) {
  const Descriptor& c = *x.desc_c;
  const Descriptor ct = make_descriptor(*c.grid, c.m, c.n, c.mb, c.nb, c.rsrc, c.csrc, c.type);
  return detail::aligned(detail::local_bytes(ct, x.elem_bytes())) + gemm_workspace_bytes(syrk_gemm(x, &ct, nullptr));
}

void syrk(const blas::Settings& s0, const SyrkArgs& x, blas::CallReport* report) {
  if (const std::string why = syrk_mismatch(x); !why.empty()) throw UsageError("trnblasMp syrk: " + why);
  const blas::Settings s = device_settings(s0);
  const Descriptor& c = *x.desc_c;
  const Descriptor ct = make_descriptor(*c.grid, c.m, c.n, c.mb, c.nb, c.rsrc, c.csrc, c.type);
  Trace trace;
  detail::record_exchange(*c.grid, s.target, "trnblasMp.syrk.exchange", trace);
  char* work = static_cast<char*>(x.work);
  copy_local(c, x.elem_bytes(), x.c, c.lld, work);
  detail::Carve carve{work + detail::aligned(detail::local_bytes(ct, x.elem_bytes()))};
  const SummaPlan plan = detail::gemm_in(s, syrk_gemm(x, &ct, work), carve, trace);
  detail::copy_trapezoid(c, x.uplo, x.elem_bytes(), work, ct.lld, x.c, c.lld);
  finish(s, std::move(trace), report);
  if (report != nullptr) report->add_plan(plan);
}

// ---- TRSM ----

std::string trsm_mismatch(const TrsmArgs& x) {
  if (std::string why = common_mismatch(x, {x.desc_a, x.desc_b}); !why.empty()) return why;
  const Descriptor &a = *x.desc_a, &b = *x.desc_b;
  const std::int64_t na = x.side == blas::Side::left ? x.m : x.n;
  if (b.m != x.m || b.n != x.n) return "B's descriptor must be m x n";
  if (a.m != na || a.n != na) return "A's descriptor must be m x m (left) or n x n (right)";
  return workspace_mismatch(x.work_bytes, x.work, trsm_workspace_bytes(x));
}

std::size_t trsm_workspace_bytes(const TrsmArgs& x) {
  detail::Carve carve;
  const TrsmSystem sys(x, carve);
  return carve.used;
}

void trsm(const blas::Settings& s0, const TrsmArgs& x, blas::CallReport* report) {
  if (const std::string why = trsm_mismatch(x); !why.empty()) throw UsageError("trnblasMp trsm: " + why);
  const blas::Settings s = device_settings(s0);
  Trace trace;
  detail::record_exchange(*x.desc_b->grid, s.target, "trnblasMp.trsm.exchange", trace);
  detail::Carve carve{static_cast<char*>(x.work)};
  const TrsmSystem sys(x, carve);
  if (sys.move_b) redistribute(s.target, {x.desc_b, x.b, sys.db, sys.b, true, false}, "trnblasMp.trsm.transpose_B", trace);
  if (sys.move_a)
    redistribute(s.target, {x.desc_a, x.a, sys.da, const_cast<void*>(sys.a), sys.a_transpose, sys.a_conj},
                 "trnblasMp.trsm.redistribute_A", trace);
  const detail::Local loc = detail::make_local(s, x, trace);
  const std::int64_t nb = sys.db->mb, M = sys.db->m, blocks = (M + nb - 1) / nb;
  for (std::int64_t t = 0; t < blocks; ++t) {
    const std::int64_t i = sys.uplo == blas::Uplo::lower ? t : blocks - 1 - t;
    trsm_step(loc, sys, x, {i, i * nb, std::min(M, (i + 1) * nb) - i * nb, t == 0}, s.target, trace);
  }
  if (sys.move_b) redistribute(s.target, {sys.db, sys.b, x.desc_b, x.b, true, false}, "trnblasMp.trsm.transpose_X", trace);
  finish(s, std::move(trace), report);
}

}  // namespace trn::blasmp
