// trntensor complex contractions (C_32F, C_64F; C++ API) against std::complex<long double> loops
// written in tensor_reference.hpp: GEMM-like, batched, index transforms, permuted (TTGT) outputs,
// reductions, outer products, padded strides, with OP_CONJ on A and/or B, complex alpha and beta,
// D != C (C untouched) and D aliasing C, in 32F, TF32 and 3XTF32 (C_32F) and 64F (C_64F), each
// within its documented bound (docs/trntensor.md, "Complex data").
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <map>
#include <random>

#include "tensor_reference.hpp"
#include "trn/tensor/tensor.hpp"
#include "trntensor.h"

namespace {

using trn::tensor::ComputeType;
using trn::tensor::ContractionPlan;
using trn::tensor::ContractionSpec;
using trn::tensor::DataType;
using tensor_ref::Tensor;
using Z = std::complex<double>;

struct ComplexCase {
  const char* name;
  std::string a, b, d;
  std::map<char, std::int64_t> ext;
  std::int64_t pad_a = 0, pad_b = 0, pad_d = 0;
  Z alpha = 1.0, beta = 0.0;
  bool separate_c = false;
};

std::vector<ComplexCase> complex_cases() {
  const std::map<char, std::int64_t> g{{'m', 21}, {'n', 17}, {'k', 33}};
  return {
      {"gemm_nn", "mk", "kn", "mn", g, 0, 0, 0, Z(1.0, 0.5), 0.0, false},
      {"gemm_tn", "km", "kn", "mn", g, 0, 0, 0, Z(0.5, -1.0), 0.0, false},
      {"gemm_nt_out_transposed", "mk", "nk", "nm", g, 0, 0, 0, Z(1.0, 0.0), 0.0, false},
      {"gemm_padded", "mk", "kn", "mn", g, 3, 2, 1, Z(-0.75, 0.25), 0.0, false},
      {"batched", "mkb", "knb", "mnb", {{'b', 3}, {'m', 9}, {'n', 7}, {'k', 11}}, 0, 0, 0, Z(1.0, 1.0), 0.0, false},
      {"transform_second_index", "pqrs", "qj", "pjrs", {{'p', 5}, {'q', 4}, {'r', 3}, {'s', 3}, {'j', 6}}, 0, 0, 0, Z(1.0, 0.0), 0.0, false},
      {"permuted_output", "abc", "cd", "dba", {{'a', 5}, {'b', 4}, {'c', 9}, {'d', 3}}, 0, 0, 0, Z(0.0, 1.0), 0.0, false},
      {"full_reduction", "abc", "abc", "", {{'a', 5}, {'b', 6}, {'c', 7}}, 0, 0, 0, Z(1.0, -0.5), 0.0, false},
      {"outer_product", "ab", "c", "cab", {{'a', 5}, {'b', 4}, {'c', 6}}, 0, 0, 0, Z(2.0, 0.0), 0.0, false},
      {"summed_mode_of_a", "amk", "kn", "mn", {{'a', 3}, {'m', 6}, {'n', 5}, {'k', 7}}, 0, 0, 0, Z(1.0, 0.0), 0.0, false},
      {"beta_separate_c", "mk", "kn", "mn", g, 0, 0, 0, Z(0.75, -0.5), Z(-1.25, 0.25), true},
      {"beta_aliased_c_real_scalars", "mkb", "knb", "mnb", {{'b', 2}, {'m', 9}, {'n', 8}, {'k', 10}}, 0, 0, 0, -0.5, 2.0, false},
      {"beta_separate_c_ttgt", "abc", "cd", "dba", {{'a', 5}, {'b', 4}, {'c', 9}, {'d', 3}}, 0, 0, 1, Z(1.5, 0.5), Z(0.5, -1.0), true},
      {"batch_fastest", "bmk", "bkn", "bmn", {{'b', 3}, {'m', 9}, {'n', 11}, {'k', 13}}, 0, 0, 0, Z(1.0, 0.25), 0.0, false},
  };
}

// x rounded to float. Through a volatile: GCC 12 at -O3 folds (double)(float)x to x when the
// result is a component of a std::complex<double> it constructs (observed on this toolchain).
double float_value(double x) {
  volatile float f = static_cast<float>(x);
  return f;
}

std::vector<Z> complex_data(const Tensor& t, std::mt19937_64& rng, bool round_to_float) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Z> v(t.data.size());
  for (Z& x : v) {
    const double re = u(rng), im = u(rng);
    x = round_to_float ? Z(float_value(re), float_value(im)) : Z(re, im);
  }
  return v;
}

