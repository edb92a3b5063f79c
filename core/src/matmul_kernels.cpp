#include "matmul_kernels.hpp"

#include <immintrin.h>

#include <cmath>

#include "simd_util.hpp"
#include "trn/core/dtype.hpp"
#include "trn/core/error.hpp"

namespace trn::detail {

namespace {
inline void store_result(float* c, float s, bool accumulate) { *c = accumulate ? *c + s : s; }
}  // namespace

// ---- portable reference: scalar fma in the contract's order ----------------------------------------
void matmul_portable(const MatmulArgs& a) {
  constexpr int kNB = 64;  // lanes of n handled together (keeps s in a small array)
  float s[kNB];
  for (int m = 0; m < a.M; ++m) {
    for (int n0 = 0; n0 < a.N; n0 += kNB) {
      const int nb = a.N - n0 < kNB ? a.N - n0 : kNB;
      for (int j = 0; j < nb; ++j) s[j] = 0.0f;
      for (int k = 0; k < a.K; ++k) {
        const float av = a.A[k * a.lda + m];
        const float* b = a.B + k * a.ldb + n0;
        for (int j = 0; j < nb; ++j) s[j] = std::fma(av, b[j], s[j]);
      }
      float* c = a.C + m * a.ldc + n0;
      for (int j = 0; j < nb; ++j) store_result(c + j, s[j], a.accumulate);
    }
  }
}

void matmul_bf16_product_rounded(const MatmulArgs& a) {
  constexpr int kNB = 64;
  float s[kNB];
  for (int m = 0; m < a.M; ++m) {
    for (int n0 = 0; n0 < a.N; n0 += kNB) {
      const int nb = a.N - n0 < kNB ? a.N - n0 : kNB;
      for (int j = 0; j < nb; ++j) s[j] = 0.0f;
      for (int k = 0; k < a.K; ++k) {
        const float av = a.A[k * a.lda + m];
        const float* b = a.B + k * a.ldb + n0;
        for (int j = 0; j < nb; ++j) s[j] += bf16_to_f32(f32_to_bf16_rne(av * b[j]));
      }
      float* c = a.C + m * a.ldc + n0;
      for (int j = 0; j < nb; ++j) store_result(c + j, s[j], a.accumulate);
    }
  }
}

// ---- AVX2 + FMA: MR x 16 register block (MR <= 6: 12 accumulators + 2 B + 1 broadcast) -------
namespace {
__attribute__((target("avx2,fma"))) inline __m256i avx2_tail_mask(int n) {
  const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), idx);
}

template <int MR>
__attribute__((target("avx2,fma"))) void ukr_avx2(const MatmulArgs& a, const float* B, int m0, int n0, int nvalid) {
  const __m256i mk0 = avx2_tail_mask(nvalid);
  const __m256i mk1 = avx2_tail_mask(nvalid - 8);
  __m256 c0[MR], c1[MR];
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i) c0[i] = c1[i] = _mm256_setzero_ps();
  // Packed panels (matmul_pack_layout): contiguous, zero-padded, so the B loads need no mask.
  const float* A = a.A + std::int64_t{m0} * a.K;
  const int sa = a.pack.mr, sb = a.pack.nr;
  for (int k = 0; k < a.K; ++k) {
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
  }
}

template <int MR>
__attribute__((target("avx512f"))) void ukr_avx512(const MatmulArgs& a, const float* B, int m0, int n0, int nvalid) {
  const __mmask16 mk0 = nvalid >= 16 ? __mmask16(0xffff) : __mmask16((1u << nvalid) - 1u);
  const __mmask16 mk1 = nvalid >= 32 ? __mmask16(0xffff) : nvalid <= 16 ? __mmask16(0) : __mmask16((1u << (nvalid - 16)) - 1u);
  __m512 c0[MR], c1[MR];
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i) c0[i] = c1[i] = _mm512_setzero_ps();
  const float* A = a.A + std::int64_t{m0} * a.K;
  const int sa = a.pack.mr, sb = a.pack.nr;
  for (int k = 0; k < a.K; ++k) {
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
  }
}

// Driver: n-panels outer (the B panel stays in L1), m-blocks inner; MR-row edges use smaller MR.
// The B panel is either a slice of the packed operand or widened from SBUF into `panel` here.
using UkrFn = void (*)(const MatmulArgs&, const float*, int, int, int);
constexpr int kMaxPanelFloats = 128 * 32;  // K <= 128 (pmax) times the widest nr

