// trnblas Dtrsm / Ztrsm: the recursive diagonal blocks of trn/blas/trsm_fp64.hpp (Ozaki GEMM updates on
// TensorE, host substitution leaves of at most 32 columns). Every side/uplo/op/diag case against the
// two-sided componentwise bound of docs/trnblas.md "fp64 TRSM: recursive diagonal blocks", measured
// in long double here (independent of the library): 1.01 u < max BE <= gamma_{d+64} (complex:
// gamma_{2(d+64)}); the lower end fails if the solve ran in higher precision and rounded once. Also the leaf sizes 1..32 and odd orders, the
// plan's counts against the recorded host steps, bits equal for the default and an explicit leaf of
// 32 and for 1 / 2 host threads and cores, and NaN propagation only to the dependent rows.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "trn/blas/trsm_fp64.hpp"

namespace {

namespace tb = trn::blas;
using cd = std::complex<double>;
using LC = std::complex<long double>;
constexpr double kU64 = 0x1p-53;

constexpr double kLower = 1.01 * kU64;

double gamma(double k) { return k * kU64 / (1.0 - k * kU64); }

template <class T>
constexpr bool kCx = !std::is_same_v<T, double>;

long double mag(long double x) { return std::fabs(x); }
long double mag(const LC& z) { return std::fabs(z.real()) + std::fabs(z.imag()); }  // |re| + |im|

struct Case {
  tb::Side side;
  tb::Uplo uplo;
  int op;  // 0 N, 1 T, 2 C (complex only)
  tb::Diag diag;
  std::string name() const {
    return std::string(side == tb::Side::left ? "L" : "R") + (uplo == tb::Uplo::lower ? "L" : "U") + "NTC"[op] +
           (diag == tb::Diag::unit ? "U" : "N");
  }
};

std::vector<Case> every_case(bool complex_data) {
  std::vector<Case> v;
  for (auto side : {tb::Side::left, tb::Side::right})
    for (auto uplo : {tb::Uplo::lower, tb::Uplo::upper})
      for (int op = 0; op < (complex_data ? 3 : 2); ++op)
        for (auto diag : {tb::Diag::non_unit, tb::Diag::unit}) v.push_back({side, uplo, op, diag});
  return v;
}

template <class T>
T draw(std::mt19937_64& g) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  if constexpr (kCx<T>) {
    const double re = d(g);
    return T(re, d(g));
  } else {
    return d(g);
  }
}

// A triangle of order d (ld d + 2): off-diagonal entries scaled by 2/d, a diagonal of magnitude in
// [1, 2); NaN in the unreferenced triangle and on a unit diagonal (never read).
template <class T>
std::vector<T> triangle(std::int64_t d, bool lower, bool unit, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  const std::int64_t ld = d + 2;
  std::vector<T> a(static_cast<std::size_t>(ld * d), T(std::numeric_limits<double>::quiet_NaN()));
  for (std::int64_t j = 0; j < d; ++j)
    for (std::int64_t i = 0; i < d; ++i) {
      const T x = draw<T>(g);
      if (i == j && !unit) a[static_cast<std::size_t>(i + j * ld)] = x + (std::abs(x) > 0 ? x / std::abs(x) : T(1));
      else if (lower ? i > j : i < j) a[static_cast<std::size_t>(i + j * ld)] = x * (2.0 / double(d));
    }
  return a;
}

template <class T>
using Wide = std::conditional_t<kCx<T>, LC, long double>;

// op(A)(i, j) in long double (zeros outside the triangle, ones on a unit diagonal).
template <class T>
Wide<T> op_at(const std::vector<T>& a, std::int64_t d, const Case& c, std::int64_t i, std::int64_t j) {
  const std::int64_t r = c.op == 0 ? i : j, q = c.op == 0 ? j : i;  // (r, q) of the stored A
  if (c.uplo == tb::Uplo::lower ? r < q : r > q) return Wide<T>(0);
  if (r == q && c.diag == tb::Diag::unit) return Wide<T>(1);
  Wide<T> v(a[static_cast<std::size_t>(r + q * (d + 2))]);
  if constexpr (kCx<T>)
    if (c.op == 2) v = std::conj(v);
  return v;
}

struct Solved {
  double worst = 0;  // max componentwise backward error
  tb::CallReport report;
};

