// trnblas C++ API, BLAS Levels 1 and 2 (S, D, C, Z). The C API (trnblas.h, "Level 1" and
// "Level 2" sections) is a thin shim over this header. Semantics, engines, accumulation orders and
// accuracy bounds: docs/trnblas.md, "Levels 1 and 2".
//
// Vectors follow the reference BLAS: n elements, increment inc; for inc > 0 element i is
// x[i * inc], for inc < 0 it is x[(n - 1 - i) * |inc|] (the vector is walked backwards). n <= 0 is
// a quick return (no element is read or written; reductions return 0, i?amax returns 0).
// inc == 0 repeats one element; for a written vector (axpy, swap, rot, rotm) the reference BLAS's
// element-by-element loop defines the result, and the routines follow it (one element at a time).
//
// Where the arithmetic happens:
//   float (S)   level 1: VectorE tile kernels (elementwise ops, reductions over the free axis, then
//               across partitions by 32 x 32 VectorE transposes and one more free-axis reduction);
//               level 2: TensorE matmuls with one moving column through the GEMM kernel (gemv,
//               ger, symv, trmv) and the column-substitution kernel below (trsv), all fp32.
//   double (D)  no NeuronCore engine computes in fp64. Products and reductions (dot, asum, nrm2,
//               gemv, symv, trmv and trsv's off-diagonal updates) are the fp64 slice pairs
//               (every 8-bit slice pair of x and op(A) in one exact TensorE GEMM per 256-deep
//               chunk, an exact fold on the host side: |error| <= 2.02 u |x^T y| at any
//               condition; Settings::fp64_vector, Fp64VectorPlan). Pure elementwise fp64
//               operations (axpy, scal, copy, swap, rot; the rank-1 updates ger, syr, spr), i?amax /
//               i?amin (comparisons only) and trsv's diagonal-block substitution run on the host
//               side of the library; their CallReport has no instructions (the profile shows it).
#pragma once
#include <complex>
#include <cstdint>
#include <span>

#include "trn/blas/blas.hpp"

