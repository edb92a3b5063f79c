// trnsolver C++ API: dense symmetric eigensolvers (Jacobi) as tile kernels on the emulated
// NeuronCore, cuSOLVER-Dn shaped. Column-major storage, LAPACK conventions. The C API
// (trnsolver.h) is a thin shim over this header. Algorithms, accuracy bounds and what runs where:
// docs/trnsolver.md.
//
//   ssyevj  fp32: parallel (round-robin) two-sided Jacobi; the whole matrix resides in SBUF, each
//           step's n/2 disjoint rotations are applied as column rotations on VectorE, the
//           two-sided update uses symmetry (A' = (A J P)^T J P) with TensorE transposes, the 2x2
//           angles are computed on VectorE/ScalarE from diagonals broadcast by a TensorE matmul.
//   dsyevj  fp64: block Jacobi (blocks of 32) with the Demmel-Veselic relative threshold: each block
//           pair's 64 x 64 subproblem on the host (O(b^3)), its rotation applied by balanced Ozaki
//           DGEMMs on TensorE (O(n b^2) per pair); CallReport::host_fp64_flops counts the host work.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "trn/blas/blas.hpp"
#include "trn/core/core.hpp"

namespace trn::solver {

using trn::blas::Uplo;

// Emulator settings (the handle's state in the C API): target, numerics, SR, cores (a batch is
// spread over them), threads; and the explicit override of the QR plan's panel width (trnsci
// extension, trnsolverDnSetQrBlockSize; 0: the plan's rule, see qr_panel_width in qr.hpp).
struct Settings : EmulatorSettings {
  std::int64_t qr_block_size = 0;
};

// The fp32 Jacobi kernels ssyevj chooses from (docs/trnsolver.md "Block Jacobi", "Packed kernel").
enum class SyevjKernel : std::uint8_t {
  automatic,  // the plan's rule (plan_ssyevj)
  rows,       // rows on partitions, up to syevj_lockstep_width(n) matrices per program in lockstep
  packed,     // n <= 32: a matrix per partition and slot, many matrices per instruction
  block,      // n > 32: two-sided block Jacobi (128-column blocks, TensorE block rotations)
};
const char* syevj_kernel_name(SyevjKernel k);

// syevjInfo_t: tolerance (0 = machine epsilon of the working type), maximum sweeps, sorting; and
// the explicit overrides of the plan's kernel choice (trnsci extension; the environment variables
// TRNSOLVER_SYEVJ_BLOCK_MIN_N and TRNSOLVER_SYEVJ_TENSOR_TRANSPOSE feed the same plan).
struct SyevjParams {
  double tolerance = 0.0;
  int max_sweeps = 100;
  bool sort_eig = true;
  SyevjKernel kernel = SyevjKernel::automatic;  // not automatic: this kernel (must apply to n)
  bool tensor_transpose = false;  // rows kernel: transposes by TensorE matmul instead of nc_transpose
};

// A Jacobi plan's prediction (predict_ssyevj): the launch run timing-only with one and with two
// sweeps per matrix; predicted_ns = predicted_for(the estimated sweeps). Every matrix of a batch is
// taken to run the same sweeps. -1: not predicted.
struct SyevjPrediction {
  double first_sweep_ns = -1, sweep_ns = -1, predicted_ns = -1;
  int sweeps_estimated = 0;
  std::string sweeps_rule;
  double predicted_for(int sweeps) const { return first_sweep_ns + (sweeps - 1) * sweep_ns; }
};

// What ssyevj / ssyevj_batched run for an n x n problem (trn::Plan): the kernel and why, the
// matrices per program, and (after the launch) the SBUF/PSUM peaks per partition. The prediction
// (the SyevjPrediction fields) is filled by predict_ssyevj, or -- the calls' plans -- computed when
// the plan is first printed (`lazy`, trn::Lazy: a call whose plan is never printed pays nothing).
struct SyevjPlan : SyevjPrediction {
  SyevjKernel kernel = SyevjKernel::rows;
  std::int64_t n = 0, batch = 1;
  bool vectors = true;
  bool tensor_transpose = false;     // rows kernel: transposes on TensorE by matmul with I
  std::int64_t per_program = 0;      // matrices per program (rows, packed; 0: not yet known)
  std::int64_t programs = 0;
  std::int64_t sbuf_bytes = -1, psum_bytes = -1;  // launch peaks (-1: not launched yet)
  std::string why;
  bool sort = true;     // eigenvalues sorted (the single-matrix call always; batched: SyevjParams::sort_eig)
  int max_sweeps = 100;
  trn::Lazy<SyevjPrediction> lazy;
  // The prediction: the fields when predict_ssyevj filled them, else the lazy one (computed now).
  const SyevjPrediction& prediction() const;
  std::string print() const;
};
// The plan's rule: p.kernel when set (UsageError if it does not apply to n); otherwise block Jacobi
// for n > 32 and n >= the block threshold (single matrix kSyevjBlockMinN = 144, batched 33; the
// environment variable TRNSOLVER_SYEVJ_BLOCK_MIN_N overrides it), the packed kernel for batched
// n <= 32, the rows kernel otherwise.
SyevjPlan plan_ssyevj(const Settings& s, std::int64_t n, std::int64_t batch, bool vectors, bool batched,
                      const SyevjParams& p);
// Fills the plan's prediction: the launch(es) run timing-only with one and with two sweeps per
// matrix -- rows and packed kernels: their launch; block: the whole block Jacobi (every round's
// packed subproblem launch with one inner sweep, the congruence products, the sums), outer sweeps.
// The sweeps are estimated by ssyevj_sweep_estimate (block: ssyevj_block_sweep_estimate), capped
// at max_sweeps.
void predict_ssyevj(const Settings& s, SyevjPlan& plan);
// The same as a value (what the lazy prediction of a call's plan computes).
SyevjPrediction ssyevj_prediction(const Settings& s, const SyevjPlan& plan);
// dsyevj / dsyevj_batched's plan (trn::Plan): the fp64 block Jacobi (pair subproblems on the host,
// rotations as Ozaki DGEMMs on TensorE; docs/trnsolver.md), and its predicted modeled time: per matrix
// the prepare and finish host steps, `rotation_sweeps` sweeps in which every block pair rotates (its
// host step with every pair of the subproblem rotated once, trnblas's predicted DGEMMs of the other rows
// and of the eigenvectors) and one confirming sweep of pair steps without rotations. Pairs below the
// threshold are skipped, so the count is data dependent: dsyevj_rotation_sweeps(n) is measured on
// random symmetric matrices at the default tolerance (docs/cost-model.md section 9). Computed when
// printed (trn::LazyNs).
struct DsyevjPlan {
  std::int64_t n = 0, batch = 1;
  bool vectors = true;
  int max_sweeps = 100;
  double rotation_sweeps = 0;  // rotating outer sweeps assumed (estimate, capped at max_sweeps)
  trn::LazyNs predicted_ns;
  std::string print() const;
};
DsyevjPlan plan_dsyevj(const Settings& s, std::int64_t n, std::int64_t batch, bool vectors, const SyevjParams& p);
// The host flops of `sweeps` sweeps of one matrix's pair subproblems (every pair of every subproblem
// rotated once, plus the balancing).
double dsyevj_sweep_flops(std::int64_t n, bool vectors, double sweeps);
// Rotating outer sweeps a random symmetric fp64 matrix of order n takes to the default tolerance
// (the block Jacobi's sweeps less the confirming one): round(4 + 0.66 log2(n)) (measured in
// tests/trnsolver/test_trnsolver_predict.cpp).
double dsyevj_rotation_sweeps(std::int64_t n);
// The plan's modeled time with `rotation_sweeps` rotating sweeps per matrix.
double predict_dsyevj_ns(const Settings& s, const DsyevjPlan& plan, double rotation_sweeps);

// The sweeps a random symmetric fp32 matrix of order n typically takes to the default tolerance
// (docs/cost-model.md section 9: measured over random matrices).
int ssyevj_sweep_estimate(std::int64_t n);
// The same for the block Jacobi's outer sweeps (SyevjKernel::block; measured, docs/cost-model.md
// section 9).
int ssyevj_block_sweep_estimate(std::int64_t n);

// A blocked factorisation's plan (potrf, getrf; trn::Plan): panel width, panel kernels, the
// trailing update's trnblas mode, and where the fp64 variants' panels run.
struct FactorPlan {
  std::string routine;               // "spotrf", "dgetrf", ...
  std::int64_t m = 0, n = 0, nb = 0; // panel width nb = pmax of the target
  std::int64_t panels = 0;
  std::int64_t transposed_from = -1; // sgetrf: first panel column j0 factored by the transposed kernel (-1: none)
  bool host_panels = false;          // fp64: panels on the host CPU (no engine computes in fp64)
  blas::GemmMode update_mode = blas::GemmMode::fp32;
  // Modeled time predicted from the plan alone (-1: not predicted), computed when first asked for
  // (print(); trn::LazyNs: a C call's profile-only report never computes it).
  trn::LazyNs predicted_ns;
  std::string why;
  bool transposed(std::int64_t j0) const { return transposed_from >= 0 && j0 >= transposed_from; }
  std::string print() const;
};
FactorPlan plan_potrf(const Settings& s, std::int64_t n, bool fp64);
// spotrf's predicted modeled time (FactorPlan::predicted_ns; docs/cost-model.md section 8): per panel
// the diagonal-block kernel run timing-only (placeholder addresses, no data), the staging copy, the
// TRSM GEMM and the SYRK by trnblas's predictors, summed in the driver's order, every pivot taken
// positive (a failing pivot ends the factorisation early).
double predict_spotrf_ns(const Settings& s, const FactorPlan& plan, bool lower);
FactorPlan plan_getrf(const Settings& s, std::int64_t m, std::int64_t n, blas::GemmMode update_mode, bool fp64);
// dpotrf's / dgetrf's predicted modeled time (docs/cost-model.md section 9): the driver replayed on a
// synthetic matrix of the plan's shape (dgetrf: uniform [-1, 1) entries, the typical
// partial-pivoting path; without pivoting and for dpotrf: diagonally dominant), its report's
// modeled time (data that asks the Ozaki products for more moduli, or interchanges fewer rows,
// costs otherwise). sgetrf's: per panel its panel
// kernel run timing-only on the typical path (each column interchanges with a row half way down
// the rows below it), STRSM and the trailing GEMM by trnblas's predictors.
double predict_dpotrf_ns(const Settings& s, const FactorPlan& plan);
double predict_dgetrf_ns(const Settings& s, const FactorPlan& plan, bool pivot);
double predict_sgetrf_ns(const Settings& s, const FactorPlan& plan, bool pivot);

// What one matrix's Jacobi run did.
struct SyevjResult {
  int info = 0;           // 0 converged; n + 1 not converged (or non-finite input)
  int sweeps = 0;         // sweeps executed
  double residual = 0.0;  // off(A)_F = ||A_final - diag(A_final)||_F at exit (absolute)
};

// What a call did: the one trn::Report (modeled profile, merged trace, the printed plan) and the
// fp64 work done on the host.
struct CallReport : Report {
  double host_fp64_flops = 0.0;  // floating-point work done on the host CPU in fp64 (dsyevj)
};

// Largest n the SBUF-resident fp32 kernel accepts (A, its rotated copy and two eigenvector
// buffers, fp32, must fit one partition's SBUF on trn1).
inline constexpr std::int64_t kSyevjMaxN = 1024;

// A = V diag(W) V^T for the `uplo` triangle of the n x n matrix A (lda >= n); only that triangle is
// read. With vectors, A is overwritten by V (column j pairs with W[j]); without, A is untouched.
// W ascending (always for the single-matrix call). Throws trn::Error on invalid arguments.
SyevjResult ssyevj(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, float* A, std::int64_t lda, float* W,
                   const SyevjParams& p, CallReport* report = nullptr);
SyevjResult dsyevj(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, double* A, std::int64_t lda, double* W,
                   const SyevjParams& p, CallReport* report = nullptr);

// batch matrices A_k(i, j) = A[i + lda j + lda n k], W_k(j) = W[j + n k]; one result per matrix.
// p.sort_eig = false leaves the eigenvalues in the order the sweeps leave them.
std::vector<SyevjResult> ssyevj_batched(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, float* A,
                                        std::int64_t lda, float* W, const SyevjParams& p, std::int64_t batch,
                                        CallReport* report = nullptr);
std::vector<SyevjResult> dsyevj_batched(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, double* A,
                                        std::int64_t lda, double* W, const SyevjParams& p, std::int64_t batch,
                                        CallReport* report = nullptr);

// The convergence threshold actually used by ssyevj: off(A)_F <= max(tol, floor(n)) ||A||_F with
// floor(n) = 4 sqrt(n) u32 (a cyclic fp32 Jacobi's off-norm stagnates near sqrt(n) u; see
// docs/trnsolver.md "Stopping test").
double ssyevj_effective_tolerance(std::int64_t n, double tol);

}  // namespace trn::solver

