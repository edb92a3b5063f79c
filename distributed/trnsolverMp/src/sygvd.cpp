// trnsolverMp Sygvd: the distributed generalized symmetric- (Hermitian-) definite eigenproblem
// A x = lambda B x (itype 1; solvermp.hpp; docs/scale-out.md section 6.5), LAPACK xSYGVD's / xHEGVD's
// reduction (ScaLAPACK's PDSYGVX route: PDPOTRF, PDSYGST, the standard solver, PDTRSM back):
// Algorithm: B = L L^H (lower) or U^H U (upper) by Potrf in place; C = L^-1 A L^-H (U^-H A U^-1) by two
//   trnblasMp TRSMs (left, then right) on a full symmetric (Hermitian) copy of A (A's uplo triangle
//   mirrored, as Syevd builds its working copy); Syevd(C) = V diag(D) V^H; Z = L^-H V (U^-1 V) by one TRSM.
// Engines: Potrf's, Trsm's and Syevd's (trnblas TRSM / GEMM tile kernels on TensorE; the messages
//   their collectives).
// Accuracy: for a well-conditioned B the eigenvalues within c n u ||A|| ||B^-1|| of the exact ones,
//   ||A Z - B Z Lambda|| <= c n u ||A|| ||Z|| (Higham, Accuracy and Stability, section 8 / LAPACK Users'
//   Guide 4.10); tested against ScaLAPACK within 64 n u kappa(B) ||A|| / ||B||-scaled.
// Limits: itype 1 only (cuSOLVERMp's Sygvd implements ibtype 1 only); S, D, C, Z; square blocks; B and Z distributed as A; the whole matrices. A 1 x 1
//   grid runs trnsolver's single-device sygvd / hegvd (SyevdArgs::one_device_path; its bits).
#include <algorithm>
#include <cstring>
#include <utility>

#include "eig_one_device.hpp"
#include "exchange.hpp"
#include "local.hpp"
#include "rows.hpp"
#include "trn/blasmp/level3mp.hpp"
#include "trn/core/error.hpp"
#include "trn/solvermp/solvermp.hpp"

