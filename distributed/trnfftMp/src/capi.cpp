// trnfftMp C API (trnfftMp.h) over the C++ API (trn/fftmp/fftmp.hpp), written with the C-shim kit.
// A distributed plan lives beside a trnfftCreate handle (trnfft's detail::c_plan_settings gives the
// handle's settings; trnfftDestroy calls our hook). Collective entry points check their arguments
// locally, then exchange (status, arguments) over the plan's communicator before anything else, so
// every rank returns the same status (docs/scale-out.md "trnfftMp", "Bad input").
#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exchange.hpp"
#include "trn/core/c_shim.hpp"
#include "trn/fft/c_plans.hpp"
#include "trn/blasmp/merged_trace.hpp"
#include "trn/core/error.hpp"
#include "trn/fftmp/fftmp.hpp"
#include "trn/fftmp/pencil.hpp"
#include "trnfftMp.h"

namespace {

using Check = trn::cshim::ArgCheck<trnfftResult>;

trn::cshim::Logger& logger() {
  static trn::cshim::Logger l("TRNFFTMP");
  return l;
}
const char* status_name(trnfftResult s) { return trnfftGetStatusName(s); }
const trn::cshim::StatusMap<trnfftResult> kStatus{TRNFFT_SUCCESS,     TRNFFT_ALLOC_FAILED, TRNFFT_NOT_SUPPORTED,
                                                  TRNFFT_INVALID_VALUE, TRNFFT_EXEC_FAILED,  TRNFFT_INTERNAL_ERROR,
                                                  status_name};

struct MpPlan {
  std::mutex mu;
  MPI_Comm attached = MPI_COMM_NULL;  // trnfftMpAttachComm's (a duplicate; freed with the plan)
  std::unique_ptr<trn::fftmp::SlabPlan> plan;
  // trnfftXtSetDistribution's boxes (box_rank 0: none set) and the box plan made from them.
  int box_rank = 0;
  trn::fftmp::Box box_in, box_out;
  std::unique_ptr<trn::fftmp::BoxPlan> box;
  trnProfile_t last_profile{};
  trn::cshim::LastError last_error_param{0};
  ~MpPlan() {
    plan.reset();
    box.reset();
    if (attached != MPI_COMM_NULL) {
      int finalized = 0;
      MPI_Finalized(&finalized);
      if (finalized == 0) MPI_Comm_free(&attached);
    }
  }
};

std::mutex g_mu;
std::map<int, std::shared_ptr<MpPlan>> g_plans;
// trnfftMp's descriptors (a descriptor not allocated here is refused).
std::map<const trnLibXtDesc*, std::unique_ptr<trnLibXtDesc>> g_descs;

void forget(int handle) {
  std::shared_ptr<MpPlan> p;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    auto it = g_plans.find(handle);
    if (it == g_plans.end()) return;
    p = it->second;
    g_plans.erase(it);
  }
  std::lock_guard<std::mutex> wait(p->mu);
}

bool make_plan_hook(int h, const trn::fft::detail::MakePlanCall& call, int* status);

// The trnfftMp state of a live trnfft handle (created on first use); null for a dead handle.
std::shared_ptr<MpPlan> state_of(trnfftHandle h) {
  trn::fft::Settings s;
  trn::fft::Mode m;
  if (!trn::fft::detail::c_plan_settings(h, &s, &m)) return nullptr;
  std::lock_guard<std::mutex> lock(g_mu);
  static const bool hooked = (trn::fft::detail::set_c_destroy_hook(forget), trn::fft::detail::set_c_make_plan_hook(make_plan_hook), true);
  (void)hooked;
  std::shared_ptr<MpPlan>& p = g_plans[h];
  if (!p) p = std::make_shared<MpPlan>();
  return p;
}

bool live_desc(const trnLibXtDesc* d) {
  std::lock_guard<std::mutex> lock(g_mu);
  return d != nullptr && g_descs.count(d) != 0;
}

