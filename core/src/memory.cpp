#include "trn/core/memory.hpp"

#include <malloc.h>
#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <numeric>

#include "onchip_dirty.hpp"
#include "program_replay.hpp"
#include "simd_util.hpp"
#include "warm_vector.hpp"
#include "trn/core/error.hpp"

namespace trn {

namespace detail {
namespace {
constexpr std::size_t kHugeBytes = std::size_t{2} << 20, kLineBytes = 64;

// Freed host blocks of 2 MiB or more (an SBUF's or PSUM's storage when a core changes generation,
// a trnrand generator's 20 MB windows, a large HbmTensor), kept mapped for the next request they
// fit: fresh anonymous memory costs a page fault and the kernel's zeroing per page (2 MiB on
// transparent huge pages) at first touch, recycled memory neither. Host speed only: every user of
// allocate_host_bytes writes its bytes before reading them or asks for zeros (filled here either
// way), so what a block held before is never seen.
// Bounds: at most kKeptBlocks blocks and kKeptBytes in all, none larger than kKeptBytes / 2; the
// least recently kept go first. A request takes the smallest kept block that holds it (of equal
// sizes the one kept last, the likeliest still in the host's caches), and only one at most twice
// its size (a 2 MiB request does not pin a 64 MiB block).
// Sizes are glibc's usable sizes (malloc_usable_size), which for a mapped block exceed the request
// by up to 2 MiB according to where the mapping fell: which kept block a request takes may differ
// from run to run. Only host addresses depend on it (on-chip trace regions are offsets; the libraries
// own no HbmTensor, they wrap the caller's memory), never a byte, record or modeled time.
// Never destroyed (HostFree may run from static destructors); the mutex is taken only on this
// path, never for the cache-line-aligned small blocks, and is held across fork() by an atfork
// handler (the child gets a fresh one), so a fork while another thread keeps or takes a block
// cannot leave the child's next large allocation waiting forever.
// Off under AddressSanitizer / ThreadSanitizer (TRNSCI_SANITIZE, the fuzz builds): a block must be
// really freed for a later use of it to be reported.
class KeptBlocks {
 public:
  static constexpr int kKeptBlocks = 8;
  static constexpr std::size_t kKeptBytes = std::size_t{128} << 20;

  // A kept block of at least `size` bytes (2 MiB aligned), or nullptr.
  void* take(std::size_t size) {
    const std::lock_guard<std::mutex> lock(mu_);
    int best = -1;
    for (int i = 0; i < kKeptBlocks; ++i)
      if (slots_[i].p != nullptr && slots_[i].size >= size && slots_[i].size / 2 <= size &&
          (best < 0 || slots_[i].size < slots_[best].size ||
           (slots_[i].size == slots_[best].size && slots_[i].tick > slots_[best].tick)))
        best = i;
    if (best < 0) return nullptr;
    void* p = slots_[best].p;
    total_ -= slots_[best].size;
    slots_[best] = {};
    return p;
  }

  // Keeps p (usable size `size`) when the bounds allow, evicting the oldest kept blocks as needed;
  // otherwise frees it. The blocks to free are freed after the lock is released.
  void keep(void* p, std::size_t size) noexcept {
    void* evicted[kKeptBlocks + 1] = {};
    int nevicted = 0;
    if (size > kKeptBytes / 2) {
      evicted[nevicted++] = p;
    } else {
      const std::lock_guard<std::mutex> lock(mu_);
      for (;;) {
        int empty = -1, oldest = -1;
        for (int i = 0; i < kKeptBlocks; ++i) {
          if (slots_[i].p == nullptr) {
            if (empty < 0) empty = i;
          } else if (oldest < 0 || slots_[i].tick < slots_[oldest].tick) {
            oldest = i;
          }
        }
        if (empty >= 0 && total_ + size <= kKeptBytes) {
          slots_[empty] = {p, size, ++tick_};
          total_ += size;
          break;
        }
        evicted[nevicted++] = slots_[oldest].p;  // total_ + size > kKeptBytes or no empty slot: one is kept
        total_ -= slots_[oldest].size;
        slots_[oldest] = {};
      }
    }
    for (int i = 0; i < nevicted; ++i) std::free(evicted[i]);
  }

  // Frees every kept block (an allocation failed: the memory they hold goes back first).
  void drain() noexcept {
    void* freed[kKeptBlocks] = {};
    {
      const std::lock_guard<std::mutex> lock(mu_);
      for (int i = 0; i < kKeptBlocks; ++i) {
        freed[i] = slots_[i].p;
        slots_[i] = {};
      }
      total_ = 0;
    }
    for (void* p : freed) std::free(p);
  }

  // fork(): the lock is held across it and released in the parent; the child, whose only thread
  // is the forking one, starts with a new unlocked mutex.
  void before_fork() { mu_.lock(); }
  void after_fork_in_parent() { mu_.unlock(); }
  void after_fork_in_child() { new (&mu_) std::mutex(); }

