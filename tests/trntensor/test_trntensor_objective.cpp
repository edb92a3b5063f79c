// trntensor's modeled-device-time planner objective: einsum paths and contraction lowerings chosen
// by the core cost model instead of FLOPs / moved elements. The test cases are ones where the two
// objectives disagree, and the assertions compare against the *executed* traces' modeled time, so
// the planner's model is checked against the kernels that actually run; results are checked
// against loops written here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "trn/tensor/tensor.hpp"
#include "trntensor.h"

namespace {

using trn::tensor::ComputeType;
using trn::tensor::DataType;
using trn::tensor::PathObjective;
using trn::tensor::PathStrategy;

// 'ij,ij,jk->ik' (a Hadamard product, then a GEMM) with i = j = 64, k = 256. By FLOPs the
// element-wise product comes first (64*64 = 4096 FLOPs): but as a contraction it is a batch of 4096
// GEMMs of 1 x 1 x 1 — each a TensorE pass that fills one of 128 x 128 PE rows/columns, with its
// own DMA — before the 64 x 256 x 64 GEMM. The modeled objective contracts B with C first (an
// outer product batched over j: 64 entries of 64 x 256 x 1) and then A with the result (batched
// over i): 1.5x the FLOPs, far less modeled time.
trn::tensor::PathProblem hadamard_problem() {
  return {{{'i', 'j'}, {'i', 'j'}, {'j', 'k'}}, {'i', 'k'}, {{'i', 64}, {'j', 64}, {'k', 256}}};
}

TEST(PlannerObjective, ModeledTimePicksADifferentCheaperByModelPath) {
  const trn::tensor::PathModel model;  // trn1, 32F
  for (PathStrategy st : {PathStrategy::optimal, PathStrategy::dynamic_programming}) {
    const auto by_flops = trn::tensor::plan_path(hadamard_problem(), st, PathObjective::flops, &model);
    const auto by_time = trn::tensor::plan_path(hadamard_problem(), st, PathObjective::modeled_time, &model);
    EXPECT_EQ(by_flops.path_string(), "[(0, 1), (0, 1)]");
    EXPECT_EQ(by_time.path_string(), "[(0, 2), (0, 1)]");
    // Integer FLOP counts (opt_einsum's convention): 64*64 + 2*64*64*256 vs 64*64*256 + 2*64*64*256.
    EXPECT_EQ(by_flops.optimized_flops, 4096.0 + 2097152.0);
    EXPECT_EQ(by_time.optimized_flops, 1048576.0 + 2097152.0);
    EXPECT_GT(by_time.optimized_flops, by_flops.optimized_flops);
    EXPECT_LT(by_time.modeled_ns * 3, by_flops.modeled_ns) << by_time.modeled_ns << " vs " << by_flops.modeled_ns;
  }
  // Without a model the FLOP objective reports no modeled time; the FLOP path is unchanged.
  const auto plain = trn::tensor::plan_path(hadamard_problem(), PathStrategy::optimal);
  EXPECT_EQ(plain.modeled_ns, 0.0);
  EXPECT_EQ(plain.path_string(), "[(0, 1), (0, 1)]");
}

// The same expression executed: both objectives give the loop's result, and the modeled time of
// the executed kernels (the merged trace of every GEMM and DMA kernel) is lower for the path the
// modeled objective chose.
TEST(PlannerObjective, ExecutedModeledTimeIsLowerAndResultsAgree) {
  const std::int64_t ni = 64, nj = 64, nk = 256;
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> a(static_cast<std::size_t>(ni * nj)), b(a.size()), c(static_cast<std::size_t>(nj * nk));
  for (auto* v : {&a, &b, &c})
    for (float& x : *v) x = u(rng);
  double ns[2] = {0, 0};
  for (int obj = 0; obj < 2; ++obj) {
    std::vector<float> out(static_cast<std::size_t>(ni * nk), -1.0f);
    trn::tensor::EinsumReport rep;
    trn::tensor::einsum({}, "ij,ij,jk->ik", {{a.data(), {ni, nj}, {}}, {b.data(), {ni, nj}, {}}, {c.data(), {nj, nk}, {}}},
                        {out.data(), {ni, nk}, {}}, DataType::f32, ComputeType::f32, PathStrategy::automatic, &rep,
                        obj == 0 ? PathObjective::flops : PathObjective::modeled_time);
    ns[obj] = rep.profile.total_ns;
    EXPECT_EQ(rep.path.path_string(), obj == 0 ? "[(0, 1), (0, 1)]" : "[(0, 2), (0, 1)]");
    for (std::int64_t i = 0; i < ni; ++i)
      for (std::int64_t k = 0; k < nk; ++k) {
        long double s = 0, sa = 0;
        for (std::int64_t j = 0; j < nj; ++j) {
          const long double p = static_cast<long double>(a[static_cast<std::size_t>(i * nj + j)]) *
                                b[static_cast<std::size_t>(i * nj + j)] * c[static_cast<std::size_t>(j * nk + k)];
          s += p;
          sa += std::fabs(p);
        }
        ASSERT_LE(std::fabs(static_cast<double>(out[static_cast<std::size_t>(i * nk + k)] - s)),
                  (2 * nj + 8) * std::ldexp(1.0, -24) * static_cast<double>(sa))
            << i << " " << k;
      }
  }
  EXPECT_LT(ns[1] * 2, ns[0]) << "executed modeled time: modeled objective " << ns[1] << " ns, FLOP objective " << ns[0];
}

// Contraction lowerings by modeled time: never worse by the model than the moved-elements choice
// (which is among the candidates), and results unchanged.
TEST(PlannerObjective, ModeledLoweringIsNeverWorseByTheModel) {
  struct L {
    std::vector<std::int64_t> ea, eb, ed;
    std::vector<std::int32_t> ma, mb, md;
  };
  const std::vector<L> cases = {
      // qj,srqi->jsri: moved elements choose a batch split of 32 GEMMs.
      {{8, 8}, {32, 32, 8, 8}, {8, 32, 32, 8}, {'q', 'j'}, {'s', 'r', 'q', 'i'}, {'j', 's', 'r', 'i'}},
      // abc,cd->dba: TTGT.
      {{40, 30, 64}, {64, 24}, {24, 30, 40}, {'a', 'b', 'c'}, {'c', 'd'}, {'d', 'b', 'a'}},
      // bmk,bkn->bmn with the batch mode fastest.
      {{16, 32, 48}, {16, 48, 40}, {16, 32, 40}, {'b', 'm', 'k'}, {'b', 'k', 'n'}, {'b', 'm', 'n'}},
  };
  const trn::blas::Settings s;
  for (const L& l : cases) {
    trn::tensor::ContractionSpec cs;
    cs.a = {l.ea, {}, DataType::f32};
    cs.b = {l.eb, {}, DataType::f32};
    cs.c = cs.d = {l.ed, {}, DataType::f32};
    cs.modes_a = l.ma;
    cs.modes_b = l.mb;
    cs.modes_c = cs.modes_d = l.md;
    const trn::tensor::ContractionPlan by_moves(cs), by_time(cs, &s);
    const double t_moves = by_moves.estimate(s).total_ns, t_time = by_time.estimate(s).total_ns;
    EXPECT_LE(t_time, t_moves) << by_moves.print() << "\n" << by_time.print();
    // Same numbers either way (exact data: small integers).
    std::vector<float> a(static_cast<std::size_t>(l.ea[0] * l.ea[1] * (l.ea.size() > 2 ? l.ea[2] : 1) * (l.ea.size() > 3 ? l.ea[3] : 1)));
    std::vector<float> b(static_cast<std::size_t>(l.eb[0] * l.eb[1] * (l.eb.size() > 2 ? l.eb[2] : 1) * (l.eb.size() > 3 ? l.eb[3] : 1)));
    std::size_t nd = 1;
    for (auto e : l.ed) nd *= static_cast<std::size_t>(e);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(static_cast<int>(i % 5) - 2);
    std::vector<float> d1(nd, 0.0f), d2(nd, 1.0f);
    by_moves.execute(s, 1.0, a.data(), b.data(), 0.0, nullptr, d1.data(), nullptr, 0);
    by_time.execute(s, 1.0, a.data(), b.data(), 0.0, nullptr, d2.data(), nullptr, 0);
    EXPECT_EQ(d1, d2);
  }
}

// The first-index transform pqrs,qj->pjrs with n = 40: the moved-elements heuristic keeps it
// transpose-free as a batch split (1600 GEMMs of 40 x 40 x 40, B reused), the modeled objective packs
// A and D (TTGT) for one 64000 x 40 x 40 GEMM: modeled trn1 1.02 ms instead of 4.54 ms (launch
// and DMA overheads of 1600 small GEMMs that the heuristic's 4096-elements-per-entry penalty
// underestimates).
TEST(PlannerObjective, ModeledLoweringPacksInsteadOfSplittingSmallBatches) {
  const std::int64_t n = 40;
  trn::tensor::ContractionSpec cs;
  cs.a = {{n, n, n, n}, {}, DataType::f32};
  cs.b = {{n, n}, {}, DataType::f32};
  cs.c = cs.d = {{n, n, n, n}, {}, DataType::f32};
  cs.modes_a = {'p', 'q', 'r', 's'};
  cs.modes_b = {'q', 'j'};
  cs.modes_c = cs.modes_d = {'p', 'j', 'r', 's'};
  const trn::blas::Settings s;
  const trn::tensor::ContractionPlan by_moves(cs), by_time(cs, &s);
  EXPECT_EQ(by_moves.lowering(), trn::tensor::Lowering::transpose_free) << by_moves.print();
  EXPECT_EQ(by_moves.batch(), n * n);
  EXPECT_EQ(by_time.lowering(), trn::tensor::Lowering::ttgt) << by_time.print();
  EXPECT_EQ(by_time.batch(), 1);
  EXPECT_LT(2 * by_time.estimate(s).total_ns, by_moves.estimate(s).total_ns);
}

// The trinary form of the same Hadamard-then-GEMM (E[i,k] = A[i,j] B[i,j] C[j,k]): by FLOPs (A B)
// first, by modeled time a pair with C first; the executed modeled time is lower and E agrees.
TEST(PlannerObjective, TrinaryOrderByModeledTime) {
  const std::int64_t ni = 64, nj = 64, nk = 256;
  trn::tensor::TrinarySpec ts;
  ts.a = ts.b = {{ni, nj}, {}, DataType::f32};
  ts.c = {{nj, nk}, {}, DataType::f32};
  ts.d = ts.e = {{ni, nk}, {}, DataType::f32};
  ts.modes_a = ts.modes_b = {'i', 'j'};
  ts.modes_c = {'j', 'k'};
  ts.modes_d = ts.modes_e = {'i', 'k'};
  const trn::blas::Settings s;
  const trn::tensor::TrinaryContractionPlan by_flops(ts), by_time(ts, &s);
  EXPECT_EQ(by_flops.first_pair(), (std::pair<int, int>{0, 1}));
  EXPECT_NE(by_time.first_pair(), (std::pair<int, int>{0, 1})) << by_time.print();
  EXPECT_GT(by_time.flops(), by_flops.flops());
  std::vector<float> a(static_cast<std::size_t>(ni * nj)), b(a.size()), c(static_cast<std::size_t>(nj * nk));
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<float>(static_cast<int>(i % 5) - 2);
    b[i] = static_cast<float>(static_cast<int>(i % 3) - 1);
  }
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
  std::vector<float> e1(static_cast<std::size_t>(ni * nk)), e2(e1.size(), 5.0f);
  trn::blas::CallReport r1, r2;
  by_flops.execute(s, 1.0, a.data(), b.data(), c.data(), 0.0, nullptr, e1.data(), nullptr, 0, &r1);
  by_time.execute(s, 1.0, a.data(), b.data(), c.data(), 0.0, nullptr, e2.data(), nullptr, 0, &r2);
  EXPECT_EQ(e1, e2);  // small integers: exact either way
  for (std::int64_t k = 0; k < nk; k += 37) {  // spot check against a loop (column-major E[i,k])
    for (std::int64_t i = 0; i < ni; i += 13) {
      double ref = 0;
      for (std::int64_t j = 0; j < nj; ++j)
        ref += static_cast<double>(a[static_cast<std::size_t>(i + ni * j)]) * b[static_cast<std::size_t>(i + ni * j)] *
               c[static_cast<std::size_t>(j + nj * k)];
      EXPECT_EQ(e2[static_cast<std::size_t>(i + ni * k)], ref);
    }
  }
  EXPECT_LT(r2.profile.total_ns * 2, r1.profile.total_ns) << r2.profile.total_ns << " vs " << r1.profile.total_ns;
}

