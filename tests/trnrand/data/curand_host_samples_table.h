/* The call sequences of NVIDIA's cuRAND host-API samples (CUDALibrarySamples, cuRAND/Host/<type>/
 * curand_<type>_<distribution>_example.cpp, function run_on_host), all but the eight scrambled-Sobol
 * ones: the generator type, the ordering, the count, and which of SetGeneratorOffset,
 * SetQuasiRandomGeneratorDimensions and SetPseudoRandomGeneratorSeed each sample calls (in its order:
 * offset, dimensions, ordering, seed), then one Generate call. Shared by gen_curand_host_samples.cpp
 * (libcurand, not built by CMake) and tests/trnrand/test_trnrand_samples.cpp (trnrand). Plain C. */
#ifndef CURAND_HOST_SAMPLES_TABLE_H
#define CURAND_HOST_SAMPLES_TABLE_H

enum { SAMPLE_UNIFORM = 0, SAMPLE_NORMAL = 1, SAMPLE_LOGNORMAL = 2, SAMPLE_POISSON = 3 };

struct curand_host_sample {
  const char* name;
  int rng;          /* cuRAND's rng type value */
  int ordering;     /* cuRAND's ordering value */
  int n;
  int set_offset;   /* SetGeneratorOffset(0) */
  int dimensions;   /* 0: not called */
  int set_seed;     /* SetPseudoRandomGeneratorSeed(1234) */
  int distribution; /* SAMPLE_* */
};

/* mean 1, stddev 2 for the normal and log-normal samples; lambda 10 for Poisson. */
static const struct curand_host_sample kCurandHostSamples[] = {
    {"mrg32k3a_lognormal", 121, 100, 10, 1, 0, 1, SAMPLE_LOGNORMAL},
    {"mrg32k3a_normal", 121, 100, 10, 1, 0, 1, SAMPLE_NORMAL},
    {"mrg32k3a_poisson", 121, 101, 10, 0, 0, 1, SAMPLE_POISSON},
    {"mrg32k3a_uniform", 121, 100, 10, 1, 0, 1, SAMPLE_UNIFORM},
    {"mt19937_lognormal", 142, 101, 12, 0, 0, 1, SAMPLE_LOGNORMAL},
    {"mt19937_normal", 142, 101, 12, 0, 0, 1, SAMPLE_NORMAL},
    {"mt19937_poisson", 142, 101, 12, 0, 0, 1, SAMPLE_POISSON},
    {"mt19937_uniform", 142, 101, 12, 0, 0, 1, SAMPLE_UNIFORM},
    {"mtgp32_lognormal", 141, 100, 10, 0, 0, 1, SAMPLE_LOGNORMAL},
    {"mtgp32_normal", 141, 100, 10, 0, 0, 1, SAMPLE_NORMAL},
    {"mtgp32_poisson", 141, 101, 10, 0, 0, 1, SAMPLE_POISSON},
    {"mtgp32_uniform", 141, 100, 10, 0, 0, 1, SAMPLE_UNIFORM},
    {"philox_lognormal", 161, 100, 12, 1, 0, 1, SAMPLE_LOGNORMAL},
    {"philox_normal", 161, 100, 12, 1, 0, 1, SAMPLE_NORMAL},
    {"philox_poisson", 161, 100, 12, 1, 0, 1, SAMPLE_POISSON},
    {"philox_uniform", 161, 100, 12, 1, 0, 1, SAMPLE_UNIFORM},
    {"sobol32_lognormal", 201, 201, 12, 1, 1, 0, SAMPLE_LOGNORMAL},
    {"sobol32_normal", 201, 201, 12, 1, 1, 0, SAMPLE_NORMAL},
    {"sobol32_poisson", 201, 201, 12, 1, 1, 0, SAMPLE_POISSON},
    {"sobol32_uniform", 201, 201, 12, 1, 1, 0, SAMPLE_UNIFORM},
    {"sobol64_lognormal", 203, 201, 10, 1, 0, 0, SAMPLE_LOGNORMAL},
    {"sobol64_normal", 203, 201, 10, 1, 0, 0, SAMPLE_NORMAL},
    {"sobol64_poisson", 203, 201, 10, 1, 1, 0, SAMPLE_POISSON},
    {"sobol64_uniform", 203, 201, 10, 1, 0, 0, SAMPLE_UNIFORM},
    {"xorwow_lognormal", 101, 100, 10, 1, 0, 1, SAMPLE_LOGNORMAL},
    {"xorwow_normal", 101, 100, 10, 1, 0, 1, SAMPLE_NORMAL},
    {"xorwow_poisson", 101, 101, 10, 0, 0, 1, SAMPLE_POISSON},
    {"xorwow_uniform", 101, 100, 10, 1, 0, 1, SAMPLE_UNIFORM},
};
#define CURAND_HOST_SAMPLE_COUNT (sizeof kCurandHostSamples / sizeof kCurandHostSamples[0])

#endif
