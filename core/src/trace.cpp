#include "trn/core/trace.hpp"

#include "engine_util.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <utility>

namespace trn {

std::string_view engine_name(Engine e) {
  switch (e) {
    case Engine::tensor: return "TensorE";
    case Engine::vector: return "VectorE";
    case Engine::scalar: return "ScalarE";
    case Engine::gpsimd: return "GpSimdE";
    case Engine::dma: return "DMA";
  }
  return "?";
}

std::string_view opcode_name(Opcode op) {
  switch (op) {
    case Opcode::nc_matmul: return "nc_matmul";
    case Opcode::nc_transpose: return "nc_transpose";
    case Opcode::tensor_tensor: return "tensor_tensor";
    case Opcode::tensor_scalar: return "tensor_scalar";
    case Opcode::tensor_reduce: return "tensor_reduce";
    case Opcode::tensor_tensor_scan: return "tensor_tensor_scan";
    case Opcode::tensor_copy: return "tensor_copy";
    case Opcode::memset: return "memset";
    case Opcode::bn_stats: return "bn_stats";
    case Opcode::bn_aggr: return "bn_aggr";
    case Opcode::reciprocal: return "reciprocal";
    case Opcode::activation: return "activation";
    case Opcode::iota: return "iota";
    case Opcode::affine_select: return "affine_select";
    case Opcode::custom_op: return "custom_op";
    case Opcode::dma_copy: return "dma_copy";
    case Opcode::dma_transpose: return "dma_transpose";
    case Opcode::host_compute: return "host_compute";
    case Opcode::link_transfer: return "link_transfer";
  }
  return "?";
}

Region region_of(const Tile& t, bool write) { return detail::region_inline(t, write); }

namespace {
// Advises the 2 MiB-aligned interior of [p, p + bytes) onto transparent huge pages (advice only:
// when the kernel declines, the buffer still works, only with 4 KiB faults).
void advise_huge_pages(void* p, std::size_t bytes) {
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t lo = (begin + kHuge - 1) / kHuge * kHuge, hi = (begin + bytes) / kHuge * kHuge;
  if (hi > lo) (void)madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
}
}  // namespace

// ---- The warm pool of trace buffers (trace.hpp) ------------------------------------------------
namespace {
struct TraceBufferPool {
  std::array<std::vector<Instruction>, detail::kTraceBufferSlots> slots;  // an empty slot has no capacity
  std::size_t kept = 0;  // the slots' capacities summed (kept in step with every swap below)
  std::size_t last = 0;  // the slot the last give filled or take emptied: a loop of small calls takes a
                         // buffer each launch and gives one back, so each looks there first
};
// This thread's pool (null until its first use) and whether it has been destroyed, as one trivially
// destructible thread_local: finding it is one thread-local address, with no guard variable. A
// function-local `thread_local TraceBufferPool` (a guard test and a destructor registration check)
// plus the `gone` flag beside it took three __tls_get_addr calls per give or take in libtrncore.so
// (its thread-locals are in the dynamic TLS model), ~50 host instructions of a small call's ~300
// for the pool per launch (callgrind, session 25).
struct PoolHandle {
  TraceBufferPool* pool;
  bool gone;  // set when the thread's pool is destroyed: a Trace destroyed later on this thread (a
              // thread_local's, at thread exit) frees its buffer instead
};
thread_local PoolHandle t_pool{nullptr, false};
// The pool's storage: thread-local as before (not the heap, whose later blocks would then lie
// elsewhere: host_compute records' HBM hulls span several heap blocks, so their lengths follow the
// heap's layout), constructed on first use.
alignas(TraceBufferPool) thread_local unsigned char t_pool_storage[sizeof(TraceBufferPool)];
// Destroys the thread's pool at thread exit (a thread_local constructed with the pool, so its
// destructor is registered then, once per thread).
struct PoolOwner {
  ~PoolOwner() {
    TraceBufferPool* const pool = t_pool.pool;
    t_pool = {nullptr, true};
    pool->~TraceBufferPool();
  }
};
[[gnu::noinline, gnu::cold]] TraceBufferPool* create_this_thread_pool() noexcept {
  if (t_pool.gone) return nullptr;
  thread_local PoolOwner owner;
  t_pool.pool = new (t_pool_storage) TraceBufferPool();
  return t_pool.pool;
}
// This thread's pool, or null once it is destroyed.
inline TraceBufferPool* this_thread_pool() noexcept {
  if (TraceBufferPool* const pool = t_pool.pool) [[likely]]
    return pool;
  return create_this_thread_pool();
}
// The records all of a thread's kept trace buffers may hold together: two of the largest kept buffer
// (a join's and one launch's), ~6.5 MiB (Instruction is 208 bytes).
constexpr std::size_t kTraceBufferPoolRecords = 2 * detail::kTraceBufferMaxRecords;

// Slot s's buffer swapped with `records` (one of them empty), `kept` updated.
void swap_slot(TraceBufferPool& pool, std::vector<Instruction>& slot, std::vector<Instruction>& records) {
  pool.kept = pool.kept - slot.capacity() + records.capacity();
  slot.swap(records);
}

// give_trace_buffer after its common case: the bound, then an empty slot, else the smallest kept one.
[[gnu::noinline]] void give_general(TraceBufferPool& pool, std::vector<Instruction>& records) noexcept {
  const std::size_t c = records.capacity();
  auto& slots = pool.slots;
  // The records kept in all slots stay within kTraceBufferPoolRecords (~6.5 MiB a thread, against 8
  // slots x 3.3 MiB): the smallest kept buffers are freed first until this one fits.
  while (pool.kept + c > kTraceBufferPoolRecords) {
    std::vector<Instruction>* drop = nullptr;
    for (std::vector<Instruction>& s : slots)
      if (s.capacity() != 0 && (drop == nullptr || s.capacity() < drop->capacity())) drop = &s;
    pool.kept -= drop->capacity();
    std::vector<Instruction>().swap(*drop);
  }
  // An empty slot, else the smallest kept buffer when it is smaller than this one (freed: the
  // large buffers are the ones whose pages fault in afresh).
  std::size_t smallest = 0;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (slots[i].capacity() == 0) {
      swap_slot(pool, slots[i], records);
      pool.last = i;
      return;
    }
    if (slots[i].capacity() < slots[smallest].capacity()) smallest = i;
  }
  if (slots[smallest].capacity() < c) {
    swap_slot(pool, slots[smallest], records);
    pool.last = smallest;
  }
  std::vector<Instruction>().swap(records);
}

// take_trace_buffer after its common case: the smallest kept buffer that fits.
[[gnu::noinline]] bool take_general(TraceBufferPool& pool, std::vector<Instruction>& records, std::size_t n) noexcept {
  const std::size_t most = 2 * n + 256;
  std::vector<Instruction>* best = nullptr;
  for (std::vector<Instruction>& s : pool.slots)
    if (s.capacity() >= n && s.capacity() != 0 && s.capacity() <= most &&
        (best == nullptr || s.capacity() < best->capacity()))
      best = &s;
  if (best == nullptr) return false;
  swap_slot(pool, *best, records);
  pool.last = static_cast<std::size_t>(best - pool.slots.data());  // empty now: the next give's slot
  return true;
}
}  // namespace

