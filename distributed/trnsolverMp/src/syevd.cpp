// trnsolverMp Syevd: the distributed symmetric (S, D) and Hermitian (C, Z) eigensolver (solvermp.hpp;
// docs/scale-out.md section 6.5).
// Algorithm: ScaLAPACK PDSYEVD's three stages (Tisseur & Dongarra, "A parallel divide and conquer
//   algorithm for the symmetric eigenvalue problem on distributed memory architectures", SISC 20(6),
//   1999; PZHEEVD's for complex data), on a full symmetric (Hermitian) working copy W of A (both
//   triangles, A's layout, the diagonal real, scaled by a power of two):
//   1. tridiagonalisation Q^H W Q = T column by column (LAPACK xSYTD2's / xHETD2's order, as ScaLAPACK's
//      PDSYTD2; complex reflectors with real beta, so T is real):
//      column k gathered on its process column and shared along the process rows; its reflector
//      (v, tau, beta) built by trnsolver's geqrf panel step on every rank alike; y = W22 v as local
//      GEMMs summed along the process row in process-column order (rows.hpp's ordered_sum); x = tau y,
//      w = x - (tau / 2)(x^H v) v; W22 -= v w^H + w v^H as one local GEMM per rank (k = 2);
//   2. T's eigenvalues and eigenvectors by trnsolver's (real) divide and conquer (stedc) on every rank,
//      the same input and kernel everywhere (the same bits on every rank, no message);
//   3. Z = Q V: each rank's piece of V, then Ormqr (N) with the reflectors stored shifted one column
//      (reflector k in column k + 1, rows k + 1..: xGEQRF's storage; column 0 the identity, tau 0).
// Engines: y = W22 v and the rank-2 update are trnblas GEMMs (TensorE: fp32 mode for S, Ozaki for D, 4M
//   complex products for C and Z);
//   the column sums trnblas GEAMs; the reflectors trnsolver's geqrf panel step and w's O(n) corrections
//   recorded host steps (fp64), as trnsolver's sytrd; stedc as trnsolver's syevd (host secular
//   equations, TensorE merge GEMMs); the back-transformation Ormqr's GEMMs; every message an MPI
//   collective recorded as a link transfer.
// Accuracy: Householder tridiagonalisation and divide and conquer are backward stable: |lambda_i -
//   lambda_i(A)| <= c n u ||A||, ||A Z - Z Lambda|| <= c n u ||A||, ||Z^T Z - I|| <= c n u (Higham,
//   Accuracy and Stability, Thm 19.4 / 19.5; Tisseur & Dongarra 1999); tested within 16 n u.
// Limits: square blocks; the whole matrix; Z with A's grid, MB and RSRC; the
//   tridiagonalisation is unblocked (Level-2: 4 small collectives and a rank-2 GEMM per column, no
//   PDLATRD panel); stedc is replicated (n^2 elements of V on every rank); messages under 2 GiB.
// Determinism: every sum has a fixed order (the row sums in process-column order, GEAMs); the bits are
//   fixed by the grid shape and the block size, not by the host threads or the run. The column-by-column
//   distributed order differs from trnsolver's single-device syevd (its blocked xLATRD panel with symv /
//   SYR2K updates sums in another order), so a 1 x 1 grid runs that single-device driver (syevd, or
//   heevd for complex data) instead (SyevdArgs::one_device_path; nothing to distribute on one device): the
//   1-rank call gives its bits.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "eig_internal.hpp"
#include "eig_one_device.hpp"
#include "exchange.hpp"
#include "local.hpp"
#include "rows.hpp"
#include "trn/blasmp/level3mp.hpp"
#include "trn/core/error.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/link_step.hpp"
#include "trn/core/scratch.hpp"
#include "trn/solver/complex_eig.hpp"
#include "trn/solver/qr.hpp"
#include "trn/solvermp/solvermp.hpp"

