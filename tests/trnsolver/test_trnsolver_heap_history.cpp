// Modeled time does not depend on how the heap hands out memory (docs/cost-model.md section 2,
// "Scratch addresses"). This executable replaces the global operator new / delete
// (tests/heap_history.hpp) so that a test can choose what malloc's history does inside a call:
// `recycle` (free at once: glibc's per-size caches hand the last freed block of a size to the next
// request of it, the reuse that made potri's temporaries look like one buffer) or `quarantine`
// (frees held until the call returned: no two blocks of one call share bytes), with heap traffic of
// assorted sizes between calls. Before
// potri's trtri and lauum temporaries moved to the scratch stack, spotri 256 on trn2 modeled
// 1 129 921 or 1 145 405 ns depending on what ran before (the C API reproducer); every Profile field
// must now be the same bit for bit in every mode.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "../heap_history.hpp"
#include "trn/solver/eig.hpp"
#include "trn/solver/solver.hpp"
#include "trn/solver/svd.hpp"
#include "trn/solver/sym_indef.hpp"
#include "trnsolver.h"

namespace {

using heap_history::disturb;
using heap_history::double_bits;
using heap_history::quarantined;

std::vector<float> spd(int n) {
  std::mt19937 gen(7);
  std::normal_distribution<float> nd;
  std::vector<float> b(static_cast<std::size_t>(n) * n), a(b.size());
  for (float& x : b) x = nd(gen);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += double(b[i + k * n]) * b[j + k * n];
      a[i + j * static_cast<std::size_t>(n)] = static_cast<float>(s / n + (i == j ? 1 : 0));
    }
  return a;
}

