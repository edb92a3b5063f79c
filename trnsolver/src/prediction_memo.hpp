// Per-process memos of plan predictions that replay a whole driver (syevd's: predict_syevd_ns,
// eig_predict.cpp; gebrd's: gebrd.cpp's plan_of). A C++ caller whose report wants plans (the default)
// prints its plan, and the printed plan evaluates its lazy prediction: without a memo every such call
// ran the driver a second time on the prediction's synthetic matrix. Keeping the result is right only
// because a prediction's modeled time does not depend on the process's history
// (test_trnsolver_model_history, "PredictionIndependentOfHostHistory"): it is a function of what its
// key holds, and a key must hold everything the replayed driver reads -- the element type, every
// Settings field (settings_key), the shape and the environment variables the driver reads at the call.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>

#include "trn/solver/solver.hpp"

namespace trn::solver::detail {

// Every Settings field, in declaration order.
using SettingsKey = std::tuple<int, int, bool, std::uint64_t, int, int, bool, std::int64_t>;
inline SettingsKey settings_key(const Settings& s) {
  // A field added to EmulatorSettings breaks this binding (it compiles only while there are 7; sizeof
  // would miss a bool added into the padding). Settings' own fields are checked by size only: a field
  // small enough for the base's tail padding could still slip past, so add it here by hand.
  static_assert(sizeof(Settings) == sizeof(EmulatorSettings) + sizeof(std::int64_t),
                "Settings changed: add the new field to SettingsKey");
  const auto& [target, numerics, stochastic_rounding, sr_seed, num_cores, host_threads, timing_only] =
      static_cast<const EmulatorSettings&>(s);
  return {static_cast<int>(target), static_cast<int>(numerics), stochastic_rounding, sr_seed, num_cores,
          host_threads,             timing_only,                s.qr_block_size};
}

// Predicted modeled times (ns) by key, under a mutex; a missing one is computed outside the lock (a
// whole driver run). At most kMaxKept are kept, then all are forgotten at once: a caller sweeping
// shapes keeps a bounded table.
template <class Key>
class PredictionMemo {
 public:
  template <class Compute>
  double get(const Key& key, Compute&& compute) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (const auto it = ns_.find(key); it != ns_.end()) return it->second;
    }
    const double ns = compute();
    const std::lock_guard<std::mutex> lock(mutex_);
    if (ns_.size() >= kMaxKept) ns_.clear();
    ns_.emplace(key, ns);
    return ns;
  }

 private:
  static constexpr std::size_t kMaxKept = 64;
  std::mutex mutex_;
  std::map<Key, double> ns_;
};

}  // namespace trn::solver::detail
