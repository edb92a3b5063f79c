// MT19937 (cuRAND's PSEUDO_MT19937 = 142), host and engine paths, bit-identical to libcurand's host
// generator for integer and uniform outputs (docs/trnrand.md section 12).
//
// Algorithm: M. Matsumoto and T. Nishimura, "Mersenne Twister: a 623-dimensionally equidistributed
// uniform pseudo-random number generator", ACM TOMACS 8(1), 3-30, 1998: 624 32-bit words,
// x[k+624] = x[k+397] ^ ((x[k] & 0x80000000 | x[k+1] & 0x7fffffff) >> 1) ^ (x[k+1] odd ? 0x9908b0df : 0),
// output temper(x[k+624]); seeded by init_genrand(lo32(seed)) (the 2002 initialisation,
// x[i] = 1812433253 (x[i-1] ^ x[i-1] >> 30) + i; cuRAND uses the low 32 bits of its 64-bit seed,
// observed).
//
// Streams (observed on cuRAND 10.4, tests/trnrand/data/probe_mt19937_ordering.cpp): 8192 streams,
// stream t being the MT19937 sequence of that seed advanced by t * 2^2048 steps. Output word p is
// word k of stream t = (p >> 3) mod 8192 with row r = p >> 16 and column c = p mod 8: k = 624 (r div 78)
// + q(r mod 78, c), where q places a stream's 624-word block in 78 rows of 8 (kMt19937BlockPosition).
//
// Jump ahead (H. Haramoto, M. Matsumoto, T. Nishimura, F. Panneton, P. L'Ecuyer, "Efficient jump
// ahead for F2-linear random number generators", INFORMS J. Computing 20(3), 385-390, 2008): the
// characteristic polynomial phi of the transition (degree 19937) by Berlekamp-Massey from 2 x 19937
// output bits, g = x^(2^2048) mod phi by 2048 squarings (stored as a constant; the test recomputes
// it), and each stream's state advanced by g(T): x[J + k] = sum_i g_i x[i + k] (since session 24 stream
// 8h + j from stream 8h by x^(jJ) mod phi, eight stored polynomials, mt19937_set_up_streams),
// as 32 bit-plane GF(2) middle products with VPCLMULQDQ (mt19937_jump_clmul, ~20 us per stream) or
// the paper's sliding-window Horner scheme (q = 8: 2492 XORs of 624-word table entries, ~150 us) on
// hosts without it; streams are set up lazily, so a call of n < 65536 words needs only n / 8 of them.
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

inline constexpr int kMt19937Words = 624;
inline constexpr int kMt19937Degree = 19937;
inline constexpr std::uint32_t kMt19937Streams = 8192;
inline constexpr int kMt19937StreamLog2Distance = 2048;  // streams are 2^2048 steps apart
inline constexpr int kMt19937RowsPerBlock = 78;          // 624 = 78 rows x 8 columns

// Polynomials over GF(2): bit i of word i / 64 is the coefficient of x^i.
using Gf2Poly = std::vector<std::uint64_t>;

// The characteristic polynomial of MT19937's transition (degree 19937; computed once).
const Gf2Poly& mt19937_characteristic_polynomial();
// x^e mod phi for e = 2^log2_e (repeated squaring) or any 64-bit e (square and multiply).
Gf2Poly mt19937_x_pow2_mod(int log2_e);
Gf2Poly mt19937_x_pow_mod(std::uint64_t e);
// The streams' jump polynomial x^(2^kMt19937StreamLog2Distance) mod phi: a constant of MT19937
// stored in the library (mt19937_x_pow2_mod(2048) takes 2048 squarings modulo phi, ~0.7 s of host
// time on the first call of a process; the test compares the two).
const Gf2Poly& mt19937_stream_jump_polynomial();
// a b mod phi for a, b of degree < 19937 (schoolbook; for the stored tables' tests and their generator).
Gf2Poly mt19937_mul_mod(const Gf2Poly& a, const Gf2Poly& b);
// The streams' set-up jumps from every kMt19937JumpBatch-th stream to the next kMt19937JumpBatch
// (one twist extension and generator side shared by their middle products, mt19937_jump_many):
// x^(j 2^2048) mod phi for j = 1 .. kMt19937JumpBatch, element j - 1. Constants stored in the library
// (trnrand/src/mt19937_jump_powers.cpp, printed by tools/trnrand/print_mt19937_jump_powers.cpp:
// element j - 1 is mt19937_mul_mod(element j - 2, mt19937_stream_jump_polynomial()); the test compares).
inline constexpr std::size_t kMt19937JumpBatch = 8;
const std::array<Gf2Poly, kMt19937JumpBatch>& mt19937_stream_jump_powers();

