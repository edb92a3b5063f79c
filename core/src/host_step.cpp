#include "trn/core/host_step.hpp"
#include "trn/core/link_step.hpp"
#include "trn/core/scratch.hpp"

#include <array>
#include <mutex>
#include <string>
#include <vector>

namespace trn {

namespace {
// Interned step names: labels are small integers in the trace record (which has no room for a
// string). The label a name gets depends on first use, but only the name is ever shown.
struct NameTable {
  std::mutex mu;
  std::vector<std::string> names{"host"};
};
NameTable& names() {
  static NameTable t;
  return t;
}
std::uint16_t intern(std::string_view name) {
  NameTable& t = names();
  const std::lock_guard<std::mutex> lock(t.mu);
  for (std::size_t i = 0; i < t.names.size(); ++i)
    if (t.names[i] == name) return static_cast<std::uint16_t>(i);
  if (t.names.size() >= 0xffff) return 0;  // a label space this large means names are not literals
  t.names.emplace_back(name);
  return static_cast<std::uint16_t>(t.names.size() - 1);
}

Region hbm_region(const HostSpan& s, bool write) {
  Region r;
  r.mem = MemSpace::hbm;
  r.write = write;
  const std::uint64_t lo = trace_hbm_address(reinterpret_cast<std::uintptr_t>(s.data));  // scratch.hpp
  r.lo = lo;
  r.hi = lo + s.hull;
  return r;
}
}  // namespace

std::string_view host_step_name(std::uint16_t label) {
  NameTable& t = names();
  const std::lock_guard<std::mutex> lock(t.mu);
  return label < t.names.size() ? std::string_view(t.names[label]) : std::string_view("host");
}

namespace {
// A record outside the engines (program -1; engine field dma: its data crosses a link), its device
// ranges as HBM regions: writes first, a read of exactly a written range covered by the write.
template <std::size_t W, std::size_t R>
Instruction off_engine_record(const Trace& trace, Opcode op, double declared, std::string_view name,
                              const std::array<HostSpan, W>& writes, const std::array<HostSpan, R>& reads) {
  Instruction ins;
  ins.index = trace.instructions.size();
  ins.program = -1;
  ins.engine = Engine::dma;
  ins.opcode = op;
  ins.declared_cycles = declared;
  ins.host_label = intern(name);
  for (const HostSpan& w : writes) {
    if (w.hull == 0) continue;
    ins.bytes_written += static_cast<std::int64_t>(w.bytes);
    ins.add_region(hbm_region(w, true));
  }
  for (const HostSpan& r : reads) {
    if (r.hull == 0) continue;
    ins.bytes_read += static_cast<std::int64_t>(r.bytes);
    bool covered = false;
    for (const HostSpan& w : writes) covered |= w.hull != 0 && w.data == r.data && w.hull == r.hull;
    if (!covered) ins.add_region(hbm_region(r, false));
  }
  return ins;
}
}  // namespace

void record_host_step(Trace& trace, const HostStep& step) {
  // The cost model schedules it on the host thread.
  trace.instructions.push_back(
      off_engine_record(trace, Opcode::host_compute, step.flops, step.name, step.writes, step.reads));
  ++trace.host_steps;
}

// Link transfers share the host steps' name table (their label is interned the same way).
void record_link_transfer(Trace& trace, const LinkTransfer& t) {
  Instruction ins = off_engine_record(trace, Opcode::link_transfer, t.ns, t.name, t.receives, t.sends);
  ins.partitions = t.peers.group + 1;
  ins.matmul_m = t.peers.root + 1;
  trace.instructions.push_back(ins);
  ++trace.link_transfers;
}

LinkPeers link_peers_of(const Instruction& link_record) {
  return {link_record.partitions - 1, link_record.matmul_m - 1};
}

void record_host_step(TraceParts& parts, const HostStep& step) {
  Trace t;
  record_host_step(t, step);
  parts.add(std::move(t));
}

}  // namespace trn
