#include "matmul_kernels.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "simd_util.hpp"
#include "trn/core/dtype.hpp"
#include "trn/core/error.hpp"

namespace trn::detail {

namespace {
inline void store_result(float* c, float s, bool accumulate) { *c = accumulate ? *c + s : s; }

constexpr std::uint32_t kNegativeZeroBits = 0x80000000u;
inline bool is_negative_zero(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  return u == kNegativeZeroBits;
}

// The rows k a register block accumulates, as runs [k0, k1) in increasing k (the contract's order).
struct KRuns {
  int n = 0;
  bool partial = false;  // some rows skipped: -0 outputs are recomputed with all K rows
  std::int16_t k0[kSkipMaxK / 2 + 1] = {}, k1[kSkipMaxK / 2 + 1] = {};
};

inline void dense_runs(int K, KRuns& r) {
  r.n = 1;
  r.partial = false;
  r.k0[0] = 0;
  r.k1[0] = static_cast<std::int16_t>(K);
}

// A row k may be left out of a block when all its terms are exact signed zeros: the stationary
// columns all +-0 and the moving columns all finite, or the other way round.
inline void block_runs(int K, const RowScan& sa, const RowScan& sb, KRuns& r) {
  r.n = 0;
  r.partial = false;
  for (int w = 0; w < 2 && 64 * w < K; ++w) {
    const int base = 64 * w;
    const std::uint64_t valid = K - base >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (K - base)) - 1;
    std::uint64_t need = valid & ~((sa.zero[w] & sb.finite[w]) | (sb.zero[w] & sa.finite[w]));
    if (need != valid) r.partial = true;
    while (need != 0) {
      const int lo = __builtin_ctzll(need);
      const std::uint64_t from = need >> lo;
      const int len = ~from == 0 ? 64 - lo : __builtin_ctzll(~from);
      const auto k0 = static_cast<std::int16_t>(base + lo), k1 = static_cast<std::int16_t>(base + lo + len);
      if (r.n > 0 && r.k1[r.n - 1] == k0) {
        r.k1[r.n - 1] = k1;  // continues across the word boundary
      } else {
        r.k0[r.n] = k0;
        r.k1[r.n] = k1;
        ++r.n;
      }
      need = lo + len >= 64 ? 0 : need & ~(((std::uint64_t{1} << len) - 1) << lo);
    }
  }
}

// The rare path of skipping: output c[j] (row m, column n0 + j) came out -0, so the full sum is
// +-0 and, if accumulating, C_in was -0; recompute it with all K terms. Acol[k * sa] is the
// stationary value of row k, B[k * sb + j] the moving one.
template <class Step>
__attribute__((noinline)) void recompute_negative_zeros(const MatmulArgs& a, const float* Acol, std::int64_t sa,
                                                        const float* B, std::int64_t sb, float* c,
                                                        std::uint64_t lanes, Step step) {
  while (lanes != 0) {
    const int j = __builtin_ctzll(lanes);
    lanes &= lanes - 1;
    float s = 0.0f;
    for (int k = 0; k < a.K; ++k) s = step(Acol[k * sa], B[k * sb + j], s);
    store_result(c + j, s, a.accumulate);  // c[j] holds the -0 result, i.e. C_in when accumulating
  }
}

struct FmaStep {
  float operator()(float av, float b, float s) const { return std::fma(av, b, s); }
};
struct Bf16ProductStep {
  float operator()(float av, float b, float s) const { return s + bf16_to_f32(f32_to_bf16_rne(av * b)); }
};

// Row-major driver of the portable and product-rounded kernels: per output row m, blocks of
// kRowMajorGroupB columns, the rows of the block's runs in increasing k. Always inlined, so a caller
// compiled for FMA (matmul_portable_fma) gets the lane loop as vector FMAs.
template <class Step>
[[gnu::always_inline]] inline void drive_row_major(const MatmulArgs& a, Step step) {
  constexpr int kNB = kRowMajorGroupB;  // lanes of n handled together (keeps s in a small array)
  float s[kNB];
  KRuns runs;
  dense_runs(a.K, runs);
  for (int m = 0; m < a.M; ++m) {
    for (int n0 = 0; n0 < a.N; n0 += kNB) {
      const int nb = a.N - n0 < kNB ? a.N - n0 : kNB;
      if (a.skip) block_runs(a.K, a.a_scan[m / kRowMajorGroupA], a.b_scan[n0 / kNB], runs);
      for (int j = 0; j < nb; ++j) s[j] = 0.0f;
      for (int r = 0; r < runs.n; ++r)
        for (int k = runs.k0[r]; k < runs.k1[r]; ++k) {
          const float av = a.A[k * a.lda + m];
          const float* b = a.B + k * a.ldb + n0;
          for (int j = 0; j < nb; ++j) s[j] = step(av, b[j], s[j]);
        }
      float* c = a.C + m * a.ldc + n0;
      for (int j = 0; j < nb; ++j) store_result(c + j, s[j], a.accumulate);
      if (runs.partial) {
        std::uint64_t lanes = 0;
        for (int j = 0; j < nb; ++j)
          if (is_negative_zero(c[j])) lanes |= std::uint64_t{1} << j;
        if (lanes != 0) recompute_negative_zeros(a, a.A + m, a.lda, a.B + n0, a.ldb, c, lanes, step);
      }
    }
  }
}
}  // namespace

