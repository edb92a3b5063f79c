// trnblas C++ API, Level 3 beyond GEMM/SYRK: TRSM, TRMM (cuBLAS's out-of-place form), SYMM, SYR2K,
// SYRKX in real single and double precision; complex GEMM (4M and 3M) in single and double.
// Column-major, BLAS conventions. Every product runs through the GEMM machinery of
// trn/blas/blas.hpp (trn::blas::gemm on TensorE for fp32 data, trn::blas::dgemm's Ozaki scheme for
// fp64 data); TRSM's diagonal blocks are solved by a VectorE
// tile kernel (fp32) or split recursively into Ozaki GEMM updates and host substitution leaves of
// <= 32 columns (fp64: no NeuronCore engine computes in fp64; trn/blas/trsm_fp64.hpp). Semantics,
// accumulation orders and error bounds: docs/trnblas.md "Level 3".
//
// Every function throws trn::Error on invalid arguments (the C API validates first and never
// throws) and follows netlib's corner cases: m == 0 or n == 0 is a no-op, alpha == 0 never reads A
// or B, beta == 0 never reads C, and the triangle of A (or of C) that a routine does not reference
// is never read (or written).
#pragma once
#include <complex>
#include <cstdint>

#include "trn/blas/blas.hpp"

namespace trn::blas {

enum class Side : std::uint8_t { left, right };
enum class Diag : std::uint8_t { non_unit, unit };

// Solves op(A) X = alpha B (left) or X op(A) = alpha B (right) for X, overwriting B (m x n).
// A is triangular (uplo), m x m (left) or n x n (right); diag unit: its diagonal is not read.
// mode selects the TensorE precision of the off-diagonal GEMM updates (GemmMode::fp32 keeps
// the documented bound); not fp64_ozaki (use dtrsm).
// With GemmMode::fp32, at most kTrsmNarrowMaxRhs right-hand sides, order <= kTrsmNarrowMaxOrder and
// Settings::trsm_substitution off, the whole solve is one TensorE kernel with explicit inverses of
// the diagonal blocks (Newton-Schulz) and one refinement step per block: substitution's
// componentwise bound to first order plus a second-order term in cond(T_b) (docs/trnblas.md "TRSM
// with few right-hand sides"). Real and complex (ctrsm).
inline constexpr std::int64_t kTrsmNarrowMaxRhs = 4;
inline constexpr std::int64_t kTrsmNarrowMaxOrder = 1024;
void strsm(const Settings& s, GemmMode mode, Side side, Uplo uplo, Op trans, Diag diag, std::int64_t m,
           std::int64_t n, float alpha, const float* A, std::int64_t lda, float* B, std::int64_t ldb,
           CallReport* report = nullptr);
void dtrsm(const Settings& s, Side side, Uplo uplo, Op trans, Diag diag, std::int64_t m, std::int64_t n, double alpha,
           const double* A, std::int64_t lda, double* B, std::int64_t ldb, CallReport* report = nullptr);

// C = alpha op(A) B (left) or alpha B op(A) (right); A triangular as in trsm, B and C m x n.
// C may be B itself (the in-place form of reference TRMM); otherwise C must not overlap B.
void strmm(const Settings& s, GemmMode mode, Side side, Uplo uplo, Op trans, Diag diag, std::int64_t m,
           std::int64_t n, float alpha, const float* A, std::int64_t lda, const float* B, std::int64_t ldb, float* C,
           std::int64_t ldc, CallReport* report = nullptr);
void dtrmm(const Settings& s, Side side, Uplo uplo, Op trans, Diag diag, std::int64_t m, std::int64_t n, double alpha,
           const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double* C, std::int64_t ldc,
           CallReport* report = nullptr);

// C = alpha A B + beta C (left) or alpha B A + beta C (right); A symmetric, stored in its uplo
// triangle, m x m (left) or n x n (right); B and C m x n.
void ssymm(const Settings& s, GemmMode mode, Side side, Uplo uplo, std::int64_t m, std::int64_t n, float alpha,
           const float* A, std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C, std::int64_t ldc,
           CallReport* report = nullptr);
void dsymm(const Settings& s, Side side, Uplo uplo, std::int64_t m, std::int64_t n, double alpha, const double* A,
           std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C, std::int64_t ldc,
           CallReport* report = nullptr);

// C = alpha (op(A) op(B)^T + op(B) op(A)^T) + beta C on the uplo triangle of C (n x n); op(X) is
// n x k (trans N: X is n x k, ld >= n; trans T: X is k x n). The other triangle is not touched.
void ssyr2k(const Settings& s, GemmMode mode, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, float alpha,
            const float* A, std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C,
            std::int64_t ldc, CallReport* report = nullptr);
void dsyr2k(const Settings& s, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, double alpha, const double* A,
            std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C, std::int64_t ldc,
            CallReport* report = nullptr);

// cuBLAS's SYRKX: C = alpha op(A) op(B)^T + beta C on the uplo triangle (the caller vouches that
// the product is symmetric; only the uplo triangle is computed). Shapes as syr2k.
void ssyrkx(const Settings& s, GemmMode mode, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, float alpha,
            const float* A, std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C,
            std::int64_t ldc, CallReport* report = nullptr);
void dsyrkx(const Settings& s, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, double alpha, const double* A,
            std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C, std::int64_t ldc,
            CallReport* report = nullptr);

}  // namespace trn::blas

