// The fuzz target over the einsum parser / planner / executor, the descriptor -> contraction
// -> plan -> contract pipeline, the trinary contraction, and the 2.x entry points of issue #29
// (plan cache file reader, block-sparse descriptors and contraction, element-wise trinary,
// permutations with unary operators and padding), all
// through the C API. Every input must end in a status, never a
// crash, every status one of cuTENSOR's, and a failed call must leave its output untouched.
// The layout of every harness (fuzz_input.hpp): the libFuzzer target fuzz_trntensor (tools/fuzz.sh)
// and the ctest fuzz_replay_trntensor (its corpus, seeds of valid einsum expressions and descriptor
// pipelines among it (seed-*), mutations of it and random inputs; fuzz_replay.cpp).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "trn/tensor/tensor.hpp"
#include "trntensor.h"

namespace {

using trnfuzz::require;

bool is_status(trntensorStatus_t st) {
  switch (st) {
    case TRNTENSOR_STATUS_SUCCESS: case TRNTENSOR_STATUS_NOT_INITIALIZED: case TRNTENSOR_STATUS_ALLOC_FAILED:
    case TRNTENSOR_STATUS_INVALID_VALUE: case TRNTENSOR_STATUS_ARCH_MISMATCH: case TRNTENSOR_STATUS_MAPPING_ERROR:
    case TRNTENSOR_STATUS_EXECUTION_FAILED: case TRNTENSOR_STATUS_INTERNAL_ERROR: case TRNTENSOR_STATUS_NOT_SUPPORTED:
    case TRNTENSOR_STATUS_LICENSE_ERROR: case TRNTENSOR_STATUS_CUBLAS_ERROR: case TRNTENSOR_STATUS_CUDA_ERROR:
    case TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE: case TRNTENSOR_STATUS_INSUFFICIENT_DRIVER:
    case TRNTENSOR_STATUS_IO_ERROR: return true;
    default: return false;
  }
}

// What an input ran to: the einsum or the contraction succeeded, or ended in an error status.
void ran_to(trntensorStatus_t st) {
  require(is_status(st), "a status outside cuTENSOR's");
  trnfuzz::reach(st == TRNTENSOR_STATUS_SUCCESS ? "ran_to_success" : "ran_to_error");
}

std::int64_t span(const std::vector<std::int64_t>& ext, const std::vector<std::int64_t>& str) {
  std::int64_t s = 1;
  for (std::size_t i = 0; i < ext.size(); ++i)
    if (ext[i] > 0) s += (ext[i] - 1) * (str.empty() ? 1 : str[i]);
  if (str.empty()) {
    s = 1;
    for (auto e : ext) s *= e > 0 ? e : 1;
  }
  return s;
}

// ---- the cuTENSOR 2.x entry points of issue #29 ----------------------------------------------------

// A plan cache file: the handle's own (a planned contraction written out) mutated by the input, or
// raw input bytes; reading it is SUCCESS or IO_ERROR, numCachelinesRead untouched on error, and the
// cache still writes afterwards.
void fuzz_plan_cache_file(trnfuzz::Input& r, trntensorHandle_t h) {
  const std::string path = "/tmp/trntensor_fuzz_plan_cache_" + std::to_string(static_cast<long>(getpid())) + ".txt";
  std::string text;
  if (r.byte() % 4 != 0) {
    const int64_t m = 1 + r.byte() % 9, k = 1 + r.byte() % 9;
    const int64_t ea[2] = {m, k}, eb[1] = {k}, ed[1] = {m};
    const int32_t ma[2] = {'m', 'k'}, mb[1] = {'k'}, md[1] = {'m'};
    trntensorTensorDescriptor_t a = nullptr, b = nullptr, d = nullptr;
    trntensorCreateTensorDescriptor(h, &a, 2, ea, nullptr, TRN_R_32F, 16);
    trntensorCreateTensorDescriptor(h, &b, 1, eb, nullptr, TRN_R_32F, 16);
    trntensorCreateTensorDescriptor(h, &d, 1, ed, nullptr, TRN_R_32F, 16);
    trntensorOperationDescriptor_t op = nullptr;
    if (trntensorCreateContraction(h, &op, a, ma, TRNTENSOR_OP_IDENTITY, b, mb, TRNTENSOR_OP_IDENTITY, d, md,
                                   TRNTENSOR_OP_IDENTITY, d, md, TRNTENSOR_COMPUTE_DESC_32F) == TRNTENSOR_STATUS_SUCCESS) {
      trntensorPlan_t plan = nullptr;
      if (trntensorCreatePlan(h, &plan, op, nullptr, UINT64_MAX) == TRNTENSOR_STATUS_SUCCESS) trntensorDestroyPlan(plan);
      trntensorDestroyOperationDescriptor(op);
    }
    for (auto t : {a, b, d}) trntensorDestroyTensorDescriptor(t);
    require(trntensorHandleWritePlanCacheToFile(h, path.c_str()) == TRNTENSOR_STATUS_SUCCESS, "write the plan cache");
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
    // Mutations: (position, new byte) pairs, then an optional truncation.
    const int edits = r.byte() % 4;
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const std::size_t at = r.u32() % text.size();
      text[at] = static_cast<char>(r.byte());
    }
    if (r.byte() % 3 == 0 && !text.empty()) text.resize(r.u32() % text.size());
  } else {
    while (!r.empty() && text.size() < 4096) text += static_cast<char>(r.byte());
  }
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
  }
  uint32_t n = 12345;
  const trntensorStatus_t st = trntensorHandleReadPlanCacheFromFile(h, path.c_str(), &n);
  require(st == TRNTENSOR_STATUS_SUCCESS || st == TRNTENSOR_STATUS_IO_ERROR, "plan cache read: SUCCESS or IO_ERROR");
  require(st == TRNTENSOR_STATUS_SUCCESS || n == 12345, "a failed plan cache read wrote numCachelinesRead");
  require(trntensorHandleWritePlanCacheToFile(h, path.c_str()) == TRNTENSOR_STATUS_SUCCESS, "write after read");
  std::remove(path.c_str());
  trnfuzz::reach(st == TRNTENSOR_STATUS_SUCCESS ? "plan_cache_read" : "plan_cache_refused");
  ran_to(st);
}

