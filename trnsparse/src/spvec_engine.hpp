// The sparse-vector operations on the emulated engines (spvec_engine.cpp and spvec_fp64.cpp state the
// algorithm, engines, accuracy and limits): Axpby, Rot and SpVV in R_32F / C_32F (VectorE fp32) and
// in R_64F / C_64F (exact slice-pair dots of the segmented kernel), Gather and Scatter in every value
// type (DMA moves of fp32 words).
#pragma once
#include <vector>

#include "trn/sparse/generic.hpp"

namespace trn::sparse {

// True where Axpby / Rot / SpVV run on the engines (fp32 arithmetic: R_32F, C_32F).
bool spvec_on_engines(Value v);

void axpby_engines(const Settings& s, Scalar alpha, const SpVecRef& x, Scalar beta, void* y, CallReport* report);
void rot_engines(const Settings& s, Scalar c, Scalar sn, const SpVecRef& x, void* y, CallReport* report);
Scalar spvv_engines(const Settings& s, GOp opX, const SpVecRef& x, const void* y, CallReport* report);
// R_64F / C_64F (spvec_fp64.cpp): each output the exact combination rounded once.
bool spvec_fp64_on_engines(Value v);
void axpby_fp64_engines(const Settings& s, Scalar alpha, const SpVecRef& x, Scalar beta, void* y, CallReport* report);
void rot_fp64_engines(const Settings& s, Scalar c, Scalar sn, const SpVecRef& x, void* y, CallReport* report);
Scalar spvv_fp64_engines(const Settings& s, GOp opX, const SpVecRef& x, const void* y, CallReport* report);

// Splits entries 0 .. nnz-1 (positions pos) into rounds: entry e goes to round r = how many entries
// before it hold its position, so no round holds a position twice; each round keeps storage order.
std::vector<std::vector<std::int64_t>> duplicate_free_rounds(const std::vector<std::int64_t>& pos);

// Gather (to_x: x.values[e] = y[idx e]) or Scatter (y[idx e] = x.values[e]), any value type.
void move_engines(const Settings& s, bool to_x, const SpVecRef& x, void* y, CallReport* report);

// SparseToDense's device program (convert.cpp): `lines` lines of `line_len` values, `stride` values
// apart from `data` (column-major: the columns; row-major: the rows), zero-filled, then x's values
// scattered into them as Scatter does (x.indices: element offsets from data, in storage order), in
// one launch. Elements between line_len and stride are never written. entries: the entry numbers to
// move, increasing (Blocked-ELL: the stored slots' values; x.indices holds any in-range offset for
// the others); null: all of them.
struct DenseLines {
  void* data = nullptr;
  std::int64_t lines = 0, line_len = 0, stride = 0;
};
void fill_and_scatter_engines(const Settings& s, const DenseLines& y, const SpVecRef& x, CallReport* report,
                              const std::vector<std::int64_t>* entries = nullptr);

}  // namespace trn::sparse
