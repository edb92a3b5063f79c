// trnfft.h: the C shim over trn::fft (C-shim kit, core/include/trn/core/c_shim.hpp). Every entry
// point checks the plan handle, then its arguments in signature order (1-based positions, the
// handle not counted), then runs the C++ API inside `guarded`. Nothing is written on error.
#include "trnfft.h"
#include "trnfftXt.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "trn/core/c_shim.hpp"
#include "trn/fft/c_plans.hpp"
#include "trn/fft/fft.hpp"

namespace {

using trn::cshim::ArgCheck;
using trn::cshim::enum_value;

const trn::cshim::StatusMap<trnfftResult> kStatus{TRNFFT_SUCCESS,     TRNFFT_ALLOC_FAILED, TRNFFT_NOT_SUPPORTED,
                                                  TRNFFT_INVALID_VALUE, TRNFFT_EXEC_FAILED,  TRNFFT_INTERNAL_ERROR,
                                                  trnfftGetStatusName};

trn::cshim::Logger& logger() {
  static trn::cshim::Logger l("TRNFFT");
  return l;
}

struct PlanState {
  std::mutex mu;  // one execution or rebuild at a time per plan
  std::unique_ptr<trn::fft::Plan> plan;
  trn::fft::PlanSpec spec;  // the last made spec (precision kept separately)
  trn::fft::Settings settings;
  trn::fft::Mode mode = trn::fft::Mode::fp32;
  trnStream_t stream = nullptr;
  void* work_area = nullptr;
  bool auto_allocate = true;
  int work_area_policy = TRNFFT_WORKAREA_PERFORMANCE;  // XtSetWorkAreaPolicy (recorded)
  std::size_t work_area_limit = 0;                      // its workSize under TRNFFT_WORKAREA_USER
  long long patient_jit = 0, max_host_threads = 0;      // Set/GetPlanPropertyInt64 (recorded)
  trnProfile_t last_profile{};
  trn::cshim::LastError last_error_param{0};  // atomic: a handle may serve several threads
};

std::mutex g_table_mu;
std::map<int, std::shared_ptr<PlanState>> g_plans;
int g_next_handle = 1;
std::atomic<void (*)(int)> g_destroy_hook{nullptr};  // detail::set_c_destroy_hook (trnfftMp)
using MakePlanHook = bool (*)(int, const trn::fft::detail::MakePlanCall&, int*);
std::atomic<MakePlanHook> g_make_plan_hook{nullptr};  // detail::set_c_make_plan_hook (trnfftMp)

// Whether trnfftMp took this MakePlan call (a handle with an attached communicator): *status its answer.
template <class I>
bool hooked_make_plan(trnfftHandle plan, const char* fn, int rank, const I* n, const I* inembed, const I* onembed, int type,
                      long long batch, size_t* work_size, trnfftResult* status) {
  MakePlanHook hook = g_make_plan_hook.load();
  if (hook == nullptr) return false;
  trn::fft::detail::MakePlanCall call{fn, rank, {}, inembed == nullptr && onembed == nullptr, type, batch, work_size};
  if (n != nullptr && rank >= 1 && rank <= 3) call.n.assign(n, n + rank);
  int st = TRNFFT_SUCCESS;
  if (!hook(plan, call, &st)) return false;
  *status = static_cast<trnfftResult>(st);
  return true;
}

std::shared_ptr<PlanState> find_plan(trnfftHandle h) {
  std::lock_guard<std::mutex> lock(g_table_mu);
  auto it = g_plans.find(h);
  return it == g_plans.end() ? nullptr : it->second;
}

trnfftHandle new_handle() {
  std::lock_guard<std::mutex> lock(g_table_mu);
  const int h = g_next_handle++;
  g_plans.emplace(h, std::make_shared<PlanState>());
  return h;
}

bool known_type(int t) {
  return t == TRNFFT_R2C || t == TRNFFT_C2R || t == TRNFFT_C2C || t == TRNFFT_D2Z || t == TRNFFT_Z2D || t == TRNFFT_Z2Z;
}
trn::fft::Type to_type(int t) {
  switch (t) {
    case TRNFFT_R2C: return trn::fft::Type::r2c;
    case TRNFFT_C2R: return trn::fft::Type::c2r;
    case TRNFFT_D2Z: return trn::fft::Type::d2z;
    case TRNFFT_Z2D: return trn::fft::Type::z2d;
    case TRNFFT_Z2Z: return trn::fft::Type::z2z;
    default: return trn::fft::Type::c2c;
  }
}

// The arguments of every plan-making entry point, widened to 64 bits, checked in order.
struct ManyArgs {
  int rank = 0;
  std::vector<long long> n, inembed, onembed;
  bool has_in = false, has_out = false;
  long long istride = 1, idist = 0, ostride = 1, odist = 0, batch = 1;
  int type = 0;
};

// Positions (handle not counted): rank 1, n 2, inembed 3, istride 4, idist 5, onembed 6, ostride 7,
// odist 8, type 9, batch 10, workSize 11 (the PlanMany order; Plan1d/2d/3d map onto it by name).
trnfftResult check_many(ArgCheck<trnfftResult>& check, const ManyArgs& a, const int pos[6]) {
  // pos: rank, n, type, batch, inembed, onembed positions (0: not a parameter of this entry).
  check.require_or(a.rank >= 1 && a.rank <= 3, TRNFFT_INVALID_SIZE, "TRNFFT_INVALID_SIZE", "rank must be 1, 2 or 3");
  for (long long v : a.n)
    check.require_or(v >= 1 && v <= trn::fft::kMaxDimension, TRNFFT_INVALID_SIZE, "TRNFFT_INVALID_SIZE",
                     "every size must be in [1, 2^27]");
  check.require_or(known_type(a.type), TRNFFT_INVALID_TYPE, "TRNFFT_INVALID_TYPE", "unknown trnfftType");
  check.require_or(a.batch >= 1, TRNFFT_INVALID_SIZE, "TRNFFT_INVALID_SIZE", "batch must be >= 1");
  if (!check) return check.status();
  const bool r2c = a.type == TRNFFT_R2C || a.type == TRNFFT_D2Z, c2r = a.type == TRNFFT_C2R || a.type == TRNFFT_Z2D;
  const std::size_t d = a.n.size();
  auto logical = [&](bool input, std::size_t i) {
    const long long half = a.n[d - 1] / 2 + 1;
    if (i == d - 1 && ((input && c2r) || (!input && r2c))) return half;
    return a.n[i];
  };
  if (a.has_in) {
    check.require(a.istride >= 1, pos[4] + 1, "istride").require(a.idist >= 0, pos[4] + 2, "idist");
    for (std::size_t i = 1; i < d; ++i) check.require(a.inembed[i] >= logical(true, i), pos[4], "inembed");
  }
  if (a.has_out) {
    check.require(a.ostride >= 1, pos[5] + 1, "ostride").require(a.odist >= 0, pos[5] + 2, "odist");
    for (std::size_t i = 1; i < d; ++i) check.require(a.onembed[i] >= logical(false, i), pos[5], "onembed");
  }
  // Extents must be addressable: span = (batch - 1) * dist + (product of embeds) * stride.
  for (int side = 0; side < 2; ++side) {
    long long span = 1;
    const bool has = side == 0 ? a.has_in : a.has_out;
    const std::vector<long long>& e = side == 0 ? a.inembed : a.onembed;
    for (std::size_t i = 0; i < d && span >= 0; ++i)
      span = trn::cshim::checked_mul(span, has && i > 0 ? e[i] : std::max(logical(side == 0, i), 2 * (a.n[i] / 2 + 1)));
    span = trn::cshim::checked_mul(span, has ? (side == 0 ? a.istride : a.ostride) : 1);
    const long long b = trn::cshim::checked_mul(a.batch, std::max(has ? (side == 0 ? a.idist : a.odist) : 1LL, span));
    check.require_or(span >= 0 && b >= 0 && b <= trn::fft::kMaxSpan, TRNFFT_INVALID_SIZE, "TRNFFT_INVALID_SIZE",
                     "the layout spans more than 2^25 elements");
  }
  long long points = a.batch;
  for (long long v : a.n) points = trn::cshim::checked_mul(points, v);
  check.require_or(points >= 0 && points <= trn::fft::kMaxPoints, TRNFFT_INVALID_SIZE, "TRNFFT_INVALID_SIZE",
                   "batch x the product of the sizes exceeds 2^24 points");
  (void)pos;
  return check.status();
}

trn::fft::PlanSpec to_spec(const ManyArgs& a, trn::fft::Mode mode) {
  trn::fft::PlanSpec s;
  s.n.assign(a.n.begin(), a.n.end());
  s.type = to_type(a.type);
  s.batch = a.batch;
  if (a.has_in) s.in = trn::fft::Layout{std::vector<std::int64_t>(a.inembed.begin(), a.inembed.end()), a.istride, a.idist};
  if (a.has_out) s.out = trn::fft::Layout{std::vector<std::int64_t>(a.onembed.begin(), a.onembed.end()), a.ostride, a.odist};
  s.mode = mode;
  return s;
}

template <class I>
ManyArgs many_args(int rank, const I* n, const I* inembed, I istride, I idist, const I* onembed, I ostride, I odist,
                   int type, I batch) {
  ManyArgs a;
  a.rank = rank;
  if (n != nullptr && rank >= 1 && rank <= 3) a.n.assign(n, n + rank);
  a.has_in = inembed != nullptr && rank >= 1 && rank <= 3;
  a.has_out = onembed != nullptr && rank >= 1 && rank <= 3;
  if (a.has_in) a.inembed.assign(inembed, inembed + rank);
  if (a.has_out) a.onembed.assign(onembed, onembed + rank);
  a.istride = istride;
  a.idist = idist;
  a.ostride = ostride;
  a.odist = odist;
  a.type = type;
  a.batch = batch;
  return a;
}

constexpr int kManyPos[6] = {1, 2, 9, 10, 3, 6};

// Builds the plan for `a` (after the checks) into st, and reports the work size. pos: the argument
// positions of the entry point (check_many); mode and storage: the plan's precision and the element
// type of the user's arrays, committed to st only on success.
trnfftResult make_plan(PlanState& st, const char* fn, const ManyArgs& a, size_t* work_size, int work_pos,
                       const int* pos = kManyPos, std::optional<trn::fft::Mode> mode = std::nullopt,
                       trn::DType storage = trn::DType::f32) {
  ArgCheck<trnfftResult> check(logger(), fn, TRNFFT_INVALID_VALUE, &st.last_error_param);
  check.require_or(a.rank >= 1 && a.rank <= 3, TRNFFT_INVALID_SIZE, "TRNFFT_INVALID_SIZE", "rank must be 1, 2 or 3");
  if (a.n.empty()) check.require(false, pos[1], "n");
  if (!check) return check.status();
  if (check_many(check, a, pos) != TRNFFT_SUCCESS || !check) return check.status();
  (void)work_pos;
  std::unique_ptr<trn::fft::Plan> plan;
  std::size_t ws = 0;
  const trn::fft::Mode m = mode.value_or(st.mode);
  const trnfftResult r = trn::cshim::guarded(logger(), fn, kStatus, [&] {
    trn::fft::PlanSpec spec = to_spec(a, m);
    spec.storage = storage;
    plan = std::make_unique<trn::fft::Plan>(spec, st.settings);
    ws = plan->work_size();
  });
  if (r != TRNFFT_SUCCESS) return r;
  st.mode = m;
  st.plan = std::move(plan);
  st.spec = st.plan->spec();
  if (work_size != nullptr) *work_size = ws;
  return TRNFFT_SUCCESS;
}

// The Xt API's transform type from (inputtype, outputtype, executiontype), as cuFFT pairs them: a
// family's complex type to execute in, its real or complex type on each side; -1 (logged as
// INVALID_TYPE) for any other combination.
// Xt positions: rank 1, n 2, executiontype 13, batch 11, inembed 3, onembed 7 (check_many's order).
constexpr int kXtPos[6] = {1, 2, 13, 11, 3, 7};
struct XtFamily {
  int complex_t, real_t;
  trn::DType storage;
  int c2c, r2c, c2r;
  bool bf16;
};
int xt_type(const char* fn, int in_t, int out_t, int ex_t, const XtFamily** fam_out) {
  static constexpr XtFamily kFamilies[] = {
      {TRN_C_32F, TRN_R_32F, trn::DType::f32, TRNFFT_C2C, TRNFFT_R2C, TRNFFT_C2R, false},
      {TRN_C_64F, TRN_R_64F, trn::DType::f32, TRNFFT_Z2Z, TRNFFT_D2Z, TRNFFT_Z2D, false},
      {TRN_C_16F, TRN_R_16F, trn::DType::f16, TRNFFT_C2C, TRNFFT_R2C, TRNFFT_C2R, false},
      {TRN_C_16BF, TRN_R_16BF, trn::DType::bf16, TRNFFT_C2C, TRNFFT_R2C, TRNFFT_C2R, true},
  };
  int type = -1;
  for (const XtFamily& f : kFamilies) {
    if (ex_t != f.complex_t) continue;
    *fam_out = &f;
    if (in_t == f.complex_t && out_t == f.complex_t) type = f.c2c;
    if (in_t == f.real_t && out_t == f.complex_t) type = f.r2c;
    if (in_t == f.complex_t && out_t == f.real_t) type = f.c2r;
  }
  if (type < 0)
    logger().log(trn::cshim::failure_message(fn, "TRNFFT_INVALID_TYPE",
                                             "no transform for this (inputtype, outputtype, executiontype)"));
  return type;
}

// The work size a plan of these arguments would need (Estimate*, GetSize*, XtGetSizeMany: pos and
// work_pos are the entry point's positions, mode and storage the plan's arithmetic and array type).
trnfftResult estimate(const char* fn, const ManyArgs& a, size_t* work_size, const int* pos = kManyPos,
                      int work_pos = 11, trn::fft::Mode mode = trn::fft::Mode::fp32,
                      trn::DType storage = trn::DType::f32) {
  ArgCheck<trnfftResult> check(logger(), fn, TRNFFT_INVALID_VALUE);
  check.require_or(a.rank >= 1 && a.rank <= 3, TRNFFT_INVALID_SIZE, "TRNFFT_INVALID_SIZE", "rank must be 1, 2 or 3");
  if (a.n.empty()) check.require(false, pos[1], "n");
  if (!check) return check.status();
  if (check_many(check, a, pos) != TRNFFT_SUCCESS || !check) return check.status();
  if (work_size == nullptr) check.require(false, work_pos, "workSize");
  if (!check) return check.status();
  std::size_t ws = 0;
  const trnfftResult r = trn::cshim::guarded(logger(), fn, kStatus, [&] {
    trn::fft::PlanSpec spec = to_spec(a, mode);
    spec.storage = storage;
    ws = trn::fft::Plan(spec).work_size();
  });
  if (r == TRNFFT_SUCCESS) *work_size = ws;
  return r;
}

// Rebuild a made plan after a settings change.
trnfftResult rebuild(PlanState& st, const char* fn) {
  if (!st.plan) return TRNFFT_SUCCESS;
  trn::fft::PlanSpec s = st.spec;
  s.mode = st.mode;
  std::unique_ptr<trn::fft::Plan> plan;
  const trnfftResult r = trn::cshim::guarded(logger(), fn, kStatus,
                                             [&] { plan = std::make_unique<trn::fft::Plan>(s, st.settings); });
  if (r == TRNFFT_SUCCESS) {
    st.plan = std::move(plan);
    st.spec = s;
  }
  return r;
}

// The kit's emulation surface over plan handles: a setting changed after MakePlan rebuilds the
// plan with it (the old settings and plan stay when the rebuild fails).
struct Surface {
  using Handle = trnfftHandle;
  using Status = trnfftResult;
  static constexpr trn::cshim::SurfaceCodes<Status> kCodes{TRNFFT_SUCCESS, TRNFFT_INVALID_PLAN, TRNFFT_INVALID_VALUE};
  static trn::cshim::Logger& logger() { return ::logger(); }
  static const trn::cshim::StatusMap<Status>& status_map() { return kStatus; }
  struct Access {
    PlanState& st;
    const trn::EmulatorSettings& settings() const { return st.settings; }
    trn::cshim::LastError* last_error() const { return &st.last_error_param; }
    trnProfile_t last_profile() const { return trn::cshim::profile_of(st.last_profile); }
    Status apply(const trn::EmulatorSettings& s, const char* fn) const {
      const trn::fft::Settings old = st.settings;
      static_cast<trn::EmulatorSettings&>(st.settings) = s;
      const trnfftResult r = rebuild(st, fn);
      if (r != TRNFFT_SUCCESS) st.settings = old;
      return r;
    }
  };
  template <class F>
  static Status access(Handle h, F&& f) {
    std::shared_ptr<PlanState> st = find_plan(h);
    if (!st) return TRNFFT_INVALID_PLAN;
    std::lock_guard<std::mutex> lock(st->mu);
    Access a{*st};
    return f(a);
  }
};

int c_type(trn::fft::Type t) {
  switch (t) {
    case trn::fft::Type::r2c: return TRNFFT_R2C;
    case trn::fft::Type::c2r: return TRNFFT_C2R;
    case trn::fft::Type::z2z: return TRNFFT_Z2Z;
    case trn::fft::Type::d2z: return TRNFFT_D2Z;
    case trn::fft::Type::z2d: return TRNFFT_Z2D;
    default: return TRNFFT_C2C;
  }
}

// Execute with the checks every Exec* makes: made plan, matching type, data pointers, direction.
trnfftResult exec(trnfftHandle h, const char* fn, int expected_type, const void* in, void* out, int direction,
                  bool has_direction) {
  std::shared_ptr<PlanState> st = find_plan(h);
  if (!st) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(st->mu);
  if (!st->plan) {
    logger().log(trn::cshim::failure_message(fn, "TRNFFT_INVALID_PLAN", "the plan has not been made"));
    return TRNFFT_INVALID_PLAN;
  }
  ArgCheck<trnfftResult> check(logger(), fn, TRNFFT_INVALID_VALUE, &st->last_error_param);
  check.require_or(c_type(st->spec.type) == expected_type, TRNFFT_INVALID_TYPE, "TRNFFT_INVALID_TYPE",
                   "the plan was made for another transform type")
      .not_null(in, 1, "idata")
      .not_null(out, 2, "odata");
  if (has_direction) check.one_of(direction, {TRNFFT_FORWARD, TRNFFT_INVERSE}, 3, "direction");
  if (!check) return check.status();
  trn::fft::ExecReport rep;
  const trnfftResult r =
      trn::cshim::guarded(logger(), fn, kStatus, [&] { st->plan->execute(in, out, direction, &rep); });
  if (r == TRNFFT_SUCCESS) st->last_profile = rep.profile.to_c();
  return r;
}

// MakePlanMany with the transform type as the caller's int (see trnfftMakePlan1d).
trnfftResult make_many(trnfftHandle plan, int rank, int* n, int* inembed, int istride, int idist, int* onembed,
                       int ostride, int odist, int type, int batch, size_t* workSize) {
  trnfftResult hooked = TRNFFT_SUCCESS;
  if (hooked_make_plan(plan, "trnfftMakePlanMany", rank, n, inembed, onembed, type, batch, workSize, &hooked)) return hooked;
  std::shared_ptr<PlanState> st = find_plan(plan);
  if (!st) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(st->mu);
  return make_plan(*st, "trnfftMakePlanMany",
                   many_args<int>(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch), workSize, 11);
}

// One-step plans: create, make, and hand out the handle only on success.
trnfftResult plan_many(trnfftHandle* plan, int rank, int* n, int* inembed, int istride, int idist, int* onembed,
                       int ostride, int odist, int type, int batch) {
  if (plan == nullptr) {
    logger().log(trn::cshim::illegal_value_message("trnfftPlanMany", 0, "plan"));
    return TRNFFT_INVALID_VALUE;
  }
  trnfftHandle h = TRNFFT_PLAN_NULL;
  const trnfftResult c = trnfftCreate(&h);
  if (c != TRNFFT_SUCCESS) return c;
  const trnfftResult r = make_many(h, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, nullptr);
  if (r != TRNFFT_SUCCESS) {
    trnfftDestroy(h);
    return r;
  }
  *plan = h;
  return TRNFFT_SUCCESS;
}

}  // namespace

