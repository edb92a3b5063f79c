// Block-sparse attention forward and backward (extension) against dense masked attention in float64
// written here: fp32 tiles ~1e-6, bf16 tiles ~2e-3 (docs/trnsparse.md "Block-sparse attention");
// empty block rows give zeros; the float64 backward reference is itself checked by central
// differences; modeled time against the same kernels with a dense mask.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <vector>

#include "sparse_reference.hpp"
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

// Dense masked attention in float64: tests/reference/sparse_reference.hpp.
using Dense = sparse_ref::Attention;
Dense dense_attention(const Mask& m, std::int64_t d, const std::vector<double>& Q, const std::vector<double>& K,
                      const std::vector<double>& V, double scale, const std::vector<double>* dO) {
  return sparse_ref::dense_attention(m.nb, m.b, m.off, m.col, d, Q, K, V, scale, dO);
}

std::vector<double> widen(const std::vector<float>& v) { return {v.begin(), v.end()}; }

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
  return rel_error(O, dense_attention(m, d, widen(Q), widen(K), widen(V), scale, nullptr).O);
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


// The float64 reference gradient is checked against central differences of loss = sum(dO o O) on a
// small problem (so that the reference, not the library, is what the numbers below rest on).
TEST(AttentionBackward, Float64ReferenceMatchesCentralDifferences) {
  Mask m = bigbird(3, 4, 1, 1, 1, 21, {1});
  const std::int64_t d = 5, seq = 12;
  auto Q = widen(randn(static_cast<std::size_t>(seq * d), 22)), K = widen(randn(static_cast<std::size_t>(seq * d), 23)),
       V = widen(randn(static_cast<std::size_t>(seq * d), 24)), dO = widen(randn(static_cast<std::size_t>(seq * d), 25));
  const double scale = 0.4;
  const Dense g = dense_attention(m, d, Q, K, V, scale, &dO);
  auto loss = [&] {
    const Dense f = dense_attention(m, d, Q, K, V, scale, nullptr);
    double acc = 0;
    for (std::size_t i = 0; i < f.O.size(); ++i) acc += dO[i] * f.O[i];
    return acc;
  };
  const double h = 1e-6;
  int checked = 0;
  for (auto [x, grad] : {std::pair{&Q, &g.dQ}, std::pair{&K, &g.dK}, std::pair{&V, &g.dV}})
    for (std::size_t i = 0; i < x->size(); i += 7) {
      const double keep = (*x)[i];
      (*x)[i] = keep + h;
      const double up = loss();
      (*x)[i] = keep - h;
      const double down = loss();
      (*x)[i] = keep;
      EXPECT_NEAR((up - down) / (2 * h), (*grad)[i], 1e-7 + 1e-6 * std::fabs((*grad)[i])) << i;
      ++checked;
    }
  EXPECT_GT(checked, 20);
}

struct BackwardErrors {
  double lse, dq, dk, dv;
  std::vector<float> dQ, dK, dV;
};
BackwardErrors run_backward(Mask& m, std::int64_t d, trn::DType tiles, std::uint64_t seed) {
  const std::int64_t seq = m.nb * m.b;
  const auto n = static_cast<std::size_t>(seq * d);
  const auto Q = randn(n, seed), K = randn(n, seed + 1), V = randn(n, seed + 2), dO = randn(n, seed + 3);
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  std::vector<float> O(n, NAN), L(static_cast<std::size_t>(seq), NAN);
  sp::attention_forward({}, m.view(), d, Q.data(), K.data(), V.data(), scale, O.data(), tiles, nullptr, L.data());
  BackwardErrors e{};
  e.dQ.assign(n, NAN);
  e.dK.assign(n, NAN);
  e.dV.assign(n, NAN);
  sp::attention_backward({}, m.view(), d, Q.data(), K.data(), V.data(), O.data(), dO.data(), L.data(), scale, e.dQ.data(),
                         e.dK.data(), e.dV.data(), tiles);
  const auto dO64 = widen(dO);
  const Dense r = dense_attention(m, d, widen(Q), widen(K), widen(V), scale, &dO64);
  double num = 0, den = 0;
  for (std::size_t q = 0; q < L.size(); ++q)
    if (std::isfinite(r.L[q])) {
      num += (L[q] - r.L[q]) * (L[q] - r.L[q]);
      den += r.L[q] * r.L[q];
    } else {
      EXPECT_TRUE(std::isinf(L[q]) && L[q] < 0) << q;
    }
  e.lse = std::sqrt(num / den);
  e.dq = rel_error(e.dQ, r.dQ);
  e.dk = rel_error(e.dK, r.dK);
  e.dv = rel_error(e.dV, r.dV);
  return e;
}

TEST(AttentionBackward, Fp32TilesMatchFloat64Gradients) {
  Mask m = bigbird(4, 128, 3, 1, 1, 31);
  const BackwardErrors e = run_backward(m, 64, trn::DType::f32, 40);
  std::printf("attention backward fp32, seq 512, d 64: rel error L %.3e dQ %.3e dK %.3e dV %.3e\n", e.lse, e.dq, e.dk, e.dv);
  EXPECT_LT(e.lse, 1e-6);
  EXPECT_LT(e.dq, 2e-5);
  EXPECT_LT(e.dk, 2e-5);
  EXPECT_LT(e.dv, 2e-5);
}

