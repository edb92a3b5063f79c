// trnsparse Sliced-ELL through the C API (issue #28, fourth slice): random matrices stored both as a
// CSR and as a SELL (slots of a row in shuffled order, padding slots holding NaN values that must
// never be read, a last slice with rows past `rows`), every generic value type, int32 / int64
// indices, both bases. SpMV and SpSV on the SELL must give the same bits as on the CSR (the SELL
// paths are the CSR paths over the gathered pattern: docs/trnsparse.md "Sliced-ELL"), and SpMV is
// also checked against a long-double loop written here. Bad arguments at their positions, index
// faults reported with outputs untouched, the descriptor getters and strict mode on SpSV.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "c_api_test_util.hpp"
#include "trn/sparse/sell.hpp"
#include "trnsparse.h"

namespace {

using trnsparse_test::Handle;

template <class T>
constexpr trnDataType_t type_of() {
  if constexpr (std::is_same_v<T, float>) return TRN_R_32F;
  else if constexpr (std::is_same_v<T, double>) return TRN_R_64F;
  else if constexpr (std::is_same_v<T, std::complex<float>>) return TRN_C_32F;
  else return TRN_C_64F;
}
template <class T>
T draw(std::mt19937_64& g) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(d(g));
  else return T(static_cast<typename T::value_type>(d(g)), static_cast<typename T::value_type>(d(g)));
}
template <class T>
T nan_value() {
  if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::quiet_NaN();
  else return T(std::numeric_limits<typename T::value_type>::quiet_NaN(), 0);
}

// One matrix in both formats (indices of type I, counted from base).
template <class T, class I>
struct Both {
  std::int64_t rows = 0, cols = 0, nnz = 0, slice = 1, size = 0;
  int base = 0;
  std::vector<I> csr_off, csr_col, sell_off, sell_col;
  std::vector<T> csr_val, sell_val;
};

template <class T, class I>
Both<T, I> make(std::mt19937_64& g, std::int64_t rows, std::int64_t cols, double density, std::int64_t slice, int base,
                bool diagonal) {
  Both<T, I> m;
  m.rows = rows;
  m.cols = cols;
  m.slice = slice;
  m.base = base;
  std::bernoulli_distribution keep(density);
  std::vector<std::vector<std::pair<I, T>>> row(static_cast<std::size_t>(rows));
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j)
      if (keep(g) || (diagonal && i == j)) {
        T v = draw<T>(g);
        if (diagonal && i == j) v += T(4);  // well conditioned triangles
        row[static_cast<std::size_t>(i)].emplace_back(static_cast<I>(j + base), v);
      }
  m.csr_off.push_back(static_cast<I>(base));
  for (const auto& r : row) {
    for (const auto& [c, v] : r) {
      m.csr_col.push_back(c);
      m.csr_val.push_back(v);
    }
    m.csr_off.push_back(static_cast<I>(m.csr_col.size() + base));
  }
  m.nnz = static_cast<std::int64_t>(m.csr_col.size());
  const std::int64_t slices = rows == 0 ? 0 : (rows - 1) / slice + 1;
  m.sell_off.push_back(0);
  for (std::int64_t s = 0; s < slices; ++s) {
    std::size_t width = 0;
    for (std::int64_t r = s * slice; r < std::min(rows, (s + 1) * slice); ++r) width = std::max(width, row[static_cast<std::size_t>(r)].size());
    width += s % 2;  // an all-padding column in every other slice
    const std::size_t at = m.sell_col.size();
    m.sell_col.resize(at + width * static_cast<std::size_t>(slice), static_cast<I>(-1));
    m.sell_val.resize(m.sell_col.size(), nan_value<T>());
    for (std::int64_t r = 0; r < slice && s * slice + r < rows; ++r) {
      auto entries = row[static_cast<std::size_t>(s * slice + r)];
      std::shuffle(entries.begin(), entries.end(), g);  // any slot order
      for (std::size_t j = 0; j < entries.size(); ++j) {
        const std::size_t slot = at + j * static_cast<std::size_t>(slice) + static_cast<std::size_t>(r);
        m.sell_col[slot] = entries[j].first;
        m.sell_val[slot] = entries[j].second;
      }
    }
    m.sell_off.push_back(static_cast<I>(m.sell_col.size()));
  }
  m.size = static_cast<std::int64_t>(m.sell_col.size());
  return m;
}

