// SpGEMM's and csrgeam2's numeric phases on the engines (trnsparse/src/pair_sums.hpp; docs/trnsparse.md
// "SpGEMM and csrgeam2 numeric phases on the engines"), through the C++ entry points:
//  - R_32F / C_32F: the values equal, bit for bit, a plain fp32 loop written here in the documented
//    order (each product rounded, left-to-right sums in chunks of 512 products, the chunk sums added
//    in order; then fl(fl(alpha s) + fl(beta c))), including an entry of 600 products (two chunks);
//  - R_64F / C_64F: two-sided against a long-double Gustavson loop: within 4.1 u (|alpha||s| +
//    |beta||c|) (+ the reference's own error), and that bound is too tight for a result missing one
//    product (checked on every entry of two or more products);
//  - the bits are the same for 1 host thread / 1 core and 2 threads / 2 cores (several programs);
//  - the plan names the engines (no host step) and the report's trace has VectorE / TensorE work.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "trn/sparse/csrgeam.hpp"
#include "trn/sparse/spgemm_csr.hpp"

namespace {

namespace sp = trn::sparse;
using ld = long double;
using cld = std::complex<long double>;

template <class T>
constexpr bool kComplex = !std::is_floating_point_v<T>;
template <class T>
constexpr sp::Value kValue = std::is_same_v<T, float>    ? sp::Value::f32
                             : std::is_same_v<T, double> ? sp::Value::f64
                             : std::is_same_v<T, std::complex<float>> ? sp::Value::c32
                                                                      : sp::Value::c64;
template <class T>
cld wide(T v) {
  if constexpr (kComplex<T>)
    return {static_cast<ld>(v.real()), static_cast<ld>(v.imag())};
  else
    return {static_cast<ld>(v), 0.0L};
}
template <class T>
T draw(std::mt19937_64& g) {
  std::uniform_real_distribution<double> d(-1, 1);
  if constexpr (kComplex<T>) {
    using R = typename T::value_type;
    const R re = static_cast<R>(d(g));
    return T(re, static_cast<R>(d(g)));
  } else {
    return static_cast<T>(d(g));
  }
}

// A random m x n CSR (int32, base 0, sorted columns); `dense_row` >= 0 fills that row completely.
template <class T>
struct Csr {
  std::int64_t m = 0, n = 0;
  std::vector<std::int32_t> off{0}, col;
  std::vector<T> val;
  Csr(std::int64_t rows, std::int64_t cols, double density, std::uint64_t seed, std::int64_t dense_row = -1, std::int64_t dense_col = -1)
      : m(rows), n(cols) {
    std::mt19937_64 g(seed);
    std::bernoulli_distribution keep(density);
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j)
        if (i == dense_row || j == dense_col || keep(g)) {
          col.push_back(static_cast<std::int32_t>(j));
          val.push_back(draw<T>(g));
        }
      off.push_back(static_cast<std::int32_t>(col.size()));
    }
  }
  sp::SparseRef ref() const {
    return {sp::SparseRef::Format::csr, m, n, static_cast<std::int64_t>(col.size()), off.data(), col.data(),
            const_cast<T*>(val.data()), sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, kValue<T>};
  }
};

sp::Settings settings(int threads, int cores) {
  sp::Settings s;
  s.host_threads = threads;
  s.num_cores = cores;
  return s;
}

template <class T>
sp::Scalar scalar(T v) {
  const cld w = wide(v);
  return {static_cast<double>(w.real()), static_cast<double>(w.imag())};
}

