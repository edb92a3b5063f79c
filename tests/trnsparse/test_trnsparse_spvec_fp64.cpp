// Axpby, Rot and SpVV in R_64F / C_64F on the engines (trnsparse/src/spvec_fp64.cpp, docs/trnsparse.md
// "Sparse vectors in fp64"): every output the exact combination rounded once. Checked two-sided
// against a long-double loop (|err| <= u |exact| up to the reference's own rounding, and a wrong
// result -- beta left out, a missed conjugate, the rotation's sign -- outside that), and bit for bit
// against a 113-bit (__float128) reference rounded once, which the former host loop's two roundings
// miss; NaN / Inf / signed zeros as the C99 expressions give them; finite inputs whose partial
// products overflow; duplicated indices; the same bits for 1 / 2 host threads and 1 / 2 cores; the
// report names TensorE and two host steps per launch. Also SpSV R_64F's level step: the divide runs in
// the segmented kernel's fold visit, two host visits per level (was three), the solution unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "trn/sparse/generic.hpp"
#include "trn/sparse/triangular.hpp"

namespace sp = trn::sparse;
using cd = std::complex<double>;
using cld = std::complex<long double>;
// A 113-bit significand: a product of two doubles is exact.
#if defined(__SIZEOF_FLOAT128__)
__extension__ typedef __float128 quad;
#elif LDBL_MANT_DIG >= 113
using quad = long double;
#else
#error "the reference needs __float128 or a quad-precision long double"
#endif

