// Internal (not installed): pieces shared by level3.cpp and complex_gemm.cpp.
#pragma once
#include <algorithm>
#include <utility>

#include "trn/blas/blas.hpp"
#include "trn/core/host_step.hpp"

namespace trn::blas::detail {

// Collects the traces of every launch of one call (GEMMs and tile kernels) into its report.
class Recorder {
 public:
  Recorder(const Settings& s, CallReport* report) : s_(s), report_(report) {
    if (report_ != nullptr) *report_ = CallReport{};
  }
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;
  ~Recorder() {
    if (report_ == nullptr) return;
    if (!s_.report_trace_only) report_->profile = model_profile(trace_, s_.target);
    report_->profile.cores = std::max(1, s_.num_cores);
    report_->tensor_passes = trace_.per_engine[static_cast<int>(Engine::tensor)];
    report_->trace = std::move(trace_);
  }
  void add(const Trace& t) { trace_.append(t); }
  void host_step(const HostStep& h) { record_host_step(trace_, h); }
  void add(const CallReport& sub) {
    trace_.append(sub.trace);
    if (report_ != nullptr && sub.ozaki_mantissa_bits >= 0) {
      report_->ozaki_mantissa_bits = sub.ozaki_mantissa_bits;
      report_->ozaki_slices_a = sub.ozaki_slices_a;
      report_->ozaki_slices_b = sub.ozaki_slices_b;
      report_->ozaki_products = sub.ozaki_products;
    }
  }

 private:
  const Settings& s_;
  CallReport* report_;
  Trace trace_;
};

}  // namespace trn::blas::detail
