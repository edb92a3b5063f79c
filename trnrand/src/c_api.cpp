// trnrand.h: the C shim over trn::rand::Generator. Validates every argument first (cuRAND's status
// for each violation, trnrand.h lists them), then calls the C++ API inside a catch-all; nothing is
// written and the offset does not move when a call fails validation. Set TRNRAND_LOGINFO_DBG=1 to
// print the reason of every failure to stderr.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <span>
#include <string>

#include "trn/core/c_shim.hpp"
#include "trn/core/error.hpp"
#include "trn/rand/discrete.hpp"
#include "trn/rand/generator.hpp"
#include "trn/rand/mrg32k3a.hpp"
#include "trn/rand/mt19937.hpp"
#include "trn/rand/mtgp32.hpp"
#include "trn/rand/sobol.hpp"
#include "trn/rand/xorwow.hpp"
#include "trnrand.h"

// One handle per cuRAND generator type: Philox (trn::rand::Generator), XORWOW
// (trn::rand::XorwowGenerator), SOBOL32 and SOBOL64 (trn::rand::Sobol32Generator /
// Sobol64Generator), MRG32K3A (trn::rand::Mrg32k3aGenerator), MT19937 (trn::rand::Mt19937Generator) and
// MTGP32 (trn::rand::Mtgp32Generator),
// each on both paths.
struct trnrandGenerator_st {
  trn::rand::Generator gen;
  std::unique_ptr<trn::rand::XorwowGenerator> xorwow;  // PSEUDO_XORWOW / PSEUDO_DEFAULT
  std::unique_ptr<trn::rand::Sobol32Generator> sobol;  // QUASI_SOBOL32 / QUASI_DEFAULT
  std::unique_ptr<trn::rand::Sobol64Generator> sobol64;  // QUASI_SOBOL64
  std::unique_ptr<trn::rand::Mrg32k3aGenerator> mrg;   // PSEUDO_MRG32K3A
  std::unique_ptr<trn::rand::Mt19937Generator> mt;     // PSEUDO_MT19937
  std::unique_ptr<trn::rand::Mtgp32Generator> mtgp;    // PSEUDO_MTGP32
  int rng_type = TRNRAND_RNG_PSEUDO_PHILOX4_32_10;
  trnStream_t stream = nullptr;
  trn::cshim::LastError last_error_param{0};  // atomic: a generator may serve several threads
  explicit trnrandGenerator_st(const trn::rand::GeneratorOptions& o) : gen(o) {}
};