// Local checks done (st), then the exchange over comm: the status every rank returns. A rank
// without a communicator answers alone (its peers wait in theirs: docs/scale-out.md "Limits").
trnfftResult agree_over(MPI_Comm comm, const char* fn, trnfftResult st, const std::vector<std::int64_t>& args,
                        trnfftResult differ) {
  if (comm == MPI_COMM_NULL) return st == TRNFFT_SUCCESS ? TRNFFT_INVALID_VALUE : st;
  const auto ag = trn::blasmp::detail::agree(comm, static_cast<int>(st), args);
  if (!ag.mpi_ok) return trn::cshim::fail(logger(), kStatus, fn, TRNFFT_INTERNAL_ERROR, "MPI allreduce failed");
  if (ag.status != TRNFFT_SUCCESS) return static_cast<trnfftResult>(ag.status);
  if (!ag.same) return trn::cshim::fail(logger(), kStatus, fn, differ, "the ranks passed different arguments");
  return TRNFFT_SUCCESS;
}

bool is_comm(const void* comm_handle) {
  if (comm_handle == nullptr) return false;
  const MPI_Comm c = *static_cast<const MPI_Comm*>(comm_handle);
  return c != MPI_COMM_NULL;
}

// trnfftType <-> trn::fft::Type (a known C type assumed).
trn::fft::Type fft_type(int t) {
  switch (t) {
    case TRNFFT_R2C: return trn::fft::Type::r2c;
    case TRNFFT_C2R: return trn::fft::Type::c2r;
    case TRNFFT_Z2Z: return trn::fft::Type::z2z;
    case TRNFFT_D2Z: return trn::fft::Type::d2z;
    case TRNFFT_Z2D: return trn::fft::Type::z2d;
    default: return trn::fft::Type::c2c;
  }
}
int c_type(trn::fft::Type t) {
  for (const int c : {TRNFFT_C2C, TRNFFT_R2C, TRNFFT_C2R, TRNFFT_Z2Z, TRNFFT_D2Z, TRNFFT_Z2D})
    if (fft_type(c) == t) return c;
  return TRNFFT_C2C;
}

// The box API's plan (trnfftXtSetDistribution before the make call): a pencil plan between the
// ranks' boxes. Bad boxes (overlap, holes, outside the domain, a layout with shared addresses) are
// found from the allgathered boxes, the same verdict on every rank: INVALID_VALUE everywhere.
// A 2-D real transform runs as 1 x n0 x n1 (its halved axis last): its boxes move up one axis.
trn::fftmp::Box real_2d_box(const trn::fftmp::Box& b) {
  trn::fftmp::Box r;
  r.lower = {0, b.lower[0], b.lower[1]};
  r.upper = {1, b.upper[0], b.upper[1]};
  r.strides = {1, b.strides[0], b.strides[1]};
  return r;
}

trnfftResult make_box_plan(MpPlan& p, const char* fn, const trn::fftmp::SlabSpec& slab, const trn::fft::Settings& settings,
                           MPI_Comm comm, size_t* work_size) {
  trn::fftmp::PencilSpec spec;
  const bool real_2d = slab.n.size() == 2 && trn::fftmp::is_real(slab.type);
  spec.n = slab.n.size() == 3 ? trn::fftmp::Index3{slab.n[0], slab.n[1], slab.n[2]}
           : real_2d          ? trn::fftmp::Index3{1, slab.n[0], slab.n[1]}
                              : trn::fftmp::Index3{slab.n[0], slab.n[1], 1};
  spec.type = slab.type;
  spec.mode = slab.mode;
  const trn::fftmp::Box in = real_2d ? real_2d_box(p.box_in) : p.box_in;
  const trn::fftmp::Box out = real_2d ? real_2d_box(p.box_out) : p.box_out;
  std::unique_ptr<trn::fftmp::BoxPlan> plan;
  trnfftResult st = trn::cshim::guarded(logger(), fn, kStatus, [&] {
    plan = std::make_unique<trn::fftmp::BoxPlan>(spec, in, out, settings, comm);
  });
  st = agree_over(comm, fn, st, {}, TRNFFT_INTERNAL_ERROR);
  if (st != TRNFFT_SUCCESS) return st;
  const std::size_t es = trn::fftmp::is_fp64(spec.type) ? 16 : 8;
  // The copies an execution makes: the first and last pencils, the middle one, the received boxes
  // (counted as complex pencils of the (half) spectrum: a real A pencil is no larger).
  const trn::fftmp::PencilPlan& pencils = plan->pencils();
  const std::array<trn::fftmp::Box, 3> b = trn::fftmp::pencil_boxes(trn::fftmp::complex_dims(pencils.spec()), pencils.spec().p1,
                                                                    pencils.spec().p2, pencils.rank());
  *work_size = static_cast<std::size_t>(2 * b[0].span() + b[1].span() + 2 * b[2].span()) * es;
  p.box = std::move(plan);
  return TRNFFT_SUCCESS;
}

