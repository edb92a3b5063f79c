/* trnComplex.h - the complex scalar types every trnsci C API shares, and the small helper functions
 * a CUDA program includes from cuComplex.h, under the names a prefix substitution produces
 * (cuComplex -> trnComplex, cuCrealf -> trnCrealf, make_cuDoubleComplex -> make_trnDoubleComplex).
 * Layout: two floats (doubles), member x the real part and y the imaginary part, as CUDA's float2
 * and double2, so arrays of them are interleaved (re, im) pairs like C99 `float _Complex`.
 * Pure C; the functions are static inline and compute in the precision of the type.
 * trnCabsf/trnCabs and trnCdivf/trnCdiv scale to avoid intermediate overflow and underflow
 * (Smith's algorithm for the quotient: R. L. Smith, "Algorithm 116: Complex division", CACM 5(8),
 * 1962; the modulus as hypot). */
#ifndef TRNCOMPLEX_H
#define TRNCOMPLEX_H

#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct trnFloatComplex {
  float x, y;
} trnFloatComplex;
typedef struct trnDoubleComplex {
  double x, y;
} trnDoubleComplex;
typedef trnFloatComplex trnComplex;

static inline float trnCrealf(trnFloatComplex z) { return z.x; }
static inline float trnCimagf(trnFloatComplex z) { return z.y; }
static inline trnFloatComplex make_trnFloatComplex(float r, float i) {
  trnFloatComplex z;
  z.x = r;
  z.y = i;
  return z;
}
static inline trnComplex make_trnComplex(float r, float i) { return make_trnFloatComplex(r, i); }
static inline trnFloatComplex trnConjf(trnFloatComplex z) { return make_trnFloatComplex(z.x, -z.y); }
static inline trnFloatComplex trnCaddf(trnFloatComplex a, trnFloatComplex b) {
  return make_trnFloatComplex(a.x + b.x, a.y + b.y);
}
static inline trnFloatComplex trnCsubf(trnFloatComplex a, trnFloatComplex b) {
  return make_trnFloatComplex(a.x - b.x, a.y - b.y);
}
static inline trnFloatComplex trnCmulf(trnFloatComplex a, trnFloatComplex b) {
  return make_trnFloatComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
static inline trnFloatComplex trnCdivf(trnFloatComplex a, trnFloatComplex b) {
  if (fabsf(b.x) >= fabsf(b.y)) {
    float r = b.y / b.x, d = b.x + b.y * r;
    return make_trnFloatComplex((a.x + a.y * r) / d, (a.y - a.x * r) / d);
  }
  float r = b.x / b.y, d = b.x * r + b.y;
  return make_trnFloatComplex((a.x * r + a.y) / d, (a.y * r - a.x) / d);
}
static inline float trnCabsf(trnFloatComplex z) { return hypotf(z.x, z.y); }
static inline trnFloatComplex trnCfmaf(trnFloatComplex x, trnFloatComplex y, trnFloatComplex d) {
  /* x * y + d, as two real fused multiply-adds per component */
  float re = fmaf(x.x, y.x, d.x), im = fmaf(x.x, y.y, d.y);
  return make_trnFloatComplex(fmaf(-x.y, y.y, re), fmaf(x.y, y.x, im));
}

static inline double trnCreal(trnDoubleComplex z) { return z.x; }
static inline double trnCimag(trnDoubleComplex z) { return z.y; }
static inline trnDoubleComplex make_trnDoubleComplex(double r, double i) {
  trnDoubleComplex z;
  z.x = r;
  z.y = i;
  return z;
}
static inline trnDoubleComplex trnConj(trnDoubleComplex z) { return make_trnDoubleComplex(z.x, -z.y); }
static inline trnDoubleComplex trnCadd(trnDoubleComplex a, trnDoubleComplex b) {
  return make_trnDoubleComplex(a.x + b.x, a.y + b.y);
}
static inline trnDoubleComplex trnCsub(trnDoubleComplex a, trnDoubleComplex b) {
  return make_trnDoubleComplex(a.x - b.x, a.y - b.y);
}
static inline trnDoubleComplex trnCmul(trnDoubleComplex a, trnDoubleComplex b) {
  return make_trnDoubleComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
static inline trnDoubleComplex trnCdiv(trnDoubleComplex a, trnDoubleComplex b) {
  if (fabs(b.x) >= fabs(b.y)) {
    double r = b.y / b.x, d = b.x + b.y * r;
    return make_trnDoubleComplex((a.x + a.y * r) / d, (a.y - a.x * r) / d);
  }
  double r = b.x / b.y, d = b.x * r + b.y;
  return make_trnDoubleComplex((a.x * r + a.y) / d, (a.y * r - a.x) / d);
}
static inline double trnCabs(trnDoubleComplex z) { return hypot(z.x, z.y); }
static inline trnDoubleComplex trnCfma(trnDoubleComplex x, trnDoubleComplex y, trnDoubleComplex d) {
  double re = fma(x.x, y.x, d.x), im = fma(x.x, y.y, d.y);
  return make_trnDoubleComplex(fma(-x.y, y.y, re), fma(x.y, y.x, im));
}
static inline trnDoubleComplex trnComplexFloatToDouble(trnFloatComplex z) {
  return make_trnDoubleComplex((double)z.x, (double)z.y);
}
static inline trnFloatComplex trnComplexDoubleToFloat(trnDoubleComplex z) {
  return make_trnFloatComplex((float)z.x, (float)z.y);
}

#ifdef __cplusplus
}
#endif
#endif /* TRNCOMPLEX_H */
