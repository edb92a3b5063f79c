// trnsolver's SVD family (C++ API): bidiagonalisation (gebrd), the generation of its Q or P^H (orgbr /
// ungbr), the complex gesvd, the approximate batched SVD (gesvda), the polar-decomposition SVD
// (gesvdp) and the randomized SVD (gesvdr); cuSOLVER-Dn shaped, LAPACK conventions, column-major.
// Algorithms, what runs where and the accuracy bounds: docs/trnsolver.md "SVD family".
//
// One overload per element type T in {float, double, std::complex<float>, std::complex<double>}
// (plain overloads so that the shared library's version script exports them); R is T's real type.
// Throw trn::UsageError on invalid arguments.
#pragma once
#include <complex>
#include <cstdint>
#include <string>

#include "trn/solver/solver.hpp"

namespace trn::solver {

// gebrd: A = Q B P^H for m >= n (cuSOLVER's restriction), B upper bidiagonal (d: n diagonal, e: n - 1
// superdiagonal, real), in place as LAPACK xGEBRD stores it: Q = H_1 ... H_n (H_i = I - tauq_i v v^H,
// v(i) = 1, v(i+1:m) below the diagonal of column i), P = G_1 ... G_{n-1} (G_i = I - taup_i u u^H,
// u(i+1) = 1, conj(u(i+2:n)) right of the superdiagonal in row i), taup_{n-1} = 0. Returns 0.
// orgbr (ungbr): LAPACK xORGBR. vect 'Q': the m x n matrix of Q's first n columns from gebrd of an
// m x k matrix (m >= n >= min(m, k)); vect 'P': the m x n matrix of P^H's first m rows from gebrd of
// a k x n matrix (n >= m >= min(n, k)); A holds gebrd's reflectors on entry. Returns 0.
// gesvda: cuSOLVER gesvdaStridedBatched for one matrix (m >= n, 1 <= rank <= n): the rank leading
// singular triplets, S (rank, descending), U (m x rank) and V (n x rank, not V^H; both only with
// `vectors`), *residual = ||A - U_r S_r V_r^H||_F (fp64). A is not modified. Returns gesvd's info.
// gesvdp: cuSOLVER Xgesvdp, A = U diag(S) V^H by the QDWH polar decomposition and a Hermitian
// eigensolver, any m, n; S min(m, n) descending; with `vectors` U (m x (econ ? min(m, n) : m)) and V
// (n x (econ ? min(m, n) : n)), V not V^H. A is not modified. info 0, or 1 when A holds Inf/NaN (S is
// NaN then), or the eigensolver's info; QDWH runs at most kQdwhMaxIter iterations. err_sigma: cuSOLVER's
// h_err_sigma, the perturbation max(0, -lambda_min(H)) of the polar factor H (0 unless a singular
// value is close to zero).
// gesvdr: cuSOLVER Xgesvdr, the k leading singular triplets by the randomized SVD with p
// oversampling columns and niters power iterations (k >= 1, k + p <= min(m, n), niters >= 0); S k
// values, U m x k (want_u), V n x k (want_v). A is not modified. Returns gesvd's info on the small SVD.
// What gebrd runs (trn::Plan): xGEBRD's blocked reduction (xLABRD panels of nb columns and rows, each
// followed by the two trailing GEMMs on TensorE) while more than nx columns remain, then xGEBD2 on the
// rest as one host step. nb: TRNSOLVER_GEBRD_NB (1..256) or 32, LAPACK's ILAENV value; nx: the crossover,
// max(nb, TRNSOLVER_GEBRD_NX (0..2^20) or the rule: S/C 128, D/Z never -- docs/trnsolver.md "SVD family").
// Flops (real): xGEBD2's 4 m n^2 - 4/3 n^3 per column sum (x 4 complex); of a blocked column, half in
// the panel's two trailing GEMVs (TensorE for S/C, fp64 host steps for D/Z) and half in the trailing
// GEMMs (TensorE: fp32, 4M fp32, Ozaki fp64).
struct GebrdPlan {
  std::string routine;  // "sgebrd", "zgebrd", ...
  std::int64_t m = 0, n = 0;
  std::int64_t nb = 0, nx = 0;    // panel width and crossover (columns left to xGEBD2 at most)
  std::int64_t blocked = 0;       // columns reduced by panels (0: xGEBD2 alone, the unblocked choice)
  std::int64_t panels = 0;
  std::string nb_source, nx_source;  // "rule" or the environment variable that decided
  blas::GemmMode update_mode = blas::GemmMode::fp32;
  bool complex = false;
  double host_flops = 0;   // real flops of the host steps (panel steps, D/Z GEMVs, the xGEBD2 tail)
  double gemv_flops = 0;   // real flops of the panels' trailing GEMVs on TensorE (S/C)
  double gemm_flops = 0;   // real flops of the trailing GEMMs on TensorE
  // Modeled time (ns on the target; -1: not predicted), computed when first asked for: the driver replayed
  // on a synthetic well-scaled m x n matrix of the call's shape (the time of a dense random matrix; a
  // matrix whose reflectors vanish skips no step either, but the Ozaki slice counts of D/Z follow the data).
  trn::LazyNs predicted_ns;
  std::string why;
  std::string print() const;
};
// prefix 's', 'd', 'c', 'z'; m >= n >= 0. The environment variables are read here and by the driver.
GebrdPlan plan_gebrd(char prefix, std::int64_t m, std::int64_t n);

inline constexpr int kQdwhMaxIter = 16;
struct GesvdpResult {
  int info = 0;
  double err_sigma = 0;
  int iterations = 0;  // QDWH iterations
};
#define TRNSOLVER_SVD_DECLARE(T, R)                                                                              \
  int gebrd(const Settings& s, std::int64_t m, std::int64_t n, T* A, std::int64_t lda, R* d, R* e, T* tauq,       \
            T* taup, CallReport* report = nullptr);                                                             \
  int orgbr(const Settings& s, char vect, std::int64_t m, std::int64_t n, std::int64_t k, T* A, std::int64_t lda, \
            const T* tau, CallReport* report = nullptr);                                                        \
  int gesvda(const Settings& s, bool vectors, std::int64_t rank, std::int64_t m, std::int64_t n, const T* A,      \
             std::int64_t lda, R* S, T* U, std::int64_t ldu, T* V, std::int64_t ldv, double* residual,           \
             CallReport* report = nullptr);                                                                   \
  GesvdpResult gesvdp(const Settings& s, bool vectors, bool econ, std::int64_t m, std::int64_t n, const T* A,     \
                      std::int64_t lda, R* S, T* U, std::int64_t ldu, T* V, std::int64_t ldv,                    \
                      CallReport* report = nullptr);                                                            \
  int gesvdr(const Settings& s, bool want_u, bool want_v, std::int64_t m, std::int64_t n, std::int64_t k,         \
             std::int64_t p, std::int64_t niters, const T* A, std::int64_t lda, R* S, T* U, std::int64_t ldu, T* V, \
             std::int64_t ldv, CallReport* report = nullptr);
TRNSOLVER_SVD_DECLARE(float, float)
TRNSOLVER_SVD_DECLARE(double, double)
TRNSOLVER_SVD_DECLARE(std::complex<float>, float)
TRNSOLVER_SVD_DECLARE(std::complex<double>, double)
#undef TRNSOLVER_SVD_DECLARE

// gesvd for complex data (cuSOLVER Cgesvd/Zgesvd; the real overloads are in eig.hpp): A = U diag(S) V^H,
// m >= n, jobu / jobvt 'A', 'S', 'O', 'N' (not both 'O') as LAPACK xGESVD. gebrd, then the real
// bidiagonal B = U_B S V_B^T by gesvd's one-sided Jacobi (fp32 for C, max n kGesvdjMaxDim; fp64 for Z),
// U = Q U_B and V^H = V_B^T P^H by ungbr and complex GEMMs on TensorE. Returns 0, or n - 1 when the
// Jacobi sweeps did not converge (Inf/NaN in A).
int gesvd(const Settings& s, char jobu, char jobvt, std::int64_t m, std::int64_t n, std::complex<float>* A,
          std::int64_t lda, float* S, std::complex<float>* U, std::int64_t ldu, std::complex<float>* VT,
          std::int64_t ldvt, CallReport* report = nullptr);
int gesvd(const Settings& s, char jobu, char jobvt, std::int64_t m, std::int64_t n, std::complex<double>* A,
          std::int64_t lda, double* S, std::complex<double>* U, std::int64_t ldu, std::complex<double>* VT,
          std::int64_t ldvt, CallReport* report = nullptr);

}  // namespace trn::solver
