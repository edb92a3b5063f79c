// Internals of geev (geev.cpp) defined in geev_hqr.cpp: the host steps' sequential kernels, LAPACK
// xLAHQR (Francis double-shift QR, real; single-shift, complex) and xTREVC (right eigenvectors of the
// Schur form by back substitution). Internal to trnsolver/src.
#pragma once
#include <complex>
#include <cstdint>

#include "trn/core/trace.hpp"
#include "trn/solver/solver.hpp"

namespace trn::solver::detail {

// xLAHQR on the n x n upper Hessenberg H (ldh; the entries below the subdiagonal are ignored and set
// to zero): eigenvalues in wr/wi (real) or w (complex). want_t: H becomes the Schur form T (real:
// 2x2 blocks in standard form); Z (ldz, nullptr: none) is multiplied from the right by the Schur
// vectors. Returns LAPACK's info (0, or i > 0: eigenvalues i .. n-1 (0-based) converged, the
// iteration limit 30 max(10, n) sweeps per active block reached). `flops` accumulates the real
// floating-point operations done.
int lahqr(bool want_t, std::int64_t n, float* H, std::int64_t ldh, float* wr, float* wi, float* Z, std::int64_t ldz,
          double& flops);
int lahqr(bool want_t, std::int64_t n, double* H, std::int64_t ldh, double* wr, double* wi, double* Z,
          std::int64_t ldz, double& flops);
int lahqr(bool want_t, std::int64_t n, std::complex<float>* H, std::int64_t ldh, std::complex<float>* w,
          std::complex<float>* Z, std::int64_t ldz, double& flops);
int lahqr(bool want_t, std::int64_t n, std::complex<double>* H, std::int64_t ldh, std::complex<double>* w,
          std::complex<double>* Z, std::int64_t ldz, double& flops);

// xTREVC (right, all): the eigenvectors X (n x n, ldx, upper (quasi-)triangular) of the Schur form T:
// T X = X diag(lambda), column j paired with eigenvalue j (real T: a conjugate pair's columns hold the
// real and imaginary parts of the first one's vector, as xGEEV packs them). Unnormalised; small
// pivots perturbed to max(ulp |lambda|, n safmin / ulp), growth rescaled (LAPACK's). Returns flops.
double trevc(std::int64_t n, const float* T, std::int64_t ldt, float* X, std::int64_t ldx);
double trevc(std::int64_t n, const double* T, std::int64_t ldt, double* X, std::int64_t ldx);
double trevc(std::int64_t n, const std::complex<float>* T, std::int64_t ldt, std::complex<float>* X, std::int64_t ldx);
double trevc(std::int64_t n, const std::complex<double>* T, std::int64_t ldt, std::complex<double>* X,
             std::int64_t ldx);

// xGEHRD (gehrd.cpp) on the n x n A (lda), in place, LAPACK's storage (H on and above the subdiagonal,
// reflector i in A(i+2:n, i), tau(n-1)): panels of nb = gehrd_panel_width() columns (xLAHR2) with their
// trailing updates on TensorE while more than nb + 1 columns remain, then xGEHD2 (one host step). The
// steps are appended to trace; returns the host flops (real operations).
std::int64_t gehrd_panel_width();  // TRNSOLVER_GEHRD_NB (1..256) or 32, LAPACK's ILAENV default
std::int64_t gehrd_blocked_columns(char prefix, std::int64_t n);  // columns gehrd reduces by panels
double gehrd(const Settings& s, std::int64_t n, float* A, std::int64_t lda, float* tau, TraceParts& trace);
double gehrd(const Settings& s, std::int64_t n, double* A, std::int64_t lda, double* tau, TraceParts& trace);
double gehrd(const Settings& s, std::int64_t n, std::complex<float>* A, std::int64_t lda, std::complex<float>* tau,
             TraceParts& trace);
double gehrd(const Settings& s, std::int64_t n, std::complex<double>* A, std::int64_t lda, std::complex<double>* tau,
             TraceParts& trace);

}  // namespace trn::solver::detail
