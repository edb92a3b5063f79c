// Counting a trace's records in the trnblas tests: host steps by name (core's host_step_name) and
// GpSimdE instructions.
#pragma once
#include <cstdint>
#include <string_view>

#include "trn/core/host_step.hpp"
#include "trn/core/trace.hpp"

namespace blastest {

inline std::int64_t host_steps_named(const trn::Trace& t, std::string_view name) {
  std::int64_t n = 0;
  for (const trn::Instruction& ins : t.instructions)
    n += ins.opcode == trn::Opcode::host_compute && trn::host_step_name(ins.host_label) == name;
  return n;
}

}  // namespace blastest
