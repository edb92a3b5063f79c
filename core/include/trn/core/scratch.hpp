// Deterministic host scratch for buffers a kernel trace records (docs/cost-model.md section 2,
// "Scratch addresses").
//
// Algorithm: the cost model tracks HBM dependencies by host address intervals (Region::lo/hi), so
// two temporaries that reuse the same freed heap bytes look like one buffer (a false WAR/WAW/RAW
// edge), and whether malloc hands back those bytes depends on everything the process did before
// (its free lists, the thread's arena). A routine's temporaries that a trace records come instead
// from a per-thread stack in one reserved address range: an allocation takes the top, a release marks
// its block free and pops every free block off the top. Which temporaries overlap is then a function
// of the routine's own sequence of allocations and releases only, and the range's base moves every
// address by one constant (an order-preserving renaming: the schedule is unchanged).
// Engines: none (host memory management).
// Accuracy: not applicable (no arithmetic); the bytes held are the caller's.
// Limits: kScratchReserveBytes of address space per thread (reserved PROT_NONE, committed as the stack
//   grows; a stack above it throws std::bad_alloc). Memory a thread committed stays committed until the
//   thread exits (a stack's high-water mark). A block must be released by the thread that allocated it.
#pragma once

#include <cstddef>
#include <vector>

namespace trn {

inline constexpr std::size_t kScratchReserveBytes = std::size_t{1} << 36;  // 64 GiB of address space
inline constexpr std::size_t kScratchAlign = 64;

namespace detail {
void* scratch_allocate(std::size_t bytes);             // kScratchAlign-aligned; throws std::bad_alloc
void scratch_release(void* p) noexcept;                // p from scratch_allocate on this thread
}  // namespace detail

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
