// libtrnblas_blas.so: error reporting. Reference CBLAS's globals, the CBLAS layout check, the
// default (weak) xerbla_ and cblas_xerbla, and cblas_xerbla's row-major parameter correction.
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <utility>

#include "abi_internal.hpp"

// Reference CBLAS's globals (cblas_globals.c): RowMajorStrg says a row-major call is in progress so
// that cblas_xerbla can undo the operand swap in the parameter number; CBLAS_CallFromC is set for
// the duration of every CBLAS call. Exported because programs built against reference CBLAS (its
// test programs among them) reference them.
extern "C" {
int RowMajorStrg = 0;     // NOLINT: reference CBLAS name
int CBLAS_CallFromC = 0;  // NOLINT: reference CBLAS name
}

namespace trnblas_abi {
namespace {

// The same flag as RowMajorStrg, per thread: what this library's own cblas_xerbla reads, so that
// concurrent CBLAS calls on other threads cannot change a message.
thread_local bool t_row_major = false;

void trace_xerbla(const Entry& e, const char* args, int position) {
  if (!trace_requested()) return;
  char outcome[32];
  std::snprintf(outcome, sizeof outcome, "xerbla(%d)", position);
  trace_outcome(e, args, outcome);
}

// Reference cblas_xerbla's row-major correction: the parameter pairs a routine's row-major form
// swaps (first matching name wins; `unless` excludes a longer name).
struct RowMajorSwaps {
  const char* name;
  const char* also;    // a second name with the same swaps, or nullptr
  const char* unless;  // or nullptr
  std::pair<int, int> swaps[2];
};
constexpr RowMajorSwaps kRowMajorSwaps[] = {
    {"gemm", nullptr, nullptr, {{4, 5}, {9, 11}}},  //
    {"symm", nullptr, nullptr, {{4, 5}, {0, 0}}},   //
    {"trmm", "trsm", nullptr, {{6, 7}, {0, 0}}},    //
    {"gemv", nullptr, nullptr, {{3, 4}, {0, 0}}},   //
    {"gbmv", nullptr, nullptr, {{3, 4}, {5, 6}}},   //
    {"ger", nullptr, nullptr, {{2, 3}, {6, 8}}},    //
    {"her2", "hpr2", "her2k", {{6, 8}, {0, 0}}},
};

int unswap_row_major(const char* rout, int info) {
  for (const RowMajorSwaps& r : kRowMajorSwaps) {
    const bool named = std::strstr(rout, r.name) != nullptr || (r.also != nullptr && std::strstr(rout, r.also) != nullptr);
    if (!named || (r.unless != nullptr && std::strstr(rout, r.unless) != nullptr)) continue;
    for (const auto& [a, b] : r.swaps) {
      if (info == a) return b;
      if (info == b) return a;
    }
    return info;
  }
  return info;
}

}  // namespace

CblasCall::CblasCall() {
  RowMajorStrg = 0;
  CBLAS_CallFromC = 1;
  t_row_major = false;
}
CblasCall::~CblasCall() {
  CBLAS_CallFromC = 0;
  RowMajorStrg = 0;
  t_row_major = false;
}
void CblasCall::set_row_major() {
  RowMajorStrg = 1;
  t_row_major = true;
}

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

void report_info(const Entry& e, const char* args, int info) {
  const int handed = e.cblas ? info + 1 : info;
  count_call(e);
  trace_xerbla(e, args, handed);
  env_call_done();  // before the handler, which may not return
  if (e.cblas)
    cblas_xerbla(handed, e.symbol, "");
  else
    xerbla_(e.srname, &info, std::strlen(e.srname));
}

void report_cblas(const Entry& e, int position, const char* form, int value) {
  count_call(e);
  trace_xerbla(e, "", position);
  env_call_done();
  cblas_xerbla(position, e.symbol, form, value);
}

}  // namespace trnblas_abi

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
  if (trnblas_abi::t_row_major) info = trnblas_abi::unswap_row_major(rout, info);
  if (info != 0) std::fprintf(stderr, "Parameter %d to routine %s was incorrect\n", info, rout);
  std::va_list ap;
  va_start(ap, form);
  std::vfprintf(stderr, form, ap);
  va_end(ap);
}

}  // extern "C"
