// Deterministic host scratch for buffers a kernel trace records (docs/cost-model.md section 2,
// "Scratch addresses").
//
// Algorithm: the cost model tracks HBM dependencies by address intervals (Region::lo/hi), so two
// temporaries that reuse the same freed heap bytes would look like one buffer (a false WAR/WAW/RAW
// edge), and whether malloc hands back those bytes depends on everything the process did before
// (its free lists, the thread's arena). A routine's temporaries that a trace records come instead
// from a per-thread stack in one reserved address range: an allocation takes the top, a release marks
// its block free and pops every free block off the top. Each block also gets a serial number, and
// the trace names an address inside a live block by (serial, offset) rather than by where it lies
// (trace_hbm_address): a block that reuses a released block's bytes is a different buffer to the
// cost model, so a fresh temporary never depends on a dead one, whatever the addresses.
// Engines: none (host memory management).
// Accuracy: not applicable (no arithmetic); the bytes held are the caller's.
// Limits: kScratchReserveBytes of address space per thread (reserved PROT_NONE, committed as the stack
//   grows; a stack above it throws std::bad_alloc). Memory a thread committed stays committed until the
//   thread exits (a stack's high-water mark). A block must be released by the thread that allocated it.
//   Serials wrap after 2^26 allocations (a renaming collides only if one call's trace holds blocks
//   2^26 allocations apart).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace trn {

inline constexpr std::size_t kScratchReserveBytes = std::size_t{1} << 36;  // 64 GiB of address space
inline constexpr std::size_t kScratchAlign = 64;

namespace detail {
void* scratch_allocate(std::size_t bytes);             // kScratchAlign-aligned; throws std::bad_alloc
void scratch_release(void* p) noexcept;                // p from scratch_allocate on this thread

// Every stack's reservation is kScratchReserveBytes-aligned, so the reservation an address could
// belong to is its bits 36 and up: kScratchSlots bits, set while a stack holds that slot (the user
// address space is 47 bits).
inline constexpr int kScratchSlotShift = 36;
inline constexpr std::size_t kScratchSlots = std::size_t{1} << (47 - kScratchSlotShift);
extern std::atomic<std::uint64_t> g_scratch_slot_bits[kScratchSlots / 64];
// The trace's name for an address inside a live scratch block: kScratchTraceTag | serial << 36 |
// offset in the stack (above every host address, disjoint for distinct blocks); any other address
// unchanged.
inline constexpr std::uint64_t kScratchTraceTag = std::uint64_t{1} << 62;
std::uint64_t scratch_trace_address(std::uint64_t address) noexcept;
}  // namespace detail

// The address under which a trace records host memory standing in for HBM (every HBM region's lo:
// tiles, host steps, link transfers). Scratch blocks are named by allocation (see above); the cost
// model compares these names only with one another. One load and a test for other addresses.
inline std::uint64_t trace_hbm_address(std::uint64_t address) noexcept {
  const std::uint64_t slot = address >> detail::kScratchSlotShift;
  if (slot >= detail::kScratchSlots) return address;
  if (((detail::g_scratch_slot_bits[slot / 64].load(std::memory_order_relaxed) >> (slot % 64)) & 1) == 0) return address;
  return detail::scratch_trace_address(address);
}

// A std allocator over this thread's scratch stack (all instances equal: one stack per thread).
template <class T>
struct ScratchAllocator {
  using value_type = T;
  ScratchAllocator() = default;
  template <class U>
  ScratchAllocator(const ScratchAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) { return static_cast<T*>(detail::scratch_allocate(n * sizeof(T))); }
  void deallocate(T* p, std::size_t) noexcept { detail::scratch_release(p); }
  template <class U>
  bool operator==(const ScratchAllocator<U>&) const noexcept { return true; }
};

// The temporaries a routine hands to its kernels or host steps (HostSpan, HbmTensor) as HBM.
template <class T>
using ScratchVector = std::vector<T, ScratchAllocator<T>>;

}  // namespace trn
