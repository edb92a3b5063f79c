// Umbrella header of trnsci::core.
#pragma once
#include "trn/core/cost_model.hpp"
#include "trn/core/dtype.hpp"
#include "trn/core/error.hpp"
#include "trn/core/hardware.hpp"
#include "trn/core/host_simd.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/memory.hpp"
#include "trn/core/neuron_core.hpp"
#include "trn/core/philox.hpp"
#include "trn/core/spmd.hpp"
#include "trn/core/trace.hpp"
