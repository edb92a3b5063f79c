// Deterministic host scratch: a per-thread stack in one reserved address range, its blocks named by
// allocation in traces (scratch.hpp).
#include "trn/core/scratch.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <new>

namespace trn::detail {

std::atomic<std::uint64_t> g_scratch_slot_bits[kScratchSlots / 64] = {};

namespace {

constexpr std::size_t kCommitGranule = std::size_t{2} << 20;  // mprotect steps (2 MiB)
constexpr std::size_t kFallbackMinBytes = std::size_t{1} << 30;  // smallest reserve_at_slot_start tries
constexpr std::uint64_t kSerialMask = (std::uint64_t{1} << (62 - kScratchSlotShift)) - 1;

std::atomic<std::uint64_t> g_next_serial{0};  // process-wide: blocks of different threads differ too

class ScratchStack;
// The stack that owns each slot (a reservation), for trace_hbm_address on any thread: a kernel's
// worker thread records the regions of a block its launching thread allocated.
std::atomic<ScratchStack*> g_stack_of_slot[kScratchSlots] = {};

// One thread's stack. Blocks are kept in allocation order (so in address order); a released block
// stays until every block above it is released too (then all of them pop), so the top only depends
// on the sequence. The block list is read by other threads (trace names) under mu_; the owner
// changes it under mu_ too, and bumps version_ so that a reader's cached block can be checked.
class ScratchStack {
 public:
  // At its thread's exit: the reservation is unmapped and the slot given up; the object itself is
  // never deleted (a reader that loaded the slot's pointer before it was cleared finds no block).
  void retire() {
    if (base_ == nullptr) return;
    const std::lock_guard<std::mutex> lock(mu_);
    set_slot(false);
    blocks_.clear();
    blocks_.shrink_to_fit();
    version_.fetch_add(1, std::memory_order_release);
    munmap(base_, capacity_);
    base_ = nullptr;
  }
  void* allocate(std::size_t bytes) {
    if (base_ == nullptr) reserve();
    const std::size_t size = round_up(bytes == 0 ? 1 : bytes, kScratchAlign);
    if (size > capacity_ - top_) throw std::bad_alloc();
    commit(top_ + size);
    const std::uint64_t serial = g_next_serial.fetch_add(1, std::memory_order_relaxed) & kSerialMask;
    {
      const std::lock_guard<std::mutex> lock(mu_);
      blocks_.push_back(Block{top_, top_ + size, serial, false});
      version_.fetch_add(1, std::memory_order_release);
    }
    void* p = base_ + top_;
    top_ += size;
    return p;
  }
  void release(void* p) noexcept {
    const auto offset = static_cast<std::size_t>(static_cast<char*>(p) - base_);
    const std::lock_guard<std::mutex> lock(mu_);
    for (std::size_t i = blocks_.size(); i-- > 0;)  // releases are mostly of the top block
      if (blocks_[i].lo == offset) {
        blocks_[i].released = true;
        break;
      }
    pop_released();
    version_.fetch_add(1, std::memory_order_release);
  }
  char* base() const { return base_; }

  // The live block holding `offset`: [lo, hi) and its serial; false when none does.
  struct Found {
    std::uint64_t lo = 0, hi = 0, serial = 0, version = 0;
  };
  bool find(std::uint64_t offset, Found& out) {
    const std::lock_guard<std::mutex> lock(mu_);
    out.version = version_.load(std::memory_order_relaxed);
    auto it = std::upper_bound(blocks_.begin(), blocks_.end(), offset,
                               [](std::uint64_t v, const Block& b) { return v < b.lo; });
    if (it == blocks_.begin()) return false;
    --it;
    if (offset >= it->hi || it->released) return false;
    out.lo = it->lo;
    out.hi = it->hi;
    out.serial = it->serial;
    return true;
  }
  std::uint64_t version() const { return version_.load(std::memory_order_acquire); }

