// trnblasMp C API (trnblasMp.h): handles, grids, descriptors and Gemm over the C++ API
// (trn/blasmp/blasmp.hpp), written with the C-shim kit (trn/core/c_shim.hpp). Collective entry
// points check their arguments locally, then exchange (status, arguments) over the grid's
// communicator (exchange.hpp) before any other message, so every rank returns the same status.
#include <cstring>
#include <string>
#include <vector>

#include "exchange.hpp"
#include "trn/blasmp/blasmp.hpp"
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

std::int64_t bits_of(const void* p, bool fp64) {
  if (p == nullptr) return 0;
  std::int64_t v = 0;
  if (fp64) {
    std::memcpy(&v, p, sizeof(double));
  } else {
    std::int32_t w = 0;
    std::memcpy(&w, p, sizeof w);
    v = w;
  }
  return v;
}

// What every rank must agree on (the local leading dimensions and pointers may differ).
std::vector<std::int64_t> exchanged_args(const GemmCall& x, bool fp64) {
  std::vector<std::int64_t> v{x.trans_a, x.trans_b, x.m,  x.n,  x.k,  x.ia, x.ja, x.ib, x.jb,
                              x.ic,      x.jc,      x.compute_type, bits_of(x.alpha, fp64), bits_of(x.beta, fp64)};
  for (trnblasMpMatrixDescriptor_t d : {x.desc_a, x.desc_b, x.desc_c}) {
    const bool live = g_descs.contains(d);
    const trn::blasmp::Descriptor e = live ? d->d : trn::blasmp::Descriptor{};
    v.insert(v.end(), {e.m, e.n, e.mb, e.nb, e.rsrc, e.csrc, static_cast<std::int64_t>(e.type)});
  }
  return v;
}

// The local checks of Gemm's arguments in cuBLASMp's parameter order (positions after the handle).
trnblasMpStatus_t check_gemm(const GemmCall& x, const char* fn, trn::blasmp::GemmArgs* out) {
  if (!g_handles.contains(x.h)) return TRNBLASMP_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNBLASMP_STATUS_INVALID_VALUE, &x.h->last_error_param);
  c.one_of(x.trans_a, {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, 1, "transA")
      .one_of(x.trans_b, {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, 2, "transB")
      .nonnegative(x.m, 3, "m").nonnegative(x.n, 4, "n").nonnegative(x.k, 5, "k").not_null(x.alpha, 6, "alpha")
      .require(g_descs.contains(x.desc_a), 10, "descA").require(g_descs.contains(x.desc_b), 14, "descB")
      .not_null(x.beta, 15, "beta").require(g_descs.contains(x.desc_c), 19, "descC");
  bool fp64 = false;
  c.require(gemm_mode_of(x.compute_type, &out->mode, &fp64), 20, "computeType");
  c.require_or(x.trans_a == TRNBLAS_OP_N && x.trans_b == TRNBLAS_OP_N, TRNBLASMP_STATUS_NOT_SUPPORTED,
               "TRNBLASMP_STATUS_NOT_SUPPORTED", "only op N, N")
      .require_or(x.ia == 1 && x.ja == 1 && x.ib == 1 && x.jb == 1 && x.ic == 1 && x.jc == 1,
                  TRNBLASMP_STATUS_NOT_SUPPORTED, "TRNBLASMP_STATUS_NOT_SUPPORTED", "only whole matrices (ia = ja = 1)");
  if (!c) return c.status();
  out->fp64 = fp64;
  out->m = x.m, out->n = x.n, out->k = x.k;
  out->alpha = fp64 ? *static_cast<const double*>(x.alpha) : *static_cast<const float*>(x.alpha);
  out->beta = fp64 ? *static_cast<const double*>(x.beta) : *static_cast<const float*>(x.beta);
  out->a = x.a, out->b = x.b, out->c = x.c;
  out->desc_a = &x.desc_a->d, out->desc_b = &x.desc_b->d, out->desc_c = &x.desc_c->d;
  out->work = x.work;
  out->work_bytes = x.work_bytes;
  return TRNBLASMP_STATUS_SUCCESS;
}

// Local checks, then the exchange over descC's grid: the status every rank returns. `sizing`: the
// _bufferSize form (no workspace yet).
trnblasMpStatus_t agree_gemm(const GemmCall& x, const char* fn, bool sizing, trn::blasmp::GemmArgs* args) {
  trnblasMpStatus_t st = check_gemm(x, fn, args);
  if (st == TRNBLASMP_STATUS_SUCCESS) {
    if (sizing) args->work_bytes = static_cast<std::size_t>(-1), args->work = args;  // any size fits
    const std::string why = trn::blasmp::gemm_mismatch(*args);
    if (!why.empty()) st = trn::cshim::fail(g_log, kStatusMap, fn, TRNBLASMP_STATUS_INVALID_VALUE, why);
  }
  // Without a live descC there is no communicator to agree over: this rank answers alone.
  if (!g_descs.contains(x.desc_c) || !g_grids.contains(x.desc_c->grid))
    return st == TRNBLASMP_STATUS_SUCCESS ? TRNBLASMP_STATUS_INVALID_VALUE : st;
  const auto ag = agree(x.desc_c->d.grid->comm, static_cast<int>(st), exchanged_args(x, args->fp64));
  if (!ag.mpi_ok) return trn::cshim::fail(g_log, kStatusMap, fn, TRNBLASMP_STATUS_INTERNAL_ERROR, "MPI allreduce failed");
  if (ag.status != TRNBLASMP_STATUS_SUCCESS) return static_cast<trnblasMpStatus_t>(ag.status);
  if (!ag.same)
    return trn::cshim::fail(g_log, kStatusMap, fn, TRNBLASMP_STATUS_INVALID_VALUE,
                            "the ranks passed different arguments (sizes, blocks, types, alpha/beta or compute type)");
  return TRNBLASMP_STATUS_SUCCESS;
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
  trnblasMpGridImpl* out = nullptr;
  const trnblasMpStatus_t st = trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::blasmp::Grid g;
    trn::blasmp::grid_create(g, static_cast<int>(nprow), static_cast<int>(npcol),
                             static_cast<trn::blasmp::GridLayout>(lay), comm);
    out = new trnblasMpGridImpl{g};
  });
  if (st != TRNBLASMP_STATUS_SUCCESS) return st;
  g_grids.insert(out);
  *grid = out;
  return TRNBLASMP_STATUS_SUCCESS;
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
  if (c) c.leading_dim(lld, d.local_rows(), 7, "lld").one_of(t, {TRN_R_32F, TRN_R_64F}, 8, "type").not_null(desc, 10, "desc");
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
  trn::blasmp::GemmArgs args;
  trnblasMpStatus_t st = agree_gemm(x, "trnblasMpGemm_bufferSize", true, &args);
  if (st != TRNBLASMP_STATUS_SUCCESS) return st;
  if (workspaceSizeInBytesOnDevice == nullptr || workspaceSizeInBytesOnHost == nullptr)
    return trn::cshim::fail(g_log, kStatusMap, "trnblasMpGemm_bufferSize", TRNBLASMP_STATUS_INVALID_VALUE,
                            "workspace size pointers must not be NULL");
  *workspaceSizeInBytesOnDevice = trn::blasmp::gemm_workspace_bytes(descA->d, descB->d, descC->d, k);
  *workspaceSizeInBytesOnHost = 0;
  return TRNBLASMP_STATUS_SUCCESS;
}

