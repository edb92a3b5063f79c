// trnblasMp C API (trnblasMp.h): handles, grids, descriptors and Gemm over the C++ API
// (trn/blasmp/blasmp.hpp), written with the C-shim kit (trn/core/c_shim.hpp). Collective entry
// points check their arguments locally, then exchange (status, arguments) over the grid's
// communicator (exchange.hpp) before any other message, so every rank returns the same status.
#include <cstring>
#include <string>
#include <vector>

#include "collective.hpp"
#include "exchange.hpp"
#include "trn/blasmp/blasmp.hpp"
#include "trn/blasmp/level3mp.hpp"
#include "trn/core/c_shim.hpp"
#include "trnblasMp.h"

struct trnblasMpContext {
  trn::blas::Settings settings;
  trnStream_t stream = nullptr;
  trn::cshim::LastCall<trnProfile_t> last_profile;
  trn::cshim::LastCall<std::string> last_plan;
  trn::cshim::LastError last_error_param{0};
};
struct trnblasMpGridImpl {
  trn::blasmp::Grid g;
};
struct trnblasMpMatmulDescriptorImpl {  // op and compute type of Matmul (cuBLASMp's matmul descriptor)
  int trans_a = TRNBLAS_OP_N, trans_b = TRNBLAS_OP_N, compute_type = TRNBLAS_COMPUTE_32F;
};
struct trnblasMpMatrixDescriptorImpl {
  trn::blasmp::Descriptor d;
  trnblasMpGrid_t grid = nullptr;  // the grid d.grid points into
};

namespace {

using trn::blasmp::detail::agree;
using Check = trn::cshim::ArgCheck<trnblasMpStatus_t>;

trn::cshim::HandleRegistry<trnblasMpContext> g_handles;
trn::cshim::HandleRegistry<trnblasMpGridImpl> g_grids;
trn::cshim::HandleRegistry<trnblasMpMatrixDescriptorImpl> g_descs;
trn::cshim::Logger g_log{"TRNBLASMP"};

constexpr trn::cshim::StatusMap<trnblasMpStatus_t> kStatusMap{
    TRNBLASMP_STATUS_SUCCESS,          TRNBLASMP_STATUS_ALLOCATION_FAILED, TRNBLASMP_STATUS_NOT_SUPPORTED,
    TRNBLASMP_STATUS_INVALID_VALUE,    TRNBLASMP_STATUS_EXECUTION_FAILED,  TRNBLASMP_STATUS_INTERNAL_ERROR,
    trnblasMpGetStatusName};
constexpr trn::cshim::SurfaceCodes<trnblasMpStatus_t> kSurfaceCodes{
    TRNBLASMP_STATUS_SUCCESS, TRNBLASMP_STATUS_NOT_INITIALIZED, TRNBLASMP_STATUS_INVALID_VALUE};
using Surface = trn::cshim::ContextBinding<trnblasMpContext, trnblasMpStatus_t, &g_handles, &g_log, &kStatusMap,
                                           &kSurfaceCodes>;
// A collective call (collective.hpp) and the steps every collective routine shares, over these registries.
using Collective = trn::blasmp::detail::Collective<trnblasMpHandle_t, trnblasMpMatrixDescriptor_t>;
const trn::blasmp::detail::CollectiveApi<trnblasMpStatus_t, trnblasMpGridImpl, trnblasMpMatrixDescriptorImpl> kApi{
    g_grids, g_descs, g_log, kStatusMap};

// The compute types trnblasMp runs: the fp32 family as trnblas's GemmMode, or fp64 (Ozaki).
bool gemm_mode_of(int compute_type, trn::blas::GemmMode* mode, bool* fp64) {
  using M = trn::blas::GemmMode;
  *fp64 = false;
  switch (compute_type) {
    case TRNBLAS_COMPUTE_32F:
    case TRNBLAS_COMPUTE_32F_PEDANTIC: *mode = M::fp32; return true;
    case TRNBLAS_COMPUTE_32F_FAST_16F: *mode = M::fp16; return true;
    case TRNBLAS_COMPUTE_32F_FAST_16BF: *mode = M::bf16; return true;
    case TRNBLAS_COMPUTE_32F_FAST_TF32: *mode = M::tf32; return true;
    case TRNBLAS_COMPUTE_32F_EMULATED_16BFX9: *mode = M::bf16x9; return true;
    case TRNBLAS_COMPUTE_32F_FAST_8F_E4M3: *mode = M::fp8_e4m3; return true;
    case TRNBLAS_COMPUTE_32F_FAST_8F_E5M2: *mode = M::fp8_e5m2; return true;
    case TRNBLAS_COMPUTE_32F_EMULATED_16BFX3: *mode = M::bf16x3; return true;
    case TRNBLAS_COMPUTE_32F_EMULATED_16BFX6: *mode = M::bf16x6; return true;
    case TRNBLAS_COMPUTE_64F:
    case TRNBLAS_COMPUTE_64F_PEDANTIC:
    case TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT:
      *mode = M::fp32;
      *fp64 = true;
      return true;
    default: return false;
  }
}

// The element type of a call: fp64 from the compute type (or the descriptor's type where the routine
// has none), complex from the descriptor's type; a dead descriptor gives the real fp32 default.
trn::blasmp::Scalars scalars_of(trnblasMpMatrixDescriptor_t carrier, bool fp64, trn::blas::GemmMode mode) {
  trn::blasmp::Scalars t;
  const int type = g_descs.contains(carrier) ? static_cast<int>(carrier->d.type) : TRN_R_32F;
  t.fp64 = fp64;
  t.complex = type == TRN_C_32F || type == TRN_C_64F;
  t.mode = mode;
  return t;
}
trn::blasmp::Scalars scalars_of(trnblasMpMatrixDescriptor_t carrier) {
  const bool fp64 = g_descs.contains(carrier) && (carrier->d.type == TRN_R_64F || carrier->d.type == TRN_C_64F);
  return scalars_of(carrier, fp64, trn::blas::GemmMode::fp32);
}

// A host scalar of the call's type as (re, im), and its bits as two words for the exchange (the
// same number of words whatever the type, so ranks that disagree on it still make one allreduce).
void read_scalar(const void* p, const trn::blasmp::Scalars& t, double* re, double* im) {
  *re = *im = 0;
  if (p == nullptr) return;
  if (t.fp64) {
    *re = static_cast<const double*>(p)[0];
    if (t.complex) *im = static_cast<const double*>(p)[1];
  } else {
    *re = static_cast<const float*>(p)[0];
    if (t.complex) *im = static_cast<const float*>(p)[1];
  }
}
// alpha and beta into t, when the carrier's type is t's (otherwise the layout check fails anyway and
// a scalar of another type is not read past its end).
void read_scalars(trnblasMpMatrixDescriptor_t carrier, const void* alpha, const void* beta, trn::blasmp::Scalars* t) {
  if (!g_descs.contains(carrier) || carrier->d.type != t->type()) return;
  read_scalar(alpha, *t, &t->alpha, &t->alpha_im);
  read_scalar(beta, *t, &t->beta, &t->beta_im);
}
void push_scalar(std::vector<std::int64_t>& v, const void* p, const trn::blasmp::Scalars& t) {
  std::int64_t w[2] = {0, 0};
  if (p != nullptr) std::memcpy(w, p, t.elem_bytes());
  v.insert(v.end(), {w[0], w[1]});
}
void push_desc(std::vector<std::int64_t>& v, trnblasMpMatrixDescriptor_t d) { kApi.push_desc(v, d); }

// The values every rank must agree on beyond the sizes and enums: the scalars (read in the carrier's
// type) and the descriptors, appended to c.exchanged.
void push_agreed(Collective& c, std::initializer_list<const void*> scalars,
                 std::initializer_list<trnblasMpMatrixDescriptor_t> descs) {
  const trn::blasmp::Scalars t = scalars_of(c.carrier);
  for (const void* p : scalars) push_scalar(c.exchanged, p, t);
  for (trnblasMpMatrixDescriptor_t d : descs) push_desc(c.exchanged, d);
}

// The local checks of one routine: NOT_INITIALIZED for a dead handle, else check_and_fill(c) (the
// checks in cuBLASMp's parameter order; it fills the routine's arguments when they pass) and its status.
template <class CheckAndFill>
trnblasMpStatus_t local_checks(trnblasMpHandle_t h, const char* fn, CheckAndFill&& check_and_fill) {
  if (!g_handles.contains(h)) return TRNBLASMP_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNBLASMP_STATUS_INVALID_VALUE, &h->last_error_param);
  check_and_fill(c);
  return c.status();
}

