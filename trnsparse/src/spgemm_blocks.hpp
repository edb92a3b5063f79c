// Large host arrays of SpGEMM's symbolic and numeric phases kept warm between products (issue #30).
//
// Algorithm: a per-thread pool of emptied std::vector<T> per element type. A finished product
//   (CsrProduct's destructor, the symbolic phase's temporaries) hands its large arrays back to the
//   pool of the thread that destroys it; the next product's phases on that thread take the smallest
//   pooled vector whose capacity covers what they need. On this VM a first touch of a fresh 4 KiB
//   page costs ~17 us of CPU (a 2048^2 SpGEMM's ~6.8 MB of offsets, columns and product lists:
//   ~1 650 faults, ~22 ms, against ~3 ms of index work), and glibc maps arrays of this size afresh
//   on every call (mmap / munmap above its threshold), so every one-shot product paid the faults
//   again. The pool keeps the pages mapped.
//   Per thread, not process-wide: which block a phase gets (and so the host address of C's sums,
//   which the numeric phase's trace names) depends only on the calling thread's own earlier
//   products, never on what other threads freed in between (session 20 had one pool behind a mutex).
// Engines: none (host bookkeeping of index arrays the engines never address: no record, byte or
//   modeled time depends on it; the sums array's trace names it by address, and reuse of freed heap
//   bytes is what malloc did before too).
// Accuracy: not applicable.
// Limits: blocks below kWarmBlockMinBytes are left to malloc; each thread's pool holds at most
//   kWarmBlockCount vectors and kWarmBlockPoolBytes per element type (beyond that a block is freed as
//   before). A thread's pool frees its blocks when the thread exits; a product destroyed after that
//   (by a later thread_local destructor of the same thread) frees its arrays as before.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <utility>
#include <vector>

namespace trn::sparse::detail {

inline constexpr std::size_t kWarmBlockMinBytes = std::size_t{64} << 10, kWarmBlockPoolBytes = std::size_t{64} << 20,
                             kWarmBlockCount = 16;

template <class T>
class WarmBlocks {
 public:
  // The calling thread's pool, or nullptr once it has been destroyed at the thread's exit.
  static WarmBlocks* pool() {
    if (finished_) return nullptr;
    thread_local WarmBlocks p;
    return &p;
  }
  // An empty vector with capacity >= n if the pool holds one (the smallest such), else an empty one.
  std::vector<T> take(std::size_t n) {
    if (n * sizeof(T) < kWarmBlockMinBytes) return {};
    std::size_t best = count_;
    for (std::size_t k = 0; k < count_; ++k)
      if (spare_[k].capacity() >= n && (best == count_ || spare_[k].capacity() < spare_[best].capacity())) best = k;
    if (best == count_) return {};
    std::vector<T> v = std::move(spare_[best]);
    if (best != --count_) spare_[best] = std::move(spare_[count_]);
    bytes_ -= v.capacity() * sizeof(T);
    return v;
  }
  // Takes v's buffer (v is left empty) when it is large and the pool has room; else v keeps it.
  void give(std::vector<T>& v) {
    const std::size_t b = v.capacity() * sizeof(T);
    if (b < kWarmBlockMinBytes || b > kWarmBlockPoolBytes) return;
    if (count_ >= kWarmBlockCount || bytes_ + b > kWarmBlockPoolBytes) return;
    v.clear();
    bytes_ += b;
    spare_[count_++] = std::move(v);
    v = std::vector<T>();
  }

  WarmBlocks(const WarmBlocks&) = delete;
  WarmBlocks& operator=(const WarmBlocks&) = delete;
  ~WarmBlocks() { finished_ = true; }

 private:
  WarmBlocks() = default;
  // Trivially destructible, so still readable after the pool's own destructor has run on this thread.
  static inline thread_local bool finished_ = false;
  // Fixed slots: give() runs in destructors and must not allocate (a bad_alloc there would end in
  // std::terminate, and C entry points never abort); neither does building the pool.
  std::array<std::vector<T>, kWarmBlockCount> spare_{};
  std::size_t count_ = 0, bytes_ = 0;
};

// An empty vector of T with capacity >= n when a warm one is pooled (else capacity 0).
template <class T>
std::vector<T> take_warm_block(std::size_t n) {
  WarmBlocks<T>* p = WarmBlocks<T>::pool();
  return p != nullptr ? p->take(n) : std::vector<T>();
}
// Hands v's buffer to the pool when it qualifies (then v is empty; else unchanged).
template <class T>
void give_warm_block(std::vector<T>& v) {
  if (WarmBlocks<T>* p = WarmBlocks<T>::pool()) p->give(v);
}

// Gives v a warm block of capacity >= n first when its own capacity is short (v's elements are
// dropped then: call before filling v).
template <class T>
void warm_capacity(std::vector<T>& v, std::size_t n) {
  if (v.capacity() < n) {
    std::vector<T> w = take_warm_block<T>(n);
    if (w.capacity() >= n) v = std::move(w);
  }
}

}  // namespace trn::sparse::detail
