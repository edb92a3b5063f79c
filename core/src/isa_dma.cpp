// DMA engines: dma_copy (HBM <-> SBUF, SBUF <-> SBUF) with dtype conversion through fp32,
// dma_transpose (trn2+), and the indirect dma_gather / dma_scatter (an int32 index tile names each
// HBM row; one descriptor per row: docs/cost-model.md section 3, s17/sparse). Semantics: ISA
// dma_copy / dma_transpose, NKI indirect DMA, ARCH3 (docs/references.md); modelling choices in
// docs/numerics.md.
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <type_traits>

#include "program_replay.hpp"
#include "commit_path.hpp"
#include "engine_util.hpp"
#include "simd_util.hpp"
#include "trn/core/error.hpp"

namespace trn {

namespace {
TRN_SIMD_WARNINGS_BEGIN
// out[i * ld_out + j] = in[j * ld_in + i] for a 16 x 16 block of floats (exact data movement).
__attribute__((target("avx512f"))) void transpose16x16(const float* in, std::int64_t ld_in, float* out,
                                                       std::int64_t ld_out) {
  __m512 r[16], t[16];
  for (int i = 0; i < 16; ++i) r[i] = _mm512_loadu_ps(in + i * ld_in);
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  for (int i = 0; i < 4; ++i) {
    r[4 * i] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
    r[4 * i + 1] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
    r[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
    r[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) {
      t[j + 8 * i] = _mm512_shuffle_f32x4(r[j + 8 * i], r[j + 4 + 8 * i], 0x88);
      t[j + 4 + 8 * i] = _mm512_shuffle_f32x4(r[j + 8 * i], r[j + 4 + 8 * i], 0xDD);
    }
  for (int j = 0; j < 8; ++j) {
    r[j] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0x88);
    r[j + 8] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0xDD);
  }
  for (int i = 0; i < 16; ++i) _mm512_storeu_ps(out + i * ld_out, r[i]);
}
TRN_SIMD_WARNINGS_END

TRN_SIMD_WARNINGS_BEGIN
// Partitions of one or two 4-byte elements' stride in HBM (a plane of an interleaved complex array
// with the elements on partitions, as trnfft loads and stores them) against dense on-chip rows of
// the same dtype: 16 partitions x 16 elements at a time, every HBM access a run of 16 (or 32, even
// lanes) elements, through the register transpose. Bit copies, as the row-by-row element loop;
// stores take this path only when no two elements share an HBM address.
__attribute__((target("avx512f"))) inline __m512 load_partitions16(const float* p, int pstride_elems) {
  if (pstride_elems == 1) return _mm512_loadu_ps(p);
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  return _mm512_permutex2var_ps(_mm512_loadu_ps(p), even, _mm512_maskz_loadu_ps(0x7fff, p + 16));
}
__attribute__((target("avx512f"))) inline void store_partitions16(float* p, int pstride_elems, __m512 v) {
  if (pstride_elems == 1) return _mm512_storeu_ps(p, v);
  const __m512i lo = _mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
  const __m512i hi = _mm512_setr_epi32(8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15);
  _mm512_mask_storeu_ps(p, 0x5555, _mm512_permutexvar_ps(lo, v));
  _mm512_mask_storeu_ps(p + 16, 0x5555, _mm512_permutexvar_ps(hi, v));
}

// One 16 x 16 block: HBM (partition step ps, element step fs) to on-chip rows (row step ldc), or back.
__attribute__((target("avx512f"))) void partition_block_load(const float* hp, int ps, std::int64_t fs, float* cp,
                                                             std::int64_t ldc) {
  alignas(64) float block[16 * 16];
  for (int j = 0; j < 16; ++j) _mm512_store_ps(block + 16 * j, load_partitions16(hp + j * fs, ps));
  transpose16x16(block, 16, cp, ldc);
}
__attribute__((target("avx512f"))) void partition_block_store(float* hp, int ps, std::int64_t fs, const float* cp,
                                                              std::int64_t ldc) {
  alignas(64) float block[16 * 16];
  transpose16x16(cp, ldc, block, 16);
  for (int j = 0; j < 16; ++j) store_partitions16(hp + j * fs, ps, _mm512_load_ps(block + 16 * j));
}

// The 2-byte form of a load (bf16/fp16 B of a column-major GEMM: partitions are consecutive
// elements, the free axis a column stride apart): 32 partitions are 16 pairs, each pair one 4-byte
// word, so a 32 x 16 block is the 16 x 16 word transpose of 16 column runs of 64 bytes; each
// transposed pair row is then split into its two partitions' rows (low halves: the even
// partition). Bit copies, as the row-by-row element loop (which read each column's cache line
// once per partition, 4 KiB apart).
__attribute__((target("avx512f"))) void partition_block_load16(const std::uint16_t* hp, std::int64_t fs,
                                                               std::uint16_t* cp, std::int64_t ldc) {
  alignas(64) float block[16 * 16], pairs[16 * 16];
  for (int j = 0; j < 16; ++j) _mm512_store_ps(block + 16 * j, _mm512_loadu_ps(hp + j * fs));
  transpose16x16(block, 16, pairs, 16);
  for (int i = 0; i < 16; ++i) {
    const __m512i v = _mm512_load_si512(pairs + 16 * i);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(cp + 2 * i * ldc), _mm512_cvtepi32_epi16(v));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(cp + (2 * i + 1) * ldc),
                        _mm512_cvtepi32_epi16(_mm512_srli_epi32(v, 16)));
  }
}

