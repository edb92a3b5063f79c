// The project's own cuTENSOR-2.x-shaped programs (trntensor_walkthroughs.hpp): the call sequences a
// cuTENSOR user writes, after cuTENSOR's documented API (create handle, tensor descriptors,
// operation descriptor, plan preference, workspace estimate, plan, execute, destroy), on our own
// modes, extents and data. Every handle and descriptor is released by `Session` whatever call fails.
#include "trntensor_walkthroughs.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>

namespace trntensor_walkthrough {
namespace {

// Records the first failing call into the Run and stops the program (returns the Run).
#define WT_CALL(call)                                 \
  do {                                                \
    const trntensorStatus_t wt_status_ = (call);      \
    if (wt_status_ != TRNTENSOR_STATUS_SUCCESS) {     \
      run.status = wt_status_;                        \
      run.failed_call = #call;                        \
      return run;                                     \
    }                                                 \
  } while (0)

constexpr std::uint32_t kAlignment = 16;  // std::vector's storage; data pointers are checked per element

// Everything a program creates, destroyed in reverse order of kind when the program returns.
struct Session {
  trntensorHandle_t handle = nullptr;
  std::vector<trntensorTensorDescriptor_t> tensors;
  std::vector<trntensorBlockSparseTensorDescriptor_t> block_tensors;
  std::vector<trntensorOperationDescriptor_t> operations;
  std::vector<trntensorPlanPreference_t> preferences;
  std::vector<trntensorPlan_t> plans;
  Session() = default;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session() {
    for (auto p : plans) trntensorDestroyPlan(p);
    for (auto p : preferences) trntensorDestroyPlanPreference(p);
    for (auto o : operations) trntensorDestroyOperationDescriptor(o);
    for (auto t : block_tensors) trntensorDestroyBlockSparseTensorDescriptor(t);
    for (auto t : tensors) trntensorDestroyTensorDescriptor(t);
    if (handle) trntensorDestroy(handle);
  }
};

// A 16-byte-aligned workspace (trntensorContract's requirement).
struct Workspace {
  std::unique_ptr<void, decltype(&std::free)> ptr{nullptr, &std::free};
  std::uint64_t bytes = 0;
  void allocate(std::uint64_t n) {
    bytes = n;
    ptr.reset(n ? std::aligned_alloc(128, (n + 127) / 128 * 128) : nullptr);
  }
};

// Deterministic inputs in [-1, 1) with 24 significant bits (exact in fp32): a 64-bit LCG's top bits.
std::vector<double> inputs(std::size_t n, std::uint64_t seed) {
  std::vector<double> v(n);
  std::uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (auto& e : v) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    e = static_cast<double>(static_cast<std::int64_t>(x >> 40) - (1 << 23)) / (1 << 23);
  }
  return v;
}

std::vector<std::int64_t> extents_of(const std::string& modes, const std::map<char, std::int64_t>& extent) {
  std::vector<std::int64_t> e;
  for (char m : modes) e.push_back(extent.at(m));
  return e;
}

std::size_t elements(const std::vector<std::int64_t>& extents) {
  std::size_t n = 1;
  for (auto e : extents) n *= static_cast<std::size_t>(e);
  return n;
}

// A packed tensor over `modes` with inputs(seed) (seed 0: zeros).
Tensor make(const std::string& modes, const std::map<char, std::int64_t>& extent, std::uint64_t seed) {
  Tensor t{modes, extents_of(modes, extent), {}};
  t.data = seed ? inputs(elements(t.extents), seed) : std::vector<double>(elements(t.extents), 0.0);
  return t;
}

std::vector<std::int32_t> mode_ids(const std::string& modes) { return {modes.begin(), modes.end()}; }

std::vector<float> as_float(const std::vector<double>& v) { return {v.begin(), v.end()}; }
std::vector<double> as_double(const std::vector<float>& v) { return {v.begin(), v.end()}; }

// A packed (first mode fastest) descriptor of `t`, owned by the session.
trntensorStatus_t describe(Session& s, const Tensor& t, trntensorDataType_t type, trntensorTensorDescriptor_t* desc) {
  const trntensorStatus_t st = trntensorCreateTensorDescriptor(s.handle, desc, static_cast<std::uint32_t>(t.modes.size()),
                                                               t.extents.data(), nullptr, type, kAlignment);
  if (st == TRNTENSOR_STATUS_SUCCESS) s.tensors.push_back(*desc);
  return st;
}

// The plan of `op` under a default preference: estimate (WORKSPACE_DEFAULT), plan within the
// estimate, allocate what the plan requires (REQUIRED_WORKSPACE).
trntensorStatus_t plan_with_workspace(Session& s, trntensorOperationDescriptor_t op, trntensorPlanPreference_t pref,
                                      trntensorPlan_t* plan, Workspace* work) {
  std::uint64_t estimate = 0, required = 0;
  trntensorStatus_t st = trntensorEstimateWorkspaceSize(s.handle, op, pref, TRNTENSOR_WORKSPACE_DEFAULT, &estimate);
  if (st != TRNTENSOR_STATUS_SUCCESS) return st;
  st = trntensorCreatePlan(s.handle, plan, op, pref, estimate);
  if (st != TRNTENSOR_STATUS_SUCCESS) return st;
  s.plans.push_back(*plan);
  st = trntensorPlanGetAttribute(s.handle, *plan, TRNTENSOR_PLAN_REQUIRED_WORKSPACE, &required, sizeof(required));
  if (st != TRNTENSOR_STATUS_SUCCESS) return st;
  if (required > estimate) return TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE;
  work->allocate(required);
  return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t default_preference(Session& s, trntensorPlanPreference_t* pref) {
  const trntensorStatus_t st = trntensorCreatePlanPreference(s.handle, pref, TRNTENSOR_ALGO_DEFAULT, TRNTENSOR_JIT_MODE_NONE);
  if (st == TRNTENSOR_STATUS_SUCCESS) s.preferences.push_back(*pref);
  return st;
}

// The descriptor's SCALAR_TYPE attribute into run.scalars["scalar_type"].
trntensorStatus_t record_scalar_type(Session& s, trntensorOperationDescriptor_t op, Run* run) {
  trntensorDataType_t type{};
  const trntensorStatus_t st =
      trntensorOperationDescriptorGetAttribute(s.handle, op, TRNTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE, &type, sizeof(type));
  run->scalars["scalar_type"] = static_cast<double>(type);
  return st;
}

}  // namespace

Run contraction() {
  Run run;
  Session s;
  const std::map<char, std::int64_t> e{{'a', 5}, {'i', 7}, {'b', 6}, {'c', 4}, {'d', 3}};
  const Tensor A = make("icad", e, 11), B = make("dbc", e, 12), C0 = make("aib", e, 13);
  auto a = as_float(A.data), b = as_float(B.data), c = as_float(C0.data);
  const float alpha = 0.75f, beta = -0.5f;
  trntensorTensorDescriptor_t dA, dB, dC;
  trntensorOperationDescriptor_t op;
  trntensorPlanPreference_t pref;
  trntensorPlan_t plan;
  Workspace work;
  WT_CALL(trntensorCreate(&s.handle));
  WT_CALL(describe(s, A, TRNTENSOR_R_32F, &dA));
  WT_CALL(describe(s, B, TRNTENSOR_R_32F, &dB));
  WT_CALL(describe(s, C0, TRNTENSOR_R_32F, &dC));
  const auto mA = mode_ids(A.modes), mB = mode_ids(B.modes), mC = mode_ids(C0.modes);
  WT_CALL(trntensorCreateContraction(s.handle, &op, dA, mA.data(), TRNTENSOR_OP_IDENTITY, dB, mB.data(),
                                     TRNTENSOR_OP_IDENTITY, dC, mC.data(), TRNTENSOR_OP_IDENTITY, dC, mC.data(),
                                     TRNTENSOR_COMPUTE_DESC_32F));
  s.operations.push_back(op);
  WT_CALL(record_scalar_type(s, op, &run));
  WT_CALL(default_preference(s, &pref));
  WT_CALL(plan_with_workspace(s, op, pref, &plan, &work));
  WT_CALL(trntensorContract(s.handle, plan, &alpha, a.data(), b.data(), &beta, c.data(), c.data(), work.ptr.get(),
                            work.bytes, nullptr));
  run.tensors = {{"A", A}, {"B", B}, {"C0", C0}, {"C", {C0.modes, C0.extents, as_double(c)}}};
  run.scalars["alpha"] = alpha;
  run.scalars["beta"] = beta;
  return run;
}

Run contraction_trinary() {
  Run run;
  Session s;
  const std::map<char, std::int64_t> e{{'x', 6}, {'y', 5}, {'z', 4}, {'p', 3}, {'q', 4}, {'r', 2}};
  const Tensor A = make("xpq", e, 21), B = make("pyr", e, 22), C = make("qrz", e, 23), D0 = make("xyz", e, 24);
  auto a = as_float(A.data), b = as_float(B.data), c = as_float(C.data), d = as_float(D0.data);
  const float alpha = 1.25f, beta = 0.5f;
  trntensorTensorDescriptor_t dA, dB, dC, dD;
  trntensorOperationDescriptor_t op;
  trntensorPlanPreference_t pref;
  trntensorPlan_t plan;
  Workspace work;
  WT_CALL(trntensorCreate(&s.handle));
  WT_CALL(describe(s, A, TRNTENSOR_R_32F, &dA));
  WT_CALL(describe(s, B, TRNTENSOR_R_32F, &dB));
  WT_CALL(describe(s, C, TRNTENSOR_R_32F, &dC));
  WT_CALL(describe(s, D0, TRNTENSOR_R_32F, &dD));
  const auto mA = mode_ids(A.modes), mB = mode_ids(B.modes), mC = mode_ids(C.modes), mD = mode_ids(D0.modes);
  WT_CALL(trntensorCreateContractionTrinary(s.handle, &op, dA, mA.data(), TRNTENSOR_OP_IDENTITY, dB, mB.data(),
                                            TRNTENSOR_OP_IDENTITY, dC, mC.data(), TRNTENSOR_OP_IDENTITY, dD, mD.data(),
                                            TRNTENSOR_OP_IDENTITY, dD, mD.data(), TRNTENSOR_COMPUTE_DESC_32F));
  s.operations.push_back(op);
  WT_CALL(record_scalar_type(s, op, &run));
  WT_CALL(default_preference(s, &pref));
  WT_CALL(plan_with_workspace(s, op, pref, &plan, &work));
  WT_CALL(trntensorContractTrinary(s.handle, plan, &alpha, a.data(), b.data(), c.data(), &beta, d.data(), d.data(),
                                   work.ptr.get(), work.bytes, nullptr));
  run.tensors = {{"A", A}, {"B", B}, {"C", C}, {"D0", D0}, {"D", {D0.modes, D0.extents, as_double(d)}}};
  run.scalars["alpha"] = alpha;
  run.scalars["beta"] = beta;
  return run;
}

Run contraction_plan_cache(const std::string& file) {
  Run run;
  Session s;
  const std::map<char, std::int64_t> e{{'a', 8}, {'k', 6}, {'c', 3}, {'b', 5}};
  const Tensor A = make("akc", e, 31), B = make("kb", e, 32), D0 = make("bac", e, 0);
  auto a = as_float(A.data), b = as_float(B.data), d = as_float(D0.data);
  const float alpha = 1.0f, beta = 0.0f;
  trntensorTensorDescriptor_t dA, dB, dD;
  trntensorOperationDescriptor_t op;
  trntensorPlanPreference_t pref;
  trntensorPlan_t plan;
  Workspace work;
  WT_CALL(trntensorCreate(&s.handle));
  WT_CALL(trntensorHandleResizePlanCache(s.handle, 16));
  std::uint32_t lines = 0;
  const trntensorStatus_t read = trntensorHandleReadPlanCacheFromFile(s.handle, file.c_str(), &lines);
  run.scalars["read_status"] = read;  // IO_ERROR on the first run: no file yet
  run.scalars["lines_read"] = lines;
  if (read != TRNTENSOR_STATUS_IO_ERROR) WT_CALL(read);
  WT_CALL(describe(s, A, TRNTENSOR_R_32F, &dA));
  WT_CALL(describe(s, B, TRNTENSOR_R_32F, &dB));
  WT_CALL(describe(s, D0, TRNTENSOR_R_32F, &dD));
  const auto mA = mode_ids(A.modes), mB = mode_ids(B.modes), mD = mode_ids(D0.modes);
  WT_CALL(trntensorCreateContraction(s.handle, &op, dA, mA.data(), TRNTENSOR_OP_IDENTITY, dB, mB.data(),
                                     TRNTENSOR_OP_IDENTITY, dD, mD.data(), TRNTENSOR_OP_IDENTITY, dD, mD.data(),
                                     TRNTENSOR_COMPUTE_DESC_32F));
  s.operations.push_back(op);
  WT_CALL(default_preference(s, &pref));
  const trntensorCacheMode_t cache = TRNTENSOR_CACHE_MODE_PEDANTIC;
  const trntensorAutotuneMode_t autotune = TRNTENSOR_AUTOTUNE_MODE_INCREMENTAL;
  const std::int32_t increments = 3;
  WT_CALL(trntensorPlanPreferenceSetAttribute(s.handle, pref, TRNTENSOR_PLAN_PREFERENCE_CACHE_MODE, &cache, sizeof(cache)));
  WT_CALL(trntensorPlanPreferenceSetAttribute(s.handle, pref, TRNTENSOR_PLAN_PREFERENCE_AUTOTUNE_MODE, &autotune,
                                              sizeof(autotune)));
  WT_CALL(trntensorPlanPreferenceSetAttribute(s.handle, pref, TRNTENSOR_PLAN_PREFERENCE_INCREMENTAL_COUNT, &increments,
                                              sizeof(increments)));
  WT_CALL(plan_with_workspace(s, op, pref, &plan, &work));
  for (int repeat = 0; repeat < 4; ++repeat)  // incremental autotuning would try a candidate per run
    WT_CALL(trntensorContract(s.handle, plan, &alpha, a.data(), b.data(), &beta, d.data(), d.data(), work.ptr.get(),
                              work.bytes, nullptr));
  WT_CALL(trntensorHandleWritePlanCacheToFile(s.handle, file.c_str()));
  run.tensors = {{"A", A}, {"B", B}, {"D", {D0.modes, D0.extents, as_double(d)}}};
  run.scalars["alpha"] = alpha;
  return run;
}

namespace {

// NumPy's implicit output: the labels that appear exactly once, in character-code order.
std::string implicit_output(const std::string& lhs) {
  std::map<char, int> count;
  for (char c : lhs)
    if (c != ',') ++count[c];
  std::string out;
  for (const auto& [label, n] : count)
    if (n == 1) out += label;
  return out;
}

// The descriptor of a row-major view: its modes reversed (column-major of the reversed axes), packed.
Tensor column_major_view(const Tensor& row_major) {
  return {std::string(row_major.modes.rbegin(), row_major.modes.rend()),
          std::vector<std::int64_t>(row_major.extents.rbegin(), row_major.extents.rend()), {}};
}

// The row-major operands and output of `subscripts` over the given input shapes (inputs(seed)).
bool einsum_operands(const std::string& subscripts, const std::vector<std::vector<std::int64_t>>& shapes,
                     std::vector<Tensor>* in, Tensor* out) {
  const auto arrow = subscripts.find("->");
  const std::string lhs = subscripts.substr(0, arrow);
  const std::string rhs = arrow == std::string::npos ? implicit_output(lhs) : subscripts.substr(arrow + 2);
  std::map<char, std::int64_t> extent;
  std::size_t start = 0;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const std::size_t comma = lhs.find(',', start);
    const std::string labels = lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma + 1;
    if (labels.size() != shapes[i].size()) return false;
    for (std::size_t k = 0; k < labels.size(); ++k) extent[labels[k]] = shapes[i][k];
    in->push_back({labels, shapes[i], inputs(elements(shapes[i]), 41 + i)});
  }
  *out = {rhs, extents_of(rhs, extent), std::vector<double>(elements(extents_of(rhs, extent)), 0.0)};
  return true;
}

// One einsum call on typed buffers (float or double): one contraction descriptor (two inputs,
// C = D = the output, beta 0) or one reduction descriptor (one input, OP_ADD), planned and run.
template <class T>
Run einsum_typed(std::vector<Tensor> in, Tensor out, trntensorDataType_t type, trntensorComputeDescriptor_t compute) {
  Run run;
  Session s;
  std::vector<std::vector<T>> data;
  for (const auto& t : in) data.emplace_back(t.data.begin(), t.data.end());
  std::vector<T> result(out.data.size(), T(0));
  const T alpha = 1, beta = 0;
  std::vector<trntensorTensorDescriptor_t> desc(in.size());
  trntensorTensorDescriptor_t dOut;
  trntensorOperationDescriptor_t op;
  trntensorPlanPreference_t pref;
  trntensorPlan_t plan;
  Workspace work;
  WT_CALL(trntensorCreate(&s.handle));
  WT_CALL(trntensorHandleResizePlanCache(s.handle, 4));
  std::vector<Tensor> views;
  for (std::size_t i = 0; i < in.size(); ++i) {
    views.push_back(column_major_view(in[i]));
    WT_CALL(describe(s, views.back(), type, &desc[i]));
  }
  const Tensor out_view = column_major_view(out);
  WT_CALL(describe(s, out_view, type, &dOut));
  const auto mOut = mode_ids(out_view.modes), m0 = mode_ids(views[0].modes);
  if (in.size() == 2) {
    const auto m1 = mode_ids(views[1].modes);
    WT_CALL(trntensorCreateContraction(s.handle, &op, desc[0], m0.data(), TRNTENSOR_OP_IDENTITY, desc[1], m1.data(),
                                       TRNTENSOR_OP_IDENTITY, dOut, mOut.data(), TRNTENSOR_OP_IDENTITY, dOut,
                                       mOut.data(), compute));
  } else {
    WT_CALL(trntensorCreateReduction(s.handle, &op, desc[0], m0.data(), TRNTENSOR_OP_IDENTITY, dOut, mOut.data(),
                                     TRNTENSOR_OP_IDENTITY, dOut, mOut.data(), TRNTENSOR_OP_ADD, compute));
  }
  s.operations.push_back(op);
  WT_CALL(default_preference(s, &pref));
  WT_CALL(plan_with_workspace(s, op, pref, &plan, &work));
  if (in.size() == 2)
    WT_CALL(trntensorContract(s.handle, plan, &alpha, data[0].data(), data[1].data(), &beta, result.data(), result.data(),
                              work.ptr.get(), work.bytes, nullptr));
  else
    WT_CALL(trntensorReduce(s.handle, plan, &alpha, data[0].data(), &beta, result.data(), result.data(), work.ptr.get(),
                            work.bytes, nullptr));
  for (std::size_t i = 0; i < in.size(); ++i) {
    in[i].data.assign(data[i].begin(), data[i].end());
    run.tensors[std::string(1, static_cast<char>('A' + i))] = in[i];
  }
  out.data.assign(result.begin(), result.end());
  run.tensors["out"] = out;
  return run;
}

}  // namespace

