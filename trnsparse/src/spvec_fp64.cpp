// Sparse-vector arithmetic in R_64F / C_64F on the emulated engines: Axpby, Rot and SpVV as exact
// slice-pair dots of the segmented kernel (docs/trnsparse.md "Sparse vectors in fp64").
//
// Algorithm   Every output is a short linear combination sum_k d_k c_k of values d_k of x or y and
//             coefficients c_k, each product exact on TensorE and the sum rounded once:
//               Axpby   y_i' = beta y_i + alpha sum_{e: idx_e = i} x_e   (each position x holds;
//                       coefficients [beta, alpha]). A position held by no entry is left as it is
//                       when beta == 1 (1 y = y exactly); any other beta scales those positions
//                       first in one GpSimdE launch (s16/sparse): y in chunks of 128 x 512 values,
//                       DMA in, custom operator `axpby_fp64_scale` (software fp64, gpsimd_fp64.hpp:
//                       R_64F one product, C_64F per part two exact products summed and rounded once),
//                       DMA back in runs of positions no entry holds; the bits are those the former
//                       one-term kernel rows gave (round_products_once), except that a row the
//                       kernel's slice cap truncated is now the correctly rounded value
//               Rot     x_e' = c x_e + s y_i,  y_i' = c y_i + (-s) x_e     (coefficients [c, s, -s])
//               SpVV    sum_e op(x_e) y_{idx_e}                          (coefficients y_{idx_e})
//             The combinations become the segmented kernel's real rows (segmented_spmv.hpp): a row's
//             entries are the data d_k (its own exponent: the row's largest), the kernel's X is the
//             coefficient line. C_64F runs through the real representation: the output re/im rows are
//             (d_re, c_re), (d_im, -c_im) and (d_re, c_im), (d_im, c_re), so the line holds per complex
//             coefficient [c_re, -c_im, c_im, c_re] (sign flips and copies: exact). Per call ONE
//             launch between the kernel's two host steps (`trnsparse.<op>.exponents`: exponents and
//             the gather of each row's data in tile order; `trnsparse.<op>.fold`: the exact fold of
//             the slice-pair sums, round_digits_once, stored to y / x / the result). Rot with an index
//             stored twice runs the duplicate-free rounds of spvec_engine.hpp one after the other (one
//             launch each: a round reads y as the round before left it), as the host loop did;
//             Axpby sums every entry of a position exactly (one rounding, not one per entry).
// Engines     host (exponents + gather, fold), DMA, GpSimdE / VectorE (slicing; Axpby's scaling pass),
//             VectorE (masks),
//             TensorE (slice-pair segment sums, exact in fp32 PSUM). Deterministic: the bits depend on
//             the values and the pattern only (any host thread or core count).
// Accuracy    (u = 2^-53) Every real output (each part of a complex one) is the exact value of its
//             combination correctly rounded: |err| <= u |exact| (Axpby, Rot, SpVV alike), unless
//             a line's exponent spread asks for more than kVectorMaxSlices slices (the plan says
//             "capped": bits below 2^(e_max - 8 S) truncated) or the result is subnormal (rounded
//             twice). Exceptions (documented choice, docs/trnsparse.md): an output meeting Inf or NaN
//             (in its data or coefficients) is the IEEE fp64 sum of its products in the order above
//             (0 + beta y + alpha x ...), so NaN and Inf propagate as the C99 expression would (complex:
//             the real formula, no Annex G recovery of infinities); finite inputs never overflow
//             before the final rounding (beta y + alpha x is exact even where beta y alone would
//             overflow); an exactly zero output is -0 only when every product is -0 (IEEE's rule).
// Limits      Two host round trips per launch, and the fold's (5 G + 3) host operations and Sa x Sx
//             partials per output: SpVV (one long row) beats the former host step, Rot is ~4x its
//             modeled time (docs/trnsparse.md "Sparse vectors in fp64", measured). Axpby with beta != 1
//             pays the GpSimdE pass over all of y (74 / 414 lane ops per R_64F / C_64F value) and one
//             DMA descriptor per run of positions without an entry on the way back. S per launch
//             follows the widest spread of a row (data) and of the coefficient line.
#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <numeric>
#include <span>
#include <string_view>
#include <string>
#include <vector>

