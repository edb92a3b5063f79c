// Segment sums of pair products on the engines: algorithm, engines, accuracy and limits in
// pair_sums.hpp; derivation and measurements in docs/trnsparse.md.
#include "pair_sums.hpp"

#include <algorithm>
#include <array>
#include <complex>
#include <vector>

#include "generic_host.hpp"
#include "op_pattern.hpp"
#include "pair_staged.hpp"
#include "segmented_spmv.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/report.hpp"
#include "trn/core/spmd.hpp"
#include "trn/tile/complex.hpp"
#include "trn/tile/view.hpp"

namespace trn::sparse {

namespace {

std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

constexpr std::int64_t kPairFree = 512;           // products per partition of one chunk
constexpr std::int64_t kPairTilesPerProgram = 16;  // tiles of 128 entries per program

// The fp32 call: w fp32 words per value (1 real, 2 complex, re and im interleaved).
struct F32Call {
  const PairLists* L = nullptr;
  PairSource U, V;
  float* out = nullptr;
  std::int64_t w = 1, tiles = 0;
  std::vector<std::int64_t>* descriptors = nullptr;  // per program (programs may run on several threads)
  const std::vector<std::int64_t>* ids = nullptr;    // the entries this path sums (pair_staged.hpp's leftover)
  std::int64_t entry(std::int64_t slot) const { return (*ids)[z(slot)]; }
  std::int64_t count() const { return static_cast<std::int64_t>(ids->size()); }
};

// The first fp32 word of element i of a source.
const float* element(const PairSource& s, std::int64_t i, std::int64_t w) {
  return i < s.len0 ? static_cast<const float*>(s.first) + i * w : static_cast<const float*>(s.second) + (i - s.len0) * w;
}

// t[p, (q - q0) w ...] <- src(index[q]) for the entries e0 + p, products of columns [c0, c0 + cw): one
// descriptor per run of consecutive source elements in a partition. Returns the descriptors issued.
std::int64_t gather_side(NeuronCore& nc, const Tile& t, const F32Call& c, const std::vector<std::int64_t>& index,
                         const PairSource& src, std::int64_t e0, std::int32_t rows, std::int64_t c0, std::int64_t cw) {
  std::int64_t descriptors = 0;
  const std::int64_t w = c.w;
  for (std::int32_t p = 0; p < rows; ++p) {
    const std::int64_t e = c.entry(e0 + p);
    const std::int64_t q0 = c.L->start[z(e)] + c0, q1 = std::min(c.L->start[z(e) + 1], q0 + cw);
    for (std::int64_t q = q0; q < q1;) {
      const float* first = element(src, index[z(q)], w);
      std::int64_t len = 1;
      while (q + len < q1 && element(src, index[z(q + len)], w) == first + len * w) ++len;
      nc.dma_copy(t.rows(p, 1).cols((q - q0) * w, len * w), tile::hbm_view(first, DType::f32, 1, 0, {{len * w, 1}}));
      ++descriptors;
      q += len;
    }
  }
  return descriptors;
}

// The SBUF tiles of a program: the gathered operands, three plane temporaries, the chunk's partial.
struct PairTiles {
  Tile u, v, t1, t2, t3, part, acc;
};

// part[:rows, 0 .. w) = the sums along the free axis of the chunk's products (complex: re, im).
void chunk_products(NeuronCore& nc, const PairTiles& w, std::int64_t vw, std::int32_t rows, std::int64_t cw) {
  const Tile t1 = w.t1.rows(0, rows).cols(0, cw), t2 = w.t2.rows(0, rows).cols(0, cw);
  pair_products(nc, w.u.rows(0, rows).cols(0, cw * vw), w.v.rows(0, rows).cols(0, cw * vw), t1, t2,
                w.t3.rows(0, rows).cols(0, cw), vw, cw);
  const Tile part = w.part.rows(0, rows);
  nc.tensor_reduce(part.cols(0, 1), t1, AluOp::add);
  if (vw == 2) nc.tensor_reduce(part.cols(1, 1), t2, AluOp::add);
}

// One tile of up to 128 entries from entry e0 (pair_sums.hpp, Algorithm).
std::int64_t pair_tile(NeuronCore& nc, const F32Call& c, const PairTiles& w, std::int64_t e0, std::int32_t rows) {
  const PairLists& L = *c.L;
  std::int64_t kmax = 0, kmin = INT64_MAX, descriptors = 1;
  for (std::int32_t p = 0; p < rows; ++p) {
    const std::int64_t k = L.start[z(c.entry(e0 + p)) + 1] - L.start[z(c.entry(e0 + p))];
    kmax = std::max(kmax, k);
    kmin = std::min(kmin, k);
  }
  const Tile acc = w.acc.rows(0, rows).cols(0, c.w);
  if (kmax == 0) nc.memset(acc, 0.0f);
  for (std::int64_t c0 = 0; c0 < kmax; c0 += kPairFree) {
    const std::int64_t cw = std::min(kPairFree, kmax - c0);
    if (kmin < c0 + cw) {  // a shorter row: its unused columns must be +0 (x + 0 = x)
      nc.memset(w.u.rows(0, rows).cols(0, cw * c.w), 0.0f);
      nc.memset(w.v.rows(0, rows).cols(0, cw * c.w), 0.0f);
    }
    descriptors += gather_side(nc, w.u, c, L.u, c.U, e0, rows, c0, cw);
    descriptors += gather_side(nc, w.v, c, L.v, c.V, e0, rows, c0, cw);
    chunk_products(nc, w, c.w, rows, cw);
    const Tile part = w.part.rows(0, rows).cols(0, c.w);
    if (c0 == 0)
      nc.tensor_copy(acc, part);
    else
      nc.tensor_tensor(acc, acc, part, AluOp::add);
  }
  for (std::int32_t p = 0; p < rows; ++p)  // the entries are scattered: one store each
    nc.dma_copy(tile::hbm_view(c.out + c.entry(e0 + p) * c.w, DType::f32, 1, 0, {{c.w, 1}}), acc.rows(p, 1));
  descriptors += rows - 1;
  return descriptors;
}

void pair_program(NeuronCore& nc, const F32Call& c) {
  const std::int32_t P = nc.hw().pmax;
  const std::int64_t t0 = nc.program_id(0) * kPairTilesPerProgram, nt = std::min(kPairTilesPerProgram, c.tiles - t0);
  AllocScope sb(nc.sbuf());
  // Two sets of tiles, alternating: tile t + 1's gathers need not wait for tile t's VectorE reads.
  std::array<PairTiles, 2> sets;
  for (PairTiles& w : sets)
    w = PairTiles{sb.alloc(DType::f32, P, {kPairFree * c.w}, "pair.u", 0, AllocFill::none),
                  sb.alloc(DType::f32, P, {kPairFree * c.w}, "pair.v", 0, AllocFill::none),
                  sb.alloc(DType::f32, P, {kPairFree}, "pair.t1", 0, AllocFill::none),
                  sb.alloc(DType::f32, P, {kPairFree}, "pair.t2", 0, AllocFill::none),
                  sb.alloc(DType::f32, P, {kPairFree}, "pair.t3", 0, AllocFill::none),
                  sb.alloc(DType::f32, P, {2}, "pair.part", 0, AllocFill::none),
                  sb.alloc(DType::f32, P, {2}, "pair.acc", 0, AllocFill::none)};
  std::int64_t descriptors = 0;
  for (std::int64_t t = t0; t < t0 + nt; ++t) {
    const std::int64_t e0 = t * P;
    descriptors += pair_tile(nc, c, sets[z(t % 2)], e0, static_cast<std::int32_t>(std::min<std::int64_t>(P, c.count() - e0)));
  }
  (*c.descriptors)[z(nc.program_id(0))] = descriptors;
}

// The staged path (pair_staged.hpp) for every entry it takes, the per-entry gather path for the rest.
PairRun pair_sums_f32(const Settings& s, Value value, const PairLists& L, const PairSource& U, const PairSource& V,
                      void* out, Trace& trace, std::shared_ptr<const void>* cache) {
  const std::int64_t P = hardware_spec(s.target).pmax;
  StagedRun staged = pair_sums_staged(s, value, L, U, V, static_cast<float*>(out), trace, cache);
  PairRun run{.kernel = "staged runs: " + staged.kernel, .engines = staged.engines};
  if (staged.leftover.empty()) return run;
  F32Call c{.L = &L, .U = U, .V = V, .out = static_cast<float*>(out), .w = value == Value::c32 ? 2 : 1, .ids = &staged.leftover};
  c.tiles = (c.count() + P - 1) / P;
  const std::int64_t programs = (c.tiles + kPairTilesPerProgram - 1) / kPairTilesPerProgram;
  std::vector<std::int64_t> descriptors(z(programs), 0);
  c.descriptors = &descriptors;
  LaunchResult r = launch(s.launch_config({static_cast<int>(programs), 1, 1}), [&](NeuronCore& nc) { pair_program(nc, c); });
  trace.append(std::move(r.trace));
  std::int64_t total = 0;
  for (const std::int64_t d : descriptors) total += d;
  run.kernel += "; per-entry gathers for the " + std::to_string(c.count()) + " entries of none or more than 1024 products: " +
                std::to_string(c.tiles) + " tiles of <= 128 entries (entry on a partition, its products along the free axis), " +
                std::to_string(total) + " DMA descriptors (one per run of consecutive sources), one launch of " +
                std::to_string(programs) + " programs, VectorE tensor_reduce sums";
  run.engines += ", VectorE (tensor_reduce sums)";
  return run;
}

// The source's values as one contiguous host array (the fp64 path's gather, host data movement).
template <class T>
std::vector<T> joined(const PairSource& s) {
  std::vector<T> all(z(s.len0 + s.len1));
  if (s.len0 > 0) std::copy_n(static_cast<const T*>(s.first), s.len0, all.begin());
  if (s.len1 > 0) std::copy_n(static_cast<const T*>(s.second), s.len1, all.begin() + s.len0);
  return all;
}

HostSpan source_span(const void* p, std::int64_t n, std::size_t vb) {
  HostSpan h;
  if (p == nullptr || n <= 0) return h;
  h.data = p;
  h.hull = h.bytes = static_cast<std::size_t>(n) * vb;
  return h;
}

template <class T>
PairRun pair_sums_f64(const Settings& s, const PairLists& L, const PairSource& U, const PairSource& V, void* out, Trace& trace) {
  OpPattern pat;
  pat.rows = L.entries();
  pat.cols = V.len0 + V.len1;
  pat.start = L.start;
  pat.col = L.v;
  pat.entry = L.u;
  const std::vector<T> u = joined<T>(U), v = joined<T>(V);
  RealRows rr;
  if constexpr (std::is_same_v<T, double>)
    rr = real_rows(pat, u.data(), v);
  else
    rr = real_rows(pat, u.data(), GOp::N, v);
  const std::size_t vb = sizeof(T);
  SegmentedSteps steps;  // SpMV's step names and fold (digits_to_double), no epilogue arithmetic
  steps.reads = {source_span(U.first, U.len0, vb), source_span(U.second, U.len1, vb), source_span(V.first, V.len0, vb),
                 source_span(V.second, V.len1, vb)};
  steps.fold_write = source_span(out, L.entries(), vb);
  steps.epilogue = [&](std::vector<double>& p) {
    std::copy(p.begin(), p.end(), static_cast<double*>(out));  // real rows in entry order: T's layout
  };
  const SegmentedFacts f = segmented_rows_product(s, rr, steps, trace);
  return {.kernel = segmented_summary(f), .engines = "host (exponents + gather, fold), DMA, GpSimdE, VectorE, TensorE"};
}

}  // namespace

double pair_flops(Value value, std::int64_t products) {
  return (value_is_complex(value) ? 8.0 : 2.0) * static_cast<double>(products);
}
double pair_flops(Value value, const PairLists& L) { return pair_flops(value, L.products()); }

std::vector<double> pair_coefficients(Value value, Scalar alpha, Scalar beta) {
  std::vector<double> c(4, 0.0);  // room for two complex<double>
  generic_host::dispatch(value, [&](auto t) {
    using T = decltype(t);
    generic_host::store<T>(c.data(), 0, generic_host::from_scalar<generic_host::Acc<T>>(alpha));
    generic_host::store<T>(c.data(), 1, generic_host::from_scalar<generic_host::Acc<T>>(beta));
  });
  return c;
}

void finish_pair_report(const Settings& s, Trace&& trace, PlanFacts facts, const PairRun& run, CallReport* report) {
  if (report == nullptr) return;
  const bool wanted = report->plans_wanted;
  *report = CallReport{};
  report->plans_wanted = wanted;
  report->matmuls = trace.per_engine[static_cast<int>(Engine::tensor)];
  finish_report(*report, std::move(trace), ReportSettings::of(s));
  facts.variant += run.kernel;
  facts.engines = run.engines;
  facts.predicted_ns = report->profile.total_ns;
  if (wanted) report->add_plan(facts.print());
}

PairRun pair_sums(const Settings& s, Value value, const PairLists& L, const PairSource& U, const PairSource& V, void* out,
                  Trace& trace, std::shared_ptr<const void>* cache) {
  if (L.entries() == 0) return {.kernel = "no entries", .engines = "none (nothing to compute)"};
  if (value == Value::f64) return pair_sums_f64<double>(s, L, U, V, out, trace);
  if (value == Value::c64) return pair_sums_f64<std::complex<double>>(s, L, U, V, out, trace);
  if (value != Value::f32 && value != Value::c32) throw InvalidArgument("trnsparse: pair sums take R/C 32F/64F", "valueType");
  return pair_sums_f32(s, value, L, U, V, out, trace, cache);
}

PairRun pair_sums_terms(const Settings& s, Value value, const TermMasks& t, const PairSource& U, const PairSource& V, void* out,
                        Trace& trace) {
  if ((value == Value::f32 || value == Value::c32) && t.entries > 0) {  // every entry has 1 or 2 terms: no per-entry path
    const StagedRun staged = pair_sums_terms_staged(s, value, t, U, V, static_cast<float*>(out), trace);
    return {.kernel = "staged runs: " + staged.kernel, .engines = staged.engines};
  }
  PairLists L;
  L.start.resize(z(t.entries) + 1);
  L.u.resize(z(t.terms));
  L.v.resize(z(t.terms));
  std::int64_t q = 0, next0 = t.u0, next1 = t.u1;
  for (std::int64_t e = 0; e < t.entries; ++e) {
    L.start[z(e)] = q;
    if ((t.mask[e] & 1u) != 0) {
      L.u[z(q)] = next0++;
      L.v[z(q++)] = 0;
    }
    if ((t.mask[e] & 2u) != 0) {
      L.u[z(q)] = next1++;
      L.v[z(q++)] = 1;
    }
  }
  L.start[z(t.entries)] = q;
  return pair_sums(s, value, L, U, V, out, trace);
}

PairRun pair_sums_fixed(const Settings& s, Value value, std::int64_t n, bool both, const PairSource& U, const PairSource& V,
                        void* out, Trace& trace, std::shared_ptr<const void>* cache) {
  if ((value == Value::f32 || value == Value::c32) && n > 0) {  // no entry has 0 or > 1024 products: no per-entry path
    const StagedRun staged = pair_sums_fixed_staged(s, value, n, both, U, V, static_cast<float*>(out), trace, cache);
    return {.kernel = "staged runs: " + staged.kernel, .engines = staged.engines};
  }
  const std::int64_t k = both ? 2 : 1;
  PairLists L;
  L.start.resize(z(n) + 1);
  L.u.resize(z(k * n));
  L.v.resize(z(k * n));
  for (std::int64_t e = 0; e <= n; ++e) L.start[z(e)] = k * e;
  for (std::int64_t e = 0; e < n; ++e) {
    L.u[z(k * e)] = e;
    L.v[z(k * e)] = 0;
    if (both) {
      L.u[z(k * e + 1)] = n + e;
      L.v[z(k * e + 1)] = 1;
    }
  }
  return pair_sums(s, value, L, U, V, out, trace, cache);
}

}  // namespace trn::sparse
