// Validation and benchmark suite "fft": trnfft's C2C/R2C/Z2Z transforms in every precision mode
// against the oracle the tests use (tests/reference/fft_reference.hpp: FFTW double for the
// fp32-class modes, FFTW long double for fp64), benchFFT's methodology (uniform [-0.5, 0.5) input,
// relative L2 error).
#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <vector>

#include "fft_reference.hpp"
#include "registry.hpp"
#include "trn/fft/fft.hpp"

namespace trnsci::cli {
namespace {

using cf = std::complex<float>;
using trnfft_test::rel_l2;

std::vector<cf> uniform(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<cf> v(static_cast<std::size_t>(n));
  for (cf& x : v) x = cf(static_cast<float>(u(g)), static_cast<float>(u(g)));
  return v;
}

// Relative L2 error of the first min(batch, max_checked) transforms of length n (contiguous)
// against FFTW in FP64.
double error_vs_reference(const std::vector<cf>& x, const std::vector<cf>& y, std::int64_t n, std::int64_t batch, int sign,
                          std::int64_t max_checked = 4) {
  const std::int64_t checked = std::min(batch, max_checked);
  const auto points = static_cast<std::ptrdiff_t>(checked * n);
  const std::vector<cf> head(x.begin(), x.begin() + points), got(y.begin(), y.begin() + points);
  return rel_l2(got, trnfft_test::fftw_c2c(head, {static_cast<int>(n)}, static_cast<int>(checked), sign));
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
  for (std::int64_t i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = xc[static_cast<std::size_t>(i)].real();
  std::vector<cf> y(static_cast<std::size_t>(n / 2 + 1));
  trn::fft::ExecReport rep;
  const double t0 = now_seconds();
  plan.execute(x.data(), y.data(), trn::fft::kForward, &rep);
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  r.measured = rel_l2(y, trnfft_test::fftw_r2c(x, {static_cast<int>(n)}, 1));
  r.bound = 4.0 * 0x1p-24 * std::log2(static_cast<double>(n));
  r.pass = r.measured <= r.bound;
  r.note = "n/2+1 outputs vs FFTW double";
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
  r.measured = rel_l2(y, trnfft_test::fftwl_c2c(x, {static_cast<int>(n)}, static_cast<int>(batch), -1));
  r.bound = 4.0 * 0x1p-53 * std::log2(static_cast<double>(n));
  r.pass = r.measured <= r.bound;
  r.note = "Ozaki DGEMM stages vs FFTW long double";
  r.device = DeviceCost::from(rep.profile);
  return r;
}

void add_fft(Registry& reg) {
  auto add = reg.adder("fft", "trnfft");
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
         .run = [z, bound] { return c2c_case(z.n, z.batch, trn::fft::Mode::fp32, bound, "vs FFTW double"); }});
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
                          b.native_name = "FFTW float (estimate plan + execute)";
                          b.native_seconds = best_seconds(2, [&] { trnfft_test::fftwf_c2c(x, {static_cast<int>(n)}, static_cast<int>(batch), -1); });
                          return b;
                        }});
}

const Registrar kRegistrar(add_fft);

}  // namespace
}  // namespace trnsci::cli
