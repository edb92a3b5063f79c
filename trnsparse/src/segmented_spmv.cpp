// The segmented slice-pair SpMV (R_64F, C_64F): algorithm, engines, accuracy and limits in
// segmented_spmv.hpp; derivation and measurements in docs/trnsparse.md.
#include "segmented_spmv.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "generic_host.hpp"
#include "device_slices.hpp"
#include "op_pattern.hpp"
#include "scratch_buffer.hpp"
#include "spgemm_blocks.hpp"
#include "trn/blas/blas.hpp"
#include "trn/blas/fp64_fold_device.hpp"
#include "trn/blas/fp64_slices.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/report.hpp"
#include "trn/core/scratch.hpp"
#include "trn/core/spmd.hpp"
#include "trn/tile/view.hpp"

namespace trn::sparse {
namespace {

namespace sl = blas::slices;
using tile::view;
inline auto z(std::int64_t i) { return static_cast<std::size_t>(i); }

// The call's large host arrays (patterns, real rows, tiles, gathered X, folded rows) come from the
// calling thread's warm blocks and go back to them when the call ends (spgemm_blocks.hpp): glibc maps
// arrays of these sizes afresh on every call, and their first-touch page faults were ~1/3 of an
// R_64F SpMV's host time (4096^2, 0.5 %). Host bookkeeping only: the one array the trace names by
// host address (the tiles' segment numbers) is a live block of the call, as a fresh one was.
template <class T>
void copy_warm(std::vector<T>& to, const std::vector<T>& from) {
  detail::warm_capacity(to, from.size());
  to.assign(from.begin(), from.end());
}

}  // namespace

// R_64F: op(A)'s rows as they are (op T and C are the same).
RealRows real_rows(const OpPattern& p, const double* vals, std::vector<double> x) {
  RealRows rr;
  rr.rows = p.rows;
  copy_warm(rr.start, p.start);
  copy_warm(rr.col, p.col);
  detail::warm_capacity(rr.val, p.entry.size());
  rr.val.resize(p.entry.size());
  for (std::size_t e = 0; e < p.entry.size(); ++e) rr.val[e] = vals[p.entry[e]];
  rr.xlen = p.cols;
  rr.x = std::move(x);
  return rr;
}

// C_64F: op(A) row r as real rows 2r (Re: (Re a, 2c), (-Im a, 2c + 1)) and 2r + 1 (Im: (Im a, 2c),
// (Re a, 2c + 1)) over x = [Re x_0, Im x_0, ...]; op C conjugates a first. Columns stay increasing.
RealRows real_rows(const OpPattern& p, const std::complex<double>* vals, GOp opA, const std::vector<std::complex<double>>& xc) {
  RealRows rr;
  rr.rows = 2 * p.rows;
  rr.mirrored = true;
  detail::warm_capacity(rr.start, z(rr.rows) + 1);
  rr.start.assign(z(rr.rows) + 1, 0);
  detail::warm_capacity(rr.col, 4 * p.entry.size());
  detail::warm_capacity(rr.val, 4 * p.entry.size());
  rr.col.reserve(4 * p.entry.size());
  rr.val.reserve(4 * p.entry.size());
  for (std::int64_t r = 0; r < p.rows; ++r)
    for (int part = 0; part < 2; ++part) {
      for (std::int64_t e = p.start[z(r)]; e < p.start[z(r) + 1]; ++e) {
        const std::complex<double> a = generic_host::conj_if(vals[p.entry[z(e)]], opA == GOp::C);
        const std::int64_t c = p.col[z(e)];
        rr.col.push_back(2 * c);
        rr.val.push_back(part == 0 ? a.real() : a.imag());
        rr.col.push_back(2 * c + 1);
        rr.val.push_back(part == 0 ? -a.imag() : a.real());
      }
      rr.start[z(2 * r + part) + 1] = static_cast<std::int64_t>(rr.col.size());
    }
  rr.xlen = 2 * p.cols;
  detail::warm_capacity(rr.x, 2 * xc.size());
  rr.x.resize(2 * xc.size());  // column c of X: [Re x_0c, Im x_0c, ...] (xc column-major as well)
  for (std::size_t k = 0; k < xc.size(); ++k) {
    rr.x[2 * k] = xc[k].real();
    rr.x[2 * k + 1] = xc[k].imag();
  }
  return rr;
}

RealRows::~RealRows() {
  detail::give_warm_block(start);
  detail::give_warm_block(col);
  detail::give_warm_block(val);
  detail::give_warm_block(x);
}

namespace {

// The packed entries in tiles of pmax (pattern only): tile t holds packed slots [t pmax, (t+1) pmax).
struct Tiles {
  std::int64_t count = 0;
  int J = 1;                          // most segments of any tile (the partials' width is J S_a)
  std::vector<std::int64_t> slot;     // slot of each real-row entry
  std::vector<std::int64_t> seg_row;  // [count][kSegmentsPerTile]: real row of segment j (-1: none)
  std::vector<float> seg_of;          // [count][pmax]: segment number of each slot (0 on padding)
  Tiles() = default;
  Tiles(Tiles&&) = default;
  Tiles& operator=(Tiles&&) = default;
  ~Tiles() {  // back to the thread's warm blocks (make_tiles takes them from there)
    detail::give_warm_block(slot);
    detail::give_warm_block(seg_row);
    detail::give_warm_block(seg_of);
  }
};

// A tile closes at pmax entries or kSegmentsPerTile segments; a segment is one row's run in a tile.
Tiles make_tiles(const RealRows& rr, int pmax) {
  Tiles t;
  // Warm blocks for the arrays (capacity only: a tile count past the estimate just grows them).
  const std::size_t tiles_estimate = rr.col.size() / z(pmax) + z(rr.rows) / 8 + 2;
  detail::warm_capacity(t.slot, rr.col.size());
  detail::warm_capacity(t.seg_row, tiles_estimate * kSegmentsPerTile);
  detail::warm_capacity(t.seg_of, tiles_estimate * z(pmax));
  t.slot.resize(rr.col.size());
  std::int64_t in_tile = pmax, segs = 0, last_row = -1;
  for (std::int64_t r = 0; r < rr.rows; ++r)
    for (std::int64_t e = rr.start[z(r)]; e < rr.start[z(r) + 1]; ++e) {
      bool new_segment = r != last_row;
      if (in_tile == pmax || (new_segment && segs == kSegmentsPerTile)) {
        ++t.count;
        t.seg_row.resize(z(t.count * kSegmentsPerTile), -1);
        t.seg_of.resize(z(t.count * pmax), 0.0f);
        in_tile = segs = 0;
        new_segment = true;
      }
      const std::int64_t tile = t.count - 1;
      if (new_segment) {
        t.seg_row[z(tile * kSegmentsPerTile + segs++)] = r;
        last_row = r;
      }
      t.slot[z(e)] = tile * pmax + in_tile;
      t.seg_of[z(tile * pmax + in_tile++)] = static_cast<float>(segs - 1);
      t.J = std::max(t.J, static_cast<int>(segs));
    }
  return t;
}

// The host step's output: per value its exponent offset, and the values themselves in slot order
// (the device cuts the slices, device_slices.hpp).
struct Operands {
  int Sa = 1, Sx = 1;
  std::vector<int> ex;              // per column of X: largest exponent
  bool capped = false;
  std::vector<int> er;              // per real row: largest exponent
  ScratchBuffer<double> a;          // [slots]: A's values (Inf / NaN written as 0; padding 0)
  ScratchBuffer<std::int32_t> off;  // [slots + 2 n + rows]: kSliceOffsetBias + e_r of the slot's row, then per
                                    // column of X kSliceOffsetBias + e_x, then the fold's exponents: e_x per
                                    // column, e_r per real row (one buffer: a host step names <= 4 writes)
  ScratchBuffer<double> x;          // [slots][n]: each entry's row of X (the gather; Inf / NaN as 0)
};

// Largest exponent and spread (e_max - e_min + 1, 0 if no finite nonzero) of values [lo, hi).
std::pair<int, int> exponent_range(const double* v, std::int64_t n) {
  int hi = sl::kNoExp, lo = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const int e = sl::exp_of(v[i]);
    if (e == sl::kNoExp) continue;
    lo = hi == sl::kNoExp ? e : std::min(lo, e);
    hi = std::max(hi, e);
  }
  return {hi, hi == sl::kNoExp ? 0 : hi - lo + 1};
}

// The exponent pass's declared op count per value: the exponent field, its test and the row maximum.
constexpr double kExponentFlops = 2.0;

double finite_or_zero(double v) { return std::isfinite(v) ? v : 0.0; }
std::int32_t slice_offset(int e) { return e == sl::kNoExp ? 0 : kSliceOffsetBias + e; }  // no exponent: all values 0

// Exponents and slice counts, then (unless timing only) the values, offsets and X's rows in slot
// order: the gather the emulated ISA has no indirect DMA for (host data movement).
Operands gather_operands(const RealRows& rr, const Tiles& t, int pmax, int stationary_max, bool compute) {
  Operands q;
  q.er.resize(z(rr.rows));
  int spread_a = 0;
  for (std::int64_t r = 0; r < rr.rows; ++r) {
    const auto [e, spread] = exponent_range(rr.val.data() + rr.start[z(r)], rr.start[z(r) + 1] - rr.start[z(r)]);
    q.er[z(r)] = e;
    spread_a = std::max(spread_a, spread);
  }
  int spread_x = 0;
  for (std::int64_t c = 0; c < rr.n; ++c) {
    const auto [e, spread] = exponent_range(rr.x.data() + c * rr.xlen, rr.xlen);
    q.ex.push_back(e);
    spread_x = std::max(spread_x, spread);
  }
  const int want_a = sl::exact_slices(spread_a), want_x = sl::exact_slices(spread_x);
  q.Sa = std::min(want_a, blas::kVectorMaxSlices);
  q.Sx = std::min({want_x, blas::kVectorMaxSlices, stationary_max});
  q.capped = q.Sa < want_a || q.Sx < want_x;
  const std::int64_t slots = t.count * pmax;
  q.a.allocate(z(slots), compute);
  q.off.allocate(z(slots + 2 * rr.n + rr.rows), compute);
  q.x.allocate(z(slots * rr.n), compute);
  if (!compute) return q;
  for (std::int64_t c = 0; c < rr.n; ++c) {
    q.off[z(slots + c)] = slice_offset(q.ex[z(c)]);
    q.off[z(slots + rr.n + c)] = q.ex[z(c)];
  }
  for (std::int64_t r = 0; r < rr.rows; ++r) q.off[z(slots + 2 * rr.n + r)] = q.er[z(r)];
  for (std::int64_t r = 0; r < rr.rows; ++r)
    for (std::int64_t e = rr.start[z(r)]; e < rr.start[z(r) + 1]; ++e) {
      const std::int64_t s = t.slot[z(e)];
      q.a[z(s)] = finite_or_zero(rr.val[z(e)]);
      q.off[z(s)] = slice_offset(q.er[z(r)]);
      for (std::int64_t c = 0; c < rr.n; ++c) q.x[z(s * rr.n + c)] = finite_or_zero(rr.x[z(c * rr.xlen + rr.col[z(e)])]);
    }
  return q;
}

// The launch's operands in HBM and its shape.
struct SegmentLaunch {
  const double* a;              // [slots] A's values (read as uint32 word pairs)
  const std::int32_t* aoff;     // [slots]
  const double* x;              // [slots][n]
  const std::int32_t* xoff;     // [n]
  const float* seg_of;
  float* partial;  // [tiles][n Sx][J Sa]
  std::int64_t tiles, per_program, n;
  int Sa, Sx, J;
  std::int64_t W;  // n Sx: stationary columns of a tile (TensorE takes <= gemm_stationary_fmax at once)
};

// DMA the program's fp64 values (as uint32 word pairs) and exponent offsets, then cut them into the
// bf16 slices qa [P, nt Sa] and qx [P, nt n Sx] on GpSimdE / VectorE (device_slices.hpp).
void slice_program_operands(NeuronCore& nc, const SegmentLaunch& L, std::int64_t t0, std::int64_t nt, const Tile& qa,
                            const Tile& qx) {
  const int P = nc.hw().pmax;
  AllocScope sb(nc.sbuf());
  const Tile aw = sb.alloc(DType::u32, P, {nt * 2}, "seg.awords", 0, AllocFill::none);
  const Tile ao = sb.alloc(DType::i32, P, {nt}, "seg.aoff", 0, AllocFill::none);
  const Tile xw = sb.alloc(DType::u32, P, {nt * L.n * 2}, "seg.xwords", 0, AllocFill::none);
  const Tile xo = sb.alloc(DType::i32, P, {L.n}, "seg.xoff", 0, AllocFill::none);
  nc.dma_copy(aw, tile::hbm_view(L.a + t0 * P, DType::u32, P, 2, {{nt, 2 * P}, {2, 1}}));
  nc.dma_copy(ao, tile::hbm_view(L.aoff + t0 * P, DType::i32, P, 1, {{nt, P}}));
  nc.dma_copy(xw, tile::hbm_view(L.x + t0 * P * L.n, DType::u32, P, 2 * L.n, {{nt, 2 * P * L.n}, {2 * L.n, 1}}));
  nc.dma_copy(xo, tile::hbm_view(L.xoff, DType::i32, P, 0, {{L.n, 1}}));  // every partition reads X's n offsets
  slice_fp64_on_device(nc, DeviceSliceArgs{.dst = qa, .words = aw, .offsets = view(ao, 0, {{nt, 1}, {1, 1}}),
                                           .outer = nt, .inner = 1, .S = L.Sa});
  slice_fp64_on_device(nc, DeviceSliceArgs{.dst = qx, .words = xw, .offsets = view(xo, 0, {{nt, 0}, {L.n, 1}}),
                                           .outer = nt, .inner = L.n, .S = L.Sx});
}

// One program: tiles [t0, t0 + nt) (segmented_spmv.hpp, Algorithm).
void segment_program(NeuronCore& nc, const SegmentLaunch& L) {
  const HardwareSpec& hw = nc.hw();
  const int P = hw.pmax;
  const std::int64_t t0 = nc.program_id(0) * L.per_program, nt = std::min(L.per_program, L.tiles - t0);
  const std::int64_t N = static_cast<std::int64_t>(L.J) * L.Sa, bank = hw.psum_bank_bytes / 4;
  AllocScope sb(nc.sbuf()), ps(nc.psum());
  const Tile qa = sb.alloc(DType::bf16, P, {nt * L.Sa}, "seg.qa", 0, AllocFill::none);
  const Tile qx = sb.alloc(DType::bf16, P, {nt * L.W}, "seg.qx", 0, AllocFill::none);
  const Tile seg = sb.alloc(DType::f32, P, {nt}, "seg.id", 0, AllocFill::none);
  const Tile col = sb.alloc(DType::f32, P, {L.J}, "seg.iota", 0, AllocFill::none);
  const Tile mask = sb.alloc(DType::bf16, P, {nt * L.J}, "seg.mask", 0, AllocFill::none);
  const Tile w = sb.alloc(DType::bf16, P, {nt * N}, "seg.w", 0, AllocFill::none);
  slice_program_operands(nc, L, t0, nt, qa, qx);
  nc.dma_copy(seg, tile::hbm_view(L.seg_of + t0 * P, DType::f32, P, 1, {{nt, P}}));
  const std::array<std::array<std::int64_t, 2>, 1> iota_pattern{{{1, L.J}}};
  nc.iota(col, iota_pattern, 0, 0);
  nc.tensor_tensor(view(mask, 0, {{nt, L.J}, {L.J, 1}}), view(col, 0, {{nt, 0}, {L.J, 1}}),
                   view(seg, 0, {{nt, 1}, {L.J, 0}}), AluOp::equal);
  nc.tensor_tensor(view(w, 0, {{nt, N}, {L.J, L.Sa}, {L.Sa, 1}}), view(mask, 0, {{nt, L.J}, {L.J, 1}, {L.Sa, 0}}),
                   view(qa, 0, {{nt, L.Sa}, {L.J, 0}, {L.Sa, 1}}), AluOp::multiply);
  const std::int64_t wmax = std::min<std::int64_t>(L.W, hw.gemm_stationary_fmax);
  std::vector<Tile> banks;
  for (int b = 0; b < hw.psum_banks; ++b) banks.push_back(ps.alloc(DType::f32, static_cast<std::int32_t>(wmax), {bank}, "seg.psum"));
  std::size_t next = 0;
  for (std::int64_t w0 = 0; w0 < L.W; w0 += wmax) {  // stationary chunks: columns (c, t) of X's slices
    const auto wc = static_cast<std::int32_t>(std::min(wmax, L.W - w0));
    AllocScope chunk(nc.sbuf());
    const Tile out = chunk.alloc(DType::f32, wc, {nt * N}, "seg.out", 0, AllocFill::none);
    for (std::int64_t t = 0; t < nt; ++t)
      for (std::int64_t c0 = 0; c0 < N; c0 += bank) {  // moving columns of <= one bank
        const std::int64_t nc_cols = std::min(bank, N - c0);
        const Tile acc = banks[next++ % banks.size()].rows(0, wc).cols(0, nc_cols);
        nc.nc_matmul(acc, view(qx, t * L.W + w0, {{wc, 1}}), view(w, t * N + c0, {{nc_cols, 1}}), false);
        nc.tensor_copy(view(out, t * N + c0, {{nc_cols, 1}}), acc);
      }
    nc.dma_copy(tile::hbm_view(L.partial + t0 * L.W * N + w0 * N, DType::f32, wc, N, {{nt, L.W * N}, {N, 1}}),
                view(out, 0, {{nt, N}, {N, 1}}));
  }
}

// Tiles per program: the program's SBUF (all its tiles' operands, masks, W and partials) within
// kProgramSbufBytes per partition, at most kMaxTilesPerProgram.
constexpr std::int64_t kProgramSbufBytes = 64 * 1024, kMaxTilesPerProgram = 64;
// The slicing's operands and scratch (device_slices.hpp) are freed before the masks are built, but
// are counted on top (simpler, and never short).
std::int64_t tiles_per_program(int Sa, int Sx, std::int64_t n, int J) {
  const std::int64_t N = static_cast<std::int64_t>(J) * Sa, W = n * Sx;
  const std::int64_t slicing = 12 + 8 * n + device_slice_scratch_bytes(Sa) + n * device_slice_scratch_bytes(Sx);
  const std::int64_t per_tile = 2 * (Sa + W + J) + 4 + 6 * N + slicing;
  return std::clamp<std::int64_t>(kProgramSbufBytes / per_tile, 1, kMaxTilesPerProgram);
}

// The IEEE sign of an exactly zero row sum: -0 when every product is a -0 (a zero factor, signs
// differing), else +0.
double signed_zero(const RealRows& rr, std::int64_t r, std::int64_t c) {
  const double* x = rr.x.data() + c * rr.xlen;
  for (std::int64_t e = rr.start[z(r)]; e < rr.start[z(r) + 1]; ++e)
    if (!std::signbit(rr.val[z(e)] * x[rr.col[z(e)]])) return 0.0;
  return rr.start[z(r)] < rr.start[z(r) + 1] ? -0.0 : 0.0;
}

// Per real row and column of X: the exact fold of its segments' partials, rounded once
// (digits_to_double, or round_digits_once when `exact`); p[c rows + r].
std::vector<double> fold_rows(const RealRows& rr, const Tiles& t, const Operands& q, const ScratchBuffer<float>& partial, bool exact) {
  std::vector<double> p;
  detail::warm_capacity(p, z(rr.rows * rr.n));
  p.assign(z(rr.rows * rr.n), 0.0);
  const int G = q.Sa + q.Sx - 1;
  const std::int64_t N = static_cast<std::int64_t>(t.J) * q.Sa, W = rr.n * q.Sx;
  std::vector<double> T(z(G * rr.n), 0.0);
  std::int64_t row = -1;
  auto finish = [&] {
    for (std::int64_t c = 0; c < rr.n && row >= 0; ++c)
      if (q.er[z(row)] != sl::kNoExp && q.ex[z(c)] != sl::kNoExp) {
        const int e = q.er[z(row)] + q.ex[z(c)] - 2 * sl::kSliceBits;
        p[z(c * rr.rows + row)] = exact ? sl::round_digits_once(T.data() + c * G, G, e) : sl::digits_to_double(T.data() + c * G, G, e);
      }
    std::fill(T.begin(), T.end(), 0.0);
  };
  for (std::int64_t tile = 0; tile < t.count; ++tile)
    for (int j = 0; j < t.J; ++j) {
      const std::int64_t r = t.seg_row[z(tile * kSegmentsPerTile + j)];
      if (r < 0) break;
      if (r != row) {
        finish();
        row = r;
      }
      for (std::int64_t c = 0; c < rr.n; ++c)
        for (int tx = 0; tx < q.Sx; ++tx) {
          const float* src = partial.data() + (tile * W + c * q.Sx + tx) * N + j * q.Sa;
          double* Tc = T.data() + c * G;
          for (int s = 0; s < q.Sa; ++s) Tc[s + tx] += static_cast<double>(src[s]);  // integers < 2^53: exact
        }
    }
  finish();
  return p;
}

// Rows meeting Inf or NaN (in A or in X's column): the IEEE fp64 dot in entry order, so they propagate.
std::int64_t recompute_special_rows(const RealRows& rr, std::vector<double>& p) {
  std::int64_t recomputed = 0;
  for (std::int64_t c = 0; c < rr.n; ++c) {
    const double* x = rr.x.data() + c * rr.xlen;
    for (std::int64_t r = 0; r < rr.rows; ++r) {
      bool special = false;
      for (std::int64_t e = rr.start[z(r)]; e < rr.start[z(r) + 1] && !special; ++e)
        special = !std::isfinite(rr.val[z(e)]) || !std::isfinite(x[rr.col[z(e)]]);
      if (!special) continue;
      double dot = 0;
      for (std::int64_t e = rr.start[z(r)]; e < rr.start[z(r) + 1]; ++e) dot += rr.val[z(e)] * x[rr.col[z(e)]];
      p[z(c * rr.rows + r)] = dot;
      ++recomputed;
    }
  }
  return recomputed;
}

// y = alpha p + beta y (beta == 0 never reads y), in T's fp64 arithmetic.
template <class T>
void epilogue(const std::vector<double>& p, Scalar alpha, Scalar beta, const DenseAny& C) {
  auto* y = static_cast<T*>(C.data);
  const T al = generic_host::from_scalar<T>(alpha), be = generic_host::from_scalar<T>(beta);
  const std::int64_t real_rows = std::is_same_v<T, double> ? C.rows : 2 * C.rows;
  for (std::int64_t col = 0; col < C.cols; ++col)
    for (std::int64_t i = 0; i < C.rows; ++i) {
      const double* pc = p.data() + col * real_rows;
      T v;
      if constexpr (std::is_same_v<T, double>)
        v = pc[i];
      else
        v = T(pc[2 * i], pc[2 * i + 1]);
      T& c = y[generic_host::at(C, i, col)];
      const T a = al * v;
      c = be == T(0) ? a : a + be * c;
    }
}

// op(B)'s n columns, column-major (K x n).
template <class T>
std::vector<T> gather_x(GOp opB, const DenseAny& B, std::int64_t K, std::int64_t n) {
  const auto* b = static_cast<const T*>(B.data);
  std::vector<T> x;
  detail::warm_capacity(x, z(K * n));
  x.resize(z(K * n));
  for (std::int64_t c = 0; c < n; ++c)
    for (std::int64_t k = 0; k < K; ++k)
      x[z(c * K + k)] = opB == GOp::N ? b[generic_host::at(B, k, c)]
                                      : generic_host::conj_if(b[generic_host::at(B, c, k)], opB == GOp::C);
  return x;
}

std::string segmented_plan(const SparseRef& A, GOp opA, std::int64_t M, std::int64_t K, std::int64_t n,
                           const SegmentedFacts& f, double ns) {
  return std::string(n == 1 ? "spmv" : "spmm") + " plan: " + generic_host::format_name(A.format) + " " +
         value_name(A.value) + " " + std::to_string(M) + "x" + std::to_string(K) + " nnz=" + std::to_string(A.nnz) +
         " n=" + std::to_string(n) + " op(A)=" + generic_host::op_name(opA) + "; " + segmented_summary(f) +
         "; engines host, DMA, GpSimdE, VectorE, TensorE; modeled " + std::to_string(ns / 1000.0) + " us";
}

// Exactly zero rows (not recomputed) take IEEE's sign of zero; returns the rows looked at.
std::int64_t sign_zero_rows(const RealRows& rr, std::vector<double>& p) {
  std::int64_t n = 0;
  for (std::int64_t c = 0; c < rr.n; ++c)
    for (std::int64_t r = 0; r < rr.rows; ++r)
      if (double& v = p[z(c * rr.rows + r)]; v == 0.0 && !std::signbit(v)) {
        v = signed_zero(rr, r, c);
        ++n;
      }
  return n;
}

}  // namespace

