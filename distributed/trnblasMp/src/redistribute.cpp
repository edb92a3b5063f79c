// trnblasMp redistribution: dst = op(src) between two block-cyclic layouts of one grid, one
// MPI_Alltoallv (level3mp.hpp). Both sides walk the destination's local elements in column-major
// order, so a message is the bare values in that order (no indices travel).
#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

#include "exchange.hpp"
#include "local.hpp"
#include "trn/blasmp/level3mp.hpp"
#include "trn/core/error.hpp"
#include "trn/core/link_step.hpp"
#include "trn/core/scratch.hpp"

namespace trn::blasmp {

namespace {

// Where global index g of a dimension lies: its process and local index.
struct Place {
  std::int64_t proc, local;
};
Place place(std::int64_t g, std::int64_t nb, std::int64_t src, std::int64_t nprocs) {
  const std::int64_t block = g / nb;
  return {(src + block) % nprocs, (block / nprocs) * nb + g % nb};
}
// Global index of local index l on process p.
std::int64_t global_of(std::int64_t l, std::int64_t nb, std::int64_t p, std::int64_t src, std::int64_t nprocs) {
  return ((l / nb) * nprocs + (p - src + nprocs) % nprocs) * nb + l % nb;
}

// Calls f(il, jl, src_rank, src_local_offset) for every local element (il, jl) of dst on process
// (prow, pcol), column-major; src_local_offset in elements (lld of src).
template <class F>
void walk_dst(const Redistribution& r, int prow, int pcol, F&& f) {
  const Descriptor &s = *r.src, &d = *r.dst;
  const Grid& g = *d.grid;
  const std::int64_t rows = numroc(d.m, d.mb, prow, d.rsrc, g.nprow), cols = numroc(d.n, d.nb, pcol, d.csrc, g.npcol);
  for (std::int64_t jl = 0; jl < cols; ++jl) {
    const std::int64_t jg = global_of(jl, d.nb, pcol, d.csrc, g.npcol);
    for (std::int64_t il = 0; il < rows; ++il) {
      const std::int64_t ig = global_of(il, d.mb, prow, d.rsrc, g.nprow);
      const std::int64_t si = r.transpose ? jg : ig, sj = r.transpose ? ig : jg;
      const Place pr = place(si, s.mb, s.rsrc, g.nprow), pc = place(sj, s.nb, s.csrc, g.npcol);
      f(il, jl, g.rank_of(static_cast<int>(pr.proc), static_cast<int>(pc.proc)), pr.local + pc.local * s.lld);
    }
  }
}

}  // namespace

std::size_t type_bytes(trnDataType_t t) {
  switch (static_cast<int>(t)) {
    case TRN_R_32F: return 4;
    case TRN_R_64F: return 8;
    case TRN_C_32F: return 8;
    case TRN_C_64F: return 16;
    default: return 0;
  }
}

Descriptor make_descriptor(const Grid& g, std::int64_t m, std::int64_t n, std::int64_t mb, std::int64_t nb,
                           std::int64_t rsrc, std::int64_t csrc, trnDataType_t type) {
  Descriptor d{m, n, std::max<std::int64_t>(mb, 1), std::max<std::int64_t>(nb, 1), rsrc, csrc, 1, type, &g};
  d.lld = std::max<std::int64_t>(1, d.local_rows());
  return d;
}

void redistribute(Generation target, const Redistribution& r, const char* name, Trace& trace) {
  const Grid& g = *r.dst->grid;
  const int P = g.nprow * g.npcol;
  const std::size_t es = type_bytes(r.dst->type);
  const auto ies = static_cast<std::int64_t>(es);
  std::vector<int> scount(static_cast<std::size_t>(P)), rcount(static_cast<std::size_t>(P)), sdisp(scount), rdisp(rcount);
  // Receive side: every local element of dst, grouped by the rank that owns its source.
  std::vector<std::vector<std::int64_t>> slots(static_cast<std::size_t>(P));
  walk_dst(r, g.myrow, g.mycol, [&](std::int64_t il, std::int64_t jl, int q, std::int64_t) {
    slots[static_cast<std::size_t>(q)].push_back(il + jl * r.dst->lld);
  });
  // Send side: for every rank, its dst elements whose source is here, in that rank's order.
  ScratchVector<char> send;
  for (int q = 0; q < P; ++q) {
    const int prow = g.layout == GridLayout::col_major ? q % g.nprow : q / g.npcol;
    const int pcol = g.layout == GridLayout::col_major ? q / g.nprow : q % g.npcol;
    const std::size_t before = send.size();
    walk_dst(r, prow, pcol, [&](std::int64_t, std::int64_t, int owner, std::int64_t off) {
      if (owner != g.rank) return;
      const std::size_t at = send.size();
      send.resize(at + es);
      std::memcpy(&send[at], static_cast<const char*>(r.a) + off * ies, es);
      if (r.conj) detail::conjugate(&send[at], es);
    });
    if (send.size() > INT_MAX) throw NotSupportedError("trnblasMp redistribute", "a message over 2 GiB", "any");
    sdisp[static_cast<std::size_t>(q)] = static_cast<int>(before);
    scount[static_cast<std::size_t>(q)] = static_cast<int>(send.size() - before);
  }
  std::size_t total = 0;
  for (int q = 0; q < P; ++q) {
    rdisp[static_cast<std::size_t>(q)] = static_cast<int>(total);
    rcount[static_cast<std::size_t>(q)] = static_cast<int>(slots[static_cast<std::size_t>(q)].size() * es);
    total += slots[static_cast<std::size_t>(q)].size() * es;
  }
  if (total > INT_MAX) throw NotSupportedError("trnblasMp redistribute", "a message over 2 GiB", "any");
  ScratchVector<char> recv(total);
  detail::check_mpi(MPI_Alltoallv(send.data(), scount.data(), sdisp.data(), MPI_BYTE, recv.data(), rcount.data(),
                                  rdisp.data(), MPI_BYTE, g.comm),
                    "MPI_Alltoallv");
  for (int q = 0; q < P; ++q) {
    const char* from = recv.data() + rdisp[static_cast<std::size_t>(q)];  // recv may be empty
    for (std::int64_t off : slots[static_cast<std::size_t>(q)]) {
      std::memcpy(static_cast<char*>(r.b) + off * ies, from, es);
      from += es;
    }
  }
  // The link moves what leaves and enters this device (its own share is a local copy).
  const auto me = static_cast<std::size_t>(g.rank);
  LinkTransfer t;
  t.name = name;
  t.ns = detail::alltoall_ns(fabric_spec(target), RankSet{0, 1, P}, static_cast<double>(send.size() - static_cast<std::size_t>(scount[me])),
                     static_cast<double>(total - static_cast<std::size_t>(rcount[me])));
  t.peers = detail::peers_over(g.comm);
  const std::size_t src_bytes = detail::local_bytes(*r.src, es), dst_bytes = detail::local_bytes(*r.dst, es);
  if (src_bytes > 0 && !send.empty()) {
    t.sends[0].data = r.a;
    t.sends[0].hull = src_bytes;
    t.sends[0].bytes = send.size();
  }
  if (dst_bytes > 0 && total > 0) {
    t.receives[0].data = r.b;
    t.receives[0].hull = dst_bytes;
    t.receives[0].bytes = total;
  }
  record_link_transfer(trace, t);
}

}  // namespace trn::blasmp
