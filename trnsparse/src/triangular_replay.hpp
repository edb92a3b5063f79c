// Repeated level-set solves with one triangular analysis inside one call (the Krylov solvers'
// ILU(0) / IC(0) preconditioner applies the same two triangles twice per iteration): what the
// R_32F / C_32F level-set path (triangular_engine.cpp) can keep between those solves without
// changing a bit, a trace record or a modeled time.
//
// Algorithm   The first solve runs as triangular_solve does and keeps (a) the chunks and their index
//             words (pattern only: the same words every solve) and (b) its trace with every HBM
//             address renamed to (rank of its buffer among the launch's three buffers, offset in the
//             buffer), and the profile the cost model gave it. A later solve copies the kept index
//             words instead of deriving them again, runs its launch as before (every instruction
//             executes, leaves its bytes and its trace record), and then compares its trace with the
//             kept one record by record, every field, HBM addresses under the same renaming. Equal:
//             the kept profile is this trace's profile, because the cost model reads HBM addresses
//             only by comparing region endpoints with one another (core/src/cost_model.cpp, "The
//             schedule memo": a strictly increasing renaming of the endpoints schedules exactly as
//             the trace does, the argument core's own schedule memo rests on) and the renaming is
//             strictly increasing when the three buffers lie in the same order in both calls.
//             Different (any field, a buffer order, an address outside the three buffers): the
//             trace is modeled as usual. Core's memo stops at 256 records; a level-set solve of the
//             bench's 64 x 64 grid has ~1 500.
// Engines     None of its own (host bookkeeping around triangular_solve_engines).
// Accuracy    Not applicable: the same launches, bits and profiles as triangular_solve.
// Limits      One analysis, one Settings and no report observer (trn/core/report_observer.hpp: an
//             observed report is always modeled) per replay; the replay must not outlive the analysis.
//             A solve with another analysis of another pattern empties the replay and starts afresh.
//             Paths other than the level sets (the blocked schedule, fp64) run unchanged.
// Across      A destroyed replay's state goes to its thread's pool of two with what it kept (session
// replays     24): a later replay's first solve takes the state whose pattern equals its analysis'
//             (n, nnz, value type and every array index_chunks reads: levels, order, rows, columns,
//             entry numbers, diagonal positions; compared in full, O(n + nnz)), so the next Krylov
//             solve of the same matrix (a new factor, a new analysis object) starts with the words
//             and the profile to compare against. The profile still answers only a trace equal to the
//             kept one record by record; a state kept under other settings (another target) or whose
//             trace this replay has not repeated keeps the next modeled trace instead.
#pragma once

#include <memory>

#include "trn/sparse/triangular.hpp"

namespace trn::sparse::detail {

struct LevelSetReplayState;  // triangular_engine.cpp

// What one caller keeps for one analysis across its solves (empty until the first level-set solve).
class LevelSetReplay {
 public:
  LevelSetReplay();
  ~LevelSetReplay();
  LevelSetReplay(LevelSetReplay&&) noexcept;
  LevelSetReplay& operator=(LevelSetReplay&&) noexcept;
  std::unique_ptr<LevelSetReplayState> state;
};

// Solves whose profile came from the kept one (tests: a replay that never replays is a slow no-op).
std::int64_t replayed_solves(const LevelSetReplay& replay);

// triangular_solve with a replay: the same checks and path choice; the R_32F / C_32F level-set path
// keeps and reuses what `replay` describes. Same outputs, trace and profile as triangular_solve.
void triangular_solve_replayed(const Settings& s, const TriangularAnalysis& t, const void* values, Scalar alpha, GOp opB,
                               const DenseAny& B, const DenseAny& C, CallReport* report, LevelSetReplay& replay);

// The level-set path with a replay (nullptr: triangular_solve_engines).
void triangular_solve_engines_replayed(const Settings& s, const TriangularAnalysis& t, const void* values,
                                       const void* diagonal, Scalar alpha, GOp opB, const DenseAny& B, const DenseAny& C,
                                       CallReport* report, LevelSetReplay* replay);

}  // namespace trn::sparse::detail