// Bound on |D - ref| (complex modulus) relative to |alpha| sum |a||b| + |beta||c|: each component
// of a 4M product is one fp32 PSUM accumulation of 2k exact products of the (rounded) inputs, the
// complex alpha/beta epilogue adds a few roundings; the factor 2 covers the modulus of two
// components.
double complex_bound(ComputeType c, std::int64_t k) {
  const double u = std::ldexp(1.0, -24), acc = static_cast<double>(2 * k + 8) * u;
  switch (c) {
    case ComputeType::tf32: return 2 * (2 * std::ldexp(1.0, -11) + acc);
    case ComputeType::tf32x3: return 2 * (4 * std::ldexp(1.0, -22) + acc + 3 * u);
    default: return 2 * acc;
  }
}

struct Param {
  int index;
  ComputeType compute;
  int conj;  // bit 0: conj A, bit 1: conj B
};

class ComplexContraction : public ::testing::TestWithParam<Param> {};

TEST_P(ComplexContraction, MatchesLongDoubleLoops) {
  const Param prm = GetParam();
  const ComplexCase cs = complex_cases()[static_cast<std::size_t>(prm.index)];
  const bool c64 = prm.compute == ComputeType::f64, conj_a = (prm.conj & 1) != 0, conj_b = (prm.conj & 2) != 0;
  std::mt19937_64 rng(99 + static_cast<unsigned>(prm.index));
  const Tensor A = tensor_ref::make(cs.a, cs.ext, rng, cs.pad_a), B = tensor_ref::make(cs.b, cs.ext, rng, cs.pad_b);
  const Tensor D = tensor_ref::make(cs.d, cs.ext, rng, cs.pad_d);
  std::vector<int> rev;
  for (int i = static_cast<int>(cs.d.size()) - 1; i >= 0; --i) rev.push_back(i);
  const Tensor C = cs.separate_c ? tensor_ref::make(cs.d, cs.ext, rng, 1, rev) : D;
  const auto a = complex_data(A, rng, !c64), b = complex_data(B, rng, !c64), d0 = complex_data(D, rng, !c64);
  const auto c = cs.separate_c ? complex_data(C, rng, !c64) : d0;
  // fp32 runs take the scalars as complex<float>: the reference uses the same rounded values.
  const Z alpha = c64 ? cs.alpha : Z(std::complex<float>(cs.alpha)), beta = c64 ? cs.beta : Z(std::complex<float>(cs.beta));
  const auto ref = tensor_ref::contract_complex(A, B, C, D, alpha, beta, conj_a, conj_b, a, b, c);

  ContractionSpec s;
  const DataType dt = c64 ? DataType::c64 : DataType::c32;
  s.a = {A.extents, A.strides, dt};
  s.b = {B.extents, B.strides, dt};
  s.c = {C.extents, C.strides, dt};
  s.d = {D.extents, D.strides, dt};
  s.modes_a = A.modes;
  s.modes_b = B.modes;
  s.modes_c = C.modes;
  s.modes_d = D.modes;
  s.compute = prm.compute;
  s.conj_a = conj_a;
  s.conj_b = conj_b;
  const ContractionPlan plan(s);
  SCOPED_TRACE(plan.print());
  // A conjugated operand reaches the complex GEMM as op C: op T, packed or direct.
  if (conj_a) {
    EXPECT_EQ(plan.lowering_a().op, trn::blas::Op::T);
  }
  if (conj_b) {
    EXPECT_EQ(plan.lowering_b().op, trn::blas::Op::T);
  }

  std::vector<Z> got(d0.size()), c_after;
  if (c64) {
    std::vector<Z> dbuf = d0, cbuf = c;
    plan.execute({}, alpha, a.data(), b.data(), beta, cs.separate_c ? cbuf.data() : dbuf.data(), dbuf.data(), nullptr, 0);
    got = dbuf;
    c_after = cbuf;
  } else {
    using Cf = std::complex<float>;
    std::vector<Cf> af(a.begin(), a.end()), bf(b.begin(), b.end()), cf(c.begin(), c.end()), df(d0.begin(), d0.end());
    std::vector<std::byte> ws(plan.workspace_bytes());
    plan.execute({}, alpha, af.data(), bf.data(), beta, cs.separate_c ? cf.data() : df.data(), df.data(), ws.data(), ws.size());
    got.assign(df.begin(), df.end());
    c_after.assign(cf.begin(), cf.end());
  }
  std::int64_t k = 1;
  for (auto [l, e] : cs.ext)
    if (cs.d.find(l) == std::string::npos) k *= e;
  const auto elems = tensor_ref::element_offsets(D);
  std::vector<bool> is_elem(got.size(), false);
  double worst = 0, loop_worst = 0, abs_max = 0;
  for (auto o : elems) {
    is_elem[o] = true;
    const std::complex<long double> g(got[o].real(), got[o].imag());
    const double err = static_cast<double>(std::abs(g - ref.ref[o]));
    const std::complex<long double> l(ref.loop[o].real(), ref.loop[o].imag());
    worst = std::max(worst, err);
    loop_worst = std::max(loop_worst, static_cast<double>(std::abs(l - ref.ref[o])));
    abs_max = std::max(abs_max, ref.abs[o]);
    if (!c64) {
      ASSERT_LE(err, complex_bound(prm.compute, k) * ref.abs[o] + 1e-37) << "element offset " << o;
    }
  }
  if (c64) {  // Ozaki through zgemm: within twice a plain complex<double> loop's error (+ 4 u normwise)
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

std::vector<Param> params() {
  std::vector<Param> out;
  for (int i = 0; i < static_cast<int>(complex_cases().size()); ++i) {
    for (int conj = 0; conj < 4; ++conj) out.push_back({i, ComputeType::f32, conj});
    out.push_back({i, ComputeType::f64, 0});
    out.push_back({i, ComputeType::f64, 3});
    out.push_back({i, ComputeType::tf32, 1});
    out.push_back({i, ComputeType::tf32x3, 2});
  }
  return out;
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  static const char* const kConj[4] = {"", "_conjA", "_conjB", "_conjAB"};
  return std::string(complex_cases()[static_cast<std::size_t>(info.param.index)].name) + "_C" +
         trn::tensor::compute_type_name(info.param.compute) + kConj[info.param.conj];
}

INSTANTIATE_TEST_SUITE_P(AllCases, ComplexContraction, ::testing::ValuesIn(params()), param_name);

// Conjugation really changes the result (the test above would not notice a dropped conj otherwise
// only if the reference dropped it too): conj(A) B differs from A B on complex data.
TEST(ComplexContractionConj, ConjugationIsApplied) {
  std::mt19937_64 rng(5);
  const std::map<char, std::int64_t> e{{'m', 8}, {'n', 8}, {'k', 16}};
  const Tensor A = tensor_ref::make("mk", e, rng), B = tensor_ref::make("kn", e, rng), D = tensor_ref::make("mn", e, rng);
  const auto a = complex_data(A, rng, false), b = complex_data(B, rng, false);
  std::vector<Z> plain(D.data.size()), conj(D.data.size());
  for (bool cj : {false, true}) {
    ContractionSpec s;
    s.a = {A.extents, A.strides, DataType::c64};
    s.b = {B.extents, B.strides, DataType::c64};
    s.c = s.d = {D.extents, D.strides, DataType::c64};
    s.modes_a = A.modes;
    s.modes_b = B.modes;
    s.modes_c = s.modes_d = D.modes;
    s.compute = ComputeType::f64;
    s.conj_a = cj;
    ContractionPlan(s).execute({}, 1.0, a.data(), b.data(), 0.0, nullptr, cj ? conj.data() : plain.data(), nullptr, 0);
  }
  double diff = 0;
  for (std::size_t i = 0; i < plain.size(); ++i) diff = std::max(diff, std::abs(plain[i] - conj[i]));
  EXPECT_GT(diff, 0.1);
}

TEST(ComplexContractionErrors, UnsupportedComputeAndMixedTypes) {
  ContractionSpec s;
  s.a = {{4, 4}, {}, DataType::c32};
  s.b = {{4, 4}, {}, DataType::c32};
  s.c = s.d = {{4, 4}, {}, DataType::c32};
  s.modes_a = {'m', 'k'};
  s.modes_b = {'k', 'n'};
  s.modes_c = s.modes_d = {'m', 'n'};
  for (ComputeType ct : {ComputeType::f64, ComputeType::bf16, ComputeType::f16}) {
    s.compute = ct;
    EXPECT_THROW(ContractionPlan{s}, trn::NotSupportedError) << trn::tensor::compute_type_name(ct);
  }
  s.compute = ComputeType::f32;
  s.b.dtype = DataType::f32;
  EXPECT_THROW(ContractionPlan{s}, trn::NotSupportedError);
  s.b.dtype = DataType::c32;
  const ContractionPlan p(s);
  EXPECT_THROW((void)p.estimate({}), trn::NotSupportedError);
}

// ---- through the C API (cuTENSOR's C_32F / C_64F with complex host scalars) ---------------------

class ComplexCApi : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS); }
  void TearDown() override { EXPECT_EQ(trntensorDestroy(h), TRNTENSOR_STATUS_SUCCESS); }
  trntensorTensorDescriptor_t desc(std::vector<int64_t> ext, trntensorDataType_t t) {
    trntensorTensorDescriptor_t d = nullptr;
    EXPECT_EQ(trntensorCreateTensorDescriptor(h, &d, static_cast<uint32_t>(ext.size()), ext.data(), nullptr, t, 16),
              TRNTENSOR_STATUS_SUCCESS);
    return d;
  }
  trntensorHandle_t h = nullptr;
};

