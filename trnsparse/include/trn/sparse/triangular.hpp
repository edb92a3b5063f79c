// trnsparse sparse triangular solves (cuSPARSE SpSV / SpSM): op(A) Y = alpha op(B) for a CSR, CSC
// or COO matrix A of any generic value type, of which only the triangle named by the fill mode is
// used (entries outside it are ignored, as cuSPARSE does), with a unit or non-unit diagonal.
//
// Algorithm   Analysis (host index work, once per matrix pattern): the rows of op(A)'s triangle are
//             gathered into a CSR of entry numbers into A's value array (op T / C re-sorts them by a
//             stable counting sort, so every row lists its entries in increasing A-row order), the
//             diagonal entry of each row is located, and the rows are grouped into dependency levels
//             — level(i) = 1 + max level(j) over the off-diagonal entries (i, j) of the row — the
//             level scheduling of Anderson & Saad ("Solving sparse triangular linear systems on
//             parallel computers", Int. J. High Speed Computing 1(1), 1989) that cuSPARSE's csrsv2
//             uses (Naumov, "Parallel solution of sparse triangular linear systems in the
//             preconditioned iterative methods on the GPU", NVIDIA NVR-2011-001). The levels are the
//             dependent steps of the solve (the plan prints them).
//             Solve, R_32F and C_32F: by default (blocked_preferred) the blocked schedule
//             (src/triangular_blocked.cpp): 128-row blocks in solve order, per block one TensorE update
//             from the solved blocks and as many Jacobi sweeps of its diagonal block as the block has
//             levels (exact: a row is final after the sweep of its in-block level); C_32F as 4M
//             (real and imaginary planes, two real matmuls per block).
//             Solve, R_32F and C_32F with Schedule::level_sets or when the rule prefers them: on the
//             engines (src/triangular_engine.cpp), one tile step per
//             chunk of <= pmax rows of a level: DMA gathers of the solved entries, VectorE products,
//             row sums, subtract and divide in fp32 (its header states the fp32 bound).
//             Solve, R_64F and C_64F: on the engines too (src/triangular_fp64.cpp), per level one
//             segmented slice-pair product r = alpha b - L y (TensorE, exact, one rounding) and the
//             divide by a_ii on the host (one costed host step per level; none for a unit triangle).
// Accuracy    fp64 / complex-fp64 (u = 2^-53; Higham, Accuracy and Stability of Numerical Algorithms,
//             2nd ed., §3.6, §8.2; derivation in triangular_fp64.cpp): the computed y solves
//             (T + dT) y = alpha b exactly in b and the off-diagonal entries, dT diagonal with
//             |dT| <= c u |D| (D = diag(T), I for a unit triangle), c = 3.1 (real) or 7.7 (complex),
//             so with M(T) the comparison matrix (|t_ii| on the diagonal, -|t_ij| off it;
//             |T^-1| <= M(T)^-1 for a triangular T)
//               |y_hat - y| <= c u M(T)^-1 |D| |y_hat|
//             fp32 / complex-fp32: triangular_engine.cpp's gamma_{k+3} M(T)^-1 (|T| |y_hat| + |alpha b|)
//             (complex sqrt(2) gamma_{k+6}); blocked (triangular_blocked.cpp): R_32F gamma_{k+2}, C_32F
//             sqrt(2) gamma_{max(2k+2, 5)} (4M's real sums); k the row's off-diagonal entries.
// Zero pivots A row of a non-unit triangle whose diagonal is not stored (a structural zero) or is
//             0 (a numerical zero) is a zero pivot: first_zero_pivot() finds it before anything is
//             written, and triangular_solve() refuses it (InvalidArgument "matA"); the C API returns
//             TRNSPARSE_STATUS_ZERO_PIVOT with the output untouched.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "trn/sparse/generic.hpp"

