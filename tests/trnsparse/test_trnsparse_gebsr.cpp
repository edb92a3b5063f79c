// trnsparse general-BSR conversions (issue #28, fourth slice): {S,D,C,Z}csr2gebsr with
// Xcsr2gebsrNnz and {S,D,C,Z}gebsr2gebsc on random CSR matrices (block dims that do not divide the
// sizes, both block directions, both bases), checked by expanding every result to a dense matrix
// in this test and comparing it bit for bit with the dense matrix of the input; the block pattern
// against a std::set; bad arguments at their positions with outputs untouched.
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

}  // namespace
