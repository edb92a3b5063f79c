// Internal (not installed): what the C entry points outside capi.cpp share with it — the handle
// registry, the logger-backed argument checks, the guarded compute body and the handle's settings.
// Defined in capi.cpp, where the handle type lives; used by the Level 1, 2 and 3 shims.
#pragma once
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>

#include "trn/blas/blas.hpp"
#include "trn/core/c_shim.hpp"
#include "trnblas.h"

// Not in namespace trn: the library's version script exports trn::* and this is internal.
namespace blas_capi {

using trn::blas::CallReport;
using trn::blas::Settings;

bool valid_handle(trnblasHandle_t h);
// An argument-check chain logging under fn and recording the failing position on h.
trn::cshim::ArgCheck<trnblasStatus_t> arg_check(trnblasHandle_t h, const char* fn);
// Runs body with the handle's settings, maps exceptions to statuses, stores the call's profile on success.
trnblasStatus_t run(trnblasHandle_t h, const char* fn, const std::function<void(const Settings&, CallReport*)>& body);
// The mode of an fp32 product under h's math mode (Level 3).
trn::blas::GemmMode fp32_mode(trnblasHandle_t h);
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

}  // namespace blas_capi
