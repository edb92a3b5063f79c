// The staged fp32 pair sums: algorithm, engines, accuracy and limits in pair_staged.hpp; derivation
// and measurements in docs/trnsparse.md ("Staged runs").
#include "pair_staged.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <span>
#include <vector>

#include "bit_list.hpp"
#include "spgemm_blocks.hpp"
#include "trn/core/scratch.hpp"
#include "trn/core/spmd.hpp"
#include "trn/tile/complex.hpp"
#include "trn/tile/view.hpp"

namespace trn::sparse {

namespace {

std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

constexpr std::int64_t kStagedProducts = 1024;  // products (= slots), staged u and v values per partition
constexpr std::int64_t kStagedTargetTiles = 8;  // tiles a call is spread over: tile t + 1's DMAs overlap tile t
// Products per segment at least (unless the call has fewer): a segment boundary cuts the source runs
// its entries share (a B row's run is staged by both sides), so segments are not made smaller.
constexpr std::int64_t kStagedMinProducts = 256;
constexpr std::int64_t kStagedTilesPerProgram = 16;
constexpr std::int64_t kStagedSets = 3;  // SBUF tile sets in rotation: DMAs of tiles t + 1, t + 2 overlap tile t
// Unread elements a run may read through: 16 fp32 at an HBM queue's rate (17 x 0.5 B/ns trn1) cost
// 7.5 ns, less than the descriptor a new run costs (30.1 ns trn1, 11.1 ns trn2; hardware.hpp).
constexpr std::int64_t kStagedGap = 16;
constexpr std::int64_t kChunk = 512;  // the fp32 loop's chunk (pair_sums.hpp)
constexpr std::uint32_t kPosMask = 0x7fffu, kEndBit = 1u << 15;
constexpr std::int64_t kHeader = 2;
// Indirect staging (s18/sparse; pairs layout, each side one array): values per gathered table row
// (an overlapping window of the source array). A source element lies in the row that starts at the
// first element of its window; a row is one DMA descriptor, as a run was. 16 fp32 (64 B) covers a
// SpGEMM B row at 0.5% (~10 values) in one row.
constexpr std::int64_t kGatherRow = 16;  // control words before the payload: pairs (products, entries), terms (entries, n0)

// Declared GpSimdE costs, operations per element ([0] real, [1] complex; COMMON.md "GpSimdE custom
// operators": one int32 / fp32 ALU op, load or store each):
//  gather, pairs, per slot: load the word, extract u's and v's positions (2), load u and v (2; complex
//    4), store them (2; complex 4): 7 / 11 (a slot past the partition's products: its zero stores).
//  gather, terms, per entry: load the flag word, shift, mask (3), per slot (2) load u, store u, store
//    v, advance a pointer (4; complex 2 loads, 4 stores, pointer: 7): 11 / 17.
//  sums, pairs, per product: load the word, test the end bit, load the product (complex 2), add
//    (complex 2), count and compare the chunk position (2): 6 / 8; per entry: store (complex 2), reset: 2 / 3.
constexpr std::array<double, 2> kGatherPairOps{7, 11}, kGatherTermOps{11, 17}, kSumOps{6, 8}, kSumEntryOps{2, 3};

enum class StreamLayout { pairs, terms, fixed };

// `len` consecutive source values, from element `first` of the side's source, staged from value
// position `at` of the partition (an element index, not an address: a kept plan serves new arrays).
struct Run {
  std::int64_t first = 0, len = 0, at = 0;
};

struct Segment {
  std::int64_t e0 = 0, e1 = 0, products = 0;
  std::int64_t u_runs0 = 0, u_runs1 = 0, v_runs0 = 0, v_runs1 = 0;  // [first, last) in Plan::runs
  std::int64_t su = 0, sv = 0;                                      // staged values
  std::int64_t words_at = 0, words = 0;                             // control words in Plan::words
  std::int64_t entries() const { return e1 - e0; }
};

struct StagedTile {
  std::int64_t s0 = 0, s1 = 0, width = 0, ctl_at = 0;
  std::int64_t slots = 0, entries = 0, su = 0, sv = 0;  // largest over the tile's segments
  std::int64_t ku = 0, kv = 0, index_at = 0;            // indirect staging: table rows per partition
};

// What a plan was built for: a kept plan (PairPlanCache) serves a call with the same key. The list is
// named by its arrays (the caller keeps it unchanged while it keeps the cache, pair_sums.hpp).
struct PlanKey {
  Value value = Value::f32;
  std::int32_t P = 0;
  std::int64_t u_len0 = 0, u_len1 = 0, v_len0 = 0, v_len1 = 0;
  const void *start = nullptr, *u = nullptr, *v = nullptr;
  std::int64_t entries = 0, products = 0;
  bool operator==(const PlanKey&) const = default;
};

// The plan depends on the pattern only (positions and element indices, never addresses or values), so
// it can be kept between calls; the fixed layout's coefficients are read from V at each launch.
struct Plan {
  PlanKey key;
  StreamLayout layout = StreamLayout::pairs;
  std::uint32_t fixed_terms = 0;  // fixed: the slots every entry has (bit 0: v = 0, bit 1: v = 1)
  std::int64_t w = 1;
  std::vector<Segment> segs;
  std::vector<Run> runs;
  std::vector<std::uint32_t> words;  // per segment, concatenated
  std::vector<StagedTile> tiles;
  std::vector<std::uint32_t> ctl;  // per tile [rows, width]: the control words (copied to scratch for the DMA)
  std::vector<std::int64_t> leftover;
  std::int64_t descriptors = 0;
  // Indirect staging: per segment its u then v table rows (Segment's *_runs0/1 index `rows`), and per
  // tile the index tile [rows, ku + kv] (a partition with fewer rows repeats its first).
  bool indirect = false;
  std::vector<std::int32_t> rows;
  std::vector<std::int32_t> index;

  Plan() = default;
  Plan(Plan&&) noexcept = default;
  Plan& operator=(Plan&&) noexcept = default;
  // Its large arrays back to the pool of warm blocks (spgemm_blocks.hpp: no page faults next product).
  ~Plan() {
    detail::give_warm_block(words);
    detail::give_warm_block(ctl);
    detail::give_warm_block(rows);
    detail::give_warm_block(index);
  }
};

// The index work's buffers, reused by every segment of one plan (no allocation per segment). A
// source element's `at` is its staged position in the last segment that listed it.
struct StageBuffers {
  std::vector<std::int64_t> ids, pos;
  std::vector<std::int64_t> list;             // read_side's list (its longest input + 4, never shrunk)
  std::vector<std::uint64_t> bits_u, bits_v;  // pairs: a bit per source element (zero between segments)
  std::vector<std::int32_t> at_u, at_v;

