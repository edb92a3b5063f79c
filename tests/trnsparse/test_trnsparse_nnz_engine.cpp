// <t>nnz as a tile program (trnsparse/src/nnz_engine.cpp): the counts against a reference computed
// here on the values' bit patterns -- a value is nonzero iff a bit other than its IEEE sign bits is
// set (+0 / -0 are zero; NaN, Inf and subnormals count; an fp64 part whose high word is a signed zero
// and whose low word is 0x80000000 is a subnormal: counted) -- on shapes that cross the kernel's tile
// edges (pmax columns, 512 rows), lda > m with non-zero padding, both directions, every value type;
// and the call's profile is the engines' (modeled time, VectorE and DMA busy, no host round trip).
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "c_api_test_util.hpp"
#include "trnsparse.h"

namespace {

using trnsparse_test::Handle;

TRNSPARSE_TYPED_ENTRY(nnz)
// T's C API element type.
template <class T>
using CT = std::conditional_t<std::is_same_v<T, float>, float,
                              std::conditional_t<std::is_same_v<T, double>, double,
                                                 std::conditional_t<std::is_same_v<T, std::complex<float>>, trnComplex, trnDoubleComplex>>>;

// The words of a value of T: 1 (float), 2 (double, complex<float>), 4 (complex<double>); which carry a sign bit.
template <class T>
constexpr int kWords = static_cast<int>(sizeof(T) / 4);
template <class T>
constexpr bool kFp64Parts = std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>;
template <class T>
bool sign_word(int k) {
  return !kFp64Parts<T> || k % 2 == 1;  // fp64 parts: little-endian, the high (odd) word holds the sign
}

// A column-major m x n matrix (ld) of T as 32-bit words: a value is all-zero words with probability
// 0.6, otherwise each of its words one of the patterns below; the padding rows are 1.0f words.
template <class T>
std::vector<std::uint32_t> make_words(int m, int n, int ld, unsigned seed) {
  static const std::uint32_t kPatterns[] = {0u, 0x80000000u, 1u, 0x80000001u, 0x7fc00000u, 0x3f800000u, 0xff800000u};
  std::mt19937 g(seed);
  std::vector<std::uint32_t> w(static_cast<std::size_t>(ld) * n * kWords<T>, 0x3f800000u);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      const bool zero = g() % 10 < 6;
      for (int k = 0; k < kWords<T>; ++k)
        w[(static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * ld) * kWords<T> + k] = zero ? 0u : kPatterns[g() % 7];
    }
  return w;
}

template <class T>
bool nonzero_bits(const std::uint32_t* v) {
  for (int k = 0; k < kWords<T>; ++k)
    if ((v[k] & (sign_word<T>(k) ? 0x7fffffffu : 0xffffffffu)) != 0) return true;
  return false;
}

template <class T>
void check_counts(trnsparseHandle_t h, trnsparseMatDescr_t d, int m, int n, int ld, unsigned seed) {
  const std::vector<std::uint32_t> w = make_words<T>(m, n, ld, seed);
  const auto* a = reinterpret_cast<const CT<T>*>(w.data());
  for (const bool by_rows : {true, false}) {
    std::vector<int> want(static_cast<std::size_t>(by_rows ? m : n), 0), got(want.size(), -1);
    int want_total = 0, total = -1;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i)
        if (nonzero_bits<T>(&w[(static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * ld) * kWords<T>])) {
          ++want[static_cast<std::size_t>(by_rows ? i : j)];
          ++want_total;
        }
    ASSERT_EQ(nnz<T>(h, by_rows ? TRNSPARSE_DIRECTION_ROW : TRNSPARSE_DIRECTION_COLUMN, m, n, d, a, ld, got.data(), &total),
              TRNSPARSE_STATUS_SUCCESS)
        << m << "x" << n << (by_rows ? " rows" : " columns");
    EXPECT_EQ(got, want) << m << "x" << n << (by_rows ? " rows" : " columns");
    EXPECT_EQ(total, want_total) << m << "x" << n << (by_rows ? " rows" : " columns");
  }
}

template <class T>
void every_shape() {
  Handle h;
  trnsparseMatDescr_t d = nullptr;
  trnsparseCreateMatDescr(&d);
  // Tile edges: 512-row chunks (700 = 512 + 188), 128-column blocks (300 = 128 + 128 + 44), one of each.
  check_counts<T>(h.h, d, 700, 300, 703, 1);
  check_counts<T>(h.h, d, 1, 1, 1, 2);
  check_counts<T>(h.h, d, 512, 128, 512, 3);
  check_counts<T>(h.h, d, 129, 513, 131, 4);
  trnsparseDestroyMatDescr(d);
}

TEST(NnzEngine, BitPatternsEveryTypeAndShape) {
  every_shape<float>();
  every_shape<double>();
  every_shape<std::complex<float>>();
  every_shape<std::complex<double>>();
}

// An empty matrix: every count 0 (the counts of the non-empty side written), total 0.
TEST(NnzEngine, EmptyMatrices) {
  Handle h;
  trnsparseMatDescr_t d = nullptr;
  trnsparseCreateMatDescr(&d);
  std::vector<float> a(4, 1.0f);
  std::vector<int> per(5, -1);
  int total = -1;
  ASSERT_EQ(trnsparseSnnz(h.h, TRNSPARSE_DIRECTION_ROW, 5, 0, d, a.data(), 5, per.data(), &total), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(per, std::vector<int>(5, 0));
  EXPECT_EQ(total, 0);
  per.assign(3, -1);
  ASSERT_EQ(trnsparseSnnz(h.h, TRNSPARSE_DIRECTION_COLUMN, 0, 3, d, a.data(), 1, per.data(), &total), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(per, std::vector<int>(3, 0));
  EXPECT_EQ(total, 0);
  trnsparseDestroyMatDescr(d);
}

// The profile is the engine program's on both targets: a modeled time, VectorE compares, DMA loads,
// TensorE row sums (dirA ROW), the GpSimdE total, no host round trip.
TEST(NnzEngine, ProfileIsTheEngines) {
  const int m = 600, n = 260;
  const std::vector<std::uint32_t> w = make_words<double>(m, n, m, 5);
  for (const trnTarget_t target : {TRN_TARGET_TRN1, TRN_TARGET_TRN2}) {
    Handle h;
    trnsparseSetTarget(h.h, target);
    trnsparseMatDescr_t d = nullptr;
    trnsparseCreateMatDescr(&d);
    std::vector<int> per(static_cast<std::size_t>(m));
    int total = 0;
    ASSERT_EQ(trnsparseDnnz(h.h, TRNSPARSE_DIRECTION_ROW, m, n, d, reinterpret_cast<const double*>(w.data()), m, per.data(), &total),
              TRNSPARSE_STATUS_SUCCESS);
    trnProfile_t p{};
    ASSERT_EQ(trnsparseGetLastProfile(h.h, &p), TRNSPARSE_STATUS_SUCCESS);
    EXPECT_GT(p.total_ns, 0.0);
    EXPECT_GT(p.busy_ns[TRN_ENGINE_VECTOR], 0.0);
    EXPECT_GT(p.busy_ns[TRN_ENGINE_DMA], 0.0);
    EXPECT_GT(p.busy_ns[TRN_ENGINE_TENSOR], 0.0);
    EXPECT_GT(p.busy_ns[TRN_ENGINE_GPSIMD], 0.0);
    EXPECT_EQ(p.host_steps, 0);
    // The DMA moved at least A's m x n doubles in.
    EXPECT_GE(p.dma_bytes, 8.0 * m * n);
    trnsparseDestroyMatDescr(d);
  }
}

}  // namespace
