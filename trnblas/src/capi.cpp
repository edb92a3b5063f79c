// trnblas.h: the C shim. Validates every argument in cuBLAS/XERBLA order (logging the 1-based
// parameter position), maps enums to the C++ API, runs it, catches everything and returns a
// status. Nothing is written when a call fails validation.
#include "trnblas.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "capi_internal.hpp"
#include "deferred_profile.hpp"
#include "trn/blas/blas.hpp"
#include "trn/blas/level3.hpp"
#include "trn/blas/modes.hpp"
#include "trn/core/c_shim.hpp"
#include "trn/core/trace_recycle.hpp"

using trn::blas::GemmMode;
using trn::blas::Op;

namespace {

using trn::cshim::enum_value;

trn::cshim::HandleRegistry<trnblasContext> g_handles;
trn::cshim::Logger g_log{"TRNBLAS"};  // TRNBLAS_LOGINFO_DBG / TRNBLAS_LOGDEST_DBG, as cuBLAS's CUBLAS_*

bool valid(trnblasHandle_t h) { return g_handles.contains(h); }

// cuBLAS's status for each failure class of a compute body (trn::UsageError and limit violations
// are the emulated kernel refusing its launch: EXECUTION_FAILED).
constexpr trn::cshim::StatusMap<trnblasStatus_t> kStatusMap{
    TRNBLAS_STATUS_SUCCESS,          TRNBLAS_STATUS_ALLOC_FAILED,     TRNBLAS_STATUS_NOT_SUPPORTED,
    TRNBLAS_STATUS_EXECUTION_FAILED, TRNBLAS_STATUS_EXECUTION_FAILED, TRNBLAS_STATUS_INTERNAL_ERROR,
    trnblasGetStatusName};

using ArgCheck = trn::cshim::ArgCheck<trnblasStatus_t>;
ArgCheck arg_check(trnblasHandle_t h, const char* fn) {
  return ArgCheck(g_log, fn, TRNBLAS_STATUS_INVALID_VALUE, h != nullptr ? &h->last_error_param : nullptr);
}

// trnDataType_t value (as the caller's int) -> DType; false for 64F and unknown values.
bool dtype_from_bits(int bits, trn::DType* out) {
  for (int i = 0; i < trn::kDTypeCount; ++i) {
    const auto t = static_cast<trn::DType>(i);
    if (static_cast<int>(trn::dtype_to_c(t)) == bits) {
      *out = t;
      return true;
    }
  }
  return false;
}

// Reports an illegal argument found outside an ArgCheck chain (same message and bookkeeping).
trnblasStatus_t invalid(trnblasHandle_t h, const char* fn, int position, const char* name) {
  return arg_check(h, fn).require(false, position, name).status();
}

trnblasStatus_t fail(trnblasHandle_t h, const char* fn, trnblasStatus_t st, const std::string& why) {
  if (h != nullptr) h->last_error_param = 0;
  return trn::cshim::fail(g_log, kStatusMap, fn, st, why);
}

// Runs a compute body, mapping exceptions to statuses.
template <class F>
trnblasStatus_t guarded(trnblasHandle_t h, const char* fn, F&& body) {
  h->last_error_param = 0;
  return trn::cshim::guarded(g_log, fn, kStatusMap, std::forward<F>(body));
}

void store_report(trnblasHandle_t h, trn::blas::CallReport& r) {
  if (const auto& d = trn::blas::detail::deferred_profile(); d.report == &r && d.deferred)
    h->last_profile.store_unmodeled(std::move(r.trace), d.settings);
  else
    h->last_profile.store(r.profile.to_c());
  if (h->bits_used != nullptr) *h->bits_used = r.ozaki_mantissa_bits;
  // The fp64 emulation hit its work cap: the call completed with the clamped count (ozaki.hpp, Limits).
  if (r.ozaki_capped) g_log.log("trnblas fp64 emulation: " + r.ozaki_cap_note);
}

trn::blas::Settings settings_for(trnblasHandle_t h) {
  trn::blas::Settings s = h->settings;
  s.ozaki_fixed = h->mantissa_control == TRNBLAS_EMULATION_MANTISSA_CONTROL_FIXED;
  s.ozaki_max_mantissa_bits = h->max_mantissa_bits;
  s.ozaki_mantissa_bit_offset = h->mantissa_offset;
  s.ozaki_scheme = h->scheme == TRNBLAS_EMULATION_SCHEME_OZAKI_I ? trn::blas::OzakiScheme::slices
                                                                  : trn::blas::OzakiScheme::crt;
  s.ozaki_special_values = (h->special & (TRNBLAS_EMULATION_SPECIAL_VALUES_SUPPORT_INFINITY |
                                          TRNBLAS_EMULATION_SPECIAL_VALUES_SUPPORT_NAN)) != 0;
  // EAGER emulates whenever it can (cuBLAS's meaning): no small-size Dot2 on GpSimdE (ozaki.hpp).
  s.dgemm_dot2_max_macs = h->strategy == TRNBLAS_EMULATION_STRATEGY_EAGER ? 0 : trn::blas::kDot2MaxMacs;
  return s;
}

// Mode of an fp32 GEMM under the handle's math mode: TF32_TENSOR_OP -> tf32; FP32_EMULATED_BF16X9
// -> bf16x9 when the strategy is EAGER (PERFORMANT/DEFAULT emulate only when it is cheaper, and
// 9 bf16 passes cost more TensorE time than the 4 passes of native fp32).
GemmMode fp32_mode(trnblasHandle_t h, bool pedantic) {
  if (pedantic || (h->math & 0xf) == TRNBLAS_PEDANTIC_MATH) return GemmMode::fp32;
  if ((h->math & 0xf) == TRNBLAS_TF32_TENSOR_OP_MATH) return GemmMode::tf32;
  if ((h->math & 0xf) == TRNBLAS_FP32_EMULATED_BF16X9_MATH && h->strategy == TRNBLAS_EMULATION_STRATEGY_EAGER)
    return GemmMode::bf16x9;
  return GemmMode::fp32;
}

// Handle settings: a setter checks the caller's value (enums as the caller's int) before storing it.
template <class T, class Check>
trnblasStatus_t set_field(trnblasHandle_t h, const char* fn, T trnblasContext::*field, const T& value, Check ok) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  int bits = 0;
  if constexpr (std::is_enum_v<T>) bits = enum_value(value);
  else if constexpr (std::is_integral_v<T>) bits = static_cast<int>(value);
  if (!ok(bits)) return invalid(h, fn, 1, "value");
  if constexpr (std::is_enum_v<T>) h->*field = static_cast<T>(bits);
  else h->*field = value;
  return TRNBLAS_STATUS_SUCCESS;
}
template <class T>
trnblasStatus_t get_field(trnblasHandle_t h, const char* fn, T trnblasContext::*field, T* out) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  if (out == nullptr) return invalid(h, fn, 1, "value");
  *out = h->*field;
  return TRNBLAS_STATUS_SUCCESS;
}
constexpr auto kAny = [](int) { return true; };

