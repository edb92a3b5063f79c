// trnsparse general-BSR conversions (issue #28, fourth slice): {S,D,C,Z}csr2gebsr with
// Xcsr2gebsrNnz and {S,D,C,Z}gebsr2gebsc on random CSR matrices (block dims that do not divide the
// sizes, both block directions, both bases), checked by expanding every result to a dense matrix
// in this test and comparing it bit for bit with the dense matrix of the input; the block pattern
// against a std::set; bad arguments at their positions with outputs untouched. gebsr2gebsr /
// gebsr2csr (issue #28, s11/spconv): random general BSRs re-blocked and expanded, against a dense
// matrix and a stored-entry mask built by a hand-written loop here; csr -> gebsr -> gebsr -> csr.
#include <gtest/gtest.h>

#include <complex>
#include <cstring>
#include <random>
#include <set>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include "c_api_test_util.hpp"
#include "trnsparse.h"

namespace {

using trnsparse_test::Handle;

TRNSPARSE_TYPED_ENTRY(csr2gebsr)
TRNSPARSE_TYPED_ENTRY(csr2gebsr_bufferSize)
TRNSPARSE_TYPED_ENTRY(csr2gebsr_bufferSizeExt)
TRNSPARSE_TYPED_ENTRY(gebsr2gebsc)
TRNSPARSE_TYPED_ENTRY(gebsr2gebsc_bufferSize)
TRNSPARSE_TYPED_ENTRY(gebsr2gebsc_bufferSizeExt)
TRNSPARSE_TYPED_ENTRY(gebsr2gebsr)
TRNSPARSE_TYPED_ENTRY(gebsr2gebsr_bufferSize)
TRNSPARSE_TYPED_ENTRY(gebsr2gebsr_bufferSizeExt)
TRNSPARSE_TYPED_ENTRY(gebsr2csr)

template <class T>
using C = std::conditional_t<std::is_same_v<T, std::complex<float>>, trnComplex,
                             std::conditional_t<std::is_same_v<T, std::complex<double>>, trnDoubleComplex, T>>;

template <class T>
void round_trip(std::uint64_t seed) {
  Handle h;
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  for (int trial = 0; trial < 24; ++trial) {
    const int m = 1 + trial % 11, n = 1 + (trial * 7) % 13, rb = 1 + trial % 4, cb = 1 + (trial / 4) % 3;
    const int base = trial % 2, dir = (trial / 2) % 2;
    std::vector<T> dense(static_cast<std::size_t>(m * n), T(0));
    std::vector<int> row{base}, col;
    std::vector<T> val;
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j)
        if (d(g) > 0.4) {
          T v;
          if constexpr (std::is_floating_point_v<T>) v = static_cast<T>(d(g));
          else v = T(static_cast<typename T::value_type>(d(g)), static_cast<typename T::value_type>(d(g)));
          dense[static_cast<std::size_t>(i * n + j)] = v;
          col.push_back(j + base);
          val.push_back(v);
        }
      row.push_back(static_cast<int>(col.size()) + base);
    }
    trnsparseMatDescr_t dA, dC;
    trnsparseCreateMatDescr(&dA);
    trnsparseCreateMatDescr(&dC);
    trnsparseSetMatIndexBase(dA, static_cast<trnsparseIndexBase_t>(base));
    trnsparseSetMatIndexBase(dC, static_cast<trnsparseIndexBase_t>(1 - base));  // the output's own base
    const auto D = static_cast<trnsparseDirection_t>(dir);
    const auto* cv = reinterpret_cast<const C<T>*>(val.data());
    int isz = 0;
    size_t ssz = 0;
    ASSERT_EQ(csr2gebsr_bufferSize<T>(h.h, D, m, n, dA, cv, row.data(), col.data(), rb, cb, &isz), 0);
    ASSERT_EQ(csr2gebsr_bufferSizeExt<T>(h.h, D, m, n, dA, cv, row.data(), col.data(), rb, cb, &ssz), 0);
    const int mb = (m + rb - 1) / rb, nb = (n + cb - 1) / cb;
    std::vector<int> brow(static_cast<std::size_t>(mb) + 1);
    int nnzb = -1;
    ASSERT_EQ(trnsparseXcsr2gebsrNnz(h.h, D, m, n, dA, row.data(), col.data(), dC, brow.data(), rb, cb, &nnzb, nullptr), 0);
    std::set<std::pair<int, int>> blocks;
    for (int i = 0; i < m; ++i)
      for (int e = row[static_cast<std::size_t>(i)] - base; e < row[static_cast<std::size_t>(i) + 1] - base; ++e)
        blocks.insert({i / rb, (col[static_cast<std::size_t>(e)] - base) / cb});
    ASSERT_EQ(nnzb, static_cast<int>(blocks.size()));
    std::vector<int> bcol(static_cast<std::size_t>(nnzb));
    std::vector<T> bval(static_cast<std::size_t>(nnzb * rb * cb), T(7));
    ASSERT_EQ(csr2gebsr<T>(h.h, D, m, n, dA, cv, row.data(), col.data(), dC, reinterpret_cast<C<T>*>(bval.data()), brow.data(),
                           bcol.data(), rb, cb, nullptr),
              0);
    // expand the BSR (base 1 - base) to dense (the padding rows / columns must hold zeros)
    const int ob = 1 - base;
    std::vector<T> back(static_cast<std::size_t>(mb * rb * nb * cb), T(0));
    std::set<std::pair<int, int>> seen;
    for (int I = 0; I < mb; ++I)
      for (int k = brow[static_cast<std::size_t>(I)] - ob; k < brow[static_cast<std::size_t>(I) + 1] - ob; ++k) {
        const int J = bcol[static_cast<std::size_t>(k)] - ob;
        seen.insert({I, J});
        for (int r = 0; r < rb; ++r)
          for (int c = 0; c < cb; ++c)
            back[static_cast<std::size_t>((I * rb + r) * nb * cb + J * cb + c)] =
                bval[static_cast<std::size_t>(k * rb * cb + (dir == 0 ? r * cb + c : r + c * rb))];
      }
    EXPECT_EQ(seen, blocks);
    for (int i = 0; i < mb * rb; ++i)
      for (int j = 0; j < nb * cb; ++j) {
        const T want = i < m && j < n ? dense[static_cast<std::size_t>(i * n + j)] : T(0);
        EXPECT_EQ(std::memcmp(&want, &back[static_cast<std::size_t>(i * nb * cb + j)], sizeof(T)), 0) << i << "," << j;
      }
    // gebsr2gebsc of that BSR (base ob): same blocks by column, values unchanged
    ASSERT_EQ(gebsr2gebsc_bufferSize<T>(h.h, mb, nb, nnzb, reinterpret_cast<C<T>*>(bval.data()), brow.data(), bcol.data(), rb, cb, &isz), 0);
    ASSERT_EQ(gebsr2gebsc_bufferSizeExt<T>(h.h, mb, nb, nnzb, reinterpret_cast<C<T>*>(bval.data()), brow.data(), bcol.data(), rb, cb, &ssz), 0);
    std::vector<int> crow(static_cast<std::size_t>(nnzb)), cptr(static_cast<std::size_t>(nb) + 1);
    std::vector<T> cval(bval.size());
    ASSERT_EQ(gebsr2gebsc<T>(h.h, mb, nb, nnzb, reinterpret_cast<C<T>*>(bval.data()), brow.data(), bcol.data(), rb, cb,
                             reinterpret_cast<C<T>*>(cval.data()), crow.data(), cptr.data(), TRNSPARSE_ACTION_NUMERIC,
                             static_cast<trnsparseIndexBase_t>(ob), nullptr),
              0);
    std::set<std::pair<int, int>> by_col;
    for (int J = 0; J < nb; ++J)
      for (int k = cptr[static_cast<std::size_t>(J)] - ob; k < cptr[static_cast<std::size_t>(J) + 1] - ob; ++k) {
        const int I = crow[static_cast<std::size_t>(k)] - ob;
        if (k > cptr[static_cast<std::size_t>(J)] - ob) {
          EXPECT_LT(crow[static_cast<std::size_t>(k) - 1] - ob, I);
        }
        by_col.insert({I, J});
        for (int e = 0; e < rb * cb; ++e) {
          // the BSR block (I, J)'s values
          int kb = -1;
          for (int q = brow[static_cast<std::size_t>(I)] - ob; q < brow[static_cast<std::size_t>(I) + 1] - ob; ++q)
            if (bcol[static_cast<std::size_t>(q)] - ob == J) kb = q;
          ASSERT_GE(kb, 0);
          EXPECT_EQ(std::memcmp(&cval[static_cast<std::size_t>(k * rb * cb + e)], &bval[static_cast<std::size_t>(kb * rb * cb + e)],
                                sizeof(T)),
                    0);
        }
      }
    EXPECT_EQ(by_col, blocks);
    trnsparseDestroyMatDescr(dA);
    trnsparseDestroyMatDescr(dC);
  }
}

