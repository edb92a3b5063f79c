// trnblas GEMM/SYRK drivers: argument handling, mode -> kernel configuration and the call report.
// The kernel is core's tile GEMM collective (trn/tile/gemm.hpp), the fp64 Ozaki schemes in ozaki.cpp.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "deferred_profile.hpp"
#include "ozaki.hpp"
#include "trn/core/report_observer.hpp"
#include "trn/core/scratch.hpp"
#include "trn/blas/blas.hpp"
#include "trn/blas/modes.hpp"
#include "trn/tile/gemm.hpp"

namespace trn::blas {

const char* gemm_mode_name(GemmMode m) { return mode_traits(m).name; }

namespace {
// The last report CallReport::finish built on this thread and what its ReportSettings came from
// (detail::finished_last_under).
struct LastFinish {
  const CallReport* report = nullptr;
  Generation target = Generation::trn1;
  int cores = 0;
  bool trace_only = false;
};
thread_local LastFinish t_last_finish;
thread_local detail::DeferredProfile t_deferred_profile;
}  // namespace

detail::DeferredProfile& detail::deferred_profile() { return t_deferred_profile; }

void CallReport::finish(const Settings& s, Trace&& t) {
  tensor_passes = t.per_engine[static_cast<int>(Engine::tensor)];
  ReportSettings rs = ReportSettings::of(s);
  rs.trace_only = s.report_trace_only;
  t_last_finish = {nullptr, rs.target, rs.cores, rs.trace_only};  // (an exception below leaves no report)
  // The running C entry point's own report: its schedule waits for GetLastProfile (deferred_profile.hpp).
  // Its profile is left as it is (nobody reads it: store_report hands the trace to the handle), and
  // it is never a report another one takes over (t_last_finish.report stays null).
  if (detail::DeferredProfile& d = t_deferred_profile; this == d.report) {
    d.fresh = false;
    d.deferred = !rs.trace_only && t.instructions.size() <= detail::kDeferredProfileMaxRecords &&
                 !trn::thread_report_observed();
    if (d.deferred) {
      d.settings = rs;
      trace = std::move(t);
      return;
    }
  }
  finish_report(*this, std::move(t), rs);
  t_last_finish.report = this;
}

bool detail::finished_last_under(const CallReport& r, const Settings& s) {
  const LastFinish& f = t_last_finish;
  const ReportSettings rs = ReportSettings::of(s);
  return f.report == &r && f.target == rs.target && f.cores == rs.cores && f.trace_only == s.report_trace_only;
}

void detail::finish_report(CallReport* r, const Settings& s, Trace&& t) {
  if (r != nullptr) r->finish(s, std::move(t));
}

namespace {

using detail::finish_report;
using tile::BlockGemmArgs;
using tile::Triangle;

LaunchConfig launch_config(const Settings& s) { return s.launch_config(); }

// op(X) of an (rows x cols after op) column-major matrix as an HBM [K, F] view: row index = the
// contraction index, free index = the other one. `contraction_first` says whether op(X) is K x F.
HbmTensor view_kf(const void* data, DType t, std::int64_t ld, bool x_is_kf_colmajor_transposed, std::int64_t K,
                  std::int64_t F) {
  // Column-major X: element (r, c) at r + c * ld.
  // If op(X)[f, k] (f rows, k columns) = X[f, k]  -> view[k][f] = X[f + k ld]: strides {ld, 1}.
  // If op(X)[f, k] = X[k, f] (transposed)         -> view[k][f] = X[k + f ld]: strides {1, ld}.
  void* p = const_cast<void*>(data);
  return x_is_kf_colmajor_transposed ? HbmTensor::wrap(p, t, {K, F}, {1, ld}) : HbmTensor::wrap(p, t, {K, F}, {ld, 1});
}

// The mode's facts come from its ModeTraits row (trn/blas/modes.hpp).
std::vector<std::pair<int, int>> term_pairs(GemmMode m) {
  const auto p = mode_traits(m).pairs;
  return {p.begin(), p.end()};
}

int split_of(GemmMode m) { return std::max(1, mode_traits(m).terms); }

DType load_dtype(GemmMode m, DType stored) {
  if (m == GemmMode::native) return stored;
  const ModeTraits& t = mode_traits(m);
  return t.terms > 1 ? DType::f32 : t.load_dtype;  // split modes load fp32 and split on VectorE
}

// The scalar fields of one fp32-class problem's kernel arguments (block_args, reuse_block_args).
void set_scalar_args(BlockGemmArgs& g, GemmMode mode, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                     float beta, DType a_dtype) {
  g.m = m;
  g.n = n;
  g.k_end = k;
  g.multiply = alpha != 0.0f;
  g.load = load_dtype(mode, a_dtype);
  g.split = split_of(mode);
  g.alpha = alpha;
  g.beta = beta;
}

// Kernel arguments of one fp32-class problem, without its operand views.
BlockGemmArgs block_args(GemmMode mode, std::int64_t m, std::int64_t n, std::int64_t k, float alpha, float beta,
                         DType a_dtype, const MutableMatrixRef& C) {
  BlockGemmArgs g;
  set_scalar_args(g, mode, m, n, k, alpha, beta, a_dtype);
  g.pairs = term_pairs(mode);
  g.c = HbmTensor::wrap(C.data, C.dtype, {n, m}, {C.ld, 1});  // C as [N, M]: row j = column j of C
  return g;
}

void require(bool ok, const char* what) {
  if (!ok) throw UsageError("trnblas", "argument", what);
}

// C = beta * C (alpha == 0 or k == 0) for fp64 C, on the host: no NeuronCore engine holds fp64.
void scale_f64(std::int64_t m, std::int64_t n, double beta, double* C, std::int64_t ldc) {
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) C[i + j * ldc] = beta == 0.0 ? 0.0 : beta * C[i + j * ldc];
}

}  // namespace

