// One-off generator of curand_reference_large.txt: cuRAND's host PHILOX4_32_10 generator at n >= 2^20,
// several seeds and offsets, and every distribution after every other one (issue: the per-thread
// counter shifts that 64-bit calls leave behind, docs/trnrand.md section 2); with the argument
// `xorwow`, curand_reference_xorwow.txt: the same kinds of records for CURAND_RNG_PSEUDO_XORWOW
// (docs/trnrand.md section 8); with `sobol`, curand_reference_sobol32.txt (section 9); with
// `mrg32k3a`, curand_reference_mrg32k3a.txt (the XORWOW records for MRG32K3A, section 10); with
// `sobol64`, curand_reference_sobol64.txt (section 11); with `mt19937`, curand_reference_mt19937.txt
// (section 12); with `mtgp32`, curand_reference_mtgp32.txt (section 13). NOT built by CMake: the project never needs CUDA. To regenerate
// (CUDA toolkit with cuRAND at /usr/local/cuda):
//
//   g++ -std=c++17 -O2 -I/usr/local/cuda/include tests/trnrand/data/gen_curand_reference_large.cpp
//       -L/usr/local/cuda/lib64 -lcurand -Wl,-rpath,/usr/local/cuda/lib64 -o /tmp/gen_large   (one line)
//   /tmp/gen_large > tests/trnrand/data/curand_reference_large.txt
//   /tmp/gen_large xorwow > tests/trnrand/data/curand_reference_xorwow.txt
//   /tmp/gen_large sobol > tests/trnrand/data/curand_reference_sobol32.txt
//   /tmp/gen_large mrg32k3a > tests/trnrand/data/curand_reference_mrg32k3a.txt
//   /tmp/gen_large sobol64 > tests/trnrand/data/curand_reference_sobol64.txt
//   /tmp/gen_large mt19937 > tests/trnrand/data/curand_reference_mt19937.txt
//   /tmp/gen_large mtgp32 > tests/trnrand/data/curand_reference_mtgp32.txt
//
// Same record format as curand_reference.txt (gen_curand_reference.cpp), plus `reseed S`
// (SetPseudoRandomGeneratorSeed between calls), `layout xorwow` (the offset advances by n / 2 for
// the Box-Muller types), `layout sobol` with `dimensions D` (it advances by n / D), and with two
// additions that
// keep the file small: every call line carries `stride=S` (the values at 0, S, 2S, ... follow, and
// the last value n - 1 is always included as the final sample) and `fnv=H`, the 64-bit FNV-1a hash
// (offset basis 0xcbf29ce484222325, prime 0x100000001b3) of all n values' bytes (4 little-endian
// bytes per u32 / float, 8 per double) so that the bit-exact types are checked in full.
#include <curand.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

curandGenerator_t g = nullptr;
curandRngType_t g_type = CURAND_RNG_PSEUDO_PHILOX4_32_10;

void check(curandStatus_t s, const char* what) {
  if (s != CURAND_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s failed: %d\n", what, static_cast<int>(s));
    std::exit(1);
  }
}

void new_generator(unsigned long long seed, unsigned long long offset) {
  if (g != nullptr) curandDestroyGenerator(g);
  check(curandCreateGeneratorHost(&g, g_type), "create");
  if (g_type < CURAND_RNG_QUASI_DEFAULT) check(curandSetPseudoRandomGeneratorSeed(g, seed), "seed");
  check(curandSetGeneratorOffset(g, offset), "offset");
  std::printf("generator %llx %llu\n", seed, offset);
}

std::uint64_t fnv1a(const void* data, std::size_t bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

template <class T>
void print(const char* head, const std::vector<T>& all, std::size_t stride) {
  std::printf("%s stride=%zu fnv=%016llx\n", head, stride,
              static_cast<unsigned long long>(fnv1a(all.data(), all.size() * sizeof(T))));
  std::vector<T> v;
  for (std::size_t i = 0; i < all.size(); i += stride) v.push_back(all[i]);
  if ((all.size() - 1) % stride != 0) v.push_back(all.back());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if constexpr (sizeof(T) == 8) {
      std::uint64_t b;
      std::memcpy(&b, &v[i], 8);
      std::printf("%016llx", static_cast<unsigned long long>(b));
    } else {
      std::uint32_t b;
      std::memcpy(&b, &v[i], 4);
      std::printf("%08x", b);
    }
    std::printf((i % 8 == 7 || i + 1 == v.size()) ? "\n" : " ");
  }
}

