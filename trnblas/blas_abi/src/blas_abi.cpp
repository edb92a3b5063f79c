// libtrnblas_blas.so: the Fortran BLAS and CBLAS entry points SGEMM, DGEMM, SSYRK, DSYRK, STRSM,
// DTRSM, STRMM, DTRMM, SSYMM, DSYMM, SSYR2K, DSYR2K, CGEMM, ZGEMM, the complex Level 3 routines
// (C/Z TRSM, TRMM, SYMM, HEMM, SYRK, HERK, SYR2K, HER2K) and the Level 1 and 2 routines of
// trnblas on top of the trnblas C++ API (trn/blas/blas.hpp, level3.hpp, level12.hpp). This file
// checks arguments in reference-BLAS order, reads the environment, maps CBLAS layouts and reports
// errors; every product runs in trnblas (tile kernels on the emulated NeuronCore, or its host-side
// fp64 paths): no arithmetic on the outputs happens here (complex CBLAS row-major calls flip signs
// of imaginary parts, as reference CBLAS does). Contract and
// environment variables: trnblas_blas.h.
#include "trnblas_blas.h"

#include <strings.h>

#include <algorithm>
#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <set>
#include <string>
#include <complex>
#include <type_traits>
#include <utility>
#include <vector>
#include <initializer_list>

#include "trn/blas/blas.hpp"
#include "trn/blas/level12.hpp"
#include "trn/blas/level3.hpp"
#include "trn/blas/modes.hpp"

// Reference CBLAS's globals (cblas_globals.c): RowMajorStrg says a row-major call is in progress so
// that cblas_xerbla can undo the operand swap in the parameter number; CBLAS_CallFromC is set for
// the duration of every CBLAS call. Exported because programs built against reference CBLAS (its
// test programs among them) reference them.
extern "C" {
int RowMajorStrg = 0;     // NOLINT: reference CBLAS name
int CBLAS_CallFromC = 0;  // NOLINT: reference CBLAS name
// Reference CBLAS's handler (its cblas.h declares it); defined weak at the end of this file.
void cblas_xerbla(int info, const char* rout, const char* form, ...);
}

