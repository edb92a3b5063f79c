// Internal to trnsolverMp: Syevd's and Sygvd's 1 x 1 path (syevd.cpp): trnsolver's single-device driver
// on the local blocks, so that the 1-rank call gives the single-device library's bits.
#pragma once
#include <cstdint>

#include "trn/solvermp/solvermp.hpp"

namespace trn::solvermp::detail {

// The grid is 1 x 1 and the call did not ask for the distributed algorithm there.
bool on_one_device(const SyevdArgs& x);
// trnsolver's syevd (itype 0) or sygvd (itype 1 .. 3, B with leading dimension ldb) on the local blocks,
// the eigenvectors copied from A into Z (info < n); the single-device trace appended. Returns its info.
int one_device(const blas::Settings& s, const SyevdArgs& x, int itype, void* b, std::int64_t ldb, Trace& trace);

}  // namespace trn::solvermp::detail