Run einsum(const std::string& subscripts, const std::vector<std::vector<std::int64_t>>& shapes,
           trntensorDataType_t type) {
  std::vector<Tensor> in;
  Tensor out;
  if (shapes.empty() || shapes.size() > 2 || !einsum_operands(subscripts, shapes, &in, &out)) {
    Run run;
    run.status = TRNTENSOR_STATUS_INVALID_VALUE;
    run.failed_call = "einsum_operands (one or two inputs, one label per axis)";
    return run;
  }
  if (type == TRNTENSOR_R_64F) return einsum_typed<double>(std::move(in), std::move(out), type, TRNTENSOR_COMPUTE_DESC_64F);
  return einsum_typed<float>(std::move(in), std::move(out), type, TRNTENSOR_COMPUTE_DESC_32F);
}

Run elementwise_binary(trntensorOperator_t opAC) {
  Run run;
  Session s;
  const std::map<char, std::int64_t> e{{'p', 9}, {'q', 5}, {'r', 7}};
  const Tensor A = make("qrp", e, 51), C = make("pqr", e, 52), D0 = make("pqr", e, 0);
  auto a = as_float(A.data), c = as_float(C.data), d = as_float(D0.data);
  const float alpha = 1.1f, gamma = 0.7f;
  trntensorTensorDescriptor_t dA, dC, dD;
  trntensorOperationDescriptor_t op;
  trntensorPlanPreference_t pref;
  trntensorPlan_t plan;
  WT_CALL(trntensorCreate(&s.handle));
  WT_CALL(describe(s, A, TRNTENSOR_R_32F, &dA));
  WT_CALL(describe(s, C, TRNTENSOR_R_32F, &dC));
  WT_CALL(describe(s, D0, TRNTENSOR_R_32F, &dD));
  const auto mA = mode_ids(A.modes), mC = mode_ids(C.modes);
  WT_CALL(trntensorCreateElementwiseBinary(s.handle, &op, dA, mA.data(), TRNTENSOR_OP_IDENTITY, dC, mC.data(),
                                           TRNTENSOR_OP_IDENTITY, dD, mC.data(), opAC, TRNTENSOR_COMPUTE_DESC_32F));
  s.operations.push_back(op);
  WT_CALL(record_scalar_type(s, op, &run));
  WT_CALL(default_preference(s, &pref));
  WT_CALL(trntensorCreatePlan(s.handle, &plan, op, pref, 0));
  s.plans.push_back(plan);
  WT_CALL(trntensorElementwiseBinaryExecute(s.handle, plan, &alpha, a.data(), &gamma, c.data(), d.data(), nullptr));
  run.tensors = {{"A", A}, {"C", C}, {"D", {D0.modes, D0.extents, as_double(d)}}};
  run.scalars["alpha"] = alpha;
  run.scalars["gamma"] = gamma;
  return run;
}

