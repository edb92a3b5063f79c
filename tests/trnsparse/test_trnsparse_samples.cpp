// The C99 walkthroughs of trnsparse's C API (trnsparse_api_walkthroughs.c: one per call sequence a
// cuSPARSE program makes) on trnsci's own small problems, each result checked element-wise against a
// dense double loop written here. Earlier sessions ported and ran 30 of NVIDIA's cuSPARSE samples in
// this suite; their code left the tree because the project's tooling forbids committing fetched code
// (docs/trnsparse.md "Samples"). The ctest names (CusparseSamples.*) are kept so that CI keeps its
// coverage of the same API sequences.
//
// Exactness: the data are small integers (|x| <= 9), the scalars 2, -1, 0.5 and 0.75, triangles have
// power-of-two diagonals and right-hand sides L y with integer y: every product and every partial sum
// is an integer or a half-integer below 2^24, exact in fp32 in any order, so the checks are equality
// where the operation is exact (everything but the Krylov solves, which have their tolerance).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "trnsparse_api_walkthroughs.h"

namespace {

using Vec = std::vector<float>;

// A dense matrix, row-major, and its CSR / COO / Sliced-ELL forms (columns ascending in each row).
struct Dense {
  int rows = 0, cols = 0;
  std::vector<double> a;
  double at(int i, int j) const { return a[static_cast<std::size_t>(i * cols + j)]; }
};

struct Csr {
  std::vector<int> offsets, coo_rows, columns;
  Vec values;
  int rows = 0, cols = 0;
  walk_sparse_t csr() const {
    return {rows, cols, static_cast<int>(values.size()), offsets.data(), columns.data(), values.data()};
  }
  walk_sparse_t coo() const {
    return {rows, cols, static_cast<int>(values.size()), coo_rows.data(), columns.data(), values.data()};
  }
};

Csr to_csr(const Dense& d) {
  Csr c;
  c.rows = d.rows, c.cols = d.cols;
  c.offsets.push_back(0);
  for (int i = 0; i < d.rows; ++i) {
    for (int j = 0; j < d.cols; ++j)
      if (d.at(i, j) != 0) {
        c.coo_rows.push_back(i);
        c.columns.push_back(j);
        c.values.push_back(static_cast<float>(d.at(i, j)));
      }
    c.offsets.push_back(static_cast<int>(c.values.size()));
  }
  return c;
}

// Sliced-ELL with `slice` rows per slice: slot j of row r of a slice at offset + j * slice + r, -1 pads.
struct Sell {
  std::vector<int> offsets, columns;
  Vec values;
  walk_sell_t view(const Csr& c, int slice) const {
    return {c.rows,          c.cols,         static_cast<int>(c.values.size()), slice, static_cast<int>(values.size()),
            offsets.data(), columns.data(), values.data()};
  }
};

Sell to_sell(const Csr& c, int slice) {
  Sell s;
  s.offsets.push_back(0);
  for (int first = 0; first < c.rows; first += slice) {
    int width = 0;
    for (int r = first; r < first + slice && r < c.rows; ++r) width = std::max(width, c.offsets[r + 1] - c.offsets[r]);
    const std::size_t base = s.values.size();
    s.values.resize(base + static_cast<std::size_t>(width * slice), 0.0f);
    s.columns.resize(s.values.size(), -1);
    for (int r = first; r < first + slice && r < c.rows; ++r)
      for (int k = c.offsets[r]; k < c.offsets[r + 1]; ++k) {
        const std::size_t at = base + static_cast<std::size_t>((k - c.offsets[r]) * slice + (r - first));
        s.columns[at] = c.columns[k];
        s.values[at] = c.values[k];
      }
    s.offsets.push_back(static_cast<int>(s.values.size()));
  }
  return s;
}

// trnsci's 5 x 6 test matrix: an empty row (3), a full-width row span, mixed signs.
Dense matrix_a() {
  return {5, 6, {2, 0, -1, 0, 0, 3,  //
                 0, 0, 0, 4, 0, 0,   //
                 1, -2, 0, 0, 5, 0,  //
                 0, 0, 0, 0, 0, 0,   //
                 0, 6, 0, -3, 0, 1}};
}

// A 5 x 5 lower triangle with power-of-two diagonal (the solves' matrix).
Dense triangle_l() {
  return {5, 5, {2, 0, 0, 0, 0,   //
                 -1, 4, 0, 0, 0,  //
                 0, 3, 1, 0, 0,   //
                 2, 0, -1, 2, 0,  //
                 0, 1, 0, -2, 8}};
}

// Column-major rows x n with entries from a small integer pattern (seeded by `salt`).
Vec small_ints(int rows, int n, int salt) {
  Vec v(static_cast<std::size_t>(rows * n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(static_cast<int>((i * 5 + salt) % 9) - 4);
  return v;
}

// alpha A X + beta Y for column-major X (A.cols x n) and Y (A.rows x n), in double.
std::vector<double> dense_product(const Dense& A, int n, double alpha, const Vec& X, double beta, const Vec& Y) {
  std::vector<double> out(static_cast<std::size_t>(A.rows * n));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < A.rows; ++i) {
      double s = 0;
      for (int k = 0; k < A.cols; ++k) s += A.at(i, k) * X[static_cast<std::size_t>(k + j * A.cols)];
      out[static_cast<std::size_t>(i + j * A.rows)] = alpha * s + beta * Y[static_cast<std::size_t>(i + j * A.rows)];
    }
  return out;
}

void expect_equal(const Vec& got, const std::vector<double>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(static_cast<double>(got[i]), want[i]) << what << " [" << i << "]";
}

}  // namespace

TEST(CusparseSamples, SpMV) {
  const Dense A = matrix_a();
  const Csr c = to_csr(A);
  const Vec x = {1, -1, 2, 3, -2, 1}, y0 = {3, -1, 4, 1, -5};
  const std::vector<double> want = dense_product(A, 1, 2.0, x, -1.0, y0);
  Vec y = y0;
  const walk_sparse_t csr = c.csr(), coo = c.coo();
  ASSERT_EQ(walk_spmv_csr(&csr, 2.0f, x.data(), -1.0f, y.data()), 0);
  expect_equal(y, want, "csr");
  y = y0;
  ASSERT_EQ(walk_spmv_coo(&coo, 2.0f, x.data(), -1.0f, y.data()), 0);
  expect_equal(y, want, "coo");
}

TEST(CusparseSamples, SpMM) {
  const Dense A = matrix_a();
  const Csr c = to_csr(A);
  const int n = 3;
  const Vec B = small_ints(A.cols, n, 1), C0 = small_ints(A.rows, n, 2);
  const std::vector<double> want = dense_product(A, n, 2.0, B, 0.5, C0);
  const walk_sparse_t csr = c.csr(), coo = c.coo();
  Vec C = C0;
  ASSERT_EQ(walk_spmm_csr(&csr, n, 2.0f, B.data(), 0.5f, C.data()), 0);
  expect_equal(C, want, "csr");
  C = C0;
  ASSERT_EQ(walk_spmm_coo(&coo, n, 2.0f, B.data(), 0.5f, C.data()), 0);
  expect_equal(C, want, "coo");

  // Strided batches of two: the second matrix is A with every value negated and one entry dropped
  // from row 0 (kept with value 0 in the stored pattern: same nnz per batch, as the stride requires).
  Dense A2 = A;
  for (double& v : A2.a) v = -v;
  Csr batched = c, c2 = c;
  for (float& v : c2.values) v = -v;
  c2.values[0] = 0.0f;
  A2.a[0] = 0.0;
  batched.offsets.insert(batched.offsets.end(), c2.offsets.begin(), c2.offsets.end());
  batched.coo_rows.insert(batched.coo_rows.end(), c2.coo_rows.begin(), c2.coo_rows.end());
  batched.columns.insert(batched.columns.end(), c2.columns.begin(), c2.columns.end());
  batched.values.insert(batched.values.end(), c2.values.begin(), c2.values.end());
  Vec B2 = B, Cb0 = C0;
  const Vec B_second = small_ints(A.cols, n, 4), C_second = small_ints(A.rows, n, 5);
  B2.insert(B2.end(), B_second.begin(), B_second.end());
  Cb0.insert(Cb0.end(), C_second.begin(), C_second.end());
  std::vector<double> want2 = dense_product(A, n, 2.0, B, 0.5, C0);
  const std::vector<double> second = dense_product(A2, n, 2.0, B_second, 0.5, C_second);
  want2.insert(want2.end(), second.begin(), second.end());
  walk_sparse_t bcsr = batched.csr(), bcoo = batched.coo();
  bcsr.nnz = bcoo.nnz = static_cast<int>(c.values.size());
  Vec Cb = Cb0;
  ASSERT_EQ(walk_spmm_csr_batched(&bcsr, 2, n, 2.0f, B2.data(), 0.5f, Cb.data()), 0);
  expect_equal(Cb, want2, "csr batched");
  Cb = Cb0;
  ASSERT_EQ(walk_spmm_coo_batched(&bcoo, 2, n, 2.0f, B2.data(), 0.5f, Cb.data()), 0);
  expect_equal(Cb, want2, "coo batched");
}

namespace {

// C's values = alpha (A B) o spy(C) + beta C for row-major A (m x k), B (k x n) and C's CSR pattern.
std::vector<double> dense_sddmm(int m, int k, int n, const Vec& A, const Vec& B, const Csr& pattern, double alpha,
                                double beta, const Vec& old) {
  std::vector<double> out;
  for (int i = 0; i < m; ++i)
    for (int e = pattern.offsets[i]; e < pattern.offsets[i + 1]; ++e) {
      double s = 0;
      for (int l = 0; l < k; ++l)
        s += static_cast<double>(A[static_cast<std::size_t>(i * k + l)]) *
             B[static_cast<std::size_t>(l * n + pattern.columns[e])];
      out.push_back(alpha * s + beta * old[static_cast<std::size_t>(e)]);
    }
  (void)n;
  return out;
}

}  // namespace

TEST(CusparseSamples, SDDMM) {
  const int m = 4, k = 3, n = 5;
  const Vec A = small_ints(m, k, 3), B = small_ints(k, n, 6);  // read row-major
  const Csr pattern = to_csr({m, n, {1, 0, 1, 0, 1,  //
                                     0, 0, 0, 1, 0,  //
                                     1, 1, 0, 0, 0,  //
                                     0, 1, 0, 1, 1}});
  const Vec old = {1, -3, 5, 2, -1, 7, 0, 3, -2};
  Vec values = old;
  ASSERT_EQ(walk_sddmm_csr(m, k, n, A.data(), B.data(), static_cast<int>(old.size()), pattern.offsets.data(),
                           pattern.columns.data(), 2.0f, 0.5f, values.data()),
            0);
  expect_equal(values, dense_sddmm(m, k, n, A, B, pattern, 2.0, 0.5, old), "csr");

  // BSR C (4 x 6, 2 x 2 blocks, row-major inside): block row 0 holds block columns 0 and 2, block row 1
  // block column 1. Expected: (A B)(i, j) at every position of each stored block.
  const int bm = 4, bn = 6, block = 2;
  const std::vector<int> boffsets = {0, 2, 3}, bcolumns = {0, 2, 1};
  const Vec bA = small_ints(bm, k, 7), bB = small_ints(k, bn, 8);
  Vec bvalues(12, 99.0f);
  ASSERT_EQ(walk_sddmm_bsr(bm, k, bn, bA.data(), bB.data(), block, 3, boffsets.data(), bcolumns.data(),
                           bvalues.data()),
            0);
  std::vector<double> bwant;
  for (int br = 0; br < bm / block; ++br)
    for (int e = boffsets[br]; e < boffsets[br + 1]; ++e)
      for (int r = 0; r < block; ++r)
        for (int cc = 0; cc < block; ++cc) {
          const int i = br * block + r, j = bcolumns[e] * block + cc;
          double s = 0;
          for (int l = 0; l < k; ++l)
            s += static_cast<double>(bA[static_cast<std::size_t>(i * k + l)]) *
                 bB[static_cast<std::size_t>(l * bn + j)];
          bwant.push_back(s);
        }
  expect_equal(bvalues, bwant, "bsr");
}

TEST(CusparseSamples, SddmmBatched) {
  // Two batches of a 3 x 4 C (same nnz, different patterns), A 3 x 2 and B 2 x 4 row-major per batch.
  const int m = 3, k = 2, n = 4;
  const Csr p0 = to_csr({m, n, {1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 1}});
  const Csr p1 = to_csr({m, n, {0, 1, 0, 0, 1, 0, 0, 1, 1, 0, 1, 0}});
  ASSERT_EQ(p0.values.size(), p1.values.size());
  const int nnz = static_cast<int>(p0.values.size());
  const Vec A = small_ints(2 * m, k, 1), B = small_ints(2 * k, n, 2);
  std::vector<int> offsets = p0.offsets, columns = p0.columns;
  offsets.insert(offsets.end(), p1.offsets.begin(), p1.offsets.end());
  columns.insert(columns.end(), p1.columns.begin(), p1.columns.end());
  const Vec old = {1, 2, 3, 4, 5, -1, -2, -3, -4, -5};
  ASSERT_EQ(static_cast<int>(old.size()), 2 * nnz);
  Vec values = old;
  ASSERT_EQ(walk_sddmm_csr_batched(2, m, k, n, A.data(), B.data(), nnz, offsets.data(), columns.data(), 2.0f, -1.0f,
                                   values.data()),
            0);
  std::vector<double> want = dense_sddmm(m, k, n, Vec(A.begin(), A.begin() + m * k), Vec(B.begin(), B.begin() + k * n),
                                         p0, 2.0, -1.0, Vec(old.begin(), old.begin() + nnz));
  const std::vector<double> second = dense_sddmm(m, k, n, Vec(A.begin() + m * k, A.end()),
                                                 Vec(B.begin() + k * n, B.end()), p1, 2.0, -1.0,
                                                 Vec(old.begin() + nnz, old.end()));
  want.insert(want.end(), second.begin(), second.end());
  expect_equal(values, want, "batched");
}

TEST(CusparseSamples, SparseVectors) {
  const int size = 8;
  const std::vector<int> idx = {1, 4, 6};
  const Vec xv = {2, -3, 5}, y0 = {1, 7, -2, 4, 3, -6, 9, 0};
  float dot = -1;
  ASSERT_EQ(walk_spvv(size, 3, idx.data(), xv.data(), y0.data(), &dot), 0);
  EXPECT_EQ(dot, 2 * 7 + -3 * 3 + 5 * 9);

  Vec y = y0;
  ASSERT_EQ(walk_axpby(size, 3, idx.data(), xv.data(), 2.0f, -1.0f, y.data()), 0);
  std::vector<double> want(y0.begin(), y0.end());
  for (double& v : want) v = -v;
  for (std::size_t k = 0; k < idx.size(); ++k) want[static_cast<std::size_t>(idx[k])] += 2.0 * xv[k];
  expect_equal(y, want, "axpby");

  Vec gathered(3, 99.0f);
  ASSERT_EQ(walk_gather(size, 3, idx.data(), y0.data(), gathered.data()), 0);
  expect_equal(gathered, {7, 3, 9}, "gather");

  y = y0;
  ASSERT_EQ(walk_scatter(size, 3, idx.data(), xv.data(), y.data()), 0);
  want.assign(y0.begin(), y0.end());
  for (std::size_t k = 0; k < idx.size(); ++k) want[static_cast<std::size_t>(idx[k])] = xv[k];
  expect_equal(y, want, "scatter");

  // rot: x_k = c x_k + s y[i_k], y[i_k] = c y[i_k] - s x_k (the old x_k), other y untouched.
  Vec x = xv;
  y = y0;
  ASSERT_EQ(walk_rot(size, 3, idx.data(), 0.5f, 0.75f, x.data(), y.data()), 0);
  std::vector<double> want_x, want_y(y0.begin(), y0.end());
  for (std::size_t k = 0; k < idx.size(); ++k) {
    const double yi = y0[static_cast<std::size_t>(idx[k])];
    want_x.push_back(0.5 * xv[k] + 0.75 * yi);
    want_y[static_cast<std::size_t>(idx[k])] = 0.5 * yi - 0.75 * xv[k];
  }
  expect_equal(x, want_x, "rot x");
  expect_equal(y, want_y, "rot y");
}

TEST(CusparseSamples, Conversions) {
  const Dense A = matrix_a();
  const Csr c = to_csr(A);
  const Vec dense(A.a.begin(), A.a.end());
  std::vector<int> offsets(static_cast<std::size_t>(A.rows + 1), -1), columns(16, -1);
  Vec values(16, 99.0f);
  int nnz = -1;
  ASSERT_EQ(
      walk_dense2sparse_csr(A.rows, A.cols, dense.data(), 16, offsets.data(), columns.data(), values.data(), &nnz), 0);
  ASSERT_EQ(nnz, static_cast<int>(c.values.size()));
  EXPECT_EQ(offsets, c.offsets);
  EXPECT_EQ(std::vector<int>(columns.begin(), columns.begin() + nnz), c.columns);
  EXPECT_EQ(Vec(values.begin(), values.begin() + nnz), c.values);

  Vec back(static_cast<std::size_t>(A.rows * A.cols), 99.0f);
  const walk_sparse_t csr = c.csr();
  ASSERT_EQ(walk_sparse2dense_csr(&csr, back.data()), 0);
  expect_equal(back, A.a, "sparse2dense");

  // coosort: unsorted COO (rows 4, cols 5), fp64 values carried along through the permutation.
  std::vector<int> rows = {3, 0, 2, 0, 1, 3}, cols = {1, 4, 0, 2, 3, 0}, perm(6, -1);
  const std::vector<double> vals = {10.5, -2, 3.25, 7, 1, -4};
  std::vector<double> sorted(6, 99.0);
  ASSERT_EQ(walk_coosort(4, 5, 6, rows.data(), cols.data(), vals.data(), perm.data(), sorted.data()), 0);
  // (row, column) order: (0,2) (0,4) (1,3) (2,0) (3,0) (3,1) come from entries 3, 1, 4, 2, 5, 0.
  EXPECT_EQ(rows, (std::vector<int>{0, 0, 1, 2, 3, 3}));
  EXPECT_EQ(cols, (std::vector<int>{2, 4, 3, 0, 0, 1}));
  EXPECT_EQ(perm, (std::vector<int>{3, 1, 4, 2, 5, 0}));
  for (std::size_t k = 0; k < sorted.size(); ++k) EXPECT_EQ(sorted[k], vals[static_cast<std::size_t>(perm[k])]) << k;
}

TEST(CusparseSamples, DenseToSparseBlockedEll) {
  // 4 x 6, 2 x 2 blocks, two slots per block row: block row 0 has nonzero blocks at block columns 0
  // and 2, block row 1 only at 1 (its second slot is padding). Then SpMM with the result.
  const Dense A = {4, 6, {1, 0, 0, 0, 2, -1,  //
                          0, 3, 0, 0, 0, 4,   //
                          0, 0, -2, 5, 0, 0,  //
                          0, 0, 1, 0, 0, 0}};
  const Vec dense(A.a.begin(), A.a.end());
  const int block = 2, ell_cols = 4;
  std::vector<int> ell_columns(4, 77);
  Vec ell_values(16, 99.0f);
  ASSERT_EQ(walk_dense2sparse_blockedell(A.rows, A.cols, block, ell_cols, dense.data(), ell_columns.data(),
                                         ell_values.data()),
            0);
  EXPECT_EQ(ell_columns, (std::vector<int>{0, 2, 1, -1}));
  std::vector<double> want(16, 0.0);  // zeros in the padding slot
  for (int i = 0; i < A.rows; ++i)
    for (int slot = 0; slot < ell_cols / block; ++slot) {
      const int bc = ell_columns[static_cast<std::size_t>((i / block) * (ell_cols / block) + slot)];
      if (bc < 0) continue;
      for (int cc = 0; cc < block; ++cc)
        want[static_cast<std::size_t>(i * ell_cols + slot * block + cc)] = A.at(i, bc * block + cc);
    }
  expect_equal(ell_values, want, "ell values");

  const int n = 3;
  const Vec B = small_ints(A.cols, n, 3);
  Vec C(static_cast<std::size_t>(A.rows * n), 99.0f);
  ASSERT_EQ(walk_spmm_blockedell(A.rows, A.cols, block, ell_cols, ell_columns.data(), ell_values.data(), n, B.data(),
                                 C.data()),
            0);
  expect_equal(C, dense_product(A, n, 1.0, B, 0.0, Vec(C.size(), 0.0f)), "spmm blocked-ell");
}

namespace {

// The right-hand side 2 L Y for the integer solution Y (column-major, n columns): the walkthroughs
// solve with alpha 0.5, so the exact solution is Y.
Vec twice_l_times(const Dense& L, const Vec& Y, int n) {
  const std::vector<double> b = dense_product(L, n, 2.0, Y, 0.0, Vec(Y.size(), 0.0f));
  return Vec(b.begin(), b.end());
}

}  // namespace

TEST(CusparseSamples, TriangularSolves) {
  const Dense L = triangle_l();
  const Csr c = to_csr(L);
  const Vec y_true = {3, -1, 2, 1, -2};
  const Vec b = twice_l_times(L, y_true, 1);
  const std::vector<double> want(y_true.begin(), y_true.end());
  const walk_sparse_t csr = c.csr(), coo = c.coo();
  Vec y(5, 99.0f);
  ASSERT_EQ(walk_spsv_csr(&csr, 0.5f, b.data(), y.data()), 0);
  expect_equal(y, want, "spsv csr");
  y.assign(5, 99.0f);
  ASSERT_EQ(walk_spsv_coo(&coo, 0.5f, b.data(), y.data()), 0);
  expect_equal(y, want, "spsv coo");

  const int n = 3;
  const Vec Y = small_ints(5, n, 2), B = twice_l_times(L, Y, n);
  const std::vector<double> wantY(Y.begin(), Y.end());
  Vec C(Y.size(), 99.0f);
  ASSERT_EQ(walk_spsm_csr(&csr, n, 0.5f, B.data(), C.data()), 0);
  expect_equal(C, wantY, "spsm csr");
  C.assign(Y.size(), 99.0f);
  ASSERT_EQ(walk_spsm_coo(&coo, n, 0.5f, B.data(), C.data()), 0);
  expect_equal(C, wantY, "spsm coo");
}

TEST(CusparseSamples, SlicedEll) {
  const Dense A = matrix_a();
  const Csr c = to_csr(A);
  const Sell s = to_sell(c, 2);
  const walk_sell_t sell = s.view(c, 2);
  const Vec x = {1, -1, 2, 3, -2, 1}, y0 = {3, -1, 4, 1, -5};
  Vec y = y0;
  ASSERT_EQ(walk_spmv_sell(&sell, 2.0f, x.data(), -1.0f, y.data()), 0);
  expect_equal(y, dense_product(A, 1, 2.0, x, -1.0, y0), "spmv sell");

  const Dense L = triangle_l();
  const Csr lc = to_csr(L);
  const Sell ls = to_sell(lc, 2);
  const walk_sell_t lsell = ls.view(lc, 2);
  const Vec y_true = {3, -1, 2, 1, -2};
  const Vec b = twice_l_times(L, y_true, 1);
  Vec got(5, 99.0f);
  ASSERT_EQ(walk_spsv_sell(&lsell, 0.5f, b.data(), got.data()), 0);
  expect_equal(got, std::vector<double>(y_true.begin(), y_true.end()), "spsv sell");
}

namespace {

// The dense product alpha A B in CSR form (the expected SpGEMM result: a position is stored when
// some A(i, k) B(k, j) product exists, even when the sum cancels, as cuSPARSE's symbolic phase does).
Csr dense_spgemm(const Dense& A, const Dense& B, double alpha) {
  Csr c;
  c.rows = A.rows, c.cols = B.cols;
  c.offsets.push_back(0);
  for (int i = 0; i < A.rows; ++i) {
    for (int j = 0; j < B.cols; ++j) {
      bool structural = false;
      double s = 0;
      for (int k = 0; k < A.cols; ++k)
        if (A.at(i, k) != 0 && B.at(k, j) != 0) {
          structural = true;
          s += A.at(i, k) * B.at(k, j);
        }
      if (!structural) continue;
      c.columns.push_back(j);
      c.values.push_back(static_cast<float>(alpha * s));
    }
    c.offsets.push_back(static_cast<int>(c.values.size()));
  }
  return c;
}

long long product_count(const Dense& A, const Dense& B) {
  long long n = 0;
  for (int i = 0; i < A.rows; ++i)
    for (int k = 0; k < A.cols; ++k)
      for (int j = 0; j < B.cols; ++j) n += A.at(i, k) != 0 && B.at(k, j) != 0;
  return n;
}

// 6 x 4, an empty column (2): C = A B has an empty column and A's empty row gives an empty row.
Dense matrix_b() {
  return {6, 4, {1, 0, 0, 2,   //
                 0, -1, 0, 0,  //
                 3, 0, 0, 0,   //
                 0, 2, 0, -1,  //
                 1, 0, 0, 0,   //
                 0, 0, 0, 4}};
}

void expect_csr(const Csr& want, const std::vector<int>& offsets, const std::vector<int>& columns, const Vec& values,
                int nnz, const std::string& what) {
  ASSERT_EQ(nnz, static_cast<int>(want.values.size())) << what;
  EXPECT_EQ(offsets, want.offsets) << what;
  EXPECT_EQ(std::vector<int>(columns.begin(), columns.begin() + nnz), want.columns) << what;
  EXPECT_EQ(Vec(values.begin(), values.begin() + nnz), want.values) << what;
}

}  // namespace

TEST(CusparseSamples, SpGEMM) {
  const Dense A = matrix_a(), B = matrix_b();
  const Csr ca = to_csr(A), cb = to_csr(B);
  const walk_sparse_t a = ca.csr(), b = cb.csr();
  const int capacity = 32;
  std::vector<int> offsets(static_cast<std::size_t>(A.rows + 1), -1), columns(capacity, -1);
  Vec values(capacity, 99.0f);
  int nnz = -1;
  ASSERT_EQ(walk_spgemm(&a, &b, 2.0f, capacity, offsets.data(), columns.data(), values.data(), &nnz), 0);
  expect_csr(dense_spgemm(A, B, 2.0), offsets, columns, values, nnz, "spgemm");

  long long products = -1;
  offsets.assign(offsets.size(), -1);
  ASSERT_EQ(walk_spgemm_mem(&a, &b, 2.0f, capacity, offsets.data(), columns.data(), values.data(), &nnz, &products),
            0);
  expect_csr(dense_spgemm(A, B, 2.0), offsets, columns, values, nnz, "spgemm_mem");
  EXPECT_EQ(products, product_count(A, B));

  // Reuse: the second product with A's values replaced by 2 value + 1 (odd: never 0), same pattern.
  Dense A2 = A;
  for (double& v : A2.a)
    if (v != 0) v = 2 * v + 1;
  const Csr ca2 = to_csr(A2);
  ASSERT_EQ(ca2.columns, ca.columns);  // no value became 0: same pattern
  Vec values2(capacity, 99.0f);
  offsets.assign(offsets.size(), -1);
  ASSERT_EQ(walk_spgemm_reuse(&a, &b, ca2.values.data(), capacity, offsets.data(), columns.data(), values.data(),
                              values2.data(), &nnz),
            0);
  expect_csr(dense_spgemm(A, B, 1.0), offsets, columns, values, nnz, "reuse, first");
  expect_csr(dense_spgemm(A2, B, 1.0), offsets, columns, values2, nnz, "reuse, after A changed");
}

// Two 6 x 6 pentadiagonal systems (diagonally dominant), batch-major; expected: the integer solutions
// they were built from, within the fp32 bound of a stable banded elimination (8 n u |x|_inf here).
TEST(CusparseSamples, GpsvInterleavedBatch) {
  const int m = 6, batch = 2;
  std::vector<float> ds, dl, d, du, dw, b;
  const Vec x_true = {1, -2, 3, 0, 2, -1, /* system 1 */ 4, 1, -3, 2, 0, 5};
  for (int s = 0; s < batch; ++s) {
    for (int i = 0; i < m; ++i) {  // bands at row i: A(i, i-2) ds, A(i, i-1) dl, d, du, A(i, i+2) dw
      ds.push_back(i >= 2 ? static_cast<float>(1 + s) : 0.0f);
      dl.push_back(i >= 1 ? -1.0f : 0.0f);
      d.push_back(static_cast<float>(8 + i + s));
      du.push_back(i + 1 < m ? 2.0f : 0.0f);
      dw.push_back(i + 2 < m ? -1.0f : 0.0f);
    }
    for (int i = 0; i < m; ++i) {
      const auto at = [&](int j) {
        return j >= 0 && j < m ? static_cast<double>(x_true[static_cast<std::size_t>(s * m + j)]) : 0.0;
      };
      const std::size_t r = static_cast<std::size_t>(s * m + i);
      b.push_back(static_cast<float>(ds[r] * at(i - 2) + dl[r] * at(i - 1) + d[r] * at(i) + du[r] * at(i + 1) +
                                     dw[r] * at(i + 2)));
    }
  }
  Vec x(static_cast<std::size_t>(m * batch), 99.0f);
  ASSERT_EQ(walk_gpsv_interleaved_batch(m, batch, ds.data(), dl.data(), d.data(), du.data(), dw.data(), b.data(),
                                        x.data()),
            0);
  const double bound = 8.0 * m * std::ldexp(1.0, -24) * 5.0;
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(x[i], x_true[i], bound) << i;
}

namespace {

// The g x g grid's 5-point operator in CSR (fp64, columns ascending): 4 on the diagonal, -1 to the
// north and south neighbours, -1 - convection to the west and -1 + convection to the east (convection
// 0: the symmetric positive definite Poisson matrix; else non-symmetric, still diagonally dominant).
struct Grid {
  int n = 0;
  std::vector<int> offsets, columns;
  std::vector<double> values;
};

Grid grid_operator(int g, double convection) {
  Grid a;
  a.n = g * g;
  a.offsets.push_back(0);
  for (int i = 0; i < g; ++i)
    for (int j = 0; j < g; ++j) {
      const auto add = [&](int ii, int jj, double v) {
        if (ii < 0 || jj < 0 || ii >= g || jj >= g) return;
        a.columns.push_back(ii * g + jj);
        a.values.push_back(v);
      };
      add(i - 1, j, -1.0);
      add(i, j - 1, -1.0 - convection);
      add(i, j, 4.0);
      add(i, j + 1, -1.0 + convection);
      add(i + 1, j, -1.0);
      a.offsets.push_back(static_cast<int>(a.values.size()));
    }
  return a;
}

std::vector<long double> grid_times(const Grid& a, const std::vector<double>& x) {
  std::vector<long double> y(static_cast<std::size_t>(a.n), 0.0L);
  for (int i = 0; i < a.n; ++i)
    for (int e = a.offsets[i]; e < a.offsets[i + 1]; ++e)
      y[static_cast<std::size_t>(i)] +=
          static_cast<long double>(a.values[e]) * x[static_cast<std::size_t>(a.columns[e])];
  return y;
}

using KrylovWalk = int (*)(int, int, const int*, const int*, const double*, const double*, double, int, double*, int*);

// Solves A x = A x_true from x = 0 with tolerance 1e-10: the walkthrough stops before max_iterations,
// the true residual |b - A x|_2 (long double, here) is within twice the tolerance (the loop stops on
// the recursively updated residual, which drifts from the true one), and x is within 1e-6 |x_true|
// of x_true (cond(A) < 200 on these grids: the error is at most cond x the residual).
void expect_krylov_solves(KrylovWalk walk, const Grid& a, int max_iterations) {
  std::vector<double> x_true(static_cast<std::size_t>(a.n)), b, x(x_true.size(), 0.0);
  for (std::size_t i = 0; i < x_true.size(); ++i) x_true[i] = static_cast<double>(static_cast<int>((i * 7) % 11) - 5);
  for (long double v : grid_times(a, x_true)) b.push_back(static_cast<double>(v));
  int iterations = -1;
  ASSERT_EQ(walk(a.n, static_cast<int>(a.values.size()), a.offsets.data(), a.columns.data(), a.values.data(), b.data(),
                 1e-10, max_iterations, x.data(), &iterations),
            0);
  testing::Test::RecordProperty("iterations", iterations);
  EXPECT_GT(iterations, 0);
  EXPECT_LT(iterations, max_iterations);
  const std::vector<long double> ax = grid_times(a, x);
  long double r2 = 0, b2 = 0, err = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    r2 += (b[i] - ax[i]) * (b[i] - ax[i]);
    b2 += static_cast<long double>(b[i]) * b[i];
    err = std::max(err, std::fabs(static_cast<long double>(x[i]) - x_true[i]));
  }
  EXPECT_LE(static_cast<double>(std::sqrt(r2)), 2e-10 * static_cast<double>(std::sqrt(b2)));
  EXPECT_LE(static_cast<double>(err), 1e-6 * 5.0);
}

}  // namespace

