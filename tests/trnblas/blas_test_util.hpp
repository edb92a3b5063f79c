// Shared helpers of the trnblas tests: a handle, plus the independent references of
// blas_reference.hpp.
#pragma once
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "blas_reference.hpp"
#include "trn/blas/blas.hpp"
#include "trnblas.h"

namespace blastest {

// A trnblas handle for the duration of a test.
struct Handle {
  trnblasHandle_t h = nullptr;
  Handle() { EXPECT_EQ(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS); }
  ~Handle() { trnblasDestroy(h); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  operator trnblasHandle_t() const { return h; }  // NOLINT(google-explicit-constructor)
};

// Runs `call(settings, y, report)` on three copies of y0 (1 host thread; 2 host threads; 2 emulated
// cores) and expects the three outputs to be the same bytes (the project's determinism rule). Returns
// the first run's output; its report goes to *first_report.
template <class T, class Call>
std::vector<T> same_bits_on_threads_and_cores(const std::vector<T>& y0, Call&& call,
                                              trn::blas::CallReport* first_report) {
  std::vector<T> runs[3];
  for (int run = 0; run < 3; ++run) {
    trn::blas::Settings s;
    s.host_threads = run == 1 ? 2 : 1;
    s.num_cores = run == 2 ? 2 : 1;
    runs[run] = y0;
    trn::blas::CallReport rep;
    call(s, runs[run].data(), &rep);
    if (run == 0) *first_report = rep;
  }
  EXPECT_EQ(0, std::memcmp(runs[0].data(), runs[1].data(), runs[0].size() * sizeof(T))) << "1 vs 2 threads";
  EXPECT_EQ(0, std::memcmp(runs[0].data(), runs[2].data(), runs[0].size() * sizeof(T))) << "1 vs 2 cores";
  return runs[0];
}

}  // namespace blastest
