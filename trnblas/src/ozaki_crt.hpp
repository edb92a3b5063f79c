// Ozaki scheme II (CRT) on the engines (issue #30): the residues of the scaled integers, the fold of
// the TensorE partials mod p and the CRT reconstruction as GpSimdE integer operators, around the
// exact residue GEMMs of ozaki.cpp. Scheme II itself (moduli, scaling, exactness): ozaki.hpp.
//
// Algorithm   (1) residues: the host's scaled integers x = mant 2^e (|mant| < 2^53 as the fp64 words,
//             0 <= e < kPow2Table as a byte; ozaki.cpp scaled_integers) are DMAed into SBUF, 128
//             partitions over consecutive elements; one operator per program writes the centred
//             residues mod p_l of its group of moduli as bf16 (|r| <= 128: exact), DMAed out to the
//             [modulus][k][m|n] layout the residue GEMMs read. (2) fold: the GEMM's raw fp32 partials
//             (exact integers, |P| <= 2^24; launch_gemm wrote them to HBM) are DMAed back into SBUF
//             and folded chunk by chunk into y_l = C' mod p_l in [0, p_l) (u8), DMAed out. (3)
//             reconstruction: per output, the N residues y_l, the row's and column's inverse
//             scalings in; C' = sum_l W_l y_l mod M, centred, rounded once to fp64 and scaled by
//             2^-(s_i + t_j), out as the fp64 words. The alpha / beta epilogue, the lost-term check
//             and the special values stay on the host (fp64 arithmetic on a few values per output).
// Engines     DMA, GpSimdE (three custom operators: "ozaki2_residues", "ozaki2_fold",
//             "ozaki2_reconstruct"; declared cycles below, derived per element from the 32-bit
//             integer work a GpSimd program does). The emulator runs the host helpers' C++ inside
//             the operators (core's host_loops and crt_reconstruct_block): every value is an exact
//             integer until the one rounding, whose result is unique, so the integer-ALU program
//             the cycles count and the emulator's fp64 code give the same bits.
// Accuracy    Bit-identical to the host steps they replace (exact integer arithmetic; the last
//             rounding is round-to-nearest-even of the exact C', as before).
// Limits      N <= kOzakiMaxModuli; SBUF per program <= kCrtProgramBudget bytes per partition.
#pragma once
#include <cstdint>

#include "ozaki.hpp"
#include "trn/core/spmd.hpp"
#include "trn/core/trace.hpp"

