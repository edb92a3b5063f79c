// csrgeam2 (bufferSizeExt, Xcsrgeam2Nnz, S/D/C/Z csrgeam2) through the C API against an independent
// reference: the union pattern from std::set, the values as alpha a + beta b in long double, within
// the bound of trn/sparse/csrgeam.hpp (fp32 gamma_2 (|alpha a| + |beta b|), fp64 2.02 u |c|). Also the argument
// chain (positions), MATRIX_TYPE_NOT_SUPPORTED, C's offsets checked, and GetProperty.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "c_api_test_util.hpp"
#include "trn/sparse/csrgeam.hpp"
#include "trnsparse.h"

namespace {

using trnsparse_test::Handle;
using LC = std::complex<long double>;

template <class T>
constexpr bool kComplex = !std::is_floating_point_v<T>;
template <class T>
LC widen(T v) {
  if constexpr (kComplex<T>)
    return {static_cast<long double>(v.real()), static_cast<long double>(v.imag())};
  else
    return {static_cast<long double>(v), 0.0L};
}
template <class T>
using CT = std::conditional_t<std::is_same_v<T, float>, float,
                              std::conditional_t<std::is_same_v<T, double>, double,
                                                 std::conditional_t<std::is_same_v<T, std::complex<float>>, trnComplex, trnDoubleComplex>>>;

// A random m x n CSR (sorted columns) with index base `base`.
template <class T>
struct Csr {
  int m = 0, n = 0, base = 0;
  std::vector<int> row{}, col{};
  std::vector<T> val{};
  std::map<std::pair<int, int>, LC> entries() const {
    std::map<std::pair<int, int>, LC> e;
    for (int i = 0; i < m; ++i)
      for (int k = row[i] - base; k < row[i + 1] - base; ++k) e[{i, col[k] - base}] = widen(val[k]);
    return e;
  }
};
template <class T>
Csr<T> make(int m, int n, double density, int base, unsigned seed) {
  std::mt19937 g(seed);
  std::bernoulli_distribution keep(density);
  std::uniform_real_distribution<double> d(-1, 1);
  Csr<T> a{m, n, base};
  a.row.push_back(base);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j)
      if (keep(g)) {
        a.col.push_back(j + base);
        const double re = d(g);
        if constexpr (kComplex<T>)
          a.val.push_back(T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(d(g))));
        else
          a.val.push_back(static_cast<T>(re));
      }
    a.row.push_back(static_cast<int>(a.col.size()) + base);
  }
  return a;
}

TRNSPARSE_TYPED_ENTRY(csrgeam2)
TRNSPARSE_TYPED_ENTRY(csrgeam2_bufferSizeExt)

template <class T>
const CT<T>* cp(const std::vector<T>& v) {
  return reinterpret_cast<const CT<T>*>(v.data());
}
template <class T>
CT<T>* mp(std::vector<T>& v) {
  return reinterpret_cast<CT<T>*>(v.data());
}

struct Descrs {
  trnsparseMatDescr_t a = nullptr, b = nullptr, c = nullptr;
  Descrs(int ba, int bb, int bc) {
    trnsparseCreateMatDescr(&a);
    trnsparseCreateMatDescr(&b);
    trnsparseCreateMatDescr(&c);
    trnsparseSetMatIndexBase(a, static_cast<trnsparseIndexBase_t>(ba));
    trnsparseSetMatIndexBase(b, static_cast<trnsparseIndexBase_t>(bb));
    trnsparseSetMatIndexBase(c, static_cast<trnsparseIndexBase_t>(bc));
  }
  ~Descrs() {
    trnsparseDestroyMatDescr(a);
    trnsparseDestroyMatDescr(b);
    trnsparseDestroyMatDescr(c);
  }
};

template <class T>
class Csrgeam : public ::testing::Test {};
using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Csrgeam, Types);

