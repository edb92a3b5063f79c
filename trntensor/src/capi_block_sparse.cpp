// trntensor.h: cuTENSOR 2.x's element-wise trinary and block-sparse entry points, written with the
// C-shim kit like capi.cpp (handle first, arguments checked in signature order with 1-based
// positions not counting the handle, outputs untouched on any failure).
#include <cstring>
#include <string>
#include <vector>

#include "capi_detail.hpp"

struct trntensorBlockSparseTensorDescriptor {
  trn::tensor::BlockSparseTensor tensor;
  int data_type = 0;
};

namespace {

using namespace trntensor_capi;

trn::cshim::HandleRegistry<trntensorBlockSparseTensorDescriptor> g_sparse_descs;

constexpr std::uint32_t kMaxBlockSparseModes = 8;  // cuTENSOR's limit
constexpr std::uint64_t kMaxBlocks = std::uint64_t{1} << 24;

bool binary_op_ok(int v) {
  return v == TRNTENSOR_OP_ADD || v == TRNTENSOR_OP_MUL || v == TRNTENSOR_OP_MAX || v == TRNTENSOR_OP_MIN;
}

}  // namespace

extern "C" {

// ---- element-wise trinary ------------------------------------------------------------------------------

trntensorStatus_t trntensorCreateElementwiseTrinary(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t* desc, const trntensorTensorDescriptor_t descA,
    const int32_t modeA[], trntensorOperator_t opA, const trntensorTensorDescriptor_t descB, const int32_t modeB[],
    trntensorOperator_t opB, const trntensorTensorDescriptor_t descC, const int32_t modeC[], trntensorOperator_t opC,
    const trntensorTensorDescriptor_t descD, const int32_t modeD[], trntensorOperator_t opAB, trntensorOperator_t opABC,
    const trntensorComputeDescriptor_t descCompute) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorCreateElementwiseTrinary";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  const int ab = trn::cshim::enum_value(opAB), abc = trn::cshim::enum_value(opABC);
  check.not_null(desc, 1, "desc");
  check_operands(check, {{'A', descA, modeA, &opA}, {'B', descB, modeB, &opB}, {'C', descC, modeC, &opC},
                         {'D', descD, modeD, nullptr}},
                 true);
  check.require(binary_op_ok(ab), 13, "opAB").require(binary_op_ok(abc), 14, "opABC")
      .require(compute_ok(descCompute), 15, "descCompute");
  if (!check) return check.status();
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::tensor::ElementwiseTrinarySpec s;
    take_operand(descA, modeA, &s.a, &s.modes_a);
    take_operand(descB, modeB, &s.b, &s.modes_b);
    take_operand(descC, modeC, &s.c, &s.modes_c);
    take_operand(descD, modeD, &s.d, &s.modes_d);
    s.op_ab = elementwise_op_of(ab);
    s.op_abc = elementwise_op_of(abc);
    s.op_a = unary_of(opA);
    s.op_b = unary_of(opB);
    s.op_c = unary_of(opC);
    s.compute = descCompute->type;
    auto o = std::make_unique<trntensorOperationDescriptor>();
    o->elementwise_trinary = std::make_shared<const trn::tensor::ElementwiseTrinaryPlan>(s);  // validates
    o->kind = kElementwiseTrinary;
    g_ops.insert(o.get());
    *desc = o.release();
  });
}

trntensorStatus_t trntensorElementwiseTrinaryExecute(const trntensorHandle_t handle, const trntensorPlan_t plan,
                                                     const void* alpha, const void* A, const void* beta, const void* B,
                                                     const void* gamma, const void* C, void* D, trnStream_t stream) {
  (void)stream;  // synchronous
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorElementwiseTrinaryExecute";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.require(g_plans.contains(plan), 1, "plan");
  if (check) check.require(plan->kind == kElementwiseTrinary, 1, "plan (not an element-wise trinary plan)");
  check.not_null(alpha, 2, "alpha").not_null(A, 3, "A").require(aligned(A, 4), 3, "A (misaligned)")
      .not_null(beta, 4, "beta").not_null(B, 5, "B").require(aligned(B, 4), 5, "B (misaligned)")
      .not_null(gamma, 6, "gamma").not_null(C, 7, "C").require(aligned(C, 4), 7, "C (misaligned)")
      .not_null(D, 8, "D").require(aligned(D, 4), 8, "D (misaligned)");
  if (!check) return check.status();
  float a, b, g;
  std::memcpy(&a, alpha, sizeof a);
  std::memcpy(&b, beta, sizeof b);
  std::memcpy(&g, gamma, sizeof g);
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::blas::CallReport r;
    plan->elementwise_trinary->execute(handle->settings, a, A, b, B, g, C, D, &r);
    handle->last_profile = r.profile.to_c();
  });
}