namespace {

// B[modesB] = alpha A[modesA] through a permutation descriptor, optionally padded (left/right per
// mode of B, value): B is packed over the padded extents.
Run permute(const std::string& modesA, const std::string& modesB, const std::map<char, std::int64_t>& e, float alpha,
            const std::vector<std::uint32_t>& left, const std::vector<std::uint32_t>& right, float value) {
  Run run;
  Session s;
  const Tensor A = make(modesA, e, 61), B0 = make(modesB, e, 0);
  std::vector<std::int64_t> padded = B0.extents;
  for (std::size_t k = 0; k < padded.size() && !left.empty(); ++k) padded[k] += left[k] + right[k];
  auto a = as_float(A.data);
  std::vector<float> b(elements(padded), 0.0f);
  trntensorTensorDescriptor_t dA, dB;
  trntensorOperationDescriptor_t op;
  trntensorPlanPreference_t pref;
  trntensorPlan_t plan;
  WT_CALL(trntensorCreate(&s.handle));
  WT_CALL(describe(s, A, TRNTENSOR_R_32F, &dA));
  WT_CALL(describe(s, B0, TRNTENSOR_R_32F, &dB));
  const auto mA = mode_ids(A.modes), mB = mode_ids(B0.modes);
  WT_CALL(trntensorCreatePermutation(s.handle, &op, dA, mA.data(), TRNTENSOR_OP_IDENTITY, dB, mB.data(),
                                     TRNTENSOR_COMPUTE_DESC_32F));
  s.operations.push_back(op);
  if (!left.empty()) {
    const std::size_t bytes = left.size() * sizeof(std::uint32_t);
    WT_CALL(trntensorOperationDescriptorSetAttribute(s.handle, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT, left.data(), bytes));
    WT_CALL(trntensorOperationDescriptorSetAttribute(s.handle, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_RIGHT, right.data(), bytes));
    WT_CALL(trntensorOperationDescriptorSetAttribute(s.handle, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE, &value, sizeof(value)));
    std::vector<std::uint32_t> got_left(left.size()), got_right(right.size());
    float got_value = 0.0f;
    WT_CALL(trntensorOperationDescriptorGetAttribute(s.handle, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT, got_left.data(), bytes));
    WT_CALL(trntensorOperationDescriptorGetAttribute(s.handle, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_RIGHT, got_right.data(), bytes));
    WT_CALL(trntensorOperationDescriptorGetAttribute(s.handle, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE, &got_value, sizeof(got_value)));
    run.scalars["pad_ok"] = got_left == left && got_right == right && got_value == value;
  }
  WT_CALL(record_scalar_type(s, op, &run));
  WT_CALL(default_preference(s, &pref));
  WT_CALL(trntensorCreatePlan(s.handle, &plan, op, pref, 0));
  s.plans.push_back(plan);
  WT_CALL(trntensorPermute(s.handle, plan, &alpha, a.data(), b.data(), nullptr));
  run.tensors = {{"A", A}, {"B", {B0.modes, padded, as_double(b)}}};
  run.scalars["alpha"] = alpha;
  return run;
}

}  // namespace

