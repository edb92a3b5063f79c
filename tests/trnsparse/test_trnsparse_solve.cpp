// trnsparse SpSV / SpSM and CSR SpGEMM / SpGEMMreuse through the C API, in every generic value type,
// against long-double loops written here (a dense substitution over the triangle the fill mode
// names; a dense product) with the bounds of docs/trnsparse.md, checked two-sided: the error is
// within the bound, and the bound is a tiny fraction of the result, so a wrong triangle, op,
// conjugate or dropped entry fails. Zero pivots, updateMatrix, the two-call buffer protocol and bad
// arguments at their positions with outputs untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "c_api_test_util.hpp"
#include "trn/sparse/triangular.hpp"
#include "trnsparse.h"

namespace {

using trnsparse_test::Handle;
using cld = std::complex<long double>;
using ld = long double;

template <class T>
struct Traits;
template <>
struct Traits<float> {
  static constexpr trnDataType_t type = TRN_R_32F;
  static constexpr bool complex = false;
  static constexpr ld out_u = 0x1p-24L;  // fp32 arithmetic (the engine path): unit roundoff
};
template <>
struct Traits<double> {
  static constexpr trnDataType_t type = TRN_R_64F;
  static constexpr bool complex = false;
  static constexpr ld out_u = 0;
};
template <>
struct Traits<std::complex<float>> {
  static constexpr trnDataType_t type = TRN_C_32F;
  static constexpr bool complex = true;
  static constexpr ld out_u = 0x1p-24L;
};
template <>
struct Traits<std::complex<double>> {
  static constexpr trnDataType_t type = TRN_C_64F;
  static constexpr bool complex = true;
  static constexpr ld out_u = 0;
};
constexpr ld kU = 0x1p-53L;

template <class T>
T draw(std::mt19937_64& g, double lo = -1.0, double hi = 1.0) {
  std::uniform_real_distribution<double> d(lo, hi);
  if constexpr (Traits<T>::complex)
    return T(static_cast<typename T::value_type>(d(g)), static_cast<typename T::value_type>(d(g)));
  else
    return static_cast<T>(d(g));
}
template <class T>
cld wide(T v) {
  if constexpr (Traits<T>::complex)
    return cld(v.real(), v.imag());
  else
    return cld(v, 0.0L);
}
// gamma_k with the complex factor: sqrt(2) gamma_{k+2} for complex, gamma_k for real.
template <class T>
ld gamma(int k) {
  const int kk = Traits<T>::complex ? k + 2 : k;
  const ld g = kk * kU / (1 - kk * kU);
  return Traits<T>::complex ? std::sqrt(2.0L) * g : g;
}

// The blocked schedule's gamma (triangular_blocked.cpp, docs/trnsparse.md "the blocked schedule"),
// k the row's stored entries (diagonal included): R_32F gamma_{k+1}; C_32F sqrt(2) gamma_{max(2k, 5)}
// (the 4M sums: 2(k - 1) real products per part, two subtractions; the division sqrt(2) gamma_4).
template <class T>
ld blocked_gamma(int k) {
  const ld u = 0x1p-24L;
  const int kk = Traits<T>::complex ? std::max(2 * k, 5) : k + 1;
  return (Traits<T>::complex ? std::sqrt(2.0L) : 1.0L) * kk * u / (1 - kk * u);
}

// The substitution's gamma for rows of at most k stored entries (diagonal included), docs/trnsparse.md
// "Sparse triangular solves": fp32 / complex-fp32 on the engines gamma_{k+2} (complex sqrt(2)
// gamma_{k+5}) in u = 2^-24, times M(T)^-1 (|T| |y_hat| + |alpha b|); the automatic choice may run the
// blocked schedule instead, so complex takes the larger of the two (blocked_gamma). fp64 /
// complex-fp64 (the segmented slice-pair levels) use fp64_factor instead.
template <class T>
ld levels_gamma(int k) {
  const ld u = 0x1p-24L;
  const int kk = Traits<T>::complex ? k + 5 : k + 2;
  return (Traits<T>::complex ? std::sqrt(2.0L) : 1.0L) * kk * u / (1 - kk * u);
}
template <class T>
ld solve_gamma(int k) {
  return std::max(levels_gamma<T>(k), blocked_gamma<T>(k));
}
enum class Bound { automatic, levels, blocked };  // which schedule's gamma a check uses
template <class T>
ld gamma_of(Bound b, int k) {
  return b == Bound::levels ? levels_gamma<T>(k) : b == Bound::blocked ? blocked_gamma<T>(k) : solve_gamma<T>(k);
}

// fp64 / complex-fp64 on the engines: |y_hat - y| <= c u M(T)^-1 |D| |y_hat|, c = 3.1 (real: the
// fold's 2.02 u and the divide's u) or 7.7 (complex: 2.02 u and Higham's sqrt(2) gamma_4 division).
template <class T>
ld fp64_factor() {
  return (Traits<T>::complex ? 7.7L : 3.1L) * kU;
}

// A random n x m CSR (sorted columns, int32) with density p; `diag` puts a diagonal entry of size
// about 2..3 (i < min(n, m)) in every row. Dense row-major long-double copy.
template <class T>
struct Mat {
  int n = 0, m = 0;
  std::vector<int> off, col, rowi;
  std::vector<T> val;
  std::vector<cld> dense;
  Mat(int n_, int m_, double p, bool diag, std::uint64_t seed) : n(n_), m(m_), dense(static_cast<size_t>(n_) * m_) {
    std::mt19937_64 g(seed);
    std::bernoulli_distribution keep(p);
    off.push_back(0);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < m; ++j) {
        const bool d = diag && i == j;
        if (!d && !keep(g)) continue;
        col.push_back(j);
        rowi.push_back(i);
        val.push_back(d ? draw<T>(g, 2.0, 3.0) : draw<T>(g));
        dense[static_cast<size_t>(i) * m + j] = wide(val.back());
      }
      off.push_back(static_cast<int>(col.size()));
    }
  }
  int nnz() const { return static_cast<int>(col.size()); }
  trnsparseSpMatDescr_t create(trnsparseFormat_t fmt) {
    trnsparseSpMatDescr_t d = nullptr;
    if (fmt == TRNSPARSE_FORMAT_COO)
      EXPECT_EQ(trnsparseCreateCoo(&d, n, m, nnz(), rowi.data(), col.data(), val.data(), TRNSPARSE_INDEX_32I,
                                   TRNSPARSE_INDEX_BASE_ZERO, Traits<T>::type), 0);
    else
      EXPECT_EQ(trnsparseCreateCsr(&d, n, m, nnz(), off.data(), col.data(), val.data(), TRNSPARSE_INDEX_32I,
                                   TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, Traits<T>::type), 0);
    return d;
  }
};

void set_attributes(trnsparseSpMatDescr_t d, int fill, int diag) {
  trnsparseFillMode_t f = static_cast<trnsparseFillMode_t>(fill);
  trnsparseDiagType_t t = static_cast<trnsparseDiagType_t>(diag);
  ASSERT_EQ(trnsparseSpMatSetAttribute(d, TRNSPARSE_SPMAT_FILL_MODE, &f, sizeof f), 0);
  ASSERT_EQ(trnsparseSpMatSetAttribute(d, TRNSPARSE_SPMAT_DIAG_TYPE, &t, sizeof t), 0);
}

// op(T)(i, j) of the triangle `lower` / unit of the dense matrix (entries outside it are 0).
template <class T>
cld tri(const Mat<T>& a, bool lower, bool unit, int op, int i, int j) {
  const int r = op == 0 ? i : j, c = op == 0 ? j : i;
  if (r == c) return unit ? cld(1) : (op == 2 ? std::conj(a.dense[static_cast<size_t>(r) * a.m + c]) : a.dense[static_cast<size_t>(r) * a.m + c]);
  if (lower ? c > r : c < r) return 0;
  const cld v = a.dense[static_cast<size_t>(r) * a.m + c];
  return op == 2 ? std::conj(v) : v;
}

