#include "matmul_kernels.hpp"

#include <immintrin.h>

#include <cmath>

#include "simd_util.hpp"
#include "trn/core/dtype.hpp"
#include "trn/core/error.hpp"

namespace trn::detail {

bool cpu_has(MatmulIsa isa);

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
    const float* B = a.B + std::int64_t{n0} * a.K;
    if (a.B == nullptr) {
      pack_moving_panel(a.moving, a.K, n0, nv, NR, panel);
      B = panel;
      // The next panel's rows are 128 lines in 128 partitions (likely L3, not in any prefetcher's
      // stream): request them now so they arrive while this panel is multiplied.
      if (n0 + NR < a.N) {
        const std::int64_t at = std::int64_t{n0 + NR} * dtype_size(a.moving.dtype);
        const int lines = static_cast<int>((std::int64_t{NR} * dtype_size(a.moving.dtype) + 63) / 64);
        for (int k = 0; k < a.K; ++k)
          for (int l = 0; l < lines; ++l) __builtin_prefetch(a.moving.base + k * a.moving.row_bytes + at + 64 * l);
      }
    }
    int m0 = 0;
    for (; m0 + MR <= a.M; m0 += MR) ukr_by_rows[MR](a, B, m0, n0, nv);
    if (m0 < a.M) ukr_by_rows[a.M - m0](a, B, m0, n0, nv);
  }
}

TRN_SIMD_WARNINGS_BEGIN
// Panel packers. bf16 widening is an exact 16-bit shift, fp16 exact (simd::f16x16_to_f32) and
// fp32/tf32 a copy, so every path gives the bits of load_row_f32 (the fallback for fp8).
__attribute__((target("avx512f,avx512bw,avx512vl"))) void pack_panel_avx512_32(const MovingSource& s, int K, int n0,
                                                                              int nv, float* out) {
  const __mmask16 m0 = nv >= 16 ? __mmask16(0xffff) : __mmask16((1u << nv) - 1u);
  const __mmask16 m1 = nv >= 32 ? __mmask16(0xffff) : nv <= 16 ? __mmask16(0) : __mmask16((1u << (nv - 16)) - 1u);
  if (s.dtype == DType::bf16) {
    const std::byte* row = s.base + std::int64_t{n0} * 2;
    for (int k = 0; k < K; ++k, row += s.row_bytes, out += 32) {
      const auto* r = reinterpret_cast<const std::uint16_t*>(row);
      const __m512i lo = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m0, r));
      const __m512i hi = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m1, r + 16));
      _mm512_storeu_si512(out, _mm512_slli_epi32(lo, 16));
      _mm512_storeu_si512(out + 16, _mm512_slli_epi32(hi, 16));
    }
  } else if (s.dtype == DType::f16) {
    const std::byte* row = s.base + std::int64_t{n0} * 2;
    for (int k = 0; k < K; ++k, row += s.row_bytes, out += 32) {
      const auto* r = reinterpret_cast<const std::uint16_t*>(row);
      _mm512_storeu_ps(out, simd::f16x16_to_f32(_mm256_maskz_loadu_epi16(m0, r)));
      _mm512_storeu_ps(out + 16, simd::f16x16_to_f32(_mm256_maskz_loadu_epi16(m1, r + 16)));
    }
  } else {  // fp32 / tf32 storage: copy
    const std::byte* row = s.base + std::int64_t{n0} * 4;
    for (int k = 0; k < K; ++k, row += s.row_bytes, out += 32) {
      const auto* r = reinterpret_cast<const float*>(row);
      _mm512_storeu_ps(out, _mm512_maskz_loadu_ps(m0, r));
      _mm512_storeu_ps(out + 16, _mm512_maskz_loadu_ps(m1, r + 16));
    }
  }
}
// Stationary panels of 12 (the AVX-512 kernel's mr): per row, each panel's 12 values are one
// masked load, a widening and one masked 12-lane store; lanes past M load as zero, so the padding
// comes out zero. Rows are 128 partitions apart, so they are prefetched a few rows ahead.
__attribute__((target("avx512f,avx512bw,avx512vl"))) void pack_stationary_avx512_12(const MovingSource& s, int K,
                                                                                  int M, float* out) {
  constexpr int kMr = 12, kAhead = 8;
  const int panels = (M + kMr - 1) / kMr;
  const std::int64_t es = dtype_size(s.dtype), row_lines = (std::int64_t{M} * es + 63) / 64;
  auto prefetch_row = [&](int k) {
    if (k >= K) return;
    for (std::int64_t l = 0; l < row_lines; ++l) __builtin_prefetch(s.base + k * s.row_bytes + 64 * l);
  };
  for (int k = 0; k < kAhead; ++k) prefetch_row(k);
  for (int k = 0; k < K; ++k) {
    prefetch_row(k + kAhead);
    const std::byte* row = s.base + k * s.row_bytes;
    float* o = out + std::int64_t{k} * kMr;
    for (int p = 0; p < panels; ++p, o += std::int64_t{K} * kMr) {
      const int valid = M - p * kMr < kMr ? M - p * kMr : kMr;
      const __mmask16 m = static_cast<__mmask16>((1u << valid) - 1u);
      __m512 v;
      if (s.dtype == DType::bf16) {
        const __m256i h = _mm256_maskz_loadu_epi16(m, reinterpret_cast<const std::uint16_t*>(row) + p * kMr);
        v = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
      } else if (s.dtype == DType::f16) {
        v = simd::f16x16_to_f32(_mm256_maskz_loadu_epi16(m, reinterpret_cast<const std::uint16_t*>(row) + p * kMr));
      } else {  // fp32 / tf32 storage
        v = _mm512_maskz_loadu_ps(m, reinterpret_cast<const float*>(row) + p * kMr);
      }
      _mm512_mask_storeu_ps(o, 0x0fff, v);
    }
  }
}
TRN_SIMD_WARNINGS_END
}  // namespace

bool pack_stationary_panels(const MovingSource& src, int K, int M, int mr, float* out) {
  static const bool avx512 = cpu_has(MatmulIsa::avx512);
  const bool simple =
      src.dtype == DType::bf16 || src.dtype == DType::f16 || src.dtype == DType::f32 || src.dtype == DType::tf32;
  if (mr != 12 || !simple || !avx512) return false;
  pack_stationary_avx512_12(src, K, M, out);
  return true;
}

void pack_moving_panel(const MovingSource& src, int K, int n0, int nv, int nr, float* out) {
  const bool simple =
      src.dtype == DType::bf16 || src.dtype == DType::f16 || src.dtype == DType::f32 || src.dtype == DType::tf32;
  static const bool avx512 = cpu_has(MatmulIsa::avx512);
  if (nr == 32 && simple && avx512) return pack_panel_avx512_32(src, K, n0, nv, out);
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
    case MatmulIsa::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl");
    case MatmulIsa::avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
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