  StageBuffers() = default;
  StageBuffers(const StageBuffers&) = delete;
  StageBuffers& operator=(const StageBuffers&) = delete;
  ~StageBuffers() {
    detail::give_warm_block(at_u);
    detail::give_warm_block(at_v);
  }
};

const float* element(const PairSource& s, std::int64_t i, std::int64_t w) {
  return i < s.len0 ? static_cast<const float*>(s.first) + i * w : static_cast<const float*>(s.second) + (i - s.len0) * w;
}

// Whether L is a terms list (pair_staged.hpp, StreamLayout): k in {1, 2}, v = 0 before v = 1, and the
// u of each slot consecutive over the entries -- then t (masks into `mask`) stands for it.
bool is_terms(const PairLists& L, const PairSource& V, std::vector<std::uint8_t>& mask, TermMasks& t) {
  if (V.len0 + V.len1 != 2) return false;
  std::array<std::int64_t, 2> next{-1, -1}, first{0, 0};
  mask.resize(z(L.entries()));
  for (std::int64_t e = 0; e < L.entries(); ++e) {
    const std::int64_t q0 = L.start[z(e)], q1 = L.start[z(e) + 1];
    if (q1 - q0 < 1 || q1 - q0 > 2) return false;
    std::uint32_t m = 0;
    for (std::int64_t q = q0; q < q1; ++q) {
      const std::int64_t slot = L.v[z(q)];
      if (slot < 0 || slot > 1 || (q > q0 && slot <= L.v[z(q) - 1])) return false;
      if (next[z(slot)] >= 0 && L.u[z(q)] != next[z(slot)]) return false;
      if (next[z(slot)] < 0) first[z(slot)] = L.u[z(q)];
      next[z(slot)] = L.u[z(q)] + 1;
      m |= 1u << slot;
    }
    mask[z(e)] = static_cast<std::uint8_t>(m);
  }
  t = TermMasks{.mask = mask.data(), .entries = L.entries(), .terms = L.products(), .u0 = first[0], .u1 = first[1]};
  return true;
}

// Appends the runs covering the sorted distinct source elements ids (staged from position base; a gap
// of <= kStagedGap unread elements is read through while the staged count stays <= kStagedProducts);
// pos[k] = ids[k]'s staged position; cap: the staged tile's end. Returns the staged count from base.
std::int64_t add_runs(Plan& pl, const PairSource& s, const std::vector<std::int64_t>& ids, std::int64_t base,
                      std::vector<std::int64_t>& pos, std::int64_t cap = kStagedProducts) {
  pos.resize(ids.size());
  std::int64_t staged = 0, first = -1, last = -1, at = base;
  const auto close = [&] {
    if (first >= 0) pl.runs.push_back({first, last - first + 1, at});
  };
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const std::int64_t i = ids[k], gap = i - last - 1, rest = static_cast<std::int64_t>(ids.size() - k);
    const bool same_array = first >= 0 && (first < s.len0) == (i < s.len0);
    if (same_array && gap <= kStagedGap && base + staged + gap + rest <= cap) {
      staged += gap + 1;
    } else {
      close();
      at = base + staged;
      first = i;
      staged += 1;
    }
    last = i;
    pos[k] = at + (i - first);
  }
  close();
  return staged;
}

// add_runs for the n consecutive elements first .. first + n - 1 (staged from position at): one run,
// or two where they cross from the source's first array into its second.
void add_span(Plan& pl, const PairSource& s, std::int64_t first, std::int64_t n, std::int64_t at) {
  if (n <= 0) return;
  const std::int64_t head = first < s.len0 && first + n > s.len0 ? s.len0 - first : n;
  pl.runs.push_back({first, head, at});
  if (head < n) pl.runs.push_back({first + head, n - head, at + head});
}

// Indirect staging: the table rows covering the sorted distinct elements ids[0 .. n) of a one-array
// source (a row starts at its first element, moved back to len - kGatherRow at the array's end), each
// element's staged position (row r at kGatherRow r) written to at[element]. Returns the staged count.
std::int64_t add_rows(Plan& pl, const PairSource& s, const std::int64_t* __restrict ids, std::int64_t n,
                      std::int32_t* __restrict at) {
  std::int64_t row_end = INT64_MIN, first_pos = 0;  // the open row's end; staged position - element
  std::int64_t rows = 0;
  for (std::int64_t k = 0; k < n; ++k) {
    const std::int64_t i = ids[k];
    if (i >= row_end) {
      const std::int64_t row = std::min(i, s.len0 - kGatherRow);
      pl.rows.push_back(static_cast<std::int32_t>(row));
      row_end = row + kGatherRow;
      first_pos = rows * kGatherRow - row;
      ++rows;
    }
    at[i] = static_cast<std::int32_t>(first_pos + i);
  }
  return rows * kGatherRow;
}

// The pairs layout's index work on one segment's products [q0, q1), both sides in one pass: each
// side's elements set their bits in a bitmap of the whole side (Side::bits, zero between segments; a
// repeated element sets its bit again: no per-element stamp, whose scattered reads and writes were
// most of this work before session 24), and the side's least and greatest element are kept.
struct Side {
  std::uint64_t* __restrict bits;  // (source length + 63) / 64 words and 3 more (zero)
  std::int64_t lo, hi;
};
void mark_sides(const std::int64_t* __restrict u, const std::int64_t* __restrict v, std::int64_t n, Side& su, Side& sv) {
  std::uint64_t* __restrict bu = su.bits;
  std::uint64_t* __restrict bv = sv.bits;
  std::int64_t ulo = INT64_MAX, uhi = -1, vlo = INT64_MAX, vhi = -1;
  for (std::int64_t q = 0; q < n; ++q) {
    const auto a = static_cast<std::uint64_t>(u[q]), b = static_cast<std::uint64_t>(v[q]);
    bu[a / 64] |= std::uint64_t{1} << (a % 64);
    bv[b / 64] |= std::uint64_t{1} << (b % 64);
    ulo = std::min(ulo, u[q]);
    uhi = std::max(uhi, u[q]);
    vlo = std::min(vlo, v[q]);
    vhi = std::max(vhi, v[q]);
  }
  su.lo = ulo;
  su.hi = uhi;
  sv.lo = vlo;
  sv.hi = vhi;
}

// A marked side's distinct elements, increasing, into list (n + 4 elements; returns their count), its
// bits cleared. When the marked range is at most 4 words per product, its words are read back in
// order (detail::read_set_bits); else (a few elements scattered over a long source) each product
// keeps its element when the element's bit is still set and clears it -- the first occurrences --
// then std::sort. The same list either way.
std::int64_t read_side(Side& s, const std::int64_t* __restrict id, std::int64_t n, std::int64_t* __restrict list) {
  if (n == 0) return 0;
  std::uint64_t* __restrict bits = s.bits;
  const std::int64_t w0 = s.lo / 64, w1 = s.hi / 64;
  std::int64_t k = 0;
  if (w1 - w0 < 4 * n) {
    for (std::int64_t w = w0; w <= w1; w += 4) {  // four words a test: a side's bits are sparse in its range
      if ((bits[w] | bits[w + 1] | bits[w + 2] | bits[w + 3]) == 0) continue;
      for (std::int64_t j = w; j < w + 4; ++j) {
        k += detail::read_set_bits(bits[j], 64 * j, list + k);
        bits[j] = 0;
      }
    }
    return k;
  }
  for (std::int64_t q = 0; q < n; ++q) {
    const auto i = static_cast<std::uint64_t>(id[q]);
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    list[k] = id[q];
    k += (bits[i / 64] & bit) != 0 ? 1 : 0;
    bits[i / 64] &= ~bit;
  }
  std::sort(list, list + k);
  return k;
}

// One marked side of segment g, pairs layout: its distinct elements staged (rows or runs), each
// element's staged position into `at`. Returns the staged count; the side's runs or rows are [*r0, *r1).
std::int64_t stage_side(Plan& pl, StageBuffers& b, Side& side, const std::int64_t* id, std::int64_t n, const PairSource& src,
                        std::vector<std::int32_t>& at, std::int64_t* r0, std::int64_t* r1) {
  if (b.list.size() < z(n) + 4) b.list.resize(z(n) + 4);
  const std::int64_t k = read_side(side, id, n, b.list.data());
  std::int64_t staged = 0;
  if (pl.indirect) {
    *r0 = static_cast<std::int64_t>(pl.rows.size());
    staged = add_rows(pl, src, b.list.data(), k, at.data());
    *r1 = static_cast<std::int64_t>(pl.rows.size());
  } else {
    b.ids.assign(b.list.begin(), b.list.begin() + k);
    *r0 = static_cast<std::int64_t>(pl.runs.size());
    staged = add_runs(pl, src, b.ids, 0, b.pos);
    *r1 = static_cast<std::int64_t>(pl.runs.size());
    for (std::size_t j = 0; j < b.ids.size(); ++j) at[z(b.ids[j])] = static_cast<std::int32_t>(b.pos[j]);
  }
  return staged;
}

// Segment g's runs and control words, pairs layout.
void stage_pairs(Plan& pl, StageBuffers& b, const PairLists& L, const PairSource& U, const PairSource& V, Segment& g) {
  const std::int64_t q0 = L.start[z(g.e0)], q1 = L.start[z(g.e1)], n = q1 - q0;
  const std::int64_t* __restrict u = L.u.data() + q0;
  const std::int64_t* __restrict v = L.v.data() + q0;
  Side su{b.bits_u.data(), 0, 0}, sv{b.bits_v.data(), 0, 0};
  mark_sides(u, v, n, su, sv);
  g.su = stage_side(pl, b, su, u, n, U, b.at_u, &g.u_runs0, &g.u_runs1);
  g.sv = stage_side(pl, b, sv, v, n, V, b.at_v, &g.v_runs0, &g.v_runs1);
  const std::size_t w0 = pl.words.size();
  pl.words.resize(w0 + 2 + z(n));
  std::uint32_t* __restrict word = pl.words.data() + w0;
  word[0] = static_cast<std::uint32_t>(n);
  word[1] = static_cast<std::uint32_t>(g.entries());
  word += 2;
  const std::int32_t* __restrict at_u = b.at_u.data();
  const std::int32_t* __restrict at_v = b.at_v.data();
  for (std::int64_t q = 0; q < n; ++q)
    word[q] = static_cast<std::uint32_t>(at_u[u[q]]) | (static_cast<std::uint32_t>(at_v[v[q]]) << 16);
  for (std::int64_t e = g.e0; e < g.e1; ++e) word[L.start[z(e) + 1] - 1 - q0] |= kEndBit;  // entries have >= 1 product
}

// Tiles of P segments and their control words laid out [rows, width] (one DMA each); the descriptor count.
void make_tiles(Plan& pl, std::int32_t P) {
  std::int64_t ctl_words = 0, index_words = 0;
  for (std::size_t s0 = 0; s0 < pl.segs.size(); s0 += z(P)) {
    StagedTile t;
    t.s0 = static_cast<std::int64_t>(s0);
    t.s1 = static_cast<std::int64_t>(std::min(pl.segs.size(), s0 + z(P)));
    for (std::int64_t s = t.s0; s < t.s1; ++s) {
      const Segment& g = pl.segs[z(s)];
      t.width = std::max(t.width, g.words);
      t.slots = std::max(t.slots, pl.layout == StreamLayout::pairs ? g.products : 2 * g.entries());
      t.entries = std::max(t.entries, g.entries());
      t.su = std::max(t.su, g.su);
      t.sv = std::max(t.sv, g.sv);
      const bool ctl = pl.layout != StreamLayout::fixed;
      // terms: v = [alpha, beta] is staged by a set's first tile in its program only (staged_load)
      const std::int64_t tile = static_cast<std::int64_t>(pl.tiles.size());
      const bool v_staged = pl.layout != StreamLayout::terms || tile % kStagedTilesPerProgram < kStagedSets;
      if (pl.indirect) {
        t.ku = std::max(t.ku, g.u_runs1 - g.u_runs0);
        t.kv = std::max(t.kv, g.v_runs1 - g.v_runs0);
      } else {
        pl.descriptors += (g.u_runs1 - g.u_runs0) + (v_staged ? g.v_runs1 - g.v_runs0 : 0) + (ctl ? 2 : 1);  // runs, control row, store
      }
    }
    if (pl.indirect) {  // every partition gathers ku + kv rows; control row, index row, store
      pl.descriptors += (t.s1 - t.s0) * (t.ku + t.kv + 3);
      t.index_at = index_words;
      index_words += (t.s1 - t.s0) * (t.ku + t.kv);
    }
    t.ctl_at = ctl_words;
    ctl_words += (t.s1 - t.s0) * t.width;
    pl.tiles.push_back(t);
  }
  detail::warm_capacity(pl.index, z(index_words));
  detail::warm_capacity(pl.ctl, z(ctl_words));
  pl.index.assign(z(index_words), 0);
  pl.ctl.assign(z(ctl_words), 0u);
  for (const StagedTile& t : pl.tiles) {
    for (std::int64_t s = t.s0; s < t.s1; ++s) {
      const Segment& g = pl.segs[z(s)];
      if (pl.indirect) {
        std::int32_t* row = pl.index.data() + t.index_at + (s - t.s0) * (t.ku + t.kv);
        for (std::int64_t k = 0; k < t.ku; ++k) row[k] = pl.rows[z(g.u_runs0 + (k < g.u_runs1 - g.u_runs0 ? k : 0))];
        for (std::int64_t k = 0; k < t.kv; ++k) row[t.ku + k] = pl.rows[z(g.v_runs0 + (k < g.v_runs1 - g.v_runs0 ? k : 0))];
      }
      std::copy_n(pl.words.begin() + g.words_at, g.words, pl.ctl.begin() + t.ctl_at + (s - t.s0) * t.width);
    }
  }
}

// The mask every entry of t has, or 0 when they differ (t has entries).
std::uint32_t uniform_mask(const TermMasks& t) {
  std::uint32_t any = 0, all = 3;
  for (std::int64_t e = 0; e < t.entries; ++e) {
    any |= t.mask[e];
    all &= t.mask[e];
  }
  return any == all ? any : 0;
}

// The plan of the terms list t stands for: segments of target / 2 consecutive entries (2 slots
// each); per segment its slot-0 terms' u (consecutive: one run, pair_sums.hpp's TermMasks) staged
// from 0, its slot-1 terms' from n0 (fixed: from kStagedProducts, sv's half), v = [alpha, beta] one
// run (terms only: fixed takes them as immediates), the control words E, n0 and 2 mask bits per
// entry. uniform: the mask every entry has (the fixed layout; t.mask is then not read), else 0.
Plan make_terms_plan(const PlanKey& key, const TermMasks& t, std::uint32_t uniform, const PairSource& U, const PairSource& V) {
  Plan pl;
  pl.key = key;
  pl.w = key.value == Value::c32 ? 2 : 1;
  pl.layout = uniform != 0 ? StreamLayout::fixed : StreamLayout::terms;
  pl.fixed_terms = uniform;
  const std::int64_t spread = key.P * kStagedTargetTiles;
  const std::int64_t target = std::clamp<std::int64_t>((t.terms + spread - 1) / spread, kStagedMinProducts, kStagedProducts);
  const std::int64_t per = target / 2;  // entries per segment: an entry takes 2 slots, at most target
  const std::uint32_t flag16 = uniform * 0x55555555u;  // 16 entries of mask `uniform`, 2 bits each
  const std::int64_t segments = (t.entries + per - 1) / per;
  pl.segs.reserve(z(segments));
  pl.runs.reserve(z(3 * segments));
  pl.words.reserve(z(2 * segments + (t.entries + 15) / 16 + segments));
  std::int64_t next0 = t.u0, next1 = t.u1;
  for (std::int64_t e0 = 0; e0 < t.entries; e0 += per) {
    const std::int64_t e1 = std::min(t.entries, e0 + per), E = e1 - e0;
    Segment g{.e0 = e0, .e1 = e1, .products = 2 * E};
    g.words_at = static_cast<std::int64_t>(pl.words.size());
    pl.words.push_back(static_cast<std::uint32_t>(E));
    pl.words.push_back(0);  // n0, below
    std::int64_t n0 = 0, n1 = 0;
    if (uniform != 0) {
      for (std::int64_t f = 0; f < E; f += 16)
        pl.words.push_back(E - f >= 16 ? flag16 : flag16 & ((1u << (2 * (E - f))) - 1u));
      n0 = (uniform & 1u) != 0 ? E : 0;
      n1 = (uniform & 2u) != 0 ? E : 0;
    } else {
      const std::uint8_t* __restrict m = t.mask + e0;
      for (std::int64_t f = 0; f < E; f += 16) {
        std::uint32_t word = 0;
        for (std::int64_t k = 0; k < std::min<std::int64_t>(16, E - f); ++k) {
          word |= std::uint32_t{m[f + k]} << (2 * k);
          n0 += m[f + k] & 1u;
          n1 += m[f + k] >> 1;
        }
        pl.words.push_back(word);
      }
    }
    pl.words[z(g.words_at) + 1] = static_cast<std::uint32_t>(n0);
    g.u_runs0 = static_cast<std::int64_t>(pl.runs.size());
    add_span(pl, U, next0, n0, 0);
    add_span(pl, U, next1, n1, uniform != 0 ? kStagedProducts : n0);
    g.su = n0 + n1;
    g.u_runs1 = g.v_runs0 = static_cast<std::int64_t>(pl.runs.size());
    if (uniform == 0) {
      add_span(pl, V, 0, 2, 0);
      g.sv = 2;
    }
    g.v_runs1 = static_cast<std::int64_t>(pl.runs.size());
    next0 += n0;
    next1 += n1;
    g.words = static_cast<std::int64_t>(pl.words.size()) - g.words_at;
    pl.segs.push_back(g);
  }
  make_tiles(pl, key.P);
  return pl;
}

// Segments of consecutive entries (about products / (P kStagedTargetTiles) products each), staged.
// A terms list takes make_terms_plan.
Plan make_plan(const PlanKey& key, const PairLists& L, const PairSource& U, const PairSource& V) {
  std::vector<std::uint8_t> mask;
  TermMasks terms;
  if (is_terms(L, V, mask, terms)) return make_terms_plan(key, terms, uniform_mask(terms), U, V);
  Plan pl;
  pl.key = key;
  pl.w = key.value == Value::c32 ? 2 : 1;
  pl.layout = StreamLayout::pairs;
  // Indirect staging for SpGEMM's pairs (each side one array of at least a table row, int32 rows).
  pl.indirect = U.len1 == 0 && V.len1 == 0 && U.len0 >= kGatherRow && V.len0 >= kGatherRow && U.len0 < INT32_MAX && V.len0 < INT32_MAX;
  StageBuffers buf;
  detail::warm_capacity(buf.at_u, z(U.len0 + U.len1));
  detail::warm_capacity(buf.at_v, z(V.len0 + V.len1));
  detail::warm_capacity(pl.words, z(L.products()) + 2 * z(L.entries()));
  buf.bits_u.assign(z((U.len0 + U.len1 + 63) / 64 + 3), 0);  // + 3: read_side's last test of four words
  buf.bits_v.assign(z((V.len0 + V.len1 + 63) / 64 + 3), 0);
  buf.at_u.resize(z(U.len0 + U.len1));
  buf.at_v.resize(z(V.len0 + V.len1));
  pl.words.reserve(z(L.products()) + 2 * z(L.entries()));
  const std::int64_t spread = key.P * kStagedTargetTiles;
  const std::int64_t target = std::clamp<std::int64_t>((L.products() + spread - 1) / spread, kStagedMinProducts, kStagedProducts);
  // Stages entries [e0, e1) as one segment; with indirect staging a segment whose rows overflow the
  // staged tile is halved (a single entry that overflows goes to the per-entry path).
  const auto stage = [&](auto&& self, std::int64_t e0, std::int64_t e1) -> void {
    Segment g{.e0 = e0, .e1 = e1, .products = L.start[z(e1)] - L.start[z(e0)]};
    g.words_at = static_cast<std::int64_t>(pl.words.size());
    const std::size_t rows0 = pl.rows.size();
    stage_pairs(pl, buf, L, U, V, g);
    if (pl.indirect && (g.su > kStagedProducts || g.sv > kStagedProducts)) {
      pl.words.resize(z(g.words_at));
      pl.rows.resize(rows0);
      if (e1 - e0 == 1) {
        pl.leftover.push_back(e0);
        return;
      }
      self(self, e0, e0 + (e1 - e0) / 2);
      self(self, e0 + (e1 - e0) / 2, e1);
      return;
    }
    g.words = static_cast<std::int64_t>(pl.words.size()) - g.words_at;
    pl.segs.push_back(g);
  };
  // Runs of consecutive entries of 1 .. kStagedProducts products each (an entry of none or more is
  // left over), cut into segments: an entry joins the open segment while the segment's products
  // stay <= target, and always opens one.
  const std::int64_t* const start = L.start.data();
  const std::int64_t entries = L.entries();
  const auto regular = [start](std::int64_t e) {
    const std::int64_t k = start[e + 1] - start[e];
    return k >= 1 && k <= kStagedProducts;
  };
  for (std::int64_t e = 0; e < entries;) {
    if (!regular(e)) {
      pl.leftover.push_back(e++);
      continue;
    }
    const std::int64_t e0 = e++;
    const std::int64_t end = start[e0] + target;  // products [start[e0], end) at most target
    while (e < entries && start[e + 1] <= end && regular(e)) ++e;
    stage(stage, e0, e);
  }
  make_tiles(pl, key.P);
  return pl;
}

// ---- the operators' per-partition code (GpSimdE fp32 lanes: IEEE binary32, RNE, no FMA) ----------

struct C32 {
  float re = 0, im = 0;
};
float add(float a, float b) { return a + b; }
C32 add(C32 a, C32 b) { return {a.re + b.re, a.im + b.im}; }

// Gather, pairs: U[s], V[s] for the partition's products, zeros up to `slots`. W (words per value) a
// constant, so a value is one fixed-size move (a copy_n of a run-time w was a memmove call per value:
// half the staged launch's host instructions, session 25).
template <std::int64_t W>
void gather_pairs_w(const std::uint32_t* __restrict c, const float* __restrict su, const float* __restrict sv,
                    float* __restrict u, float* __restrict v, std::int64_t slots) {
  const std::int64_t n = c[0];
  const std::uint32_t* __restrict word = c + kHeader;
  for (std::int64_t q = 0; q < n; ++q) {
    const std::uint32_t x = word[q];
    std::memcpy(u + q * W, su + (x & kPosMask) * W, sizeof(float) * W);
    std::memcpy(v + q * W, sv + (x >> 16) * W, sizeof(float) * W);
  }
  std::fill(u + n * W, u + slots * W, 0.0f);
  std::fill(v + n * W, v + slots * W, 0.0f);
}
void gather_pairs(const std::uint32_t* c, const float* su, const float* sv, float* u, float* v, std::int64_t w,
                  std::int64_t slots) {
  (w == 1 ? gather_pairs_w<1> : gather_pairs_w<2>)(c, su, sv, u, v, slots);
}

// Gather, terms: slot 0 (u, alpha), slot 1 (u, beta) per entry; zeros where a term is absent. W
// (words per value) a constant, as gather_pairs_w's. Both slots are written for every entry, a term's
// bits and-ed with an all-ones or all-zeros mask from its flag (an absent term: +0, the zeros the
// slots were filled with before), so no branch depends on the masks: csrgeam2's terms of random
// patterns mispredicted half of them (the operator was ~17 % of a csrgeam2 R_32F call's CPU time,
// session 27). An absent term's read stays inside the staged row: slot 0's next u is at most n0,
// slot 1's at most n0 + n1 <= kStagedProducts, of a row of 2 kStagedProducts W values.
template <std::int64_t W>
void gather_terms_w(const std::uint32_t* __restrict c, const float* __restrict su, const float* __restrict sv,
                    float* __restrict u, float* __restrict v, std::int64_t slots) {
  const std::int64_t E = c[0];
  std::int64_t next0 = 0, next1 = c[1];
  const auto bits = [](const float* x) {
    std::array<std::uint32_t, W> r;
    std::memcpy(r.data(), x, sizeof r);
    return r;
  };
  const std::array<std::uint32_t, W> alpha = bits(sv), beta = bits(sv + W);
  for (std::int64_t e = 0; e < E; ++e) {
    const std::uint32_t f = (c[kHeader + e / 16] >> (2 * (e % 16))) & 3u;
    const std::uint32_t m0 = 0u - (f & 1u), m1 = 0u - (f >> 1);
    const std::array<std::uint32_t, W> a = bits(su + next0 * W), b = bits(su + next1 * W);
    std::array<std::uint32_t, 2 * W> uu, vv;
    for (std::int64_t k = 0; k < W; ++k) {
      uu[k] = a[k] & m0;
      uu[W + k] = b[k] & m1;
      vv[k] = alpha[k] & m0;
      vv[W + k] = beta[k] & m1;
    }
    std::memcpy(u + 2 * e * W, uu.data(), sizeof uu);
    std::memcpy(v + 2 * e * W, vv.data(), sizeof vv);
    next0 += f & 1u;
    next1 += f >> 1;
  }
  std::fill(u + 2 * E * W, u + slots * W, 0.0f);
  std::fill(v + 2 * E * W, v + slots * W, 0.0f);
}
void gather_terms(const std::uint32_t* c, const float* su, const float* sv, float* u, float* v, std::int64_t w,
                  std::int64_t slots) {
  (w == 1 ? gather_terms_w<1> : gather_terms_w<2>)(c, su, sv, u, v, slots);
}

template <class T>
T product_at(const float* re, const float* im, std::int64_t q) {
  if constexpr (std::is_same_v<T, float>)
    return re[q];
  else
    return C32{re[q], im[q]};
}
void store(float* out, std::int64_t e, float x) { out[e] = x; }
void store(float* out, std::int64_t e, C32 x) {
  out[2 * e] = x.re;
  out[2 * e + 1] = x.im;
}

// Sums, pairs: per entry, the fp32 loop of pair_sums.hpp over the products (re, im planes).
// An entry's first product opens its chunk sum; each later one is added on, except that the product
// after a full chunk of kChunk opens the next chunk (the closed chunk's sum added to the total).
template <class T>
void segment_sums(const std::uint32_t* c, const float* re, const float* im, float* out) {
  const std::int64_t n = c[0];
  const std::uint32_t* word = c + kHeader;
  for (std::int64_t q = 0, e = 0; q < n; ++e) {
    T part = product_at<T>(re, im, q), total{};
    bool end = (word[q++] & kEndBit) != 0, chunked = false;
    for (std::int64_t k = 1; !end; ++k) {
      const T p = product_at<T>(re, im, q);
      end = (word[q++] & kEndBit) != 0;
      if (k == kChunk) {
        total = chunked ? add(total, part) : part;
        chunked = true;
        part = p;
        k = 0;
      } else {
        part = add(part, p);
      }
    }
    store(out, e, chunked ? add(total, part) : part);
  }
}

const std::uint32_t* words_of(const Tile& t, std::int32_t p) { return reinterpret_cast<const std::uint32_t*>(t.at(p, 0)); }
float* floats_of(const Tile& t, std::int32_t p) { return reinterpret_cast<float*>(t.at(p, 0)); }

// ---- the program ----------------------------------------------------------------------------

// su and sv are the two halves of one staged tile, so the gather operator's four operands (u, v, ctl,
// staged) cover every region it touches (the trace records a custom operator's first four).
struct StagedSet {
  Tile ctl, staged, su, sv, u, v, t1, t2, t3, out, index;
};

struct StagedCall {
  const Plan* plan = nullptr;
  float* out = nullptr;
  const PairSource *u = nullptr, *v = nullptr;  // the sources (runs' elements, indirect staging's tables)
  const std::uint32_t* ctl = nullptr;           // the plan's control words and index tiles on the scratch stack
  const std::int32_t* index = nullptr;
  std::array<std::array<float, 2>, 2> coef{};   // fixed: v's two values (re, im), the VectorE immediates
};

// The runs [r0, r1) of source `src` into partition p of staged tile `to`.
void stage_runs(NeuronCore& nc, const Plan& pl, const PairSource& src, const Tile& to, std::int32_t p, std::int64_t r0,
                std::int64_t r1) {
  for (std::int64_t r = r0; r < r1; ++r) {
    const Run& run = pl.runs[z(r)];
    nc.dma_copy(to.rows(p, 1).cols(run.at * pl.w, run.len * pl.w),
                tile::hbm_view(element(src, run.first, pl.w), DType::f32, 1, 0, {{run.len * pl.w, 1}}));
  }
}

// The products' sums of the tile into b.out (pair_staged.hpp, Algorithm: gather, products, sums).
void staged_compute(NeuronCore& nc, const Plan& pl, const StagedTile& t, const StagedSet& b, std::int32_t rows) {
  const std::int64_t w = pl.w, cw = w - 1;
  const Tile ctl = b.ctl.rows(0, rows).cols(0, t.width), staged = b.staged.rows(0, rows);
  const Tile u = b.u.rows(0, rows).cols(0, t.slots * w), v = b.v.rows(0, rows).cols(0, t.slots * w);
  const Tile gathered[] = {u, v}, gather_in[] = {ctl, staged};
  const std::int64_t sv_at = kStagedProducts * w;  // sv's first word in the staged tile
  const bool pairs = pl.layout == StreamLayout::pairs;
  const double gather_cycles = nc.hw().gpsimd_start + (pairs ? kGatherPairOps[z(cw)] * static_cast<double>(t.slots)
                                                             : kGatherTermOps[z(cw)] * static_cast<double>(t.entries));
  const std::int64_t slots = t.slots;
  nc.custom_op(pairs ? "pair_gather" : "term_gather", gathered, gather_in, gather_cycles, [=](const CustomOpContext& x) {
    for (std::int32_t p = 0; p < rows; ++p)
      (pairs ? gather_pairs : gather_terms)(words_of(x.inputs[0], p), floats_of(x.inputs[1], p), floats_of(x.inputs[1], p) + sv_at,
                                            floats_of(x.outputs[0], p), floats_of(x.outputs[1], p), w, slots);
  });
  const Tile t1 = b.t1.rows(0, rows).cols(0, slots), t2 = b.t2.rows(0, rows).cols(0, slots);
  pair_products(nc, u, v, t1, t2, b.t3.rows(0, rows).cols(0, slots), w, slots);
  const Tile out = b.out.rows(0, rows).cols(0, t.entries * w);
  if (!pairs) {  // the fixed two-slot layout: out = slot 0 + slot 1 (each plane)
    for (std::int64_t k = 0; k < w; ++k) {
      const Tile prod = k == 0 ? t1 : t2;
      const int d = prod.ndim - 1;
      nc.tensor_tensor(out.slice(d, k, t.entries, w), prod.slice(d, 0, t.entries, 2), prod.slice(d, 1, t.entries, 2), AluOp::add);
    }
    return;
  }
  const Tile sum_out[] = {out}, sum_in[] = {ctl, t1, t2};
  const double sum_cycles = nc.hw().gpsimd_start + kSumOps[z(cw)] * static_cast<double>(t.slots) +
                            kSumEntryOps[z(cw)] * static_cast<double>(t.entries);
  nc.custom_op("pair_segment_sums", sum_out, std::span<const Tile>(sum_in, w == 1 ? 2 : 3), sum_cycles, [=](const CustomOpContext& x) {
    for (std::int32_t p = 0; p < rows; ++p) {
      const float* im = w == 1 ? nullptr : floats_of(x.inputs[2], p);
      if (w == 1)
        segment_sums<float>(words_of(x.inputs[0], p), floats_of(x.inputs[1], p), im, floats_of(x.outputs[0], p));
      else
        segment_sums<C32>(words_of(x.inputs[0], p), floats_of(x.inputs[1], p), im, floats_of(x.outputs[0], p));
    }
  });
}

// The fixed two-slot layout (every entry the same terms; SpGEMM copy): slot k's values staged as one
// block, then on VectorE out = fl(slot 0 x v0) + fl(slot 1 x v1) (one term: its product), v as immediates.
void fixed_compute(NeuronCore& nc, const StagedCall& call, const StagedTile& t, const StagedSet& b, std::int32_t rows) {
  const Plan& pl = *call.plan;
  const std::int64_t w = pl.w, n = t.entries;
  const Tile out = b.out.rows(0, rows).cols(0, n * w);
  const std::array<Tile, 2> slot{b.su.rows(0, rows).cols(0, n * w), b.sv.rows(0, rows).cols(0, n * w)};
  const std::array<Tile, 2> prod{b.u.rows(0, rows).cols(0, n * w), b.v.rows(0, rows).cols(0, n * w)};
  const bool both = pl.fixed_terms == 3u;
  const auto plane = [n](const Tile& x, std::int64_t k) { return x.slice(x.ndim - 1, k, n, 2); };
  for (std::int64_t k = 0; k < 2; ++k) {
    if (((pl.fixed_terms >> k) & 1u) == 0) continue;
    const Tile dst = both ? prod[z(k)] : out;
    const std::array<float, 2>& c = call.coef[z(k)];
    if (w == 1)
      nc.tensor_scalar(dst, slot[z(k)], AluOp::multiply, c[0]);
    else
      trn::tile::complex_multiply(nc, {plane(dst, 0), plane(dst, 1)}, {plane(slot[z(k)], 0), plane(slot[z(k)], 1)}, c[0], c[1],
                                  b.t3.rows(0, rows).cols(0, n));
  }
  if (both) nc.tensor_tensor(out, prod[0], prod[1], AluOp::add);
}

// Tile t's loads into set b: the control words and the staged runs.
// v_staged: the set already holds v (terms: the same [alpha, beta] for every tile; only the call's last
// tile may have fewer rows than the set's first, so the earlier load covers it).
void staged_load(NeuronCore& nc, const StagedCall& c, const StagedTile& t, const StagedSet& b, bool v_staged) {
  const Plan& pl = *c.plan;
  const auto rows = static_cast<std::int32_t>(t.s1 - t.s0);
  if (pl.layout != StreamLayout::fixed)
    nc.dma_copy(b.ctl.rows(0, rows).cols(0, t.width),
                tile::hbm_view(c.ctl + t.ctl_at, DType::u32, rows, t.width, {{t.width, 1}}));
  if (pl.indirect) {  // the tile's table rows: one index DMA, one indirect DMA per side
    const std::int64_t k = t.ku + t.kv, w = pl.w;
    nc.dma_copy(b.index.rows(0, rows).cols(0, k), tile::hbm_view(c.index + t.index_at, DType::i32, rows, k, {{k, 1}}));
    const PairSource* side[] = {c.u, c.v};
    const Tile dst[] = {b.su.rows(0, rows).cols(0, t.ku * kGatherRow * w), b.sv.rows(0, rows).cols(0, t.kv * kGatherRow * w)};
    const Tile index[] = {b.index.rows(0, rows).cols(0, t.ku), b.index.rows(0, rows).cols(t.ku, t.kv)};
    for (int i = 0; i < 2; ++i) {
      const Tile table = tile::hbm_view(side[i]->first, DType::f32, static_cast<std::int32_t>(side[i]->len0 - kGatherRow + 1), w,
                                        {{kGatherRow * w, 1}});
      nc.dma_gather(dst[i], table, index[i]);
    }
    return;
  }
  for (std::int32_t p = 0; p < rows; ++p) {
    const Segment& g = pl.segs[z(t.s0 + p)];
    stage_runs(nc, pl, *c.u, b.staged, p, g.u_runs0, g.u_runs1);  // fixed: slot 1 in the second half
    if (!v_staged || pl.layout != StreamLayout::terms) stage_runs(nc, pl, *c.v, b.sv, p, g.v_runs0, g.v_runs1);
  }
}

// Tile t's engine work on set b and its stores.
void staged_finish(NeuronCore& nc, const StagedCall& c, const StagedTile& t, const StagedSet& b) {
  const Plan& pl = *c.plan;
  const auto rows = static_cast<std::int32_t>(t.s1 - t.s0);
  if (pl.layout == StreamLayout::fixed)
    fixed_compute(nc, c, t, b, rows);
  else
    staged_compute(nc, pl, t, b, rows);
  for (std::int32_t p = 0; p < rows; ++p) {
    const Segment& g = pl.segs[z(t.s0 + p)];
    const std::int64_t n = g.entries() * pl.w;
    nc.dma_copy(tile::hbm_view(c.out + g.e0 * pl.w, DType::f32, 1, 0, {{n, 1}}), b.out.rows(p, 1).cols(0, n));
  }
}

void staged_program(NeuronCore& nc, const StagedCall& c) {
  const std::int32_t P = nc.hw().pmax;
  const std::int64_t w = c.plan->w, tiles = static_cast<std::int64_t>(c.plan->tiles.size());
  const std::int64_t t0 = nc.program_id(0) * kStagedTilesPerProgram, t1 = std::min(tiles, t0 + kStagedTilesPerProgram);
  AllocScope sb(nc.sbuf());
  std::array<StagedSet, kStagedSets> sets;
  const auto f32 = [&](std::int64_t n, const char* name) { return sb.alloc(DType::f32, P, {n}, name, 0, AllocFill::none); };
  for (StagedSet& b : sets)
    b = StagedSet{sb.alloc(DType::u32, P, {kHeader + kStagedProducts}, "staged.ctl", 0, AllocFill::none),
                  f32(2 * kStagedProducts * w, "staged.su+sv"), Tile{}, Tile{},
                  f32(kStagedProducts * w, "staged.u"), f32(kStagedProducts * w, "staged.v"),
                  f32(kStagedProducts, "staged.t1"), f32(kStagedProducts, "staged.t2"), f32(kStagedProducts, "staged.t3"),
                  f32(kStagedProducts * w, "staged.out"),
                  c.plan->indirect ? sb.alloc(DType::i32, P, {2 * kStagedProducts / kGatherRow}, "staged.index", 0, AllocFill::none)
                                   : Tile{}};
  for (StagedSet& b : sets) {
    b.su = b.staged.cols(0, kStagedProducts * w);
    b.sv = b.staged.cols(kStagedProducts * w, kStagedProducts * w);
  }
  // Software pipelining in issue order: tile t + kStagedSets - 1's loads are issued before tile t's
  // work and stores (a DMA queue serves its transfers in order, so loads issued after tile t's stores
  // would wait for tile t's engines). Their set is tile t - 1's, whose work is already issued.
  const auto load = [&](std::int64_t t) { staged_load(nc, c, c.plan->tiles[z(t)], sets[z(t % kStagedSets)], t - t0 >= kStagedSets); };
  for (std::int64_t t = t0; t < std::min(t1, t0 + kStagedSets - 1); ++t) load(t);
  for (std::int64_t t = t0; t < t1; ++t) {
    if (t + kStagedSets - 1 < t1) load(t + kStagedSets - 1);
    staged_finish(nc, c, c.plan->tiles[z(t)], sets[z(t % kStagedSets)]);
  }
}

}  // namespace

