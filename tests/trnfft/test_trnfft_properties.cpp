// Property tests of trnfft (round trip, linearity, Parseval, shift theorem), the twiddle tables
// (FP64, never a recurrence), advanced layouts and in-place transforms against FFTW, and
// determinism across host thread counts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numbers>

#include "fft_reference.hpp"
#include "trn/fft/fft.hpp"

using namespace trnfft_test;
using trn::fft::Mode;
using trn::fft::Plan;
using trn::fft::PlanSpec;
using trn::fft::Type;

namespace {

constexpr double kU32 = 0x1p-24;
double fp32_bound(double n) { return 4.0 * kU32 * std::log2(std::max(2.0, n)); }

std::vector<cf> c2c(const Plan& p, const std::vector<cf>& x, int sign) {
  std::vector<cf> y(x.size());
  p.execute(x.data(), y.data(), sign);
  return y;
}
Plan plan1d(std::int64_t n, std::int64_t batch, Mode mode = Mode::fp32, int threads = 0) {
  PlanSpec s;
  s.n = {n};
  s.batch = batch;
  s.mode = mode;
  trn::fft::Settings st;
  st.host_threads = threads;
  return Plan(s, st);
}

const std::int64_t kSizes[] = {12, 128, 720, 997, 4096};

TEST(Properties, RoundTripIsNTimesInput) {
  for (std::int64_t n : kSizes) {
    const Plan p = plan1d(n, 2);
    const auto x = uniform_complex(2 * n, 21);
    auto y = c2c(p, c2c(p, x, -1), 1);
    for (cf& v : y) v /= static_cast<float>(n);
    EXPECT_LE(rel_l2(y, std::vector<cd>(x.begin(), x.end())), 2 * fp32_bound(static_cast<double>(n))) << "N=" << n;
  }
}

TEST(Properties, RealRoundTripIsNTimesInput) {
  for (std::int64_t n : {10, 128, 300, 997, 2048}) {
    PlanSpec f;
    f.n = {n};
    f.type = Type::r2c;
    PlanSpec b = f;
    b.type = Type::c2r;
    const Plan pf(f), pb(b);
    const auto x = uniform_real(n, 22);
    std::vector<cf> X(static_cast<std::size_t>(n / 2 + 1));
    std::vector<float> y(static_cast<std::size_t>(n));
    pf.execute(x.data(), X.data(), -1);
    pb.execute(X.data(), y.data(), 1);
    std::vector<cd> ref(x.begin(), x.end()), got;
    for (float v : y) got.emplace_back(v / static_cast<double>(n), 0.0);
    EXPECT_LE(rel_l2(got, ref), 2 * fp32_bound(static_cast<double>(n))) << "N=" << n;
  }
}

TEST(Properties, Linearity) {
  for (std::int64_t n : kSizes) {
    const Plan p = plan1d(n, 1);
    const auto x = uniform_complex(n, 23), y = uniform_complex(n, 24);
    const cf a(0.75f, -0.25f), b(-1.5f, 0.5f);
    std::vector<cf> z(x.size());
    for (std::size_t i = 0; i < z.size(); ++i) z[i] = a * x[i] + b * y[i];
    const auto Z = c2c(p, z, -1), X = c2c(p, x, -1), Y = c2c(p, y, -1);
    std::vector<cd> comb(Z.size());
    for (std::size_t i = 0; i < Z.size(); ++i) comb[i] = cd(a) * cd(X[i]) + cd(b) * cd(Y[i]);
    EXPECT_LE(rel_l2(Z, comb), 4 * fp32_bound(static_cast<double>(n))) << "N=" << n;
  }
}

TEST(Properties, Parseval) {
  for (std::int64_t n : kSizes) {
    const Plan p = plan1d(n, 1);
    const auto x = uniform_complex(n, 25);
    const auto X = c2c(p, x, -1);
    long double ex = 0, eX = 0;
    for (const cf& v : x) ex += std::norm(cd(v));
    for (const cf& v : X) eX += std::norm(cd(v));
    const double rel = static_cast<double>(std::fabs(eX / (static_cast<long double>(n) * ex) - 1));
    EXPECT_LE(rel, 4 * fp32_bound(static_cast<double>(n))) << "N=" << n;
  }
}

TEST(Properties, ShiftTheorem) {
  for (std::int64_t n : kSizes) {
    const Plan p = plan1d(n, 1);
    const auto x = uniform_complex(n, 26);
    const std::int64_t s = n / 3 + 1;
    std::vector<cf> xs(x.size());
    for (std::int64_t j = 0; j < n; ++j) xs[static_cast<std::size_t>(j)] = x[static_cast<std::size_t>((j + s) % n)];
    const auto X = c2c(p, x, -1), Xs = c2c(p, xs, -1);
    // DFT(x[j + s])[k] = exp(+2 pi i k s / n) X[k] (phase in long double, in the test).
    std::vector<cd> expect(X.size());
    for (std::int64_t k = 0; k < n; ++k) {
      const long double ang = 2.0L * std::numbers::pi_v<long double> * static_cast<long double>((k * s) % n) / n;
      expect[static_cast<std::size_t>(k)] = cd(X[static_cast<std::size_t>(k)]) * cd(std::cos(ang), std::sin(ang));
    }
    EXPECT_LE(rel_l2(Xs, expect), 4 * fp32_bound(static_cast<double>(n))) << "N=" << n;
  }
}

// Twiddles are exp(sign 2 pi i idx / len) evaluated in FP64 from the reduced index: within 2 ulp of
// the long-double value for every index (2^-52). A recurrence w_k = w_{k-1} w_1 (even in FP64) drifts by
// O(k u) and fails this at these lengths; the fp32 recurrence shown below misses by orders.
TEST(Twiddles, DirectFp64NeverRecurrence) {
  for (std::int64_t len : {std::int64_t{1} << 20, std::int64_t{65521} * 2, std::int64_t{1000}}) {
    double worst = 0;
    for (std::int64_t idx = 0; idx < len; idx += (len > 5000 ? 7 : 1)) {
      double c = 0, s = 0;
      trn::fft::detail::unit_root(idx, len, -1, &c, &s);
      const long double ang = -2.0L * std::numbers::pi_v<long double> * static_cast<long double>(idx) / len;
      worst = std::max({worst, static_cast<double>(std::fabs(c - std::cos(ang))), static_cast<double>(std::fabs(s - std::sin(ang)))});
    }
    EXPECT_LE(worst, 4 * 0x1p-53) << "len=" << len;  // 2 ulp of values <= 1
  }
  // What a recurrence would give (fp32, len 2^16): far outside the fp32 FFT bound.
  const std::int64_t len = 65536;
  std::complex<float> w(1, 0);
  const std::complex<float> w1(static_cast<float>(std::cos(2 * std::numbers::pi / len)),
                               static_cast<float>(-std::sin(2 * std::numbers::pi / len)));
  double drift = 0;
  for (std::int64_t k = 1; k < len; ++k) {
    w *= w1;
    double c = 0, s = 0;
    trn::fft::detail::unit_root(k, len, -1, &c, &s);
    drift = std::max(drift, std::abs(cd(w) - cd(c, s)));
  }
  EXPECT_GT(drift, 10 * fp32_bound(static_cast<double>(len))) << "the recurrence control should drift";
}

// Error growth: with direct twiddles the fp32 error grows like u sqrt(log N); a recurrence in any
// stage makes it grow with N. 2^16 may cost at most 2.5x the error of 2^8.
TEST(Twiddles, ErrorDoesNotGrowWithN) {
  auto err = [](std::int64_t n) {
    const auto x = uniform_complex(n, 27);
    return rel_l2(c2c(plan1d(n, 1), x, -1), fftw_c2c(x, {static_cast<int>(n)}, 1, -1));
  };
  const double e8 = err(256), e16 = err(65536), e18 = err(1 << 18);
  EXPECT_LE(e16, 2.5 * e8);
  EXPECT_LE(e18, 2.5 * e8);
  EXPECT_LE(e18, fp32_bound(1 << 18));
}

TEST(Layouts, AdvancedStridesAndEmbedsMatchFftw) {
  // 1-D, interleaved batches (stride = batch, dist = 1) in, padded rows out.
  {
    const int n = 24, batch = 5;
    const auto x = uniform_complex(n * batch, 31);
    PlanSpec s;
    s.n = {n};
    s.batch = batch;
    s.in = trn::fft::Layout{{n}, batch, 1};
    s.out = trn::fft::Layout{{n}, 1, n + 3};
    const Plan p(s);
    std::vector<cf> y(static_cast<std::size_t>((n + 3) * batch), cf(7, 7));
    p.execute(x.data(), y.data(), -1);
    std::vector<cd> in(x.begin(), x.end()), ref(static_cast<std::size_t>((n + 3) * batch));
    fftw_plan f = fftw_plan_many_dft(1, &n, batch, reinterpret_cast<fftw_complex*>(in.data()), &n, batch, 1,
                                     reinterpret_cast<fftw_complex*>(ref.data()), &n, 1, n + 3, FFTW_FORWARD, FFTW_ESTIMATE);
    fftw_execute(f);
    fftw_destroy_plan(f);
    std::vector<cf> got;
    std::vector<cd> want;
    for (int b = 0; b < batch; ++b) {
      for (int k = 0; k < n; ++k) {
        got.push_back(y[static_cast<std::size_t>(b * (n + 3) + k)]);
        want.push_back(ref[static_cast<std::size_t>(b * (n + 3) + k)]);
      }
      for (int k = n; k < n + 3; ++k) EXPECT_EQ(y[static_cast<std::size_t>(b * (n + 3) + k)], cf(7, 7)) << "padding written";
    }
    EXPECT_LE(rel_l2(got, want), fp32_bound(n));
  }
  // 2-D with embedded (padded) planes and stride 2 on both sides, 300 x 20 (four-step on axis 0).
  {
    const int n[2] = {300, 20}, ie[2] = {300, 23}, oe[2] = {300, 21}, batch = 2, is = 2, os = 1;
    const int idist = ie[0] * ie[1] * is + 5, odist = oe[0] * oe[1] * os;
    const auto x = uniform_complex(static_cast<std::int64_t>(idist) * batch, 32);
    PlanSpec s;
    s.n = {n[0], n[1]};
    s.batch = batch;
    s.in = trn::fft::Layout{{ie[0], ie[1]}, is, idist};
    s.out = trn::fft::Layout{{oe[0], oe[1]}, os, odist};
    const Plan p(s);
    std::vector<cf> y(static_cast<std::size_t>(odist * batch), cf(0, 0));
    p.execute(x.data(), y.data(), 1);
    std::vector<cd> in(x.begin(), x.end()), ref(y.size());
    fftw_plan f = fftw_plan_many_dft(2, n, batch, reinterpret_cast<fftw_complex*>(in.data()), ie, is, idist,
                                     reinterpret_cast<fftw_complex*>(ref.data()), oe, os, odist, FFTW_BACKWARD, FFTW_ESTIMATE);
    fftw_execute(f);
    fftw_destroy_plan(f);
    EXPECT_LE(rel_l2(y, ref), fp32_bound(6000));
  }
}

TEST(Layouts, ResidentFourStepWithGappedBatches) {
  // The SBUF-resident four-step (1024 = 32 x 32, 768 = 32 x 24) with transforms that are not back to
  // back on either side: gaps between input transforms split its loads per stacked transform,
  // stride-2 outputs with gaps split its stores.
  for (const int n : {1024, 768}) {
    const int batch = 12, idist = n + 5, os = 2, odist = 2 * n + 3;
    const auto x = uniform_complex(static_cast<std::int64_t>(idist) * batch, 36);
    PlanSpec s;
    s.n = {n};
    s.batch = batch;
    s.in = trn::fft::Layout{{n}, 1, idist};
    s.out = trn::fft::Layout{{n}, os, odist};
    const Plan p(s);
    std::vector<cf> y(static_cast<std::size_t>(odist * batch), cf(7, 7));
    p.execute(x.data(), y.data(), -1);
    std::vector<cd> in(x.begin(), x.end()), ref(y.size());
    fftw_plan f = fftw_plan_many_dft(1, &n, batch, reinterpret_cast<fftw_complex*>(in.data()), &n, 1, idist,
                                     reinterpret_cast<fftw_complex*>(ref.data()), &n, os, odist, FFTW_FORWARD, FFTW_ESTIMATE);
    fftw_execute(f);
    fftw_destroy_plan(f);
    std::vector<cf> got;
    std::vector<cd> want;
    for (int b = 0; b < batch; ++b)
      for (int k = 0; k < odist; ++k) {
        const std::size_t at = static_cast<std::size_t>(b * odist + k);
        if (k % os == 0 && k / os < n) {
          got.push_back(y[at]);
          want.push_back(ref[at]);
        } else {
          EXPECT_EQ(y[at], cf(7, 7)) << "gap written at " << at;
        }
      }
    EXPECT_LE(rel_l2(got, want), fp32_bound(n)) << n;
  }
}

TEST(Layouts, InPlaceC2CAndPaddedR2C) {
  {
    const std::int64_t n = 640;
    const auto x = uniform_complex(n * 3, 33);
    std::vector<cf> y = x;
    plan1d(n, 3).execute(y.data(), y.data(), -1);
    EXPECT_LE(rel_l2(y, fftw_c2c(x, {static_cast<int>(n)}, 3, -1)), fp32_bound(static_cast<double>(n)));
  }
  {
    // In-place R2C with cuFFT/FFTW padding: rows of 2 (n/2 + 1) reals.
    const std::int64_t n = 30, h = n / 2 + 1, batch = 4;
    const auto x = uniform_real(n * batch, 34);
    std::vector<float> buf(static_cast<std::size_t>(2 * h * batch), 0.0f);
    for (std::int64_t b = 0; b < batch; ++b)
      std::memcpy(&buf[static_cast<std::size_t>(b * 2 * h)], &x[static_cast<std::size_t>(b * n)], static_cast<std::size_t>(n) * 4);
    PlanSpec s;
    s.n = {n};
    s.type = Type::r2c;
    s.batch = batch;
    Plan(s).execute(buf.data(), buf.data(), -1);
    std::vector<cf> got(static_cast<std::size_t>(h * batch));
    for (std::size_t i = 0; i < got.size(); ++i) got[i] = cf(buf[2 * i], buf[2 * i + 1]);
    EXPECT_LE(rel_l2(got, fftw_r2c(x, {static_cast<int>(n)}, static_cast<int>(batch))), fp32_bound(static_cast<double>(n)));
  }
}

TEST(Determinism, SameBitsForAnyHostThreadCount) {
  for (Mode m : {Mode::fp32, Mode::bf16x3}) {
    const std::int64_t n = 1536;
    const auto x = uniform_complex(n * 6, 35);
    const auto y1 = c2c(plan1d(n, 6, m, 1), x, -1);
    const auto y2 = c2c(plan1d(n, 6, m, 2), x, -1);
    const auto y3 = c2c(plan1d(n, 6, m, 3), x, -1);
    EXPECT_EQ(0, std::memcmp(y1.data(), y2.data(), y1.size() * sizeof(cf)));
    EXPECT_EQ(0, std::memcmp(y1.data(), y3.data(), y1.size() * sizeof(cf)));
  }
}

TEST(Determinism, RealAndTwoDimensionalResidentPassesForAnyThreadCount) {
  // The resident four-step's truncated store (R2C), half-spectrum load (C2R) and two-dimensional
  // batch (the leading axis of 2-D): bits independent of the host threads.
  for (const Type t : {Type::r2c, Type::c2r, Type::c2c}) {
    PlanSpec s;
    s.n = t == Type::c2c ? std::vector<std::int64_t>{256, 48} : std::vector<std::int64_t>{1024};
    s.type = t;
    s.batch = 5;
    const std::int64_t total = s.n.size() == 2 ? 256 * 48 : 1024;
    const auto x = uniform_complex(total * s.batch, 37);  // reals: the first half of the floats
    std::vector<cf> y[2];
    for (int k = 0; k < 2; ++k) {
      trn::fft::Settings st;
      st.host_threads = k == 0 ? 1 : 3;
      y[k].assign(x.size(), cf(0, 0));
      Plan(s, st).execute(x.data(), y[k].data(), t == Type::c2r ? 1 : -1);
    }
    EXPECT_EQ(0, std::memcmp(y[0].data(), y[1].data(), y[0].size() * sizeof(cf))) << type_name(t);
  }
}

TEST(Plans, DescribeNamesStagesAndModeledTime) {
  PlanSpec s;
  s.n = {4096};
  s.batch = 8;
  const Plan p(s);
  const std::string d = p.print();
  EXPECT_NE(d.find("four-step 4096 = 64 x 64"), std::string::npos) << d;
  EXPECT_NE(d.find("dft-gemm-64"), std::string::npos) << d;
  EXPECT_GT(p.modeled_ns(), 0.0);
  PlanSpec b;
  b.n = {997};
  EXPECT_NE(Plan(b).print().find("bluestein 997 via m=2048"), std::string::npos);
  EXPECT_EQ(trn::fft::detail::stage_radices(1 << 20), (std::vector<std::int64_t>{128, 128, 64}));
  EXPECT_TRUE(trn::fft::detail::stage_radices(2 * 131).empty());
  EXPECT_EQ(trn::fft::detail::stage_radices(97), (std::vector<std::int64_t>{97}));
}

TEST(Plans, TrnMeasuredNumericsDegradesBf16x3) {
  // Under trn1_measured, bf16 x bf16 products are rounded to bf16 before PSUM: the compensated
  // split's lo terms are lost and bf16x3 falls to ~bf16 accuracy (docs/trnfft.md).
  const std::int64_t n = 256;
  const auto x = uniform_complex(n, 36);
  const auto ref = fftw_c2c(x, {static_cast<int>(n)}, 1, -1);
  PlanSpec s;
  s.n = {n};
  s.mode = Mode::bf16x3;
  trn::fft::Settings st;
  const double ideal = rel_l2(c2c(Plan(s, st), x, -1), ref);
  st.numerics = trn::Numerics::trn1_measured;
  const double measured = rel_l2(c2c(Plan(s, st), x, -1), ref);
  std::printf("bf16x3 N=256 ideal %.3e, trn1_measured %.3e\n", ideal, measured);
  EXPECT_LE(ideal, 5e-6);
  EXPECT_GT(measured, 100 * ideal);
}

TEST(Plans, BadSpecsThrow) {
  PlanSpec s;
  s.n = {0};
  EXPECT_THROW(Plan{s}, trn::UsageError);
  s.n = {8};
  s.type = Type::z2z;
  s.mode = Mode::bf16;
  EXPECT_THROW(Plan{s}, trn::NotSupportedError);  // FP64 types run the Ozaki path only
  s.mode = Mode::fp32;
  s.type = Type::c2c;
  s.mode = Mode::tf32;
  EXPECT_THROW(Plan{s}, trn::NotSupportedError);
  s.mode = Mode::fp32;
  const Plan p(s);
  std::vector<cf> x(8);
  EXPECT_THROW(p.execute(x.data(), x.data(), 0), trn::UsageError);
  EXPECT_THROW(p.execute(nullptr, x.data(), -1), trn::UsageError);
}

}  // namespace
