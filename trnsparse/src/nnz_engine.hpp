// cusparse<t>nnz's counting on the emulated engines (nnz_engine.cpp states the algorithm, engines,
// accuracy and limits): the stored entries (x != 0; complex: either part) of each row or column of a
// dense column-major matrix, and their total.
#pragma once
#include <cstdint>

#include "trn/sparse/generic.hpp"

namespace trn::sparse {

// True where the engine path counts A (column-major, the reduced extent -- cols for row counts,
// rows for column counts -- below 2^24, so every partial count is an exact fp32 integer).
bool dense_nnz_on_engines(const DenseAny& A, bool by_rows);

// counts[0 .. major) = the nonzeros of each row (by_rows) or column of A; returns their total.
// Values are compared as their IEEE bit patterns (+0 and -0 are zero, NaN and subnormals count),
// exactly as the host scan of dense_to_sparse_analysis. The report gets the launch and its plan.
std::int64_t dense_nnz_engines(const Settings& s, const DenseAny& A, bool by_rows, std::int32_t* counts, CallReport* report);

}  // namespace trn::sparse