// X^ of op(A) X = alpha B (left) or X op(A) = alpha B (right), m x n, by the library (leaf 0: dtrsm /
// ztrsm themselves), and max over elements |alpha B - op(A) X^| / (|alpha B| + |op(A)| |X^|) in long
// double (complex: |re| + |im|). Returns X^ in x.
template <class T>
Solved solve_and_measure(const Case& c, std::int64_t m, std::int64_t n, std::int64_t leaf, std::uint64_t seed,
                      std::vector<T>& x, const tb::Settings& s = {}) {
  const bool left = c.side == tb::Side::left;
  const std::int64_t d = left ? m : n, ldb = m + 1;
  const std::vector<T> a = triangle<T>(d, c.uplo == tb::Uplo::lower, c.diag == tb::Diag::unit, seed);
  std::mt19937_64 g(seed + 1);
  std::vector<T> b(static_cast<std::size_t>(ldb * n), T(-777));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) b[static_cast<std::size_t>(i + j * ldb)] = draw<T>(g);
  T alpha;
  if constexpr (kCx<T>) alpha = T(0.75, -0.5);
  else alpha = -1.5;
  x = b;
  Solved r;
  if constexpr (kCx<T>) {
    const tb::COp op = c.op == 0 ? tb::COp::N : c.op == 1 ? tb::COp::T : tb::COp::C;
    if (leaf == 0) tb::ztrsm(s, c.side, c.uplo, op, c.diag, m, n, alpha, a.data(), d + 2, x.data(), ldb, &r.report);
    else tb::ztrsm_with_leaf(s, leaf, c.side, c.uplo, op, c.diag, m, n, alpha, a.data(), d + 2, x.data(), ldb, &r.report);
  } else {
    const tb::Op op = c.op == 0 ? tb::Op::N : tb::Op::T;
    if (leaf == 0) tb::dtrsm(s, c.side, c.uplo, op, c.diag, m, n, alpha, a.data(), d + 2, x.data(), ldb, &r.report);
    else tb::dtrsm_with_leaf(s, leaf, c.side, c.uplo, op, c.diag, m, n, alpha, a.data(), d + 2, x.data(), ldb, &r.report);
  }
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < ldb; ++i) {
      const T v = x[static_cast<std::size_t>(i + j * ldb)];
      if (i >= m) {
        EXPECT_EQ(v, T(-777)) << "padding row written";
        continue;
      }
      Wide<T> res = Wide<T>(alpha) * Wide<T>(b[static_cast<std::size_t>(i + j * ldb)]);
      long double scale = mag(res);
      for (std::int64_t k = 0; k < d; ++k) {
        const Wide<T> p = left ? op_at(a, d, c, i, k) * Wide<T>(x[static_cast<std::size_t>(k + j * ldb)])
                               : Wide<T>(x[static_cast<std::size_t>(i + k * ldb)]) * op_at(a, d, c, k, j);
        res -= p;
        scale += mag(p);
      }
      if (scale > 0) r.worst = std::max(r.worst, double(mag(res) / scale));
    }
  return r;
}

std::int64_t named_steps(const tb::CallReport& r, const std::string& name, double* flops) {
  std::int64_t steps = 0;
  *flops = 0;
  for (const trn::Instruction& ins : r.trace.instructions)
    if (ins.opcode == trn::Opcode::host_compute && trn::host_step_name(ins.host_label) == name) {
      ++steps;
      *flops += ins.declared_cycles;  // a host step's declared flops
    }
  return steps;
}

template <class T>
void every_case_two_sided(std::int64_t order, std::int64_t nrhs, std::uint64_t seed) {
  for (const Case& c : every_case(kCx<T>)) {
    SCOPED_TRACE(c.name());
    const bool left = c.side == tb::Side::left;
    const std::int64_t m = left ? order : nrhs, n = left ? nrhs : order;
    std::vector<T> x;
    const Solved r = solve_and_measure<T>(c, m, n, 0, seed++, x);
    // Complex: each complex product or division is a few real roundings per part (|re| + |im|
    // measure): twice the real count covers them (docs/trnblas.md).
    const double bound = gamma((kCx<T> ? 2.0 : 1.0) * double(order + 64));
    EXPECT_LE(r.worst, bound);
    // The exact solution rounded once to fp64 has a backward error of at most u (1 + 2^-10) (each
    // |x^_k - x_k| <= u |x^_k| / (1 - u)): above that, the solve really rounded in fp64 on its way.
    EXPECT_GT(r.worst, kLower) << "not below one fp64 rounding: the solve ran in fp64";
    const tb::Fp64TrsmPlan p = tb::plan_fp64_trsm(order, nrhs, kCx<T>);
    double flops = 0;
    EXPECT_EQ(named_steps(r.report, kCx<T> ? "trnblas.ztrsm.diag_solve" : "trnblas.dtrsm.diag_solve", &flops), p.leaves);
    EXPECT_LE(flops, (kCx<T> ? 4.0 : 1.0) * tb::kFp64TrsmLeaf * double(order * nrhs)) << "O(32 d nrhs) host flops";
    // The updates on an engine: TensorE (the Ozaki scheme) or GpSimdE (small products as Dot2).
    EXPECT_GT(r.report.profile.instructions[static_cast<int>(trn::Engine::tensor)] +
                  r.report.profile.instructions[static_cast<int>(trn::Engine::gpsimd)],
              0)
        << "updates on TensorE or GpSimdE";
    EXPECT_NE(r.report.plan.find("leaf 32 columns"), std::string::npos) << r.report.plan;
    std::printf("[%s %s] order %lld nrhs %lld: max backward error %.2e (bound %.2e, lower %.2e)\n",
                kCx<T> ? "ztrsm" : "dtrsm", c.name().c_str(), static_cast<long long>(order),
                static_cast<long long>(nrhs), r.worst, bound, kLower);
  }
}

