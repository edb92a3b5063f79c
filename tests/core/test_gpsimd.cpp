// Filled in shortly.
#include <gtest/gtest.h>

#include "trn/core/core.hpp"

TEST(Stub, CoreConstructs) { trn::NeuronCore nc; EXPECT_EQ(nc.instruction_count(), 0u); }
