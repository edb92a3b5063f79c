// One emulated NeuronCore: its SBUF and PSUM, its numerics profile and rounding state, its
// instruction trace, and the instructions of its five engines (TensorE, VectorE, ScalarE,
// GpSimdE, DMA). Semantics of every instruction: docs/numerics.md; hardware sources:
// docs/references.md. Instructions execute eagerly in program order; each one
// validates its operands first (nothing is written when validation fails) and is recorded in
// the trace for the cost model.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "trn/core/dtype.hpp"
#include "trn/core/hardware.hpp"
#include "trn/core/memory.hpp"
#include "trn/core/trace.hpp"
#include "trncore.h"

namespace trn {

enum class Numerics : std::uint8_t { ideal = TRN_NUMERICS_IDEAL, trn1_measured = TRN_NUMERICS_TRN1_MEASURED };
std::string_view numerics_name(Numerics n);

// What ScalarE returns for inputs outside a function's documented valid range (SHARED: "the
// Scalar Engine will generate invalid output results"). nan: poison the lane (default); error:
// throw; extrapolate: evaluate the exact function anyway.
enum class OutOfRange : std::uint8_t { nan, error, extrapolate };

// Host micro-kernel used by nc_matmul. All give identical bits (the accumulation order is part of
// the contract); `automatic` picks the widest the CPU supports.
enum class MatmulIsa : std::uint8_t { automatic, portable, avx2, avx512 };
bool matmul_isa_available(MatmulIsa isa);
std::string_view matmul_isa_name(MatmulIsa isa);

// TensorE performance modes of nc_matmul (ISA nc_matmul `perf_mode`). double_row (NC-v3/v4, fp8
// inputs only): the contraction is split over the partitions and a first free dimension of 2, so one
// instruction contracts 2K rows at the cost of K (docs/numerics.md section 4).
enum class MatmulPerfMode : std::uint8_t { none, double_row };
// How a double_row processing element combines its two products (undocumented; docs/numerics.md
// section 10). sequential: s = RN(RN(s + a0*b0) + a1*b1), i.e. the nc_matmul contract over the 2K
// rows in the order k = 2p + r; pair_sum: s = RN(s + RN(a0*b0 + a1*b1)) (the PE adds its pair first).
enum class DoubleRowOrder : std::uint8_t { sequential, pair_sum };
// Which input NaN an arithmetic element op (VectorE / GpSimdE / ScalarE: add, subtract, multiply,
// divide, maximum, minimum, abs_max, abs_min, power, activation's affine part) returns, quieted,
// when both of its operands are NaN. IEEE 754-2019 6.2.3 leaves the choice open and the hardware's
// is undocumented (docs/numerics.md section 10, row 6); first_operand is the default.
enum class TwoNanResult : std::uint8_t { first_operand, second_operand };

struct CoreConfig {
  Generation generation = Generation::trn1;
  Numerics numerics = Numerics::ideal;
  // NEURON_RT_STOCHASTIC_ROUNDING_EN / _SEED analogue: global SR mode and seed of this core.
  bool stochastic_rounding = false;
  std::uint64_t sr_seed = 0;
  bool trace = true;
  // false: validate and record instructions without computing their data ("timing-only" runs for
  // the cost model on shapes too large to emulate; memory contents are then meaningless).
  bool execute = true;
  // Strict mode: reject accumulate=true onto PSUM that no matmul initialised (UB on v2/v3).
  bool strict = false;
  OutOfRange activation_out_of_range = OutOfRange::nan;
  MatmulIsa matmul_isa = MatmulIsa::automatic;
  DoubleRowOrder double_row_order = DoubleRowOrder::sequential;
  // Host speed only, never results: nc_matmul's host kernels leave out terms that are exact signed
  // zeros (a zero operand value times a finite one) and recompute the rare -0 outputs, which is
  // bit-identical to the dense sum (docs/numerics.md section 4). false (or TRN_MATMUL_DENSE=1 in
  // the environment) runs every term.
  bool matmul_skip_zero_terms = true;
  TwoNanResult two_nan_result = TwoNanResult::first_operand;
};

// ALU operators of Vector/Scalar/GpSimd (SHARED "ALU operators"). Arithmetic ops compute in fp32;
// bitvec ops act on integer bit patterns.
enum class AluOp : std::uint8_t {
  bypass,  // pass the first operand through
  add, subtract, multiply, divide, maximum, minimum, abs_max, abs_min, power,
  equal, not_equal, greater, greater_equal, less, less_equal,  // 1.0 / 0.0
  logical_and, logical_or, logical_xor,
  bitwise_and, bitwise_or, bitwise_xor, left_shift, right_shift,  // bitvec (logical right shift)
};
std::string_view alu_op_name(AluOp op);
bool is_bitvec(AluOp op);

// ScalarE activation functions (SHARED table of valid ranges).
enum class ActFunc : std::uint8_t {
  copy, square, relu, sigmoid, tanh, gelu, gelu_apprx_tanh, silu, softplus, erf, exp, sign, abs,
  log, sin, arctan, sqrt, rsqrt, reciprocal,
};
std::string_view act_func_name(ActFunc f);

// A per-instruction rounding override; nullopt follows the core's global SR setting.
struct InstrOptions {
  std::optional<Rounding> rounding;
};

// A scalar operand: an fp32 immediate or a [P, 1] tile (one value per partition).
struct ScalarOperand {
  ScalarOperand(float v) : imm(v) {}  // NOLINT(google-explicit-constructor)
  ScalarOperand(const Tile& t) : tile(t), is_tile(true) {}  // NOLINT
  float imm = 0.0f;
  Tile tile{};
  bool is_tile = false;
};

// Context handed to a GpSimd custom operator: the operand tiles and the declared cost.
struct CustomOpContext {
  std::span<const Tile> outputs;
  std::span<const Tile> inputs;
};
using CustomOpFn = std::function<void(const CustomOpContext&)>;

struct OperandMemoCache;  // core/src/operand_memo.hpp
namespace detail {
struct RowScan;  // core/src/matmul_kernels.hpp
}

class NeuronCore {
 public:
  explicit NeuronCore(const CoreConfig& cfg = {});
  ~NeuronCore();
  NeuronCore(const NeuronCore&) = delete;
  NeuronCore& operator=(const NeuronCore&) = delete;

