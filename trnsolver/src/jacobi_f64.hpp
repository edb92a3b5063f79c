// Pieces of the fp64 block Jacobi (Dsyevj: two-sided, syevj.cpp; Dgesvdj: one-sided, gesvdj.cpp) and
// the block-pair ordering shared with the complex Jacobi (heevj.cpp). Not installed.
//
// Algorithm (Van Loan 1985, block Jacobi; cyclic-by-blocks ordering as Hari, 2007): the columns are
// split into blocks of b; per block pair (I, J) the small 2b x 2b subproblem is diagonalised by the
// scalar cyclic Jacobi with the Demmel-Veselic threshold on the host in fp64 (O(b^3) per pair: a
// recorded host step), and its orthogonal U is applied where the flops are, X(:, IJ) U (O(n b^2) per
// pair), by trnblas's Ozaki DGEMM on TensorE with the contraction index balanced by powers of two
// (balanced_dgemm), which keeps the rotation's error relative to the graded scales of the columns.
// Engines: TensorE (the Ozaki integer GEMMs), their host scaling and reconstruction steps, DMA.
// Accuracy and its derivation: docs/trnsolver.md "Dsyevj and Dgesvdj: fp64 block Jacobi".
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "trn/core/trace.hpp"
#include "trn/solver/solver.hpp"

namespace trn::solver::detail {

// The block width b of Dsyevj / Dgesvdj (subproblems of 2b = 64): measured against 8, 16 and 64 in
// docs/trnsolver.md (modeled time: the host subproblems cost O(n^2 b) per sweep, the Ozaki DGEMMs' host
// reconstruction O(n^3 / b); 32 halves 16's time at n = 128 .. 256). TRNSOLVER_JACOBI_F64_BLOCK (read once; 4 .. 128) overrides it for cost
// studies; the bits depend on b.
constexpr std::int64_t kJacobiF64Block = 32;
std::int64_t jacobi_f64_block();

// Inner sweeps of the host subproblem per pair visit (Van Loan's "one sweep" variant: the outer sweeps
// converge as the cyclic scalar method; a full diagonalisation costs ~5x the host flops for ~1 outer
// sweep less, docs/trnsolver.md).
constexpr int kJacobiF64InnerSweeps = 1;

// The pairs (I, J), I < J, of the ceil(n / b) column blocks in cyclic-by-rows order; one pair (0, 0)
// when there is one block.
std::vector<std::pair<std::int64_t, std::int64_t>> jacobi_block_pairs(std::int64_t n, std::int64_t b);
// The column indices of block pair (bi, bj) (bi == bj: that one block) of n columns in blocks of b.
std::vector<std::int64_t> jacobi_pair_columns(std::int64_t n, std::int64_t b, std::int64_t bi, std::int64_t bj);

// Up to `sweeps` cyclic-by-rows sweeps of the scalar Jacobi on the symmetric k x k g (ld k, fp64) with
// the Demmel-Veselic threshold: (p, q) is rotated iff |g_pq| > tol sqrt(|g_pp g_qq|) (Demmel & Veselic,
// SIMAX 13(4), 1992), skip_zero_diagonal: not when g_pp or g_qq is exactly 0 (a Gram matrix: then
// g_pq = 0 by Cauchy-Schwarz). Rotation as Golub & Van Loan Alg. 8.5.2 with Rutishauser's diagonal
// update g_pp -= t g_pq, g_qq += t g_pq; u (k x k, ld k) accumulates u = u J. Stops early after a sweep
// that rotates nothing. Returns whether anything rotated; adds the flops.
bool host_symmetric_jacobi(std::int64_t k, double* g, double* u, double tol, int sweeps, bool skip_zero_diagonal,
                           double& flops);

// out (rows x k, ld rows) = X (rows x k, ld rows) U (k x k, ld k) by trnblas's Ozaki DGEMM, the
// contraction index balanced first: column p of X times 2^-e[p], row p of U times 2^e[p] (exact while
// no element leaves fp64's normal range). trnblas bounds every output's error by
// 2^-50 k max_p |x_ip 2^-e_p| max_p |2^e_p u_pj| + one rounding (docs/trnblas.md, Ozaki), so with
// 2^e_p ~ the scale of column p that error is relative to row i's and output column j's own scales.
// X and U are overwritten by their balanced copies (the callers' scratch). Trace into `trace`.
void balanced_dgemm(const Settings& s, std::int64_t rows, std::int64_t k, double* X, double* U,
                    const std::vector<int>& e, double* out, TraceParts& trace);

// out (rows x k, ld rows) = X U without balancing (the eigen/singular vector updates: V is orthogonal).
void plain_dgemm(const Settings& s, std::int64_t rows, std::int64_t k, const double* X, const double* U, double* out,
                 TraceParts& trace);

// G (k x k, ld k) = X^T X for X (rows x k, ld rows) by trnblas's Ozaki DGEMM (its per-column scaling
// keeps g_pq's error relative to ||x_p|| ||x_q||: the one-sided method's pair cosines).
void gram_dgemm(const Settings& s, std::int64_t rows, std::int64_t k, const double* X, double* G, TraceParts& trace);

// Dsyevj's block Jacobi on one matrix (syevj_f64.cpp): A (n x n, lda) from its uplo triangle; W the
// eigenvalues (ascending when sort), A the eigenvectors when vectors. Host flops added to *flops.
SyevjResult dsyevj_block(const Settings& s, bool vectors, bool lower, std::int64_t n, double* A, std::int64_t lda,
                         double* W, const SyevjParams& p, bool sort, TraceParts& trace, double* flops);

// The host step of one pair visit of Dsyevj / Dgesvdj (its flops and bytes: also the plan's model).
struct PairStepCost {
  double flops = 0, bytes = 0;
};
// The cost of one pair's host subproblem with k columns when every one of its pairs rotates once.
PairStepCost jacobi_pair_step_cost(std::int64_t k);

// The exponent e with 2^e <= x < 2^(e+1) for finite x > 0, else 0 (no balancing of that index).
int scale_exponent(double x);

// The balancing exponents of a two-sided pair rotation (Dsyevj, Zheevj; syevj_f64.cpp step 2):
// e_p = scale_exponent(max(sqrt(d_p), c_p / sqrt(mu))), mu = max(mu_diag, max_p c_p), with d_p = |a_pp|,
// c_p = the largest |a_ip| over the rows i outside the pair, mu_diag = the largest |a_ii| of the matrix.
std::vector<int> two_sided_balance_exponents(double mu_diag, const std::vector<double>& d, const std::vector<double>& c);

}  // namespace trn::solver::detail
