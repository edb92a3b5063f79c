// Host round trips in trnblas profiles (#26, docs/cost-model.md section 7): every fp64 / complex-fp64
// step that runs on the host CPU is one recorded host step whose flops and bytes follow from the
// call's shape (the formulas below are written out independently of the library's code); fp32
// routines, which run on the engines, record none.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <limits>
#include <cstring>
#include <cmath>
#include <random>
#include <string_view>
#include <vector>

#include "trn/blas/level12.hpp"
#include "trn/blas/level3.hpp"
#include "trn/core/host_step.hpp"
#include "blas_test_util.hpp"

namespace {

namespace tb = trn::blas;

// The Ozaki scheme (and the fp64 slice pairs) at every size: small products otherwise run as Dot2 on
// GpSimdE (trnblas/src/ozaki.hpp, gemm_dot2; tested in test_trnblas_ozaki, TrnblasDot2.*).
tb::Settings ozaki_only() {
  tb::Settings s;
  s.dgemm_dot2_max_macs = 0;
  return s;
}
using cd = std::complex<double>;
using cf = std::complex<float>;

// The host steps of a trace recorded under one name: count, declared flops, bytes each way.
struct Named {
  std::int64_t steps = 0;
  double flops = 0, to_host = 0, back = 0;
};
Named named(const trn::Trace& t, std::string_view name) {
  Named r;
  for (const trn::Instruction& ins : t.instructions) {
    if (ins.opcode != trn::Opcode::host_compute || trn::host_step_name(ins.host_label) != name) continue;
    ++r.steps;
    r.flops += ins.declared_cycles;
    r.to_host += static_cast<double>(ins.bytes_read);
    r.back += static_cast<double>(ins.bytes_written);
  }
  return r;
}

// Expects `steps` steps named `name` with these totals, and the profile's host part to count them.
void expect_steps(const tb::CallReport& r, std::string_view name, std::int64_t steps, double flops, double to_host,
                  double back, const char* what) {
  const Named got = named(r.trace, name);
  EXPECT_EQ(got.steps, steps) << what << " " << name;
  EXPECT_DOUBLE_EQ(got.flops, flops) << what << " " << name;
  EXPECT_DOUBLE_EQ(got.to_host, to_host) << what << " " << name;
  EXPECT_DOUBLE_EQ(got.back, back) << what << " " << name;
  EXPECT_GE(r.profile.host_steps, steps) << what;
  EXPECT_GT(r.profile.host_roundtrip_ns, 0.0) << what;
  EXPECT_GE(r.profile.host_flops, flops) << what;
  EXPECT_GE(r.profile.total_ns, r.profile.host_critical_ns) << what;
}
void expect_none(const tb::CallReport& r, const char* what) {
  EXPECT_EQ(r.profile.host_steps, 0) << what;
  EXPECT_EQ(r.profile.host_roundtrip_ns, 0.0) << what;
  EXPECT_EQ(r.trace.host_steps, 0) << what;
}

template <class T>
std::vector<T> values(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> v(n);
  for (T& x : v) {
    if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(u(g));
    } else {
      const double re = u(g), im = u(g);
      x = T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(im));
    }
  }
  return v;
}

constexpr double D = 8, Z = 16;  // bytes per fp64 / complex-fp64 element

TEST(BlasHostSteps, DoubleLevel1IsOneRoundTripPerCall) {
  const tb::Settings s = ozaki_only();
  const std::int64_t n = 37;
  auto x = values<double>(3 * n, 1), y = values<double>(3 * n, 2);
  tb::CallReport r;
  tb::axpy(s, n, 0.5, x.data(), 2, y.data(), -1, &r);
  expect_steps(r, "trnblas.daxpy.host", 1, 2 * n, 2 * D * n, D * n, "daxpy");
  tb::scal(s, n, 0.5, x.data(), 3, &r);
  expect_steps(r, "trnblas.dscal.host", 1, n, D * n, D * n, "dscal");
  tb::rot(s, n, x.data(), 1, y.data(), 2, 0.6, 0.8, &r);
  expect_steps(r, "trnblas.drot.host", 1, 6 * n, 2 * D * n, 2 * D * n, "drot");
  const double param[5] = {-1.0, 0.5, 0.25, -0.25, 2.0};
  tb::rotm(s, n, x.data(), 1, y.data(), 1, param, &r);
  expect_steps(r, "trnblas.drotm.host", 1, 6 * n, 2 * D * n, 2 * D * n, "drotm");
  tb::iamax(s, n, x.data(), 2, &r);
  expect_steps(r, "trnblas.idamax.host", 1, 2 * n, D * n, 0, "idamax");
  tb::iamin(s, n, x.data(), 1, &r);
  expect_steps(r, "trnblas.idamin.host", 1, 2 * n, D * n, 0, "idamin");
  tb::nrm2(s, n, x.data(), 1, &r);
  expect_steps(r, "trnblas.dnrm2.scale", 1, 3 * n + 1, D * n, D * n, "dnrm2");
  // The sum of squares runs as the fp64 slice pairs: one slicing and one fold round trip.
  EXPECT_EQ(named(r.trace, "trnblas.dvec.slice").steps, 1);
  EXPECT_EQ(named(r.trace, "trnblas.dvec.fold").steps, 1);
  EXPECT_EQ(named(r.trace, "trnblas.ozaki2.scale").steps, 0);
  tb::asum(s, n, x.data(), 1, &r);
  expect_steps(r, "trnblas.dasum.abs", 1, n, D * n, D * n, "dasum");
}

