// trntensor.h: the C shim, written with the C-shim kit (core/include/trn/core/c_shim.hpp). Each
// entry point checks its handle, checks its arguments in signature order (1-based positions, not
// counting the handle, logged), then runs the C++ API inside `guarded`. Outputs are untouched on
// any failure.
#include "trntensor.h"

#include <algorithm>
#include <atomic>
#include <complex>
#include <cstring>
#include <memory>
#include <string>

#include "trn/core/c_shim.hpp"
#include "capi_detail.hpp"
#include "trn/tensor/tensor.hpp"

using trn::tensor::ComputeType;
using trn::tensor::DataType;


namespace {

const trntensorComputeDescriptor kCompute16F{ComputeType::f16}, kCompute16BF{ComputeType::bf16},
    kComputeTF32{ComputeType::tf32}, kCompute3XTF32{ComputeType::tf32x3}, kCompute32F{ComputeType::f32},
    kCompute64F{ComputeType::f64}, kCompute9X16BF{ComputeType::bf16x9};

}  // namespace

extern "C" {
const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_16F = const_cast<trntensorComputeDescriptor*>(&kCompute16F);
const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_16BF = const_cast<trntensorComputeDescriptor*>(&kCompute16BF);
const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_TF32 = const_cast<trntensorComputeDescriptor*>(&kComputeTF32);
const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_3XTF32 = const_cast<trntensorComputeDescriptor*>(&kCompute3XTF32);
const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_32F = const_cast<trntensorComputeDescriptor*>(&kCompute32F);
const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_64F = const_cast<trntensorComputeDescriptor*>(&kCompute64F);
const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_9X16BF = const_cast<trntensorComputeDescriptor*>(&kCompute9X16BF);
}

namespace trntensor_capi {

trn::cshim::Logger g_log("TRNTENSOR");
trn::cshim::HandleRegistry<trntensorHandle> g_handles;
trn::cshim::HandleRegistry<trntensorTensorDescriptor> g_descs;
trn::cshim::HandleRegistry<trntensorOperationDescriptor> g_ops;
trn::cshim::HandleRegistry<trntensorPlanPreference> g_prefs;
trn::cshim::HandleRegistry<trntensorPlan> g_plans;

const trn::cshim::StatusMap<trntensorStatus_t> kStatusMap{
    TRNTENSOR_STATUS_SUCCESS,        TRNTENSOR_STATUS_ALLOC_FAILED,     TRNTENSOR_STATUS_NOT_SUPPORTED,
    TRNTENSOR_STATUS_INVALID_VALUE,  TRNTENSOR_STATUS_EXECUTION_FAILED, TRNTENSOR_STATUS_INTERNAL_ERROR,
    trntensorGetErrorString};

using Check = trn::cshim::ArgCheck<trntensorStatus_t>;

// The kit's emulation surface (SetTarget ... GetLastErrorParameter, the logger family) over trntensor handles.
constexpr trn::cshim::SurfaceCodes<trntensorStatus_t> kSurfaceCodes{TRNTENSOR_STATUS_SUCCESS, TRNTENSOR_STATUS_NOT_INITIALIZED,
                                                     TRNTENSOR_STATUS_INVALID_VALUE};
using Surface =
    trn::cshim::ContextBinding<trntensorHandle, trntensorStatus_t, &g_handles, &g_log, &kStatusMap, &kSurfaceCodes>;

bool compute_ok(const trntensorComputeDescriptor* c) {
  return c == &kCompute16F || c == &kCompute16BF || c == &kComputeTF32 || c == &kCompute3XTF32 || c == &kCompute32F ||
         c == &kCompute64F || c == &kCompute9X16BF;
}

// Known cudaDataType values: R_32F, R_64F, R_16BF and R_16F are supported, the others are NOT_SUPPORTED.
bool data_type_known(int v) { return (v >= 0 && v <= 33) || v == 1000 || v == 1001; }

bool aligned(const void* p, std::size_t a) { return reinterpret_cast<std::uintptr_t>(p) % a == 0; }

// The supported cudaDataType values as trntensor data types.
bool data_type_supported(int dt) {
  return dt == TRNTENSOR_R_32F || dt == TRNTENSOR_R_64F || dt == TRNTENSOR_R_16BF || dt == TRNTENSOR_R_16F ||
         dt == TRNTENSOR_C_32F || dt == TRNTENSOR_C_64F;
}
DataType data_type_of(int dt) {
  switch (dt) {
    case TRNTENSOR_R_64F: return DataType::f64;
    case TRNTENSOR_R_16BF: return DataType::bf16;
    case TRNTENSOR_R_16F: return DataType::f16;
    case TRNTENSOR_C_32F: return DataType::c32;
    case TRNTENSOR_C_64F: return DataType::c64;
    default: return DataType::f32;
  }
}

// A host scalar typed by the operation's SCALAR_TYPE (cuTENSOR's rule): complex float / double for
// C_32F / C_64F data, double for 64F compute on real data, float otherwise.
// Alignment a data pointer must have: its element size (complex: its components').
std::size_t element_alignment(DataType t) {
  const auto es = static_cast<std::size_t>(trn::tensor::data_type_size(t));
  return trn::tensor::is_complex(t) ? es / 2 : es;
}

std::complex<double> read_scalar(const void* p, DataType t, ComputeType c) {
  if (t == DataType::c64) {
    std::complex<double> z;
    std::memcpy(&z, p, sizeof z);
    return z;
  }
  if (t == DataType::c32) {
    std::complex<float> z;
    std::memcpy(&z, p, sizeof z);
    return {z.real(), z.imag()};
  }
  if (c == ComputeType::f64) {
    double x;
    std::memcpy(&x, p, sizeof x);
    return x;
  }
  float x;
  std::memcpy(&x, p, sizeof x);
  return x;
}

bool unary_op_ok(trntensorOperator_t op) {
  const int v = trn::cshim::enum_value(op);
  return v == TRNTENSOR_OP_IDENTITY || v == TRNTENSOR_OP_CONJ;
}

void check_workspace(Check& check, const trntensorPlan& plan, const void* workspace, std::uint64_t workspaceSize,
                     int position) {
  check.require(plan.workspace == 0 || workspace != nullptr, position, "workspace")
      .require(workspace == nullptr || aligned(workspace, 16), position, "workspace (not 16-byte aligned)")
      .require_or(workspaceSize >= plan.workspace, TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE,
                  "TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE",
                  "workspaceSize " + std::to_string(workspaceSize) + " < required " + std::to_string(plan.workspace));
}

// Checks the operands' parameters in signature order, starting at position 2 (position 1 is the
// output descriptor): a known descriptor, mode labels unless the tensor is a scalar, a unary operator.
void check_operands(Check& check, std::initializer_list<OperandArgs> operands, bool elementwise) {
  int position = 2;
  for (const OperandArgs& o : operands) {
    const std::string letter(1, o.letter);
    check.require(g_descs.contains(o.desc), position, "desc" + letter);
    if (check) check.require(o.desc->desc.extents.empty() || o.modes != nullptr, position + 1, "mode" + letter);
    if (o.op != nullptr)
      check.require(elementwise ? trn::tensor::unary_op_known(trn::cshim::enum_value(*o.op)) : unary_op_ok(*o.op),
                    position + 2, "op" + letter);
    position += o.op != nullptr ? 3 : 2;
  }
}

trn::tensor::ElementwiseOp elementwise_op_of(int v) {
  return v == TRNTENSOR_OP_ADD   ? trn::tensor::ElementwiseOp::add
         : v == TRNTENSOR_OP_MUL ? trn::tensor::ElementwiseOp::mul
         : v == TRNTENSOR_OP_MAX ? trn::tensor::ElementwiseOp::max
                                 : trn::tensor::ElementwiseOp::min;
}


// OPERATION_DESCRIPTOR_PADDING_LEFT/RIGHT (uint32 per mode of B, each < 2^31, padded extents within
// int64) or PADDING_VALUE (one element of B's data type); the permutation's plan is rebuilt for the
// padded interior. Nothing changes on error.
trntensorStatus_t set_padding(Check& check, const char* fn, trntensorOperationDescriptor* desc, int a, const void* buf,
                              std::size_t bytes) {
  check.require_or(desc->elementwise == nullptr, TRNTENSOR_STATUS_NOT_SUPPORTED, "TRNTENSOR_STATUS_NOT_SUPPORTED",
                   "padding with a unary operator other than IDENTITY / CONJ");
  if (!check) return check.status();
  const trn::tensor::TensorDesc& d = desc->base.d;
  if (a == TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE) {
    check.require(bytes == static_cast<std::size_t>(trn::tensor::data_type_size(d.dtype)), 4, "sizeInBytes (one element of B's data type)");
    if (!check) return check.status();
    std::memcpy(desc->pad_value.data(), buf, bytes);
    return TRNTENSOR_STATUS_SUCCESS;
  }
  const std::size_t modes = d.extents.size();
  check.require(bytes == modes * sizeof(std::int32_t), 4, "sizeInBytes (one uint32 per mode of B)");
  if (!check) return check.status();
  std::vector<std::int32_t> v(modes);
  if (modes > 0) std::memcpy(v.data(), buf, bytes);
  const std::vector<std::int32_t>& other = a == TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT ? desc->pad_right : desc->pad_left;
  for (std::size_t k = 0; k < modes && check; ++k)
    check.require(v[k] >= 0 && d.extents[k] + v[k] + other[k] < (std::int64_t{1} << 40), 3, "buf (padding)");
  if (!check) return check.status();
  std::vector<std::int32_t> left = desc->pad_left, right = desc->pad_right;
  (a == TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT ? left : right) = v;
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    desc->plan = trn::tensor::ContractionPlan(trn::tensor::padded_interior(desc->base, left, right));
    desc->pad_left = std::move(left);
    desc->pad_right = std::move(right);
  });
}
}  // namespace trntensor_capi