SegmentedFacts segmented_rows_product(const Settings& s, const RealRows& rr, const SegmentedSteps& steps, Trace& trace) {
  const HardwareSpec& hw = hardware_spec(s.target);
  const Tiles tiles = make_tiles(rr, hw.pmax);  // pattern only
  const Operands q = gather_operands(rr, tiles, hw.pmax, hw.gemm_stationary_fmax, !s.timing_only);
  const std::int64_t W = rr.n * q.Sx, N = static_cast<std::int64_t>(tiles.J) * q.Sa;
  const std::int64_t per = tiles_per_program(q.Sa, q.Sx, rr.n, tiles.J);
  SegmentedFacts f{.tiles = tiles.count, .programs = (tiles.count + per - 1) / per, .Sa = q.Sa, .Sx = q.Sx, .J = tiles.J,
                   .capped = q.capped};
  ScratchBuffer<float> partial;
  // Not zero-filled: every program DMAs all W x N partials of each of its tiles (segment_program).
  partial.allocate(z(tiles.count * W * N), false);
  const std::int64_t slots = tiles.count * hw.pmax;
  record_host_step(trace, HostStep{.name = steps.exponents,
                                   .flops = kExponentFlops * static_cast<double>(rr.val.size() + rr.x.size()),
                                   .reads = steps.reads,
                                   .writes = {HostSpan(q.a.data(), static_cast<std::int64_t>(q.a.size())),
                                              HostSpan(q.off.data(), static_cast<std::int64_t>(q.off.size())),
                                              HostSpan(q.x.data(), static_cast<std::int64_t>(q.x.size())),
                                              HostSpan(tiles.seg_of.data(), slots)}});
  if (f.programs > 0) {
    const SegmentLaunch L{q.a.data(), q.off.data(), q.x.data(), q.off.data() + slots, tiles.seg_of.data(), partial.data(),
                          tiles.count, per, rr.n, q.Sa, q.Sx, tiles.J, W};
    LaunchResult r = launch(s.launch_config({static_cast<int>(f.programs), 1, 1}),
                            [&](NeuronCore& nc) { segment_program(nc, L); });
    trace.append(std::move(r.trace));
  }
  // The fold on GpSimdE (trn/blas/fp64_fold_device.hpp), unless a row's partials exceed one program.
  ScratchBuffer<double> folded;
  folded.allocate(z(rr.rows * rr.n), false);
  const blas::DeviceFoldArgs fa{.partial = partial.data(), .tiles = tiles.count, .n = rr.n, .rows = rr.rows, .Sx = q.Sx,
                                .Sa = q.Sa, .J = tiles.J, .seg_row = tiles.seg_row, .seg_stride = kSegmentsPerTile,
                                .row_exp = q.off.data() + slots + 2 * rr.n, .col_exp = q.off.data() + slots + rr.n,
                                .correctly_rounded = steps.correctly_rounded, .out = folded.data(),
                                .host_fold_ns = blas::host_fold_ns(hw, static_cast<double>(partial.size()),
                                                                   static_cast<double>(rr.rows * rr.n), q.Sa + q.Sx - 1)};
  if (f.programs > 0) {
    const blas::DeviceFoldFacts df = blas::fold_on_device(s.launch_config(), fa, trace);
    f.fold_on_device = df.fits;
    f.fold_programs = df.programs;
  }
  if (!s.timing_only) {
    std::vector<double> p;
    if (f.fold_on_device) {
      detail::warm_capacity(p, z(rr.rows * rr.n));
      p.resize(z(rr.rows * rr.n));
      for (std::int64_t r = 0; r < rr.rows; ++r)
        for (std::int64_t c = 0; c < rr.n; ++c) p[z(c * rr.rows + r)] = folded[z(r * rr.n + c)];
    } else {
      p = fold_rows(rr, tiles, q, partial, steps.correctly_rounded);
    }
    f.special = recompute_special_rows(rr, p);
    if (steps.correctly_rounded) f.special += sign_zero_rows(rr, p);
    if (steps.epilogue) steps.epilogue(p);
    detail::give_warm_block(p);
  }
  // The host visit: the epilogue on the folded rows (and, without the device fold, the fold itself).
  const double G = q.Sa + q.Sx - 1, outputs = static_cast<double>(rr.rows * rr.n);
  const double fold_flops = f.fold_on_device ? 3.0 * outputs : static_cast<double>(partial.size()) + (5.0 * G + 3.0) * outputs;
  const HostSpan fold_in = f.fold_on_device ? HostSpan(folded.data(), static_cast<std::int64_t>(folded.size()))
                                            : HostSpan(partial.data(), static_cast<std::int64_t>(partial.size()));
  record_host_step(trace, HostStep{.name = steps.fold,
                                   .flops = fold_flops + 2.0 * static_cast<double>(f.special) * static_cast<double>(rr.xlen) +
                                            steps.epilogue_flops,
                                   .reads = {fold_in, steps.fold_read, steps.fold_reads_more[0], steps.fold_reads_more[1]},
                                   .writes = {steps.fold_write, steps.fold_writes_more[0], steps.fold_writes_more[1]}});
  return f;
}

