// libtrnsolver_lapack.so: bad arguments (INFO = -i through xerbla_), the default (weak) xerbla_,
// the fall-through to the next library in the search order, and the calls nobody could answer.
#include <dlfcn.h>
#include <link.h>

#include <cstdio>
#include <cstring>

#include "abi_internal.hpp"

namespace trnsolver_lapack {

void report_bad_argument(const Entry& e, const char* args, int position, int* info) {
  char detail[32];
  std::snprintf(detail, sizeof detail, "xerbla(%d)", position);
  record(e, args, Outcome::bad_argument, detail);
  *info = -position;
  // Reference LAPACK: CALL XERBLA('DPOTRF', -INFO). The program's own XERBLA wins over ours (weak).
  xerbla_(e.srname, &position, std::strlen(e.srname));
}

void report_failure(const Entry& e, const char* args, const std::exception& ex, int* info) {
  std::fprintf(stderr, "trnsolver_lapack: %s failed in the emulator: %s (INFO = %d)\n", e.symbol, ex.what(),
               TRNSOLVER_LAPACK_FAILED);
  record(e, args, Outcome::failed, "failed");
  *info = TRNSOLVER_LAPACK_FAILED;
}

void report_unanswered(const Entry& e, const char* args, const char* why, int* info) {
  std::fprintf(stderr,
               "trnsolver_lapack: %s: not answered by trnsolver (%s) and no next library defines it (INFO = %d)\n",
               e.symbol, why, TRNSOLVER_LAPACK_UNANSWERED);
  char detail[160];
  std::snprintf(detail, sizeof detail, "unanswered (%s)", why);
  record(e, args, Outcome::unanswered, detail);
  *info = TRNSOLVER_LAPACK_UNANSWERED;
}

namespace {

// dl_iterate_phdr's search: the first loaded object other than this library (and the main program)
// whose own handle defines `symbol` in an object that is not this library.
struct LoadedSearch {
  const char* symbol;
  const char* self;  // this library's path (dladdr)
  void* found = nullptr;
};
int search_loaded(dl_phdr_info* info, std::size_t, void* data) {
  auto* s = static_cast<LoadedSearch*>(data);
  const char* name = info->dlpi_name;
  if (name == nullptr || name[0] == '\0' || std::strcmp(name, s->self) == 0) return 0;
  void* h = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
  if (h == nullptr) return 0;
  void* f = dlsym(h, s->symbol);
  dlclose(h);
  Dl_info where{};
  if (f == nullptr || dladdr(f, &where) == 0 || where.dli_fname == nullptr || std::strcmp(where.dli_fname, s->self) == 0)
    return 0;
  s->found = f;
  return 1;
}

}  // namespace

// dlsym(RTLD_NEXT) from this library: the definition in the first object loaded after it (with
// LD_PRELOAD, the program's own LAPACK). glibc resolves RTLD_NEXT by the caller's address, which is
// this function's, inside libtrnsolver_lapack.so. RTLD_NEXT searches the global scope only: a LAPACK
// that came in through dlopen(RTLD_LOCAL) -- Python loads numpy's and scipy's extension modules so, and
// with them liblapack.so.3 -- is not there, so the loaded objects are then searched in load order, each
// through its own handle (found by the numpy/scipy test: a NaN call had no next library).
void* next_symbol(const char* symbol) {
  if (void* f = dlsym(RTLD_NEXT, symbol)) return f;
  Dl_info self{};
  if (dladdr(reinterpret_cast<void*>(&next_symbol), &self) == 0 || self.dli_fname == nullptr) return nullptr;
  LoadedSearch s{symbol, self.dli_fname};
  dl_iterate_phdr(search_loaded, &s);
  return s.found;
}

}  // namespace trnsolver_lapack

extern "C" {

// Reference LAPACK's XERBLA prints this line and STOPs; this one returns (weak: a program's own
// XERBLA, e.g. LAPACK's test programs', wins).
__attribute__((weak)) void xerbla_(const char* srname, const int* info, size_t srname_len) {
  std::size_t n = 0;  // srname is blank-padded, not NUL-terminated, when it comes from Fortran
  while (n < srname_len && n < 32 && srname[n] != '\0') ++n;
  std::fprintf(stderr, " ** On entry to %-6.*s parameter number %2d had an illegal value\n", static_cast<int>(n), srname,
               *info);
}

}  // extern "C"