// The reference solve of op(T) y = rhs (long double) and the componentwise bound
// gamma M(T)^-1 (|T| |y_hat| + |rhs|) (32-bit) or fp64_factor M(T)^-1 |D| |y_hat| (64-bit), for one column.
template <class T>
void check_column(const Mat<T>& a, bool lower, bool unit, int op, const std::vector<cld>& rhs, const std::vector<cld>& got,
                  ld* worst, ld* tight, Bound which = Bound::automatic) {
  const int n = a.n;
  const bool lower_op = (op == 0) == lower;
  std::vector<cld> y(static_cast<size_t>(n));
  std::vector<ld> w(static_cast<size_t>(n)), v(static_cast<size_t>(n));  // v = M(T)^-1 |D| |y_hat| (fp64 bound)
  int k = 1;
  for (int i = 0; i < n; ++i) {
    int cnt = 0;
    for (int j = 0; j < n; ++j) cnt += tri(a, lower, unit, op, i, j) != cld(0) ? 1 : 0;
    k = std::max(k, cnt);
  }
  for (int s = 0; s < n; ++s) {
    const int i = lower_op ? s : n - 1 - s;
    cld acc = rhs[static_cast<size_t>(i)];
    ld mag = std::abs(rhs[static_cast<size_t>(i)]), mag64 = 0;
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      const cld t = tri(a, lower, unit, op, i, j);
      if (t == cld(0)) continue;
      acc -= t * y[static_cast<size_t>(j)];
      mag += std::abs(t) * (std::abs(got[static_cast<size_t>(j)]) + w[static_cast<size_t>(j)]);  // M(T)^-1 by substitution
      mag64 += std::abs(t) * v[static_cast<size_t>(j)];
    }
    const cld d = tri(a, lower, unit, op, i, i);
    y[static_cast<size_t>(i)] = acc / d;
    w[static_cast<size_t>(i)] = (mag + std::abs(d) * std::abs(got[static_cast<size_t>(i)])) / std::abs(d);
    v[static_cast<size_t>(i)] = (mag64 + std::abs(d) * std::abs(got[static_cast<size_t>(i)])) / std::abs(d);
  }
  // w = M(T)^-1 (|T| |y_hat| + |rhs|) (the |T||y_hat| part folded in row by row, then the substitution)
  for (int i = 0; i < n; ++i) {
    const ld bound = Traits<T>::out_u > 0 ? gamma_of<T>(which, k) * w[static_cast<size_t>(i)] : fp64_factor<T>() * v[static_cast<size_t>(i)];
    const ld err = std::abs(got[static_cast<size_t>(i)] - y[static_cast<size_t>(i)]);
    EXPECT_LE(err, bound) << "row " << i;
    *worst = std::max(*worst, bound > 0 ? err / bound : 0);
    if (std::abs(y[static_cast<size_t>(i)]) > 1e-3L) *tight = std::max(*tight, bound / std::abs(y[static_cast<size_t>(i)]));
  }
}

// SpSV for every fill, diag, op and format; rhs random; alpha random.
template <class T>
void spsv_sweep() {
  Handle h;
  const int n = 64;
  ld worst = 0, tight = 0;
  for (int fmt : {TRNSPARSE_FORMAT_CSR, TRNSPARSE_FORMAT_COO})
    for (int fill = 0; fill < 2; ++fill)
      for (int diag = 0; diag < 2; ++diag)
        for (int op = 0; op < 3; ++op) {
          Mat<T> a(n, n, 0.08, true, 100 + fmt * 8 + fill * 4 + diag * 2 + op);
          std::mt19937_64 g(7 + op);
          std::vector<T> x(n), y(n, T(0));
          for (auto& v : x) v = draw<T>(g);
          const T alpha = draw<T>(g, 0.5, 1.5);
          trnsparseSpMatDescr_t A = a.create(static_cast<trnsparseFormat_t>(fmt));
          set_attributes(A, fill, diag);
          trnsparseDnVecDescr_t vx, vy;
          ASSERT_EQ(trnsparseCreateDnVec(&vx, n, x.data(), Traits<T>::type), 0);
          ASSERT_EQ(trnsparseCreateDnVec(&vy, n, y.data(), Traits<T>::type), 0);
          trnsparseSpSVDescr_t sv;
          ASSERT_EQ(trnsparseSpSV_createDescr(&sv), 0);
          const auto o = static_cast<trnsparseOperation_t>(op);
          size_t bytes = 0;
          ASSERT_EQ(trnsparseSpSV_bufferSize(h.h, o, &alpha, A, vx, vy, Traits<T>::type, TRNSPARSE_SPSV_ALG_DEFAULT, sv, &bytes), 0);
          std::vector<char> buf(bytes);
          ASSERT_EQ(trnsparseSpSV_analysis(h.h, o, &alpha, A, vx, vy, Traits<T>::type, TRNSPARSE_SPSV_ALG_DEFAULT, sv, buf.data()), 0);
          ASSERT_EQ(trnsparseSpSV_solve(h.h, o, &alpha, A, vx, vy, Traits<T>::type, TRNSPARSE_SPSV_ALG_DEFAULT, sv), 0);
          std::vector<cld> rhs(n), got(n);
          for (int i = 0; i < n; ++i) rhs[static_cast<size_t>(i)] = wide(alpha) * wide(x[static_cast<size_t>(i)]);
          for (int i = 0; i < n; ++i) got[static_cast<size_t>(i)] = wide(y[static_cast<size_t>(i)]);
          check_column(a, fill == 0, diag == 1, op, rhs, got, &worst, &tight);
          trnsparseSpSV_destroyDescr(sv);
          trnsparseDestroyDnVec(vx);
          trnsparseDestroyDnVec(vy);
          trnsparseDestroySpMat(A);
        }
  EXPECT_LT(tight, Traits<T>::out_u > 0 ? 1e-2L : 1e-10L);  // the bound is far below the result
  EXPECT_GT(worst, 0.0L);  // rounding is visible: the reference is not the library's own bits
  std::printf("SpSV %d: max err / bound %.3Lg, max bound / |y| %.3Lg\n", static_cast<int>(Traits<T>::type), worst, tight);
}

// The level schedule (Anderson & Saad): a diagonal matrix is one level, a bidiagonal one n levels,
// and op T of a lower bidiagonal runs backward; the plan prints the levels and the engines.
TEST(SpSV, LevelScheduleAndPlan) {
  namespace sp = trn::sparse;
  // 6 x 6: diagonal plus (i, i-1) for i = 1..5 except (3, 2): levels 0,1,2 | 0,1,2 -> 3 levels.
  std::vector<int> off{0, 1, 3, 5, 6, 8, 10}, col{0, 0, 1, 1, 2, 3, 3, 4, 4, 5};
  std::vector<double> val(10, 1.0);
  const sp::SparseRef a{sp::SparseRef::Format::csr, 6, 6, 10, off.data(), col.data(), val.data(), sp::IndexType::i32,
                        sp::IndexType::i32, sp::IndexBase::zero, sp::Value::f64};
  sp::TriangularAnalysis t = sp::analyze_triangular(a, true, false, sp::GOp::N);
  EXPECT_EQ(t.levels(), 3);
  EXPECT_EQ(t.order, (std::vector<std::int64_t>{0, 3, 1, 4, 2, 5}));
  EXPECT_TRUE(t.lower_op);
  t = sp::analyze_triangular(a, true, false, sp::GOp::T);  // A^T is upper: backward, levels 5,4,3 / 2,1,0 -> 3
  EXPECT_FALSE(t.lower_op);
  EXPECT_EQ(t.levels(), 3);
  EXPECT_EQ(sp::analyze_triangular(a, false, false, sp::GOp::N).levels(), 1);  // the upper triangle is diagonal
  const std::string plan = sp::triangular_plan("spsv", t, 1);
  EXPECT_NE(plan.find("3 levels"), std::string::npos) << plan;
  EXPECT_NE(plan.find("TensorE"), std::string::npos) << plan;  // R_64F: the segmented slice-pair levels
  col[3] = 7;  // out of range: analysis validates
  EXPECT_THROW(sp::analyze_triangular(a, true, false, sp::GOp::N), trn::InvalidArgument);
}

