// trnfft FP64 transforms (Z2Z, D2Z, Z2D): the same factorisation as the fp32 plans, with every
// DFT-GEMM stage run by trnblas's Ozaki DGEMM (bf16 slice products on the emulated TensorE, exact
// in fp32 PSUM; slicing and reconstruction in fp64 on the host side of that kernel). No NeuronCore
// engine computes in fp64, so the element-wise complex multiplies of the four-step twiddles and of
// Bluestein's chirps and pointwise product run in fp64 on the host (docs/trnfft.md "FP64").
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "trn/fft/fft.hpp"

namespace trn::fft::detail {

class Fp64Transform {
 public:
  Fp64Transform(const PlanSpec& spec, const Settings& settings);
  ~Fp64Transform();
  // Executes spec's transform on host arrays (double / double2) laid out per the spec.
  // timing_only: the Ozaki kernels record their instructions without computing (modeled cost).
  void execute(const void* in, void* out, int direction, Trace* trace, bool timing_only = false) const;

 private:
  struct Node;
  PlanSpec spec_;
  mutable blas::Settings blas_;
  std::vector<std::unique_ptr<Node>> dims_;
  std::unique_ptr<Node> build(std::int64_t n);
  void lines(const Node& node, double* re, double* im, std::int64_t count, int sign, Trace* trace) const;
  void leaf(std::int64_t n, const std::vector<double>* f, double* re, double* im, std::int64_t count, Trace* trace) const;
};

}  // namespace trn::fft::detail