void scan_rows(const float* base, int K, std::int64_t group_stride, std::int64_t row_stride, int width,
               std::int64_t cols, std::int64_t groups, RowScan* out) {
  for (std::int64_t g = 0; g < groups; ++g) {
    RowScan r;
    const std::int64_t w = cols - g * width < width ? cols - g * width : width;
    const float* gb = base + g * group_stride;
    for (int k = 0; k < K; ++k) {
      const float* row = gb + k * row_stride;
      std::uint32_t magnitude_bits = 0, exponent_max = 0;
      for (std::int64_t j = 0; j < w; ++j) {
        std::uint32_t u;
        std::memcpy(&u, row + j, 4);
        magnitude_bits |= u & 0x7fffffffu;
        exponent_max = std::max(exponent_max, u & 0x7f800000u);
      }
      const std::uint64_t bit = std::uint64_t{1} << (k & 63);
      if (magnitude_bits == 0) r.zero[k >> 6] |= bit;
      if (exponent_max != 0x7f800000u) r.finite[k >> 6] |= bit;
    }
    out[g] = r;
  }
}

// ---- portable reference: scalar fma in the contract's order ----------------------------------------
bool cpu_has(MatmulIsa isa);
namespace {
// The same loop built for FMA: the baseline x86-64 build has no fma instruction, so std::fma there is
// a libm fmaf call per multiply-add (~30x slower: the fp8 double_row path of trn2+ runs this kernel,
// issue #30's bench sweep). Both round once per multiply-add in the same order: the same bits.
__attribute__((target("avx2,fma"))) void matmul_portable_fma(const MatmulArgs& a) { drive_row_major(a, FmaStep{}); }
}  // namespace
void matmul_portable(const MatmulArgs& a) {
  if (cpu_has(MatmulIsa::avx2)) return matmul_portable_fma(a);
  drive_row_major(a, FmaStep{});
}

void matmul_bf16_product_rounded(const MatmulArgs& a) { drive_row_major(a, Bf16ProductStep{}); }

// The block's PSUM rows are read (accumulate) or written only after its K loop, and they lie a
// PSUM partition apart (16 KiB: beyond any prefetcher, and all in the same few L1 sets): request
// their lines before the loop, so they arrive while it runs.
inline void prefetch_c_block(const MatmulArgs& a, int m0, int n0, int rows, int cols) {
  for (int i = 0; i < rows; ++i) {
    const float* c = a.C + (m0 + i) * a.ldc + n0;
    for (int j = 0; j < cols; j += 16) __builtin_prefetch(c + j, 1);
  }
}

// ---- AVX2 + FMA: MR x 16 register block (MR <= 6: 12 accumulators + 2 B + 1 broadcast) -------
namespace {
__attribute__((target("avx2,fma"))) inline __m256i avx2_tail_mask(int n) {
  const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), idx);
}