namespace trn::fft::detail {

bool c_plan_settings(int handle, Settings* settings, Mode* mode) {
  std::shared_ptr<PlanState> st = find_plan(handle);
  if (!st) return false;
  std::lock_guard<std::mutex> lock(st->mu);
  *settings = st->settings;
  *mode = st->mode;
  return true;
}

void set_c_destroy_hook(void (*hook)(int handle)) { g_destroy_hook.store(hook); }
void set_c_make_plan_hook(MakePlanHook hook) { g_make_plan_hook.store(hook); }

}  // namespace trn::fft::detail

extern "C" {

trnfftResult trnfftCreate(trnfftHandle* handle) {
  if (handle == nullptr) {
    logger().log(trn::cshim::illegal_value_message("trnfftCreate", 1, "handle"));
    return TRNFFT_INVALID_VALUE;
  }
  return trn::cshim::guarded(logger(), "trnfftCreate", kStatus, [&] { *handle = new_handle(); });
}

trnfftResult trnfftDestroy(trnfftHandle plan) {
  std::shared_ptr<PlanState> st;
  {
    std::lock_guard<std::mutex> lock(g_table_mu);
    auto it = g_plans.find(plan);
    if (it == g_plans.end()) return TRNFFT_INVALID_PLAN;
    st = it->second;
    g_plans.erase(it);
  }
  std::lock_guard<std::mutex> wait(st->mu);  // an execution in flight finishes first
  if (auto* hook = g_destroy_hook.load()) hook(plan);  // trnfftMp's state beside the handle
  return TRNFFT_SUCCESS;
}

trnfftResult trnfftMakePlanMany64(trnfftHandle plan, int rank, long long int* n, long long int* inembed,
                                  long long int istride, long long int idist, long long int* onembed,
                                  long long int ostride, long long int odist, trnfftType type, long long int batch,
                                  size_t* workSize) {
  trnfftResult hooked = TRNFFT_SUCCESS;
  if (hooked_make_plan(plan, "trnfftMakePlanMany64", rank, n, inembed, onembed, enum_value(type), batch, workSize, &hooked))
    return hooked;
  std::shared_ptr<PlanState> st = find_plan(plan);
  if (!st) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(st->mu);
  return make_plan(*st, "trnfftMakePlanMany64",
                   many_args<long long>(rank, n, inembed, istride, idist, onembed, ostride, odist, enum_value(type), batch),
                   workSize, 11);
}

trnfftResult trnfftMakePlanMany(trnfftHandle plan, int rank, int* n, int* inembed, int istride, int idist, int* onembed,
                                int ostride, int odist, trnfftType type, int batch, size_t* workSize) {
  return make_many(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, enum_value(type), batch, workSize);
}

// The 1d/2d/3d entry points forward the caller's int, never the enum-typed parameter: a C caller
// may pass any int, and copying an out-of-range value through the C++ enum type is undefined.
trnfftResult trnfftMakePlan1d(trnfftHandle plan, int nx, trnfftType type, int batch, size_t* workSize) {
  return make_many(plan, 1, &nx, nullptr, 1, 0, nullptr, 1, 0, enum_value(type), batch, workSize);
}
trnfftResult trnfftMakePlan2d(trnfftHandle plan, int nx, int ny, trnfftType type, size_t* workSize) {
  int n[2] = {nx, ny};
  return make_many(plan, 2, n, nullptr, 1, 0, nullptr, 1, 0, enum_value(type), 1, workSize);
}
trnfftResult trnfftMakePlan3d(trnfftHandle plan, int nx, int ny, int nz, trnfftType type, size_t* workSize) {
  int n[3] = {nx, ny, nz};
  return make_many(plan, 3, n, nullptr, 1, 0, nullptr, 1, 0, enum_value(type), 1, workSize);
}

trnfftResult trnfftPlanMany(trnfftHandle* plan, int rank, int* n, int* inembed, int istride, int idist, int* onembed,
                            int ostride, int odist, trnfftType type, int batch) {
  return plan_many(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, enum_value(type), batch);
}
trnfftResult trnfftPlan1d(trnfftHandle* plan, int nx, trnfftType type, int batch) {
  return plan_many(plan, 1, &nx, nullptr, 1, 0, nullptr, 1, 0, enum_value(type), batch);
}
trnfftResult trnfftPlan2d(trnfftHandle* plan, int nx, int ny, trnfftType type) {
  int n[2] = {nx, ny};
  return plan_many(plan, 2, n, nullptr, 1, 0, nullptr, 1, 0, enum_value(type), 1);
}
trnfftResult trnfftPlan3d(trnfftHandle* plan, int nx, int ny, int nz, trnfftType type) {
  int n[3] = {nx, ny, nz};
  return plan_many(plan, 3, n, nullptr, 1, 0, nullptr, 1, 0, enum_value(type), 1);
}

trnfftResult trnfftEstimateMany(int rank, int* n, int* inembed, int istride, int idist, int* onembed, int ostride,
                                int odist, trnfftType type, int batch, size_t* workSize) {
  return estimate("trnfftEstimateMany",
                  many_args<int>(rank, n, inembed, istride, idist, onembed, ostride, odist, enum_value(type), batch),
                  workSize);
}
trnfftResult trnfftEstimate1d(int nx, trnfftType type, int batch, size_t* workSize) {
  return estimate("trnfftEstimateMany", many_args<int>(1, &nx, nullptr, 1, 0, nullptr, 1, 0, enum_value(type), batch),
                  workSize);
}
trnfftResult trnfftEstimate2d(int nx, int ny, trnfftType type, size_t* workSize) {
  int n[2] = {nx, ny};
  return estimate("trnfftEstimateMany", many_args<int>(2, n, nullptr, 1, 0, nullptr, 1, 0, enum_value(type), 1), workSize);
}
trnfftResult trnfftEstimate3d(int nx, int ny, int nz, trnfftType type, size_t* workSize) {
  int n[3] = {nx, ny, nz};
  return estimate("trnfftEstimateMany", many_args<int>(3, n, nullptr, 1, 0, nullptr, 1, 0, enum_value(type), 1), workSize);
}

trnfftResult trnfftGetSizeMany64(trnfftHandle plan, int rank, long long int* n, long long int* inembed,
                                 long long int istride, long long int idist, long long int* onembed,
                                 long long int ostride, long long int odist, trnfftType type, long long int batch,
                                 size_t* workSize) {
  if (!find_plan(plan)) return TRNFFT_INVALID_PLAN;
  return estimate("trnfftGetSizeMany64",
                  many_args<long long>(rank, n, inembed, istride, idist, onembed, ostride, odist, enum_value(type), batch),
                  workSize);
}
trnfftResult trnfftGetSizeMany(trnfftHandle handle, int rank, int* n, int* inembed, int istride, int idist,
                               int* onembed, int ostride, int odist, trnfftType type, int batch, size_t* workArea) {
  if (!find_plan(handle)) return TRNFFT_INVALID_PLAN;
  return estimate("trnfftEstimateMany",
                  many_args<int>(rank, n, inembed, istride, idist, onembed, ostride, odist, enum_value(type), batch),
                  workArea);
}
trnfftResult trnfftGetSize1d(trnfftHandle handle, int nx, trnfftType type, int batch, size_t* workSize) {
  if (!find_plan(handle)) return TRNFFT_INVALID_PLAN;
  return estimate("trnfftEstimateMany", many_args<int>(1, &nx, nullptr, 1, 0, nullptr, 1, 0, enum_value(type), batch),
                  workSize);
}
trnfftResult trnfftGetSize2d(trnfftHandle handle, int nx, int ny, trnfftType type, size_t* workSize) {
  if (!find_plan(handle)) return TRNFFT_INVALID_PLAN;
  int n[2] = {nx, ny};
  return estimate("trnfftEstimateMany", many_args<int>(2, n, nullptr, 1, 0, nullptr, 1, 0, enum_value(type), 1), workSize);
}
trnfftResult trnfftGetSize3d(trnfftHandle handle, int nx, int ny, int nz, trnfftType type, size_t* workSize) {
  if (!find_plan(handle)) return TRNFFT_INVALID_PLAN;
  int n[3] = {nx, ny, nz};
  return estimate("trnfftEstimateMany", many_args<int>(3, n, nullptr, 1, 0, nullptr, 1, 0, enum_value(type), 1), workSize);
}
trnfftResult trnfftGetSize(trnfftHandle handle, size_t* workSize) {
  std::shared_ptr<PlanState> st = find_plan(handle);
  if (!st) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(st->mu);
  ArgCheck<trnfftResult> check(logger(), "trnfftGetSize", TRNFFT_INVALID_VALUE, &st->last_error_param);
  check.not_null(workSize, 1, "workSize");
  if (!check) return check.status();
  if (!st->plan) return TRNFFT_INVALID_PLAN;
  return trn::cshim::guarded(logger(), "trnfftGetSize", kStatus, [&] { *workSize = st->plan->work_size(); });
}

trnfftResult trnfftSetWorkArea(trnfftHandle plan, void* workArea) {
  std::shared_ptr<PlanState> st = find_plan(plan);
  if (!st) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(st->mu);
  st->work_area = workArea;  // recorded; host scratch is allocated by the library (docs/trnfft.md)
  return TRNFFT_SUCCESS;
}
trnfftResult trnfftSetAutoAllocation(trnfftHandle plan, int autoAllocate) {
  std::shared_ptr<PlanState> st = find_plan(plan);
  if (!st) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(st->mu);
  st->auto_allocate = autoAllocate != 0;
  return TRNFFT_SUCCESS;
}
trnfftResult trnfftSetStream(trnfftHandle plan, trnStream_t stream) {
  std::shared_ptr<PlanState> st = find_plan(plan);
  if (!st) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(st->mu);
  st->stream = stream;
  return TRNFFT_SUCCESS;
}
const char* trnfftGetStatusName(trnfftResult status) {
  switch (enum_value(status)) {  // any int a C caller passes
    case TRNFFT_SUCCESS: return "TRNFFT_SUCCESS";
    case TRNFFT_INVALID_PLAN: return "TRNFFT_INVALID_PLAN";
    case TRNFFT_ALLOC_FAILED: return "TRNFFT_ALLOC_FAILED";
    case TRNFFT_INVALID_TYPE: return "TRNFFT_INVALID_TYPE";
    case TRNFFT_INVALID_VALUE: return "TRNFFT_INVALID_VALUE";
    case TRNFFT_INTERNAL_ERROR: return "TRNFFT_INTERNAL_ERROR";
    case TRNFFT_EXEC_FAILED: return "TRNFFT_EXEC_FAILED";
    case TRNFFT_SETUP_FAILED: return "TRNFFT_SETUP_FAILED";
    case TRNFFT_INVALID_SIZE: return "TRNFFT_INVALID_SIZE";
    case TRNFFT_UNALIGNED_DATA: return "TRNFFT_UNALIGNED_DATA";
    case TRNFFT_INVALID_DEVICE: return "TRNFFT_INVALID_DEVICE";
    case TRNFFT_NO_WORKSPACE: return "TRNFFT_NO_WORKSPACE";
    case TRNFFT_NOT_IMPLEMENTED: return "TRNFFT_NOT_IMPLEMENTED";
    case TRNFFT_NOT_SUPPORTED: return "TRNFFT_NOT_SUPPORTED";
    case TRNFFT_MISSING_DEPENDENCY: return "TRNFFT_MISSING_DEPENDENCY";
    case TRNFFT_NVRTC_FAILURE: return "TRNFFT_NVRTC_FAILURE";
    case TRNFFT_NVJITLINK_FAILURE: return "TRNFFT_NVJITLINK_FAILURE";
    case TRNFFT_NVSHMEM_FAILURE: return "TRNFFT_NVSHMEM_FAILURE";
  }
  return "TRNFFT_UNKNOWN_STATUS";
}

trnfftResult trnfftGetVersion(int* version) {
  if (version == nullptr) {
    logger().log(trn::cshim::illegal_value_message("trnfftGetVersion", 1, "version"));
    return TRNFFT_INVALID_VALUE;
  }
  *version = TRNFFT_VERSION;
  return TRNFFT_SUCCESS;
}

trnfftResult trnfftExecC2C(trnfftHandle plan, trnfftComplex* idata, trnfftComplex* odata, int direction) {
  return exec(plan, "trnfftExecC2C", TRNFFT_C2C, idata, odata, direction, true);
}
trnfftResult trnfftExecR2C(trnfftHandle plan, trnfftReal* idata, trnfftComplex* odata) {
  return exec(plan, "trnfftExecR2C", TRNFFT_R2C, idata, odata, TRNFFT_FORWARD, false);
}
trnfftResult trnfftExecC2R(trnfftHandle plan, trnfftComplex* idata, trnfftReal* odata) {
  return exec(plan, "trnfftExecC2R", TRNFFT_C2R, idata, odata, TRNFFT_INVERSE, false);
}
trnfftResult trnfftExecZ2Z(trnfftHandle plan, trnfftDoubleComplex* idata, trnfftDoubleComplex* odata, int direction) {
  return exec(plan, "trnfftExecZ2Z", TRNFFT_Z2Z, idata, odata, direction, true);
}
trnfftResult trnfftExecD2Z(trnfftHandle plan, trnfftDoubleReal* idata, trnfftDoubleComplex* odata) {
  return exec(plan, "trnfftExecD2Z", TRNFFT_D2Z, idata, odata, TRNFFT_FORWARD, false);
}
trnfftResult trnfftExecZ2D(trnfftHandle plan, trnfftDoubleComplex* idata, trnfftDoubleReal* odata) {
  return exec(plan, "trnfftExecZ2D", TRNFFT_Z2D, idata, odata, TRNFFT_INVERSE, false);
}

trnfftResult trnfftSetPlanPrecision(trnfftHandle plan, trnfftPrecision_t precision) {
  std::shared_ptr<PlanState> st = find_plan(plan);
  if (!st) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(st->mu);
  ArgCheck<trnfftResult> check(logger(), "trnfftSetPlanPrecision", TRNFFT_INVALID_VALUE, &st->last_error_param);
  const int p = enum_value(precision);
  check.one_of(p, {TRNFFT_PRECISION_FP32, TRNFFT_PRECISION_BF16, TRNFFT_PRECISION_BF16X3}, 1, "precision");
  if (!check) return check.status();
  const trn::fft::Mode old = st->mode;
  st->mode = p == TRNFFT_PRECISION_FP32 ? trn::fft::Mode::fp32
             : p == TRNFFT_PRECISION_BF16 ? trn::fft::Mode::bf16
                                          : trn::fft::Mode::bf16x3;
  const trnfftResult r = rebuild(*st, "trnfftSetPlanPrecision");
  if (r != TRNFFT_SUCCESS) st->mode = old;
  return r;
}
trnfftResult trnfftGetPlanPrecision(trnfftHandle plan, trnfftPrecision_t* precision) {
  std::shared_ptr<PlanState> st = find_plan(plan);
  if (!st) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(st->mu);
  ArgCheck<trnfftResult> check(logger(), "trnfftGetPlanPrecision", TRNFFT_INVALID_VALUE, &st->last_error_param);
  check.not_null(precision, 1, "precision");
  if (!check) return check.status();
  *precision = st->mode == trn::fft::Mode::fp32   ? TRNFFT_PRECISION_FP32
               : st->mode == trn::fft::Mode::bf16 ? TRNFFT_PRECISION_BF16
                                                  : TRNFFT_PRECISION_BF16X3;
  return TRNFFT_SUCCESS;
}
// The older names: the enum read as the caller's int here too (no enum-typed load on the way).
trnfftResult trnfftSetPlanTarget(trnfftHandle plan, trnTarget_t target) {
  return trn::cshim::EmulationApi<Surface>::set_target(plan, "trnfftSetPlanTarget", trn::cshim::enum_value(target));
}
trnfftResult trnfftSetPlanNumerics(trnfftHandle plan, trnNumerics_t numerics) {
  return trn::cshim::EmulationApi<Surface>::set_numerics(plan, "trnfftSetPlanNumerics", trn::cshim::enum_value(numerics));
}

trnfftResult trnfftGetPlanDescription(trnfftHandle plan, char* description, size_t size) {
  std::shared_ptr<PlanState> st = find_plan(plan);
  if (!st) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(st->mu);
  ArgCheck<trnfftResult> check(logger(), "trnfftGetPlanDescription", TRNFFT_INVALID_VALUE, &st->last_error_param);
  check.not_null(description, 1, "description").require(size >= 1, 2, "size");
  if (!check) return check.status();
  if (!st->plan) return TRNFFT_INVALID_PLAN;
  std::string text;
  const trnfftResult r =
      trn::cshim::guarded(logger(), "trnfftGetPlanDescription", kStatus, [&] { text = st->plan->print(); });
  if (r != TRNFFT_SUCCESS) return r;
  const std::size_t n = std::min(text.size(), size - 1);
  std::memcpy(description, text.data(), n);
  description[n] = '\0';
  return n == text.size() ? TRNFFT_SUCCESS : TRNFFT_INVALID_VALUE;
}

TRN_CSHIM_EMULATION_ENTRY_POINTS(trnfft, trnfft, Surface)

// Xt API (cufftXt.h): the transform type from (inputtype, outputtype, executiontype), as cuFFT
// pairs them: a family's complex type to execute in, its real or complex type on each side. 16-bit
// families store the user's arrays in f16 / bf16 (DMA passes convert them to and from the fp32
// planes); TRN_C_16BF executes in bf16 tiles, TRN_C_16F in fp32 (exact for f16 inputs; the result
// is rounded once to f16). Positions: rank 1, n 2, inembed 3, istride 4, idist 5, inputtype 6,
// onembed 7, ostride 8, odist 9, outputtype 10, batch 11, workSize 12, executiontype 13.
trnfftResult trnfftXtMakePlanMany(trnfftHandle plan, int rank, long long int* n, long long int* inembed,
                                  long long int istride, long long int idist, trnDataType_t inputtype,
                                  long long int* onembed, long long int ostride, long long int odist,
                                  trnDataType_t outputtype, long long int batch, size_t* workSize,
                                  trnDataType_t executiontype) {
  std::shared_ptr<PlanState> st = find_plan(plan);
  if (!st) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(st->mu);
  const XtFamily* fam = nullptr;
  const int type = xt_type("trnfftXtMakePlanMany", enum_value(inputtype), enum_value(outputtype),
                           enum_value(executiontype), &fam);
  if (type < 0) return TRNFFT_INVALID_TYPE;
  std::optional<trn::fft::Mode> mode;
  if (fam->bf16) mode = trn::fft::Mode::bf16;
  return make_plan(*st, "trnfftXtMakePlanMany",
                   many_args<long long>(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch), workSize,
                   12, kXtPos, mode, fam->storage);
}

// Executes a plan of any type with the user's arrays in the plan's storage type; the direction is
// checked for complex-to-complex plans only (R2C is forward, C2R inverse).
trnfftResult trnfftXtExec(trnfftHandle plan, void* input, void* output, int direction) {
  std::shared_ptr<PlanState> st = find_plan(plan);
  if (!st) return TRNFFT_INVALID_PLAN;
  int type = TRNFFT_C2C;
  {
    std::lock_guard<std::mutex> lock(st->mu);
    if (st->plan) type = c_type(st->spec.type);
  }
  return exec(plan, "trnfftXtExec", type, input, output, direction, type == TRNFFT_C2C || type == TRNFFT_Z2Z);
}

// ---- GetProperty, plan properties, the Xt work-area calls and XtGetSizeMany ------------------------

trnfftResult trnfftGetProperty(libraryPropertyType type, int* value) {
  const int t = enum_value(type);
  ArgCheck<trnfftResult> check(logger(), "trnfftGetProperty", TRNFFT_INVALID_VALUE);
  check.one_of(t, {MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL}, 1, "type").not_null(value, 2, "value");
  if (!check) return check.status();
  *value = t == MAJOR_VERSION ? TRNFFT_VER_MAJOR : t == MINOR_VERSION ? TRNFFT_VER_MINOR : TRNFFT_VER_PATCH;
  return TRNFFT_SUCCESS;
}

}  // extern "C"