// unsupported: why trnfftMakePlan*'s call cannot be a slab plan (NOT_SUPPORTED), or nullptr.
trnfftResult make_plan(trnfftHandle h, const char* fn, std::vector<std::int64_t> n, int type, void* comm_handle,
                       int comm_type, size_t* work_size, const char* unsupported = nullptr) {
  std::shared_ptr<MpPlan> p = state_of(h);
  const int d = static_cast<int>(n.size());
  // The communicator first: without one there is nobody to agree with.
  // (Whatever comm_type says: a rank that leaves the exchange out would leave its peers waiting.)
  MPI_Comm comm = MPI_COMM_NULL;
  if (is_comm(comm_handle)) comm = *static_cast<const MPI_Comm*>(comm_handle);
  if (comm_handle == nullptr && p) comm = p->attached;
  trn::cshim::LastError scratch{0};
  Check check(logger(), fn, TRNFFT_INVALID_VALUE, p ? &p->last_error_param : &scratch);
  if (!p) check.require_or(false, TRNFFT_INVALID_PLAN, "TRNFFT_INVALID_PLAN", "not a live trnfftCreate handle");
  if (check && unsupported != nullptr) check.require_or(false, TRNFFT_NOT_SUPPORTED, "TRNFFT_NOT_SUPPORTED", unsupported);
  for (int i = 0; i < d && check; ++i)
    check.require_or(n[static_cast<std::size_t>(i)] >= 1 && n[static_cast<std::size_t>(i)] <= trn::fft::kMaxDimension,
                     TRNFFT_INVALID_SIZE, "TRNFFT_INVALID_SIZE", "every size must be in [1, 2^27]");
  if (check)
    check.require_or(type == TRNFFT_C2C || type == TRNFFT_Z2Z || type == TRNFFT_R2C || type == TRNFFT_C2R ||
                         type == TRNFFT_D2Z || type == TRNFFT_Z2D,
                     TRNFFT_INVALID_TYPE, "TRNFFT_INVALID_TYPE", "unknown trnfftType");
  if (check) check.require(comm != MPI_COMM_NULL || comm_handle != nullptr, d + 2, "comm_handle");
  if (check) check.one_of(comm_type, {TRNFFT_COMM_MPI}, d + 3, "comm_type");
  if (check) check.require(comm != MPI_COMM_NULL, d + 2, "comm_handle");
  if (check) check.not_null(work_size, d + 4, "workSize");
  const int box_rank = p ? p->box_rank : 0;
  if (check && box_rank != 0)
    check.require_or(box_rank == d, TRNFFT_INVALID_VALUE, "TRNFFT_INVALID_VALUE",
                     "trnfftXtSetDistribution's rank differs from the plan's");
  std::vector<std::int64_t> args{d, type, box_rank};
  for (int i = 0; i < 3; ++i) args.push_back(i < d ? n[static_cast<std::size_t>(i)] : 0);
  trnfftResult st = agree_over(comm, fn, check.status(), args, TRNFFT_INVALID_SIZE);
  if (st != TRNFFT_SUCCESS) return st;
  std::lock_guard<std::mutex> lock(p->mu);
  trn::fftmp::SlabSpec spec;
  spec.n = std::move(n);
  spec.type = fft_type(type);
  trn::fft::Settings settings;
  trn::fft::detail::c_plan_settings(h, &settings, &spec.mode);
  if (trn::fftmp::is_fp64(spec.type)) spec.mode = trn::fft::Mode::fp32;
  if (box_rank != 0) return make_box_plan(*p, fn, spec, settings, comm, work_size);
  std::unique_ptr<trn::fftmp::SlabPlan> plan;
  // The local plans may fail on one rank only (a slab beyond trnfft's limits): exchanged again.
  st = trn::cshim::guarded(logger(), fn, kStatus, [&] { plan = std::make_unique<trn::fftmp::SlabPlan>(spec, settings, comm); });
  st = agree_over(comm, fn, st, {}, TRNFFT_INTERNAL_ERROR);
  if (st != TRNFFT_SUCCESS) return st;
  const std::size_t es = trn::fftmp::is_fp64(spec.type) ? 16 : 8;
  // The slab copies an execution makes (docs/scale-out.md; trnfft's own scratch not counted).
  const std::int64_t a = plan->inplace_elements(), b = plan->shuffled_elements();
  *work_size = static_cast<std::size_t>(a + b + std::max(a, b)) * es;
  p->plan = std::move(plan);
  return TRNFFT_SUCCESS;
}

