// spotrs over a batch of matrices of one shape (potrsBatched, capi_batched.cpp): each of its two
// triangular solves runs for all matrices through trnblas's strsm_left_batch, several matrices per
// launch of the narrow TRSM kernel (their Newton chains interleaved); every B[k]'s bits are those of
// spotrs on matrix k alone (test_trnsolver_batched). potrf.cpp.
#pragma once
#include <cstdint>

#include "trn/core/trace.hpp"
#include "trn/solver/solver.hpp"

namespace trn::solver::detail {

void spotrs_batch(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t nrhs, const float* const* A,
                  std::int64_t lda, float* const* B, std::int64_t ldb, std::int64_t batch, TraceParts& trace);

}  // namespace trn::solver::detail
