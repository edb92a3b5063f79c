// The exact fold of fp64 slice-pair partials on GpSimdE: algorithm, engines, accuracy and limits in
// trn/blas/fp64_fold_device.hpp; the design in docs/trnblas.md "The fold on GpSimdE".
#include "trn/blas/fp64_fold_device.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "trn/blas/fp64_slices.hpp"
#include "trn/blas/blas.hpp"
#include "trn/core/neuron_core.hpp"
#include "trn/core/scratch.hpp"
#include "trn/tile/view.hpp"
#include "trn/tile/gpsimd_fp64.hpp"

namespace trn::blas {
namespace {

inline auto z(std::int64_t i) { return static_cast<std::size_t>(i); }

// SBUF per partition for one program's partials (and, separately, its output words): a budget, not
// the capacity, so the operator's scratch and the caller's next launch never meet a full SBUF.
constexpr std::int64_t kFoldPartialBytes = 64 * 1024, kFoldOutputBytes = 16 * 1024;

// ---- declared GpSimd operation counts (int32 / uint32 lane operations) ---------------------------
// Software fp64 on 32-bit integer lanes: one f64_add as the suite's shared table counts it
// (trn/tile/gpsimd_fp64.hpp, after Berkeley SoftFloat 3e's addMagsF64 / subMagsF64).
constexpr double kSoftFp64AddOps = trn::tile::gpsimd_fp64::kAdd;
//   i64_to_f64 with round to nearest even: sign and magnitude (3), leading zeros over two words (4),
//   the normalising two-word shift (4), round increment with its sticky and ties-to-even (6), pack (3).
constexpr double kTwoWordToFp64Ops = 20;
//   ldexp / scale2 of a finite fp64 by an integer: exponent field out (2), add (1), normal / overflow
//   / subnormal tests (3), the subnormal case's shift with sticky and rounding (5), pack (1).
constexpr double kLdexpOps = 12;
// The integer fold (two-word = 64-bit integers on 32-bit lanes), per digit g = 1 .. G-1:
//   carry normalisation: the arithmetic shift of two words by 8 (lo >> 8 | hi << 24, hi >> 8: 3), the
//   digit's low 8 bits (1), the carry added into T[g-1] (add, carry-out compare, add: 3) = 7;
//   sign, counted as if always negative: 255 - T[g] (1), the final + 1's carry (compare, subtract, add: 3) = 4.
constexpr double kCarrySignOpsPerDigit = 11;
// digits_to_double per digit: the 8-bit digit to fp64 (count leading zeros, shift, exponent, two word
// packs: 5), scale2 by 2^-8g (exponent-field add and range test: 3), then one software fp64 add.
constexpr double kDigitsToDoubleOpsPerDigit = 5 + 3 + kSoftFp64AddOps;
// round_digits_once per digit: the two-word shift by 8 (3), the or (1), the 2^55 test or the sticky or (2).
constexpr double kRoundOnceOpsPerDigit = 6;
// Per output, both: the exponent e = e_r + e_c - 16 and the no-exponent tests (4), the sign (1), the
// two result words stored (2).
constexpr double kOutputFixedOps = 7;
// The sums: per partial a load, the fp32 -> int32 conversion (an integer < 2^24) and the int32 add into
// its segment's weight sum (< 7 * 2^24 < 2^31) = 3; per segment its row number loaded and range-tested (2);
// per segment, column and weight its sum added into the row's two-word accumulator (add, carry-out
// compare, add, add the carry: 4).
constexpr double kOpsPerPartial = 3, kOpsPerSegment = 2, kOpsPerSegmentWeight = 4;

// One program: output rows [r0, r1) and columns [c0, c0 + nc); tiles [t0, t0 + nt), m per partition
// (partition q holds tiles t0 + q m ...), k rows per partition of the output (and of the row exponents).
struct FoldProgram {
  std::int64_t r0 = 0, r1 = 0, t0 = 0, nt = 0, c0 = 0, nc = 0, m = 0, k = 1;
};

struct FoldPlan {
  bool fits = true;
  std::vector<FoldProgram> programs;
};

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// First and last tile of every row ([rows] each, -1: a row without segments).
void row_tile_ranges(const DeviceFoldArgs& a, std::vector<std::int64_t>& first, std::vector<std::int64_t>& last) {
  first.assign(z(a.rows), -1);
  last.assign(z(a.rows), -1);
  for (std::int64_t t = 0; t < a.tiles; ++t)
    for (int j = 0; j < a.J; ++j) {
      const std::int64_t r = a.seg_row[z(t * a.seg_stride + j)];
      if (r < 0) break;
      if (first[z(r)] < 0) first[z(r)] = t;
      last[z(r)] = t;
    }
}

// The column groups of one row run: as many columns as the partials' and the output's budgets allow.
void add_column_groups(const DeviceFoldArgs& a, int P, std::int64_t r0, std::int64_t r1, std::int64_t t0, std::int64_t t1,
                       FoldPlan& plan) {
  const std::int64_t N = static_cast<std::int64_t>(a.J) * a.Sa, nt = t1 - t0;
  const std::int64_t m = nt > 0 ? ceil_div(nt, P) : 0, k = std::max<std::int64_t>(1, ceil_div(r1 - r0, P));
  std::int64_t nc = std::min<std::int64_t>(a.n, std::max<std::int64_t>(1, kFoldOutputBytes / (8 * k)));
  if (m > 0) nc = std::min<std::int64_t>(nc, std::max<std::int64_t>(1, kFoldPartialBytes / (4 * m * a.Sx * N)));
  for (std::int64_t c0 = 0; c0 < a.n; c0 += nc)
    plan.programs.push_back(FoldProgram{r0, r1, t0, nt, c0, std::min(nc, a.n - c0), m, k});
}

// Rows in order, grouped while their tiles (m per partition, one column's partials within
// kFoldPartialBytes) and their outputs (one column within kFoldOutputBytes) fit one program.
FoldPlan plan_fold(const DeviceFoldArgs& a, int P) {
  FoldPlan plan;
  std::vector<std::int64_t> first, last;
  row_tile_ranges(a, first, last);
  const std::int64_t N = static_cast<std::int64_t>(a.J) * a.Sa;
  const std::int64_t max_tiles = P * (kFoldPartialBytes / (4 * a.Sx * N)), max_rows = P * (kFoldOutputBytes / 8);
  std::int64_t r0 = 0, t0 = -1, t1 = -1;  // the open group: rows [r0, r), tiles [t0, t1) (-1: none yet)
  const auto close_group = [&](std::int64_t r) {
    add_column_groups(a, P, r0, r, std::max<std::int64_t>(t0, 0), std::max<std::int64_t>(t1, 0), plan);
    r0 = r;
    t0 = t1 = -1;
  };
  for (std::int64_t r = 0; r < a.rows; ++r) {
    if (r - r0 + 1 > max_rows) close_group(r);
    if (first[z(r)] < 0) continue;  // a row without segments: its outputs are +0
    if (r > r0 && t0 >= 0 && last[z(r)] + 1 - t0 > max_tiles) close_group(r);
    if (t0 < 0) t0 = first[z(r)];
    t1 = last[z(r)] + 1;
    if (t1 - t0 > max_tiles) return FoldPlan{.fits = false, .programs = {}};  // one row alone is too long
  }
  if (a.rows > r0) add_column_groups(a, P, r0, a.rows, std::max<std::int64_t>(t0, 0), std::max<std::int64_t>(t1, 0), plan);
  return plan;
}

// The operator's declared cycles: its busiest partition (partition 0 holds m tiles and k output rows)
// does the sums of its tiles' partials and segments, then the fold of its outputs.
double fold_operator_cycles(const HardwareSpec& hw, const DeviceFoldArgs& a, const FoldProgram& p) {
  const int G = a.Sa + a.Sx - 1;
  const double partials = static_cast<double>(p.m * p.nc * a.Sx) * a.J * a.Sa;
  const double segments = static_cast<double>(p.m) * a.J;
  const double sums = kOpsPerPartial * partials + segments * (kOpsPerSegment + kOpsPerSegmentWeight * G * static_cast<double>(p.nc));
  return hw.gpsimd_start + sums + static_cast<double>(p.k * p.nc) * fold_ops_per_output(G, a.correctly_rounded);
}

// The operator's C++ (the GpSimd program): the sums by weight in 64-bit integers, then fold_digits.
void run_fold_operator(const DeviceFoldArgs& a, const FoldProgram& p, const CustomOpContext& ctx) {
  const int G = a.Sa + a.Sx - 1;
  const std::int64_t N = static_cast<std::int64_t>(a.J) * a.Sa, Wc = p.nc * a.Sx, rows = p.r1 - p.r0;
  // The sums by weight in a per-thread array kept between programs and calls: a fresh vector of this
  // size (rows x columns x G int64, ~0.5 MB for an R_64F SpMV 4096^2) was mapped afresh by glibc on
  // every call, ~140 first-touch page faults each (host memory only: never addressed by a trace).
  thread_local std::vector<std::int64_t> acc;
  acc.assign(z(rows * p.nc * G), 0);
  for (std::int64_t tt = 0; tt < p.nt; ++tt) {
    const auto q = static_cast<std::int32_t>(tt / p.m);
    const std::int64_t tl = tt % p.m;
    const auto* part = reinterpret_cast<const float*>(ctx.inputs[0].at(q, 0)) + tl * Wc * N;
    const auto* seg = reinterpret_cast<const std::int32_t*>(ctx.inputs[1].at(q, 0)) + tl * a.J;
    for (int j = 0; j < a.J && seg[j] >= 0; ++j) {
      if (seg[j] < p.r0 || seg[j] >= p.r1) continue;
      for (std::int64_t c = 0; c < p.nc; ++c) {
        std::int64_t* T = acc.data() + ((seg[j] - p.r0) * p.nc + c) * G;
        for (int x = 0; x < a.Sx; ++x) {
          const float* src = part + (c * a.Sx + x) * N + static_cast<std::int64_t>(j) * a.Sa;
          for (int s = 0; s < a.Sa; ++s) T[s + x] += static_cast<std::int64_t>(src[s]);  // integers < 2^24
        }
      }
    }
  }
  const std::size_t base = p.nt > 0 ? 2 : 0;
  const Tile& rexp = ctx.inputs[base];
  const auto* cexp = reinterpret_cast<const std::int32_t*>(ctx.inputs[base + 1].at(0, 0));
  for (std::int64_t i = 0; i < rows; ++i) {
    const auto q = static_cast<std::int32_t>(i / p.k);
    const std::int32_t er = *reinterpret_cast<const std::int32_t*>(rexp.at(q, i % p.k));
    auto* words = reinterpret_cast<std::uint32_t*>(ctx.outputs[0].at(q, 0)) + (i % p.k) * p.nc * 2;
    for (std::int64_t c = 0; c < p.nc; ++c) {
      double v = 0.0;
      if (er != slices::kNoExp && cexp[c] != slices::kNoExp) {
        double T[2 * kVectorMaxSlices];
        for (int g = 0; g < G; ++g) T[g] = static_cast<double>(acc[z((i * p.nc + c) * G + g)]);  // < 2^53: exact
        v = fold_digits(T, G, er + cexp[c] - 2 * slices::kSliceBits, a.correctly_rounded);
      }
      std::memcpy(words + 2 * c, &v, sizeof v);  // the two uint32 words, low word first (little-endian HBM)
    }
  }
}

// DMA rows of `count` consecutive runs (run i at hbm + i run_stride, `len` elements) into
// dst's partitions, `per` runs to a partition: whole partitions, then the last partial one.
void dma_runs_in(NeuronCore& nc, const Tile& dst, const void* hbm, DType dt, std::int64_t count, std::int64_t per,
                 std::int64_t run_stride, std::int64_t len) {
  const std::int64_t full = count / per, rest = count % per, es = dtype_size(dt);
  if (full > 0)
    nc.dma_copy(dst.rows(0, static_cast<std::int32_t>(full)).cols(0, per * len),
                tile::hbm_view(hbm, dt, static_cast<std::int32_t>(full), per * run_stride, {{per, run_stride}, {len, 1}}));
  if (rest > 0)
    nc.dma_copy(dst.rows(static_cast<std::int32_t>(full), 1).cols(0, rest * len),
                tile::hbm_view(static_cast<const std::byte*>(hbm) + full * per * run_stride * es, dt, 1, 0,
                               {{rest, run_stride}, {len, 1}}));
}

// The same layout out of SBUF into HBM.
void dma_runs_out(NeuronCore& nc, void* hbm, const Tile& src, DType dt, std::int64_t count, std::int64_t per,
                  std::int64_t run_stride, std::int64_t len) {
  const std::int64_t full = count / per, rest = count % per, es = dtype_size(dt);
  if (full > 0)
    nc.dma_copy(tile::hbm_view(hbm, dt, static_cast<std::int32_t>(full), per * run_stride, {{per, run_stride}, {len, 1}}),
                src.rows(0, static_cast<std::int32_t>(full)).cols(0, per * len));
  if (rest > 0)
    nc.dma_copy(tile::hbm_view(static_cast<std::byte*>(hbm) + full * per * run_stride * es, dt, 1, 0, {{rest, run_stride}, {len, 1}}),
                src.rows(static_cast<std::int32_t>(full), 1).cols(0, rest * len));
}

// One program (fp64_fold_device.hpp, Algorithm).
void fold_program(NeuronCore& nc, const DeviceFoldArgs& a, const std::int32_t* seg32, const FoldProgram& p) {
  const int P = nc.hw().pmax;
  const std::int64_t N = static_cast<std::int64_t>(a.J) * a.Sa, W = a.n * a.Sx, Wc = p.nc * a.Sx, rows = p.r1 - p.r0;
  const auto used_rows = static_cast<std::int32_t>(ceil_div(rows, p.k));
  AllocScope sb(nc.sbuf());
  std::vector<Tile> inputs;
  if (p.nt > 0) {
    const auto used = static_cast<std::int32_t>(ceil_div(p.nt, p.m));
    const Tile part = sb.alloc(DType::f32, P, {p.m * Wc * N}, "fold.partials", 0, AllocFill::none);
    const Tile segs = sb.alloc(DType::i32, P, {p.m * a.J}, "fold.rows", 0, AllocFill::none);
    dma_runs_in(nc, part, a.partial + (p.t0 * W + p.c0 * a.Sx) * N, DType::f32, p.nt, p.m, W * N, Wc * N);
    dma_runs_in(nc, segs, seg32 + p.t0 * a.J, DType::i32, p.nt, p.m, a.J, a.J);
    inputs.push_back(part.rows(0, used));
    inputs.push_back(segs.rows(0, used));
  }
  const Tile rexp = sb.alloc(DType::i32, P, {p.k}, "fold.row_exp", 0, AllocFill::none);
  const Tile cexp = sb.alloc(DType::i32, P, {p.nc}, "fold.col_exp", 0, AllocFill::none);
  const Tile res = sb.alloc(DType::u32, P, {p.k * p.nc * 2}, "fold.words", 0, AllocFill::none);
  dma_runs_in(nc, rexp, a.row_exp + p.r0, DType::i32, rows, p.k, 1, 1);
  nc.dma_copy(cexp.rows(0, 1), tile::hbm_view(a.col_exp + p.c0, DType::i32, 1, 0, {{p.nc, 1}}));
  inputs.push_back(rexp.rows(0, used_rows));
  inputs.push_back(cexp.rows(0, 1));
  const Tile outputs[] = {res.rows(0, used_rows)};
  nc.custom_op("fp64_slice_fold", outputs, inputs, fold_operator_cycles(nc.hw(), a, p),
               [&](const CustomOpContext& ctx) { run_fold_operator(a, p, ctx); });
  dma_runs_out(nc, a.out + p.r0 * a.n + p.c0, res, DType::u32, rows, p.k, 2 * a.n, 2 * p.nc);
}

// The launch's estimate (for the host-or-device choice only; the trace is what the cost model times):
// per program three dependent DMA set-ups (in, out, and the exponents') and the operator's cycles,
// plus the partials' bytes over every DMA engine at the HBM efficiency.
double device_fold_ns(const HardwareSpec& hw, const DeviceFoldArgs& a, const FoldPlan& plan) {
  double ns = 0;
  for (const FoldProgram& p : plan.programs) ns += 3.0 * hw.dma_fixed_ns + fold_operator_cycles(hw, a, p) / hw.gpsimd_ghz;
  const double bytes = 4.0 * static_cast<double>(a.tiles * a.n * a.Sx) * a.J * a.Sa;
  return ns + bytes / (hw.dma_bytes_per_ns * hw.dma_hbm_efficiency * hw.dma_engines);
}

}  // namespace

double host_fold_ns(const HardwareSpec& hw, double partials, double outputs, int G) {
  return std::max(0.0, 4.0 * partials - 8.0 * outputs) / hw.host_link_bytes_per_ns +
         (partials + 5.0 * G * outputs) / hw.host_fp64_flops_per_ns;
}

double fold_digits(double* T, int G, int e, bool correctly_rounded) {
  return correctly_rounded ? slices::round_digits_once(T, G, e) : slices::digits_to_double(T, G, e);
}

double fold_ops_per_output(int G, bool correctly_rounded) {
  const double digits = G - 1;
  const double rounding = correctly_rounded
                              ? kRoundOnceOpsPerDigit * digits + kTwoWordToFp64Ops + kLdexpOps
                              : kDigitsToDoubleOpsPerDigit * digits + kTwoWordToFp64Ops + kSoftFp64AddOps + kLdexpOps;
  return kCarrySignOpsPerDigit * digits + rounding + kOutputFixedOps;
}

DeviceFoldFacts fold_on_device(const LaunchConfig& lc, const DeviceFoldArgs& a, Trace& trace) {
  const HardwareSpec& hw = hardware_spec(lc.core.generation);
  FoldPlan plan = plan_fold(a, hw.pmax);
  DeviceFoldFacts f{.fits = plan.fits, .programs = static_cast<std::int64_t>(plan.programs.size())};
  if (!plan.fits || plan.programs.empty()) return f;
  f.device_ns = device_fold_ns(hw, a, plan);
  if (a.host_fold_ns >= 0 && a.host_fold_ns <= f.device_ns) {
    f.fits = false;
    f.host_cheaper = true;
    return f;
  }
  // The segments' rows as int32 (pattern only); DMAed in, so on the scratch stack (docs/cost-model.md
  // section 2, "Scratch addresses").
  ScratchVector<std::int32_t> seg32(z(a.tiles * a.J));
  for (std::int64_t t = 0; t < a.tiles; ++t)
    for (int j = 0; j < a.J; ++j) seg32[z(t * a.J + j)] = static_cast<std::int32_t>(a.seg_row[z(t * a.seg_stride + j)]);
  LaunchConfig c = lc;
  c.grid = {static_cast<int>(plan.programs.size()), 1, 1};
  LaunchResult r = launch(c, [&](NeuronCore& nc) { fold_program(nc, a, seg32.data(), plan.programs[z(nc.program_id(0))]); });
  trace.append(std::move(r.trace));
  return f;
}

}  // namespace trn::blas