// trnfftMakePlan2d / 3d / Many / Many64 on a handle with an attached communicator (trnfft's hook):
// the slab plan over that communicator, as cuFFTMp's cufftMakePlan*d after cufftMpAttachComm. A
// handle without one is trnfft's (single-device plan).
bool make_plan_hook(int h, const trn::fft::detail::MakePlanCall& call, int* status) {
  std::shared_ptr<MpPlan> p;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    auto it = g_plans.find(h);
    if (it == g_plans.end()) return false;
    p = it->second;
  }
  {
    std::lock_guard<std::mutex> lock(p->mu);
    if (p->attached == MPI_COMM_NULL) return false;
  }
  const char* unsupported = nullptr;
  if (call.rank != 2 && call.rank != 3) unsupported = "trnfftMp slabs are 2-D or 3-D (rank 2 or 3)";
  else if (call.batch != 1) unsupported = "trnfftMp slabs take batch 1";
  else if (!call.natural_layout) unsupported = "trnfftMp slabs take the natural layout (inembed, onembed NULL)";
  std::size_t scratch = 0;  // trnfftMakePlan*'s workSize may be NULL
  *status = make_plan(h, call.fn, call.n, call.type, nullptr, TRNFFT_COMM_MPI, call.work_size != nullptr ? call.work_size : &scratch,
                      unsupported);
  return true;
}

// What the descriptor calls need of either plan (the slab plan, or the box API's).
int plan_type(const MpPlan& p) {
  return c_type(p.box ? p.box->pencils().spec().type : p.plan->spec().type);
}
// Bytes of one element of a descriptor in `format`: complex, except a real box plan's
// DISTRIBUTED_INPUT (real elements). A real slab's INPLACE slab counts as complex elements (padded rows).
std::size_t elem_bytes(const MpPlan& p, int format) {
  if (p.box) return format == TRNFFT_XT_FORMAT_DISTRIBUTED_OUTPUT ? p.box->output_bytes() : p.box->input_bytes();
  return trn::fftmp::is_fp64(fft_type(plan_type(p))) ? 16 : 8;
}
std::int64_t elements_of(const MpPlan& p, int format) {
  if (p.box) return format == TRNFFT_XT_FORMAT_DISTRIBUTED_OUTPUT ? p.box->output_span() : p.box->input_span();
  return format == TRNFFT_XT_FORMAT_INPLACE_SHUFFLED ? p.plan->shuffled_elements() : p.plan->inplace_elements();
}
bool made(const MpPlan& p) { return p.plan != nullptr || p.box != nullptr; }
// The formats of a forward transform's input and output (the inverse swaps them).
std::array<int, 2> forward_formats(const MpPlan& p) {
  if (p.box) return {TRNFFT_XT_FORMAT_DISTRIBUTED_INPUT, TRNFFT_XT_FORMAT_DISTRIBUTED_OUTPUT};
  return {TRNFFT_XT_FORMAT_INPLACE, TRNFFT_XT_FORMAT_INPLACE_SHUFFLED};
}