 private:
  struct Slot {
    void* p = nullptr;
    std::size_t size = 0;
    std::uint64_t tick = 0;
  };
  std::mutex mu_;
  Slot slots_[kKeptBlocks];
  std::size_t total_ = 0;
  std::uint64_t tick_ = 0;
};

KeptBlocks& kept_blocks() {
  static KeptBlocks* const kept = [] {
    KeptBlocks* k = new KeptBlocks;
    (void)pthread_atfork([] { kept_blocks().before_fork(); }, [] { kept_blocks().after_fork_in_parent(); },
                         [] { kept_blocks().after_fork_in_child(); });
    return k;
  }();
  return *kept;
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kKeepFreedBlocks = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kKeepFreedBlocks = false;
#else
constexpr bool kKeepFreedBlocks = true;
#endif
#else
constexpr bool kKeepFreedBlocks = true;
#endif
}  // namespace

void HostFree::operator()(std::byte* p) const noexcept {
  // Blocks of the huge-page path are 2 MiB aligned (a small block may be too, by chance: its
  // usable size tells; kept or not, it is a valid block of that size).
  if (kKeepFreedBlocks && p != nullptr && reinterpret_cast<std::uintptr_t>(p) % kHugeBytes == 0) {
    const std::size_t usable = malloc_usable_size(p);
    if (usable >= kHugeBytes) return kept_blocks().keep(p, usable);
  }
  std::free(p);
}

std::byte* allocate_host_bytes(std::size_t bytes, bool zero) {
  const std::size_t align = bytes >= kHugeBytes ? kHugeBytes : kLineBytes;
  const std::size_t size = (std::max<std::size_t>(bytes, 1) + align - 1) / align * align;
  void* p = kKeepFreedBlocks && align == kHugeBytes ? kept_blocks().take(size) : nullptr;
  if (p == nullptr) p = std::aligned_alloc(align, size);
  if (p == nullptr && kKeepFreedBlocks) {  // the kept blocks' memory back to the host, then once more
    kept_blocks().drain();
    p = std::aligned_alloc(align, size);
  }
  if (p == nullptr) throw std::bad_alloc();
  if (align == kHugeBytes) (void)madvise(p, size, MADV_HUGEPAGE);  // advice only: failure costs speed, not results
  if (zero) std::memset(p, 0, size);
  return static_cast<std::byte*>(p);
}
}  // namespace detail

std::string_view mem_space_name(MemSpace m) {
  switch (m) {
    case MemSpace::hbm: return "HBM";
    case MemSpace::sbuf: return "SBUF";
    case MemSpace::psum: return "PSUM";
  }
  return "?";
}

// ---- Tile ------------------------------------------------------------------------------------

std::int64_t Tile::free_size() const {
  std::int64_t n = 1;
  for (int d = 0; d < ndim; ++d) n *= size[d];
  return n;
}

bool Tile::free_contiguous() const {
  std::int64_t expect = 1;
  for (int d = ndim - 1; d >= 0; --d) {
    if (size[d] != 1 && stride[d] != expect) return false;
    expect *= size[d];
  }
  return true;
}

std::int64_t Tile::free_lo_byte() const {
  std::int64_t lo = 0;
  for (int d = 0; d < ndim; ++d)
    if (stride[d] < 0 && size[d] > 0) lo += stride[d] * (size[d] - 1);
  return offset_bytes + lo * dtype_size(dtype);
}

std::int64_t Tile::free_hi_byte() const {
  std::int64_t hi = 0;
  for (int d = 0; d < ndim; ++d)
    if (stride[d] > 0 && size[d] > 0) hi += stride[d] * (size[d] - 1);
  return offset_bytes + (hi + 1) * dtype_size(dtype);
}

Tile Tile::rows(std::int32_t first, std::int32_t count) const {
  if (first < 0 || count < 0 || first + count > partitions)
    throw LimitError("Tile::rows", "tile", "partition range end", std::int64_t{first} + count, "partitions",
                     partitions, "");
  Tile t = *this;
  t.base = base + std::int64_t{first} * partition_stride;
  t.partition_start = partition_start + (mem == MemSpace::hbm ? 0 : first);
  t.partitions = count;
  return t;
}

Tile Tile::broadcast_partitions(std::int32_t count) const {
  if (partitions != 1)
    throw LimitError("Tile::broadcast_partitions", "tile", "partitions", partitions, "partitions of a broadcast source",
                     1, "");
  if (count < 1) throw LimitError("Tile::broadcast_partitions", "count", "count", count, "minimum", 1, "");
  Tile t = *this;
  t.partitions = count;
  t.partition_stride = 0;
  return t;
}

// Tile::slice's checks (memory.hpp), in their order, with their messages: called only when one fails.
void detail::throw_bad_slice(const Tile& t, int dim, std::int64_t start, std::int64_t count, std::int64_t step) {
  if (dim < 0 || dim >= t.ndim) throw LimitError("Tile::slice", "tile", "dimension", dim, "ndim", t.ndim, "");
  if (step <= 0) throw UsageError("Tile::slice", "tile", "step must be positive");
  throw LimitError("Tile::slice", "tile", "slice end", start + (count > 0 ? (count - 1) * step + 1 : 0),
                   "dimension size", t.size[static_cast<std::size_t>(dim)], "");
}

Tile Tile::reshape(std::initializer_list<std::int64_t> free_shape) const {
  if (!free_contiguous()) throw UsageError("Tile::reshape", "tile", "only contiguous tiles can be reshaped");
  if (free_shape.size() < 1 || free_shape.size() > kMaxFreeDims)
    throw LimitError("Tile::reshape", "tile", "free dimensions", static_cast<std::int64_t>(free_shape.size()),
                     "max free dims", kMaxFreeDims, "");
  const std::int64_t n = std::accumulate(free_shape.begin(), free_shape.end(), std::int64_t{1}, std::multiplies<>());
  if (n != free_size()) throw LimitError("Tile::reshape", "tile", "element count", n, "free size", free_size(), "");
  Tile t = *this;
  t.ndim = static_cast<int>(free_shape.size());
  int d = 0;
  for (auto s : free_shape) t.size[d++] = s;
  std::int64_t st = 1;
  for (d = t.ndim - 1; d >= 0; --d) {
    t.stride[d] = st;
    st *= t.size[d];
  }
  for (d = t.ndim; d < kMaxFreeDims; ++d) {
    t.size[d] = 1;
    t.stride[d] = 0;
  }
  return t;
}

Tile Tile::bitcast(DType to) const {
  if (dtype_size(to) != dtype_size(dtype))
    throw UsageError("Tile::bitcast", "tile", "bitcast needs dtypes of equal size");
  Tile t = *this;
  t.dtype = to;
  return t;
}

std::byte* Tile::at(std::int32_t p, std::int64_t flat) const {
  std::int64_t off = 0;
  for (int d = ndim - 1; d >= 0; --d) {
    off += (flat % size[d]) * stride[d];
    flat /= size[d];
  }
  return base + std::int64_t{p} * partition_stride + off * dtype_size(dtype);
}

// ---- HbmTensor ---------------------------------------------------------------------------------

namespace {
std::vector<std::int64_t> row_major_strides(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> s(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i) s[i] = s[i + 1] * shape[i + 1];
  return s;
}
}  // namespace

HbmTensor::HbmTensor(DType dtype, std::vector<std::int64_t> shape)
    : dtype_(dtype), shape_(std::move(shape)), strides_(row_major_strides(shape_)) {
  const std::size_t bytes = static_cast<std::size_t>(numel() * dtype_size(dtype_));
  owned_ = std::shared_ptr<std::byte[]>(detail::allocate_host_bytes(bytes, /*zero=*/true), detail::HostFree{});
  data_ = owned_.get();
}

HbmTensor HbmTensor::wrap(void* data, DType dtype, std::vector<std::int64_t> shape, std::vector<std::int64_t> strides) {
  HbmTensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  t.strides_ = strides.empty() ? row_major_strides(t.shape_) : std::move(strides);
  if (t.strides_.size() != t.shape_.size()) throw UsageError("HbmTensor::wrap", "strides", "rank differs from shape");
  t.data_ = static_cast<std::byte*>(data);
  return t;
}

std::int64_t HbmTensor::numel() const {
  return std::accumulate(shape_.begin(), shape_.end(), std::int64_t{1}, std::multiplies<>());
}

Tile HbmTensor::tile_nd(std::initializer_list<std::int64_t> start_list, std::initializer_list<std::int64_t> size_list,
                         int partition_axis) const {
  constexpr const char* who = "HbmTensor::tile_nd";
  // The lists read in place (copied into vectors, they were two heap blocks per view: a small
  // call's DMA views are built on every call).
  const std::int64_t* const start = start_list.begin();
  const std::int64_t* const sizes = size_list.begin();
  const int nd = static_cast<int>(shape_.size());
  if (static_cast<int>(start_list.size()) != nd || static_cast<int>(size_list.size()) != nd)
    throw UsageError(who, "start/sizes", "need one entry per tensor axis (" + std::to_string(nd) + ")");
  if (partition_axis < 0 || partition_axis >= nd)
    throw LimitError(who, "partition_axis", "axis", partition_axis, "tensor axes", nd, "");
  if (nd - 1 > kMaxFreeDims) throw LimitError(who, "tensor", "free dimensions", nd - 1, "kMaxFreeDims", kMaxFreeDims, "");
  const std::int64_t es = dtype_size(dtype_);
  std::int64_t offset = 0;
  for (int d = 0; d < nd; ++d) {
    const auto du = static_cast<std::size_t>(d);
    if (start[du] < 0 || sizes[du] < 1 || start[du] + sizes[du] > shape_[du])
      throw LimitError(who, "axis " + std::to_string(d), "end", start[du] + sizes[du], "extent", shape_[du], "");
    std::int64_t step = 0;
    if (__builtin_mul_overflow(start[du], strides_[du] * es, &step) || __builtin_add_overflow(offset, step, &offset))
      throw LimitError(who, "tensor", "byte offset", start[du], "addressable in int64", INT64_MAX / es, "");
  }
  const auto pa = static_cast<std::size_t>(partition_axis);
  if (sizes[pa] > INT32_MAX) throw LimitError(who, "partitions", "size", sizes[pa], "int32", INT32_MAX, "");
  Tile t;
  t.mem = MemSpace::hbm;
  t.dtype = dtype_;
  t.base = data_ + offset;
  t.partitions = static_cast<std::int32_t>(sizes[pa]);
  t.partition_stride = strides_[pa] * es;
  t.ndim = 0;
  t.size = {1, 1, 1, 1};
  t.stride = {0, 0, 0, 0};
  for (int d = 0; d < nd; ++d) {
    if (d == partition_axis) continue;
    t.size[static_cast<std::size_t>(t.ndim)] = sizes[static_cast<std::size_t>(d)];
    t.stride[static_cast<std::size_t>(t.ndim)] = strides_[static_cast<std::size_t>(d)];
    ++t.ndim;
  }
  if (t.ndim == 0) t.ndim = 1;  // a 1-D tensor: one element per partition
  return t;
}

Tile HbmTensor::tile_broadcast(std::int64_t r, std::int32_t partitions, std::int64_t c0, std::int64_t ncols) const {
  return tile(r, 1, c0, ncols).broadcast_partitions(partitions);
}

Tile HbmTensor::tile(std::int64_t r0, std::int32_t nrows, std::int64_t c0, std::int64_t ncols) const {
  if (shape_.size() != 2) throw UsageError("HbmTensor::tile", "tensor", "tile() needs a 2-D tensor");
  if (r0 < 0 || nrows < 0 || r0 + nrows > shape_[0])
    throw LimitError("HbmTensor::tile", "rows", "row end", r0 + nrows, "tensor rows", shape_[0], "");
  if (c0 < 0 || ncols < 0 || c0 + ncols > shape_[1])
    throw LimitError("HbmTensor::tile", "cols", "column end", c0 + ncols, "tensor columns", shape_[1], "");
  Tile t;
  t.mem = MemSpace::hbm;
  t.dtype = dtype_;
  const std::int64_t es = dtype_size(dtype_);
  // Byte offsets in checked arithmetic: a view no buffer can hold is an error, not overflow UB.
  std::int64_t row_bytes = 0, off_r = 0, col_bytes = 0, off_c = 0, offset = 0;
  if (__builtin_mul_overflow(strides_[0], es, &row_bytes) || __builtin_mul_overflow(r0, row_bytes, &off_r) ||
      __builtin_mul_overflow(strides_[1], es, &col_bytes) || __builtin_mul_overflow(c0, col_bytes, &off_c) ||
      __builtin_add_overflow(off_r, off_c, &offset))
    throw LimitError("HbmTensor::tile", "tensor", "row stride", strides_[0], "elements addressable in int64 bytes",
                     INT64_MAX / es, "");
  t.base = data_ + offset;
  t.partitions = nrows;
  t.partition_stride = row_bytes;
  t.ndim = 1;
  t.size = {ncols, 1, 1, 1};
  t.stride = {strides_[1], 0, 0, 0};
  return t;
}

Tile HbmTensor::tile_transposed(std::int64_t r0, std::int64_t nrows, std::int64_t c0, std::int32_t ncols) const {
  Tile t = tile(r0, 0, c0, ncols);  // validates the column range
  if (r0 < 0 || nrows < 0 || r0 + nrows > shape_[0])
    throw LimitError("HbmTensor::tile_transposed", "rows", "row end", r0 + nrows, "tensor rows", shape_[0], "");
  const std::int64_t es = dtype_size(dtype_);
  t.partitions = ncols;
  t.partition_stride = strides_[1] * es;
  t.size = {nrows, 1, 1, 1};
  t.stride = {strides_[0], 0, 0, 0};
  return t;
}

// ---- OnChipMemory --------------------------------------------------------------------------------

namespace {
using detail::DirtyRange;
using detail::DirtySet;
using detail::dirty_sets;
using detail::host_stride_of;
using detail::kDirtyRanges;
using detail::kGroup;
using detail::kPadBytes;

int dirty_groups(const OnChipMemory& m) { return (m.partitions() + kGroup - 1) / kGroup; }
// Bytes of the storage block after the partitions: one DirtySet per group.
std::int64_t dirty_bytes(int partitions) {
  return std::int64_t{(partitions + kGroup - 1) / kGroup} * std::int64_t{sizeof(DirtySet)};
}

// After the dirty sets: the placement of the next allocation (detail::place_next_alloc), plain
// data in the storage block like them. offset < 0: none.
struct PlacementHint {
  std::int64_t offset, used_after;
};
PlacementHint& placement_hint(const OnChipMemory& m) {
  return *reinterpret_cast<PlacementHint*>(m.storage() + m.partitions() * host_stride_of(m) +
                                           dirty_bytes(m.partitions()));
}

// Back to kDirtyRanges ranges: the two neighbours with the smallest gap become one.
void merge_closest(DirtySet& d) {
  if (d.n <= kDirtyRanges) return;
  std::int64_t best = 0;
  for (std::int64_t i = 1; i + 1 < d.n; ++i)
    if (d.r[i + 1].lo - d.r[i].hi < d.r[best + 1].lo - d.r[best].hi) best = i;
  d.r[best].hi = d.r[best + 1].hi;
  for (std::int64_t i = best + 1; i + 1 < d.n; ++i) d.r[i] = d.r[i + 1];
  --d.n;
}

// d = out, the ranges in use only (a set is ~280 bytes; a small call rewrites a few per allocation).
void assign_ranges(DirtySet& d, const DirtySet& out) {
  d.n = out.n;
  std::copy(out.r, out.r + out.n, d.r);
}

// [lo, hi) written: joined with the ranges it overlaps or touches.
void add_dirty(DirtySet& d, std::int64_t lo, std::int64_t hi) {
  for (std::int64_t i = 0; i < d.n; ++i)
    if (d.r[i].lo <= lo && hi <= d.r[i].hi) return;  // already inside one range (the common case)
  DirtySet out;  // only r[0, n) is ever read
  out.n = 0;
  bool placed = false;
  for (std::int64_t i = 0; i < d.n; ++i) {
    const DirtyRange& x = d.r[i];
    if (x.hi < lo) {
      out.r[out.n++] = x;
    } else if (x.lo > hi) {
      if (!placed) out.r[out.n++] = {lo, hi};
      placed = true;
      out.r[out.n++] = x;
    } else {
      lo = std::min(lo, x.lo);
      hi = std::max(hi, x.hi);
    }
  }
  if (!placed) out.r[out.n++] = {lo, hi};
  merge_closest(out);
  assign_ranges(d, out);
}

// [lo, hi) holds the poison again in every partition of the group. In place: the ranges are sorted
// and disjoint, so the ones [lo, hi) meets are a run [i, j); the first may keep its part below lo
// and the last its part above hi (at most one more range than before, merge_closest's spare).
// The same result as rebuilding the set range by range (session 21's form), without copying it.
void remove_dirty(DirtySet& d, std::int64_t lo, std::int64_t hi) {
  std::int64_t i = 0;
  while (i < d.n && d.r[i].hi <= lo) ++i;
  std::int64_t j = i;
  while (j < d.n && d.r[j].lo < hi) ++j;
  if (i == j) return;  // nothing inside [lo, hi)
  DirtyRange keep[2];
  int kept = 0;
  if (d.r[i].lo < lo) keep[kept++] = {d.r[i].lo, lo};
  if (d.r[j - 1].hi > hi) keep[kept++] = {hi, d.r[j - 1].hi};
  const std::int64_t removed = j - i, n = d.n;
  if (kept > removed)  // the tail to its new place (one further on: copy from the end)
    std::copy_backward(d.r + j, d.r + n, d.r + n + (kept - removed));
  else if (kept < removed)
    std::copy(d.r + j, d.r + n, d.r + i + kept);
  for (int k = 0; k < kept; ++k) d.r[i + k] = keep[k];
  d.n = n - removed + kept;
  merge_closest(d);
}
}  // namespace

void detail::note_onchip_write_ranges(OnChipMemory& m, const Region& r) {
  DirtySet* h = dirty_sets(m);
  const auto lo = static_cast<std::int64_t>(r.lo), hi = static_cast<std::int64_t>(r.hi);
  if (lo >= hi) return;
  const std::int32_t p1 = std::min(r.p0 + std::max(r.np, 1), m.partitions());
  for (std::int32_t g = std::max(r.p0, 0) / kGroup; g * kGroup < p1; ++g) add_dirty(h[g], lo, hi);
}

bool detail::onchip_write_known_groups(const OnChipMemory& m, const Region& r) {
  const auto lo = static_cast<std::int64_t>(r.lo), hi = static_cast<std::int64_t>(r.hi);
  if (!(lo < hi && r.p0 >= 0 && r.np >= 1 && r.p0 + r.np <= m.partitions())) return false;
  const DirtySet* sets = dirty_sets(m);
  for (std::int32_t g = r.p0 / kGroup, last = (r.p0 + r.np - 1) / kGroup; g <= last; ++g) {
    const DirtySet& d = sets[g];
    bool inside = false;
    for (std::int64_t i = 0; i < d.n && !inside; ++i) inside = d.r[i].lo <= lo && hi <= d.r[i].hi;
    if (!inside) return false;
  }
  return true;
}

bool detail::onchip_writes_known_groups(const Instruction& ins, const OnChipMemory& sbuf, const OnChipMemory& psum) {
  for (std::uint8_t i = 0; i < ins.nregions; ++i) {
    const Region& r = ins.regions[i];
    if (!r.write || r.mem == MemSpace::hbm) continue;
    const OnChipMemory& m = r.mem == MemSpace::sbuf ? sbuf : psum;
    if (!onchip_write_known(m, r) && !onchip_write_known_groups(m, r)) return false;
  }
  return true;
}

void detail::place_next_alloc(OnChipMemory& m, std::int64_t offset, std::int64_t used_after) {
  placement_hint(m) = {offset, used_after};
}

void detail::note_onchip_write_all(OnChipMemory& m) {
  DirtySet* h = dirty_sets(m);
  for (int g = 0; g < dirty_groups(m); ++g) {
    h[g].n = 1;
    h[g].r[0] = {0, m.partition_bytes()};
  }
}

OnChipMemory::OnChipMemory(MemSpace space, const HardwareSpec& hw)
    : space_(space),
      generation_(hw.name),
      fp8_e4m3fn_native_(hw.fp8_e4m3fn_native),
      partitions_(hw.pmax),
      partition_bytes_(space == MemSpace::psum ? hw.psum_partition_bytes : hw.sbuf_partition_bytes),
      bank_bytes_(space == MemSpace::psum ? hw.psum_bank_bytes : 0),
      host_stride_(partition_bytes_ + kHostPartitionPadBytes),
      // Not zeroed: every allocation is NaN-poisoned before use, and untouched pages stay unmapped.
      // The dirty ranges (below) follow the partitions.
      storage_(detail::allocate_host_bytes(
          static_cast<std::size_t>(hw.pmax * host_stride_ + dirty_bytes(hw.pmax) + sizeof(PlacementHint)),
          /*zero=*/false)) {
  static_assert(kHostPartitionPadBytes == kPadBytes);
  static_assert(sizeof(DirtySet) % alignof(PlacementHint) == 0);
  detail::note_onchip_write_all(*this);  // nothing filled yet
  placement_hint(*this) = {-1, 0};
}

namespace {
// 0xFF bytes into [lo, hi) of one partition row (64-byte aligned). A few blocks (a call's scalars
// and vector chunks) are written as fixed-size 64-byte stores the compiler inlines.
void poison_bytes(std::byte* row, std::int64_t lo, std::int64_t hi) {
  static_assert(kAllocAlignBytes == 64);
  if (hi - lo <= 4 * kAllocAlignBytes) {
    for (std::int64_t b = lo; b < hi; b += kAllocAlignBytes) std::memset(row + b, 0xFF, kAllocAlignBytes);
  } else {
    std::memset(row + lo, 0xFF, static_cast<std::size_t>(hi - lo));
  }
}

TRN_SIMD_WARNINGS_BEGIN
// poison_bytes over `rows` partition rows `stride` bytes apart for a short range (at most
// 4 blocks): one 64-byte store per block.
__attribute__((target("avx512f"))) void poison_short_rows_avx512(std::byte* first, std::int64_t stride,
                                                                 std::int32_t rows, std::int64_t a, std::int64_t b) {
  const __m512i ones = _mm512_set1_epi32(-1);
  for (std::int32_t r = 0; r < rows; ++r)
    for (std::int64_t x = a; x < b; x += kAllocAlignBytes) _mm512_storeu_si512(first + r * stride + x, ones);
}
// The same with two 32-byte stores per block, for hosts without AVX-512 (and valgrind, which has
// none: callgrind counts of an allocation's fill are this path's). Session 22: a 128-partition
// one-block fill 2.8k -> ~0.7k host instructions under callgrind.
__attribute__((target("avx2"))) void poison_short_rows_avx2(std::byte* first, std::int64_t stride, std::int32_t rows,
                                                            std::int64_t a, std::int64_t b) {
  const __m256i ones = _mm256_set1_epi32(-1);
  std::byte* row = first + a;
  if (b - a == kAllocAlignBytes) {  // one block per row (a call's scalars and short vectors)
    for (std::int32_t r = 0; r < rows; ++r, row += stride) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(row), ones);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(row + 32), ones);
    }
    return;
  }
  for (std::int32_t r = 0; r < rows; ++r, row += stride)
    for (std::int64_t x = 0; x < b - a; x += kAllocAlignBytes) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(row + x), ones);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(row + x + 32), ones);
    }
}
TRN_SIMD_WARNINGS_END