TEST(TrsmFp64, DtrsmEveryCaseWithinTheTwoSidedBound) {
  every_case_two_sided<double>(150, 7, 31);  // 5 leaves (32 + 32 | 32 + 54 = 32 + 22): depth 3
}

TEST(TrsmFp64, ZtrsmEveryCaseWithinTheTwoSidedBound) {
  every_case_two_sided<cd>(70, 5, 61);  // 3 leaves (32 | 38 = 32 + 6)
}

// Leaves of 1 .. 32 columns on odd orders: the same bound, leaves = ceil(d / leaf), and the default
// call bit for bit dtrsm_with_leaf(32).
TEST(TrsmFp64, EveryLeafSizeAndOddOrders) {
  for (const std::int64_t leaf : {1, 5, 16, 32})
    for (const std::int64_t order : {1, 37, 65}) {
      for (const Case& c : {Case{tb::Side::left, tb::Uplo::lower, 0, tb::Diag::non_unit},
                            Case{tb::Side::right, tb::Uplo::upper, 1, tb::Diag::unit}}) {
        SCOPED_TRACE(c.name() + " leaf " + std::to_string(leaf) + " order " + std::to_string(order));
        const bool left = c.side == tb::Side::left;
        std::vector<double> x;
        const Solved r = solve_and_measure<double>(c, left ? order : 3, left ? 3 : order, leaf, 90 + order, x);
        EXPECT_LE(r.worst, gamma(double(order + 64)));
        if (order > 1 || c.diag == tb::Diag::non_unit) {
          EXPECT_GT(r.worst, 0.0);
        }
        double flops = 0;
        EXPECT_EQ(named_steps(r.report, "trnblas.dtrsm.diag_solve", &flops), (order + leaf - 1) / leaf);
        EXPECT_EQ(tb::plan_fp64_trsm(order, 3, false, leaf).leaves, (order + leaf - 1) / leaf);
        if (leaf == 32) {
          std::vector<double> y;
          solve_and_measure<double>(c, left ? order : 3, left ? 3 : order, 0, 90 + order, y);
          EXPECT_EQ(0, std::memcmp(x.data(), y.data(), x.size() * sizeof(double))) << "default leaf is 32";
        }
      }
    }
  std::vector<double> a(4, 1.0), b(4, 1.0);
  EXPECT_ANY_THROW(tb::dtrsm_with_leaf({}, 33, tb::Side::left, tb::Uplo::lower, tb::Op::N, tb::Diag::unit, 2, 2, 1.0,
                                       a.data(), 2, b.data(), 2));
  EXPECT_ANY_THROW(tb::dtrsm_with_leaf({}, 0, tb::Side::left, tb::Uplo::lower, tb::Op::N, tb::Diag::unit, 2, 2, 1.0,
                                       a.data(), 2, b.data(), 2));
  EXPECT_EQ(tb::plan_fp64_trsm(512, 3, false).updates, 15);
  EXPECT_EQ(tb::plan_fp64_trsm(512, 3, false).depth, 4);
}

// Same bits for 1 and 2 host threads and 2 emulated cores (D and Z).
TEST(TrsmFp64, BitsIndependentOfThreadsAndCores) {
  const Case c{tb::Side::left, tb::Uplo::upper, 1, tb::Diag::non_unit};
  std::vector<double> x1, x2;
  std::vector<cd> z1, z2;
  solve_and_measure<double>(c, 100, 4, 0, 7, x1);
  solve_and_measure<cd>(c, 70, 3, 0, 8, z1);
  tb::Settings s;
  s.host_threads = 2;
  s.num_cores = 2;
  solve_and_measure<double>(c, 100, 4, 0, 7, x2, s);
  solve_and_measure<cd>(c, 70, 3, 0, 8, z2, s);
  EXPECT_EQ(0, std::memcmp(x1.data(), x2.data(), x1.size() * sizeof(double)));
  EXPECT_EQ(0, std::memcmp(z1.data(), z2.data(), z1.size() * sizeof(cd)));
}

// A NaN in B reaches only the rows that depend on it (lower, left: rows >= its row, its column), through
// the Ozaki updates' special-value path and the host leaves alike; a NaN in the unreferenced triangle is
// never read.
TEST(TrsmFp64, NanReachesOnlyTheDependentRows) {
  const std::int64_t m = 90, n = 3;
  const std::vector<double> a = triangle<double>(m, true, false, 5);
  std::vector<double> b(static_cast<std::size_t>(m * n), 0.5);
  b[40 + 1 * m] = std::numeric_limits<double>::quiet_NaN();
  tb::dtrsm({}, tb::Side::left, tb::Uplo::lower, tb::Op::N, tb::Diag::non_unit, m, n, 1.0, a.data(), m + 2, b.data(), m);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) EXPECT_EQ(std::isnan(b[i + j * m]), j == 1 && i >= 40) << i << "," << j;
}

}  // namespace
