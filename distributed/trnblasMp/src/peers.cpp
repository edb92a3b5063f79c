// Waiting for peers in the model pass of a distributed call (docs/scale-out.md section 7,
// core's link_step.hpp LinkPeerExchange): the MPI side of the cost model's not-before times.
//
// Algorithm: every collective a rank takes part in is one link record tagged with its communicator
//   (MPI_Comm_c2f: a small integer handle the rank resolves again with MPI_Comm_f2c) and, for a
//   broadcast, its root. When the call's report is modeled, the schedule reaches the records in the
//   order the collectives ran and asks not_before for each tagged one: a broadcast's root sends its
//   arrival time (MPI_Bcast of one double), a symmetric collective takes the latest arrival of its
//   members (MPI_Allreduce MAX). The same blocking collectives, on the same communicators, in the
//   same order as the call's own: if the call did not deadlock, the model pass does not.
// Engines: none (one 8-byte message per tagged record and schedule pass; the report models two
//   passes, as written and reordered).
// Accuracy: exact (doubles are broadcast or maximised, never summed): the answers depend only on
//   the ranks' modeled times, so the modeled times are deterministic for any host thread count.
// Limits: collective over the records' communicators, which must still exist (model a report before
//   its grid or plan is destroyed: a freed communicator is a trn::Error); every rank of a group must
//   model the report (the C APIs always do; C++ callers pass a report on every rank or on none).
#include <mpi.h>

#include "exchange.hpp"
#include "local.hpp"
#include "trn/blasmp/blasmp.hpp"
#include "trn/core/error.hpp"
#include "trn/core/link_step.hpp"

namespace trn::blasmp {

namespace {

class MpiPeerExchange final : public LinkPeerExchange {
 public:
  double not_before(const LinkPeers& peers, double arrival_ns) override {
    const MPI_Comm comm = MPI_Comm_f2c(static_cast<MPI_Fint>(peers.group));
    if (comm == MPI_COMM_NULL) throw Error("trnblasMp: a link record's communicator was freed before its report was modeled");
    double t = arrival_ns;
    if (peers.root >= 0)
      detail::check_mpi(MPI_Bcast(&t, 1, MPI_DOUBLE, peers.root, comm), "MPI_Bcast (peer arrival)");
    else
      detail::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce (peer arrival)");
    return t;
  }
};

}  // namespace

LinkPeerExchange& peer_exchange() {
  static MpiPeerExchange exchange;  // stateless: one for the process
  return exchange;
}

ReportSettings collective_report_settings(const blas::Settings& s) {
  ReportSettings rs = ReportSettings::of(s);
  rs.trace_only = s.report_trace_only;
  rs.link_peers = &peer_exchange();
  return rs;
}

namespace detail {

LinkPeers peers_over(MPI_Comm comm, int root) {
  int size = 1;
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  if (size <= 1) return {};  // alone: nothing to wait for (a 1-rank call's records stay untagged)
  return {static_cast<std::int32_t>(MPI_Comm_c2f(comm)), root};
}

void finish_collective(const blas::Settings& s, Trace&& trace, blas::CallReport* report) {
  if (report == nullptr) return;
  *report = blas::CallReport{};
  report->tensor_passes = trace.per_engine[static_cast<int>(Engine::tensor)];  // as blas::CallReport::finish
  finish_report(*report, std::move(trace), collective_report_settings(s));
}

}  // namespace detail

}  // namespace trn::blasmp
