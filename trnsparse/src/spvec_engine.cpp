// Sparse-vector operations on the emulated engines (docs/trnsparse.md "Sparse vectors on the engines").
//
// Algorithm   x's entries (in storage order, or one duplicate-free round of them, below) are cut into
//             chunks of at most pmax x kFree entries; a chunk of L entries is a [rows, cols] tile,
//             cols = ceil(L / pmax), rows = ceil(L / cols), entry q of the chunk on partition q / cols,
//             free position q % cols (w fp32 words per value: 1 real fp32, 2 complex fp32 / fp64,
//             4 complex fp64, re and im interleaved). Per chunk:
//               X  [rows, cols w] <- x.values            DMA: a whole chunk of consecutive entries as
//                                                       two transfers (full rows and tail)
//               Y  [rows, cols w] <- y(idx)              indirect DMA (s17): the chunk's indices
//                                                       loaded into an int32 index tile (x.indices
//                                                       itself, int64 as its low words; the index
//                                                       base is the instruction's), then one
//                                                       dma_gather per part (full rows, tail row),
//                                                       one descriptor per value
//             A chunk whose keys run in stretches of kMinRun or more values on average moves one
//             dma_copy per stretch instead (a list of consecutive keys: two). A duplicate-free
//             round of a list with repeated indices (below) and SparseToDense's Blocked-ELL slots
//             use int32 index arrays made by the host's index analysis (entry numbers, positions).
//             Gather  stores Y to x.values; Scatter stores X to y(idx) (descriptors issued in storage
//                     order, so a duplicated index keeps its last entry's value, as the host loop did).
//             SparseToDense (fill_and_scatter_engines, s14/spcross): one VectorE memset of a
//                     [pmax, 2048] zero tile stored over the dense matrix's lines by strided DMA
//                     descriptors, then the stored values scattered as Scatter does, one launch.
//             Axpby   one dense pass y = beta y (chunks of y as [rows, cols] tiles, VectorE multiply),
//                     then per chunk Y = Y + alpha X (VectorE) scattered back.
//             Rot     X' = c X + s Y, Y' = c Y - s X (VectorE), X' to x.values, Y' scattered back.
//             SpVV    per chunk the products op(X) Y (VectorE multiply; op C negates X's im plane)
//                     summed along the free axis (tensor_reduce, left to right) onto a [pmax, 1]
//                     accumulator column per plane (chunk order); at the end the column is turned into
//                     one [1, pmax] row by VectorE transposes (bit exact) and summed left to right:
//                     trnblas Level 1's reduction order (trnblas/src/level1.cpp).
//             Axpby and Rot read y back after writing it: an index stored twice in x (allowed,
//             processed in storage order) would be gathered before its first update lands, so the
//             entries are split into rounds by the host's index analysis -- round r holds each
//             entry whose index occurred r times before it -- and the rounds run one after the
//             other (one round when the indices are distinct, the common case).
//             Complex products: (ar br - ai bi, ar bi + ai br), every operation one fp32 rounding.
// Engines     DMA (gathers, scatters, the dense pass of Axpby), VectorE. One program on one core:
//             the same bits for any host thread or core count.
// Accuracy    u = 2^-24, gamma_k = k u / (1 - k u) (Higham, ASNA 2nd ed., §3.1, Thm 3.1).
//               Axpby   y_i = fl(fl(beta y_i) + fl(alpha x_e)):  |err| <= gamma_2 (|alpha||x_e| + |beta||y_i|)
//                       (complex: each product sqrt(2) gamma_2 |a||b| (Higham Lemma 3.5), one add:
//                       <= sqrt(2) gamma_3 (...)); a duplicated index applies it once per entry.
//               Rot     the same shape: gamma_2 (|c||x| + |s||y|) (complex sqrt(2) gamma_3).
//               SpVV    each term passes through at most k + 1 roundings (its product, then at most
//                       k additions: free axis, accumulator, partitions), k = nnz:
//                       |err| <= gamma_{k+1} sum |x_e||y_i| (complex sqrt(2) gamma_{k+2}).
//               Gather / Scatter move bits (DMA of fp32 words, no conversion): exact for every type.
//             docs/trnsparse.md derives them; tests/trnsparse/test_trnsparse_spvec_engine.cpp checks
//             them two-sided against a long-double loop.
// Limits      Arithmetic in fp32: R_32F and C_32F only (R_64F / C_64F Axpby, Rot, SpVV are exact
//             slice-pair dots of the segmented kernel, spvec_fp64.cpp). A scattered x pays one DMA
//             descriptor per entry (indirect DMA moves one value per descriptor; the plan prints
//             the count); y of 2^31 - 1 values or more moves one dma_copy per run of consecutive
//             indices (indirect DMA indices are int32).
#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "generic_detail.hpp"
#include "generic_host.hpp"
#include "spvec_engine.hpp"
#include "trn/core/spmd.hpp"
#include "trn/tile/complex.hpp"