// C = alpha A B + beta C0 through symbolic / numeric / copy; returns C's values (C0 on C's pattern).
template <class T>
struct Product {
  sp::CsrProduct p;
  std::vector<std::int32_t> off, col;
  std::vector<T> c0, c;
  sp::CallReport numeric, copy;
};
template <class T>
Product<T> spgemm(const Csr<T>& a, const Csr<T>& b, T alpha, T beta, const sp::Settings& s) {
  Product<T> r;
  r.p = sp::spgemm_csr_symbolic(a.ref(), b.ref());
  sp::spgemm_csr_numeric(s, a.ref(), b.ref(), r.p, &r.numeric);
  r.off.resize(static_cast<std::size_t>(a.m) + 1);
  r.col.resize(static_cast<std::size_t>(r.p.nnz()));
  std::mt19937_64 g(77);
  for (std::int64_t e = 0; e < r.p.nnz(); ++e) r.c0.push_back(draw<T>(g));
  r.c = r.c0;
  const sp::SparseRef out{sp::SparseRef::Format::csr, a.m, b.n, r.p.nnz(), r.off.data(), r.col.data(), r.c.data(),
                          sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, kValue<T>};
  sp::spgemm_csr_store_pattern(r.p, out);
  sp::spgemm_csr_store_values(s, r.p, scalar(alpha), scalar(beta), out, &r.copy);
  return r;
}

// fl(a b) and fl(x + y) in the engines' fp32 form (complex: re = fl(fl(ar br) - fl(ai bi)),
// im = fl(fl(ar bi) + fl(ai br))).
// The products of C's entry (i, j), in A's storage order: a_ik and b_kj over A's row i (the order the
// documented fp32 loop and the long-double references sum them in).
template <class T>
std::pair<std::vector<T>, std::vector<T>> entry_pairs(const Csr<T>& a, const Csr<T>& b, std::int64_t i, std::int32_t j) {
  std::vector<T> u, v;
  for (std::int32_t ea = a.off[static_cast<std::size_t>(i)]; ea < a.off[static_cast<std::size_t>(i) + 1]; ++ea) {
    const auto k = static_cast<std::size_t>(a.col[static_cast<std::size_t>(ea)]);
    for (std::int32_t eb = b.off[k]; eb < b.off[k + 1]; ++eb)
      if (b.col[static_cast<std::size_t>(eb)] == j) {
        u.push_back(a.val[static_cast<std::size_t>(ea)]);
        v.push_back(b.val[static_cast<std::size_t>(eb)]);
      }
  }
  return {u, v};
}

template <class T>
T mul32(T a, T b) {
  if constexpr (kComplex<T>) {
    volatile float rr = a.real() * b.real(), ii = a.imag() * b.imag(), ri = a.real() * b.imag(), ir = a.imag() * b.real();
    return T(rr - ii, ri + ir);
  } else {
    volatile float p = a * b;
    return p;
  }
}

// The documented fp32 sum of products u_q v_q: chunks of 512 summed left to right, chunk sums in order.
template <class T>
T sum32(const std::vector<T>& u, const std::vector<T>& v) {
  T total{};
  for (std::size_t c0 = 0; c0 < u.size(); c0 += 512) {
    T part = mul32(u[c0], v[c0]);
    for (std::size_t q = c0 + 1; q < std::min(u.size(), c0 + 512); ++q) part = part + mul32(u[q], v[q]);
    total = c0 == 0 ? part : total + part;
  }
  return total;
}

template <class T>
bool same_bits(const std::vector<T>& x, const std::vector<T>& y) {
  return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0);
}

template <class T>
T alpha_of() {
  if constexpr (kComplex<T>)
    return T(0.75, -0.5);
  else
    return T(0.75);
}
template <class T>
T beta_of() {
  if constexpr (kComplex<T>)
    return T(-0.25, 0.125);
  else
    return T(-0.25);
}

template <class T>
class SpgemmEngines : public ::testing::Test {};
using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(SpgemmEngines, Types);

