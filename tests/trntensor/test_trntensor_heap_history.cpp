// Modeled time does not depend on how the heap hands out memory (docs/cost-model.md section 2,
// "Scratch addresses"): trntensor's traced buffers (a contraction's owned workspace, einsum's
// intermediates, the elementwise kernels' packed operands and results, DF-MP2's pair energies) are
// on the scratch stack, so the same call models the same Profile, bit for bit, whether its frees are
// recycled at once, held until it returns, lent to the next request (a reusing arena), or preceded
// by unrelated heap traffic (tests/heap_history.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "../heap_history.hpp"
#include "trn/tensor/tensor.hpp"

namespace {

using heap_history::expect_history_independent;
using heap_history::profile_bits;
using trn::tensor::ComputeType;
using trn::tensor::DataType;

template <class T>
std::vector<T> wave(std::int64_t count, double phase) {
  std::vector<T> v(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<T>(std::sin(phase + 0.61 * static_cast<double>(i)));
  return v;
}

trn::blas::Settings on(trn::Generation g) {
  trn::blas::Settings s;
  s.target = g;
  return s;
}

// A chain of four operands: the planner's steps, each with an owned workspace and an intermediate.
TEST(HeapHistory, EinsumProfileIndependentOfHeapReuse) {
  const std::int64_t a = 40, b = 52, c = 36, d = 60, e = 24;
  for (const DataType dt : {DataType::f32, DataType::f64}) {
    const ComputeType ct = dt == DataType::f32 ? ComputeType::f32 : ComputeType::f64;
    const auto x1 = wave<double>(a * b, 0.1), x2 = wave<double>(b * c, 0.2), x3 = wave<double>(c * d, 0.3),
               x4 = wave<double>(d * e, 0.4);
    for (const trn::Generation g : {trn::Generation::trn1, trn::Generation::trn2}) {
      SCOPED_TRACE(dt == DataType::f32 ? "f32" : "f64");
      expect_history_independent([&] {
        std::vector<float> f1(x1.begin(), x1.end()), f2(x2.begin(), x2.end()), f3(x3.begin(), x3.end()),
            f4(x4.begin(), x4.end());
        const bool f64 = dt == DataType::f64;
        const auto ptr = [&](const std::vector<double>& dv, const std::vector<float>& fv) {
          return f64 ? static_cast<const void*>(dv.data()) : static_cast<const void*>(fv.data());
        };
        const std::vector<trn::tensor::View> views{{ptr(x1, f1), {a, b}, {}}, {ptr(x2, f2), {b, c}, {}},
                                                   {ptr(x3, f3), {c, d}, {}}, {ptr(x4, f4), {d, e}, {}}};
        std::vector<double> out(static_cast<std::size_t>(a * e) * 2, 0.0);
        trn::tensor::EinsumReport rep;
        trn::tensor::einsum(on(g), "ab,bc,cd,de->ae", views, {out.data(), {a, e}, {}}, dt, ct,
                            trn::tensor::PathStrategy::automatic, &rep);
        return profile_bits(rep.profile);
      });
    }
  }
}

// A permutation of A combined with C: A and C packed in D's order, D packed, then written back.
TEST(HeapHistory, ElementwiseBinaryProfileIndependentOfHeapReuse) {
  trn::tensor::ElementwiseBinarySpec spec;
  spec.a = {{24, 18, 20}, {}, DataType::f32};
  spec.c = {{20, 24, 18}, {}, DataType::f32};
  spec.d = {{18, 20, 24}, {}, DataType::f32};
  spec.modes_a = {'i', 'j', 'k'};
  spec.modes_c = {'k', 'i', 'j'};
  spec.modes_d = {'j', 'k', 'i'};
  const trn::tensor::ElementwiseBinaryPlan plan(spec);
  const auto A = wave<float>(plan.elements(), 0.5), C = wave<float>(plan.elements(), 0.7);
  expect_history_independent([&] {
    std::vector<float> D(static_cast<std::size_t>(plan.elements()), 0.0f);
    trn::blas::CallReport rep;
    plan.execute(on(trn::Generation::trn1), 1.5f, A.data(), -0.5f, C.data(), D.data(), &rep);
    return profile_bits(rep.profile);
  });
}

TEST(HeapHistory, Dfmp2ProfileIndependentOfHeapReuse) {
  const std::int64_t naux = 150, nocc = 6, nvir = 40;
  const auto B = wave<float>(naux * nocc * nvir, 0.9);
  std::vector<float> eo(static_cast<std::size_t>(nocc)), ev(static_cast<std::size_t>(nvir));
  for (std::size_t i = 0; i < eo.size(); ++i) eo[i] = -1.0f - 0.1f * static_cast<float>(i);
  for (std::size_t a = 0; a < ev.size(); ++a) ev[a] = 0.5f + 0.05f * static_cast<float>(a);
  expect_history_independent([&] {
    trn::blas::CallReport rep;
    trn::tensor::dfmp2_energy(on(trn::Generation::trn2), naux, nocc, nvir, B.data(), eo.data(), ev.data(),
                              trn::tensor::Mp2Precision::bf16x3, &rep);
    return profile_bits(rep.profile);
  });
}

}  // namespace
