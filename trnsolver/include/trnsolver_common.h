/* trnsolver_common.h - cuSOLVER's cusolver_common.h after the prefix substitution: the shared
 * cuSOLVER types live in trnsolver.h; this header adds cusolver_common.h's Householder storage and
 * direction enums (their values keep cuBLAS's prefix in cuSOLVER: CUBLAS_STOREV_* -> TRNBLAS_STOREV_*). */
#ifndef TRNSOLVER_COMMON_H
#define TRNSOLVER_COMMON_H
#include "trnsolver.h"

#ifndef TRNSOLVER_STOREV_DIRECT_DEFINED
#define TRNSOLVER_STOREV_DIRECT_DEFINED
typedef enum { TRNBLAS_STOREV_COLUMNWISE = 0, TRNBLAS_STOREV_ROWWISE = 1 } trnsolverStorevMode_t;
typedef enum { TRNBLAS_DIRECT_FORWARD = 0, TRNBLAS_DIRECT_BACKWARD = 1 } trnsolverDirectMode_t;
#endif
#endif /* TRNSOLVER_COMMON_H */