TYPED_TEST(SpgemmEngines, ValuesBoundsBitsAndPlan) {
  using T = TypeParam;
  // 120 x 700 at 2% times 700 x 60 at 3%, row 3 of A and column 7 of B dense: entry (3, 7) has 700 products.
  const Csr<T> a(120, 700, 0.02, 11, 3), b(700, 60, 0.03, 12, -1, 7);
  const T alpha = alpha_of<T>(), beta = beta_of<T>();
  const Product<T> r = spgemm(a, b, alpha, beta, settings(1, 1));
  ASSERT_GT(r.p.nnz(), 2048);  // more than one program of 16 tiles
  // the reference, entry by entry in C's order: its products in A's storage order
  constexpr bool single = std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>>;
  ld worst = 0;
  std::int64_t checked_missing = 0, long_entries = 0;
  for (std::int64_t i = 0; i < a.m; ++i)
    for (std::int32_t e = r.off[static_cast<std::size_t>(i)]; e < r.off[static_cast<std::size_t>(i) + 1]; ++e) {
      const std::int32_t j = r.col[static_cast<std::size_t>(e)];
      const auto [u, v] = entry_pairs(a, b, i, j);
      ASSERT_FALSE(u.empty()) << "entry (" << i << ", " << j << ") is not in the structural product";
      long_entries += u.size() > 512 ? 1 : 0;
      const T got = r.c[static_cast<std::size_t>(e)], c0 = r.c0[static_cast<std::size_t>(e)];
      if constexpr (single) {
        const T s = sum32(u, v);
        const T want = mul32(alpha, s) + mul32(beta, c0);
        EXPECT_EQ(got, want) << "entry (" << i << ", " << j << "), " << u.size() << " products";
      } else {
        cld s = 0;
        ld mag = 0;
        for (std::size_t q = 0; q < u.size(); ++q) {
          s += wide(u[q]) * wide(v[q]);
          mag += std::abs(wide(u[q])) * std::abs(wide(v[q]));
        }
        const cld want = wide(alpha) * s + wide(beta) * wide(c0);
        const ld scale = std::abs(wide(alpha)) * mag + std::abs(wide(beta)) * std::abs(wide(c0));
        const ld bound = 4.1L * 0x1p-53L * (std::abs(wide(alpha)) * std::abs(s) + std::abs(wide(beta)) * std::abs(wide(c0))) +
                         static_cast<ld>(u.size() + 8) * 0x1p-63L * scale;
        const ld err = std::abs(wide(got) - want);
        EXPECT_LE(err, bound) << "entry (" << i << ", " << j << ")";
        worst = std::max(worst, err / bound);
        if (u.size() >= 2) {  // two-sided: leaving out the last product falls outside the bound
          const cld missing = wide(alpha) * wide(u.back()) * wide(v.back());
          EXPECT_GT(std::abs(wide(got) - (want - missing)), bound) << "entry (" << i << ", " << j << ")";
          ++checked_missing;
        }
      }
    }
  EXPECT_EQ(long_entries, 1);
  if (!single) {
    EXPECT_GT(checked_missing, 100);
  }
  std::printf("SpGEMM engines %d: nnz(C) %lld, max err / bound %.3Lg\n", static_cast<int>(kValue<T>),
              static_cast<long long>(r.p.nnz()), worst);
  // the same bits on 2 threads and 2 cores
  const Product<T> r2 = spgemm(a, b, alpha, beta, settings(2, 2));
  EXPECT_TRUE(same_bits(r.c, r2.c));
  // the plans name the engines, the traces hold their work
  const std::string engines = single ? "VectorE" : "TensorE";
  EXPECT_NE(r.numeric.plan.find(engines), std::string::npos) << r.numeric.plan;
  EXPECT_NE(r.copy.plan.find(engines), std::string::npos) << r.copy.plan;
  EXPECT_EQ(r.numeric.plan.find("costed host step"), std::string::npos) << r.numeric.plan;
  EXPECT_GT(r.numeric.trace.per_engine[static_cast<int>(single ? trn::Engine::vector : trn::Engine::tensor)], 0);
  EXPECT_GT(r.numeric.profile.total_ns, 0.0);
}

// C = alpha A + beta B: fp32 bit for bit fl(fl(alpha a) + fl(beta b)); fp64 within 2.02 u |c|; the
// same bits on 2 threads / 2 cores.
template <class T>
class CsrgeamEngines : public ::testing::Test {};
TYPED_TEST_SUITE(CsrgeamEngines, Types);

