// MTGP32 (cuRAND's PSEUDO_MTGP32 = 141), host and engine paths, bit-identical to libcurand's host
// generator for integer, uniform and Poisson outputs (docs/trnrand.md section 13).
//
// Algorithm: M. Saito and M. Matsumoto, "Variants of Mersenne Twister suitable for graphic
// processors", ACM TOMS 39(2), 2013 (MTGP), period 2^11213 - 1 per parameter set: a state of
// N = 351 words, x[i+N] = para_rec(x[i], x[i+1], x[i+pos]) with
//   X = (x[i] & mask) ^ x[i+1];  X ^= X << sh1;  Y = X ^ (x[i+pos] >> sh2);  Y ^= tbl[Y & 15]
// and output temper(x[i+N], x[i+pos-1]): T = x[i+pos-1]; T ^= T >> 16; T ^= T >> 8;
// out = x[i+N] ^ tmp_tbl[T & 15]. The 200 parameter sets are Saito and Matsumoto's published
// mtgp32dc_params_fast_11213 (trnrand/src/mtgp32_params_11213.cpp, BSD-3-Clause, carried with
// its notice). Seeding (cuRAND's curandMakeMTGP32KernelState, whose host code is public in
// curand_mtgp32_host.h): s = lo32(seed ^ seed >> 32); block b is mtgp32_init_state(params[b],
// s + b + 1): hidden = tbl[4] ^ tbl[8] << 16, every word the byte sum of hidden, x[0] = s + b + 1,
// x[1] = hidden, x[i] ^= 1812433253 (x[i-1] ^ x[i-1] >> 30) + i.
//
// Layout (observed on cuRAND 10.4, tests/trnrand/data/probe_mtgp32_ordering.cpp): B blocks of
// 256 threads, B = 192 for ORDERING_PSEUDO_DEFAULT / BEST and 64 for LEGACY; output word p is word
// k = 256 (p div 256 B) + p mod 256 of block b = (p div 256) mod B. The offset counts words; cuRAND
// has no offset for MTGP32 (SetGeneratorOffset: TYPE_ERROR), a new seed or a different ordering
// restarts at word 0, the same seed or ordering again changes nothing.
//
// Conversions (observed): float uniform float(x) 2^-32 + 2^-33 (transforms.hpp uniform_from_word);
// double uniform x 2^-32 + 2^-32; normal: the float inverse-CDF normal of each word (as SOBOL32 and
// MT19937), the double normal that float widened, then mean + stddev z in double; log-normal
// double from the double inverse CDF; Poisson: cuRAND's histogram below lambda 32, Fishman's
// inversion (poisson.hpp poisson_inversion_curand, u = x 2^-32 + 2^-32) for 32 <= lambda <= 8000,
// the normal approximation (unsigned)(sqrt(lambda) z + lambda + 0.5) with the double inverse-CDF z
// above (sobol.hpp WordPoisson, shared with SOBOL32).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "trn/core/cost_model.hpp"
#include "trn/rand/kernels.hpp"
#include "trn/rand/poisson.hpp"
#include "trn/rand/word_generator.hpp"