#include "generic_detail.hpp"
#include "generic_host.hpp"
#include "segmented_spmv.hpp"
#include "spgemm_blocks.hpp"
#include "spvec_engine.hpp"
#include "trn/core/spmd.hpp"
#include "trn/tile/gpsimd_fp64.hpp"

namespace trn::sparse {

namespace {

using cd = std::complex<double>;
std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

cd load(const void* p, bool cx, std::int64_t i) {
  return cx ? static_cast<const cd*>(p)[i] : cd(static_cast<const double*>(p)[i]);
}
void store(void* p, bool cx, std::int64_t i, cd v) {
  if (cx)
    static_cast<cd*>(p)[i] = v;
  else
    static_cast<double*>(p)[i] = v.real();
}

// The real rows of a list of outputs, each a combination sum_k d_k c_{coef k}, over the coefficient
// line (Algorithm): terms are added to the open output, end_output() closes it (complex: its re row
// then its im row).
struct Combinations {
  RealRows rr;
  bool cx = false;
  std::vector<std::pair<cd, std::int64_t>> open;

  // terms / outputs: upper bounds of the entries and outputs to come. The rows' arrays take the thread's
  // warm blocks at their final size (spgemm_blocks.hpp): no growth copies, no fresh pages per call.
  Combinations(bool complex, const std::vector<cd>& coefficients, std::int64_t terms, std::int64_t outputs) : cx(complex) {
    const std::size_t w = cx ? 4 : 1, entries = z(terms) * w, rows = z(outputs) * (cx ? 2 : 1) + 1;
    detail::warm_capacity(rr.start, rows);
    detail::warm_capacity(rr.col, entries);
    detail::warm_capacity(rr.val, entries);
    detail::warm_capacity(rr.x, coefficients.size() * w);
    rr.start.reserve(rows);
    rr.col.reserve(entries);
    rr.val.reserve(entries);
    rr.x.reserve(coefficients.size() * w);
    rr.start.assign(1, 0);
    for (const cd c : coefficients) {
      if (!cx) {
        rr.x.push_back(c.real());
        continue;
      }
      rr.x.insert(rr.x.end(), {c.real(), -c.imag(), c.imag(), c.real()});
    }
    rr.xlen = static_cast<std::int64_t>(rr.x.size());
  }
  void term(cd d, std::int64_t k) { open.emplace_back(d, k); }
  void close_row() {
    rr.start.push_back(static_cast<std::int64_t>(rr.col.size()));
    ++rr.rows;
  }
  void end_output() {
    if (!cx) {
      for (const auto& [d, k] : open) push(d.real(), k);
      close_row();
    } else {
      for (int part = 0; part < 2; ++part) {  // re: (d_re, c_re), (d_im, -c_im); im: (d_re, c_im), (d_im, c_re)
        for (const auto& [d, k] : open) {
          push(d.real(), 4 * k + 2 * part);
          push(d.imag(), 4 * k + 2 * part + 1);
        }
        close_row();
      }
    }
    open.clear();
  }
  void push(double v, std::int64_t col) {
    rr.val.push_back(v);
    rr.col.push_back(col);
  }
  // Output o of the folded rows.
  cd output(const std::vector<double>& p, std::int64_t o) const { return cx ? cd(p[z(2 * o)], p[z(2 * o + 1)]) : cd(p[z(o)]); }
};

// What the plan prints, summed over the call's launches.
struct Fp64VecCounts {
  std::int64_t launches = 0, tiles = 0, rows = 0, special = 0;
  std::int64_t scale_chunks = 0, scale_descriptors = 0;  // Axpby's GpSimdE pass over the other positions
  int Sa = 1, Sx = 1;
  bool capped = false;
};

struct VecSpans {
  HostSpan idx, xv, y;
};
// y's span covers the vector (the dependency region); its bytes are the `touched` values the host
// steps gather and store (x's positions, or all of y when Axpby scales every position).
VecSpans vec_spans(const SpVecRef& x, const void* y, std::int64_t touched) {
  VecSpans sp{generic_host::bytes_span(x.indices, x.nnz, generic_host::index_bytes(x.index_type)),
              generic_host::bytes_span(x.values, x.nnz, value_bytes(x.value)),
              generic_host::bytes_span(y, x.size, value_bytes(x.value))};
  sp.y.bytes = static_cast<std::size_t>(std::min(touched, x.size)) * value_bytes(x.value);
  return sp;
}

// The kernel's host steps for `routine`: the exponent pass reads x (indices, values) and y.
SegmentedSteps vec_steps(std::string_view exponents, std::string_view fold, const VecSpans& sp) {
  SegmentedSteps steps;
  steps.exponents = exponents;
  steps.fold = fold;
  steps.reads = {sp.idx, sp.xv, sp.y, HostSpan{}};
  steps.correctly_rounded = true;
  return steps;
}

// One launch of the segmented kernel on `comb`, its trace appended, its facts counted.
void run_combinations(const Settings& s, const Combinations& comb, const SegmentedSteps& steps, Trace& trace, Fp64VecCounts& n) {
  const SegmentedFacts f = segmented_rows_product(s, comb.rr, steps, trace);
  ++n.launches;
  n.tiles += f.tiles;
  n.rows += comb.rr.rows;
  n.special += f.special;
  n.Sa = std::max(n.Sa, f.Sa);
  n.Sx = std::max(n.Sx, f.Sx);
  n.capped = n.capped || f.capped;
}

std::vector<std::int64_t> positions(const SpVecRef& x) {
  std::vector<std::int64_t> pos(z(x.nnz));
  generic_detail::for_each_spvec(x, [&](std::int64_t i, std::int64_t e) { pos[z(e)] = i; });
  return pos;
}

void finish_fp64(const Settings& s, const char* routine, const SpVecRef& x, double flops, const Fp64VecCounts& n,
                 Trace&& trace, CallReport* report) {
  if (report == nullptr) return;
  *report = CallReport{};
  report->matmuls = trace.per_engine[static_cast<int>(Engine::tensor)];
  report->blocks = n.tiles;
  finish_report(*report, std::move(trace), ReportSettings::of(s));
  if (!report->plans_wanted) return;
  PlanFacts p;
  p.routine = routine;
  p.shape = "size=" + std::to_string(x.size) + " nnz=" + std::to_string(x.nnz);
  p.variant = std::string(value_name(x.value)) + ": exact slice-pair dots (segmented kernel), " + std::to_string(n.rows) +
              " real rows, " + std::to_string(n.tiles) + " tiles, " + std::to_string(n.Sa) + " x " + std::to_string(n.Sx) +
              " 8-bit slices" + (n.capped ? " (capped)" : "") + ", " + std::to_string(n.launches) +
              " launch(es) (one per duplicate-free round), each output rounded once" +
              (n.scale_chunks > 0 ? "; the positions without an entry scaled by beta on GpSimdE (software fp64, one launch): " +
                                        std::to_string(n.scale_chunks) + " chunks, " + std::to_string(n.scale_descriptors) +
                                        " DMA descriptors"
                                  : "");
  p.ops = std::to_string(static_cast<long long>(flops)) + " flops";
  p.engines = "host (exponents + gather, fold: 2 round trips per launch), DMA, GpSimdE, VectorE, TensorE (slice-pair segment sums)";
  p.predicted_ns = report->profile.total_ns;
  p.why = "fp64 values: no engine computes fp64 elementwise; products exact on TensorE through 8-bit slices";
  report->add_plan(p.print());
}

// ---- Axpby's positions that hold no entry of x (beta != 1): y_i' = beta y_i on GpSimdE ----

// A finite double as (-1)^neg m 2^k with the integer significand m < 2^53 (subnormals included).
struct ExactDouble {
  bool neg = false;
  std::uint64_t m = 0;
  int k = 0;
};
ExactDouble exact_double(double v) {
  const auto b = std::bit_cast<std::uint64_t>(v);
  const int biased = static_cast<int>((b >> 52) & 0x7ff);
  const std::uint64_t frac = b & ((std::uint64_t{1} << 52) - 1);
  return {(b >> 63) != 0, biased == 0 ? frac : frac | (std::uint64_t{1} << 52), (biased == 0 ? 1 : biased) - 1075};
}

using U128 = unsigned __int128;
int bit_length(U128 v) {
  const auto hi = static_cast<std::uint64_t>(v >> 64);
  return hi != 0 ? 128 - std::countl_zero(hi) : 64 - std::countl_zero(static_cast<std::uint64_t>(v));
}

// std::ldexp(v, E) for a finite v: when 2^E is a normal double, v 2^E is one IEEE product of v and
// an exact power of two, which rounds the exact value v 2^E once to nearest even as ldexp does (a
// subnormal result included); outside that range ldexp itself. (libm's scalbn call was ~6 % of a
// C_64F Axpby's host time, two per value of the scale pass.)
double scale_by_power_of_two(double v, int E) {
  if (E >= -1022 && E <= 1023) return v * std::bit_cast<double>(static_cast<std::uint64_t>(E + 1023) << 52);
  return std::ldexp(v, E);
}

// sum_t d_t c_t over `terms` (1 or 2) finite products, rounded exactly as the segmented kernel's
// correctly rounded fold rounds the same exact value (round_digits_once, trn/blas/fp64_slices.hpp):
// the exact sum's 53-bit round to nearest (ties to even; every bit below the round bit kept as a
// sticky bit), then ldexp to the result's exponent (a second rounding only in fp64's subnormal
// range, as there); an exactly zero sum is -0 only when every product is a -0 (the kernel's
// signed_zero). Each product is an exact 106-bit integer; the smaller is aligned to the larger
// (top bit at 125, two guard bits), shifted-out bits kept as a sticky bit.
double round_products_once(const double* d, const double* c, int terms) {
  struct Term {
    bool neg;
    U128 p;
    int k;
  };
  Term t[2]{};
  int n = 0;
  bool negative_zeros = true;  // every product a -0 so far
  for (int i = 0; i < terms; ++i) {
    const ExactDouble a = exact_double(d[i]), b = exact_double(c[i]);
    const U128 p = static_cast<U128>(a.m) * b.m;
    const bool neg = a.neg != b.neg;
    negative_zeros = negative_zeros && p == 0 && neg;
    if (p != 0) t[n++] = {neg, p, a.k + b.k};
  }
  if (n == 0) return negative_zeros ? -0.0 : 0.0;
  if (n == 2 && t[1].k + bit_length(t[1].p) > t[0].k + bit_length(t[0].p)) std::swap(t[0], t[1]);
  const int la = bit_length(t[0].p);
  U128 acc = t[0].p << (125 - la);
  const int e = t[0].k - (125 - la);  // acc's weight: acc 2^e
  bool neg = t[0].neg, sticky = false;
  if (n == 2) {
    const int shift = t[1].k - e;  // <= 125 - bit_length(t[1].p): t[1]'s top bit is at most acc's
    U128 b = 0;
    if (shift >= 0) {
      b = t[1].p << shift;
    } else if (shift > -128) {
      b = t[1].p >> -shift;
      sticky = (t[1].p & ((U128{1} << -shift) - 1)) != 0;
    } else {
      sticky = true;  // t[1].p != 0, wholly below acc's last bit
    }
    if (t[1].neg == neg) {
      acc += b;  // < 2^127; a sticky remainder stays a positive fraction below bit 0
    } else if (acc >= b) {
      acc -= b;
      if (sticky) acc -= 1;  // acc - b - f (0 < f < 1) = (acc - b - 1) + (1 - f): still a positive fraction
    } else {
      acc = b - acc;  // b > acc only when both tops are at bit 125 (shift >= 0, no sticky)
      neg = !neg;
    }
  }
  if (acc == 0 && !sticky) return 0.0;  // two opposite products cancelled exactly: +0
  const int len = bit_length(acc);
  std::uint64_t top = 0;
  int E = e;
  if (len > 64) {
    const int drop = len - 64;
    top = static_cast<std::uint64_t>(acc >> drop);
    sticky = sticky || (acc & ((U128{1} << drop) - 1)) != 0;
    E += drop;
  } else {
    top = static_cast<std::uint64_t>(acc);  // exact (a sticky bit implies len >= 125)
  }
  if (sticky) top |= 1;  // 11 places below the round bit of a 64-bit top
  const double mag = scale_by_power_of_two(static_cast<double>(top), E);
  return neg ? -mag : mag;
}

// R_64F: beta y as the kernel's one-term row gave it. Inf / NaN in y or beta: the kernel's special
// row, the IEEE sum 0 + y beta. A finite product in fp64's normal range (or overflowing, or an exact
// zero) is IEEE's product: the correctly rounded value, the kernel's bits; the subnormal range takes
// round_products_once (the kernel's double rounding there).
// IEEE's a + b and a b with x86's NaN rule made explicit (the kernel's special rows are compiled
// `dot += val * x`: a NaN operand is returned quieted, the left one when both are NaN; an invalid
// operation gives the default NaN), so the bits do not depend on how the compiler orders operands.
double quiet(double a) { return std::bit_cast<double>(std::bit_cast<std::uint64_t>(a) | (std::uint64_t{1} << 51)); }
double nan_first_add(double a, double b) { return std::isnan(a) ? quiet(a) : std::isnan(b) ? quiet(b) : a + b; }
double nan_first_mul(double a, double b) { return std::isnan(a) ? quiet(a) : std::isnan(b) ? quiet(b) : a * b; }

double scaled_real(double y, double beta) {
  if (!std::isfinite(y) || !std::isfinite(beta)) return nan_first_add(0.0, nan_first_mul(y, beta));
  const double p = y * beta;
  if (std::fabs(p) >= std::numeric_limits<double>::min() || (p == 0.0 && (y == 0.0 || beta == 0.0))) return p;
  return round_products_once(&y, &beta, 1);
}

// C_64F: the kernel's two real rows of beta y, re: (y_re, b_re), (y_im, -b_im) and im: (y_re, b_im),
// (y_im, b_re), each rounded once (special: the IEEE dot 0 + ... in that order).
void scaled_complex(const double* y, double br, double bi, double* out) {
  const double cre[2] = {br, -bi}, cim[2] = {bi, br};
  if (!std::isfinite(y[0]) || !std::isfinite(y[1]) || !std::isfinite(br) || !std::isfinite(bi)) {
    out[0] = nan_first_add(nan_first_add(0.0, nan_first_mul(y[0], cre[0])), nan_first_mul(y[1], cre[1]));
    out[1] = nan_first_add(nan_first_add(0.0, nan_first_mul(y[0], cim[0])), nan_first_mul(y[1], cim[1]));
    return;
  }
  out[0] = round_products_once(y, cre, 2);
  out[1] = round_products_once(y, cim, 2);
}

// Per value of the scaling operator (gpsimd_fp64.hpp's software fp64): R_64F one f64_mul (plus the
// range test that picks the subnormal path); C_64F per part two exact products and one add with a
// single rounding: SoftFloat's f64_mul / f64_add counts, plus 16 int32 ops for the add's 4-word
// (128-bit) significands; the value's words loaded and stored.
constexpr tile::GpsimdOps kScaleRealOps{.f64_mul = 1, .f64_compare = 1, .load_words = 2, .store_words = 2};
constexpr tile::GpsimdOps kScaleComplexOps{.int32 = 32, .f64_add = 2, .f64_mul = 4, .f64_compare = 2, .load_words = 4,
                                           .store_words = 4};
constexpr std::int64_t kScaleFree = 512;  // values per partition of a chunk (C_64F: 8 KiB)

// The dense pass: y in chunks of P x kScaleFree consecutive positions ([rows, cols] tiles, position
// q0 + p cols + j on partition p), each DMAed in whole (full rows + tail row: two descriptors),
// scaled in place by one custom operator, and DMAed back in runs of positions that hold no entry
// (one descriptor per run: the held positions keep their bits for the segmented launch's fold).
struct ScalePass {
  std::uint32_t* y = nullptr;
  std::int64_t size = 0, w = 2;                    // words per value: 2 (R_64F) or 4 (C_64F)
  const std::vector<std::int64_t>* held = nullptr;  // the positions some entry of x has, increasing
  double br = 0, bi = 0;
  std::int64_t chunks = 0, descriptors = 0;
};

Tile hbm_words_u32(std::uint32_t* base, std::int64_t first, std::int64_t rows, std::int64_t width) {
  return HbmTensor::wrap(base + first, DType::u32, {rows, width}).tile(0, static_cast<std::int32_t>(rows), 0, width);
}

void scale_pass_program(NeuronCore& nc, ScalePass& c) {
  const std::int32_t P = nc.hw().pmax;
  AllocScope sb(nc.sbuf());
  const Tile buf = sb.alloc(DType::u32, P, {kScaleFree * c.w}, "y words");
  const bool cx = c.w == 4;
  const tile::GpsimdOps per = cx ? kScaleComplexOps : kScaleRealOps;
  const std::vector<std::int64_t>& held = *c.held;
  std::size_t next = 0;  // the first held position not yet passed
  for (std::int64_t q0 = 0; q0 < c.size; q0 += P * kScaleFree) {
    const std::int64_t L = std::min<std::int64_t>(P * kScaleFree, c.size - q0), cols = (L + P - 1) / P;
    const auto full = static_cast<std::int32_t>(L / cols);
    const std::int64_t tail = L - full * cols;
    const auto rows = static_cast<std::int32_t>((L + cols - 1) / cols);
    const Tile t = buf.rows(0, rows).cols(0, cols * c.w);  // the tail row's words past L: never read or stored
    if (full > 0) nc.dma_copy(buf.rows(0, full).cols(0, cols * c.w), hbm_words_u32(c.y, q0 * c.w, full, cols * c.w));
    if (tail > 0) nc.dma_copy(buf.rows(full, 1).cols(0, tail * c.w), hbm_words_u32(c.y, (q0 + full * cols) * c.w, 1, tail * c.w));
    c.descriptors += (full > 0) + (tail > 0);
    const Tile one[] = {t};
    nc.custom_op("axpby_fp64_scale", one, one, tile::gpsimd_op_cycles(nc.hw(), per, cols),
                 [&c, cx, L, cols](const CustomOpContext& ctx) {
                   const Tile& v = ctx.outputs[0];
                   for (std::int32_t p = 0; p < v.partitions; ++p) {
                     std::byte* row = v.at(p, 0);
                     const std::int64_t values = std::min(cols, L - p * cols);
                     // (the value width fixed per loop: a run-time memcpy size per value was a libc call)
                     if (cx) {
                       for (std::int64_t j = 0; j < values; ++j) {
                         double d[2], o[2];
                         std::memcpy(d, row + j * 16, 16);
                         scaled_complex(d, c.br, c.bi, o);
                         std::memcpy(row + j * 16, o, 16);
                       }
                     } else {
                       for (std::int64_t j = 0; j < values; ++j) {
                         double d;
                         std::memcpy(&d, row + j * 8, 8);
                         d = scaled_real(d, c.br);
                         std::memcpy(row + j * 8, &d, 8);
                       }
                     }
                   }
                 });
    // Store back the runs of positions no entry holds: the gaps between the held positions of each
    // row [a, b) (rows and chunks visit the positions in increasing order, so one cursor walks the
    // held list once per call: O(held + runs), not a test per position).
    for (std::int32_t p = 0; p * cols < L; ++p) {
      const std::int64_t a = q0 + p * cols, b = std::min(q0 + L, a + cols);
      while (next < held.size() && held[next] < a) ++next;
      for (std::int64_t i = a; i < b;) {
        const std::int64_t stop = next < held.size() ? std::min(held[next], b) : b;  // the run's end: the next held position
        if (stop > i) {
          nc.dma_copy(hbm_words_u32(c.y, i * c.w, 1, (stop - i) * c.w), buf.rows(p, 1).cols((i - a) * c.w, (stop - i) * c.w));
          ++c.descriptors;
          i = stop;
        }
        if (i < b) {  // i is held: skip it
          ++i;
          ++next;
        }
      }
    }
    ++c.chunks;
  }
}

}  // namespace

bool spvec_fp64_on_engines(Value v) { return v == Value::f64 || v == Value::c64; }

void axpby_fp64_engines(const Settings& s, Scalar alpha, const SpVecRef& x, Scalar beta, void* y, CallReport* report) {
  const bool cx = x.value == Value::c64;
  const std::vector<std::int64_t> pos = positions(x);
  // The entries by position, storage order kept within a position: a stable sort of the entry
  // numbers, none when the positions already increase (the common case). O(nnz log nnz) host work,
  // not the O(size) counting arrays of the vector's length (16 MiB of fresh pages at 2^20).
  std::vector<std::int64_t> order(z(x.nnz));
  std::iota(order.begin(), order.end(), 0);
  if (!std::is_sorted(pos.begin(), pos.end()))
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return pos[z(a)] < pos[z(b)]; });
  // Only x's positions are rows of the segmented kernel. beta == 1 leaves every other position as it
  // is (1 y = y exactly); any other beta scales them on GpSimdE first (scale_pass_program: the same
  // bits as their one-term rows gave, at one software fp64 product per value instead of a row of
  // slice pairs each).
  const bool scale_rest = beta != Scalar(1.0);
  std::vector<std::int64_t> outs;  // the held positions, increasing
  Combinations comb(cx, {beta, alpha}, 2 * x.nnz, x.nnz);  // per output its y and its entries
  for (std::int64_t q = 0; q < x.nnz;) {
    const std::int64_t i = pos[z(order[z(q)])];
    outs.push_back(i);
    comb.term(load(y, cx, i), 0);
    for (; q < x.nnz && pos[z(order[z(q)])] == i; ++q) comb.term(load(x.values, cx, order[z(q)]), 1);
    comb.end_output();
  }
  const VecSpans sp = vec_spans(x, y, static_cast<std::int64_t>(outs.size()));
  SegmentedSteps steps = vec_steps("trnsparse.axpby.exponents", "trnsparse.axpby.fold", sp);
  steps.fold_write = sp.y;
  steps.epilogue = [&](std::vector<double>& p) {
    for (std::size_t o = 0; o < outs.size(); ++o) store(y, cx, outs[o], comb.output(p, static_cast<std::int64_t>(o)));
  };
  Trace trace;
  Fp64VecCounts n;
  if (scale_rest && static_cast<std::int64_t>(outs.size()) < x.size) {
    ScalePass pass{.y = static_cast<std::uint32_t*>(y), .size = x.size, .w = cx ? 4 : 2, .held = &outs,
                   .br = beta.real(), .bi = beta.imag()};
    LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) { scale_pass_program(nc, pass); });
    trace.append(std::move(r.trace));
    n.scale_chunks = pass.chunks;
    n.scale_descriptors = pass.descriptors;
  }
  if (!outs.empty()) run_combinations(s, comb, steps, trace, n);
  finish_fp64(s, "axpby", x, (cx ? 8.0 : 2.0) * static_cast<double>(x.size + x.nnz), n, std::move(trace), report);
}