namespace trn::sparse {

namespace {

std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

constexpr std::int64_t kFree = 512;  // most values per partition of a chunk
// A chunk whose keys run in stretches averaging fewer values than this moves by indirect DMA (one
// descriptor per value, two instructions per part) instead of one dma_copy per stretch.
constexpr std::int64_t kMinRun = 16;

// The call's arrays as fp32 words, and the entries' positions in y (index - base).
struct VecCall {
  const SpVecRef* x = nullptr;
  float* xv = nullptr;               // x.values
  float* y = nullptr;                // the dense vector
  const void* indices = nullptr;     // x.indices
  bool i64 = false;                  // x.index_type == i64
  std::int64_t base = 0;             // the index base
  // Entry e's position in y (read from x.indices each time: no per-call array of nnz positions).
  std::int64_t position(std::int64_t e) const {
    return (i64 ? static_cast<const std::int64_t*>(indices)[e] : std::int64_t{static_cast<const std::int32_t*>(indices)[e]}) - base;
  }
  std::int64_t w = 1;                // fp32 words per value
  bool indirect = false;             // y's rows fit an int32 index: scattered moves by indirect DMA
  std::int64_t descriptors = 0;      // DMA instructions issued (the plan prints them)
  std::int64_t indirect_rows = 0;    // values moved by indirect DMA (one descriptor each)
  std::int64_t chunks = 0;
  Tile idx;                          // SBUF int32 [pmax, 2 kFree]: a part's index words
};

// The words [first, first + len) of a flat fp32 array as one DMA endpoint (one partition), and
// `rows` rows of `width` words from word `first`.
Tile hbm_words(float* base, std::int64_t first, std::int64_t rows, std::int64_t width) {
  return HbmTensor::wrap(base + first, DType::f32, {rows, width}).tile(0, static_cast<std::int32_t>(rows), 0, width);
}

// int32 index words in HBM for an indirect DMA: list position q's key is words[q * step] - base
// (step 2: the low words of int64 indices, exact for keys below 2^31).
struct IndexWords {
  const std::int32_t* words = nullptr;
  std::int64_t step = 1, base = 0;
};

// One chunk: list positions [q0, q0 + L) of `list` laid out as [rows, cols]; x_words / y_words: the
// list's entry numbers / positions as index words (null: no indirect DMA for that side). A null list
// is every entry in storage order (list position q is entry q): no list is built for it.
struct Chunk {
  const std::vector<std::int64_t>* list = nullptr;
  std::int64_t q0 = 0, L = 0, cols = 1;
  std::int32_t rows = 0;
  IndexWords x_words{}, y_words{};
  std::int64_t entry(std::int64_t q) const { return list != nullptr ? (*list)[z(q)] : q; }
};

// A list's index words (ListIndex::of): in storage order (every entry once), y's are x.indices
// themselves (base: the index base) and x's are not needed (one run); otherwise both are built here
// by the host's index analysis as int32 arrays, base 0.
struct ListIndex {
  std::vector<std::int32_t> entries, positions;
  IndexWords x, y;
};

// Moves between the tile t and the HBM array `base` at word key(q) * w for each list position q of
// the chunk: one descriptor per run of consecutive keys within a partition; a chunk whose keys are
// all consecutive moves as full rows plus a tail (two descriptors).
// Indirect DMA of a chunk (NeuronCore::dma_gather / dma_scatter): its index words loaded into the
// index tile `idx` by one contiguous DMA per part (full rows, tail row), then one indirect DMA per
// part, one descriptor per value (w fp32 words: a row of the table `base` of table_rows rows).
// Scatter writes in storage order, so a position stored twice keeps its last entry's value.
void move_indirect(NeuronCore& nc, VecCall& c, const Chunk& ch, const Tile& t, float* base, std::int64_t table_rows,
                   IndexWords words, bool to_hbm) {
  const Tile table = hbm_words(base, 0, table_rows, c.w);
  const std::int32_t full = static_cast<std::int32_t>(ch.L / ch.cols);
  const std::int64_t tail = ch.L - full * ch.cols, step = words.step;
  auto part = [&](std::int32_t p0, std::int32_t np, std::int64_t n) {
    auto* first = const_cast<std::int32_t*>(words.words) + (ch.q0 + p0 * ch.cols) * step;
    const Tile loaded = c.idx.rows(p0, np).cols(0, n * step);
    nc.dma_copy(loaded, HbmTensor::wrap(first, DType::i32, {np, ch.cols * step}).tile(0, np, 0, n * step));
    const Tile index = step == 1 ? loaded : loaded.slice(0, 0, n, step);
    const Tile on_chip = t.rows(p0, np).cols(0, n * c.w);
    if (to_hbm)
      nc.dma_scatter(table, on_chip, index, words.base);
    else
      nc.dma_gather(on_chip, table, index, words.base);
    c.descriptors += 2;
    c.indirect_rows += np * n;
  };
  if (full > 0) part(0, full, ch.cols);
  if (tail > 0) part(full, 1, tail);
}

// The chunk's list positions whose key does not follow its predecessor's, counted until move_chunk's
// choice is made: at `enough` breaks (at least one, and breaks + 1 > L / kMinRun) the chunk is
// neither one run nor runs long enough for copies, so the rest of a scattered chunk is not scanned
// (host work only).
template <class Key>
std::int64_t key_breaks(const Chunk& ch, Key key) {
  const std::int64_t enough = std::max<std::int64_t>(1, ch.L / kMinRun);
  std::int64_t breaks = 0;
  for (std::int64_t q = ch.q0 + 1; q < ch.q0 + ch.L && breaks < enough; ++q) breaks += key(q) != key(q - 1) + 1 ? 1 : 0;
  return breaks;
}

// breaks: key_breaks(ch, key), computed by the caller (which knows when the keys are one run or an
// array it can scan directly). Only two facts are used: breaks == 0 (one run) and whether
// (breaks + 1) kMinRun > L (indirect DMA).
template <class Key>
void move_chunk(NeuronCore& nc, VecCall& c, const Chunk& ch, const Tile& t, float* base, Key key, std::int64_t breaks,
                bool to_hbm, IndexWords words = {}, std::int64_t table_rows = 0) {
  auto move = [&](const Tile& on_chip, const Tile& hbm) {
    if (to_hbm)
      nc.dma_copy(hbm, on_chip);
    else
      nc.dma_copy(on_chip, hbm);
    ++c.descriptors;
  };
  const std::int64_t w = c.w, first = key(ch.q0);
  const bool one_run = breaks == 0;
  if (!one_run && words.words != nullptr && (breaks + 1) * kMinRun > ch.L) {
    move_indirect(nc, c, ch, t, base, table_rows, words, to_hbm);
    return;
  }
  if (one_run) {
    const std::int32_t full = static_cast<std::int32_t>(ch.L / ch.cols);
    const std::int64_t tail = ch.L - full * ch.cols;
    if (full > 0) move(t.rows(0, full).cols(0, ch.cols * w), hbm_words(base, first * w, full, ch.cols * w));
    if (tail > 0) move(t.rows(full, 1).cols(0, tail * w), hbm_words(base, (first + full * ch.cols) * w, 1, tail * w));
    return;
  }
  for (std::int32_t p = 0; p < ch.rows; ++p) {
    const std::int64_t a = ch.q0 + p * ch.cols, b = std::min(ch.q0 + ch.L, a + ch.cols);
    for (std::int64_t q = a; q < b;) {
      std::int64_t len = 1;
      while (q + len < b && key(q + len) == key(q) + len) ++len;
      move(t.rows(p, 1).cols((q - a) * w, len * w), hbm_words(base, key(q) * w, 1, len * w));
      q += len;
    }
  }
}

// The chunk's x values (keys: entry numbers; storage order: one run) and y values (keys: positions;
// storage order: the breaks counted straight down x.indices).
void move_x(NeuronCore& nc, VecCall& c, const Chunk& ch, const Tile& t, bool to_hbm) {
  const auto key = [&](std::int64_t q) { return ch.entry(q); };
  move_chunk(nc, c, ch, t, c.xv, key, ch.list != nullptr ? key_breaks(ch, key) : 0, to_hbm, ch.x_words, c.x->nnz);
}
void move_y(NeuronCore& nc, VecCall& c, const Chunk& ch, const Tile& t, bool to_hbm) {
  const auto key = [&](std::int64_t q) { return c.position(ch.entry(q)); };
  const auto stored = [&](std::int64_t q) { return c.position(q); };
  move_chunk(nc, c, ch, t, c.y, key, ch.list != nullptr ? key_breaks(ch, key) : key_breaks(ch, stored), to_hbm,
             ch.y_words, c.x->size);
}

// The index words of `list` (entry numbers; null: every entry in storage order).
ListIndex list_index(const VecCall& c, const std::vector<std::int64_t>* list) {
  ListIndex li;
  if (!c.indirect) return li;
  if (list == nullptr) {
    li.y = {static_cast<const std::int32_t*>(c.x->indices), c.x->index_type == IndexType::i64 ? 2 : 1,
            generic_detail::base_value(c.x->base)};
    return li;
  }
  li.entries.resize(list->size());
  li.positions.resize(list->size());
  for (std::size_t q = 0; q < list->size(); ++q) {
    li.entries[q] = static_cast<std::int32_t>((*list)[q]);
    li.positions[q] = static_cast<std::int32_t>(c.position((*list)[q]));
  }
  li.x = {li.entries.data(), 1, 0};
  li.y = {li.positions.data(), 1, 0};
  return li;
}

// Calls f(chunk) for the chunks of at most P x kFree of n list positions (li: the list's index words).
template <class F>
void for_each_chunk_of(const std::vector<std::int64_t>* list, std::int64_t n, std::int32_t P, F&& f,
                       const ListIndex* li = nullptr) {
  for (std::int64_t q0 = 0; q0 < n; q0 += P * kFree) {
    Chunk ch{.list = list, .q0 = q0, .L = std::min<std::int64_t>(P * kFree, n - q0)};
    if (li != nullptr) {
      ch.x_words = li->x;
      ch.y_words = li->y;
    }
    ch.cols = (ch.L + P - 1) / P;
    ch.rows = static_cast<std::int32_t>((ch.L + ch.cols - 1) / ch.cols);
    f(ch);
  }
}
// x's entries in duplicate-free rounds (duplicate_free_rounds): no list when every position is
// distinct (the common case: one round in storage order, the null list), else the rounds' lists.
struct Rounds {
  std::vector<std::vector<std::int64_t>> lists;
  std::int64_t nnz = 0;
  std::int64_t count() const { return lists.empty() ? (nnz > 0 ? 1 : 0) : static_cast<std::int64_t>(lists.size()); }
  // f(list, its length) per round in order.
  template <class F>
  void each(F&& f) const {
    if (lists.empty() && nnz > 0) f(static_cast<const std::vector<std::int64_t>*>(nullptr), nnz);
    for (const auto& l : lists) f(&l, static_cast<std::int64_t>(l.size()));
  }
};

// `count` words of a [P, n] tile, every `stride`-th from word `first` (a value plane).
Tile plane(const Tile& t, std::int64_t first, std::int64_t count, std::int64_t stride) {
  return t.slice(t.ndim - 1, first, count, stride);
}

// A complex scalar as two fp32 values (the C API loaded it from the value type: exact).
struct Coef {
  float re = 0, im = 0;
};
Coef coef(Scalar s) { return {static_cast<float>(s.real()), static_cast<float>(s.imag())}; }

// The SBUF tiles of a launch: two value tiles and three plane temporaries.
struct VecTiles {
  Tile a, b, t1, t2, t3;
  Tile c;  // a third value tile (Axpby's dense pass)
};
VecTiles alloc_vec_tiles(AllocScope& sb, std::int32_t P, std::int64_t w, VecCall& c) {
  c.idx = sb.alloc(DType::i32, P, {2 * kFree}, "index words");
  return {sb.alloc(DType::f32, P, {kFree * w}, "x values"), sb.alloc(DType::f32, P, {kFree * w}, "y values"),
          sb.alloc(DType::f32, P, {kFree}, "temp"), sb.alloc(DType::f32, P, {kFree}, "temp"),
          sb.alloc(DType::f32, P, {kFree}, "temp"), Tile{}};
}

// dst = k src on a chunk's [rows, cols w] view (dst may be src). Complex:
// (kr sr - ki si, kr si + ki sr), each product and the add / subtract one fp32 rounding.
void scale(NeuronCore& nc, const VecTiles& w, const Chunk& ch, std::int64_t vw, const Tile& dst, const Tile& src, Coef k) {
  if (vw == 1) {
    nc.tensor_scalar(dst, src, AluOp::multiply, k.re);
    return;
  }
  const Tile sr = plane(src, 0, ch.cols, 2), si = plane(src, 1, ch.cols, 2);
  const Tile t1 = w.t1.rows(0, ch.rows).cols(0, ch.cols), t2 = w.t2.rows(0, ch.rows).cols(0, ch.cols),
             t3 = w.t3.rows(0, ch.rows).cols(0, ch.cols);
  nc.tensor_scalar(t1, sr, AluOp::multiply, k.re);
  nc.tensor_scalar(t3, si, AluOp::multiply, k.im);
  nc.tensor_tensor(t1, t1, t3, AluOp::subtract);  // re
  nc.tensor_scalar(t2, si, AluOp::multiply, k.re);
  nc.tensor_scalar(t3, sr, AluOp::multiply, k.im);
  nc.tensor_tensor(t2, t2, t3, AluOp::add);  // im
  nc.tensor_copy(plane(dst, 0, ch.cols, 2), t1);
  nc.tensor_copy(plane(dst, 1, ch.cols, 2), t2);
}

// The dense pass y = beta y over all `size` values: chunks of consecutive positions, in the three
// value tiles by turns (a chunk's load need not wait for the previous chunk's store).
void scale_dense(NeuronCore& nc, VecCall& c, const VecTiles& w, std::int32_t P, Coef beta) {
  const Tile turns[3] = {w.b, w.a, w.c};
  std::int64_t turn = 0;
  for_each_chunk_of(nullptr, c.x->size, P, [&](const Chunk& ch) {
    const Tile& buf = turns[turn++ % 3];
    const Tile t = buf.rows(0, ch.rows).cols(0, ch.cols * c.w);
    auto at = [&](std::int64_t q) { return q; };
    if (ch.rows * ch.cols > ch.L) nc.memset(t, 0.0f);  // the tail row's unused words: never stored, kept defined
    move_chunk(nc, c, ch, buf, c.y, at, 0, false);
    scale(nc, w, ch, c.w, t, t, beta);
    move_chunk(nc, c, ch, buf, c.y, at, 0, true);
    ++c.chunks;
  });
}

// Loads a chunk's x and gathered y (zero padding where the tail row is short).
void load_pair(NeuronCore& nc, VecCall& c, const VecTiles& w, const Chunk& ch) {
  if (ch.rows * ch.cols > ch.L) {
    nc.memset(w.a.rows(0, ch.rows).cols(0, ch.cols * c.w), 0.0f);
    nc.memset(w.b.rows(0, ch.rows).cols(0, ch.cols * c.w), 0.0f);
  }
  move_x(nc, c, ch, w.a, false);
  move_y(nc, c, ch, w.b, false);
}

void axpby_kernel(NeuronCore& nc, VecCall& c, Coef alpha, Coef beta, const Rounds& rounds) {
  const std::int32_t P = nc.hw().pmax;
  AllocScope sb(nc.sbuf());
  VecTiles w = alloc_vec_tiles(sb, P, c.w, c);
  w.c = sb.alloc(DType::f32, P, {kFree * c.w}, "y values, third turn");
  scale_dense(nc, c, w, P, beta);
  rounds.each([&](const std::vector<std::int64_t>* list, std::int64_t n) {
    const ListIndex li = list_index(c, list);
    for_each_chunk_of(list, n, P, [&](const Chunk& ch) {
      load_pair(nc, c, w, ch);
      const Tile xa = w.a.rows(0, ch.rows).cols(0, ch.cols * c.w), yb = w.b.rows(0, ch.rows).cols(0, ch.cols * c.w);
      scale(nc, w, ch, c.w, xa, xa, alpha);
      nc.tensor_tensor(yb, yb, xa, AluOp::add);
      move_y(nc, c, ch, w.b, true);
      ++c.chunks;
    }, &li);
  });
}

// X' = c X + s Y, Y' = c Y - s X on one chunk (two more value-sized temporaries: cx, sy, ...).
void rot_kernel(NeuronCore& nc, VecCall& c, Coef cc, Coef ss, const Rounds& rounds) {
  const std::int32_t P = nc.hw().pmax;
  AllocScope sb(nc.sbuf());
  const VecTiles w = alloc_vec_tiles(sb, P, c.w, c);
  const Tile u1 = sb.alloc(DType::f32, P, {kFree * c.w}, "c x"), u2 = sb.alloc(DType::f32, P, {kFree * c.w}, "s y");
  rounds.each([&](const std::vector<std::int64_t>* list, std::int64_t len) {
    const ListIndex li = list_index(c, list);
    for_each_chunk_of(list, len, P, [&](const Chunk& ch) {
      load_pair(nc, c, w, ch);
      const std::int64_t n = ch.cols * c.w;
      const Tile xa = w.a.rows(0, ch.rows).cols(0, n), yb = w.b.rows(0, ch.rows).cols(0, n);
      const Tile p = u1.rows(0, ch.rows).cols(0, n), q = u2.rows(0, ch.rows).cols(0, n);
      scale(nc, w, ch, c.w, p, xa, cc);               // c x
      scale(nc, w, ch, c.w, q, yb, ss);               // s y
      scale(nc, w, ch, c.w, yb, yb, cc);              // c y (y no longer needed)
      scale(nc, w, ch, c.w, xa, xa, ss);              // s x
      nc.tensor_tensor(yb, yb, xa, AluOp::subtract);  // y' = c y - s x
      nc.tensor_tensor(xa, p, q, AluOp::add);         // x' = c x + s y
      move_x(nc, c, ch, w.a, true);
      move_y(nc, c, ch, w.b, true);
      ++c.chunks;
    }, &li);
  });
}

// sum op(x_e) y(pos_e) per plane: per-partition partial sums, then the partition fold.
void spvv_kernel(NeuronCore& nc, VecCall& c, bool conj_x, float* out) {
  const std::int32_t P = nc.hw().pmax;
  AllocScope sb(nc.sbuf());
  const VecTiles w = alloc_vec_tiles(sb, P, c.w, c);
  const std::int64_t planes = c.w;  // 1 or 2
  const Tile acc = sb.alloc(DType::f32, P, {planes}, "partition accumulator");
  const Tile part = sb.alloc(DType::f32, P, {planes}, "chunk partial");
  const Tile row = sb.alloc(DType::f32, 1, {P * planes}, "partials as rows");
  const Tile res = sb.alloc(DType::f32, 1, {planes}, "result");
  nc.memset(acc, 0.0f);
  const ListIndex li = list_index(c, nullptr);
  for_each_chunk_of(nullptr, c.x->nnz, P, [&](const Chunk& ch) {
    load_pair(nc, c, w, ch);
    const Tile xa = w.a.rows(0, ch.rows).cols(0, ch.cols * c.w), yb = w.b.rows(0, ch.rows).cols(0, ch.cols * c.w);
    const Tile t1 = w.t1.rows(0, ch.rows).cols(0, ch.cols), t2 = w.t2.rows(0, ch.rows).cols(0, ch.cols),
               t3 = w.t3.rows(0, ch.rows).cols(0, ch.cols);
    const Tile pr = part.rows(0, ch.rows);
    if (planes == 1) {
      nc.tensor_tensor(t1, xa, yb, AluOp::multiply);
      nc.tensor_reduce(pr.cols(0, 1), t1, AluOp::add);
    } else {
      const Tile xr = plane(xa, 0, ch.cols, 2), xi = plane(xa, 1, ch.cols, 2);
      const Tile yr = plane(yb, 0, ch.cols, 2), yi = plane(yb, 1, ch.cols, 2);
      if (conj_x) nc.tensor_scalar(xi, xi, AluOp::multiply, -1.0f);
      trn::tile::complex_multiply(nc, {t1, t2}, {xr, xi}, {yr, yi}, t3);  // (t1, t2) = x y
      nc.tensor_reduce(pr.cols(0, 1), t1, AluOp::add);
      nc.tensor_reduce(pr.cols(1, 1), t2, AluOp::add);
    }
    nc.tensor_tensor(acc.rows(0, ch.rows), acc.rows(0, ch.rows), pr, AluOp::add);
    ++c.chunks;
  }, &li);
  const std::int32_t blk = nc.hw().vector_transpose_max;
  for (std::int64_t k = 0; k < planes; ++k) {
    for (std::int32_t b = 0; b < P; b += blk) {
      const std::int32_t n = std::min(blk, P - b);
      nc.nc_transpose(row.cols(k * P + b, n), acc.rows(b, n).cols(k, 1), Engine::vector);
    }
    nc.tensor_reduce(res.cols(k, 1), row.cols(k * P, P), AluOp::add);
  }
  nc.dma_copy(hbm_words(out, 0, 1, planes), res);
}

VecCall vec_call(const SpVecRef& x, void* y) {
  VecCall c;
  c.x = &x;
  c.xv = static_cast<float*>(x.values);
  c.y = static_cast<float*>(y);
  c.w = static_cast<std::int64_t>(value_bytes(x.value) / 4);
  c.indices = x.indices;
  c.i64 = x.index_type == IndexType::i64;
  c.base = generic_detail::base_value(x.base);
  // Indirect DMA takes int32 row numbers (positions < size, entry numbers < nnz <= size).
  c.indirect = x.size < std::numeric_limits<std::int32_t>::max();
  return c;
}

PlanFacts engine_plan(const char* routine, const SpVecRef& x, const VecCall& c, std::int64_t rounds, double flops,
                      bool moves, double ns) {
  PlanFacts p;
  p.routine = routine;
  p.shape = "size=" + std::to_string(x.size) + " nnz=" + std::to_string(x.nnz);
  p.variant = std::string(value_name(x.value)) + ": entries in [pmax, <=" + std::to_string(kFree) + "] chunks, " +
              std::to_string(c.chunks) + " tile steps, " + std::to_string(rounds) + " duplicate-free round(s), " +
              std::to_string(c.descriptors) + " DMA instructions (one per run of consecutive indices, or an index load and an "
              "indirect DMA per part of a scattered chunk: " + std::to_string(c.indirect_rows) + " values moved indirectly)";
  p.ops = std::to_string(static_cast<long long>(flops)) + " flops";
  p.engines = moves ? "DMA (gathers / scatters of fp32 words: bit moves)" : "DMA (gathers / scatters), VectorE (fp32 arithmetic)";
  p.predicted_ns = ns;
  p.why = moves ? "data movement only: every value type moves as fp32 words"
                : "fp32 values: elementwise work on VectorE over 128 partitions";
  return p;
}

// Runs kernel(nc) as one launch and fills the report (plan included).
template <class K>
void run_vec(const Settings& s, const char* routine, const SpVecRef& x, VecCall& c, std::int64_t rounds, double flops,
             bool moves, CallReport* report, K kernel) {
  LaunchResult r;
  if (x.nnz > 0 || (!moves && x.size > 0)) r = launch(s.launch_config(), [&](NeuronCore& nc) { kernel(nc); });
  if (report == nullptr) return;
  const bool wanted = report->plans_wanted;
  finish_report(*report, std::move(r.trace), ReportSettings::of(s));
  report->blocks = c.chunks;
  if (wanted) report->add_plan(engine_plan(routine, x, c, rounds, flops, moves, report->profile.total_ns).print());
}

}  // namespace

namespace {
constexpr std::int64_t kBitmapPositions = std::int64_t{1} << 27;  // 16 MiB of bitmap per thread at most

// True when no position occurs twice (positions >= 0): one bit per position in a per-thread bitmap,
// cleared again word by word afterwards, so a call costs O(nnz) host work, not O(size) or a sort.
bool all_distinct(const std::vector<std::int64_t>& pos) {
  if (pos.empty()) return true;
  thread_local std::vector<std::uint64_t> seen;
  const std::int64_t top = *std::max_element(pos.begin(), pos.end());
  if (top >= kBitmapPositions) {  // a vector this long: sort a copy rather than keep a large bitmap
    std::vector<std::int64_t> sorted(pos);
    std::sort(sorted.begin(), sorted.end());
    return std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
  }
  if (seen.size() <= z(top / 64)) seen.resize(z(top / 64 + 1), 0);
  // The bitmap's words through a plain pointer and the positions as unsigned (>= 0): shifts and masks,
  // no thread-local lookup or signed division per entry.
  std::uint64_t* const words = seen.data();
  const std::int64_t* const p = pos.data();
  const std::size_t n = pos.size();
  std::size_t e = 0;
  bool distinct = true;
  for (; e < n; ++e) {
    const auto u = static_cast<std::uint64_t>(p[e]);
    const std::uint64_t bit = std::uint64_t{1} << (u & 63);
    if ((words[u >> 6] & bit) != 0) {
      distinct = false;
      break;
    }
    words[u >> 6] |= bit;
  }
  for (std::size_t k = 0; k < e; ++k) words[static_cast<std::uint64_t>(p[k]) >> 6] = 0;
  return distinct;
}
}  // namespace

// spvec_engine.hpp.
std::vector<std::vector<std::int64_t>> duplicate_free_rounds(const std::vector<std::int64_t>& pos) {
  if (all_distinct(pos)) {  // the common case: one round, every entry in storage order
    std::vector<std::vector<std::int64_t>> rounds(pos.empty() ? 0 : 1, std::vector<std::int64_t>(pos.size()));
    if (!pos.empty()) std::iota(rounds[0].begin(), rounds[0].end(), 0);
    return rounds;
  }
  std::vector<std::int64_t> order(pos.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return pos[z(a)] < pos[z(b)]; });
  std::vector<std::int64_t> round(pos.size(), 0);
  for (std::size_t k = 1; k < order.size(); ++k)
    if (pos[z(order[k])] == pos[z(order[k - 1])]) round[z(order[k])] = round[z(order[k - 1])] + 1;
  const std::int64_t n = round.empty() ? 0 : *std::max_element(round.begin(), round.end()) + 1;
  std::vector<std::vector<std::int64_t>> rounds(z(n));
  for (std::size_t e = 0; e < round.size(); ++e) rounds[z(round[e])].push_back(static_cast<std::int64_t>(e));
  return rounds;
}

