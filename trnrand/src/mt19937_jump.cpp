// MT19937 jump ahead by GF(2) middle products (trn/rand/mt19937.hpp: mt19937_jump_clmul).
//
// Algorithm: for g = x^J mod phi (deg g < 19937) the window J steps ahead is
//   x[J + k] = sum_i g_i x[i + k]   (k = 0 .. 623; over GF(2), word-wise XOR),
// the relation the Horner scheme of Haramoto et al. (INFORMS J. Computing 20(3), 2008) evaluates
// as g(T) w. Read bit plane by bit plane (bit b of every word), each of the 32 planes is a middle
// product of two polynomials: plane_b[k] = coefficient D - 1 + k of G~(z) P_b(z), with G~ the
// reversal of g (coefficient e = g_{D-1-e}) and P_b(z) = sum_n bit_b(x[n]) z^n over the extended
// sequence x[0 .. D + 622] (the window followed by 33 twists' words). So one jump is: extend the
// window by the recurrence (vectorised), transpose the 20608 words to 32 bit planes (byte permutes
// and GFNI 8x8 bit transposes), the 12 product words each plane needs (VPCLMULQDQ, eight planes
// per instruction pair) as a 12 x 324 Toeplitz matrix-vector product in 27 blocks, each split by
// two levels of Karatsuba for Toeplitz matrices (the transposed Karatsuba of Hanrot, Quercia and
// Zimmermann, "The middle product algorithm I", AAECC 14(6), 2004) into nine 3 x 3 blocks of six
// products each (toeplitz3): 1458 carry-less 64 x 64 products per plane instead of 12 x 312 = 3744
// (the generators' sums depend on the polynomial only and are formed once per polynomial); then the
// transpose back of the 624 output words.
// Engines: none; this is the host set-up of the MT19937 streams (docs/trnrand.md section 12: outside the
// trace, as before). Accuracy: exact (the same linear map as the Horner scheme; tested against it and
// against plain stepping). Limits: hosts with AVX-512 F/BW/VBMI, VPCLMULQDQ and GFNI (returns false
// elsewhere, and for g of degree >= 19937); one jump costs ~11.7k VPCLMULQDQ (30k before the
// Toeplitz blocks, session 19) against the Horner scheme's ~100k 512-bit XORs of table rows that
// do not fit in L1.
#include "avx512_intrinsics.hpp"

#include <cstring>
#include <vector>

#include "trn/core/host_simd.hpp"
#include "trn/rand/mt19937.hpp"

