// Internal (not installed): what the C entry points outside capi.cpp share with it — the handle
// registry, the logger-backed argument checks, the guarded compute body and the handle's settings.
// Defined in capi.cpp, where the handle type lives; used by the Level 1, 2 and 3 shims.
#pragma once
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

#include "trn/blas/blas.hpp"
#include "trn/core/c_shim.hpp"
#include "trn/core/report.hpp"
#include "trnblas.h"

namespace blas_capi {
// The profile a handle keeps of its last call (GetLastProfile), in place of the kit's
// LastCall<trnProfile_t>: either a modeled profile, or a short call's trace with the ReportSettings
// its schedule waits for (trnblas/src/deferred_profile.hpp), scheduled on the first load. Locked:
// one handle may serve several threads (cuBLAS's rule), each call storing into it as it finishes.
class LastProfile {
 public:
  void store(const trnProfile_t& p);
  void store_unmodeled(trn::Trace&& trace, const trn::ReportSettings& rs);
  trnProfile_t load() const;  // may throw (the schedule's allocations): the kit's getter runs it guarded

 private:
  mutable std::mutex mu_;
  mutable trnProfile_t value_{};
  mutable trn::Trace trace_;  // waiting for its schedule when pending_
  trn::ReportSettings settings_{};
  mutable bool pending_ = false;
};
// The kit's getter (trn::cshim::ContextBinding::Access::last_profile) reads it through this overload.
inline trnProfile_t profile_of(const LastProfile& p) { return p.load(); }
}  // namespace blas_capi

// A trnblas handle: the emulator settings, cuBLAS's modes and the emulation knobs, the last call.
struct trnblasContext {
  trn::blas::Settings settings;
  trnStream_t stream = nullptr;
  trnblasPointerMode_t pointer_mode = TRNBLAS_POINTER_MODE_HOST;
  trnblasAtomicsMode_t atomics = TRNBLAS_ATOMICS_NOT_ALLOWED;
  trnblasMath_t math = TRNBLAS_DEFAULT_MATH;
  void* workspace = nullptr;
  size_t workspace_bytes = 0;
  trnblasEmulationStrategy_t strategy = TRNBLAS_EMULATION_STRATEGY_DEFAULT;
  trnblasEmulationSpecialValuesSupport_t special = TRNBLAS_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT;
  trnblasEmulationMantissaControl_t mantissa_control = TRNBLAS_EMULATION_MANTISSA_CONTROL_DYNAMIC;
  int max_mantissa_bits = 0;
  int mantissa_offset = 0;
  trnblasEmulationScheme_t scheme = TRNBLAS_EMULATION_SCHEME_OZAKI_II;
  int* bits_used = nullptr;
  blas_capi::LastProfile last_profile;  // one handle may serve several threads (cuBLAS's rule)
  trn::cshim::LastError last_error_param{0};
};

