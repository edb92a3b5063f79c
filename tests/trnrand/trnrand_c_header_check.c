/* trnrand.h compiled as C (C11): the header is self-contained C and usable without C++. Called
 * from test_trnrand_c_api.cpp. Also passes enum arguments outside the enums' value lists, which C
 * allows (in C++ such values would already be undefined at the call site). */
#include "trnrand.h"

int trnrand_c_header_check(void) {
  trnrandGenerator_t g = 0;
  unsigned int u[8];
  float f[4];
  int version = 0;
  trnProfile_t profile;
  if (trnrandCreateGeneratorHost(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10) != TRNRAND_STATUS_SUCCESS) return 1;
  if (trnrandSetPseudoRandomGeneratorSeed(g, 0ULL) != TRNRAND_STATUS_SUCCESS) return 2;
  if (trnrandGenerate(g, u, 8) != TRNRAND_STATUS_SUCCESS) return 3;
  if (u[0] != 0x6627e8d5u || u[7] != 0x83f875f0u) return 4; /* cuRAND host generator, seed 0 */
  if (trnrandGenerateNormal(g, f, 3, 0.0f, 1.0f) != TRNRAND_STATUS_LENGTH_NOT_MULTIPLE) return 5;
  if (trnrandGenerateNormal(g, f, 4, 0.0f, 1.0f) != TRNRAND_STATUS_SUCCESS) return 6;
  if (trnrandGetVersion(&version) != TRNRAND_STATUS_SUCCESS || version != TRNRAND_VERSION) return 7;
  if (trnrandGetLastProfile(g, &profile) != TRNRAND_STATUS_SUCCESS || profile.target != TRN_TARGET_TRN1) return 8;
  if (trnrandDestroyGenerator(g) != TRNRAND_STATUS_SUCCESS) return 9;
  return 0;
}

/* Statuses for out-of-range enum arguments, in this order: CreateGenerator(12345),
 * CreateGeneratorHost(-1), SetGeneratorOrdering(1000), SetGeneratorOrdering(-5),
 * SetGeneratorTarget(7), SetGeneratorTarget(0). Returns the number written (6). */
int trnrand_c_out_of_range_enums(int* statuses) {
  trnrandGenerator_t g = 0, bad = 0;
  int k = 0;
  statuses[k++] = trnrandCreateGenerator(&bad, (trnrandRngType_t)12345);
  statuses[k++] = trnrandCreateGeneratorHost(&bad, (trnrandRngType_t)-1);
  if (trnrandCreateGeneratorHost(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10) != TRNRAND_STATUS_SUCCESS) return -1;
  statuses[k++] = trnrandSetGeneratorOrdering(g, (trnrandOrdering_t)1000);
  statuses[k++] = trnrandSetGeneratorOrdering(g, (trnrandOrdering_t)-5);
  statuses[k++] = trnrandSetGeneratorTarget(g, (trnTarget_t)7);
  statuses[k++] = trnrandSetGeneratorTarget(g, (trnTarget_t)0);
  trnrandDestroyGenerator(g);
  return bad == 0 ? k : -2;
}