// The rest of every collective routine after its local argument checks (st): the layout check
// (`mismatch`; the _bufferSize form with an unlimited workspace), the exchange, then either the
// workspace sizes or the call (guarded; the handle keeps its profile and plan).
template <class Args, class Run>
trnblasMpStatus_t run_collective(Collective c, trnblasMpStatus_t st, Args& args,
                                 std::string (*mismatch)(const Args&), std::size_t (*workspace)(const Args&), Run run) {
  if (st == TRNBLASMP_STATUS_SUCCESS && c.sizing && (c.ws_device == nullptr || c.ws_host == nullptr))
    st = trn::cshim::fail(g_log, kStatusMap, c.fn, TRNBLASMP_STATUS_INVALID_VALUE, "workspace size pointers must not be NULL");
  const std::string trace_path = kApi.trace_request(c);
  st = kApi.agree_over(c, kApi.check_layout(c.sizing, c.fn, st, args, mismatch));
  if (st != TRNBLASMP_STATUS_SUCCESS) return st;
  if (c.sizing) return kApi.answer_sizes(c, args, workspace);
  trn::blas::CallReport r;
  st = trn::cshim::guarded(g_log, c.fn, kStatusMap, [&] { run(c.h->settings, args, &r); });
  if (st == TRNBLASMP_STATUS_SUCCESS) {
    c.h->last_profile.store(r.profile.to_c());
    c.h->last_plan.store(r.plan);
    if (!trace_path.empty()) kApi.write_trace(c, r, trace_path);
  }
  return st;
}

// The arguments of one Gemm / Gemm_bufferSize call, as the caller passed them.
struct GemmCall {
  trnblasMpHandle_t h;
  int trans_a, trans_b;
  std::int64_t m, n, k;
  const void *alpha, *a;
  std::int64_t ia, ja;
  trnblasMpMatrixDescriptor_t desc_a;
  const void* b;
  std::int64_t ib, jb;
  trnblasMpMatrixDescriptor_t desc_b;
  const void* beta;
  void* c;
  std::int64_t ic, jc;
  trnblasMpMatrixDescriptor_t desc_c;
  int compute_type;
  void* work;
  std::size_t work_bytes;
};

// The only submatrices supported: the whole matrices (ia = ja = 1).
bool whole(std::initializer_list<std::int64_t> offsets) {
  for (std::int64_t o : offsets)
    if (o != 1) return false;
  return true;
}
const char* const kWholeOnly = "only whole matrices (ia = ja = 1)";

// Where each of Gemm's checked arguments sits in a signature (positions after the handle): Gemm's
// own, or Matmul's (op and compute type come from its matmul descriptor, position 1).
struct GemmPositions {
  int trans_a, trans_b, m, n, k, alpha, desc_a, desc_b, beta, desc_c, compute;
};
constexpr GemmPositions kGemmPositions{1, 2, 3, 4, 5, 6, 10, 14, 15, 19, 20};
constexpr GemmPositions kMatmulPositions{1, 1, 2, 3, 4, 5, 9, 13, 14, 18, 1};