// Block-sparse descriptors from the input (up to 3 modes of up to 3 sections, up to 4 blocks, some
// coordinates or strides invalid) and their contraction D = A B + beta C with D = C.
void fuzz_block_sparse(trnfuzz::Input& r, trntensorHandle_t h) {
  const bool f64 = r.byte() % 2 == 0;
  trntensorBlockSparseTensorDescriptor_t d[3] = {nullptr, nullptr, nullptr};
  std::vector<std::int32_t> modes[3];
  std::vector<std::vector<double>> blocks[3];
  for (int t = 0; t < 3; ++t) {
    const uint32_t nm = r.byte() % 4;
    const uint64_t nb = r.byte() % 5;
    std::vector<uint32_t> nsec;
    std::vector<int64_t> ext;
    std::vector<int32_t> coords;
    std::vector<int64_t> strides;
    const bool strided = r.byte() % 4 == 0;
    for (uint32_t i = 0; i < nm; ++i) {
      nsec.push_back(1 + r.byte() % 3);
      modes[t].push_back('a' + r.byte() % 4);
      for (uint32_t q = 0; q < nsec.back(); ++q) ext.push_back(r.byte() % 5);
    }
    for (uint64_t b = 0; b < nb; ++b) {
      std::size_t elems = 1;
      std::size_t base = 0;
      for (uint32_t i = 0; i < nm; ++i) {
        const int32_t c0 = static_cast<int32_t>(r.byte() % 4);
        const int32_t c = r.byte() % 16 == 0 ? c0 - 4 : c0;  // sometimes negative
        coords.push_back(c);
        const std::size_t e = c >= 0 && static_cast<uint32_t>(c) < nsec[i] ? static_cast<std::size_t>(std::max<int64_t>(1, ext[base + static_cast<std::size_t>(c)])) : 1;
        if (strided) strides.push_back(r.byte() % 7);
        elems *= e;
        base += nsec[i];
      }
      std::size_t span_elems = elems;
      for (auto s : strides) span_elems += static_cast<std::size_t>(std::max<int64_t>(s, 0)) * 8;
      blocks[t].emplace_back(span_elems + 1, 0.25);
    }
    (void)trntensorCreateBlockSparseTensorDescriptor(h, &d[t], nm, nb, nsec.data(), ext.data(), coords.data(),
                                                     strided ? strides.data() : nullptr, f64 ? TRN_R_64F : TRN_R_32F);
  }
  trntensorOperationDescriptor_t op = nullptr;
  const trntensorStatus_t st = trntensorCreateBlockSparseContraction(
      h, &op, d[0], modes[0].data(), TRNTENSOR_OP_IDENTITY, d[1], modes[1].data(), TRNTENSOR_OP_IDENTITY, d[2],
      modes[2].data(), TRNTENSOR_OP_IDENTITY, d[2], modes[2].data(), f64 ? TRNTENSOR_COMPUTE_DESC_64F : TRNTENSOR_COMPUTE_DESC_32F);
  if (st == TRNTENSOR_STATUS_SUCCESS) {
    uint64_t ws = 0;
    trntensorEstimateWorkspaceSize(h, op, nullptr, TRNTENSOR_WORKSPACE_DEFAULT, &ws);
    trntensorPlan_t plan = nullptr;
    if (trntensorCreatePlan(h, &plan, op, nullptr, ws) == TRNTENSOR_STATUS_SUCCESS) {
      // Block data as float or double in over-sized double buffers (the element counts above).
      std::vector<const void*> pa, pb, pc;
      std::vector<void*> pd;
      for (auto& v : blocks[0]) pa.push_back(v.data());
      for (auto& v : blocks[1]) pb.push_back(v.data());
      for (auto& v : blocks[2]) {
        pc.push_back(v.data());
        pd.push_back(v.data());
      }
      if (r.byte() % 5 == 0 && !pa.empty()) pa[0] = nullptr;
      std::vector<double> work(ws / 8 + 2);
      const float af = 1.0f, bf = static_cast<float>(r.byte() % 2);
      const double ad = 1.0, bd = bf;
      const auto before = blocks[2];
      const trntensorStatus_t cs = trntensorBlockSparseContract(
          h, plan, f64 ? static_cast<const void*>(&ad) : &af, pa.data(), pb.data(), f64 ? static_cast<const void*>(&bd) : &bf,
          pc.data(), pd.data(), work.data(), ws, nullptr);
      require(cs == TRNTENSOR_STATUS_SUCCESS || blocks[2] == before, "a failed block-sparse contraction wrote D");
      if (cs == TRNTENSOR_STATUS_SUCCESS) trnfuzz::reach("block_sparse_contracted");
      ran_to(cs);
      trntensorDestroyPlan(plan);
    }
    trntensorDestroyOperationDescriptor(op);
  }
  for (auto x : d) trntensorDestroyBlockSparseTensorDescriptor(x);
}