namespace {

using trn::cshim::enum_value;

trn::cshim::HandleRegistry<trnrandGenerator_st> g_generators;
trn::cshim::HandleRegistry<trnrandDiscreteDistribution_st> g_distributions;
// TRNRAND_LOGINFO_DBG=1 logs the reason of every failure (TRNRAND_LOGDEST_DBG = stdout | stderr |
// <file>; stderr when unset, as before the kit).
trn::cshim::Logger g_log{"TRNRAND"};

bool valid(trnrandGenerator_t g) { return g_generators.contains(g); }

// cuRAND's statuses for a failing body: a request outside the stream's domain is OUT_OF_RANGE.
constexpr trn::cshim::StatusMap<trnrandStatus_t> kStatusMap{
    TRNRAND_STATUS_SUCCESS,        TRNRAND_STATUS_ALLOCATION_FAILED, TRNRAND_STATUS_LAUNCH_FAILURE,
    TRNRAND_STATUS_OUT_OF_RANGE,   TRNRAND_STATUS_LAUNCH_FAILURE,    TRNRAND_STATUS_INTERNAL_ERROR,
    trnrandGetStatusName};

trnrandStatus_t fail(const char* fn, trnrandStatus_t st, const std::string& why) {
  return trn::cshim::fail(g_log, kStatusMap, fn, st, why);
}

template <class F>
trnrandStatus_t guarded(const char* fn, F&& body) {
  return trn::cshim::guarded(g_log, fn, kStatusMap, std::forward<F>(body));
}

bool is_xorwow(int rng_type) {
  return rng_type == TRNRAND_RNG_PSEUDO_DEFAULT || rng_type == TRNRAND_RNG_PSEUDO_XORWOW;
}
bool is_sobol32(int rng_type) {
  return rng_type == TRNRAND_RNG_QUASI_DEFAULT || rng_type == TRNRAND_RNG_QUASI_SOBOL32;
}

trnrandStatus_t create(const char* fn, trnrandGenerator_t* generator, int rng_type,
                       trn::rand::GeneratorPath path) {
  if (generator == nullptr) return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "generator is NULL");
  // Every implemented type runs on both paths (docs/trnrand.md sections 8 - 12).
  const bool host = path == trn::rand::GeneratorPath::host;
  const bool xorwow = is_xorwow(rng_type), sobol = is_sobol32(rng_type);
  const bool sobol64 = rng_type == TRNRAND_RNG_QUASI_SOBOL64;
  const bool mrg = rng_type == TRNRAND_RNG_PSEUDO_MRG32K3A, mt = rng_type == TRNRAND_RNG_PSEUDO_MT19937;
  const bool mtgp = rng_type == TRNRAND_RNG_PSEUDO_MTGP32;
  if (rng_type != TRNRAND_RNG_PSEUDO_PHILOX4_32_10 && !xorwow && !sobol && !sobol64 && !mrg && !mt && !mtgp)
    return fail(fn, TRNRAND_STATUS_TYPE_ERROR,
                "rng type " + std::to_string(rng_type) +
                    ": trnrand implements PHILOX4_32_10 (161), XORWOW / PSEUDO_DEFAULT (101 / 100),"
                    " MRG32K3A (121), MTGP32 (141), MT19937 (142), SOBOL32 / QUASI_DEFAULT (201 / 200)"
                    " and SOBOL64 (203)");
  return guarded(fn, [&] {
    trn::rand::GeneratorOptions o;
    o.path = path;
    auto g = std::make_unique<trnrandGenerator_st>(o);
    g->rng_type = rng_type;
    if (xorwow) g->xorwow = std::make_unique<trn::rand::XorwowGenerator>(!host, o.engines);
    if (sobol) g->sobol = std::make_unique<trn::rand::Sobol32Generator>(!host, o.engines);
    if (sobol64) g->sobol64 = std::make_unique<trn::rand::Sobol64Generator>(!host, o.engines);
    if (mrg) g->mrg = std::make_unique<trn::rand::Mrg32k3aGenerator>(!host, o.engines);
    if (mt) g->mt = std::make_unique<trn::rand::Mt19937Generator>(!host, o.engines);
    if (mtgp) g->mtgp = std::make_unique<trn::rand::Mtgp32Generator>(!host, o.engines);
    g_generators.insert(g.get());
    *generator = g.release();
  });
}

// Runs body on the handle's generator object (Philox, XORWOW, MRG32K3A, SOBOL32 or SOBOL64: the
// same member names).
template <class Body>
void on_generator(trnrandGenerator_t g, Body&& body) {
  if (g->xorwow)
    body(*g->xorwow);
  else if (g->mrg)
    body(*g->mrg);
  else if (g->mt)
    body(*g->mt);
  else if (g->mtgp)
    body(*g->mtgp);
  else if (g->sobol)
    body(*g->sobol);
  else if (g->sobol64)
    body(*g->sobol64);
  else
    body(g->gen);
}

// The kit's emulation surface over generators: the settings are the generator's EngineConfig,
// given to every generator object of the handle; the last profile is that of its last kernel.
struct Surface {
  using Handle = trnrandGenerator_t;
  using Status = trnrandStatus_t;
  static constexpr trn::cshim::SurfaceCodes<Status> kCodes{TRNRAND_STATUS_SUCCESS, TRNRAND_STATUS_NOT_INITIALIZED,
                                                           TRNRAND_STATUS_OUT_OF_RANGE};
  static trn::cshim::Logger& logger() { return g_log; }
  static const trn::cshim::StatusMap<Status>& status_map() { return kStatusMap; }
  struct Access {
    trnrandGenerator_t g;
    const trn::EmulatorSettings& settings() const { return g->gen.options().engines; }
    trn::cshim::LastError* last_error() const { return &g->last_error_param; }
    trnProfile_t last_profile() const {
      trnProfile_t p{};
      on_generator(g, [&](const auto& gen) { p = gen.last_profile().to_c(); });
      return p;
    }
    Status apply(const trn::EmulatorSettings& s, const char* fn) const {
      return guarded(fn, [&] {
        trn::rand::GeneratorOptions o = g->gen.options();
        static_cast<trn::EmulatorSettings&>(o.engines) = s;
        g->gen.set_options(o);
        if (g->xorwow) g->xorwow->set_engine_config(o.engines);
        if (g->mrg) g->mrg->set_engine_config(o.engines);
        if (g->mt) g->mt->set_engine_config(o.engines);
        if (g->mtgp) g->mtgp->set_engine_config(o.engines);
        if (g->sobol) g->sobol->set_engine_config(o.engines);
        if (g->sobol64) g->sobol64->set_engine_config(o.engines);
      });
    }
  };
  template <class F>
  static Status access(Handle h, F&& f) {
    if (!valid(h)) return TRNRAND_STATUS_NOT_INITIALIZED;
    Access a{h};
    return f(a);
  }
};

