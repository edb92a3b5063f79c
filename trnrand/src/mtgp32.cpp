// MTGP32 generator (trn/rand/mtgp32.hpp): seeding, the recursion and tempering of each block,
// cuRAND's block layout, the "mtgp32_rounds" kernel and the conversions.
//
// Kernel: mtgp32_rounds (engine path)
//   Layout: the B block rings (B = 192 or 64) on 64 partitions, B / 64 consecutive blocks per
//     partition ([64, B / 64 x 1024] u32 in SBUF, 12 KiB per partition at B = 192) with their word
//     counts ([64, 2 B / 64] u32: the 64-bit counts' halves), DMA'd in at the start of a call and
//     back at the end. An output round of 256 B words is 256 B / 64 consecutive words per
//     partition, all from that partition's own blocks, so the partitions never exchange data.
//   Per tile of up to 4 rounds ([64, 4 x 256 B / 64]): the GpSimd custom operator runs each
//     block's recursion for the words of the call in the rounds (para_rec: three ring loads, a
//     mask, two shifts, three XORs, a table load, a store; temper: a load, two shifts, two XORs,
//     a table load, an XOR: 20 operations per word, declared), the float uniform's conversion in
//     software when asked (16 more), then one DMA run per round to `out` (dma_row_to_output).
//   The double, normal, log-normal and Poisson conversions of the kernel's words run on the host
//   side of the kernel (as MT19937's). Bit-identical to the host path (tested).
#include "trn/rand/mtgp32.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include "trn/core/error.hpp"
#include "trn/core/host_simd.hpp"
#include "trn/rand/sobol.hpp"
#include "trn/rand/transforms.hpp"
#include "word_generator_impl.hpp"