TEST(BlasHostSteps, ComplexDoubleLevel1IsOneRoundTripPerCall) {
  const tb::Settings s = ozaki_only();
  const std::int64_t n = 29;
  auto x = values<cd>(2 * n, 3), y = values<cd>(2 * n, 4);
  tb::CallReport r;
  tb::axpy(s, n, cd(0.5, -0.25), x.data(), 1, y.data(), 2, &r);
  expect_steps(r, "trnblas.zaxpy.host", 1, 8 * n, 2 * Z * n, Z * n, "zaxpy");
  tb::scal(s, n, cd(0.5, 0.5), x.data(), 1, &r);
  expect_steps(r, "trnblas.zscal.host", 1, 6 * n, Z * n, Z * n, "zscal");
  tb::scal(s, n, 0.5, x.data(), 1, &r);  // zdscal: dscal on each plane
  expect_steps(r, "trnblas.dscal.host", 2, 2 * n, 2 * D * n, 2 * D * n, "zdscal");
  tb::rot(s, n, x.data(), 1, y.data(), 1, 0.6, cd(0.0, 0.8), &r);
  expect_steps(r, "trnblas.zrot.host", 1, 20 * n, 2 * Z * n, 2 * Z * n, "zrot");
  tb::iamax(s, n, x.data(), 1, &r);
  expect_steps(r, "trnblas.izamax.host", 1, 4 * n, Z * n, 0, "izamax");
}

// ZDOTU/ZDOTC pack [xr, +-xi] and [yr -yi; yi yr] for one Ozaki DGEMM on the host (gathers and sign
// flips): one round trip, x and y there (16n each), A (16n) and B (32n) back, no flops. The strided
// complex asum/nrm2 stage their vector contiguously with DMAs (exact), no host step: the same bits as
// the contiguous call.
TEST(BlasHostSteps, ComplexDotPackingIsOneRoundTripAndStridedGathersAreDma) {
  const tb::Settings s = ozaki_only();
  const std::int64_t n = 23;
  auto x = values<cd>(3 * n, 11), y = values<cd>(2 * n, 12);
  tb::CallReport r;
  for (bool conj : {false, true}) {
    const cd got = tb::dot(s, n, x.data(), 3, y.data(), -2, conj, &r);
    expect_steps(r, "trnblas.zdot.pack", 1, 0, 2 * Z * n, 3 * Z * n, conj ? "zdotc" : "zdotu");
    cd want = 0;  // an fp64 reference with a loose bound (the Ozaki product is accurate to ~u)
    for (std::int64_t i = 0; i < n; ++i) {
      const cd xi = x[static_cast<std::size_t>(3 * i)], yi = y[static_cast<std::size_t>(2 * (n - 1 - i))];
      want += (conj ? std::conj(xi) : xi) * yi;
    }
    EXPECT_LT(std::abs(got - want), 1e-12 * n) << conj;
  }
  std::vector<cd> packed(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) packed[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(3 * i)];
  tb::CallReport rc;
  const double zs = tb::asum(s, n, x.data(), 3, &r), zs1 = tb::asum(s, n, packed.data(), 1, &rc);
  EXPECT_EQ(zs, zs1);
  EXPECT_GT(r.profile.instructions[static_cast<int>(trn::Engine::dma)],
            rc.profile.instructions[static_cast<int>(trn::Engine::dma)]);
  EXPECT_EQ(r.profile.host_steps, rc.profile.host_steps);
  const double zn = tb::nrm2(s, n, x.data(), 3, &r), zn1 = tb::nrm2(s, n, packed.data(), 1, &rc);
  EXPECT_EQ(zn, zn1);
  EXPECT_EQ(r.profile.host_steps, rc.profile.host_steps);
  auto cx = values<cf>(3 * n, 13);
  std::vector<cf> cpacked(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) cpacked[static_cast<std::size_t>(i)] = cx[static_cast<std::size_t>(3 * i)];
  EXPECT_EQ(tb::asum(s, n, cx.data(), 3, &r), tb::asum(s, n, cpacked.data(), 1, &rc));
  expect_none(r, "scasum strided");
  EXPECT_GT(r.profile.instructions[static_cast<int>(trn::Engine::dma)],
            rc.profile.instructions[static_cast<int>(trn::Engine::dma)]);
  EXPECT_EQ(tb::nrm2(s, n, cx.data(), 3, &r), tb::nrm2(s, n, cpacked.data(), 1, &rc));
  expect_none(r, "scnrm2 strided");
}

