// trnsolver symmetric eigensolver by tridiagonalization and divide and conquer (C++ API),
// cuSOLVER-Dn shaped (LAPACK xSYEVD / xSYTRD / xORGTR / xORMTR conventions; column-major), S and D;
// the complex Hermitian heevd / hetrd / ungtr / unmtr (C, Z) at the end.
// Algorithm, what runs where and the accuracy bounds: docs/trnsolver.md "syevd".
//
//   sytrd   blocked Householder tridiagonalization (LAPACK xSYTRD/xLATRD, Dongarra, Hammarling &
//           Sorensen 1989): per panel of nb columns the reflectors with the matrix-vector product
//           y = A22 v (S: trnblas symv on TensorE, fp32; D: an fp64 host step, SyevdPlan::host_symv)
//           and the O(n nb) corrections as a recorded host step per column; the trailing update
//           A22 -= V W^T + W V^T as one trnblas SYR2K on TensorE (fp32 mode / Ozaki fp64)
//   stedc   Cuppen's divide and conquer on the tridiagonal (Cuppen 1981; Gu & Eisenstat, SIMAX 16(1),
//           1995, for the eigenvectors of the rank-one update; LAPACK xSTEDC/xLAED0-3 for the
//           deflation): leaves of <= 32 by implicit QL (host, fp64), each merge's secular equation
//           and deflation as a host step in fp64 (O(n^2)), the merged eigenvectors Q = diag(Q1, Q2) U
//           as two trnblas GEMMs on TensorE (the O(n^3) part)
//   ormtr   back-transformation V = Q Z by the compact-WY block reflectors of ormqr (TensorE GEMMs)
#pragma once
#include <complex>
#include <cstdint>
#include <string>

#include "trn/solver/solver.hpp"

