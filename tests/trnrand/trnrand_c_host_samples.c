/* The project's own cuRAND host-API calling sequences for every generator type trnrand implements,
 * in C99 (the test target compiles this file as C with -pedantic), after the cuRAND documentation's
 * "Host API Example": create the generator, set the stream, offset, ordering and seed
 * (pseudo-random) or the dimensions (quasi-random), generate, destroy; host memory, and `device`
 * chooses trnrandCreateGenerator (the engines) or trnrandCreateGeneratorHost. trnrand_sample_sequence
 * runs one row of data/host_sample_sequences.h: the generator x distribution x ordering
 * combinations of NVIDIA's cuRAND host samples (whose code is not in the tree), 28 checked against
 * libcurand's outputs for the same calls and 8 scrambled-Sobol ones refused with TYPE_ERROR. Called
 * from test_trnrand_samples.cpp, which checks the outputs against cuRAND's stored vectors and the C++
 * generators. */
#include <stddef.h>

#include "data/host_sample_sequences.h"
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

/* One generate call of a table row's distribution (mean 1, stddev 2; lambda 10) into `values`
 * (uniform, normal, log-normal) or `counts` (Poisson). */
static trnrandStatus_t generate_row(trnrandGenerator_t gen, const struct host_sample_sequence* row, float* values,
                                    unsigned int* counts) {
  const size_t n = (size_t)row->n;
  switch (row->distribution) {
    case SAMPLE_UNIFORM: return trnrandGenerateUniform(gen, values, n);
    case SAMPLE_NORMAL: return trnrandGenerateNormal(gen, values, n, 1.0f, 2.0f);
    case SAMPLE_LOGNORMAL: return trnrandGenerateLogNormal(gen, values, n, 1.0f, 2.0f);
    default: return trnrandGeneratePoisson(gen, counts, n, 10.0);
  }
}

/* Row `index` of kHostSampleSequences (scrambled = 0) or kScrambledSobolSequences (scrambled = 1): its
 * calls in the table's order on a generator of the row's type, row->n outputs into `values` or
 * `counts`. Returns the first failing status (a refused creation returns before any other call),
 * -1 for an index past the table. */
int trnrand_sample_sequence(int scrambled, size_t index, int device, float* values, unsigned int* counts);
int trnrand_sample_sequence(int scrambled, size_t index, int device, float* values, unsigned int* counts) {
  const struct host_sample_sequence* row;
  trnrandGenerator_t gen = NULL;
  int status;
  if (index >= (scrambled ? SCRAMBLED_SOBOL_SEQUENCE_COUNT : HOST_SAMPLE_SEQUENCE_COUNT)) return -1;
  row = scrambled ? &kScrambledSobolSequences[index] : &kHostSampleSequences[index];
  status = create(&gen, (trnrandRngType_t)row->rng, device);
  if (status != TRNRAND_STATUS_SUCCESS) return status;
  SAMPLE_CHECK(trnrandSetStream(gen, NULL));
  if (row->set_offset) SAMPLE_CHECK(trnrandSetGeneratorOffset(gen, 0ULL));
  if (row->dimensions) SAMPLE_CHECK(trnrandSetQuasiRandomGeneratorDimensions(gen, (unsigned int)row->dimensions));
  SAMPLE_CHECK(trnrandSetGeneratorOrdering(gen, (trnrandOrdering_t)row->ordering));
  if (row->set_seed) SAMPLE_CHECK(trnrandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
  SAMPLE_CHECK(generate_row(gen, row, values, counts));
  return (int)trnrandDestroyGenerator(gen);
}