template <int MR>
__attribute__((target("avx2,fma"))) void ukr_avx2(const MatmulArgs& a, const float* B, int m0, int n0, int nvalid,
                                                  const KRuns& runs) {
  const __m256i mk0 = avx2_tail_mask(nvalid);
  const __m256i mk1 = avx2_tail_mask(nvalid - 8);
  __m256 c0[MR], c1[MR];
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i) c0[i] = c1[i] = _mm256_setzero_ps();
  prefetch_c_block(a, m0, n0, MR, 16);
  // Packed panels (matmul_pack_layout): contiguous, zero-padded, so the B loads need no mask.
  const float* A = a.A + std::int64_t{m0} * a.K;
  const int sa = a.pack.mr, sb = a.pack.nr;
  for (int r = 0; r < runs.n; ++r)
    for (int k = runs.k0[r]; k < runs.k1[r]; ++k) {
      const __m256 b0 = _mm256_loadu_ps(B + k * sb);
      const __m256 b1 = _mm256_loadu_ps(B + k * sb + 8);
      const float* ak = A + k * sa;
#pragma GCC unroll 16
      for (int i = 0; i < MR; ++i) {
        const __m256 av = _mm256_broadcast_ss(ak + i);
        c0[i] = _mm256_fmadd_ps(av, b0, c0[i]);
        c1[i] = _mm256_fmadd_ps(av, b1, c1[i]);
      }
    }
  const __m256i negative_zero = _mm256_set1_epi32(static_cast<int>(kNegativeZeroBits));
  const std::uint32_t valid = nvalid >= 16 ? 0xffffu : (1u << nvalid) - 1u;
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i) {
    float* c = a.C + (m0 + i) * a.ldc + n0;
    __m256 r0 = c0[i], r1 = c1[i];
    if (a.accumulate) {
      r0 = _mm256_add_ps(_mm256_maskload_ps(c, mk0), r0);
      r1 = _mm256_add_ps(_mm256_maskload_ps(c + 8, mk1), r1);
    }
    _mm256_maskstore_ps(c, mk0, r0);
    _mm256_maskstore_ps(c + 8, mk1, r1);
    if (runs.partial) {
      const auto lanes0 = static_cast<std::uint32_t>(_mm256_movemask_ps(
          _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_castps_si256(r0), negative_zero))));
      const auto lanes1 = static_cast<std::uint32_t>(_mm256_movemask_ps(
          _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_castps_si256(r1), negative_zero))));
      const std::uint32_t lanes = (lanes0 | lanes1 << 8) & valid;
      if (lanes != 0) recompute_negative_zeros(a, A + i, sa, B, sb, c, lanes, FmaStep{});
    }
  }
}

template <int MR>
__attribute__((target("avx512f"))) void ukr_avx512(const MatmulArgs& a, const float* B, int m0, int n0, int nvalid,
                                                   const KRuns& runs) {
  const __mmask16 mk0 = nvalid >= 16 ? __mmask16(0xffff) : __mmask16((1u << nvalid) - 1u);
  const __mmask16 mk1 = nvalid >= 32 ? __mmask16(0xffff) : nvalid <= 16 ? __mmask16(0) : __mmask16((1u << (nvalid - 16)) - 1u);
  __m512 c0[MR], c1[MR];
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i) c0[i] = c1[i] = _mm512_setzero_ps();
  prefetch_c_block(a, m0, n0, MR, 32);
  const float* A = a.A + std::int64_t{m0} * a.K;
  const int sa = a.pack.mr, sb = a.pack.nr;
  for (int r = 0; r < runs.n; ++r)
    for (int k = runs.k0[r]; k < runs.k1[r]; ++k) {
      const __m512 b0 = _mm512_loadu_ps(B + k * sb);
      const __m512 b1 = _mm512_loadu_ps(B + k * sb + 16);
      const float* ak = A + k * sa;
#pragma GCC unroll 16
      for (int i = 0; i < MR; ++i) {
        const __m512 av = _mm512_set1_ps(ak[i]);
        c0[i] = _mm512_fmadd_ps(av, b0, c0[i]);
        c1[i] = _mm512_fmadd_ps(av, b1, c1[i]);
      }
    }
  const __m512i negative_zero = _mm512_set1_epi32(static_cast<int>(kNegativeZeroBits));
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i) {
    float* c = a.C + (m0 + i) * a.ldc + n0;
    __m512 r0 = c0[i], r1 = c1[i];
    if (a.accumulate) {
      r0 = _mm512_add_ps(_mm512_maskz_loadu_ps(mk0, c), r0);
      r1 = _mm512_add_ps(_mm512_maskz_loadu_ps(mk1, c + 16), r1);
    }
    _mm512_mask_storeu_ps(c, mk0, r0);
    _mm512_mask_storeu_ps(c + 16, mk1, r1);
    if (runs.partial) {
      const std::uint32_t lanes =
          std::uint32_t{_mm512_mask_cmpeq_epi32_mask(mk0, _mm512_castps_si512(r0), negative_zero)} |
          std::uint32_t{_mm512_mask_cmpeq_epi32_mask(mk1, _mm512_castps_si512(r1), negative_zero)} << 16;
      if (lanes != 0) recompute_negative_zeros(a, A + i, sa, B, sb, c, lanes, FmaStep{});
    }
  }
}

