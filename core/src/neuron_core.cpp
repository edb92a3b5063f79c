#include "trn/core/neuron_core.hpp"

#include "commit_path.hpp"
#include "engine_util.hpp"
#include "onchip_dirty.hpp"
#include "operand_memo.hpp"

#include <algorithm>

namespace trn {

std::string_view numerics_name(Numerics n) { return n == Numerics::ideal ? "ideal" : "trn1_measured"; }

std::string_view alu_op_name(AluOp op) {
  static constexpr std::string_view kNames[] = {
      "bypass", "add", "subtract", "multiply", "divide", "maximum", "minimum", "abs_max", "abs_min", "power",
      "equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "logical_and", "logical_or",
      "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"};
  return kNames[static_cast<int>(op)];
}

bool is_bitvec(AluOp op) { return op >= AluOp::bitwise_and; }

std::string_view act_func_name(ActFunc f) {
  static constexpr std::string_view kNames[] = {
      "copy", "square", "relu", "sigmoid", "tanh", "gelu", "gelu_apprx_tanh", "silu", "softplus", "erf",
      "exp", "sign", "abs", "log", "sin", "arctan", "sqrt", "rsqrt", "reciprocal"};
  return kNames[static_cast<int>(f)];
}

NeuronCore::NeuronCore(const CoreConfig& cfg)
    : cfg_(cfg),
      hw_(&hardware_spec(cfg.generation)),
      sbuf_(MemSpace::sbuf, *hw_),
      psum_(MemSpace::psum, *hw_),
      memo_(std::make_unique<OperandMemoCache>()) {
  if (cfg_.strict) psum_matmul_written_.assign(static_cast<std::size_t>(hw_->pmax * hw_->psum_partition_bytes / 4), 0);
}

NeuronCore::~NeuronCore() = default;

void NeuronCore::reconfigure(const CoreConfig& cfg) {
  if (cfg.generation != cfg_.generation) {
    hw_ = &hardware_spec(cfg.generation);
    sbuf_ = OnChipMemory(MemSpace::sbuf, *hw_);
    psum_ = OnChipMemory(MemSpace::psum, *hw_);
  }
  cfg_ = cfg;
  invalidate_operand_memo(nullptr);
  if (cfg_.strict)
    psum_matmul_written_.assign(static_cast<std::size_t>(hw_->pmax * hw_->psum_partition_bytes / 4), 0);
  else
    psum_matmul_written_.clear();
}

void NeuronCore::set_stochastic_rounding(bool enable, std::uint64_t seed) {
  cfg_.stochastic_rounding = enable;
  cfg_.sr_seed = seed;
}

void NeuronCore::begin_program(std::array<int, 3> pid, std::array<int, 3> npid, int linear, int core_index) {
  program_id_ = pid;
  num_programs_ = npid;
  linear_program_ = linear;
  core_index_ = core_index;
  next_instruction_ = 0;
  sbuf_.reset();
  psum_.reset();
  trace_.clear();
  std::fill(psum_matmul_written_.begin(), psum_matmul_written_.end(), 0);
  // A new program's SBUF contents are unrelated to the memo. An empty one (no matmul since the last
  // program began: every small Level 1/2 call) has nothing to drop: the test is the loop's own.
  if (!memo_->roles[0].index.empty() || !memo_->roles[1].index.empty()) invalidate_operand_memo(nullptr);
}

void NeuronCore::invalidate_operand_memo(const Region* w) {
  for (OperandMemoCache::Role& role : memo_->roles) {
    if (role.index.empty()) continue;  // no valid entry (index holds exactly the valid ones)
    for (std::size_t i = 0; i < role.entries.size(); ++i) {
      OperandMemoCache::Entry& e = role.entries[i];
      if (!e.valid) continue;
      const Region& r = e.source;
      if (w == nullptr || (w->p0 < r.p0 + r.np && r.p0 < w->p0 + w->np && w->lo < r.hi && r.lo < w->hi)) {
        e.valid = false;
        role.erase(e.base);
        role.free.push_back(i);
      }
    }
  }
}

Rounding NeuronCore::rounding_for(const InstrOptions& opt) const {
  if (opt.rounding) return *opt.rounding;
  return cfg_.stochastic_rounding ? Rounding::stochastic : Rounding::nearest_even;
}

SrStream NeuronCore::sr_stream() const {
  return SrStream{cfg_.sr_seed, static_cast<std::uint32_t>(linear_program_),
                  static_cast<std::uint32_t>(next_instruction_)};
}

Instruction& NeuronCore::record_out_of_line() {
  if (!cfg_.trace) {
    scratch_record_ = detail::kBlankRecord;
    return scratch_record_;
  }
  std::vector<Instruction>& all = trace_.instructions;
  trace_.reserve(std::max<std::size_t>(64, 2 * all.capacity()));
  return all.emplace_back(detail::kBlankRecord);
}

void NeuronCore::commit_general(const Instruction& last) {
  const bool quiet = !last.regions_dropped && memo_->roles[0].index.empty() && memo_->roles[1].index.empty() &&
                     psum_matmul_written_.empty();
  // commit_instruction's common case but for a write the one-group test could not place: a write of
  // several partition groups (a 64-row gather, a 128-partition tile) that every group holds already
  // is the same no-op.
  if (!quiet || !detail::onchip_writes_known_groups(last, sbuf_, psum_)) {
    if (last.regions_dropped) {
      invalidate_operand_memo(nullptr);
      detail::note_onchip_write_all(sbuf_);
      detail::note_onchip_write_all(psum_);
    } else {
      // An empty memo (no valid entry in either role: every small call without a matmul) has nothing
      // to invalidate; the test is invalidate_operand_memo's own first one, taken once.
      const bool memo_empty = memo_->roles[0].index.empty() && memo_->roles[1].index.empty();
      for (std::uint8_t i = 0; i < last.nregions; ++i) {
        const Region& r = last.regions[i];
        if (!r.write || r.mem == MemSpace::hbm) continue;
        if (r.mem == MemSpace::sbuf && !memo_empty) invalidate_operand_memo(&r);
        detail::note_onchip_write(r.mem == MemSpace::sbuf ? sbuf_ : psum_, r);
      }
    }
    // Strict mode: PSUM written by anything but TensorE no longer holds a matmul accumulation
    // (accumulating onto memset/copy-initialised PSUM is undefined on v2/v3, ISA nc_matmul).
    if (!psum_matmul_written_.empty() && last.engine != Engine::tensor) {
      for (std::uint8_t i = 0; i < last.nregions; ++i) {
        const Region& r = last.regions[i];
        if (!r.write || r.mem != MemSpace::psum) continue;
        for (std::int32_t p = r.p0; p < r.p0 + r.np; ++p) {
          const std::size_t base = static_cast<std::size_t>(std::int64_t{p} * hw_->psum_partition_bytes / 4);
          std::fill(psum_matmul_written_.begin() + static_cast<std::ptrdiff_t>(base + r.lo / 4),
                    psum_matmul_written_.begin() + static_cast<std::ptrdiff_t>(base + (r.hi + 3) / 4), 0);
        }
      }
    }
  }
  ++trace_.per_engine[static_cast<int>(last.engine)];
  ++next_instruction_;
  if (detail::g_instr_probe.load(std::memory_order_relaxed)) detail::instr_probe_commit(last);
}

}  // namespace trn