trnblasMpStatus_t trnblasMpGemm(trnblasMpHandle_t handle, trnblasOperation_t transA, trnblasOperation_t transB, int64_t m,
                                int64_t n, int64_t k, const void* alpha, const void* a, int64_t ia, int64_t ja,
                                trnblasMpMatrixDescriptor_t descA, const void* b, int64_t ib, int64_t jb,
                                trnblasMpMatrixDescriptor_t descB, const void* beta, void* c, int64_t ic, int64_t jc,
                                trnblasMpMatrixDescriptor_t descC, trnblasComputeType_t computeType, void* d_work,
                                size_t workspaceSizeInBytesOnDevice, void* h_work, size_t workspaceSizeInBytesOnHost) {
  (void)h_work;
  (void)workspaceSizeInBytesOnHost;
  const char* fn = "trnblasMpGemm";
  const GemmCall x{handle, trn::cshim::enum_value(transA), trn::cshim::enum_value(transB), m, n, k, alpha, a, ia, ja, descA,
                   b, ib, jb, descB, beta, c, ic, jc, descC, trn::cshim::enum_value(computeType), d_work,
                   workspaceSizeInBytesOnDevice};
  trn::blasmp::GemmArgs args;
  trnblasMpStatus_t st = agree_gemm(x, fn, false, &args);
  if (st != TRNBLASMP_STATUS_SUCCESS) return st;
  trn::blas::CallReport r;
  st = trn::cshim::guarded(g_log, fn, kStatusMap, [&] { trn::blasmp::gemm(handle->settings, args, &r); });
  if (st == TRNBLASMP_STATUS_SUCCESS) {
    handle->last_profile.store(r.profile.to_c());
    handle->last_plan.store(r.plan);
  }
  return st;
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

TRN_CSHIM_EMULATION_ENTRY_POINTS(trnblasMp, trnblasMp, Surface)

}  // extern "C"
