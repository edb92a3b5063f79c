// Internal: the C-shim side of a collective entry point, shared by the distributed libraries' C APIs
// (trnblasMp's capi.cpp, trnsolverMp's capi.cpp; one family over trnblasMp's grids and descriptors).
// A collective routine checks its arguments locally in the CUDA library's order, then the C shim
// passes the call on as a Collective: every rank exchanges (status, agreed arguments) over the
// carrier descriptor's grid (exchange.hpp) before any other message, so every rank returns the same
// status (docs/scale-out.md "Bad input"). The handle and descriptor types differ per library: the
// helpers are templates over them, bound to one library's registries, log and status codes by
// CollectiveApi.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "exchange.hpp"
#include "trn/blasmp/blasmp.hpp"
#include "trn/blasmp/merged_trace.hpp"
#include "trn/core/c_shim.hpp"
#include "trn/core/error.hpp"

namespace trn::blasmp::detail {

// A collective routine's call as the C shim passes it on: what every rank must agree on (sizes,
// enums, scalars, descriptors: not pointers or local leading dimensions), the descriptor whose grid
// carries the exchange, the _bufferSize outputs (sizing) or the call's info output (trnsolverMp).
template <class Handle, class Desc>
struct Collective {
  Handle h;
  const char* fn;
  Desc carrier;
  std::vector<std::int64_t> exchanged;
  std::size_t* ws_device = nullptr;  // the _bufferSize form's outputs
  std::size_t* ws_host = nullptr;
  bool sizing = false;
  int* info = nullptr;
};

// One library's registries, log and status codes (usage_error: its INVALID_VALUE) for the steps every
// collective routine shares. DescImpl has d (a trn::blasmp::Descriptor) and grid (its GridImpl, which
// owns d.grid).
template <class Status, class GridImpl, class DescImpl>
struct CollectiveApi {
  const cshim::HandleRegistry<GridImpl>& grids;
  const cshim::HandleRegistry<DescImpl>& descs;
  const cshim::Logger& log;
  const cshim::StatusMap<Status>& map;

  // A descriptor's global shape, blocks, sources and type (zeros for a dead one) onto the exchange.
  void push_desc(std::vector<std::int64_t>& v, const DescImpl* d) const {
    const Descriptor e = descs.contains(d) ? d->d : Descriptor{};
    v.insert(v.end(), {e.m, e.n, e.mb, e.nb, e.rsrc, e.csrc, static_cast<std::int64_t>(e.type)});
  }

  // The layout check after the local checks passed (st success): `mismatch` of the assembled
  // arguments, the _bufferSize form with an unlimited workspace (any size fits).
  template <class Args>
  Status check_layout(bool sizing, const char* fn, Status st, Args& args, std::string (*mismatch)(const Args&)) const {
    if (st != map.success) return st;
    if (sizing) args.work_bytes = static_cast<std::size_t>(-1), args.work = &args;
    const std::string why = mismatch(args);
    return why.empty() ? st : cshim::fail(log, map, fn, map.usage_error, why);
  }

  // Local checks done (st), then the exchange over the carrier's grid: the status every rank returns.
  // Without a live carrier there is no communicator to agree over: this rank answers alone.
  template <class Handle>
  Status agree_over(const Collective<Handle, DescImpl*>& c, Status st) const {
    if (!descs.contains(c.carrier) || !grids.contains(c.carrier->grid))
      return st == map.success ? map.usage_error : st;
    const char* why = nullptr;
    st = agreed_status(c.carrier->d.grid->comm, st, c.exchanged, map.usage_error, map.internal_error, &why);
    return why != nullptr ? cshim::fail(log, map, c.fn, st, why) : st;
  }

  // The merged-trace request (merged_trace.hpp): the path in TRNSCI_MP_TRACE on this rank; whether it
  // is set goes onto the exchange, so ranks that disagree get a status rather than wait in the gather.
  template <class Handle>
  std::string trace_request(Collective<Handle, DescImpl*>& c) const {
    std::string path = merged_trace_path();
    c.exchanged.push_back(path.empty() ? 0 : 1);
    return path;
  }
  // After a successful call every rank agreed to trace: the merged trace of its report to `path`
  // (collective over the carrier's grid). A failure to write is logged; the call's status stays
  // success (its outputs are already written).
  template <class Handle>
  void write_trace(const Collective<Handle, DescImpl*>& c, const Report& r, const std::string& path) const {
    (void)cshim::guarded(log, c.fn, map, [&] {
      if (!write_merged_trace(c.carrier->d.grid->comm, r, r.profile.target, path))
        throw Error(std::string("cannot write the merged trace to ") + path);
    });
  }

  // The _bufferSize form's answer once every rank agreed: the device workspace, no host workspace.
  template <class Handle, class Args>
  Status answer_sizes(const Collective<Handle, DescImpl*>& c, const Args& args,
                      std::size_t (*workspace)(const Args&)) const {
    *c.ws_device = workspace(args);
    *c.ws_host = 0;
    return map.success;
  }
};

// The tail of a grid's Create once every rank agreed on its arguments (trnblasMpGridCreate,
// trnsolverMpCreateDeviceGrid): the grid made (collective; grid_create checks nprow * npcol against the
// communicator's size on every rank), registered in `grids` and returned through *out. A failure is
// the guarded call's status, *out untouched.
template <class Status, class GridImpl>
Status create_grid(cshim::HandleRegistry<GridImpl>& grids, const cshim::Logger& log, const cshim::StatusMap<Status>& map,
                   const char* fn, int nprow, int npcol, GridLayout layout, MPI_Comm comm, GridImpl** out) {
  GridImpl* made = nullptr;
  const Status st = cshim::guarded(log, fn, map, [&] {
    Grid g;
    grid_create(g, nprow, npcol, layout, comm);
    made = new GridImpl{g};
  });
  if (st != map.success) return st;
  grids.insert(made);
  *out = made;
  return map.success;
}

}  // namespace trn::blasmp::detail