void pair_products(NeuronCore& nc, const Tile& u, const Tile& v, const Tile& t1, const Tile& t2, const Tile& t3,
                   std::int64_t w, std::int64_t n) {
  if (w == 1) {
    nc.tensor_tensor(t1, u, v, AluOp::multiply);
    return;
  }
  const auto plane = [n](const Tile& t, std::int64_t k) { return t.slice(t.ndim - 1, k, n, 2); };
  trn::tile::complex_multiply(nc, {t1, t2}, {plane(u, 0), plane(u, 1)}, {plane(v, 0), plane(v, 1)}, t3);  // (t1, t2) = u v
}

namespace {

// The plan for key from the cache when it was built for the same key, else make() (stored in the cache).
template <class Make>
std::shared_ptr<const Plan> kept_plan(const PlanKey& key, std::shared_ptr<const void>* cache, Make&& make) {
  std::shared_ptr<const Plan> kept = cache != nullptr ? std::static_pointer_cast<const Plan>(*cache) : nullptr;
  if (kept == nullptr || !(kept->key == key)) {
    kept = std::make_shared<const Plan>(make());
    if (cache != nullptr) *cache = kept;
  }
  return kept;
}

StagedRun run_plan(const Settings& s, const Plan& pl, const PairSource& U, const PairSource& V, float* out, Trace& trace);

}  // namespace

