#include "trn/core/access_pattern.hpp"

#include <climits>

#include "trn/core/error.hpp"

namespace trn {

Tile access_pattern(const Tile& root, std::int32_t first, std::int32_t count, std::int64_t partition_step,
                    std::int64_t offset, std::span<const std::array<std::int64_t, 2>> dims) {
  constexpr const char* who = "access_pattern";
  if (!root.free_contiguous()) throw UsageError(who, "root", "the root of a pattern must be free-contiguous");
  if (dims.empty() || dims.size() > kMaxFreeDims)
    throw LimitError(who, "pattern", "free dimensions", static_cast<std::int64_t>(dims.size()), "access-pattern dims",
                     kMaxFreeDims, "");
  if (partition_step != 0 && (root.on_chip() || root.partitions != 1))
    throw UsageError(who, "pattern", "a partition step needs a one-row HBM root (on-chip partitions are rows)");
  if (first < 0 || count < 1 || (partition_step == 0 && std::int64_t{first} + count > root.partitions))
    throw LimitError(who, "pattern", "partition end", std::int64_t{first} + count, "partitions", root.partitions, "");
  // Element range reached inside one row, partition steps included (checked arithmetic).
  std::int64_t lo = offset, hi = offset;
  const auto extend = [&](std::int64_t n, std::int64_t st) {
    std::int64_t span = 0;
    std::int64_t& end = st < 0 ? lo : hi;
    if (n < 1 || __builtin_mul_overflow(n - 1, st, &span) || __builtin_add_overflow(end, span, &end))
      throw LimitError(who, "pattern", "dimension size", n, "addressable elements", root.free_size(), "");
  };
  if (partition_step != 0) extend(count, partition_step);
  for (const auto& d : dims) extend(d[0], d[1]);
  if (lo < 0 || hi >= root.free_size())
    throw LimitError(who, "pattern", "element offset", lo < 0 ? lo : hi, "elements of the tile", root.free_size(), "");
  const std::int64_t es = dtype_size(root.dtype);
  Tile t = root.rows(partition_step != 0 ? 0 : first, partition_step != 0 ? 1 : count);
  if (partition_step != 0) {
    t.partitions = count;
    t.partition_stride = partition_step * es;
  }
  t.base += offset * es;
  t.offset_bytes += offset * es;
  t.ndim = static_cast<int>(dims.size());
  for (std::size_t d = 0; d < kMaxFreeDims; ++d) {
    const bool used = d < dims.size();
    t.size[d] = used ? dims[d][0] : 1;
    t.stride[d] = used ? dims[d][1] : 0;
  }
  return t;
}

}  // namespace trn