// The engine paths (R_32F, C_32F; R_64F, C_64F) on a pattern that exercises their tiling: level 0 holds 300 rows
// (three tile steps of <= 128 partitions), the last row has 1100 off-diagonal entries (two product
// slices of <= 1024), the others a few scattered ones (one gather descriptor each). Checked against
// a long-double substitution with the fp32 bound, and bit-identical for 1 or 2 host threads and
// 1 or 2 cores; the plan names the levels and the engines.
// blocked: the R_32F / C_32F blocked schedule (triangular_blocked.cpp: 10 blocks of 128 rows, the
// last one partial), forced, with its own counts and bound; otherwise they run the level sets
// (forced too).
template <class T>
void engine_tiling_case(bool blocked = false) {
  namespace sp = trn::sparse;
  const int n = 1200;
  std::mt19937_64 g(42);
  std::vector<int> off{0}, col;
  std::vector<T> val;
  for (int i = 0; i < n; ++i) {
    std::vector<int> cols;
    if (i == n - 1)
      for (int j = 0; j < 1100; ++j) cols.push_back(j);
    else if (i >= 300)
      for (int q = 0; q < 4; ++q) cols.push_back(static_cast<int>(g() % static_cast<std::uint64_t>(i)));
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (int j : cols) {
      col.push_back(j);
      val.push_back(draw<T>(g, -0.5, 0.5));
    }
    col.push_back(i);
    val.push_back(draw<T>(g, 2.0, 3.0));
    off.push_back(static_cast<int>(col.size()));
  }
  constexpr bool fp32 = Traits<T>::out_u > 0;
  const sp::Value v = Traits<T>::complex ? (fp32 ? sp::Value::c32 : sp::Value::c64) : (fp32 ? sp::Value::f32 : sp::Value::f64);
  const sp::SparseRef a{sp::SparseRef::Format::csr, n, n, static_cast<std::int64_t>(col.size()), off.data(), col.data(), val.data(),
                        sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, v};
  sp::TriangularAnalysis t = sp::analyze_triangular(a, true, false, sp::GOp::N);
  t.schedule = blocked ? sp::TriangularAnalysis::Schedule::blocked : sp::TriangularAnalysis::Schedule::level_sets;
  std::vector<T> b(n);
  for (auto& x : b) x = draw<T>(g);
  const T alpha = draw<T>(g, 0.5, 1.5);
  const auto solve = [&](int threads, int cores, sp::CallReport* rep) {
    sp::Settings s;
    s.host_threads = threads;
    s.num_cores = cores;
    std::vector<T> y(n);
    sp::triangular_solve(s, t, val.data(), nullptr, sp::Scalar(wide(alpha).real(), wide(alpha).imag()), sp::GOp::N,
                         {b.data(), v, n, 1, n, sp::Layout::col_major}, {y.data(), v, n, 1, n, sp::Layout::col_major}, rep);
    return y;
  };
  sp::CallReport rep;
  const std::vector<T> y = solve(1, 1, &rep);
  EXPECT_EQ(0, std::memcmp(y.data(), solve(2, 2, nullptr).data(), y.size() * sizeof(T)));
  if (fp32 && !blocked) {
    EXPECT_EQ(rep.blocks, 3 + (t.levels() - 1) + 0) << "tile steps: level 0 in three, the others fit one each";
  }
  if (blocked) {  // stored blocks of the strict triangle; one matmul per stored off-diagonal block and sweep
    EXPECT_EQ(t.block_levels.size(), 10u);
    EXPECT_EQ(rep.blocks, t.block_slots);
    EXPECT_GT(rep.matmuls, 0);
  }
  {  // SpSM, 70 (fp64: 20) copies of b (two column blocks of <= 64, fp64 <= 16): every column has the SpSV's bits
    const int m = fp32 ? 70 : 20;
    std::vector<T> bm(static_cast<size_t>(n) * m), ym(bm.size());
    for (int c = 0; c < m; ++c) std::copy(b.begin(), b.end(), bm.begin() + static_cast<std::ptrdiff_t>(c) * n);
    sp::triangular_solve(sp::Settings{}, t, val.data(), nullptr, sp::Scalar(wide(alpha).real(), wide(alpha).imag()), sp::GOp::N,
                         {bm.data(), v, n, m, n, sp::Layout::col_major}, {ym.data(), v, n, m, n, sp::Layout::col_major});
    for (int c = 0; c < m; ++c)
      EXPECT_EQ(0, std::memcmp(y.data(), ym.data() + static_cast<std::ptrdiff_t>(c) * n, y.size() * sizeof(T))) << "column " << c;
  }
  EXPECT_GT(rep.profile.total_ns, 0.0);
  const std::string plan = rep.plan;
  EXPECT_NE(plan.find(fp32 && !blocked ? "VectorE" : "TensorE"), std::string::npos) << plan;
  EXPECT_NE(plan.find(std::to_string(t.levels()) + " levels"), std::string::npos) << plan;
  if (blocked) {
    EXPECT_NE(plan.find("blocked, 10 blocks of 128 rows"), std::string::npos) << plan;
    EXPECT_EQ(plan.find("solved again"), std::string::npos) << plan;  // no Inf / NaN fallback here
  }
  // Long-double substitution and the bound solve_gamma M(L)^-1 (|L| |y_hat| + |alpha b|) (fp32), or
  // fp64_factor M(L)^-1 |D| |y_hat| (fp64: v).
  const Bound which = blocked ? Bound::blocked : Bound::levels;
  std::vector<cld> ref(n);
  std::vector<ld> w(n), v64(n);
  ld worst = 0;
  for (int i = 0; i < n; ++i) {
    const int last = off[static_cast<size_t>(i) + 1] - 1;
    cld acc = wide(alpha) * wide(b[static_cast<size_t>(i)]);
    ld mag = std::abs(acc), mag64 = 0;
    for (int e = off[static_cast<size_t>(i)]; e < last; ++e) {
      const auto j = static_cast<size_t>(col[static_cast<size_t>(e)]);
      acc -= wide(val[static_cast<size_t>(e)]) * ref[j];
      mag += std::abs(wide(val[static_cast<size_t>(e)])) * (std::abs(wide(y[j])) + w[j]);
      mag64 += std::abs(wide(val[static_cast<size_t>(e)])) * v64[j];
    }
    const cld d = wide(val[static_cast<size_t>(last)]);
    ref[static_cast<size_t>(i)] = acc / d;
    w[static_cast<size_t>(i)] = (mag + std::abs(d) * std::abs(wide(y[static_cast<size_t>(i)]))) / std::abs(d);
    v64[static_cast<size_t>(i)] = (mag64 + std::abs(d) * std::abs(wide(y[static_cast<size_t>(i)]))) / std::abs(d);
    const ld bound = fp32 ? gamma_of<T>(which, last + 1 - off[static_cast<size_t>(i)]) * w[static_cast<size_t>(i)]
                          : fp64_factor<T>() * v64[static_cast<size_t>(i)];
    const ld err = std::abs(wide(y[static_cast<size_t>(i)]) - ref[static_cast<size_t>(i)]);
    EXPECT_LE(err, bound) << "row " << i;
    worst = std::max(worst, err / bound);
  }
  // The bound is a small fraction of the result (the 1100-term row's is the loosest): a wrong entry fails.
  const ld last_bound = fp32 ? gamma_of<T>(which, 1101) * w[static_cast<size_t>(n) - 1] : fp64_factor<T>() * v64[static_cast<size_t>(n) - 1];
  EXPECT_LT(last_bound, (fp32 ? 0.05L : 1e-12L) * std::abs(ref[static_cast<size_t>(n) - 1]));
  EXPECT_GT(worst, 0.0L);  // fp32 rounding is visible: the check is not against the engine's own bits
  std::printf("SpSV engine %d: levels %lld, max err / bound %.3Lg\n", static_cast<int>(Traits<T>::type),
              static_cast<long long>(t.levels()), worst);
}
TEST(SpSV, EngineTilingDeterminismAndBoundFp32) { engine_tiling_case<float>(); }
TEST(SpSV, BlockedDeterminismAndBoundFp32) { engine_tiling_case<float>(true); }
TEST(SpSV, EngineTilingDeterminismAndBoundComplexFp32) { engine_tiling_case<std::complex<float>>(); }
TEST(SpSV, BlockedDeterminismAndBoundComplexFp32) { engine_tiling_case<std::complex<float>>(true); }
TEST(SpSV, EngineTilingDeterminismAndBoundFp64) { engine_tiling_case<double>(); }
TEST(SpSV, EngineTilingDeterminismAndBoundComplexFp64) { engine_tiling_case<std::complex<double>>(); }

