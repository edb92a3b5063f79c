// The shared floor of libtrnsolver_lapack.so, the Fortran LAPACK ABI over trnsolver's C++ kit
// (trn/solver/*.hpp). Contract and environment: include/trnsolver_lapack.h.
//
//   abi_env.cpp      settings from the environment (TRNSOLVER_LAPACK_TARGET, _NUMERICS), the
//                    TRNSOLVER_LAPACK_TRACE lines and the per-routine counts printed at exit;
//   abi_errors.cpp   bad arguments (INFO = -i, xerbla_), the weak default xerbla_, the fall-through
//                    to the next library (dlsym(RTLD_NEXT)) and the calls nobody could answer;
//   <family>_fortran.cpp  the exported symbols of one routine family, nothing else.
//
// HOW A ROUTINE FAMILY PLUGS IN (one .cpp per family, so that families never share a file):
//   1. src/<family>_fortran.cpp includes this header and defines, inside extern "C", one function per
//      symbol with the gfortran signature (all arguments by pointer, the hidden size_t lengths of the
//      CHARACTER arguments last). Each does
//          run(Entry{"dpotrf_", "DPOTRF"}, args, bad_argument_position, info,
//              [&](const Settings& s, CallReport* report) -> Answer { ...kit call...; return Answer::done(i); },
//              TRNSOLVER_LAPACK_NEXT(dpotrf_, uplo, n, a, lda, info, uplo_len));
//      where bad_argument_position is reference LAPACK's first failing check (first_info), the body
//      returns Answer::pass("why") for a call the kit cannot answer (before writing any output) and
//      Answer::done(info) otherwise, and TRNSOLVER_LAPACK_NEXT forwards the call unchanged (every
//      argument, hidden lengths too) to the next library when the body passes.
//   2. Add the file to the library's sources in ../CMakeLists.txt (a target_sources line of its own).
//   3. Add the symbols to ../trnsolver_lapack.map (a line of their own) and the routine to
//      docs/trnsolver.md "LAPACK ABI shim".
//
// No arithmetic on the outputs happens here: every result comes from trnsolver (tile kernels on the
// emulated NeuronCore and the kit's fp64 host steps) or from the next library.
#pragma once

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <type_traits>
#include <utility>

#include "trn/core/scalar_traits.hpp"
#include "trn/solver/solver.hpp"
#include "trnsolver_lapack.h"

