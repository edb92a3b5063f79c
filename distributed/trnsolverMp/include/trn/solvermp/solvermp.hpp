// trnsolverMp C++ API: distributed Cholesky, LU and QR on ScaLAPACK's 2-D block-cyclic layout (cuSOLVERMp's
// cusolverMpPotrf / Potrs / Getrf / Getrs / Geqrf / Ormqr / Gels / Orgqr shape; QR: geqrf.cpp, orgqr.cpp and
// the declarations below), one MPI rank = one emulated Trainium device (docs/scale-out.md section 6). Grids and
// descriptors are trnblasMp's. The C API (trnsolverMp.h) is a thin shim over this header.
//
// potrf (lower): a right-looking block Cholesky over A's diagonal blocks (square blocks, mb = nb),
// on a workspace copy of the rank's block (the upper triangle of A is neither read nor written):
//   owner of block (i, i): trnsolver's spotrf / dpotrf on the diagonal block; its info is broadcast
//   to every rank (a non-positive-definite minor stops every rank at the same step);
//   process column of block column i: L_ii broadcast down it, the panel below solved with
//   trnblas's TRSM (right side, L_ii^T);
//   the panel broadcast along process rows (my rows of L(:, i)) and, transposed, gathered along
//   process columns (L(j, i) for my columns j); every rank updates its trailing block with one
//   trnblas GEMM (the whole trailing local block: up to twice the lower triangle's flops).
// upper: A^T redistributed, the lower factorisation, U = L^T redistributed back.
// potrs: two trnblasMp TRSMs with the factor (L then L^T; U^T then U).
// Complex (C, Z): the same with conjugate transposes (A = L L^H, U^H U); trnsolver's cpotrf / zpotrf on
// the diagonal blocks, L21 = A21 L11^-H, the trailing update with the conjugated panel.
//
// getrf (getrf.cpp): right-looking blocked LU with partial pivoting over A's block columns (square
// blocks mb = nb), ScaLAPACK's PDGETRF order:
//   process column of block column i: the panel A(r0:m, block i) gathered along the column (global row
//   order) and factored by trnsolver's getrf (sgetrf / dgetrf / cgetrf / zgetrf) on every rank of the
//   column (the same input and kernel: the same bits everywhere), each rank keeping its rows;
//   every rank: the panel's pivots and info broadcast along process rows, the interchanges applied to
//   the columns outside the panel (rows moved along process columns, one MPI_Alltoallv);
//   owner process row of block row i: U12 = L11^-1 A12 (trnblas TRSM, unit lower; fp64 on the host as
//   dgetrf's panel step); U12 broadcast down process columns, L21 along process rows; every rank
//   A22 -= L21 U12 (one trnblas GEMM).
// getrs: B's rows interchanged by the pivots (one MPI_Alltoallv along process columns), then two
// trnblasMp TRSMs (L unit lower, U); trans T / C: U^T then L^T (conjugated for C), then the
// interchanges in reverse.
//
// Determinism: every element's operations are fixed by the block size (the diagonal blocks and their
// order, trnblas's order inside each kernel), never by the grid: the same bits on any grid
// (tests/mpi checks 1 x 2 and 2 x 2 against 1 x 1). getrf with blocks of trnsolver's panel width
// (the device's pmax, 128 on trn1) on any grid gives the bits and pivots of trnsolver's single-device
// getrf (the same panels, interchanges, TRSMs and GEMMs per element).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "trn/blasmp/level3mp.hpp"

