// trntensorPermute with cuTENSOR's OPERATION_DESCRIPTOR_PADDING_LEFT/RIGHT/VALUE (docs/trntensor.md
// "Padding"): every output element against a host loop (padding value outside, A's values moved bit
// for bit inside), a packed B (laid out over the padded extents) and a strided one (its strides
// address the padded tensor), alpha scaling; attribute checks by position, NOT_SUPPORTED on other
// operations, nothing written on error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "trntensor.h"

namespace {

struct Padded : ::testing::Test {
  void SetUp() override { ASSERT_EQ(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS); }
  void TearDown() override { trntensorDestroy(h); }
  trntensorHandle_t h = nullptr;
};

// B_{c, a, b} = alpha A_{a, b, c} with left/right padding per mode of B.
void padded_case(trntensorHandle_t h, bool strided, float alpha) {
  const int64_t na = 5, nb = 3, nc = 4;
  const int32_t left[3] = {2, 0, 1}, right[3] = {1, 3, 0};
  const int64_t pc = nc + 3, pa = na + 3, pb = nb + 1;  // padded extents of B (modes c, a, b)
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  std::vector<float> A(static_cast<std::size_t>(na * nb * nc));
  for (float& x : A) x = u(rng);
  const int64_t eA[3] = {na, nb, nc}, eB[3] = {nc, na, nb};
  // Strided: a gap after every c-row and every (c, a) plane (the strides address the padded tensor).
  const int64_t sB[3] = {1, pc + 2, (pc + 2) * pa + 5};
  const int64_t s0 = strided ? sB[0] : 1, s1 = strided ? sB[1] : pc, s2 = strided ? sB[2] : pc * pa;
  const std::size_t span = static_cast<std::size_t>(s2 * pb + 3);
  trntensorTensorDescriptor_t dA, dB;
  ASSERT_EQ(trntensorCreateTensorDescriptor(h, &dA, 3, eA, nullptr, TRN_R_32F, 128), TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorCreateTensorDescriptor(h, &dB, 3, eB, strided ? sB : nullptr, TRN_R_32F, 128), TRNTENSOR_STATUS_SUCCESS);
  const int32_t mA[3] = {'a', 'b', 'c'}, mB[3] = {'c', 'a', 'b'};
  trntensorOperationDescriptor_t op;
  ASSERT_EQ(trntensorCreatePermutation(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dB, mB, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_SUCCESS);
  const float value = -7.5f;
  ASSERT_EQ(trntensorOperationDescriptorSetAttribute(h, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT, left, 12),
            TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorOperationDescriptorSetAttribute(h, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_RIGHT, right, 12),
            TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorOperationDescriptorSetAttribute(h, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE, &value, 4),
            TRNTENSOR_STATUS_SUCCESS);
  int32_t back[3] = {};
  float vback = 0;
  ASSERT_EQ(trntensorOperationDescriptorGetAttribute(h, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_RIGHT, back, 12),
            TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(std::vector<int32_t>(back, back + 3), std::vector<int32_t>(right, right + 3));
  ASSERT_EQ(trntensorOperationDescriptorGetAttribute(h, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE, &vback, 4),
            TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(vback, value);
  trntensorPlan_t plan;
  ASSERT_EQ(trntensorCreatePlan(h, &plan, op, nullptr, 0), TRNTENSOR_STATUS_SUCCESS);
  std::vector<float> B(span, 123.0f);
  ASSERT_EQ(trntensorPermute(h, plan, &alpha, A.data(), B.data(), nullptr), TRNTENSOR_STATUS_SUCCESS);
  std::vector<char> hit(span, 0);
  for (int64_t ib = 0; ib < pb; ++ib)
    for (int64_t ia = 0; ia < pa; ++ia)
      for (int64_t ic = 0; ic < pc; ++ic) {
        const std::size_t o = static_cast<std::size_t>(ic * s0 + ia * s1 + ib * s2);
        hit[o] = 1;
        const int64_t c = ic - left[0], a = ia - left[1], b = ib - left[2];
        if (c < 0 || c >= nc || a < 0 || a >= na || b < 0 || b >= nb) {
          ASSERT_EQ(B[o], value) << ic << " " << ia << " " << ib;
        } else {
          ASSERT_EQ(B[o], alpha * A[static_cast<std::size_t>(a + na * (b + nb * c))]) << ic << " " << ia << " " << ib;
        }
      }
  for (std::size_t o = 0; o < span; ++o)
    if (hit[o] == 0) {
      ASSERT_EQ(B[o], 123.0f) << "gap written at " << o;
    }
  trntensorDestroyPlan(plan);
  trntensorDestroyOperationDescriptor(op);
  trntensorDestroyTensorDescriptor(dA);
  trntensorDestroyTensorDescriptor(dB);
}

TEST_F(Padded, PackedOutputOverThePaddedExtents) { padded_case(h, false, 1.0f); }
TEST_F(Padded, StridedOutputAndAlpha) { padded_case(h, true, 0.5f); }

TEST_F(Padded, AttributeChecks) {
  const int64_t e[2] = {3, 4};
  trntensorTensorDescriptor_t d;
  ASSERT_EQ(trntensorCreateTensorDescriptor(h, &d, 2, e, nullptr, TRN_R_32F, 128), TRNTENSOR_STATUS_SUCCESS);
  const int32_t m[2] = {'i', 'j'}, mt[2] = {'j', 'i'};
  const int64_t et[2] = {4, 3};
  trntensorTensorDescriptor_t dt;
  ASSERT_EQ(trntensorCreateTensorDescriptor(h, &dt, 2, et, nullptr, TRN_R_32F, 128), TRNTENSOR_STATUS_SUCCESS);
  trntensorOperationDescriptor_t perm, binary;
  ASSERT_EQ(trntensorCreatePermutation(h, &perm, d, m, TRNTENSOR_OP_IDENTITY, dt, mt, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorCreateElementwiseBinary(h, &binary, d, m, TRNTENSOR_OP_IDENTITY, d, m, TRNTENSOR_OP_IDENTITY, d, m,
                                             TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_SUCCESS);
  const int32_t pad[2] = {1, 1}, neg[2] = {1, -1};
  const auto pos = [&](trntensorStatus_t st, int p) {
    EXPECT_EQ(st, TRNTENSOR_STATUS_INVALID_VALUE);
    int32_t got = 0;
    ASSERT_EQ(trntensorGetLastErrorParameter(h, &got), TRNTENSOR_STATUS_SUCCESS);
    EXPECT_EQ(got, p);
  };
  pos(trntensorOperationDescriptorSetAttribute(h, perm, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT, pad, 4), 4);
  pos(trntensorOperationDescriptorSetAttribute(h, perm, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT, neg, 8), 3);
  pos(trntensorOperationDescriptorSetAttribute(h, perm, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE, pad, 8), 4);
  pos(trntensorOperationDescriptorSetAttribute(h, perm, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT, nullptr, 8), 3);
  pos(trntensorOperationDescriptorSetAttribute(h, perm, static_cast<trntensorOperationDescriptorAttribute_t>(7), pad, 8), 2);
  int32_t got[2] = {9, 9};
  ASSERT_EQ(trntensorOperationDescriptorGetAttribute(h, perm, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT, got, 8),
            TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(got[0], 0);  // the rejected calls changed nothing
  EXPECT_EQ(got[1], 0);
  EXPECT_EQ(trntensorOperationDescriptorSetAttribute(h, binary, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT, pad, 8),
            TRNTENSOR_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(trntensorOperationDescriptorGetAttribute(h, binary, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT, got, 8),
            TRNTENSOR_STATUS_NOT_SUPPORTED);
  // A padded permutation with bad execute arguments writes nothing.
  ASSERT_EQ(trntensorOperationDescriptorSetAttribute(h, perm, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT, pad, 8),
            TRNTENSOR_STATUS_SUCCESS);
  trntensorPlan_t plan;
  ASSERT_EQ(trntensorCreatePlan(h, &plan, perm, nullptr, 0), TRNTENSOR_STATUS_SUCCESS);
  std::vector<float> A(12, 1.0f), B(30, 5.0f);
  EXPECT_EQ(trntensorPermute(h, plan, nullptr, A.data(), B.data(), nullptr), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorPermute(h, plan, A.data(), nullptr, B.data(), nullptr), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(B, std::vector<float>(30, 5.0f));
  const float one = 1.0f;
  ASSERT_EQ(trntensorPermute(h, plan, &one, A.data(), B.data(), nullptr), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(B[0], 0.0f);  // the default PADDING_VALUE is zero
  EXPECT_EQ(B[6], 1.0f);  // (1, 1) of the 5 x 4 padded B
  trntensorDestroyPlan(plan);
  trntensorDestroyOperationDescriptor(perm);
  trntensorDestroyOperationDescriptor(binary);
  trntensorDestroyTensorDescriptor(d);
  trntensorDestroyTensorDescriptor(dt);
}

}  // namespace

// ---- unary operators -------------------------------------------------------------------------------

namespace {

struct UnaryCase {
  trntensorOperator_t op;
  const char* name;
  double lo, hi;        // sampled domain
  double (*ref)(double);
  double bound;         // max |got - ref| / max(|ref|, floor), in units of 2^-24
  double floor;         // absolute-error scale where ref is near 0
};

double relu_d(double x) { return x > 0 ? x : 0.0; }
double rcp_d(double x) { return 1.0 / x; }
double sigmoid_d(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double neg_d(double x) { return -x; }
double mish_d(double x) { return x * std::tanh(std::log1p(std::exp(x))); }
double swish_d(double x) { return x * sigmoid_d(x); }
double softplus_d(double x) { return std::log1p(std::exp(x)); }
double softsign_d(double x) { return x / (1.0 + std::fabs(x)); }
double identity_d(double x) { return x; }

// Every operator as a permutation B_{j,i} = op(A_{i,j}) over its domain, against libm in double:
// the measured bounds are the documented ones (docs/trntensor.md "Unary operators").
TEST_F(Padded, UnaryOperatorsAgainstLibm) {
  const UnaryCase cases[] = {
      {TRNTENSOR_OP_IDENTITY, "IDENTITY", -10, 10, identity_d, 0, 1e-30},
      {TRNTENSOR_OP_CONJ, "CONJ", -10, 10, identity_d, 0, 1e-30},
      {TRNTENSOR_OP_SQRT, "SQRT", 1e-6, 1e6, std::sqrt, 0.5, 1e-30},
      {TRNTENSOR_OP_RELU, "RELU", -10, 10, relu_d, 0, 1e-30},
      {TRNTENSOR_OP_RCP, "RCP", 0.01, 100, rcp_d, 0.5, 1e-30},
      {TRNTENSOR_OP_SIGMOID, "SIGMOID", -20, 20, sigmoid_d, 1, 1e-30},
      {TRNTENSOR_OP_TANH, "TANH", -10, 10, std::tanh, 1, 1e-30},
      {TRNTENSOR_OP_EXP, "EXP", -80, 80, std::exp, 1, 1e-30},
      {TRNTENSOR_OP_LOG, "LOG", 1e-6, 1e6, std::log, 1, 1e-30},
      {TRNTENSOR_OP_ABS, "ABS", -10, 10, std::fabs, 0, 1e-30},
      {TRNTENSOR_OP_NEG, "NEG", -10, 10, neg_d, 0, 1e-30},
      {TRNTENSOR_OP_SIN, "SIN", -100, 100, std::sin, 4, 1},
      {TRNTENSOR_OP_COS, "COS", -100, 100, std::cos, 64, 1},
      {TRNTENSOR_OP_TAN, "TAN", -1.4, 1.4, std::tan, 32, 1},
      {TRNTENSOR_OP_SINH, "SINH", -20, 20, std::sinh, 4, 1},
      {TRNTENSOR_OP_COSH, "COSH", -20, 20, std::cosh, 4, 1e-30},
      {TRNTENSOR_OP_ASIN, "ASIN", -1, 1, std::asin, 4, 1},
      {TRNTENSOR_OP_ACOS, "ACOS", -1, 1, std::acos, 4, 1},
      {TRNTENSOR_OP_ATAN, "ATAN", -50, 50, std::atan, 4, 1},
      {TRNTENSOR_OP_ASINH, "ASINH", -1000, 1000, std::asinh, 4, 1},
      {TRNTENSOR_OP_ACOSH, "ACOSH", 1.5, 1000, std::acosh, 4, 1e-30},
      {TRNTENSOR_OP_ATANH, "ATANH", -0.99, 0.99, std::atanh, 4, 1},
      {TRNTENSOR_OP_CEIL, "CEIL", -2e7, 2e7, std::ceil, 0, 1e-30},
      {TRNTENSOR_OP_FLOOR, "FLOOR", -3e6, 3e6, std::floor, 0, 1e-30},
      {TRNTENSOR_OP_MISH, "MISH", -20, 20, mish_d, 4, 1},
      {TRNTENSOR_OP_SWISH, "SWISH", -20, 20, swish_d, 2, 1},
      {TRNTENSOR_OP_SOFT_PLUS, "SOFT_PLUS", -20, 20, softplus_d, 1, 1e-30},
      {TRNTENSOR_OP_SOFT_SIGN, "SOFT_SIGN", -100, 100, softsign_d, 1, 1e-30},
  };
  const int64_t ni = 37, nj = 29;  // 1073 values: two row blocks of the kernel
  const int64_t eA[2] = {ni, nj}, eB[2] = {nj, ni};
  trntensorTensorDescriptor_t dA, dB;
  ASSERT_EQ(trntensorCreateTensorDescriptor(h, &dA, 2, eA, nullptr, TRN_R_32F, 128), TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorCreateTensorDescriptor(h, &dB, 2, eB, nullptr, TRN_R_32F, 128), TRNTENSOR_STATUS_SUCCESS);
  const int32_t mA[2] = {'i', 'j'}, mB[2] = {'j', 'i'};
  for (const UnaryCase& c : cases) {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(c.lo, c.hi);
    std::vector<float> A(static_cast<std::size_t>(ni * nj)), B(A.size(), 0.0f);
    for (float& x : A) x = static_cast<float>(u(rng));
    A[0] = static_cast<float>(c.lo);
    A[1] = static_cast<float>(c.hi);
    trntensorOperationDescriptor_t op;
    ASSERT_EQ(trntensorCreatePermutation(h, &op, dA, mA, c.op, dB, mB, TRNTENSOR_COMPUTE_DESC_32F), TRNTENSOR_STATUS_SUCCESS)
        << c.name;
    trntensorPlan_t plan;
    ASSERT_EQ(trntensorCreatePlan(h, &plan, op, nullptr, 0), TRNTENSOR_STATUS_SUCCESS);
    const float alpha = 1.0f;
    ASSERT_EQ(trntensorPermute(h, plan, &alpha, A.data(), B.data(), nullptr), TRNTENSOR_STATUS_SUCCESS) << c.name;
    double worst = 0;
    for (int64_t j = 0; j < nj; ++j)
      for (int64_t i = 0; i < ni; ++i) {
        const double x = A[static_cast<std::size_t>(i + ni * j)], want = c.ref(x);
        const double got = B[static_cast<std::size_t>(j + nj * i)];
        const double err = std::fabs(got - want) / std::max(std::fabs(want), c.floor) / 0x1p-24;
        ASSERT_FALSE(std::isnan(got)) << c.name << " x " << x;
        worst = std::max(worst, err);
      }
    std::printf("%-10s max error %.3g (units of 2^-24, relative; absolute below |ref| %.3g)\n", c.name, worst, c.floor);
    EXPECT_LE(worst, c.bound + 0.5) << c.name;
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(op);
  }
  trntensorDestroyTensorDescriptor(dA);
  trntensorDestroyTensorDescriptor(dB);
}

// Element-wise binary and trinary with unary operators: each output equals the same fp32 steps
// (the op, then the scaling, then the combination) done by the same instruction sequence through a
// permutation; operators the contraction path does not take are refused there.
TEST_F(Padded, ElementwiseBinaryAppliesOperatorsBeforeScaling) {
  const int64_t n = 300;
  const int64_t e[1] = {n};
  trntensorTensorDescriptor_t d;
  ASSERT_EQ(trntensorCreateTensorDescriptor(h, &d, 1, e, nullptr, TRN_R_32F, 128), TRNTENSOR_STATUS_SUCCESS);
  const int32_t m[1] = {'i'};
  std::vector<float> A(n), C(n), D(n), sa(n), ec(n);
  for (int64_t i = 0; i < n; ++i) {
    A[static_cast<std::size_t>(i)] = 0.01f + 0.37f * static_cast<float>(i);
    C[static_cast<std::size_t>(i)] = -3.0f + 0.02f * static_cast<float>(i);
  }
  const auto unary = [&](trntensorOperator_t o, const std::vector<float>& in, std::vector<float>& out) {
    trntensorOperationDescriptor_t op;
    ASSERT_EQ(trntensorCreatePermutation(h, &op, d, m, o, d, m, TRNTENSOR_COMPUTE_DESC_32F), TRNTENSOR_STATUS_SUCCESS);
    trntensorPlan_t plan;
    ASSERT_EQ(trntensorCreatePlan(h, &plan, op, nullptr, 0), TRNTENSOR_STATUS_SUCCESS);
    const float one = 1.0f;
    ASSERT_EQ(trntensorPermute(h, plan, &one, in.data(), out.data(), nullptr), TRNTENSOR_STATUS_SUCCESS);
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(op);
  };
  unary(TRNTENSOR_OP_SQRT, A, sa);
  unary(TRNTENSOR_OP_EXP, C, ec);
  trntensorOperationDescriptor_t op;
  ASSERT_EQ(trntensorCreateElementwiseBinary(h, &op, d, m, TRNTENSOR_OP_SQRT, d, m, TRNTENSOR_OP_EXP, d, m,
                                             TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_SUCCESS);
  trntensorPlan_t plan;
  ASSERT_EQ(trntensorCreatePlan(h, &plan, op, nullptr, 0), TRNTENSOR_STATUS_SUCCESS);
  const float alpha = 1.5f, gamma = -0.25f;
  ASSERT_EQ(trntensorElementwiseBinaryExecute(h, plan, &alpha, A.data(), &gamma, C.data(), D.data(), nullptr),
            TRNTENSOR_STATUS_SUCCESS);
  for (int64_t i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    ASSERT_EQ(D[k], alpha * sa[k] + gamma * ec[k]) << i;
  }
  // A contraction takes IDENTITY / CONJ only: SQRT is illegal there (position of opA).
  trntensorOperationDescriptor_t bad = nullptr;
  EXPECT_EQ(trntensorCreateContraction(h, &bad, d, m, TRNTENSOR_OP_SQRT, d, m, TRNTENSOR_OP_IDENTITY, d, nullptr,
                                       TRNTENSOR_OP_IDENTITY, d, nullptr, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(bad, nullptr);
  // An unknown operator value is illegal everywhere.
  EXPECT_EQ(trntensorCreatePermutation(h, &bad, d, m, static_cast<trntensorOperator_t>(13), d, m,
                                       TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  trntensorDestroyPlan(plan);
  trntensorDestroyOperationDescriptor(op);
  trntensorDestroyTensorDescriptor(d);
}

}  // namespace
