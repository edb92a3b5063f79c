// The one FFT oracle of the trnfft tests, `trnsci validate`'s fft suite and bench_trnfft: FFTW
// (FFTW_ESTIMATE plans), one precision per purpose --
//   * double (fftw_*): the reference of the fp32 / bf16x3 / bf16 modes; its own error (~1e-16) is
//     nine orders below the smallest of their bounds, so the measured error is trnfft's alone;
//   * long double (fftwl_*, libfftw3l): the reference of the fp64 (Ozaki) transforms, whose bound
//     4 u64 log2 N sits at FFTW double's own error;
//   * float (fftwf_*): not a reference but the yardstick of the fp32 bound (FFTW's own fp32 error).
// Plus benchFFT's input (uniform [-0.5, 0.5), http://www.fftw.org/accuracy/method.html) and the
// relative L2 error. Nothing here calls trnfft. (The CLI used to carry a long-double radix-2 /
// Bluestein FFT of its own; FFTW long double replaces it where long double is needed.)
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
using cl = std::complex<long double>;

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

namespace detail {
// FFTW's three precisions differ only in the prefix of their API: `Api` supplies plan/execute/destroy.
template <class Real, class Api, class In>
std::vector<std::complex<Real>> many_c2c(const std::vector<In>& x, const std::vector<int>& n, int batch, int sign) {
  int total = 1;
  for (int v : n) total *= v;
  std::vector<std::complex<Real>> in(x.begin(), x.end()), out(in.size());
  auto p = Api::plan(static_cast<int>(n.size()), n.data(), batch, in.data(), total, out.data(), sign);
  Api::execute(p);
  Api::destroy(p);
  return out;
}
struct Fftw {
  static fftw_plan plan(int rank, const int* n, int batch, cd* in, int dist, cd* out, int sign) {
    return fftw_plan_many_dft(rank, n, batch, reinterpret_cast<fftw_complex*>(in), nullptr, 1, dist,
                              reinterpret_cast<fftw_complex*>(out), nullptr, 1, dist, sign, FFTW_ESTIMATE);
  }
  static void execute(fftw_plan p) { fftw_execute(p); }
  static void destroy(fftw_plan p) { fftw_destroy_plan(p); }
};
struct Fftwf {
  static fftwf_plan plan(int rank, const int* n, int batch, cf* in, int dist, cf* out, int sign) {
    return fftwf_plan_many_dft(rank, n, batch, reinterpret_cast<fftwf_complex*>(in), nullptr, 1, dist,
                               reinterpret_cast<fftwf_complex*>(out), nullptr, 1, dist, sign, FFTW_ESTIMATE);
  }
  static void execute(fftwf_plan p) { fftwf_execute(p); }
  static void destroy(fftwf_plan p) { fftwf_destroy_plan(p); }
};
struct Fftwl {
  static fftwl_plan plan(int rank, const int* n, int batch, cl* in, int dist, cl* out, int sign) {
    return fftwl_plan_many_dft(rank, n, batch, reinterpret_cast<fftwl_complex*>(in), nullptr, 1, dist,
                               reinterpret_cast<fftwl_complex*>(out), nullptr, 1, dist, sign, FFTW_ESTIMATE);
  }
  static void execute(fftwl_plan p) { fftwl_execute(p); }
  static void destroy(fftwl_plan p) { fftwl_destroy_plan(p); }
};
}  // namespace detail

// Batched contiguous C2C (FFTW_ESTIMATE, sign -1 forward / +1 inverse), any rank, of complex input
// of any precision (widened exactly): in FP64 (the reference of the fp32-class modes) ...
template <class T>
std::vector<cd> fftw_c2c(const std::vector<std::complex<T>>& x, const std::vector<int>& n, int batch, int sign) {
  return detail::many_c2c<double, detail::Fftw>(x, n, batch, sign);
}
// ... in single precision (FFTW's own fp32 error is the yardstick of the fp32 bound) ...
inline std::vector<cf> fftwf_c2c(const std::vector<cf>& x, const std::vector<int>& n, int batch, int sign) {
  return detail::many_c2c<float, detail::Fftwf>(x, n, batch, sign);
}
// ... and in long double (the reference of the fp64 transforms).
template <class T>
std::vector<cl> fftwl_c2c(const std::vector<std::complex<T>>& x, const std::vector<int>& n, int batch, int sign) {
  return detail::many_c2c<long double, detail::Fftwl>(x, n, batch, sign);
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

// Relative L2 error sqrt(sum |got - ref|^2 / sum |ref|^2), accumulated in long double.
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
