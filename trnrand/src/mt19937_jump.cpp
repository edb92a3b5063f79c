// MT19937 jump ahead by one GF(2) middle product (trn/rand/mt19937.hpp: mt19937_jump_clmul).
//
// Algorithm: for g = x^J mod phi (deg g < 19937) the window J steps ahead is
//   x[J + k] = sum_i g_i x[i + k]   (k = 0 .. 623; over GF(2), word-wise XOR),
// the relation the Horner scheme of Haramoto et al. (INFORMS J. Computing 20(3), 2008) evaluates
// as g(T) w. Read bit plane by bit plane (s_b[n] = bit b of x[n]), plane b of the result is
// o_b[k] = sum_i g_i s_b[i + k]. Sessions 17-21 computed the 32 planes as 32 middle products of 624
// bits each (1458 carry-less products a plane, 46.7k a jump). Since session 22 only plane 0 is a
// middle product, 19968 bits long, and planes 1 .. 31 follow from it by the recurrence itself: for
// every n >= 624, x[n] = x[n - 227] ^ (y >> 1) ^ (y odd ? 0x9908b0df : 0) with y = upper bit of
// x[n - 624] | lower 31 bits of x[n - 623], so bit b + 1 of x[n - 623] (b < 30) is
//   s_{b+1}[j] = s_b[j + 623] ^ s_b[j + 396] ^ mag_b s_0[j]            (j >= 1)
// and bit 31 of x[n - 624] is s_31[j] = s_30[j + 624] ^ s_30[j + 397]  (j >= 0; mag_30 = 0).
// Both are linear with constant shifts, so they hold for the o_b as well: o_{b+1}[k] =
// o_b[k + 623] ^ o_b[k + 396] ^ mag_b o_0[k], except at k = 0, where the window's word 0 (whose low
// 31 bits the recurrence never reads, and which need not satisfy the relation at j = 0) adds
// g_0 (s_{b+1}[0] ^ s_b[623] ^ s_b[396] ^ mag_b s_0[0]): a correction of word 0. Plane 0 is needed
// at k < 624 + 623 x 30 + 624 = 19938 (plane 31 at k < 624, plane 30 at k < 1248, each lower plane
// 623 further), i.e. o_0 is the middle product of G~ (the reversal of g, coefficient e = g_{D-1-e})
// and S_0(z) = sum_n s_0[n] z^n over x[0 .. 39935] (the window and 63 twists): coefficients
// D - 1 .. D + 19966 of G~ S_0. Its 314 product word sums S_s = sum_u G~[u] S_0[s - u] (128-bit
// carry-less products, s = 310 .. 623) are a 324 x 324 Toeplitz matrix of S_0 words times the vector
// G~, computed by transposed Karatsuba (Hanrot, Quercia and Zimmermann, "The middle product
// algorithm I", AAECC 14(6), 2004): two two-way levels and four three-way levels (Fan and Hasan,
// IEEE Trans. Computers 56(2), 2007; exact in characteristic 2), 3^2 6^4 = 11664 carry-less 64 x 64
// products a jump instead of 46656, eight per two VPCLMULQDQ; the vector side (G~'s sums) depends on
// the polynomial only and is formed once per polynomial. Then the planes by the relation (shifted
// XORs of 64-bit words), their transpose back to words (GFNI 8 x 8 bit transposes), word 0's
// correction.
// Session 23 (host speed only, the same words): the extension's y-odd term is a permute lookup and
// its last ~9.3k words run in 16-bit lanes (step 1); the third generator level works on blocks of
// eight rows (generator_level3_short_rows); the fourth level, the 9 x 9 sub-products and the
// fourth level's output rows are one pass over registers (fused_group, the 5-level product loop
// unrolled); the planes' relation reads aligned lines and funnel-shifts them (relation_plane).
// Session 24 (host speed only, the same words): mt19937_jump_clmul_many applies several polynomials
// to one window; its extension, the generator levels and the generator side of the register stage
// (GeneratorLeaves) are formed once (jump_source_avx512) and only the products, the output levels,
// the planes and the transpose run per polynomial (jump_product_avx512). The streams' set-up jumps
// from every eighth stream to the next eight (mt19937_set_up_streams in mt19937.cpp).
// Engines: none; this is the host set-up of the MT19937 streams (docs/trnrand.md section 12: outside the
// trace, as before). Accuracy: exact (the same linear map as the Horner scheme; tested against it, for
// random windows whose word 0 is arbitrary, and against plain stepping). Limits: hosts with AVX-512
// F/BW/VBMI/VBMI2, VPCLMULQDQ and GFNI (returns false elsewhere, and for g of degree >= 19937).
#include "avx512_intrinsics.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "trn/core/host_simd.hpp"
#include "trn/rand/mt19937.hpp"

