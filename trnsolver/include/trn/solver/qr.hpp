// trnsolver QR (C++ API): blocked Householder QR and the application/formation of its Q, cuSOLVER-Dn
// shaped (LAPACK xGEQRF, xORGQR/xUNGQR, xORMQR/xUNMQR conventions; column-major). One template per
// routine, instantiated for float, double, std::complex<float>, std::complex<double> (S, D, C, Z).
// Algorithm, what runs where and the accuracy bounds: docs/trnsolver.md "QR".
//
//   panel    LAPACK xGEQR2 (Householder vectors, xLARFG conventions) and xLARFT (the compact-WY
//            triangular factor T, Schreiber & Van Loan 1989) on the panel's nb columns: a recorded
//            host step (core/include/trn/core/host_step.hpp) in the working precision
//   update   H^H C = C - V (T^H (V^H C)) as three trnblas GEMMs on TensorE: fp32 mode (S, C: the
//            mode of spotrf/sgetrf's updates; C by 4M complex GEMM), Ozaki fp64 (D, Z: the mode of
//            dpotrf/dgetrf's updates)
#pragma once
#include <complex>
#include <cstdint>
#include <string>

#include "trn/core/for_each_scalar.hpp"
#include "trn/solver/solver.hpp"

namespace trn::solver {

// What geqrf / orgqr / ormqr run (trn::Plan): panel width, panels, the GEMM mode of the block
// reflector applications, and the predicted work on each side (host panel flops, TensorE flops).
struct QrPlan {
  std::string routine;                  // "sgeqrf", "zunmqr", ...
  std::int64_t m = 0, n = 0, k = 0;     // the routine's m, n, k (geqrf: k = min(m, n))
  std::int64_t nb = 0, panels = 0;      // panel width and panel count
  blas::GemmMode update_mode = blas::GemmMode::fp32;
  bool complex = false;                 // complex GEMMs (4M: one real GEMM of 4x the flops)
  double host_flops = 0;                // real flops of the host steps (panels, T factors)
  double gemm_flops = 0;                // real flops of the block reflector GEMMs (TensorE)
  // Modeled time predicted from the plan alone (-1: not predicted): predict_sqr_ns and its D/C/Z
  // forms, computed when first asked for (print(); trn::LazyNs).
  trn::LazyNs predicted_ns;
  std::string why;
  std::string print() const;
};

// Panel width of the blocked QR for the precision prefix ('s', 'd', 'c', 'z'), measured (docs/trnsolver.md
// "QR", panel width): S 8, C 4 -- the host panel's O(m nb) flops per column dominate, TensorE is
// idle; D/Z 128 (pmax, as dpotrf/dgetrf's host panels) -- each Ozaki GEMM carries host scaling and
// reconstruction steps, so fewer, larger GEMMs win. Two overrides, resolved here and nowhere else:
// `requested` (Settings::qr_block_size, C: trnsolverDnSetQrBlockSize; 1 .. kQrMaxPanelWidth) first,
// then the environment variable TRNSOLVER_QR_NB (1 .. 128; measurements, tests); 0 / unset / out of
// range: the rule. `source`, when given, receives what decided ("rule", "Settings::qr_block_size",
// "TRNSOLVER_QR_NB").
inline constexpr std::int64_t kQrPanelWidthS = 8;
inline constexpr std::int64_t kQrPanelWidthC = 4;
inline constexpr std::int64_t kQrPanelWidthFp64 = 128;
inline constexpr std::int64_t kQrMaxPanelWidth = 128;
std::int64_t qr_panel_width(char prefix, std::int64_t requested = 0, const char** source = nullptr);

// The plan of a QR routine. kind: 'q' geqrf, 'g' orgqr/ungqr, 'm' ormqr/unmqr (m, n the shape of C,
// left: Q applied from the left, so Q is m x m, else n x n); nb_request: Settings::qr_block_size.
QrPlan plan_qr(char prefix, char kind, std::int64_t m, std::int64_t n, std::int64_t k, bool left = true,
               std::int64_t nb_request = 0);

// The modeled time (ns, on s.target) of an S routine's plan (kind as plan_qr; ormqr's side and
// operation), predicted before it runs: each panel's (geqrf) or the blocks' (orgqr, ormqr) host step
// by the cost model's host formula (host_step_ns over the bytes and flops the step will record,
// every tau taken nonzero) plus each block application's three fp32 GEMMs by trnblas's
// predict_gemm_ns, summed in the order the driver runs them (each step depends on the one before).
// docs/cost-model.md section 9. The D and Z routines' plans are predicted the same way in their
// working type: host steps of sizeof(T)-byte elements (complex: 4 real multiply-adds per one), the
// block GEMMs as the driver runs them (D: Ozaki dgemm, Z: 4M Ozaki zgemm) run timing-only on
// well-scaled synthetic operands (trnblas predict_dgemm_ns's: 55 mantissa bits). C's 4M GEMMs
// overlap the host panels, so its plans replay the driver's steps timing-only and schedule them as
// the run does (geqrf.cpp replay_qr_ns).
double predict_sqr_ns(const Settings& s, const QrPlan& plan, char kind, bool left = true, bool trans = false);

// Elements of scratch a routine's blocks take (V and T of every block it holds at once, the two GEMM
// intermediates of one block application), at least 1: the C API's _bufferSize and the Lwork it
// requires. Arguments as plan_qr.
std::int64_t qr_workspace(char prefix, char kind, std::int64_t m, std::int64_t n, std::int64_t k, bool left = true,
                          std::int64_t nb_request = 0);

// One overload per element type T in {float, double, std::complex<float>, std::complex<double>}
// (S, D, C, Z; plain overloads, not templates, so that the shared library's version script exports
// them). Throw trn::UsageError on invalid arguments.
//
// geqrf: A = Q R of the m x n matrix (lda >= max(1, m)), in place: R on and above the diagonal, the
// Householder vectors v_i (v_i(i) = 1 implicit) below it, tau (min(m, n) scalars) with
// H_i = I - tau_i v_i v_i^H, Q = H_1 ... H_k. Returns 0 (the factorization always completes; a
// non-finite entry propagates into R and Q).
// orgqr (ungqr): the m x n matrix of Q's first n columns, Q = H_1 ... H_k from geqrf
// (m >= n >= k >= 0), overwriting A (its first k columns hold the reflectors on entry). Returns 0.
// ormqr (unmqr): C = op(Q) C (left) or C op(Q) (right), C m x n (ldc), the k reflectors in A
// (lda >= max(1, left ? m : n)); op: trans = false Q, true Q^T (real) / Q^H (complex). Returns 0.
#define TRNSOLVER_QR_DECLARE(T)                                                                               \
  int geqrf(const Settings& s, std::int64_t m, std::int64_t n, T* A, std::int64_t lda, T* tau,                \
            CallReport* report = nullptr);                                                                    \
  int orgqr(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t k, T* A, std::int64_t lda,        \
            const T* tau, CallReport* report = nullptr);                                                      \
  int ormqr(const Settings& s, bool left, bool trans, std::int64_t m, std::int64_t n, std::int64_t k,         \
            const T* A, std::int64_t lda, const T* tau, T* C, std::int64_t ldc, CallReport* report = nullptr);
TRN_FOR_EACH_SDCZ(TRNSOLVER_QR_DECLARE)
#undef TRNSOLVER_QR_DECLARE

// One block reflector of geqrf as the distributed QR (trnsolverMp Geqrf / Ormqr) builds it, with geqrf's
// own code and bits: factor = true: xGEQR2 on the r x w panel A (lda, r >= w) -- R above the diagonal,
// the reflectors below, tau (w) -- then xLARFT; factor = false: xLARFT only, from the reflectors and tau
// of an earlier geqrf (A and tau read). Both write V (r x w, ld r: explicit, unit lower trapezoidal) and
// T (w x w, ld w, upper triangular) with H_1 ... H_w = I - V T V^H, as one recorded host step (geqrf's
// panel step, "trnsolver.geqrf.panel"; factor = false: "trnsolver.ormqr.blocks"). Returns 0.
#define TRNSOLVER_QR_BLOCK_DECLARE(T)                                                                         \
  int qr_block_reflector(const Settings& s, bool factor, std::int64_t r, std::int64_t w, T* A, std::int64_t lda, \
                         T* tau, T* V, T* Tf, CallReport* report = nullptr);
TRN_FOR_EACH_SDCZ(TRNSOLVER_QR_BLOCK_DECLARE)
#undef TRNSOLVER_QR_BLOCK_DECLARE

}  // namespace trn::solver