// The R_32F level sets on a lower bidiagonal chain (every row its own level, one chunk each) against
// the host's fp32 recurrence y_i = (fl(alpha b_i) - fl(l_{i,i-1} y_{i-1})) / d_i, bit for bit: the
// kernel's indirect DMAs must move exactly the words of the recurrence. n = 300 keeps the chunks'
// index words in SBUF for the whole solve; n = 5000 (4 words per one-row chunk, above
// triangular_engine.cpp's kResidentIndexWords) loads them chunk by chunk. Unit diagonal too (the
// stored diagonal is then never read: set to NaN).
TEST(SpSV, LevelSetChainMatchesTheFp32RecurrenceBitForBit) {
  namespace sp = trn::sparse;
  for (const int n : {300, 5000})
    for (const bool unit : {false, true}) {
      std::mt19937_64 g(static_cast<std::uint64_t>(7 + n));
      std::vector<int> off{0}, col;
      std::vector<float> val, b(static_cast<std::size_t>(n)), y(b.size()), want(b.size());
      for (int i = 0; i < n; ++i) {
        if (i > 0) {
          col.push_back(i - 1);
          val.push_back(draw<float>(g, -0.9, 0.9));
        }
        col.push_back(i);
        val.push_back(unit ? NAN : draw<float>(g, 1.0, 3.0));
        off.push_back(static_cast<int>(col.size()));
      }
      for (auto& x : b) x = draw<float>(g);
      const float alpha = 1.25f;
      for (int i = 0; i < n; ++i) {
        float r = alpha * b[static_cast<std::size_t>(i)];
        if (i > 0) {
          volatile float product = val[static_cast<std::size_t>(off[static_cast<std::size_t>(i)])] * want[static_cast<std::size_t>(i) - 1];
          r = r - product;  // (volatile: no fused multiply-add; the kernel rounds the product first)
        }
        want[static_cast<std::size_t>(i)] = unit ? r : r / val[static_cast<std::size_t>(off[static_cast<std::size_t>(i) + 1]) - 1];
      }
      const sp::SparseRef a{sp::SparseRef::Format::csr, n, n, static_cast<std::int64_t>(col.size()), off.data(), col.data(),
                            val.data(), sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, sp::Value::f32};
      sp::TriangularAnalysis t = sp::analyze_triangular(a, true, unit, sp::GOp::N);
      t.schedule = sp::TriangularAnalysis::Schedule::level_sets;
      ASSERT_EQ(n, t.levels());
      sp::triangular_solve(sp::Settings{}, t, val.data(), nullptr, sp::Scalar(alpha), sp::GOp::N,
                           {b.data(), sp::Value::f32, n, 1, n, sp::Layout::col_major},
                           {y.data(), sp::Value::f32, n, 1, n, sp::Layout::col_major});
      EXPECT_EQ(0, std::memcmp(y.data(), want.data(), y.size() * sizeof(float))) << "n " << n << " unit " << unit;
    }
}

// The blocked schedule over several blocks (300 rows: blocks of 128, 128, 44) for every fill,
// diagonal type and op(A) (complex: N, T and C, alpha complex), forced: within its own bound
// (blocked_gamma) against the long-double substitution, and the automatic choice takes it for this
// scattered pattern. Complex also: SpSM with op(B) = C and 300 columns (two column passes of <= 256)
// in the first configuration, every column checked and equal in bits to the SpSV of that column.
template <class T>
void blocked_every_fill_diag_and_op() {
  namespace sp = trn::sparse;
  constexpr bool cplx = Traits<T>::complex;
  const sp::Value v = cplx ? sp::Value::c32 : sp::Value::f32;
  const int n = 300;
  ld worst = 0, tight = 0;
  for (int fill = 0; fill < 2; ++fill)
    for (int diag = 0; diag < 2; ++diag)
      for (int op = 0; op < (cplx ? 3 : 2); ++op) {
        Mat<T> a(n, n, 0.03, true, 500 + fill * 4 + diag * 2 + op);
        const sp::SparseRef ref{sp::SparseRef::Format::csr, n, n, a.nnz(), a.off.data(), a.col.data(), a.val.data(),
                                sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, v};
        const sp::GOp gop = op == 0 ? sp::GOp::N : op == 1 ? sp::GOp::T : sp::GOp::C;
        sp::TriangularAnalysis t = sp::analyze_triangular(ref, fill == 0, diag == 1, gop);
        EXPECT_EQ(t.block_levels.size(), 3u);
        EXPECT_TRUE(sp::blocked_preferred(t, 1)) << t.block_steps() << " steps, " << t.levels() << " levels";
        t.schedule = sp::TriangularAnalysis::Schedule::blocked;
        std::mt19937_64 g(11 + op);
        std::vector<T> x(n), y(n, T(0));
        for (auto& e : x) e = draw<T>(g);
        const T alpha = draw<T>(g, 0.5, 1.5);
        const sp::Scalar al(wide(alpha).real(), wide(alpha).imag());
        sp::CallReport rep;
        rep.plans_wanted = true;
        sp::triangular_solve(sp::Settings{}, t, a.val.data(), nullptr, al, sp::GOp::N, {x.data(), v, n, 1, n, sp::Layout::col_major},
                             {y.data(), v, n, 1, n, sp::Layout::col_major}, &rep);
        EXPECT_NE(rep.plan.find("blocked, 3 blocks"), std::string::npos) << rep.plan;
        std::vector<cld> rhs(n), got(n);
        for (int i = 0; i < n; ++i) rhs[static_cast<size_t>(i)] = wide(alpha) * wide(x[static_cast<size_t>(i)]);
        for (int i = 0; i < n; ++i) got[static_cast<size_t>(i)] = wide(y[static_cast<size_t>(i)]);
        check_column(a, fill == 0, diag == 1, op, rhs, got, &worst, &tight, Bound::blocked);
        if constexpr (cplx) {
          if (fill + diag + op != 0) continue;
        // SpSM, op(B) = C: B (m x n, column-major) holds conj(x) in row c, so op(B)'s column c is x
        // and every column must equal y bit for bit.
        const int m = 300;
        std::vector<T> bm(static_cast<size_t>(m) * n), cm(static_cast<size_t>(n) * m);
        for (int c = 0; c < m; ++c)
          for (int i = 0; i < n; ++i) bm[static_cast<size_t>(c) + static_cast<size_t>(i) * m] = std::conj(x[static_cast<size_t>(i)]);
        sp::triangular_solve(sp::Settings{}, t, a.val.data(), nullptr, al, sp::GOp::C, {bm.data(), v, m, n, m, sp::Layout::col_major},
                             {cm.data(), v, n, m, n, sp::Layout::col_major});
        for (int c = 0; c < m; ++c)
          EXPECT_EQ(0, std::memcmp(y.data(), cm.data() + static_cast<std::ptrdiff_t>(c) * n, y.size() * sizeof(T))) << "column " << c;
        }
      }
  EXPECT_LT(tight, 5e-2L);  // rows of up to ~20 entries at n = 300: the bound stays a small fraction of |y|
  EXPECT_GT(worst, 0.0L);
  std::printf("SpSV blocked %d: max err / bound %.3Lg, max bound / |y| %.3Lg\n", static_cast<int>(Traits<T>::type), worst, tight);
}
TEST(SpSV, BlockedEveryFillDiagAndOpWithinTheBound) { blocked_every_fill_diag_and_op<float>(); }
TEST(SpSV, BlockedEveryFillDiagAndOpWithinTheBoundComplexFp32) { blocked_every_fill_diag_and_op<std::complex<float>>(); }