bool dma_partition_columns16(const Tile& dst, const Tile& src) {
  if (src.mem != MemSpace::hbm || !dst.on_chip() || dst.dtype != src.dtype || dtype_size(src.dtype) != 2) return false;
  if (src.ndim != 1 || src.partition_stride != 2 || !detail::free_contiguous_of(dst) || !simd::has_avx512()) return false;
  const std::int64_t P = src.partitions, F = src.size[0], fs = src.stride[0];
  if (P < 32 || F < 16) return false;
  const std::int64_t ldc = dst.partition_stride / 2;
  const auto* hb = reinterpret_cast<const std::uint16_t*>(src.base);
  auto* cb = reinterpret_cast<std::uint16_t*>(dst.base);
  for (std::int64_t p0 = 0; p0 < P; p0 += 32) {
    const std::int64_t np = std::min<std::int64_t>(32, P - p0);
    for (std::int64_t f0 = 0; f0 < F; f0 += 16) {
      const std::int64_t nf = std::min<std::int64_t>(16, F - f0);
      const std::uint16_t* hp = hb + p0 + f0 * fs;  // partition p0, element f0
      std::uint16_t* cp = cb + p0 * ldc + f0;
      if (np == 32 && nf == 16) {
        partition_block_load16(hp, fs, cp, ldc);
        continue;
      }
      for (std::int64_t q = 0; q < np; ++q)
        for (std::int64_t j = 0; j < nf; ++j) cp[q * ldc + j] = hp[q + j * fs];
    }
  }
  return true;
}

// One run of F elements (HBM element step fs) of every partition against F consecutive on-chip
// columns, 16 partitions x 16 elements at a time.
void partition_columns_run(float* hb, int ps, std::int64_t P, std::int64_t F, std::int64_t fs, float* cb,
                           std::int64_t ldc, bool load) {
  for (std::int64_t p0 = 0; p0 < P; p0 += 16) {
    const std::int64_t np = std::min<std::int64_t>(16, P - p0);
    for (std::int64_t f0 = 0; f0 < F; f0 += 16) {
      const std::int64_t nf = std::min<std::int64_t>(16, F - f0);
      float* hp = hb + p0 * ps + f0 * fs;  // partition p0, element f0
      float* cp = cb + p0 * ldc + f0;
      if (np == 16 && nf == 16) {
        if (load)
          partition_block_load(hp, ps, fs, cp, ldc);
        else
          partition_block_store(hp, ps, fs, cp, ldc);
        continue;
      }
      for (std::int64_t q = 0; q < np; ++q)
        for (std::int64_t j = 0; j < nf; ++j) {
          float* x = hp + q * ps + j * fs;
          float* y = cp + q * ldc + j;
          std::memcpy(load ? y : x, load ? x : y, 4);
        }
    }
  }
}