// Raw state window x[k .. k+623] (the standard generator's mt[] right after initialisation has k = 0).
using Mt19937Window = std::array<std::uint32_t, kMt19937Words>;
Mt19937Window mt19937_init_genrand(std::uint32_t seed);
// x[k+J .. k+J+623] from x[k .. k+623], for g = x^J mod phi (Haramoto et al.): mt19937_jump_clmul
// where the host can, else mt19937_jump_horner (identical words).
Mt19937Window mt19937_jump(const Mt19937Window& w, const Gf2Poly& g);
// The paper's sliding-window Horner scheme (q = 8), on every host.
Mt19937Window mt19937_jump_horner(const Mt19937Window& w, const Gf2Poly& g);
// The same jump as 32 bit-plane middle products x[J + k] = sum_i g_i x[i + k] (VPCLMULQDQ, GFNI;
// trnrand/src/mt19937_jump.cpp). False (out untouched) on hosts without AVX-512 VBMI / VBMI2, VPCLMULQDQ
// and GFNI, or when deg g >= 19937.
bool mt19937_jump_clmul(const Mt19937Window& w, const Gf2Poly& g, Mt19937Window& out);
// out[i] = mt19937_jump(w, polys[i]) for every i (out may alias w): the twist extension of w and the
// generator side of the middle product are formed once for all the polynomials (the *_clmul_many
// form: false, out untouched, where mt19937_jump_clmul would be false).
void mt19937_jump_many(const Mt19937Window& w, std::span<const Gf2Poly> polys, Mt19937Window* out);
bool mt19937_jump_clmul_many(const Mt19937Window& w, std::span<const Gf2Poly> polys, Mt19937Window* out);
// Whether this host runs mt19937_jump_clmul (AVX-512 F/BW/VBMI/VBMI2, VPCLMULQDQ, GFNI; TRN_HOST_SIMD).
bool mt19937_jump_clmul_available();
// The initial windows of streams from .. to - 1 (1 <= from < to <= 8192) from those of streams
// 0 .. from - 1 (windows[0]: init_genrand's): stream 8h + j (j = 1 .. 8) is stream 8h advanced by
// x^(j 2^2048) mod phi (mt19937_jump_many, one twist extension for eight jumps), the same windows
// as a chain of single stream jumps from stream 0.
void mt19937_set_up_streams(Mt19937Window* windows, std::size_t from, std::size_t to);
// w with the bits 0 .. 30 of word 0, which the recurrence never reads, replaced by the values it
// would have written (w = T u for a window u): then g(T) w = T^J w for every g = x^J mod phi, whatever
// g_0 (mt19937_jump adds g_0 times the difference to word 0). Windows written by a jump or a twist
// already are such windows; init_genrand's are not.
Mt19937Window mt19937_recurrent_word0(const Mt19937Window& w);
// Advances a window by 624 steps in place (x[k..] -> x[k+624..]): the standard "generate" twist.
void mt19937_twist(Mt19937Window& w);
constexpr std::uint32_t mt19937_temper(std::uint32_t y) {
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  return y ^ (y >> 18);
}
// Position q (0 .. 623) inside a stream's block of the word in row r (0 .. 77), column c (0 .. 7).
int mt19937_block_position(int row, int column);