// Driver: n-panels outer (the B panel stays in L1), m-blocks inner; MR-row edges use smaller MR.
// The B panel is either a slice of the packed operand or widened from SBUF into `panel` here.
using UkrFn = void (*)(const MatmulArgs&, const float*, int, int, int, const KRuns&);
constexpr int kMaxPanelFloats = 128 * 32;  // K <= 128 (pmax) times the widest nr

void drive(const MatmulArgs& a, int MR, int NR, const UkrFn* ukr_by_rows) {
  if (a.pack.mr != MR || a.pack.nr != NR) throw Error("internal: matmul operands packed for another kernel");
  if (a.B == nullptr && a.K * NR > kMaxPanelFloats) throw Error("internal: moving panel larger than its buffer");
  alignas(64) float panel[kMaxPanelFloats];
  KRuns runs;
  dense_runs(a.K, runs);
  RowScan panel_scan;
  for (int n0 = 0; n0 < a.N; n0 += NR) {
    const int nv = a.N - n0 < NR ? a.N - n0 : NR;
    // a.B == nullptr: the panel is widened here (no offset is ever applied to a null pointer).
    const float* B = a.B != nullptr ? a.B + std::int64_t{n0} * a.K : nullptr;
    if (a.B == nullptr) {
      pack_moving_panel(a.moving, a.K, n0, nv, NR, panel, a.skip && a.b_scan == nullptr ? &panel_scan : nullptr);
      B = panel;
      // The next panel's rows are 128 lines in 128 partitions (likely L3, not in any prefetcher's
      // stream): request them now so they arrive while this panel is multiplied.
      if (n0 + NR < a.N) {
        const std::int64_t es = dtype_size(a.moving.dtype);
        for (int k = 0; k < a.K; ++k) prefetch_bytes(a.moving.base + k * a.moving.row_bytes + (n0 + NR) * es, NR * es);
      }
    }
    const RowScan* b_scan = nullptr;
    if (a.skip) {
      if (a.b_scan != nullptr) {
        b_scan = a.b_scan + n0 / NR;
      } else {
        b_scan = &panel_scan;  // noted while packing
      }
    }
    for (int m0 = 0; m0 < a.M; m0 += MR) {
      if (b_scan != nullptr) block_runs(a.K, a.a_scan[m0 / MR], *b_scan, runs);
      const int rows = a.M - m0 < MR ? a.M - m0 : MR;  // MR-row edges use smaller MR
      ukr_by_rows[rows](a, B, m0, n0, nv, runs);
    }
  }
}

// The dtypes simd::load_widen16 handles.
bool widens_in_simd(DType t) { return t == DType::bf16 || t == DType::f16 || t == DType::f32 || t == DType::tf32; }

TRN_SIMD_WARNINGS_BEGIN
// Row k's flags from the lanes of a packed row (padding lanes are zero, so they count as zero and
// finite): is every lane +-0, is every lane finite.
__attribute__((target("avx512f"))) inline void note_row(RowScan& r, int k, __m512 v) {
  const __m512i u = _mm512_castps_si512(v);
  const __m512i exponent = _mm512_set1_epi32(0x7f800000);
  const bool zero = _mm512_test_epi32_mask(u, _mm512_set1_epi32(0x7fffffff)) == 0;
  const bool finite = _mm512_cmpeq_epi32_mask(_mm512_and_si512(u, exponent), exponent) == 0;
  r.zero[k >> 6] |= std::uint64_t{zero} << (k & 63);
  r.finite[k >> 6] |= std::uint64_t{finite} << (k & 63);
}

