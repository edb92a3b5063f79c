// Internals of trntensor's C shim shared by its source files (capi.cpp, capi_plan_cache.cpp,
// capi_block_sparse.cpp): the opaque structs behind the C handles and the shim's registries.
#pragma once
#include <array>
#include <complex>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "trn/core/c_shim.hpp"
#include "trn/tensor/tensor.hpp"
#include "trntensor.h"

using trn::tensor::ComputeType;
using trn::tensor::DataType;

namespace trntensor_capi {
class PlanCache;  // capi_plan_cache.cpp
}

struct trntensorHandle {
  trn::blas::Settings settings;
  trn::tensor::PathObjective einsum_objective = trn::tensor::PathObjective::flops;
  trnProfile_t last_profile{};
  trn::cshim::LastError last_error_param{0};  // atomic: a handle may serve several threads
  std::shared_ptr<trntensor_capi::PlanCache> plan_cache;  // created on first use (64 entries)
};
struct trntensorTensorDescriptor {
  trn::tensor::TensorDesc desc;
  int data_type = 0;
  std::uint32_t alignment = 0;
  bool strides_given = false;  // created with a stride array (else packed; padding packs over the padded extents)
};
// Kinds of operation descriptors: contraction, reduction (a contraction with a scalar 1 whose
// A-only modes are summed) and permutation (a contraction with a scalar 1 and no summed mode).
enum OperationKind {
  kContraction = 0,
  kReduction = 1,
  kPermutation = 2,
  kElementwiseBinary = 3,
  kTrinary = 4,
  kElementwiseTrinary = 5,
  kBlockSparse = 6
};
struct trntensorOperationDescriptor {
  trn::tensor::ContractionPlan plan;
  std::shared_ptr<const trn::tensor::ElementwiseBinaryPlan> elementwise;
  std::shared_ptr<const trn::tensor::TrinaryContractionPlan> trinary;
  std::shared_ptr<const trn::tensor::ElementwiseTrinaryPlan> elementwise_trinary;
  std::shared_ptr<const trn::tensor::BlockSparseContractionPlan> block_sparse;
  int kind = kContraction;
  std::int32_t tag = 0;
  // Permutations: the spec as created and OPERATION_DESCRIPTOR_PADDING_LEFT/RIGHT/VALUE (one entry
  // per mode of B; the value in B's data type); `plan` is then the padded interior's.
  trn::tensor::ContractionSpec base;
  std::vector<std::int32_t> pad_left, pad_right;
  std::array<unsigned char, 16> pad_value{};
};
struct trntensorPlanPreference {
  int algo = TRNTENSOR_ALGO_DEFAULT;
  int jit = TRNTENSOR_JIT_MODE_NONE;
  int objective = TRNTENSOR_OBJECTIVE_DEFAULT;
  // The GPU tuning attributes, kept for trntensorPlanPreferenceGetAttribute (CACHE_MODE NONE bypasses the plan cache).
  std::int32_t autotune = TRNTENSOR_AUTOTUNE_MODE_NONE, cache = TRNTENSOR_CACHE_MODE_PEDANTIC, incremental = 0,
               kernel_rank = 0;
};
struct trntensorPlan {
  trn::tensor::ContractionPlan plan;
  std::shared_ptr<const trn::tensor::ElementwiseBinaryPlan> elementwise;
  std::shared_ptr<const trn::tensor::TrinaryContractionPlan> trinary;
  std::shared_ptr<const trn::tensor::ElementwiseTrinaryPlan> elementwise_trinary;
  std::shared_ptr<const trn::tensor::BlockSparseContractionPlan> block_sparse;
  int kind = 0;
  std::uint64_t workspace = 0;
  std::vector<std::int32_t> pad_left, pad_right;  // a padded permutation (trn::tensor::permute_padded)
  std::array<unsigned char, 16> pad_value{};
  bool padded = false;
};
struct trntensorComputeDescriptor {
  ComputeType type;
};