// The dimensions of a quasi-random generator, 0 for a pseudo-random one.
std::uint32_t quasi_dimensions(trnrandGenerator_t g) {
  if (g->sobol) return g->sobol->dimensions();
  if (g->sobol64) return g->sobol64->dimensions();
  return 0;
}

// Extensions exist for Philox only.
trnrandStatus_t philox_only(const char* fn, trnrandGenerator_t g) {
  if (g->xorwow || g->sobol || g->sobol64 || g->mrg || g->mt || g->mtgp)
    return fail(fn, TRNRAND_STATUS_TYPE_ERROR, "trnsci extension available for PHILOX4_32_10 only");
  return TRNRAND_STATUS_SUCCESS;
}

// Quasi-random calls: n a multiple of the dimensions (cuRAND's LENGTH_NOT_MULTIPLE otherwise).
trnrandStatus_t check_dimensions(const char* fn, trnrandGenerator_t g, size_t n) {
  const std::uint32_t dims = quasi_dimensions(g);
  if (dims != 0 && n % dims != 0)
    return fail(fn, TRNRAND_STATUS_LENGTH_NOT_MULTIPLE,
                "n = " + std::to_string(n) + " is not a multiple of the " + std::to_string(dims) + " dimensions");
  return TRNRAND_STATUS_SUCCESS;
}

// Common checks of a Generate* call: generator, output pointer, count multiple.
trnrandStatus_t check_call(const char* fn, trnrandGenerator_t g, const void* out, size_t n, size_t multiple = 1) {
  if (!valid(g)) return fail(fn, TRNRAND_STATUS_NOT_INITIALIZED, "generator is NULL or destroyed");
  if (const auto st = check_dimensions(fn, g, n)) return st;
  if (quasi_dimensions(g) != 0 || g->mt || g->mtgp) multiple = 1;  // inverse-CDF normals: no pairs
  if (n % multiple != 0)
    return fail(fn, TRNRAND_STATUS_LENGTH_NOT_MULTIPLE,
                "n = " + std::to_string(n) + " must be a multiple of " + std::to_string(multiple) +
                    " (Box-Muller outputs come in pairs)");
  if (n > 0 && out == nullptr) return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "output is NULL");
  return TRNRAND_STATUS_SUCCESS;
}

}  // namespace