bool has_avx2() {
  static const bool available = host_simd_available(HostSimd::avx2);
  return available;
}

// poison_bytes(row, a, b) for partitions [q0, q1) (the same bytes).
void poison_rows(const OnChipMemory& m, std::int32_t q0, std::int32_t q1, std::int64_t a, std::int64_t b) {
  const std::int64_t stride = host_stride_of(m);
  std::byte* first = m.storage() + std::int64_t{q0} * stride;
  if (b - a <= 4 * kAllocAlignBytes && simd::has_avx512()) return poison_short_rows_avx512(first, stride, q1 - q0, a, b);
  // (A few rows stay on the inline loop below: the call and the test cost them more than the stores.)
  if (b - a <= 4 * kAllocAlignBytes && q1 - q0 >= 8 && has_avx2()) return poison_short_rows_avx2(first, stride, q1 - q0, a, b);
  for (std::int32_t p = 0; p < q1 - q0; ++p) poison_bytes(first + std::int64_t{p} * stride, a, b);
}

// Poisons [lo, lo + bytes) in partitions [p0, p0 + rows) of m: only the bytes inside the dirty
// ranges of a partition's group need the fill (outside them every byte still holds the poison). A
// group the range fills in all its partitions drops the range from its dirty ranges.
void poison(const OnChipMemory& m, std::int32_t p0, std::int32_t rows, std::int64_t lo, std::int64_t bytes) {
  DirtySet* h = dirty_sets(m);
  const std::int64_t hi = lo + bytes;
  for (std::int32_t g = p0 / kGroup; g * kGroup < p0 + rows; ++g) {
    DirtySet& d = h[g];
    const std::int32_t q0 = std::max(p0, g * kGroup), q1 = std::min(p0 + rows, (g + 1) * kGroup);
    bool filled = false;
    for (std::int64_t i = 0; i < d.n; ++i) {
      // The ranges are sorted and disjoint, and lo, hi are block aligned: ranges wholly before
      // [lo, hi) widen to nothing inside it, and none after the first one past hi can reach it.
      if (d.r[i].hi <= lo) continue;
      if (d.r[i].lo >= hi) break;
      // Widened to whole 64-byte blocks (lo and hi are block aligned): more fill, fewer stores.
      const std::int64_t a = std::max(lo, d.r[i].lo) / kAllocAlignBytes * kAllocAlignBytes,
                         b = (std::min(hi, d.r[i].hi) + kAllocAlignBytes - 1) / kAllocAlignBytes * kAllocAlignBytes;
      if (a >= b) continue;
      filled = true;
      poison_rows(m, q0, q1, a, b);
    }
    if (!filled || q0 != g * kGroup || q1 != std::min(m.partitions(), (g + 1) * kGroup)) continue;  // part of the group
    remove_dirty(d, lo, hi);
  }
}
}  // namespace