// The packed and band Level 2 routines stage their stored triangle densely by DMA (one segment per
// column, bit copies): no host step, more DMA instructions than the dense routine, the same bits.
TEST(BlasHostSteps, PackedAndBandStagingIsDma) {
  const tb::Settings s = ozaki_only();
  const std::int64_t n = 37, k = 5;
  auto a = values<float>(static_cast<std::size_t>(n * n), 90), x = values<float>(static_cast<std::size_t>(n), 91);
  std::vector<float> ap, band(static_cast<std::size_t>((k + 1) * n), 0.0f), lower(a.size(), 0.0f), lband(a.size(), 0.0f);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j; i < n; ++i) {  // lower triangle: packed column by column, and its band
      ap.push_back(a[static_cast<std::size_t>(i + j * n)]);
      lower[static_cast<std::size_t>(i + j * n)] = a[static_cast<std::size_t>(i + j * n)];
      if (i - j <= k) {
        band[static_cast<std::size_t>((i - j) + j * (k + 1))] = a[static_cast<std::size_t>(i + j * n)];
        lband[static_cast<std::size_t>(i + j * n)] = a[static_cast<std::size_t>(i + j * n)];
      }
    }
  const int dma = static_cast<int>(trn::Engine::dma);
  tb::CallReport rp, rd;
  std::vector<float> yp(static_cast<std::size_t>(n), 0.5f), yd = yp;
  tb::spmv(s, tb::Uplo::lower, n, 1.5f, ap.data(), x.data(), 1, 0.25f, yp.data(), 1, &rp);
  tb::symv(s, tb::Uplo::lower, n, 1.5f, lower.data(), n, x.data(), 1, 0.25f, yd.data(), 1, &rd);
  EXPECT_EQ(yp, yd);
  expect_none(rp, "sspmv");
  expect_none(rd, "ssymv");  // the mirror of the stored triangle: strided DMAs (issue #26)
  EXPECT_GT(rp.profile.instructions[dma], rd.profile.instructions[dma]);
  std::vector<float> xb = x, xd = x;
  tb::tbmv(s, tb::Uplo::lower, tb::Op::T, false, n, k, band.data(), k + 1, xb.data(), 1, &rp);
  tb::trmv(s, tb::Uplo::lower, tb::Op::T, false, n, lband.data(), n, xd.data(), 1, &rd);
  EXPECT_EQ(xb, xd);
  expect_none(rp, "stbmv");
  expect_none(rd, "strmv");
  // Since session 19 stbmv's product runs on its band staging (one DMA in, one out) instead of
  // staging that copy again as strmv stages its triangle: as many DMAs as strmv, not more.
  EXPECT_GE(rp.profile.instructions[dma], rd.profile.instructions[dma]);
  // n = 37 rows: the band is staged by one DMA per column (level2.cpp stage_band_by_runs, session 21),
  // not by affine_selects (below kBandRunsMinRows = 32 rows): no GpSimdE instruction, a DMA per column.
  EXPECT_EQ(rp.profile.instructions[static_cast<int>(trn::Engine::gpsimd)], 0);
  EXPECT_GE(rp.profile.instructions[dma], n);
  // GBMV's band staging: DMAs too; CHEMV's staging (conjugated mirror, real diagonal) one round trip.
  std::vector<float> yg(static_cast<std::size_t>(n), 0.5f);
  tb::gbmv(s, tb::Op::N, n, n, k, 0, 1.0f, band.data(), k + 1, x.data(), 1, 0.0f, yg.data(), 1, &rp);
  expect_none(rp, "sgbmv");
  const auto ac = values<cf>(static_cast<std::size_t>(n * n), 92), xc = values<cf>(static_cast<std::size_t>(n), 93);
  std::vector<cf> yc(static_cast<std::size_t>(n), cf(0.5f, 0.0f));
  tb::hemv(s, tb::Uplo::lower, n, cf(1.0f, 0.0f), ac.data(), n, xc.data(), 1, cf(0.0f, 0.0f), yc.data(), 1, &rp);
  const double nn = static_cast<double>(n);
  expect_steps(rp, "trnblas.hemv.stage", 1, 0, 8.0 * nn * (nn + 1) / 2, 8.0 * nn * nn, "chemv");
  std::vector<float> ap2 = ap, full = lower;
  tb::spr(s, tb::Uplo::lower, n, 0.75f, x.data(), 1, ap2.data(), &rp);
  tb::syr(s, tb::Uplo::lower, n, 0.75f, x.data(), 1, full.data(), n, &rd);
  expect_none(rp, "sspr");
  for (std::int64_t j = 0, q = 0; j < n; ++j)
    for (std::int64_t i = j; i < n; ++i, ++q)
      ASSERT_EQ(ap2[static_cast<std::size_t>(q)], full[static_cast<std::size_t>(i + j * n)]) << i << " " << j;
}

TEST(BlasHostSteps, DoubleTrsvSolvesEachDiagonalBlockOnTheHost) {
  const tb::Settings s = ozaki_only();
  const std::int64_t n = 70;  // diagonal blocks of 32, 32 and 6 columns
  auto a = values<double>(static_cast<std::size_t>(n * n), 5);
  for (std::int64_t i = 0; i < n; ++i) a[static_cast<std::size_t>(i + i * n)] += 4.0;
  auto x = values<double>(static_cast<std::size_t>(n), 6);
  tb::CallReport r;
  tb::trsv(s, tb::Uplo::lower, tb::Op::N, false, n, a.data(), n, x.data(), 1, &r);
  // A w-column block: w^2 flops (w divisions, w (w - 1) multiply-adds); its triangle and w entries
  // of x to the host, w entries back.
  double flops = 0, up = 0, back = 0;
  for (const std::int64_t w : {32, 32, 6}) {
    flops += static_cast<double>(w * w);
    up += D * static_cast<double>(w * (w + 1) / 2 + w);
    back += D * static_cast<double>(w);
  }
  expect_steps(r, "trnblas.dtrsv.diag_solve", 3, flops, up, back, "dtrsv");
  tb::trsv(s, tb::Uplo::upper, tb::Op::T, true, n, a.data(), n, x.data(), 1, &r);
  expect_steps(r, "trnblas.dtrsv.diag_solve", 3, flops - 70.0, up, back, "dtrsv unit");
}