  const HardwareSpec& hw() const { return *hw_; }
  const CoreConfig& config() const { return cfg_; }
  OnChipMemory& sbuf() { return sbuf_; }
  OnChipMemory& psum() { return psum_; }
  Trace& trace() { return trace_; }

  // SPMD identity (set by trn::launch).
  int program_id(int axis = 0) const { return program_id_[axis]; }
  int num_programs(int axis = 0) const { return num_programs_[axis]; }
  int linear_program_id() const { return linear_program_; }
  int core_index() const { return core_index_; }

  // Rounding state (global per core; instructions may override).
  void set_stochastic_rounding(bool enable, std::uint64_t seed);
  void set_numerics(Numerics n) { cfg_.numerics = n; }
  std::uint64_t instruction_count() const { return next_instruction_; }

  // Adopt a new configuration (used when a launch reuses a pooled core): memories are rebuilt only
  // when the generation changes; everything else is reset by begin_program.
  void reconfigure(const CoreConfig& cfg);

  // Prepare for a new program: free all memory, restart the instruction counter and the trace.
  void begin_program(std::array<int, 3> pid, std::array<int, 3> npid, int linear, int core_index);

  // ---- TensorE ----------------------------------------------------------------------------
  // dst[M, N] (PSUM fp32) = stationary[K, M]^T @ moving[K, N]   (K <= 128, M <= 128, N <= moving_fmax)
  // accumulate=false overwrites; true adds the product to dst. Accumulation order: see numerics.md.
  // perf_mode double_row (fp8, NC-v3/v4): stationary [K, 2, M] and moving [K, 2, N]; contraction
  // row (p, r) is row k = 2p + r of a 2K-deep product, at the cost of a K-deep one.
  void nc_matmul(const Tile& dst, const Tile& stationary, const Tile& moving, bool accumulate,
                 MatmulPerfMode perf_mode = MatmulPerfMode::none);
  // dst[F, P] = src[P, F]^T. engine tensor: src SBUF [<=128, <=128] -> dst PSUM (via identity matmul
  // on trn1, bit-accurate on trn2+); engine vector: [<=32, <=32] SBUF/PSUM -> SBUF/PSUM, bit exact.
  void nc_transpose(const Tile& dst, const Tile& src, Engine engine = Engine::tensor);

