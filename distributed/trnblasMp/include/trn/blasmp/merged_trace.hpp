// A merged multi-rank Perfetto trace of one distributed call (docs/scale-out.md section 11): every
// rank's modeled timeline in one Chrome trace-event JSON file, written by rank 0, one process (track
// group) per rank -- pid = rank, named "rank r" -- with its NeuronCores' engine and DMA-queue tracks,
// its host round trips, its link transfers on a "Fabric (NeuronLink-...)" track and the part of them
// hidden behind device work on a "link hidden behind compute" track (trn::perfetto_rank_events).
//
// Algorithm: each rank schedules its call's trace again with the timeline kept (the same cost model
//   and options as the call's report: the rank's device, every NeuronCore of it), formats its events,
//   and one MPI_Gatherv over the communicator brings them to rank 0, which joins them in rank order.
// Timestamps: every rank's timeline starts at 0 = the call's start (the argument exchange every
//   collective routine begins with); the unit is the microsecond, as in perfetto_json. The schedule
//   is the report's, waits for peers included (peer_exchange(), docs/scale-out.md section 7: a
//   receiver's transfer starts no earlier than its root reached it), and the waits are drawn on a
//   "waiting for peers" track; each transfer still takes the fabric model's time on each rank.
// Engines: none (host formatting and one gather; nothing is added to any trace or profile).
// Limits: collective -- every rank of comm must call it, while the call's grid or plan (the
//   communicators its link records name) still exists (the C APIs decide by their argument exchange,
//   so ranks that disagree get a status, not a hang); a rank's part is limited to 2 GiB of text.
#pragma once
#include <mpi.h>

#include <string>

#include "trn/core/hardware.hpp"
#include "trn/core/report.hpp"

namespace trn::blasmp {

// The environment variable the C APIs read (trnblasMp Gemm, trnsolverMp's routines, trnfftMp's
// XtExecDescriptor*): when set (non-empty) on the ranks, each successful collective call writes its
// merged trace to that path (rank 0 writes; the last call's file remains).
inline constexpr const char* kMergedTraceEnv = "TRNSCI_MP_TRACE";
// The path in kMergedTraceEnv on this rank ("" when unset).
std::string merged_trace_path();

// Collective over comm: on rank 0 the whole JSON document ({"displayTimeUnit":"ns","traceEvents":[...]})
// of every rank's report `r` of one call on `target` devices; "" on the other ranks.
std::string merged_perfetto_json(MPI_Comm comm, const Report& r, Generation target);
// Collective: merged_perfetto_json written by rank 0 to path. Every rank returns whether rank 0 wrote it.
bool write_merged_trace(MPI_Comm comm, const Report& r, Generation target, const std::string& path);

}  // namespace trn::blasmp
