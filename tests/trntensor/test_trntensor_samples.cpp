// NVIDIA's cuTENSOR samples (CUDALibrarySamples cuTENSOR/: contraction, contraction_trinary,
// contraction_plan_cache, einsum, elementwise_binary, elementwise_permute,
// elementwise_permute_padding, elementwise_trinary, reduction, blocksparse), ported to trntensor by the prefix rule and host memory
// (tests/trntensor/samples/, C++17, each main renamed by the build), run unchanged otherwise. The
// samples print timings, not results, so each run's inputs and outputs (kept by the ported utils.hpp
// when the sample releases its buffers, in allocation order) are checked against independent
// references: the einsum-loop oracle of tests/reference (contractions, reduction, einsum, block-sparse
// on the blocks' dense tensors) or the same fp32 steps on the host (element-wise operations and the
// permutation, which are exact: asserted bit for bit). What a sample does print is asserted too (the
// plan cache sample's two runs, einsum's five "succeeded" lines).
//
// Left out: contraction_jit (JIT kernels).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "samples/utils.hpp"
#include "tensor_reference.hpp"

int trntensor_sample_contraction();
int trntensor_sample_contraction_trinary();
int trntensor_sample_contraction_plan_cache();
int trntensor_sample_einsum();
int trntensor_sample_elementwise_binary();
int trntensor_sample_elementwise_permute();
int trntensor_sample_elementwise_permute_padding();
int trntensor_sample_elementwise_trinary();
int trntensor_sample_reduction();
int trntensor_sample_blocksparse();

