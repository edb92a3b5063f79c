// `trnsci bench --suite mp`: the distributed factorisations' plans (trnsolverMp Potrf / Getrf / Geqrf,
// trn/solvermp/plan.hpp) on 1, 2, 4, 8, 16 emulated devices -- predicted, nothing of that size runs
// (docs/scale-out.md section 6.4). Each row: device us = the plan's predicted time of process (0, 0),
// roofline = predicted / the link-inclusive roofline bound (max(its share of the flops at the device's
// TensorE peak, its link time); bound "link" or "TensorE"), and in the error column -- nothing ran, so
// there is no error -- the communication share of the predicted time (error_metric "link_share").
// One row per (routine, size, P) from kRows x kDevices: append a routine's sizes to kRows.
#include <algorithm>
#include <string>
#include <vector>

#include "registry.hpp"
#include "trn/solvermp/plan.hpp"

namespace trnsci::cli {
namespace {

using trn::solvermp::FactorKind;

struct MpBenchRow {
  const char* op;
  FactorKind kind;
  std::int64_t m, n, nb;
};
// The routines and sizes (fp32) of the table; append here.
const MpBenchRow kRows[] = {
    {"potrf_mp", FactorKind::potrf, 16384, 16384, 512},
    {"getrf_mp", FactorKind::getrf, 16384, 16384, 512},
    {"geqrf_mp", FactorKind::geqrf, 16384, 16384, 512},
    {"syevd_mp", FactorKind::syevd, 16384, 16384, 512},
    {"sygvd_mp", FactorKind::sygvd, 16384, 16384, 512},
};
constexpr int kDevices[] = {1, 2, 4, 8, 16};

// The most square nprow x npcol = p (nprow <= npcol), as the mp suite's grids.
void grid_shape(int p, int* nprow, int* npcol) {
  *nprow = 1;
  for (int r = 1; r * r <= p; ++r)
    if (p % r == 0) *nprow = r;
  *npcol = p / *nprow;
}

BenchResult plan_row(const MpBenchRow& row, int p, trn::Generation target) {
  int nprow = 1, npcol = 1;
  grid_shape(p, &nprow, &npcol);
  trn::blas::Settings s;
  s.target = target;
  const double t0 = now_seconds();
  const trn::solvermp::FactorPlan plan = trn::solvermp::plan_factor(s, row.kind, nprow, npcol, row.m, row.n, row.nb);
  BenchResult b;
  b.error = plan.link_ns / plan.predicted_ns;  // no error (nothing ran): the communication share
  b.error_metric = "link_share";
  b.host_seconds = seconds_since(t0);
  b.flops = 0;  // host GF/s would divide the plan's flops by the planning time: not a rate of anything
  b.timing_only = true;  // nothing ran: no emulator-bound column
  DeviceCost& d = b.device;
  d.present = true;
  d.target = std::string(trn::hardware_spec(target).name);
  d.total_ns = plan.predicted_ns;
  d.roofline = plan.predicted_ns / plan.roofline_ns;
  d.roofline_engine = plan.link_ns >= plan.roofline_ns ? "link" : "TensorE";
  d.cores = trn::hardware_spec(target).cores_per_device;
  // TensorE: the predicted updates (every core of the device busy) against the flops' peak-rate time,
  // so the bench's "why above the roofline" line reads the plan (roofline_reason).
  const auto tensor = static_cast<std::size_t>(trn::Engine::tensor);
  d.busy_ns[tensor] = plan.update_ns * d.cores;
  d.roofline_ns[tensor] = (plan.roofline_ns > plan.link_ns ? plan.roofline_ns : 0.0) * d.cores;
  return b;
}

void add_mp_bench(Registry& reg) {
  for (const MpBenchRow& row : kRows)
    for (int p : kDevices) {
      int nprow = 1, npcol = 1;
      grid_shape(p, &nprow, &npcol);
      reg.add(BenchCase{"mp", "trnsolverMp", row.op, "P=" + std::to_string(p) + " " + std::to_string(nprow) + "x" + std::to_string(npcol),
                        std::to_string(row.m) + "x" + std::to_string(row.n) + "/" + std::to_string(row.nb), false,
                        [row, p](trn::Generation g) { return plan_row(row, p, g); }});
    }
}

const Registrar kRegistrar(add_mp_bench);

}  // namespace
}  // namespace trnsci::cli