// ---- Complex GEMM (complex_gemm.cpp) ------------------------------------------------------------

namespace trn::blas {

// op of a complex operand: N, T (transpose) or C (conjugate transpose).
enum class COp : std::uint8_t { N, T, C };
// 4M: one real GEMM of the real representation (4 real products per complex one, every element one
//     fp32 PSUM accumulation of 2k exact products). 3M (Gauss): three real GEMMs
//     Ar Br, Ai Bi, (Ar + Ai)(Br + Bi) and VectorE sums: 25% fewer TensorE flops, a weaker
//     (normwise, not componentwise) error bound for the imaginary part (docs/trnblas.md).
enum class ComplexAlgo : std::uint8_t { four_m, three_m };

// C = alpha op(A) op(B) + beta C, complex column-major (interleaved re, im; ld in complex
// elements). fp32: TensorE GEMMs in `mode` (not fp64_ozaki) and a VectorE epilogue for complex
// alpha/beta. beta == 0 never reads C; alpha == 0 or k == 0 never reads A or B.
void cgemm(const Settings& s, GemmMode mode, ComplexAlgo algo, COp ta, COp tb, std::int64_t m, std::int64_t n,
           std::int64_t k, std::complex<float> alpha, const std::complex<float>* A, std::int64_t lda,
           const std::complex<float>* B, std::int64_t ldb, std::complex<float> beta, std::complex<float>* C,
           std::int64_t ldc, CallReport* report = nullptr);
// fp64: the real GEMMs through dgemm (Ozaki); 3M's sums and the complex alpha/beta epilogue run in
// fp64 on the host side of the kernel (no NeuronCore engine computes in fp64).
void zgemm(const Settings& s, ComplexAlgo algo, COp ta, COp tb, std::int64_t m, std::int64_t n, std::int64_t k,
           std::complex<double> alpha, const std::complex<double>* A, std::int64_t lda, const std::complex<double>* B,
           std::int64_t ldb, std::complex<double> beta, std::complex<double>* C, std::int64_t ldc,
           CallReport* report = nullptr);

// Complex TRSM / TRMM (level3.cpp): as strsm / strmm with op N, T or C (conjugate transpose).
// The blocked drivers of the real routines with 4M complex GEMMs for the products; ctrsm's diagonal
// blocks on VectorE (real and imaginary planes, docs/trnblas.md), ztrsm's recursive as dtrsm's
// (Ozaki 4M ZGEMM updates, fp64 host leaves of <= 32 columns; trn/blas/trsm_fp64.hpp).
void ctrsm(const Settings& s, GemmMode mode, Side side, Uplo uplo, COp trans, Diag diag, std::int64_t m,
           std::int64_t n, std::complex<float> alpha, const std::complex<float>* A, std::int64_t lda,
           std::complex<float>* B, std::int64_t ldb, CallReport* report = nullptr);
void ztrsm(const Settings& s, Side side, Uplo uplo, COp trans, Diag diag, std::int64_t m, std::int64_t n,
           std::complex<double> alpha, const std::complex<double>* A, std::int64_t lda, std::complex<double>* B,
           std::int64_t ldb, CallReport* report = nullptr);
void ctrmm(const Settings& s, GemmMode mode, Side side, Uplo uplo, COp trans, Diag diag, std::int64_t m,
           std::int64_t n, std::complex<float> alpha, const std::complex<float>* A, std::int64_t lda,
           const std::complex<float>* B, std::int64_t ldb, std::complex<float>* C, std::int64_t ldc,
           CallReport* report = nullptr);
void ztrmm(const Settings& s, Side side, Uplo uplo, COp trans, Diag diag, std::int64_t m, std::int64_t n,
           std::complex<double> alpha, const std::complex<double>* A, std::int64_t lda, const std::complex<double>* B,
           std::int64_t ldb, std::complex<double>* C, std::int64_t ldc, CallReport* report = nullptr);

// C = alpha op(A) op(B) + beta C with int8 A, B and int32 C, alpha, beta: the exact integer result
// modulo 2^32 (cuBLAS's COMPUTE_32I). The products as TensorE GEMMs on the (exact) bf16 images of the
// int8 values, K chunks of <= 1024 so that fp32 PSUM sums are exact; chunk sums and the epilogue in
// 64-bit integers on the host side. beta == 0 never reads C.
void gemm_i8(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, std::int32_t alpha,
             const std::int8_t* A, std::int64_t lda, const std::int8_t* B, std::int64_t ldb, std::int32_t beta,
             std::int32_t* C, std::int64_t ldc, CallReport* report = nullptr);
// The same exact int8 products with int8 C and float alpha, beta (COMPUTE_32I with an 8I C, scale
// type 32F): C = sat8(rne(fl(fl(alpha * fl(acc)) + fl(beta * C)))), acc the exact integer sum rounded
// once to fp32, the conversion as the engines do it (round to nearest even, saturate to
// [-128, 127], NaN -> 0). beta == 0 never reads C.
void gemm_i8_to_i8(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                   const std::int8_t* A, std::int64_t lda, const std::int8_t* B, std::int64_t ldb, float beta,
                   std::int8_t* C, std::int64_t ldc, CallReport* report = nullptr);
// cuBLAS's Uint8gemmBias (u8gemm_bias.cpp; gemmlowp's EightBitIntGemm semantics): C(i, j) =
// clamp_[0,255](((sum_l (op(A)(i,l) + a_bias)(op(B)(l,j) + b_bias) + c_bias) c_mult + r) >> c_shift),
// r = 2^(c_shift - 1) (0 for c_shift 0), 0 <= c_shift <= 31; tc: C stored transposed (C(i, j) at
// C[j + i ldc]). Exact: the products by gemm_i8 on A - 128, B - 128, the rest integer host steps.
void gemm_u8_bias(const Settings& s, Op ta, Op tb, bool tc, std::int64_t m, std::int64_t n, std::int64_t k,
                  const std::uint8_t* A, std::int32_t a_bias, std::int64_t lda, const std::uint8_t* B, std::int32_t b_bias,
                  std::int64_t ldb, std::uint8_t* C, std::int32_t c_bias, std::int64_t ldc, std::int32_t c_mult,
                  std::int32_t c_shift, CallReport* report = nullptr);
// int8 A and B with fp32 C, alpha, beta (COMPUTE_32F with 8I inputs): the bf16 images of the int8
// values (exact) in the native bf16 GEMM; every product is exact, the sum is the GEMM kernel's fp32
// PSUM accumulation (exact while partial sums stay below 2^24, e.g. k <= 1024), then its epilogue.
void gemm_i8_f32(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                 const std::int8_t* A, std::int64_t lda, const std::int8_t* B, std::int64_t ldb, float beta, float* C,
                 std::int64_t ldc, CallReport* report = nullptr);

}  // namespace trn::blas

