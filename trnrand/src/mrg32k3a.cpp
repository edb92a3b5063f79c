// MRG32K3A generator (trn/rand/mrg32k3a.hpp): cuRAND's seeding, matrix-power skip-ahead, its
// 81920-thread host ordering, and the distributions through cuRAND's MRG32k3a conversions.
#include "trn/rand/mrg32k3a.hpp"

#include "avx512_intrinsics.hpp"

#include <algorithm>
#include <cstddef>
#include <bit>
#include <memory>
#include <mutex>
#include <string>

#include "trn/core/error.hpp"
#include "trn/core/host_simd.hpp"
#include "stateful_generator.hpp"
#include "trn/rand/slot_kernel.hpp"
#include "trn/rand/transforms.hpp"

namespace trn::rand {

namespace {

// 3 x 3 matrices mod m (entries < m < 2^32; every product < 2^64).
using Mat3 = std::array<std::array<std::uint64_t, 3>, 3>;

Mat3 mat_mul(const Mat3& a, const Mat3& b, std::uint64_t m) {
  Mat3 c{};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      std::uint64_t sum = 0;
      for (std::size_t k = 0; k < 3; ++k) sum = (sum + a[i][k] * b[k][j] % m) % m;
      c[i][j] = sum;
    }
  return c;
}

// The modulus a template argument: the compiler's multiply-and-shift remainder by a constant instead
// of a 64-bit division (two per term; the 2 x 81920 thread states of a generator's first call apply
// these matrices 2 x 163840 times). The same exact integer results.
template <std::uint64_t M>
void mat_apply(const Mat3& a, std::array<std::uint32_t, 3>& v) {
  std::array<std::uint32_t, 3> r{};
  for (std::size_t i = 0; i < 3; ++i) {
    std::uint64_t sum = 0;
    for (std::size_t k = 0; k < 3; ++k) sum = (sum + a[i][k] * v[k] % M) % M;
    r[i] = static_cast<std::uint32_t>(sum);
  }
  v = r;
}

Mat3 identity() {
  Mat3 e{};
  for (std::size_t i = 0; i < 3; ++i) e[i][i] = 1;
  return e;
}

// One step of each recurrence as a matrix on (x[n-3], x[n-2], x[n-1]) (L'Ecuyer et al. 2002,
// section 3): the last row holds the recurrence's coefficients mod m.
Mat3 transition1() {
  Mat3 a{};
  a[0][1] = a[1][2] = 1;
  a[2][0] = kMrgM1 - 810728u;
  a[2][1] = 1403580u;
  return a;
}
Mat3 transition2() {
  Mat3 a{};
  a[0][1] = a[1][2] = 1;
  a[2][0] = kMrgM2 - 1370589u;
  a[2][2] = 527612u;
  return a;
}

// a^n mod m by square-and-multiply (base a^(2^shift): `shift` squarings first).
Mat3 mat_pow(Mat3 a, std::uint64_t m, std::uint64_t n, int shift = 0) {
  for (int i = 0; i < shift; ++i) a = mat_mul(a, a, m);
  Mat3 r = identity();
  for (; n != 0; n >>= 1) {
    if (n & 1u) r = mat_mul(a, r, m);
    a = mat_mul(a, a, m);
  }
  return r;
}

constexpr int kSubsequenceLog2 = 76;  // cuRAND's MRG32k3a subsequences: 2^76 steps apart

void apply_powers(Mrg32k3aState& s, const Mat3& a1, const Mat3& a2) {
  mat_apply<kMrgM1>(a1, s.s1);
  mat_apply<kMrgM2>(a2, s.s2);
}

}  // namespace