TEST(GeneralBsr, RoundTripFp32) { round_trip<float>(1); }
TEST(GeneralBsr, RoundTripFp64) { round_trip<double>(2); }
TEST(GeneralBsr, RoundTripC32) { round_trip<std::complex<float>>(3); }
TEST(GeneralBsr, RoundTripC64) { round_trip<std::complex<double>>(4); }

TEST(GeneralBsr, BadArgumentsAtTheirPositionsOutputsUntouched) {
  Handle h;
  trnsparseMatDescr_t dA, dC, sym;
  trnsparseCreateMatDescr(&dA);
  trnsparseCreateMatDescr(&dC);
  trnsparseCreateMatDescr(&sym);
  trnsparseSetMatType(sym, TRNSPARSE_MATRIX_TYPE_SYMMETRIC);
  const auto R = TRNSPARSE_DIRECTION_ROW;
  int row[3] = {0, 2, 3}, col[3] = {0, 2, 1};
  float val[3] = {1, 2, 3};
  int brow[2] = {-5, -5}, bcol[2] = {-5, -5}, total = -5;
  float bval[8] = {-5, -5, -5, -5, -5, -5, -5, -5};
  auto nnz = [&](trnsparseDirection_t dir, int m, trnsparseMatDescr_t a, const int* r, const int* c, int* out, int rb, int cb, int* t) {
    return trnsparseXcsr2gebsrNnz(h.h, dir, m, 3, a, r, c, dC, out, rb, cb, t, nullptr);
  };
  EXPECT_EQ(nnz(static_cast<trnsparseDirection_t>(2), 2, dA, row, col, brow, 2, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 1);
  EXPECT_EQ(nnz(R, -1, dA, row, col, brow, 2, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 2);
  EXPECT_EQ(nnz(R, 2, nullptr, row, col, brow, 2, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 4);
  EXPECT_EQ(nnz(R, 2, sym, row, col, brow, 2, 2, &total), TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED);
  EXPECT_EQ(nnz(R, 2, dA, nullptr, col, brow, 2, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 5);
  EXPECT_EQ(nnz(R, 2, dA, row, nullptr, brow, 2, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 6);
  EXPECT_EQ(nnz(R, 2, dA, row, col, nullptr, 2, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 8);
  EXPECT_EQ(nnz(R, 2, dA, row, col, brow, 0, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 9);
  EXPECT_EQ(nnz(R, 2, dA, row, col, brow, 2, 0, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 10);
  EXPECT_EQ(nnz(R, 2, dA, row, col, brow, 2, 2, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 11);
  int unsorted[3] = {2, 0, 1};
  EXPECT_EQ(nnz(R, 2, dA, row, unsorted, brow, 2, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);  // unsorted: index fault
  EXPECT_EQ(h.last_param(), 6);
  int out_of_range[3] = {0, 3, 1};
  EXPECT_EQ(nnz(R, 2, dA, row, out_of_range, brow, 2, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(brow[0], -5);
  EXPECT_EQ(total, -5);
  // csr2gebsr: a row pointer that is not Xcsr2gebsrNnz's is refused before anything is written
  int wrong[2] = {0, 5};
  EXPECT_EQ(trnsparseScsr2gebsr(h.h, R, 2, 3, dA, val, row, col, dC, bval, wrong, bcol, 2, 2, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 10);
  EXPECT_EQ(trnsparseScsr2gebsr(h.h, R, 2, 3, dA, nullptr, row, col, dC, bval, wrong, bcol, 2, 2, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 5);
  EXPECT_EQ(trnsparseScsr2gebsr(h.h, R, 2, 3, dA, val, row, col, dC, bval, wrong, bcol, 2, -1, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 13);
  for (float v : bval) EXPECT_EQ(v, -5);
  EXPECT_EQ(bcol[0], -5);
  // gebsr2gebsc
  int brp[2] = {0, 2}, bci[2] = {0, 1}, cptr[3] = {-5, -5, -5}, crow[2] = {-5, -5};
  float bv[8] = {1, 2, 3, 4, 5, 6, 7, 8}, cv[8] = {};
  auto gebsc = [&](int mb, int nnzb, const int* r, const int* c, int rb, int copy, int base) {
    return trnsparseSgebsr2gebsc(h.h, mb, 2, nnzb, bv, r, c, rb, 2, cv, crow, cptr, static_cast<trnsparseAction_t>(copy),
                                 static_cast<trnsparseIndexBase_t>(base), nullptr);
  };
  EXPECT_EQ(gebsc(-1, 2, brp, bci, 2, 1, 0), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 1);
  EXPECT_EQ(gebsc(1, 2, nullptr, bci, 2, 1, 0), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 5);
  EXPECT_EQ(gebsc(1, 2, brp, bci, 0, 1, 0), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 7);
  EXPECT_EQ(gebsc(1, 2, brp, bci, 2, 2, 0), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 12);
  EXPECT_EQ(gebsc(1, 2, brp, bci, 2, 1, 2), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 13);
  int dup[2] = {1, 1};
  EXPECT_EQ(gebsc(1, 2, brp, dup, 2, 1, 0), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 6);
  EXPECT_EQ(cptr[0], -5);
  EXPECT_EQ(crow[0], -5);
  ASSERT_EQ(gebsc(1, 2, brp, bci, 2, 0, 0), TRNSPARSE_STATUS_SUCCESS);  // SYMBOLIC: no values written
  EXPECT_EQ(cv[0], 0);
  EXPECT_EQ(cptr[2], 2);
  trnsparseDestroyMatDescr(dA);
  trnsparseDestroyMatDescr(dC);
  trnsparseDestroyMatDescr(sym);
}

// A row pointer of one readable int (csrSortedRowPtrA[0] = 0) followed by an inaccessible page: a
// read of csrSortedRowPtrA[m] (m = 1) faults. Every call below has another bad argument, which must
// be reported (INVALID_VALUE at its position) before the row pointer is read (issue #28: the
// csr2bsr and csr2gebsr shims read csrSortedRowPtrA[m] before checking the other arguments).
TEST(GeneralBsr, RowPointerReadOnlyAfterEveryOtherArgument) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* map = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(map, MAP_FAILED);
  ASSERT_EQ(mprotect(static_cast<char*>(map) + page, page, PROT_NONE), 0);
  int* row = reinterpret_cast<int*>(static_cast<char*>(map) + page) - 1;
  *row = 0;
  Handle h;
  trnsparseMatDescr_t dA, dC;
  trnsparseCreateMatDescr(&dA);
  trnsparseCreateMatDescr(&dC);
  const auto R = TRNSPARSE_DIRECTION_ROW;
  int col[1] = {0}, brow[2] = {-5, -5}, bcol[1] = {-5}, total = -5;
  float val[1] = {1}, bval[4] = {-5, -5, -5, -5};
  EXPECT_EQ(trnsparseScsr2bsr(h.h, R, 1, 1, dA, val, row, col, 0, dC, bval, brow, bcol), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 8);
  EXPECT_EQ(trnsparseScsr2bsr(h.h, R, 1, 1, dA, val, row, col, 2, nullptr, bval, brow, bcol), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 9);
  EXPECT_EQ(trnsparseScsr2bsr(h.h, R, 1, 1, dA, val, row, col, 2, dC, bval, nullptr, bcol), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 11);
  EXPECT_EQ(trnsparseXcsr2bsrNnz(h.h, R, 1, 1, dA, row, col, 2, dC, brow, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 10);
  EXPECT_EQ(trnsparseXcsr2gebsrNnz(h.h, R, 1, 1, dA, row, col, nullptr, brow, 2, 2, &total, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 7);
  EXPECT_EQ(trnsparseXcsr2gebsrNnz(h.h, R, 1, 1, dA, row, col, dC, brow, 2, 2, nullptr, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 11);
  EXPECT_EQ(trnsparseScsr2gebsr(h.h, R, 1, 1, dA, val, row, col, nullptr, bval, brow, bcol, 2, 2, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 8);
  EXPECT_EQ(trnsparseScsr2gebsr(h.h, R, 1, 1, dA, val, row, col, dC, bval, nullptr, bcol, 2, 2, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 10);
  EXPECT_EQ(trnsparseScsr2gebsr_bufferSize(h.h, R, 1, 1, dA, val, row, col, 2, 2, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 10);
  EXPECT_EQ(brow[0], -5);
  EXPECT_EQ(bcol[0], -5);
  EXPECT_EQ(bval[0], -5);
  EXPECT_EQ(total, -5);
  trnsparseDestroyMatDescr(dA);
  trnsparseDestroyMatDescr(dC);
  munmap(map, 2 * page);
}


// ---- gebsr2gebsr / gebsr2csr ------------------------------------------------------------------

template <class T>
T random_value(std::mt19937_64& g) {
  std::uniform_real_distribution<double> d(-1, 1);
  // one value in 8 an explicit zero: it is stored, so it must stay an entry / keep its block
  if (g() % 8 == 0) return T(0);
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(d(g));
  else return T(static_cast<typename T::value_type>(d(g)), static_cast<typename T::value_type>(d(g)));
}

// A general BSR (int32, base `base`) and, built by a plain loop, its dense matrix and stored mask.
template <class T>
struct TestGebsr {
  int mb = 0, nb = 0, rb = 1, cb = 1, base = 0, dir = 0;
  std::vector<int> row, col;
  std::vector<T> val;
  std::vector<T> dense;        // (mb rb) x (nb cb), row-major
  std::vector<char> stored;    // 1 where a stored block covers the entry
  int m() const { return mb * rb; }
  int n() const { return nb * cb; }
  std::size_t at(int i, int j) const { return static_cast<std::size_t>(i) * static_cast<std::size_t>(n()) + static_cast<std::size_t>(j); }
};
template <class T>
TestGebsr<T> random_gebsr(std::mt19937_64& g, int mb, int nb, int rb, int cb, int base, int dir) {
  TestGebsr<T> a{mb, nb, rb, cb, base, dir, {base}, {}, {}, {}, {}};
  a.dense.assign(static_cast<std::size_t>(a.m() * a.n()), T(0));
  a.stored.assign(a.dense.size(), 0);
  for (int I = 0; I < mb; ++I) {
    for (int J = 0; J < nb; ++J) {
      if (g() % 3 != 0) continue;
      a.col.push_back(J + base);
      for (int e = 0; e < rb * cb; ++e) {
        const int r = dir == 0 ? e / cb : e % rb, c = dir == 0 ? e % cb : e / rb;
        const T v = random_value<T>(g);
        a.val.push_back(v);
        a.dense[a.at(I * rb + r, J * cb + c)] = v;
        a.stored[a.at(I * rb + r, J * cb + c)] = 1;
      }
    }
    a.row.push_back(static_cast<int>(a.col.size()) + base);
  }
  return a;
}

// Expands a general BSR (block order dir, base ob) to dense (rows x cols) and to its block set;
// checks that block columns increase within each block row.
template <class T>
std::set<std::pair<int, int>> expand_gebsr(const std::vector<int>& row, const std::vector<int>& col, const std::vector<T>& val, int mb,
                                           int rb, int cb, int dir, int ob, int cols, std::vector<T>& dense) {
  std::set<std::pair<int, int>> blocks;
  for (int I = 0; I < mb; ++I)
    for (int k = row[static_cast<std::size_t>(I)] - ob; k < row[static_cast<std::size_t>(I) + 1] - ob; ++k) {
      const int J = col[static_cast<std::size_t>(k)] - ob;
      if (k > row[static_cast<std::size_t>(I)] - ob) {
        EXPECT_LT(col[static_cast<std::size_t>(k) - 1] - ob, J);
      }
      blocks.insert({I, J});
      for (int r = 0; r < rb; ++r)
        for (int c = 0; c < cb; ++c)
          dense[static_cast<std::size_t>((I * rb + r) * cols + J * cb + c)] =
              val[static_cast<std::size_t>(k * rb * cb + (dir == 0 ? r * cb + c : r + c * rb))];
    }
  return blocks;
}

template <class T>
void expect_same_bits(const T& want, const T& got, int i, int j) {
  EXPECT_EQ(std::memcmp(&want, &got, sizeof(T)), 0) << i << "," << j;
}

// gebsr2gebsr of one random general BSR to rbC x cbC (both bases and directions), checked against
// the dense matrix and the stored mask; then gebsr2csr and Xgebsr2csr against a per-row scan.
template <class T>
void gebsr2gebsr_case(const Handle& h, std::mt19937_64& g, int trial) {
  const int mb = 1 + trial % 5, nb = 1 + (trial * 3) % 6, rb = 1 + trial % 3, cb = 1 + (trial / 3) % 4;
  const int rbc = 1 + (trial * 5) % 4, cbc = 1 + (trial / 2) % 5, base = trial % 2, dir = (trial / 2) % 2, ob = 1 - base;
  const TestGebsr<T> a = random_gebsr<T>(g, mb, nb, rb, cb, base, dir);
  trnsparseMatDescr_t dA, dC;
  trnsparseCreateMatDescr(&dA);
  trnsparseCreateMatDescr(&dC);
  trnsparseSetMatIndexBase(dA, static_cast<trnsparseIndexBase_t>(base));
  trnsparseSetMatIndexBase(dC, static_cast<trnsparseIndexBase_t>(ob));
  const auto D = static_cast<trnsparseDirection_t>(dir);
  const int nnzb = static_cast<int>(a.col.size());
  const auto* av = reinterpret_cast<const C<T>*>(a.val.data());
  int isz = 0;
  size_t ssz = 0;
  ASSERT_EQ(gebsr2gebsr_bufferSize<T>(h.h, D, mb, nb, nnzb, dA, av, a.row.data(), a.col.data(), rb, cb, rbc, cbc, &isz), 0);
  ASSERT_EQ(gebsr2gebsr_bufferSizeExt<T>(h.h, D, mb, nb, nnzb, dA, av, a.row.data(), a.col.data(), rb, cb, rbc, cbc, &ssz), 0);
  EXPECT_GT(isz, 0);
  const int mbc = (a.m() + rbc - 1) / rbc, nbc = (a.n() + cbc - 1) / cbc;
  std::vector<int> rowc(static_cast<std::size_t>(mbc) + 1);
  int nnzbc = -1;
  ASSERT_EQ(trnsparseXgebsr2gebsrNnz(h.h, D, mb, nb, nnzb, dA, a.row.data(), a.col.data(), rb, cb, dC, rowc.data(), rbc, cbc, &nnzbc,
                                     nullptr),
            0);
  std::set<std::pair<int, int>> want_blocks;
  for (int i = 0; i < a.m(); ++i)
    for (int j = 0; j < a.n(); ++j)
      if (a.stored[a.at(i, j)] != 0) want_blocks.insert({i / rbc, j / cbc});
  ASSERT_EQ(nnzbc, static_cast<int>(want_blocks.size()));
  std::vector<int> colc(static_cast<std::size_t>(nnzbc));
  std::vector<T> valc(static_cast<std::size_t>(nnzbc * rbc * cbc), T(7));
  ASSERT_EQ(gebsr2gebsr<T>(h.h, D, mb, nb, nnzb, dA, av, a.row.data(), a.col.data(), rb, cb, dC, reinterpret_cast<C<T>*>(valc.data()),
                           rowc.data(), colc.data(), rbc, cbc, nullptr),
            0);
  std::vector<T> back(static_cast<std::size_t>(mbc * rbc * nbc * cbc), T(0));
  EXPECT_EQ(expand_gebsr(rowc, colc, valc, mbc, rbc, cbc, dir, ob, nbc * cbc, back), want_blocks);
  for (int i = 0; i < mbc * rbc; ++i)
    for (int j = 0; j < nbc * cbc; ++j)
      expect_same_bits(i < a.m() && j < a.n() ? a.dense[a.at(i, j)] : T(0), back[static_cast<std::size_t>(i * nbc * cbc + j)], i, j);
  // gebsr2csr: every stored entry (explicit zeros included), columns increasing per row
  const auto stored_count = static_cast<std::size_t>(nnzb) * static_cast<std::size_t>(rb * cb);
  std::vector<int> crow(static_cast<std::size_t>(a.m()) + 1, -9), ccol(stored_count, -9), xrow(crow), xcol(ccol);
  std::vector<T> cval(stored_count, T(7));
  ASSERT_EQ(gebsr2csr<T>(h.h, D, mb, nb, dA, av, a.row.data(), a.col.data(), rb, cb, dC, reinterpret_cast<C<T>*>(cval.data()),
                         crow.data(), ccol.data()),
            0);
  ASSERT_EQ(trnsparseXgebsr2csr(h.h, D, mb, nb, dA, a.row.data(), a.col.data(), rb, cb, dC, xrow.data(), xcol.data()), 0);
  std::size_t e = 0;
  for (int i = 0; i < a.m(); ++i) {
    ASSERT_EQ(crow[static_cast<std::size_t>(i)], static_cast<int>(e) + ob);
    for (int j = 0; j < a.n(); ++j)
      if (a.stored[a.at(i, j)] != 0) {
        ASSERT_LT(e, stored_count);
        EXPECT_EQ(ccol[e], j + ob);
        expect_same_bits(a.dense[a.at(i, j)], cval[e], i, j);
        ++e;
      }
  }
  EXPECT_EQ(e, stored_count);
  EXPECT_EQ(crow.back(), static_cast<int>(e) + ob);
  EXPECT_EQ(xrow, crow);
  EXPECT_EQ(xcol, ccol);
  trnsparseDestroyMatDescr(dA);
  trnsparseDestroyMatDescr(dC);
}

template <class T>
void gebsr2gebsr_cases(std::uint64_t seed) {
  Handle h;
  std::mt19937_64 g(seed);
  for (int trial = 0; trial < 40; ++trial) gebsr2gebsr_case<T>(h, g, trial);
}

TEST(GeneralBsr, Gebsr2gebsrAndGebsr2csrFp32) { gebsr2gebsr_cases<float>(11); }
TEST(GeneralBsr, Gebsr2gebsrAndGebsr2csrFp64) { gebsr2gebsr_cases<double>(12); }
TEST(GeneralBsr, Gebsr2gebsrAndGebsr2csrC32) { gebsr2gebsr_cases<std::complex<float>>(13); }
TEST(GeneralBsr, Gebsr2gebsrAndGebsr2csrC64) { gebsr2gebsr_cases<std::complex<double>>(14); }

// csr -> gebsr (3 x 2) -> gebsr (2 x 5) -> csr: the final CSR holds every entry of the original
// (values bit for bit) plus explicit zeros where the blocks padded it, nothing else.
TEST(GeneralBsr, CsrGebsrGebsrCsrRoundTrip) {
  Handle h;
  std::mt19937_64 g(21);
  trnsparseMatDescr_t d0;
  trnsparseCreateMatDescr(&d0);
  const auto R = TRNSPARSE_DIRECTION_COLUMN;
  const int m = 17, n = 23;
  std::vector<double> dense(static_cast<std::size_t>(m * n), 0.0);
  std::vector<int> row{0}, col;
  std::vector<double> val;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j)
      if (g() % 6 == 0) {
        const double v = 1.0 + static_cast<double>(g() % 1000) / 7.0;
        dense[static_cast<std::size_t>(i * n + j)] = v;
        col.push_back(j);
        val.push_back(v);
      }
    row.push_back(static_cast<int>(col.size()));
  }
  const int mb1 = (m + 2) / 3, nb1 = (n + 1) / 2;
  std::vector<int> r1(static_cast<std::size_t>(mb1) + 1);
  int nnzb1 = 0;
  ASSERT_EQ(trnsparseXcsr2gebsrNnz(h.h, R, m, n, d0, row.data(), col.data(), d0, r1.data(), 3, 2, &nnzb1, nullptr), 0);
  std::vector<int> c1(static_cast<std::size_t>(nnzb1));
  std::vector<double> v1(static_cast<std::size_t>(nnzb1 * 6));
  ASSERT_EQ(trnsparseDcsr2gebsr(h.h, R, m, n, d0, val.data(), row.data(), col.data(), d0, v1.data(), r1.data(), c1.data(), 3, 2, nullptr), 0);
  const int mb2 = (mb1 * 3 + 1) / 2, nb2 = (nb1 * 2 + 4) / 5;
  std::vector<int> r2(static_cast<std::size_t>(mb2) + 1);
  int nnzb2 = 0;
  ASSERT_EQ(trnsparseXgebsr2gebsrNnz(h.h, R, mb1, nb1, nnzb1, d0, r1.data(), c1.data(), 3, 2, d0, r2.data(), 2, 5, &nnzb2, nullptr), 0);
  std::vector<int> c2(static_cast<std::size_t>(nnzb2));
  std::vector<double> v2(static_cast<std::size_t>(nnzb2 * 10));
  ASSERT_EQ(trnsparseDgebsr2gebsr(h.h, R, mb1, nb1, nnzb1, d0, v1.data(), r1.data(), c1.data(), 3, 2, d0, v2.data(), r2.data(), c2.data(),
                                  2, 5, nullptr),
            0);
  const int m2 = mb2 * 2;
  std::vector<int> r3(static_cast<std::size_t>(m2) + 1), c3(static_cast<std::size_t>(nnzb2 * 10));
  std::vector<double> v3(c3.size());
  ASSERT_EQ(trnsparseDgebsr2csr(h.h, R, mb2, nb2, d0, v2.data(), r2.data(), c2.data(), 2, 5, d0, v3.data(), r3.data(), c3.data()), 0);
  std::set<std::pair<int, int>> entries;
  for (int i = 0; i < m2; ++i)
    for (int e = r3[static_cast<std::size_t>(i)]; e < r3[static_cast<std::size_t>(i) + 1]; ++e) {
      const int j = c3[static_cast<std::size_t>(e)];
      entries.insert({i, j});
      const double want = i < m && j < n ? dense[static_cast<std::size_t>(i * n + j)] : 0.0;
      EXPECT_EQ(std::memcmp(&want, &v3[static_cast<std::size_t>(e)], sizeof(double)), 0) << i << "," << j;
    }
  for (int i = 0; i < m; ++i)
    for (int e = row[static_cast<std::size_t>(i)]; e < row[static_cast<std::size_t>(i) + 1]; ++e)
      EXPECT_TRUE(entries.count({i, col[static_cast<std::size_t>(e)]}) == 1) << i;
  EXPECT_EQ(entries.size(), static_cast<std::size_t>(nnzb2) * 10);  // one entry per value of C's blocks
  trnsparseDestroyMatDescr(d0);
}

TEST(GeneralBsr, Gebsr2gebsrBadArgumentsAtTheirPositionsOutputsUntouched) {
  Handle h;
  trnsparseMatDescr_t dA, dC, sym;
  trnsparseCreateMatDescr(&dA);
  trnsparseCreateMatDescr(&dC);
  trnsparseCreateMatDescr(&sym);
  trnsparseSetMatType(sym, TRNSPARSE_MATRIX_TYPE_SYMMETRIC);
  const auto R = TRNSPARSE_DIRECTION_ROW;
  int row[3] = {0, 2, 3}, col[3] = {0, 2, 1};  // mb 2, nb 3, 2 x 2 blocks
  float val[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  int rowc[5] = {-5, -5, -5, -5, -5}, colc[8] = {-5, -5, -5, -5, -5, -5, -5, -5}, total = -5, isz = -5;
  std::vector<float> valc(64, -5.0f);
  auto nnz = [&](int dir, int mb, int nnzb, trnsparseMatDescr_t a, const int* r, const int* c, int rba, trnsparseMatDescr_t dc,
                 int* out, int rbc, int* t) {
    return trnsparseXgebsr2gebsrNnz(h.h, static_cast<trnsparseDirection_t>(dir), mb, 3, nnzb, a, r, c, rba, 2, dc, out, rbc, 3, t,
                                    nullptr);
  };
  EXPECT_EQ(nnz(2, 2, 3, dA, row, col, 2, dC, rowc, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 1);
  EXPECT_EQ(nnz(0, -1, 3, dA, row, col, 2, dC, rowc, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 2);
  EXPECT_EQ(nnz(0, 2, -1, dA, row, col, 2, dC, rowc, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 4);
  EXPECT_EQ(nnz(0, 2, 3, nullptr, row, col, 2, dC, rowc, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 5);
  EXPECT_EQ(nnz(0, 2, 3, sym, row, col, 2, dC, rowc, 2, &total), TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED);
  EXPECT_EQ(nnz(0, 2, 3, dA, nullptr, col, 2, dC, rowc, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 6);
  EXPECT_EQ(nnz(0, 2, 3, dA, row, nullptr, 2, dC, rowc, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 7);
  EXPECT_EQ(nnz(0, 2, 3, dA, row, col, 0, dC, rowc, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 8);
  EXPECT_EQ(nnz(0, 2, 3, dA, row, col, 2, nullptr, rowc, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 10);
  EXPECT_EQ(nnz(0, 2, 3, dA, row, col, 2, dC, nullptr, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 11);
  EXPECT_EQ(nnz(0, 2, 3, dA, row, col, 2, dC, rowc, 0, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 12);
  EXPECT_EQ(nnz(0, 2, 3, dA, row, col, 2, dC, rowc, 2, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 14);
  // index arrays (cuSPARSE: "Sorted" column indices): unsorted, out of range, nnzb not the row
  // pointer's -> INVALID_VALUE at the array's position, nothing written
  int unsorted[3] = {2, 0, 1}, out_of_range[3] = {0, 3, 1};
  EXPECT_EQ(nnz(0, 2, 3, dA, row, unsorted, 2, dC, rowc, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 7);
  EXPECT_EQ(nnz(0, 2, 3, dA, row, out_of_range, 2, dC, rowc, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 7);
  int bad_row[3] = {0, 3, 2};
  EXPECT_EQ(nnz(0, 2, 3, dA, bad_row, col, 2, dC, rowc, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 6);
  EXPECT_EQ(nnz(0, 2, 2, dA, row, col, 2, dC, rowc, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  // m = mb rowBlockDimA past INT_MAX: refused at rowBlockDimA before any array is read or sized
  EXPECT_EQ(nnz(0, 1 << 20, 3, dA, row, col, 1 << 12, dC, rowc, 2, &total), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 8);
  EXPECT_EQ(rowc[0], -5);
  EXPECT_EQ(total, -5);
  // bufferSize
  EXPECT_EQ(trnsparseSgebsr2gebsr_bufferSize(h.h, R, 2, 3, 3, dA, nullptr, row, col, 2, 2, 2, 3, &isz), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 6);
  EXPECT_EQ(trnsparseSgebsr2gebsr_bufferSize(h.h, R, 2, 3, 3, dA, val, row, col, 2, 2, 2, 0, &isz), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 12);
  EXPECT_EQ(trnsparseSgebsr2gebsr_bufferSize(h.h, R, 2, 3, 3, dA, val, row, col, 2, 2, 2, 3, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 13);
  EXPECT_EQ(isz, -5);
  // gebsr2gebsr: a row pointer that is not Xgebsr2gebsrNnz's is refused before anything is written
  auto conv = [&](const float* v, const int* r, float* vc, int* rc, int* cc, int cbc) {
    return trnsparseSgebsr2gebsr(h.h, R, 2, 3, 3, dA, v, r, col, 2, 2, dC, vc, rc, cc, 2, cbc, nullptr);
  };
  int wrong[3] = {0, 1, 9};
  EXPECT_EQ(conv(val, row, valc.data(), wrong, colc, 3), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 13);
  EXPECT_EQ(conv(nullptr, row, valc.data(), wrong, colc, 3), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 6);
  EXPECT_EQ(conv(val, row, nullptr, wrong, colc, 3), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 12);
  EXPECT_EQ(conv(val, row, valc.data(), nullptr, colc, 3), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 13);
  EXPECT_EQ(conv(val, row, valc.data(), wrong, nullptr, 3), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 14);
  EXPECT_EQ(conv(val, row, valc.data(), wrong, colc, -1), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 16);
  EXPECT_EQ(trnsparseSgebsr2gebsr(h.h, R, 2, 3, 3, dA, val, row, col, 2, 2, nullptr, valc.data(), wrong, colc, 2, 3, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 11);
  for (float v : valc) EXPECT_EQ(v, -5);
  EXPECT_EQ(colc[0], -5);
  // gebsr2csr
  int crow[5] = {-5, -5, -5, -5, -5}, ccol[12] = {-5};
  float cval[12] = {-5};
  auto tocsr = [&](int mb, const int* r, const int* c, int rb, trnsparseMatDescr_t dc, float* vc, int* rc, int* cc) {
    return trnsparseSgebsr2csr(h.h, R, mb, 3, dA, val, r, c, rb, 2, dc, vc, rc, cc);
  };
  EXPECT_EQ(tocsr(-1, row, col, 2, dC, cval, crow, ccol), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 2);
  EXPECT_EQ(tocsr(2, nullptr, col, 2, dC, cval, crow, ccol), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 6);
  EXPECT_EQ(tocsr(2, row, nullptr, 2, dC, cval, crow, ccol), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 7);
  EXPECT_EQ(tocsr(2, row, col, 0, dC, cval, crow, ccol), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 8);
  EXPECT_EQ(tocsr(2, row, col, 2, nullptr, cval, crow, ccol), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 10);
  EXPECT_EQ(tocsr(2, row, col, 2, dC, nullptr, crow, ccol), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 11);
  EXPECT_EQ(tocsr(2, row, col, 2, dC, cval, nullptr, ccol), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 12);
  EXPECT_EQ(tocsr(2, row, col, 2, dC, cval, crow, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 13);
  EXPECT_EQ(tocsr(2, row, unsorted, 2, dC, cval, crow, ccol), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 7);
  EXPECT_EQ(trnsparseXgebsr2csr(h.h, R, 2, 3, dA, row, unsorted, 2, 2, dC, crow, ccol), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 6);
  EXPECT_EQ(trnsparseXgebsr2csr(h.h, R, 2, 3, dA, row, col, 2, 2, dC, crow, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 11);
  EXPECT_EQ(crow[0], -5);
  EXPECT_EQ(ccol[0], -5);
  EXPECT_EQ(cval[0], -5);
  // an empty matrix: NULL value / column arrays are fine, the row pointer is written
  int empty_row[3] = {0, 0, 0};
  EXPECT_EQ(tocsr(2, empty_row, nullptr, 2, dC, nullptr, crow, nullptr), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(crow[4], 0);
  trnsparseDestroyMatDescr(dA);
  trnsparseDestroyMatDescr(dC);
  trnsparseDestroyMatDescr(sym);
}

// The block conversions' profile is one host round trip (the arrays read and written back).
TEST(GeneralBsr, Gebsr2gebsrProfileIsOneHostStep) {
  Handle h;
  trnsparseMatDescr_t d;
  trnsparseCreateMatDescr(&d);
  int row[2] = {0, 1}, col[1] = {0}, rowc[3], colc[2], crow[3], ccol[4];
  float val[4] = {1, 2, 3, 4}, valc[4], cval[4];
  int total = 0;
  ASSERT_EQ(trnsparseXgebsr2gebsrNnz(h.h, TRNSPARSE_DIRECTION_ROW, 1, 1, 1, d, row, col, 2, 2, d, rowc, 1, 2, &total, nullptr), 0);
  ASSERT_EQ(total, 2);
  ASSERT_EQ(trnsparseSgebsr2gebsr(h.h, TRNSPARSE_DIRECTION_ROW, 1, 1, 1, d, val, row, col, 2, 2, d, valc, rowc, colc, 1, 2, nullptr), 0);
  trnProfile_t p;
  ASSERT_EQ(trnsparseGetLastProfile(h.h, &p), 0);
  EXPECT_GT(p.total_ns, 0.0);
  EXPECT_EQ(valc[0], 1);
  EXPECT_EQ(valc[3], 4);
  ASSERT_EQ(trnsparseSgebsr2csr(h.h, TRNSPARSE_DIRECTION_COLUMN, 1, 1, d, val, row, col, 2, 2, d, cval, crow, ccol), 0);
  EXPECT_EQ(cval[0], 1);  // column-major block: (0, 0) 1, (0, 1) 3, (1, 0) 2, (1, 1) 4
  EXPECT_EQ(cval[1], 3);
  EXPECT_EQ(cval[2], 2);
  EXPECT_EQ(crow[2], 4);
  trnsparseDestroyMatDescr(d);
}

}  // namespace
