// trnblasMp process grids, descriptors, NUMROC and the argument exchange (blasmp.hpp, exchange.hpp).
#include <string>

#include "exchange.hpp"
#include "trn/blasmp/blasmp.hpp"
#include "trn/core/error.hpp"

namespace trn::blasmp {

namespace detail {

Agreement agree(MPI_Comm comm, int local_status, const std::vector<std::int64_t>& args) {
  std::vector<std::int64_t> v;
  v.reserve(1 + 2 * args.size());
  v.push_back(local_status);
  for (std::int64_t a : args) v.push_back(a);
  for (std::int64_t a : args) v.push_back(-a);  // max(-a) = -min(a): min and max in one reduction
  Agreement r;
  if (MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), MPI_INT64_T, MPI_MAX, comm) != MPI_SUCCESS) {
    r.mpi_ok = false;
    return r;
  }
  r.status = static_cast<int>(v[0]);
  for (std::size_t i = 0; i < args.size(); ++i) r.same = r.same && v[1 + i] == -v[1 + args.size() + i];
  return r;
}

void check_mpi(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw Error(std::string("trnblasMp: MPI error in ") + what);
}

}  // namespace detail

std::int64_t numroc(std::int64_t n, std::int64_t nb, std::int64_t iproc, std::int64_t isrcproc, std::int64_t nprocs) {
  if (n <= 0 || nb <= 0 || nprocs <= 0) return 0;
  const std::int64_t dist = (nprocs + iproc - isrcproc) % nprocs;  // distance from the source process
  const std::int64_t nblocks = n / nb;
  std::int64_t count = (nblocks / nprocs) * nb;
  const std::int64_t extra = nblocks % nprocs;
  if (dist < extra)
    count += nb;
  else if (dist == extra)
    count += n % nb;
  return count;
}

std::int64_t Descriptor::local_rows() const { return numroc(m, mb, grid->myrow, rsrc, grid->nprow); }
std::int64_t Descriptor::local_cols() const { return numroc(n, nb, grid->mycol, csrc, grid->npcol); }

int Grid::rank_of(int prow, int pcol) const {
  return layout == GridLayout::col_major ? prow + pcol * nprow : prow * npcol + pcol;
}

RankSet Grid::row_set() const {
  // Process row myrow: ranks rank_of(myrow, 0..npcol-1).
  return layout == GridLayout::col_major ? RankSet{myrow, nprow, npcol} : RankSet{myrow * npcol, 1, npcol};
}

RankSet Grid::col_set() const {
  return layout == GridLayout::col_major ? RankSet{mycol * nprow, 1, nprow} : RankSet{mycol, npcol, nprow};
}

void grid_create(Grid& g, int nprow, int npcol, GridLayout layout, MPI_Comm comm) {
  int size = 0, rank = 0;
  detail::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  detail::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  const bool shape_ok = nprow >= 1 && npcol >= 1 && static_cast<std::int64_t>(nprow) * npcol == size;
  const detail::Agreement ag = detail::agree(comm, shape_ok ? 0 : 1, {nprow, npcol, static_cast<int>(layout)});
  if (!ag.mpi_ok) throw Error("trnblasMp: MPI error in the grid's argument exchange");
  if (!ag.same) throw UsageError("trnblasMp: the ranks passed different grid shapes or layouts");
  if (ag.status != 0) throw UsageError("trnblasMp: nprow * npcol must equal the communicator's size");
  Grid n;
  n.nprow = nprow;
  n.npcol = npcol;
  n.layout = layout;
  n.rank = rank;
  n.myrow = layout == GridLayout::col_major ? rank % nprow : rank / npcol;
  n.mycol = layout == GridLayout::col_major ? rank / nprow : rank % npcol;
  detail::check_mpi(MPI_Comm_dup(comm, &n.comm), "MPI_Comm_dup");
  MPI_Comm_set_errhandler(n.comm, MPI_ERRORS_RETURN);
  detail::check_mpi(MPI_Comm_split(n.comm, n.myrow, n.mycol, &n.row_comm), "MPI_Comm_split (rows)");
  detail::check_mpi(MPI_Comm_split(n.comm, n.mycol, n.myrow, &n.col_comm), "MPI_Comm_split (columns)");
  g = n;
}

void grid_destroy(Grid& g) {
  for (MPI_Comm* c : {&g.row_comm, &g.col_comm, &g.comm})
    if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
}

}  // namespace trn::blasmp