Run elementwise_permute() {
  return permute("xyzw", "wzxy", {{'x', 6}, {'y', 4}, {'z', 5}, {'w', 3}}, 2.0f, {}, {}, 0.0f);
}

Run elementwise_permute_padding() {
  return permute("xyz", "zxy", {{'x', 5}, {'y', 3}, {'z', 4}}, 1.0f, {1, 0, 2}, {0, 2, 1}, -1.5f);
}

Run elementwise_trinary(trntensorOperator_t opAB, trntensorOperator_t opABC) {
  Run run;
  Session s;
  const std::map<char, std::int64_t> e{{'p', 6}, {'q', 4}, {'r', 5}};
  const Tensor A = make("rpq", e, 71), B = make("qp", e, 72), C = make("pqr", e, 73), D0 = make("pqr", e, 0);
  auto a = as_float(A.data), b = as_float(B.data), c = as_float(C.data), d = as_float(D0.data);
  const float alpha = 1.1f, beta = -0.9f, gamma = 0.6f;
  trntensorTensorDescriptor_t dA, dB, dC, dD;
  trntensorOperationDescriptor_t op;
  trntensorPlanPreference_t pref;
  trntensorPlan_t plan;
  WT_CALL(trntensorCreate(&s.handle));
  WT_CALL(describe(s, A, TRNTENSOR_R_32F, &dA));
  WT_CALL(describe(s, B, TRNTENSOR_R_32F, &dB));
  WT_CALL(describe(s, C, TRNTENSOR_R_32F, &dC));
  WT_CALL(describe(s, D0, TRNTENSOR_R_32F, &dD));
  const auto mA = mode_ids(A.modes), mB = mode_ids(B.modes), mC = mode_ids(C.modes);
  WT_CALL(trntensorCreateElementwiseTrinary(s.handle, &op, dA, mA.data(), TRNTENSOR_OP_IDENTITY, dB, mB.data(),
                                            TRNTENSOR_OP_IDENTITY, dC, mC.data(), TRNTENSOR_OP_IDENTITY, dD, mC.data(),
                                            opAB, opABC, TRNTENSOR_COMPUTE_DESC_32F));
  s.operations.push_back(op);
  WT_CALL(default_preference(s, &pref));
  WT_CALL(trntensorCreatePlan(s.handle, &plan, op, pref, 0));
  s.plans.push_back(plan);
  WT_CALL(trntensorElementwiseTrinaryExecute(s.handle, plan, &alpha, a.data(), &beta, b.data(), &gamma, c.data(),
                                             d.data(), nullptr));
  run.tensors = {{"A", A}, {"B", B}, {"C", C}, {"D", {D0.modes, D0.extents, as_double(d)}}};
  run.scalars["alpha"] = alpha;
  run.scalars["beta"] = beta;
  run.scalars["gamma"] = gamma;
  return run;
}