extern "C" {

trnrandStatus_t trnrandCreateGenerator(trnrandGenerator_t* generator, trnrandRngType_t rng_type) {
  return create("trnrandCreateGenerator", generator, static_cast<int>(enum_value(rng_type)),
                trn::rand::GeneratorPath::engines);
}

trnrandStatus_t trnrandCreateGeneratorHost(trnrandGenerator_t* generator, trnrandRngType_t rng_type) {
  return create("trnrandCreateGeneratorHost", generator, static_cast<int>(enum_value(rng_type)),
                trn::rand::GeneratorPath::host);
}

trnrandStatus_t trnrandDestroyGenerator(trnrandGenerator_t generator) {
  if (!g_generators.erase(generator))
    return fail("trnrandDestroyGenerator", TRNRAND_STATUS_NOT_INITIALIZED, "generator is NULL or destroyed");
  delete generator;
  return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandGetVersion(int* version) {
  if (version == nullptr) return fail("trnrandGetVersion", TRNRAND_STATUS_OUT_OF_RANGE, "version is NULL");
  *version = TRNRAND_VERSION;
  return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandGetProperty(libraryPropertyType type, int* value) {
  const char* fn = "trnrandGetProperty";
  if (value == nullptr) return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "value is NULL");
  const int t = enum_value(type);
  if (t == MAJOR_VERSION) *value = TRNRAND_VER_MAJOR;
  else if (t == MINOR_VERSION) *value = TRNRAND_VER_MINOR;
  else if (t == PATCH_LEVEL) *value = TRNRAND_VER_PATCH;
  else return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "type " + std::to_string(t) + " (MAJOR_VERSION, MINOR_VERSION or PATCH_LEVEL)");
  return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandGenerateSeeds(trnrandGenerator_t generator) {
  if (!valid(generator)) return fail("trnrandGenerateSeeds", TRNRAND_STATUS_NOT_INITIALIZED, "generator is NULL or destroyed");
  if (generator->mt) generator->mt->set_offset(0);  // cuRAND's MT19937 and MTGP32 restart at word 0
  if (generator->mtgp) generator->mtgp->regenerate_seeds();
  return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandSetStream(trnrandGenerator_t generator, trnStream_t stream) {
  if (!valid(generator))
    return fail("trnrandSetStream", TRNRAND_STATUS_NOT_INITIALIZED, "generator is NULL or destroyed");
  generator->stream = stream;
  return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandGetStream(trnrandGenerator_t generator, trnStream_t* stream) {
  if (!valid(generator))
    return fail("trnrandGetStream", TRNRAND_STATUS_NOT_INITIALIZED, "generator is NULL or destroyed");
  if (stream == nullptr) return fail("trnrandGetStream", TRNRAND_STATUS_OUT_OF_RANGE, "stream is NULL");
  *stream = generator->stream;
  return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandSetPseudoRandomGeneratorSeed(trnrandGenerator_t generator, unsigned long long seed) {
  if (!valid(generator))
    return fail("trnrandSetPseudoRandomGeneratorSeed", TRNRAND_STATUS_NOT_INITIALIZED,
                "generator is NULL or destroyed");
  if (quasi_dimensions(generator) != 0)
    return fail("trnrandSetPseudoRandomGeneratorSeed", TRNRAND_STATUS_TYPE_ERROR, "quasi-random generators have no seed");
  if (generator->xorwow)
    generator->xorwow->set_seed(seed);
  else if (generator->mrg)
    generator->mrg->set_seed(seed);
  else if (generator->mt)
    generator->mt->set_seed(seed);  // a new seed restarts at word 0 (as cuRAND's MT19937)
  else if (generator->mtgp)
    generator->mtgp->set_seed(seed);  // the same for MTGP32
  else
    generator->gen.set_seed(seed);
  return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandSetGeneratorOffset(trnrandGenerator_t generator, unsigned long long offset) {
  if (!valid(generator))
    return fail("trnrandSetGeneratorOffset", TRNRAND_STATUS_NOT_INITIALIZED, "generator is NULL or destroyed");
  if (generator->mt)  // cuRAND's MT19937 has no offset (observed: TYPE_ERROR)
    return fail("trnrandSetGeneratorOffset", TRNRAND_STATUS_TYPE_ERROR, "MT19937 has no offset (as cuRAND)");
  if (generator->mtgp)  // nor MTGP32 (observed)
    return fail("trnrandSetGeneratorOffset", TRNRAND_STATUS_TYPE_ERROR, "MTGP32 has no offset (as cuRAND)");
  on_generator(generator, [&](auto& gen) { gen.set_offset(offset); });
  return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandSetGeneratorOrdering(trnrandGenerator_t generator, trnrandOrdering_t order) {
  const char* fn = "trnrandSetGeneratorOrdering";
  if (!valid(generator)) return fail(fn, TRNRAND_STATUS_NOT_INITIALIZED, "generator is NULL or destroyed");
  // cuRAND's host Philox, XORWOW and MRG32K3A generators accept BEST, DEFAULT and LEGACY (identical
  // output) and reject DYNAMIC and QUASI_DEFAULT with OUT_OF_RANGE (observed on cuRAND 10.4;
  // docs/trnrand.md section 1; MRG32K3A also rejects SEEDED). cuRAND's XORWOW also accepts SEEDED (a differently seeded stream per thread, not
  // documented); trnrand does not reproduce it and returns OUT_OF_RANGE.
  const int o = enum_value(order);
  if (generator->mt) {  // cuRAND's MT19937: DEFAULT and LEGACY (the same stream); BEST too is OUT_OF_RANGE
    if (o != TRNRAND_ORDERING_PSEUDO_DEFAULT && o != TRNRAND_ORDERING_PSEUDO_LEGACY)
      return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "ordering " + std::to_string(o) + " (MT19937: DEFAULT or LEGACY)");
    return TRNRAND_STATUS_SUCCESS;
  }
  if (generator->mtgp) {  // cuRAND's MTGP32: BEST, DEFAULT (192 blocks), LEGACY (64); a change restarts
    using trn::rand::Mtgp32Ordering;
    if (o == TRNRAND_ORDERING_PSEUDO_BEST) generator->mtgp->set_ordering(Mtgp32Ordering::best);
    else if (o == TRNRAND_ORDERING_PSEUDO_DEFAULT) generator->mtgp->set_ordering(Mtgp32Ordering::standard);
    else if (o == TRNRAND_ORDERING_PSEUDO_LEGACY) generator->mtgp->set_ordering(Mtgp32Ordering::legacy);
    else return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "ordering " + std::to_string(o) + " (MTGP32: BEST, DEFAULT or LEGACY)");
    return TRNRAND_STATUS_SUCCESS;
  }
  if (quasi_dimensions(generator) != 0) {
    if (o != TRNRAND_ORDERING_QUASI_DEFAULT)
      return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "ordering " + std::to_string(o) + " (quasi-random: QUASI_DEFAULT)");
    return TRNRAND_STATUS_SUCCESS;
  }
  if (o != TRNRAND_ORDERING_PSEUDO_BEST && o != TRNRAND_ORDERING_PSEUDO_DEFAULT && o != TRNRAND_ORDERING_PSEUDO_LEGACY)
    return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE,
                "ordering " + std::to_string(o) + " (Philox, XORWOW, MRG32K3A: BEST, DEFAULT or LEGACY)");
  return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandSetQuasiRandomGeneratorDimensions(trnrandGenerator_t generator, unsigned int num_dimensions) {
  const char* fn = "trnrandSetQuasiRandomGeneratorDimensions";
  if (!valid(generator)) return fail(fn, TRNRAND_STATUS_NOT_INITIALIZED, "generator is NULL or destroyed");
  if (quasi_dimensions(generator) == 0) return fail(fn, TRNRAND_STATUS_TYPE_ERROR, "not a quasi-random generator");
  if (num_dimensions < 1 || num_dimensions > trn::rand::kSobolMaxDimensions)
    return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "dimensions " + std::to_string(num_dimensions) + " outside 1 .. 20000");
  if (generator->sobol) generator->sobol->set_dimensions(num_dimensions);
  if (generator->sobol64) generator->sobol64->set_dimensions(num_dimensions);
  return TRNRAND_STATUS_SUCCESS;
}

// cuRAND's statuses: lambda (parameter 1) OUT_OF_RANGE, the output pointer (parameter 2)
// NOT_INITIALIZED; nothing is written on failure.
trnrandStatus_t trnrandCreatePoissonDistribution(double lambda, trnrandDiscreteDistribution_t* discrete_distribution) {
  const char* fn = "trnrandCreatePoissonDistribution";
  trn::cshim::ArgCheck<trnrandStatus_t> range(g_log, fn, TRNRAND_STATUS_OUT_OF_RANGE);
  if (!range.require(lambda > 0.0 && lambda <= trn::rand::kCurandPoissonMaxLambda, 1, "lambda")) return range.status();
  trn::cshim::ArgCheck<trnrandStatus_t> out(g_log, fn, TRNRAND_STATUS_NOT_INITIALIZED);
  if (!out.not_null(discrete_distribution, 2, "discrete_distribution")) return out.status();
  return guarded(fn, [&] {
    auto d = std::make_unique<trnrandDiscreteDistribution_st>();
    d->dist = trn::rand::make_poisson_distribution(lambda);
    g_distributions.insert(d.get());
    *discrete_distribution = d.release();
  });
}

trnrandStatus_t trnrandDestroyDistribution(trnrandDiscreteDistribution_t discrete_distribution) {
  if (!g_distributions.destroy(discrete_distribution))
    return fail("trnrandDestroyDistribution", TRNRAND_STATUS_NOT_INITIALIZED,
                "parameter 1 (discrete_distribution) is NULL, destroyed or was never created");
  return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandGetDirectionVectors32(trnrandDirectionVectors32_t* vectors[], trnrandDirectionVectorSet_t set) {
  const char* fn = "trnrandGetDirectionVectors32";
  if (vectors == nullptr) return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "vectors is NULL");
  if (enum_value(set) != TRNRAND_DIRECTION_VECTORS_32_JOEKUO6)
    return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE,
                "set " + std::to_string(enum_value(set)) +
                    ": only TRNRAND_DIRECTION_VECTORS_32_JOEKUO6 (cuRAND's scrambled sets are unpublished data)");
  return guarded(fn, [&] {
    static_assert(sizeof(trn::rand::SobolDirections32) == sizeof(trnrandDirectionVectors32_t));
    // The table is an array of std::array<uint32_t, 32>, layout-identical to unsigned int[32].
    *vectors = reinterpret_cast<trnrandDirectionVectors32_t*>(
        const_cast<trn::rand::SobolDirections32*>(trn::rand::sobol_direction_vectors32()));
  });
}

trnrandStatus_t trnrandGetDirectionVectors64(trnrandDirectionVectors64_t* vectors[], trnrandDirectionVectorSet_t set) {
  const char* fn = "trnrandGetDirectionVectors64";
  if (vectors == nullptr) return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "vectors is NULL");
  if (enum_value(set) != TRNRAND_DIRECTION_VECTORS_64_JOEKUO6)
    return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE,
                "set " + std::to_string(enum_value(set)) +
                    ": only TRNRAND_DIRECTION_VECTORS_64_JOEKUO6 (cuRAND's scrambled sets are unpublished data)");
  return guarded(fn, [&] {
    static_assert(sizeof(trn::rand::SobolDirections64) == sizeof(trnrandDirectionVectors64_t));
    *vectors = reinterpret_cast<trnrandDirectionVectors64_t*>(
        const_cast<trn::rand::SobolDirections64*>(trn::rand::sobol_direction_vectors64()));
  });
}

