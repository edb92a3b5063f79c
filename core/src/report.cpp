// The one Report builder and the plan/report printers (report.hpp, plan.hpp).
#include "trn/core/report.hpp"
#include "trn/core/report_observer.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace trn {

std::string PlanFacts::print() const {
  std::string s = routine + " plan";
  if (!shape.empty()) s += " " + shape;
  s += ": " + variant;
  if (!ops.empty()) s += "; " + ops;
  char buf[96];
  if (sbuf_bytes >= 0 || psum_bytes >= 0) {
    s += ";";
    if (sbuf_bytes >= 0) s += " SBUF " + std::to_string(sbuf_bytes) + " B/partition";
    if (sbuf_bytes >= 0 && psum_bytes >= 0) s += ",";
    if (psum_bytes >= 0) s += " PSUM " + std::to_string(psum_bytes) + " B/partition";
  }
  if (!engines.empty()) s += "; engines " + engines;
  if (predicted_ns >= 0) {
    std::snprintf(buf, sizeof buf, "; predicted %.3f us", predicted_ns * 1e-3);
    s += buf;
  }
  if (!why.empty()) s += "; why: " + why;
  return s;
}

void Report::add_plan(std::string_view text) {
  if (text.empty()) return;
  if (!plan.empty()) plan += '\n';
  plan += text;
}

std::string Report::print() const {
  std::string s;
  if (!plan.empty()) s += plan + "\n";
  char buf[160];
  // One line per time part (engine time today; host round trips later), then their sum.
  std::snprintf(buf, sizeof buf, "modeled time: engine %.3f us\n", profile.total_ns * 1e-3);
  s += buf;
  s += profile.summary();
  return s;
}

Profile model_trace(const Trace& trace, const ReportSettings& rs, std::vector<ScheduledInstruction>* timeline) {
  CostModelOptions opt;
  opt.target = rs.target;
  opt.keep_timeline = timeline != nullptr;
  opt.host = rs.host;
  opt.link_peers = rs.link_peers;
  if (rs.schedule_over_cores) opt.num_cores = rs.cores;
  Schedule sched = schedule_trace(trace, opt);
  if (timeline != nullptr) *timeline = std::move(sched.timeline);
  if (rs.cores > 0) sched.profile.cores = rs.cores;
  return std::move(sched.profile);  // a member is not moved implicitly: its queue vector was a heap block per call
}

void append_sequential(Profile& q, const Profile& p) {
  // The sum is stated over the cores of both (Profile::cores, the utilisation denominators): a solver
  // whose launches use fewer cores than its settings give still reports the settings' count.
  q.cores = std::max(q.cores, p.cores);
  q.total_ns += p.total_ns;
  for (std::size_t e = 0; e < p.busy_ns.size(); ++e) {
    q.busy_ns[e] += p.busy_ns[e];
    q.critical_ns[e] += p.critical_ns[e];
    q.instructions[e] += p.instructions[e];
    q.roofline_ns[e] += p.roofline_ns[e];
  }
  q.host_roundtrip_ns += p.host_roundtrip_ns;
  q.host_critical_ns += p.host_critical_ns;
  q.host_flops += p.host_flops;
  q.host_bytes += p.host_bytes;
  q.host_steps += p.host_steps;
  q.link_transfers += p.link_transfers;
  q.link_ns += p.link_ns;
  q.link_critical_ns += p.link_critical_ns;
  q.link_bytes += p.link_bytes;
  q.link_waits += p.link_waits;
  q.link_wait_ns += p.link_wait_ns;
  q.link_wait_critical_ns += p.link_wait_critical_ns;
  q.total_instructions += p.total_instructions;
  q.flops += p.flops;
  q.tensor_flops += p.tensor_flops;
  q.dma_bytes += p.dma_bytes;
  q.dma_active_ns += p.dma_active_ns;
  const auto most = std::max_element(q.critical_ns.begin(), q.critical_ns.end());
  q.critical_engine = static_cast<Engine>(most - q.critical_ns.begin());
}

namespace {
thread_local ReportObserver t_observer;
}  // namespace

bool thread_report_observed() { return t_observer.fn != nullptr; }

ReportObserver set_thread_report_observer(ReportObserver observer) {
  const ReportObserver previous = t_observer;
  t_observer = observer;
  return previous;
}

void finish_report(Report& r, const ReportSettings& rs) {
  if (!rs.trace_only) {
    r.profile = model_trace(r.trace, rs, rs.keep_timeline ? &r.timeline : nullptr);
    if (t_observer.fn != nullptr) t_observer.fn(t_observer.ctx, r, rs);
  } else if (rs.cores > 0) {
    r.profile.cores = rs.cores;
  }
}

void finish_report(Report& r, Trace&& trace, const ReportSettings& rs) {
  r.trace = std::move(trace);
  finish_report(r, rs);
}

}  // namespace trn