namespace trn::sparse {

// The analysis of one triangle of one pattern (values are read at solve time).
struct TriangularAnalysis {
  std::int64_t n = 0;               // op(A) is n x n
  std::int64_t nnz = 0;             // A's stored entries (the values array read at solve time)
  Value value = Value::f32;
  GOp op = GOp::N;
  bool lower_op = true;             // op(A)'s triangle is lower: forward substitution
  bool unit = false;
  std::vector<std::int64_t> start;  // rows of op(A)'s strict triangle: entries start[i] .. start[i+1]
  std::vector<std::int64_t> col;    // column of each entry in op(A)
  std::vector<std::int64_t> src;    // A's entry number of each entry (its value; conjugated for op C)
  std::vector<std::int64_t> diag;   // A's entry number of row i's diagonal, -1 when not stored
  std::vector<std::int64_t> order;  // rows in level order (level, then row)
  std::vector<std::int64_t> level_start;  // level l holds order[level_start[l] .. level_start[l+1])
  std::int64_t max_row = 0;         // most stored entries of a row of the triangle (diagonal included)
  // The blocked schedule of R_32F / C_32F solves (src/triangular_blocked.cpp): rows in solve order cut into
  // blocks of kTriangularBlock; block_levels[b] = the dependency levels of block b's own diagonal
  // block (1 when its strict part is empty). Pattern only, like the levels.
  std::vector<std::int64_t> block_levels;
  std::int64_t block_slots = 0;  // stored 128 x 128 blocks of the strict triangle in solve order
  // Which R_32F / C_32F schedule triangular_solve runs: automatic (blocked_preferred()), or one forced
  // (tests keep the level sets reachable; R_64F / C_64F ignore it).
  enum class Schedule : std::uint8_t { automatic, level_sets, blocked };
  Schedule schedule = Schedule::automatic;
  std::int64_t levels() const { return static_cast<std::int64_t>(level_start.size()) - 1; }
  std::int64_t block_steps() const;  // sum of block_levels: the blocked schedule's dependent steps
};

// Rows per block of the blocked schedule: the partitions of one tile.
inline constexpr std::int64_t kTriangularBlock = 128;

// Validates A (square, index rules of validate(SparseRef)) and builds the analysis of the `lower`
// (else upper) triangle of A, solved as op(A).
TriangularAnalysis analyze_triangular(const SparseRef& A, bool lower, bool unit, GOp op);

// The first row (0-based) of op(A) whose diagonal is a zero pivot for these values, -1 if none
// (always -1 for a unit triangle). `diagonal` (n values, may be NULL) overrides the stored
// diagonal (SpSV_updateMatrix with UPDATE_DIAGONAL).
std::int64_t first_zero_pivot(const TriangularAnalysis& t, const void* values, const void* diagonal);

// C = op(A)^-1 (alpha op(B)), op(B) and C n x ncols (B == C allowed: in place). opB N or T (C for
// complex: conjugate transpose). values: A's nnz values; diagonal as above.
void triangular_solve(const Settings& s, const TriangularAnalysis& t, const void* values, const void* diagonal,
                      Scalar alpha, GOp opB, const DenseAny& B, const DenseAny& C, CallReport* report = nullptr);

// The engine path of triangular_solve (src/triangular_engine.cpp): R_32F and C_32F values run as one
// launch, one tile step per chunk of <= pmax rows of a level (DMA gathers, VectorE arithmetic);
// triangular_solve takes it for those value types after its checks (callers use triangular_solve).
bool triangular_on_engines(Value v);
// The fp64 engine path (src/triangular_fp64.cpp): R_64F and C_64F values, per level one segmented
// slice-pair product and a host divide; triangular_solve takes it for those value types.
bool triangular_fp64_on_engines(Value v);
void triangular_solve_fp64(const Settings& s, const TriangularAnalysis& t, const void* values, const void* diagonal,
                           Scalar alpha, GOp opB, const DenseAny& B, const DenseAny& C, CallReport* report);
// The blocked R_32F / C_32F path (src/triangular_blocked.cpp): 128-row blocks in solve order; per block one
// TensorE update from the solved blocks (dense 128 x 128 stationaries of the stored blocks) and the
// diagonal block by Jacobi sweeps on TensorE / VectorE, as many as its own levels.
// blocked_preferred: what Schedule::automatic picks (fewer modeled dependent steps and the staged
// blocks within a host-memory cap; see the source).
bool blocked_preferred(const TriangularAnalysis& t, std::int64_t ncols);
void triangular_solve_blocked(const Settings& s, const TriangularAnalysis& t, const void* values, const void* diagonal,
                              Scalar alpha, GOp opB, const DenseAny& B, const DenseAny& C, CallReport* report);
void triangular_solve_engines(const Settings& s, const TriangularAnalysis& t, const void* values, const void* diagonal,
                              Scalar alpha, GOp opB, const DenseAny& B, const DenseAny& C, CallReport* report);

// The plans' shape ("n x n triangle nnz=... ncols=... op(A)=... lower non-unit") and level summary
// ("L levels, rows per level mean .. max ..").
std::string triangular_shape(const TriangularAnalysis& t, std::int64_t ncols);
// The plan's operation count of a solve with ncols right-hand sides: 2 (real) or 8 (complex) flops per
// stored entry, diagonal included, per column.
std::string triangular_ops_text(const TriangularAnalysis& t, std::int64_t ncols);
std::string triangular_levels_text(const TriangularAnalysis& t);

// The plan text: format of the analysis, levels, where it runs and why.
std::string triangular_plan(const char* routine, const TriangularAnalysis& t, std::int64_t ncols);

}  // namespace trn::sparse
