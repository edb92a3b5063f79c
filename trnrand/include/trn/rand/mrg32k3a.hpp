// MRG32K3A: cuRAND's PSEUDO_MRG32K3A generator (host and engine paths), bit-identical to libcurand's host
// generator for integer and uniform outputs (docs/trnrand.md section 10).
//
// The algorithm is L'Ecuyer's combined multiple recursive generator MRG32k3a (P. L'Ecuyer, "Good
// parameters and implementations for combined multiple recursive random number generators",
// Operations Research 47(1), 159-164, 1999): two order-3 recurrences
//   x1[n] = (1403580 x1[n-2] - 810728 x1[n-3]) mod m1,   m1 = 2^32 - 209,
//   x2[n] = (527612 x2[n-1] - 1370589 x2[n-3]) mod m2,   m2 = 2^32 - 22853,
// combined as r = x1 - x2 (mod m1) in [1, m1] (r = m1 where x1 = x2, as cuRAND's curand_MRG32k3a).
// Seeding as cuRAND's curand_init (CURAND: curand_kernel.h): all six state words 12345, and for a
// nonzero seed each multiplied mod m by seed_lo ^ 0x55555555 or seed_hi ^ 0xaaaaaaaa.
// Skip-ahead as in P. L'Ecuyer, R. Simard, E. J. Chen and W. D. Kelton, "An object-oriented
// random-number package with many long streams and substreams", Operations Research 50(6),
// 1073-1075, 2002: n steps of each recurrence are one 3 x 3 matrix power A^n mod m applied to the
// state; subsequences are 2^76 steps apart (cuRAND's subsequence length, checked against
// libcurand). trnrand computes every power itself by square-and-multiply (no table is copied).
//
// Host ordering (reconstructed from cuRAND 10.4 output; bit-exact on every stored sequence): 81920
// threads; thread k runs subsequence k, curand_init(seed, k, 0). The generator's offset counts
// slots, slot s belongs to thread s mod 81920, each thread keeps its own state across calls (the
// XORWOW model of section 8 with 81920 threads), and per slot:
//   Generate, GenerateUniform, GenerateUniformDouble, GeneratePoisson (lambda < 2000): 1 value, 1 step;
//   GenerateNormal(Double) / LogNormal(Double): 1 pair of values (sine, cosine), 2 steps;
//   GeneratePoisson (lambda >= 2000): 1 value from curand_normal (a fresh Box-Muller pair for one
//     slot, the cosine kept for the thread's next such slot, also across calls).
// SetGeneratorOffset(P) restarts thread k at step ceil((P - k) / 81920) of its stream;
// SetPseudoRandomGeneratorSeed keeps the offset and restarts the states.
//
// Paths: host (trnrandCreateGeneratorHost) and engines (trnrandCreateGenerator): the 81920 thread
// states advance in the mrg32k3a_slots GpSimd kernel (run_mrg32k3a_kernel); bit-identical outputs
// (tested).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "trn/core/cost_model.hpp"
#include "trn/rand/kernels.hpp"
#include "trn/rand/poisson.hpp"
#include "trn/rand/stateful_generator.hpp"