namespace trn::rand {

namespace {

constexpr std::size_t kD = kMt19937Degree;             // 19937
constexpr std::size_t kGWords = (kD + 63) / 64;        // 312 words of G~

bool clmul_jump_available() {
  static const bool ok = host_simd_available(HostSimd::avx512) && __builtin_cpu_supports("avx512vbmi") &&
                         __builtin_cpu_supports("avx512vbmi2") &&
                         __builtin_cpu_supports("vpclmulqdq") && __builtin_cpu_supports("gfni");
  return ok;
}

std::uint64_t reverse_bits(std::uint64_t v) {
  v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
  v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
  v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);
  return __builtin_bswap64(v);
}

// G~ (coefficient e = g_{D-1-e}, e < D) of g (degree < D), as kGWords words.
void reversed_polynomial(const Gf2Poly& g, std::uint64_t* gt) {
  // Full reversal over L = 64 kGWords bits: R_e = g_{L-1-e}; G~_e = R_{e + L - D}, a right shift by 31.
  std::uint64_t r[kGWords + 1] = {};
  for (std::size_t i = 0; i < kGWords; ++i) r[i] = reverse_bits(kGWords - 1 - i < g.size() ? g[kGWords - 1 - i] : 0);
  constexpr unsigned kShift = static_cast<unsigned>(64 * kGWords - kD);  // 31
  for (std::size_t i = 0; i < kGWords; ++i) gt[i] = (r[i] >> kShift) | (r[i + 1] << (64 - kShift));
}

#define TRN_MT_JUMP_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,vpclmulqdq,gfni")))

// Byte-permute tables of the planes' transpose back to words (see jump_avx512).
struct PermuteTables {
  alignas(64) std::uint8_t from_planes[64], interleave_lo[64], interleave_hi[64], words_0[64], words_1[64];
  PermuteTables() {
    for (int j = 0; j < 8; ++j)
      for (int g = 0; g < 8; ++g) from_planes[8 * g + j] = static_cast<std::uint8_t>(8 * (7 - j) + g);  // 8 x 8 byte transpose, rows reversed
    for (int i = 0; i < 32; ++i)
      for (int q = 0; q < 2; ++q) {
        interleave_lo[2 * i + q] = static_cast<std::uint8_t>(i + 64 * q);
        interleave_hi[2 * i + q] = static_cast<std::uint8_t>(32 + i + 64 * q);
      }
    for (int m = 0; m < 16; ++m)
      for (int q = 0; q < 4; ++q) {
        words_0[4 * m + q] = static_cast<std::uint8_t>(q < 2 ? 2 * m + q : 64 + 2 * m + q - 2);
        words_1[4 * m + q] = static_cast<std::uint8_t>(q < 2 ? 2 * (m + 16) + q : 64 + 2 * (m + 16) + q - 2);
      }
  }
};

constexpr std::size_t kExtWords = 64 * kMt19937Words;   // 39936 words: the window and 63 twists
constexpr std::size_t kBitWords = kExtWords / 64;       // 624 words of plane 0 (bit 0 of each word)
constexpr std::size_t kNarrowFrom = 30592;               // the extension's 16-bit tail starts here (jump_avx512 step 1)
static_assert(kNarrowFrom % 64 == 0 && kNarrowFrom + 15 * 623 >= 39904 && kNarrowFrom - 640 >= kMt19937Words, "");
constexpr std::size_t kN = 324;                          // Toeplitz size (>= 314 sums; 2 x 2 x 3^4)
constexpr std::size_t kGen = 2 * kN - 1;                 // 647 generator words
constexpr std::size_t kGenShift = 13;                    // generator word k = plane-0 word k - 13
constexpr std::size_t kSub = 9;                          // sub-products after the two 2-way levels
constexpr std::size_t kSubN = kN / 4;                    // 81, their size
constexpr std::size_t kPlane0Words = 312;                // 19968 bits >= the 19938 plane 0 needs

// Row operations on rows of R words (rows are contiguous; the columns are independent products).
TRN_MT_JUMP_TARGET inline __mmask8 tail_mask(std::size_t left) {
  return static_cast<__mmask8>((1u << left) - 1u);
}
TRN_MT_JUMP_TARGET inline void row_xor(std::uint64_t* o, std::size_t R, const std::uint64_t* a, const std::uint64_t* b) {
  std::size_t c = 0;
  for (; c + 8 <= R; c += 8)
    _mm512_storeu_si512(o + c, _mm512_xor_si512(_mm512_loadu_si512(a + c), _mm512_loadu_si512(b + c)));
  for (; c < R; ++c) o[c] = a[c] ^ b[c];  // short rows (R = 1, 3, 6, 9) and tails: scalar
}
TRN_MT_JUMP_TARGET inline void row_xor3(std::uint64_t* o, std::size_t R, const std::uint64_t* a, const std::uint64_t* b,
                                        const std::uint64_t* d) {
  std::size_t c = 0;
  for (; c + 8 <= R; c += 8)
    _mm512_storeu_si512(o + c, _mm512_ternarylogic_epi64(_mm512_loadu_si512(a + c), _mm512_loadu_si512(b + c),
                                                         _mm512_loadu_si512(d + c), 0x96));
  for (; c < R; ++c) o[c] = a[c] ^ b[c] ^ d[c];
}
inline void row_copy(std::uint64_t* o, std::size_t R, const std::uint64_t* a) {
  for (std::size_t c = 0; c < R; ++c) o[c] = a[c];
}

// Transposed Karatsuba for a Toeplitz matrix-vector product M v, M[i][u] = h(i - u) (n x n, h given
// at d = -(n-1) .. n-1 as rows 0 .. 2n-2), one level at a time over R independent products held as
// columns ([row][R] arrays).
// Two-way (n = 2m): [T1 T0; T2 T1] [v0; v1] = [Q + R; Q + U], Q = T1 (v0 + v1), R = (T0 + T1) v1,
// U = (T2 + T1) v0, T1 of h(e), T0 of h(e - m), T2 of h(e + m): sub-products Q, R, U as column blocks.
TRN_MT_JUMP_TARGET void generator_level2(const std::uint64_t* in, std::size_t n, std::size_t R, std::uint64_t* out) {
  const std::size_t m = n / 2;
  for (std::size_t r = 0; r + 1 < 2 * m; ++r) {  // r = e + m - 1; h(e + s m) is row r + (s + 1) m
    const std::uint64_t *lo = in + r * R, *mid = in + (r + m) * R, *hi = in + (r + 2 * m) * R;
    std::uint64_t* o = out + r * 3 * R;
    row_copy(o, R, mid);
    row_xor(o + R, R, lo, mid);
    row_xor(o + 2 * R, R, hi, mid);
  }
}
TRN_MT_JUMP_TARGET void vector_level2(const std::uint64_t* in, std::size_t n, std::size_t R, std::uint64_t* out) {
  const std::size_t m = n / 2;
  for (std::size_t i = 0; i < m; ++i) {
    const std::uint64_t *v0 = in + i * R, *v1 = in + (m + i) * R;
    std::uint64_t* o = out + i * 3 * R;
    row_xor(o, R, v0, v1);
    row_copy(o + R, R, v1);
    row_copy(o + 2 * R, R, v0);
  }
}
TRN_MT_JUMP_TARGET void output_level2(const std::uint64_t* sub, std::size_t n, std::size_t R, std::uint64_t* out) {
  const std::size_t m = n / 2;
  for (std::size_t i = 0; i < m; ++i) {
    const std::uint64_t* s = sub + i * 3 * R;
    row_xor(out + i * R, R, s, s + R);
    row_xor(out + (m + i) * R, R, s, s + 2 * R);
  }
}
// Three-way (n = 3m; Fan and Hasan, IEEE Trans. Computers 56(2), 2007; exact in characteristic 2):
// block (s, i) is T_{2 + s - i} of h(e + (s - i) m); P0 = (T0 + T1 + T2) v2, P1 = (T1 + T2 + T3) v1,
// P2 = (T2 + T3 + T4) v0, P3 = T1 (v1 + v2), P4 = T2 (v0 + v2), P5 = T3 (v0 + v1); rows P0 + P3 + P4,
// P1 + P3 + P5, P2 + P4 + P5.
// The generator side of a three-way level (n = 3m, rows of R words, R not a multiple of 8: the
// level-3 call, R = 9): with A .. E the generator rows r + s m (s = 0 .. 4; h(e + s m) is row
// r + (s + 2) m), row r of the six parts is A + B + C, B + C + D, C + D + E, B, C, D (r < 2m - 1).
// Eight rows at a time: rows r .. r + 7 of each of the five operands are 8 R
// contiguous words (R vectors), and each vector's lanes are stored row by row with masked stores (a
// vector meets at most two rows of 9): ~half the instructions of row-by-row XORs with scalar tails.
// Reads up to 4 m R + 8 R words past `in` (the caller pads); writes only the 2m - 1 rows.
template <std::size_t R>
TRN_MT_JUMP_TARGET void generator_level3_short_rows(const std::uint64_t* in, std::size_t n, std::uint64_t* out) {
  const std::size_t m = n / 3, rows = 2 * m - 1;
  for (std::size_t r0 = 0; r0 < rows; r0 += 8)
    for (std::size_t q = 0; q < R; ++q) {  // words 8 q .. 8 q + 7 of the block of rows r0 .. r0 + 7
      const std::uint64_t* src = in + r0 * R + 8 * q;
      const __m512i A = _mm512_loadu_si512(src), B = _mm512_loadu_si512(src + m * R), C = _mm512_loadu_si512(src + 2 * m * R),
                    D = _mm512_loadu_si512(src + 3 * m * R), E = _mm512_loadu_si512(src + 4 * m * R);
      const __m512i part[6] = {_mm512_ternarylogic_epi64(A, B, C, 0x96), _mm512_ternarylogic_epi64(B, C, D, 0x96),
                               _mm512_ternarylogic_epi64(C, D, E, 0x96), B, C, D};
      // Word w = 8 q + lane of the block is column w mod R of row r0 + w div R, which lives at
      // out + (r0 + w div R) 6R + k R + w mod R = out + r0 6R + k R + w + (w div R) 5R.
      for (std::size_t rr = 8 * q / R; rr * R < 8 * q + 8 && r0 + rr < rows; ++rr) {
        const std::size_t first = rr * R > 8 * q ? rr * R - 8 * q : 0, last = std::min<std::size_t>(8, (rr + 1) * R - 8 * q);
        const auto mask = static_cast<__mmask8>(((1u << last) - 1u) & ~((1u << first) - 1u));
        std::uint64_t* dst = out + r0 * 6 * R + 8 * q + rr * 5 * R;
        for (std::size_t k = 0; k < 6; ++k) _mm512_mask_storeu_epi64(dst + k * R, mask, part[k]);
      }
    }
}
TRN_MT_JUMP_TARGET void vector_level3(const std::uint64_t* in, std::size_t n, std::size_t R, std::uint64_t* out) {
  const std::size_t m = n / 3;
  for (std::size_t i = 0; i < m; ++i) {
    const std::uint64_t *v0 = in + i * R, *v1 = in + (m + i) * R, *v2 = in + (2 * m + i) * R;
    std::uint64_t* o = out + i * 6 * R;
    row_copy(o, R, v2);
    row_copy(o + R, R, v1);
    row_copy(o + 2 * R, R, v0);
    row_xor(o + 3 * R, R, v1, v2);
    row_xor(o + 4 * R, R, v0, v2);
    row_xor(o + 5 * R, R, v0, v1);
  }
}
TRN_MT_JUMP_TARGET void output_level3(const std::uint64_t* sub, std::size_t n, std::size_t R, std::uint64_t* out) {
  const std::size_t m = n / 3;
  for (std::size_t i = 0; i < m; ++i) {
    const std::uint64_t* s = sub + i * 6 * R;
    row_xor3(out + i * R, R, s, s + 3 * R, s + 4 * R);
    row_xor3(out + (m + i) * R, R, s + R, s + 3 * R, s + 5 * R);
    row_xor3(out + (2 * m + i) * R, R, s + 2 * R, s + 4 * R, s + 5 * R);
  }
}

// Fan and Hasan's three-way output rows: row s (0, 1, 2) is P_s + P_3 + P_4, P_s + P_3 + P_5, P_s + P_4 + P_5:
// whether product p is in row s's sum.
constexpr bool in_three_way_sum(std::size_t s, std::size_t p) {
  return p == s || (s == 0 ? (p == 3 || p == 4) : s == 1 ? (p == 3 || p == 5) : (p == 4 || p == 5));
}

// The vector side of the middle product for one polynomial: G~ (kN words, zero from kGWords on)
// through the two two-way and the first two three-way levels (all as columns), then each 9 x 9
// sub-product's vector through the last two three-way levels into its 36 leaf words.
constexpr std::size_t kCols27 = 54;                      // 27 x 27 sub-products after the top three levels
constexpr std::size_t kCols9 = 6 * kCols27;              // 324 9 x 9 sub-products after the fourth (part k4: columns 54 k4 ..)
constexpr std::size_t kLaneGroups = (kCols27 + 7) / 8;   // 7 groups of eight of a part's 54 columns (the last of six)
struct VectorSums {
  // Per part k4 of the fourth level and group j of eight of its 54 columns (column 54 k4 + 8 j + lane;
  // lanes past column 53 zero): the 36 leaves' vector words of the two three-way levels done in
  // registers (jump_avx512 step 2), [k4][j][level-5 product p][leaf q][lane].
  alignas(64) std::uint64_t leaves[6][kLaneGroups][6][6][8];
};
TRN_MT_JUMP_TARGET void vector_sums(const std::uint64_t* gt, VectorSums& vs) {
  std::vector<std::uint64_t> v0(kN), v1(kN / 2 * 3), v2(kSubN * kSub), a(27 * 54), b(9 * kCols9 + 8);
  std::copy(gt, gt + kGWords, v0.begin());
  vector_level2(v0.data(), kN, 1, v1.data());        // [162][3]
  vector_level2(v1.data(), kN / 2, 3, v2.data());    // [81][9]
  vector_level3(v2.data(), 81, 9, a.data());         // [27][54]
  vector_level3(a.data(), 27, 54, b.data());         // [9][324]
  for (std::size_t k4 = 0; k4 < 6; ++k4)
    for (std::size_t j = 0; j < kLaneGroups; ++j)
      for (std::size_t lane = 0; lane < 8; ++lane) {
        std::uint64_t v[9] = {};
        if (8 * j + lane < kCols27)
          for (std::size_t i = 0; i < 9; ++i) v[i] = b[i * kCols9 + kCols27 * k4 + 8 * j + lane];
        // Three-way split of 9 (m = 3): P0 = v2, P1 = v1, P2 = v0, P3 = v1 + v2, P4 = v0 + v2, P5 = v0 + v1
        // (v_k the rows 3k .. 3k + 2), then the same split of each (m = 1) into six single words.
        for (std::size_t p = 0; p < 6; ++p) {
          std::uint64_t w[3];
          for (std::size_t i = 0; i < 3; ++i) {
            const std::uint64_t x0 = v[i], x1 = v[3 + i], x2 = v[6 + i];
            const std::uint64_t sub[6] = {x2, x1, x0, x1 ^ x2, x0 ^ x2, x0 ^ x1};
            w[i] = sub[p];
          }
          const std::uint64_t leaf[6] = {w[2], w[1], w[0], w[1] ^ w[2], w[0] ^ w[2], w[0] ^ w[1]};
          for (std::size_t q = 0; q < 6; ++q) vs.leaves[k4][j][p][q][lane] = leaf[q];
        }
      }
}

// One step of the planes' relation: dst[q .. q + 7] = bits 64 q + s1 .. and 64 q + s2 .. of src
// (s2 < s1 < 640, neither a multiple of 64), XORed, and XORed with plane0[q ..] & plane0_mask. src's
// lines are read aligned: lines l0, l1, l2 are words q .. q + 23 (s2 / 64 = 6, s1 / 64 = 9), the
// shifted words are formed by valignq and a funnel shift (fewer, unsplit loads).
template <std::size_t s1, std::size_t s2>
TRN_MT_JUMP_TARGET inline __m512i relation_step(__m512i l0, __m512i l1, __m512i l2, __m512i plane0_and) {
  static_assert(s1 / 64 == 9 && s2 / 64 == 6 && s1 % 64 != 0 && s2 % 64 != 0, "lines q .. q + 23 hold both operands");
  const __m512i a_lo = _mm512_alignr_epi64(l2, l1, 1), a_hi = _mm512_alignr_epi64(l2, l1, 2);  // words q + 9 .., q + 10 ..
  const __m512i b_lo = _mm512_alignr_epi64(l1, l0, 6), b_hi = _mm512_alignr_epi64(l1, l0, 7);  // words q + 6 .., q + 7 ..
  return _mm512_ternarylogic_epi64(_mm512_shrdi_epi64(a_lo, a_hi, s1 % 64), _mm512_shrdi_epi64(b_lo, b_hi, s2 % 64),
                                   plane0_and, 0x96);
}
// A whole plane: words q < `words` (a multiple of 8 is written; src is read up to q + 23).
template <std::size_t s1, std::size_t s2>
TRN_MT_JUMP_TARGET inline void relation_plane(const std::uint64_t* src, const std::uint64_t* plane0, __m512i plane0_mask,
                                              std::size_t words, std::uint64_t* dst) {
  __m512i l0 = _mm512_load_si512(src), l1 = _mm512_load_si512(src + 8);
  for (std::size_t q = 0; q < words; q += 8) {
    const __m512i l2 = _mm512_load_si512(src + q + 16);
    _mm512_store_si512(dst + q, relation_step<s1, s2>(l0, l1, l2, _mm512_and_si512(plane0_mask, _mm512_load_si512(plane0 + q))));
    l0 = l1;
    l1 = l2;
  }
}

// The generator side of the fused stage (jump step 2), per source window: part k4 of the fourth
// level, columns 8 j .. 8 j + 7 of a (the 27 x 27 sub-products' generator rows, [53][54]), through
// the last two three-way levels to the 36 leaves of the 9 x 9 sub-products, [level-5 product p][leaf q].
struct GeneratorLeaves {
  __m512i leaves[6][kLaneGroups][6][6];
};
template <std::size_t k4>
TRN_MT_JUMP_TARGET inline void generator_leaves_group(const std::uint64_t* a, std::size_t j, __m512i (*out)[6]) {
  const std::uint64_t* col = a + 8 * j;
  __m512i h[17];
  for (std::size_t r = 0; r < 17; ++r) {
    const std::uint64_t* rows = col + r * kCols27;  // a's rows r + 9 s at rows + 9 s kCols27
    constexpr std::size_t kStep = 9 * kCols27;
    h[r] = k4 < 3 ? _mm512_ternarylogic_epi64(_mm512_loadu_si512(rows + k4 * kStep), _mm512_loadu_si512(rows + (k4 + 1) * kStep),
                                              _mm512_loadu_si512(rows + (k4 + 2) * kStep), 0x96)
                  : _mm512_loadu_si512(rows + (k4 - 2) * kStep);
  }
#pragma GCC unroll 6
  for (std::size_t p = 0; p < 6; ++p) {
    __m512i hp[5];
    for (std::size_t r = 0; r < 5; ++r) {
      const __m512i A = h[r], B = h[r + 3], C = h[r + 6], D = h[r + 9], E = h[r + 12];
      hp[r] = p == 0 ? _mm512_ternarylogic_epi64(A, B, C, 0x96)
            : p == 1 ? _mm512_ternarylogic_epi64(B, C, D, 0x96)
            : p == 2 ? _mm512_ternarylogic_epi64(C, D, E, 0x96)
            : p == 3 ? B : p == 4 ? C : D;
    }
    out[p][0] = _mm512_ternarylogic_epi64(hp[0], hp[1], hp[2], 0x96);
    out[p][1] = _mm512_ternarylogic_epi64(hp[1], hp[2], hp[3], 0x96);
    out[p][2] = _mm512_ternarylogic_epi64(hp[2], hp[3], hp[4], 0x96);
    out[p][3] = hp[1];
    out[p][4] = hp[2];
    out[p][5] = hp[3];
  }
}
template <std::size_t k4>
TRN_MT_JUMP_TARGET void generator_leaves_part(const std::uint64_t* a, GeneratorLeaves& gl) {
  for (std::size_t j = 0; j < kLaneGroups; ++j) generator_leaves_group<k4>(a, j, gl.leaves[k4][j]);
}

// One group of the product side of the fused stage, per polynomial: the 36 leaves' products with the
// vector sums, the 9 x 9 sub-products' two output levels and the fourth level's output rows, into
// out27's rows ([27][2 x 54]).
template <std::size_t k4>
TRN_MT_JUMP_TARGET inline void fused_group(const GeneratorLeaves& gl, const VectorSums& vs, std::size_t j, std::uint64_t* out27) {
  const __m512i first_half = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0);
  const __m512i second_half = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
  constexpr std::size_t kRow27 = 2 * kCols27;  // 108 words
  // The last group holds six columns (48 .. 53): its second half-row stores words 8 .. 11 only.
  const __mmask8 tail = 8 * j + 8 <= kCols27 ? 0xff : 0x0f;
  __m512i out_even[9], out_odd[9];
  for (std::size_t i = 0; i < 9; ++i) out_even[i] = out_odd[i] = _mm512_setzero_si512();
#pragma GCC unroll 6
  for (std::size_t p = 0; p < 6; ++p) {
    __m512i pe[6], po[6];
    for (std::size_t q = 0; q < 6; ++q) {
      const __m512i leaf = gl.leaves[k4][j][p][q], vv = _mm512_load_si512(vs.leaves[k4][j][p][q]);
      pe[q] = _mm512_clmulepi64_epi128(leaf, vv, 0x00);
      po[q] = _mm512_clmulepi64_epi128(leaf, vv, 0x11);
    }
    // Level-6 output rows of product p (P0 + P3 + P4, P1 + P3 + P5, P2 + P4 + P5), added to the
    // level-5 output rows s of every s whose sum holds p (s = 0: {0, 3, 4}, 1: {1, 3, 5}, 2: {2, 4, 5}).
    const __m512i re[3] = {_mm512_ternarylogic_epi64(pe[0], pe[3], pe[4], 0x96),
                           _mm512_ternarylogic_epi64(pe[1], pe[3], pe[5], 0x96),
                           _mm512_ternarylogic_epi64(pe[2], pe[4], pe[5], 0x96)};
    const __m512i ro[3] = {_mm512_ternarylogic_epi64(po[0], po[3], po[4], 0x96),
                           _mm512_ternarylogic_epi64(po[1], po[3], po[5], 0x96),
                           _mm512_ternarylogic_epi64(po[2], po[4], po[5], 0x96)};
    for (std::size_t sidx = 0; sidx < 3; ++sidx) {
      if (!in_three_way_sum(sidx, p)) continue;
      for (std::size_t i = 0; i < 3; ++i) {
        out_even[3 * sidx + i] = _mm512_xor_si512(out_even[3 * sidx + i], re[i]);
        out_odd[3 * sidx + i] = _mm512_xor_si512(out_odd[3 * sidx + i], ro[i]);
      }
    }
  }
  for (std::size_t i = 0; i < 9; ++i) {
    const __m512i lo = _mm512_permutex2var_epi64(out_even[i], first_half, out_odd[i]);
    const __m512i hi = _mm512_permutex2var_epi64(out_even[i], second_half, out_odd[i]);
    for (std::size_t block = 0; block < 3; ++block) {  // the fourth level's output rows holding part k4
      if (!in_three_way_sum(block, k4)) continue;
      std::uint64_t* dst = out27 + (9 * block + i) * kRow27 + 16 * j;
      if constexpr (k4 < 3) {
        _mm512_storeu_si512(dst, lo);
        _mm512_mask_storeu_epi64(dst + 8, tail, hi);
      } else {
        _mm512_storeu_si512(dst, _mm512_xor_si512(_mm512_loadu_si512(dst), lo));
        _mm512_mask_storeu_epi64(dst + 8, tail, _mm512_xor_si512(_mm512_maskz_loadu_epi64(tail, dst + 8), hi));
      }
    }
  }
}

