// cuTENSOR 2.x entry points trntensor gained for issue #29: element-wise trinary (bit-exact against
// the same fp32 steps on the host), block-sparse contraction (against the dense einsum-loop oracle of
// tests/reference on the blocks' zero-filled dense tensors), the plan cache (round trip, LRU, every
// byte of a written file flipped, truncations, a foreign and a future-version file: IO_ERROR with the
// cache untouched), PlanPreferenceGetAttribute, LoggerSetFile / LoggerSetMask, GetCudartVersion, and
// bad input for each (status, logged position, outputs untouched).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tensor_reference.hpp"
#include "trntensor.h"

namespace {

static_assert(TRNTENSOR_OP_SIN == 26 && TRNTENSOR_OP_ATANH == 36 && TRNTENSOR_OP_SOFT_SIGN == 42 &&
              TRNTENSOR_OP_MISH == 39 && TRNTENSOR_STATUS_IO_ERROR == 21);

class Api2x : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS); }
  void TearDown() override { EXPECT_EQ(trntensorDestroy(h), TRNTENSOR_STATUS_SUCCESS); }
  trntensorTensorDescriptor_t desc(std::vector<int64_t> ext, const int64_t* strides = nullptr,
                                   trntensorDataType_t t = TRN_R_32F) {
    trntensorTensorDescriptor_t d = nullptr;
    EXPECT_EQ(trntensorCreateTensorDescriptor(h, &d, static_cast<uint32_t>(ext.size()), ext.data(), strides, t, 16),
              TRNTENSOR_STATUS_SUCCESS);
    return d;
  }
  int last_position() {
    int p = -1;
    EXPECT_EQ(trntensorGetLastErrorParameter(h, &p), TRNTENSOR_STATUS_SUCCESS);
    return p;
  }
  trntensorPlan_t plan_of(trntensorOperationDescriptor_t op, uint64_t* ws = nullptr) {
    trntensorPlanPreference_t pref = nullptr;
    EXPECT_EQ(trntensorCreatePlanPreference(h, &pref, TRNTENSOR_ALGO_DEFAULT, TRNTENSOR_JIT_MODE_NONE), TRNTENSOR_STATUS_SUCCESS);
    uint64_t w = 0;
    EXPECT_EQ(trntensorEstimateWorkspaceSize(h, op, pref, TRNTENSOR_WORKSPACE_DEFAULT, &w), TRNTENSOR_STATUS_SUCCESS);
    trntensorPlan_t plan = nullptr;
    EXPECT_EQ(trntensorCreatePlan(h, &plan, op, pref, w), TRNTENSOR_STATUS_SUCCESS);
    EXPECT_EQ(trntensorDestroyPlanPreference(pref), TRNTENSOR_STATUS_SUCCESS);
    if (ws != nullptr) *ws = w;
    return plan;
  }
  trntensorHandle_t h = nullptr;
};

// ---- element-wise trinary ----------------------------------------------------------------------------

float host_op(int op, float x, float y) {
  switch (op) {
    case TRNTENSOR_OP_ADD: return x + y;
    case TRNTENSOR_OP_MUL: return x * y;
    case TRNTENSOR_OP_MAX: return std::max(x, y);
    default: return std::min(x, y);
  }
}

TEST_F(Api2x, ElementwiseTrinaryIsBitExactForEveryOperatorPair) {
  // D[a,b,c] (strided, padded) = opABC(opAB(alpha A[c,a], beta B[b]), gamma C[b,c,a]).
  const int64_t na = 37, nb = 5, nc = 29;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  std::vector<float> A(nc * na), B(nb), C(nb * nc * na);
  for (auto* v : {&A, &B, &C})
    for (float& x : *v) x = u(rng);
  const int64_t sd[3] = {1, na + 3, (na + 3) * (nb + 1)};
  const int64_t span = sd[2] * nc;
  auto dA = desc({nc, na}), dB = desc({nb}), dC = desc({nb, nc, na}), dD = desc({na, nb, nc}, sd);
  const int32_t mA[2] = {'c', 'a'}, mB[1] = {'b'}, mC[3] = {'b', 'c', 'a'}, mD[3] = {'a', 'b', 'c'};
  const int ops[4] = {TRNTENSOR_OP_ADD, TRNTENSOR_OP_MUL, TRNTENSOR_OP_MAX, TRNTENSOR_OP_MIN};
  const float alpha = 1.25f, beta = -0.75f, gamma = 0.5f;
  for (int ab : ops)
    for (int abc : ops) {
      trntensorOperationDescriptor_t op = nullptr;
      ASSERT_EQ(trntensorCreateElementwiseTrinary(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dB, mB, TRNTENSOR_OP_IDENTITY, dC,
                                                  mC, TRNTENSOR_OP_IDENTITY, dD, mD, static_cast<trntensorOperator_t>(ab),
                                                  static_cast<trntensorOperator_t>(abc), TRNTENSOR_COMPUTE_DESC_32F),
                TRNTENSOR_STATUS_SUCCESS);
      float flops = 0;
      ASSERT_EQ(trntensorOperationDescriptorGetAttribute(h, op, TRNTENSOR_OPERATION_DESCRIPTOR_FLOPS, &flops, sizeof flops),
                TRNTENSOR_STATUS_SUCCESS);
      EXPECT_EQ(flops, 5.0f * na * nb * nc);
      trntensorPlan_t plan = plan_of(op);
      std::vector<float> D(static_cast<std::size_t>(span), -7.0f);
      ASSERT_EQ(trntensorElementwiseTrinaryExecute(h, plan, &alpha, A.data(), &beta, B.data(), &gamma, C.data(), D.data(),
                                                   nullptr),
                TRNTENSOR_STATUS_SUCCESS);
      std::size_t written = 0;
      for (int64_t c = 0; c < nc; ++c)
        for (int64_t b = 0; b < nb; ++b)
          for (int64_t a = 0; a < na; ++a) {
            const float x = alpha * A[static_cast<std::size_t>(c + nc * a)];
            const float y = beta * B[static_cast<std::size_t>(b)];
            const float z = gamma * C[static_cast<std::size_t>(b + nb * (c + nc * a))];
            const float want = host_op(abc, host_op(ab, x, y), z);
            ASSERT_EQ(D[static_cast<std::size_t>(a * sd[0] + b * sd[1] + c * sd[2])], want) << ab << ' ' << abc;
            ++written;
          }
      EXPECT_EQ(static_cast<std::size_t>(std::count(D.begin(), D.end(), -7.0f)), D.size() - written);  // padding untouched
      EXPECT_EQ(trntensorDestroyPlan(plan), TRNTENSOR_STATUS_SUCCESS);
      EXPECT_EQ(trntensorDestroyOperationDescriptor(op), TRNTENSOR_STATUS_SUCCESS);
    }
  for (auto d : {dA, dB, dC, dD}) trntensorDestroyTensorDescriptor(d);
}

