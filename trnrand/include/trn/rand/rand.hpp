// Umbrella header of trnsci::trnrand (C API: trnrand.h).
#pragma once
#include "trn/rand/counter_rngs.hpp"
#include "trn/rand/device.hpp"
#include "trn/rand/generator.hpp"
#include "trn/rand/host.hpp"
#include "trn/rand/kernels.hpp"
#include "trn/rand/poisson.hpp"
#include "trn/rand/streams.hpp"
#include "trn/rand/transforms.hpp"