namespace {
// x's positions (pos[e] = x.indices[e] - base) in their duplicate-free rounds.
Rounds rounds_of(const SpVecRef& x) {
  std::vector<std::int64_t> pos(z(x.nnz));
  generic_detail::for_each_spvec(x, [p = pos.data()](std::int64_t i, std::int64_t e) { p[e] = i; });
  Rounds r;
  r.nnz = x.nnz;
  if (!all_distinct(pos)) r.lists = duplicate_free_rounds(pos);
  return r;
}
}  // namespace

bool spvec_on_engines(Value v) { return v == Value::f32 || v == Value::c32; }

void axpby_engines(const Settings& s, Scalar alpha, const SpVecRef& x, Scalar beta, void* y, CallReport* report) {
  VecCall c = vec_call(x, y);
  const Rounds rounds = rounds_of(x);
  const double per = c.w == 2 ? 8.0 : 2.0;
  run_vec(s, "axpby", x, c, rounds.count(), per * static_cast<double>(x.size + x.nnz), false, report, [&](NeuronCore& nc) { axpby_kernel(nc, c, coef(alpha), coef(beta), rounds); });
}

void rot_engines(const Settings& s, Scalar cc, Scalar sn, const SpVecRef& x, void* y, CallReport* report) {
  VecCall c = vec_call(x, y);
  const Rounds rounds = rounds_of(x);
  const double per = c.w == 2 ? 16.0 : 6.0;
  run_vec(s, "rot", x, c, rounds.count(), per * static_cast<double>(x.nnz), false, report,
          [&](NeuronCore& nc) { rot_kernel(nc, c, coef(cc), coef(sn), rounds); });
}