// Panel packers over simd::load_widen16, so every path gives the bits of load_row_f32 (the
// fallback for fp8). With `scan`, they also note the packed rows' flags.
__attribute__((target("avx512f,avx512bw,avx512vl"))) void pack_panel_avx512_32(const MovingSource& s, int K, int n0,
                                                                              int nv, float* out, RowScan* scan) {
  const __mmask16 m0 = nv >= 16 ? __mmask16(0xffff) : __mmask16((1u << nv) - 1u);
  const __mmask16 m1 = nv >= 32 ? __mmask16(0xffff) : nv <= 16 ? __mmask16(0) : __mmask16((1u << (nv - 16)) - 1u);
  const std::int64_t es = dtype_size(s.dtype);
  const std::byte* row = s.base + n0 * es;
  if (scan != nullptr) *scan = RowScan{};
  for (int k = 0; k < K; ++k, row += s.row_bytes, out += 32) {
    const __m512 v0 = simd::load_widen16(s.dtype, row, m0), v1 = simd::load_widen16(s.dtype, row + 16 * es, m1);
    _mm512_storeu_ps(out, v0);
    _mm512_storeu_ps(out + 16, v1);
    if (scan != nullptr) {
      // One vector per flag: |v| bits OR-ed (zero iff both are), exponents max-ed (all ones iff one is).
      const __m512i mag = _mm512_set1_epi32(0x7fffffff), exponent = _mm512_set1_epi32(0x7f800000);
      const __m512i u0 = _mm512_castps_si512(v0), u1 = _mm512_castps_si512(v1);
      const bool zero = _mm512_test_epi32_mask(_mm512_or_si512(u0, u1), mag) == 0;
      const bool finite = _mm512_cmpeq_epi32_mask(_mm512_max_epu32(_mm512_and_si512(u0, exponent), _mm512_and_si512(u1, exponent)),
                                                  exponent) == 0;
      scan->zero[k >> 6] |= std::uint64_t{zero} << (k & 63);
      scan->finite[k >> 6] |= std::uint64_t{finite} << (k & 63);
    }
  }
}

// Stationary panels of 12 (the AVX-512 kernel's mr): per row, each panel's 12 values are one
// masked load, a widening and one masked 12-lane store; lanes past M load as zero, so the padding
// comes out zero. Rows are 128 partitions apart, so they are prefetched a few rows ahead.
__attribute__((target("avx512f,avx512bw,avx512vl"))) void pack_stationary_avx512_12(const MovingSource& s, int K,
                                                                                  int M, float* out, RowScan* scan) {
  constexpr int kMr = 12, kAhead = 8;
  const int panels = (M + kMr - 1) / kMr;
  const std::int64_t es = dtype_size(s.dtype);
  for (int k = 0; k < kAhead && k < K; ++k) prefetch_bytes(s.base + k * s.row_bytes, M * es);
  if (scan != nullptr) std::fill(scan, scan + panels, RowScan{});
  for (int k = 0; k < K; ++k) {
    if (k + kAhead < K) prefetch_bytes(s.base + (k + kAhead) * s.row_bytes, M * es);
    const std::byte* row = s.base + k * s.row_bytes;
    float* o = out + std::int64_t{k} * kMr;
    for (int p = 0; p < panels; ++p, o += std::int64_t{K} * kMr) {
      const int valid = M - p * kMr < kMr ? M - p * kMr : kMr;
      const __m512 v = simd::load_widen16(s.dtype, row + p * kMr * es, static_cast<__mmask16>((1u << valid) - 1u));
      _mm512_mask_storeu_ps(o, 0x0fff, v);
      if (scan != nullptr) note_row(scan[p], k, v);  // lanes 12..15 load as zero
    }
  }
}
TRN_SIMD_WARNINGS_END
}  // namespace

bool pack_stationary_panels(const MovingSource& src, int K, int M, int mr, float* out, RowScan* scan) {
  if (mr != 12 || !widens_in_simd(src.dtype) || !simd::has_avx512()) return false;
  pack_stationary_avx512_12(src, K, M, out, scan);
  return true;
}

void pack_moving_panel(const MovingSource& src, int K, int n0, int nv, int nr, float* out, RowScan* scan) {
  if (nr == 32 && widens_in_simd(src.dtype) && simd::has_avx512()) return pack_panel_avx512_32(src, K, n0, nv, out, scan);
  const std::int64_t es = dtype_size(src.dtype);
  for (int k = 0; k < K; ++k) {
    float* o = out + std::int64_t{k} * nr;
    load_row_f32(src.dtype, src.base + k * src.row_bytes + n0 * es, 1, nv, o);
    for (int j = nv; j < nr; ++j) o[j] = 0.0f;
  }
  if (scan != nullptr) scan_rows(out, K, 0, nr, nr, nr, 1, scan);
}

