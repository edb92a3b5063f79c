// Shared helpers of the batched LU / QR tests (test_trnblas_lu_batched.cpp,
// test_trnblas_qr_batched.cpp): unit roundoff, random batches with padding 77, pointer arrays.
#pragma once
#include <complex>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

namespace batched_test {

using cd = std::complex<double>;
using cf = std::complex<float>;

template <class T>
double unit_roundoff() {
  return std::is_same_v<T, float> || std::is_same_v<T, cf> ? 0x1p-24 : 0x1p-53;
}
template <class T>
constexpr bool kCx = std::is_same_v<T, cf> || std::is_same_v<T, cd>;
inline double gamma_n(double n, double u) { return n * u / (1.0 - n * u); }

template <class T>
T random_value(std::mt19937_64& g) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  if constexpr (kCx<T>) {
    const double re = d(g);
    return T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(d(g)));
  } else {
    return static_cast<T>(d(g));
  }
}

// batch matrices rows x cols with leading dimension ld (padding = 77).
template <class T>
std::vector<std::vector<T>> random_rect(int batch, int rows, int cols, int ld, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<std::vector<T>> v(static_cast<std::size_t>(batch), std::vector<T>(static_cast<std::size_t>(ld * cols), T(77)));
  for (auto& m : v)
    for (int j = 0; j < cols; ++j)
      for (int i = 0; i < rows; ++i) m[static_cast<std::size_t>(i + j * ld)] = random_value<T>(g);
  return v;
}
template <class T>
std::vector<T*> pointers(std::vector<std::vector<T>>& v) {
  std::vector<T*> p;
  for (auto& m : v) p.push_back(m.data());
  return p;
}

}  // namespace batched_test
