// trnsolver non-symmetric eigensolver (C++ API): geev, the eigenvalues and right eigenvectors of a
// general n x n matrix, cuSOLVER-Dn shaped (cusolverDnXgeev; LAPACK xGEEV conventions, column-major).
// One overload per element type (S, D, C, Z). Algorithm, what runs where and the accuracy bound:
// docs/trnsolver.md "Non-symmetric eigen (Xgeev)" and trnsolver/src/geev.cpp.
//
//   (1) Hessenberg reduction A = Q H Q^H by Householder reflectors (LAPACK xGEHD2; Golub & Van Loan,
//       Matrix Computations 4th ed., 7.4.3): a recorded host step in the working precision
//   (2) Q formed from the reflectors by orgqr/ungqr (xORGHR: the reflectors shifted one column, then
//       blocked compact-WY block reflectors on TensorE, geqrf.cpp)
//   (3) H = Z T Z^H by Francis' implicit double-shift QR (real; complex: single-shift) with
//       aggressive-free small-bulge sweeps, LAPACK xLAHQR (Golub & Van Loan 7.5; Ahues & Kressner's
//       deflation criterion), accumulating Z = Q Z_qr: a recorded host step (O(n^2) scalar work per
//       sweep, sequential)
//   (4) eigenvectors X of the (quasi-)triangular T by back substitution (xTREVC): a recorded host step;
//       VR = Z X by one GEMM on TensorE (fp32 mode S/C, Ozaki fp64 D/Z, 4M complex); each column
//       normalised to Euclidean norm 1 with its largest component real (xGEEV), a recorded host step
#pragma once
#include <complex>
#include <cstdint>
#include <string>

#include "trn/solver/solver.hpp"

namespace trn::solver {

// What geev runs (trn::Plan): the steps and their predicted flop counts on each side.
struct GeevPlan {
  std::string routine;  // "sgeev", "zgeev", ...
  std::int64_t n = 0;
  bool vectors = false;
  std::int64_t gehrd_nb = 0;       // the blocked Hessenberg reduction's panel width (xLAHR2)
  std::int64_t gehrd_blocked = 0;  // columns reduced by panels (0: xGEHD2 alone, below the crossover)
  double host_flops = 0;  // real flops of the host steps (gehd2, QR sweeps estimated at 10 n^3, trevc)
  double gemm_flops = 0;  // real flops on TensorE (gehrd's panels and updates, orgqr's block reflectors, VR = Z X)
  double predicted_ns = -1;
  std::string why;
  std::string print() const;
};
GeevPlan plan_geev(char prefix, std::int64_t n, bool vectors);

// Scratch elements (of the element type) geev's device steps hold at once and bytes its host steps
// hold (the Hessenberg/Schur matrix, Z, the triangular eigenvectors): the C API's _bufferSize.
std::int64_t geev_device_workspace(char prefix, std::int64_t n, bool vectors);
std::int64_t geev_host_workspace_bytes(char prefix, std::int64_t n, bool vectors);

// geev: the eigenvalues of the n x n matrix A (lda >= max(1, n); A is overwritten) and, when
// `vectors`, its right eigenvectors in VR (ldvr >= max(1, n); not referenced otherwise).
// Real A: eigenvalue j is wr[j] + i wi[j]; complex conjugate pairs are consecutive, positive
// imaginary part first; a real eigenvalue's vector is column j of VR, a pair's (j, j+1) vectors are
// VR(:, j) +- i VR(:, j+1) (LAPACK xGEEV's packing). Complex A: W[j] and column j of VR.
// Every vector has Euclidean norm 1 and its largest component real.
// Returns info: 0, or i > 0 when the QR iteration did not converge within 30 max(10, n) sweeps per
// block (LAPACK's bound): eigenvalues i .. n-1 (0-based) have converged, no vectors computed.
// A non-finite entry of A: info = n, W (and VR) NaN, no iteration runs.
// Throws trn::UsageError on invalid arguments.
int geev(const Settings& s, bool vectors, std::int64_t n, float* A, std::int64_t lda, float* wr, float* wi, float* VR,
         std::int64_t ldvr, CallReport* report = nullptr);
int geev(const Settings& s, bool vectors, std::int64_t n, double* A, std::int64_t lda, double* wr, double* wi,
         double* VR, std::int64_t ldvr, CallReport* report = nullptr);
int geev(const Settings& s, bool vectors, std::int64_t n, std::complex<float>* A, std::int64_t lda,
         std::complex<float>* W, std::complex<float>* VR, std::int64_t ldvr, CallReport* report = nullptr);
int geev(const Settings& s, bool vectors, std::int64_t n, std::complex<double>* A, std::int64_t lda,
         std::complex<double>* W, std::complex<double>* VR, std::int64_t ldvr, CallReport* report = nullptr);

}  // namespace trn::solver
