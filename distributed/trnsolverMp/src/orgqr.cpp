// trnsolverMp Orgqr: the explicit m x n Q (first n columns of Q = H_1 ... H_k) from Geqrf's reflectors
// in place (cuSOLVERMp's cusolverMpOrgqr; LAPACK's xORGQR / xUNGQR; solvermp.hpp, docs/scale-out.md
// section 6.3).
// Algorithm: this rank's block of A (the reflectors) copied to the workspace, A set to the m x n
//   identity [I; 0], then Ormqr (side left, trans N) with the copied reflectors and tau applies Q to it:
//   A = Q [I; 0]. ScaLAPACK's PDORGQR instead applies each block reflector only to the columns it
//   reaches (PDLARFB on A(j:m, j:n)); this applies it to all n columns (up to twice PDORGQR's flops
//   when n = k, the same messages).
// Engines: the copy of A to the workspace is DMA work (trnblas's copy_segments: the local block's bytes
//   through SBUF and back, bit for bit in every precision); the identity [I; 0] is a documented host
//   step ("trnsolverMp.orgqr.identity": A's local block written back over the host link, as trnsolver's
//   single-device orgqr writes its [I; 0] in its host step); then Ormqr's (trnsolver's xLARFT step on
//   the block's process column, trnblas GEMMs on TensorE, the column sums trnblas GEAMs, link transfers
//   for the broadcasts and the gathers). One argument exchange ("trnsolverMp.orgqr.exchange").
// Accuracy: Q is orthonormal to working accuracy, ||Q^H Q - I|| <= c m n u and ||A - Q R|| <= c m n u
//   ||A|| with Geqrf's R (Higham, Accuracy and Stability, Thm 19.4, Lemma 19.3); tested within
//   16 (m + n) u against ScaLAPACK's p?orgqr.
// Limits: m >= n >= k >= 0 (LAPACK's); square blocks; the whole matrix (ia = ja = 1); a workspace of
//   one local copy of A beside Ormqr's.
// Determinism: Ormqr's (the column sum in process-row order: fixed for a given grid).
#include <algorithm>
#include <cstring>
#include <span>
#include <utility>

#include "local.hpp"
#include "rows.hpp"
#include "trn/blas/level12.hpp"
#include "trn/core/error.hpp"
#include "trn/core/host_step.hpp"
#include "trn/solvermp/solvermp.hpp"

namespace trn::solvermp {

namespace {

using blasmp::detail::aligned;
using blasmp::detail::local_bytes;
using namespace detail;

// Orgqr's Ormqr: C = A (the identity written in place), the reflectors from the copy at `reflectors`.
OrmqrArgs ormqr_of(const OrgqrArgs& x, const void* reflectors) {
  OrmqrArgs q;
  static_cast<blasmp::Scalars&>(q) = x;
  q.side = blas::Side::left, q.trans = blas::COp::N;
  q.m = x.m, q.n = x.n, q.k = x.k, q.a = reflectors, q.desc_a = x.desc_a, q.tau = x.tau, q.c = x.a, q.desc_c = x.desc_a;
  return q;
}

// The bytes of the copy of A at the start of the workspace (64-byte aligned; Ormqr's buffers follow).
std::size_t copy_bytes(const OrgqrArgs& x) {
  if (x.desc_a == nullptr || x.desc_a->grid == nullptr) return 0;
  return aligned(local_bytes(*x.desc_a, x.elem_bytes()));
}

// This rank's block of the m x n identity [I; 0] into a (ld lld): ones where the global row equals the
// global column (the real part of a complex element), zeros elsewhere.
void write_identity(const Descriptor& d, std::size_t es, bool fp64, void* a) {
  const blasmp::Grid& g = *d.grid;
  const std::int64_t rows = d.local_rows(), cols = d.local_cols();
  for (std::int64_t jl = 0; jl < cols; ++jl) {
    char* col = at(a, jl * d.lld, es);
    std::memset(col, 0, static_cast<std::size_t>(rows) * es);
    const std::int64_t j = global_of(jl, d.nb, g.mycol, d.csrc, g.npcol);
    if (j >= d.m || owner_of(j, d.mb, d.rsrc, g.nprow) != g.myrow) continue;
    char* e = at(col, local_of(j, d.mb, g.nprow), es);
    if (fp64) {
      const double one = 1.0;
      std::memcpy(e, &one, sizeof one);
    } else {
      const float one = 1.0f;
      std::memcpy(e, &one, sizeof one);
    }
  }
}

}  // namespace

std::string orgqr_mismatch(const OrgqrArgs& x) {
  if (x.desc_a == nullptr || x.desc_a->grid == nullptr) return "descA is NULL";
  if (x.n > x.m || x.k < 0 || x.k > x.n) return "Orgqr needs m >= n >= k >= 0";
  const Descriptor& a = *x.desc_a;
  if (a.type != x.type()) return "the descriptor's type does not match the call's";
  if (a.m != x.m || a.n != x.n) return "A's descriptor must be m x n";
  if (a.mb != a.nb) return "A's blocks must be square (mb = nb)";
  const std::size_t need = orgqr_workspace_bytes(x);
  if (x.work_bytes < need || (need > 0 && x.work == nullptr)) return "the workspace is smaller than the _bufferSize's";
  return {};
}

std::size_t orgqr_workspace_bytes(const OrgqrArgs& x) {
  if (x.desc_a == nullptr || x.desc_a->grid == nullptr) return 0;
  return copy_bytes(x) + ormqr_workspace_bytes(ormqr_of(x, nullptr));
}

void orgqr(const blas::Settings& s0, const OrgqrArgs& x, blas::CallReport* report) {
  DriverPrologue p(s0, x, orgqr_mismatch, "orgqr", "trnsolverMp.orgqr.exchange");
  const Descriptor& d = *x.desc_a;
  const std::size_t es = x.elem_bytes(), bytes = local_bytes(d, es);
  auto* reflectors = static_cast<char*>(p.carve.take(copy_bytes(x)));  // Ormqr's buffers follow (orgqr_workspace_bytes)
  if (bytes > 0) {  // the reflectors to the workspace: one DMA program, fp32 words (every precision bit for bit)
    const blas::CopySegment whole{static_cast<const float*>(x.a), reinterpret_cast<float*>(reflectors),
                                  static_cast<std::int64_t>(bytes / sizeof(float))};
    blas::CallReport copied;
    blas::copy_segments(p.local(x).st, std::span(&whole, 1), &copied);
    p.trace.append(std::move(copied.trace));
  }
  write_identity(d, es, x.fp64, x.a);
  if (bytes > 0)
    record_host_step(p.trace, HostStep{.name = "trnsolverMp.orgqr.identity", .flops = 0, .reads = {},
                                       .writes = {HostSpan(static_cast<const char*>(x.a), static_cast<std::int64_t>(bytes))}});
  ormqr_steps(p, ormqr_of(x, reflectors));  // the exchange above is Orgqr's; Ormqr's checks are implied by Orgqr's
  finish(p.s, std::move(p.trace), report);
}

}  // namespace trn::solvermp
