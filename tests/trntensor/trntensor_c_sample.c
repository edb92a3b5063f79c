/* trntensor.h compiled as C99: the project's own contraction program through the C API,
 * D[i,b,j] = alpha A[i,k,b,l] B[l,j,k] + beta C[i,b,j] with D = C (one buffer), R_32F data and
 * COMPUTE_DESC_32F, host memory: handle, three packed descriptors, contraction, SCALAR_TYPE check,
 * plan preference, workspace estimate, plan, REQUIRED_WORKSPACE, contract, every object destroyed.
 * Called from test_trntensor_capi.cpp, which checks C against an FP64 loop. Returns 0 on success,
 * otherwise the number of the step that failed. */
#include <stdint.h>
#include <stdlib.h>

#include "trntensor.h"

/* The mode labels of each operand and where each label's extent sits in ext[] (i b j k l). */
static const int32_t kModesA[4] = {'i', 'k', 'b', 'l'};
static const int32_t kModesB[3] = {'l', 'j', 'k'};
static const int32_t kModesC[3] = {'i', 'b', 'j'};

static int64_t extent_of_label(int32_t label, const int64_t* ext) {
  switch (label) {
    case 'i': return ext[0];
    case 'b': return ext[1];
    case 'j': return ext[2];
    case 'k': return ext[3];
    default: return ext[4];
  }
}

static void extents_of_modes(const int32_t* modes, int n, const int64_t* ext, int64_t* out) {
  int m;
  for (m = 0; m < n; ++m) out[m] = extent_of_label(modes[m], ext);
}

/* The objects a run creates (NULL until created), released in one place. */
struct c_program {
  trntensorHandle_t handle;
  trntensorTensorDescriptor_t a, b, c;
  trntensorOperationDescriptor_t op;
  trntensorPlanPreference_t pref;
  trntensorPlan_t plan;
  void* work;
};

static void release(struct c_program* p) {
  if (p->plan) trntensorDestroyPlan(p->plan);
  if (p->pref) trntensorDestroyPlanPreference(p->pref);
  if (p->op) trntensorDestroyOperationDescriptor(p->op);
  if (p->c) trntensorDestroyTensorDescriptor(p->c);
  if (p->b) trntensorDestroyTensorDescriptor(p->b);
  if (p->a) trntensorDestroyTensorDescriptor(p->a);
  if (p->handle) trntensorDestroy(p->handle);
  free(p->work);
}

#define STEP(call, step)                                     \
  do {                                                       \
    if ((call) != TRNTENSOR_STATUS_SUCCESS) {                \
      release(&p);                                           \
      return (step);                                         \
    }                                                        \
  } while (0)

int trntensor_c_sample(const float* A, const float* B, float* C, const int64_t* ext /* i b j k l */, float alpha,
                       float beta) {
  struct c_program p = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  int64_t extA[4], extB[3], extC[3];
  trntensorDataType_t scalar = TRNTENSOR_R_64F;
  uint64_t estimate = 0, required = 0;
  extents_of_modes(kModesA, 4, ext, extA);
  extents_of_modes(kModesB, 3, ext, extB);
  extents_of_modes(kModesC, 3, ext, extC);
  STEP(trntensorCreate(&p.handle), 1);
  STEP(trntensorCreateTensorDescriptor(p.handle, &p.a, 4, extA, NULL, TRNTENSOR_R_32F, 16), 2);
  STEP(trntensorCreateTensorDescriptor(p.handle, &p.b, 3, extB, NULL, TRNTENSOR_R_32F, 16), 3);
  STEP(trntensorCreateTensorDescriptor(p.handle, &p.c, 3, extC, NULL, TRNTENSOR_R_32F, 16), 4);
  STEP(trntensorCreateContraction(p.handle, &p.op, p.a, kModesA, TRNTENSOR_OP_IDENTITY, p.b, kModesB,
                                  TRNTENSOR_OP_IDENTITY, p.c, kModesC, TRNTENSOR_OP_IDENTITY, p.c, kModesC,
                                  TRNTENSOR_COMPUTE_DESC_32F),
       5);
  STEP(trntensorOperationDescriptorGetAttribute(p.handle, p.op, TRNTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE, &scalar,
                                                sizeof(scalar)),
       6);
  STEP(scalar == TRNTENSOR_R_32F ? TRNTENSOR_STATUS_SUCCESS : TRNTENSOR_STATUS_INTERNAL_ERROR, 7);
  STEP(trntensorCreatePlanPreference(p.handle, &p.pref, TRNTENSOR_ALGO_DEFAULT, TRNTENSOR_JIT_MODE_NONE), 8);
  STEP(trntensorEstimateWorkspaceSize(p.handle, p.op, p.pref, TRNTENSOR_WORKSPACE_DEFAULT, &estimate), 9);
  STEP(trntensorCreatePlan(p.handle, &p.plan, p.op, p.pref, estimate), 10);
  STEP(trntensorPlanGetAttribute(p.handle, p.plan, TRNTENSOR_PLAN_REQUIRED_WORKSPACE, &required, sizeof(required)), 11);
  STEP(required <= estimate ? TRNTENSOR_STATUS_SUCCESS : TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE, 12);
  if (required > 0) STEP((p.work = malloc((size_t)required)) != NULL ? TRNTENSOR_STATUS_SUCCESS : TRNTENSOR_STATUS_ALLOC_FAILED, 13);
  STEP(trntensorContract(p.handle, p.plan, &alpha, A, B, &beta, C, C, p.work, required, NULL), 14);
  release(&p);
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