TEST(BlasHostSteps, ComplexDoubleTrsvAndGemvRecordTheirHostParts) {
  const tb::Settings s = ozaki_only();
  const std::int64_t n = 20;
  auto a = values<cd>(static_cast<std::size_t>(n * n), 7);
  for (std::int64_t i = 0; i < n; ++i) a[static_cast<std::size_t>(i + i * n)] += 4.0;
  auto x = values<cd>(static_cast<std::size_t>(n), 8);
  tb::CallReport r;
  tb::trsv(s, tb::Uplo::lower, tb::Op::N, false, false, n, a.data(), n, x.data(), 1, &r);
  // The diagonal scaling: per row a reciprocal (9) and n + 1 complex products (6 each).
  expect_steps(r, "trnblas.ztrsv.unit_rows", 1, static_cast<double>(n * (9 + 6 * (n + 1))), Z * (n * n + n),
               Z * (n * n + n), "ztrsv");
  // Then the unit real representation (2n = 40: blocks of 32 and 8, w (w - 1) flops each).
  EXPECT_EQ(named(r.trace, "trnblas.dtrsv.diag_solve").steps, 2);
  EXPECT_DOUBLE_EQ(named(r.trace, "trnblas.dtrsv.diag_solve").flops, 32.0 * 31 + 8.0 * 7);

  const std::int64_t m = 30;
  auto A = values<cd>(static_cast<std::size_t>(m * n), 9), xv = values<cd>(static_cast<std::size_t>(n), 10),
       yv = values<cd>(static_cast<std::size_t>(m), 11);
  tb::gemv(s, tb::Op::N, false, m, n, cd(1.0, 0.5), A.data(), m, xv.data(), 1, cd(0.5, 0.0), yv.data(), 1, &r);
  expect_steps(r, "trnblas.zgemv.epilogue", 1, 14.0 * m, 2 * D * m + Z * m, Z * m, "zgemv");
  tb::gemv(s, tb::Op::T, false, m, n, cd(1.0, 0.5), A.data(), m, yv.data(), 1, cd(0.0), xv.data(), 1, &r);
  expect_steps(r, "trnblas.zgemv.epilogue", 1, 6.0 * n, 2 * D * n, Z * n, "zgemv beta 0");
}

TEST(BlasHostSteps, DoubleGeamAndDgmmAreOneRoundTrip) {
  const tb::Settings s = ozaki_only();
  const std::int64_t m = 20, n = 30;
  auto A = values<double>(static_cast<std::size_t>(m * n), 12), B = values<double>(A.size(), 13);
  std::vector<double> C(A.size());
  tb::CallReport r;
  tb::dgeam(s, tb::Op::T, tb::Op::N, m, n, 2.0, A.data(), n, -1.0, B.data(), m, C.data(), m, &r);
  expect_steps(r, "trnblas.dgeam.host", 1, 3.0 * m * n, 2 * D * m * n, D * m * n, "dgeam");
  tb::dgeam(s, tb::Op::N, tb::Op::N, m, n, 2.0, A.data(), m, 0.0, B.data(), m, C.data(), m, &r);
  expect_steps(r, "trnblas.dgeam.host", 1, 1.0 * m * n, D * m * n, D * m * n, "dgeam beta 0");
  auto Az = values<cd>(static_cast<std::size_t>(m * n), 14), Bz = values<cd>(Az.size(), 15);
  std::vector<cd> Cz(Az.size());
  tb::zgeam(s, tb::COp::C, tb::COp::N, m, n, cd(1, 1), Az.data(), n, cd(0, 1), Bz.data(), m, Cz.data(), m, &r);
  expect_steps(r, "trnblas.zgeam.host", 1, 14.0 * m * n, 2 * Z * m * n, Z * m * n, "zgeam");
  auto xd = values<double>(static_cast<std::size_t>(n), 16);
  tb::ddgmm(s, tb::Side::right, m, n, A.data(), m, xd.data(), 1, C.data(), m, &r);
  expect_steps(r, "trnblas.ddgmm.host", 1, 1.0 * m * n, D * (m * n + n), D * m * n, "ddgmm");
  auto xz = values<cd>(static_cast<std::size_t>(m), 17);
  tb::zdgmm(s, tb::Side::left, m, n, Az.data(), m, xz.data(), -1, Cz.data(), m, &r);
  expect_steps(r, "trnblas.zdgmm.host", 1, 6.0 * m * n, Z * (m * n + m), Z * m * n, "zdgmm");
}