// An Inf met by the blocked schedule (a tiny pivot overflows y_5) would reach, through the dense
// blocks' exact zeros, rows that do not depend on it (0 * Inf = NaN); the solve then runs again by
// level sets, so the output is the level sets' bits: Inf / NaN only along dependencies.
template <class T>
void blocked_inf_falls_back() {
  namespace sp = trn::sparse;
  const sp::Value v = Traits<T>::complex ? sp::Value::c32 : sp::Value::f32;
  const int n = 260;
  std::vector<int> off{0}, col;
  std::vector<T> val;
  for (int i = 0; i < n; ++i) {
    if (i > 0 && i % 2 == 0) {  // even rows depend on the row two before: rows 7, 9, ... never see row 5
      col.push_back(i - 2);
      val.push_back(T(0.5f));
    }
    col.push_back(i);
    val.push_back(i == 5 ? T(1e-38f) : T(2.0f));
    off.push_back(static_cast<int>(col.size()));
  }
  const sp::SparseRef ref{sp::SparseRef::Format::csr, n, n, static_cast<std::int64_t>(col.size()), off.data(), col.data(), val.data(),
                          sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, v};
  sp::TriangularAnalysis t = sp::analyze_triangular(ref, true, false, sp::GOp::N);
  // complex: |b| ~ 1e3 / 1e-38 overflows in the division's t d_re as well
  std::vector<T> b(n, T(1e3f));
  const auto solve = [&](sp::TriangularAnalysis::Schedule sched) {
    t.schedule = sched;
    std::vector<T> y(n);
    sp::triangular_solve(sp::Settings{}, t, val.data(), nullptr, sp::Scalar(1.0, 0.0), sp::GOp::N, {b.data(), v, n, 1, n, sp::Layout::col_major},
                         {y.data(), v, n, 1, n, sp::Layout::col_major});
    return y;
  };
  const std::vector<T> blocked = solve(sp::TriangularAnalysis::Schedule::blocked);
  const std::vector<T> levels = solve(sp::TriangularAnalysis::Schedule::level_sets);
  EXPECT_FALSE(std::isfinite(std::abs(wide(blocked[5]))));
  EXPECT_TRUE(std::isfinite(std::abs(wide(blocked[7]))) && std::isfinite(std::abs(wide(blocked[200])))) << "rows that do not depend on row 5";
  EXPECT_EQ(0, std::memcmp(blocked.data(), levels.data(), blocked.size() * sizeof(T)));
}
TEST(SpSV, BlockedInfFallsBackToLevelSets) { blocked_inf_falls_back<float>(); }
TEST(SpSV, BlockedInfFallsBackToLevelSetsComplexFp32) { blocked_inf_falls_back<std::complex<float>>(); }

TEST(SpSV, Fp32WithinTheBound) { spsv_sweep<float>(); }
TEST(SpSV, Fp64WithinTheBound) { spsv_sweep<double>(); }
TEST(SpSV, ComplexFp32WithinTheBound) { spsv_sweep<std::complex<float>>(); }
TEST(SpSV, ComplexFp64WithinTheBound) { spsv_sweep<std::complex<double>>(); }

// SpSM with op(B) N and T, B and C column- or row-major.
template <class T>
void spsm_case(int opB, trnsparseOrder_t order, int op, int fill) {
  Handle h;
  const int n = 40, r = 3;
  Mat<T> a(n, n, 0.1, true, 900 + op * 2 + fill);
  std::mt19937_64 g(11);
  std::vector<T> b(n * r), c(n * r, T(0));
  for (auto& v : b) v = draw<T>(g);
  const T alpha = draw<T>(g, 0.5, 1.5);
  const bool col = order == TRNSPARSE_ORDER_COL;
  const int brows = opB == 0 ? n : r, bcols = opB == 0 ? r : n;
  trnsparseSpMatDescr_t A = a.create(TRNSPARSE_FORMAT_CSR);
  set_attributes(A, fill, 0);
  trnsparseDnMatDescr_t B, C;
  ASSERT_EQ(trnsparseCreateDnMat(&B, brows, bcols, col ? brows : bcols, b.data(), Traits<T>::type, order), 0);
  ASSERT_EQ(trnsparseCreateDnMat(&C, n, r, col ? n : r, c.data(), Traits<T>::type, order), 0);
  trnsparseSpSMDescr_t sm;
  ASSERT_EQ(trnsparseSpSM_createDescr(&sm), 0);
  const auto oa = static_cast<trnsparseOperation_t>(op), ob = static_cast<trnsparseOperation_t>(opB);
  size_t bytes = 0;
  ASSERT_EQ(trnsparseSpSM_bufferSize(h.h, oa, ob, &alpha, A, B, C, Traits<T>::type, TRNSPARSE_SPSM_ALG_DEFAULT, sm, &bytes), 0);
  ASSERT_EQ(trnsparseSpSM_analysis(h.h, oa, ob, &alpha, A, B, C, Traits<T>::type, TRNSPARSE_SPSM_ALG_DEFAULT, sm, nullptr), 0);
  ASSERT_EQ(trnsparseSpSM_solve(h.h, oa, ob, &alpha, A, B, C, Traits<T>::type, TRNSPARSE_SPSM_ALG_DEFAULT, sm), 0);
  ld worst = 0, tight = 0;
  for (int j = 0; j < r; ++j) {
    std::vector<cld> rhs(n), got(n);
    for (int i = 0; i < n; ++i) {
      const int bi = opB == 0 ? i : j, bj = opB == 0 ? j : i;
      cld bv = wide(b[static_cast<size_t>(col ? bi + bj * brows : bi * bcols + bj)]);
      if (opB == 2) bv = std::conj(bv);
      rhs[static_cast<size_t>(i)] = wide(alpha) * bv;
      got[static_cast<size_t>(i)] = wide(c[static_cast<size_t>(col ? i + j * n : i * r + j)]);
    }
    check_column(a, fill == 0, false, op, rhs, got, &worst, &tight);
  }
  trnsparseSpSM_destroyDescr(sm);
  trnsparseDestroyDnMat(B);
  trnsparseDestroyDnMat(C);
  trnsparseDestroySpMat(A);
}

TEST(SpSM, EveryTypeOpBAndLayoutWithinTheBound) {
  for (int opB = 0; opB < 2; ++opB)
    for (trnsparseOrder_t order : {TRNSPARSE_ORDER_COL, TRNSPARSE_ORDER_ROW}) {
      spsm_case<float>(opB, order, 0, 0);
      spsm_case<double>(opB, order, 1, 1);
      spsm_case<std::complex<float>>(opB, order, 2, 0);
      spsm_case<std::complex<double>>(opB, order, 2, 1);
    }
  spsm_case<std::complex<double>>(2, TRNSPARSE_ORDER_COL, 0, 0);  // op(B) = B^H
}

