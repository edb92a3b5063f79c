// Modeled time does not depend on how the heap hands out memory (docs/cost-model.md section 2,
// "Scratch addresses"): trnfft's traced working planes (the fp64 transforms' planes and Ozaki
// operands, the fp32 plans' execution planes and C2R weights, the planning dry run's arrays) are on
// the scratch stack, so the same execution models the same Profile, bit for bit, whether its frees
// are recycled at once, held until it returns, lent to the next request (a reusing arena), or
// preceded by unrelated heap traffic (tests/heap_history.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "../heap_history.hpp"
#include "trn/fft/fft.hpp"

namespace {

trn::fft::PlanSpec spec_of(std::vector<std::int64_t> n, trn::fft::Type type, std::int64_t batch) {
  trn::fft::PlanSpec s;
  s.n = std::move(n);
  s.type = type;
  s.batch = batch;
  return s;
}

using heap_history::expect_history_independent;
using heap_history::profile_bits;

// A fresh plan per call (its dry run's modeled profile is part of the result), then one execution.
std::string plan_and_execute(const trn::fft::PlanSpec& spec, trn::Generation target, int direction) {
  trn::fft::Settings st;
  st.target = target;
  trn::fft::Plan plan(spec, st);
  const std::size_t points = static_cast<std::size_t>(spec.batch) * [&] {
    std::size_t p = 1;
    for (std::int64_t v : spec.n) p *= static_cast<std::size_t>(v);
    return p;
  }();
  const bool fp64 = spec.type == trn::fft::Type::z2z || spec.type == trn::fft::Type::d2z || spec.type == trn::fft::Type::z2d;
  std::vector<double> in64(4 * points + 8), out64(4 * points + 8);
  std::vector<float> in32(4 * points + 8), out32(4 * points + 8);
  for (std::size_t i = 0; i < in64.size(); ++i) in64[i] = in32[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i)));
  trn::fft::ExecReport rep;
  if (fp64)
    plan.execute(in64.data(), out64.data(), direction, &rep);
  else
    plan.execute(in32.data(), out32.data(), direction, &rep);
  return profile_bits(plan.modeled_profile()) + "| " + profile_bits(rep.profile);
}

TEST(HeapHistory, Fp64TransformsProfileIndependentOfHeapReuse) {
  using trn::fft::Type;
  for (const trn::Generation g : {trn::Generation::trn1, trn::Generation::trn2}) {
    for (const trn::fft::PlanSpec& spec : std::vector<trn::fft::PlanSpec>{spec_of({96}, Type::z2z, 3),   // four-step
                                           spec_of({97}, Type::z2z, 2),   // Bluestein
                                           spec_of({12, 10}, Type::d2z, 2),
                                           spec_of({24}, Type::z2d, 3)}) {
      SCOPED_TRACE(std::string(trn::fft::type_name(spec.type)) + " n0 " + std::to_string(spec.n[0]));
      expect_history_independent([&] { return plan_and_execute(spec, g, trn::fft::kForward); });
    }
  }
}

TEST(HeapHistory, Fp32PlansProfileIndependentOfHeapReuse) {
  using trn::fft::Type;
  for (const trn::fft::PlanSpec& spec : std::vector<trn::fft::PlanSpec>{spec_of({4096}, Type::c2c, 2), spec_of({1000}, Type::c2r, 3),
                                         spec_of({2048}, Type::c2r, 2), spec_of({97}, Type::c2c, 2)}) {
    SCOPED_TRACE(std::string(trn::fft::type_name(spec.type)) + " n0 " + std::to_string(spec.n[0]));
    const int direction = spec.type == Type::c2r ? trn::fft::kInverse : trn::fft::kForward;
    expect_history_independent([&] { return plan_and_execute(spec, trn::Generation::trn1, direction); });
  }
}

}  // namespace
