/* cuda_runtime.h - a host stand-in for the CUDA runtime calls CUDA library samples make (the
 * CUDA-spelled cuSPARSE programs of tests/trnsparse/samples/cuda/; earlier, NVIDIA's cuRAND host
 * samples, no longer in the tree; docs/porting.md "By hand"), so that they compile after
 * tools/port-cuda.sh with no hand edit (cuda_runtime_api.h beside it is this header): memory is host memory, streams are tokens with nothing to wait for (trnsci
 * executes synchronously), cudaDeviceReset has nothing to reset. Test code only: no trnsci library
 * includes it. A fresh "device" allocation is filled with 0xA5 bytes, so a library call that leaves
 * its output unwritten shows in the printed values. */
#ifndef TRNRAND_SAMPLES_CUDA_RUNTIME_STAND_IN_H
#define TRNRAND_SAMPLES_CUDA_RUNTIME_STAND_IN_H

#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "trncore.h"

typedef int cudaError_t;
enum { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2 };
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01

inline cudaError_t cudaMalloc(void** p, std::size_t bytes) {
  if (p == nullptr) return cudaErrorInvalidValue;
  *p = std::malloc(bytes == 0 ? 1 : bytes);
  if (*p == nullptr) return cudaErrorMemoryAllocation;
  std::memset(*p, 0xA5, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaFree(void* p) {
  std::free(p);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind, trnStream_t) {
  if (bytes != 0 && (dst == nullptr || src == nullptr)) return cudaErrorInvalidValue;
  if (bytes != 0) std::memmove(dst, src, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  return cudaMemcpyAsync(dst, src, bytes, kind, nullptr);
}
/* A stream is a distinct non-NULL token (SetStream stores and returns it). */
inline cudaError_t cudaStreamCreateWithFlags(trnStream_t* s, unsigned int) {
  if (s == nullptr) return cudaErrorInvalidValue;
  *s = std::malloc(1);
  return *s != nullptr ? cudaSuccess : cudaErrorMemoryAllocation;
}
inline cudaError_t cudaStreamCreate(trnStream_t* s) { return cudaStreamCreateWithFlags(s, cudaStreamDefault); }
inline cudaError_t cudaStreamDestroy(trnStream_t s) {
  std::free(s);
  return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(trnStream_t) { return cudaSuccess; }
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaDeviceReset() { return cudaSuccess; }
inline const char* cudaGetErrorString(cudaError_t e) {
  return e == cudaSuccess ? "no error" : e == cudaErrorInvalidValue ? "invalid argument" : "out of memory";
}
/* The device a sample asks about is the emulated NeuronCore; samples read its compute capability
 * only to refuse devices that lack a path (spmm_blockedell: Blocked-ELL SpMM needs major >= 7).
 * The stand-in reports 8.0, a capability no such check refuses: every path those checks gate is
 * implemented by the trnsci library the sample calls. */
struct cudaDeviceProp {
  char name[256];
  int major;
  int minor;
  int multiProcessorCount;
  std::size_t totalGlobalMem;
};
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (prop == nullptr || device != 0) return cudaErrorInvalidValue;
  *prop = cudaDeviceProp{};
  std::strncpy(prop->name, "trnsci emulated NeuronCore (host stand-in)", sizeof prop->name - 1);
  prop->major = 8;
  prop->minor = 0;
  prop->multiProcessorCount = 1;
  prop->totalGlobalMem = std::size_t{1} << 34;
  return cudaSuccess;
}

#endif
