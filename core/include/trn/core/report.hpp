// One Report: what a call of any library did -- the printed plan(s), the merged instruction trace of
// every kernel it launched, and the modeled profile -- built by one function (finish_report) from the
// trace. Every library's report type derives from trn::Report and adds only its own counters
// (trnblas's Ozaki slice counts, trnsparse's block count, ...); `trnsci profile` prints any of them
// through Report::print(). docs/architecture.md "Plans and reports".
//
// Time parts: today the profile is engine time only (the cost model's schedule of the trace). A
// later step adds the host round trips (fp64 work on the instance's host CPU: DMA out, host compute,
// DMA back) as a second part; Report::print() already shows the time as a list of parts
// ("engine ... us") so that part is one more line beside it, and modeled_ns() their sum.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "trn/core/cost_model.hpp"
#include "trn/core/plan.hpp"
#include "trn/core/spmd.hpp"
#include "trn/core/trace.hpp"

namespace trn {

// What the report builder needs from a library's settings.
struct ReportSettings {
  Generation target = Generation::trn1;
  // Cores the profile is stated over (Profile::cores, the utilisation denominators); 0 keeps the
  // schedule's count (one more than the largest core index in the trace). The schedule itself
  // always takes its core count from the trace.
  int cores = 0;
  // Keep the trace but leave the profile unmodeled: for calls whose trace a caller appends to a
  // larger one and models once (the model costs host time per instruction).
  bool trace_only = false;
  // Schedule over `cores` cores rather than the trace's (idle cores of the device still share its
  // HBM bandwidth): the device a whole `trnsci profile --cores N` run is stated on.
  bool schedule_over_cores = false;
  // Keep the schedule's per-instruction timeline (Report::timeline, for perfetto_json).
  bool keep_timeline = false;
  // Host round-trip rates replacing the target's (CostModelOptions::host; `trnsci profile --host-*`).
  HostCostOptions host{};
  // A multi-rank call's peer exchange (CostModelOptions::link_peers; null: modeled alone).
  LinkPeerExchange* link_peers = nullptr;

  // The settings' target, and their core count as the profile's.
  static ReportSettings of(const EmulatorSettings& s) {
    ReportSettings r;
    r.target = s.target;
    r.cores = s.num_cores > 1 ? s.num_cores : 1;
    return r;
  }
};

// Whether a report's caller wants the plan text: true unless set false; assigning a whole report
// over it keeps the target's value (see Report::plans_wanted).
class PlansWanted {
 public:
  PlansWanted() = default;
  PlansWanted(const PlansWanted&) = default;
  PlansWanted& operator=(const PlansWanted&) { return *this; }  // keeps the target's wish
  PlansWanted& operator=(bool wanted) {
    wanted_ = wanted;
    return *this;
  }
  operator bool() const { return wanted_; }

 private:
  bool wanted_ = true;
};

struct Report {
  Profile profile;   // modeled device time of every kernel of the call (engine time)
  Trace trace;       // merged trace of every kernel the call launched, in launch order
  std::string plan;  // the plan(s) that ran, printed (Plan::print), one per line
  std::vector<ScheduledInstruction> timeline;  // with ReportSettings::keep_timeline (Perfetto)

  // false: add_plan(P) keeps nothing and does not print the plan -- for callers that keep only the
  // profile (the C entry points): a plan's prediction, computed when it is printed (trn::Lazy), is
  // then never computed. The caller's wish survives the reset a routine starts with
  // (`*report = CallReport{}` clears the results, not what was asked for).
  PlansWanted plans_wanted;

  // Appends a plan's text as one more line of `plan`.
  void add_plan(std::string_view text);
  template <Plan P>
  void add_plan(const P& p) {
    if (plans_wanted) add_plan(std::string_view(p.print()));
  }
  // The modeled time of the call: today the engine time (the profile's total); the host round
  // trips will add here.
  double modeled_ns() const { return profile.total_ns; }
  // The plan(s), the time parts and the profile's per-engine summary, as `trnsci profile` prints it.
  std::string print() const;
};

// The one place a trace becomes a profile: the cost model's schedule of `trace` on rs.target (core
// count from the trace unless rs.schedule_over_cores), with Profile::cores set to rs.cores when given. `timeline`, when not null,
// receives the per-instruction schedule.
Profile model_trace(const Trace& trace, const ReportSettings& rs, std::vector<ScheduledInstruction>* timeline = nullptr);

// Adds the profile of a launch that ran after `total`'s (no overlap): times, busy times, counts and
// bytes add; the critical engine is the one with the most critical-path time over both. For calls
// modeled launch by launch (trnsparse attention) instead of as one merged trace.
void append_sequential(Profile& total, const Profile& next);

// Builds `r` from the call's merged trace: models it (unless rs.trace_only, which leaves the profile
// as it is apart from its core count), then keeps the trace. The plan text is the caller's.
void finish_report(Report& r, Trace&& trace, const ReportSettings& rs);
// The same for a report whose trace the caller gathered in r.trace itself.
void finish_report(Report& r, const ReportSettings& rs);
inline void finish_report(Report* r, Trace&& trace, const ReportSettings& rs) {
  if (r != nullptr) finish_report(*r, std::move(trace), rs);
}

}  // namespace trn