// cuRAND's MT19937 conversions (observed on cuRAND 10.4): float uniform (float)(x 2^-32 + 2^-33)
// rounded once from double; double uniform x 2^-32 + 2^-33; normals by the inverse CDF of each
// word (as SOBOL32, trn/rand/sobol.hpp); Poisson from lambda 2000 (unsigned)(sqrtf(l) z + l + 0.5f)
// in fp32 with that normal z.
constexpr double mt19937_uniform_double(std::uint32_t x) { return x * 0x1p-32 + 0x1p-33; }
constexpr float mt19937_uniform(std::uint32_t x) { return static_cast<float>(mt19937_uniform_double(x)); }

// The generator; the offset counts words. Host path (trnrandCreateGeneratorHost(MT19937)) or, with
// engines = true, the kernel "mt19937_rows" (trnrandCreateGenerator(MT19937)):
//   Layout: the 8192 stream windows in one SBUF tile [128, 64 x 624] u32 (streams 64 j .. 64 j + 63
//     in partition j: 156 KiB of trn1's 192 KiB per partition) and their block numbers [128, 64],
//     DMA'd in at the start of a call and back at the end. An output row of 65536 words is 512
//     consecutive words per partition, all from that partition's own streams, so the partitions
//     never exchange data.
//   Per tile of up to 4 rows ([128, 4 x 512]): the GpSimd custom operator twists each stream whose
//     block the rows enter (624 words: three loads, two masks, a shift, a select and two XORs each,
//     declared 9 operations per word) and tempers the rows' words (4 shifts, 2 ANDs, 4 XORs and
//     the indexed load and store: 12 per word), the float uniform's fp64 product and rounding in
//     software (16 more per word); DMA of the call's part of each row to `out`.
//   The per-stream jump ahead (2^2048 steps, Haramoto et al.) stays on the host, lazily, as on the
//   host path; the double, normal, log-normal and Poisson conversions of the kernel's words run on
//   the host side of the kernel. Bit-identical to the host path (the same windows, twist and
//   block layout; tested).
class Mt19937Generator : public WordGenerator<Mt19937Generator> {
 public:
  explicit Mt19937Generator(bool engines = false, const EngineConfig& cfg = {});
  // Modeled cost of the last call's kernel (engine path; empty otherwise).
  Profile last_profile() const;
  void set_engine_config(const EngineConfig& cfg) { cfg_ = cfg; }
  ~Mt19937Generator();
  Mt19937Generator(Mt19937Generator&&) noexcept;
  Mt19937Generator& operator=(Mt19937Generator&&) noexcept;
  // As cuRAND's MT19937 (observed): a new seed restarts at word 0, the current seed changes nothing.
  void set_seed(std::uint64_t seed);
  std::uint64_t seed() const { return seed_; }
  // cuRAND's MT19937 has no offset (SetGeneratorOffset: TYPE_ERROR); the C++ API repositions,
  // at the cost of twisting every stream forward (backwards: restarting from the seed).
  void set_offset(std::uint64_t offset);
  std::uint64_t offset() const { return position_; }

  // generate, normal (any n: one word per value), log_normal, log_normal_double: WordGenerator.
  void uniform(std::span<float> out);
  void uniform_double(std::span<double> out);
  void normal_double(std::span<double> out, double mean, double stddev);
  void poisson(std::span<std::uint32_t> out, double lambda);

 private:
  struct Streams;
  // Words position_ .. position_ + n - 1 (advances the position); on the engines with
  // `uniform`, out receives the float uniforms' bits.
  void words(std::uint32_t* out, std::size_t n, bool uniform = false);
  void words_on_engines(std::uint32_t* out, std::size_t n, bool uniform);
  friend class WordGenerator<Mt19937Generator>;  // generate, normal, log_normal(_double): words(), last_trace_

  std::uint64_t seed_ = 0;
  std::uint64_t position_ = 0;
  std::unique_ptr<Streams> streams_;
  std::shared_ptr<const PoissonTable> table_;
  bool engines_ = false;
  EngineConfig cfg_{};
  std::optional<Trace> last_trace_;
};

}  // namespace trn::rand
