// A per-thread observer of finish_report (report.hpp): called on the calling thread with every report
// finish_report models, after modeling. The Python bindings (python/src/common.cpp) set one around a
// library call to keep the call's trace for Profile.to_perfetto and the SVG timeline. Null by
// default; it never changes a report, its bits or its modeled time.
#pragma once
#include "trn/core/report.hpp"

namespace trn {

struct ReportObserver {
  void (*fn)(void* ctx, const Report& r, const ReportSettings& rs) = nullptr;
  void* ctx = nullptr;
};
// Sets this thread's observer; returns the previous one (restore it when done).
ReportObserver set_thread_report_observer(ReportObserver observer);
// True while this thread has an observer (a caller may then not skip a finish_report it would see).
bool thread_report_observed();

}  // namespace trn
