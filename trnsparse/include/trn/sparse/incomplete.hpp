// trnsparse incomplete factorizations with zero fill-in (cuSPARSE's legacy csric02 / csrilu02):
// IC(0), A ~ L L^H on the lower triangle of a Hermitian / symmetric positive definite CSR matrix,
// and ILU(0), A ~ L U (L unit lower, U upper) on its whole pattern, both in place in A's values
// array, for every generic value type (fp32, fp64, complex-fp32, complex-fp64).
//
// Algorithm   Analysis (host index work, once per pattern): the CSR pattern is validated (offsets
//             monotone, columns in range and strictly increasing in each row: cuSPARSE's "sorted"
//             arrays), the diagonal entry of each row is located — the first row without one is the
//             structural zero — and the rows are grouped into the dependency levels of the lower
//             triangle (row i waits for every row k < i with a stored (i, k)): the level scheduling
//             of Anderson & Saad (Int. J. High Speed Computing 1(1), 1989) that cuSPARSE's
//             csrilu02 / csric02 analysis builds (Naumov, NVIDIA NVR-2011-001), shared with the
//             triangular solves (trn/sparse/triangular.hpp). The levels are the dependent steps a
//             device schedule takes; the plan prints them.
//             Factorization: ONE costed host step per call (trn/core/host_step.hpp,
//             "trnsparse.csric02.host" / "trnsparse.csrilu02.host"): the values and the pattern
//             cross the host link, a host thread runs the row-oriented IKJ elimination of Saad
//             (Iterative Methods for Sparse Linear Systems, 2nd ed., Algorithm 10.4) restricted to
//             the pattern (ILU(0)), or its left-looking Cholesky counterpart
//                 l_ik = (a_ik - sum_{j<k} l_ij conj(l_kj)) / l_kk,  l_ii = sqrt(a_ii - sum_{k<i} |l_ik|^2)
//             (IC(0), the sums over the pattern's common columns), in fp64 (complex<double>), and
//             the values cross back rounded once to the storage type. The row order is a
//             topological order of the levels, so the result is the level-scheduled one, bit for
//             bit, whatever the policy (IC(0) runs its rows level by level, ILU(0) in row order:
//             each row reads only finished rows, so both orders give the same bits; the faster one
//             on the host, src/incomplete.cpp). IC(0) leaves the strict upper triangle untouched.
//             Why the host: every row is a short gather-and-reduce over earlier rows with data-
//             dependent columns and a division by an earlier pivot — no fp64 engine and no gather
//             DMA on the emulated core (the same reason as SpSV, docs/trnsparse.md).
// Accuracy    Each computed factor entry is an inner product of at most k terms (k = most stored
//             entries of a row) followed by one division (or a square root), in fp64: the computed
//             factors are the exact IC(0) / ILU(0) factors of A + dA with
//               |dA| <= gamma_{k+1} |L_hat| |U_hat|    (ILU(0); IC(0): |L_hat| |L_hat^H|)
//             on the pattern (Higham, Accuracy and Stability, 2nd ed., Thm 9.3 applied row by row:
//             the incomplete factorization is the complete one of the pattern-restricted
//             products), gamma_k = k u / (1 - k u), u = 2^-53; complex values sqrt(2) gamma_{k+4}.
//             fp32 and complex-fp32 outputs add the final rounding u32 |L_hat|, |U_hat| (u32 = 2^-24).
// Zero pivots A missing diagonal (structural zero: reported by the analysis and by the factorization)
//             or a numerical zero stops the factorization at that row, the first in row order:
//             ILU(0) u_ii == 0 after the optional boost (numericBoost: |u_ii| <= tol -> u_ii = boost,
//             as cuSPARSE's csrilu02_numericBoost), IC(0) a pivot a_ii - sum |l_ik|^2 whose real part
//             is not > 0 (A not positive definite on the pattern: the square root would be 0 or NaN;
//             bsric02's documented meaning of a numerical zero). Then NOTHING is written: A's values
//             stay as they were, no Inf / NaN is produced, and the row is returned (the C API's
//             zeroPivot query reports it in A's index base, the call itself succeeds as cuSPARSE's).
#pragma once
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "trn/sparse/generic.hpp"
#include "trn/sparse/triangular.hpp"

namespace trn::sparse {

enum class Incomplete : std::uint8_t { ic0, ilu0 };

// The analysis of one m x m CSR pattern (values are read by the factorization).
struct IncompleteAnalysis {
  Incomplete kind = Incomplete::ilu0;
  std::int64_t n = 0, nnz = 0;
  std::vector<std::int64_t> start;  // base-0 row offsets (n + 1)
  std::vector<std::int64_t> col;    // base-0 columns (nnz), increasing in each row
  TriangularAnalysis lower;         // diagonal positions and the levels of the lower triangle
  std::int64_t structural_zero = -1;  // first row (0-based) without a stored diagonal, -1 if none
  bool use_level = true;              // the solve policy asked for (the result does not depend on it)
  std::int64_t levels() const { return lower.levels(); }
  // The factorization's working memory, sized here once per pattern as cuSPARSE's pBuffer (its
  // bufferSize / analysis / factorization split), so a factorization allocates and first-touches
  // nothing: the fp64 copy of the values (real or complex by the analyzed type, nnz of them). One
  // factorization at a time per analysis, as cuSPARSE's info and buffer; never part of the result.
  mutable std::vector<double> work_real;
  mutable std::vector<std::complex<double>> work_complex;
};

// Validates the pattern (throws InvalidArgument naming "offsets", "columns", "nnz", "values") and
// builds its analysis. row_ptr[m + 1], col_ind[nnz] (int32, `base`); values: A's nnz values (only
// checked for NULL when nnz > 0).
IncompleteAnalysis analyze_incomplete(Incomplete kind, std::int64_t m, std::int64_t nnz, const std::int32_t* row_ptr,
                                      const std::int32_t* col_ind, const void* values, Value value, IndexBase base,
                                      bool use_level);

// csrilu02_numericBoost: when enabled, a pivot with |u_ii| <= tol is replaced by `value` (ILU(0) only).
struct PivotBoost {
  bool enabled = false;
  double tol = 0;
  Scalar value{};
};

// Factors `values` (A's nnz values of type `value`, the analyzed pattern) in place. Returns the first
// zero pivot row (0-based, values untouched) or -1 (values hold the factors).
std::int64_t incomplete_factor(const Settings& s, const IncompleteAnalysis& a, Value value, void* values,
                               const PivotBoost& boost, CallReport* report = nullptr);

// The plan text: pattern, levels, where it runs and why.
std::string incomplete_plan(const IncompleteAnalysis& a, Value value);

}  // namespace trn::sparse