TEST_F(Api2x, ElementwiseTrinaryBadInput) {
  auto d = desc({4}), d64 = desc({4}, nullptr, TRN_R_64F);
  const int32_t m[1] = {'i'}, mj[1] = {'j'};
  trntensorOperationDescriptor_t op = reinterpret_cast<trntensorOperationDescriptor_t>(0x1);
  const auto id = TRNTENSOR_OP_IDENTITY;
  EXPECT_EQ(trntensorCreateElementwiseTrinary(nullptr, &op, d, m, id, d, m, id, d, m, id, d, m, TRNTENSOR_OP_ADD,
                                              TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_NOT_INITIALIZED);
  struct Case {
    int position;
    trntensorStatus_t status;
  };
  auto run = [&](trntensorTensorDescriptor_t b, const int32_t* mb, trntensorOperator_t opb, trntensorOperator_t ab,
                 trntensorOperator_t abc, trntensorComputeDescriptor_t cd) {
    return trntensorCreateElementwiseTrinary(h, &op, d, m, id, b, mb, opb, d, m, id, d, m, ab, abc, cd);
  };
  EXPECT_EQ(run(nullptr, m, id, TRNTENSOR_OP_ADD, TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_32F), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 5);
  EXPECT_EQ(run(d, nullptr, id, TRNTENSOR_OP_ADD, TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_32F), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 6);
  // Every 2.x unary operator is legal here (test_trntensor_padding.cpp); 13 is no operator.
  EXPECT_EQ(run(d, m, static_cast<trntensorOperator_t>(13), TRNTENSOR_OP_ADD, TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 7);
  EXPECT_EQ(run(d, m, id, TRNTENSOR_OP_RELU, TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_32F), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 13);
  EXPECT_EQ(run(d, m, id, TRNTENSOR_OP_ADD, static_cast<trntensorOperator_t>(1234), TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 14);
  EXPECT_EQ(run(d, m, id, TRNTENSOR_OP_ADD, TRNTENSOR_OP_ADD, nullptr), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 15);
  EXPECT_EQ(run(d, mj, id, TRNTENSOR_OP_ADD, TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_32F), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(run(d64, m, id, TRNTENSOR_OP_ADD, TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_32F), TRNTENSOR_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(run(d, m, id, TRNTENSOR_OP_ADD, TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_64F), TRNTENSOR_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(op, reinterpret_cast<trntensorOperationDescriptor_t>(0x1));  // untouched on every failure

  trntensorOperationDescriptor_t good = nullptr;
  ASSERT_EQ(run(d, m, id, TRNTENSOR_OP_ADD, TRNTENSOR_OP_MUL, TRNTENSOR_COMPUTE_DESC_32F), TRNTENSOR_STATUS_SUCCESS);
  good = op;
  trntensorPlan_t plan = plan_of(good);
  const float x[4] = {1, 2, 3, 4}, s = 1.0f;
  float out[4] = {9, 9, 9, 9};
  EXPECT_EQ(trntensorElementwiseTrinaryExecute(h, plan, &s, x, &s, x, &s, x, nullptr, nullptr), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 8);
  EXPECT_EQ(trntensorElementwiseTrinaryExecute(h, plan, &s, x, nullptr, x, &s, x, out, nullptr), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 4);
  EXPECT_EQ(trntensorElementwiseTrinaryExecute(h, plan, &s, x, &s, reinterpret_cast<const char*>(x) + 1, &s, x, out, nullptr),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 5);
  for (float v : out) EXPECT_EQ(v, 9.0f);
  // A contraction plan is not an element-wise trinary plan, and vice versa.
  EXPECT_EQ(trntensorContract(h, plan, &s, x, x, &s, x, out, nullptr, 0, nullptr), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 1);
  ASSERT_EQ(trntensorElementwiseTrinaryExecute(h, plan, &s, x, &s, x, &s, x, out, nullptr), TRNTENSOR_STATUS_SUCCESS);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], 2 * x[i] * x[i]);
  trntensorDestroyPlan(plan);
  trntensorDestroyOperationDescriptor(good);
  trntensorDestroyTensorDescriptor(d);
  trntensorDestroyTensorDescriptor(d64);
}

// ---- block-sparse contraction ------------------------------------------------------------------------

// A block-sparse operand: the section extents of its modes, its stored blocks and their data.
struct Sparse {
  std::string modes;
  std::vector<std::vector<int64_t>> sections;
  std::vector<std::vector<int32_t>> blocks;
  std::vector<std::vector<double>> data;  // per block, packed column-major
  trntensorBlockSparseTensorDescriptor_t desc = nullptr;
};

std::map<char, std::vector<int64_t>> g_sections;

Sparse make_sparse(trntensorHandle_t h, const std::string& modes, std::vector<std::vector<int32_t>> blocks,
                   std::mt19937_64& rng, trntensorDataType_t dt) {
  Sparse s{modes, {}, std::move(blocks), {}, nullptr};
  std::vector<uint32_t> nsec;
  std::vector<int64_t> ext;
  std::vector<int32_t> coords;
  for (char c : modes) {
    s.sections.push_back(g_sections.at(c));
    nsec.push_back(static_cast<uint32_t>(g_sections.at(c).size()));
    ext.insert(ext.end(), g_sections.at(c).begin(), g_sections.at(c).end());
  }
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const auto& b : s.blocks) {
    std::size_t n = 1;
    for (std::size_t i = 0; i < b.size(); ++i) n *= static_cast<std::size_t>(s.sections[i][static_cast<std::size_t>(b[i])]);
    std::vector<double> v(n);
    for (double& x : v) x = dt == TRN_R_32F ? static_cast<float>(u(rng)) : u(rng);
    s.data.push_back(std::move(v));
    coords.insert(coords.end(), b.begin(), b.end());
  }
  EXPECT_EQ(trntensorCreateBlockSparseTensorDescriptor(h, &s.desc, static_cast<uint32_t>(modes.size()), s.blocks.size(),
                                                       nsec.data(), ext.data(), coords.data(), nullptr, dt),
            TRNTENSOR_STATUS_SUCCESS);
  return s;
}

// The dense, zero-filled column-major tensor of a block-sparse operand.
tensor_ref::Operand dense(const Sparse& s) { return tensor_ref::block_sparse_dense(s.sections, s.blocks, s.data); }

// Runs D = alpha A B + beta C and checks every stored block of D against the dense oracle.
template <class T>
void check_block_sparse(Api2x* self, trntensorHandle_t h, Sparse& A, Sparse& B, Sparse& C, double alpha, double beta,
                        trntensorComputeDescriptor_t cd, double tol) {
  std::vector<int32_t> mA(A.modes.begin(), A.modes.end()), mB(B.modes.begin(), B.modes.end()),
      mC(C.modes.begin(), C.modes.end());
  trntensorOperationDescriptor_t op = nullptr;
  ASSERT_EQ(trntensorCreateBlockSparseContraction(h, &op, A.desc, mA.data(), TRNTENSOR_OP_IDENTITY, B.desc, mB.data(),
                                                  TRNTENSOR_OP_IDENTITY, C.desc, mC.data(), TRNTENSOR_OP_IDENTITY, C.desc,
                                                  mC.data(), cd),
            TRNTENSOR_STATUS_SUCCESS);
  uint64_t ws = 0;
  (void)self;
  trntensorPlanPreference_t pref = nullptr;
  ASSERT_EQ(trntensorCreatePlanPreference(h, &pref, TRNTENSOR_ALGO_DEFAULT, TRNTENSOR_JIT_MODE_NONE), TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorEstimateWorkspaceSize(h, op, pref, TRNTENSOR_WORKSPACE_DEFAULT, &ws), TRNTENSOR_STATUS_SUCCESS);
  trntensorPlan_t plan = nullptr;
  ASSERT_EQ(trntensorCreatePlan(h, &plan, op, pref, ws), TRNTENSOR_STATUS_SUCCESS);
  auto to_t = [](const std::vector<double>& v) { return std::vector<T>(v.begin(), v.end()); };
  std::vector<std::vector<T>> a, b, c, d;
  for (const auto& v : A.data) a.push_back(to_t(v));
  for (const auto& v : B.data) b.push_back(to_t(v));
  for (const auto& v : C.data) {
    c.push_back(to_t(v));
    d.emplace_back(v.size(), std::numeric_limits<T>::quiet_NaN());  // every stored block of D must be written
  }
  std::vector<const void*> pa, pb, pc;
  std::vector<void*> pd;
  for (auto& v : a) pa.push_back(v.data());
  for (auto& v : b) pb.push_back(v.data());
  for (auto& v : c) pc.push_back(v.data());
  for (auto& v : d) pd.push_back(v.data());
  std::vector<unsigned char> work(ws + 16);
  void* w = work.data() + (16 - reinterpret_cast<std::uintptr_t>(work.data()) % 16) % 16;
  T al = static_cast<T>(alpha), be = static_cast<T>(beta);
  ASSERT_EQ(trntensorBlockSparseContract(h, plan, &al, pa.data(), pb.data(), &be, pc.data(), pd.data(), w, ws, nullptr),
            TRNTENSOR_STATUS_SUCCESS);
  // Oracle: D_dense = alpha A_dense B_dense + beta C_dense, output modes reversed so that the
  // C-contiguous result is column-major in C's mode order.
  const std::string rev(C.modes.rbegin(), C.modes.rend());
  std::vector<double> ab, abs;
  std::vector<int64_t> shape;
  tensor_ref::einsum_loop(A.modes + "," + B.modes + "->" + rev, {dense(A), dense(B)}, &ab, &abs, &shape);
  const tensor_ref::Operand cden = dense(C);
  Sparse Dres = C;
  for (std::size_t k = 0; k < d.size(); ++k) Dres.data[k].assign(d[k].begin(), d[k].end());
  const tensor_ref::Operand dden = dense(Dres);
  Sparse mask = C;
  for (auto& v : mask.data) std::fill(v.begin(), v.end(), 1.0);
  const tensor_ref::Operand stored = dense(mask);
  for (std::size_t i = 0; i < ab.size(); ++i) {
    if (stored.data[i] == 0.0) continue;
    const double want = alpha * ab[i] + beta * cden.data[i];
    ASSERT_LE(std::fabs(dden.data[i] - want), tol * (std::fabs(alpha) * abs[i] + std::fabs(beta * cden.data[i])) + 1e-300)
        << "element " << i;
  }
  for (const auto& v : c) (void)v;
  trntensorDestroyPlan(plan);
  trntensorDestroyPlanPreference(pref);
  trntensorDestroyOperationDescriptor(op);
}

TEST_F(Api2x, BlockSparseContractionOfTheNvidiaSampleShapeMatchesTheDenseOracle) {
  // C_i = A_{kil} B_{kl} with the sample's sections, blocks and 64F data.
  g_sections = {{'k', {10, 10, 15}}, {'i', {20, 20, 25}}, {'l', {30, 30, 35}}};
  std::mt19937_64 rng(5);
  Sparse A = make_sparse(h, "kil", {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {2, 2, 0}, {0, 0, 2}, {2, 0, 2}, {0, 2, 2}, {2, 2, 2}},
                         rng, TRN_R_64F);
  Sparse B = make_sparse(h, "kl", {{0, 0}, {1, 2}}, rng, TRN_R_64F);
  Sparse C = make_sparse(h, "i", {{0}, {1}, {2}}, rng, TRN_R_64F);
  check_block_sparse<double>(this, h, A, B, C, 1.0, 0.0, TRNTENSOR_COMPUTE_DESC_64F, 1e-14);
  check_block_sparse<double>(this, h, A, B, C, -0.5, 1.5, TRNTENSOR_COMPUTE_DESC_64F, 1e-14);
  for (auto* s : {&A, &B, &C}) EXPECT_EQ(trntensorDestroyBlockSparseTensorDescriptor(s->desc), TRNTENSOR_STATUS_SUCCESS);
}

TEST_F(Api2x, BlockSparseMatmulWithUnreachedBlocksAnd32F) {
  // D_{mn} = A_{mk} B_{kn}: D block (1, 1) has no contributing pair (beta C or zeros), D block (2, 0)
  // two pairs (accumulated); B's second k section is absent.
  g_sections = {{'m', {3, 17, 5}}, {'k', {7, 9, 40}}, {'n', {11, 2}}};
  std::mt19937_64 rng(9);
  Sparse A = make_sparse(h, "mk", {{0, 0}, {2, 0}, {2, 2}, {1, 1}}, rng, TRN_R_32F);
  Sparse B = make_sparse(h, "kn", {{0, 0}, {2, 0}, {0, 1}}, rng, TRN_R_32F);
  Sparse D = make_sparse(h, "mn", {{0, 0}, {2, 0}, {1, 1}, {0, 1}, {2, 1}}, rng, TRN_R_32F);
  check_block_sparse<float>(this, h, A, B, D, 0.75, 0.0, TRNTENSOR_COMPUTE_DESC_32F, 1e-6);
  check_block_sparse<float>(this, h, A, B, D, 0.75, -2.0, TRNTENSOR_COMPUTE_DESC_32F, 1e-6);
  check_block_sparse<float>(this, h, A, B, D, 1.0, 0.5, TRNTENSOR_COMPUTE_DESC_TF32, 2e-3);
  for (auto* s : {&A, &B, &D}) trntensorDestroyBlockSparseTensorDescriptor(s->desc);
}

TEST_F(Api2x, BlockSparseBadInput) {
  const uint32_t nsec[2] = {2, 2};
  const int64_t ext[4] = {4, 6, 4, 6};  // every mode: sections of 4 and 6
  const int32_t coords[4] = {0, 0, 1, 1};
  const int32_t bad_coords[4] = {0, 0, 2, 1};
  const int64_t neg_stride[4] = {1, -3, 1, 4};
  auto* sentinel = reinterpret_cast<trntensorBlockSparseTensorDescriptor_t>(0x1);
  trntensorBlockSparseTensorDescriptor_t d = sentinel;
  EXPECT_EQ(trntensorCreateBlockSparseTensorDescriptor(nullptr, &d, 2, 2, nsec, ext, coords, nullptr, TRN_R_32F),
            TRNTENSOR_STATUS_NOT_INITIALIZED);
  struct Case {
    uint32_t modes;
    const uint32_t* nsec;
    const int64_t* ext;
    const int32_t* coords;
    const int64_t* stride;
    int dt;
    trntensorStatus_t status;
    int position;
  } cases[] = {
      {9, nsec, ext, coords, nullptr, TRN_R_32F, TRNTENSOR_STATUS_INVALID_VALUE, 2},
      {2, nullptr, ext, coords, nullptr, TRN_R_32F, TRNTENSOR_STATUS_INVALID_VALUE, 4},
      {2, nsec, nullptr, coords, nullptr, TRN_R_32F, TRNTENSOR_STATUS_INVALID_VALUE, 5},
      {2, nsec, ext, nullptr, nullptr, TRN_R_32F, TRNTENSOR_STATUS_INVALID_VALUE, 6},
      {2, nsec, ext, bad_coords, nullptr, TRN_R_32F, TRNTENSOR_STATUS_INVALID_VALUE, 6},
      {2, nsec, ext, coords, neg_stride, TRN_R_32F, TRNTENSOR_STATUS_INVALID_VALUE, 7},
      {2, nsec, ext, coords, nullptr, 999, TRNTENSOR_STATUS_INVALID_VALUE, 8},
      {2, nsec, ext, coords, nullptr, TRN_R_8I, TRNTENSOR_STATUS_NOT_SUPPORTED, 0},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(trntensorCreateBlockSparseTensorDescriptor(h, &d, c.modes, 2, c.nsec, c.ext, c.coords, c.stride,
                                                         static_cast<trntensorDataType_t>(c.dt)),
              c.status)
        << c.position;
    if (c.position > 0) {
      EXPECT_EQ(last_position(), c.position);
    }
    EXPECT_EQ(d, sentinel);
  }
  EXPECT_EQ(trntensorDestroyBlockSparseTensorDescriptor(nullptr), TRNTENSOR_STATUS_INVALID_VALUE);

  // Contraction: descriptors, modes, operators, compute descriptor; mismatched sections.
  trntensorBlockSparseTensorDescriptor_t a = nullptr, b = nullptr, b2 = nullptr;
  ASSERT_EQ(trntensorCreateBlockSparseTensorDescriptor(h, &a, 2, 2, nsec, ext, coords, nullptr, TRN_R_32F), TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorCreateBlockSparseTensorDescriptor(h, &b, 2, 2, nsec, ext, coords, nullptr, TRN_R_32F), TRNTENSOR_STATUS_SUCCESS);
  const int64_t ext2[4] = {4, 6, 4, 7};
  ASSERT_EQ(trntensorCreateBlockSparseTensorDescriptor(h, &b2, 2, 2, nsec, ext2, coords, nullptr, TRN_R_32F), TRNTENSOR_STATUS_SUCCESS);
  const int32_t mA[2] = {'m', 'k'}, mB[2] = {'k', 'n'}, mD[2] = {'m', 'n'};
  const auto id = TRNTENSOR_OP_IDENTITY;
  trntensorOperationDescriptor_t op = reinterpret_cast<trntensorOperationDescriptor_t>(0x2);
  EXPECT_EQ(trntensorCreateBlockSparseContraction(h, &op, nullptr, mA, id, b, mB, id, a, mD, id, a, mD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 2);
  EXPECT_EQ(trntensorCreateBlockSparseContraction(h, &op, a, mA, id, b, nullptr, id, a, mD, id, a, mD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 6);
  EXPECT_EQ(trntensorCreateBlockSparseContraction(h, &op, a, mA, id, b, mB, TRNTENSOR_OP_EXP, a, mD, id, a, mD,
                                                  TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 7);
  EXPECT_EQ(trntensorCreateBlockSparseContraction(h, &op, a, mA, id, b, mB, id, a, mD, id, a, mD, nullptr),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 12);
  // b2's 'n' sections (4, 7) differ from D's (4, 6): the message names the mode.
  EXPECT_EQ(trntensorCreateBlockSparseContraction(h, &op, a, mA, id, b2, mB, id, a, mD, id, a, mD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(op, reinterpret_cast<trntensorOperationDescriptor_t>(0x2));

  ASSERT_EQ(trntensorCreateBlockSparseContraction(h, &op, a, mA, id, b, mB, id, a, mD, id, a, mD, TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_SUCCESS);
  trntensorPlan_t plan = plan_of(op);
  std::vector<float> x(64, 1.0f);
  const void* in[2] = {x.data(), x.data()};
  const void* in_null[2] = {x.data(), nullptr};
  float out0[16], out1[36];
  std::fill(out0, out0 + 16, 5.0f);
  std::fill(out1, out1 + 36, 5.0f);
  void* out[2] = {out0, out1};
  const float one = 1.0f, zero = 0.0f;
  EXPECT_EQ(trntensorBlockSparseContract(h, plan, nullptr, in, in, &zero, nullptr, out, nullptr, 0, nullptr),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 2);
  EXPECT_EQ(trntensorBlockSparseContract(h, plan, &one, in_null, in, &zero, nullptr, out, nullptr, 0, nullptr),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 3);
  EXPECT_EQ(trntensorBlockSparseContract(h, plan, &one, in, in, &one, nullptr, out, nullptr, 0, nullptr),
            TRNTENSOR_STATUS_INVALID_VALUE);  // beta != 0 reads C
  EXPECT_EQ(last_position(), 6);
  EXPECT_EQ(trntensorBlockSparseContract(h, plan, &one, in, in, &zero, nullptr, nullptr, nullptr, 0, nullptr),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 7);
  for (float v : out0) EXPECT_EQ(v, 5.0f);
  ASSERT_EQ(trntensorBlockSparseContract(h, plan, &one, in, in, &zero, nullptr, out, nullptr, 0, nullptr),
            TRNTENSOR_STATUS_SUCCESS);
  for (float v : out0) EXPECT_EQ(v, 4.0f);   // block (0,0): k section 0 of extent 4
  for (float v : out1) EXPECT_EQ(v, 6.0f);   // block (1,1): k section 1 of extent 6
  trntensorDestroyPlan(plan);
  trntensorDestroyOperationDescriptor(op);
  for (auto t : {a, b, b2}) trntensorDestroyBlockSparseTensorDescriptor(t);
}

// ---- plan cache -------------------------------------------------------------------------------------------

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
void spit(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}
// FNV-1a 64, written here independently of the library, to forge files with a valid checksum.
std::string with_checksum(const std::string& body) {
  std::uint64_t x = 1469598103934665603ULL;
  for (unsigned char c : body) {
    x ^= c;
    x *= 1099511628211ULL;
  }
  char tail[40];
  std::snprintf(tail, sizeof tail, "checksum %016llx\n", static_cast<unsigned long long>(x));
  return body + tail;
}

class PlanCache : public Api2x {
 protected:
  // A contraction D[m,n] = A[m,k] B[k,n] of the given sizes and its plan under `objective`.
  trntensorOperationDescriptor_t matmul(int64_t m, int64_t n, int64_t k) {
    auto a = desc({m, k}), b = desc({k, n}), d = desc({m, n});
    const int32_t ma[2] = {'m', 'k'}, mb[2] = {'k', 'n'}, md[2] = {'m', 'n'};
    trntensorOperationDescriptor_t op = nullptr;
    EXPECT_EQ(trntensorCreateContraction(h, &op, a, ma, TRNTENSOR_OP_IDENTITY, b, mb, TRNTENSOR_OP_IDENTITY, d, md,
                                         TRNTENSOR_OP_IDENTITY, d, md, TRNTENSOR_COMPUTE_DESC_32F),
              TRNTENSOR_STATUS_SUCCESS);
    for (auto t : {a, b, d}) trntensorDestroyTensorDescriptor(t);
    ops.push_back(op);
    return op;
  }
  void plan(trntensorOperationDescriptor_t op, int objective = TRNTENSOR_OBJECTIVE_DEFAULT,
            int cache_mode = TRNTENSOR_CACHE_MODE_PEDANTIC) {
    trntensorPlanPreference_t pref = nullptr;
    ASSERT_EQ(trntensorCreatePlanPreference(h, &pref, TRNTENSOR_ALGO_DEFAULT, TRNTENSOR_JIT_MODE_NONE), TRNTENSOR_STATUS_SUCCESS);
    const int32_t o = objective, c = cache_mode;
    ASSERT_EQ(trntensorPlanPreferenceSetAttribute(h, pref, TRNTENSOR_PLAN_PREFERENCE_OBJECTIVE, &o, 4), TRNTENSOR_STATUS_SUCCESS);
    ASSERT_EQ(trntensorPlanPreferenceSetAttribute(h, pref, TRNTENSOR_PLAN_PREFERENCE_CACHE_MODE, &c, 4), TRNTENSOR_STATUS_SUCCESS);
    trntensorPlan_t p = nullptr;
    ASSERT_EQ(trntensorCreatePlan(h, &p, op, pref, UINT64_MAX), TRNTENSOR_STATUS_SUCCESS);
    trntensorDestroyPlan(p);
    trntensorDestroyPlanPreference(pref);
  }
  std::string written() {
    EXPECT_EQ(trntensorHandleWritePlanCacheToFile(h, path.c_str()), TRNTENSOR_STATUS_SUCCESS);
    return slurp(path);
  }
  static int lines_of(const std::string& file) {
    int n = -1;
    std::sscanf(file.c_str() + file.find('\n') + 1, "lines %d", &n);
    return n;
  }
  void TearDown() override {
    for (auto op : ops) trntensorDestroyOperationDescriptor(op);
    std::remove(path.c_str());
    Api2x::TearDown();
  }
  std::vector<trntensorOperationDescriptor_t> ops;
  std::string path = ::testing::TempDir() + "trntensor_plan_cache_" +
                     ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".txt";
};

TEST_F(PlanCache, LinesAreKeyedLruAndBypassedByCacheModeNone) {
  EXPECT_EQ(lines_of(written()), 0);
  auto op1 = matmul(64, 48, 32), op2 = matmul(8, 8, 300);
  plan(op1);
  plan(op1);
  EXPECT_EQ(lines_of(written()), 1);
  plan(op1, TRNTENSOR_OBJECTIVE_MODELED_TIME);  // another objective: another line
  plan(op2, TRNTENSOR_OBJECTIVE_DEFAULT, TRNTENSOR_CACHE_MODE_NONE);  // bypasses
  EXPECT_EQ(lines_of(written()), 2);
  plan(op2);
  const std::string three = written();
  EXPECT_EQ(lines_of(three), 3);
  // Most recent first: op2's line (K = 300) leads.
  EXPECT_NE(three.find("300"), std::string::npos);
  EXPECT_LT(three.find(" 300 "), three.find(" 64 "));
  ASSERT_EQ(trntensorHandleResizePlanCache(h, 1), TRNTENSOR_STATUS_SUCCESS);  // resizing empties
  EXPECT_EQ(lines_of(written()), 0);
  plan(op1);
  plan(op2);
  EXPECT_EQ(lines_of(written()), 1);  // one line: the least recently used went
  ASSERT_EQ(trntensorHandleResizePlanCache(h, 0), TRNTENSOR_STATUS_SUCCESS);
  plan(op1);
  EXPECT_EQ(lines_of(written()), 0);
  EXPECT_EQ(trntensorHandleResizePlanCache(nullptr, 4), TRNTENSOR_STATUS_NOT_INITIALIZED);
}

TEST_F(PlanCache, FileRoundTripsIntoAnotherHandle) {
  auto op1 = matmul(64, 48, 32), op2 = matmul(5, 700, 3);
  plan(op1);
  plan(op2, TRNTENSOR_OBJECTIVE_MODELED_TIME);
  const std::string file = written();
  ASSERT_EQ(file.rfind("trntensor-plan-cache 1\nlines 2\n", 0), 0u) << file;
  trntensorHandle_t h2 = nullptr;
  ASSERT_EQ(trntensorCreate(&h2), TRNTENSOR_STATUS_SUCCESS);
  uint32_t n = 77;
  ASSERT_EQ(trntensorHandleReadPlanCacheFromFile(h2, path.c_str(), &n), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(n, 2u);
  const std::string path2 = path + ".2";
  ASSERT_EQ(trntensorHandleWritePlanCacheToFile(h2, path2.c_str()), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(slurp(path2), file);  // same lines, same order
  std::remove(path2.c_str());
  // A handle on another target cannot make these plans (the key holds the target): refused.
  trntensorHandle_t h3 = nullptr;
  ASSERT_EQ(trntensorCreate(&h3), TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorSetTarget(h3, TRN_TARGET_TRN2), TRNTENSOR_STATUS_SUCCESS);
  n = 77;
  EXPECT_EQ(trntensorHandleReadPlanCacheFromFile(h3, path.c_str(), &n), TRNTENSOR_STATUS_IO_ERROR);
  EXPECT_EQ(n, 77u);
  trntensorDestroy(h3);
  trntensorDestroy(h2);
}

TEST_F(PlanCache, CorruptTruncatedForeignAndFutureFilesAreAStatusNeverACrash) {
  auto op1 = matmul(64, 48, 32), op2 = matmul(16, 16, 16);
  plan(op1);
  plan(op2);
  const std::string good = written();
  trntensorHandle_t h2 = nullptr;
  ASSERT_EQ(trntensorCreate(&h2), TRNTENSOR_STATUS_SUCCESS);
  const std::string other = path + ".other";
  auto refused = [&](const std::string& text) {
    spit(other, text);
    uint32_t n = 99;
    const trntensorStatus_t st = trntensorHandleReadPlanCacheFromFile(h2, other.c_str(), &n);
    EXPECT_EQ(n, 99u);
    return st == TRNTENSOR_STATUS_IO_ERROR;
  };
  // Every single-byte change (a bit flip at each position) and every truncation.
  for (std::size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0x04);
    ASSERT_TRUE(refused(bad)) << "flip at " << i;
  }
  // (Only the final newline may go: the checksum line then still holds its 16 digits.)
  for (std::size_t len = 0; len + 1 < good.size(); ++len) ASSERT_TRUE(refused(good.substr(0, len))) << "length " << len;
  // Foreign files with a valid checksum: other magic, a future version, a changed fingerprint, an
  // extra line, a key the planner rejects, garbage.
  const std::size_t nl = good.find('\n');
  const std::string body = good.substr(0, good.rfind("checksum "));
  EXPECT_TRUE(refused(with_checksum("cutensor-plan-cache 1" + body.substr(nl))));
  EXPECT_TRUE(refused(with_checksum("trntensor-plan-cache 2" + body.substr(nl))));
  std::string fp = body;
  fp[fp.rfind('\n') - 1] = fp[fp.rfind('\n') - 1] == '0' ? '1' : '0';  // last fingerprint field (workspace bytes)
  EXPECT_TRUE(refused(with_checksum(fp)));
  EXPECT_TRUE(refused(with_checksum(body + "0 0 0 0 1 0 0 0 | 0\n")));
  std::string wrong_extent = body;
  wrong_extent.replace(wrong_extent.find(" 64 "), 4, " -4 ");
  EXPECT_TRUE(refused(with_checksum(wrong_extent)));
  EXPECT_TRUE(refused(with_checksum("trntensor-plan-cache 1\nlines 1\n0 0 0 0 1 0 0 0 0 2 99999999999 1 1 1 1 1 | 0\n")));
  EXPECT_TRUE(refused(std::string("\0\xff\x01garbage", 10)));
  uint32_t n = 0;
  EXPECT_EQ(trntensorHandleReadPlanCacheFromFile(h2, (path + ".missing").c_str(), &n), TRNTENSOR_STATUS_IO_ERROR);
  // After all that, h2's cache is still empty and the good file still reads.
  const std::string empty_path = path + ".empty";
  ASSERT_EQ(trntensorHandleWritePlanCacheToFile(h2, empty_path.c_str()), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(lines_of(slurp(empty_path)), 0);
  spit(other, good);
  ASSERT_EQ(trntensorHandleReadPlanCacheFromFile(h2, other.c_str(), &n), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(n, 2u);
  // Bad arguments.
  EXPECT_EQ(trntensorHandleReadPlanCacheFromFile(h2, nullptr, &n), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorHandleReadPlanCacheFromFile(h2, other.c_str(), nullptr), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorHandleWritePlanCacheToFile(h2, ""), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorHandleWritePlanCacheToFile(h2, "/nonexistent-dir/x/cache.txt"), TRNTENSOR_STATUS_IO_ERROR);
  EXPECT_EQ(trntensorHandleWritePlanCacheToFile(nullptr, other.c_str()), TRNTENSOR_STATUS_NOT_INITIALIZED);
  std::remove(other.c_str());
  std::remove(empty_path.c_str());
  trntensorDestroy(h2);
}

// ---- plan preference attributes, logger, version --------------------------------------------------------

TEST_F(Api2x, PlanPreferenceGetAttributeReturnsDefaultsAndWhatWasSet) {
  trntensorPlanPreference_t pref = nullptr;
  ASSERT_EQ(trntensorCreatePlanPreference(h, &pref, TRNTENSOR_ALGO_TTGT, TRNTENSOR_JIT_MODE_DEFAULT), TRNTENSOR_STATUS_SUCCESS);
  const std::map<int, int32_t> defaults{{TRNTENSOR_PLAN_PREFERENCE_AUTOTUNE_MODE, TRNTENSOR_AUTOTUNE_MODE_NONE},
                                        {TRNTENSOR_PLAN_PREFERENCE_CACHE_MODE, TRNTENSOR_CACHE_MODE_PEDANTIC},
                                        {TRNTENSOR_PLAN_PREFERENCE_INCREMENTAL_COUNT, 0},
                                        {TRNTENSOR_PLAN_PREFERENCE_ALGO, TRNTENSOR_ALGO_TTGT},
                                        {TRNTENSOR_PLAN_PREFERENCE_KERNEL_RANK, 0},
                                        {TRNTENSOR_PLAN_PREFERENCE_JIT, TRNTENSOR_JIT_MODE_DEFAULT},
                                        {TRNTENSOR_PLAN_PREFERENCE_OBJECTIVE, TRNTENSOR_OBJECTIVE_DEFAULT}};
  for (const auto& [attr, want] : defaults) {
    int32_t v = -99;
    ASSERT_EQ(trntensorPlanPreferenceGetAttribute(h, pref, static_cast<trntensorPlanPreferenceAttribute_t>(attr), &v, 4),
              TRNTENSOR_STATUS_SUCCESS);
    EXPECT_EQ(v, want) << attr;
  }
  const std::map<int, int32_t> set{{TRNTENSOR_PLAN_PREFERENCE_AUTOTUNE_MODE, TRNTENSOR_AUTOTUNE_MODE_INCREMENTAL},
                                   {TRNTENSOR_PLAN_PREFERENCE_CACHE_MODE, TRNTENSOR_CACHE_MODE_NONE},
                                   {TRNTENSOR_PLAN_PREFERENCE_INCREMENTAL_COUNT, 5},
                                   {TRNTENSOR_PLAN_PREFERENCE_ALGO, TRNTENSOR_ALGO_GETT},
                                   {TRNTENSOR_PLAN_PREFERENCE_KERNEL_RANK, 2},
                                   {TRNTENSOR_PLAN_PREFERENCE_JIT, TRNTENSOR_JIT_MODE_NONE},
                                   {TRNTENSOR_PLAN_PREFERENCE_OBJECTIVE, TRNTENSOR_OBJECTIVE_MODELED_TIME}};
  for (const auto& [attr, v] : set)
    ASSERT_EQ(trntensorPlanPreferenceSetAttribute(h, pref, static_cast<trntensorPlanPreferenceAttribute_t>(attr), &v, 4),
              TRNTENSOR_STATUS_SUCCESS);
  for (const auto& [attr, want] : set) {
    int32_t v = -99;
    ASSERT_EQ(trntensorPlanPreferenceGetAttribute(h, pref, static_cast<trntensorPlanPreferenceAttribute_t>(attr), &v, 4),
              TRNTENSOR_STATUS_SUCCESS);
    EXPECT_EQ(v, want) << attr;
  }
  int32_t v = -99;
  const int32_t bad_mode = 7;
  EXPECT_EQ(trntensorPlanPreferenceSetAttribute(h, pref, TRNTENSOR_PLAN_PREFERENCE_CACHE_MODE, &bad_mode, 4),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorPlanPreferenceGetAttribute(nullptr, pref, TRNTENSOR_PLAN_PREFERENCE_ALGO, &v, 4),
            TRNTENSOR_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(trntensorPlanPreferenceGetAttribute(h, nullptr, TRNTENSOR_PLAN_PREFERENCE_ALGO, &v, 4), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 1);
  EXPECT_EQ(trntensorPlanPreferenceGetAttribute(h, pref, static_cast<trntensorPlanPreferenceAttribute_t>(77), &v, 4),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 2);
  EXPECT_EQ(trntensorPlanPreferenceGetAttribute(h, pref, TRNTENSOR_PLAN_PREFERENCE_ALGO, nullptr, 4), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 3);
  EXPECT_EQ(trntensorPlanPreferenceGetAttribute(h, pref, TRNTENSOR_PLAN_PREFERENCE_ALGO, &v, 8), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_position(), 4);
  EXPECT_EQ(v, -99);
  trntensorDestroyPlanPreference(pref);
}

TEST_F(Api2x, LoggerSetFileAndMaskAndCudartVersion) {
  EXPECT_EQ(trntensorGetCudartVersion(), static_cast<size_t>(13000));
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(trntensorLoggerSetFile(nullptr), TRNTENSOR_STATUS_INVALID_VALUE);
  ASSERT_EQ(trntensorLoggerSetFile(f), TRNTENSOR_STATUS_SUCCESS);
  ASSERT_EQ(trntensorLoggerSetMask(1), TRNTENSOR_STATUS_SUCCESS);
  uint32_t n = 0;
  EXPECT_EQ(trntensorHandleReadPlanCacheFromFile(h, nullptr, &n), TRNTENSOR_STATUS_INVALID_VALUE);
  std::fflush(f);
  std::rewind(f);
  char buf[512] = {0};
  const std::size_t got = std::fread(buf, 1, sizeof buf - 1, f);
  EXPECT_GT(got, 0u);
  EXPECT_NE(std::string(buf).find("trntensorHandleReadPlanCacheFromFile"), std::string::npos) << buf;
  EXPECT_EQ(trntensorLoggerSetMask(-1), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorLoggerSetMask(32), TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorLoggerForceDisable(), TRNTENSOR_STATUS_SUCCESS);
  std::fclose(f);
}

}  // namespace
