// Tile-level building blocks of trnrand's kernels, usable from other tile kernels.
//
//   philox_words      GpSimdE custom operator: Philox4x32-10 words of a stream into a u32 SBUF tile
//   uniform_from_words VectorE: cuRAND float uniforms from words
//   box_muller        VectorE + ScalarE: the fp32 Box–Muller pair (trn/rand/transforms.hpp)
//
// and the whole-launch generator kernel used by trn::rand::Generator (run_generate_kernel).
//
// GpSimd cost of Philox (declared to the cost model; the Trainium/Inferentia2 architecture guide
// says "there is no rule-of-thumb to estimate execution cost of a GpSimdE instruction"): GpSimdE is eight 512-bit
// processors, each serving 16 partitions at 32 bits per partition per cycle, i.e. one 32-bit
// integer operation per partition per cycle. One Philox4x32-10 block takes 10 rounds x 8
// operations (the two 32x32 -> 64 products as a mul-lo and a mul-hi each, four XORs; round keys are
// loop constants) plus 4 for the counter and stores: 84 operations per 4 words, 21 cycles per
// output word per partition, plus GPSIMD_START (hw.gpsimd_start) per instruction.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "trn/core/cost_model.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/memory.hpp"
#include "trn/core/neuron_core.hpp"
#include "trn/core/report.hpp"
#include "trn/core/spmd.hpp"
#include "trn/rand/poisson.hpp"
#include "trn/rand/streams.hpp"