  // ---- VectorE (and GpSimdE where the hardware allows) ---------------------------------------
  void tensor_tensor(const Tile& dst, const Tile& a, const Tile& b, AluOp op, Engine engine = Engine::vector,
                     InstrOptions opt = {});
  // dst = (src op0 s0) op1 s1 ; reverse swaps the operands of op0 / op1.
  void tensor_scalar(const Tile& dst, const Tile& src, AluOp op0, ScalarOperand s0, AluOp op1 = AluOp::bypass,
                     ScalarOperand s1 = 0.0f, Engine engine = Engine::vector, bool reverse0 = false,
                     bool reverse1 = false, InstrOptions opt = {});
  // Reduce all free dimensions of src with op into dst[P, 1]; negate flips the sign of the result.
  void tensor_reduce(const Tile& dst, const Tile& src, AluOp op, bool negate = false, InstrOptions opt = {});
  // r[:, i] = op1(op0(d0[:, i], r[:, i-1]), d1[:, i]) with r[:, -1] = init: an immediate, or a
  // [P, 1] tile (one starting value per partition, read as fp32; e.g. the previous chunk's last column).
  void tensor_tensor_scan(const Tile& dst, const Tile& d0, const Tile& d1, ScalarOperand init, AluOp op0, AluOp op1,
                          InstrOptions opt = {});
  // Copy with cast. Same dtype: bit-exact on Vector/GpSimd; otherwise through fp32.
  void tensor_copy(const Tile& dst, const Tile& src, Engine engine = Engine::vector, InstrOptions opt = {});
  void memset(const Tile& dst, float value, Engine engine = Engine::vector);
  // bn_stats: src [P, F<=512] -> dst [P, 6]: (count, mean, count*var) of even then odd elements.
  void bn_stats(const Tile& dst, const Tile& src);
  // bn_aggr: src [P, 6*k] -> dst [P, 2] (mean, variance) combining the groups.
  void bn_aggr(const Tile& dst, const Tile& src);
  void reciprocal(const Tile& dst, const Tile& src, InstrOptions opt = {});

  // ---- ScalarE ------------------------------------------------------------------------------
  // dst = func(src * scale + bias); if reduce_dst is given, reduce_dst[P, 1] = sum over the free axis
  // of the (fp32) results. scale: immediate or [P,1] tile; bias: [P,1] tile or immediate.
  void activation(const Tile& dst, const Tile& src, ActFunc func, ScalarOperand bias = 0.0f,
                  ScalarOperand scale = 1.0f, const Tile* reduce_dst = nullptr, InstrOptions opt = {});

  // ---- GpSimdE ------------------------------------------------------------------------------
  // dst[p, i...] = offset + p * channel_multiplier + sum_d index_d * step_d (32-bit integer arithmetic),
  // cast to dst's dtype. pattern: [[step, num], ...] outermost first, as the free shape of dst.
  void iota(const Tile& dst, std::span<const std::array<std::int64_t, 2>> pattern, std::int64_t offset,
            std::int64_t channel_multiplier);
  // dst = cmp(affine_value, 0) ? on_true : on_false, affine_value as in iota.
  void affine_select(const Tile& dst, std::span<const std::array<std::int64_t, 2>> pattern, std::int64_t offset,
                     std::int64_t channel_multiplier, AluOp cmp, const Tile& on_true, float on_false);
  // User C++ run as GpSimd code. The function may read `inputs` and write `outputs` (SBUF only) with
  // native integer arithmetic; `cycles` is its declared GpSimd cost for the cost model.
  void custom_op(std::string_view name, std::span<const Tile> outputs, std::span<const Tile> inputs,
                 double cycles, const CustomOpFn& fn);