Mrg32k3aState mrg32k3a_seed_state(std::uint64_t seed) {
  Mrg32k3aState s;
  s.s1 = s.s2 = {12345u, 12345u, 12345u};
  if (seed != 0) {
    // cuRAND's salts (CURAND: curand_kernel.h, curand_init for MRG32k3a); the products are exact
    // in 64-bit integers, as cuRAND's curand_MRGmodMul in double-double.
    const std::uint64_t x1 = static_cast<std::uint32_t>(seed) ^ 0x55555555u;
    const std::uint64_t x2 = static_cast<std::uint32_t>(seed >> 32) ^ 0xaaaaaaaau;
    s.s1 = {static_cast<std::uint32_t>(x1 * 12345u % kMrgM1), static_cast<std::uint32_t>(x2 * 12345u % kMrgM1),
            static_cast<std::uint32_t>(x1 * 12345u % kMrgM1)};
    s.s2 = {static_cast<std::uint32_t>(x2 * 12345u % kMrgM2), static_cast<std::uint32_t>(x1 * 12345u % kMrgM2),
            static_cast<std::uint32_t>(x2 * 12345u % kMrgM2)};
  }
  return s;
}

void mrg32k3a_skip(Mrg32k3aState& s, std::uint64_t n) {
  apply_powers(s, mat_pow(transition1(), kMrgM1, n), mat_pow(transition2(), kMrgM2, n));
}

void mrg32k3a_skip_subsequences(Mrg32k3aState& s, std::uint64_t n) {
  apply_powers(s, mat_pow(transition1(), kMrgM1, n, kSubsequenceLog2),
               mat_pow(transition2(), kMrgM2, n, kSubsequenceLog2));
}

namespace {
// curand_init(seed, k, 0) for the 81920 threads: thread k = subsequence k, each state the previous
// one moved by A^(2^76) (a sequential chain of 2 x 81920 3 x 3 matrix applications, ~5 ms). Kept for
// the process per seed (the two most recently used, 2.6 MB each), so a later generator of the
// seed copies them: host set-up outside the trace, the same states.
std::shared_ptr<const std::vector<Mrg32k3aState>> thread_base_states(std::uint64_t seed) {
  static std::mutex mutex;
  static std::array<std::pair<std::uint64_t, std::shared_ptr<const std::vector<Mrg32k3aState>>>, 2> recent;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    for (auto& [s, base] : recent)
      if (base && s == seed) return base;
  }
  const Mat3 sub1 = mat_pow(transition1(), kMrgM1, 1, kSubsequenceLog2);
  const Mat3 sub2 = mat_pow(transition2(), kMrgM2, 1, kSubsequenceLog2);
  auto base = std::make_shared<std::vector<Mrg32k3aState>>(kMrg32k3aThreads);
  (*base)[0] = mrg32k3a_seed_state(seed);
  for (std::size_t k = 1; k < base->size(); ++k) {
    (*base)[k] = (*base)[k - 1];
    apply_powers((*base)[k], sub1, sub2);
  }
  const std::lock_guard<std::mutex> lock(mutex);
  recent[1] = std::move(recent[0]);
  recent[0] = {seed, base};
  return base;
}
}  // namespace

std::vector<Mrg32k3aState>& Mrg32k3aGenerator::states() {
  if (!base_shared_ || base_seed_ != seed_) {
    base_shared_ = thread_base_states(seed_);
    base_seed_ = seed_;
  }
  const std::vector<Mrg32k3aState>& base = *base_shared_;
  if (states_.empty()) {
    // Thread k's first slot at or after offset_ is its step ceil((offset_ - k) / 81920): J =
    // offset_ / 81920 for k >= offset_ mod 81920, J + 1 below.
    const std::uint64_t J = offset_ / kThreads, r = offset_ % kThreads;
    const Mat3 skip1 = mat_pow(transition1(), kMrgM1, J), skip2 = mat_pow(transition2(), kMrgM2, J);
    states_ = base;
    for (std::size_t k = 0; k < kThreads; ++k) {
      if (J != 0) apply_powers(states_[k], skip1, skip2);  // J = 0: the identity (entries < m), skipped
      if (k < r) mrg32k3a_next(states_[k]);
    }
  }
  return states_;
}

