// The narrow TRSM kernels' tiles as one allocation per memory (trsm_narrow_kernel.cpp, TileArena;
// session 25, host only): the first launch of a key allocates tile by tile and records the
// placements, later launches of the key slice one allocation at the recorded offsets. So the second
// of two identical calls (the sliced launch) must give the first's (tile by tile) output bits,
// trace records (every field; on-chip regions exact, HBM regions by extent) and modeled time:
// strsm and ctrsm (one and two 128-row blocks, both triangles, nrhs 1 and 3), the inverse form
// (trtri_newton, real and complex) and the batched span form (strsm_left_batch). The keys here are
// used by no other test of this binary, so each first call records.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../trace_records.hpp"
#include "blas_test_util.hpp"
#include "trn/blas/level3.hpp"
#include "trn/blas/narrow_trsm.hpp"

namespace {

namespace tb = trn::blas;
using cf = std::complex<float>;

void expect_same_records(const trn::Trace& a, const trn::Trace& b, const std::string& where) {
  ASSERT_EQ(a.instructions.size(), b.instructions.size()) << where;
  for (std::size_t i = 0; i < a.instructions.size(); ++i) {
    trntest::expect_same_record(a.instructions[i], b.instructions[i], where + " record " + std::to_string(i),
                                {.index = true, .hbm_by_extent = true});
    if (::testing::Test::HasFailure()) return;  // the first differing record is the message
  }
}

template <class T>
std::vector<T> triangle(int n, int ld, std::uint64_t seed) {
  const std::vector<float> f = blastest::uniform_f(2 * static_cast<std::size_t>(ld) * n, seed);
  std::vector<T> a(static_cast<std::size_t>(ld) * n);
  for (std::size_t i = 0; i < a.size(); ++i) {
    if constexpr (std::is_same_v<T, float>)
      a[i] = 0.25f * f[i];
    else
      a[i] = T(0.25f * f[2 * i], 0.25f * f[2 * i + 1]);
  }
  for (int i = 0; i < n; ++i) a[static_cast<std::size_t>(i + i * ld)] += T(3.0f);
  return a;
}

TEST(NarrowTrsmTiles, SlicedLaunchIsTheTileByTileLaunchRecordForRecord) {
  int checked = 0;
  for (const int order : {3, 37, 130})
    for (const int nrhs : {1, 3})
      for (const bool upper : {false, true}) {
        const std::string where = "order " + std::to_string(order) + " nrhs " + std::to_string(nrhs) + (upper ? " upper" : " lower");
        const int ld = order + 1;
        const std::vector<float> A = triangle<float>(order, ld, 5 + static_cast<std::uint64_t>(order));
        const std::vector<cf> Ac = triangle<cf>(order, ld, 9 + static_cast<std::uint64_t>(order));
        const std::vector<float> B0 = blastest::uniform_f(static_cast<std::size_t>(ld) * nrhs, 3);
        std::vector<cf> Bc0(B0.size());
        for (std::size_t i = 0; i < B0.size(); ++i) Bc0[i] = cf(B0[i], -0.5f * B0[i]);
        tb::Settings s;
        std::vector<float> B[2];
        std::vector<cf> Bc[2];
        tb::CallReport rep[2], repc[2];
        for (int call = 0; call < 2; ++call) {
          B[call] = B0;
          tb::strsm(s, tb::GemmMode::fp32, tb::Side::left, upper ? tb::Uplo::upper : tb::Uplo::lower, tb::Op::N,
                    tb::Diag::non_unit, order, nrhs, 0.5f, A.data(), ld, B[call].data(), ld, &rep[call]);
          Bc[call] = Bc0;
          tb::ctrsm(s, tb::GemmMode::fp32, tb::Side::left, upper ? tb::Uplo::upper : tb::Uplo::lower, tb::COp::C,
                    tb::Diag::non_unit, order, nrhs, cf(0.5f, 0.25f), Ac.data(), ld, Bc[call].data(), ld, &repc[call]);
        }
        ASSERT_GT(rep[0].trace.instructions.size(), 0u) << where;
        ASSERT_EQ(0, std::memcmp(B[0].data(), B[1].data(), B[0].size() * sizeof(float))) << where;
        ASSERT_EQ(0, std::memcmp(Bc[0].data(), Bc[1].data(), Bc[0].size() * sizeof(cf))) << where;
        expect_same_records(rep[0].trace, rep[1].trace, "strsm " + where);
        expect_same_records(repc[0].trace, repc[1].trace, "ctrsm " + where);
        ASSERT_EQ(rep[0].profile.total_ns, rep[1].profile.total_ns) << where;
        ASSERT_EQ(repc[0].profile.total_ns, repc[1].profile.total_ns) << where;
        checked += 2;
      }
  // The inverse form and the batched span form.
  for (const int n : {5, 140}) {
    const std::vector<float> T = triangle<float>(n, n, 21);
    const std::vector<cf> Tc = triangle<cf>(n, n, 22);
    std::vector<float> X[2];
    std::vector<cf> Xc[2];
    trn::TraceParts parts[2], partsc[2];
    for (int call = 0; call < 2; ++call) {
      X[call].assign(T.size(), 0.0f);
      Xc[call].assign(Tc.size(), cf(0.0f));
      ASSERT_TRUE(tb::trtri_newton(tb::Settings{}.launch_config(), true, false, n, T.data(), n, X[call].data(), n, parts[call]));
      ASSERT_TRUE(tb::trtri_newton(tb::Settings{}.launch_config(), false, false, n, Tc.data(), n, Xc[call].data(), n, partsc[call]));
    }
    ASSERT_EQ(0, std::memcmp(X[0].data(), X[1].data(), X[0].size() * sizeof(float))) << n;
    ASSERT_EQ(0, std::memcmp(Xc[0].data(), Xc[1].data(), Xc[0].size() * sizeof(cf))) << n;
    expect_same_records(std::move(parts[0]).join(), std::move(parts[1]).join(), "trtri " + std::to_string(n));
    expect_same_records(std::move(partsc[0]).join(), std::move(partsc[1]).join(), "ctrtri " + std::to_string(n));
    checked += 2;
  }
  {
    const int m = 19, batch = 3;
    std::vector<std::vector<float>> As, Bs[2];
    for (int k = 0; k < batch; ++k) As.push_back(triangle<float>(m, m, 30 + static_cast<std::uint64_t>(k)));
    trn::TraceParts parts[2];
    for (int call = 0; call < 2; ++call) {
      std::vector<const float*> ap;
      std::vector<float*> bp;
      for (int k = 0; k < batch; ++k) Bs[call].push_back(blastest::uniform_f(static_cast<std::size_t>(m) * 2, 40 + static_cast<std::uint64_t>(k)));
      for (int k = 0; k < batch; ++k) {
        ap.push_back(As[static_cast<std::size_t>(k)].data());
        bp.push_back(Bs[call][static_cast<std::size_t>(k)].data());
      }
      tb::strsm_left_batch(tb::Settings{}, tb::Uplo::lower, tb::Op::N, tb::Diag::non_unit, m, 2, 0.5f, ap.data(), m,
                           bp.data(), m, batch, parts[call]);
    }
    for (int k = 0; k < batch; ++k) ASSERT_EQ(Bs[0][static_cast<std::size_t>(k)], Bs[1][static_cast<std::size_t>(k)]) << k;
    expect_same_records(std::move(parts[0]).join(), std::move(parts[1]).join(), "strsm_left_batch");
    ++checked;
  }
  EXPECT_EQ(checked, 29);
}

}  // namespace
