// The banded solves on GpSimdE in software fp64: gtsv2 (partial pivoting), gtsvInterleavedBatch algo 1 / 2,
// gpsvInterleavedBatch, every R_64F / C_64F solve and C_32F gtsv2_nopivot (docs/trnsparse.md "On GpSimdE:
// software fp64, one system per lane").
//
// Algorithm   The former host step's algorithms and operation order (banded_steps.hpp: elimination
//             without pivoting, LU with partial pivoting, Givens QR; fp64 / complex<double> arithmetic
//             for every value type), one system per GpSimd lane: a program takes systems
//             [s0, s0 + P), P <= pmax, one per partition (batches of more than pmax systems are
//             several programs), a system's rows along the free axis in chunks of L rows (L from the
//             SBUF budget, geometry()). Per chunk [r0, r0 + L):
//               DMA   the bands and right-hand sides of the rows not yet on chip, in their storage type
//                     (rows up to r0 + L + p: the elimination of column j reaches row j + p);
//               GpSimdE operator banded_forward: converts those rows to fp64 into the row window
//                     (row i: columns i - p .. i + 2p and x_i), carries the p rows the previous chunk
//                     left half-reduced, and eliminates columns r0 .. r0 + L - 1;
//               DMA   the chunk's finished rows of U (columns i .. i + 2p) and y to an HBM scratch.
//             Then per chunk, last first: DMA the U rows back; GpSimdE operator banded_back solves
//             them (x of the next 2p rows carried on chip), rounds x to the storage type, DMA out to a
//             staging array. The first zero pivot of each system (elimination: its column; QR: the
//             first zero R(i, i) from the bottom, as the host step's back substitution found it)
//             is kept on chip and read by the host; the staging array is copied into the caller's
//             right-hand sides only when no system met one (nothing is written otherwise).
// Engines     DMA and GpSimdE (two custom operators per chunk). Declared cycles: hw.gpsimd_start +
//             the counted lane ops of the chunk (trn/tile/gpsimd_fp64.hpp: SoftFloat-derived int32-op
//             counts per fp64 operation; the worst data-dependent branch: every swap done, no
//             multiplier skipped). Programs spread over the cores; the same bits for any host thread
//             or core count (each system one lane's fixed sequence).
// Accuracy    That of the host step (trn/sparse/banded.hpp): software fp64 is IEEE binary64, computed
//             by host double with no FMA contraction, so the bits are the host step's (checked by
//             test_trnsparse_banded_gpsimd against the host step's recorded outputs).
// Limits      One system per lane: a single matrix with n right-hand sides (gtsv2) uses n lanes and
//             re-factors the matrix in each, as the host step did per right-hand side. Row numbers
//             of zero pivots below 2^31.
#include <algorithm>
#include <complex>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "banded_steps.hpp"
#include "generic_detail.hpp"
#include "generic_host.hpp"
#include "scratch_buffer.hpp"
#include "trn/core/spmd.hpp"
#include "trn/sparse/banded.hpp"
#include "trn/tile/gpsimd_fp64.hpp"