// Zero pivots: a structurally missing and a stored-zero diagonal are ZERO_PIVOT at solve with y
// untouched (unit triangles never read the diagonal); updateMatrix replaces values or the diagonal.
TEST(SpSV, ZeroPivotsUpdateMatrixAndBadArguments) {
  Handle h;
  // lower 3 x 3: row 1 has no diagonal entry.
  std::vector<int> off{0, 1, 2, 4}, col{0, 0, 1, 2};
  std::vector<double> val{2.0, 1.0, 1.0, 4.0}, x{2.0, 3.0, 9.0}, y{-7.0, -7.0, -7.0};
  trnsparseSpMatDescr_t A;
  ASSERT_EQ(trnsparseCreateCsr(&A, 3, 3, 4, off.data(), col.data(), val.data(), TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                               TRNSPARSE_INDEX_BASE_ZERO, TRN_R_64F), 0);
  trnsparseDnVecDescr_t vx, vy;
  trnsparseCreateDnVec(&vx, 3, x.data(), TRN_R_64F);
  trnsparseCreateDnVec(&vy, 3, y.data(), TRN_R_64F);
  trnsparseSpSVDescr_t sv;
  trnsparseSpSV_createDescr(&sv);
  const double one = 1.0;
  const auto N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
  const auto alg = TRNSPARSE_SPSV_ALG_DEFAULT;
  EXPECT_EQ(trnsparseSpSV_solve(h.h, N, &one, A, vx, vy, TRN_R_64F, alg, sv), TRNSPARSE_STATUS_INVALID_VALUE);  // no analysis
  EXPECT_EQ(h.last_param(), 8);
  ASSERT_EQ(trnsparseSpSV_analysis(h.h, N, &one, A, vx, vy, TRN_R_64F, alg, sv, nullptr), 0);
  EXPECT_EQ(trnsparseSpSV_solve(h.h, N, &one, A, vx, vy, TRN_R_64F, alg, sv), TRNSPARSE_STATUS_ZERO_PIVOT);
  EXPECT_EQ(y, (std::vector<double>{-7.0, -7.0, -7.0}));
  // unit diagonal: y0 = 2, y1 = 3 - 2 = 1, y2 = 9 - 1 = 8 (the stored 2 and 4 are not read)
  set_attributes(A, 0, 1);
  ASSERT_EQ(trnsparseSpSV_analysis(h.h, N, &one, A, vx, vy, TRN_R_64F, alg, sv, nullptr), 0);
  ASSERT_EQ(trnsparseSpSV_solve(h.h, N, &one, A, vx, vy, TRN_R_64F, alg, sv), 0);
  EXPECT_EQ(y, (std::vector<double>{2.0, 1.0, 8.0}));
  // the analysis is for the unit triangle: a changed attribute is a stale descriptor
  set_attributes(A, 0, 0);
  EXPECT_EQ(trnsparseSpSV_solve(h.h, N, &one, A, vx, vy, TRN_R_64F, alg, sv), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 8);
  // non-unit again, with the diagonal supplied by updateMatrix(DIAGONAL): 2, 1, 4
  ASSERT_EQ(trnsparseSpSV_analysis(h.h, N, &one, A, vx, vy, TRN_R_64F, alg, sv, nullptr), 0);
  std::vector<double> d{2.0, 1.0, 4.0}, dz{2.0, 1.0, 0.0};
  ASSERT_EQ(trnsparseSpSV_updateMatrix(h.h, sv, d.data(), TRNSPARSE_SPSV_UPDATE_DIAGONAL), 0);
  ASSERT_EQ(trnsparseSpSV_solve(h.h, N, &one, A, vx, vy, TRN_R_64F, alg, sv), 0);
  EXPECT_EQ(y, (std::vector<double>{1.0, 2.0, 1.75}));  // y2 = (9 - 1 * 2) / 4
  ASSERT_EQ(trnsparseSpSV_updateMatrix(h.h, sv, dz.data(), TRNSPARSE_SPSV_UPDATE_DIAGONAL), 0);
  EXPECT_EQ(trnsparseSpSV_solve(h.h, N, &one, A, vx, vy, TRN_R_64F, alg, sv), TRNSPARSE_STATUS_ZERO_PIVOT);
  // updateMatrix(GENERAL): all values doubled, the stored-diagonal rule again (row 1 missing)
  std::vector<double> v2{4.0, 2.0, 2.0, 8.0};
  ASSERT_EQ(trnsparseSpSV_updateMatrix(h.h, sv, v2.data(), TRNSPARSE_SPSV_UPDATE_GENERAL), 0);
  EXPECT_EQ(trnsparseSpSV_solve(h.h, N, &one, A, vx, vy, TRN_R_64F, alg, sv), TRNSPARSE_STATUS_ZERO_PIVOT);
  EXPECT_EQ(y, (std::vector<double>{1.0, 2.0, 1.75}));
  EXPECT_EQ(trnsparseSpSV_updateMatrix(h.h, sv, v2.data(), static_cast<trnsparseSpSVUpdate_t>(2)), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 3);
  // bad arguments at their positions
  size_t bytes = 0;
  EXPECT_EQ(trnsparseSpSV_bufferSize(h.h, static_cast<trnsparseOperation_t>(3), &one, A, vx, vy, TRN_R_64F, alg, sv, &bytes), 3);
  EXPECT_EQ(h.last_param(), 1);
  EXPECT_EQ(trnsparseSpSV_bufferSize(h.h, N, nullptr, A, vx, vy, TRN_R_64F, alg, sv, &bytes), 3);
  EXPECT_EQ(h.last_param(), 2);
  EXPECT_EQ(trnsparseSpSV_bufferSize(h.h, N, &one, A, vx, vy, TRN_R_32F, alg, sv, &bytes), TRNSPARSE_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(trnsparseSpSV_bufferSize(h.h, N, &one, A, vx, vy, TRN_R_64F, static_cast<trnsparseSpSVAlg_t>(1), sv, &bytes), 3);
  EXPECT_EQ(h.last_param(), 7);
  EXPECT_EQ(trnsparseSpSV_bufferSize(h.h, N, &one, A, vx, vy, TRN_R_64F, alg, sv, nullptr), 3);
  EXPECT_EQ(h.last_param(), 9);
  trnsparseDnVecDescr_t v4;
  std::vector<double> x4(4);
  trnsparseCreateDnVec(&v4, 4, x4.data(), TRN_R_64F);
  EXPECT_EQ(trnsparseSpSV_bufferSize(h.h, N, &one, A, v4, vy, TRN_R_64F, alg, sv, &bytes), 3);
  EXPECT_EQ(h.last_param(), 4);
  // out-of-range column: the analysis validates the pattern
  col[3] = 5;
  EXPECT_EQ(trnsparseSpSV_analysis(h.h, N, &one, A, vx, vy, TRN_R_64F, alg, sv, nullptr), 3);
  EXPECT_EQ(h.last_param(), 3);
  trnsparseDestroyDnVec(v4);
  trnsparseSpSV_destroyDescr(sv);
  EXPECT_EQ(trnsparseSpSV_destroyDescr(sv), 3);
  trnsparseDestroyDnVec(vx);
  trnsparseDestroyDnVec(vy);
  trnsparseDestroySpMat(A);
}

// ---- SpGEMM on CSR ----------------------------------------------------------------------------

struct CsrOut {  // C's arrays as the caller allocates them after compute
  std::vector<std::int64_t> off, col;
};

// C = alpha A B + beta C through cuSPARSE's call sequence; C in int64 indices, base one.
template <class T>
void spgemm_case(bool reuse) {
  Handle h;
  Mat<T> a(30, 40, 0.08, false, 31), b(40, 25, 0.1, false, 32);
  std::mt19937_64 g(5);
  const T alpha = draw<T>(g, 0.5, 1.5), beta = reuse ? T(0) : draw<T>(g, 0.5, 1.5);
  trnsparseSpMatDescr_t A = a.create(TRNSPARSE_FORMAT_CSR), B = b.create(TRNSPARSE_FORMAT_CSR), C;
  CsrOut out;
  out.off.assign(31, -1);
  ASSERT_EQ(trnsparseCreateCsr(&C, 30, 25, 0, out.off.data(), nullptr, nullptr, TRNSPARSE_INDEX_64I, TRNSPARSE_INDEX_64I,
                               TRNSPARSE_INDEX_BASE_ONE, Traits<T>::type), 0);
  trnsparseSpGEMMDescr_t d;
  ASSERT_EQ(trnsparseSpGEMM_createDescr(&d), 0);
  const auto N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
  const auto ty = Traits<T>::type;
  const auto alg = TRNSPARSE_SPGEMM_DEFAULT;
  size_t s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0;
  char buf[512];
  if (!reuse) {
    ASSERT_EQ(trnsparseSpGEMM_workEstimation(h.h, N, N, &alpha, A, B, &beta, C, ty, alg, d, &s1, nullptr), 0);
    EXPECT_EQ(trnsparseSpGEMM_compute(h.h, N, N, &alpha, A, B, &beta, C, ty, alg, d, &s2, nullptr),  // size query only
              TRNSPARSE_STATUS_INVALID_VALUE);
    EXPECT_EQ(h.last_param(), 10);
    ASSERT_EQ(trnsparseSpGEMM_workEstimation(h.h, N, N, &alpha, A, B, &beta, C, ty, alg, d, &s1, buf), 0);
    ASSERT_EQ(trnsparseSpGEMM_compute(h.h, N, N, &alpha, A, B, &beta, C, ty, alg, d, &s2, nullptr), 0);
    ASSERT_EQ(trnsparseSpGEMM_compute(h.h, N, N, &alpha, A, B, &beta, C, ty, alg, d, &s2, buf), 0);
  } else {
    ASSERT_EQ(trnsparseSpGEMMreuse_workEstimation(h.h, N, N, A, B, C, alg, d, &s1, nullptr), 0);
    ASSERT_EQ(trnsparseSpGEMMreuse_workEstimation(h.h, N, N, A, B, C, alg, d, &s1, buf), 0);
    ASSERT_EQ(trnsparseSpGEMMreuse_nnz(h.h, N, N, A, B, C, alg, d, &s2, buf, &s3, buf, &s4, buf), 0);
  }
  // the structural product, computed here
  std::vector<std::vector<int>> pat(30);
  std::int64_t products = 0;
  for (int i = 0; i < 30; ++i) {
    std::vector<bool> hit(25, false);
    for (int ea = a.off[static_cast<size_t>(i)]; ea < a.off[static_cast<size_t>(i) + 1]; ++ea) {
      const int k = a.col[static_cast<size_t>(ea)];
      products += b.off[static_cast<size_t>(k) + 1] - b.off[static_cast<size_t>(k)];
      for (int eb = b.off[static_cast<size_t>(k)]; eb < b.off[static_cast<size_t>(k) + 1]; ++eb) hit[static_cast<size_t>(b.col[static_cast<size_t>(eb)])] = true;
    }
    for (int j = 0; j < 25; ++j)
      if (hit[static_cast<size_t>(j)]) pat[static_cast<size_t>(i)].push_back(j);
  }
  std::int64_t r = 0, c = 0, nnz = 0;
  ASSERT_EQ(trnsparseSpMatGetSize(C, &r, &c, &nnz), 0);
  std::int64_t want_nnz = 0;
  for (const auto& p : pat) want_nnz += static_cast<std::int64_t>(p.size());
  ASSERT_EQ(nnz, want_nnz);
  if (!reuse) {
    std::int64_t np = 0;
    ASSERT_EQ(trnsparseSpGEMM_getNumProducts(d, &np), 0);
    EXPECT_EQ(np, products);
  }
  out.col.assign(static_cast<size_t>(nnz), -1);
  std::vector<T> cv(static_cast<size_t>(nnz));
  for (auto& v : cv) v = draw<T>(g);  // beta C reads these (the caller's values in C's new pattern)
  const std::vector<T> c_old = cv;
  ASSERT_EQ(trnsparseCsrSetPointers(C, out.off.data(), out.col.data(), cv.data()), 0);
  if (!reuse) {
    ASSERT_EQ(trnsparseSpGEMM_copy(h.h, N, N, &alpha, A, B, &beta, C, ty, alg, d), 0);
  } else {
    ASSERT_EQ(trnsparseSpGEMMreuse_copy(h.h, N, N, A, B, C, alg, d, &s5, nullptr), 0);
    ASSERT_EQ(trnsparseSpGEMMreuse_copy(h.h, N, N, A, B, C, alg, d, &s5, buf), 0);
    ASSERT_EQ(trnsparseSpGEMMreuse_compute(h.h, N, N, &alpha, A, B, &beta, C, ty, alg, d), 0);
    for (auto& v : a.val) v = v + v;
    for (size_t e = 0; e < a.val.size(); ++e) a.dense[static_cast<size_t>(a.rowi[e]) * a.m + a.col[e]] = wide(a.val[e]);
    ASSERT_EQ(trnsparseSpGEMMreuse_compute(h.h, N, N, &alpha, A, B, &beta, C, ty, alg, d), 0);  // new values, same pattern
  }
  ld worst = 0;
  for (int i = 0; i < 30; ++i) {
    ASSERT_EQ(out.off[static_cast<size_t>(i) + 1] - out.off[static_cast<size_t>(i)], static_cast<std::int64_t>(pat[static_cast<size_t>(i)].size()));
    for (std::int64_t e = out.off[static_cast<size_t>(i)] - 1, q = 0; e < out.off[static_cast<size_t>(i) + 1] - 1; ++e, ++q) {
      const int j = pat[static_cast<size_t>(i)][static_cast<size_t>(q)];
      ASSERT_EQ(out.col[static_cast<size_t>(e)], j + 1);
      cld s = 0;
      ld mag = 0;
      int k = 0;
      for (int kk = 0; kk < 40; ++kk) {
        const cld p = a.dense[static_cast<size_t>(i) * 40 + kk] * b.dense[static_cast<size_t>(kk) * 25 + j];
        k += p != cld(0) ? 1 : 0;
        s += p;
        mag += std::abs(a.dense[static_cast<size_t>(i) * 40 + kk]) * std::abs(b.dense[static_cast<size_t>(kk) * 25 + j]);
      }
      const cld want = wide(alpha) * s + wide(beta) * wide(c_old[static_cast<size_t>(e)]);
      // The engines' bound (trn/sparse/spgemm_csr.hpp): 32-bit gamma_{k+2} (complex sqrt(2) gamma_{k+5}) in
      // u = 2^-24; 64-bit 4.1 u (|alpha| |s| + |beta| |c|), plus the long-double reference's own error.
      const ld scale = std::abs(wide(alpha)) * mag + std::abs(wide(beta)) * std::abs(wide(c_old[static_cast<size_t>(e)]));
      const ld bound = Traits<T>::out_u > 0 ? solve_gamma<T>(k) * scale
                                            : 4.1L * kU * (std::abs(wide(alpha)) * std::abs(s) +
                                                           std::abs(wide(beta)) * std::abs(wide(c_old[static_cast<size_t>(e)]))) +
                                                  (k + 8) * 0x1p-63L * scale;
      const ld err = std::abs(wide(cv[static_cast<size_t>(e)]) - want);
      EXPECT_LE(err, bound) << i << "," << j;
      worst = std::max(worst, bound > 0 ? err / bound : 0);
    }
  }
  EXPECT_EQ(out.off[0], 1);
  std::printf("SpGEMM%s %d: max err / bound %.3Lg\n", reuse ? "reuse" : "", static_cast<int>(ty), worst);
  trnsparseSpGEMM_destroyDescr(d);
  trnsparseDestroySpMat(A);
  trnsparseDestroySpMat(B);
  trnsparseDestroySpMat(C);
}

TEST(SpGEMMCsr, EveryTypeWithAlphaBetaWithinTheBound) {
  spgemm_case<float>(false);
  spgemm_case<double>(false);
  spgemm_case<std::complex<float>>(false);
  spgemm_case<std::complex<double>>(false);
}
TEST(SpGEMMCsr, ReuseRecomputesAfterNewValues) {
  spgemm_case<float>(true);
  spgemm_case<std::complex<double>>(true);
}

// SpGEMMreuse_compute computes C = alpha A B + beta C (cuSPARSE's reuse API): its profile is both of
// its launches -- the numeric phase and alpha s + beta c, one after the other -- so it equals
// SpGEMM_compute's profile followed by SpGEMM_copy's on the same operands (the same two launches), and
// the values are the same bits.
TEST(SpGEMMCsr, ReuseComputeProfileIsNumericThenCopy) {
  using T = float;
  Handle h;
  Mat<T> a(30, 40, 0.08, false, 31), b(40, 25, 0.1, false, 32);
  const T alpha = 0.75f, beta = -0.5f;
  const auto N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
  const auto alg = TRNSPARSE_SPGEMM_DEFAULT;
  char buf[64];
  size_t s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0;
  trnsparseSpMatDescr_t A = a.create(TRNSPARSE_FORMAT_CSR), B = b.create(TRNSPARSE_FORMAT_CSR);
  struct Out {
    std::vector<int> off = std::vector<int>(31), col;
    std::vector<T> val;
    trnsparseSpMatDescr_t C = nullptr;
    trnsparseSpGEMMDescr_t d = nullptr;
  } plain, reuse;
  for (Out* o : {&plain, &reuse}) {
    ASSERT_EQ(trnsparseCreateCsr(&o->C, 30, 25, 0, o->off.data(), nullptr, nullptr, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                 TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F), 0);
    ASSERT_EQ(trnsparseSpGEMM_createDescr(&o->d), 0);
  }
  const auto set_pointers = [&](Out& o) {
    std::int64_t r = 0, c = 0, nnz = 0;
    ASSERT_EQ(trnsparseSpMatGetSize(o.C, &r, &c, &nnz), 0);
    ASSERT_GT(nnz, 0);
    o.col.assign(static_cast<size_t>(nnz), 0);
    o.val.assign(static_cast<size_t>(nnz), 0.0f);
    for (size_t e = 0; e < o.val.size(); ++e) o.val[e] = 0.25f * static_cast<float>(e % 7) - 0.5f;  // beta C reads these
    ASSERT_EQ(trnsparseCsrSetPointers(o.C, o.off.data(), o.col.data(), o.val.data()), 0);
  };
  trnProfile_t numeric{}, copy{}, both{};
  ASSERT_EQ(trnsparseSpGEMM_workEstimation(h.h, N, N, &alpha, A, B, &beta, plain.C, TRN_R_32F, alg, plain.d, &s1, buf), 0);
  ASSERT_EQ(trnsparseSpGEMM_compute(h.h, N, N, &alpha, A, B, &beta, plain.C, TRN_R_32F, alg, plain.d, &s2, buf), 0);
  ASSERT_EQ(trnsparseGetLastProfile(h.h, &numeric), 0);
  set_pointers(plain);
  ASSERT_EQ(trnsparseSpGEMM_copy(h.h, N, N, &alpha, A, B, &beta, plain.C, TRN_R_32F, alg, plain.d), 0);
  ASSERT_EQ(trnsparseGetLastProfile(h.h, &copy), 0);
  ASSERT_EQ(trnsparseSpGEMMreuse_workEstimation(h.h, N, N, A, B, reuse.C, alg, reuse.d, &s1, buf), 0);
  ASSERT_EQ(trnsparseSpGEMMreuse_nnz(h.h, N, N, A, B, reuse.C, alg, reuse.d, &s2, buf, &s3, buf, &s4, buf), 0);
  set_pointers(reuse);
  ASSERT_EQ(trnsparseSpGEMMreuse_copy(h.h, N, N, A, B, reuse.C, alg, reuse.d, &s5, buf), 0);
  ASSERT_EQ(trnsparseSpGEMMreuse_compute(h.h, N, N, &alpha, A, B, &beta, reuse.C, TRN_R_32F, alg, reuse.d), 0);
  ASSERT_EQ(trnsparseGetLastProfile(h.h, &both), 0);
  ASSERT_GT(numeric.total_ns, 0.0);
  ASSERT_GT(copy.total_ns, 0.0);
  EXPECT_DOUBLE_EQ(both.total_ns, numeric.total_ns + copy.total_ns);
  EXPECT_EQ(both.instructions, numeric.instructions + copy.instructions);
  EXPECT_EQ(reuse.col, plain.col);
  EXPECT_EQ(0, std::memcmp(reuse.val.data(), plain.val.data(), plain.val.size() * sizeof(T)));
  for (Out* o : {&plain, &reuse}) {
    trnsparseSpGEMM_destroyDescr(o->d);
    trnsparseDestroySpMat(o->C);
  }
  trnsparseDestroySpMat(A);
  trnsparseDestroySpMat(B);
}

TEST(SpGEMMCsr, BadArgumentsAndPhaseOrder) {
  Handle h;
  Mat<double> a(5, 6, 0.4, false, 1), b(6, 4, 0.4, false, 2);
  trnsparseSpMatDescr_t A = a.create(TRNSPARSE_FORMAT_CSR), B = b.create(TRNSPARSE_FORMAT_CSR), C, Cf;
  std::vector<int> coff(6);
  ASSERT_EQ(trnsparseCreateCsr(&C, 5, 4, 0, coff.data(), nullptr, nullptr, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                               TRNSPARSE_INDEX_BASE_ZERO, TRN_R_64F), 0);
  ASSERT_EQ(trnsparseCreateCsr(&Cf, 5, 4, 0, coff.data(), nullptr, nullptr, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                               TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F), 0);
  trnsparseSpGEMMDescr_t d;
  trnsparseSpGEMM_createDescr(&d);
  const double one = 1.0, zero = 0.0;
  const auto N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
  size_t s = 0;
  char buf[64];
  EXPECT_EQ(trnsparseSpGEMM_workEstimation(h.h, TRNSPARSE_OPERATION_TRANSPOSE, N, &one, A, B, &zero, C, TRN_R_64F,
                                           TRNSPARSE_SPGEMM_DEFAULT, d, &s, buf), 3);
  EXPECT_EQ(h.last_param(), 1);
  EXPECT_EQ(trnsparseSpGEMM_workEstimation(h.h, N, N, &one, A, A, &zero, C, TRN_R_64F, TRNSPARSE_SPGEMM_DEFAULT, d, &s, buf), 3);
  EXPECT_EQ(h.last_param(), 5);  // 5 x 6 times 5 x 6
  EXPECT_EQ(trnsparseSpGEMM_workEstimation(h.h, N, N, &one, A, B, &zero, Cf, TRN_R_64F, TRNSPARSE_SPGEMM_DEFAULT, d, &s, buf),
            TRNSPARSE_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(trnsparseSpGEMM_copy(h.h, N, N, &one, A, B, &zero, C, TRN_R_64F, TRNSPARSE_SPGEMM_DEFAULT, d), 3);
  EXPECT_EQ(h.last_param(), 11);
  std::int64_t np = 0;
  EXPECT_EQ(trnsparseSpGEMM_getNumProducts(d, &np), 3);  // no work estimation yet
  ASSERT_EQ(trnsparseSpGEMM_workEstimation(h.h, N, N, &one, A, B, &zero, C, TRN_R_64F, TRNSPARSE_SPGEMM_DEFAULT, d, &s, buf), 0);
  EXPECT_EQ(trnsparseSpGEMM_estimateMemory(h.h, N, N, &one, A, B, &zero, C, TRN_R_64F, TRNSPARSE_SPGEMM_DEFAULT, d, 0.2f, &s,
                                           nullptr, nullptr), 3);  // ALG2 / ALG3 only
  EXPECT_EQ(h.last_param(), 9);
  EXPECT_EQ(trnsparseSpGEMM_estimateMemory(h.h, N, N, &one, A, B, &zero, C, TRN_R_64F, TRNSPARSE_SPGEMM_ALG3, d, 0.0f, &s,
                                           nullptr, nullptr), 3);
  EXPECT_EQ(h.last_param(), 11);
  size_t s2 = 0;
  EXPECT_EQ(trnsparseSpGEMM_estimateMemory(h.h, N, N, &one, A, B, &zero, C, TRN_R_64F, TRNSPARSE_SPGEMM_ALG3, d, 0.2f, &s,
                                           buf, &s2), 0);
  EXPECT_GT(s2, 0u);
  ASSERT_EQ(trnsparseSpGEMM_compute(h.h, N, N, &one, A, B, &zero, C, TRN_R_64F, TRNSPARSE_SPGEMM_DEFAULT, d, &s, buf), 0);
  // copy before SetPointers: C has no arrays
  EXPECT_EQ(trnsparseSpGEMM_copy(h.h, N, N, &one, A, B, &zero, C, TRN_R_64F, TRNSPARSE_SPGEMM_DEFAULT, d),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 7);
  // reuse phases out of order
  EXPECT_EQ(trnsparseSpGEMMreuse_copy(h.h, N, N, A, B, C, TRNSPARSE_SPGEMM_DEFAULT, d, &s, buf), 3);
  EXPECT_EQ(h.last_param(), 7);
  EXPECT_EQ(trnsparseSpGEMMreuse_compute(h.h, N, N, &one, A, B, &zero, C, TRN_R_64F, TRNSPARSE_SPGEMM_DEFAULT, d), 3);
  EXPECT_EQ(h.last_param(), 10);
  trnsparseSpGEMM_destroyDescr(d);
  trnsparseDestroySpMat(A);
  trnsparseDestroySpMat(B);
  trnsparseDestroySpMat(C);
  trnsparseDestroySpMat(Cf);
}

}  // namespace