namespace {

#define TRN_MRG_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl")))

// x mod m for x < 2^54 and m = 2^32 - c (c = 209 or 22853), in 64-bit lanes: two folds of the high
// part (2^32 = c mod m) leave t < 2m, then one conditional subtraction: exactly x % m.
TRN_MRG_AVX512 inline __m512i mod_fold(__m512i x, std::uint64_t c, std::uint64_t m) {
  const __m512i low = _mm512_set1_epi64(0xffffffffll), cv = _mm512_set1_epi64(static_cast<long long>(c));
  __m512i t = _mm512_add_epi64(_mm512_mul_epu32(_mm512_srli_epi64(x, 32), cv), _mm512_and_si512(x, low));
  t = _mm512_add_epi64(_mm512_mul_epu32(_mm512_srli_epi64(t, 32), cv), _mm512_and_si512(t, low));
  const __m512i mv = _mm512_set1_epi64(static_cast<long long>(m));
  return _mm512_mask_sub_epi64(t, _mm512_cmpge_epu64_mask(t, mv), t, mv);
}

struct MrgLanePermutes {
  alignas(64) std::uint32_t in_a[16], in_b[16], in_01[16], in_23[16];  // 8 states -> words 0 .. 5
  alignas(64) std::uint32_t out_lo[16], out_hi[16], out_states01[16], out_states23[16];
  MrgLanePermutes() {
    for (std::uint32_t j = 0; j < 4; ++j)
      for (std::uint32_t i = 0; i < 4; ++i) {
        in_a[4 * j + i] = 8 * i + j;  // T_a lane 4j + i: word j of state i (two states per zmm)
        in_b[4 * j + i] = 8 * i + j + 4;
      }
    for (std::uint32_t j = 0; j < 2; ++j)
      for (std::uint32_t k = 0; k < 8; ++k) {  // W lane 8j + k: word j (j + 2) of state k
        in_01[8 * j + k] = k < 4 ? 4 * j + k : 16 + 4 * j + k - 4;
        in_23[8 * j + k] = k < 4 ? 4 * (j + 2) + k : 16 + 4 * (j + 2) + k - 4;
      }
    for (std::uint32_t j = 0; j < 4; ++j)
      for (std::uint32_t i = 0; i < 4; ++i) {  // back: T lane 4j + i from W (words 0, 1 | 2, 3)
        out_lo[4 * j + i] = j < 2 ? 8 * j + i : 16 + 8 * (j - 2) + i;
        out_hi[4 * j + i] = j < 2 ? 8 * j + 4 + i : 16 + 8 * (j - 2) + 4 + i;
      }
    for (std::uint32_t i = 0; i < 2; ++i)
      for (std::uint32_t j = 0; j < 8; ++j) {  // state lanes 8i + j from T_a (words < 4) and T_b
        out_states01[8 * i + j] = j < 4 ? 4 * j + i : 16 + 4 * (j - 4) + i;
        out_states23[8 * i + j] = j < 4 ? 4 * j + i + 2 : 16 + 4 * (j - 4) + i + 2;
      }
  }
};

// One step of each of n consecutive states (n a multiple of 8), 8 at a time: the states' words
// 0 .. 5 transposed into lanes, mrg32k3a_next's products and remainders in 64-bit lanes (the same
// integers), the output conversion in double as the scalar code (one product, one rounding), and the
// shifted windows written back (words 6, 7 untouched).
TRN_MRG_AVX512 void mrg_steps1_avx512(Mrg32k3aState* states, std::size_t n, MrgOutput output, std::uint32_t* out) {
  static_assert(sizeof(Mrg32k3aState) == 32 && offsetof(Mrg32k3aState, s2) == 12);
  static const MrgLanePermutes perm;
  const __m512i in_a = _mm512_load_si512(perm.in_a), in_b = _mm512_load_si512(perm.in_b);
  const __m512i in_01 = _mm512_load_si512(perm.in_01), in_23 = _mm512_load_si512(perm.in_23);
  const __m512i out_lo = _mm512_load_si512(perm.out_lo), out_hi = _mm512_load_si512(perm.out_hi);
  const __m512i out_s01 = _mm512_load_si512(perm.out_states01), out_s23 = _mm512_load_si512(perm.out_states23);
  const __m512i m1 = _mm512_set1_epi64(kMrgM1), m2 = _mm512_set1_epi64(kMrgM2);
  const __m512i a12 = _mm512_set1_epi64(1403580), a13 = _mm512_set1_epi64(810728);
  const __m512i a21 = _mm512_set1_epi64(527612), a23 = _mm512_set1_epi64(1370589);
  const __mmask16 words05 = 0x3f3f;
  for (std::size_t k = 0; k < n; k += 8) {
    auto* p = reinterpret_cast<std::uint32_t*>(states + k);
    const __m512i z0 = _mm512_loadu_si512(p), z1 = _mm512_loadu_si512(p + 16), z2 = _mm512_loadu_si512(p + 32),
                  z3 = _mm512_loadu_si512(p + 48);
    const __m512i t01a = _mm512_permutex2var_epi32(z0, in_a, z1), t01b = _mm512_permutex2var_epi32(z0, in_b, z1);
    const __m512i t23a = _mm512_permutex2var_epi32(z2, in_a, z3), t23b = _mm512_permutex2var_epi32(z2, in_b, z3);
    const __m512i w01 = _mm512_permutex2var_epi32(t01a, in_01, t23a);  // s1[0] | s1[1] of the 8 states
    const __m512i w23 = _mm512_permutex2var_epi32(t01a, in_23, t23a);  // s1[2] | s2[0]
    const __m512i w45 = _mm512_permutex2var_epi32(t01b, in_01, t23b);  // s2[1] | s2[2]
    const __m512i s10 = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(w01));
    const __m512i s11 = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(w01, 1));
    const __m512i s20 = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(w23, 1));
    const __m512i s22 = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(w45, 1));
    const __m512i p1 = mod_fold(_mm512_add_epi64(_mm512_mul_epu32(a12, s11), _mm512_mul_epu32(a13, _mm512_sub_epi64(m1, s10))),
                                209, kMrgM1);
    const __m512i p2 = mod_fold(_mm512_add_epi64(_mm512_mul_epu32(a21, s22), _mm512_mul_epu32(a23, _mm512_sub_epi64(m2, s20))),
                                22853, kMrgM2);
    const __m512i r = _mm512_mask_add_epi64(_mm512_sub_epi64(p1, p2), _mm512_cmple_epu64_mask(p1, p2),
                                            _mm512_sub_epi64(p1, p2), m1);  // p1 - p2 (+ m1)
    const __m512d rd = _mm512_cvtepu64_pd(r);
    __m256i v;
    if (output == MrgOutput::word)
      // r = m1 gives 2^32 + 0.0017: the scalar cast converts to 64 bits and keeps the low word (0);
      // so does this (cvttpd_epu32 would saturate).
      v = _mm512_cvtepi64_epi32(_mm512_cvttpd_epi64(_mm512_mul_pd(rd, _mm512_set1_pd(kMrgBitsNorm))));
    else if (output == MrgOutput::uniform)
      v = _mm256_castps_si256(_mm512_cvtpd_ps(_mm512_mul_pd(rd, _mm512_set1_pd(kMrgNorm))));
    else
      v = _mm512_cvtepi64_epi32(r);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + k), v);
    // The windows move on: (s1[1], s1[2], p1), (s2[1], s2[2], p2).
    const __m512i n01 = _mm512_shuffle_i64x2(w01, w23, 0x4e);  // s1[1] | s1[2]
    const __m512i n23 = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(p1)), _mm512_castsi512_si256(w45), 1);
    const __m512i n45 = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_extracti64x4_epi64(w45, 1)), _mm512_cvtepi64_epi32(p2), 1);
    const __m512i b01a = _mm512_permutex2var_epi32(n01, out_lo, n23), b23a = _mm512_permutex2var_epi32(n01, out_hi, n23);
    const __m512i b01b = _mm512_permutex2var_epi32(n45, out_lo, n45), b23b = _mm512_permutex2var_epi32(n45, out_hi, n45);
    _mm512_mask_storeu_epi32(p, words05, _mm512_permutex2var_epi32(b01a, out_s01, b01b));
    _mm512_mask_storeu_epi32(p + 16, words05, _mm512_permutex2var_epi32(b01a, out_s23, b01b));
    _mm512_mask_storeu_epi32(p + 32, words05, _mm512_permutex2var_epi32(b23a, out_s01, b23b));
    _mm512_mask_storeu_epi32(p + 48, words05, _mm512_permutex2var_epi32(b23a, out_s23, b23b));
  }
}