trnfftResult exec_descriptor(trnfftHandle h, const char* fn, int expected_type, trnLibXtDesc* in, trnLibXtDesc* out,
                             int direction) {
  std::shared_ptr<MpPlan> p = state_of(h);
  if (!p || !made(*p)) {  // no communicator: this rank answers alone
    logger().log(trn::cshim::failure_message(fn, "TRNFFT_INVALID_PLAN", "not a trnfftMp plan made by trnfftMpMakePlan*d"));
    return TRNFFT_INVALID_PLAN;
  }
  std::lock_guard<std::mutex> lock(p->mu);
  const int type = plan_type(*p);
  Check check(logger(), fn, TRNFFT_INVALID_VALUE, &p->last_error_param);
  check.require_or(expected_type < 0 || expected_type == type, TRNFFT_INVALID_TYPE, "TRNFFT_INVALID_TYPE",
                   "the plan was made for another transform type");
  if (check) check.require(live_desc(in), 1, "input");
  if (check) check.require(live_desc(out), 2, "output");
  // A real plan has one direction: R2C / D2Z forward, C2R / Z2D inverse (XtExecDescriptor's direction must match).
  if (type == TRNFFT_R2C || type == TRNFFT_D2Z) {
    if (check) check.one_of(direction, {TRNFFT_FORWARD}, 3, "direction");
  } else if (type == TRNFFT_C2R || type == TRNFFT_Z2D) {
    if (check) check.one_of(direction, {TRNFFT_INVERSE}, 3, "direction");
  } else if (check) {
    check.one_of(direction, {TRNFFT_FORWARD, TRNFFT_INVERSE}, 3, "direction");
  }
  const std::array<int, 2> f = forward_formats(*p);
  const bool fwd = direction == TRNFFT_FORWARD;
  if (check) check.require(in->subFormat == (fwd ? f[0] : f[1]), 1, "input (subFormat)");
  const MPI_Comm comm = p->box ? p->box->pencils().comm() : p->plan->comm_for_exchange();
  // The merged-trace request (TRNSCI_MP_TRACE, trn/blasmp/merged_trace.hpp) is agreed with the direction.
  const std::string trace_path = trn::blasmp::merged_trace_path();
  const trnfftResult st = agree_over(comm, fn, check.status(), {direction, trace_path.empty() ? 0 : 1},
                                     TRNFFT_INVALID_VALUE);
  if (st != TRNFFT_SUCCESS) return st;
  trn::fft::ExecReport rep;
  rep.plans_wanted = false;
  void* i = in->descriptor->data[0];
  void* o = out->descriptor->data[0];
  const trnfftResult r = trn::cshim::guarded(logger(), fn, kStatus, [&] {
    if (p->box) p->box->execute(i, o, direction, &rep);
    else p->plan->execute(i, o, direction, &rep);
  });
  if (r == TRNFFT_SUCCESS) {
    out->subFormat = fwd ? f[1] : f[0];
    p->last_profile = rep.profile.to_c();
    if (!trace_path.empty())  // a failure to write is logged; the transform's status stays success
      (void)trn::cshim::guarded(logger(), fn, kStatus, [&] {
        if (!trn::blasmp::write_merged_trace(comm, rep, rep.profile.target, trace_path))
          throw trn::Error("cannot write the merged trace to " + trace_path);
      });
  }
  return r;
}

// One box of trnfftXtSetDistribution (rank 2: the third axis [0, 1), stride 1).
trn::fftmp::Box box_of(int rank, const long long* lower, const long long* upper, const long long* strides) {
  trn::fftmp::Box b;
  b.upper[2] = 1;
  b.strides[2] = 1;
  for (std::size_t d = 0; d < static_cast<std::size_t>(rank); ++d) b.lower[d] = lower[d], b.upper[d] = upper[d], b.strides[d] = strides[d];
  return b;
}

}  // namespace

