// csric02 / csrilu02 (IC(0) / ILU(0)) against a dense long-double oracle written here in the
// right-looking KIJ order (a different order from the library's left-looking rows), zero pivots
// (structural, numerical, boosted), bad arguments (status, parameter position, outputs untouched),
// and DenseToSparse into Blocked-ELL against plain block loops (issue #28).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <type_traits>
#include <vector>

#include "c_api_test_util.hpp"
#include "trn/sparse/incomplete.hpp"
#include "trnsparse.h"

using trnsparse_test::Handle;

TRNSPARSE_TYPED_ENTRY(csric02_bufferSize)
TRNSPARSE_TYPED_ENTRY(csric02_analysis)
TRNSPARSE_TYPED_ENTRY(csric02)
TRNSPARSE_TYPED_ENTRY(csrilu02_bufferSize)
TRNSPARSE_TYPED_ENTRY(csrilu02_analysis)
TRNSPARSE_TYPED_ENTRY(csrilu02)
TRNSPARSE_TYPED_ENTRY(csrilu02_numericBoost)

namespace {

// A CSR matrix (base 0 unless rebased) and its dense pattern.
template <class T>
struct Csr {
  int n = 0;
  std::vector<int> row, col;
  std::vector<T> val;
  std::vector<char> mask;  // n x n, row-major: 1 where stored
};

template <class T>
T random_value(std::mt19937& g) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
    return static_cast<T>(u(g));
  else
    return T(static_cast<typename T::value_type>(u(g)), static_cast<typename T::value_type>(u(g)));
}

// A random symmetric pattern with every diagonal stored; values Hermitian (hermitian) or general,
// with a diagonal that dominates its row (both factorizations exist without a zero pivot).
template <class T>
Csr<T> random_matrix(int n, double density, bool hermitian, unsigned seed) {
  std::mt19937 g(seed);
  std::bernoulli_distribution keep(density);
  Csr<T> a;
  a.n = n;
  a.mask.assign(static_cast<std::size_t>(n * n), 0);
  std::vector<T> dense(static_cast<std::size_t>(n * n), T{});
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      if (keep(g)) {
        a.mask[i * n + j] = a.mask[j * n + i] = 1;
        const T v = random_value<T>(g);
        dense[i * n + j] = v;
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
          dense[j * n + i] = hermitian ? v : random_value<T>(g);
        else
          dense[j * n + i] = hermitian ? std::conj(v) : random_value<T>(g);
      }
  for (int i = 0; i < n; ++i) {
    a.mask[i * n + i] = 1;
    dense[i * n + i] = T(static_cast<float>(2 + n * density * 2));
  }
  a.row.push_back(0);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      if (a.mask[i * n + j]) {
        a.col.push_back(j);
        a.val.push_back(dense[i * n + j]);
      }
    a.row.push_back(static_cast<int>(a.col.size()));
  }
  return a;
}

using LC = std::complex<long double>;
template <class T>
LC wide(T v) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
    return LC(static_cast<long double>(v), 0);
  else
    return LC(v.real(), v.imag());
}

// Dense oracle on the pattern, right-looking (k outer). ILU(0): unit L below, U on and above.
template <class T>
std::vector<LC> oracle_ilu0(const Csr<T>& a) {
  const int n = a.n;
  std::vector<LC> m(static_cast<std::size_t>(n * n));
  for (int i = 0; i < n; ++i)
    for (int e = a.row[i]; e < a.row[i + 1]; ++e) m[i * n + a.col[e]] = wide(a.val[e]);
  for (int k = 0; k < n; ++k)
    for (int i = k + 1; i < n; ++i) {
      if (!a.mask[i * n + k]) continue;
      m[i * n + k] /= m[k * n + k];
      for (int j = k + 1; j < n; ++j)
        if (a.mask[i * n + j] && a.mask[k * n + j]) m[i * n + j] -= m[i * n + k] * m[k * n + j];
    }
  return m;
}

// IC(0): L on and below the diagonal, A = L L^H on the pattern (lower triangle read).
template <class T>
std::vector<LC> oracle_ic0(const Csr<T>& a) {
  const int n = a.n;
  std::vector<LC> m(static_cast<std::size_t>(n * n));
  for (int i = 0; i < n; ++i)
    for (int e = a.row[i]; e < a.row[i + 1]; ++e)
      if (a.col[e] <= i) m[i * n + a.col[e]] = wide(a.val[e]);
  for (int k = 0; k < n; ++k) {
    m[k * n + k] = std::sqrt(m[k * n + k].real());
    for (int i = k + 1; i < n; ++i)
      if (a.mask[i * n + k]) m[i * n + k] /= m[k * n + k];
    for (int j = k + 1; j < n; ++j)
      for (int i = j; i < n; ++i)
        if (a.mask[i * n + j] && a.mask[i * n + k] && a.mask[j * n + k]) m[i * n + j] -= m[i * n + k] * std::conj(m[j * n + k]);
  }
  return m;
}

