#include "engine_util.hpp"

#include <x86intrin.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

#include "simd_util.hpp"
#include "trn/core/error.hpp"

namespace trn::detail {

void require_mem_checked(std::string_view instr, std::string_view operand, const Tile& t,
                 std::initializer_list<MemSpace> allowed) {
  for (auto m : allowed)
    if (t.mem == m) return;
  std::string what = "cannot be in " + std::string(mem_space_name(t.mem)) + " (allowed:";
  for (auto m : allowed) what += " " + std::string(mem_space_name(m));
  throw UsageError(instr, operand, what + ")");
}

void require_partition_alignment_checked(std::string_view instr, std::string_view operand, const Tile& t,
                                 const HardwareSpec& hw) {
  if (!t.on_chip()) return;
  const int P = t.partitions, s = t.partition_start;
  if (P > hw.pmax || s + P > hw.pmax)
    throw LimitError(std::string(instr), std::string(operand), "partition end", s + P, "pmax", hw.pmax, hw.name);
  const int quantum = P > 64 ? 128 : P > 32 ? 64 : 32;
  if (s % quantum != 0)
    throw LimitError(std::string(instr), std::string(operand), "partition start", s,
                     "alignment for " + std::to_string(P) + " partitions (multiple of)", quantum, hw.name);
}

void require_same_partitions_checked(std::string_view instr, std::string_view a_name, const Tile& a, std::string_view b_name,
                             const Tile& b) {
  if (a.partitions != b.partitions)
    throw LimitError(std::string(instr), std::string(b_name), "partitions", b.partitions,
                     "partitions of '" + std::string(a_name) + "'", a.partitions, "");
}

void require_same_free_size_checked(std::string_view instr, std::string_view a_name, const Tile& a, std::string_view b_name,
                            const Tile& b) {
  if (a.free_size() != b.free_size())
    throw LimitError(std::string(instr), std::string(b_name), "free size", b.free_size(),
                     "free size of '" + std::string(a_name) + "'", a.free_size(), "");
}

void require_engine_free_size_checked(std::string_view instr, std::string_view operand, const Tile& t, const HardwareSpec& hw) {
  const std::int64_t limit = t.mem == MemSpace::psum ? hw.vector_psum_fmax : hw.vector_sbuf_fmax;
  if (free_size_of(t) > limit)
    throw LimitError(std::string(instr), std::string(operand), "free size", free_size_of(t),
                     t.mem == MemSpace::psum ? "PSUM free-size limit" : "SBUF free-size limit", limit, hw.name);
}

void require_nonempty_checked(std::string_view instr, std::string_view operand, const Tile& t) {
  if (t.partitions < 1 || free_size_of(t) < 1 || t.base == nullptr)
    throw UsageError(instr, operand, "empty or unallocated tile");
}

void require_physical_partitions_checked(std::string_view instr, std::string_view operand, const Tile& t) {
  if (t.is_partition_broadcast())
    throw UsageError(instr, operand,
                     "a partition-broadcast view (partition stride 0) is a DMA source only; dma_copy it into a tile "
                     "first");
}

void check_engine_operand_checked(std::string_view instr, std::string_view operand, const Tile& t, const HardwareSpec& hw,
                          Engine engine) {
  require_nonempty(instr, operand, t);
  require_physical_partitions(instr, operand, t);
  if (engine == Engine::gpsimd)
    require_mem(instr, operand, t, {MemSpace::sbuf});  // "GpSimd Engine cannot access PSUM"
  else
    require_mem(instr, operand, t, {MemSpace::sbuf, MemSpace::psum});
  require_partition_alignment(instr, operand, t, hw);
  require_engine_free_size(instr, operand, t, hw);
}

int fold_free_dims(const Tile& t, std::int64_t* size, std::int64_t* stride) {
  int nd = 0;
  for (int d = 0; d < t.ndim; ++d) {
    if (t.size[d] == 1) continue;
    if (nd > 0 && stride[nd - 1] == t.size[d] * t.stride[d]) {
      size[nd - 1] *= t.size[d];
      stride[nd - 1] = t.stride[d];
      continue;
    }
    size[nd] = t.size[d];
    stride[nd] = t.stride[d];
    ++nd;
  }
  return nd;
}

namespace {
// Calls f(byte_ptr_of_run_start, run_length, run_stride_elems, flat_index_of_run_start) for each
// innermost run of partition p, in access-pattern order. Dimensions that continue one another
// (stride[d] == size[d + 1] * stride[d + 1]) and dimensions of size 1 are folded first, so a dense
// [16][32] view is one run of 512, not 16 of 32: the same elements in the same order, with less
// per-run overhead (a call and a short memcpy per run dominated the packed Jacobi kernels).
template <class F>
void for_each_run(const Tile& t, std::int32_t p, F&& f) {
  std::int64_t size[kMaxFreeDims], stride[kMaxFreeDims];
  const int nd = fold_free_dims(t, size, stride);
  std::byte* row = t.base + std::int64_t{p} * t.partition_stride;
  if (nd == 0) {  // a single element
    f(row, 1, 1, 0);
    return;
  }
  const int inner = nd - 1;
  const std::int64_t run = size[inner], rstride = stride[inner];
  std::int64_t outer = 1;
  for (int d = 0; d < inner; ++d) outer *= size[d];
  const std::int64_t es = dtype_size(t.dtype);
  std::int64_t idx[kMaxFreeDims] = {0, 0, 0, 0};
  for (std::int64_t o = 0; o < outer; ++o) {
    std::int64_t off = 0;
    for (int d = 0; d < inner; ++d) off += idx[d] * stride[d];
    f(row + off * es, run, rstride, o * run);
    for (int d = inner - 1; d >= 0; --d) {
      if (++idx[d] < size[d]) break;
      idx[d] = 0;
    }
  }
}

TRN_SIMD_WARNINGS_BEGIN
// 32-bit elements between a dense run and a stride-2 run (an interleaved complex plane), 16 at a
// time: the even lanes of two loaded vectors, or the dense values spread onto the even lanes by a
// masked store that leaves the odd lanes (the other plane) untouched. Bytes as the element loop.
__attribute__((target("avx512f"))) void gather_stride2_u32(const std::uint32_t* from, std::uint32_t* to, std::int64_t n) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i lo = _mm512_loadu_si512(from + 2 * i);
    const __m512i hi = _mm512_maskz_loadu_epi32(0x7fff, from + 2 * i + 16);  // the last odd lane may lie past the run
    _mm512_storeu_si512(to + i, _mm512_permutex2var_epi32(lo, even, hi));
  }
  for (; i < n; ++i) to[i] = from[2 * i];
}
__attribute__((target("avx512f"))) void scatter_stride2_u32(const std::uint32_t* from, std::uint32_t* to, std::int64_t n) {
  const __m512i lo_idx = _mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
  const __m512i hi_idx = _mm512_setr_epi32(8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15);
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i v = _mm512_loadu_si512(from + i);
    _mm512_mask_storeu_epi32(to + 2 * i, 0x5555, _mm512_permutexvar_epi32(lo_idx, v));
    _mm512_mask_storeu_epi32(to + 2 * i + 16, 0x5555, _mm512_permutexvar_epi32(hi_idx, v));
  }
  for (; i < n; ++i) to[2 * i] = from[i];
}
// Whole rows of runs: the same as one gather/scatter_stride2_u32 call per run, without a call
// and the access-pattern walk per run (the four-step's interleaved planes move in runs of n1 or n2
// elements, 16 at N = 256).
__attribute__((target("avx512f"))) void gather_runs_stride2_u32(const std::uint32_t* row, const std::int64_t* offs,
                                                                 std::int64_t nruns, std::int64_t run, std::uint32_t* to) {
  for (std::int64_t o = 0; o < nruns; ++o) gather_stride2_u32(row + offs[o], to + o * run, run);
}
__attribute__((target("avx512f"))) void scatter_runs_stride2_u32(const std::uint32_t* from, std::uint32_t* row,
                                                                  const std::int64_t* offs, std::int64_t nruns,
                                                                  std::int64_t run) {
  for (std::int64_t o = 0; o < nruns; ++o) scatter_stride2_u32(from + o * run, row + offs[o], run);
}
TRN_SIMD_WARNINGS_END
}  // namespace

