// Scalar traits of the real and complex element types (float, double, std::complex<float/double>):
// the real type a complex one is made of, and whether a type is complex. One definition for every
// library (trnblas's BLAS ABI, trnsolver's IRS, ...).
#pragma once
#include <complex>
#include <type_traits>

namespace trn {

template <class T>
struct ScalarReal {
  using type = T;
};
template <class R>
struct ScalarReal<std::complex<R>> {
  using type = R;
};
// float -> float, std::complex<double> -> double.
template <class T>
using real_t = typename ScalarReal<T>::type;
template <class T>
inline constexpr bool is_complex_v = !std::is_same_v<T, real_t<T>>;

}  // namespace trn
