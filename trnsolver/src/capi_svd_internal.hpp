// The SVD family's C-shim helpers (capi_gesvd.cpp, capi_svd_family.cpp): the X API's four data types.
#pragma once
#include <cstddef>

#include "capi_internal.hpp"

namespace trn::solver::capi {

// Bytes of one element of TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F (0 for any other value).
inline std::size_t x_elem_any(int dt) {
  return dt == TRN_R_32F ? 4 : dt == TRN_R_64F || dt == TRN_C_32F ? 8 : dt == TRN_C_64F ? 16 : 0;
}
inline bool x_complex(int dt) { return dt == TRN_C_32F || dt == TRN_C_64F; }
// The real type of a data type (TRN_C_32F -> TRN_R_32F, TRN_C_64F -> TRN_R_64F).
inline int x_real_of(int dt) { return x_complex(dt) ? dt - TRN_C_32F : dt; }

// dataType / computeType of the SVD family's X routines: one of the four, the compute type the same.
inline void check_x_types_any(Check& c, int data, int compute) {
  c.require_or(x_elem_any(data) != 0 && compute == data, TRNSOLVER_STATUS_NOT_SUPPORTED,
               "TRNSOLVER_STATUS_NOT_SUPPORTED", "dataType / computeType: R_32F, R_64F, C_32F or C_64F, both the same");
}

}  // namespace trn::solver::capi
