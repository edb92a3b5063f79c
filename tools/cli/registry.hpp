// The registry of validation and benchmark cases behind `trnsci validate` and `trnsci bench`.
// Each library contributes a suite from its own file (suite_*.cpp) through a static Registrar, so a
// new library plugs in without touching the others (the FFTW solver-table idea).
#pragma once
#include <array>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "trn/core/core.hpp"

namespace trnsci::cli {

enum class Size { quick, full };

// Modeled device cost of what a case ran (absent when the case runs no kernel).
struct DeviceCost {
  bool present = false;
  std::string target;
  double total_ns = 0;
  double tensor_utilization = 0;
  std::array<double, trn::kEngineCount> busy_ns{};
  std::array<double, trn::kEngineCount> utilization{};
  // Issue #30's two bench columns (bench_columns.hpp): the roofline of the modeled time
  // (trn::Profile::roofline, its bound engine) and the work the emulator bound is computed from.
  double roofline = 0;
  std::string roofline_engine;
  std::array<double, trn::kEngineCount> roofline_ns{};  // per engine at peak rate, summed over cores
  int cores = 1;
  double host_roundtrip_ns = 0;
  double tensor_flops = 0;  // TensorE matmul flops (2 x multiply-adds)
  double element_ops = 0;   // element operations of every other engine (trn::Profile::flops - tensor_flops)
  double dma_bytes = 0, host_flops = 0, host_bytes = 0;
  // Engine instructions and costed host steps of the trace: host seconds / instructions is the row's
  // host cost per instruction (issue #30's per-instruction figure, per bench row).
  std::int64_t instructions = 0, host_steps = 0;
  static DeviceCost from(const trn::Profile& p);
  static DeviceCost from(const trnProfile_t& p) { return from(trn::Profile::from_c(p)); }
};

struct CaseResult {
  double measured = NAN;  // value of the metric
  double bound = NAN;     // documented upper bound (pass iff lower <= measured <= bound, or the case decides)
  double lower = NAN;     // documented lower bound of a two-sided band (NaN: one-sided "<= bound")
  bool pass = false;
  std::string note;       // short explanation (reference value, where the bound comes from)
  double host_seconds = 0;
  DeviceCost device;
};

// The result of an exact check: `wrong` mismatches against the reference, bound 0, pass iff none.
inline CaseResult exact_result(double wrong, std::string note, double host_seconds) {
  CaseResult r;
  r.measured = wrong;
  r.bound = 0;
  r.pass = wrong == 0;
  r.note = std::move(note);
  r.host_seconds = host_seconds;
  return r;
}

struct ValidationCase {
  std::string suite;       // core | blas | rand
  std::string library;     // trnsci::core, trnblas, trnrand
  std::string op;          // e.g. gemm, dgemm, harmonic_sum, philox4x32_10
  std::string mode;        // dtype / compute type / numerics profile / rounding
  std::string shape;       // e.g. 1024x1024x1024
  std::string metric;      // normwise_rel | max_comp_rel | ulp | bit_exact | abs_error | value
  std::string bound_text;  // how the bound is derived (theory, published figure)
  std::string experiment;  // the published experiment it reproduces, if any
  double size = 0;         // numeric size for error-vs-size charts (0: none)
  bool full_only = false;  // only in --size full
  std::function<CaseResult()> run;
};

// One algorithm variant of `trnsci bench`: accuracy, host time and modeled device time.
struct BenchResult {
  double error = NAN;
  std::string error_metric;
  double host_seconds = 0;
  double flops = 0;
  DeviceCost device;
  // The native library's time for the same operation (OpenBLAS, FFTW, LAPACKE ssyevd, Eigen,
  // Random123, ...), when the row times one: printed beside the emulator bound (0: none).
  double native_seconds = 0;
  std::string native_name;
  bool timing_only = false;  // the kernels ran without values (no emulator-bound column)
  // Issue #28 (sparse rows, tools/cli/sparse_columns.hpp): the dense TensorE path of the same
  // operation (modeled ns, what it is) and the density where it is as fast as the row's sparse path
  // (NaN when outside the densities tried; crossover_text then says "> hi" or "< lo").
  double dense_ns = NAN;
  std::string dense_name;
  double crossover_density = NAN;
  std::string crossover_text;
};
// A bench row from a validation case: its measured error, host time and profile; flops as given.
inline BenchResult bench_of(const CaseResult& c, const char* metric, double flops) {
  BenchResult b;
  b.error = c.measured;
  b.error_metric = metric;
  b.host_seconds = c.host_seconds;
  b.flops = flops;
  b.device = c.device;
  return b;
}
struct BenchCase {
  std::string suite, library, op, variant, shape;
  bool full_only = false;
  std::function<BenchResult(trn::Generation target)> run;
};

class Registry {
 public:
  static Registry& get();
  void add(ValidationCase c) { validation_.push_back(std::move(c)); }
  void add(BenchCase c) { bench_.push_back(std::move(c)); }
  // A function that adds a validation case under one suite and library (what every suite's add_* does).
  auto adder(std::string suite, std::string library) {
    return [this, suite = std::move(suite), library = std::move(library)](ValidationCase c) {
      c.suite = suite;
      c.library = library;
      this->add(std::move(c));
    };
  }
  const std::vector<ValidationCase>& validation() const { return validation_; }
  const std::vector<BenchCase>& bench() const { return bench_; }
  std::vector<std::string> suites() const;

 private:
  std::vector<ValidationCase> validation_;
  std::vector<BenchCase> bench_;
};

struct Registrar {
  explicit Registrar(void (*add_cases)(Registry&)) { add_cases(Registry::get()); }
};

// Helpers shared by suites.

// A validation result whose metric is a ratio to its documented bound (pass iff <= 1), from a run
// that has max_ratio, host_seconds and a trn::Profile named profile.
template <class Run>
CaseResult ratio_case(const Run& run, const std::string& note) {
  CaseResult r;
  r.measured = run.max_ratio;
  r.bound = 1.0;
  r.pass = run.max_ratio <= 1.0;
  r.note = note;
  r.host_seconds = run.host_seconds;
  r.device = DeviceCost::from(run.profile);
  return r;
}
// The clock of every host time the bench and validate print (now_seconds / seconds_since /
// best_seconds, and the emulator-bound host rates): wall (steady_clock, the default: what a user
// waits) or process_cpu (CPU seconds of the whole process, `trnsci bench --clock cpu`: on a shared,
// loaded machine a row's wall time is mostly waiting for a core, its CPU time is not).
enum class BenchClock { wall, process_cpu };
void set_bench_clock(BenchClock c);
BenchClock bench_clock();
double seconds_since(double start);
double now_seconds();
// The best of `reps` host timings of f (a native library's call for BenchResult::native_seconds).
double best_seconds(int reps, const std::function<void()>& f);
// Writes text to path; false (message on stderr) when it cannot.
bool write_file(const std::string& path, const std::string& text);
// The accepted range as printed in tables: "[lo, hi]", "<= hi" or ">= lo" (the direction, never a bare number).
std::string bound_text(const CaseResult& r);
// Short scientific formatting for notes ("2.143e-07").
std::string sci(double v);
// Relative Frobenius error of x against a reference.
double rel_frobenius(const std::vector<double>& x, const std::vector<double>& ref);

}  // namespace trnsci::cli