// Gemm's local checks in cuBLASMp's parameter order; the compute type's mode on success.
void gemm_checks(Check& c, const GemmCall& x, const GemmPositions& p, trn::blas::GemmMode* mode, bool* fp64) {
  c.one_of(x.trans_a, {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, p.trans_a, "transA")
      .one_of(x.trans_b, {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, p.trans_b, "transB")
      .nonnegative(x.m, p.m, "m").nonnegative(x.n, p.n, "n").nonnegative(x.k, p.k, "k").not_null(x.alpha, p.alpha, "alpha")
      .require(g_descs.contains(x.desc_a), p.desc_a, "descA").require(g_descs.contains(x.desc_b), p.desc_b, "descB")
      .not_null(x.beta, p.beta, "beta").require(g_descs.contains(x.desc_c), p.desc_c, "descC");
  c.require(gemm_mode_of(x.compute_type, mode, fp64), p.compute, "computeType");
}

// The C++ arguments of a Gemm whose checks passed.
void fill_gemm(const GemmCall& x, trn::blas::GemmMode mode, bool fp64, trn::blasmp::GemmArgs* out) {
  static_cast<trn::blasmp::Scalars&>(*out) = scalars_of(x.desc_c, fp64, mode);
  out->op_a = static_cast<trn::blas::COp>(x.trans_a);
  out->op_b = static_cast<trn::blas::COp>(x.trans_b);
  out->m = x.m, out->n = x.n, out->k = x.k;
  read_scalars(x.desc_c, x.alpha, x.beta, out);
  out->a = x.a, out->b = x.b, out->c = x.c;
  out->desc_a = &x.desc_a->d, out->desc_b = &x.desc_b->d, out->desc_c = &x.desc_c->d;
  out->work = x.work;
  out->work_bytes = x.work_bytes;
}

// The local checks of Gemm's arguments in cuBLASMp's parameter order (positions after the handle).
trnblasMpStatus_t check_gemm(const GemmCall& x, const char* fn, trn::blasmp::GemmArgs* out) {
  if (!g_handles.contains(x.h)) return TRNBLASMP_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNBLASMP_STATUS_INVALID_VALUE, &x.h->last_error_param);
  bool fp64 = false;
  trn::blas::GemmMode mode{};
  gemm_checks(c, x, kGemmPositions, &mode, &fp64);
  c.require_or(whole({x.ia, x.ja, x.ib, x.jb, x.ic, x.jc}), TRNBLASMP_STATUS_NOT_SUPPORTED, "TRNBLASMP_STATUS_NOT_SUPPORTED",
               kWholeOnly);
  if (!c) return c.status();
  fill_gemm(x, mode, fp64, out);
  return TRNBLASMP_STATUS_SUCCESS;
}

// Gemm's exchanged arguments: the enums and sizes, alpha and beta, the descriptors.
void push_gemm(std::vector<std::int64_t>& v, const GemmCall& x) {
  const trn::blasmp::Scalars t = scalars_of(x.desc_c);
  v.insert(v.end(), {x.trans_a, x.trans_b, x.m, x.n, x.k, x.ia, x.ja, x.ib, x.jb, x.ic, x.jc, x.compute_type});
  push_scalar(v, x.alpha, t);
  push_scalar(v, x.beta, t);
  for (trnblasMpMatrixDescriptor_t d : {x.desc_a, x.desc_b, x.desc_c}) push_desc(v, d);
}

trnblasMpStatus_t gemm_call(const GemmCall& x, const char* fn, bool sizing, size_t* ws_device, size_t* ws_host) {
  trn::blasmp::GemmArgs args;
  const trnblasMpStatus_t st = check_gemm(x, fn, &args);
  Collective c{x.h, fn, x.desc_c, {}, ws_device, ws_host, sizing};
  push_gemm(c.exchanged, x);
  using trn::blasmp::GemmArgs;
  return run_collective<GemmArgs>(c, st, args, trn::blasmp::gemm_mismatch,
                                  static_cast<std::size_t (*)(const GemmArgs&)>(trn::blasmp::gemm_workspace_bytes),
                                  [](const trn::blas::Settings& s, const GemmArgs& a, trn::blas::CallReport* r) {
                                    trn::blasmp::gemm(s, a, r);
                                  });
}

// ---- Matmul: Gemm's checks at Matmul's positions, D in C's layout, C copied into D, then Gemm ----

// D = alpha op(A) op(B) + beta C: Gemm on D (GemmArgs::c, desc_c) after C's local block is copied in.
struct MatmulArgs : trn::blasmp::GemmArgs {
  const void* c_in = nullptr;
  const trn::blasmp::Descriptor* desc_c_in = nullptr;
};
std::string matmul_mismatch(const MatmulArgs& x) { return trn::blasmp::gemm_mismatch(x); }
std::size_t matmul_workspace(const MatmulArgs& x) { return trn::blasmp::gemm_workspace_bytes(x); }
void run_matmul(const trn::blas::Settings& s, const MatmulArgs& x, trn::blas::CallReport* r) {
  const trn::blasmp::Descriptor &dc = *x.desc_c_in, &dd = *x.desc_c;
  if (x.c_in != x.c) {  // always (beta = 0 too): D then has the bits Gemm gives on C, whatever D held
    const std::size_t es = x.elem_bytes();
    for (std::int64_t j = 0; j < dc.local_cols(); ++j)
      std::memcpy(static_cast<char*>(x.c) + static_cast<std::size_t>(j * dd.lld) * es,
                  static_cast<const char*>(x.c_in) + static_cast<std::size_t>(j * dc.lld) * es,
                  static_cast<std::size_t>(dc.local_rows()) * es);
  }
  trn::blasmp::gemm(s, x, r);
}

trn::cshim::HandleRegistry<trnblasMpMatmulDescriptorImpl> g_matmuls;

bool same_layout(trnblasMpMatrixDescriptor_t c, trnblasMpMatrixDescriptor_t d) {
  if (!g_descs.contains(c) || !g_descs.contains(d)) return true;  // reported at their own positions
  const trn::blasmp::Descriptor &x = c->d, &y = d->d;
  return x.m == y.m && x.n == y.n && x.mb == y.mb && x.nb == y.nb && x.rsrc == y.rsrc && x.csrc == y.csrc &&
         x.type == y.type && c->grid == d->grid;
}

// A Matmul call: Gemm's arguments (c: C) and D's.
struct MatmulCall {
  GemmCall g;
  trnblasMpMatmulDescriptor_t desc;
  void* d;
  std::int64_t id, jd;
  trnblasMpMatrixDescriptor_t desc_d;
};

trnblasMpStatus_t check_matmul(const MatmulCall& x, const char* fn, MatmulArgs* out) {
  if (!g_handles.contains(x.g.h)) return TRNBLASMP_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNBLASMP_STATUS_INVALID_VALUE, &x.g.h->last_error_param);
  bool fp64 = false;
  trn::blas::GemmMode mode{};
  if (c.require(g_matmuls.contains(x.desc), 1, "matmulDesc")) gemm_checks(c, x.g, kMatmulPositions, &mode, &fp64);
  c.require(g_descs.contains(x.desc_d), 22, "descD");
  c.require_or(whole({x.g.ia, x.g.ja, x.g.ib, x.g.jb, x.g.ic, x.g.jc, x.id, x.jd}), TRNBLASMP_STATUS_NOT_SUPPORTED,
               "TRNBLASMP_STATUS_NOT_SUPPORTED", kWholeOnly);
  c.require_or(same_layout(x.g.desc_c, x.desc_d), TRNBLASMP_STATUS_NOT_SUPPORTED, "TRNBLASMP_STATUS_NOT_SUPPORTED",
               "D must have C's layout (sizes, blocks, sources, type, grid)");
  if (!c) return c.status();
  GemmCall on_d = x.g;
  on_d.c = x.d, on_d.desc_c = x.desc_d;
  fill_gemm(on_d, mode, fp64, out);
  out->c_in = x.g.c, out->desc_c_in = &x.g.desc_c->d;
  return TRNBLASMP_STATUS_SUCCESS;
}

trnblasMpStatus_t matmul_call(MatmulCall x, const char* fn, bool sizing, size_t* ws_device, size_t* ws_host) {
  if (g_matmuls.contains(x.desc))  // op and compute type from the descriptor (exchanged with the rest)
    x.g.trans_a = x.desc->trans_a, x.g.trans_b = x.desc->trans_b, x.g.compute_type = x.desc->compute_type;
  MatmulArgs args;
  const trnblasMpStatus_t st = check_matmul(x, fn, &args);
  Collective c{x.g.h, fn, x.desc_d, {x.id, x.jd}, ws_device, ws_host, sizing};
  push_gemm(c.exchanged, x.g);
  push_desc(c.exchanged, x.desc_d);
  return run_collective<MatmulArgs>(c, st, args, matmul_mismatch, matmul_workspace, run_matmul);
}

// ---- Syrk, Trsm, Geadd / Tradd: local checks in cuBLASMp's parameter order, then run_collective ----

constexpr std::initializer_list<int> kOps{TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C};
constexpr std::initializer_list<int> kFills{TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER};

