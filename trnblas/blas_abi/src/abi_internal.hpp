// The shared floor of libtrnblas_blas.so, the Fortran BLAS and CBLAS ABI over the trnblas C++ API
// (trn/blas/blas.hpp, level3.hpp, level12.hpp). Every entry point is a line that names its routine
// and hands its arguments to a call of this floor:
//
//   abi_env.cpp       configuration from the environment (TRNBLAS_TARGET, _NUMERICS, _COMPUTE),
//                     the TRNBLAS_BLAS_TRACE lines and TRNBLAS_BLAS_COUNT totals (`run`);
//   abi_errors.cpp    error reporting: xerbla_ / cblas_xerbla (weak), reference CBLAS's globals and
//                     the row-major parameter correction, the CBLAS layout check;
//   level3_calls.hpp  Level 3: netlib INFO checks and the Fortran-level calls (gemm_call, ...);
//   level12_calls.hpp Levels 1 and 2: the same;
//   level*_fortran.cpp, level*_cblas.cpp: the exported symbols of each level, CBLAS layouts mapped
//                     to the Fortran-level calls as reference CBLAS does (operand swaps; sign flips
//                     of imaginary parts for complex row-major Level 2).
//
// No arithmetic on the outputs happens here: every product runs in trnblas (tile kernels on the
// emulated NeuronCore, or its host-side fp64 paths). Contract and environment variables: trnblas_blas.h.
#pragma once

#include <complex>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <type_traits>
#include <utility>

#include "trn/blas/blas.hpp"
#include "trn/blas/level12.hpp"
#include "trn/blas/level3.hpp"
#include "trn/blas/modes.hpp"
#include "trn/core/scalar_traits.hpp"
#include "trnblas_blas.h"

// Reference CBLAS's globals (cblas_globals.c), defined in abi_errors.cpp; and its handler.
extern "C" {
extern int RowMajorStrg;     // NOLINT: reference CBLAS name
extern int CBLAS_CallFromC;  // NOLINT: reference CBLAS name
void cblas_xerbla(int info, const char* rout, const char* form, ...);
}