void detail::give_trace_buffer(std::vector<Instruction>& records) noexcept {
  const std::size_t c = records.capacity();
  if (c == 0) return;
  TraceBufferPool* const pool = c > kTraceBufferMaxRecords ? nullptr : this_thread_pool();
  if (pool == nullptr) {
    std::vector<Instruction>().swap(records);
    return;
  }
  records.clear();
  // The slot a take emptied last (a small-call loop's every give), when the pool has room: the
  // general path would fill the first empty slot; any empty slot keeps the same bound.
  std::vector<Instruction>& slot = pool->slots[pool->last];
  if (pool->kept + c <= kTraceBufferPoolRecords && slot.capacity() == 0) [[likely]] {
    pool->kept += c;
    slot.swap(records);
    return;
  }
  give_general(*pool, records);
}

bool detail::take_trace_buffer(std::vector<Instruction>& records, std::size_t n) noexcept {
  if (records.capacity() != 0) return false;
  TraceBufferPool* const pool = this_thread_pool();
  if (pool == nullptr) return false;
  // At most about twice the records asked for: a call's many small launch traces, outstanding until
  // their join, would otherwise take the large buffers (the join's) and leave the join to allocate
  // and fault in a new one every call (ssyevd 128: ~64 faults a call). The buffer the last give
  // kept first, when it fits (a small-call loop's every take); else the smallest that fits.
  std::vector<Instruction>& slot = pool->slots[pool->last];
  const std::size_t c = slot.capacity();
  if (c >= n && c != 0 && c <= 2 * n + 256) [[likely]] {
    pool->kept -= c;
    slot.swap(records);
    return true;
  }
  return take_general(*pool, records, n);
}

