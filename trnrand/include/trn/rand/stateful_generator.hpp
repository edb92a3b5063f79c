// What cuRAND's stateful host generators (XORWOW, MRG32K3A) share: the seed and offset, the thread
// states (curand_init(seed, k, 0) per seed, moved to the offset on demand), the engine path's flag,
// configuration and last trace, the Poisson table; and the distributions both build the same way
// from their Box-Muller pairs and slot words (normal / log-normal through normal_affine /
// log_normal_from, Poisson through cuRAND's table or the carried normal). The generator (Derived)
// supplies states(), normal_pairs(n), normal_pairs_double(n), poisson_words(n) (one word per slot)
// and carried_normals(n) (the carried normal's float bits per slot), and a static kWho.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "trn/core/cost_model.hpp"
#include "trn/rand/kernels.hpp"
#include "trn/rand/poisson.hpp"

namespace trn::rand {

template <class Derived, class State>
class StatefulGenerator {
 public:
  // engines = true: every call's states advance in the generator's slot kernel (the "device"
  // generator).
  explicit StatefulGenerator(bool engines, const EngineConfig& cfg) : engines_(engines), cfg_(cfg) {}
  // Modeled cost of the last call's kernel (engine path; empty otherwise).
  Profile last_profile() const { return kernel_profile(last_trace_, cfg_.target); }
  void set_engine_config(const EngineConfig& cfg) { cfg_ = cfg; }

  // The seed keeps the offset and restarts the states; the offset restarts the states there.
  void set_seed(std::uint64_t seed) {
    seed_ = seed;
    base_.clear();
    states_.clear();
  }
  void set_offset(std::uint64_t offset) {
    offset_ = offset;
    states_.clear();
  }
  std::uint64_t seed() const { return seed_; }
  std::uint64_t offset() const { return offset_; }

  void normal(std::span<float> out, float mean, float stddev);  // out.size() even
  void normal_double(std::span<double> out, double mean, double stddev);
  void log_normal(std::span<float> out, float mean, float stddev);
  void log_normal_double(std::span<double> out, double mean, double stddev);
  void poisson(std::span<std::uint32_t> out, double lambda);

 protected:
  // `slots` slots of per_slot values each from the offset, by engine(states, out) -> LaunchResult
  // on the engines or host(states, out); advances the offset. into: the values go there (nothing
  // returned) instead of a returned vector.
  template <class OnEngines, class OnHost>
  std::vector<std::uint32_t> run_slots(std::uint64_t slots, std::size_t per_slot, OnEngines&& engine, OnHost&& host,
                                       std::uint32_t* into = nullptr) {
    auto& st = static_cast<Derived&>(*this).states();
    const auto count = static_cast<std::size_t>(slots) * per_slot;
    std::vector<std::uint32_t> v(into != nullptr ? 0 : count);
    std::uint32_t* dst = into != nullptr ? into : v.data();
    if (engines_) {
      last_trace_ = engine(st, dst).trace;
    } else {
      host(st, dst);
      last_trace_.reset();
    }
    last_words_ = HostSpan(dst, static_cast<std::int64_t>(count));  // a moved vector keeps its buffer
    offset_ += slots;
    return v;
  }
  // The host transform of the last kernel's words into out (recorded on the engine path only).
  template <class T>
  void record(const HostTransform& t, std::span<T> out) {
    record_transform(last_trace_, t, last_words_, HostSpan(out.data(), static_cast<std::int64_t>(out.size())), out.size());
  }

  std::uint64_t seed_ = 0, offset_ = 0;
  std::vector<State> base_;    // curand_init(seed_, k, 0) for k < Derived::kThreads (per seed)
  std::vector<State> states_;  // empty: restart from base_ at offset_
  std::shared_ptr<const PoissonTable> table_;
  bool engines_ = false;
  EngineConfig cfg_{};
  std::optional<Trace> last_trace_;
  HostSpan last_words_;  // where the last kernel wrote its words
};

}  // namespace trn::rand
