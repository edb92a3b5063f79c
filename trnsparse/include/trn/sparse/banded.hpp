// trnsparse banded solvers (cuSPARSE gtsv2, gtsv2_nopivot, gtsv2StridedBatch, gtsvInterleavedBatch,
// gpsvInterleavedBatch): batches of tridiagonal (p = q = 1) or pentadiagonal (p = q = 2) systems
// A x = b of size m, one right-hand side per system, in every generic value type.
//
// Layout     A system's band k (k = 0 .. p + q, band k holds A(i, i + k - p)) is read at
//            band[k][i * elem_stride + s * sys_stride] for system s and row i; the right-hand side
//            and solution at x[i * x_elem_stride + s * x_sys_stride]. Entries outside the matrix
//            (dl[0], du[m-1], ds[0..1], dw[m-2..m-1]) are never read, as cuSPARSE documents them
//            to be zero. gtsv2 is m x n right-hand sides of ONE matrix (sys_stride 0, x_sys_stride
//            ldb); StridedBatch: strides (1, batchStride); interleaved: strides (batchCount, 1).
// Algorithms (the `algo` numbers of gtsvInterleavedBatch; gpsvInterleavedBatch knows only 0 = QR):
//   no_pivot   Gaussian elimination without pivoting, the Thomas algorithm for p = q = 1 (Conte &
//              de Boor, Elementary Numerical Analysis, 1980, §7.4): gtsv2_nopivot,
//              gtsv2StridedBatch (cuSPARSE: cyclic reduction without pivoting) and interleaved algo 0;
//   lu_pivot   LU with partial (row) pivoting on the band, fill-in to upper bandwidth p + q, as LAPACK
//              xGTSV / xGBSV: gtsv2 (cuSPARSE: CR + PCR with the diagonal pivoting of Erway, Marcia
//              & Tyson 2011 / Chang et al., SC12 — a different pivoting rule, also backward stable)
//              and interleaved algo 1;
//   qr_givens  QR by Givens rotations (complex: c real, s complex), R of upper bandwidth p + q, then
//              back substitution: interleaved algo 2 and gpsvInterleavedBatch algo 0 (cuSPARSE
//              documents QR for both).
// Where it runs: no_pivot (p = q = 1) on VectorE for R_32F (banded_engine.cpp: the Thomas recurrences
//            as scans, one system per partition; bound 3 gamma_7 u32 normwise for diagonally dominant
//            A) and batched C_32F (GpSimdE fp32 lanes, the formulas of s13's VectorE row steps;
//            3 sqrt(2) gamma_43 u32). Everything else on GpSimdE
//            (banded.cpp, s14/banded): one system per lane, custom operators running fp64
//            (complex<double>) arithmetic for every value type, fp32 included, in software (IEEE
//            binary64: computed with host double, the bits of the former costed host step
//            trnsparse.gtsv.host / gpsv.host), results rounded once to the storage type; declared
//            cycles from trn/tile/gpsimd_fp64.hpp (docs/trnsparse.md "On GpSimdE").
// Accuracy   (u = 2^-53; Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed.):
//            no_pivot: (A + dA) x_hat = b, |dA| <= f(u) |L_hat| |U_hat|, f(u) = 4u + 3u^2 + u^3
//            (§9.6, tridiagonal; banded: gamma_{p+q+2} in place of f(u), §9.5); for A diagonally
//            dominant, symmetric positive definite or an M-matrix |L||U| <= 3|A| (§9.6).
//            lu_pivot: the same with the permuted factors, growth factor <= 2 for tridiagonal
//            (§9.4, Bothe 1975). qr_givens: normwise backward stable, ||dA||_F <= gamma~_{cm}
//            ||A||_F (§19.6, Givens rotations).
//            fp32 / complex-fp32 storage adds the final rounding u32 |x| (u32 = 2^-24).
// Singular systems: an exactly zero pivot (U(i,i) or R(i,i) == 0) in any system: nothing is
//            written and banded_solve throws ZeroPivot (the C API returns TRNSPARSE_STATUS_ZERO_PIVOT;
//            cuSPARSE leaves the output unspecified).
#pragma once
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "trn/sparse/generic.hpp"

namespace trn::sparse {

enum class BandedAlgo : std::uint8_t { no_pivot, lu_pivot, qr_givens };

struct BandedSystems {
  Value value = Value::f32;
  int half = 1;                        // p = q: 1 tridiagonal, 2 pentadiagonal
  std::int64_t m = 0, count = 0;       // system size, number of systems
  std::array<const void*, 5> band{};   // bands 0 .. 2 half (ds, dl, d, du, dw order)
  std::int64_t elem_stride = 1, sys_stride = 0;
  void* x = nullptr;                   // right-hand sides in, solutions out
  std::int64_t x_elem_stride = 1, x_sys_stride = 0;
};

// Thrown when a system has an exactly zero pivot; `system` is its number, `row` the pivot's row.
struct ZeroPivot : std::runtime_error {
  std::int64_t system, row;
  ZeroPivot(std::int64_t s, std::int64_t r)
      : std::runtime_error("banded solve: zero pivot in system " + std::to_string(s) + ", row " + std::to_string(r)),
        system(s),
        row(r) {}
};

// Solves every system (m >= 1, count >= 0); deterministic (systems are independent, each solved
// in one fixed order). `routine` names the plan ("gtsv2", "gpsvInterleavedBatch", ...).
void banded_solve(const Settings& s, const char* routine, BandedAlgo algo, const BandedSystems& b,
                  CallReport* report = nullptr);

// The tridiagonal solve without pivoting in fp32 arithmetic (banded_engine.cpp, one system per
// partition) for R_32F (the Thomas recurrences as VectorE scans) and for batched C_32F (one GpSimdE
// fp32 operator per chunk; `batched`: a matrix per system — gtsv2_nopivot's one matrix with n
// right-hand sides keeps the fp64 arithmetic of the former host step); everything else runs on
// GpSimdE in software fp64 (banded.cpp).
bool banded_on_engines(Value v, BandedAlgo algo, int half, bool batched);
void banded_solve_engines(const Settings& s, const char* routine, const BandedSystems& b, CallReport* report);

// The plan of a GpSimdE call (trn1 geometry, no predicted time).
std::string banded_plan(const char* routine, BandedAlgo algo, const BandedSystems& b);

}  // namespace trn::sparse
