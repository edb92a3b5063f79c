/* trnrand.h - cuRAND-shaped C API of trnrand: generators that reproduce cuRAND's host-API
 * generators bit for bit (uint32, uniform, uniform double, Poisson histogram; fp64 Box-Muller
 * outputs too; float normals and log-normals and the quasi-random normals within a few ulp, see
 * docs/trnrand.md): PHILOX4_32_10, XORWOW = PSEUDO_DEFAULT, MRG32K3A, MTGP32, MT19937, SOBOL32 =
 * QUASI_DEFAULT and SOBOL64, each on the host path and on the emulated engines. Same
 * argument order, meaning and numeric enum / status values as cuRAND 10.4 with the
 * trnrand/TRNRAND_ prefixes, so a prefix substitution ports code.
 *
 *  - trnrandCreateGenerator: every Generate* call runs as tile kernels on emulated NeuronCores
 *    (Philox / XORWOW / MRG32K3A / MT19937 / Sobol on GpSimdE, transforms on VectorE/ScalarE; the
 *    other generators' non-uniform transforms on the host side of the kernel) - the "device"
 *    generator.
 *  - trnrandCreateGeneratorHost: the vectorised host path. Both give identical outputs.
 * Host pointers only; calls are synchronous (streams are stored and returned). Every function
 * returns a status and never aborts, exits or throws; on error nothing is written.
 *
 * Statuses for invalid arguments (cuRAND has no INVALID_VALUE):
 *   NULL generator / destroyed generator       TRNRAND_STATUS_NOT_INITIALIZED
 *   rng type not implemented (scrambled Sobol)  TRNRAND_STATUS_TYPE_ERROR
 *   SetGeneratorOffset on MT19937, MTGP32       TRNRAND_STATUS_TYPE_ERROR (as cuRAND)
 *   ordering: pseudo-random BEST, DEFAULT, LEGACY (MT19937: DEFAULT, LEGACY; MTGP32: a change restarts
 *   at word 0); quasi-random QUASI_DEFAULT; else
 *                                              TRNRAND_STATUS_OUT_OF_RANGE (as cuRAND's host generators,
 *                                              except XORWOW's SEEDED, which cuRAND accepts)
 *   odd n for (Log)Normal(Double) (not MT19937 / MTGP32 / Sobol: inverse-CDF normals)
 *                                              TRNRAND_STATUS_LENGTH_NOT_MULTIPLE (Philox: cuRAND's documented
 *                                              contract, its host generator accepts odd n; XORWOW, MRG32K3A: as cuRAND)
 *   quasi-random: n not a multiple of the dimensions   TRNRAND_STATUS_LENGTH_NOT_MULTIPLE (as cuRAND)
 *   lambda outside (0, 400000] (Poisson)       TRNRAND_STATUS_OUT_OF_RANGE
 *   NULL output / result pointer with n > 0    TRNRAND_STATUS_OUT_OF_RANGE
 *   GenerateLongLong on all but SOBOL64, Generate on SOBOL64   TRNRAND_STATUS_TYPE_ERROR (as cuRAND)
 * n = 0 succeeds and writes nothing. SetPseudoRandomGeneratorSeed keeps the offset (MT19937 and
 * MTGP32: a new seed restarts at word 0, as cuRAND); call
 * SetGeneratorOffset(g, 0) to restart the stream (cuRAND's reseed-after-generate quirk is not copied). */
#ifndef TRNRAND_H
#define TRNRAND_H

#include <stddef.h>

#include "trncore.h"
#include "trnprofile.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TRNRAND_VER_MAJOR 0
#define TRNRAND_VER_MINOR 1
#define TRNRAND_VER_PATCH 0
/* cuRAND's formula: MAJOR * 1000 + MINOR * 100 + PATCH. */
#define TRNRAND_VERSION (TRNRAND_VER_MAJOR * 1000 + TRNRAND_VER_MINOR * 100 + TRNRAND_VER_PATCH)

typedef enum trnrandStatus {
  TRNRAND_STATUS_SUCCESS = 0,
  TRNRAND_STATUS_VERSION_MISMATCH = 100,
  TRNRAND_STATUS_NOT_INITIALIZED = 101,
  TRNRAND_STATUS_ALLOCATION_FAILED = 102,
  TRNRAND_STATUS_TYPE_ERROR = 103,
  TRNRAND_STATUS_OUT_OF_RANGE = 104,
  TRNRAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  TRNRAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  TRNRAND_STATUS_LAUNCH_FAILURE = 201,
  TRNRAND_STATUS_PREEXISTING_FAILURE = 202,
  TRNRAND_STATUS_INITIALIZATION_FAILED = 203,
  TRNRAND_STATUS_ARCH_MISMATCH = 204,
  TRNRAND_STATUS_INTERNAL_ERROR = 999
} trnrandStatus_t;

