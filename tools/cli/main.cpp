// trnsci: the command-line tool. `validate` runs the accuracy-validation suites, `bench` the
// mixed-precision benchmarks (accuracy, host time, modeled device time), `profile` one operation
// with its per-engine summary and Perfetto trace, `info` the emulated generations, `demo` a tiled
// matmul walkthrough. JSON schema and examples: docs/cli.md.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>

#include "mpi_session.hpp"
#include "openblas_native.hpp"
#include "profile.hpp"
#include "registry.hpp"
#include "trn/blas/modes.hpp"
#include "report.hpp"
#include "trn/blas/blas.hpp"

namespace trnsci::cli {
int cmd_demo(int argc, char** argv);
int cmd_info();
void skip_dense_crossover();  // sparse_columns.cpp: `bench --no-crossover`

namespace {

// Resolves --suite (all or a comma list) against the registry; empty result = error already reported.
std::set<std::string> select_suites(const std::string& arg) {
  const auto known = Registry::get().suites();
  std::set<std::string> out;
  std::stringstream ss(arg);
  std::string s;
  while (std::getline(ss, s, ',')) {
    if (s == "all") {  // every suite but "mp" (MPI-collective cases: asked for by name)
      for (const auto& k : known)
        if (k != "mp") out.insert(k);
      continue;
    }
    if (std::find(known.begin(), known.end(), s) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      std::fprintf(stderr, "trnsci: unknown suite '%s' (available: all, %s)\n", s.c_str(), list.c_str());
      return {};
    }
    out.insert(s);
  }
  return out;
}

// Progress: a redrawn bar on a terminal, one plain line per case otherwise.
// A comma list of op names (`--op spvv,axpby`) as a set; empty: every op.
std::set<std::string> op_names(const std::string& ops) {
  std::set<std::string> out;
  for (std::size_t at = 0; !ops.empty() && at <= ops.size();) {
    const std::size_t comma = std::min(ops.find(',', at), ops.size());
    out.insert(ops.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

// An --op list that selects nothing is a usage error (exit 2), not an empty, failing report.
bool selects_something(const std::set<std::string>& op_set, std::size_t selected, const char* command) {
  if (op_set.empty() || selected > 0) return true;
  std::string names;
  for (const auto& o : op_set) names += (names.empty() ? "" : ",") + o;
  std::fprintf(stderr, "trnsci %s: no case of op '%s' in the selected suites and size\n", command, names.c_str());
  return false;
}

// --list: the selected suites' cases (validate) or rows (bench), one a line, tab-separated
// (suite, library, op, mode or variant, shape, quick|full), without running them: what
// tools/acceptance_audit.py reads to find the cases of every routine.
int list_cases(const std::string& suite_arg, bool bench) {
  const auto suites = select_suites(suite_arg);
  if (suites.empty()) return 2;
  const auto line = [](const auto& c, const std::string& mode) {
    std::printf("%s\t%s\t%s\t%s\t%s\t%s\n", c.suite.c_str(), c.library.c_str(), c.op.c_str(), mode.c_str(),
                c.shape.c_str(), c.full_only ? "full" : "quick");
  };
  if (bench) {
    for (const auto& c : Registry::get().bench())
      if (suites.count(c.suite)) line(c, c.variant);
  } else {
    for (const auto& c : Registry::get().validation())
      if (suites.count(c.suite)) line(c, c.mode);
  }
  return 0;
}

void progress(std::size_t i, std::size_t n, const std::string& what, const std::string& result) {
  static const bool tty = isatty(fileno(stderr)) != 0;
  if (tty) {
    const int width = 30, done = static_cast<int>(width * (i + 1) / std::max<std::size_t>(n, 1));
    std::fprintf(stderr, "\r[%.*s%*s] %zu/%zu %-60.60s", done, "==============================", width - done, "", i + 1, n,
                 (what + " " + result).c_str());
    if (i + 1 == n) std::fprintf(stderr, "\n");
  } else {
    std::fprintf(stderr, "[%zu/%zu] %s %s\n", i + 1, n, what.c_str(), result.c_str());
  }
  std::fflush(stderr);
}

// Runs the cases this rank deals with (case i on rank i mod P; collective cases on every rank) and
// returns, on rank 0, every case's result in case order (mpi_session.hpp).
std::vector<ValidationRecord> run_cases(const std::vector<const ValidationCase*>& todo) {
  std::vector<std::pair<std::size_t, std::string>> mine;
  std::vector<CaseResult> collective_results(todo.size());
  const auto P = static_cast<std::size_t>(mp::size()), me = static_cast<std::size_t>(mp::rank());
  for (std::size_t i = 0; i < todo.size(); ++i) {
    const ValidationCase& c = *todo[i];
    const bool collective = c.suite == "mp";  // the distributed libraries: every rank takes part
    if (!collective && i % P != me) continue;
    CaseResult r;
    try {
      r = c.run();
    } catch (const std::exception& e) {
      r.pass = false;
      r.note = std::string("error: ") + e.what();
    }
    if (me == 0) progress(i, todo.size(), c.suite + " " + c.op + " " + c.mode + " " + c.shape, r.pass ? "PASS" : "FAIL");
    if (collective)
      collective_results[i] = r;  // rank 0's is the one reported
    else
      mine.emplace_back(i, mp::pack(r));
  }
  std::vector<ValidationRecord> recs;
  if (me != 0) {
    (void)mp::gather(mine);
    return recs;
  }
  std::vector<CaseResult> results = std::move(collective_results);
  for (const auto& [i, bytes] : mp::gather(mine)) results[i] = mp::unpack(bytes);
  for (std::size_t i = 0; i < todo.size(); ++i) recs.push_back({todo[i], results[i]});
  return recs;
}

// ops: "" (every case of the suites) or a comma list of op names (`--op harmonic_sum`): only those cases.
int run_validate(const std::string& suite_arg, const std::string& size, const std::string& json, const std::string& html,
                 const std::string& ops = "") {
  const auto suites = select_suites(suite_arg);
  if (suites.empty()) return 2;
  const std::set<std::string> op_set = op_names(ops);
  // MPI when a launcher started us (cases spread over the ranks) or the suite mp is asked for.
  const mp::Session session(mp::launched() || suites.count("mp") != 0);
  const bool full = size == "full";
  std::vector<const ValidationCase*> todo;
  for (const auto& c : Registry::get().validation())
    if (suites.count(c.suite) && (full || !c.full_only) && (op_set.empty() || op_set.count(c.op))) todo.push_back(&c);
  if (!selects_something(op_set, todo.size(), "validate")) return 2;
  const double t0 = now_seconds();
  const std::vector<ValidationRecord> recs = run_cases(todo);
  int rc = 0;
  if (mp::rank() == 0) {
    RunInfo info{"validate", size, suite_arg, seconds_since(t0)};
    if (mp::size() > 1) std::fprintf(stderr, "trnsci validate: cases spread over %d MPI ranks\n", mp::size());
    print_validation_table(recs, info);
    if (!json.empty() && !write_file(json, to_json(recs, {}, info))) rc = 2;
    if (!html.empty() && !write_file(html, to_html(recs, {}, info))) rc = 2;
    for (const auto& r : recs)
      if (!r.r.pass && rc == 0) rc = 1;
    if (recs.empty() && rc == 0) rc = 1;
  }
  return mp::broadcast(rc);  // every rank exits with rank 0's code
}

// ops: "" (every row of the suites) or a comma list of op names (`--op spvv,axpby`): only those rows.
// threads: --threads (0: every hardware thread), the host rates' thread count (the emulator's and
// OpenBLAS's are set in main before any launch).
int run_bench(const std::string& suite_arg, const std::string& size, const std::vector<std::string>& targets,
              const std::string& json, const std::string& html, const std::string& ops = "", int threads = 0,
              int repeat = 1) {
  const auto suites = select_suites(suite_arg);
  if (suites.empty()) return 2;
  const std::set<std::string> op_set = op_names(ops);
  std::vector<trn::Generation> gens;
  for (const auto& t : targets) {
    trn::Generation g;
    if (!trn::parse_generation(t, &g)) {
      std::fprintf(stderr, "trnsci bench: unknown target '%s' (trn1, trn2, trn3)\n", t.c_str());
      return 2;
    }
    gens.push_back(g);
  }
  std::vector<std::pair<const BenchCase*, trn::Generation>> todo;
  for (const auto& c : Registry::get().bench())
    if (suites.count(c.suite) && (size == "full" || !c.full_only) && (op_set.empty() || op_set.count(c.op)))
      for (auto g : gens) todo.emplace_back(&c, g);
  if (!selects_something(op_set, todo.size(), "bench")) return 2;
  // MPI when a launcher started us: rows dealt round robin like validate's cases (row i on rank
  // i mod P), rank 0 gathers and prints the 1-rank table. Host times are each rank's own (ranks on
  // one host share its cores: the emulator-bound ratios are a loaded host's, docs/scale-out.md §10).
  const mp::Session session(mp::launched());
  const auto P = static_cast<std::size_t>(mp::size()), me = static_cast<std::size_t>(mp::rank());
  // The host rates of the emulator-bound column: rank 0's, measured before any rank starts a row.
  const HostRates host = me == 0 ? measure_host_rates(threads) : HostRates{};
  (void)mp::broadcast(0);
  const double t0 = now_seconds();
  std::vector<std::pair<std::size_t, std::string>> mine;  // (row, '1' + packed result | '0' + error)
  for (std::size_t i = me; i < todo.size(); i += P) {
    const auto& [c, g] = todo[i];
    const std::string target(trn::hardware_spec(g).name);
    const std::string what = c->suite + " " + c->op + " " + c->variant + " " + c->shape + " " + target;
    try {
      // --repeat N: the row runs N times and keeps its least host time (and the native library's),
      // the usual best-of-N of a benchmark on a shared machine; every other field is the first run's.
      BenchResult r = c->run(g);
      for (int k = 1; k < repeat; ++k) {
        const BenchResult again = c->run(g);
        r.host_seconds = std::min(r.host_seconds, again.host_seconds);
        if (again.native_seconds > 0) r.native_seconds = r.native_seconds > 0 ? std::min(r.native_seconds, again.native_seconds) : again.native_seconds;
      }
      mine.emplace_back(i, "1" + mp::pack(r));
      if (me == 0) progress(i, todo.size(), what, "done");
    } catch (const std::exception& e) {
      mine.emplace_back(i, std::string("0") + e.what());
      break;  // as on one rank: a row that fails ends the run (its later rows would not be printed)
    }
  }
  const auto gathered = mp::gather(mine);
  std::vector<BenchRecord> recs;
  int rc = 0;
  if (me == 0) {
    std::vector<const std::string*> by_row(todo.size(), nullptr);
    for (const auto& [i, bytes] : gathered) by_row[i] = &bytes;
    for (std::size_t i = 0; i < todo.size() && rc == 0; ++i) {
      const auto& [c, g] = todo[i];
      const std::string bytes = by_row[i] != nullptr ? *by_row[i] : "0not run";
      if (bytes.empty() || bytes[0] != '1') {  // the first failed row stops the table, as on one rank
        progress(i, todo.size(), c->suite + " " + c->op + " " + c->variant, "error: " + bytes.substr(1));
        rc = 1;
      } else {
        recs.push_back({c, std::string(trn::hardware_spec(g).name), mp::unpack_bench(bytes.substr(1))});
      }
    }
  }
  rc = mp::broadcast(rc);  // every rank exits with rank 0's code
  if (rc != 0 || me != 0) return rc;
  RunInfo info{"bench", size, suite_arg, seconds_since(t0), host};
  print_bench_table(recs, info);
  if (!json.empty() && !write_file(json, to_json({}, recs, info))) return 2;
  if (!html.empty() && !write_file(html, to_html({}, recs, info))) return 2;
  return 0;
}

}  // namespace
}  // namespace trnsci::cli

int main(int argc, char** argv) {
  using namespace trnsci::cli;
  CLI::App app{"trnsci: Trainium tile kernels on an emulated NeuronCore - validation, benchmarks, profiles"};
  app.require_subcommand(1);

  auto* validate = app.add_subcommand("validate", "run the accuracy-validation suites (exit code 0 iff every case passes)");
  std::string v_suite = "all", v_size = "quick", v_json, v_html;
  validate->add_option("--suite", v_suite, "all, or a comma list of suites (core, blas, rand, ...)");
  validate->add_option("--size", v_size, "quick (< 2 min) or full")->check(CLI::IsMember({"quick", "full"}));
  validate->add_option("--json", v_json, "write the results as JSON (schema: docs/cli.md)");
  validate->add_option("--html", v_html, "write a self-contained HTML report");
  std::string v_ops;
  validate->add_option("--op", v_ops, "only the cases of these ops, as the op column names them (a comma list; default: every case)");
  bool v_list = false;
  validate->add_flag("--list", v_list, "print the selected suites' cases (tab-separated: suite, library, op, mode, shape, size) without running them");

  auto* bench = app.add_subcommand("bench", "benchmark the algorithm variants: accuracy, host time, modeled device time");
  std::string b_suite = "all", b_size = "quick", b_json, b_html;
  std::vector<std::string> b_targets{"trn1"};
  bench->add_option("--suite", b_suite, "all, or a comma list of suites");
  bench->add_option("--size", b_size, "quick or full")->check(CLI::IsMember({"quick", "full"}));
  bench->add_option("--target", b_targets, "trn1, trn2, trn3 (repeatable)");
  bench->add_option("--json", b_json, "write the results as JSON");
  bench->add_option("--html", b_html, "write a self-contained HTML report");
  std::string b_ops;
  bench->add_option("--op", b_ops, "only the rows of these ops (a comma list, e.g. spvv,axpby; default: every row)");
  int b_threads = 0;
  bench->add_option("--threads", b_threads, "host threads of the emulator (TRN_NUM_THREADS), OpenBLAS and the emulator-bound "
                                            "host rates (default: every hardware thread)")
      ->check(CLI::Range(1, 1024));
  int b_repeat = 1;
  bench->add_option("--repeat", b_repeat, "run every row N times and print its least host time (best of N; default 1)")
      ->check(CLI::Range(1, 100));
  std::string b_clock = "wall";
  bench->add_option("--clock", b_clock, "wall (default) or cpu: host times and the emulator-bound host rates in process CPU "
                                        "seconds (every thread), for a loaded machine; use with --threads 1")
      ->check(CLI::IsMember({"wall", "cpu"}));
  bool b_no_crossover = false;
  bench->add_flag("--no-crossover", b_no_crossover, "sparse rows: print the dense path's time but skip the crossover-density "
                                                    "search (its re-runs take most of a sparse row's time)");
  bool b_list = false;
  bench->add_flag("--list", b_list, "print the selected suites' rows (tab-separated: suite, library, op, variant, shape, size) without running them");

  auto* profile = app.add_subcommand("profile", "run one routine of any library on the emulator and print its report "
                                                "(plan, modeled time, per-engine profile)");
  ProfileFlags pf;
  profile->add_option("op", pf.op, profile_op_list())->required();
  profile->add_option("--shape", pf.shape, "N, NxM or MxNxK (meaning and default per routine; see docs/cli.md)");
  profile->add_option("--mode", pf.mode, "gemm, syrk, fft: fp32, tf32, fp16, bf16, fp8_e4m3, fp8_e5m2, bf16x3, bf16x6, bf16x9");
  profile->add_option("--target", pf.target, "trn1, trn2 or trn3");
  profile->add_option("--trace", pf.trace_path, "write a Perfetto/Chrome trace-event JSON file");
  profile->add_option("--cores", pf.cores, "emulated NeuronCores the grid is spread over")->check(CLI::Range(1, 128));
  profile->add_option("--inputs", pf.input, "gemm: dtype A and B are stored in (f32: converted by the DMA to --mode's type; "
                                            "bf16 or f16: used as stored)")
      ->check(CLI::IsMember({"f32", "bf16", "f16"}));
  profile->add_option("--host-gflops", pf.host_gflops, "host CPU fp64 rate of the host round trips, GFLOP/s (default: the target's)")
      ->check(CLI::PositiveNumber);
  profile->add_option("--host-link-gbps", pf.host_link_gbps, "host link rate per direction, GB/s (default: the target's)")
      ->check(CLI::PositiveNumber);
  profile->add_option("--host-fixed-ns", pf.host_fixed_ns, "fixed cost of one host round trip, ns (default: the target's)")
      ->check(CLI::NonNegativeNumber);

  auto* info = app.add_subcommand("info", "print library versions, build, SIMD paths and the emulated generations");
  auto* modes = app.add_subcommand("modes", "print trnblas's precision-mode table (as docs/trnblas.md embeds it)");
  auto* demo = app.add_subcommand("demo", "tiled bf16 matmul walkthrough (see trnsci demo --help)");
  demo->allow_extras();
  demo->set_help_flag();

  if (argc > 1 && argv[1][0] != '-') {
    const std::string cmd = argv[1];
    // bench: OpenBLAS (the host-rate SGEMM, the native rows) with its best kernels for this CPU.
    if (cmd == "bench") trnsci::bench::use_native_openblas_kernels(argv);
    if (cmd != "validate" && cmd != "bench" && cmd != "profile" && cmd != "info" && cmd != "modes" && cmd != "demo") {
      std::fprintf(stderr, "trnsci: unknown command '%s' (validate, bench, profile, info, modes, demo; see trnsci --help)\n",
                   cmd.c_str());
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);  // prints the message (or the help text)
    return rc == 0 ? 0 : 2;      // usage errors exit with 2
  }
  try {
    if (*validate && v_list) return list_cases(v_suite, false);
    if (*bench && b_list) return list_cases(b_suite, true);
    if (*validate) return run_validate(v_suite, v_size, v_json, v_html, v_ops);
    if (*bench && b_clock == "cpu") set_bench_clock(BenchClock::process_cpu);
    if (*bench && b_threads > 0) {  // before any launch: the emulator reads TRN_NUM_THREADS per launch
      setenv("TRN_NUM_THREADS", std::to_string(b_threads).c_str(), 1);
      openblas_set_num_threads(b_threads);
    }
    if (*bench && b_no_crossover) skip_dense_crossover();
    if (*bench) return run_bench(b_suite, b_size, b_targets, b_json, b_html, b_ops, b_threads, b_repeat);
    if (*profile) return run_profile(pf);
    if (*info) return cmd_info();
    if (*modes) {
      std::fputs(trn::blas::mode_table_markdown().c_str(), stdout);
      return 0;
    }
    if (*demo) {
      std::vector<std::string> extra = demo->remaining();
      std::vector<char*> args;
      for (auto& s : extra) args.push_back(s.data());
      return cmd_demo(static_cast<int>(args.size()), args.data());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "trnsci: %s\n", e.what());
    return 1;
  }
  return 2;
}