// One call of distribution `type` (0..7) with n values, sampled every `stride`.
void call(int type, std::size_t n, std::size_t stride) {
  char head[128];
  switch (type) {
    case 0: {
      std::vector<unsigned int> v(n);
      check(curandGenerate(g, v.data(), n), "generate");
      std::snprintf(head, sizeof head, "call u32 %zu", n);
      print(head, v, stride);
      break;
    }
    case 1: {
      std::vector<float> v(n);
      check(curandGenerateUniform(g, v.data(), n), "uniform");
      std::snprintf(head, sizeof head, "call uniform %zu", n);
      print(head, v, stride);
      break;
    }
    case 2: {
      std::vector<double> v(n);
      check(curandGenerateUniformDouble(g, v.data(), n), "uniform double");
      std::snprintf(head, sizeof head, "call uniform_double %zu", n);
      print(head, v, stride);
      break;
    }
    case 3: {
      std::vector<float> v(n);
      check(curandGenerateNormal(g, v.data(), n, 0.0f, 1.0f), "normal");
      std::snprintf(head, sizeof head, "call normal %zu 0 1", n);
      print(head, v, stride);
      break;
    }
    case 4: {
      std::vector<double> v(n);
      check(curandGenerateNormalDouble(g, v.data(), n, 0.5, 2.0), "normal double");
      std::snprintf(head, sizeof head, "call normal_double %zu 0.5 2", n);
      print(head, v, stride);
      break;
    }
    case 5: {
      std::vector<float> v(n);
      check(curandGenerateLogNormal(g, v.data(), n, 0.3f, 0.7f), "log normal");
      std::snprintf(head, sizeof head, "call log_normal %zu 0.300000012 0.699999988", n);
      print(head, v, stride);
      break;
    }
    case 6: {
      std::vector<double> v(n);
      check(curandGenerateLogNormalDouble(g, v.data(), n, 0.3, 0.7), "log normal double");
      std::snprintf(head, sizeof head, "call log_normal_double %zu 0.29999999999999999 0.69999999999999996", n);
      print(head, v, stride);
      break;
    }
    case 9: {
      std::vector<unsigned long long> v(n);
      check(curandGenerateLongLong(g, v.data(), n), "long long");
      std::snprintf(head, sizeof head, "call u64 %zu", n);
      print(head, v, stride);
      break;
    }
    default: {
      // Both Poisson methods: the histogram (lambda 4.5) and the normal approximation (lambda 3000.5).
      const double lambda = type == 7 ? 4.5 : 3000.5;
      std::vector<unsigned int> v(n);
      check(curandGeneratePoisson(g, v.data(), n, lambda), "poisson");
      std::snprintf(head, sizeof head, "call poisson %zu %.17g", n, lambda);
      print(head, v, stride);
      break;
    }
  }
}

// One Poisson call at any lambda (SOBOL32's and MTGP32's three methods, Philox's lambda 4000).
void poisson_call(double lambda, std::size_t n, std::size_t stride) {
  std::vector<unsigned int> v(n);
  check(curandGeneratePoisson(g, v.data(), n, lambda), "poisson");
  char head[128];
  std::snprintf(head, sizeof head, "call poisson %zu %.17g", n, lambda);
  print(head, v, stride);
}

std::uint64_t lcg = 0x2545F4914F6CDD1Dull;
std::uint64_t next() {
  lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
  return lcg >> 11;
}

}  // namespace