const char* trnrandGetStatusName(trnrandStatus_t status) {
  switch (status) {
    case TRNRAND_STATUS_SUCCESS:
      return "TRNRAND_STATUS_SUCCESS";
    case TRNRAND_STATUS_VERSION_MISMATCH:
      return "TRNRAND_STATUS_VERSION_MISMATCH";
    case TRNRAND_STATUS_NOT_INITIALIZED:
      return "TRNRAND_STATUS_NOT_INITIALIZED";
    case TRNRAND_STATUS_ALLOCATION_FAILED:
      return "TRNRAND_STATUS_ALLOCATION_FAILED";
    case TRNRAND_STATUS_TYPE_ERROR:
      return "TRNRAND_STATUS_TYPE_ERROR";
    case TRNRAND_STATUS_OUT_OF_RANGE:
      return "TRNRAND_STATUS_OUT_OF_RANGE";
    case TRNRAND_STATUS_LENGTH_NOT_MULTIPLE:
      return "TRNRAND_STATUS_LENGTH_NOT_MULTIPLE";
    case TRNRAND_STATUS_DOUBLE_PRECISION_REQUIRED:
      return "TRNRAND_STATUS_DOUBLE_PRECISION_REQUIRED";
    case TRNRAND_STATUS_LAUNCH_FAILURE:
      return "TRNRAND_STATUS_LAUNCH_FAILURE";
    case TRNRAND_STATUS_PREEXISTING_FAILURE:
      return "TRNRAND_STATUS_PREEXISTING_FAILURE";
    case TRNRAND_STATUS_INITIALIZATION_FAILED:
      return "TRNRAND_STATUS_INITIALIZATION_FAILED";
    case TRNRAND_STATUS_ARCH_MISMATCH:
      return "TRNRAND_STATUS_ARCH_MISMATCH";
    case TRNRAND_STATUS_INTERNAL_ERROR:
      return "TRNRAND_STATUS_INTERNAL_ERROR";
  }
  return "TRNRAND_STATUS_UNKNOWN";
}

