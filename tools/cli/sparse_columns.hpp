// Issue #28's two extra columns of the sparse `trnsci bench` rows (SpMV, SpMM, SpSV/SpSM, SpGEMM):
//  - native: Eigen's sparse module (libeigen3-dev, a bench/CLI reference only, never linked by a
//    library) timed on the same CSR arrays the row's trnsparse call ran on (an Eigen::Map, no
//    copy): the `native x` column, host time / Eigen's.
//  - dense crossover: the density at which the dense TensorE path of the same operation (trnblas
//    GEMM / TRSM, fp32 or Ozaki fp64, modeled) is as fast as trnsparse's (modeled), found by
//    running the row's sparse routine at other densities of the same random pattern family: the
//    sparse path is the faster choice below it. Every value type: the complex dense paths are
//    cgemm / zgemm (4M: one real GEMM of 2M x N x 2K) and ctrsm / ztrsm. docs/cli.md "bench", docs/trnsparse.md "Bench: Eigen and the dense crossover".
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "registry.hpp"
#include "trn/sparse/generic.hpp"

namespace trnsci::cli {

// A CSR matrix's arrays as the sparse suites hold them (int32 indices, base 0, values of `value`).
struct CsrArrays {
  std::int64_t rows = 0, cols = 0, nnz = 0;
  const std::int32_t* offsets = nullptr;
  const std::int32_t* columns = nullptr;
  const void* values = nullptr;
  trn::sparse::Value value = trn::sparse::Value::f32;
};

// CSR SpGEMM's accuracy bound for an output entry of k products (SpGEMM and SpGEMMreuse on the
// engines; suite_sparse_generic.cpp) and the path label of its rows.
long double spgemm_bound(trn::sparse::Value v, std::int64_t k, long double mag, long double exact);
const char* spgemm_path(trn::sparse::Value v);

// Eigen's best-of-3 host seconds for the row's operation on the same operands:
// Y = alpha A X + beta Y (X n x m dense; m = 1: SpMV), the lower-triangular solve L Y = alpha B
// (m right-hand sides), and the sparse product A B (Eigen's conservative sparse x sparse product).
double eigen_spmm_seconds(const CsrArrays& a, std::int64_t m);
double eigen_spsv_seconds(const CsrArrays& lower, std::int64_t m);
double eigen_spgemm_seconds(const CsrArrays& a, const CsrArrays& b);
// The conversions' rows: CSR -> CSC (a column-major SparseMatrix assigned from the row-major map),
// and a column-major dense rows x cols (leading dimension ld) -> CSR (sparseView of its nonzeros).
double eigen_csr2csc_seconds(const CsrArrays& a);
double eigen_dense2sparse_seconds(trn::sparse::Value v, std::int64_t rows, std::int64_t cols, std::int64_t ld, const void* dense);
// CSR -> a column-major dense rows x cols (Eigen's toDense of the map; the SparseToDense rows).
double eigen_sparse2dense_seconds(const CsrArrays& a);
// The per-row (by_rows) or per-column nonzero counts of a column-major dense matrix (the nnz rows).
double eigen_nnz_seconds(trn::sparse::Value v, std::int64_t rows, std::int64_t cols, std::int64_t ld, const void* dense, bool by_rows);

// The dense TensorE path's modeled time (ns) on `target`: GEMM M x N x K (fp32: trnblas gemm in
// GemmMode::fp32, fp64: Ozaki dgemm; complex: the 4M real GEMM 2M x N x 2K of cgemm / zgemm; all
// predicted timing-only) or the left lower TRSM of an n x n matrix with m right-hand sides (strsm fp32 /
// dtrsm / ctrsm fp32 / ztrsm, run timing-only).
double dense_gemm_ns(trn::Generation target, trn::sparse::Value v, std::int64_t M, std::int64_t N, std::int64_t K);
double dense_trsm_ns(trn::Generation target, trn::sparse::Value v, std::int64_t n, std::int64_t m);

// The density d in [lo, hi] where sparse_ns(d) = dense_ns, starting from the row's own density d0
// and its modeled time t0 (sparse_ns is increasing in d): doubling / halving brackets it, then a
// bisection on log d to 5% ("3.1e-05"). Outside the range: "> hi" (the sparse path is faster at
// every density tried) or "< lo". Sets b.crossover_density (NaN outside), b.crossover_text,
// b.dense_ns and b.dense_name.
void set_crossover(BenchResult& b, const std::string& dense_name, double dense_ns, double d0, double t0, double lo,
                   double hi, const std::function<double(double)>& sparse_ns);

// The dense GEMM path of a sparse product as the crossover column names it ("sgemm fp32 MxNxK",
// "dgemm Ozaki", "cgemm 4M fp32", "zgemm 4M Ozaki"), and set_crossover against its dense_gemm_ns: the
// one definition every product row's column uses (SpMV: N = 1).
std::string dense_gemm_name(trn::sparse::Value v, std::int64_t M, std::int64_t N, std::int64_t K);
void set_gemm_crossover(BenchResult& b, trn::Generation target, trn::sparse::Value v, std::int64_t M, std::int64_t N,
                        std::int64_t K, double d0, double t0, double lo, double hi,
                        const std::function<double(double)>& sparse_ns);

// ---- the s10/spgaps rows (op T / C, SpGEMMreuse, strided batches; s11/spconv) ----------------------
// Eigen with op(A) / op(B): Y = alpha op(A) op(X) + beta Y (op(X) n x m; X stored m x n for T / C),
// and op(L) Y = alpha B (L lower: op T / C an upper solve). ops: 0 N, 1 T, 2 C (the C API's numbers).
double eigen_spmm_op_seconds(const CsrArrays& a, std::int64_t m, int opA, int opB);
double eigen_spsv_op_seconds(const CsrArrays& lower, std::int64_t m, int op);
// SDDMM C = alpha (A B) o spy(C) + beta C on the stored entries of a CSR pattern (n x n; A n x k, B
// k x n dense): Eigen has no SDDMM, so one Eigen dense dot product (cwiseProduct().sum()) per
// stored entry, the loop a host program would write around Eigen.
double eigen_sddmm_seconds(const CsrArrays& pattern, std::int64_t k);
// The modeled ns of suite_sparse_generic.cpp's timing-only run of one sparse routine on an n x n
// random pattern at `density` (the crossover sweep of the rows above): product op(A) op(B) with m
// columns (m = 1, opB N: SpMV), the lower triangular solve op(L) with m right-hand sides (opA), or
// the CSR SpGEMM n^3 (numeric + values).
enum class SparseSweep { product, triangular, spgemm };
double sparse_sweep_ns(SparseSweep kind, std::int64_t n, std::int64_t m, double density, trn::sparse::Value v,
                       trn::Generation target, trn::sparse::GOp opA, trn::sparse::GOp opB);

}  // namespace trnsci::cli