namespace trn::sparse {

namespace {

using banded_steps::BandWindow;
using generic_host::Acc;
using tile::GpsimdOps;

std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

// Words (4 bytes) of the layout. A work row is a BandWindow row (w + 1 fp64 values); a U row is its
// columns p .. 3p and x (2p + 2 values); vw / dw: words of a stored / working value.
struct Geometry {
  std::int64_t m = 0, count = 0, p = 1, w = 4, vw = 1, dw = 2, rw = 10, uw = 8, L = 1;
  int bands = 3;
};

// L: the rows per chunk that fit 3/4 of an SBUF partition (raw bands and x, the work window, U rows,
// x out: per row (2p + 2) vw + rw + uw + vw words), a multiple of 16, at least 2p, and a work tile
// within the engines' free-size limit.
Geometry geometry(const HardwareSpec& hw, const BandedSystems& b) {
  Geometry g;
  g.m = b.m, g.count = b.count, g.p = b.half, g.w = 3 * b.half + 1, g.bands = 2 * b.half + 1;
  g.vw = static_cast<std::int64_t>(value_bytes(b.value) / 4);
  g.dw = value_is_complex(b.value) ? 4 : 2;
  g.rw = (g.w + 1) * g.dw, g.uw = (2 * g.p + 2) * g.dw;
  const std::int64_t per_row = 4 * ((2 * g.p + 2) * g.vw + g.rw + g.uw + g.vw);
  std::int64_t L = (hw.sbuf_partition_bytes * 3 / 4) / per_row - g.p;
  L = std::min(L, hw.vector_sbuf_fmax / g.rw - g.p) / 16 * 16;
  g.L = std::min(std::max(L, 2 * g.p), g.m);
  return g;
}

// One call: the systems, the algorithm, the HBM scratch of U rows, the staging array of x and the
// first zero-pivot row of each system (-1: none).
struct GpsimdJob {
  const BandedSystems* b = nullptr;
  BandedAlgo algo = BandedAlgo::no_pivot;
  Geometry g;
  std::uint32_t *urows = nullptr, *out = nullptr;
  std::int32_t* zero_row = nullptr;
};

// raw: the bands and then x in their storage type, band k (k = 2p + 1: x) at rows [k (L + p), (k + 1) (L + p))
// — one tile, so that an operator has at most 4 operands (a trace record keeps 4 regions).
struct GpsimdTiles {
  Tile raw, work, state, urows, out;
};

// The large tiles skip the allocation's NaN fill (AllocFill::none; host work only, ~15 MB of stores
// per program at L = 1024): each operator reads only what a DMA or an earlier operator of the program
// wrote — raw: the rows load_rows just brought in, each band only inside the matrix, as the forward
// operator reads it; work: rows [0, L + p) by chunk 0's forward operator (later chunks read and DMA
// out no more than that); urows: the chunk's rows by the DMA before the back operator; out: every
// row by the back operator (zero bytes for a system that stopped). `state` keeps the fill (small).
GpsimdTiles alloc_tiles(AllocScope& sb, const Geometry& g, std::int32_t P) {
  constexpr AllocFill kWrittenFirst = AllocFill::none;
  GpsimdTiles t;
  t.raw = sb.alloc(DType::u32, P, {(g.bands + 1) * (g.L + g.p), g.vw}, "band and right-hand side rows (storage type)", 0,
                   kWrittenFirst);
  t.work = sb.alloc(DType::u32, P, {g.L + g.p, g.rw}, "fp64 row window", 0, kWrittenFirst);
  t.state = sb.alloc(DType::u32, P, {2 + 2 * g.p * g.dw}, "first zero pivot, x carry");
  t.urows = sb.alloc(DType::u32, P, {g.L, g.uw}, "U rows and y (fp64)", 0, kWrittenFirst);
  t.out = sb.alloc(DType::u32, P, {g.L, g.vw}, "x (storage type)", 0, kWrittenFirst);
  return t;
}

// Rows [r, r + n) of systems [s0, s0 + P) of an array of values (element i of system s at
// i es + s ss values; ss = 0: one matrix read by every partition) as [P, n, words] 32-bit words.
Tile word_rows(const void* base, const Geometry& g, std::int64_t words, std::int64_t es, std::int64_t ss,
               std::int64_t s0, std::int32_t P, std::int64_t r, std::int64_t n) {
  return HbmTensor::wrap(const_cast<void*>(base), DType::u32, {g.count, g.m, words}, {ss * words, es * words, 1})
      .tile_nd({s0, r, 0}, {P, n, words}, 0);
}

// ---- declared cycles: the lane ops of each step (tile::GpsimdOps, software fp64) -----------------

// The fp64 operations of one working-value operation (real double; complex<double> as GCC compiles
// it: a product is 4 mul + 2 add and the NaN test of both parts (libgcc __muldc3 only on NaN), a
// quotient is libgcc __divdc3 (C99 Annex G scaled form: |c|, |d|, max, logb and two scalbn in int32
// exponent arithmetic, 6 mul, 3 add, 2 div), |z| and hypot glibc's (scaled sqrt(x^2 + y^2))).
struct ValueOps {
  GpsimdOps add, mul, div, div_real, zero_test, magnitude, hypot, neg, conj, load, store;
};
ValueOps value_ops(bool cplx) {
  const GpsimdOps hypot{.int32 = 8, .f64_add = 2, .f64_mul = 3, .f64_sqrt = 1, .f64_compare = 2, .f64_sign = 2};
  if (!cplx)
    return {.add = {.f64_add = 1}, .mul = {.f64_mul = 1}, .div = {.f64_div = 1}, .div_real = {.f64_div = 1},
            .zero_test = {.f64_compare = 1}, .magnitude = {.f64_sign = 1}, .hypot = hypot, .neg = {.f64_sign = 1},
            .conj = {}, .load = {.load_words = 2}, .store = {.store_words = 2}};
  return {.add = {.f64_add = 2},
          .mul = {.f64_add = 2, .f64_mul = 4, .f64_compare = 2},
          .div = {.int32 = 16, .f64_add = 3, .f64_mul = 6, .f64_div = 2, .f64_compare = 3, .f64_sign = 2},
          .div_real = {.f64_div = 2},
          .zero_test = {.f64_compare = 2},
          .magnitude = hypot,
          .hypot = hypot,
          .neg = {.f64_sign = 2},
          .conj = {.f64_sign = 1},
          .load = {.load_words = 4},
          .store = {.store_words = 4}};
}

// One column of the elimination (eliminate_column), worst branch: every row updated, every swap done.
GpsimdOps column_ops(const Geometry& g, BandedAlgo algo, bool cplx) {
  const ValueOps v = value_ops(cplx);
  const double p = static_cast<double>(g.p), cols = 2 * p + 1;  // columns right of j and x
  GpsimdOps t;
  if (algo == BandedAlgo::qr_givens) {
    const GpsimdOps rotate = 4.0 * v.mul + 2.0 * v.add + v.neg + v.conj + 2.0 * v.load + 2.0 * v.store;
    const GpsimdOps setup = 2.0 * v.load + 2.0 * v.zero_test + 2.0 * v.magnitude + v.hypot + GpsimdOps{.f64_div = 1} +
                            v.magnitude + 2.0 * v.div_real + v.conj + v.mul;
    return p * (setup + (cols + 1) * rotate);
  }
  if (algo == BandedAlgo::lu_pivot)
    t += p * (2.0 * v.magnitude + GpsimdOps{.f64_compare = 1} + 2.0 * v.load) + (cols + 1) * (2.0 * v.load + 2.0 * v.store);
  t += v.load + v.zero_test;
  t += p * (v.load + v.div + v.zero_test + cols * (v.mul + v.add + 2.0 * v.load + v.store));
  return t;
}

// One new row into the window: zero it, convert its 2p + 1 band values and x from the storage type.
GpsimdOps fill_row_ops(const Geometry& g, bool cplx, bool fp32_storage) {
  const double vals = static_cast<double>(g.bands + 1), parts = cplx ? 2 : 1;
  GpsimdOps t{.load_words = vals * static_cast<double>(g.vw), .store_words = static_cast<double>(g.rw) + vals * static_cast<double>(g.dw)};
  if (fp32_storage) t.f32_to_f64 = vals * parts;
  return t;
}

// One row of the back substitution: U row and y in, 2p multiply-subtracts, the zero test, the
// division, x rounded to the storage type and stored (and into the window).
GpsimdOps back_row_ops(const Geometry& g, bool cplx, bool fp32_storage) {
  const ValueOps v = value_ops(cplx);
  const double p = static_cast<double>(g.p);
  GpsimdOps t = (2 * p + 2) * v.load + 2 * p * (v.mul + v.add + v.load) + v.zero_test + v.div + v.store;
  t += GpsimdOps{.store_words = static_cast<double>(g.vw)};
  if (fp32_storage) t.f64_to_f32 = cplx ? 2 : 1;
  return t;
}

bool fp32_storage(Value v) { return v == Value::f32 || v == Value::c32; }

// ---- the operators' code (per partition, host double = software fp64) ---------------------------

// One stored value (storage type T, possibly unaligned in the partition's bytes) as the working type.
template <class T>
Acc<T> load_value(const std::byte* at) {
  T v;
  std::memcpy(&v, at, sizeof(T));
  return static_cast<Acc<T>>(v);
}

// Lanes run in groups of kLaneGroup partitions in lockstep: each column (row of the back
// substitution) of every lane of the group before the next. A system is a chain of dependent
// divisions, multiplications and subtractions (~30 cycles of latency a row on the host); the
// group's chains are independent, so the host overlaps them. Host speed only: every lane runs its
// own operations in its own order, as one lane at a time did.
constexpr std::int32_t kLaneGroup = 8;

// Forward chunk [r0, r0 + Lc) of partitions [q0, q0 + K): rows [r0, r_end) in each lane's window (rows
// below `fresh0` carried from the previous chunk's window rows L .. L + p - 1), then the columns
// eliminated. A lane's window rows [0, r_end - r0) are written whenever the lane is still solving
// (chunk 0 always: the work tile is then written in full for every row a later chunk's DMA reads).
// P = p and the algorithm are template arguments (host speed; the same operations in the same order).
template <class T, int P, BandedAlgo algo, int K>
void forward_lanes(const GpsimdJob& j, const CustomOpContext& ctx, std::int32_t q0, std::int64_t r0, std::int64_t Lc,
                   std::int64_t fresh0, std::int64_t r_end, std::vector<Acc<T>>* win) {
  using V = Acc<T>;
  using Window = BandWindow<V, P>;
  const Geometry& g = j.g;
  constexpr std::int64_t stride = Window::stride, bands = 2 * P + 1;
  const std::int64_t band_elems = g.L + g.p;  // raw row r of band k at element k (L + p) + r (x: band 2p + 1)
  std::int32_t zero[K];
  bool solving[K], live[K];
  Window B[K];
  for (int l = 0; l < K; ++l) {
    const std::int32_t q = q0 + l;
    zero[l] = -1;
    if (r0 > 0) std::memcpy(&zero[l], ctx.outputs[1].at(q, 0), sizeof(std::int32_t));
    solving[l] = live[l] = zero[l] < 0;
    B[l] = Window{g.m, r0, win[l].data()};
    if (!solving[l]) continue;
    if (fresh0 > r0)
      std::memcpy(win[l].data(), ctx.outputs[0].at(q, 0) + g.L * stride * sizeof(V), z((fresh0 - r0) * stride) * sizeof(V));
    const std::byte* raw = ctx.inputs[0].at(q, 0);
    for (std::int64_t i = fresh0; i < r_end; ++i) {
      std::fill_n(win[l].begin() + (i - r0) * stride, stride, V{});
      const std::byte* row = raw + (i - fresh0) * static_cast<std::int64_t>(sizeof(T));
      for (std::int64_t k = 0; k < bands; ++k) {
        const std::int64_t col = i + k - P;
        if (col >= 0 && col < g.m) B[l].at(i, col) = load_value<T>(row + k * band_elems * static_cast<std::int64_t>(sizeof(T)));
      }
      B[l].x(i) = load_value<T>(row + bands * band_elems * static_cast<std::int64_t>(sizeof(T)));
    }
  }
  for (std::int64_t col = r0; col < r0 + Lc; ++col)
    for (int l = 0; l < K; ++l)
      if (live[l] && banded_steps::eliminate_column<algo>(B[l], col)) {
        zero[l] = static_cast<std::int32_t>(col);
        live[l] = false;
      }
  for (int l = 0; l < K; ++l) {
    if (solving[l]) std::memcpy(ctx.outputs[0].at(q0 + l, 0), win[l].data(), z((r_end - r0) * stride) * sizeof(V));
    std::memcpy(ctx.outputs[1].at(q0 + l, 0), &zero[l], sizeof(std::int32_t));
  }
}

// Backward chunk [r0, r0 + Lc) of partitions [q0, q0 + K): the U rows and y of the chunk, x of the next
// min(2p, m - r0 - Lc) rows from the carry; x rounded to T into the output, the carry replaced. A
// lane that met a zero pivot writes zero bytes for x (never copied to the caller: the output tile
// is written in full by every operator, so it needs no poison fill).
template <class T, int P, int K>
void back_lanes(const GpsimdJob& j, const CustomOpContext& ctx, std::int32_t q0, std::int64_t r0, std::int64_t Lc,
                std::vector<Acc<T>>* win) {
  using V = Acc<T>;
  const Geometry& g = j.g;
  constexpr std::int64_t p2 = 2 * P;
  const std::int64_t below = std::min(p2, g.m - r0 - Lc);  // carried x rows
  std::int32_t zero[K];
  bool live[K];
  BandWindow<V, P> B[K];
  for (int l = 0; l < K; ++l) {
    const std::int32_t q = q0 + l;
    std::byte* state = ctx.outputs[1].at(q, 0);
    const std::byte* urows = ctx.inputs[0].at(q, 0);
    std::memcpy(&zero[l], state, sizeof(std::int32_t));
    live[l] = zero[l] < 0;
    B[l] = BandWindow<V, P>{g.m, r0, win[l].data()};
    if (!live[l]) continue;
    for (std::int64_t c = 0; c < below; ++c) std::memcpy(&B[l].x(r0 + Lc + c), state + 8 + c * sizeof(V), sizeof(V));
    for (std::int64_t i = r0; i < r0 + Lc; ++i)  // U(i, i .. i + 2p) and y_i (uw words): window offsets p .. 3p + 1
      std::memcpy(&B[l].at(i, i), urows + (i - r0) * g.uw * 4, (2 * P + 2) * sizeof(V));
  }
  for (std::int64_t i = r0 + Lc - 1; i >= r0; --i)
    for (int l = 0; l < K; ++l)
      if (live[l] && !banded_steps::back_substitute_row(B[l], i)) {
        zero[l] = static_cast<std::int32_t>(i);
        std::memcpy(ctx.outputs[1].at(q0 + l, 0), &zero[l], sizeof(std::int32_t));
        live[l] = false;
      }
  for (int l = 0; l < K; ++l) {
    std::byte* out = ctx.outputs[0].at(q0 + l, 0);
    if (!live[l]) {
      std::memset(out, 0, z(Lc) * sizeof(T));
      continue;
    }
    for (std::int64_t i = r0; i < r0 + Lc; ++i) {
      const T x = static_cast<T>(B[l].x(i));
      std::memcpy(out + (i - r0) * static_cast<std::int64_t>(sizeof(T)), &x, sizeof(T));
    }
    std::byte* state = ctx.outputs[1].at(q0 + l, 0);
    for (std::int64_t c = 0; c < std::min(p2, g.m - r0); ++c) std::memcpy(state + 8 + c * sizeof(V), &B[l].x(r0 + c), sizeof(V));
  }
}

// f(std::integral_constant<int, p>) for the job's half bandwidth (1 or 2: banded_solve checks it).
template <class F>
void with_half(const Geometry& g, F&& f) {
  if (g.p == 1)
    f(std::integral_constant<int, 1>{});
  else
    f(std::integral_constant<int, 2>{});
}

// ---- the program ----------------------------------------------------------------------------------

// The chunk's rows not on chip yet ([fresh0, r_end)) into the raw tiles, each band only where it lies
// inside the matrix (out-of-matrix entries are never read).
void load_rows(NeuronCore& nc, const GpsimdJob& j, const GpsimdTiles& t, std::int64_t s0, std::int32_t P,
               std::int64_t fresh0, std::int64_t r_end) {
  const BandedSystems& b = *j.b;
  const Geometry& g = j.g;
  for (int k = 0; k < g.bands; ++k) {
    const std::int64_t lo = std::max(fresh0, g.p - k), hi = std::min(r_end, g.m + g.p - k);
    if (hi > lo)
      nc.dma_copy(t.raw.rows(0, P).slice(0, k * (g.L + g.p) + lo - fresh0, hi - lo),
                  word_rows(b.band[z(k)], g, g.vw, b.elem_stride, b.sys_stride, s0, P, lo, hi - lo));
  }
  nc.dma_copy(t.raw.rows(0, P).slice(0, g.bands * (g.L + g.p), r_end - fresh0),
              word_rows(b.x, g, g.vw, b.x_elem_stride, b.x_sys_stride, s0, P, fresh0, r_end - fresh0));
}

template <class T>
void forward_chunk(NeuronCore& nc, const GpsimdJob& j, const GpsimdTiles& t, std::int64_t s0, std::int32_t P,
                   std::int64_t r0) {
  const Geometry& g = j.g;
  const std::int64_t Lc = std::min(g.L, g.m - r0), r_end = std::min(g.m, r0 + Lc + g.p);
  const std::int64_t fresh0 = r0 == 0 ? 0 : std::min(g.m, r0 + g.p);
  if (r_end > fresh0) load_rows(nc, j, t, s0, P, fresh0, r_end);
  const bool cplx = value_is_complex(j.b->value), f32 = fp32_storage(j.b->value);
  const double cycles = tile::gpsimd_op_cycles(nc.hw(), column_ops(g, j.algo, cplx), Lc) +
                        fill_row_ops(g, cplx, f32).lane_ops() * static_cast<double>(r_end - fresh0);
  const Tile outs[] = {t.work.rows(0, P), t.state.rows(0, P)};
  const Tile ins[] = {t.raw.rows(0, P)};
  nc.custom_op("banded_forward", outs, ins, cycles, [&j, P, r0, Lc, fresh0, r_end](const CustomOpContext& ctx) {
    std::vector<Acc<T>> win[kLaneGroup];
    for (auto& w : win) w.resize(z((j.g.L + 2 * j.g.p) * (j.g.w + 1)));
    with_half(j.g, [&](auto half) {
      const auto run = [&](auto algo) {
        generic_host::over_lane_groups<kLaneGroup>(P, [&](std::int32_t q0, auto lanes) {
          forward_lanes<T, decltype(half)::value, decltype(algo)::value, decltype(lanes)::value>(j, ctx, q0, r0, Lc, fresh0,
                                                                                                r_end, win);
        });
      };
      if (j.algo == BandedAlgo::no_pivot)
        run(std::integral_constant<BandedAlgo, BandedAlgo::no_pivot>{});
      else if (j.algo == BandedAlgo::lu_pivot)
        run(std::integral_constant<BandedAlgo, BandedAlgo::lu_pivot>{});
      else
        run(std::integral_constant<BandedAlgo, BandedAlgo::qr_givens>{});
    });
  });
  nc.dma_copy(HbmTensor::wrap(j.urows, DType::u32, {g.count, g.m, g.uw}).tile_nd({s0, r0, 0}, {P, Lc, g.uw}, 0),
              t.work.rows(0, P).slice(0, 0, Lc).slice(1, g.p * g.dw, g.uw));
}

template <class T>
void back_chunk(NeuronCore& nc, const GpsimdJob& j, const GpsimdTiles& t, std::int64_t s0, std::int32_t P,
                std::int64_t r0) {
  const Geometry& g = j.g;
  const std::int64_t Lc = std::min(g.L, g.m - r0);
  const Tile urows = t.urows.rows(0, P).slice(0, 0, Lc);
  nc.dma_copy(urows, HbmTensor::wrap(j.urows, DType::u32, {g.count, g.m, g.uw}).tile_nd({s0, r0, 0}, {P, Lc, g.uw}, 0));
  const Tile outs[] = {t.out.rows(0, P).slice(0, 0, Lc), t.state.rows(0, P)};
  const Tile ins[] = {urows};
  const double cycles =
      tile::gpsimd_op_cycles(nc.hw(), back_row_ops(g, value_is_complex(j.b->value), fp32_storage(j.b->value)), Lc);
  nc.custom_op("banded_back", outs, ins, cycles, [&j, P, r0, Lc](const CustomOpContext& ctx) {
    std::vector<Acc<T>> win[kLaneGroup];
    for (auto& w : win) w.resize(z((j.g.L + 2 * j.g.p) * (j.g.w + 1)));
    with_half(j.g, [&](auto half) {
      generic_host::over_lane_groups<kLaneGroup>(P, [&](std::int32_t q0, auto lanes) {
        back_lanes<T, decltype(half)::value, decltype(lanes)::value>(j, ctx, q0, r0, Lc, win);
      });
    });
  });
  nc.dma_copy(HbmTensor::wrap(j.out, DType::u32, {g.count, g.m, g.vw}).tile_nd({s0, r0, 0}, {P, Lc, g.vw}, 0), outs[0]);
}

// Program p: systems [p pmax, p pmax + P), every chunk forward, every chunk backward, the zero rows out.
template <class T>
void gpsimd_program(NeuronCore& nc, const GpsimdJob& j) {
  const Geometry& g = j.g;
  const std::int64_t pmax = nc.hw().pmax, s0 = nc.program_id() * pmax;
  const auto P = static_cast<std::int32_t>(std::min(pmax, g.count - s0));
  AllocScope sb(nc.sbuf());
  const GpsimdTiles t = alloc_tiles(sb, g, P);
  for (std::int64_t r0 = 0; r0 < g.m; r0 += g.L) forward_chunk<T>(nc, j, t, s0, P, r0);
  for (std::int64_t r0 = (g.m - 1) / g.L * g.L; r0 >= 0; r0 -= g.L) back_chunk<T>(nc, j, t, s0, P, r0);
  nc.dma_copy(HbmTensor::wrap(j.zero_row, DType::u32, {g.count, 1}).tile(s0, P, 0, 1), t.state.rows(0, P).cols(0, 1));
}

const char* algo_name(BandedAlgo a) {
  return a == BandedAlgo::no_pivot   ? "Gaussian elimination without pivoting (Thomas)"
         : a == BandedAlgo::lu_pivot ? "LU with partial pivoting (LAPACK xGTSV/xGBSV order)"
                                     : "QR by Givens rotations";
}

// Multiply-adds of one system: elimination (p rows below each pivot, over the 2p + 1 columns of
// the window and the right-hand side) and back substitution (2p columns): fp64 flops 2 each
// (complex 8); a rotation pair counts twice.
double banded_flops(BandedAlgo algo, const BandedSystems& b) {
  const double m = static_cast<double>(b.m), p = b.half;
  const double per_row = p * (2 * p + 2) * (algo == BandedAlgo::qr_givens ? 2.0 : 1.0) + 2 * p + 1;
  return (value_is_complex(b.value) ? 8.0 : 2.0) * per_row * m * static_cast<double>(b.count);
}

PlanFacts banded_gpsimd_facts(const char* routine, BandedAlgo algo, const BandedSystems& b, const HardwareSpec& hw) {
  const Geometry g = geometry(hw, b);
  const std::int64_t programs = (b.count + hw.pmax - 1) / hw.pmax;
  PlanFacts f;
  f.routine = routine;
  f.shape = std::to_string(b.count) + (b.half == 1 ? " tridiagonal" : " pentadiagonal") + " system(s) of size " +
            std::to_string(b.m) +
            (b.sys_stride == 0 && b.count > 1 ? " (one matrix, " + std::to_string(b.count) + " right-hand sides)" : "");
  f.variant = std::string(value_name(b.value)) + ": " + algo_name(algo) +
              ", software fp64 on GpSimdE, one system per lane, " + std::to_string(programs) +
              " program(s) of <= pmax systems, rows in chunks of " + std::to_string(g.L);
  f.ops = std::to_string(static_cast<long long>(banded_flops(algo, b))) + " flops";
  f.engines = "DMA (bands and right-hand sides in, U rows to an HBM scratch and back, x out), GpSimdE (custom "
              "operators banded_forward / banded_back, software fp64)";
  f.why = "each system is a chain of m dependent eliminations with a division per step, in fp64: one GpSimd lane "
          "per system runs the host step's arithmetic (IEEE fp64 in software, the same bits)";
  return f;
}

void banded_solve_gpsimd(const Settings& s, const char* routine, BandedAlgo algo, const BandedSystems& b, CallReport* report) {
  const HardwareSpec& hw = hardware_spec(s.target);
  GpsimdJob j{&b, algo, geometry(hw, b)};
  const Geometry& g = j.g;
  // The U-row scratch and the staging array are written in full by the programs' DMAs before they
  // are read: scratch-stack blocks without a zero fill (10 MB per call at 256 x 1024 R_64F).
  ScratchBuffer<std::uint32_t> urows, out;
  urows.allocate(z(g.count * g.m * g.uw), false);
  out.allocate(z(g.count * g.m * g.vw), false);
  std::vector<std::int32_t> zero_row(z(g.count), -1);
  j.urows = urows.data(), j.out = out.data(), j.zero_row = zero_row.data();
  const std::int64_t programs = (g.count + hw.pmax - 1) / hw.pmax;
  LaunchResult r = launch(s.launch_config({static_cast<int>(programs), 1, 1}), [&](NeuronCore& nc) {
    generic_host::dispatch(b.value, [&](auto tag) { gpsimd_program<decltype(tag)>(nc, j); });
  });
  if (!s.timing_only) {
    for (std::int64_t k = 0; k < g.count; ++k)
      if (zero_row[z(k)] >= 0) throw ZeroPivot(k, zero_row[z(k)]);
    generic_host::dispatch(b.value, [&](auto tag) {
      banded_steps::copy_solutions_out<decltype(tag)>(reinterpret_cast<const std::byte*>(out.data()), b.x, g.count, g.m,
                                                      b.x_elem_stride, b.x_sys_stride);
    });
  }
  if (report == nullptr) return;
  const bool wanted = report->plans_wanted;
  finish_report(*report, std::move(r.trace), ReportSettings::of(s));
  report->blocks = programs;
  if (wanted) {
    PlanFacts f = banded_gpsimd_facts(routine, algo, b, hw);
    f.predicted_ns = report->profile.total_ns;
    report->add_plan(f.print());
  }
}

}  // namespace

void banded_solve(const Settings& s, const char* routine, BandedAlgo algo, const BandedSystems& b, CallReport* report) {
  if (b.m < 1 || b.count < 0 || (b.half != 1 && b.half != 2)) generic_detail::invalid("banded solve: m >= 1, count >= 0", "m");
  if (b.count == 0) return;
  if (banded_on_engines(b.value, algo, b.half, b.sys_stride != 0))
    banded_solve_engines(s, routine, b, report);
  else
    banded_solve_gpsimd(s, routine, algo, b, report);
}

std::string banded_plan(const char* routine, BandedAlgo algo, const BandedSystems& b) {
  return banded_gpsimd_facts(routine, algo, b, hardware_spec(Generation::trn1)).print();
}

}  // namespace trn::sparse
