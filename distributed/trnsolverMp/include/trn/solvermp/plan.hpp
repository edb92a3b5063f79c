// trnsolverMp plans: what a distributed Potrf / Getrf / Geqrf does on process (0, 0) of an nprow x npcol
// grid -- block steps, messages, bytes -- and its predicted modeled time, printed (docs/scale-out.md
// section 6.4). No communication and no data: a bench may plan for a grid it does not run on.
//
// Algorithm: the drivers' own step sequence (potrf.cpp, getrf.cpp, geqrf.cpp): per block column i,
//   the parts process (0, 0) takes part in -- the panel work only when block column i is on its process
//   column (block (i, i) on it, for Cholesky's diagonal kernel), the TRSM of U12 only on block row i's
//   process row, every message it sends or receives, its trailing update -- one after another (no
//   look-ahead), summed. That is what the rank's own modeled trace holds: a rank's Profile (and so the
//   bench's "slowest rank") does not include the time it waits for another rank's panel, and neither
//   does the plan. Process (0, 0) holds the first diagonal block and the largest local blocks (blocks
//   from process (0, 0)).
// Engines (what each part is priced with): the trailing GEMMs, U12 / panel TRSMs (as the GEMM of
//   their shape) and QR's three GEMMs by trnblas's predictor (blas::predict_gemm_ns, fp32 modes;
//   beyond 2048 in a dimension at 2048 scaled by the flop ratio); Cholesky's diagonal block by
//   trnsolver's spotrf run once on a kb x kb SPD block; LU's panel by trnsolver's sgetrf run once on
//   min(m, 512) x kb rows and scaled linearly in the panel's rows (its flops are rows kb^2); QR's
//   panel (a recorded host step, xGEQR2 + xLARFT) by the cost model's host-step formula for
//   3 rows kb^2 fp64 flops and its bytes; every message by the fabric model (fabric.hpp: allgather,
//   pipelined broadcast, (P - 1) alpha + bytes / beta for the pivot interchange's all-to-all).
// Accuracy of the prediction: the sum of parts each within its own model's error; fp64 and complex
//   compute are not predicted (compute_ns -1, as trnblasMp's SUMMA plan: Ozaki's work depends on the
//   data), their link part is.
// Syevd / Sygvd (FactorKind::syevd / sygvd; syevd.cpp, sygvd.cpp): Syevd's n - 1 tridiagonalisation
//   columns as the driver takes them (column k gathered on its process column and broadcast along the
//   row; the reflector and w as host steps at the cost model's host rate; y = W22 v and the rank-2 update
//   as the GEMMs of their local shapes; the row sum and y's gather by the fabric model), the replicated
//   divide and conquer (stedc on every rank: its merges' eigenvector products priced as (4/3) n^3
//   multiply-adds of GEMM without deflation -- an upper bound, deflation only removes work -- and its
//   secular equations as 20 n^2 host flops), then the back-transformation Z = Q V (Ormqr's blocks:
//   the panel gathered and xLARFT on the host, V and T broadcast, three GEMMs and the column sum per
//   block, over all n columns of Z). Sygvd adds Potrf's steps, the three trnblasMp TRSMs (per block: A's
//   panel along the row, the diagonal solve as its GEMM, X down the column, the update GEMM) and the
//   four n x n redistributions (the mirrored copy, the right TRSM's two, the back TRSM's A^T) priced as
//   all-to-alls. Flops (the roofline's): Syevd 4/3 n^3 (reduction) + 2 n^3 (back-transformation; LAPACK's
//   counts, stedc's data-dependent merges not counted); Sygvd adds n^3 / 3 (potrf) + n^3 (the two-sided
//   reduction, xSYGST's) + n^3 (Z = L^-T V).
// Limits: square blocks from process (0, 0); the whole matrix.
#pragma once
#include <cstdint>
#include <string>

#include "trn/blas/blas.hpp"

namespace trn::solvermp {

enum class FactorKind { potrf, getrf, geqrf, syevd, sygvd };

struct FactorPlan {
  FactorKind kind = FactorKind::potrf;
  std::int64_t m = 0, n = 0, nb = 0;
  int nprow = 1, npcol = 1;
  Generation target = Generation::trn1;
  bool fp64 = false, complex = false;
  std::int64_t steps = 0;          // block columns
  std::int64_t messages = 0;       // collectives process (0, 0) takes part in (the exchange included)
  double message_bytes = 0;        // bytes it receives (gathered / broadcast to it)
  double panel_ns = 0;             // diagonal-block / panel kernels (-1: not predicted)
  double update_ns = 0;            // TRSMs and trailing GEMMs (-1: not predicted)
  double link_ns = 0;              // every message (fabric model)
  double predicted_ns = 0;         // steps in sequence (-1 when compute is not predicted)
  double flops = 0;                // the factorisation's own flops (LAPACK's counts), whole matrix
  double roofline_ns = 0;          // max(this rank's share of the flops at the device's TensorE peak, link_ns)
  double stedc_ns = 0;             // Syevd / Sygvd: the replicated divide and conquer (in update_ns and panel_ns)
  double compute_ns() const { return panel_ns < 0 || update_ns < 0 ? -1.0 : panel_ns + update_ns; }
  std::string print() const;
};

// Plans for process (0, 0) of an nprow x npcol grid on s.target devices: A m x n (potrf, syevd, sygvd:
// n x n, eigenvectors computed) in nb x nb blocks; fp64 / complex as the call's element type.
FactorPlan plan_factor(const blas::Settings& s, FactorKind kind, int nprow, int npcol, std::int64_t m, std::int64_t n,
                       std::int64_t nb, bool fp64 = false, bool complex = false);

}  // namespace trn::solvermp