namespace trnsolver_lapack {

using trn::blas::Uplo;
using trn::solver::CallReport;
using trn::solver::Settings;

using cfloat = std::complex<float>;
using cdouble = std::complex<double>;
using trn::is_complex_v;  // trn/core/scalar_traits.hpp: float -> float, std::complex<double> -> double
using trn::real_t;

// A Fortran COMPLEX array handed over as void*.
template <class T>
T* as(void* p) {
  return static_cast<T*>(p);
}
template <class T>
const T* as(const void* p) {
  return static_cast<const T*>(p);
}

// ---- configuration (abi_env.cpp) ----------------------------------------------------------------

// TRNSOLVER_LAPACK_TARGET and TRNSOLVER_LAPACK_NUMERICS (host threads: TRN_NUM_THREADS, read by the
// core's launcher). An unknown value prints one warning and the default is used.
Settings settings_from_env();

// ---- entry points, outcomes and the trace (abi_env.cpp, abi_errors.cpp) -------------------------

// Which public symbol a call came through: its trace name and its XERBLA name.
struct Entry {
  const char* symbol;  // "dpotrf_"
  const char* srname;  // "DPOTRF" (XERBLA's SRNAME)
};

// What a routine body decided: answered with INFO, or not answerable by the kit (why).
struct Answer {
  bool answered = false;
  int info = 0;
  const char* why = "";
  static Answer done(int info) { return {true, info, ""}; }
  static Answer pass(const char* why) { return {false, 0, why}; }
};

enum class Outcome : std::uint8_t { answered, passed, bad_argument, unanswered, failed };

bool trace_requested();  // TRNSOLVER_LAPACK_TRACE is set (and not "0")
// Counts the outcome for e (printed at exit when tracing) and, when tracing, writes the call's line
// "trnsolver_lapack <symbol> <args> -> <detail>".
void record(const Entry& e, const char* args, Outcome o, const char* detail);
// The line of an answered call: INFO, the emulated instructions and the fp64 host flops.
void record_answered(const Entry& e, const char* args, int info, const CallReport* report);

// A bad argument (1-based position): INFO = -position, xerbla_(SRNAME, position); outputs untouched.
void report_bad_argument(const Entry& e, const char* args, int position, int* info);
// An exception from the kit: one line on stderr, INFO = TRNSOLVER_LAPACK_FAILED.
void report_failure(const Entry& e, const char* args, const std::exception& ex, int* info);
// No next library has the symbol: one line on stderr, INFO = TRNSOLVER_LAPACK_UNANSWERED.
void report_unanswered(const Entry& e, const char* args, const char* why, int* info);

// The next definition of `symbol` after this library in the search order, or nullptr.
void* next_symbol(const char* symbol);

// Hands a call the kit cannot answer, unchanged, to the next library's `e.symbol` (self: this
// library's own entry point, which fixes the signature and is never called back).
template <class R, class... P, class... A>
void pass_through(const Entry& e, const char* args, const char* why, int* info, R (*self)(P...), A... forwarded) {
  auto* next = reinterpret_cast<R (*)(P...)>(next_symbol(e.symbol));
  if (next == nullptr || next == self) return report_unanswered(e, args, why, info);
  record(e, args, Outcome::passed, why);
  next(forwarded...);
}
// The fall-through of one entry point: SYM the entry point itself, then its parameters in order
// (the hidden CHARACTER lengths too). The entry point's INFO argument must be named `info`.
#define TRNSOLVER_LAPACK_NEXT(SYM, ...)                                                     \
  [=](const ::trnsolver_lapack::Entry& next_e, const char* next_args, const char* next_why) { \
    ::trnsolver_lapack::pass_through(next_e, next_args, next_why, info, SYM, __VA_ARGS__);    \
  }

// One call: the argument check (bad: reference LAPACK's first failing position, 0 when none), then
// body(settings, report) -> Answer; an answer sets INFO, a pass goes to next(e, args, why).
template <class Body, class Next>
void run(const Entry& e, const char* args, int bad, int* info, Body&& body, Next&& next) {
  if (bad != 0) return report_bad_argument(e, args, bad, info);
  const bool trace = trace_requested();
  CallReport report;
  report.plans_wanted = false;
  Answer a;
  try {
    a = body(settings_from_env(), trace ? &report : nullptr);
  } catch (const std::exception& ex) {
    return report_failure(e, args, ex, info);
  }
  if (!a.answered) return next(e, args, a.why);
  *info = a.info;
  record_answered(e, args, a.info, trace ? &report : nullptr);
}

// ---- reference LAPACK's argument checks ---------------------------------------------------------

// LSAME: the first character, either case.
inline bool lsame(char a, char b) { return a == b || (a >= 'a' && a <= 'z' && a - 'a' + 'A' == b); }
inline bool uplo_ok(char u) { return lsame(u, 'U') || lsame(u, 'L'); }
inline Uplo to_uplo(char u) { return lsame(u, 'U') ? Uplo::upper : Uplo::lower; }
// The first failing check of a list of (condition, position) pairs in LAPACK's order (0: valid).
inline int first_info(std::initializer_list<std::pair<bool, int>> checks) {
  for (const auto& [bad, position] : checks)
    if (bad) return position;
  return 0;
}
// max(1, v) of a Fortran INTEGER expression, computed without overflow.
inline std::int64_t max1(std::int64_t v) { return std::max<std::int64_t>(1, v); }

// A workspace query or the final WORK(1): reference LAPACK stores the optimal LWORK as a value of the
// working type.
template <class T>
void set_work_size(T* work, std::int64_t lwork_opt) {
  work[0] = T(static_cast<real_t<T>>(lwork_opt));
}

}  // namespace trnsolver_lapack