namespace trn::solvermp {

namespace {

using blasmp::numroc;
using blasmp::detail::Carve;
using blasmp::detail::cd;
using blasmp::detail::Local;
using namespace detail;
using solver::detail::conj_fp64;
using solver::detail::Fp64;
using solver::detail::from_fp64;
using solver::detail::kIsComplex;
using solver::detail::to_fp64;

// The real type of a working-precision scalar (float for C, double for Z): the eigenvalues' and T's.
template <class T>
using RealOf = decltype(std::real(T{}));

// The working copy, the reflectors and the per-column buffers (carved from the workspace).
struct EigBuffers {
  Descriptor wd;              // n x n in A's blocks and sources, lld its local rows
  void* w = nullptr;          // the full symmetric working copy W
  void* refl = nullptr;       // A^T while W is built, then the reflector matrix (v_k in column k + 1)
  void* tauq = nullptr;       // the reflectors' tau, LOCc(n) (column k + 1: tau_k; column 0: 0)
  void* col = nullptr;        // column k of W, rows k .. n - 1
  void* panel = nullptr;      // the reflector's panel (n)
  void* v = nullptr;          // the explicit reflector (n)
  void* t = nullptr;          // its T (1 x 1) and tau
  void* tau = nullptr;
  void* vloc = nullptr;       // v at my columns (n_loc)
  void* y = nullptr;          // my rows of W22 v (m_loc, by local row)
  void* gathered = nullptr;   // every process column's partial y (npcol x m_loc)
  void* yfull = nullptr;      // y (n)
  void* wv = nullptr;         // w (n)
  void* left = nullptr;       // [v w] at my rows (m_loc x 2)
  void* right = nullptr;      // [w v]^T at my columns (2 x n_loc)
  void* zfull = nullptr;      // the tridiagonal's eigenvectors, n x n on every rank (vectors)
  void* rest = nullptr;       // Ormqr's workspace
  EigBuffers(const SyevdArgs& x, Carve& carve) {
    const Descriptor& a = *x.desc_a;
    const std::size_t es = x.elem_bytes();
    wd = blasmp::make_descriptor(*a.grid, x.n, x.n, a.mb, a.mb, a.rsrc, a.csrc, a.type);
    const auto n = static_cast<std::size_t>(std::max<std::int64_t>(x.n, 1));
    const auto ml = static_cast<std::size_t>(std::max<std::int64_t>(wd.local_rows(), 1));
    const auto nl = static_cast<std::size_t>(std::max<std::int64_t>(wd.local_cols(), 1));
    w = carve.take(blasmp::detail::local_bytes(wd, es));
    refl = carve.take(blasmp::detail::local_bytes(wd, es));
    tauq = carve.take(nl * es);
    col = carve.take(n * es), panel = carve.take(n * es), v = carve.take(n * es);
    t = carve.take(es), tau = carve.take(es);
    vloc = carve.take(nl * es), y = carve.take(ml * es);
    gathered = carve.take(static_cast<std::size_t>(a.grid->npcol) * ml * es);
    yfull = carve.take(n * es), wv = carve.take(n * es);
    left = carve.take(2 * ml * es), right = carve.take(2 * nl * es);
    if (x.vectors) zfull = carve.take(n * n * es);
    rest = carve.take(0);
  }
};

// Ormqr's arguments for Z = Q Z with the shifted reflectors (k = n: column 0 is the identity).
OrmqrArgs back_transform_args(const SyevdArgs& x, const EigBuffers& b) {
  OrmqrArgs o;
  static_cast<blasmp::Scalars&>(o) = x;
  o.trans = blas::COp::N;
  o.m = x.n, o.n = x.n, o.k = x.n, o.a = b.refl, o.desc_a = &b.wd, o.tau = b.tauq, o.c = x.z, o.desc_c = x.desc_z;
  return o;
}

// W = A's uplo triangle mirrored (A^H redistributed into b.refl for the other triangle; Hermitian: the
// diagonal's imaginary parts are not read, as LAPACK's xHEEVD), scaled by the power of two that brings
// max |a_ij| into [1, 2) (exact), as trnsolver's syevd. Returns that scale, the same on every rank (a MAX
// allreduce), or 0 when A holds Inf or NaN.
template <class T>
double symmetric_copy(const SyevdArgs& x, const EigBuffers& b, Generation target, Trace& trace) {
  const Descriptor& a = *x.desc_a;
  const blasmp::Grid& g = *a.grid;
  blasmp::redistribute(target, {&a, x.a, &b.wd, b.refl, true, kIsComplex<T>}, "trnsolverMp.syevd.transpose_A", trace);
  const T* src = static_cast<const T*>(x.a);
  const T* tr = static_cast<const T*>(b.refl);
  T* w = static_cast<T*>(b.w);
  const std::int64_t ml = b.wd.local_rows(), nl = b.wd.local_cols(), ld = b.wd.lld;
  double mine[2] = {0, 0};  // max |a_ij|, and 1 when an entry is not finite
  for (std::int64_t jl = 0; jl < nl; ++jl)
    for (std::int64_t il = 0; il < ml; ++il) {
      const std::int64_t i = global_of(il, a.mb, g.myrow, a.rsrc, g.nprow), j = global_of(jl, a.nb, g.mycol, a.csrc, g.npcol);
      const bool stored = x.uplo == blas::Uplo::lower ? i >= j : i <= j;
      const T e = i == j ? T(std::real(src[il + jl * a.lld])) : stored ? src[il + jl * a.lld] : tr[il + jl * ld];
      const Fp64<T> e64 = to_fp64(e);
      if (!std::isfinite(std::real(e64)) || !std::isfinite(std::imag(e64))) mine[1] = 1;
      else mine[0] = std::max(mine[0], std::abs(e64));
      w[il + jl * ld] = e;
    }
  double all[2];
  blasmp::detail::check_mpi(MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, g.comm), "MPI_Allreduce");
  LinkTransfer lt;
  lt.name = "trnsolverMp.syevd.scale";
  lt.ns = small_allreduce_ns(fabric_spec(target), RankSet{0, 1, g.nprow * g.npcol});
  lt.peers = blasmp::detail::peers_over(g.comm);
  record_link_transfer(trace, lt);
  const double scale = all[1] != 0 ? 0.0 : all[0] > 0 ? std::ldexp(1.0, -std::ilogb(all[0])) : 1.0;
  for (std::int64_t e = 0; scale != 0 && e < ld * nl; ++e) w[e] = from_fp64<T>(to_fp64(w[e]) * scale);
  std::memset(b.refl, 0, blasmp::detail::local_bytes(b.wd, sizeof(T)));
  std::memset(b.tauq, 0, static_cast<std::size_t>(std::max<std::int64_t>(nl, 1)) * sizeof(T));
  record_host_step(trace, HostStep{.name = "trnsolverMp.syevd.prepare", .flops = double(ml * nl),
                                   .reads = {HostSpan::matrix(src, ml, nl, a.lld), HostSpan(tr, ld * nl)},
                                   .writes = {HostSpan(w, ld * nl)}});
  return scale;
}

// Column k of W, rows k .. n - 1, on every rank: gathered along its process column, then broadcast
// along the process rows.
void share_column(const Local& l, const EigBuffers& b, std::int64_t k, std::size_t es, Generation target) {
  const Descriptor& d = b.wd;
  const blasmp::Grid& g = *d.grid;
  const int pc = owner_of(k, d.nb, d.csrc, g.npcol);
  if (g.mycol == pc)
    gather_rows(g, {d.n, d.mb, d.rsrc}, k, static_cast<const char*>(b.w), d.lld, local_of(k, d.nb, g.npcol), 1, es,
                static_cast<char*>(b.col), "trnsolverMp.syevd.gather_column", target, *l.trace);
  blasmp::detail::broadcast(g.row_comm, g.row_set(), pc, g.mycol, b.col, static_cast<std::size_t>(d.n - k) * es,
                            "trnsolverMp.syevd.broadcast_column", target, *l.trace);
}

// The reflector H = I - tau v v^H with H^H x = (beta, 0, ..) for x = W(k + 1 :, k) (length mp): trnsolver's
// geqrf panel step on an mp x 1 panel (xGEQR2 + xLARFT; its xLARFG makes beta real for complex data, so
// T's off-diagonal is real, as LAPACK's xHETD2), every rank alike. Returns beta.
template <class T>
double make_reflector(const Local& l, const EigBuffers& b, std::int64_t mp) {
  std::memcpy(b.panel, static_cast<const T*>(b.col) + 1, static_cast<std::size_t>(mp) * sizeof(T));
  solver::Settings ss;
  static_cast<EmulatorSettings&>(ss) = static_cast<const EmulatorSettings&>(l.st);
  solver::CallReport r;
  solver::qr_block_reflector(ss, true, mp, 1, static_cast<T*>(b.panel), mp, static_cast<T*>(b.tau), static_cast<T*>(b.v),
                             static_cast<T*>(b.t), &r);
  l.trace->append(std::move(r.trace));
  return static_cast<double>(std::real(static_cast<const T*>(b.panel)[0]));
}

// y = W22 v on every rank (rows and columns k + 1 ..): each rank's local product (one trnblas GEMM), the
// partials summed along the process row in process-column order (an MPI_Allgather and trnblas GEAMs,
// never MPI_Allreduce), then gathered along the process column into b.yfull.
template <class T>
void distributed_symv(const Local& l, const EigBuffers& b, std::int64_t k, Generation target) {
  const Descriptor& d = b.wd;
  const blasmp::Grid& g = *d.grid;
  const std::size_t es = sizeof(T);
  const std::int64_t r0 = k + 1, s = numroc(r0, d.mb, g.myrow, d.rsrc, g.nprow), c = numroc(r0, d.nb, g.mycol, d.csrc, g.npcol);
  const std::int64_t mr = d.local_rows() - s, nc = d.local_cols() - c;
  const T* v = static_cast<const T*>(b.v);
  T* vloc = static_cast<T*>(b.vloc);
  for (std::int64_t jl = c; jl < d.local_cols(); ++jl) vloc[jl - c] = v[global_of(jl, d.nb, g.mycol, d.csrc, g.npcol) - r0];
  T* y = static_cast<T*>(b.y) + s;
  if (mr > 0 && nc > 0)
    blasmp::detail::local_gemm(l, mr, 1, nc, cd(1.0), at(b.w, s + c * d.lld, es), d.lld, vloc, nc, cd(0.0), y, mr);
  else
    std::fill(y, y + mr, T(0));
  const void* sum = ordered_sum(l, g.row_comm, g.row_set(), g.npcol, mr, 1, y, b.gathered, es, "trnsolverMp.syevd.row_sum", target);
  if (sum != y && mr > 0) std::memcpy(y, sum, static_cast<std::size_t>(mr) * es);
  gather_rows(g, {d.n, d.mb, d.rsrc}, r0, static_cast<const char*>(b.y), d.local_rows(), 0, 1, es, static_cast<char*>(b.yfull),
              "trnsolverMp.syevd.gather_y", target, *l.trace);
}

// w = x - (tau / 2)(x^H v) v with x = tau y (LAPACK xSYTD2 / xHETD2), in fp64 on every rank alike (a
// recorded host step; complex: the same with complex tau and the conjugated dot product).
template <class T>
void symmetric_update_vector(const Local& l, const EigBuffers& b, std::int64_t mp) {
  const T* y = static_cast<const T*>(b.yfull);
  const T* v = static_cast<const T*>(b.v);
  T* w = static_cast<T*>(b.wv);
  const Fp64<T> tau = to_fp64(*static_cast<const T*>(b.tau));
  Fp64<T> dot = 0;
  for (std::int64_t i = 0; i < mp; ++i) dot += conj_fp64(tau * to_fp64(y[i])) * to_fp64(v[i]);
  const Fp64<T> alpha = -0.5 * tau * dot;
  for (std::int64_t i = 0; i < mp; ++i) w[i] = from_fp64<T>(tau * to_fp64(y[i]) + alpha * to_fp64(v[i]));
  const double ops = kIsComplex<T> ? 4.0 : 1.0;
  record_host_step(*l.trace, HostStep{.name = "trnsolverMp.syevd.update_vector", .flops = ops * 6.0 * static_cast<double>(mp),
                                      .reads = {HostSpan(y, mp), HostSpan(v, mp)}, .writes = {HostSpan(w, mp)}});
}

// W22 -= v w^H + w v^H on my block: [v w](my rows) [w v]^H(my columns), one trnblas GEMM (k = 2).
template <class T>
void rank2_update(const Local& l, const EigBuffers& b, std::int64_t k) {
  const Descriptor& d = b.wd;
  const blasmp::Grid& g = *d.grid;
  const std::int64_t r0 = k + 1, s = numroc(r0, d.mb, g.myrow, d.rsrc, g.nprow), c = numroc(r0, d.nb, g.mycol, d.csrc, g.npcol);
  const std::int64_t mr = d.local_rows() - s, nc = d.local_cols() - c;
  if (mr == 0 || nc == 0) return;
  const T* v = static_cast<const T*>(b.v);
  const T* w = static_cast<const T*>(b.wv);
  T* left = static_cast<T*>(b.left);
  T* right = static_cast<T*>(b.right);
  for (std::int64_t il = s; il < d.local_rows(); ++il) {
    const std::int64_t r = global_of(il, d.mb, g.myrow, d.rsrc, g.nprow) - r0;
    left[il - s] = v[r], left[il - s + mr] = w[r];
  }
  for (std::int64_t jl = c; jl < d.local_cols(); ++jl) {
    const std::int64_t r = global_of(jl, d.nb, g.mycol, d.csrc, g.npcol) - r0;
    right[2 * (jl - c)] = from_fp64<T>(conj_fp64(to_fp64(w[r]))), right[2 * (jl - c) + 1] = from_fp64<T>(conj_fp64(to_fp64(v[r])));
  }
  blasmp::detail::local_gemm(l, mr, nc, 2, cd(-1.0), left, mr, right, 2, cd(1.0), at(b.w, s + c * d.lld, sizeof(T)), d.lld);
}

// Reflector k into column k + 1 of the reflector matrix (rows k + 1 ..) and its tau, where they live.
template <class T>
void store_reflector(const EigBuffers& b, std::int64_t k) {
  const Descriptor& d = b.wd;
  const blasmp::Grid& g = *d.grid;
  const std::int64_t j = k + 1;
  if (owner_of(j, d.nb, d.csrc, g.npcol) != g.mycol) return;
  const std::int64_t jl = local_of(j, d.nb, g.npcol), s = numroc(j, d.mb, g.myrow, d.rsrc, g.nprow);
  const T* v = static_cast<const T*>(b.v);
  T* q = static_cast<T*>(b.refl);
  for (std::int64_t il = s; il < d.local_rows(); ++il) q[il + jl * d.lld] = v[global_of(il, d.mb, g.myrow, d.rsrc, g.nprow) - j];
  static_cast<T*>(b.tauq)[jl] = *static_cast<const T*>(b.tau);
}

// Stage 1: T's diagonal dg and off-diagonal e (fp64, on every rank), the reflectors stored.
template <class T>
void tridiagonalize(const Local& l, const EigBuffers& b, ScratchVector<double>& dg, ScratchVector<double>& e, Generation target) {
  const Descriptor& d = b.wd;
  const blasmp::Grid& g = *d.grid;
  const std::int64_t n = d.n;
  dg.assign(static_cast<std::size_t>(n), 0.0), e.assign(static_cast<std::size_t>(n), 0.0);  // e[n - 1] unused (stedc reads e + lo)
  for (std::int64_t k = 0; k + 1 < n; ++k) {
    share_column(l, b, k, sizeof(T), target);
    const std::int64_t mp = n - k - 1;
    dg[static_cast<std::size_t>(k)] = static_cast<double>(std::real(static_cast<const T*>(b.col)[0]));
    e[static_cast<std::size_t>(k)] = make_reflector<T>(l, b, mp);
    distributed_symv<T>(l, b, k, target);
    symmetric_update_vector<T>(l, b, mp);
    rank2_update<T>(l, b, k);
    store_reflector<T>(b, k);
  }
  if (n == 0) return;
  T last{};  // W(n - 1, n - 1) from its owner
  const int pr = owner_of(n - 1, d.mb, d.rsrc, g.nprow), pc = owner_of(n - 1, d.nb, d.csrc, g.npcol);
  if (g.myrow == pr && g.mycol == pc)
    last = static_cast<const T*>(b.w)[local_of(n - 1, d.mb, g.nprow) + local_of(n - 1, d.nb, g.npcol) * d.lld];
  blasmp::detail::broadcast(g.comm, RankSet{0, 1, g.nprow * g.npcol}, g.rank_of(pr, pc), g.rank, &last, sizeof last,
                            "trnsolverMp.syevd.broadcast_last", target, *l.trace);
  dg[static_cast<std::size_t>(n - 1)] = static_cast<double>(std::real(last));
}

// Stage 2: trnsolver's divide and conquer on every rank (vectors: into b.zfull, n x n of the real type R).
// Returns its info.
template <class R>
int solve_tridiagonal(const blas::Settings& s, const SyevdArgs& x, const EigBuffers& b, ScratchVector<double>& dg,
                      ScratchVector<double>& e, std::vector<double>& lambda, Trace& trace) {
  solver::Settings ss;
  static_cast<EmulatorSettings&>(ss) = static_cast<const EmulatorSettings&>(s);
  constexpr bool kS = std::is_same_v<R, float>;
  solver::detail::EigSteps st{kS ? solver::detail::step_blas_settings(ss) : solver::detail::fp64_update_blas_settings(ss), {}, 0,
                              false};
  lambda.assign(static_cast<std::size_t>(x.n), 0.0);
  const int info = solver::detail::stedc(st, x.n, dg, e, lambda.data(), x.vectors ? static_cast<R*>(b.zfull) : nullptr);
  trace.append(std::move(st.trace).join());
  return info;
}

// Stage 3: my piece of V into Z (descriptor desc_z), then Z = Q Z by Ormqr.
template <class T>
void back_transform(const blas::Settings& s, const SyevdArgs& x, const EigBuffers& b, Trace& trace) {
  const Descriptor& dz = *x.desc_z;
  const blasmp::Grid& g = *dz.grid;
  const RealOf<T>* v = static_cast<const RealOf<T>*>(b.zfull);
  T* z = static_cast<T*>(x.z);
  for (std::int64_t jl = 0; jl < dz.local_cols(); ++jl)
    for (std::int64_t il = 0; il < dz.local_rows(); ++il)
      z[il + jl * dz.lld] = T(v[global_of(il, dz.mb, g.myrow, dz.rsrc, g.nprow) +
                                global_of(jl, dz.nb, g.mycol, dz.csrc, g.npcol) * x.n]);
  OrmqrArgs o = back_transform_args(x, b);
  o.work = b.rest, o.work_bytes = ormqr_workspace_bytes(o);
  blas::CallReport r;
  ormqr(s, o, &r);
  trace.append(std::move(r.trace));
}

template <class T>
int syevd_typed(const blas::Settings& s0, const SyevdArgs& x, Trace& trace) {
  const blas::Settings s = blasmp::device_settings(s0);
  Carve carve{static_cast<char*>(x.work)};
  const EigBuffers b(x, carve);
  const Local l = blasmp::detail::make_local(s, x, trace);
  using R = RealOf<T>;
  R* d = static_cast<R*>(x.d);
  if (x.n == 0) return 0;
  const double scale = symmetric_copy<T>(x, b, s.target, trace);
  if (scale == 0) {
    std::fill(d, d + x.n, std::numeric_limits<R>::quiet_NaN());
    return static_cast<int>(x.n);
  }
  ScratchVector<double> dg, e;  // stedc takes scratch (address-stable) storage: docs/cost-model.md "Scratch addresses"
  std::vector<double> lambda;
  tridiagonalize<T>(l, b, dg, e, s.target);
  const int info = solve_tridiagonal<R>(s, x, b, dg, e, lambda, trace);
  for (std::int64_t i = 0; i < x.n; ++i) d[i] = static_cast<R>(lambda[static_cast<std::size_t>(i)] / scale);
  if (x.vectors) back_transform<T>(s0, x, b, trace);
  return info;
}

}  // namespace

