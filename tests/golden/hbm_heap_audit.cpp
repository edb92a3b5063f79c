// Audit: no library call traces a heap block it allocated itself as HBM (docs/cost-model.md section 2,
// "Scratch addresses"). Linked into a second build of the golden harness (golden_hbm_audit), whose
// cases call every library's routines: this file replaces the global operator new / delete of the
// executable, remembers every block that library code (a caller outside this executable's text)
// allocates, and checks each report the harness's calls finish (trn::set_thread_report_observer)
// for an HBM region inside such a block. At exit it lists them — the record, the block's size and
// the library function that allocated it (address for addr2line) — and fails.
//
// Why it matters: the cost model tracks HBM dependencies by address, so a library temporary on the
// heap that reuses bytes an earlier temporary of the same call freed gets a false WAR/WAW edge to it,
// and whether malloc hands those bytes back depends on the process's history: the same call then
// models a different time (spotri 256 on trn2: 1 129 921 or 1 145 405 ns). Traced temporaries belong
// on the scratch stack (trn::ScratchVector), whose blocks the trace names by allocation.
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "trn/core/host_step.hpp"
#include "trn/core/report_observer.hpp"

extern "C" char __executable_start;  // the executable's text (GNU ld / lld)
extern "C" char etext;

namespace {

// Blocks allocated by code outside the executable; malloc'd storage, so that logging never recurses.
struct LibBlock {
  std::uintptr_t lo, hi;
  void* caller;
  bool live;
  std::size_t order;  // position in the log (check_report)
};
struct Log {
  LibBlock* blocks = nullptr;
  std::size_t size = 0, capacity = 0;
};
std::atomic_flag g_lock = ATOMIC_FLAG_INIT;
Log g_log;
std::atomic<bool> g_enabled{false};

struct Guard {
  Guard() {
    while (g_lock.test_and_set(std::memory_order_acquire)) {
    }
  }
  ~Guard() { g_lock.clear(std::memory_order_release); }
};

bool from_executable(void* caller) {
  const auto a = reinterpret_cast<std::uintptr_t>(caller);
  return a >= reinterpret_cast<std::uintptr_t>(&__executable_start) && a < reinterpret_cast<std::uintptr_t>(&etext);
}

void note_alloc(void* p, std::size_t n, void* caller) {
  if (p == nullptr || !g_enabled.load(std::memory_order_relaxed)) return;
  const auto lo = reinterpret_cast<std::uintptr_t>(p), hi = lo + (n == 0 ? 1 : n);
  Guard g;
  if (from_executable(caller)) {
    // The harness allocates only between library calls (each call's reports were checked before it
    // returned), so the freed library blocks are done with: forget them, and keep the live ones.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < g_log.size; ++i)
      if (g_log.blocks[i].live) g_log.blocks[kept++] = g_log.blocks[i];
    g_log.size = kept;
    return;
  }
  if (g_log.size == g_log.capacity) {
    g_log.capacity = g_log.capacity == 0 ? 1024 : 2 * g_log.capacity;
    g_log.blocks = static_cast<LibBlock*>(std::realloc(g_log.blocks, g_log.capacity * sizeof(LibBlock)));
  }
  g_log.blocks[g_log.size++] = LibBlock{lo, hi, caller, true, 0};
}
void note_free(void* p) {
  if (p == nullptr || !g_enabled.load(std::memory_order_relaxed)) return;
  const auto lo = reinterpret_cast<std::uintptr_t>(p);
  Guard g;
  for (std::size_t i = g_log.size; i-- > 0;)
    if (g_log.blocks[i].live && g_log.blocks[i].lo == lo) {
      g_log.blocks[i].live = false;
      break;
    }
}

void* allocate(std::size_t n, std::size_t align, void* caller) {
  void* p = align <= alignof(std::max_align_t) ? std::malloc(n == 0 ? 1 : n)
                                                : std::aligned_alloc(align, (std::max<std::size_t>(n, 1) + align - 1) / align * align);
  if (p == nullptr) throw std::bad_alloc();
  note_alloc(p, n, caller);
  return p;
}
void release(void* p) noexcept {
  note_free(p);
  std::free(p);
}

// Offenders, deduplicated by (record name, allocating function).
struct Finding {
  std::string record;
  void* caller;
  std::size_t bytes;
  bool operator<(const Finding& o) const { return record != o.record ? record < o.record : caller < o.caller; }
};
std::set<Finding>* g_findings = nullptr;

std::string record_name(const trn::Instruction& ins) {
  if (ins.opcode == trn::Opcode::host_compute || ins.opcode == trn::Opcode::link_transfer)
    return std::string(trn::host_step_name(ins.host_label));
  return std::string(trn::opcode_name(ins.opcode));
}

std::size_t g_reports = 0, g_offending_reports = 0;  // reports checked; with a traced library heap block

void check_report(void*, const trn::Report& r, const trn::ReportSettings&) {
  ++g_reports;
  bool offending = false;
  std::vector<LibBlock> blocks;  // a copy; allocated outside the lock (operator new takes it)
  for (;;) {
    std::size_t n = 0;
    {
      Guard g;
      n = g_log.size;
      if (blocks.capacity() >= n) {
        blocks.assign(g_log.blocks, g_log.blocks + n);
        break;
      }
    }
    blocks.reserve(2 * n + 16);
  }
  // The log is in allocation order; sorted by address, equal starts keep it (the latest wins below).
  for (std::size_t i = 0; i < blocks.size(); ++i) blocks[i].order = i;
  std::sort(blocks.begin(), blocks.end(), [](const LibBlock& a, const LibBlock& b) { return a.lo < b.lo; });
  for (const trn::Instruction& ins : r.trace.instructions)
    for (std::size_t k = 0; k < ins.nregions; ++k) {
      const trn::Region& reg = ins.regions[k];
      if (reg.mem != trn::MemSpace::hbm || reg.hi <= reg.lo) continue;
      // Blocks may overlap one another (a dead one and a later one): scan those starting below hi.
      auto end = std::upper_bound(blocks.begin(), blocks.end(), reg.hi,
                                  [](std::uint64_t v, const LibBlock& b) { return v <= b.lo; });
      const LibBlock* latest = nullptr;  // the block the region was recorded in: the latest overlapping
      for (auto it = blocks.begin(); it != end; ++it)
        if (it->hi > reg.lo && (latest == nullptr || it->order > latest->order)) latest = &*it;
      if (latest != nullptr) {
        g_findings->insert(Finding{record_name(ins), latest->caller, latest->hi - latest->lo});
        offending = true;
      }
    }
  if (offending) ++g_offending_reports;
}

struct Audit {
  Audit() {
    g_findings = new std::set<Finding>;
    trn::set_thread_report_observer(trn::ReportObserver{&check_report, nullptr});
    g_enabled = true;
  }
  // Exit status: 0 when the number of reports that trace a library heap block is at most
  // TRN_HBM_AUDIT_EXPECT (default 0: a ratchet while known ones remain; lower it as they go).
  ~Audit() {
    g_enabled = false;
    const char* env = std::getenv("TRN_HBM_AUDIT_EXPECT");
    const std::size_t expected = env != nullptr ? std::strtoull(env, nullptr, 10) : 0;
    std::fprintf(stderr, "hbm_heap_audit: %zu of %zu reports trace a heap block a library allocated (expected %zu)\n",
                 g_offending_reports, g_reports, expected);
    if (g_findings->empty() && expected == 0) return;
    std::fprintf(stderr, "hbm_heap_audit: %zu traced heap blocks allocated by library code (use trn::ScratchVector):\n",
                 g_findings->size());
    for (const Finding& f : *g_findings) {
      Dl_info info{};
      const char* lib = "?";
      std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(f.caller);
      if (dladdr(f.caller, &info) != 0 && info.dli_fname != nullptr) {
        lib = info.dli_fname;
        offset -= reinterpret_cast<std::uintptr_t>(info.dli_fbase);
      }
      std::fprintf(stderr, "  %-40s %10zu bytes  allocated at %s+0x%zx (%s)\n", f.record.c_str(), f.bytes, lib,
                   static_cast<std::size_t>(offset), info.dli_sname != nullptr ? info.dli_sname : "?");
    }
    if (g_offending_reports > expected) {
      std::fprintf(stderr, "hbm_heap_audit: FAILED (a library call traces a heap temporary: use trn::ScratchVector)\n");
      std::_Exit(3);
    }
    if (g_offending_reports < expected)
      std::fprintf(stderr, "hbm_heap_audit: fewer than expected: lower TRN_HBM_AUDIT_EXPECT in tests/golden/CMakeLists.txt\n");
  }
};
Audit g_audit;

}  // namespace

// Replacements of every global allocation function (C++17 [new.delete]).
void* operator new(std::size_t n) { return allocate(n, 0, __builtin_return_address(0)); }
void* operator new[](std::size_t n) { return allocate(n, 0, __builtin_return_address(0)); }
void* operator new(std::size_t n, std::align_val_t a) {
  return allocate(n, static_cast<std::size_t>(a), __builtin_return_address(0));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return allocate(n, static_cast<std::size_t>(a), __builtin_return_address(0));
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return allocate(n, 0, __builtin_return_address(0));
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return allocate(n, 0, __builtin_return_address(0));
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { release(p); }
