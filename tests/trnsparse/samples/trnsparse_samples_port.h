/* What NVIDIA's cuSPARSE samples (CUDALibrarySamples/cuSPARSE, Apache-2.0) need once ported to
 * trnsparse on host memory by port.py: the C headers, the samples' CHECK_CUSPARSE macro after the
 * prefix substitution (print the failing line and status, return EXIT_FAILURE), and host-memory
 * stand-ins for the CUDA runtime's memory calls (port_malloc / port_memcpy / port_memset / port_free,
 * CHECK_PORT: status 0 on success). Each ported sample is int trnsparse_sample_<name>(void) and
 * prints "<name>_example test PASSED" when its check holds. */
#ifndef TRNSPARSE_SAMPLES_PORT_H
#define TRNSPARSE_SAMPLES_PORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trnsparse.h"

#define CHECK_TRNSPARSE(func)                                                                         \
  {                                                                                                   \
    trnsparseStatus_t status = (func);                                                                \
    if (status != TRNSPARSE_STATUS_SUCCESS) {                                                         \
      printf("TRNSPARSE API failed at line %d with error: %s (%d)\n", __LINE__,                       \
             trnsparseGetErrorString(status), (int)status);                                           \
      return EXIT_FAILURE;                                                                            \
    }                                                                                                 \
  }

enum { PORT_HOST_TO_DEVICE, PORT_DEVICE_TO_HOST, PORT_DEVICE_TO_DEVICE };
static inline int port_malloc(void* pointer, size_t bytes) { /* pointer: the address of a T* */
  void* p = malloc(bytes > 0 ? bytes : 1);
  memcpy(pointer, &p, sizeof p);
  return p == NULL;
}
static inline int port_memcpy(void* dst, const void* src, size_t bytes, int kind) {
  (void)kind;
  memcpy(dst, src, bytes);
  return 0;
}
static inline int port_memset(void* dst, int value, size_t bytes) {
  memset(dst, value, bytes);
  return 0;
}
static inline int port_free(void* p) {
  free(p);
  return 0;
}
#define CHECK_PORT(func)                                                                              \
  {                                                                                                   \
    if ((func) != 0) {                                                                                \
      printf("host memory call failed at line %d\n", __LINE__);                                      \
      return EXIT_FAILURE;                                                                            \
    }                                                                                                 \
  }

#ifdef TRNBLAS_H /* a sample that also calls cuBLAS (port.py includes trnblas.h before this header) */
#define CHECK_TRNBLAS(func)                                                                           \
  {                                                                                                   \
    trnblasStatus_t status = (func);                                                                  \
    if (status != TRNBLAS_STATUS_SUCCESS) {                                                           \
      printf("TRNBLAS API failed at line %d with error: %d\n", __LINE__, (int)status);                \
      return EXIT_FAILURE;                                                                            \
    }                                                                                                 \
  }
#endif

#endif
