/* trnfft.h: cuFFT-shaped C API of trnfft (pure C, C99). A prefix substitution cufft -> trnfft,
 * CUFFT -> TRNFFT ports a cuFFT host program: same function names, argument order and meaning,
 * same numeric enum values (CUDA 13 cufft.h). Differences (docs/trnfft.md): data pointers are host
 * memory; execution is synchronous (streams are stored and ignored); work areas are accepted and
 * recorded, the library allocates its own host scratch. Extensions: plan precision, plan
 * description, modeled profile, logging. */
#ifndef TRNFFT_H
#define TRNFFT_H

#include <stddef.h>

#include "trnComplex.h"
#include "trncore.h"
#include "trnprofile.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TRNFFT_VER_MAJOR 0
#define TRNFFT_VER_MINOR 1
#define TRNFFT_VER_PATCH 0
#define TRNFFT_VERSION (TRNFFT_VER_MAJOR * 1000 + TRNFFT_VER_MINOR * 100 + TRNFFT_VER_PATCH)

typedef enum trnfftResult_t {
  TRNFFT_SUCCESS = 0x0,
  TRNFFT_INVALID_PLAN = 0x1,
  TRNFFT_ALLOC_FAILED = 0x2,
  TRNFFT_INVALID_TYPE = 0x3,
  TRNFFT_INVALID_VALUE = 0x4,
  TRNFFT_INTERNAL_ERROR = 0x5,
  TRNFFT_EXEC_FAILED = 0x6,
  TRNFFT_SETUP_FAILED = 0x7,
  TRNFFT_INVALID_SIZE = 0x8,
  TRNFFT_UNALIGNED_DATA = 0x9,
  TRNFFT_INVALID_DEVICE = 0xB,
  TRNFFT_NO_WORKSPACE = 0xD,
  TRNFFT_NOT_IMPLEMENTED = 0xE,
  TRNFFT_NOT_SUPPORTED = 0x10,
  TRNFFT_MISSING_DEPENDENCY = 0x11,
  TRNFFT_NVRTC_FAILURE = 0x12,
  TRNFFT_NVJITLINK_FAILURE = 0x13,
  TRNFFT_NVSHMEM_FAILURE = 0x14
} trnfftResult;

typedef float trnfftReal;
typedef double trnfftDoubleReal;
/* cuFFT's cuComplex / cuDoubleComplex (float2 / double2): members x (real) and y (imaginary). */
typedef trnComplex trnfftComplex;
typedef trnDoubleComplex trnfftDoubleComplex;

#define TRNFFT_FORWARD -1
#define TRNFFT_INVERSE 1

typedef enum trnfftType_t {
  TRNFFT_R2C = 0x2a,
  TRNFFT_C2R = 0x2c,
  TRNFFT_C2C = 0x29,
  TRNFFT_D2Z = 0x6a,
  TRNFFT_Z2D = 0x6c,
  TRNFFT_Z2Z = 0x69
} trnfftType;

typedef enum trnfftCompatibility_t { TRNFFT_COMPATIBILITY_FFTW_PADDING = 0x01 } trnfftCompatibility;
#define TRNFFT_COMPATIBILITY_DEFAULT TRNFFT_COMPATIBILITY_FFTW_PADDING

typedef int trnfftHandle;
#define TRNFFT_PLAN_NULL -1

/* Extension: the arithmetic of the DFT stages (names of trn::blas::GemmMode). */
typedef enum trnfftPrecision_t {
  TRNFFT_PRECISION_FP32 = 0,   /* default: fp32 tiles, exact products, fp32 PSUM (4-pass TensorE) */
  TRNFFT_PRECISION_BF16 = 1,   /* bf16 tiles (fast), error ~ u_bf16 */
  TRNFFT_PRECISION_BF16X3 = 2  /* bf16 hi/lo split, 3 products per real matmul in one PSUM group */
} trnfftPrecision_t;

trnfftResult trnfftPlan1d(trnfftHandle* plan, int nx, trnfftType type, int batch);
trnfftResult trnfftPlan2d(trnfftHandle* plan, int nx, int ny, trnfftType type);
trnfftResult trnfftPlan3d(trnfftHandle* plan, int nx, int ny, int nz, trnfftType type);
trnfftResult trnfftPlanMany(trnfftHandle* plan, int rank, int* n, int* inembed, int istride, int idist, int* onembed,
                            int ostride, int odist, trnfftType type, int batch);