// Element-wise trinary: four descriptors with random modes and extents, random binary operators.
void fuzz_elementwise_trinary(trnfuzz::Input& r, trntensorHandle_t h) {
  trntensorTensorDescriptor_t d[4] = {nullptr, nullptr, nullptr, nullptr};
  std::vector<std::int64_t> ext[4];
  std::vector<std::int32_t> modes[4];
  std::vector<std::vector<float>> buf(4);
  for (int t = 0; t < 4; ++t) {
    const int rank = r.byte() % 4;
    for (int a = 0; a < rank; ++a) {
      ext[t].push_back(r.byte() % 5);
      modes[t].push_back('a' + r.byte() % 4);
    }
    (void)trntensorCreateTensorDescriptor(h, &d[t], static_cast<uint32_t>(rank), ext[t].data(), nullptr, TRN_R_32F, 16);
    buf[static_cast<std::size_t>(t)].assign(static_cast<std::size_t>(span(ext[t], {}) + 1), 0.5f);
  }
  const int ops[] = {TRNTENSOR_OP_ADD, TRNTENSOR_OP_MUL, TRNTENSOR_OP_MAX, TRNTENSOR_OP_MIN, TRNTENSOR_OP_RELU, 77};
  trntensorOperationDescriptor_t op = nullptr;
  const trntensorStatus_t st = trntensorCreateElementwiseTrinary(
      h, &op, d[0], modes[0].data(), TRNTENSOR_OP_IDENTITY, d[1], modes[1].data(), TRNTENSOR_OP_IDENTITY, d[2],
      modes[2].data(), TRNTENSOR_OP_IDENTITY, d[3], modes[3].data(), static_cast<trntensorOperator_t>(ops[r.byte() % 6]),
      static_cast<trntensorOperator_t>(ops[r.byte() % 6]), TRNTENSOR_COMPUTE_DESC_32F);
  if (st == TRNTENSOR_STATUS_SUCCESS) {
    trntensorPlan_t plan = nullptr;
    if (trntensorCreatePlan(h, &plan, op, nullptr, 0) == TRNTENSOR_STATUS_SUCCESS) {
      const float s = 1.5f;
      const auto before = buf[3];
      const trntensorStatus_t cs = trntensorElementwiseTrinaryExecute(h, plan, &s, buf[0].data(), &s, buf[1].data(), &s,
                                                                      r.byte() % 7 == 0 ? nullptr : buf[2].data(),
                                                                      buf[3].data(), nullptr);
      require(cs == TRNTENSOR_STATUS_SUCCESS || buf[3] == before, "a failed element-wise trinary wrote D");
      if (cs == TRNTENSOR_STATUS_SUCCESS) trnfuzz::reach("elementwise_trinary_executed");
      ran_to(cs);
      trntensorDestroyPlan(plan);
    }
    trntensorDestroyOperationDescriptor(op);
  }
  for (auto x : d) trntensorDestroyTensorDescriptor(x);
}