namespace {

using trn::blas::GemmMode;
using trn::blas::Op;
using trn::blas::Uplo;

// The same flag as RowMajorStrg, per thread: what this library's own cblas_xerbla reads, so that
// concurrent CBLAS calls on other threads cannot change a message.
thread_local bool t_row_major = false;

// ---- configuration from the environment ---------------------------------------------------------

template <class T>
struct Choice {
  const char* name;
  T value;
};

constexpr Choice<trn::Generation> kTargetChoices[] = {
    {"trn1", trn::Generation::trn1}, {"trn2", trn::Generation::trn2}, {"trn3", trn::Generation::trn3}};
constexpr Choice<trn::Numerics> kNumericsChoices[] = {{"ideal", trn::Numerics::ideal},
                                                      {"trn1_measured", trn::Numerics::trn1_measured}};

std::mutex g_warn_mu;

// Prints "unknown value" once per (variable, value) for the life of the process.
template <class T, std::size_t N>
void warn_unknown(const char* var, const char* value, const Choice<T> (&choices)[N]) {
  std::lock_guard<std::mutex> lock(g_warn_mu);
  static std::set<std::string> warned;
  if (!warned.insert(std::string(var) + '=' + value).second) return;
  std::string expected;
  for (const auto& c : choices) expected += (expected.empty() ? "" : "|") + std::string(c.name);
  std::fprintf(stderr, "trnblas_blas: warning: unknown %s=%s (expected %s); using %s\n", var, value, expected.c_str(),
               choices[0].name);
}

// The value of `var` among `choices` (case-insensitive); the first choice if unset, empty or unknown.
template <class T, std::size_t N>
T env_choice(const char* var, const Choice<T> (&choices)[N]) {
  const char* v = std::getenv(var);
  if (v == nullptr || *v == '\0') return choices[0].value;
  for (const auto& c : choices)
    if (strcasecmp(v, c.name) == 0) return c.value;
  warn_unknown(var, v, choices);
  return choices[0].value;
}

// TRNBLAS_COMPUTE: any fp32-input mode of the precision-mode table (case-insensitive), fp32 if unset.
GemmMode env_mode(const char* var) {
  const char* v = std::getenv(var);
  if (v == nullptr || *v == '\0') return GemmMode::fp32;
  std::string lower(v);
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const trn::blas::ModeTraits* t = trn::blas::mode_by_name(lower);
  if (t != nullptr && t->mode != GemmMode::fp64_ozaki && t->mode != GemmMode::native) return t->mode;
  std::lock_guard<std::mutex> lock(g_warn_mu);
  static std::set<std::string> warned;
  if (warned.insert(std::string(var) + '=' + v).second) {
    std::string expected;
    for (const auto& m : trn::blas::mode_table())
      if (m.mode != GemmMode::fp64_ozaki && m.mode != GemmMode::native) expected += (expected.empty() ? "" : "|") + std::string(m.name);
    std::fprintf(stderr, "trnblas_blas: warning: unknown %s=%s (expected %s); using fp32\n", var, v, expected.c_str());
  }
  return GemmMode::fp32;
}

struct Config {
  trn::blas::Settings settings;  // host threads: TRN_NUM_THREADS, read by the core's launcher
  GemmMode mode = GemmMode::fp32;
};

template <class T>
Config config_from_env() {
  Config c;
  c.settings.target = env_choice("TRNBLAS_TARGET", kTargetChoices);
  c.settings.numerics = env_choice("TRNBLAS_NUMERICS", kNumericsChoices);
  c.mode = std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>> ? GemmMode::fp64_ozaki
                                                                                : env_mode("TRNBLAS_COMPUTE");
  return c;
}

template <class T, std::size_t N>
const char* choice_name(const Choice<T> (&choices)[N], T value) {
  for (const auto& c : choices)
    if (c.value == value) return c.name;
  return "?";
}

// ---- TRNBLAS_BLAS_TRACE -------------------------------------------------------------------------

bool trace_requested() {
  const char* v = std::getenv("TRNBLAS_BLAS_TRACE");
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

// Appends one line to the trace destination, (re)opening it when the variable changed.
void trace_write(const char* line) {
  static std::mutex mu;
  static std::string* dest = new std::string;  // never destroyed: calls may come from exit handlers
  static FILE* f = nullptr;
  const char* v = std::getenv("TRNBLAS_BLAS_TRACE");
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

// ---- entry points and error reporting -----------------------------------------------------------

// Which public symbol a call came through: decides the error handler and the trace name.
struct Entry {
  const char* symbol;      // "sgemm_", "cblas_sgemm", ...
  const char* srname;      // Fortran XERBLA name, blank-padded to 6: "SGEMM "
  bool cblas = false;
  const char* layout = "";  // CBLAS entry points: " layout=col" or " layout=row"
};

void trace_outcome(const Entry& e, const char* args, const char* outcome) {
  char line[512];
  std::snprintf(line, sizeof line, "trnblas_blas %s%s %s -> %s", e.symbol, e.layout, args, outcome);
  trace_write(line);
}

// A Fortran-level INFO: xerbla_ for Fortran entry points; cblas_xerbla(INFO + 1) for CBLAS ones
// (CBLAS prepends the layout argument). For row-major calls INFO refers to the operand-swapped
// column-major call; cblas_xerbla maps it back (reference CBLAS's convention, cblas_xerbla.c).
void report_info(const Entry& e, const char* args, int info) {
  const int handed = e.cblas ? info + 1 : info;
  if (trace_requested()) {
    char outcome[32];
    std::snprintf(outcome, sizeof outcome, "xerbla(%d)", handed);
    trace_outcome(e, args, outcome);
  }
  if (e.cblas)
    cblas_xerbla(handed, e.symbol, "");
  else
    xerbla_(e.srname, &info, std::strlen(e.srname));
}

// An error found before the Fortran-level checks (CBLAS layout, transpose and uplo arguments).
void report_cblas(const Entry& e, int position, const char* form, int value) {
  if (trace_requested()) {
    char outcome[32];
    std::snprintf(outcome, sizeof outcome, "xerbla(%d)", position);
    trace_outcome(e, "", outcome);
  }
  cblas_xerbla(position, e.symbol, form, value);
}

// Sets and clears reference CBLAS's globals around a CBLAS call, as reference CBLAS does.
class CblasCall {
 public:
  CblasCall() {
    RowMajorStrg = 0;
    CBLAS_CallFromC = 1;
    t_row_major = false;
  }
  ~CblasCall() {
    CBLAS_CallFromC = 0;
    RowMajorStrg = 0;
    t_row_major = false;
  }
  CblasCall(const CblasCall&) = delete;
  CblasCall& operator=(const CblasCall&) = delete;
  void set_row_major() {
    RowMajorStrg = 1;
    t_row_major = true;
  }
};

// ---- argument checks, in reference BLAS order ---------------------------------------------------

// LSAME: the first character, either case.
bool lsame(char a, char b) { return a == b || (a >= 'a' && a <= 'z' && a - 'a' + 'A' == b); }

// SGEMM/DGEMM INFO: 1 transa, 2 transb, 3 m, 4 n, 5 k, 8 lda, 10 ldb, 13 ldc (0: valid).
int gemm_info(char ta, char tb, int m, int n, int k, int lda, int ldb, int ldc) {
  const bool nota = lsame(ta, 'N'), notb = lsame(tb, 'N');
  const int nrowa = nota ? m : k, nrowb = notb ? k : n;
  if (!nota && !lsame(ta, 'C') && !lsame(ta, 'T')) return 1;
  if (!notb && !lsame(tb, 'C') && !lsame(tb, 'T')) return 2;
  if (m < 0) return 3;
  if (n < 0) return 4;
  if (k < 0) return 5;
  if (lda < std::max(1, nrowa)) return 8;
  if (ldb < std::max(1, nrowb)) return 10;
  if (ldc < std::max(1, m)) return 13;
  return 0;
}

// trans is one of `accepted` (real: N, T, C; CSYRK/CSYR2K: N, T; CHERK/CHER2K: N, C).
bool trans_in(char trans, const char* accepted) {
  for (; *accepted != '\0'; ++accepted)
    if (lsame(trans, *accepted)) return true;
  return false;
}

// SSYRK/DSYRK (and C/Z SYRK, HERK) INFO: 1 uplo, 2 trans, 3 n, 4 k, 7 lda, 10 ldc (0: valid).
int syrk_info(char uplo, char trans, int n, int k, int lda, int ldc, const char* accepted = "NTC") {
  const int nrowa = lsame(trans, 'N') ? n : k;
  if (!lsame(uplo, 'U') && !lsame(uplo, 'L')) return 1;
  if (!trans_in(trans, accepted)) return 2;
  if (n < 0) return 3;
  if (k < 0) return 4;
  if (lda < std::max(1, nrowa)) return 7;
  if (ldc < std::max(1, n)) return 10;
  return 0;
}

// STRSM/STRMM (and D) INFO: 1 side, 2 uplo, 3 transa, 4 diag, 5 m, 6 n, 9 lda, 11 ldb (0: valid).
int triangular_info(char side, char uplo, char ta, char diag, int m, int n, int lda, int ldb) {
  const int nrowa = lsame(side, 'L') ? m : n;
  if (!lsame(side, 'L') && !lsame(side, 'R')) return 1;
  if (!lsame(uplo, 'U') && !lsame(uplo, 'L')) return 2;
  if (!lsame(ta, 'N') && !lsame(ta, 'T') && !lsame(ta, 'C')) return 3;
  if (!lsame(diag, 'U') && !lsame(diag, 'N')) return 4;
  if (m < 0) return 5;
  if (n < 0) return 6;
  if (lda < std::max(1, nrowa)) return 9;
  if (ldb < std::max(1, m)) return 11;
  return 0;
}

// SSYMM/DSYMM INFO: 1 side, 2 uplo, 3 m, 4 n, 7 lda, 9 ldb, 12 ldc (0: valid).
int symm_info(char side, char uplo, int m, int n, int lda, int ldb, int ldc) {
  const int nrowa = lsame(side, 'L') ? m : n;
  if (!lsame(side, 'L') && !lsame(side, 'R')) return 1;
  if (!lsame(uplo, 'U') && !lsame(uplo, 'L')) return 2;
  if (m < 0) return 3;
  if (n < 0) return 4;
  if (lda < std::max(1, nrowa)) return 7;
  if (ldb < std::max(1, m)) return 9;
  if (ldc < std::max(1, m)) return 12;
  return 0;
}

// SSYR2K/DSYR2K (and C/Z SYR2K, HER2K) INFO: 1 uplo, 2 trans, 3 n, 4 k, 7 lda, 9 ldb, 12 ldc.
int syr2k_info(char uplo, char trans, int n, int k, int lda, int ldb, int ldc, const char* accepted = "NTC") {
  const int nrowa = lsame(trans, 'N') ? n : k;
  if (!lsame(uplo, 'U') && !lsame(uplo, 'L')) return 1;
  if (!trans_in(trans, accepted)) return 2;
  if (n < 0) return 3;
  if (k < 0) return 4;
  if (lda < std::max(1, nrowa)) return 7;
  if (ldb < std::max(1, nrowa)) return 9;
  if (ldc < std::max(1, n)) return 12;
  return 0;
}

Op to_op(char t) { return lsame(t, 'N') ? Op::N : Op::T; }  // 'C' is 'T' for real data
trn::blas::COp to_cop(char t);

// Complex Level 3 (C/Z): T is std::complex<float/double>; R its real type.
using cfloat = std::complex<float>;
using cdouble = std::complex<double>;
template <class T>
constexpr bool kComplexL3 = std::is_same_v<T, cfloat> || std::is_same_v<T, cdouble>;
template <class T>
using l3_real_t = decltype(std::real(T{}));

// ---- the calls ----------------------------------------------------------------------------------

// Runs one trnblas call; a failure inside the emulator (out of memory, an internal error) cannot be
// reported through the BLAS ABI, so it is printed and C is left as the kernels left it.
template <class F>
void run(const Entry& e, const char* args, const Config& cfg, F&& body) {
  const bool trace = trace_requested();
  trn::blas::CallReport report;
  try {
    body(trace ? &report : nullptr);
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "trnblas_blas: %s failed: %s\n", e.symbol, ex.what());
    if (trace) trace_outcome(e, args, "exception");
    return;
  }
  if (trace) {
    char outcome[192];
    std::snprintf(outcome, sizeof outcome, "compute=%s target=%s numerics=%s tensor_passes=%lld instructions=%lld",
                  trn::blas::gemm_mode_name(cfg.mode), choice_name(kTargetChoices, cfg.settings.target),
                  choice_name(kNumericsChoices, cfg.settings.numerics), static_cast<long long>(report.tensor_passes),
                  static_cast<long long>(report.profile.total_instructions));
    trace_outcome(e, args, outcome);
  }
}

template <class T>
void gemm_call(const Entry& e, char ta, char tb, int m, int n, int k, T alpha, const T* A, int lda, const T* B,
               int ldb, T beta, T* C, int ldc) {
  char args[160];
  std::snprintf(args, sizeof args, "transa=%c transb=%c m=%d n=%d k=%d lda=%d ldb=%d ldc=%d", ta, tb, m, n, k, lda,
                ldb, ldc);
  if (const int info = gemm_info(ta, tb, m, n, k, lda, ldb, ldc); info != 0) {
    report_info(e, args, info);
    return;
  }
  const Config cfg = config_from_env<T>();
  run(e, args, cfg, [&](trn::blas::CallReport* report) {
    // Quick returns, beta == 0 and alpha == 0 follow netlib inside trn::blas (blas.hpp).
    if constexpr (std::is_same_v<T, double>)
      trn::blas::dgemm(cfg.settings, to_op(ta), to_op(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
    else
      trn::blas::gemm(cfg.settings, cfg.mode, to_op(ta), to_op(tb), m, n, k, alpha, {A, trn::DType::f32, lda},
                      {B, trn::DType::f32, ldb}, beta, {C, trn::DType::f32, ldc}, report);
  });
}

template <class T>
void syrk_call(const Entry& e, char uplo, char trans, int n, int k, T alpha, const T* A, int lda, T beta, T* C,
               int ldc) {
  char args[160];
  std::snprintf(args, sizeof args, "uplo=%c trans=%c n=%d k=%d lda=%d ldc=%d", uplo, trans, n, k, lda, ldc);
  if (const int info = syrk_info(uplo, trans, n, k, lda, ldc, kComplexL3<T> ? "NT" : "NTC"); info != 0) {
    report_info(e, args, info);
    return;
  }
  const Config cfg = config_from_env<T>();
  const Uplo ul = lsame(uplo, 'U') ? Uplo::upper : Uplo::lower;
  run(e, args, cfg, [&](trn::blas::CallReport* report) {
    if constexpr (std::is_same_v<T, cdouble>)
      trn::blas::zsyrk(cfg.settings, ul, to_cop(trans), n, k, alpha, A, lda, beta, C, ldc, report);
    else if constexpr (std::is_same_v<T, cfloat>)
      trn::blas::csyrk(cfg.settings, cfg.mode, ul, to_cop(trans), n, k, alpha, A, lda, beta, C, ldc, report);
    else if constexpr (std::is_same_v<T, double>)
      trn::blas::dsyrk(cfg.settings, ul, to_op(trans), n, k, alpha, A, lda, beta, C, ldc, report);
    else
      trn::blas::syrk(cfg.settings, cfg.mode, ul, to_op(trans), n, k, alpha, {A, trn::DType::f32, lda}, beta,
                      {C, trn::DType::f32, ldc}, report);
  });
}

// TRSM (B := X) and TRMM (B := alpha op(A) B, the in-place form: trnblas's TRMM with C = B).
template <class T>
void triangular_call(const Entry& e, bool trmm, char side, char uplo, char ta, char diag, int m, int n, T alpha,
                     const T* A, int lda, T* B, int ldb) {
  char args[160];
  std::snprintf(args, sizeof args, "side=%c uplo=%c transa=%c diag=%c m=%d n=%d lda=%d ldb=%d", side, uplo, ta, diag, m,
                n, lda, ldb);
  if (const int info = triangular_info(side, uplo, ta, diag, m, n, lda, ldb); info != 0) {
    report_info(e, args, info);
    return;
  }
  const Config cfg = config_from_env<T>();
  const auto sd = lsame(side, 'L') ? trn::blas::Side::left : trn::blas::Side::right;
  const Uplo ul = lsame(uplo, 'U') ? Uplo::upper : Uplo::lower;
  const auto dg = lsame(diag, 'U') ? trn::blas::Diag::unit : trn::blas::Diag::non_unit;
  run(e, args, cfg, [&](trn::blas::CallReport* report) {
    if constexpr (std::is_same_v<T, cdouble>) {
      if (trmm)
        trn::blas::ztrmm(cfg.settings, sd, ul, to_cop(ta), dg, m, n, alpha, A, lda, B, ldb, B, ldb, report);
      else
        trn::blas::ztrsm(cfg.settings, sd, ul, to_cop(ta), dg, m, n, alpha, A, lda, B, ldb, report);
    } else if constexpr (std::is_same_v<T, cfloat>) {
      if (trmm)
        trn::blas::ctrmm(cfg.settings, cfg.mode, sd, ul, to_cop(ta), dg, m, n, alpha, A, lda, B, ldb, B, ldb, report);
      else
        trn::blas::ctrsm(cfg.settings, cfg.mode, sd, ul, to_cop(ta), dg, m, n, alpha, A, lda, B, ldb, report);
    } else if constexpr (std::is_same_v<T, double>) {
      if (trmm)
        trn::blas::dtrmm(cfg.settings, sd, ul, to_op(ta), dg, m, n, alpha, A, lda, B, ldb, B, ldb, report);
      else
        trn::blas::dtrsm(cfg.settings, sd, ul, to_op(ta), dg, m, n, alpha, A, lda, B, ldb, report);
    } else {
      if (trmm)
        trn::blas::strmm(cfg.settings, cfg.mode, sd, ul, to_op(ta), dg, m, n, alpha, A, lda, B, ldb, B, ldb, report);
      else
        trn::blas::strsm(cfg.settings, cfg.mode, sd, ul, to_op(ta), dg, m, n, alpha, A, lda, B, ldb, report);
    }
  });
}

// herm: C/Z HEMM (A Hermitian; the same INFO).
template <class T>
void symm_call(const Entry& e, char side, char uplo, int m, int n, T alpha, const T* A, int lda, const T* B, int ldb,
               T beta, T* C, int ldc, bool herm = false) {
  char args[160];
  std::snprintf(args, sizeof args, "side=%c uplo=%c m=%d n=%d lda=%d ldb=%d ldc=%d", side, uplo, m, n, lda, ldb, ldc);
  if (const int info = symm_info(side, uplo, m, n, lda, ldb, ldc); info != 0) {
    report_info(e, args, info);
    return;
  }
  const Config cfg = config_from_env<T>();
  const auto sd = lsame(side, 'L') ? trn::blas::Side::left : trn::blas::Side::right;
  const Uplo ul = lsame(uplo, 'U') ? Uplo::upper : Uplo::lower;
  run(e, args, cfg, [&](trn::blas::CallReport* report) {
    if constexpr (std::is_same_v<T, cdouble>) {
      if (herm)
        trn::blas::zhemm(cfg.settings, sd, ul, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
      else
        trn::blas::zsymm(cfg.settings, sd, ul, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
    } else if constexpr (std::is_same_v<T, cfloat>) {
      if (herm)
        trn::blas::chemm(cfg.settings, cfg.mode, sd, ul, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
      else
        trn::blas::csymm(cfg.settings, cfg.mode, sd, ul, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
    } else if constexpr (std::is_same_v<T, double>)
      trn::blas::dsymm(cfg.settings, sd, ul, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
    else
      trn::blas::ssymm(cfg.settings, cfg.mode, sd, ul, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
  });
}

template <class T>
void syr2k_call(const Entry& e, char uplo, char trans, int n, int k, T alpha, const T* A, int lda, const T* B, int ldb,
                T beta, T* C, int ldc) {
  char args[160];
  std::snprintf(args, sizeof args, "uplo=%c trans=%c n=%d k=%d lda=%d ldb=%d ldc=%d", uplo, trans, n, k, lda, ldb, ldc);
  if (const int info = syr2k_info(uplo, trans, n, k, lda, ldb, ldc, kComplexL3<T> ? "NT" : "NTC"); info != 0) {
    report_info(e, args, info);
    return;
  }
  const Config cfg = config_from_env<T>();
  const Uplo ul = lsame(uplo, 'U') ? Uplo::upper : Uplo::lower;
  run(e, args, cfg, [&](trn::blas::CallReport* report) {
    if constexpr (std::is_same_v<T, cdouble>)
      trn::blas::zsyr2k(cfg.settings, ul, to_cop(trans), n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
    else if constexpr (std::is_same_v<T, cfloat>)
      trn::blas::csyr2k(cfg.settings, cfg.mode, ul, to_cop(trans), n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
    else if constexpr (std::is_same_v<T, double>)
      trn::blas::dsyr2k(cfg.settings, ul, to_op(trans), n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
    else
      trn::blas::ssyr2k(cfg.settings, cfg.mode, ul, to_op(trans), n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
  });
}

// C/Z HERK (alpha, beta real) and HER2K (beta real): trans N or C (INFO 2 otherwise).
template <class T>
void herk_call(const Entry& e, char uplo, char trans, int n, int k, l3_real_t<T> alpha, const T* A, int lda,
               const T* B, int ldb, T alpha2, l3_real_t<T> beta, T* C, int ldc, bool two) {
  char args[160];
  std::snprintf(args, sizeof args, "uplo=%c trans=%c n=%d k=%d lda=%d ldb=%d ldc=%d", uplo, trans, n, k, lda, ldb, ldc);
  const int info = two ? syr2k_info(uplo, trans, n, k, lda, ldb, ldc, "NC") : syrk_info(uplo, trans, n, k, lda, ldc, "NC");
  if (info != 0) return report_info(e, args, info);
  const Config cfg = config_from_env<T>();
  const Uplo ul = lsame(uplo, 'U') ? Uplo::upper : Uplo::lower;
  run(e, args, cfg, [&](trn::blas::CallReport* report) {
    if constexpr (std::is_same_v<T, cdouble>) {
      if (two)
        trn::blas::zher2k(cfg.settings, ul, to_cop(trans), n, k, alpha2, A, lda, B, ldb, beta, C, ldc, report);
      else
        trn::blas::zherk(cfg.settings, ul, to_cop(trans), n, k, alpha, A, lda, beta, C, ldc, report);
    } else {
      if (two)
        trn::blas::cher2k(cfg.settings, cfg.mode, ul, to_cop(trans), n, k, alpha2, A, lda, B, ldb, beta, C, ldc, report);
      else
        trn::blas::cherk(cfg.settings, cfg.mode, ul, to_cop(trans), n, k, alpha, A, lda, beta, C, ldc, report);
    }
  });
}

// ---- CBLAS: layouts by operand swap, as reference CBLAS (cblas_sgemm.c, cblas_ssyrk.c) ---------

constexpr int kRowMajor = 101, kColMajor = 102;
constexpr int kNoTrans = 111, kTrans = 112, kConjTrans = 113;
constexpr int kUpper = 121, kLower = 122;
constexpr int kNonUnit = 131, kUnit = 132;
constexpr int kLeft = 141, kRight = 142;

char cblas_trans(int t) { return t == kNoTrans ? 'N' : t == kTrans ? 'T' : t == kConjTrans ? 'C' : '\0'; }

template <class T>
void cblas_gemm(const char* symbol, const char* srname, int layout, int transa, int transb, int m, int n, int k,
                T alpha, const T* A, int lda, const T* B, int ldb, T beta, T* C, int ldc) {
  CblasCall call;
  Entry e{symbol, srname, true, layout == kRowMajor ? " layout=row" : " layout=col"};
  if (layout != kRowMajor && layout != kColMajor) {
    e.layout = "";
    report_cblas(e, 1, "Illegal layout setting, %d\n", layout);
    return;
  }
  if (layout == kRowMajor) call.set_row_major();
  const char ta = cblas_trans(transa), tb = cblas_trans(transb);
  if (ta == '\0') {
    report_cblas(e, 2, "Illegal TransA setting, %d\n", transa);
    return;
  }
  if (tb == '\0') {
    report_cblas(e, 3, "Illegal TransB setting, %d\n", transb);
    return;
  }
  // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: swap the operands and m/n.
  if (layout == kColMajor)
    gemm_call<T>(e, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  else
    gemm_call<T>(e, tb, ta, n, m, k, alpha, B, ldb, A, lda, beta, C, ldc);
}

template <class T>
void cblas_syrk(const char* symbol, const char* srname, int layout, int uplo, int trans, int n, int k, T alpha,
                const T* A, int lda, T beta, T* C, int ldc) {
  CblasCall call;
  Entry e{symbol, srname, true, layout == kRowMajor ? " layout=row" : " layout=col"};
  if (layout != kRowMajor && layout != kColMajor) {
    e.layout = "";
    report_cblas(e, 1, "Illegal layout setting, %d\n", layout);
    return;
  }
  const bool row = layout == kRowMajor;
  if (row) call.set_row_major();
  // Row-major: the upper triangle of C is the lower triangle of C^T, and A A^T of a row-major A is
  // A^T A of the same memory read column-major. (Reference CBLAS reports a bad row-major uplo as
  // parameter 3; uplo is parameter 2 in both layouts, which is what this library reports.)
  const char ul = uplo == kUpper ? (row ? 'L' : 'U') : uplo == kLower ? (row ? 'U' : 'L') : '\0';
  if (ul == '\0') {
    report_cblas(e, 2, "Illegal Uplo setting, %d\n", uplo);
    return;
  }
  const char tr = cblas_trans(trans);
  if (tr == '\0') {
    report_cblas(e, 3, "Illegal Trans setting, %d\n", trans);
    return;
  }
  syrk_call<T>(e, ul, row ? (tr == 'N' ? 'T' : 'N') : tr, n, k, alpha, A, lda, beta, C, ldc);
}

// Reference CBLAS's cblas_?trsm.c / cblas_?trmm.c: row-major swaps side and uplo and m/n; the
// enums are parameters 2-5 (layout is 1).
template <class T>
void cblas_triangular(const char* symbol, const char* srname, bool trmm, int layout, int side, int uplo, int transa,
                      int diag, int m, int n, T alpha, const T* A, int lda, T* B, int ldb) {
  CblasCall call;
  Entry e{symbol, srname, true, layout == kRowMajor ? " layout=row" : " layout=col"};
  if (layout != kRowMajor && layout != kColMajor) {
    e.layout = "";
    report_cblas(e, 1, "Illegal layout setting, %d\n", layout);
    return;
  }
  const bool row = layout == kRowMajor;
  if (row) call.set_row_major();
  const char sd = side == kLeft ? (row ? 'R' : 'L') : side == kRight ? (row ? 'L' : 'R') : '\0';
  if (sd == '\0') return report_cblas(e, 2, "Illegal Side setting, %d\n", side);
  const char ul = uplo == kUpper ? (row ? 'L' : 'U') : uplo == kLower ? (row ? 'U' : 'L') : '\0';
  if (ul == '\0') return report_cblas(e, 3, "Illegal Uplo setting, %d\n", uplo);
  const char ta = cblas_trans(transa);
  if (ta == '\0') return report_cblas(e, 4, "Illegal Trans setting, %d\n", transa);
  const char dg = diag == kUnit ? 'U' : diag == kNonUnit ? 'N' : '\0';
  if (dg == '\0') return report_cblas(e, 5, "Illegal Diag setting, %d\n", diag);
  if (row)
    triangular_call<T>(e, trmm, sd, ul, ta, dg, n, m, alpha, A, lda, B, ldb);
  else
    triangular_call<T>(e, trmm, sd, ul, ta, dg, m, n, alpha, A, lda, B, ldb);
}

// cblas_?symm.c: row-major swaps side, uplo and m/n.
// cblas_?hemm.c maps the same way: the stored Hermitian A read column-major is A^T = conj(A),
// itself Hermitian in the other triangle.
template <class T>
void cblas_symm(const char* symbol, const char* srname, int layout, int side, int uplo, int m, int n, T alpha,
                const T* A, int lda, const T* B, int ldb, T beta, T* C, int ldc, bool herm = false) {
  CblasCall call;
  Entry e{symbol, srname, true, layout == kRowMajor ? " layout=row" : " layout=col"};
  if (layout != kRowMajor && layout != kColMajor) {
    e.layout = "";
    report_cblas(e, 1, "Illegal layout setting, %d\n", layout);
    return;
  }
  const bool row = layout == kRowMajor;
  if (row) call.set_row_major();
  const char sd = side == kLeft ? (row ? 'R' : 'L') : side == kRight ? (row ? 'L' : 'R') : '\0';
  if (sd == '\0') return report_cblas(e, 2, "Illegal Side setting, %d\n", side);
  const char ul = uplo == kUpper ? (row ? 'L' : 'U') : uplo == kLower ? (row ? 'U' : 'L') : '\0';
  if (ul == '\0') return report_cblas(e, 3, "Illegal Uplo setting, %d\n", uplo);
  if (row)
    symm_call<T>(e, sd, ul, n, m, alpha, A, lda, B, ldb, beta, C, ldc, herm);
  else
    symm_call<T>(e, sd, ul, m, n, alpha, A, lda, B, ldb, beta, C, ldc, herm);
}

// cblas_?syr2k.c: row-major swaps uplo and flips trans (N <-> T), as for SYRK.
template <class T>
void cblas_syr2k(const char* symbol, const char* srname, int layout, int uplo, int trans, int n, int k, T alpha,
                 const T* A, int lda, const T* B, int ldb, T beta, T* C, int ldc) {
  CblasCall call;
  Entry e{symbol, srname, true, layout == kRowMajor ? " layout=row" : " layout=col"};
  if (layout != kRowMajor && layout != kColMajor) {
    e.layout = "";
    report_cblas(e, 1, "Illegal layout setting, %d\n", layout);
    return;
  }
  const bool row = layout == kRowMajor;
  if (row) call.set_row_major();
  const char ul = uplo == kUpper ? (row ? 'L' : 'U') : uplo == kLower ? (row ? 'U' : 'L') : '\0';
  if (ul == '\0') return report_cblas(e, 2, "Illegal Uplo setting, %d\n", uplo);
  const char tr = cblas_trans(trans);
  if (tr == '\0') return report_cblas(e, 3, "Illegal Trans setting, %d\n", trans);
  syr2k_call<T>(e, ul, row ? (tr == 'N' ? 'T' : 'N') : tr, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

// cblas_?herk.c / cblas_?her2k.c: row-major swaps uplo and trans N <-> C (CblasTrans is rejected
// as parameter 3 in both layouts); C^T = conj(C) turns her2k's alpha into conj(alpha).
template <class T>
void cblas_herk(const char* symbol, const char* srname, bool two, int layout, int uplo, int trans, int n, int k,
                l3_real_t<T> alpha, const T* A, int lda, const T* B, int ldb, T alpha2, l3_real_t<T> beta, T* C,
                int ldc) {
  CblasCall call;
  Entry e{symbol, srname, true, layout == kRowMajor ? " layout=row" : " layout=col"};
  if (layout != kRowMajor && layout != kColMajor) {
    e.layout = "";
    report_cblas(e, 1, "Illegal layout setting, %d\n", layout);
    return;
  }
  const bool row = layout == kRowMajor;
  if (row) call.set_row_major();
  const char ul = uplo == kUpper ? (row ? 'L' : 'U') : uplo == kLower ? (row ? 'U' : 'L') : '\0';
  if (ul == '\0') return report_cblas(e, 2, "Illegal Uplo setting, %d\n", uplo);
  const char tr = trans == kNoTrans ? (row ? 'C' : 'N') : trans == kConjTrans ? (row ? 'N' : 'C') : '\0';
  if (tr == '\0') return report_cblas(e, 3, "Illegal Trans setting, %d\n", trans);
  herk_call<T>(e, ul, tr, n, k, alpha, A, lda, B, ldb, row ? std::conj(alpha2) : alpha2, beta, C, ldc, two);
}

// CGEMM/ZGEMM (same INFO as SGEMM; 'C' is the conjugate transpose): trnblas's 4M complex GEMM.
trn::blas::COp to_cop(char t) { return lsame(t, 'N') ? trn::blas::COp::N : lsame(t, 'T') ? trn::blas::COp::T : trn::blas::COp::C; }

template <class T>
void complex_gemm_call(const Entry& e, char ta, char tb, int m, int n, int k, const void* alpha, const void* A, int lda,
                       const void* B, int ldb, const void* beta, void* C, int ldc) {
  using Cx = std::complex<T>;
  char args[160];
  std::snprintf(args, sizeof args, "transa=%c transb=%c m=%d n=%d k=%d lda=%d ldb=%d ldc=%d", ta, tb, m, n, k, lda,
                ldb, ldc);
  if (const int info = gemm_info(ta, tb, m, n, k, lda, ldb, ldc); info != 0) {
    report_info(e, args, info);
    return;
  }
  const Config cfg = config_from_env<T>();
  const Cx al = *static_cast<const Cx*>(alpha), be = *static_cast<const Cx*>(beta);
  const auto* a = static_cast<const Cx*>(A);
  const auto* b = static_cast<const Cx*>(B);
  auto* c = static_cast<Cx*>(C);
  run(e, args, cfg, [&](trn::blas::CallReport* report) {
    if constexpr (std::is_same_v<T, double>)
      trn::blas::zgemm(cfg.settings, trn::blas::ComplexAlgo::four_m, to_cop(ta), to_cop(tb), m, n, k, al, a, lda, b,
                       ldb, be, c, ldc, report);
    else
      trn::blas::cgemm(cfg.settings, cfg.mode, trn::blas::ComplexAlgo::four_m, to_cop(ta), to_cop(tb), m, n, k, al, a,
                       lda, b, ldb, be, c, ldc, report);
  });
}

template <class T>
void cblas_complex_gemm(const char* symbol, const char* srname, int layout, int transa, int transb, int m, int n,
                        int k, const void* alpha, const void* A, int lda, const void* B, int ldb, const void* beta,
                        void* C, int ldc) {
  CblasCall call;
  Entry e{symbol, srname, true, layout == kRowMajor ? " layout=row" : " layout=col"};
  if (layout != kRowMajor && layout != kColMajor) {
    e.layout = "";
    report_cblas(e, 1, "Illegal layout setting, %d\n", layout);
    return;
  }
  if (layout == kRowMajor) call.set_row_major();
  const char ta = cblas_trans(transa), tb = cblas_trans(transb);
  if (ta == '\0') return report_cblas(e, 2, "Illegal TransA setting, %d\n", transa);
  if (tb == '\0') return report_cblas(e, 3, "Illegal TransB setting, %d\n", transb);
  if (layout == kColMajor)
    complex_gemm_call<T>(e, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  else
    complex_gemm_call<T>(e, tb, ta, n, m, k, alpha, B, ldb, A, lda, beta, C, ldc);
}

// ---- Levels 1 and 2 (trn/blas/level12.hpp) ------------------------------------------------------
// Every Level 1 and 2 routine of the reference BLAS and CBLAS is here (SDSDOT and DSDOT through
// trn::blas::sdsdot / dsdot: the Ozaki DGEMM of the widened floats).

template <class T>
struct RealOf {
  using type = T;
};
template <class T>
struct RealOf<std::complex<T>> {
  using type = T;
};
template <class T>
using real_t = typename RealOf<T>::type;
template <class T>
constexpr bool is_complex_v = !std::is_same_v<T, real_t<T>>;

// Levels 1 and 2 have no precision modes: S routines compute in fp32, D routines through the Ozaki
// DGEMM or on the host side (level12.hpp); TRNBLAS_COMPUTE applies to Level 3 only.
template <class T>
Config level12_config() {
  Config c = config_from_env<real_t<T>>();
  c.mode = std::is_same_v<real_t<T>, double> ? GemmMode::fp64_ozaki : GemmMode::fp32;
  return c;
}

template <class F>
void l1_call(const Entry& e, const Config& cfg, int n, int incx, int incy, F&& body) {
  char args[96];
  std::snprintf(args, sizeof args, "n=%d incx=%d incy=%d", n, incx, incy);
  run(e, args, cfg, std::forward<F>(body));
}

// Netlib's reduction routines walk a vector of negative increment backwards (dot) or return 0
// (asum, i?amax: incx <= 0). NRM2 (LAPACK 3.10's dnrm2.f90) walks it backwards and reads x(1) n times
// for incx == 0: both give the same set of |x_i| as a positive increment, staged here for incx == 0.
template <class T>
real_t<T> nrm2_call(const Entry& e, int n, const T* x, int incx) {
  const Config cfg = level12_config<T>();
  real_t<T> r = 0;
  l1_call(e, cfg, n, incx, 0, [&](trn::blas::CallReport* rep) {
    if (n <= 0) return;
    if (incx != 0) {
      r = trn::blas::nrm2(cfg.settings, n, x, incx < 0 ? -static_cast<std::int64_t>(incx) : incx, rep);
    } else {
      const std::vector<T> copies(static_cast<std::size_t>(n), x[0]);  // data movement only
      r = trn::blas::nrm2(cfg.settings, n, copies.data(), 1, rep);
    }
  });
  return r;
}

template <class T>
real_t<T> asum_call(const Entry& e, int n, const T* x, int incx) {
  const Config cfg = level12_config<T>();
  real_t<T> r = 0;
  l1_call(e, cfg, n, incx, 0, [&](trn::blas::CallReport* rep) {
    if (n > 0 && incx > 0) r = trn::blas::asum(cfg.settings, n, x, incx, rep);
  });
  return r;
}

template <class T>
int iamax_call(const Entry& e, int n, const T* x, int incx) {
  const Config cfg = level12_config<T>();
  std::int64_t r = 0;
  l1_call(e, cfg, n, incx, 0, [&](trn::blas::CallReport* rep) {
    if (n > 0 && incx > 0) r = trn::blas::iamax(cfg.settings, n, x, incx, rep);
  });
  return static_cast<int>(r);
}

template <class T>
T dot_call(const Entry& e, bool conjugate, int n, const T* x, int incx, const T* y, int incy) {
  const Config cfg = level12_config<T>();
  T r{};
  l1_call(e, cfg, n, incx, incy, [&](trn::blas::CallReport* rep) {
    if (n <= 0) return;
    if constexpr (is_complex_v<T>)
      r = trn::blas::dot(cfg.settings, n, x, incx, y, incy, conjugate, rep);
    else
      r = trn::blas::dot(cfg.settings, n, x, incx, y, incy, rep);
  });
  return r;
}

// SDSDOT (sb != nullptr: float(sb + sum), the sum in fp64) and DSDOT (the fp64 sum); n <= 0 returns
// sb (SDSDOT) or 0 as the reference does. The result is double for both (SDSDOT's is a float value).
double dsdot_call(const Entry& e, const float* sb, int n, const float* x, int incx, const float* y, int incy) {
  const Config cfg = level12_config<double>();
  double r = sb != nullptr ? *sb : 0.0;
  l1_call(e, cfg, n, incx, incy, [&](trn::blas::CallReport* rep) {
    if (n <= 0) return;
    r = sb != nullptr ? trn::blas::sdsdot(cfg.settings, n, *sb, x, incx, y, incy, rep)
                      : trn::blas::dsdot(cfg.settings, n, x, incx, y, incy, rep);
  });
  return r;
}

template <class T>
void axpy_call(const Entry& e, int n, T alpha, const T* x, int incx, T* y, int incy) {
  const Config cfg = level12_config<T>();
  l1_call(e, cfg, n, incx, incy, [&](trn::blas::CallReport* rep) {
    if (n > 0 && alpha != T(0)) trn::blas::axpy(cfg.settings, n, alpha, x, incx, y, incy, rep);
  });
}

template <class T, class A>
void scal_call(const Entry& e, int n, A alpha, T* x, int incx) {
  const Config cfg = level12_config<T>();
  l1_call(e, cfg, n, incx, 0, [&](trn::blas::CallReport* rep) {
    if (n > 0 && incx > 0) trn::blas::scal(cfg.settings, n, alpha, x, incx, rep);
  });
}

template <class T>
void copy_call(const Entry& e, int n, const T* x, int incx, T* y, int incy) {
  const Config cfg = level12_config<T>();
  l1_call(e, cfg, n, incx, incy, [&](trn::blas::CallReport* rep) {
    if (n > 0) trn::blas::copy(cfg.settings, n, x, incx, y, incy, rep);
  });
}

template <class T>
void swap_call(const Entry& e, int n, T* x, int incx, T* y, int incy) {
  const Config cfg = level12_config<T>();
  l1_call(e, cfg, n, incx, incy, [&](trn::blas::CallReport* rep) {
    if (n > 0) trn::blas::swap(cfg.settings, n, x, incx, y, incy, rep);
  });
}

template <class T>
void rot_call(const Entry& e, int n, T* x, int incx, T* y, int incy, real_t<T> c, real_t<T> s) {
  const Config cfg = level12_config<T>();
  l1_call(e, cfg, n, incx, incy, [&](trn::blas::CallReport* rep) {
    if (n > 0) trn::blas::rot(cfg.settings, n, x, incx, y, incy, c, s, rep);
  });
}

template <class T>
void rotm_call(const Entry& e, int n, T* x, int incx, T* y, int incy, const T* param) {
  const Config cfg = level12_config<T>();
  l1_call(e, cfg, n, incx, incy, [&](trn::blas::CallReport* rep) {
    if (n > 0) trn::blas::rotm(cfg.settings, n, x, incx, y, incy, param, rep);
  });
}

// rotg / rotmg: scalar setups (host arithmetic in trnblas, no kernel; traced with 0 instructions).
template <class T, class B, class R>
void rotg_call(const Entry& e, T* a, B* b, R* c, T* s) {
  const Config cfg = level12_config<T>();
  run(e, "", cfg, [&](trn::blas::CallReport*) { trn::blas::rotg(*a, *b, *c, *s); });
}
template <class T>
void rotmg_call(const Entry& e, T* d1, T* d2, T* x1, T y1, T* param) {
  const Config cfg = level12_config<T>();
  run(e, "", cfg, [&](trn::blas::CallReport*) { trn::blas::rotmg(*d1, *d2, *x1, y1, param); });
}

// ---- Level 2: netlib INFO values (0: valid) ----------------------------------------------------

bool trans_ok(char t) { return lsame(t, 'N') || lsame(t, 'T') || lsame(t, 'C'); }
bool uplo_ok(char u) { return lsame(u, 'U') || lsame(u, 'L'); }
bool diag_ok(char d) { return lsame(d, 'U') || lsame(d, 'N'); }
Uplo to_uplo(char u) { return lsame(u, 'U') ? Uplo::upper : Uplo::lower; }

// The first failing check of a list of (condition, INFO) pairs in netlib's order.
int first_info(std::initializer_list<std::pair<bool, int>> checks) {
  for (const auto& [bad, info] : checks)
    if (bad) return info;
  return 0;
}

template <class T, class F>
void l2_call(const Entry& e, const char* args, int info, bool quick, F&& body) {
  if (info != 0) {
    report_info(e, args, info);
    return;
  }
  const Config cfg = level12_config<T>();
  run(e, args, cfg, [&](trn::blas::CallReport* report) {
    if (!quick) body(cfg.settings, report);
  });
}

// GEMV INFO 1 trans, 2 m, 3 n, 6 lda, 8 incx, 11 incy; GBMV 1 trans, 2 m, 3 n, 4 kl, 5 ku, 8 lda,
// 10 incx, 13 incy (kl < 0: GEMV).
// conj_n (complex CBLAS row-major ConjTrans only): y = alpha conj(A) x + beta y with trans 'N'.
template <class T>
void gemv_call(const Entry& e, char trans, int m, int n, int kl, int ku, T alpha, const T* A, int lda, const T* x,
               int incx, T beta, T* y, int incy, bool band, bool conj_n = false) {
  char args[160];
  std::snprintf(args, sizeof args, "trans=%c m=%d n=%d kl=%d ku=%d lda=%d incx=%d incy=%d", trans, m, n, kl, ku, lda,
                incx, incy);
  const int o = band ? 2 : 0;
  const int info = first_info({{!trans_ok(trans), 1},
                               {m < 0, 2},
                               {n < 0, 3},
                               {band && kl < 0, 4},
                               {band && ku < 0, 5},
                               {lda < (band ? kl + ku + 1 : std::max(1, m)), 6 + o},
                               {incx == 0, 8 + o},
                               {incy == 0, 11 + o}});
  const bool quick = m == 0 || n == 0 || (alpha == T(0) && beta == T(1));
  l2_call<T>(e, args, info, quick, [&](const trn::blas::Settings& s, trn::blas::CallReport* rep) {
    if constexpr (is_complex_v<T>) {
      if (band)
        trn::blas::gbmv(s, to_op(trans), conj_n || lsame(trans, 'C'), m, n, kl, ku, alpha, A, lda, x, incx, beta, y,
                        incy, rep);
      else
        trn::blas::gemv(s, to_op(trans), conj_n || lsame(trans, 'C'), m, n, alpha, A, lda, x, incx, beta, y, incy, rep);
    } else if (band)
      trn::blas::gbmv(s, to_op(trans), m, n, kl, ku, alpha, A, lda, x, incx, beta, y, incy, rep);
    else
      trn::blas::gemv(s, to_op(trans), m, n, alpha, A, lda, x, incx, beta, y, incy, rep);
  });
}

// SYMV/HEMV INFO 1 uplo, 2 n, 5 lda, 7 incx, 10 incy; SBMV/HBMV 1, 2, 3 k, 6 lda, 8, 11; SPMV/HPMV
// 1, 2, 6 incx, 9 incy. kind: 0 dense, 1 band, 2 packed.
template <class T>
void symv_call(const Entry& e, int kind, char uplo, int n, int k, T alpha, const T* A, int lda, const T* x, int incx,
               T beta, T* y, int incy) {
  char args[160];
  std::snprintf(args, sizeof args, "uplo=%c n=%d k=%d lda=%d incx=%d incy=%d", uplo, n, k, lda, incx, incy);
  const int o = kind == 1 ? 1 : kind == 2 ? -1 : 0;
  const int info = first_info({{!uplo_ok(uplo), 1},
                               {n < 0, 2},
                               {kind == 1 && k < 0, 3},
                               {kind == 0 && lda < std::max(1, n), 5},
                               {kind == 1 && lda < k + 1, 6},
                               {incx == 0, 7 + o},
                               {incy == 0, 10 + o}});
  const bool quick = n == 0 || (alpha == T(0) && beta == T(1));
  l2_call<T>(e, args, info, quick, [&](const trn::blas::Settings& s, trn::blas::CallReport* rep) {
    const Uplo ul = to_uplo(uplo);
    if constexpr (is_complex_v<T>) {
      if (kind == 0) trn::blas::hemv(s, ul, n, alpha, A, lda, x, incx, beta, y, incy, rep);
      else if (kind == 1) trn::blas::hbmv(s, ul, n, k, alpha, A, lda, x, incx, beta, y, incy, rep);
      else trn::blas::hpmv(s, ul, n, alpha, A, x, incx, beta, y, incy, rep);
    } else {
      if (kind == 0) trn::blas::symv(s, ul, n, alpha, A, lda, x, incx, beta, y, incy, rep);
      else if (kind == 1) trn::blas::sbmv(s, ul, n, k, alpha, A, lda, x, incx, beta, y, incy, rep);
      else trn::blas::spmv(s, ul, n, alpha, A, x, incx, beta, y, incy, rep);
    }
  });
}

// TRMV/TRSV INFO 1 uplo, 2 trans, 3 diag, 4 n, 6 lda, 8 incx; TBMV/TBSV 1-4, 5 k, 7 lda, 9 incx;
// TPMV/TPSV 1-4, 7 incx. kind: 0 dense, 1 band, 2 packed. Complex: trans 'C' is the conjugate transpose.
template <class T>
void tr_call(const Entry& e, int kind, bool solve, char uplo, char trans, char diag, int n, int k, const T* A, int lda,
             T* x, int incx) {
  char args[160];
  std::snprintf(args, sizeof args, "uplo=%c trans=%c diag=%c n=%d k=%d lda=%d incx=%d", uplo, trans, diag, n, k, lda,
                incx);
  const int info = first_info({{!uplo_ok(uplo), 1},
                               {!trans_ok(trans), 2},
                               {!diag_ok(diag), 3},
                               {n < 0, 4},
                               {kind == 1 && k < 0, 5},
                               {kind == 0 && lda < std::max(1, n), 6},
                               {kind == 1 && lda < k + 1, 7},
                               {incx == 0, kind == 0 ? 8 : kind == 1 ? 9 : 7}});
  l2_call<T>(e, args, info, n == 0, [&](const trn::blas::Settings& s, trn::blas::CallReport* rep) {
    const Uplo ul = to_uplo(uplo);
    const Op op = to_op(trans);
    const bool unit = lsame(diag, 'U');
    if constexpr (is_complex_v<T>) {
      const bool c = lsame(trans, 'C');
      if (kind == 0) {
        if (solve) trn::blas::trsv(s, ul, op, c, unit, n, A, lda, x, incx, rep);
        else trn::blas::trmv(s, ul, op, c, unit, n, A, lda, x, incx, rep);
      } else if (kind == 1) {
        if (solve) trn::blas::tbsv(s, ul, op, c, unit, n, k, A, lda, x, incx, rep);
        else trn::blas::tbmv(s, ul, op, c, unit, n, k, A, lda, x, incx, rep);
      } else {
        if (solve) trn::blas::tpsv(s, ul, op, c, unit, n, A, x, incx, rep);
        else trn::blas::tpmv(s, ul, op, c, unit, n, A, x, incx, rep);
      }
    } else if (kind == 0) {
      if (solve) trn::blas::trsv(s, ul, op, unit, n, A, lda, x, incx, rep);
      else trn::blas::trmv(s, ul, op, unit, n, A, lda, x, incx, rep);
    } else if (kind == 1) {
      if (solve) trn::blas::tbsv(s, ul, op, unit, n, k, A, lda, x, incx, rep);
      else trn::blas::tbmv(s, ul, op, unit, n, k, A, lda, x, incx, rep);
    } else {
      if (solve) trn::blas::tpsv(s, ul, op, unit, n, A, x, incx, rep);
      else trn::blas::tpmv(s, ul, op, unit, n, A, x, incx, rep);
    }
  });
}

// GER/GERU/GERC INFO 1 m, 2 n, 5 incx, 7 incy, 9 lda.
template <class T>
void ger_call(const Entry& e, bool conjugate, int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* A,
              int lda) {
  char args[128];
  std::snprintf(args, sizeof args, "m=%d n=%d incx=%d incy=%d lda=%d", m, n, incx, incy, lda);
  const int info = first_info({{m < 0, 1}, {n < 0, 2}, {incx == 0, 5}, {incy == 0, 7}, {lda < std::max(1, m), 9}});
  const bool quick = m == 0 || n == 0 || alpha == T(0);
  l2_call<T>(e, args, info, quick, [&](const trn::blas::Settings& s, trn::blas::CallReport* rep) {
    if constexpr (is_complex_v<T>)
      trn::blas::ger(s, conjugate, m, n, alpha, x, incx, y, incy, A, lda, rep);
    else
      trn::blas::ger(s, m, n, alpha, x, incx, y, incy, A, lda, rep);
  });
}

// SYR/HER INFO 1 uplo, 2 n, 5 incx, 7 lda; SPR/HPR 1, 2, 5; SYR2/HER2 1, 2, 5, 7 incy, 9 lda;
// SPR2/HPR2 1, 2, 5, 7. A is the packed AP when `packed`. alpha: real for SYR/SPR/HER/HPR.
template <class T, class A>
void syr_call(const Entry& e, bool packed, bool two, char uplo, int n, A alpha, const T* x, int incx, const T* y,
              int incy, T* a, int lda) {
  char args[128];
  std::snprintf(args, sizeof args, "uplo=%c n=%d incx=%d incy=%d lda=%d", uplo, n, incx, incy, lda);
  const int info = first_info({{!uplo_ok(uplo), 1},
                               {n < 0, 2},
                               {incx == 0, 5},
                               {two && incy == 0, 7},
                               {!packed && lda < std::max(1, n), two ? 9 : 7}});
  const bool quick = n == 0 || alpha == A(0);
  l2_call<T>(e, args, info, quick, [&](const trn::blas::Settings& s, trn::blas::CallReport* rep) {
    const Uplo ul = to_uplo(uplo);
    if constexpr (is_complex_v<T> && !is_complex_v<A>) {  // her, hpr
      if (packed) trn::blas::hpr(s, ul, n, alpha, x, incx, a, rep);
      else trn::blas::her(s, ul, n, alpha, x, incx, a, lda, rep);
    } else if constexpr (is_complex_v<T>) {  // her2, hpr2
      if (packed) trn::blas::hpr2(s, ul, n, alpha, x, incx, y, incy, a, rep);
      else trn::blas::her2(s, ul, n, alpha, x, incx, y, incy, a, lda, rep);
    } else if (two) {
      if (packed) trn::blas::spr2(s, ul, n, alpha, x, incx, y, incy, a, rep);
      else trn::blas::syr2(s, ul, n, alpha, x, incx, y, incy, a, lda, rep);
    } else {
      if (packed) trn::blas::spr(s, ul, n, alpha, x, incx, a, rep);
      else trn::blas::syr(s, ul, n, alpha, x, incx, a, lda, rep);
    }
  });
}

// ---- CBLAS Level 2: layouts as reference CBLAS (cblas_sgemv.c, cblas_ssymv.c, cblas_strmv.c, ...)
// Row-major A is column-major A^T: GEMV/GBMV flip trans and swap m/n (and kl/ku); GER swaps m/n
// and x/y; symmetric and triangular routines swap uplo, triangular ones also flip trans.

// The layout check shared by every CBLAS Level 2 routine; false after reporting an error.
bool cblas_layout(Entry& e, CblasCall& call, int layout) {
  e.layout = layout == kRowMajor ? " layout=row" : " layout=col";
  if (layout != kRowMajor && layout != kColMajor) {
    e.layout = "";
    report_cblas(e, 1, "Illegal layout setting, %d\n", layout);
    return false;
  }
  if (layout == kRowMajor) call.set_row_major();
  return true;
}
char cblas_uplo(int uplo, bool row) {
  return uplo == kUpper ? (row ? 'L' : 'U') : uplo == kLower ? (row ? 'U' : 'L') : '\0';
}
// Real data: row-major N is column-major T, and T or C is N.
char cblas_trans_real(int trans, bool row) {
  const char t = cblas_trans(trans);
  if (!row || t == '\0') return t;
  return t == 'N' ? 'T' : 'N';
}
char cblas_diag(int diag) { return diag == kUnit ? 'U' : diag == kNonUnit ? 'N' : '\0'; }

template <class T>
void cblas_gemv(const char* symbol, const char* srname, bool band, int layout, int trans, int m, int n, int kl, int ku,
                T alpha, const T* A, int lda, const T* x, int incx, T beta, T* y, int incy) {
  CblasCall call;
  Entry e{symbol, srname, true};
  if (!cblas_layout(e, call, layout)) return;
  const bool row = layout == kRowMajor;
  const char t = cblas_trans_real(trans, row);
  if (t == '\0') return report_cblas(e, 2, "Illegal TransA setting, %d\n", trans);
  if (row)
    gemv_call<T>(e, t, n, m, ku, kl, alpha, A, lda, x, incx, beta, y, incy, band);
  else
    gemv_call<T>(e, t, m, n, kl, ku, alpha, A, lda, x, incx, beta, y, incy, band);
}

template <class T>
void cblas_symv(const char* symbol, const char* srname, int kind, int layout, int uplo, int n, int k, T alpha,
                const T* A, int lda, const T* x, int incx, T beta, T* y, int incy) {
  CblasCall call;
  Entry e{symbol, srname, true};
  if (!cblas_layout(e, call, layout)) return;
  const char ul = cblas_uplo(uplo, layout == kRowMajor);
  if (ul == '\0') return report_cblas(e, 2, "Illegal Uplo setting, %d\n", uplo);
  symv_call<T>(e, kind, ul, n, k, alpha, A, lda, x, incx, beta, y, incy);
}

template <class T>
void cblas_tr(const char* symbol, const char* srname, int kind, bool solve, int layout, int uplo, int trans, int diag,
              int n, int k, const T* A, int lda, T* x, int incx) {
  CblasCall call;
  Entry e{symbol, srname, true};
  if (!cblas_layout(e, call, layout)) return;
  const bool row = layout == kRowMajor;
  const char ul = cblas_uplo(uplo, row);
  if (ul == '\0') return report_cblas(e, 2, "Illegal Uplo setting, %d\n", uplo);
  const char t = cblas_trans_real(trans, row);
  if (t == '\0') return report_cblas(e, 3, "Illegal TransA setting, %d\n", trans);
  const char dg = cblas_diag(diag);
  if (dg == '\0') return report_cblas(e, 4, "Illegal Diag setting, %d\n", diag);
  tr_call<T>(e, kind, solve, ul, t, dg, n, k, A, lda, x, incx);
}

template <class T>
void cblas_ger(const char* symbol, const char* srname, int layout, int m, int n, T alpha, const T* x, int incx,
               const T* y, int incy, T* A, int lda) {
  CblasCall call;
  Entry e{symbol, srname, true};
  if (!cblas_layout(e, call, layout)) return;
  if (layout == kRowMajor)
    ger_call<T>(e, false, n, m, alpha, y, incy, x, incx, A, lda);
  else
    ger_call<T>(e, false, m, n, alpha, x, incx, y, incy, A, lda);
}

template <class T>
void cblas_syr(const char* symbol, const char* srname, bool packed, bool two, int layout, int uplo, int n, T alpha,
               const T* x, int incx, const T* y, int incy, T* a, int lda) {
  CblasCall call;
  Entry e{symbol, srname, true};
  if (!cblas_layout(e, call, layout)) return;
  const char ul = cblas_uplo(uplo, layout == kRowMajor);
  if (ul == '\0') return report_cblas(e, 2, "Illegal Uplo setting, %d\n", uplo);
  syr_call<T, T>(e, packed, two, ul, n, alpha, x, incx, y, incy, a, lda);
}

// ---- CBLAS Level 2, complex: reference CBLAS's row-major forms (cblas_cgemv.c, cblas_chemv.c,
// cblas_cgerc.c, cblas_cher.c, cblas_cher2.c). The row-major matrix read column-major is B = A^T,
// which for a Hermitian A is conj(A) with the other triangle stored; the conjugations this needs
// are sign flips of imaginary parts (exact, no arithmetic), done on the host side as reference
// CBLAS does: of a contiguous copy of x (and y for HER2), and of y in place around HEMV-type calls.

// A contiguous conjugated copy of the n-vector x (walk order kept: a negative increment is walked
// backwards). incx == 0 is an argument error reported by the routine, so x is passed unchanged.
template <class T>
struct ConjCopy {
  std::vector<T> data;
  const T* ptr;
  int inc;
  ConjCopy(int n, const T* x, int incx) : ptr(x), inc(incx) {
    if (incx == 0 || n <= 0 || x == nullptr) return;
    data.resize(static_cast<std::size_t>(n));
    const std::int64_t step = incx, start = incx < 0 ? -(static_cast<std::int64_t>(n) - 1) * step : 0;
    for (std::int64_t i = 0; i < n; ++i) data[static_cast<std::size_t>(i)] = std::conj(x[start + i * step]);
    ptr = data.data();
    inc = 1;
  }
};
template <class T>
void conj_in_place(int n, T* y, int incy) {
  if (incy == 0 || n <= 0 || y == nullptr) return;
  const std::int64_t step = incy < 0 ? -static_cast<std::int64_t>(incy) : incy;
  for (std::int64_t i = 0; i < n; ++i) y[i * step] = std::conj(y[i * step]);
}

template <class T>
void cblas_cgemv(const char* symbol, const char* srname, int layout, int trans, int m, int n, const void* alpha,
                 const void* A, int lda, const void* x, int incx, const void* beta, void* y, int incy) {
  CblasCall call;
  Entry e{symbol, srname, true};
  if (!cblas_layout(e, call, layout)) return;
  const T al = *static_cast<const T*>(alpha), be = *static_cast<const T*>(beta);
  const auto* a = static_cast<const T*>(A);
  const auto* xv = static_cast<const T*>(x);
  auto* yv = static_cast<T*>(y);
  const char t = cblas_trans(trans);
  if (t == '\0') return report_cblas(e, 2, "Illegal TransA setting, %d\n", trans);
  if (layout == kColMajor) return gemv_call<T>(e, t, m, n, 0, 0, al, a, lda, xv, incx, be, yv, incy, false);
  // Row-major: A x = B^T x, A^T x = B x, A^H x = conj(B) x.
  if (t == 'C')
    gemv_call<T>(e, 'N', n, m, 0, 0, al, a, lda, xv, incx, be, yv, incy, false, true);
  else
    gemv_call<T>(e, t == 'N' ? 'T' : 'N', n, m, 0, 0, al, a, lda, xv, incx, be, yv, incy, false);
}

// GBMV row-major as GEMV (kl and ku swap with m and n).
template <class T>
void cblas_cgbmv(const char* symbol, const char* srname, int layout, int trans, int m, int n, int kl, int ku,
                 const void* alpha, const void* A, int lda, const void* x, int incx, const void* beta, void* y,
                 int incy) {
  CblasCall call;
  Entry e{symbol, srname, true};
  if (!cblas_layout(e, call, layout)) return;
  const T al = *static_cast<const T*>(alpha), be = *static_cast<const T*>(beta);
  const auto* a = static_cast<const T*>(A);
  const auto* xv = static_cast<const T*>(x);
  auto* yv = static_cast<T*>(y);
  const char t = cblas_trans(trans);
  if (t == '\0') return report_cblas(e, 2, "Illegal TransA setting, %d\n", trans);
  if (layout == kColMajor) return gemv_call<T>(e, t, m, n, kl, ku, al, a, lda, xv, incx, be, yv, incy, true);
  if (t == 'C')
    gemv_call<T>(e, 'N', n, m, ku, kl, al, a, lda, xv, incx, be, yv, incy, true, true);
  else
    gemv_call<T>(e, t == 'N' ? 'T' : 'N', n, m, ku, kl, al, a, lda, xv, incx, be, yv, incy, true);
}

// TRMV/TRSV/TBMV/TBSV/TPMV/TPSV row-major (reference cblas_ctrmv.c, ...): uplo swaps, N becomes T,
// T becomes N, and C becomes N on conjugated data: op(A) x = conj(B conj(x)) with B = A^T as stored,
// so x is conjugated in place before and after the call (sign flips: exact).
template <class T>
void cblas_ctr(const char* symbol, const char* srname, int kind, bool solve, int layout, int uplo, int trans, int diag,
               int n, int k, const void* A, int lda, void* x, int incx) {
  CblasCall call;
  Entry e{symbol, srname, true};
  if (!cblas_layout(e, call, layout)) return;
  const bool row = layout == kRowMajor;
  const char ul = cblas_uplo(uplo, row);
  if (ul == '\0') return report_cblas(e, 2, "Illegal Uplo setting, %d\n", uplo);
  const char t = cblas_trans(trans);
  if (t == '\0') return report_cblas(e, 3, "Illegal TransA setting, %d\n", trans);
  const char dg = cblas_diag(diag);
  if (dg == '\0') return report_cblas(e, 4, "Illegal Diag setting, %d\n", diag);
  const auto* a = static_cast<const T*>(A);
  auto* xv = static_cast<T*>(x);
  if (!row) return tr_call<T>(e, kind, solve, ul, t, dg, n, k, a, lda, xv, incx);
  if (t != 'C') return tr_call<T>(e, kind, solve, ul, t == 'N' ? 'T' : 'N', dg, n, k, a, lda, xv, incx);
  conj_in_place(n, xv, incx);
  tr_call<T>(e, kind, solve, ul, 'N', dg, n, k, a, lda, xv, incx);
  conj_in_place(n, xv, incx);
}

// HEMV/HBMV/HPMV row-major: A x = conj(B conj(x)), so conj(y) = conj(alpha) B conj(x) + conj(beta) conj(y).
template <class T>
void cblas_hemv(const char* symbol, const char* srname, int kind, int layout, int uplo, int n, int k,
                const void* alpha, const void* A, int lda, const void* x, int incx, const void* beta, void* y,
                int incy) {
  CblasCall call;
  Entry e{symbol, srname, true};
  if (!cblas_layout(e, call, layout)) return;
  const bool row = layout == kRowMajor;
  const char ul = cblas_uplo(uplo, row);
  if (ul == '\0') return report_cblas(e, 2, "Illegal Uplo setting, %d\n", uplo);
  const T al = *static_cast<const T*>(alpha), be = *static_cast<const T*>(beta);
  const auto* a = static_cast<const T*>(A);
  const auto* xv = static_cast<const T*>(x);
  auto* yv = static_cast<T*>(y);
  if (!row) return symv_call<T>(e, kind, ul, n, k, al, a, lda, xv, incx, be, yv, incy);
  const ConjCopy<T> cx(n, xv, incx);
  conj_in_place(n, yv, incy);
  symv_call<T>(e, kind, ul, n, k, std::conj(al), a, lda, cx.ptr, cx.inc, std::conj(be), yv, incy);
  conj_in_place(n, yv, incy);
}

// GERU row-major: B += alpha y x^T; GERC: A += alpha x y^H is B += alpha conj(y) x^T (a GERU).
template <class T>
void cblas_cger(const char* symbol, const char* srname, bool conjugate, int layout, int m, int n, const void* alpha,
                const void* x, int incx, const void* y, int incy, void* A, int lda) {
  CblasCall call;
  Entry e{symbol, srname, true};
  if (!cblas_layout(e, call, layout)) return;
  const T al = *static_cast<const T*>(alpha);
  const auto* xv = static_cast<const T*>(x);
  const auto* yv = static_cast<const T*>(y);
  auto* a = static_cast<T*>(A);
  if (layout == kColMajor) return ger_call<T>(e, conjugate, m, n, al, xv, incx, yv, incy, a, lda);
  if (!conjugate) return ger_call<T>(e, false, n, m, al, yv, incy, xv, incx, a, lda);
  const ConjCopy<T> cy(n, yv, incy);
  ger_call<T>(e, false, n, m, al, cy.ptr, cy.inc, xv, incx, a, lda);
}

// HER/HPR row-major: B += alpha conj(x) conj(x)^H. HER2/HPR2: B += alpha conj(y) conj(x)^H +
// conj(alpha) conj(x) conj(y)^H, i.e. HER2 with x and y swapped and conjugated.
template <class T, class A>
void cblas_her(const char* symbol, const char* srname, bool packed, bool two, int layout, int uplo, int n, A alpha,
               const void* x, int incx, const void* y, int incy, void* a, int lda) {
  CblasCall call;
  Entry e{symbol, srname, true};
  if (!cblas_layout(e, call, layout)) return;
  const bool row = layout == kRowMajor;
  const char ul = cblas_uplo(uplo, row);
  if (ul == '\0') return report_cblas(e, 2, "Illegal Uplo setting, %d\n", uplo);
  const auto* xv = static_cast<const T*>(x);
  const auto* yv = static_cast<const T*>(y);
  auto* av = static_cast<T*>(a);
  if (!row) return syr_call<T, A>(e, packed, two, ul, n, alpha, xv, incx, yv, incy, av, lda);
  const ConjCopy<T> cx(n, xv, incx);
  if (!two) return syr_call<T, A>(e, packed, false, ul, n, alpha, cx.ptr, cx.inc, nullptr, 1, av, lda);
  const ConjCopy<T> cy(n, yv, incy);
  syr_call<T, A>(e, packed, true, ul, n, alpha, cy.ptr, cy.inc, cx.ptr, cx.inc, av, lda);
}

// Reference cblas_xerbla's row-major correction for the routines of this library.
int unswap_row_major(const char* rout, int info) {
  if (std::strstr(rout, "gemm") != nullptr) {
    if (info == 4) return 5;
    if (info == 5) return 4;
    if (info == 9) return 11;
    if (info == 11) return 9;
  } else if (std::strstr(rout, "symm") != nullptr) {
    if (info == 4) return 5;
    if (info == 5) return 4;
  } else if (std::strstr(rout, "trmm") != nullptr || std::strstr(rout, "trsm") != nullptr) {
    if (info == 6) return 7;
    if (info == 7) return 6;
  } else if (std::strstr(rout, "gemv") != nullptr) {
    if (info == 3) return 4;
    if (info == 4) return 3;
  } else if (std::strstr(rout, "gbmv") != nullptr) {
    if (info == 3) return 4;
    if (info == 4) return 3;
    if (info == 5) return 6;
    if (info == 6) return 5;
  } else if (std::strstr(rout, "ger") != nullptr) {
    if (info == 2) return 3;
    if (info == 3) return 2;
    if (info == 6) return 8;
    if (info == 8) return 6;
  } else if ((std::strstr(rout, "her2") != nullptr || std::strstr(rout, "hpr2") != nullptr) &&
             std::strstr(rout, "her2k") == nullptr) {
    if (info == 6) return 8;
    if (info == 8) return 6;
  }
  return info;
}

}  // namespace

extern "C" {

// ---- default error handlers (weak: a program's own definitions win) -----------------------------

__attribute__((weak)) void xerbla_(const char* srname, const int* info, size_t srname_len) {
  char name[33];
  std::size_t n = 0;  // srname is blank-padded, not NUL-terminated, when it comes from Fortran
  for (; n < srname_len && n < sizeof name - 1 && srname[n] != '\0'; ++n) name[n] = srname[n];
  name[n] = '\0';
  std::fprintf(stderr, " ** On entry to %-6s parameter number %2d had an illegal value\n", name, *info);
}

// Reference cblas_xerbla prints the same line and then calls exit(-1); this one returns.
__attribute__((weak)) void cblas_xerbla(int info, const char* rout, const char* form, ...) {
  if (t_row_major) info = unswap_row_major(rout, info);
  if (info != 0) std::fprintf(stderr, "Parameter %d to routine %s was incorrect\n", info, rout);
  std::va_list ap;
  va_start(ap, form);
  std::vfprintf(stderr, form, ap);
  va_end(ap);
}

// ---- Fortran BLAS ABI ---------------------------------------------------------------------------

void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const float* alpha,
            const float* a, const int* lda, const float* b, const int* ldb, const float* beta, float* c,
            const int* ldc, size_t, size_t) {
  gemm_call<float>({"sgemm_", "SGEMM "}, *transa, *transb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
}

void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* b, const int* ldb, const double* beta, double* c,
            const int* ldc, size_t, size_t) {
  gemm_call<double>({"dgemm_", "DGEMM "}, *transa, *transb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
}

void ssyrk_(const char* uplo, const char* trans, const int* n, const int* k, const float* alpha, const float* a,
            const int* lda, const float* beta, float* c, const int* ldc, size_t, size_t) {
  syrk_call<float>({"ssyrk_", "SSYRK "}, *uplo, *trans, *n, *k, *alpha, a, *lda, *beta, c, *ldc);
}

void dsyrk_(const char* uplo, const char* trans, const int* n, const int* k, const double* alpha, const double* a,
            const int* lda, const double* beta, double* c, const int* ldc, size_t, size_t) {
  syrk_call<double>({"dsyrk_", "DSYRK "}, *uplo, *trans, *n, *k, *alpha, a, *lda, *beta, c, *ldc);
}

// ---- CBLAS (enums passed as int: same ABI as reference cblas.h's enum parameters) ---------------

void cblas_sgemm(int layout, int transa, int transb, int m, int n, int k, float alpha, const float* A, int lda,
                 const float* B, int ldb, float beta, float* C, int ldc) {
  cblas_gemm<float>("cblas_sgemm", "SGEMM ", layout, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

void cblas_dgemm(int layout, int transa, int transb, int m, int n, int k, double alpha, const double* A, int lda,
                 const double* B, int ldb, double beta, double* C, int ldc) {
  cblas_gemm<double>("cblas_dgemm", "DGEMM ", layout, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

void cblas_ssyrk(int layout, int uplo, int trans, int n, int k, float alpha, const float* A, int lda, float beta,
                 float* C, int ldc) {
  cblas_syrk<float>("cblas_ssyrk", "SSYRK ", layout, uplo, trans, n, k, alpha, A, lda, beta, C, ldc);
}

void cblas_dsyrk(int layout, int uplo, int trans, int n, int k, double alpha, const double* A, int lda, double beta,
                 double* C, int ldc) {
  cblas_syrk<double>("cblas_dsyrk", "DSYRK ", layout, uplo, trans, n, k, alpha, A, lda, beta, C, ldc);
}

#define TRNBLAS_ABI_TRIANGULAR(NAME, SR, T, TRMM)                                                                   \
  void NAME##_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n, \
               const T* alpha, const T* a, const int* lda, T* b, const int* ldb, size_t, size_t, size_t, size_t) {   \
    triangular_call<T>({#NAME "_", SR}, TRMM, *side, *uplo, *transa, *diag, *m, *n, *alpha, a, *lda, b, *ldb);      \
  }                                                                                                                 \
  void cblas_##NAME(int layout, int side, int uplo, int transa, int diag, int m, int n, T alpha, const T* A, int lda, \
                    T* B, int ldb) {                                                                                \
    cblas_triangular<T>("cblas_" #NAME, SR, TRMM, layout, side, uplo, transa, diag, m, n, alpha, A, lda, B, ldb);   \
  }
#define TRNBLAS_ABI_SYMM(NAME, SR, T)                                                                               \
  void NAME##_(const char* side, const char* uplo, const int* m, const int* n, const T* alpha, const T* a,          \
               const int* lda, const T* b, const int* ldb, const T* beta, T* c, const int* ldc, size_t, size_t) {   \
    symm_call<T>({#NAME "_", SR}, *side, *uplo, *m, *n, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);                  \
  }                                                                                                                 \
  void cblas_##NAME(int layout, int side, int uplo, int m, int n, T alpha, const T* A, int lda, const T* B, int ldb, \
                    T beta, T* C, int ldc) {                                                                        \
    cblas_symm<T>("cblas_" #NAME, SR, layout, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);               \
  }
#define TRNBLAS_ABI_SYR2K(NAME, SR, T)                                                                              \
  void NAME##_(const char* uplo, const char* trans, const int* n, const int* k, const T* alpha, const T* a,         \
               const int* lda, const T* b, const int* ldb, const T* beta, T* c, const int* ldc, size_t, size_t) {   \
    syr2k_call<T>({#NAME "_", SR}, *uplo, *trans, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);                \
  }                                                                                                                 \
  void cblas_##NAME(int layout, int uplo, int trans, int n, int k, T alpha, const T* A, int lda, const T* B, int ldb, \
                    T beta, T* C, int ldc) {                                                                        \
    cblas_syr2k<T>("cblas_" #NAME, SR, layout, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc);             \
  }

TRNBLAS_ABI_TRIANGULAR(strsm, "STRSM ", float, false)
TRNBLAS_ABI_TRIANGULAR(dtrsm, "DTRSM ", double, false)
TRNBLAS_ABI_TRIANGULAR(strmm, "STRMM ", float, true)
TRNBLAS_ABI_TRIANGULAR(dtrmm, "DTRMM ", double, true)
TRNBLAS_ABI_SYMM(ssymm, "SSYMM ", float)
TRNBLAS_ABI_SYMM(dsymm, "DSYMM ", double)
TRNBLAS_ABI_SYR2K(ssyr2k, "SSYR2K", float)
TRNBLAS_ABI_SYR2K(dsyr2k, "DSYR2K", double)

void cgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const void* alpha,
            const void* a, const int* lda, const void* b, const int* ldb, const void* beta, void* c, const int* ldc,
            size_t, size_t) {
  complex_gemm_call<float>({"cgemm_", "CGEMM "}, *transa, *transb, *m, *n, *k, alpha, a, *lda, b, *ldb, beta, c, *ldc);
}
void zgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const void* alpha,
            const void* a, const int* lda, const void* b, const int* ldb, const void* beta, void* c, const int* ldc,
            size_t, size_t) {
  complex_gemm_call<double>({"zgemm_", "ZGEMM "}, *transa, *transb, *m, *n, *k, alpha, a, *lda, b, *ldb, beta, c, *ldc);
}
void cblas_cgemm(int layout, int transa, int transb, int m, int n, int k, const void* alpha, const void* A, int lda,
                 const void* B, int ldb, const void* beta, void* C, int ldc) {
  cblas_complex_gemm<float>("cblas_cgemm", "CGEMM ", layout, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
void cblas_zgemm(int layout, int transa, int transb, int m, int n, int k, const void* alpha, const void* A, int lda,
                 const void* B, int ldb, const void* beta, void* C, int ldc) {
  cblas_complex_gemm<double>("cblas_zgemm", "ZGEMM ", layout, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

// Complex Level 3 beyond GEMM: CSYMM ... ZTRSM. Scalars come by pointer (Fortran and CBLAS alike);
// CHERK's alpha and beta, CHER2K's beta are real.
#define TRNBLAS_ABI_COMPLEX_L3(P, U, R, Cx)                                                                          \
  void P##trsm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n, \
                const void* alpha, const void* a, const int* lda, void* b, const int* ldb, size_t, size_t, size_t,   \
                size_t) {                                                                                           \
    triangular_call<Cx>({#P "trsm_", #U "TRSM "}, false, *side, *uplo, *transa, *diag, *m, *n,                     \
                        *static_cast<const Cx*>(alpha), static_cast<const Cx*>(a), *lda, static_cast<Cx*>(b), *ldb); \
  }                                                                                                                 \
  void P##trmm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n, \
                const void* alpha, const void* a, const int* lda, void* b, const int* ldb, size_t, size_t, size_t,   \
                size_t) {                                                                                           \
    triangular_call<Cx>({#P "trmm_", #U "TRMM "}, true, *side, *uplo, *transa, *diag, *m, *n,                      \
                        *static_cast<const Cx*>(alpha), static_cast<const Cx*>(a), *lda, static_cast<Cx*>(b), *ldb); \
  }                                                                                                                 \
  void cblas_##P##trsm(int layout, int side, int uplo, int transa, int diag, int m, int n, const void* alpha,      \
                       const void* A, int lda, void* B, int ldb) {                                                  \
    cblas_triangular<Cx>("cblas_" #P "trsm", #U "TRSM ", false, layout, side, uplo, transa, diag, m, n,            \
                         *static_cast<const Cx*>(alpha), static_cast<const Cx*>(A), lda, static_cast<Cx*>(B), ldb); \
  }                                                                                                                 \
  void cblas_##P##trmm(int layout, int side, int uplo, int transa, int diag, int m, int n, const void* alpha,      \
                       const void* A, int lda, void* B, int ldb) {                                                  \
    cblas_triangular<Cx>("cblas_" #P "trmm", #U "TRMM ", true, layout, side, uplo, transa, diag, m, n,             \
                         *static_cast<const Cx*>(alpha), static_cast<const Cx*>(A), lda, static_cast<Cx*>(B), ldb); \
  }                                                                                                                 \
  void P##symm_(const char* side, const char* uplo, const int* m, const int* n, const void* alpha, const void* a,   \
                const int* lda, const void* b, const int* ldb, const void* beta, void* c, const int* ldc, size_t,   \
                size_t) {                                                                                           \
    symm_call<Cx>({#P "symm_", #U "SYMM "}, *side, *uplo, *m, *n, *static_cast<const Cx*>(alpha),                  \
                  static_cast<const Cx*>(a), *lda, static_cast<const Cx*>(b), *ldb, *static_cast<const Cx*>(beta), \
                  static_cast<Cx*>(c), *ldc);                                                                       \
  }                                                                                                                 \
  void P##hemm_(const char* side, const char* uplo, const int* m, const int* n, const void* alpha, const void* a,   \
                const int* lda, const void* b, const int* ldb, const void* beta, void* c, const int* ldc, size_t,   \
                size_t) {                                                                                           \
    symm_call<Cx>({#P "hemm_", #U "HEMM "}, *side, *uplo, *m, *n, *static_cast<const Cx*>(alpha),                  \
                  static_cast<const Cx*>(a), *lda, static_cast<const Cx*>(b), *ldb, *static_cast<const Cx*>(beta), \
                  static_cast<Cx*>(c), *ldc, true);                                                                 \
  }                                                                                                                 \
  void cblas_##P##symm(int layout, int side, int uplo, int m, int n, const void* alpha, const void* A, int lda,     \
                       const void* B, int ldb, const void* beta, void* C, int ldc) {                                \
    cblas_symm<Cx>("cblas_" #P "symm", #U "SYMM ", layout, side, uplo, m, n, *static_cast<const Cx*>(alpha),       \
                   static_cast<const Cx*>(A), lda, static_cast<const Cx*>(B), ldb, *static_cast<const Cx*>(beta),  \
                   static_cast<Cx*>(C), ldc);                                                                       \
  }                                                                                                                 \
  void cblas_##P##hemm(int layout, int side, int uplo, int m, int n, const void* alpha, const void* A, int lda,     \
                       const void* B, int ldb, const void* beta, void* C, int ldc) {                                \
    cblas_symm<Cx>("cblas_" #P "hemm", #U "HEMM ", layout, side, uplo, m, n, *static_cast<const Cx*>(alpha),       \
                   static_cast<const Cx*>(A), lda, static_cast<const Cx*>(B), ldb, *static_cast<const Cx*>(beta),  \
                   static_cast<Cx*>(C), ldc, true);                                                                 \
  }                                                                                                                 \
  void P##syrk_(const char* uplo, const char* trans, const int* n, const int* k, const void* alpha, const void* a,  \
                const int* lda, const void* beta, void* c, const int* ldc, size_t, size_t) {                        \
    syrk_call<Cx>({#P "syrk_", #U "SYRK "}, *uplo, *trans, *n, *k, *static_cast<const Cx*>(alpha),                 \
                  static_cast<const Cx*>(a), *lda, *static_cast<const Cx*>(beta), static_cast<Cx*>(c), *ldc);      \
  }                                                                                                                 \
  void cblas_##P##syrk(int layout, int uplo, int trans, int n, int k, const void* alpha, const void* A, int lda,    \
                       const void* beta, void* C, int ldc) {                                                        \
    cblas_syrk<Cx>("cblas_" #P "syrk", #U "SYRK ", layout, uplo, trans, n, k, *static_cast<const Cx*>(alpha),      \
                   static_cast<const Cx*>(A), lda, *static_cast<const Cx*>(beta), static_cast<Cx*>(C), ldc);       \
  }                                                                                                                 \
  void P##syr2k_(const char* uplo, const char* trans, const int* n, const int* k, const void* alpha, const void* a, \
                 const int* lda, const void* b, const int* ldb, const void* beta, void* c, const int* ldc, size_t,  \
                 size_t) {                                                                                          \
    syr2k_call<Cx>({#P "syr2k_", #U "SYR2K"}, *uplo, *trans, *n, *k, *static_cast<const Cx*>(alpha),               \
                   static_cast<const Cx*>(a), *lda, static_cast<const Cx*>(b), *ldb, *static_cast<const Cx*>(beta), \
                   static_cast<Cx*>(c), *ldc);                                                                      \
  }                                                                                                                 \
  void cblas_##P##syr2k(int layout, int uplo, int trans, int n, int k, const void* alpha, const void* A, int lda,   \
                        const void* B, int ldb, const void* beta, void* C, int ldc) {                               \
    cblas_syr2k<Cx>("cblas_" #P "syr2k", #U "SYR2K", layout, uplo, trans, n, k, *static_cast<const Cx*>(alpha),    \
                    static_cast<const Cx*>(A), lda, static_cast<const Cx*>(B), ldb, *static_cast<const Cx*>(beta), \
                    static_cast<Cx*>(C), ldc);                                                                      \
  }                                                                                                                 \
  void P##herk_(const char* uplo, const char* trans, const int* n, const int* k, const R* alpha, const void* a,     \
                const int* lda, const R* beta, void* c, const int* ldc, size_t, size_t) {                           \
    herk_call<Cx>({#P "herk_", #U "HERK "}, *uplo, *trans, *n, *k, *alpha, static_cast<const Cx*>(a), *lda, nullptr, \
                  *lda, Cx(0), *beta, static_cast<Cx*>(c), *ldc, false);                                            \
  }                                                                                                                 \
  void cblas_##P##herk(int layout, int uplo, int trans, int n, int k, R alpha, const void* A, int lda, R beta,      \
                       void* C, int ldc) {                                                                          \
    cblas_herk<Cx>("cblas_" #P "herk", #U "HERK ", false, layout, uplo, trans, n, k, alpha,                         \
                   static_cast<const Cx*>(A), lda, nullptr, lda, Cx(0), beta, static_cast<Cx*>(C), ldc);           \
  }                                                                                                                 \
  void P##her2k_(const char* uplo, const char* trans, const int* n, const int* k, const void* alpha, const void* a, \
                 const int* lda, const void* b, const int* ldb, const R* beta, void* c, const int* ldc, size_t,     \
                 size_t) {                                                                                          \
    herk_call<Cx>({#P "her2k_", #U "HER2K"}, *uplo, *trans, *n, *k, R(0), static_cast<const Cx*>(a), *lda,         \
                  static_cast<const Cx*>(b), *ldb, *static_cast<const Cx*>(alpha), *beta, static_cast<Cx*>(c), *ldc, \
                  true);                                                                                            \
  }                                                                                                                 \
  void cblas_##P##her2k(int layout, int uplo, int trans, int n, int k, const void* alpha, const void* A, int lda,   \
                        const void* B, int ldb, R beta, void* C, int ldc) {                                         \
    cblas_herk<Cx>("cblas_" #P "her2k", #U "HER2K", true, layout, uplo, trans, n, k, R(0),                          \
                   static_cast<const Cx*>(A), lda, static_cast<const Cx*>(B), ldb, *static_cast<const Cx*>(alpha), \
                   beta, static_cast<Cx*>(C), ldc);                                                                 \
  }

TRNBLAS_ABI_COMPLEX_L3(c, C, float, cfloat)
TRNBLAS_ABI_COMPLEX_L3(z, Z, double, cdouble)

// ---- Levels 1 and 2: Fortran BLAS ABI and CBLAS ---------------------------------------------------
// Complex arguments and results are std::complex (interleaved (re, im), the layout of Fortran
// COMPLEX); complex FUNCTIONs (CDOTU, ...) return by value in registers as gfortran does.

#define TRNBLAS_ABI_L1(P, T, NRM, ASUM, IAMAX)                                                                      \
  T P##dot_(const int* n, const T* x, const int* incx, const T* y, const int* incy) {                               \
    return dot_call<T>({#P "dot_", ""}, false, *n, x, *incx, y, *incy);                                             \
  }                                                                                                                 \
  T cblas_##P##dot(int n, const T* x, int incx, const T* y, int incy) {                                             \
    return dot_call<T>({"cblas_" #P "dot", "", true}, false, n, x, incx, y, incy);                                  \
  }
#define TRNBLAS_ABI_L1_COMMON(P, T, R, RP, NRM, ASUM, IAMAX)                                                        \
  void P##axpy_(const int* n, const T* alpha, const T* x, const int* incx, T* y, const int* incy) {                 \
    axpy_call<T>({#P "axpy_", ""}, *n, *alpha, x, *incx, y, *incy);                                                 \
  }                                                                                                                 \
  void P##scal_(const int* n, const T* alpha, T* x, const int* incx) {                                              \
    scal_call<T>({#P "scal_", ""}, *n, *alpha, x, *incx);                                                           \
  }                                                                                                                 \
  void P##copy_(const int* n, const T* x, const int* incx, T* y, const int* incy) {                                 \
    copy_call<T>({#P "copy_", ""}, *n, x, *incx, y, *incy);                                                         \
  }                                                                                                                 \
  void P##swap_(const int* n, T* x, const int* incx, T* y, const int* incy) {                                       \
    swap_call<T>({#P "swap_", ""}, *n, x, *incx, y, *incy);                                                         \
  }                                                                                                                 \
  void RP##rot_(const int* n, T* x, const int* incx, T* y, const int* incy, const R* c, const R* s) {               \
    rot_call<T>({#RP "rot_", ""}, *n, x, *incx, y, *incy, *c, *s);                                                  \
  }                                                                                                                 \
  R NRM##_(const int* n, const T* x, const int* incx) { return nrm2_call<T>({#NRM "_", ""}, *n, x, *incx); }         \
  R ASUM##_(const int* n, const T* x, const int* incx) { return asum_call<T>({#ASUM "_", ""}, *n, x, *incx); }       \
  int IAMAX##_(const int* n, const T* x, const int* incx) { return iamax_call<T>({#IAMAX "_", ""}, *n, x, *incx); }  \
  void cblas_##RP##rot(int n, T* x, int incx, T* y, int incy, R c, R s) {                                           \
    rot_call<T>({"cblas_" #RP "rot", "", true}, n, x, incx, y, incy, c, s);                                         \
  }                                                                                                                 \
  R cblas_##NRM(int n, const T* x, int incx) { return nrm2_call<T>({"cblas_" #NRM, "", true}, n, x, incx); }         \
  R cblas_##ASUM(int n, const T* x, int incx) { return asum_call<T>({"cblas_" #ASUM, "", true}, n, x, incx); }       \
  /* CBLAS_INDEX (size_t), 0-based: reference cblas_isamax.c returns iamax - 1, or 0 */                            \
  size_t cblas_##IAMAX(int n, const T* x, int incx) {                                                               \
    const int i = iamax_call<T>({"cblas_" #IAMAX, "", true}, n, x, incx);                                          \
    return i > 0 ? static_cast<size_t>(i - 1) : 0;                                                                  \
  }
// CBLAS's real forms take scalars by value, complex ones by pointer.
#define TRNBLAS_ABI_L1_CBLAS_REAL(P, T)                                                                             \
  void cblas_##P##axpy(int n, T alpha, const T* x, int incx, T* y, int incy) {                                      \
    axpy_call<T>({"cblas_" #P "axpy", "", true}, n, alpha, x, incx, y, incy);                                       \
  }                                                                                                                 \
  void cblas_##P##scal(int n, T alpha, T* x, int incx) { scal_call<T>({"cblas_" #P "scal", "", true}, n, alpha, x, incx); } \
  void cblas_##P##copy(int n, const T* x, int incx, T* y, int incy) {                                               \
    copy_call<T>({"cblas_" #P "copy", "", true}, n, x, incx, y, incy);                                              \
  }                                                                                                                 \
  void cblas_##P##swap(int n, T* x, int incx, T* y, int incy) {                                                     \
    swap_call<T>({"cblas_" #P "swap", "", true}, n, x, incx, y, incy);                                              \
  }
#define TRNBLAS_ABI_L1_COMPLEX(P, T, R, RS)                                                                         \
  T P##dotu_(const int* n, const T* x, const int* incx, const T* y, const int* incy) {                              \
    return dot_call<T>({#P "dotu_", ""}, false, *n, x, *incx, y, *incy);                                           \
  }                                                                                                                 \
  T P##dotc_(const int* n, const T* x, const int* incx, const T* y, const int* incy) {                              \
    return dot_call<T>({#P "dotc_", ""}, true, *n, x, *incx, y, *incy);                                            \
  }                                                                                                                 \
  void RS##scal_(const int* n, const R* alpha, T* x, const int* incx) {                                             \
    scal_call<T>({#RS "scal_", ""}, *n, *alpha, x, *incx);                                                          \
  }                                                                                                                 \
  void cblas_##P##dotu_sub(int n, const void* x, int incx, const void* y, int incy, void* dot) {                   \
    *static_cast<T*>(dot) = dot_call<T>({"cblas_" #P "dotu_sub", "", true}, false, n, static_cast<const T*>(x),    \
                                        incx, static_cast<const T*>(y), incy);                                     \
  }                                                                                                                 \
  void cblas_##P##dotc_sub(int n, const void* x, int incx, const void* y, int incy, void* dot) {                   \
    *static_cast<T*>(dot) = dot_call<T>({"cblas_" #P "dotc_sub", "", true}, true, n, static_cast<const T*>(x),     \
                                        incx, static_cast<const T*>(y), incy);                                     \
  }                                                                                                                 \
  void cblas_##P##axpy(int n, const void* alpha, const void* x, int incx, void* y, int incy) {                      \
    axpy_call<T>({"cblas_" #P "axpy", "", true}, n, *static_cast<const T*>(alpha), static_cast<const T*>(x), incx, \
                 static_cast<T*>(y), incy);                                                                         \
  }                                                                                                                 \
  void cblas_##P##scal(int n, const void* alpha, void* x, int incx) {                                               \
    scal_call<T>({"cblas_" #P "scal", "", true}, n, *static_cast<const T*>(alpha), static_cast<T*>(x), incx);      \
  }                                                                                                                 \
  void cblas_##RS##scal(int n, R alpha, void* x, int incx) {                                                        \
    scal_call<T>({"cblas_" #RS "scal", "", true}, n, alpha, static_cast<T*>(x), incx);                             \
  }                                                                                                                 \
  void cblas_##P##copy(int n, const void* x, int incx, void* y, int incy) {                                         \
    copy_call<T>({"cblas_" #P "copy", "", true}, n, static_cast<const T*>(x), incx, static_cast<T*>(y), incy);     \
  }                                                                                                                 \
  void cblas_##P##swap(int n, void* x, int incx, void* y, int incy) {                                               \
    swap_call<T>({"cblas_" #P "swap", "", true}, n, static_cast<T*>(x), incx, static_cast<T*>(y), incy);           \
  }

using cfloat = std::complex<float>;
using cdouble = std::complex<double>;

TRNBLAS_ABI_L1(s, float, snrm2, sasum, isamax)
TRNBLAS_ABI_L1(d, double, dnrm2, dasum, idamax)
TRNBLAS_ABI_L1_COMMON(s, float, float, s, snrm2, sasum, isamax)
TRNBLAS_ABI_L1_COMMON(d, double, double, d, dnrm2, dasum, idamax)
TRNBLAS_ABI_L1_COMMON(c, cfloat, float, cs, scnrm2, scasum, icamax)
TRNBLAS_ABI_L1_COMMON(z, cdouble, double, zd, dznrm2, dzasum, izamax)
TRNBLAS_ABI_L1_CBLAS_REAL(s, float)
TRNBLAS_ABI_L1_CBLAS_REAL(d, double)
TRNBLAS_ABI_L1_COMPLEX(c, cfloat, float, cs)
TRNBLAS_ABI_L1_COMPLEX(z, cdouble, double, zd)

// SDSDOT (REAL FUNCTION: sb + the fp64 dot of REAL vectors, rounded to REAL) and DSDOT (DOUBLE
// PRECISION FUNCTION), Fortran and CBLAS (reference cblas.h: cblas_sdsdot(N, alpha, X, incX, Y, incY)).
float sdsdot_(const int* n, const float* sb, const float* x, const int* incx, const float* y, const int* incy) {
  return static_cast<float>(dsdot_call({"sdsdot_", ""}, sb, *n, x, *incx, y, *incy));
}
double dsdot_(const int* n, const float* x, const int* incx, const float* y, const int* incy) {
  return dsdot_call({"dsdot_", ""}, nullptr, *n, x, *incx, y, *incy);
}
float cblas_sdsdot(int n, float alpha, const float* x, int incx, const float* y, int incy) {
  return static_cast<float>(dsdot_call({"cblas_sdsdot", "", true}, &alpha, n, x, incx, y, incy));
}
double cblas_dsdot(int n, const float* x, int incx, const float* y, int incy) {
  return dsdot_call({"cblas_dsdot", "", true}, nullptr, n, x, incx, y, incy);
}

// Plane rotation setups and the modified rotation (Fortran and CBLAS; reference cblas.h's
// cblas_crotg/zrotg take void pointers).
#define TRNBLAS_ABI_ROT(P, T)                                                                                       \
  void P##rotg_(T* a, T* b, T* c, T* s) { rotg_call<T>({#P "rotg_", ""}, a, b, c, s); }                             \
  void cblas_##P##rotg(T* a, T* b, T* c, T* s) { rotg_call<T>({"cblas_" #P "rotg", "", true}, a, b, c, s); }        \
  void P##rotm_(const int* n, T* x, const int* incx, T* y, const int* incy, const T* param) {                       \
    rotm_call<T>({#P "rotm_", ""}, *n, x, *incx, y, *incy, param);                                                  \
  }                                                                                                                 \
  void cblas_##P##rotm(int n, T* x, int incx, T* y, int incy, const T* param) {                                     \
    rotm_call<T>({"cblas_" #P "rotm", "", true}, n, x, incx, y, incy, param);                                       \
  }                                                                                                                 \
  void P##rotmg_(T* d1, T* d2, T* x1, const T* y1, T* param) {                                                      \
    rotmg_call<T>({#P "rotmg_", ""}, d1, d2, x1, *y1, param);                                                       \
  }                                                                                                                 \
  void cblas_##P##rotmg(T* d1, T* d2, T* x1, T y1, T* param) {                                                      \
    rotmg_call<T>({"cblas_" #P "rotmg", "", true}, d1, d2, x1, y1, param);                                          \
  }
#define TRNBLAS_ABI_CROTG(P, T, R)                                                                                  \
  void P##rotg_(T* a, const T* b, R* c, T* s) { rotg_call<T>({#P "rotg_", ""}, a, b, c, s); }                       \
  void cblas_##P##rotg(void* a, void* b, R* c, void* s) {                                                           \
    rotg_call<T>({"cblas_" #P "rotg", "", true}, static_cast<T*>(a), static_cast<const T*>(b), c, static_cast<T*>(s)); \
  }
TRNBLAS_ABI_ROT(s, float)
TRNBLAS_ABI_ROT(d, double)
TRNBLAS_ABI_CROTG(c, cfloat, float)
TRNBLAS_ABI_CROTG(z, cdouble, double)

// The Fortran triangular Level 2 entry points (TRMV, TRSV, TBMV, TBSV, TPMV, TPSV), real and complex.
#define TRNBLAS_ABI_L2_TRIANGULAR(P, T, SR)                                                                         \
  void P##trmv_(const char* uplo, const char* trans, const char* diag, const int* n, const T* a, const int* lda,    \
                T* x, const int* incx, size_t, size_t, size_t) {                                                    \
    tr_call<T>({#P "trmv_", SR "TRMV "}, 0, false, *uplo, *trans, *diag, *n, 0, a, *lda, x, *incx);                 \
  }                                                                                                                 \
  void P##trsv_(const char* uplo, const char* trans, const char* diag, const int* n, const T* a, const int* lda,    \
                T* x, const int* incx, size_t, size_t, size_t) {                                                    \
    tr_call<T>({#P "trsv_", SR "TRSV "}, 0, true, *uplo, *trans, *diag, *n, 0, a, *lda, x, *incx);                  \
  }                                                                                                                 \
  void P##tbmv_(const char* uplo, const char* trans, const char* diag, const int* n, const int* k, const T* a,      \
                const int* lda, T* x, const int* incx, size_t, size_t, size_t) {                                    \
    tr_call<T>({#P "tbmv_", SR "TBMV "}, 1, false, *uplo, *trans, *diag, *n, *k, a, *lda, x, *incx);                \
  }                                                                                                                 \
  void P##tbsv_(const char* uplo, const char* trans, const char* diag, const int* n, const int* k, const T* a,      \
                const int* lda, T* x, const int* incx, size_t, size_t, size_t) {                                    \
    tr_call<T>({#P "tbsv_", SR "TBSV "}, 1, true, *uplo, *trans, *diag, *n, *k, a, *lda, x, *incx);                 \
  }                                                                                                                 \
  void P##tpmv_(const char* uplo, const char* trans, const char* diag, const int* n, const T* ap, T* x,             \
                const int* incx, size_t, size_t, size_t) {                                                          \
    tr_call<T>({#P "tpmv_", SR "TPMV "}, 2, false, *uplo, *trans, *diag, *n, 0, ap, 1, x, *incx);                   \
  }                                                                                                                 \
  void P##tpsv_(const char* uplo, const char* trans, const char* diag, const int* n, const T* ap, T* x,             \
                const int* incx, size_t, size_t, size_t) {                                                          \
    tr_call<T>({#P "tpsv_", SR "TPSV "}, 2, true, *uplo, *trans, *diag, *n, 0, ap, 1, x, *incx);                    \
  }

// Level 2, real: Fortran entry points (one hidden length per CHARACTER argument) and CBLAS.
#define TRNBLAS_ABI_L2_REAL(P, T, SR)                                                                               \
  void P##gemv_(const char* trans, const int* m, const int* n, const T* alpha, const T* a, const int* lda,          \
                const T* x, const int* incx, const T* beta, T* y, const int* incy, size_t) {                        \
    gemv_call<T>({#P "gemv_", SR "GEMV "}, *trans, *m, *n, 0, 0, *alpha, a, *lda, x, *incx, *beta, y, *incy, false); \
  }                                                                                                                 \
  void P##gbmv_(const char* trans, const int* m, const int* n, const int* kl, const int* ku, const T* alpha,        \
                const T* a, const int* lda, const T* x, const int* incx, const T* beta, T* y, const int* incy,      \
                size_t) {                                                                                           \
    gemv_call<T>({#P "gbmv_", SR "GBMV "}, *trans, *m, *n, *kl, *ku, *alpha, a, *lda, x, *incx, *beta, y, *incy,    \
                 true);                                                                                             \
  }                                                                                                                 \
  void P##symv_(const char* uplo, const int* n, const T* alpha, const T* a, const int* lda, const T* x,             \
                const int* incx, const T* beta, T* y, const int* incy, size_t) {                                    \
    symv_call<T>({#P "symv_", SR "SYMV "}, 0, *uplo, *n, 0, *alpha, a, *lda, x, *incx, *beta, y, *incy);            \
  }                                                                                                                 \
  void P##sbmv_(const char* uplo, const int* n, const int* k, const T* alpha, const T* a, const int* lda,           \
                const T* x, const int* incx, const T* beta, T* y, const int* incy, size_t) {                        \
    symv_call<T>({#P "sbmv_", SR "SBMV "}, 1, *uplo, *n, *k, *alpha, a, *lda, x, *incx, *beta, y, *incy);           \
  }                                                                                                                 \
  void P##spmv_(const char* uplo, const int* n, const T* alpha, const T* ap, const T* x, const int* incx,           \
                const T* beta, T* y, const int* incy, size_t) {                                                     \
    symv_call<T>({#P "spmv_", SR "SPMV "}, 2, *uplo, *n, 0, *alpha, ap, 1, x, *incx, *beta, y, *incy);              \
  }                                                                                                                 \
  TRNBLAS_ABI_L2_TRIANGULAR(P, T, SR)                                                                               \
  void P##ger_(const int* m, const int* n, const T* alpha, const T* x, const int* incx, const T* y,                 \
               const int* incy, T* a, const int* lda) {                                                             \
    ger_call<T>({#P "ger_", SR "GER  "}, false, *m, *n, *alpha, x, *incx, y, *incy, a, *lda);                       \
  }                                                                                                                 \
  void P##syr_(const char* uplo, const int* n, const T* alpha, const T* x, const int* incx, T* a, const int* lda,   \
               size_t) {                                                                                            \
    syr_call<T, T>({#P "syr_", SR "SYR  "}, false, false, *uplo, *n, *alpha, x, *incx, nullptr, 1, a, *lda);        \
  }                                                                                                                 \
  void P##spr_(const char* uplo, const int* n, const T* alpha, const T* x, const int* incx, T* ap, size_t) {        \
    syr_call<T, T>({#P "spr_", SR "SPR  "}, true, false, *uplo, *n, *alpha, x, *incx, nullptr, 1, ap, 1);           \
  }                                                                                                                 \
  void P##syr2_(const char* uplo, const int* n, const T* alpha, const T* x, const int* incx, const T* y,            \
                const int* incy, T* a, const int* lda, size_t) {                                                    \
    syr_call<T, T>({#P "syr2_", SR "SYR2 "}, false, true, *uplo, *n, *alpha, x, *incx, y, *incy, a, *lda);          \
  }                                                                                                                 \
  void P##spr2_(const char* uplo, const int* n, const T* alpha, const T* x, const int* incx, const T* y,            \
                const int* incy, T* ap, size_t) {                                                                   \
    syr_call<T, T>({#P "spr2_", SR "SPR2 "}, true, true, *uplo, *n, *alpha, x, *incx, y, *incy, ap, 1);             \
  }                                                                                                                 \
  void cblas_##P##gemv(int layout, int trans, int m, int n, T alpha, const T* a, int lda, const T* x, int incx,     \
                       T beta, T* y, int incy) {                                                                    \
    cblas_gemv<T>("cblas_" #P "gemv", SR "GEMV ", false, layout, trans, m, n, 0, 0, alpha, a, lda, x, incx, beta,   \
                  y, incy);                                                                                         \
  }                                                                                                                 \
  void cblas_##P##gbmv(int layout, int trans, int m, int n, int kl, int ku, T alpha, const T* a, int lda,          \
                       const T* x, int incx, T beta, T* y, int incy) {                                              \
    cblas_gemv<T>("cblas_" #P "gbmv", SR "GBMV ", true, layout, trans, m, n, kl, ku, alpha, a, lda, x, incx, beta,  \
                  y, incy);                                                                                         \
  }                                                                                                                 \
  void cblas_##P##symv(int layout, int uplo, int n, T alpha, const T* a, int lda, const T* x, int incx, T beta,     \
                       T* y, int incy) {                                                                            \
    cblas_symv<T>("cblas_" #P "symv", SR "SYMV ", 0, layout, uplo, n, 0, alpha, a, lda, x, incx, beta, y, incy);    \
  }                                                                                                                 \
  void cblas_##P##sbmv(int layout, int uplo, int n, int k, T alpha, const T* a, int lda, const T* x, int incx,      \
                       T beta, T* y, int incy) {                                                                    \
    cblas_symv<T>("cblas_" #P "sbmv", SR "SBMV ", 1, layout, uplo, n, k, alpha, a, lda, x, incx, beta, y, incy);    \
  }                                                                                                                 \
  void cblas_##P##spmv(int layout, int uplo, int n, T alpha, const T* ap, const T* x, int incx, T beta, T* y,       \
                       int incy) {                                                                                  \
    cblas_symv<T>("cblas_" #P "spmv", SR "SPMV ", 2, layout, uplo, n, 0, alpha, ap, 1, x, incx, beta, y, incy);     \
  }                                                                                                                 \
  void cblas_##P##trmv(int layout, int uplo, int trans, int diag, int n, const T* a, int lda, T* x, int incx) {     \
    cblas_tr<T>("cblas_" #P "trmv", SR "TRMV ", 0, false, layout, uplo, trans, diag, n, 0, a, lda, x, incx);        \
  }                                                                                                                 \
  void cblas_##P##trsv(int layout, int uplo, int trans, int diag, int n, const T* a, int lda, T* x, int incx) {     \
    cblas_tr<T>("cblas_" #P "trsv", SR "TRSV ", 0, true, layout, uplo, trans, diag, n, 0, a, lda, x, incx);         \
  }                                                                                                                 \
  void cblas_##P##tbmv(int layout, int uplo, int trans, int diag, int n, int k, const T* a, int lda, T* x,          \
                       int incx) {                                                                                  \
    cblas_tr<T>("cblas_" #P "tbmv", SR "TBMV ", 1, false, layout, uplo, trans, diag, n, k, a, lda, x, incx);        \
  }                                                                                                                 \
  void cblas_##P##tbsv(int layout, int uplo, int trans, int diag, int n, int k, const T* a, int lda, T* x,          \
                       int incx) {                                                                                  \
    cblas_tr<T>("cblas_" #P "tbsv", SR "TBSV ", 1, true, layout, uplo, trans, diag, n, k, a, lda, x, incx);         \
  }                                                                                                                 \
  void cblas_##P##tpmv(int layout, int uplo, int trans, int diag, int n, const T* ap, T* x, int incx) {             \
    cblas_tr<T>("cblas_" #P "tpmv", SR "TPMV ", 2, false, layout, uplo, trans, diag, n, 0, ap, 1, x, incx);         \
  }                                                                                                                 \
  void cblas_##P##tpsv(int layout, int uplo, int trans, int diag, int n, const T* ap, T* x, int incx) {             \
    cblas_tr<T>("cblas_" #P "tpsv", SR "TPSV ", 2, true, layout, uplo, trans, diag, n, 0, ap, 1, x, incx);          \
  }                                                                                                                 \
  void cblas_##P##ger(int layout, int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a,          \
                      int lda) {                                                                                    \
    cblas_ger<T>("cblas_" #P "ger", SR "GER  ", layout, m, n, alpha, x, incx, y, incy, a, lda);                     \
  }                                                                                                                 \
  void cblas_##P##syr(int layout, int uplo, int n, T alpha, const T* x, int incx, T* a, int lda) {                  \
    cblas_syr<T>("cblas_" #P "syr", SR "SYR  ", false, false, layout, uplo, n, alpha, x, incx, nullptr, 1, a, lda);  \
  }                                                                                                                 \
  void cblas_##P##spr(int layout, int uplo, int n, T alpha, const T* x, int incx, T* ap) {                          \
    cblas_syr<T>("cblas_" #P "spr", SR "SPR  ", true, false, layout, uplo, n, alpha, x, incx, nullptr, 1, ap, 1);    \
  }                                                                                                                 \
  void cblas_##P##syr2(int layout, int uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a,      \
                       int lda) {                                                                                   \
    cblas_syr<T>("cblas_" #P "syr2", SR "SYR2 ", false, true, layout, uplo, n, alpha, x, incx, y, incy, a, lda);    \
  }                                                                                                                 \
  void cblas_##P##spr2(int layout, int uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* ap) {   \
    cblas_syr<T>("cblas_" #P "spr2", SR "SPR2 ", true, true, layout, uplo, n, alpha, x, incx, y, incy, ap, 1);      \
  }

TRNBLAS_ABI_L2_REAL(s, float, "S")
TRNBLAS_ABI_L2_REAL(d, double, "D")

// Level 2, complex: the routines trnblas has (GEMV, HEMV, HBMV, HPMV, GERU, GERC, HER, HPR, HER2,
// HPR2), Fortran entry points only.
#define TRNBLAS_ABI_L2_COMPLEX(P, T, R, SR)                                                                         \
  void P##gemv_(const char* trans, const int* m, const int* n, const T* alpha, const T* a, const int* lda,          \
                const T* x, const int* incx, const T* beta, T* y, const int* incy, size_t) {                        \
    gemv_call<T>({#P "gemv_", SR "GEMV "}, *trans, *m, *n, 0, 0, *alpha, a, *lda, x, *incx, *beta, y, *incy, false); \
  }                                                                                                                 \
  void P##hemv_(const char* uplo, const int* n, const T* alpha, const T* a, const int* lda, const T* x,             \
                const int* incx, const T* beta, T* y, const int* incy, size_t) {                                    \
    symv_call<T>({#P "hemv_", SR "HEMV "}, 0, *uplo, *n, 0, *alpha, a, *lda, x, *incx, *beta, y, *incy);            \
  }                                                                                                                 \
  void P##hbmv_(const char* uplo, const int* n, const int* k, const T* alpha, const T* a, const int* lda,           \
                const T* x, const int* incx, const T* beta, T* y, const int* incy, size_t) {                        \
    symv_call<T>({#P "hbmv_", SR "HBMV "}, 1, *uplo, *n, *k, *alpha, a, *lda, x, *incx, *beta, y, *incy);           \
  }                                                                                                                 \
  void P##hpmv_(const char* uplo, const int* n, const T* alpha, const T* ap, const T* x, const int* incx,           \
                const T* beta, T* y, const int* incy, size_t) {                                                     \
    symv_call<T>({#P "hpmv_", SR "HPMV "}, 2, *uplo, *n, 0, *alpha, ap, 1, x, *incx, *beta, y, *incy);              \
  }                                                                                                                 \
  void P##geru_(const int* m, const int* n, const T* alpha, const T* x, const int* incx, const T* y,                \
                const int* incy, T* a, const int* lda) {                                                            \
    ger_call<T>({#P "geru_", SR "GERU "}, false, *m, *n, *alpha, x, *incx, y, *incy, a, *lda);                      \
  }                                                                                                                 \
  void P##gerc_(const int* m, const int* n, const T* alpha, const T* x, const int* incx, const T* y,                \
                const int* incy, T* a, const int* lda) {                                                            \
    ger_call<T>({#P "gerc_", SR "GERC "}, true, *m, *n, *alpha, x, *incx, y, *incy, a, *lda);                       \
  }                                                                                                                 \
  void P##her_(const char* uplo, const int* n, const R* alpha, const T* x, const int* incx, T* a, const int* lda,   \
               size_t) {                                                                                            \
    syr_call<T, R>({#P "her_", SR "HER  "}, false, false, *uplo, *n, *alpha, x, *incx, nullptr, 1, a, *lda);        \
  }                                                                                                                 \
  void P##hpr_(const char* uplo, const int* n, const R* alpha, const T* x, const int* incx, T* ap, size_t) {        \
    syr_call<T, R>({#P "hpr_", SR "HPR  "}, true, false, *uplo, *n, *alpha, x, *incx, nullptr, 1, ap, 1);           \
  }                                                                                                                 \
  void P##her2_(const char* uplo, const int* n, const T* alpha, const T* x, const int* incx, const T* y,            \
                const int* incy, T* a, const int* lda, size_t) {                                                    \
    syr_call<T, T>({#P "her2_", SR "HER2 "}, false, true, *uplo, *n, *alpha, x, *incx, y, *incy, a, *lda);          \
  }                                                                                                                 \
  void P##hpr2_(const char* uplo, const int* n, const T* alpha, const T* x, const int* incx, const T* y,            \
                const int* incy, T* ap, size_t) {                                                                   \
    syr_call<T, T>({#P "hpr2_", SR "HPR2 "}, true, true, *uplo, *n, *alpha, x, *incx, y, *incy, ap, 1);             \
  }

TRNBLAS_ABI_L2_COMPLEX(c, cfloat, float, "C")
TRNBLAS_ABI_L2_COMPLEX(z, cdouble, double, "Z")

// Level 2, complex banded and triangular (GBMV, TRMV, TRSV, TBMV, TBSV, TPMV, TPSV), Fortran and CBLAS.
#define TRNBLAS_ABI_L2_COMPLEX_TR(P, T, SR)                                                                         \
  void P##gbmv_(const char* trans, const int* m, const int* n, const int* kl, const int* ku, const T* alpha,        \
                const T* a, const int* lda, const T* x, const int* incx, const T* beta, T* y, const int* incy,      \
                size_t) {                                                                                           \
    gemv_call<T>({#P "gbmv_", SR "GBMV "}, *trans, *m, *n, *kl, *ku, *alpha, a, *lda, x, *incx, *beta, y, *incy,    \
                 true);                                                                                             \
  }                                                                                                                 \
  TRNBLAS_ABI_L2_TRIANGULAR(P, T, SR)                                                                               \
  void cblas_##P##gbmv(int layout, int trans, int m, int n, int kl, int ku, const void* alpha, const void* a,       \
                       int lda, const void* x, int incx, const void* beta, void* y, int incy) {                     \
    cblas_cgbmv<T>("cblas_" #P "gbmv", SR "GBMV ", layout, trans, m, n, kl, ku, alpha, a, lda, x, incx, beta, y,    \
                   incy);                                                                                           \
  }                                                                                                                 \
  void cblas_##P##trmv(int layout, int uplo, int trans, int diag, int n, const void* a, int lda, void* x,           \
                       int incx) {                                                                                  \
    cblas_ctr<T>("cblas_" #P "trmv", SR "TRMV ", 0, false, layout, uplo, trans, diag, n, 0, a, lda, x, incx);       \
  }                                                                                                                 \
  void cblas_##P##trsv(int layout, int uplo, int trans, int diag, int n, const void* a, int lda, void* x,           \
                       int incx) {                                                                                  \
    cblas_ctr<T>("cblas_" #P "trsv", SR "TRSV ", 0, true, layout, uplo, trans, diag, n, 0, a, lda, x, incx);        \
  }                                                                                                                 \
  void cblas_##P##tbmv(int layout, int uplo, int trans, int diag, int n, int k, const void* a, int lda, void* x,    \
                       int incx) {                                                                                  \
    cblas_ctr<T>("cblas_" #P "tbmv", SR "TBMV ", 1, false, layout, uplo, trans, diag, n, k, a, lda, x, incx);       \
  }                                                                                                                 \
  void cblas_##P##tbsv(int layout, int uplo, int trans, int diag, int n, int k, const void* a, int lda, void* x,    \
                       int incx) {                                                                                  \
    cblas_ctr<T>("cblas_" #P "tbsv", SR "TBSV ", 1, true, layout, uplo, trans, diag, n, k, a, lda, x, incx);        \
  }                                                                                                                 \
  void cblas_##P##tpmv(int layout, int uplo, int trans, int diag, int n, const void* ap, void* x, int incx) {       \
    cblas_ctr<T>("cblas_" #P "tpmv", SR "TPMV ", 2, false, layout, uplo, trans, diag, n, 0, ap, 1, x, incx);        \
  }                                                                                                                 \
  void cblas_##P##tpsv(int layout, int uplo, int trans, int diag, int n, const void* ap, void* x, int incx) {       \
    cblas_ctr<T>("cblas_" #P "tpsv", SR "TPSV ", 2, true, layout, uplo, trans, diag, n, 0, ap, 1, x, incx);         \
  }
TRNBLAS_ABI_L2_COMPLEX_TR(c, cfloat, "C")
TRNBLAS_ABI_L2_COMPLEX_TR(z, cdouble, "Z")

// Level 2, complex CBLAS (the same routines).
#define TRNBLAS_ABI_L2_CBLAS_COMPLEX(P, T, R, SR)                                                                   \
  void cblas_##P##gemv(int layout, int trans, int m, int n, const void* alpha, const void* a, int lda,              \
                       const void* x, int incx, const void* beta, void* y, int incy) {                              \
    cblas_cgemv<T>("cblas_" #P "gemv", SR "GEMV ", layout, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);     \
  }                                                                                                                 \
  void cblas_##P##hemv(int layout, int uplo, int n, const void* alpha, const void* a, int lda, const void* x,       \
                       int incx, const void* beta, void* y, int incy) {                                             \
    cblas_hemv<T>("cblas_" #P "hemv", SR "HEMV ", 0, layout, uplo, n, 0, alpha, a, lda, x, incx, beta, y, incy);    \
  }                                                                                                                 \
  void cblas_##P##hbmv(int layout, int uplo, int n, int k, const void* alpha, const void* a, int lda, const void* x, \
                       int incx, const void* beta, void* y, int incy) {                                             \
    cblas_hemv<T>("cblas_" #P "hbmv", SR "HBMV ", 1, layout, uplo, n, k, alpha, a, lda, x, incx, beta, y, incy);    \
  }                                                                                                                 \
  void cblas_##P##hpmv(int layout, int uplo, int n, const void* alpha, const void* ap, const void* x, int incx,     \
                       const void* beta, void* y, int incy) {                                                       \
    cblas_hemv<T>("cblas_" #P "hpmv", SR "HPMV ", 2, layout, uplo, n, 0, alpha, ap, 1, x, incx, beta, y, incy);     \
  }                                                                                                                 \
  void cblas_##P##geru(int layout, int m, int n, const void* alpha, const void* x, int incx, const void* y,         \
                       int incy, void* a, int lda) {                                                                \
    cblas_cger<T>("cblas_" #P "geru", SR "GERU ", false, layout, m, n, alpha, x, incx, y, incy, a, lda);            \
  }                                                                                                                 \
  void cblas_##P##gerc(int layout, int m, int n, const void* alpha, const void* x, int incx, const void* y,         \
                       int incy, void* a, int lda) {                                                                \
    cblas_cger<T>("cblas_" #P "gerc", SR "GERC ", true, layout, m, n, alpha, x, incx, y, incy, a, lda);             \
  }                                                                                                                 \
  void cblas_##P##her(int layout, int uplo, int n, R alpha, const void* x, int incx, void* a, int lda) {            \
    cblas_her<T, R>("cblas_" #P "her", SR "HER  ", false, false, layout, uplo, n, alpha, x, incx, nullptr, 1, a,    \
                    lda);                                                                                           \
  }                                                                                                                 \
  void cblas_##P##hpr(int layout, int uplo, int n, R alpha, const void* x, int incx, void* ap) {                    \
    cblas_her<T, R>("cblas_" #P "hpr", SR "HPR  ", true, false, layout, uplo, n, alpha, x, incx, nullptr, 1, ap, 1); \
  }                                                                                                                 \
  void cblas_##P##her2(int layout, int uplo, int n, const void* alpha, const void* x, int incx, const void* y,      \
                       int incy, void* a, int lda) {                                                                \
    cblas_her<T, T>("cblas_" #P "her2", SR "HER2 ", false, true, layout, uplo, n, *static_cast<const T*>(alpha), x, \
                    incx, y, incy, a, lda);                                                                         \
  }                                                                                                                 \
  void cblas_##P##hpr2(int layout, int uplo, int n, const void* alpha, const void* x, int incx, const void* y,      \
                       int incy, void* ap) {                                                                        \
    cblas_her<T, T>("cblas_" #P "hpr2", SR "HPR2 ", true, true, layout, uplo, n, *static_cast<const T*>(alpha), x,  \
                    incx, y, incy, ap, 1);                                                                          \
  }

TRNBLAS_ABI_L2_CBLAS_COMPLEX(c, cfloat, float, "C")
TRNBLAS_ABI_L2_CBLAS_COMPLEX(z, cdouble, double, "Z")

}  // extern "C"
