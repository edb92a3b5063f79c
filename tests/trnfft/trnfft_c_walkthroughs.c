/* trnfft from plain C99: the project's own walkthroughs of cuFFT-shaped call sequences as a C program
 * written against cuFFT would make them (host memory; trnsci executes synchronously), and the header's
 * C compile check:
 *   1-D C2C:  trnfftCreate, trnfftPlan1d (batch), trnfftSetStream (default stream), in-place forward then
 *             inverse ExecC2C, trnfftDestroy;
 *   2-D C2C:  trnfftCreate, trnfftMakePlan2d (work size), out-of-place forward and inverse;
 *   R2C/C2R:  two trnfftPlan1d plans (R2C, C2R, batch), ExecR2C (n/2 + 1 kept) and ExecC2R;
 *   3-D C2C:  trnfftPlanMany with NULL embeds (the dense layout), in place.
 * Each writes the forward result and the unnormalised inverse of it (N times the input) and returns 0, or
 * the 1-based step that failed. The data and expected results belong to test_trnfft_c_api.cpp
 * (TrnfftCApi.CufftSamplesReproduceTheirRoundTrips), which checks them against a dense double DFT.
 *
 * Algorithm: none here (the C API's protocol only). Engines: those of the plans.
 * Accuracy: that of the fp32 plans (docs/trnfft.md "Bounds").
 * Limits: single precision, dense layouts, the sizes the caller passes. */
#include <stddef.h>
#include <string.h>

#include "trnfft.h"

#define WALK_STEP(call, step)                       \
  do {                                              \
    if ((call) != TRNFFT_SUCCESS) return (step);    \
  } while (0)

int trnfft_walkthrough_c2c_1d(int n, int batch, const trnfftComplex* in, trnfftComplex* fwd, trnfftComplex* back);
int trnfft_walkthrough_c2c_2d(int nx, int ny, const trnfftComplex* in, trnfftComplex* fwd, trnfftComplex* back);
int trnfft_walkthrough_r2c_c2r(int n, int batch, const trnfftReal* in, trnfftComplex* freq, trnfftReal* back);
int trnfft_walkthrough_c2c_3d(const int* dims, const trnfftComplex* in, trnfftComplex* fwd, trnfftComplex* back);
int trnfft_c_out_of_range(int* statuses);

/* batch transforms of length n, stored one after the other: in place, so `back` is the working array. */
int trnfft_walkthrough_c2c_1d(int n, int batch, const trnfftComplex* in, trnfftComplex* fwd, trnfftComplex* back) {
  trnfftHandle plan;
  const size_t bytes = sizeof(trnfftComplex) * (size_t)n * (size_t)batch;
  memcpy(back, in, bytes);
  WALK_STEP(trnfftCreate(&plan), 1);
  WALK_STEP(trnfftPlan1d(&plan, n, TRNFFT_C2C, batch), 2);
  WALK_STEP(trnfftSetStream(plan, (trnStream_t)0), 3);
  WALK_STEP(trnfftExecC2C(plan, back, back, TRNFFT_FORWARD), 4);
  memcpy(fwd, back, bytes);
  WALK_STEP(trnfftExecC2C(plan, back, back, TRNFFT_INVERSE), 5);
  WALK_STEP(trnfftDestroy(plan), 6);
  return 0;
}

/* One nx x ny transform (row-major, ny fastest), out of place: in -> fwd -> back. */
int trnfft_walkthrough_c2c_2d(int nx, int ny, const trnfftComplex* in, trnfftComplex* fwd, trnfftComplex* back) {
  trnfftHandle plan;
  size_t work = 0;
  WALK_STEP(trnfftCreate(&plan), 1);
  WALK_STEP(trnfftMakePlan2d(plan, nx, ny, TRNFFT_C2C, &work), 2);
  WALK_STEP(trnfftExecC2C(plan, (trnfftComplex*)in, fwd, TRNFFT_FORWARD), 3);
  WALK_STEP(trnfftExecC2C(plan, fwd, back, TRNFFT_INVERSE), 4);
  WALK_STEP(trnfftDestroy(plan), 5);
  return 0;
}

/* batch real transforms of length n: freq holds n/2 + 1 values per transform, back n reals. */
int trnfft_walkthrough_r2c_c2r(int n, int batch, const trnfftReal* in, trnfftComplex* freq, trnfftReal* back) {
  trnfftHandle forward, inverse;
  WALK_STEP(trnfftPlan1d(&forward, n, TRNFFT_R2C, batch), 1);
  WALK_STEP(trnfftPlan1d(&inverse, n, TRNFFT_C2R, batch), 2);
  WALK_STEP(trnfftExecR2C(forward, (trnfftReal*)in, freq), 3);
  WALK_STEP(trnfftExecC2R(inverse, freq, back), 4);
  WALK_STEP(trnfftDestroy(forward), 5);
  WALK_STEP(trnfftDestroy(inverse), 6);
  return 0;
}

/* One dims[0] x dims[1] x dims[2] transform (row-major) through PlanMany, in place in `back`. */
int trnfft_walkthrough_c2c_3d(const int* dims, const trnfftComplex* in, trnfftComplex* fwd, trnfftComplex* back) {
  trnfftHandle plan;
  int shape[3];
  const size_t bytes = sizeof(trnfftComplex) * (size_t)dims[0] * (size_t)dims[1] * (size_t)dims[2];
  memcpy(shape, dims, sizeof shape);
  memcpy(back, in, bytes);
  WALK_STEP(trnfftPlanMany(&plan, 3, shape, NULL, 1, 0, NULL, 1, 0, TRNFFT_C2C, 1), 1);
  WALK_STEP(trnfftExecC2C(plan, back, back, TRNFFT_FORWARD), 2);
  memcpy(fwd, back, bytes);
  WALK_STEP(trnfftExecC2C(plan, back, back, TRNFFT_INVERSE), 3);
  WALK_STEP(trnfftDestroy(plan), 4);
  return 0;
}

/* Out-of-range enum values, as C allows: statuses of Plan1d(type 0x7f) and SetPlanPrecision(9). */
int trnfft_c_out_of_range(int* statuses) {
  trnfftHandle plan = TRNFFT_PLAN_NULL;
  statuses[0] = trnfftPlan1d(&plan, 8, (trnfftType)0x7f, 1);
  statuses[1] = plan; /* untouched */
  trnfftPlan1d(&plan, 8, TRNFFT_C2C, 1);
  statuses[2] = trnfftSetPlanPrecision(plan, (trnfftPrecision_t)9);
  trnfftDestroy(plan);
  return 3;
}