template <class T>
std::vector<T> geam(const Csr<T>& a, const Csr<T>& b, T alpha, T beta, const sp::Settings& s, std::vector<std::int32_t>& off,
                    std::vector<std::int32_t>& col, sp::CallReport* rep) {
  off.assign(static_cast<std::size_t>(a.m) + 1, 0);
  const std::int64_t nnz = sp::csrgeam_nnz(a.ref(), b.ref(), sp::IndexBase::zero, off.data());
  col.assign(static_cast<std::size_t>(nnz), -1);
  std::vector<T> c(static_cast<std::size_t>(nnz));
  const sp::SparseRef C{sp::SparseRef::Format::csr, a.m, a.n, nnz, off.data(), col.data(), c.data(),
                        sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, kValue<T>};
  sp::csrgeam(s, scalar(alpha), a.ref(), scalar(beta), b.ref(), C, rep);
  return c;
}

TYPED_TEST(CsrgeamEngines, ValuesBitsAndPlan) {
  using T = TypeParam;
  const Csr<T> a(120, 100, 0.1, 21), b(120, 100, 0.12, 22);
  const T alpha = alpha_of<T>(), beta = beta_of<T>();
  std::vector<std::int32_t> off, col, off2, col2;
  sp::CallReport rep;
  const std::vector<T> c = geam(a, b, alpha, beta, settings(1, 1), off, col, &rep);
  ASSERT_GT(c.size(), 2048u);  // more than one program of 16 tiles
  constexpr bool single = std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>>;
  std::int64_t both = 0;
  for (std::int64_t i = 0; i < a.m; ++i) {
    std::int32_t ea = a.off[static_cast<std::size_t>(i)], eb = b.off[static_cast<std::size_t>(i)];
    for (std::int32_t e = off[static_cast<std::size_t>(i)]; e < off[static_cast<std::size_t>(i) + 1]; ++e) {
      const std::int32_t j = col[static_cast<std::size_t>(e)];
      const bool in_a = ea < a.off[static_cast<std::size_t>(i) + 1] && a.col[static_cast<std::size_t>(ea)] == j;
      const bool in_b = eb < b.off[static_cast<std::size_t>(i) + 1] && b.col[static_cast<std::size_t>(eb)] == j;
      ASSERT_TRUE(in_a || in_b);
      const T av = in_a ? a.val[static_cast<std::size_t>(ea++)] : T{}, bv = in_b ? b.val[static_cast<std::size_t>(eb++)] : T{};
      both += in_a && in_b ? 1 : 0;
      const T got = c[static_cast<std::size_t>(e)];
      if constexpr (single) {
        const T want = in_a && in_b ? mul32(alpha, av) + mul32(beta, bv) : in_a ? mul32(alpha, av) : mul32(beta, bv);
        EXPECT_EQ(got, want) << i << "," << j;
      } else {
        const cld want = wide(alpha) * wide(av) + wide(beta) * wide(bv);
        const ld bound = 2.02L * 0x1p-53L * std::abs(want) + 4 * 0x1p-63L * (std::abs(wide(alpha) * wide(av)) + std::abs(wide(beta) * wide(bv)));
        EXPECT_LE(std::abs(wide(got) - want), bound) << i << "," << j;
        if (in_a && in_b) {  // two-sided: alpha a alone (beta b lost) falls outside the bound
          EXPECT_GT(std::abs(wide(got) - wide(alpha) * wide(av)), bound) << i << "," << j;
        }
      }
    }
  }
  EXPECT_GT(both, 20);
  const std::vector<T> c2 = geam(a, b, alpha, beta, settings(2, 2), off2, col2, nullptr);
  EXPECT_TRUE(same_bits(c, c2));
  EXPECT_EQ(col, col2);
  EXPECT_NE(rep.plan.find(single ? "VectorE" : "TensorE"), std::string::npos) << rep.plan;
  EXPECT_EQ(rep.plan.find("costed host step"), std::string::npos) << rep.plan;
  EXPECT_GT(rep.trace.per_engine[static_cast<int>(single ? trn::Engine::vector : trn::Engine::tensor)], 0);
}