namespace {

template <class T>
void segmented_typed(const Settings& s, GOp opA, GOp opB, Scalar alpha, const SparseRef& A, const DenseAny& B,
                     Scalar beta, const DenseAny& C, CallReport* report, const FoldFollowUp* follow_up, bool trace_only) {
  const OpPattern pat = op_pattern(A, opA);
  const std::int64_t M = pat.rows, K = pat.cols;
  RealRows rr;
  if constexpr (std::is_same_v<T, double>) {
    rr = real_rows(pat, static_cast<const double*>(A.values), gather_x<double>(opB, B, K, C.cols));
  } else {
    std::vector<T> xc = gather_x<T>(opB, B, K, C.cols);
    rr = real_rows(pat, static_cast<const T*>(A.values), opA, xc);
    detail::give_warm_block(xc);
  }
  rr.n = C.cols;
  const auto a = generic_host::sparse_spans(A);
  SegmentedSteps steps;
  steps.reads = {a[0], a[1], a[2], generic_host::dense_span(B)};
  steps.fold_read = beta != Scalar(0) ? generic_host::dense_span(C) : HostSpan{};
  steps.fold_write = generic_host::dense_span(C);
  steps.epilogue = [&](std::vector<double>& p) {
    epilogue<T>(p, alpha, beta, C);
    if (follow_up != nullptr) follow_up->run();
  };
  if (follow_up != nullptr) {
    steps.epilogue_flops = follow_up->flops;
    steps.fold_reads_more = {follow_up->read, HostSpan{}};
    steps.fold_writes_more = {follow_up->write, HostSpan{}};
  }
  Trace trace;
  const SegmentedFacts f = segmented_rows_product(s, rr, steps, trace);
  if (report == nullptr) return;
  *report = CallReport{};
  report->matmuls = trace.per_engine[static_cast<int>(Engine::tensor)];
  report->blocks = f.tiles;
  ReportSettings rs = ReportSettings::of(s);
  rs.trace_only = trace_only;
  trn::finish_report(*report, std::move(trace), rs);
  if (report->plans_wanted) report->add_plan(segmented_plan(A, opA, M, K, rr.n, f, report->profile.total_ns));
}

}  // namespace

