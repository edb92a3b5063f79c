// The trnfft C API: cuFFT's enum values, argument checks (status, logged parameter position,
// outputs untouched), plan lifecycle, precision, description and profile, and the project's own C99
// walkthroughs of cuFFT-shaped call sequences (trnfft_c_walkthroughs.c, compiled as C) against FFTW double.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "fft_reference.hpp"
#include "trnfft.h"

extern "C" {
int trnfft_walkthrough_c2c_1d(int n, int batch, const trnfftComplex* in, trnfftComplex* fwd, trnfftComplex* back);
int trnfft_walkthrough_c2c_2d(int nx, int ny, const trnfftComplex* in, trnfftComplex* fwd, trnfftComplex* back);
int trnfft_walkthrough_r2c_c2r(int n, int batch, const trnfftReal* in, trnfftComplex* freq, trnfftReal* back);
int trnfft_walkthrough_c2c_3d(const int* dims, const trnfftComplex* in, trnfftComplex* fwd, trnfftComplex* back);
int trnfft_c_out_of_range(int* statuses);
}

namespace {

std::vector<std::string> g_log;
void capture(const char* msg) { g_log.emplace_back(msg); }

struct LogCapture {
  LogCapture() {
    g_log.clear();
    trnfftSetLoggerCallback(capture);
  }
  ~LogCapture() { trnfftSetLoggerCallback(nullptr); }
  bool saw(const std::string& s) const {
    for (const auto& m : g_log)
      if (m.find(s) != std::string::npos) return true;
    return false;
  }
};

TEST(TrnfftCApi, EnumValuesAreCufft) {
  EXPECT_EQ(TRNFFT_SUCCESS, 0);
  EXPECT_EQ(TRNFFT_INVALID_PLAN, 1);
  EXPECT_EQ(TRNFFT_INVALID_TYPE, 3);
  EXPECT_EQ(TRNFFT_INVALID_VALUE, 4);
  EXPECT_EQ(TRNFFT_INVALID_SIZE, 8);
  EXPECT_EQ(TRNFFT_NOT_SUPPORTED, 0x10);
  EXPECT_EQ(TRNFFT_R2C, 0x2a);
  EXPECT_EQ(TRNFFT_C2R, 0x2c);
  EXPECT_EQ(TRNFFT_C2C, 0x29);
  EXPECT_EQ(TRNFFT_D2Z, 0x6a);
  EXPECT_EQ(TRNFFT_Z2D, 0x6c);
  EXPECT_EQ(TRNFFT_Z2Z, 0x69);
  EXPECT_EQ(TRNFFT_FORWARD, -1);
  EXPECT_EQ(TRNFFT_INVERSE, 1);
  EXPECT_EQ(sizeof(trnfftComplex), 2 * sizeof(float));
  EXPECT_EQ(sizeof(trnfftDoubleComplex), 2 * sizeof(double));
  int v = 0;
  EXPECT_EQ(trnfftGetVersion(&v), TRNFFT_SUCCESS);
  EXPECT_EQ(v, TRNFFT_VERSION);
  EXPECT_EQ(trnfftGetVersion(nullptr), TRNFFT_INVALID_VALUE);
  EXPECT_STREQ(trnfftGetStatusName(TRNFFT_INVALID_PLAN), "TRNFFT_INVALID_PLAN");
  EXPECT_STREQ(trnfftGetStatusName(TRNFFT_NVSHMEM_FAILURE), "TRNFFT_NVSHMEM_FAILURE");
  EXPECT_STREQ(trnfftGetStatusName(static_cast<trnfftResult>(0x15)), "TRNFFT_UNKNOWN_STATUS");
}

// The fp32 bound of docs/trnfft.md "Bounds": max(2 x FFTW float's own error, 4 u32 log2 N).
double walkthrough_bound(const std::vector<trnfft_test::cf>& x, const std::vector<int>& dims, int batch,
                         const std::vector<trnfft_test::cd>& ref) {
  int points = 1;
  for (int d : dims) points *= d;
  return std::max(2 * trnfft_test::rel_l2(trnfft_test::fftwf_c2c(x, dims, batch, -1), ref),
                  4 * 0x1p-24 * std::max(1.0, std::log2(double(points))));
}

// C2C forward against FFTW double within the bound; the unnormalised inverse of it, over N, against the
// input within twice the bound (two transforms).
void check_c2c_walkthrough(const std::vector<trnfft_test::cf>& x, const std::vector<trnfft_test::cf>& fwd,
                           const std::vector<trnfft_test::cf>& back, const std::vector<int>& dims, int batch) {
  const auto ref = trnfft_test::fftw_c2c(x, dims, batch, -1);
  const double bound = walkthrough_bound(x, dims, batch, ref);
  EXPECT_LE(trnfft_test::rel_l2(fwd, ref), bound);
  int points = 1;
  for (int d : dims) points *= d;
  std::vector<trnfft_test::cf> scaled(back);
  for (auto& v : scaled) v /= float(points);
  EXPECT_LE(trnfft_test::rel_l2(scaled, x), 2 * bound);
}

// The C99 walkthroughs (trnfft_c_walkthroughs.c) on uniform [-0.5, 0.5) data of this test: 1-D C2C
// (n 16, batch 3, in place), 2-D C2C (6 x 10, out of place), R2C/C2R (n 12, batch 2), 3-D C2C (3 x 4 x 5
// through PlanMany). (The name is kept from the ported cuFFT samples these replace.)
TEST(TrnfftCApi, CufftSamplesReproduceTheirRoundTrips) {
  using trnfft_test::cf;
  auto c = [](std::vector<cf>& v) { return reinterpret_cast<trnfftComplex*>(v.data()); };
  {
    std::vector<cf> x = trnfft_test::uniform_complex(16 * 3, 41), fwd(x.size()), back(x.size());
    ASSERT_EQ(trnfft_walkthrough_c2c_1d(16, 3, c(x), c(fwd), c(back)), 0);
    check_c2c_walkthrough(x, fwd, back, {16}, 3);
  }
  {
    std::vector<cf> x = trnfft_test::uniform_complex(6 * 10, 42), fwd(x.size()), back(x.size());
    const auto x0 = x;
    ASSERT_EQ(trnfft_walkthrough_c2c_2d(6, 10, c(x), c(fwd), c(back)), 0);
    EXPECT_EQ(x, x0) << "out of place: the input is not modified";
    check_c2c_walkthrough(x, fwd, back, {6, 10}, 1);
  }
  {
    std::vector<cf> x = trnfft_test::uniform_complex(3 * 4 * 5, 43), fwd(x.size()), back(x.size());
    const int dims[3] = {3, 4, 5};
    ASSERT_EQ(trnfft_walkthrough_c2c_3d(dims, c(x), c(fwd), c(back)), 0);
    check_c2c_walkthrough(x, fwd, back, {3, 4, 5}, 1);
  }
  const int n = 12, batch = 2, half = n / 2 + 1;
  std::vector<float> r = trnfft_test::uniform_real(n * batch, 44), back(r.size());
  std::vector<cf> freq(static_cast<std::size_t>(half) * batch);
  ASSERT_EQ(trnfft_walkthrough_r2c_c2r(n, batch, r.data(), c(freq), back.data()), 0);
  const auto ref = trnfft_test::fftw_r2c(r, {n}, batch);
  std::vector<cf> rc(r.begin(), r.end());
  const double bound = walkthrough_bound(rc, {n}, batch, trnfft_test::fftw_c2c(rc, {n}, batch, -1));
  EXPECT_LE(trnfft_test::rel_l2(freq, ref), bound);
  std::vector<cf> scaled(back.begin(), back.end());
  for (auto& v : scaled) v /= float(n);
  EXPECT_LE(trnfft_test::rel_l2(scaled, rc), 2 * bound);
}

TEST(TrnfftCApi, BadPlanArguments) {
  LogCapture log;
  trnfftHandle h = 12345;
  EXPECT_EQ(trnfftPlan1d(&h, 0, TRNFFT_C2C, 1), TRNFFT_INVALID_SIZE);
  EXPECT_EQ(trnfftPlan1d(&h, -4, TRNFFT_C2C, 1), TRNFFT_INVALID_SIZE);
  EXPECT_EQ(trnfftPlan1d(&h, 1 << 28, TRNFFT_C2C, 1), TRNFFT_INVALID_SIZE);
  EXPECT_EQ(trnfftPlan1d(&h, 8, TRNFFT_C2C, 0), TRNFFT_INVALID_SIZE);
  EXPECT_EQ(trnfftPlan2d(&h, 8, 0, TRNFFT_C2C), TRNFFT_INVALID_SIZE);
  EXPECT_EQ(trnfftPlan1d(&h, 8, static_cast<trnfftType>(0x2b), 1), TRNFFT_INVALID_TYPE);
  {
    trnfftHandle z = TRNFFT_PLAN_NULL;
    ASSERT_EQ(trnfftCreate(&z), TRNFFT_SUCCESS);
    ASSERT_EQ(trnfftSetPlanPrecision(z, TRNFFT_PRECISION_BF16), TRNFFT_SUCCESS);
    size_t ws = 0;
    EXPECT_EQ(trnfftMakePlan1d(z, 8, TRNFFT_Z2Z, 1, &ws), TRNFFT_NOT_SUPPORTED) << "FP64 types run the Ozaki path only";
    EXPECT_TRUE(log.saw("NOT_SUPPORTED"));
    EXPECT_EQ(trnfftDestroy(z), TRNFFT_SUCCESS);
  }
  EXPECT_EQ(trnfftPlan1d(nullptr, 8, TRNFFT_C2C, 1), TRNFFT_INVALID_VALUE);
  int n[4] = {8, 8, 8, 8};
  EXPECT_EQ(trnfftPlanMany(&h, 4, n, nullptr, 1, 0, nullptr, 1, 0, TRNFFT_C2C, 1), TRNFFT_INVALID_SIZE);
  EXPECT_EQ(trnfftPlanMany(&h, 0, n, nullptr, 1, 0, nullptr, 1, 0, TRNFFT_C2C, 1), TRNFFT_INVALID_SIZE);
  EXPECT_EQ(trnfftPlanMany(&h, 1, nullptr, nullptr, 1, 0, nullptr, 1, 0, TRNFFT_C2C, 1), TRNFFT_INVALID_VALUE);
  // Inconsistent advanced layouts: embed smaller than the size, stride 0, negative dist.
  int nn[2] = {8, 10}, small[2] = {8, 9}, ok[2] = {8, 10};
  g_log.clear();
  EXPECT_EQ(trnfftPlanMany(&h, 2, nn, small, 1, 80, nullptr, 1, 0, TRNFFT_C2C, 1), TRNFFT_INVALID_VALUE);
  EXPECT_TRUE(log.saw("parameter number 3")) << (g_log.empty() ? "" : g_log.back());
  EXPECT_EQ(trnfftPlanMany(&h, 2, nn, ok, 0, 80, nullptr, 1, 0, TRNFFT_C2C, 1), TRNFFT_INVALID_VALUE);
  EXPECT_TRUE(log.saw("parameter number 4"));
  EXPECT_EQ(trnfftPlanMany(&h, 2, nn, nullptr, 1, 0, ok, 1, -1, TRNFFT_C2C, 1), TRNFFT_INVALID_VALUE);
  EXPECT_TRUE(log.saw("parameter number 8"));
  // R2C output embed must hold n/2 + 1 complex values.
  int r2c_out[2] = {8, 5};
  EXPECT_EQ(trnfftPlanMany(&h, 2, nn, nullptr, 1, 0, r2c_out, 1, 48, TRNFFT_R2C, 1), TRNFFT_INVALID_VALUE);
  r2c_out[1] = 6;
  trnfftHandle good = TRNFFT_PLAN_NULL;
  EXPECT_EQ(trnfftPlanMany(&good, 2, nn, nullptr, 1, 0, r2c_out, 1, 48, TRNFFT_R2C, 1), TRNFFT_SUCCESS);
  EXPECT_EQ(trnfftDestroy(good), TRNFFT_SUCCESS);
  EXPECT_EQ(h, 12345) << "the handle is not written on error";
  int st[3];
  ASSERT_EQ(trnfft_c_out_of_range(st), 3);
  EXPECT_EQ(st[0], TRNFFT_INVALID_TYPE);
  EXPECT_EQ(st[1], TRNFFT_PLAN_NULL);
  EXPECT_EQ(st[2], TRNFFT_INVALID_VALUE);
}

TEST(TrnfftCApi, HandlesAndLifecycle) {
  trnfftHandle h = TRNFFT_PLAN_NULL;
  EXPECT_EQ(trnfftDestroy(TRNFFT_PLAN_NULL), TRNFFT_INVALID_PLAN);
  EXPECT_EQ(trnfftDestroy(987654), TRNFFT_INVALID_PLAN);
  EXPECT_EQ(trnfftCreate(nullptr), TRNFFT_INVALID_VALUE);
  ASSERT_EQ(trnfftCreate(&h), TRNFFT_SUCCESS);
  std::vector<trnfftComplex> x(16, trnfftComplex{1, 2}), y(16, trnfftComplex{-3, -3});
  EXPECT_EQ(trnfftExecC2C(h, x.data(), y.data(), TRNFFT_FORWARD), TRNFFT_INVALID_PLAN) << "created, not made";
  size_t ws = 1;
  EXPECT_EQ(trnfftMakePlan1d(h, 16, TRNFFT_C2C, 1, &ws), TRNFFT_SUCCESS);
  size_t ws2 = 0;
  EXPECT_EQ(trnfftGetSize(h, &ws2), TRNFFT_SUCCESS);
  EXPECT_EQ(ws, ws2);
  EXPECT_EQ(trnfftGetSize(h, nullptr), TRNFFT_INVALID_VALUE);
  EXPECT_EQ(trnfftSetAutoAllocation(h, 0), TRNFFT_SUCCESS);
  EXPECT_EQ(trnfftSetWorkArea(h, nullptr), TRNFFT_SUCCESS);
  EXPECT_EQ(trnfftDestroy(h), TRNFFT_SUCCESS);
  EXPECT_EQ(trnfftDestroy(h), TRNFFT_INVALID_PLAN);
  EXPECT_EQ(trnfftExecC2C(h, x.data(), y.data(), TRNFFT_FORWARD), TRNFFT_INVALID_PLAN);
  EXPECT_EQ(trnfftSetStream(h, nullptr), TRNFFT_INVALID_PLAN);
  // Estimates: deterministic; zero for a four-step that runs resident in SBUF (4096 = 64 x 64),
  // non-zero for Bluestein (997: chirped copies padded to 2048).
  size_t e1 = 0, e2 = 0, e3 = 1;
  EXPECT_EQ(trnfftEstimate1d(997, TRNFFT_C2C, 2, &e1), TRNFFT_SUCCESS);
  EXPECT_EQ(trnfftEstimate1d(997, TRNFFT_C2C, 2, &e2), TRNFFT_SUCCESS);
  EXPECT_EQ(e1, e2);
  EXPECT_GT(e1, 0u);
  EXPECT_EQ(trnfftEstimate1d(4096, TRNFFT_C2C, 2, &e3), TRNFFT_SUCCESS);
  EXPECT_EQ(e3, 0u);
  EXPECT_EQ(trnfftEstimate1d(4096, TRNFFT_C2C, 2, nullptr), TRNFFT_INVALID_VALUE);
  EXPECT_EQ(trnfftEstimate1d(0, TRNFFT_C2C, 2, &e1), TRNFFT_INVALID_SIZE);
}

TEST(TrnfftCApi, BadExecArgumentsLeaveOutputUntouched) {
  LogCapture log;
  trnfftHandle h = TRNFFT_PLAN_NULL, r = TRNFFT_PLAN_NULL;
  ASSERT_EQ(trnfftPlan1d(&h, 16, TRNFFT_C2C, 2), TRNFFT_SUCCESS);
  ASSERT_EQ(trnfftPlan1d(&r, 16, TRNFFT_R2C, 2), TRNFFT_SUCCESS);
  std::vector<trnfftComplex> x(32, trnfftComplex{1, 2}), y(32, trnfftComplex{-3, -3});
  std::vector<float> real(32, 1.0f);
  EXPECT_EQ(trnfftExecC2C(h, nullptr, y.data(), TRNFFT_FORWARD), TRNFFT_INVALID_VALUE);
  EXPECT_TRUE(log.saw("parameter number 1"));
  EXPECT_EQ(trnfftExecC2C(h, x.data(), nullptr, TRNFFT_FORWARD), TRNFFT_INVALID_VALUE);
  EXPECT_EQ(trnfftExecC2C(h, x.data(), y.data(), 0), TRNFFT_INVALID_VALUE);
  EXPECT_TRUE(log.saw("parameter number 3"));
  int pos = -1;
  EXPECT_EQ(trnfftGetLastErrorParameter(h, &pos), TRNFFT_SUCCESS);
  EXPECT_EQ(pos, 3);
  EXPECT_EQ(trnfftExecR2C(h, real.data(), y.data()), TRNFFT_INVALID_TYPE);
  EXPECT_EQ(trnfftExecC2C(r, x.data(), y.data(), TRNFFT_FORWARD), TRNFFT_INVALID_TYPE);
  EXPECT_EQ(trnfftExecC2R(r, x.data(), real.data()), TRNFFT_INVALID_TYPE);
  std::vector<trnfftDoubleComplex> z(32);
  EXPECT_EQ(trnfftExecZ2Z(h, z.data(), z.data(), TRNFFT_FORWARD), TRNFFT_INVALID_TYPE);
  EXPECT_EQ(trnfftExecZ2Z(555555, z.data(), z.data(), TRNFFT_FORWARD), TRNFFT_INVALID_PLAN);
  for (const auto& v : y) {
    EXPECT_EQ(v.x, -3.0f);
    EXPECT_EQ(v.y, -3.0f);
  }
  for (float v : real) EXPECT_EQ(v, 1.0f);
  EXPECT_EQ(trnfftDestroy(h), TRNFFT_SUCCESS);
  EXPECT_EQ(trnfftDestroy(r), TRNFFT_SUCCESS);
}

TEST(TrnfftCApi, PrecisionDescriptionAndProfile) {
  const int n = 4096;
  trnfftHandle h = TRNFFT_PLAN_NULL;
  ASSERT_EQ(trnfftCreate(&h), TRNFFT_SUCCESS);
  EXPECT_EQ(trnfftSetPlanPrecision(h, TRNFFT_PRECISION_BF16X3), TRNFFT_SUCCESS);
  size_t ws = 0;
  ASSERT_EQ(trnfftMakePlan1d(h, n, TRNFFT_C2C, 1, &ws), TRNFFT_SUCCESS);
  trnfftPrecision_t p = TRNFFT_PRECISION_FP32;
  EXPECT_EQ(trnfftGetPlanPrecision(h, &p), TRNFFT_SUCCESS);
  EXPECT_EQ(p, TRNFFT_PRECISION_BF16X3);
  const auto x = trnfft_test::uniform_complex(n, 41);
  const auto ref = trnfft_test::fftw_c2c(x, {n}, 1, -1);
  std::vector<trnfftComplex> in(n), out(n);
  std::memcpy(static_cast<void*>(in.data()), x.data(), sizeof(trnfftComplex) * n);
  auto err = [&] {
    EXPECT_EQ(trnfftExecC2C(h, in.data(), out.data(), TRNFFT_FORWARD), TRNFFT_SUCCESS);
    std::vector<trnfft_test::cf> got(n);
    for (int i = 0; i < n; ++i) got[static_cast<std::size_t>(i)] = {out[static_cast<std::size_t>(i)].x, out[static_cast<std::size_t>(i)].y};
    return trnfft_test::rel_l2(got, ref);
  };
  const double e3 = err();
  EXPECT_LE(e3, 5e-6);
  EXPECT_EQ(trnfftSetPlanPrecision(h, TRNFFT_PRECISION_BF16), TRNFFT_SUCCESS);  // rebuilds the made plan
  const double e1 = err();
  EXPECT_GT(e1, 1e-4);
  EXPECT_EQ(trnfftSetPlanPrecision(h, TRNFFT_PRECISION_FP32), TRNFFT_SUCCESS);
  EXPECT_LE(err(), 1e-6);
  trnProfile_t prof{};
  EXPECT_EQ(trnfftGetLastProfile(h, &prof), TRNFFT_SUCCESS);
  EXPECT_GT(prof.total_ns, 0.0);
  EXPECT_GT(prof.busy_ns[TRN_ENGINE_TENSOR], 0.0);
  EXPECT_EQ(prof.target, TRN_TARGET_TRN1);
  EXPECT_EQ(trnfftGetLastProfile(h, nullptr), TRNFFT_INVALID_VALUE);
  char text[4096];
  EXPECT_EQ(trnfftGetPlanDescription(h, text, sizeof text), TRNFFT_SUCCESS);
  EXPECT_NE(std::strstr(text, "four-step 4096 = 64 x 64"), nullptr) << text;
  EXPECT_NE(std::strstr(text, "modeled trn1 time"), nullptr) << text;
  EXPECT_NE(std::strstr(text, "error bound"), nullptr) << text;
  char tiny[8] = "xxxxxxx";
  EXPECT_EQ(trnfftGetPlanDescription(h, tiny, sizeof tiny), TRNFFT_INVALID_VALUE);
  EXPECT_EQ(std::strlen(tiny), 7u);
  EXPECT_EQ(trnfftGetPlanDescription(h, nullptr, 10), TRNFFT_INVALID_VALUE);
  EXPECT_EQ(trnfftSetPlanPrecision(h, static_cast<trnfftPrecision_t>(7)), TRNFFT_INVALID_VALUE);
  EXPECT_EQ(trnfftSetPlanTarget(h, TRN_TARGET_TRN2), TRNFFT_SUCCESS);
  EXPECT_EQ(trnfftSetPlanTarget(h, static_cast<trnTarget_t>(0)), TRNFFT_INVALID_VALUE);
  EXPECT_EQ(trnfftSetPlanNumerics(h, TRN_NUMERICS_TRN1_MEASURED), TRNFFT_SUCCESS);
  EXPECT_EQ(trnfftDestroy(h), TRNFFT_SUCCESS);
}

// Regressions of the libFuzzer harness (tests/fuzz/fuzz_trnfft.cpp; reproducers in
// tests/fuzz/corpus/trnfft/regression-*).
// 1. The 1d/2d/3d entry points forwarded their enum-typed trnfftType parameter: an out-of-range int
//    from C was loaded through the C++ enum type (UBSan: invalid enum load). Every entry point now
//    reads the caller's int once; any int is INVALID_TYPE, nothing written.
TEST(TrnfftCApi, FuzzRegressionAnyIntTypeIsInvalidType) {
  int bad_int = 0x41000000;  // the fuzzer's value; not a trnfftType
  trnfftType bad;
  std::memcpy(&bad, &bad_int, sizeof bad);
  trnfftHandle h = 77;
  std::size_t ws = 99;
  EXPECT_EQ(trnfftPlan1d(&h, 8, bad, 1), TRNFFT_INVALID_TYPE);
  EXPECT_EQ(trnfftPlan2d(&h, 8, 8, bad), TRNFFT_INVALID_TYPE);
  EXPECT_EQ(trnfftPlan3d(&h, 2, 2, 2, bad), TRNFFT_INVALID_TYPE);
  EXPECT_EQ(h, 77);
  EXPECT_EQ(trnfftEstimate1d(8, bad, 1, &ws), TRNFFT_INVALID_TYPE);
  EXPECT_EQ(trnfftEstimate3d(2, 2, 2, bad, &ws), TRNFFT_INVALID_TYPE);
  ASSERT_EQ(trnfftCreate(&h), TRNFFT_SUCCESS);
  EXPECT_EQ(trnfftMakePlan1d(h, 8, bad, 1, &ws), TRNFFT_INVALID_TYPE);
  EXPECT_EQ(trnfftMakePlan2d(h, 8, 8, bad, &ws), TRNFFT_INVALID_TYPE);
  EXPECT_EQ(trnfftGetSize1d(h, 8, bad, 1, &ws), TRNFFT_INVALID_TYPE);
  EXPECT_EQ(ws, 99u);
  EXPECT_EQ(trnfftDestroy(h), TRNFFT_SUCCESS);
}

// 2. MakePlan's dry run (work size and modeled time) allocated the whole layout: n = 8,
//    batch = INT32_MAX asked the host for 2^35 bytes (ASan: allocation-size-too-big). Plans are
//    now bounded at 2^24 points and layouts at 2^25 elements (docs/trnfft.md), rejected before any
//    allocation.
TEST(TrnfftCApi, FuzzRegressionHugeBatchIsInvalidSize) {
  trnfftHandle h = 5;
  EXPECT_EQ(trnfftPlan1d(&h, 8, TRNFFT_C2C, 2147483647), TRNFFT_INVALID_SIZE);
  EXPECT_EQ(trnfftPlan1d(&h, 2, TRNFFT_R2C, (1 << 23) + 1), TRNFFT_INVALID_SIZE);  // 2^24 + 2 points
  EXPECT_EQ(trnfftPlan3d(&h, 4096, 4096, 2, TRNFFT_C2C), TRNFFT_INVALID_SIZE);    // 2^25 points
  EXPECT_EQ(h, 5);
  ASSERT_EQ(trnfftCreate(&h), TRNFFT_SUCCESS);
  long long n = 2, batch = 1LL << 31;
  std::size_t ws = 3;
  EXPECT_EQ(trnfftMakePlanMany64(h, 1, &n, nullptr, 1, 0, nullptr, 1, 0, TRNFFT_Z2Z, batch, &ws), TRNFFT_INVALID_SIZE);
  // A strided layout spanning more than 2^25 elements.
  int n1 = 4, embed = 4;
  EXPECT_EQ(trnfftMakePlanMany(h, 1, &n1, &embed, 1 << 24, 1, &embed, 1, 4, TRNFFT_C2C, 1, &ws), TRNFFT_INVALID_SIZE);
  EXPECT_EQ(ws, 3u);
  // At the limit the plan is made (2^24 points).
  EXPECT_EQ(trnfftMakePlan1d(h, 1 << 12, TRNFFT_C2C, 1 << 12, &ws), TRNFFT_SUCCESS);
  EXPECT_EQ(trnfftDestroy(h), TRNFFT_SUCCESS);
}

// 3. MakePlan of an FP64 plan ran its dry run, i.e. the host FP64 work of a whole execution, to
//    report a work size that is always 0 for the FP64 path (its copies are host vectors): the
//    fuzzer's 20 s timeout. The work size is now reported without it.
TEST(TrnfftCApi, FuzzRegressionFp64PlanReportsItsWorkSize) {
  trnfftHandle h;
  ASSERT_EQ(trnfftCreate(&h), TRNFFT_SUCCESS);
  std::size_t ws = 12345;
  EXPECT_EQ(trnfftMakePlan1d(h, 1000, TRNFFT_Z2Z, 64, &ws), TRNFFT_SUCCESS);
  EXPECT_EQ(ws, 0u);
  EXPECT_EQ(trnfftDestroy(h), TRNFFT_SUCCESS);
}

}  // namespace

