// The Ozaki schemes: fp64 C = alpha op(A) op(B) + beta C on bf16 TensorE tiles (no NeuronCore engine
// computes in fp64).
//
// Algorithm   Both schemes turn op(A) (m x k) and op(B) (k x n) into integer matrices by exact
//             power-of-two scalings, multiply the integers exactly on TensorE and reconstruct in fp64
//             on the host side of the kernel.
//             Scaling (host, exact): (1) the contraction index is balanced: column kk of op(A) is
//             multiplied by 2^d_kk and row kk of op(B) by 2^-d_kk, d_kk = floor((eB_kk - eA_kk) / 2)
//             from the largest exponents of that column and that row. The product is unchanged, and a
//             huge a_ik meeting a tiny b_kj (or the reverse) no longer pushes the tiny factor out of its
//             row's or column's range (a = [1.7e308, 4.9e-324], b = [4.9e-324, 1.7e308] becomes two
//             rows of equal exponents). (2) One power of two per row of op(A) and per column of op(B).
// Scheme II   CRT (Ozaki, Uchino, Imamura, "Ozaki Scheme II: A GEMM-oriented emulation of
//             floating-point matrix multiplication using an integer modular technique",
//             arXiv:2504.08009; GEMMul8, github.com/UCHINO-Yuki/GEMMul8). With M = p_1 ... p_N
//             (pairwise coprime moduli <= 256, kCrtModuli) and H = floor((log2 M - 1) / 2), each row
//             of op(A) D is scaled so that its 2-norm lies in (2^(H-2), 2^(H-1)] and rounded to
//             integers a' (|a' - a 2^s| <= 1/2, so ||a'_i||_2 <= 2^H); op(B) likewise per column.
//             Cauchy-Schwarz: |C'_ij| <= ||a'_i|| ||b'_j|| <= 2^(2H) <= M/2, and in fact < M/8 + tiny
//             with the factor-2 margins, so C' is the unique representative of its residues in
//             (-M/2, M/2). Per modulus p: residues of a', b' in [-p/2, p/2) as bf16 (|r| <= 128, exact
//             in bf16; a' - p round(a' / p) by one fma, since p round(a' / p) may pass 2^53), one TensorE GEMM per modulus and K chunk, raw fp32 partials to HBM. Exactness:
//             |r_a r_b| <= 128^2 = 2^14, so a chunk of kc contraction elements sums to <= kc 2^14 and
//             every fp32 partial sum is an exact integer while kc 2^14 <= 2^24: kc <= 1024 = kCrtKChunk.
//             Host (fp64, exact): each partial is reduced mod p (integers < 2^53), chunks added mod p;
//             C' = sum_l W_l y_l mod M with W_l = (M/p_l) ((M/p_l)^-1 mod p_l) cut into 40-bit digits
//             (a digit sum over <= 28 moduli is < 28 * 255 * 2^40 < 2^53: exact in fp64), the nearest
//             multiple of M removed, the integer rounded once to fp64, times 2^-(s_i + t_j).
// Scheme I    8-bit slices (Ozaki, Ogita, Oishi, Rump, Numer. Algorithms 59(1), 2012; on integer
//             units: Ootomo, Ozaki, Yokota, IJHPCA 38(4), 2024): rows scaled to |x| < 1 and cut into S
//             slices of 8 bits (|q| <= 255, exact in bf16); one TensorE GEMM per slice pair (s, t),
//             s + t < S, and K chunk of <= 256 (256 * 255^2 < 2^24: exact); the partials are scaled and
//             accumulated in fp64 on the host, smallest pairs first.
// Engines     host (fp64: scaling, I's accumulation, special values, alpha/beta epilogue), DMA,
//             TensorE. II's residues, fold mod p and CRT reconstruction are GpSimdE operators
//             (ozaki_crt.hpp; Settings::ozaki2_host_steps keeps them on the host for comparisons).
//             I's slices are cut on GpSimdE / VectorE from the
//             fp64 words after the host's exponent pass (device_slicing.hpp; the host loop when a
//             line spans more than 1022 binades or Settings::fp64_host_slicing). Every host step is a
//             costed round trip in the trace.
// Accuracy    II: the integer product is exact; the errors are the rounding of each scaled input
//             (<= 1/2 unit: 2^-(bits+1) of its row's / column's largest element) and the last fp64
//             rounding. Automatic bits (largest element of a row/column): 53 + 2 ceil(log2 R2), R2 the
//             largest rms-to-mean ratio of the nonzero elements of a row (column): a mean-size element
//             keeps >= 54 + log2 R2 bits (heavy-tailed lines get more, as their few large terms carry
//             the outputs). The count is bounded by 53 + log2 k (R2 <= sqrt(k)). It is raised to 53 + g
//             when the balancing raised the largest element of a row (column) relative to its
//             original largest, g the largest such raise of a row plus that of a column in binades
//             (plan_crt): the input roundings then stay within 2^-50 k max|a_i| max|b_j|. I: every element exact when 56 + spreads bits fit;
//             error from the dropped pairs s + t >= S. Both at or below OpenBLAS DGEMM's error on
//             GEMMul8's phi generator (docs/trnblas.md, fp64; tests/trnblas/test_trnblas_ozaki.cpp).
// Limits      II: at most kOzakiMaxModuli moduli (log2 M < 215: <= 106 - 2 - log2(k)/2 bits);
//             I (automatic): at most kOzakiMaxSlices slices. Past a cap the count is clamped, the call
//             completes, CallReport::ozaki_capped is set and the C API logs one line: elements more
//             than 2^(bits-53) below their row's (column's) largest lose digits. The knobs (max bits,
//             offset, fixed control) may ask for less (or, fixed scheme I, more) work.
//             II's lost-term check (ozaki.cpp, recompute_lost_outputs) recomputes on the host, in long
//             double, every output whose rounding bound is not small against |C'| or exceeds the
//             normwise 2^-50 k max|a_i| max|b_j|, within a budget of host work.
//             Inf/NaN: outputs whose row of op(A) or column of op(B) holds one are recomputed as an
//             IEEE fp64 dot product on the host. Results in fp64's subnormal range may be rounded
//             twice (integer -> fp64, then the scaling).
#pragma once
#include <cstdint>

