// Host micro-kernels behind nc_matmul (BLIS-style: loops in one driver, one register-blocked
// micro-kernel per ISA). Contract, identical for every ISA:
//
//   for each m < M, n < N:   s = +0.0f;  for k = 0 .. K-1:  s = fma(A[k*lda + m], B[k*ldb + n], s)
//                            C[m*ldc + n] = accumulate ? C[m*ldc + n] + s : s      (fp32, RNE)
//
// i.e. the K products of one output element are accumulated sequentially in increasing k, each step
// rounded once to fp32 (a fused multiply-add: the product enters exactly). For bf16/fp16/tf32/fp8
// inputs the products are exact in fp32, so this is "exact products, fp32 accumulation"; for fp32
// inputs it is the fused form. Vector lanes run over n, so every ISA performs the same operations
// per element in the same order and the results are bit-identical (tests/core/test_matmul.cpp).
// Host FTZ/DAZ must be off (the default); subnormals are kept.
//
// Zero-term skipping (MatmulArgs::skip; exact, docs/numerics.md section 4 "Host implementation").
// A term a*b with a = +-0 and b finite (or b = +-0 and a finite) is an exact signed zero, and
// fma(+-0-product, s) = s for s != 0; exact cancellation rounds to +0 (RNE). So, running from +0,
// the sum without such terms equals the full sum at every step, except that where the full running
// sum is +0 the shortened one may be -0 (an underflowed product can make it -0; a later +0 term
// makes the full sum +0 again). Hence the two results differ only when the shortened result is
// -0 (then C_in was -0 too if accumulating: a float sum is -0 only as -0 + -0), and the full result
// is then +-0: every -0 output of a block that skipped terms is recomputed with all K terms. The
// kernels skip per register block: the rows k where the block's stationary columns are all +-0 and
// its moving columns all finite, or the other way round (block-diagonal DFT stacks, trnfft).
#pragma once
#include <cstdint>
#include <vector>

#include "trn/core/neuron_core.hpp"

