// trnrand's tile kernels on the emulated NeuronCore (trn/rand/kernels.hpp).
//
// Kernel: generate (run_generate_kernel)
//   Algorithm: the output range [window_first, +window_count) is widened to whole Box–Muller pairs
//     (the "domain") and cut into tiles of [pmax, F] consecutive elements (partition p holds
//     elements tile_first + p F .. + F - 1). Per tile: the GpSimd operator computes the Philox words
//     of the tile's elements (word = element index in the stream's layout), the transform runs on
//     VectorE / ScalarE (or a second GpSimd operator for the integer distributions), and the
//     stored part of the tile goes to HBM in at most three DMAs (head row, whole rows, tail row).
//     Programs of up to kTilesPerProgram tiles alternate two SBUF buffer sets, so the GpSimd
//     operator of tile k+1 overlaps the VectorE / ScalarE / DMA work of tile k in the cost model.
//   Engines: GpSimdE Philox (exact 32x32 -> 64 integer products), VectorE fp32 arithmetic and
//     masks, ScalarE log / sqrt / sin / exp and the affine steps of Box–Muller (ScalarE has time
//     to spare; VectorE shares trn1's SBUF port with GpSimdE), DMA SBUF -> HBM.
//   Sizes: any count; F = 2048 elements per partition unless the SBUF budget (two buffer sets in
//     3/4 of a partition) needs less; small counts use F = ceil(count / pmax), rounded to pairs.
//   Accuracy: words, uniforms, Bernoulli, integer ranges and the Poisson histogram are exact
//     (bit-identical to cuRAND where cuRAND defines them); normals follow transforms.hpp.
//   Limits: elements of one call < 2^63; the per-position substreams of poisson_exact and
//     uniform_int are addressed by 64-bit positions.
#include "trn/rand/kernels.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "trn/core/error.hpp"
#include "trn/rand/host.hpp"
#include "trn/rand/poisson.hpp"
#include "trn/rand/transforms.hpp"

