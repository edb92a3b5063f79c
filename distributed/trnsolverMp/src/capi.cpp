// trnsolverMp C API (trnsolverMp.h): handles, grids, descriptors, Getrf / Getrs / Potrf / Potrs / Geqrf /
// Ormqr / Gels / Orgqr and their
// _bufferSize over the C++ API (trn/solvermp/solvermp.hpp), written with the C-shim kit
// (trn/core/c_shim.hpp). Collective entry points check their arguments locally in cuSOLVERMp's order,
// then exchange (status, arguments) over the grid's communicator (trnblasMp's exchange.hpp) before any
// other message, so every rank returns the same status.
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "collective.hpp"
#include "trn/core/c_shim.hpp"
#include "trn/solvermp/solvermp.hpp"
#include "trnsolverMp.h"

struct trnsolverMpHandle {
  trn::blas::Settings settings;
  trnStream_t stream = nullptr;
  int device = 0;
  trn::cshim::LastCall<trnProfile_t> last_profile;
  trn::cshim::LastError last_error_param{0};
};
struct trnsolverMpGrid {
  trn::blasmp::Grid g;
};
struct trnsolverMpMatrixDescriptor {
  trn::blasmp::Descriptor d;
  trnsolverMpGrid_t grid = nullptr;  // the grid d.grid points into
};

