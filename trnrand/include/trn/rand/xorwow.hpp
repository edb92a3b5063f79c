// XORWOW: cuRAND's PSEUDO_XORWOW (= PSEUDO_DEFAULT) generator, host and engine paths, bit-identical to
// libcurand's host generator for integer and uniform outputs (docs/trnrand.md section 8).
//
// The algorithm is Marsaglia's xorwow (G. Marsaglia, "Xorshift RNGs", J. Stat. Softw. 8(14), 2003,
// section 3.1): a 160-bit xorshift state v[0..4] plus a Weyl counter d += 362437, output v[4] + d.
// Seeding, subsequences (2^67 words apart) and offsets follow cuRAND's curand_init (CURAND:
// curand_kernel.h): v and d from the 64-bit seed with cuRAND's salts and odd multipliers, then
// skip-ahead by powers of the xorshift's GF(2) transition matrix. trnrand computes those matrix
// powers itself by repeated squaring of the 160 x 160 transition matrix (no table is copied).
//
// Paths: host (trnrandCreateGeneratorHost) and engines (trnrandCreateGenerator): the thread states
// advance in the xorwow_slots GpSimd kernel below; bit-identical outputs (tested).
//
// Host ordering (reconstructed from cuRAND 10.4 output, bit-exact for every sequence tried): 4096
// threads; thread k runs the subsequence k stream, curand_init(seed, k, 0). Positions ("slots")
// s = 0, 1, 2, ... are dealt round-robin: slot s belongs to thread s mod 4096. The generator's
// offset counts slots. A call starting at slot P with S slots gives thread k its slots in order,
// each thread continuing from where its own state stopped; the state persists across calls:
//   Generate, GenerateUniform, GeneratePoisson (lambda < 2000): 1 slot per value, 1 word per slot;
//   GenerateUniformDouble: 1 slot per value, 2 words per slot (53-bit uniform of (x0, x1));
//   GenerateNormal / LogNormal: 1 slot per pair of values, 2 words per slot (sine, cosine);
//   GenerateNormalDouble / LogNormalDouble: 1 slot per pair, 4 words per slot;
//   GeneratePoisson (lambda >= 2000): 1 slot per value from curand_normal: a thread draws a
//     Box-Muller pair (2 words) for one slot (sine) and keeps the cosine for its next such slot,
//     also across calls, until the offset or the seed is set.
// So after calls with more than one word per slot, thread k's stream runs ahead of slot / 4096; the
// offset set by SetGeneratorOffset(P) restarts every thread at word ceil((P - k) / 4096) of its own
// stream. SetPseudoRandomGeneratorSeed keeps the offset and restarts the states.
// (Box-Muller) normals and Poisson counts need an even n for the normal types (LENGTH_NOT_MULTIPLE
// otherwise, as cuRAND's XORWOW host generator).
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

struct XorwowState {
  std::array<std::uint32_t, 5> v{};
  std::uint32_t d = 0;
  bool has_extra_normal = false;  // curand_normal's second Box-Muller value is pending
  float extra_normal = 0.0f;
};

// curand_init(seed, 0, 0) for XORWOW (CURAND: curand_kernel.h, _curand_init_inplace).
XorwowState xorwow_seed_state(std::uint64_t seed);
// One step: the next 32-bit output (curand()).
inline std::uint32_t xorwow_next(XorwowState& s) {
  const std::uint32_t t = s.v[0] ^ (s.v[0] >> 2);
  s.v[0] = s.v[1];
  s.v[1] = s.v[2];
  s.v[2] = s.v[3];
  s.v[3] = s.v[4];
  s.v[4] = (s.v[4] ^ (s.v[4] << 4)) ^ (t ^ (t << 1));
  s.d += 362437u;
  return s.v[4] + s.d;
}
// skipahead(n, state): n steps (d advances by 362437 n).
void xorwow_skip(XorwowState& s, std::uint64_t n);
// skipahead_sequence(n, state): n subsequences of 2^67 steps (d unchanged: 362437 2^67 = 0 mod 2^32).
void xorwow_skip_subsequences(XorwowState& s, std::uint64_t n);

