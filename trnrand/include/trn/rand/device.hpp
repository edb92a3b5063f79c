// Device-style per-element API: the analogue of cuRAND's curandStatePhilox4_32_10_t and
// curand_init / curand / curand4 / skipahead / skipahead_sequence / curand_uniform /
// curand_normal (cuRAND docs, curand_kernel.h; Philox: Salmon et al., SC '11; docs/trnrand.md section 2).
//
//   PhiloxState s = philox_init(seed, subsequence, offset);   // curand_init
//   std::uint32_t w = s.next();                               // curand
//   float u = s.uniform();                                    // curand_uniform
//
// State: a 128-bit counter, the 4-word output block of that counter, the 64-bit key and the lane
// of the next word. curand_init(seed, subsequence, offset): counter 0, key = (lo32(seed),
// hi32(seed)); skipahead_sequence(subsequence) adds to the high 64 counter bits (a subsequence is
// 2^66 words); skipahead(offset) advances the lane by offset mod 4 and the low 64 bits by offset / 4
// (carrying into the high half). Streams with different subsequences never overlap, so
// `philox_init(seed, core_or_process_id, 0)` gives each emulated core, program or process its own
// stream; inside a GpSimd custom operator, call it per element with the element's global index as
// the subsequence (or offset).
//
// Distribution functions use the same transforms as the generator's kernels
// (trn/rand/transforms.hpp), so curand_normal-style values equal the host generator's when fed the
// same words. curand_normal caches the cosine component and returns it on the next call, as cuRAND.
#pragma once
#include <array>
#include <cstdint>

#include "trn/rand/streams.hpp"
#include "trn/rand/transforms.hpp"

namespace trn::rand {

class PhiloxState {
 public:
  constexpr PhiloxState() = default;

  // curand_init(seed, subsequence, offset).
  static constexpr PhiloxState init(std::uint64_t seed, std::uint64_t subsequence, std::uint64_t offset) {
    PhiloxState s;
    s.key_ = philox_key(seed);
    s.counter_ = {0, 0, 0, 0};
    s.skipahead_sequence(subsequence);
    s.skipahead(offset);
    return s;
  }

  // Advance by n words (curand's skipahead).
  constexpr void skipahead(std::uint64_t n) {
    lane_ += static_cast<int>(n & 3u);
    n /= 4;
    if (lane_ > 3) {
      n += 1;
      lane_ -= 4;
    }
    add_low(n);
    refill();
  }
  // Advance by n subsequences of 2^66 words (curand's skipahead_sequence).
  constexpr void skipahead_sequence(std::uint64_t n) {
    const std::uint64_t hi = (std::uint64_t{counter_[3]} << 32 | counter_[2]) + n;
    counter_[2] = static_cast<std::uint32_t>(hi);
    counter_[3] = static_cast<std::uint32_t>(hi >> 32);
    refill();
  }

  // curand(): the next word.
  constexpr std::uint32_t next() {
    const std::uint32_t w = output_[static_cast<std::size_t>(lane_)];
    if (++lane_ == 4) {
      add_low(1);
      refill();
      lane_ = 0;
    }
    return w;
  }
  // curand4(): the next four words (from the current lane on; the counter advances by one block).
  constexpr std::array<std::uint32_t, 4> next4() {
    const std::array<std::uint32_t, 4> current = output_;
    add_low(1);
    refill();
    std::array<std::uint32_t, 4> r{};
    for (int j = 0; j < 4; ++j) {
      const int k = lane_ + j;
      r[static_cast<std::size_t>(j)] =
          k < 4 ? current[static_cast<std::size_t>(k)] : output_[static_cast<std::size_t>(k - 4)];
    }
    return r;
  }

  // curand_uniform / curand_uniform4 / curand_uniform_double (one word) / curand_uniform2_double.
  constexpr float uniform() { return uniform_from_word(next()); }
  constexpr std::array<float, 4> uniform4() {
    const auto w = next4();
    return {uniform_from_word(w[0]), uniform_from_word(w[1]), uniform_from_word(w[2]), uniform_from_word(w[3])};
  }
  constexpr double uniform_double() { return uniform_double_from_word(next()); }
  constexpr std::array<double, 2> uniform2_double() {
    const auto w = next4();
    return {uniform_double_hq(w[0], w[1]), uniform_double_hq(w[2], w[3])};
  }

  // curand_normal (caches the cosine component), curand_normal2, curand_normal4.
  float normal() {
    if (has_cached_normal_) {
      has_cached_normal_ = false;
      return cached_normal_;
    }
    const std::uint32_t x = next(), y = next();
    const auto z = box_muller_f32(x, y);
    cached_normal_ = z[1];
    has_cached_normal_ = true;
    return z[0];
  }
  std::array<float, 2> normal2() {
    const std::uint32_t x = next(), y = next();
    return box_muller_f32(x, y);
  }
  std::array<float, 4> normal4() {
    const auto w = next4();
    const auto a = box_muller_f32(w[0], w[1]), b = box_muller_f32(w[2], w[3]);
    return {a[0], a[1], b[0], b[1]};
  }
  // curand_normal_double (one curand4 per pair, caches the second), curand_normal2_double.
  double normal_double() {
    if (has_cached_normal_double_) {
      has_cached_normal_double_ = false;
      return cached_normal_double_;
    }
    const auto z = normal2_double();
    cached_normal_double_ = z[1];
    has_cached_normal_double_ = true;
    return z[0];
  }
  std::array<double, 2> normal2_double() {
    const auto w = next4();
    return box_muller_f64(w[0], w[1], w[2], w[3]);
  }
  float log_normal(float mean, float stddev) { return log_normal_from(normal(), mean, stddev); }
  double log_normal_double(double mean, double stddev) { return log_normal_from_double(normal_double(), mean, stddev); }

  constexpr const Philox4x32Counter& counter() const { return counter_; }
  constexpr const Philox4x32Key& key() const { return key_; }
  constexpr int lane() const { return lane_; }

 private:
  constexpr void add_low(std::uint64_t n) {
    const std::uint64_t lo = std::uint64_t{counter_[1]} << 32 | counter_[0];
    const std::uint64_t sum = lo + n;
    counter_[0] = static_cast<std::uint32_t>(sum);
    counter_[1] = static_cast<std::uint32_t>(sum >> 32);
    if (sum < lo) {  // carry into the high 64 bits
      if (++counter_[2] == 0) ++counter_[3];
    }
  }
  constexpr void refill() { output_ = philox4x32_10(counter_, key_); }

  Philox4x32Counter counter_{0, 0, 0, 0};
  Philox4x32Key key_{0, 0};
  Philox4x32Counter output_ = philox4x32_10({0, 0, 0, 0}, {0, 0});
  int lane_ = 0;
  bool has_cached_normal_ = false, has_cached_normal_double_ = false;
  float cached_normal_ = 0.0f;
  double cached_normal_double_ = 0.0;
};

constexpr PhiloxState philox_init(std::uint64_t seed, std::uint64_t subsequence, std::uint64_t offset) {
  return PhiloxState::init(seed, subsequence, offset);
}

}  // namespace trn::rand