// The fp32 staged path (trnsparse/src/pair_staged.hpp) moves whole source runs: on a product whose B
// rows are long (about 400 entries), the DMA descriptors in the numeric phase's trace (one per
// partition row of each transfer, as the cost model counts them) number about one per A entry (one B
// row each), not one per product; the values still match the documented fp32 loop bit for bit. The
// copy's fixed two-slot layout issues no GpSimdE work and about three descriptors per partition.
std::int64_t dma_descriptors(const trn::Trace& t) {
  std::int64_t n = 0;
  for (const trn::Instruction& ins : t.instructions)
    if (ins.engine == trn::Engine::dma) n += std::max<std::int32_t>(ins.partitions, 1);
  return n;
}

TEST(SpgemmStaged, DescriptorsPerRunNotPerProduct) {
  using T = float;
  const Csr<T> a(96, 64, 0.05, 31), b(64, 1000, 0.4, 32);
  const Product<T> r = spgemm(a, b, alpha_of<T>(), beta_of<T>(), settings(1, 1));
  const auto nnz_a = static_cast<std::int64_t>(a.col.size());
  ASSERT_GT(r.p.products, 30 * nnz_a);  // long runs: each A entry selects a B row of ~400 products
  const std::int64_t numeric = dma_descriptors(r.numeric.trace);
  // runs: at most one per A entry per segment holding part of its row, plus per segment a run of A's
  // values, its control row and its store (segments <= 128 per tile x tiles <= 16 here)
  std::printf("staged SpGEMM: nnz(A) %lld, products %lld, numeric DMA descriptors %lld\n", static_cast<long long>(nnz_a),
              static_cast<long long>(r.p.products), static_cast<long long>(numeric));
  EXPECT_GE(numeric, nnz_a / 2);  // adjacent B rows may share a run, never all of them
  EXPECT_LT(numeric * 20, r.p.products) << "a descriptor per product (or per pair of products) is not a run";
  EXPECT_NE(r.numeric.plan.find("staged runs"), std::string::npos) << r.numeric.plan;
  // bits: the documented fp32 loop, entry by entry
  for (std::int64_t i = 0; i < a.m; ++i)
    for (std::int32_t e = r.off[static_cast<std::size_t>(i)]; e < r.off[static_cast<std::size_t>(i) + 1]; ++e) {
      const auto [u, v] = entry_pairs(a, b, i, r.col[static_cast<std::size_t>(e)]);
      const T want = mul32(alpha_of<T>(), sum32(u, v)) + mul32(beta_of<T>(), r.c0[static_cast<std::size_t>(e)]);
      ASSERT_EQ(r.c[static_cast<std::size_t>(e)], want) << i << "," << r.col[static_cast<std::size_t>(e)];
    }
  // the copy: fixed two-slot layout, VectorE only, <= 3 descriptors per partition row of work
  EXPECT_EQ(r.copy.trace.per_engine[static_cast<int>(trn::Engine::gpsimd)], 0);
  EXPECT_LE(dma_descriptors(r.copy.trace), 3 * (r.p.nnz() + 127) / 128 * 128);
  EXPECT_NE(r.copy.plan.find("fixed two-slot layout"), std::string::npos) << r.copy.plan;
}

