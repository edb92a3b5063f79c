// Internals shared by the syevj drivers and kernels (not installed).
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "trn/blas/level12.hpp"
#include "trn/blas/level3.hpp"  // dtrsm_left
#include "trn/solver/solver.hpp"

namespace trn::solver::detail {

// One fp32 matrix for syevj_f32_kernel. a: column-major input (read: the uplo triangle), and the
// eigenvector output when vectors; w: n eigenvalues.
struct JacobiProblemF32 {
  float* a = nullptr;
  std::int64_t lda = 0;
  float* w = nullptr;
  std::int64_t n = 0;
  bool vectors = true;
  bool lower = true;
  bool sort = true;
  double tolerance = 0.0;
  int max_sweeps = 100;
  SyevjResult* result = nullptr;
  bool tensor_transpose = false;  // rows kernel: transposes on TensorE (SyevjPlan::tensor_transpose)
  // Prediction (a timing-only run, nothing executes): >= 0 runs exactly this many sweeps, the
  // convergence and finiteness tests on the read-back sums (never written) skipped.
  int predict_sweeps = -1;
};

// Runs the problems (all of the same n) in lockstep: every instruction of a step is issued for
// each matrix before the next, so that their dependency chains overlap; each matrix's instructions
// and bits are those of a run alone. At most syevj_lockstep_width(n) problems per program.
void syevj_f32_kernel(NeuronCore& nc, std::span<const JacobiProblemF32> problems);
std::int64_t syevj_lockstep_width(std::int64_t n);

// ssyevj for n <= kSyevjPackedMaxN: `count` matrices of one program, a matrix per partition and
// slot (syevj_f32_packed_kernel, syevj_packed_f32.cpp). Matrix l of the program: a + l n lda
// (column-major, lda), w + l n, result[l].
inline constexpr std::int64_t kSyevjPackedMaxN = 32;
// matrix_stride (0: n lda) separates the matrices when they are not stored back to back (the
// block Jacobi reads the diagonal blocks of one matrix); v_out, if set, receives matrix l's
// eigenvectors (n x n column-major, leading dimension n) at v_out + l n n, and `a` is only read.
struct PackedJacobiProblemF32 : JacobiProblemF32 {
  std::int64_t count = 1;
  std::int64_t matrix_stride = 0;
  float* v_out = nullptr;
  // Host buffer the kernel's read-backs land in (sums, diagonals, a finished matrix's V), at least
  // packed_readback_floats(count, n, pmax) floats, owned by the caller for the whole call: a buffer
  // allocated per read-back could take the address of another program's (or core's), and the cost
  // model, which tracks HBM by address, would then order the two programs (and the modeled time
  // would depend on the host thread count).
  float* readback = nullptr;
};
std::int64_t packed_readback_floats(std::int64_t count, std::int64_t n, std::int64_t pmax);

// Matrices of order n one program of the packed kernel holds (pmax x the slots SBUF fits).
std::int64_t packed_capacity(const HardwareSpec& hw, std::int64_t n, bool vectors);
void syevj_f32_packed_kernel(NeuronCore& nc, const PackedJacobiProblemF32& p);

// ssyevj for one matrix by two-sided block Jacobi (syevj_block_f32.cpp): n >= kSyevjBlockMinN,
// where its modeled device time is below the rows kernel's (measured, docs/trnsolver.md "Block
// Jacobi": trn1 n = 129 13.8 vs 13.0 ms, 136 13.7 vs 13.8, 144 14.1 vs 14.9, 160 15.9 vs 19.7).
// TRNSOLVER_SYEVJ_BLOCK_MIN_N overrides it (tests and cost studies; never below 33).
inline constexpr std::int64_t kSyevjBlockMinN = 144;
// SsyevjBatched: every n above the packed kernel's. One rule for every batch size, so that a
// matrix's bits never depend on the batch; measured (modeled trn1, docs/trnsolver.md "Block
// Jacobi"): batches of 8 or more 1.5-5x faster than 8 matrices per program of the rows kernel in
// lockstep (200 x 128^2: 882 -> 350 ms; 16 x 143^2: 258 -> 49 ms), a batch of 1-2 up to 1.6x slower
// (n = 33: 2.97 vs 1.87 ms; Ssyevj is the one-matrix call).
inline constexpr std::int64_t kSyevjBatchedBlockMinN = kSyevjPackedMaxN + 1;
SyevjResult ssyevj_block(const Settings& s, bool vectors, bool lower, std::int64_t n, float* A, std::int64_t lda,
                         float* W, const SyevjParams& p, CallReport* report);
// The same for `batch` matrices (matrix k at A + k n lda, W + k n; p.sort_eig honoured), swept in
// lockstep groups; each matrix's bits are those of its single-matrix call.
std::vector<SyevjResult> ssyevj_block_batched(const Settings& s, bool vectors, bool lower, std::int64_t n, float* A,
                                              std::int64_t lda, float* W, const SyevjParams& p, std::int64_t batch,
                                              CallReport* report);
// The modeled time of the block Jacobi of `batch` matrices of order n with exactly `sweeps` outer
// sweeps, nothing executed (the plan's prediction: launches timing-only, one inner sweep per round).
double ssyevj_block_dry_ns(const Settings& s, bool vectors, std::int64_t n, std::int64_t batch, const SyevjParams& p,
                           int sweeps);

// sgetrf with the trailing updates A22 -= L21 U12 in `mode` (fp32 for sgetrf; fp16, bf16, tf32 for
// the mixed-precision refinement solvers; fp32 PSUM, panels fp32).
int sgetrf_mode(const Settings& s, blas::GemmMode mode, std::int64_t m, std::int64_t n, float* A, std::int64_t lda,
                int* ipiv, CallReport* report);

// The report of a trnblas step whose trace the driver joins to its own (and models once): no plan
// text. A blas::CallReport wants plans by default, and a GEMM's plan is copied and printed per
// launch (a heap copy and a formatted string, ~10 % of a small GEMM launch's host work) for nobody
// to read. Host only: the trace is the same with or without the plan.
struct StepReport : blas::CallReport {
  StepReport() { plans_wanted = false; }
};

// trnblas settings for the GEMM/SYRK/TRSM steps the drivers launch: the target, numerics and host
// threads of s (one NeuronCore), reports with the trace only (the driver models its whole trace
// once).
inline blas::Settings step_blas_settings(const Settings& s) {
  blas::Settings bs;
  bs.target = s.target;
  bs.numerics = s.numerics;
  bs.host_threads = s.host_threads;
  bs.report_trace_only = true;
  return bs;
}

// trnblas settings for the Ozaki DGEMM/DSYRK trailing updates of the fp64 factorisations (dgetrf,
// dpotrf): the target and host threads of s (one NeuronCore, default numerics), trace-only reports.
inline blas::Settings fp64_update_blas_settings(const Settings& s) {
  blas::Settings bs;
  bs.target = s.target;
  bs.host_threads = s.host_threads;
  bs.report_trace_only = true;  // the call models its whole trace once
  return bs;
}

// dst (rows x cols, ld ld_dst) = src (ld ld_src) by DMA: trnblas copy_segments, one segment per
// column (one for a contiguous matrix), bit copies of the 32-bit words as DCOPY's (T: float, double
// or their complex types). Its trace joins `trace`.
template <class T>
void copy_matrix(const Settings& s, const T* src, std::int64_t ld_src, T* dst, std::int64_t ld_dst, std::int64_t rows,
                 std::int64_t cols, TraceParts& trace) {
  constexpr std::int64_t w = sizeof(T) / sizeof(float);
  const bool whole = ld_src == rows && ld_dst == rows;
  std::vector<blas::CopySegment> segs;
  for (std::int64_t c = 0; c < (whole ? 1 : cols) && rows > 0; ++c)
    segs.push_back({reinterpret_cast<const float*>(src + c * ld_src), reinterpret_cast<float*>(dst + c * ld_dst),
                    w * rows * (whole ? cols : 1)});
  blas::Settings bs;
  static_cast<EmulatorSettings&>(bs) = s;
  blas::CallReport cr;
  blas::copy_segments(bs, segs, &cr);
  trace.add(std::move(cr.trace));
}

// The largest partition start <= first, for the range [start, end), that the engines accept
// (32-partition groups; 64 for a range over 32 partitions, 0 for one over 64).
inline std::int32_t aligned_partition_start(std::int32_t first, std::int32_t end) {
  for (std::int32_t s = first / 32 * 32; s > 0; s -= 32) {
    const std::int32_t n = end - s, quantum = n > 64 ? 128 : n > 32 ? 64 : 32;
    if (s % quantum == 0) return s;
  }
  return 0;
}

// T X = B in place for the n x n triangle T (element (i, j) at t[i * si + j * sj], si == 1 or
// sj == 1), B n x nrhs (ldb), fp32: trnblas STRSM (blocks of 128 rows in solve order, one TensorE
// GEMM update each and the diagonal block by substitution on VectorE, componentwise backward
// stable: trsm_substitution, docs/trnblas.md "TRSM"). Its trace is appended to `trace`.
void strsm_left(const Settings& s, const float* t, std::int64_t si, std::int64_t sj, bool lower, bool unit,
                std::int64_t n, std::int64_t nrhs, float* B, std::int64_t ldb, TraceParts& trace);

// The report of a sub-call whose trace the caller adds to its own (which it models once, whole): while
// a SubCallReport lives, finishing its report keeps the trace but leaves the profile unmodeled
// (ReportSettings::trace_only), and the report prints its plan only when asked (`plans`, default
// none: a plan's prediction may replay the whole driver). The caller's trace and modeled time are the
// same; the sub-call's own schedule, which nobody read, is no longer computed (ssyevd's ormqr, the
// gesvd family's QR/gebrd/eig steps, sygvd's and hegvd's syevdx/heevdx were each scheduled twice).
// Nested sub-calls each have their own report: only the report named here is trace-only.
class SubCallReport {
 public:
  explicit SubCallReport(bool plans = false) : prev_(current()) {
    report.plans_wanted = plans;
    current() = &report;
  }
  ~SubCallReport() { current() = prev_; }
  SubCallReport(const SubCallReport&) = delete;
  SubCallReport& operator=(const SubCallReport&) = delete;
  // Whether r is the report of the innermost live SubCallReport of this thread.
  static bool trace_only(const Report* r) { return r != nullptr && r == current(); }
  CallReport report;