Scalar spvv_engines(const Settings& s, GOp opX, const SpVecRef& x, const void* y, CallReport* report) {
  VecCall c = vec_call(x, const_cast<void*>(y));
  float out[2] = {0.0f, 0.0f};
  const double per = c.w == 2 ? 8.0 : 2.0;
  run_vec(s, "spvv", x, c, 1, per * static_cast<double>(x.nnz), false, report,
          [&](NeuronCore& nc) { spvv_kernel(nc, c, opX == GOp::C, out); });
  return {out[0], out[1]};
}

void move_engines(const Settings& s, bool to_x, const SpVecRef& x, void* y, CallReport* report) {
  VecCall c = vec_call(x, y);
  run_vec(s, to_x ? "gather" : "scatter", x, c, 1, 0.0, true, report, [&](NeuronCore& nc) {
    const std::int32_t P = nc.hw().pmax;
    AllocScope sb(nc.sbuf());
    const Tile t = sb.alloc(DType::f32, P, {kFree * c.w}, "values");
    c.idx = sb.alloc(DType::i32, P, {2 * kFree}, "index words");
    const ListIndex li = list_index(c, nullptr);
    for_each_chunk_of(nullptr, x.nnz, P, [&](const Chunk& ch) {
      if (to_x) {
        move_y(nc, c, ch, t, false);
        move_x(nc, c, ch, t, true);
      } else {
        move_x(nc, c, ch, t, false);
        move_y(nc, c, ch, t, true);
      }
      ++c.chunks;
    }, &li);
  });
}

