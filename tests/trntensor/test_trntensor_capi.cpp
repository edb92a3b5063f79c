// trntensor.h: cuTENSOR 2.x enum values, the ported contraction sample (compiled as C) against an
// FP64 loop, 64F through the pipeline, bad input (status, logged message naming the mode or
// parameter, outputs untouched), workspace checks, einsum through the C API, the last profile.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "tensor_reference.hpp"
#include "trntensor.h"

extern "C" int trntensor_c_sample(const float* A, const float* B, float* C, const int64_t* ext, float alpha, float beta);
extern "C" int trntensor_c_out_of_range_enums(int* statuses);

namespace {

static_assert(TRNTENSOR_STATUS_INVALID_VALUE == 7 && TRNTENSOR_STATUS_NOT_SUPPORTED == 15 &&
              TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE == 19 && TRNTENSOR_STATUS_NOT_INITIALIZED == 1);
static_assert(TRNTENSOR_R_32F == 0 && TRNTENSOR_R_64F == 1 && TRNTENSOR_R_16F == 2 && TRNTENSOR_R_16BF == 14 &&
              TRNTENSOR_C_32F == 4 && TRNTENSOR_C_64F == 5);
static_assert(TRNTENSOR_OP_IDENTITY == 1 && TRNTENSOR_ALGO_DEFAULT == -1 && TRNTENSOR_ALGO_TTGT == -2 &&
              TRNTENSOR_ALGO_TGETT == -3 && TRNTENSOR_ALGO_GETT == -4 && TRNTENSOR_WORKSPACE_MIN == 1 &&
              TRNTENSOR_WORKSPACE_DEFAULT == 2 && TRNTENSOR_WORKSPACE_MAX == 3 && TRNTENSOR_JIT_MODE_NONE == 0 &&
              TRNTENSOR_PLAN_REQUIRED_WORKSPACE == 0);

// Captures log lines.
std::mutex g_mu;
std::vector<std::string> g_lines;
void capture(int32_t, const char*, const char* msg) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_lines.emplace_back(msg);
}
std::string last_line() {
  std::lock_guard<std::mutex> lock(g_mu);
  return g_lines.empty() ? std::string() : g_lines.back();
}

class CApi : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(trntensorLoggerSetCallback(capture), TRNTENSOR_STATUS_SUCCESS);
    ASSERT_EQ(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(trntensorDestroy(h), TRNTENSOR_STATUS_SUCCESS);
    trntensorLoggerSetCallback(nullptr);
  }
  trntensorTensorDescriptor_t desc(std::vector<int64_t> ext, const int64_t* strides = nullptr,
                                   trntensorDataType_t t = TRNTENSOR_R_32F) {
    trntensorTensorDescriptor_t d = nullptr;
    EXPECT_EQ(trntensorCreateTensorDescriptor(h, &d, static_cast<uint32_t>(ext.size()), ext.data(), strides, t, 16),
              TRNTENSOR_STATUS_SUCCESS);
    return d;
  }
  trntensorHandle_t h = nullptr;
};