// Partitions one or two 4-byte elements apart in HBM against dense on-chip rows. The HBM side's
// free pattern is folded first (a run of consecutive 128 x 128 row-major blocks read transposed,
// trnsparse's BSR A loads, folds to one run of stride 128); a load may have several runs (each
// its own 16 x 16 block loop, columns in access-pattern order), a store one run whose elements
// all have their own addresses. The same bytes as the row-by-row element loop: HBM and SBUF are
// different memories, so the order of the copies does not matter.
bool dma_partition_columns(const Tile& dst, const Tile& src) {
  // Both forms need >= 16 partitions (the 2-byte one 32); the two tiles have the same count. Tested
  // first: nearly every short DMA (a ddot_'s, a dgemm_ 8^3's) has fewer.
  if (src.partitions < 16) return false;
  if (dma_partition_columns16(dst, src)) return true;
  const bool load = src.mem == MemSpace::hbm && dst.on_chip();
  const Tile& h = load ? src : dst;  // the HBM side
  const Tile& c = load ? dst : src;  // the on-chip side
  if (dst.dtype != src.dtype || dtype_size(src.dtype) != 4 || !simd::has_avx512()) return false;
  if (h.mem != MemSpace::hbm || !c.on_chip() || !detail::free_contiguous_of(c) || c.partition_stride % 4 != 0) return false;
  const int ps = h.partition_stride == 4 ? 1 : h.partition_stride == 8 ? 2 : 0;
  if (ps == 0 || h.partitions < 16) return false;
  std::int64_t size[kMaxFreeDims], stride[kMaxFreeDims];
  const int nd = detail::fold_free_dims(h, size, stride);
  if (nd == 0 || (nd > 1 && !load)) return false;
  const int inner = nd - 1;
  const std::int64_t P = h.partitions, F = size[inner], fs = stride[inner];
  if (F < 16) return false;
  if (!load && (fs <= 0 || fs < P * ps)) return false;  // every (partition, element) its own address
  const std::int64_t ldc = c.partition_stride / 4;
  auto* hb = reinterpret_cast<float*>(h.base);
  auto* cb = reinterpret_cast<float*>(c.base);
  std::int64_t idx[kMaxFreeDims] = {0, 0, 0, 0}, outer = 1;
  for (int d = 0; d < inner; ++d) outer *= size[d];
  for (std::int64_t o = 0; o < outer; ++o) {
    std::int64_t off = 0;
    for (int d = 0; d < inner; ++d) off += idx[d] * stride[d];
    partition_columns_run(hb + off, ps, P, F, fs, cb + o * F, ldc, load);
    for (int d = inner - 1; d >= 0; --d) {
      if (++idx[d] < size[d]) break;
      idx[d] = 0;
    }
  }
  return true;
}
TRN_SIMD_WARNINGS_END

[[gnu::cold, gnu::noinline]] void check_dma_endpoint_checked(std::string_view instr, std::string_view operand, const Tile& t, const HardwareSpec& h) {
  detail::require_nonempty(instr, operand, t);
  // PSUM is not a DMA endpoint: "you cannot move data directly from PSUM to HBM" (KOPT); the
  // emulator also refuses HBM -> PSUM so that PSUM is written only by engines that own it.
  detail::require_mem(instr, operand, t, {MemSpace::hbm, MemSpace::sbuf});
  // A partition broadcast reads one physical partition, whatever its logical partition count.
  const std::int32_t physical = t.is_partition_broadcast() ? 1 : t.partitions;
  if (t.on_chip() && t.partition_start + physical > h.pmax)
    throw LimitError(std::string(instr), std::string(operand), "partition end", t.partition_start + physical, "pmax",
                     h.pmax, h.name);
  if (t.ndim > h.access_pattern_max_dims)
    throw LimitError(std::string(instr), std::string(operand), "free dimensions", t.ndim, "access-pattern dims",
                     h.access_pattern_max_dims, h.name);
}

