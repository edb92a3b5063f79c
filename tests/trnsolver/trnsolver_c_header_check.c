/* trnsolver.h and trnsolverDn.h compile as C99 (the test target compiles this file as C). */
#include "trnsolverDn.h"
#include "trnsolver.h"

int trnsolver_c_header_check(void);
int trnsolver_c_header_check(void) {
  trnsolverDnHandle_t h = 0;
  syevjInfo_t info = 0;
  trnsolverEigMode_t jobz = TRNSOLVER_EIG_MODE_VECTOR;
  (void)h;
  (void)info;
  return (int)jobz + (int)TRNSOLVER_STATUS_INVALID_VALUE;
}