Run reduction() {
  Run run;
  Session s;
  const std::map<char, std::int64_t> e{{'x', 7}, {'y', 5}, {'z', 6}, {'w', 4}};
  const Tensor A = make("xyzw", e, 81), C0 = make("yw", e, 82);
  auto a = as_float(A.data), c = as_float(C0.data);
  const float alpha = 0.5f, beta = 2.0f;
  trntensorTensorDescriptor_t dA, dC;
  trntensorOperationDescriptor_t op;
  trntensorPlanPreference_t pref;
  trntensorPlan_t plan;
  Workspace work;
  WT_CALL(trntensorCreate(&s.handle));
  WT_CALL(describe(s, A, TRNTENSOR_R_32F, &dA));
  WT_CALL(describe(s, C0, TRNTENSOR_R_32F, &dC));
  const auto mA = mode_ids(A.modes), mC = mode_ids(C0.modes);
  WT_CALL(trntensorCreateReduction(s.handle, &op, dA, mA.data(), TRNTENSOR_OP_IDENTITY, dC, mC.data(),
                                   TRNTENSOR_OP_IDENTITY, dC, mC.data(), TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_32F));
  s.operations.push_back(op);
  WT_CALL(default_preference(s, &pref));
  WT_CALL(plan_with_workspace(s, op, pref, &plan, &work));
  WT_CALL(trntensorReduce(s.handle, plan, &alpha, a.data(), &beta, c.data(), c.data(), work.ptr.get(), work.bytes, nullptr));
  run.tensors = {{"A", A}, {"C0", C0}, {"C", {C0.modes, C0.extents, as_double(c)}}};
  run.scalars["alpha"] = alpha;
  run.scalars["beta"] = beta;
  return run;
}