// The checks above as one inline test of the whole condition (every DMA's path), the checked form
// only when it fails: the same conditions, order and errors (as engine_util.hpp's require_*).
inline bool dma_endpoint_ok(const Tile& t, const HardwareSpec& h) {
  const std::int32_t physical = t.is_partition_broadcast() ? 1 : t.partitions;
  return t.partitions >= 1 && t.base != nullptr && detail::free_size_of(t) >= 1 &&
         (t.mem == MemSpace::hbm || (t.mem == MemSpace::sbuf && t.partition_start + physical <= h.pmax)) &&
         t.ndim <= h.access_pattern_max_dims;
}
inline void check_dma_endpoint(std::string_view instr, std::string_view operand, const Tile& t, const HardwareSpec& h) {
  if (!dma_endpoint_ok(t, h)) [[unlikely]]
    check_dma_endpoint_checked(instr, operand, t, h);
}

// dma_copy's operand checks in order, each throwing its own error: run only when the whole
// condition (dma_copy_ok) fails, so one of them throws.
[[gnu::cold, gnu::noinline]] void check_dma_copy_checked(const Tile& dst, const Tile& src, const HardwareSpec& h) {
  const std::string_view instr = "dma_copy";
  check_dma_endpoint(instr, "src", src, h);
  check_dma_endpoint(instr, "dst", dst, h);
  detail::require_physical_partitions(instr, "dst", dst);
  detail::require_same_partitions(instr, "src", src, "dst", dst);
  detail::require_same_free_size(instr, "src", src, "dst", dst);
  if (dst.dtype == DType::f8e4m3fn && !h.fp8_e4m3fn_native && dst.on_chip())
    throw NotSupportedError(instr, "dst dtype float8_e4m3fn (OCP) on chip", h.name);
}
// Every condition check_dma_copy_checked tests, as one expression (every DMA's path: the checks as
// separate inline tests were ~1/3 of dma_copy's own ~130 host instructions, session 24).
inline bool dma_copy_ok(const Tile& dst, const Tile& src, const HardwareSpec& h) {
  return dma_endpoint_ok(src, h) && dma_endpoint_ok(dst, h) && !dst.is_partition_broadcast() &&
         src.partitions == dst.partitions && detail::free_size_of(src) == detail::free_size_of(dst) &&
         !(dst.dtype == DType::f8e4m3fn && !h.fp8_e4m3fn_native && dst.on_chip());
}

void describe_dma(Instruction& ins, const Tile& dst, const Tile& src) {
  detail::describe(ins, dst, src);
  // For the DMA cost model: bytes per partition row of the transfer (efficiency curve input).
  ins.free_elems = detail::free_size_of(src) * detail::elem_bytes(src.dtype);
}
}  // namespace

