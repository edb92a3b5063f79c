// Shared by the trnblas suites that call the C API (suite_blas_level12.cpp, suite_blas_tri_lu.cpp):
// a handle per case and the conversion of its last profile to the report's DeviceCost; the typed
// helpers that call trnblas{S,D,C,Z}<name> for an element type T and evaluate results in long double.
#pragma once
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "blas_reference.hpp"
#include "registry.hpp"
#include "trnblas.h"
#include "trnblas_typed.hpp"

namespace trnsci::cli::blas_capi_suite {

inline DeviceCost device_from(const trnProfile_t& p) { return DeviceCost::from(p); }

// A handle for one case; records the last call's profile.
struct Handle {
  trnblasHandle_t h = nullptr;
  Handle() { trnblasCreate(&h); }
  ~Handle() { trnblasDestroy(h); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  trnProfile_t profile() const {
    trnProfile_t p{};
    trnblasGetLastProfile(h, &p);
    return p;
  }
  DeviceCost device() const { return device_from(profile()); }
};

using trnblas_typed::api;
using trnblas_typed::kComplex;
using trnblas_typed::prefix;
using trnblas_typed::real_of;

template <class T> double unit_roundoff() { return std::numeric_limits<real_of<T>>::epsilon() / 2; }
inline double gamma_u(double k, double u) { return k * u / (1.0 - k * u); }

using L = std::complex<long double>;
template <class T> L wide(T v) {
  if constexpr (kComplex<T>) return L(v.real(), v.imag());
  else return L(v, 0.0L);
}
inline long double abs1(L v) { return std::fabs(v.real()) + std::fabs(v.imag()); }
inline std::size_t ix(int i, int j, int ld) {
  return static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * static_cast<std::size_t>(ld);
}

// U(-1, 1) values (each part); doubles take two floats (all 53 significant bits in use).
template <class T> std::vector<T> random(std::size_t n, std::uint64_t seed) {
  const std::vector<float> f = blastest::uniform_f(4 * n, seed);
  auto part = [&](std::size_t k) -> real_of<T> {
    if constexpr (std::is_same_v<real_of<T>, double>) return double(f[k]) + double(f[k + 1]) * 0x1p-24;
    else return f[k];
  };
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (kComplex<T>) v[i] = T(part(4 * i), part(4 * i + 2));
    else v[i] = part(4 * i);
  }
  return v;
}

// A scalar that rounds when multiplied (0.7 is not a binary fraction).
template <class T> T alpha_value() {
  if constexpr (kComplex<T>) return T(real_of<T>(0.7), real_of<T>(-0.45));
  else return T(0.7);
}

// Registers a case of suite "blas" (library trnblas).
inline void add_blas_case(Registry& reg, ValidationCase c) { reg.adder("blas", "trnblas")(std::move(c)); }

// f(T{}) for T = float, double, complex<float>, complex<double> (a generic lambda reads the type).
template <class F> void for_each_precision(F&& f) {
  f(float{});
  f(double{});
  f(std::complex<float>{});
  f(std::complex<double>{});
}

}  // namespace trnsci::cli::blas_capi_suite