namespace trn::rand {

inline constexpr std::uint32_t kMrgM1 = 4294967087u;  // 2^32 - 209
inline constexpr std::uint32_t kMrgM2 = 4294944443u;  // 2^32 - 22853

struct Mrg32k3aState {
  std::array<std::uint32_t, 3> s1{}, s2{};  // x1[n-3..n-1], x2[n-3..n-1]
  bool has_extra_normal = false;            // curand_normal's cosine is pending
  float extra_normal = 0.0f;
};

// curand_init(seed, 0, 0) for MRG32k3a.
Mrg32k3aState mrg32k3a_seed_state(std::uint64_t seed);

// One step: the combined value r in [1, m1] (cuRAND's curand_MRG32k3a, as an integer).
inline std::uint32_t mrg32k3a_next(Mrg32k3aState& s) {
  // Both sums are below 2^54: exact in 64-bit integers (m1 - s1[0] keeps the term nonnegative).
  const std::uint64_t p1 = (1403580ull * s.s1[1] + 810728ull * (kMrgM1 - s.s1[0])) % kMrgM1;
  const std::uint64_t p2 = (527612ull * s.s2[2] + 1370589ull * (kMrgM2 - s.s2[0])) % kMrgM2;
  s.s1 = {s.s1[1], s.s1[2], static_cast<std::uint32_t>(p1)};
  s.s2 = {s.s2[1], s.s2[2], static_cast<std::uint32_t>(p2)};
  return p1 > p2 ? static_cast<std::uint32_t>(p1 - p2) : static_cast<std::uint32_t>(p1 + kMrgM1 - p2);
}

// skipahead(n, state): n steps. skipahead_subsequence(n, state): n subsequences of 2^76 steps.
void mrg32k3a_skip(Mrg32k3aState& s, std::uint64_t n);
void mrg32k3a_skip_subsequences(Mrg32k3aState& s, std::uint64_t n);

// cuRAND's conversions of r (curand_kernel.h, curand_uniform.h): 32-bit word
// (unsigned)(r * 1.000000048662) (MRG32K3A_BITS_NORM), float uniform (float)(r * MRG32K3A_NORM)
// (product in double, one rounding to float), double uniform r * MRG32K3A_NORM; all in (0, 1].
inline constexpr double kMrgNorm = 2.3283065498378288e-10;  // MRG32K3A_NORM, about 1 / (m1 + 1)
inline constexpr double kMrgBitsNorm = 1.000000048662;      // MRG32K3A_BITS_NORM, about (2^32 - 1) / m1
inline std::uint32_t mrg32k3a_word(std::uint32_t r) { return static_cast<std::uint32_t>(r * kMrgBitsNorm); }
inline float mrg32k3a_uniform(std::uint32_t r) { return static_cast<float>(r * kMrgNorm); }
inline double mrg32k3a_uniform_double(std::uint32_t r) { return r * kMrgNorm; }

inline constexpr std::uint64_t kMrg32k3aThreads = 81920;  // cuRAND's host MRG32K3A threads

enum class MrgSlot : std::uint8_t {
  steps1,         // 1 value r
  steps2,         // 2 values r (a Box-Muller pair)
  carried_normal  // 1 float (bits): curand_normal with the state's pending cosine
};
// What a steps1 / steps2 value is written as: r itself, cuRAND's 32-bit word of r, or the bits of
// its float uniform (carried_normal slots always write the float normal's bits).
enum class MrgOutput : std::uint8_t { raw, word, uniform };

// The per-slot work of a call, shared by the host path and the GpSimd operator: slots
// [slot_begin, slot_end) of a call whose first slot is first_slot (absolute), from the 81920
// thread states; writes 1 (steps1, carried_normal) or 2 (steps2) values per slot to out.
void mrg32k3a_run_slots(std::span<Mrg32k3aState> states, std::uint64_t first_slot, std::uint64_t slot_begin,
                        std::uint64_t slot_end, MrgSlot kind, MrgOutput output, std::uint32_t* out);

// Engine path of one call (kernel "mrg32k3a_slots", trn/rand/slot_kernel.hpp):
//   Layout: the 81920 states in one SBUF tile [128, 640 x 8] (thread k in partition k / 640: x1[3],
//     x2[3], pending flag, pending value; 20 KiB per partition), DMA'd in and back out per call.
//   Per tile of [128, F] values: the GpSimd custom operator steps the states in slot order and
//     writes the values, converted in the operator (the u32 word and the float uniform are cuRAND's
//     fp64 products, computed in software on the 32-bit lanes; declared below); DMA to `out`.
//   Declared GpSimd operations per value: 40 per step (per component two 32 x 22-bit products as
//     mul-lo + mul-hi, a 64-bit add, the reduction mod m = 2^32 - c as hi c + lo twice, the window
//     moves; the combination), + 4 for the u32 word (a fixed-point mul-hi and correction), + 16 for
//     the float uniform (the fp64 product and its rounding to fp32 in software).
//   Accuracy: bit-identical to the host path (same routine); limits: one program, tiles in sequence.
LaunchResult run_mrg32k3a_kernel(std::span<Mrg32k3aState> states, std::uint64_t first_slot, std::uint64_t slots,
                                 MrgSlot kind, MrgOutput output, void* out, const EngineConfig& cfg);

class Mrg32k3aGenerator : public StatefulGenerator<Mrg32k3aGenerator, Mrg32k3aState> {
 public:
  static constexpr std::uint64_t kThreads = kMrg32k3aThreads;
  static constexpr std::string_view kWho = "trn::rand::Mrg32k3aGenerator";
  // engines = true: every call's states advance in the mrg32k3a_slots kernel (the "device"
  // generator); the transforms other than the u32 word and the float uniform run on the host side
  // of the kernel. Seed, offset, engine configuration, normals and Poisson: StatefulGenerator.
  explicit Mrg32k3aGenerator(bool engines = false, const EngineConfig& cfg = {}) : StatefulGenerator(engines, cfg) {}

  void generate(std::span<std::uint32_t> out);
  void uniform(std::span<float> out);
  void uniform_double(std::span<double> out);

 private:
  friend class StatefulGenerator<Mrg32k3aGenerator, Mrg32k3aState>;
  std::vector<Mrg32k3aState>& states();
  // The process's curand_init(seed, k, 0) states of base_seed_ (shared, never written): a generator
  // refers to them instead of copying 2.6 MB into base_ (StatefulGenerator's, unused here).
  std::shared_ptr<const std::vector<Mrg32k3aState>> base_shared_;
  std::uint64_t base_seed_ = 0;
  // The values of slots offset_ .. offset_ + slots - 1 (r; float bits for carried_normal); advances
  // the offset.
  std::vector<std::uint32_t> slot_values(std::uint64_t slots, MrgSlot kind, MrgOutput output = MrgOutput::raw,
                                         std::uint32_t* into = nullptr);
  std::vector<std::array<float, 2>> normal_pairs(std::size_t n);
  std::vector<std::array<double, 2>> normal_pairs_double(std::size_t n);
  std::vector<std::uint32_t> poisson_words(std::size_t n) { return slot_values(n, MrgSlot::steps1, MrgOutput::word); }
  std::vector<std::uint32_t> carried_normals(std::size_t n) { return slot_values(n, MrgSlot::carried_normal); }
};

}  // namespace trn::rand
