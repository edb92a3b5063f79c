// The scalar traits and the Gaussian test matrix of the real-or-complex solver suites (geev, QR,
// SVD family): one definition, so that they draw their matrices the same way.
#pragma once
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "trncore.h"

namespace trnsci::cli::solver_data {

using CL = std::complex<long double>;  // the residuals' arithmetic

template <class T>
constexpr bool kCplx = !std::is_floating_point_v<T>;
template <class T>
using RealT = decltype(std::abs(T()));  // float / double, or the complex type's value_type
template <class T>
constexpr double kU = std::is_same_v<RealT<T>, float> ? 0x1p-24 : 0x1p-53;  // unit roundoff

template <class T>
CL wide(T x) {
  return CL(static_cast<long double>(std::real(x)), static_cast<long double>(std::imag(x)));
}

// m x n (ld m), entries N(0, 1) from mt19937_64(seed) (complex: real then imaginary part of each).
template <class T>
std::vector<T> gaussian(int m, int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd;
  std::vector<T> a(static_cast<std::size_t>(m) * n);
  for (T& x : a) {
    if constexpr (kCplx<T>) x = T(static_cast<RealT<T>>(nd(rng)), static_cast<RealT<T>>(nd(rng)));
    else x = static_cast<T>(nd(rng));
  }
  return a;
}

// The C API's data type of a value type T (the X API's dataType arguments).
template <class T>
constexpr trnDataType_t kType = std::is_same_v<T, float>                 ? TRN_R_32F
                                : std::is_same_v<T, double>              ? TRN_R_64F
                                : std::is_same_v<T, std::complex<float>> ? TRN_C_32F
                                                                         : TRN_C_64F;

}  // namespace trnsci::cli::solver_data
