/* trnfftMp.h - cufftMp.h after the prefix substitution (cufft -> trnfft, CUFFT -> TRNFFT, cuda -> trn):
 * distributed 2-D and 3-D FFTs over MPI, one rank = one emulated Trainium device (docs/scale-out.md
 * "trnfftMp"). A cuFFTMp plan is a cuFFT handle: trnfftCreate makes it, trnfftSetTarget /
 * trnfftSetPlanPrecision set it up, trnfftDestroy frees it (and the distributed state). Differences
 * (documented): every "device" buffer is host memory (trnfftXtMalloc allocates it, trnfftXtMemcpy
 * copies host to host); execution is synchronous; the built-in slab distributions only
 * (TRNFFT_XT_FORMAT_INPLACE / _INPLACE_SHUFFLED) and the box API trnfftXtSetDistribution (any
 * boxes, run on a pencil decomposition); C2C / Z2Z, R2C / C2R and D2Z / Z2D on both. The plan is made by trnfftMpMakePlan2d/3d (the
 * communicator passed there, or the one trnfftMpAttachComm attached when comm_handle is NULL), or,
 * as cuFFTMp programs do, by trnfft's trnfftMakePlan2d / 3d / Many / Many64 on a handle with an
 * attached communicator (rank 2 or 3, batch 1, NULL embeds: else TRNFFT_NOT_SUPPORTED on every rank);
 * without one they make single-device plans. Collective calls exchange their status and arguments
 * first: every rank returns the same status.
 * Real transforms (cuFFTMp's slab semantics): the real array n0 x n1 [x n2] is INPLACE (split along
 * n0) with its last axis padded to 2 (n_last/2 + 1) reals; the half spectrum n0 x n1 x (n2/2 + 1)
 * (3-D) or n0 x (n1/2 + 1) (2-D) is INPLACE_SHUFFLED, split along its axis 1 (n1, or n1/2 + 1 in
 * 2-D). R2C / D2Z run forward (INPLACE -> INPLACE_SHUFFLED), C2R / Z2D inverse; unnormalised. */
#ifndef TRNFFTMP_H
#define TRNFFTMP_H

#include <mpi.h>

#include "trnfftXt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cufftMpCommType (values unverified against cufftMp.h). TRNFFT_COMM_NONE has no bootstrap here:
 * INVALID_VALUE. */
typedef enum trnfftMpCommType_t { TRNFFT_COMM_MPI = 0x00, TRNFFT_COMM_NONE = 0x01 } trnfftMpCommType;

/* cudalibxt.h's descriptors after the prefix rule: one "device" per rank (nGPUs = 1, GPUs[0] = the
 * rank, data[0] host memory of size[0] bytes, holding the rank's slab). */
#define TRN_MAX_DESCRIPTOR_DEVICES 64
typedef struct trnXtDesc_t {
  int version;
  int nGPUs;
  int GPUs[TRN_MAX_DESCRIPTOR_DEVICES];
  void* data[TRN_MAX_DESCRIPTOR_DEVICES];
  size_t size[TRN_MAX_DESCRIPTOR_DEVICES];
  void* trnXtState;
} trnXtDesc;
typedef enum trnLibFormat_t { LIB_FORMAT_TRNFFT = 0x0, LIB_FORMAT_UNDEFINED = 0x1 } trnLibFormat;
typedef struct trnLibXtDesc_t {
  int version;
  trnXtDesc* descriptor;
  trnLibFormat library;
  int subFormat; /* trnfftXtSubFormat: where the data is now */
  void* libDescriptor;
} trnLibXtDesc;

/* cufftXtSubFormat / cufftXtCopyType (same values). */
typedef enum trnfftXtSubFormat_t {
  TRNFFT_XT_FORMAT_INPUT = 0x00,
  TRNFFT_XT_FORMAT_OUTPUT = 0x01,
  TRNFFT_XT_FORMAT_INPLACE = 0x02,          /* slabs along n0: the first n0 % P ranks n0/P + 1 planes */
  TRNFFT_XT_FORMAT_INPLACE_SHUFFLED = 0x03, /* slabs along n1 (local array n0 x n1_loc [x n2]) */
  TRNFFT_XT_FORMAT_1D_INPUT_SHUFFLED = 0x04,
  TRNFFT_XT_FORMAT_DISTRIBUTED_INPUT = 0x05,
  TRNFFT_XT_FORMAT_DISTRIBUTED_OUTPUT = 0x06,
  TRNFFT_FORMAT_UNDEFINED = 0x07
} trnfftXtSubFormat;
typedef enum trnfftXtCopyType_t {
  TRNFFT_COPY_HOST_TO_DEVICE = 0x00,
  TRNFFT_COPY_DEVICE_TO_HOST = 0x01,
  TRNFFT_COPY_DEVICE_TO_DEVICE = 0x02,
  TRNFFT_COPY_UNDEFINED = 0x03
} trnfftXtCopyType;

/* Attaches an MPI communicator (comm_handle points to an MPI_Comm) to a created, not yet made plan.
 * Local. Positions: comm_type 1, comm_handle 2. */
trnfftResult trnfftMpAttachComm(trnfftHandle plan, trnfftMpCommType comm_type, void* comm_handle);
/* Collective over the communicator (comm_handle, or the attached one when NULL): every rank passes
 * the same sizes and type (any trnfftType; sizes are the real sizes of R2C / C2R); workSize
 * receives the rank's scratch bytes. Positions: nx 1, ny 2, [nz 3,] type, comm_handle, comm_type,
 * workSize. Sizes differing across ranks: TRNFFT_INVALID_SIZE on every rank. */
