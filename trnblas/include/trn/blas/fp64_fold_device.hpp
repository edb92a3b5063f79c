// The exact fold of fp64 slice-pair partials as a GpSimdE integer custom operator, shared by
// trnblas's fp64 Level 1/2 slice pairs (src/ozaki.cpp, gemv_slice_pairs: ddot, dgemv, ...) and
// trnsparse's segmented slice-pair kernel (trnsparse/src/segmented_spmv.cpp: SpMV, SpMM <= 64
// columns, SDDMM, SpVV / Axpby / Rot, the SpSV / SpSM level steps), so both keep the host fold's bits.
//
// Algorithm   Input: the exact fp32 partials P[t][(c, x)][(j, a)] of a slice-pair product (tile or
//             k-chunk t; output column c < n and slice x < Sx of its second operand; segment j < J
//             of the tile and slice a < Sa of the first operand), each an integer |P| < 2^24; the
//             output row of every segment (segment j of tile t belongs to row seg_row[t][j], rows
//             nondecreasing in (t, j), -1 ends a tile's list); per row and per column an exponent.
//             Output (r, c) = sum over r's segments of P[t][(c, x)][(j, a)] 2^-8(a + x), times
//             2^(e_r + e_c - 16), rounded once: T[g] = the integer sums by weight g = a + x, then
//             fold_digits (digits_to_double, or round_digits_once when correctly rounded).
//             One launch; each program a run of output rows [r0, r1) and of columns [c0, c1):
//               DMA      the partials of the rows' tiles (partition q holds m consecutive tiles),
//                        the segments' row numbers, the rows' and columns' exponents into SBUF
//               GpSimdE  custom operator "fp64_slice_fold": per partial an int32 add into its
//                        segment's weight sum; per segment the sums added into its row's two-word
//                        (64-bit) accumulators; per output the carry normalisation into 8-bit digits,
//                        the sign, and the one rounding to fp64 (software fp64 where the host fold
//                        adds in fp64: digits_to_double), each result as its two uint32 words
//               DMA      the words to out[r n + c] in HBM.
//             The emulator runs the host fold's code (trn/blas/fp64_slices.hpp) inside the operator:
//             integer sums below 2^53 are exact in both, so the bits are the host fold's.
// Engines     DMA, GpSimdE (declared cycles: fold_operator_cycles, the per-op counts below).
// Accuracy    Bit-identical to the host fold (trn/blas/fp64_slices.hpp): digits_to_double
//             |err| <= 2.02 u |V|, round_digits_once correctly rounded (u = 2^-53); both rounded
//             twice in fp64's subnormal range, as on the host.
// Limits      Rows < 2^31. A row whose tiles do not fit one program's SBUF budget (kFoldPartialBytes
//             per partition for its partials, one column at a time) is not folded here:
//             fold_on_device returns fits = false before launching, and the caller keeps its host fold;
//             likewise when the caller's host fold is modeled faster than the launch (small calls:
//             three DMA set-ups of ~1.3 us outweigh a fold of a few hundred operations). The bits are
//             the same on either side; the plan says which ran.
#pragma once
#include <cstdint>
#include <span>

#include "trn/core/hardware.hpp"
#include "trn/core/spmd.hpp"
#include "trn/core/trace.hpp"

namespace trn::blas {

struct DeviceFoldArgs {
  const float* partial = nullptr;      // [tiles][n Sx][J Sa] in HBM
  std::int64_t tiles = 0, n = 1, rows = 0;
  int Sx = 1, Sa = 1, J = 1;
  std::span<const std::int64_t> seg_row;  // [tiles][seg_stride]: row of segment j (-1: none)
  int seg_stride = 1;
  const std::int32_t* row_exp = nullptr;  // [rows] (slices::kNoExp: the row's outputs are +0)
  const std::int32_t* col_exp = nullptr;  // [n]
  bool correctly_rounded = false;         // false: digits_to_double; true: round_digits_once
  double* out = nullptr;                  // [rows][n], written as uint32 word pairs
  // The caller's host fold, modeled (ns; host_fold_ns below): the fold runs on GpSimdE only when its
  // own estimate is smaller (small folds cost less on the host than a launch's DMA set-ups); < 0: always.
  double host_fold_ns = -1;
};

struct DeviceFoldFacts {
  bool fits = true;             // false: nothing launched (a row's partials exceed one program, or the host is cheaper)
  bool host_cheaper = false;    // not launched because host_fold_ns <= device_ns
  std::int64_t programs = 0;    // programs of the launch
  double device_ns = 0;         // the launch's estimate: per program three DMA set-ups and the operator, plus the partials' bytes
};

// Plans (pattern only) and, when every row fits a program and the device is the cheaper side, launches
// the fold: out written (unless lc.core.execute is false), the launch's trace appended to `trace`.
DeviceFoldFacts fold_on_device(const LaunchConfig& lc, const DeviceFoldArgs& a, Trace& trace);

// The operator's per-output rounding: T[0..G) integer sums by weight (|T| < 2^52), T overwritten.
double fold_digits(double* T, int G, int e, bool correctly_rounded);

// The host fold's modeled time (the callers' host-step formula): the partials over the link less the
// results, and one fp64 operation per partial plus 5 G per output (digits_to_double's loop).
double host_fold_ns(const HardwareSpec& hw, double partials, double outputs, int G);

// The operator's declared GpSimd operation counts (int32 lane operations; derived in fp64_fold_device.cpp).
double fold_ops_per_output(int G, bool correctly_rounded);

}  // namespace trn::blas
