// The tridiagonalization's column product y = A x (fp32, column_gemv.cpp).
#pragma once

#include <cstdint>

#include "trn/blas/blas.hpp"
#include "trn/core/trace.hpp"

namespace trn::solver::detail {

// y = A x for a square n x n A (column-major, ld lda, n > 0) and contiguous x, y: the trace, bits and
// modeled time of trnblas gemv(Op::N, n, n, 1, A, lda, x, 1, 0, y, 1), appended to `trace`, at a
// fraction of its host cost when 128 < n <= 256 (column_gemv.cpp); otherwise that gemv itself.
void column_gemv(const blas::Settings& s, std::int64_t n, const float* A, std::int64_t lda, const float* x, float* y,
                 TraceParts& trace);

}  // namespace trn::solver::detail