namespace {

constexpr long double kU = 0x1p-53L;

// x (nnz entries of `size`, dup duplicated indices inserted) and dense y, as doubles (complex: re, im).
struct Vecs {
  bool cx = false;
  std::int64_t size = 0;
  std::vector<std::int32_t> idx;
  std::vector<double> x, y;
  sp::SpVecRef ref() {
    return {.size = size, .nnz = static_cast<std::int64_t>(idx.size()), .indices = idx.data(), .values = x.data(),
            .value = cx ? sp::Value::c64 : sp::Value::f64};
  }
  cd xv(std::size_t e) const { return cx ? cd(x[2 * e], x[2 * e + 1]) : cd(x[e]); }
  cd yv(std::size_t i) const { return cx ? cd(y[2 * i], y[2 * i + 1]) : cd(y[i]); }
};

Vecs make_vecs(bool cx, std::int64_t size, double density, int dup, std::uint64_t seed) {
  Vecs v;
  v.cx = cx;
  v.size = size;
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::uniform_int_distribution<int> ex(-20, 20);  // spread the exponents: rounding decisions get real
  std::bernoulli_distribution keep(density);
  for (std::int64_t i = 0; i < size; ++i)
    if (keep(g)) v.idx.push_back(static_cast<std::int32_t>(i));
  std::uniform_int_distribution<std::size_t> at(0, v.idx.empty() ? 0 : v.idx.size() - 1);
  for (int k = 0; k < dup && !v.idx.empty(); ++k) v.idx.insert(v.idx.begin() + static_cast<long>(at(g)), v.idx[at(g)]);
  const std::size_t w = cx ? 2 : 1;
  for (std::size_t k = 0; k < v.idx.size() * w; ++k) v.x.push_back(std::ldexp(d(g), ex(g)));
  for (std::size_t k = 0; k < static_cast<std::size_t>(size) * w; ++k) v.y.push_back(std::ldexp(d(g), ex(g)));
  return v;
}

sp::Settings settings(int threads = 1, int cores = 1) {
  sp::Settings s;
  s.host_threads = threads;
  s.num_cores = cores;
  return s;
}

// A complex combination sum c_k d_k exactly (re, im) in quad: each part a sum of exact products.
struct QC {
  quad re = 0, im = 0;
};
void add(QC& acc, cd c, cd d) {
  acc.re += static_cast<quad>(c.real()) * d.real() - static_cast<quad>(c.imag()) * d.imag();
  acc.im += static_cast<quad>(c.real()) * d.imag() + static_cast<quad>(c.imag()) * d.real();
}
cd rounded(const QC& q) { return {static_cast<double>(q.re), static_cast<double>(q.im)}; }
cld as_ld(const QC& q) { return {static_cast<long double>(q.re), static_cast<long double>(q.im)}; }

bool same_bits(cd a, cd b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Per output of y: beta y_i + alpha sum_{e at i} x_e, exactly (quad), in long double, and its magnitude.
struct AxpbyRef {
  std::vector<QC> exact;
  std::vector<cld> ld, nobeta;
  std::vector<long double> mag;
};
AxpbyRef axpby_reference(const Vecs& v, cd alpha, cd beta) {
  AxpbyRef r;
  const auto n = static_cast<std::size_t>(v.size);
  r.exact.resize(n);
  r.ld.resize(n);
  r.nobeta.resize(n);
  r.mag.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    add(r.exact[i], beta, v.yv(i));
    r.ld[i] = cld(beta) * cld(v.yv(i));
    r.nobeta[i] = cld(v.yv(i));
    r.mag[i] = std::abs(cld(beta)) * std::abs(cld(v.yv(i)));
  }
  for (std::size_t e = 0; e < v.idx.size(); ++e) {
    const auto i = static_cast<std::size_t>(v.idx[e]);
    add(r.exact[i], alpha, v.xv(e));
    r.ld[i] += cld(alpha) * cld(v.xv(e));
    r.nobeta[i] += cld(alpha) * cld(v.xv(e));
    r.mag[i] += std::abs(cld(alpha)) * std::abs(cld(v.xv(e)));
  }
  return r;
}

// The long-double reference's own error on a combination of magnitude `mag` (k + 1 roundings in
// 2^-64, complex each part): the slack added to u |exact|.
long double ld_slack(long double mag, int k) { return (k + 2) * 0x1p-63L * mag; }

TEST(SpVecFp64, AxpbyCorrectlyRoundedTwoSided) {
  for (bool cx : {false, true})
    for (int dup : {0, 30}) {
      Vecs v = make_vecs(cx, 3000, 0.3, dup, 5 + static_cast<std::uint64_t>(dup) + (cx ? 100 : 0));
      const cd alpha = cx ? cd(0.7, -1.3) : cd(0.7), beta = cx ? cd(-0.3, 0.11) : cd(-0.3);
      const AxpbyRef ref = axpby_reference(v, alpha, beta);
      const std::vector<double> y0 = v.y;
      sp::CallReport rep;
      rep.plans_wanted = true;
      sp::axpby(settings(), alpha, v.ref(), beta, v.y.data(), &rep);
      int outside_nobeta = 0, host_differs = 0;
      for (std::size_t i = 0; i < ref.exact.size(); ++i) {
        const cd got = v.yv(i);
        const long double bound = kU * std::abs(ref.ld[i]) * (cx ? std::sqrt(2.0L) : 1.0L) + ld_slack(ref.mag[i], 2 * dup + 4);
        ASSERT_LE(std::abs(cld(got) - ref.ld[i]), bound) << "i " << i << " cx " << cx;
        ASSERT_TRUE(same_bits(got, rounded(ref.exact[i]))) << "not the exact value rounded once, i " << i;
        outside_nobeta += std::abs(cld(got) - ref.nobeta[i]) > bound;
        // The former host loop: fl(fl(beta y) + fl(alpha x)) (two roundings) misses some.
        cd seq = beta * (cx ? cd(y0[2 * i], y0[2 * i + 1]) : cd(y0[i]));
        for (std::size_t e = 0; e < v.idx.size(); ++e)
          if (static_cast<std::size_t>(v.idx[e]) == i) seq += alpha * v.xv(e);
        host_differs += !same_bits(seq, got);
      }
      EXPECT_GT(outside_nobeta, 100) << "beta left out must fall outside the bound";
      EXPECT_GT(host_differs, 0) << "the bit-exact check tells one rounding from two";
      EXPECT_GT(rep.profile.busy_ns[static_cast<int>(trn::Engine::tensor)], 0.0);
      EXPECT_EQ(rep.profile.host_steps, 2) << "exponents and fold around one launch";
      EXPECT_NE(rep.plan.find("slice-pair"), std::string::npos) << rep.plan;
      EXPECT_GT(rep.matmuls, 0);
    }
}

// beta != 1: the positions holding no entry are scaled on GpSimdE (software fp64, one custom operator
// per chunk), still the exact value rounded once (the bits the one-term rows of the segmented kernel
// gave): re = (2^27 + 1)(2^27 - 1) - 2^-1000 2^-10 = 2^54 - 1 - 2^-1010 lies just below a tie, so it
// rounds to 2^54 - 2 (dropping the tiny product gives the tie and the even 2^54): the sticky bit.
TEST(SpVecFp64, AxpbyPositionsWithoutEntriesScaledOnGpSimdE) {
  Vecs v;
  v.cx = true;
  v.size = 3;
  v.idx = {1};
  v.x = {0.5, 0.25};
  v.y = {0x1p27 + 1, 0x1p-1000, 1.0, 2.0, -0.0, 0.0};
  const cd alpha(1.0, 0.0), beta(0x1p27 - 1, 0x1p-10);
  sp::CallReport rep;
  rep.plans_wanted = true;
  sp::axpby(settings(), alpha, v.ref(), beta, v.y.data(), &rep);
  EXPECT_EQ(v.y[0], 0x1p54 - 2);
  EXPECT_EQ(v.y[1], (0x1p27 + 1) * 0x1p-10);  // + 2^-1000 (2^27 - 1): far below half an ulp
  EXPECT_EQ(v.y[2], (0x1p27 - 1) * 1.0 - 0x1p-10 * 2.0 + 0.5);
  EXPECT_EQ(v.y[3], (0x1p27 - 1) * 2.0 + 0x1p-10 * 1.0 + 0.25);
  // y = -0 + 0 i: re's products (-0)(2^27 - 1) and (0)(-2^-10) are both -0: -0; im's (-0)(2^-10) and
  // (0)(2^27 - 1) differ in sign: +0 (IEEE's exact zero sum).
  EXPECT_EQ(v.y[4], 0.0);
  EXPECT_TRUE(std::signbit(v.y[4]));
  EXPECT_EQ(v.y[5], 0.0);
  EXPECT_FALSE(std::signbit(v.y[5]));
  EXPECT_NE(rep.plan.find("GpSimdE"), std::string::npos) << rep.plan;
  EXPECT_GT(rep.profile.busy_ns[static_cast<int>(trn::Engine::gpsimd)], 0.0);
}

// The GpSimdE scale pass (positions without an entry) and the segmented kernel's fold (positions with
// one) round the same exact value the same way: y holds each value twice, at position i (no entry) and
// at n + i (an entry whose value is 0: alpha 0 adds an exact zero), and both copies must come out with
// the same bits -- products across fp64's normal range, its subnormal range (the kernel rounds there
// twice, the pass must too), near the smallest normal, and, complex, sums of two products whose
// rounding needs the sticky bits. (Planted: the scale pass's sticky bit dropped -> fails; a ldexp
// replaced by a product with 2^E outside the normal powers -> fails on the deep subnormal values.)
TEST(SpVecFp64, AxpbyScalePassGivesTheKernelRowsBits) {
  for (bool cx : {false, true}) {
    const std::int64_t n = 6000;
    std::mt19937_64 g(29 + (cx ? 1 : 0));
    std::uniform_real_distribution<double> d(0.5, 1.0);
    std::uniform_int_distribution<int> ex(-1080, -940);  // beta y from 2^-1080 (below the subnormals' ulp) to normal
    Vecs v;
    v.cx = cx;
    v.size = 2 * n;
    const std::size_t w = cx ? 2 : 1;
    v.y.resize(static_cast<std::size_t>(2 * n) * w);
    for (std::size_t q = 0; q < static_cast<std::size_t>(n); ++q) {
      const int scale = q % 3 == 0 ? 0 : ex(g) + 60;  // two values in three: beta y near or below fp64's normal range
      for (std::size_t part = 0; part < w; ++part) {
        // full 53-bit significands (bit patterns, not d(g)'s), either sign
        const double m = std::ldexp(static_cast<double>((g() >> 11) | (std::uint64_t{1} << 52)), -52) * (g() % 2 ? -1 : 1);
        const std::size_t k = q * w + part;
        v.y[k] = v.y[k + static_cast<std::size_t>(n) * w] = q % 7 == 0 ? d(g) : std::ldexp(m, scale);
      }
    }
    for (std::int64_t i = n; i < 2 * n; ++i) v.idx.push_back(static_cast<std::int32_t>(i));
    v.x.assign(v.idx.size() * w, 0.0);
    const double b = std::ldexp(0.7071067811865476, -60);  // a full significand: beta y lands 2^-60 lower
    const cd beta = cx ? cd(b, -std::ldexp(0.8164965809277261, -61)) : cd(b);
    sp::axpby(settings(), cx ? cd(0.5, 0.25) : cd(0.5), v.ref(), beta, v.y.data());
    std::size_t subnormal = 0;
    for (std::size_t k = 0; k < static_cast<std::size_t>(n) * w; ++k) {
      const double pass = v.y[k], kernel = v.y[k + static_cast<std::size_t>(n) * w];
      ASSERT_EQ(std::memcmp(&pass, &kernel, 8), 0) << (cx ? "C_64F" : "R_64F") << " value " << k << ": " << pass << " vs " << kernel;
      subnormal += std::fpclassify(pass) == FP_SUBNORMAL;
    }
    EXPECT_GT(subnormal, static_cast<std::size_t>(n) * w / 10);  // the range the test is about is covered
  }
  // Exact ties broken by a far smaller second product (the sticky bits): beta = 1.5 + i, y = (1 + k 2^-52,
  // +-2^-e): re = 1.5 (1 + k 2^-52) -+ 2^-e is a half-ulp tie for odd k, decided by the sign of the
  // 2^-e term alone (round to even would give the other side for one of the two signs).
  Vecs t;
  t.cx = true;
  const std::int64_t ties = 16;
  t.size = 2 * ties;
  t.y.resize(static_cast<std::size_t>(4 * ties));
  for (std::int64_t q = 0; q < ties; ++q) {
    const double re = 1.0 + static_cast<double>(2 * (q / 2) + 1) * 0x1p-52, im = std::ldexp(q % 2 ? -1.0 : 1.0, -70 - static_cast<int>(q));
    for (const std::int64_t at : {q, ties + q}) {
      t.y[static_cast<std::size_t>(2 * at)] = re;
      t.y[static_cast<std::size_t>(2 * at + 1)] = im;
    }
    t.idx.push_back(static_cast<std::int32_t>(ties + q));
  }
  t.x.assign(t.idx.size() * 2, 0.0);
  sp::axpby(settings(), cd(0.5, 0.0), t.ref(), cd(1.5, 1.0), t.y.data());
  for (std::size_t k = 0; k < static_cast<std::size_t>(2 * ties); ++k)
    ASSERT_EQ(std::memcmp(&t.y[k], &t.y[k + static_cast<std::size_t>(2 * ties)], 8), 0) << "tie value " << k;
}

// beta == 1: the positions outside x are left as they are (1 y = y, a NaN payload included) and
// only x's positions go through the kernel, still the exact value rounded once.
TEST(SpVecFp64, AxpbyBetaOneTouchesOnlyXsPositions) {
  for (bool cx : {false, true}) {
    Vecs v = make_vecs(cx, 5000, 0.05, 3, 17 + (cx ? 1 : 0));
    const std::uint64_t payload = 0x7ff4000000000123ull;  // a NaN with a payload, outside x's positions
    std::size_t outside = 0;
    while (std::find(v.idx.begin(), v.idx.end(), static_cast<std::int32_t>(outside)) != v.idx.end()) ++outside;
    std::memcpy(&v.y[cx ? 2 * outside : outside], &payload, 8);
    const cd alpha = cx ? cd(0.7, -1.3) : cd(0.7);
    const AxpbyRef ref = axpby_reference(v, alpha, 1.0);
    const std::vector<double> y0 = v.y;
    sp::CallReport rep;
    sp::axpby(settings(), alpha, v.ref(), 1.0, v.y.data(), &rep);
    const std::size_t w = cx ? 2 : 1;
    for (std::size_t i = 0; i < static_cast<std::size_t>(v.size); ++i) {
      const bool held = std::find(v.idx.begin(), v.idx.end(), static_cast<std::int32_t>(i)) != v.idx.end();
      if (held) {
        ASSERT_TRUE(same_bits(v.yv(i), rounded(ref.exact[i]))) << i;
      } else {
        ASSERT_EQ(std::memcmp(&v.y[w * i], &y0[w * i], 8 * w), 0) << "position " << i << " must be untouched";
      }
    }
    EXPECT_EQ(rep.profile.host_steps, 2);
  }
}

TEST(SpVecFp64, RotCorrectlyRoundedInStorageOrder) {
  for (bool cx : {false, true})
    for (int dup : {0, 25}) {
      Vecs v = make_vecs(cx, 4000, 0.2, dup, 31 + static_cast<std::uint64_t>(dup) + (cx ? 100 : 0));
      const cd c = cx ? cd(0.6, 0.2) : cd(0.6), s = cx ? cd(-0.77, 0.3) : cd(0.8);
      Vecs want = v, flipped = v;  // flipped: the rotation's other sign (x' = c x - s y)
      std::vector<long double> bx(v.idx.size()), by(v.idx.size());
      for (std::size_t e = 0; e < v.idx.size(); ++e) {  // storage order: a duplicate sees its predecessor's y
        const auto i = static_cast<std::size_t>(v.idx[e]);
        const cd xv = want.xv(e), yv = want.yv(i);
        QC qx, qy, qf;
        add(qx, c, xv);
        add(qx, s, yv);
        add(qy, c, yv);
        add(qy, -s, xv);
        add(qf, c, xv);
        add(qf, -s, yv);
        const cd nx = rounded(qx), ny = rounded(qy);
        bx[e] = kU * std::abs(as_ld(qx)) * std::sqrt(2.0L) + ld_slack(std::abs(cld(c)) * std::abs(cld(xv)) + std::abs(cld(s)) * std::abs(cld(yv)), 4);
        flipped.x[cx ? 2 * e : e] = rounded(qf).real();
        if (cx) {
          want.x[2 * e] = nx.real();
          want.x[2 * e + 1] = nx.imag();
          want.y[2 * i] = ny.real();
          want.y[2 * i + 1] = ny.imag();
        } else {
          want.x[e] = nx.real();
          want.y[i] = ny.real();
        }
      }
      sp::CallReport rep;
      sp::rot(settings(), c, s, v.ref(), v.y.data(), &rep);
      EXPECT_EQ(v.x, want.x) << "cx " << cx << " dup " << dup;
      EXPECT_EQ(v.y, want.y) << "cx " << cx << " dup " << dup;
      int outside = 0;
      for (std::size_t e = 0; e < v.idx.size(); ++e)
        outside += std::abs(static_cast<long double>(flipped.x[cx ? 2 * e : e]) - static_cast<long double>(v.x[cx ? 2 * e : e])) > bx[e];
      EXPECT_GT(outside, static_cast<int>(v.idx.size()) / 2) << "the wrong sign must fall outside the bound";
      EXPECT_EQ(rep.profile.host_steps % 2, 0);
      EXPECT_GE(rep.profile.host_steps, dup > 0 ? 4 : 2) << "duplicates: one launch per duplicate-free round";
    }
}

TEST(SpVecFp64, SpvvCorrectlyRoundedAndConjugated) {
  for (bool cx : {false, true}) {
    Vecs v = make_vecs(cx, 20000, 0.25, 0, 77 + (cx ? 1 : 0));
    QC q, plain;
    long double mag = 0;
    for (std::size_t e = 0; e < v.idx.size(); ++e) {
      const cd yv = v.yv(static_cast<std::size_t>(v.idx[e]));
      add(q, std::conj(v.xv(e)), yv);
      add(plain, v.xv(e), yv);
      mag += std::abs(cld(v.xv(e))) * std::abs(cld(yv));
    }
    sp::CallReport rep;
    const sp::Scalar r = sp::spvv(settings(), cx ? sp::GOp::C : sp::GOp::N, v.ref(), v.y.data(), &rep);
    const cd got(r.real(), r.imag());
    // The quad sum of ~5000 exact products is off by <= 5000 * 2^-113 mag: far below half an ulp
    // unless the result cancels to 2^-50 mag, which these draws do not.
    EXPECT_TRUE(same_bits(got, rounded(q))) << got << " vs " << rounded(q);
    const long double bound = kU * std::abs(as_ld(q)) * std::sqrt(2.0L);
    EXPECT_LE(std::abs(cld(got) - as_ld(q)), bound);
    EXPECT_LT(bound, 1e-10L * mag);
    if (cx) {
      EXPECT_GT(std::abs(cld(got) - as_ld(plain)), bound) << "a missed conjugate must fall outside the bound";
    }
    EXPECT_EQ(rep.profile.host_steps, 2);
    EXPECT_GT(rep.profile.busy_ns[static_cast<int>(trn::Engine::tensor)], 0.0);
  }
}

// C99's results for the special values: NaN in, NaN out; Inf propagates with its sign; 0 * Inf is
// NaN; -0.25 * (+0) is -0; an exact zero of mixed signs is +0.
TEST(SpVecFp64, NanInfAndSignedZerosAsC99) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> y = {1.0, inf, nan, 0.0, 2.0, -inf, 3.0, 0.5};
  std::vector<double> x = {2.0, 1.0, 1.0, nan, inf, 4.0};
  std::vector<std::int32_t> idx = {0, 1, 2, 4, 5, 6};
  sp::SpVecRef ref{.size = 8, .nnz = 6, .indices = idx.data(), .values = x.data(), .value = sp::Value::f64};
  const double alpha = 0.5, beta = -0.25;
  std::vector<double> want(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) want[i] = beta * y[i];
  for (std::size_t e = 0; e < idx.size(); ++e) want[static_cast<std::size_t>(idx[e])] += alpha * x[e];
  sp::axpby(settings(), alpha, ref, beta, y.data(), nullptr);
  for (std::size_t i = 0; i < y.size(); ++i) {
    EXPECT_EQ(std::isnan(y[i]), std::isnan(want[i])) << i;
    if (!std::isnan(want[i])) {
      EXPECT_TRUE(same_bits(y[i], want[i])) << i << ": " << y[i] << " vs " << want[i];
    }
  }
  EXPECT_TRUE(std::signbit(y[3]) && y[3] == 0.0);  // -0.25 * (+0), no entry at 3
  EXPECT_EQ(y[1], -inf);
  EXPECT_EQ(y[5], inf);
  EXPECT_TRUE(std::isnan(y[4]));  // 0.5 * NaN
  // Signed zeros: -0.25 * (+0) = -0 (no x entry); -0.25 * 2 + 0.5 * 1 = +0 (exact zero, mixed signs).
  std::vector<double> yz = {0.0, 2.0};
  std::vector<double> xz = {1.0};
  std::vector<std::int32_t> iz = {1};
  sp::SpVecRef rz{.size = 2, .nnz = 1, .indices = iz.data(), .values = xz.data(), .value = sp::Value::f64};
  sp::axpby(settings(), 0.5, rz, -0.25, yz.data(), nullptr);
  EXPECT_TRUE(std::signbit(yz[0]) && yz[0] == 0.0);
  EXPECT_TRUE(!std::signbit(yz[1]) && yz[1] == 0.0);
  // Complex: an Inf part propagates through the real formula.
  std::vector<cd> yc = {cd(inf, 0.0), cd(1.0, 2.0)};
  std::vector<cd> xc = {cd(1.0, 1.0)};
  std::vector<std::int32_t> ic = {1};
  sp::SpVecRef rc{.size = 2, .nnz = 1, .indices = ic.data(), .values = xc.data(), .value = sp::Value::c64};
  sp::axpby(settings(), cd(1.0, 0.0), rc, cd(2.0, 0.0), yc.data(), nullptr);
  EXPECT_EQ(yc[0].real(), inf);
  EXPECT_TRUE(same_bits(yc[1], cd(3.0, 5.0)));
  // SpVV meeting a NaN is NaN; Rot with an Inf y gives the C99 signs.
  std::vector<double> yr = {inf, 1.0};
  std::vector<double> xr = {1.0};
  std::vector<std::int32_t> ir = {0};
  sp::SpVecRef rr{.size = 2, .nnz = 1, .indices = ir.data(), .values = xr.data(), .value = sp::Value::f64};
  sp::rot(settings(), 0.5, 0.5, rr, yr.data(), nullptr);
  EXPECT_EQ(xr[0], inf);   // 0.5 * 1 + 0.5 * Inf
  EXPECT_EQ(yr[0], inf);   // 0.5 * Inf - 0.5 * 1
  std::vector<double> yn = {nan, 1.0};
  EXPECT_TRUE(std::isnan(sp::spvv(settings(), sp::GOp::N, rr, yn.data()).real()));
}