 private:
  static const Report*& current();  // this thread's (getrf.cpp)
  const Report* prev_;
};
// rs with trace_only set when `r` is a sub-call's report (SubCallReport).
inline ReportSettings sub_call_settings(const Report* r, ReportSettings rs) {
  rs.trace_only = rs.trace_only || SubCallReport::trace_only(r);
  return rs;
}

// The report of an fp64 driver over engine calls (dgetrf, dpotrf, irs_gesv): their traces joined
// and modelled on the target (not for a sub-call's report: SubCallReport), and the host fp64 flops.
// Nothing without a report. While `report` is the one a batched entry point registered
// (BatchTraceSink), the trace parts go to the batch's parts unjoined and unmodelled instead: the
// batch joins and models its whole trace once.
void finish_fp64_report(CallReport* report, TraceParts&& trace, Generation target, double host_fp64_flops);
// A batched entry point's collector (capi_internal.hpp run_batch): finish_fp64_report on `report`
// (that one object only, not the reports of calls nested inside the routine) moves its parts into
// `parts`, in launch order, and sets only the report's host flops. Per-matrix modelling and joining
// cost the host as much as the batch's own (cpotrsBatched 16 x 128: half the scheduling time and a
// copy of every record into fresh pages), and the batch never read those per-matrix profiles.
struct BatchTraceSink {
  const CallReport* report = nullptr;
  TraceParts* parts = nullptr;
};
BatchTraceSink& batch_trace_sink();  // this thread's
// A sub-call (SubCallReport) whose routine finishes once through finish_fp64_report on report() and
// passes report() to no nested call (ormqr / unmqr in syevd, syevdx, heevd, heevdx): while it lives,
// that report is this thread's trace sink into `parts`, so the routine's trace parts join the caller's
// unjoined -- the same records in the same order as joining them into report().trace and adding that,
// without copying every record of the sub-call once more into fresh pages. The enclosing sink (a
// batched entry point's) is restored at its end, also when the sub-call throws.
class SubCallParts {
 public:
  explicit SubCallParts(TraceParts& parts) : saved_(batch_trace_sink()) { batch_trace_sink() = {&sub_.report, &parts}; }
  ~SubCallParts() { batch_trace_sink() = saved_; }
  SubCallParts(const SubCallParts&) = delete;
  SubCallParts& operator=(const SubCallParts&) = delete;
  CallReport& report() { return sub_.report; }