trnfftResult trnfftCreate(trnfftHandle* handle);
trnfftResult trnfftMakePlan1d(trnfftHandle plan, int nx, trnfftType type, int batch, size_t* workSize);
trnfftResult trnfftMakePlan2d(trnfftHandle plan, int nx, int ny, trnfftType type, size_t* workSize);
trnfftResult trnfftMakePlan3d(trnfftHandle plan, int nx, int ny, int nz, trnfftType type, size_t* workSize);
trnfftResult trnfftMakePlanMany(trnfftHandle plan, int rank, int* n, int* inembed, int istride, int idist, int* onembed,
                                int ostride, int odist, trnfftType type, int batch, size_t* workSize);
trnfftResult trnfftMakePlanMany64(trnfftHandle plan, int rank, long long int* n, long long int* inembed,
                                  long long int istride, long long int idist, long long int* onembed,
                                  long long int ostride, long long int odist, trnfftType type, long long int batch,
                                  size_t* workSize);
trnfftResult trnfftGetSizeMany64(trnfftHandle plan, int rank, long long int* n, long long int* inembed,
                                 long long int istride, long long int idist, long long int* onembed,
                                 long long int ostride, long long int odist, trnfftType type, long long int batch,
                                 size_t* workSize);

trnfftResult trnfftEstimate1d(int nx, trnfftType type, int batch, size_t* workSize);
trnfftResult trnfftEstimate2d(int nx, int ny, trnfftType type, size_t* workSize);
trnfftResult trnfftEstimate3d(int nx, int ny, int nz, trnfftType type, size_t* workSize);
trnfftResult trnfftEstimateMany(int rank, int* n, int* inembed, int istride, int idist, int* onembed, int ostride,
                                int odist, trnfftType type, int batch, size_t* workSize);

trnfftResult trnfftGetSize1d(trnfftHandle handle, int nx, trnfftType type, int batch, size_t* workSize);
trnfftResult trnfftGetSize2d(trnfftHandle handle, int nx, int ny, trnfftType type, size_t* workSize);
trnfftResult trnfftGetSize3d(trnfftHandle handle, int nx, int ny, int nz, trnfftType type, size_t* workSize);
trnfftResult trnfftGetSizeMany(trnfftHandle handle, int rank, int* n, int* inembed, int istride, int idist,
                               int* onembed, int ostride, int odist, trnfftType type, int batch, size_t* workArea);
trnfftResult trnfftGetSize(trnfftHandle handle, size_t* workSize);
trnfftResult trnfftSetWorkArea(trnfftHandle plan, void* workArea);
trnfftResult trnfftSetAutoAllocation(trnfftHandle plan, int autoAllocate);

trnfftResult trnfftExecC2C(trnfftHandle plan, trnfftComplex* idata, trnfftComplex* odata, int direction);
trnfftResult trnfftExecR2C(trnfftHandle plan, trnfftReal* idata, trnfftComplex* odata);
trnfftResult trnfftExecC2R(trnfftHandle plan, trnfftComplex* idata, trnfftReal* odata);
trnfftResult trnfftExecZ2Z(trnfftHandle plan, trnfftDoubleComplex* idata, trnfftDoubleComplex* odata, int direction);
trnfftResult trnfftExecD2Z(trnfftHandle plan, trnfftDoubleReal* idata, trnfftDoubleComplex* odata);
trnfftResult trnfftExecZ2D(trnfftHandle plan, trnfftDoubleComplex* idata, trnfftDoubleReal* odata);

/* Xt API (cufftXt.h): typed plans. (inputtype, outputtype, executiontype) from one family --
 * TRN_{C,R}_32F, TRN_{C,R}_64F, TRN_{C,R}_16F, TRN_{C,R}_16BF -- give C2C, R2C or C2R (Z2Z, D2Z, Z2D);
 * 16-bit families keep the user's arrays in f16 / bf16 (TRN_C_16BF executes in bf16 tiles,
 * TRN_C_16F in fp32). Other combinations: TRNFFT_INVALID_TYPE. */