// The compute type's precision (position `pos`) and the whole-matrix rule; fills t on success.
void check_compute(Check& c, int compute_type, int pos, trnblasMpMatrixDescriptor_t carrier,
                   std::initializer_list<std::int64_t> offsets, trn::blasmp::Scalars* t) {
  bool fp64 = false;
  trn::blas::GemmMode mode{};
  c.require(gemm_mode_of(compute_type, &mode, &fp64), pos, "computeType");
  c.require_or(whole(offsets), TRNBLASMP_STATUS_NOT_SUPPORTED, "TRNBLASMP_STATUS_NOT_SUPPORTED", kWholeOnly);
  if (c) *t = scalars_of(carrier, fp64, mode);
}

// The arguments of Syrk, Geadd and Tradd (A read, C updated) as the caller passed them: d1, d2 the
// two sizes in the C signature's order (Syrk n, k; Geadd/Tradd m, n); uplo -1 for Geadd (no such
// argument), compute_type -1 for Geadd/Tradd (none).
struct UpdateCall {
  trnblasMpHandle_t h;
  int uplo, trans;
  std::int64_t d1, d2;
  const void *alpha, *a;
  std::int64_t ia, ja;
  trnblasMpMatrixDescriptor_t desc_a;
  const void* beta;
  void* c;
  std::int64_t ic, jc;
  trnblasMpMatrixDescriptor_t desc_c;
  int compute_type;
  void* work;
  std::size_t work_bytes;
};

trnblasMpStatus_t syrk_call(const UpdateCall& x, const char* fn, bool sizing, size_t* wd, size_t* wh) {
  trn::blasmp::SyrkArgs args;
  const trnblasMpStatus_t st = local_checks(x.h, fn, [&](Check& c) {
    c.one_of(x.uplo, kFills, 1, "uplo").one_of(x.trans, kOps, 2, "trans").nonnegative(x.d1, 3, "n")
        .nonnegative(x.d2, 4, "k").not_null(x.alpha, 5, "alpha").require(g_descs.contains(x.desc_a), 9, "descA")
        .not_null(x.beta, 10, "beta").require(g_descs.contains(x.desc_c), 14, "descC");
    check_compute(c, x.compute_type, 15, x.desc_c, {x.ia, x.ja, x.ic, x.jc}, &args);
    if (!c) return;
    args.uplo = static_cast<trn::blas::Uplo>(x.uplo);
    args.trans = static_cast<trn::blas::COp>(x.trans);
    args.n = x.d1, args.k = x.d2, args.a = x.a, args.c = x.c;
    args.desc_a = &x.desc_a->d, args.desc_c = &x.desc_c->d;
    args.work = x.work, args.work_bytes = x.work_bytes;
    read_scalars(x.desc_c, x.alpha, x.beta, &args);
  });
  Collective co{x.h, fn, x.desc_c, {x.uplo, x.trans, x.d1, x.d2, x.ia, x.ja, x.ic, x.jc, x.compute_type}, wd, wh, sizing};
  push_agreed(co, {x.alpha, x.beta}, {x.desc_a, x.desc_c});
  using trn::blasmp::SyrkArgs;
  return run_collective<SyrkArgs>(co, st, args, trn::blasmp::syrk_mismatch, trn::blasmp::syrk_workspace_bytes,
                                  [](const trn::blas::Settings& s, const SyrkArgs& a, trn::blas::CallReport* r) {
                                    trn::blasmp::syrk(s, a, r);
                                  });
}

struct TrsmCall {
  trnblasMpHandle_t h;
  int side, uplo, trans, diag;
  std::int64_t m, n;
  const void *alpha, *a;
  std::int64_t ia, ja;
  trnblasMpMatrixDescriptor_t desc_a;
  void* b;
  std::int64_t ib, jb;
  trnblasMpMatrixDescriptor_t desc_b;
  int compute_type;
  void* work;
  std::size_t work_bytes;
};

trnblasMpStatus_t trsm_call(const TrsmCall& x, const char* fn, bool sizing, size_t* wd, size_t* wh) {
  trn::blasmp::TrsmArgs args;
  const trnblasMpStatus_t st = local_checks(x.h, fn, [&](Check& c) {
    c.one_of(x.side, {TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT}, 1, "side").one_of(x.uplo, kFills, 2, "uplo")
        .one_of(x.trans, kOps, 3, "trans").one_of(x.diag, {TRNBLAS_DIAG_NON_UNIT, TRNBLAS_DIAG_UNIT}, 4, "diag")
        .nonnegative(x.m, 5, "m").nonnegative(x.n, 6, "n").not_null(x.alpha, 7, "alpha")
        .require(g_descs.contains(x.desc_a), 11, "descA").require(g_descs.contains(x.desc_b), 15, "descB");
    check_compute(c, x.compute_type, 16, x.desc_b, {x.ia, x.ja, x.ib, x.jb}, &args);
    if (!c) return;
    args.side = static_cast<trn::blas::Side>(x.side);
    args.uplo = static_cast<trn::blas::Uplo>(x.uplo);
    args.trans = static_cast<trn::blas::COp>(x.trans);
    args.diag = static_cast<trn::blas::Diag>(x.diag);
    args.m = x.m, args.n = x.n, args.a = x.a, args.b = x.b;
    args.desc_a = &x.desc_a->d, args.desc_b = &x.desc_b->d;
    args.work = x.work, args.work_bytes = x.work_bytes;
    read_scalars(x.desc_b, x.alpha, nullptr, &args);
  });
  Collective co{x.h, fn, x.desc_b, {x.side, x.uplo, x.trans, x.diag, x.m, x.n, x.ia, x.ja, x.ib, x.jb, x.compute_type},
                wd, wh, sizing};
  push_agreed(co, {x.alpha}, {x.desc_a, x.desc_b});
  using trn::blasmp::TrsmArgs;
  return run_collective<TrsmArgs>(co, st, args, trn::blasmp::trsm_mismatch, trn::blasmp::trsm_workspace_bytes,
                                  [](const trn::blas::Settings& s, const TrsmArgs& a, trn::blas::CallReport* r) {
                                    trn::blasmp::trsm(s, a, r);
                                  });
}


