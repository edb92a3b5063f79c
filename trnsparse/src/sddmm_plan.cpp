// SDDMM's plan (detail::SddmmPlan, trn::Plan) and its prediction: the kernel's launch run
// timing-only (docs/cost-model.md section 9), whose modeled time is the run's (add_plan_after_run).
#include <cstdio>
#include <string>

#include "bsr_kernels.hpp"

namespace trn::sparse::detail {

void record_launch(SddmmPlan& plan, const LaunchResult& r) {
  plan.sbuf_bytes = r.sbuf_peak_bytes;
  plan.psum_bytes = r.psum_peak_bytes;
  plan.matmuls = r.trace.per_engine[static_cast<int>(Engine::tensor)];
}

void add_plan_after_run(Report& report, SddmmPlan& plan) {
  if (!report.plans_wanted) return;
  plan.predicted_ns = trn::LazyNs([ns = report.profile.total_ns] { return ns; });
  report.add_plan(plan);
}

std::string SddmmPlan::print() const {
  PlanFacts f;
  f.routine = "sddmm";
  f.shape = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + ", " + std::to_string(stored) +
            (std::string(format) == "BSR" ? " stored blocks" : " stored entries");
  f.variant = std::string(format) + " pattern, grid " + std::to_string(programs) +
              (std::string(format) == "BSR" ? " block-row groups" : " 128-row tiles");
  if (matmuls >= 0) f.ops = std::to_string(matmuls) + " nc_matmul";
  f.sbuf_bytes = sbuf_bytes;
  f.psum_bytes = psum_bytes;
  f.engines = "DMA, TensorE, VectorE";
  f.predicted_ns = predicted_ns.get();
  f.why = std::string(format) == "BSR"
              ? "one contraction per stored block (block-row groups balanced by stored blocks)"
              : "one contraction per 128-row tile and column chunk holding a stored entry; the sampled entries move "
                "by one DMA per run of consecutive columns";
  return f.print();
}
static_assert(trn::Plan<SddmmPlan>);

}  // namespace trn::sparse::detail
