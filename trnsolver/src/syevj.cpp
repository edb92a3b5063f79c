// syevj drivers: argument checks, launches of the fp32 tile kernel (syevj_f32.cpp), and the fp64
// block Jacobi (syevj_f64.cpp: host subproblems, rotations as Ozaki DGEMMs on TensorE).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>

#include "jacobi_f64.hpp"
#include "jacobi_tiles.hpp"
#include "trn/core/host_step.hpp"
#include "syevj_internal.hpp"
#include "trn/core/scratch.hpp"

namespace trn::solver {
namespace {

void require(bool ok, const char* what) {
  if (!ok) throw UsageError("trnsolver", "argument", what);
}

LaunchConfig launch_config(const Settings& s, std::int64_t programs) {
  LaunchConfig lc = s.launch_config({static_cast<int>(programs), 1, 1});
  lc.core.execute = true;  // the host reads one convergence scalar per sweep
  return lc;
}

void finish_report(CallReport* r, const Settings& s, Trace&& t) {
  trn::finish_report(r, std::move(t), detail::sub_call_settings(r, ReportSettings::of(s)));
}

void check_args(std::int64_t n, std::int64_t lda, const void* A, const void* W, std::int64_t batch) {
  require(n >= 0, "n >= 0");
  require(lda >= std::max<std::int64_t>(1, n), "lda >= max(1, n)");
  require(batch >= 0, "batch >= 0");
  require(n == 0 || batch == 0 || (A != nullptr && W != nullptr), "A and W not NULL");
}

}  // namespace

double ssyevj_effective_tolerance(std::int64_t n, double tol) {
  const double u = std::ldexp(1.0, -24);
  const double floor = 4.0 * std::sqrt(static_cast<double>(std::max<std::int64_t>(n, 1))) * u;
  const double t = tol > 0 ? tol : static_cast<double>(FLT_EPSILON);
  return std::max(t, floor);
}

namespace {

// How ssyevj_run splits a batch: the kernel (packed, else rows in lockstep), matrices per program,
// programs, and the packed kernel's read-back floats per program.
struct RunShape {
  bool packed = false;
  std::int64_t per_program = 0, programs = 0, readback_floats = 0;
};
RunShape run_shape(const Settings& s, const SyevjPlan& plan, std::int64_t n, std::int64_t batch, bool vectors) {
  RunShape r;
  r.packed = plan.kernel == SyevjKernel::packed && n <= detail::kSyevjPackedMaxN;
  // many matrices per instruction (syevj_packed_f32.cpp), else a few rows kernels in lockstep
  r.per_program = r.packed ? detail::packed_capacity(hardware_spec(s.target), n, vectors) : detail::syevj_lockstep_width(n);
  r.programs = (batch + r.per_program - 1) / r.per_program;
  r.readback_floats = detail::packed_readback_floats((batch + r.programs - 1) / r.programs, n, hardware_spec(s.target).pmax);
  return r;
}

// ssyevj_run's launch: program k runs matrices [batch k / programs, batch (k + 1) / programs),
// matrix j's problem filled by problem(j, pr).
template <class F>
LaunchResult launch_run(const Settings& s, const RunShape& rs, std::int64_t batch, float* readback, bool execute,
                        F&& problem) {
  LaunchConfig lc = launch_config(s, rs.programs);
  lc.core.execute = execute;
  return launch(lc, [&](NeuronCore& nc) {
    const std::int64_t k = nc.linear_program_id();
    const std::int64_t first = batch * k / rs.programs, last = batch * (k + 1) / rs.programs;
    if (rs.packed) {
      detail::PackedJacobiProblemF32 pr;
      problem(first, pr);
      pr.count = last - first;
      pr.readback = readback + k * rs.readback_floats;
      detail::syevj_f32_packed_kernel(nc, pr);
      return;
    }
    // Rows on partitions, a few matrices in lockstep (syevj_f32.cpp): the single-matrix call, and
    // SsyevjBatched with n > 32 only when TRNSOLVER_SYEVJ_BLOCK_MIN_N moves the block path up (cost
    // studies; the default batched path for n > 32 is the block Jacobi).
    std::vector<detail::JacobiProblemF32> prs(static_cast<std::size_t>(last - first));
    for (std::int64_t j = first; j < last; ++j) problem(j, prs[static_cast<std::size_t>(j - first)]);
    detail::syevj_f32_kernel(nc, prs);
  });
}

// The modeled time of the plan's launch run timing-only with exactly `sweeps` sweeps per matrix.
double ssyevj_sweeps_ns(const Settings& s, const SyevjPlan& plan, int sweeps) {
  const std::int64_t n = plan.n, batch = plan.batch;
  const RunShape rs = run_shape(s, plan, n, batch, plan.vectors);
  // A at a placeholder device address (never dereferenced: nothing executes); host buffers for what
  // the kernels write on the host (eigenvalues, results, read-backs).
  float* const a = reinterpret_cast<float*>(std::uintptr_t{1} << 40);
  ScratchVector<float> w(static_cast<std::size_t>(n * batch)), readback;  // traced: the scratch stack
  if (rs.packed) readback.assign(static_cast<std::size_t>(rs.programs * rs.readback_floats), 0.0f);
  std::vector<SyevjResult> res(static_cast<std::size_t>(batch));
  const auto problem = [&](std::int64_t k, detail::JacobiProblemF32& pr) {
    pr.a = a + k * n * n;
    pr.lda = n;
    pr.w = w.data() + k * n;
    pr.n = n;
    pr.vectors = plan.vectors;
    pr.sort = plan.sort;
    pr.max_sweeps = sweeps;
    pr.predict_sweeps = sweeps;
    pr.result = res.data() + k;
    pr.tensor_transpose = plan.tensor_transpose;
  };
  return model_trace(launch_run(s, rs, batch, readback.data(), false, problem).trace, ReportSettings::of(s)).total_ns;
}

// packed: n <= kSyevjPackedMaxN runs the many-matrices-per-instruction kernel (the batched call, for
// every batch size, so that a matrix's bits never depend on the batch); the single-matrix call keeps
// the rows-on-partitions kernel, whose latency for one matrix is lower (docs/trnsolver.md).
std::vector<SyevjResult> ssyevj_run(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, float* A,
                                    std::int64_t lda, float* W, const SyevjParams& p, std::int64_t batch,
                                    CallReport* report, SyevjPlan& plan) {
  check_args(n, lda, A, W, batch);
  require(n <= kSyevjMaxN, "n <= kSyevjMaxN (SBUF-resident kernel)");
  require(p.max_sweeps >= 0, "max_sweeps >= 0");
  if (report != nullptr) *report = CallReport{};
  std::vector<SyevjResult> results(static_cast<std::size_t>(batch));
  if (n == 0 || batch == 0) return results;
  if (n == 1) {  // a 1 x 1 matrix is its own eigendecomposition (no rotation, no flop)
    for (std::int64_t k = 0; k < batch; ++k) {
      W[k] = A[k * lda];
      if (vectors) A[k * lda] = 1.0f;
    }
    if (report != nullptr) report->add_plan(plan);
    return results;
  }
  // Matrix k as a single-matrix problem (the packed problem extends it).
  const auto problem = [&](std::int64_t k, detail::JacobiProblemF32& pr) {
    pr.a = A + k * lda * n;
    pr.lda = lda;
    pr.w = W + k * n;
    pr.n = n;
    pr.vectors = vectors;
    pr.lower = uplo == Uplo::lower;
    pr.sort = p.sort_eig;
    pr.tolerance = p.tolerance;
    pr.max_sweeps = p.max_sweeps;
    pr.result = results.data() + k;
    pr.tensor_transpose = plan.tensor_transpose;
  };
  // The split into programs depends on the batch; a matrix's bits do not (each kernel's contract).
  const RunShape rs = run_shape(s, plan, n, batch, vectors);
  plan.per_program = rs.per_program;
  plan.programs = rs.programs;
  if (report != nullptr)  // computed when the plan is printed (never for a C call's profile-only report)
    plan.lazy = trn::Lazy<SyevjPrediction>([s, p = plan] { return ssyevj_prediction(s, p); });
  // The packed kernel's read-backs: one caller-owned slice per program (syevj_internal.hpp).
  ScratchVector<float> readback;  // traced: the scratch stack (docs/cost-model.md section 2)
  if (rs.packed) readback.assign(static_cast<std::size_t>(rs.programs * rs.readback_floats), 0.0f);
  LaunchResult r = launch_run(s, rs, batch, readback.data(), true, problem);
  plan.sbuf_bytes = r.sbuf_peak_bytes;
  plan.psum_bytes = r.psum_peak_bytes;
  finish_report(report, s, std::move(r.trace));
  if (report != nullptr) report->add_plan(plan);
  return results;
}

void check_block_args(std::int64_t n, std::int64_t lda, const float* A, const float* W, const SyevjParams& p,
                      std::int64_t batch, CallReport* report) {
  check_args(n, lda, A, W, batch);
  require(n <= kSyevjMaxN, "n <= kSyevjMaxN");
  require(p.max_sweeps >= 0, "max_sweeps >= 0");
  if (report != nullptr) *report = CallReport{};
}

}  // namespace


std::vector<SyevjResult> ssyevj_batched(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, float* A,
                                        std::int64_t lda, float* W, const SyevjParams& p, std::int64_t batch,
                                        CallReport* report) {
  SyevjPlan plan = plan_ssyevj(s, n, batch, vectors, true, p);
  if (plan.kernel == SyevjKernel::block) {
    check_block_args(n, lda, A, W, p, batch, report);
    if (n == 0 || batch == 0) return std::vector<SyevjResult>(static_cast<std::size_t>(std::max<std::int64_t>(batch, 0)));
    if (report != nullptr) plan.lazy = trn::Lazy<SyevjPrediction>([s, q = plan] { return ssyevj_prediction(s, q); });
    auto res = detail::ssyevj_block_batched(s, vectors, uplo == Uplo::lower, n, A, lda, W, p, batch, report);
    if (report != nullptr) report->add_plan(plan);
    return res;
  }
  return ssyevj_run(s, vectors, uplo, n, A, lda, W, p, batch, report, plan);
}

SyevjResult ssyevj(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, float* A, std::int64_t lda, float* W,
                   const SyevjParams& p, CallReport* report) {
  SyevjParams q = p;
  q.sort_eig = true;  // syevj always sorts (cuSOLVER: SetSortEig affects only the batched call)
  SyevjPlan plan = plan_ssyevj(s, n, 1, vectors, false, p);
  if (plan.kernel == SyevjKernel::block) {
    check_block_args(n, lda, A, W, p, 1, report);
    if (report != nullptr) plan.lazy = trn::Lazy<SyevjPrediction>([s, pl = plan] { return ssyevj_prediction(s, pl); });
    const SyevjResult res = detail::ssyevj_block(s, vectors, uplo == Uplo::lower, n, A, lda, W, q, report);
    if (report != nullptr) report->add_plan(plan);
    return res;
  }
  return ssyevj_run(s, vectors, uplo, n, A, lda, W, q, 1, report, plan).front();
}

std::vector<SyevjResult> dsyevj_batched(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, double* A,
                                        std::int64_t lda, double* W, const SyevjParams& p, std::int64_t batch,
                                        CallReport* report) {
  check_args(n, lda, A, W, batch);
  require(p.max_sweeps >= 0, "max_sweeps >= 0");
  if (report != nullptr) *report = CallReport{};
  std::vector<SyevjResult> results(static_cast<std::size_t>(batch));
  double flops = 0;
  TraceParts trace;
  // The block Jacobi of syevj_f64.cpp, one matrix after another (a matrix's bits never depend on the batch).
  for (std::int64_t k = 0; k < batch && n > 0; ++k)
    results[static_cast<std::size_t>(k)] = detail::dsyevj_block(s, vectors, uplo == Uplo::lower, n, A + k * lda * n, lda,
                                                                W + k * n, p, p.sort_eig, trace, &flops);
  if (report != nullptr) {
    detail::finish_fp64_report(report, std::move(trace), s.target, flops);
    report->add_plan(plan_dsyevj(s, n, batch, vectors, p));
  }
  return results;
}

SyevjResult dsyevj(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, double* A, std::int64_t lda, double* W,
                   const SyevjParams& p, CallReport* report) {
  SyevjParams q = p;
  q.sort_eig = true;
  auto r = dsyevj_batched(s, vectors, uplo, n, A, lda, W, q, 1, report);
  return r.empty() ? SyevjResult{} : r.front();
}

// Measured (tests/trnsolver/test_trnsolver_predict.cpp, random uniform symmetric matrices, default
// tolerance, block Jacobi): outer sweeps n = 33 and 40 (a batch of 8) 5, 64 6, 144 and 160 8.
constexpr const char* kBlockSweepRule = "block: ceil(1.5 log2(n)) - 3";
int ssyevj_block_sweep_estimate(std::int64_t n) {
  return n <= 2 ? 1 : std::max(1, static_cast<int>(std::ceil(1.5 * std::log2(static_cast<double>(n)))) - 3);
}

int ssyevj_sweep_estimate(std::int64_t n) {
  // Measured (tests/trnsolver/test_trnsolver_predict.cpp, random uniform symmetric matrices, default
  // tolerance): n = 8 5 sweeps, 17-50 6, 100 7, 143 8; a batch's slowest matrix may take one more.
  return n <= 2 ? 1 : 3 + static_cast<int>(std::ceil(std::log2(static_cast<double>(n)) / 2.0));
}

SyevjPrediction ssyevj_prediction(const Settings& s, const SyevjPlan& plan) {
  SyevjPrediction p;
  if (plan.n < 2 || plan.batch < 1) return p;
  const bool block = plan.kernel == SyevjKernel::block;
  SyevjParams prm;  // the block Jacobi's: what its dry run reads
  prm.max_sweeps = plan.max_sweeps;
  prm.sort_eig = plan.sort;
  const auto sweeps_ns = [&](int sweeps) {
    return block ? detail::ssyevj_block_dry_ns(s, plan.vectors, plan.n, plan.batch, prm, sweeps)
                 : ssyevj_sweeps_ns(s, plan, sweeps);
  };
  p.first_sweep_ns = sweeps_ns(1);
  p.sweep_ns = sweeps_ns(2) - p.first_sweep_ns;
  p.sweeps_estimated = std::min(block ? ssyevj_block_sweep_estimate(plan.n) : ssyevj_sweep_estimate(plan.n), plan.max_sweeps);
  p.sweeps_rule = p.sweeps_estimated == plan.max_sweeps ? "the sweep cap"
                  : block                               ? kBlockSweepRule
                                                        : "3 + ceil(log2(n) / 2)";
  p.predicted_ns = p.predicted_for(p.sweeps_estimated);
  return p;
}

void predict_ssyevj(const Settings& s, SyevjPlan& plan) {
  static_cast<SyevjPrediction&>(plan) = ssyevj_prediction(s, plan);
}

const SyevjPrediction& SyevjPlan::prediction() const {
  return predicted_ns >= 0 || !lazy.given() ? static_cast<const SyevjPrediction&>(*this) : lazy.get();
}

const char* syevj_kernel_name(SyevjKernel k) {
  switch (k) {
    case SyevjKernel::automatic: return "automatic";
    case SyevjKernel::rows: return "rows";
    case SyevjKernel::packed: return "packed";
    case SyevjKernel::block: return "block";
  }
  return "?";
}

SyevjPlan plan_ssyevj(const Settings& s, std::int64_t n, std::int64_t batch, bool vectors, bool batched,
                      const SyevjParams& p) {
  (void)s;
  SyevjPlan plan;
  plan.n = n;
  plan.batch = batch;
  plan.vectors = vectors;
  plan.sort = !batched || p.sort_eig;  // syevj always sorts
  plan.max_sweeps = p.max_sweeps;
  // Transposes on TensorE (matmul with the identity) instead of nc_transpose: an explicit request
  // or TRNSOLVER_SYEVJ_TENSOR_TRANSPOSE=1 (cost studies of the rows kernel).
  const char* tt = std::getenv("TRNSOLVER_SYEVJ_TENSOR_TRANSPOSE");
  plan.tensor_transpose = p.tensor_transpose || (tt != nullptr && tt[0] == '1');
  if (p.kernel != SyevjKernel::automatic) {
    require(p.kernel != SyevjKernel::packed || n <= detail::kSyevjPackedMaxN, "SyevjKernel::packed needs n <= 32");
    require(p.kernel != SyevjKernel::block || n > detail::kSyevjPackedMaxN, "SyevjKernel::block needs n > 32");
    plan.kernel = p.kernel;
    plan.why = std::string("requested (SyevjParams::kernel = ") + syevj_kernel_name(p.kernel) + ")";
    return plan;
  }
  // Block Jacobi from the threshold on, where its modeled time is below the rows kernel's
  // (syevj_internal.hpp, measured in docs/trnsolver.md "Block Jacobi"); never for n <= 32.
  const char* env = std::getenv("TRNSOLVER_SYEVJ_BLOCK_MIN_N");
  const std::int64_t min_n =
      env != nullptr ? std::atoll(env) : (batched ? detail::kSyevjBatchedBlockMinN : detail::kSyevjBlockMinN);
  const std::string threshold = "block threshold n >= " + std::to_string(min_n) +
                                (env != nullptr ? " (TRNSOLVER_SYEVJ_BLOCK_MIN_N)" : batched ? " (batched)" : " (one matrix)");
  if (n > detail::kSyevjPackedMaxN && n >= min_n) {
    plan.kernel = SyevjKernel::block;
    plan.why = "n > 32 and " + threshold;
  } else if (batched && n <= detail::kSyevjPackedMaxN) {
    plan.kernel = SyevjKernel::packed;
    plan.why = "batched n <= 32: many matrices per instruction, a matrix's bits independent of the batch";
  } else {
    plan.kernel = SyevjKernel::rows;
    plan.why = batched ? "n > 32 below the " + threshold
                       : "one matrix below the " + threshold + ": lowest latency";
  }
  return plan;
}

namespace {
std::string fixed3(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}
}  // namespace

std::string SyevjPlan::print() const {
  PlanFacts f;
  f.routine = "ssyevj";
  f.shape = "n=" + std::to_string(n) + (batch != 1 ? " batch " + std::to_string(batch) : std::string());
  f.variant = std::string(syevj_kernel_name(kernel)) + " kernel";
  if (kernel == SyevjKernel::rows && tensor_transpose) f.variant += " (TensorE transposes by matmul)";
  if (programs > 0)
    f.ops = "up to " + std::to_string(per_program) + " matrices per program, " + std::to_string(programs) + " programs";
  const SyevjPrediction& pr = prediction();
  if (pr.predicted_ns >= 0)
    f.ops += (f.ops.empty() ? "" : "; ") + std::to_string(pr.sweeps_estimated) + " sweeps estimated (" + pr.sweeps_rule +
             "); the launch timing-only: " + fixed3(pr.first_sweep_ns * 1e-3) + " us with one sweep + " +
             fixed3(pr.sweep_ns * 1e-3) + " us per further sweep";
  f.predicted_ns = pr.predicted_ns;
  f.sbuf_bytes = sbuf_bytes;
  f.psum_bytes = psum_bytes;
  f.engines = kernel == SyevjKernel::block ? "TensorE, VectorE, ScalarE, DMA" : "VectorE, ScalarE, TensorE, DMA";
  f.why = why;
  return f.print();
}
static_assert(trn::Plan<SyevjPlan>);

}  // namespace trn::solver