  // ---- DMA -------------------------------------------------------------------------------------
  // HBM <-> SBUF and SBUF <-> SBUF. Different dtypes convert through fp32 (RNE). PSUM is not a DMA
  // endpoint (you cannot move data directly from PSUM to HBM, KOPT).
  void dma_copy(const Tile& dst, const Tile& src);
  // 2-D transpose during the copy: dst[F, P] = src[P, F]. trn2+ (dma_transpose); 2- and 4-byte dtypes.
  void dma_transpose(const Tile& dst, const Tile& src);
  // Indirect DMA (NKI's indirect load / store through an index tile; its descriptors are built by
  // GpSimdE's software DGE, the only mode for indirect gather / scatter, neuroncore.md 5.5).
  // `table`: an HBM tile of R rows (its partitions) of E elements each (its free size, one dense
  // run). `index`: an SBUF int32 tile [P, K] (one free dimension, any step: the low words of int64
  // indices are a step-2 view). Row index[p, k] - index_base of the table moves to / from elements
  // k E .. k E + E - 1 of partition p of the on-chip tile (SBUF, free size K E, one dense run, the
  // table's dtype: bit copies). Each moved row is one DMA descriptor (the record's declared_cycles,
  // subop kSubopIndirectDma; the cost model charges each). An index outside [index_base,
  // index_base + R) raises UsageError before anything moves (oob_mode error). dma_scatter writes
  // rows in (p, k) order: a row named twice keeps the value of its last (p, k).
  void dma_gather(const Tile& dst, const Tile& table, const Tile& index, std::int64_t index_base = 0);
  void dma_scatter(const Tile& table, const Tile& src, const Tile& index, std::int64_t index_base = 0);

 private:
  // Engine-implementation internals (the isa_*.cpp files): rounding, SR stream, trace records.
  Rounding rounding_for(const InstrOptions& opt) const;
  SrStream sr_stream() const;  // for the instruction being executed
  // A record's start and its commit are on every instruction's path: inline (core/src/commit_path.hpp,
  // the only place they are defined; every core file that records includes it), each with its rare
  // case out of line below.
  inline Instruction& record(Engine e, Opcode op);  // starts a trace record (a dummy when tracing is off)
  inline void commit_instruction();  // notes the record's on-chip writes, advances the instruction counter
  Instruction& record_out_of_line();  // record's start when tracing is off or the trace buffer is full
  void commit_general(const Instruction& last);  // commit_instruction when its common case does not hold
  bool executes() const { return cfg_.execute; }

  CoreConfig cfg_;
  const HardwareSpec* hw_;
  OnChipMemory sbuf_, psum_;
  Trace trace_;
  Instruction scratch_record_{};
  std::uint64_t next_instruction_ = 0;
  std::array<int, 3> program_id_{0, 0, 0}, num_programs_{1, 1, 1};
  int linear_program_ = 0, core_index_ = 0;
  std::vector<std::uint8_t> psum_matmul_written_;  // strict mode: per-element "initialised by nc_matmul"
  // Host-side memo of recent fp32 conversions of matmul operands (core/src/operand_memo.hpp): it
  // changes host time only, never results.
  std::unique_ptr<OperandMemoCache> memo_;
  const float* converted_operand(const Tile& t, int panel, int which, const detail::RowScan** scan = nullptr,
                                 bool convert_on_first_use = true);
  void invalidate_operand_memo(const Region* written);  // nullptr: every entry
  friend struct PsumState;
};

}  // namespace trn