namespace trn::solver {

// What syevd runs (trn::Plan): the tridiagonalization's panel width, the divide and conquer's leaf
// size and merge levels, and the predicted work on each side.
struct SyevdPlan {
  std::string routine;                 // "ssyevd", "dsyevd", "ssytrd", ...
  std::int64_t n = 0;
  bool vectors = true;
  std::int64_t nb = 0;                 // sytrd panel width
  std::int64_t leaf = 0;               // stedc leaf size (implicit QL below it)
  std::int64_t levels = 0;             // merge levels of the divide and conquer
  blas::GemmMode mode = blas::GemmMode::fp32;
  bool host_symv = false;              // sytrd's y = A22 v on the host (D) instead of trnblas symv (S)
  double host_flops = 0;               // host: panel corrections, QL leaves, secular equations
  double tensor_flops = 0;             // TensorE: symv, syr2k, merge GEMMs, back-transformation
  std::string why;
  // syevd's predicted modeled time (-1: not predicted; computed when printed, trn::LazyNs):
  // predict_syevd_ns.
  trn::LazyNs predicted_ns;
  std::string print() const;
};
// syevd's modeled time predicted for order n: the divide and conquer's deflation depends on the
// data (a deflated eigenpair skips its share of the merge GEMMs and secular equations), so the
// prediction assumes a random symmetric matrix's -- it is the modeled time of the same call on a
// seeded random symmetric matrix of order n (uniform entries in [-1, 1]; executed, as the driver's
// host decisions need the values). Matrices that deflate more (clustered or graded spectra, nearly
// diagonal matrices) take less: docs/cost-model.md section 9 gives the measured band.
template <class T>
double predict_syevd_ns(const Settings& s, std::int64_t n, bool vectors);

// sytrd panel width (TRNSOLVER_SYTRD_NB overrides it, 1 .. 256) and the divide and conquer leaf.
inline constexpr std::int64_t kSytrdPanelWidth = 32;
inline constexpr std::int64_t kStedcLeaf = 32;
std::int64_t sytrd_panel_width();

// kind: 'e' syevd (vectors as given), 't' sytrd, 'g' orgtr, 'm' ormtr (n: the order of Q).
SyevdPlan plan_syevd(char prefix, char kind, std::int64_t n, bool vectors);

// Elements of scratch the routine takes (at least 1): the C API's _bufferSize and the lwork it requires.
std::int64_t syevd_workspace(char kind, std::int64_t n, bool vectors);

// syevd: A = V diag(W) V^T from the `uplo` triangle of the n x n matrix A (lda >= max(1, n)); only
// that triangle is read. vectors: A is overwritten by V (column j pairs with W[j]); otherwise A's
// contents are destroyed (as cuSOLVER). W ascending. Returns info: 0; i > 0 when i off-diagonal
// elements of a tridiagonal subproblem did not converge (QL leaf, 30 iterations per eigenvalue);
// n when A holds Inf or NaN (W is NaN then, A untouched). Throws trn::UsageError on bad arguments.
int syevd(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, float* A, std::int64_t lda, float* W,
          CallReport* report = nullptr);
int syevd(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, double* A, std::int64_t lda, double* W,
          CallReport* report = nullptr);

// syevdx's selection (cuSOLVER's EIG_RANGE_ALL / _V / _I): all eigenvalues, those in the half-open
// interval (vl, vu], or the il-th through iu-th in ascending order (1-based, 1 <= il <= iu <= n).
enum class EigRange : std::uint8_t { all, value, index };
struct EigSelect {
  EigRange range = EigRange::all;
  double vl = 0, vu = 0;
  std::int64_t il = 1, iu = 0;
};
// syevdx: syevd restricted to the selection: *meig eigenvalues in W[0, meig) (ascending), the others
// after them (ascending), and, with vectors, the selected eigenvectors in A's first meig columns (only
// those are back-transformed; A's other columns are left as they were). Info as
// syevd (meig = 0 when A holds Inf/NaN). Throws trn::UsageError on bad arguments (vl >= vu for
// value, il/iu outside 1 <= il <= iu <= n for index).
int syevdx(const Settings& s, bool vectors, const EigSelect& sel, Uplo uplo, std::int64_t n, float* A,
           std::int64_t lda, std::int64_t* meig, float* W, CallReport* report = nullptr);
int syevdx(const Settings& s, bool vectors, const EigSelect& sel, Uplo uplo, std::int64_t n, double* A,
           std::int64_t lda, std::int64_t* meig, double* W, CallReport* report = nullptr);

// sygvd / sygvdx: the generalized symmetric-definite eigenproblem (cuSOLVER sygvd / sygvdx, LAPACK
// xSYGVD / xSYGVX) by the reduction of ssygvj (solver.hpp) with syevd / syevdx as the standard
// eigensolver: itype 1: A x = lambda B x; 2: A B x = lambda x; 3: B A x = lambda x. B = L L^T
// (potrf, uplo), C = L^-1 A L^-T (itype 1: two triangular solves) or L^T A L (2, 3: two GEMMs),
// syevd(x)(C) = Y diag(W) Y^T, X = L^-T Y (1, 2) or L Y (3): X^T B X = I (1, 2), X^T B^-1 X = I (3).
// Only the uplo triangles of A and B are read. On success B's uplo triangle holds the Cholesky factor
// and, with vectors, A's first n (sygvd) or *meig (sygvdx) columns the eigenvectors X; without, A is
// untouched. W: syevd's / syevdx's order. info: 0; n + i when the leading minor of order i of B is
// not positive definite (nothing written, *meig = 0); otherwise syevd's info (i > 0 not converged, n
// when C holds Inf/NaN: W NaN, A untouched). Throws trn::UsageError on bad arguments.
int sygvd(const Settings& s, int itype, bool vectors, Uplo uplo, std::int64_t n, float* A, std::int64_t lda, float* B,
          std::int64_t ldb, float* W, CallReport* report = nullptr);
int sygvd(const Settings& s, int itype, bool vectors, Uplo uplo, std::int64_t n, double* A, std::int64_t lda,
          double* B, std::int64_t ldb, double* W, CallReport* report = nullptr);
int sygvdx(const Settings& s, int itype, bool vectors, const EigSelect& sel, Uplo uplo, std::int64_t n, float* A,
           std::int64_t lda, float* B, std::int64_t ldb, std::int64_t* meig, float* W, CallReport* report = nullptr);
int sygvdx(const Settings& s, int itype, bool vectors, const EigSelect& sel, Uplo uplo, std::int64_t n, double* A,
           std::int64_t lda, double* B, std::int64_t ldb, std::int64_t* meig, double* W, CallReport* report = nullptr);

// sytrd: Q^T A Q = T (tridiagonal: D diagonal, E off-diagonal, n - 1 each) in place, LAPACK's storage:
// lower -- Q = H_1 ... H_{n-1}, v_i(i+1) = 1, v_i(i+2:n) in A(i+2:n, i), E in the subdiagonal;
// upper -- Q = H_{n-1} ... H_1, v_i(i) = 1, v_i(1:i-1) in A(1:i-1, i+1), E in the superdiagonal.
int sytrd(const Settings& s, Uplo uplo, std::int64_t n, float* A, std::int64_t lda, float* D, float* E, float* tau,
          CallReport* report = nullptr);
int sytrd(const Settings& s, Uplo uplo, std::int64_t n, double* A, std::int64_t lda, double* D, double* E,
          double* tau, CallReport* report = nullptr);
// orgtr: A = Q (n x n) from sytrd's reflectors (same uplo).
int orgtr(const Settings& s, Uplo uplo, std::int64_t n, float* A, std::int64_t lda, const float* tau,
          CallReport* report = nullptr);
int orgtr(const Settings& s, Uplo uplo, std::int64_t n, double* A, std::int64_t lda, const double* tau,
          CallReport* report = nullptr);
// ormtr: C = op(Q) C (left) or C op(Q) (right), C m x n, Q of order (left ? m : n) from sytrd.
int ormtr(const Settings& s, bool left, Uplo uplo, bool trans, std::int64_t m, std::int64_t n, const float* A,
          std::int64_t lda, const float* tau, float* C, std::int64_t ldc, CallReport* report = nullptr);
int ormtr(const Settings& s, bool left, Uplo uplo, bool trans, std::int64_t m, std::int64_t n, const double* A,
          std::int64_t lda, const double* tau, double* C, std::int64_t ldc, CallReport* report = nullptr);

// gesvd (cuSOLVER gesvd, LAPACK xGESVD's interface): A = U diag(S) V^T for m >= n (cuSOLVER's
// restriction) by gesvdj's one-sided Jacobi (solver.hpp; docs/trnsolver.md "gesvd"). S descending (n).
// jobu: 'A' U m x m in U (ldu >= m), 'S' its first n columns in U, 'O' those over A's first n columns,
// 'N' none; jobvt: 'A' / 'S' V^T (n x n) in VT (ldvt >= n), 'O' over A's first n rows, 'N' none; not
// both 'O'. A is destroyed unless it receives U or V^T. Returns 0, or n - 1 (at least 1) when the Jacobi
// sweeps did not converge (or A holds Inf/NaN). fp32: max(m, n) <= kGesvdjMaxDim. Throws
// trn::UsageError on bad arguments.
int gesvd(const Settings& s, char jobu, char jobvt, std::int64_t m, std::int64_t n, float* A, std::int64_t lda, float* S,
          float* U, std::int64_t ldu, float* VT, std::int64_t ldvt, CallReport* report = nullptr);
int gesvd(const Settings& s, char jobu, char jobvt, std::int64_t m, std::int64_t n, double* A, std::int64_t lda,
          double* S, double* U, std::int64_t ldu, double* VT, std::int64_t ldvt, CallReport* report = nullptr);

// trtri (LAPACK xTRTRI, cuSOLVER Xtrtri): A = inv(A) in place for the n x n triangle `uplo` of A (the
// other triangle is not read or written); unit: the diagonal is taken as 1 and not referenced.
// Returns 0, or i when A(i, i) is exactly zero (1-based; nothing written). fp32: T X = I on the
// triangular-solve tile kernel; fp64: substitution on the host CPU in fp64 (a recorded host step).
int trtri(const Settings& s, Uplo uplo, bool unit, std::int64_t n, float* A, std::int64_t lda,
          CallReport* report = nullptr);
int trtri(const Settings& s, Uplo uplo, bool unit, std::int64_t n, double* A, std::int64_t lda,
          CallReport* report = nullptr);
// Complex Hermitian (C: T = std::complex<float>, R = float; Z: std::complex<double>, double), LAPACK
// xHEEVD / xHETRD / xUNGTR / xUNMTR conventions (hetrd.cpp, docs/trnsolver.md "heevd"):
// heevd: A = V diag(W) V^H from the uplo triangle (the diagonal's imaginary parts are not read); W real,
// ascending; info as syevd. hetrd: Q^H A Q = T, real D and E, complex tau, reflectors stored as sytrd's.
// ungtr: Q from hetrd. unmtr: op(Q) C or C op(Q), trans = Q^H.
#define TRNSOLVER_HERM_DECLARE(T, R)                                                                              \
  int heevd(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, R* W,          \
            CallReport* report = nullptr);                                                                        \
  int hetrd(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, R* D, R* E, T* tau,           \
            CallReport* report = nullptr);                                                                        \
  int ungtr(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, const T* tau,                 \
            CallReport* report = nullptr);                                                                        \
  int unmtr(const Settings& s, bool left, Uplo uplo, bool trans, std::int64_t m, std::int64_t n, const T* A,    \
            std::int64_t lda, const T* tau, T* C, std::int64_t ldc, CallReport* report = nullptr);
TRNSOLVER_HERM_DECLARE(std::complex<float>, float)
TRNSOLVER_HERM_DECLARE(std::complex<double>, double)
#undef TRNSOLVER_HERM_DECLARE

}  // namespace trn::solver