namespace {
using trnfft_test::cd;
using trnfft_test::cf;
using trnfft_test::fftw_c2c;
using trnfft_test::fftw_r2c;
using trnfft_test::rel_l2;
using trnfft_test::uniform_complex;
// Independent 16-bit codecs for the Xt tests (exactly representable values only on the way in).
std::uint16_t f16_bits_exact(double x) {
  if (x == 0) return 0;
  int e = 0;
  const double f = std::frexp(std::fabs(x), &e);  // |x| = f 2^e, f in [0.5, 1)
  const auto mant = static_cast<std::uint16_t>(std::ldexp(2 * f - 1, 10));
  return static_cast<std::uint16_t>((x < 0 ? 0x8000 : 0) | ((e - 1 + 15) << 10) | mant);
}
double f16_value(std::uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}
std::uint16_t bf16_bits_exact(float x) {
  std::uint32_t u = 0;
  std::memcpy(&u, &x, 4);
  return static_cast<std::uint16_t>(u >> 16);
}
double bf16_value(std::uint16_t b) {
  const std::uint32_t u = std::uint32_t{b} << 16;
  float f = 0;
  std::memcpy(&f, &u, 4);
  return f;
}
}  // namespace

TEST(TrnfftCApi, XtSixteenBitStorage) {
  // C2C 1024 x 4 in f16 (exactly representable inputs k/1024) and bf16 (k/256), out of place with
  // gaps between the output transforms (odist = n + 3) that must keep their bytes; against FFTW in
  // FP64 on the same inputs. f16 runs in fp32 (error: the one f16 rounding of the output, <= 2^-11);
  // bf16 runs in bf16 tiles (the mode's 2^-8 sqrt(stages), plus the bf16 output rounding).
  const long long n = 1024, batch = 4, odist = n + 3;
  std::mt19937 g(3);
  for (const bool bf : {false, true}) {
    std::vector<std::uint16_t> x(static_cast<std::size_t>(2 * n * batch)), y(static_cast<std::size_t>(2 * odist * batch), 0x3c00);
    std::vector<cf> xv(static_cast<std::size_t>(n * batch));
    std::uniform_int_distribution<int> k(bf ? -127 : -512, bf ? 127 : 511);
    for (std::size_t i = 0; i < xv.size(); ++i) {
      const float re = static_cast<float>(k(g)) / (bf ? 256.0f : 1024.0f), im = static_cast<float>(k(g)) / (bf ? 256.0f : 1024.0f);
      xv[i] = cf(re, im);
      x[2 * i] = bf ? bf16_bits_exact(re) : f16_bits_exact(re);
      x[2 * i + 1] = bf ? bf16_bits_exact(im) : f16_bits_exact(im);
    }
    trnfftHandle h = TRNFFT_PLAN_NULL;
    ASSERT_EQ(trnfftCreate(&h), TRNFFT_SUCCESS);
    long long nn = n, on = n;
    size_t ws = 0;
    const trnDataType_t t = bf ? TRN_C_16BF : TRN_C_16F;
    ASSERT_EQ(trnfftXtMakePlanMany(h, 1, &nn, &nn, 1, n, t, &on, 1, odist, t, batch, &ws, t), TRNFFT_SUCCESS);
    EXPECT_GT(ws, 0u);  // the fp32 copies
    ASSERT_EQ(trnfftXtExec(h, x.data(), y.data(), TRNFFT_FORWARD), TRNFFT_SUCCESS);
    const auto ref = fftw_c2c(xv, {static_cast<int>(n)}, static_cast<int>(batch), -1);
    std::vector<cd> got;
    for (long long b = 0; b < batch; ++b) {
      for (long long j = 0; j < n; ++j) {
        const std::size_t at = static_cast<std::size_t>(2 * (b * odist + j));
        got.emplace_back(bf ? bf16_value(y[at]) : f16_value(y[at]), bf ? bf16_value(y[at + 1]) : f16_value(y[at + 1]));
      }
      for (long long j = n; j < odist; ++j) {
        const std::size_t at = static_cast<std::size_t>(2 * (b * odist + j));
        EXPECT_EQ(y[at], 0x3c00);
        EXPECT_EQ(y[at + 1], 0x3c00);
      }
    }
    const double e = rel_l2(got, ref);
    std::printf("Xt %s C2C n=1024: rel L2 %.3e\n", bf ? "bf16" : "f16", e);
    EXPECT_LE(e, bf ? 0x1p-8 * std::sqrt(2.0) + 0x1p-9 : 0x1p-11) << (bf ? "bf16" : "f16");
    EXPECT_GT(e, bf ? 0x1p-8 / 16 : 0x1p-11 / 64) << "the result is really rounded to 16 bits";
    // R2C with f16 storage: a direction other than +-1 is ignored (only C2C checks it).
    if (!bf) {
      trnfftHandle r = TRNFFT_PLAN_NULL;
      ASSERT_EQ(trnfftCreate(&r), TRNFFT_SUCCESS);
      ASSERT_EQ(trnfftXtMakePlanMany(r, 1, &nn, nullptr, 1, 0, TRN_R_16F, nullptr, 1, 0, TRN_C_16F, 1, &ws, TRN_C_16F),
                TRNFFT_SUCCESS);
      std::vector<std::uint16_t> rx(static_cast<std::size_t>(n)), ry(static_cast<std::size_t>(2 * (n / 2 + 1)));
      std::vector<float> rv(static_cast<std::size_t>(n));
      for (std::size_t i = 0; i < rx.size(); ++i) {
        rv[i] = static_cast<float>(k(g)) / 1024.0f;
        rx[i] = f16_bits_exact(rv[i]);
      }
      ASSERT_EQ(trnfftXtExec(r, rx.data(), ry.data(), 7), TRNFFT_SUCCESS);
      const auto rref = fftw_r2c(rv, {static_cast<int>(n)}, 1);
      std::vector<cd> rgot;
      for (std::size_t i = 0; i < rref.size(); ++i) rgot.emplace_back(f16_value(ry[2 * i]), f16_value(ry[2 * i + 1]));
      EXPECT_LE(rel_l2(rgot, rref), 0x1p-11);
      EXPECT_EQ(trnfftDestroy(r), TRNFFT_SUCCESS);
    }
    EXPECT_EQ(trnfftDestroy(h), TRNFFT_SUCCESS);
  }
}

