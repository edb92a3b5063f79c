// Internals shared by the syevj drivers and kernels (not installed).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "trn/solver/solver.hpp"

namespace trn::solver::detail {

// One fp32 matrix for syevj_f32_kernel. a: column-major input (read: the uplo triangle), and the
// eigenvector output when vectors; w: n eigenvalues.
struct JacobiProblemF32 {
  float* a = nullptr;
  std::int64_t lda = 0;
  float* w = nullptr;
  std::int64_t n = 0;
  bool vectors = true;
  bool lower = true;
  bool sort = true;
  double tolerance = 0.0;
  int max_sweeps = 100;
  SyevjResult* result = nullptr;
};

// Runs the problems (all of the same n) in lockstep: every instruction of a step is issued for
// each matrix before the next, so that their dependency chains overlap; each matrix's instructions
// and bits are those of a run alone. At most syevj_lockstep_width(n) problems per program.
void syevj_f32_kernel(NeuronCore& nc, std::span<const JacobiProblemF32> problems);
std::int64_t syevj_lockstep_width(std::int64_t n);

// ssyevj for n <= kSyevjPackedMaxN: `count` matrices of one program, a matrix per partition and
// slot (syevj_f32_packed_kernel, syevj_packed_f32.cpp). Matrix l of the program: a + l n lda
// (column-major, lda), w + l n, result[l].
inline constexpr std::int64_t kSyevjPackedMaxN = 32;
// matrix_stride (0: n lda) separates the matrices when they are not stored back to back (the
// block Jacobi reads the diagonal blocks of one matrix); v_out, if set, receives matrix l's
// eigenvectors (n x n column-major, leading dimension n) at v_out + l n n, and `a` is only read.
struct PackedJacobiProblemF32 : JacobiProblemF32 {
  std::int64_t count = 1;
  std::int64_t matrix_stride = 0;
  float* v_out = nullptr;
};

// Matrices of order n one program of the packed kernel holds (pmax x the slots SBUF fits).
std::int64_t packed_capacity(const HardwareSpec& hw, std::int64_t n, bool vectors);
void syevj_f32_packed_kernel(NeuronCore& nc, const PackedJacobiProblemF32& p);

// ssyevj for one matrix by two-sided block Jacobi (syevj_block_f32.cpp): n >= kSyevjBlockMinN,
// where its modeled device time is below the rows kernel's (measured, docs/trnsolver.md "Block
// Jacobi": trn1 n = 129 13.8 vs 13.0 ms, 136 13.7 vs 13.8, 144 14.1 vs 14.9, 160 15.9 vs 19.7).
// TRNSOLVER_SYEVJ_BLOCK_MIN_N overrides it (tests and cost studies; never below 33).
inline constexpr std::int64_t kSyevjBlockMinN = 144;
// SsyevjBatched: from this n on (measured, docs/trnsolver.md "Block Jacobi").
inline constexpr std::int64_t kSyevjBatchedBlockMinN = kSyevjBlockMinN;
SyevjResult ssyevj_block(const Settings& s, bool vectors, bool lower, std::int64_t n, float* A, std::int64_t lda,
                         float* W, const SyevjParams& p, CallReport* report);
// The same for `batch` matrices (matrix k at A + k n lda, W + k n; p.sort_eig honoured), swept in
// lockstep groups; each matrix's bits are those of its single-matrix call.
std::vector<SyevjResult> ssyevj_block_batched(const Settings& s, bool vectors, bool lower, std::int64_t n, float* A,
                                              std::int64_t lda, float* W, const SyevjParams& p, std::int64_t batch,
                                              CallReport* report);

// sgetrf with the trailing updates A22 -= L21 U12 in `mode` (fp32 for sgetrf; fp16, bf16, tf32 for
// the mixed-precision refinement solvers; fp32 PSUM, panels fp32).
int sgetrf_mode(const Settings& s, blas::GemmMode mode, std::int64_t m, std::int64_t n, float* A, std::int64_t lda,
                int* ipiv, CallReport* report);

}  // namespace trn::solver::detail