trnfftResult trnfftXtMakePlanMany(trnfftHandle plan, int rank, long long int* n, long long int* inembed,
                                  long long int istride, long long int idist, trnDataType_t inputtype,
                                  long long int* onembed, long long int ostride, long long int odist,
                                  trnDataType_t outputtype, long long int batch, size_t* workSize,
                                  trnDataType_t executiontype);
trnfftResult trnfftXtExec(trnfftHandle plan, void* input, void* output, int direction);

trnfftResult trnfftSetStream(trnfftHandle plan, trnStream_t stream);
trnfftResult trnfftDestroy(trnfftHandle plan);
trnfftResult trnfftGetVersion(int* version);
/* MAJOR_VERSION, MINOR_VERSION or PATCH_LEVEL of the library (libraryPropertyType: trncore.h). */
trnfftResult trnfftGetProperty(libraryPropertyType type, int* value);

/* Per-plan int64 properties (cufftProperty; the NVFFT_ names carry no cu prefix and port as written).
 * trnsci has no JIT and plans on one host thread: both values are checked (PATIENT_JIT 0 or 1,
 * MAX_NUM_HOST_THREADS >= 1), stored and returned, and change no result or modeled time. Reset
 * restores the default (0: not patient; 0: the library's choice of host threads). */
typedef enum trnfftProperty_t {
  NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT = 0x1,
  NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS = 0x2
} trnfftProperty;
trnfftResult trnfftSetPlanPropertyInt64(trnfftHandle plan, trnfftProperty property, const long long int inputValueInt);
trnfftResult trnfftGetPlanPropertyInt64(trnfftHandle plan, trnfftProperty property, long long int* returnPtrValue);
trnfftResult trnfftResetPlanProperty(trnfftHandle plan, trnfftProperty property);

/* ---- extensions ---- */
/* The enumerator's name ("TRNFFT_INVALID_PLAN"), "TRNFFT_UNKNOWN_STATUS" for any other value (cuFFT has
 * no such function; as trnblasGetStatusName / cublasGetStatusName). */
const char* trnfftGetStatusName(trnfftResult status);
/* Precision of a plan. Before trnfftMakePlan*: used when the plan is made; after: the plan is rebuilt. */
trnfftResult trnfftSetPlanPrecision(trnfftHandle plan, trnfftPrecision_t precision);
trnfftResult trnfftGetPlanPrecision(trnfftHandle plan, trnfftPrecision_t* precision);
/* Earlier names of trnfftSetTarget and trnfftSetNumericsProfile (kept). */
trnfftResult trnfftSetPlanTarget(trnfftHandle plan, trnTarget_t target);
trnfftResult trnfftSetPlanNumerics(trnfftHandle plan, trnNumerics_t numerics);
/* The plan in text: algorithm per stage, radices, tile shapes, engines, predicted error bound,
 * modeled time. Writes at most `size` bytes (always NUL-terminated); TRNFFT_INVALID_VALUE when
 * the text did not fit (the truncated text is still written). */
trnfftResult trnfftGetPlanDescription(trnfftHandle plan, char* description, size_t size);
/* ---- the emulation surface every trnsci library has (trncore.h, TRN_EMULATION_API): the handle is the plan;
 * a setting changed after MakePlan rebuilds the plan (the old one stays on failure).
 * Set/Get Target, NumericsProfile, StochasticRounding(enable, seed), NumCores; GetLastProfile
 * (modeled cost of the last compute call, docs/cost-model.md); GetLastErrorParameter (1-based
 * position of the last illegal argument, 0 if none); trnfftLoggerConfigure, trnfftSet/GetLoggerCallback,
 * trnfftLoggerSetCallback. ---- */
/* Logging (cuBLAS style): TRNFFT_LOGINFO_DBG=1, TRNFFT_LOGDEST_DBG=stdout|stderr|<file>. */
typedef trnLogCallback_t trnfftLogCallback;
TRN_EMULATION_API(trnfft, trnfft, trnfftHandle, trnfftResult)
TRN_PROFILE_SIZED_API(trnfft, trnfftHandle, trnfftResult)  /* trnprofile.h: the versioned trnProfile_t */

#ifdef __cplusplus
}
#endif

#endif /* TRNFFT_H */