namespace {

// Zero-fill tiles: at most kZeroWords fp32 words per partition (8 KiB), one memset reused by every store.
constexpr std::int64_t kZeroWords = 2048;

// Stores the zero tile z over words [0, line_words) of `lines` lines `stride_words` apart from base:
// a gap-free y (stride == line length) as one flat run cut into [<=P, F] rows (F = the run spread
// over P partitions, at most kZeroWords), else groups of P lines by column blocks of kZeroWords words
// (one strided descriptor each). Returns the descriptors issued.
std::int64_t store_zeros(NeuronCore& nc, const Tile& z, float* base, std::int64_t lines, std::int64_t line_words,
                         std::int64_t stride_words) {
  const std::int32_t P = nc.hw().pmax;
  std::int64_t descriptors = 0;
  if (stride_words == line_words) {
    const std::int64_t total = lines * line_words;
    const std::int64_t F = std::clamp<std::int64_t>((total + P - 1) / P, 1, kZeroWords), full = total / F;
    for (std::int64_t r0 = 0; r0 < full; r0 += P, ++descriptors) {
      const auto np = static_cast<std::int32_t>(std::min<std::int64_t>(P, full - r0));
      nc.dma_copy(hbm_words(base, r0 * F, np, F), z.rows(0, np).cols(0, F));
    }
    if (total > full * F) {
      nc.dma_copy(hbm_words(base, full * F, 1, total - full * F), z.rows(0, 1).cols(0, total - full * F));
      ++descriptors;
    }
    return descriptors;
  }
  for (std::int64_t l0 = 0; l0 < lines; l0 += P)
    for (std::int64_t c0 = 0; c0 < line_words; c0 += kZeroWords, ++descriptors) {
      const auto np = static_cast<std::int32_t>(std::min<std::int64_t>(P, lines - l0));
      const std::int64_t f = std::min(kZeroWords, line_words - c0);
      const Tile hbm = HbmTensor::wrap(base + l0 * stride_words + c0, DType::f32, {np, f}, {stride_words, 1}).tile(0, np, 0, f);
      nc.dma_copy(hbm, z.rows(0, np).cols(0, f));
    }
  return descriptors;
}

}  // namespace