const char* trnrandGetStatusString(trnrandStatus_t status) {
  switch (status) {
    case TRNRAND_STATUS_SUCCESS:
      return "no errors";
    case TRNRAND_STATUS_VERSION_MISMATCH:
      return "header file and linked library version do not match";
    case TRNRAND_STATUS_NOT_INITIALIZED:
      return "generator not initialized";
    case TRNRAND_STATUS_ALLOCATION_FAILED:
      return "memory allocation failed";
    case TRNRAND_STATUS_TYPE_ERROR:
      return "generator is wrong type";
    case TRNRAND_STATUS_OUT_OF_RANGE:
      return "argument out of range";
    case TRNRAND_STATUS_LENGTH_NOT_MULTIPLE:
      return "length requested is not a multiple of dimension";
    case TRNRAND_STATUS_DOUBLE_PRECISION_REQUIRED:
      return "double precision required";
    case TRNRAND_STATUS_LAUNCH_FAILURE:
      return "kernel launch failure";
    case TRNRAND_STATUS_PREEXISTING_FAILURE:
      return "preexisting failure on library entry";
    case TRNRAND_STATUS_INITIALIZATION_FAILED:
      return "initialization failed";
    case TRNRAND_STATUS_ARCH_MISMATCH:
      return "architecture mismatch";
    case TRNRAND_STATUS_INTERNAL_ERROR:
      return "internal library error";
  }
  return "unknown status";
}

// ---- Generate* -------------------------------------------------------------------------------------

