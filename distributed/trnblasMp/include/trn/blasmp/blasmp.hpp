// trnblasMp C++ API: distributed GEMM over MPI, one rank = one emulated Trainium device
// (docs/scale-out.md). Matrices are ScaLAPACK's 2-D block-cyclic layout on a process grid; the
// local products are trnblas's tile kernels (trn::blas::gemm / dgemm) on each rank's device, every
// message is an MPI collective and, in the rank's trace, a link_transfer record timed by the fabric
// model (trn/core/fabric.hpp). The C API (trnblasMp.h) is a thin shim over this header.
//
// Algorithm (SUMMA, van de Geijn & Watts 1997): C(i, j) = beta C(i, j) + alpha sum_p A(i, p) B(p, j)
// over K panels p of kb columns of A / rows of B. For each panel, the ranks of a process row
// allgather their local columns of A's panel (every rank then holds its m_loc x kb row panel, in
// global K order), the ranks of a process column allgather their rows of B's panel (kb x n_loc), and
// each rank runs one trnblas GEMM on its C block (beta on the first panel, 1 after). Panels are
// double-buffered: panel p + 1's transfers overlap panel p's GEMM in the modeled schedule.
//
// Determinism: the K sum of every element is trnblas's own order within a panel and panel after
// panel across panels; kb depends only on k and the K block size (plan_gemm), never on the grid or
// the host threads, so any grid gives the same panels. A one-panel call (k <= kMaxPanelK) on one
// rank is exactly trnblas's GEMM on the whole matrices.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>

#include "trn/blas/blas.hpp"
#include "trn/blas/level3.hpp"
#include "trn/core/fabric.hpp"
#include "trncore.h"

