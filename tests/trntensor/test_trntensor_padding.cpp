// trntensorPermute with cuTENSOR's OPERATION_DESCRIPTOR_PADDING_LEFT/RIGHT/VALUE (docs/trntensor.md
// "Padding"): every output element against a host loop (padding value outside, A's values moved bit
// for bit inside), a packed B (laid out over the padded extents) and a strided one (its strides
// address the padded tensor), alpha scaling; attribute checks by position, NOT_SUPPORTED on other
// operations, nothing written on error.
#include <gtest/gtest.h>

#include <cstdint>
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
