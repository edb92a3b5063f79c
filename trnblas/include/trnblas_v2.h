/* trnblas_v2.h - cuBLAS programs include cublas_v2.h or cublas_api.h; after the prefix substitution they
 * include this header, which is trnblas.h. */
#include "trnblas.h"