bool mrg_avx512_available() {
  static const bool ok = host_simd_available(HostSimd::avx512);
  return ok;
}

}  // namespace

void mrg32k3a_run_slots(std::span<Mrg32k3aState> states, std::uint64_t first_slot, std::uint64_t slot_begin,
                        std::uint64_t slot_end, MrgSlot kind, MrgOutput output, std::uint32_t* out) {
  const std::size_t per_slot = kind == MrgSlot::steps2 ? 2 : 1;
  if (kind == MrgSlot::steps1 && mrg_avx512_available()) {
    // Consecutive slots are consecutive threads (independent states): the runs up to the end or the
    // wrap past the last thread take 8 threads at a time in AVX-512 lanes, their last < 8 one by one
    // (the same values and states, each thread's steps in slot order).
    while (slot_begin < slot_end) {
      const auto t = static_cast<std::size_t>((first_slot + slot_begin) % states.size());
      const std::size_t avail = std::min<std::uint64_t>(slot_end - slot_begin, states.size() - t);
      const std::size_t run = avail / 8 * 8;
      if (run != 0) mrg_steps1_avx512(states.data() + t, run, output, out);
      out += run;
      for (std::size_t i = run; i < avail; ++i) {
        const std::uint32_t r = mrg32k3a_next(states[t + i]);
        *out++ = output == MrgOutput::word      ? mrg32k3a_word(r)
                 : output == MrgOutput::uniform ? std::bit_cast<std::uint32_t>(mrg32k3a_uniform(r))
                                                : r;
      }
      slot_begin += avail;
    }
    return;
  }
  for (std::uint64_t m = slot_begin; m < slot_end; ++m) {
    Mrg32k3aState& s = states[static_cast<std::size_t>((first_slot + m) % kMrg32k3aThreads)];
    if (kind == MrgSlot::carried_normal) {
      const float z = carried_normal(s, [&] {  // curand_box_muller_mrg of two float uniforms
        const float u = mrg32k3a_uniform(mrg32k3a_next(s));
        const float w = mrg32k3a_uniform(mrg32k3a_next(s));
        return box_muller_curand_host_from_uniform_f32(u, w * BoxMullerConstants::kTwoPi);  // glibc's, as libcurand
      });
      *out++ = std::bit_cast<std::uint32_t>(z);
      continue;
    }
    for (std::size_t k = 0; k < per_slot; ++k) {
      const std::uint32_t r = mrg32k3a_next(s);
      *out++ = output == MrgOutput::word      ? mrg32k3a_word(r)
               : output == MrgOutput::uniform ? std::bit_cast<std::uint32_t>(mrg32k3a_uniform(r))
                                              : r;
    }
  }
}

