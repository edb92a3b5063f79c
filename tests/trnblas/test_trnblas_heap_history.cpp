// Modeled time does not depend on how the heap hands out memory (docs/cost-model.md section 2,
// "Scratch addresses"): trnblas's traced temporaries (the integer GemmEx path and Uint8gemmBias,
// getri/matinv batched, dsyrk, the Ozaki schemes' exponent terms and inverse scalings) are on the
// scratch stack, so the same call models the same Profile, bit for bit, whether its frees are
// recycled at once, held until it returns, or preceded by unrelated heap traffic (heap_history.hpp).
// Before the conversion Uint8gemmBias's three gemm_i8 calls reused one another's freed bf16 copies
// and partial buffers inside one trace, a false WAR/WAW edge that only some heap histories made.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "../heap_history.hpp"
#include "trn/blas/blas.hpp"
#include "trn/blas/level12.hpp"
#include "trn/blas/level3.hpp"
#include "trnblas.h"

namespace {

using heap_history::expect_history_independent;
using heap_history::profile_bits;

template <class T>
std::vector<T> random_values(std::size_t count, double lo, double hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<T> v(count);
  for (T& x : v) x = static_cast<T>(d(gen));
  return v;
}

trn::blas::Settings trn2() {
  trn::blas::Settings s;
  s.target = trn::Generation::trn2;
  return s;
}

// Failed before (trn1, the reusing arena): 204 162.9 ns against 203 673.8 ns quarantined; 432 638.8
// against 431 905.5 ns at m = 300 with glibc's own reuse (a later gemm_i8's partials and bf16 copies
// in an earlier one's freed bytes).
TEST(HeapHistory, Uint8GemmBiasProfileIndependentOfHeapReuse) {
  const std::int64_t m = 200, n = 192, k = 224;
  const auto a = random_values<int>(static_cast<std::size_t>(m * k), 0, 255, 1);
  const auto b = random_values<int>(static_cast<std::size_t>(k * n), 0, 255, 2);
  const std::vector<std::uint8_t> A(a.begin(), a.end()), B(b.begin(), b.end());
  expect_history_independent([&] {
    std::vector<std::uint8_t> C(static_cast<std::size_t>(m * n), 0);
    trn::blas::CallReport rep;
    trn::blas::Settings s;  // trn1: the target on which the reuse moved the modeled time
    trn::blas::gemm_u8_bias(s, trn::blas::Op::N, trn::blas::Op::N, false, m, n, k, A.data(), -3, m, B.data(), 5,
                            k, C.data(), 7, m, 3, 9, &rep);
    return profile_bits(rep.profile);
  });
}

TEST(HeapHistory, GemmI8ProfileIndependentOfHeapReuse) {
  const std::int64_t m = 40, n = 36, k = 1100;  // two K chunks
  const auto a = random_values<int>(static_cast<std::size_t>(m * k), -128, 127, 3);
  const auto b = random_values<int>(static_cast<std::size_t>(k * n), -128, 127, 4);
  const std::vector<std::int8_t> A(a.begin(), a.end()), B(b.begin(), b.end());
  expect_history_independent([&] {
    std::vector<std::int32_t> C(static_cast<std::size_t>(m * n), 1);
    trn::blas::CallReport rep;
    trn::blas::gemm_i8(trn2(), trn::blas::Op::T, trn::blas::Op::N, m, n, k, 2, A.data(), k, B.data(), k, 1, C.data(), m,
                       &rep);
    return profile_bits(rep.profile);
  });
}

TEST(HeapHistory, MatinvBatchedProfileIndependentOfHeapReuse) {
  const int n = 12, batch = 9;
  std::vector<std::vector<float>> a(batch);
  for (int b = 0; b < batch; ++b) {
    a[static_cast<std::size_t>(b)] = random_values<float>(static_cast<std::size_t>(n * n), -1, 1, 10u + static_cast<unsigned>(b));
    for (int i = 0; i < n; ++i) a[static_cast<std::size_t>(b)][static_cast<std::size_t>(i + i * n)] += 4.0f;
  }
  expect_history_independent([&] {
    trnblasHandle_t h = nullptr;
    EXPECT_EQ(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    trnblasSetTarget(h, TRN_TARGET_TRN2);
    std::vector<std::vector<float>> inv(batch, std::vector<float>(static_cast<std::size_t>(n * n)));
    std::vector<const float*> ap;
    std::vector<float*> cp;
    for (int b = 0; b < batch; ++b) {
      ap.push_back(a[static_cast<std::size_t>(b)].data());
      cp.push_back(inv[static_cast<std::size_t>(b)].data());
    }
    std::vector<int> info(batch, -1);
    EXPECT_EQ(trnblasSmatinvBatched(h, n, ap.data(), n, cp.data(), n, info.data(), batch), TRNBLAS_STATUS_SUCCESS);
    trnProfile_t p{};
    trnblasGetLastProfile(h, &p);
    trnblasDestroy(h);
    trn::Profile q;
    q.total_ns = p.total_ns;
    for (int e = 0; e < TRN_ENGINE_COUNT; ++e) q.busy_ns[static_cast<std::size_t>(e)] = p.busy_ns[e];
    q.dma_bytes = p.dma_bytes;
    q.total_instructions = static_cast<std::int64_t>(p.instructions);
    return profile_bits(q);
  });
}

TEST(HeapHistory, DsyrkProfileIndependentOfHeapReuse) {
  const std::int64_t n = 96, k = 80;
  const auto A = random_values<double>(static_cast<std::size_t>(n * k), -1, 1, 5);
  expect_history_independent([&] {
    std::vector<double> C(static_cast<std::size_t>(n * n), 0.5);
    trn::blas::CallReport rep;
    trn::blas::dsyrk(trn2(), trn::blas::Uplo::lower, trn::blas::Op::N, n, k, 1.0, A.data(), n, 1.0, C.data(), n, &rep);
    return profile_bits(rep.profile);
  });
}

// Both Ozaki schemes, device steps (II: residues, fold and reconstruction on GpSimdE; I: the slices
// cut on the device), and the fp64 Level 2 slice pairs (dgemv's exponent pass and device fold).
TEST(HeapHistory, OzakiProfilesIndependentOfHeapReuse) {
  const std::int64_t m = 120, n = 104, k = 136;
  const auto A = random_values<double>(static_cast<std::size_t>(m * k), -1, 1, 6);
  const auto B = random_values<double>(static_cast<std::size_t>(k * n), -1, 1, 7);
  for (const trn::blas::OzakiScheme scheme : {trn::blas::OzakiScheme::crt, trn::blas::OzakiScheme::slices}) {
    SCOPED_TRACE(trn::blas::ozaki_scheme_name(scheme));
    expect_history_independent([&] {
      trn::blas::Settings s = trn2();
      s.ozaki_scheme = scheme;
      std::vector<double> C(static_cast<std::size_t>(m * n), 0.25);
      trn::blas::CallReport rep;
      trn::blas::dgemm(s, trn::blas::Op::N, trn::blas::Op::N, m, n, k, 1.0, A.data(), m, B.data(), k, 0.5, C.data(), m,
                       &rep);
      return profile_bits(rep.profile);
    });
  }
  expect_history_independent([&] {
    std::vector<double> y(static_cast<std::size_t>(m), 0.25);
    trn::blas::CallReport rep;
    trn::blas::gemv(trn2(), trn::blas::Op::N, m, k, 1.0, A.data(), m, B.data(), 1, 0.5, y.data(), 1, &rep);
    return profile_bits(rep.profile);
  });
}

}  // namespace