#include "trn/blas/blas.hpp"

namespace trn::blas::detail {

// Scheme II's moduli: pairwise coprime, largest first (256, then odd numbers <= 255 whose factors
// appear nowhere else).
inline constexpr int kCrtModuli[kOzakiMaxModuli] = {256, 255, 253, 251, 247, 241, 239, 233, 229, 227,
                                                    223, 217, 211, 199, 197, 193, 191, 181, 179, 173,
                                                    167, 163, 157, 151, 149, 139, 137, 131};
inline constexpr std::int64_t kCrtKChunk = 1024;   // (2^24 / 128^2): see Scheme II above
inline constexpr std::int64_t kSliceKChunk = 256;  // 256 * 255^2 < 2^24: see Scheme I above

// The two schemes (ozaki.cpp). Arguments as trn::blas::dgemm, already validated; alpha != 0, k > 0.
void gemm_ozaki_crt(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
                    const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C,
                    std::int64_t ldc, CallReport* report);
void gemm_ozaki_slices(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
                       const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C,
                       std::int64_t ldc, CallReport* report);

// Small fp64 GEMMs as compensated dot products on GpSimdE (fp64_dot2_gemm.cpp; Settings::dgemm_dot2_max_macs).
// Algorithm   One program. Partition p = g m + i (column groups g < G = min(n, 128 / m)) holds row i of
//             op(A) and the columns [g nc, g nc + nc) of op(B) (DMA, broadcast over the group's
//             partitions), nc = ceil(n / G). A GpSimdE custom operator computes each output with
//             Dot2 (Ogita, Rump, Oishi, "Accurate sum and dot product", SIAM J. Sci. Comput. 26(6),
//             2005, Algorithm 5.3 with TwoProduct by fma, Algorithm 3.5): P, E = TwoProduct(a_i0, b_0j);
//             for kk = 1 .. k-1: (h, r) = TwoProduct(a_ik, b_kj), (P, q) = TwoSum(P, h), E = E + (q + r);
//             res = P + E (res = P when P is not finite: the IEEE dot product's Inf / NaN); then
//             C = alpha res (+ beta C) in software fp64 on the same lanes; DMA out.
// Engines     DMA, GpSimdE (software fp64; declared cycles per op from trn/tile/gpsimd_fp64.hpp).
//             The emulator runs the operator's C++ with host doubles (IEEE binary64, round to nearest
//             even; the fma correctly rounded): the bits of the software routine.
// Accuracy    ORO 2005, Section 5 (Dot2's bound): |res - a_i^T b_j| <= u |a_i^T b_j| + gamma_k^2
//             |a_i|^T |b_j| (u = 2^-53, gamma_k = k u / (1 - k u)) before the alpha / beta epilogue,
//             barring underflow (products below 2^-969 may lose their error terms: + k 2^-1074 ...)
//             and overflow (an intermediate Inf gives the IEEE dot product's Inf / NaN). For any
//             condition number this is at or below scheme II's normwise 2^-50 k max|a_i| max|b_j|.
// Limits      m <= 128 (pmax) and nc k <= Settings::dgemm_dot2_max_macs (gemm_dot2_applies); scheme II
//             with automatic control only (a fixed or capped bit count, scheme I or the C API's EAGER
//             strategy keep the Ozaki scheme).
// Whether Settings s take gemm_dot2 for this shape; max_macs (< 0: s.dgemm_dot2_max_macs) caps the
// busiest partition's multiply-adds further (never above s.dgemm_dot2_max_macs).
bool gemm_dot2_applies(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t max_macs = -1);
// The fp64 Level 1/2 product's cap (dgemv_row): at 128 multiply-adds a partition Dot2's modeled time
// (~59 us on trn1 at n = k = 128) is still below the slice pairs' (~75 us); the slice pairs' TensorE
// pass and fold grow more slowly beyond (docs/trnblas.md "Small DGEMMs: Dot2 on GpSimdE").
inline constexpr std::int64_t kDot2VectorMaxMacs = 128;
// dgemm's cap: at 256 multiply-adds a partition (32^3: ~122 us modeled on trn1) Dot2 stays below the
// Ozaki scheme's modeled time at the shapes measured (32^3: 158 us); at 448 (a 48 x 20 x 56 product)
// it is above (~230 against ~190 us). Settings::dgemm_dot2_max_macs may lower it (0: never Dot2).
inline constexpr std::int64_t kDot2GemmMaxMacs = 256;
void gemm_dot2(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
               const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C,
               std::int64_t ldc, CallReport* report);
// gemm_dot2 when gemm_dot2_applies(s, m, n, k, max_macs) (true), else nothing (false): one layout choice.
bool try_gemm_dot2(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
                   const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C,
                   std::int64_t ldc, CallReport* report, std::int64_t max_macs);

// Long single fp64 dot products as Dot2 split over partitions (fp64_dot2_gemm.cpp; docs/trnblas.md
// "Long fp64 dot products: Dot2 split over partitions").
// Algorithm   r = alpha x^T y + beta r for one output of k > kDot2VectorMaxMacs terms. The terms are cut
//             into c = min(pmax, ceil(sqrt(k))) contiguous chunks (the first k - c (kc - 1) of kc =
//             ceil(k / c) terms, the rest of kc - 1), chunk p on partition p (one DMA per operand and
//             chunk length). One GpSimdE custom operator runs Dot2 (as gemm_dot2, ozaki.hpp) over every
//             chunk in parallel, giving (P_p, E_p), then on one lane combines them in chunk order:
//             P = P_0, E = E_0; for p = 1 .. c-1: (P, q) = TwoSum(P, P_p), E = E + (q + E_p);
//             res = P + E (res = P when P is not finite), then alpha res (+ beta r) in software fp64.
// Engines     DMA, GpSimdE (software fp64; declared cycles from trn/tile/gpsimd_fp64.hpp: the longest
//             chunk's chain, then the c - 1 combine steps and the epilogue on one lane).
// Accuracy    |res - x^T y| <= u |x^T y| + 2 gamma_{k+2}^2 |x|^T |y| (u = 2^-53) before the epilogue,
//             barring underflow and overflow as gemm_dot2 (derivation in docs/trnblas.md: the
//             TwoProduct / TwoSum steps of both levels are error-free, their k - 1 + k error terms are
//             summed in fp64 to depth kc + c <= k + 2). The order of the terms is fixed by k alone.
// Limits      k > kDot2VectorMaxMacs and kc + c - 1 <= min(kDot2VectorMaxMacs,
//             Settings::dgemm_dot2_max_macs) (k <= ~4200 on 128 partitions); the settings gemm_dot2 asks
//             for (scheme II with automatic control) and Settings::fp64_vector automatic.
bool dot2_split_applies(const Settings& s, std::int64_t k);
// x and y of k elements (strides incx, incy > 0); r one element (read when beta != 0).
void dot2_split(const Settings& s, std::int64_t k, double alpha, const double* x, std::int64_t incx, const double* y,
                std::int64_t incy, double beta, double* r, CallReport* report);

// fp64 Level 1/2 slice pairs (docs/trnblas.md "fp64 Levels 1 and 2"): y^T = alpha x^T op(B) + beta y^T
// with x (k elements, stride incx > 0) and op(B) k x n, y stride incy > 0 (beta == 0: y not read).
// Algorithm   After the contraction balancing and one power-of-two scale per operand line (x; each
//             column of op(B)) as in the Ozaki schemes, every element is cut into S 8-bit integer
//             slices (|q| <= 255, exact in bf16), S = ceil((52 + spread) / 8) per operand with
//             spread the line's exponent range: every element is then represented exactly. One
//             TensorE GEMM per <= 256-deep K chunk multiplies the [k, S_x] slices of x by the
//             [k, n S_b] slices of op(B): all S_x S_b slice pairs at once, each partial an exact fp32
//             integer (256 * 255^2 < 2^24); S <= kVectorMaxSlices (spreads up to 1036 binades). Host (fp64, exact): per output the partials are summed by
//             weight g = s + t (integers < 2^53), the carries normalised into 8-bit digits, the sign
//             taken out and the digits summed from the least significant.
// Accuracy    |fl - x^T op(B)| <= 2.02 u |x^T op(B)| (u = 2^-53) for any condition number, unless a
//             line's spread exceeds 8 kVectorMaxSlices - 52 bits (then its elements are truncated
//             below 2^(e_max - 8 S): |error| <= 2^-8S (2^e_x |op(B)|^T 1 + 2^e_b |x|)), or the result
//             lies in fp64's subnormal range (rounded twice), or an element scaled by its line's
//             power of two falls below 2^-1022 (rounded by the scaling: 1075 binades below the
//             line's largest), before the alpha / beta epilogue.
// Engines     host (fp64: exponent pass, fold, epilogue, special values as in the Ozaki schemes),
//             DMA, GpSimdE / VectorE (the slices, device_slicing.hpp; host loop as in scheme I's
//             exceptions), TensorE.
void gemv_slice_pairs(const Settings& s, Op tb, std::int64_t n, std::int64_t k, double alpha, const double* x,
                      std::int64_t incx, const double* B, std::int64_t ldb, double beta, double* y, std::int64_t incy,
                      CallReport* report);

// The fp64 Level 1/2 product y^T = alpha x^T op(B) + beta y^T (1 x n x k, row form, positive
// increments) by the algorithm plan_fp64_vector chooses: gemv_slice_pairs, or dgemm (blas.cpp).
void dgemv_row(const Settings& s, Op tb, std::int64_t n, std::int64_t k, double alpha, const double* x,
               std::int64_t incx, const double* B, std::int64_t ldb, double beta, double* y, std::int64_t incy,
               CallReport* report);

// Fills the call report's trace, profile and pass count (blas.cpp).
void finish_report(CallReport* r, const Settings& s, Trace&& t);
// True when r is the last report CallReport::finish built on this thread and it was built under
// the report settings s gives (target, cores, trace-only): finishing r's trace again under s would
// give the same profile and pass count (l12::Report takes a sole nested report over).
bool finished_last_under(const CallReport& r, const Settings& s);

}  // namespace trn::blas::detail