// ---- GEAM and DGMM (geam.cpp) -------------------------------------------------------------------

namespace trn::blas {

// cuBLAS's GEAM: C = alpha op(A) + beta op(B), all m x n after op (op(X) = X: ld >= m; T/C: X is
// n x m, ld >= n). alpha == 0 never reads A, beta == 0 never reads B (either may then be null).
// In place as cuBLAS allows: C may be A (op N, lda == ldc) or B (op N, ldb == ldc); any other
// overlap is not allowed. fp32: one VectorE kernel; fp64: the same operations on the host side.
void sgeam(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, float alpha, const float* A,
           std::int64_t lda, float beta, const float* B, std::int64_t ldb, float* C, std::int64_t ldc,
           CallReport* report = nullptr);
void dgeam(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, double alpha, const double* A,
           std::int64_t lda, double beta, const double* B, std::int64_t ldb, double* C, std::int64_t ldc,
           CallReport* report = nullptr);
void cgeam(const Settings& s, COp ta, COp tb, std::int64_t m, std::int64_t n, std::complex<float> alpha,
           const std::complex<float>* A, std::int64_t lda, std::complex<float> beta, const std::complex<float>* B,
           std::int64_t ldb, std::complex<float>* C, std::int64_t ldc, CallReport* report = nullptr);
void zgeam(const Settings& s, COp ta, COp tb, std::int64_t m, std::int64_t n, std::complex<double> alpha,
           const std::complex<double>* A, std::int64_t lda, std::complex<double> beta, const std::complex<double>* B,
           std::int64_t ldb, std::complex<double>* C, std::int64_t ldc, CallReport* report = nullptr);

// cuBLAS's DGMM: C = A diag(x) (Side::right, x has n elements) or diag(x) A (Side::left, m
// elements); A, C m x n; x a BLAS vector (incx < 0 walks it backwards, incx == 0 repeats x[0]).
// C may be A with lda == ldc.
void sdgmm(const Settings& s, Side mode, std::int64_t m, std::int64_t n, const float* A, std::int64_t lda,
           const float* x, std::int64_t incx, float* C, std::int64_t ldc, CallReport* report = nullptr);
void ddgmm(const Settings& s, Side mode, std::int64_t m, std::int64_t n, const double* A, std::int64_t lda,
           const double* x, std::int64_t incx, double* C, std::int64_t ldc, CallReport* report = nullptr);
void cdgmm(const Settings& s, Side mode, std::int64_t m, std::int64_t n, const std::complex<float>* A,
           std::int64_t lda, const std::complex<float>* x, std::int64_t incx, std::complex<float>* C,
           std::int64_t ldc, CallReport* report = nullptr);
void zdgmm(const Settings& s, Side mode, std::int64_t m, std::int64_t n, const std::complex<double>* A,
           std::int64_t lda, const std::complex<double>* x, std::int64_t incx, std::complex<double>* C,
           std::int64_t ldc, CallReport* report = nullptr);

}  // namespace trn::blas