namespace trn::blas::detail {

inline constexpr int kDigitBits = 40;  // CRT weight digits: 28 moduli * 255 * 2^40 < 2^53 (exact fp64 sums)
inline constexpr int kMaxDigits = 6;   // 6 * 40 = 240 > log2 of the product of all 28 moduli (< 215) + 13
inline constexpr int kPow2Table = 128; // residues of 2^e, e < 128: scaled integers stay below 2^H <= 2^107

// The CRT constants of the first N moduli (ozaki.cpp, crt_table_memo).
struct CrtTable {
  int N = 0, digits = 0;
  double log2_M = 0;
  int H = 0;  // floor((log2 M - 1) / 2)
  double M_digit[kMaxDigits + 1] = {};
  double W_digit[kOzakiMaxModuli][kMaxDigits + 1] = {};
  double inv_M = 0;  // 1 / M (rounded)
  double pow2_mod[kOzakiMaxModuli][kPow2Table] = {};
};

// C'_e = sum_l W_l y_l[e] mod M, centred, rounded once to fp64 and scaled by 2^(neg_shift_i[e] +
// neg_shift_j), for `count` consecutive elements (ozaki.cpp).
void crt_reconstruct_block(const CrtTable& t, const std::uint8_t* const* y, std::int64_t count, std::int64_t offset,
                           const int* neg_shift_i, int neg_shift_j, double* out);

// ---- declared GpSimd cycles (32-bit integer lanes, one element per partition lane per op) --------
// Residues, per element once (17): 3 loads (the two words of mant, e); the fp64 words unpacked to a
// 53-bit magnitude in two words (exponent field: shift, mask; implicit bit: or; zero: select; shift
// count 1075 - field: sub; a two-word right shift by it: 6; sign bit: 1); the low word split into
// 16-bit halves (2). Per modulus (23): r0 = hi (2^32 mod p) + lo_hi (2^16 mod p) + lo_lo (2 mul, 2
// add; < 2^30); r0 mod p by Barrett (mulhi, mul, sub, compare, select: 5); times 2^e mod p (table
// load, mul) and mod p again (5); the sign (p - r: sub, select); centring into [-p/2, p/2) (compare,
// select-sub); int -> fp32 and the top half as bf16 (2); store (1).
inline constexpr double kResidueOpsPerElement = 17;
inline constexpr double kResidueOpsPerModulus = 23;
// Fold, per partial (14): load, fp32 -> int32 (exact: |P| <= 2^24), abs and sign (2), Barrett mod p
// (5), back into [0, p) for a negative partial (sub, select), add to y (1), conditional subtract of p
// (compare, select); per residue (1): the store of y.
inline constexpr double kFoldOpsPerPartial = 14;
inline constexpr double kFoldOpsPerResidue = 1;
// Reconstruction, per output, with L = ceil((log2 M + 13) / 16) 16-bit limbs of the digit sums
// (sum_l W_l y_l < N 255 M < 2^(log2 M + 13)), each limb in a 32-bit register:
//   N (1 + 2 L): load y_l, then L multiply-adds of y_l (< 2^8) by W_l's 16-bit limbs (products < 2^24,
//     sums over <= 28 moduli < 2^29: no carry inside the loop);
//   11 L: the quotient's product q M subtracted (mul, sub: 2 L), carries (shift, mask, add: 3 L), the
//     sign and conditional negation with carries (3 L), the leading nonzero limb (compare, select:
//     2 L), the sticky OR of the limbs below the 54-bit window (L);
//   54: the quotient q = round(S / M) from the top two limbs by fp32 (2 conversions, 3 multiply-adds,
//     round: 8, and 2 for the limb window), the 54-bit window cut from three limbs with a leading-bit
//     count (20), round-to-nearest-even with guard and sticky (6), the exponent with the row's and
//     column's scalings and the range checks (12), the sign and the two words packed (4), 2 stores.
inline constexpr double kReconstructOpsPerModulus = 1;       // + 2 L per modulus, see crt_reconstruct_ops
inline constexpr double kReconstructOpsPerModulusLimb = 2;
inline constexpr double kReconstructOpsPerLimb = 11;
inline constexpr double kReconstructOpsPerOutput = 54;
double crt_reconstruct_ops(const CrtTable& t);  // per output, from the constants above

// (1) Residues of `count` scaled integers (mant[i], e[i]) for the moduli l0 .. l0 + nl - 1 into
// out[q out_stride + i] (bf16 bits), one launch under lc; its trace is appended.
void residues_on_device(LaunchConfig lc, const CrtTable& t, const double* mant, const std::uint8_t* e,
                        std::int64_t count, int l0, int nl, std::uint16_t* out, std::int64_t out_stride, Trace& trace);
// (2) y[(l0 + q) count + i] = sum_c partial[(q chunks + c) count + i] mod p_{l0+q} for q < nl, one launch.
void fold_on_device(LaunchConfig lc, const float* partial, std::int64_t count, std::int64_t chunks, int l0, int nl,
                    std::uint8_t* y, Trace& trace);
// (3) acc[i + j m] = C'_ij 2^(neg_sa[i] + neg_sb[j]) from y[l m n + i + j m], l < t.N, one launch.
void reconstruct_on_device(LaunchConfig lc, const CrtTable& t, const std::uint8_t* y, std::int64_t m, std::int64_t n,
                           const std::int32_t* neg_sa, const std::int32_t* neg_sb, double* acc, Trace& trace);

}  // namespace trn::blas::detail