namespace {

template <class T>
std::vector<double> values(const SampleBuffer& b) {
  std::vector<T> v(b.contents.size() / sizeof(T));
  std::memcpy(v.data(), b.contents.data(), v.size() * sizeof(T));
  return std::vector<double>(v.begin(), v.end());
}
template <class T>
std::vector<T> raw(const SampleBuffer& b) {
  std::vector<T> v(b.contents.size() / sizeof(T));
  std::memcpy(v.data(), b.contents.data(), v.size() * sizeof(T));
  return v;
}

// A packed column-major operand of the given mode letters over `ext`.
tensor_ref::Operand operand(const std::string& modes, const std::map<char, std::int64_t>& ext, std::vector<double> data) {
  std::vector<std::int64_t> shape;
  for (char c : modes) shape.push_back(ext.at(c));
  return tensor_ref::column_major(shape, std::move(data));
}

// out (column-major in out_modes) = alpha * einsum(in_modes..., out_modes) + beta * c within
// `tol` units of 2^-24 times the |.|-sum of each output's terms.
void expect_contraction(const std::vector<std::string>& in_modes, const std::vector<tensor_ref::Operand>& in,
                        const std::string& out_modes, const std::vector<double>& out, double alpha, double tol) {
  std::string expr;
  for (std::size_t i = 0; i < in_modes.size(); ++i) expr += (i ? "," : "") + in_modes[i];
  const std::string rev(out_modes.rbegin(), out_modes.rend());  // C-contiguous in reversed order = column-major
  std::vector<double> ref, abs;
  std::vector<std::int64_t> shape;
  tensor_ref::einsum_loop(expr + "->" + rev, in, &ref, &abs, &shape);
  ASSERT_EQ(ref.size(), out.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    ASSERT_LE(std::fabs(out[i] - alpha * ref[i]), tol * std::ldexp(1.0, -24) * std::fabs(alpha) * abs[i] + 1e-30) << i;
}

struct SampleRun {
  int rc;
  std::string out;
  std::vector<SampleBuffer> buffers;
};
SampleRun run_sample(int (*sample)()) {
  sample_buffers_take();
  ::testing::internal::CaptureStdout();
  const int rc = sample();
  return {rc, ::testing::internal::GetCapturedStdout(), sample_buffers_take()};
}

TEST(CuTensorSamples, Contraction) {
  const SampleRun r = run_sample(trntensor_sample_contraction);
  ASSERT_EQ(r.rc, EXIT_SUCCESS) << r.out;
  ASSERT_EQ(r.buffers.size(), 7u);  // A_d B_d C_d, A B C (host), work
  const std::map<char, std::int64_t> e{{'m', 12}, {'n', 10}, {'u', 9}, {'v', 8}, {'h', 7}, {'k', 6}};
  expect_contraction({"mhkn", "ukvh"}, {operand("mhkn", e, values<float>(r.buffers[0])), operand("ukvh", e, values<float>(r.buffers[1]))},
                     "munv", values<float>(r.buffers[2]), static_cast<double>(1.1f), 2 * 42);
}

TEST(CuTensorSamples, ContractionTrinary) {
  const SampleRun r = run_sample(trntensor_sample_contraction_trinary);
  ASSERT_EQ(r.rc, EXIT_SUCCESS) << r.out;
  const std::map<char, std::int64_t> e{{'m', 16}, {'a', 4}, {'b', 3}, {'n', 6}, {'r', 5}, {'k', 2}, {'i', 3}, {'j', 7}};
  // Two fp32 GEMM steps through an fp32 intermediate: k i (6) then j (7) terms.
  expect_contraction({"mkajbi", "kni", "rj"},
                     {operand("mkajbi", e, values<float>(r.buffers[0])), operand("kni", e, values<float>(r.buffers[1])),
                      operand("rj", e, values<float>(r.buffers[2]))},
                     "mnbra", values<float>(r.buffers[3]), static_cast<double>(1.1f), 4 * (6 + 7));
}

TEST(CuTensorSamples, ContractionPlanCacheWritesThenReadsItsCache) {
  std::remove("./planCache.bin");
  const SampleRun first = run_sample(trntensor_sample_contraction_plan_cache);
  ASSERT_EQ(first.rc, EXIT_SUCCESS) << first.out;
  EXPECT_NE(first.out.find("File (./planCache.bin) doesn't seem to exist."), std::string::npos) << first.out;
  EXPECT_NE(first.out.find("Plan cache successfully stored to ./planCache.bin."), std::string::npos) << first.out;
  const SampleRun second = run_sample(trntensor_sample_contraction_plan_cache);
  ASSERT_EQ(second.rc, EXIT_SUCCESS) << second.out;
  EXPECT_NE(second.out.find("trntensorHandleReadPlanCacheFromFile read 1 cachelines from file."), std::string::npos)
      << second.out;
  std::remove("./planCache.bin");
  const std::map<char, std::int64_t> e{{'m', 12}, {'n', 10}, {'u', 9}, {'v', 8}, {'h', 7}, {'k', 6}};
  expect_contraction({"mhkn", "ukvh"},
                     {operand("mhkn", e, values<float>(second.buffers[0])), operand("ukvh", e, values<float>(second.buffers[1]))},
                     "munv", values<float>(second.buffers[2]), static_cast<double>(1.1f), 2 * 42);
}

TEST(CuTensorSamples, Reduction) {
  const SampleRun r = run_sample(trntensor_sample_reduction);
  ASSERT_EQ(r.rc, EXIT_SUCCESS) << r.out;
  const std::map<char, std::int64_t> e{{'m', 20}, {'v', 8}, {'h', 16}, {'k', 8}};
  expect_contraction({"mhkv"}, {operand("mhkv", e, values<float>(r.buffers[0]))}, "mv", values<float>(r.buffers[1]),
                     static_cast<double>(1.1f), 2 * 128);
}

// D (packed in out_modes) from packed inputs, element by element on the host in fp32.
template <class F>
void for_each_element(const std::string& out_modes, const std::map<char, std::int64_t>& e, F f) {
  std::map<char, std::int64_t> idx;
  for (char c : out_modes) idx[c] = 0;
  for (std::size_t o = 0;; ++o) {
    f(o, idx);
    std::size_t q = 0;
    for (; q < out_modes.size(); ++q) {
      if (++idx[out_modes[q]] < e.at(out_modes[q])) break;
      idx[out_modes[q]] = 0;
    }
    if (q == out_modes.size()) return;
  }
}
std::size_t at(const std::string& modes, const std::map<char, std::int64_t>& e, const std::map<char, std::int64_t>& idx) {
  std::size_t off = 0, s = 1;
  for (char c : modes) {
    off += static_cast<std::size_t>(idx.at(c)) * s;
    s *= static_cast<std::size_t>(e.at(c));
  }
  return off;
}

TEST(CuTensorSamples, ElementwiseBinaryIsBitExact) {
  const SampleRun r = run_sample(trntensor_sample_elementwise_binary);
  ASSERT_EQ(r.rc, EXIT_SUCCESS) << r.out;
  const std::map<char, std::int64_t> e{{'a', 40}, {'b', 20}, {'c', 30}};
  const auto A = raw<float>(r.buffers[0]), C0 = raw<float>(r.buffers[4]), C = raw<float>(r.buffers[1]);
  for_each_element("abc", e, [&](std::size_t o, const std::map<char, std::int64_t>& idx) {
    const float want = 1.1f * A[at("cba", e, idx)] + 1.2f * C0[o];
    ASSERT_EQ(C[o], want) << o;
  });
}

TEST(CuTensorSamples, ElementwiseTrinaryIsBitExact) {
  const SampleRun r = run_sample(trntensor_sample_elementwise_trinary);
  ASSERT_EQ(r.rc, EXIT_SUCCESS) << r.out;
  const std::map<char, std::int64_t> e{{'a', 40}, {'b', 20}, {'c', 30}};
  const auto A = raw<float>(r.buffers[0]), B = raw<float>(r.buffers[1]), C = raw<float>(r.buffers[2]),
             D = raw<float>(r.buffers[3]);
  for_each_element("abc", e, [&](std::size_t o, const std::map<char, std::int64_t>& idx) {
    const float ab = 1.1f * A[at("cba", e, idx)] + 1.3f * B[at("cab", e, idx)];
    ASSERT_EQ(D[o], ab + 1.2f * C[o]) << o;
  });
}

TEST(CuTensorSamples, ElementwisePermuteIsBitExact) {
  const SampleRun r = run_sample(trntensor_sample_elementwise_permute);
  ASSERT_EQ(r.rc, EXIT_SUCCESS) << r.out;
  const std::map<char, std::int64_t> e{{'h', 16}, {'w', 8}, {'c', 12}, {'n', 6}};
  const auto A = raw<float>(r.buffers[0]), C = raw<float>(r.buffers[1]);
  for_each_element("cwhn", e, [&](std::size_t o, const std::map<char, std::int64_t>& idx) {
    ASSERT_EQ(C[o], A[at("whcn", e, idx)]) << o;
  });
}

// The padded permutation: C_{c, w', h', n} over w' < w + 1, h' < h + 1 (the sample pads one value
// before w and h, none after), packed over the padded extents; the padding is 0, the interior A's
// values moved bit for bit.
TEST(CuTensorSamples, ElementwisePermutePaddingIsBitExact) {
  const SampleRun r = run_sample(trntensor_sample_elementwise_permute_padding);
  ASSERT_EQ(r.rc, EXIT_SUCCESS) << r.out;
  const std::int64_t h = 16, w = 8, c = 12, n = 6, wp = w + 1, hp = h + 1;
  const auto A = raw<float>(r.buffers[0]), C = raw<float>(r.buffers[1]);
  ASSERT_EQ(A.size(), static_cast<std::size_t>(w * h * c * n));
  ASSERT_EQ(C.size(), static_cast<std::size_t>(c * wp * hp * n));
  std::size_t padded = 0;
  for (std::int64_t in = 0; in < n; ++in)
    for (std::int64_t ih = 0; ih < hp; ++ih)
      for (std::int64_t iw = 0; iw < wp; ++iw)
        for (std::int64_t ic = 0; ic < c; ++ic) {
          const float got = C[static_cast<std::size_t>(ic + c * (iw + wp * (ih + hp * in)))];
          if (iw == 0 || ih == 0) {
            ASSERT_EQ(got, 0.0f) << ic << " " << iw << " " << ih << " " << in;
            ++padded;
          } else {
            ASSERT_EQ(got, A[static_cast<std::size_t>((iw - 1) + w * ((ih - 1) + h * (ic + c * in)))]);
          }
        }
  EXPECT_EQ(padded, static_cast<std::size_t>(c * n * (wp * hp - w * h)));
}

TEST(CuTensorSamples, EinsumPrintsSucceededAndMatchesTheOracle) {
  const SampleRun r = run_sample(trntensor_sample_einsum);
  ASSERT_EQ(r.rc, EXIT_SUCCESS) << r.out;
  EXPECT_EQ(r.out,
            "ijn,jmk->inkm: succeeded\nijn,jmk: succeeded\nnij: succeeded\nnij->ijn: succeeded\nnij->ji: succeeded\n");
  // Five calls, each A_raw, B_raw, output_raw, workspace (row-major NumPy views).
  ASSERT_EQ(r.buffers.size(), 20u);
  struct Call {
    const char* expr;  // explicit form
    std::vector<std::int64_t> a, b;
  } calls[5] = {{"ijn,jmk->inkm", {2, 4, 5}, {4, 8, 7}},
                {"ijn,jmk->ikmn", {2, 4, 5}, {4, 8, 7}},
                {"nij->ijn", {2, 4, 5}, {}},
                {"nij->ijn", {2, 4, 5}, {}},
                {"nij->ji", {2, 4, 5}, {}}};
  auto row_major = [](std::vector<std::int64_t> shape, std::vector<double> data) {
    tensor_ref::Operand o{shape, std::vector<std::int64_t>(shape.size()), std::move(data)};
    std::int64_t s = 1;
    for (std::size_t i = shape.size(); i-- > 0;) {
      o.strides[i] = s;
      s *= shape[i];
    }
    return o;
  };
  for (int c = 0; c < 5; ++c) {
    SCOPED_TRACE(calls[c].expr);
    std::vector<tensor_ref::Operand> in{row_major(calls[c].a, values<float>(r.buffers[4 * c]))};
    if (!calls[c].b.empty()) in.push_back(row_major(calls[c].b, values<float>(r.buffers[4 * c + 1])));
    std::vector<double> ref, abs;
    std::vector<std::int64_t> shape;
    tensor_ref::einsum_loop(calls[c].expr, in, &ref, &abs, &shape);
    const auto out = values<float>(r.buffers[4 * c + 2]);
    ASSERT_EQ(out.size(), ref.size());
    for (std::size_t i = 0; i < out.size(); ++i) ASSERT_LE(std::fabs(out[i] - ref[i]), 8 * std::ldexp(1.0, -24) * abs[i]) << i;
  }
}

TEST(CuTensorSamples, BlockSparseMatchesTheDenseOracle) {
  const SampleRun r = run_sample(trntensor_sample_blocksparse);
  ASSERT_EQ(r.rc, EXIT_SUCCESS) << r.out;
  ASSERT_EQ(r.buffers.size(), 7u);  // (device buffer, host staging) for A, B, C, then the workspace
  const std::map<char, std::vector<std::int64_t>> sec{{'k', {10, 10, 15}}, {'i', {20, 20, 25}}, {'l', {30, 30, 35}}};
  auto dense = [&](const std::string& modes, const std::vector<std::vector<std::int32_t>>& blocks, const SampleBuffer& b) {
    std::vector<std::vector<std::int64_t>> sections;
    for (char c : modes) sections.push_back(sec.at(c));
    const auto all = values<double>(b);
    std::vector<std::vector<double>> data;
    std::size_t off = 0;
    for (const auto& blk : blocks) {
      std::size_t n = 1;
      for (std::size_t i = 0; i < blk.size(); ++i) n *= static_cast<std::size_t>(sections[i][static_cast<std::size_t>(blk[i])]);
      data.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(off), all.begin() + static_cast<std::ptrdiff_t>(off + n));
      off += n;
    }
    return tensor_ref::block_sparse_dense(sections, blocks, data);
  };
  const auto A = dense("kil", {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {2, 2, 0}, {0, 0, 2}, {2, 0, 2}, {0, 2, 2}, {2, 2, 2}}, r.buffers[0]);
  const auto B = dense("kl", {{0, 0}, {1, 2}}, r.buffers[2]);
  const auto C = dense("i", {{0}, {1}, {2}}, r.buffers[4]);
  std::vector<double> ref, abs;
  std::vector<std::int64_t> shape;
  tensor_ref::einsum_loop("kil,kl->i", {A, B}, &ref, &abs, &shape);
  ASSERT_EQ(C.data.size(), ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) ASSERT_LE(std::fabs(C.data[i] - ref[i]), 1e-13 * abs[i] + 1e-300) << i;
}

}  // namespace