// The project's C99 contraction program (trntensor_c_sample.c): D[i,b,j] = alpha A[i,k,b,l] B[l,j,k]
// + beta C[i,b,j] against the FP64 loop within (k + 4) u of the terms' |.|-sum (k = 12).
TEST_F(CApi, CProgramContractionMatchesFp64Loop) {
  const std::map<char, std::int64_t> e{{'i', 6}, {'b', 5}, {'j', 4}, {'k', 3}, {'l', 4}};
  std::mt19937_64 rng(11);
  const auto A = tensor_ref::make("ikbl", e, rng), B = tensor_ref::make("ljk", e, rng), C = tensor_ref::make("ibj", e, rng);
  const auto a = tensor_ref::round_to_float(A.data), b = tensor_ref::round_to_float(B.data), c = tensor_ref::round_to_float(C.data);
  const float alpha = 1.1f, beta = -0.75f;
  const auto ref = tensor_ref::contract(A, B, C, C, alpha, beta, a, b, c);
  auto af = tensor_ref::to_float(a), bf = tensor_ref::to_float(b), cf = tensor_ref::to_float(c);
  const int64_t ext[5] = {6, 5, 4, 3, 4};
  ASSERT_EQ(trntensor_c_sample(af.data(), bf.data(), cf.data(), ext, alpha, beta), 0);
  for (std::size_t i = 0; i < cf.size(); ++i)
    ASSERT_LE(std::fabs(cf[i] - static_cast<double>(ref.ref[i])), (12 + 4) * std::ldexp(1.0, -24) * ref.abs[i] + 1e-30) << i;
  int st[3];
  ASSERT_EQ(trntensor_c_out_of_range_enums(st), 3);
  EXPECT_EQ(st[0], TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(st[1], TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(st[2], TRNTENSOR_STATUS_INVALID_VALUE);
}

// A contraction through the pipeline: D = alpha A B + beta C with separate C, 64F, profile.
TEST_F(CApi, Pipeline64FSeparateCAndProfile) {
  const std::map<char, std::int64_t> e{{'a', 5}, {'b', 4}, {'c', 9}, {'d', 3}};
  std::mt19937_64 rng(3);
  const auto A = tensor_ref::make("abc", e, rng), B = tensor_ref::make("cd", e, rng), D = tensor_ref::make("dba", e, rng);
  const auto C = tensor_ref::make("dba", e, rng);
  const double alpha = 0.5, beta = -2.0;
  const auto ref = tensor_ref::contract(A, B, C, D, alpha, beta, A.data, B.data, C.data);
  const int32_t mA[] = {'a', 'b', 'c'}, mB[] = {'c', 'd'}, mD[] = {'d', 'b', 'a'};
  auto dA = desc({5, 4, 9}, nullptr, TRNTENSOR_R_64F), dB = desc({9, 3}, nullptr, TRNTENSOR_R_64F),
       dD = desc({3, 4, 5}, nullptr, TRNTENSOR_R_64F);
  trntensorOperationDescriptor_t op;
  ASSERT_EQ(trntensorCreateContraction(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dB, mB, TRNTENSOR_OP_IDENTITY, dD, mD,
                                       TRNTENSOR_OP_IDENTITY, dD, mD, TRNTENSOR_COMPUTE_DESC_64F),
            TRNTENSOR_STATUS_SUCCESS);
  float flops = 0;
  ASSERT_EQ(trntensorOperationDescriptorGetAttribute(h, op, TRNTENSOR_OPERATION_DESCRIPTOR_FLOPS, &flops, sizeof flops),
            TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(flops, 2.0f * 5 * 4 * 9 * 3);
  trntensorPlanPreference_t pref;
  ASSERT_EQ(trntensorCreatePlanPreference(h, &pref, TRNTENSOR_ALGO_DEFAULT, TRNTENSOR_JIT_MODE_NONE), TRNTENSOR_STATUS_SUCCESS);
  uint64_t ws = 0;
  ASSERT_EQ(trntensorEstimateWorkspaceSize(h, op, pref, TRNTENSOR_WORKSPACE_MIN, &ws), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_GT(ws, 0U);  // permuted output: TTGT
  trntensorPlan_t plan;
  EXPECT_EQ(trntensorCreatePlan(h, &plan, op, pref, ws - 1), TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE);
  ASSERT_EQ(trntensorCreatePlan(h, &plan, op, pref, ws), TRNTENSOR_STATUS_SUCCESS);
  char text[512];
  ASSERT_EQ(trntensorPlanDescribe(h, plan, text, sizeof text), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_NE(std::string(text).find("TTGT"), std::string::npos) << text;
  std::vector<double> d = D.data, c = C.data;
  std::vector<double> work(ws / 8 + 2);
  ASSERT_EQ(trntensorContract(h, plan, &alpha, A.data.data(), B.data.data(), &beta, c.data(), d.data(), work.data(), ws, nullptr),
            TRNTENSOR_STATUS_SUCCESS);
  for (std::size_t i = 0; i < d.size(); ++i) {
    ASSERT_LE(std::fabs(d[i] - static_cast<double>(ref.ref[i])), 4 * std::ldexp(1.0, -53) * 40 * ref.abs[i] + 1e-300);
    ASSERT_EQ(c[i], C.data[i]);  // C untouched
  }
  trnProfile_t prof;
  ASSERT_EQ(trntensorGetLastProfile(h, &prof), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_GT(prof.total_ns, 0.0);
  EXPECT_GT(prof.busy_ns[TRN_ENGINE_TENSOR], 0.0);
  EXPECT_EQ(trntensorDestroyPlan(plan), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(trntensorDestroyPlanPreference(pref), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(trntensorDestroyOperationDescriptor(op), TRNTENSOR_STATUS_SUCCESS);
  for (auto x : {dA, dB, dD}) EXPECT_EQ(trntensorDestroyTensorDescriptor(x), TRNTENSOR_STATUS_SUCCESS);
}

TEST_F(CApi, BadContractionsNameTheModeAndWriteNothing) {
  auto dA = desc({4, 5}), dB = desc({5, 6}), dD = desc({4, 6}), dB7 = desc({7, 6});
  trntensorOperationDescriptor_t op = nullptr;
  const int32_t mA[] = {'m', 'k'}, mB[] = {'k', 'n'}, mD[] = {'m', 'n'}, mX[] = {'m', 'x'};
  // Mode of D in neither input.
  EXPECT_EQ(trntensorCreateContraction(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dB, mB, TRNTENSOR_OP_IDENTITY, dD, mX,
                                       TRNTENSOR_OP_IDENTITY, dD, mX, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_NE(last_line().find("'x'"), std::string::npos) << last_line();
  EXPECT_EQ(op, nullptr);
  // Extent mismatch of k.
  EXPECT_EQ(trntensorCreateContraction(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dB7, mB, TRNTENSOR_OP_IDENTITY, dD, mD,
                                       TRNTENSOR_OP_IDENTITY, dD, mD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_NE(last_line().find("'k'"), std::string::npos) << last_line();
  // Repeated mode.
  const int32_t mKK[] = {'k', 'k'};
  EXPECT_EQ(trntensorCreateContraction(h, &op, dA, mKK, TRNTENSOR_OP_IDENTITY, dB, mB, TRNTENSOR_OP_IDENTITY, dD, mD,
                                       TRNTENSOR_OP_IDENTITY, dD, mD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  // NULL modes, unsupported operator, bad compute descriptor, wrong compute for the data type.
  EXPECT_EQ(trntensorCreateContraction(h, &op, dA, nullptr, TRNTENSOR_OP_IDENTITY, dB, mB, TRNTENSOR_OP_IDENTITY, dD, mD,
                                       TRNTENSOR_OP_IDENTITY, dD, mD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_NE(last_line().find("parameter number 3 (modeA)"), std::string::npos) << last_line();
  EXPECT_EQ(trntensorCreateContraction(h, &op, dA, mA, TRNTENSOR_OP_RELU, dB, mB, TRNTENSOR_OP_IDENTITY, dD, mD,
                                       TRNTENSOR_OP_IDENTITY, dD, mD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorCreateContraction(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dB, mB, TRNTENSOR_OP_IDENTITY, dD, mD,
                                       TRNTENSOR_OP_IDENTITY, dD, mD, nullptr),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorCreateContraction(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dB, mB, TRNTENSOR_OP_IDENTITY, dD, mD,
                                       TRNTENSOR_OP_IDENTITY, dD, mD, TRNTENSOR_COMPUTE_DESC_64F),
            TRNTENSOR_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(op, nullptr);
  // A valid one, then bad Contract calls leave D untouched.
  ASSERT_EQ(trntensorCreateContraction(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dB, mB, TRNTENSOR_OP_IDENTITY, dD, mD,
                                       TRNTENSOR_OP_IDENTITY, dD, mD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_SUCCESS);
  trntensorPlanPreference_t pref;
  ASSERT_EQ(trntensorCreatePlanPreference(h, &pref, TRNTENSOR_ALGO_TTGT, TRNTENSOR_JIT_MODE_NONE), TRNTENSOR_STATUS_SUCCESS);
  trntensorPlan_t plan;
  ASSERT_EQ(trntensorCreatePlan(h, &plan, op, pref, 0), TRNTENSOR_STATUS_SUCCESS);
  std::vector<float> A(20, 1.0f), B(30, 1.0f), D(24, -3.0f);
  const float one = 1.0f, zero = 0.0f;
  EXPECT_EQ(trntensorContract(h, plan, &one, nullptr, B.data(), &zero, D.data(), D.data(), nullptr, 0, nullptr),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_NE(last_line().find("parameter number 3 (A)"), std::string::npos) << last_line();
  EXPECT_EQ(trntensorContract(h, plan, nullptr, A.data(), B.data(), &zero, D.data(), D.data(), nullptr, 0, nullptr),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorContract(h, plan, &one, A.data(), B.data(), &one, nullptr, D.data(), nullptr, 0, nullptr),
            TRNTENSOR_STATUS_INVALID_VALUE);  // beta != 0 needs C
  EXPECT_EQ(trntensorContract(h, plan, &one, A.data(), B.data(), &zero, D.data(), nullptr, nullptr, 0, nullptr),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorContract(h, plan, &one, reinterpret_cast<const char*>(A.data()) + 2, B.data(), &zero, D.data(),
                              D.data(), nullptr, 0, nullptr),
            TRNTENSOR_STATUS_INVALID_VALUE);  // misaligned
  EXPECT_EQ(trntensorContract(nullptr, plan, &one, A.data(), B.data(), &zero, D.data(), D.data(), nullptr, 0, nullptr),
            TRNTENSOR_STATUS_NOT_INITIALIZED);
  for (float x : D) ASSERT_EQ(x, -3.0f);
  EXPECT_EQ(trntensorContract(h, plan, &one, A.data(), B.data(), &zero, D.data(), D.data(), nullptr, 0, nullptr),
            TRNTENSOR_STATUS_SUCCESS);
  for (float x : D) ASSERT_EQ(x, 5.0f);
  trntensorDestroyPlan(plan);
  trntensorDestroyOperationDescriptor(op);
  // A TTGT plan with too small or misaligned workspace.
  auto dDt = desc({6, 4}, std::vector<int64_t>{2, 12}.data());
  ASSERT_EQ(trntensorCreateContraction(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dB, mB, TRNTENSOR_OP_IDENTITY, dDt,
                                       std::vector<int32_t>{'n', 'm'}.data(), TRNTENSOR_OP_IDENTITY, dDt,
                                       std::vector<int32_t>{'n', 'm'}.data(), TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_SUCCESS);
  uint64_t ws = 0;
  ASSERT_EQ(trntensorEstimateWorkspaceSize(h, op, pref, TRNTENSOR_WORKSPACE_DEFAULT, &ws), TRNTENSOR_STATUS_SUCCESS);
  ASSERT_GT(ws, 0U);
  ASSERT_EQ(trntensorCreatePlan(h, &plan, op, pref, ws), TRNTENSOR_STATUS_SUCCESS);
  std::vector<double> work(ws / 8 + 4);
  std::vector<float> Dt(48, -3.0f);
  EXPECT_EQ(trntensorContract(h, plan, &one, A.data(), B.data(), &zero, Dt.data(), Dt.data(), work.data(), ws - 1, nullptr),
            TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE);
  EXPECT_EQ(trntensorContract(h, plan, &one, A.data(), B.data(), &zero, Dt.data(), Dt.data(), nullptr, ws, nullptr),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorContract(h, plan, &one, A.data(), B.data(), &zero, Dt.data(), Dt.data(),
                              reinterpret_cast<char*>(work.data()) + 4, ws, nullptr),
            TRNTENSOR_STATUS_INVALID_VALUE);
  for (float x : Dt) ASSERT_EQ(x, -3.0f);
  EXPECT_EQ(trntensorContract(h, plan, &one, A.data(), B.data(), &zero, Dt.data(), Dt.data(), work.data(), ws, nullptr),
            TRNTENSOR_STATUS_SUCCESS);
  for (std::size_t i = 0; i < Dt.size(); ++i) ASSERT_EQ(Dt[i], i % 2 == 0 ? 5.0f : -3.0f) << i;  // stride-2 D
  trntensorDestroyPlan(plan);
  trntensorDestroyOperationDescriptor(op);
  trntensorDestroyPlanPreference(pref);
  for (auto x : {dA, dB, dD, dB7, dDt}) trntensorDestroyTensorDescriptor(x);
}

TEST_F(CApi, DescriptorAndHandleChecks) {
  trntensorTensorDescriptor_t d = nullptr;
  const int64_t ext[] = {3, 0}, good[] = {3, 4}, neg[] = {1, -2};
  EXPECT_EQ(trntensorCreateTensorDescriptor(h, &d, 2, ext, nullptr, TRNTENSOR_R_32F, 16), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_NE(last_line().find("(extent)"), std::string::npos) << last_line();
  EXPECT_EQ(trntensorCreateTensorDescriptor(h, &d, 2, good, neg, TRNTENSOR_R_32F, 16), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorCreateTensorDescriptor(h, &d, 2, good, nullptr, TRNTENSOR_R_32F, 12), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorCreateTensorDescriptor(h, &d, 2, good, nullptr, TRNTENSOR_C_16F, 16), TRNTENSOR_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(trntensorCreateTensorDescriptor(h, nullptr, 2, good, nullptr, TRNTENSOR_R_32F, 16), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorCreateTensorDescriptor(nullptr, &d, 2, good, nullptr, TRNTENSOR_R_32F, 16), TRNTENSOR_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(d, nullptr);
  EXPECT_EQ(trntensorDestroyTensorDescriptor(nullptr), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_STREQ(trntensorGetErrorString(TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE), "TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE");
  EXPECT_EQ(trntensorGetVersion(), static_cast<size_t>(TRNTENSOR_VERSION));
  trntensorHandle_t other;
  ASSERT_EQ(trntensorCreate(&other), TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorDestroy(other), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(trntensorDestroy(other), TRNTENSOR_STATUS_NOT_INITIALIZED);  // destroyed twice
}

TEST_F(CApi, ElementwiseBinary) {
  // D[c, a, b] = op(alpha A[a, c], gamma C[b, c, a]) with A broadcast along b; exact fp32 reference.
  const std::map<char, std::int64_t> e{{'a', 7}, {'b', 130}, {'c', 9}};
  std::mt19937_64 rng(21);
  const auto A = tensor_ref::make("ac", e, rng), C = tensor_ref::make("bca", e, rng);
  auto af = tensor_ref::to_float(A.data), cf = tensor_ref::to_float(C.data);
  const int32_t mA[] = {'a', 'c'}, mC[] = {'b', 'c', 'a'}, mD[] = {'c', 'a', 'b'};
  auto dA = desc({7, 9}), dC = desc({130, 9, 7}), dD = desc({9, 7, 130});
  trntensorPlanPreference_t pref;
  ASSERT_EQ(trntensorCreatePlanPreference(h, &pref, TRNTENSOR_ALGO_DEFAULT, TRNTENSOR_JIT_MODE_NONE), TRNTENSOR_STATUS_SUCCESS);
  const float alpha = 1.5f, gamma = -0.75f;
  for (trntensorOperator_t opAC : {TRNTENSOR_OP_ADD, TRNTENSOR_OP_MUL, TRNTENSOR_OP_MAX, TRNTENSOR_OP_MIN}) {
    trntensorOperationDescriptor_t op;
    ASSERT_EQ(trntensorCreateElementwiseBinary(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dC, mC, TRNTENSOR_OP_IDENTITY, dD, mD,
                                               opAC, TRNTENSOR_COMPUTE_DESC_32F),
              TRNTENSOR_STATUS_SUCCESS);
    trntensorPlan_t plan;
    ASSERT_EQ(trntensorCreatePlan(h, &plan, op, pref, 0), TRNTENSOR_STATUS_SUCCESS);
    std::vector<float> d(9 * 7 * 130, -1.0f);
    EXPECT_EQ(trntensorElementwiseBinaryExecute(h, plan, &alpha, af.data(), &gamma, nullptr, d.data(), nullptr),
              TRNTENSOR_STATUS_INVALID_VALUE);
    for (float x : d) ASSERT_EQ(x, -1.0f);
    ASSERT_EQ(trntensorElementwiseBinaryExecute(h, plan, &alpha, af.data(), &gamma, cf.data(), d.data(), nullptr),
              TRNTENSOR_STATUS_SUCCESS);
    for (int ia = 0; ia < 7; ++ia)
      for (int ib = 0; ib < 130; ++ib)
        for (int ic = 0; ic < 9; ++ic) {
          const float x = alpha * af[static_cast<std::size_t>(ia + 7 * ic)];
          const float y = gamma * cf[static_cast<std::size_t>(ib + 130 * (ic + 9 * ia))];
          const float ref = opAC == TRNTENSOR_OP_ADD ? x + y : opAC == TRNTENSOR_OP_MUL ? x * y : opAC == TRNTENSOR_OP_MAX ? std::max(x, y) : std::min(x, y);
          ASSERT_EQ(d[static_cast<std::size_t>(ic + 9 * (ia + 7 * ib))], ref) << ia << " " << ib << " " << ic;
        }
    trnProfile_t prof;
    ASSERT_EQ(trntensorGetLastProfile(h, &prof), TRNTENSOR_STATUS_SUCCESS);
    EXPECT_GT(prof.busy_ns[TRN_ENGINE_VECTOR], 0.0);
    EXPECT_GT(prof.busy_ns[TRN_ENGINE_DMA], 0.0);
    // An element-wise plan is not a contraction plan.
    const float zero = 0.0f;
    EXPECT_EQ(trntensorContract(h, plan, &alpha, af.data(), af.data(), &zero, d.data(), d.data(), nullptr, 0, nullptr),
              TRNTENSOR_STATUS_INVALID_VALUE);
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(op);
  }
  trntensorOperationDescriptor_t op;
  EXPECT_EQ(trntensorCreateElementwiseBinary(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dC, mC, TRNTENSOR_OP_IDENTITY, dD, mD,
                                             TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_16BF),
            TRNTENSOR_STATUS_NOT_SUPPORTED);
  const int32_t mBad[] = {'a', 'z'};
  EXPECT_EQ(trntensorCreateElementwiseBinary(h, &op, dA, mBad, TRNTENSOR_OP_IDENTITY, dC, mC, TRNTENSOR_OP_IDENTITY, dD, mD,
                                             TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_NE(last_line().find("'z'"), std::string::npos) << last_line();
  trntensorDestroyPlanPreference(pref);
  for (auto x : {dA, dC, dD}) trntensorDestroyTensorDescriptor(x);
}

TEST_F(CApi, TargetSettingChangesTheModeledProfile) {
  std::vector<float> a(64 * 64, 1.0f), out(64 * 64);
  const int64_t sh[] = {64, 64};
  trntensorEinsumOperand_t in[2] = {{a.data(), 2, sh, nullptr}, {a.data(), 2, sh, nullptr}};
  trnProfile_t p1, p2;
  ASSERT_EQ(trntensorEinsum(h, "ij,jk->ik", 2, in, out.data(), 2, sh, nullptr, TRNTENSOR_R_32F, TRNTENSOR_COMPUTE_DESC_32F,
                            TRNTENSOR_EINSUM_PATH_AUTO),
            TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorGetLastProfile(h, &p1), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(p1.target, TRN_TARGET_TRN1);
  EXPECT_EQ(trntensorSetTarget(h, static_cast<trnTarget_t>(7)), TRNTENSOR_STATUS_INVALID_VALUE);
  ASSERT_EQ(trntensorSetTarget(h, TRN_TARGET_TRN2), TRNTENSOR_STATUS_SUCCESS);
  trnTarget_t t;
  ASSERT_EQ(trntensorGetTarget(h, &t), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(t, TRN_TARGET_TRN2);
  ASSERT_EQ(trntensorEinsum(h, "ij,jk->ik", 2, in, out.data(), 2, sh, nullptr, TRNTENSOR_R_32F, TRNTENSOR_COMPUTE_DESC_32F,
                            TRNTENSOR_EINSUM_PATH_AUTO),
            TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorGetLastProfile(h, &p2), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(p2.target, TRN_TARGET_TRN2);
  EXPECT_NE(p1.total_ns, p2.total_ns);
  for (float x : out) ASSERT_EQ(x, 64.0f);
  EXPECT_EQ(trntensorSetNumCores(h, 0), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorSetNumCores(h, 2), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(trntensorSetNumericsProfile(h, TRN_NUMERICS_TRN1_MEASURED), TRNTENSOR_STATUS_SUCCESS);
}

TEST_F(CApi, EinsumAndPath) {
  std::vector<float> a(6), b(12), out(8, -1.0f);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i + 1);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 5) - 2.0f;
  const int64_t sa[] = {2, 3}, sb[] = {3, 4}, so[] = {2, 4};
  trntensorEinsumOperand_t in[2] = {{a.data(), 2, sa, nullptr}, {b.data(), 2, sb, nullptr}};
  ASSERT_EQ(trntensorEinsum(h, "ij,jk->ik", 2, in, out.data(), 2, so, nullptr, TRNTENSOR_R_32F, TRNTENSOR_COMPUTE_DESC_32F,
                            TRNTENSOR_EINSUM_PATH_AUTO),
            TRNTENSOR_STATUS_SUCCESS);
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) {
      double s = 0;
      for (int j = 0; j < 3; ++j) s += static_cast<double>(a[static_cast<std::size_t>(i * 3 + j)]) * b[static_cast<std::size_t>(j * 4 + k)];
      EXPECT_EQ(out[static_cast<std::size_t>(i * 4 + k)], static_cast<float>(s));
    }
  // Malformed subscripts: status, a message with the position, output untouched.
  std::vector<float> before = out;
  EXPECT_EQ(trntensorEinsum(h, "ij,j%->ik", 2, in, out.data(), 2, so, nullptr, TRNTENSOR_R_32F, TRNTENSOR_COMPUTE_DESC_32F,
                            TRNTENSOR_EINSUM_PATH_AUTO),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_NE(last_line().find("position 4"), std::string::npos) << last_line();
  EXPECT_EQ(trntensorEinsum(h, "ij,jk->ik", 1, in, out.data(), 2, so, nullptr, TRNTENSOR_R_32F, TRNTENSOR_COMPUTE_DESC_32F,
                            TRNTENSOR_EINSUM_PATH_AUTO),
            TRNTENSOR_STATUS_INVALID_VALUE);  // operand count mismatch
  EXPECT_EQ(trntensorEinsum(h, nullptr, 2, in, out.data(), 2, so, nullptr, TRNTENSOR_R_32F, TRNTENSOR_COMPUTE_DESC_32F,
                            TRNTENSOR_EINSUM_PATH_AUTO),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(out, before);
  // The published opt_einsum example through EinsumPath.
  const int64_t s1[] = {9, 10, 13, 16}, s2[] = {10, 15, 10, 17}, s3[] = {13, 16, 10, 9}, s4[] = {10, 17, 10, 15},
                s5[] = {13, 16, 9, 10};
  trntensorEinsumOperand_t v[5] = {{nullptr, 4, s1, nullptr}, {nullptr, 4, s2, nullptr}, {nullptr, 4, s3, nullptr},
                                   {nullptr, 4, s4, nullptr}, {nullptr, 4, s5, nullptr}};
  int32_t path[8];
  double naive = 0, opt = 0, largest = 0;
  ASSERT_EQ(trntensorEinsumPath(h, "bdik,acaj,ikab,ajac,ikbd->", 5, v, TRNTENSOR_EINSUM_PATH_OPTIMAL, path, &naive, &opt,
                                &largest),
            TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(std::vector<int32_t>(path, path + 8), (std::vector<int32_t>{1, 3, 0, 2, 0, 2, 0, 1}));
  EXPECT_EQ(opt, 80000.0);
  EXPECT_EQ(largest, 1872.0);
}

TEST_F(CApi, ReductionAndPermutation) {
  const std::map<char, std::int64_t> e{{'a', 4}, {'b', 6}, {'c', 5}};
  std::mt19937_64 rng(9);
  const auto A = tensor_ref::make("abc", e, rng), C = tensor_ref::make("ca", e, rng);
  const auto a = tensor_ref::round_to_float(A.data), c = tensor_ref::round_to_float(C.data);
  auto af = tensor_ref::to_float(a), cf = tensor_ref::to_float(c);
  const int32_t mA[] = {'a', 'b', 'c'}, mD[] = {'c', 'a'}, mP[] = {'c', 'a', 'b'};
  auto dA = desc({4, 6, 5}), dD = desc({5, 4}), dP = desc({5, 4, 6});
  // D[c, a] = 0.5 sum_b A[a, b, c] + 2 C[c, a], D separate from C.
  trntensorOperationDescriptor_t op;
  ASSERT_EQ(trntensorCreateReduction(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dD, mD, TRNTENSOR_OP_IDENTITY, dD, mD,
                                     TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_SUCCESS);
  trntensorOperationDescriptor_t bad;
  EXPECT_EQ(trntensorCreateReduction(h, &bad, dA, mA, TRNTENSOR_OP_IDENTITY, dD, mD, TRNTENSOR_OP_IDENTITY, dD, mD,
                                     TRNTENSOR_OP_MAX, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_NOT_SUPPORTED);
  trntensorPlanPreference_t pref;
  ASSERT_EQ(trntensorCreatePlanPreference(h, &pref, TRNTENSOR_ALGO_DEFAULT, TRNTENSOR_JIT_MODE_NONE), TRNTENSOR_STATUS_SUCCESS);
  uint64_t ws = 0;
  ASSERT_EQ(trntensorEstimateWorkspaceSize(h, op, pref, TRNTENSOR_WORKSPACE_DEFAULT, &ws), TRNTENSOR_STATUS_SUCCESS);
  trntensorPlan_t plan;
  ASSERT_EQ(trntensorCreatePlan(h, &plan, op, pref, ws), TRNTENSOR_STATUS_SUCCESS);
  std::vector<double> work(ws / 8 + 2);
  std::vector<float> d(20, -9.0f), c_before = cf;
  const float alpha = 0.5f, beta = 2.0f;
  // A reduction plan is not a contraction plan.
  EXPECT_EQ(trntensorContract(h, plan, &alpha, af.data(), af.data(), &beta, cf.data(), d.data(), work.data(), ws, nullptr),
            TRNTENSOR_STATUS_INVALID_VALUE);
  ASSERT_EQ(trntensorReduce(h, plan, &alpha, af.data(), &beta, cf.data(), d.data(), work.data(), ws, nullptr),
            TRNTENSOR_STATUS_SUCCESS);
  for (int ic = 0; ic < 5; ++ic)
    for (int ia = 0; ia < 4; ++ia) {
      double s = 0, sa = 0;
      for (int ib = 0; ib < 6; ++ib) {
        s += a[static_cast<std::size_t>(ia + 4 * ib + 24 * ic)];
        sa += std::fabs(a[static_cast<std::size_t>(ia + 4 * ib + 24 * ic)]);
      }
      const double ref = 0.5 * s + 2.0 * c[static_cast<std::size_t>(ic + 5 * ia)];
      EXPECT_NEAR(d[static_cast<std::size_t>(ic + 5 * ia)], ref, 12 * std::ldexp(1.0, -24) * (0.5 * sa + 2 * std::fabs(ref)) + 1e-30);
    }
  EXPECT_EQ(cf, c_before);
  trntensorDestroyPlan(plan);
  trntensorDestroyOperationDescriptor(op);
  // B[c, a, b] = 2 A[a, b, c]: exact.
  ASSERT_EQ(trntensorCreatePermutation(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dP, mP, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorCreatePlan(h, &plan, op, pref, 0), TRNTENSOR_STATUS_SUCCESS);
  std::vector<float> p(120, 0.0f);
  const float two = 2.0f;
  EXPECT_EQ(trntensorPermute(h, plan, &two, nullptr, p.data(), nullptr), TRNTENSOR_STATUS_INVALID_VALUE);
  ASSERT_EQ(trntensorPermute(h, plan, &two, af.data(), p.data(), nullptr), TRNTENSOR_STATUS_SUCCESS);
  for (int ia = 0; ia < 4; ++ia)
    for (int ib = 0; ib < 6; ++ib)
      for (int ic = 0; ic < 5; ++ic)
        ASSERT_EQ(p[static_cast<std::size_t>(ic + 5 * ia + 20 * ib)], 2.0f * af[static_cast<std::size_t>(ia + 4 * ib + 24 * ic)]);
  trntensorDestroyPlan(plan);
  trntensorDestroyOperationDescriptor(op);
  const int32_t mShort[] = {'c', 'a'};
  EXPECT_EQ(trntensorCreatePermutation(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dD, mShort, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  trntensorDestroyPlanPreference(pref);
  for (auto x : {dA, dD, dP}) trntensorDestroyTensorDescriptor(x);
}

}  // namespace

namespace {

// Independent 16-bit codecs for the test (round to nearest even; finite, in-range inputs only).
std::uint16_t to_bf16(double x) {
  const float f = static_cast<float>(x);
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return static_cast<std::uint16_t>(u >> 16);
}
double from_bf16(std::uint16_t h) {
  const std::uint32_t u = std::uint32_t{h} << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
// binary16 by scaling: |x| < 2^15 and >= 2^-14 (normal), enough for the test's data.
std::uint16_t to_f16(double x) {
  const int sign = std::signbit(x) ? 1 : 0;
  double a = std::fabs(x);
  if (a == 0) return static_cast<std::uint16_t>(sign << 15);
  int e;
  std::frexp(a, &e);  // a = f 2^e, f in [0.5, 1)
  const double q = std::nearbyint(std::ldexp(a, 11 - e));  // 11 significant bits, ties to even
  a = std::ldexp(q, e - 11);
  std::frexp(a, &e);
  const int biased = e - 1 + 15;
  const auto mant = static_cast<std::uint32_t>(std::ldexp(a, 10 - (e - 1))) & 0x3FFu;
  return static_cast<std::uint16_t>((sign << 15) | (biased << 10) | mant);
}
double from_f16(std::uint16_t h) {
  const int e = (h >> 10) & 0x1F;
  const double m = h & 0x3FF;
  const double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024.0 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}

}  // namespace

// 16BF and 16F tensor data (cuTENSOR's R_16BF / R_16F with COMPUTE_DESC_32F or the matching 16-bit
// descriptor): a permuted, batched contraction with beta != 0 and D != C. The inputs are exact in
// their type, TensorE products are exact and accumulate in fp32, and D is rounded once to the data
// type: |D - ref| <= u16 |ref| + (k + 2) u32 (|alpha| sum |a||b| + |beta c|), u16 = 2^-8 (bf16) or
// 2^-11 (fp16), with ref the long-double contraction of the decoded inputs.
TEST_F(CApi, SixteenBitDataContractsExactlyAndRoundsOnce) {
  struct Case {
    trntensorDataType_t type;
    trntensorComputeDescriptor_t compute;
    double u16;
  };
  const Case cases[] = {{TRNTENSOR_R_16BF, TRNTENSOR_COMPUTE_DESC_32F, 0x1p-8},
                        {TRNTENSOR_R_16BF, TRNTENSOR_COMPUTE_DESC_16BF, 0x1p-8},
                        {TRNTENSOR_R_16F, TRNTENSOR_COMPUTE_DESC_32F, 0x1p-11},
                        {TRNTENSOR_R_16F, TRNTENSOR_COMPUTE_DESC_16F, 0x1p-11}};
  const std::map<char, std::int64_t> e{{'m', 37}, {'n', 20}, {'k', 150}, {'b', 3}};
  for (const Case& cs : cases) {
    const bool bf = cs.type == TRNTENSOR_R_16BF;
    std::mt19937_64 rng(21);
    auto A = tensor_ref::make("kbm", e, rng), B = tensor_ref::make("nkb", e, rng), C = tensor_ref::make("bnm", e, rng);
    std::vector<std::uint16_t> a16, b16, c16;
    for (auto* t : {&A, &B, &C}) {
      auto& out = t == &A ? a16 : t == &B ? b16 : c16;
      for (double& x : t->data) {
        out.push_back(bf ? to_bf16(x) : to_f16(x));
        x = bf ? from_bf16(out.back()) : from_f16(out.back());
      }
    }
    const float alpha = 0.75f, beta = -1.5f;
    const auto ref = tensor_ref::contract(A, B, C, C, alpha, beta, A.data, B.data, C.data);
    const int32_t mA[] = {'k', 'b', 'm'}, mB[] = {'n', 'k', 'b'}, mC[] = {'b', 'n', 'm'};
    auto dA = desc({150, 3, 37}, nullptr, cs.type), dB = desc({20, 150, 3}, nullptr, cs.type),
         dC = desc({3, 20, 37}, nullptr, cs.type);
    trntensorOperationDescriptor_t op;
    ASSERT_EQ(trntensorCreateContraction(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dB, mB, TRNTENSOR_OP_IDENTITY, dC, mC,
                                         TRNTENSOR_OP_IDENTITY, dC, mC, cs.compute),
              TRNTENSOR_STATUS_SUCCESS);
    trntensorPlanPreference_t pref;
    ASSERT_EQ(trntensorCreatePlanPreference(h, &pref, TRNTENSOR_ALGO_DEFAULT, TRNTENSOR_JIT_MODE_NONE), TRNTENSOR_STATUS_SUCCESS);
    uint64_t ws = 0;
    ASSERT_EQ(trntensorEstimateWorkspaceSize(h, op, pref, TRNTENSOR_WORKSPACE_DEFAULT, &ws), TRNTENSOR_STATUS_SUCCESS);
    trntensorPlan_t plan;
    ASSERT_EQ(trntensorCreatePlan(h, &plan, op, pref, ws), TRNTENSOR_STATUS_SUCCESS);
    std::vector<std::uint64_t> work(ws / 8 + 2);
    std::vector<std::uint16_t> d(c16.size(), 0x7E00);  // D != C, every element written
    const std::vector<std::uint16_t> c_before = c16;
    ASSERT_EQ(trntensorContract(h, plan, &alpha, a16.data(), b16.data(), &beta, c16.data(), d.data(), work.data(), ws,
                                nullptr),
              TRNTENSOR_STATUS_SUCCESS);
    EXPECT_EQ(c16, c_before);  // C untouched
    for (std::size_t i = 0; i < d.size(); ++i) {
      const double got = bf ? from_bf16(d[i]) : from_f16(d[i]);
      const double r = static_cast<double>(ref.ref[i]);
      ASSERT_LE(std::fabs(got - r), cs.u16 * std::fabs(r) + 152 * 0x1p-24 * ref.abs[i]) << "element " << i;
    }
    EXPECT_EQ(trntensorDestroyPlan(plan), TRNTENSOR_STATUS_SUCCESS);
    EXPECT_EQ(trntensorDestroyPlanPreference(pref), TRNTENSOR_STATUS_SUCCESS);
    EXPECT_EQ(trntensorDestroyOperationDescriptor(op), TRNTENSOR_STATUS_SUCCESS);
    for (auto x : {dA, dB, dC}) EXPECT_EQ(trntensorDestroyTensorDescriptor(x), TRNTENSOR_STATUS_SUCCESS);
  }
  // cuTENSOR's table: 16F data with 16BF compute (and 16BF data with 16F) is not a valid pairing.
  const int32_t m2[] = {'i', 'j'};
  auto d16 = desc({4, 4}, nullptr, TRNTENSOR_R_16F);
  trntensorOperationDescriptor_t op = nullptr;
  EXPECT_EQ(trntensorCreateContraction(h, &op, d16, m2, TRNTENSOR_OP_IDENTITY, d16, m2, TRNTENSOR_OP_IDENTITY, d16, m2,
                                       TRNTENSOR_OP_IDENTITY, d16, m2, TRNTENSOR_COMPUTE_DESC_16BF),
            TRNTENSOR_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(op, nullptr);
  EXPECT_EQ(trntensorDestroyTensorDescriptor(d16), TRNTENSOR_STATUS_SUCCESS);
}