namespace trn::rand {

namespace {

constexpr std::size_t kD = kMt19937Degree;             // 19937
constexpr std::size_t kGWords = (kD + 63) / 64;        // 312 words of G~
constexpr std::size_t kGroups = 322;                   // 64-word groups of the extended sequence
constexpr std::size_t kSeqWords = kGroups * 64;        // 20608 >= D + 623 = 20560 words
constexpr std::size_t kFirstSum = kD / 64 - 1;         // 310: product word sums 310 .. 321 needed
static_assert(kFirstSum + 1 == kGWords - 1, "step 3: t_k(d) = G~[kFirstSum + 1 - 12 k + d]");
constexpr std::size_t kSums = 12;
constexpr std::size_t kOutGroups = 10;                 // 640 >= 624 output words
// Step 3's Toeplitz blocks: the sums' 12 x 323 Toeplitz matrix of G~ words in 27 square blocks of
// 12 input groups, each split twice by Karatsuba into nine 3 x 3 blocks of six products each.
constexpr std::size_t kBlock = 12, kHalfBlock = kBlock / 2, kQuarterBlock = kBlock / 4;
constexpr std::size_t kBlocks = 27;  // 27 x 12 = 324 >= the 323 groups -1 .. 321

bool clmul_jump_available() {
  static const bool ok = host_simd_available(HostSimd::avx512) && __builtin_cpu_supports("avx512vbmi") &&
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

// The Toeplitz generators of step 3 (see toeplitz_sums), per block k: t_k(d) = G~[311 - 12 k + d]
// (0 outside 0 .. 311), d = -11 .. 11. A Toeplitz matrix [T1 T0; T2 T1] of generator h is split into
// the products T1 (h(e)), T0 + T1 (h(e - n) ^ h(e)) and T2 + T1 (h(e + n) ^ h(e)), n the half size;
// twice: level-2 product b of level-1 product a is a 3 x 3 Toeplitz matrix of generator
// T_m = h(m - 2), m = 0 .. 4, whose six products (toeplitz3) take w[k][a][b] = {T0 + T1 + T2,
// T1 + T2 + T3, T2 + T3 + T4, T1, T2, T3}.
struct ToeplitzGenerators {
  std::uint64_t w[kBlocks][3][3][6];
};
void toeplitz_generators(const std::uint64_t* gt, ToeplitzGenerators& tg) {
  const auto t = [&](std::size_t k, std::ptrdiff_t d) -> std::uint64_t {
    const std::ptrdiff_t i = static_cast<std::ptrdiff_t>(kGWords - 1) - static_cast<std::ptrdiff_t>(kBlock * k) + d;
    return i >= 0 && i < static_cast<std::ptrdiff_t>(kGWords) ? gt[i] : 0;
  };
  const auto split = [](auto&& h, std::size_t part, std::ptrdiff_t e, std::ptrdiff_t n) -> std::uint64_t {
    return part == 0 ? h(e) : part == 1 ? h(e - n) ^ h(e) : h(e + n) ^ h(e);
  };
  const auto h1 = static_cast<std::ptrdiff_t>(kHalfBlock), h2 = static_cast<std::ptrdiff_t>(kQuarterBlock);
  for (std::size_t k = 0; k < kBlocks; ++k)
    for (std::size_t a = 0; a < 3; ++a)
      for (std::size_t b = 0; b < 3; ++b)
        {
          const auto level1 = [&](std::ptrdiff_t e) { return split([&](std::ptrdiff_t d) { return t(k, d); }, a, e, h1); };
          std::uint64_t tm[5];
          for (std::ptrdiff_t f = -(h2 - 1); f <= h2 - 1; ++f) tm[f + h2 - 1] = split(level1, b, f, h2);
          const std::uint64_t six[6] = {tm[0] ^ tm[1] ^ tm[2], tm[1] ^ tm[2] ^ tm[3], tm[2] ^ tm[3] ^ tm[4], tm[1], tm[2], tm[3]};
          std::copy(six, six + 6, tg.w[k][a][b]);
        }
}

#define TRN_MT_JUMP_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi,vpclmulqdq,gfni")))

// Byte-permute tables (see jump_avx512).
struct PermuteTables {
  alignas(64) std::uint8_t to_planes_01[64], to_planes_23[64], qword_bytes[64];
  alignas(64) std::uint8_t from_planes[64], interleave_lo[64], interleave_hi[64], words_0[64], words_1[64];
  PermuteTables() {
    for (int qq = 0; qq < 2; ++qq)
      for (int g = 0; g < 4; ++g)
        for (int r = 0; r < 8; ++r) {
          // Z_q qword g byte r = byte q of word 8g + 7 - r (the GFNI transpose reverses rows).
          to_planes_01[32 * qq + 8 * g + r] = static_cast<std::uint8_t>(4 * (8 * g + 7 - r) + qq);
          to_planes_23[32 * qq + 8 * g + r] = static_cast<std::uint8_t>(4 * (8 * g + 7 - r) + qq + 2);
        }
    for (int j = 0; j < 8; ++j)
      for (int g = 0; g < 8; ++g) {
        qword_bytes[8 * j + g] = static_cast<std::uint8_t>(8 * g + j);        // 8 x 8 byte transpose
        from_planes[8 * g + j] = static_cast<std::uint8_t>(8 * (7 - j) + g);  // and row-reversed
      }
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

// acc[s] ^= sum over i of clmul(T_{2 + s - i}, vec[i]): one 3 x 3 Toeplitz block product, the 64 x 64
// products of one plane parity (kImm: 0x00 even planes, low qwords; 0x10 odd, high qwords), in six
// products instead of nine (the three-way split for Toeplitz matrix-vector products of Fan and
// Hasan, IEEE Trans. Computers 56(2), 2007; exact in characteristic 2): P0 = (T0 + T1 + T2) v2,
// P1 = (T1 + T2 + T3) v1, P2 = (T2 + T3 + T4) v0, P3 = T1 (v1 + v2), P4 = T2 (v0 + v2), P5 = T3 (v0 + v1);
// rows P0 + P3 + P4, P1 + P3 + P5, P2 + P4 + P5. gen: the six generators of ToeplitzGenerators.
template <int kImm>
TRN_MT_JUMP_TARGET inline __m512i generator_product(std::uint64_t g, __m512i v) {
  return _mm512_clmulepi64_epi128(_mm512_set1_epi64(static_cast<long long>(g)), v, kImm);
}
template <int kImm>
TRN_MT_JUMP_TARGET inline void toeplitz3(__m512i* acc, const std::uint64_t* gen, const __m512i* vec) {
  const __m512i p0 = generator_product<kImm>(gen[0], vec[2]), p1 = generator_product<kImm>(gen[1], vec[1]),
                p2 = generator_product<kImm>(gen[2], vec[0]);
  const __m512i p3 = generator_product<kImm>(gen[3], _mm512_xor_si512(vec[1], vec[2]));
  const __m512i p4 = generator_product<kImm>(gen[4], _mm512_xor_si512(vec[0], vec[2]));
  const __m512i p5 = generator_product<kImm>(gen[5], _mm512_xor_si512(vec[0], vec[1]));
  acc[0] = _mm512_xor_si512(acc[0], _mm512_ternarylogic_epi64(p0, p3, p4, 0x96));
  acc[1] = _mm512_xor_si512(acc[1], _mm512_ternarylogic_epi64(p1, p3, p5, 0x96));
  acc[2] = _mm512_xor_si512(acc[2], _mm512_ternarylogic_epi64(p2, p4, p5, 0x96));
}

// Step 3 for one group of eight planes and one parity: S_s = sum_j G~[310 + s - j] P[j] (j = -1 .. 321;
// the 128-bit products of the parity's qwords), s = 0 .. 11, into sums[s][pg][parity].
//
// The coefficients form a 12 x 324 Toeplitz matrix; in blocks of 12 input groups, block k is the
// Toeplitz matrix of t_k(d) = G~[311 - 12 k + d], d = s - i. Karatsuba for Toeplitz matrix-vector
// products: [T1 T0; T2 T1] [v0; v1] = [Q + R; Q + U] with Q = T1 (v0 + v1), R = (T0 + T1) v1,
// U = (T2 + T1) v0 (carry-less multiplication is bilinear over GF(2)); applied twice, a block is nine
// 3 x 3 products of six carry-less products each (toeplitz3), 54 instead of 144. The generators' sums depend on the
// polynomial only (toeplitz_generators, once per polynomial). One pass per level-1 product a (its
// vector v0 + v1, v1 or v0 of each block), with the level-2 split inside the pass.
template <int kImm>
TRN_MT_JUMP_TARGET void toeplitz_sums(const std::uint64_t* base, const ToeplitzGenerators& tg, std::size_t pg,
                                      std::uint64_t (*sums)[4][2][8]) {
  __m512i half[3][kHalfBlock];  // the level-1 products Q, R, U (6 outputs each)
  for (std::size_t a = 0; a < 3; ++a) {
    __m512i q[kQuarterBlock], r[kQuarterBlock], u[kQuarterBlock], y[kHalfBlock], x[kQuarterBlock];
    for (std::size_t s = 0; s < kQuarterBlock; ++s) q[s] = r[s] = u[s] = _mm512_setzero_si512();
    for (std::size_t k = 0; k < kBlocks; ++k) {
      // Groups j = 12 k - 1 + i at base + 32 j (group -1 is zero, group 322 past the sequence too).
      const std::uint64_t* pk = base + 32 * (static_cast<std::ptrdiff_t>(kBlock * k) - 1);
      for (std::size_t i = 0; i < kHalfBlock; ++i) {
        const std::uint64_t* v0 = pk + 32 * i;
        const std::uint64_t* v1 = pk + 32 * (kHalfBlock + i);
        y[i] = a == 0 ? _mm512_xor_si512(_mm512_loadu_si512(v0), _mm512_loadu_si512(v1))
                      : _mm512_loadu_si512(a == 1 ? v1 : v0);
      }
      for (std::size_t i = 0; i < kQuarterBlock; ++i) x[i] = _mm512_xor_si512(y[i], y[kQuarterBlock + i]);
      toeplitz3<kImm>(q, tg.w[k][a][0], x);
      toeplitz3<kImm>(r, tg.w[k][a][1], y + kQuarterBlock);
      toeplitz3<kImm>(u, tg.w[k][a][2], y);
    }
    for (std::size_t s = 0; s < kQuarterBlock; ++s) {
      half[a][s] = _mm512_xor_si512(q[s], r[s]);
      half[a][kQuarterBlock + s] = _mm512_xor_si512(q[s], u[s]);
    }
  }
  constexpr std::size_t parity = kImm == 0 ? 0 : 1;
  for (std::size_t s = 0; s < kHalfBlock; ++s) {
    _mm512_store_si512(sums[s][pg][parity], _mm512_xor_si512(half[0][s], half[1][s]));
    _mm512_store_si512(sums[kHalfBlock + s][pg][parity], _mm512_xor_si512(half[0][s], half[2][s]));
  }
}

// out = the window J steps after w, for G~ = gt (kGWords words) with its Toeplitz generators tg.
TRN_MT_JUMP_TARGET void jump_avx512(const std::uint32_t* w, const ToeplitzGenerators& tg, std::uint32_t* out) {
  static const PermuteTables tables;
  // Per thread: the extended sequence (82 KB) and its planes, group-major: planes[(v + 1) * 32 + b] is
  // bits 64v .. 64v + 63 of plane b; group -1 is zero (the products that would read before x[0]).
  thread_local std::vector<std::uint32_t> x_buf(kSeqWords + 16);
  thread_local std::vector<std::uint64_t> planes_buf((kGroups + 2) * 32 + 8);  // groups -1 .. 322
  std::uint32_t* x = x_buf.data();
  std::uint64_t* planes = planes_buf.data();

  // 1. x[624 ..] by the recurrence x[n] = x[n - 227] ^ (y >> 1) ^ (y odd ? 0x9908b0df : 0),
  //    y = x[n - 624] & 0x80000000 | x[n - 623] & 0x7fffffff; 16 words read only older words.
  std::memcpy(x, w, kMt19937Words * sizeof(std::uint32_t));
  const __m512i lower = _mm512_set1_epi32(0x7fffffff), mag = _mm512_set1_epi32(static_cast<int>(0x9908b0dfu));
  for (std::size_t n = kMt19937Words; n < kSeqWords; n += 16) {
    const __m512i a = _mm512_loadu_si512(x + n - 624), b = _mm512_loadu_si512(x + n - 623),
                  c = _mm512_loadu_si512(x + n - 227);
    const __m512i y = _mm512_ternarylogic_epi32(lower, a, b, 0xac);  // lower ? b : a
    const __m512i odd = _mm512_slli_epi32(y, 31);
    const __m512i m = _mm512_and_si512(_mm512_srai_epi32(odd, 31), mag);
    _mm512_storeu_si512(x + n, _mm512_ternarylogic_epi32(c, _mm512_srli_epi32(y, 1), m, 0x96));  // 3-way XOR
  }

  // 2. Bit planes, 64 words per group: bytes q of the words in qwords (rows reversed), GFNI 8 x 8 bit
  //    transposes, then a byte transpose puts plane 8q + j in qword j.
  const __m512i to01 = _mm512_load_si512(tables.to_planes_01), to23 = _mm512_load_si512(tables.to_planes_23);
  const __m512i qbytes = _mm512_load_si512(tables.qword_bytes);
  const __m512i unit = _mm512_set1_epi64(0x8040201008040201ll);  // byte j = 1 << j
  std::memset(planes, 0, 32 * sizeof(std::uint64_t));
  std::memset(planes + (kGroups + 1) * 32, 0, 32 * sizeof(std::uint64_t));  // group 322 (step 3's last block)
  for (std::size_t v = 0; v < kGroups; ++v) {
    const std::uint32_t* src = x + 64 * v;
    const __m512i a0 = _mm512_loadu_si512(src), a1 = _mm512_loadu_si512(src + 16), a2 = _mm512_loadu_si512(src + 32),
                  a3 = _mm512_loadu_si512(src + 48);
    const __m512i e01 = _mm512_permutex2var_epi8(a0, to01, a1), e23 = _mm512_permutex2var_epi8(a0, to23, a1);
    const __m512i f01 = _mm512_permutex2var_epi8(a2, to01, a3), f23 = _mm512_permutex2var_epi8(a2, to23, a3);
    const __m512i z[4] = {_mm512_shuffle_i64x2(e01, f01, 0x44), _mm512_shuffle_i64x2(e01, f01, 0xee),
                          _mm512_shuffle_i64x2(e23, f23, 0x44), _mm512_shuffle_i64x2(e23, f23, 0xee)};
    std::uint64_t* dst = planes + (v + 1) * 32;
    for (int q = 0; q < 4; ++q) {
      const __m512i t = _mm512_gf2p8affine_epi64_epi8(unit, z[q], 0);
      _mm512_storeu_si512(dst + 8 * q, _mm512_permutexvar_epi8(qbytes, t));
    }
  }

  // 3. Product word sums S_s = sum_u G~_u P_b[s - u] (128-bit carry-less products), s = 310 .. 321,
  //    eight planes per VPCLMULQDQ (even planes from the low qwords, odd from the high), by Toeplitz
  //    blocks (toeplitz_sums).
  alignas(64) std::uint64_t sums[kSums][4][2][8];  // [s][plane group][even/odd][lane: lo, hi]
  for (std::size_t pg = 0; pg < 4; ++pg) {
    const std::uint64_t* base = planes + 32 + 8 * pg;  // group v at base + 32 v (v = -1: zeros)
    toeplitz_sums<0x00>(base, tg, pg, sums);
    toeplitz_sums<0x10>(base, tg, pg, sums);
  }

  // 4. Output planes: product words m = 311 .. 321 (lo of S_m ^ hi of S_{m-1}); plane bit k is product
  //    bit D - 1 + k, i.e. bit 32 of word 311 onwards.
  alignas(64) std::uint64_t out_planes[kOutGroups * 32];
  for (std::size_t b = 0; b < 32; ++b) {
    const std::size_t pg = b / 8, parity = b % 2, lane = (b % 8) / 2;
    std::uint64_t prod[kSums];  // prod[i] = product word 311 + i (i < 11)
    for (std::size_t i = 0; i + 1 < kSums; ++i)
      prod[i] = sums[i + 1][pg][parity][2 * lane] ^ sums[i][pg][parity][2 * lane + 1];
    for (std::size_t r = 0; r < kOutGroups; ++r) out_planes[32 * r + b] = (prod[r] >> 32) | (prod[r + 1] << 32);
  }

  // 5. Back to words: the inverse byte transpose with rows reversed, GFNI transposes, then the bytes of
  //    the 64 words interleaved.
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
  std::memcpy(out, words, kMt19937Words * sizeof(std::uint32_t));
}

}  // namespace

bool mt19937_jump_clmul_available() { return clmul_jump_available(); }

bool mt19937_jump_clmul(const Mt19937Window& w, const Gf2Poly& g, Mt19937Window& out) {
  if (!clmul_jump_available()) return false;
  for (std::size_t i = kD / 64; i < g.size(); ++i) {  // degree < D only
    const std::uint64_t high = i == kD / 64 ? g[i] >> (kD % 64) : g[i];
    if (high != 0) return false;
  }
  // G~ of the last polynomial, per thread (the streams' set-up jumps by one polynomial 8191 times).
  thread_local Gf2Poly last;
  thread_local std::vector<std::uint64_t> gt(kGWords);
  thread_local ToeplitzGenerators tg;
  if (last != g) {
    reversed_polynomial(g, gt.data());
    toeplitz_generators(gt.data(), tg);
    last = g;
  }
  jump_avx512(w.data(), tg, out.data());
  return true;
}

}  // namespace trn::rand