namespace {
// The stored value of a plan property (nullptr: not a property); under the plan's lock.
long long* property_slot(PlanState& st, int property) {
  if (property == NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT) return &st.patient_jit;
  if (property == NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS) return &st.max_host_threads;
  return nullptr;
}
// Runs op on a live plan's property slot after the checks common to the three property calls. The
// property arrives as the caller's int (enum_value at the entry point: C may pass any int, and
// copying an out-of-range enum is an invalid load).
template <class Op>
trnfftResult with_property(trnfftHandle plan, const char* fn, int p, Op&& op) {
  std::shared_ptr<PlanState> st = find_plan(plan);
  if (!st) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(st->mu);
  ArgCheck<trnfftResult> check(logger(), fn, TRNFFT_INVALID_VALUE, &st->last_error_param);
  long long* slot = property_slot(*st, p);
  check.require(slot != nullptr, 1, "property");
  if (!check) return check.status();
  return op(check, p, slot);
}
}  // namespace

extern "C" {

trnfftResult trnfftSetPlanPropertyInt64(trnfftHandle plan, trnfftProperty property, const long long int inputValueInt) {
  return with_property(plan, "trnfftSetPlanPropertyInt64", enum_value(property), [&](auto& check, int p, long long* slot) {
    const bool ok = p == NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT ? (inputValueInt == 0 || inputValueInt == 1)
                                                               : inputValueInt >= 1;
    check.require(ok, 2, "inputValueInt");
    if (!check) return check.status();
    *slot = inputValueInt;
    return TRNFFT_SUCCESS;
  });
}
trnfftResult trnfftGetPlanPropertyInt64(trnfftHandle plan, trnfftProperty property, long long int* returnPtrValue) {
  return with_property(plan, "trnfftGetPlanPropertyInt64", enum_value(property), [&](auto& check, int, long long* slot) {
    check.not_null(returnPtrValue, 2, "returnPtrValue");
    if (!check) return check.status();
    *returnPtrValue = *slot;
    return TRNFFT_SUCCESS;
  });
}
trnfftResult trnfftResetPlanProperty(trnfftHandle plan, trnfftProperty property) {
  return with_property(plan, "trnfftResetPlanProperty", enum_value(property), [&](auto&, int, long long* slot) {
    *slot = 0;
    return TRNFFT_SUCCESS;
  });
}

trnfftResult trnfftXtSetWorkArea(trnfftHandle plan, void** workArea) {
  std::shared_ptr<PlanState> st = find_plan(plan);
  if (!st) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(st->mu);
  ArgCheck<trnfftResult> check(logger(), "trnfftXtSetWorkArea", TRNFFT_INVALID_VALUE, &st->last_error_param);
  check.not_null(workArea, 1, "workArea");
  if (!check) return check.status();
  st->work_area = workArea[0];  // one device: its work area, recorded as trnfftSetWorkArea records it
  return TRNFFT_SUCCESS;
}

trnfftResult trnfftXtSetWorkAreaPolicy(trnfftHandle plan, trnfftXtWorkAreaPolicy policy, size_t* workSize) {
  std::shared_ptr<PlanState> st = find_plan(plan);
  if (!st) return TRNFFT_INVALID_PLAN;
  std::lock_guard<std::mutex> lock(st->mu);
  ArgCheck<trnfftResult> check(logger(), "trnfftXtSetWorkAreaPolicy", TRNFFT_INVALID_VALUE, &st->last_error_param);
  const int p = enum_value(policy);
  check.one_of(p, {TRNFFT_WORKAREA_MINIMAL, TRNFFT_WORKAREA_USER, TRNFFT_WORKAREA_PERFORMANCE}, 1, "policy");
  if (p == TRNFFT_WORKAREA_USER) check.not_null(workSize, 2, "workSize");
  if (!check) return check.status();
  st->work_area_policy = p;
  st->work_area_limit = p == TRNFFT_WORKAREA_USER ? *workSize : 0;
  return TRNFFT_SUCCESS;
}

trnfftResult trnfftXtGetSizeMany(trnfftHandle plan, int rank, long long int* n, long long int* inembed,
                                 long long int istride, long long int idist, trnDataType_t inputtype,
                                 long long int* onembed, long long int ostride, long long int odist,
                                 trnDataType_t outputtype, long long int batch, size_t* workSize,
                                 trnDataType_t executiontype) {
  std::shared_ptr<PlanState> st = find_plan(plan);
  if (!st) return TRNFFT_INVALID_PLAN;
  trn::fft::Mode mode = trn::fft::Mode::fp32;
  {
    std::lock_guard<std::mutex> lock(st->mu);
    mode = st->mode;  // the precision XtMakePlanMany would use
  }
  const XtFamily* fam = nullptr;
  const int type = xt_type("trnfftXtGetSizeMany", enum_value(inputtype), enum_value(outputtype),
                           enum_value(executiontype), &fam);
  if (type < 0) return TRNFFT_INVALID_TYPE;
  return estimate("trnfftXtGetSizeMany",
                  many_args<long long>(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch),
                  workSize, kXtPos, 12, fam->bf16 ? trn::fft::Mode::bf16 : mode, fam->storage);
}

}  // extern "C"