void detail::poison_onchip(OnChipMemory& m, std::int32_t p0, std::int32_t rows, std::int64_t lo, std::int64_t bytes) {
  if (rows > 0 && bytes > 0) poison(m, p0, rows, lo, bytes);
}

Tile OnChipMemory::alloc(DType dtype, std::int32_t partitions, std::initializer_list<std::int64_t> free_shape,
                         std::string_view name, std::int32_t partition_start, AllocFill fill) {
  if (detail::replay::recording_anywhere()) [[unlikely]]
    detail::replay::note_alloc(*this, dtype, partitions, free_shape, name, partition_start, fill);
  // A placement applies to this request only, whatever becomes of it (taken before any check throws).
  PlacementHint placed{-1, 0};
  if (detail::replay::placing_anywhere()) [[unlikely]] {
    PlacementHint& hint = placement_hint(*this);
    placed = hint;
    hint.offset = -1;
  }
  // The error texts are built only when a check fails (an allocation is on every call's path).
  const auto instr = [&] { return std::string(mem_space_name(space_)) + " alloc"; };
  const auto who = [&] { return std::string(name); };
  if (partitions < 1 || partition_start < 0 || partition_start + partitions > partitions_)
    throw LimitError(instr(), who(), "partition end", std::int64_t{partition_start} + partitions, "pmax", partitions_,
                     generation_);
  // OCP E4M3FN exists on chip only from Trn3 (compiler error EVRF051 on trn1/trn2).
  if (dtype == DType::f8e4m3fn && !fp8_e4m3fn_native_)
    throw NotSupportedError(instr() + " '" + who() + "'", "dtype float8_e4m3fn (OCP)", generation_);
  if (free_shape.size() < 1 || free_shape.size() > kMaxFreeDims)
    throw LimitError(instr(), who(), "free dimensions", static_cast<std::int64_t>(free_shape.size()),
                     "access-pattern dims", kMaxFreeDims, generation_);
  std::int64_t elems = 1;
  for (auto s : free_shape) {
    if (s < 1) throw LimitError(instr(), who(), "free dimension size", s, "minimum", 1, generation_);
    elems *= s;
  }
  const std::int64_t bytes = elems * dtype_size(dtype);
  if (bytes > partition_bytes_)
    throw LimitError(instr(), who(), "bytes per partition", bytes, "partition capacity", partition_bytes_, generation_);
  const std::int64_t need = (bytes + kAllocAlignBytes - 1) / kAllocAlignBytes * kAllocAlignBytes;

  std::int64_t found = -1;
  if (placed.offset >= 0) {
    // The recorded first fit (detail::place_next_alloc): insert after the blocks before it (a
    // replayed program mostly appends), provided it does not overlap its neighbours.
    std::size_t at = blocks_.size();
    while (at > 0 && blocks_[at - 1].offset > placed.offset) --at;
    const bool fits_between = (at == 0 || blocks_[at - 1].offset + blocks_[at - 1].bytes <= placed.offset) &&
                              placed.offset + need <= (at < blocks_.size() ? blocks_[at].offset : partition_bytes_);
    if (fits_between) {
      blocks_.insert(blocks_.begin() + static_cast<std::ptrdiff_t>(at), Block{placed.offset, need});
      peak_ = std::max(peak_, placed.used_after);
      found = placed.offset;
    }
  }
  if (found < 0) {
    // First fit; PSUM requests of at most one bank stay inside a bank, larger ones start on a bank.
    std::int64_t cursor = 0;
    std::size_t insert_at = 0;
    auto fits = [&](std::int64_t start, std::int64_t end) -> std::int64_t {
      std::int64_t s = start;
      if (bank_bytes_ > 0) {
        if (need <= bank_bytes_) {
          if (s / bank_bytes_ != (s + need - 1) / bank_bytes_) s = (s / bank_bytes_ + 1) * bank_bytes_;
        } else {
          s = (s + bank_bytes_ - 1) / bank_bytes_ * bank_bytes_;
        }
      }
      return s + need <= end ? s : -1;
    };
    std::int64_t largest_gap = 0;  // for the error message
    for (std::size_t i = 0; i <= blocks_.size(); ++i) {
      const std::int64_t end = i < blocks_.size() ? blocks_[i].offset : partition_bytes_;
      largest_gap = std::max(largest_gap, end - cursor);
      const std::int64_t s = fits(cursor, end);
      if (s >= 0) {
        found = s;
        insert_at = i;
        break;
      }
      if (i < blocks_.size()) cursor = blocks_[i].offset + blocks_[i].bytes;
    }
    if (found < 0)
      // e.g. "... bytes per partition requested 65536 violates largest free contiguous range 32768
      // (trn2; 196608 of 229376 bytes per partition in use)"
      throw LimitError(instr(), who(), "bytes per partition requested", bytes, "largest free contiguous range",
                       largest_gap,
                       std::string(generation_) + "; " + std::to_string(used_bytes()) + " of " +
                           std::to_string(partition_bytes_) + " bytes per partition in use");
    blocks_.insert(blocks_.begin() + static_cast<std::ptrdiff_t>(insert_at), Block{found, need});
    peak_ = std::max(peak_, used_bytes());
  }

  Tile t;
  t.mem = space_;
  t.dtype = dtype;
  t.partition_start = partition_start;
  t.partitions = partitions;
  t.partition_stride = host_stride_;
  t.offset_bytes = found;
  t.base = storage_.get() + std::int64_t{partition_start} * host_stride_ + found;
  t.ndim = static_cast<int>(free_shape.size());
  int d = 0;
  for (auto s : free_shape) t.size[d++] = s;
  std::int64_t st = 1;
  for (d = t.ndim - 1; d >= 0; --d) {
    t.stride[d] = st;
    st *= t.size[d];
  }
  // Poison the fresh allocation (NaN in all float formats) in the partitions the tile spans: the
  // range is reserved in every partition, but no view of this tile reaches the others and no other
  // tile can hold them, so their bytes are never read before a later allocation poisons them. The
  // range is recorded either way: its earlier contents are no longer the ones any memo remembers.
  if (fill == AllocFill::poison) poison(*this, partition_start, partitions, found, need);
  // Bounded record: many allocations between two reads collapse into one whole-partition range.
  if (poisoned_.size() < 64)
    poisoned_.emplace_back(found, found + need);
  else
    poisoned_.assign(1, {0, partition_bytes_});
  if (detail::replay::recording_anywhere()) [[unlikely]]
    detail::replay::note_alloc_result(*this, t);
  return t;
}