typedef enum trnrandRngType {
  TRNRAND_RNG_TEST = 0,
  TRNRAND_RNG_PSEUDO_DEFAULT = 100,
  TRNRAND_RNG_PSEUDO_XORWOW = 101,
  TRNRAND_RNG_PSEUDO_MRG32K3A = 121,
  TRNRAND_RNG_PSEUDO_MTGP32 = 141,
  TRNRAND_RNG_PSEUDO_MT19937 = 142,
  TRNRAND_RNG_PSEUDO_PHILOX4_32_10 = 161, /* implemented: 161, 100 / 101 (XORWOW), 121 (MRG32K3A),
                                             141 (MTGP32), 142 (MT19937), 200 / 201 (SOBOL32), 203 (SOBOL64),
                                             each on both creation functions */
  TRNRAND_RNG_QUASI_DEFAULT = 200,
  TRNRAND_RNG_QUASI_SOBOL32 = 201,
  TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
  TRNRAND_RNG_QUASI_SOBOL64 = 203,
  TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
} trnrandRngType_t;

typedef enum trnrandOrdering {
  TRNRAND_ORDERING_PSEUDO_BEST = 100,    /* same output as DEFAULT (as cuRAND's Philox) */
  TRNRAND_ORDERING_PSEUDO_DEFAULT = 101, /* 65536 subsequences, docs/trnrand.md section 2 */
  TRNRAND_ORDERING_PSEUDO_SEEDED = 102,  /* rejected: OUT_OF_RANGE (cuRAND's XORWOW accepts it) */
  TRNRAND_ORDERING_PSEUDO_LEGACY = 103,  /* same output as DEFAULT */
  TRNRAND_ORDERING_PSEUDO_DYNAMIC = 104, /* rejected: OUT_OF_RANGE */
  TRNRAND_ORDERING_QUASI_DEFAULT = 201   /* quasi-random generators only */
} trnrandOrdering_t;

typedef enum trnrandDirectionVectorSet {
  TRNRAND_DIRECTION_VECTORS_32_JOEKUO6 = 101,           /* Joe & Kuo, new-joe-kuo-6.21201 (docs/trnrand.md 9) */
  TRNRAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6 = 102, /* not available: NVIDIA's unpublished scrambling */
  TRNRAND_DIRECTION_VECTORS_64_JOEKUO6 = 103,           /* Joe & Kuo, 64-bit words (docs/trnrand.md 11) */
  TRNRAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6 = 104  /* not available */
} trnrandDirectionVectorSet_t;

/* cuRAND's curandMethod_t (the method argument of trnrandGeneratePoissonMethod). */
typedef enum trnrandMethod {
  TRNRAND_CHOOSE_BEST = 0,
  TRNRAND_ITR = 1,
  TRNRAND_KNUTH = 2,
  TRNRAND_HITR = 3,
  TRNRAND_M1 = 4,
  TRNRAND_M2 = 5,
  TRNRAND_BINARY_SEARCH = 6,
  TRNRAND_DISCRETE_GAUSS = 7,
  TRNRAND_REJECTION = 8,
  TRNRAND_DEVICE_API = 9,
  TRNRAND_FAST_REJECTION = 10,
  TRNRAND_3RD = 11,
  TRNRAND_DEFINITION = 12,
  TRNRAND_POISSON = 13
} trnrandMethod_t;

typedef unsigned int trnrandDirectionVectors32_t[32];
typedef unsigned long long trnrandDirectionVectors64_t[64];

struct trnrandGenerator_st;
typedef struct trnrandGenerator_st* trnrandGenerator_t;

/* cuRAND's distribution types (curand.h). trnrandDiscreteDistribution_t is the Poisson histogram of
 * trnrandCreatePoissonDistribution (an opaque host object here; its sampler in C++ is
 * trn::rand::discrete_sample, trn/rand/discrete.hpp: cuRAND's device-API curand_discrete). The other
 * names are the typedefs curand.h declares for its device headers, for name compatibility. */