namespace {
constexpr double kMrgGpsimdOpsPerStep = 40.0;
constexpr double kMrgGpsimdOpsWord = 4.0;
constexpr double kMrgGpsimdOpsUniform = 16.0;
static_assert(sizeof(Mrg32k3aState) == 32, "8 words per MRG32k3a thread state in SBUF");
}  // namespace

LaunchResult run_mrg32k3a_kernel(std::span<Mrg32k3aState> states, std::uint64_t first_slot, std::uint64_t slots,
                                 MrgSlot kind, MrgOutput output, void* out, const EngineConfig& cfg) {
  const std::int64_t w = kind == MrgSlot::steps2 ? 2 : 1;
  // carried_normal: on average one step and half a Box-Muller pair per value, the pair's log, sqrt,
  // sin and cos in fp32 software on GpSimdE (a rough 120 operations per pair).
  const double ops = kMrgGpsimdOpsPerStep + (kind == MrgSlot::carried_normal ? 60.0
                                             : output == MrgOutput::word     ? kMrgGpsimdOpsWord
                                             : output == MrgOutput::uniform  ? kMrgGpsimdOpsUniform
                                                                             : 0.0);
  const SlotKernelSpec spec{"mrg32k3a_slots", w, ops, false, true};  // states advanced in their SBUF rows
  return run_slots_kernel(
      "run_mrg32k3a_kernel", spec, states, kMrg32k3aThreads, first_slot, slots,
      output == MrgOutput::uniform ? DType::f32 : DType::u32, out,
      [&](std::span<Mrg32k3aState> s, std::uint64_t first, std::uint64_t b, std::uint64_t e, std::uint32_t* o) {
        mrg32k3a_run_slots(s, first, b, e, kind, output, o);
      },
      cfg);
}