template <class I>
constexpr trnsparseIndexType_t itype() {
  return sizeof(I) == 4 ? TRNSPARSE_INDEX_32I : TRNSPARSE_INDEX_64I;
}

template <class T, class I>
trnsparseSpMatDescr_t csr_of(Both<T, I>& m) {
  trnsparseSpMatDescr_t A = nullptr;
  EXPECT_EQ(trnsparseCreateCsr(&A, m.rows, m.cols, m.nnz, m.csr_off.data(), m.csr_col.data(), m.csr_val.data(), itype<I>(),
                               itype<I>(), static_cast<trnsparseIndexBase_t>(m.base), type_of<T>()),
            TRNSPARSE_STATUS_SUCCESS);
  return A;
}
template <class T, class I>
trnsparseSpMatDescr_t sell_of(Both<T, I>& m) {
  trnsparseSpMatDescr_t A = nullptr;
  EXPECT_EQ(trnsparseCreateSlicedEll(&A, m.rows, m.cols, m.nnz, m.size, m.slice, m.sell_off.data(), m.sell_col.data(),
                                     m.sell_val.data(), itype<I>(), itype<I>(), static_cast<trnsparseIndexBase_t>(m.base),
                                     type_of<T>()),
            TRNSPARSE_STATUS_SUCCESS);
  return A;
}