// The stateful generators (XORWOW: 4096 host threads, MRG32K3A: 81920): orderings, statuses, every
// distribution after every other one (even n: their Box-Muller types need pairs), offsets near and
// far (threads - 1: the last thread's first slot), reseeding, up to 2^22 values. `title` names the
// generator in the file's comment.
void stateful_records(const char* title, unsigned long long threads) {
  std::printf("# %s: the offset counts one slot per Box-Muller pair\n", title);
  std::printf("layout xorwow\n");
  for (int type = 0; type < 9; ++type) {  // small calls of every type: all values stored
    new_generator(1234, 5);
    call(type, 1000, 1);
  }
  for (int a = 0; a < 9; ++a)
    for (int b = 0; b < 9; ++b) {
      const unsigned long long seed = next(), offset = next() % 100000;
      new_generator(seed, offset);
      call(a, 20000 + 2 * (next() % 3000), 997);
      call(b, 20000 + 2 * (next() % 3000), 997);
      call(0, 4097, 1021);
    }
  const unsigned long long seeds[] = {0ull, 42ull, 0xfedcba9876543210ull};
  const unsigned long long offsets[] = {0ull, threads - 1, 1000000000003ull};
  for (int s = 0; s < 3; ++s) {
    new_generator(seeds[s], offsets[s]);
    call(0, (1u << 22), 262139);
    call(2, (1u << 20) + 1, 65521);
    call(3, (1u << 20), 65521);
    call(8, (1u << 20) + 1, 65521);
    call(1, (1u << 21), 131071);
    call(4, 2 * 777, 1);
    call(0, threads * 3 + 1, 613);
  }
  // Reseeding keeps the offset and restarts the thread states.
  new_generator(7, 0);
  call(2, 1000, 1);
  check(curandSetPseudoRandomGeneratorSeed(g, 8), "seed");
  std::printf("reseed 8\n");
  call(0, 1000, 1);
  // Statuses (the host generator's behaviour).
  std::vector<float> f(9);
  std::vector<unsigned long long> ull(9);
  std::printf("status normal_odd_n %d\n", static_cast<int>(curandGenerateNormal(g, f.data(), 9, 0.0f, 1.0f)));
  std::printf("status long_long %d\n", static_cast<int>(curandGenerateLongLong(g, ull.data(), 9)));
  const int orders[] = {100, 101, 102, 103, 104, 201};
  for (int o : orders)
    std::printf("status ordering_%d %d\n", o, static_cast<int>(curandSetGeneratorOrdering(g, static_cast<curandOrdering_t>(o))));
}

