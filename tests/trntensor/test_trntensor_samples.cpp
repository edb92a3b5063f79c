// The project's own cuTENSOR-2.x-shaped programs (trntensor_walkthroughs.cpp: the API sequences of
// NVIDIA's cuTENSOR samples — contraction, contraction_trinary, contraction_plan_cache, einsum,
// elementwise_binary, elementwise_permute, elementwise_permute_padding, elementwise_trinary,
// reduction, blocksparse — on our own modes, extents and data; NVIDIA's code is not in the tree,
// docs/porting.md). Each run's outputs against independent references: the FP64 einsum loop of
// tests/reference (contractions, trinary, reduction, einsum, block-sparse on the blocks' dense
// tensors) within the documented componentwise bounds (docs/trntensor.md "Compute descriptors and
// accuracy": 32F (k + 4) u of the |.|-sum of the terms, u = 2^-24), or the same fp32 steps on the host
// (element-wise binary / trinary, exact permutations: bit for bit).
//
// Left out, as before: contraction_jit (JIT kernels; trntensor compiles none).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "tensor_reference.hpp"
#include "trntensor_walkthroughs.hpp"

namespace {

namespace wt = trntensor_walkthrough;

constexpr double kU32 = 0x1p-24;

void expect_success(const wt::Run& r) {
  ASSERT_EQ(r.status, TRNTENSOR_STATUS_SUCCESS) << r.failed_call;
  ASSERT_TRUE(r.failed_call.empty()) << r.failed_call;
}

// A packed column-major descriptor tensor as an oracle operand.
tensor_ref::Operand operand(const wt::Tensor& t) { return tensor_ref::column_major(t.extents, t.data); }

// The einsum loop over column-major operands into out's column-major layout: values and |.|-sums.
void oracle(const std::vector<const wt::Tensor*>& in, const wt::Tensor& out, std::vector<double>* ref, std::vector<double>* abs) {
  std::string expr;
  std::vector<tensor_ref::Operand> ops;
  for (std::size_t i = 0; i < in.size(); ++i) {
    expr += (i ? "," : "") + in[i]->modes;
    ops.push_back(operand(*in[i]));
  }
  const std::string reversed(out.modes.rbegin(), out.modes.rend());  // C-contiguous reversed = column-major
  std::vector<std::int64_t> shape;
  tensor_ref::einsum_loop(expr + "->" + reversed, ops, ref, abs, &shape);
}

// out = alpha einsum(in) + beta prior within (k + extra) u (|alpha| sum|terms| + |beta prior|).
void expect_within_bound(const std::vector<const wt::Tensor*>& in, const wt::Tensor& out, const wt::Tensor* prior,
                         double alpha, double beta, double k, double extra) {
  std::vector<double> ref, abs;
  oracle(in, out, &ref, &abs);
  ASSERT_EQ(ref.size(), out.data.size());
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const double c = prior ? prior->data[i] : 0.0;
    const double want = alpha * ref[i] + beta * c;
    const double bound = (k + extra) * kU32 * (std::fabs(alpha) * abs[i] + std::fabs(beta * c));
    ASSERT_LE(std::fabs(out.data[i] - want), bound + 1e-30) << out.modes << " element " << i;
  }
}

TEST(CuTensorSamples, Contraction) {
  const wt::Run r = wt::contraction();
  expect_success(r);
  EXPECT_EQ(r.scalars.at("scalar_type"), static_cast<double>(TRNTENSOR_R_32F));
  const auto &A = r.tensors.at("A"), &B = r.tensors.at("B"), &C0 = r.tensors.at("C0"), &C = r.tensors.at("C");
  // k = c d = 12 terms per element.
  expect_within_bound({&A, &B}, C, &C0, r.scalars.at("alpha"), r.scalars.at("beta"), 12, 4);
  EXPECT_NE(C.data, C0.data);
}

TEST(CuTensorSamples, ContractionTrinary) {
  const wt::Run r = wt::contraction_trinary();
  expect_success(r);
  EXPECT_EQ(r.scalars.at("scalar_type"), static_cast<double>(TRNTENSOR_R_32F));
  // Two fp32 contractions through an fp32 intermediate: at most p q r = 24 terms per element over both
  // steps, each step (k + 4) u.
  expect_within_bound({&r.tensors.at("A"), &r.tensors.at("B"), &r.tensors.at("C")}, r.tensors.at("D"),
                      &r.tensors.at("D0"), r.scalars.at("alpha"), r.scalars.at("beta"), 24, 8);
}

