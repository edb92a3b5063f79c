// NVIDIA's cuSPARSE samples (CUDALibrarySamples/cuSPARSE: spmv_csr, spmv_coo, spmm_csr, spmm_coo,
// spmm_csr_batched, spmm_coo_batched, sddmm_csr, sddmm_bsr, spvv, axpby, gather, scatter, rot,
// dense2sparse_csr, sparse2dense_csr, coosort, spsv_csr, spsv_coo, spsm_csr, spsm_coo, spgemm,
// spgemm_mem, spgemm_reuse, gpsvInterleavedBatch, spmv_sell, spsv_sell, sddmm_csr_batched), ported to trnsparse on host memory by samples/port.py
// (prefix substitution; the CUDA runtime's memory calls become host-memory helpers; no hand edits). Each sample keeps its data, its
// call sequence and its own exact check, and prints "<name>_example test PASSED" when the check
// holds: the test runs it and asserts that line (and no FAILED line) on its standard output.
#include <gtest/gtest.h>

#include <string>

extern "C" {
int trnsparse_sample_spmv_csr(void);
int trnsparse_sample_spmv_coo(void);
int trnsparse_sample_spmm_csr(void);
int trnsparse_sample_spmm_coo(void);
int trnsparse_sample_spvv(void);
int trnsparse_sample_axpby(void);
int trnsparse_sample_gather(void);
int trnsparse_sample_scatter(void);
int trnsparse_sample_rot(void);
int trnsparse_sample_dense2sparse_csr(void);
int trnsparse_sample_sparse2dense_csr(void);
int trnsparse_sample_coosort(void);
int trnsparse_sample_sddmm_csr(void);
int trnsparse_sample_sddmm_bsr(void);
int trnsparse_sample_spmm_csr_batched(void);
int trnsparse_sample_spmm_coo_batched(void);
int trnsparse_sample_spsv_csr(void);
int trnsparse_sample_spsv_coo(void);
int trnsparse_sample_spsm_csr(void);
int trnsparse_sample_spsm_coo(void);
int trnsparse_sample_spgemm(void);
int trnsparse_sample_spgemm_mem(void);
int trnsparse_sample_spgemm_reuse(void);
int trnsparse_sample_gpsvInterleavedBatch(void);
int trnsparse_sample_spmv_sell(void);
int trnsparse_sample_spsv_sell(void);
int trnsparse_sample_sddmm_csr_batched(void);
}

namespace {

void expect_passed(int (*sample)(), const std::string& name) {
  testing::internal::CaptureStdout();
  const int rc = sample();
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find(name + "_example test PASSED"), std::string::npos) << out;
  EXPECT_EQ(out.find("FAILED"), std::string::npos) << out;
}

TEST(CusparseSamples, SpMV) {
  expect_passed(trnsparse_sample_spmv_csr, "spmv_csr");
  expect_passed(trnsparse_sample_spmv_coo, "spmv_coo");
}
TEST(CusparseSamples, SpMM) {
  expect_passed(trnsparse_sample_spmm_csr, "spmm_csr");
  expect_passed(trnsparse_sample_spmm_coo, "spmm_coo");
  expect_passed(trnsparse_sample_spmm_csr_batched, "spmm_csr_batched");
  expect_passed(trnsparse_sample_spmm_coo_batched, "spmm_coo_batched");
}
TEST(CusparseSamples, SDDMM) {
  expect_passed(trnsparse_sample_sddmm_csr, "sddmm_csr");
  expect_passed(trnsparse_sample_sddmm_bsr, "sddmm_bsr");
}
TEST(CusparseSamples, SparseVectors) {
  expect_passed(trnsparse_sample_spvv, "spvv");
  expect_passed(trnsparse_sample_axpby, "axpby");
  expect_passed(trnsparse_sample_gather, "gather");
  expect_passed(trnsparse_sample_scatter, "scatter");
  expect_passed(trnsparse_sample_rot, "rot");
}
TEST(CusparseSamples, Conversions) {
  expect_passed(trnsparse_sample_dense2sparse_csr, "dense2sparse_csr");
  expect_passed(trnsparse_sample_sparse2dense_csr, "sparse2dense");  // as the sample prints it
  expect_passed(trnsparse_sample_coosort, "coosort");
}

TEST(CusparseSamples, TriangularSolves) {
  expect_passed(trnsparse_sample_spsv_csr, "spsv_csr");
  expect_passed(trnsparse_sample_spsv_coo, "spsv_coo");
  expect_passed(trnsparse_sample_spsm_csr, "spsm_csr");
  expect_passed(trnsparse_sample_spsm_coo, "spsm_coo");
}
// Sliced-ELL (issue #28, fourth slice) and the strided-batch SDDMM.
TEST(CusparseSamples, SlicedEll) {
  expect_passed(trnsparse_sample_spmv_sell, "spmv_sell");
  expect_passed(trnsparse_sample_spsv_sell, "spsv_sell");
}
TEST(CusparseSamples, SddmmBatched) { expect_passed(trnsparse_sample_sddmm_csr_batched, "sddmm_csr_batched"); }
TEST(CusparseSamples, SpGEMM) {
  expect_passed(trnsparse_sample_spgemm, "spgemm");
  expect_passed(trnsparse_sample_spgemm_mem, "spgemm_mem");
  expect_passed(trnsparse_sample_spgemm_reuse, "spgemm_reuse");
}

}  // namespace