// Every entry of r = alpha A B + beta C equals the documented fp32 loop bit for bit (a failure is
// reported once, for the first entry that differs); returns the longest entry's product count.
template <class T>
std::int64_t expect_entries_are_the_fp32_loop(const Csr<T>& a, const Csr<T>& b, const Product<T>& r) {
  std::int64_t longest = 0;
  for (std::int64_t i = 0; i < a.m; ++i)
    for (std::int32_t e = r.off[static_cast<std::size_t>(i)]; e < r.off[static_cast<std::size_t>(i) + 1]; ++e) {
      const auto [u, v] = entry_pairs(a, b, i, r.col[static_cast<std::size_t>(e)]);
      longest = std::max<std::int64_t>(longest, static_cast<std::int64_t>(u.size()));
      const T want = mul32(alpha_of<T>(), sum32(u, v)) + mul32(beta_of<T>(), r.c0[static_cast<std::size_t>(e)]);
      if (!(r.c[static_cast<std::size_t>(e)] == want)) {
        ADD_FAILURE() << "entry " << i << "," << r.col[static_cast<std::size_t>(e)] << " of " << u.size() << " products";
        return longest;
      }
    }
  return longest;
}

// An entry of more than 1024 products (row 3 of A and column 7 of B dense: 1100 products, three
// chunks of 512) leaves the staged path for the per-entry gather path (pair_sums.cpp) in the same
// call; every entry still equals the documented fp32 loop bit for bit, for real and complex.
template <class T>
void check_long_entry() {
  const Csr<T> a(40, 1100, 0.01, 41, 3), b(1100, 30, 0.02, 42, -1, 7);
  const Product<T> r = spgemm(a, b, alpha_of<T>(), beta_of<T>(), settings(1, 1));
  const std::int64_t longest = expect_entries_are_the_fp32_loop(a, b, r);
  EXPECT_EQ(longest, 1100);
  EXPECT_NE(r.numeric.plan.find("per-entry gathers for the 1 entries"), std::string::npos) << r.numeric.plan;
  const Product<T> r2 = spgemm(a, b, alpha_of<T>(), beta_of<T>(), settings(2, 2));
  EXPECT_TRUE(same_bits(r.c, r2.c));
}

TEST(SpgemmStaged, LongEntryTakesPerEntryPath) {
  check_long_entry<float>();
  check_long_entry<std::complex<float>>();
}

// An entry of 700 products (row 0 of A and column 1 of B dense; 513 .. 1024 products stay on the staged
// path) is summed by the GpSimdE segment-sums operator in two chunks, 512 then 188, the chunk sums
// added: equal to the documented fp32 loop bit for bit, real and complex, beside entries of 1 .. 3.
template <class T>
void check_two_chunk_entry() {
  const Csr<T> a(6, 700, 0.004, 65, 0), b(700, 5, 0.004, 66, -1, 1);
  const Product<T> r = spgemm(a, b, alpha_of<T>(), beta_of<T>(), settings(1, 1));
  const std::int64_t longest = expect_entries_are_the_fp32_loop(a, b, r);
  EXPECT_EQ(longest, 700);
  EXPECT_EQ(r.numeric.plan.find("per-entry gathers"), std::string::npos) << r.numeric.plan;
}

TEST(SpgemmStaged, TwoChunkEntryStaysStaged) {
  check_two_chunk_entry<float>();
  check_two_chunk_entry<std::complex<float>>();
}

// The staged plan lists a segment's distinct source elements in two ways (pair_staged.cpp, read_side):
// a bitmap read back over the marked range, or -- when that range is long against the segment's
// products -- the first occurrences, sorted. A of one dense row of 3 and B of three dense rows of
// 40 000: a segment (85 entries of 3 products) reads B entries from all three rows, ~1250 bitmap words
// against 255 products, so its B side takes the sorted path (its A side the bitmap). Every entry equals
// the documented fp32 loop bit for bit, real and complex, and 2 threads / 2 cores give the same bits.
template <class T>
void check_wide_source_range() {
  constexpr std::int32_t n = 40000;
  const Csr<T> a(1, 3, 0.0, 61, 0), b(3, n, 1.0, 62);
  const Product<T> r = spgemm(a, b, alpha_of<T>(), beta_of<T>(), settings(1, 1));
  ASSERT_EQ(r.p.nnz(), n);
  ASSERT_EQ(b.val.size(), 3u * n);
  for (std::int32_t j = 0; j < n; ++j) {
    const std::vector<T> v{b.val[static_cast<std::size_t>(j)], b.val[static_cast<std::size_t>(n + j)],
                           b.val[static_cast<std::size_t>(2 * n + j)]};
    const T want = mul32(alpha_of<T>(), sum32(a.val, v)) + mul32(beta_of<T>(), r.c0[static_cast<std::size_t>(j)]);
    ASSERT_EQ(r.c[static_cast<std::size_t>(j)], want) << "entry " << j;
  }
  EXPECT_NE(r.numeric.plan.find("staged"), std::string::npos) << r.numeric.plan;
  const Product<T> r2 = spgemm(a, b, alpha_of<T>(), beta_of<T>(), settings(2, 2));
  EXPECT_TRUE(same_bits(r.c, r2.c));
}