inline constexpr std::uint64_t kXorwowThreads = 4096;  // cuRAND's host XORWOW threads

// What one slot of a call produces (the words-per-slot table above).
enum class XorwowSlot : std::uint8_t {
  words1,         // 1 word
  words2,         // 2 words
  words4,         // 4 words
  carried_normal  // 1 float (bits): curand_normal with the state's pending cosine
};
int xorwow_values_per_slot(XorwowSlot kind);  // u32 values written per slot (1, 2, 4, 1)

// The per-slot work of a call, shared by the host path and the GpSimd operator: slots
// [slot_begin, slot_end) of a call whose first slot is first_slot (absolute), from the 4096 thread
// states; writes xorwow_values_per_slot(kind) values per slot to out (relative to slot_begin).
void xorwow_run_slots(std::span<XorwowState> states, std::uint64_t first_slot, std::uint64_t slot_begin,
                      std::uint64_t slot_end, XorwowSlot kind, std::uint32_t* out);

// Engine path of one call (kernel "xorwow_slots"):
//   Layout: the 4096 states in one SBUF tile [128, 32 x 8] (thread k in partition k / 32: v0..v4, d,
//     pending flag, pending value), DMA'd in from the generator and back out at the end.
//   Per tile of [128, F] values: the GpSimd custom operator advances the states in slot order and
//     writes the values (xorshift steps: 2 shifts, 4 XORs, 2 adds per word; the carried normal's
//     Box-Muller pair in software); for uniforms VectorE converts the words (float(x) 2^-32 +
//     2^-33); DMA to `out` (u32 bits or floats, slots x values-per-slot elements).
//   Accuracy: bit-identical to the host path (same routine); limits: one program, tiles in sequence.
LaunchResult run_xorwow_kernel(std::span<XorwowState> states, std::uint64_t first_slot, std::uint64_t slots,
                               XorwowSlot kind, bool uniform, void* out, const EngineConfig& cfg);

class XorwowGenerator : public StatefulGenerator<XorwowGenerator, XorwowState> {
 public:
  static constexpr std::uint64_t kThreads = kXorwowThreads;
  static constexpr std::string_view kWho = "trn::rand::XorwowGenerator";
  // engines = true: every call's states advance in the xorwow_slots kernel (the "device"
  // generator); the transforms other than the float uniform run on the host side of the kernel.
  // Seed, offset, engine configuration, normals and Poisson: StatefulGenerator.
  explicit XorwowGenerator(bool engines = false, const EngineConfig& cfg = {}) : StatefulGenerator(engines, cfg) {}

  void generate(std::span<std::uint32_t> out);
  void uniform(std::span<float> out);
  void uniform_double(std::span<double> out);

 private:
  friend class StatefulGenerator<XorwowGenerator, XorwowState>;
  // Thread states at the current offset (recomputed after set_seed / set_offset).
  std::vector<XorwowState>& states();
  // The values of slots offset_ .. offset_ + slots - 1 (u32 bits; floats for carried_normal), on
  // the engines or the host; advances the offset. With uniform (words1 only), out receives the
  // float uniforms directly.
  std::vector<std::uint32_t> slot_values(std::uint64_t slots, XorwowSlot kind, std::uint32_t* into = nullptr);
  void uniform_into(std::span<float> out);
  // Float Box-Muller pairs (2 words per slot) and fp64 pairs (4 words per slot).
  std::vector<std::array<float, 2>> normal_pairs(std::size_t n);
  std::vector<std::array<double, 2>> normal_pairs_double(std::size_t n);
  std::vector<std::uint32_t> poisson_words(std::size_t n) { return slot_values(n, XorwowSlot::words1); }
  std::vector<std::uint32_t> carried_normals(std::size_t n) { return slot_values(n, XorwowSlot::carried_normal); }
};

}  // namespace trn::rand
