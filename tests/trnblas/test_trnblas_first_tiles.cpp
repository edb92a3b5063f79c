// l12::FirstTiles (trnblas/src/level12_internal.hpp): when SBUF is not empty it allocates its tiles
// one by one; an allocation that throws must free the ones made before it (a throwing constructor
// runs no destructor), so the memory's use is what it was before the call.
#include <gtest/gtest.h>

#include "level12_internal.hpp"
#include "trn/core/core.hpp"

namespace {

TEST(FirstTiles, FallbackFreesItsTilesWhenAnAllocationThrows) {
  trn::NeuronCore nc;
  const trn::Tile held = nc.sbuf().alloc(trn::DType::f32, 1, {16}, "held");  // not empty: the fallback path
  const std::int64_t used = nc.sbuf().used_bytes();
  const std::int64_t too_many = nc.sbuf().partition_bytes() / 4;  // the whole partition: cannot fit now
  EXPECT_THROW((trn::blas::l12::FirstTiles(nc.sbuf(), {{1, 16}, {1, 16}, {1, too_many}}, "first tiles")), trn::Error);
  EXPECT_EQ(nc.sbuf().used_bytes(), used);
  {
    const trn::blas::l12::FirstTiles ok(nc.sbuf(), {{1, 16}, {2, 32}}, "first tiles");
    EXPECT_EQ(ok[1].partitions, 2);
    EXPECT_GT(nc.sbuf().used_bytes(), used);
  }
  EXPECT_EQ(nc.sbuf().used_bytes(), used);
  nc.sbuf().free(held);
}

}  // namespace
