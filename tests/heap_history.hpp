// Heap-history harness for the HeapHistory tests (docs/cost-model.md section 2, "Scratch addresses").
// Include in exactly one translation unit of a test executable: it replaces the global operator new
// / delete so that a test chooses what malloc's history does inside a call. `recycle` (the default:
// frees go to malloc at once, and glibc's per-size caches hand the last freed block of a size to the
// next request of it), `quarantined` (frees held until the call returns: no two blocks of one call
// share bytes) or `reusing` (every freed block lent to the next request it can hold), with heap traffic of assorted sizes between calls (`disturb`). A library call whose
// traced temporaries come from the heap can then model a different time in each mode (a false
// WAR/WAW edge between two temporaries that reuse bytes); on the scratch stack every mode gives the
// same Profile bit for bit. tests/trnsolver/test_trnsolver_heap_history.cpp is the first user.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <new>
#include <string>
#include <vector>

#include "trn/core/cost_model.hpp"

namespace heap_history {

// The arena, the free list and the quarantine list below are not synchronized, and operator new
// serves every thread: the library runs on the calling thread only (TRN_NUM_THREADS=1, set before
// main, read by core at each launch), so nothing else allocates inside a window. With the default
// thread count the host worker threads' allocations raced on them (SIGSEGV in CI, session 18).
// Memory history is what these tests vary; the thread count is covered by the golden tests.
inline const bool g_one_host_thread = [] { return setenv("TRN_NUM_THREADS", "1", 1) == 0; }();

inline bool g_quarantine = false;
inline std::vector<void*>* g_held = nullptr;  // frees held in quarantine mode

// `reusing` mode: a first-fit arena whose freed blocks are handed out again, latest freed first,
// whatever the size asked (a legal malloc, and the most reuse one can get): every temporary of a
// call that is freed before another is allocated lends it its bytes.
struct ArenaBlock {
  char* p;
  std::size_t size;
};
inline constexpr std::size_t kArenaBytes = std::size_t{1} << 30;  // address space; touched as used
inline constexpr std::size_t kArenaHeader = 16;                  // the block's size, keeps 16-alignment
inline bool g_reusing = false;
inline char* g_arena = nullptr;
inline std::size_t g_arena_top = 0;
inline ArenaBlock g_free_blocks[1 << 16];
inline std::size_t g_free_count = 0;

inline bool in_arena(const void* p) {
  return g_arena != nullptr && static_cast<const char*>(p) >= g_arena && static_cast<const char*>(p) < g_arena + kArenaBytes;
}
inline void* arena_allocate(std::size_t n) {
  const std::size_t need = (n + 15) / 16 * 16;
  for (std::size_t i = g_free_count; i-- > 0;)
    if (g_free_blocks[i].size >= need) {
      char* p = g_free_blocks[i].p;
      g_free_blocks[i] = g_free_blocks[--g_free_count];
      return p;
    }
  if (g_arena == nullptr) {
    g_arena = static_cast<char*>(std::malloc(kArenaBytes));
    if (g_arena == nullptr) throw std::bad_alloc();
  }
  if (g_arena_top + kArenaHeader + need > kArenaBytes) throw std::bad_alloc();
  char* p = g_arena + g_arena_top + kArenaHeader;
  std::memcpy(p - kArenaHeader, &need, sizeof need);
  g_arena_top += kArenaHeader + need;
  return p;
}
inline void arena_release(void* p) {
  std::size_t size = 0;
  std::memcpy(&size, static_cast<char*>(p) - kArenaHeader, sizeof size);
  if (g_free_count < std::size(g_free_blocks)) g_free_blocks[g_free_count++] = ArenaBlock{static_cast<char*>(p), size};
}

inline void* allocate(std::size_t n) {
  if (g_reusing) return arena_allocate(n == 0 ? 1 : n);
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
inline void release(void* p) noexcept {
  if (p == nullptr) return;
  if (in_arena(p)) return arena_release(p);
  if (g_quarantine && g_held != nullptr && g_held->size() < g_held->capacity()) {
    g_held->push_back(p);  // within capacity: no allocation here
    return;
  }
  std::free(p);
}

// Runs f with every allocation from the reusing arena (blocks freed inside f lent to later ones).
template <class F>
auto reusing(F&& f) {
  g_reusing = true;
  auto r = f();
  g_reusing = false;
  return r;
}

// Runs f with every free held until it returns (no reuse of a block inside f).
template <class F>
auto quarantined(F&& f) {
  std::vector<void*> held;
  held.reserve(1 << 20);
  g_held = &held;
  g_quarantine = true;
  auto r = f();
  g_quarantine = false;
  g_held = nullptr;
  for (void* p : held) std::free(p);
  return r;
}

// Heap traffic: blocks of assorted sizes, some kept, some freed (the holes change what the next
// requests get).
inline void disturb(std::vector<std::vector<char>>& keep, int round) {
  for (int i = 0; i < 9; ++i) keep.emplace_back(static_cast<std::size_t>(48 + 4096 * ((i * 5 + round) % 23) + 16 * i));
  for (std::size_t i = 0; i < keep.size(); i += 2) keep[i] = std::vector<char>();
}

// A double's bits as text, then a space (equal text: equal bits).
inline std::string double_bits(double v) {
  std::uint64_t u = 0;
  std::memcpy(&u, &v, sizeof u);
  return std::to_string(u) + " ";
}

// A Profile's modeled figures as text, doubles by their bits (equal text: equal bits).
inline std::string profile_bits(const trn::Profile& p) {
  std::string s = double_bits(p.total_ns);
  for (double b : p.busy_ns) s += double_bits(b);
  return s + double_bits(p.dma_bytes) + double_bits(p.host_roundtrip_ns) +
         double_bits(static_cast<double>(p.total_instructions));
}

// The HeapHistory assertion: call() (a profile's bits) is the same run plainly, with its frees
// quarantined, with every freed block reused, and so again after each of three rounds of heap traffic.
inline void expect_history_independent(const std::function<std::string()>& call) {
  const std::string first = call();
  EXPECT_EQ(quarantined(call), first) << "no reuse inside the call";
  EXPECT_EQ(reusing(call), first) << "every freed block reused";
  std::vector<std::vector<char>> keep;
  for (int round = 0; round < 3; ++round) {
    disturb(keep, round);
    EXPECT_EQ(call(), first) << "after heap traffic, round " << round;
    EXPECT_EQ(quarantined(call), first) << "quarantine after heap traffic, round " << round;
    EXPECT_EQ(reusing(call), first) << "reuse after heap traffic, round " << round;
  }
}

}  // namespace heap_history

void* operator new(std::size_t n) { return heap_history::allocate(n); }
void* operator new[](std::size_t n) { return heap_history::allocate(n); }
void operator delete(void* p) noexcept { heap_history::release(p); }
void operator delete[](void* p) noexcept { heap_history::release(p); }
void operator delete(void* p, std::size_t) noexcept { heap_history::release(p); }
void operator delete[](void* p, std::size_t) noexcept { heap_history::release(p); }