// ---- Complex SYRK/HERK family, SYMM/HEMM (complex_level3.cpp) ----------------------------------

namespace trn::blas {

// The uplo triangle of C (n x n) only (the other is neither read nor written); op(X) is n x k
// (trans N: X n x k, ld >= n; else X k x n, ld >= k). Every product is the 4M complex GEMM (cgemm
// in `mode`, not fp64_ozaki; zgemm through Ozaki). beta == 0 never reads C; alpha == 0 or k == 0
// never reads A or B; alpha == 0 (or k == 0) with beta == 1 returns at once.
//   syrk   C = alpha op(A) op(A)^T + beta C                        trans N or T
//   syr2k  C = alpha (op(A) op(B)^T + op(B) op(A)^T) + beta C       trans N or T
//   syrkx  C = alpha op(A) op(B)^T + beta C (cuBLAS: the caller vouches for symmetry)
//   herk   C = alpha op(A) op(A)^H + beta C, alpha and beta real   trans N or C
//   her2k  C = alpha op(A) op(B)^H + conj(alpha) op(B) op(A)^H + beta C, beta real
//   herkx  C = alpha op(A) op(B)^H + beta C, beta real (cuBLAS: the caller vouches for Hermitian)
// herk/her2k/herkx read the diagonal's imaginary parts as zero and write them as zero (BLAS).
void csyrk(const Settings& s, GemmMode mode, Uplo uplo, COp trans, std::int64_t n, std::int64_t k,
           std::complex<float> alpha, const std::complex<float>* A, std::int64_t lda, std::complex<float> beta,
           std::complex<float>* C, std::int64_t ldc, CallReport* report = nullptr);
void zsyrk(const Settings& s, Uplo uplo, COp trans, std::int64_t n, std::int64_t k, std::complex<double> alpha,
           const std::complex<double>* A, std::int64_t lda, std::complex<double> beta, std::complex<double>* C,
           std::int64_t ldc, CallReport* report = nullptr);
void csyr2k(const Settings& s, GemmMode mode, Uplo uplo, COp trans, std::int64_t n, std::int64_t k,
            std::complex<float> alpha, const std::complex<float>* A, std::int64_t lda, const std::complex<float>* B,
            std::int64_t ldb, std::complex<float> beta, std::complex<float>* C, std::int64_t ldc,
            CallReport* report = nullptr);
void zsyr2k(const Settings& s, Uplo uplo, COp trans, std::int64_t n, std::int64_t k, std::complex<double> alpha,
            const std::complex<double>* A, std::int64_t lda, const std::complex<double>* B, std::int64_t ldb,
            std::complex<double> beta, std::complex<double>* C, std::int64_t ldc, CallReport* report = nullptr);
void csyrkx(const Settings& s, GemmMode mode, Uplo uplo, COp trans, std::int64_t n, std::int64_t k,
            std::complex<float> alpha, const std::complex<float>* A, std::int64_t lda, const std::complex<float>* B,
            std::int64_t ldb, std::complex<float> beta, std::complex<float>* C, std::int64_t ldc,
            CallReport* report = nullptr);
void zsyrkx(const Settings& s, Uplo uplo, COp trans, std::int64_t n, std::int64_t k, std::complex<double> alpha,
            const std::complex<double>* A, std::int64_t lda, const std::complex<double>* B, std::int64_t ldb,
            std::complex<double> beta, std::complex<double>* C, std::int64_t ldc, CallReport* report = nullptr);
void cherk(const Settings& s, GemmMode mode, Uplo uplo, COp trans, std::int64_t n, std::int64_t k, float alpha,
           const std::complex<float>* A, std::int64_t lda, float beta, std::complex<float>* C, std::int64_t ldc,
           CallReport* report = nullptr);
void zherk(const Settings& s, Uplo uplo, COp trans, std::int64_t n, std::int64_t k, double alpha,
           const std::complex<double>* A, std::int64_t lda, double beta, std::complex<double>* C, std::int64_t ldc,
           CallReport* report = nullptr);
void cher2k(const Settings& s, GemmMode mode, Uplo uplo, COp trans, std::int64_t n, std::int64_t k,
            std::complex<float> alpha, const std::complex<float>* A, std::int64_t lda, const std::complex<float>* B,
            std::int64_t ldb, float beta, std::complex<float>* C, std::int64_t ldc, CallReport* report = nullptr);
void zher2k(const Settings& s, Uplo uplo, COp trans, std::int64_t n, std::int64_t k, std::complex<double> alpha,
            const std::complex<double>* A, std::int64_t lda, const std::complex<double>* B, std::int64_t ldb,
            double beta, std::complex<double>* C, std::int64_t ldc, CallReport* report = nullptr);
void cherkx(const Settings& s, GemmMode mode, Uplo uplo, COp trans, std::int64_t n, std::int64_t k,
            std::complex<float> alpha, const std::complex<float>* A, std::int64_t lda, const std::complex<float>* B,
            std::int64_t ldb, float beta, std::complex<float>* C, std::int64_t ldc, CallReport* report = nullptr);
void zherkx(const Settings& s, Uplo uplo, COp trans, std::int64_t n, std::int64_t k, std::complex<double> alpha,
            const std::complex<double>* A, std::int64_t lda, const std::complex<double>* B, std::int64_t ldb,
            double beta, std::complex<double>* C, std::int64_t ldc, CallReport* report = nullptr);

// C = alpha A B + beta C (left) or alpha B A + beta C (right); A symmetric (symm) or Hermitian
// (hemm: the diagonal's imaginary parts are not read, taken as zero), stored in its uplo triangle,
// m x m (left) or n x n (right); B, C m x n. The full A is packed on the host (copies and sign-bit
// flips), then one 4M complex GEMM.
void csymm(const Settings& s, GemmMode mode, Side side, Uplo uplo, std::int64_t m, std::int64_t n,
           std::complex<float> alpha, const std::complex<float>* A, std::int64_t lda, const std::complex<float>* B,
           std::int64_t ldb, std::complex<float> beta, std::complex<float>* C, std::int64_t ldc,
           CallReport* report = nullptr);
void zsymm(const Settings& s, Side side, Uplo uplo, std::int64_t m, std::int64_t n, std::complex<double> alpha,
           const std::complex<double>* A, std::int64_t lda, const std::complex<double>* B, std::int64_t ldb,
           std::complex<double> beta, std::complex<double>* C, std::int64_t ldc, CallReport* report = nullptr);
void chemm(const Settings& s, GemmMode mode, Side side, Uplo uplo, std::int64_t m, std::int64_t n,
           std::complex<float> alpha, const std::complex<float>* A, std::int64_t lda, const std::complex<float>* B,
           std::int64_t ldb, std::complex<float> beta, std::complex<float>* C, std::int64_t ldc,
           CallReport* report = nullptr);
void zhemm(const Settings& s, Side side, Uplo uplo, std::int64_t m, std::int64_t n, std::complex<double> alpha,
           const std::complex<double>* A, std::int64_t lda, const std::complex<double>* B, std::int64_t ldb,
           std::complex<double> beta, std::complex<double>* C, std::int64_t ldc, CallReport* report = nullptr);

}  // namespace trn::blas

