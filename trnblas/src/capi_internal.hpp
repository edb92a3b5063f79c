// Internal (not installed): what the C entry points outside capi.cpp share with it — the handle
// registry, the logger-backed argument checks, the guarded compute body and the handle's settings.
// Defined in capi.cpp, where the handle type lives.
#pragma once
#include <cstdint>
#include <functional>

#include "trn/blas/blas.hpp"
#include "trn/core/c_shim.hpp"
#include "trnblas.h"

namespace trn::blas::capi {

// A live handle from trnblasCreate.
bool valid(trnblasHandle_t h);
// An argument-check chain of entry point `fn` that logs failures and records the position on h.
trn::cshim::ArgCheck<trnblasStatus_t> arg_check(trnblasHandle_t h, const char* fn);
// Runs `body` with exceptions mapped to statuses; on success the report is stored on h
// (trnblasGetLastProfile, the mantissa bit-count pointer).
trnblasStatus_t run(trnblasHandle_t h, const char* fn, const std::function<void(CallReport*)>& body);
// The emulator and Ozaki settings of h, and the mode of an fp32 product under h's math mode.
Settings settings(trnblasHandle_t h);
GemmMode fp32_mode(trnblasHandle_t h);
// A (rows x cols, ld) operand's extent is addressable in int64 bytes (8-byte elements at most).
bool addressable(std::int64_t rows, std::int64_t cols, std::int64_t ld);
// The leading dimension the kernels see (a single column is never strided: its ld becomes rows).
std::int64_t kernel_ld(std::int64_t ld, std::int64_t rows, std::int64_t cols);

}  // namespace trn::blas::capi
