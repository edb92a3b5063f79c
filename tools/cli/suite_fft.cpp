// Validation and benchmark suite "fft": trnfft's C2C/R2C transforms in every precision mode against
// a long-double reference FFT written here (radix-2 with directly evaluated twiddles, Bluestein
// for other lengths), benchFFT's methodology (uniform [-0.5, 0.5) input, relative L2 error). FFTW is
// the oracle of the test suite (tests/trnfft); the CLI stays free of it.
#include <cmath>
#include <complex>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "registry.hpp"
#include "trn/fft/fft.hpp"

namespace trnsci::cli {
namespace {

using cl = std::complex<long double>;
using cf = std::complex<float>;

// In-place radix-2 FFT in long double; twiddles from cosl/sinl of the reduced index (no recurrence).
void ref_fft_pow2(std::vector<cl>& a, int sign) {
  const std::size_t n = a.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (std::size_t len = 2; len <= n; len <<= 1) {
    for (std::size_t k = 0; k < len / 2; ++k) {
      const long double ang = sign * 2.0L * std::numbers::pi_v<long double> * static_cast<long double>(k) / static_cast<long double>(len);
      const cl w(std::cos(ang), std::sin(ang));
      for (std::size_t i = 0; i < n; i += len) {
        const cl u = a[i + k], v = a[i + k + len / 2] * w;
        a[i + k] = u + v;
        a[i + k + len / 2] = u - v;
      }
    }
  }
}

// Any length: radix-2 directly, otherwise Bluestein over a power of two (all in long double).
std::vector<cl> ref_fft(const std::vector<cl>& x, int sign) {
  const std::size_t n = x.size();
  if ((n & (n - 1)) == 0) {
    std::vector<cl> a = x;
    ref_fft_pow2(a, sign);
    return a;
  }
  std::size_t m = 1;
  while (m < 2 * n - 1) m <<= 1;
  std::vector<cl> chirp(n), a(m), b(m);
  for (std::size_t j = 0; j < n; ++j) {
    const unsigned long long r = (static_cast<unsigned long long>(j) * j) % (2 * n);
    const long double ang = sign * std::numbers::pi_v<long double> * static_cast<long double>(r) / static_cast<long double>(n);
    chirp[j] = cl(std::cos(ang), std::sin(ang));
    a[j] = x[j] * chirp[j];
    b[j] = std::conj(chirp[j]);
    if (j > 0) b[m - j] = std::conj(chirp[j]);
  }
  ref_fft_pow2(a, -1);
  ref_fft_pow2(b, -1);
  for (std::size_t i = 0; i < m; ++i) a[i] *= b[i];
  ref_fft_pow2(a, 1);
  std::vector<cl> y(n);
  for (std::size_t k = 0; k < n; ++k) y[k] = a[k] * chirp[k] / static_cast<long double>(m);
  return y;
}

std::vector<cf> uniform(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<cf> v(static_cast<std::size_t>(n));
  for (cf& x : v) x = cf(static_cast<float>(u(g)), static_cast<float>(u(g)));
  return v;
}

// Relative L2 error of `batch` transforms of length n (contiguous) against the reference.
double error_vs_reference(const std::vector<cf>& x, const std::vector<cf>& y, std::int64_t n, std::int64_t batch, int sign,
                          std::int64_t max_checked = 4) {
  long double num = 0, den = 0;
  for (std::int64_t b = 0; b < std::min(batch, max_checked); ++b) {
    std::vector<cl> in(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = cl(x[static_cast<std::size_t>(b * n + i)]);
    const std::vector<cl> ref = ref_fft(in, sign);
    for (std::int64_t i = 0; i < n; ++i) {
      num += std::norm(cl(y[static_cast<std::size_t>(b * n + i)]) - ref[static_cast<std::size_t>(i)]);
      den += std::norm(ref[static_cast<std::size_t>(i)]);
    }
  }
  return static_cast<double>(std::sqrt(num / den));
}

const char* mode_label(trn::fft::Mode m) { return trn::blas::gemm_mode_name(m); }

CaseResult c2c_case(std::int64_t n, std::int64_t batch, trn::fft::Mode mode, double bound, const std::string& why) {
  trn::fft::PlanSpec s;
  s.n = {n};
  s.batch = batch;
  s.mode = mode;
  const trn::fft::Plan plan(s);
  const auto x = uniform(n * batch, 100 + static_cast<std::uint64_t>(n));
  std::vector<cf> y(x.size());
  trn::fft::ExecReport rep;
  const double t0 = now_seconds();
  plan.execute(x.data(), y.data(), trn::fft::kForward, &rep);
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  r.measured = error_vs_reference(x, y, n, batch, -1);
  r.bound = bound;
  r.pass = r.measured <= r.bound;
  r.note = why + "; plan bound " + sci(plan.error_bound());
  r.device = DeviceCost::from(rep.profile);
  return r;
}

CaseResult r2c_case(std::int64_t n) {
  trn::fft::PlanSpec s;
  s.n = {n};
  s.type = trn::fft::Type::r2c;
  const trn::fft::Plan plan(s);
  const auto xc = uniform(n, 7);
  std::vector<float> x(static_cast<std::size_t>(n));
  std::vector<cf> xr(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    x[static_cast<std::size_t>(i)] = xc[static_cast<std::size_t>(i)].real();
    xr[static_cast<std::size_t>(i)] = cf(x[static_cast<std::size_t>(i)], 0.0f);
  }
  std::vector<cf> y(static_cast<std::size_t>(n / 2 + 1));
  trn::fft::ExecReport rep;
  const double t0 = now_seconds();
  plan.execute(x.data(), y.data(), trn::fft::kForward, &rep);
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  std::vector<cl> in(xr.begin(), xr.end());
  const std::vector<cl> ref = ref_fft(in, -1);
  long double num = 0, den = 0;
  for (std::size_t k = 0; k < y.size(); ++k) {
    num += std::norm(cl(y[k]) - ref[k]);
    den += std::norm(ref[k]);
  }
  r.measured = static_cast<double>(std::sqrt(num / den));
  r.bound = 4.0 * 0x1p-24 * std::log2(static_cast<double>(n));
  r.pass = r.measured <= r.bound;
  r.note = "n/2+1 outputs vs long-double reference";
  r.device = DeviceCost::from(rep.profile);
  return r;
}

CaseResult z2z_case(std::int64_t n, std::int64_t batch) {
  trn::fft::PlanSpec s;
  s.n = {n};
  s.type = trn::fft::Type::z2z;
  s.batch = batch;
  const trn::fft::Plan plan(s);
  std::mt19937_64 g(200 + static_cast<std::uint64_t>(n));
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<std::complex<double>> x(static_cast<std::size_t>(n * batch)), y(x.size());
  for (auto& v : x) v = {u(g), u(g)};
  trn::fft::ExecReport rep;
  const double t0 = now_seconds();
  plan.execute(x.data(), y.data(), trn::fft::kForward, &rep);
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  long double num = 0, den = 0;
  for (std::int64_t b = 0; b < batch; ++b) {
    std::vector<cl> in(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = cl(x[static_cast<std::size_t>(b * n + i)]);
    const std::vector<cl> ref = ref_fft(in, -1);
    for (std::int64_t i = 0; i < n; ++i) {
      num += std::norm(cl(y[static_cast<std::size_t>(b * n + i)]) - ref[static_cast<std::size_t>(i)]);
      den += std::norm(ref[static_cast<std::size_t>(i)]);
    }
  }
  r.measured = static_cast<double>(std::sqrt(num / den));
  r.bound = 4.0 * 0x1p-53 * std::log2(static_cast<double>(n));
  r.pass = r.measured <= r.bound;
  r.note = "Ozaki DGEMM stages vs long-double FFT";
  r.device = DeviceCost::from(rep.profile);
  return r;
}

void add_fft(Registry& reg) {
  auto add = [&](ValidationCase c) {
    c.suite = "fft";
    c.library = "trnfft";
    reg.add(std::move(c));
  };
  const double u32 = 0x1p-24;
  struct Size {
    std::int64_t n, batch;
    bool full;
  };
  const Size sizes[] = {{17, 64, false},   {97, 16, false},    {128, 32, false},  {997, 4, false},
                        {1000, 4, false},  {3072, 2, false},   {4096, 2, false},  {65521, 1, true},
                        {65536, 1, true},  {100000, 1, true},  {1 << 20, 1, true}};
  for (const Size& z : sizes) {
    const double bound = 4.0 * u32 * std::log2(static_cast<double>(z.n));
    add({.op = "c2c", .mode = "fp32", .shape = "N=" + std::to_string(z.n) + " batch " + std::to_string(z.batch),
         .metric = "normwise_rel", .bound_text = "4 u32 log2 N (the tests also hold 2x FFTW-float)",
         .experiment = "benchFFT accuracy method", .size = static_cast<double>(z.n), .full_only = z.full,
         .run = [z, bound] { return c2c_case(z.n, z.batch, trn::fft::Mode::fp32, bound, "vs long-double FFT"); }});
  }
  for (std::int64_t n : {64, 256, 1024, 4096})
    add({.op = "c2c", .mode = "bf16x3", .shape = "N=" + std::to_string(n), .metric = "normwise_rel",
         .bound_text = "5e-6 for N <= 4096", .experiment = "numerics: DFT-GEMM bf16x3", .size = static_cast<double>(n),
         .run = [n] { return c2c_case(n, 2, trn::fft::Mode::bf16x3, 5e-6, "PSUM-compensated split"); }});
  for (std::int64_t n : {64, 256, 1024, 4096})
    add({.op = "c2c", .mode = "bf16", .shape = "N=" + std::to_string(n), .metric = "normwise_rel",
         .bound_text = "u_bf16 = 2^-8, flat in N", .experiment = "numerics: DFT-GEMM bf16", .size = static_cast<double>(n),
         .run = [n] { return c2c_case(n, 2, trn::fft::Mode::bf16, 0x1p-8, "bf16 tiles"); }});
  for (std::int64_t n : {128, 997, 4096, 65536})
    add({.op = "z2z", .mode = "fp64 (Ozaki)", .shape = "N=" + std::to_string(n), .metric = "normwise_rel",
         .bound_text = "4 u64 log2 N", .size = static_cast<double>(n), .full_only = n > 4096,
         .run = [n] { return z2z_case(n, 2); }});
  for (std::int64_t n : {100, 4096})
    add({.op = "r2c", .mode = "fp32", .shape = "N=" + std::to_string(n), .metric = "normwise_rel",
         .bound_text = "4 u32 log2 N", .size = static_cast<double>(n), .run = [n] { return r2c_case(n); }});

  for (std::int64_t n : {64, 256, 1024, 4096})
    for (trn::fft::Mode m : {trn::fft::Mode::fp32, trn::fft::Mode::bf16x3, trn::fft::Mode::bf16})
      reg.add(BenchCase{.suite = "fft", .library = "trnfft", .op = "c2c", .variant = mode_label(m),
                        .shape = "N=" + std::to_string(n) + ", 2^18 points", .full_only = m != trn::fft::Mode::fp32,
                        .run = [n, m](trn::Generation target) {
                          const std::int64_t batch = (std::int64_t{1} << 18) / n;
                          trn::fft::PlanSpec s;
                          s.n = {n};
                          s.batch = batch;
                          s.mode = m;
                          trn::fft::Settings st;
                          st.target = target;
                          const trn::fft::Plan plan(s, st);
                          const auto x = uniform(n * batch, 3);
                          std::vector<cf> y(x.size());
                          trn::fft::ExecReport rep;
                          const double t0 = now_seconds();
                          plan.execute(x.data(), y.data(), trn::fft::kForward, &rep);
                          BenchResult b;
                          b.host_seconds = seconds_since(t0);
                          b.error = error_vs_reference(x, y, n, batch, -1, 2);
                          b.error_metric = "normwise_rel";
                          b.flops = 5.0 * static_cast<double>(n) * std::log2(static_cast<double>(n)) * static_cast<double>(batch);
                          b.device = DeviceCost::from(rep.profile);
                          return b;
                        }});
}

const Registrar kRegistrar(add_fft);

}  // namespace
}  // namespace trnsci::cli
