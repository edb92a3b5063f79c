/* NVIDIA's basic cuFFT samples (CUDALibrarySamples/cuFFT: 1d_c2c, 2d_c2c, 1d_r2c/c2r round trips),
 * ported to trnfft by the prefix substitution cufft -> trnfft and host memory (no cudaMalloc /
 * cudaMemcpy, synchronous execution). Compiled as C (C99): also the header's C compile check.
 * Each returns 0 on success, else the step that failed. */
#include <math.h>
#include <stdlib.h>

#include "trnfft.h"

#define CHECK(call, code)                   \
  do {                                      \
    if ((call) != TRNFFT_SUCCESS) return (code); \
  } while (0)

/* 1d_c2c: n = 8, batch = 2, data[i] = (i, -i); forward then inverse, divide by n: the input back. */
int trnfft_sample_1d_c2c(void) {
  const int fft_size = 8, batch_size = 2, element_count = 16;
  trnfftComplex data[16], orig[16];
  trnfftHandle plan;
  int i;
  for (i = 0; i < element_count; i++) {
    data[i].x = (float)i;
    data[i].y = -(float)i;
    orig[i] = data[i];
  }
  CHECK(trnfftCreate(&plan), 1);
  CHECK(trnfftPlan1d(&plan, fft_size, TRNFFT_C2C, batch_size), 2);
  CHECK(trnfftSetStream(plan, (trnStream_t)0), 3);
  CHECK(trnfftExecC2C(plan, data, data, TRNFFT_FORWARD), 4);
  /* DC of batch 0: sum 0..7 = 28 - 28i */
  if (fabsf(data[0].x - 28.0f) > 1e-4f || fabsf(data[0].y + 28.0f) > 1e-4f) return 5;
  CHECK(trnfftExecC2C(plan, data, data, TRNFFT_INVERSE), 6);
  for (i = 0; i < element_count; i++) {
    const float xr = data[i].x / fft_size, xi = data[i].y / fft_size;
    if (fabsf(xr - orig[i].x) > 1e-5f * (1.0f + fabsf(orig[i].x)) || fabsf(xi - orig[i].y) > 1e-5f * (1.0f + fabsf(orig[i].y)))
      return 7;
  }
  CHECK(trnfftDestroy(plan), 8);
  return 0;
}

/* 2d_c2c: nx = 2, ny = 3 (out of place), forward then inverse on the result, scale by nx*ny. */
int trnfft_sample_2d_c2c(void) {
  enum { nx = 4, ny = 6, n = nx * ny };
  trnfftComplex in[n], freq[n], back[n];
  trnfftHandle plan;
  size_t work = 0;
  int i;
  for (i = 0; i < n; i++) {
    in[i].x = (float)(i % 5) - 2.0f;
    in[i].y = (float)(i % 3) * 0.5f;
  }
  CHECK(trnfftCreate(&plan), 1);
  CHECK(trnfftMakePlan2d(plan, nx, ny, TRNFFT_C2C, &work), 2);
  CHECK(trnfftExecC2C(plan, in, freq, TRNFFT_FORWARD), 3);
  CHECK(trnfftExecC2C(plan, freq, back, TRNFFT_INVERSE), 4);
  for (i = 0; i < n; i++)
    if (fabsf(back[i].x / n - in[i].x) > 1e-5f || fabsf(back[i].y / n - in[i].y) > 1e-5f) return 5;
  CHECK(trnfftDestroy(plan), 6);
  return 0;
}

/* 1d_r2c + 1d_c2r: n = 8, batch = 2, real data i; R2C keeps n/2 + 1; C2R back, scale by n. */
int trnfft_sample_r2c_c2r(void) {
  enum { fft_size = 8, batch_size = 2, complex_size = fft_size / 2 + 1 };
  trnfftReal data[fft_size * batch_size], back[fft_size * batch_size];
  trnfftComplex freq[complex_size * batch_size];
  trnfftHandle fwd, inv;
  int i;
  for (i = 0; i < fft_size * batch_size; i++) data[i] = (float)i;
  CHECK(trnfftPlan1d(&fwd, fft_size, TRNFFT_R2C, batch_size), 1);
  CHECK(trnfftPlan1d(&inv, fft_size, TRNFFT_C2R, batch_size), 2);
  CHECK(trnfftExecR2C(fwd, data, freq), 3);
  if (fabsf(freq[0].x - 28.0f) > 1e-4f || fabsf(freq[complex_size].x - 92.0f) > 1e-4f) return 4;
  CHECK(trnfftExecC2R(inv, freq, back), 5);
  for (i = 0; i < fft_size * batch_size; i++)
    if (fabsf(back[i] / fft_size - data[i]) > 1e-5f * (1.0f + data[i])) return 6;
  CHECK(trnfftDestroy(fwd), 7);
  CHECK(trnfftDestroy(inv), 8);
  return 0;
}

/* 3d_c2c: 4 x 5 x 6 round trip through a PlanMany with NULL embeds. */
int trnfft_sample_3d_c2c(void) {
  enum { n = 4 * 5 * 6 };
  int dims[3] = {4, 5, 6};
  trnfftComplex data[n], orig[n];
  trnfftHandle plan;
  int i;
  for (i = 0; i < n; i++) {
    data[i].x = (float)((i * 7) % 11) - 5.0f;
    data[i].y = (float)((i * 3) % 7) - 3.0f;
    orig[i] = data[i];
  }
  CHECK(trnfftPlanMany(&plan, 3, dims, NULL, 1, 0, NULL, 1, 0, TRNFFT_C2C, 1), 1);
  CHECK(trnfftExecC2C(plan, data, data, TRNFFT_FORWARD), 2);
  CHECK(trnfftExecC2C(plan, data, data, TRNFFT_INVERSE), 3);
  for (i = 0; i < n; i++)
    if (fabsf(data[i].x / n - orig[i].x) > 1e-5f || fabsf(data[i].y / n - orig[i].y) > 1e-5f) return 4;
  CHECK(trnfftDestroy(plan), 5);
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