namespace trn::rand {

namespace {

constexpr std::string_view kWho = "trn::rand::Mtgp32Generator";
constexpr std::uint32_t kRingMask = kMtgp32RingWords - 1;
constexpr std::uint64_t kThreads = kMtgp32ThreadsPerBlock;
constexpr std::int32_t kPartitions = 64;  // blocks are spread over 64 partitions (192 = 64 x 3)
constexpr double kMtgpGpsimdOpsPerWord = 20.0;
constexpr double kMtgpGpsimdOpsPerUniform = 16.0;
constexpr std::uint64_t kRoundsPerTile = 4;

// cuRAND's seed folding (curandMakeMTGP32KernelState): lo32(seed ^ seed >> 32).
std::uint32_t folded_seed(std::uint64_t seed) { return static_cast<std::uint32_t>(seed ^ (seed >> 32)); }

}  // namespace

void mtgp32_init_ring(std::uint32_t* ring, int set, std::uint32_t seed) {
  const Mtgp32ParamsFast& p = kMtgp32dcParamsFast11213[set];
  const std::uint32_t hidden = p.tbl[4] ^ (p.tbl[8] << 16);
  std::uint32_t fill = hidden;
  fill += fill >> 16;
  fill += fill >> 8;
  const std::uint32_t byte = fill & 0xffu;
  std::fill(ring, ring + kMtgp32StateWords, byte * 0x01010101u);  // memset of the state with that byte
  ring[0] = seed;
  ring[1] = hidden;
  for (std::uint32_t i = 1; i < static_cast<std::uint32_t>(kMtgp32StateWords); ++i)
    ring[i] ^= 1812433253u * (ring[i - 1] ^ (ring[i - 1] >> 30)) + i;
}

namespace {
// mtgp32_next's body, inlined into the generation loops (the exported function is called through
// the PLT of the shared library: a call per word).
inline std::uint32_t next_word(std::uint32_t* ring, std::uint64_t k, const Mtgp32ParamsFast& p) {
  const auto i = static_cast<std::uint32_t>(k & kRingMask);
  const auto pos = static_cast<std::uint32_t>(p.pos);
  std::uint32_t x = (ring[i] & p.mask) ^ ring[(i + 1) & kRingMask];
  x ^= x << p.sh1;
  std::uint32_t y = x ^ (ring[(i + pos) & kRingMask] >> p.sh2);
  y ^= p.tbl[y & 0x0fu];
  ring[(i + kMtgp32StateWords) & kRingMask] = y;
  std::uint32_t t = ring[(i + pos - 1) & kRingMask];
  t ^= t >> 16;
  t ^= t >> 8;
  return y ^ p.tmp_tbl[t & 0x0fu];
}
// A whole round of one block: its 256 words k .. k + 255 at once. Words k + 351 .. k + 606 read
// ring words k .. k + pos + 255 only, all older than the round when pos <= 95 (cuRAND's design for
// 256 threads per block: every set has pos <= 93), so the round is one plain loop over a linear
// copy of the 351 words, which the compiler vectorises; the 4-bit table lookups are the XOR of the
// entries of the index's set bits when the table is linear over GF(2) (checked per set: MTGP's
// tables are built that way). The same words and ring as 256 next_word calls.
struct RoundTables {
  bool ok = false;  // linear tables and pos <= 95: round() applies
  std::uint32_t tbl[4] = {}, tmp_tbl[4] = {};
};

bool linear(const std::uint32_t (&t)[16]) {
  for (unsigned v = 0; v < 16; ++v) {
    std::uint32_t x = 0;
    for (unsigned b = 0; b < 4; ++b)
      if ((v >> b) & 1u) x ^= t[1u << b];
    if (x != t[v]) return false;
  }
  return true;
}

const RoundTables& round_tables(std::size_t set) {
  static const std::array<RoundTables, kMtgp32ParamSets> all = [] {
    std::array<RoundTables, kMtgp32ParamSets> a{};
    for (std::size_t s = 0; s < a.size(); ++s) {
      const Mtgp32ParamsFast& p = kMtgp32dcParamsFast11213[s];
      a[s].ok = p.pos >= 1 && p.pos + static_cast<int>(kThreads) - 1 < kMtgp32StateWords && linear(p.tbl) && linear(p.tmp_tbl);
      for (unsigned b = 0; b < 4; ++b) a[s].tbl[b] = p.tbl[1u << b], a[s].tmp_tbl[b] = p.tmp_tbl[1u << b];
    }
    return a;
  }();
  return all[set];
}

inline std::uint32_t table_xor(const std::uint32_t (&basis)[4], std::uint32_t v) {
  return ((0u - (v & 1u)) & basis[0]) ^ ((0u - ((v >> 1) & 1u)) & basis[1]) ^ ((0u - ((v >> 2) & 1u)) & basis[2]) ^
         ((0u - ((v >> 3) & 1u)) & basis[3]);
}

// Words k .. k + 255 of the block of set `set` into out (uniform: their float uniforms' bits).
// Compiled twice (next_round below): the library's baseline ISA and AVX-512, chosen at run time
// (host_simd_available); the same integer operations and the same single fp32 rounding per step.
[[gnu::always_inline]] inline void next_round_body(std::uint32_t* ring, std::uint64_t k, std::size_t set, bool uniform,
                                                   std::uint32_t* out) {
  const Mtgp32ParamsFast& p = kMtgp32dcParamsFast11213[set];
  const RoundTables& rt = round_tables(set);
  if (!rt.ok) {
    for (std::uint64_t t = 0; t < kThreads; ++t) {
      const std::uint32_t x = next_word(ring, k + t, p);
      out[t] = uniform ? std::bit_cast<std::uint32_t>(uniform_from_word(x)) : x;
    }
    return;
  }
  constexpr std::size_t kN = kMtgp32StateWords;
  std::uint32_t old[kN], fresh[kThreads];
  const auto i0 = static_cast<std::uint32_t>(k & kRingMask);
  // The ring's words i0 .. i0 + 350 (mod the ring) as two plain copies, not a masked index per word.
  const std::size_t head = std::min<std::size_t>(kN, kMtgp32RingWords - i0);
  std::memcpy(old, ring + i0, head * sizeof(std::uint32_t));
  std::memcpy(old + head, ring, (kN - head) * sizeof(std::uint32_t));
  const auto pos = static_cast<std::size_t>(p.pos);
  const std::uint32_t mask = p.mask;
  const int sh1 = p.sh1, sh2 = p.sh2;
  for (std::size_t t = 0; t < kThreads; ++t) {
    std::uint32_t x = (old[t] & mask) ^ old[t + 1];
    x ^= x << sh1;
    std::uint32_t y = x ^ (old[t + pos] >> sh2);
    y ^= table_xor(rt.tbl, y);
    fresh[t] = y;
    std::uint32_t tt = old[t + pos - 1];
    tt ^= tt >> 16;
    tt ^= tt >> 8;
    out[t] = y ^ table_xor(rt.tmp_tbl, tt);
  }
  const std::size_t at = (i0 + kN) & kRingMask, first = std::min<std::size_t>(kThreads, kMtgp32RingWords - at);
  std::memcpy(ring + at, fresh, first * sizeof(std::uint32_t));
  std::memcpy(ring, fresh + first, (kThreads - first) * sizeof(std::uint32_t));
  if (uniform)
    for (std::size_t t = 0; t < kThreads; ++t) out[t] = std::bit_cast<std::uint32_t>(uniform_from_word(out[t]));
}

__attribute__((target("avx512f,avx512bw,avx512vl"))) void next_round_avx512(std::uint32_t* ring, std::uint64_t k,
                                                                            std::size_t set, bool uniform, std::uint32_t* out) {
  next_round_body(ring, k, set, uniform, out);
}
void next_round_baseline(std::uint32_t* ring, std::uint64_t k, std::size_t set, bool uniform, std::uint32_t* out) {
  next_round_body(ring, k, set, uniform, out);
}
void next_round(std::uint32_t* ring, std::uint64_t k, std::size_t set, bool uniform, std::uint32_t* out) {
  static const bool avx512 = host_simd_available(HostSimd::avx512);
  if (avx512)
    next_round_avx512(ring, k, set, uniform, out);
  else
    next_round_baseline(ring, k, set, uniform, out);
}

}  // namespace

std::uint32_t mtgp32_next(std::uint32_t* ring, std::uint64_t k, const Mtgp32ParamsFast& p) { return next_word(ring, k, p); }

Mtgp32Generator::Mtgp32Generator(bool engines, const EngineConfig& cfg) : engines_(engines), cfg_(cfg) {}

Profile Mtgp32Generator::last_profile() const { return kernel_profile(last_trace_, cfg_.target); }

void Mtgp32Generator::restart() {
  position_ = 0;
  rings_.clear();
  produced_.clear();
}

void Mtgp32Generator::set_seed(std::uint64_t seed) {
  if (seed == seed_) return;  // cuRAND: the same seed changes nothing (observed)
  seed_ = seed;
  restart();
}

void Mtgp32Generator::set_ordering(Mtgp32Ordering ordering) {
  if (ordering == ordering_) return;
  ordering_ = ordering;
  restart();
}

void Mtgp32Generator::set_offset(std::uint64_t offset) {
  if (offset < position_) restart();
  const bool engines = engines_;
  engines_ = false;  // skipped words are not output: the host recursion
  std::vector<std::uint32_t> skipped(std::min<std::uint64_t>(offset - position_, std::uint64_t{1} << 16));
  while (position_ < offset) words(skipped.data(), static_cast<std::size_t>(std::min<std::uint64_t>(offset - position_, skipped.size())));
  engines_ = engines;
}

void Mtgp32Generator::words(std::uint32_t* out, std::size_t n, bool uniform) {
  const auto nb = static_cast<std::uint64_t>(blocks());
  if (rings_.empty()) {
    rings_.assign(nb * kMtgp32RingWords, 0u);
    produced_.assign(nb, 0);
    for (std::uint64_t b = 0; b < nb; ++b)
      mtgp32_init_ring(rings_.data() + b * kMtgp32RingWords, static_cast<int>(b), folded_seed(seed_) + static_cast<std::uint32_t>(b) + 1u);
  }
  if (engines_) return words_on_engines(out, n, uniform);
  last_trace_.reset();
  std::uint64_t p = position_;
  for (std::size_t i = 0; i < n;) {
    // The rest of this block's 256 words of the round.
    const std::uint64_t b = (p / kThreads) % nb;
    std::uint32_t* ring = rings_.data() + b * kMtgp32RingWords;
    const Mtgp32ParamsFast& par = kMtgp32dcParamsFast11213[b];
    if (p % kThreads == 0 && n - i >= kThreads) {  // the block's whole 256 words of the round
      next_round(ring, produced_[b], static_cast<std::size_t>(b), false, out + i);
      produced_[b] += kThreads, i += kThreads, p += kThreads;
      continue;
    }
    for (std::uint64_t t = p % kThreads; t < kThreads && i < n; ++t, ++i, ++p) out[i] = next_word(ring, produced_[b]++, par);
  }
  position_ = p;
}

void Mtgp32Generator::words_on_engines(std::uint32_t* out, std::size_t n, bool uniform) {
  if (n == 0) return;
  const HardwareSpec& hw = hardware_spec(cfg_.target);
  if (hw.pmax < kPartitions) throw NotSupportedError("Mtgp32Generator", "fewer than 64 partitions", hw.name);
  const auto nb = static_cast<std::uint64_t>(blocks());
  const std::int64_t per_partition = static_cast<std::int64_t>(nb) / kPartitions;  // blocks per partition
  const std::int64_t row_part = per_partition * static_cast<std::int64_t>(kThreads);  // a round's words per partition
  const std::uint64_t round_words = nb * kThreads;
  const std::uint64_t p0 = position_, p1 = position_ + n;
  const std::uint64_t round_first = p0 / round_words, round_last = (p1 - 1) / round_words;
  const std::uint64_t tiles = (round_last - round_first) / kRoundsPerTile + 1;
  std::vector<std::uint64_t> produced = produced_;  // the kernel's copy of the counts (timing-only runs keep ours)
  std::vector<std::uint32_t> rings = rings_;
  const HbmTensor ring_hbm = HbmTensor::wrap(rings.data(), DType::u32, {kPartitions, per_partition * kMtgp32RingWords});
  const HbmTensor count_hbm = HbmTensor::wrap(produced.data(), DType::u32, {kPartitions, 2 * per_partition});
  const DType out_dt = uniform ? DType::f32 : DType::u32;

  const LaunchConfig lc = engine_launch_config(cfg_, 1, true);  // block states carry over: one program
  LaunchResult result = launch(lc, [&](NeuronCore& nc) {
    OnChipMemory& sbuf = nc.sbuf();
    const Tile ring_t = sbuf.alloc(DType::u32, kPartitions, {per_partition * kMtgp32RingWords}, "mtgp32_rings");
    const Tile count_t = sbuf.alloc(DType::u32, kPartitions, {2 * per_partition}, "mtgp32_counts");
    const Tile rounds_t = sbuf.alloc(DType::u32, kPartitions, {static_cast<std::int64_t>(kRoundsPerTile) * row_part}, "mtgp32_rounds");
    nc.dma_copy(ring_t, ring_hbm.tile(0, kPartitions, 0, per_partition * kMtgp32RingWords));
    nc.dma_copy(count_t, count_hbm.tile(0, kPartitions, 0, 2 * per_partition));
    for (std::uint64_t k = 0; k < tiles; ++k) {
      const std::uint64_t r0 = round_first + k * kRoundsPerTile;
      const std::uint64_t r1 = std::min(r0 + kRoundsPerTile, round_last + 1);
      // Declared: every word of the busiest partition's blocks in these rounds.
      const double words_per_partition = static_cast<double>((r1 - r0) * static_cast<std::uint64_t>(row_part));
      const double cycles =
          hw.gpsimd_start + (kMtgpGpsimdOpsPerWord + (uniform ? kMtgpGpsimdOpsPerUniform : 0.0)) * words_per_partition;
      const Tile outputs[] = {rounds_t, ring_t, count_t};
      const Tile inputs[] = {ring_t, count_t};
      nc.custom_op("mtgp32_rounds", outputs, inputs, cycles, [&, r0, r1](const CustomOpContext& ctx) {
        const Tile &o = ctx.outputs[0], &rt = ctx.outputs[1], &ct = ctx.outputs[2];
        for (std::int32_t j = 0; j < o.partitions; ++j) {
          auto* dst = reinterpret_cast<std::uint32_t*>(o.at(j, 0));
          for (std::int64_t s = 0; s < per_partition; ++s) {
            const auto b = static_cast<std::uint64_t>(j * per_partition + s);
            std::uint32_t* ring = reinterpret_cast<std::uint32_t*>(rt.at(j, 0)) + s * kMtgp32RingWords;
            std::uint64_t count = 0;
            std::memcpy(&count, ct.at(j, 0) + s * 8, 8);
            for (std::uint64_t r = r0; r < r1; ++r) {
              const std::uint64_t first = r * round_words + b * kThreads;  // position of the block's word t = 0
              if (first >= p0 && first + kThreads <= p1) {  // all 256 words in the call
                next_round(ring, count, static_cast<std::size_t>(b), uniform,
                           dst + static_cast<std::int64_t>(r - r0) * row_part + s * static_cast<std::int64_t>(kThreads));
                count += kThreads;
                continue;
              }
              for (std::uint64_t t = 0; t < kThreads; ++t) {
                if (first + t < p0 || first + t >= p1) continue;  // not in the call
                const std::uint32_t x = next_word(ring, count++, kMtgp32dcParamsFast11213[b]);
                dst[static_cast<std::int64_t>(r - r0) * row_part + s * static_cast<std::int64_t>(kThreads) +
                    static_cast<std::int64_t>(t)] = uniform ? std::bit_cast<std::uint32_t>(uniform_from_word(x)) : x;
              }
            }
            std::memcpy(ct.at(j, 0) + s * 8, &count, 8);
          }
        }
      });
      for (std::uint64_t r = r0; r < r1; ++r) {
        const std::uint64_t a = std::max(p0, r * round_words) - r * round_words;
        const std::uint64_t e = std::min(p1, (r + 1) * round_words) - r * round_words;
        const Tile row = rounds_t.cols(static_cast<std::int64_t>(r - r0) * row_part, row_part).bitcast(out_dt);
        dma_row_to_output(nc, row, static_cast<std::uint64_t>(row_part), r * round_words, a, e, p0, out, out_dt);
      }
    }
    nc.dma_copy(ring_hbm.tile(0, kPartitions, 0, per_partition * kMtgp32RingWords), ring_t);
    nc.dma_copy(count_hbm.tile(0, kPartitions, 0, 2 * per_partition), count_t);
  });
  if (!cfg_.timing_only) {
    rings_ = std::move(rings);
    produced_ = std::move(produced);
  }
  last_trace_ = std::move(result.trace);
  position_ = p1;
}

void Mtgp32Generator::uniform(std::span<float> out) {
  if (!engines_) return fill(out, kHostUniform, uniform_from_word);  // host path: no trace, nothing recorded
  // The kernel's VectorE uniforms straight into out (its DMAs write the float bits).
  words(reinterpret_cast<std::uint32_t*>(out.data()), out.size(), true);
}
void Mtgp32Generator::uniform_double(std::span<double> out) { fill(out, kHostUniformDouble, uniform_double_from_word); }
void Mtgp32Generator::normal_double(std::span<double> out, double mean, double stddev) {
  // cuRAND widens the float normal (observed: every value a float at mean 0, stddev 1).
  fill(out, kHostNormal, [&](std::uint32_t x) { return normal_affine_double(static_cast<double>(sobol_normal_icdf(x)), mean, stddev); });
}
void Mtgp32Generator::poisson_device_api(std::span<std::uint32_t> out, double lambda) {
  fill(out, kHostPoisson, [&](std::uint32_t x) { return curand_device_poisson(x, lambda); });
}

void Mtgp32Generator::poisson(std::span<std::uint32_t> out, double lambda) {
  if (!(lambda > 0.0) || !(lambda <= kCurandPoissonMaxLambda))
    throw UsageError(kWho, "lambda",
                     "poisson needs 0 < lambda <= 400000 (cuRAND's range), got " + std::to_string(lambda));
  const WordPoisson sample(lambda, kMtgp32PoissonInversionFrom, table_);
  fill(out, kHostPoisson, [&](std::uint32_t x) { return sample(x); });
}

template class WordGenerator<Mtgp32Generator>;

}  // namespace trn::rand
