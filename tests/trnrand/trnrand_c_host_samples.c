/* cuRAND host-API calling sequences for every generator type trnrand implements, in C99 (the test
 * target compiles this file as C with -pedantic), written after the cuRAND documentation's "Host
 * API Example" and the per-generator host examples of NVIDIA's CUDA Library Samples: create the
 * generator, set the stream, offset, ordering and seed (pseudo-random) or the dimensions
 * (quasi-random), generate, destroy. Ported by the prefix substitution curand -> trnrand,
 * CURAND_ -> TRNRAND_; host memory replaces cudaMalloc / cudaMemcpy, and `device` chooses
 * trnrandCreateGenerator (the engines) or trnrandCreateGeneratorHost. Called from
 * test_trnrand_samples.cpp, which checks the outputs against cuRAND's stored vectors and the C++
 * generators. */
#include <stddef.h>

#include "trnrand.h"

#define SAMPLE_CHECK(call)                   \
  do {                                       \
    trnrandStatus_t sample_status_ = (call); \
    if (sample_status_ != TRNRAND_STATUS_SUCCESS) { \
      trnrandDestroyGenerator(gen);          \
      return (int)sample_status_;            \
    }                                        \
  } while (0)

static int create(trnrandGenerator_t* gen, trnrandRngType_t type, int device) {
  return (int)(device ? trnrandCreateGenerator(gen, type) : trnrandCreateGeneratorHost(gen, type));
}

/* A pseudo-random generator: n words, then n uniforms, then n normals (mean 1, stddev 2; n even)
 * from seed and offset (MT19937 has no offset in cuRAND: offset 0 skips the call). */
int trnrand_sample_pseudo(trnrandRngType_t type, int device, unsigned long long seed, unsigned long long offset,
                          size_t n, unsigned int* words, float* uniforms, float* normals);
int trnrand_sample_pseudo(trnrandRngType_t type, int device, unsigned long long seed, unsigned long long offset,
                          size_t n, unsigned int* words, float* uniforms, float* normals) {
  trnrandGenerator_t gen = NULL;
  trnStream_t stream = NULL;
  int status = create(&gen, type, device);
  if (status != TRNRAND_STATUS_SUCCESS) return status;
  SAMPLE_CHECK(trnrandSetStream(gen, stream));
  if (offset != 0) SAMPLE_CHECK(trnrandSetGeneratorOffset(gen, offset));
  SAMPLE_CHECK(trnrandSetGeneratorOrdering(gen, TRNRAND_ORDERING_PSEUDO_DEFAULT));
  SAMPLE_CHECK(trnrandSetPseudoRandomGeneratorSeed(gen, seed));
  SAMPLE_CHECK(trnrandGenerate(gen, words, n));
  SAMPLE_CHECK(trnrandGenerateUniform(gen, uniforms, n));
  SAMPLE_CHECK(trnrandGenerateNormal(gen, normals, n, 1.0f, 2.0f));
  return (int)trnrandDestroyGenerator(gen);
}

/* A quasi-random generator of `dims` dimensions: n uniforms (n a multiple of dims) from the point
 * offset, then n words (SOBOL32) or n 64-bit words (SOBOL64; `words64`). */
int trnrand_sample_quasi(trnrandRngType_t type, int device, unsigned int dims, unsigned long long offset, size_t n,
                         float* uniforms, unsigned int* words, unsigned long long* words64);
int trnrand_sample_quasi(trnrandRngType_t type, int device, unsigned int dims, unsigned long long offset, size_t n,
                         float* uniforms, unsigned int* words, unsigned long long* words64) {
  trnrandGenerator_t gen = NULL;
  int status = create(&gen, type, device);
  if (status != TRNRAND_STATUS_SUCCESS) return status;
  SAMPLE_CHECK(trnrandSetGeneratorOffset(gen, offset));
  SAMPLE_CHECK(trnrandSetGeneratorOrdering(gen, TRNRAND_ORDERING_QUASI_DEFAULT));
  SAMPLE_CHECK(trnrandSetQuasiRandomGeneratorDimensions(gen, dims));
  SAMPLE_CHECK(trnrandGenerateUniform(gen, uniforms, n));
  if (type == TRNRAND_RNG_QUASI_SOBOL64)
    SAMPLE_CHECK(trnrandGenerateLongLong(gen, words64, n));
  else
    SAMPLE_CHECK(trnrandGenerate(gen, words, n));
  return (int)trnrandDestroyGenerator(gen);
}