namespace detail {

bool on_one_device(const SyevdArgs& x) {
  return x.one_device_path && x.desc_a->grid->nprow == 1 && x.desc_a->grid->npcol == 1;
}

// The 1 x 1 grid: trnsolver's single-device syevd / heevd (itype 0) or sygvd / hegvd (itype 1) on the
// local blocks (the whole matrices), then V from A into Z (unless A held Inf/NaN: info n, Z not written).
// Returns its info.
template <class T>
int one_device_typed(const blas::Settings& s, const SyevdArgs& x, int itype, void* b, std::int64_t ldb, Trace& trace) {
  using R = RealOf<T>;
  solver::Settings ss;
  static_cast<EmulatorSettings&>(ss) = static_cast<const EmulatorSettings&>(s);
  solver::CallReport r;
  T* a = static_cast<T*>(x.a);
  const std::int64_t lda = x.desc_a->lld;
  R* d = static_cast<R*>(x.d);
  int info = 0;
  if constexpr (kIsComplex<T>)
    info = itype == 0 ? solver::heevd(ss, x.vectors, x.uplo, x.n, a, lda, d, &r)
                      : solver::hegvd(ss, itype, x.vectors, x.uplo, x.n, a, lda, static_cast<T*>(b), ldb, d, &r);
  else
    info = itype == 0 ? solver::syevd(ss, x.vectors, x.uplo, x.n, a, lda, d, &r)
                      : solver::sygvd(ss, itype, x.vectors, x.uplo, x.n, a, lda, static_cast<T*>(b), ldb, d, &r);
  trace.append(std::move(r.trace));
  if (x.vectors && info < x.n)
    for (std::int64_t j = 0; j < x.n; ++j)
      std::memcpy(static_cast<T*>(x.z) + j * x.desc_z->lld, a + j * lda, static_cast<std::size_t>(x.n) * sizeof(T));
  return info;
}

int one_device(const blas::Settings& s, const SyevdArgs& x, int itype, void* b, std::int64_t ldb, Trace& trace) {
  if (x.complex)
    return x.fp64 ? one_device_typed<std::complex<double>>(s, x, itype, b, ldb, trace)
                  : one_device_typed<std::complex<float>>(s, x, itype, b, ldb, trace);
  return x.fp64 ? one_device_typed<double>(s, x, itype, b, ldb, trace) : one_device_typed<float>(s, x, itype, b, ldb, trace);
}

}  // namespace detail

