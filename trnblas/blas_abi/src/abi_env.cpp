// libtrnblas_blas.so: configuration from the environment (TRNBLAS_TARGET, TRNBLAS_NUMERICS,
// TRNBLAS_COMPUTE), the TRNBLAS_BLAS_TRACE lines, the TRNBLAS_BLAS_COUNT totals and the
// TRNBLAS_BLAS_PROFILE CPU times. Contract:
// trnblas_blas.h.
#include <strings.h>
#include <time.h>

#include <unistd.h>

#include <array>
#include <cctype>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "abi_internal.hpp"

namespace trnblas_abi {
namespace {

template <class T>
struct Choice {
  const char* name;
  T value;
};

constexpr Choice<trn::Generation> kTargetChoices[] = {
    {"trn1", trn::Generation::trn1}, {"trn2", trn::Generation::trn2}, {"trn3", trn::Generation::trn3}};
constexpr Choice<trn::Numerics> kNumericsChoices[] = {{"ideal", trn::Numerics::ideal},
                                                      {"trn1_measured", trn::Numerics::trn1_measured}};

// The TRNBLAS_* variables, read on every call (trnblas_blas.h), but not by six getenv scans of the
// whole environment per call (~2300 instructions, 15-20 % of a short Level 1 call in a ~150-variable
// environment): the values are taken in one scan and kept per thread with the environment's entry
// pointers they came from. The first read of a call compares those pointers (one load each; setenv,
// unsetenv and putenv always change an entry pointer or the array) and scans again when any
// differs; the call's later reads reuse the result (an inline test: checked_env), and
// env_call_done() (the end of every call: run(), report_info(), report_cblas()) makes the next call
// check again. Rewriting the characters of a string already handed to putenv is caught by comparing
// each set TRNBLAS_ variable's text (values_edited), once the entries are known to be the same.
// Session 24 tried exporting counted setenv / unsetenv / putenv / clearenv so that the comparison
// became two loads (~4 % of xlintsts < cut_SGB.in); a review found changes it missed (an
// RTLD_DEEPBIND load binds libc's setenv while dlsym(RTLD_DEFAULT) in the shim finds its own; a new
// environ array at a reused address; wordexp's internal __setenv) and it was taken out: a BLAS
// library does not interpose libc.
enum class Var : std::uint8_t { target, numerics, compute, trace, count, profile };
constexpr const char* kVarNames[] = {"TRNBLAS_TARGET", "TRNBLAS_NUMERICS", "TRNBLAS_COMPUTE",
                                     "TRNBLAS_BLAS_TRACE", "TRNBLAS_BLAS_COUNT", "TRNBLAS_BLAS_PROFILE"};
constexpr std::size_t kVars = sizeof kVarNames / sizeof kVarNames[0];

struct EnvCache {
  std::vector<char*> entries{nullptr};     // the entry pointers at the last scan, nullptr-terminated
  std::size_t count = 0;                   // entries before that nullptr
  char** array = nullptr;                  // and the array that held them
  bool checked = false;                    // compared during the current call
  std::array<const char*, kVars> value{};  // getenv's answer for each variable (nullptr: unset)
  // What the values say, worked out once per scan instead of once or more per call (session 22: the
  // seven reads of a call and the parse of TRNBLAS_TARGET / _NUMERICS / _COMPUTE were ~40 % of the
  // shim's ~700 host instructions per Level 1 call): the on/off switches at the scan, each Config
  // (fp32 routines, fp64 routines) at its first use after the scan, so that an unknown value is
  // warned about at the same call as before (the first that reads it; the warning is printed once
  // per process either way).
  bool trace_on = false, count_on = false, profile_on = false;
  // The text of each set variable at the scan: a putenv()'d string edited in place changes the
  // environment (POSIX) without changing any entry pointer, and the values worked out above must
  // follow it as the per-call reads they replace did. Compared once per call; nothing when no
  // TRNBLAS_ variable is set.
  std::array<std::string, kVars> text{};
  std::array<std::uint8_t, kVars> set_vars{};
  std::size_t nset = 0;
  std::array<Config, 2> config{};           // [fp64]
  std::array<bool, 2> config_ready{};
};

// The calling thread's cache. Never destroyed (one small allocation per thread): calls may come from
// exit handlers. A plain pointer with the initial-exec TLS model: one %fs-relative load per use,
// where a thread_local with a dynamic initializer in a shared library costs a __tls_get_addr call
// and an init-guard test per use (~7 uses a call; __tls_get_addr was 1.8 % of xeigtstd < dec.in).
// Only when core and trnblas are shared libraries (TRNBLAS_ABI_INITIAL_EXEC_TLS, set by CMake): one
// initial-exec access marks the whole module DF_STATIC_TLS, and glibc must then fit the module's
// entire TLS block into its small static-TLS surplus when the shim is dlopen'ed (from Python, say).
// The shared shim's block is this 8-byte pointer; with BUILD_SHARED_LIBS=OFF, core's and trnblas's
// thread_locals (~7 KB) are linked in and would not fit, so that build keeps the default model.
#if TRNBLAS_ABI_INITIAL_EXEC_TLS
#define TRNBLAS_ABI_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define TRNBLAS_ABI_TLS_MODEL
#endif
thread_local EnvCache* t_env_cache TRNBLAS_ABI_TLS_MODEL = nullptr;

EnvCache& env_cache() {
  EnvCache* c = t_env_cache;
  if (c == nullptr) [[unlikely]]
    t_env_cache = c = new EnvCache;
  return *c;
}

// True when the environment array holds exactly the entry pointers of the last scan. The entries
// of that scan are non-null, so an entry equal to one of them is not the terminator and the next
// entry exists: every read below is of an entry the current array holds (as the loop it replaces,
// which tested each entry for nullptr too). Four entries per test: a branch per entry, not three.
[[gnu::always_inline]] inline bool same_entries(char* const* ep, const EnvCache& cache) {
  const char* const* c = cache.entries.data();
  const std::size_t n = cache.count;
  std::size_t k = 0;
  for (; k + 4 <= n; k += 4)
    if (ep[k] != c[k] || ep[k + 1] != c[k + 1] || ep[k + 2] != c[k + 2] || ep[k + 3] != c[k + 3]) return false;
  for (; k < n; ++k)
    if (ep[k] != c[k]) return false;
  return ep[n] == nullptr;
}

[[gnu::noinline]] void env_scan(EnvCache& cache, char** ep) {
  std::size_t n = 0;
  if (ep != nullptr)
    while (ep[n] != nullptr) ++n;
  cache.array = ep;
  cache.count = n;
  cache.entries.assign(ep, ep + n);
  cache.entries.push_back(nullptr);
  cache.value.fill(nullptr);
  constexpr std::size_t kPrefix = 8;  // "TRNBLAS_"
  for (std::size_t i = 0; i < n; ++i) {
    const char* e = ep[i];
    if (std::strncmp(e, "TRNBLAS_", kPrefix) != 0) continue;
    const char* eq = std::strchr(e, '=');
    if (eq == nullptr) continue;
    const auto len = static_cast<std::size_t>(eq - e);
    for (std::size_t v = 0; v < kVars; ++v)  // getenv's answer is the first matching entry
      if (cache.value[v] == nullptr && std::strlen(kVarNames[v]) == len && std::strncmp(e, kVarNames[v], len) == 0)
        cache.value[v] = eq + 1;
  }
  cache.nset = 0;
  for (std::size_t v = 0; v < kVars; ++v)
    if (cache.value[v] != nullptr) {
      cache.text[v] = cache.value[v];
      cache.set_vars[cache.nset++] = static_cast<std::uint8_t>(v);
    }
  // "unset or 0: off" (trnblas_blas.h), for the three switches read on every call.
  const auto on = [&](Var v) {
    const char* s = cache.value[static_cast<std::size_t>(v)];
    return s != nullptr && *s != '\0' && std::strcmp(s, "0") != 0;
  };
  cache.trace_on = on(Var::trace);
  cache.count_on = on(Var::count);
  cache.profile_on = on(Var::profile);
  cache.config_ready.fill(false);
}

// True when a set variable's string no longer reads as it did at the scan (edited in place).
[[gnu::always_inline]] inline bool values_edited(const EnvCache& cache) {
  for (std::size_t i = 0; i < cache.nset; ++i) {
    const std::size_t v = cache.set_vars[i];
    if (std::strcmp(cache.value[v], cache.text[v].c_str()) != 0) return true;
  }
  return false;
}

// checked_env's first use in a call (or after `environ` moved): compares, and scans when needed.
[[gnu::noinline]] EnvCache& check_env() {
  EnvCache& cache = env_cache();
  char** const ep = environ;
  // The same array with the same entries (a null array: none, as at the last scan), else scan again.
  // values_edited reads the kept entries' text only once they are known to be the environment's.
  if (ep != cache.array || (ep == nullptr ? cache.count != 0 : !same_entries(ep, cache)) || values_edited(cache))
    env_scan(cache, ep);
  cache.checked = true;
  return cache;
}

// The calling thread's cache, compared with the environment once per call: the later uses of a
// call (~5 per call) take the inline test alone, with no call and no register saves.
inline EnvCache& checked_env() {
  EnvCache* c = t_env_cache;
  if (c != nullptr && c->checked && environ == c->array) [[likely]]
    return *c;
  return check_env();
}

const char* env_value(Var var) { return checked_env().value[static_cast<std::size_t>(var)]; }

}  // namespace

void env_call_done() { env_cache().checked = false; }

namespace {

std::mutex g_warn_mu;

// Prints "unknown value" once per (variable, value) for the life of the process.
void warn_unknown(const char* var, const char* value, const std::string& expected, const char* fallback) {
  std::lock_guard<std::mutex> lock(g_warn_mu);
  static std::set<std::string> warned;
  if (!warned.insert(std::string(var) + '=' + value).second) return;
  std::fprintf(stderr, "trnblas_blas: warning: unknown %s=%s (expected %s); using %s\n", var, value, expected.c_str(),
               fallback);
}

// The value of `var` among `choices` (case-insensitive); the first choice if unset, empty or unknown.
template <class T, std::size_t N>
T env_choice(Var which, const Choice<T> (&choices)[N]) {
  const char* var = kVarNames[static_cast<std::size_t>(which)];
  const char* v = env_value(which);
  if (v == nullptr || *v == '\0') return choices[0].value;
  for (const auto& c : choices)
    if (strcasecmp(v, c.name) == 0) return c.value;
  std::string expected;
  for (const auto& c : choices) expected += (expected.empty() ? "" : "|") + std::string(c.name);
  warn_unknown(var, v, expected, choices[0].name);
  return choices[0].value;
}

bool fp32_input_mode(GemmMode m) { return m != GemmMode::fp64_ozaki && m != GemmMode::native; }

// TRNBLAS_COMPUTE: any fp32-input mode of the precision-mode table (case-insensitive), fp32 if unset.
GemmMode env_mode(Var which) {
  const char* var = kVarNames[static_cast<std::size_t>(which)];
  const char* v = env_value(which);
  if (v == nullptr || *v == '\0') return GemmMode::fp32;
  std::string lower(v);
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const trn::blas::ModeTraits* t = trn::blas::mode_by_name(lower);
  if (t != nullptr && fp32_input_mode(t->mode)) return t->mode;
  std::string expected;
  for (const auto& m : trn::blas::mode_table())
    if (fp32_input_mode(m.mode)) expected += (expected.empty() ? "" : "|") + std::string(m.name);
  warn_unknown(var, v, expected, "fp32");
  return GemmMode::fp32;
}

template <class T, std::size_t N>
const char* choice_name(const Choice<T> (&choices)[N], T value) {
  for (const auto& c : choices)
    if (c.value == value) return c.name;
  return "?";
}

// Appends one line to the trace destination, (re)opening it when the variable changed.
void trace_write(const char* line) {
  static std::mutex mu;
  static std::string* dest = new std::string;  // never destroyed: calls may come from exit handlers
  static FILE* f = nullptr;
  const char* v = env_value(Var::trace);
  if (v == nullptr || *v == '\0' || std::strcmp(v, "0") == 0) return;
  std::lock_guard<std::mutex> lock(mu);
  if (*dest != v) {
    if (f != nullptr && f != stderr) std::fclose(f);
    *dest = v;
    f = (*dest == "1" || *dest == "stderr") ? stderr : std::fopen(v, "a");
    if (f == nullptr) std::fprintf(stderr, "trnblas_blas: warning: cannot open TRNBLAS_BLAS_TRACE=%s\n", v);
  }
  if (f == nullptr) return;
  std::fputs(line, f);
  std::fputc('\n', f);
  std::fflush(f);
}

// TRNBLAS_BLAS_COUNT: calls per entry point, kept in memory (no trace, no I/O per call) and written
// once at exit, so an untraced run still says how many calls the shim answered.
struct CallCounts {
  std::mutex mu;
  // (symbol, CBLAS layout) string literals -> calls: no string built per call; merged by text at exit.
  std::map<std::pair<const char*, const char*>, long long> by_entry;
  std::string path;
};

CallCounts* call_counts() {  // never destroyed: calls may come from other exit handlers
  static CallCounts* counts = new CallCounts;
  return counts;
}

// The atexit handler: "<calls> <symbol>" lines, most called first, then "<total> total".
void write_call_counts() {
  CallCounts& c = *call_counts();
  std::lock_guard<std::mutex> lock(c.mu);
  FILE* f = std::fopen(c.path.c_str(), "w");
  if (f == nullptr) {
    std::fprintf(stderr, "trnblas_blas: warning: cannot open TRNBLAS_BLAS_COUNT=%s\n", c.path.c_str());
    return;
  }
  std::map<std::string, long long> by_symbol;
  for (const auto& [entry, calls] : c.by_entry) by_symbol[std::string(entry.first) + entry.second] += calls;
  std::multimap<long long, const std::string*, std::greater<>> by_calls;
  long long total = 0;
  for (const auto& [symbol, calls] : by_symbol) {
    by_calls.emplace(calls, &symbol);
    total += calls;
  }
  for (const auto& [calls, symbol] : by_calls) std::fprintf(f, "%lld %s\n", calls, symbol->c_str());
  std::fprintf(f, "%lld total\n", total);
  std::fclose(f);
}

// TRNBLAS_BLAS_PROFILE: calls and the calling thread's CPU time per entry point (the shim's whole
// call: checks, the trnblas call, its launches), kept in memory and written once at exit. A
// measuring tool for the per-call cost of a client (docs/trnblas.md, LAPACK's test programs).
struct CallProfile {
  std::mutex mu;
  std::map<std::pair<const char*, const char*>, std::pair<long long, long long>> by_entry;  // calls, ns
  std::string path;
};

CallProfile* call_profile() {  // never destroyed: calls may come from other exit handlers
  static CallProfile* profile = new CallProfile;
  return profile;
}

// "<calls> <CPU s> <CPU us per call> <share %> <entry point>" lines, most CPU first, then the totals.
void write_call_profile() {
  CallProfile& c = *call_profile();
  std::lock_guard<std::mutex> lock(c.mu);
  FILE* f = std::fopen(c.path.c_str(), "w");
  if (f == nullptr) {
    std::fprintf(stderr, "trnblas_blas: warning: cannot open TRNBLAS_BLAS_PROFILE=%s\n", c.path.c_str());
    return;
  }
  std::map<std::string, std::pair<long long, long long>> by_symbol;
  for (const auto& [entry, v] : c.by_entry) {
    auto& t = by_symbol[std::string(entry.first) + entry.second];
    t.first += v.first;
    t.second += v.second;
  }
  std::multimap<long long, std::pair<const std::string*, long long>, std::greater<>> by_ns;
  long long calls = 0, ns = 0;
  for (const auto& [symbol, v] : by_symbol) {
    by_ns.emplace(v.second, std::make_pair(&symbol, v.first));
    calls += v.first;
    ns += v.second;
  }
  for (const auto& [t, sv] : by_ns)
    std::fprintf(f, "%lld %.6f %.2f %.1f %s\n", sv.second, 1e-9 * static_cast<double>(t),
                 1e-3 * static_cast<double>(t) / static_cast<double>(sv.second),
                 ns > 0 ? 100.0 * static_cast<double>(t) / static_cast<double>(ns) : 0.0, sv.first->c_str());
  std::fprintf(f, "%lld %.6f %.2f 100.0 total\n", calls, 1e-9 * static_cast<double>(ns),
               calls > 0 ? 1e-3 * static_cast<double>(ns) / static_cast<double>(calls) : 0.0);
  std::fclose(f);
}

long long thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

}  // namespace

void count_call(const Entry& e) {
  // Read on every call (as TRNBLAS_BLAS_TRACE); the file named at the first counted call gets the
  // totals of every counted call, written at exit.
  const EnvCache& env = checked_env();
  if (!env.count_on) return;
  const char* path = env.value[static_cast<std::size_t>(Var::count)];
  CallCounts& c = *call_counts();
  std::lock_guard<std::mutex> lock(c.mu);
  if (c.path.empty()) {
    c.path = path;
    std::atexit(write_call_counts);
  }
  ++c.by_entry[{e.symbol, e.layout}];
}

CallStart call_start(const Entry& e) {
  const EnvCache& env = checked_env();
  if (env.count_on) count_call(e);
  return {env.profile_on ? profile_start() : -1, env.trace_on};
}

long long profile_start() {
  const EnvCache& env = checked_env();
  if (!env.profile_on) return -1;
  const char* path = env.value[static_cast<std::size_t>(Var::profile)];
  CallProfile& c = *call_profile();
  {
    std::lock_guard<std::mutex> lock(c.mu);
    if (c.path.empty()) {
      c.path = path;
      std::atexit(write_call_profile);
    }
  }
  return thread_cpu_ns();
}

void profile_call(const Entry& e, long long start_ns) {
  const long long ns = thread_cpu_ns() - start_ns;
  CallProfile& c = *call_profile();
  std::lock_guard<std::mutex> lock(c.mu);
  auto& v = c.by_entry[{e.symbol, e.layout}];
  ++v.first;
  v.second += ns;
}

Config config_from_env(bool fp64) {
  EnvCache& env = checked_env();
  const std::size_t k = fp64 ? 1 : 0;
  if (!env.config_ready[k]) {  // the first use since the last scan
    Config c;
    c.settings.target = env_choice(Var::target, kTargetChoices);
    c.settings.numerics = env_choice(Var::numerics, kNumericsChoices);
    c.settings.dgemm_dot2_max_macs = trn::blas::kDot2MaxMacs;  // a caller's own small fp64 calls: Dot2 (blas.hpp)
    c.mode = fp64 ? GemmMode::fp64_ozaki : env_mode(Var::compute);
    env.config[k] = c;
    env.config_ready[k] = true;
  }
  return env.config[k];
}

bool trace_requested() { return checked_env().trace_on; }

void trace_args(char* buf, std::size_t size, const char* format, ...) {
  if (size == 0) return;
  buf[0] = '\0';
  if (!trace_requested()) return;
  va_list ap;
  va_start(ap, format);
  std::vsnprintf(buf, size, format, ap);
  va_end(ap);
}

void trace_outcome(const Entry& e, const char* args, const char* outcome) {
  char line[512];
  std::snprintf(line, sizeof line, "trnblas_blas %s%s %s -> %s", e.symbol, e.layout, args, outcome);
  trace_write(line);
}

void trace_done(const Entry& e, const char* args, const Config& cfg, const trn::blas::CallReport& report) {
  char outcome[192];
  std::snprintf(outcome, sizeof outcome, "compute=%s target=%s numerics=%s tensor_passes=%lld instructions=%lld",
                trn::blas::gemm_mode_name(cfg.mode), choice_name(kTargetChoices, cfg.settings.target),
                choice_name(kNumericsChoices, cfg.settings.numerics), static_cast<long long>(report.tensor_passes),
                static_cast<long long>(report.profile.total_instructions));
  trace_outcome(e, args, outcome);
}

void report_exception(const Entry& e, const char* args, const std::exception& ex, bool trace) {
  std::fprintf(stderr, "trnblas_blas: %s failed: %s\n", e.symbol, ex.what());
  if (trace) trace_outcome(e, args, "exception");
}

}  // namespace trnblas_abi