namespace trn::blasmp {

enum class GridLayout : std::uint8_t { col_major = 0, row_major = 1 };

// A process grid over a communicator of exactly nprow * npcol ranks (the grid keeps a duplicate of
// it and the row / column sub-communicators). Rank r of the communicator is process
// (r % nprow, r / nprow) in col_major layout, (r / npcol, r % npcol) in row_major (BLACS's 'C' / 'R').
struct Grid {
  MPI_Comm comm = MPI_COMM_NULL, row_comm = MPI_COMM_NULL, col_comm = MPI_COMM_NULL;
  int nprow = 1, npcol = 1, myrow = 0, mycol = 0, rank = 0;
  GridLayout layout = GridLayout::col_major;
  // The communicator ranks of process row `myrow` (in process-column order) and of process column
  // `mycol`, as strided sets (fabric placement: rank r on device r of instance r / 16).
  RankSet row_set() const;
  RankSet col_set() const;
  int rank_of(int prow, int pcol) const;
};
// Collective over comm. Throws trn::UsageError (on every rank) when the ranks disagree on the
// arguments or nprow * npcol is not the communicator's size.
void grid_create(Grid& g, int nprow, int npcol, GridLayout layout, MPI_Comm comm);
void grid_destroy(Grid& g);

// A block-cyclic matrix: m x n global, mb x nb blocks, first block on process (rsrc, csrc), local
// leading dimension lld, element type `type` (TRN_R_32F or TRN_R_64F), on `grid`.
struct Descriptor {
  std::int64_t m = 0, n = 0, mb = 1, nb = 1, rsrc = 0, csrc = 0, lld = 1;
  trnDataType_t type = TRN_R_32F;
  const Grid* grid = nullptr;
  std::int64_t local_rows() const;
  std::int64_t local_cols() const;
};

// ScaLAPACK's NUMROC: the rows (or columns) of an n-long dimension in blocks of nb that process
// iproc owns when the first block is on isrcproc, over nprocs processes.
std::int64_t numroc(std::int64_t n, std::int64_t nb, std::int64_t iproc, std::int64_t isrcproc, std::int64_t nprocs);

// The deepest K panel (elements): one panel (the single-device GEMM's bits) up to this depth.
inline constexpr std::int64_t kMaxPanelK = 4096;

// What one distributed GEMM will do on this rank's device, and its predicted modeled time.
struct SummaPlan {
  std::int64_t m = 0, n = 0, k = 0;
  int nprow = 1, npcol = 1;
  Generation target = Generation::trn1;
  blas::GemmMode mode = blas::GemmMode::fp32;
  bool fp64 = false;
  bool complex = false;
  std::int64_t kb = 0;         // panel depth (a multiple of the K block size)
  std::int64_t panels = 0;
  std::int64_t m_loc = 0, n_loc = 0;  // this rank's C block (the largest over ranks for the prediction)
  std::int64_t elem_bytes = 4;
  double a_panel_bytes = 0, b_panel_bytes = 0;  // gathered per rank per panel
  double link_ns_per_panel = 0;    // allgather of A's panel along the row + B's along the column
  double gemm_ns_per_panel = 0;    // trnblas's modeled GEMM of one full panel (-1: not predicted)
  double exchange_ns = 0;          // the argument exchange
  double predicted_ns = 0;         // the double-buffered pipeline (docs/scale-out.md "SUMMA")
  double gemm_ns_total = 0;        // every panel's GEMM (the last one may be shallower), -1: not predicted
  double link_ns_total = 0;        // every panel's allgathers and the exchange
  double compute_ns() const { return gemm_ns_total; }
  double link_ns() const { return link_ns_total; }
  // The bound of the roofline including the link: max(compute at TensorE peak, link time) per rank.
  double roofline_ns = 0;
  std::string why;
  std::string print() const;
};

// Plans C = alpha A B + beta C (m x n x k) for process (g.myrow, g.mycol) of grid g: C in mb x nb
// blocks from process (0, 0), a K block of kblock. gemm_ns_per_panel comes from trnblas's predictor
// (fp32 modes; fp64 and complex: -1, not predicted). No communication: a bench may plan for
// a grid it does not run on (a Grid with only its shape and coordinates set).
// beta: the call's (beta = 0 does not read C on the first panel; later panels accumulate, beta 1).
SummaPlan plan_gemm(const blas::Settings& s, const Grid& g, blas::GemmMode mode, bool fp64, std::int64_t m,
                    std::int64_t n, std::int64_t k, std::int64_t mb, std::int64_t nb, std::int64_t kblock,
                    double beta = 1.0, bool complex = false);

// Workspace (bytes) the call needs for its double-buffered panels.
std::size_t gemm_workspace_bytes(const Descriptor& a, const Descriptor& b, const Descriptor& c, std::int64_t k);

// C = alpha op(A) op(B) + beta C on the block-cyclic operands (the whole matrices: ia = ja = 1; op T/C:
// level3mp.hpp).
// Collective over the grid. The settings' target is the device; its cores are the device's
// NeuronCores (HardwareSpec::cores_per_device). `work` holds gemm_workspace_bytes. report: the rank's
// Report (its trace: link records and the local GEMMs; its plan: SummaPlan::print()).
// The element type and scalars of a call (every routine's arguments start with them).
struct Scalars {
  blas::GemmMode mode = blas::GemmMode::fp32;  // fp32 family; fp64 operands use fp64 = true
  bool fp64 = false;
  bool complex = false;              // TRN_C_32F (fp64 false) / TRN_C_64F (fp64 true) operands
  double alpha = 1, beta = 0;
  double alpha_im = 0, beta_im = 0;  // imaginary parts (complex operands)
  trnDataType_t type() const { return complex ? (fp64 ? TRN_C_64F : TRN_C_32F) : (fp64 ? TRN_R_64F : TRN_R_32F); }
  std::size_t elem_bytes() const { return (fp64 ? 8u : 4u) * (complex ? 2u : 1u); }
};
struct GemmArgs : Scalars {
  blas::COp op_a = blas::COp::N, op_b = blas::COp::N;  // T / C: the operand is redistributed first (level3mp.hpp)
  std::int64_t m = 0, n = 0, k = 0;
  const void* a = nullptr;
  const Descriptor* desc_a = nullptr;
  const void* b = nullptr;
  const Descriptor* desc_b = nullptr;
  void* c = nullptr;
  const Descriptor* desc_c = nullptr;
  void* work = nullptr;
  std::size_t work_bytes = 0;
};
void gemm(const blas::Settings& s, const GemmArgs& args, blas::CallReport* report = nullptr);
// Empty when the operands fit together on this rank (same grid, matching sizes, types and block
// sizes: an op-N A's row blocks are C's, an op-N B's column blocks are C's, with both op N A's column
// block is B's row block; a transposed operand may have any blocks; workspace at least
// gemm_workspace_bytes(args)); otherwise what does not. gemm throws trn::UsageError with it.
std::string gemm_mismatch(const GemmArgs& args);

// The settings of one emulated device of s.target: every NeuronCore of the chip.
blas::Settings device_settings(blas::Settings s);

// The model pass's peer exchange of the distributed libraries (docs/scale-out.md section 7; core's
// link_step.hpp): a link record tagged with its communicator starts no earlier than its peers reach
// it (a broadcast's root; a symmetric collective's last member). Modeling a distributed call's trace
// with it is collective over the call's communicators, which must still exist.
LinkPeerExchange& peer_exchange();
// The report settings of a distributed call on device settings s: trnblas's (target, cores,
// report_trace_only) with peer_exchange() -- what every trnblasMp / trnsolverMp / trnfftMp report is
// modeled with, and what a caller re-modeling a report (a timeline, merged_perfetto_json) passes.
ReportSettings collective_report_settings(const blas::Settings& s);

}  // namespace trn::blasmp