using namespace trntensor_capi;

extern "C" {

const char* trntensorGetErrorString(const trntensorStatus_t error) {
  switch (trn::cshim::enum_value(error)) {
    case TRNTENSOR_STATUS_SUCCESS: return "TRNTENSOR_STATUS_SUCCESS";
    case TRNTENSOR_STATUS_NOT_INITIALIZED: return "TRNTENSOR_STATUS_NOT_INITIALIZED";
    case TRNTENSOR_STATUS_ALLOC_FAILED: return "TRNTENSOR_STATUS_ALLOC_FAILED";
    case TRNTENSOR_STATUS_INVALID_VALUE: return "TRNTENSOR_STATUS_INVALID_VALUE";
    case TRNTENSOR_STATUS_ARCH_MISMATCH: return "TRNTENSOR_STATUS_ARCH_MISMATCH";
    case TRNTENSOR_STATUS_MAPPING_ERROR: return "TRNTENSOR_STATUS_MAPPING_ERROR";
    case TRNTENSOR_STATUS_EXECUTION_FAILED: return "TRNTENSOR_STATUS_EXECUTION_FAILED";
    case TRNTENSOR_STATUS_INTERNAL_ERROR: return "TRNTENSOR_STATUS_INTERNAL_ERROR";
    case TRNTENSOR_STATUS_NOT_SUPPORTED: return "TRNTENSOR_STATUS_NOT_SUPPORTED";
    case TRNTENSOR_STATUS_LICENSE_ERROR: return "TRNTENSOR_STATUS_LICENSE_ERROR";
    case TRNTENSOR_STATUS_CUBLAS_ERROR: return "TRNTENSOR_STATUS_CUBLAS_ERROR";
    case TRNTENSOR_STATUS_CUDA_ERROR: return "TRNTENSOR_STATUS_CUDA_ERROR";
    case TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE: return "TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE";
    case TRNTENSOR_STATUS_INSUFFICIENT_DRIVER: return "TRNTENSOR_STATUS_INSUFFICIENT_DRIVER";
    case TRNTENSOR_STATUS_IO_ERROR: return "TRNTENSOR_STATUS_IO_ERROR";
    default: return "TRNTENSOR_STATUS_UNKNOWN";
  }
}

size_t trntensorGetVersion(void) { return TRNTENSOR_VERSION; }

trntensorStatus_t trntensorCreate(trntensorHandle_t* handle) {
  Check check(g_log, "trntensorCreate", TRNTENSOR_STATUS_INVALID_VALUE);
  check.not_null(handle, 1, "handle");
  if (!check) return check.status();
  return Surface::create(handle);
}

trntensorStatus_t trntensorDestroy(trntensorHandle_t handle) { return Surface::destroy(handle); }

trntensorStatus_t trntensorCreateTensorDescriptor(const trntensorHandle_t handle, trntensorTensorDescriptor_t* desc,
                                                  const uint32_t numModes, const int64_t extent[], const int64_t stride[],
                                                  trntensorDataType_t dataType, uint32_t alignmentRequirement) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorCreateTensorDescriptor";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  const int dt = trn::cshim::enum_value(dataType);
  check.not_null(desc, 1, "desc").require(numModes <= 64, 2, "numModes").require(numModes == 0 || extent != nullptr, 3, "extent");
  for (std::uint32_t i = 0; i < numModes && check; ++i) check.require(extent[i] > 0, 3, "extent");
  for (std::uint32_t i = 0; stride != nullptr && i < numModes && check; ++i) check.require(stride[i] >= 0, 4, "stride");
  check.require(data_type_known(dt), 5, "dataType")
      .require(alignmentRequirement > 0 && (alignmentRequirement & (alignmentRequirement - 1)) == 0, 6,
               "alignmentRequirement")
      .require_or(data_type_supported(dt), TRNTENSOR_STATUS_NOT_SUPPORTED, "TRNTENSOR_STATUS_NOT_SUPPORTED",
                  "data type " + std::to_string(dt) + " (R_32F, R_64F, R_16BF, R_16F, C_32F and C_64F)");
  if (!check) return check.status();
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    auto d = std::make_unique<trntensorTensorDescriptor>();
    d->desc.extents.assign(extent, extent + numModes);
    if (stride != nullptr) d->desc.strides.assign(stride, stride + numModes);
    d->desc.dtype = data_type_of(dt);
    d->desc = trn::tensor::normalized(d->desc, "desc");
    d->strides_given = stride != nullptr;
    d->data_type = dt;
    d->alignment = alignmentRequirement;
    g_descs.insert(d.get());
    *desc = d.release();
  });
}