trnfftResult trnfftMpMakePlan2d(trnfftHandle plan, int nx, int ny, trnfftType type, void* comm_handle,
                                trnfftMpCommType comm_type, size_t* workSize);
trnfftResult trnfftMpMakePlan3d(trnfftHandle plan, int nx, int ny, int nz, trnfftType type, void* comm_handle,
                                trnfftMpCommType comm_type, size_t* workSize);

/* Local. format TRNFFT_XT_FORMAT_INPLACE or _INPLACE_SHUFFLED (the data's distribution); the buffer
 * holds the larger of the rank's two slabs. Positions: descriptor 1, format 2. */
trnfftResult trnfftXtMalloc(trnfftHandle plan, trnLibXtDesc** descriptor, trnfftXtSubFormat format);
/* Local. HOST_TO_DEVICE: dstPointer a descriptor, srcPointer the rank's slab in the descriptor's
 * distribution; DEVICE_TO_HOST the other way; DEVICE_TO_DEVICE descriptor to descriptor (the
 * distribution travels). Positions: dstPointer 1, srcPointer 2, type 3. */
trnfftResult trnfftXtMemcpy(trnfftHandle plan, void* dstPointer, void* srcPointer, trnfftXtCopyType type);
trnfftResult trnfftXtFree(trnLibXtDesc* descriptor);
/* Collective. Forward: input INPLACE -> output INPLACE_SHUFFLED; inverse: INPLACE_SHUFFLED ->
 * INPLACE (other combinations INVALID_VALUE); input == output is the in-place transform. The
 * output descriptor's subFormat is updated. A real plan's direction is its type's (R2C / D2Z
 * TRNFFT_FORWARD, C2R / Z2D TRNFFT_INVERSE; the other: INVALID_VALUE). Positions: input 1,
 * output 2, direction 3. */
trnfftResult trnfftXtExecDescriptor(trnfftHandle plan, trnLibXtDesc* input, trnLibXtDesc* output, int direction);
trnfftResult trnfftXtExecDescriptorC2C(trnfftHandle plan, trnLibXtDesc* input, trnLibXtDesc* output, int direction);
trnfftResult trnfftXtExecDescriptorZ2Z(trnfftHandle plan, trnLibXtDesc* input, trnLibXtDesc* output, int direction);
/* cufftXt's real executions (no direction: the type's). The plan's type must match: INVALID_TYPE. */
trnfftResult trnfftXtExecDescriptorR2C(trnfftHandle plan, trnLibXtDesc* input, trnLibXtDesc* output);
trnfftResult trnfftXtExecDescriptorC2R(trnfftHandle plan, trnLibXtDesc* input, trnLibXtDesc* output);
trnfftResult trnfftXtExecDescriptorD2Z(trnfftHandle plan, trnLibXtDesc* input, trnLibXtDesc* output);
trnfftResult trnfftXtExecDescriptorZ2D(trnfftHandle plan, trnLibXtDesc* input, trnLibXtDesc* output);

/* cuFFTMp's box API ("flexible slabs and pencils"). Local; before the make call (after it:
 * INVALID_PLAN). rank 2 or 3 (the transform's; the make call's must match: INVALID_VALUE on every
 * rank); this rank's input and output boxes [lower, upper) in global indices (slowest axis first),
 * element (i, j[, k]) at sum (x_d - lower_d) strides_d of the rank's buffer. Real types (cuFFTMp's
 * rule, for R2C and C2R plans alike): the input box lies in the real domain n0 x n1 [x n2] (strides
 * in real elements: the in-place padding 2 (n_last/2 + 1) is a stride choice), the output box in the
 * half spectrum n0 x [n1 x] (n_last/2 + 1) (complex elements); R2C / D2Z run DISTRIBUTED_INPUT ->
 * DISTRIBUTED_OUTPUT, C2R / Z2D the other way. The make call (collective) allgathers every rank's boxes and
 * checks that the input boxes and the output boxes each tile the domain exactly: overlap, holes,
 * a box outside the domain → INVALID_VALUE on every rank. Then XtMalloc with
 * TRNFFT_XT_FORMAT_DISTRIBUTED_INPUT / _OUTPUT (the buffer holds the larger span in bytes), forward
 * DISTRIBUTED_INPUT -> DISTRIBUTED_OUTPUT, inverse the other way (docs/scale-out.md 9.8).
 * Positions (NULL pointers first, then the values): rank 1, lower_input 2 (a bound outside
 * [0, 2^27]), upper_input 3 (also upper < lower), lower_output 4, upper_output 5, strides_input 6
 * (a stride outside [1, 2^31], or a layout in which two elements share an address), strides_output 7. */
trnfftResult trnfftXtSetDistribution(trnfftHandle plan, int rank, const long long int* lower_input,
                                     const long long int* upper_input, const long long int* lower_output,
                                     const long long int* upper_output, const long long int* strides_input,
                                     const long long int* strides_output);

/* ---- extensions ---- */
/* The modeled profile of the rank's last execution (its trace: the local plans and the link records). */
trnfftResult trnfftMpGetLastProfile(trnfftHandle plan, trnProfile_t* profile);
/* The distributed plan in text (the rank's slabs, steps, predicted time, communication share). */
trnfftResult trnfftMpGetPlanDescription(trnfftHandle plan, char* description, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* TRNFFTMP_H */
