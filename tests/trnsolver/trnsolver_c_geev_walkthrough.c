/* trnsolverDnXgeev from plain C99: the project's own walkthrough of the 64-bit API's call sequence
 * (handle, stream, params object, the workspace query, device + host workspaces, the call, info,
 * destroy) as a C program written against cuSOLVER's cusolverDnXgeev would make it. The problems and
 * their expected results belong to test_trnsolver_geev.cpp (GeevWalkthrough.*), which passes the
 * matrix in and checks what comes out against known spectra, LAPACKE and a long-double residual.
 *
 * Algorithm: none here (the C API's protocol only). Engines: those of trnsolverDnXgeev.
 * Accuracy: that of trnsolverDnXgeev (docs/trnsolver.md "Non-symmetric eigen (Xgeev)").
 * Limits: jobvl NOVECTOR (trnsolver's Xgeev supports no left vectors, as cuSOLVER 12.x), jobvr VECTOR;
 * A, VR column-major with lda = ldvr = n; computeType = dataTypeA = dataTypeVR. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trnsolverDn.h"
#include "trnsolver_c_walkthrough.h"

/* Bytes of one element of a dense array of type `t` (0: a type Xgeev does not take). */
static size_t element_bytes(trnDataType_t t) {
  switch (t) {
    case TRN_R_32F: return 4;
    case TRN_R_64F: return 8;
    case TRN_C_32F: return 8;
    case TRN_C_64F: return 16;
    default: return 0;
  }
}

int trnsolver_walkthrough_xgeev(int64_t n, trnDataType_t type_a, trnDataType_t type_w, const void* A, void* W,
                                void* VR, int* info);

/* Eigenvalues W and right eigenvectors VR (n x n, ldvr = n) of the n x n column-major A (left
 * unchanged: Xgeev overwrites its own copy). W's layout is the one dataTypeW selects (docs/trnsolver.md).
 * Returns 0, the first status that was not SUCCESS, or -1 when a host allocation failed; *info is
 * Xgeev's (0 on success). */
int trnsolver_walkthrough_xgeev(int64_t n, trnDataType_t type_a, trnDataType_t type_w, const void* A, void* W,
                                void* VR, int* info) {
  trnsolverDnHandle_t handle = NULL;
  trnsolverDnParams_t params = NULL;
  size_t device_bytes = 0, host_bytes = 0;
  void *a_copy = NULL, *device_work = NULL, *host_work = NULL;
  const size_t a_bytes = (size_t)(n * n) * element_bytes(type_a);
  int failed = 0;
  *info = -99;
  WALK_CHECK(trnsolverDnCreate(&handle));
  WALK_CHECK(trnsolverDnSetStream(handle, NULL)); /* trnsci runs synchronously: the default stream */
  WALK_CHECK(trnsolverDnCreateParams(&params));
  a_copy = malloc(a_bytes > 0 ? a_bytes : 1);
  if (a_copy == NULL) WALK_CHECK(-1);
  memcpy(a_copy, A, a_bytes);
  WALK_CHECK(trnsolverDnXgeev_bufferSize(handle, params, TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR, n,
                                         type_a, a_copy, n, type_w, W, type_a, NULL, 1, type_a, VR, n, type_a,
                                         &device_bytes, &host_bytes));
  device_work = malloc(device_bytes > 0 ? device_bytes : 1);
  host_work = malloc(host_bytes > 0 ? host_bytes : 1);
  if (device_work == NULL || host_work == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnXgeev(handle, params, TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR, n, type_a,
                              a_copy, n, type_w, W, type_a, NULL, 1, type_a, VR, n, type_a, device_work, device_bytes,
                              host_work, host_bytes, info));
done:
  free(host_work);
  free(device_work);
  free(a_copy);
  if (params != NULL && trnsolverDnDestroyParams(params) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}
