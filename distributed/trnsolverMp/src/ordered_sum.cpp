// trnsolverMp's ordered sum along a process row or column (rows.hpp): Geqrf / Ormqr's V^H A column sum
// (geqrf.cpp) and Syevd's y = W22 v row sum (syevd.cpp).
// Algorithm: every process's partial gathered on every rank (one MPI_Allgather), then added by trnblas
//   GEAMs in process order 0 .. np - 1 -- never MPI_Allreduce, whose reduction order Open MPI chooses.
// Engines: the GEAMs are trnblas's (VectorE); the gather a link transfer of the fabric model (allgather).
// Accuracy: np - 1 additions of the working precision per element, in a fixed order.
// Determinism: the order depends on the grid shape only (not on the host threads or the run).
// Limits: messages under 2 GiB (checked_int).
#include <cstddef>

#include "exchange.hpp"
#include "local.hpp"
#include "rows.hpp"
#include "trn/core/link_step.hpp"

namespace trn::solvermp::detail {

void* ordered_sum(const blasmp::detail::Local& l, MPI_Comm comm, const RankSet& set, int np, std::int64_t rows,
                  std::int64_t cols, void* partial, void* gathered, std::size_t es, const char* name, Generation target) {
  if (np == 1) return partial;
  const std::size_t bytes = static_cast<std::size_t>(rows * cols) * es;
  blasmp::detail::check_mpi(MPI_Allgather(partial, checked_int(bytes), MPI_BYTE, gathered, checked_int(bytes), MPI_BYTE, comm),
                            "MPI_Allgather");
  LinkTransfer t;
  t.name = name;
  t.ns = allgather_ns(fabric_spec(target), set, static_cast<double>(bytes) * np);
  t.peers = blasmp::detail::peers_over(comm);
  if (bytes > 0) t.receives[0].data = gathered, t.receives[0].hull = t.receives[0].bytes = bytes * static_cast<std::size_t>(np);
  record_link_transfer(*l.trace, t);
  char* sum = static_cast<char*>(gathered);
  for (int q = 1; q < np; ++q)
    blasmp::detail::local_geam(l, rows, cols, blasmp::detail::cd(1.0), sum + static_cast<std::size_t>(q) * bytes, rows,
                               blasmp::detail::cd(1.0), sum, rows, sum, rows);
  return sum;
}

}  // namespace trn::solvermp::detail
