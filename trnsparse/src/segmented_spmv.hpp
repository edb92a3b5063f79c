// The segmented slice-pair SpMV / narrow SpMM: fp64 and complex-fp64 (R_64F, C_64F)
// C = alpha op(A) op(B) + beta C with n <= kSegmentedMaxColumns columns on CSR, CSC, COO (and SELL,
// gathered to CSR) as ONE launch per call (docs/trnsparse.md "Segmented slice-pair SpMV").
//
// Algorithm   Real rows. op(A)'s rows in increasing column (op_pattern.hpp; op C conjugates). C_64F
//             runs through the real representation: op(A) row r becomes real rows 2r (real part:
//             (Re a, x_re), (-Im a, x_im)) and 2r + 1 (imaginary part: (Im a, x_re), (Re a, x_im)) over
//             the real vector [Re x_0, Im x_0, Re x_1, ...]; R_64F takes its rows as they are.
//             Tiles (pattern only, make_tiles). The stored entries in row order are packed into
//             tiles of pmax = 128 entries, nnz-balanced: a tile closes at 128 entries or at
//             kSegmentsPerTile row segments (a segment = the run of one row's entries inside one
//             tile; a long row spans tiles). No padding between rows.
//             Host step `trnsparse.spmv.exponents`: per real row its largest exponent e_r, for each
//             column of X one e_x; S = ceil((52 + spread) / 8) slices (every bit kept); then the gather
//             in the tiles' slot order (the emulated ISA has no indirect DMA): A's values, each slot's
//             offset kSliceOffsetBias + e_r, each entry's row of X (Inf / NaN written as 0: their rows
//             are recomputed below) and each entry's segment number in its tile.
//             One launch (segment_program, grid = ceil(tiles / tiles per program)), per program:
//               DMA       the fp64 values of A and x as uint32 word pairs, their offsets and the
//                         segment numbers of its tiles into SBUF
//               GpSimdE + VectorE  the 8-bit slices of a 2^-e_r and x 2^-e_x, bit for bit those of
//                         trn/blas/fp64_slices.hpp's cut_slices (device_slices.hpp: bitvec shifts
//                         of the words on GpSimdE)
//               GpSimdE   iota 0..J-1
//               VectorE   one-hot segment masks (segment number == j), then
//                         W[e, (j, s)] = mask[e, j] * qa[e, s] (exact: 0 or the slice)
//               TensorE   per tile and chunk of <= 128 of the n S_x columns: PSUM[(c, t), (j, s)] =
//                         sum_e qx[e, (c, t)] W[e, (j, s)] — the segment sums of every slice pair,
//                         exact (|.| <= 128 * 255^2 < 2^24)
//               VectorE   PSUM -> SBUF, DMA the partials [n S_x, J S_a] per tile to HBM.
//             Host step `trnsparse.spmv.fold` (fp64, exact until the last rounding): per real row the
//             partials of its segments summed by weight g = s + t (integers < 2^53), the carries
//             normalised and the digits summed (digits_to_double: one rounding), then the alpha /
//             beta epilogue in fp64 (complex: std::complex<double>). Rows holding Inf / NaN (in A
//             or in the x entries they meet) are recomputed as an IEEE fp64 dot on the host.
//             Since s14/gpfold the fold (sums by weight, carries, sign, one rounding) runs as a second
//             launch of the GpSimdE integer operator `fp64_slice_fold` (trn/blas/fp64_fold_device.hpp,
//             the same bits) whenever the cost model puts it below the host fold; the host step then
//             keeps the epilogue, the Inf / NaN rows and IEEE's signed zeros.
// Engines     host (exponents + gather, [fold +] epilogue: two round trips per call), DMA, GpSimdE, VectorE, TensorE.
// Accuracy    (u = 2^-53) per output, p_i = (op(A) x)_i exactly: every slice product and segment sum is
//             an exact integer, so p_i is rounded once: |p_hat - p| <= 2.02 u |p|; with the epilogue
//             |y_hat - (alpha p + beta y)| <= 4.1 u (|alpha p| + |beta y|) (R_64F), and each part of
//             C_64F's p rounded once (2.02 u |p|) plus the complex epilogue: <= 8 u (|alpha||p| +
//             |beta||y|). Independent of the condition number, the row length and the tiling: the
//             bits depend on the values and the pattern only (any thread / core count, trn1 / trn2).
//             Exceptions: a line whose exponent spread asks for more than kVectorMaxSlices slices
//             (S_x also at most 128, TensorE's stationary width) is truncated below 2^(e_max - 8S)
//             (plan: "capped"); results in fp64's subnormal range are rounded twice.
//             The core (tiles, exponents, launch, fold, special rows) is segmented_rows_product: the
//             fp64 sparse-vector ops (spvec_fp64.cpp) call it on their own real rows with the
//             correctly rounded fold (round_digits_once), and SpSV's level step adds its divide to
//             the fold's visit (FoldFollowUp).
// Limits      One launch and two host round trips per call. The gather's bytes (24 + 8 n per slot)
//             and the fold's partials cross the host link: with the engines' slicing the host steps
//             and the engines are of the same size (docs/trnsparse.md, measured). n <=
//             kSegmentedMaxColumns (wider SpMM keeps the row groups: each stored entry carries its row
//             of X, n values).
#pragma once
#include <array>
#include <complex>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "op_pattern.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/trace.hpp"
#include "trn/sparse/generic.hpp"