extern "C" {

trnfftResult trnfftMpAttachComm(trnfftHandle plan, trnfftMpCommType comm_type, void* comm_handle) {
  std::shared_ptr<MpPlan> p = state_of(plan);
  if (!p) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(p->mu);
  Check check(logger(), "trnfftMpAttachComm", TRNFFT_INVALID_VALUE, &p->last_error_param);
  check.one_of(trn::cshim::enum_value(comm_type), {TRNFFT_COMM_MPI}, 1, "comm_type").require(is_comm(comm_handle), 2, "comm_handle");
  if (!check) return check.status();
  MPI_Comm dup = MPI_COMM_NULL;
  if (MPI_Comm_dup(*static_cast<const MPI_Comm*>(comm_handle), &dup) != MPI_SUCCESS)
    return trn::cshim::fail(logger(), kStatus, "trnfftMpAttachComm", TRNFFT_INTERNAL_ERROR, "MPI_Comm_dup failed");
  if (p->attached != MPI_COMM_NULL) MPI_Comm_free(&p->attached);
  p->attached = dup;
  return TRNFFT_SUCCESS;
}

trnfftResult trnfftMpMakePlan2d(trnfftHandle plan, int nx, int ny, trnfftType type, void* comm_handle,
                                trnfftMpCommType comm_type, size_t* workSize) {
  return make_plan(plan, "trnfftMpMakePlan2d", {nx, ny}, trn::cshim::enum_value(type), comm_handle,
                   trn::cshim::enum_value(comm_type), workSize);
}

trnfftResult trnfftMpMakePlan3d(trnfftHandle plan, int nx, int ny, int nz, trnfftType type, void* comm_handle,
                                trnfftMpCommType comm_type, size_t* workSize) {
  return make_plan(plan, "trnfftMpMakePlan3d", {nx, ny, nz}, trn::cshim::enum_value(type), comm_handle,
                   trn::cshim::enum_value(comm_type), workSize);
}

trnfftResult trnfftXtMalloc(trnfftHandle plan, trnLibXtDesc** descriptor, trnfftXtSubFormat format) {
  std::shared_ptr<MpPlan> p = state_of(plan);
  if (!p) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(p->mu);
  Check check(logger(), "trnfftXtMalloc", TRNFFT_INVALID_VALUE, &p->last_error_param);
  check.require_or(made(*p), TRNFFT_INVALID_PLAN, "TRNFFT_INVALID_PLAN", "the plan has not been made")
      .not_null(descriptor, 1, "descriptor");
  if (check) {
    const std::array<int, 2> f = forward_formats(*p);
    check.one_of(trn::cshim::enum_value(format), {f[0], f[1]}, 2, "format");
  }
  if (!check) return check.status();
  const std::array<int, 2> f = forward_formats(*p);
  const std::size_t bytes = std::max<std::size_t>(
      {static_cast<std::size_t>(elements_of(*p, f[0])) * elem_bytes(*p, f[0]),
       static_cast<std::size_t>(elements_of(*p, f[1])) * elem_bytes(*p, f[1]), elem_bytes(*p, f[1])});
  auto lib = std::make_unique<trnLibXtDesc>();
  auto xt = std::make_unique<trnXtDesc>();
  std::memset(lib.get(), 0, sizeof(trnLibXtDesc));
  std::memset(xt.get(), 0, sizeof(trnXtDesc));
  xt->nGPUs = 1;
  xt->GPUs[0] = p->box ? p->box->pencils().rank() : p->plan->rank();
  xt->data[0] = std::calloc(bytes, 1);
  xt->size[0] = bytes;
  if (xt->data[0] == nullptr) return TRNFFT_ALLOC_FAILED;
  lib->descriptor = xt.release();
  lib->library = LIB_FORMAT_TRNFFT;
  lib->subFormat = trn::cshim::enum_value(format);
  *descriptor = lib.get();
  std::lock_guard<std::mutex> g(g_mu);
  g_descs[lib.get()] = std::move(lib);
  return TRNFFT_SUCCESS;
}

trnfftResult trnfftXtFree(trnLibXtDesc* descriptor) {
  std::unique_ptr<trnLibXtDesc> d;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    auto it = g_descs.find(descriptor);
    if (it == g_descs.end()) return TRNFFT_INVALID_VALUE;
    d = std::move(it->second);
    g_descs.erase(it);
  }
  std::free(d->descriptor->data[0]);
  delete d->descriptor;
  return TRNFFT_SUCCESS;
}

