// The sparse-vector operations on the engines (trnsparse/src/spvec_engine.cpp, docs/trnsparse.md
// "Sparse vectors on the engines"): Axpby, Rot and SpVV in R_32F / C_32F against a long-double loop
// with the fp32 bounds of the doc, checked two-sided (the error is within the bound, and a wrong
// result -- beta not applied, a missed conjugate, the rotation's sign -- is outside it); Gather and
// Scatter bit for bit in every value type (NaN payloads included); duplicated indices in storage
// order; chunks beyond one tile (pmax x 512 entries); the plan and the engines the report names;
// the same bits for 1 and 2 host threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "trn/sparse/generic.hpp"

namespace sp = trn::sparse;
using cld = std::complex<long double>;

namespace {

constexpr long double kU = 0x1p-24L;
long double gamma(long double k) { return k * kU / (1 - k * kU); }

// A vector pair: x (nnz entries of `size`, indices from `pick`) and dense y, both of value type v
// stored as fp32 words (complex: re, im).
struct Pair {
  sp::Value v = sp::Value::f32;
  std::int64_t size = 0;
  std::vector<std::int32_t> idx;
  std::vector<float> x, y;  // w words per value
  int w = 1;
  sp::SpVecRef ref() {
    return {.size = size, .nnz = static_cast<std::int64_t>(idx.size()), .indices = idx.data(), .values = x.data(),
            .value = v};
  }
  cld xv(std::size_t e) const { return w == 1 ? cld(x[e]) : cld(x[2 * e], x[2 * e + 1]); }
  cld yv(std::size_t i) const { return w == 1 ? cld(y[i]) : cld(y[2 * i], y[2 * i + 1]); }
};

// density of kept positions; dup > 0 appends that many duplicated indices (at random places).
Pair make_pair(sp::Value v, std::int64_t size, double density, int dup, std::uint64_t seed) {
  Pair p;
  p.v = v;
  p.size = size;
  p.w = v == sp::Value::c32 ? 2 : 1;
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::bernoulli_distribution keep(density);
  for (std::int64_t i = 0; i < size; ++i)
    if (keep(g)) p.idx.push_back(static_cast<std::int32_t>(i));
  std::uniform_int_distribution<std::size_t> at(0, p.idx.empty() ? 0 : p.idx.size() - 1);
  for (int k = 0; k < dup && !p.idx.empty(); ++k) p.idx.insert(p.idx.begin() + static_cast<long>(at(g)), p.idx[at(g)]);
  for (std::size_t k = 0; k < p.idx.size() * static_cast<std::size_t>(p.w); ++k) p.x.push_back(d(g));
  for (std::int64_t k = 0; k < size * p.w; ++k) p.y.push_back(d(g));
  return p;
}

sp::Settings settings(int threads = 0) {
  sp::Settings s;
  if (threads > 0) s.host_threads = threads;
  return s;
}

const sp::Value kTypes[] = {sp::Value::f32, sp::Value::c32};

TEST(SpVecEngine, AxpbyWithinTheFp32BoundAndOutsideItWithoutBeta) {
  for (sp::Value v : kTypes)
    for (int dup : {0, 40}) {
      Pair p = make_pair(v, 5000, 0.3, dup, 11 + static_cast<std::uint64_t>(dup));
      const bool cx = p.w == 2;
      const cld alpha = cx ? cld(0.75L, -0.5L) : cld(0.75L), beta = cx ? cld(-0.25L, 0.125L) : cld(-0.25L);
      std::vector<cld> want(static_cast<std::size_t>(p.size)), nobeta(want.size());
      std::vector<long double> bound(want.size()), mag(want.size());
      std::vector<int> count(want.size(), 0);
      const long double k = cx ? std::sqrt(2.0L) * gamma(3) : gamma(2);
      for (std::size_t i = 0; i < want.size(); ++i) {
        want[i] = beta * p.yv(i);
        nobeta[i] = p.yv(i);
        mag[i] = std::abs(beta) * std::abs(p.yv(i));
        bound[i] = k * mag[i];
      }
      // Storage order: one entry gives gamma (|alpha||x| + |beta||y|); a duplicated index takes each
      // entry's update in turn, each adding its rounding on the running value (error included).
      for (std::size_t e = 0; e < p.idx.size(); ++e) {
        const auto i = static_cast<std::size_t>(p.idx[e]);
        const long double ax = std::abs(alpha) * std::abs(p.xv(e));
        bound[i] = count[i]++ == 0 ? k * (mag[i] + ax) : bound[i] + k * (std::abs(want[i]) + bound[i] + ax);
        want[i] += alpha * p.xv(e);
        nobeta[i] += alpha * p.xv(e);
      }
      sp::CallReport rep;
      sp::Scalar a(static_cast<double>(alpha.real()), static_cast<double>(alpha.imag()));
      sp::Scalar b(static_cast<double>(beta.real()), static_cast<double>(beta.imag()));
      sp::axpby(settings(), a, p.ref(), b, p.y.data(), &rep);
      long double worst = 0, wrong = 1e30L;
      for (std::size_t i = 0; i < want.size(); ++i) {
        const long double bnd = std::max(bound[i], 1e-30L);
        worst = std::max(worst, std::abs(p.yv(i) - want[i]) / bnd);
        if (std::abs(nobeta[i] - want[i]) > 1e-3L) wrong = std::min(wrong, std::abs(p.yv(i) - nobeta[i]) / bnd);
      }
      EXPECT_LE(worst, 1.0L) << "value " << static_cast<int>(v) << " dup " << dup;
      EXPECT_GT(wrong, 1.0L) << "a result without beta must fall outside the bound";
      EXPECT_NE(rep.plan.find("VectorE"), std::string::npos) << rep.plan;
      EXPECT_NE(rep.plan.find(dup > 0 ? "round(s)" : "1 duplicate-free round"), std::string::npos) << rep.plan;
      EXPECT_GT(rep.profile.total_ns, 0.0);
      EXPECT_EQ(rep.profile.host_steps, 0);
    }
}

TEST(SpVecEngine, RotWithinTheFp32BoundAndOutsideItWithTheSignFlipped) {
  for (sp::Value v : kTypes) {
    Pair p = make_pair(v, 3000, 0.4, 0, 23);
    const bool cx = p.w == 2;
    // Coefficients exact in fp32 (the C API loads them from the value type).
    const cld c = cx ? cld(0.625L, 0.25L) : cld(0.625L), s = cx ? cld(-0.5L, 0.375L) : cld(0.75L);
    const Pair p0 = p;
    sp::CallReport rep;
    sp::rot(settings(), sp::Scalar(static_cast<double>(c.real()), static_cast<double>(c.imag())),
            sp::Scalar(static_cast<double>(s.real()), static_cast<double>(s.imag())), p.ref(), p.y.data(), &rep);
    const long double k = cx ? std::sqrt(2.0L) * gamma(3) : gamma(2);
    long double worst = 0, wrong = 1e30L;
    for (std::size_t e = 0; e < p.idx.size(); ++e) {
      const auto i = static_cast<std::size_t>(p.idx[e]);
      const cld xv = p0.xv(e), yv = p0.yv(i), xw = c * xv + s * yv, yw = c * yv - s * xv, flipped = c * yv + s * xv;
      const long double bx = k * (std::abs(c) * std::abs(xv) + std::abs(s) * std::abs(yv));
      const long double by = k * (std::abs(c) * std::abs(yv) + std::abs(s) * std::abs(xv));
      worst = std::max({worst, std::abs(p.xv(e) - xw) / bx, std::abs(p.yv(i) - yw) / by});
      if (std::abs(s * xv) > 1e-3L) wrong = std::min(wrong, std::abs(p.yv(i) - flipped) / by);
    }
    EXPECT_LE(worst, 1.0L);
    EXPECT_GT(wrong, 1.0L);
    for (std::int64_t i = 0; i < p.size; ++i)  // y outside x's positions is untouched, bit for bit
      if (!std::binary_search(p.idx.begin(), p.idx.end(), static_cast<std::int32_t>(i))) {
        EXPECT_EQ(std::memcmp(&p.y[static_cast<std::size_t>(i * p.w)], &p0.y[static_cast<std::size_t>(i * p.w)], 4u * p.w), 0);
      }
    EXPECT_NE(rep.plan.find("DMA"), std::string::npos) << rep.plan;
  }
}

// Rot with a duplicated index rotates the same y twice, in storage order.
TEST(SpVecEngine, RotDuplicatesRunInStorageOrder) {
  Pair p;
  p.size = 4;
  p.idx = {1, 3, 1};
  p.x = {1.0f, 2.0f, -0.5f};
  p.y = {9.0f, 0.25f, 7.0f, -1.0f};
  std::vector<long double> x(p.x.begin(), p.x.end()), y(p.y.begin(), p.y.end());
  const long double c = 0.6L, s = 0.8L;
  for (std::size_t e = 0; e < 3; ++e) {
    const auto i = static_cast<std::size_t>(p.idx[e]);
    const long double xv = x[e], yv = y[i];
    x[e] = c * xv + s * yv;
    y[i] = c * yv - s * xv;
  }
  sp::rot(settings(), 0.6f, 0.8f, p.ref(), p.y.data(), nullptr);
  for (std::size_t e = 0; e < 3; ++e) EXPECT_NEAR(static_cast<double>(p.x[e]), static_cast<double>(x[e]), 1e-6);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(static_cast<double>(p.y[i]), static_cast<double>(y[i]), 1e-6);
  EXPECT_EQ(p.y[0], 9.0f);
  EXPECT_EQ(p.y[2], 7.0f);
}

TEST(SpVecEngine, SpvvWithinTheFp32BoundAndOutsideItWithoutTheConjugate) {
  for (sp::Value v : kTypes)
    for (double density : {0.02, 0.9}) {  // scattered indices (one descriptor each) and long runs
      Pair p = make_pair(v, 90000, density, 3, 5);  // 0.9: 81 000 entries, two chunks
      const bool cx = p.w == 2;
      cld sum = 0, plain = 0;
      long double mag = 0;
      for (std::size_t e = 0; e < p.idx.size(); ++e) {
        const cld yv = p.yv(static_cast<std::size_t>(p.idx[e]));
        sum += (cx ? std::conj(p.xv(e)) : p.xv(e)) * yv;
        plain += p.xv(e) * yv;
        mag += std::abs(p.xv(e)) * std::abs(yv);
      }
      sp::CallReport rep;
      const sp::Scalar r = sp::spvv(settings(), cx ? sp::GOp::C : sp::GOp::N, p.ref(), p.y.data(), &rep);
      const auto k = static_cast<long double>(p.idx.size());
      const long double bnd = (cx ? std::sqrt(2.0L) * gamma(k + 2) : gamma(k + 1)) * mag;
      const cld got(r.real(), r.imag());
      EXPECT_LE(std::abs(got - sum), bnd) << "density " << density;
      if (cx && density < 0.1) {  // (at 81 000 terms gamma_k is too coarse to tell conj from not)
        EXPECT_GT(std::abs(got - plain), bnd) << "a missed conjugate must fall outside the bound";
      }
      // The bound is not vacuous: it is below the magnitude sum by the factor gamma.
      EXPECT_LT(bnd, 0.1L * mag);
      EXPECT_EQ(static_cast<float>(r.real()), r.real());  // one fp32 result
      EXPECT_EQ(rep.profile.host_steps, 0);
      EXPECT_NE(rep.plan.find("spvv"), std::string::npos);
    }
}

// Gather and Scatter move bits in every value type, duplicates included (Scatter: the last entry of
// an index wins, as in storage order); a signalling-NaN pattern survives.
TEST(SpVecEngine, GatherScatterBitExactEveryType) {
  for (sp::Value v : {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64}) {
    const std::size_t vb = sp::value_bytes(v);
    const std::int64_t size = 20000;
    std::vector<std::int32_t> idx;
    for (std::int32_t i = 3; i < size; i += 7) idx.push_back(i);
    for (std::int32_t i = 100; i < 400; ++i) idx.push_back(i);  // a long run
    idx.push_back(10);
    idx.push_back(10);  // a duplicate: the last value lands
    std::vector<unsigned char> y(static_cast<std::size_t>(size) * vb), x(idx.size() * vb);
    std::mt19937 g(3);
    for (auto& b : y) b = static_cast<unsigned char>(g());
    for (auto& b : x) b = static_cast<unsigned char>(g());
    const std::uint32_t snan = 0x7f800001u;
    std::memcpy(y.data() + 3 * vb, &snan, 4);
    std::memcpy(x.data(), &snan, 4);
    sp::SpVecRef ref{.size = size, .nnz = static_cast<std::int64_t>(idx.size()), .indices = idx.data(), .values = x.data(), .value = v};
    std::vector<unsigned char> want_y = y;
    for (std::size_t e = 0; e < idx.size(); ++e) std::memcpy(want_y.data() + static_cast<std::size_t>(idx[e]) * vb, x.data() + e * vb, vb);
    sp::CallReport rep;
    sp::scatter(settings(), ref, y.data(), &rep);
    EXPECT_EQ(y, want_y) << "value " << static_cast<int>(v);
    EXPECT_GT(rep.profile.total_ns, 0.0);
    EXPECT_NE(rep.plan.find("bit moves"), std::string::npos) << rep.plan;
    for (auto& b : y) b = static_cast<unsigned char>(g());
    std::vector<unsigned char> want_x(x.size());
    for (std::size_t e = 0; e < idx.size(); ++e) std::memcpy(want_x.data() + e * vb, y.data() + static_cast<std::size_t>(idx[e]) * vb, vb);
    sp::gather(settings(), y.data(), ref, nullptr);
    EXPECT_EQ(x, want_x) << "value " << static_cast<int>(v);
  }
}

// validate(SpVecRef) (every sparse-vector entry point calls it) finds the index range in one pass
// and names the first bad entry only when one is out of range: the last position (size - 1 + base)
// passes, one past it or one below the base throws InvalidArgument naming "indices" and the first
// such entry, for int32 / int64 and zero / one base, and x and y are left as they were.
TEST(SpVecEngine, ValidateNamesTheFirstIndexOutOfRange) {
  const std::int64_t size = 100;
  for (sp::IndexBase base : {sp::IndexBase::zero, sp::IndexBase::one})
    for (bool i64 : {false, true}) {
      const std::int64_t b = base == sp::IndexBase::one ? 1 : 0;
      std::vector<std::int64_t> want = {5 + b, size - 1 + b, b, 40 + b, 41 + b, 7 + b, 90 + b, 12 + b, 13 + b, 60 + b};
      std::vector<float> x(want.size(), 1.0f), y(static_cast<std::size_t>(size), 2.0f);
      auto call = [&](const std::vector<std::int64_t>& idx) {
        std::vector<std::int32_t> i32(idx.begin(), idx.end());
        const sp::SpVecRef ref{.size = size, .nnz = static_cast<std::int64_t>(idx.size()),
                               .indices = i64 ? static_cast<const void*>(idx.data()) : i32.data(), .values = x.data(),
                               .index_type = i64 ? sp::IndexType::i64 : sp::IndexType::i32, .base = base};
        sp::gather(settings(), y.data(), ref, nullptr);
      };
      const std::string what = std::string(i64 ? "int64" : "int32") + (b ? " one-based" : " zero-based");
      EXPECT_NO_THROW(call(want)) << what;
      for (std::size_t e = 0; e < want.size(); ++e) EXPECT_EQ(x[e], 2.0f) << what;
      std::fill(x.begin(), x.end(), 1.0f);
      // Bad at `first` (one past the end, or one below the base) and, unless -1, far out at `second`.
      for (const auto& [first, second] : {std::pair{7, -1}, std::pair{3, -1}, std::pair{7, 9}, std::pair{3, 8}}) {
        std::vector<std::int64_t> bad = want;
        bad[static_cast<std::size_t>(first)] = first == 7 ? size + b : b - 1;
        if (second >= 0) bad[static_cast<std::size_t>(second)] = size + 50 + b;
        try {
          call(bad);
          ADD_FAILURE() << what << ": index out of range at entry " << first << " accepted";
        } catch (const sp::InvalidArgument& e) {
          EXPECT_EQ(e.item(), "indices") << what;
          EXPECT_NE(std::string(e.what()).find("at entry " + std::to_string(first)), std::string::npos) << what << ": " << e.what();
        }
        for (float v : x) EXPECT_EQ(v, 1.0f) << what << ": x written before the check";
      }
    }
}

TEST(SpVecEngine, SameBitsForOneAndTwoHostThreads) {
  for (sp::Value v : kTypes) {
    Pair a = make_pair(v, 40000, 0.5, 5, 9), b = a;
    sp::axpby(settings(1), 0.5f, a.ref(), -2.0f, a.y.data(), nullptr);
    sp::axpby(settings(2), 0.5f, b.ref(), -2.0f, b.y.data(), nullptr);
    EXPECT_EQ(std::memcmp(a.y.data(), b.y.data(), a.y.size() * 4), 0);
    const sp::Scalar r1 = sp::spvv(settings(1), sp::GOp::N, a.ref(), a.y.data());
    const sp::Scalar r2 = sp::spvv(settings(2), sp::GOp::N, a.ref(), a.y.data());
    EXPECT_EQ(r1, r2);
  }
}

// Indirect DMA (s17): x's indices are loaded as they are stored -- int64 as the low words of each
// pair, a one-based vector through the instruction's index base -- so the same entries given as
// int64 one-based indices must give the bits of int32 zero-based ones in every operation, shuffled
// indices over two chunks (a round of 81 000 entries) included; a duplicated index (rounds) too.
TEST(SpVecEngine, Int64OneBasedIndicesGiveTheBitsOfInt32ZeroBased) {
  for (sp::Value v : kTypes)
    for (int dup : {0, 7}) {
      Pair p = make_pair(v, 120000, 0.7, dup, 23 + static_cast<std::uint64_t>(dup));
      std::shuffle(p.idx.begin(), p.idx.end(), std::mt19937_64(5));
      std::vector<std::int64_t> one(p.idx.begin(), p.idx.end());
      for (auto& i : one) ++i;
      auto ref64 = [&](std::vector<float>& xv) {
        return sp::SpVecRef{.size = p.size, .nnz = static_cast<std::int64_t>(one.size()), .indices = one.data(),
                            .values = xv.data(), .index_type = sp::IndexType::i64, .base = sp::IndexBase::one, .value = v};
      };
      const bool cx = p.w == 2;
      const sp::Scalar alpha = cx ? sp::Scalar(0.75, -0.5) : sp::Scalar(0.75), beta = cx ? sp::Scalar(-0.25, 0.125) : sp::Scalar(-0.25);
      {
        Pair a = p;
        std::vector<float> x2 = p.x, y2 = p.y;
        sp::axpby(settings(), alpha, a.ref(), beta, a.y.data(), nullptr);
        sp::axpby(settings(), alpha, ref64(x2), beta, y2.data(), nullptr);
        EXPECT_EQ(a.y, y2) << "axpby dup " << dup;
      }
      {
        Pair a = p;
        std::vector<float> x2 = p.x, y2 = p.y;
        sp::rot(settings(), 0.625, 0.75, a.ref(), a.y.data(), nullptr);
        sp::rot(settings(), 0.625, 0.75, ref64(x2), y2.data(), nullptr);
        EXPECT_EQ(a.y, y2) << "rot y dup " << dup;
        EXPECT_EQ(a.x, x2) << "rot x dup " << dup;
      }
      {
        Pair a = p;
        std::vector<float> x2 = p.x;
        EXPECT_EQ(sp::spvv(settings(), sp::GOp::N, a.ref(), a.y.data()), sp::spvv(settings(), sp::GOp::N, ref64(x2), p.y.data()));
        std::vector<float> y2 = p.y;
        sp::scatter(settings(), a.ref(), a.y.data(), nullptr);
        sp::scatter(settings(), ref64(x2), y2.data(), nullptr);
        EXPECT_EQ(a.y, y2) << "scatter dup " << dup;
        for (auto& f : a.x) f = 0.0f;
        for (auto& f : x2) f = 1.0f;
        sp::gather(settings(), p.y.data(), a.ref(), nullptr);
        sp::gather(settings(), p.y.data(), ref64(x2), nullptr);
        EXPECT_EQ(a.x, x2) << "gather dup " << dup;
        // And they are the values at those positions.
        for (std::size_t e = 0; e < p.idx.size(); e += 997) EXPECT_EQ(a.xv(e), p.yv(static_cast<std::size_t>(p.idx[e])));
      }
    }
}

}  // namespace