namespace trn::sparse {

// Row segments a tile of pmax entries may hold (pattern only: fixes the tiles, never the bits).
inline constexpr int kSegmentsPerTile = 32;
// SpMM with up to this many columns takes the segmented kernel (each stored entry carries its row of X,
// n values, sliced on the device: per tile 8 n bytes of words, 2 n S_x of slices and the slicing's
// scratch, within SBUF for any S_x at n = 64); wider products keep the row groups' Ozaki GEMMs
// (rows_fp64.cpp; docs/trnsparse.md gives the modeled times on both sides).
inline constexpr std::int64_t kSegmentedMaxColumns = 64;

// The kernel's input: real rows over n real columns of X, row r = sum over its entries e of
// val[e] x[c xlen + col[e]] (column c). Columns need not increase or be distinct within a row. The
// rows need not come from a matrix: SpGEMM's and csrgeam2's numeric phases (pair_sums.hpp) give one
// row per output entry, its products as the row's entries; spvec_fp64.cpp one row per dot.
struct RealRows {
  std::int64_t rows = 0, xlen = 0, n = 1;
  bool mirrored = false;  // C_64F SpMV: odd row 2r + 1 holds row 2r's values, pairs swapped, the first negated
  std::vector<std::int64_t> start, col;
  std::vector<double> val, x;
  RealRows() = default;
  RealRows(RealRows&&) = default;
  RealRows& operator=(RealRows&&) = default;
  ~RealRows();  // the arrays back to the thread's warm blocks (segmented_spmv.cpp)
};

// R_64F: p's rows as they are, vals[p.entry[e]] their values, x X's columns (column-major).
RealRows real_rows(const OpPattern& p, const double* vals, std::vector<double> x);
// C_64F: p's row r as real rows 2r (Re) and 2r + 1 (Im) over x = [Re x_0, Im x_0, ...]; opA == C conjugates.
RealRows real_rows(const OpPattern& p, const std::complex<double>* vals, GOp opA, const std::vector<std::complex<double>>& xc);

// How one call of the kernel meets the host: its two host steps' names and what they touch besides
// the kernel's own buffers, the fold's rounding, and the caller's epilogue on the folded rows.
struct SegmentedSteps {
  std::string_view exponents = "trnsparse.spmv.exponents", fold = "trnsparse.spmv.fold";
  std::array<HostSpan, 4> reads{};  // the caller's arrays the exponent pass reads
  HostSpan fold_read, fold_write;   // the caller's arrays the fold's epilogue reads / writes
  std::array<HostSpan, 2> fold_reads_more{}, fold_writes_more{};  // further arrays the epilogue reads / writes
  double epilogue_flops = 0;        // the epilogue's fp64 operations (added to the fold's count)
  // false: digits_to_double (2.02 u, SpMV's bits); true: round_digits_once (correctly rounded), and an
  // exactly zero row takes IEEE's sign (-0 only when every product is -0).
  bool correctly_rounded = false;
  // p[c rows + r] -> the caller's output (not called in timing-only runs).
  std::function<void(std::vector<double>&)> epilogue;
};

// What the plan prints.
struct SegmentedFacts {
  std::int64_t tiles = 0, programs = 0, special = 0;
  int Sa = 1, Sx = 1, J = 1;
  bool capped = false;
  bool fold_on_device = false;    // the fold ran on GpSimdE (trn/blas/fp64_fold_device.hpp)
  std::int64_t fold_programs = 0;
};

// One launch of the segmented kernel on rr between its two host steps (both appended to `trace`,
// the launch's trace between them): p_r = the exact row sums, rounded once, handed to the epilogue.
SegmentedFacts segmented_rows_product(const Settings& s, const RealRows& rr, const SegmentedSteps& steps, Trace& trace);
// "segmented slice pairs: T tiles ..., S_a x S_x 8-bit slices, one launch of P programs (...)" for a plan.
std::string segmented_summary(const SegmentedFacts& f);

// Work a caller runs inside the fold's host visit, after C is stored (SpSV's divide by the diagonal:
// no round trip of its own); its fp64 operations and the arrays it reads / writes join the fold step.
struct FoldFollowUp {
  std::function<void()> run;
  double flops = 0;
  HostSpan read, write;
};

// C (M x n) = alpha op(A) op(B) + beta C with op(B) K x n; A R_64F or C_64F (shapes checked by the caller).
// trace_only: the report gets the trace, blocks and matmuls but no profile (ReportSettings::trace_only:
// not modeled, no observer call), for a caller that appends the trace to one it models itself.
void spmm_fp64_segmented(const Settings& s, GOp opA, GOp opB, Scalar alpha, const SparseRef& A, const DenseAny& B,
                         Scalar beta, const DenseAny& C, CallReport* report, const FoldFollowUp* follow_up = nullptr,
                         bool trace_only = false);

}  // namespace trn::sparse