// CURAND_RNG_QUASI_SOBOL32: dimension counts 1 .. 20000 (every dimension's vectors reach a stored
// hash), offsets up to 2^32 - 6 (across the 2^32-point period), every type in turn, statuses.
void sobol_records() {
  std::printf("# SOBOL32 (CURAND_RNG_QUASI_SOBOL32 = 201): the offset counts points (n / dimensions per call)\n");
  std::printf("layout sobol\n");
  struct Case {
    unsigned dims;
    unsigned long long offset;
    std::size_t points;
  };
  const Case cases[] = {{1, 0, 1000}, {3, 5, 1000}, {100, 1000003, 300}, {20000, 0, 64}, {7, 4294967290ull, 100}};
  for (const Case& c : cases) {
    new_generator(0, c.offset);
    check(curandSetQuasiRandomGeneratorDimensions(g, c.dims), "dimensions");
    std::printf("dimensions %u\n", c.dims);
    const std::size_t n = c.dims * c.points;
    const std::size_t stride = n > 100000 ? 4099 : n > 1000 ? 97 : 1;
    // (Poisson from lambda 2000 is a sequential cdf search of ~lambda steps per value: not at 20000 dimensions.)
    for (int type = 0; type < 9; ++type)
      if (type < 8 || n <= 100000) call(type, n, stride);
  }
  // Poisson's three methods (histogram below lambda 10, inversion to 8000, normal approximation
  // above) and NVIDIA's sobol32 Poisson sample (1 dimension, offset 0, n 12, lambda 10: Host[2] is 12).
  new_generator(0, 0);
  check(curandSetQuasiRandomGeneratorDimensions(g, 1), "dimensions");
  std::printf("dimensions 1\n");
  poisson_call(10.0, 12, 1);
  new_generator(0, 3);
  check(curandSetQuasiRandomGeneratorDimensions(g, 3), "dimensions");
  std::printf("dimensions 3\n");
  const double lambdas[] = {9.75, 10, 31.5, 100.25, 1999.5, 8000, 8000.5, 100000};
  for (double l : lambdas) poisson_call(l, 3000, 97);
  // A large call: 2^22 values of 4 dimensions.
  new_generator(0, 77);
  check(curandSetQuasiRandomGeneratorDimensions(g, 4), "dimensions");
  std::printf("dimensions 4\n");
  call(0, 1u << 22, 262139);
  call(2, 1u << 20, 65521);
  // The direction vectors (curandGetDirectionVectors32, JOEKUO6): FNV-1a of all 20000 x 32 words.
  curandDirectionVectors32_t* v = nullptr;
  check(curandGetDirectionVectors32(&v, CURAND_DIRECTION_VECTORS_32_JOEKUO6), "direction vectors");
  std::printf("direction_vectors32_fnv %016llx\n", static_cast<unsigned long long>(fnv1a(v, 20000 * 32 * 4)));
  // Statuses (the host generator's behaviour).
  std::vector<unsigned> u(9);
  std::vector<float> f(9);
  std::vector<unsigned long long> ull(9);
  std::printf("status dimensions_0 %d\n", static_cast<int>(curandSetQuasiRandomGeneratorDimensions(g, 0)));
  std::printf("status dimensions_20001 %d\n", static_cast<int>(curandSetQuasiRandomGeneratorDimensions(g, 20001)));
  std::printf("status generate_not_multiple %d\n", static_cast<int>(curandGenerate(g, u.data(), 9 - 2)));
  check(curandSetQuasiRandomGeneratorDimensions(g, 3), "dimensions");
  std::printf("status normal_n9_dims3 %d\n", static_cast<int>(curandGenerateNormal(g, f.data(), 9, 0.0f, 1.0f)));
  std::printf("status seed %d\n", static_cast<int>(curandSetPseudoRandomGeneratorSeed(g, 5)));
  std::printf("status long_long %d\n", static_cast<int>(curandGenerateLongLong(g, ull.data(), 9)));
  const int orders[] = {100, 101, 102, 103, 104, 201};
  for (int o : orders)
    std::printf("status ordering_%d %d\n", o, static_cast<int>(curandSetGeneratorOrdering(g, static_cast<curandOrdering_t>(o))));
  curandGenerator_t philox = nullptr;
  check(curandCreateGeneratorHost(&philox, CURAND_RNG_PSEUDO_PHILOX4_32_10), "create");
  std::printf("status philox_dimensions %d\n", static_cast<int>(curandSetQuasiRandomGeneratorDimensions(philox, 3)));
  curandDestroyGenerator(philox);
  std::printf("status direction_vectors_set_99 %d\n",
              static_cast<int>(curandGetDirectionVectors32(&v, static_cast<curandDirectionVectorSet_t>(99))));
  std::printf("status direction_vectors_set_103 %d\n",
              static_cast<int>(curandGetDirectionVectors32(&v, CURAND_DIRECTION_VECTORS_64_JOEKUO6)));
}