namespace trnblas_abi {

using trn::blas::GemmMode;
using trn::blas::Op;
using trn::blas::Uplo;

using cfloat = std::complex<float>;
using cdouble = std::complex<double>;
using trn::is_complex_v;  // trn/core/scalar_traits.hpp
using trn::real_t;
// The complex Level 3 routines (C/Z) take T = std::complex<float/double>.
template <class T>
constexpr bool kComplexL3 = std::is_same_v<T, cfloat> || std::is_same_v<T, cdouble>;

// A complex scalar or array handed over as void* (Fortran and CBLAS complex arguments).
template <class T>
const T& scalar_at(const void* p) {
  return *static_cast<const T*>(p);
}
// A scalar argument as a value: itself, or read through the pointer it came as.
template <class T>
T scalar_value(const T& v) {
  return v;
}
template <class T>
T scalar_value(const void* p) {
  return *static_cast<const T*>(p);
}
template <class T>
const T* in(const void* p) {
  return static_cast<const T*>(p);
}
template <class T>
T* out(void* p) {
  return static_cast<T*>(p);
}

// ---- configuration (abi_env.cpp) ----------------------------------------------------------------

struct Config {
  trn::blas::Settings settings;  // host threads: TRN_NUM_THREADS, read by the core's launcher
  GemmMode mode = GemmMode::fp32;
};
// TRNBLAS_TARGET, TRNBLAS_NUMERICS and, for fp32-input Level 3 routines, TRNBLAS_COMPUTE (fp64
// routines: the Ozaki DGEMM).
Config config_from_env(bool fp64);
template <class T>
Config config_from_env() {
  return config_from_env(std::is_same_v<T, double> || std::is_same_v<T, cdouble>);
}
// Levels 1 and 2 have no precision modes: S routines compute in fp32, D routines through the Ozaki
// DGEMM or on the host side (level12.hpp); TRNBLAS_COMPUTE applies to Level 3 only.
template <class T>
Config level12_config() {
  Config c = config_from_env<real_t<T>>();
  c.mode = std::is_same_v<real_t<T>, double> ? GemmMode::fp64_ozaki : GemmMode::fp32;
  return c;
}

// ---- entry points, trace and error reporting (abi_env.cpp, abi_errors.cpp) ----------------------

// Which public symbol a call came through: decides the error handler and the trace name.
struct Entry {
  const char* symbol;       // "sgemm_", "cblas_sgemm", ...
  const char* srname;       // Fortran XERBLA name, blank-padded to 6: "SGEMM "
  bool cblas = false;
  const char* layout = "";  // CBLAS entry points: " layout=col" or " layout=row"
};

bool trace_requested();  // TRNBLAS_BLAS_TRACE is set (and not "0")
// The end of a call: the next call's first environment read checks the environment again
// (abi_env.cpp: the variables are read once per call, not once per use).
void env_call_done();
// A call's argument text (printf format) into buf, formatted only when TRNBLAS_BLAS_TRACE is on:
// only trace lines read it, and formatting it on every untraced call was ~2 % of a LAPACK client.
void trace_args(char* buf, std::size_t size, const char* format, ...) __attribute__((format(printf, 3, 4)));
// TRNBLAS_BLAS_COUNT set: counts the call by entry point; totals written at exit.
void count_call(const Entry& e);
// TRNBLAS_BLAS_PROFILE set: the calling thread's CPU time in ns now (else -1), and the call's CPU
// time added to its entry point's total (written at exit with the call counts).
long long profile_start();
void profile_call(const Entry& e, long long start_ns);
// The start of a call that runs: count_call, profile_start and trace_requested from one look at
// the environment.
struct CallStart {
  long long profile_ns;  // profile_start()'s answer
  bool trace;            // trace_requested()'s
};
CallStart call_start(const Entry& e);
void trace_outcome(const Entry& e, const char* args, const char* outcome);
// The trace line of a finished call: its mode, target, numerics and instruction counts.
void trace_done(const Entry& e, const char* args, const Config& cfg, const trn::blas::CallReport& report);
// A failure inside the emulator cannot be reported through the BLAS ABI: it is printed (and traced).
void report_exception(const Entry& e, const char* args, const std::exception& ex, bool trace);

// A Fortran-level INFO: xerbla_ for Fortran entry points; cblas_xerbla(INFO + 1) for CBLAS ones
// (CBLAS prepends the layout argument). For row-major calls INFO refers to the operand-swapped
// column-major call; cblas_xerbla maps it back (reference CBLAS's convention, cblas_xerbla.c).
void report_info(const Entry& e, const char* args, int info);
// An error found before the Fortran-level checks (CBLAS layout, transpose and uplo arguments).
void report_cblas(const Entry& e, int position, const char* form, int value);

// Runs one trnblas call; C is left as the kernels left it when it throws.
template <class F>
void run(const Entry& e, const char* args, const Config& cfg, F&& body) {
  const auto [profile_ns, trace] = call_start(e);
  trn::blas::CallReport report;
  try {
    body(trace ? &report : nullptr);
  } catch (const std::exception& ex) {
    report_exception(e, args, ex, trace);
    if (profile_ns >= 0) profile_call(e, profile_ns);
    env_call_done();
    return;
  }
  if (trace) trace_done(e, args, cfg, report);
  if (profile_ns >= 0) profile_call(e, profile_ns);
  env_call_done();
}

// A Fortran-level call: INFO != 0 is reported; otherwise body(cfg, report) runs with the
// configuration config() reads (after the checks, so that an illegal call reads no environment).
template <class F>
void run_checked(const Entry& e, const char* args, int info, Config (*config)(), F&& body) {
  if (info != 0) return report_info(e, args, info);
  const Config cfg = config();
  run(e, args, cfg, [&](trn::blas::CallReport* report) { body(cfg, report); });
}

// ---- netlib argument checks ---------------------------------------------------------------------

// LSAME: the first character, either case.
inline bool lsame(char a, char b) { return a == b || (a >= 'a' && a <= 'z' && a - 'a' + 'A' == b); }
// trans is one of `accepted` (real: N, T, C; CSYRK/CSYR2K: N, T; CHERK/CHER2K: N, C).
inline bool trans_in(char trans, const char* accepted) {
  for (; *accepted != '\0'; ++accepted)
    if (lsame(trans, *accepted)) return true;
  return false;
}
inline bool trans_ok(char t) { return trans_in(t, "NTC"); }
inline bool uplo_ok(char u) { return lsame(u, 'U') || lsame(u, 'L'); }
inline bool diag_ok(char d) { return lsame(d, 'U') || lsame(d, 'N'); }
inline bool side_ok(char s) { return lsame(s, 'L') || lsame(s, 'R'); }
// The first failing check of a list of (condition, INFO) pairs in netlib's order (0: valid).
inline int first_info(std::initializer_list<std::pair<bool, int>> checks) {
  for (const auto& [bad, info] : checks)
    if (bad) return info;
  return 0;
}

inline Op to_op(char t) { return lsame(t, 'N') ? Op::N : Op::T; }  // 'C' is 'T' for real data
inline trn::blas::COp to_cop(char t) {
  return lsame(t, 'N') ? trn::blas::COp::N : lsame(t, 'T') ? trn::blas::COp::T : trn::blas::COp::C;
}
inline Uplo to_uplo(char u) { return lsame(u, 'U') ? Uplo::upper : Uplo::lower; }
inline trn::blas::Side to_side(char s) { return lsame(s, 'L') ? trn::blas::Side::left : trn::blas::Side::right; }
inline trn::blas::Diag to_diag(char d) { return lsame(d, 'U') ? trn::blas::Diag::unit : trn::blas::Diag::non_unit; }

// ---- CBLAS: enums and layouts (reference cblas.h values) ----------------------------------------

constexpr int kRowMajor = 101, kColMajor = 102;
constexpr int kNoTrans = 111, kTrans = 112, kConjTrans = 113;
constexpr int kUpper = 121, kLower = 122;
constexpr int kNonUnit = 131, kUnit = 132;
constexpr int kLeft = 141, kRight = 142;

// Sets and clears reference CBLAS's globals around a CBLAS call, as reference CBLAS does (and the
// per-thread copy this library's cblas_xerbla reads).
class CblasCall {
 public:
  CblasCall();
  ~CblasCall();
  CblasCall(const CblasCall&) = delete;
  CblasCall& operator=(const CblasCall&) = delete;
  void set_row_major();
};

// The layout check every CBLAS routine starts with (parameter 1); sets e.layout and, for row-major,
// the globals. False after reporting an error.
bool cblas_layout(Entry& e, CblasCall& call, int layout);

// CBLAS enum -> Fortran character ('\0': illegal). Row-major (row) swaps what the transposed
// storage swaps: Upper <-> Lower, Left <-> Right.
inline char cblas_trans(int t) { return t == kNoTrans ? 'N' : t == kTrans ? 'T' : t == kConjTrans ? 'C' : '\0'; }
inline char cblas_uplo(int uplo, bool row) {
  return uplo == kUpper ? (row ? 'L' : 'U') : uplo == kLower ? (row ? 'U' : 'L') : '\0';
}
inline char cblas_side(int side, bool row) {
  return side == kLeft ? (row ? 'R' : 'L') : side == kRight ? (row ? 'L' : 'R') : '\0';
}
inline char cblas_diag(int diag) { return diag == kUnit ? 'U' : diag == kNonUnit ? 'N' : '\0'; }

// One CBLAS call's prologue: reference CBLAS's globals set for its duration, the layout checked
// (parameter 1), then each enum argument mapped to its Fortran character with its parameter
// position. The first illegal argument is reported; every later mapping is skipped (returns '\0')
// and the object converts to false.
class CblasArgs {
 public:
  CblasArgs(const char* symbol, const char* srname, int layout)
      : e_{symbol, srname, true}, row_(layout == kRowMajor), ok_(cblas_layout(e_, call_, layout)) {}
  explicit operator bool() const { return ok_; }
  bool row() const { return row_; }
  const Entry& entry() const { return e_; }

  char uplo(int v, int position) { return map(cblas_uplo(v, row_), position, "Illegal Uplo setting, %d\n", v); }
  char side(int v, int position) { return map(cblas_side(v, row_), position, "Illegal Side setting, %d\n", v); }
  char diag(int v, int position) { return map(cblas_diag(v), position, "Illegal Diag setting, %d\n", v); }
  // `form` names the argument as reference CBLAS does ("Illegal TransA setting, %d\n", ...).
  char trans(int v, int position, const char* form) { return map(cblas_trans(v), position, form, v); }
  // CHERK/CHER2K: N or C only; row-major swaps them.
  char herk_trans(int v, int position) {
    const char t = v == kNoTrans ? (row_ ? 'C' : 'N') : v == kConjTrans ? (row_ ? 'N' : 'C') : '\0';
    return map(t, position, "Illegal Trans setting, %d\n", v);
  }

 private:
  char map(char c, int position, const char* form, int v) {
    if (!ok_) return '\0';
    if (c == '\0') {
      ok_ = false;
      report_cblas(e_, position, form, v);
    }
    return c;
  }
  CblasCall call_;
  Entry e_;
  bool row_;
  bool ok_;
};

}  // namespace trnblas_abi