void dgemm(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
           const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C,
           std::int64_t ldc, CallReport* report) {
  require(m >= 0 && n >= 0 && k >= 0, "m, n, k must be non-negative");
  if (report != nullptr) *report = CallReport{};
  if (m == 0 || n == 0 || ((alpha == 0.0 || k == 0) && beta == 1.0)) return;
  if (alpha == 0.0 || k == 0) {
    if (!s.timing_only) scale_f64(m, n, beta, C, ldc);
    return;
  }
  if (detail::try_gemm_dot2(s, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, report, detail::kDot2GemmMaxMacs))
    return;
  if (s.ozaki_scheme == OzakiScheme::slices)
    detail::gemm_ozaki_slices(s, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
  else
    detail::gemm_ozaki_crt(s, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
}

void detail::dgemv_row(const Settings& s, Op tb, std::int64_t n, std::int64_t k, double alpha, const double* x,
                       std::int64_t incx, const double* B, std::int64_t ldb, double beta, double* y, std::int64_t incy,
                       CallReport* report) {
  // Small rows: compensated dot products on GpSimdE (ozaki.hpp, gemm_dot2), up to the size where their
  // modeled time meets the slice pairs' (kDot2VectorMaxMacs); one long dot product: Dot2 split over
  // partitions (dot2_split). Chosen before the plan object is built (its text is for the other paths).
  if (n != 0 && k != 0 && alpha != 0.0 && s.fp64_vector == Fp64VectorAlgorithm::automatic) {
    if (report != nullptr) *report = CallReport{};  // as every path below
    if (detail::try_gemm_dot2(s, Op::N, tb, 1, n, k, alpha, x, incx, B, ldb, beta, y, incy, report,
                              detail::kDot2VectorMaxMacs))
      return;
    if (n == 1 && detail::dot2_split_applies(s, k)) {
      detail::dot2_split(s, k, alpha, x, incx, B, tb == Op::N ? 1 : ldb, beta, y, report);
      return;
    }
  }
  const Fp64VectorPlan plan = plan_fp64_vector(s, n, k);
  if (n == 0 || k == 0 || alpha == 0.0 || plan.algorithm == Fp64VectorAlgorithm::ozaki_gemm) {
    dgemm(s, Op::N, tb, 1, n, k, alpha, x, incx, B, ldb, beta, y, incy, report);
    if (report != nullptr && report->plans_wanted && plan.algorithm == Fp64VectorAlgorithm::ozaki_gemm)
      report->plan = plan.print();
    return;
  }
  if (report != nullptr) *report = CallReport{};
  detail::gemv_slice_pairs(s, tb, n, k, alpha, x, incx, B, ldb, beta, y, incy, report);
}

namespace {
// An [R0, R1] HbmTensor view with the given strides in t, rebuilt only when it differs from the
// view t already holds (same data, dtype, shape and strides: kept, no heap blocks).
void set_view(HbmTensor& t, const void* data, DType dtype, std::int64_t r0, std::int64_t r1, std::int64_t s0,
              std::int64_t s1) {
  const auto& sh = t.shape();
  const auto& st = t.strides();
  if (t.data() == data && t.dtype() == dtype && sh.size() == 2 && sh[0] == r0 && sh[1] == r1 && st[0] == s0 &&
      st[1] == s1)
    return;
  t = HbmTensor::wrap(const_cast<void*>(data), dtype, {r0, r1}, {s0, s1});
}

// The problem of a one-problem call, kept per host thread between calls (issue #30, "Per-call
// cost" ninth round): a loop of calls on the same buffers reuses its operand views and vectors
// instead of building ten heap blocks per call (the views' shape and stride vectors, the term
// lists, the problem vector). Every field is reset to what block_args and view_kf would build;
// only the storage is kept. `in_use` guards against a nested call on the thread (it builds its own).
struct WarmProblem {
  std::vector<BlockGemmArgs> problems;
  bool in_use = false;
};
thread_local WarmProblem t_warm_problem;

void reuse_block_args(BlockGemmArgs& g, GemmMode mode, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k,
                      float alpha, float beta, const MatrixRef& A, const MatrixRef& B, const MutableMatrixRef& C) {
  // Storage kept, every other field back to its default (so a field added later cannot go stale).
  std::vector<HbmTensor> a_src = std::move(g.a_src), b_src = std::move(g.b_src);
  std::vector<std::pair<int, int>> pairs = std::move(g.pairs);
  HbmTensor c = std::move(g.c);
  g = BlockGemmArgs{};
  set_scalar_args(g, mode, m, n, k, alpha, beta, A.dtype);
  const auto p = mode_traits(mode).pairs;
  pairs.assign(p.begin(), p.end());
  g.pairs = std::move(pairs);
  set_view(c, C.data, C.dtype, n, m, C.ld, 1);  // C as [N, M]: row j = column j of C
  g.c = std::move(c);
  a_src.resize(g.multiply ? 1 : 0);
  b_src.resize(g.multiply ? 1 : 0);
  if (g.multiply) {
    // view_kf's views: op(X) as [K, F], strides {1, ld} when X is stored transposed to it, else {ld, 1}.
    const bool at = ta == Op::T, bt = tb == Op::N;
    set_view(a_src[0], A.data, A.dtype, k, m, at ? 1 : A.ld, at ? A.ld : 1);
    set_view(b_src[0], B.data, B.dtype, k, n, bt ? 1 : B.ld, bt ? B.ld : 1);
  }
  g.a_src = std::move(a_src);
  g.b_src = std::move(b_src);
}

// gemm_batched over `count` problems given as arrays (gemm passes one without building three
// one-element vectors: three heap blocks of every small call).
void gemm_problems(const Settings& s, GemmMode mode, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k,
                   float alpha, const MatrixRef* A, const MatrixRef* B, float beta, const MutableMatrixRef* C,
                   std::size_t count, CallReport* report) {
  require(m >= 0 && n >= 0 && k >= 0, "m, n, k must be non-negative");
  require(mode != GemmMode::fp64_ozaki, "fp64 GEMM goes through dgemm");
  if (report != nullptr) *report = CallReport{};
  if (count == 0 || m == 0 || n == 0 || ((alpha == 0.0f || k == 0) && beta == 1.0f)) return;
  // One problem: the thread's warm problem (unless a call on this thread is using it).
  WarmProblem& warm = t_warm_problem;
  const bool reuse = count == 1 && !warm.in_use;
  struct InUse {  // cleared on every exit
    WarmProblem* w;
    ~InUse() {
      if (w != nullptr) w->in_use = false;
    }
  } in_use{reuse ? &warm : nullptr};
  std::vector<BlockGemmArgs> local;
  std::vector<BlockGemmArgs>& problems = reuse ? warm.problems : local;
  if (reuse) {
    warm.in_use = true;
    problems.resize(1);
    reuse_block_args(problems[0], mode, ta, tb, m, n, k, alpha, beta, A[0], B[0], C[0]);
  } else {
    problems.reserve(count);
  }
  for (std::size_t b = 0; b < count && !reuse; ++b) {
    BlockGemmArgs g = block_args(mode, m, n, k, alpha, beta, A[b].dtype, C[b]);
    if (g.multiply) {
      // Moved in (an initializer list copies each view's shape and stride vectors: 4 heap blocks).
      g.a_src.push_back(view_kf(A[b].data, A[b].dtype, A[b].ld, ta == Op::T, k, m));
      g.b_src.push_back(view_kf(B[b].data, B[b].dtype, B[b].ld, tb == Op::N, k, n));
    }
    problems.push_back(std::move(g));
  }
  // The plan only for a report that prints it (a profile-only report, e.g. the C API's: no text, no copy).
  const bool want_plan = report != nullptr && report->plans_wanted;
  tile::GemmPlan plan;
  LaunchResult r = tile::launch_gemm(launch_config(s), problems, want_plan ? &plan : nullptr);
  finish_report(report, s, std::move(r.trace));
  if (want_plan) report->plan = plan.print();
}
}  // namespace

void gemm_batched(const Settings& s, GemmMode mode, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k,
                  float alpha, const std::vector<MatrixRef>& A, const std::vector<MatrixRef>& B, float beta,
                  const std::vector<MutableMatrixRef>& C, CallReport* report) {
  require(m >= 0 && n >= 0 && k >= 0, "m, n, k must be non-negative");
  require(mode != GemmMode::fp64_ozaki, "fp64 GEMM goes through dgemm");
  require(A.size() == C.size() && B.size() == C.size(), "batch arrays must have equal length");
  gemm_problems(s, mode, ta, tb, m, n, k, alpha, A.data(), B.data(), beta, C.data(), C.size(), report);
}

void gemm(const Settings& s, GemmMode mode, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
          MatrixRef A, MatrixRef B, float beta, MutableMatrixRef C, CallReport* report) {
  gemm_problems(s, mode, ta, tb, m, n, k, alpha, &A, &B, beta, &C, 1, report);
}

namespace {

// Settings of a prediction run (timing-only, its own profile) and distinct placeholder addresses
// (never dereferenced in a timing-only run) so that the HBM dependencies of A, B and C are those of
// separate arrays.
Settings prediction_settings(const Settings& s) {
  Settings ts = s;
  ts.timing_only = true;
  ts.report_trace_only = false;
  return ts;
}
void* placeholder(std::uintptr_t k) { return reinterpret_cast<void*>(k << 40); }

}  // namespace

double predict_gemm_ns(const Settings& s, GemmMode mode, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k,
                       float alpha, float beta) {
  if (m <= 0 || n <= 0) return 0;
  CallReport r;
  gemm(prediction_settings(s), mode, ta, tb, m, n, k, alpha, {placeholder(1), DType::f32, ta == Op::N ? m : k},
       {placeholder(2), DType::f32, tb == Op::N ? k : n}, beta, {placeholder(3), DType::f32, m}, &r);
  return r.profile.total_ns;
}

double predict_syrk_ns(const Settings& s, GemmMode mode, Op trans, std::int64_t n, std::int64_t k, float alpha,
                       float beta) {
  if (n <= 0) return 0;
  CallReport r;
  syrk(prediction_settings(s), mode, Uplo::lower, trans, n, k, alpha, {placeholder(1), DType::f32, trans == Op::N ? n : k},
       beta, {placeholder(3), DType::f32, n}, &r);
  return r.profile.total_ns;
}

double predict_dgemm_ns(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
                        double beta) {
  if (m <= 0 || n <= 0 || k <= 0 || alpha == 0.0) return 0;
  // Both operands stored k-major or not, every line alternates 1 and 2 (i + j parity).
  auto operand = [](std::int64_t rows, std::int64_t cols) {  // traced: the scratch stack
    ScratchVector<double> v(static_cast<std::size_t>(rows * cols));
    for (std::int64_t j = 0; j < cols; ++j)
      for (std::int64_t i = 0; i < rows; ++i) v[static_cast<std::size_t>(i + j * rows)] = 1.0 + static_cast<double>((i + j) & 1);
    return v;
  };
  const std::int64_t ar = ta == Op::N ? m : k, br = tb == Op::N ? k : n;
  const ScratchVector<double> a = operand(ar, ta == Op::N ? k : m), b = operand(br, tb == Op::N ? n : k);
  CallReport r;
  dgemm(prediction_settings(s), ta, tb, m, n, k, alpha, a.data(), ar, b.data(), br, beta,
        static_cast<double*>(placeholder(3)), m, &r);  // C: only its address is recorded (timing-only)
  return r.profile.total_ns;
}

double predict_dsyrk_ns(const Settings& s, Op trans, std::int64_t n, std::int64_t k, double alpha) {
  return predict_dgemm_ns(s, trans, trans == Op::N ? Op::T : Op::N, n, n, k, alpha, 0.0);  // dsyrk's product
}

void syrk(const Settings& s, GemmMode mode, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, float alpha,
          MatrixRef A, float beta, MutableMatrixRef C, CallReport* report) {
  require(n >= 0 && k >= 0, "n, k must be non-negative");
  require(mode != GemmMode::fp64_ozaki, "fp64 SYRK goes through dsyrk");
  if (report != nullptr) *report = CallReport{};
  if (n == 0 || ((alpha == 0.0f || k == 0) && beta == 1.0f)) return;
  // op(A) is n x k and C = alpha op(A) op(A)^T: the kernel's op(B) = op(A)^T is the same [K, n] view.
  BlockGemmArgs g = block_args(mode, n, n, k, alpha, beta, A.dtype, C);
  if (g.multiply) {
    g.a_src = {view_kf(A.data, A.dtype, A.ld, trans == Op::T, k, n)};
    g.b_src = g.a_src;
  }
  g.triangle = uplo == Uplo::lower ? Triangle::lower : Triangle::upper;
  tile::GemmPlan plan;
  LaunchResult r = tile::launch_gemm(launch_config(s), {g}, &plan);
  finish_report(report, s, std::move(r.trace));
  if (report != nullptr && report->plans_wanted) report->plan = plan.print();  // (a profile-only report: no text)
}

void dsyrk(const Settings& s, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, double alpha, const double* A,
           std::int64_t lda, double beta, double* C, std::int64_t ldc, CallReport* report) {
  require(n >= 0 && k >= 0, "n, k must be non-negative");
  if (report != nullptr) *report = CallReport{};
  if (n == 0 || ((alpha == 0.0 || k == 0) && beta == 1.0)) return;
  // The Ozaki product of op(A) op(A)^T into scratch (emulated TensorE), then the uplo triangle is
  // combined with C on the host in fp64; the other triangle of C is never touched. The product is
  // traced (HBM): on the scratch stack (docs/cost-model.md section 2, "Scratch addresses").
  ScratchVector<double> full(static_cast<std::size_t>(n * n), 0.0);
  const Op tb = trans == Op::N ? Op::T : Op::N;
  if (alpha != 0.0 && k != 0) dgemm(s, trans, tb, n, n, k, alpha, A, lda, A, lda, 0.0, full.data(), n, report);
  if (s.timing_only) return;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = (uplo == Uplo::lower ? j : 0); i < (uplo == Uplo::lower ? n : j + 1); ++i) {
      const double v = full[static_cast<std::size_t>(i + j * n)];
      C[i + j * ldc] = beta == 0.0 ? v : v + beta * C[i + j * ldc];
    }
}

}  // namespace trn::blas