namespace trn::solver {

// Cholesky A = L L^T (uplo lower) or A = U^T U (upper) of the n x n symmetric positive definite
// matrix, in place on the uplo triangle (the other triangle is neither read nor written).
// Blocked right-looking, block nb = pmax: each panel (diagonal block and the rows below it) is
// factored by one tile kernel on Vector/Scalar/GpSimd engines with TensorE row broadcasts (the
// panel's triangular solve is part of that column loop), the trailing matrix is updated by trnblas
// SYRK (fp32 mode, TensorE). Returns info: 0, or j > 0 when the leading minor of order j is not
// positive definite (the factorization stops there, as LAPACK xPOTRF).
int spotrf(const Settings& s, Uplo uplo, std::int64_t n, float* A, std::int64_t lda, CallReport* report = nullptr);

}  // namespace trn::solver

namespace trn::solver {

// Solves A X = B with the Cholesky factor from spotrf (uplo as there); B is n x nrhs (ldb >= n),
// overwritten by X. Two triangular solves, each one tile kernel (column-oriented substitution on
// Vector/Scalar engines with TensorE row broadcasts).
void spotrs(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t nrhs, const float* A, std::int64_t lda, float* B,
            std::int64_t ldb, CallReport* report = nullptr);

}  // namespace trn::solver

