// Large host arrays of SpGEMM's symbolic and numeric phases kept warm between products (issue #30).
//
// Algorithm: a process-wide pool of emptied std::vector<T> per element type. A finished product
//   (CsrProduct's destructor, the symbolic phase's temporaries) hands its large arrays back; the next
//   product's phases take the smallest pooled vector whose capacity covers what they need. On this
//   VM a first touch of a fresh 4 KiB page costs ~17 us of CPU (a 2048^2 SpGEMM's ~6.8 MB of
//   offsets, columns and product lists: ~1 650 faults, ~22 ms, against ~3 ms of index work), and
//   glibc maps arrays of this size afresh on every call (mmap / munmap above its threshold), so
//   every one-shot product paid the faults again. The pool keeps the pages mapped.
// Engines: none (host bookkeeping of index arrays the engines never address: no record, byte or
//   modeled time depends on it; the sums array's trace names it by address, and reuse of freed heap
//   bytes is what malloc did before too).
// Accuracy: not applicable.
// Limits: blocks below kWarmBlockMinBytes are left to malloc; the pool holds at most
//   kWarmBlockCount vectors and kWarmBlockPoolBytes per element type (beyond that a block is freed as
//   before). The pool is never destroyed (a product destroyed during static destruction still finds
//   it); a mutex guards it (SpGEMM calls are milliseconds: the lock is noise).
#pragma once
#include <algorithm>
#include <cstddef>
#include <mutex>
#include <utility>
#include <vector>

namespace trn::sparse::detail {

inline constexpr std::size_t kWarmBlockMinBytes = std::size_t{64} << 10, kWarmBlockPoolBytes = std::size_t{64} << 20,
                             kWarmBlockCount = 16;

template <class T>
class WarmBlocks {
 public:
  static WarmBlocks& pool() {
    static WarmBlocks* p = new WarmBlocks;  // never destroyed (see Limits)
    return *p;
  }
  // An empty vector with capacity >= n if the pool holds one (the smallest such), else an empty one.
  std::vector<T> take(std::size_t n) {
    if (n * sizeof(T) < kWarmBlockMinBytes) return {};
    const std::lock_guard<std::mutex> lock(mutex_);
    std::size_t best = spare_.size();
    for (std::size_t k = 0; k < spare_.size(); ++k)
      if (spare_[k].capacity() >= n && (best == spare_.size() || spare_[k].capacity() < spare_[best].capacity())) best = k;
    if (best == spare_.size()) return {};
    std::vector<T> v = std::move(spare_[best]);
    spare_[best] = std::move(spare_.back());
    spare_.pop_back();
    bytes_ -= v.capacity() * sizeof(T);
    return v;
  }
  // Takes v's buffer (v is left empty) when it is large and the pool has room; else v keeps it.
  void give(std::vector<T>& v) {
    const std::size_t b = v.capacity() * sizeof(T);
    if (b < kWarmBlockMinBytes || b > kWarmBlockPoolBytes) return;
    const std::lock_guard<std::mutex> lock(mutex_);
    if (spare_.size() >= kWarmBlockCount || bytes_ + b > kWarmBlockPoolBytes) return;
    v.clear();
    bytes_ += b;
    spare_.push_back(std::move(v));
    v = std::vector<T>();
  }

 private:
  // give() is called from destructors: its push_back must not allocate (a bad_alloc there would end
  // in std::terminate, and C entry points never abort).
  WarmBlocks() { spare_.reserve(kWarmBlockCount); }
  std::mutex mutex_;
  std::vector<std::vector<T>> spare_;
  std::size_t bytes_ = 0;
};

// An empty vector of T with capacity >= n when a warm one is pooled (else capacity 0).
template <class T>
std::vector<T> take_warm_block(std::size_t n) {
  return WarmBlocks<T>::pool().take(n);
}
// Hands v's buffer to the pool when it qualifies (then v is empty; else unchanged).
template <class T>
void give_warm_block(std::vector<T>& v) {
  WarmBlocks<T>::pool().give(v);
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