template <class T>
std::vector<T> spmv(trnsparseHandle_t h, int op, trnsparseSpMatDescr_t A, std::vector<T> x, std::vector<T> y, T alpha,
                    T beta, trnsparseStatus_t* st) {
  trnsparseDnVecDescr_t vx, vy;
  trnsparseCreateDnVec(&vx, static_cast<int64_t>(x.size()), x.data(), type_of<T>());
  trnsparseCreateDnVec(&vy, static_cast<int64_t>(y.size()), y.data(), type_of<T>());
  *st = trnsparseSpMV(h, static_cast<trnsparseOperation_t>(op), &alpha, A, vx, &beta, vy, type_of<T>(), TRNSPARSE_SPMV_ALG_DEFAULT,
                      nullptr);
  trnsparseDestroyDnVec(vx);
  trnsparseDestroyDnVec(vy);
  return y;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

template <class T, class I>
void spmv_sweep(std::uint64_t seed) {
  Handle h;
  std::mt19937_64 g(seed);
  for (const std::int64_t slice : {1, 3, 32, 130})
    for (const int base : {0, 1})
      for (const int op : {0, 1, 2}) {
        if (std::is_floating_point_v<T> && op == 2) continue;
        Both<T, I> m = make<T, I>(g, 37 + slice % 5, 29, 0.15, slice, base, false);
        trnsparseSpMatDescr_t A = csr_of(m), S = sell_of(m);
        const std::int64_t xn = op == 0 ? m.cols : m.rows, yn = op == 0 ? m.rows : m.cols;
        std::vector<T> x(static_cast<std::size_t>(xn)), y(static_cast<std::size_t>(yn));
        for (auto& v : x) v = draw<T>(g);
        for (auto& v : y) v = draw<T>(g);
        const T alpha = draw<T>(g), beta = draw<T>(g);
        trnsparseStatus_t s1, s2;
        const std::vector<T> want = spmv(h.h, op, A, x, y, alpha, beta, &s1);
        trnProfile_t on_csr{}, on_sell{};
        ASSERT_EQ(trnsparseGetLastProfile(h.h, &on_csr), TRNSPARSE_STATUS_SUCCESS);
        const std::vector<T> got = spmv(h.h, op, S, x, y, alpha, beta, &s2);
        // The SELL -> CSR gather is one more host round trip than the CSR call (docs/cost-model.md 7).
        ASSERT_EQ(trnsparseGetLastProfile(h.h, &on_sell), TRNSPARSE_STATUS_SUCCESS);
        EXPECT_EQ(on_sell.host_steps, on_csr.host_steps + 1);
        EXPECT_GT(on_sell.total_ns, on_csr.total_ns);
        ASSERT_EQ(s1, TRNSPARSE_STATUS_SUCCESS);
        ASSERT_EQ(s2, TRNSPARSE_STATUS_SUCCESS);
        EXPECT_TRUE(same_bits(want, got)) << "slice " << slice << " base " << base << " op " << op;
        // and an independent long-double loop over the CSR arrays
        std::vector<std::complex<long double>> ref(y.size());
        for (std::size_t i = 0; i < y.size(); ++i) ref[i] = std::complex<long double>(beta) * std::complex<long double>(y[i]);
        for (std::int64_t i = 0; i < m.rows; ++i)
          for (auto e = m.csr_off[static_cast<std::size_t>(i)] - base; e < m.csr_off[static_cast<std::size_t>(i) + 1] - base; ++e) {
            const std::int64_t j = m.csr_col[static_cast<std::size_t>(e)] - base;
            std::complex<long double> a(m.csr_val[static_cast<std::size_t>(e)]);
            if (op == 2) a = std::conj(a);
            const std::size_t out = static_cast<std::size_t>(op == 0 ? i : j), in = static_cast<std::size_t>(op == 0 ? j : i);
            ref[out] += std::complex<long double>(alpha) * a * std::complex<long double>(x[in]);
          }
        const long double tol = sizeof(T) / (std::is_floating_point_v<T> ? 1 : 2) == 4 ? 1e-5L : 1e-13L;
        for (std::size_t i = 0; i < y.size(); ++i)
          EXPECT_LE(std::abs(std::complex<long double>(got[i]) - ref[i]), tol * 40) << i;
        trnsparseDestroySpMat(A);
        trnsparseDestroySpMat(S);
      }
}

TEST(SlicedEll, SpMVSameBitsAsCsrFp32) { spmv_sweep<float, std::int32_t>(1); }
TEST(SlicedEll, SpMVSameBitsAsCsrFp64) { spmv_sweep<double, std::int64_t>(2); }
TEST(SlicedEll, SpMVSameBitsAsCsrC32) { spmv_sweep<std::complex<float>, std::int32_t>(3); }
TEST(SlicedEll, SpMVSameBitsAsCsrC64) { spmv_sweep<std::complex<double>, std::int64_t>(4); }

template <class T>
std::vector<T> spsv(trnsparseHandle_t h, int op, trnsparseSpMatDescr_t A, std::vector<T> x, std::int64_t n, T alpha,
                    const void* update, trnsparseStatus_t* st) {
  std::vector<T> y(static_cast<std::size_t>(n), T(0));
  trnsparseDnVecDescr_t vx, vy;
  trnsparseCreateDnVec(&vx, n, x.data(), type_of<T>());
  trnsparseCreateDnVec(&vy, n, y.data(), type_of<T>());
  trnsparseSpSVDescr_t d;
  trnsparseSpSV_createDescr(&d);
  const auto o = static_cast<trnsparseOperation_t>(op);
  *st = trnsparseSpSV_analysis(h, o, &alpha, A, vx, vy, type_of<T>(), TRNSPARSE_SPSV_ALG_DEFAULT, d, nullptr);
  if (*st == TRNSPARSE_STATUS_SUCCESS && update != nullptr)
    *st = trnsparseSpSV_updateMatrix(h, d, const_cast<void*>(update), TRNSPARSE_SPSV_UPDATE_GENERAL);
  if (*st == TRNSPARSE_STATUS_SUCCESS) *st = trnsparseSpSV_solve(h, o, &alpha, A, vx, vy, type_of<T>(), TRNSPARSE_SPSV_ALG_DEFAULT, d);
  trnsparseSpSV_destroyDescr(d);
  trnsparseDestroyDnVec(vx);
  trnsparseDestroyDnVec(vy);
  return y;
}

template <class T>
void spsv_sweep(std::uint64_t seed) {
  Handle h;
  std::mt19937_64 g(seed);
  for (const int fill : {0, 1})
    for (const int diag : {0, 1})
      for (const int op : {0, 1, 2}) {
        Both<T, std::int32_t> m = make<T, std::int32_t>(g, 23, 23, 0.2, 4, fill, true);
        trnsparseSpMatDescr_t A = csr_of(m), S = sell_of(m);
        for (auto* d : {A, S}) {
          trnsparseSpMatSetAttribute(d, TRNSPARSE_SPMAT_FILL_MODE, const_cast<int*>(&fill), sizeof(int));
          trnsparseSpMatSetAttribute(d, TRNSPARSE_SPMAT_DIAG_TYPE, const_cast<int*>(&diag), sizeof(int));
        }
        std::vector<T> x(23);
        for (auto& v : x) v = draw<T>(g);
        const T alpha = draw<T>(g);
        trnsparseStatus_t s1, s2;
        EXPECT_TRUE(same_bits(spsv(h.h, op, A, x, 23, alpha, nullptr, &s1), spsv(h.h, op, S, x, 23, alpha, nullptr, &s2)));
        ASSERT_EQ(s1, TRNSPARSE_STATUS_SUCCESS);
        ASSERT_EQ(s2, TRNSPARSE_STATUS_SUCCESS);
        // updateMatrix(GENERAL) takes a new values array in each format's own layout
        std::vector<T> csr2 = m.csr_val, sell2 = m.sell_val;
        for (auto& v : csr2) v *= T(2);
        for (auto& v : sell2) v *= T(2);
        EXPECT_TRUE(same_bits(spsv(h.h, op, A, x, 23, alpha, csr2.data(), &s1), spsv(h.h, op, S, x, 23, alpha, sell2.data(), &s2)));
        ASSERT_EQ(s2, TRNSPARSE_STATUS_SUCCESS);
        trnsparseDestroySpMat(A);
        trnsparseDestroySpMat(S);
      }
}

// The plan's predicted microseconds of each line ("...; predicted X us; ..."), in order.
std::vector<double> predicted_us(const std::string& plan) {
  std::vector<double> out;
  for (std::size_t at = plan.find("predicted "); at != std::string::npos; at = plan.find("predicted ", at + 1))
    out.push_back(std::stod(plan.substr(at + 10)));
  return out;
}

template <class T, class I>
trn::sparse::SellView sell_view(Both<T, I>& m, trn::DType dt) {
  trn::sparse::SellView v;
  v.rows = m.rows, v.cols = m.cols, v.nnz = m.nnz, v.values_size = m.size, v.slice_size = m.slice;
  v.slice_offsets = m.sell_off.data(), v.columns = m.sell_col.data(), v.values = m.sell_val.data();
  v.offsets_type = v.columns_type = sizeof(I) == 4 ? trn::sparse::IndexType::i32 : trn::sparse::IndexType::i64;
  v.base = m.base == 0 ? trn::sparse::IndexBase::zero : trn::sparse::IndexBase::one;
  v.value_type = dt;
  return v;
}

// The SELL -> CSR gather is in the call's plan (its line first, as the step runs first) with its
// predicted time; R_64F: the gathered CSR's row-group plan follows (TensorE through trnblas, its
// modeled time printed after the calls), the gather's prediction below the total; on the fp32 path
// the gather line is there too.
TEST(SlicedEll, PlanPredictsTheGather) {
  namespace sp = trn::sparse;
  std::mt19937_64 g(21);
  Both<double, std::int64_t> m = make<double, std::int64_t>(g, 300, 200, 0.05, 32, 0, false);
  std::vector<double> x(static_cast<std::size_t>(m.cols), 0.5), y(static_cast<std::size_t>(m.rows), 0.25);
  sp::CallReport rep;
  sp::spmv_host(sp::Settings{}, sp::GOp::N, 1.5, sell_view(m, trn::DType::f32), sp::Value::f64, x.data(), 0.5, y.data(),
                &rep);
  ASSERT_EQ(rep.plan.rfind("sell2csr plan", 0), 0u) << rep.plan;
  const std::vector<double> p = predicted_us(rep.plan);
  ASSERT_EQ(p.size(), 1u) << rep.plan;
  EXPECT_GT(p[0], 0.0);
  EXPECT_LT(p[0], rep.profile.total_ns * 1e-3) << rep.plan;
  EXPECT_NE(rep.plan.find("spmv plan: CSR R_64F"), std::string::npos) << rep.plan;
  EXPECT_NE(rep.plan.find("segmented slice pairs"), std::string::npos) << rep.plan;  // s11/spseg: one launch
  EXPECT_GT(rep.matmuls, 0);
  EXPECT_GT(rep.profile.busy_ns[static_cast<int>(trn::Engine::tensor)], 0.0);

  Both<float, std::int32_t> f = make<float, std::int32_t>(g, 300, 200, 0.05, 32, 0, false);
  std::vector<float> xf(static_cast<std::size_t>(f.cols), 0.5f), yf(static_cast<std::size_t>(f.rows), 0.25f);
  sp::CallReport repf;
  sp::spmv(sp::Settings{}, sp::Op::N, 1.5f, sell_view(f, trn::DType::f32), xf.data(), trn::DType::f32, 0.5f, yf.data(),
           trn::DType::f32, &repf);
  ASSERT_EQ(repf.plan.rfind("sell2csr plan", 0), 0u) << repf.plan;
  const std::vector<double> pf = predicted_us(repf.plan);
  ASSERT_GE(pf.size(), 1u);
  EXPECT_GT(pf[0], 0.0);
  EXPECT_LT(pf[0], repf.profile.total_ns * 1e-3);
}

TEST(SlicedEll, SpSVSameBitsAsCsrFp32) { spsv_sweep<float>(11); }
TEST(SlicedEll, SpSVSameBitsAsCsrFp64) { spsv_sweep<double>(12); }
TEST(SlicedEll, SpSVSameBitsAsCsrC32) { spsv_sweep<std::complex<float>>(13); }
TEST(SlicedEll, SpSVSameBitsAsCsrC64) { spsv_sweep<std::complex<double>>(14); }

// The sample's matrix: slices {rows 0,1} {rows 2,3}, width 3 and 3.
struct Sample {
  int off[3] = {0, 6, 12};
  int col[12] = {0, 1, 2, -1, 3, -1, 0, 1, 2, 3, 3, -1};
  float val[12] = {1, 4, 2, 0, 3, 0, 5, 8, 6, 9, 7, 0};
};

TEST(SlicedEll, CreateChecksEveryArgument) {
  Handle h;
  Sample s;
  trnsparseSpMatDescr_t A = nullptr;
  const auto I = TRNSPARSE_INDEX_32I;
  const auto Z = TRNSPARSE_INDEX_BASE_ZERO;
  auto create = [&](trnsparseSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz, int64_t size, int64_t slice,
                    void* off, void* col, void* val, int ot, int ct, int base, int vt) {
    trnsparse_test::g_lines.clear();
    return trnsparseCreateSlicedEll(d, rows, cols, nnz, size, slice, off, col, val, static_cast<trnsparseIndexType_t>(ot),
                                    static_cast<trnsparseIndexType_t>(ct), static_cast<trnsparseIndexBase_t>(base),
                                    static_cast<trnDataType_t>(vt));
  };
  auto logged = [](int pos) {
    const std::string want = "parameter number " + std::to_string(pos);
    for (const auto& l : trnsparse_test::g_lines)
      if (l.find(want) != std::string::npos) return true;
    return false;
  };
  EXPECT_EQ(create(nullptr, 4, 4, 9, 12, 2, s.off, s.col, s.val, I, I, Z, TRN_R_32F), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_TRUE(logged(1));
  EXPECT_EQ(create(&A, -1, 4, 9, 12, 2, s.off, s.col, s.val, I, I, Z, TRN_R_32F), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_TRUE(logged(2));
  EXPECT_EQ(create(&A, 4, -1, 9, 12, 2, s.off, s.col, s.val, I, I, Z, TRN_R_32F), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_TRUE(logged(3));
  EXPECT_EQ(create(&A, 4, 4, -1, 12, 2, s.off, s.col, s.val, I, I, Z, TRN_R_32F), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_TRUE(logged(4));
  EXPECT_EQ(create(&A, 4, 4, 9, 8, 2, s.off, s.col, s.val, I, I, Z, TRN_R_32F), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_TRUE(logged(5));
  EXPECT_EQ(create(&A, 4, 4, 9, 12, 0, s.off, s.col, s.val, I, I, Z, TRN_R_32F), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_TRUE(logged(6));
  EXPECT_EQ(create(&A, 4, 4, 9, 12, 2, nullptr, s.col, s.val, I, I, Z, TRN_R_32F), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_TRUE(logged(7));
  EXPECT_EQ(create(&A, 4, 4, 9, 12, 2, s.off, nullptr, s.val, I, I, Z, TRN_R_32F), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_TRUE(logged(8));
  EXPECT_EQ(create(&A, 4, 4, 9, 12, 2, s.off, s.col, nullptr, I, I, Z, TRN_R_32F), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_TRUE(logged(9));
  EXPECT_EQ(create(&A, 4, 4, 9, 12, 2, s.off, s.col, s.val, 7, I, Z, TRN_R_32F), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_TRUE(logged(10));
  EXPECT_EQ(create(&A, 4, 4, 9, 12, 2, s.off, s.col, s.val, I, 7, Z, TRN_R_32F), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_TRUE(logged(11));
  EXPECT_EQ(create(&A, 4, 4, 9, 12, 2, s.off, s.col, s.val, I, I, 2, TRN_R_32F), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_TRUE(logged(12));
  EXPECT_EQ(create(&A, 4, 4, 9, 12, 2, s.off, s.col, s.val, I, I, Z, 99), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_TRUE(logged(13));
  EXPECT_EQ(A, nullptr);  // untouched on every error
  // accepted, with the getters
  ASSERT_EQ(create(&A, 4, 4, 9, 12, 2, s.off, s.col, s.val, I, I, Z, TRN_R_32F), TRNSPARSE_STATUS_SUCCESS);
  int64_t r = 0, c = 0, n = 0;
  ASSERT_EQ(trnsparseSpMatGetSize(A, &r, &c, &n), 0);
  EXPECT_EQ(r, 4);
  EXPECT_EQ(c, 4);
  EXPECT_EQ(n, 9);
  trnsparseFormat_t f;
  ASSERT_EQ(trnsparseSpMatGetFormat(A, &f), 0);
  EXPECT_EQ(f, TRNSPARSE_FORMAT_SLICED_ELLPACK);
  void* v = nullptr;
  ASSERT_EQ(trnsparseSpMatGetValues(A, &v), 0);
  EXPECT_EQ(v, s.val);
  trnsparseIndexBase_t b;
  ASSERT_EQ(trnsparseSpMatGetIndexBase(A, &b), 0);
  EXPECT_EQ(b, Z);
  trnsparseDestroySpMat(A);
  trnsparseConstSpMatDescr_t C = nullptr;
  ASSERT_EQ(trnsparseCreateConstSlicedEll(&C, 4, 4, 9, 12, 2, s.off, s.col, s.val, I, I, Z, TRN_R_32F), 0);
  trnsparseDestroySpMat(C);
}

// Index faults are found by the compute call: INVALID_VALUE at matA's position, y untouched.
TEST(SlicedEll, IndexFaultsLeaveYUntouched) {
  Handle h;
  const auto mutate = std::vector<void (*)(Sample&, int64_t&)>{
      [](Sample& s, int64_t&) { s.off[0] = 1; },          // offsets start past 0
      [](Sample& s, int64_t&) { s.off[1] = 5; },          // a slice not whole columns
      [](Sample& s, int64_t&) { s.off[2] = 10; },         // last offset != sellValuesSize
      [](Sample& s, int64_t&) { s.col[2] = 4; },          // column out of range
      [](Sample& s, int64_t&) { s.col[2] = -2; },         // negative, not padding
      [](Sample& s, int64_t&) { s.col[2] = 0; },          // column 0 twice in row 0
      [](Sample&, int64_t& nnz) { nnz = 8; },           // nnz differs from the stored slots
      [](Sample& s, int64_t& nnz) { s.col[3] = 0, s.val[3] = 2, nnz = 10; },  // fine: row 1 gets column 0
  };
  for (std::size_t k = 0; k < mutate.size(); ++k) {
    Sample s;
    int64_t nnz = 9;
    mutate[k](s, nnz);
    trnsparseSpMatDescr_t A;
    ASSERT_EQ(trnsparseCreateSlicedEll(&A, 4, 4, nnz, 12, 2, s.off, s.col, s.val, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                       TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F),
              0);
    std::vector<float> x = {1, 2, 3, 4}, y0 = {7, 7, 7, 7};
    trnsparseStatus_t st;
    const std::vector<float> y = spmv<float>(h.h, 0, A, x, y0, 1.f, 1.f, &st);
    if (k + 1 == mutate.size()) {
      EXPECT_EQ(st, TRNSPARSE_STATUS_SUCCESS);
      EXPECT_EQ(y[1], 7 + 4 * 2 + 2 * 1);  // row 1: 4 x1 + 2 x0
    } else {
      EXPECT_EQ(st, TRNSPARSE_STATUS_INVALID_VALUE) << k;
      EXPECT_EQ(h.last_param(), 3) << k;
      EXPECT_TRUE(same_bits(y, y0)) << k;
    }
    trnsparseDestroySpMat(A);
  }
  // a row past `rows` in the last slice holding an entry
  Sample s;
  trnsparseSpMatDescr_t A;
  ASSERT_EQ(trnsparseCreateSlicedEll(&A, 3, 4, 9, 12, 2, s.off, s.col, s.val, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                     TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F),
            0);
  std::vector<float> x = {1, 2, 3, 4}, y0 = {7, 7, 7};
  trnsparseStatus_t st;
  EXPECT_TRUE(same_bits(spmv<float>(h.h, 0, A, x, y0, 1.f, 1.f, &st), y0));
  EXPECT_EQ(st, TRNSPARSE_STATUS_INVALID_VALUE);
  trnsparseDestroySpMat(A);
}

TEST(SlicedEll, StrictModeRejectsConjugateTransposeInSpSV) {
  Handle h;
  Sample s;
  trnsparseSpMatDescr_t A;
  ASSERT_EQ(trnsparseCreateSlicedEll(&A, 4, 4, 9, 12, 2, s.off, s.col, s.val, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                     TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F),
            0);
  std::vector<float> x = {1, 8, 23, 52};
  trnsparseStatus_t st;
  const std::vector<float> y = spsv<float>(h.h, 0, A, x, 4, 1.f, nullptr, &st);
  ASSERT_EQ(st, TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(y, (std::vector<float>{1, 2, 3, 4}));
  (void)spsv<float>(h.h, 2, A, x, 4, 1.f, nullptr, &st);
  EXPECT_EQ(st, TRNSPARSE_STATUS_SUCCESS);  // relaxed: C = T for real values
  trnsparseSetStrictMode(h.h, 1);
  (void)spsv<float>(h.h, 2, A, x, 4, 1.f, nullptr, &st);
  EXPECT_EQ(st, TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 1);
  trnsparseDestroySpMat(A);
}

}  // namespace