namespace {

// A block-sparse tensor over `modes` storing the blocks at `coords` (inputs(seed + b) each).
BlockTensor make_blocks(const std::string& modes, const std::map<char, std::vector<std::int64_t>>& sections,
                        std::vector<std::vector<std::int32_t>> coords, std::uint64_t seed) {
  BlockTensor t{modes, {}, std::move(coords), {}};
  for (char m : modes) t.sections.push_back(sections.at(m));
  for (std::size_t b = 0; b < t.coords.size(); ++b) {
    std::size_t n = 1;
    for (std::size_t i = 0; i < modes.size(); ++i) n *= static_cast<std::size_t>(t.sections[i][t.coords[b][i]]);
    t.blocks.push_back(inputs(n, seed + b));
  }
  return t;
}

trntensorStatus_t describe_blocks(Session& s, const BlockTensor& t, trntensorBlockSparseTensorDescriptor_t* desc) {
  std::vector<std::uint32_t> per_mode;
  std::vector<std::int64_t> extents;
  std::vector<std::int32_t> coords;
  for (const auto& sec : t.sections) {
    per_mode.push_back(static_cast<std::uint32_t>(sec.size()));
    extents.insert(extents.end(), sec.begin(), sec.end());
  }
  for (const auto& c : t.coords) coords.insert(coords.end(), c.begin(), c.end());
  const trntensorStatus_t st = trntensorCreateBlockSparseTensorDescriptor(
      s.handle, desc, static_cast<std::uint32_t>(t.modes.size()), t.coords.size(), per_mode.data(), extents.data(),
      coords.data(), nullptr, TRNTENSOR_R_64F);
  if (st == TRNTENSOR_STATUS_SUCCESS) s.block_tensors.push_back(*desc);
  return st;
}

}  // namespace

