// Deterministic host scratch: a per-thread stack in one reserved address range (scratch.hpp).
#include "trn/core/scratch.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace trn::detail {
namespace {

constexpr std::size_t kCommitGranule = std::size_t{2} << 20;  // mprotect steps (2 MiB)

// One thread's stack. Blocks are kept in allocation order; a released block stays until every
// block above it is released too (then all of them pop), so the top only depends on the sequence.
class ScratchStack {
 public:
  ~ScratchStack() {
    if (base_ != nullptr) munmap(base_, kScratchReserveBytes);
  }
  void* allocate(std::size_t bytes) {
    if (base_ == nullptr) reserve();
    const std::size_t size = round_up(bytes == 0 ? 1 : bytes, kScratchAlign);
    if (size > kScratchReserveBytes - top_) throw std::bad_alloc();
    commit(top_ + size);
    blocks_.push_back(Block{top_, false});
    void* p = base_ + top_;
    top_ += size;
    return p;
  }
  void release(void* p) noexcept {
    const auto offset = static_cast<std::size_t>(static_cast<char*>(p) - base_);
    for (std::size_t i = blocks_.size(); i-- > 0;)  // releases are mostly of the top block
      if (blocks_[i].offset == offset) {
        blocks_[i].released = true;
        break;
      }
    pop_released();
  }

 private:
  struct Block {
    std::size_t offset;
    bool released;
  };
  static std::size_t round_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }
  void reserve() {
    void* m = mmap(nullptr, kScratchReserveBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    base_ = static_cast<char*>(m);
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
      top_ = blocks_.back().offset;
      blocks_.pop_back();
    }
  }
  char* base_ = nullptr;
  std::size_t top_ = 0, committed_ = 0;
  std::vector<Block> blocks_;
};

ScratchStack& this_thread_stack() {
  thread_local ScratchStack stack;
  return stack;
}

}  // namespace

void* scratch_allocate(std::size_t bytes) { return this_thread_stack().allocate(bytes); }
void scratch_release(void* p) noexcept {
  if (p != nullptr) this_thread_stack().release(p);
}

}  // namespace trn::detail
