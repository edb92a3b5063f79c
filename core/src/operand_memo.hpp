// NeuronCore's host-side memo of recent fp32 conversions of matmul operands (stationary, moving).
// An entry is valid until an instruction writes SBUF bytes that overlap its source region (or
// records too few regions to tell), or an allocation poisons them, like TensorE keeping a loaded
// stationary tile; it changes host time only, never results. Internal to the core.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "matmul_kernels.hpp"
#include "trn/core/dtype.hpp"
#include "trn/core/memory.hpp"
#include "trn/core/trace.hpp"

namespace trn {

struct OperandMemoCache {
  struct Entry {
    const std::byte* base = nullptr;
    DType dtype = DType::f32;
    std::int32_t partitions = 0;
    int ndim = 0;
    std::array<std::int64_t, kMaxFreeDims> size{}, stride{};
    int panel = -1;
    bool valid = false;
    bool converted = false;  // false: a first sighting of a moving operand (no data yet)
    Region source;  // SBUF partitions and byte hull read by the conversion
    std::uint64_t last_use = 0;
    std::vector<float> data;
    // Zero/finite row flags per column group of `data` (detail::scan_rows; empty when K > 128).
    std::vector<detail::RowScan> scan;
  };
  // Recent conversions per role, least recently used replaced first, indexed by SBUF address.
  // Stationary: kernels that keep an operand strip resident in SBUF revisit many tiles (a
  // 2048-deep, 1024-wide strip of two bf16 terms is 256 stationary tiles, at most 66 KiB each in
  // fp32, so the cache stays under ~34 MiB per core); moving operands are normally widened panel by
  // panel inside the kernel and memoised only when their layout is not contiguous.
  static constexpr std::array<std::size_t, 2> kEntries = {512, 16};
  struct Role {
    std::vector<Entry> entries;
    std::unordered_map<const std::byte*, std::size_t> index;  // valid entries by base address
    std::vector<std::size_t> free;                            // invalid entries to reuse
    // The node of the last entry dropped, kept for the next insertion (a small matmul's operand is
    // dropped by its tile's allocation and inserted again every call: one heap block each way).
    std::unordered_map<const std::byte*, std::size_t>::node_type spare;
    void erase(const std::byte* base) {
      auto node = index.extract(base);
      if (!node.empty()) spare = std::move(node);
    }
    void insert(const std::byte* base, std::size_t slot) {
      if (spare.empty()) {
        index[base] = slot;
        return;
      }
      spare.key() = base;
      spare.mapped() = slot;
      auto r = index.insert(std::move(spare));
      if (!r.inserted) r.position->second = slot;  // (never: callers erase a base before inserting it)
    }
  };
  std::array<Role, 2> roles;
  std::uint64_t clock = 0;
};

}  // namespace trn