// ---- block-sparse ----------------------------------------------------------------------------------------

trntensorStatus_t trntensorCreateBlockSparseTensorDescriptor(
    trntensorHandle_t handle, trntensorBlockSparseTensorDescriptor_t* desc, const uint32_t numModes,
    const uint64_t numNonZeroBlocks, const uint32_t numSectionsPerMode[], const int64_t extent[],
    const int32_t nonZeroCoordinates[], const int64_t stride[], trntensorDataType_t dataType) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorCreateBlockSparseTensorDescriptor";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  const int dt = trn::cshim::enum_value(dataType);
  check.not_null(desc, 1, "desc").require(numModes <= kMaxBlockSparseModes, 2, "numModes (at most 8)")
      .require(numNonZeroBlocks <= kMaxBlocks, 3, "numNonZeroBlocks")
      .require(numModes == 0 || numSectionsPerMode != nullptr, 4, "numSectionsPerMode");
  std::uint64_t sections = 0;
  for (std::uint32_t i = 0; check && i < numModes; ++i) {
    check.require(numSectionsPerMode[i] > 0 && numSectionsPerMode[i] <= (1u << 20), 4, "numSectionsPerMode");
    sections += numSectionsPerMode[i];
  }
  check.require(sections == 0 || extent != nullptr, 5, "extent");
  for (std::uint64_t i = 0; check && i < sections; ++i) check.require(extent[i] > 0, 5, "extent");
  check.require(numModes == 0 || numNonZeroBlocks == 0 || nonZeroCoordinates != nullptr, 6, "nonZeroCoordinates");
  for (std::uint64_t b = 0; check && b < numNonZeroBlocks; ++b)
    for (std::uint32_t i = 0; check && i < numModes; ++i) {
      const int32_t c = nonZeroCoordinates[b * numModes + i];
      check.require(c >= 0 && static_cast<std::uint32_t>(c) < numSectionsPerMode[i], 6, "nonZeroCoordinates");
    }
  for (std::uint64_t i = 0; stride != nullptr && check && i < numNonZeroBlocks * numModes; ++i)
    check.require(stride[i] >= 0, 7, "stride");
  check.require(data_type_known(dt), 8, "dataType")
      .require_or(data_type_supported(dt), TRNTENSOR_STATUS_NOT_SUPPORTED, "TRNTENSOR_STATUS_NOT_SUPPORTED",
                  "data type " + std::to_string(dt) + " (R_32F, R_64F, R_16BF, R_16F, C_32F and C_64F)");
  if (!check) return check.status();
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    auto d = std::make_unique<trntensorBlockSparseTensorDescriptor>();
    trn::tensor::BlockSparseTensor& t = d->tensor;
    t.dtype = data_type_of(dt);
    const int64_t* e = extent;
    for (std::uint32_t i = 0; i < numModes; ++i, e += numSectionsPerMode[i - 1]) t.sections.emplace_back(e, e + numSectionsPerMode[i]);
    for (std::uint64_t b = 0; b < numNonZeroBlocks; ++b) {
      t.blocks.emplace_back(nonZeroCoordinates + b * numModes, nonZeroCoordinates + (b + 1) * numModes);
      if (stride != nullptr) t.strides.emplace_back(stride + b * numModes, stride + (b + 1) * numModes);
    }
    for (std::uint64_t b = 0; b < numNonZeroBlocks; ++b) (void)trn::tensor::block_desc(t, b);  // validates each block
    d->data_type = dt;
    g_sparse_descs.insert(d.get());
    *desc = d.release();
  });
}

