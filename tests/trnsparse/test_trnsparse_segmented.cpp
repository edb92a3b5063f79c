// The segmented slice-pair SpMV (trnsparse/src/segmented_spmv.hpp, s11/spseg): R_64F / C_64F
// y = alpha op(A) x + beta y as one launch per call. Two-sided checks against exact references:
// rows built to cancel (condition numbers up to ~1e15) whose exact products are computed in
// __int128 fixed point, so that "rounded once" (|y - p| <= 2.02 u |p|) is tested, which a plain fp64
// dot (error ~ u sum |a x|) fails; the structure of the call (two host round trips, TensorE segment
// sums, one matmul per tile); Inf/NaN propagation; bits for any thread / core count and target.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "trn/sparse/generic.hpp"

namespace {

namespace sp = trn::sparse;
using i128 = __int128;
constexpr long double kU = 0x1p-53L;
constexpr int kFrac = 24;  // the exact references are integers in units of 2^-24

// x: integers below 2^20 times 2^e, e in [-12, 12]; x[0] = 1 (the cancelling entry's column).
std::vector<double> make_x(int K, std::mt19937_64& g) {
  std::uniform_int_distribution<int> mant(-(1 << 20) + 1, (1 << 20) - 1), ex(-12, 12);
  std::vector<double> x(static_cast<std::size_t>(K));
  for (double& v : x) v = std::ldexp(static_cast<double>(mant(g)), ex(g));
  x[0] = 1.0;
  return x;
}

i128 units(double v) {  // v 2^24 as an integer (asserted exact)
  const double s = std::ldexp(v, kFrac);
  EXPECT_EQ(s, std::trunc(s)) << v;
  EXPECT_LT(std::fabs(s), 0x1p120);
  return static_cast<i128>(static_cast<long double>(s));
}

// M rows over K columns, row i with len(i) random entries in columns 1..K-1 plus a cancelling entry in
// column 0 that leaves a small exact residual; `p` gets the exact op(A) x in units of 2^-24.
struct CancellingRows {
  int M, K;
  std::vector<int> off{0}, col;
  std::vector<double> val;
  std::vector<i128> p;
  CancellingRows(int m, const std::vector<double>& x, std::uint64_t seed, int long_every) : M(m), K(static_cast<int>(x.size())) {
    std::mt19937_64 g(seed);
    std::uniform_int_distribution<int> mant(-(1 << 20) + 1, (1 << 20) - 1), ex(-12, 12), bump(-100, 100);
    for (int i = 0; i < M; ++i) {
      const int len = i % long_every == 0 ? 200 + i % 97 : i % 7;  // long rows span tiles; short ones fill segments
      std::vector<int> cols;
      for (int j = 1; j < K && static_cast<int>(cols.size()) < len; ++j)
        if (g() % static_cast<unsigned>(std::max(1, (K - 1) / std::max(len, 1))) == 0) cols.push_back(j);
      std::vector<double> vals;
      i128 s = 0;
      for (int c : cols) {
        vals.push_back(std::ldexp(static_cast<double>(mant(g)), ex(g)));
        s += units(vals.back()) * units(x[static_cast<std::size_t>(c)]) >> kFrac;  // both multiples of 2^-24: exact
      }
      if (i % 5 != 4) {  // the cancelling entry (x[0] = 1), off by a few 2^-20; every fifth row does not cancel
        const double a0 = -static_cast<double>(static_cast<long double>(s) * 0x1p-24L) + std::ldexp(static_cast<double>(bump(g)), -20);
        cols.insert(cols.begin(), 0);
        vals.insert(vals.begin(), a0);
        s += units(a0);
      }
      col.insert(col.end(), cols.begin(), cols.end());
      val.insert(val.end(), vals.begin(), vals.end());
      off.push_back(static_cast<int>(col.size()));
      p.push_back(s);
    }
  }
  // Requires every product a x to be a multiple of 2^-24: a, x multiples of 2^-12 (asserted via units).
};

long double exact(i128 v) { return static_cast<long double>(v) * 0x1p-24L; }

// |y - p| <= 2.02 u |p| (alpha 1, beta 0: the one rounding of the fold) for every row; returns the worst ratio.
double check_rounded_once(const std::vector<double>& y, const std::vector<i128>& p, const char* what) {
  long double worst = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const long double want = exact(p[i]), err = std::fabs(static_cast<long double>(y[i]) - want);
    const long double bound = 2.02L * kU * std::fabs(want) * (1 + 0x1p-20L);
    EXPECT_LE(err, bound) << what << " row " << i << " want " << static_cast<double>(want) << " got " << y[i];
    if (want != 0) worst = std::max(worst, err / (kU * std::fabs(want)));
  }
  return static_cast<double>(worst);
}

sp::SparseRef csr_ref(const CancellingRows& a, void* values, sp::Value v) {
  return {sp::SparseRef::Format::csr, a.M, a.K, static_cast<std::int64_t>(a.col.size()), a.off.data(), a.col.data(), values,
          sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, v};
}