trntensorStatus_t trntensorDestroyTensorDescriptor(trntensorTensorDescriptor_t desc) {
  if (!g_descs.erase(desc)) return TRNTENSOR_STATUS_INVALID_VALUE;
  delete desc;
  return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorCreateContraction(const trntensorHandle_t handle, trntensorOperationDescriptor_t* desc,
                                             const trntensorTensorDescriptor_t descA, const int32_t modeA[],
                                             trntensorOperator_t opA, const trntensorTensorDescriptor_t descB,
                                             const int32_t modeB[], trntensorOperator_t opB,
                                             const trntensorTensorDescriptor_t descC, const int32_t modeC[],
                                             trntensorOperator_t opC, const trntensorTensorDescriptor_t descD,
                                             const int32_t modeD[], const trntensorComputeDescriptor_t descCompute) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorCreateContraction";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.not_null(desc, 1, "desc");
  check_operands(check, {{'A', descA, modeA, &opA}, {'B', descB, modeB, &opB}, {'C', descC, modeC, &opC},
                         {'D', descD, modeD, nullptr}});
  check.require(compute_ok(descCompute), 13, "descCompute");
  if (check)
    check.require_or(trn::cshim::enum_value(opC) != TRNTENSOR_OP_CONJ || !trn::tensor::is_complex(descC->desc.dtype),
                     TRNTENSOR_STATUS_NOT_SUPPORTED, "TRNTENSOR_STATUS_NOT_SUPPORTED", "opC CONJ on complex C");
  if (!check) return check.status();
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::tensor::ContractionSpec s;
    s.conj_a = trn::cshim::enum_value(opA) == TRNTENSOR_OP_CONJ;
    s.conj_b = trn::cshim::enum_value(opB) == TRNTENSOR_OP_CONJ;
    s.a = descA->desc;
    s.b = descB->desc;
    s.c = descC->desc;
    s.d = descD->desc;
    s.modes_a.assign(modeA, modeA + s.a.extents.size());
    s.modes_b.assign(modeB, modeB + s.b.extents.size());
    s.modes_c.assign(modeC, modeC + s.c.extents.size());
    s.modes_d.assign(modeD, modeD + s.d.extents.size());
    s.compute = descCompute->type;
    auto op = std::make_unique<trntensorOperationDescriptor>();
    op->plan = trn::tensor::ContractionPlan(s);  // validates: the message names the offending mode
    g_ops.insert(op.get());
    *desc = op.release();
  });
}

trntensorStatus_t trntensorDestroyOperationDescriptor(trntensorOperationDescriptor_t desc) {
  if (!g_ops.erase(desc)) return TRNTENSOR_STATUS_INVALID_VALUE;
  delete desc;
  return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorOperationDescriptorSetAttribute(const trntensorHandle_t handle,
                                                           trntensorOperationDescriptor_t desc,
                                                           trntensorOperationDescriptorAttribute_t attr, const void* buf,
                                                           size_t sizeInBytes) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorOperationDescriptorSetAttribute";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  const int a = trn::cshim::enum_value(attr);
  check.require(g_ops.contains(desc), 1, "desc").one_of(a, {0, 1, 2, 3, 4, 5, 6}, 2, "attr").not_null(buf, 3, "buf");
  const bool padding = a >= TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT;
  check.require_or(a == TRNTENSOR_OPERATION_DESCRIPTOR_TAG || (padding && desc->kind == kPermutation),
                   TRNTENSOR_STATUS_NOT_SUPPORTED, "TRNTENSOR_STATUS_NOT_SUPPORTED",
                   "only TAG, and the PADDING_* attributes of a permutation, can be set");
  if (!check) return check.status();
  if (!padding) {
    check.require(sizeInBytes == sizeof(std::int32_t), 4, "sizeInBytes");
    if (!check) return check.status();
    std::memcpy(&desc->tag, buf, sizeof(std::int32_t));
    return TRNTENSOR_STATUS_SUCCESS;
  }
  return set_padding(check, fn, desc, a, buf, sizeInBytes);
}

trntensorStatus_t trntensorOperationDescriptorGetAttribute(const trntensorHandle_t handle,
                                                           trntensorOperationDescriptor_t desc,
                                                           trntensorOperationDescriptorAttribute_t attr, void* buf,
                                                           size_t sizeInBytes) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorOperationDescriptorGetAttribute";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  const int a = trn::cshim::enum_value(attr);
  check.require(g_ops.contains(desc), 1, "desc").one_of(a, {0, 1, 2, 3, 4, 5, 6}, 2, "attr").not_null(buf, 3, "buf");
  check.require_or(a <= 3 || desc->kind == kPermutation, TRNTENSOR_STATUS_NOT_SUPPORTED, "TRNTENSOR_STATUS_NOT_SUPPORTED",
                   "padding attributes (permutations only)");
  if (!check) return check.status();
  if (a >= TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT) {
    const bool value = a == TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE;
    const std::vector<std::int32_t>& v = a == TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT ? desc->pad_left : desc->pad_right;
    const std::size_t want = value ? static_cast<std::size_t>(trn::tensor::data_type_size(desc->base.d.dtype)) : v.size() * sizeof(std::int32_t);
    check.require(sizeInBytes == want, 4, "sizeInBytes");
    if (!check) return check.status();
    if (want > 0) std::memcpy(buf, value ? static_cast<const void*>(desc->pad_value.data()) : v.data(), want);
    return TRNTENSOR_STATUS_SUCCESS;
  }
  const std::size_t need = a == TRNTENSOR_OPERATION_DESCRIPTOR_TAG ? sizeof(std::int32_t)
                           : a == TRNTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE ? sizeof(trntensorDataType_t)
                                                                             : sizeof(float);
  check.require(sizeInBytes == need, 4, "sizeInBytes");
  if (!check) return check.status();
  const auto& p = desc->kind == kTrinary ? desc->trinary->second() : desc->plan;
  const bool elementwise = desc->kind == kElementwiseBinary || desc->kind == kElementwiseTrinary;
  const bool sparse = desc->kind == kBlockSparse;
  if (a == TRNTENSOR_OPERATION_DESCRIPTOR_TAG) {
    std::memcpy(buf, &desc->tag, need);
  } else if (a == TRNTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE) {
    const DataType dt = sparse ? desc->block_sparse->spec().a.dtype : p.spec().a.dtype;
    const ComputeType ct = sparse ? desc->block_sparse->spec().compute : p.spec().compute;
    const trntensorDataType_t t = elementwise                ? TRNTENSOR_R_32F
                                  : dt == DataType::c64      ? TRNTENSOR_C_64F
                                  : dt == DataType::c32      ? TRNTENSOR_C_32F
                                  : ct == ComputeType::f64   ? TRNTENSOR_R_64F
                                                             : TRNTENSOR_R_32F;
    std::memcpy(buf, &t, need);
  } else if (a == TRNTENSOR_OPERATION_DESCRIPTOR_FLOPS) {
    const float f = desc->kind == kElementwiseBinary    ? 3.0f * static_cast<float>(desc->elementwise->elements())
                    : desc->kind == kElementwiseTrinary ? 5.0f * static_cast<float>(desc->elementwise_trinary->elements())
                    : desc->kind == kTrinary            ? static_cast<float>(desc->trinary->flops())
                    : sparse                            ? static_cast<float>(desc->block_sparse->flops())
                                                        : static_cast<float>(p.flops());
    std::memcpy(buf, &f, need);
  } else {
    // Bytes the contraction reads and writes at least once (A, B, D; C when beta != 0 is not known here).
    const double es = trn::tensor::data_type_size(p.spec().a.dtype);
    const float f = desc->kind == kElementwiseBinary
                        ? 12.0f * static_cast<float>(desc->elementwise->elements())
                    : desc->kind == kElementwiseTrinary ? 16.0f * static_cast<float>(desc->elementwise_trinary->elements())
                    : sparse ? static_cast<float>(desc->block_sparse->moved_bytes())
                        : static_cast<float>(es * static_cast<double>(p.m() * p.k() + p.k() * p.n() + p.m() * p.n()) *
                                             static_cast<double>(p.batch()));
    std::memcpy(buf, &f, need);
  }
  return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorCreatePlanPreference(const trntensorHandle_t handle, trntensorPlanPreference_t* pref,
                                                trntensorAlgo_t algo, trntensorJitMode_t jitMode) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorCreatePlanPreference";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  const int a = trn::cshim::enum_value(algo), j = trn::cshim::enum_value(jitMode);
  check.not_null(pref, 1, "pref").one_of(a, {-6, -4, -3, -2, -1}, 2, "algo").one_of(j, {0, 1}, 3, "jitMode");
  if (!check) return check.status();
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    auto p = std::make_unique<trntensorPlanPreference>();
    p->algo = a;
    p->jit = j;
    g_prefs.insert(p.get());
    *pref = p.release();
  });
}

