// The R_32F tridiagonal solve without pivoting on the engines (trnsparse/src/banded_engine.cpp):
// 300 systems (three programs, the last one partial) of 2500 rows (two chunks of rows), against the
// derived bound on the normwise backward error, computed in long double from the inputs (independent
// of the library): eta = |b - A x_hat|_inf / (|A|_inf |x_hat|_inf + |b|_inf) <= 3 gamma_7 (u = 2^-24,
// diagonally dominant A; docs/trnsparse.md). Also: the bits for 1 / 2 host threads and 1 / 2 cores,
// the zero-pivot rule (system and row reported, nothing written) and the trace (no host step).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "trn/sparse/banded.hpp"

namespace {

namespace sp = trn::sparse;

constexpr std::int64_t kM = 2500, kCount = 300;

// Interleaved systems (element i of system s at i * count + s), diagonally dominant by rows.
struct Interleaved {
  std::vector<float> dl, d, du, x;
  Interleaved() : dl(kM * kCount), d(kM * kCount), du(kM * kCount), x(kM * kCount) {
    std::mt19937 g(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (std::int64_t k = 0; k < kM * kCount; ++k) {
      dl[k] = u(g), du[k] = u(g), d[k] = u(g) + 3.0f, x[k] = 2.0f * u(g);
    }
    for (std::int64_t s = 0; s < kCount; ++s) {  // outside the matrix: never read
      dl[s] = std::nanf("");
      du[(kM - 1) * kCount + s] = std::nanf("");
    }
  }
  sp::BandedSystems view(std::vector<float>& rhs) const {
    sp::BandedSystems b;
    b.value = sp::Value::f32;
    b.m = kM, b.count = kCount;
    b.band = {dl.data(), d.data(), du.data()};
    b.elem_stride = kCount, b.sys_stride = 1;
    b.x = rhs.data();
    b.x_elem_stride = kCount, b.x_sys_stride = 1;
    return b;
  }
};

std::vector<float> solve(const Interleaved& S, int threads, int cores, sp::CallReport* r = nullptr) {
  sp::Settings s;
  s.host_threads = threads;
  s.num_cores = cores;
  std::vector<float> x = S.x;
  sp::banded_solve(s, "gtsvInterleavedBatch", sp::BandedAlgo::no_pivot, S.view(x), r);
  return x;
}

// The normwise backward error of system s in long double.
long double backward_error(const Interleaved& S, const std::vector<float>& xh, std::int64_t s) {
  auto at = [&](const std::vector<float>& v, std::int64_t i) { return static_cast<long double>(v[i * kCount + s]); };
  long double res = 0, an = 0, xn = 0, bn = 0;
  for (std::int64_t i = 0; i < kM; ++i) {
    long double ax = at(S.d, i) * at(xh, i), row = std::fabs(at(S.d, i));
    if (i > 0) ax += at(S.dl, i) * at(xh, i - 1), row += std::fabs(at(S.dl, i));
    if (i + 1 < kM) ax += at(S.du, i) * at(xh, i + 1), row += std::fabs(at(S.du, i));
    res = std::max(res, std::fabs(at(S.x, i) - ax));
    an = std::max(an, row), xn = std::max(xn, std::fabs(at(xh, i))), bn = std::max(bn, std::fabs(at(S.x, i)));
  }
  return res / (an * xn + bn);
}

TEST(BandedEngine, ThomasWithinTheFp32Bound) {
  const Interleaved S;
  sp::CallReport r;
  r.plans_wanted = true;
  const std::vector<float> x = solve(S, 1, 1, &r);
  const long double u = 0x1p-24L, bound = 3 * 7 * u / (1 - 7 * u);
  long double worst = 0;
  for (std::int64_t s = 0; s < kCount; ++s) worst = std::max(worst, backward_error(S, x, s));
  EXPECT_LE(worst, bound);
  std::printf("eta %.3Lg (bound %.3Lg, ratio %.3Lg), modeled %.1f us\n", worst, bound, worst / bound, r.profile.total_ns / 1e3);
  // fp32 arithmetic is what was measured: far above an fp64 elimination's 12 u64
  EXPECT_GT(worst, 12 * 0x1p-53L);
  EXPECT_EQ(r.profile.host_steps, 0);
  EXPECT_GT(r.profile.instructions[static_cast<int>(trn::Engine::vector)], 0);
  EXPECT_NE(r.plan.find("tensor_tensor_scan"), std::string::npos) << r.plan;
}

TEST(BandedEngine, SameBitsForThreadsAndCores) {
  const Interleaved S;
  const std::vector<float> ref = solve(S, 1, 1);
  for (auto [threads, cores] : {std::pair{2, 1}, std::pair{1, 2}, std::pair{2, 2}}) {
    const std::vector<float> got = solve(S, threads, cores);
    EXPECT_EQ(std::memcmp(got.data(), ref.data(), ref.size() * sizeof(float)), 0) << threads << " threads, " << cores << " cores";
  }
}

// dl and d of row 2100 of system 130 set to 0: the pivot of that row is exactly 0 (second program,
// second chunk of rows). ZeroPivot names the system and row; the right-hand sides are untouched.
TEST(BandedEngine, ZeroPivotNamesSystemAndRow) {
  Interleaved S;
  S.dl[2100 * kCount + 130] = 0.0f;
  S.d[2100 * kCount + 130] = 0.0f;
  S.dl[40 * kCount + 200] = 0.0f;  // a later system's zero pivot in an earlier row: not the one reported
  S.d[40 * kCount + 200] = 0.0f;
  std::vector<float> x = S.x;
  try {
    sp::banded_solve(sp::Settings{}, "gtsvInterleavedBatch", sp::BandedAlgo::no_pivot, S.view(x));
    ADD_FAILURE() << "no ZeroPivot";
  } catch (const sp::ZeroPivot& e) {
    EXPECT_EQ(e.system, 130);
    EXPECT_EQ(e.row, 2100);
  }
  EXPECT_EQ(std::memcmp(x.data(), S.x.data(), x.size() * sizeof(float)), 0);
}

}  // namespace