TEST(PlannerObjective, CApiObjectiveSettings) {
  trntensorHandle_t h;
  ASSERT_EQ(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
  const int64_t s_ij[] = {64, 64}, s_jk[] = {64, 256};
  const trntensorEinsumOperand_t in[3] = {{nullptr, 2, s_ij, nullptr}, {nullptr, 2, s_ij, nullptr}, {nullptr, 2, s_jk, nullptr}};
  int32_t path[4] = {-1, -1, -1, -1};
  double flops = 0;
  ASSERT_EQ(trntensorEinsumPath(h, "ij,ij,jk->ik", 3, in, TRNTENSOR_EINSUM_PATH_OPTIMAL, path, nullptr, &flops, nullptr),
            TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ((std::vector<int32_t>(path, path + 4)), (std::vector<int32_t>{0, 1, 0, 1}));
  EXPECT_EQ(trntensorSetPlannerObjective(h, static_cast<trntensorPlanObjective_t>(7)), TRNTENSOR_STATUS_INVALID_VALUE);
  ASSERT_EQ(trntensorSetPlannerObjective(h, TRNTENSOR_OBJECTIVE_MODELED_TIME), TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorEinsumPath(h, "ij,ij,jk->ik", 3, in, TRNTENSOR_EINSUM_PATH_OPTIMAL, path, nullptr, &flops, nullptr),
            TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ((std::vector<int32_t>(path, path + 4)), (std::vector<int32_t>{0, 2, 0, 1}));
  EXPECT_EQ(flops, 1048576.0 + 2097152.0);
  // The plan-preference attribute: validated, and a MODELED_TIME plan contracts correctly.
  trntensorPlanPreference_t pref;
  ASSERT_EQ(trntensorCreatePlanPreference(h, &pref, TRNTENSOR_ALGO_DEFAULT, TRNTENSOR_JIT_MODE_NONE), TRNTENSOR_STATUS_SUCCESS);
  int32_t bad = 3, objective = TRNTENSOR_OBJECTIVE_MODELED_TIME;
  EXPECT_EQ(trntensorPlanPreferenceSetAttribute(h, pref, TRNTENSOR_PLAN_PREFERENCE_OBJECTIVE, &bad, sizeof bad),
            TRNTENSOR_STATUS_INVALID_VALUE);
  ASSERT_EQ(trntensorPlanPreferenceSetAttribute(h, pref, TRNTENSOR_PLAN_PREFERENCE_OBJECTIVE, &objective, sizeof objective),
            TRNTENSOR_STATUS_SUCCESS);
  const int64_t ea[] = {40, 30, 64}, eb[] = {64, 24}, ed[] = {24, 30, 40};
  const int32_t ma[] = {'a', 'b', 'c'}, mb[] = {'c', 'd'}, md[] = {'d', 'b', 'a'};
  trntensorTensorDescriptor_t dA, dB, dD;
  ASSERT_EQ(trntensorCreateTensorDescriptor(h, &dA, 3, ea, nullptr, TRNTENSOR_R_32F, 16), TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorCreateTensorDescriptor(h, &dB, 2, eb, nullptr, TRNTENSOR_R_32F, 16), TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorCreateTensorDescriptor(h, &dD, 3, ed, nullptr, TRNTENSOR_R_32F, 16), TRNTENSOR_STATUS_SUCCESS);
  trntensorOperationDescriptor_t op;
  ASSERT_EQ(trntensorCreateContraction(h, &op, dA, ma, TRNTENSOR_OP_IDENTITY, dB, mb, TRNTENSOR_OP_IDENTITY, dD, md,
                                       TRNTENSOR_OP_IDENTITY, dD, md, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_SUCCESS);
  uint64_t ws = 0;
  ASSERT_EQ(trntensorEstimateWorkspaceSize(h, op, pref, TRNTENSOR_WORKSPACE_DEFAULT, &ws), TRNTENSOR_STATUS_SUCCESS);
  trntensorPlan_t plan;
  ASSERT_EQ(trntensorCreatePlan(h, &plan, op, pref, ws), TRNTENSOR_STATUS_SUCCESS);
  std::vector<float> a(40 * 30 * 64), b(64 * 24), d(24 * 30 * 40, -1.0f);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(static_cast<int>(i % 9) - 4);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(static_cast<int>(i % 5) - 2);
  std::vector<float> work(ws / 4 + 4);
  const float one = 1.0f, zero = 0.0f;
  ASSERT_EQ(trntensorContract(h, plan, &one, a.data(), b.data(), &zero, nullptr, d.data(), work.data(), ws, nullptr),
            TRNTENSOR_STATUS_SUCCESS);
  for (int ia = 0; ia < 40; ++ia)
    for (int ib = 0; ib < 30; ++ib)
      for (int id = 0; id < 24; ++id) {
        double s = 0;
        for (int ic = 0; ic < 64; ++ic) s += static_cast<double>(a[static_cast<std::size_t>(ia + 40 * ib + 1200 * ic)]) * b[static_cast<std::size_t>(ic + 64 * id)];
        ASSERT_EQ(d[static_cast<std::size_t>(id + 24 * ib + 720 * ia)], s);  // small integers: exact
      }
  trntensorDestroyPlan(plan);
  trntensorDestroyOperationDescriptor(op);
  // A trinary plan under the MODELED_TIME preference takes the modeled order.
  const int64_t eij[] = {64, 64}, ejk[] = {64, 256}, eik[] = {64, 256};
  const int32_t mij[] = {'i', 'j'}, mjk[] = {'j', 'k'}, mik[] = {'i', 'k'};
  trntensorTensorDescriptor_t tij, tjk, tik;
  ASSERT_EQ(trntensorCreateTensorDescriptor(h, &tij, 2, eij, nullptr, TRNTENSOR_R_32F, 16), TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorCreateTensorDescriptor(h, &tjk, 2, ejk, nullptr, TRNTENSOR_R_32F, 16), TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorCreateTensorDescriptor(h, &tik, 2, eik, nullptr, TRNTENSOR_R_32F, 16), TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorCreateContractionTrinary(h, &op, tij, mij, TRNTENSOR_OP_IDENTITY, tij, mij, TRNTENSOR_OP_IDENTITY, tjk, mjk,
                                              TRNTENSOR_OP_IDENTITY, tik, mik, TRNTENSOR_OP_IDENTITY, tik, mik,
                                              TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorEstimateWorkspaceSize(h, op, pref, TRNTENSOR_WORKSPACE_DEFAULT, &ws), TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorCreatePlan(h, &plan, op, pref, ws), TRNTENSOR_STATUS_SUCCESS);
  char text[2048];
  ASSERT_EQ(trntensorPlanDescribe(h, plan, text, sizeof text), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_NE(std::string(text).find("(A C) first"), std::string::npos) << text;
  trntensorDestroyPlan(plan);
  trntensorDestroyOperationDescriptor(op);
  trntensorDestroyPlanPreference(pref);
  for (auto x : {dA, dB, dD, tij, tjk, tik}) trntensorDestroyTensorDescriptor(x);
  EXPECT_EQ(trntensorDestroy(h), TRNTENSOR_STATUS_SUCCESS);
}

}  // namespace

// The einsum plan's predicted time (EinsumPlan::predicted_ns, the path planner's price of the chosen
// steps, made before anything runs) against the executed call's modeled time, over chains whose steps
// are plain GEMMs on packed operands and the Hadamard path of the tests above. Two-sided band
// (docs/cost-model.md section 8): a prediction that drifts either way fails.
TEST(PlannerObjective, EinsumPredictedTimeMatchesTheExecutedModeledTime) {
  struct Case {
    const char* expr;
    std::vector<std::vector<std::int64_t>> shapes;
    std::vector<std::int64_t> out;
    double band;  // |predicted / actual - 1| <= band
  };
  const std::vector<Case> cases = {
      {"ij,jk,kl->il", {{96, 200}, {200, 160}, {160, 64}}, {96, 64}, 0.10},
      {"ij,jk,kl->il", {{256, 256}, {256, 512}, {512, 128}}, {256, 128}, 0.10},
      {"ij,jk->ik", {{300, 129}, {129, 70}}, {300, 70}, 0.10},
      {"bij,bjk->bik", {{4, 64, 96}, {4, 96, 80}}, {4, 64, 80}, 0.10},
  };
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (const Case& c : cases) {
    std::vector<std::vector<float>> in;
    std::vector<trn::tensor::View> views;
    for (const auto& sh : c.shapes) {
      std::int64_t e = 1;
      for (std::int64_t x : sh) e *= x;
      in.emplace_back(static_cast<std::size_t>(e));
      for (float& x : in.back()) x = u(rng);
    }
    for (std::size_t i = 0; i < in.size(); ++i) views.push_back({in[i].data(), c.shapes[i], {}});
    std::int64_t oe = 1;
    for (std::int64_t x : c.out) oe *= x;
    std::vector<float> out(static_cast<std::size_t>(oe));
    trn::tensor::EinsumReport rep;
    trn::tensor::einsum({}, c.expr, views, {out.data(), c.out, {}}, DataType::f32, ComputeType::f32,
                        PathStrategy::automatic, &rep);
    const double actual = rep.profile.total_ns;
    const auto at = rep.plan.find("predicted ");
    ASSERT_NE(at, std::string::npos) << rep.plan;
    const double predicted = std::stod(rep.plan.substr(at + 10)) * 1e3;
    SCOPED_TRACE(std::string(c.expr) + " predicted " + std::to_string(predicted) + " ns, actual " +
                 std::to_string(actual) + " ns");
    EXPECT_NEAR(predicted / actual, 1.0, c.band);
    std::printf("prediction einsum %s: predicted %.2f us, modeled %.2f us (%+.1f%%)\n", c.expr, predicted * 1e-3,
                actual * 1e-3, 100 * (predicted / actual - 1));
  }
  // 64F compute: not predicted (its steps would be priced as 32F).
  std::vector<double> a(16, 1.0), b(16, 1.0), o(16);
  trn::tensor::EinsumReport rep;
  trn::tensor::einsum({}, "ij,jk->ik", {{a.data(), {4, 4}, {}}, {b.data(), {4, 4}, {}}}, {o.data(), {4, 4}, {}},
                      DataType::f64, ComputeType::f64, PathStrategy::automatic, &rep);
  EXPECT_EQ(rep.plan.find("predicted "), std::string::npos) << rep.plan;
}
