// VectorE (and GpSimdE where the ISA allows): element-wise, reduce, scan, copy, memset,
// bn_stats/bn_aggr, reciprocal. Arithmetic is fp32 (inputs cast to fp32, result cast on write);
// bitvec ops and same-dtype copies are bit-exact. Semantics: docs/numerics.md.
#include <string>

#include "engine_util.hpp"
#include "trn/core/error.hpp"

namespace trn {

void NeuronCore::tensor_copy(const Tile& dst, const Tile& src, Engine engine, InstrOptions opt) {
  const std::string_view instr = "tensor_copy";
  if (engine != Engine::vector && engine != Engine::gpsimd && engine != Engine::scalar)
    throw UsageError(instr, "engine", "tensor_copy runs on VectorE, ScalarE or GpSimdE");
  detail::check_engine_operand(instr, "src", src, *hw_, engine);
  detail::check_engine_operand(instr, "dst", dst, *hw_, engine);
  detail::require_same_partitions(instr, "src", src, "dst", dst);
  detail::require_same_free_size(instr, "src", src, "dst", dst);
  Instruction& ins = record(engine, Opcode::tensor_copy);
  detail::describe(ins, dst, {&src});
  // Same dtype on VectorE/GpSimdE: bit-exact. ScalarE on v2 always goes through fp32 (ISA).
  const bool bit_exact = dst.dtype == src.dtype && !(engine == Engine::scalar && hw_->generation == Generation::trn1);
  const bool int_native = is_integer(dst.dtype) && is_integer(src.dtype) && engine != Engine::scalar &&
                          cfg_.numerics == Numerics::ideal;
  if (bit_exact) {
    for (std::int32_t p = 0; p < src.partitions; ++p) detail::copy_row_bits(dst, p, src, p);
  } else if (int_native) {
    std::int64_t* row = detail::scratch_i64(0, static_cast<std::size_t>(src.free_size()));
    for (std::int32_t p = 0; p < src.partitions; ++p) {
      detail::load_row_int(src, p, row);
      detail::store_row_int(dst, p, row);
    }
  } else {
    const Rounding r = rounding_for(opt);
    const SrStream sr = sr_stream();
    float* row = detail::scratch_f32(0, static_cast<std::size_t>(src.free_size()));
    for (std::int32_t p = 0; p < src.partitions; ++p) {
      detail::load_row(src, p, row);
      detail::store_row(dst, p, row, r, &sr);
    }
  }
  commit_instruction();
}

}  // namespace trn
