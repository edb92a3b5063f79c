// Accuracy of trnfft against FFTW in FP64 (benchFFT: uniform [-0.5, 0.5) input, relative L2 error),
// in every precision mode, plus the bounds the plan predicts. Sizes cover DFT-GEMM leaves (2..128,
// primes 17 and 97), four-step (powers of two, 2^k * 3, 10^k) and Bluestein (997, 2 * 131).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "fft_reference.hpp"
#include "trn/fft/fft.hpp"

using namespace trnfft_test;
using trn::fft::Mode;
using trn::fft::Plan;
using trn::fft::PlanSpec;
using trn::fft::Type;

namespace {

constexpr double kU32 = 0x1p-24;

std::vector<cf> run_c2c(const std::vector<cf>& x, std::vector<std::int64_t> n, std::int64_t batch, Mode mode, int sign,
                        trn::fft::ExecReport* rep = nullptr) {
  PlanSpec s;
  s.n = std::move(n);
  s.batch = batch;
  s.mode = mode;
  Plan p(s);
  std::vector<cf> y(x.size());
  p.execute(x.data(), y.data(), sign, rep);
  return y;
}

struct Case {
  std::int64_t n;
  int batch;
};

class Fp32Accuracy : public ::testing::TestWithParam<Case> {};

TEST_P(Fp32Accuracy, WithinTwiceFftwFloatOrFourULogN) {
  const Case c = GetParam();
  const auto x = uniform_complex(c.n * c.batch, 1000 + static_cast<std::uint64_t>(c.n));
  const std::vector<int> dims{static_cast<int>(c.n)};
  for (int sign : {-1, 1}) {
    const auto ref = fftw_c2c(x, dims, c.batch, sign);
    const double e_fftwf = rel_l2(fftwf_c2c(x, dims, c.batch, sign), ref);
    const double e = rel_l2(run_c2c(x, {c.n}, c.batch, Mode::fp32, sign), ref);
    const double bound = std::max(2.0 * e_fftwf, 4.0 * kU32 * std::log2(static_cast<double>(std::max<std::int64_t>(c.n, 2))));
    std::printf("fp32 N=%-7lld batch=%-3d sign=%+d err=%.3e fftwf=%.3e bound=%.3e\n", static_cast<long long>(c.n),
                c.batch, sign, e, e_fftwf, bound);
    EXPECT_LE(e, bound) << "N=" << c.n << " sign=" << sign;
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, Fp32Accuracy,
                         ::testing::Values(Case{1, 3}, Case{2, 5}, Case{3, 4}, Case{8, 7}, Case{17, 9}, Case{64, 16},
                                           Case{97, 6}, Case{128, 8}, Case{256, 4}, Case{384, 3}, Case{1000, 2},
                                           Case{997, 2}, Case{262, 2}, Case{1024, 2}, Case{4096, 1}, Case{10000, 1},
                                           Case{65536, 1}),
                         [](const auto& info) { return "N" + std::to_string(info.param.n); });

TEST(Bf16x3Accuracy, Below5e6UpTo4096) {
  for (std::int64_t n : {16, 64, 128, 256, 1024, 4096}) {
    const auto x = uniform_complex(n * 2, 77);
    const auto ref = fftw_c2c(x, {static_cast<int>(n)}, 2, -1);
    const double e = rel_l2(run_c2c(x, {n}, 2, Mode::bf16x3, -1), ref);
    std::printf("bf16x3 N=%-6lld err=%.3e\n", static_cast<long long>(n), e);
    EXPECT_LE(e, 5e-6) << "N=" << n;
  }
}

TEST(Bf16Accuracy, NearUnitRoundoffAndFlatInN) {
  double lo = 1, hi = 0;
  for (std::int64_t n : {16, 64, 128, 1024, 4096}) {
    const auto x = uniform_complex(n * 2, 78);
    const auto ref = fftw_c2c(x, {static_cast<int>(n)}, 2, -1);
    const double e = rel_l2(run_c2c(x, {n}, 2, Mode::bf16, -1), ref);
    std::printf("bf16 N=%-6lld err=%.3e (u_bf16 = %.3e)\n", static_cast<long long>(n), e, 0x1p-8);
    EXPECT_LE(e, 0x1p-8) << "N=" << n;    // below u_bf16
    EXPECT_GE(e, 0x1p-8 / 16) << "N=" << n;  // and really bf16 (not an fp32 path)
    lo = std::min(lo, e);
    hi = std::max(hi, e);
  }
  EXPECT_LE(hi / lo, 2.0) << "bf16 error should be flat in N";
}

TEST(PlanBound, PredictedBoundHoldsForEveryMode) {
  for (Mode m : {Mode::fp32, Mode::bf16, Mode::bf16x3})
    for (std::int64_t n : {100, 997, 2048}) {
      PlanSpec s;
      s.n = {n};
      s.mode = m;
      Plan p(s);
      const auto x = uniform_complex(n, 5);
      std::vector<cf> y(x.size());
      p.execute(x.data(), y.data(), -1);
      const double e = rel_l2(y, fftw_c2c(x, {static_cast<int>(n)}, 1, -1));
      EXPECT_LE(e, p.error_bound()) << trn::blas::gemm_mode_name(m) << " N=" << n;
    }
}

TEST(PlanBound, RealTransformsHoldTheBoundInEveryMode) {
  // The resident four-step's real-input load, truncated store (R2C) and half-spectrum load (C2R:
  // zero padding, doubled F1, halved X_0 / X_{N/2}) in each mode; 1024 = 32 x 32 and 450 = 25 x 18.
  for (Mode m : {Mode::fp32, Mode::bf16, Mode::bf16x3})
    for (const int n : {1024, 450}) {
      const int batch = 6;
      const std::int64_t h = n / 2 + 1;
      const auto x = uniform_real(static_cast<std::int64_t>(n) * batch, 14);
      PlanSpec s;
      s.n = {n};
      s.batch = batch;
      s.mode = m;
      s.type = Type::r2c;
      const Plan pf(s);
      std::vector<cf> X(static_cast<std::size_t>(h * batch));
      pf.execute(x.data(), X.data(), -1);
      const auto ref = fftw_r2c(x, {n}, batch);
      EXPECT_LE(rel_l2(X, ref), pf.error_bound()) << "R2C " << trn::blas::gemm_mode_name(m) << " N=" << n;
      s.type = Type::c2r;
      const Plan pb(s);
      const std::vector<cf> Xref(ref.begin(), ref.end());
      std::vector<float> y(static_cast<std::size_t>(n) * batch);
      pb.execute(Xref.data(), y.data(), 1);
      EXPECT_LE(rel_l2(y, fftw_c2r(Xref, {n}, batch)), pb.error_bound()) << "C2R " << trn::blas::gemm_mode_name(m) << " N=" << n;
    }
}

TEST(MultiDim, TwoAndThreeDimensionalC2C) {
  for (const std::vector<std::int64_t>& n : std::vector<std::vector<std::int64_t>>{{12, 20}, {200, 3}, {4, 6, 10}, {3, 130, 5}}) {
    std::int64_t total = 1;
    std::vector<int> dims;
    for (auto v : n) {
      total *= v;
      dims.push_back(static_cast<int>(v));
    }
    const auto x = uniform_complex(total * 2, 9);
    for (int sign : {-1, 1}) {
      const auto ref = fftw_c2c(x, dims, 2, sign);
      const double e = rel_l2(run_c2c(x, n, 2, Mode::fp32, sign), ref);
      EXPECT_LE(e, 4.0 * kU32 * std::log2(static_cast<double>(total))) << "rank " << n.size();
    }
  }
}

TEST(RealTransforms, FourStepSizesInPlaceAndNyquist) {
  // Real transforms of four-step sizes (2048 = 64 x 32 over 130 transforms, 1000 = 40 x 25, 450 =
  // 25 x 18: X_{N/2} off the first column): out of place and in place (padded rows), and C2R
  // ignores the imaginary parts of X_0 and X_{N/2}.
  for (const auto& [n, batch] : std::vector<std::pair<int, int>>{{2048, 130}, {1000, 5}, {450, 7}}) {
    const double bound = 4.0 * kU32 * std::log2(static_cast<double>(n));
    const std::int64_t h = n / 2 + 1;
    const auto x = uniform_real(static_cast<std::int64_t>(n) * batch, 13);
    PlanSpec s;
    s.n = {n};
    s.type = Type::r2c;
    s.batch = batch;
    std::vector<cf> y(static_cast<std::size_t>(h * batch));
    Plan(s).execute(x.data(), y.data(), -1);
    const auto ref = fftw_r2c(x, {n}, batch);
    EXPECT_LE(rel_l2(y, ref), bound) << "R2C " << n;
    // In place: rows of 2 (n/2 + 1) reals.
    std::vector<float> buf(static_cast<std::size_t>(2 * h * batch), 0.0f);
    for (int b = 0; b < batch; ++b)
      std::memcpy(&buf[static_cast<std::size_t>(b * 2 * h)], &x[static_cast<std::size_t>(b) * n], static_cast<std::size_t>(n) * 4);
    Plan(s).execute(buf.data(), buf.data(), -1);
    std::vector<cf> got(static_cast<std::size_t>(h * batch));
    for (std::size_t i = 0; i < got.size(); ++i) got[i] = cf(buf[2 * i], buf[2 * i + 1]);
    EXPECT_LE(rel_l2(got, ref), bound) << "in-place R2C " << n;
    // C2R with junk in Im X_0 and Im X_{N/2}: the same as with zeros there.
    std::vector<cf> X(ref.begin(), ref.end());
    for (int b = 0; b < batch; ++b) {
      X[static_cast<std::size_t>(b * h)].imag(0.0f);
      X[static_cast<std::size_t>(b * h + h - 1)].imag(0.0f);
    }
    const auto want = fftw_c2r(X, {n}, batch);
    for (int b = 0; b < batch; ++b) {
      X[static_cast<std::size_t>(b * h)].imag(3.0f);
      X[static_cast<std::size_t>(b * h + h - 1)].imag(-5.0f);
    }
    s.type = Type::c2r;
    std::vector<float> xr(static_cast<std::size_t>(n) * batch);
    Plan(s).execute(X.data(), xr.data(), 1);
    EXPECT_LE(rel_l2(xr, want), bound) << "C2R " << n;
  }
}

TEST(RealTransforms, R2CAndC2RMatchFftw) {
  for (const std::vector<std::int64_t>& n : std::vector<std::vector<std::int64_t>>{{16}, {17}, {300}, {997}, {6, 10}, {4, 5, 9}, {3, 256}}) {
    std::int64_t total = 1;
    std::vector<int> dims;
    for (auto v : n) {
      total *= v;
      dims.push_back(static_cast<int>(v));
    }
    const std::int64_t batch = 3, h = n.back() / 2 + 1, ctotal = total / n.back() * h;
    const double bound = 4.0 * kU32 * std::log2(static_cast<double>(total));
    {
      const auto x = uniform_real(total * batch, 11);
      PlanSpec s;
      s.n = n;
      s.type = Type::r2c;
      s.batch = batch;
      Plan p(s);
      std::vector<cf> y(static_cast<std::size_t>(ctotal * batch));
      p.execute(x.data(), y.data(), -1);
      EXPECT_LE(rel_l2(y, fftw_r2c(x, dims, static_cast<int>(batch))), bound) << "R2C n.back=" << n.back();
    }
    {
      // A Hermitian input: the R2C of real data (so the DC/Nyquist imaginary parts are consistent).
      const auto xr = uniform_real(total * batch, 12);
      const auto spec = fftw_r2c(xr, dims, static_cast<int>(batch));
      std::vector<cf> X(spec.begin(), spec.end());
      PlanSpec s;
      s.n = n;
      s.type = Type::c2r;
      s.batch = batch;
      Plan p(s);
      std::vector<float> y(static_cast<std::size_t>(total * batch));
      const std::vector<cf> X0 = X;
      p.execute(X.data(), y.data(), 1);
      EXPECT_EQ(0, std::memcmp(X.data(), X0.data(), X.size() * sizeof(cf))) << "C2R must not modify its input";
      EXPECT_LE(rel_l2(y, fftw_c2r(X0, dims, static_cast<int>(batch))), bound) << "C2R n.back=" << n.back();
    }
  }
}

}  // namespace
