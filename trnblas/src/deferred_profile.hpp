// Internal (not installed): the C API's deferred schedule of a short call (issue #30, session 23).
//
// A C entry point keeps only its call's profile (trnblasGetLastProfile), and most callers never ask
// for it (a loop of small calls, LAPACK-style clients). The cost model's schedule of a short trace,
// even answered by the schedule memo, was ~1-2 k host instructions of a ~8-28 k small call (a record
// comparison, a Profile copy with a heap block, to_c). So while a C entry point runs, its CallReport
// is registered here; CallReport::finish leaves that report's trace unmodeled when the trace is
// short and nobody observes reports, and the handle keeps the trace and the ReportSettings it would
// have been modeled under (capi_internal.hpp LastProfile). GetLastProfile schedules it then: the
// same trace under the same settings, so the same profile, bit for bit (the schedule is a pure
// function of the two; the memo returns only what an equal key scheduled to).
#pragma once
#include <cstddef>

#include "trn/blas/blas.hpp"
#include "trn/core/report.hpp"

namespace trn::blas::detail {

// At most a short trace waits (the schedule memo's short-trace bound): a handle holds at most
// 256 records (~53 KB); longer traces are scheduled at once, as before.
inline constexpr std::size_t kDeferredProfileMaxRecords = 256;

struct DeferredProfile {
  const CallReport* report = nullptr;  // the running C entry point's report (null: none)
  bool deferred = false;               // its last finish left the trace unmodeled
  ReportSettings settings{};           // what that finish would have modeled under
  // `report` is as it was constructed (a default CallReport with its plans_wanted set) and nothing has
  // written to it since: the `*report = CallReport{}` an l12::Report starts with would change nothing
  // (~240 host instructions a report, session 23), so the first one skips it.
  bool fresh = false;
};
// This thread's registration.
DeferredProfile& deferred_profile();

}  // namespace trn::blas::detail