 private:
  SubCallReport sub_;
  BatchTraceSink saved_;
};
// The report of a blocked factorisation (sgetrf, spotrf; dgetrf, dpotrf with their host fp64 flops):
// finish_fp64_report, then the plan that chose its panels. Nothing without a report.
void finish_factor_report(CallReport* report, TraceParts&& trace, Generation target, const FactorPlan& plan,
                          double host_fp64_flops = 0);
// op(A) X = B in place for the n x n triangle of A (uplo, ld lda), B n x nrhs (ldb), fp64: trnblas
// DTRSM (blocks of 128 rows in solve order: each block's update one Ozaki DGEMM on TensorE, its
// diagonal block by fp64 substitution, trnblas's recorded host step trnblas.dtrsm.diag_solve of
// 128^2 nrhs flops). Its trace joins `trace` (dgetrs, dpotrs, dgetrf's U12).
void dtrsm_left(const Settings& s, blas::Uplo uplo, blas::Op op, blas::Diag diag, std::int64_t n, std::int64_t nrhs,
                const double* A, std::int64_t lda, double* B, std::int64_t ldb, TraceParts& trace);
// dgetrf's U12 = L11^-1 A12 (unit lower w x w L11, ld ldl; A12 w x cols, ld ldb) on the engines:
// recursive halving with Ozaki DGEMM updates down to 16-row diagonal blocks (trnblas DTRSM). Its
// trace joins `trace`. trnsolverMp's Getrf calls the public form (solver.hpp) for the same bits.
void dgetrf_u12(const Settings& s, std::int64_t w, std::int64_t cols, const double* L, std::int64_t ldl, double* B,
                std::int64_t ldb, TraceParts& trace);
// dgetrf / dpotrf; with_plan false: the report without the plan (and so without evaluating its
// prediction): the predictors' replays (factor_predict.cpp).
int dgetrf_driver(const Settings& s, std::int64_t m, std::int64_t n, double* A, std::int64_t lda, int* ipiv,
                  CallReport* report, bool with_plan);
int dpotrf_driver(const Settings& s, Uplo uplo, std::int64_t n, double* A, std::int64_t lda, CallReport* report,
                  bool with_plan);
// The argument check of the fp64 solves (dgetrs, dpotrs: `name`), then the report they fill (its
// profile on s.target until the solve's trace replaces it).
void begin_fp64_solve(const Settings& s, const char* name, std::int64_t n, std::int64_t nrhs, const double* A,
                      std::int64_t lda, const double* B, std::int64_t ldb, CallReport* report);

}  // namespace trn::solver::detail