void Trace::reserve(std::size_t records) {
  if (records <= instructions.capacity()) return;
  if (instructions.capacity() == 0) {
    // No buffer (a launch's core after its trace moved out): a warm one from this thread's pool.
    if (detail::take_trace_buffer(instructions, records)) return;
  } else if (instructions.empty()) {
    // A warm buffer from this thread's pool (trace.hpp), the small one handed back in exchange.
    std::vector<Instruction> warm;
    if (detail::take_trace_buffer(warm, records)) {
      detail::give_trace_buffer(instructions);
      instructions.swap(warm);
      return;
    }
  }
  constexpr std::size_t kAdviseBytes = std::size_t{4} << 20;
  std::vector<Instruction> grown;
  if (!detail::take_trace_buffer(grown, records)) {
    if (records * sizeof(Instruction) < kAdviseBytes && instructions.empty()) {
      instructions.reserve(records);
      return;
    }
    // A new buffer, advised before the old records are copied into it (vector::reserve would copy
    // first, faulting the copied half in 4 KiB pages).
    grown.reserve(records);
    if (records * sizeof(Instruction) >= kAdviseBytes) advise_huge_pages(grown.data(), records * sizeof(Instruction));
  }
  grown.insert(grown.end(), instructions.begin(), instructions.end());
  instructions.swap(grown);
  detail::give_trace_buffer(grown);
}

void Trace::append(const Trace& other) {
  const std::size_t needed = instructions.size() + other.instructions.size();
  if (needed > instructions.capacity()) reserve(std::max(needed, 2 * instructions.capacity()));  // geometric growth
  instructions.insert(instructions.end(), other.instructions.begin(), other.instructions.end());
  for (int e = 0; e < kEngineCount; ++e) per_engine[e] += other.per_engine[e];
  host_steps += other.host_steps;
  link_transfers += other.link_transfers;
}

void Trace::append(Trace&& other) {
  if (!instructions.empty()) return append(static_cast<const Trace&>(other));
  instructions = std::move(other.instructions);
  for (int e = 0; e < kEngineCount; ++e) per_engine[e] += other.per_engine[e];
  host_steps += other.host_steps;
  link_transfers += other.link_transfers;
}

Trace TraceParts::join() && {
  Trace all;
  if (parts.size() == 1) {
    all = std::move(parts.front());
  } else {
    std::size_t n = 0;
    for (const Trace& t : parts) n += t.instructions.size();
    all.reserve(n);  // one buffer (advised onto huge pages when large)
    for (const Trace& t : parts) all.append(t);
  }
  parts.clear();
  return all;
}

std::int64_t Trace::total() const {
  std::int64_t n = 0;
  for (auto c : per_engine) n += c;
  return n;
}

}  // namespace trn