namespace trn::rand {

namespace {

constexpr std::int64_t kMaxFreePerPartition = 2048;
constexpr std::int64_t kTilesPerProgram = 8;

bool is_pair_kind(KernelKind k) { return k == KernelKind::normal || k == KernelKind::log_normal; }
DType result_dtype(KernelKind k) {
  switch (k) {
    case KernelKind::uniform:
    case KernelKind::normal:
    case KernelKind::log_normal:
    case KernelKind::exponential:
      return DType::f32;
    default:
      return DType::u32;
  }
}

double gpsimd_cycles(const HardwareSpec& hw, double ops_per_element, std::int64_t elements_per_partition) {
  return hw.gpsimd_start + ops_per_element * static_cast<double>(elements_per_partition);
}

// Stores the part of `src` (elements tile_first + p F + f) that lies inside the output window.
void store_window(NeuronCore& nc, const Tile& src, std::uint64_t tile_first, const KernelParams& p, DType dt) {
  const std::int64_t F = src.free_size();
  const std::uint64_t tile_end =
      tile_first + static_cast<std::uint64_t>(src.partitions) * static_cast<std::uint64_t>(F);
  const std::uint64_t lo = std::max(p.window_first, tile_first);
  const std::uint64_t hi = std::min(p.window_first + p.window_count, tile_end);
  if (lo >= hi) return;
  const std::int64_t es = dtype_size(dt);
  const auto base = reinterpret_cast<std::uintptr_t>(p.out);
  auto hbm = [&](std::uint64_t element, std::int64_t rows, std::int64_t cols) {
    void* at = reinterpret_cast<void*>(base + static_cast<std::uintptr_t>((element - p.window_first) * es));
    return HbmTensor::wrap(at, dt, {rows, cols}).tile(0, static_cast<std::int32_t>(rows), 0, cols);
  };
  const auto a = static_cast<std::int64_t>(lo - tile_first), b = static_cast<std::int64_t>(hi - tile_first);
  std::int64_t r0 = a / F;
  const std::int64_t c0 = a % F, r1 = b / F, c1 = b % F;
  if (r0 == r1) {
    nc.dma_copy(hbm(lo, 1, b - a), src.rows(static_cast<std::int32_t>(r0), 1).cols(c0, b - a));
    return;
  }
  if (c0 != 0) {  // head: the rest of row r0
    nc.dma_copy(hbm(lo, 1, F - c0), src.rows(static_cast<std::int32_t>(r0), 1).cols(c0, F - c0));
    ++r0;
  }
  if (r1 > r0)  // whole rows
    nc.dma_copy(hbm(tile_first + static_cast<std::uint64_t>(r0 * F), r1 - r0, F),
                src.rows(static_cast<std::int32_t>(r0), static_cast<std::int32_t>(r1 - r0)));
  if (c1 != 0)  // tail: the start of row r1
    nc.dma_copy(hbm(tile_first + static_cast<std::uint64_t>(r1 * F), 1, c1),
                src.rows(static_cast<std::int32_t>(r1), 1).cols(0, c1));
}

// One SBUF buffer set of a program.
struct Buffers {
  Tile words, result, z;
  std::optional<BoxMullerScratch> box_muller;
};

std::int64_t set_bytes_per_partition(KernelKind kind, std::int64_t F) {
  std::int64_t bytes = 3 * 4 * F;                     // words, result, z
  if (is_pair_kind(kind)) bytes += 11 * 4 * (F / 2);  // Box–Muller scratch
  return bytes;
}

// Elements per partition of a tile: the SBUF budget, and no more than the domain needs.
std::int64_t choose_free_size(const HardwareSpec& hw, const KernelParams& p) {
  std::int64_t budget = hw.sbuf_partition_bytes * 3 / 4;
  if (p.kind == KernelKind::poisson_table && p.table != nullptr) budget -= 2 * 4 * std::int64_t{p.table->length};
  std::int64_t F = std::min<std::int64_t>(kMaxFreePerPartition, hw.vector_sbuf_fmax);
  while (F > 2 && 2 * set_bytes_per_partition(p.kind, F) > budget) F /= 2;
  const auto needed = static_cast<std::int64_t>((p.domain_count + static_cast<std::uint64_t>(hw.pmax) - 1) /
                                                static_cast<std::uint64_t>(hw.pmax));
  F = std::min(F, std::max<std::int64_t>(needed, 1));
  return (F + 1) / 2 * 2;  // whole Box–Muller pairs per row
}

}  // namespace

double philox_op_cycles(const HardwareSpec& hw, std::int64_t words_per_partition) {
  return gpsimd_cycles(hw, kPhiloxGpsimdOpsPerBlock / kWordsPerBlock, words_per_partition);
}

void philox_words(NeuronCore& nc, const Tile& words, const WordStream& stream, std::uint64_t first_word,
                  std::int64_t row_stride) {
  if (words.dtype != DType::u32) throw UsageError("philox_words", "words", "needs a u32 tile");
  if (!words.free_contiguous()) throw UsageError("philox_words", "words", "needs a contiguous free axis");
  const Tile outputs[] = {words};
  nc.custom_op("philox4x32_10", outputs, {}, philox_op_cycles(nc.hw(), words.free_size()),
               [stream, first_word, row_stride](const CustomOpContext& ctx) {
                 const Tile& t = ctx.outputs[0];
                 const auto n = static_cast<std::size_t>(t.free_size());
                 for (std::int32_t p = 0; p < t.partitions; ++p) {
                   auto* row = reinterpret_cast<std::uint32_t*>(t.at(p, 0));
                   fill_stream_words(stream, first_word + static_cast<std::uint64_t>(p * row_stride), {row, n});
                 }
               });
}

void uniform_from_words(NeuronCore& nc, const Tile& dst, const Tile& words) {
  nc.tensor_scalar(dst, words, AluOp::multiply, BoxMullerConstants::kTwoPow32Inv, AluOp::add, 0x1p-33f);
}

BoxMullerScratch BoxMullerScratch::alloc(OnChipMemory& sbuf, std::int32_t partitions, std::int64_t free_size) {
  auto t = [&](const char* name) { return sbuf.alloc(DType::f32, partitions, {free_size}, name); };
  return {t("bm_u"),   t("bm_v"),   t("bm_s"),   t("bm_w_low"), t("bm_w_high"), t("bm_w_mid"),
          t("bm_t_a"), t("bm_t_b"), t("bm_arg"), t("bm_sin"),   t("bm_cos")};
}

// The engine form of box_muller_f32 (transforms.hpp). Branch selection uses 1.0 / 0.0 weights:
// x * 1 and x * 0 are exact and all but one term of each sum are +-0, so the sums are exactly the
// selected branch's value.
void box_muller(NeuronCore& nc, const BoxMullerScratch& scratch, const Tile& z_sin, const Tile& z_cos, const Tile& x,
                const Tile& y) {
  using K = BoxMullerConstants;
  using enum AluOp;
  const std::int32_t P = x.partitions;
  const Tile u = scratch.u.rows(0, P), v = scratch.v.rows(0, P), s = scratch.s.rows(0, P);
  const Tile w_low = scratch.w_low.rows(0, P), w_high = scratch.w_high.rows(0, P), w_mid = scratch.w_mid.rows(0, P);
  const Tile ta = scratch.t_a.rows(0, P), tb = scratch.t_b.rows(0, P), arg = scratch.arg.rows(0, P);
  const Tile sin_v = scratch.sin_v.rows(0, P), cos_v = scratch.cos_v.rows(0, P);
  const Engine vec = Engine::vector;

  // ScalarE: the affine word -> fp32 steps (copy with scale and bias: the same two fp32 roundings
  // as a VectorE tensor_scalar, on the engine that has time to spare), log and sqrt.
  nc.activation(u, x, ActFunc::copy, 0x1p-33f, K::kTwoPow32Inv);           // u in (0, 1]
  nc.activation(v, y, ActFunc::copy, K::kAngleScale / 2, K::kAngleScale);  // v in (0, 2 pi]
  nc.activation(s, u, ActFunc::log);
  nc.activation(s, s, ActFunc::sqrt, 0.0f, -2.0f);  // sqrt(-2 log u)

  // Branch weights: low = (v <= pi_hi), high = (v > 3pi/2_hi), mid = 1 - low - high.
  nc.tensor_scalar(w_low, v, less_equal, K::kPiHi);
  nc.tensor_scalar(w_high, v, greater, K::kThreeHalfPiHi);
  nc.tensor_tensor(w_mid, w_low, w_high, add);
  nc.tensor_scalar(w_mid, w_mid, multiply, -1.0f, add, 1.0f);
  // sin argument: v | (pi_hi - v) + pi_lo | (v - 2pi_hi) - 2pi_lo (first steps exact, Sterbenz).
  nc.tensor_scalar(ta, v, subtract, K::kPiHi, add, K::kPiLo, vec, /*reverse0=*/true);
  nc.tensor_scalar(tb, v, subtract, K::kTwoPiHi, subtract, K::kTwoPiLo);
  nc.tensor_tensor(arg, v, w_low, multiply);
  nc.tensor_tensor(ta, ta, w_mid, multiply);
  nc.tensor_tensor(arg, arg, ta, add);
  nc.tensor_tensor(tb, tb, w_high, multiply);
  nc.tensor_tensor(arg, arg, tb, add);
  nc.activation(sin_v, arg, ActFunc::sin);  // |arg| <= pi_hi
  // cos argument: (pi/2_hi - v) + pi/2_lo for v <= pi_hi, else (v - 3pi/2_hi) - 3pi/2_lo.
  nc.tensor_scalar(ta, v, subtract, K::kHalfPiHi, add, K::kHalfPiLo, vec, /*reverse0=*/true);
  nc.tensor_scalar(tb, v, subtract, K::kThreeHalfPiHi, subtract, K::kThreeHalfPiLo);
  nc.tensor_scalar(w_mid, w_low, multiply, -1.0f, add, 1.0f);  // v > pi_hi
  nc.tensor_tensor(arg, ta, w_low, multiply);
  nc.tensor_tensor(tb, tb, w_mid, multiply);
  nc.tensor_tensor(arg, arg, tb, add);
  nc.activation(cos_v, arg, ActFunc::sin);  // |arg| <= pi/2_hi
  nc.tensor_tensor(z_sin, sin_v, s, multiply);
  nc.tensor_tensor(z_cos, cos_v, s, multiply);
}

const char* kernel_kind_name(KernelKind k) {
  switch (k) {
    case KernelKind::words: return "words";
    case KernelKind::uniform: return "uniform";
    case KernelKind::normal: return "normal (Box-Muller)";
    case KernelKind::log_normal: return "log-normal (Box-Muller)";
    case KernelKind::exponential: return "exponential";
    case KernelKind::bernoulli: return "bernoulli";
    case KernelKind::poisson_table: return "poisson (cuRAND square histogram)";
    case KernelKind::poisson_exact: return "poisson exact (PTRS / inversion)";
    case KernelKind::uniform_int: return "uniform int (Lemire)";
  }
  return "?";
}

std::string GeneratePlan::print() const {
  PlanFacts f;
  f.routine = "rand";
  f.shape = std::to_string(count) + " outputs";
  f.variant = std::string(kernel_kind_name(kind)) + (engines ? " kernel on the engines" : " on the host path");
  f.engines = engines ? "GpSimdE (Philox), VectorE, ScalarE, DMA" : "host CPU";
  f.predicted_ns = predicted_ns;
  f.why = why;
  return f.print();
}
static_assert(trn::Plan<GeneratePlan>);

Profile kernel_profile(const std::optional<Trace>& last_trace, Generation target) {
  if (last_trace) return model_trace(*last_trace, ReportSettings{target});
  Profile empty;
  empty.target = target;
  return empty;
}

void record_transform(std::optional<Trace>& trace, const HostTransform& t, HostSpan words, HostSpan out,
                      std::size_t outputs) {
  if (!trace || outputs == 0) return;
  record_host_step(*trace, HostStep{.name = t.name, .flops = t.ops * static_cast<double>(outputs), .reads = {words},
                                    .writes = {out}});
}

LaunchConfig engine_launch_config(const EngineConfig& cfg, int programs, bool sequential) {
  LaunchConfig lc = cfg.launch_config({programs, 1, 1});
  if (sequential) lc.num_cores = 1;
  return lc;
}

namespace {

// GpSimdE: Poisson samples from the square histogram (alias table) in SBUF, one word each.
void poisson_table_op(NeuronCore& nc, const Tile& result, const Tile& words, const Tile& table, const KernelParams& p,
                      std::int64_t F) {
  const Tile outputs[] = {result};
  const Tile inputs[] = {words, table};
  const std::uint32_t shift = p.table->shift, len = p.table->length;
  nc.custom_op("poisson_square_histogram", outputs, inputs, gpsimd_cycles(nc.hw(), kPoissonTableGpsimdOpsPerElement, F),
               [shift, len](const CustomOpContext& ctx) {
                 const Tile &out = ctx.outputs[0], &w = ctx.inputs[0], &tab = ctx.inputs[1];
                 const auto* keep = reinterpret_cast<const std::uint32_t*>(tab.at(0, 0));
                 const std::uint32_t* alias = keep + len;
                 for (std::int32_t r = 0; r < out.partitions; ++r) {
                   const auto* x = reinterpret_cast<const std::uint32_t*>(w.at(r, 0));
                   auto* o = reinterpret_cast<std::uint32_t*>(out.at(r, 0));
                   for (std::int64_t f = 0; f < out.free_size(); ++f) {
                     std::uint64_t j = (std::uint64_t{len} * (std::uint64_t{x[f]} + 1)) >> 32;
                     if (j >= len) j = len - 1;
                     o[f] = shift + (x[f] < keep[j] ? static_cast<std::uint32_t>(j) : alias[j]);
                   }
                 }
               });
}

// GpSimdE: exact Poisson samples (PTRS) of elements tile_first + r F + f.
void poisson_exact_op(NeuronCore& nc, const Tile& result, const KernelParams& p, std::uint64_t tile_first,
                      std::int64_t F) {
  const Tile outputs[] = {result};
  const std::uint64_t seed = p.stream.seed;
  const double lambda = p.lambda;
  nc.custom_op("poisson_ptrs", outputs, {}, gpsimd_cycles(nc.hw(), kPoissonExactGpsimdOpsPerElement, F),
               [seed, lambda, tile_first, F](const CustomOpContext& ctx) {
                 const Tile& out = ctx.outputs[0];
                 for (std::int32_t r = 0; r < out.partitions; ++r) {
                   auto* o = reinterpret_cast<std::uint32_t*>(out.at(r, 0));
                   for (std::int64_t f = 0; f < F; ++f)
                     o[f] = poisson_exact_sample(seed, tile_first + static_cast<std::uint64_t>(r * F + f), lambda);
                 }
               });
}

// GpSimdE: integers low + [0, range) by Lemire's method from the words.
void uniform_int_op(NeuronCore& nc, const Tile& result, const Tile& words, const KernelParams& p,
                    std::uint64_t tile_first, std::int64_t F) {
  const Tile outputs[] = {result};
  const Tile inputs[] = {words};
  const std::uint64_t seed = p.stream.seed, range = p.int_range;
  const std::uint32_t low = p.int_low;
  nc.custom_op("uniform_int_lemire", outputs, inputs, gpsimd_cycles(nc.hw(), kUniformIntGpsimdOpsPerElement, F),
               [seed, range, low, tile_first, F](const CustomOpContext& ctx) {
                 const Tile &out = ctx.outputs[0], &w = ctx.inputs[0];
                 for (std::int32_t r = 0; r < out.partitions; ++r) {
                   const auto* x = reinterpret_cast<const std::uint32_t*>(w.at(r, 0));
                   auto* o = reinterpret_cast<std::uint32_t*>(out.at(r, 0));
                   for (std::int64_t f = 0; f < F; ++f)
                     o[f] = low + uniform_int_sample(seed, tile_first + static_cast<std::uint64_t>(r * F + f), x[f], range);
                 }
               });
}

// The SBUF operands of one program: double-buffered words / result / z tiles (and Box-Muller
// scratch), the Poisson table DMA'd in from HBM, the Bernoulli threshold column.
struct ProgramTiles {
  Buffers buf[2];
  Tile table, threshold;
};

ProgramTiles alloc_program_tiles(NeuronCore& nc, const KernelParams& p, std::int64_t F, DType rdt,
                                 const std::optional<HbmTensor>& table_hbm, std::int64_t table_len) {
  const std::int32_t P = nc.hw().pmax;
  OnChipMemory& sbuf = nc.sbuf();
  ProgramTiles t;
  for (int b = 0; b < 2; ++b) {
    const std::string s = std::to_string(b);
    t.buf[b].words = sbuf.alloc(DType::u32, P, {F}, "words" + s);
    t.buf[b].result = sbuf.alloc(rdt, P, {F}, "result" + s);
    t.buf[b].z = sbuf.alloc(DType::f32, P, {F}, "z" + s);
    if (is_pair_kind(p.kind)) t.buf[b].box_muller = BoxMullerScratch::alloc(sbuf, P, F / 2);
  }
  if (p.kind == KernelKind::poisson_table) {
    t.table = sbuf.alloc(DType::u32, 1, {2 * table_len}, "poisson_table");
    nc.dma_copy(t.table, table_hbm->tile(0, 1, 0, 2 * table_len));
  }
  if (p.kind == KernelKind::bernoulli && p.bernoulli_cut > 0) {
    // [P, 1] integer operand word <= cut - 1 (an fp32 immediate cannot hold 32-bit thresholds).
    t.threshold = sbuf.alloc(DType::i32, P, {1}, "bernoulli_threshold");
    const std::array<std::int64_t, 2> pattern[] = {{0, 1}};
    nc.iota(t.threshold, pattern, static_cast<std::int64_t>(static_cast<std::int32_t>(p.bernoulli_cut - 1)), 0);
    t.threshold = t.threshold.bitcast(DType::u32);
  }
  return t;
}

// One tile of `rows` x F outputs starting at element tile_first: the Philox words, the
// distribution's transform, the store.
void generate_tile(NeuronCore& nc, const KernelParams& p, const ProgramTiles& pt, const Buffers& b,
                   std::uint64_t tile_first, std::int32_t rows, std::int64_t F, DType rdt) {
  const Tile words = b.words.rows(0, rows), result = b.result.rows(0, rows), z = b.z.rows(0, rows);
  if (p.kind != KernelKind::poisson_exact) philox_words(nc, words, p.stream, tile_first, F);
  switch (p.kind) {
    case KernelKind::words:
      store_window(nc, words, tile_first, p, DType::u32);
      return;
    case KernelKind::uniform:
      uniform_from_words(nc, result, words);
      break;
    case KernelKind::normal:
    case KernelKind::log_normal: {
      const std::int64_t h = F / 2;
      box_muller(nc, *b.box_muller, z.slice(0, 0, h, 2), z.slice(0, 1, h, 2), words.slice(0, 0, h, 2),
                 words.slice(0, 1, h, 2));
      if (p.kind == KernelKind::normal)
        nc.activation(result, z, ActFunc::copy, p.mean, p.stddev);  // z * stddev + mean (ScalarE)
      else
        nc.activation(result, z, ActFunc::exp, p.mean, p.stddev);  // exp(z * stddev + mean)
      break;
    }
    case KernelKind::exponential:
      uniform_from_words(nc, z, words);
      nc.activation(z, z, ActFunc::log);
      nc.tensor_scalar(result, z, AluOp::subtract, 0.0f, AluOp::divide, p.rate, Engine::vector,
                       /*reverse0=*/true);  // (0 - log u) / rate
      break;
    case KernelKind::bernoulli:
      if (p.bernoulli_cut == 0)
        nc.memset(result, 0.0f, Engine::gpsimd);
      else  // native integer comparison on GpSimdE (u32 operands)
        nc.tensor_scalar(result, words, AluOp::less_equal, pt.threshold.rows(0, rows), AluOp::bypass, 0.0f,
                         Engine::gpsimd);
      break;
    case KernelKind::poisson_table:
      poisson_table_op(nc, result, words, pt.table, p, F);
      break;
    case KernelKind::poisson_exact:
      poisson_exact_op(nc, result, p, tile_first, F);
      break;
    case KernelKind::uniform_int:
      uniform_int_op(nc, result, words, p, tile_first, F);
      break;
  }
  store_window(nc, result, tile_first, p, rdt);
}

}  // namespace

LaunchResult run_generate_kernel(const KernelParams& p, const EngineConfig& cfg) {
  const HardwareSpec& hw = hardware_spec(cfg.target);
  if (p.domain_count == 0) return {};
  if (p.kind == KernelKind::poisson_table && p.table == nullptr)
    throw UsageError("run_generate_kernel", "table", "poisson_table needs a table");
  const std::int64_t F = choose_free_size(hw, p);
  const std::uint64_t tile_elems = static_cast<std::uint64_t>(hw.pmax) * static_cast<std::uint64_t>(F);
  const std::uint64_t tiles = (p.domain_count + tile_elems - 1) / tile_elems;
  const std::uint64_t programs = (tiles + kTilesPerProgram - 1) / kTilesPerProgram;
  if (programs > 0x7fffffffu)
    throw LimitError("run_generate_kernel", "count", "programs", static_cast<std::int64_t>(programs), "grid size",
                     0x7fffffff, hw.name);
  const DType rdt = result_dtype(p.kind);

  // Poisson histogram in HBM: keep_below[0 .. L), alias[0 .. L) as one u32 row.
  std::optional<HbmTensor> table_hbm;
  std::int64_t table_len = 0;
  if (p.kind == KernelKind::poisson_table) {
    table_len = p.table->length;
    table_hbm.emplace(DType::u32, std::vector<std::int64_t>{1, 2 * table_len});
    auto* t = table_hbm->as<std::uint32_t>();
    std::copy(p.table->keep_below.begin(), p.table->keep_below.end(), t);
    std::copy(p.table->alias.begin(), p.table->alias.end(), t + table_len);
  }

  const LaunchConfig lc = engine_launch_config(cfg, static_cast<int>(programs));

  return launch(lc, [&](NeuronCore& nc) {
    const ProgramTiles pt = alloc_program_tiles(nc, p, F, rdt, table_hbm, table_len);
    const auto first_tile = static_cast<std::uint64_t>(nc.program_id(0)) * kTilesPerProgram;
    const std::uint64_t last_tile = std::min(tiles, first_tile + kTilesPerProgram);
    const std::uint64_t domain_end = p.domain_first + p.domain_count;
    for (std::uint64_t k = first_tile; k < last_tile; ++k) {
      const std::uint64_t tile_first = p.domain_first + k * tile_elems;
      const std::uint64_t count = std::min(tile_elems, domain_end - tile_first);
      const auto rows =
          static_cast<std::int32_t>((count + static_cast<std::uint64_t>(F) - 1) / static_cast<std::uint64_t>(F));
      generate_tile(nc, p, pt, pt.buf[(k - first_tile) % 2], tile_first, rows, F, rdt);
    }
  });
}

}  // namespace trn::rand

