// Oracles for the trnfft tests: FFTW in double (the reference) and in float (the yardstick for the
// fp32 bound), benchFFT's input (uniform [-0.5, 0.5), http://www.fftw.org/accuracy/method.html)
// and relative L2 errors. Nothing here calls trnfft.
#pragma once
#include <fftw3.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

namespace trnfft_test {

using cf = std::complex<float>;
using cd = std::complex<double>;

inline std::vector<cf> uniform_complex(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<cf> v(static_cast<std::size_t>(n));
  for (cf& x : v) {
    const double re = u(g), im = u(g);
    x = cf(static_cast<float>(re), static_cast<float>(im));
  }
  return v;
}
inline std::vector<float> uniform_real(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (float& x : v) x = static_cast<float>(u(g));
  return v;
}

// Batched contiguous C2C in FP64 (FFTW_ESTIMATE, sign -1 forward / +1 inverse), any rank.
inline std::vector<cd> fftw_c2c(const std::vector<cf>& x, const std::vector<int>& n, int batch, int sign) {
  int total = 1;
  for (int v : n) total *= v;
  std::vector<cd> in(x.begin(), x.end()), out(in.size());
  fftw_plan p = fftw_plan_many_dft(static_cast<int>(n.size()), n.data(), batch, reinterpret_cast<fftw_complex*>(in.data()),
                                   nullptr, 1, total, reinterpret_cast<fftw_complex*>(out.data()), nullptr, 1, total,
                                   sign, FFTW_ESTIMATE);
  fftw_execute(p);
  fftw_destroy_plan(p);
  return out;
}
// The same in single precision (FFTW's own fp32 error is the yardstick of the fp32 bound).
inline std::vector<cf> fftwf_c2c(const std::vector<cf>& x, const std::vector<int>& n, int batch, int sign) {
  int total = 1;
  for (int v : n) total *= v;
  std::vector<cf> in = x, out(in.size());
  fftwf_plan p = fftwf_plan_many_dft(static_cast<int>(n.size()), n.data(), batch, reinterpret_cast<fftwf_complex*>(in.data()),
                                     nullptr, 1, total, reinterpret_cast<fftwf_complex*>(out.data()), nullptr, 1, total,
                                     sign, FFTW_ESTIMATE);
  fftwf_execute(p);
  fftwf_destroy_plan(p);
  return out;
}
// R2C in FP64: n/2 + 1 outputs per row (last dimension), contiguous.
inline std::vector<cd> fftw_r2c(const std::vector<float>& x, const std::vector<int>& n, int batch) {
  int total = 1;
  for (int v : n) total *= v;
  const int h = n.back() / 2 + 1;
  const int out_total = total / n.back() * h;
  std::vector<double> in(x.begin(), x.end());
  std::vector<cd> out(static_cast<std::size_t>(out_total * batch));
  fftw_plan p = fftw_plan_many_dft_r2c(static_cast<int>(n.size()), n.data(), batch, in.data(), nullptr, 1, total,
                                       reinterpret_cast<fftw_complex*>(out.data()), nullptr, 1, out_total, FFTW_ESTIMATE);
  fftw_execute(p);
  fftw_destroy_plan(p);
  return out;
}
// C2R in FP64 (FFTW destroys the input of a multi-dimensional c2r; we pass a copy).
inline std::vector<double> fftw_c2r(const std::vector<cf>& x, const std::vector<int>& n, int batch) {
  int total = 1;
  for (int v : n) total *= v;
  const int h = n.back() / 2 + 1;
  const int in_total = total / n.back() * h;
  std::vector<cd> in(x.begin(), x.end());
  std::vector<double> out(static_cast<std::size_t>(total * batch));
  fftw_plan p = fftw_plan_many_dft_c2r(static_cast<int>(n.size()), n.data(), batch, reinterpret_cast<fftw_complex*>(in.data()),
                                       nullptr, 1, in_total, out.data(), nullptr, 1, total, FFTW_ESTIMATE);
  fftw_execute(p);
  fftw_destroy_plan(p);
  return out;
}

template <class A, class B>
double rel_l2(const std::vector<A>& got, const std::vector<B>& ref) {
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const long double dr = std::real(got[i]) - static_cast<long double>(std::real(ref[i]));
    const long double di = std::imag(got[i]) - static_cast<long double>(std::imag(ref[i]));
    num += dr * dr + di * di;
    den += static_cast<long double>(std::norm(ref[i]));
  }
  return static_cast<double>(std::sqrt(num / den));
}

}  // namespace trnfft_test