namespace trn::blas {

// ---- Level 1 ----------------------------------------------------------------------------------
// y = alpha x + y
void axpy(const Settings& s, std::int64_t n, float alpha, const float* x, std::int64_t incx, float* y,
          std::int64_t incy, CallReport* report = nullptr);
void axpy(const Settings& s, std::int64_t n, double alpha, const double* x, std::int64_t incx, double* y,
          std::int64_t incy, CallReport* report = nullptr);
// x = alpha x (alpha == 0 still multiplies: NaN * 0 stays NaN, as the reference BLAS)
void scal(const Settings& s, std::int64_t n, float alpha, float* x, std::int64_t incx, CallReport* report = nullptr);
void scal(const Settings& s, std::int64_t n, double alpha, double* x, std::int64_t incx, CallReport* report = nullptr);
// y = x
void copy(const Settings& s, std::int64_t n, const float* x, std::int64_t incx, float* y, std::int64_t incy,
          CallReport* report = nullptr);
void copy(const Settings& s, std::int64_t n, const double* x, std::int64_t incx, double* y, std::int64_t incy,
          CallReport* report = nullptr);
// dst = src for each contiguous fp32 segment, in one program: each segment (up to 2048 elements at a
// time) is one DMA into an SBUF partition row and one out (contiguous descriptors, rotating over the
// partitions so that consecutive segments overlap); the packed <-> full triangle conversions.
struct CopySegment {
  const float* src;
  float* dst;
  std::int64_t length;
};
void copy_segments(const Settings& s, std::span<const CopySegment> segments, CallReport* report = nullptr);
// x <-> y
void swap(const Settings& s, std::int64_t n, float* x, std::int64_t incx, float* y, std::int64_t incy,
          CallReport* report = nullptr);
void swap(const Settings& s, std::int64_t n, double* x, std::int64_t incx, double* y, std::int64_t incy,
          CallReport* report = nullptr);
// (x, y) = (c x + s y, c y - s x)
void rot(const Settings& s, std::int64_t n, float* x, std::int64_t incx, float* y, std::int64_t incy, float c,
         float sn, CallReport* report = nullptr);
void rot(const Settings& s, std::int64_t n, double* x, std::int64_t incx, double* y, std::int64_t incy, double c,
         double sn, CallReport* report = nullptr);
// sum x_i y_i
float dot(const Settings& s, std::int64_t n, const float* x, std::int64_t incx, const float* y, std::int64_t incy,
          CallReport* report = nullptr);
double dot(const Settings& s, std::int64_t n, const double* x, std::int64_t incx, const double* y,
           std::int64_t incy, CallReport* report = nullptr);
// The reference BLAS's extended-precision dots of float vectors (not in cuBLAS; for the BLAS ABI):
// dsdot = sum x_i y_i and sdsdot = float(sb + sum x_i y_i), the sum in fp64. The float values are
// widened (exactly) and the sum is the Ozaki DGEMM 1 x 1 x n (sdsdot: 1 x 1 x (n + 1), sb times 1
// its first term), so the fp64 result is at least as accurate as netlib's double loop; sdsdot rounds
// it once to float. n <= 0: 0 (dsdot), float(sb) (sdsdot). Negative increments as the reference BLAS.
double dsdot(const Settings& s, std::int64_t n, const float* x, std::int64_t incx, const float* y, std::int64_t incy,
             CallReport* report = nullptr);
float sdsdot(const Settings& s, std::int64_t n, float sb, const float* x, std::int64_t incx, const float* y,
             std::int64_t incy, CallReport* report = nullptr);
// sum |x_i|
float asum(const Settings& s, std::int64_t n, const float* x, std::int64_t incx, CallReport* report = nullptr);
double asum(const Settings& s, std::int64_t n, const double* x, std::int64_t incx, CallReport* report = nullptr);
// sqrt(sum x_i^2) without overflow or underflow: x is first scaled by the power of two that brings
// max |x_i| into [1, 2) (exact), then squared and summed, and the root scaled back.
float nrm2(const Settings& s, std::int64_t n, const float* x, std::int64_t incx, CallReport* report = nullptr);
double nrm2(const Settings& s, std::int64_t n, const double* x, std::int64_t incx, CallReport* report = nullptr);
// 1-based index of the first element of largest (smallest) |x_i|; if x holds a NaN, the index of
// the first NaN; 0 when n <= 0. float: n <= 2^24 (indices are carried exactly in fp32 lanes).
std::int64_t iamax(const Settings& s, std::int64_t n, const float* x, std::int64_t incx, CallReport* report = nullptr);
std::int64_t iamax(const Settings& s, std::int64_t n, const double* x, std::int64_t incx, CallReport* report = nullptr);
std::int64_t iamin(const Settings& s, std::int64_t n, const float* x, std::int64_t incx, CallReport* report = nullptr);
std::int64_t iamin(const Settings& s, std::int64_t n, const double* x, std::int64_t incx, CallReport* report = nullptr);

// ---- Level 1, complex (C: VectorE on split real/imaginary planes; Z: host side or Ozaki) ---------
// A complex vector is read as two real strided vectors (real parts at stride 2 inc floats, the
// imaginary parts one float further): complex products are 4 real products on VectorE.
using cfloat = std::complex<float>;
using cdouble = std::complex<double>;
void axpy(const Settings& s, std::int64_t n, cfloat alpha, const cfloat* x, std::int64_t incx, cfloat* y,
          std::int64_t incy, CallReport* report = nullptr);
void axpy(const Settings& s, std::int64_t n, cdouble alpha, const cdouble* x, std::int64_t incx, cdouble* y,
          std::int64_t incy, CallReport* report = nullptr);
void scal(const Settings& s, std::int64_t n, cfloat alpha, cfloat* x, std::int64_t incx, CallReport* report = nullptr);
void scal(const Settings& s, std::int64_t n, cdouble alpha, cdouble* x, std::int64_t incx, CallReport* report = nullptr);
void scal(const Settings& s, std::int64_t n, float alpha, cfloat* x, std::int64_t incx, CallReport* report = nullptr);
void scal(const Settings& s, std::int64_t n, double alpha, cdouble* x, std::int64_t incx, CallReport* report = nullptr);
void copy(const Settings& s, std::int64_t n, const cfloat* x, std::int64_t incx, cfloat* y, std::int64_t incy,
          CallReport* report = nullptr);
void copy(const Settings& s, std::int64_t n, const cdouble* x, std::int64_t incx, cdouble* y, std::int64_t incy,
          CallReport* report = nullptr);
void swap(const Settings& s, std::int64_t n, cfloat* x, std::int64_t incx, cfloat* y, std::int64_t incy,
          CallReport* report = nullptr);
void swap(const Settings& s, std::int64_t n, cdouble* x, std::int64_t incx, cdouble* y, std::int64_t incy,
          CallReport* report = nullptr);
// (x, y) = (c x + s y, c y - s x) with real c, s (csrot, zdrot)
void rot(const Settings& s, std::int64_t n, cfloat* x, std::int64_t incx, cfloat* y, std::int64_t incy, float c,
         float sn, CallReport* report = nullptr);
void rot(const Settings& s, std::int64_t n, cdouble* x, std::int64_t incx, cdouble* y, std::int64_t incy, double c,
         double sn, CallReport* report = nullptr);
// (x, y) = (c x + s y, c y - conj(s) x) with real c and complex s (crot, zrot)
void rot(const Settings& s, std::int64_t n, cfloat* x, std::int64_t incx, cfloat* y, std::int64_t incy, float c,
         cfloat sn, CallReport* report = nullptr);
void rot(const Settings& s, std::int64_t n, cdouble* x, std::int64_t incx, cdouble* y, std::int64_t incy, double c,
         cdouble sn, CallReport* report = nullptr);
// sum x_i y_i (conjugate: sum conj(x_i) y_i)
cfloat dot(const Settings& s, std::int64_t n, const cfloat* x, std::int64_t incx, const cfloat* y, std::int64_t incy,
           bool conjugate, CallReport* report = nullptr);
cdouble dot(const Settings& s, std::int64_t n, const cdouble* x, std::int64_t incx, const cdouble* y,
            std::int64_t incy, bool conjugate, CallReport* report = nullptr);
// sum |re x_i| + |im x_i| (BLAS's scasum / dzasum)
float asum(const Settings& s, std::int64_t n, const cfloat* x, std::int64_t incx, CallReport* report = nullptr);
double asum(const Settings& s, std::int64_t n, const cdouble* x, std::int64_t incx, CallReport* report = nullptr);
// sqrt(sum |x_i|^2), scaled as the real nrm2
float nrm2(const Settings& s, std::int64_t n, const cfloat* x, std::int64_t incx, CallReport* report = nullptr);
double nrm2(const Settings& s, std::int64_t n, const cdouble* x, std::int64_t incx, CallReport* report = nullptr);
// first index of the largest (smallest) |re x_i| + |im x_i| (BLAS's icamax), or of the first NaN
std::int64_t iamax(const Settings& s, std::int64_t n, const cfloat* x, std::int64_t incx, CallReport* report = nullptr);
std::int64_t iamax(const Settings& s, std::int64_t n, const cdouble* x, std::int64_t incx, CallReport* report = nullptr);
std::int64_t iamin(const Settings& s, std::int64_t n, const cfloat* x, std::int64_t incx, CallReport* report = nullptr);
std::int64_t iamin(const Settings& s, std::int64_t n, const cdouble* x, std::int64_t incx, CallReport* report = nullptr);

// ---- Level 1, 16-bit storage with fp32 execution (cuBLAS's *Ex forms with CUDA_R_16F / 16BF) --------
// dt is DType::f16 or DType::bf16 (else NotSupportedError). The float kernels run unchanged: the
// DMA converts each element to fp32 on load (exact) and rounds written elements and results back to
// dt on store (RNE), so each result is the float routine's on the widened data, rounded once.
void axpy(const Settings& s, std::int64_t n, float alpha, DType dt, const void* x, std::int64_t incx, void* y,
          std::int64_t incy, CallReport* report = nullptr);
void scal(const Settings& s, std::int64_t n, float alpha, DType dt, void* x, std::int64_t incx,
          CallReport* report = nullptr);
void dot(const Settings& s, std::int64_t n, DType dt, const void* x, std::int64_t incx, const void* y,
         std::int64_t incy, void* result, CallReport* report = nullptr);
void nrm2(const Settings& s, std::int64_t n, DType dt, const void* x, std::int64_t incx, void* result,
          CallReport* report = nullptr);
void rot(const Settings& s, std::int64_t n, DType dt, void* x, std::int64_t incx, void* y, std::int64_t incy, float c,
         float sn, CallReport* report = nullptr);

// ---- Level 1, plane rotations -------------------------------------------------------------------
// rotg: the Givens rotation [c s; -conj(s) c] that zeroes b against a; a becomes r, b (real forms)
// the reconstruction value z. LAPACK 3.10's safe-scaling algorithm (srotg.f90 / crotg.f90, after
// Anderson, "Algorithm 978: Safe scaling in the Level 1 BLAS", ACM TOMS 44(1), 2017): no overflow
// or underflow unless r itself does. A 2-element setup: host scalar arithmetic (no kernel).
void rotg(float& a, float& b, float& c, float& s);
void rotg(double& a, double& b, double& c, double& s);
void rotg(std::complex<float>& a, std::complex<float> b, float& c, std::complex<float>& s);
void rotg(std::complex<double>& a, std::complex<double> b, double& c, std::complex<double>& s);
// rotmg: the modified Givens transformation H (param = [flag, h11, h21, h12, h22]) that zeroes the
// second component of diag(sqrt(d1), sqrt(d2)) [x1; y1] (reference BLAS srotmg/drotmg, TOMS 539 with
// the 2018 correction of the scale checks). Host scalar arithmetic, as rotg.
void rotmg(float& d1, float& d2, float& x1, float y1, float param[5]);
void rotmg(double& d1, double& d2, double& x1, double y1, double param[5]);
// rotm: (x, y) = (h11 x + h12 y, h21 x + h22 y) with H from param (flag -2: identity, nothing is
// touched; -1: full H; 0: h11 = h22 = 1; 1: h12 = 1, h21 = -1), each component fl(fl(h x) + fl(h y)).
void rotm(const Settings& s, std::int64_t n, float* x, std::int64_t incx, float* y, std::int64_t incy,
          const float param[5], CallReport* report = nullptr);
void rotm(const Settings& s, std::int64_t n, double* x, std::int64_t incx, double* y, std::int64_t incy,
          const double param[5], CallReport* report = nullptr);

// ---- Level 2 ----------------------------------------------------------------------------------
// y = alpha op(A) x + beta y, A m x n column-major (op(A) is m x n for N, n x m for T).
// beta == 0 never reads y; alpha == 0 never reads A or x.
void gemv(const Settings& s, Op trans, std::int64_t m, std::int64_t n, float alpha, const float* A, std::int64_t lda,
          const float* x, std::int64_t incx, float beta, float* y, std::int64_t incy, CallReport* report = nullptr);
void gemv(const Settings& s, Op trans, std::int64_t m, std::int64_t n, double alpha, const double* A,
          std::int64_t lda, const double* x, std::int64_t incx, double beta, double* y, std::int64_t incy,
          CallReport* report = nullptr);
// Complex: y = alpha op(A) x + beta y with op N, T or (conjugate) C. One real GEMM-vector product
// with the real representation of op(A) ([ar -ai; ai ar] blocks, 4M), then y = alpha p + beta y on
// VectorE (C) or on the host side (Z).
void gemv(const Settings& s, Op trans, bool conjugate, std::int64_t m, std::int64_t n, cfloat alpha, const cfloat* A,
          std::int64_t lda, const cfloat* x, std::int64_t incx, cfloat beta, cfloat* y, std::int64_t incy,
          CallReport* report = nullptr);
void gemv(const Settings& s, Op trans, bool conjugate, std::int64_t m, std::int64_t n, cdouble alpha, const cdouble* A,
          std::int64_t lda, const cdouble* x, std::int64_t incx, cdouble beta, cdouble* y, std::int64_t incy,
          CallReport* report = nullptr);
// y = alpha A x + beta y, A Hermitian n x n of which only the `uplo` triangle is read (the
// imaginary parts of the diagonal are taken as 0): the triangle is expanded into a dense copy
// (conjugate mirror: data movement), then the complex gemv above.
void hemv(const Settings& s, Uplo uplo, std::int64_t n, cfloat alpha, const cfloat* A, std::int64_t lda,
          const cfloat* x, std::int64_t incx, cfloat beta, cfloat* y, std::int64_t incy, CallReport* report = nullptr);
void hemv(const Settings& s, Uplo uplo, std::int64_t n, cdouble alpha, const cdouble* A, std::int64_t lda,
          const cdouble* x, std::int64_t incx, cdouble beta, cdouble* y, std::int64_t incy,
          CallReport* report = nullptr);
// hbmv / hpmv: the Hermitian band (sb layout) or packed triangle, staged densely, then hemv.
void hbmv(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t k, cfloat alpha, const cfloat* A,
          std::int64_t lda, const cfloat* x, std::int64_t incx, cfloat beta, cfloat* y, std::int64_t incy,
          CallReport* report = nullptr);
void hbmv(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t k, cdouble alpha, const cdouble* A,
          std::int64_t lda, const cdouble* x, std::int64_t incx, cdouble beta, cdouble* y, std::int64_t incy,
          CallReport* report = nullptr);
void hpmv(const Settings& s, Uplo uplo, std::int64_t n, cfloat alpha, const cfloat* AP, const cfloat* x,
          std::int64_t incx, cfloat beta, cfloat* y, std::int64_t incy, CallReport* report = nullptr);
void hpmv(const Settings& s, Uplo uplo, std::int64_t n, cdouble alpha, const cdouble* AP, const cdouble* x,
          std::int64_t incx, cdouble beta, cdouble* y, std::int64_t incy, CallReport* report = nullptr);
// her: A = alpha x x^H + A (alpha real); her2: A = alpha x y^H + conj(alpha) y x^H + A; hpr/hpr2 the
// same on packed storage. Only the `uplo` triangle is read and written; the imaginary parts of the
// diagonal are set to 0 (reference BLAS). The triangle is staged densely and updated by gerc (above),
// once or twice, then written back.
#define TRNBLAS_HER(C, R)                                                                                             \
  void her(const Settings& s, Uplo uplo, std::int64_t n, R alpha, const C* x, std::int64_t incx, C* A,                 \
           std::int64_t lda, CallReport* report = nullptr);                                                            \
  void hpr(const Settings& s, Uplo uplo, std::int64_t n, R alpha, const C* x, std::int64_t incx, C* AP,                \
           CallReport* report = nullptr);                                                                              \
  void her2(const Settings& s, Uplo uplo, std::int64_t n, C alpha, const C* x, std::int64_t incx, const C* y,          \
            std::int64_t incy, C* A, std::int64_t lda, CallReport* report = nullptr);                                  \
  void hpr2(const Settings& s, Uplo uplo, std::int64_t n, C alpha, const C* x, std::int64_t incx, const C* y,          \
            std::int64_t incy, C* AP, CallReport* report = nullptr);
TRNBLAS_HER(cfloat, float)
TRNBLAS_HER(cdouble, double)
#undef TRNBLAS_HER
// A = alpha x y^T + A (geru) or alpha x y^H + A (gerc, conjugate = true), m x n complex: u = alpha x
// (VectorE for C, host side for Z), then the real and imaginary planes of A are updated by two
// k = 2 GEMMs, Ar += [ur ui] [yr -+yi]^T and Ai += [ur ui] [+-yi yr]^T (upper signs: geru). C with
// n <= 128 and m <= 256 runs all of it as one program (the same arithmetic; docs/trnblas.md).
void ger(const Settings& s, bool conjugate, std::int64_t m, std::int64_t n, cfloat alpha, const cfloat* x,
         std::int64_t incx, const cfloat* y, std::int64_t incy, cfloat* A, std::int64_t lda,
         CallReport* report = nullptr);
void ger(const Settings& s, bool conjugate, std::int64_t m, std::int64_t n, cdouble alpha, const cdouble* x,
         std::int64_t incx, const cdouble* y, std::int64_t incy, cdouble* A, std::int64_t lda,
         CallReport* report = nullptr);
// ---- Level 2, complex symmetric, banded and triangular (C: fp32 engines, Z: Ozaki / host side) ----
// op(A) is N, T or (conjugate = true with trans T) C. The stored band / packed / triangular operand
// is staged densely (data movement: copies, zeros, ones on a unit diagonal), then:
//   symv, gbmv, trmv, tbmv, tpmv: the complex gemv above (4M on the real and imaginary planes);
//   syr, syr2: geru on the staged triangle (A += alpha x x^T; alpha x y^T + alpha y x^T), written back;
//   trsv, tbsv, tpsv: unless the diagonal is unit, each row of op(A) and of x is multiplied by the
//     reciprocal of its diagonal element (VectorE for C, host fp64 for Z), which makes the diagonal
//     1; the unit complex system is then the unit real triangular system of order 2n of its real
//     representation ([er -ei; ei er] blocks, x interleaved as it is stored), solved by the real
//     trsv (C: the column-substitution tile kernel; Z: blocked, Ozaki updates). No singularity test:
//     a zero diagonal element gives Inf/NaN, as in the reference BLAS.
#define TRNBLAS_L2_COMPLEX_EXTRA(C)                                                                                    \
  void symv(const Settings& s, Uplo uplo, std::int64_t n, C alpha, const C* A, std::int64_t lda, const C* x,            \
            std::int64_t incx, C beta, C* y, std::int64_t incy, CallReport* report = nullptr);                          \
  void syr(const Settings& s, Uplo uplo, std::int64_t n, C alpha, const C* x, std::int64_t incx, C* A,                  \
           std::int64_t lda, CallReport* report = nullptr);                                                             \
  void syr2(const Settings& s, Uplo uplo, std::int64_t n, C alpha, const C* x, std::int64_t incx, const C* y,           \
            std::int64_t incy, C* A, std::int64_t lda, CallReport* report = nullptr);                                   \
  void gbmv(const Settings& s, Op trans, bool conjugate, std::int64_t m, std::int64_t n, std::int64_t kl,               \
            std::int64_t ku, C alpha, const C* A, std::int64_t lda, const C* x, std::int64_t incx, C beta, C* y,        \
            std::int64_t incy, CallReport* report = nullptr);                                                           \
  void trmv(const Settings& s, Uplo uplo, Op trans, bool conjugate, bool unit, std::int64_t n, const C* A,              \
            std::int64_t lda, C* x, std::int64_t incx, CallReport* report = nullptr);                                   \
  void tbmv(const Settings& s, Uplo uplo, Op trans, bool conjugate, bool unit, std::int64_t n, std::int64_t k,          \
            const C* A, std::int64_t lda, C* x, std::int64_t incx, CallReport* report = nullptr);                       \
  void tpmv(const Settings& s, Uplo uplo, Op trans, bool conjugate, bool unit, std::int64_t n, const C* AP, C* x,       \
            std::int64_t incx, CallReport* report = nullptr);                                                           \
  void trsv(const Settings& s, Uplo uplo, Op trans, bool conjugate, bool unit, std::int64_t n, const C* A,              \
            std::int64_t lda, C* x, std::int64_t incx, CallReport* report = nullptr);                                   \
  void tbsv(const Settings& s, Uplo uplo, Op trans, bool conjugate, bool unit, std::int64_t n, std::int64_t k,          \
            const C* A, std::int64_t lda, C* x, std::int64_t incx, CallReport* report = nullptr);                       \
  void tpsv(const Settings& s, Uplo uplo, Op trans, bool conjugate, bool unit, std::int64_t n, const C* AP, C* x,       \
            std::int64_t incx, CallReport* report = nullptr);
TRNBLAS_L2_COMPLEX_EXTRA(cfloat)
TRNBLAS_L2_COMPLEX_EXTRA(cdouble)
#undef TRNBLAS_L2_COMPLEX_EXTRA

// A = alpha x y^T + A (m x n), evaluated as the reference BLAS: t = alpha y first (S: VectorE
// scal, D: host fp64), then the k = 1 GEMM A = x t^T + 1 A, so a_ij = fl(a_ij + fl(x_i t_j)).
void ger(const Settings& s, std::int64_t m, std::int64_t n, float alpha, const float* x, std::int64_t incx,
         const float* y, std::int64_t incy, float* A, std::int64_t lda, CallReport* report = nullptr);
void ger(const Settings& s, std::int64_t m, std::int64_t n, double alpha, const double* x, std::int64_t incx,
         const double* y, std::int64_t incy, double* A, std::int64_t lda, CallReport* report = nullptr);
// y = alpha A x + beta y, A symmetric n x n of which only the `uplo` triangle is read.
void symv(const Settings& s, Uplo uplo, std::int64_t n, float alpha, const float* A, std::int64_t lda,
          const float* x, std::int64_t incx, float beta, float* y, std::int64_t incy, CallReport* report = nullptr);
void symv(const Settings& s, Uplo uplo, std::int64_t n, double alpha, const double* A, std::int64_t lda,
          const double* x, std::int64_t incx, double beta, double* y, std::int64_t incy,
          CallReport* report = nullptr);
// x = op(A) x, A triangular (`uplo`; unit: the diagonal is taken as 1 and not read).
void trmv(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, const float* A, std::int64_t lda,
          float* x, std::int64_t incx, CallReport* report = nullptr);
void trmv(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, const double* A, std::int64_t lda,
          double* x, std::int64_t incx, CallReport* report = nullptr);
// x = op(A)^-1 x (no singularity test, as BLAS: a zero pivot gives Inf/NaN).
void trsv(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, const float* A, std::int64_t lda,
          float* x, std::int64_t incx, CallReport* report = nullptr);
void trsv(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, const double* A, std::int64_t lda,
          double* x, std::int64_t incx, CallReport* report = nullptr);

// ---- Level 2, banded and packed storage, rank-1/rank-2 updates (real S and D) ---------------------
// Banded (gbmv, sbmv, tbmv, tbsv) and packed (spmv, tpmv, tpsv, spr, spr2) operands are expanded
// into a dense staging matrix on the host (a copy: zeros outside the band or triangle), then the
// dense routine above runs (same engines, accumulation order and bounds). This reads O(n^2) staging
// for an O(n k) band: correct, not yet a banded kernel. Layouts as the reference BLAS:
//   band (gb):   A(ku + i - j, j) holds a_ij, lda >= kl + ku + 1
//   band (sb/tb) upper: A(k + i - j, j), lower: A(i - j, j), lda >= k + 1
//   packed upper: AP[i + j (j + 1) / 2] (i <= j); lower: AP[i + (2n - j - 1) j / 2] (i >= j)
// syr/spr/syr2/spr2 scale the vector first, as the reference BLAS (t = alpha x; t1 = alpha y,
// t2 = alpha x: no overflow/underflow of x_i x_j near the ends of the range), then SYRKX on the
// stored triangle: A += x t^T (k = 1; bit for bit the reference's fl(a + fl(x_i t_j))) or
// A += [x y] [t1 t2]^T (k = 2, both products in PSUM first); packed storage is staged densely.
#define TRNBLAS_L2_EXTRA(T)                                                                                            \
  void gbmv(const Settings& s, Op trans, std::int64_t m, std::int64_t n, std::int64_t kl, std::int64_t ku, T alpha,     \
            const T* A, std::int64_t lda, const T* x, std::int64_t incx, T beta, T* y, std::int64_t incy,               \
            CallReport* report = nullptr);                                                                              \
  void sbmv(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t k, T alpha, const T* A, std::int64_t lda,        \
            const T* x, std::int64_t incx, T beta, T* y, std::int64_t incy, CallReport* report = nullptr);              \
  void spmv(const Settings& s, Uplo uplo, std::int64_t n, T alpha, const T* AP, const T* x, std::int64_t incx, T beta,  \
            T* y, std::int64_t incy, CallReport* report = nullptr);                                                     \
  void tbmv(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, std::int64_t k, const T* A,              \
            std::int64_t lda, T* x, std::int64_t incx, CallReport* report = nullptr);                                   \
  void tbsv(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, std::int64_t k, const T* A,              \
            std::int64_t lda, T* x, std::int64_t incx, CallReport* report = nullptr);                                   \
  void tpmv(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, const T* AP, T* x, std::int64_t incx,    \
            CallReport* report = nullptr);                                                                              \
  void tpsv(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, const T* AP, T* x, std::int64_t incx,    \
            CallReport* report = nullptr);                                                                              \
  void syr(const Settings& s, Uplo uplo, std::int64_t n, T alpha, const T* x, std::int64_t incx, T* A,                  \
           std::int64_t lda, CallReport* report = nullptr);                                                             \
  void spr(const Settings& s, Uplo uplo, std::int64_t n, T alpha, const T* x, std::int64_t incx, T* AP,                 \
           CallReport* report = nullptr);                                                                               \
  void syr2(const Settings& s, Uplo uplo, std::int64_t n, T alpha, const T* x, std::int64_t incx, const T* y,           \
            std::int64_t incy, T* A, std::int64_t lda, CallReport* report = nullptr);                                   \
  void spr2(const Settings& s, Uplo uplo, std::int64_t n, T alpha, const T* x, std::int64_t incx, const T* y,           \
            std::int64_t incy, T* AP, CallReport* report = nullptr);
TRNBLAS_L2_EXTRA(float)
TRNBLAS_L2_EXTRA(double)
#undef TRNBLAS_L2_EXTRA

// ---- the triangular-solve tile kernel (also used by trnsolver's potrs/getrs) ---------------------
// T X = B for one block of right-hand sides. Element (i, j) of T at t[i * t_si + j * t_sj] (so a
// transpose is a swap of the strides); B column-major n x nrhs with ldb; nrhs <= gemm_moving_fmax.
struct TrsmProblem {
  const float* t = nullptr;
  std::int64_t t_si = 1, t_sj = 1;
  bool lower = true;
  bool unit = false;  // unit diagonal (t_jj not read)
  float* b = nullptr;
  std::int64_t ldb = 0, n = 0, nrhs = 0;
};
// Column-oriented substitution (Golub & Van Loan Alg. 3.1.3) on one NeuronCore: TensorE selector
// matmuls broadcast row j, VectorE divides and updates, GpSimdE builds the masks. Componentwise
// backward stable: |dT| <= n u |T| (Higham, "Accuracy and Stability of Numerical Algorithms",
// Thm 8.5).
void trsm_left_kernel(NeuronCore& nc, const TrsmProblem& p);

}  // namespace trn::blas