trntensorStatus_t trntensorDestroyBlockSparseTensorDescriptor(trntensorBlockSparseTensorDescriptor_t desc) {
  if (!g_sparse_descs.erase(desc)) return TRNTENSOR_STATUS_INVALID_VALUE;
  delete desc;
  return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorCreateBlockSparseContraction(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t* desc, const trntensorBlockSparseTensorDescriptor_t descA,
    const int32_t modeA[], trntensorOperator_t opA, const trntensorBlockSparseTensorDescriptor_t descB,
    const int32_t modeB[], trntensorOperator_t opB, const trntensorBlockSparseTensorDescriptor_t descC,
    const int32_t modeC[], trntensorOperator_t opC, const trntensorBlockSparseTensorDescriptor_t descD,
    const int32_t modeD[], const trntensorComputeDescriptor_t descCompute) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorCreateBlockSparseContraction";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.not_null(desc, 1, "desc");
  const trntensorBlockSparseTensorDescriptor_t ds[4] = {descA, descB, descC, descD};
  const int32_t* const ms[4] = {modeA, modeB, modeC, modeD};
  const trntensorOperator_t* const ops[4] = {&opA, &opB, &opC, nullptr};
  for (int t = 0, pos = 2; t < 4; ++t) {
    const std::string letter(1, static_cast<char>('A' + t));
    check.require(g_sparse_descs.contains(ds[t]), pos, "desc" + letter);
    if (check) check.require(ds[t]->tensor.sections.empty() || ms[t] != nullptr, pos + 1, "mode" + letter);
    if (ops[t] != nullptr) check.require(unary_op_ok(*ops[t]), pos + 2, "op" + letter);
    pos += ops[t] != nullptr ? 3 : 2;
  }
  check.require(compute_ok(descCompute), 12, "descCompute");
  if (check)
    check.require_or(trn::cshim::enum_value(opC) != TRNTENSOR_OP_CONJ || !trn::tensor::is_complex(descC->tensor.dtype),
                     TRNTENSOR_STATUS_NOT_SUPPORTED, "TRNTENSOR_STATUS_NOT_SUPPORTED", "opC CONJ on complex C");
  if (!check) return check.status();
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::tensor::BlockSparseSpec s;
    trn::tensor::BlockSparseTensor* ts[4] = {&s.a, &s.b, &s.c, &s.d};
    std::vector<std::int32_t>* mv[4] = {&s.modes_a, &s.modes_b, &s.modes_c, &s.modes_d};
    for (int t = 0; t < 4; ++t) {
      *ts[t] = ds[t]->tensor;
      mv[t]->assign(ms[t], ms[t] + ts[t]->sections.size());
    }
    s.conj_a = trn::cshim::enum_value(opA) == TRNTENSOR_OP_CONJ;
    s.conj_b = trn::cshim::enum_value(opB) == TRNTENSOR_OP_CONJ;
    s.compute = descCompute->type;
    auto o = std::make_unique<trntensorOperationDescriptor>();
    o->block_sparse = std::make_shared<const trn::tensor::BlockSparseContractionPlan>(s);  // validates
    o->kind = kBlockSparse;
    g_ops.insert(o.get());
    *desc = o.release();
  });
}

trntensorStatus_t trntensorBlockSparseContract(const trntensorHandle_t handle, const trntensorPlan_t plan,
                                               const void* alpha, const void* const A[], const void* const B[],
                                               const void* beta, const void* const C[], void* const D[],
                                               void* workspace, uint64_t workspaceSize, trnStream_t stream) {
  (void)stream;  // synchronous
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorBlockSparseContract";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.require(g_plans.contains(plan), 1, "plan");
  if (check) check.require(plan->kind == kBlockSparse, 1, "plan (not a block-sparse contraction plan)");
  check.not_null(alpha, 2, "alpha").not_null(beta, 5, "beta");
  if (!check) return check.status();
  const trn::tensor::BlockSparseContractionPlan& p = *plan->block_sparse;
  const trn::tensor::BlockSparseSpec& s = p.spec();
  const std::size_t es = element_alignment(s.a.dtype);
  const std::complex<double> a = read_scalar(alpha, s.a.dtype, s.compute), b = read_scalar(beta, s.a.dtype, s.compute);
  // Every stored block's pointer: present and aligned to its element.
  auto blocks_ok = [&](const void* const* ptrs, std::size_t n, bool needed) {
    if (!needed || n == 0) return true;
    if (ptrs == nullptr) return false;
    for (std::size_t i = 0; i < n; ++i)
      if (ptrs[i] == nullptr || !aligned(ptrs[i], es)) return false;
    return true;
  };
  check.require(blocks_ok(A, s.a.blocks.size(), true), 3, "A (a NULL or misaligned block pointer)")
      .require(blocks_ok(B, s.b.blocks.size(), true), 4, "B (a NULL or misaligned block pointer)")
      .require(blocks_ok(C, s.c.blocks.size(), b != 0.0), 6, "C (a NULL or misaligned block pointer)")
      .require(blocks_ok(reinterpret_cast<const void* const*>(D), s.d.blocks.size(), true), 7,
               "D (a NULL or misaligned block pointer)");
  return execute_checked(check, fn, handle, *plan, p, workspace, workspaceSize, a, A, B, b, C, D);
}

}  // extern "C"