void OnChipMemory::free(const Tile& t) {
  if (detail::replay::recording_anywhere()) [[unlikely]]
    detail::replay::note_free(*this, t);
  if (t.mem != space_) return;
  auto it = std::find_if(blocks_.begin(), blocks_.end(), [&](const Block& b) { return b.offset == t.offset_bytes; });
  if (it == blocks_.end())
    throw UsageError(std::string(mem_space_name(space_)) + " free", "tile", "not the start of a live allocation");
  blocks_.erase(it);
}

void OnChipMemory::reset() {
  if (detail::replay::recording_anywhere()) [[unlikely]]
    detail::replay::note_reset(*this);
  blocks_.clear();
  peak_ = 0;
}

std::int64_t OnChipMemory::used_bytes() const {
  std::int64_t u = 0;
  for (const auto& b : blocks_) u += b.bytes;
  return u;
}

AllocScope::~AllocScope() {
  for (auto it = tiles_.rbegin(); it != tiles_.rend(); ++it) mem_.free(*it);
  detail::give_warm_vector(std::move(tiles_));  // the thread's next scope reuses the block
}

Tile AllocScope::alloc(DType dtype, std::int32_t partitions, std::initializer_list<std::int64_t> free_shape,
                       std::string_view name, std::int32_t partition_start, AllocFill fill) {
  // Room for a program's usual tile count at once (growing 1, 2, 4, 8, 16 was five heap blocks),
  // in a block an earlier scope on this thread handed back when there is one.
  if (tiles_.capacity() == 0) {
    tiles_ = detail::take_warm_vector<Tile>();
    if (tiles_.capacity() < 16) tiles_.reserve(16);
  }
  tiles_.push_back(mem_.alloc(dtype, partitions, free_shape, name, partition_start, fill));
  return tiles_.back();
}

}  // namespace trn
