// Shared by the trnblas suites that call the C API (suite_blas_level12.cpp, suite_blas_tri_lu.cpp):
// a handle per case and the conversion of its last profile to the report's DeviceCost.
#pragma once
#include "registry.hpp"
#include "trnblas.h"

namespace trnsci::cli::blas_capi_suite {

inline DeviceCost device_from(const trnProfile_t& p) {
  trn::Profile q;
  q.target = static_cast<trn::Generation>(p.target);
  q.total_ns = p.total_ns;
  for (int e = 0; e < trn::kEngineCount; ++e) q.busy_ns[e] = p.busy_ns[e];
  return DeviceCost::from(q);
}

// A handle for one case; records the last call's profile.
struct Handle {
  trnblasHandle_t h = nullptr;
  Handle() { trnblasCreate(&h); }
  ~Handle() { trnblasDestroy(h); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  trnProfile_t profile() const {
    trnProfile_t p{};
    trnblasGetLastProfile(h, &p);
    return p;
  }
  DeviceCost device() const { return device_from(profile()); }
};

}  // namespace trnsci::cli::blas_capi_suite