// ---- Batched LU (lu_batched.cpp) ----------------------------------------------------------------

namespace trn::blas {

// cuBLAS's getrfBatched / getrsBatched / getriBatched over arrays of batch pointers (each matrix
// n x n, column-major, leading dimension lda). T is float or std::complex<float> (the batch on the
// SBUF partitions: one matrix per partition, GpSimd pivot search and row exchanges, VectorE scaling,
// rank-1 updates and substitutions, complex data as (re, im) planes; n <= getrf_batched_max_n),
// double or std::complex<double> (the same operations in fp64 on the host side). Semantics and
// accuracy: docs/trnblas.md "Batched LU".
//   getrf  A[b] = P L U in place (L unit lower, U upper); piv (n per matrix, 1-based as LAPACK's
//          IPIV) may be null: no pivoting. info[b] = 0, or k if U(k, k) is exactly zero (the
//          factorization is completed, as LAPACK's).
//   getrs  solves op(A[b]) X = B[b] (nrhs columns, ldb) in place from getrf's factors and pivots
//          (null: none); trans N, T or C.
//   getri  C[b] = A[b]^-1 from the factors (out of place, ldc); info[b] = k if U(k, k) == 0, and
//          then C[b] is not written.
std::int64_t getrf_batched_max_n(const Settings& s, bool complex);
template <class T>
void getrf_batched(const Settings& s, std::int64_t n, T* const A[], std::int64_t lda, int* piv, int* info,
                   std::int64_t batch, CallReport* report = nullptr);
template <class T>
void getrs_batched(const Settings& s, COp trans, std::int64_t n, std::int64_t nrhs, const T* const A[],
                   std::int64_t lda, const int* piv, T* const B[], std::int64_t ldb, std::int64_t batch,
                   CallReport* report = nullptr);
template <class T>
void getri_batched(const Settings& s, std::int64_t n, const T* const A[], std::int64_t lda, const int* piv,
                   T* const C[], std::int64_t ldc, int* info, std::int64_t batch, CallReport* report = nullptr);

}  // namespace trn::blas

