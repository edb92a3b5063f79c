// Internal: the triangular-solve tile kernel used by spotrs (not installed).
#pragma once
#include <cstdint>

#include "trn/core/core.hpp"

namespace trn::solver::detail {

// T X = B. Element (i, j) of T at t[i * t_si + j * t_sj]; B column-major n x nrhs with ldb.
struct TrsmProblem {
  const float* t = nullptr;
  std::int64_t t_si = 1, t_sj = 1;
  bool lower = true;
  bool unit = false;  // unit diagonal (t_jj not read)
  float* b = nullptr;
  std::int64_t ldb = 0, n = 0, nrhs = 0;
};

void trsm_left_kernel(NeuronCore& nc, const TrsmProblem& p);

}  // namespace trn::solver::detail