void NeuronCore::dma_copy(const Tile& dst, const Tile& src) {
  if (detail::replay::recording_anywhere()) [[unlikely]]
    detail::replay::note_dma_copy(*this, dst, src);
  if (!dma_copy_ok(dst, src, *hw_)) [[unlikely]]
    check_dma_copy_checked(dst, src, *hw_);
  Instruction& ins = record(Engine::dma, Opcode::dma_copy);
  describe_dma(ins, dst, src);
  if (!executes()) return commit_instruction();
  if (src.dtype == DType::f32 && src.ndim == 1 && src.partition_stride == 4 && src.partitions > 1) {
    // A transposed fp32 view (HbmTensor::tile_transposed: partitions are consecutive floats).
    // Gather kBlock partitions at a time into rows (16 x 16 register transposes where the CPU has
    // AVX-512), so that every read is a contiguous run of floats, then store each gathered row
    // (a bit copy for an fp32 destination, the RNE cast otherwise).
    constexpr std::int32_t kBlock = 16;
    const std::int64_t F = detail::free_size_of(src), fstride = src.size[0] > 1 ? src.stride[0] : 0;
    if (F == 1 && dst.dtype == DType::f32) {
      // One element per partition (a short vector laid out down the partitions): element 0 of
      // row q is at base + q * partition_stride on both sides, and an fp32 store is a bit copy.
      for (std::int32_t q = 0; q < src.partitions; ++q)
        std::memcpy(dst.base + std::int64_t{q} * dst.partition_stride, src.base + std::int64_t{q} * 4, 4);
      return commit_instruction();
    }
    const std::int64_t ld = (F + 15) / 16 * 16 + 16;  // padded: the 16 rows must not alias in L1
    float* rows = detail::scratch_f32(0, static_cast<std::size_t>(kBlock * ld));
    for (std::int32_t p0 = 0; p0 < src.partitions; p0 += kBlock) {
      const std::int32_t np = std::min(kBlock, src.partitions - p0);
      const float* col0 = reinterpret_cast<const float*>(src.base) + p0;
      std::int64_t f = 0;
      if (np == kBlock && fstride != 0 && simd::has_avx512())
        for (; f + 16 <= F; f += 16) transpose16x16(col0 + f * fstride, fstride, rows + f, ld);
      for (; f < F; ++f) {
        const float* col = col0 + f * fstride;
        for (std::int32_t q = 0; q < np; ++q) rows[q * ld + f] = col[q];
      }
      for (std::int32_t q = 0; q < np; ++q) detail::store_row(dst, p0 + q, rows + q * ld, Rounding::nearest_even, nullptr);
    }
    return commit_instruction();
  }
  if (dst.dtype == src.dtype) {
    // (Stride-2 runs against dense rows, trnfft's interleaved planes, take copy_all_rows_bits' whole-row
    // stride-2 copies: the bytes of the former copy_rows_stride2_bits, which required HBM and SBUF, two
    // memories whose bytes cannot overlap, so its per-row overlap test was the only difference.)
    if (dma_partition_columns(dst, src)) return commit_instruction();
    detail::copy_all_rows_bits(dst, src);
  } else {
    // "first casting from src.dtype to float32, then from float32 to dst.dtype" (RNE).
    // A contiguous fp32 source row is already the fp32 intermediate: convert from it directly.
    const bool direct = src.dtype == DType::f32 && detail::free_contiguous_of(src);
    float* row = direct ? nullptr : detail::scratch_f32(0, static_cast<std::size_t>(detail::free_size_of(src)));
    for (std::int32_t p = 0; p < src.partitions; ++p) {
      const float* v = row;
      if (direct)
        v = reinterpret_cast<const float*>(src.base + std::int64_t{p} * src.partition_stride);
      else
        detail::load_row(src, p, row);
      detail::store_row(dst, p, v, Rounding::nearest_even, nullptr);
    }
  }
  commit_instruction();
}