namespace trn::rand {

void dma_row_to_output(NeuronCore& nc, const Tile& row, std::uint64_t row_part, std::uint64_t row_first,
                       std::uint64_t a, std::uint64_t e, std::uint64_t p0, void* out, DType dt) {
  const auto rp = static_cast<std::int64_t>(row_part);
  const auto bytes = static_cast<std::uint64_t>(dtype_size(dt));
  auto copy = [&](std::uint64_t j, std::uint64_t c0, std::uint64_t c1, std::uint64_t parts) {
    // Row word j row_part + c0 is output element row_first + j row_part + c0 - p0.
    const std::uint64_t first = row_first + j * row_part + c0 - p0;
    nc.dma_copy(HbmTensor::wrap(static_cast<std::uint8_t*>(out) + first * bytes, dt,
                                {static_cast<std::int64_t>(parts), static_cast<std::int64_t>(c1 - c0)}, {rp, 1})
                    .tile(0, static_cast<std::int32_t>(parts), 0, static_cast<std::int64_t>(c1 - c0)),
                row.rows(static_cast<std::int32_t>(j), static_cast<std::int32_t>(parts))
                    .cols(static_cast<std::int64_t>(c0), static_cast<std::int64_t>(c1 - c0)));
  };
  std::uint64_t ja = a / row_part;
  if (a % row_part != 0 || e - ja * row_part < row_part) {  // partial first partition
    copy(ja, a % row_part, std::min(row_part, e - ja * row_part), 1);
    ++ja;
  }
  const std::uint64_t jb = e / row_part;  // full partitions [ja, jb)
  if (jb > ja) copy(ja, 0, row_part, jb - ja);
  if (e % row_part != 0 && e / row_part >= ja) copy(e / row_part, 0, e % row_part, 1);  // partial last partition
}

// ---- predicted time (GeneratePlan::predicted_ns) -----------------------------------------------------

namespace {

// One instruction of a tile as the cost model prices it: its engine, occupancy in ns, and the earlier
// steps of the tile whose results (or, for a rewritten scratch tile, whose reads) it waits for.
struct PricedStep {
  Engine engine;
  double ns;
  std::array<int, 2> deps{-1, -1};
};

// Section 3's DMA time of a transfer of `rows` partition rows and `bytes`, one endpoint in HBM.
double hbm_dma_ns(const HardwareSpec& hw, std::int64_t rows, double bytes, double queue_bytes_per_ns) {
  const std::int64_t per = hw.dma_partitions_per_engine, r = std::max<std::int64_t>(rows, 1);
  const std::int64_t queues = std::clamp<std::int64_t>((r + per - 1) / per, 1, hw.dma_engines);
  const double rows_per_queue = std::ceil(static_cast<double>(r) / static_cast<double>(queues));
  return rows_per_queue * hw.dma_descriptor_ns +
         bytes / static_cast<double>(queues) / (queue_bytes_per_ns * hw.dma_hbm_efficiency);
}

// The instructions of one tile of F elements per partition in generate_tile's order (the Philox
// operator, the transform, the store), priced by instruction_ns: custom operators at their declared
// GpSimd cycles, element-wise instructions at the ISA formulas (fp32 SBUF operands). `setup` adds the
// program's first instructions (the Poisson table's load, the Bernoulli threshold column).
std::vector<PricedStep> tile_steps(const HardwareSpec& hw, const KernelParams& p, std::int64_t F, double store_ns,
                                   bool setup, double queue_bw) {
  std::vector<PricedStep> st;
  // add(engine, opcode, elements, deps...): deps are step numbers counted from the tile's first step.
  auto add = [&](Engine e, Opcode op, std::int64_t n, int d0 = -1, int d1 = -1, double declared = 0) {
    Instruction ins;
    ins.engine = e;
    ins.opcode = op;
    ins.free_elems = n;
    ins.declared_cycles = declared;
    st.push_back({e, instruction_ns(ins, hw, 0), {d0, d1}});
    return static_cast<int>(st.size()) - 1;
  };
  using enum Engine;
  using enum Opcode;
  int table = -1, threshold = -1;
  if (setup && p.kind == KernelKind::poisson_table && p.table != nullptr) {
    st.push_back({dma, hbm_dma_ns(hw, 1, 8.0 * p.table->length, queue_bw), {-1, -1}});
    table = 0;
  }
  if (setup && p.kind == KernelKind::bernoulli && p.bernoulli_cut > 0) threshold = add(gpsimd, iota, 1);
  const int w = p.kind == KernelKind::poisson_exact ? -1 : add(gpsimd, custom_op, F, -1, -1, philox_op_cycles(hw, F));
  int last = w;
  switch (p.kind) {
    case KernelKind::words:
      break;
    case KernelKind::uniform:
      last = add(vector, tensor_scalar, F, w);
      break;
    case KernelKind::normal:
    case KernelKind::log_normal: {
      // box_muller over the F / 2 pairs, instruction by instruction (its operands name the deps).
      const std::int64_t h = F / 2;
      const int u = add(scalar, activation, h, w), v = add(scalar, activation, h, w);
      const int s_log = add(scalar, activation, h, u), s = add(scalar, activation, h, s_log);
      const int lo = add(vector, tensor_scalar, h, v), hi = add(vector, tensor_scalar, h, v);
      const int mid = add(vector, tensor_scalar, h, add(vector, tensor_tensor, h, lo, hi));
      const int ta = add(vector, tensor_scalar, h, v), tb = add(vector, tensor_scalar, h, v);
      const int a1 = add(vector, tensor_tensor, h, v, lo), ta2 = add(vector, tensor_tensor, h, ta, mid);
      const int a2 = add(vector, tensor_tensor, h, a1, ta2), tb2 = add(vector, tensor_tensor, h, tb, hi);
      const int sin_v = add(scalar, activation, h, add(vector, tensor_tensor, h, a2, tb2));
      const int tc = add(vector, tensor_scalar, h, v, ta2), td = add(vector, tensor_scalar, h, v, tb2);
      const int mid2 = add(vector, tensor_scalar, h, lo, ta2);
      const int c1 = add(vector, tensor_tensor, h, tc, sin_v), td2 = add(vector, tensor_tensor, h, td, mid2);
      const int cos_v = add(scalar, activation, h, add(vector, tensor_tensor, h, c1, td2));
      const int zs = add(vector, tensor_tensor, h, sin_v, s), zc = add(vector, tensor_tensor, h, cos_v, s);
      last = add(scalar, activation, F, zs, zc);
      break;
    }
    case KernelKind::exponential:
      last = add(vector, tensor_scalar, F, add(scalar, activation, F, add(vector, tensor_scalar, F, w)));
      break;
    case KernelKind::bernoulli:
      last = add(gpsimd, p.bernoulli_cut == 0 ? memset : tensor_scalar, F, w, threshold);
      break;
    case KernelKind::poisson_table:
      last = add(gpsimd, custom_op, F, w, table, gpsimd_cycles(hw, kPoissonTableGpsimdOpsPerElement, F));
      break;
    case KernelKind::poisson_exact:
      last = add(gpsimd, custom_op, F, -1, -1, gpsimd_cycles(hw, kPoissonExactGpsimdOpsPerElement, F));
      break;
    case KernelKind::uniform_int:
      last = add(gpsimd, custom_op, F, w, -1, gpsimd_cycles(hw, kUniformIntGpsimdOpsPerElement, F));
      break;
  }
  st.push_back({dma, store_ns, {last, -1}});
  return st;
}

double engine_clock_ghz(const HardwareSpec& hw, Engine e) {
  return e == Engine::vector ? hw.vector_ghz : e == Engine::scalar ? hw.scalar_ghz : hw.gpsimd_ghz;
}

// The time of one tile alone: each engine runs its steps in order, a step starts when its engine is
// free and its deps' results are visible (section 2's latencies: DMA semaphore-to-start, a compute
// engine's result latency, the semaphore between two compute engines); trn1's VectorE and GpSimdE
// take turns on the SBUF port.
double tile_alone_ns(const HardwareSpec& hw, const std::vector<PricedStep>& st) {
  std::array<double, kEngineCount> free_at{};
  std::vector<double> fin(st.size());
  auto latency = [&](Engine from, Engine to) {
    if (from == Engine::dma) return to == Engine::dma ? 0.0 : hw.dma_fixed_ns;
    return hw.engine_latency_cycles / engine_clock_ghz(hw, from) +
           (from != to && to != Engine::dma ? hw.semaphore_ns : 0.0);
  };
  double end = 0;
  for (std::size_t k = 0; k < st.size(); ++k) {
    const Engine e = st[k].engine;
    const bool port = hw.shared_sbuf_port_vector_gpsimd && (e == Engine::vector || e == Engine::gpsimd);
    double start = port ? std::max(free_at[static_cast<std::size_t>(Engine::vector)],
                                   free_at[static_cast<std::size_t>(Engine::gpsimd)])
                        : free_at[static_cast<std::size_t>(e)];
    for (int d : st[k].deps)
      if (d >= 0) start = std::max(start, fin[static_cast<std::size_t>(d)] + latency(st[static_cast<std::size_t>(d)].engine, e));
    fin[k] = start + st[k].ns;
    free_at[static_cast<std::size_t>(e)] = fin[k];
    end = std::max(end, fin[k]);
  }
  return end;
}

// The tile's bottleneck in a steady pipeline: the busiest of ScalarE, DMA and VectorE / GpSimdE (their
// sum where they share the SBUF port).
double tile_bottleneck_ns(const HardwareSpec& hw, const std::vector<PricedStep>& st) {
  std::array<double, kEngineCount> busy{};
  for (const PricedStep& s : st) busy[static_cast<std::size_t>(s.engine)] += s.ns;
  const double v = busy[static_cast<std::size_t>(Engine::vector)], g = busy[static_cast<std::size_t>(Engine::gpsimd)];
  return std::max({hw.shared_sbuf_port_vector_gpsimd ? v + g : std::max(v, g), busy[static_cast<std::size_t>(Engine::scalar)],
                   busy[static_cast<std::size_t>(Engine::dma)]});
}

}  // namespace

double predict_generate_ns(const KernelParams& p, const EngineConfig& cfg) {
  const HardwareSpec& hw = hardware_spec(cfg.target);
  if (p.domain_count == 0) return 0;
  const std::int64_t F = choose_free_size(hw, p);
  const std::uint64_t tile_elems = static_cast<std::uint64_t>(hw.pmax) * static_cast<std::uint64_t>(F);
  const std::uint64_t tiles = (p.domain_count + tile_elems - 1) / tile_elems;
  const std::uint64_t programs = (tiles + kTilesPerProgram - 1) / kTilesPerProgram;
  const auto cores = static_cast<std::uint64_t>(std::max(cfg.num_cores, 1));
  const auto active =
      static_cast<double>(std::min<std::uint64_t>({cores, programs, static_cast<std::uint64_t>(hw.cores_per_device)}));
  const double queue_bw = std::min(hw.dma_bytes_per_ns, hw.hbm_bytes_per_ns / (active * hw.dma_engines));
  const auto es = static_cast<double>(dtype_size(result_dtype(p.kind)));
  // Core 0 runs programs 0, cores, 2 cores, ...: the busiest core. Its first tile runs alone, every
  // later one adds its bottleneck.
  double t = 0;
  bool first = true;
  for (std::uint64_t q = 0; q < programs; q += cores) {
    for (std::uint64_t k = q * kTilesPerProgram; k < std::min(tiles, (q + 1) * kTilesPerProgram); ++k) {
      const std::uint64_t count = std::min(tile_elems, p.domain_count - k * tile_elems);
      const auto rows = static_cast<std::int64_t>((count + static_cast<std::uint64_t>(F) - 1) /
                                                  static_cast<std::uint64_t>(F));
      const double store = hbm_dma_ns(hw, rows, static_cast<double>(count) * es, queue_bw);
      const std::vector<PricedStep> st = tile_steps(hw, p, F, store, first, queue_bw);
      t += first ? tile_alone_ns(hw, st) : tile_bottleneck_ns(hw, st);
      first = false;
    }
  }
  return t;
}

}  // namespace trn::rand
