// Block-sparse attention forward (extension) against dense masked attention in float64 written
// here: fp32 tiles ~1e-6, bf16 tiles ~2e-3 (docs/trnsparse.md "Block-sparse attention"); empty block rows give zeros;
// modeled time against the same kernel with a dense mask.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <vector>

#include "trn/sparse/sparse.hpp"

namespace sp = trn::sparse;

namespace {

struct Mask {
  std::int64_t nb = 0, b = 0;
  std::vector<std::int64_t> off{0}, col;
  sp::BsrView view() {
    return {nb, nb, static_cast<std::int64_t>(col.size()), b, b, off.data(), col.data(), nullptr, sp::IndexType::i64,
            sp::IndexType::i64, sp::IndexBase::zero, trn::DType::f32, sp::BlockOrder::row};
  }
};

// BigBird-style layout: a window of `window` blocks around the diagonal, the first `global` block
// columns, and `random` more random blocks per row; rows listed in `empty` store nothing.
Mask bigbird(std::int64_t nb, std::int64_t b, int window, int global, int random, std::uint64_t seed,
             std::set<std::int64_t> empty = {}) {
  Mask m;
  m.nb = nb;
  m.b = b;
  std::mt19937_64 rng(seed);
  for (std::int64_t r = 0; r < nb; ++r) {
    std::set<std::int64_t> cols;
    if (!empty.count(r)) {
      for (int w = -window / 2; w <= window / 2; ++w)
        if (r + w >= 0 && r + w < nb) cols.insert(r + w);
      for (int g = 0; g < global && g < nb; ++g) cols.insert(g);
      for (int k = 0; k < random; ++k) cols.insert(std::uniform_int_distribution<std::int64_t>(0, nb - 1)(rng));
    }
    m.col.insert(m.col.end(), cols.begin(), cols.end());
    m.off.push_back(static_cast<std::int64_t>(m.col.size()));
  }
  return m;
}

std::vector<double> reference(const Mask& m, std::int64_t d, const std::vector<float>& Q, const std::vector<float>& K,
                              const std::vector<float>& V, double scale) {
  const std::int64_t seq = m.nb * m.b;
  std::vector<double> O(static_cast<std::size_t>(seq * d), 0.0);
  for (std::int64_t q = 0; q < seq; ++q) {
    const std::int64_t R = q / m.b;
    std::vector<std::int64_t> keys;
    for (std::int64_t e = m.off[static_cast<std::size_t>(R)]; e < m.off[static_cast<std::size_t>(R) + 1]; ++e)
      for (std::int64_t k = 0; k < m.b; ++k) keys.push_back(m.col[static_cast<std::size_t>(e)] * m.b + k);
    if (keys.empty()) continue;
    std::vector<double> s(keys.size());
    double mx = -INFINITY;
    for (std::size_t t = 0; t < keys.size(); ++t) {
      double acc = 0;
      for (std::int64_t c = 0; c < d; ++c) acc += double(Q[static_cast<std::size_t>(q * d + c)]) * K[static_cast<std::size_t>(keys[t] * d + c)];
      s[t] = scale * acc;
      mx = std::max(mx, s[t]);
    }
    double sum = 0;
    for (double& x : s) sum += (x = std::exp(x - mx));
    for (std::size_t t = 0; t < keys.size(); ++t)
      for (std::int64_t c = 0; c < d; ++c)
        O[static_cast<std::size_t>(q * d + c)] += s[t] / sum * V[static_cast<std::size_t>(keys[t] * d + c)];
  }
  return O;
}

double rel_error(const std::vector<float>& x, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    num += (x[i] - ref[i]) * (x[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  return std::sqrt(num / den);
}

std::vector<float> randn(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = g(rng);
  return v;
}

double run(Mask& m, std::int64_t d, trn::DType tiles, std::vector<float>* out = nullptr) {
  const std::int64_t seq = m.nb * m.b;
  const auto Q = randn(static_cast<std::size_t>(seq * d), 1), K = randn(static_cast<std::size_t>(seq * d), 2),
             V = randn(static_cast<std::size_t>(seq * d), 3);
  std::vector<float> O(Q.size(), NAN);
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  sp::attention_forward({}, m.view(), d, Q.data(), K.data(), V.data(), scale, O.data(), tiles);
  if (out != nullptr) *out = O;
  return rel_error(O, reference(m, d, Q, K, V, scale));
}

TEST(Attention, Fp32TilesMatchFloat64Reference) {
  Mask m = bigbird(4, 128, 3, 1, 1, 7);
  const double err = run(m, 64, trn::DType::f32);
  std::printf("attention fp32, seq 512, d 64: rel error %.3e\n", err);
  EXPECT_LT(err, 5e-6);
}

TEST(Attention, Bf16TilesWithinBf16Accuracy) {
  Mask m = bigbird(4, 128, 3, 1, 1, 8);
  const double err = run(m, 64, trn::DType::bf16);
  std::printf("attention bf16, seq 512, d 64: rel error %.3e\n", err);
  EXPECT_LT(err, 1e-2);
  EXPECT_GT(err, 1e-5);  // the bf16 rounding is real, not skipped
}

TEST(Attention, SmallBlocksAndEmptyRows) {
  Mask m = bigbird(8, 32, 1, 0, 2, 9, {3});
  std::vector<float> O;
  const double err = run(m, 32, trn::DType::f32, &O);
  EXPECT_LT(err, 5e-6);
  for (std::int64_t q = 3 * 32; q < 4 * 32; ++q)
    for (std::int64_t c = 0; c < 32; ++c) ASSERT_EQ(O[static_cast<std::size_t>(q * 32 + c)], 0.0f);
}

TEST(Attention, ModeledTimeAgainstDenseMask) {
  // seq 4096, head_dim 128, 128-blocks: 3 window + 2 global + 3 random (<= 8 of 32 blocks, ~25%).
  Mask sparse = bigbird(32, 128, 3, 2, 3, 10), dense = bigbird(32, 128, 0, 32, 0, 11);
  std::vector<float> Q(4096 * 128), O(4096 * 128);
  sp::Settings s;
  s.timing_only = true;
  sp::CallReport rs, rd;
  sp::attention_forward(s, sparse.view(), 128, Q.data(), Q.data(), Q.data(), 0.088f, O.data(), trn::DType::bf16, &rs);
  sp::attention_forward(s, dense.view(), 128, Q.data(), Q.data(), Q.data(), 0.088f, O.data(), trn::DType::bf16, &rd);
  const double density = double(sparse.col.size()) / (32.0 * 32.0);
  std::printf("attention seq 4096 d 128 bf16: density %.3f, block-sparse %.1f us, dense mask %.1f us, ratio %.3f\n", density,
              rs.profile.total_ns * 1e-3, rd.profile.total_ns * 1e-3, rs.profile.total_ns / rd.profile.total_ns);
  EXPECT_EQ(rs.matmuls, 3 * static_cast<std::int64_t>(sparse.col.size()));  // S, transpose, P V per block
  EXPECT_LT(rs.profile.total_ns, 0.5 * rd.profile.total_ns);
}

}  // namespace