constexpr std::uint32_t kMag = 0x9908b0dfu;

// The per-thread arrays of a jump (callers' threads may have small stacks): the extended sequence
// (160 KB), plane 0's bits, the levels' arrays (~60 KB), the planes.
struct alignas(64) JumpWork {
  struct alignas(64) Line {
    std::uint32_t w[16];
  };
  static constexpr std::size_t kPlaneWords = kPlane0Words + 16;  // slack: the shifted reads past a plane's end
  static_assert(kPlaneWords % 8 == 0, "planes start on 64-byte lines");
  alignas(64) Line x[kNarrowFrom / 16];  // 64-byte aligned: the recurrence's loads are aligned
  alignas(64) Line x16[(kExtWords - kNarrowFrom + 640) / 32];  // the 16-bit tail
  alignas(64) std::uint64_t bits[kBitWords];
  alignas(64) std::uint64_t gen[kGen], g1[(kN - 1) * 3], g2[(kSubN * 2 - 1) * kSub + 4 * kSub];  // + the slack of level 3's reads
  alignas(64) std::uint64_t a[53 * kCols27 + 8];
  GeneratorLeaves leaves;  // 97 KB
  alignas(64) std::uint64_t out27[27 * 2 * kCols27], out81[81 * 18], out162[162 * 6], sums[kN * 2];
  alignas(64) std::uint64_t planes[32 * kPlaneWords];  // zeros at first; slack never read into the output
};
JumpWork& jump_work() {
  thread_local std::unique_ptr<JumpWork> work = std::make_unique<JumpWork>();  // value-initialised: zeros
  return *work;
}

