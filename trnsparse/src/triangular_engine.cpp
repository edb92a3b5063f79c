// fp32 and complex-fp32 (R_32F, C_32F) sparse triangular solves (SpSV / SpSM) on the emulated
// engines: one tile step per chunk of a level (docs/trnsparse.md "Sparse triangular solves"). Both
// types take the blocked schedule (triangular_blocked.cpp) when blocked_preferred says so; this is
// the level-set path of the rest, of Schedule::level_sets, and of the Inf / NaN fallback.
//
// Algorithm   The analysis (triangular.cpp) groups op(A)'s rows into the dependency levels of
//             Anderson & Saad (1989); the rows of a level depend only on rows of earlier levels.
//             One launch (one program, one core) runs the levels in order; a level's rows are cut
//             into chunks of pmax rows (partition p = the chunk's p-th row, rows ascending), and
//             each chunk is one tile step for a block of mb <= 64 right-hand sides (block_shape).
//             The host's index pass (pattern only, once per solve) writes each chunk's int32 index
//             words: per row its work-vector row i and its diagonal's value number, per product
//             slice the columns j of its entries and their value numbers (short rows padded with
//             the zero rows below). Every move is then one indirect DMA (NeuronCore::dma_gather /
//             dma_scatter, one descriptor per moved row) after one DMA of the index words:
//               B  [P, mb w]    <- rows i of the work vector (their op(B) values); conj (opB = C)
//                                  and alpha on VectorE
//               X  [P, K mb w]  <- y(j, :) for the entries (i, j) of row i (the work vector's zero
//                                  row n where a row is short)
//               Av [P, K w]     <- the entries' values a_ij (the value table's zero entry nnz where
//                                  a row is short; conj for op C on VectorE)
//               s(:, c) = sum_k Av[:, k] X[:, k, c]   VectorE tensor_tensor multiply, tensor_reduce add
//                                  (sequential, left to right: the row's entries in order), per column
//               y(i, :) = (B - s) / a_ii               VectorE subtract, divide (unit diagonal: no divide)
//               the chunk's y scattered back to rows i
//             w = 1 (real) or 2 (complex, interleaved re/im; products as (ar xr - ai xi, ar xi + ai xr),
//             the division as r conj(d) / (dr^2 + di^2), every operation one fp32 rounding on VectorE).
//             K is the longest row of the chunk's strict triangle, taken in slices of
//             min(1024, longest row) entries (partial sums added in slice order; the pattern alone
//             fixes them, so SpSM's column c has SpSV's bits). The work vector (fp32, in column
//             blocks, each n + 1 rows row-major, the last row zero) is op(B)'s values copied in by
//             the host (data movement) and C's values copied out after the launch, so B == C (in
//             place) is safe; the value table is A's values and one zero entry, copied the same way.
//             The tiles hold the same words as the earlier one-descriptor-per-run DMAs (s18/solve:
//             the bits are unchanged, the instructions per level fall from ~6 per row to ~10).
// Engines     DMA (gathers, scatters), VectorE. One program: deterministic for any host thread or
//             core count (num_cores > 1 leaves the other cores idle: the levels are a chain).
// Accuracy    (u = 2^-24, k = the most off-diagonal entries of a row, gamma_j = j u / (1 - j u);
//             Higham, ASNA 2nd ed., Thm 8.5 and §3.1): row i is y_i = fl((fl(alpha b_i) - s_i) / t_ii),
//             s_i a recursively summed dot product of length k_i, so y_hat solves
//             (T + dT) y_hat = fl(alpha b) with |dT| <= gamma_{k+2} |T|, whence
//               |y_hat - y| <= gamma_{k+3} M(T)^-1 (|T| |y_hat| + |alpha b|)                   (real)
//             and the same with sqrt(2) gamma_{k+6} for complex values (complex product sqrt(2) gamma_2,
//             division by r conj(d) / |d|^2 at most 5 roundings deep), M(T) the comparison matrix.
//             docs/trnsparse.md derives it; tests/trnsparse/test_spsv_engine.cpp checks it two-sided.
// Limits      Complex division forms dr^2 + di^2 in fp32: diagonals with |d| >= 2^63 or <= 2^-63
//             overflow or underflow there (documented choice). One DMA descriptor per moved row
//             (entry, solved row), padding included (the plan prints the count). Indices are int32:
//             n and nnz below 2^31 - 1.
#include <algorithm>
#include <array>
#include <complex>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "generic_host.hpp"
#include "scratch_buffer.hpp"
#include "triangular_replay.hpp"
#include "trn/core/report_observer.hpp"
#include "trn/core/scratch.hpp"
#include "trn/core/spmd.hpp"
#include "trn/sparse/triangular.hpp"