namespace {
// Indirect DMA (dma_gather / dma_scatter): the operands' checks.
void check_indirect(std::string_view instr, const Tile& table, const Tile& on_chip, const Tile& index,
                            const HardwareSpec& h) {
  detail::require_nonempty(instr, "table", table);
  detail::require_mem(instr, "table", table, {MemSpace::hbm});
  check_dma_endpoint(instr, "on-chip", on_chip, h);
  check_dma_endpoint(instr, "index", index, h);
  detail::require_mem(instr, "on-chip", on_chip, {MemSpace::sbuf});
  detail::require_mem(instr, "index", index, {MemSpace::sbuf});
  detail::require_physical_partitions(instr, "on-chip", on_chip);
  detail::require_physical_partitions(instr, "index", index);
  detail::require_same_partitions(instr, "index", index, "on-chip", on_chip);
  if (index.dtype != DType::i32 || index.ndim != 1)
    throw UsageError(instr, "index", "indirect DMA indices are an int32 tile with one free dimension");
  if (on_chip.dtype != table.dtype) throw UsageError(instr, "table", "indirect DMA does not convert dtypes");
  if (!table.free_contiguous() || !on_chip.free_contiguous())
    throw UsageError(instr, "table", "each row (and the on-chip side) must be one dense run");
  const std::int64_t E = table.free_size(), K = index.free_size();
  if (on_chip.free_size() != K * E)
    throw LimitError(std::string(instr), "on-chip", "free size", on_chip.free_size(), "index count x row length",
                     K * E, h.name);
}

// Every index names a table row (executing runs only: a timing-only run holds no index values).
// The checked form, partition by partition: the error names the first failing partition's lowest
// or highest index.
[[gnu::cold, gnu::noinline]] void check_indices_checked(std::string_view instr, const Tile& table, const Tile& index,
                                                        std::int64_t index_base) {
  const std::int64_t R = table.partitions, K = index.free_size(), step = index.stride[0];
  for (std::int32_t p = 0; p < index.partitions; ++p) {
    const auto* ip = reinterpret_cast<const std::int32_t*>(index.base + std::int64_t{p} * index.partition_stride);
    std::int32_t lo = ip[0], hi = ip[0];
    for (std::int64_t k = 1; k < K; ++k) {
      lo = std::min(lo, ip[k * step]);
      hi = std::max(hi, ip[k * step]);
    }
    if (lo - index_base < 0 || hi - index_base >= R)
      throw UsageError(instr, "index", "row " + std::to_string(lo - index_base < 0 ? lo : hi) + " - " +
                                           std::to_string(index_base) + " outside the table's " + std::to_string(R) +
                                           " rows (oob_mode error)");
  }
}

// The same test over all indices at once (every gather's path): the lowest and highest index of
// the whole tile, the checked form only when one lies outside the table (then it throws the same
// error for the same partition). One index per partition (a level-set gather of one row per
// partition) as a flat loop down the partitions.
void check_indices(std::string_view instr, const Tile& table, const Tile& index, std::int64_t index_base) {
  const std::int64_t K = index.free_size(), step = index.stride[0], ps = index.partition_stride;
  std::int32_t lo = *reinterpret_cast<const std::int32_t*>(index.base), hi = lo;
  if (K == 1) {
    for (std::int32_t p = 1; p < index.partitions; ++p) {
      const std::int32_t v = *reinterpret_cast<const std::int32_t*>(index.base + std::int64_t{p} * ps);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  } else {
    // A dense index row (step 1, every library's int32 indices) as its own loop, so that the
    // compiler vectorises the min / max (host speed only).
    auto rows = [&](auto unit) {
      const std::int64_t s = decltype(unit)::value ? 1 : step;
      for (std::int32_t p = 0; p < index.partitions; ++p) {
        const auto* ip = reinterpret_cast<const std::int32_t*>(index.base + std::int64_t{p} * ps);
        std::int32_t l = lo, h = hi;
        for (std::int64_t k = 0; k < K; ++k) {
          l = std::min(l, ip[k * s]);
          h = std::max(h, ip[k * s]);
        }
        lo = l;
        hi = h;
      }
    };
    if (step == 1)
      rows(std::true_type{});
    else
      rows(std::false_type{});
  }
  if (lo - index_base < 0 || hi - index_base >= table.partitions) [[unlikely]]
    check_indices_checked(instr, table, index, index_base);
}

// The trace record: the moved bytes (not the table's hull), one descriptor per row.
void describe_indirect(Instruction& ins, const Tile& table, const Tile& on_chip, const Tile& index, bool to_table) {
  const std::int64_t rows = std::int64_t{index.partitions} * index.free_size();
  const std::int64_t bytes = on_chip.free_size() * on_chip.partitions * dtype_size(on_chip.dtype);
  ins.in_dtype = ins.out_dtype = on_chip.dtype;
  ins.partitions = on_chip.partitions;
  ins.free_elems = table.free_size() * dtype_size(table.dtype);  // bytes per descriptor
  ins.inputs = 2;
  ins.bytes_read = ins.bytes_written = bytes;
  ins.contiguous = false;
  ins.subop = kSubopIndirectDma;
  ins.declared_cycles = static_cast<double>(rows);
  ins.add_region(detail::region_inline(to_table ? table : on_chip, true));
  ins.add_region(detail::region_inline(to_table ? on_chip : table, false));
  ins.add_region(detail::region_inline(index, false));
}

// Moves every row: (p, k) order, a row's bytes at a time (4 and 8 bytes as one word).
// One index per partition and a row of one 4- or 8-byte word (a level-set SpSV's gathers): the
// same (p) order and bytes as the loop below, as one flat loop down the partitions that prefetches
// the row kAhead partitions ahead (the loop below prefetches within a partition's K rows only, so
// with K = 1 no miss overlapped another; ~48 host instructions per partition went to its set-up).
template <bool ToTable, class W>
void move_one_row_per_partition(const Tile& table, const Tile& on_chip, const Tile& index, std::int64_t index_base) {
  const std::int64_t ts = table.partition_stride, ips = index.partition_stride, cps = on_chip.partition_stride;
  const std::int32_t P = index.partitions;
  const auto row = [&](std::int32_t p) {
    return table.base + (*reinterpret_cast<const std::int32_t*>(index.base + std::int64_t{p} * ips) - index_base) * ts;
  };
  constexpr std::int32_t kAhead = 16;
  for (std::int32_t p = 0; p < std::min(P, kAhead); ++p) __builtin_prefetch(row(p), ToTable ? 1 : 0);
  for (std::int32_t p = 0; p < P; ++p) {
    if (p + kAhead < P) __builtin_prefetch(row(p + kAhead), ToTable ? 1 : 0);
    std::byte* t = row(p);
    std::byte* c = on_chip.base + std::int64_t{p} * cps;
    if constexpr (ToTable)
      std::memcpy(t, c, sizeof(W));
    else
      std::memcpy(c, t, sizeof(W));
  }
}

template <bool ToTable>
void move_rows(const Tile& table, const Tile& on_chip, const Tile& index, std::int64_t index_base) {
  const std::int64_t K = index.free_size(), step = index.stride[0];
  const std::int64_t row_bytes = table.free_size() * dtype_size(table.dtype), ts = table.partition_stride;
  if (K == 1 && row_bytes == 4) return move_one_row_per_partition<ToTable, std::uint32_t>(table, on_chip, index, index_base);
  if (K == 1 && row_bytes == 8) return move_one_row_per_partition<ToTable, std::uint64_t>(table, on_chip, index, index_base);
  for (std::int32_t p = 0; p < index.partitions; ++p) {
    const auto* ip = reinterpret_cast<const std::int32_t*>(index.base + std::int64_t{p} * index.partition_stride);
    std::byte* c = on_chip.base + std::int64_t{p} * on_chip.partition_stride;
    // dense: the index row is dense (step 1) and the table's rows are adjacent (stride = row bytes),
    // the common case, with both strides known at compile time (one scaled address per row).
    auto each_step = [&](auto word, auto dense) {
      using W = decltype(word);
      const std::int64_t s = decltype(dense)::value ? 1 : step;
      const std::int64_t rs = decltype(dense)::value ? std::int64_t{sizeof(W)} : ts;
      // Locals: the moves store bytes, which may alias any Tile field, so members would be reloaded.
      // origin: the address index 0 would name (index_base rows before the table; modular arithmetic,
      // only in-range rows are formed).
      const std::uintptr_t origin = reinterpret_cast<std::uintptr_t>(table.base) - static_cast<std::uintptr_t>(index_base * rs);
      const std::int32_t* const ix = ip;
      const auto row = [=](std::int64_t k) {
        return reinterpret_cast<std::byte*>(origin + static_cast<std::uintptr_t>(std::int64_t{ix[k * s]} * rs));
      };
      // Rows a random gather / scatter touches miss the cache: prefetch kAhead rows ahead so that
      // several misses are in flight (host speed only). The rows before the last kAhead run without
      // the bound test.
      constexpr std::int64_t kAhead = 16;
      const auto move = [&](std::int64_t k) {
        if constexpr (ToTable)
          std::memcpy(row(k), c + k * sizeof(W), sizeof(W));
        else
          std::memcpy(c + k * sizeof(W), row(k), sizeof(W));
      };
      for (std::int64_t k = 0; k < std::min(K, kAhead); ++k) __builtin_prefetch(row(k), ToTable ? 1 : 0);
      std::int64_t k = 0;
      for (; k + kAhead < K; ++k) {
        __builtin_prefetch(row(k + kAhead), ToTable ? 1 : 0);
        move(k);
      }
      for (; k < K; ++k) move(k);
    };
    auto each = [&](auto word) {
      if (step == 1 && ts == static_cast<std::int64_t>(sizeof(word)))
        each_step(word, std::true_type{});
      else
        each_step(word, std::false_type{});
    };
    if (row_bytes == 4) {
      each(std::uint32_t{});
    } else if (row_bytes == 8) {
      each(std::uint64_t{});
    } else if (row_bytes == 16) {  // (4 x 4 blocks' x rows: a fixed-size move, not a library call per row)
      each(std::array<std::uint64_t, 2>{});
    } else if (row_bytes == 32) {
      each(std::array<std::uint64_t, 4>{});
    } else {
      for (std::int64_t k = 0; k < K; ++k) {
        std::byte* t = table.base + (ip[k * step] - index_base) * ts;
        if constexpr (ToTable)
          std::memcpy(t, c + k * row_bytes, static_cast<std::size_t>(row_bytes));
        else
          std::memcpy(c + k * row_bytes, t, static_cast<std::size_t>(row_bytes));
      }
    }
  }
}
}  // namespace

void NeuronCore::dma_gather(const Tile& dst, const Tile& table, const Tile& index, std::int64_t index_base) {
  check_indirect("dma_gather", table, dst, index, *hw_);
  if (executes()) check_indices("dma_gather", table, index, index_base);
  Instruction& ins = record(Engine::dma, Opcode::dma_copy);
  describe_indirect(ins, table, dst, index, false);
  if (executes()) move_rows<false>(table, dst, index, index_base);
  commit_instruction();
}

void NeuronCore::dma_scatter(const Tile& table, const Tile& src, const Tile& index, std::int64_t index_base) {
  check_indirect("dma_scatter", table, src, index, *hw_);
  if (executes()) check_indices("dma_scatter", table, index, index_base);
  Instruction& ins = record(Engine::dma, Opcode::dma_copy);
  describe_indirect(ins, table, src, index, true);
  if (executes()) move_rows<true>(table, src, index, index_base);
  commit_instruction();
}

void NeuronCore::dma_transpose(const Tile& dst, const Tile& src) {
  const std::string_view instr = "dma_transpose";
  if (!hw_->dma_transpose) throw NotSupportedError(instr, "DMA transpose", hw_->name);
  check_dma_endpoint(instr, "src", src, *hw_);
  check_dma_endpoint(instr, "dst", dst, *hw_);
  detail::require_physical_partitions(instr, "src", src);
  detail::require_mem(instr, "dst", dst, {MemSpace::sbuf});
  const int es = dtype_size(src.dtype);
  if (es != 2 && es != 4)
    throw UsageError(instr, "src", "DMA transpose supports 2- and 4-byte dtypes (got " +
                                       std::string(dtype_name(src.dtype)) + ")");
  if (dst.dtype != src.dtype) throw UsageError(instr, "dst", "DMA transpose does not convert dtypes");
  const std::int64_t P = src.partitions, F = detail::free_size_of(src);
  if (dst.partitions != F || dst.free_size() != P)
    throw LimitError(std::string(instr), "dst", "partitions", dst.partitions, "src free size", F, hw_->name);
  Instruction& ins = record(Engine::dma, Opcode::dma_transpose);
  describe_dma(ins, dst, src);
  if (!executes()) return commit_instruction();
  for (std::int64_t p = 0; p < P; ++p)
    for (std::int64_t f = 0; f < F; ++f)
      std::memcpy(dst.at(static_cast<std::int32_t>(f), p), src.at(static_cast<std::int32_t>(p), f),
                  static_cast<std::size_t>(es));
  commit_instruction();
}

}  // namespace trn
