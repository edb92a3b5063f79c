// A trnblas handle for the trnblas benchmarks whose emulator uses `threads` host threads: the C API
// has no host-thread setting, so it is set through TRN_NUM_THREADS before the handle is created.
#pragma once
#include <cstdlib>
#include <string>

#include "trnblas.h"

namespace trnblas_bench {

class Handle {
 public:
  explicit Handle(int threads) {
    setenv("TRN_NUM_THREADS", std::to_string(threads).c_str(), 1);
    trnblasCreate(&h_);
  }
  ~Handle() { trnblasDestroy(h_); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  operator trnblasHandle_t() const { return h_; }  // NOLINT

 private:
  trnblasHandle_t h_ = nullptr;
};

}  // namespace trnblas_bench