trnblasMpStatus_t add_call(const UpdateCall& x, const char* fn, bool sizing, size_t* wd, size_t* wh) {
  trn::blasmp::AddArgs args;
  const bool tradd = x.uplo >= 0;
  const int p = tradd ? 1 : 0;  // positions shift by the uplo argument
  const trnblasMpStatus_t st = local_checks(x.h, fn, [&](Check& c) {
    if (tradd) c.one_of(x.uplo, kFills, 1, "uplo");
    c.one_of(x.trans, kOps, 1 + p, "trans").nonnegative(x.d1, 2 + p, "m").nonnegative(x.d2, 3 + p, "n")
        .not_null(x.alpha, 4 + p, "alpha").require(g_descs.contains(x.desc_a), 8 + p, "descA")
        .not_null(x.beta, 9 + p, "beta").require(g_descs.contains(x.desc_c), 13 + p, "descC")
        .require_or(whole({x.ia, x.ja, x.ic, x.jc}), TRNBLASMP_STATUS_NOT_SUPPORTED, "TRNBLASMP_STATUS_NOT_SUPPORTED",
                    kWholeOnly);
    if (!c) return;
    static_cast<trn::blasmp::Scalars&>(args) = scalars_of(x.desc_c);
    args.trapezoid = tradd;
    args.uplo = tradd ? static_cast<trn::blas::Uplo>(x.uplo) : trn::blas::Uplo::lower;
    args.op = static_cast<trn::blas::COp>(x.trans);
    args.m = x.d1, args.n = x.d2, args.a = x.a, args.c = x.c;
    args.desc_a = &x.desc_a->d, args.desc_c = &x.desc_c->d;
    args.work = x.work, args.work_bytes = x.work_bytes;
    read_scalars(x.desc_c, x.alpha, x.beta, &args);
  });
  Collective co{x.h, fn, x.desc_c, {x.uplo, x.trans, x.d1, x.d2, x.ia, x.ja, x.ic, x.jc}, wd, wh, sizing};
  push_agreed(co, {x.alpha, x.beta}, {x.desc_a, x.desc_c});
  using trn::blasmp::AddArgs;
  return run_collective<AddArgs>(co, st, args, trn::blasmp::add_mismatch, trn::blasmp::add_workspace_bytes,
                                 [](const trn::blas::Settings& s, const AddArgs& a, trn::blas::CallReport* r) {
                                   trn::blasmp::geadd(s, a, r);
                                 });
}

}  // namespace