// beta y and alpha x each overflow, their exact sum does not: the engines return it (C99's
// expression would give Inf - Inf = NaN; docs/trnsparse.md states the choice).
TEST(SpVecFp64, FiniteInputsRoundOnlyTheExactResult) {
  const double big = std::ldexp(1.0, 424);
  std::vector<double> y = {big};
  std::vector<double> x = {big * (1 - 0x1p-52)};
  std::vector<std::int32_t> idx = {0};
  sp::SpVecRef ref{.size = 1, .nnz = 1, .indices = idx.data(), .values = x.data(), .value = sp::Value::f64};
  const double k = std::ldexp(1.0, 600);
  sp::axpby(settings(), -k, ref, k, y.data(), nullptr);
  EXPECT_EQ(y[0], std::ldexp(1.0, 972));
}

TEST(SpVecFp64, SameBitsForOneAndTwoThreadsAndCores) {
  for (bool cx : {false, true}) {
    Vecs a = make_vecs(cx, 6000, 0.2, 5, 9), b = a, c = a;
    const cd alpha = cx ? cd(0.5, 0.25) : cd(0.5), beta = -2.0;
    sp::axpby(settings(1, 1), alpha, a.ref(), beta, a.y.data(), nullptr);
    sp::axpby(settings(2, 1), alpha, b.ref(), beta, b.y.data(), nullptr);
    sp::axpby(settings(2, 2), alpha, c.ref(), beta, c.y.data(), nullptr);
    EXPECT_EQ(a.y, b.y);
    EXPECT_EQ(a.y, c.y);
    sp::rot(settings(1, 1), 0.6, 0.8, a.ref(), a.y.data(), nullptr);
    sp::rot(settings(2, 2), 0.6, 0.8, c.ref(), c.y.data(), nullptr);
    EXPECT_EQ(a.x, c.x);
    EXPECT_EQ(a.y, c.y);
    const sp::Scalar r1 = sp::spvv(settings(1, 1), sp::GOp::N, a.ref(), a.y.data());
    const sp::Scalar r2 = sp::spvv(settings(2, 2), sp::GOp::N, a.ref(), a.y.data());
    EXPECT_EQ(r1, r2);
  }
}