namespace trn::solvermp {

using blasmp::Descriptor;

// S, D, C, Z (fp32: fp32-mode updates; fp64: Ozaki updates; complex: 4M products).
struct PotrfArgs : blasmp::Scalars, blasmp::Workspace {
  blas::Uplo uplo = blas::Uplo::lower;
  std::int64_t n = 0;
  void* a = nullptr;
  const Descriptor* desc_a = nullptr;
};
std::string potrf_mismatch(const PotrfArgs& args);
std::size_t potrf_workspace_bytes(const PotrfArgs& args);
// Returns info: 0, or j > 0 when the leading minor of order j is not positive definite (every rank
// returns the same j; the factorization stopped there, A's triangle partly overwritten).
int potrf(const blas::Settings& s, const PotrfArgs& args, blas::CallReport* report = nullptr);

struct PotrsArgs : blasmp::Scalars, blasmp::SolveOperands, blasmp::Workspace {
  blas::Uplo uplo = blas::Uplo::lower;
  std::int64_t n = 0, nrhs = 0;
};
std::string potrs_mismatch(const PotrsArgs& args);
std::size_t potrs_workspace_bytes(const PotrsArgs& args);
void potrs(const blas::Settings& s, const PotrsArgs& args, blas::CallReport* report = nullptr);

// LU with partial pivoting P A = L U of the m x n matrix A (square blocks mb = nb), in place (L unit
// lower below the diagonal, U on and above). ipiv: this rank's LOCr(m) entries in ScaLAPACK's layout
// (PDGETRF's IPIV: entry il of local row il, global row ig < min(m, n), is the 1-based global row
// that row ig was interchanged with; replicated over process columns); nullptr: no pivoting.
struct GetrfArgs : blasmp::Scalars, blasmp::Workspace {
  std::int64_t m = 0, n = 0;
  void* a = nullptr;
  const Descriptor* desc_a = nullptr;
  std::int64_t* ipiv = nullptr;
};
std::string getrf_mismatch(const GetrfArgs& args);
std::size_t getrf_workspace_bytes(const GetrfArgs& args);
// Returns info: 0, or i > 0 when U(i, i) is exactly zero (the factorization completed, as LAPACK's
// xGETRF; every rank returns the same i).
int getrf(const blas::Settings& s, const GetrfArgs& args, blas::CallReport* report = nullptr);

// op(A) X = B with getrf's factors and pivots (op N, T or C), B n x nrhs with A's row blocks.
struct GetrsArgs : blasmp::Scalars, blasmp::SolveOperands, blasmp::Workspace {
  blas::COp trans = blas::COp::N;
  std::int64_t n = 0, nrhs = 0;
  const std::int64_t* ipiv = nullptr;
};
std::string getrs_mismatch(const GetrsArgs& args);
std::size_t getrs_workspace_bytes(const GetrsArgs& args);
void getrs(const blas::Settings& s, const GetrsArgs& args, blas::CallReport* report = nullptr);

// QR (geqrf.cpp): Householder A = Q R of the m x n matrix A (square blocks mb = nb), in place (LAPACK's
// xGEQRF storage: R on and above the diagonal, the reflectors v_i below it with v_i(i) = 1 implicit),
// ScaLAPACK PDGEQRF's block-column order: per block column, the panel gathered on its process column
// and factored there by trnsolver's geqrf panel step (xGEQR2 + xLARFT: every rank of the column alike),
// V and T broadcast along the process rows, the trailing columns updated A -= V (T^H (V^H A)) with V^H A
// summed over the process column in process-row order (an MPI_Allgather of the partial products and
// trnblas GEAMs: fixed for a given grid). tau: this rank's LOCc(min(m, n)) scalars in ScaLAPACK's
// layout (local column jl's reflector; replicated over process rows). Returns 0.
struct GeqrfArgs : blasmp::Scalars, blasmp::Workspace {
  std::int64_t m = 0, n = 0;
  void* a = nullptr;
  const Descriptor* desc_a = nullptr;
  void* tau = nullptr;
};
std::string geqrf_mismatch(const GeqrfArgs& args);
std::size_t geqrf_workspace_bytes(const GeqrfArgs& args);
int geqrf(const blas::Settings& s, const GeqrfArgs& args, blas::CallReport* report = nullptr);

// C = op(Q) C (side left only; op N, T for real data, C for complex) with Q = H_1 ... H_k from geqrf's
// reflectors in A (m x at least k, the first k block columns read) and tau; C m x n with A's row
// distribution (same grid, MB and RSRC). Per block (LAPACK's order: first to last for Q^H, last to first
// for Q): V and T rebuilt on the block's process column (trnsolver's xLARFT step), broadcast along the
// process rows, then C -= V (op(T) (V^H C)) as in geqrf.
struct OrmqrArgs : blasmp::Scalars, blasmp::Workspace {
  blas::Side side = blas::Side::left;
  blas::COp trans = blas::COp::N;
  std::int64_t m = 0, n = 0, k = 0;
  const void* a = nullptr;
  const Descriptor* desc_a = nullptr;
  const void* tau = nullptr;
  void* c = nullptr;
  const Descriptor* desc_c = nullptr;
};
std::string ormqr_mismatch(const OrmqrArgs& args);
std::size_t ormqr_workspace_bytes(const OrmqrArgs& args);
void ormqr(const blas::Settings& s, const OrmqrArgs& args, blas::CallReport* report = nullptr);

// Least squares min ||A X - B|| (trans N, m >= n, A of full rank): geqrf, C = Q^H B, R X = C(0:n) by
// trnblasMp's TRSM; X overwrites B's first n rows (A overwritten by its QR). Returns 0, or i > 0 when
// R(i, i) is exactly zero (rank deficient: B is not written, as LAPACK's xGELS).
struct GelsArgs : blasmp::Scalars, blasmp::Workspace {
  blas::COp trans = blas::COp::N;
  std::int64_t m = 0, n = 0, nrhs = 0;
  void* a = nullptr;
  const Descriptor* desc_a = nullptr;
  void* b = nullptr;
  const Descriptor* desc_b = nullptr;
};
std::string gels_mismatch(const GelsArgs& args);
std::size_t gels_workspace_bytes(const GelsArgs& args);
int gels(const blas::Settings& s, const GelsArgs& args, blas::CallReport* report = nullptr);

// The explicit Q (orgqr.cpp; cuSOLVERMp's cusolverMpOrgqr, LAPACK's xORGQR / xUNGQR): A's m x n block
// (m >= n >= k >= 0) overwritten by the first n columns of Q = H_1 ... H_k from geqrf's reflectors in A's
// first k columns and tau. This rank's block of A is copied to the workspace, A set to [I; 0], and ormqr
// (side left, trans N) applies Q to it. Bits: those of ormqr on the identity with the same reflectors.
struct OrgqrArgs : blasmp::Scalars, blasmp::Workspace {
  std::int64_t m = 0, n = 0, k = 0;
  void* a = nullptr;
  const Descriptor* desc_a = nullptr;
  const void* tau = nullptr;
};
std::string orgqr_mismatch(const OrgqrArgs& args);
std::size_t orgqr_workspace_bytes(const OrgqrArgs& args);
void orgqr(const blas::Settings& s, const OrgqrArgs& args, blas::CallReport* report = nullptr);

// Symmetric / Hermitian eigensolver (syevd.cpp; docs/scale-out.md section 6.5): A = Z diag(D) Z^H of the
// real symmetric or complex Hermitian n x n matrix A (S, D, C, Z; square blocks mb = nb) from its uplo
// triangle (the diagonal's imaginary parts not read), ScaLAPACK PDSYEVD's (PZHEEVD's)
// three stages: distributed Householder tridiagonalisation (PDSYTD2's column order), the tridiagonal
// problem by trnsolver's divide and conquer replicated on every rank, the back-transformation Z = Q V
// by Ormqr's compact-WY blocks. d: n eigenvalues ascending on every rank (real: float for S / C, double
// for D / Z);
// vectors: Z (n x n, descriptor desc_z: A's grid, MB and RSRC) receives the eigenvectors. A is
// destroyed. Returns info: 0; i > 0 when i off-diagonal elements of a QL leaf did not converge; n when
// A holds Inf or NaN (d NaN, Z not written). Every rank returns the same info.
// On a 1 x 1 grid (one device: nothing to distribute) Syevd and Sygvd run trnsolver's single-device
// syevd / sygvd (heevd / hegvd) on the local block (its blocked xLATRD panel; the 1-rank call gives its bits) unless
// one_device_path is false (then the distributed algorithm runs on 1 x 1 too).
struct SyevdArgs : blasmp::Scalars, blasmp::Workspace {
  bool one_device_path = true;
  bool vectors = true;
  blas::Uplo uplo = blas::Uplo::lower;
  std::int64_t n = 0;
  void* a = nullptr;
  const Descriptor* desc_a = nullptr;
  void* d = nullptr;
  void* z = nullptr;
  const Descriptor* desc_z = nullptr;
};
std::string syevd_mismatch(const SyevdArgs& args);
std::size_t syevd_workspace_bytes(const SyevdArgs& args);
int syevd(const blas::Settings& s, const SyevdArgs& args, blas::CallReport* report = nullptr);

// Generalized symmetric- (Hermitian-) definite eigenproblem A x = lambda B x (itype 1; sygvd.cpp): B = L L^H
// (uplo lower) or U^H U (Potrf, in place on B's uplo triangle), C = L^-1 A L^-H (two trnblasMp TRSMs on a
// full symmetric copy of A), Syevd(C), Z = L^-H V (one TRSM): Z^H B Z = I. B's descriptor: A's grid,
// blocks and sources. Returns info: n + i when B's leading minor of order i is not positive definite
// (D and Z not written), else Syevd's info.
struct SygvdArgs : SyevdArgs {
  int itype = 1;
  void* b = nullptr;
  const Descriptor* desc_b = nullptr;
};
std::string sygvd_mismatch(const SygvdArgs& args);
std::size_t sygvd_workspace_bytes(const SygvdArgs& args);
int sygvd(const blas::Settings& s, const SygvdArgs& args, blas::CallReport* report = nullptr);

}  // namespace trn::solvermp