trntensorStatus_t trntensorDestroyPlanPreference(trntensorPlanPreference_t pref) {
  if (!g_prefs.erase(pref)) return TRNTENSOR_STATUS_INVALID_VALUE;
  delete pref;
  return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorPlanPreferenceSetAttribute(const trntensorHandle_t handle, trntensorPlanPreference_t pref,
                                                      trntensorPlanPreferenceAttribute_t attr, const void* buf,
                                                      size_t sizeInBytes) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorPlanPreferenceSetAttribute";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  const int a = trn::cshim::enum_value(attr);
  check.require(g_prefs.contains(pref), 1, "pref")
      .one_of(a, {0, 1, 2, 3, 4, 5, TRNTENSOR_PLAN_PREFERENCE_OBJECTIVE}, 2, "attr")
      .not_null(buf, 3, "buf")
      .require(sizeInBytes == 4, 4, "sizeInBytes");
  if (!check) return check.status();
  std::int32_t v = 0;
  std::memcpy(&v, buf, sizeof v);
  // GPU tuning knobs (autotune, kernel rank, JIT) are recorded no-ops; CACHE_MODE NONE bypasses the plan cache.
  if (a == TRNTENSOR_PLAN_PREFERENCE_AUTOTUNE_MODE || a == TRNTENSOR_PLAN_PREFERENCE_CACHE_MODE ||
      a == TRNTENSOR_PLAN_PREFERENCE_JIT) {
    Check vcheck(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
    vcheck.one_of(v, {0, 1}, 3, "buf (mode)");
    if (!vcheck) return vcheck.status();
    (a == TRNTENSOR_PLAN_PREFERENCE_AUTOTUNE_MODE ? pref->autotune
     : a == TRNTENSOR_PLAN_PREFERENCE_CACHE_MODE  ? pref->cache
                                                  : pref->jit) = v;
  } else if (a == TRNTENSOR_PLAN_PREFERENCE_INCREMENTAL_COUNT || a == TRNTENSOR_PLAN_PREFERENCE_KERNEL_RANK) {
    (a == TRNTENSOR_PLAN_PREFERENCE_INCREMENTAL_COUNT ? pref->incremental : pref->kernel_rank) = v;
  } else if (a == TRNTENSOR_PLAN_PREFERENCE_ALGO) {
    Check vcheck(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
    vcheck.one_of(v, {-6, -4, -3, -2, -1}, 3, "buf (algo)");
    if (!vcheck) return vcheck.status();
    pref->algo = v;
  } else if (a == TRNTENSOR_PLAN_PREFERENCE_OBJECTIVE) {
    Check vcheck(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
    vcheck.one_of(v, {TRNTENSOR_OBJECTIVE_DEFAULT, TRNTENSOR_OBJECTIVE_MODELED_TIME}, 3, "buf (objective)");
    if (!vcheck) return vcheck.status();
    pref->objective = v;
  }
  return TRNTENSOR_STATUS_SUCCESS;
}

}  // extern "C": the two helpers below return C++ types

namespace trntensor_capi {

// The contraction plan an operation runs with under `pref`: the descriptor's (fewest moved
// elements), or re-planned by modeled time on the handle's target for the MODELED_TIME objective.
trn::tensor::ContractionPlan plan_under(const trntensorHandle* h, const trntensorOperationDescriptor* desc,
                                        const trntensorPlanPreference* pref) {
  if (pref->objective != TRNTENSOR_OBJECTIVE_MODELED_TIME ||
      (desc->kind != kContraction && desc->kind != kReduction && desc->kind != kPermutation))
    return desc->plan;
  return trn::tensor::ContractionPlan(desc->plan.spec(), &h->settings);
}
// The same for a trinary contraction (the order and both steps' lowerings by modeled time).
std::shared_ptr<const trn::tensor::TrinaryContractionPlan> trinary_under(const trntensorHandle* h,
                                                                         const trntensorOperationDescriptor* desc,
                                                                         const trntensorPlanPreference* pref) {
  if (desc->kind != kTrinary || pref->objective != TRNTENSOR_OBJECTIVE_MODELED_TIME) return desc->trinary;
  return std::make_shared<const trn::tensor::TrinaryContractionPlan>(desc->trinary->spec(), &h->settings);
}

}  // namespace trntensor_capi

extern "C" {

trntensorStatus_t trntensorEstimateWorkspaceSize(const trntensorHandle_t handle,
                                                 const trntensorOperationDescriptor_t desc,
                                                 const trntensorPlanPreference_t planPref,
                                                 const trntensorWorksizePreference_t workspacePref,
                                                 uint64_t* workspaceSizeEstimate) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorEstimateWorkspaceSize";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.require(g_ops.contains(desc), 1, "desc")
      .require(planPref == nullptr || g_prefs.contains(planPref), 2, "planPref")
      .one_of(trn::cshim::enum_value(workspacePref), {1, 2, 3}, 3, "workspacePref")
      .not_null(workspaceSizeEstimate, 4, "workspaceSizeEstimate");
  if (!check) return check.status();
  const trntensorPlanPreference defaults;  // a NULL preference: the defaults (cuTENSOR 2.x)
  const trntensorPlanPreference* pref = planPref != nullptr ? planPref : &defaults;
  // One lowering per problem: MIN, DEFAULT and MAX estimate the same (deterministic) size.
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    *workspaceSizeEstimate = desc->kind == kContraction || desc->kind == kReduction
                                 ? plan_under(handle, desc, pref).workspace_bytes()
                             : desc->kind == kTrinary     ? trinary_under(handle, desc, pref)->workspace_bytes()
                             : desc->kind == kBlockSparse ? desc->block_sparse->workspace_bytes()
                                                          : 0;
  });
}

