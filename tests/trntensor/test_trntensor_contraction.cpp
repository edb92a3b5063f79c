// trntensor contractions (C++ API) against naive FP64 / long-double loops written in the test:
// GEMM-like, batched, 4-index transforms, permuted outputs, full reductions, outer products,
// non-packed strides, summed single-operand modes, beta != 0 with D != C (C untouched) and D
// aliasing C, in every compute type within its documented bound (docs/trntensor.md, "Accuracy").
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <random>

#include "tensor_reference.hpp"
#include "trn/tensor/tensor.hpp"

namespace {

using trn::tensor::ComputeType;
using trn::tensor::ContractionPlan;
using trn::tensor::ContractionSpec;
using trn::tensor::DataType;
using trn::tensor::Lowering;
using tensor_ref::Tensor;

struct Case {
  const char* name;
  std::string a, b, d;
  std::map<char, std::int64_t> ext;
  std::int64_t pad_a = 0, pad_b = 0, pad_d = 0;
  std::vector<int> order_a = {}, order_b = {}, order_d = {};
  double alpha = 1.0, beta = 0.0;
  bool separate_c = false;  // C a distinct tensor (own layout) instead of D aliasing C
  int expect_lowering = -1; // 0 transpose-free, 1 TTGT, -1 unchecked
};

std::vector<Case> cases() {
  const std::map<char, std::int64_t> g{{'m', 37}, {'n', 29}, {'k', 53}};
  const std::map<char, std::int64_t> t4{{'p', 6}, {'q', 5}, {'r', 4}, {'s', 3}, {'i', 7}, {'j', 5}};
  return {
      {"gemm_nn", "mk", "kn", "mn", g, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, 0},
      {"gemm_tn", "km", "kn", "mn", g, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, 0},
      {"gemm_nt_out_transposed", "mk", "nk", "nm", g, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, 0},
      {"gemm_strided_padded", "mk", "kn", "mn", g, 3, 5, 2, {}, {}, {}, 1.0, 0.0, false, 0},
      {"batched", "mkb", "knb", "mnb", {{'b', 3}, {'m', 9}, {'n', 11}, {'k', 13}}, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, 0},
      {"batched_batch_inner", "mbk", "kbn", "mnb", {{'b', 4}, {'m', 7}, {'n', 6}, {'k', 10}}, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, 0},
      {"transform_first_index", "pqrs", "pi", "iqrs", t4, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, 0},
      {"transform_second_index", "pqrs", "qj", "pjrs", t4, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, 1},
      {"transform_last_index", "pqrs", "sj", "pqrj", t4, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, 0},
      {"permuted_output", "abc", "cd", "dba", {{'a', 5}, {'b', 4}, {'c', 9}, {'d', 3}}, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, 1},
      {"two_k_modes_permuted", "akbl", "lkc", "cab", {{'a', 4}, {'b', 3}, {'c', 5}, {'k', 6}, {'l', 7}}, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, -1},
      {"full_reduction", "abc", "abc", "", {{'a', 5}, {'b', 6}, {'c', 7}}, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, 0},
      {"full_reduction_permuted", "abc", "cab", "", {{'a', 5}, {'b', 6}, {'c', 7}}, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, 1},
      {"outer_product", "ab", "c", "cab", {{'a', 5}, {'b', 4}, {'c', 6}}, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, 0},
      {"outer_vectors", "a", "b", "ab", {{'a', 8}, {'b', 9}}, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, 0},
      {"summed_mode_of_a", "amk", "kn", "mn", {{'a', 3}, {'m', 6}, {'n', 5}, {'k', 7}}, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, 1},
      {"summed_mode_of_b", "mk", "knz", "nm", {{'z', 4}, {'m', 6}, {'n', 5}, {'k', 7}}, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, 1},
      {"beta_separate_c", "mk", "kn", "mn", g, 0, 0, 0, {}, {}, {}, 0.75, -1.25, true, 0},
      {"beta_aliased_c", "mkb", "knb", "mnb", {{'b', 2}, {'m', 9}, {'n', 8}, {'k', 10}}, 0, 0, 0, {}, {}, {}, -0.5, 2.0, false, 0},
      {"batched_batch_fastest", "bmk", "bkn", "bmn", {{'b', 3}, {'m', 9}, {'n', 11}, {'k', 13}}, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, 1},
      {"beta_separate_c_ttgt", "abc", "cd", "dba", {{'a', 5}, {'b', 4}, {'c', 9}, {'d', 3}}, 0, 0, 1, {}, {}, {}, 1.5, 0.5, true, 1},
      {"batched_nonpacked_ttgt", "abmk", "bakn", "mnab", {{'a', 2}, {'b', 3}, {'m', 5}, {'n', 4}, {'k', 6}}, 1, 0, 0, {}, {}, {}, 1.0, 0.0, false, -1},
      {"layout_order", "mk", "kn", "mn", g, 0, 0, 0, {1, 0}, {1, 0}, {1, 0}, 1.0, 0.0, false, 0},
      // The N group (s, r, i) of B is split by the contracted q: i becomes a batch mode (GETT-like)
      // instead of packing B.
      {"middle_index_batch_split", "qj", "srqi", "jsri", {{'s', 32}, {'r', 32}, {'q', 8}, {'i', 8}, {'j', 8}}, 0, 0, 0, {}, {}, {}, 1.0, 0.0, false, 0},
      {"empty_k", "mk", "kn", "mn", {{'m', 4}, {'n', 3}, {'k', 0}}, 0, 0, 0, {}, {}, {}, 1.0, 0.5, true, -1},
  };
}

// Componentwise bound |D - ref| <= bound * (|alpha| |A||B| + |beta||C|) for a contraction length k
// (docs/trntensor.md "Accuracy"): input rounding of the mode plus fp32 accumulation of exact products.
double bound(ComputeType c, std::int64_t k) {
  const double u = std::ldexp(1.0, -24), acc = static_cast<double>(k + 4) * u;
  switch (c) {
    case ComputeType::f32: return acc;
    case ComputeType::tf32: return 2 * std::ldexp(1.0, -11) + acc;
    case ComputeType::f16: return 2 * std::ldexp(1.0, -11) + acc;
    case ComputeType::bf16: return 2 * std::ldexp(1.0, -8) + acc;
    case ComputeType::tf32x3: return 4 * std::ldexp(1.0, -22) + acc + 3 * u;
    case ComputeType::bf16x9: return acc + 9 * u;
    case ComputeType::f64: return 0;
  }
  return 0;
}

std::int64_t contraction_length(const Case& c) {
  std::int64_t k = 1;
  for (auto [l, e] : c.ext)
    if (c.d.find(l) == std::string::npos) k *= e;
  return k;
}

ContractionSpec spec_of(const Tensor& A, const Tensor& B, const Tensor& C, const Tensor& D, DataType dt, ComputeType ct) {
  ContractionSpec s;
  s.a = {A.extents, A.strides, dt};
  s.b = {B.extents, B.strides, dt};
  s.c = {C.extents, C.strides, dt};
  s.d = {D.extents, D.strides, dt};
  s.modes_a = A.modes;
  s.modes_b = B.modes;
  s.modes_c = C.modes;
  s.modes_d = D.modes;
  s.compute = ct;
  return s;
}

class Contraction : public ::testing::TestWithParam<std::tuple<int, ComputeType>> {};

TEST_P(Contraction, MatchesNaiveLoops) {
  const Case cs = cases()[static_cast<std::size_t>(std::get<0>(GetParam()))];
  const ComputeType ct = std::get<1>(GetParam());
  SCOPED_TRACE(std::string(cs.name) + " " + trn::tensor::compute_type_name(ct));
  std::mt19937_64 rng(1234 + static_cast<unsigned>(std::get<0>(GetParam())));
  const Tensor A = tensor_ref::make(cs.a, cs.ext, rng, cs.pad_a, cs.order_a);
  const Tensor B = tensor_ref::make(cs.b, cs.ext, rng, cs.pad_b, cs.order_b);
  Tensor D = tensor_ref::make(cs.d, cs.ext, rng, cs.pad_d, cs.order_d);
  // A separate C with a layout of its own (reversed mode order); otherwise C is D's initial content.
  std::vector<int> rev;
  for (int i = static_cast<int>(cs.d.size()) - 1; i >= 0; --i) rev.push_back(i);
  const Tensor C = cs.separate_c ? tensor_ref::make(cs.d, cs.ext, rng, 1, rev) : D;
  const bool f64 = ct == ComputeType::f64;
  const DataType dt = f64 ? DataType::f64 : DataType::f32;
  // fp32 runs see float data: the reference uses the same float values.
  const auto a = f64 ? A.data : tensor_ref::round_to_float(A.data);
  const auto b = f64 ? B.data : tensor_ref::round_to_float(B.data);
  const auto c = f64 ? C.data : tensor_ref::round_to_float(C.data);
  const auto d0 = f64 ? D.data : tensor_ref::round_to_float(D.data);
  const auto ref = tensor_ref::contract(A, B, C, D, cs.alpha, cs.beta, a, b, cs.separate_c ? c : d0);

  ContractionPlan plan(spec_of(A, B, C, D, dt, ct));
  if (ct == ComputeType::tf32x3) {
    EXPECT_EQ(plan.lowering(), Lowering::ttgt) << "3XTF32 packs and splits A and B";
  } else if (cs.expect_lowering >= 0) {
    EXPECT_EQ(static_cast<int>(plan.lowering()), cs.expect_lowering) << plan.print();
  }
  std::vector<double> got(d0.size());
  std::vector<double> c_after;
  if (f64) {
    std::vector<double> dbuf = d0, cbuf = c;
    plan.execute({}, cs.alpha, a.data(), b.data(), cs.beta, cs.separate_c ? cbuf.data() : dbuf.data(), dbuf.data(),
                 nullptr, 0);
    got = dbuf;
    c_after = cbuf;
  } else {
    auto af = tensor_ref::to_float(a), bf = tensor_ref::to_float(b), cf = tensor_ref::to_float(c), df = tensor_ref::to_float(d0);
    std::vector<std::byte> ws(plan.workspace_bytes());
    plan.execute({}, cs.alpha, af.data(), bf.data(), cs.beta, cs.separate_c ? cf.data() : df.data(), df.data(), ws.data(),
                 ws.size());
    got.assign(df.begin(), df.end());
    c_after.assign(cf.begin(), cf.end());
  }
  // Results within the bound; D's padding untouched; a separate C untouched bit for bit.
  const auto elems = tensor_ref::element_offsets(D);
  std::vector<bool> is_elem(got.size(), false);
  for (auto o : elems) is_elem[o] = true;
  double worst = 0, loop_worst = 0, abs_max = 0;
  const double bnd = bound(ct, contraction_length(cs));
  for (auto o : elems) {
    const double err = std::fabs(static_cast<double>(static_cast<long double>(got[o]) - ref.ref[o]));
    worst = std::max(worst, err);
    loop_worst = std::max(loop_worst, std::fabs(static_cast<double>(static_cast<long double>(ref.loop[o]) - ref.ref[o])));
    abs_max = std::max(abs_max, ref.abs[o]);
    if (!f64) {
      ASSERT_LE(err, bnd * ref.abs[o] + 1e-37) << "element offset " << o;
    }
  }
  if (f64) {
    EXPECT_LE(worst, 2 * loop_worst + 4 * std::ldexp(1.0, -53) * abs_max);
  }
  for (std::size_t o = 0; o < got.size(); ++o) {
    if (!is_elem[o]) {
      ASSERT_EQ(got[o], d0[o]) << "padding of D written at " << o;
    }
  }
  if (cs.separate_c) {
    for (std::size_t o = 0; o < c.size(); ++o) {
      ASSERT_EQ(c_after[o], c[o]) << "C written at " << o;
    }
  }
}

std::string case_name(const ::testing::TestParamInfo<std::tuple<int, ComputeType>>& info) {
  std::string ct = trn::tensor::compute_type_name(std::get<1>(info.param));
  return std::string(cases()[static_cast<std::size_t>(std::get<0>(info.param))].name) + "_" + "C" + ct;
}

INSTANTIATE_TEST_SUITE_P(AllCases, Contraction,
                         ::testing::Combine(::testing::Range(0, static_cast<int>(cases().size())),
                                            ::testing::Values(ComputeType::f32, ComputeType::f64, ComputeType::bf16,
                                                              ComputeType::f16, ComputeType::tf32, ComputeType::tf32x3,
                                                              ComputeType::bf16x9)),
                         case_name);

// Plain bf16 really is less accurate than 32F on the same problem (the bound is not vacuous).
TEST(ContractionAccuracy, Bf16IsCoarserThan32F) {
  std::mt19937_64 rng(7);
  const std::map<char, std::int64_t> e{{'m', 16}, {'n', 16}, {'k', 64}};
  const Tensor A = tensor_ref::make("mk", e, rng), B = tensor_ref::make("kn", e, rng), D = tensor_ref::make("mn", e, rng);
  const auto a = tensor_ref::round_to_float(A.data), b = tensor_ref::round_to_float(B.data);
  const auto ref = tensor_ref::contract(A, B, D, D, 1.0, 0.0, a, b, D.data);
  double err[2] = {0, 0};
  int i = 0;
  for (ComputeType ct : {ComputeType::f32, ComputeType::bf16}) {
    ContractionPlan plan(spec_of(A, B, D, D, DataType::f32, ct));
    auto af = tensor_ref::to_float(a), bf = tensor_ref::to_float(b);
    std::vector<float> df(D.data.size());
    plan.execute({}, 1.0, af.data(), bf.data(), 0.0, df.data(), df.data(), nullptr, 0);
    for (std::size_t o = 0; o < df.size(); ++o)
      err[i] = std::max(err[i], std::fabs(static_cast<double>(df[o] - ref.ref[o])));
    ++i;
  }
  EXPECT_GT(err[1], 100 * err[0]);
  EXPECT_GT(err[1], 1e-4);
}

TEST(ContractionPlan, DescribesLoweringFlopsAndModeledTime) {
  ContractionSpec s;
  s.a = {{64, 32}, {}, DataType::f32};
  s.b = {{32, 48}, {}, DataType::f32};
  s.d = {{64, 48}, {}, DataType::f32};
  s.c = s.d;
  s.modes_a = {'m', 'k'};
  s.modes_b = {'k', 'n'};
  s.modes_c = s.modes_d = {'m', 'n'};
  ContractionPlan p(s);
  EXPECT_EQ(p.lowering(), Lowering::transpose_free);
  EXPECT_EQ(p.workspace_bytes(), 0U);
  EXPECT_DOUBLE_EQ(p.flops(), 2.0 * 64 * 48 * 32);
  const trn::Profile prof = p.estimate({});
  EXPECT_GT(prof.total_ns, 0.0);
  EXPECT_DOUBLE_EQ(prof.tensor_flops, 2.0 * 64 * 48 * 32);
  const std::string d = p.print(&prof);
  EXPECT_NE(d.find("transpose-free"), std::string::npos) << d;
  EXPECT_NE(d.find("trn1"), std::string::npos) << d;
  // A TTGT plan says so and needs workspace.
  s.modes_d = s.modes_c = {'n', 'm'};
  s.d = s.c = {{48, 64}, {2, 96}, DataType::f32};  // no unit-stride mode: neither orientation maps
  ContractionPlan q(s);
  EXPECT_EQ(q.lowering(), Lowering::ttgt) << q.print();
  EXPECT_GT(q.workspace_bytes(), 0U);
  // The unpacking of D is a DMA kernel in the modeled profile: more DMA instructions than the
  // transpose-free GEMM of the same shape, and at least one HBM -> HBM copy per 128 rows of D.
  const trn::Profile tp = q.estimate({});
  const auto dma = static_cast<std::size_t>(trn::Engine::dma);
  EXPECT_GT(tp.instructions[dma], prof.instructions[dma]);
  EXPECT_GT(tp.dma_bytes, prof.dma_bytes + 64.0 * 48 * 4 - 1);
}

// Modeled trn1: a transpose-free lowering keeps >= 90% of the TensorE utilisation of the equivalent
// trnblas GEMM (here: a row-major 'ij,jk->ik' with its transposed orientation, and a batched case).
TEST(ContractionPlan, TransposeFreeKeepsTheGemmUtilisation) {
  const std::int64_t m = 256, n = 384, k = 512;
  ContractionSpec s;
  s.a = {{k, m}, {}, DataType::f32};  // row-major A[m][k]: modes (k, m) column-major
  s.b = {{n, k}, {}, DataType::f32};
  s.d = s.c = {{n, m}, {}, DataType::f32};
  s.modes_a = {'k', 'm'};
  s.modes_b = {'n', 'k'};
  s.modes_c = s.modes_d = {'n', 'm'};
  ContractionPlan plan(s);
  ASSERT_EQ(plan.lowering(), Lowering::transpose_free) << plan.print();
  const trn::Profile ours = plan.estimate({});
  trn::blas::Settings ts;
  ts.timing_only = true;
  static float dummy[4];
  trn::blas::CallReport ref;
  trn::blas::gemm(ts, trn::blas::GemmMode::fp32, trn::blas::Op::N, trn::blas::Op::N, n, m, k, 1.0f,
                  {dummy, trn::DType::f32, n}, {dummy, trn::DType::f32, k}, 0.0f, {dummy, trn::DType::f32, n}, &ref);
  const trn::Profile gemm = trn::model_profile(ref.trace, trn::Generation::trn1);
  EXPECT_GE(ours.utilization(trn::Engine::tensor), 0.9 * gemm.utilization(trn::Engine::tensor));
  EXPECT_LE(ours.total_ns, gemm.total_ns / 0.9);
}

TEST(ContractionPlan, RejectsBadSpecsNamingTheMode) {
  ContractionSpec s;
  s.a = {{4, 5}, {}, DataType::f32};
  s.b = {{5, 6}, {}, DataType::f32};
  s.d = s.c = {{4, 6}, {}, DataType::f32};
  s.modes_a = {'m', 'k'};
  s.modes_b = {'k', 'n'};
  s.modes_c = s.modes_d = {'m', 'x'};
  try {
    ContractionPlan p(s);
    FAIL() << "accepted a mode of D absent from A and B";
  } catch (const trn::tensor::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("'x'"), std::string::npos) << e.what();
  }
  s.modes_c = s.modes_d = {'m', 'n'};
  s.b.extents = {7, 6};
  try {
    ContractionPlan p(s);
    FAIL() << "accepted an extent mismatch";
  } catch (const trn::tensor::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("'k'"), std::string::npos) << e.what();
  }
  s.b.extents = {5, 6};
  s.modes_a = {'k', 'k'};
  EXPECT_THROW(ContractionPlan{s}, trn::tensor::InvalidArgument);
  s.modes_a = {'m', 'k'};
  s.compute = ComputeType::f64;  // f32 data with 64F compute
  EXPECT_THROW(ContractionPlan{s}, trn::NotSupportedError);
  s.compute = ComputeType::f32;
  s.d.strides = {1, 0};  // overlapping outputs
  EXPECT_THROW(ContractionPlan{s}, trn::tensor::InvalidArgument);
  // C aliasing D with another layout is rejected at execution, before anything is written.
  s.d.strides = {1, 4};
  s.c.strides = {6, 1};
  ContractionPlan p(s);
  std::vector<float> a(20, 1.0f), b(30, 1.0f), d(24, 3.0f);
  EXPECT_THROW(p.execute({}, 1.0, a.data(), b.data(), 1.0, d.data(), d.data(), nullptr, 0), trn::tensor::InvalidArgument);
  for (float x : d) EXPECT_EQ(x, 3.0f);
}

// Same bits for any host thread count and emulated core count.
TEST(ContractionDeterminism, ThreadsAndCores) {
  std::mt19937_64 rng(99);
  const std::map<char, std::int64_t> e{{'a', 6}, {'b', 40}, {'c', 70}, {'d', 50}};
  const Tensor A = tensor_ref::make("abc", e, rng), B = tensor_ref::make("cd", e, rng), D = tensor_ref::make("dba", e, rng);
  ContractionPlan plan(spec_of(A, B, D, D, DataType::f32, ComputeType::f32));
  auto af = tensor_ref::to_float(A.data), bf = tensor_ref::to_float(B.data);
  std::vector<float> first;
  for (auto [threads, cores] : {std::pair{1, 1}, std::pair{2, 1}, std::pair{2, 2}, std::pair{0, 4}}) {
    trn::blas::Settings s;
    s.host_threads = threads;
    s.num_cores = cores;
    std::vector<float> df(D.data.size());
    plan.execute(s, 1.0, af.data(), bf.data(), 0.0, df.data(), df.data(), nullptr, 0);
    if (first.empty())
      first = df;
    else
      ASSERT_EQ(0, std::memcmp(first.data(), df.data(), df.size() * sizeof(float)));
  }
}

}  // namespace