// The C API reproducer: Spotrf then Spotri on trn2; potri's profile as text (doubles by their bits).
std::string c_potri_bits(const std::vector<float>& a0, int n) {
  trnsolverDnHandle_t h = nullptr;
  trnsolverDnCreate(&h);
  trnsolverDnSetTarget(h, TRN_TARGET_TRN2);
  std::vector<float> a = a0;
  int lwork = 0;
  trnsolverDnSpotrf_bufferSize(h, TRNBLAS_FILL_MODE_LOWER, n, a.data(), n, &lwork);
  std::vector<float> work(static_cast<std::size_t>(lwork > 0 ? lwork : 1));
  int info = -1;
  EXPECT_EQ(trnsolverDnSpotrf(h, TRNBLAS_FILL_MODE_LOWER, n, a.data(), n, work.data(), lwork, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_EQ(trnsolverDnSpotri(h, TRNBLAS_FILL_MODE_LOWER, n, a.data(), n, work.data(), lwork, &info), TRNSOLVER_STATUS_SUCCESS);
  trnProfile_t p{};
  trnsolverDnGetLastProfile(h, &p);
  trnsolverDnDestroy(h);
  std::string s = double_bits(p.total_ns);
  for (int e = 0; e < TRN_ENGINE_COUNT; ++e) s += double_bits(p.busy_ns[e]);
  return s + double_bits(p.dma_bytes) + double_bits(static_cast<double>(p.instructions));
}

// The C++ reproducer: potri on one factor; its HBM regions' overlap structure and total.
struct Shape {
  double total_ns = 0;
  std::size_t overlapping_pairs = 0;
  bool operator==(const Shape&) const = default;
};
Shape cpp_potri_shape(const std::vector<float>& factor, int n) {
  std::vector<float> a = factor;
  trn::solver::Settings s;
  s.target = trn::Generation::trn2;
  trn::solver::CallReport rep;
  EXPECT_EQ(trn::solver::potri(s, trn::blas::Uplo::lower, n, a.data(), n, &rep), 0);
  // Distinct HBM intervals of the trace and how many pairs of them overlap without being equal.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> iv;
  for (const trn::Instruction& ins : rep.trace.instructions)
    for (std::size_t k = 0; k < ins.nregions; ++k)
      if (ins.regions[k].mem == trn::MemSpace::hbm) iv.emplace_back(ins.regions[k].lo, ins.regions[k].hi);
  std::sort(iv.begin(), iv.end());
  iv.erase(std::unique(iv.begin(), iv.end()), iv.end());
  Shape sh;
  sh.total_ns = rep.profile.total_ns;
  for (std::size_t i = 0; i < iv.size(); ++i)
    for (std::size_t j = i + 1; j < iv.size() && iv[j].first < iv[i].second; ++j) ++sh.overlapping_pairs;
  return sh;
}

// gesvd (jobu = jobvt = 'S') on an m x n Gaussian matrix in fresh buffers on trn1; every Profile field
// as text, doubles by their bits, and the outputs' bits (a history-independent time must not come
// with history-dependent outputs).
template <class T>
std::string gesvd_bits(std::int64_t m, std::int64_t n) {
  using R = decltype(std::real(T{}));
  std::mt19937_64 gen(2400);
  std::normal_distribution<double> nd;
  const auto mn = static_cast<std::size_t>(m * n);
  std::vector<T> a(mn), u(mn), vt(static_cast<std::size_t>(n * n));
  std::vector<R> sv(static_cast<std::size_t>(n));
  for (T& x : a) {
    if constexpr (std::is_same_v<T, R>) x = static_cast<R>(nd(gen));
    else x = T(static_cast<R>(nd(gen)), static_cast<R>(nd(gen)));
  }
  trn::solver::Settings s;
  s.target = trn::Generation::trn1;
  trn::solver::CallReport rep;
  EXPECT_EQ(trn::solver::gesvd(s, 'S', 'S', m, n, a.data(), m, sv.data(), u.data(), m, vt.data(), n, &rep), 0);
  const trn::Profile& p = rep.profile;
  std::string t = double_bits(p.total_ns) + double_bits(p.as_written_total_ns) + double_bits(p.reorder_total_ns);
  for (std::size_t e = 0; e < p.busy_ns.size(); ++e)
    t += double_bits(p.busy_ns[e]) + double_bits(p.critical_ns[e]) + double_bits(static_cast<double>(p.instructions[e])) +
         double_bits(p.roofline_ns[e]);
  for (double v : {p.flops, p.tensor_flops, p.dma_bytes, static_cast<double>(p.critical_engine),
                   static_cast<double>(p.host_steps), p.host_roundtrip_ns, p.host_critical_ns, p.host_flops, p.host_bytes,
                   static_cast<double>(p.link_transfers), p.link_ns, p.link_critical_ns, p.link_bytes, p.dma_active_ns,
                   static_cast<double>(p.total_instructions)})
    t += double_bits(v);
  for (double q : p.dma_queue_busy_ns) t += double_bits(q);
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a of the outputs' bytes
  const auto hash = [&](const auto& v) {
    const auto* b = reinterpret_cast<const unsigned char*>(v.data());
    for (std::size_t i = 0; i < v.size() * sizeof(v[0]); ++i) h = (h ^ b[i]) * 1099511628211ULL;
  };
  hash(sv);
  hash(u);
  hash(vt);
  return t + "outputs " + std::to_string(h);
}

}  // namespace

TEST(HeapHistory, SpotriProfileIndependentOfHeapReuse) {
  const int n = 256;
  const std::vector<float> a0 = spd(n);
  const std::string first = c_potri_bits(a0, n);
  EXPECT_EQ(quarantined([&] { return c_potri_bits(a0, n); }), first) << "no reuse inside the call";
  std::vector<std::vector<char>> keep;
  for (int round = 0; round < 3; ++round) {
    disturb(keep, round);
    EXPECT_EQ(c_potri_bits(a0, n), first) << "after heap traffic, round " << round;
  }
}

TEST(HeapHistory, PotriHbmIntervalsAndTimeIndependentOfHeapReuse) {
  const int n = 200;
  std::vector<float> factor = spd(n);
  {
    trn::solver::Settings s;
    ASSERT_EQ(trn::solver::spotrf(s, trn::blas::Uplo::lower, n, factor.data(), n), 0);
  }
  const Shape first = cpp_potri_shape(factor, n);
  std::vector<std::vector<char>> keep;
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(quarantined([&] { return cpp_potri_shape(factor, n); }), first) << "quarantine, round " << round;
    disturb(keep, round);
    EXPECT_EQ(cpp_potri_shape(factor, n), first) << "after heap traffic, round " << round;
  }
}

// gesvd 128 x 96 (jobu = jobvt = 'S', trn1), each type: the same Profile (every field) and output bits
// plainly, with the call's frees quarantined, with every freed block reused, and after heap traffic.
// cgesvd's modeled time moved between identical bench runs (10.776 / 10.755 ms on trn1): heap
// temporaries on its path that the trace records reused one another's bytes (false dependencies in
// the cost model; docs/trnsolver.md "Session 24, heap-dependent modeled time").
TEST(HeapHistory, GesvdProfilesIndependentOfHeapReuse) {
  {
    SCOPED_TRACE("cgesvd");
    heap_history::expect_history_independent([] { return gesvd_bits<std::complex<float>>(128, 96); });
    // A fresh thread (its own, empty scratch stack) gives the same bits too.
    const std::string here = gesvd_bits<std::complex<float>>(128, 96);
    std::string fresh;
    std::thread([&] { fresh = gesvd_bits<std::complex<float>>(128, 96); }).join();
    EXPECT_EQ(fresh, here) << "fresh thread";
  }
  {
    SCOPED_TRACE("zgesvd");
    heap_history::expect_history_independent([] { return gesvd_bits<std::complex<double>>(128, 96); });
  }
  {
    SCOPED_TRACE("sgesvd");
    heap_history::expect_history_independent([] { return gesvd_bits<float>(128, 96); });
  }
  {
    SCOPED_TRACE("dgesvd");
    heap_history::expect_history_independent([] { return gesvd_bits<double>(128, 96); });
  }
}