void fill_and_scatter_engines(const Settings& s, const DenseLines& y, const SpVecRef& x, CallReport* report,
                              const std::vector<std::int64_t>* entries) {
  VecCall c = vec_call(x, y.data);
  std::int64_t zero_descriptors = 0;
  LaunchResult r;
  if (y.lines > 0 && y.line_len > 0)
    r = launch(s.launch_config(), [&](NeuronCore& nc) {
      const std::int32_t P = nc.hw().pmax;
      AllocScope sb(nc.sbuf());
      const Tile zeros = sb.alloc(DType::f32, P, {kZeroWords}, "zeros");
      const Tile t = sb.alloc(DType::f32, P, {kFree * c.w}, "values");
      c.idx = sb.alloc(DType::i32, P, {2 * kFree}, "index words");
      nc.memset(zeros, 0.0f);  // +0.0f: every value type's zero is all-zero bytes
      zero_descriptors = store_zeros(nc, zeros, c.y, y.lines, y.line_len * c.w, y.stride * c.w);
      std::vector<std::int64_t> all;
      if (entries == nullptr) {
        all.resize(z(x.nnz));
        std::iota(all.begin(), all.end(), 0);
      }
      const std::vector<std::int64_t>& list = entries != nullptr ? *entries : all;
      const ListIndex li = list_index(c, entries == nullptr ? nullptr : &list);
      for_each_chunk_of(&list, static_cast<std::int64_t>(list.size()), P, [&](const Chunk& ch) {
        move_x(nc, c, ch, t, false);
        move_y(nc, c, ch, t, true);  // storage order: a position stored twice keeps its last entry
        ++c.chunks;
      }, &li);
    });
  if (report == nullptr) return;
  const bool wanted = report->plans_wanted;
  finish_report(*report, std::move(r.trace), ReportSettings::of(s));
  report->blocks = c.chunks;
  if (!wanted) return;
  PlanFacts p;
  p.routine = "sparse2dense";
  p.shape = std::to_string(y.lines) + " lines of " + std::to_string(y.line_len) + " (stride " + std::to_string(y.stride) +
            "), entries=" + std::to_string(entries != nullptr ? static_cast<std::int64_t>(entries->size()) : x.nnz);
  p.variant = std::string(value_name(x.value)) + ": one VectorE memset of a [pmax, " + std::to_string(kZeroWords) +
              "] zero tile stored by " + std::to_string(zero_descriptors) + " DMA descriptors, then the entries in " +
              std::to_string(c.chunks) + " [pmax, <=" + std::to_string(kFree) + "] chunks scattered by " +
              std::to_string(c.descriptors) + " DMA instructions (one per run of consecutive positions, or an index load and "
              "an indirect DMA per part of a scattered chunk: " + std::to_string(c.indirect_rows) + " values moved indirectly)";
  p.ops = "0 flops";
  p.engines = "VectorE (one memset), DMA (zero stores, value loads and scatters of fp32 words: bit moves)";
  p.predicted_ns = report->profile.total_ns;
  p.why = "data movement only: the dense matrix is written once by DMA, no host round trip";
  report->add_plan(p.print());
}

}  // namespace trn::sparse