// ---- Batched QR (qr_batched.cpp) ------------------------------------------------------------------

namespace trn::blas {

// cuBLAS's geqrfBatched / gelsBatched over arrays of batch pointers (A m x n, column-major, lda).
// T is float or std::complex<float> (one matrix per SBUF partition, ScalarE norms and VectorE
// reflector arithmetic, complex as (re, im) planes; the sizes must pass qr_batched_fits) or double /
// std::complex<double> (the same operations in fp64 on the host side, a costed host step). Semantics
// and accuracy: docs/trnblas.md "Batched QR".
//   geqrf  A[b] = Q R in place (xGEQR2's reflectors H_k = I - tau_k v_k v_k^H, v_k below the
//          diagonal, tau[b] min(m, n) values).
//   gels   m >= n: A[b] = Q R in place, C[b] := Q^H C[b], then R X = C[b](0:n, :) (X over those rows);
//          info[b] = k if R(k, k) is exactly zero (X then holds the substitution's Inf/NaN).
bool qr_batched_fits(const Settings& s, bool complex, std::int64_t m, std::int64_t n, std::int64_t nrhs);
template <class T>
void geqrf_batched(const Settings& s, std::int64_t m, std::int64_t n, T* const A[], std::int64_t lda, T* const tau[],
                   std::int64_t batch, CallReport* report = nullptr);
template <class T>
void gels_batched(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t nrhs, T* const A[], std::int64_t lda,
                  T* const C[], std::int64_t ldc, int* info, std::int64_t batch, CallReport* report = nullptr);

}  // namespace trn::blas