TEST(SpgemmStaged, WideSourceRangeTakesTheSortedList) {
  check_wide_source_range<float>();
  check_wide_source_range<std::complex<float>>();
}

// The staged plans a CsrProduct keeps (issue #30, as cuSPARSE's SpGEMM descriptor keeps its work
// estimation): a second numeric / copy call reuses them (the same plan object), and a kept plan serves
// new value arrays at new addresses -- the results equal a fresh product's bit for bit, with the same
// modeled time and instruction count, for indirect staging (A and B of >= 16 entries) and the runs path
// (A of fewer than 16 entries), with beta != 0 then beta == 0 (the copy's list and plan rebuilt) and back.
template <class T>
void check_kept_plans(std::int64_t m, double density_a) {
  const Csr<T> a(m, 64, density_a, 51), b(64, 80, 0.1, 52);
  Product<T> r = spgemm(a, b, alpha_of<T>(), beta_of<T>(), settings(1, 1));
  ASSERT_NE(r.p.numeric_plan, nullptr);
  ASSERT_NE(r.p.copy_plan, nullptr);
  Csr<T> a2 = a;  // new values of A in a new array (SpMatSetValues), the same pattern
  for (T& v : a2.val) v = v * T(0.75f) + T(0.25f);
  const std::shared_ptr<const void> numeric_plan = r.p.numeric_plan;
  sp::CallReport numeric;
  sp::spgemm_csr_numeric(settings(1, 1), a2.ref(), b.ref(), r.p, &numeric);
  EXPECT_EQ(r.p.numeric_plan, numeric_plan) << "the numeric phase built a new plan";
  for (const T beta : {beta_of<T>(), T(0.0f), beta_of<T>()}) {
    const Product<T> want = spgemm(a2, b, alpha_of<T>(), beta, settings(1, 1));
    EXPECT_TRUE(same_bits(r.p.sums, want.p.sums));
    EXPECT_EQ(numeric.profile.total_ns, want.numeric.profile.total_ns);
    EXPECT_EQ(numeric.trace.instructions.size(), want.numeric.trace.instructions.size());
    std::vector<T> c = want.c0;  // new output arrays
    const sp::SparseRef out{sp::SparseRef::Format::csr, a.m, b.n, r.p.nnz(), r.off.data(), r.col.data(), c.data(),
                            sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, kValue<T>};
    sp::CallReport copy;
    sp::spgemm_csr_store_values(settings(1, 1), r.p, scalar(alpha_of<T>()), scalar(beta), out, &copy);
    EXPECT_TRUE(same_bits(c, want.c)) << "beta " << wide(beta).real();
    EXPECT_EQ(copy.profile.total_ns, want.copy.profile.total_ns);
    EXPECT_EQ(copy.trace.instructions.size(), want.copy.trace.instructions.size());
  }
}

TEST(SpgemmStaged, KeptPlansServeNewValueArrays) {
  ASSERT_LT(Csr<float>(4, 64, 0.04, 51).col.size(), 16u);  // the runs path: A of fewer than 16 entries
  check_kept_plans<float>(4, 0.04);
  check_kept_plans<float>(96, 0.1);
  check_kept_plans<std::complex<float>>(4, 0.04);
  check_kept_plans<std::complex<float>>(96, 0.1);
}

}  // namespace