typedef double trnrandDistribution_st;
typedef trnrandDistribution_st* trnrandDistribution_t;
typedef struct trnrandDistributionShift_st* trnrandDistributionShift_t;
typedef struct trnrandDistributionM2Shift_st* trnrandDistributionM2Shift_t;
typedef struct trnrandHistogramM2_st* trnrandHistogramM2_t;
typedef unsigned int trnrandHistogramM2K_st;
typedef trnrandHistogramM2K_st* trnrandHistogramM2K_t;
typedef trnrandDistribution_st trnrandHistogramM2V_st;
typedef trnrandHistogramM2V_st* trnrandHistogramM2V_t;
typedef struct trnrandDiscreteDistribution_st* trnrandDiscreteDistribution_t;

/* ---- lifecycle and settings ---- */
trnrandStatus_t trnrandCreateGenerator(trnrandGenerator_t* generator, trnrandRngType_t rng_type);
trnrandStatus_t trnrandCreateGeneratorHost(trnrandGenerator_t* generator, trnrandRngType_t rng_type);
trnrandStatus_t trnrandDestroyGenerator(trnrandGenerator_t generator);
trnrandStatus_t trnrandGetVersion(int* version);
/* MAJOR_VERSION / MINOR_VERSION / PATCH_LEVEL of TRNRAND_VERSION (OUT_OF_RANGE for another type or
 * a NULL value, as cuRAND's status for an unknown type). */
trnrandStatus_t trnrandGetProperty(libraryPropertyType type, int* value);
/* As cuRAND's host generators (observed on cuRAND 10.4): MT19937 and MTGP32 restart at word 0;
 * XORWOW, MRG32K3A, SOBOL32, SOBOL64 are unchanged; Philox is unchanged too (cuRAND's host Philox
 * moves to position p / 4 after a call of p >= 4 words, a quirk not copied, docs/trnrand.md 14). */
trnrandStatus_t trnrandGenerateSeeds(trnrandGenerator_t generator);
trnrandStatus_t trnrandSetStream(trnrandGenerator_t generator, trnStream_t stream);
trnrandStatus_t trnrandGetStream(trnrandGenerator_t generator, trnStream_t* stream); /* extension */
trnrandStatus_t trnrandSetPseudoRandomGeneratorSeed(trnrandGenerator_t generator, unsigned long long seed);
trnrandStatus_t trnrandSetGeneratorOffset(trnrandGenerator_t generator, unsigned long long offset);
trnrandStatus_t trnrandSetGeneratorOrdering(trnrandGenerator_t generator, trnrandOrdering_t order);
/* Quasi-random generators: 1 .. 20000 dimensions (OUT_OF_RANGE otherwise; TYPE_ERROR on a
 * pseudo-random generator). */
trnrandStatus_t trnrandSetQuasiRandomGeneratorDimensions(trnrandGenerator_t generator, unsigned int num_dimensions);
const char* trnrandGetStatusName(trnrandStatus_t status);
const char* trnrandGetStatusString(trnrandStatus_t status);

/* ---- cuRAND's distributions ---- */
trnrandStatus_t trnrandGenerate(trnrandGenerator_t generator, unsigned int* output, size_t num);
trnrandStatus_t trnrandGenerateLongLong(trnrandGenerator_t generator, unsigned long long* output, size_t num);
trnrandStatus_t trnrandGenerateUniform(trnrandGenerator_t generator, float* output, size_t num);
trnrandStatus_t trnrandGenerateUniformDouble(trnrandGenerator_t generator, double* output, size_t num);
trnrandStatus_t trnrandGenerateNormal(trnrandGenerator_t generator, float* output, size_t n, float mean, float stddev);
trnrandStatus_t trnrandGenerateNormalDouble(trnrandGenerator_t generator, double* output, size_t n, double mean,
                                            double stddev);
trnrandStatus_t trnrandGenerateLogNormal(trnrandGenerator_t generator, float* output, size_t n, float mean,
                                         float stddev);
trnrandStatus_t trnrandGenerateLogNormalDouble(trnrandGenerator_t generator, double* output, size_t n, double mean,
                                               double stddev);
trnrandStatus_t trnrandGeneratePoisson(trnrandGenerator_t generator, unsigned int* output, size_t n, double lambda);
/* As cuRAND's host generators (observed on cuRAND 10.4): TRNRAND_DEVICE_API gives the device API's
 * Poisson of each word (inversion below lambda 1000, the normal approximation from 1000) on MTGP32
 * and SOBOL32, bit-identical to libcurand; on MT19937 and for every other method value
 * TRNRAND_STATUS_INTERNAL_ERROR (TRNRAND_3RD: PREEXISTING_FAILURE), cuRAND's statuses; Philox,
 * XORWOW, MRG32K3A, SOBOL64 with DEVICE_API: TYPE_ERROR (cuRAND's per-thread device-API samplers
 * are not reproduced); a value outside the enum: OUT_OF_RANGE. */
