// trnfftXt.h and the cuFFT calls added for issue 29: XtGetSizeMany equals the work size XtMakePlanMany
// reports for the same arguments (every family, R2C/C2C/C2R) and leaves the plan as it is;
// XtSetWorkArea / XtSetWorkAreaPolicy record and check; GetProperty; Set/Get/ResetPlanPropertyInt64.
// Bad input: status, logged position, outputs untouched.
#include <gtest/gtest.h>

#include <vector>

#include "trnfftXt.h"

namespace {

int last_error(trnfftHandle h) {
  int pos = -1;
  EXPECT_EQ(trnfftGetLastErrorParameter(h, &pos), TRNFFT_SUCCESS);
  return pos;
}

struct Plan {
  trnfftHandle h = 0;
  Plan() { EXPECT_EQ(trnfftCreate(&h), TRNFFT_SUCCESS); }
  ~Plan() { trnfftDestroy(h); }
};

TEST(TrnfftXt, EnumValuesAreCufftXt) {
  EXPECT_EQ(TRNFFT_WORKAREA_MINIMAL, 0);
  EXPECT_EQ(TRNFFT_WORKAREA_USER, 1);
  EXPECT_EQ(TRNFFT_WORKAREA_PERFORMANCE, 2);
  EXPECT_EQ(NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT, 1);
  EXPECT_EQ(NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS, 2);
}

TEST(TrnfftXt, GetSizeManyIsTheWorkSizeOfTheSamePlan) {
  struct Case {
    trnDataType_t in, out, ex;
    long long n, batch;
  };
  const Case cases[] = {{TRN_C_32F, TRN_C_32F, TRN_C_32F, 64, 3},    {TRN_R_32F, TRN_C_32F, TRN_C_32F, 100, 2},
                        {TRN_C_32F, TRN_R_32F, TRN_C_32F, 48, 1},    {TRN_C_64F, TRN_C_64F, TRN_C_64F, 32, 2},
                        {TRN_R_16F, TRN_C_16F, TRN_C_16F, 256, 1},   {TRN_C_16BF, TRN_C_16BF, TRN_C_16BF, 4096, 2},
                        {TRN_R_64F, TRN_C_64F, TRN_C_64F, 1000, 1}};
  for (const Case& c : cases) {
    Plan p;
    long long n = c.n;
    size_t est = 12345, made = 54321;
    ASSERT_EQ(trnfftXtGetSizeMany(p.h, 1, &n, nullptr, 1, 0, c.in, nullptr, 1, 0, c.out, c.batch, &est, c.ex),
              TRNFFT_SUCCESS);
    size_t ws = 0;
    EXPECT_EQ(trnfftGetSize(p.h, &ws), TRNFFT_INVALID_PLAN) << "XtGetSizeMany made a plan";
    ASSERT_EQ(trnfftXtMakePlanMany(p.h, 1, &n, nullptr, 1, 0, c.in, nullptr, 1, 0, c.out, c.batch, &made, c.ex),
              TRNFFT_SUCCESS);
    EXPECT_EQ(est, made) << c.n;
    ASSERT_EQ(trnfftGetSize(p.h, &ws), TRNFFT_SUCCESS);
    EXPECT_EQ(ws, made);
  }
}

TEST(TrnfftXt, GetSizeManyRejectsWhatMakePlanManyRejects) {
  Plan p;
  long long n = 64, bad = 0;
  size_t ws = 777;
  EXPECT_EQ(trnfftXtGetSizeMany(p.h, 1, &n, nullptr, 1, 0, TRN_R_32F, nullptr, 1, 0, TRN_R_32F, 1, &ws, TRN_C_32F),
            TRNFFT_INVALID_TYPE);
  EXPECT_EQ(trnfftXtGetSizeMany(p.h, 1, &bad, nullptr, 1, 0, TRN_C_32F, nullptr, 1, 0, TRN_C_32F, 1, &ws, TRN_C_32F),
            TRNFFT_INVALID_SIZE);
  EXPECT_EQ(trnfftXtGetSizeMany(p.h, 4, &n, nullptr, 1, 0, TRN_C_32F, nullptr, 1, 0, TRN_C_32F, 1, &ws, TRN_C_32F),
            TRNFFT_INVALID_SIZE);
  EXPECT_EQ(trnfftXtGetSizeMany(p.h, 1, &n, nullptr, 1, 0, TRN_C_32F, nullptr, 1, 0, TRN_C_32F, 0, &ws, TRN_C_32F),
            TRNFFT_INVALID_SIZE);
  EXPECT_EQ(trnfftXtGetSizeMany(p.h, 1, &n, nullptr, 1, 0, TRN_C_32F, nullptr, 1, 0, TRN_C_32F, 1, nullptr, TRN_C_32F),
            TRNFFT_INVALID_VALUE);
  EXPECT_EQ(ws, 777u);
  EXPECT_EQ(trnfftXtGetSizeMany(p.h + 1000, 1, &n, nullptr, 1, 0, TRN_C_32F, nullptr, 1, 0, TRN_C_32F, 1, &ws,
                                TRN_C_32F),
            TRNFFT_INVALID_PLAN);
}

TEST(TrnfftXt, WorkAreaCallsCheckAndRecord) {
  Plan p;
  size_t ws = 0;
  ASSERT_EQ(trnfftMakePlan1d(p.h, 128, TRNFFT_C2C, 2, &ws), TRNFFT_SUCCESS);
  std::vector<char> area(ws + 1);
  void* areas[1] = {area.data()};
  EXPECT_EQ(trnfftXtSetWorkArea(p.h, areas), TRNFFT_SUCCESS);
  EXPECT_EQ(trnfftXtSetWorkArea(p.h, nullptr), TRNFFT_INVALID_VALUE);
  EXPECT_EQ(last_error(p.h), 1);
  EXPECT_EQ(trnfftXtSetWorkArea(-5, areas), TRNFFT_INVALID_PLAN);
  size_t limit = 1024;
  EXPECT_EQ(trnfftXtSetWorkAreaPolicy(p.h, TRNFFT_WORKAREA_USER, &limit), TRNFFT_SUCCESS);
  EXPECT_EQ(trnfftXtSetWorkAreaPolicy(p.h, TRNFFT_WORKAREA_MINIMAL, nullptr), TRNFFT_SUCCESS);
  EXPECT_EQ(trnfftXtSetWorkAreaPolicy(p.h, TRNFFT_WORKAREA_PERFORMANCE, nullptr), TRNFFT_SUCCESS);
  EXPECT_EQ(trnfftXtSetWorkAreaPolicy(p.h, TRNFFT_WORKAREA_USER, nullptr), TRNFFT_INVALID_VALUE);
  EXPECT_EQ(last_error(p.h), 2);
  EXPECT_EQ(trnfftXtSetWorkAreaPolicy(p.h, static_cast<trnfftXtWorkAreaPolicy>(3), &limit), TRNFFT_INVALID_VALUE);
  EXPECT_EQ(last_error(p.h), 1);
  // The plan still runs and its work size is unchanged (every policy gives the same host plan).
  size_t after = 0;
  ASSERT_EQ(trnfftGetSize(p.h, &after), TRNFFT_SUCCESS);
  EXPECT_EQ(after, ws);
  std::vector<trnfftComplex> x(256, trnfftComplex{1.0f, 0.0f}), y(256);
  ASSERT_EQ(trnfftExecC2C(p.h, x.data(), y.data(), TRNFFT_FORWARD), TRNFFT_SUCCESS);
  EXPECT_EQ(y[0].x, 128.0f);  // DC term of a constant signal: the sum, exact in fp32
}

TEST(TrnfftXt, GetPropertyAndVersionAgree) {
  int major = -1, minor = -1, patch = -1, version = 0;
  ASSERT_EQ(trnfftGetProperty(MAJOR_VERSION, &major), TRNFFT_SUCCESS);
  ASSERT_EQ(trnfftGetProperty(MINOR_VERSION, &minor), TRNFFT_SUCCESS);
  ASSERT_EQ(trnfftGetProperty(PATCH_LEVEL, &patch), TRNFFT_SUCCESS);
  ASSERT_EQ(trnfftGetVersion(&version), TRNFFT_SUCCESS);
  EXPECT_EQ(major * 1000 + minor * 100 + patch, version);
  int v = 9;
  EXPECT_EQ(trnfftGetProperty(static_cast<libraryPropertyType>(7), &v), TRNFFT_INVALID_VALUE);
  EXPECT_EQ(trnfftGetProperty(PATCH_LEVEL, nullptr), TRNFFT_INVALID_VALUE);
  EXPECT_EQ(v, 9);
}

TEST(TrnfftXt, PlanPropertiesStoreCheckAndReset) {
  Plan p;
  long long v = -1;
  ASSERT_EQ(trnfftGetPlanPropertyInt64(p.h, NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT, &v), TRNFFT_SUCCESS);
  EXPECT_EQ(v, 0);
  ASSERT_EQ(trnfftSetPlanPropertyInt64(p.h, NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT, 1), TRNFFT_SUCCESS);
  ASSERT_EQ(trnfftSetPlanPropertyInt64(p.h, NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS, 4), TRNFFT_SUCCESS);
  ASSERT_EQ(trnfftGetPlanPropertyInt64(p.h, NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT, &v), TRNFFT_SUCCESS);
  EXPECT_EQ(v, 1);
  ASSERT_EQ(trnfftGetPlanPropertyInt64(p.h, NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS, &v), TRNFFT_SUCCESS);
  EXPECT_EQ(v, 4);
  EXPECT_EQ(trnfftSetPlanPropertyInt64(p.h, NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT, 2), TRNFFT_INVALID_VALUE);
  EXPECT_EQ(last_error(p.h), 2);
  EXPECT_EQ(trnfftSetPlanPropertyInt64(p.h, NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS, 0), TRNFFT_INVALID_VALUE);
  EXPECT_EQ(trnfftSetPlanPropertyInt64(p.h, static_cast<trnfftProperty>(3), 1), TRNFFT_INVALID_VALUE);
  EXPECT_EQ(last_error(p.h), 1);
  long long keep = 99;
  EXPECT_EQ(trnfftGetPlanPropertyInt64(p.h, static_cast<trnfftProperty>(0), &keep), TRNFFT_INVALID_VALUE);
  EXPECT_EQ(trnfftGetPlanPropertyInt64(p.h, NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT, nullptr), TRNFFT_INVALID_VALUE);
  EXPECT_EQ(keep, 99);
  ASSERT_EQ(trnfftGetPlanPropertyInt64(p.h, NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS, &v), TRNFFT_SUCCESS);
  EXPECT_EQ(v, 4);  // the rejected calls changed nothing
  ASSERT_EQ(trnfftResetPlanProperty(p.h, NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS), TRNFFT_SUCCESS);
  ASSERT_EQ(trnfftGetPlanPropertyInt64(p.h, NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS, &v), TRNFFT_SUCCESS);
  EXPECT_EQ(v, 0);
  EXPECT_EQ(trnfftResetPlanProperty(-1, NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT), TRNFFT_INVALID_PLAN);
}

}  // namespace