// The same arrays read as the CSC of A^T (K x M): op T gives A back.
sp::SparseRef csc_of_transpose(const CancellingRows& a, void* values, sp::Value v) {
  sp::SparseRef r = csr_ref(a, values, v);
  r.format = sp::SparseRef::Format::csc;
  r.rows = a.K;
  r.cols = a.M;
  return r;
}

TEST(SegmentedSpmv, Fp64RowsThatCancelAreRoundedOnceCsrAndCscTransposed) {
  std::mt19937_64 g(3);
  const std::vector<double> x = make_x(700, g);
  CancellingRows a(260, x, 17, 23);
  // The condition numbers reached: sum |a x| / |p| up to ~1e15 (a plain fp64 dot loses everything there).
  long double cond = 0;
  for (int i = 0; i < a.M; ++i) {
    long double mag = 0;
    for (int e = a.off[static_cast<std::size_t>(i)]; e < a.off[static_cast<std::size_t>(i) + 1]; ++e)
      mag += std::fabs(static_cast<long double>(a.val[static_cast<std::size_t>(e)]) * x[static_cast<std::size_t>(a.col[static_cast<std::size_t>(e)])]);
    if (a.p[static_cast<std::size_t>(i)] != 0) cond = std::max(cond, mag / std::fabs(exact(a.p[static_cast<std::size_t>(i)])));
  }
  EXPECT_GT(cond, 1e12L);
  for (const bool csc : {false, true}) {
    std::vector<double> y(static_cast<std::size_t>(a.M), 7.0);
    sp::CallReport r;
    const sp::SparseRef A = csc ? csc_of_transpose(a, a.val.data(), sp::Value::f64) : csr_ref(a, a.val.data(), sp::Value::f64);
    sp::spmv_host(sp::Settings{}, csc ? sp::GOp::T : sp::GOp::N, 1.0, A, x.data(), 0.0, y.data(), &r);
    const double worst = check_rounded_once(y, a.p, csc ? "CSC op T" : "CSR op N");
    EXPECT_NE(r.plan.find("segmented slice pairs"), std::string::npos) << r.plan;
    EXPECT_EQ(r.profile.host_steps, 2) << "slice and fold: two round trips per call, not per row group";
    EXPECT_GT(r.profile.busy_ns[static_cast<int>(trn::Engine::tensor)], 0.0);
    EXPECT_GT(r.profile.busy_ns[static_cast<int>(trn::Engine::vector)], 0.0);
    EXPECT_EQ(r.matmuls, r.blocks) << "one TensorE segment sum per tile";
    EXPECT_GE(r.blocks, static_cast<std::int64_t>(a.col.size() + 127) / 128);
    std::printf("cond %.2Le, worst |y - p| / (u |p|) %.3f; %s\n", cond, worst, r.plan.c_str());
  }
}

// C_64F: A = A1 + i A2 with both parts cancelling against the same real x, y = A x, op N on CSR and
// op C on the CSC of conj(A)^T: each part of y rounded once.
TEST(SegmentedSpmv, Complex64PartsThatCancelAreRoundedOnceOpNAndOpC) {
  std::mt19937_64 g(5);
  const std::vector<double> xr = make_x(500, g);
  CancellingRows re(150, xr, 29, 31), im(150, xr, 29, 31);  // same pattern and seed ...
  for (double& v : im.val) v = std::ldexp(v, -3);           // ... imaginary parts 2^-3 of the real ones (exact)
  for (i128& v : im.p) v = v >> 3;
  for (std::size_t i = 0; i < im.p.size(); ++i) EXPECT_EQ(im.p[i] << 3, re.p[i]) << "2^-3 scaling stays exact";
  std::vector<std::complex<double>> val(re.val.size()), x(xr.size());
  for (std::size_t e = 0; e < val.size(); ++e) val[e] = {re.val[e], im.val[e]};
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = {xr[k], 0.0};
  for (const bool op_c : {false, true}) {
    std::vector<std::complex<double>> vals = val;
    if (op_c)
      for (auto& v : vals) v = std::conj(v);
    std::vector<std::complex<double>> y(static_cast<std::size_t>(re.M));
    sp::CallReport r;
    const sp::SparseRef A = op_c ? csc_of_transpose(re, vals.data(), sp::Value::c64) : csr_ref(re, vals.data(), sp::Value::c64);
    sp::spmv_host(sp::Settings{}, op_c ? sp::GOp::C : sp::GOp::N, 1.0, A, x.data(), 0.0, y.data(), &r);
    std::vector<double> yr, yi;
    for (const auto& v : y) {
      yr.push_back(v.real());
      yi.push_back(v.imag());
    }
    check_rounded_once(yr, re.p, op_c ? "op C real part" : "op N real part");
    check_rounded_once(yi, im.p, op_c ? "op C imaginary part" : "op N imaginary part");
    EXPECT_EQ(r.profile.host_steps, 2);
  }
}