trnrandStatus_t trnrandGenerate(trnrandGenerator_t generator, unsigned int* output, size_t num) {
  const char* fn = "trnrandGenerate";
  if (valid(generator) && generator->sobol64)
    return fail(fn, TRNRAND_STATUS_TYPE_ERROR, "SOBOL64 gives 64-bit words: trnrandGenerateLongLong (as cuRAND)");
  if (const auto st = check_call(fn, generator, output, num)) return st;
  return guarded(fn, [&] { on_generator(generator, [&](auto& gen) { gen.generate({output, num}); }); });
}

trnrandStatus_t trnrandGenerateLongLong(trnrandGenerator_t generator, unsigned long long* output, size_t num) {
  const char* fn = "trnrandGenerateLongLong";
  if (!valid(generator)) return fail(fn, TRNRAND_STATUS_NOT_INITIALIZED, "generator is NULL or destroyed");
  if (!generator->sobol64)
    return fail(fn, TRNRAND_STATUS_TYPE_ERROR, "64-bit integers come from SOBOL64 generators only (as cuRAND)");
  if (const auto st = check_call(fn, generator, output, num)) return st;
  static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t));
  // unsigned long long and std::uint64_t (unsigned long on LP64) are distinct types of one layout.
  return guarded(fn, [&] { generator->sobol64->generate_long_long({reinterpret_cast<std::uint64_t*>(output), num}); });
}

trnrandStatus_t trnrandGenerateUniform(trnrandGenerator_t generator, float* output, size_t num) {
  const char* fn = "trnrandGenerateUniform";
  if (const auto st = check_call(fn, generator, output, num)) return st;
  return guarded(fn, [&] { on_generator(generator, [&](auto& gen) { gen.uniform({output, num}); }); });
}

trnrandStatus_t trnrandGenerateUniformDouble(trnrandGenerator_t generator, double* output, size_t num) {
  const char* fn = "trnrandGenerateUniformDouble";
  if (const auto st = check_call(fn, generator, output, num)) return st;
  return guarded(fn, [&] { on_generator(generator, [&](auto& gen) { gen.uniform_double({output, num}); }); });
}

trnrandStatus_t trnrandGenerateNormal(trnrandGenerator_t generator, float* output, size_t n, float mean, float stddev) {
  const char* fn = "trnrandGenerateNormal";
  if (const auto st = check_call(fn, generator, output, n, 2)) return st;
  return guarded(fn, [&] { on_generator(generator, [&](auto& gen) { gen.normal({output, n}, mean, stddev); }); });
}

trnrandStatus_t trnrandGenerateNormalDouble(trnrandGenerator_t generator, double* output, size_t n, double mean,
                                            double stddev) {
  const char* fn = "trnrandGenerateNormalDouble";
  if (const auto st = check_call(fn, generator, output, n, 2)) return st;
  return guarded(fn, [&] { on_generator(generator, [&](auto& gen) { gen.normal_double({output, n}, mean, stddev); }); });
}

trnrandStatus_t trnrandGenerateLogNormal(trnrandGenerator_t generator, float* output, size_t n, float mean,
                                         float stddev) {
  const char* fn = "trnrandGenerateLogNormal";
  if (const auto st = check_call(fn, generator, output, n, 2)) return st;
  return guarded(fn, [&] { on_generator(generator, [&](auto& gen) { gen.log_normal({output, n}, mean, stddev); }); });
}

trnrandStatus_t trnrandGenerateLogNormalDouble(trnrandGenerator_t generator, double* output, size_t n, double mean,
                                               double stddev) {
  const char* fn = "trnrandGenerateLogNormalDouble";
  if (const auto st = check_call(fn, generator, output, n, 2)) return st;
  return guarded(fn, [&] { on_generator(generator, [&](auto& gen) { gen.log_normal_double({output, n}, mean, stddev); }); });
}

trnrandStatus_t trnrandGeneratePoisson(trnrandGenerator_t generator, unsigned int* output, size_t n, double lambda) {
  const char* fn = "trnrandGeneratePoisson";
  if (const auto st = check_call(fn, generator, output, n)) return st;
  if (!(lambda > 0.0) || !(lambda <= trn::rand::kCurandPoissonMaxLambda))
    return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "lambda " + std::to_string(lambda) + " outside (0, 400000]");
  return guarded(fn, [&] { on_generator(generator, [&](auto& gen) { gen.poisson({output, n}, lambda); }); });
}

