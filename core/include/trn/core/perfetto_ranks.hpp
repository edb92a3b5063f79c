// One rank's part of a merged multi-rank Perfetto trace (cost_model.cpp, beside perfetto_json): the
// distributed libraries gather every rank's part on rank 0 (distributed/trnblasMp merged_trace.hpp,
// docs/scale-out.md section 11).
#pragma once
#include <cstddef>
#include <string>

#include "trn/core/cost_model.hpp"

namespace trn {

// perfetto_json's events with every track in process `rank` (named "rank <rank>", sorted by rank):
// NeuronCore c's engine / DMA-queue tracks as threads 100 c + (engine | 10 + queue), the host round
// trips on thread 90000, the link transfers on thread 90001 ("Fabric (...)"), and the parts of the
// link transfers that overlap device work on thread 90002 ("link hidden behind compute", events of cat
// "overlap"), and the time link transfers waited for their peers on thread 90003 ("waiting for
// peers", events of cat "wait", named "wait: <transfer>"); flow ids offset by rank << 40 so that two ranks' arrows never pair. The events only,
// comma-separated, without the enclosing object: the caller joins the ranks' parts into one
// traceEvents array. Timestamps in microseconds from the start of the rank's trace.
std::string perfetto_rank_events(const Trace& trace, const Schedule& schedule, int rank, std::size_t max_flows = 200000);

}  // namespace trn