trntensorStatus_t trntensorCreatePlan(const trntensorHandle_t handle, trntensorPlan_t* plan,
                                      const trntensorOperationDescriptor_t desc, const trntensorPlanPreference_t planPref,
                                      uint64_t workspaceSizeLimit) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorCreatePlan";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.not_null(plan, 1, "plan").require(g_ops.contains(desc), 2, "desc")
      .require(planPref == nullptr || g_prefs.contains(planPref), 3, "pref");
  if (!check) return check.status();
  const trntensorPlanPreference defaults;  // a NULL preference: the defaults (cuTENSOR 2.x)
  const trntensorPlanPreference* pref = planPref != nullptr ? planPref : &defaults;
  trn::tensor::ContractionPlan chosen;
  std::shared_ptr<const trn::tensor::TrinaryContractionPlan> trinary;
  const trntensorStatus_t planned =
      trn::cshim::guarded(g_log, fn, kStatusMap, [&] { cached_plan(handle, desc, pref, &chosen, &trinary); });
  if (planned != TRNTENSOR_STATUS_SUCCESS) return planned;
  // trntensorPermute has no workspace argument: a permutation's packing buffer is allocated inside.
  const std::uint64_t need = desc->kind == kContraction || desc->kind == kReduction ? chosen.workspace_bytes()
                             : desc->kind == kTrinary                               ? trinary->workspace_bytes()
                             : desc->kind == kBlockSparse ? desc->block_sparse->workspace_bytes()
                                                          : 0;
  if (check)
    check.require_or(workspaceSizeLimit >= need, TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE,
                     "TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE",
                     "the plan needs " + std::to_string(need) + " bytes of workspace, limit " +
                         std::to_string(workspaceSizeLimit));
  if (!check) return check.status();
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    auto p = std::make_unique<trntensorPlan>();
    p->plan = std::move(chosen);
    p->elementwise = desc->elementwise;
    p->trinary = std::move(trinary);
    p->elementwise_trinary = desc->elementwise_trinary;
    p->block_sparse = desc->block_sparse;
    p->kind = desc->kind;
    p->workspace = need;
    p->pad_left = desc->pad_left;
    p->pad_right = desc->pad_right;
    p->pad_value = desc->pad_value;
    for (std::size_t k = 0; k < p->pad_left.size(); ++k) p->padded = p->padded || p->pad_left[k] != 0 || p->pad_right[k] != 0;
    g_plans.insert(p.get());
    *plan = p.release();
  });
}

trntensorStatus_t trntensorDestroyPlan(trntensorPlan_t plan) {
  if (!g_plans.erase(plan)) return TRNTENSOR_STATUS_INVALID_VALUE;
  delete plan;
  return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorPlanGetAttribute(const trntensorHandle_t handle, const trntensorPlan_t plan,
                                            trntensorPlanAttribute_t attr, void* buf, size_t sizeInBytes) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  Check check(g_log, "trntensorPlanGetAttribute", TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.require(g_plans.contains(plan), 1, "plan")
      .one_of(trn::cshim::enum_value(attr), {TRNTENSOR_PLAN_REQUIRED_WORKSPACE}, 2, "attr")
      .not_null(buf, 3, "buf")
      .require(sizeInBytes == sizeof(std::uint64_t), 4, "sizeInBytes");
  if (!check) return check.status();
  std::memcpy(buf, &plan->workspace, sizeof(std::uint64_t));
  return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorContract(const trntensorHandle_t handle, const trntensorPlan_t plan, const void* alpha,
                                    const void* A, const void* B, const void* beta, const void* C, void* D,
                                    void* workspace, uint64_t workspaceSize, trnStream_t stream) {
  (void)stream;  // synchronous: the stream is accepted and ignored
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorContract";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.require(g_plans.contains(plan), 1, "plan");
  if (check) check.require(plan->kind == kContraction, 1, "plan (not a contraction plan)");
  check.not_null(alpha, 2, "alpha");
  if (!check) return check.status();
  const trn::tensor::ContractionPlan& p = plan->plan;
  const auto es = element_alignment(p.spec().a.dtype);
  const std::complex<double> a = read_scalar(alpha, p.spec().a.dtype, p.spec().compute);
  std::complex<double> b = 0;
  check.not_null(A, 3, "A").require(aligned(A, es), 3, "A (misaligned)").not_null(B, 4, "B")
      .require(aligned(B, es), 4, "B (misaligned)").not_null(beta, 5, "beta");
  if (!check) return check.status();
  b = read_scalar(beta, p.spec().a.dtype, p.spec().compute);
  check.require(b == 0.0 || C != nullptr, 6, "C").require(C == nullptr || aligned(C, es), 6, "C (misaligned)")
      .not_null(D, 7, "D").require(aligned(D, es), 7, "D (misaligned)");
  return execute_checked(check, fn, handle, *plan, p, workspace, workspaceSize, a, A, B, b, C, D);
}

// ---- trinary contraction ------------------------------------------------------------------------------

trntensorStatus_t trntensorCreateContractionTrinary(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t* desc, const trntensorTensorDescriptor_t descA,
    const int32_t modeA[], trntensorOperator_t opA, const trntensorTensorDescriptor_t descB, const int32_t modeB[],
    trntensorOperator_t opB, const trntensorTensorDescriptor_t descC, const int32_t modeC[], trntensorOperator_t opC,
    const trntensorTensorDescriptor_t descD, const int32_t modeD[], trntensorOperator_t opD,
    const trntensorTensorDescriptor_t descE, const int32_t modeE[], const trntensorComputeDescriptor_t descCompute) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorCreateContractionTrinary";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.not_null(desc, 1, "desc");
  check_operands(check, {{'A', descA, modeA, &opA}, {'B', descB, modeB, &opB}, {'C', descC, modeC, &opC},
                         {'D', descD, modeD, &opD}, {'E', descE, modeE, nullptr}});
  check.require(compute_ok(descCompute), 16, "descCompute");
  if (check)
    check.require_or(trn::cshim::enum_value(opD) != TRNTENSOR_OP_CONJ || !trn::tensor::is_complex(descD->desc.dtype),
                     TRNTENSOR_STATUS_NOT_SUPPORTED, "TRNTENSOR_STATUS_NOT_SUPPORTED", "opD CONJ on complex D");
  if (!check) return check.status();
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::tensor::TrinarySpec s;
    trn::tensor::TensorDesc* d[5] = {&s.a, &s.b, &s.c, &s.d, &s.e};
    std::vector<std::int32_t>* m[5] = {&s.modes_a, &s.modes_b, &s.modes_c, &s.modes_d, &s.modes_e};
    const trntensorTensorDescriptor_t descs[5] = {descA, descB, descC, descD, descE};
    const int32_t* const modes[5] = {modeA, modeB, modeC, modeD, modeE};
    for (int t = 0; t < 5; ++t) {
      *d[t] = descs[t]->desc;
      m[t]->assign(modes[t], modes[t] + d[t]->extents.size());
    }
    s.conj_a = trn::cshim::enum_value(opA) == TRNTENSOR_OP_CONJ;
    s.conj_b = trn::cshim::enum_value(opB) == TRNTENSOR_OP_CONJ;
    s.conj_c = trn::cshim::enum_value(opC) == TRNTENSOR_OP_CONJ;
    s.compute = descCompute->type;
    auto op = std::make_unique<trntensorOperationDescriptor>();
    op->trinary = std::make_shared<const trn::tensor::TrinaryContractionPlan>(s);  // validates, names the mode
    op->kind = kTrinary;
    g_ops.insert(op.get());
    *desc = op.release();
  });
}

