// Sparse-vector arithmetic in R_64F / C_64F on the emulated engines: Axpby, Rot and SpVV as exact
// slice-pair dots of the segmented kernel (docs/trnsparse.md "Sparse vectors in fp64").
//
// Algorithm   Every output is a short linear combination sum_k d_k c_k of values d_k of x or y and
//             coefficients c_k, each product exact on TensorE and the sum rounded once:
//               Axpby   y_i' = beta y_i + alpha sum_{e: idx_e = i} x_e   (every i < size; coefficients
//                       [beta, alpha]; a position held by no entry is the one-term beta y_i, or
//                       left as it is when beta == 1: 1 y = y exactly)
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
// Engines     host (exponents + gather, fold), DMA, GpSimdE / VectorE (slicing), VectorE (masks),
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
//             partials per output: SpVV (one long row) beats the former host step, Rot is ~4x and
//             Axpby with beta != 1 (a row per position) ~100x its modeled time (docs/trnsparse.md
//             "Sparse vectors in fp64", measured; the lever is a device fold). S per launch follows the
//             widest spread of a row (data) and of the coefficient line.
#include <algorithm>
#include <complex>
#include <string_view>
#include <string>
#include <vector>

#include "generic_detail.hpp"
#include "generic_host.hpp"
#include "segmented_spmv.hpp"
#include "spvec_engine.hpp"

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

  Combinations(bool complex, const std::vector<cd>& coefficients) : cx(complex) {
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
              " launch(es) (one per duplicate-free round), each output rounded once";
  p.ops = std::to_string(static_cast<long long>(flops)) + " flops";
  p.engines = "host (exponents + gather, fold: 2 round trips per launch), DMA, GpSimdE, VectorE, TensorE (slice-pair segment sums)";
  p.predicted_ns = report->profile.total_ns;
  p.why = "fp64 values: no engine computes fp64 elementwise; products exact on TensorE through 8-bit slices";
  report->add_plan(p.print());
}

}  // namespace

bool spvec_fp64_on_engines(Value v) { return v == Value::f64 || v == Value::c64; }

void axpby_fp64_engines(const Settings& s, Scalar alpha, const SpVecRef& x, Scalar beta, void* y, CallReport* report) {
  const bool cx = x.value == Value::c64;
  const std::vector<std::int64_t> pos = positions(x);
  std::vector<std::int64_t> first(z(x.size) + 1, 0), order(z(x.nnz));  // entries by position, storage order kept
  for (const std::int64_t i : pos) ++first[z(i) + 1];
  for (std::int64_t i = 0; i < x.size; ++i) first[z(i) + 1] += first[z(i)];
  std::vector<std::int64_t> fill(first.begin(), first.end() - 1);
  for (std::int64_t e = 0; e < x.nnz; ++e) order[z(fill[z(pos[z(e)])]++)] = e;
  // beta == 1 leaves a position without entries as it is (1 y = y exactly): only x's positions are
  // outputs; any other beta makes every position an output.
  const bool every_position = beta != Scalar(1.0);
  std::vector<std::int64_t> outs;
  Combinations comb(cx, {beta, alpha});
  for (std::int64_t i = 0; i < x.size; ++i) {
    if (!every_position && first[z(i)] == first[z(i) + 1]) continue;
    outs.push_back(i);
    comb.term(load(y, cx, i), 0);
    for (std::int64_t q = first[z(i)]; q < first[z(i) + 1]; ++q) comb.term(load(x.values, cx, order[z(q)]), 1);
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
    Combinations comb(cx, {c, sn, -sn});
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
  Combinations comb(cx, gathered);
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
