#include "trn/tile/launch_rows.hpp"

#include <algorithm>
#include <limits>

#include "trn/core/error.hpp"
#include "trn/core/hardware.hpp"
#include "trn/tile/view.hpp"

namespace trn::tile {

Tile RowBlock::of(const void* buffer, DType dtype) const {
  const auto* b = static_cast<const std::byte*>(buffer) + row0 * row_width * dtype_size(dtype);
  return hbm_view(b, dtype, partitions, row_width, {{width, 1}});
}

LaunchResult launch_rows(const LaunchConfig& config, std::int64_t n, std::int64_t row_width,
                         const std::function<void(NeuronCore&, const RowBlock&)>& body) {
  if (row_width < 1) throw LimitError("tile::launch_rows", "row_width", "row width", row_width, "minimum", 1, "");
  if (n <= 0) return {};
  const std::int64_t pmax = hardware_spec(config.core.generation).pmax;
  const std::int64_t rows = n / row_width, tail = n % row_width, blocks = (rows + pmax - 1) / pmax;
  const std::int64_t programs = blocks + (tail > 0 ? 1 : 0);
  if (programs > std::numeric_limits<int>::max())
    throw LimitError("tile::launch_rows", "n", "programs", programs, "int grid", std::numeric_limits<int>::max(), "");
  LaunchConfig lc = config;
  lc.grid = {static_cast<int>(programs), 1, 1};
  return launch(lc, [&](NeuronCore& nc) {
    const std::int64_t b = nc.program_id(0);
    const bool is_tail = b == blocks;
    RowBlock rb;
    rb.row0 = is_tail ? rows : b * pmax;
    rb.partitions = static_cast<std::int32_t>(is_tail ? 1 : std::min(pmax, rows - rb.row0));
    rb.width = is_tail ? tail : row_width;
    rb.row_width = row_width;
    body(nc, rb);
  });
}

}  // namespace trn::tile