// A permutation with a fuzzed unary operator (any 2.x value, or an unknown one) and, for IDENTITY,
// fuzzed PADDING_LEFT/RIGHT/VALUE (negative entries, wrong sizes): attribute calls end in a status
// and change nothing on error; a failed Permute writes nothing; a successful padded one writes the
// value over the padding and A inside (packed over the padded extents), nothing beyond.
void fuzz_permutation(trnfuzz::Input& r, trntensorHandle_t h) {
  const int rank = r.byte() % 4;
  std::vector<std::int64_t> ext;
  std::vector<std::int32_t> ma, mb;
  for (int a = 0; a < rank; ++a) {
    ext.push_back(r.byte() % 4);
    ma.push_back('a' + a);
  }
  mb = ma;
  for (int a = rank - 1; a > 0; --a) std::swap(mb[static_cast<std::size_t>(a)], mb[static_cast<std::size_t>(r.byte() % (a + 1))]);
  std::vector<std::int64_t> eb;
  for (auto m : mb) eb.push_back(ext[static_cast<std::size_t>(m - 'a')]);
  trntensorTensorDescriptor_t da = nullptr, db = nullptr;
  (void)trntensorCreateTensorDescriptor(h, &da, static_cast<uint32_t>(rank), ext.data(), nullptr, TRN_R_32F, 16);
  (void)trntensorCreateTensorDescriptor(h, &db, static_cast<uint32_t>(rank), eb.data(), nullptr, TRN_R_32F, 16);
  const int opv = r.byte() % 8 == 0 ? r.byte() % 50 : (r.byte() % 2 == 0 ? TRNTENSOR_OP_IDENTITY : 2 + r.byte() % 41);
  trntensorOperationDescriptor_t op = nullptr;
  const trntensorStatus_t st = trntensorCreatePermutation(h, &op, da, ma.data(), static_cast<trntensorOperator_t>(opv), db,
                                                         mb.data(), TRNTENSOR_COMPUTE_DESC_32F);
  ran_to(st);
  if (st == TRNTENSOR_STATUS_SUCCESS) {
    std::vector<std::int32_t> left(static_cast<std::size_t>(rank)), right(static_cast<std::size_t>(rank));
    for (auto* v : {&left, &right})
      for (auto& x : *v) x = r.byte() % 16 == 0 ? -static_cast<std::int32_t>(r.byte()) : r.byte() % 3;
    const float value = -123.25f;
    const std::size_t bytes = static_cast<std::size_t>(rank) * 4 + (r.byte() % 8 == 0 ? 4 : 0);
    ran_to(trntensorOperationDescriptorSetAttribute(h, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT, left.data(), bytes));
    ran_to(trntensorOperationDescriptorSetAttribute(h, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_RIGHT, right.data(),
                                                    static_cast<std::size_t>(rank) * 4));
    ran_to(trntensorOperationDescriptorSetAttribute(h, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE, &value, 4));
    std::vector<std::int32_t> gl(static_cast<std::size_t>(rank)), gr(static_cast<std::size_t>(rank));
    (void)trntensorOperationDescriptorGetAttribute(h, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT, gl.data(), gl.size() * 4);
    (void)trntensorOperationDescriptorGetAttribute(h, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_RIGHT, gr.data(), gr.size() * 4);
    std::int64_t full = 1;
    for (int k = 0; k < rank; ++k) {
      require(gl[static_cast<std::size_t>(k)] >= 0 && gr[static_cast<std::size_t>(k)] >= 0, "negative padding accepted");
      full *= eb[static_cast<std::size_t>(k)] + gl[static_cast<std::size_t>(k)] + gr[static_cast<std::size_t>(k)];
    }
    trntensorPlan_t plan = nullptr;
    if (trntensorCreatePlan(h, &plan, op, nullptr, 0) == TRNTENSOR_STATUS_SUCCESS) {
      std::vector<float> A(static_cast<std::size_t>(span(ext, {}) + 1), 0.5f), B(static_cast<std::size_t>(full + 8), 9.0f);
      const auto before = B;
      const float alpha = 2.0f;
      const trntensorStatus_t cs = trntensorPermute(h, plan, r.byte() % 9 == 0 ? nullptr : &alpha, A.data(), B.data(), nullptr);
      ran_to(cs);
      if (cs != TRNTENSOR_STATUS_SUCCESS) require(B == before, "a failed Permute wrote B");
      for (std::size_t o = static_cast<std::size_t>(full); o < B.size(); ++o) require(B[o] == 9.0f, "Permute wrote past B");
      if (cs == TRNTENSOR_STATUS_SUCCESS && opv == TRNTENSOR_OP_IDENTITY) {
        std::int64_t interior = 1;
        for (auto e : eb) interior *= e;
        const auto inner = std::count(B.begin(), B.begin() + full, 1.0f), padded = std::count(B.begin(), B.begin() + full, value);
        require(inner == interior && padded == full - interior, "padded permutation: wrong values");
        trnfuzz::reach("padded_permutation_ran");
      }
      trntensorDestroyPlan(plan);
    }
    trntensorDestroyOperationDescriptor(op);
  }
  trntensorDestroyTensorDescriptor(da);
  trntensorDestroyTensorDescriptor(db);
}