TEST(CuTensorSamples, ContractionPlanCacheWritesThenReadsItsCache) {
  const std::string file = "trntensor_walkthrough_plan_cache.txt";
  std::remove(file.c_str());
  const wt::Run first = wt::contraction_plan_cache(file);
  expect_success(first);
  EXPECT_EQ(first.scalars.at("read_status"), static_cast<double>(TRNTENSOR_STATUS_IO_ERROR));  // no file yet
  EXPECT_EQ(first.scalars.at("lines_read"), 0.0);
  const wt::Run second = wt::contraction_plan_cache(file);
  std::remove(file.c_str());
  expect_success(second);
  EXPECT_EQ(second.scalars.at("read_status"), static_cast<double>(TRNTENSOR_STATUS_SUCCESS));
  EXPECT_EQ(second.scalars.at("lines_read"), 1.0);  // the one contraction's plan
  for (const wt::Run* r : {&first, &second})
    expect_within_bound({&r->tensors.at("A"), &r->tensors.at("B")}, r->tensors.at("D"), nullptr, 1.0, 0.0, 6, 4);
  EXPECT_EQ(first.tensors.at("D").data, second.tensors.at("D").data);  // a cached plan computes the same bits
}

TEST(CuTensorSamples, Reduction) {
  const wt::Run r = wt::reduction();
  expect_success(r);
  // k = x z = 42 terms per element, summed on TensorE against a ones operand.
  expect_within_bound({&r.tensors.at("A")}, r.tensors.at("C"), &r.tensors.at("C0"), r.scalars.at("alpha"),
                      r.scalars.at("beta"), 42, 4);
}

// Row-major (NumPy) einsum views against the einsum loop in double.
void expect_einsum(const std::string& subscripts, const std::string& explicit_form,
                   const std::vector<std::vector<std::int64_t>>& shapes, trntensorDataType_t type, double ulps) {
  SCOPED_TRACE(subscripts);
  const wt::Run r = wt::einsum(subscripts, shapes, type);
  expect_success(r);
  std::vector<tensor_ref::Operand> ops;
  for (const char* name : {"A", "B"}) {
    const auto it = r.tensors.find(name);
    if (it == r.tensors.end()) continue;
    tensor_ref::Operand o{it->second.extents, std::vector<std::int64_t>(it->second.extents.size()), it->second.data};
    std::int64_t stride = 1;
    for (std::size_t i = o.shape.size(); i-- > 0;) {
      o.strides[i] = stride;
      stride *= o.shape[i];
    }
    ops.push_back(std::move(o));
  }
  ASSERT_EQ(ops.size(), shapes.size());
  std::vector<double> ref, abs;
  std::vector<std::int64_t> shape;
  tensor_ref::einsum_loop(explicit_form, ops, &ref, &abs, &shape);
  const auto& out = r.tensors.at("out");
  EXPECT_EQ(shape, out.extents);
  ASSERT_EQ(ref.size(), out.data.size());
  const double u = type == TRNTENSOR_R_64F ? 0x1p-53 : kU32;
  for (std::size_t i = 0; i < ref.size(); ++i) ASSERT_LE(std::fabs(out.data[i] - ref[i]), ulps * u * abs[i] + 1e-300) << i;
}

TEST(CuTensorSamples, EinsumFrontEndMatchesTheOracle) {
  // Two inputs (contraction), explicit and implicit output; one input (reduction): summing, permuting.
  expect_einsum("abc,cd->adb", "abc,cd->adb", {{3, 5, 4}, {4, 6}}, TRNTENSOR_R_32F, 4 + 4);
  expect_einsum("qp,qr", "qp,qr->pr", {{7, 3}, {7, 5}}, TRNTENSOR_R_32F, 7 + 4);
  // 64F (Ozaki dgemm): within 2x a plain FP64 loop's (k + 4) u64.
  expect_einsum("ijk,kjl->li", "ijk,kjl->li", {{4, 3, 5}, {5, 3, 2}}, TRNTENSOR_R_64F, 2 * (15 + 4));
  expect_einsum("xyz->zx", "xyz->zx", {{3, 6, 4}}, TRNTENSOR_R_32F, 6 + 4);
  expect_einsum("kji", "kji->ijk", {{2, 3, 4}}, TRNTENSOR_R_32F, 0);  // implicit output: a pure permutation
  const wt::Run bad = wt::einsum("ab,bc,cd->ad", {{2, 2}, {2, 2}, {2, 2}}, TRNTENSOR_R_32F);
  EXPECT_EQ(bad.status, TRNTENSOR_STATUS_INVALID_VALUE);  // the front end takes one or two inputs
}