TEST(AttentionBackward, Bf16TilesWithinBf16Accuracy) {
  Mask m = bigbird(4, 128, 3, 1, 1, 32);
  const BackwardErrors e = run_backward(m, 64, trn::DType::bf16, 50);
  std::printf("attention backward bf16, seq 512, d 64: rel error dQ %.3e dK %.3e dV %.3e\n", e.dq, e.dk, e.dv);
  for (double x : {e.dq, e.dk, e.dv}) {
    EXPECT_LT(x, 3e-2);
    EXPECT_GT(x, 1e-5);  // the bf16 rounding is real
  }
}

TEST(AttentionBackward, SmallBlocksEmptyRowsAndUnattendedKeys) {
  // 32-blocks, block row 3 empty; with window 1 and no globals, some block columns may be attended
  // by no query: their dK and dV must be exactly 0, as dQ of the empty row.
  Mask m = bigbird(8, 32, 1, 0, 1, 33, {3});
  const BackwardErrors e = run_backward(m, 32, trn::DType::f32, 60);
  EXPECT_LT(e.dq, 2e-5);
  EXPECT_LT(e.dk, 2e-5);
  EXPECT_LT(e.dv, 2e-5);
  for (std::int64_t q = 3 * 32; q < 4 * 32; ++q)
    for (std::int64_t c = 0; c < 32; ++c) ASSERT_EQ(e.dQ[static_cast<std::size_t>(q * 32 + c)], 0.0f);
  std::set<std::int64_t> attended(m.col.begin(), m.col.end());
  for (std::int64_t j = 0; j < 8; ++j)
    if (!attended.count(j))
      for (std::int64_t q = j * 32; q < (j + 1) * 32; ++q)
        for (std::int64_t c = 0; c < 32; ++c) {
          ASSERT_EQ(e.dK[static_cast<std::size_t>(q * 32 + c)], 0.0f);
          ASSERT_EQ(e.dV[static_cast<std::size_t>(q * 32 + c)], 0.0f);
        }
}

TEST(AttentionBackward, BadInputIsRejected) {
  Mask m = bigbird(2, 8, 1, 0, 0, 34);
  std::vector<float> x(16 * 4, 1.0f), L(16, 0.0f), out(16 * 4, 5.0f);
  EXPECT_THROW(sp::attention_backward({}, m.view(), 4, x.data(), x.data(), x.data(), x.data(), x.data(), nullptr, 0.5f,
                                      out.data(), out.data(), out.data()),
               sp::InvalidArgument);
  EXPECT_THROW(sp::attention_backward({}, m.view(), 0, x.data(), x.data(), x.data(), x.data(), x.data(), L.data(), 0.5f,
                                      out.data(), out.data(), out.data()),
               sp::InvalidArgument);
  m.col[0] = 5;  // block column out of range
  EXPECT_THROW(sp::attention_backward({}, m.view(), 4, x.data(), x.data(), x.data(), x.data(), x.data(), L.data(), 0.5f,
                                      out.data(), out.data(), out.data()),
               sp::InvalidArgument);
  for (float v : out) ASSERT_EQ(v, 5.0f);
}

TEST(AttentionBackward, ModeledTimeAgainstDenseMask) {
  Mask sparse = bigbird(32, 128, 3, 2, 3, 10), dense = bigbird(32, 128, 0, 32, 0, 11);
  std::vector<float> X(4096 * 128), L(4096), G(4096 * 128);
  sp::Settings s;
  s.timing_only = true;
  sp::CallReport rs, rd;
  sp::attention_backward(s, sparse.view(), 128, X.data(), X.data(), X.data(), X.data(), X.data(), L.data(), 0.088f,
                         G.data(), G.data(), G.data(), trn::DType::bf16, &rs);
  sp::attention_backward(s, dense.view(), 128, X.data(), X.data(), X.data(), X.data(), X.data(), L.data(), 0.088f,
                         G.data(), G.data(), G.data(), trn::DType::bf16, &rd);
  std::printf("attention backward seq 4096 d 128 bf16: block-sparse %.1f us, dense mask %.1f us, ratio %.3f, "
              "TensorE busy %.1f us, critical %d\n",
              rs.profile.total_ns * 1e-3, rd.profile.total_ns * 1e-3, rs.profile.total_ns / rd.profile.total_ns,
              rs.profile.busy_ns[static_cast<int>(trn::Engine::tensor)] * 1e-3, static_cast<int>(rs.profile.critical_engine));
  EXPECT_EQ(rs.matmuls, 8 * static_cast<std::int64_t>(sparse.col.size()));  // 4 per block in each of the two passes
  EXPECT_LT(rs.profile.total_ns, 0.5 * rd.profile.total_ns);
}

}  // namespace
