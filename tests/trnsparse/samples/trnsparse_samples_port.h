/* What NVIDIA's cuSPARSE samples (CUDALibrarySamples/cuSPARSE, Apache-2.0) need once ported to
 * trnsparse on host memory by port.py: the C headers and the samples' CHECK_CUSPARSE macro after the
 * prefix substitution (print the failing line and status, return EXIT_FAILURE). Each ported sample
 * is int trnsparse_sample_<name>(void) and prints "<name>_example test PASSED" when its check holds. */
#ifndef TRNSPARSE_SAMPLES_PORT_H
#define TRNSPARSE_SAMPLES_PORT_H

#include <stdio.h>
#include <stdlib.h>

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

#endif