std::string syevd_mismatch(const SyevdArgs& x) {
  if (x.desc_a == nullptr || x.desc_a->grid == nullptr) return "descA is NULL";
  const Descriptor& a = *x.desc_a;
  if (a.type != x.type()) return "the descriptor's type does not match the call's";
  if (a.m != x.n || a.n != x.n) return "A's descriptor must be n x n";
  if (a.mb != a.nb) return "A's blocks must be square (mb = nb)";
  if (x.vectors) {
    if (x.desc_z == nullptr) return "descZ is NULL";
    const Descriptor& z = *x.desc_z;
    if (z.type != x.type()) return "Z's descriptor type does not match the call's";
    if (z.m != x.n || z.n != x.n) return "Z's descriptor must be n x n";
    if (z.grid != a.grid || z.mb != a.mb || z.nb != a.nb || z.rsrc != a.rsrc) return "Z must be distributed as A (same grid, MB, NB and RSRC)";
  }
  const std::size_t need = syevd_workspace_bytes(x);
  if (x.work_bytes < need || (need > 0 && x.work == nullptr)) return "the workspace is smaller than the _bufferSize's";
  return {};
}

std::size_t syevd_workspace_bytes(const SyevdArgs& x) {
  if (x.desc_a == nullptr || x.desc_a->grid == nullptr || (x.vectors && x.desc_z == nullptr)) return 0;
  Carve carve;
  const EigBuffers b(x, carve);
  return carve.used + (x.vectors ? ormqr_workspace_bytes(back_transform_args(x, b)) : 0);
}

int syevd(const blas::Settings& s0, const SyevdArgs& x, blas::CallReport* report) {
  if (const std::string why = syevd_mismatch(x); !why.empty()) throw UsageError("trnsolverMp syevd: " + why);
  const blas::Settings s = blasmp::device_settings(s0);
  Trace trace;
  blasmp::detail::record_exchange(*x.desc_a->grid, s.target, "trnsolverMp.syevd.exchange", trace);
  int info = 0;
  if (on_one_device(x)) info = one_device(s, x, 0, nullptr, 1, trace);
  else if (x.complex) info = x.fp64 ? syevd_typed<std::complex<double>>(s0, x, trace) : syevd_typed<std::complex<float>>(s0, x, trace);
  else info = x.fp64 ? syevd_typed<double>(s0, x, trace) : syevd_typed<float>(s0, x, trace);
  blasmp::detail::finish_collective(s, std::move(trace), report);
  return info;
}

}  // namespace trn::solvermp