trntensorStatus_t trntensorContractTrinary(const trntensorHandle_t handle, const trntensorPlan_t plan, const void* alpha,
                                           const void* A, const void* B, const void* C, const void* beta, const void* D,
                                           void* E, void* workspace, uint64_t workspaceSize, trnStream_t stream) {
  (void)stream;
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorContractTrinary";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.require(g_plans.contains(plan), 1, "plan");
  if (check) check.require(plan->kind == kTrinary, 1, "plan (not a trinary contraction plan)");
  check.not_null(alpha, 2, "alpha");
  if (!check) return check.status();
  const trn::tensor::TrinaryContractionPlan& p = *plan->trinary;
  const auto es = element_alignment(p.spec().a.dtype);
  const std::complex<double> a = read_scalar(alpha, p.spec().a.dtype, p.spec().compute);
  check.not_null(A, 3, "A").require(aligned(A, es), 3, "A (misaligned)").not_null(B, 4, "B")
      .require(aligned(B, es), 4, "B (misaligned)").not_null(C, 5, "C").require(aligned(C, es), 5, "C (misaligned)")
      .not_null(beta, 6, "beta");
  if (!check) return check.status();
  const std::complex<double> b = read_scalar(beta, p.spec().a.dtype, p.spec().compute);
  check.require(b == 0.0 || D != nullptr, 7, "D").require(D == nullptr || aligned(D, es), 7, "D (misaligned)")
      .not_null(E, 8, "E").require(aligned(E, es), 8, "E (misaligned)")
      .require(workspace != nullptr, 9, "workspace")
      .require(workspace == nullptr || aligned(workspace, 16), 9, "workspace (not 16-byte aligned)")
      .require_or(workspaceSize >= plan->workspace, TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE,
                  "TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE",
                  "workspaceSize " + std::to_string(workspaceSize) + " < required " + std::to_string(plan->workspace));
  if (!check) return check.status();
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::blas::CallReport r;
    p.execute(handle->settings, a, A, B, C, b, D, E, workspace, workspaceSize, &r);
    handle->last_profile = r.profile.to_c();
  });
}

// ---- reduction and permutation (contractions with a scalar 1: every flop on TensorE) ----------------

using trn::tensor::one_of;  // the ones operand of a reduction or permutation

trntensorStatus_t trntensorCreateReduction(const trntensorHandle_t handle, trntensorOperationDescriptor_t* desc,
                                           const trntensorTensorDescriptor_t descA, const int32_t modeA[],
                                           trntensorOperator_t opA, const trntensorTensorDescriptor_t descC,
                                           const int32_t modeC[], trntensorOperator_t opC,
                                           const trntensorTensorDescriptor_t descD, const int32_t modeD[],
                                           trntensorOperator_t opReduce, const trntensorComputeDescriptor_t descCompute) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorCreateReduction";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  const int red = trn::cshim::enum_value(opReduce);
  check.not_null(desc, 1, "desc");
  check_operands(check, {{'A', descA, modeA, &opA}, {'C', descC, modeC, &opC}, {'D', descD, modeD, nullptr}});
  check.one_of(red, {TRNTENSOR_OP_ADD, TRNTENSOR_OP_MUL, TRNTENSOR_OP_MAX, TRNTENSOR_OP_MIN}, 10, "opReduce")
      .require(compute_ok(descCompute), 11, "descCompute")
      .require_or(red == TRNTENSOR_OP_ADD, TRNTENSOR_STATUS_NOT_SUPPORTED, "TRNTENSOR_STATUS_NOT_SUPPORTED",
                  "only TRNTENSOR_OP_ADD reductions (a sum is a GEMM with a ones operand)");
  if (check)
    check.require_or(trn::cshim::enum_value(opC) != TRNTENSOR_OP_CONJ || !trn::tensor::is_complex(descC->desc.dtype),
                     TRNTENSOR_STATUS_NOT_SUPPORTED, "TRNTENSOR_STATUS_NOT_SUPPORTED", "opC CONJ on complex C");
  if (!check) return check.status();
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::tensor::ContractionSpec s;
    s.a = descA->desc;
    s.b = {{}, {}, descA->desc.dtype};
    s.conj_a = trn::cshim::enum_value(opA) == TRNTENSOR_OP_CONJ;
    s.c = descC->desc;
    s.d = descD->desc;
    s.modes_a.assign(modeA, modeA + s.a.extents.size());
    s.modes_c.assign(modeC, modeC + s.c.extents.size());
    s.modes_d.assign(modeD, modeD + s.d.extents.size());
    s.compute = descCompute->type;
    auto op = std::make_unique<trntensorOperationDescriptor>();
    op->plan = trn::tensor::ContractionPlan(s);
    op->kind = kReduction;
    g_ops.insert(op.get());
    *desc = op.release();
  });
}

trntensorStatus_t trntensorReduce(const trntensorHandle_t handle, const trntensorPlan_t plan, const void* alpha,
                                  const void* A, const void* beta, const void* C, void* D, void* workspace,
                                  uint64_t workspaceSize, trnStream_t stream) {
  (void)stream;
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorReduce";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.require(g_plans.contains(plan), 1, "plan");
  if (check) check.require(plan->kind == kReduction, 1, "plan (not a reduction plan)");
  check.not_null(alpha, 2, "alpha").not_null(A, 3, "A").not_null(beta, 4, "beta");
  if (!check) return check.status();
  const trn::tensor::ContractionPlan& p = plan->plan;
  const auto es = element_alignment(p.spec().a.dtype);
  const std::complex<double> a = read_scalar(alpha, p.spec().a.dtype, p.spec().compute),
                             b = read_scalar(beta, p.spec().a.dtype, p.spec().compute);
  check.require(aligned(A, es), 3, "A (misaligned)")
      .require(b == 0.0 || C != nullptr, 5, "C")
      .require(C == nullptr || aligned(C, es), 5, "C (misaligned)")
      .not_null(D, 6, "D")
      .require(aligned(D, es), 6, "D (misaligned)");
  check_workspace(check, *plan, workspace, workspaceSize, 7);
  if (!check) return check.status();
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::blas::CallReport r;
    p.execute(handle->settings, a, A, one_of(p.spec().a.dtype), b, C, D,
              workspace, workspaceSize, &r);
    handle->last_profile = r.profile.to_c();
  });
}