trnrandStatus_t trnrandGeneratePoissonMethod(trnrandGenerator_t generator, unsigned int* output, size_t n,
                                             double lambda, trnrandMethod_t method) {
  const char* fn = "trnrandGeneratePoissonMethod";
  if (const auto st = check_call(fn, generator, output, n)) return st;
  if (!(lambda > 0.0) || !(lambda <= trn::rand::kCurandPoissonMaxLambda))
    return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "lambda " + std::to_string(lambda) + " outside (0, 400000]");
  const int m = enum_value(method);
  if (m < TRNRAND_CHOOSE_BEST || m > TRNRAND_POISSON)
    return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "method " + std::to_string(m) + " outside 0 .. 13");
  if (m == TRNRAND_3RD) return fail(fn, TRNRAND_STATUS_PREEXISTING_FAILURE, "method 3RD (cuRAND's host status)");
  if (m != TRNRAND_DEVICE_API || generator->mt)
    return fail(fn, TRNRAND_STATUS_INTERNAL_ERROR, "method " + std::to_string(m) + " (cuRAND's host status: DEVICE_API only, not on MT19937)");
  if (!generator->mtgp && !generator->sobol)
    return fail(fn, TRNRAND_STATUS_TYPE_ERROR, "DEVICE_API Poisson reproduced for MTGP32 and SOBOL32 only");
  return guarded(fn, [&] {
    if (generator->mtgp) generator->mtgp->poisson_device_api({output, n}, lambda);
    else generator->sobol->poisson_device_api({output, n}, lambda);
  });
}

trnrandStatus_t trnrandGeneratePoissonExact(trnrandGenerator_t generator, unsigned int* output, size_t n,
                                            double lambda) {
  const char* fn = "trnrandGeneratePoissonExact";
  if (const auto st = check_call(fn, generator, output, n)) return st;
  if (const auto st = philox_only(fn, generator)) return st;
  if (!(lambda > 0.0) || !(lambda <= trn::rand::kPoissonExactMaxLambda))
    return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "lambda " + std::to_string(lambda) + " outside (0, 2^31]");
  return guarded(fn, [&] { generator->gen.poisson_exact({output, n}, lambda); });
}

trnrandStatus_t trnrandGenerateExponential(trnrandGenerator_t generator, float* output, size_t n, float lambda) {
  const char* fn = "trnrandGenerateExponential";
  if (const auto st = check_call(fn, generator, output, n)) return st;
  if (const auto st = philox_only(fn, generator)) return st;
  if (!(lambda > 0.0f) || !std::isfinite(lambda))
    return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "lambda " + std::to_string(lambda) + " must be finite and > 0");
  return guarded(fn, [&] { generator->gen.exponential({output, n}, lambda); });
}

trnrandStatus_t trnrandGenerateExponentialDouble(trnrandGenerator_t generator, double* output, size_t n,
                                                 double lambda) {
  const char* fn = "trnrandGenerateExponentialDouble";
  if (const auto st = check_call(fn, generator, output, n)) return st;
  if (const auto st = philox_only(fn, generator)) return st;
  if (!(lambda > 0.0) || !std::isfinite(lambda))
    return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "lambda " + std::to_string(lambda) + " must be finite and > 0");
  return guarded(fn, [&] { generator->gen.exponential_double({output, n}, lambda); });
}

trnrandStatus_t trnrandGenerateBernoulli(trnrandGenerator_t generator, unsigned int* output, size_t n, double p) {
  const char* fn = "trnrandGenerateBernoulli";
  if (const auto st = check_call(fn, generator, output, n)) return st;
  if (const auto st = philox_only(fn, generator)) return st;
  if (!(p >= 0.0 && p <= 1.0))
    return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "p " + std::to_string(p) + " outside [0, 1]");
  return guarded(fn, [&] { generator->gen.bernoulli({output, n}, p); });
}

trnrandStatus_t trnrandGenerateUniformInt(trnrandGenerator_t generator, unsigned int* output, size_t n,
                                          unsigned int low, unsigned int high) {
  const char* fn = "trnrandGenerateUniformInt";
  if (const auto st = check_call(fn, generator, output, n)) return st;
  if (const auto st = philox_only(fn, generator)) return st;
  if (low > high) return fail(fn, TRNRAND_STATUS_OUT_OF_RANGE, "low > high");
  return guarded(fn, [&] { generator->gen.uniform_int({output, n}, low, high); });
}

TRN_CSHIM_EMULATION_ENTRY_POINTS(trnrand, trnrand, Surface)

trnrandStatus_t trnrandSetGeneratorTarget(trnrandGenerator_t generator, trnTarget_t target) {
  return trn::cshim::EmulationApi<Surface>::set_target(generator, "trnrandSetGeneratorTarget",
                                                        trn::cshim::enum_value(target));
}

}  // extern "C"
