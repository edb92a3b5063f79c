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

namespace trn::blasmp::detail {

struct Agreement {
  int status = 0;      // the largest local status of any rank (0: every rank's arguments are valid)
  bool same = true;    // every rank passed the same arguments
  bool mpi_ok = true;  // the allreduce itself succeeded
};

// Collective over comm: every rank must call it with the same number of arguments.
Agreement agree(MPI_Comm comm, int local_status, const std::vector<std::int64_t>& args);

// Throws trn::Error naming `what` when an MPI call returned an error code (the grid's
// communicators return errors rather than abort: MPI_ERRORS_RETURN).
void check_mpi(int rc, const char* what);

}  // namespace trn::blasmp::detail
