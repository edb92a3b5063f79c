#pragma once
// Trace buffer recycling for small calls (issue #30, docs/architecture.md "Per-call cost").
//
// Algorithm: a one-program launch (core/src/spmd.cpp, launch_one) moves its core's trace out to
//   the caller and needs a fresh buffer for the next program. recycle_trace hands a finished
//   trace's buffer back to the calling thread's warm pool (trace.hpp: a destroyed or assigned-over
//   Trace does the same); the next launch on that thread records into it instead of allocating.
// Engines: none (host bookkeeping only; no record, byte or modeled time depends on it).
// Accuracy: not applicable.
// Limits: calling it is optional; the trace passed in is left empty.

#include "trn/core/trace.hpp"

namespace trn {

void recycle_trace(Trace&& trace);

}  // namespace trn