namespace trn::detail {

// Operand layout a kernel reads. mr == 0: row-major A[k * lda + m], B[k * ldb + n]. mr > 0: packed
// micro-panels (BLIS): A panel p holds rows [p*mr, p*mr+mr) as A[p*K*mr + k*mr + i], B panel q holds
// columns [q*nr, q*nr+nr) as B[q*K*nr + k*nr + j], edges zero-padded. Packing keeps each panel
// contiguous: row-major operands with 512 B / 2 KiB row strides alias into a few L1 sets.
struct PackLayout {
  int mr = 0, nr = 0;
};

// A moving operand read straight from SBUF: row k (partition k) starts at base + k * row_bytes and
// holds N contiguous elements of `dtype`. The SIMD drivers widen one nr-column panel at a time into
// an L1-resident buffer right before the micro-kernel uses it (BLIS's B packing), so the fp32 copy
// of the whole operand is never written out.
struct MovingSource {
  const std::byte* base = nullptr;
  std::int64_t row_bytes = 0;
  DType dtype = DType::f32;
};

// Row flags of one column group of an fp32 operand, K <= kSkipMaxK: bit k of `zero` is set when
// the group's values in row k are all +-0, of `finite` when they are all finite.
constexpr int kSkipMaxK = 128;
// Operands of at most kScanlessMaxK rows are not scanned (no flags: the kernels run dense, which
// the skipping path equals bit for bit). A K <= 16 block is a few fma rows; scanning its operands
// cost more host time than any skip could save (an 8 x 8 sgemv: ~2.7 k of its ~32 k host
// instructions under callgrind, docs/architecture.md "Per-call cost", eighth round).
constexpr int kScanlessMaxK = 16;
struct RowScan {
  std::uint64_t zero[2] = {0, 0}, finite[2] = {0, 0};
};
// Scans `groups` column groups: group g is rows k < K of `width` floats at base + g * group_stride +
// k * row_stride (packed panels: group_stride = K * width, row_stride = width; row-major:
// group_stride = width, row_stride = the row length, the last group clipped to `cols`).
void scan_rows(const float* base, int K, std::int64_t group_stride, std::int64_t row_stride, int width,
               std::int64_t cols, std::int64_t groups, RowScan* out);
// Column group widths of the row-major layout (portable and product-rounded kernels): each
// stationary column alone, moving columns in the kernels' blocks.
constexpr int kRowMajorGroupA = 1, kRowMajorGroupB = 64;

struct MatmulArgs {
  const float* A;  // stationary, K x M fp32 (row k = partition k)
  std::int64_t lda;
  const float* B;  // moving, K x N fp32; nullptr: packed from `moving` panel by panel (SIMD kernels)
  std::int64_t ldb;
  int K, M, N;
  float* C;  // PSUM rows, [M][N] fp32
  std::int64_t ldc;
  bool accumulate;
  PackLayout pack;
  MovingSource moving;
  // Zero-term skipping (see the top of this file): a_scan has a group per stationary panel (pack.mr
  // columns; kRowMajorGroupA in row-major layout), b_scan per moving panel (pack.nr;
  // kRowMajorGroupB), or nullptr when B is widened in the kernel (then it is scanned there).
  bool skip = false;
  const RowScan* a_scan = nullptr;
  const RowScan* b_scan = nullptr;
};

// Requests the cache lines of [p, p + bytes) (operand rows 128 partitions apart are beyond the
// hardware prefetchers' reach).
inline void prefetch_bytes(const std::byte* p, std::int64_t bytes) {
  for (std::int64_t b = 0; b < bytes; b += 64) __builtin_prefetch(p + b);
}

// Widens columns [n0, n0 + nv) of rows 0..K-1 of `src` into out[k * nr + j] (fp32, exact), zero-
// filling columns nv..nr-1.
// With `scan`, also notes the panel's row flags (one group of nr columns).
void pack_moving_panel(const MovingSource& src, int K, int n0, int nv, int nr, float* out, RowScan* scan);
// Widens all M columns of rows 0..K-1 into zero-padded panels of mr columns (PackLayout of the
// stationary operand: out[p * K * mr + k * mr + i]). Returns false when no vectorised form exists
// for (dtype, mr) on this CPU; the caller then converts row by row.
// With `scan`, also notes the row flags of each panel (scan[p]).
bool pack_stationary_panels(const MovingSource& src, int K, int M, int mr, float* out, RowScan* scan);

// Packs a row-major K x cols fp32 matrix (row k at src + k * cols) into zero-padded panels of
// `width` columns (out[p * K * width + k * width + j], the PackLayout of either operand), resizing
// `out`. For operands converted row-major first (perf_mode double_row's 2K-row view).
void pack_row_major_panels(const float* src, int K, int cols, int width, std::vector<float>& out);

// The layout the kernel of an ISA wants (portable: row-major).
PackLayout matmul_pack_layout(MatmulIsa isa);

void matmul_portable(const MatmulArgs& a);
void matmul_avx2(const MatmulArgs& a);
void matmul_avx512(const MatmulArgs& a);
// trn1_measured: every product rounded to bf16 (RNE) before it is added (TRNFFT: trnfft v0.19.0 CHANGELOG).
void matmul_bf16_product_rounded(const MatmulArgs& a);

// A narrow moving operand (N <= kNarrowMaxN columns: the trsv kernel's row broadcasts, N = nrhs):
// C[m, n] = (accumulate ? C[m, n] + s : s), s the contract's K fmas from +0 in increasing k, computed
// with vector lanes over m straight from the fp32 operands in SBUF (A row k at A + k * lda, B row k
// at B + k * ldb; C rows ldc apart), without packing the stationary operand (K x M: for M = 128 and
// N = 1 the packing was most of the instruction's host time, and the micro-kernels' lanes over n
// were 1 of 16 or 32 in use). The same operations per element in the same order as the other
// kernels (no zero-term skipping: the dense result, which the skipping path equals), so the same
// bits. isa avx512 or avx2 (the resolved ISA, when this CPU has it); false: not run (portable ISA,
// N too wide), the caller takes the general path.
constexpr int kNarrowMaxN = 8;
bool matmul_narrow(MatmulIsa isa, const float* A, std::int64_t lda, const float* B, std::int64_t ldb, int K, int M, int N,
                   float* C, std::int64_t ldc, bool accumulate);

MatmulIsa resolve_matmul_isa(MatmulIsa requested);
// TRN_MATMUL_DENSE=1 in the environment (read once): never skip zero terms.
bool matmul_dense_forced();
void run_matmul(MatmulIsa isa, const MatmulArgs& a);

}  // namespace trn::detail
