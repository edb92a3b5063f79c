// XORWOW host generator (trn/rand/xorwow.hpp): cuRAND's seeding and skip-ahead, its 4096-thread
// host ordering, and the distributions through the same transforms as the Philox generator.
#include "trn/rand/xorwow.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "trn/core/error.hpp"
#include "trn/core/host_simd.hpp"
#include "stateful_generator.hpp"
#include "trn/rand/slot_kernel.hpp"
#include "trn/rand/transforms.hpp"

namespace trn::rand {

namespace {

using Word5 = std::array<std::uint32_t, 5>;

// A linear map of the 160-bit xorshift state over GF(2): col[j] is the image of basis bit j
// (bit j % 32 of word j / 32).
struct Gf2Map {
  std::array<Word5, 160> col{};
};

// Branch-free: every column ANDed with its bit's mask (a data-dependent branch per bit mispredicted
// about half the time, and the 80 compositions of powers() plus the 4096 thread skips are on the
// first call's path). XOR is associative and commutative: the same result.
Word5 gf2_apply(const Gf2Map& m, const Word5& v) {
  Word5 r{};
  for (int j = 0; j < 160; ++j) {
    const std::uint32_t mask = 0u - ((v[static_cast<std::size_t>(j / 32)] >> (j % 32)) & 1u);
    for (std::size_t k = 0; k < 5; ++k) r[k] ^= m.col[static_cast<std::size_t>(j)][k] & mask;
  }
  return r;
}

Gf2Map compose(const Gf2Map& a, const Gf2Map& b);  // a after b (below: by a's byte table)

Word5 xorshift_step(const Word5& v) {
  XorwowState s{v, 0};
  xorwow_next(s);
  return s.v;
}

// T^(2^b) for b = 0 .. 79 (T = one xorwow step); subsequence skips use b >= 67 (2^67 steps each,
// cuRAND's subsequence length).
struct Powers {
  std::array<Gf2Map, 80> pow2;
  Powers() {
    Gf2Map t;
    for (std::size_t j = 0; j < 160; ++j) {
      Word5 e{};
      e[j / 32] = 1u << (j % 32);
      t.col[j] = xorshift_step(e);
    }
    pow2[0] = t;
    for (std::size_t b = 1; b < pow2.size(); ++b) pow2[b] = compose(pow2[b - 1], pow2[b - 1]);
  }
};

const Powers& powers() {
  static const Powers p;  // about 10 ms once per process
  return p;
}

// T^n as one map (for skipping 4096 thread states by the same count).
Gf2Map power_map(std::uint64_t n) {
  Gf2Map r;
  for (std::size_t j = 0; j < 160; ++j) r.col[j][j / 32] = 1u << (j % 32);
  for (int b = 0; b < 64; ++b)
    if ((n >> b) & 1u) r = compose(powers().pow2[static_cast<std::size_t>(b)], r);
  return r;
}

// A map applied by table: entry [b][x] is the image of byte b of the state holding x (the XOR of
// the columns of x's set bits), so an application is 20 lookups instead of 160 masked columns; the
// same XOR of the same columns. For the thread chain of a new seed: 4095 applications of T^(2^67).
struct Gf2ByteTable {
  std::array<std::array<Word5, 256>, 20> entry{};
  explicit Gf2ByteTable(const Gf2Map& m) {
    for (std::size_t b = 0; b < 20; ++b)
      for (std::size_t x = 1; x < 256; ++x) {
        const Word5& prev = entry[b][x & (x - 1)];
        const Word5& col = m.col[8 * b + static_cast<std::size_t>(std::countr_zero(x))];
        for (std::size_t k = 0; k < 5; ++k) entry[b][x][k] = prev[k] ^ col[k];
      }
  }
  Word5 apply(const Word5& v) const {
    Word5 r{};
    for (std::size_t b = 0; b < 20; ++b) {
      const Word5& e = entry[b][(v[b / 4] >> (8 * (b % 4))) & 0xffu];
      for (std::size_t k = 0; k < 5; ++k) r[k] ^= e[k];
    }
    return r;
  }
};

// a after b: each column of b through a's byte table (session 25: 20 lookups a column instead of 160
// masked columns; the same XOR of the same columns of a, so the same map). powers() composes 79 times
// on the first XORWOW call of a process (was ~10 ms of it).
Gf2Map compose(const Gf2Map& a, const Gf2Map& b) {
  const auto table = std::make_unique<const Gf2ByteTable>(a);  // 100 KB: not on the stack
  Gf2Map c;
  for (std::size_t j = 0; j < 160; ++j) c.col[j] = table->apply(b.col[j]);
  return c;
}

const Gf2ByteTable& subsequence_table() {
  static const Gf2ByteTable t(powers().pow2[67]);  // 100 KB, once per process
  return t;
}

}  // namespace

XorwowState xorwow_seed_state(std::uint64_t seed) {
  // cuRAND's salts and odd multipliers (CURAND: curand_kernel.h, _curand_init_inplace).
  const std::uint32_t s0 = static_cast<std::uint32_t>(seed) ^ 0xaad26b49u;
  const std::uint32_t s1 = static_cast<std::uint32_t>(seed >> 32) ^ 0xf7dcefddu;
  const std::uint32_t t0 = 1099087573u * s0, t1 = 2591861531u * s1;
  XorwowState s;
  s.d = 6615241u + t1 + t0;
  s.v = {123456789u + t0, 362436069u ^ t0, 521288629u + t1, 88675123u ^ t1, 5783321u + t0};
  return s;
}

void xorwow_skip(XorwowState& s, std::uint64_t n) {
  for (int b = 0; b < 64; ++b)
    if ((n >> b) & 1u) s.v = gf2_apply(powers().pow2[static_cast<std::size_t>(b)], s.v);
  s.d += 362437u * static_cast<std::uint32_t>(n);
}

void xorwow_skip_subsequences(XorwowState& s, std::uint64_t n) {
  // 2^67 n steps: T^(2^(67 + b)) for each set bit b of n (from the table below 2^80, squared beyond).
  Gf2Map big = powers().pow2.back();  // T^(2^79)
  for (int b = 0; b < 64 && (n >> b) != 0; ++b) {
    const std::size_t e = 67 + static_cast<std::size_t>(b);
    if (e >= powers().pow2.size()) big = compose(big, big);  // T^(2^e)
    const Gf2Map& m = e < powers().pow2.size() ? powers().pow2[e] : big;
    if ((n >> b) & 1u) s.v = gf2_apply(m, s.v);
  }
}

std::vector<XorwowState>& XorwowGenerator::states() {
  if (base_.empty()) {
    // Thread k = subsequence k: each state is the previous one skipped by 2^67 steps.
    base_.resize(kThreads);
    base_[0] = xorwow_seed_state(seed_);
    const Gf2ByteTable& sub = subsequence_table();
    for (std::size_t k = 1; k < kThreads; ++k) base_[k] = {sub.apply(base_[k - 1].v), base_[0].d};
  }
  if (states_.empty()) {
    // Thread k's first slot at or after offset_ is its word ceil((offset_ - k) / 4096): the words
    // J = offset_ / 4096 for k >= offset_ mod 4096, J + 1 below.
    const std::uint64_t J = offset_ / kThreads, r = offset_ % kThreads;
    const Gf2Map skip = power_map(J);
    states_.resize(kThreads);
    for (std::size_t k = 0; k < kThreads; ++k) {
      // J = 0 (a new generator, an offset below 4096): the identity map, skipped (same words).
      XorwowState s{J == 0 ? base_[k].v : gf2_apply(skip, base_[k].v), base_[k].d + 362437u * static_cast<std::uint32_t>(J)};
      if (k < r) xorwow_next(s);
      states_[k] = s;
    }
  }
  return states_;
}

int xorwow_values_per_slot(XorwowSlot kind) {
  switch (kind) {
    case XorwowSlot::words2:
      return 2;
    case XorwowSlot::words4:
      return 4;
    default:
      return 1;
  }
}

namespace {

// Whole rounds of the 4096 threads (slot m of thread k = m mod 4096), thread-major: 16 threads'
// states in local arrays, advanced round by round (one step per word of a slot), their words
// written 4096 slots apart. The inner loop over the 16 lanes is one plain loop the compiler
// vectorises; each thread still takes its steps in order, so the words and final states are those
// of the slot-by-slot loop. `out` is the first round's slot 0.
// Compiled twice (xorwow_whole_rounds below): the library's baseline ISA and AVX-512 (16 lanes in
// one register), chosen at run time; the same integer operations.
// W (the words per slot) a constant: with a run-time count the compiler stored the 16 lanes' words
// one by one (vpextrd), not as one vector store for W = 1.
template <int W>
[[gnu::always_inline]] inline void xorwow_whole_rounds_body(std::span<XorwowState> states, std::uint64_t rounds,
                                                            std::uint32_t* out) {
  constexpr int w = W;
  constexpr std::size_t kLanes = 16;
  const std::size_t row = kXorwowThreads * static_cast<std::size_t>(w);
  for (std::size_t k0 = 0; k0 < kXorwowThreads; k0 += kLanes) {
    std::uint32_t v0[kLanes], v1[kLanes], v2[kLanes], v3[kLanes], v4[kLanes], d[kLanes];
    for (std::size_t i = 0; i < kLanes; ++i) {
      const XorwowState& s = states[k0 + i];
      v0[i] = s.v[0], v1[i] = s.v[1], v2[i] = s.v[2], v3[i] = s.v[3], v4[i] = s.v[4], d[i] = s.d;
    }
    std::uint32_t* o = out + k0 * static_cast<std::size_t>(w);
    for (std::uint64_t r = 0; r < rounds; ++r, o += row)
      for (int j = 0; j < w; ++j)
        for (std::size_t i = 0; i < kLanes; ++i) {  // xorwow_next on lane i
          const std::uint32_t t = v0[i] ^ (v0[i] >> 2);
          v0[i] = v1[i], v1[i] = v2[i], v2[i] = v3[i], v3[i] = v4[i];
          v4[i] = (v4[i] ^ (v4[i] << 4)) ^ (t ^ (t << 1));
          d[i] += 362437u;
          o[i * static_cast<std::size_t>(w) + static_cast<std::size_t>(j)] = v4[i] + d[i];
        }
    for (std::size_t i = 0; i < kLanes; ++i) {
      XorwowState& s = states[k0 + i];
      s.v = {v0[i], v1[i], v2[i], v3[i], v4[i]};
      s.d = d[i];
    }
  }
}


__attribute__((target("avx512f,avx512bw,avx512vl"))) void xorwow_whole_rounds_avx512(std::span<XorwowState> states,
                                                                                     std::uint64_t rounds, int w,
                                                                                     std::uint32_t* out) {
  switch (w) {
    case 1: return xorwow_whole_rounds_body<1>(states, rounds, out);
    case 2: return xorwow_whole_rounds_body<2>(states, rounds, out);
    default: return xorwow_whole_rounds_body<4>(states, rounds, out);
  }
}
void xorwow_whole_rounds_baseline(std::span<XorwowState> states, std::uint64_t rounds, int w, std::uint32_t* out) {
  switch (w) {
    case 1: return xorwow_whole_rounds_body<1>(states, rounds, out);
    case 2: return xorwow_whole_rounds_body<2>(states, rounds, out);
    default: return xorwow_whole_rounds_body<4>(states, rounds, out);
  }
}
void xorwow_whole_rounds(std::span<XorwowState> states, std::uint64_t rounds, int w, std::uint32_t* out) {
  static const bool avx512 = host_simd_available(HostSimd::avx512);
  if (avx512)
    xorwow_whole_rounds_avx512(states, rounds, w, out);
  else
    xorwow_whole_rounds_baseline(states, rounds, w, out);
}
}  // namespace

void xorwow_run_slots(std::span<XorwowState> states, std::uint64_t first_slot, std::uint64_t slot_begin,
                      std::uint64_t slot_end, XorwowSlot kind, std::uint32_t* out) {
  const int w = xorwow_values_per_slot(kind);
  if (kind != XorwowSlot::carried_normal && states.size() == kXorwowThreads) {
    // The slots before the first whole round one by one, then whole rounds thread-major, then the
    // rest one by one below.
    std::uint64_t m = slot_begin;
    for (; m < slot_end && (first_slot + m) % kXorwowThreads != 0; ++m) {
      XorwowState& s = states[static_cast<std::size_t>((first_slot + m) % kXorwowThreads)];
      for (int k = 0; k < w; ++k) *out++ = xorwow_next(s);
    }
    const std::uint64_t rounds = (slot_end - m) / kXorwowThreads;
    if (rounds > 0) {
      xorwow_whole_rounds(states, rounds, w, out);
      out += rounds * kXorwowThreads * static_cast<std::uint64_t>(w);
      m += rounds * kXorwowThreads;
    }
    slot_begin = m;
  }
  for (std::uint64_t m = slot_begin; m < slot_end; ++m) {
    XorwowState& s = states[static_cast<std::size_t>((first_slot + m) % kXorwowThreads)];
    if (kind == XorwowSlot::carried_normal) {
      const float z = carried_normal(s, [&] {
        const std::uint32_t x = xorwow_next(s), y = xorwow_next(s);
        return box_muller_curand_host_f32(x, y);  // glibc's arithmetic, as libcurand (Poisson rounds it)
      });
      *out++ = std::bit_cast<std::uint32_t>(z);
      continue;
    }
    for (int k = 0; k < w; ++k) *out++ = xorwow_next(s);
  }
}

std::vector<std::uint32_t> XorwowGenerator::slot_values(std::uint64_t slots, XorwowSlot kind, std::uint32_t* into) {
  return run_slots(
      slots, static_cast<std::size_t>(xorwow_values_per_slot(kind)),
      [&](std::vector<XorwowState>& st, std::uint32_t* v) {
        return run_xorwow_kernel(st, offset_, slots, kind, false, v, cfg_);
      },
      [&](std::vector<XorwowState>& st, std::uint32_t* v) { xorwow_run_slots(st, offset_, 0, slots, kind, v); }, into);
}

void XorwowGenerator::uniform_into(std::span<float> out) {
  if (!engines_) {
    const auto v = slot_values(out.size(), XorwowSlot::words1);
    for (std::size_t m = 0; m < out.size(); ++m) out[m] = uniform_from_word(v[m]);
    return;
  }
  last_trace_ = run_xorwow_kernel(states(), offset_, out.size(), XorwowSlot::words1, true, out.data(), cfg_).trace;
  offset_ += out.size();
}

void XorwowGenerator::generate(std::span<std::uint32_t> out) { slot_values(out.size(), XorwowSlot::words1, out.data()); }

void XorwowGenerator::uniform(std::span<float> out) { uniform_into(out); }

void XorwowGenerator::uniform_double(std::span<double> out) {
  const auto v = slot_values(out.size(), XorwowSlot::words2);
  for (std::size_t m = 0; m < out.size(); ++m) out[m] = uniform_double_hq(v[2 * m], v[2 * m + 1]);
  record(kHostUniformDouble, out);
}

std::vector<std::array<float, 2>> XorwowGenerator::normal_pairs(std::size_t n) {
  require_even_pairs(kWho, n);
  const auto v = slot_values(n / 2, XorwowSlot::words2);
  std::vector<std::array<float, 2>> z(n / 2);
  for (std::size_t m = 0; m < z.size(); ++m) z[m] = box_muller_f32(v[2 * m], v[2 * m + 1]);
  return z;
}

std::vector<std::array<double, 2>> XorwowGenerator::normal_pairs_double(std::size_t n) {
  require_even_pairs(kWho, n);
  const auto v = slot_values(n / 2, XorwowSlot::words4);
  std::vector<std::array<double, 2>> z(n / 2);
  for (std::size_t m = 0; m < z.size(); ++m) z[m] = box_muller_f64(v[4 * m], v[4 * m + 1], v[4 * m + 2], v[4 * m + 3]);
  return z;
}

template class StatefulGenerator<XorwowGenerator, XorwowState>;

}  // namespace trn::rand