// Independent count of unblocked LU's fp64 work on one n x n matrix (pivoting): sum over the
// columns of the pivot scan (n - k entries), the n - k - 1 divisions, the (n - k - 1)^2 updates.
double lu_flops(std::int64_t n, double scan, double div, double update) {
  const auto N = static_cast<double>(n);
  return scan * N * (N + 1) / 2 + div * N * (N - 1) / 2 + update * (N - 1) * N * (2 * N - 1) / 6;
}

// The C API's last profile: exactly one host round trip with these flops and bytes (both ways).
void expect_one_step(trnblasHandle_t h, double flops, double bytes, const char* what) {
  trnProfile_t p;
  ASSERT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS) << what;
  EXPECT_EQ(p.host_steps, 1) << what;
  EXPECT_DOUBLE_EQ(p.host_flops, flops) << what;
  EXPECT_DOUBLE_EQ(p.host_bytes, bytes) << what;
  EXPECT_GT(p.host_roundtrip_ns, 0.0) << what;
  EXPECT_EQ(p.instructions, 0) << what;  // nothing else runs
}

TEST(BlasHostSteps, DoubleBatchedLuIsOneRoundTripPerBatch) {
  blastest::Handle h;
  const int n = 8, batch = 5, nrhs = 3;
  const double N = n, B = batch;
  std::vector<std::vector<double>> mats, rhs;
  std::vector<double*> ptr, bptr;
  for (int b = 0; b < batch; ++b) {
    mats.push_back(values<double>(static_cast<std::size_t>(n * n), 20 + static_cast<unsigned>(b)));
    rhs.push_back(values<double>(static_cast<std::size_t>(n * nrhs), 40 + static_cast<unsigned>(b)));
    ptr.push_back(mats.back().data());
    bptr.push_back(rhs.back().data());
  }
  std::vector<int> piv(static_cast<std::size_t>(n * batch)), info(static_cast<std::size_t>(batch));
  ASSERT_EQ(trnblasDgetrfBatched(h, n, ptr.data(), n, piv.data(), info.data(), batch), TRNBLAS_STATUS_SUCCESS);
  // A to the host; A, the pivots and info back.
  expect_one_step(h, B * lu_flops(n, 1, 1, 2), D * N * N * B + D * N * N * B + 4 * N * B + 4 * B, "dgetrfBatched");
  std::vector<const double*> cptr(ptr.begin(), ptr.end());
  int status = 0;
  ASSERT_EQ(trnblasDgetrsBatched(h, TRNBLAS_OP_N, n, nrhs, cptr.data(), n, piv.data(), bptr.data(), n, &status, batch),
            TRNBLAS_STATUS_SUCCESS);
  // A, the pivots and B to the host, B back: 2 n^2 flops per right-hand side.
  expect_one_step(h, 2 * N * N * nrhs * B, D * N * N * B + 4 * N * B + 2 * D * N * nrhs * B, "dgetrsBatched");

  std::vector<std::vector<trnDoubleComplex>> zm;
  std::vector<trnDoubleComplex*> zp;
  for (int b = 0; b < batch; ++b) {
    const std::vector<cd> v = values<cd>(static_cast<std::size_t>(n * n), 60 + static_cast<unsigned>(b));
    zm.emplace_back(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) zm.back()[i] = {v[i].real(), v[i].imag()};
    zp.push_back(zm.back().data());
  }
  ASSERT_EQ(trnblasZgetrfBatched(h, n, zp.data(), n, piv.data(), info.data(), batch), TRNBLAS_STATUS_SUCCESS);
  expect_one_step(h, B * lu_flops(n, 3, 11, 8), 2 * Z * N * N * B + 4 * N * B + 4 * B, "zgetrfBatched");
  ASSERT_EQ(trnblasDgetrfBatched(h, n, ptr.data(), n, nullptr, info.data(), batch), TRNBLAS_STATUS_SUCCESS);
  expect_one_step(h, B * lu_flops(n, 0, 1, 2), 2 * D * N * N * B + 4 * B, "dgetrfBatched without pivoting");
}

TEST(BlasHostSteps, ZgemmCombinationsAreHostRoundTrips) {
  const tb::Settings s = ozaki_only();
  const std::int64_t m = 12, n = 10, k = 9;
  auto A = values<cd>(static_cast<std::size_t>(m * k), 70), B = values<cd>(static_cast<std::size_t>(k * n), 71),
       C = values<cd>(static_cast<std::size_t>(m * n), 72);
  tb::CallReport r;
  // 4M with complex scalars: the product P (2mn reals) and C to the host, C back; 6 + 8 per element.
  tb::zgemm(s, tb::ComplexAlgo::four_m, tb::COp::N, tb::COp::N, m, n, k, cd(1, 2), A.data(), m, B.data(), k, cd(0, 1),
            C.data(), m, &r);
  expect_steps(r, "trnblas.zgemm.epilogue", 1, 14.0 * m * n, 2 * D * m * n + Z * m * n, Z * m * n, "zgemm 4M");
  // 4M with real scalars: alpha and beta in the Ozaki GEMM's epilogue, no complex epilogue.
  tb::zgemm(s, tb::ComplexAlgo::four_m, tb::COp::N, tb::COp::N, m, n, k, cd(1, 0), A.data(), m, B.data(), k, cd(0, 0),
            C.data(), m, &r);
  EXPECT_EQ(named(r.trace, "trnblas.zgemm.epilogue").steps, 0);
  // 3M: the operand sums (mk + kn adds), then T1, T2, T3 (3mn reals) and C: 9 + 8 per element.
  tb::zgemm(s, tb::ComplexAlgo::three_m, tb::COp::N, tb::COp::C, m, n, k, cd(1, 0), A.data(), m, B.data(), n,
            cd(0.5, 0), C.data(), m, &r);
  expect_steps(r, "trnblas.zgemm3m.sums", 1, static_cast<double>(m * k + k * n), 2 * D * (m * k + k * n),
               D * (m * k + k * n), "zgemm3m sums");
  expect_steps(r, "trnblas.zgemm.epilogue", 1, 17.0 * m * n, 3 * D * m * n + Z * m * n, Z * m * n, "zgemm3m");
}