void drive(const MatmulArgs& a, int MR, int NR, const UkrFn* ukr_by_rows) {
  if (a.pack.mr != MR || a.pack.nr != NR) throw Error("internal: matmul operands packed for another kernel");
  if (a.B == nullptr && a.K * NR > kMaxPanelFloats) throw Error("internal: moving panel larger than its buffer");
  alignas(64) float panel[kMaxPanelFloats];
  for (int n0 = 0; n0 < a.N; n0 += NR) {
    const int nv = a.N - n0 < NR ? a.N - n0 : NR;
    // a.B == nullptr: the panel is widened here (no offset is ever applied to a null pointer).
    const float* B = a.B != nullptr ? a.B + std::int64_t{n0} * a.K : nullptr;
    if (a.B == nullptr) {
      pack_moving_panel(a.moving, a.K, n0, nv, NR, panel);
      B = panel;
      // The next panel's rows are 128 lines in 128 partitions (likely L3, not in any prefetcher's
      // stream): request them now so they arrive while this panel is multiplied.
      if (n0 + NR < a.N) {
        const std::int64_t es = dtype_size(a.moving.dtype);
        for (int k = 0; k < a.K; ++k) prefetch_bytes(a.moving.base + k * a.moving.row_bytes + (n0 + NR) * es, NR * es);
      }
    }
    int m0 = 0;
    for (; m0 + MR <= a.M; m0 += MR) ukr_by_rows[MR](a, B, m0, n0, nv);
    if (m0 < a.M) ukr_by_rows[a.M - m0](a, B, m0, n0, nv);
  }
}

// The dtypes simd::load_widen16 handles.
bool widens_in_simd(DType t) { return t == DType::bf16 || t == DType::f16 || t == DType::f32 || t == DType::tf32; }

TRN_SIMD_WARNINGS_BEGIN
// Panel packers over simd::load_widen16, so every path gives the bits of load_row_f32 (the
// fallback for fp8).
__attribute__((target("avx512f,avx512bw,avx512vl"))) void pack_panel_avx512_32(const MovingSource& s, int K, int n0,
                                                                              int nv, float* out) {
  const __mmask16 m0 = nv >= 16 ? __mmask16(0xffff) : __mmask16((1u << nv) - 1u);
  const __mmask16 m1 = nv >= 32 ? __mmask16(0xffff) : nv <= 16 ? __mmask16(0) : __mmask16((1u << (nv - 16)) - 1u);
  const std::int64_t es = dtype_size(s.dtype);
  const std::byte* row = s.base + n0 * es;
  for (int k = 0; k < K; ++k, row += s.row_bytes, out += 32) {
    _mm512_storeu_ps(out, simd::load_widen16(s.dtype, row, m0));
    _mm512_storeu_ps(out + 16, simd::load_widen16(s.dtype, row + 16 * es, m1));
  }
}

// Stationary panels of 12 (the AVX-512 kernel's mr): per row, each panel's 12 values are one
// masked load, a widening and one masked 12-lane store; lanes past M load as zero, so the padding
// comes out zero. Rows are 128 partitions apart, so they are prefetched a few rows ahead.
__attribute__((target("avx512f,avx512bw,avx512vl"))) void pack_stationary_avx512_12(const MovingSource& s, int K,
                                                                                  int M, float* out) {
  constexpr int kMr = 12, kAhead = 8;
  const int panels = (M + kMr - 1) / kMr;
  const std::int64_t es = dtype_size(s.dtype);
  for (int k = 0; k < kAhead && k < K; ++k) prefetch_bytes(s.base + k * s.row_bytes, M * es);
  for (int k = 0; k < K; ++k) {
    if (k + kAhead < K) prefetch_bytes(s.base + (k + kAhead) * s.row_bytes, M * es);
    const std::byte* row = s.base + k * s.row_bytes;
    float* o = out + std::int64_t{k} * kMr;
    for (int p = 0; p < panels; ++p, o += std::int64_t{K} * kMr) {
      const int valid = M - p * kMr < kMr ? M - p * kMr : kMr;
      _mm512_mask_storeu_ps(o, 0x0fff, simd::load_widen16(s.dtype, row + p * kMr * es, static_cast<__mmask16>((1u << valid) - 1u)));
    }
  }
}
TRN_SIMD_WARNINGS_END
}  // namespace

bool pack_stationary_panels(const MovingSource& src, int K, int M, int mr, float* out) {
  if (mr != 12 || !widens_in_simd(src.dtype) || !simd::has_avx512()) return false;
  pack_stationary_avx512_12(src, K, M, out);
  return true;
}

void pack_moving_panel(const MovingSource& src, int K, int n0, int nv, int nr, float* out) {
  if (nr == 32 && widens_in_simd(src.dtype) && simd::has_avx512()) return pack_panel_avx512_32(src, K, n0, nv, out);
  const std::int64_t es = dtype_size(src.dtype);
  for (int k = 0; k < K; ++k) {
    float* o = out + std::int64_t{k} * nr;
    load_row_f32(src.dtype, src.base + k * src.row_bytes + n0 * es, 1, nv, o);
    for (int j = nv; j < nr; ++j) o[j] = 0.0f;
  }
}

namespace {
}  // namespace

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
