// Shared helpers of the trnblas tests: a handle, plus the independent references of
// blas_reference.hpp.
#pragma once
#include <gtest/gtest.h>

#include "blas_reference.hpp"
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

}  // namespace blastest