namespace trn::rand {

inline constexpr int kMtgp32ParamSets = 200;
inline constexpr int kMtgp32StateWords = 351;    // MTGPDC_N = 11213 / 32 + 1
inline constexpr int kMtgp32RingWords = 1024;    // cuRAND's MTGP32_STATE_SIZE
inline constexpr int kMtgp32ThreadsPerBlock = 256;
inline constexpr int kMtgp32BlocksDefault = 192;  // ORDERING_PSEUDO_DEFAULT / BEST
inline constexpr int kMtgp32BlocksLegacy = 64;    // ORDERING_PSEUDO_LEGACY
// cuRAND's MTGP32 Poisson (observed): the histogram below this lambda, then sobol.hpp's WordPoisson
// (inversion to 8000, the normal approximation above).
inline constexpr double kMtgp32PoissonInversionFrom = 32.0;

// One published parameter set (the reference implementation's mtgp32_params_fast_t).
struct Mtgp32ParamsFast {
  int mexp;
  int pos;
  int sh1;
  int sh2;
  std::uint32_t tbl[16];
  std::uint32_t tmp_tbl[16];
  std::uint32_t flt_tmp_tbl[16];
  std::uint32_t mask;
  unsigned char poly_sha1[21];
};
extern const Mtgp32ParamsFast kMtgp32dcParamsFast11213[kMtgp32ParamSets];

// One block's generator state is cuRAND's 1024-word ring: raw words k .. k + 350 at (k + i) mod 1024.
// Seeds the ring of parameter set `set` (its first 351 words: raw words 0 .. 350).
void mtgp32_init_ring(std::uint32_t* ring, int set, std::uint32_t seed);
// Output word k of the block (the ring holds raw words k .. k + 350): stores raw word k + 351 and
// returns the tempered output (one para_rec and one temper).
std::uint32_t mtgp32_next(std::uint32_t* ring, std::uint64_t k, const Mtgp32ParamsFast& p);

enum class Mtgp32Ordering : std::uint8_t { best, standard, legacy };

class Mtgp32Generator : public WordGenerator<Mtgp32Generator> {
 public:
  explicit Mtgp32Generator(bool engines = false, const EngineConfig& cfg = {});
  Profile last_profile() const;
  void set_engine_config(const EngineConfig& cfg) { cfg_ = cfg; }

  // As cuRAND (observed): a new seed restarts at word 0, the current seed changes nothing.
  void set_seed(std::uint64_t seed);
  std::uint64_t seed() const { return seed_; }
  // cuRAND's orderings: best and standard (ORDERING_PSEUDO_BEST / DEFAULT) have 192 blocks, legacy
  // 64; a different ordering restarts at word 0 (BEST -> DEFAULT too: observed), the same one
  // changes nothing.
  void set_ordering(Mtgp32Ordering ordering);
  Mtgp32Ordering ordering() const { return ordering_; }
  int blocks() const { return ordering_ == Mtgp32Ordering::legacy ? kMtgp32BlocksLegacy : kMtgp32BlocksDefault; }
  // cuRAND's MTGP32 has no offset (SetGeneratorOffset: TYPE_ERROR); the C++ API repositions, by
  // running every block forward (backwards: restarting from the seed).
  void set_offset(std::uint64_t offset);
  std::uint64_t offset() const { return position_; }

  // generate, normal (any n: one word per value), log_normal, log_normal_double: WordGenerator.
  void uniform(std::span<float> out);
  void uniform_double(std::span<double> out);
  void normal_double(std::span<double> out, double mean, double stddev);
  void poisson(std::span<std::uint32_t> out, double lambda);
  // GeneratePoissonMethod(CURAND_DEVICE_API): sobol.hpp curand_device_poisson of each word.
  void poisson_device_api(std::span<std::uint32_t> out, double lambda);
  // GenerateSeeds: cuRAND re-seeds the blocks, restarting at word 0 (observed).
  void regenerate_seeds() { restart(); }

 private:
  void restart();
  // Words position_ .. position_ + n - 1 (advances the position); on the engines with `uniform`,
  // out receives the float uniforms' bits.
  void words(std::uint32_t* out, std::size_t n, bool uniform = false);
  void words_on_engines(std::uint32_t* out, std::size_t n, bool uniform);
  friend class WordGenerator<Mtgp32Generator>;  // generate, normal, log_normal(_double): words(), last_trace_

  std::uint64_t seed_ = 0;
  std::uint64_t position_ = 0;
  Mtgp32Ordering ordering_ = Mtgp32Ordering::standard;
  // Block b's ring at rings_[1024 b ..] and its words output so far; empty: initialise from the
  // seed on the next call.
  std::vector<std::uint32_t> rings_;
  std::vector<std::uint64_t> produced_;
  std::shared_ptr<const PoissonTable> table_;
  bool engines_ = false;
  EngineConfig cfg_{};
  std::optional<Trace> last_trace_;
};

}  // namespace trn::rand
