// Internal to trnsolverMp: block-cyclic index arithmetic, the gather of a panel's rows along a process
// column and the drivers' common prologue, layout check and report finish, shared by the Cholesky (potrf.cpp),
// LU (getrf.cpp, where they are defined) and QR (geqrf.cpp) drivers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "local.hpp"
#include "trn/blas/blas.hpp"
#include "trn/blasmp/blasmp.hpp"
#include "trn/core/error.hpp"
#include "trn/core/trace.hpp"
#include "trn/solvermp/solvermp.hpp"

namespace trn::blasmp::detail {
struct Local;  // local.hpp: the rank's tile kernels
}

namespace trn::solvermp::detail {

// base + elems elements of es bytes.
char* at(void* base, std::int64_t elems, std::size_t es);
// The process owning global index g (blocks nb, first block on src, np processes) and its local index;
// the global index of local index l on process p.
int owner_of(std::int64_t g, std::int64_t nb, std::int64_t src, int np);
std::int64_t local_of(std::int64_t g, std::int64_t nb, int np);
std::int64_t global_of(std::int64_t l, std::int64_t nb, int p, std::int64_t src, int np);
// bytes as an MPI count (throws NotSupportedError past INT_MAX: a message over 2 GiB).
int checked_int(std::size_t bytes);

// A distributed dimension: `count` global rows in blocks of nb from process row src.
struct RowLayout {
  std::int64_t count, nb, src;
};

// Rows [r0, rows.count) of `cols` columns (local columns lc0.. of `a`, ld lda) gathered along this
// process column into `out` ((count - r0) x cols, column-major, ld count - r0), in global row order
// (one MPI_Allgatherv, recorded as the link transfer `name`).
void gather_rows(const blasmp::Grid& g, const RowLayout& rows, std::int64_t r0, const char* a, std::int64_t lda,
                 std::int64_t lc0, std::int64_t cols, std::size_t es, char* out, const char* name, Generation target,
                 Trace& trace);

// Where step i of a blocked factorisation over A's block columns (square blocks) works: rows / columns
// [r0, r1) (kb = r1 - r0, kmin the factorisation's last column), the owners of block row and column i,
// my first local rows and columns at r0 and at r1.
struct StepPlace {
  std::int64_t r0, kb, r1;
  int pr, pc;
  std::int64_t lr0, lc0, s1, c1;
};
StepPlace place_step(const blasmp::Descriptor& d, std::int64_t i, std::int64_t kmin);

// The layout check of a factorisation of A (potrf_mismatch, getrf_mismatch, geqrf_mismatch): A's
// descriptor live, of the call's type, rows x cols (`shape` names it in the message), square blocks,
// then the workspace at least workspace_bytes(x). The workspace size is computed only after the
// descriptor checks pass (it reads the descriptor and its grid). Empty when all hold.
template <class Args>
std::string factor_mismatch(const Args& x, std::int64_t rows, std::int64_t cols, const char* shape,
                            std::size_t (*workspace_bytes)(const Args&)) {
  if (x.desc_a == nullptr || x.desc_a->grid == nullptr) return "descA is NULL";
  const blasmp::Descriptor& a = *x.desc_a;
  if (a.type != x.type()) return "the descriptor's type does not match the call's";
  if (a.m != rows || a.n != cols) return std::string("A's descriptor must be ") + shape;
  if (a.mb != a.nb) return "A's blocks must be square (mb = nb)";
  const std::size_t need = workspace_bytes(x);
  if (x.work_bytes < need || (need > 0 && x.work == nullptr)) return "the workspace is smaller than the _bufferSize's";
  return {};
}

// The opening every factorisation driver shares (potrf, getrf, geqrf, ormqr): the layout check
// (`mismatch`; a UsageError naming `routine` when it fails), the device's settings, the call's trace
// opened with the argument exchange's link record (`exchange`, a string literal), and the workspace the
// driver carves its buffers from; local(x) gives the rank's kernels appending to that trace.
struct DriverPrologue {
  blas::Settings s;
  Trace trace;
  blasmp::detail::Carve carve;
  template <class Args>
  DriverPrologue(const blas::Settings& s0, const Args& x, std::string (*mismatch)(const Args&), const char* routine,
                 const char* exchange)
      : s(checked_settings(s0, mismatch(x), routine)), carve{static_cast<char*>(x.work)} {
    blasmp::detail::record_exchange(*x.desc_a->grid, s.target, exchange, trace);
  }
  blasmp::detail::Local local(const blasmp::Scalars& t) { return blasmp::detail::make_local(s, t, trace); }

 private:
  static blas::Settings checked_settings(const blas::Settings& s0, const std::string& why, const char* routine) {
    if (!why.empty()) throw UsageError(std::string("trnsolverMp ") + routine + ": " + why);
    return blasmp::device_settings(s0);
  }
};

// The call's report from its trace (nothing when report is null).
void finish(const blas::Settings& s, Trace&& trace, blas::CallReport* report);

// Ormqr's block steps on a prologue's trace and workspace (geqrf.cpp): Ormqr's body, and Orgqr's after
// its copy of the reflectors and its identity.
void ormqr_steps(DriverPrologue& p, const OrmqrArgs& x);

// The sum over the np processes of a process row or column (communicator comm, ranks set) of each one's
// rows x cols partial (ld rows, es-byte elements): every partial gathered into `gathered` (np partials;
// one MPI_Allgather recorded as the link transfer `name`), then added by trnblas GEAMs in process order
// 0 .. np - 1 on every rank (a fixed order: the bits are fixed by the grid; never MPI_Allreduce). Returns
// the sum: `gathered` (np > 1) or `partial` itself (np = 1). ordered_sum.cpp; Geqrf's column sum, Syevd's
// row sum.
void* ordered_sum(const blasmp::detail::Local& l, MPI_Comm comm, const RankSet& set, int np, std::int64_t rows,
                  std::int64_t cols, void* partial, void* gathered, std::size_t es, const char* name, Generation target);

}  // namespace trn::solvermp::detail