// SpMM (n = 3 <= kSegmentedMaxColumns): column c of X is x 2^-c (exact), so column c of A X is p 2^-c
// exactly; every column rounded once, in one launch (two host steps), C row-major.
TEST(SegmentedSpmv, Fp64SpmmColumnsThatCancelAreRoundedOnce) {
  std::mt19937_64 g(13);
  const std::vector<double> x = make_x(400, g);
  CancellingRows a(120, x, 53, 17);
  for (const int n : {3, 40}) {  // 40 > 16: wide SpMM takes the segmented kernel too (s12/spdev), X sliced per column chunk
  std::vector<double> X(static_cast<std::size_t>(a.K * n)), Y(static_cast<std::size_t>(a.M * n), -1.0);
  for (int c = 0; c < n; ++c)
    for (int k = 0; k < a.K; ++k) X[static_cast<std::size_t>(c * a.K + k)] = std::ldexp(x[static_cast<std::size_t>(k)], -c);
  sp::CallReport r;
  sp::spmm_host(sp::Settings{}, sp::GOp::N, sp::GOp::N, 1.0, csr_ref(a, a.val.data(), sp::Value::f64),
                {X.data(), sp::Value::f64, a.K, n, a.K, sp::Layout::col_major}, 0.0,
                {Y.data(), sp::Value::f64, a.M, n, n, sp::Layout::row_major}, &r);
  for (int c = 0; c < n; ++c) {
    std::vector<double> yc;
    std::vector<i128> pc;
    for (int i = 0; i < a.M; ++i) {
      yc.push_back(std::ldexp(Y[static_cast<std::size_t>(i * n + c)], c));  // undo the exact 2^-c
      pc.push_back(a.p[static_cast<std::size_t>(i)]);
    }
    check_rounded_once(yc, pc, "SpMM column");
  }
  EXPECT_NE(r.plan.find("spmm plan"), std::string::npos) << r.plan;
  EXPECT_NE(r.plan.find("segmented slice pairs"), std::string::npos) << r.plan;
  EXPECT_EQ(r.profile.host_steps, 2);
  }
}

// alpha / beta, empty rows, Inf and NaN: y = alpha p + beta y with p exact-then-rounded; a row meeting
// Inf gives the IEEE result, the other rows are unaffected; beta = 0 never reads y (NaN there).
TEST(SegmentedSpmv, EpilogueEmptyRowsAndSpecialValues) {
  // A = [1 2 0; 0 0 0; 0 inf 3; 4 0 nan-free 5] (4 x 3), x = [1, 2, 3].
  const int off[5] = {0, 2, 2, 4, 6}, col[6] = {0, 1, 1, 2, 0, 2};
  double val[6] = {1, 2, INFINITY, 3, 4, 5};
  const double x[3] = {1, 2, 3};
  const sp::SparseRef A{sp::SparseRef::Format::csr, 4, 3, 6, off, col, val, sp::IndexType::i32, sp::IndexType::i32,
                        sp::IndexBase::zero, sp::Value::f64};
  double y[4] = {10, 20, 30, 40};
  sp::spmv_host(sp::Settings{}, sp::GOp::N, 0.5, A, x, -1.0, y, nullptr);
  EXPECT_EQ(y[0], 0.5 * 5 - 10);
  EXPECT_EQ(y[1], -20.0) << "an empty row: beta y";
  EXPECT_TRUE(std::isinf(y[2]) && y[2] > 0) << y[2];
  EXPECT_EQ(y[3], 0.5 * 19 - 40);
  double z[4] = {NAN, NAN, NAN, NAN};
  val[2] = 2;
  sp::spmv_host(sp::Settings{}, sp::GOp::N, 1.0, A, x, 0.0, z, nullptr);
  EXPECT_EQ(z[0], 5.0);
  EXPECT_EQ(z[1], 0.0) << "beta = 0: y not read";
  EXPECT_EQ(z[2], 13.0);
  EXPECT_EQ(z[3], 19.0);
}

// Same bits for 1 / 3 host threads, 1 / 2 cores, trn1 / trn2 on rows that span tiles.
TEST(SegmentedSpmv, BitsIndependentOfThreadsCoresAndTarget) {
  std::mt19937_64 g(9);
  const std::vector<double> x = make_x(600, g);
  CancellingRows a(200, x, 41, 13);
  auto run = [&](const sp::Settings& s) {
    std::vector<double> y(static_cast<std::size_t>(a.M), 0.5);
    sp::spmv_host(s, sp::GOp::N, 0.75, csr_ref(a, a.val.data(), sp::Value::f64), x.data(), -0.25, y.data(), nullptr);
    return y;
  };
  const std::vector<double> ref = run(sp::Settings{});
  for (auto [threads, cores, target] : {std::tuple{1, 1, trn::Generation::trn1}, std::tuple{3, 2, trn::Generation::trn1},
                                        std::tuple{2, 1, trn::Generation::trn2}}) {
    sp::Settings s;
    s.host_threads = threads;
    s.num_cores = cores;
    s.target = target;
    const std::vector<double> y = run(s);
    for (std::size_t i = 0; i < y.size(); ++i)
      ASSERT_EQ(std::bit_cast<std::uint64_t>(y[i]), std::bit_cast<std::uint64_t>(ref[i])) << threads << " threads, " << cores << " cores, row " << i;
  }
}

}  // namespace
