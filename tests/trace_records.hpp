// One field-by-field comparison of two trace records (trn::Instruction, core/include/trn/core/trace.hpp)
// for the tests that prove a host-only change kept the records: which fields differ is the message,
// not a hash mismatch. Two choices a caller makes:
// - `index`: compare the program-order index too (off when the second record comes from a later
//   instruction of the same core, whose counter has moved on);
// - `hbm_by_extent`: compare HBM regions by their length only (a host buffer's address hull depends
//   on the heap's layout, so two calls on equal data can record different HBM offsets; SBUF / PSUM
//   offsets are the tile placements the test is about and are always exact).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "trn/core/trace.hpp"

namespace trntest {

struct RecordMatch {
  bool index = false;
  bool hbm_by_extent = false;
};

inline void expect_same_record(const trn::Instruction& a, const trn::Instruction& b, const std::string& what,
                               RecordMatch match = {}) {
  if (match.index) {
    EXPECT_EQ(a.index, b.index) << what;
  }
  EXPECT_EQ(a.engine, b.engine) << what;
  EXPECT_EQ(a.opcode, b.opcode) << what;
  EXPECT_EQ(a.in_dtype, b.in_dtype) << what;
  EXPECT_EQ(a.out_dtype, b.out_dtype) << what;
  EXPECT_EQ(a.partitions, b.partitions) << what;
  EXPECT_EQ(a.free_elems, b.free_elems) << what;
  EXPECT_EQ(a.matmul_m, b.matmul_m) << what;
  EXPECT_EQ(a.inputs, b.inputs) << what;
  EXPECT_EQ(a.bytes_read, b.bytes_read) << what;
  EXPECT_EQ(a.bytes_written, b.bytes_written) << what;
  EXPECT_EQ(a.accumulate, b.accumulate) << what;
  EXPECT_EQ(a.contiguous, b.contiguous) << what;
  EXPECT_EQ(a.subop, b.subop) << what;
  EXPECT_EQ(a.regions_dropped, b.regions_dropped) << what;
  ASSERT_EQ(a.nregions, b.nregions) << what;
  for (int r = 0; r < a.nregions; ++r) {
    const trn::Region &x = a.regions[static_cast<std::size_t>(r)], &y = b.regions[static_cast<std::size_t>(r)];
    const bool extent_only = match.hbm_by_extent && x.mem == trn::MemSpace::hbm;
    const bool same_place = extent_only ? x.hi - x.lo == y.hi - y.lo : x.lo == y.lo && x.hi == y.hi;
    EXPECT_TRUE(x.mem == y.mem && x.write == y.write && x.p0 == y.p0 && x.np == y.np && same_place)
        << what << " region " << r << ": " << x.p0 << "+" << x.np << " [" << x.lo << ", " << x.hi << ") vs " << y.p0
        << "+" << y.np << " [" << y.lo << ", " << y.hi << ")";
  }
}

}  // namespace trntest
