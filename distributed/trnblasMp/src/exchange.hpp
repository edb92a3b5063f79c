// Internal: the argument exchange every collective entry point makes before it communicates
// (docs/scale-out.md "Bad input"). A collective whose ranks disagree on its arguments (sizes,
// block sizes, a grid of another shape) would deadlock or exchange garbage; one allreduce of
// (status, arguments, -arguments) with MPI_MAX first tells every rank the worst local status and
// whether all ranks passed the same arguments, so every rank returns the same status.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "trn/core/link_step.hpp"

namespace trn::blasmp::detail {

struct Agreement {
  int status = 0;      // the largest local status of any rank (0: every rank's arguments are valid)
  bool same = true;    // every rank passed the same arguments
  bool mpi_ok = true;  // the allreduce itself succeeded
};

// Collective over comm: every rank must call it with the same number of arguments.
Agreement agree(MPI_Comm comm, int local_status, const std::vector<std::int64_t>& args);

// The status every rank returns from a collective C entry point whose local checks gave `local`
// (success must be 0): the worst (largest) local status of any rank; else `invalid` when the ranks
// passed different arguments; `internal` when the exchange itself failed. *why names the reason
// when the status comes from the exchange (nullptr otherwise: the failing rank logged its own).
template <class Status>
Status agreed_status(MPI_Comm comm, Status local, const std::vector<std::int64_t>& args, Status invalid, Status internal,
                     const char** why) {
  *why = nullptr;
  const Agreement ag = agree(comm, static_cast<int>(local), args);
  if (!ag.mpi_ok) return *why = "the MPI allreduce of the argument exchange failed", internal;
  if (ag.status != 0) return static_cast<Status>(ag.status);
  if (!ag.same) return *why = "the ranks passed different arguments (sizes, blocks, types, scalars or enums)", invalid;
  return Status{};
}

// The peers of a collective over comm (peers.cpp): its MPI_Comm_c2f handle and `root` (-1: symmetric);
// none on a communicator of one rank. Every link record of a collective carries them (link_step.hpp).
LinkPeers peers_over(MPI_Comm comm, int root = -1);

// Throws trn::Error naming `what` when an MPI call returned an error code (the grid's
// communicators return errors rather than abort: MPI_ERRORS_RETURN).
void check_mpi(int rc, const char* what);

}  // namespace trn::blasmp::detail