// A value array as the C entry points take it (trnComplex / trnDoubleComplex for complex T).
template <class T>
auto cp(std::vector<T>& v) {
  if constexpr (std::is_same_v<T, std::complex<float>>)
    return reinterpret_cast<trnComplex*>(v.data());
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    return reinterpret_cast<trnDoubleComplex*>(v.data());
  else
    return v.data();
}

template <class T>
double tolerance() {
  return std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>> ? 2e-5 : 1e-12;
}

struct Descr {
  trnsparseMatDescr_t d = nullptr;
  explicit Descr(int base = 0) {
    trnsparseCreateMatDescr(&d);
    trnsparseSetMatIndexBase(d, static_cast<trnsparseIndexBase_t>(base));
  }
  ~Descr() { trnsparseDestroyMatDescr(d); }
};

template <class T>
class Incomplete : public testing::Test {};
using ValueTypes = testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Incomplete, ValueTypes);

TYPED_TEST(Incomplete, Ilu0MatchesDenseOracle) {
  using T = TypeParam;
  Handle h;
  Descr d;
  for (const auto& [n, density] : std::vector<std::pair<int, double>>{{1, 0.0}, {7, 0.5}, {60, 0.08}}) {
    Csr<T> a = random_matrix<T>(n, density, false, 11u + static_cast<unsigned>(n));
    const std::vector<LC> want = oracle_ilu0(a);
    csrilu02Info_t info = nullptr;
    ASSERT_EQ(trnsparseCreateCsrilu02Info(&info), TRNSPARSE_STATUS_SUCCESS);
    int bytes = -1, pos = 7;
    const int nnz = static_cast<int>(a.val.size());
    ASSERT_EQ(csrilu02_bufferSize<T>(h.h, n, nnz, d.d, cp(a.val), a.row.data(), a.col.data(), info, &bytes),
              TRNSPARSE_STATUS_SUCCESS);
    EXPECT_GT(bytes, 0);
    ASSERT_EQ(csrilu02_analysis<T>(h.h, n, nnz, d.d, cp(a.val), a.row.data(), a.col.data(), info,
                                   TRNSPARSE_SOLVE_POLICY_USE_LEVEL, nullptr),
              TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(trnsparseXcsrilu02_zeroPivot(h.h, info, &pos), TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(pos, -1);
    ASSERT_EQ(csrilu02<T>(h.h, n, nnz, d.d, cp(a.val), a.row.data(), a.col.data(), info,
                          TRNSPARSE_SOLVE_POLICY_USE_LEVEL, nullptr),
              TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(trnsparseXcsrilu02_zeroPivot(h.h, info, &pos), TRNSPARSE_STATUS_SUCCESS);
    for (int i = 0; i < n; ++i)
      for (int e = a.row[i]; e < a.row[i + 1]; ++e) {
        const LC w = want[i * n + a.col[e]];
        EXPECT_LE(std::abs(wide(a.val[e]) - w), tolerance<T>() * (1 + std::abs(w))) << "n " << n << " (" << i << ", " << a.col[e] << ")";
      }
    trnsparseDestroyCsrilu02Info(info);
  }
}

TYPED_TEST(Incomplete, Ic0MatchesDenseOracleAndLeavesTheUpperTriangle) {
  using T = TypeParam;
  Handle h;
  Descr d(1);  // one-based arrays
  for (const auto& [n, density] : std::vector<std::pair<int, double>>{{1, 0.0}, {9, 0.4}, {60, 0.08}}) {
    Csr<T> a = random_matrix<T>(n, density, true, 23u + static_cast<unsigned>(n));
    const std::vector<LC> want = oracle_ic0(a);
    const std::vector<T> before = a.val;
    std::vector<int> row1 = a.row, col1 = a.col;
    for (int& r : row1) ++r;
    for (int& c : col1) ++c;
    csric02Info_t info = nullptr;
    ASSERT_EQ(trnsparseCreateCsric02Info(&info), TRNSPARSE_STATUS_SUCCESS);
    const int nnz = static_cast<int>(a.val.size());
    ASSERT_EQ(csric02_analysis<T>(h.h, n, nnz, d.d, cp(a.val), row1.data(), col1.data(), info,
                                  TRNSPARSE_SOLVE_POLICY_NO_LEVEL, nullptr),
              TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(csric02<T>(h.h, n, nnz, d.d, cp(a.val), row1.data(), col1.data(), info, TRNSPARSE_SOLVE_POLICY_NO_LEVEL,
                         nullptr),
              TRNSPARSE_STATUS_SUCCESS);
    int pos = 7;
    EXPECT_EQ(trnsparseXcsric02_zeroPivot(h.h, info, &pos), TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(pos, -1);
    for (int i = 0; i < n; ++i)
      for (int e = a.row[i]; e < a.row[i + 1]; ++e) {
        if (a.col[e] > i) {
          EXPECT_EQ(std::memcmp(&a.val[e], &before[e], sizeof(T)), 0) << "upper entry (" << i << ", " << a.col[e] << ") changed";
          continue;
        }
        const LC w = want[i * n + a.col[e]];
        EXPECT_LE(std::abs(wide(a.val[e]) - w), tolerance<T>() * (1 + std::abs(w))) << "n " << n << " (" << i << ", " << a.col[e] << ")";
      }
    trnsparseDestroyCsric02Info(info);
  }
}

// The factors and the operation counts of the documented row loops (trn/sparse/incomplete.hpp), written
// here with a dense column -> entry map in fp64 (complex<double>): ILU(0) row i divides each lower
// (i, k) by u_kk and subtracts l_ik u_kj from every stored (i, j), j > k increasing; IC(0) row i
// subtracts l_im conj(l_km) from each lower (i, k) over the stored m < k, m increasing, divides by l_kk
// and takes the square root of the diagonal less the sum of |l_ik|^2. A zero pivot (structural or
// numerical) stops at its row with nothing written. Counts: updates (IC(0): + 1 per lower entry) and
// divisions (+ 1 per square root), the host step's flops (updates x 2 + divisions, x 4 complex).
template <class T>
using WideOf = std::conditional_t<std::is_same_v<T, float> || std::is_same_v<T, double>, double, std::complex<double>>;

template <class T>
struct RowLoops {
  std::vector<T> out;
  long pivot = -1;
  double flops = 0;
};

template <class T>
RowLoops<T> row_loops(const Csr<T>& a, bool ic) {
  using W = WideOf<T>;
  const int n = a.n;
  std::vector<int> at(static_cast<std::size_t>(n * n), -1);
  for (int i = 0; i < n; ++i)
    for (int e = a.row[i]; e < a.row[i + 1]; ++e) at[i * n + a.col[e]] = e;
  std::vector<W> w(a.val.size());
  for (std::size_t e = 0; e < w.size(); ++e) w[e] = static_cast<W>(a.val[e]);
  const auto conj_w = [](W x) { if constexpr (std::is_same_v<W, double>) return x; else return std::conj(x); };
  double updates = 0, divisions = 0;
  RowLoops<T> r;
  r.out = a.val;
  for (int i = 0; i < n && r.pivot < 0; ++i) {
    const int diag = at[i * n + i];
    double d_sum = 0;
    for (int e = a.row[i]; e < a.row[i + 1] && a.col[e] < i; ++e) {
      const int k = a.col[e];
      if (!ic) {
        w[e] /= w[at[k * n + k]];
        ++divisions;
        for (int f = at[k * n + k] + 1; f < a.row[k + 1]; ++f)
          if (at[i * n + a.col[f]] >= 0) {
            w[at[i * n + a.col[f]]] -= w[e] * w[f];
            ++updates;
          }
        continue;
      }
      W s = w[e];
      for (int f = a.row[k]; f < a.row[k + 1] && a.col[f] < k; ++f)
        if (at[i * n + a.col[f]] >= 0) {
          s -= w[at[i * n + a.col[f]]] * conj_w(w[f]);
          ++updates;
        }
      w[e] = s / std::real(w[at[k * n + k]]);
      d_sum += std::norm(w[e]);
      ++divisions;
      ++updates;
    }
    if (diag < 0) {
      r.pivot = i;
    } else if (ic) {
      const double d = std::real(w[diag]) - d_sum;
      if (!(d > 0)) r.pivot = i;
      else w[diag] = W(std::sqrt(d)), ++divisions;
    } else if (w[diag] == W{}) {
      r.pivot = i;
    }
  }
  r.flops = (std::is_same_v<W, double> ? 1.0 : 4.0) * (2 * updates + divisions);
  if (r.pivot >= 0) return r;
  for (int i = 0; i < n; ++i)
    for (int e = a.row[i]; e < a.row[i + 1]; ++e)
      if (!ic || a.col[e] <= i) r.out[e] = static_cast<T>(w[e]);
  return r;
}

// Bit for bit against row_loops, with the host step's flops (the counts), on random patterns with
// many shared columns (IC(0)'s and ILU(0)'s merges of two rows), every value type, and a row without
// its diagonal (a structural zero: the counts up to it). Checked
// (session 27): IC(0) without its + 1 update per lower entry, or ILU(0) without counting its merged
// updates, fails here only.
TYPED_TEST(Incomplete, FactorsAndOperationCountsAreTheRowLoopsBitForBit) {
  using T = TypeParam;
  namespace sp = trn::sparse;
  const sp::Value value = std::is_same_v<T, float>    ? sp::Value::f32
                          : std::is_same_v<T, double> ? sp::Value::f64
                          : std::is_same_v<T, std::complex<float>> ? sp::Value::c32
                                                                   : sp::Value::c64;
  for (const bool ic : {false, true})
    for (const int missing : {-1, 37})
      for (const auto& [n, density] : std::vector<std::pair<int, double>>{{9, 0.5}, {80, 0.15}}) {
        Csr<T> a = random_matrix<T>(n, density, ic, 41u + static_cast<unsigned>(n));
        if (missing >= 0 && missing < n) {  // drop row `missing`'s diagonal
          int e = a.row[missing];
          while (a.col[e] != missing) ++e;
          a.col.erase(a.col.begin() + e);
          a.val.erase(a.val.begin() + e);
          for (int i = missing + 1; i <= n; ++i) --a.row[i];
          a.mask[missing * n + missing] = 0;
        }
        const RowLoops<T> want = row_loops(a, ic);
        const sp::IncompleteAnalysis an =
            sp::analyze_incomplete(ic ? sp::Incomplete::ic0 : sp::Incomplete::ilu0, n, static_cast<std::int64_t>(a.val.size()),
                                   a.row.data(), a.col.data(), a.val.data(), value, sp::IndexBase::zero, true);
        std::vector<T> got = a.val;
        sp::CallReport rep;
        const std::int64_t pivot = sp::incomplete_factor(sp::Settings{}, an, value, got.data(), {}, &rep);
        const std::string where = std::string(ic ? "IC(0)" : "ILU(0)") + " n " + std::to_string(n) + " missing " + std::to_string(missing);
        EXPECT_EQ(pivot, want.pivot) << where;
        EXPECT_EQ(rep.profile.host_flops, want.flops) << where;
        ASSERT_EQ(got.size(), want.out.size());
        EXPECT_EQ(std::memcmp(got.data(), want.out.data(), got.size() * sizeof(T)), 0) << where;
      }
}

// 3 x 3 CSR with the given stored entries (row-major list of (i, j, v)), base 0.
struct Small {
  std::vector<int> row{0}, col;
  std::vector<double> val;
  Small(int n, std::initializer_list<std::tuple<int, int, double>> entries) {
    int i = 0;
    for (const auto& [r, c, v] : entries) {
      while (i < r) row.push_back(static_cast<int>(col.size())), ++i;
      col.push_back(c);
      val.push_back(v);
    }
    while (i < n) row.push_back(static_cast<int>(col.size())), ++i;
  }
  int nnz() const { return static_cast<int>(val.size()); }
};

TEST(IncompleteZeroPivot, StructuralZeroIsReportedByAnalysisAndFactorization) {
  Handle h;
  Descr d(1);
  // Row 1 has no diagonal (entries (1, 0) and (1, 2)); one-based arrays: position 2.
  Small a(3, {{0, 0, 4}, {0, 1, 1}, {1, 0, 1}, {1, 2, 1}, {2, 1, 1}, {2, 2, 4}});
  for (int& r : a.row) ++r;
  for (int& c : a.col) ++c;
  const std::vector<double> before = a.val;
  csrilu02Info_t info = nullptr;
  trnsparseCreateCsrilu02Info(&info);
  ASSERT_EQ(trnsparseDcsrilu02_analysis(h.h, 3, a.nnz(), d.d, a.val.data(), a.row.data(), a.col.data(), info,
                                        TRNSPARSE_SOLVE_POLICY_USE_LEVEL, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  int pos = -7;
  EXPECT_EQ(trnsparseXcsrilu02_zeroPivot(h.h, info, &pos), TRNSPARSE_STATUS_ZERO_PIVOT);
  EXPECT_EQ(pos, 2);
  ASSERT_EQ(trnsparseDcsrilu02(h.h, 3, a.nnz(), d.d, a.val.data(), a.row.data(), a.col.data(), info,
                               TRNSPARSE_SOLVE_POLICY_USE_LEVEL, nullptr),
            TRNSPARSE_STATUS_SUCCESS);  // as cuSPARSE: the call succeeds, zeroPivot tells
  EXPECT_EQ(trnsparseXcsrilu02_zeroPivot(h.h, info, &pos), TRNSPARSE_STATUS_ZERO_PIVOT);
  EXPECT_EQ(pos, 2);
  EXPECT_EQ(a.val, before);  // nothing written
  trnsparseDestroyCsrilu02Info(info);
}

TEST(IncompleteZeroPivot, NumericalZeroStopsIluAndTheBoostReplacesIt) {
  Handle h;
  Descr d;
  // [[1 1 0] [1 1 1] [0 1 3]]: u_11 = 1 - 1 * 1 = 0 exactly.
  const Small a(3, {{0, 0, 1}, {0, 1, 1}, {1, 0, 1}, {1, 1, 1}, {1, 2, 1}, {2, 1, 1}, {2, 2, 3}});
  std::vector<double> v = a.val;
  csrilu02Info_t info = nullptr;
  trnsparseCreateCsrilu02Info(&info);
  ASSERT_EQ(trnsparseDcsrilu02_analysis(h.h, 3, a.nnz(), d.d, v.data(), a.row.data(), a.col.data(), info,
                                        TRNSPARSE_SOLVE_POLICY_NO_LEVEL, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  int pos = -7;
  EXPECT_EQ(trnsparseXcsrilu02_zeroPivot(h.h, info, &pos), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseDcsrilu02(h.h, 3, a.nnz(), d.d, v.data(), a.row.data(), a.col.data(), info,
                               TRNSPARSE_SOLVE_POLICY_NO_LEVEL, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(trnsparseXcsrilu02_zeroPivot(h.h, info, &pos), TRNSPARSE_STATUS_ZERO_PIVOT);
  EXPECT_EQ(pos, 1);
  EXPECT_EQ(v, a.val);  // untouched: no Inf / NaN written
  // Boost: |u_11| <= 1e-12 -> u_11 = 0.5; then l_21 = 1 / 0.5 = 2, u_22 = 3 - 2 * 1 = 1.
  double tol = 1e-12, boost = 0.5;
  ASSERT_EQ(trnsparseDcsrilu02_numericBoost(h.h, info, 1, &tol, &boost), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseDcsrilu02(h.h, 3, a.nnz(), d.d, v.data(), a.row.data(), a.col.data(), info,
                               TRNSPARSE_SOLVE_POLICY_NO_LEVEL, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(trnsparseXcsrilu02_zeroPivot(h.h, info, &pos), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(pos, -1);
  EXPECT_EQ(v, (std::vector<double>{1, 1, 1, 0.5, 1, 2, 1}));
  // Boost off again (the pointers are not read then): the zero pivot is back.
  v = a.val;
  ASSERT_EQ(trnsparseDcsrilu02_numericBoost(h.h, info, 0, nullptr, nullptr), TRNSPARSE_STATUS_SUCCESS);
  trnsparseDcsrilu02(h.h, 3, a.nnz(), d.d, v.data(), a.row.data(), a.col.data(), info, TRNSPARSE_SOLVE_POLICY_NO_LEVEL, nullptr);
  EXPECT_EQ(trnsparseXcsrilu02_zeroPivot(h.h, info, &pos), TRNSPARSE_STATUS_ZERO_PIVOT);
  EXPECT_EQ(pos, 1);
  trnsparseDestroyCsrilu02Info(info);
}

// Two zero pivots in different orders of rows and levels: rows 0 and 2 form level 0, row 1 (which
// reads row 0) level 1, so a level-order factorization (IC(0)'s, incomplete.cpp factor_typed; ILU(0)
// measured faster in row order and keeps it) meets the zero pivot of row 2 before the one of row 1.
// The reported pivot must be the first in row order either way, nothing written (fails if ILU(0)
// runs in level order without the rerun in row order: checked by mutation).
TEST(IncompleteZeroPivot, IluReportsTheFirstZeroPivotInRowOrderNotInLevelOrder) {
  Handle h;
  Descr d;
  // [[1 1 0] [1 1 0] [0 0 0]]: u_11 = 1 - 1 * 1 = 0 (row 1), u_22 = 0 (row 2, no dependencies).
  const Small a(3, {{0, 0, 1}, {0, 1, 1}, {1, 0, 1}, {1, 1, 1}, {2, 2, 0}});
  std::vector<double> v = a.val;
  csrilu02Info_t info = nullptr;
  trnsparseCreateCsrilu02Info(&info);
  ASSERT_EQ(trnsparseDcsrilu02_analysis(h.h, 3, a.nnz(), d.d, v.data(), a.row.data(), a.col.data(), info,
                                        TRNSPARSE_SOLVE_POLICY_USE_LEVEL, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseDcsrilu02(h.h, 3, a.nnz(), d.d, v.data(), a.row.data(), a.col.data(), info,
                               TRNSPARSE_SOLVE_POLICY_USE_LEVEL, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  int pos = -7;
  EXPECT_EQ(trnsparseXcsrilu02_zeroPivot(h.h, info, &pos), TRNSPARSE_STATUS_ZERO_PIVOT);
  EXPECT_EQ(pos, 1);
  EXPECT_EQ(v, a.val);
  trnsparseDestroyCsrilu02Info(info);
}

TEST(IncompleteZeroPivot, IcPivotNotPositiveIsReported) {
  Handle h;
  Descr d;
  // [[1 2] [2 1]] (symmetric, indefinite): pivot 1 - 2^2 = -3 at row 1. [[4 0] [0 0]]: pivot 0 at row 1.
  for (const Small& a : {Small(2, {{0, 0, 1}, {0, 1, 2}, {1, 0, 2}, {1, 1, 1}}), Small(2, {{0, 0, 4}, {1, 1, 0}})}) {
    std::vector<double> v = a.val;
    csric02Info_t info = nullptr;
    trnsparseCreateCsric02Info(&info);
    ASSERT_EQ(trnsparseDcsric02_analysis(h.h, 2, a.nnz(), d.d, v.data(), a.row.data(), a.col.data(), info,
                                         TRNSPARSE_SOLVE_POLICY_NO_LEVEL, nullptr),
              TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(trnsparseDcsric02(h.h, 2, a.nnz(), d.d, v.data(), a.row.data(), a.col.data(), info,
                                TRNSPARSE_SOLVE_POLICY_NO_LEVEL, nullptr),
              TRNSPARSE_STATUS_SUCCESS);
    int pos = -7;
    EXPECT_EQ(trnsparseXcsric02_zeroPivot(h.h, info, &pos), TRNSPARSE_STATUS_ZERO_PIVOT);
    EXPECT_EQ(pos, 1);
    EXPECT_EQ(v, a.val);
    trnsparseDestroyCsric02Info(info);
  }
}

TEST(IncompleteArguments, EveryArgumentIsCheckedAndNothingIsWritten) {
  Handle h;
  Descr d;
  const Small a(3, {{0, 0, 4}, {0, 1, 1}, {1, 0, 1}, {1, 1, 4}, {2, 2, 4}});
  std::vector<double> v = a.val;
  const int* r = a.row.data();
  const int* c = a.col.data();
  const int nnz = a.nnz();
  csrilu02Info_t info = nullptr;
  csric02Info_t ic = nullptr;
  trnsparseCreateCsrilu02Info(&info);
  trnsparseCreateCsric02Info(&ic);
  const auto P = TRNSPARSE_SOLVE_POLICY_NO_LEVEL;
  auto expect_bad = [&](trnsparseStatus_t st, int position, trnsparseStatus_t want = TRNSPARSE_STATUS_INVALID_VALUE) {
    EXPECT_EQ(st, want);
    if (want == TRNSPARSE_STATUS_INVALID_VALUE) {
      EXPECT_EQ(h.last_param(), position);
    }
    EXPECT_EQ(v, a.val);
  };
  // The factorization before any analysis: the info is not ready (position 7).
  expect_bad(trnsparseDcsrilu02(h.h, 3, nnz, d.d, v.data(), r, c, info, P, nullptr), 7);
  expect_bad(trnsparseDcsrilu02_analysis(h.h, -1, nnz, d.d, v.data(), r, c, info, P, nullptr), 1);
  expect_bad(trnsparseDcsrilu02_analysis(h.h, 3, -1, d.d, v.data(), r, c, info, P, nullptr), 2);
  expect_bad(trnsparseDcsrilu02_analysis(h.h, 3, nnz, nullptr, v.data(), r, c, info, P, nullptr), 3);
  expect_bad(trnsparseDcsrilu02_analysis(h.h, 3, nnz, d.d, nullptr, r, c, info, P, nullptr), 4);
  expect_bad(trnsparseDcsrilu02_analysis(h.h, 3, nnz, d.d, v.data(), nullptr, c, info, P, nullptr), 5);
  expect_bad(trnsparseDcsrilu02_analysis(h.h, 3, nnz, d.d, v.data(), r, nullptr, info, P, nullptr), 6);
  expect_bad(trnsparseDcsrilu02_analysis(h.h, 3, nnz, d.d, v.data(), r, c, reinterpret_cast<csrilu02Info_t>(ic), P, nullptr), 7);
  expect_bad(trnsparseDcsrilu02_analysis(h.h, 3, nnz, d.d, v.data(), r, c, info, static_cast<trnsparseSolvePolicy_t>(2), nullptr), 8);
  int bytes = -5;
  expect_bad(trnsparseDcsrilu02_bufferSize(h.h, 3, nnz, d.d, v.data(), r, c, info, nullptr), 8);
  expect_bad(trnsparseDcsric02_bufferSize(h.h, 3, nnz, d.d, v.data(), r, c, nullptr, &bytes), 7);
  EXPECT_EQ(bytes, -5);
  EXPECT_EQ(trnsparseDcsric02_bufferSize(nullptr, 3, nnz, d.d, v.data(), r, c, ic, &bytes), TRNSPARSE_STATUS_NOT_INITIALIZED);
  // Index arrays: offsets not monotone (5), a column out of range or unsorted (6), nnz disagreeing (5).
  const std::vector<int> bad_rows{0, 3, 2, 5}, bad_cols{0, 1, 1, 0, 2}, big_col{0, 1, 0, 1, 3};
  expect_bad(trnsparseDcsrilu02_analysis(h.h, 3, nnz, d.d, v.data(), bad_rows.data(), c, info, P, nullptr), 5);
  expect_bad(trnsparseDcsrilu02_analysis(h.h, 3, nnz, d.d, v.data(), r, bad_cols.data(), info, P, nullptr), 6);
  expect_bad(trnsparseDcsrilu02_analysis(h.h, 3, nnz, d.d, v.data(), r, big_col.data(), info, P, nullptr), 6);
  expect_bad(trnsparseDcsrilu02_analysis(h.h, 3, nnz - 1, d.d, v.data(), r, c, info, P, nullptr), 5);
  int pos = 9;
  EXPECT_EQ(trnsparseXcsrilu02_zeroPivot(h.h, info, &pos), TRNSPARSE_STATUS_SUCCESS);  // info untouched
  EXPECT_EQ(pos, -1);
  // A matrix type other than GENERAL.
  trnsparseSetMatType(d.d, TRNSPARSE_MATRIX_TYPE_SYMMETRIC);
  expect_bad(trnsparseDcsric02_analysis(h.h, 3, nnz, d.d, v.data(), r, c, ic, P, nullptr), 0,
             TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED);
  trnsparseSetMatType(d.d, TRNSPARSE_MATRIX_TYPE_GENERAL);
  // Analysis in one value type, factorization in another; another size; another base.
  ASSERT_EQ(trnsparseDcsrilu02_analysis(h.h, 3, nnz, d.d, v.data(), r, c, info, P, nullptr), TRNSPARSE_STATUS_SUCCESS);
  std::vector<float> f(v.begin(), v.end());
  EXPECT_EQ(trnsparseScsrilu02(h.h, 3, nnz, d.d, f.data(), r, c, info, P, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 7);
  EXPECT_EQ(f, std::vector<float>(a.val.begin(), a.val.end()));
  expect_bad(trnsparseDcsrilu02(h.h, 2, 3, d.d, v.data(), r, c, info, P, nullptr), 7);
  Descr one(1);
  expect_bad(trnsparseDcsrilu02(h.h, 3, nnz, one.d, v.data(), r, c, info, P, nullptr), 7);
  // numericBoost: info (1), tol (3) and boost_val (4) when enabled; zeroPivot: info (1), position (2).
  double tol = 0.1, boost = 1;
  EXPECT_EQ(trnsparseDcsrilu02_numericBoost(h.h, nullptr, 1, &tol, &boost), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 1);
  EXPECT_EQ(trnsparseDcsrilu02_numericBoost(h.h, info, 1, nullptr, &boost), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 3);
  EXPECT_EQ(trnsparseDcsrilu02_numericBoost(h.h, info, 1, &tol, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 4);
  EXPECT_EQ(trnsparseXcsrilu02_zeroPivot(h.h, reinterpret_cast<csrilu02Info_t>(ic), &pos), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 1);
  EXPECT_EQ(trnsparseXcsric02_zeroPivot(h.h, ic, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 2);
  EXPECT_EQ(trnsparseCreateCsric02Info(nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsparseDestroyCsric02Info(reinterpret_cast<csric02Info_t>(info)), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsparseDestroyCsrilu02Info(info), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(trnsparseDestroyCsric02Info(ic), TRNSPARSE_STATUS_SUCCESS);
}

// ---- DenseToSparse into Blocked-ELL ---------------------------------------------------------------

struct Bell {
  trnsparseDnMatDescr_t A = nullptr;
  trnsparseSpMatDescr_t B = nullptr;
  ~Bell() {
    trnsparseDestroyDnMat(A);
    trnsparseDestroySpMat(B);
  }
};

// A rows x cols matrix (row- or column-major, ld = inner + 1) whose nonzero blocks are random;
// analysis and convert against plain block loops, in fp64 and complex-fp64, base 0 and 1.
template <class T>
void check_bell(trnsparseOrder_t order, int base, trnDataType_t vt) {
  Handle h;
  const int rows = 12, cols = 18, block = 3, slots = 4, ell_cols = slots * block;
  const int brows = rows / block, bcols = cols / block;
  const int inner = order == TRNSPARSE_ORDER_COL ? rows : cols, outer = order == TRNSPARSE_ORDER_COL ? cols : rows;
  const int ld = inner + 1;
  std::mt19937 g(5u + static_cast<unsigned>(base));
  std::vector<T> dense(static_cast<std::size_t>(ld * outer), T{});
  std::vector<std::vector<int>> want(brows);
  for (int bi = 0; bi < brows; ++bi)
    for (int bj = 0; bj < bcols; ++bj) {
      if (static_cast<int>(want[bi].size()) == slots || g() % 3 != 0) continue;
      want[bi].push_back(bj);
      const int r = bi * block + static_cast<int>(g() % block), c = bj * block + static_cast<int>(g() % block);
      dense[order == TRNSPARSE_ORDER_COL ? r + c * ld : r * ld + c] = T(static_cast<double>(1 + g() % 9));
    }
  std::vector<int> col_ind(static_cast<std::size_t>(brows * slots), 77);
  std::vector<T> values(static_cast<std::size_t>(rows * ell_cols), T(-1.0));
  Bell m;
  ASSERT_EQ(trnsparseCreateDnMat(&m.A, rows, cols, ld, dense.data(), vt, order), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseCreateBlockedEll(&m.B, rows, cols, block, ell_cols, col_ind.data(), values.data(), TRNSPARSE_INDEX_32I,
                                      static_cast<trnsparseIndexBase_t>(base), vt),
            TRNSPARSE_STATUS_SUCCESS);
  size_t bytes = 0;
  ASSERT_EQ(trnsparseDenseToSparse_bufferSize(h.h, m.A, m.B, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, &bytes), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseDenseToSparse_analysis(h.h, m.A, m.B, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr), TRNSPARSE_STATUS_SUCCESS);
  for (int bi = 0; bi < brows; ++bi)
    for (int t = 0; t < slots; ++t)
      EXPECT_EQ(col_ind[bi * slots + t], t < static_cast<int>(want[bi].size()) ? want[bi][t] + base : -1) << bi << " " << t;
  ASSERT_EQ(trnsparseDenseToSparse_convert(h.h, m.A, m.B, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr), TRNSPARSE_STATUS_SUCCESS);
  for (int r = 0; r < rows; ++r)
    for (int s = 0; s < ell_cols; ++s) {
      const int bi = r / block, t = s / block;
      const T expect = t < static_cast<int>(want[bi].size())
                           ? dense[order == TRNSPARSE_ORDER_COL ? r + (want[bi][t] * block + s % block) * ld
                                                                : r * ld + want[bi][t] * block + s % block]
                           : T{};
      EXPECT_EQ(values[r * ell_cols + s], expect) << r << " " << s;
    }
}

TEST(DenseToBlockedEll, PatternAndValuesMatchBlockLoops) {
  check_bell<double>(TRNSPARSE_ORDER_ROW, 0, TRN_R_64F);
  check_bell<double>(TRNSPARSE_ORDER_COL, 1, TRN_R_64F);
  check_bell<std::complex<double>>(TRNSPARSE_ORDER_COL, 0, TRN_C_64F);
  check_bell<float>(TRNSPARSE_ORDER_ROW, 1, TRN_R_32F);
}

TEST(DenseToBlockedEll, RefusalsWriteNothing) {
  Handle h;
  // 4 x 4, block 2, one slot per block row: block row 0 has two nonzero blocks.
  std::vector<float> dense{1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0};  // row-major
  std::vector<int> col_ind{5, 5};
  std::vector<float> values(8, -1.0f);
  Bell m;
  trnsparseCreateDnMat(&m.A, 4, 4, 4, dense.data(), TRN_R_32F, TRNSPARSE_ORDER_ROW);
  trnsparseCreateBlockedEll(&m.B, 4, 4, 2, 2, col_ind.data(), values.data(), TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                            TRN_R_32F);
  EXPECT_EQ(trnsparseDenseToSparse_analysis(h.h, m.A, m.B, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 2);
  EXPECT_EQ(col_ind, (std::vector<int>{5, 5}));
  // A pattern that misses block (0, 1): convert refuses; an out-of-range block column too.
  col_ind = {0, 1};
  EXPECT_EQ(trnsparseDenseToSparse_convert(h.h, m.A, m.B, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 2);
  col_ind = {0, 2};
  EXPECT_EQ(trnsparseDenseToSparse_convert(h.h, m.A, m.B, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(values, std::vector<float>(8, -1.0f));
  // Other arguments: alg (3), bufferSize (4), a dense matrix of another shape (1).
  EXPECT_EQ(trnsparseDenseToSparse_analysis(h.h, m.A, m.B, static_cast<trnsparseDenseToSparseAlg_t>(1), nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 3);
  EXPECT_EQ(trnsparseDenseToSparse_bufferSize(h.h, m.A, m.B, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 4);
  trnsparseDnMatDescr_t other = nullptr;
  trnsparseCreateDnMat(&other, 4, 2, 2, dense.data(), TRN_R_32F, TRNSPARSE_ORDER_ROW);
  EXPECT_EQ(trnsparseDenseToSparse_analysis(h.h, other, m.B, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 1);
  trnsparseDestroyDnMat(other);
  EXPECT_EQ(values, std::vector<float>(8, -1.0f));
}

}  // namespace
