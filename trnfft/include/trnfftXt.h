/* trnfftXt.h - cufftXt.h after the prefix substitution: the single-device Xt API of trnfft.
 * trnfftXtMakePlanMany and trnfftXtExec are declared in trnfft.h (included here); this header adds
 * the work-area calls and XtGetSizeMany. Not provided, by design (docs/trnfft.md "Xt API"): the
 * multi-GPU calls (XtSetGPUs, XtMalloc, XtMemcpy, XtFree, XtExecDescriptor*, XtQueryPlan and the
 * cudaLibXtDesc descriptors) — one emulated device holds host memory — and the device callbacks
 * (XtSetCallback, XtClearCallback, XtSetCallbackSharedSize, XtSetJITCallback), which are device
 * code compiled for a GPU. */
#ifndef TRNFFTXT_H
#define TRNFFTXT_H

#include "trnfft.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cufftXtWorkAreaPolicy (same values). trnfft's scratch is host memory the library allocates and
 * sizes itself, so every policy gives the same plan: the policy is checked and recorded. */
typedef enum trnfftXtWorkAreaPolicy_t {
  TRNFFT_WORKAREA_MINIMAL = 0,     /* maximum reduction */
  TRNFFT_WORKAREA_USER = 1,        /* use workSize parameter as limit */
  TRNFFT_WORKAREA_PERFORMANCE = 2  /* default */
} trnfftXtWorkAreaPolicy;

/* The work size of the plan XtMakePlanMany would make from the same arguments (the plan itself is
 * left as it is). Positions as XtMakePlanMany: ... batch 11, workSize 12, executiontype 13. */
trnfftResult trnfftXtGetSizeMany(trnfftHandle plan, int rank, long long int* n, long long int* inembed,
                                 long long int istride, long long int idist, trnDataType_t inputtype,
                                 long long int* onembed, long long int ostride, long long int odist,
                                 trnDataType_t outputtype, long long int batch, size_t* workSize,
                                 trnDataType_t executiontype);
/* One work area per GPU of the plan: workArea[0] is recorded as trnfftSetWorkArea records it. */
trnfftResult trnfftXtSetWorkArea(trnfftHandle plan, void** workArea);
/* Policy 1, workSize 2 (read for TRNFFT_WORKAREA_USER, which needs it; may be NULL otherwise). */
trnfftResult trnfftXtSetWorkAreaPolicy(trnfftHandle plan, trnfftXtWorkAreaPolicy policy, size_t* workSize);

#ifdef __cplusplus
}
#endif
#endif /* TRNFFTXT_H */