// The half of a jump that depends on the source window only (shared by every polynomial applied to
// it, mt19937_jump_clmul_many): w's extension to plane 0's 39 936 bits and the generator side of the
// middle product's top three levels (work.a).
TRN_MT_JUMP_TARGET void jump_source_avx512(const std::uint32_t* w, JumpWork& work) {
  std::uint32_t* x = work.x->w;
  auto* bits16 = reinterpret_cast<std::uint16_t*>(work.bits);

  // 1. x[624 ..] by the recurrence x[n] = x[n - 227] ^ (y >> 1) ^ (y odd ? 0x9908b0df : 0),
  //    y = x[n - 624] & 0x80000000 | x[n - 623] & 0x7fffffff (16 words read only older words), and
  //    bit 0 of every word (plane 0: 16 bits per vector, little-endian, so word n is bit n). The
  //    unaligned operands x[n - 623 ..] and x[n - 227 ..] are formed from aligned lines (valignd).
  std::memcpy(x, w, kMt19937Words * sizeof(std::uint32_t));
  const __m512i one = _mm512_set1_epi32(1);
  for (std::size_t n = 0; n < kMt19937Words; n += 16) bits16[n / 16] = _mm512_test_epi32_mask(_mm512_load_si512(x + n), one);
  const __m512i lower = _mm512_set1_epi32(0x7fffffff);
  const __m512i mag_of_bit0 = _mm512_set_epi32(static_cast<int>(kMag), 0, static_cast<int>(kMag), 0, static_cast<int>(kMag), 0,
                                               static_cast<int>(kMag), 0, static_cast<int>(kMag), 0, static_cast<int>(kMag), 0,
                                               static_cast<int>(kMag), 0, static_cast<int>(kMag), 0);  // lane i: i odd ? kMag : 0
  __m512i a_line = _mm512_load_si512(x), c_line = _mm512_load_si512(x + kMt19937Words - 240);  // x[n - 624 ..], x[n - 240 ..]
  for (std::size_t n = kMt19937Words; n < kNarrowFrom; n += 16) {
    const __m512i a_next = _mm512_load_si512(x + n - 608), c_next = _mm512_load_si512(x + n - 224);
    const __m512i b = _mm512_alignr_epi32(a_next, a_line, 1), c = _mm512_alignr_epi32(c_next, c_line, 13);
    const __m512i y = _mm512_ternarylogic_epi32(lower, a_line, b, 0xac);  // lower ? b : a
    // y odd (y's bit 0 is b's): XOR kMag, looked up by b's low index bits (one permute, no mask).
    const __m512i v = _mm512_ternarylogic_epi32(c, _mm512_srli_epi32(y, 1), _mm512_permutexvar_epi32(b, mag_of_bit0), 0x96);
    _mm512_store_si512(x + n, v);
    bits16[n / 16] = _mm512_test_epi32_mask(v, one);
    a_line = a_next;
    c_line = c_next;
  }
  // From kNarrowFrom on, the low 16 bits of each word only (32 words a vector): bit b < 15 of x[n]
  // reads bits b and 0 of older words and bit b + 1 of x[n - 623], so the bits the 16-bit words get
  // wrong (bit 15 from kNarrowFrom on: its bit 16 is gone) move down one bit per 623 words, and bit 0
  // stays exact below kNarrowFrom + 15 x 623 >= 39904 (the last position plane 0's product bits read;
  // the test's random windows and the 8191-jump hashes check it). ~12 % fewer vector instructions.
  // x16[i] is position kNarrowFrom - 640 + i; its first 640 come from the 32-bit words.
  auto* x16 = reinterpret_cast<std::uint16_t*>(work.x16->w);
  for (std::size_t i = 0; i < 640; i += 16)
    _mm256_store_si256(reinterpret_cast<__m256i*>(x16 + i), _mm512_cvtepi32_epi16(_mm512_load_si512(x + kNarrowFrom - 640 + i)));
  __m512i idx17, idx29, mag16;  // lanes i + 17, i + 29 of two lines; lane i: i odd ? low half of kMag : 0
  {
    alignas(64) std::uint16_t t17[32], t29[32], tm[32];
    for (std::uint16_t i = 0; i < 32; ++i) {
      t17[i] = static_cast<std::uint16_t>(i + 17);
      t29[i] = static_cast<std::uint16_t>(i + 29);
      tm[i] = (i & 1u) != 0 ? static_cast<std::uint16_t>(kMag) : 0;
    }
    idx17 = _mm512_load_si512(t17);
    idx29 = _mm512_load_si512(t29);
    mag16 = _mm512_load_si512(tm);
  }
  const __m512i one16 = _mm512_set1_epi16(1);
  auto* bits32 = reinterpret_cast<std::uint32_t*>(work.bits);
  // Lines x16[i - 640 ..] and x16[i - 608 ..] hold x[n - 623 ..] at lane 17, x16[i - 256 ..] and
  // x16[i - 224 ..] hold x[n - 227 ..] at lane 29.
  __m512i b_lo = _mm512_load_si512(x16), c_lo = _mm512_load_si512(x16 + 640 - 256);
  for (std::size_t n = kNarrowFrom, i = 640; n < kExtWords; n += 32, i += 32) {
    const __m512i b_hi = _mm512_load_si512(x16 + i - 608), c_hi = _mm512_load_si512(x16 + i - 224);
    const __m512i b = _mm512_permutex2var_epi16(b_lo, idx17, b_hi), c = _mm512_permutex2var_epi16(c_lo, idx29, c_hi);
    const __m512i v = _mm512_ternarylogic_epi32(c, _mm512_srli_epi16(b, 1), _mm512_permutexvar_epi16(b, mag16), 0x96);
    _mm512_store_si512(x16 + i, v);
    bits32[n / 32] = _mm512_test_epi16_mask(v, one16);
    b_lo = b_hi;
    c_lo = c_hi;
  }
  const std::uint64_t* s0 = work.bits;

  // 2. The sums S_{310 + i} = sum_u G~[u] S_0[310 + i - u], i < kN: the Toeplitz matrix of
  //    h(d) = S_0[310 + d] (row d + kN - 1: S_0 word row - 13) times G~, generator side per source window.
  std::uint64_t *gen = work.gen, *g1 = work.g1, *g2 = work.g2;
  std::fill(gen, gen + kGenShift, 0);
  std::copy(s0, s0 + kBitWords, gen + kGenShift);
  std::fill(gen + kGenShift + kBitWords, gen + kGen, 0);
  generator_level2(gen, kN, 1, g1);      // [323][3]
  generator_level2(g1, kN / 2, 3, g2);   // [161][9]
  std::uint64_t* a = work.a;
  generator_level3_short_rows<kSub>(g2, 81, a);  // [53][54]
  std::fill(a + 53 * kCols27, a + 53 * kCols27 + 8, 0);  // the last group's loads past row 52
  // The fourth level's generator parts and the last two levels' generator sides, to the leaves
  // (jump_product_avx512 multiplies them by each polynomial's vector leaves).
  generator_leaves_part<0>(a, work.leaves);
  generator_leaves_part<1>(a, work.leaves);
  generator_leaves_part<2>(a, work.leaves);
  generator_leaves_part<3>(a, work.leaves);
  generator_leaves_part<4>(a, work.leaves);
  generator_leaves_part<5>(a, work.leaves);
}