// The largest mantissa bit count the fixed-point emulation accepts: every fp64 value of a row or
// column, relative to the largest of them, is represented exactly with 2^1023 / 2^-1074 spanning
// 1023 + 1074 + 53 = 2150 bits. (cuBLAS documents no bound; more bits can only cost passes.)
constexpr int kMaxMantissaBits = 2150;

// The kit's emulation surface (SetTarget ... GetLastErrorParameter, the logger family) over trnblas handles.
constexpr trn::cshim::SurfaceCodes<trnblasStatus_t> kSurfaceCodes{TRNBLAS_STATUS_SUCCESS, TRNBLAS_STATUS_NOT_INITIALIZED,
                                                     TRNBLAS_STATUS_INVALID_VALUE};
using Surface =
    trn::cshim::ContextBinding<trnblasContext, trnblasStatus_t, &g_handles, &g_log, &kStatusMap, &kSurfaceCodes>;

}  // namespace

// The shared pieces of capi_internal.hpp (used by capi_level3.cpp).
extern "C" {

trnblasStatus_t trnblasCreate(trnblasHandle_t* handle) {
  return Surface::create(handle, [](trnblasContext& h) {
    // Mirrors CUBLAS_EMULATION_STRATEGY.
    if (const char* e = std::getenv("TRNBLAS_EMULATION_STRATEGY")) {
      const std::string v = e;
      if (v == "eager") h.strategy = TRNBLAS_EMULATION_STRATEGY_EAGER;
      else if (v == "performant") h.strategy = TRNBLAS_EMULATION_STRATEGY_PERFORMANT;
    }
    if (const char* e = std::getenv("TRNBLAS_EMULATION_SCHEME")) {  // trnsci extension
      const std::string v = e;
      if (v == "ozaki1") h.scheme = TRNBLAS_EMULATION_SCHEME_OZAKI_I;
      else if (v == "ozaki2") h.scheme = TRNBLAS_EMULATION_SCHEME_OZAKI_II;
    }
    trnProfile_t none{};
    none.target = TRN_TARGET_TRN1;
    h.last_profile.store(none);
  });
}

trnblasStatus_t trnblasDestroy(trnblasHandle_t handle) { return Surface::destroy(handle); }

trnblasStatus_t trnblasGetVersion(trnblasHandle_t handle, int* version) {
  return Surface::get(handle, "trnblasGetVersion", version, "version", [](const trnblasContext&) { return TRNBLAS_VERSION; });
}

const char* trnblasGetStatusName(trnblasStatus_t s) {
  switch (s) {
    case TRNBLAS_STATUS_SUCCESS: return "TRNBLAS_STATUS_SUCCESS";
    case TRNBLAS_STATUS_NOT_INITIALIZED: return "TRNBLAS_STATUS_NOT_INITIALIZED";
    case TRNBLAS_STATUS_ALLOC_FAILED: return "TRNBLAS_STATUS_ALLOC_FAILED";
    case TRNBLAS_STATUS_INVALID_VALUE: return "TRNBLAS_STATUS_INVALID_VALUE";
    case TRNBLAS_STATUS_ARCH_MISMATCH: return "TRNBLAS_STATUS_ARCH_MISMATCH";
    case TRNBLAS_STATUS_MAPPING_ERROR: return "TRNBLAS_STATUS_MAPPING_ERROR";
    case TRNBLAS_STATUS_EXECUTION_FAILED: return "TRNBLAS_STATUS_EXECUTION_FAILED";
    case TRNBLAS_STATUS_INTERNAL_ERROR: return "TRNBLAS_STATUS_INTERNAL_ERROR";
    case TRNBLAS_STATUS_NOT_SUPPORTED: return "TRNBLAS_STATUS_NOT_SUPPORTED";
    case TRNBLAS_STATUS_LICENSE_ERROR: return "TRNBLAS_STATUS_LICENSE_ERROR";
  }
  return "<unknown>";
}

const char* trnblasGetStatusString(trnblasStatus_t s) {
  switch (s) {
    case TRNBLAS_STATUS_SUCCESS: return "success";
    case TRNBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized (null or destroyed handle)";
    case TRNBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case TRNBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case TRNBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
    case TRNBLAS_STATUS_MAPPING_ERROR: return "an access to memory space failed";
    case TRNBLAS_STATUS_EXECUTION_FAILED: return "the emulated kernel failed to execute";
    case TRNBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case TRNBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
    case TRNBLAS_STATUS_LICENSE_ERROR: return "error detected trying to check the license";
  }
  return "unknown status";
}

trnblasStatus_t trnblasSetStream(trnblasHandle_t h, trnStream_t v) {
  return set_field<trnStream_t>(h, "trnblasSetStream", &trnblasContext::stream, v, kAny);
}
trnblasStatus_t trnblasGetStream(trnblasHandle_t h, trnStream_t* v) {
  return get_field<trnStream_t>(h, "trnblasGetStream", &trnblasContext::stream, v);
}
trnblasStatus_t trnblasSetPointerMode(trnblasHandle_t h, trnblasPointerMode_t v) {
  return set_field<trnblasPointerMode_t>(h, "trnblasSetPointerMode", &trnblasContext::pointer_mode, v, [](int v) { return v == TRNBLAS_POINTER_MODE_HOST || v == TRNBLAS_POINTER_MODE_DEVICE; });
}
trnblasStatus_t trnblasGetPointerMode(trnblasHandle_t h, trnblasPointerMode_t* v) {
  return get_field<trnblasPointerMode_t>(h, "trnblasGetPointerMode", &trnblasContext::pointer_mode, v);
}
trnblasStatus_t trnblasSetAtomicsMode(trnblasHandle_t h, trnblasAtomicsMode_t v) {
  return set_field<trnblasAtomicsMode_t>(h, "trnblasSetAtomicsMode", &trnblasContext::atomics, v, [](int v) { return v == TRNBLAS_ATOMICS_NOT_ALLOWED || v == TRNBLAS_ATOMICS_ALLOWED; });
}
trnblasStatus_t trnblasGetAtomicsMode(trnblasHandle_t h, trnblasAtomicsMode_t* v) {
  return get_field<trnblasAtomicsMode_t>(h, "trnblasGetAtomicsMode", &trnblasContext::atomics, v);
}
trnblasStatus_t trnblasSetMathMode(trnblasHandle_t h, trnblasMath_t v) {
  return set_field<trnblasMath_t>(h, "trnblasSetMathMode", &trnblasContext::math, v, [](int v) {
    return ((v & 0xf) <= TRNBLAS_FP32_EMULATED_BF16X9_MATH || (v & 0xf) == TRNBLAS_FP64_EMULATED_FIXEDPOINT_MATH) && (v & ~0x1f) == 0;
  });
}
trnblasStatus_t trnblasGetMathMode(trnblasHandle_t h, trnblasMath_t* v) {
  return get_field<trnblasMath_t>(h, "trnblasGetMathMode", &trnblasContext::math, v);
}
trnblasStatus_t trnblasSetEmulationStrategy(trnblasHandle_t h, trnblasEmulationStrategy_t v) {
  return set_field<trnblasEmulationStrategy_t>(h, "trnblasSetEmulationStrategy", &trnblasContext::strategy, v, [](int v) { return v >= TRNBLAS_EMULATION_STRATEGY_DEFAULT && v <= TRNBLAS_EMULATION_STRATEGY_EAGER; });
}
trnblasStatus_t trnblasGetEmulationStrategy(trnblasHandle_t h, trnblasEmulationStrategy_t* v) {
  return get_field<trnblasEmulationStrategy_t>(h, "trnblasGetEmulationStrategy", &trnblasContext::strategy, v);
}
trnblasStatus_t trnblasSetEmulationSpecialValuesSupport(trnblasHandle_t h, trnblasEmulationSpecialValuesSupport_t v) {
  return set_field<trnblasEmulationSpecialValuesSupport_t>(h, "trnblasSetEmulationSpecialValuesSupport", &trnblasContext::special, v, [](int v) { return (v & ~0xFFFF) == 0; });
}
trnblasStatus_t trnblasGetEmulationSpecialValuesSupport(trnblasHandle_t h, trnblasEmulationSpecialValuesSupport_t* v) {
  return get_field<trnblasEmulationSpecialValuesSupport_t>(h, "trnblasGetEmulationSpecialValuesSupport", &trnblasContext::special, v);
}
trnblasStatus_t trnblasSetFixedPointEmulationMantissaControl(trnblasHandle_t h, trnblasEmulationMantissaControl_t v) {
  return set_field<trnblasEmulationMantissaControl_t>(h, "trnblasSetFixedPointEmulationMantissaControl", &trnblasContext::mantissa_control, v, [](int v) {
    return v == TRNBLAS_EMULATION_MANTISSA_CONTROL_DYNAMIC || v == TRNBLAS_EMULATION_MANTISSA_CONTROL_FIXED;
  });
}
trnblasStatus_t trnblasGetFixedPointEmulationMantissaControl(trnblasHandle_t h, trnblasEmulationMantissaControl_t* v) {
  return get_field<trnblasEmulationMantissaControl_t>(h, "trnblasGetFixedPointEmulationMantissaControl", &trnblasContext::mantissa_control, v);
}
trnblasStatus_t trnblasSetFixedPointEmulationMaxMantissaBitCount(trnblasHandle_t h, int v) {
  return set_field<int>(h, "trnblasSetFixedPointEmulationMaxMantissaBitCount", &trnblasContext::max_mantissa_bits, v, [](int v) { return v >= 0 && v <= kMaxMantissaBits; });
}
trnblasStatus_t trnblasGetFixedPointEmulationMaxMantissaBitCount(trnblasHandle_t h, int* v) {
  return get_field<int>(h, "trnblasGetFixedPointEmulationMaxMantissaBitCount", &trnblasContext::max_mantissa_bits, v);
}
trnblasStatus_t trnblasSetFixedPointEmulationMantissaBitOffset(trnblasHandle_t h, int v) {
  return set_field<int>(h, "trnblasSetFixedPointEmulationMantissaBitOffset", &trnblasContext::mantissa_offset, v, [](int v) { return v <= 0 && v > -1024; });
}
trnblasStatus_t trnblasGetFixedPointEmulationMantissaBitOffset(trnblasHandle_t h, int* v) {
  return get_field<int>(h, "trnblasGetFixedPointEmulationMantissaBitOffset", &trnblasContext::mantissa_offset, v);
}
trnblasStatus_t trnblasSetFixedPointEmulationScheme(trnblasHandle_t h, trnblasEmulationScheme_t v) {
  return set_field<trnblasEmulationScheme_t>(h, "trnblasSetFixedPointEmulationScheme", &trnblasContext::scheme, v, [](int v) {
    return v == TRNBLAS_EMULATION_SCHEME_OZAKI_II || v == TRNBLAS_EMULATION_SCHEME_OZAKI_I;
  });
}
trnblasStatus_t trnblasGetFixedPointEmulationScheme(trnblasHandle_t h, trnblasEmulationScheme_t* v) {
  return get_field<trnblasEmulationScheme_t>(h, "trnblasGetFixedPointEmulationScheme", &trnblasContext::scheme, v);
}
trnblasStatus_t trnblasSetFixedPointEmulationMantissaBitCountPointer(trnblasHandle_t h, int* v) {
  return set_field<int*>(h, "trnblasSetFixedPointEmulationMantissaBitCountPointer", &trnblasContext::bits_used, v, kAny);
}
trnblasStatus_t trnblasGetFixedPointEmulationMantissaBitCountPointer(trnblasHandle_t h, int** v) {
  return get_field<int*>(h, "trnblasGetFixedPointEmulationMantissaBitCountPointer", &trnblasContext::bits_used, v);
}

TRN_CSHIM_EMULATION_ENTRY_POINTS(trnblas, trnblas, Surface)

trnblasStatus_t trnblasSetWorkspace(trnblasHandle_t h, void* workspace, size_t bytes) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  if (workspace == nullptr && bytes != 0) return invalid(h, "trnblasSetWorkspace", 1, "workspace");
  h->workspace = workspace;  // accepted and stored: kernels keep their working set in SBUF/PSUM
  h->workspace_bytes = bytes;
  return TRNBLAS_STATUS_SUCCESS;
}


}  // extern "C"

