/* What the ported cuSOLVER C samples share (trnsolver_c_qr_samples.c, trnsolver_c_eig_samples.c): the
 * status check that returns the first status that was not SUCCESS, and the samples' print_matrix. */
#ifndef TRNSOLVER_C_SAMPLE_UTIL_H
#define TRNSOLVER_C_SAMPLE_UTIL_H
#include <stdio.h>

#define SAMPLE_CHECK(call)            \
  do {                                \
    const int status_ = (int)(call);  \
    if (status_ != 0) return status_; \
  } while (0)

static void print_matrix(int m, int n, const double* A, int lda) {
  int i, j;
  for (i = 0; i < m; i++) {
    for (j = 0; j < n; j++) printf("%0.2f ", A[j * lda + i]);
    printf("\n");
  }
}

#endif
