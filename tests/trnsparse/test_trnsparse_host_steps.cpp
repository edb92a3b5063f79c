// The host-only format conversions of trnsparse (docs/cost-model.md section 7, "Every host step"):
// each call leaves a profile of one recorded host round trip whose bytes and declared operations
// follow from the call's shape (written out here from the cuSPARSE array sizes, independently of the
// library's code): CSR -> BSR (the row pointers, then the columns and values), BSR -> CSR, CSR -> CSC,
// CSR <-> COO.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "trnsparse.h"

namespace {

struct Handle {
  trnsparseHandle_t h = nullptr;
  trnsparseMatDescr_t a = nullptr, c = nullptr;
  Handle() {
    EXPECT_EQ(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(trnsparseCreateMatDescr(&a), TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(trnsparseCreateMatDescr(&c), TRNSPARSE_STATUS_SUCCESS);
  }
  ~Handle() {
    trnsparseDestroyMatDescr(a);
    trnsparseDestroyMatDescr(c);
    trnsparseDestroy(h);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  trnProfile_t profile() const {
    trnProfile_t p{};
    EXPECT_EQ(trnsparseGetLastProfile(h, &p), TRNSPARSE_STATUS_SUCCESS);
    return p;
  }
};

void expect_one_step(const trnProfile_t& p, double ops, double bytes, const char* what) {
  EXPECT_EQ(p.host_steps, 1) << what;
  EXPECT_EQ(p.host_flops, ops) << what;
  EXPECT_EQ(p.host_bytes, bytes) << what;
  EXPECT_GT(p.host_roundtrip_ns, 0.0) << what;
  EXPECT_EQ(p.instructions, 0) << what << ": no engine instruction";
}

// SparseToDense is a device program (s14/spcross): no host round trip; DMA moves the zero-filled dense
// matrix (every element once) and each stored value twice (loaded to SBUF, scattered out), plus the
// index words of the indirect scatter (s17): each value's int64 element offset (8 bytes); Blocked-ELL's
// slots an int32 position and an int32 entry number (the host's index analysis, 4 + 4 bytes).
void expect_device_program(const trnProfile_t& p, double dma_bytes, const char* what) {
  EXPECT_EQ(p.host_steps, 0) << what;
  EXPECT_EQ(p.host_bytes, 0.0) << what;
  EXPECT_EQ(p.host_roundtrip_ns, 0.0) << what;
  EXPECT_GT(p.instructions, 0) << what;
  EXPECT_GT(p.instructions_per_engine[TRN_ENGINE_DMA], 0) << what;
  EXPECT_EQ(p.dma_bytes, dma_bytes) << what;
  EXPECT_GT(p.total_ns, 0.0) << what;
}

// An m x n CSR matrix, 3 nonzeros a row at columns (i + {0, 2, 5}) mod n (n >= 6), sorted.
struct Csr {
  std::vector<int> rp{0}, ci;
  std::vector<float> v;
  Csr(int m, int n) {
    for (int i = 0; i < m; ++i) {
      std::vector<int> cols{i % n, (i + 2) % n, (i + 5) % n};
      std::sort(cols.begin(), cols.end());
      for (int c : cols) {
        ci.push_back(c);
        v.push_back(1.0f + 0.5f * static_cast<float>(ci.size()));
      }
      rp.push_back(static_cast<int>(ci.size()));
    }
  }
};

TEST(SparseHostSteps, FormatConversionsAreOneRoundTrip) {
  // A 7 x 6 CSR matrix; 2 x 2 blocks.
  const int m = 7, n = 6, bd = 2, mb = (m + bd - 1) / bd;
  Csr a(m, n);
  std::vector<int>&rp = a.rp, &ci = a.ci;
  std::vector<float>& v = a.v;
  const int nnz = rp.back();
  Handle h;
  std::vector<int> brp(static_cast<std::size_t>(mb + 1));
  int nnzb = 0;
  ASSERT_EQ(trnsparseXcsr2bsrNnz(h.h, TRNSPARSE_DIRECTION_ROW, m, n, h.a, rp.data(), ci.data(), bd, h.c, brp.data(), &nnzb),
            TRNSPARSE_STATUS_SUCCESS);
  // The row pointers and columns there, the BSR row pointers back; one operation per nonzero.
  expect_one_step(h.profile(), nnz, 4.0 * (m + 1 + nnz) + 4.0 * (mb + 1), "csr2bsrNnz");
  std::vector<int> bci(static_cast<std::size_t>(nnzb));
  std::vector<float> bv(static_cast<std::size_t>(nnzb * bd * bd));
  ASSERT_EQ(trnsparseScsr2bsr(h.h, TRNSPARSE_DIRECTION_ROW, m, n, h.a, v.data(), rp.data(), ci.data(), bd, h.c, bv.data(),
                              brp.data(), bci.data()),
            TRNSPARSE_STATUS_SUCCESS);
  // CSR (row pointers, columns, values) and the BSR row pointers there; BSR columns and blocks back.
  expect_one_step(h.profile(), nnz, 4.0 * (m + 1 + 2 * nnz + mb + 1) + 4.0 * (nnzb + nnzb * bd * bd), "csr2bsr");
  const int stored = nnzb * bd * bd, rows = mb * bd;
  std::vector<int> rp2(static_cast<std::size_t>(rows + 1)), ci2(static_cast<std::size_t>(stored));
  std::vector<float> v2(static_cast<std::size_t>(stored));
  ASSERT_EQ(trnsparseSbsr2csr(h.h, TRNSPARSE_DIRECTION_ROW, mb, (n + bd - 1) / bd, h.c, bv.data(), brp.data(), bci.data(),
                              bd, h.a, v2.data(), rp2.data(), ci2.data()),
            TRNSPARSE_STATUS_SUCCESS);
  // BSR there; a CSR of every stored block element back; one operation per stored element.
  expect_one_step(h.profile(), stored, 4.0 * (mb + 1 + nnzb + stored) + 4.0 * (rows + 1 + 2 * stored), "bsr2csr");
  std::vector<int> cp(static_cast<std::size_t>(n + 1)), ri(static_cast<std::size_t>(nnz));
  std::vector<float> cv(static_cast<std::size_t>(nnz));
  ASSERT_EQ(trnsparseCsr2cscEx2(h.h, m, n, nnz, v.data(), rp.data(), ci.data(), cv.data(), cp.data(), ri.data(), TRN_R_32F,
                                TRNSPARSE_ACTION_NUMERIC, TRNSPARSE_INDEX_BASE_ZERO, TRNSPARSE_CSR2CSC_ALG1, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  expect_one_step(h.profile(), nnz, 4.0 * (m + 1 + 2 * nnz) + 4.0 * (n + 1 + 2 * nnz), "csr2csc numeric");
  ASSERT_EQ(trnsparseCsr2cscEx2(h.h, m, n, nnz, v.data(), rp.data(), ci.data(), cv.data(), cp.data(), ri.data(), TRN_R_32F,
                                TRNSPARSE_ACTION_SYMBOLIC, TRNSPARSE_INDEX_BASE_ZERO, TRNSPARSE_CSR2CSC_ALG1, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  expect_one_step(h.profile(), nnz, 4.0 * (m + 1 + nnz) + 4.0 * (n + 1 + nnz), "csr2csc symbolic");
  std::vector<int> coo(static_cast<std::size_t>(nnz)), rp3(static_cast<std::size_t>(m + 1));
  ASSERT_EQ(trnsparseXcsr2coo(h.h, rp.data(), nnz, m, coo.data(), TRNSPARSE_INDEX_BASE_ZERO), TRNSPARSE_STATUS_SUCCESS);
  expect_one_step(h.profile(), nnz, 4.0 * (m + 1) + 4.0 * nnz, "csr2coo");
  ASSERT_EQ(trnsparseXcoo2csr(h.h, coo.data(), nnz, m, rp3.data(), TRNSPARSE_INDEX_BASE_ZERO), TRNSPARSE_STATUS_SUCCESS);
  expect_one_step(h.profile(), nnz, 4.0 * nnz + 4.0 * (m + 1), "coo2csr");
  EXPECT_EQ(rp3, rp);
}

// The other host-only index work of the C API (issue #26): the sorts, the identity permutation,
// the general-BSR conversions and sparse <-> dense, each one round trip of the arrays it reads and
// writes (cuSPARSE's sizes), one declared operation per stored entry (dense: per element as well).
TEST(SparseHostSteps, SortsPermutationsAndGeneralBlocksAreOneRoundTrip) {
  const int m = 7, n = 6, rb = 2, cb = 3, mb = (m + rb - 1) / rb, nb = (n + cb - 1) / cb;
  Csr a(m, n);
  const int nnz = a.rp.back();
  Handle h;
  std::vector<int> P(static_cast<std::size_t>(nnz));
  ASSERT_EQ(trnsparseCreateIdentityPermutation(h.h, nnz, P.data()), TRNSPARSE_STATUS_SUCCESS);
  expect_one_step(h.profile(), nnz, 4.0 * nnz, "identity permutation");
  std::vector<int> ci = a.ci;
  ASSERT_EQ(trnsparseXcsrsort(h.h, m, n, nnz, h.a, a.rp.data(), ci.data(), P.data(), nullptr), TRNSPARSE_STATUS_SUCCESS);
  expect_one_step(h.profile(), nnz, 4.0 * (m + 1 + 2 * nnz) + 4.0 * (2 * nnz), "csrsort");
  std::vector<int> rows, cols = a.ci;
  for (int i = 0; i < m; ++i) rows.insert(rows.end(), static_cast<std::size_t>(a.rp[i + 1] - a.rp[i]), i);
  ASSERT_EQ(trnsparseXcoosortByColumn(h.h, m, n, nnz, rows.data(), cols.data(), P.data(), nullptr), TRNSPARSE_STATUS_SUCCESS);
  expect_one_step(h.profile(), nnz, 4.0 * (3 * nnz) + 4.0 * (3 * nnz), "coosort");

  std::vector<int> brp(static_cast<std::size_t>(mb + 1));
  int nnzb = 0;
  ASSERT_EQ(trnsparseXcsr2gebsrNnz(h.h, TRNSPARSE_DIRECTION_ROW, m, n, h.a, a.rp.data(), a.ci.data(), h.c, brp.data(), rb, cb,
                                   &nnzb, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  expect_one_step(h.profile(), nnz, 4.0 * (m + 1 + nnz) + 4.0 * (mb + 1 + 1), "csr2gebsrNnz");
  const int cells = nnzb * rb * cb;
  std::vector<int> bci(static_cast<std::size_t>(nnzb));
  std::vector<float> bv(static_cast<std::size_t>(cells));
  ASSERT_EQ(trnsparseScsr2gebsr(h.h, TRNSPARSE_DIRECTION_ROW, m, n, h.a, a.v.data(), a.rp.data(), a.ci.data(), h.c, bv.data(),
                                brp.data(), bci.data(), rb, cb, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  expect_one_step(h.profile(), nnz, 4.0 * (m + 1 + 2 * nnz) + 4.0 * (mb + 1 + nnzb + cells), "csr2gebsr");
  std::vector<int> cp(static_cast<std::size_t>(nb + 1)), ri(static_cast<std::size_t>(nnzb));
  std::vector<float> cv(static_cast<std::size_t>(cells));
  ASSERT_EQ(trnsparseSgebsr2gebsc(h.h, mb, nb, nnzb, bv.data(), brp.data(), bci.data(), rb, cb, cv.data(), ri.data(), cp.data(),
                                  TRNSPARSE_ACTION_NUMERIC, TRNSPARSE_INDEX_BASE_ZERO, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  expect_one_step(h.profile(), nnzb, 4.0 * (mb + 1 + nnzb + cells) + 4.0 * (nb + 1 + nnzb + cells), "gebsr2gebsc");

  std::vector<float> dense(static_cast<std::size_t>(m * n), -1.0f);
  trnsparseSpMatDescr_t sp = nullptr;
  trnsparseDnMatDescr_t dn = nullptr;
  ASSERT_EQ(trnsparseCreateCsr(&sp, m, n, nnz, a.rp.data(), a.ci.data(), a.v.data(), TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                               TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F),
            TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseCreateDnMat(&dn, m, n, m, dense.data(), TRN_R_32F, TRNSPARSE_ORDER_COL), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseSparseToDense(h.h, sp, dn, TRNSPARSE_SPARSETODENSE_ALG_DEFAULT, nullptr), TRNSPARSE_STATUS_SUCCESS);
  expect_device_program(h.profile(), 4.0 * (m * n) + 2 * 4.0 * nnz + 8.0 * nnz, "sparse2dense");
  ASSERT_EQ(trnsparseDenseToSparse_analysis(h.h, dn, sp, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr), TRNSPARSE_STATUS_SUCCESS);
  expect_one_step(h.profile(), m * n, 4.0 * (m * n) + 4.0 * (m + 1), "dense2sparse analysis");
  ASSERT_EQ(trnsparseDenseToSparse_convert(h.h, dn, sp, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr), TRNSPARSE_STATUS_SUCCESS);
  expect_one_step(h.profile(), m * n + nnz, 4.0 * (m * n) + 4.0 * (m + 1 + 2 * nnz), "dense2sparse convert");
  trnsparseDestroySpMat(sp);
  trnsparseDestroyDnMat(dn);
}

}  // namespace

namespace {

// SparseToDense on the engines, every value type (w 4-byte words per value), COO and CSC (adjacent
// and scattered positions: multi-entry and single-entry descriptor runs), into a column-major
// matrix with ld padding and a row-major one: the expected bytes written out here (zeros, then the
// entries in storage order), the padding's bytes kept, and the profile a device program's.
void sparse_to_dense_bits(trnDataType_t vt, int w) {
  const int m = 5, n = 4, ld_col = 7, ld_row = 6;
  const std::vector<int> row{0, 0, 1, 3, 3, 4}, col{0, 3, 2, 1, 2, 3};  // sorted by row (validate's rule)
  const int nnz = static_cast<int>(row.size());
  std::vector<float> val(static_cast<std::size_t>(nnz * w));
  for (std::size_t k = 0; k < val.size(); ++k) val[k] = 0.25f * static_cast<float>(k + 1) * (k % 3 == 0 ? -1.0f : 1.0f);
  for (const bool col_major : {true, false}) {
    const int ld = col_major ? ld_col : ld_row, lines = col_major ? n : m;
    std::vector<float> dense(static_cast<std::size_t>(ld * lines * w), -7.5f), want = dense;
    auto at = [&](int i, int j) { return static_cast<std::size_t>((col_major ? i + j * ld : i * ld + j) * w); };
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) std::fill_n(want.begin() + static_cast<std::ptrdiff_t>(at(i, j)), w, 0.0f);
    for (int e = 0; e < nnz; ++e)
      std::copy_n(val.begin() + e * w, w, want.begin() + static_cast<std::ptrdiff_t>(at(row[static_cast<std::size_t>(e)], col[static_cast<std::size_t>(e)])));
    Handle h;
    trnsparseSpMatDescr_t sp = nullptr;
    trnsparseDnMatDescr_t dn = nullptr;
    ASSERT_EQ(trnsparseCreateCoo(&sp, m, n, nnz, const_cast<int*>(row.data()), const_cast<int*>(col.data()), val.data(),
                                 TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, vt),
              TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(trnsparseCreateDnMat(&dn, m, n, ld, dense.data(), vt, col_major ? TRNSPARSE_ORDER_COL : TRNSPARSE_ORDER_ROW),
              TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(trnsparseSparseToDense(h.h, sp, dn, TRNSPARSE_SPARSETODENSE_ALG_DEFAULT, nullptr), TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(std::memcmp(dense.data(), want.data(), dense.size() * sizeof(float)), 0) << "COO, col_major " << col_major;
    expect_device_program(h.profile(), 4.0 * w * (m * n + 2 * nnz) + 8.0 * nnz, "sparse2dense COO");
    trnsparseDestroySpMat(sp);
    // The same matrix as CSC (entries by columns).
    std::vector<int> cp{0}, ri;
    std::vector<float> cv;
    std::fill(dense.begin(), dense.end(), -7.5f);
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < m; ++i)
        if (want[at(i, j)] != 0.0f) {
          ri.push_back(i);
          cv.insert(cv.end(), want.begin() + static_cast<std::ptrdiff_t>(at(i, j)), want.begin() + static_cast<std::ptrdiff_t>(at(i, j)) + w);
        }
      cp.push_back(static_cast<int>(ri.size()));
    }
    ASSERT_EQ(trnsparseCreateCsc(&sp, m, n, cp.back(), cp.data(), ri.data(), cv.data(), TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                 TRNSPARSE_INDEX_BASE_ZERO, vt),
              TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(trnsparseSparseToDense(h.h, sp, dn, TRNSPARSE_SPARSETODENSE_ALG_DEFAULT, nullptr), TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(std::memcmp(dense.data(), want.data(), dense.size() * sizeof(float)), 0) << "CSC, col_major " << col_major;
    trnsparseDestroySpMat(sp);
    trnsparseDestroyDnMat(dn);
  }
}

// Blocked-ELL (2 x 2 blocks, 2 slots, one slot empty) into column-major (ld padding) and row-major
// matrices: the stored slots' values at their block columns, zeros elsewhere, padding kept.
void blocked_ell_to_dense_bits(trnDataType_t vt, int w) {
  const int m = 4, n = 6, bs = 2, ell_cols = 4;
  const std::vector<int> ci{2, 0, -1, 1};  // block row 0: block columns 2, 0; block row 1: empty, 1
  std::vector<float> val(static_cast<std::size_t>(m * ell_cols * w));
  for (std::size_t k = 0; k < val.size(); ++k) val[k] = 0.5f * static_cast<float>(k + 1) * (k % 2 == 0 ? 1.0f : -1.0f);
  for (const bool col_major : {true, false}) {
    const int ld = col_major ? m + 3 : n + 1, lines = col_major ? n : m;
    std::vector<float> dense(static_cast<std::size_t>(ld * lines * w), 3.25f), want = dense;
    auto at = [&](int i, int j) { return static_cast<std::ptrdiff_t>((col_major ? i + j * ld : i * ld + j) * w); };
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) std::fill_n(want.begin() + at(i, j), w, 0.0f);
    for (int i = 0; i < m; ++i)
      for (int t = 0; t < ell_cols / bs; ++t) {
        const int J = ci[static_cast<std::size_t>((i / bs) * (ell_cols / bs) + t)];
        if (J < 0) continue;
        for (int c = 0; c < bs; ++c) std::copy_n(val.begin() + (i * ell_cols + t * bs + c) * w, w, want.begin() + at(i, J * bs + c));
      }
    Handle h;
    trnsparseSpMatDescr_t sp = nullptr;
    trnsparseDnMatDescr_t dn = nullptr;
    ASSERT_EQ(trnsparseCreateBlockedEll(&sp, m, n, bs, ell_cols, const_cast<int*>(ci.data()), val.data(), TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_BASE_ZERO, vt),
              TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(trnsparseCreateDnMat(&dn, m, n, ld, dense.data(), vt, col_major ? TRNSPARSE_ORDER_COL : TRNSPARSE_ORDER_ROW),
              TRNSPARSE_STATUS_SUCCESS);
    std::size_t bytes = 0;
    ASSERT_EQ(trnsparseSparseToDense_bufferSize(h.h, sp, dn, TRNSPARSE_SPARSETODENSE_ALG_DEFAULT, &bytes), TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(trnsparseSparseToDense(h.h, sp, dn, TRNSPARSE_SPARSETODENSE_ALG_DEFAULT, nullptr), TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(std::memcmp(dense.data(), want.data(), dense.size() * sizeof(float)), 0) << "Blocked-ELL, col_major " << col_major;
    expect_device_program(h.profile(), 4.0 * w * (m * n + 2 * 12) + 8.0 * 12, "sparse2dense Blocked-ELL");  // 12 stored values
    trnsparseDestroySpMat(sp);
    trnsparseDestroyDnMat(dn);
  }
}

TEST(SparseDeviceConversions, SparseToDenseBitsEveryValueType) {
  sparse_to_dense_bits(TRN_R_32F, 1);
  sparse_to_dense_bits(TRN_R_64F, 2);
  sparse_to_dense_bits(TRN_C_32F, 2);
  sparse_to_dense_bits(TRN_C_64F, 4);
  blocked_ell_to_dense_bits(TRN_R_32F, 1);
  blocked_ell_to_dense_bits(TRN_R_64F, 2);
  blocked_ell_to_dense_bits(TRN_C_32F, 2);
  blocked_ell_to_dense_bits(TRN_C_64F, 4);
}

}  // namespace