// ---- shared with the Level 1, 2 and 3 shims (capi_internal.hpp) ----
namespace blas_capi {
bool valid_handle(trnblasHandle_t h) { return valid(h); }
trn::cshim::ArgCheck<trnblasStatus_t> arg_check(trnblasHandle_t h, const char* fn) { return ::arg_check(h, fn); }
trnblasStatus_t run(trnblasHandle_t h, const char* fn, const std::function<void(const Settings&, CallReport*)>& body) {
  trn::blas::CallReport report;
  report.plans_wanted = false;  // the C API keeps the profile only (store_report): no plan text built
  const ProfileOnlyCall profile_only(report);
  const trnblasStatus_t st = ::guarded(h, fn, [&] { body(settings_for(h), &report); });
  if (st == TRNBLAS_STATUS_SUCCESS) ::store_report(h, report);
  trn::recycle_trace(std::move(report.trace));  // the next small call's launch records into it
  return st;
}
trn::blas::GemmMode fp32_mode(trnblasHandle_t h, bool pedantic) { return ::fp32_mode(h, pedantic); }
// A (rows x cols, ld) operand spans an extent whose byte offsets (8-byte elements at most) fit in int64.
bool addressable(std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  const std::int64_t e = trn::cshim::checked_extent(rows, cols, ld);
  return e >= 0 && trn::cshim::checked_mul(e, 8) >= 0;
}

// The leading dimension the kernels see: a single column is never strided, so its ld (any legal
// value, up to INT64_MAX) is replaced by the column height and no address computation sees it.
std::int64_t kernel_ld(std::int64_t ld, std::int64_t rows, std::int64_t cols) {
  return cols <= 1 ? std::max<std::int64_t>(1, rows) : ld;
}

bool dtype_from_bits(int bits, trn::DType* out) { return ::dtype_from_bits(bits, out); }
trnblasStatus_t invalid(trnblasHandle_t h, const char* fn, int position, const char* name) {
  return ::invalid(h, fn, position, name);
}
trnblasStatus_t fail(trnblasHandle_t h, const char* fn, trnblasStatus_t st, const std::string& why) {
  return ::fail(h, fn, st, why);
}
trnblasStatus_t guarded(trnblasHandle_t h, const char* fn, const std::function<void()>& body) {
  return ::guarded(h, fn, body);
}
void store_report(trnblasHandle_t h, trn::blas::CallReport& r) { ::store_report(h, r); }

ProfileOnlyCall::ProfileOnlyCall(CallReport& r) {
  trn::blas::detail::DeferredProfile& d = trn::blas::detail::deferred_profile();
  d.report = &r;
  d.deferred = false;
  d.fresh = true;  // the caller constructed it just now (setting plans_wanted only)
}
ProfileOnlyCall::~ProfileOnlyCall() {
  trn::blas::detail::DeferredProfile& d = trn::blas::detail::deferred_profile();
  d.report = nullptr;
  d.deferred = false;
  d.fresh = false;
}

void LastProfile::store(const trnProfile_t& p) {
  std::lock_guard<std::mutex> lock(mu_);
  value_ = p;
  pending_ = false;
  trace_.clear();  // its buffer stays for the next short call's trace
}
void LastProfile::store_unmodeled(trn::Trace&& trace, const trn::ReportSettings& rs) {
  std::lock_guard<std::mutex> lock(mu_);
  trace_ = std::move(trace);  // the previous trace's buffer goes to this thread's warm pool (trace.hpp)
  settings_ = rs;
  pending_ = true;
}
trnProfile_t LastProfile::load() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (pending_) {
    // What CallReport::finish would have stored (finish_report under these settings, no timeline),
    // as store_report converts it.
    value_ = trn::model_trace(trace_, settings_).to_c();
    pending_ = false;
  }
  return value_;
}
trn::blas::Settings settings_for(trnblasHandle_t h) { return ::settings_for(h); }
}  // namespace blas_capi
