// One Plan concept: every routine that chooses anything (a GEMM block shape, an FFT factorisation,
// a Jacobi kernel, a factorisation's panel width, a sparse kernel, an einsum path, a generator's
// kernel) returns a plan object that makes the choice and prints itself with print() -- the one
// name, in the spirit of FFTW's fftw_print_plan (docs/architecture.md "Plans and reports").
// The call's trn::Report carries the printed plan(s) beside the modeled profile.
#pragma once
#include <concepts>
#include <cstdint>
#include <string>

namespace trn {

// A plan: an object that states what will run and why, as text.
template <class P>
concept Plan = requires(const P& p) {
  { p.print() } -> std::convertible_to<std::string>;
};

// The facts a plan states, printed in one format (used by the plans that have no richer text of
// their own):
//   "<routine> plan <shape>: <variant>; <ops>; SBUF <b> B/partition, PSUM <b> B/partition;
//    engines <list>; predicted <t> us; why: <rule>"
// Parts left empty (or negative) are omitted: a plan states only what it knows before the run, plus
// what the launch measured (SBUF/PSUM peaks from LaunchResult).
struct PlanFacts {
  std::string routine;           // "syevj", "potrf", "spmm", "einsum", "rand normal", ...
  std::string shape;             // e.g. "n=160" or "512x512x64"
  std::string variant;           // the kernel or algorithm chosen
  std::string ops;               // op counts, e.g. "6.0e+06 flops" or "3 GEMM steps"
  std::int64_t sbuf_bytes = -1;  // per partition, peak of the launch (-1: not stated)
  std::int64_t psum_bytes = -1;  // per partition, peak of the launch
  std::string engines;           // engines the variant runs on, e.g. "TensorE, VectorE, DMA"
  double predicted_ns = -1;      // modeled time predicted by the plan (-1: not predicted)
  std::string why;               // the rule that chose the variant (and the override, if one was used)
  std::string print() const;
};
static_assert(Plan<PlanFacts>);

}  // namespace trn
