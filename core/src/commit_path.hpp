// The trace path every emulated instruction takes: NeuronCore::record starts its trace record and
// NeuronCore::commit_instruction ends it (neuron_core.hpp declares both inline; this is their one
// definition). Inline in each instruction: as out-of-line calls, their frames (register saves and
// restores around a call that the common case never makes) were a fifth of their host cost, and a
// small call makes ~10 records per launch (callgrind of `ABI srot n=8 inc=64`, session 25: record
// ~49, commit_instruction ~93 host instructions per record). Their rare cases stay out of line
// (record_out_of_line, commit_general in neuron_core.cpp). Host only: the same record bytes, the
// same dirty-range notes and counters as the out-of-line forms they replace.
#pragma once
#include "engine_util.hpp"
#include "onchip_dirty.hpp"
#include "operand_memo.hpp"
#include "trn/core/neuron_core.hpp"

namespace trn {

namespace detail {
// A value-initialised record, padding included (static storage is zero-filled): a new record is a
// copy of it. emplace_back() value-initialised in place, which GCC compiles to `rep stosq` over the
// 208 bytes followed by the defaults' stores; its start-up was ~3/4 of record()'s samples in a small
// call loop (perf, srot_ n = 8). The copy is 13 16-byte moves and leaves the same bytes. One object
// (an inline variable, so the inline functions below name the same one in every file: no ODR
// question), hidden, so that it is read RIP-relative rather than through the GOT as an exported
// variable would be.
[[gnu::visibility("hidden")]] inline constexpr Instruction kBlankRecord{};
}  // namespace detail

inline Instruction& NeuronCore::record(Engine e, Opcode op) {
  std::vector<Instruction>& records = trace_.instructions;
  Instruction* ins;
  if (cfg_.trace && records.size() != records.capacity()) [[likely]] {
    // Room for the record (a traced program's usual case): the append below cannot reallocate, so
    // its growth path (a call, and the register saves it cost every record) is left out.
    if (records.size() == records.capacity()) __builtin_unreachable();
    ins = &records.emplace_back(detail::kBlankRecord);
  } else {
    ins = &record_out_of_line();
  }
  ins->index = next_instruction_;
  ins->program = linear_program_;
  ins->core = core_index_;
  ins->engine = e;
  ins->opcode = op;
  return *ins;
}

inline void NeuronCore::commit_instruction() {
  const Instruction& last = cfg_.trace ? trace_.instructions.back() : scratch_record_;
  // The common case, with no call on its path: every region recorded, an empty operand memo (no
  // matmul since the program began), no strict-mode PSUM record, and every on-chip write inside a
  // range the dirty ranges hold already (onchip_dirty.hpp) -- commit_general would change nothing
  // but the two counters.
  if (!last.regions_dropped && memo_->roles[0].index.empty() && memo_->roles[1].index.empty() &&
      psum_matmul_written_.empty()) [[likely]] {
    bool known = true;
    for (std::uint8_t i = 0; i < last.nregions && known; ++i) {
      const Region& r = last.regions[i];
      if (r.write && r.mem != MemSpace::hbm)
        known = detail::onchip_write_known(r.mem == MemSpace::sbuf ? sbuf_ : psum_, r);
    }
    if (known) [[likely]] {
      ++trace_.per_engine[static_cast<int>(last.engine)];
      ++next_instruction_;
      if (detail::g_instr_probe.load(std::memory_order_relaxed)) [[unlikely]]
        detail::instr_probe_commit(last);
      return;
    }
  }
  commit_general(last);
}

}  // namespace trn