void run_one(const std::uint8_t* data, std::size_t size) {
  trnfuzz::Input r(data, size);
  trntensorHandle_t h = nullptr;
  require(trntensorCreate(&h) == TRNTENSOR_STATUS_SUCCESS, "create handle");
  const trntensorComputeDescriptor_t computes[] = {TRNTENSOR_COMPUTE_DESC_32F, TRNTENSOR_COMPUTE_DESC_16BF,
                                                   TRNTENSOR_COMPUTE_DESC_64F, TRNTENSOR_COMPUTE_DESC_TF32};
  const std::uint8_t mode = r.byte();
  if (mode % 2 == 0) {
    // Einsum: numInputs, then per operand rank and extents, then the subscripts string.
    const int n = 1 + r.byte() % 5;
    std::vector<std::vector<std::int64_t>> shapes(static_cast<std::size_t>(n));
    std::vector<std::vector<float>> bufs(static_cast<std::size_t>(n));
    std::vector<trntensorEinsumOperand_t> ops(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) {
      const int rank = r.byte() % 5;
      for (int a = 0; a < rank; ++a) shapes[static_cast<std::size_t>(k)].push_back(r.byte() % 4);
      bufs[static_cast<std::size_t>(k)].assign(static_cast<std::size_t>(span(shapes[static_cast<std::size_t>(k)], {})), 1.0f);
      ops[static_cast<std::size_t>(k)] = {bufs[static_cast<std::size_t>(k)].data(), rank, shapes[static_cast<std::size_t>(k)].data(),
                                          nullptr};
    }
    std::string subs;
    while (!r.empty() && subs.size() < 64) subs += static_cast<char>(r.byte());
    int32_t path[16];
    double f1, f2, f3;
    (void)trntensorEinsumPath(h, subs.c_str(), n, ops.data(), TRNTENSOR_EINSUM_PATH_AUTO, n <= 8 ? path : nullptr, &f1, &f2, &f3);
    // Execute with the parsed output shape when the expression is valid (else a guessed shape).
    std::vector<std::int64_t> out_shape = {2, 2};
    try {
      out_shape = trn::tensor::parse_einsum(subs, shapes).output_shape;
    } catch (const std::exception&) {
    }
    std::vector<float> out(static_cast<std::size_t>(span(out_shape, {})), -5.0f);
    const std::vector<float> before = out;
    const trntensorStatus_t st = trntensorEinsum(h, subs.c_str(), n, ops.data(), out.data(), static_cast<int32_t>(out_shape.size()),
                                                 out_shape.data(), nullptr, TRNTENSOR_R_32F, computes[mode / 2 % 2],
                                                 TRNTENSOR_EINSUM_PATH_AUTO);
    require(st == TRNTENSOR_STATUS_SUCCESS || out == before, "a failed einsum wrote its output");
    ran_to(st);
  } else if (mode % 32 == 29) {
    // The 2.x entry points (one in eight of the inputs that used to reach the contraction pipeline).
    const std::uint8_t b = r.byte(), which = b % 3;
    if (which == 0) fuzz_plan_cache_file(r, h);
    else if (which == 1) fuzz_block_sparse(r, h);
    else if (b < 224) fuzz_elementwise_trinary(r, h);
    else fuzz_permutation(r, h);
  } else if (mode % 4 == 3) {
    // Trinary pipeline: five descriptors (A, B, C, D, E) with random modes and extents, packed.
    trntensorTensorDescriptor_t d[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
    std::vector<std::int64_t> ext[5];
    std::vector<std::int32_t> modes[5];
    std::vector<std::vector<double>> buf(5);
    const bool f64 = r.byte() % 2 == 0;
    for (int t = 0; t < 5; ++t) {
      const int rank = r.byte() % 4;
      for (int a = 0; a < rank; ++a) {
        ext[t].push_back(r.byte() % 5);
        modes[t].push_back('a' + r.byte() % 5);
      }
      (void)trntensorCreateTensorDescriptor(h, &d[t], static_cast<uint32_t>(rank), ext[t].data(), nullptr,
                                            f64 ? TRNTENSOR_R_64F : TRNTENSOR_R_32F, 16);
      buf[static_cast<std::size_t>(t)].assign(static_cast<std::size_t>(span(ext[t], {}) + 1), 0.5);
    }
    trntensorOperationDescriptor_t op = nullptr;
    const trntensorStatus_t st = trntensorCreateContractionTrinary(
        h, &op, d[0], modes[0].data(), TRNTENSOR_OP_IDENTITY, d[1], modes[1].data(), TRNTENSOR_OP_CONJ, d[2], modes[2].data(),
        TRNTENSOR_OP_IDENTITY, d[3], modes[3].data(), TRNTENSOR_OP_IDENTITY, d[4], modes[4].data(),
        f64 ? TRNTENSOR_COMPUTE_DESC_64F : TRNTENSOR_COMPUTE_DESC_32F);
    if (st == TRNTENSOR_STATUS_SUCCESS) {
      trntensorPlanPreference_t pref;
      trntensorPlan_t plan;
      uint64_t ws = 0;
      trntensorCreatePlanPreference(h, &pref, TRNTENSOR_ALGO_DEFAULT, TRNTENSOR_JIT_MODE_NONE);
      trntensorEstimateWorkspaceSize(h, op, pref, TRNTENSOR_WORKSPACE_DEFAULT, &ws);
      if (trntensorCreatePlan(h, &plan, op, pref, ws) == TRNTENSOR_STATUS_SUCCESS) {
        std::vector<double> work(ws / 8 + 2);
        const float af = 1.0f, bf = static_cast<float>(r.byte() % 2);
        const double ad = 1.0, bd = bf;
        const std::vector<double> ebefore = buf[4];
        const trntensorStatus_t cs = trntensorContractTrinary(
            h, plan, f64 ? static_cast<const void*>(&ad) : &af, buf[0].data(), buf[1].data(), buf[2].data(),
            f64 ? static_cast<const void*>(&bd) : &bf, buf[3].data(), buf[4].data(), work.data(), r.byte() % 5 == 0 ? ws / 2 : ws,
            nullptr);
        require(cs == TRNTENSOR_STATUS_SUCCESS || buf[4] == ebefore, "a failed trinary contraction wrote E");
        ran_to(cs);
        trntensorDestroyPlan(plan);
      }
      trntensorDestroyPlanPreference(pref);
      trntensorDestroyOperationDescriptor(op);
    }
    for (auto x : d) trntensorDestroyTensorDescriptor(x);
  } else {
    // Descriptor pipeline: four descriptors with random modes, extents, strides.
    trntensorTensorDescriptor_t d[4] = {nullptr, nullptr, nullptr, nullptr};
    std::vector<std::int64_t> ext[4], str[4];
    std::vector<std::int32_t> modes[4];
    std::vector<std::vector<float>> buf(4);
    // Data type byte: % 4 == 0 R_64F, % 8 == 5 C_32F, % 8 == 7 C_64F, else R_32F; bit 4 / bit 5:
    // CONJ on A / B (the identity on real data).
    const std::uint8_t tb = r.byte();
    const bool f64 = tb % 4 == 0, c32 = tb % 8 == 5, c64 = tb % 8 == 7;
    const trntensorDataType_t dtype = f64 ? TRNTENSOR_R_64F : c32 ? TRNTENSOR_C_32F : c64 ? TRNTENSOR_C_64F : TRNTENSOR_R_32F;
    const trntensorOperator_t op_a = (tb & 16) != 0 ? TRNTENSOR_OP_CONJ : TRNTENSOR_OP_IDENTITY,
                              op_b = (tb & 32) != 0 ? TRNTENSOR_OP_CONJ : TRNTENSOR_OP_IDENTITY;
    for (int t = 0; t < 4; ++t) {
      const int rank = r.byte() % 5;
      const bool strided = r.byte() % 2 == 0;
      for (int a = 0; a < rank; ++a) {
        ext[t].push_back(r.byte() % 5);
        if (strided) str[t].push_back(r.byte() % 9);
        modes[t].push_back('a' + r.byte() % 6);
      }
      (void)trntensorCreateTensorDescriptor(h, &d[t], static_cast<uint32_t>(rank), ext[t].data(), strided ? str[t].data() : nullptr,
                                            dtype, 16);
      buf[static_cast<std::size_t>(t)].assign(static_cast<std::size_t>(4 * span(ext[t], str[t]) + 4), 0.5f);
    }
    if (r.byte() % 3 == 0) {  // C and D share a descriptor, as in cuTENSOR samples
      trntensorDestroyTensorDescriptor(d[2]);
      d[2] = d[3];
      ext[2] = ext[3];
      str[2] = str[3];
      modes[2] = modes[3];
      buf[2] = buf[3];  // C's buffer must match the descriptor it now has
    }
    trntensorOperationDescriptor_t op = nullptr;
    const bool wide = f64 || c64;  // 64F compute, double (or complex double) scalars
    const trntensorStatus_t st = trntensorCreateContraction(
        h, &op, d[0], modes[0].data(), op_a, d[1], modes[1].data(), op_b, d[2], modes[2].data(), TRNTENSOR_OP_IDENTITY, d[3],
        modes[3].data(), wide ? TRNTENSOR_COMPUTE_DESC_64F : computes[r.byte() % 2]);
    if (st == TRNTENSOR_STATUS_SUCCESS) {
      trntensorPlanPreference_t pref;
      trntensorPlan_t plan;
      uint64_t ws = 0;
      trntensorCreatePlanPreference(h, &pref, TRNTENSOR_ALGO_DEFAULT, TRNTENSOR_JIT_MODE_NONE);
      trntensorEstimateWorkspaceSize(h, op, pref, TRNTENSOR_WORKSPACE_DEFAULT, &ws);
      if (trntensorCreatePlan(h, &plan, op, pref, ws) == TRNTENSOR_STATUS_SUCCESS) {
        std::vector<double> work(ws / 8 + 2);
        // Scalars as (re, im) pairs: the real types read the first component.
        const float af[2] = {1.0f, 0.5f}, bf[2] = {static_cast<float>(r.byte() % 2), 0.0f};
        const double ad[2] = {1.0, 0.5}, bd[2] = {bf[0], 0.0};
        const std::vector<float> dbefore = buf[3];
        const trntensorStatus_t cs = trntensorContract(h, plan, wide ? static_cast<const void*>(ad) : af, buf[0].data(), buf[1].data(),
                                                       wide ? static_cast<const void*>(bd) : bf, buf[2].data(), buf[3].data(),
                                                       work.data(), r.byte() % 5 == 0 ? ws / 2 : ws, nullptr);
        require(cs == TRNTENSOR_STATUS_SUCCESS || buf[3] == dbefore, "a failed contraction wrote D");
        ran_to(cs);
        trntensorDestroyPlan(plan);
      }
      trntensorDestroyPlanPreference(pref);
      trntensorDestroyOperationDescriptor(op);
    }
    for (int t = 0; t < 4; ++t)
      if (t != 2 || d[2] != d[3]) trntensorDestroyTensorDescriptor(d[t]);
  }
  require(trntensorDestroy(h) == TRNTENSOR_STATUS_SUCCESS, "destroy handle");
}

}  // namespace

// The mutations reach the GEMMs, not only the parsers (measured: 182 of 1951 inputs succeed).
// The 2.x families are reached from their seeds and mutations of them.
std::vector<trnfuzz::Floor> trnfuzz::floors() {
  return {{"ran_to_success", 90},        {"ran_to_error", 500},          {"plan_cache_read", 5},
          {"plan_cache_refused", 5},     {"block_sparse_contracted", 3}, {"elementwise_trinary_executed", 3},
          {"padded_permutation_ran", 3}};
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  run_one(data, size);
  return 0;
}