trnfftResult trnfftXtMemcpy(trnfftHandle plan, void* dstPointer, void* srcPointer, trnfftXtCopyType type) {
  std::shared_ptr<MpPlan> p = state_of(plan);
  if (!p) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(p->mu);
  const int t = trn::cshim::enum_value(type);
  Check check(logger(), "trnfftXtMemcpy", TRNFFT_INVALID_VALUE, &p->last_error_param);
  check.require_or(made(*p), TRNFFT_INVALID_PLAN, "TRNFFT_INVALID_PLAN", "the plan has not been made")
      .not_null(dstPointer, 1, "dstPointer")
      .not_null(srcPointer, 2, "srcPointer")
      .one_of(t, {TRNFFT_COPY_HOST_TO_DEVICE, TRNFFT_COPY_DEVICE_TO_HOST, TRNFFT_COPY_DEVICE_TO_DEVICE}, 3, "type");
  if (check && t != TRNFFT_COPY_DEVICE_TO_HOST) check.require(live_desc(static_cast<trnLibXtDesc*>(dstPointer)), 1, "dstPointer");
  if (check && t != TRNFFT_COPY_HOST_TO_DEVICE) check.require(live_desc(static_cast<trnLibXtDesc*>(srcPointer)), 2, "srcPointer");
  if (!check) return check.status();
  auto* dst = static_cast<trnLibXtDesc*>(dstPointer);
  auto* src = static_cast<trnLibXtDesc*>(srcPointer);
  const int format = t == TRNFFT_COPY_HOST_TO_DEVICE ? dst->subFormat : src->subFormat;
  const std::size_t bytes = static_cast<std::size_t>(elements_of(*p, format)) * elem_bytes(*p, format);
  void* to = t == TRNFFT_COPY_DEVICE_TO_HOST ? dstPointer : dst->descriptor->data[0];
  const void* from = t == TRNFFT_COPY_HOST_TO_DEVICE ? srcPointer : src->descriptor->data[0];
  if (bytes > 0 && to != from) std::memmove(to, from, bytes);
  if (t == TRNFFT_COPY_DEVICE_TO_DEVICE) dst->subFormat = src->subFormat;
  return TRNFFT_SUCCESS;
}

trnfftResult trnfftXtExecDescriptor(trnfftHandle plan, trnLibXtDesc* input, trnLibXtDesc* output, int direction) {
  return exec_descriptor(plan, "trnfftXtExecDescriptor", -1, input, output, direction);
}
trnfftResult trnfftXtExecDescriptorC2C(trnfftHandle plan, trnLibXtDesc* input, trnLibXtDesc* output, int direction) {
  return exec_descriptor(plan, "trnfftXtExecDescriptorC2C", TRNFFT_C2C, input, output, direction);
}
trnfftResult trnfftXtExecDescriptorZ2Z(trnfftHandle plan, trnLibXtDesc* input, trnLibXtDesc* output, int direction) {
  return exec_descriptor(plan, "trnfftXtExecDescriptorZ2Z", TRNFFT_Z2Z, input, output, direction);
}

trnfftResult trnfftXtExecDescriptorR2C(trnfftHandle plan, trnLibXtDesc* input, trnLibXtDesc* output) {
  return exec_descriptor(plan, "trnfftXtExecDescriptorR2C", TRNFFT_R2C, input, output, TRNFFT_FORWARD);
}
trnfftResult trnfftXtExecDescriptorC2R(trnfftHandle plan, trnLibXtDesc* input, trnLibXtDesc* output) {
  return exec_descriptor(plan, "trnfftXtExecDescriptorC2R", TRNFFT_C2R, input, output, TRNFFT_INVERSE);
}
trnfftResult trnfftXtExecDescriptorD2Z(trnfftHandle plan, trnLibXtDesc* input, trnLibXtDesc* output) {
  return exec_descriptor(plan, "trnfftXtExecDescriptorD2Z", TRNFFT_D2Z, input, output, TRNFFT_FORWARD);
}
trnfftResult trnfftXtExecDescriptorZ2D(trnfftHandle plan, trnLibXtDesc* input, trnLibXtDesc* output) {
  return exec_descriptor(plan, "trnfftXtExecDescriptorZ2D", TRNFFT_Z2D, input, output, TRNFFT_INVERSE);
}

