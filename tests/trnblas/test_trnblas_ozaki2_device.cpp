// Ozaki scheme II's residues, fold and CRT reconstruction on GpSimdE (issue #30, src/ozaki_crt.hpp):
// every output bit equals the host steps' (Settings::ozaki2_host_steps, the code before the move)
// on trn1 and trn2 with 1 and 2 host threads, over all four transposes, two K chunks, several
// program pieces, graded and heavy-tailed data (more moduli), Inf / NaN, the lost-term fallback and
// alpha / beta; the profile has no residue / fold / reconstruction host step any more and has the
// GpSimd operators, and a timing-only call models the same time as the computed one. The device steps
// are forced (Settings::ozaki2_device_min_elements = 0): by default calls under that size keep the
// host steps, which the last test checks.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "trn/blas/blas.hpp"
#include "trace_counts.hpp"

namespace {

namespace tb = trn::blas;

// The Ozaki scheme (and the fp64 slice pairs) at every size: small products otherwise run as Dot2 on
// GpSimdE (trnblas/src/ozaki.hpp, gemm_dot2; tested in test_trnblas_ozaki, TrnblasDot2.*).
tb::Settings ozaki_only() {
  tb::Settings s;
  s.dgemm_dot2_max_macs = 0;
  return s;
}
using tb::Op;

using blastest::host_steps_named;
std::int64_t custom_ops(const trn::Trace& t) {
  std::int64_t n = 0;
  for (const trn::Instruction& ins : t.instructions)
    n += ins.opcode == trn::Opcode::custom_op && ins.engine == trn::Engine::gpsimd && ins.declared_cycles > 0;
  return n;
}

// Graded values over +-spread binades; every `tail`-th value 2^20 larger (heavy tails: more moduli).
std::vector<double> values(std::size_t count, int spread, int tail, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<int> ex(-spread, spread);
  std::uniform_real_distribution<double> m(-1.0, 1.0);
  std::vector<double> v(count);
  for (std::size_t i = 0; i < count; ++i) {
    v[i] = std::ldexp(m(g), ex(g));
    if (tail > 0 && i % static_cast<std::size_t>(tail) == 0) v[i] = std::ldexp(v[i], 20);
  }
  return v;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

struct Target {
  trn::Generation gen;
  int threads;
};
const Target kTargets[] = {{trn::Generation::trn1, 1}, {trn::Generation::trn1, 2}, {trn::Generation::trn2, 1},
                           {trn::Generation::trn2, 2}};

struct Case {
  Op ta = Op::N, tb = Op::N;
  std::int64_t m = 1, n = 1, k = 1;
  double alpha = 1.5, beta = -0.75;
};

// C by the device steps equals C by the host steps bit for bit; checks both traces' steps.
void expect_same(const Target& t, const Case& c, const std::vector<double>& A, const std::vector<double>& B,
                 const std::string& what0) {
  const std::int64_t lda = (c.ta == Op::N ? c.m : c.k) + 3, ldb = (c.tb == Op::N ? c.k : c.n) + 1;
  std::vector<double> C0(static_cast<std::size_t>(c.m * c.n));
  for (std::size_t i = 0; i < C0.size(); ++i) C0[i] = 0.25 * static_cast<double>(i % 7) - 0.5;
  std::vector<double> Ch = C0, Cd = C0;
  tb::Settings sh = ozaki_only(), sd = ozaki_only();
  for (tb::Settings* s : {&sh, &sd}) {
    s->target = t.gen;
    s->host_threads = t.threads;
  }
  sh.ozaki2_host_steps = true;
  sd.ozaki2_device_min_elements = 0;  // the device steps at every size (the default keeps small calls on the host)
  tb::CallReport rh, rd;
  tb::dgemm(sh, c.ta, c.tb, c.m, c.n, c.k, c.alpha, A.data(), lda, B.data(), ldb, c.beta, Ch.data(), c.m, &rh);
  tb::dgemm(sd, c.ta, c.tb, c.m, c.n, c.k, c.alpha, A.data(), lda, B.data(), ldb, c.beta, Cd.data(), c.m, &rd);
  const std::string what = what0 + (c.ta == Op::N ? " N" : " T") + (c.tb == Op::N ? "N" : "T") + " " +
                           std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k) + " threads " +
                           std::to_string(t.threads) + (t.gen == trn::Generation::trn2 ? " trn2" : " trn1");
  EXPECT_TRUE(same_bits(Ch, Cd)) << what;
  EXPECT_NE(Cd, C0) << what;  // something was computed
  ASSERT_EQ(rh.ozaki_scheme, tb::OzakiScheme::crt) << what;
  EXPECT_EQ(rh.ozaki_moduli, rd.ozaki_moduli) << what;
  EXPECT_EQ(rh.ozaki_host_fallback, rd.ozaki_host_fallback) << what;
  // Host steps: the host path has residues / fold per group and the reconstruction; the device path none.
  EXPECT_GE(host_steps_named(rh.trace, "trnblas.ozaki2.residues"), 1) << what;
  EXPECT_EQ(host_steps_named(rh.trace, "trnblas.ozaki2.reconstruct"), 1) << what;
  EXPECT_EQ(custom_ops(rh.trace), 0) << what;
  for (const char* gone : {"trnblas.ozaki2.residues", "trnblas.ozaki2.fold", "trnblas.ozaki2.reconstruct"})
    EXPECT_EQ(host_steps_named(rd.trace, gone), 0) << what << " " << gone;
  EXPECT_EQ(host_steps_named(rd.trace, "trnblas.ozaki2.scale"), 1) << what;
  EXPECT_EQ(host_steps_named(rd.trace, "trnblas.ozaki2.epilogue"), 1) << what;
  // Residues (2 per group: op(A), op(B)), fold (1 per group), reconstruction: at least 4 operators.
  EXPECT_GE(custom_ops(rd.trace), 4) << what;
  EXPECT_GT(rd.profile.busy_ns[static_cast<int>(trn::Engine::gpsimd)], 0.0) << what;
}

// op(X) rows x cols stored with the leading dimension expect_same uses: + 3 for A, + 1 for B.
std::vector<double> operand(Op t, std::int64_t rows, std::int64_t cols, int pad, int spread, int tail, std::uint64_t seed) {
  const std::int64_t ld = (t == Op::N ? rows : cols) + pad;
  return values(static_cast<std::size_t>(ld * (t == Op::N ? cols : rows)), spread, tail, seed);
}
std::vector<double> operand_a(const Case& c, int spread, int tail, std::uint64_t seed) {
  return operand(c.ta, c.m, c.k, 3, spread, tail, seed);
}
std::vector<double> operand_b(const Case& c, int spread, int tail, std::uint64_t seed) {
  return operand(c.tb, c.k, c.n, 1, spread, tail, seed);
}

TEST(Ozaki2Device, BitsEqualHostStepsAllTransposes) {
  std::uint64_t seed = 1;
  for (const Target& t : kTargets)
    for (Op ta : {Op::N, Op::T})
      for (Op tb_ : {Op::N, Op::T}) {
        const Case c{ta, tb_, 37, 29, 300};
        const auto A = operand_a(c, 12, 0, ++seed), B = operand_b(c, 12, 0, ++seed);
        expect_same(t, c, A, B, "graded");
      }
}

TEST(Ozaki2Device, BitsEqualHostStepsShapesAndData) {
  std::uint64_t seed = 100;
  const Case shapes[] = {
      {Op::N, Op::N, 5, 7, 1100},          // two K chunks (1024 + 76)
      {Op::T, Op::N, 1030, 3, 4},          // two row runs in the reconstruction, residue partition tail
      {Op::N, Op::T, 9, 130, 6},           // two column groups (128 + 2)
      {Op::N, Op::N, 48, 40, 56, 1.0, 0},  // the golden shape, beta = 0
  };
  for (const Target& t : kTargets)
    for (const Case& c : shapes) {
      const auto A = operand_a(c, 30, 0, ++seed), B = operand_b(c, 30, 0, ++seed);
      expect_same(t, c, A, B, "shape");
      // Heavy tails: more moduli, several moduli groups per call.
      const auto Ah = operand_a(c, 4, 5, ++seed), Bh = operand_b(c, 4, 7, ++seed);
      expect_same(t, c, Ah, Bh, "heavy tails");
    }
}

TEST(Ozaki2Device, BitsEqualHostStepsSpecialValuesAndLostTerms) {
  for (const Target& t : kTargets) {
    const Case c{Op::N, Op::N, 11, 13, 17};
    auto A = operand_a(c, 8, 0, 7), B = operand_b(c, 8, 0, 8);
    A[3] = std::numeric_limits<double>::infinity();
    B[20] = std::numeric_limits<double>::quiet_NaN();
    A[30] = 0.0;
    expect_same(t, c, A, B, "Inf / NaN");
    // A = [1 t; t 1], B = [t 1; 1 t]: the lost-term fallback recomputes C_11 = 2t on the host.
    const double tiny = 0x1p-70;
    // Leading dimensions as expect_same pads them: lda = 2 + 3, ldb = 2 + 1.
    const std::vector<double> a = {1, tiny, 0, 0, 0, tiny, 1, 0}, b = {tiny, 1, 0, 1, tiny, 0};
    expect_same(t, Case{Op::N, Op::N, 2, 2, 2, 1.0, 0.0}, a, b, "lost terms");
  }
}

TEST(Ozaki2Device, TimingOnlyModelsTheSameTimeAndTheHostStepsAreGone) {
  const std::int64_t m = 96, n = 80, k = 200;
  const auto A = values(static_cast<std::size_t>(m * k), 10, 0, 3), B = values(static_cast<std::size_t>(k * n), 10, 0, 4);
  std::vector<double> C(static_cast<std::size_t>(m * n), 0.0);
  tb::Settings s = ozaki_only();
  s.ozaki2_device_min_elements = 0;
  tb::CallReport computed, timed, host;
  tb::dgemm(s, Op::N, Op::N, m, n, k, 1.0, A.data(), m, B.data(), k, 0.0, C.data(), m, &computed);
  s.timing_only = true;
  tb::dgemm(s, Op::N, Op::N, m, n, k, 1.0, A.data(), m, B.data(), k, 0.0, C.data(), m, &timed);
  EXPECT_EQ(computed.profile.total_ns, timed.profile.total_ns);
  EXPECT_EQ(custom_ops(computed.trace), custom_ops(timed.trace));
  s.ozaki2_host_steps = true;
  tb::dgemm(s, Op::N, Op::N, m, n, k, 1.0, A.data(), m, B.data(), k, 0.0, C.data(), m, &host);
  // One host round trip for the scaling and one for the epilogue, against 2 + 2 per moduli group.
  EXPECT_EQ(computed.profile.host_steps, 2);
  EXPECT_GT(host.profile.host_steps, computed.profile.host_steps);
  EXPECT_LT(computed.profile.host_flops, host.profile.host_flops);
}

// Settings::ozaki2_device_min_elements: a call whose k (m + n) + m n is below it keeps the host steps
// (the device launches cost more host time than the steps), one at or above it runs them on GpSimdE;
// the bits are the host steps' either way.
TEST(Ozaki2Device, SmallCallsKeepTheHostStepsByDefault) {
  const tb::Settings defaults = ozaki_only();
  ASSERT_GT(defaults.ozaki2_device_min_elements, 0);
  const std::int64_t threshold = defaults.ozaki2_device_min_elements;
  // 16^3: 16 (16 + 16) + 256 = 768 elements; a square n^3 with 3 n^2 at or above the threshold.
  std::int64_t big = 16;
  while (3 * big * big < threshold) ++big;
  for (const std::int64_t n : {std::int64_t{16}, big}) {
    ASSERT_TRUE(n == big || 3 * n * n < threshold);
    const auto A = values(static_cast<std::size_t>(n * n), 6, 0, 11), B = values(static_cast<std::size_t>(n * n), 6, 0, 12);
    std::vector<double> Cdef(static_cast<std::size_t>(n * n), 0.0), Chost = Cdef;
    tb::Settings s = ozaki_only(), sh = ozaki_only();
    sh.ozaki2_host_steps = true;
    tb::CallReport rdef, rhost;
    tb::dgemm(s, Op::N, Op::T, n, n, n, 1.0, A.data(), n, B.data(), n, 0.0, Cdef.data(), n, &rdef);
    tb::dgemm(sh, Op::N, Op::T, n, n, n, 1.0, A.data(), n, B.data(), n, 0.0, Chost.data(), n, &rhost);
    EXPECT_TRUE(same_bits(Cdef, Chost)) << n;
    if (n == big) {
      EXPECT_EQ(host_steps_named(rdef.trace, "trnblas.ozaki2.reconstruct"), 0) << n;
      EXPECT_GE(custom_ops(rdef.trace), 4) << n;
    } else {
      EXPECT_EQ(host_steps_named(rdef.trace, "trnblas.ozaki2.reconstruct"), 1) << n;
      EXPECT_EQ(custom_ops(rdef.trace), 0) << n;
      EXPECT_EQ(rdef.profile.total_ns, rhost.profile.total_ns) << n;  // the host-step model, unchanged
    }
  }
}

}  // namespace