namespace trn::solver {

// fp64 Cholesky: panels of 128 columns factored recursively (LAPACK dpotrf2's order) with Ozaki
// DSYRK/DGEMM updates on TensorE; a 32-column leaf (LAPACK xPOTF2, O(n 32^2)) is the only host step. Trailing updates by Ozaki DSYRK. info as spotrf (docs/trnsolver.md "Dpotrf").
int dpotrf(const Settings& s, Uplo uplo, std::int64_t n, double* A, std::int64_t lda, CallReport* report = nullptr);
// fp64 solve with dpotrf's factor: two trnblas DTRSMs (Ozaki DGEMM block updates, 128-row diagonal
// blocks by fp64 substitution: trnblas's host step, 128^2 nrhs flops per block).
void dpotrs(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t nrhs, const double* A, std::int64_t lda,
            double* B, std::int64_t ldb, CallReport* report = nullptr);

}  // namespace trn::solver

namespace trn::solver {

// LU with partial pivoting P A = L U of the m x n matrix (column-major, lda >= m), in place; ipiv
// (min(m, n) entries, 1-based as LAPACK) or nullptr for no pivoting. Blocked right-looking, nb =
// pmax: panel tile kernel (pivot search, row swaps, elimination on Vector/Scalar/GpSimd, TensorE
// broadcasts; the host reads the pivot index and value as scalars), U12 by the triangular-solve
// kernel, A22 -= L21 U12 by trnblas GEMM (fp32, TensorE). Returns info: 0, or i > 0 when U(i, i)
// is exactly zero (the factorization is completed, as LAPACK xGETRF).
int sgetrf(const Settings& s, std::int64_t m, std::int64_t n, float* A, std::int64_t lda, int* ipiv,
           CallReport* report = nullptr);
// Solves op(A) X = B with sgetrf's factors (trans: false = N, true = T); B n x nrhs.
void sgetrs(const Settings& s, bool trans, std::int64_t n, std::int64_t nrhs, const float* A, std::int64_t lda,
            const int* ipiv, float* B, std::int64_t ldb, CallReport* report = nullptr);

}  // namespace trn::solver

