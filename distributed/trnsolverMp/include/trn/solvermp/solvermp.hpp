// trnsolverMp C++ API: distributed Cholesky on ScaLAPACK's 2-D block-cyclic layout (cuSOLVERMp's
// cusolverMpPotrf / cusolverMpPotrs shape), one MPI rank = one emulated Trainium device
// (docs/scale-out.md section 6). Grids and descriptors are trnblasMp's.
//
// potrf (lower): a right-looking block Cholesky over A's diagonal blocks (square blocks, mb = nb),
// on a workspace copy of the rank's block (the upper triangle of A is neither read nor written):
//   owner of block (i, i): trnsolver's spotrf / dpotrf on the diagonal block; its info is broadcast
//   to every rank (a non-positive-definite minor stops every rank at the same step);
//   process column of block column i: L_ii broadcast down it, the panel below solved with
//   trnblas's TRSM (right side, L_ii^T);
//   the panel broadcast along process rows (my rows of L(:, i)) and, transposed, gathered along
//   process columns (L(j, i) for my columns j); every rank updates its trailing block with one
//   trnblas GEMM (the whole trailing local block: up to twice the lower triangle's flops).
// upper: A^T redistributed, the lower factorisation, U = L^T redistributed back.
// potrs: two trnblasMp TRSMs with the factor (L then L^T; U^T then U).
//
// Determinism: every element's operations are fixed by the block size (the diagonal blocks and their
// order, trnblas's order inside each kernel), never by the grid: the same bits on any grid
// (tests/mpi checks 1 x 2 and 2 x 2 against 1 x 1).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "trn/blasmp/level3mp.hpp"

namespace trn::solvermp {

using blasmp::Descriptor;

// Real types (fp32: fp32-mode updates; fp64: Ozaki updates).
struct PotrfArgs : blasmp::Scalars, blasmp::Workspace {
  blas::Uplo uplo = blas::Uplo::lower;
  std::int64_t n = 0;
  void* a = nullptr;
  const Descriptor* desc_a = nullptr;
};
std::string potrf_mismatch(const PotrfArgs& args);
std::size_t potrf_workspace_bytes(const PotrfArgs& args);
// Returns info: 0, or j > 0 when the leading minor of order j is not positive definite (every rank
// returns the same j; the factorization stopped there, A's triangle partly overwritten).
int potrf(const blas::Settings& s, const PotrfArgs& args, blas::CallReport* report = nullptr);

struct PotrsArgs : blasmp::Scalars, blasmp::SolveOperands, blasmp::Workspace {
  blas::Uplo uplo = blas::Uplo::lower;
  std::int64_t n = 0, nrhs = 0;
};
std::string potrs_mismatch(const PotrsArgs& args);
std::size_t potrs_workspace_bytes(const PotrsArgs& args);
void potrs(const blas::Settings& s, const PotrsArgs& args, blas::CallReport* report = nullptr);

}  // namespace trn::solvermp