namespace {

using Status = trnsolverStatus_t;
using Check = trn::cshim::ArgCheck<Status>;

trn::cshim::HandleRegistry<trnsolverMpHandle> g_handles;
trn::cshim::HandleRegistry<trnsolverMpGrid> g_grids;
trn::cshim::HandleRegistry<trnsolverMpMatrixDescriptor> g_descs;
trn::cshim::Logger g_log{"TRNSOLVERMP"};

constexpr trn::cshim::StatusMap<Status> kStatusMap{
    TRNSOLVER_STATUS_SUCCESS,       TRNSOLVER_STATUS_ALLOC_FAILED,     TRNSOLVER_STATUS_NOT_SUPPORTED,
    TRNSOLVER_STATUS_INVALID_VALUE, TRNSOLVER_STATUS_EXECUTION_FAILED, TRNSOLVER_STATUS_INTERNAL_ERROR,
    trnsolverGetStatusName};
constexpr trn::cshim::SurfaceCodes<Status> kSurfaceCodes{TRNSOLVER_STATUS_SUCCESS, TRNSOLVER_STATUS_NOT_INITIALIZED,
                                                         TRNSOLVER_STATUS_INVALID_VALUE};
using Surface = trn::cshim::ContextBinding<trnsolverMpHandle, Status, &g_handles, &g_log, &kStatusMap, &kSurfaceCodes>;
// A collective routine's call as the shim passes it on (trnblasMp's collective.hpp: what every rank must
// agree on, the descriptor whose grid carries the exchange, the _bufferSize outputs or the info output)
// and the steps every collective routine shares, over these registries.
using Collective = trn::blasmp::detail::Collective<trnsolverMpHandle_t, trnsolverMpMatrixDescriptor_t>;
const trn::blasmp::detail::CollectiveApi<Status, trnsolverMpGrid, trnsolverMpMatrixDescriptor> kApi{g_grids, g_descs, g_log,
                                                                                                   kStatusMap};

constexpr std::initializer_list<int> kTypes{TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F};
const char* const kWholeOnly = "only whole matrices (ia = ja = 1)";

bool whole(std::initializer_list<std::int64_t> offsets) {
  for (std::int64_t o : offsets)
    if (o != 1) return false;
  return true;
}

// The element type of a call: its compute type, which must be a supported type and the descriptor's
// (a dead descriptor fails at its own, earlier, position).
bool compute_of(int compute_type, trnsolverMpMatrixDescriptor_t carrier, trn::blasmp::Scalars* t) {
  bool known = false;
  for (int k : kTypes) known = known || k == compute_type;
  if (!known || (g_descs.contains(carrier) && static_cast<int>(carrier->d.type) != compute_type)) return false;
  t->fp64 = compute_type == TRN_R_64F || compute_type == TRN_C_64F;
  t->complex = compute_type == TRN_C_32F || compute_type == TRN_C_64F;
  return true;
}

// A local block with no elements needs no pointer (cuSOLVERMp: the pointer of a rank that owns nothing).
bool needs_data(trnsolverMpMatrixDescriptor_t d) {
  return g_descs.contains(d) && d->d.local_rows() > 0 && d->d.local_cols() > 0;
}

void push_desc(std::vector<std::int64_t>& v, trnsolverMpMatrixDescriptor_t d) { kApi.push_desc(v, d); }

// The checks' outcome on this rank: its status and the position of its first illegal argument.
struct Local {
  Status status = TRNSOLVER_STATUS_NOT_INITIALIZED;
  int position = 0;
};

// The info a routine returns (Potrf, Getrf, Geqrf, Gels, Syevd, Sygvd), or 0 for one that returns
// none (Getrs, Potrs, Ormqr, Orgqr).
template <class Run, class Args>
int info_of(Run& run, const trn::blas::Settings& s, const Args& a, trn::blas::CallReport* r) {
  if constexpr (std::is_void_v<std::invoke_result_t<Run&, const trn::blas::Settings&, const Args&, trn::blas::CallReport*>>) {
    run(s, a, r);
    return 0;
  } else {
    return run(s, a, r);
  }
}

// Every routine after its local checks: info = -position on a rank with an illegal argument, the
// layout check (`mismatch`; unlimited workspace when sizing), the exchange, then the workspace sizes or
// the guarded call of `run` -- the routine itself, trn::solvermp::<routine> (its info on every rank,
// the handle's profile).
template <class Args, class Run>
Status run_collective(Collective c, Local loc, Args& args, std::string (*mismatch)(const Args&),
                      std::size_t (*workspace)(const Args&), Run run) {
  Status st = loc.status;
  if (st != TRNSOLVER_STATUS_SUCCESS && loc.position > 0 && c.info != nullptr) *c.info = -loc.position;
  const std::string trace_path = kApi.trace_request(c);
  st = kApi.agree_over(c, kApi.check_layout(c.sizing, c.fn, st, args, mismatch));
  if (st != TRNSOLVER_STATUS_SUCCESS) return st;
  if (c.sizing) return kApi.answer_sizes(c, args, workspace);
  trn::blas::CallReport r;
  int info = 0;
  st = trn::cshim::guarded(g_log, c.fn, kStatusMap, [&] { info = info_of(run, c.h->settings, args, &r); });
  if (st == TRNSOLVER_STATUS_SUCCESS) {
    *c.info = info;
    c.h->last_profile.store(r.profile.to_c());
    if (!trace_path.empty()) kApi.write_trace(c, r, trace_path);
  }
  return st;
}

// The tail of every routine's checks: the workspace arguments (the _bufferSize's size pointers, or
// the call's work pointers and info) at positions p.. and the whole-matrix rule.
void check_tail(Check& c, const Collective& x, int p, void* d_work, std::size_t wsd, int* info,
                std::initializer_list<std::int64_t> offsets) {
  if (x.sizing)
    c.not_null(x.ws_device, p, "workspaceInBytesOnDevice").not_null(x.ws_host, p + 1, "workspaceInBytesOnHost");
  else
    c.require(wsd == 0 || d_work != nullptr, p, "d_work").not_null(info, p + 4, "info");
  c.require_or(whole(offsets), TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED", kWholeOnly);
}

// The start of every routine's call: the collective's handle, carrier (the descriptor whose grid
// carries the exchange) and info output (none when sizing), the exchanged arguments (`agreed`, then each
// descriptor of `descs`), then, on a live handle, the local checks `checks(c)` in cuSOLVERMp's order and
// their outcome (a dead handle: NOT_INITIALIZED, no check run).
template <class Checks>
Local prologue(Collective& co, trnsolverMpHandle_t h, trnsolverMpMatrixDescriptor_t carrier, int* info,
               std::vector<std::int64_t> agreed, std::initializer_list<trnsolverMpMatrixDescriptor_t> descs, Checks checks) {
  co.h = h, co.carrier = carrier, co.info = co.sizing ? nullptr : info;
  co.exchanged = std::move(agreed);
  for (trnsolverMpMatrixDescriptor_t d : descs) push_desc(co.exchanged, d);
  if (!g_handles.contains(h)) return {};
  Check c(g_log, co.fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  checks(c);
  return {c.status(), c.failed_position()};
}

constexpr Status kOk = TRNSOLVER_STATUS_SUCCESS;

// ---- Getrf / Getrs ----

struct GetrfCall {
  trnsolverMpHandle_t h;
  std::int64_t m, n;
  void* a;
  std::int64_t ia, ja;
  trnsolverMpMatrixDescriptor_t desc_a;
  std::int64_t* ipiv;
  int compute_type;
  void* work;
  std::size_t work_bytes;
  int* info;
};

Status getrf_call(const GetrfCall& x, Collective co) {
  trn::solvermp::GetrfArgs args;
  const Local loc = prologue(co, x.h, x.desc_a, x.info, {x.m, x.n, x.ia, x.ja, x.compute_type, x.ipiv != nullptr}, {x.desc_a},
                             [&](Check& c) {
    c.nonnegative(x.m, 1, "M").nonnegative(x.n, 2, "N").require(co.sizing || x.a != nullptr || !needs_data(x.desc_a), 3, "d_A")
        .require(x.ia >= 1, 4, "IA").require(x.ja >= 1, 5, "JA").require(g_descs.contains(x.desc_a), 6, "descrA")
        .require(compute_of(x.compute_type, x.desc_a, &args), 8, "computeType");
    check_tail(c, co, 9, x.work, x.work_bytes, x.info, {x.ia, x.ja});
  });
  if (loc.status == kOk) {
    args.m = x.m, args.n = x.n, args.a = x.a, args.desc_a = &x.desc_a->d, args.ipiv = x.ipiv;
    args.work = x.work, args.work_bytes = x.work_bytes;
  }
  using trn::solvermp::GetrfArgs;
  return run_collective<GetrfArgs>(co, loc, args, trn::solvermp::getrf_mismatch, trn::solvermp::getrf_workspace_bytes,
                                   trn::solvermp::getrf);
}

// ---- Getrs / Potrs: one argument order (op, N, NRHS, A, [ipiv], B, computeType, workspace) ----

// The arguments of one Getrs / Potrs call (or its _bufferSize), as the caller passed them.
struct SolveCall {
  trnsolverMpHandle_t h;
  int op;  // Getrs's trans, Potrs's uplo
  std::int64_t n, nrhs;
  const void* a;
  std::int64_t ia, ja;
  trnsolverMpMatrixDescriptor_t desc_a;
  const std::int64_t* ipiv;  // Getrs's pivots; Potrs has none (nullptr)
  void* b;
  std::int64_t ib, jb;
  trnsolverMpMatrixDescriptor_t desc_b;
  int compute_type;
  void* work;
  std::size_t work_bytes;
  int* info;
};

// How cuSOLVERMp names a solve's parameters (Getrs: N, d_A, IA, ...; Potrs: n, a, ia, ...), and whether
// the routine has d_ipiv (position 8: every later argument one position further).
struct SolveNames {
  const char *op, *n, *nrhs, *a, *ia, *ja, *desc_a, *b, *ib, *jb, *desc_b;
  bool pivots;
};
constexpr SolveNames kGetrsNames{"trans", "N", "NRHS", "d_A", "IA", "JA", "descrA", "d_B", "IB", "JB", "descrB", true};
constexpr SolveNames kPotrsNames{"uplo", "n", "nrhs", "a", "ia", "ja", "descA", "b", "ib", "jb", "descB", false};

// The prologue of Getrs and Potrs: the exchanged arguments (B carries the exchange), the local checks
// in cuSOLVERMp's order (op one of `ops`) and, when they pass, the operands shared by args.
template <class Args>
Local solve_prologue(const SolveCall& x, const SolveNames& nm, std::initializer_list<int> ops, Collective& co, Args* args) {
  const Local loc = prologue(co, x.h, x.desc_b, x.info, {x.op, x.n, x.nrhs, x.ia, x.ja, x.ib, x.jb, x.compute_type},
                             {x.desc_a, x.desc_b}, [&](Check& c) {
    c.one_of(x.op, ops, 1, nm.op).nonnegative(x.n, 2, nm.n).nonnegative(x.nrhs, 3, nm.nrhs)
        .require(co.sizing || x.a != nullptr || !needs_data(x.desc_a), 4, nm.a).require(x.ia >= 1, 5, nm.ia)
        .require(x.ja >= 1, 6, nm.ja).require(g_descs.contains(x.desc_a), 7, nm.desc_a);
    const bool a_rows = g_descs.contains(x.desc_a) && x.desc_a->d.local_rows() > 0;
    if (nm.pivots) c.require(co.sizing || x.ipiv != nullptr || !a_rows, 8, "d_ipiv");
    const int p = nm.pivots ? 1 : 0;
    c.require(co.sizing || x.b != nullptr || !needs_data(x.desc_b), 8 + p, nm.b).require(x.ib >= 1, 9 + p, nm.ib)
        .require(x.jb >= 1, 10 + p, nm.jb).require(g_descs.contains(x.desc_b), 11 + p, nm.desc_b)
        .require(compute_of(x.compute_type, x.desc_a, args), 12 + p, "computeType");
    check_tail(c, co, 13 + p, x.work, x.work_bytes, x.info, {x.ia, x.ja, x.ib, x.jb});
  });
  if (loc.status == kOk) {
    args->n = x.n, args->nrhs = x.nrhs, args->a = x.a, args->b = x.b;
    args->desc_a = &x.desc_a->d, args->desc_b = &x.desc_b->d;
    args->work = x.work, args->work_bytes = x.work_bytes;
  }
  return loc;
}

Status getrs_call(const SolveCall& x, Collective co) {
  trn::solvermp::GetrsArgs args;
  const Local loc = solve_prologue(x, kGetrsNames, {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, co, &args);
  if (loc.status == TRNSOLVER_STATUS_SUCCESS) args.trans = static_cast<trn::blas::COp>(x.op), args.ipiv = x.ipiv;
  using trn::solvermp::GetrsArgs;
  return run_collective<GetrsArgs>(co, loc, args, trn::solvermp::getrs_mismatch, trn::solvermp::getrs_workspace_bytes,
                                   trn::solvermp::getrs);
}

// ---- Potrf / Potrs ----

struct PotrfCall {
  trnsolverMpHandle_t h;
  int uplo;
  std::int64_t n;
  void* a;
  std::int64_t ia, ja;
  trnsolverMpMatrixDescriptor_t desc_a;
  int compute_type;
  void* work;
  std::size_t work_bytes;
  int* info;
};

Status potrf_call(const PotrfCall& x, Collective co) {
  trn::solvermp::PotrfArgs args;
  const Local loc = prologue(co, x.h, x.desc_a, x.info, {x.uplo, x.n, x.ia, x.ja, x.compute_type}, {x.desc_a}, [&](Check& c) {
    c.one_of(x.uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 1, "uplo").nonnegative(x.n, 2, "n")
        .require(co.sizing || x.a != nullptr || !needs_data(x.desc_a), 3, "a").require(x.ia >= 1, 4, "ia")
        .require(x.ja >= 1, 5, "ja").require(g_descs.contains(x.desc_a), 6, "descA")
        .require(compute_of(x.compute_type, x.desc_a, &args), 7, "computeType");
    check_tail(c, co, 8, x.work, x.work_bytes, x.info, {x.ia, x.ja});
  });
  if (loc.status == kOk) {
    args.uplo = static_cast<trn::blas::Uplo>(x.uplo);
    args.n = x.n, args.a = x.a, args.desc_a = &x.desc_a->d;
    args.work = x.work, args.work_bytes = x.work_bytes;
  }
  using trn::solvermp::PotrfArgs;
  return run_collective<PotrfArgs>(co, loc, args, trn::solvermp::potrf_mismatch, trn::solvermp::potrf_workspace_bytes,
                                   trn::solvermp::potrf);
}

Status potrs_call(const SolveCall& x, Collective co) {
  trn::solvermp::PotrsArgs args;
  const Local loc =
      solve_prologue(x, kPotrsNames, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, co, &args);
  if (loc.status == TRNSOLVER_STATUS_SUCCESS) args.uplo = static_cast<trn::blas::Uplo>(x.op);
  using trn::solvermp::PotrsArgs;
  return run_collective<PotrsArgs>(co, loc, args, trn::solvermp::potrs_mismatch, trn::solvermp::potrs_workspace_bytes,
                                   trn::solvermp::potrs);
}

// ---- Geqrf / Ormqr / Gels ----

const char* const kLeftOnly = "only side = TRNBLAS_SIDE_LEFT";
const char* const kGelsOnly = "only trans = TRNBLAS_OP_N with M >= N (least squares)";

bool is_complex_type(int compute_type) { return compute_type == TRN_C_32F || compute_type == TRN_C_64F; }

// Whether this rank holds any of the first `cols` global columns of d (its tau entries, ScaLAPACK's LOCc).
bool owns_columns(trnsolverMpMatrixDescriptor_t d, std::int64_t cols) {
  if (!g_descs.contains(d) || cols <= 0) return false;
  const trn::blasmp::Grid& g = *d->d.grid;
  return trn::blasmp::numroc(cols, d->d.nb, g.mycol, d->d.csrc, g.npcol) > 0;
}

struct GeqrfCall {
  trnsolverMpHandle_t h;
  std::int64_t m, n;
  void* a;
  std::int64_t ia, ja;
  trnsolverMpMatrixDescriptor_t desc_a;
  void* tau;
  int compute_type;
  void* work;
  std::size_t work_bytes;
  int* info;
};

Status geqrf_call(const GeqrfCall& x, Collective co) {
  trn::solvermp::GeqrfArgs args;
  const Local loc = prologue(co, x.h, x.desc_a, x.info, {x.m, x.n, x.ia, x.ja, x.compute_type}, {x.desc_a}, [&](Check& c) {
    const int t = co.sizing ? 7 : 8;  // _bufferSize has no d_tau
    c.nonnegative(x.m, 1, "M").nonnegative(x.n, 2, "N").require(co.sizing || x.a != nullptr || !needs_data(x.desc_a), 3, "d_A")
        .require(x.ia >= 1, 4, "IA").require(x.ja >= 1, 5, "JA").require(g_descs.contains(x.desc_a), 6, "descrA")
        .require(co.sizing || x.tau != nullptr || !owns_columns(x.desc_a, std::min(x.m, x.n)), 7, "d_tau")
        .require(compute_of(x.compute_type, x.desc_a, &args), t, "computeType");
    check_tail(c, co, t + 1, x.work, x.work_bytes, x.info, {x.ia, x.ja});
  });
  if (loc.status == kOk) {
    args.m = x.m, args.n = x.n, args.a = x.a, args.desc_a = &x.desc_a->d, args.tau = x.tau;
    args.work = x.work, args.work_bytes = x.work_bytes;
  }
  using trn::solvermp::GeqrfArgs;
  return run_collective<GeqrfArgs>(co, loc, args, trn::solvermp::geqrf_mismatch, trn::solvermp::geqrf_workspace_bytes,
                                   trn::solvermp::geqrf);
}

struct OrmqrCall {
  trnsolverMpHandle_t h;
  int side, trans;
  std::int64_t m, n, k;
  const void* a;
  std::int64_t ia, ja;
  trnsolverMpMatrixDescriptor_t desc_a;
  const void* tau;
  void* c;
  std::int64_t ic, jc;
  trnsolverMpMatrixDescriptor_t desc_c;
  int compute_type;
  void* work;
  std::size_t work_bytes;
  int* info;
};

Status ormqr_call(const OrmqrCall& x, Collective co) {
  trn::solvermp::OrmqrArgs args;
  const Local loc = prologue(co, x.h, x.desc_c, x.info, {x.side, x.trans, x.m, x.n, x.k, x.ia, x.ja, x.ic, x.jc, x.compute_type},
                             {x.desc_a, x.desc_c}, [&](Check& c) {
    const int adjoint = is_complex_type(x.compute_type) ? TRNBLAS_OP_C : TRNBLAS_OP_T;  // LAPACK's xORMQR / xUNMQR
    c.one_of(x.side, {TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT}, 1, "side").one_of(x.trans, {TRNBLAS_OP_N, adjoint}, 2, "trans")
        .nonnegative(x.m, 3, "M").nonnegative(x.n, 4, "N").require(x.k >= 0 && x.k <= (x.side == TRNBLAS_SIDE_LEFT ? x.m : x.n), 5, "K")
        .require(co.sizing || x.a != nullptr || !needs_data(x.desc_a), 6, "d_A").require(x.ia >= 1, 7, "IA")
        .require(x.ja >= 1, 8, "JA").require(g_descs.contains(x.desc_a), 9, "descrA")
        .require(co.sizing || x.tau != nullptr || !owns_columns(x.desc_a, x.k), 10, "d_tau")
        .require(co.sizing || x.c != nullptr || !needs_data(x.desc_c), 11, "d_C").require(x.ic >= 1, 12, "IC")
        .require(x.jc >= 1, 13, "JC").require(g_descs.contains(x.desc_c), 14, "descrC")
        .require(compute_of(x.compute_type, x.desc_a, &args), 15, "computeType");
    check_tail(c, co, 16, x.work, x.work_bytes, x.info, {x.ia, x.ja, x.ic, x.jc});
    c.require_or(x.side == TRNBLAS_SIDE_LEFT, TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED", kLeftOnly);
  });
  if (loc.status == kOk) {
    args.trans = static_cast<trn::blas::COp>(x.trans);
    args.m = x.m, args.n = x.n, args.k = x.k, args.a = x.a, args.desc_a = &x.desc_a->d, args.tau = x.tau;
    args.c = x.c, args.desc_c = &x.desc_c->d;
    args.work = x.work, args.work_bytes = x.work_bytes;
  }
  using trn::solvermp::OrmqrArgs;
  return run_collective<OrmqrArgs>(co, loc, args, trn::solvermp::ormqr_mismatch, trn::solvermp::ormqr_workspace_bytes,
                                   trn::solvermp::ormqr);
}

struct GelsCall {
  trnsolverMpHandle_t h;
  int trans;
  std::int64_t m, n, nrhs;
  void* a;
  std::int64_t ia, ja;
  trnsolverMpMatrixDescriptor_t desc_a;
  void* b;
  std::int64_t ib, jb;
  trnsolverMpMatrixDescriptor_t desc_b;
  int compute_type;
  void* work;
  std::size_t work_bytes;
  int* info;
};

Status gels_call(const GelsCall& x, Collective co) {
  trn::solvermp::GelsArgs args;
  const Local loc = prologue(co, x.h, x.desc_b, x.info, {x.trans, x.m, x.n, x.nrhs, x.ia, x.ja, x.ib, x.jb, x.compute_type},
                             {x.desc_a, x.desc_b}, [&](Check& c) {
    c.one_of(x.trans, {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, 1, "trans").nonnegative(x.m, 2, "M")
        .nonnegative(x.n, 3, "N").nonnegative(x.nrhs, 4, "NRHS").require(co.sizing || x.a != nullptr || !needs_data(x.desc_a), 5, "d_A")
        .require(x.ia >= 1, 6, "IA").require(x.ja >= 1, 7, "JA").require(g_descs.contains(x.desc_a), 8, "descrA")
        .require(co.sizing || x.b != nullptr || !needs_data(x.desc_b), 9, "d_B").require(x.ib >= 1, 10, "IB")
        .require(x.jb >= 1, 11, "JB").require(g_descs.contains(x.desc_b), 12, "descrB")
        .require(compute_of(x.compute_type, x.desc_a, &args), 13, "computeType");
    check_tail(c, co, 14, x.work, x.work_bytes, x.info, {x.ia, x.ja, x.ib, x.jb});
    c.require_or(x.trans == TRNBLAS_OP_N && x.m >= x.n, TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED", kGelsOnly);
  });
  if (loc.status == kOk) {
    args.trans = static_cast<trn::blas::COp>(x.trans);
    args.m = x.m, args.n = x.n, args.nrhs = x.nrhs, args.a = x.a, args.desc_a = &x.desc_a->d;
    args.b = x.b, args.desc_b = &x.desc_b->d;
    args.work = x.work, args.work_bytes = x.work_bytes;
  }
  using trn::solvermp::GelsArgs;
  return run_collective<GelsArgs>(co, loc, args, trn::solvermp::gels_mismatch, trn::solvermp::gels_workspace_bytes,
                                  trn::solvermp::gels);
}

// ---- Orgqr ----

struct OrgqrCall {
  trnsolverMpHandle_t h;
  std::int64_t m, n, k;
  void* a;
  std::int64_t ia, ja;
  trnsolverMpMatrixDescriptor_t desc_a;
  const void* tau;
  int compute_type;
  void* work;
  std::size_t work_bytes;
  int* info;
};

// cuSOLVERMp's order (m, n, k, d_A, ia, ja, descA, d_tau, computeType; LAPACK xORGQR's m >= n >= k >= 0).
Status orgqr_call(const OrgqrCall& x, Collective co) {
  trn::solvermp::OrgqrArgs args;
  const Local loc = prologue(co, x.h, x.desc_a, x.info, {x.m, x.n, x.k, x.ia, x.ja, x.compute_type}, {x.desc_a}, [&](Check& c) {
    c.nonnegative(x.m, 1, "m").require(x.n >= 0 && x.n <= x.m, 2, "n").require(x.k >= 0 && x.k <= x.n, 3, "k")
        .require(co.sizing || x.a != nullptr || !needs_data(x.desc_a), 4, "d_A").require(x.ia >= 1, 5, "ia")
        .require(x.ja >= 1, 6, "ja").require(g_descs.contains(x.desc_a), 7, "descA")
        .require(co.sizing || x.tau != nullptr || !owns_columns(x.desc_a, x.k), 8, "d_tau")
        .require(compute_of(x.compute_type, x.desc_a, &args), 9, "computeType");
    check_tail(c, co, 10, x.work, x.work_bytes, x.info, {x.ia, x.ja});
  });
  if (loc.status == kOk) {
    args.m = x.m, args.n = x.n, args.k = x.k, args.a = x.a, args.desc_a = &x.desc_a->d, args.tau = x.tau;
    args.work = x.work, args.work_bytes = x.work_bytes;
  }
  using trn::solvermp::OrgqrArgs;
  return run_collective<OrgqrArgs>(co, loc, args, trn::solvermp::orgqr_mismatch, trn::solvermp::orgqr_workspace_bytes,
                                   trn::solvermp::orgqr);
}

// ---- Syevd / Sygvd ----

// cuSOLVERMp's Sygvd: "the current implementation supports the inputs of ibtype = CUSOLVER_EIG_TYPE_1"
// (cuSOLVERMp functions reference, cusolverMpSygvd); itype 2 and 3 are NOT_SUPPORTED as there.
const char* const kEigType1 = "only itype = TRNSOLVER_EIG_TYPE_1 (A x = lambda B x), as cuSOLVERMp's Sygvd";

// The arguments of one Syevd / Sygvd call (or its _bufferSize), as the caller passed them. Syevd's jobz is
// cuSOLVERMp's string ("N" / "V"), Sygvd's the enum; Syevd has no itype and no B.
struct EigCall {
  trnsolverMpHandle_t h;
  bool gv;
  int itype;
  const char* jobz_text;
  int jobz;
  int uplo;
  std::int64_t n;
  void* a;
  std::int64_t ia, ja;
  trnsolverMpMatrixDescriptor_t desc_a;
  void* b;
  std::int64_t ib, jb;
  trnsolverMpMatrixDescriptor_t desc_b;
  void* d;
  void* z;
  std::int64_t iz, jz;
  trnsolverMpMatrixDescriptor_t desc_z;
  int compute_type;
  void* work;
  std::size_t work_bytes;
  int* info;
};

// Syevd's jobz: 1 "V", 0 "N", -1 anything else (NULL included).
int jobz_of(const char* j) {
  if (j == nullptr || (j[0] != 'N' && j[0] != 'V') || j[1] != '\0') return -1;
  return j[0] == 'V' ? 1 : 0;
}

// cuSOLVERMp's order: [itype,] jobz, uplo, N, A (IA, JA, descrA), [B (IB, JB, descrB),] D, Z (IZ, JZ,
// descrZ), computeType, workspace, info. Sygvd's _bufferSize has no data pointers (positions close up);
// Syevd's has d_A, d_D and d_Z (cusolverMpSyevd_bufferSize's signature) at their positions, not read (a
// size query needs no data: they are not checked).
Local eig_checks(const EigCall& x, const Collective& co, bool vectors, trn::solvermp::SygvdArgs* args) {
  Check c(g_log, co.fn, TRNSOLVER_STATUS_INVALID_VALUE, &x.h->last_error_param);
  int p = 0;
  const auto next = [&](bool pointer) { return pointer && co.sizing && x.gv ? 0 : ++p; };
  const bool call = !co.sizing;
  if (x.gv) c.one_of(x.itype, {TRNSOLVER_EIG_TYPE_1, TRNSOLVER_EIG_TYPE_2, TRNSOLVER_EIG_TYPE_3}, next(false), "itype");
  if (x.gv) c.one_of(x.jobz, {TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR}, next(false), "jobz");
  else c.require(jobz_of(x.jobz_text) >= 0, next(false), "jobz");
  c.one_of(x.uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, next(false), "uplo").nonnegative(x.n, next(false), "N");
  const int pa = next(true);
  if (call) c.require(x.a != nullptr || !needs_data(x.desc_a), pa, "d_A");
  c.require(x.ia >= 1, next(false), "IA").require(x.ja >= 1, next(false), "JA").require(g_descs.contains(x.desc_a), next(false), "descrA");
  if (x.gv) {
    const int pb = next(true);
    if (call) c.require(x.b != nullptr || !needs_data(x.desc_b), pb, "d_B");
    c.require(x.ib >= 1, next(false), "IB").require(x.jb >= 1, next(false), "JB").require(g_descs.contains(x.desc_b), next(false), "descrB");
  }
  const int pd = next(true), pz = next(true);
  if (call) c.require(x.d != nullptr || x.n == 0, pd, x.gv ? "d_W" : "d_D");
  if (call) c.require(!vectors || x.z != nullptr || !needs_data(x.desc_z), pz, "d_Z");
  c.require(x.iz >= 1, next(false), "IZ").require(x.jz >= 1, next(false), "JZ")
      .require(!vectors || g_descs.contains(x.desc_z), next(false), "descrZ")
      .require(compute_of(x.compute_type, x.desc_a, args), next(false), "computeType");
  check_tail(c, co, p + 1, x.work, x.work_bytes, x.info, {x.ia, x.ja, x.gv ? x.ib : 1, x.gv ? x.jb : 1, x.iz, x.jz});
  if (x.gv) c.require_or(x.itype == TRNSOLVER_EIG_TYPE_1, TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED", kEigType1);
  return {c.status(), c.failed_position()};
}

Status eig_call(const EigCall& x, Collective co) {
  trn::solvermp::SygvdArgs args;
  Local loc;
  const bool vectors = x.gv ? x.jobz == TRNSOLVER_EIG_MODE_VECTOR : jobz_of(x.jobz_text) == 1;
  co.h = x.h, co.carrier = x.desc_a, co.info = co.sizing ? nullptr : x.info;
  co.exchanged = {x.gv, x.itype, x.gv ? x.jobz : jobz_of(x.jobz_text), x.uplo, x.n, x.ia, x.ja, x.ib, x.jb, x.iz, x.jz, x.compute_type};
  push_desc(co.exchanged, x.desc_a);
  if (x.gv) push_desc(co.exchanged, x.desc_b);
  if (vectors) push_desc(co.exchanged, x.desc_z);
  if (g_handles.contains(x.h)) {
    loc = eig_checks(x, co, vectors, &args);
    if (loc.status == TRNSOLVER_STATUS_SUCCESS) {
      args.itype = x.gv ? x.itype : 1, args.vectors = vectors, args.uplo = static_cast<trn::blas::Uplo>(x.uplo);
      args.n = x.n, args.a = x.a, args.desc_a = &x.desc_a->d, args.d = x.d;
      args.z = x.z, args.desc_z = vectors ? &x.desc_z->d : nullptr;
      if (x.gv) args.b = x.b, args.desc_b = &x.desc_b->d;
      args.work = x.work, args.work_bytes = x.work_bytes;
    }
  }
  using trn::solvermp::SygvdArgs;
  if (x.gv)
    return run_collective<SygvdArgs>(co, loc, args, trn::solvermp::sygvd_mismatch, trn::solvermp::sygvd_workspace_bytes,
                                     trn::solvermp::sygvd);
  return run_collective<SygvdArgs>(
      co, loc, args, [](const SygvdArgs& a) { return trn::solvermp::syevd_mismatch(a); },
      [](const SygvdArgs& a) { return trn::solvermp::syevd_workspace_bytes(a); },
      trn::solvermp::syevd);
}

Collective call_of(const char* fn) { return Collective{nullptr, fn, nullptr, {}, nullptr, nullptr, false, nullptr}; }
Collective sizing_of(const char* fn, size_t* wd, size_t* wh) { return Collective{nullptr, fn, nullptr, {}, wd, wh, true, nullptr}; }

}  // namespace

extern "C" {

trnsolverStatus_t trnsolverMpCreate(trnsolverMpHandle_t* handle, int deviceId, trnStream_t stream) {
  return Surface::create(handle, [&](trnsolverMpHandle& h) {
    h.stream = stream;
    h.device = deviceId;
    trnProfile_t none{};
    none.target = TRN_TARGET_TRN1;
    h.last_profile.store(none);
  });
}

trnsolverStatus_t trnsolverMpDestroy(trnsolverMpHandle_t handle) { return Surface::destroy(handle); }

trnsolverStatus_t trnsolverMpGetStream(trnsolverMpHandle_t handle, trnStream_t* stream) {
  return Surface::get(handle, "trnsolverMpGetStream", stream, "stream", [](const trnsolverMpHandle& h) { return h.stream; });
}

trnsolverStatus_t trnsolverMpGetVersion(trnsolverMpHandle_t handle, int* version) {
  return Surface::get(handle, "trnsolverMpGetVersion", version, "version",
                      [](const trnsolverMpHandle&) { return TRNSOLVERMP_VERSION; });
}

trnsolverStatus_t trnsolverMpCreateDeviceGrid(trnsolverMpHandle_t handle, trnsolverMpGrid_t* grid, MPI_Comm comm,
                                              int32_t numRowDevices, int32_t numColDevices,
                                              trnsolverMpGridMapping_t mapping) {
  const char* fn = "trnsolverMpCreateDeviceGrid";
  const int map = trn::cshim::enum_value(mapping);
  if (comm == MPI_COMM_NULL) return trn::cshim::fail(g_log, kStatusMap, fn, TRNSOLVER_STATUS_INVALID_VALUE, "comm is MPI_COMM_NULL");
  // Every rank enters the exchange whatever its own arguments: a rank that returned early would leave
  // the others waiting.
  Status local = TRNSOLVER_STATUS_NOT_INITIALIZED;
  if (g_handles.contains(handle)) {
    Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &handle->last_error_param);
    c.not_null(grid, 1, "grid").require(numRowDevices >= 1, 3, "numRowDevices").require(numColDevices >= 1, 4, "numColDevices")
        .one_of(map, {TRNSOLVERMP_GRID_MAPPING_COL_MAJOR, TRNSOLVERMP_GRID_MAPPING_ROW_MAJOR}, 5, "mapping");
    local = c.status();
  }
  const char* why = nullptr;
  const Status st = trn::blasmp::detail::agreed_status(comm, local, {numRowDevices, numColDevices, map},
                                                       TRNSOLVER_STATUS_INVALID_VALUE, TRNSOLVER_STATUS_INVALID_VALUE, &why);
  if (why != nullptr) return trn::cshim::fail(g_log, kStatusMap, fn, st, why);
  if (st != TRNSOLVER_STATUS_SUCCESS) return st;
  return trn::blasmp::detail::create_grid(g_grids, g_log, kStatusMap, fn, numRowDevices, numColDevices,
                                         static_cast<trn::blasmp::GridLayout>(map), comm, grid);
}

trnsolverStatus_t trnsolverMpDestroyGrid(trnsolverMpGrid_t grid) {
  if (!g_grids.erase(grid)) return TRNSOLVER_STATUS_INVALID_VALUE;
  trn::blasmp::grid_destroy(grid->g);
  delete grid;
  return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverMpCreateMatrixDesc(trnsolverMpMatrixDescriptor_t* desc, trnsolverMpGrid_t grid,
                                              trnDataType_t dataType, int64_t M_A, int64_t N_A, int64_t MB_A,
                                              int64_t NB_A, uint32_t RSRC_A, uint32_t CSRC_A, int64_t LLD_A) {
  const int t = trn::cshim::enum_value(dataType);
  Check c(g_log, "trnsolverMpCreateMatrixDesc", TRNSOLVER_STATUS_INVALID_VALUE);
  c.not_null(desc, 1, "desc").require(g_grids.contains(grid), 2, "grid").one_of(t, kTypes, 3, "dataType")
      .nonnegative(M_A, 4, "M_A").nonnegative(N_A, 5, "N_A").require(MB_A >= 1, 6, "MB_A").require(NB_A >= 1, 7, "NB_A");
  if (!c) return c.status();
  const trn::blasmp::Grid& g = grid->g;
  c.require(RSRC_A < static_cast<uint32_t>(g.nprow), 8, "RSRC_A").require(CSRC_A < static_cast<uint32_t>(g.npcol), 9, "CSRC_A");
  if (!c) return c.status();
  const trn::blasmp::Descriptor d{M_A, N_A, MB_A, NB_A, RSRC_A, CSRC_A, LLD_A, static_cast<trnDataType_t>(t), &g};
  if (!c.leading_dim(LLD_A, d.local_rows(), 10, "LLD_A")) return c.status();
  return trn::cshim::create_registered(g_descs, desc, TRNSOLVER_STATUS_INVALID_VALUE, TRNSOLVER_STATUS_ALLOC_FAILED,
                                       TRNSOLVER_STATUS_SUCCESS, [&](trnsolverMpMatrixDescriptor& p) {
                                         p.d = d;
                                         p.grid = grid;
                                       });
}

trnsolverStatus_t trnsolverMpDestroyMatrixDesc(trnsolverMpMatrixDescriptor_t desc) {
  return g_descs.destroy(desc) ? TRNSOLVER_STATUS_SUCCESS : TRNSOLVER_STATUS_INVALID_VALUE;
}

int64_t trnsolverMpNUMROC(int64_t n, int64_t nb, uint32_t iproc, uint32_t isrcproc, uint32_t nprocs) {
  return trn::blasmp::numroc(n, nb, iproc, isrcproc, nprocs);
}

trnsolverStatus_t trnsolverMpGetrf_bufferSize(trnsolverMpHandle_t handle, int64_t M, int64_t N, void* d_A, int64_t IA,
                                              int64_t JA, trnsolverMpMatrixDescriptor_t descrA, int64_t* d_ipiv,
                                              trnDataType_t computeType, size_t* workspaceInBytesOnDevice,
                                              size_t* workspaceInBytesOnHost) {
  const GetrfCall x{handle, M, N, d_A, IA, JA, descrA, d_ipiv, trn::cshim::enum_value(computeType), nullptr, 0, nullptr};
  return getrf_call(x, sizing_of("trnsolverMpGetrf_bufferSize", workspaceInBytesOnDevice, workspaceInBytesOnHost));
}

trnsolverStatus_t trnsolverMpGetrf(trnsolverMpHandle_t handle, int64_t M, int64_t N, void* d_A, int64_t IA, int64_t JA,
                                   trnsolverMpMatrixDescriptor_t descrA, int64_t* d_ipiv, trnDataType_t computeType,
                                   void* d_work, size_t workspaceInBytesOnDevice, void* h_work,
                                   size_t workspaceInBytesOnHost, int* info) {
  (void)h_work;
  (void)workspaceInBytesOnHost;
  const GetrfCall x{handle, M, N, d_A, IA, JA, descrA, d_ipiv, trn::cshim::enum_value(computeType), d_work,
                    workspaceInBytesOnDevice, info};
  return getrf_call(x, call_of("trnsolverMpGetrf"));
}

trnsolverStatus_t trnsolverMpGetrs_bufferSize(trnsolverMpHandle_t handle, trnblasOperation_t trans, int64_t N,
                                              int64_t NRHS, const void* d_A, int64_t IA, int64_t JA,
                                              trnsolverMpMatrixDescriptor_t descrA, const int64_t* d_ipiv, void* d_B,
                                              int64_t IB, int64_t JB, trnsolverMpMatrixDescriptor_t descrB,
                                              trnDataType_t computeType, size_t* workspaceInBytesOnDevice,
                                              size_t* workspaceInBytesOnHost) {
  const SolveCall x{handle, trn::cshim::enum_value(trans), N, NRHS, d_A, IA, JA, descrA, d_ipiv, d_B, IB, JB, descrB,
                    trn::cshim::enum_value(computeType), nullptr, 0, nullptr};
  return getrs_call(x, sizing_of("trnsolverMpGetrs_bufferSize", workspaceInBytesOnDevice, workspaceInBytesOnHost));
}

trnsolverStatus_t trnsolverMpGetrs(trnsolverMpHandle_t handle, trnblasOperation_t trans, int64_t N, int64_t NRHS,
                                   const void* d_A, int64_t IA, int64_t JA, trnsolverMpMatrixDescriptor_t descrA,
                                   const int64_t* d_ipiv, void* d_B, int64_t IB, int64_t JB,
                                   trnsolverMpMatrixDescriptor_t descrB, trnDataType_t computeType, void* d_work,
                                   size_t workspaceInBytesOnDevice, void* h_work, size_t workspaceInBytesOnHost,
                                   int* d_info) {
  (void)h_work;
  (void)workspaceInBytesOnHost;
  const SolveCall x{handle, trn::cshim::enum_value(trans), N, NRHS, d_A, IA, JA, descrA, d_ipiv, d_B, IB, JB, descrB,
                    trn::cshim::enum_value(computeType), d_work, workspaceInBytesOnDevice, d_info};
  return getrs_call(x, call_of("trnsolverMpGetrs"));
}

trnsolverStatus_t trnsolverMpPotrf_bufferSize(trnsolverMpHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                              const void* a, int64_t ia, int64_t ja, trnsolverMpMatrixDescriptor_t descA,
                                              trnDataType_t computeType, size_t* workspaceInBytesOnDevice,
                                              size_t* workspaceInBytesOnHost) {
  const PotrfCall x{handle, trn::cshim::enum_value(uplo), n, const_cast<void*>(a), ia, ja, descA,
                    trn::cshim::enum_value(computeType), nullptr, 0, nullptr};
  return potrf_call(x, sizing_of("trnsolverMpPotrf_bufferSize", workspaceInBytesOnDevice, workspaceInBytesOnHost));
}

trnsolverStatus_t trnsolverMpPotrf(trnsolverMpHandle_t handle, trnblasFillMode_t uplo, int64_t n, void* a, int64_t ia,
                                   int64_t ja, trnsolverMpMatrixDescriptor_t descA, trnDataType_t computeType,
                                   void* d_work, size_t workspaceInBytesOnDevice, void* h_work,
                                   size_t workspaceInBytesOnHost, int* info) {
  (void)h_work;
  (void)workspaceInBytesOnHost;
  const PotrfCall x{handle, trn::cshim::enum_value(uplo), n, a, ia, ja, descA, trn::cshim::enum_value(computeType),
                    d_work, workspaceInBytesOnDevice, info};
  return potrf_call(x, call_of("trnsolverMpPotrf"));
}

trnsolverStatus_t trnsolverMpPotrs_bufferSize(trnsolverMpHandle_t handle, trnblasFillMode_t uplo, int64_t n, int64_t nrhs,
                                              const void* a, int64_t ia, int64_t ja, trnsolverMpMatrixDescriptor_t descA,
                                              const void* b, int64_t ib, int64_t jb, trnsolverMpMatrixDescriptor_t descB,
                                              trnDataType_t computeType, size_t* workspaceInBytesOnDevice,
                                              size_t* workspaceInBytesOnHost) {
  const SolveCall x{handle, trn::cshim::enum_value(uplo), n, nrhs, a, ia, ja, descA, nullptr, const_cast<void*>(b), ib, jb, descB,
                    trn::cshim::enum_value(computeType), nullptr, 0, nullptr};
  return potrs_call(x, sizing_of("trnsolverMpPotrs_bufferSize", workspaceInBytesOnDevice, workspaceInBytesOnHost));
}

trnsolverStatus_t trnsolverMpPotrs(trnsolverMpHandle_t handle, trnblasFillMode_t uplo, int64_t n, int64_t nrhs,
                                   const void* a, int64_t ia, int64_t ja, trnsolverMpMatrixDescriptor_t descA, void* b,
                                   int64_t ib, int64_t jb, trnsolverMpMatrixDescriptor_t descB,
                                   trnDataType_t computeType, void* d_work, size_t workspaceInBytesOnDevice,
                                   void* h_work, size_t workspaceInBytesOnHost, int* info) {
  (void)h_work;
  (void)workspaceInBytesOnHost;
  const SolveCall x{handle, trn::cshim::enum_value(uplo), n, nrhs, a, ia, ja, descA, nullptr, b, ib, jb, descB,
                    trn::cshim::enum_value(computeType), d_work, workspaceInBytesOnDevice, info};
  return potrs_call(x, call_of("trnsolverMpPotrs"));
}

trnsolverStatus_t trnsolverMpGeqrf_bufferSize(trnsolverMpHandle_t handle, int64_t M, int64_t N, void* d_A, int64_t IA,
                                              int64_t JA, trnsolverMpMatrixDescriptor_t descrA, trnDataType_t computeType,
                                              size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost) {
  const GeqrfCall x{handle, M, N, d_A, IA, JA, descrA, nullptr, trn::cshim::enum_value(computeType), nullptr, 0, nullptr};
  return geqrf_call(x, sizing_of("trnsolverMpGeqrf_bufferSize", workspaceInBytesOnDevice, workspaceInBytesOnHost));
}

trnsolverStatus_t trnsolverMpGeqrf(trnsolverMpHandle_t handle, int64_t M, int64_t N, void* d_A, int64_t IA, int64_t JA,
                                   trnsolverMpMatrixDescriptor_t descrA, void* d_tau, trnDataType_t computeType, void* d_work,
                                   size_t workspaceInBytesOnDevice, void* h_work, size_t workspaceInBytesOnHost,
                                   int* d_info) {
  (void)h_work;
  (void)workspaceInBytesOnHost;
  const GeqrfCall x{handle, M, N, d_A, IA, JA, descrA, d_tau, trn::cshim::enum_value(computeType), d_work,
                    workspaceInBytesOnDevice, d_info};
  return geqrf_call(x, call_of("trnsolverMpGeqrf"));
}

trnsolverStatus_t trnsolverMpOrmqr_bufferSize(trnsolverMpHandle_t handle, trnblasSideMode_t side, trnblasOperation_t trans,
                                              int64_t M, int64_t N, int64_t K, const void* d_A, int64_t IA, int64_t JA,
                                              trnsolverMpMatrixDescriptor_t descrA, const void* d_tau, void* d_C, int64_t IC,
                                              int64_t JC, trnsolverMpMatrixDescriptor_t descrC, trnDataType_t computeType,
                                              size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost) {
  const OrmqrCall x{handle, trn::cshim::enum_value(side), trn::cshim::enum_value(trans), M, N, K, d_A, IA, JA, descrA, d_tau,
                    d_C, IC, JC, descrC, trn::cshim::enum_value(computeType), nullptr, 0, nullptr};
  return ormqr_call(x, sizing_of("trnsolverMpOrmqr_bufferSize", workspaceInBytesOnDevice, workspaceInBytesOnHost));
}

trnsolverStatus_t trnsolverMpOrmqr(trnsolverMpHandle_t handle, trnblasSideMode_t side, trnblasOperation_t trans, int64_t M,
                                   int64_t N, int64_t K, const void* d_A, int64_t IA, int64_t JA,
                                   trnsolverMpMatrixDescriptor_t descrA, const void* d_tau, void* d_C, int64_t IC, int64_t JC,
                                   trnsolverMpMatrixDescriptor_t descrC, trnDataType_t computeType, void* d_work,
                                   size_t workspaceInBytesOnDevice, void* h_work, size_t workspaceInBytesOnHost,
                                   int* d_info) {
  (void)h_work;
  (void)workspaceInBytesOnHost;
  const OrmqrCall x{handle, trn::cshim::enum_value(side), trn::cshim::enum_value(trans), M, N, K, d_A, IA, JA, descrA, d_tau,
                    d_C, IC, JC, descrC, trn::cshim::enum_value(computeType), d_work, workspaceInBytesOnDevice, d_info};
  return ormqr_call(x, call_of("trnsolverMpOrmqr"));
}

trnsolverStatus_t trnsolverMpGels_bufferSize(trnsolverMpHandle_t handle, trnblasOperation_t trans, int64_t M, int64_t N,
                                             int64_t NRHS, void* d_A, int64_t IA, int64_t JA,
                                             trnsolverMpMatrixDescriptor_t descrA, void* d_B, int64_t IB, int64_t JB,
                                             trnsolverMpMatrixDescriptor_t descrB, trnDataType_t computeType,
                                             size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost) {
  const GelsCall x{handle, trn::cshim::enum_value(trans), M, N, NRHS, d_A, IA, JA, descrA, d_B, IB, JB, descrB,
                   trn::cshim::enum_value(computeType), nullptr, 0, nullptr};
  return gels_call(x, sizing_of("trnsolverMpGels_bufferSize", workspaceInBytesOnDevice, workspaceInBytesOnHost));
}

trnsolverStatus_t trnsolverMpGels(trnsolverMpHandle_t handle, trnblasOperation_t trans, int64_t M, int64_t N, int64_t NRHS,
                                  void* d_A, int64_t IA, int64_t JA, trnsolverMpMatrixDescriptor_t descrA, void* d_B,
                                  int64_t IB, int64_t JB, trnsolverMpMatrixDescriptor_t descrB, trnDataType_t computeType,
                                  void* d_work, size_t workspaceInBytesOnDevice, void* h_work,
                                  size_t workspaceInBytesOnHost, int* d_info) {
  (void)h_work;
  (void)workspaceInBytesOnHost;
  const GelsCall x{handle, trn::cshim::enum_value(trans), M, N, NRHS, d_A, IA, JA, descrA, d_B, IB, JB, descrB,
                   trn::cshim::enum_value(computeType), d_work, workspaceInBytesOnDevice, d_info};
  return gels_call(x, call_of("trnsolverMpGels"));
}

trnsolverStatus_t trnsolverMpOrgqr_bufferSize(trnsolverMpHandle_t handle, int64_t m, int64_t n, int64_t k, const void* d_A,
                                              int64_t ia, int64_t ja, trnsolverMpMatrixDescriptor_t descA, const void* d_tau,
                                              trnDataType_t computeType, size_t* workspaceInBytesOnDevice,
                                              size_t* workspaceInBytesOnHost) {
  const OrgqrCall x{handle, m, n, k, const_cast<void*>(d_A), ia, ja, descA, d_tau, trn::cshim::enum_value(computeType), nullptr, 0,
                    nullptr};
  return orgqr_call(x, sizing_of("trnsolverMpOrgqr_bufferSize", workspaceInBytesOnDevice, workspaceInBytesOnHost));
}

trnsolverStatus_t trnsolverMpOrgqr(trnsolverMpHandle_t handle, int64_t m, int64_t n, int64_t k, void* d_A, int64_t ia, int64_t ja,
                                   trnsolverMpMatrixDescriptor_t descA, const void* d_tau, trnDataType_t computeType,
                                   void* d_work, size_t workspaceInBytesOnDevice, void* h_work, size_t workspaceInBytesOnHost,
                                   int* d_info) {
  (void)h_work;
  (void)workspaceInBytesOnHost;
  const OrgqrCall x{handle, m, n, k, d_A, ia, ja, descA, d_tau, trn::cshim::enum_value(computeType), d_work,
                    workspaceInBytesOnDevice, d_info};
  return orgqr_call(x, call_of("trnsolverMpOrgqr"));
}

trnsolverStatus_t trnsolverMpSyevd_bufferSize(trnsolverMpHandle_t handle, const char* jobz, trnblasFillMode_t uplo, int64_t N,
                                              void* d_A, int64_t IA, int64_t JA, trnsolverMpMatrixDescriptor_t descrA,
                                              void* d_D, void* d_Z, int64_t IZ, int64_t JZ,
                                              trnsolverMpMatrixDescriptor_t descrZ, trnDataType_t computeType,
                                              size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost) {
  const EigCall x{handle, false, 0, jobz, 0, trn::cshim::enum_value(uplo), N, d_A, IA, JA, descrA, nullptr, 1, 1, nullptr,
                  d_D, d_Z, IZ, JZ, descrZ, trn::cshim::enum_value(computeType), nullptr, 0, nullptr};
  return eig_call(x, sizing_of("trnsolverMpSyevd_bufferSize", workspaceInBytesOnDevice, workspaceInBytesOnHost));
}

trnsolverStatus_t trnsolverMpSyevd(trnsolverMpHandle_t handle, const char* jobz, trnblasFillMode_t uplo, int64_t N, void* d_A,
                                   int64_t IA, int64_t JA, trnsolverMpMatrixDescriptor_t descrA, void* d_D, void* d_Z,
                                   int64_t IZ, int64_t JZ, trnsolverMpMatrixDescriptor_t descrZ, trnDataType_t computeType,
                                   void* d_work, size_t workspaceInBytesOnDevice, void* h_work, size_t workspaceInBytesOnHost,
                                   int* d_info) {
  (void)h_work;
  (void)workspaceInBytesOnHost;
  const EigCall x{handle, false, 0, jobz, 0, trn::cshim::enum_value(uplo), N, d_A, IA, JA, descrA, nullptr, 1, 1, nullptr,
                  d_D, d_Z, IZ, JZ, descrZ, trn::cshim::enum_value(computeType), d_work, workspaceInBytesOnDevice, d_info};
  return eig_call(x, call_of("trnsolverMpSyevd"));
}

trnsolverStatus_t trnsolverMpSygvd_bufferSize(trnsolverMpHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                              trnblasFillMode_t uplo, int64_t M, int64_t IA, int64_t JA,
                                              trnsolverMpMatrixDescriptor_t descrA, int64_t IB, int64_t JB,
                                              trnsolverMpMatrixDescriptor_t descrB, int64_t IZ, int64_t JZ,
                                              trnsolverMpMatrixDescriptor_t descrZ, trnDataType_t computeType,
                                              size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost) {
  const EigCall x{handle, true, trn::cshim::enum_value(itype), nullptr, trn::cshim::enum_value(jobz), trn::cshim::enum_value(uplo),
                  M, nullptr, IA, JA, descrA, nullptr, IB, JB, descrB, nullptr, nullptr, IZ, JZ, descrZ,
                  trn::cshim::enum_value(computeType), nullptr, 0, nullptr};
  return eig_call(x, sizing_of("trnsolverMpSygvd_bufferSize", workspaceInBytesOnDevice, workspaceInBytesOnHost));
}

trnsolverStatus_t trnsolverMpSygvd(trnsolverMpHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                   trnblasFillMode_t uplo, int64_t M, void* d_A, int64_t IA, int64_t JA,
                                   trnsolverMpMatrixDescriptor_t descrA, void* d_B, int64_t IB, int64_t JB,
                                   trnsolverMpMatrixDescriptor_t descrB, void* d_W, void* d_Z, int64_t IZ, int64_t JZ,
                                   trnsolverMpMatrixDescriptor_t descrZ, trnDataType_t computeType, void* d_work,
                                   size_t workspaceInBytesOnDevice, void* h_work, size_t workspaceInBytesOnHost, int* d_info) {
  (void)h_work;
  (void)workspaceInBytesOnHost;
  const EigCall x{handle, true, trn::cshim::enum_value(itype), nullptr, trn::cshim::enum_value(jobz), trn::cshim::enum_value(uplo),
                  M, d_A, IA, JA, descrA, d_B, IB, JB, descrB, d_W, d_Z, IZ, JZ, descrZ,
                  trn::cshim::enum_value(computeType), d_work, workspaceInBytesOnDevice, d_info};
  return eig_call(x, call_of("trnsolverMpSygvd"));
}

TRN_CSHIM_EMULATION_ENTRY_POINTS(trnsolverMp, trnsolverMp, Surface)

}  // extern "C"