extern "C" {

trnblasMpStatus_t trnblasMpCreate(trnblasMpHandle_t* handle, trnStream_t stream) {
  return Surface::create(handle, [&](trnblasMpContext& h) {
    h.stream = stream;
    trnProfile_t none{};
    none.target = TRN_TARGET_TRN1;
    h.last_profile.store(none);
  });
}

trnblasMpStatus_t trnblasMpDestroy(trnblasMpHandle_t handle) { return Surface::destroy(handle); }

trnblasMpStatus_t trnblasMpSetStream(trnblasMpHandle_t handle, trnStream_t stream) {
  return Surface::set(handle, [&](trnblasMpContext& h) { h.stream = stream; });
}

trnblasMpStatus_t trnblasMpGetStream(trnblasMpHandle_t handle, trnStream_t* stream) {
  return Surface::get(handle, "trnblasMpGetStream", stream, "stream", [](const trnblasMpContext& h) { return h.stream; });
}

trnblasMpStatus_t trnblasMpGetVersion(int* version) {
  if (version == nullptr) return TRNBLASMP_STATUS_INVALID_VALUE;
  *version = TRNBLASMP_VERSION;
  return TRNBLASMP_STATUS_SUCCESS;
}

const char* trnblasMpGetStatusName(trnblasMpStatus_t s) {
  switch (s) {
    case TRNBLASMP_STATUS_SUCCESS: return "TRNBLASMP_STATUS_SUCCESS";
    case TRNBLASMP_STATUS_NOT_INITIALIZED: return "TRNBLASMP_STATUS_NOT_INITIALIZED";
    case TRNBLASMP_STATUS_ALLOCATION_FAILED: return "TRNBLASMP_STATUS_ALLOCATION_FAILED";
    case TRNBLASMP_STATUS_INVALID_VALUE: return "TRNBLASMP_STATUS_INVALID_VALUE";
    case TRNBLASMP_STATUS_ARCHITECTURE_MISMATCH: return "TRNBLASMP_STATUS_ARCHITECTURE_MISMATCH";
    case TRNBLASMP_STATUS_EXECUTION_FAILED: return "TRNBLASMP_STATUS_EXECUTION_FAILED";
    case TRNBLASMP_STATUS_INTERNAL_ERROR: return "TRNBLASMP_STATUS_INTERNAL_ERROR";
    case TRNBLASMP_STATUS_NOT_SUPPORTED: return "TRNBLASMP_STATUS_NOT_SUPPORTED";
  }
  return "TRNBLASMP_STATUS_UNKNOWN";
}

const char* trnblasMpGetStatusString(trnblasMpStatus_t s) {
  switch (s) {
    case TRNBLASMP_STATUS_SUCCESS: return "the operation completed successfully";
    case TRNBLASMP_STATUS_NOT_INITIALIZED: return "the handle is not initialized";
    case TRNBLASMP_STATUS_ALLOCATION_FAILED: return "a host allocation failed";
    case TRNBLASMP_STATUS_INVALID_VALUE: return "an argument is invalid or differs across ranks";
    case TRNBLASMP_STATUS_ARCHITECTURE_MISMATCH: return "the emulated device does not support the operation";
    case TRNBLASMP_STATUS_EXECUTION_FAILED: return "an emulated kernel or MPI call failed";
    case TRNBLASMP_STATUS_INTERNAL_ERROR: return "internal error";
    case TRNBLASMP_STATUS_NOT_SUPPORTED: return "the operation is not supported";
  }
  return "unknown status";
}

trnblasMpStatus_t trnblasMpGridCreate(int64_t nprow, int64_t npcol, trnblasMpGridLayout_t layout, MPI_Comm comm,
                                      trnblasMpGrid_t* grid) {
  const char* fn = "trnblasMpGridCreate";
  const int lay = trn::cshim::enum_value(layout);
  if (comm == MPI_COMM_NULL) return trn::cshim::fail(g_log, kStatusMap, fn, TRNBLASMP_STATUS_INVALID_VALUE, "comm is MPI_COMM_NULL");
  // Every rank enters the exchange (inside grid_create) whatever its own arguments: a rank that
  // returned early would leave the others waiting.
  Check c(g_log, fn, TRNBLASMP_STATUS_INVALID_VALUE);
  c.require(nprow >= 1 && nprow <= INT32_MAX, 1, "nprow").require(npcol >= 1 && npcol <= INT32_MAX, 2, "npcol")
      .one_of(lay, {TRNBLASMP_GRID_LAYOUT_COL_MAJOR, TRNBLASMP_GRID_LAYOUT_ROW_MAJOR}, 3, "layout")
      .not_null(grid, 5, "grid");
  const int local = c ? 0 : 1;
  const auto ag = agree(comm, local, {nprow, npcol, lay});
  if (!ag.mpi_ok) return trn::cshim::fail(g_log, kStatusMap, fn, TRNBLASMP_STATUS_INVALID_VALUE, "comm is not a valid communicator");
  if (ag.status != 0) return TRNBLASMP_STATUS_INVALID_VALUE;
  if (!ag.same) return trn::cshim::fail(g_log, kStatusMap, fn, TRNBLASMP_STATUS_INVALID_VALUE, "the ranks passed different grids");
  return trn::blasmp::detail::create_grid(g_grids, g_log, kStatusMap, fn, static_cast<int>(nprow), static_cast<int>(npcol),
                                         static_cast<trn::blasmp::GridLayout>(lay), comm, grid);
}

trnblasMpStatus_t trnblasMpGridDestroy(trnblasMpGrid_t grid) {
  if (!g_grids.erase(grid)) return TRNBLASMP_STATUS_INVALID_VALUE;
  trn::blasmp::grid_destroy(grid->g);
  delete grid;
  return TRNBLASMP_STATUS_SUCCESS;
}

trnblasMpStatus_t trnblasMpMatrixDescriptorCreate(int64_t m, int64_t n, int64_t mb, int64_t nb, int64_t rsrc,
                                                  int64_t csrc, int64_t lld, trnDataType_t type, trnblasMpGrid_t grid,
                                                  trnblasMpMatrixDescriptor_t* desc) {
  const int t = trn::cshim::enum_value(type);
  Check c(g_log, "trnblasMpMatrixDescriptorCreate", TRNBLASMP_STATUS_INVALID_VALUE);
  c.nonnegative(m, 1, "m").nonnegative(n, 2, "n").require(mb >= 1, 3, "mb").require(nb >= 1, 4, "nb")
      .require(g_grids.contains(grid), 9, "grid");
  if (!c) return c.status();
  const trn::blasmp::Grid& g = grid->g;
  trn::blasmp::Descriptor d{m, n, mb, nb, rsrc, csrc, lld, TRN_R_32F, &g};
  c.require(rsrc >= 0 && rsrc < g.nprow, 5, "rsrc").require(csrc >= 0 && csrc < g.npcol, 6, "csrc");
  if (c) c.leading_dim(lld, d.local_rows(), 7, "lld").one_of(t, {TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F}, 8, "type").not_null(desc, 10, "desc");
  if (!c) return c.status();
  d.type = static_cast<trnDataType_t>(t);
  return trn::cshim::create_registered(g_descs, desc, TRNBLASMP_STATUS_INVALID_VALUE, TRNBLASMP_STATUS_ALLOCATION_FAILED,
                                       TRNBLASMP_STATUS_SUCCESS, [&](trnblasMpMatrixDescriptorImpl& p) {
                                         p.d = d;
                                         p.grid = grid;
                                       });
}

trnblasMpStatus_t trnblasMpMatrixDescriptorDestroy(trnblasMpMatrixDescriptor_t desc) {
  return g_descs.destroy(desc) ? TRNBLASMP_STATUS_SUCCESS : TRNBLASMP_STATUS_INVALID_VALUE;
}

int64_t trnblasMpNumroc(int64_t n, int64_t nb, uint32_t iproc, uint32_t isrcproc, uint32_t nprocs) {
  return trn::blasmp::numroc(n, nb, iproc, isrcproc, nprocs);
}

trnblasMpStatus_t trnblasMpGemm_bufferSize(trnblasMpHandle_t handle, trnblasOperation_t transA, trnblasOperation_t transB,
                                           int64_t m, int64_t n, int64_t k, const void* alpha, const void* a, int64_t ia,
                                           int64_t ja, trnblasMpMatrixDescriptor_t descA, const void* b, int64_t ib,
                                           int64_t jb, trnblasMpMatrixDescriptor_t descB, const void* beta, void* c,
                                           int64_t ic, int64_t jc, trnblasMpMatrixDescriptor_t descC,
                                           trnblasComputeType_t computeType, size_t* workspaceSizeInBytesOnDevice,
                                           size_t* workspaceSizeInBytesOnHost) {
  const GemmCall x{handle, trn::cshim::enum_value(transA), trn::cshim::enum_value(transB), m, n, k, alpha, a, ia, ja, descA,
                   b, ib, jb, descB, beta, c, ic, jc, descC, trn::cshim::enum_value(computeType), nullptr, 0};
  return gemm_call(x, "trnblasMpGemm_bufferSize", true, workspaceSizeInBytesOnDevice, workspaceSizeInBytesOnHost);
}

trnblasMpStatus_t trnblasMpGemm(trnblasMpHandle_t handle, trnblasOperation_t transA, trnblasOperation_t transB, int64_t m,
                                int64_t n, int64_t k, const void* alpha, const void* a, int64_t ia, int64_t ja,
                                trnblasMpMatrixDescriptor_t descA, const void* b, int64_t ib, int64_t jb,
                                trnblasMpMatrixDescriptor_t descB, const void* beta, void* c, int64_t ic, int64_t jc,
                                trnblasMpMatrixDescriptor_t descC, trnblasComputeType_t computeType, void* d_work,
                                size_t workspaceSizeInBytesOnDevice, void* h_work, size_t workspaceSizeInBytesOnHost) {
  (void)h_work;
  (void)workspaceSizeInBytesOnHost;
  const GemmCall x{handle, trn::cshim::enum_value(transA), trn::cshim::enum_value(transB), m, n, k, alpha, a, ia, ja, descA,
                   b, ib, jb, descB, beta, c, ic, jc, descC, trn::cshim::enum_value(computeType), d_work,
                   workspaceSizeInBytesOnDevice};
  return gemm_call(x, "trnblasMpGemm", false, nullptr, nullptr);
}

trnblasMpStatus_t trnblasMpGetLastPlan(trnblasMpHandle_t handle, char* text, size_t size) {
  if (!g_handles.contains(handle)) return TRNBLASMP_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnblasMpGetLastPlan", TRNBLASMP_STATUS_INVALID_VALUE, &handle->last_error_param);
  if (!c.not_null(text, 1, "text").require(size >= 1, 2, "size")) return c.status();
  const std::string p = handle->last_plan.load();
  const std::size_t len = std::min(p.size(), size - 1);
  std::memcpy(text, p.data(), len);
  text[len] = '\0';
  return TRNBLASMP_STATUS_SUCCESS;
}

trnblasMpStatus_t trnblasMpSyrk_bufferSize(trnblasMpHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                           int64_t n, int64_t k, const void* alpha, const void* a, int64_t ia, int64_t ja,
                                           trnblasMpMatrixDescriptor_t descA, const void* beta, void* c, int64_t ic,
                                           int64_t jc, trnblasMpMatrixDescriptor_t descC, trnblasComputeType_t computeType,
                                           size_t* workspaceSizeInBytesOnDevice, size_t* workspaceSizeInBytesOnHost) {
  const UpdateCall x{handle, trn::cshim::enum_value(uplo), trn::cshim::enum_value(trans), n, k, alpha, a, ia, ja, descA, beta,
                   c, ic, jc, descC, trn::cshim::enum_value(computeType), nullptr, 0};
  return syrk_call(x, "trnblasMpSyrk_bufferSize", true, workspaceSizeInBytesOnDevice, workspaceSizeInBytesOnHost);
}

trnblasMpStatus_t trnblasMpSyrk(trnblasMpHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                                int64_t k, const void* alpha, const void* a, int64_t ia, int64_t ja,
                                trnblasMpMatrixDescriptor_t descA, const void* beta, void* c, int64_t ic, int64_t jc,
                                trnblasMpMatrixDescriptor_t descC, trnblasComputeType_t computeType, void* d_work,
                                size_t workspaceSizeInBytesOnDevice, void* h_work, size_t workspaceSizeInBytesOnHost) {
  (void)h_work;
  (void)workspaceSizeInBytesOnHost;
  const UpdateCall x{handle, trn::cshim::enum_value(uplo), trn::cshim::enum_value(trans), n, k, alpha, a, ia, ja, descA, beta,
                   c, ic, jc, descC, trn::cshim::enum_value(computeType), d_work, workspaceSizeInBytesOnDevice};
  return syrk_call(x, "trnblasMpSyrk", false, nullptr, nullptr);
}

trnblasMpStatus_t trnblasMpTrsm_bufferSize(trnblasMpHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                           trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n,
                                           const void* alpha, const void* a, int64_t ia, int64_t ja,
                                           trnblasMpMatrixDescriptor_t descA, void* b, int64_t ib, int64_t jb,
                                           trnblasMpMatrixDescriptor_t descB, trnblasComputeType_t computeType,
                                           size_t* workspaceSizeInBytesOnDevice, size_t* workspaceSizeInBytesOnHost) {
  const TrsmCall x{handle, trn::cshim::enum_value(side), trn::cshim::enum_value(uplo), trn::cshim::enum_value(trans),
                   trn::cshim::enum_value(diag), m, n, alpha, a, ia, ja, descA, b, ib, jb, descB,
                   trn::cshim::enum_value(computeType), nullptr, 0};
  return trsm_call(x, "trnblasMpTrsm_bufferSize", true, workspaceSizeInBytesOnDevice, workspaceSizeInBytesOnHost);
}

trnblasMpStatus_t trnblasMpTrsm(trnblasMpHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n, const void* alpha,
                                const void* a, int64_t ia, int64_t ja, trnblasMpMatrixDescriptor_t descA, void* b,
                                int64_t ib, int64_t jb, trnblasMpMatrixDescriptor_t descB, trnblasComputeType_t computeType,
                                void* d_work, size_t workspaceSizeInBytesOnDevice, void* h_work,
                                size_t workspaceSizeInBytesOnHost) {
  (void)h_work;
  (void)workspaceSizeInBytesOnHost;
  const TrsmCall x{handle, trn::cshim::enum_value(side), trn::cshim::enum_value(uplo), trn::cshim::enum_value(trans),
                   trn::cshim::enum_value(diag), m, n, alpha, a, ia, ja, descA, b, ib, jb, descB,
                   trn::cshim::enum_value(computeType), d_work, workspaceSizeInBytesOnDevice};
  return trsm_call(x, "trnblasMpTrsm", false, nullptr, nullptr);
}

trnblasMpStatus_t trnblasMpGeadd_bufferSize(trnblasMpHandle_t handle, trnblasOperation_t trans, int64_t m, int64_t n,
                                            const void* alpha, const void* a, int64_t ia, int64_t ja,
                                            trnblasMpMatrixDescriptor_t descA, const void* beta, void* c, int64_t ic,
                                            int64_t jc, trnblasMpMatrixDescriptor_t descC,
                                            size_t* workspaceSizeInBytesOnDevice, size_t* workspaceSizeInBytesOnHost) {
  const UpdateCall x{handle, -1, trn::cshim::enum_value(trans), m, n, alpha, a, ia, ja, descA, beta, c, ic, jc, descC, -1,
                     nullptr, 0};
  return add_call(x, "trnblasMpGeadd_bufferSize", true, workspaceSizeInBytesOnDevice, workspaceSizeInBytesOnHost);
}

trnblasMpStatus_t trnblasMpGeadd(trnblasMpHandle_t handle, trnblasOperation_t trans, int64_t m, int64_t n,
                                 const void* alpha, const void* a, int64_t ia, int64_t ja,
                                 trnblasMpMatrixDescriptor_t descA, const void* beta, void* c, int64_t ic, int64_t jc,
                                 trnblasMpMatrixDescriptor_t descC, void* d_work, size_t workspaceSizeInBytesOnDevice,
                                 void* h_work, size_t workspaceSizeInBytesOnHost) {
  (void)h_work;
  (void)workspaceSizeInBytesOnHost;
  const UpdateCall x{handle, -1, trn::cshim::enum_value(trans), m, n, alpha, a, ia, ja, descA, beta, c, ic, jc, descC, -1,
                     d_work, workspaceSizeInBytesOnDevice};
  return add_call(x, "trnblasMpGeadd", false, nullptr, nullptr);
}

trnblasMpStatus_t trnblasMpTradd_bufferSize(trnblasMpHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                            int64_t m, int64_t n, const void* alpha, const void* a, int64_t ia, int64_t ja,
                                            trnblasMpMatrixDescriptor_t descA, const void* beta, void* c, int64_t ic,
                                            int64_t jc, trnblasMpMatrixDescriptor_t descC,
                                            size_t* workspaceSizeInBytesOnDevice, size_t* workspaceSizeInBytesOnHost) {
  // uplo < 0 would mean Geadd: an invalid (negative) uplo becomes a value no fill mode has.
  const int u = trn::cshim::enum_value(uplo) < 0 ? INT32_MAX : trn::cshim::enum_value(uplo);
  const UpdateCall x{handle, u, trn::cshim::enum_value(trans), m, n, alpha, a, ia, ja, descA, beta, c, ic, jc, descC, -1,
                     nullptr, 0};
  return add_call(x, "trnblasMpTradd_bufferSize", true, workspaceSizeInBytesOnDevice, workspaceSizeInBytesOnHost);
}

trnblasMpStatus_t trnblasMpTradd(trnblasMpHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t m,
                                 int64_t n, const void* alpha, const void* a, int64_t ia, int64_t ja,
                                 trnblasMpMatrixDescriptor_t descA, const void* beta, void* c, int64_t ic, int64_t jc,
                                 trnblasMpMatrixDescriptor_t descC, void* d_work, size_t workspaceSizeInBytesOnDevice,
                                 void* h_work, size_t workspaceSizeInBytesOnHost) {
  (void)h_work;
  (void)workspaceSizeInBytesOnHost;
  const int u = trn::cshim::enum_value(uplo) < 0 ? INT32_MAX : trn::cshim::enum_value(uplo);
  const UpdateCall x{handle, u, trn::cshim::enum_value(trans), m, n, alpha, a, ia, ja, descA, beta, c, ic, jc, descC, -1,
                     d_work, workspaceSizeInBytesOnDevice};
  return add_call(x, "trnblasMpTradd", false, nullptr, nullptr);
}

trnblasMpStatus_t trnblasMpMatmulDescriptorCreate(trnblasMpMatmulDescriptor_t* matmulDesc, trnblasComputeType_t computeType) {
  bool fp64 = false;
  trn::blas::GemmMode mode{};
  const int ct = trn::cshim::enum_value(computeType);
  Check c(g_log, "trnblasMpMatmulDescriptorCreate", TRNBLASMP_STATUS_INVALID_VALUE);
  if (!c.not_null(matmulDesc, 1, "matmulDesc").require(gemm_mode_of(ct, &mode, &fp64), 2, "computeType")) return c.status();
  return trn::cshim::create_registered(g_matmuls, matmulDesc, TRNBLASMP_STATUS_INVALID_VALUE, TRNBLASMP_STATUS_ALLOCATION_FAILED,
                                       TRNBLASMP_STATUS_SUCCESS,
                                       [&](trnblasMpMatmulDescriptorImpl& p) { p.compute_type = ct; });
}

trnblasMpStatus_t trnblasMpMatmulDescriptorDestroy(trnblasMpMatmulDescriptor_t matmulDesc) {
  return g_matmuls.destroy(matmulDesc) ? TRNBLASMP_STATUS_SUCCESS : TRNBLASMP_STATUS_INVALID_VALUE;
}

trnblasMpStatus_t trnblasMpMatmulDescriptorAttributeSet(trnblasMpMatmulDescriptor_t matmulDesc,
                                                        trnblasMpMatmulDescriptorAttribute_t attr, const void* buf,
                                                        size_t sizeInBytes) {
  const int at = trn::cshim::enum_value(attr);
  Check c(g_log, "trnblasMpMatmulDescriptorAttributeSet", TRNBLASMP_STATUS_INVALID_VALUE);
  c.require(g_matmuls.contains(matmulDesc), 1, "matmulDesc")
      .require_or(at >= TRNBLASMP_MATMUL_DESCRIPTOR_ATTRIBUTE_TRANSA && at <= TRNBLASMP_MATMUL_DESCRIPTOR_ATTRIBUTE_COMPUTE_TYPE,
                  TRNBLASMP_STATUS_NOT_SUPPORTED, "TRNBLASMP_STATUS_NOT_SUPPORTED", "attribute not supported")
      .not_null(buf, 3, "buf").require(sizeInBytes == sizeof(int), 4, "sizeInBytes");
  if (!c) return c.status();
  int v = 0;
  std::memcpy(&v, buf, sizeof v);
  bool fp64 = false;
  trn::blas::GemmMode mode{};
  const bool ok = at == TRNBLASMP_MATMUL_DESCRIPTOR_ATTRIBUTE_COMPUTE_TYPE ? gemm_mode_of(v, &mode, &fp64)
                                                                           : v >= TRNBLAS_OP_N && v <= TRNBLAS_OP_C;
  if (!c.require(ok, 3, "buf")) return c.status();
  int& field = at == TRNBLASMP_MATMUL_DESCRIPTOR_ATTRIBUTE_TRANSA   ? matmulDesc->trans_a
               : at == TRNBLASMP_MATMUL_DESCRIPTOR_ATTRIBUTE_TRANSB ? matmulDesc->trans_b
                                                                    : matmulDesc->compute_type;
  field = v;
  return TRNBLASMP_STATUS_SUCCESS;
}

trnblasMpStatus_t trnblasMpMatmulDescriptorAttributeGet(trnblasMpMatmulDescriptor_t matmulDesc,
                                                        trnblasMpMatmulDescriptorAttribute_t attr, void* buf,
                                                        size_t sizeInBytes, size_t* sizeWritten) {
  const int at = trn::cshim::enum_value(attr);
  Check c(g_log, "trnblasMpMatmulDescriptorAttributeGet", TRNBLASMP_STATUS_INVALID_VALUE);
  c.require(g_matmuls.contains(matmulDesc), 1, "matmulDesc")
      .require_or(at >= TRNBLASMP_MATMUL_DESCRIPTOR_ATTRIBUTE_TRANSA && at <= TRNBLASMP_MATMUL_DESCRIPTOR_ATTRIBUTE_COMPUTE_TYPE,
                  TRNBLASMP_STATUS_NOT_SUPPORTED, "TRNBLASMP_STATUS_NOT_SUPPORTED", "attribute not supported")
      .not_null(buf, 3, "buf").require(sizeInBytes >= sizeof(int), 4, "sizeInBytes");
  if (!c) return c.status();
  const int v = at == TRNBLASMP_MATMUL_DESCRIPTOR_ATTRIBUTE_TRANSA   ? matmulDesc->trans_a
                : at == TRNBLASMP_MATMUL_DESCRIPTOR_ATTRIBUTE_TRANSB ? matmulDesc->trans_b
                                                                     : matmulDesc->compute_type;
  std::memcpy(buf, &v, sizeof v);
  if (sizeWritten != nullptr) *sizeWritten = sizeof v;
  return TRNBLASMP_STATUS_SUCCESS;
}

trnblasMpStatus_t trnblasMpMatmul_bufferSize(trnblasMpHandle_t handle, trnblasMpMatmulDescriptor_t matmulDesc, int64_t m,
                                             int64_t n, int64_t k, const void* alpha, const void* a, int64_t ia, int64_t ja,
                                             trnblasMpMatrixDescriptor_t descA, const void* b, int64_t ib, int64_t jb,
                                             trnblasMpMatrixDescriptor_t descB, const void* beta, const void* c, int64_t ic,
                                             int64_t jc, trnblasMpMatrixDescriptor_t descC, void* d, int64_t id, int64_t jd,
                                             trnblasMpMatrixDescriptor_t descD, size_t* workspaceSizeInBytesOnDevice,
                                             size_t* workspaceSizeInBytesOnHost) {
  const MatmulCall x{{handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, alpha, a, ia, ja, descA, b, ib, jb, descB, beta,
                      const_cast<void*>(c), ic, jc, descC, -1, nullptr, 0},
                     matmulDesc, d, id, jd, descD};
  return matmul_call(x, "trnblasMpMatmul_bufferSize", true, workspaceSizeInBytesOnDevice, workspaceSizeInBytesOnHost);
}

trnblasMpStatus_t trnblasMpMatmul(trnblasMpHandle_t handle, trnblasMpMatmulDescriptor_t matmulDesc, int64_t m, int64_t n,
                                  int64_t k, const void* alpha, const void* a, int64_t ia, int64_t ja,
                                  trnblasMpMatrixDescriptor_t descA, const void* b, int64_t ib, int64_t jb,
                                  trnblasMpMatrixDescriptor_t descB, const void* beta, const void* c, int64_t ic, int64_t jc,
                                  trnblasMpMatrixDescriptor_t descC, void* d, int64_t id, int64_t jd,
                                  trnblasMpMatrixDescriptor_t descD, void* d_work, size_t workspaceSizeInBytesOnDevice,
                                  void* h_work, size_t workspaceSizeInBytesOnHost) {
  (void)h_work;
  (void)workspaceSizeInBytesOnHost;
  const MatmulCall x{{handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, alpha, a, ia, ja, descA, b, ib, jb, descB, beta,
                      const_cast<void*>(c), ic, jc, descC, -1, d_work, workspaceSizeInBytesOnDevice},
                     matmulDesc, d, id, jd, descD};
  return matmul_call(x, "trnblasMpMatmul", false, nullptr, nullptr);
}

TRN_CSHIM_EMULATION_ENTRY_POINTS(trnblasMp, trnblasMp, Surface)

}  // extern "C"
