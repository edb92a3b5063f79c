// trnsolverMp Orgqr: the explicit m x n Q (first n columns of Q = H_1 ... H_k) from Geqrf's reflectors
// in place (cuSOLVERMp's cusolverMpOrgqr; LAPACK's xORGQR / xUNGQR; solvermp.hpp, docs/scale-out.md
// section 6.3).
// Algorithm: this rank's block of A (the reflectors) copied to the workspace, A set to the m x n
//   identity [I; 0], then Ormqr (side left, trans N) with the copied reflectors and tau applies Q to it:
//   A = Q [I; 0]. ScaLAPACK's PDORGQR instead applies each block reflector only to the columns it
//   reaches (PDLARFB on A(j:m, j:n)); this applies it to all n columns (up to twice PDORGQR's flops
//   when n = k, the same messages).
// Engines: Ormqr's (trnsolver's xLARFT step on the block's process column, trnblas GEMMs on TensorE, the
//   column sums trnblas GEAMs, link transfers for the broadcasts and the gathers).
// Accuracy: Q is orthonormal to working accuracy, ||Q^H Q - I|| <= c m n u and ||A - Q R|| <= c m n u
//   ||A|| with Geqrf's R (Higham, Accuracy and Stability, Thm 19.4, Lemma 19.3); tested within
//   16 (m + n) u against ScaLAPACK's p?orgqr.
// Limits: m >= n >= k >= 0 (LAPACK's); square blocks; the whole matrix (ia = ja = 1); a workspace of
//   one local copy of A beside Ormqr's.
// Determinism: Ormqr's (the column sum in process-row order: fixed for a given grid).
#include <algorithm>
#include <cstring>
#include <utility>

#include "local.hpp"
#include "rows.hpp"
#include "trn/core/error.hpp"
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

void orgqr(const blas::Settings& s, const OrgqrArgs& x, blas::CallReport* report) {
  if (const std::string why = orgqr_mismatch(x); !why.empty()) throw UsageError("trnsolverMp orgqr: " + why);
  const Descriptor& d = *x.desc_a;
  const std::size_t es = x.elem_bytes(), copy = copy_bytes(x);
  char* reflectors = static_cast<char*>(x.work);
  if (local_bytes(d, es) > 0) std::memcpy(reflectors, x.a, local_bytes(d, es));
  write_identity(d, es, x.fp64, x.a);
  OrmqrArgs q = ormqr_of(x, reflectors);
  q.work = reflectors != nullptr ? reflectors + copy : nullptr;
  q.work_bytes = x.work_bytes - copy;
  ormqr(s, q, report);  // its report (exchange record, gathers, broadcasts, GEMMs) is Orgqr's
}

}  // namespace trn::solvermp