 private:
  struct Block {
    std::uint64_t lo, hi;  // offsets in the reservation
    std::uint64_t serial;
    bool released;
  };
  static std::size_t round_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }
  // Reserves twice the range and keeps its kScratchReserveBytes-aligned half, so that the range is
  // one slot of g_scratch_slot_bits.
  void reserve() {
    void* m = mmap(nullptr, 2 * kScratchReserveBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) return reserve_at_slot_start();
    const auto start = reinterpret_cast<std::uintptr_t>(m);
    const std::uintptr_t aligned = (start + kScratchReserveBytes - 1) / kScratchReserveBytes * kScratchReserveBytes;
    if (aligned > start) munmap(m, aligned - start);
    const std::uintptr_t end = start + 2 * kScratchReserveBytes;
    if (end > aligned + kScratchReserveBytes) munmap(reinterpret_cast<void*>(aligned + kScratchReserveBytes), end - aligned - kScratchReserveBytes);
    base_ = reinterpret_cast<char*>(aligned);
    capacity_ = kScratchReserveBytes;
    const std::lock_guard<std::mutex> lock(mu_);
    set_slot(true);
  }
  // Where the address space will not map 2 * kScratchReserveBytes at once (valgrind's client space
  // maps at most 32 GiB per call, so every scratch allocation threw std::bad_alloc under callgrind
  // or memcheck): a smaller reservation at the start of a free slot, placed by address hint (taken
  // only when the kernel or valgrind honours it exactly), so that the slot map still finds it; the
  // rest of that slot stays other memory, whose addresses scratch_trace_address leaves unchanged.
  void reserve_at_slot_start() {
    for (std::size_t bytes = kScratchReserveBytes / 2; bytes >= kFallbackMinBytes; bytes /= 2)
      for (std::uint64_t slot = kScratchSlots - 1; slot > 0; --slot) {
        if (g_stack_of_slot[slot].load(std::memory_order_acquire) != nullptr) continue;
        void* const hint = reinterpret_cast<void*>(slot << kScratchSlotShift);
        void* m = mmap(hint, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) break;  // this size maps nowhere: a smaller one
        if (m != hint) {
          munmap(m, bytes);
          continue;
        }
        base_ = static_cast<char*>(m);
        capacity_ = bytes;
        const std::lock_guard<std::mutex> lock(mu_);
        set_slot(true);
        return;
      }
    throw std::bad_alloc();
  }
  void set_slot(bool on) {
    const std::uint64_t slot = reinterpret_cast<std::uintptr_t>(base_) >> kScratchSlotShift;
    if (slot >= kScratchSlots) return;  // beyond 47 bits: never named (addresses stay as they are)
    g_stack_of_slot[slot].store(on ? this : nullptr, std::memory_order_release);
    const std::uint64_t bit = std::uint64_t{1} << (slot % 64);
    if (on)
      g_scratch_slot_bits[slot / 64].fetch_or(bit, std::memory_order_release);
    else
      g_scratch_slot_bits[slot / 64].fetch_and(~bit, std::memory_order_release);
  }
  // Makes [0, end) readable and writable (committed memory grows in granules, never shrinks).
  void commit(std::size_t end) {
    if (end <= committed_) return;
    const std::size_t want = round_up(end, kCommitGranule);
    if (mprotect(base_ + committed_, want - committed_, PROT_READ | PROT_WRITE) != 0) throw std::bad_alloc();
    committed_ = want;
  }
  void pop_released() {
    while (!blocks_.empty() && blocks_.back().released) {
      top_ = blocks_.back().lo;
      blocks_.pop_back();
    }
  }
  char* base_ = nullptr;
  std::size_t capacity_ = 0;  // reserved bytes at base_: kScratchReserveBytes, or less (reserve_at_slot_start)
  std::size_t top_ = 0, committed_ = 0;
  std::mutex mu_;
  std::atomic<std::uint64_t> version_{0};
  std::vector<Block> blocks_;
};

struct StackOwner {
  ScratchStack* stack = new ScratchStack;  // never deleted: see retire()
  ~StackOwner() { stack->retire(); }
};
ScratchStack& this_thread_stack() {
  thread_local StackOwner owner;
  return *owner.stack;
}

// The block a thread last named (most regions of a kernel fall in the block of the one before).
struct NameCache {
  const ScratchStack* stack = nullptr;
  std::uint64_t version = 0, lo = 0, hi = 0, serial = 0;
};
thread_local NameCache t_name_cache;

}  // namespace

void* scratch_allocate(std::size_t bytes) { return this_thread_stack().allocate(bytes); }
void scratch_release(void* p) noexcept {
  if (p != nullptr) this_thread_stack().release(p);
}

std::uint64_t scratch_trace_address(std::uint64_t address) noexcept {
  const std::uint64_t slot = address >> kScratchSlotShift;
  ScratchStack* stack = g_stack_of_slot[slot].load(std::memory_order_acquire);
  if (stack == nullptr) return address;
  const std::uint64_t offset = address - reinterpret_cast<std::uintptr_t>(stack->base());
  NameCache& c = t_name_cache;
  if (c.stack != stack || c.version != stack->version() || offset < c.lo || offset >= c.hi) {
    ScratchStack::Found f;
    if (!stack->find(offset, f)) return address;  // not inside a live block: left as it is
    c = NameCache{stack, f.version, f.lo, f.hi, f.serial};
  }
  return kScratchTraceTag | (c.serial << kScratchSlotShift) | offset;
}

}  // namespace trn::detail
