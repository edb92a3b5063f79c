/* trntensor.h compiled as C: NVIDIA's cuTENSOR 2.x contraction sample (samples/contraction/
 * contraction.cu: C_{m,u,n,v} = alpha A_{m,h,k,n} B_{u,k,v,h} + beta C_{m,u,n,v}) ported by prefix
 * substitution to host memory, with smaller extents. Called from test_trntensor_capi.cpp, which
 * checks D against an FP64 loop. Returns 0 on success, the failing step otherwise. */
#include <stdint.h>
#include <stdlib.h>

#include "trntensor.h"

#define HANDLE_ERROR(x, step)                          \
  do {                                                 \
    if ((x) != TRNTENSOR_STATUS_SUCCESS) return (step); \
  } while (0)

int trntensor_c_sample(const float* A, const float* B, float* C, const int64_t* ext /* m u n v h k */,
                       float alpha, float beta) {
  const uint32_t kAlignment = 16; /* the sample uses 128 with cudaMalloc; malloc gives 16 */
  int32_t modeC[] = {'m', 'u', 'n', 'v'};
  int32_t modeA[] = {'m', 'h', 'k', 'n'};
  int32_t modeB[] = {'u', 'k', 'v', 'h'};
  int64_t extentC[4], extentA[4], extentB[4];
  int i;
  trntensorHandle_t handle;
  trntensorTensorDescriptor_t descA, descB, descC;
  trntensorOperationDescriptor_t desc;
  trntensorPlanPreference_t planPref;
  trntensorPlan_t plan;
  trntensorDataType_t scalarType;
  uint64_t workspaceSizeEstimate = 0, actualWorkspaceSize = 0;
  void* work = NULL;
  const trntensorComputeDescriptor_t descCompute = TRNTENSOR_COMPUTE_DESC_32F;
  trnStream_t stream = NULL;
  int64_t extent_of[128];
  extent_of['m'] = ext[0];
  extent_of['u'] = ext[1];
  extent_of['n'] = ext[2];
  extent_of['v'] = ext[3];
  extent_of['h'] = ext[4];
  extent_of['k'] = ext[5];
  for (i = 0; i < 4; ++i) {
    extentC[i] = extent_of[modeC[i]];
    extentA[i] = extent_of[modeA[i]];
    extentB[i] = extent_of[modeB[i]];
  }
  HANDLE_ERROR(trntensorCreate(&handle), 1);
  HANDLE_ERROR(trntensorCreateTensorDescriptor(handle, &descA, 4, extentA, NULL, TRNTENSOR_R_32F, kAlignment), 2);
  HANDLE_ERROR(trntensorCreateTensorDescriptor(handle, &descB, 4, extentB, NULL, TRNTENSOR_R_32F, kAlignment), 3);
  HANDLE_ERROR(trntensorCreateTensorDescriptor(handle, &descC, 4, extentC, NULL, TRNTENSOR_R_32F, kAlignment), 4);
  HANDLE_ERROR(trntensorCreateContraction(handle, &desc, descA, modeA, TRNTENSOR_OP_IDENTITY, descB, modeB,
                                          TRNTENSOR_OP_IDENTITY, descC, modeC, TRNTENSOR_OP_IDENTITY, descC, modeC,
                                          descCompute),
               5);
  HANDLE_ERROR(trntensorOperationDescriptorGetAttribute(handle, desc, TRNTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE,
                                                        (void*)&scalarType, sizeof(scalarType)),
               6);
  if (scalarType != TRNTENSOR_R_32F) return 7;
  HANDLE_ERROR(trntensorCreatePlanPreference(handle, &planPref, TRNTENSOR_ALGO_DEFAULT, TRNTENSOR_JIT_MODE_NONE), 8);
  HANDLE_ERROR(trntensorEstimateWorkspaceSize(handle, desc, planPref, TRNTENSOR_WORKSPACE_DEFAULT, &workspaceSizeEstimate),
               9);
  HANDLE_ERROR(trntensorCreatePlan(handle, &plan, desc, planPref, workspaceSizeEstimate), 10);
  HANDLE_ERROR(trntensorPlanGetAttribute(handle, plan, TRNTENSOR_PLAN_REQUIRED_WORKSPACE, &actualWorkspaceSize,
                                         sizeof(actualWorkspaceSize)),
               11);
  if (actualWorkspaceSize > workspaceSizeEstimate) return 12;
  if (actualWorkspaceSize > 0) {
    work = malloc((size_t)actualWorkspaceSize);
    if (work == NULL) return 13;
  }
  HANDLE_ERROR(trntensorContract(handle, plan, (void*)&alpha, A, B, (void*)&beta, C, C, work, actualWorkspaceSize, stream),
               14);
  HANDLE_ERROR(trntensorDestroyPlan(plan), 15);
  HANDLE_ERROR(trntensorDestroyOperationDescriptor(desc), 16);
  HANDLE_ERROR(trntensorDestroyTensorDescriptor(descA), 17);
  HANDLE_ERROR(trntensorDestroyTensorDescriptor(descB), 18);
  HANDLE_ERROR(trntensorDestroyTensorDescriptor(descC), 19);
  HANDLE_ERROR(trntensorDestroyPlanPreference(planPref), 20);
  HANDLE_ERROR(trntensorDestroy(handle), 21);
  free(work);
  return 0;
}

/* Out-of-range enum values passed from C (well-defined here; undefined in C++ at the call site):
 * statuses of CreatePlanPreference(algo 5), CreatePlanPreference(jit 9), CreateTensorDescriptor(type 999). */
int trntensor_c_out_of_range_enums(int* statuses) {
  trntensorHandle_t h;
  trntensorPlanPreference_t p;
  trntensorTensorDescriptor_t d;
  int64_t e[1] = {3};
  if (trntensorCreate(&h) != TRNTENSOR_STATUS_SUCCESS) return -1;
  statuses[0] = trntensorCreatePlanPreference(h, &p, (trntensorAlgo_t)5, TRNTENSOR_JIT_MODE_NONE);
  statuses[1] = trntensorCreatePlanPreference(h, &p, TRNTENSOR_ALGO_DEFAULT, (trntensorJitMode_t)9);
  statuses[2] = trntensorCreateTensorDescriptor(h, &d, 1, e, NULL, (trntensorDataType_t)999, 16);
  trntensorDestroy(h);
  return 3;
}
