// GpSimdE: iota, affine_select and user custom operators (ISA iota / affine_select, ARCH2).
// tensor_tensor / tensor_scalar / tensor_copy / memset on GpSimdE live in isa_vector.cpp.
// "GpSimd Engine cannot access PSUM": every operand here must be in SBUF (check_engine_operand with
// Engine::gpsimd). GpSimdE is the engine with native 32-bit integer arithmetic (6.3).
//
// Affine values (iota, affine_select): for partition p of the tile (0-based within the tile, not the
// physical partition) and free indices (i_0, ..., i_{d-1}) of the pattern [[step_0, num_0], ...]
// (outermost first; flat element order = access-pattern order of dst):
//   value = offset + p * channel_multiplier + sum_k i_k * step_k
// computed in 32-bit integer arithmetic: every term wraps modulo 2^32 and the sum is read as int32.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "commit_path.hpp"
#include "engine_util.hpp"
#include "trn/core/error.hpp"

namespace trn {

namespace {

using Pattern = std::span<const std::array<std::int64_t, 2>>;

void check_pattern(std::string_view instr, Pattern pattern, const Tile& dst, const HardwareSpec& hw) {
  const auto dims = static_cast<std::int64_t>(pattern.size());
  if (dims < 1 || dims > hw.access_pattern_max_dims)
    throw LimitError(std::string(instr), "pattern", "dimensions", dims, "access-pattern dims (1 to)",
                     hw.access_pattern_max_dims, hw.name);
  std::int64_t count = 1;
  for (const auto& [step, num] : pattern) {
    if (num < 1) throw LimitError(std::string(instr), "pattern", "num", num, "minimum", 1, hw.name);
    count *= num;
    if (count > dst.free_size()) break;
  }
  if (count != dst.free_size())
    throw LimitError(std::string(instr), "pattern", "element count (product of nums)", count, "free size of 'dst'",
                     dst.free_size(), hw.name);
}

// Affine values of row p into out[0 .. product of nums), int32 wrap-around arithmetic.
void affine_row(Pattern pattern, std::int64_t offset, std::int64_t channel_multiplier, std::int32_t p,
                std::int64_t* out) {
  const int dims = static_cast<int>(pattern.size());
  std::uint32_t step[kMaxFreeDims] = {0, 0, 0, 0};
  std::int64_t num[kMaxFreeDims] = {1, 1, 1, 1}, idx[kMaxFreeDims] = {0, 0, 0, 0};
  for (int d = 0; d < dims; ++d) {
    step[d] = static_cast<std::uint32_t>(pattern[d][0]);
    num[d] = pattern[d][1];
  }
  const std::uint32_t base =
      static_cast<std::uint32_t>(offset) + static_cast<std::uint32_t>(p) * static_cast<std::uint32_t>(channel_multiplier);
  // The innermost dimension as one run (v += step: the same value mod 2^32 as base + sum idx * step),
  // the outer ones by an odometer: a LAPACK client's triangle masks spent a quarter of its host
  // time here when every element re-summed every dimension.
  if (dims == 0) {
    out[0] = static_cast<std::int32_t>(base);
    return;
  }
  const int inner = dims - 1;
  std::int64_t outer = 1;
  for (int d = 0; d < inner; ++d) outer *= num[d];
  std::int64_t e = 0;
  for (std::int64_t o = 0; o < outer; ++o) {
    std::uint32_t v = base;
    for (int d = 0; d < inner; ++d) v += static_cast<std::uint32_t>(idx[d]) * step[d];
    for (std::int64_t i = 0; i < num[inner]; ++i, v += step[inner]) out[e++] = static_cast<std::int32_t>(v);
    for (int d = inner - 1; d >= 0; --d) {
      if (++idx[d] < num[d]) break;
      idx[d] = 0;
    }
  }
}

bool is_comparison(AluOp op) { return op >= AluOp::equal && op <= AluOp::less_equal; }

// mask[i] = cmp(value[i], 0) ? 1 : 0, one loop per comparison.
void compare_with_zero(AluOp cmp, std::int64_t* v, std::int64_t n) {
  switch (cmp) {
    case AluOp::equal: for (std::int64_t i = 0; i < n; ++i) v[i] = v[i] == 0; break;
    case AluOp::not_equal: for (std::int64_t i = 0; i < n; ++i) v[i] = v[i] != 0; break;
    case AluOp::greater: for (std::int64_t i = 0; i < n; ++i) v[i] = v[i] > 0; break;
    case AluOp::greater_equal: for (std::int64_t i = 0; i < n; ++i) v[i] = v[i] >= 0; break;
    case AluOp::less: for (std::int64_t i = 0; i < n; ++i) v[i] = v[i] < 0; break;
    case AluOp::less_equal: for (std::int64_t i = 0; i < n; ++i) v[i] = v[i] <= 0; break;
    default: throw Error("internal: compare_with_zero needs a comparison op");
  }
}

// True when the pattern's affine value is the same for every element of a row (each dimension has
// step 0 or a single element): then partition p's value is offset + p * channel_multiplier alone.
// A row selector's mask ([rows, 128], pattern [[0, 128]]) is such a pattern.
bool row_constant(Pattern pattern) {
  return std::all_of(pattern.begin(), pattern.end(), [](const auto& d) { return d[0] == 0 || d[1] == 1; });
}

// cmp(offset + p * channel_multiplier, 0) in the same int32 wrap-around arithmetic as affine_row
// (compare_with_zero's comparisons, inline: one per partition).
bool row_constant_holds(AluOp cmp, std::int64_t offset, std::int64_t channel_multiplier, std::int32_t p) {
  const std::int64_t v = static_cast<std::int32_t>(static_cast<std::uint32_t>(offset) +
                                                   static_cast<std::uint32_t>(p) * static_cast<std::uint32_t>(channel_multiplier));
  switch (cmp) {
    case AluOp::equal: return v == 0;
    case AluOp::not_equal: return v != 0;
    case AluOp::greater: return v > 0;
    case AluOp::greater_equal: return v >= 0;
    case AluOp::less: return v < 0;
    case AluOp::less_equal: return v <= 0;
    default: throw Error("internal: compare_with_zero needs a comparison op");
  }
}

}  // namespace

// iota (ISA iota): dst[p, i...] = the affine value (int32, see above) cast to dst's dtype:
// integer dtypes saturate (a negative value in an unsigned dst gives 0); float dtypes go through
// fp32 (RNE, exact below 2^24) and are then cast by RNE.
void NeuronCore::iota(const Tile& dst, std::span<const std::array<std::int64_t, 2>> pattern, std::int64_t offset,
                      std::int64_t channel_multiplier) {
  const std::string_view instr = "iota";
  detail::check_engine_operand(instr, "dst", dst, *hw_, Engine::gpsimd);
  check_pattern(instr, pattern, dst, *hw_);

  Instruction& ins = record(Engine::gpsimd, Opcode::iota);
  detail::describe(ins, dst, {});
  if (!executes()) return commit_instruction();
  const std::int64_t n = dst.free_size(), P = dst.partitions;
  // channel_multiplier 0 (the same row on every partition: the fp64 slicing's shift tables, the
  // segmented kernel's segment numbers) computes the row once; short integer rows go out in one
  // batch (IntRows::store_rows: no operand to alias), longer ones row by row from one row of scratch
  // (an integer store does not rewrite its values). The same values, rounding and bytes as row by row.
  const bool same_rows = channel_multiplier == 0;
  if (is_integer(dst.dtype)) {
    const detail::IntRows int_rows(dst, detail::IntConv::value);
    if (n <= detail::kIntBatchRow) {
      std::int64_t* v = detail::scratch_i64(0, static_cast<std::size_t>(P * n));
      for (std::int32_t p = 0; p < P; ++p) {
        if (same_rows && p > 0)
          std::copy(v, v + n, v + p * n);
        else
          affine_row(pattern, offset, channel_multiplier, p, v + p * n);
      }
      int_rows.store_rows(dst.partitions, v);
    } else {
      std::int64_t* v = detail::scratch_i64(0, static_cast<std::size_t>(n));
      for (std::int32_t p = 0; p < P; ++p) {
        if (!same_rows || p == 0) affine_row(pattern, offset, channel_multiplier, p, v);
        int_rows.store(p, v);
      }
    }
    return commit_instruction();
  }
  std::int64_t* v = detail::scratch_i64(0, static_cast<std::size_t>(n));
  float* f = detail::scratch_f32(0, static_cast<std::size_t>(n));
  for (std::int32_t p = 0; p < P; ++p) {
    if (!same_rows || p == 0) {
      affine_row(pattern, offset, channel_multiplier, p, v);
      for (std::int64_t i = 0; i < n; ++i) f[i] = static_cast<float>(v[i]);
    }
    detail::store_row(dst, p, f, Rounding::nearest_even, nullptr);
  }
  commit_instruction();
}

// affine_select (ISA affine_select): dst = cmp(affine_value, 0) ? on_true : on_false. cmp is one of
// equal, not_equal, greater, greater_equal, less, less_equal. If dst and on_true both have integer
// dtypes the selection is exact (on_false converted by RNE + saturation to dst's dtype); otherwise
// on_true is read as fp32, on_false is fp32, and the selected value is cast to dst with the
// instruction's rounding (the core's global RNE/SR setting).
void NeuronCore::affine_select(const Tile& dst, std::span<const std::array<std::int64_t, 2>> pattern,
                               std::int64_t offset, std::int64_t channel_multiplier, AluOp cmp, const Tile& on_true,
                               float on_false) {
  const std::string_view instr = "affine_select";
  if (!is_comparison(cmp))
    throw UsageError(instr, "cmp", std::string(alu_op_name(cmp)) +
                                       " is not a comparison (equal, not_equal, greater, greater_equal, less, "
                                       "less_equal)");
  detail::check_engine_operand(instr, "on_true", on_true, *hw_, Engine::gpsimd);
  detail::check_engine_operand(instr, "dst", dst, *hw_, Engine::gpsimd);
  detail::require_same_partitions(instr, "on_true", on_true, "dst", dst);
  detail::require_same_free_size(instr, "on_true", on_true, "dst", dst);
  check_pattern(instr, pattern, dst, *hw_);

  Instruction& ins = record(Engine::gpsimd, Opcode::affine_select);
  detail::describe(ins, dst, {&on_true});
  if (!executes()) return commit_instruction();
  const std::int64_t n = dst.free_size();
  std::int64_t* mask = detail::scratch_i64(0, static_cast<std::size_t>(n));
  // A row-constant pattern selects whole rows: one comparison per partition, on_true's row copied
  // or on_false's filled, through the same row loads and stores (the same bytes as element-wise).
  const bool whole_rows = row_constant(pattern);
  bool row_is_fill = false;
  if (is_integer(dst.dtype) && is_integer(on_true.dtype)) {
    const std::int64_t f = f32_to_int_saturate(dst.dtype, on_false);
    std::int64_t* t = detail::scratch_i64(1, static_cast<std::size_t>(n));
    const detail::IntRows true_rows(on_true, detail::IntConv::value), dst_rows(dst, detail::IntConv::value);
    for (std::int32_t p = 0; p < dst.partitions; ++p) {
      if (whole_rows) {
        const bool keep = row_constant_holds(cmp, offset, channel_multiplier, p);
        if (keep)
          true_rows.load(p, t);
        else if (!row_is_fill)
          std::fill_n(t, n, f);
        row_is_fill = !keep;  // t holds on_false's row for the next rejected partition
      } else {
        affine_row(pattern, offset, channel_multiplier, p, mask);
        compare_with_zero(cmp, mask, n);
        true_rows.load(p, t);
        for (std::int64_t i = 0; i < n; ++i) t[i] = mask[i] != 0 ? t[i] : f;
      }
      dst_rows.store(p, t);
    }
  } else if (dst.dtype == DType::f32 && on_true.dtype == DType::f32 && dst.free_contiguous() &&
             on_true.free_contiguous()) {
    // fp32 rows: the loads and stores below are bit copies under every rounding mode (dtype.cpp,
    // load_row_f32 / store_row_f32), so each row is read from on_true's address and written at dst's
    // directly, in the same order (row p read whole, then written) — the same bytes, without the
    // generic row walks (the trsv kernel's selector and column masks: most of its GpSimdE time).
    const auto row_bytes = static_cast<std::size_t>(n) * 4;
    float* t = detail::scratch_f32(0, static_cast<std::size_t>(n));
    // Addresses in locals (the byte copies may alias the Tile fields); a +0 fill is a memset.
    std::byte* const dst_base = dst.base;
    const std::byte* const true_base = on_true.base;
    const std::int64_t dps = dst.partition_stride, tps = on_true.partition_stride;
    const bool zero_fill = std::bit_cast<std::uint32_t>(on_false) == 0;
    // Whole rows: every partition's comparison first (one switch for the instruction).
    std::int64_t* keep = whole_rows ? detail::scratch_i64(1, static_cast<std::size_t>(dst.partitions)) : nullptr;
    if (whole_rows) {
      for (std::int32_t p = 0; p < dst.partitions; ++p)
        keep[p] = static_cast<std::int32_t>(static_cast<std::uint32_t>(offset) +
                                            static_cast<std::uint32_t>(p) * static_cast<std::uint32_t>(channel_multiplier));
      compare_with_zero(cmp, keep, dst.partitions);
    }
    for (std::int32_t p = 0; p < dst.partitions; ++p) {
      auto* out = reinterpret_cast<float*>(dst_base + std::int64_t{p} * dps);
      const auto* in = reinterpret_cast<const float*>(true_base + std::int64_t{p} * tps);
      if (whole_rows) {
        if (keep[p] != 0) {
          if (out != in) std::memmove(out, in, row_bytes);
        } else if (zero_fill) {
          std::memset(out, 0, row_bytes);
        } else {
          std::fill_n(out, n, on_false);
        }
      } else {
        affine_row(pattern, offset, channel_multiplier, p, mask);
        compare_with_zero(cmp, mask, n);
        std::memcpy(t, in, row_bytes);
        for (std::int64_t i = 0; i < n; ++i) t[i] = mask[i] != 0 ? t[i] : on_false;
        std::memcpy(out, t, row_bytes);
      }
    }
  } else {
    const Rounding r = rounding_for({});
    const SrStream sr = sr_stream();
    float* t = detail::scratch_f32(0, static_cast<std::size_t>(n));
    for (std::int32_t p = 0; p < dst.partitions; ++p) {
      if (whole_rows) {
        const bool keep = row_constant_holds(cmp, offset, channel_multiplier, p);
        if (keep)
          detail::load_row(on_true, p, t);
        else if (!row_is_fill)
          std::fill_n(t, n, on_false);
        row_is_fill = !keep;
      } else {
        affine_row(pattern, offset, channel_multiplier, p, mask);
        compare_with_zero(cmp, mask, n);
        detail::load_row(on_true, p, t);
        for (std::int64_t i = 0; i < n; ++i) t[i] = mask[i] != 0 ? t[i] : on_false;
      }
      detail::store_row(dst, p, t, r, &sr);
    }
  }
  commit_instruction();
}

// custom_op: user C++ run as GpSimd code (ARCH2: "there is no rule-of-thumb to estimate
// execution cost of a GpSimdE instruction", so the caller declares `cycles`). At least one output;
// every output and input must be a non-empty, aligned SBUF tile within the engine free-size limit;
// cycles must be finite and >= 0; fn must be callable. The instruction is recorded (engine gpsimd,
// declared_cycles = cycles, regions of the first four operands, outputs first), then fn runs with
// the operand tiles, then the instruction is committed. fn must not issue NeuronCore instructions.
// If fn throws, its trace record is removed and the exception propagates; whatever fn already wrote
// stays written.
void NeuronCore::custom_op(std::string_view name, std::span<const Tile> outputs, std::span<const Tile> inputs,
                           double cycles, const CustomOpFn& fn) {
  // The instruction's name and the operand labels are built only for an error (two heap strings
  // per operand on every call were most of a small custom operator's host cost).
  const auto instr = [name] { return "custom_op '" + std::string(name) + "'"; };
  if (outputs.empty()) throw UsageError(instr(), "outputs", "a custom operator needs at least one output tile");
  const auto check_operands = [&](std::span<const Tile> tiles, std::string_view kind) {
    for (std::size_t i = 0; i < tiles.size(); ++i)
      if (!detail::engine_operand_ok(tiles[i], *hw_, Engine::gpsimd))
        detail::check_engine_operand_checked(instr(), std::string(kind) + "[" + std::to_string(i) + "]", tiles[i],
                                             *hw_, Engine::gpsimd);
  };
  check_operands(outputs, "outputs");
  check_operands(inputs, "inputs");
  if (!std::isfinite(cycles) || cycles < 0.0)
    throw UsageError(instr(), "cycles", "declared cycles " + std::to_string(cycles) + " must be finite and >= 0");
  if (!fn) throw UsageError(instr(), "fn", "empty function");

  const std::size_t record_at = trace_.instructions.size();
  Instruction& ins = record(Engine::gpsimd, Opcode::custom_op);
  ins.declared_cycles = cycles;
  ins.out_dtype = outputs[0].dtype;
  ins.in_dtype = inputs.empty() ? outputs[0].dtype : inputs[0].dtype;
  ins.inputs = static_cast<std::int32_t>(inputs.size());
  for (const Tile& t : outputs) {
    ins.partitions = std::max(ins.partitions, t.partitions);
    ins.free_elems = std::max(ins.free_elems, t.free_size());
    ins.bytes_written += t.elements() * dtype_size(t.dtype);
    ins.add_region(region_of(t, true));
  }
  for (const Tile& t : inputs) {
    ins.partitions = std::max(ins.partitions, t.partitions);
    ins.free_elems = std::max(ins.free_elems, t.free_size());
    ins.bytes_read += t.elements() * dtype_size(t.dtype);
    ins.add_region(region_of(t, false));
  }
  if (!executes()) return commit_instruction();  // timing-only run: fn is not called
  try {
    fn(CustomOpContext{outputs, inputs});
  } catch (...) {
    if (cfg_.trace) trace_.instructions.erase(trace_.instructions.begin() + static_cast<std::ptrdiff_t>(record_at));
    throw;
  }
  commit_instruction();
}

}  // namespace trn