TEST(BlasHostSteps, Int8GemmEpiloguesAreHostRoundTrips) {
  const tb::Settings s = ozaki_only();
  const std::int64_t m = 16, n = 12, k = 2100;  // three K chunks of <= 1024
  std::vector<std::int8_t> A(static_cast<std::size_t>(m * k)), B(static_cast<std::size_t>(k * n));
  for (std::size_t i = 0; i < A.size(); ++i) A[i] = static_cast<std::int8_t>(static_cast<int>(i % 17) - 8);
  for (std::size_t i = 0; i < B.size(); ++i) B[i] = static_cast<std::int8_t>(static_cast<int>(i % 13) - 6);
  std::vector<std::int32_t> C(static_cast<std::size_t>(m * n), 3);
  tb::CallReport r;
  tb::gemm_i8(s, tb::Op::N, tb::Op::N, m, n, k, 2, A.data(), m, B.data(), k, 1, C.data(), m, &r);
  // Three fp32 partial blocks and C to the host, C back; 3 chunk adds + alpha, beta, sum per output.
  expect_steps(r, "trnblas.gemm_i8.epilogue", 1, 6.0 * m * n, 3 * 4.0 * m * n + 4.0 * m * n, 4.0 * m * n, "gemm_i8");
  std::vector<std::int8_t> C8(static_cast<std::size_t>(m * n), 1);
  tb::gemm_i8_to_i8(s, tb::Op::N, tb::Op::N, m, n, 1000, 0.01f, A.data(), m, B.data(), k, 0.0f, C8.data(), m, &r);
  expect_steps(r, "trnblas.gemm_i8_to_i8.epilogue", 1, 4.0 * m * n, 4.0 * m * n, 1.0 * m * n, "gemm_i8_to_i8");
  std::vector<float> Cf(static_cast<std::size_t>(m * n));
  tb::gemm_i8_f32(s, tb::Op::N, tb::Op::N, m, n, k, 1.0f, A.data(), m, B.data(), k, 0.0f, Cf.data(), m, &r);
  expect_none(r, "gemm_i8_f32 (fp32 accumulation on the engines)");
}

TEST(BlasHostSteps, Fp32RoutinesRecordNone) {
  const tb::Settings s = ozaki_only();
  const std::int64_t n = 40;
  auto x = values<float>(static_cast<std::size_t>(n), 80), y = values<float>(static_cast<std::size_t>(n), 81);
  auto a = values<float>(static_cast<std::size_t>(n * n), 82);
  for (std::int64_t i = 0; i < n; ++i) a[static_cast<std::size_t>(i + i * n)] += 4.0f;
  tb::CallReport r;
  tb::axpy(s, n, 0.5f, x.data(), 1, y.data(), 1, &r);
  expect_none(r, "saxpy");
  tb::rot(s, n, x.data(), 1, y.data(), 1, 0.6f, 0.8f, &r);
  expect_none(r, "srot");
  tb::nrm2(s, n, x.data(), 1, &r);
  expect_none(r, "snrm2");
  tb::trsv(s, tb::Uplo::lower, tb::Op::N, false, n, a.data(), n, x.data(), 1, &r);
  expect_none(r, "strsv");
  std::vector<float> c(a.size());
  tb::sgeam(s, tb::Op::N, tb::Op::T, n, n, 1.0f, a.data(), n, 2.0f, a.data(), n, c.data(), n, &r);
  expect_none(r, "sgeam");
  auto xc = values<cf>(static_cast<std::size_t>(n), 83), yc = values<cf>(static_cast<std::size_t>(n), 84);
  auto ac = values<cf>(static_cast<std::size_t>(n * n), 85);
  tb::gemv(s, tb::Op::N, false, n, n, cf(1, 1), ac.data(), n, xc.data(), 1, cf(0.5f, 0), yc.data(), 1, &r);
  // CGEMV's arithmetic runs on the engines; its real representation [ar -ai; ai ar] is a host copy:
  // A (8n^2) and x (8n) there, the 2n x 2n real matrix (16n^2) and x back. At n = 40 (2n <= 128) the
  // product and the alpha/beta epilogue are one program (complex_gemv_one_program): that is the only
  // round trip. Beyond it (n = 70) the product's planes are split on the host between the two launches:
  // the product (8n) there, its planes (8n) back.
  EXPECT_EQ(r.profile.host_steps, 1) << "cgemv one program";
  expect_steps(r, "trnblas.complex_gemv.pack", 1, 0, 8.0 * n * n + 8.0 * n, 16.0 * n * n + 8.0 * n, "cgemv");
  {
    const std::int64_t n2 = 70;
    auto x2 = values<cf>(static_cast<std::size_t>(n2), 86), y2 = values<cf>(static_cast<std::size_t>(n2), 87);
    auto a2 = values<cf>(static_cast<std::size_t>(n2 * n2), 88);
    tb::gemv(s, tb::Op::N, false, n2, n2, cf(1, 1), a2.data(), n2, x2.data(), 1, cf(0.5f, 0), y2.data(), 1, &r);
    EXPECT_EQ(r.profile.host_steps, 2) << "cgemv two launches";
    expect_steps(r, "trnblas.complex_gemv.pack", 1, 0, 8.0 * n2 * n2 + 8.0 * n2, 16.0 * n2 * n2 + 8.0 * n2, "cgemv");
    expect_steps(r, "trnblas.complex_gemv.split", 1, 0, 8.0 * n2, 8.0 * n2, "cgemv");
  }
  std::vector<cf> cc(ac.size());
  tb::cgemm(s, tb::GemmMode::fp32, tb::ComplexAlgo::three_m, tb::COp::N, tb::COp::N, n, n, n, cf(1, 1), ac.data(), n,
            ac.data(), n, cf(0, 1), cc.data(), n, &r);
  expect_none(r, "cgemm3m");
}