TEST(TrnfftCApi, XtTypesAndArguments) {
  LogCapture log;
  trnfftHandle h = TRNFFT_PLAN_NULL;
  ASSERT_EQ(trnfftCreate(&h), TRNFFT_SUCCESS);
  long long n = 64;
  size_t ws = 7;
  // Mixed families, or an execution type that is not the family's complex type: INVALID_TYPE.
  EXPECT_EQ(trnfftXtMakePlanMany(h, 1, &n, nullptr, 1, 0, TRN_C_32F, nullptr, 1, 0, TRN_C_16F, 1, &ws, TRN_C_32F),
            TRNFFT_INVALID_TYPE);
  EXPECT_EQ(trnfftXtMakePlanMany(h, 1, &n, nullptr, 1, 0, TRN_C_16F, nullptr, 1, 0, TRN_C_16F, 1, &ws, TRN_C_32F),
            TRNFFT_INVALID_TYPE);
  EXPECT_EQ(trnfftXtMakePlanMany(h, 1, &n, nullptr, 1, 0, TRN_R_32F, nullptr, 1, 0, TRN_R_32F, 1, &ws, TRN_C_32F),
            TRNFFT_INVALID_TYPE);
  EXPECT_EQ(ws, 7u);
  EXPECT_EQ(trnfftXtMakePlanMany(h, 1, nullptr, nullptr, 1, 0, TRN_C_32F, nullptr, 1, 0, TRN_C_32F, 1, &ws, TRN_C_32F),
            TRNFFT_INVALID_VALUE);
  EXPECT_TRUE(log.saw("parameter number 2 (n)"));
  long long bad[1] = {64};
  EXPECT_EQ(trnfftXtMakePlanMany(h, 1, &n, bad, 0, 64, TRN_C_32F, bad, 1, 64, TRN_C_32F, 1, &ws, TRN_C_32F),
            TRNFFT_INVALID_VALUE);
  EXPECT_TRUE(log.saw("parameter number 4 (istride)"));
  EXPECT_EQ(trnfftXtExec(h, nullptr, nullptr, TRNFFT_FORWARD), TRNFFT_INVALID_PLAN);  // not made
  // fp32 through Xt: the same bits as ExecC2C.
  ASSERT_EQ(trnfftXtMakePlanMany(h, 1, &n, nullptr, 1, 0, TRN_C_32F, nullptr, 1, 0, TRN_C_32F, 3, &ws, TRN_C_32F),
            TRNFFT_SUCCESS);
  const auto x = uniform_complex(3 * n, 4);
  std::vector<cf> in = x, a(x.size()), b(x.size(), cf(9, 9));
  ASSERT_EQ(trnfftXtExec(h, in.data(), a.data(), TRNFFT_INVERSE), TRNFFT_SUCCESS);
  EXPECT_EQ(trnfftXtExec(h, in.data(), b.data(), 0), TRNFFT_INVALID_VALUE);  // C2C checks the direction
  EXPECT_EQ(b[0], cf(9, 9));
  ASSERT_EQ(trnfftExecC2C(h, reinterpret_cast<trnfftComplex*>(in.data()), reinterpret_cast<trnfftComplex*>(b.data()),
                          TRNFFT_INVERSE),
            TRNFFT_SUCCESS);
  EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(cf)));
  EXPECT_EQ(trnfftDestroy(h), TRNFFT_SUCCESS);
}