std::vector<std::uint32_t> Mrg32k3aGenerator::slot_values(std::uint64_t slots, MrgSlot kind, MrgOutput output,
                                                          std::uint32_t* into) {
  return run_slots(
      slots, kind == MrgSlot::steps2 ? 2 : 1,
      [&](std::vector<Mrg32k3aState>& st, std::uint32_t* v) {
        return run_mrg32k3a_kernel(st, offset_, slots, kind, output, v, cfg_);
      },
      [&](std::vector<Mrg32k3aState>& st, std::uint32_t* v) { mrg32k3a_run_slots(st, offset_, 0, slots, kind, output, v); },
      into);
}

void Mrg32k3aGenerator::generate(std::span<std::uint32_t> out) {
  slot_values(out.size(), MrgSlot::steps1, MrgOutput::word, out.data());
}

void Mrg32k3aGenerator::uniform(std::span<float> out) {
  if (engines_) {  // the kernel's DMAs write the float bits straight into out
    slot_values(out.size(), MrgSlot::steps1, MrgOutput::uniform, reinterpret_cast<std::uint32_t*>(out.data()));
    return;
  }
  const auto v = slot_values(out.size(), MrgSlot::steps1, MrgOutput::uniform);
  for (std::size_t m = 0; m < out.size(); ++m) out[m] = std::bit_cast<float>(v[m]);
}

void Mrg32k3aGenerator::uniform_double(std::span<double> out) {
  const auto v = slot_values(out.size(), MrgSlot::steps1);
  for (std::size_t m = 0; m < out.size(); ++m) out[m] = mrg32k3a_uniform_double(v[m]);
  record(kHostUniformDouble, out);
}

std::vector<std::array<float, 2>> Mrg32k3aGenerator::normal_pairs(std::size_t n) {
  require_even_pairs(kWho, n);
  // curand_box_muller_mrg: u and w float uniforms, angle w * fp32(2 pi) in fp32.
  const auto v = slot_values(n / 2, MrgSlot::steps2);
  std::vector<std::array<float, 2>> z(n / 2);
  for (std::size_t m = 0; m < z.size(); ++m)
    z[m] = box_muller_from_uniform_f32(mrg32k3a_uniform(v[2 * m]),
                                       mrg32k3a_uniform(v[2 * m + 1]) * BoxMullerConstants::kTwoPi);
  return z;
}

std::vector<std::array<double, 2>> Mrg32k3aGenerator::normal_pairs_double(std::size_t n) {
  require_even_pairs(kWho, n);
  // curand_box_muller_mrg_double: u and w double uniforms, angle (w * 2) pi.
  const auto v = slot_values(n / 2, MrgSlot::steps2);
  std::vector<std::array<double, 2>> z(n / 2);
  for (std::size_t m = 0; m < z.size(); ++m)
    z[m] = box_muller_from_uniform_f64(mrg32k3a_uniform_double(v[2 * m]), mrg32k3a_uniform_double(v[2 * m + 1]) * 2.0);
  return z;
}

template class StatefulGenerator<Mrg32k3aGenerator, Mrg32k3aState>;

}  // namespace trn::rand