namespace trn::solver {

// fp64 LU with partial pivoting (LAPACK dgetrf's pivots): panels of 128 columns factored
// recursively (dgetrf2's order) with Ozaki DGEMM updates on TensorE and row interchanges as DMA; a
// 32-column leaf (LAPACK xGETF2, O(m 32^2)) is the only host step. U12 by dgetrf_u12, the
// trailing updates A22 -= L21 U12 by Ozaki DGEMM. Semantics as sgetrf (docs/trnsolver.md "Dgetrf").
int dgetrf(const Settings& s, std::int64_t m, std::int64_t n, double* A, std::int64_t lda, int* ipiv,
           CallReport* report = nullptr);
// dgetrf's U12 = L11^-1 A12 (L11 w x w unit lower, ld ldl; A12 w x cols, ld ldb): recursive halving,
// Ozaki DGEMM updates, 16-row diagonal blocks by trnblas DTRSM. Each column's result depends on that
// column only (trnsolverMp's Getrf calls it on its own columns for dgetrf's bits).
void dgetrf_u12(const Settings& s, std::int64_t w, std::int64_t cols, const double* L, std::int64_t ldl, double* B,
                std::int64_t ldb, CallReport* report = nullptr);
// fp64 solve with dgetrf's factors: the interchanges as DMA, L and U by trnblas DTRSM (Ozaki DGEMM
// block updates, 128-row diagonal blocks by fp64 substitution: trnblas's host step).
void dgetrs(const Settings& s, bool trans, std::int64_t n, std::int64_t nrhs, const double* A, std::int64_t lda,
            const int* ipiv, double* B, std::int64_t ldb, CallReport* report = nullptr);

// Mixed-precision iterative refinement (cuSOLVER's <D><low>gesv): LU by sgetrf with the trailing
// updates in `lu_mode` (fp32, fp16, bf16 or tf32 inputs on TensorE, fp32 PSUM; panels fp32), then
// classical refinement: r = B - A X by trnblas Ozaki DGEMM on TensorE (fp64-accurate), correction
// solved with the low-precision factors, X += correction on the host in fp64. Stops when every
// column satisfies ||r||_inf <= sqrt(n) ||x||_inf ||A||_inf eps64 (cuSOLVER's test, BWDMAX = 1).
// iter: iterations when converged; < 0 when the fallback (dgetrf + dgetrs in fp64) produced X:
// -2 A overflows fp32, -3 the low-precision LU found an exact zero pivot, -50 no convergence
// within max_iter. Returns info (0, or i > 0 when the fp64 fallback finds U(i, i) = 0). A is left
// unchanged unless the fallback ran (then it holds the fp64 LU factors); ipiv holds the pivots of
// the factorization that produced X.
int dxgesv(const Settings& s, trn::blas::GemmMode lu_mode, std::int64_t n, std::int64_t nrhs, double* A,
           std::int64_t lda, int* ipiv, const double* B, std::int64_t ldb, double* X, std::int64_t ldx, int* iter,
           int max_iter = 50, CallReport* report = nullptr);

}  // namespace trn::solver

