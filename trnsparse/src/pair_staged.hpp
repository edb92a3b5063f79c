// The staged fp32 path of the pair sums (pair_sums.hpp): whole source runs staged in SBUF, gathered
// on chip (docs/trnsparse.md "SpGEMM and csrgeam2 numeric phases on the engines", "Staged runs").
//
// Algorithm   Consecutive output entries are packed into segments, one segment per partition (at
//             most kStagedProducts products; the call spread over about kStagedTargetTiles tiles of
//             128 segments). Per segment the host (index work) lists the source elements its
//             products read, sorted and coalesced into runs of consecutive elements (a gap of at most
//             kStagedGap unread elements is read through). Per tile:
//               DMA      the control words [128, W] (one transfer); su[p], sv[p] <- the segment's u
//                        and v runs, one descriptor per run. Pairs layout with each side one array
//                        (SpGEMM compute, s18/sparse): indirect DMA instead -- the source array read as
//                        overlapping table rows of kGatherRow = 16 values (row r = elements r ..
//                        r + 15), a segment's distinct elements covered by rows that start at the
//                        first uncovered one, one int32 index tile per tile (one DMA) and one
//                        dma_gather per side: 4 instructions per tile instead of one per run (a
//                        partition with fewer rows than the tile's most repeats its first row; a
//                        segment whose rows overflow the staged tile is halved)
//               GpSimdE  gather (custom operator, data movement only): the u and v streams U[p, s],
//                        V[p, s] from su, sv (zeros in unused slots)
//               VectorE  the products U V (complex: the six instructions of trn::tile::complex_multiply)
//               sums     pairs: GpSimdE (custom operator) per entry left to right in chunks of 512,
//                        the chunk sums added in order; terms: VectorE, slot 0 + slot 1
//               DMA      each segment's sums to out (consecutive entries: one descriptor)
//             Two layouts of the streams:
//               pairs  (any list; SpGEMM compute): the segment's products in list order, entry after
//                      entry; one 32-bit control word per product: u's staged position (bits 0-14),
//                      end of entry (bit 15), v's staged position (bits 16-31)
//               terms  (every entry (u0, v = 0) and / or (u1, v = 1), the u of each slot consecutive
//                      over the entries; csrgeam2 and SpGEMM copy, v = [alpha, beta]): a fixed
//                      two-slot layout (slot 0 the v = 0 term, slot 1 the v = 1 term, 0 x 0 where a
//                      term is absent), 2 control bits per entry; the staged u is the segment's
//                      slot-0 run then its slot-1 run, so no per-product index is moved
//             Two sets of SBUF tiles alternate (tile t + 1's DMAs overlap tile t's engines).
//             The plan (segments, runs or table rows as element indices, control words, index tiles)
//             depends on the list and the sources' lengths only, so a caller may keep it between
//             calls (SpGEMM's descriptor, s19/spgemm); its control words and index tiles are copied
//             to the scratch stack for each launch. Host index work per segment (pairs): one pass
//             over its products sets each side's elements' bits in a bitmap of the whole side and
//             keeps the side's range; the distinct elements are read back in order from the range's
//             words (or, a range long against the segment, the first occurrences sorted), each
//             element's staged position into a per-element table (no allocation or search per
//             segment or product). Terms (and fixed): the plan is built from one mask byte per entry
//             (pair_sums.hpp TermMasks: csrgeam2's merge writes them; a terms list is read into
//             them): a slot's u are consecutive, so a segment's slot is one run (two where it crosses
//             from the source's first array into its second) -- O(segments) plus a pass over the
//             masks for the control bits.
// Engines     DMA, GpSimdE, VectorE (one launch).
// Accuracy    The fp32 loop of pair_sums.hpp exactly (IEEE binary32 RNE per operation, no FMA). An
//             entry whose sum is exactly -0: pairs -0 (no padding is added); terms with one term +0
//             (the absent slot's +0 is added), as the per-entry path's padding did.
// Limits      An entry of more than kStagedProducts products, or of none (or, staged indirectly,
//             whose table rows overflow the staged tile), is left to the per-entry gather path
//             (returned in `leftover`). One descriptor per run or table row: runs shorter than a
//             descriptor's 256 B equivalent leave DMA descriptor-bound (SpGEMM at 0.5%: B's rows);
//             indirect staging also moves the rows' unread tail and the padding rows (SpGEMM
//             2048^2 at 0.5%: modeled +3.5% trn1, -4% trn2 against one dma_copy per run).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pair_sums.hpp"
#include "trn/core/neuron_core.hpp"

namespace trn::sparse {

struct StagedRun {
  std::string kernel;                  // what the plan prints of the staged launch
  std::string engines;                 // the engines it used
  std::int64_t descriptors = 0;        // DMA descriptors (partition rows of its transfers)
  std::vector<std::int64_t> leftover;  // entries for the per-entry gather path
};

// out (fp32 words, w per value) for every entry except `leftover`; records the launch into trace.
// cache (may be null): a plan kept from an earlier call over the same list L (the same arrays, unchanged)
// and sources of the same lengths is used instead of a new one; a new plan is stored into it.
StagedRun pair_sums_staged(const Settings& s, Value value, const PairLists& L, const PairSource& U, const PairSource& V,
                           float* out, Trace& trace, std::shared_ptr<const void>* cache = nullptr);
// The same for the fixed list of n entries -- per entry e the term (e, v = 0), then (n + e, v = 1) when
// `both` (SpGEMM's copy: alpha s + beta c) -- from its plan built without the list (the same plan).
StagedRun pair_sums_fixed_staged(const Settings& s, Value value, std::int64_t n, bool both, const PairSource& U,
                                 const PairSource& V, float* out, Trace& trace, std::shared_ptr<const void>* cache = nullptr);

// The same for the terms list t stands for (pair_sums.hpp, TermMasks), its plan built from the masks.
StagedRun pair_sums_terms_staged(const Settings& s, Value value, const TermMasks& t, const PairSource& U, const PairSource& V,
                                 float* out, Trace& trace);

// [t1] = u v on VectorE for n values of w words (w = 2: t1 = re, t2 = im, t3 a temporary; the
// six instructions of trn::tile::complex_multiply). u, v: [rows, n w]; t1, t2, t3: [rows, n].
void pair_products(NeuronCore& nc, const Tile& u, const Tile& v, const Tile& t1, const Tile& t2, const Tile& t3,
                   std::int64_t w, std::int64_t n);

}  // namespace trn::sparse