StagedRun pair_sums_staged(const Settings& s, Value value, const PairLists& L, const PairSource& U, const PairSource& V,
                           float* out, Trace& trace, std::shared_ptr<const void>* cache) {
  const PlanKey key{.value = value, .P = hardware_spec(s.target).pmax, .u_len0 = U.len0, .u_len1 = U.len1, .v_len0 = V.len0,
                    .v_len1 = V.len1, .start = L.start.data(), .u = L.u.data(), .v = L.v.data(), .entries = L.entries(),
                    .products = L.products()};
  return run_plan(s, *kept_plan(key, cache, [&] { return make_plan(key, L, U, V); }), U, V, out, trace);
}

StagedRun pair_sums_fixed_staged(const Settings& s, Value value, std::int64_t n, bool both, const PairSource& U,
                                 const PairSource& V, float* out, Trace& trace, std::shared_ptr<const void>* cache) {
  const PlanKey key{.value = value, .P = hardware_spec(s.target).pmax, .u_len0 = U.len0, .u_len1 = U.len1, .v_len0 = V.len0,
                    .v_len1 = V.len1, .entries = n, .products = (both ? 2 : 1) * n};
  // per entry e the term (e, v = 0), then (n + e, v = 1) when `both`: every entry the same mask
  const TermMasks t{.entries = n, .terms = key.products, .u0 = 0, .u1 = n};
  return run_plan(s, *kept_plan(key, cache, [&] { return make_terms_plan(key, t, both ? 3u : 1u, U, V); }), U, V, out, trace);
}

