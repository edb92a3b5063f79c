/* trnrand.h compiled as C (C11): the header is self-contained C and usable without C++. Called
 * from test_trnrand_c_api.cpp. Returns 0 on success, otherwise the number of the failed step. */
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
  if (u[0] != 0x6627e8d5u || u[7] != 0x83f875f0u) return 4; /* c-api.md 5.4, seed 0 */
  if (trnrandGenerateNormal(g, f, 3, 0.0f, 1.0f) != TRNRAND_STATUS_LENGTH_NOT_MULTIPLE) return 5;
  if (trnrandGenerateNormal(g, f, 4, 0.0f, 1.0f) != TRNRAND_STATUS_SUCCESS) return 6;
  if (trnrandGetVersion(&version) != TRNRAND_STATUS_SUCCESS || version != TRNRAND_VERSION) return 7;
  if (trnrandGetLastProfile(g, &profile) != TRNRAND_STATUS_SUCCESS || profile.target != TRN_TARGET_TRN1) return 8;
  if (trnrandDestroyGenerator(g) != TRNRAND_STATUS_SUCCESS) return 9;
  return 0;
}
