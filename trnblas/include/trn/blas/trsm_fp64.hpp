// trnblas fp64 TRSM (Dtrsm, Ztrsm): the plan of the recursive diagonal-block solve.
//
// Algorithm: the triangle E = op(A) (left) or op(A)^T (right) of order d is split recursively in
//            two (the first part a multiple of the leaf, as LAPACK dgetrf2 / dpotrf2 split their
//            panels): solve the half that comes first in solve order, update the other half's
//            right-hand sides Z2 = scale Z2 - E21 Y1 by one Ozaki DGEMM (Ztrsm: the 4M Ozaki ZGEMM)
//            on TensorE, solve the second half. A part of at most `leaf` columns is a leaf: scalar
//            substitution in fp64 on the host side (no NeuronCore engine computes in fp64), one
//            recorded and costed host step (`trnblas.dtrsm.diag_solve` / `trnblas.ztrsm.diag_solve`,
//            w^2 nrhs flops, x4 complex). So the host does O(d 32 nrhs) flops and the d^2 nrhs
//            flops of the off-diagonal products run on TensorE.
// Engines:   TensorE (Ozaki slice products), host steps (Ozaki slicing / reconstruction, the leaves).
// Accuracy:  substitution with blocked sums: |alpha B - op(A) X^| <= gamma_{d+64} (|alpha B| + |op(A)| |X^|)
//            componentwise, u = 2^-53 (docs/trnblas.md "fp64 TRSM: recursive diagonal blocks").
// Limits:    1 <= leaf <= 32; none on d or nrhs beyond dgemm's.
#pragma once
#include <cstdint>
#include <string>

#include "trn/blas/level3.hpp"

namespace trn::blas {

// The leaf chosen by the modeled time on trn1 and trn2 (docs/trnblas.md, table of leaf 8 / 16 / 32).
inline constexpr std::int64_t kFp64TrsmLeaf = 32;
inline constexpr std::int64_t kFp64TrsmMaxLeaf = 32;

struct Fp64TrsmPlan {
  std::int64_t order = 0, nrhs = 0, leaf = kFp64TrsmLeaf;
  bool complex_data = false;
  std::int64_t leaves = 0;  // host substitutions
  std::int64_t updates = 0;  // Ozaki GEMM updates (leaves - 1)
  std::int64_t depth = 0;    // recursion levels above the leaves
  std::string print() const;
};

// The plan of a D (complex_data false) or Z TRSM of order `order` with nrhs right-hand sides.
Fp64TrsmPlan plan_fp64_trsm(std::int64_t order, std::int64_t nrhs, bool complex_data,
                            std::int64_t leaf = kFp64TrsmLeaf);

// dtrsm / ztrsm with the leaf given (1 <= leaf <= 32): for measuring the leaf choice and for tests
// of the recursion's small cases. dtrsm / ztrsm use kFp64TrsmLeaf.
void dtrsm_with_leaf(const Settings& s, std::int64_t leaf, Side side, Uplo uplo, Op trans, Diag diag, std::int64_t m,
                     std::int64_t n, double alpha, const double* A, std::int64_t lda, double* B, std::int64_t ldb,
                     CallReport* report = nullptr);
void ztrsm_with_leaf(const Settings& s, std::int64_t leaf, Side side, Uplo uplo, COp trans, Diag diag, std::int64_t m,
                     std::int64_t n, std::complex<double> alpha, const std::complex<double>* A, std::int64_t lda,
                     std::complex<double>* B, std::int64_t ldb, CallReport* report = nullptr);

}  // namespace trn::blas