// The other half, per polynomial: out = the window J steps after w (whose jump_source_avx512 is in
// work), for the polynomial whose vector sums are vs and whose coefficient g_0 is g0.
TRN_MT_JUMP_TARGET void jump_product_avx512(const std::uint32_t* w, const VectorSums& vs, bool g0, JumpWork& work,
                                            std::uint32_t* out) {
  static const PermuteTables tables;
  static_assert(((kMag >> 30) & 1u) == 0, "plane 31's relation has no s_0 term");
  constexpr std::size_t kPlaneWords = JumpWork::kPlaneWords;
  std::uint64_t* planes = work.planes;
  // The 27 x 27 sub-products' fourth level (three-way, m = 9: part k4 of generator row r is a sum of
  // a's rows r + 9 s) and then their 9 x 9 sub-products eight at a time in registers: two three-way
  // levels (generator rows 17 -> 6 x 5 -> 36 leaves), 36 x 8 products (VPCLMULQDQ of the low qwords
  // of each 128-bit lane: columns 0, 2, 4, 6; of the high ones: 1, 3, 5, 7), the two output levels
  // back to 9 rows and the fourth level's output rows (P0 + P3 + P4, P1 + P3 + P5, P2 + P4 + P5) added
  // into out27, on the 128-bit products (the output side is linear, so their low and high words go
  // through it together: rows of 2 x 54 words, column c's product at 2c, 2c + 1). Parts 0 .. 2 store
  // their rows, parts 3 .. 5 add theirs.
  std::uint64_t* out27 = work.out27;
  for (std::size_t j = 0; j < kLaneGroups; ++j) fused_group<0>(work.leaves, vs, j, out27);
  for (std::size_t j = 0; j < kLaneGroups; ++j) fused_group<1>(work.leaves, vs, j, out27);
  for (std::size_t j = 0; j < kLaneGroups; ++j) fused_group<2>(work.leaves, vs, j, out27);
  for (std::size_t j = 0; j < kLaneGroups; ++j) fused_group<3>(work.leaves, vs, j, out27);
  for (std::size_t j = 0; j < kLaneGroups; ++j) fused_group<4>(work.leaves, vs, j, out27);
  for (std::size_t j = 0; j < kLaneGroups; ++j) fused_group<5>(work.leaves, vs, j, out27);
  std::uint64_t *out81 = work.out81, *out162 = work.out162, *sums = work.sums;
  output_level3(out27, 81, 18, out81);   // [81][2 x 9]
  output_level2(out81, kN / 2, 6, out162);  // [162][2 x 3]
  output_level2(out162, kN, 2, sums);       // [324][2]: S_{310 + i} = sums[2i] (low word), sums[2i + 1]

  // 3. Plane 0: product word p = lo(S_p) ^ hi(S_{p-1}) (p = 311 .. 623), o_0[k] = product bit
  //    D - 1 + k = bit 32 of word 311 onwards.
  std::uint64_t* p0 = planes;
  for (std::size_t r = 0; r < kPlane0Words; ++r) {
    const std::uint64_t lo_word = sums[2 * (r + 1)] ^ sums[2 * r + 1];      // product word 311 + r
    const std::uint64_t hi_word = sums[2 * (r + 2)] ^ sums[2 * (r + 1) + 1];  // product word 312 + r
    p0[r] = (lo_word >> 32) | (hi_word << 32);
  }

  // 4. Planes 1 .. 31 by the relation: o_{b+1}[k] = o_b[k + 623] ^ o_b[k + 396] ^ mag_b o_0[k] on
  //    k < 624 + 623 (29 - b) + 624 (b < 30), o_31[k] = o_30[k + 624] ^ o_30[k + 397] on k < 624.
  for (std::size_t b = 0; b < 30; ++b) {
    const __m512i with_plane0 = _mm512_set1_epi64(((kMag >> b) & 1u) != 0 ? -1 : 0);
    relation_plane<623, 396>(planes + b * kPlaneWords, p0, with_plane0, (1248 + 623 * (29 - b) + 63) / 64,  // plane b + 1's bits
                             planes + (b + 1) * kPlaneWords);
  }
  relation_plane<624, 397>(planes + 30 * kPlaneWords, p0, _mm512_setzero_si512(), kMt19937Words / 64 + 1, planes + 31 * kPlaneWords);

  // 5. Back to words (the first 640 bits of each plane): the inverse byte transpose with rows
  //    reversed, GFNI transposes, then the bytes of the 64 words interleaved.
  constexpr std::size_t kOutGroups = 10;  // 640 >= 624 output words
  alignas(64) std::uint64_t out_planes[kOutGroups * 32];
  for (std::size_t r = 0; r < kOutGroups; ++r)
    for (std::size_t b = 0; b < 32; ++b) out_planes[32 * r + b] = planes[b * kPlaneWords + r];
  const __m512i unit = _mm512_set1_epi64(0x8040201008040201ll);  // byte j = 1 << j
  const __m512i fromp = _mm512_load_si512(tables.from_planes);
  const __m512i ilo = _mm512_load_si512(tables.interleave_lo), ihi = _mm512_load_si512(tables.interleave_hi);
  const __m512i w0 = _mm512_load_si512(tables.words_0), w1 = _mm512_load_si512(tables.words_1);
  alignas(64) std::uint32_t words[kOutGroups * 64];
  for (std::size_t r = 0; r < kOutGroups; ++r) {
    __m512i rq[4];
    for (int q = 0; q < 4; ++q) {
      const __m512i u = _mm512_load_si512(out_planes + 32 * r + 8 * q);
      rq[q] = _mm512_gf2p8affine_epi64_epi8(unit, _mm512_permutexvar_epi8(fromp, u), 0);
    }
    const __m512i s01lo = _mm512_permutex2var_epi8(rq[0], ilo, rq[1]), s01hi = _mm512_permutex2var_epi8(rq[0], ihi, rq[1]);
    const __m512i s23lo = _mm512_permutex2var_epi8(rq[2], ilo, rq[3]), s23hi = _mm512_permutex2var_epi8(rq[2], ihi, rq[3]);
    std::uint32_t* dst = words + 64 * r;
    _mm512_store_si512(dst, _mm512_permutex2var_epi8(s01lo, w0, s23lo));
    _mm512_store_si512(dst + 16, _mm512_permutex2var_epi8(s01lo, w1, s23lo));
    _mm512_store_si512(dst + 32, _mm512_permutex2var_epi8(s01hi, w0, s23hi));
    _mm512_store_si512(dst + 48, _mm512_permutex2var_epi8(s01hi, w1, s23hi));
  }
  // 6. Word 0: the relation at j = 0 reads the window's word 0, whose low bits need not satisfy it;
  //    the planes above used it as if they did, so add g_0 times its defect (bits 1 .. 30).
  if (g0) {
    const std::uint32_t carried = w[623] ^ w[396] ^ ((w[0] & 1u) != 0 ? kMag : 0u);
    words[0] ^= (w[0] ^ (carried << 1)) & 0x7ffffffeu;
  }
  std::memcpy(out, words, kMt19937Words * sizeof(std::uint32_t));
}
}  // namespace

