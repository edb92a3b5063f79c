// Messages between emulated devices. A distributed library (distributed/, docs/scale-out.md) runs
// one MPI rank per emulated Trainium device; whatever it sends or receives over MPI is also appended
// to the rank's trace as one `link_transfer` record per collective step, so that the rank's Report
// shows compute, communication and their overlap:
//   - its time is the fabric model's (fabric.hpp: NeuronLink / EFA latency and bandwidth), carried in
//     the record (declared_cycles, ns), not recomputed by the cost model;
//   - the device ranges it reads (what the rank sends) and writes (what it receives) are its
//     dependency regions, so the cost model starts it after the device writes it sends and starts the
//     device reads of what it receives after it;
//   - the cost model runs the link records of a trace in order on one "link" resource per device,
//     beside the engines (a transfer overlaps compute that does not depend on it); Profile::link_*
//     counts them apart from engine time and the roofline bound includes their time.
#pragma once
#include <array>
#include <string_view>

#include "trn/core/host_step.hpp"
#include "trn/core/trace.hpp"

namespace trn {

struct LinkTransfer {
  std::string_view name;             // "<library>.<routine>.<step>" (a string literal), shown in profiles
  double ns = 0;                     // modeled time (fabric.hpp)
  std::array<HostSpan, 2> sends{};   // device ranges sent (read); their bytes are bytes_read
  std::array<HostSpan, 2> receives{};  // device ranges received (written); bytes_written
};

// Appends one link_transfer record (program -1, core 0) and counts it in trace.link_transfers.
void record_link_transfer(Trace& trace, const LinkTransfer& t);

}  // namespace trn
