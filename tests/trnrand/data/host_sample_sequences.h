/* cuRAND host-API call sequences, one per generator x distribution x ordering that NVIDIA's cuRAND
 * host samples (CUDALibrarySamples cuRAND/Host) exercise, recorded here as parameters (no sample code
 * is in the tree): the generator type, the ordering, the count, and which of SetGeneratorOffset,
 * SetQuasiRandomGeneratorDimensions and SetPseudoRandomGeneratorSeed the sequence calls (in this
 * order: offset, dimensions, ordering, seed), then one Generate call. kHostSampleSequences: the 28 of
 * the implemented generators, shared by gen_curand_host_samples.cpp (libcurand, not built by CMake)
 * and trnrand_c_host_samples.c (trnrand, the project's own program, run by test_trnrand_samples.cpp).
 * kScrambledSobolSequences: the 8 scrambled-Sobol ones, which trnrand refuses at generator creation
 * with TYPE_ERROR (docs/trnrand.md section 7). Plain C. */
#ifndef TRNSCI_HOST_SAMPLE_SEQUENCES_H
#define TRNSCI_HOST_SAMPLE_SEQUENCES_H

enum { SAMPLE_UNIFORM = 0, SAMPLE_NORMAL = 1, SAMPLE_LOGNORMAL = 2, SAMPLE_POISSON = 3 };

struct host_sample_sequence {
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
static const struct host_sample_sequence kHostSampleSequences[] = {
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
#define HOST_SAMPLE_SEQUENCE_COUNT (sizeof kHostSampleSequences / sizeof kHostSampleSequences[0])

/* QUASI_SCRAMBLED_SOBOL32 (202) and QUASI_SCRAMBLED_SOBOL64 (204), QUASI_DEFAULT ordering. */
static const struct host_sample_sequence kScrambledSobolSequences[] = {
    {"scrambled_sobol32_lognormal", 202, 201, 10, 1, 0, 0, SAMPLE_LOGNORMAL},
    {"scrambled_sobol32_normal", 202, 201, 10, 1, 0, 0, SAMPLE_NORMAL},
    {"scrambled_sobol32_poisson", 202, 201, 10, 1, 1, 0, SAMPLE_POISSON},
    {"scrambled_sobol32_uniform", 202, 201, 10, 1, 0, 0, SAMPLE_UNIFORM},
    {"scrambled_sobol64_lognormal", 204, 201, 12, 1, 1, 0, SAMPLE_LOGNORMAL},
    {"scrambled_sobol64_normal", 204, 201, 12, 1, 1, 0, SAMPLE_NORMAL},
    {"scrambled_sobol64_poisson", 204, 201, 12, 1, 1, 0, SAMPLE_POISSON},
    {"scrambled_sobol64_uniform", 204, 201, 12, 1, 1, 0, SAMPLE_UNIFORM},
};
#define SCRAMBLED_SOBOL_SEQUENCE_COUNT (sizeof kScrambledSobolSequences / sizeof kScrambledSobolSequences[0])

#endif