// 16 x 16 Poisson (256 unknowns), IC(0) by csric02, CG with two SpSV (L, then L transposed) per step.
TEST(CusparseSamples, CgIncompleteCholesky) { expect_krylov_solves(walk_cg_ic0, grid_operator(16, 0.0), 200); }
// 16 x 16 convection-diffusion (convection 0.4), ILU(0) by csrilu02, BiCGStab with four SpSV per step.
TEST(CusparseSamples, BiCGStabIncompleteLU) {
  expect_krylov_solves(walk_bicgstab_ilu0, grid_operator(16, 0.4), 200);
}

// ---- issue #28 (s7/half): CUDA-spelled C++ programs of samples/cuda/, ported at build time by
// tools/port-cuda.sh against the host CUDA-runtime stand-in (tests/trnsparse/CMakeLists.txt); each
// prints "<name>_example test PASSED" when its own check holds. spmm_bell_half (trnsci's own) needs
// what a Blocked-ELL fp16 SpMM program needs: __half from float literals, static_cast<float>, the
// cuda_fp16.h conversions, Blocked-ELL SpMM in fp16 with fp32 compute. A program dropped into
// samples/cuda/ joins the table (cuda_samples.inc) at the next configure.
#define SAMPLE(s) int trnsparse_cuda_sample_##s();
#include "cuda_samples.inc"
#undef SAMPLE

TEST(CusparseSamples, CudaSpelledPrograms) {
  struct Program {
    const char* name;
    int (*main)();
  };
  const Program programs[] = {
#define SAMPLE(s) {#s, &trnsparse_cuda_sample_##s},
#include "cuda_samples.inc"
#undef SAMPLE
  };
  bool half_blockedell = false;
  for (const Program& p : programs) {
    SCOPED_TRACE(p.name);
    testing::internal::CaptureStdout();
    const int rc = p.main();
    const std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find(std::string(p.name) + "_example test PASSED"), std::string::npos) << out;
    EXPECT_EQ(out.find("FAILED"), std::string::npos) << out;
    half_blockedell = half_blockedell || std::string(p.name) == "spmm_bell_half";
  }
  EXPECT_TRUE(half_blockedell) << "samples/cuda/spmm_bell_half_example.cpp was not built";
}