trntensorStatus_t trntensorCreatePermutation(const trntensorHandle_t handle, trntensorOperationDescriptor_t* desc,
                                             const trntensorTensorDescriptor_t descA, const int32_t modeA[],
                                             trntensorOperator_t opA, const trntensorTensorDescriptor_t descB,
                                             const int32_t modeB[], const trntensorComputeDescriptor_t descCompute) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorCreatePermutation";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  const int op = trn::cshim::enum_value(opA);
  check.not_null(desc, 1, "desc");
  check_operands(check, {{'A', descA, modeA, &opA}, {'B', descB, modeB, nullptr}}, true);
  check.require(compute_ok(descCompute), 7, "descCompute");
  if (check)
    check.require(descA->desc.extents.size() == descB->desc.extents.size(), 6,
                  "modeB (a permutation keeps every mode of A)");
  if (!check) return check.status();
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::tensor::ContractionSpec s;
    s.a = descA->desc;
    s.b = {{}, {}, descA->desc.dtype};
    s.conj_a = op == TRNTENSOR_OP_CONJ;
    s.c = s.d = descB->desc;
    s.modes_a.assign(modeA, modeA + s.a.extents.size());
    s.modes_c.assign(modeB, modeB + s.d.extents.size());
    s.modes_d = s.modes_c;
    s.compute = descCompute->type;
    auto o = std::make_unique<trntensorOperationDescriptor>();
    o->plan = trn::tensor::ContractionPlan(s);
    o->kind = kPermutation;
    if (op != TRNTENSOR_OP_IDENTITY && op != TRNTENSOR_OP_CONJ) {  // a unary operator: the element-wise kernel
      trn::tensor::ElementwiseBinarySpec e;
      take_operand(descA, modeA, &e.a, &e.modes_a);
      take_operand(descB, modeB, &e.c, &e.modes_c);
      take_operand(descB, modeB, &e.d, &e.modes_d);
      e.op_a = unary_of(opA);
      e.c_absent = true;
      e.compute = descCompute->type;
      o->elementwise = std::make_shared<const trn::tensor::ElementwiseBinaryPlan>(e);
    }
    o->base = s;
    if (!descB->strides_given) o->base.d.strides.clear();  // a padded B is then packed over its padded extents
    o->pad_left.assign(s.d.extents.size(), 0);
    o->pad_right.assign(s.d.extents.size(), 0);
    g_ops.insert(o.get());
    *desc = o.release();
  });
}

trntensorStatus_t trntensorPermute(const trntensorHandle_t handle, const trntensorPlan_t plan, const void* alpha,
                                   const void* A, void* B, trnStream_t stream) {
  (void)stream;
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorPermute";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.require(g_plans.contains(plan), 1, "plan");
  if (check) check.require(plan->kind == kPermutation, 1, "plan (not a permutation plan)");
  check.not_null(alpha, 2, "alpha").not_null(A, 3, "A").not_null(B, 4, "B");
  if (!check) return check.status();
  const trn::tensor::ContractionPlan& p = plan->plan;
  const auto es = element_alignment(p.spec().a.dtype);
  check.require(aligned(A, es), 3, "A (misaligned)").require(aligned(B, es), 4, "B (misaligned)");
  if (!check) return check.status();
  const std::complex<double> a = read_scalar(alpha, p.spec().a.dtype, p.spec().compute);
  // Permutations carry no workspace argument: a packed operand's buffer is allocated here.
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::blas::CallReport r;
    if (plan->elementwise != nullptr) {
      float af = static_cast<float>(a.real());
      plan->elementwise->execute(handle->settings, af, A, 0.0f, nullptr, B, &r);
    } else if (plan->padded)
      trn::tensor::permute_padded(handle->settings, p, plan->pad_left, plan->pad_right, plan->pad_value.data(), a,
                                  one_of(p.spec().a.dtype), A, B, &r);
    else
      p.execute(handle->settings, a, A, one_of(p.spec().a.dtype), 0.0, nullptr, B, nullptr, 0, &r);
    handle->last_profile = r.profile.to_c();
  });
}

// ---- element-wise binary ------------------------------------------------------------------------------

trntensorStatus_t trntensorCreateElementwiseBinary(const trntensorHandle_t handle, trntensorOperationDescriptor_t* desc,
                                                   const trntensorTensorDescriptor_t descA, const int32_t modeA[],
                                                   trntensorOperator_t opA, const trntensorTensorDescriptor_t descC,
                                                   const int32_t modeC[], trntensorOperator_t opC,
                                                   const trntensorTensorDescriptor_t descD, const int32_t modeD[],
                                                   trntensorOperator_t opAC, const trntensorComputeDescriptor_t descCompute) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorCreateElementwiseBinary";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  const int bin = trn::cshim::enum_value(opAC);
  check.not_null(desc, 1, "desc");
  check_operands(check, {{'A', descA, modeA, &opA}, {'C', descC, modeC, &opC}, {'D', descD, modeD, nullptr}}, true);
  check.one_of(bin, {TRNTENSOR_OP_ADD, TRNTENSOR_OP_MUL, TRNTENSOR_OP_MAX, TRNTENSOR_OP_MIN}, 10, "opAC")
      .require(compute_ok(descCompute), 11, "descCompute");
  if (!check) return check.status();
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::tensor::ElementwiseBinarySpec s;
    take_operand(descA, modeA, &s.a, &s.modes_a);
    take_operand(descC, modeC, &s.c, &s.modes_c);
    take_operand(descD, modeD, &s.d, &s.modes_d);
    s.op = elementwise_op_of(bin);
    s.op_a = unary_of(opA);
    s.op_c = unary_of(opC);
    s.compute = descCompute->type;
    auto o = std::make_unique<trntensorOperationDescriptor>();
    o->elementwise = std::make_shared<const trn::tensor::ElementwiseBinaryPlan>(s);
    o->kind = kElementwiseBinary;
    g_ops.insert(o.get());
    *desc = o.release();
  });
}

trntensorStatus_t trntensorElementwiseBinaryExecute(const trntensorHandle_t handle, const trntensorPlan_t plan,
                                                    const void* alpha, const void* A, const void* gamma, const void* C,
                                                    void* D, trnStream_t stream) {
  (void)stream;
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorElementwiseBinaryExecute";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.require(g_plans.contains(plan), 1, "plan");
  if (check) check.require(plan->kind == kElementwiseBinary, 1, "plan (not an element-wise binary plan)");
  check.not_null(alpha, 2, "alpha").not_null(A, 3, "A").require(aligned(A, 4), 3, "A (misaligned)")
      .not_null(gamma, 4, "gamma").not_null(C, 5, "C").require(aligned(C, 4), 5, "C (misaligned)")
      .not_null(D, 6, "D").require(aligned(D, 4), 6, "D (misaligned)");
  if (!check) return check.status();
  float a, g;
  std::memcpy(&a, alpha, sizeof a);
  std::memcpy(&g, gamma, sizeof g);
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::blas::CallReport r;
    plan->elementwise->execute(handle->settings, a, A, g, C, D, &r);
    handle->last_profile = r.profile.to_c();
  });
}

trntensorStatus_t trntensorPlanDescribe(const trntensorHandle_t handle, const trntensorPlan_t plan, char* buf,
                                        size_t bufSize) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorPlanDescribe";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.require(g_plans.contains(plan), 1, "plan").not_null(buf, 2, "buf").require(bufSize > 0, 3, "bufSize");
  if (!check) return check.status();
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    std::string s;
    if (plan->kind == kTrinary) {
      s = plan->trinary->print();
    } else if (plan->kind == kBlockSparse) {
      s = plan->block_sparse->print();
    } else if (plan->kind == kElementwiseTrinary) {
      s = "elementwise trinary: " + std::to_string(plan->elementwise_trinary->elements()) +
          " elements, DMA permute -> VectorE -> DMA permute";
    } else if (plan->kind == kElementwiseBinary) {
      s = "elementwise binary: " + std::to_string(plan->elementwise->elements()) +
          " elements, DMA permute -> VectorE -> DMA permute";
    } else if (plan->plan.spec().compute != ComputeType::f64 && !trn::tensor::is_complex(plan->plan.spec().a.dtype)) {
      const trn::Profile prof = plan->plan.estimate(handle->settings);
      s = plan->plan.print(&prof);
    } else {
      s = plan->plan.print();
    }
    const std::size_t n = std::min(s.size(), bufSize - 1);
    std::memcpy(buf, s.data(), n);
    buf[n] = '\0';
  });
}

