/* cuda_runtime.h - a host stand-in for the CUDA runtime calls NVIDIA's cuRAND host-API samples make
 * (the files in cuda/, docs/porting.md "By hand"), so that the samples compile after tools/port-cuda.sh
 * with no hand edit: memory is host memory, streams are tokens with nothing to wait for (trnsci
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

#endif