// CURAND_RNG_QUASI_SOBOL64: the SOBOL32 cases with 64-bit words (LongLong = type 9) and offsets
// across 2^32 and up to the 2^64 wrap; about eight stored values per call (the hashes check all of
// them), so the file stays a few KB.
void sobol64_records() {
  std::printf("# SOBOL64 (CURAND_RNG_QUASI_SOBOL64 = 203): the offset counts points (n / dimensions per call)\n");
  std::printf("layout sobol\n");
  struct Case {
    unsigned dims;
    unsigned long long offset;
    std::size_t points;
  };
  const Case cases[] = {{1, 0, 1000},   {3, 5, 1000},   {100, 1000003, 300},
                        {20000, 0, 8},  {7, 4294967290ull, 100}, {5, 18446744073709551600ull, 40}};
  const int types[] = {9, 1, 2, 3, 4, 5, 6, 7, 8};  // no 32-bit words (TYPE_ERROR)
  for (const Case& c : cases) {
    new_generator(0, c.offset);
    check(curandSetQuasiRandomGeneratorDimensions(g, c.dims), "dimensions");
    std::printf("dimensions %u\n", c.dims);
    const std::size_t n = c.dims * c.points;
    for (int type : types)
      if (type != 8 || n <= 100000) call(type, n, n / 7 + 1);
  }
  new_generator(0, 77);
  check(curandSetQuasiRandomGeneratorDimensions(g, 4), "dimensions");
  std::printf("dimensions 4\n");
  call(9, 1u << 22, (1u << 22) / 3);
  call(2, 1u << 20, (1u << 20) / 3);
  curandDirectionVectors64_t* v = nullptr;
  check(curandGetDirectionVectors64(&v, CURAND_DIRECTION_VECTORS_64_JOEKUO6), "direction vectors");
  std::printf("direction_vectors64_fnv %016llx\n", static_cast<unsigned long long>(fnv1a(v, 20000 * 64 * 8)));
  std::vector<unsigned> u(9);
  std::vector<unsigned long long> ull(9);
  std::printf("status generate_u32 %d\n", static_cast<int>(curandGenerate(g, u.data(), 8)));
  std::printf("status long_long_not_multiple %d\n", static_cast<int>(curandGenerateLongLong(g, ull.data(), 7)));
  std::printf("status dimensions_0 %d\n", static_cast<int>(curandSetQuasiRandomGeneratorDimensions(g, 0)));
  std::printf("status dimensions_20001 %d\n", static_cast<int>(curandSetQuasiRandomGeneratorDimensions(g, 20001)));
  std::printf("status seed %d\n", static_cast<int>(curandSetPseudoRandomGeneratorSeed(g, 5)));
  const int orders[] = {100, 101, 102, 103, 104, 201};
  for (int o : orders)
    std::printf("status ordering_%d %d\n", o, static_cast<int>(curandSetGeneratorOrdering(g, static_cast<curandOrdering_t>(o))));
  std::printf("status direction_vectors64_set_101 %d\n",
              static_cast<int>(curandGetDirectionVectors64(&v, CURAND_DIRECTION_VECTORS_32_JOEKUO6)));
  std::printf("status direction_vectors64_set_99 %d\n",
              static_cast<int>(curandGetDirectionVectors64(&v, static_cast<curandDirectionVectorSet_t>(99))));
}

// CURAND_RNG_PSEUDO_MT19937: positional, no offsets (SetGeneratorOffset is TYPE_ERROR), so the
// generator lines carry offset 0 and no SetGeneratorOffset call. Every type in turn (odd n for the
// inverse-CDF normals), a 2^22 + 2^21 word chain across the first 78-row block of the streams
// (5111808 words), reseeds (a new seed restarts at word 0, the same seed changes nothing), a
// 64-bit seed, statuses; about eight stored values
// per call plus the hash of all of them.
void mt19937_records() {
  std::printf("# MT19937 (CURAND_RNG_PSEUDO_MT19937 = 142): positional; the offset counts words\n");
  auto fresh = [](unsigned long long seed) {
    if (g != nullptr) curandDestroyGenerator(g);
    check(curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_MT19937), "create");
    check(curandSetPseudoRandomGeneratorSeed(g, seed), "seed");
    std::printf("generator %llx 0\n", seed);
  };
  fresh(1234);
  for (int type = 0; type < 9; ++type) call(type, type == 3 ? 1001 : 1000, 143);
  call(0, 4097, 585);
  call(3, 65537, 9363);
  call(0, 1u << 22, (1u << 22) / 7);
  call(1, 1u << 21, (1u << 21) / 7);
  call(2, 70001, 10001);
  // A new seed restarts cuRAND's MT19937 at word 0 of the new streams (observed; recorded as a
  // fresh generator); the same seed again changes nothing (the calls chain).
  check(curandSetPseudoRandomGeneratorSeed(g, 77), "seed");
  std::printf("# SetPseudoRandomGeneratorSeed(77) after 6440092 words\ngenerator 4d 0\n");
  call(0, 4001, 571);
  check(curandSetPseudoRandomGeneratorSeed(g, 77), "seed");
  std::printf("# SetPseudoRandomGeneratorSeed(77) again: no effect\n");
  call(1, 1000, 143);
  fresh(0x123456789abcdefull);
  call(0, 3000, 429);
  call(4, 1000, 143);
  std::vector<unsigned long long> ull(9);
  std::vector<float> f(9);
  std::printf("status offset %d\n", static_cast<int>(curandSetGeneratorOffset(g, 5)));
  std::printf("status long_long %d\n", static_cast<int>(curandGenerateLongLong(g, ull.data(), 9)));
  std::printf("status normal_odd_n %d\n", static_cast<int>(curandGenerateNormal(g, f.data(), 9, 0.0f, 1.0f)));
  const int orders[] = {100, 101, 102, 103, 104, 201};
  for (int o : orders)
    std::printf("status ordering_%d %d\n", o, static_cast<int>(curandSetGeneratorOrdering(g, static_cast<curandOrdering_t>(o))));
  std::printf("status dimensions %d\n", static_cast<int>(curandSetQuasiRandomGeneratorDimensions(g, 3)));
}