// The C/Z triangular and rank-update routines that work on a dense copy stage it on the host: the
// stored elements there (dense or packed: n(n + 1)/2; band: n(k + 1) - k(k + 1)/2), the dense n x n
// copy back, no arithmetic (trnblas.complex_triangle.stage); the rank updates write the triangle
// back the same way (complex_rank.unstage). The C solves of n <= kComplexTrsvMaxN stage in one round
// trip (complex_trsv.stage: the stored elements and x there, the kernel's words back: unit 2n + 4n^2);
// above it TRSV's real form [er -ei; ei er] is one more round trip (E there, the 2n x 2n real matrix back).
TEST(BlasHostSteps, ComplexTriangleStagingIsOneRoundTrip) {
  const tb::Settings s = ozaki_only();
  const std::int64_t n = 24, k = 3, tri = n * (n + 1) / 2, band = n * (k + 1) - k * (k + 1) / 2;
  const double N = static_cast<double>(n), C = 8.0;  // bytes per complex float
  auto a = values<cf>(static_cast<std::size_t>(n * n), 90), x = values<cf>(static_cast<std::size_t>(n), 91);
  for (std::int64_t i = 0; i < n; ++i) a[static_cast<std::size_t>(i + i * n)] += cf(8.0f, 0.0f);
  tb::CallReport r;
  tb::trmv(s, tb::Uplo::lower, tb::Op::T, true, false, n, a.data(), n, x.data(), 1, &r);
  expect_steps(r, "trnblas.complex_triangle.stage", 1, 0, C * tri, C * N * N, "ctrmv");
  tb::tbmv(s, tb::Uplo::upper, tb::Op::N, false, true, n, k, a.data(), k + 1, x.data(), 1, &r);
  expect_steps(r, "trnblas.complex_triangle.stage", 1, 0, C * band, C * N * N, "ctbmv");
  tb::tpsv(s, tb::Uplo::lower, tb::Op::N, false, true, n, a.data(), x.data(), 1, &r);
  expect_steps(r, "trnblas.complex_trsv.stage", 1, 0, C * tri + C * N, 4.0 * (2.0 * N + 4.0 * N * N), "ctpsv");
  expect_steps(r, "trnblas.complex_trsv.real_form", 0, 0, 0, 0, "ctpsv");
  {
    const std::int64_t big = 64, big_tri = big * (big + 1) / 2;  // past kComplexTrsvMaxN: the general path
    const double B = static_cast<double>(big);
    auto ab = values<cf>(static_cast<std::size_t>(big * big), 94), xb = values<cf>(static_cast<std::size_t>(big), 95);
    tb::tpsv(s, tb::Uplo::lower, tb::Op::N, false, true, big, ab.data(), xb.data(), 1, &r);
    expect_steps(r, "trnblas.complex_triangle.stage", 1, 0, C * big_tri, C * B * B, "ctpsv 64");
    expect_steps(r, "trnblas.complex_trsv.real_form", 1, 0, C * B * B, 4.0 * B * B * 4.0, "ctpsv 64");
  }
  auto z = values<cd>(static_cast<std::size_t>(n * n), 92), zx = values<cd>(static_cast<std::size_t>(n), 93);
  tb::hpr(s, tb::Uplo::upper, n, 0.5, zx.data(), 1, z.data(), &r);
  expect_steps(r, "trnblas.complex_rank.stage", 1, 0, 16.0 * tri, 16.0 * N * N, "zhpr");
  expect_steps(r, "trnblas.complex_rank.unstage", 1, 0, 16.0 * tri, 16.0 * tri, "zhpr");
  tb::syr(s, tb::Uplo::lower, n, cf(0.5f, 0.25f), x.data(), 1, a.data(), n, &r);
  expect_steps(r, "trnblas.complex_rank.stage", 1, 0, C * tri, C * N * N, "csyr");
  expect_steps(r, "trnblas.complex_rank.unstage", 1, 0, C * tri, C * tri, "csyr");
}

