// Internal (not installed): pieces shared by level3.cpp and complex_gemm.cpp.
#pragma once
#include <algorithm>
#include <utility>

#include "trn/blas/blas.hpp"

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
    if (report_ != nullptr) report_->finish(s_, std::move(trace_));
  }
  void add(const Trace& t) { trace_.append(t); }
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
