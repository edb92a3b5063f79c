// `mpirun -n P trnsci validate` / `bench` (issue #31, docs/scale-out.md "Validate across ranks"): the MPI side
// of the CLI. Without MPI at build time (TRNSCI_CLI_MPI undefined) every function is the 1-rank
// answer. Cases are dealt round robin (case i on rank i mod P); rank 0 gathers every result, in case
// order, and prints the one table -- the same as a 1-rank run except host times. The cases of the
// suite "mp" (the distributed libraries) are collective: every rank runs them together and rank 0's
// result is reported.
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "registry.hpp"

namespace trnsci::cli::mp {

// Whether an MPI launcher started this process (Open MPI's, PMI's or PMIx's environment).
bool launched();
// Initialises MPI once when `want` and MPI was built in; rank() / size() of MPI_COMM_WORLD after
// (0 / 1 otherwise). finish() finalises what start() initialised.
void start(bool want);
bool active();
int rank();
int size();
void finish();
// start(want) on construction, finish() at scope exit.
struct Session {
  explicit Session(bool want) { start(want); }
  ~Session() { finish(); }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};
// Every rank's (case index, packed result) pairs, on rank 0 (other ranks: empty).
std::vector<std::pair<std::size_t, std::string>> gather(const std::vector<std::pair<std::size_t, std::string>>& mine);
// Rank 0's value on every rank.
int broadcast(int value);

// A CaseResult as bytes and back (every field; NaN travels as its bits).
std::string pack(const CaseResult& r);
CaseResult unpack(const std::string& bytes);
// A bench row's result as bytes and back (`mpirun trnsci bench`: rows dealt like validate's cases).
std::string pack(const BenchResult& r);
BenchResult unpack_bench(const std::string& bytes);

}  // namespace trnsci::cli::mp
