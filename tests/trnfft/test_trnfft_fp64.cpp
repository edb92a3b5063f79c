// FP64 transforms (Z2Z, D2Z, Z2D) through trnblas's Ozaki DGEMM, against FFTW in long double
// (fftw3l) with FFTW double's own error as the yardstick, and through the C API.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <random>
#include <string_view>
#include <vector>

#include "fft_reference.hpp"
#include "trn/core/host_step.hpp"
#include "trn/fft/fft.hpp"
#include "trnfft.h"

namespace {

using trnfft_test::cd;
using trnfft_test::cl;
using trnfft_test::fftw_c2c;
using trnfft_test::fftwl_c2c;
using trnfft_test::rel_l2;
constexpr double kU64 = 0x1p-53;

std::vector<cd> uniform(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<cd> v(static_cast<std::size_t>(n));
  for (cd& x : v) x = cd(u(g), u(g));
  return v;
}

TEST(Fp64, Z2ZWithinTwiceFftwDoubleOrFourULogN) {
  for (std::int64_t n : {16, 17, 100, 128, 997, 4096}) {
    const int batch = 2;
    const auto x = uniform(n * batch, 50 + static_cast<std::uint64_t>(n));
    trn::fft::PlanSpec s;
    s.n = {n};
    s.type = trn::fft::Type::z2z;
    s.batch = batch;
    const trn::fft::Plan p(s);
    for (int sign : {-1, 1}) {
      const auto ref = fftwl_c2c(x, {static_cast<int>(n)}, batch, sign);
      std::vector<cd> y(x.size());
      trn::fft::ExecReport rep;
      p.execute(x.data(), y.data(), sign, &rep);
      const double e = rel_l2(y, ref), e_fftw = rel_l2(fftw_c2c(x, {static_cast<int>(n)}, batch, sign), ref);
      const double bound = std::max(2 * e_fftw, 4 * kU64 * std::log2(static_cast<double>(n)));
      std::printf("z2z N=%-5lld sign=%+d err=%.3e fftw=%.3e bound=%.3e\n", static_cast<long long>(n), sign, e, e_fftw, bound);
      EXPECT_LE(e, bound) << "N=" << n;
      EXPECT_GT(rep.profile.busy_ns[static_cast<int>(trn::Engine::tensor)], 0.0) << "the DFT stages run on TensorE";
    }
  }
}

TEST(Fp64, D2ZAndZ2DAndTwoDimensional) {
  const int n0 = 6, n1 = 40, batch = 2, h = n1 / 2 + 1;
  std::mt19937_64 g(9);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<double> x(static_cast<std::size_t>(n0 * n1 * batch));
  for (double& v : x) v = u(g);
  // D2Z vs the long-double C2C of the real data, first h columns.
  trn::fft::PlanSpec s;
  s.n = {n0, n1};
  s.type = trn::fft::Type::d2z;
  s.batch = batch;
  std::vector<cd> y(static_cast<std::size_t>(n0 * h * batch));
  trn::fft::Plan(s).execute(x.data(), y.data(), -1);
  std::vector<cd> xc(x.begin(), x.end());
  const auto full = fftwl_c2c(xc, {n0, n1}, batch, -1);
  std::vector<cl> ref;
  for (int r = 0; r < n0 * batch; ++r)
    for (int k = 0; k < h; ++k) ref.push_back(full[static_cast<std::size_t>(r * n1 + k)]);
  EXPECT_LE(rel_l2(y, ref), 4 * kU64 * std::log2(n0 * n1));
  // Z2D of that spectrum: n0 n1 x back.
  s.type = trn::fft::Type::z2d;
  std::vector<double> back(x.size());
  const std::vector<cd> y0 = y;
  trn::fft::Plan(s).execute(y.data(), back.data(), 1);
  EXPECT_EQ(y, y0) << "Z2D must not modify its input";
  std::vector<cl> want;
  std::vector<cd> got;
  for (std::size_t i = 0; i < x.size(); ++i) {
    want.emplace_back(static_cast<long double>(x[i]) * (n0 * n1), 0.0L);
    got.emplace_back(back[i], 0.0);
  }
  EXPECT_LE(rel_l2(got, want), 8 * kU64 * std::log2(n0 * n1));
}

// Host steps of an execution's trace recorded under `name`: count, flops, bytes each way.
struct HostTotals {
  std::int64_t steps = 0;
  double flops = 0, to_host = 0, back = 0;
};
HostTotals host_totals(const trn::Trace& t, std::string_view name) {
  HostTotals r;
  for (const trn::Instruction& ins : t.instructions)
    if (ins.opcode == trn::Opcode::host_compute && trn::host_step_name(ins.host_label) == name) {
      ++r.steps;
      r.flops += ins.declared_cycles;
      r.to_host += static_cast<double>(ins.bytes_read);
      r.back += static_cast<double>(ins.bytes_written);
    }
  return r;
}

// The fp64 complex multiplies no engine can do are host round trips (docs/cost-model.md section 7):
// Bluestein's three (chirp, spectrum, chirp: 6 flops per output element) and Z2D's weights.
TEST(Fp64, HostMultipliesAreCostedRoundTrips) {
  const std::int64_t n = 997, m = 2048, batch = 1;  // Bluestein (a prime above the leaf sizes), padded to 2^p >= 2n - 1
  const auto x = uniform(n * batch, 7);
  trn::fft::PlanSpec s;
  s.n = {n};
  s.type = trn::fft::Type::z2z;
  s.batch = batch;
  const trn::fft::Plan p(s);
  std::vector<cd> y(x.size());
  trn::fft::ExecReport r;
  p.execute(x.data(), y.data(), -1, &r);
  const HostTotals c = host_totals(r.trace, "trnfft.fp64.chirp");
  EXPECT_EQ(c.steps, 3);
  EXPECT_DOUBLE_EQ(c.flops, 6.0 * batch * (n + m + n));
  EXPECT_DOUBLE_EQ(c.to_host, 16.0 * batch * (n + m + m));
  EXPECT_DOUBLE_EQ(c.back, 16.0 * batch * (m + m + n));
  // The two length-m sub-transforms are four-step: each pass twiddles all m points of its level.
  const HostTotals t = host_totals(r.trace, "trnfft.fp64.twiddle");
  EXPECT_GE(t.steps, 2);
  EXPECT_EQ(t.steps % 2, 0);
  EXPECT_DOUBLE_EQ(t.flops, 6.0 * batch * m * static_cast<double>(t.steps));
  EXPECT_DOUBLE_EQ(t.to_host, 16.0 * batch * m * static_cast<double>(t.steps));
  EXPECT_GE(r.profile.host_steps, 3);
  EXPECT_GT(r.profile.host_critical_ns, 0.0);

  const std::int64_t nr = 64, half = nr / 2 + 1;
  trn::fft::PlanSpec sz;
  sz.n = {nr};
  sz.type = trn::fft::Type::z2d;
  const trn::fft::Plan pz(sz);
  std::vector<cd> spec(static_cast<std::size_t>(half), cd(0.25, -0.5));
  std::vector<double> out(static_cast<std::size_t>(nr));
  pz.execute(spec.data(), out.data(), 1, &r);
  const HostTotals w = host_totals(r.trace, "trnfft.fp64.z2d_weights");
  EXPECT_EQ(w.steps, 1);
  EXPECT_DOUBLE_EQ(w.flops, 2.0 * half);
  EXPECT_DOUBLE_EQ(w.to_host, 16.0 * half);
  EXPECT_DOUBLE_EQ(w.back, 16.0 * nr);
}

TEST(Fp64, CApiZ2ZRoundTrip) {
  const int n = 60;
  trnfftHandle h = TRNFFT_PLAN_NULL;
  ASSERT_EQ(trnfftPlan1d(&h, n, TRNFFT_Z2Z, 1), TRNFFT_SUCCESS);
  const auto x = uniform(n, 3);
  std::vector<trnfftDoubleComplex> a(n), b(n);
  for (int i = 0; i < n; ++i) a[static_cast<std::size_t>(i)] = {x[static_cast<std::size_t>(i)].real(), x[static_cast<std::size_t>(i)].imag()};
  ASSERT_EQ(trnfftExecZ2Z(h, a.data(), b.data(), TRNFFT_FORWARD), TRNFFT_SUCCESS);
  ASSERT_EQ(trnfftExecZ2Z(h, b.data(), b.data(), TRNFFT_INVERSE), TRNFFT_SUCCESS);
  double worst = 0;
  for (int i = 0; i < n; ++i)
    worst = std::max(worst, std::abs(cd(b[static_cast<std::size_t>(i)].x, b[static_cast<std::size_t>(i)].y) / double(n) - x[static_cast<std::size_t>(i)]));
  EXPECT_LE(worst, 1e-14);
  std::vector<trnfftComplex> f(n);
  EXPECT_EQ(trnfftExecC2C(h, f.data(), f.data(), TRNFFT_FORWARD), TRNFFT_INVALID_TYPE);
  EXPECT_EQ(trnfftExecZ2Z(h, a.data(), nullptr, TRNFFT_FORWARD), TRNFFT_INVALID_VALUE);
  trnProfile_t prof{};
  EXPECT_EQ(trnfftGetLastProfile(h, &prof), TRNFFT_SUCCESS);
  EXPECT_GT(prof.busy_ns[TRN_ENGINE_TENSOR], 0.0);
  EXPECT_EQ(trnfftDestroy(h), TRNFFT_SUCCESS);
}

}  // namespace