namespace {
// An fp32 / tf32 / bf16 row in access-pattern order as one walk of for_each_run's folded
// dimensions: each run widened to fp32 words in place (stride 1), repeated (stride 0: a broadcast
// operand) or gathered (any other stride) -- the words load_row_f32 gives (fp32 copied as they are,
// bf16 its 16 bits above 16 zero bits: exact, no rounding). The generic walk cost a lambda call, an
// offset loop and load_row_f32's dtype switch per run (~75 host instructions) plus a strided
// per-element loop: the segmented slice-pair kernel's bf16 mask products read [P, nt J Sa] views
// whose runs are Sa <= 8 elements of stride 0 (~30 % of an R_64F CG solve's host instructions),
// and the complex fp32 SpSV reads its re / im planes as stride-2 runs of one or two elements.
template <class Word, class Widen>
void walk_row_f32(const Tile& t, std::int32_t p, float* out, Widen widen) {
  std::int64_t size[kMaxFreeDims], stride[kMaxFreeDims];
  int nd = 1;
  if (t.ndim == 1) {  // one run as it is (a size-1 run reads its one element either way)
    size[0] = t.size[0];
    stride[0] = t.stride[0];
  } else {
    nd = fold_free_dims(t, size, stride);
  }
  const std::byte* row = t.base + std::int64_t{p} * t.partition_stride;
  const auto word = [](const std::byte* at) {  // an element's bits (memcpy: the storage is bytes)
    Word w;
    __builtin_memcpy(&w, at, sizeof(Word));
    return w;
  };
  if (nd == 0) {  // a single element
    out[0] = widen(word(row));
    return;
  }
  const std::int64_t run = size[nd - 1], rs = stride[nd - 1], step = rs * std::int64_t{sizeof(Word)};
  float* const row_end = out + [&] {
    std::int64_t n = 1;
    for (int d = 0; d < nd; ++d) n *= size[d];
    return n;
  }();
  const auto copy_run = [&](const std::byte* src, float* to) {
    if (rs == 1) {  // dense: the element size a constant, so the loop vectorises
      for (std::int64_t k = 0; k < run; ++k) to[k] = widen(word(src + k * std::int64_t{sizeof(Word)}));
    } else if (rs == 0) {
      const float v = widen(word(src));
      if (run <= 8 && row_end - to >= 8) {
        // A short broadcast run (a mask element repeated over a value's Sa slices) as one fixed-size
        // store of 8 copies: the ones past the run land on later runs of the row, which are written
        // after it (or replicated over it), and never past the row.
        float eight[8];
        for (float& e : eight) e = v;
        __builtin_memcpy(to, eight, sizeof eight);
      } else {
        for (std::int64_t k = 0; k < run; ++k) to[k] = v;
      }
    } else {
      for (std::int64_t k = 0; k < run; ++k) to[k] = widen(word(src + k * step));
    }
  };
  if (nd == 1) {  // one run (e.g. a complex plane: stride 2)
    copy_run(row, out);
    return;
  }
  // Outer dimensions (up to three: the missing outermost ones are not walked). A dimension of stride
  // 0 (an operand repeated along it, e.g. a value's slices against each of J columns) reads the same
  // elements at every index: its first block is loaded and then copied (doubling: log2 of its size
  // copies), the same words as loading every block.
  static_assert(kMaxFreeDims == 4, "walk_row_f32 walks at most three outer dimensions");
  if (nd > kMaxFreeDims) __builtin_unreachable();
  const auto repeat_block = [](float* to, std::int64_t blk, std::int64_t n) {
    for (std::int64_t have = 1; have < n;) {
      const std::int64_t c = std::min(have, n - have);
      std::memcpy(to + have * blk, to, static_cast<std::size_t>(c * blk) * sizeof(float));
      have += c;
    }
  };
  constexpr std::int64_t es = sizeof(Word);
  const std::int64_t n2 = size[nd - 2], s2 = stride[nd - 2] * es, b2 = run;
  const auto level2 = [&](const std::byte* src, float* to) {
    if (s2 == 0) {
      copy_run(src, to);
      return repeat_block(to, b2, n2);
    }
    for (std::int64_t i = 0; i < n2; ++i) copy_run(src + i * s2, to + i * b2);
  };
  if (nd == 2) return level2(row, out);
  const std::int64_t n1 = size[nd - 3], s1 = stride[nd - 3] * es, b1 = b2 * n2;
  const auto level1 = [&](const std::byte* src, float* to) {
    if (s1 == 0) {
      level2(src, to);
      return repeat_block(to, b1, n1);
    }
    for (std::int64_t i = 0; i < n1; ++i) level2(src + i * s1, to + i * b1);
  };
  if (nd == 3) return level1(row, out);
  const std::int64_t n0 = size[0], s0 = stride[0] * es, b0 = b1 * n1;
  if (s0 == 0) {
    level1(row, out);
    return repeat_block(out, b0, n0);
  }
  for (std::int64_t i = 0; i < n0; ++i) level1(row + i * s0, out + i * b0);
}
}  // namespace

void load_row(const Tile& t, std::int32_t p, float* out) {
  if (t.dtype == DType::f32 || t.dtype == DType::tf32) {
    walk_row_f32<std::uint32_t>(t, p, out, [](std::uint32_t w) { return bits_to_f32(w); });
  } else if (t.dtype == DType::bf16) {
    walk_row_f32<std::uint16_t>(t, p, out, [](std::uint16_t w) { return bf16_to_f32(w); });
  } else {
    // Integers: load_row_f32's static_cast<float> of the element (VectorE's integer ops through fp32:
    // [128, 1..4] i32 rows of the fp64 slicing, where the generic walk's per-run call dominated).
    const auto as_float = [](auto w) { return static_cast<float>(w); };
    switch (t.dtype) {
      case DType::u32: return walk_row_f32<std::uint32_t>(t, p, out, as_float);
      case DType::i32: return walk_row_f32<std::int32_t>(t, p, out, as_float);
      case DType::u16: return walk_row_f32<std::uint16_t>(t, p, out, as_float);
      case DType::i16: return walk_row_f32<std::int16_t>(t, p, out, as_float);
      case DType::u8: return walk_row_f32<std::uint8_t>(t, p, out, as_float);
      case DType::i8: return walk_row_f32<std::int8_t>(t, p, out, as_float);
      default: return load_row_general(t, p, out);
    }
  }
}

void load_row_general(const Tile& t, std::int32_t p, float* out) {
  for_each_run(t, p, [&](std::byte* ptr, std::int64_t n, std::int64_t st, std::int64_t at) {
    load_row_f32(t.dtype, ptr, st, n, out + at);
  });
}

const float* read_row_f32(const Tile& t, std::int32_t p, float* scratch) {
  if (t.dtype == DType::f32 && free_contiguous_of(t))
    return reinterpret_cast<const float*>(t.base + std::int64_t{p} * t.partition_stride);
  load_row(t, p, scratch);
  return scratch;
}