trnfftResult trnfftMpGetLastProfile(trnfftHandle plan, trnProfile_t* profile) {
  std::shared_ptr<MpPlan> p = state_of(plan);
  if (!p) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(p->mu);
  Check check(logger(), "trnfftMpGetLastProfile", TRNFFT_INVALID_VALUE, &p->last_error_param);
  check.not_null(profile, 1, "profile");
  if (!check) return check.status();
  *profile = p->last_profile;
  return TRNFFT_SUCCESS;
}

trnfftResult trnfftMpGetPlanDescription(trnfftHandle plan, char* description, size_t size) {
  std::shared_ptr<MpPlan> p = state_of(plan);
  if (!p) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(p->mu);
  Check check(logger(), "trnfftMpGetPlanDescription", TRNFFT_INVALID_VALUE, &p->last_error_param);
  check.require_or(made(*p), TRNFFT_INVALID_PLAN, "TRNFFT_INVALID_PLAN", "the plan has not been made")
      .not_null(description, 1, "description")
      .require(size >= 1, 2, "size");
  if (!check) return check.status();
  std::string text;
  const trnfftResult r = trn::cshim::guarded(logger(), "trnfftMpGetPlanDescription", kStatus, [&] { text = p->box ? p->box->print() : p->plan->print(); });
  if (r != TRNFFT_SUCCESS) return r;
  const std::size_t n = std::min(text.size(), size - 1);
  std::memcpy(description, text.data(), n);
  description[n] = '\0';
  return text.size() < size ? TRNFFT_SUCCESS : TRNFFT_INVALID_VALUE;
}

trnfftResult trnfftXtSetDistribution(trnfftHandle plan, int rank, const long long int* lower_input,
                                     const long long int* upper_input, const long long int* lower_output,
                                     const long long int* upper_output, const long long int* strides_input,
                                     const long long int* strides_output) {
  std::shared_ptr<MpPlan> p = state_of(plan);
  if (!p) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(p->mu);
  Check check(logger(), "trnfftXtSetDistribution", TRNFFT_INVALID_VALUE, &p->last_error_param);
  check.require_or(!made(*p), TRNFFT_INVALID_PLAN, "TRNFFT_INVALID_PLAN", "the plan has already been made")
      .one_of(rank, {2, 3}, 1, "rank")
      .not_null(lower_input, 2, "lower_input")
      .not_null(upper_input, 3, "upper_input")
      .not_null(lower_output, 4, "lower_output")
      .not_null(upper_output, 5, "upper_output")
      .not_null(strides_input, 6, "strides_input")
      .not_null(strides_output, 7, "strides_output");
  if (!check) return check.status();
  const trn::fftmp::Box in = box_of(rank, lower_input, upper_input, strides_input);  // read, not yet computed with
  const trn::fftmp::Box out = box_of(rank, lower_output, upper_output, strides_output);
  // lower <= upper and a one-to-one layout (the tiling is checked by the make call, collectively).
  // Bounds in [0, 2^27] (a box must lie in a domain of sizes <= 2^27), lower <= upper, then the
  // layout (strides in [1, 2^31], one-to-one); the tiling is checked by the make call, collectively.
  const auto in_range = [](const long long* v, int r) {
    for (int d = 0; d < r; ++d)
      if (v[d] < 0 || v[d] > trn::fftmp::kMaxBoxIndex) return false;
    return true;
  };
  const auto ordered = [](const trn::fftmp::Box& b) {  // compared, not subtracted: any values
    return b.upper[0] >= b.lower[0] && b.upper[1] >= b.lower[1] && b.upper[2] >= b.lower[2];
  };
  check.require(in_range(lower_input, rank), 2, "lower_input")
      .require(in_range(upper_input, rank) && ordered(in), 3, "upper_input")
      .require(in_range(lower_output, rank), 4, "lower_output")
      .require(in_range(upper_output, rank) && ordered(out), 5, "upper_output")
      .require(trn::fftmp::box_layout_error(in).empty(), 6, "strides_input")
      .require(trn::fftmp::box_layout_error(out).empty(), 7, "strides_output");
  if (!check) return check.status();
  p->box_rank = rank;
  p->box_in = in;
  p->box_out = out;
  return TRNFFT_SUCCESS;
}

}  // extern "C"