// CURAND_RNG_PSEUDO_MTGP32: positional, no offsets (TYPE_ERROR), orderings DEFAULT / BEST (192
// blocks) and LEGACY (64 blocks; an `ordering 103` line after the `generator` line). Every type in
// turn (odd n), calls across the 49152-word rounds, Poisson at every method's edges (histogram
// below 32, Fishman's inversion to 8000, the normal approximation above), reseeds, a 64-bit seed,
// the default seed (no SetPseudoRandomGeneratorSeed: recorded as seed 0), statuses.
void mtgp32_records() {
  std::printf("# MTGP32 (CURAND_RNG_PSEUDO_MTGP32 = 141): positional; the offset counts words\n");
  auto fresh = [](unsigned long long seed, bool set_seed, int ordering) {
    if (g != nullptr) curandDestroyGenerator(g);
    check(curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_MTGP32), "create");
    if (set_seed) check(curandSetPseudoRandomGeneratorSeed(g, seed), "seed");
    std::printf("generator %llx 0\n", seed);
    if (ordering != 101) {
      check(curandSetGeneratorOrdering(g, static_cast<curandOrdering_t>(ordering)), "ordering");
      std::printf("ordering %d\n", ordering);
    }
  };
  fresh(1234, true, 101);
  for (int type = 0; type < 9; ++type) call(type, type == 3 ? 1001 : 1000, 143);
  call(0, 4097, 585);
  call(3, 65537, 9363);
  call(0, (1u << 20) + 3, (1u << 20) / 7);
  call(1, 100003, 14287);
  call(2, 70001, 10001);
  call(5, 5003, 715);
  call(6, 5003, 715);
  const double lambdas[] = {0.25, 31.5, 32, 100.5, 1999.5, 2000, 7999.75, 8000, 8000.5, 65536.25, 400000};
  for (double l : lambdas) poisson_call(l, l > 10000 ? 4001 : 20001, 2857);
  check(curandSetPseudoRandomGeneratorSeed(g, 77), "seed");
  std::printf("# SetPseudoRandomGeneratorSeed(77): restarts at word 0\ngenerator 4d 0\n");
  call(0, 4001, 571);
  check(curandSetPseudoRandomGeneratorSeed(g, 77), "seed");
  std::printf("# SetPseudoRandomGeneratorSeed(77) again: no effect\n");
  call(1, 1000, 143);
  fresh(0x123456789abcdefull, true, 101);
  call(0, 3000, 429);
  call(4, 1000, 143);
  fresh(0, false, 101);  // the default seed
  call(0, 60000, 8571);
  fresh(0xffffffff00000005ull, true, 103);  // LEGACY: 64 blocks
  call(0, 40000, 5713);
  call(1, 1001, 143);
  call(0, 70000, 9999);
  poisson_call(4000.5, 3001, 428);
  fresh(99, true, 100);  // BEST: the DEFAULT layout
  call(0, 50001, 7143);
  std::vector<unsigned long long> ull(9);
  std::vector<float> f(9);
  std::vector<unsigned int> u(9);
  std::printf("status offset %d\n", static_cast<int>(curandSetGeneratorOffset(g, 5)));
  std::printf("status long_long %d\n", static_cast<int>(curandGenerateLongLong(g, ull.data(), 9)));
  std::printf("status normal_odd_n %d\n", static_cast<int>(curandGenerateNormal(g, f.data(), 9, 0.0f, 1.0f)));
  std::printf("status poisson_lambda_0 %d\n", static_cast<int>(curandGeneratePoisson(g, u.data(), 9, 0.0)));
  std::printf("status poisson_lambda_400001 %d\n", static_cast<int>(curandGeneratePoisson(g, u.data(), 9, 400001.0)));
  const int orders[] = {102, 104, 201, 100, 101, 103};
  for (int o : orders)
    std::printf("status ordering_%d %d\n", o, static_cast<int>(curandSetGeneratorOrdering(g, static_cast<curandOrdering_t>(o))));
  std::printf("status dimensions %d\n", static_cast<int>(curandSetQuasiRandomGeneratorDimensions(g, 3)));
  // GeneratePoissonMethod on the host generators: the status of every method value on MTGP32, and
  // the values of CURAND_DEVICE_API on MTGP32 (seed 1234) and SOBOL32 (1 dimension):
  // "device_poisson <rng type> <lambda> <n> <FNV-1a of the n values>".
  for (int m = 0; m < 14; ++m)
    std::printf("status poisson_method_%d %d\n", m,
                static_cast<int>(curandGeneratePoissonMethod(g, u.data(), 9, 4.5, static_cast<curandMethod_t>(m))));
  const int device_types[] = {141, 201};
  const double device_lambdas[] = {4.5, 999.5, 1000, 3000.5};
  for (int t : device_types)
    for (double l : device_lambdas) {
      curandGenerator_t d = nullptr;
      check(curandCreateGeneratorHost(&d, static_cast<curandRngType_t>(t)), "create");
      if (t == 141) check(curandSetPseudoRandomGeneratorSeed(d, 1234), "seed");
      std::vector<unsigned int> v(5001);
      check(curandGeneratePoissonMethod(d, v.data(), v.size(), l, CURAND_DEVICE_API), "poisson method");
      std::printf("device_poisson %d %.17g %zu %016llx\n", t, l, v.size(),
                  static_cast<unsigned long long>(fnv1a(v.data(), v.size() * 4)));
      curandDestroyGenerator(d);
    }
  // GenerateSeeds after 1000 words: "generate_seeds <rng type> <next word is word 0> <is word 1000>".
  const int seed_types[] = {101, 121, 141, 142, 201, 203};
  for (int t : seed_types) {
    curandGenerator_t a = nullptr, b = nullptr;
    check(curandCreateGeneratorHost(&a, static_cast<curandRngType_t>(t)), "create");
    check(curandCreateGeneratorHost(&b, static_cast<curandRngType_t>(t)), "create");
    const bool wide = t == 203;
    std::vector<unsigned long long> wa(1001), wb(2001);
    std::vector<unsigned int> na(1001), nb(2001);
    if (wide) {
      check(curandGenerateLongLong(a, wa.data(), 1000), "gen");
      check(curandGenerateSeeds(a), "seeds");
      check(curandGenerateLongLong(a, wa.data() + 1000, 1), "gen");
      check(curandGenerateLongLong(b, wb.data(), 2001), "gen");
    } else {
      check(curandGenerate(a, na.data(), 1000), "gen");
      check(curandGenerateSeeds(a), "seeds");
      check(curandGenerate(a, na.data() + 1000, 1), "gen");
      check(curandGenerate(b, nb.data(), 2001), "gen");
    }
    const bool word0 = wide ? wa[1000] == wb[0] : na[1000] == nb[0];
    const bool word1000 = wide ? wa[1000] == wb[1000] : na[1000] == nb[1000];
    std::printf("generate_seeds %d %d %d\n", t, word0 ? 1 : 0, word1000 ? 1 : 0);
    curandDestroyGenerator(a);
    curandDestroyGenerator(b);
  }
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "mtgp32") == 0) {
    int version = 0;
    curandGetVersion(&version);
    std::printf("# cuRAND %d host generator (MTGP32)\n# generated by tests/trnrand/data/gen_curand_reference_large.cpp mtgp32\n", version);
    mtgp32_records();
    curandDestroyGenerator(g);
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "mt19937") == 0) {
    int version = 0;
    curandGetVersion(&version);
    std::printf("# cuRAND %d host generator (MT19937)\n# generated by tests/trnrand/data/gen_curand_reference_large.cpp mt19937\n", version);
    mt19937_records();
    curandDestroyGenerator(g);
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "sobol64") == 0) {
    g_type = CURAND_RNG_QUASI_SOBOL64;
    int version = 0;
    curandGetVersion(&version);
    std::printf("# cuRAND %d host generator (SOBOL64)\n# generated by tests/trnrand/data/gen_curand_reference_large.cpp sobol64\n", version);
    sobol64_records();
    curandDestroyGenerator(g);
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "mrg32k3a") == 0) {
    g_type = CURAND_RNG_PSEUDO_MRG32K3A;
    int version = 0;
    curandGetVersion(&version);
    std::printf("# cuRAND %d host generator (MRG32K3A)\n# generated by tests/trnrand/data/gen_curand_reference_large.cpp mrg32k3a\n", version);
    stateful_records("MRG32K3A (CURAND_RNG_PSEUDO_MRG32K3A = 121)", 81920);
    curandDestroyGenerator(g);
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "sobol") == 0) {
    g_type = CURAND_RNG_QUASI_SOBOL32;
    int version = 0;
    curandGetVersion(&version);
    std::printf("# cuRAND %d host generator (SOBOL32)\n# generated by tests/trnrand/data/gen_curand_reference_large.cpp sobol\n", version);
    sobol_records();
    curandDestroyGenerator(g);
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "xorwow") == 0) {
    g_type = CURAND_RNG_PSEUDO_XORWOW;
    int version = 0;
    curandGetVersion(&version);
    std::printf("# cuRAND %d host generator (XORWOW)\n# generated by tests/trnrand/data/gen_curand_reference_large.cpp xorwow\n", version);
    stateful_records("XORWOW (CURAND_RNG_PSEUDO_XORWOW = 101)", 4096);
    curandDestroyGenerator(g);
    return 0;
  }
  int version = 0;
  curandGetVersion(&version);
  std::printf("# cuRAND %d host generator (PHILOX4_32_10), large calls\n", version);
  std::printf("# generated by tests/trnrand/data/gen_curand_reference_large.cpp\n");

  // 1. The sequence of the issue: seed 0, offset 1000003, n = 1048578 of every distribution in turn.
  new_generator(0, 1000003);
  for (int type = 0; type < 9; ++type) call(type, 1048578, 16411);

  // 1b. The sequence again with Poisson at lambda 4000 after the log-normals (the normal
  // approximation's z rounded across an integer at one of the 1048578 values).
  new_generator(0, 1000003);
  for (int type = 0; type < 7; ++type) call(type, 1048578, 16411);
  poisson_call(4000, 1048578, 16411);

  // 2. Every distribution after every other one at n >= 2^20 (odd n and odd offsets included), a
  // fresh generator per pair with its own seed and offset.
  for (int a = 0; a < 9; ++a)
    for (int b = 0; b < 9; ++b) {
      const unsigned long long seed = next(), offset = next() % 5000000;
      new_generator(seed, offset);
      call(a, (1u << 20) + next() % 7, 65521);
      call(b, (1u << 20) + next() % 7, 65521);
    }

  // 3. Long chains at 2^22: several seeds, 64-bit calls between 32-bit ones, then an offset reset.
  const unsigned long long seeds[] = {0ull, 1234ull, 0x123456789abcdefull};
  for (unsigned long long seed : seeds) {
    new_generator(seed, next() % 1000000);
    call(2, (1u << 22) + 1, 262139);
    call(0, (1u << 22), 262139);
    call(4, (1u << 21) + 2, 262139);
    call(1, 333, 1);
    call(3, (1u << 22), 262139);
    call(6, 777, 1);
    call(7, (1u << 20), 262139);
    const unsigned long long offset = next() % 1000000;
    check(curandSetGeneratorOffset(g, offset), "offset");
    std::printf("offset %llu\n", offset);
    call(0, (1u << 20) + 5, 65521);
  }
  curandDestroyGenerator(g);
  return 0;
}
