// Memories of one NeuronCore and the tiles that view them.
//
//  - HBM: host memory with shape and strides (HbmTensor); kernels' inputs and outputs live here.
//  - SBUF: pmax partitions x sbuf_partition_bytes (24 MiB on trn1); PSUM: pmax x 16 KiB in 8 banks
//    of 2 KiB (512 fp32). Both are real byte arrays with allocators that check capacity.
//  - A Tile is a [partition, free...] view: a contiguous run of partitions (no partition striding,
//    ARCH2) and up to four free dimensions with element strides (the hardware access pattern).
//    Addresses advance along the free dimension first, then onto the next partition (ARCH2).
//
// Allocation policy (documented modelling choices, docs/numerics.md "Memory"): an allocation
// reserves the same byte range in every partition, aligned to kAllocAlignBytes; a PSUM allocation
// of at most one bank never straddles a bank boundary, a larger one starts on a bank boundary.
// Fresh allocations are filled with 0xFF bytes (NaN in every float format, -1 / max in integers),
// like the NKI simulator's NaN fill, so reading before writing is visible and deterministic.
// A kernel may skip the fill for a tile it writes completely before any instruction reads it
// (AllocFill::none): the fill is host work only (not an instruction, no device time), and such a
// tile's bytes at every read are its kernel's own writes either way.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "trn/core/dtype.hpp"
#include "trn/core/hardware.hpp"

namespace trn {

enum class MemSpace : std::uint8_t { hbm, sbuf, psum };
std::string_view mem_space_name(MemSpace m);

inline constexpr int kMaxFreeDims = 4;
inline constexpr std::int64_t kAllocAlignBytes = 64;

struct Tile {
  MemSpace mem = MemSpace::sbuf;
  DType dtype = DType::f32;
  std::byte* base = nullptr;             // element (0, 0, ..., 0)
  std::int32_t partition_start = 0;      // physical partition of row 0 (SBUF/PSUM)
  std::int32_t partitions = 0;
  std::int64_t partition_stride = 0;     // bytes from one partition row to the next
  std::int64_t offset_bytes = 0;         // SBUF/PSUM: byte offset of element 0 inside its partition
  int ndim = 1;                          // free dimensions, outermost first
  std::array<std::int64_t, kMaxFreeDims> size{0, 1, 1, 1};
  std::array<std::int64_t, kMaxFreeDims> stride{1, 0, 0, 0};  // in elements

  std::int64_t free_size() const;        // elements per partition
  std::int64_t elements() const { return free_size() * partitions; }
  bool free_contiguous() const;          // the free pattern is one dense run
  std::int64_t bytes_per_partition() const { return free_size() * dtype_size(dtype); }
  bool on_chip() const { return mem != MemSpace::hbm; }
  // [lo, hi) byte offsets touched inside each partition (SBUF/PSUM) or absolute (HBM: per row).
  std::int64_t free_lo_byte() const;
  std::int64_t free_hi_byte() const;

  // Views. All return a new Tile over the same storage.
  Tile rows(std::int32_t first, std::int32_t count) const;                         // partition sub-range
  // Inline (below): a small call builds ~50 views, and the out-of-line call was ~1.5k of a C API
  // Strsv n = 8's 30.2k host instructions (callgrind, session 21).
  Tile slice(int dim, std::int64_t start, std::int64_t count, std::int64_t step = 1) const;
  Tile cols(std::int64_t start, std::int64_t count) const { return slice(ndim - 1, start, count); }
  Tile reshape(std::initializer_list<std::int64_t> free_shape) const;            // contiguous tiles only
  Tile bitcast(DType t) const;                                                   // same bytes, other dtype
  // Partition broadcast (NKI broadcast_to on the partition axis): this one-partition tile read by
  // `count` partitions (partition stride 0). A DMA source only (SBUF -> SBUF); engines reject it.
  Tile broadcast_partitions(std::int32_t count) const;
  bool is_partition_broadcast() const { return partition_stride == 0 && partitions > 1; }
  std::byte* at(std::int32_t p, std::int64_t flat_free_index) const;
};

namespace detail {
// Tile::slice's checks, in their order, with their messages (memory.cpp): called only when one
// fails, so the inline view keeps no frame for building a message.
[[noreturn, gnu::cold]] void throw_bad_slice(const Tile& t, int dim, std::int64_t start, std::int64_t count,
                                             std::int64_t step);
}  // namespace detail

inline Tile Tile::slice(int dim, std::int64_t start, std::int64_t count, std::int64_t step) const {
  if (dim < 0 || dim >= ndim || step <= 0 || start < 0 || count < 0 ||
      (count > 0 && start + (count - 1) * step >= size[static_cast<std::size_t>(dim)])) [[unlikely]]
    detail::throw_bad_slice(*this, dim, start, count, step);
  Tile t = *this;
  const std::int64_t delta_bytes = start * stride[static_cast<std::size_t>(dim)] * dtype_size(dtype);
  t.base = base + delta_bytes;
  t.offset_bytes = offset_bytes + delta_bytes;
  t.size[static_cast<std::size_t>(dim)] = count;
  t.stride[static_cast<std::size_t>(dim)] = stride[static_cast<std::size_t>(dim)] * step;
  return t;
}

// A tensor in (emulated) HBM: host memory, row-major by default, with explicit element strides.
class HbmTensor {
 public:
  HbmTensor() = default;
  // Owning tensor, zero-filled.
  HbmTensor(DType dtype, std::vector<std::int64_t> shape);
  // Non-owning view of caller memory. strides in elements (empty = row-major).
  static HbmTensor wrap(void* data, DType dtype, std::vector<std::int64_t> shape, std::vector<std::int64_t> strides = {});

