// Row interchanges (LAPACK xLASWP) as DMA instructions, for every element type (S, D, C, Z): the
// getrs solves' P B and P^T B, and dgetrf's recursive panel (the swaps of one half applied to the
// other half, then to the columns outside the panel).
//
// Algorithm: the interchanges ipiv[k0 .. k1) (1-based, relative to the view's first row), applied
// in order (forward) or in reverse, compose to one permutation: destination row i receives source
// row src[i] (host index logic on the pivot integers: no arithmetic on the data, as the host steers
// sgetrf's kernels with the pivot indices it reads). One launch then moves every row with src[i] != i
// by two DMA copies: all moved source rows HBM -> SBUF (row t of the chunk on partition t mod pmax),
// then all of them SBUF -> HBM to their destinations. All loads precede all stores, so the in-place
// permutation reads only original rows. Columns in chunks that fit the staging tile.
// Engines: DMA only (bit copies of 32-bit words: no rounding, NaN payloads kept).
// Limits: element size a multiple of 4 bytes; 64 KiB of staging per partition per column chunk
// (one column per chunk at least: up to 16384 / words moved rows per partition).
#pragma once
#include <cstddef>
#include <cstdint>

#include "trn/core/core.hpp"
#include "trn/solver/solver.hpp"

namespace trn::solver::detail {

// Width of dgetrf's / dpotrf's recursion leaves (host xGETF2 / xPOTF2 of M x 32, one round trip):
// below it an Ozaki product's fixed cost (its host round trips and launches, ~30-60 us modeled)
// exceeds the host flops it saves. (Here beside the interchanges: both drivers include this header.)
inline constexpr std::int64_t kFp64LeafColumns = 32;

// Applies ipiv[k0 .. k1) to the rows of the `rows` x `cols` matrix at B (ld ldb, elements of
// elem_bytes bytes). ipiv entries are 1-based row numbers of this view in [1, rows]. The launch's
// trace joins `trace`; nothing is launched when no row moves or cols == 0.
void apply_interchanges(const Settings& s, const int* ipiv, std::int64_t k0, std::int64_t k1, bool forward,
                        std::int64_t rows, std::int64_t cols, void* B, std::int64_t ldb, std::size_t elem_bytes,
                        TraceParts& trace);

}  // namespace trn::solver::detail