namespace trn::solver {

// gesvdjInfo_t: tolerance (0 = machine epsilon of the working type), maximum sweeps, sorting
// (the batched call only: gesvdj always sorts, as cuSOLVER).
struct GesvdjParams {
  double tolerance = 0.0;
  int max_sweeps = 100;
  bool sort_svd = true;
};

// What one matrix's one-sided Jacobi run did.
struct GesvdjResult {
  int info = 0;           // 0 converged; min(m, n) + 1 not converged (or non-finite input)
  int sweeps = 0;         // sweeps executed
  double residual = 0.0;  // max over column pairs of |a_p^T a_q| / (||a_p|| ||a_q||) in the last sweep
};

// Largest m and n of the SBUF-resident fp32 kernel (the column pairs of A, their rotated copy and
// two V buffers, fp32, fit one partition's SBUF on trn1).
inline constexpr std::int64_t kGesvdjMaxDim = 1024;

// A = U diag(S) V^T of the m x n column-major matrix A (lda >= m) by one-sided Jacobi
// (Hestenes; Demmel & Veselic 1992; Drmac & Veselic 2008) on the tall orientation (A, or A^T when
// m < n): column pairs in the round-robin order are rotated until every pair is orthogonal to the
// tolerance; S = the column norms (descending), U = the normalised columns, V = the accumulated
// rotations. vectors: U (m x m, or m x min(m, n) when econ; ldu >= m) and V (n x n, or
// n x min(m, n); ldv >= n) are written. Columns of U for singular values <= max(m, n) u ||A||_2
// and the columns beyond min(m, n) (full mode) are completed to an orthonormal basis by a second
// Jacobi run on I - U1 U1^T. A is left unchanged (cuSOLVER allows it to be destroyed). fp32: tile
// kernel on TensorE (partition sums, broadcasts) / VectorE / ScalarE / GpSimdE, max(m, n) <=
// kGesvdjMaxDim; fp64: the same algorithm on the host CPU in fp64 (host_fp64_flops; empty profile).
GesvdjResult sgesvdj(const Settings& s, bool vectors, bool econ, std::int64_t m, std::int64_t n, float* A,
                     std::int64_t lda, float* S, float* U, std::int64_t ldu, float* V, std::int64_t ldv,
                     const GesvdjParams& p, CallReport* report = nullptr);
GesvdjResult dgesvdj(const Settings& s, bool vectors, bool econ, std::int64_t m, std::int64_t n, double* A,
                     std::int64_t lda, double* S, double* U, std::int64_t ldu, double* V, std::int64_t ldv,
                     const GesvdjParams& p, CallReport* report = nullptr);
// batch matrices (cuSOLVER's gesvdjBatched layout, full U and V): A_k = A + lda n k, S_k = S +
// min(m, n) k, U_k = U + ldu m k, V_k = V + ldv n k. p.sort_svd = false leaves the singular
// values in the order the sweeps leave them.
std::vector<GesvdjResult> sgesvdj_batched(const Settings& s, bool vectors, std::int64_t m, std::int64_t n, float* A,
                                          std::int64_t lda, float* S, float* U, std::int64_t ldu, float* V,
                                          std::int64_t ldv, const GesvdjParams& p, std::int64_t batch,
                                          CallReport* report = nullptr);
std::vector<GesvdjResult> dgesvdj_batched(const Settings& s, bool vectors, std::int64_t m, std::int64_t n, double* A,
                                          std::int64_t lda, double* S, double* U, std::int64_t ldu, double* V,
                                          std::int64_t ldv, const GesvdjParams& p, std::int64_t batch,
                                          CallReport* report = nullptr);

// The pair-orthogonality threshold actually used for `rows` x ... columns: max(tol, 4 sqrt(rows) u)
// (u of the type): a length-`rows` dot product in that precision is not more accurate than
// ~sqrt(rows) u relative to ||a_p|| ||a_q||, so a smaller threshold could never be met.
double sgesvdj_effective_tolerance(std::int64_t rows, double tol);
double dgesvdj_effective_tolerance(std::int64_t rows, double tol);

}  // namespace trn::solver