  DType dtype() const { return dtype_; }
  const std::vector<std::int64_t>& shape() const { return shape_; }
  const std::vector<std::int64_t>& strides() const { return strides_; }
  std::byte* data() const { return data_; }
  std::int64_t numel() const;
  template <class T>
  T* as() const { return reinterpret_cast<T*>(data_); }

  // A 2-D region as a tile: rows [r0, r0+nrows) become partitions, columns the free axis.
  Tile tile(std::int64_t r0, std::int32_t nrows, std::int64_t c0, std::int64_t ncols) const;
  // An N-D box of the tensor as a tile: start[d] .. start[d] + sizes[d] along every axis d; axis
  // `partition_axis` becomes the partitions, the other axes the free dimensions in order (at most
  // kMaxFreeDims), each with the tensor's stride. E.g. x[B, S, D]: tile_nd({b, s0, 0}, {1, 128, D}, 1)
  // is x[b, s0:s0+128, :] with S on partitions and free shape [1, D].
  Tile tile_nd(std::initializer_list<std::int64_t> start, std::initializer_list<std::int64_t> sizes,
               int partition_axis = 0) const;
  // Row r's columns [c0, c0+ncols) read by `partitions` partitions (partition stride 0): the HBM
  // side of a partition broadcast (NKI broadcast_to); a DMA source.
  Tile tile_broadcast(std::int64_t r, std::int32_t partitions, std::int64_t c0, std::int64_t ncols) const;
  // The same region read transposed: columns become partitions (a strided "transposed load").
  Tile tile_transposed(std::int64_t r0, std::int64_t nrows, std::int64_t c0, std::int32_t ncols) const;

 private:
  DType dtype_ = DType::f32;
  std::vector<std::int64_t> shape_, strides_;
  std::shared_ptr<std::byte[]> owned_;
  std::byte* data_ = nullptr;
};

namespace detail {
// Host memory behind HBM tensors and on-chip storage: cache-line aligned, and for 2 MiB or more
// 2 MiB aligned with transparent huge pages requested (madvise), so that kernels walking 128
// partitions 192 KiB apart do not miss the TLB on every row. Host speed only.
struct HostFree {
  void operator()(std::byte* p) const noexcept;
};
std::byte* allocate_host_bytes(std::size_t bytes, bool zero);  // release with HostFree
}  // namespace detail

// What a fresh allocation holds: the NaN poison (0xFF bytes), or whatever the range last held
// (`none`: only for tiles the kernel writes in full before reading them; see above).
enum class AllocFill : std::uint8_t { poison, none };

// SBUF or PSUM of one core: storage plus a first-fit allocator over per-partition byte ranges.
class OnChipMemory {
 public:
  OnChipMemory(MemSpace space, const HardwareSpec& hw);
  MemSpace space() const { return space_; }
  std::int64_t partition_bytes() const { return partition_bytes_; }
  int partitions() const { return partitions_; }

  // Allocate [partitions, free_shape...] of dtype starting at partition_start. Throws LimitError
  // naming `name` when the request does not fit.
  Tile alloc(DType dtype, std::int32_t partitions, std::initializer_list<std::int64_t> free_shape,
             std::string_view name = "tile", std::int32_t partition_start = 0, AllocFill fill = AllocFill::poison);
  void free(const Tile& t);
  void reset();  // free everything
  std::int64_t used_bytes() const;      // per partition
  std::int64_t peak_bytes() const { return peak_; }
  std::byte* storage() const { return storage_.get(); }
  // Byte ranges [lo, hi) within every partition that allocation poisoning wrote since the last
  // call. Poisoning is not an instruction, so the core's host-side operand-conversion memo learns
  // of it here (a re-allocated tile must read its poison, not a remembered conversion).
  // f(lo, hi) for each range, then the record is emptied (its buffer kept: one heap block per
  // allocation was a small call's cost when the record was handed out as a fresh vector).
  template <class F>
  void drain_poisoned(F&& f) {
    for (const auto& [lo, hi] : poisoned_) f(lo, hi);
    poisoned_.clear();
  }

 private:
  struct Block {
    std::int64_t offset, bytes;
  };
  MemSpace space_;
  std::string_view generation_;
  bool fp8_e4m3fn_native_;
  int partitions_;
  std::int64_t partition_bytes_, bank_bytes_;
  // Host layout: partition p starts at storage_ + p * host_stride_. The stride is one cache line more
  // than the capacity so that the rows of a tile (192 KiB, 16 KiB apart on the device) do not all
  // map to the same host L1/L2 sets; the pad is never addressable (capacity and offsets use
  // partition_bytes_), so it changes host speed only.
  static constexpr std::int64_t kHostPartitionPadBytes = 64;
  std::int64_t host_stride_;
  std::unique_ptr<std::byte[], detail::HostFree> storage_;
  std::vector<Block> blocks_;  // sorted by offset
  std::int64_t peak_ = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> poisoned_;  // since the last drain_poisoned()
};

// RAII: frees every tile allocated through it when it goes out of scope.
class AllocScope {
 public:
  explicit AllocScope(OnChipMemory& m) : mem_(m) {}
  AllocScope(const AllocScope&) = delete;
  AllocScope& operator=(const AllocScope&) = delete;
  ~AllocScope();
  Tile alloc(DType dtype, std::int32_t partitions, std::initializer_list<std::int64_t> free_shape,
             std::string_view name = "tile", std::int32_t partition_start = 0, AllocFill fill = AllocFill::poison);

 private:
  OnChipMemory& mem_;
  std::vector<Tile> tiles_;
};

}  // namespace trn
