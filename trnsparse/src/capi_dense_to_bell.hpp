// trnsparse C shim: DenseToSparse with a Blocked-ELL destination (capi_dense_to_bell.cpp), called by
// the three DenseToSparse entry points of capi_convert.cpp when matB is a Blocked-ELL descriptor.
#pragma once
#include "trnsparse.h"

namespace trn::sparse::capi {

// matB is a live Blocked-ELL descriptor.
bool is_blocked_ell_target(trnsparseConstSpMatDescr_t B);
enum class BellPhase { buffer_size, analysis, convert };
// The whole entry point (handle check included); bufferSize only for BellPhase::buffer_size.
trnsparseStatus_t dense_to_blocked_ell(trnsparseHandle_t h, const char* fn, BellPhase phase, trnsparseConstDnMatDescr_t A,
                                       trnsparseSpMatDescr_t B, int alg, size_t* bufferSize);

}  // namespace trn::sparse::capi