// D (packed in out's modes) element by element: f(offset, index of each mode).
template <class F>
void for_each_element(const wt::Tensor& out, F f) {
  std::map<char, std::int64_t> idx;
  for (char c : out.modes) idx[c] = 0;
  for (std::size_t o = 0; o < out.data.size(); ++o) {
    f(o, idx);
    for (std::size_t q = 0; q < out.modes.size(); ++q) {
      if (++idx[out.modes[q]] < out.extents[q]) break;
      idx[out.modes[q]] = 0;
    }
  }
}

// The value of packed tensor t at the mode indices idx (modes of t a subset of idx's).
float at(const wt::Tensor& t, const std::map<char, std::int64_t>& idx) {
  std::size_t off = 0, stride = 1;
  for (std::size_t i = 0; i < t.modes.size(); ++i) {
    off += static_cast<std::size_t>(idx.at(t.modes[i])) * stride;
    stride *= static_cast<std::size_t>(t.extents[i]);
  }
  return static_cast<float>(t.data[off]);
}

float apply(trntensorOperator_t op, float x, float y) {
  switch (op) {
    case TRNTENSOR_OP_ADD: return x + y;
    case TRNTENSOR_OP_MUL: return x * y;
    case TRNTENSOR_OP_MAX: return std::max(x, y);
    default: return std::min(x, y);
  }
}

TEST(CuTensorSamples, ElementwiseBinaryIsBitExact) {
  for (const trntensorOperator_t op : {TRNTENSOR_OP_ADD, TRNTENSOR_OP_MUL, TRNTENSOR_OP_MAX}) {
    const wt::Run r = wt::elementwise_binary(op);
    expect_success(r);
    EXPECT_EQ(r.scalars.at("scalar_type"), static_cast<double>(TRNTENSOR_R_32F));
    const float alpha = static_cast<float>(r.scalars.at("alpha")), gamma = static_cast<float>(r.scalars.at("gamma"));
    const auto &A = r.tensors.at("A"), &C = r.tensors.at("C"), &D = r.tensors.at("D");
    for_each_element(D, [&](std::size_t o, const std::map<char, std::int64_t>& idx) {
      ASSERT_EQ(static_cast<float>(D.data[o]), apply(op, alpha * at(A, idx), gamma * at(C, idx))) << op << " " << o;
    });
  }
}

TEST(CuTensorSamples, ElementwiseTrinaryIsBitExact) {
  const std::pair<trntensorOperator_t, trntensorOperator_t> ops[] = {{TRNTENSOR_OP_ADD, TRNTENSOR_OP_ADD},
                                                                     {TRNTENSOR_OP_MUL, TRNTENSOR_OP_MAX}};
  for (const auto& [opAB, opABC] : ops) {
    const wt::Run r = wt::elementwise_trinary(opAB, opABC);
    expect_success(r);
    const float alpha = static_cast<float>(r.scalars.at("alpha")), beta = static_cast<float>(r.scalars.at("beta")),
                gamma = static_cast<float>(r.scalars.at("gamma"));
    const auto &A = r.tensors.at("A"), &B = r.tensors.at("B"), &C = r.tensors.at("C"), &D = r.tensors.at("D");
    for_each_element(D, [&](std::size_t o, const std::map<char, std::int64_t>& idx) {
      const float ab = apply(opAB, alpha * at(A, idx), beta * at(B, idx));  // B broadcast along r
      ASSERT_EQ(static_cast<float>(D.data[o]), apply(opABC, ab, gamma * at(C, idx))) << opAB << " " << opABC << " " << o;
    });
  }
}

