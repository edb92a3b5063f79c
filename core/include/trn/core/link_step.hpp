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
//     counts them apart from engine time and the roofline bound includes their time;
//   - a record tagged with its peers (LinkPeers: the collective's group and root) does not start before
//     its peers reach it: when the model pass is given a LinkPeerExchange (CostModelOptions::link_peers,
//     ReportSettings::link_peers), the exchange tells each rank its peers' arrival times at the record,
//     in the order the records were made, and the time the rank waits is Profile::link_wait_ns
//     (docs/scale-out.md section 7, "Waiting for peers").
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

#include "trn/core/host_step.hpp"
#include "trn/core/trace.hpp"

namespace trn {

// Who else takes part in a transfer. `group` names the collective's participants in a form the
// caller's LinkPeerExchange resolves (the distributed libraries: the communicator's MPI_Comm_c2f
// handle); -1: nobody (a rank alone, or an untagged record: modeled on its own). `root`: a
// broadcast's root within the group (its receivers wait for it), -1: a symmetric collective (every
// member waits for the last to arrive: allgather, all-to-all, allreduce).
struct LinkPeers {
  std::int32_t group = -1;
  std::int32_t root = -1;
};

struct LinkTransfer {
  std::string_view name;             // "<library>.<routine>.<step>" (a string literal), shown in profiles
  double ns = 0;                     // modeled time (fabric.hpp)
  std::array<HostSpan, 2> sends{};   // device ranges sent (read); their bytes are bytes_read
  std::array<HostSpan, 2> receives{};  // device ranges received (written); bytes_written
  LinkPeers peers{};                 // the collective's participants (none: modeled alone)
};

// Appends one link_transfer record (program -1, core 0) and counts it in trace.link_transfers. The
// record keeps t.peers in fields a link record does not otherwise use: partitions = group + 1,
// matmul_m = root + 1 (0 and 0: no peers), so an untagged record is the record it always was.
void record_link_transfer(Trace& trace, const LinkTransfer& t);
// The peers a link_transfer record was tagged with (record_link_transfer).
LinkPeers link_peers_of(const Instruction& link_record);

// The model pass's side of a multi-rank call: for a tagged link record, this rank's arrival time
// (when its operands are ready and its link is free, in the rank's modeled ns) goes to the record's
// peers and the answer is the earliest time the record may start: a broadcast's root's arrival (on
// the root: its own), a symmetric collective's latest arrival over the group. Collective: every
// member of the group calls it for the same record, in the order the records were made (the order
// the MPI collectives ran), so the exchange cannot deadlock where the call itself did not. Answers
// depend only on modeled times: the schedule stays deterministic.
class LinkPeerExchange {
 public:
  virtual ~LinkPeerExchange() = default;
  virtual double not_before(const LinkPeers& peers, double arrival_ns) = 0;
};

}  // namespace trn