// gpsvInterleavedBatch prints no PASSED line: it prints x1, x2 and the residuals |b - A x|_inf of its
// two 4 x 4 pentadiagonal systems. The test reads them: every x within 5e-5 of the values in the
// sample's own comment (4 decimals), both residuals below 1e-5 (fp32, |b| <= 8).
TEST(CusparseSamples, GpsvInterleavedBatch) {
  testing::internal::CaptureStdout();
  const int rc = trnsparse_sample_gpsvInterleavedBatch();
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_EQ(rc, 0) << out;
  const double want[2][4] = {{-0.0592, 0.3428, -0.1295, 0.1982}, {-0.0012, 0.2792, -0.0416, 0.0898}};
  for (int s = 0; s < 2; ++s)
    for (int j = 0; j < 4; ++j) {
      const std::string key = "x" + std::to_string(s + 1) + "[" + std::to_string(j) + "] = ";
      const auto at = out.find(key);
      ASSERT_NE(at, std::string::npos) << out;
      EXPECT_NEAR(std::stod(out.substr(at + key.size())), want[s][j], 5e-5) << key;
    }
  for (const std::string key : {"|b1 - A1 * x1| = ", "|b2 - A2*x2| = "}) {
    const auto at = out.find(key);
    ASSERT_NE(at, std::string::npos) << out;
    EXPECT_LT(std::stod(out.substr(at + key.size())), 1e-5) << out;
  }
}

// ---- issue #28 (s6/ilu): dense2sparse_blockedell, and cg / bicgstab (csric02 / csrilu02 preconditioners).
extern "C" {
int trnsparse_sample_dense2sparse_blockedell(void);
int trnsparse_sample_cg(void);
int trnsparse_sample_bicgstab(void);
}

TEST(CusparseSamples, DenseToSparseBlockedEll) {
  expect_passed(trnsparse_sample_dense2sparse_blockedell, "dense2sparse_blockedell");
}

namespace {

// The number printed after `key` in `out` (-1 when the key is absent).
double printed(const std::string& out, const std::string& key) {
  const auto at = out.find(key);
  return at == std::string::npos ? -1.0 : std::stod(out.substr(at + key.size()));
}

// cg and bicgstab print no PASSED line (and return EXIT_SUCCESS even when their solver loop fails):
// they print the initial residual norm and the stopping threshold (tolerance x that norm), one line
// per iteration, and the final true residual |b - A x|. The test reads them: no API call failed, the
// loop stopped before maxIterations, and the true residual is below twice the threshold (the loop
// stops on the recursively updated residual; the factor 2 allows for its drift from the true one).
void expect_converged(int (*sample)(), int max_iterations) {
  testing::internal::CaptureStdout();
  const int rc = sample();
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_EQ(rc, 0) << out;
  EXPECT_EQ(out.find("failed"), std::string::npos) << out;
  const double initial = printed(out, "Initial Residual: Norm "), threshold = printed(out, "' threshold ");
  const double final_norm = printed(out, "Final error norm = ");
  ASSERT_TRUE(initial > 0 && threshold > 0 && final_norm >= 0) << out;
  EXPECT_LT(final_norm, 2 * threshold) << out;
  EXPECT_LT(final_norm, 1e-6 * initial) << out;
  int iterations = 0;
  for (auto at = out.find("Iteration = "); at != std::string::npos; at = out.find("Iteration = ", at + 1)) ++iterations;
  EXPECT_GT(iterations, 0) << out;
  EXPECT_LT(iterations, max_iterations) << out;
}

}  // namespace

// 700 x 700 5-point diffusion matrix (490000 rows), IC(0) by csric02, CG with two SpSV per iteration.
TEST(CusparseSamples, CgIncompleteCholesky) { expect_converged(trnsparse_sample_cg, 10000); }
// 700 x 700 advection-diffusion matrix, ILU(0) by csrilu02, BiCGStab with four SpSV per iteration.
TEST(CusparseSamples, BiCGStabIncompleteLU) { expect_converged(trnsparse_sample_bicgstab, 100); }
// ---- end of the s6/ilu block

// ---- issue #28 (s7/half): CUDA-spelled C++ programs of samples/cuda/, ported at build time by
// tools/port-cuda.sh against the host CUDA-runtime stand-in (tests/trnsparse/CMakeLists.txt); each
// prints "<name>_example test PASSED" when its own check holds. spmm_bell_half (trnsci's) needs what
// NVIDIA's spmm_blockedell needs: __half from float literals, static_cast<float>, the cuda_fp16.h
// conversions, Blocked-ELL SpMM in fp16 with fp32 compute. A program dropped into samples/cuda/ joins
// the table (cuda_samples.inc) at the next configure.
#define SAMPLE(s) int trnsparse_cuda_sample_##s();
#include "cuda_samples.inc"
#undef SAMPLE

TEST(CusparseSamples, CudaSpelledPrograms) {
  struct Program {
    const char* name;
    int (*main)();
  };
  const Program programs[] = {
#define SAMPLE(s) {#s, &trnsparse_cuda_sample_##s},
#include "cuda_samples.inc"
#undef SAMPLE
  };
  bool half_blockedell = false;
  for (const Program& p : programs) {
    SCOPED_TRACE(p.name);
    expect_passed(p.main, p.name);
    half_blockedell = half_blockedell || std::string(p.name) == "spmm_bell_half";
  }
  EXPECT_TRUE(half_blockedell) << "samples/cuda/spmm_bell_half_example.cpp was not built";
}
