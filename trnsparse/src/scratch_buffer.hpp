// An array on the calling thread's scratch stack (trn/core/scratch.hpp) without a std::vector's
// value-initialisation: the trace names it by allocation, not by where malloc put it, and its pages
// stay mapped for the next call (issue #30: a fresh heap block of an fp64 SpGEMM's partial sums cost
// ~20 k page faults, ~17 us each on this VM, per call). allocate(n, zero) takes one block of n
// elements (at least one) -- the same allocation a ScratchVector of n > 0 elements makes, so a trace
// names both alike -- zero-filled or left as it is (for a caller that writes every element).
// Released by the thread that allocated it (the routine's own frame).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <utility>

#include "trn/core/scratch.hpp"

namespace trn::sparse {

template <class T>
struct ScratchBuffer {
  T* p = nullptr;
  std::size_t n = 0;
  ScratchBuffer() = default;
  ScratchBuffer(const ScratchBuffer&) = delete;
  ScratchBuffer& operator=(const ScratchBuffer&) = delete;
  ScratchBuffer(ScratchBuffer&& o) noexcept : p(std::exchange(o.p, nullptr)), n(std::exchange(o.n, 0)) {}
  ScratchBuffer& operator=(ScratchBuffer&& o) noexcept {
    if (this != &o) {
      release();
      p = std::exchange(o.p, nullptr);
      n = std::exchange(o.n, 0);
    }
    return *this;
  }
  ~ScratchBuffer() { release(); }
  void allocate(std::size_t count, bool zero) {
    release();
    n = count;
    p = static_cast<T*>(trn::detail::scratch_allocate(std::max<std::size_t>(count, 1) * sizeof(T)));
    if (zero) std::memset(static_cast<void*>(p), 0, count * sizeof(T));
  }
  void release() noexcept {
    if (p != nullptr) trn::detail::scratch_release(p);
    p = nullptr;
    n = 0;
  }
  T* data() const { return p; }
  std::size_t size() const { return n; }
  T& operator[](std::size_t i) const { return p[i]; }
};

}  // namespace trn::sparse