namespace trn::solvermp {

namespace {

using blasmp::detail::Carve;
using namespace detail;

// The reduction's pieces: Potrf of B, the full symmetric copy C of A (descriptor cd, in the workspace),
// the two TRSMs forming C, Syevd on C, the TRSM forming Z.
struct GvParts {
  Descriptor cd;
  PotrfArgs factor;
  blasmp::TrsmArgs left, right, back;
  SyevdArgs eig;
  std::size_t c_bytes = 0;
  explicit GvParts(const SygvdArgs& x) {
    const bool lower = x.uplo == blas::Uplo::lower;
    const blas::COp tr = x.complex ? blas::COp::C : blas::COp::T;  // Hermitian: L^-H, U^-H
    if (x.desc_a != nullptr && x.desc_a->grid != nullptr) {
      const Descriptor& a = *x.desc_a;
      cd = blasmp::make_descriptor(*a.grid, x.n, x.n, a.mb, a.mb, a.rsrc, a.csrc, a.type);
      c_bytes = blasmp::detail::aligned(blasmp::detail::local_bytes(cd, x.elem_bytes()));
    }
    static_cast<blasmp::Scalars&>(factor) = x;
    factor.uplo = x.uplo, factor.n = x.n, factor.a = x.b, factor.desc_a = x.desc_b;
    for (blasmp::TrsmArgs* t : {&left, &right, &back}) {
      static_cast<blasmp::Scalars&>(*t) = x;
      t->alpha = 1, t->alpha_im = 0, t->uplo = x.uplo, t->m = x.n, t->n = x.n, t->a = x.b, t->desc_a = x.desc_b;
    }
    left.side = blas::Side::left, left.trans = lower ? blas::COp::N : tr;   // L^-1 C  /  U^-T C
    right.side = blas::Side::right, right.trans = lower ? tr : blas::COp::N;  // C L^-T  /  C U^-1
    back.side = blas::Side::left, back.trans = lower ? tr : blas::COp::N;    // L^-T V  /  U^-1 V
    left.desc_b = right.desc_b = &cd;
    back.b = x.z, back.desc_b = x.desc_z;
    static_cast<SyevdArgs&>(eig) = x;
    eig.uplo = blas::Uplo::lower, eig.desc_a = &cd;
  }
  // The workspace after C (each step's in turn).
  void place(const SygvdArgs& x) {
    void* c = x.work;
    void* rest = x.work != nullptr ? static_cast<char*>(x.work) + c_bytes : nullptr;
    const std::size_t left_bytes = x.work_bytes >= c_bytes ? x.work_bytes - c_bytes : 0;
    left.b = right.b = eig.a = c;
    for (blasmp::Workspace* w : std::initializer_list<blasmp::Workspace*>{&factor, &left, &right, &back, &eig})
      w->work = rest, w->work_bytes = left_bytes;
  }
};

// C = A's uplo triangle mirrored: A^T (complex: A^H) redistributed into C, then A's stored triangle copied
// over it; Hermitian: the diagonal's imaginary parts zeroed (not read, as LAPACK's xHEGST takes
// DBLE(A(k, k))), before the TRSMs spread them.
void mirrored_copy(const SygvdArgs& x, const GvParts& p, Generation target, Trace& trace) {
  const Descriptor& a = *x.desc_a;
  const std::size_t es = x.elem_bytes();
  blasmp::redistribute(target, {&a, x.a, &p.cd, p.left.b, true, x.complex}, "trnsolverMp.sygvd.transpose_A", trace);
  blasmp::detail::copy_trapezoid(a, x.uplo, es, x.a, a.lld, p.left.b, p.cd.lld);
  const blasmp::Grid& g = *p.cd.grid;
  for (std::int64_t jl = 0; x.complex && jl < p.cd.local_cols(); ++jl) {
    const std::int64_t j = global_of(jl, p.cd.nb, g.mycol, p.cd.csrc, g.npcol);
    if (owner_of(j, p.cd.mb, p.cd.rsrc, g.nprow) == g.myrow)
      std::memset(at(p.left.b, local_of(j, p.cd.mb, g.nprow) + jl * p.cd.lld, es) + es / 2, 0, es / 2);
  }
}

}  // namespace

std::string sygvd_mismatch(const SygvdArgs& x) {
  if (x.itype != 1) return "only itype = 1 (A x = lambda B x) is supported";
  if (x.desc_a == nullptr || x.desc_b == nullptr || x.desc_a->grid == nullptr) return "a descriptor is NULL";
  const Descriptor &a = *x.desc_a, &b = *x.desc_b;
  if (b.grid != a.grid || b.m != a.m || b.n != a.n || b.mb != a.mb || b.nb != a.nb || b.rsrc != a.rsrc || b.csrc != a.csrc)
    return "B must be distributed as A (same grid, sizes, blocks and sources)";
  SyevdArgs own = x;  // A's and Z's own checks first (C has A's layout), before any size is computed from n
  own.work = &own, own.work_bytes = static_cast<std::size_t>(-1);
  if (std::string why = syevd_mismatch(own); !why.empty()) return why;
  GvParts p(x);
  p.factor.work = p.left.work = p.right.work = p.back.work = p.eig.work = &p;
  p.factor.work_bytes = p.left.work_bytes = p.right.work_bytes = p.back.work_bytes = p.eig.work_bytes = static_cast<std::size_t>(-1);
  if (std::string why = potrf_mismatch(p.factor); !why.empty()) return why;
  p.left.b = p.right.b = &p;
  if (std::string why = blasmp::trsm_mismatch(p.left); !why.empty()) return why;
  if (std::string why = blasmp::trsm_mismatch(p.right); !why.empty()) return why;
  if (x.vectors)
    if (std::string why = blasmp::trsm_mismatch(p.back); !why.empty()) return why;
  const std::size_t need = sygvd_workspace_bytes(x);
  if (x.work_bytes < need || (need > 0 && x.work == nullptr)) return "the workspace is smaller than the _bufferSize's";
  return {};
}

std::size_t sygvd_workspace_bytes(const SygvdArgs& x) {
  const GvParts p(x);
  if (x.desc_a == nullptr || x.desc_a->grid == nullptr || x.desc_b == nullptr) return 0;
  std::size_t steps = std::max({potrf_workspace_bytes(p.factor), blasmp::trsm_workspace_bytes(p.left),
                                blasmp::trsm_workspace_bytes(p.right), syevd_workspace_bytes(p.eig)});
  if (x.vectors && x.desc_z != nullptr) steps = std::max(steps, blasmp::trsm_workspace_bytes(p.back));
  return p.c_bytes + steps;
}

int sygvd(const blas::Settings& s0, const SygvdArgs& x, blas::CallReport* report) {
  if (const std::string why = sygvd_mismatch(x); !why.empty()) throw UsageError("trnsolverMp sygvd: " + why);
  const blas::Settings s = blasmp::device_settings(s0);
  if (on_one_device(x)) {  // trnsolver's single-device sygvd (its bits on one rank)
    Trace trace;
    blasmp::detail::record_exchange(*x.desc_a->grid, s.target, "trnsolverMp.sygvd.exchange", trace);
    const int info = one_device(s, x, x.itype, x.b, x.desc_b->lld, trace);
    blasmp::detail::finish_collective(s, std::move(trace), report);
    return info;
  }
  GvParts p(x);
  p.place(x);
  const bool rep = report != nullptr;
  blas::CallReport r;
  Trace trace;
  auto keep = [&] {
    if (rep) trace.append(std::move(r.trace));
  };
  const int info_b = potrf(s0, p.factor, rep ? &r : nullptr);
  keep();
  int info = info_b > 0 ? static_cast<int>(x.n) + info_b : 0;
  if (info == 0) {
    mirrored_copy(x, p, s.target, trace);
    blasmp::trsm(s0, p.left, rep ? &r : nullptr);
    keep();
    blasmp::trsm(s0, p.right, rep ? &r : nullptr);
    keep();
    info = syevd(s0, p.eig, rep ? &r : nullptr);
    keep();
    if (x.vectors && info == 0) {
      blasmp::trsm(s0, p.back, rep ? &r : nullptr);
      keep();
    }
  }
  if (rep) blasmp::detail::finish_collective(s, std::move(trace), report);
  return info;
}

}  // namespace trn::solvermp