Run blocksparse() {
  Run run;
  Session s;
  const std::map<char, std::vector<std::int64_t>> sec{{'p', {4, 3}}, {'r', {2, 5}}, {'t', {3, 3}}, {'s', {6, 2}}};
  const BlockTensor A = make_blocks("prt", sec, {{0, 0, 0}, {0, 1, 1}, {1, 0, 1}, {1, 1, 0}, {1, 1, 1}}, 91);
  const BlockTensor B = make_blocks("trs", sec, {{0, 0, 0}, {1, 1, 0}, {1, 0, 1}, {0, 1, 1}}, 101);
  // D block (0, 1) is reached by no stored pair: beta C there.
  const BlockTensor C0 = make_blocks("ps", sec, {{0, 0}, {1, 1}, {1, 0}, {0, 1}}, 111);
  BlockTensor D = C0;
  const double alpha = -1.5, beta = 0.25;
  std::vector<const void*> pa, pb;
  std::vector<void*> pd;
  for (const auto& blk : A.blocks) pa.push_back(blk.data());
  for (const auto& blk : B.blocks) pb.push_back(blk.data());
  for (auto& blk : D.blocks) pd.push_back(blk.data());
  trntensorBlockSparseTensorDescriptor_t dA, dB, dD;
  trntensorOperationDescriptor_t op;
  trntensorPlanPreference_t pref;
  trntensorPlan_t plan;
  Workspace work;
  WT_CALL(trntensorCreate(&s.handle));
  WT_CALL(describe_blocks(s, A, &dA));
  WT_CALL(describe_blocks(s, B, &dB));
  WT_CALL(describe_blocks(s, D, &dD));
  const auto mA = mode_ids(A.modes), mB = mode_ids(B.modes), mD = mode_ids(D.modes);
  WT_CALL(trntensorCreateBlockSparseContraction(s.handle, &op, dA, mA.data(), TRNTENSOR_OP_IDENTITY, dB, mB.data(),
                                                TRNTENSOR_OP_IDENTITY, dD, mD.data(), TRNTENSOR_OP_IDENTITY, dD,
                                                mD.data(), TRNTENSOR_COMPUTE_DESC_64F));
  s.operations.push_back(op);
  WT_CALL(default_preference(s, &pref));
  WT_CALL(plan_with_workspace(s, op, pref, &plan, &work));
  const std::vector<const void*> pc(pd.begin(), pd.end());  // C is D
  WT_CALL(trntensorBlockSparseContract(s.handle, plan, &alpha, pa.data(), pb.data(), &beta, pc.data(), pd.data(),
                                       work.ptr.get(), work.bytes, nullptr));
  run.block_tensors = {{"A", A}, {"B", B}, {"C0", C0}, {"D", D}};
  run.scalars["alpha"] = alpha;
  run.scalars["beta"] = beta;
  return run;
}

#undef WT_CALL

}  // namespace trntensor_walkthrough