StagedRun pair_sums_terms_staged(const Settings& s, Value value, const TermMasks& t, const PairSource& U, const PairSource& V,
                                 float* out, Trace& trace) {
  const PlanKey key{.value = value, .P = hardware_spec(s.target).pmax, .u_len0 = U.len0, .u_len1 = U.len1, .v_len0 = V.len0,
                    .v_len1 = V.len1, .entries = t.entries, .products = t.terms};
  return run_plan(s, make_terms_plan(key, t, uniform_mask(t), U, V), U, V, out, trace);
}

namespace {

StagedRun run_plan(const Settings& s, const Plan& pl, const PairSource& U, const PairSource& V, float* out, Trace& trace) {
  StagedRun r;
  r.leftover = pl.leftover;
  r.descriptors = pl.descriptors;
  const auto tiles = static_cast<std::int64_t>(pl.tiles.size());
  const std::int64_t programs = (tiles + kStagedTilesPerProgram - 1) / kStagedTilesPerProgram;
  if (programs > 0) {
    // The control words and index tiles the DMAs read, on the scratch stack (index first, as the
    // tiles are laid out; the cost model names them by allocation, docs/cost-model.md section 2).
    const ScratchVector<std::int32_t> index(pl.index.begin(), pl.index.end());
    const ScratchVector<std::uint32_t> ctl(pl.ctl.begin(), pl.ctl.end());
    StagedCall c{.plan = &pl, .out = out, .u = &U, .v = &V, .ctl = ctl.data(), .index = index.data()};
    if (pl.layout == StreamLayout::fixed)
      for (std::int64_t k = 0; k < 2; ++k)
        for (std::int64_t j = 0; j < pl.w; ++j) c.coef[z(k)][z(j)] = element(V, k, pl.w)[j];
    LaunchResult lr = launch(s.launch_config({static_cast<int>(programs), 1, 1}), [&](NeuronCore& nc) { staged_program(nc, c); });
    trace.append(std::move(lr.trace));
  }
  const bool pairs = pl.layout == StreamLayout::pairs;
  r.engines = pl.layout == StreamLayout::fixed ? "DMA (runs), VectorE (fp32 products, slot sums)"
                                               : "DMA (runs), GpSimdE (gather, segment sums), VectorE (fp32 products)";
  r.kernel = std::to_string(pl.segs.size()) + " segments of consecutive entries (one per partition) in " + std::to_string(tiles) +
             " tiles, " + std::to_string(pl.runs.size()) + " staged source runs, " + std::to_string(pl.descriptors) +
             " DMA descriptors (one per run, control row and store), " +
             (pairs ? "pairs layout (one control word per product)"
              : pl.layout == StreamLayout::terms ? "two-slot layout (2 control bits per entry)"
                                                 : "fixed two-slot layout (every entry the same terms, no control words)") +
             ", one launch of " + std::to_string(programs) + " programs: " +
             (pairs ? "GpSimdE gather, VectorE fp32 products, GpSimdE left-to-right segment sums"
              : pl.layout == StreamLayout::terms ? "GpSimdE gather, VectorE fp32 products, VectorE slot 0 + slot 1"
                                                 : "VectorE fp32 products (coefficients as immediates), slot 0 + slot 1");
  return r;
}

}  // namespace

}  // namespace trn::sparse