bool tiles_disjoint(const Tile& a, const Tile& b) {
  return regions_disjoint(region_inline(a, false), region_inline(b, false));
}

void store_row(const Tile& t, std::int32_t p, const float* in, Rounding r, const SrStream* sr) {
  if (t.ndim == 1) {  // one run (for_each_run's one call for it, without the fold)
    const std::int64_t n = t.size[0];
    store_row_f32(t.dtype, in, n, t.base + std::int64_t{p} * t.partition_stride, n == 1 ? 1 : t.stride[0], r, sr,
                  static_cast<std::uint64_t>(p) * static_cast<std::uint64_t>(n));
    return;
  }
  const std::uint64_t base_elem = static_cast<std::uint64_t>(p) * static_cast<std::uint64_t>(free_size_of(t));
  for_each_run(t, p, [&](std::byte* ptr, std::int64_t n, std::int64_t st, std::int64_t at) {
    store_row_f32(t.dtype, in + at, n, ptr, st, r, sr, base_elem + static_cast<std::uint64_t>(at));
  });
}

// ---- integer rows (GpSimdE's native integer and bit-vector paths) --------------------------------
// The element conversions of load_as_int / store_int (dtype.cpp) with the dtype a template
// parameter, dispatched once per operand and loop (IntRows): a typed loop per run of the folded
// free pattern, instead of a switch and an out-of-line call per element (~110 host instructions
// an element: the diagonal blocks' u32 bitwise_or of ssyevd, fp64 SpGEMM's index words). The
// *_general forms are the per-element loops they replace: the reference the tests compare against
// (test_gpsimd) and the path of every non-integer dtype.
namespace {
template <class T, IntConv C>
inline std::int64_t load_elem(const std::byte* ptr) {
  T v;
  std::memcpy(&v, ptr, sizeof v);
  if constexpr (C == IntConv::pattern)
    return static_cast<std::make_unsigned_t<T>>(v);
  else
    return v;  // value; pattern_via_fp32 reads the value first
}
template <class T, IntConv C>
inline void store_elem(std::byte* ptr, std::int64_t x) {
  T v;
  if constexpr (C == IntConv::value)
    v = static_cast<T>(std::clamp<std::int64_t>(x, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
  else
    v = static_cast<T>(static_cast<std::make_unsigned_t<T>>(static_cast<std::uint32_t>(x)));
  std::memcpy(ptr, &v, sizeof v);
}
// f(element offset of the run's first element, run length, run stride in elements, the run's first
// flat index) for each run of r's folded pattern, in access-pattern order (for_each_run's walk
// without the fold).
template <class F>
inline void walk_int_runs(const IntRows& r, F&& f) {
  const int inner = r.nd - 1;
  const std::int64_t run = r.size[inner], rs = r.stride[inner];
  if (inner == 0) return f(std::int64_t{0}, run, rs, std::int64_t{0});
  std::int64_t outer = 1;
  for (int d = 0; d < inner; ++d) outer *= r.size[d];
  std::int64_t idx[kMaxFreeDims] = {0, 0, 0, 0};
  for (std::int64_t o = 0; o < outer; ++o) {
    std::int64_t off = 0;
    for (int d = 0; d < inner; ++d) off += idx[d] * r.stride[d];
    f(off, run, rs, o * run);
    for (int d = inner - 1; d >= 0; --d) {
      if (++idx[d] < r.size[d]) break;
      idx[d] = 0;
    }
  }
}
template <class T, IntConv C>
void load_int_row_as(const IntRows& r, std::int32_t p, std::int64_t* out) {
  constexpr std::int64_t es = sizeof(T);
  const std::byte* row = r.base + std::int64_t{p} * r.partition_stride;
  if (r.table) {
    for (std::int64_t i = 0; i < r.n; ++i) out[i] = load_elem<T, C>(row + r.offset[i]);
  } else {
    walk_int_runs(r, [&](std::int64_t first, std::int64_t n, std::int64_t st, std::int64_t at) {
      const std::byte* ptr = row + first * es;
      std::int64_t* o = out + at;
      if (st == 1)  // dense: the element size a constant, so the loop vectorises
        for (std::int64_t i = 0; i < n; ++i) o[i] = load_elem<T, C>(ptr + i * es);
      else
        for (std::int64_t i = 0; i < n; ++i) o[i] = load_elem<T, C>(ptr + i * st * es);
    });
  }
  if constexpr (C == IntConv::pattern_via_fp32)
    for (std::int64_t i = 0; i < r.n; ++i) out[i] = to_pattern(r.dtype, via_fp32(r.dtype, out[i]));
}
template <class T, IntConv C>
void store_int_row_as(const IntRows& r, std::int32_t p, std::int64_t* in) {
  constexpr std::int64_t es = sizeof(T);
  std::byte* const row = r.base + std::int64_t{p} * r.partition_stride;
  if (r.table) {
    for (std::int64_t i = 0; i < r.n; ++i) store_elem<T, C>(row + r.offset[i], in[i]);
    return;
  }
  walk_int_runs(r, [&](std::int64_t first, std::int64_t n, std::int64_t st, std::int64_t at) {
    std::byte* ptr = row + first * es;
    const std::int64_t* x = in + at;
    if (st == 1)
      for (std::int64_t i = 0; i < n; ++i) store_elem<T, C>(ptr + i * es, x[i]);
    else
      for (std::int64_t i = 0; i < n; ++i) store_elem<T, C>(ptr + i * st * es, x[i]);
  });
}
// Non-integer dtypes: the per-element general forms.
void load_int_row_general(const IntRows& r, std::int32_t p, std::int64_t* out) {
  if (r.conv == IntConv::value) return load_row_int_general(*r.tile, p, out);
  load_row_bits_general(*r.tile, p, r.conv == IntConv::pattern_via_fp32, out);
}
void store_int_row_general(const IntRows& r, std::int32_t p, std::int64_t* in) {
  if (r.conv == IntConv::value) return store_row_int_general(*r.tile, p, in);
  store_row_bits_general(*r.tile, p, in);
}
// IntRows::load_rows / store_rows: the row function ROW for p = 0 .. P-1. The typed forms walk the
// rows of a table or of one run in one loop nest (the same element addresses and conversions as
// load_int_row_as / store_int_row_as): a row of one or two elements cost ~55 host instructions as a
// call of its own.
template <void (*ROW)(const IntRows&, std::int32_t, std::int64_t*)>
void int_rows_in_order(const IntRows& r, std::int32_t P, std::int64_t* v) {
  for (std::int32_t p = 0; p < P; ++p) ROW(r, p, v + std::int64_t{p} * r.n);
}
// Calls f(address of element i of row p, v + p n + i) for the rows 0 .. P-1 of a table or of one run
// (the layouts the batched forms take in one loop nest), p then i increasing.
template <std::int64_t ES, class F>
void over_int_row_elements(const IntRows& r, std::int32_t P, std::int64_t* v, F&& f) {
  const std::int64_t n = r.n, st = r.stride[0] * ES;
  for (std::int32_t p = 0; p < P; ++p) {
    std::byte* const row = r.base + std::int64_t{p} * r.partition_stride;
    std::int64_t* x = v + std::int64_t{p} * n;
    if (r.table)
      for (std::int64_t i = 0; i < n; ++i) f(row + r.offset[i], x[i]);
    else
      for (std::int64_t i = 0; i < n; ++i) f(row + i * st, x[i]);
  }
}
template <class T, IntConv C>
void load_int_rows_as(const IntRows& r, std::int32_t P, std::int64_t* out) {
  if (!r.table && r.nd != 1) return int_rows_in_order<&load_int_row_as<T, C>>(r, P, out);
  over_int_row_elements<sizeof(T)>(r, P, out, [](const std::byte* at, std::int64_t& x) { x = load_elem<T, C>(at); });
  if constexpr (C == IntConv::pattern_via_fp32)
    for (std::int64_t i = 0; i < std::int64_t{P} * r.n; ++i) out[i] = to_pattern(r.dtype, via_fp32(r.dtype, out[i]));
}
template <class T, IntConv C>
void store_int_rows_as(const IntRows& r, std::int32_t P, std::int64_t* in) {
  if (!r.table && r.nd != 1) return int_rows_in_order<&store_int_row_as<T, C>>(r, P, in);
  over_int_row_elements<sizeof(T)>(r, P, in, [](std::byte* at, const std::int64_t& x) { store_elem<T, C>(at, x); });
}
// f.template operator()<T>() for t's integer element type; false for any other dtype.
template <class F>
bool with_int_type(DType t, F&& f) {
  switch (t) {
    case DType::i8: f.template operator()<std::int8_t>(); return true;
    case DType::i16: f.template operator()<std::int16_t>(); return true;
    case DType::i32: f.template operator()<std::int32_t>(); return true;
    case DType::u8: f.template operator()<std::uint8_t>(); return true;
    case DType::u16: f.template operator()<std::uint16_t>(); return true;
    case DType::u32: f.template operator()<std::uint32_t>(); return true;
    default: return false;
  }
}
}  // namespace

IntRows::IntRows(const Tile& t, IntConv c)
    : tile(&t), base(t.base), partition_stride(t.partition_stride), dtype(t.dtype), conv(c) {
  nd = fold_free_dims(t, size, stride);
  if (nd == 0) {  // a single element: one run of one (for_each_run's call for it)
    nd = 1;
    size[0] = 1;
    stride[0] = 1;
  }
  n = 1;
  for (int d = 0; d < nd; ++d) n *= size[d];
  table = nd >= 2 && (n <= kTableElems || (n <= kLongTableElems && size[nd - 1] <= kShortRun));
  offset = inline_offset;
  if (table) {
    std::int64_t* to = inline_offset;
    if (n > kTableElems) {
      long_offset.resize(static_cast<std::size_t>(n));
      to = long_offset.data();
      offset = to;
    }
    const std::int64_t es = elem_bytes(t.dtype);
    walk_int_runs(*this, [&](std::int64_t first, std::int64_t run, std::int64_t rs, std::int64_t at) {
      for (std::int64_t i = 0; i < run; ++i) to[at + i] = (first + i * rs) * es;
    });
  }
  load_ = &load_int_row_general;
  store_ = &store_int_row_general;
  load_rows_ = &int_rows_in_order<&load_int_row_general>;
  store_rows_ = &int_rows_in_order<&store_int_row_general>;
  with_int_type(t.dtype, [&]<class T>() {
    switch (c) {
      case IntConv::value:
        load_ = &load_int_row_as<T, IntConv::value>;
        store_ = &store_int_row_as<T, IntConv::value>;
        load_rows_ = &load_int_rows_as<T, IntConv::value>;
        store_rows_ = &store_int_rows_as<T, IntConv::value>;
        break;
      case IntConv::pattern:
        load_ = &load_int_row_as<T, IntConv::pattern>;
        store_ = &store_int_row_as<T, IntConv::pattern>;
        load_rows_ = &load_int_rows_as<T, IntConv::pattern>;
        store_rows_ = &store_int_rows_as<T, IntConv::pattern>;
        break;
      case IntConv::pattern_via_fp32:  // a load conversion; stores write patterns
        load_ = &load_int_row_as<T, IntConv::pattern_via_fp32>;
        store_ = &store_int_row_as<T, IntConv::pattern>;
        load_rows_ = &load_int_rows_as<T, IntConv::pattern_via_fp32>;
        store_rows_ = &store_int_rows_as<T, IntConv::pattern>;
        break;
    }
  });
}

void load_row_int_general(const Tile& t, std::int32_t p, std::int64_t* out) {
  const std::int64_t es = dtype_size(t.dtype);
  for_each_run(t, p, [&](std::byte* ptr, std::int64_t n, std::int64_t st, std::int64_t at) {
    for (std::int64_t i = 0; i < n; ++i) out[at + i] = load_as_int(t.dtype, ptr + i * st * es);
  });
}

void store_row_int_general(const Tile& t, std::int32_t p, const std::int64_t* in) {
  const std::int64_t es = dtype_size(t.dtype);
  for_each_run(t, p, [&](std::byte* ptr, std::int64_t n, std::int64_t st, std::int64_t at) {
    for (std::int64_t i = 0; i < n; ++i) store_int(t.dtype, ptr + i * st * es, in[at + i]);
  });
}

void load_row_int(const Tile& t, std::int32_t p, std::int64_t* out) { IntRows(t, IntConv::value).load(p, out); }

// A value store never writes `in` (only the general pattern store rewrites its input).
void store_row_int(const Tile& t, std::int32_t p, const std::int64_t* in) {
  IntRows(t, IntConv::value).store(p, const_cast<std::int64_t*>(in));
}

void load_row_bits_general(const Tile& t, std::int32_t p, bool through_fp32, std::int64_t* out) {
  load_row_int_general(t, p, out);
  const std::int64_t n = t.free_size();
  if (through_fp32)
    for (std::int64_t i = 0; i < n; ++i) out[i] = via_fp32(t.dtype, out[i]);
  for (std::int64_t i = 0; i < n; ++i) out[i] = to_pattern(t.dtype, out[i]);
}

void store_row_bits_general(const Tile& t, std::int32_t p, std::int64_t* in) {
  const std::int64_t n = t.free_size();
  for (std::int64_t i = 0; i < n; ++i) in[i] = from_pattern(t.dtype, in[i]);
  store_row_int_general(t, p, in);
}

void load_row_bits(const Tile& t, std::int32_t p, bool through_fp32, std::int64_t* out) {
  IntRows(t, through_fp32 ? IntConv::pattern_via_fp32 : IntConv::pattern).load(p, out);
}

void store_row_bits(const Tile& t, std::int32_t p, std::int64_t* in) { IntRows(t, IntConv::pattern).store(p, in); }

namespace {
// f(std::integral_constant<std::size_t, N>{}) when bytes is one of the sizes N the row copies inline
// as fixed-size copies (a call to memcpy per short run or row cost more than the copy); false
// otherwise, for the caller's runtime-sized loop.
template <class F>
bool with_fixed_size(std::int64_t bytes, F&& f) {
  switch (bytes) {
    case 2: f(std::integral_constant<std::size_t, 2>{}); return true;
    case 4: f(std::integral_constant<std::size_t, 4>{}); return true;
    case 8: f(std::integral_constant<std::size_t, 8>{}); return true;
    case 16: f(std::integral_constant<std::size_t, 16>{}); return true;
    case 32: f(std::integral_constant<std::size_t, 32>{}); return true;
    case 64: f(std::integral_constant<std::size_t, 64>{}); return true;
    default: return false;
  }
}

// A row's free-pattern byte range relative to the row's first element (t.base + p * partition_stride):
// [Tile::free_lo_byte(), Tile::free_hi_byte()) minus offset_bytes, the same sums inline (four
// out-of-line walks per DMA were a tenth of a short DMA's copy).
struct RowBytes {
  std::int64_t lo, hi;
};
inline RowBytes row_bytes_of(const Tile& t) {
  std::int64_t lo = 0, hi = 0;
  for (int d = 0; d < t.ndim; ++d) {
    if (t.size[d] <= 0) continue;
    if (t.stride[d] < 0) lo += t.stride[d] * (t.size[d] - 1);
    if (t.stride[d] > 0) hi += t.stride[d] * (t.size[d] - 1);
  }
  const std::int64_t es = elem_bytes(t.dtype);
  return {lo * es, (hi + 1) * es};
}

// One row's runs between a dense row and a strided row: run o of the strided row starts offs[o]
// elements into it and is element o * run of the dense row (gather: dense <- strided; else the
// reverse). Unit-stride runs of 8 to 64 bytes copy with a compile-time size (inlined loads and
// stores: a call to memcpy per run cost more than the run); the other cases are the loops they were.
template <class T, bool Gather>
void copy_row_runs(T* dense, T* strided, const std::int64_t* offs, std::int64_t nruns, std::int64_t run,
                   std::int64_t rstride, bool avx512) {
  if (rstride == 1) {  // dense runs (a column-major panel's columns): the same bytes as one memcpy each
    auto fixed = [&]<std::size_t N>(std::integral_constant<std::size_t, N>) {
      for (std::int64_t o = 0; o < nruns; ++o) {
        if constexpr (Gather)
          std::memcpy(dense + o * run, strided + offs[o], N);
        else
          std::memcpy(strided + offs[o], dense + o * run, N);
      }
    };
    if (with_fixed_size(run * static_cast<std::int64_t>(sizeof(T)), fixed)) return;
    const auto bytes = static_cast<std::size_t>(run) * sizeof(T);
    for (std::int64_t o = 0; o < nruns; ++o) {
      if constexpr (Gather)
        std::memcpy(dense + o * run, strided + offs[o], bytes);
      else
        std::memcpy(strided + offs[o], dense + o * run, bytes);
    }
    return;
  }
  if constexpr (sizeof(T) == 4) {
    if (rstride == 2 && avx512) {  // interleaved complex planes: the row's runs in one call
      if constexpr (Gather)
        gather_runs_stride2_u32(strided, offs, nruns, run, dense);
      else
        scatter_runs_stride2_u32(dense, strided, offs, nruns, run);
      return;
    }
  }
  for (std::int64_t o = 0; o < nruns; ++o) {
    T* s = strided + offs[o];
    T* d = dense + o * run;
    if (rstride == 2) {
      if constexpr (Gather)
        for (std::int64_t i = 0; i < run; ++i) d[i] = s[2 * i];
      else
        for (std::int64_t i = 0; i < run; ++i) s[2 * i] = d[i];
    } else {
      if constexpr (Gather)
        for (std::int64_t i = 0; i < run; ++i) d[i] = s[i * rstride];
      else
        for (std::int64_t i = 0; i < run; ++i) s[i * rstride] = d[i];
    }
  }
}

// copy_row_bits(dst, p, src, p) for every p when exactly one side's free pattern is dense and the
// elements are 2 or 4 bytes (a DMA between a strided HBM vector and SBUF rows): the tests and the
// strided side's runs are computed once, not per row (each row call walked both free patterns four
// times: contiguity twice, the byte hull, the fold). A row whose bytes may overlap the other row's
// takes copy_row_bits, as before; the others copy in the same run order.
//
// A partition-broadcast source (partition stride 0: every row reads the same bytes, e.g. trnblas
// Dot2's B block to every partition of a group) gathered into a dense destination whose rows are
// pairwise disjoint and disjoint from the source: every row receives the same gathered bytes, and
// the source cannot change while the rows are written, so row 0 is gathered and then copied whole
// to rows 1, 2, ... (one memcpy per row instead of one gather of every run per row: Dgemm 32^3
// moved 2 x 1 024 runs of 64 bytes per call). Row 0 is not written again after its gather, so
// every row ends with the bytes the per-row loop leaves.
template <class T>
void copy_rows_one_side_dense(const Tile& dst, const Tile& src, bool gather, const std::int64_t* offs,
                              std::int64_t nruns, std::int64_t run, std::int64_t rstride) {
  const bool avx512 = simd::has_avx512();
  const RowBytes d_span = row_bytes_of(dst), s_span = row_bytes_of(src);
  const std::int64_t dlo = d_span.lo, dhi = d_span.hi, slo = s_span.lo, shi = s_span.hi;
  std::byte* const dbase = dst.base;
  std::byte* const sbase = src.base;
  const std::int64_t dps = dst.partition_stride, sps = src.partition_stride;
  const std::int32_t partitions = src.partitions;
  if (gather && sps == 0 && partitions > 1) {
    const std::int64_t row = dhi - dlo;  // the dense destination row's bytes
    const std::int64_t last = std::int64_t{partitions - 1} * dps;
    const auto d_lo = reinterpret_cast<std::uintptr_t>(dbase) + static_cast<std::uintptr_t>(std::min<std::int64_t>(0, last) + dlo);
    const auto d_hi = reinterpret_cast<std::uintptr_t>(dbase) + static_cast<std::uintptr_t>(std::max<std::int64_t>(0, last) + dhi);
    const auto s_lo = reinterpret_cast<std::uintptr_t>(sbase) + static_cast<std::uintptr_t>(slo);
    const auto s_hi = reinterpret_cast<std::uintptr_t>(sbase) + static_cast<std::uintptr_t>(shi);
    const bool rows_apart = dps >= row || dps <= -row;
    if (rows_apart && (d_hi <= s_lo || s_hi <= d_lo)) {
      T* const row0 = reinterpret_cast<T*>(dbase);
      copy_row_runs<T, true>(row0, reinterpret_cast<T*>(sbase), offs, nruns, run, rstride, avx512);
      for (std::int32_t p = 1; p < partitions; ++p)
        std::memcpy(dbase + std::int64_t{p} * dps, row0, static_cast<std::size_t>(row));
      return;
    }
  }
  for (std::int32_t p = 0; p < partitions; ++p) {
    std::byte* const dst_row = dbase + std::int64_t{p} * dps;
    std::byte* const src_row = sbase + std::int64_t{p} * sps;
    const bool rows_disjoint = dst_row + dhi <= src_row + slo || src_row + shi <= dst_row + dlo;
    if (!rows_disjoint) {
      copy_row_bits(dst, p, src, p);
      continue;
    }
    if (gather)  // dense destination row, strided source runs
      copy_row_runs<T, true>(reinterpret_cast<T*>(dst_row), reinterpret_cast<T*>(src_row), offs, nruns, run, rstride, avx512);
    else  // dense source row, strided destination runs
      copy_row_runs<T, false>(reinterpret_cast<T*>(src_row), reinterpret_cast<T*>(dst_row), offs, nruns, run, rstride, avx512);
  }
}

// The first element offsets of the nruns runs of a folded free pattern (fold_free_dims) whose
// dimension `inner` is the run, in for_each_run's order: an odometer over the outer dimensions.
void fill_run_offsets(const std::int64_t* size, const std::int64_t* stride, int inner, std::int64_t nruns,
                      std::int64_t* offs) {
  if (inner == 1) {  // one outer dimension (a matrix's columns or rows): the odometer's offsets, o * stride
    const std::int64_t step = stride[0];
    for (std::int64_t o = 0; o < nruns; ++o) offs[o] = o * step;
    return;
  }
  std::int64_t idx[kMaxFreeDims] = {0, 0, 0, 0};
  for (std::int64_t o = 0; o < nruns; ++o) {
    std::int64_t off = 0;
    for (int d = 0; d < inner; ++d) off += idx[d] * stride[d];
    offs[o] = off;
    for (int d = inner - 1; d >= 0; --d) {
      if (++idx[d] < size[d]) break;
      idx[d] = 0;
    }
  }
}

bool copy_all_rows_one_side_dense(const Tile& dst, const Tile& src, bool dst_dense, bool src_dense) {
  const std::int64_t es = dtype_size(src.dtype);
  if (dst_dense == src_dense || (es != 4 && es != 2)) return false;
  const bool gather = dst_dense;
  const Tile& strided = gather ? src : dst;
  // The strided side's runs as for_each_run walks them (the same for every partition).
  std::int64_t size[kMaxFreeDims], stride[kMaxFreeDims];
  const int nd = fold_free_dims(strided, size, stride);
  if (nd == 0) return false;  // a single element: the pattern is dense (not reached)
  const int inner = nd - 1;
  const std::int64_t run = size[inner], rstride = stride[inner];
  std::int64_t nruns = 1;
  for (int d = 0; d < inner; ++d) nruns *= size[d];
  std::int64_t offs_local[16];
  std::int64_t* offs = nruns <= 16 ? offs_local : scratch_i64(2, static_cast<std::size_t>(nruns));
  fill_run_offsets(size, stride, inner, nruns, offs);
  if (es == 4)
    copy_rows_one_side_dense<std::uint32_t>(dst, src, gather, offs, nruns, run, rstride);
  else
    copy_rows_one_side_dense<std::uint16_t>(dst, src, gather, offs, nruns, run, rstride);
  return true;
}
// ---- rows between HBM and on-chip memory, one side dense ------------------------------------------
// An HBM tile against an on-chip one is two memories: no byte of one tile's row can be a byte of the
// other's, so copy_row_bits' overlap tests and its scratch staging cannot change a byte. When one
// side's rows are dense and the other's fold to at most two dimensions -- `nruns` runs of `run_bytes`
// contiguous bytes, `step` bytes apart (a strided vector's elements, the rows of a column-major
// matrix, fp64 words as u32 pairs) -- every row is copied run by run in copy_row_bits' order (p
// ascending, the runs in access-pattern order), each run by a copy whose size is fixed once per DMA.
// The same bytes as the row-by-row path, also when an HBM destination's runs or rows overlap one
// another (the later write wins, in the same order). A dgemm_ 8^3 makes 8 DMAs of 8 rows x 8 such
// runs, a strided ddot_ one of n runs: the per-DMA offsets table, the per-row calls and overlap tests
// were most of their host cost (xeigtstd < dec.in makes ~90 M DMAs).
struct StridedRows {
  std::int64_t nruns = 0, run_bytes = 0, step = 0;
};

// The strided side's runs, or false when its pattern is not one this path takes.
bool strided_rows_of(const Tile& t, std::int64_t es, StridedRows& r) {
  if (t.ndim == 1) {
    // fold_free_dims of one dimension, inline: nothing when its size is 1 (a dense pattern, not
    // reached), else the dimension itself. Most strided DMAs (a vector's increment) are this case.
    const std::int64_t n = t.size[0], s = t.stride[0];
    if (n == 1 || s == 1 || s == 2) return false;
    r = {n, es, s * es};
    return true;
  }
  std::int64_t size[kMaxFreeDims], stride[kMaxFreeDims];
  const int nd = fold_free_dims(t, size, stride);
  if (nd == 2 && stride[1] == 1) {  // runs of size[1] elements
    r = {size[0], size[1] * es, stride[0] * es};
    return true;
  }
  // One element per run: a strided vector (stride 2, interleaved complex planes, keeps its vector path).
  if (nd == 1 && stride[0] != 1 && stride[0] != 2) {
    r = {size[0], es, stride[0] * es};
    return true;
  }
  return false;
}

// Every row's runs: dense row p at dense + p dense_ps, its runs at strided + p strided_ps + o step;
// copy_run(to, from) copies one run.
template <bool Gather, class CopyRun>
inline void copy_strided_rows(std::byte* dense, std::int64_t dense_ps, std::byte* strided, std::int64_t strided_ps,
                              std::int32_t partitions, const StridedRows& r, CopyRun&& copy_run) {
  const std::int64_t nruns = r.nruns, run_bytes = r.run_bytes, step = r.step;  // not reloaded after each store
  for (std::int32_t p = 0; p < partitions; ++p) {
    std::byte* d = dense + std::int64_t{p} * dense_ps;
    std::byte* s = strided + std::int64_t{p} * strided_ps;
    for (std::int64_t o = 0; o < nruns; ++o, d += run_bytes, s += step) {
      if constexpr (Gather)
        copy_run(d, s);
      else
        copy_run(s, d);
    }
  }
}

template <bool Gather>
void copy_strided_rows_sized(std::byte* dense, std::int64_t dense_ps, std::byte* strided, std::int64_t strided_ps,
                             std::int32_t partitions, const StridedRows& r) {
  const auto fixed = [&]<std::size_t N>(std::integral_constant<std::size_t, N>) {
    copy_strided_rows<Gather>(dense, dense_ps, strided, strided_ps, partitions, r,
                              [](std::byte* to, const std::byte* from) { std::memcpy(to, from, N); });
  };
  if (with_fixed_size(r.run_bytes, fixed)) return;
  const auto bytes = static_cast<std::size_t>(r.run_bytes);
  copy_strided_rows<Gather>(dense, dense_ps, strided, strided_ps, partitions, r,
                            [bytes](std::byte* to, const std::byte* from) { std::memcpy(to, from, bytes); });
}

// true when done: exactly one side dense, the two tiles in different memories, the strided side's
// pattern one strided_rows_of takes.
bool copy_rows_across_memories(const Tile& dst, const Tile& src, bool dst_dense) {
  const bool gather = dst_dense;
  const Tile& strided = gather ? src : dst;
  const Tile& dense = gather ? dst : src;
  StridedRows r;
  if (!strided_rows_of(strided, elem_bytes(src.dtype), r)) return false;
  const std::int32_t partitions = src.partitions;
  if (gather && strided.partition_stride == 0 && partitions > 1) {
    // A partition broadcast (every row reads the same HBM bytes, e.g. trnblas Dot2's B block to every
    // partition of a group): row 0 gathered, then copied whole to the other rows, which are apart
    // (the HBM source cannot change meanwhile: the same bytes as gathering every row).
    const std::int64_t row = r.nruns * r.run_bytes;
    if (dense.partition_stride >= row || dense.partition_stride <= -row) {
      copy_strided_rows_sized<true>(dense.base, 0, strided.base, 0, 1, r);
      for (std::int32_t p = 1; p < partitions; ++p)
        std::memcpy(dense.base + std::int64_t{p} * dense.partition_stride, dense.base, static_cast<std::size_t>(row));
      return true;
    }
  }
  if (gather)
    copy_strided_rows_sized<true>(dense.base, dense.partition_stride, strided.base, strided.partition_stride, partitions, r);
  else
    copy_strided_rows_sized<false>(dense.base, dense.partition_stride, strided.base, strided.partition_stride, partitions, r);
  return true;
}
}  // namespace

void copy_all_rows_bits(const Tile& dst, const Tile& src) {
  const bool dst_dense = free_contiguous_of(dst), src_dense = free_contiguous_of(src);
  if (!dst_dense || !src_dense) {
    if (dst_dense != src_dense && dst.on_chip() != src.on_chip() && copy_rows_across_memories(dst, src, dst_dense)) return;
    if (copy_all_rows_one_side_dense(dst, src, dst_dense, src_dense)) return;
    for (std::int32_t p = 0; p < src.partitions; ++p) copy_row_bits(dst, p, src, p);
    return;
  }
  const auto row_bytes = static_cast<std::size_t>(free_size_of(src) * elem_bytes(src.dtype));
  // The tiles' fields in locals: a store through a std::byte pointer may alias them, so the loops
  // below reloaded them after every row.
  std::byte* const dbase = dst.base;
  const std::byte* const sbase = src.base;
  const std::int64_t dps = dst.partition_stride, sps = src.partition_stride;
  const std::int32_t partitions = src.partitions;
  // Short rows (a vector down the partitions, an 8- or 16-wide matrix row) in fixed-size copies the
  // compiler inlines: each row is read whole before it is written, as memmove does.
  auto rows_of = [&]<std::size_t N>(std::integral_constant<std::size_t, N>) {
    for (std::int32_t p = 0; p < partitions; ++p) {
      unsigned char row[N];
      std::memcpy(row, sbase + std::int64_t{p} * sps, N);
      std::memcpy(dbase + std::int64_t{p} * dps, row, N);
    }
  };
  if (with_fixed_size(static_cast<std::int64_t>(row_bytes), rows_of)) return;
  for (std::int32_t p = 0; p < partitions; ++p)
    std::memmove(dbase + std::int64_t{p} * dps, sbase + std::int64_t{p} * sps, row_bytes);
}

void copy_row_bits(const Tile& dst, std::int32_t pd, const Tile& src, std::int32_t ps) {
  const std::int64_t es = dtype_size(src.dtype);
  if (free_contiguous_of(dst) && free_contiguous_of(src)) {
    std::memmove(dst.base + std::int64_t{pd} * dst.partition_stride, src.base + std::int64_t{ps} * src.partition_stride,
                 static_cast<std::size_t>(free_size_of(src) * es));
    return;
  }
  // Strided: gather the source row into scratch bytes, then scatter into the destination pattern —
  // or, when one side is a dense row that does not overlap the other row's bytes, copy straight
  // between the two (the same bytes as through the scratch). The element copies have a compile-time
  // size (a runtime-sized memcpy per element was the largest host cost of strided DMAs, e.g. the
  // interleaved complex planes of trnfft).
  std::byte* const dst_row = dst.base + std::int64_t{pd} * dst.partition_stride;
  std::byte* const src_row = src.base + std::int64_t{ps} * src.partition_stride;
  const bool rows_disjoint = dst_row + (dst.free_hi_byte() - dst.offset_bytes) <= src_row + (src.free_lo_byte() - src.offset_bytes) ||
                             src_row + (src.free_hi_byte() - src.offset_bytes) <= dst_row + (dst.free_lo_byte() - dst.offset_bytes);
  if (rows_disjoint && (es == 4 || es == 2) && (free_contiguous_of(dst) || free_contiguous_of(src))) {
    const bool avx512 = simd::has_avx512();
    auto direct = [&]<class T>() {
      if (free_contiguous_of(dst)) {
        T* d = reinterpret_cast<T*>(dst_row);
        for_each_run(src, ps, [&](std::byte* ptr, std::int64_t n, std::int64_t st, std::int64_t at) {
          const T* from = reinterpret_cast<const T*>(ptr);
          T* to = d + at;
          if (st == 2) {  // interleaved complex planes
            if constexpr (sizeof(T) == 4) {
              if (avx512) return gather_stride2_u32(from, to, n);
            }
            for (std::int64_t i = 0; i < n; ++i) to[i] = from[2 * i];
          } else {
            for (std::int64_t i = 0; i < n; ++i) to[i] = from[i * st];
          }
        });
      } else {
        const T* f = reinterpret_cast<const T*>(src_row);
        for_each_run(dst, pd, [&](std::byte* ptr, std::int64_t n, std::int64_t st, std::int64_t at) {
          T* to = reinterpret_cast<T*>(ptr);
          const T* from = f + at;
          if (st == 2) {
            if constexpr (sizeof(T) == 4) {
              if (avx512) return scatter_stride2_u32(from, to, n);
            }
            for (std::int64_t i = 0; i < n; ++i) to[2 * i] = from[i];
          } else {
            for (std::int64_t i = 0; i < n; ++i) to[i * st] = from[i];
          }
        });
      }
    };
    if (es == 4)
      direct.template operator()<std::uint32_t>();
    else
      direct.template operator()<std::uint16_t>();
    return;
  }
  std::byte* buf = reinterpret_cast<std::byte*>(scratch_i64(3, static_cast<std::size_t>(free_size_of(src))));
  auto strided = [&]<std::size_t E>() {
    for_each_run(src, ps, [&](std::byte* ptr, std::int64_t n, std::int64_t st, std::int64_t at) {
      std::byte* b = buf + at * static_cast<std::int64_t>(E);
      for (std::int64_t i = 0; i < n; ++i) std::memcpy(b + i * static_cast<std::int64_t>(E), ptr + i * st * static_cast<std::int64_t>(E), E);
    });
    for_each_run(dst, pd, [&](std::byte* ptr, std::int64_t n, std::int64_t st, std::int64_t at) {
      const std::byte* b = buf + at * static_cast<std::int64_t>(E);
      for (std::int64_t i = 0; i < n; ++i) std::memcpy(ptr + i * st * static_cast<std::int64_t>(E), b + i * static_cast<std::int64_t>(E), E);
    });
  };
  switch (es) {
    case 1: strided.template operator()<1>(); return;
    case 2: strided.template operator()<2>(); return;
    case 4: strided.template operator()<4>(); return;
    case 8: strided.template operator()<8>(); return;
    default: break;
  }
  for_each_run(src, ps, [&](std::byte* ptr, std::int64_t n, std::int64_t st, std::int64_t at) {
    for (std::int64_t i = 0; i < n; ++i) std::memcpy(buf + (at + i) * es, ptr + i * st * es, static_cast<std::size_t>(es));
  });
  for_each_run(dst, pd, [&](std::byte* ptr, std::int64_t n, std::int64_t st, std::int64_t at) {
    for (std::int64_t i = 0; i < n; ++i) std::memcpy(ptr + i * st * es, buf + (at + i) * es, static_cast<std::size_t>(es));
  });
}

bool single_run(const Tile& t, std::int64_t& stride_elems) {
  std::int64_t size[kMaxFreeDims], stride[kMaxFreeDims];
  const int nd = fold_free_dims(t, size, stride);
  stride_elems = nd == 1 ? stride[0] : 1;
  return nd <= 1;
}

namespace {
template <class T>
void fill_run(std::byte* ptr, std::int64_t n, std::int64_t step_bytes, T v) {
  for (std::int64_t i = 0; i < n; ++i) std::memcpy(ptr + i * step_bytes, &v, sizeof v);
}
template <class T>
void fill_elements_of(const Tile& t, const std::byte* elem) {
  T v;
  std::memcpy(&v, elem, sizeof v);
  std::int64_t st = 1;
  if (single_run(t, st)) {
    const std::int64_t n = free_size_of(t);
    if (n == 1) {  // a [P, 1] column (a reduction's accumulator): one store per partition
      for (std::int32_t p = 0; p < t.partitions; ++p) std::memcpy(t.base + std::int64_t{p} * t.partition_stride, &v, sizeof v);
      return;
    }
    for (std::int32_t p = 0; p < t.partitions; ++p)
      fill_run(t.base + std::int64_t{p} * t.partition_stride, n, st * std::int64_t{sizeof v}, v);
    return;
  }
  for (std::int32_t p = 0; p < t.partitions; ++p)
    for_each_run(t, p, [&](std::byte* ptr, std::int64_t n, std::int64_t rs, std::int64_t) {
      fill_run(ptr, n, rs * std::int64_t{sizeof v}, v);
    });
}
}  // namespace

void fill_elements(const Tile& t, const std::byte* elem) {
  switch (dtype_size(t.dtype)) {
    case 4: return fill_elements_of<std::uint32_t>(t, elem);
    case 2: return fill_elements_of<std::uint16_t>(t, elem);
    default: return fill_elements_of<std::uint8_t>(t, elem);
  }
}

float* scratch_f32(int slot, std::size_t n) {
  thread_local std::vector<float> bufs[4];
  auto& b = bufs[slot];
  if (b.size() < n) b.resize(n);
  return b.data();
}

std::int64_t* scratch_i64(int slot, std::size_t n) {
  thread_local std::vector<std::int64_t> bufs[4];
  auto& b = bufs[slot];
  if (b.size() < n) b.resize(n);
  return b.data();
}

namespace {
// One operand of a record in one pass over its free dimensions: its free size (free_size_of),
// whether it is one dense run (free_contiguous_of), the bytes it moves (free size x partitions x
// element size) and its region (region_inline), which describe computed in three walks. The same
// sums and tests, so the same values. Every field the record needs is read from the tile before the
// region is written (session 25: the record's integer fields may alias the tile's, so a store into
// the region before the reads made the compiler load the tile's fields again after it, ~15 host
// instructions per operand). The region is written in place (into the record's next slot), every
// field of it, so what the slot held does not matter.
struct OperandFacts {
  std::int64_t free;
  std::int64_t bytes;  // free * partitions * element size
  DType dtype;
  std::int32_t partitions;
  bool contiguous;
};
inline OperandFacts describe_operand(const Tile& t, bool write, Region& r) {
  const MemSpace mem = t.mem;
  const DType dtype = t.dtype;
  const std::int32_t partitions = t.partitions;
  const std::int64_t es = elem_bytes(dtype);
  std::int64_t free = 1, lo = 0, hi = 0;
  bool contiguous = true;
  if (t.ndim == 1) [[likely]] {
    // One free dimension (a small call's rows and columns): the loops below for d = 0 alone.
    const std::int64_t size = t.size[0], stride = t.stride[0];
    free = size;
    contiguous = size == 1 || stride == 1;
    if (mem == MemSpace::hbm) {
      const std::int64_t ext = stride * (size - 1) * es;
      (ext < 0 ? lo : hi) += ext;
    } else if (size > 0) {
      if (stride < 0) lo = stride * (size - 1);
      if (stride > 0) hi = stride * (size - 1);
    }
  } else if (mem == MemSpace::hbm) {
    std::int64_t expect = 1;
    for (int d = t.ndim - 1; d >= 0; --d) {
      const std::int64_t size = t.size[d], stride = t.stride[d];
      free *= size;
      if (size != 1 && stride != expect) contiguous = false;
      expect *= size;
      const std::int64_t ext = stride * (size - 1) * es;
      (ext < 0 ? lo : hi) += ext;
    }
  } else {
    std::int64_t expect = 1;
    for (int d = t.ndim - 1; d >= 0; --d) {
      const std::int64_t size = t.size[d], stride = t.stride[d];
      free *= size;
      if (size != 1 && stride != expect) contiguous = false;
      expect *= size;
      if (size <= 0) continue;
      if (stride < 0) lo += stride * (size - 1);
      if (stride > 0) hi += stride * (size - 1);
    }
  }
  std::int32_t p0 = 0, np = 0;
  std::uint64_t region_lo, region_hi;
  if (mem == MemSpace::hbm) {
    const std::int64_t pext = t.partition_stride * (partitions - 1);
    (pext < 0 ? lo : hi) += pext;
    const std::uint64_t base = trace_hbm_address(reinterpret_cast<std::uintptr_t>(t.base));
    region_lo = base + static_cast<std::uint64_t>(lo);
    region_hi = base + static_cast<std::uint64_t>(hi + es);
  } else {
    const std::int64_t offset = t.offset_bytes;
    p0 = t.partition_start;
    np = t.is_partition_broadcast() ? 1 : partitions;
    region_lo = static_cast<std::uint64_t>(offset + lo * es);
    region_hi = static_cast<std::uint64_t>(offset + (hi + 1) * es);
  }
  r.mem = mem;
  r.write = write;
  r.p0 = p0;
  r.np = np;
  r.lo = region_lo;
  r.hi = region_hi;
  return {free, free * partitions * es, dtype, partitions, contiguous};
}

// describe_operand into the record's next region slot (Instruction::add_region, without the copy),
// or, when the record is full, into a scratch region and regions_dropped set.
inline OperandFacts describe_into_record(Instruction& ins, const Tile& t, bool write) {
  if (ins.nregions < ins.regions.size()) [[likely]]
    return describe_operand(t, write, ins.regions[ins.nregions++]);
  Region dropped;
  ins.regions_dropped = true;
  return describe_operand(t, write, dropped);
}
}  // namespace

// The list form below for one source (srcs = {&src}), without the list loop and its null tests: the
// same fields from the same sums in the same order (a DMA's record: two operands, ~200 host
// instructions through the list form, session 24).
void describe(Instruction& ins, const Tile& dst, const Tile& src) {
  const OperandFacts d = describe_into_record(ins, dst, true);
  const OperandFacts f = describe_into_record(ins, src, false);
  ins.out_dtype = d.dtype;
  ins.partitions = d.partitions;
  ins.bytes_written = d.bytes;
  ins.in_dtype = f.dtype;
  ins.inputs = 1;
  ins.free_elems = std::max(d.free, f.free);
  ins.bytes_read += f.bytes;
  ins.contiguous = d.contiguous && f.contiguous;
}

void describe(Instruction& ins, const Tile& dst, std::initializer_list<const Tile*> srcs) {
  const OperandFacts d = describe_into_record(ins, dst, true);
  ins.out_dtype = d.dtype;
  ins.partitions = d.partitions;
  std::int64_t free_elems = d.free, bytes_read = ins.bytes_read;
  int inputs = 0;
  ins.bytes_written = d.bytes;
  bool contiguous = d.contiguous;
  for (const Tile* s : srcs) {
    if (s == nullptr) continue;
    const OperandFacts f = describe_into_record(ins, *s, false);
    contiguous = contiguous && f.contiguous;
    if (inputs == 0) ins.in_dtype = f.dtype;
    ++inputs;
    free_elems = std::max(free_elems, f.free);
    bytes_read += f.bytes;
  }
  ins.inputs = inputs;
  ins.free_elems = free_elems;
  ins.bytes_read = bytes_read;
  ins.contiguous = contiguous;
}

namespace {
struct ProbeBuffers {
  std::mutex mu;
  std::vector<std::shared_ptr<std::vector<InstrProbeSample>>> threads;
};
ProbeBuffers& probe_buffers() {
  static ProbeBuffers b;
  return b;
}
}  // namespace

void instr_probe_commit(const Instruction& ins) {
  const std::uint64_t now = __rdtsc();
  thread_local std::shared_ptr<std::vector<InstrProbeSample>> mine;
  thread_local int index = -1;
  if (!mine) {
    mine = std::make_shared<std::vector<InstrProbeSample>>();
    ProbeBuffers& b = probe_buffers();
    const std::lock_guard lock(b.mu);
    index = static_cast<int>(b.threads.size());
    b.threads.push_back(mine);
  }
  mine->push_back({now, index, ins});
}

std::vector<InstrProbeSample> instr_probe_take() {
  ProbeBuffers& b = probe_buffers();
  const std::lock_guard lock(b.mu);
  std::vector<InstrProbeSample> all;
  for (auto& t : b.threads) {
    all.insert(all.end(), t->begin(), t->end());
    t->clear();
  }
  return all;
}

}  // namespace trn::detail