std::string segmented_summary(const SegmentedFacts& f) {
  return "segmented slice pairs: " + std::to_string(f.tiles) + " tiles of <= 128 entries (<= " + std::to_string(f.J) +
         " row segments each), " + std::to_string(f.Sa) + " x " + std::to_string(f.Sx) + " 8-bit slices" +
         (f.capped ? " (capped)" : "") + ", one launch of " + std::to_string(f.programs) +
         " programs (DMA of the fp64 words, GpSimdE / VectorE slicing, VectorE masks, TensorE segment sums, "
         "exact), " +
         (f.fold_on_device ? "the exact fold on GpSimdE (one launch of " + std::to_string(f.fold_programs) +
                                 " programs), host exponents + epilogue (2 round trips)"
                           : std::string("host exponents + fold (2 round trips)"));
}

void spmm_fp64_segmented(const Settings& s, GOp opA, GOp opB, Scalar alpha, const SparseRef& A, const DenseAny& B,
                         Scalar beta, const DenseAny& C, CallReport* report, const FoldFollowUp* follow_up, bool trace_only) {
  if (A.value == Value::f64)
    segmented_typed<double>(s, opA, opB, alpha, A, B, beta, C, report, follow_up, trace_only);
  else
    segmented_typed<std::complex<double>>(s, opA, opB, alpha, A, B, beta, C, report, follow_up, trace_only);
}

}  // namespace trn::sparse
