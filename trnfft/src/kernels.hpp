// trnfft tile kernels: the two passes every transform is built from.
//
//  dft_pass   a batched DFT of length <= 128 as a complex GEMM on TensorE (DFT-as-GEMM), with an
//             optional per-element twiddle multiply on VectorE while PSUM is evacuated. Used as the
//             whole transform (N <= 128) and as every stage of the four-step (Bailey) algorithm.
//  diag_pass  a batched element-wise complex multiply by a table indexed by the element, with
//             zero padding / truncation (Bluestein chirps and pointwise products, R2C truncation,
//             C2R half-spectrum expansion). VectorE only.
//
// Data are fp32 real/imaginary planes in (emulated) HBM addressed by strided views: the library
// never copies a user array on the host; interleaved complex input is the view (re = p, im = p + 1,
// element stride 2). All offsets are in floats.
#pragma once
#include <cstdint>
#include <vector>

#include "trn/blas/blas.hpp"
#include "trn/core/core.hpp"

namespace trn::fft::detail {

// One batch dimension of a pass: `count` transforms, `in_dist` / `out_dist` floats apart.
struct BatchDim {
  std::int64_t count = 1, in_dist = 0, out_dist = 0;
};

// A strided complex operand: element e of batch (i_0, i_1, ...) at re/im[e * stride + sum i_d * dist_d].
// im == nullptr on input means a real operand (imaginary part zero); on output, write re only.
struct PlaneView {
  float* re = nullptr;
  float* im = nullptr;
  std::int64_t stride = 1;
};

// Stationary tiles of one DFT matrix in the tile dtype: F[n, k] = c_n exp(sign 2 pi i n k / L) for
// n < rows (contraction, partitions) and k < cols (output), computed in FP64 from the reduced index
// (n k mod L) and rounded once. terms: 1 (fp32 or bf16) or 2 (bf16 hi, bf16 lo = bf16(F - hi) in FP64).
struct DftMatrix {
  std::int64_t length = 0, rows = 0, cols = 0;
  int sign = -1;
  DType dtype = DType::f32;
  int terms = 1;
  // [term] -> rows x cols tables: re, im, -im (views of `all`, row stride 3 cols).
  std::vector<HbmTensor> re, im, neg_im;
  // [term] -> rows x 3 cols: the three tables side by side per row (re, im, -im), one DMA.
  std::vector<HbmTensor> all;
};

struct DftPassArgs {
  const DftMatrix* matrix = nullptr;
  blas::GemmMode mode = blas::GemmMode::fp32;
  PlaneView in, out;
  std::vector<BatchDim> batch;  // outermost first
  // Twiddle applied to output element k of a transform whose innermost batch index is m:
  // tw[k * tw_cols + m] (fp32 planes); nullptr: none.
  const float* tw_re = nullptr;
  const float* tw_im = nullptr;
  std::int64_t tw_cols = 0;
};

struct DiagPassArgs {
  std::int64_t in_len = 0;   // elements read per transform (n >= in_len reads as zero)
  std::int64_t out_len = 0;  // elements written per transform
  const float* t_re = nullptr;  // table of min(in_len, out_len) complex values; nullptr: identity
  const float* t_im = nullptr;
  PlaneView in, out;
  std::vector<BatchDim> batch;
};

// A whole four-step transform of length N = n1 * n2 (n1, n2 <= 128) in one pass, resident in SBUF
// between its stages (no HBM round trip, no transpose pass). `count` transforms, in_dist /
// out_dist floats apart, element stride in.stride / out.stride. Transforms are processed in blocks
// of s1 * s2 (s1 * n1 <= 128, s2 * n2 <= 128; the plan picks divisors of count): f1 is the length-n1
// matrix stacked s1 times, f2 the length-n2 matrix stacked s2 times; tw_re/tw_im the twiddle tile
// [s2 * n2 rows (t2, j2)][s1 * n1 columns (t1, k1)]: w_N^(k1 j2).
struct FourStepPassArgs {
  const DftMatrix* f1 = nullptr;
  const DftMatrix* f2 = nullptr;
  blas::GemmMode mode = blas::GemmMode::fp32;
  std::int64_t n1 = 0, n2 = 0;
  int s1 = 1, s2 = 1;
  PlaneView in, out;
  std::int64_t count = 1, in_dist = 0, out_dist = 0;
  // An outer batch dimension around `count` (e.g. the other axis of a 2-D plan, or the batch around
  // the k1 rows of a three-level plan): outer_count x count transforms in all.
  std::int64_t outer_count = 1, outer_in_dist = 0, outer_out_dist = 0;
  // Elements of each output transform stored (0: all N): R2C keeps X[0 .. N/2].
  std::int64_t out_len = 0;
  // Elements of each input transform read (0: all N). in_len < N: a C2R half spectrum, zero above
  // (zeroed once per buffer set), with f1 scaled by 2 and the inputs k = 0 and k = N/2 (N even)
  // halved after the load, so that stage 1 sees c_k X_k (c = 1 there, else 2; all exact).
  std::int64_t in_len = 0;
  const float* tw_re = nullptr;
  const float* tw_im = nullptr;
};

// Launch one pass; returns the merged trace (program order).
// convert_pass: dst[i] = src[i] for i < count, converted between dtypes by the DMA (RNE), as
// [pmax, count / pmax] tiles plus a tail row. Used for 16-bit storage.
Trace convert_pass(const LaunchConfig& lc, const void* src, DType src_dtype, void* dst, DType dst_dtype,
                   std::int64_t count);
Trace dft_pass(const LaunchConfig& lc, const DftPassArgs& a);
Trace four_step_pass(const LaunchConfig& lc, const FourStepPassArgs& a);
Trace diag_pass(const LaunchConfig& lc, const DiagPassArgs& a);

// Build a DFT matrix for the mode (fp32: one fp32 term; bf16: one bf16 term; bf16x3: bf16 hi + lo).
// scale (may be empty): c_n per row, applied in FP64 before the one rounding. stack > 1: the
// block-diagonal matrix of `stack` copies ([stack * rows, stack * cols], zeros off the blocks), so
// that `stack` transforms share the 128 partitions of one matmul.
DftMatrix make_dft_matrix(std::int64_t length, std::int64_t rows, std::int64_t cols, int sign, blas::GemmMode mode,
                          const std::vector<double>& scale, std::vector<std::vector<std::uint8_t>>& storage,
                          int stack = 1);

// exp(sign 2 pi i idx / len) in FP64 from the reduced index (idx mod len), folded to the first
// octant so that cos/sin see |angle| <= pi/4. Never a recurrence.
void unit_root(std::int64_t idx, std::int64_t len, int sign, double* c, double* s);
// The twiddles w_N^(k1 j2) of a four-step split N = n1 n2 (sign as unit_root), [n1][n2] row-major
// in re / im (resized to N). T = float: each the FP64 value rounded once; T = double: exact as
// unit_root gives them. Shared by the plan (fp32 tiles) and the FP64 host transform.
template <class T>
void four_step_twiddles(std::int64_t n1, std::int64_t n2, int sign, std::vector<T>& re, std::vector<T>& im);

// Round a double once to bf16 (RNE), returned as the bf16 bit pattern.
std::uint16_t round_to_bf16(double x);

}  // namespace trn::fft::detail
