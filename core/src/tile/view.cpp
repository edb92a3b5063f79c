#include "trn/tile/view.hpp"

#include <string>

#include "trn/core/error.hpp"

namespace trn::tile {

namespace {

std::string dims_text(const FreePattern& p) {
  std::string s = "[";
  for (int d = 0; d < p.rank(); ++d)
    s += (d > 0 ? ", " : "") + std::to_string(p[d].size) + ":" + std::to_string(p[d].stride);
  return s + "]";
}

// t's free dimensions replaced by `pattern` (sizes >= 0, rank >= 1); dims past the rank 1:0. In
// place: returning a modified copy made hbm_view's callers reload the Tile with 16-byte loads right
// after its fields' narrower stores (store-forwarding stalls, most of hbm_view's samples).
void set_pattern(Tile& t, const FreePattern& pattern, const char* who) {
  if (pattern.rank() < 1) throw UsageError(who, "pattern", "needs at least one free dimension");
  for (int d = 0; d < pattern.rank(); ++d)
    if (pattern[d].size < 0)
      throw UsageError(who, "pattern", "negative size in size:stride " + dims_text(pattern));
  t.ndim = pattern.rank();
  for (int d = 0; d < kMaxFreeDims; ++d) {
    const auto du = static_cast<std::size_t>(d);
    t.size[du] = d < pattern.rank() ? pattern[d].size : 1;
    t.stride[du] = d < pattern.rank() ? pattern[d].stride : 0;
  }
}
Tile with_pattern(Tile t, const FreePattern& pattern, const char* who) {
  set_pattern(t, pattern, who);
  return t;
}

}  // namespace

FreePattern::FreePattern(std::initializer_list<FreeDim> dims) {
  for (const FreeDim& d : dims) push_back(d);
}

void FreePattern::push_back(FreeDim d) {
  if (rank_ >= kMaxFreeDims)
    throw LimitError("tile::FreePattern", "pattern", "free dimensions", rank_ + 1, "kMaxFreeDims", kMaxFreeDims, "");
  dims_[static_cast<std::size_t>(rank_++)] = d;
}

bool FreePattern::empty() const {
  for (int d = 0; d < rank_; ++d)
    if (dims_[static_cast<std::size_t>(d)].size == 0) return true;
  return false;
}

std::int64_t FreePattern::reach(int sign) const {
  if (empty()) return 0;
  std::int64_t r = 0;
  for (int d = 0; d < rank_; ++d) {
    const FreeDim& x = dims_[static_cast<std::size_t>(d)];
    if (x.stride * sign > 0) r += x.stride * (x.size - 1);
  }
  return r;
}

Tile view(const Tile& dense, std::int64_t offset, const FreePattern& pattern) {
  constexpr const char* who = "tile::view";
  if (!dense.free_contiguous()) throw UsageError(who, "dense", "the source's free pattern is not one dense run");
  const std::int64_t n = dense.free_size();
  // An empty view may sit at the run's end (offset n), like an empty slice.
  const std::int64_t lo = offset + pattern.min_offset(), hi = offset + pattern.max_offset();
  if (lo < 0 || offset > n || (!pattern.empty() && hi >= n))
    throw LimitError(who, "pattern " + dims_text(pattern) + " from element " + std::to_string(offset),
                     lo < 0 ? "first element" : "last element", lo < 0 ? lo : hi, "source free size", n, "");
  // The origin as an element of the dense run: its byte offset (the run's stride is 1 or, for a
  // single element, irrelevant).
  const std::int64_t delta = offset * dtype_size(dense.dtype);
  Tile t = with_pattern(dense, pattern, who);
  t.base = dense.base + delta;
  t.offset_bytes = dense.offset_bytes + delta;
  return t;
}

Tile complex_plane(const Tile& dense, int part, std::int64_t offset, const FreePattern& pattern) {
  if (part != 0 && part != 1) throw LimitError("tile::complex_plane", "part", "part", part, "imaginary part", 1, "");
  FreePattern p;
  for (int d = 0; d < pattern.rank(); ++d) p.push_back({pattern[d].size, 2 * pattern[d].stride});
  return view(dense, 2 * offset + part, p);
}

Tile broadcast(const Tile& t, int dim, std::int64_t count) {
  constexpr const char* who = "tile::broadcast";
  if (dim < 0 || dim >= t.ndim) throw LimitError(who, "tile", "dimension", dim, "ndim", t.ndim, "");
  const auto du = static_cast<std::size_t>(dim);
  if (t.size[du] != 1) throw LimitError(who, "tile", "size of the broadcast dimension", t.size[du], "required", 1, "");
  if (count < 0) throw LimitError(who, "count", "count", count, "minimum", 0, "");
  Tile r = t;
  r.size[du] = count;
  r.stride[du] = 0;
  return r;
}

Tile stack_outer(const Tile& t, std::int64_t count, std::int64_t stride) {
  constexpr const char* who = "tile::stack_outer";
  if (t.ndim >= kMaxFreeDims) throw LimitError(who, "tile", "free dimensions", t.ndim + 1, "kMaxFreeDims", kMaxFreeDims, "");
  if (count < 0) throw LimitError(who, "count", "count", count, "minimum", 0, "");
  FreePattern p{{count, stride}};
  for (int d = 0; d < t.ndim; ++d) p.push_back({t.size[static_cast<std::size_t>(d)], t.stride[static_cast<std::size_t>(d)]});
  return with_pattern(t, p, who);
}

Tile hbm_view(const void* base, DType dtype, std::int32_t partitions, std::int64_t partition_stride,
              const FreePattern& pattern) {
  constexpr const char* who = "tile::hbm_view";
  if (partitions < 0) throw LimitError(who, "partitions", "partitions", partitions, "minimum", 0, "");
  const std::int64_t es = dtype_size(dtype);
  std::int64_t row_bytes = 0, span = 0;
  // Byte offsets in checked arithmetic, as HbmTensor::tile: a view no buffer can hold is an error.
  if (__builtin_mul_overflow(partition_stride, es, &row_bytes))
    throw LimitError(who, "partition_stride", "partition stride", partition_stride,
                     "elements addressable in int64 bytes", INT64_MAX / es, "");
  if (__builtin_mul_overflow(pattern.max_offset() - pattern.min_offset(), es, &span))
    throw LimitError(who, "pattern " + dims_text(pattern), "span", pattern.max_offset() - pattern.min_offset(),
                     "elements addressable in int64 bytes", INT64_MAX / es, "");
  Tile t;
  t.mem = MemSpace::hbm;
  t.dtype = dtype;
  t.base = static_cast<std::byte*>(const_cast<void*>(base));
  t.partitions = partitions;
  t.partition_stride = row_bytes;
  set_pattern(t, pattern, who);
  return t;
}

Tile partition_pairs(const Tile& rows) {
  constexpr const char* who = "tile::partition_pairs";
  if (rows.mem != MemSpace::hbm) throw UsageError(who, "rows", "needs an HBM tile (on chip a free step cannot cross partitions)");
  if (rows.ndim != 1) throw LimitError(who, "rows", "free dimensions", rows.ndim, "required", 1, "");
  if (rows.partitions % 2 != 0) throw LimitError(who, "rows", "partitions", rows.partitions, "multiple of", 2, "");
  const std::int64_t es = dtype_size(rows.dtype);
  if (rows.partition_stride % es != 0)
    throw LimitError(who, "rows", "partition stride (bytes)", rows.partition_stride, "multiple of the element size", es, "");
  Tile t = with_pattern(rows, {{2, rows.partition_stride / es}, {rows.size[0], rows.stride[0]}}, who);
  t.partitions = rows.partitions / 2;
  t.partition_stride = 2 * rows.partition_stride;
  return t;
}

}  // namespace trn::tile