namespace trn::solver {

// Generalized symmetric-definite eigenproblem (cuSOLVER sygvj, LAPACK xSYGV's reduction):
// itype 1: A x = lambda B x; 2: A B x = lambda x; 3: B A x = lambda x. B = L L^T (uplo lower; B =
// U^T U, L = U^T, upper) by s/dpotrf; C = L^-1 A L^-T (itype 1) or L^T A L (2, 3); syevj(C) = Y
// diag(W) Y^T; X = L^-T Y (1, 2) or L Y (3), so that X^T B X = I (1, 2) or X^T B^-1 X = I (3).
// Only the uplo triangles of A and B are read. On success with vectors A holds X; B's uplo
// triangle holds the Cholesky factor (as cuSOLVER). info: 0; n + 1 when the Jacobi sweeps did not
// converge (or A holds NaN / Inf); n + i when the leading minor of order i of B is not positive
// definite (then nothing is written). fp32: spotrf, the triangular-solve tile kernel / trnblas GEMM
// and the ssyevj kernel; fp64: dpotrf (Ozaki DSYRK), the triangular solves on the host CPU,
// trnblas Ozaki DGEMM, dsyevj (host).
SyevjResult ssygvj(const Settings& s, int itype, bool vectors, Uplo uplo, std::int64_t n, float* A, std::int64_t lda,
                   float* B, std::int64_t ldb, float* W, const SyevjParams& p, CallReport* report = nullptr);
SyevjResult dsygvj(const Settings& s, int itype, bool vectors, Uplo uplo, std::int64_t n, double* A, std::int64_t lda,
                   double* B, std::int64_t ldb, double* W, const SyevjParams& p, CallReport* report = nullptr);

}  // namespace trn::solver

