// Fused DF-MP2 energy against an FP64 reference (OpenBLAS DGEMM for (ia|jb) from the same fp32 B,
// then the energy sum in long double), on random B as in the DF-MP2 accuracy experiment: (naux 84,
// nocc 5, nvir 19) and (420, 21, 93); e_occ uniform in [-1.5, -0.5], e_vir in [0.2, 3].
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "tensor_reference.hpp"
#include "trn/tensor/tensor.hpp"

namespace {

using trn::tensor::Mp2Precision;

struct Problem {
  std::int64_t naux, o, v;
  std::vector<float> B, eo, ev;
  double energy = 0;  // FP64 reference
};

Problem make(std::int64_t naux, std::int64_t o, std::int64_t v, unsigned seed) {
  Problem p{naux, o, v, {}, {}, {}, 0};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> ub(-0.1, 0.1), uo(-1.5, -0.5), uv(0.2, 3.0);
  p.B.resize(static_cast<std::size_t>(naux * o * v));
  for (auto& x : p.B) x = static_cast<float>(ub(rng));
  for (std::int64_t i = 0; i < o; ++i) p.eo.push_back(static_cast<float>(uo(rng)));
  for (std::int64_t a = 0; a < v; ++a) p.ev.push_back(static_cast<float>(uv(rng)));
  p.energy = static_cast<double>(tensor_ref::dfmp2_energy(naux, o, v, p.B, p.eo, p.ev));
  return p;
}

double relerr(const Problem& p, Mp2Precision prec, trn::blas::CallReport* rep = nullptr, int threads = 0) {
  trn::blas::Settings s;
  s.host_threads = threads;
  const double e = trn::tensor::dfmp2_energy(s, p.naux, p.o, p.v, p.B.data(), p.eo.data(), p.ev.data(), prec, rep);
  return std::fabs(e - p.energy) / std::fabs(p.energy);
}

TEST(DfMp2, SmallWaterSizedProblem) {
  const Problem p = make(84, 5, 19, 1);
  ASSERT_LT(p.energy, 0.0);
  trn::blas::CallReport rep;
  const double e32 = relerr(p, Mp2Precision::fp32, &rep);
  EXPECT_LE(e32, 1e-6);
  EXPECT_GT(rep.profile.total_ns, 0.0);
  EXPECT_GT(rep.tensor_passes, 0);
  // The pair energies' fp64 sum is one host round trip: nocc (nocc + 1) / 2 fp32 values to the
  // host, a weight and an add each (docs/cost-model.md section 7).
  EXPECT_EQ(rep.profile.host_steps, 1);
  EXPECT_DOUBLE_EQ(rep.profile.host_flops, 5.0 * 6.0);
  EXPECT_DOUBLE_EQ(rep.profile.host_bytes, 4.0 * 5 * 6 / 2);
  EXPECT_GT(rep.profile.host_critical_ns, 0.0);
  const double ex6 = relerr(p, Mp2Precision::bf16x6), ex3 = relerr(p, Mp2Precision::bf16x3);
  EXPECT_LE(ex6, 1e-6);
  // bf16x3 drops lo.lo: a positive bias of ~2^-18 relative on the dominant (ia|ia) terms.
  EXPECT_LE(ex3, 8 * std::ldexp(1.0, -18));
  const double e16 = relerr(p, Mp2Precision::bf16);  // the warning case
  EXPECT_GT(e16, 4 * ex3);
  EXPECT_LT(e16, 3e-2);
  std::printf("DF-MP2 84/5/19: E = %.10f, rel err fp32 %.2e bf16x6 %.2e bf16x3 %.2e bf16 %.2e, modeled trn1 %.1f us\n",
              p.energy, e32, ex6, ex3, e16, rep.profile.total_ns * 1e-3);
}

TEST(DfMp2, BenzeneSizedProblem) {
  const Problem p = make(420, 21, 93, 2);
  trn::blas::CallReport rep;
  const double e32 = relerr(p, Mp2Precision::fp32, &rep);
  const double ex6 = relerr(p, Mp2Precision::bf16x6), ex3 = relerr(p, Mp2Precision::bf16x3);
  const double e16 = relerr(p, Mp2Precision::bf16);
  EXPECT_LE(e32, 1e-6);
  EXPECT_LE(ex6, 1e-6);
  EXPECT_LE(ex3, 8 * std::ldexp(1.0, -18));
  EXPECT_GT(e16, 4 * ex3);
  std::printf("DF-MP2 420/21/93: E = %.8f, rel err fp32 %.2e bf16x6 %.2e bf16x3 %.2e bf16 %.2e, modeled trn1 %.1f us\n",
              p.energy, e32, ex6, ex3, e16, rep.profile.total_ns * 1e-3);
}

TEST(DfMp2, DeterministicAcrossThreadsAndRejectsLargeNvir) {
  const Problem p = make(84, 5, 19, 3);
  trn::blas::Settings s1, s2;
  s1.host_threads = 1;
  s2.host_threads = 2;
  s2.num_cores = 2;
  const double a = trn::tensor::dfmp2_energy(s1, p.naux, p.o, p.v, p.B.data(), p.eo.data(), p.ev.data(), Mp2Precision::bf16x3);
  const double b = trn::tensor::dfmp2_energy(s2, p.naux, p.o, p.v, p.B.data(), p.eo.data(), p.ev.data(), Mp2Precision::bf16x3);
  EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0);
  std::vector<float> big(static_cast<std::size_t>(4 * 2 * 200), 0.0f), eo(2, -1.0f), ev(200, 1.0f);
  EXPECT_THROW(trn::tensor::dfmp2_energy({}, 4, 2, 200, big.data(), eo.data(), ev.data(), Mp2Precision::fp32),
               trn::NotSupportedError);
}

}  // namespace