TYPED_TEST(Csrgeam, UnionPatternAndValues) {
  using T = TypeParam;
  Handle h;
  const int m = 30, n = 25;
  const auto A = make<T>(m, n, 0.2, 0, 1), B = make<T>(m, n, 0.25, 1, 2);
  Descrs d(0, 1, 1);
  T alpha, beta;
  if constexpr (kComplex<T>) {
    alpha = T(0.75, -0.5), beta = T(-1.25, 0.25);
  } else {
    alpha = T(0.75), beta = T(-1.25);
  }
  size_t bytes = 0;
  ASSERT_EQ(csrgeam2_bufferSizeExt<T>(h.h, m, n, cp(std::vector<T>{alpha}), d.a, static_cast<int>(A.col.size()), cp(A.val),
                                      A.row.data(), A.col.data(), cp(std::vector<T>{beta}), d.b,
                                      static_cast<int>(B.col.size()), cp(B.val), B.row.data(), B.col.data(), d.c,
                                      static_cast<const CT<T>*>(nullptr), static_cast<const int*>(nullptr),
                                      static_cast<const int*>(nullptr), &bytes),
            TRNSPARSE_STATUS_SUCCESS);
  std::vector<int> rowC(m + 1, -5);
  int nnzC = -1;
  ASSERT_EQ(trnsparseXcsrgeam2Nnz(h.h, m, n, d.a, static_cast<int>(A.col.size()), A.row.data(), A.col.data(), d.b,
                                  static_cast<int>(B.col.size()), B.row.data(), B.col.data(), d.c, rowC.data(), &nnzC,
                                  nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  // the reference: union pattern, alpha a + beta b
  auto ea = A.entries(), eb = B.entries();
  std::map<std::pair<int, int>, std::pair<LC, long double>> want;  // value, |alpha a| + |beta b|
  for (auto& [k, v] : ea) want[k] = {widen(alpha) * v, std::abs(widen(alpha) * v)};
  for (auto& [k, v] : eb) {
    auto& w = want[k];
    w.first += widen(beta) * v;
    w.second += std::abs(widen(beta) * v);
  }
  ASSERT_EQ(nnzC, static_cast<int>(want.size()));
  std::vector<int> colC(static_cast<std::size_t>(nnzC), -7);
  std::vector<T> valC(static_cast<std::size_t>(nnzC));
  ASSERT_EQ(csrgeam2<T>(h.h, m, n, cp(std::vector<T>{alpha}), d.a, static_cast<int>(A.col.size()), cp(A.val), A.row.data(),
                        A.col.data(), cp(std::vector<T>{beta}), d.b, static_cast<int>(B.col.size()), cp(B.val),
                        B.row.data(), B.col.data(), d.c, mp(valC), rowC.data(), colC.data(), nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  // The engines' bound (trn/sparse/csrgeam.hpp): fp32 fl(fl(alpha a) + fl(beta b)), gamma_2 (|alpha a| +
  // |beta b|) in u = 2^-24 (complex sqrt(2) gamma_3); fp64 exact slice pairs rounded once, 2.02 u |c|.
  const bool single = std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>>;
  const long double us = single ? 0.0L : 2.02L * 0x1p-53L;
  const int kg = kComplex<T> ? 3 : 2;
  const long double g = single ? kg * 0x1p-24L / (1 - kg * 0x1p-24L) * (kComplex<T> ? std::sqrt(2.0L) : 1.0L) : 0.0L;
  auto it = want.begin();
  EXPECT_EQ(rowC[0], 1);
  for (int i = 0; i < m; ++i)
    for (int k = rowC[i] - 1; k < rowC[i + 1] - 1; ++k, ++it) {
      ASSERT_NE(it, want.end());
      EXPECT_EQ(it->first, std::make_pair(i, colC[k] - 1));
      const LC got = widen(valC[k]);
      EXPECT_LE(std::abs(got - it->second.first), us * std::abs(it->second.first) + g * it->second.second)
          << i << "," << colC[k];
    }
  EXPECT_EQ(it, want.end());
  // C's offsets that are not Xcsrgeam2Nnz's: INVALID_VALUE at position 17, C untouched
  const auto col0 = colC;
  rowC[3] += 1;
  EXPECT_EQ(csrgeam2<T>(h.h, m, n, cp(std::vector<T>{alpha}), d.a, static_cast<int>(A.col.size()), cp(A.val), A.row.data(),
                        A.col.data(), cp(std::vector<T>{beta}), d.b, static_cast<int>(B.col.size()), cp(B.val),
                        B.row.data(), B.col.data(), d.c, mp(valC), rowC.data(), colC.data(), nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 17);
  EXPECT_EQ(colC, col0);
}

TEST(CsrgeamArgs, ChecksAndProperty) {
  Handle h;
  Descrs d(0, 0, 0);
  // A = [1 . 2; . 3 .], B = [. 4 .; 5 . 6]; unsorted columns in A's first row are rejected
  std::vector<int> ra{0, 2, 3}, ca{0, 2, 1}, rb{0, 1, 3}, cb{1, 0, 2}, rc(3);
  std::vector<double> va{1, 2, 3}, vb{4, 5, 6};
  const double one = 1, two = 2;
  int nnz = 0;
  ASSERT_EQ(trnsparseXcsrgeam2Nnz(h.h, 2, 3, d.a, 3, ra.data(), ca.data(), d.b, 3, rb.data(), cb.data(), d.c, rc.data(), &nnz,
                                  nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(nnz, 6);
  EXPECT_EQ(rc, (std::vector<int>{0, 3, 6}));
  std::vector<int> cc(6);
  std::vector<double> vc(6);
  ASSERT_EQ(trnsparseDcsrgeam2(h.h, 2, 3, &one, d.a, 3, va.data(), ra.data(), ca.data(), &two, d.b, 3, vb.data(), rb.data(),
                               cb.data(), d.c, vc.data(), rc.data(), cc.data(), nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(cc, (std::vector<int>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(vc, (std::vector<double>{1, 8, 2, 10, 3, 12}));
  std::vector<int> bad{2, 0, 1};
  EXPECT_EQ(trnsparseXcsrgeam2Nnz(h.h, 2, 3, d.a, 3, ra.data(), bad.data(), d.b, 3, rb.data(), cb.data(), d.c, rc.data(),
                                  &nnz, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 6);
  EXPECT_EQ(trnsparseXcsrgeam2Nnz(h.h, 2, 3, d.a, 3, ra.data(), ca.data(), d.b, 3, rb.data(), cb.data(), d.c, rc.data(),
                                  nullptr, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 13);
  EXPECT_EQ(trnsparseDcsrgeam2(h.h, 2, 3, nullptr, d.a, 3, va.data(), ra.data(), ca.data(), &two, d.b, 3, vb.data(),
                               rb.data(), cb.data(), d.c, vc.data(), rc.data(), cc.data(), nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 3);
  EXPECT_EQ(trnsparseDcsrgeam2(h.h, -1, 3, &one, d.a, 3, va.data(), ra.data(), ca.data(), &two, d.b, 3, vb.data(),
                               rb.data(), cb.data(), d.c, vc.data(), rc.data(), cc.data(), nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 1);
  EXPECT_EQ(trnsparseDcsrgeam2(h.h, 2, 3, &one, d.a, 3, nullptr, ra.data(), ca.data(), &two, d.b, 3, vb.data(), rb.data(),
                               cb.data(), d.c, vc.data(), rc.data(), cc.data(), nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 6);
  EXPECT_EQ(trnsparseDcsrgeam2(h.h, 2, 3, &one, d.a, 3, va.data(), ra.data(), ca.data(), &two, d.b, 3, vb.data(), rb.data(),
                               cb.data(), d.c, vc.data(), rc.data(), nullptr, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 18);
  size_t bytes = 0;
  EXPECT_EQ(trnsparseDcsrgeam2_bufferSizeExt(h.h, 2, 3, &one, d.a, 3, va.data(), ra.data(), ca.data(), &two, d.b, 3,
                                             vb.data(), rb.data(), cb.data(), d.c, nullptr, nullptr, nullptr, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 19);
  EXPECT_EQ(trnsparseDcsrgeam2_bufferSizeExt(h.h, 2, 3, &one, d.a, 3, va.data(), ra.data(), ca.data(), &two, d.b, 3,
                                             vb.data(), rb.data(), cb.data(), d.c, nullptr, nullptr, nullptr, &bytes),
            TRNSPARSE_STATUS_SUCCESS);
  EXPECT_GT(bytes, 0u);
  trnsparseSetMatType(d.b, TRNSPARSE_MATRIX_TYPE_SYMMETRIC);
  EXPECT_EQ(trnsparseXcsrgeam2Nnz(h.h, 2, 3, d.a, 3, ra.data(), ca.data(), d.b, 3, rb.data(), cb.data(), d.c, rc.data(), &nnz,
                                  nullptr),
            TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED);
  EXPECT_EQ(vc, (std::vector<double>{1, 8, 2, 10, 3, 12}));
  EXPECT_EQ(trnsparseXcsrgeam2Nnz(nullptr, 2, 3, d.a, 3, ra.data(), ca.data(), d.b, 3, rb.data(), cb.data(), d.c, rc.data(),
                                  &nnz, nullptr),
            TRNSPARSE_STATUS_NOT_INITIALIZED);
  int v = -1;
  EXPECT_EQ(trnsparseGetProperty(MAJOR_VERSION, &v), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(v, TRNSPARSE_VER_MAJOR);
  EXPECT_EQ(trnsparseGetProperty(PATCH_LEVEL, &v), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(v, TRNSPARSE_VER_PATCH);
  EXPECT_EQ(trnsparseGetProperty(MINOR_VERSION, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
}

}  // namespace

namespace {

// nnz against a count written here: rows and columns, every type, NaN and signed zeros, lda > m.
template <class T>
void nnz_case(trnsparseStatus_t (*fn)(trnsparseHandle_t, trnsparseDirection_t, int, int, const trnsparseMatDescr_t,
                                      const CT<T>*, int, int*, int*)) {
  Handle h;
  trnsparseMatDescr_t d = nullptr;
  trnsparseCreateMatDescr(&d);
  const int m = 5, n = 4, lda = 7;
  std::vector<T> A(static_cast<std::size_t>(lda * n), T(9));  // padding rows m..lda-1 are non-zero: never counted
  std::mt19937 g(3);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      const int r = static_cast<int>(g() % 4);
      if constexpr (kComplex<T>)
        A[i + j * lda] = r == 0 ? T(0) : r == 1 ? T(0, -1) : r == 2 ? T(-0.0, 0.0) : T(std::nan(""), 0);
      else
        A[i + j * lda] = r == 0 ? T(0) : r == 1 ? T(-1) : r == 2 ? T(-0.0) : T(std::nan(""));
    }
  for (const int dir : {0, 1}) {
    std::vector<int> per(dir == 0 ? m : n, -1), want(per.size(), 0);
    int total = -1, want_total = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i)
        if (widen(A[i + j * lda]) != LC{}) {
          ++want[dir == 0 ? i : j];
          ++want_total;
        }
    ASSERT_EQ(fn(h.h, static_cast<trnsparseDirection_t>(dir), m, n, d, mp(A), lda, per.data(), &total), TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(per, want);
    EXPECT_EQ(total, want_total);
  }
  int total = -1;
  std::vector<int> per(m, -1);
  EXPECT_EQ(fn(h.h, static_cast<trnsparseDirection_t>(0), m, n, d, mp(A), m - 1, per.data(), &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 6);
  EXPECT_EQ(fn(h.h, static_cast<trnsparseDirection_t>(2), m, n, d, mp(A), lda, per.data(), &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 1);
  EXPECT_EQ(fn(h.h, static_cast<trnsparseDirection_t>(0), m, n, d, mp(A), lda, per.data(), nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 8);
  EXPECT_EQ(total, -1);
  trnsparseDestroyMatDescr(d);
}

TEST(Nnz, EveryType) {
  nnz_case<float>(trnsparseSnnz);
  nnz_case<double>(trnsparseDnnz);
  nnz_case<std::complex<float>>(trnsparseCnnz);
  nnz_case<std::complex<double>>(trnsparseZnnz);
}

}  // namespace

namespace {

// Legacy BSR in fp64 / complex (Dbsrmv, Cbsrmv, Zbsrmv, Dbsrmm) against a dense long-double product of
// the BSR matrix assembled here, both block orders, every op. D / Z run as Ozaki GEMMs per block row
// (spmm_fp64 BSR, docs/trnsparse.md "fp64 BSR and Blocked-ELL on TensorE"): q (2^-50 k max|a_i.|
// max|x| |alpha| + 4 u (|alpha| |op(A)| |x| + |beta y|)), k = 12 the widest panel, q = 1 real, 2
// complex; complex-fp32 (TensorE) sqrt(2) gamma32_{2k+6}.
template <class T>
struct Bsr {
  int mb, nb, bs, dir, base;
  std::vector<int> row, col;
  std::vector<T> val;
  LC at(int i, int j) const {  // dense entry
    const int I = i / bs, J = j / bs, r = i % bs, c = j % bs;
    for (int k = row[I] - base; k < row[I + 1] - base; ++k)
      if (col[k] - base == J) return widen(val[k * bs * bs + (dir == 0 ? r * bs + c : c * bs + r)]);
    return {};
  }
};
template <class T>
Bsr<T> make_bsr(int mb, int nb, int bs, int dir, int base, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  Bsr<T> a{mb, nb, bs, dir, base, {base}, {}, {}};
  for (int I = 0; I < mb; ++I) {
    for (int J = 0; J < nb; ++J)
      if (g() % 2) {
        a.col.push_back(J + base);
        for (int e = 0; e < bs * bs; ++e) {
          const double re = d(g);
          if constexpr (kComplex<T>)
            a.val.push_back(T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(d(g))));
          else
            a.val.push_back(static_cast<T>(re));
        }
      }
    a.row.push_back(static_cast<int>(a.col.size()) + base);
  }
  return a;
}

template <class T>
void bsrmv_case(trnsparseStatus_t (*fn)(trnsparseHandle_t, trnsparseDirection_t, trnsparseOperation_t, int, int, int,
                                        const CT<T>*, const trnsparseMatDescr_t, const CT<T>*, const int*, const int*, int,
                                        const CT<T>*, const CT<T>*, CT<T>*)) {
  Handle h;
  for (int dir = 0; dir < 2; ++dir)
    for (int op = 0; op < (kComplex<T> ? 3 : 2); ++op) {
      const auto A = make_bsr<T>(3, 4, 3, dir, dir, 40 + dir);
      trnsparseMatDescr_t d = nullptr;
      trnsparseCreateMatDescr(&d);
      trnsparseSetMatIndexBase(d, static_cast<trnsparseIndexBase_t>(dir));
      const int rows = op == 0 ? 9 : 12, cols = op == 0 ? 12 : 9;
      std::vector<T> x(cols), y(rows);
      for (int i = 0; i < cols; ++i) x[i] = T(static_cast<float>(i % 5) - 2.0f);
      for (int i = 0; i < rows; ++i) y[i] = T(static_cast<float>(i % 3));
      const auto y0 = y;
      T alpha(0.5f), beta(-2.0f);
      ASSERT_EQ(fn(h.h, static_cast<trnsparseDirection_t>(dir), static_cast<trnsparseOperation_t>(op), 3, 4,
                   static_cast<int>(A.col.size()), cp(std::vector<T>{alpha}), d, cp(A.val), A.row.data(), A.col.data(), 3, cp(x),
                   cp(std::vector<T>{beta}), mp(y)),
                TRNSPARSE_STATUS_SUCCESS);
      for (int i = 0; i < rows; ++i) {
        LC acc = 0;
        long double mag = 0, max_a = 0, max_x = 0;
        for (int j = 0; j < cols; ++j) {
          LC a = op == 0 ? A.at(i, j) : A.at(j, i);
          if (op == 2) a = std::conj(a);
          acc += a * widen(x[j]);
          mag += std::abs(a) * std::abs(widen(x[j]));
          max_a = std::max(max_a, std::abs(a));
          max_x = std::max(max_x, std::abs(widen(x[j])));
        }
        const LC want = widen(alpha) * acc + widen(beta) * widen(y0[i]);
        const long double al = std::abs(widen(alpha)), by = std::abs(widen(beta) * widen(y0[i]));
        const long double ozaki = (kComplex<T> ? 2.0L : 1.0L) * (0x1p-50L * 12 * max_a * max_x * al + 4 * 0x1p-53L * (al * mag + by));
        // Cbsrmv runs on TensorE (real 2x2 embedding): sqrt(2) gamma32_{2k+6}, k <= 12 stored per row.
        const long double g32 = 30 * 0x1p-24L / (1 - 30 * 0x1p-24L) * std::sqrt(2.0L) * (al * mag + by);
        const long double bound = std::is_same_v<T, std::complex<float>> ? g32 : ozaki;
        if constexpr (!std::is_same_v<T, std::complex<float>>) {
          EXPECT_LT(bound, 1e-9L * (al * mag + by + 1e-3L)) << "the bound catches a wrong op or a lost block";
        }
        EXPECT_LE(std::abs(widen(y[i]) - want), bound) << "dir " << dir << " op " << op << " row " << i;
      }
      trnsparseDestroyMatDescr(d);
    }
  // unsorted block columns: INVALID_VALUE at bsrSortedColIndA (10), y untouched
  auto A = make_bsr<T>(2, 4, 2, 0, 0, 7);
  if (A.row[1] - A.row[0] >= 2) std::swap(A.col[0], A.col[1]);
  else A.col[0] = 9;  // out of range
  trnsparseMatDescr_t d = nullptr;
  trnsparseCreateMatDescr(&d);
  std::vector<T> x(8, T(1.0f)), y(4, T(3.0f));
  const auto y0 = y;
  T one(1.0f);
  EXPECT_EQ(fn(h.h, static_cast<trnsparseDirection_t>(0), static_cast<trnsparseOperation_t>(0), 2, 4, static_cast<int>(A.col.size()),
               cp(std::vector<T>{one}), d, cp(A.val), A.row.data(), A.col.data(), 2, cp(x), cp(std::vector<T>{one}), mp(y)),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 10);
  for (std::size_t i = 0; i < y.size(); ++i) EXPECT_EQ(widen(y[i]), widen(y0[i]));
  trnsparseDestroyMatDescr(d);
}

TEST(WideBsr, Bsrmv) {
  bsrmv_case<double>(trnsparseDbsrmv);
  bsrmv_case<std::complex<float>>(trnsparseCbsrmv);
  bsrmv_case<std::complex<double>>(trnsparseZbsrmv);
}

TEST(WideBsr, Dbsrmm) {
  Handle h;
  for (int tb = 0; tb < 2; ++tb) {
    const auto A = make_bsr<double>(3, 2, 4, 1, 0, 55);
    trnsparseMatDescr_t d = nullptr;
    trnsparseCreateMatDescr(&d);
    const int m = 12, k = 8, n = 5, ldb = tb == 0 ? 10 : 7, ldc = 13;
    std::vector<double> B(static_cast<std::size_t>(ldb * (tb == 0 ? n : k))), C(static_cast<std::size_t>(ldc * n), 1.0);
    for (std::size_t i = 0; i < B.size(); ++i) B[i] = static_cast<double>(i % 7) - 3.0;
    const auto C0 = C;
    const double alpha = 1.5, beta = -0.5;
    ASSERT_EQ(trnsparseDbsrmm(h.h, TRNSPARSE_DIRECTION_COLUMN, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                              static_cast<trnsparseOperation_t>(tb), 3, n, 2, static_cast<int>(A.col.size()), &alpha, d,
                              A.val.data(), A.row.data(), A.col.data(), 4, B.data(), ldb, &beta, C.data(), ldc),
              TRNSPARSE_STATUS_SUCCESS);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < ldc; ++i) {
        if (i >= m) {
          EXPECT_EQ(C[i + j * ldc], C0[i + j * ldc]);  // rows below m untouched
          continue;
        }
        long double acc = 0, mag = 0, max_a = 0, max_b = 0;
        for (int p = 0; p < k; ++p) {
          const long double a = A.at(i, p).real(), b = tb == 0 ? B[p + j * ldb] : B[j + p * ldb];
          acc += a * b;
          mag += std::fabs(a * b);
          max_a = std::max(max_a, std::fabs(a));
          max_b = std::max(max_b, std::fabs(b));
        }
        const long double want = alpha * acc + beta * C0[i + j * ldc];
        // the Ozaki GEMM of the block row (spmm_fp64 BSR): 2^-50 k max|a| max|b| |alpha| + 4 u (...)
        EXPECT_LE(std::fabs(C[i + j * ldc] - want), 0x1p-50L * k * max_a * max_b * alpha + 4 * 0x1p-53L * (alpha * mag + 0.5L))
            << i << "," << j;
      }
    trnsparseDestroyMatDescr(d);
  }
}

}  // namespace

// csrgeam2's staged sums from the merge's per-entry term masks (pair_sums.hpp TermMasks, session 26):
// every mask layout -- mixed (the two-slot "terms" layout), every entry A and B (identical patterns),
// only A (B empty), only B (A empty): the "fixed" layout -- and int64 / int32 operand index types
// (one merge per type pair), R_32F bit for bit against fl(fl(alpha a) + fl(beta b)) (one term:
// fl(alpha a) or fl(beta b)), the same bits at 2 threads and on 2 cores. Enough entries for several
// segments and tiles (pair_staged.hpp: 128 entries a segment here). csrgeam_nnz counts C's rows by a
// bitmap of the columns (session 27) except for "wide" (the merge); a wrong count of the common
// columns fails here (checked: the bit of column j + 1 tested).
TEST(CsrgeamMasks, EveryLayoutBitForBit) {
  namespace sp = trn::sparse;
  const int m = 400;
  struct Case {
    const char* name;
    double da, db;
    bool same_pattern, a64;
    int n = 300;
  };
  // "wide" / "wide identical": more bitmap words than stored entries, so csrgeam_nnz counts by the
  // merge (else by a bitmap of the columns, count_rows); "wide identical" has every column common.
  const Case cases[] = {{"mixed", 0.05, 0.05, false, false}, {"identical", 0.05, 0.05, true, false},
                        {"B empty", 0.05, 0.0, false, false}, {"A empty", 0.0, 0.05, false, false},
                        {"int64 A", 0.05, 0.05, false, true}, {"wide", 4e-6, 4e-6, false, false, 40000},
                        {"wide identical", 4e-6, 4e-6, true, false, 40000}};
  const float alpha = 0.75f, beta = -1.25f;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const int n = c.n;
    const Csr<float> a = make<float>(m, n, c.da, 0, 11);
    Csr<float> b = make<float>(m, n, c.db, 0, 12);
    if (c.same_pattern) {
      b = make<float>(m, n, c.da, 0, 11);  // A's pattern, other values
      for (float& v : b.val) v = v * 0.5f - 0.25f;
    }
    const std::vector<std::int64_t> a_row64(a.row.begin(), a.row.end()), a_col64(a.col.begin(), a.col.end());
    const sp::SparseRef A{sp::SparseRef::Format::csr, m, n, static_cast<std::int64_t>(a.col.size()),
                          c.a64 ? static_cast<const void*>(a_row64.data()) : a.row.data(),
                          c.a64 ? static_cast<const void*>(a_col64.data()) : a.col.data(), const_cast<float*>(a.val.data()),
                          c.a64 ? sp::IndexType::i64 : sp::IndexType::i32, c.a64 ? sp::IndexType::i64 : sp::IndexType::i32,
                          sp::IndexBase::zero, sp::Value::f32};
    const sp::SparseRef B{sp::SparseRef::Format::csr, m, n, static_cast<std::int64_t>(b.col.size()), b.row.data(), b.col.data(),
                          b.val.data(), sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, sp::Value::f32};
    // The reference: per (i, j) fl(alpha a) and / or fl(beta b), summed in fp32.
    std::map<std::pair<int, int>, std::pair<int, float>> want;  // terms seen (bit 0 a, bit 1 b), their values
    for (int i = 0; i < m; ++i) {
      for (int k = a.row[i]; k < a.row[i + 1]; ++k) want[{i, a.col[k]}] = {1, alpha * a.val[k]};
      for (int k = b.row[i]; k < b.row[i + 1]; ++k) {
        auto& w = want[{i, b.col[k]}];
        w.second = w.first == 1 ? w.second + beta * b.val[k] : beta * b.val[k];
        w.first |= 2;
      }
    }
    std::vector<std::uint32_t> first_bits;
    for (const auto& [threads, cores] : {std::pair{1, 1}, std::pair{2, 1}, std::pair{1, 2}}) {
      std::vector<std::int32_t> off(m + 1);
      const std::int64_t nnz = sp::csrgeam_nnz(A, B, sp::IndexBase::zero, off.data());
      ASSERT_EQ(nnz, static_cast<std::int64_t>(want.size()));
      std::vector<std::int32_t> col(static_cast<std::size_t>(nnz));
      std::vector<float> val(static_cast<std::size_t>(nnz), 99.0f);
      const sp::SparseRef C{sp::SparseRef::Format::csr, m, n, nnz, off.data(), col.data(), val.data(),
                            sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, sp::Value::f32};
      sp::Settings s;
      s.host_threads = threads;
      s.num_cores = cores;
      sp::csrgeam(s, {alpha, 0.0}, A, {beta, 0.0}, B, C);
      std::vector<std::uint32_t> bits(val.size());
      std::memcpy(bits.data(), val.data(), val.size() * sizeof(float));
      if (first_bits.empty()) {
        auto it = want.begin();
        for (int i = 0; i < m; ++i)
          for (int e = off[i]; e < off[i + 1]; ++e, ++it) {
            ASSERT_EQ(it->first, std::make_pair(i, col[static_cast<std::size_t>(e)]));
            EXPECT_EQ(val[static_cast<std::size_t>(e)], it->second.second) << "entry " << e;
          }
        first_bits = bits;
      } else {
        EXPECT_EQ(bits, first_bits) << threads << " threads, " << cores << " cores";
      }
    }
  }
}