trnrandStatus_t trnrandGeneratePoissonMethod(trnrandGenerator_t generator, unsigned int* output, size_t n,
                                             double lambda, trnrandMethod_t method);

/* The histogram of Poisson(lambda), as cuRAND builds it for its device API's curand_discrete and
 * its host generator's Poisson: lambda < 2000 the square histogram (shift, length, V, K) that
 * trnrandGeneratePoisson samples; from 2000 the normal approximation (mean lambda, stddev
 * sqrt(lambda)). Statuses as cuRAND documents them: lambda <= 0, > 400000 or NaN
 * TRNRAND_STATUS_OUT_OF_RANGE (parameter 1); discrete_distribution NULL TRNRAND_STATUS_NOT_INITIALIZED
 * (parameter 2); *discrete_distribution is written only on success. */
trnrandStatus_t trnrandCreatePoissonDistribution(double lambda, trnrandDiscreteDistribution_t* discrete_distribution);
/* NULL, destroyed or never created: TRNRAND_STATUS_NOT_INITIALIZED (as cuRAND). */
trnrandStatus_t trnrandDestroyDistribution(trnrandDiscreteDistribution_t discrete_distribution);

/* The 20000 x 32 direction vectors of a set (TRNRAND_DIRECTION_VECTORS_32_JOEKUO6 only; the
 * scrambled and 64-bit sets return OUT_OF_RANGE). The array stays valid for the process. */
trnrandStatus_t trnrandGetDirectionVectors32(trnrandDirectionVectors32_t* vectors[], trnrandDirectionVectorSet_t set);
/* The 20000 x 64 direction vectors of TRNRAND_DIRECTION_VECTORS_64_JOEKUO6 (others: OUT_OF_RANGE,
 * as cuRAND for the 32-bit sets). */
trnrandStatus_t trnrandGetDirectionVectors64(trnrandDirectionVectors64_t* vectors[], trnrandDirectionVectorSet_t set);

/* ---- trnsci extensions ---- */
/* Poisson exact for every lambda in (0, 2^31]: inversion below 10, Hormann's PTRS from 10. */
trnrandStatus_t trnrandGeneratePoissonExact(trnrandGenerator_t generator, unsigned int* output, size_t n,
                                            double lambda);
/* Exponential with rate lambda > 0 (mean 1/lambda): -log(u) / lambda with cuRAND's uniforms. */
trnrandStatus_t trnrandGenerateExponential(trnrandGenerator_t generator, float* output, size_t n, float lambda);
trnrandStatus_t trnrandGenerateExponentialDouble(trnrandGenerator_t generator, double* output, size_t n, double lambda);
/* 1 with probability p in [0, 1] (rounded to a multiple of 2^-32), else 0. */
trnrandStatus_t trnrandGenerateBernoulli(trnrandGenerator_t generator, unsigned int* output, size_t n, double p);
/* Uniform integers in [low, high] (low <= high, else OUT_OF_RANGE) without modulo bias. */
trnrandStatus_t trnrandGenerateUniformInt(trnrandGenerator_t generator, unsigned int* output, size_t n,
                                          unsigned int low, unsigned int high);
/* ---- the emulation surface every trnsci library has (trncore.h, TRN_EMULATION_API): the handle is
 * the generator; its last profile is that of the last Generate* call's kernel (zeros before the
 * first call; for a host generator the same kernel, recorded timing-only). Illegal arguments
 * are TRNRAND_STATUS_OUT_OF_RANGE (cuRAND has no INVALID_VALUE).
 * Set/Get Target, NumericsProfile, StochasticRounding(enable, seed), NumCores; GetLastProfile
 * (modeled cost of the last compute call, docs/cost-model.md); GetLastErrorParameter (1-based
 * position of the last illegal argument, 0 if none); trnrandLoggerConfigure, trnrandSet/GetLoggerCallback,
 * trnrandLoggerSetCallback. ---- */
typedef trnLogCallback_t trnrandLogCallback;
TRN_EMULATION_API(trnrand, trnrand, trnrandGenerator_t, trnrandStatus_t)
TRN_PROFILE_SIZED_API(trnrand, trnrandGenerator_t, trnrandStatus_t)  /* trnprofile.h: the versioned trnProfile_t */
/* Earlier name of trnrandSetTarget (kept). */
trnrandStatus_t trnrandSetGeneratorTarget(trnrandGenerator_t generator, trnTarget_t target);

#ifdef __cplusplus
}
#endif
#endif /* TRNRAND_H */