bool mt19937_jump_clmul_available() { return clmul_jump_available(); }

namespace {
bool degree_below_d(const Gf2Poly& g) {
  for (std::size_t i = kD / 64; i < g.size(); ++i) {
    const std::uint64_t high = i == kD / 64 ? g[i] >> (kD % 64) : g[i];
    if (high != 0) return false;
  }
  return true;
}

// G~'s vector sums per polynomial, per thread: the streams' set-up applies the same eight
// polynomials (mt19937_stream_jump_powers) a thousand times each. The last kKept polynomials are
// kept (93 KB each), replaced first in first out (no reordering on a hit: a batch looks up eight).
const VectorSums& vector_sums_of(const Gf2Poly& g) {
  constexpr std::size_t kKept = 2 * kMt19937JumpBatch;
  struct Entry {
    Gf2Poly poly;
    std::unique_ptr<VectorSums> sums;
  };
  thread_local std::vector<Entry> kept;
  thread_local std::size_t replace_next = 0;
  for (const Entry& e : kept)
    if (!e.poly.empty() && e.poly == g) return *e.sums;  // empty: sums being rewritten (or failed)
  if (kept.size() < kKept) {
    kept.push_back({{}, std::make_unique<VectorSums>()});
    replace_next = kept.size() - 1;
  }
  Entry& e = kept[replace_next];
  replace_next = (replace_next + 1) % kKept;
  std::uint64_t gt[kGWords];
  reversed_polynomial(g, gt);
  // The polynomial is copied before the entry changes, and the entry matches nothing while its sums
  // are rewritten: a bad_alloc from either leaves no entry pairing one polynomial with another's
  // sums (session 24 review: the old order kept the old polynomial beside the new sums).
  Gf2Poly key = g;
  e.poly.clear();
  vector_sums(gt, *e.sums);
  e.poly = std::move(key);
  return *e.sums;
}
}  // namespace

bool mt19937_jump_clmul(const Mt19937Window& w, const Gf2Poly& g, Mt19937Window& out) {
  return mt19937_jump_clmul_many(w, std::span<const Gf2Poly>(&g, 1), &out);
}

bool mt19937_jump_clmul_many(const Mt19937Window& w, std::span<const Gf2Poly> polys, Mt19937Window* out) {
  if (!clmul_jump_available()) return false;
  for (const Gf2Poly& g : polys)
    if (!degree_below_d(g)) return false;
  if (polys.empty()) return true;
  JumpWork& work = jump_work();
  const Mt19937Window source = w;  // out may alias w
  jump_source_avx512(source.data(), work);
  for (std::size_t i = 0; i < polys.size(); ++i)
    jump_product_avx512(source.data(), vector_sums_of(polys[i]), (polys[i][0] & 1u) != 0, work, out[i].data());
  return true;
}

}  // namespace trn::rand