namespace trntensor_capi {

extern trn::cshim::Logger g_log;
extern trn::cshim::HandleRegistry<trntensorHandle> g_handles;
extern trn::cshim::HandleRegistry<trntensorTensorDescriptor> g_descs;
extern trn::cshim::HandleRegistry<trntensorOperationDescriptor> g_ops;
extern trn::cshim::HandleRegistry<trntensorPlanPreference> g_prefs;
extern trn::cshim::HandleRegistry<trntensorPlan> g_plans;
extern const trn::cshim::StatusMap<trntensorStatus_t> kStatusMap;
using Check = trn::cshim::ArgCheck<trntensorStatus_t>;

bool compute_ok(const trntensorComputeDescriptor* c);
bool data_type_known(int v);
bool data_type_supported(int dt);
DataType data_type_of(int dt);
bool aligned(const void* p, std::size_t a);
std::size_t element_alignment(DataType t);
std::complex<double> read_scalar(const void* p, DataType t, ComputeType c);
bool unary_op_ok(trntensorOperator_t op);

// The plans trntensorCreatePlan makes for `desc` under `pref` (capi_plan_cache.cpp): from the
// handle's plan cache when it holds them, planned (and cached) otherwise. Throws as the planners.
void cached_plan(trntensorHandle* h, const trntensorOperationDescriptor* desc, const trntensorPlanPreference* pref,
                 trn::tensor::ContractionPlan* plan, std::shared_ptr<const trn::tensor::TrinaryContractionPlan>* trinary);
// The contraction / trinary plan under `pref` without the cache (capi.cpp).
trn::tensor::ContractionPlan plan_under(const trntensorHandle* h, const trntensorOperationDescriptor* desc,
                                        const trntensorPlanPreference* pref);
std::shared_ptr<const trn::tensor::TrinaryContractionPlan> trinary_under(const trntensorHandle* h,
                                                                         const trntensorOperationDescriptor* desc,
                                                                         const trntensorPlanPreference* pref);

// trntensorHandleReadPlanCacheFromFile after the file is read (capi_plan_cache.cpp).
trntensorStatus_t read_plan_cache_text(trntensorHandle* h, const std::string& text, std::uint32_t* numCachelinesRead);
// Checks the operands' parameters in signature order from position 2 (capi.cpp): a known
// descriptor, mode labels unless the tensor is a scalar, a unary operator (IDENTITY or CONJ).
struct OperandArgs {
  char letter;  // 'A', 'B', ...: the parameter names are desc<letter>, mode<letter>, op<letter>
  trntensorTensorDescriptor_t desc;
  const int32_t* modes;
  const trntensorOperator_t* op;  // nullptr: the operand has no operator parameter
};
// elementwise: every cuTENSOR 2.x unary operator (element-wise operations and permutations); else
// IDENTITY / CONJ only (contractions, reductions).
void check_operands(Check& check, std::initializer_list<OperandArgs> operands, bool elementwise = false);
// A cutensorOperator_t value known to check_operands as trn::tensor::UnaryOp.
inline trn::tensor::UnaryOp unary_of(trntensorOperator_t op) {
  return static_cast<trn::tensor::UnaryOp>(trn::cshim::enum_value(op));
}
// The workspace parameters every execute entry point checks last (capi.cpp): present when the plan
// needs one and 16-byte aligned (INVALID_VALUE at `position`, workspaceSize's position is the next),
// at least the plan's size (INSUFFICIENT_WORKSPACE).
void check_workspace(Check& check, const trntensorPlan& plan, const void* workspace, std::uint64_t workspaceSize,
                     int position);
// The tail of a contraction's execute entry point: the workspace check (position 8), then the plan's
// run under the guard, its profile kept as the handle's last.
template <class Plan, class... Operands>
trntensorStatus_t execute_checked(Check& check, const char* fn, trntensorHandle_t handle, const trntensorPlan& plan,
                                  const Plan& p, void* workspace, std::uint64_t workspaceSize, Operands... operands) {
  check_workspace(check, plan, workspace, workspaceSize, 8);
  if (!check) return check.status();
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::blas::CallReport r;
    p.execute(handle->settings, operands..., workspace, workspaceSize, &r);
    handle->last_profile = r.profile.to_c();
  });
}
// One operand's layout and mode labels as the C++ specs take them.
inline void take_operand(const trntensorTensorDescriptor* d, const int32_t* m, trn::tensor::TensorDesc* t,
                         std::vector<std::int32_t>* modes) {
  *t = d->desc;
  modes->assign(m, m + t->extents.size());
}
// The binary element-wise operator of an opAB / opABC / opAC value (ADD, MUL, MAX, MIN).
trn::tensor::ElementwiseOp elementwise_op_of(int v);

}  // namespace trntensor_capi