void rot_fp64_engines(const Settings& s, Scalar c, Scalar sn, const SpVecRef& x, void* y, CallReport* report) {
  const bool cx = x.value == Value::c64;
  const std::vector<std::int64_t> pos = positions(x);
  const VecSpans sp = vec_spans(x, y, x.nnz);
  Trace trace;
  Fp64VecCounts n;
  for (const std::vector<std::int64_t>& round : duplicate_free_rounds(pos)) {
    const auto entries = static_cast<std::int64_t>(round.size());
    Combinations comb(cx, {c, sn, -sn}, 4 * entries, 2 * entries);  // two outputs of two terms per entry
    for (const std::int64_t e : round) {
      const cd xv = load(x.values, cx, e), yv = load(y, cx, pos[z(e)]);
      comb.term(xv, 0);
      comb.term(yv, 1);
      comb.end_output();  // x_e' = c x_e + s y_i
      comb.term(yv, 0);
      comb.term(xv, 2);
      comb.end_output();  // y_i' = c y_i + (-s) x_e
    }
    SegmentedSteps steps = vec_steps("trnsparse.rot.exponents", "trnsparse.rot.fold", sp);
    steps.fold_write = sp.y;
    steps.fold_writes_more = {sp.xv, HostSpan{}};
    steps.epilogue = [&](std::vector<double>& p) {
      for (std::size_t q = 0; q < round.size(); ++q) {
        const auto o = static_cast<std::int64_t>(2 * q);
        store(x.values, cx, round[q], comb.output(p, o));
        store(y, cx, pos[z(round[q])], comb.output(p, o + 1));
      }
    };
    run_combinations(s, comb, steps, trace, n);
  }
  finish_fp64(s, "rot", x, (cx ? 16.0 : 6.0) * static_cast<double>(x.nnz), n, std::move(trace), report);
}