namespace trn::solver {

// Refinement solvers of cuSOLVER's IRS expert API (cusolverIRSRefinement_t).
enum class IrsRefinement : std::uint8_t {
  none,             // the low-precision LU solve only (no refinement)
  classical,        // x += M^-1 (b - A x), M = the low-precision LU (Wilkinson; Moler 1967)
  classical_gmres,  // outer classical refinement; each correction solved by GMRES on M^-1 A d = M^-1 r
                    // to the inner tolerance (GMRES-IR, Carson & Higham, SISC 40(2), 2018)
  gmres,            // the same loop with the inner GMRES run to the outer tolerance (restarted GMRES
                    // preconditioned by M; each restart recomputes the residual in the I/O precision)
  gmres_nopcond,    // as gmres without the preconditioner (plain restarted GMRES on A d = r)
};

// Precision of the LU factorization: the trailing updates' TensorE input format (fp32, tf32, fp16,
// bf16; fp32 PSUM, panels fp32), or fp64 (dgetrf: Ozaki DGEMM updates, host panels; only for fp64 I/O).
struct IrsOptions {
  blas::GemmMode lu_mode = blas::GemmMode::fp32;
  bool lu_fp64 = false;  // factor in the I/O precision (double, complex<double> I/O: D/Z main = lowest)
  IrsRefinement refinement = IrsRefinement::classical;
  int max_iters = 50;        // total iterations (outer + inner), cuSOLVER's MaxIters
  int max_iters_inner = 50;  // GMRES iterations per outer step (cuSOLVER's MaxItersInner)
  double tol = 0.0;          // stop when ||r||_inf <= tol ||A||_inf ||x||_inf per column; 0: sqrt(n) eps
  double tol_inner = 1e-4;   // classical_gmres: relative reduction of the preconditioned residual
  bool fallback = true;      // on failure solve in the I/O precision (getrf + getrs)
  bool pivoting = true;      // false: LU without pivoting (HPL-MxP's diagonally dominant matrices)
};

struct IrsResult {
  int info = 0;          // 0, or i > 0: U(i, i) = 0 in the I/O-precision fallback
  int niters = 0;        // total iterations (outer + inner) if converged; < 0 see irs_gesv
  int outer_niters = 0;  // outer refinement steps
  // After every residual evaluation: (niters so far, max over columns of ||b - A x||_inf).
  std::vector<std::pair<int, double>> residual_history;
};

// Mixed-precision iterative refinement solve of A X = B (n x n, nrhs columns) in the I/O precision
// T (double or float): A rounded to fp32 (overflow: code -2) and factored by LU with partial
// pivoting in the lowest precision (sgetrf with the trailing updates in o.lu_mode; exact zero pivot:
// -3), then refinement o.refinement with the residual b - A x in the I/O precision on TensorE
// (double: trnblas Ozaki DGEMM; float: trnblas GEMM fp32 mode), corrections from the low-precision
// factors (the triangular-solve tile kernels) and, for the GMRES solvers, Arnoldi (modified
// Gram-Schmidt, Givens rotations) on the host in T. A column has converged when ||r||_inf <=
// tol ||A||_inf ||x||_inf; classical refinement then applies one more correction (the forward error
// reaches getrs's level; docs/trnsolver.md). niters < 0: X did not come from the refinement:
// -2, -3 as above, -max_iters no convergence; with o.fallback X is then the I/O-precision solution
// (getrf + getrs) and A holds its LU factors, else X is the last iterate and A is unchanged.
// ipiv (n entries, may be null) receives the pivots of the factorization that produced X. The
// GMRES solvers take nrhs == 1 (as cuSOLVER; throws otherwise).
template <class T>
IrsResult irs_gesv(const Settings& s, const IrsOptions& o, std::int64_t n, std::int64_t nrhs, T* A, std::int64_t lda,
                   int* ipiv, const T* B, std::int64_t ldb, T* X, std::int64_t ldx, CallReport* report = nullptr);
// irs_gesv's complex instantiations (T std::complex<float>, std::complex<double>: cuSOLVER's CC, CK,
// CE, CY, ZZ, ZC, ZK, ZE, ZY gesv) factor by the complex LU (complex_factor.hpp) with the 4M trailing
// updates in o.lu_mode (C/K/E/Y: fp32, fp16, bf16, tf32 inputs) or, lu_fp64, zgetrf; classical
// refinement only (no GMRES).
//
// Mixed-precision least squares (cuSOLVER's <t1><t2>gels, IRSXgels): min ||B - A X||_2 per column,
// A m x n with m >= n and full rank. A rounded to the lowest precision (code -2 on overflow) and
// factored by Householder QR (geqrf, block reflectors in o.lu_mode on TensorE; lu_fp64: in T),
// x0 = R^-1 (Q^H b)(0:n), then classical refinement by the corrected semi-normal equations
// d = (R^H R)^-1 A^H (b - A x) with r and A^H r in the I/O precision on TensorE (Bjorck 1987): the
// fixed point is the least-squares solution for any residual size. Stops when the residual test of
// irs_gesv passes (consistent systems; then one more correction) or a step is small,
// ||d||_inf <= tol ||x||_inf per column (tol 0: sqrt(n) eps). niters and the fallback as irs_gesv:
// -3 an exactly zero R(i, i) of the low-precision QR; the fallback is geqrf + Q^H B + R^-1 in T
// (A holds its factors; info = i > 0 when R(i, i) = 0, then X is untouched). GMRES solvers throw.
template <class T>
IrsResult irs_gels(const Settings& s, const IrsOptions& o, std::int64_t m, std::int64_t n, std::int64_t nrhs, T* A,
                   std::int64_t lda, const T* B, std::int64_t ldb, T* X, std::int64_t ldx, CallReport* report = nullptr);

// fp32 I/O counterpart of dxgesv (cuSOLVER's SHgesv, SBgesv, SXgesv): classical refinement with the
// residual in fp32 (trnblas GEMM, fp32 mode, TensorE); fallback sgetrf + sgetrs.
int sxgesv(const Settings& s, trn::blas::GemmMode lu_mode, std::int64_t n, std::int64_t nrhs, float* A,
           std::int64_t lda, int* ipiv, const float* B, std::int64_t ldb, float* X, std::int64_t ldx, int* iter,
           int max_iter = 50, CallReport* report = nullptr);

}  // namespace trn::solver
