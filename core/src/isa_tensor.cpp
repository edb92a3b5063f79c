// TensorE: nc_matmul and nc_transpose. Semantics: trn/core/neuron_core.hpp, matmul_kernels.hpp
// (accumulation order) and docs/numerics.md.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>

#include "program_replay.hpp"
#include "commit_path.hpp"
#include "engine_util.hpp"
#include "matmul_kernels.hpp"
#include "operand_memo.hpp"
#include "trn/core/error.hpp"

namespace trn {

namespace {
constexpr std::string_view kMatmul = "nc_matmul";

bool is_tensor_input_dtype(DType t) {
  return t == DType::f32 || t == DType::tf32 || t == DType::bf16 || t == DType::f16 || is_fp8(t);
}

void check_matmul_dtypes(const HardwareSpec& hw, const Tile& stat, const Tile& mov) {
  const std::pair<const char*, const Tile*> operands[] = {{"stationary", &stat}, {"moving", &mov}};
  for (const auto& [name, t] : operands) {
    if (!is_tensor_input_dtype(t->dtype))
      throw UsageError(kMatmul, name, "dtype " + std::string(dtype_name(t->dtype)) +
                                          " is not a TensorE input type (fp8/bf16/fp16/tf32/fp32)");
    if (t->dtype == DType::f8e4m3fn && !hw.fp8_e4m3fn_native)
      throw NotSupportedError(kMatmul, std::string(name) + " dtype float8_e4m3fn (OCP)", hw.name);
  }
  const bool wide_s = stat.dtype == DType::f32 || stat.dtype == DType::tf32;
  const bool wide_m = mov.dtype == DType::f32 || mov.dtype == DType::tf32;
  if (wide_s != wide_m)
    throw UsageError(kMatmul, "moving",
                     "if one input is tfloat32/float32 the other must be too (stationary " +
                         std::string(dtype_name(stat.dtype)) + ", moving " + std::string(dtype_name(mov.dtype)) + ")");
  if ((stat.dtype == DType::f8e4m3fn && mov.dtype == DType::f8e4m3) ||
      (stat.dtype == DType::f8e4m3 && mov.dtype == DType::f8e4m3fn))
    throw UsageError(kMatmul, "moving", "float8_e4m3fn cannot be mixed with float8_e4m3");
}

// Strict-mode bookkeeping: which PSUM fp32 words hold a matmul-initialised accumulation.
std::size_t psum_word(const NeuronCore& nc, const Tile& t, std::int32_t p, std::int64_t j) {
  return static_cast<std::size_t>((std::int64_t{t.partition_start + p} * nc.hw().psum_partition_bytes +
                                   t.offset_bytes) / 4 + j);
}
}  // namespace


// Converts a K x F matmul operand to fp32: row-major (panel == 0) or packed in zero-padded panels of
// `panel` columns (see detail::PackLayout), cached per operand role by SBUF address until an
// instruction writes any of the bytes it came from (invalidate_operand_memo).
// convert_on_first_use == false (moving operands the kernel could widen panel by panel): the first
// use only records the view and returns nullptr; a second use while its bytes are unchanged (a
// resident DFT matrix, a plane read by two matmuls) converts and memoises it.
const float* NeuronCore::converted_operand(const Tile& t, int panel, int which, const detail::RowScan** scan_out,
                                           bool convert_on_first_use) {
  sbuf_.drain_poisoned([&](std::int64_t lo, std::int64_t hi) {  // allocations since the last read
    Region poisoned;
    poisoned.mem = MemSpace::sbuf;
    poisoned.write = true;
    poisoned.p0 = 0;
    poisoned.np = sbuf_.partitions();
    poisoned.lo = static_cast<std::uint64_t>(lo);
    poisoned.hi = static_cast<std::uint64_t>(hi);
    invalidate_operand_memo(&poisoned);
  });
  OperandMemoCache::Role& role = memo_->roles[static_cast<std::size_t>(which)];
  ++memo_->clock;
  auto drop = [&](std::size_t i) {
    role.entries[i].valid = false;
    role.erase(role.entries[i].base);
    role.free.push_back(i);
  };
  if (auto it = role.index.find(t.base); it != role.index.end()) {
    OperandMemoCache::Entry& e = role.entries[it->second];
    if (e.dtype == t.dtype && e.partitions == t.partitions && e.ndim == t.ndim && e.size == t.size &&
        e.stride == t.stride && e.panel == panel) {
      e.last_use = memo_->clock;
      if (e.converted) {
        if (scan_out != nullptr) *scan_out = e.scan.empty() ? nullptr : e.scan.data();
        return e.data.data();
      }
      convert_on_first_use = true;  // seen before: convert into the same slot (below)
    }
    drop(it->second);  // same address, other view (or a first sighting): replace
  }
  std::size_t slot;
  if (!role.free.empty()) {
    slot = role.free.back();
    role.free.pop_back();
  } else if (role.entries.size() < OperandMemoCache::kEntries[static_cast<std::size_t>(which)]) {
    slot = role.entries.size();
    role.entries.emplace_back();
  } else {  // full: evict the least recently used (a miss costs a conversion anyway)
    slot = 0;
    for (std::size_t i = 1; i < role.entries.size(); ++i)
      if (role.entries[i].last_use < role.entries[slot].last_use) slot = i;
    drop(slot);
    role.free.pop_back();
  }
  OperandMemoCache::Entry& m = role.entries[slot];
  m.last_use = memo_->clock;
  m.base = t.base;
  m.dtype = t.dtype;
  m.partitions = t.partitions;
  m.ndim = t.ndim;
  m.size = t.size;
  m.stride = t.stride;
  m.panel = panel;
  m.valid = true;
  m.converted = convert_on_first_use;
  m.source = region_of(t, false);
  role.insert(m.base, slot);
  if (!convert_on_first_use) return nullptr;
  const int K = t.partitions;
  const std::int64_t F = t.free_size();
  const std::int64_t panels = panel == 0 ? 1 : (F + panel - 1) / panel;
  const std::int64_t width = panel == 0 ? F : panels * panel;
  m.data.resize(static_cast<std::size_t>(width * K));
  float* out = m.data.data();
  // Row flags per column group for zero-term skipping: the kernel's panels, or in row-major layout
  // single stationary columns and the portable kernel's moving blocks.
  const bool scan = K > detail::kScanlessMaxK && K <= detail::kSkipMaxK;
  const int group = panel > 0 ? panel : which == 0 ? detail::kRowMajorGroupA : detail::kRowMajorGroupB;
  const std::int64_t groups = (F + group - 1) / group;
  m.scan.resize(scan ? static_cast<std::size_t>(groups) : 0);
  bool scanned = false;
  if (panel == 0) {
    for (int k = 0; k < K; ++k) detail::load_row(t, k, out + std::int64_t{k} * F);
  } else if (which == 1 && t.free_contiguous()) {
    // Moving panels: the kernel's own vectorised panel widening, which also notes the flags.
    const detail::MovingSource src{t.base, t.partition_stride, t.dtype};
    for (std::int64_t q = 0; q < panels; ++q) {
      const std::int64_t n0 = q * panel, nv = std::min<std::int64_t>(panel, F - n0);
      detail::pack_moving_panel(src, K, static_cast<int>(n0), static_cast<int>(nv), panel, out + q * K * panel,
                                scan ? m.scan.data() + q : nullptr);
    }
    scanned = true;
  } else if (t.free_contiguous() && detail::pack_stationary_panels({t.base, t.partition_stride, t.dtype}, K,
                                                                    static_cast<int>(F), panel, out,
                                                                    scan ? m.scan.data() : nullptr)) {
    scanned = true;  // vectorised packing noted the flags
  } else {
    // Widen each row once (vectorised for contiguous rows), then cut it into the panels.
    float* row = detail::scratch_f32(2, static_cast<std::size_t>(width));
    std::fill(row + F, row + width, 0.0f);
    // Fixed-width chunk copies (the SIMD kernels' mr) compile to a few vector moves, not memmove calls.
    // Rows are 128 partitions apart, beyond any hardware prefetcher's reach: fetch ahead.
    const std::int64_t row_bytes = t.free_contiguous() ? t.bytes_per_partition() : 0;
    constexpr int kAhead = 8;
    for (int k = 0; k < kAhead && k < K; ++k) detail::prefetch_bytes(t.base + k * t.partition_stride, row_bytes);
    auto cut = [&]<int W>(std::integral_constant<int, W>) {
      for (int k = 0; k < K; ++k) {
        if (k + kAhead < K) detail::prefetch_bytes(t.base + (k + kAhead) * t.partition_stride, row_bytes);
        detail::load_row(t, k, row);
        for (std::int64_t p = 0; p < panels; ++p) {
          const float* from = row + p * W;
          float* to = out + (p * K + k) * W;
          for (int i = 0; i < W; ++i) to[i] = from[i];
        }
      }
    };
    if (panel == 12) {
      cut(std::integral_constant<int, 12>{});
    } else if (panel == 6) {
      cut(std::integral_constant<int, 6>{});
    } else {
      for (int k = 0; k < K; ++k) {
        detail::load_row(t, k, row);
        for (std::int64_t p = 0; p < panels; ++p) std::copy_n(row + p * panel, panel, out + (p * K + k) * panel);
      }
    }
  }
  if (scan && !scanned) {
    if (panel > 0)
      detail::scan_rows(out, K, std::int64_t{K} * panel, panel, panel, width, groups, m.scan.data());
    else
      detail::scan_rows(out, K, group, F, group, F, groups, m.scan.data());
  }
  if (scan_out != nullptr) *scan_out = m.scan.empty() ? nullptr : m.scan.data();
  return out;
}

struct PsumState {
  static std::vector<std::uint8_t>& flags(NeuronCore& nc) { return nc.psum_matmul_written_; }
};

namespace {
// double_row operands: fp8 on both sides, free pattern (2, F) with the pair outermost.
void check_double_row(const HardwareSpec& h, const Tile& stat, const Tile& mov) {
  if (!h.fp8_double_row) throw NotSupportedError(kMatmul, "perf_mode double_row", h.name);
  const std::pair<const char*, const Tile*> operands[] = {{"stationary", &stat}, {"moving", &mov}};
  for (const auto& [name, t] : operands) {
    if (!is_fp8(t->dtype))
      throw UsageError(kMatmul, name, "perf_mode double_row takes fp8 inputs only (got " +
                                          std::string(dtype_name(t->dtype)) + ")");
    if (t->ndim != 2 || t->size[0] != 2)
      throw UsageError(kMatmul, name, "perf_mode double_row takes a [K, 2, F] operand (free pattern (2, F))");
  }
}
}  // namespace

void NeuronCore::nc_matmul(const Tile& dst, const Tile& stationary, const Tile& moving, bool accumulate,
                           MatmulPerfMode perf_mode) {
  if (detail::replay::recording_anywhere()) [[unlikely]]
    detail::replay::note_nc_matmul(*this, dst, stationary, moving, accumulate, perf_mode);
  const HardwareSpec& h = *hw_;
  detail::require_nonempty(kMatmul, "stationary", stationary);
  detail::require_nonempty(kMatmul, "moving", moving);
  detail::require_nonempty(kMatmul, "dst", dst);
  detail::require_physical_partitions(kMatmul, "stationary", stationary);
  detail::require_physical_partitions(kMatmul, "moving", moving);
  detail::require_physical_partitions(kMatmul, "dst", dst);
  // "TensorE must read inputs from SBUF and write outputs to PSUM."
  detail::require_mem(kMatmul, "stationary", stationary, {MemSpace::sbuf});
  detail::require_mem(kMatmul, "moving", moving, {MemSpace::sbuf});
  detail::require_mem(kMatmul, "dst", dst, {MemSpace::psum});
  check_matmul_dtypes(h, stationary, moving);
  const bool double_row = perf_mode == MatmulPerfMode::double_row;
  if (double_row) check_double_row(h, stationary, moving);
  const int rows_per_partition = double_row ? 2 : 1;
  if (dst.dtype != DType::f32)
    throw UsageError(kMatmul, "dst", "PSUM output must be float32 (got " + std::string(dtype_name(dst.dtype)) + ")");
  const int K = stationary.partitions, M = static_cast<int>(stationary.free_size() / rows_per_partition);
  const int N = static_cast<int>(moving.free_size() / rows_per_partition);
  if (K > h.pmax) throw LimitError(std::string(kMatmul), "stationary", "contraction size K", K, "pmax", h.pmax, h.name);
  if (moving.partitions != K)
    throw LimitError(std::string(kMatmul), "moving", "partitions", moving.partitions,
                     "contraction size K of 'stationary'", K, h.name);
  if (M > h.gemm_stationary_fmax)
    throw LimitError(std::string(kMatmul), "stationary", "free size", M, "gemm_stationary_fmax",
                     h.gemm_stationary_fmax, h.name);
  if (N > h.gemm_moving_fmax)
    throw LimitError(std::string(kMatmul), "moving", "free size", N, "gemm_moving_fmax", h.gemm_moving_fmax, h.name);
  if (dst.partitions != M)
    throw LimitError(std::string(kMatmul), "dst", "partitions", dst.partitions, "stationary free size M", M, h.name);
  if (dst.free_size() != N)
    throw LimitError(std::string(kMatmul), "dst", "free size", dst.free_size(), "moving free size N", N, h.name);
  detail::require_partition_alignment(kMatmul, "stationary", stationary, h);
  detail::require_partition_alignment(kMatmul, "moving", moving, h);
  detail::require_partition_alignment(kMatmul, "dst", dst, h);
  if (!dst.free_contiguous()) throw UsageError(kMatmul, "dst", "PSUM destination must be a contiguous free range");
  // dst must lie within one PSUM bank (v2/v3); v4 may span consecutive banks for N > 512.
  const std::int64_t lo = dst.free_lo_byte(), hi = dst.free_hi_byte();
  if (h.gemm_moving_fmax <= h.psum_bank_bytes / 4 && lo / h.psum_bank_bytes != (hi - 1) / h.psum_bank_bytes)
    throw LimitError(std::string(kMatmul), "dst", "bank-relative end byte", lo % h.psum_bank_bytes + (hi - lo),
                     "PSUM bank size", h.psum_bank_bytes, h.name);
  auto& written = PsumState::flags(*this);
  if (cfg_.strict && accumulate) {
    for (int m = 0; m < M; ++m)
      for (int j = 0; j < N; ++j)
        if (!written[psum_word(*this, dst, m, j)])
          throw UsageError(kMatmul, "dst",
                           "accumulate=true on a PSUM location not initialised by an accumulate=false matmul "
                           "(undefined behaviour on hardware; strict mode)");
  }

  Instruction& ins = record(Engine::tensor, Opcode::nc_matmul);
  ins.in_dtype = moving.dtype;
  ins.out_dtype = DType::f32;
  ins.partitions = K;
  ins.free_elems = N;
  ins.matmul_m = M;
  ins.inputs = 2;
  ins.accumulate = accumulate;
  ins.double_row = double_row;
  ins.bytes_read = stationary.elements() * dtype_size(stationary.dtype) + moving.elements() * dtype_size(moving.dtype);
  ins.bytes_written = std::int64_t{M} * N * 4;
  ins.add_region(region_of(stationary, false));
  ins.add_region(region_of(moving, false));
  ins.add_region(region_of(dst, true));
  if (accumulate) ins.add_region(region_of(dst, false));
  if (!executes()) return commit_instruction();

  if (double_row) {
    // Row p of an operand widened to fp32 is [pair 0: F][pair 1: F], so the row-major conversion
    // is already the 2K x F matrix whose row 2p + r is (p, r).
    const float* A = converted_operand(stationary, 0, 0);
    const float* B = converted_operand(moving, 0, 1);
    float* C = reinterpret_cast<float*>(dst.base);
    const std::int64_t ldc = dst.partition_stride / 4;
    if (cfg_.double_row_order == DoubleRowOrder::sequential) {
      // The micro-kernel contract over 2K rows (matmul_kernels.hpp), so every ISA gives the same
      // bits: the SIMD kernels run it on operands packed into their panels here (zero-padded edges;
      // no zero-term skipping), the portable kernel on the row-major conversion.
      const MatmulIsa isa = detail::resolve_matmul_isa(cfg_.matmul_isa);
      const detail::PackLayout pack = detail::matmul_pack_layout(isa);
      if (pack.mr > 0) {
        thread_local std::vector<float> a_panels, b_panels;
        detail::pack_row_major_panels(A, 2 * K, M, pack.mr, a_panels);
        detail::pack_row_major_panels(B, 2 * K, N, pack.nr, b_panels);
        detail::run_matmul(isa, {a_panels.data(), M, b_panels.data(), N, 2 * K, M, N, C, ldc, accumulate, pack, {}});
      } else {
        detail::matmul_portable({A, M, B, N, 2 * K, M, N, C, ldc, accumulate, detail::PackLayout{}, {}});
      }
    } else {
      // pair_sum: the PE's two fp8 products are exact in fp32; their sum is rounded once, then
      // added to the column's running sum.
      for (int m = 0; m < M; ++m)
        for (int n = 0; n < N; ++n) {
          float acc = 0.0f;
          for (int p = 0; p < K; ++p) {
            const std::int64_t r0 = std::int64_t{2} * p, r1 = r0 + 1;
            const float pair = A[r0 * M + m] * B[r0 * N + n] + A[r1 * M + m] * B[r1 * N + n];
            acc += pair;
          }
          float& c = C[m * ldc + n];
          c = accumulate ? c + acc : acc;
        }
    }
    if (!written.empty())
      for (int m = 0; m < M; ++m)
        std::fill_n(written.begin() + static_cast<std::ptrdiff_t>(psum_word(*this, dst, m, 0)), N, std::uint8_t{1});
    return commit_instruction();
  }

  // Convert the operands to fp32 (exact), in the layout of the host micro-kernel (packed panels for
  // the SIMD kernels), and run it on the PSUM rows.
  const bool product_rounded =
      cfg_.numerics == Numerics::trn1_measured && stationary.dtype == DType::bf16 && moving.dtype == DType::bf16;
  const MatmulIsa isa = detail::resolve_matmul_isa(cfg_.matmul_isa);
  // A narrow fp32 moving operand (the trsv kernel's row broadcasts): computed in place, no operand
  // conversion (matmul_kernels.hpp, matmul_narrow: the same bits). Not memoised, so the memo's
  // entries are those of the other matmuls only; its invalidation is unchanged.
  if (!product_rounded && N <= detail::kNarrowMaxN && stationary.dtype == DType::f32 && moving.dtype == DType::f32 &&
      stationary.free_contiguous() && moving.free_contiguous() &&
      detail::matmul_narrow(isa, reinterpret_cast<const float*>(stationary.base), stationary.partition_stride / 4,
                            reinterpret_cast<const float*>(moving.base), moving.partition_stride / 4, K, M, N,
                            reinterpret_cast<float*>(dst.base), dst.partition_stride / 4, accumulate)) {
    if (!written.empty())
      for (int m = 0; m < M; ++m)
        std::fill_n(written.begin() + static_cast<std::ptrdiff_t>(psum_word(*this, dst, m, 0)), N, std::uint8_t{1});
    return commit_instruction();
  }
  const detail::PackLayout pack = product_rounded ? detail::PackLayout{} : detail::matmul_pack_layout(isa);
  // The stationary operand is converted once and memoised. A contiguous moving operand is widened
  // panel by panel inside the kernel on its first use (its fp32 copy would not fit in L1); used again
  // with its bytes unchanged (a resident DFT matrix, a plane read by two matmuls), it is converted
  // once and memoised too.
  const detail::RowScan* a_scan = nullptr;
  const detail::RowScan* b_scan = nullptr;
  const float* A = converted_operand(stationary, pack.mr, 0, &a_scan);
  detail::MovingSource src{moving.base, moving.partition_stride, moving.dtype};
  const bool pack_in_kernel = pack.nr > 0 && moving.free_contiguous();
  const float* B = converted_operand(moving, pack.nr, 1, &b_scan, !pack_in_kernel);
  detail::MatmulArgs args{A, M, B, N, K, M, N, reinterpret_cast<float*>(dst.base), dst.partition_stride / 4,
                          accumulate, pack, src};
  // Zero-term skipping (exact; matmul_kernels.hpp): needs the flags of both operands, K <= 128.
  args.skip = cfg_.matmul_skip_zero_terms && !detail::matmul_dense_forced() && a_scan != nullptr &&
              (B == nullptr || b_scan != nullptr);
  args.a_scan = a_scan;
  args.b_scan = b_scan;
  if (product_rounded)
    detail::matmul_bf16_product_rounded(args);
  else
    detail::run_matmul(isa, args);

  if (!written.empty())
    for (int m = 0; m < M; ++m)
      std::fill_n(written.begin() + static_cast<std::ptrdiff_t>(psum_word(*this, dst, m, 0)), N, std::uint8_t{1});
  commit_instruction();
}

namespace {
// dst[f, p] = src[p, f] element by element (p outer, f inner, as Tile::at addressing would copy
// them) for tiles whose free patterns are single runs: the addresses advance by fixed steps.
template <class T>
void transpose_run_copies(std::byte* d0, std::int64_t dps, std::int64_t dstep, const std::byte* s0, std::int64_t sps,
                          std::int64_t sstep, std::int64_t P, std::int64_t F) {
  if (F == 1) {  // a column to a row (a reduction's partials): the same copies, one loop
    for (std::int64_t p = 0; p < P; ++p) {
      T v;
      std::memcpy(&v, s0 + p * sps, sizeof v);
      std::memcpy(d0 + p * dstep, &v, sizeof v);
    }
    return;
  }
  for (std::int64_t p = 0; p < P; ++p)
    for (std::int64_t f = 0; f < F; ++f) {
      T v;
      std::memcpy(&v, s0 + p * sps + f * sstep, sizeof v);
      std::memcpy(d0 + f * dps + p * dstep, &v, sizeof v);
    }
}
void transpose_single_runs(const Tile& dst, std::int64_t dst_st, const Tile& src, std::int64_t src_st, std::int64_t P,
                           std::int64_t F, std::int64_t es) {
  const std::int64_t ds = dst_st * es, ss = src_st * es;
  switch (es) {
    case 4: return transpose_run_copies<std::uint32_t>(dst.base, dst.partition_stride, ds, src.base, src.partition_stride, ss, P, F);
    case 2: return transpose_run_copies<std::uint16_t>(dst.base, dst.partition_stride, ds, src.base, src.partition_stride, ss, P, F);
    default: return transpose_run_copies<std::uint8_t>(dst.base, dst.partition_stride, ds, src.base, src.partition_stride, ss, P, F);
  }
}
}  // namespace

void NeuronCore::nc_transpose(const Tile& dst, const Tile& src, Engine engine) {
  const std::string_view instr = "nc_transpose";
  const HardwareSpec& h = *hw_;
  detail::require_nonempty(instr, "src", src);
  detail::require_nonempty(instr, "dst", dst);
  detail::require_physical_partitions(instr, "src", src);
  detail::require_physical_partitions(instr, "dst", dst);
  const std::int64_t P = src.partitions, F = src.free_size();
  if (dst.partitions != F || dst.free_size() != P)
    throw LimitError(std::string(instr), "dst", "shape [partitions x free] " + std::to_string(dst.partitions) + " x",
                     dst.free_size(), "transposed src shape " + std::to_string(F) + " x", P, h.name);
  detail::require_partition_alignment(instr, "src", src, h);
  detail::require_partition_alignment(instr, "dst", dst, h);
  if (engine == Engine::vector) {
    const int lim = h.vector_transpose_max;
    if (P > lim) throw LimitError(std::string(instr), "src", "partitions", P, "VectorE transpose size", lim, h.name);
    if (F > lim) throw LimitError(std::string(instr), "src", "free size", F, "VectorE transpose size", lim, h.name);
    detail::require_mem(instr, "src", src, {MemSpace::sbuf, MemSpace::psum});
    detail::require_mem(instr, "dst", dst, {MemSpace::sbuf, MemSpace::psum});
    if (dst.dtype != src.dtype) throw UsageError(instr, "dst", "VectorE transpose preserves the dtype");
  } else if (engine == Engine::tensor) {
    if (P > h.pmax) throw LimitError(std::string(instr), "src", "partitions", P, "pmax", h.pmax, h.name);
    if (F > h.gemm_stationary_fmax)
      throw LimitError(std::string(instr), "src", "free size", F, "gemm_stationary_fmax", h.gemm_stationary_fmax, h.name);
    detail::require_mem(instr, "src", src, {MemSpace::sbuf});
    detail::require_mem(instr, "dst", dst, {MemSpace::psum});
    if (!is_tensor_input_dtype(src.dtype))
      throw UsageError(instr, "src", "dtype " + std::string(dtype_name(src.dtype)) + " is not a TensorE input type");
    if (!h.tensor_transpose_bit_accurate && dst.dtype != DType::f32)
      throw UsageError(instr, "dst", "TensorE transpose on " + std::string(h.name) + " writes float32 PSUM");
    if (dst.dtype != DType::f32 && dst.dtype != src.dtype)
      throw UsageError(instr, "dst", "TensorE transpose writes float32 or the source dtype");
  } else {
    throw UsageError(instr, "engine", "nc_transpose runs on TensorE or VectorE");
  }

  Instruction& ins = record(engine, Opcode::nc_transpose);
  detail::describe(ins, dst, {&src});
  ins.partitions = static_cast<std::int32_t>(P);
  ins.free_elems = F;
  if (!executes()) return commit_instruction();

  if (engine == Engine::tensor && !h.tensor_transpose_bit_accurate) {
    // NeuronCore-v2: transpose is nc_matmul(src as stationary, identity as moving): out[f, p] =
    // sum_k src[k, f] * I[k, p] in fp32, so -0 becomes +0 and a NaN/Inf anywhere in src column f
    // turns the whole output row f into NaN (Inf * 0), as the ISA warns.
    float* S = detail::scratch_f32(0, static_cast<std::size_t>(P * F));
    for (std::int32_t p = 0; p < P; ++p) detail::load_row(src, p, S + p * F);
    float* row = detail::scratch_f32(1, static_cast<std::size_t>(P));
    for (std::int64_t f = 0; f < F; ++f) {
      for (std::int64_t p = 0; p < P; ++p) {
        float s = 0.0f;
        for (std::int64_t k = 0; k < P; ++k) s = std::fma(S[k * F + f], k == p ? 1.0f : 0.0f, s);
        row[p] = s;
      }
      detail::store_row(dst, static_cast<std::int32_t>(f), row, Rounding::nearest_even, nullptr);
    }
  } else {
    // Bit-accurate transpose (VectorE; TensorE is_transpose mode on v3+): element copies.
    const std::int64_t es = dtype_size(src.dtype);
    std::int64_t sst = 1, dst_st = 1;
    if (dst.dtype == src.dtype && detail::single_run(src, sst) && detail::single_run(dst, dst_st)) {
      transpose_single_runs(dst, dst_st, src, sst, P, F, es);  // the same copies in the same order
    } else if (dst.dtype == src.dtype) {
      for (std::int64_t p = 0; p < P; ++p)
        for (std::int64_t f = 0; f < F; ++f)
          std::memcpy(dst.at(static_cast<std::int32_t>(f), p), src.at(static_cast<std::int32_t>(p), f),
                      static_cast<std::size_t>(es));
    } else {  // 16-bit source widened exactly into fp32 PSUM
      for (std::int64_t p = 0; p < P; ++p)
        for (std::int64_t f = 0; f < F; ++f)
          store_from_f32(DType::f32, dst.at(static_cast<std::int32_t>(f), p),
                         load_as_f32(src.dtype, src.at(static_cast<std::int32_t>(p), f)), Rounding::nearest_even, 0);
    }
  }
  commit_instruction();
}

}  // namespace trn