// Not in namespace trn: the library's version script exports trn::* and this is internal.
namespace blas_capi {

using trn::blas::CallReport;
using trn::blas::Settings;

// A call's traces, added up (loops over the C++ API: batched calls, one kernel per column), then
// stored as the call's profile.
struct Accumulate {
  trn::Trace trace;
  void add(const CallReport& r) { trace.append(r.trace); }
  void store(const Settings& s, CallReport* r) { r->finish(s, std::move(trace)); }
};

bool valid_handle(trnblasHandle_t h);
// An argument-check chain logging under fn and recording the failing position on h.
trn::cshim::ArgCheck<trnblasStatus_t> arg_check(trnblasHandle_t h, const char* fn);
// Runs body with the handle's settings, maps exceptions to statuses, stores the call's profile on success.
trnblasStatus_t run(trnblasHandle_t h, const char* fn, const std::function<void(const Settings&, CallReport*)>& body);
// The mode of an fp32 product under h's math mode (Level 3); pedantic: COMPUTE_32F_PEDANTIC.
trn::blas::GemmMode fp32_mode(trnblasHandle_t h, bool pedantic = false);
// trnDataType_t value (as the caller's int) -> DType; false for 64F and unknown values.
bool dtype_from_bits(int bits, trn::DType* out);
// An illegal argument found outside an ArgCheck chain (same message and bookkeeping).
trnblasStatus_t invalid(trnblasHandle_t h, const char* fn, int position, const char* name);
// A failure with a status other than INVALID_VALUE, logged with its reason.
trnblasStatus_t fail(trnblasHandle_t h, const char* fn, trnblasStatus_t st, const std::string& why);
// Runs a compute body, mapping exceptions to statuses.
trnblasStatus_t guarded(trnblasHandle_t h, const char* fn, const std::function<void()>& body);
// Stores a successful call's report on h (profile, Ozaki bits used, cap note). The report registered
// by the running ProfileOnlyCall whose trace waits for its schedule hands that trace to the handle.
void store_report(trnblasHandle_t h, CallReport& r);
// While alive, `r` is the running C entry point's report, kept for its profile only: its schedule
// may wait until GetLastProfile asks for it (deferred_profile.hpp). One per entry point, around the
// compute body and store_report.
class ProfileOnlyCall {
 public:
  explicit ProfileOnlyCall(CallReport& r);
  ~ProfileOnlyCall();
  ProfileOnlyCall(const ProfileOnlyCall&) = delete;
  ProfileOnlyCall& operator=(const ProfileOnlyCall&) = delete;
};
// The handle's settings with its emulation knobs applied.
Settings settings_for(trnblasHandle_t h);
// A (rows x cols, ld) operand's extent is addressable in int64 bytes (8-byte elements at most).
bool addressable(std::int64_t rows, std::int64_t cols, std::int64_t ld);
// The leading dimension the kernels see (a single column is never strided: its ld becomes rows).
std::int64_t kernel_ld(std::int64_t ld, std::int64_t rows, std::int64_t cols);

// The C++ API's view of a C pointer: trnFloatComplex/trnDoubleComplex are laid out as
// std::complex (two floats/doubles, real first: C11/C++ array-compatibility guarantee).
template <class T>
T* cpp(T* p) {
  return p;
}
inline std::complex<float>* cpp(trnFloatComplex* p) { return reinterpret_cast<std::complex<float>*>(p); }
inline const std::complex<float>* cpp(const trnFloatComplex* p) { return reinterpret_cast<const std::complex<float>*>(p); }
inline std::complex<double>* cpp(trnDoubleComplex* p) { return reinterpret_cast<std::complex<double>*>(p); }
inline const std::complex<double>* cpp(const trnDoubleComplex* p) {
  return reinterpret_cast<const std::complex<double>*>(p);
}
template <class T, class U>
void store(T* out, const U& v) {
  static_assert(sizeof(T) == sizeof(U));
  std::memcpy(out, &v, sizeof v);
}

// A scalar (real, or trnComplex / trnDoubleComplex by its parts) equal to zero.
template <class T>
bool is_zero(const T& v) {
  if constexpr (std::is_arithmetic_v<T>)
    return v == T(0);
  else
    return v.x == 0 && v.y == 0;
}

// 1 + (n - 1) |inc| elements, as 8-byte elements, fit in int64 byte offsets.
inline bool vector_addressable(std::int64_t n, std::int64_t inc) {
  if (inc == std::numeric_limits<std::int64_t>::min()) return false;
  if (n <= 0) return true;
  const std::int64_t e = trn::cshim::checked_extent(1, n, inc < 0 ? -inc : inc);
  return e >= 0 && trn::cshim::checked_mul(e, 8) >= 0;
}
// A (rows x cols, ld) matrix spans an addressable extent of 8-byte elements.
inline bool matrix_addressable(std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  if (rows <= 0 || cols <= 0) return true;
  const std::int64_t e = trn::cshim::checked_extent(rows, cols, ld);
  return e >= 0 && trn::cshim::checked_mul(e, 8) >= 0;
}

// GemmEx-family calls whose types are complex (TRN_C_16F, TRN_C_16BF, TRN_C_32F, TRN_C_64F), after
// the size checks of the calling entry point: the rest of the checks (algo, types, compute type,
// batchCount, pointers) and the computation (capi_level3.cpp). pos_* are the entry point's parameter
// positions; entry b's operands come from A(b), B(b), C(b).
bool is_complex_type(int type);
struct ComplexGemmEx {
  int ta = 0, tb = 0;
  std::int64_t m = 0, n = 0, k = 0;
  const void* alpha = nullptr;
  int at = 0;
  std::int64_t lda = 0;
  int bt = 0;
  std::int64_t ldb = 0;
  const void* beta = nullptr;
  int ct = 0;
  std::int64_t ldc = 0, batch = 1;
  int compute = 0;
  bool algo_ok = true, strided = true;
  int pos_A = 0, pos_Atype = 0, pos_B = 0, pos_Btype = 0, pos_C = 0, pos_Ctype = 0, pos_batch = 0, pos_compute = 0,
      pos_algo = 0;
  std::function<const void*(std::int64_t)> A, B;
  std::function<void*(std::int64_t)> C;
};
trnblasStatus_t complex_gemm_ex(trnblasHandle_t h, const char* fn, const ComplexGemmEx& call);
// int8 A and B, the same call description: COMPUTE_32I with 32I C (int32 scalars) or 8I C (float
// scalars), and COMPUTE_32F(_PEDANTIC) with 32F C (float scalars). is_int8_gemm_ex says which calls go there.
bool is_int8_gemm_ex(int at, int bt, int ct, int compute);
trnblasStatus_t int8_gemm_ex(trnblasHandle_t h, const char* fn, const ComplexGemmEx& call);

}  // namespace blas_capi
