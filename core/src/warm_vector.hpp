// Vectors whose heap blocks stay warm on their thread between small calls (issue #30,
// docs/architecture.md "Per-call cost").
//
// Algorithm: a WarmVector<T> is a std::vector<T> that takes its buffer from a per-thread pool of
//   emptied vectors of T when it is made and hands it back (emptied, capacity kept) when it is
//   destroyed, so a GEMM program's per-call bookkeeping (operand slots, accumulators, output tiles,
//   the tiles an AllocScope frees) reuses the same few blocks call after call instead of a malloc
//   and free each. The pool keeps at most kWarmPoolVectors vectors of at most kWarmPoolElements
//   elements each; anything else is freed as before.
// Engines: none (host bookkeeping only: no record, byte or modeled time depends on it).
// Accuracy: not applicable.
// Limits: T must be movable; a vector handed back after its thread's pool was destroyed (thread
//   exit) is simply freed.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

namespace trn::detail {

inline constexpr std::size_t kWarmPoolVectors = 32, kWarmPoolElements = 4096;

template <class T>
class WarmPool {
 public:
  ~WarmPool() {
    current_ = nullptr;
    dead_ = true;
  }
  // One thread-local lookup on the warm path (each costs a __tls_get_addr call in a shared library).
  static WarmPool* of_thread() {
    if (WarmPool* p = current_) return p;
    if (dead_) return nullptr;
    thread_local WarmPool pool;
    current_ = &pool;
    return &pool;
  }
  std::vector<T> take() {
    if (spare_.empty()) return {};
    std::vector<T> v = std::move(spare_.back());
    spare_.pop_back();
    return v;
  }
  void give(std::vector<T>&& v) {
    v.clear();
    if (v.capacity() == 0 || v.capacity() > kWarmPoolElements || spare_.size() >= kWarmPoolVectors) return;
    spare_.push_back(std::move(v));
  }

 private:
  // Trivially destructible, so still readable while the thread's other thread_locals are destroyed.
  static inline thread_local WarmPool* current_ = nullptr;
  static inline thread_local bool dead_ = false;
  std::vector<std::vector<T>> spare_;
};

// The calling thread's spare vector of T (empty, possibly with capacity), or an empty one.
template <class T>
std::vector<T> take_warm_vector() {
  WarmPool<T>* p = WarmPool<T>::of_thread();
  return p != nullptr ? p->take() : std::vector<T>{};
}
// Hands v's buffer back to the calling thread's pool (v is left empty).
template <class T>
void give_warm_vector(std::vector<T>&& v) {
  if (v.capacity() == 0) return;
  if (WarmPool<T>* p = WarmPool<T>::of_thread()) p->give(std::move(v));
}

// A std::vector<T> on a warm buffer (above); usable wherever a std::vector<T>& is.
template <class T>
class WarmVector : public std::vector<T> {
 public:
  WarmVector() : std::vector<T>(take_warm_vector<T>()) {}
  WarmVector(WarmVector&&) noexcept = default;
  WarmVector& operator=(WarmVector&&) noexcept = default;
  WarmVector(const WarmVector&) = delete;
  WarmVector& operator=(const WarmVector&) = delete;
  ~WarmVector() { give_warm_vector<T>(std::move(static_cast<std::vector<T>&>(*this))); }
};

}  // namespace trn::detail