Scalar spvv_fp64_engines(const Settings& s, GOp opX, const SpVecRef& x, const void* y, CallReport* report) {
  const bool cx = x.value == Value::c64;
  const std::vector<std::int64_t> pos = positions(x);
  std::vector<cd> gathered(z(x.nnz));  // the coefficient line: y at x's positions (host gather)
  for (std::int64_t e = 0; e < x.nnz; ++e) gathered[z(e)] = load(y, cx, pos[z(e)]);
  Combinations comb(cx, gathered, x.nnz, 1);
  comb.open.reserve(z(x.nnz));
  for (std::int64_t e = 0; e < x.nnz; ++e) comb.term(generic_host::conj_if(load(x.values, cx, e), opX == GOp::C), e);
  comb.end_output();
  const VecSpans sp = vec_spans(x, y, x.nnz);
  cd result = 0;
  SegmentedSteps steps = vec_steps("trnsparse.spvv.exponents", "trnsparse.spvv.fold", sp);
  steps.epilogue = [&](std::vector<double>& p) { result = comb.output(p, 0); };
  Trace trace;
  Fp64VecCounts n;
  if (x.nnz > 0) run_combinations(s, comb, steps, trace, n);
  finish_fp64(s, "spvv", x, (cx ? 8.0 : 2.0) * static_cast<double>(x.nnz), n, std::move(trace), report);
  return result;
}

}  // namespace trn::sparse