// DCOPY/DSWAP and ZCOPY/ZSWAP move bits: DMAs (the float routines on the 32-bit halves), no host
// round trip, and the bits of every element (NaN payloads, -0, subnormals) unchanged.
TEST(BlasHostSteps, DoubleCopyAndSwapAreDmaWork) {
  const tb::Settings s = ozaki_only();
  const std::int64_t n = 41;
  auto x = values<double>(2 * n, 5), y = values<double>(3 * n, 6);
  x[0] = -0.0;
  x[2] = 4.9e-324;
  std::uint64_t payload = 0x7ff4000000001234ULL;  // a signalling NaN with a payload
  std::memcpy(&x[4], &payload, sizeof payload);
  auto want = y;
  for (std::int64_t i = 0; i < n; ++i) want[static_cast<std::size_t>(3 * (n - 1 - i))] = x[static_cast<std::size_t>(2 * i)];
  tb::CallReport r;
  tb::copy(s, n, x.data(), 2, y.data(), -3, &r);
  EXPECT_EQ(std::memcmp(y.data(), want.data(), want.size() * sizeof(double)), 0);
  expect_none(r, "dcopy");
  EXPECT_GT(r.profile.instructions[static_cast<int>(trn::Engine::dma)], 0);
  EXPECT_GT(r.profile.total_ns, 0.0);
  auto x2 = x, y2 = y;
  tb::swap(s, n, x2.data(), 2, y2.data(), 3, &r);
  for (std::int64_t i = 0; i < n; ++i) {
    EXPECT_EQ(std::memcmp(&x2[static_cast<std::size_t>(2 * i)], &y[static_cast<std::size_t>(3 * i)], 8), 0) << i;
    EXPECT_EQ(std::memcmp(&y2[static_cast<std::size_t>(3 * i)], &x[static_cast<std::size_t>(2 * i)], 8), 0) << i;
  }
  expect_none(r, "dswap");
  auto zx = values<cd>(n, 7), zy = values<cd>(n, 8);
  tb::copy(s, n, zx.data(), 1, zy.data(), 1, &r);
  EXPECT_EQ(zy, zx);
  expect_none(r, "zcopy");
  EXPECT_GT(r.profile.instructions[static_cast<int>(trn::Engine::dma)], 0);
}

// The Ozaki special-value fallback (outputs of a row/column with Inf or NaN recomputed as fp64 dot
// products) is a host step of 2k flops per recomputed output, recorded only when it runs; both schemes.
TEST(BlasHostSteps, OzakiSpecialValueFallbackIsAHostStep) {
  const std::int64_t m = 9, n = 7, k = 13;
  for (const auto scheme : {tb::OzakiScheme::crt, tb::OzakiScheme::slices}) {
    tb::Settings s = ozaki_only();
    s.ozaki_scheme = scheme;
    auto a = values<double>(static_cast<std::size_t>(m * k), 9), b = values<double>(static_cast<std::size_t>(k * n), 10);
    std::vector<double> c(static_cast<std::size_t>(m * n));
    tb::CallReport r;
    tb::dgemm(s, tb::Op::N, tb::Op::N, m, n, k, 1.0, a.data(), m, b.data(), k, 0.0, c.data(), m, &r);
    EXPECT_EQ(named(r.trace, "trnblas.ozaki.special_values").steps, 0);
    a[2 + 5 * m] = std::numeric_limits<double>::infinity();  // row 2 of A
    b[4 + 3 * k] = std::nan("");                             // column 3 of B
    tb::dgemm(s, tb::Op::N, tb::Op::N, m, n, k, 1.0, a.data(), m, b.data(), k, 0.0, c.data(), m, &r);
    // Row 2 (n outputs) and column 3 (m outputs), their common output once; all m rows of A are read
    // for column 3 and all n columns of B for row 2.
    const double outputs = n + m - 1;
    expect_steps(r, "trnblas.ozaki.special_values", 1, 2.0 * k * outputs, D * k * (m + n), 0, "special values");
    EXPECT_TRUE(std::isnan(c[2 + 3 * m]));
  }
}

// The lost-term fallback of Ozaki II (A = [1 t; t 1], B = [t 1; 1 t]: C_11 = 2t is lost by the
// balanced scaling) is a host step of 2k flops per recomputed output.
TEST(BlasHostSteps, OzakiLostTermFallbackIsAHostStep) {
  const double t = std::ldexp(1.0, -70);
  const std::vector<double> a = {1, t, t, 1}, b = {t, 1, 1, t};
  std::vector<double> c(4);
  tb::CallReport r;
  tb::dgemm(ozaki_only(), tb::Op::N, tb::Op::N, 2, 2, 2, 1.0, a.data(), 2, b.data(), 2, 0.0, c.data(), 2, &r);
  ASSERT_GT(r.ozaki_host_fallback, 0);
  const Named got = named(r.trace, "trnblas.ozaki2.lost_terms");
  EXPECT_EQ(got.steps, 1);
  EXPECT_DOUBLE_EQ(got.flops, 2.0 * 2 * static_cast<double>(r.ozaki_host_fallback));
  EXPECT_EQ(c[0], 2 * t);
}

}  // namespace