namespace {

// matmul_narrow (matmul_kernels.hpp): BLK blocks of L output rows m (vector lanes over m), the K
// fmas of each lane in increasing k from +0, then C = accumulate ? C + s : s per element. The
// fmadd operand order is the micro-kernels' (stationary, moving, sum).
TRN_SIMD_WARNINGS_BEGIN
template <int BLK>
__attribute__((target("avx512f"))) void narrow_avx512(const float* A, std::int64_t lda, const float* B, std::int64_t ldb,
                                                      int K, int m0, int mb, int n, float* C, std::int64_t ldc,
                                                      bool accumulate) {
  __mmask16 mask[BLK];
  __m512 s[BLK];
#pragma GCC unroll 8
  for (int b = 0; b < BLK; ++b) {
    const int left = mb - 16 * b;
    mask[b] = left >= 16 ? __mmask16(0xffff) : left <= 0 ? __mmask16(0) : __mmask16((1u << left) - 1u);
    s[b] = _mm512_setzero_ps();
  }
  for (int k = 0; k < K; ++k) {
    const __m512 bk = _mm512_set1_ps(B[k * ldb + n]);
    const float* a = A + k * lda + m0;
#pragma GCC unroll 8
    for (int b = 0; b < BLK; ++b) s[b] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(mask[b], a + 16 * b), bk, s[b]);
  }
  alignas(64) float out[16 * BLK];
#pragma GCC unroll 8
  for (int b = 0; b < BLK; ++b) _mm512_store_ps(out + 16 * b, s[b]);
  for (int i = 0; i < mb; ++i) {
    float& c = C[(m0 + i) * ldc + n];
    c = accumulate ? c + out[i] : out[i];
  }
}

template <int BLK>
__attribute__((target("avx2,fma"))) void narrow_avx2(const float* A, std::int64_t lda, const float* B, std::int64_t ldb,
                                                     int K, int m0, int mb, int n, float* C, std::int64_t ldc,
                                                     bool accumulate) {
  __m256i mask[BLK];
  __m256 s[BLK];
#pragma GCC unroll 8
  for (int b = 0; b < BLK; ++b) {
    const int left = mb - 8 * b;
    alignas(32) int lanes[8];
    for (int l = 0; l < 8; ++l) lanes[l] = l < left ? -1 : 0;
    mask[b] = _mm256_load_si256(reinterpret_cast<const __m256i*>(lanes));
    s[b] = _mm256_setzero_ps();
  }
  for (int k = 0; k < K; ++k) {
    const __m256 bk = _mm256_set1_ps(B[k * ldb + n]);
    const float* a = A + k * lda + m0;
#pragma GCC unroll 8
    for (int b = 0; b < BLK; ++b) s[b] = _mm256_fmadd_ps(_mm256_maskload_ps(a + 8 * b, mask[b]), bk, s[b]);
  }
  alignas(32) float out[8 * BLK];
#pragma GCC unroll 8
  for (int b = 0; b < BLK; ++b) _mm256_store_ps(out + 8 * b, s[b]);
  for (int i = 0; i < mb; ++i) {
    float& c = C[(m0 + i) * ldc + n];
    c = accumulate ? c + out[i] : out[i];
  }
}
TRN_SIMD_WARNINGS_END

}  // namespace