namespace trn::rand {

inline constexpr double kPhiloxGpsimdOpsPerBlock = 84.0;
// Square-histogram lookup per element: a 64-bit product (mul-lo, mul-hi), two table loads from the
// processor's local memory, compare, select, add: 7 operations.
inline constexpr double kPoissonTableGpsimdOpsPerElement = 7.0;
// Lemire's multiply-shift for integer ranges: mul-lo, mul-hi, compare, add, plus the rare
// rejection: 6 operations per element.
inline constexpr double kUniformIntGpsimdOpsPerElement = 6.0;
// PTRS per sample, with fp64 in software on the 32-bit GpSimd lanes: ~20 fp64 operations at ~25
// integer operations each, 1.12 - 1.33 attempts (1/alpha, tested), one Philox block per attempt;
// a rough 600.
inline constexpr double kPoissonExactGpsimdOpsPerElement = 600.0;

// Declared GpSimd cycles of philox_words for `words_per_partition` words in every partition.
double philox_op_cycles(const HardwareSpec& hw, std::int64_t words_per_partition);

// GpSimd custom operator "philox4x32_10": words[p, f] = stream word first_word + p * row_stride + f.
// words: u32 SBUF tile, contiguous free axis.
void philox_words(NeuronCore& nc, const Tile& words, const WordStream& stream, std::uint64_t first_word,
                  std::int64_t row_stride);

// VectorE: dst (f32) = float(words) * 2^-32 + 2^-33, one tensor_scalar (RNE conversion, exact
// product, one rounding): bit-identical to cuRAND's curand_uniform.
void uniform_from_words(NeuronCore& nc, const Tile& dst, const Tile& words);

// SBUF scratch of box_muller: eleven fp32 tiles of x's shape.
struct BoxMullerScratch {
  Tile u, v, s, w_low, w_high, w_mid, t_a, t_b, arg, sin_v, cos_v;
  static BoxMullerScratch alloc(OnChipMemory& sbuf, std::int32_t partitions, std::int64_t free_size);
};

// z_sin, z_cos (f32, [P, h], may be strided views) = the Box–Muller pair of the words x, y (u32,
// [P, h], may be strided): 19 VectorE instructions and 6 ScalarE activations (2 affine copies, log,
// sqrt, 2 x sin).
// Bits: box_muller_f32() of trn/rand/transforms.hpp.
void box_muller(NeuronCore& nc, const BoxMullerScratch& scratch, const Tile& z_sin, const Tile& z_cos, const Tile& x,
                const Tile& y);

// ---- the generator's launch ------------------------------------------------------------------------

enum class KernelKind : std::uint8_t {
  words,          // u32 words of the stream (Generate; the fp64 outputs' words, host64 order)
  uniform,        // f32 uniform
  normal,         // f32 normal: mean + stddev * z
  log_normal,     // f32 exp(mean + stddev * z)
  exponential,    // f32 (0 - log u) / lambda
  bernoulli,      // u32: word <= threshold
  poisson_table,  // u32: cuRAND square histogram (lambda < 2000)
  poisson_exact,  // u32: PTRS / inversion on per-position substreams
  uniform_int,    // u32: lo + Lemire multiply-shift over [0, range)
};

struct KernelParams {
  KernelKind kind = KernelKind::words;
  WordStream stream{};
  // Elements [domain_first, domain_first + domain_count) are computed (the window aligned to
  // Box–Muller pairs); [window_first, window_first + window_count) are stored to `out`, whose
  // element 0 is element window_first.
  std::uint64_t domain_first = 0, domain_count = 0;
  std::uint64_t window_first = 0, window_count = 0;
  void* out = nullptr;
  float mean = 0.0f, stddev = 1.0f, rate = 1.0f;
  double lambda = 0.0;
  std::uint64_t bernoulli_cut = 0;  // bernoulli: 1 iff word < bernoulli_cut (0 .. 2^32)
  std::uint32_t int_low = 0;
  std::uint64_t int_range = 0;  // uniform_int: 1 .. 2^32
  const PoissonTable* table = nullptr;
};

// target, numerics, stochastic rounding, emulated cores the tiles are spread over, host threads,
// timing_only (record the trace only: the cost model's run): core's EmulatorSettings, as every
// library's settings.
struct EngineConfig : EmulatorSettings {};

// The modeled profile of a generator's last kernel (its trace), or an empty profile of `target`
// when the last call ran no kernel (host path).
Profile kernel_profile(const std::optional<Trace>& last_trace, Generation target);
const char* kernel_kind_name(KernelKind k);

// A non-uniform transform the host side of a generator's kernel runs on the kernel's words (cuRAND's
// fp32 / fp64 formulas, bit for bit; docs/trnrand.md section 3, "Every host step" of
// docs/cost-model.md section 7): `ops` declared operations per output.
struct HostTransform {
  std::string_view name;  // a string literal
  double ops = 0;
};
// Box-Muller or the normal ICDF and mean + stddev z: 22 (the pair's log, sqrt, sin, cos at 8
// operations each, shared by two outputs, the words' conversions and the products); log-normal: the
// normal and exp (8) = 30; Poisson (table search, inversion or the rounded normal): 24; the fp64
// uniform of one or two words: 3; the float uniform: 2; the exponential: the uniform, log (8), the
// negation and division: 12.
inline constexpr HostTransform kHostNormal{"trnrand.transform.normal", 22.0};
inline constexpr HostTransform kHostLogNormal{"trnrand.transform.log_normal", 30.0};
inline constexpr HostTransform kHostPoisson{"trnrand.transform.poisson", 24.0};
inline constexpr HostTransform kHostUniformDouble{"trnrand.transform.uniform_double", 3.0};
inline constexpr HostTransform kHostUniform{"trnrand.transform.uniform", 2.0};  // float(x) 2^-32 + 2^-33
inline constexpr HostTransform kHostExponential{"trnrand.transform.exponential", 12.0};  // -log(u) / rate, u fp64
// Appends the transform of the last kernel's words (read) into `outputs` values (written) to that
// kernel's trace as one host step; nothing when the call ran no kernel (host path: no trace).
void record_transform(std::optional<Trace>& trace, const HostTransform& t, HostSpan words, HostSpan out,
                      std::size_t outputs);

// Where one Generator call runs (trn::Plan): the engines kernel of `kind`, or the host path (asked
// for by GeneratorPath::host, or forced for a window within 2^32 of 2^64, where the kernels' 64-bit
// element positions would wrap; both paths give the same bits).
struct GeneratePlan {
  KernelKind kind = KernelKind::words;
  bool engines = true;
  std::uint64_t count = 0;  // outputs stored
  Generation target = Generation::trn1;
  int cores = 1;
  double predicted_ns = -1;  // predict_generate_ns (+ a host step's host_step_ns), -1: not predicted
  std::string why;
  std::string print() const;
};

// The modeled time run_generate_kernel(p, cfg) is predicted to take, from p's shape alone (no kernel
// is run or recorded; docs/cost-model.md section 9): the tile size and grid the kernel chooses, each
// tile's instructions (generate_tile's list: Philox and the transform's instructions, the stores)
// priced by the per-instruction formulas of the cost model (instruction_ns; DMA by section 3's
// formula at the HBM share of the active cores), and a software pipeline per core: the busiest core
// (program q runs on core q mod cores) takes its first tile's dependency chain (every instruction
// after the one before it, with the result and semaphore latencies of section 2) plus, for every
// further tile, the tile's bottleneck: the largest of ScalarE, DMA and VectorE / GpSimdE (their sum
// on a target where the two share the SBUF port).
double predict_generate_ns(const KernelParams& p, const EngineConfig& cfg);

// The launch of a trnrand kernel with `programs` programs under cfg (target, numerics, host
// threads, execute); sequential = true: one emulated core (programs whose state carries over in
// order), otherwise cfg.num_cores.
LaunchConfig engine_launch_config(const EngineConfig& cfg, int programs, bool sequential = false);

// DMA of words [a, e) of one output row held in SBUF as consecutive runs of row_part words per
// partition (row: [P, row_part], element j row_part + c of the row is row word j row_part + c),
// to out + (row_first + a - p0) elements: at most three DMAs (a partial first partition, the
// whole partitions, a partial last partition). Used by the stateful word kernels (MT19937's rows,
// MTGP32's rounds). Requires row_first + a >= p0.
void dma_row_to_output(NeuronCore& nc, const Tile& row, std::uint64_t row_part, std::uint64_t row_first,
                       std::uint64_t a, std::uint64_t e, std::uint64_t p0, void* out, DType dt);

// Runs the generator kernel over tiles of [pmax, F] elements (F from the SBUF budget), programs of
// up to 8 tiles with double-buffered SBUF, and returns the launch (trace for the cost model).
LaunchResult run_generate_kernel(const KernelParams& p, const EngineConfig& cfg);

}  // namespace trn::rand
