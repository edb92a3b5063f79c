// The MPI start-up shared by the one-rank harnesses over the distributed libraries (fuzz_trnblasmp,
// fuzz_trnsolvermp, fuzz_trnfftmp): each input runs in an MPI singleton (no mpiexec; Open MPI as root
// needs OMPI_ALLOW_RUN_AS_ROOT as in tests/mpi), initialised by the first input and never finalised
// (libFuzzer has no end hook; the process exit tears it down). Also the independent ScaLAPACK NUMROC
// count the block-cyclic harnesses check their library's against.
#pragma once
#include <mpi.h>

#include <algorithm>
#include <cstdint>

namespace trnfuzz {

// MPI_Init once per process (libFuzzer calls the harness many times; MPI_Init may run only once).
inline void ensure_mpi() {
  int up = 0;
  MPI_Initialized(&up);
  if (!up) MPI_Init(nullptr, nullptr);
}

// Elements of an n-long dimension in nb blocks that process p of np owns (first block on 0), counted
// block by block (independent of the libraries' closed-form NUMROC).
inline std::int64_t owned(std::int64_t n, std::int64_t nb, std::int64_t p, std::int64_t np) {
  std::int64_t count = 0;
  for (std::int64_t b = 0, start = 0; start < n; ++b, start += nb)
    if (b % np == p) count += std::min(nb, n - start);
  return count;
}

}  // namespace trnfuzz
