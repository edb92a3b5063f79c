// The sparse-vector operations on the emulated engines (spvec_engine.cpp states the algorithm,
// engines, accuracy and limits): Axpby, Rot and SpVV in R_32F / C_32F, Gather and Scatter in
// every value type (DMA moves of fp32 words).
#pragma once
#include "trn/sparse/generic.hpp"

namespace trn::sparse {

// True where Axpby / Rot / SpVV run on the engines (fp32 arithmetic: R_32F, C_32F).
bool spvec_on_engines(Value v);

void axpby_engines(const Settings& s, Scalar alpha, const SpVecRef& x, Scalar beta, void* y, CallReport* report);
void rot_engines(const Settings& s, Scalar c, Scalar sn, const SpVecRef& x, void* y, CallReport* report);
Scalar spvv_engines(const Settings& s, GOp opX, const SpVecRef& x, const void* y, CallReport* report);
// Gather (to_x: x.values[e] = y[idx e]) or Scatter (y[idx e] = x.values[e]), any value type.
void move_engines(const Settings& s, bool to_x, const SpVecRef& x, void* y, CallReport* report);

}  // namespace trn::sparse
