// libtrnsolver_lapack.so: settings from the environment (TRNSOLVER_LAPACK_TARGET, _NUMERICS), the
// TRNSOLVER_LAPACK_TRACE lines, and the per-routine outcome counts printed at exit. Contract:
// trnsolver_lapack.h.
#include <strings.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "abi_internal.hpp"

namespace trnsolver_lapack {
namespace {

std::mutex g_mu;  // the warnings, the trace destination and the counts

// Prints "unknown value" once per (variable, value) for the life of the process.
void warn_unknown(const char* var, const char* value, const char* expected, const char* fallback) {
  std::lock_guard<std::mutex> lock(g_mu);
  static auto* warned = new std::set<std::string>;  // never destroyed: calls may come from exit handlers
  if (!warned->insert(std::string(var) + '=' + value).second) return;
  std::fprintf(stderr, "trnsolver_lapack: warning: unknown %s=%s (expected %s); using %s\n", var, value, expected,
               fallback);
}

trn::Generation env_target() {
  const char* v = std::getenv("TRNSOLVER_LAPACK_TARGET");
  trn::Generation g = trn::Generation::trn1;
  if (v != nullptr && *v != '\0' && !trn::parse_generation(v, &g)) {
    warn_unknown("TRNSOLVER_LAPACK_TARGET", v, "trn1|trn2|trn3", "trn1");
    g = trn::Generation::trn1;
  }
  return g;
}

trn::Numerics env_numerics() {
  const char* v = std::getenv("TRNSOLVER_LAPACK_NUMERICS");
  if (v == nullptr || *v == '\0' || strcasecmp(v, "ideal") == 0) return trn::Numerics::ideal;
  if (strcasecmp(v, "trn1_measured") == 0) return trn::Numerics::trn1_measured;
  warn_unknown("TRNSOLVER_LAPACK_NUMERICS", v, "ideal|trn1_measured", "ideal");
  return trn::Numerics::ideal;
}

// The trace destination for the current value of TRNSOLVER_LAPACK_TRACE (reopened when it changed),
// or nullptr. Called with g_mu held.
FILE* trace_file_locked() {
  static auto* dest = new std::string;  // never destroyed: the exit summary writes through it
  static FILE* f = nullptr;
  const char* v = std::getenv("TRNSOLVER_LAPACK_TRACE");
  if (v == nullptr || *v == '\0' || std::strcmp(v, "0") == 0) return nullptr;
  if (*dest != v) {
    if (f != nullptr && f != stderr) std::fclose(f);
    *dest = v;
    f = (*dest == "1" || *dest == "stderr") ? stderr : std::fopen(v, "a");
    if (f == nullptr) std::fprintf(stderr, "trnsolver_lapack: warning: cannot open TRNSOLVER_LAPACK_TRACE=%s\n", v);
  }
  return f;
}

struct Counts {
  long long by_outcome[5] = {};
};
// Per symbol, in name order (the exit summary's order). Never destroyed: calls may come from other
// exit handlers after the summary.
std::map<std::string, Counts>& counts_locked() {
  static auto* counts = new std::map<std::string, Counts>;
  return *counts;
}

void write_line_locked(const char* line) {
  FILE* f = trace_file_locked();
  if (f == nullptr) return;
  std::fputs(line, f);
  std::fputc('\n', f);
  std::fflush(f);
}

// At exit (library destructor): one summary line per routine called, when tracing.
__attribute__((destructor)) void print_summary() {
  std::lock_guard<std::mutex> lock(g_mu);
  if (trace_file_locked() == nullptr) return;
  for (const auto& [symbol, c] : counts_locked()) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "trnsolver_lapack: summary %s answered=%lld passed=%lld bad_args=%lld unanswered=%lld failed=%lld",
                  symbol.c_str(), c.by_outcome[0], c.by_outcome[1], c.by_outcome[2], c.by_outcome[3], c.by_outcome[4]);
    write_line_locked(line);
  }
}

}  // namespace

Settings settings_from_env() {
  Settings s;
  s.target = env_target();
  s.numerics = env_numerics();
  return s;
}

bool trace_requested() {
  const char* v = std::getenv("TRNSOLVER_LAPACK_TRACE");
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

void record(const Entry& e, const char* args, Outcome o, const char* detail) {
  std::lock_guard<std::mutex> lock(g_mu);
  ++counts_locked()[e.symbol].by_outcome[static_cast<int>(o)];
  if (!trace_requested()) return;
  char line[512];
  std::snprintf(line, sizeof line, "trnsolver_lapack %s %s -> %s", e.symbol, args, detail);
  write_line_locked(line);
}

void record_answered(const Entry& e, const char* args, int info, const CallReport* report) {
  char detail[160];
  if (report == nullptr)
    std::snprintf(detail, sizeof detail, "answered info=%d", info);
  else
    std::snprintf(detail, sizeof detail, "answered info=%d instructions=%lld host_steps=%lld host_fp64_flops=%.0f",
                  info, static_cast<long long>(report->profile.total_instructions),
                  static_cast<long long>(report->profile.host_steps), report->host_fp64_flops);
  record(e, args, Outcome::answered, detail);
}

}  // namespace trnsolver_lapack