// A lower bidiagonal n x n (n levels): SpSV R_64F makes 2 host visits per level (exponents; fold +
// divide), and y solves the system: each y_i = (alpha b_i - l_i y_{i-1}) / d_i with its numerator
// rounded once and one IEEE divide, checked bit for bit against that recurrence.
TEST(SpsvFp64, DivideRunsInTheFoldVisitTwoHostStepsPerLevel) {
  const std::int64_t n = 6;
  std::vector<std::int32_t> off{0}, col;
  std::vector<double> val;
  for (std::int64_t i = 0; i < n; ++i) {
    if (i > 0) {
      col.push_back(static_cast<std::int32_t>(i - 1));
      val.push_back(0.3 + 0.1 * static_cast<double>(i));
    }
    col.push_back(static_cast<std::int32_t>(i));
    val.push_back(1.7 + 0.2 * static_cast<double>(i));
    off.push_back(static_cast<std::int32_t>(col.size()));
  }
  const sp::SparseRef a{sp::SparseRef::Format::csr, n, n, static_cast<std::int64_t>(col.size()), off.data(), col.data(),
                        val.data(), sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, sp::Value::f64};
  const sp::TriangularAnalysis t = sp::analyze_triangular(a, true, false, sp::GOp::N);
  ASSERT_EQ(t.levels(), n);
  std::vector<double> b{1.0, -2.0, 0.5, 3.25, -1.5, 0.75}, y(n);
  const double alpha = 1.25;
  sp::CallReport rep;
  sp::triangular_solve(settings(), t, val.data(), nullptr, alpha, sp::GOp::N, {b.data(), sp::Value::f64, n, 1, n, sp::Layout::col_major},
                       {y.data(), sp::Value::f64, n, 1, n, sp::Layout::col_major}, &rep);
  EXPECT_EQ(rep.profile.host_steps, 2 * n) << "exponents and fold + divide per level";
  double prev = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::size_t d = i == 0 ? 0 : static_cast<std::size_t>(2 * i);  // the diagonal's slot in val
    quad r = static_cast<quad>(alpha) * b[static_cast<std::size_t>(i)];
    if (i > 0) r -= static_cast<quad>(val[d - 1]) * prev;
    prev = static_cast<double>(r) / val[d];
    EXPECT_EQ(y[static_cast<std::size_t>(i)], prev) << "row " << i;
  }
}

}  // namespace