bool matmul_narrow(MatmulIsa isa, const float* A, std::int64_t lda, const float* B, std::int64_t ldb, int K, int M, int N,
                   float* C, std::int64_t ldc, bool accumulate) {
  if (N > kNarrowMaxN) return false;
  if (isa == MatmulIsa::avx512 && simd::has_avx512()) {
    for (int n = 0; n < N; ++n)
      for (int m0 = 0; m0 < M; m0 += 128) {
        const int mb = M - m0 < 128 ? M - m0 : 128;
        if (mb <= 16)
          narrow_avx512<1>(A, lda, B, ldb, K, m0, mb, n, C, ldc, accumulate);
        else if (mb <= 32)
          narrow_avx512<2>(A, lda, B, ldb, K, m0, mb, n, C, ldc, accumulate);
        else if (mb <= 64)
          narrow_avx512<4>(A, lda, B, ldb, K, m0, mb, n, C, ldc, accumulate);
        else
          narrow_avx512<8>(A, lda, B, ldb, K, m0, mb, n, C, ldc, accumulate);
      }
    return true;
  }
  if (isa == MatmulIsa::avx2 && host_simd_available(HostSimd::avx2)) {
    for (int n = 0; n < N; ++n)
      for (int m0 = 0; m0 < M; m0 += 64) {
        const int mb = M - m0 < 64 ? M - m0 : 64;
        if (mb <= 8)
          narrow_avx2<1>(A, lda, B, ldb, K, m0, mb, n, C, ldc, accumulate);
        else if (mb <= 16)
          narrow_avx2<2>(A, lda, B, ldb, K, m0, mb, n, C, ldc, accumulate);
        else if (mb <= 32)
          narrow_avx2<4>(A, lda, B, ldb, K, m0, mb, n, C, ldc, accumulate);
        else
          narrow_avx2<8>(A, lda, B, ldb, K, m0, mb, n, C, ldc, accumulate);
      }
    return true;
  }
  return false;
}

void matmul_avx2(const MatmulArgs& a) {
  static constexpr UkrFn kUkr[] = {nullptr, ukr_avx2<1>, ukr_avx2<2>, ukr_avx2<3>, ukr_avx2<4>, ukr_avx2<5>, ukr_avx2<6>};
  drive(a, 6, 16, kUkr);
}

void matmul_avx512(const MatmulArgs& a) {
  static constexpr UkrFn kUkr[] = {nullptr,          ukr_avx512<1>, ukr_avx512<2>, ukr_avx512<3>, ukr_avx512<4>,
                                   ukr_avx512<5>,    ukr_avx512<6>, ukr_avx512<7>, ukr_avx512<8>, ukr_avx512<9>,
                                   ukr_avx512<10>,   ukr_avx512<11>, ukr_avx512<12>};
  drive(a, 12, 32, kUkr);
}

void pack_row_major_panels(const float* src, int K, int cols, int width, std::vector<float>& out) {
  const int panels = (cols + width - 1) / width;
  out.assign(static_cast<std::size_t>(panels) * K * width, 0.0f);
  for (int p = 0; p < panels; ++p) {
    const int c0 = p * width, nv = std::min(width, cols - c0);
    float* dst = out.data() + static_cast<std::size_t>(p) * K * width;
    for (int k = 0; k < K; ++k) std::copy_n(src + static_cast<std::int64_t>(k) * cols + c0, nv, dst + static_cast<std::int64_t>(k) * width);
  }
}

PackLayout matmul_pack_layout(MatmulIsa isa) {
  switch (isa) {
    case MatmulIsa::avx512: return {12, 32};
    case MatmulIsa::avx2: return {6, 16};
    default: return {};
  }
}

bool cpu_has(MatmulIsa isa) {
  switch (isa) {
    case MatmulIsa::avx512: return simd::has_avx512();
    case MatmulIsa::avx2: return host_simd_available(HostSimd::avx2);
    default: return true;
  }
}

bool matmul_dense_forced() {
  static const bool forced = [] {
    const char* e = std::getenv("TRN_MATMUL_DENSE");
    return e != nullptr && e[0] != '\0' && e[0] != '0';
  }();
  return forced;
}

MatmulIsa resolve_matmul_isa(MatmulIsa requested) {
  if (requested != MatmulIsa::automatic) return requested;
  if (cpu_has(MatmulIsa::avx512)) return MatmulIsa::avx512;
  if (cpu_has(MatmulIsa::avx2)) return MatmulIsa::avx2;
  return MatmulIsa::portable;
}

void run_matmul(MatmulIsa isa, const MatmulArgs& a) {
  switch (isa) {
    case MatmulIsa::avx512: matmul_avx512(a); break;
    case MatmulIsa::avx2: matmul_avx2(a); break;
    default: matmul_portable(a); break;
  }
}

}  // namespace trn::detail

namespace trn {
bool matmul_isa_available(MatmulIsa isa) { return detail::cpu_has(isa); }
std::string_view matmul_isa_name(MatmulIsa isa) {
  switch (isa) {
    case MatmulIsa::automatic: return "automatic";
    case MatmulIsa::portable: return "portable";
    case MatmulIsa::avx2: return "avx2";
    case MatmulIsa::avx512: return "avx512";
  }
  return "?";
}
}  // namespace trn