TEST(CuTensorSamples, ElementwisePermuteIsBitExact) {
  const wt::Run r = wt::elementwise_permute();
  expect_success(r);
  EXPECT_EQ(r.scalars.at("scalar_type"), static_cast<double>(TRNTENSOR_R_32F));
  const float alpha = static_cast<float>(r.scalars.at("alpha"));
  const auto &A = r.tensors.at("A"), &B = r.tensors.at("B");
  for_each_element(B, [&](std::size_t o, const std::map<char, std::int64_t>& idx) {
    ASSERT_EQ(static_cast<float>(B.data[o]), alpha * at(A, idx)) << o;  // alpha 2: exact
  });
}

// B[z,x,y] packed over padded extents (left {1,0,2}, right {0,2,1}): PADDING_VALUE in the margins,
// A's values moved bit for bit inside.
TEST(CuTensorSamples, ElementwisePermutePaddingIsBitExact) {
  const wt::Run r = wt::elementwise_permute_padding();
  expect_success(r);
  EXPECT_EQ(r.scalars.at("pad_ok"), 1.0);  // GetAttribute returns what was set
  const auto &A = r.tensors.at("A"), &B = r.tensors.at("B");
  const std::int64_t left[3] = {1, 0, 2};
  ASSERT_EQ(B.modes, "zxy");
  ASSERT_EQ(B.extents, (std::vector<std::int64_t>{4 + 1 + 0, 5 + 0 + 2, 3 + 2 + 1}));
  std::size_t margin = 0;
  for_each_element(B, [&](std::size_t o, const std::map<char, std::int64_t>& padded_idx) {
    std::map<char, std::int64_t> idx;
    bool inside = true;
    for (std::size_t k = 0; k < 3; ++k) {
      const char m = B.modes[k];
      idx[m] = padded_idx.at(m) - left[k];
      const std::int64_t extent = A.extents[A.modes.find(m)];
      inside = inside && idx[m] >= 0 && idx[m] < extent;
    }
    if (inside) {
      ASSERT_EQ(static_cast<float>(B.data[o]), at(A, idx)) << o;
    } else {
      ASSERT_EQ(static_cast<float>(B.data[o]), -1.5f) << o;
      ++margin;
    }
  });
  EXPECT_EQ(margin, B.data.size() - A.data.size());
}

// The dense tensor of a block-sparse one (zeros where no block is stored).
tensor_ref::Operand dense(const wt::BlockTensor& t) { return tensor_ref::block_sparse_dense(t.sections, t.coords, t.blocks); }

TEST(CuTensorSamples, BlockSparseMatchesTheDenseOracle) {
  const wt::Run r = wt::blocksparse();
  expect_success(r);
  const auto &A = r.block_tensors.at("A"), &B = r.block_tensors.at("B"), &C0 = r.block_tensors.at("C0"),
             &D = r.block_tensors.at("D");
  const double alpha = r.scalars.at("alpha"), beta = r.scalars.at("beta");
  std::vector<double> ref, abs;
  std::vector<std::int64_t> shape;
  tensor_ref::einsum_loop("prt,trs->ps", {dense(A), dense(B)}, &ref, &abs, &shape);  // row-major (p, s)
  ASSERT_EQ(shape, (std::vector<std::int64_t>{7, 8}));
  // Each stored D block, packed column-major over its sections, against alpha ref + beta C0.
  for (std::size_t b = 0; b < D.coords.size(); ++b) {
    const std::int64_t p0 = D.coords[b][0] ? D.sections[0][0] : 0, s0 = D.coords[b][1] ? D.sections[1][0] : 0;
    const std::int64_t np = D.sections[0][D.coords[b][0]], ns = D.sections[1][D.coords[b][1]];
    for (std::int64_t j = 0; j < ns; ++j)
      for (std::int64_t i = 0; i < np; ++i) {
        const std::size_t local = static_cast<std::size_t>(i + np * j), global = static_cast<std::size_t>((p0 + i) * 8 + s0 + j);
        const double c = C0.blocks[b][local], want = alpha * ref[global] + beta * c;
        ASSERT_LE(std::fabs(D.blocks[b][local] - want), 1e-13 * (std::fabs(alpha) * abs[global] + std::fabs(beta * c)) + 1e-300)
            << "block " << b << " (" << i << ", " << j << ")";
      }
  }
  // Block (0, 1) is reached by no stored pair: exactly beta C there.
  for (std::size_t i = 0; i < D.blocks[3].size(); ++i) EXPECT_EQ(D.blocks[3][i], beta * C0.blocks[3][i]) << i;
}

}  // namespace