namespace trn::sparse {

namespace {

using generic_host::at;
std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

constexpr std::int64_t kSliceEntries = 1024;  // most entries of a row per product slice
constexpr std::int64_t kSliceWords = 16384;   // SBUF words per partition of the gathered y slice (64 KiB)
constexpr std::int64_t kBlockColumns = 64;    // most right-hand sides per pass (one pass per block)

// What the kernel reads and writes: every array as fp32 words (complex: re, im interleaved).
// The work vector holds the right-hand sides in blocks of <= kBlockColumns columns, each block
// n + 1 rows row-major (row i's mb values contiguous, row n zero: the padding of the x gathers).
struct EngineSolve {
  const TriangularAnalysis* t = nullptr;
  const float* values = nullptr;    // the value table: A's values (t->nnz of them), then one zero value
  const float* diagonal = nullptr;  // n diagonal values (SpSV_updateMatrix UPDATE_DIAGONAL) or NULL
  const std::int32_t* index = nullptr;  // the chunks' index words: pmax rows of index_width (ChunkIndex)
  std::int64_t index_width = 0;
  float* work = nullptr;            // the whole work vector: op(B) in, the solution out
  float* y = nullptr;               // the current block: (n + 1) x mb, row-major
  std::int64_t ncols = 0, mb = 1;   // all columns; the current block's
  std::int64_t slice = 1, block = 1;  // entries per product slice; columns per block (block_shape)
  int w = 1;                        // words per value
  bool conj_a = false, conj_b = false;
  float alpha_re = 1, alpha_im = 0;
  std::int64_t row_words() const { return mb * w; }
};

// Counters the plan prints.
struct EngineCounts {
  std::int64_t chunks = 0, descriptors = 0, widest = 0;
};

// One chunk of a level (rows order[q0 .. q0 + P)) and its index words: columns [col, col + 2 + 2 K)
// of the pmax x index_width index array, row p for the chunk's row p: 2 words (row i, the value
// number of a_ii: into `diagonal` when given, else into the value table), then per product slice
// [k0, k0 + kw) 2 kw words (the columns j of its entries k0 .. k0 + kw - 1, then their value
// numbers; n and nnz where the row is shorter: the zero rows).
struct ChunkIndex {
  std::int64_t q0 = 0, K = 0, col = 0;
  std::int32_t P = 0;
};

// Index arrays of at most this many words per partition stay in SBUF for the whole solve (one DMA
// before the first level, none on the levels' dependent chain); wider ones load per chunk.
constexpr std::int64_t kResidentIndexWords = 8192;

// The chunks in solve order (levels in order, each cut into chunks of <= P rows) and their index
// words (host index work on the pattern; the values are not read).
std::vector<ChunkIndex> index_chunks(const TriangularAnalysis& t, std::int32_t P, std::int64_t slice, bool diagonal_given,
                                     ScratchVector<std::int32_t>& words, std::int64_t& width) {
  std::vector<ChunkIndex> chunks;
  std::int64_t total = 0;
  for (std::int64_t l = 0; l < t.levels(); ++l)
    for (std::int64_t q = t.level_start[z(l)]; q < t.level_start[z(l) + 1]; q += P) {
      ChunkIndex c;
      c.q0 = q;
      c.P = static_cast<std::int32_t>(std::min<std::int64_t>(P, t.level_start[z(l) + 1] - q));
      for (std::int32_t p = 0; p < c.P; ++p) {
        const std::int64_t i = t.order[z(q + p)];
        c.K = std::max(c.K, t.start[z(i) + 1] - t.start[z(i)]);
      }
      c.col = total;
      total += 2 * (1 + c.K);
      chunks.push_back(c);
    }
  width = total;
  words.assign(z(P * total), 0);
  const auto n32 = static_cast<std::int32_t>(t.n), nnz32 = static_cast<std::int32_t>(t.nnz);
  for (const ChunkIndex& c : chunks) {
    for (std::int32_t p = 0; p < c.P; ++p) {
      const std::int64_t i = t.order[z(c.q0 + p)];
      std::int32_t* row = words.data() + p * total + c.col;
      row[0] = static_cast<std::int32_t>(i);
      row[1] = static_cast<std::int32_t>(diagonal_given ? i : std::max<std::int64_t>(t.diag[z(i)], 0));
      std::int32_t* at = row + 2;
      for (std::int64_t k0 = 0; k0 < c.K; k0 += slice) {
        const std::int64_t kw = std::min(slice, c.K - k0), e0 = t.start[z(i)] + k0, e1 = t.start[z(i) + 1];
        for (std::int64_t k = 0; k < kw; ++k) {
          const bool stored = e0 + k < e1;
          at[k] = stored ? static_cast<std::int32_t>(t.col[z(e0 + k)]) : n32;
          at[kw + k] = stored ? static_cast<std::int32_t>(t.src[z(e0 + k)]) : nnz32;
        }
        at += 2 * kw;
      }
    }
  }
  return chunks;
}

// Rows [r0, r0 + rows) of a flat array of `width`-word rows as `rows` partitions.
Tile value_rows(const float* base, std::int64_t r0, std::int64_t rows, std::int64_t width) {
  return HbmTensor::wrap(const_cast<float*>(base) + r0 * width, DType::f32, {rows, width})
      .tile(0, static_cast<std::int32_t>(rows), 0, width);
}
// Columns [col, col + width) of the first P rows of the pmax x index_width index words as an HBM tile.
Tile index_cols(const EngineSolve& g, std::int32_t pmax, std::int32_t P, std::int64_t col, std::int64_t width) {
  return HbmTensor::wrap(const_cast<std::int32_t*>(g.index), DType::i32, {pmax, g.index_width}).tile(0, P, col, width);
}

// The kernel's SBUF tiles (allocated once, sized for pmax rows, one block and one product slice).
struct Tiles {
  Tile av, x, p1, p2, p3, part, s, b, d, den, t1, t2, t3, head, idx;
  Tile resident;           // every chunk's index words (when resident() is true), else head / idx per chunk
  std::int32_t pmax = 0;
  std::int64_t slice = 1;  // entries per product slice
  bool resident_index = false;
  bool is_resident() const { return resident_index; }
  // Index columns [col, col + width) of the chunk's P rows: in SBUF already, or loaded into `into`.
  Tile index(NeuronCore& nc, const EngineSolve& g, const Tile& into, std::int32_t P, std::int64_t col, std::int64_t width,
             EngineCounts& n) const;
};

// The product slice (min(1024, the longest row)) depends on the pattern alone, so that a column's
// bits do not depend on how many columns are solved with it (SpSM column c == SpSV); the block
// width then keeps the gathered y slice within kSliceWords.
void block_shape(EngineSolve& g) {
  const TriangularAnalysis& t = *g.t;
  std::int64_t widest = 0;
  for (std::int64_t i = 0; i < t.n; ++i) widest = std::max(widest, t.start[z(i) + 1] - t.start[z(i)]);
  g.slice = std::max<std::int64_t>(1, std::min(kSliceEntries, widest));
  g.block = std::clamp<std::int64_t>(kSliceWords / (g.slice * g.w), 1, kBlockColumns);
}

// Complex product planes: dst = a b (dst_re, dst_im separate from the operands), VectorE.
void complex_product(NeuronCore& nc, const Tile& dre, const Tile& dim, const Tile& are, const Tile& aim, const Tile& bre,
                     const Tile& bim, const Tile& tmp) {
  nc.tensor_tensor(dre, are, bre, AluOp::multiply);
  nc.tensor_tensor(tmp, aim, bim, AluOp::multiply);
  nc.tensor_tensor(dre, dre, tmp, AluOp::subtract);
  nc.tensor_tensor(dim, are, bim, AluOp::multiply);
  nc.tensor_tensor(tmp, aim, bre, AluOp::multiply);
  nc.tensor_tensor(dim, dim, tmp, AluOp::add);
}
// `count` words of a [P, n] tile, every `stride`-th from word `first`: a value plane or a column's entries.
Tile every(const Tile& t, std::int64_t first, std::int64_t count, std::int64_t stride) {
  return t.slice(t.ndim - 1, first, count, stride);
}

Tile Tiles::index(NeuronCore& nc, const EngineSolve& g, const Tile& into, std::int32_t P, std::int64_t col, std::int64_t width,
                  EngineCounts& n) const {
  if (is_resident()) return resident.rows(0, P).cols(col, width);
  const Tile t = into.rows(0, P).cols(0, width);
  nc.dma_copy(t, index_cols(g, pmax, P, col, width));
  ++n.descriptors;
  return t;
}

// Gathers slice [k0, k0 + kw) of each chunk row's entries (index columns from `col`): values into
// av, the solved y_j (every column of the block) into x; short rows read the zero rows.
void gather_slice(NeuronCore& nc, const EngineSolve& g, const Tiles& w, const Tile& av, const Tile& x, std::int64_t col,
                  std::int32_t P, std::int64_t kw, EngineCounts& n) {
  const TriangularAnalysis& t = *g.t;
  const std::int64_t rw = g.row_words();
  const Tile idx = w.index(nc, g, w.idx, P, col, 2 * kw, n);
  nc.dma_gather(av, value_rows(g.values, 0, t.nnz + 1, g.w), idx.cols(kw, kw));
  nc.dma_gather(x, value_rows(g.y, 0, t.n + 1, rw), idx.cols(0, kw));
  n.descriptors += 2 * P * kw;
  if (g.w == 2 && g.conj_a) nc.tensor_scalar(every(av, 1, kw, 2), every(av, 1, kw, 2), AluOp::multiply, -1.0f);
}

// s[:, c] = sum over each chunk row's entries of a_ij y(j, c), every column c of the block.
void off_diagonal_sums(NeuronCore& nc, const EngineSolve& g, const Tiles& w, const ChunkIndex& ch, EngineCounts& n) {
  const std::int64_t rw = g.row_words(), K = ch.K;
  const std::int32_t P = ch.P;
  std::int64_t col = ch.col + 2;
  for (std::int64_t k0 = 0; k0 < K; k0 += w.slice) {
    const std::int64_t kw = std::min(w.slice, K - k0);
    const Tile av = w.av.rows(0, P).cols(0, kw * g.w), x = w.x.rows(0, P).cols(0, kw * rw);
    gather_slice(nc, g, w, av, x, col, P, kw, n);
    col += 2 * kw;
    const Tile sum = (k0 == 0 ? w.s : w.part).rows(0, P).cols(0, rw);
    const Tile p1 = w.p1.rows(0, P).cols(0, kw), p2 = w.p2.rows(0, P).cols(0, kw);
    for (std::int64_t c = 0; c < g.mb; ++c) {
      if (g.w == 1) {
        nc.tensor_tensor(p1, av, every(x, c, kw, g.mb), AluOp::multiply);
        nc.tensor_reduce(sum.cols(c, 1), p1, AluOp::add);
        continue;
      }
      complex_product(nc, p1, p2, every(av, 0, kw, 2), every(av, 1, kw, 2), every(x, 2 * c, kw, 2 * g.mb),
                      every(x, 2 * c + 1, kw, 2 * g.mb), w.p3.rows(0, P).cols(0, kw));
      nc.tensor_reduce(sum.cols(2 * c, 1), p1, AluOp::add);
      nc.tensor_reduce(sum.cols(2 * c + 1, 1), p2, AluOp::add);
    }
    if (k0 > 0) nc.tensor_tensor(w.s.rows(0, P).cols(0, rw), w.s.rows(0, P).cols(0, rw), sum, AluOp::add);
  }
}

// b = alpha conj?(b) on the chunk's [P, mb w] right-hand sides, VectorE (complex: the roundings of
// complex_product, (ar br - ai bi, ar bi + ai br)).
void scale_rhs(NeuronCore& nc, const EngineSolve& g, const Tiles& w, std::int32_t P) {
  const Tile b = w.b.rows(0, P).cols(0, g.row_words());
  if (g.w == 1) {
    nc.tensor_scalar(b, b, AluOp::multiply, g.alpha_re);
    return;
  }
  const Tile br = every(b, 0, g.mb, 2), bi = every(b, 1, g.mb, 2);
  const Tile t1 = w.t1.rows(0, P).cols(0, g.mb), t2 = w.t2.rows(0, P).cols(0, g.mb), t3 = w.t3.rows(0, P).cols(0, g.mb);
  if (g.conj_b) nc.tensor_scalar(bi, bi, AluOp::multiply, -1.0f);
  nc.tensor_scalar(t1, bi, AluOp::multiply, g.alpha_re);
  nc.tensor_scalar(t3, br, AluOp::multiply, g.alpha_im);
  nc.tensor_tensor(t1, t1, t3, AluOp::add);  // im = ar bi + ai br
  nc.tensor_scalar(t2, br, AluOp::multiply, g.alpha_re);
  nc.tensor_scalar(t3, bi, AluOp::multiply, g.alpha_im);
  nc.tensor_tensor(br, t2, t3, AluOp::subtract);  // re = ar br - ai bi
  nc.tensor_copy(bi, t1);
}

// b = b / d on the chunk's [P, mb w] tile (d per partition), VectorE: real one divide; complex
// b conj(d) / (dr^2 + di^2).
void divide_by_diagonal(NeuronCore& nc, const EngineSolve& g, const Tiles& w, std::int32_t P) {
  const Tile b = w.b.rows(0, P).cols(0, g.row_words()), d = w.d.rows(0, P);
  if (g.w == 1) {
    nc.tensor_scalar(b, b, AluOp::divide, d.cols(0, 1));
    return;
  }
  const Tile den = w.den.rows(0, P).cols(0, 1), tmp = w.den.rows(0, P).cols(1, 1);
  nc.tensor_tensor(den, d.cols(0, 1), d.cols(0, 1), AluOp::multiply);
  nc.tensor_tensor(tmp, d.cols(1, 1), d.cols(1, 1), AluOp::multiply);
  nc.tensor_tensor(den, den, tmp, AluOp::add);
  const Tile br = every(b, 0, g.mb, 2), bi = every(b, 1, g.mb, 2);
  const Tile t1 = w.t1.rows(0, P).cols(0, g.mb), t2 = w.t2.rows(0, P).cols(0, g.mb), t3 = w.t3.rows(0, P).cols(0, g.mb);
  nc.tensor_scalar(t1, br, AluOp::multiply, d.cols(0, 1));
  nc.tensor_scalar(t3, bi, AluOp::multiply, d.cols(1, 1));
  nc.tensor_tensor(t1, t1, t3, AluOp::add);  // br dr + bi di
  nc.tensor_scalar(t2, bi, AluOp::multiply, d.cols(0, 1));
  nc.tensor_scalar(t3, br, AluOp::multiply, d.cols(1, 1));
  nc.tensor_tensor(t2, t2, t3, AluOp::subtract);  // bi dr - br di
  nc.tensor_scalar(br, t1, AluOp::divide, den);
  nc.tensor_scalar(bi, t2, AluOp::divide, den);
}

// One chunk of a level: rows order[q0 .. q0 + P), every column of the block, as one tile step. The
// header's index words name the rows (b in, y out) and their diagonal values.
void solve_chunk(NeuronCore& nc, const EngineSolve& g, const Tiles& w, const ChunkIndex& ch, EngineCounts& n) {
  const TriangularAnalysis& t = *g.t;
  const std::int32_t P = ch.P;
  n.widest = std::max(n.widest, ch.K);
  const std::int64_t rw = g.row_words();
  const Tile head = w.index(nc, g, w.head, P, ch.col, 2, n), rows = head.cols(0, 1), b = w.b.rows(0, P).cols(0, rw);
  const Tile work = value_rows(g.y, 0, t.n + 1, rw);
  if (!t.unit) {
    const Tile table = g.diagonal != nullptr ? value_rows(g.diagonal, 0, t.n, g.w) : value_rows(g.values, 0, t.nnz + 1, g.w);
    nc.dma_gather(w.d.rows(0, P).cols(0, g.w), table, head.cols(1, 1));
    n.descriptors += P;
    if (g.w == 2 && g.conj_a) nc.tensor_scalar(w.d.rows(0, P).cols(1, 1), w.d.rows(0, P).cols(1, 1), AluOp::multiply, -1.0f);
  }
  nc.dma_gather(b, work, rows);
  n.descriptors += P;
  scale_rhs(nc, g, w, P);
  if (ch.K > 0) {
    off_diagonal_sums(nc, g, w, ch, n);
    nc.tensor_tensor(b, b, w.s.rows(0, P).cols(0, rw), AluOp::subtract);
  }
  if (!t.unit) divide_by_diagonal(nc, g, w, P);
  nc.dma_scatter(work, b, rows);
  n.descriptors += P;
  ++n.chunks;
}

Tiles alloc_tiles(AllocScope& sb, std::int32_t P, const EngineSolve& g) {
  const std::int64_t mb = std::min(g.ncols, g.block), rw = mb * g.w;
  Tiles w;
  w.slice = g.slice;
  w.av = sb.alloc(DType::f32, P, {w.slice * g.w}, "a_ij");
  w.x = sb.alloc(DType::f32, P, {w.slice * rw}, "gathered y_j");
  w.p1 = sb.alloc(DType::f32, P, {w.slice}, "products (re)");
  w.p2 = sb.alloc(DType::f32, P, {w.slice}, "products (im)");
  w.p3 = sb.alloc(DType::f32, P, {w.slice}, "product temp");
  w.part = sb.alloc(DType::f32, P, {rw}, "slice sums");
  w.s = sb.alloc(DType::f32, P, {rw}, "row sums");
  w.b = sb.alloc(DType::f32, P, {rw}, "rhs / solution");
  w.d = sb.alloc(DType::f32, P, {2}, "diagonal");
  w.den = sb.alloc(DType::f32, P, {2}, "|d|^2");
  w.t1 = sb.alloc(DType::f32, P, {mb}, "temp");
  w.t2 = sb.alloc(DType::f32, P, {mb}, "temp");
  w.t3 = sb.alloc(DType::f32, P, {mb}, "temp");
  w.pmax = P;
  if (g.index_width <= kResidentIndexWords) {
    // one DMA fills it (solve_kernel) before any chunk reads it: no poison fill (up to 4 MiB per launch)
    w.resident = sb.alloc(DType::i32, P, {std::max<std::int64_t>(g.index_width, 1)}, "index words (every chunk)", 0, AllocFill::none);
    w.resident_index = true;
  } else {
    w.head = sb.alloc(DType::i32, P, {2}, "row and diagonal indices");
    w.idx = sb.alloc(DType::i32, P, {2 * w.slice}, "entry indices");
  }
  return w;
}

void solve_kernel(NeuronCore& nc, const EngineSolve& g0, const std::vector<ChunkIndex>& chunks, EngineCounts& n) {
  const TriangularAnalysis& t = *g0.t;
  const std::int32_t P = nc.hw().pmax;
  AllocScope sb(nc.sbuf());
  const Tiles w = alloc_tiles(sb, P, g0);
  if (w.is_resident()) nc.dma_copy(w.resident, index_cols(g0, P, P, 0, g0.index_width));
  for (std::int64_t c0 = 0; c0 < g0.ncols; c0 += g0.block) {  // column blocks one after the other
    EngineSolve g = g0;
    g.mb = std::min(g0.block, g0.ncols - c0);
    g.y = g0.work + c0 * (t.n + 1) * g0.w;
    for (const ChunkIndex& ch : chunks) solve_chunk(nc, g, w, ch, n);
  }
}

// Where element (i, c) of the solve lives in the work vector (in values): column blocks of
// `block` columns, each (n + 1) rows row-major (row n: zeros).
std::int64_t work_at(std::int64_t n, std::int64_t m, std::int64_t block, std::int64_t i, std::int64_t c) {
  const std::int64_t c0 = c / block * block, mb = std::min(block, m - c0);
  return c0 * (n + 1) + i * mb + (c - c0);
}

// op(B) into the work vector (work_at's layout; the zero rows stay zero), host data movement (no
// arithmetic).
template <class T>
void stage_rhs(GOp opB, const DenseAny& B, std::int64_t n, std::int64_t m, std::int64_t block, ScratchVector<T>& y) {
  const T* b = static_cast<const T*>(B.data);
  for (std::int64_t c = 0; c < m; ++c)
    for (std::int64_t i = 0; i < n; ++i) y[z(work_at(n, m, block, i, c))] = opB == GOp::N ? b[at(B, i, c)] : b[at(B, c, i)];
}
// The solution out of the work vector into C.
template <class T>
void store_solution(const ScratchVector<T>& y, std::int64_t n, std::int64_t m, std::int64_t block, const DenseAny& C) {
  for (std::int64_t c = 0; c < m; ++c)
    for (std::int64_t i = 0; i < n; ++i) static_cast<T*>(C.data)[at(C, i, c)] = y[z(work_at(n, m, block, i, c))];
}

PlanFacts engine_facts(const TriangularAnalysis& t, std::int64_t m, const EngineCounts& n, double ns) {
  PlanFacts p;
  p.routine = m == 1 ? "spsv" : "spsm";
  p.shape = triangular_shape(t, m);
  p.variant = std::string(value_name(t.value)) + ": level sets (Anderson & Saad 1989), " + triangular_levels_text(t) + "; " +
              std::to_string(n.chunks) + " tile steps of <= pmax rows, longest row " + std::to_string(n.widest) +
              " off-diagonal entries, " + std::to_string(n.descriptors) + " DMA descriptors (gather runs)";
  p.ops = triangular_ops_text(t, m);
  p.engines = "DMA (gathers of solved entries, scatters of solved rows), VectorE (products, sums, subtract, divide)";
  p.predicted_ns = ns;
  p.why = "fp32 values: the levels are the dependent steps; rows of one level are independent partitions";
  return p;
}

// ---- Replay (triangular_replay.hpp) ------------------------------------------------------------

// The launch's HBM buffers (the work vector, the value table, the index words) as trace addresses
// (trace_hbm_address: scratch blocks named by allocation), in increasing order of their first byte.
struct HbmBuffers {
  std::array<std::uint64_t, 3> lo{}, hi{};
};
HbmBuffers hbm_buffers(const void* work, std::size_t work_bytes, const void* table, std::size_t table_bytes,
                       const void* words, std::size_t words_bytes) {
  std::array<std::pair<std::uint64_t, std::uint64_t>, 3> b;
  const auto at = [](const void* p, std::size_t bytes) {
    const std::uint64_t lo = trace_hbm_address(reinterpret_cast<std::uintptr_t>(p));
    return std::pair<std::uint64_t, std::uint64_t>{lo, lo + bytes};
  };
  b[0] = at(work, work_bytes);
  b[1] = at(table, table_bytes);
  b[2] = at(words, words_bytes);
  std::sort(b.begin(), b.end());
  HbmBuffers h;
  for (std::size_t k = 0; k < b.size(); ++k) {
    h.lo[k] = b[k].first;
    h.hi[k] = b[k].second;
  }
  return h;
}

// An HBM trace address as (rank of its buffer) << 48 | offset in it: strictly increasing over the
// buffers' addresses (ranks in address order, an address on two buffers' common edge taken by the
// lower one). False for an address outside them.
bool renamed(std::uint64_t a, const HbmBuffers& h, std::uint64_t& out) {
  for (std::size_t k = 0; k < h.lo.size(); ++k)
    if (a >= h.lo[k] && a <= h.hi[k]) {
      out = std::uint64_t{k} << 48 | (a - h.lo[k]);
      return true;
    }
  return false;
}

// Every field the cost model can read (as core's schedule memo key does: cost_model.cpp memo_key).
static_assert(sizeof(Region) == 32 && sizeof(Instruction) == 208, "Instruction changed: update same_record");
bool same_fields(const Instruction& a, const Instruction& c) {
  return a.index == c.index && a.program == c.program && a.core == c.core && a.engine == c.engine && a.opcode == c.opcode &&
         a.in_dtype == c.in_dtype && a.out_dtype == c.out_dtype && a.partitions == c.partitions &&
         a.free_elems == c.free_elems && a.matmul_m == c.matmul_m && a.inputs == c.inputs && a.bytes_read == c.bytes_read &&
         a.bytes_written == c.bytes_written &&
         std::memcmp(&a.declared_cycles, &c.declared_cycles, sizeof(double)) == 0 && a.accumulate == c.accumulate &&
         a.double_row == c.double_row && a.contiguous == c.contiguous && a.subop == c.subop && a.nregions == c.nregions &&
         a.host_label == c.host_label && a.regions_dropped == c.regions_dropped;
}
// `a` with its HBM endpoints renamed into `out`; false when one lies outside the buffers.
bool rename_record(const Instruction& a, const HbmBuffers& h, Instruction& out) {
  out = a;
  for (std::uint8_t r = 0; r < a.nregions; ++r) {
    Region& g = out.regions[r];
    if (g.mem != MemSpace::hbm) continue;
    if (!renamed(a.regions[r].lo, h, g.lo) || !renamed(a.regions[r].hi, h, g.hi)) return false;
  }
  return true;
}
// a (as traced) equals c (as kept, renamed) in every field, HBM endpoints under the renaming.
bool same_record(const Instruction& a, const Instruction& c, const HbmBuffers& h) {
  if (!same_fields(a, c)) return false;
  for (std::uint8_t r = 0; r < a.nregions; ++r) {
    const Region &x = a.regions[r], &y = c.regions[r];
    if (x.mem != y.mem || x.write != y.write || x.p0 != y.p0 || x.np != y.np) return false;
    if (x.mem != MemSpace::hbm) {
      if (x.lo != y.lo || x.hi != y.hi) return false;
      continue;
    }
    std::uint64_t lo = 0, hi = 0;
    if (!renamed(x.lo, h, lo) || !renamed(x.hi, h, hi) || lo != y.lo || hi != y.hi) return false;
  }
  return true;
}

}  // namespace

// What a replay keeps (triangular_replay.hpp): the first level-set solve's chunks and index words,
// and its trace (HBM addresses renamed) with the profile the cost model gave it.
struct detail::LevelSetReplayState {
  // The analysis the words were derived from: the one at `analysis` while a replay holds this state
  // (a replay serves one analysis, triangular_replay.hpp), and a copy of what index_chunks reads of
  // it, so a later replay (the next Krylov solve) can take the words for an analysis with the same
  // pattern at another address. Another pattern starts the state afresh.
  const TriangularAnalysis* analysis = nullptr;
  std::int64_t analysis_n = 0, analysis_nnz = 0;
  Value value = Value::f32;  // not read by index_chunks; the trace differs by it (no use keeping another type's)
  std::vector<std::int64_t> level_start, order, start, col, src, diag;
  bool serves(const TriangularAnalysis& t) const { return analysis == &t && analysis_n == t.n && analysis_nnz == t.nnz; }
  bool same_pattern(const TriangularAnalysis& t) const {
    return indexed && analysis_n == t.n && analysis_nnz == t.nnz && value == t.value && level_start == t.level_start &&
           order == t.order && start == t.start && col == t.col && src == t.src && diag == t.diag;
  }
  void keep_pattern(const TriangularAnalysis& t) {
    analysis = &t;
    value = t.value;
    analysis_n = t.n;
    analysis_nnz = t.nnz;
    level_start.assign(t.level_start.begin(), t.level_start.end());
    order.assign(t.order.begin(), t.order.end());
    start.assign(t.start.begin(), t.start.end());
    col.assign(t.col.begin(), t.col.end());
    src.assign(t.src.begin(), t.src.end());
    diag.assign(t.diag.begin(), t.diag.end());
  }
  // Index words (index_chunks' output for these parameters).
  bool indexed = false;
  std::int32_t pmax = 0;
  std::int64_t slice = 0;
  std::vector<ChunkIndex> chunks;
  std::vector<std::int32_t> words;
  std::int64_t width = 0;
  // The first modeled trace and its profile.
  bool modeled = false;
  Generation target = Generation::trn1;
  int num_cores = 1;
  std::int64_t ncols = 0;
  std::vector<Instruction> records;  // HBM endpoints renamed (rename_record)
  std::array<std::int64_t, kEngineCount> per_engine{};
  std::int64_t host_steps = 0, link_transfers = 0;
  Profile profile;
  std::int64_t replayed = 0;  // solves answered with `profile` (by the replay holding this state)
  // Empty again, the arrays' capacity kept.
  void reset() {
    analysis = nullptr;
    analysis_n = analysis_nnz = 0;
    indexed = modeled = false;
    chunks.clear();
    words.clear();
    records.clear();
    replayed = 0;
  }
};

namespace {
// States a thread's finished replays handed back, kept warm for its next solve's (their arrays are
// ~0.3-0.4 MB each for the bench's grid, and a first touch of a 4 KiB page costs ~17 us on the
// session's VM: ~340 faults per Krylov solve otherwise). A state keeps its words, trace and profile
// in the pool: the next Krylov solve of the same pattern (a new factor, so a new analysis) takes the
// state whose pattern is its own and starts with the words and the profile to compare against (its
// first application is replayed too; the index words and a schedule of each triangle's ~1 500
// records were ~7 % of a C_32F solve). Host memory only.
constexpr std::size_t kReplayPool = 2;
std::vector<std::unique_ptr<detail::LevelSetReplayState>>& replay_pool() {
  thread_local std::vector<std::unique_ptr<detail::LevelSetReplayState>> pool = [] {
    std::vector<std::unique_ptr<detail::LevelSetReplayState>> p;
    p.reserve(kReplayPool);  // give_back never allocates (it runs in a destructor)
    return p;
  }();
  return pool;
}
// The kept state of t's pattern if the pool has one, else the most recently handed back (emptied by
// its first solve: another pattern), else a new one.
std::unique_ptr<detail::LevelSetReplayState> take_replay_state(const TriangularAnalysis& t) {
  auto& pool = replay_pool();
  if (pool.empty()) return std::make_unique<detail::LevelSetReplayState>();
  auto it = std::find_if(pool.begin(), pool.end(), [&](const auto& k) { return k->same_pattern(t); });
  if (it == pool.end()) it = pool.end() - 1;
  std::unique_ptr<detail::LevelSetReplayState> s = std::move(*it);
  pool.erase(it);
  s->analysis = nullptr;  // the pattern is compared at the first solve (the address may be reused)
  s->replayed = 0;
  return s;
}
}  // namespace

detail::LevelSetReplay::LevelSetReplay() = default;
detail::LevelSetReplay::~LevelSetReplay() {
  if (state == nullptr) return;  // before replay_pool(): no thread_local constructed in a destructor
  auto& pool = replay_pool();
  if (pool.size() >= kReplayPool) return;
  pool.push_back(std::move(state));
}
detail::LevelSetReplay::LevelSetReplay(LevelSetReplay&&) noexcept = default;
detail::LevelSetReplay& detail::LevelSetReplay::operator=(LevelSetReplay&&) noexcept = default;
std::int64_t detail::replayed_solves(const LevelSetReplay& replay) { return replay.state != nullptr ? replay.state->replayed : 0; }

namespace {

// True when `trace` is the kept one record by record under this launch's buffers (same settings).
bool repeats_kept(const detail::LevelSetReplayState& k, const Trace& trace, const HbmBuffers& h) {
  if (trace.instructions.size() != k.records.size() || trace.per_engine != k.per_engine ||
      trace.host_steps != k.host_steps || trace.link_transfers != k.link_transfers)
    return false;
  for (std::size_t i = 0; i < k.records.size(); ++i)
    if (!same_record(trace.instructions[i], k.records[i], h)) return false;
  return true;
}
// Keeps a modeled report's trace (renamed) and profile; nothing when an address lies outside the buffers.
void keep_modeled(detail::LevelSetReplayState& k, const Settings& s, std::int64_t ncols, const CallReport& report,
                  const HbmBuffers& h) {
  k.modeled = false;
  k.records.resize(report.trace.instructions.size());
  for (std::size_t i = 0; i < k.records.size(); ++i)
    if (!rename_record(report.trace.instructions[i], h, k.records[i])) {
      k.records.clear();
      return;
    }
  k.per_engine = report.trace.per_engine;
  k.host_steps = report.trace.host_steps;
  k.link_transfers = report.trace.link_transfers;
  k.profile = report.profile;
  k.target = s.target;
  k.num_cores = s.num_cores;
  k.ncols = ncols;
  k.modeled = true;
}

}  // namespace

bool triangular_on_engines(Value v) { return v == Value::f32 || v == Value::c32; }

std::string triangular_levels_text(const TriangularAnalysis& t) {
  std::int64_t most = 0;
  for (std::int64_t l = 0; l < t.levels(); ++l) most = std::max(most, t.level_start[z(l) + 1] - t.level_start[z(l)]);
  const double mean = t.levels() > 0 ? static_cast<double>(t.n) / static_cast<double>(t.levels()) : 0.0;
  return std::to_string(t.levels()) + " levels, rows per level mean " + std::to_string(mean).substr(0, 6) + " max " +
         std::to_string(most);
}

std::string triangular_shape(const TriangularAnalysis& t, std::int64_t ncols) {
  return std::to_string(t.n) + "x" + std::to_string(t.n) + " triangle nnz=" + std::to_string(t.col.size()) +
         "+diag ncols=" + std::to_string(ncols) + " op(A)=" + generic_host::op_name(t.op) + (t.lower_op ? " lower" : " upper") +
         (t.unit ? " unit" : " non-unit");
}

std::string triangular_ops_text(const TriangularAnalysis& t, std::int64_t ncols) {
  const double per = generic_host::is_complex(t.value) ? 8.0 : 2.0;
  return std::to_string(static_cast<long long>(per * static_cast<double>(t.col.size() + z(t.n)) * static_cast<double>(ncols))) +
         " flops";
}

void triangular_solve_engines(const Settings& s, const TriangularAnalysis& t, const void* values, const void* diagonal,
                              Scalar alpha, GOp opB, const DenseAny& B, const DenseAny& C, CallReport* report) {
  detail::triangular_solve_engines_replayed(s, t, values, diagonal, alpha, opB, B, C, report, nullptr);
}

void detail::triangular_solve_engines_replayed(const Settings& s, const TriangularAnalysis& t, const void* values,
                                               const void* diagonal, Scalar alpha, GOp opB, const DenseAny& B,
                                               const DenseAny& C, CallReport* report, LevelSetReplay* replay) {
  if (replay != nullptr && replay->state == nullptr) replay->state = take_replay_state(t);
  // A solve with a caller's diagonal array reads a fourth HBM buffer: not replayed.
  LevelSetReplayState* kept = replay != nullptr && diagonal == nullptr ? replay->state.get() : nullptr;
  const std::int64_t n = t.n, m = C.cols;
  const bool cplx = t.value == Value::c32;
  EngineSolve g;
  g.t = &t;
  g.values = static_cast<const float*>(values);
  g.diagonal = static_cast<const float*>(diagonal);
  g.ncols = m;
  g.w = cplx ? 2 : 1;
  g.conj_a = t.op == GOp::C;
  g.conj_b = opB == GOp::C;
  g.alpha_re = static_cast<float>(alpha.real());
  g.alpha_im = static_cast<float>(alpha.imag());
  block_shape(g);
  if (t.n >= std::numeric_limits<std::int32_t>::max() || t.nnz >= std::numeric_limits<std::int32_t>::max())
    throw InvalidArgument("trnsparse: triangular solve: the R_32F / C_32F level sets index rows and entries in int32 "
                          "(n, nnz < 2^31 - 1)",
                          "matA");
  // The work vector and the value table (A's values, then a zero value) are the launch's HBM: scratch
  // stack blocks (trace names by allocation, docs/cost-model.md section 2), filled by the host.
  // The table is written whole (values, then the zero entry), so it is not zero-filled first; a
  // ScratchBuffer takes the same scratch allocation as the ScratchVector it replaced (same trace).
  const std::size_t work_values = z((n + 1) * m), table_words = z((t.nnz + 1) * g.w);
  ScratchVector<std::complex<float>> yc(cplx ? work_values : 0);
  ScratchVector<float> yr(cplx ? 0 : work_values);
  ScratchBuffer<float> table;
  table.allocate(table_words, /*zero=*/false);
  if (cplx)
    stage_rhs(opB, B, n, m, g.block, yc);
  else
    stage_rhs(opB, B, n, m, g.block, yr);
  if (t.nnz > 0) std::memcpy(table.data(), values, z(t.nnz * g.w) * sizeof(float));
  std::fill(table.data() + t.nnz * g.w, table.data() + table_words, 0.0f);
  g.values = table.data();
  g.work = cplx ? reinterpret_cast<float*>(yc.data()) : yr.data();
  // The index words: index_chunks' vector, or (replayed) the kept words copied into a block of the
  // same size allocated at the same point (the trace's buffer order), not zero-filled first.
  ScratchVector<std::int32_t> words;
  ScratchBuffer<std::int32_t> kept_words;
  const std::int32_t* words_data = nullptr;
  std::size_t words_size = 0;
  EngineCounts counts;
  LaunchResult r;
  if (n > 0 && m > 0) {
    const auto pmax = static_cast<std::int32_t>(hardware_spec(s.target).pmax);
    std::vector<ChunkIndex> fresh;
    if (kept != nullptr && kept->indexed && !kept->serves(t)) {
      if (kept->same_pattern(t)) kept->analysis = &t;  // a state kept from an earlier solve of this pattern
      else kept->reset();
    }
    if (kept != nullptr && kept->indexed && kept->pmax == pmax && kept->slice == g.slice) {
      // The same words, allocated where index_chunks allocates them (the trace's buffer order),
      // copied whole (the allocator's element-wise copy loop was ~2x slower, and zero-filling a
      // vector first cost as much as the copy).
      kept_words.allocate(kept->words.size(), /*zero=*/false);
      std::memcpy(kept_words.data(), kept->words.data(), kept->words.size() * sizeof(std::int32_t));
      words_data = kept_words.data();
      words_size = kept_words.size();
      g.index_width = kept->width;
    } else {
      fresh = index_chunks(t, pmax, g.slice, diagonal != nullptr, words, g.index_width);
      words_data = words.data();
      words_size = words.size();
      if (kept != nullptr) {
        kept->chunks = fresh;
        kept->words.assign(words.begin(), words.end());
        kept->width = g.index_width;
        kept->pmax = pmax;
        kept->slice = g.slice;
        kept->indexed = true;
        kept->keep_pattern(t);
      }
    }
    const std::vector<ChunkIndex>& chunks = kept != nullptr ? kept->chunks : fresh;
    g.index = words_data;
    r = launch(s.launch_config(), [&](NeuronCore& nc) { solve_kernel(nc, g, chunks, counts); });
  }
  if (cplx)
    store_solution(yc, n, m, g.block, C);
  else
    store_solution(yr, n, m, g.block, C);
  if (report == nullptr) return;
  const bool wanted = report->plans_wanted;
  // Replayed: a trace equal to the kept one under the buffers' renaming has the kept profile
  // (triangular_replay.hpp); an observed report is always modeled (report_observer.hpp).
  const bool replayable = kept != nullptr && n > 0 && m > 0 && !thread_report_observed();
  HbmBuffers buffers;
  if (replayable)
    buffers = hbm_buffers(g.work, work_values * z(g.w) * sizeof(float), table.data(), table_words * sizeof(float),
                          words_data, words_size * sizeof(std::int32_t));
  if (replayable && kept->modeled && kept->target == s.target && kept->num_cores == s.num_cores && kept->ncols == m &&
      repeats_kept(*kept, r.trace, buffers)) {
    report->trace = std::move(r.trace);
    report->profile = kept->profile;
    ++kept->replayed;
  } else {
    finish_report(*report, std::move(r.trace), ReportSettings::of(s));
    // Kept: the first modeled trace; or this one when the kept trace has not been repeated by this
    // replay or was modeled under other settings (a state kept from an earlier solve: another
    // target, right-hand side count or trace).
    if (replayable && (!kept->modeled || kept->replayed == 0 || kept->target != s.target || kept->num_cores != s.num_cores ||
                       kept->ncols != m))
      keep_modeled(*kept, s, m, *report, buffers);
  }
  report->blocks = counts.chunks;
  if (wanted) report->add_plan(engine_facts(t, m, counts, report->profile.total_ns).print());
}

}  // namespace trn::sparse
