// Element-type dispatch for code that calls trnblas's C API (and OpenBLAS's CBLAS) once for each of
// S, D, C, Z: the CLI's trnblas suites and the trnblas benchmarks. Header-only, no library code.
#pragma once
#include <complex>
#include <type_traits>

#include "trnblas.h"

namespace trnblas_typed {

template <class T> struct RealOf { using type = T; };
template <class R> struct RealOf<std::complex<R>> { using type = R; };
template <class T> using real_of = typename RealOf<T>::type;
template <class T> constexpr bool kComplex = !std::is_same_v<T, real_of<T>>;

// The BLAS prefix of T: s, d, c, z.
template <class T> const char* prefix() {
  if constexpr (std::is_same_v<T, float>) return "s";
  else if constexpr (std::is_same_v<T, double>) return "d";
  else if constexpr (std::is_same_v<T, std::complex<float>>) return "c";
  else return "z";
}

// The C API's element type of T (complex values as trnComplex / trnDoubleComplex: same layout).
template <class T> struct ApiOf { using type = T; };
template <> struct ApiOf<std::complex<float>> { using type = trnComplex; };
template <> struct ApiOf<std::complex<double>> { using type = trnDoubleComplex; };
template <class T> using api_of = typename ApiOf<T>::type;
template <class T> api_of<T>* api(T* p) { return reinterpret_cast<api_of<T>*>(p); }
template <class T> const api_of<T>* api(const T* p) { return reinterpret_cast<const api_of<T>*>(p); }
template <class T> api_of<T>* const* api(T* const* p) { return reinterpret_cast<api_of<T>* const*>(p); }
template <class T> const api_of<T>* const* api(const T* const* p) { return reinterpret_cast<const api_of<T>* const*>(p); }

// OpenBLAS's CBLAS takes real scalars by value and complex ones by pointer.
template <class T> auto cblas_scalar(const T* a) {
  if constexpr (kComplex<T>) return static_cast<const void*>(a);
  else return *a;
}

}  // namespace trnblas_typed

// return S(args...), D(...), C(...) or Z(...) as T is float, double, complex<float>, complex<double>
// (inside a function template, so that only the chosen call is instantiated).
#define TRNBLAS_BY_TYPE(T, S, D, C, Z, ...)                                              \
  do {                                                                                    \
    if constexpr (std::is_same_v<T, float>) return S(__VA_ARGS__);                        \
    else if constexpr (std::is_same_v<T, double>) return D(__VA_ARGS__);                  \
    else if constexpr (std::is_same_v<T, std::complex<float>>) return C(__VA_ARGS__);     \
    else return Z(__VA_ARGS__);                                                           \
  } while (false)
// trnblas{S,D,C,Z}<name>(args...) for element type T.
#define TRNBLAS_TYPED_CALL(T, name, ...) \
  TRNBLAS_BY_TYPE(T, trnblasS##name, trnblasD##name, trnblasC##name, trnblasZ##name, __VA_ARGS__)