// D[m, n] = alpha conj(A[k, m]) B[k, n] + beta D (C aliases D), C_32F with 32F: complex float
// scalars, SCALAR_TYPE C_32F, conj(A) with A's k mode fastest maps onto op C without packing.
TEST_F(ComplexCApi, ContractConjComplexScalars) {
  const std::map<char, std::int64_t> e{{'m', 12}, {'n', 10}, {'k', 20}};
  std::mt19937_64 rng(3);
  const Tensor A = tensor_ref::make("km", e, rng), B = tensor_ref::make("kn", e, rng), D = tensor_ref::make("mn", e, rng);
  const auto a = complex_data(A, rng, true), b = complex_data(B, rng, true), d0 = complex_data(D, rng, true);
  const std::complex<float> alpha(1.0f, 0.5f), beta(0.25f, -1.0f);
  const auto ref = tensor_ref::contract_complex(A, B, D, D, Z(alpha), Z(beta), true, false, a, b, d0);
  auto dA = desc({20, 12}, TRNTENSOR_C_32F), dB = desc({20, 10}, TRNTENSOR_C_32F), dD = desc({12, 10}, TRNTENSOR_C_32F);
  const int32_t mA[] = {'k', 'm'}, mB[] = {'k', 'n'}, mD[] = {'m', 'n'};
  trntensorOperationDescriptor_t op;
  ASSERT_EQ(trntensorCreateContraction(h, &op, dA, mA, TRNTENSOR_OP_CONJ, dB, mB, TRNTENSOR_OP_IDENTITY, dD, mD,
                                       TRNTENSOR_OP_IDENTITY, dD, mD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_SUCCESS);
  trntensorDataType_t scalar = TRNTENSOR_R_32F;
  ASSERT_EQ(trntensorOperationDescriptorGetAttribute(h, op, TRNTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE, &scalar, sizeof scalar),
            TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(scalar, TRNTENSOR_C_32F);
  trntensorPlanPreference_t pref;
  ASSERT_EQ(trntensorCreatePlanPreference(h, &pref, TRNTENSOR_ALGO_DEFAULT, TRNTENSOR_JIT_MODE_NONE), TRNTENSOR_STATUS_SUCCESS);
  uint64_t ws = 1;
  ASSERT_EQ(trntensorEstimateWorkspaceSize(h, op, pref, TRNTENSOR_WORKSPACE_DEFAULT, &ws), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(ws, 0u) << "conj(A) with A[k, m] is op C on the caller's data";
  trntensorPlan_t plan;
  ASSERT_EQ(trntensorCreatePlan(h, &plan, op, pref, ws), TRNTENSOR_STATUS_SUCCESS);
  std::vector<std::complex<float>> af(a.begin(), a.end()), bf(b.begin(), b.end()), df(d0.begin(), d0.end());
  ASSERT_EQ(trntensorContract(h, plan, &alpha, af.data(), bf.data(), &beta, df.data(), df.data(), nullptr, 0, nullptr),
            TRNTENSOR_STATUS_SUCCESS);
  for (std::size_t o = 0; o < df.size(); ++o) {
    const std::complex<long double> g(df[o].real(), df[o].imag());
    ASSERT_LE(static_cast<double>(std::abs(g - ref.ref[o])), complex_bound(ComputeType::f32, 20) * ref.abs[o]) << o;
  }
  trnProfile_t prof{};
  ASSERT_EQ(trntensorGetLastProfile(h, &prof), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_GT(prof.total_ns, 0.0);
  char text[512];
  ASSERT_EQ(trntensorPlanDescribe(h, plan, text, sizeof text), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_NE(std::string(text).find("op C"), std::string::npos) << text;
  trntensorDestroyPlan(plan);
  trntensorDestroyPlanPreference(pref);
  trntensorDestroyOperationDescriptor(op);
  for (auto d : {dA, dB, dD}) trntensorDestroyTensorDescriptor(d);
}

// C_64F reduction with conj(A) and a complex beta; C_32F permutation with conj(A): exact.
TEST_F(ComplexCApi, ReductionAndPermutation) {
  std::mt19937_64 rng(4);
  const std::map<char, std::int64_t> e{{'a', 4}, {'b', 6}, {'c', 5}};
  const Tensor A = tensor_ref::make("abc", e, rng);
  const auto a = complex_data(A, rng, false);
  const Tensor C = tensor_ref::make("ca", e, rng);
  const auto c = complex_data(C, rng, false);
  auto dA = desc({4, 6, 5}, TRNTENSOR_C_64F), dD = desc({5, 4}, TRNTENSOR_C_64F);
  const int32_t mA[] = {'a', 'b', 'c'}, mD[] = {'c', 'a'};
  trntensorOperationDescriptor_t op;
  ASSERT_EQ(trntensorCreateReduction(h, &op, dA, mA, TRNTENSOR_OP_CONJ, dD, mD, TRNTENSOR_OP_IDENTITY, dD, mD,
                                     TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_64F),
            TRNTENSOR_STATUS_SUCCESS);
  trntensorPlanPreference_t pref;
  ASSERT_EQ(trntensorCreatePlanPreference(h, &pref, TRNTENSOR_ALGO_DEFAULT, TRNTENSOR_JIT_MODE_NONE), TRNTENSOR_STATUS_SUCCESS);
  uint64_t ws = 0;
  ASSERT_EQ(trntensorEstimateWorkspaceSize(h, op, pref, TRNTENSOR_WORKSPACE_DEFAULT, &ws), TRNTENSOR_STATUS_SUCCESS);
  trntensorPlan_t plan;
  ASSERT_EQ(trntensorCreatePlan(h, &plan, op, pref, ws), TRNTENSOR_STATUS_SUCCESS);
  std::vector<double> work(ws / 8 + 2);
  std::vector<Z> d(20, Z(-9.0, 9.0)), c_before = c;
  std::vector<Z> cbuf = c;
  const Z alpha(0.5, 0.0), beta(0.0, 2.0);
  ASSERT_EQ(trntensorReduce(h, plan, &alpha, a.data(), &beta, cbuf.data(), d.data(), work.data(), ws, nullptr),
            TRNTENSOR_STATUS_SUCCESS);
  for (int ic = 0; ic < 5; ++ic)
    for (int ia = 0; ia < 4; ++ia) {
      Z sum = 0;
      double sa = 0;
      for (int ib = 0; ib < 6; ++ib) {
        sum += std::conj(a[static_cast<std::size_t>(ia + 4 * ib + 24 * ic)]);
        sa += std::abs(a[static_cast<std::size_t>(ia + 4 * ib + 24 * ic)]);
      }
      const Z ref = alpha * sum + beta * c[static_cast<std::size_t>(ic + 5 * ia)];
      EXPECT_LE(std::abs(d[static_cast<std::size_t>(ic + 5 * ia)] - ref), 1e-14 * (sa + 2.0 * std::abs(ref))) << ic << " " << ia;
    }
  EXPECT_EQ(cbuf, c_before);
  trntensorDestroyPlan(plan);
  trntensorDestroyOperationDescriptor(op);
  // B[c, a, b] = conj(A[a, b, c]) in C_32F: bit for bit.
  auto fA = desc({4, 6, 5}, TRNTENSOR_C_32F), fP = desc({5, 4, 6}, TRNTENSOR_C_32F);
  const int32_t mP[] = {'c', 'a', 'b'};
  ASSERT_EQ(trntensorCreatePermutation(h, &op, fA, mA, TRNTENSOR_OP_CONJ, fP, mP, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorCreatePlan(h, &plan, op, pref, 0), TRNTENSOR_STATUS_SUCCESS);
  std::vector<std::complex<float>> af(a.begin(), a.end()), p(120);
  const std::complex<float> one(1.0f, 0.0f);
  ASSERT_EQ(trntensorPermute(h, plan, &one, af.data(), p.data(), nullptr), TRNTENSOR_STATUS_SUCCESS);
  for (int ia = 0; ia < 4; ++ia)
    for (int ib = 0; ib < 6; ++ib)
      for (int ic = 0; ic < 5; ++ic)
        ASSERT_EQ(p[static_cast<std::size_t>(ic + 5 * ia + 20 * ib)], std::conj(af[static_cast<std::size_t>(ia + 4 * ib + 24 * ic)]));
  trntensorDestroyPlan(plan);
  trntensorDestroyPlanPreference(pref);
  trntensorDestroyOperationDescriptor(op);
  for (auto d2 : {dA, dD, fA, fP}) trntensorDestroyTensorDescriptor(d2);
}

// Complex einsum (C_64F, NumPy row-major views): 'ij,jk->ik' against a loop.
TEST_F(ComplexCApi, Einsum) {
  std::mt19937_64 rng(6);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Z> x(6 * 7), y(7 * 5), out(6 * 5, Z(0, 0));
  for (Z& v : x) v = Z(u(rng), u(rng));
  for (Z& v : y) v = Z(u(rng), u(rng));
  const int64_t sx[] = {6, 7}, sy[] = {7, 5}, so[] = {6, 5};
  const trntensorEinsumOperand_t in[2] = {{x.data(), 2, sx, nullptr}, {y.data(), 2, sy, nullptr}};
  ASSERT_EQ(trntensorEinsum(h, "ij,jk->ik", 2, in, out.data(), 2, so, nullptr, TRNTENSOR_C_64F, TRNTENSOR_COMPUTE_DESC_64F,
                            TRNTENSOR_EINSUM_PATH_AUTO),
            TRNTENSOR_STATUS_SUCCESS);
  for (int i = 0; i < 6; ++i)
    for (int k = 0; k < 5; ++k) {
      Z r = 0;
      for (int j = 0; j < 7; ++j) r += x[static_cast<std::size_t>(i * 7 + j)] * y[static_cast<std::size_t>(j * 5 + k)];
      EXPECT_LE(std::abs(out[static_cast<std::size_t>(i * 5 + k)] - r), 1e-14) << i << " " << k;
    }
  // A single operand (trace 'ii->' in C_32F): contracted with the scalar 1 + 0i, exact here (small integers).
  std::vector<std::complex<float>> sq(16);
  for (int i = 0; i < 16; ++i) sq[static_cast<std::size_t>(i)] = {static_cast<float>(i), static_cast<float>(-2 * i)};
  const int64_t s44[] = {4, 4};
  const trntensorEinsumOperand_t one[1] = {{sq.data(), 2, s44, nullptr}};
  std::complex<float> trace(9.0f, 9.0f);
  ASSERT_EQ(trntensorEinsum(h, "ii->", 1, one, &trace, 0, nullptr, nullptr, TRNTENSOR_C_32F, TRNTENSOR_COMPUTE_DESC_32F,
                            TRNTENSOR_EINSUM_PATH_AUTO),
            TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(trace, std::complex<float>(0.0f + 5.0f + 10.0f + 15.0f, -2.0f * 30.0f));
  // C_32F data with the 64F compute descriptor: NOT_SUPPORTED, output untouched.
  std::vector<std::complex<float>> xf(x.begin(), x.end()), yf(y.begin(), y.end()), of(30, {7.0f, 7.0f});
  const trntensorEinsumOperand_t inf[2] = {{xf.data(), 2, sx, nullptr}, {yf.data(), 2, sy, nullptr}};
  EXPECT_EQ(trntensorEinsum(h, "ij,jk->ik", 2, inf, of.data(), 2, so, nullptr, TRNTENSOR_C_32F, TRNTENSOR_COMPUTE_DESC_64F,
                            TRNTENSOR_EINSUM_PATH_AUTO),
            TRNTENSOR_STATUS_NOT_SUPPORTED);
  for (const auto& v : of) ASSERT_EQ(v, std::complex<float>(7.0f, 7.0f));
}

TEST_F(ComplexCApi, BadInput) {
  auto c32 = desc({4, 4}, TRNTENSOR_C_32F), r32 = desc({4, 4}, TRNTENSOR_R_32F);
  const int32_t mA[] = {'m', 'k'}, mB[] = {'k', 'n'}, mD[] = {'m', 'n'};
  trntensorOperationDescriptor_t op = nullptr;
  // C_32F with 64F, 16BF: NOT_SUPPORTED (cuTENSOR's table: 32F, TF32, 3XTF32).
  for (auto cd : {TRNTENSOR_COMPUTE_DESC_64F, TRNTENSOR_COMPUTE_DESC_16BF})
    EXPECT_EQ(trntensorCreateContraction(h, &op, c32, mA, TRNTENSOR_OP_IDENTITY, c32, mB, TRNTENSOR_OP_IDENTITY, c32, mD,
                                         TRNTENSOR_OP_IDENTITY, c32, mD, cd),
              TRNTENSOR_STATUS_NOT_SUPPORTED);
  // Mixed complex and real operands.
  EXPECT_EQ(trntensorCreateContraction(h, &op, c32, mA, TRNTENSOR_OP_IDENTITY, r32, mB, TRNTENSOR_OP_IDENTITY, c32, mD,
                                       TRNTENSOR_OP_IDENTITY, c32, mD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_NOT_SUPPORTED);
  // opC CONJ on complex C: NOT_SUPPORTED; an operator other than IDENTITY / CONJ: INVALID_VALUE.
  EXPECT_EQ(trntensorCreateContraction(h, &op, c32, mA, TRNTENSOR_OP_IDENTITY, c32, mB, TRNTENSOR_OP_IDENTITY, c32, mD,
                                       TRNTENSOR_OP_CONJ, c32, mD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(trntensorCreateContraction(h, &op, c32, mA, TRNTENSOR_OP_NEG, c32, mB, TRNTENSOR_OP_IDENTITY, c32, mD,
                                       TRNTENSOR_OP_IDENTITY, c32, mD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(op, nullptr);
  // Element-wise operations on complex data: NOT_SUPPORTED.
  EXPECT_EQ(trntensorCreateElementwiseBinary(h, &op, c32, mD, TRNTENSOR_OP_IDENTITY, c32, mD, TRNTENSOR_OP_IDENTITY, c32,
                                             mD, TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_NOT_SUPPORTED);
  // Other complex types (C_16F) remain NOT_SUPPORTED.
  trntensorTensorDescriptor_t d16 = nullptr;
  const int64_t ext[] = {4};
  EXPECT_EQ(trntensorCreateTensorDescriptor(h, &d16, 1, ext, nullptr, TRNTENSOR_C_16F, 16), TRNTENSOR_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(d16, nullptr);
  trntensorDestroyTensorDescriptor(c32);
  trntensorDestroyTensorDescriptor(r32);
}

}  // namespace