// ---- einsum -----------------------------------------------------------------------------------------

namespace {

// Validates the einsum operands (positions 3 numInputs, 4 inputs) and converts them.
bool einsum_views(Check& check, int32_t numInputs, const trntensorEinsumOperand_t* inputs, bool need_data,
                  std::vector<trn::tensor::View>* views) {
  check.require(numInputs >= 1 && numInputs <= 64, 3, "numInputs").not_null(inputs, 4, "inputs");
  for (int32_t k = 0; check && k < numInputs; ++k) {
    const auto& in = inputs[k];
    check.require(!need_data || in.data != nullptr, 4, "inputs[].data")
        .require(in.rank >= 0 && in.rank <= 64, 4, "inputs[].rank")
        .require(in.rank == 0 || in.shape != nullptr, 4, "inputs[].shape");
    for (int32_t a = 0; check && a < in.rank; ++a) check.require(in.shape[a] >= 0, 4, "inputs[].shape");
    if (!check) break;
    trn::tensor::View v;
    v.data = in.data;
    v.shape.assign(in.shape, in.shape + in.rank);
    if (in.strides != nullptr) v.strides.assign(in.strides, in.strides + in.rank);
    views->push_back(std::move(v));
  }
  return static_cast<bool>(check);
}

trn::tensor::PathStrategy strategy_of(int v) {
  return v == TRNTENSOR_EINSUM_PATH_GREEDY                ? trn::tensor::PathStrategy::greedy
         : v == TRNTENSOR_EINSUM_PATH_OPTIMAL             ? trn::tensor::PathStrategy::optimal
         : v == TRNTENSOR_EINSUM_PATH_DYNAMIC_PROGRAMMING ? trn::tensor::PathStrategy::dynamic_programming
                                                          : trn::tensor::PathStrategy::automatic;
}

}  // namespace

trntensorStatus_t trntensorEinsum(const trntensorHandle_t handle, const char* subscripts, int32_t numInputs,
                                  const trntensorEinsumOperand_t inputs[], void* output, int32_t outputRank,
                                  const int64_t outputShape[], const int64_t outputStrides[],
                                  trntensorDataType_t dataType, const trntensorComputeDescriptor_t descCompute,
                                  trntensorEinsumPath_t pathMode) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorEinsum";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.not_null(subscripts, 1, "subscripts");
  std::vector<trn::tensor::View> views;
  if (check) einsum_views(check, numInputs, inputs, true, &views);
  const int dt = trn::cshim::enum_value(dataType);
  check.not_null(output, 5, "output")
      .require(outputRank >= 0 && outputRank <= 64, 6, "outputRank")
      .require(outputRank == 0 || outputShape != nullptr, 7, "outputShape")
      .require(data_type_known(dt), 9, "dataType")
      .require(compute_ok(descCompute), 10, "descCompute")
      .one_of(trn::cshim::enum_value(pathMode), {0, 1, 2, 3}, 11, "pathMode")
      .require_or(dt == TRNTENSOR_R_32F || dt == TRNTENSOR_R_64F || dt == TRNTENSOR_C_32F || dt == TRNTENSOR_C_64F,
                  TRNTENSOR_STATUS_NOT_SUPPORTED, "TRNTENSOR_STATUS_NOT_SUPPORTED",
                  "data type " + std::to_string(dt) + " (R_32F, R_64F, C_32F, C_64F)");
  if (!check) return check.status();
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::tensor::MutableView out;
    out.data = output;
    out.shape.assign(outputShape, outputShape + outputRank);
    if (outputStrides != nullptr) out.strides.assign(outputStrides, outputStrides + outputRank);
    trn::tensor::EinsumReport rep;
    trn::tensor::einsum(handle->settings, subscripts, views, out, data_type_of(dt),
                        descCompute->type, strategy_of(trn::cshim::enum_value(pathMode)), &rep, handle->einsum_objective);
    handle->last_profile = rep.profile.to_c();
  });
}

trntensorStatus_t trntensorEinsumPath(const trntensorHandle_t handle, const char* subscripts, int32_t numInputs,
                                      const trntensorEinsumOperand_t inputs[], trntensorEinsumPath_t pathMode,
                                      int32_t* path, double* naiveFlops, double* optimizedFlops,
                                      double* largestIntermediate) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorEinsumPath";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.not_null(subscripts, 1, "subscripts");
  std::vector<trn::tensor::View> views;
  if (check) einsum_views(check, numInputs, inputs, false, &views);
  check.one_of(trn::cshim::enum_value(pathMode), {0, 1, 2, 3}, 5, "pathMode");
  if (!check) return check.status();
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    std::vector<std::vector<std::int64_t>> shapes;
    for (const auto& v : views) shapes.push_back(v.shape);
    const trn::tensor::EinsumExpr e = trn::tensor::parse_einsum(subscripts, shapes);
    trn::tensor::PathProblem pp;
    for (const auto& in : e.inputs) {
      std::vector<int> u;
      for (int l : in)
        if (std::find(u.begin(), u.end(), l) == u.end()) u.push_back(l);
      pp.inputs.push_back(u);
    }
    pp.output = e.output;
    pp.sizes = e.sizes;
    const trn::tensor::PathModel model{handle->settings, trn::tensor::ComputeType::f32};
    const auto info = trn::tensor::plan_path(pp, strategy_of(trn::cshim::enum_value(pathMode)), handle->einsum_objective,
                                             handle->einsum_objective == trn::tensor::PathObjective::modeled_time ? &model : nullptr);
    if (path != nullptr)
      for (std::size_t i = 0; i < info.path.size(); ++i) {
        path[2 * i] = info.path[i].first;
        path[2 * i + 1] = info.path[i].second;
      }
    if (naiveFlops != nullptr) *naiveFlops = info.naive_flops;
    if (optimizedFlops != nullptr) *optimizedFlops = info.optimized_flops;
    if (largestIntermediate != nullptr) *largestIntermediate = info.largest_intermediate;
  });
}

trntensorStatus_t trntensorSetPlannerObjective(trntensorHandle_t handle, trntensorPlanObjective_t objective) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  Check check(g_log, "trntensorSetPlannerObjective", TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  const int v = trn::cshim::enum_value(objective);
  check.one_of(v, {TRNTENSOR_OBJECTIVE_DEFAULT, TRNTENSOR_OBJECTIVE_MODELED_TIME}, 1, "objective");
  if (!check) return check.status();
  handle->einsum_objective =
      v == TRNTENSOR_OBJECTIVE_MODELED_TIME ? trn::tensor::PathObjective::modeled_time : trn::tensor::PathObjective::flops;
  return TRNTENSOR_STATUS_SUCCESS;
}

TRN_CSHIM_EMULATION_ENTRY_POINTS(trntensor, trntensor, Surface)

// The rest of cuTENSOR's logger, on the kit's logger.
TRN_CSHIM_LOGGER_FILE_ENTRY_POINTS(trntensor, trntensorStatus_t, g_log, TRNTENSOR_STATUS_SUCCESS, TRNTENSOR_STATUS_INVALID_VALUE)

}  // extern "C"
