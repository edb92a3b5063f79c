// One-off generator of the cuRAND reference vectors in curand_reference.txt. NOT built by CMake:
// the project never needs CUDA. It drives cuRAND's *host* generator (curandCreateGeneratorHost,
// PHILOX4_32_10), which runs without a GPU. To regenerate (CUDA toolkit with cuRAND 10.4 at
// /usr/local/cuda):
//
//   g++ -std=c++17 -O2 -I/usr/local/cuda/include tests/trnrand/data/gen_curand_reference.cpp
//       -L/usr/local/cuda/lib64 -lcurand -Wl,-rpath,/usr/local/cuda/lib64 -o /tmp/gen_curand_reference
//   (one command line)
//   /tmp/gen_curand_reference > tests/trnrand/data/curand_reference.txt
//
// Format (read by tests/trnrand/test_trnrand_curand.cpp), one record per line:
//   # ...                                   comment
//   generator <seed hex> <offset dec>       a fresh host generator: SetPseudoRandomGeneratorSeed, SetGeneratorOffset
//   offset <dec>                            SetGeneratorOffset on the current generator
//   call <type> <n> [mean stddev | lambda] [stride=S]
//                                           one Generate* call on the current generator; then its values,
//                                           8 per line: u32 / float bits as 8 hex digits, double bits as 16;
//                                           with stride=S only the values at indices 0, S, 2S, ... (large calls)
//   status <what> <code>                    the status cuRAND returned for a call (documentation and tests)
// Types: u32, uniform, uniform_double, normal, normal_double, log_normal, log_normal_double, poisson.
// Parameters are printed with %.17g (doubles) / %.9g (floats) so they round-trip exactly.
#include <curand.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

curandGenerator_t g = nullptr;

void check(curandStatus_t s, const char* what) {
  if (s != CURAND_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s failed: %d\n", what, static_cast<int>(s));
    std::exit(1);
  }
}

void new_generator(unsigned long long seed, unsigned long long offset) {
  if (g != nullptr) curandDestroyGenerator(g);
  check(curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10), "create");
  check(curandSetPseudoRandomGeneratorSeed(g, seed), "seed");
  check(curandSetGeneratorOffset(g, offset), "offset");
  std::printf("generator %llx %llu\n", seed, offset);
}

void set_offset(unsigned long long offset) {
  check(curandSetGeneratorOffset(g, offset), "offset");
  std::printf("offset %llu\n", offset);
}

std::size_t g_stride = 1;  // print every g_stride-th value (large calls)

const char* stride_suffix() {
  static char buf[32];
  if (g_stride == 1) return "";
  std::snprintf(buf, sizeof buf, " stride=%zu", g_stride);
  return buf;
}

template <class T>
void print_values(const std::vector<T>& all) {
  std::vector<T> v;
  for (std::size_t i = 0; i < all.size(); i += g_stride) v.push_back(all[i]);
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

void u32(std::size_t n) {
  std::vector<unsigned int> v(n);
  check(curandGenerate(g, v.data(), n), "generate");
  std::printf("call u32 %zu%s\n", n, stride_suffix());
  print_values(v);
}
void uniform(std::size_t n) {
  std::vector<float> v(n);
  check(curandGenerateUniform(g, v.data(), n), "uniform");
  std::printf("call uniform %zu%s\n", n, stride_suffix());
  print_values(v);
}
void uniform_double(std::size_t n) {
  std::vector<double> v(n);
  check(curandGenerateUniformDouble(g, v.data(), n), "uniform double");
  std::printf("call uniform_double %zu%s\n", n, stride_suffix());
  print_values(v);
}
void normal(std::size_t n, float mean, float stddev) {
  std::vector<float> v(n);
  check(curandGenerateNormal(g, v.data(), n, mean, stddev), "normal");
  std::printf("call normal %zu %.9g %.9g%s\n", n, mean, stddev, stride_suffix());
  print_values(v);
}
void log_normal(std::size_t n, float mean, float stddev) {
  std::vector<float> v(n);
  check(curandGenerateLogNormal(g, v.data(), n, mean, stddev), "log normal");
  std::printf("call log_normal %zu %.9g %.9g%s\n", n, mean, stddev, stride_suffix());
  print_values(v);
}
void normal_double(std::size_t n, double mean, double stddev) {
  std::vector<double> v(n);
  check(curandGenerateNormalDouble(g, v.data(), n, mean, stddev), "normal double");
  std::printf("call normal_double %zu %.17g %.17g%s\n", n, mean, stddev, stride_suffix());
  print_values(v);
}
void log_normal_double(std::size_t n, double mean, double stddev) {
  std::vector<double> v(n);
  check(curandGenerateLogNormalDouble(g, v.data(), n, mean, stddev), "log normal double");
  std::printf("call log_normal_double %zu %.17g %.17g%s\n", n, mean, stddev, stride_suffix());
  print_values(v);
}
void poisson(std::size_t n, double lambda) {
  std::vector<unsigned int> v(n);
  check(curandGeneratePoisson(g, v.data(), n, lambda), "poisson");
  std::printf("call poisson %zu %.17g%s\n", n, lambda, stride_suffix());
  print_values(v);
}

}  // namespace

int main() {
  int version = 0;
  curandGetVersion(&version);
  std::printf("# cuRAND %d host generator (curandCreateGeneratorHost, CURAND_RNG_PSEUDO_PHILOX4_32_10)\n", version);
  std::printf("# generated by tests/trnrand/data/gen_curand_reference.cpp\n");

  // 1. Every type at several seeds and offsets (offset 262143: the 65536-subsequence wrap).
  const unsigned long long seeds[] = {0ull, 1234ull, 0x123456789abcdefull};
  const unsigned long long offsets[] = {0ull, 5ull, 262143ull, 5000001ull};
  for (unsigned long long seed : seeds)
    for (unsigned long long offset : offsets) {
      new_generator(seed, offset);
      u32(333);
      set_offset(offset);
      uniform(333);
      set_offset(offset);
      uniform_double(257);
      set_offset(offset);
      normal(400, 0.0f, 1.0f);
      set_offset(offset);
      normal_double(256, 0.0, 1.0);
      set_offset(offset);
      log_normal(256, 0.3f, 0.7f);
      set_offset(offset);
      log_normal_double(128, 0.3, 0.7);
      set_offset(offset);
      poisson(333, 4.5);
    }

  // 2. Chained calls: positions keep counting across calls and types (odd boundaries included).
  new_generator(42, 0);
  u32(10);
  uniform_double(7);
  normal(6, 1.5f, 2.0f);
  uniform(3);
  normal_double(4, -1.0, 0.5);
  log_normal(2, 0.0f, 1.0f);
  poisson(9, 1000.5);
  u32(5);
  poisson(11, 2500.0);
  log_normal_double(6, 0.1, 0.2);
  uniform(4);
  set_offset(1000);
  normal(8, 0.0f, 1.0f);
  u32(4);

  // 3. Poisson across cuRAND's two methods (histogram below lambda 2000, normal approximation from 2000).
  const double lambdas[] = {0.5, 4.5, 30.0, 1000.5, 1999.5, 2000.0, 5000.0, 100000.0, 400000.0};
  for (double lambda : lambdas) {
    new_generator(1234, 0);
    poisson(2001, lambda);
  }
  new_generator(0x123456789abcdefull, 5000001);
  poisson(777, 30.0);

  // 4. Larger float samples for the ulp statistics of the Box–Muller outputs.
  new_generator(1234, 0);
  normal(32768, 0.0f, 1.0f);
  new_generator(42, 7);
  log_normal(8192, 0.3f, 0.7f);

  // 5. Large calls (several 65536-thread rounds), every 613th value: the 64-bit layout depends on
  // the call's start position (trnrand streams.hpp), so doubles from offsets 0, 3 and 262140.
  g_stride = 613;
  new_generator(77, 0);
  uniform_double(600000);
  set_offset(3);
  uniform_double(600000);
  set_offset(262140);
  normal_double(600000, 0.0, 1.0);
  set_offset(5);
  log_normal_double(600000, 0.3, 0.7);
  set_offset(1000001);
  u32(600001);
  uniform(600001);
  normal(600000, 0.0f, 1.0f);
  poisson(600001, 30.0);
  g_stride = 1;

  // 6. Statuses of edge cases (the host generator's behaviour; trnrand.h documents where it differs).
  new_generator(0, 0);
  std::vector<float> f(9);
  std::vector<unsigned int> u(9);
  std::vector<unsigned long long> ull(9);
  std::printf("status normal_odd_n %d\n", static_cast<int>(curandGenerateNormal(g, f.data(), 9, 0.0f, 1.0f)));
  std::printf("status poisson_lambda_0 %d\n", static_cast<int>(curandGeneratePoisson(g, u.data(), 9, 0.0)));
  std::printf("status poisson_lambda_400001 %d\n", static_cast<int>(curandGeneratePoisson(g, u.data(), 9, 400001.0)));
  std::printf("status long_long %d\n", static_cast<int>(curandGenerateLongLong(g, ull.data(), 9)));
  std::printf("status n_zero %d\n", static_cast<int>(curandGenerate(g, u.data(), 0)));
  std::printf("status ordering_best %d\n",
              static_cast<int>(curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_BEST)));
  std::printf("status ordering_legacy %d\n",
              static_cast<int>(curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_LEGACY)));
  std::printf("status ordering_seeded %d\n",
              static_cast<int>(curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_SEEDED)));
  std::printf("status ordering_dynamic %d\n",
              static_cast<int>(curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_DYNAMIC)));
  std::printf("status ordering_quasi_default %d\n",
              static_cast<int>(curandSetGeneratorOrdering(g, CURAND_ORDERING_QUASI_DEFAULT)));
  std::printf("status ordering_default %d\n",
              static_cast<int>(curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_DEFAULT)));
  curandGenerator_t bad = nullptr;
  std::printf("status rng_type_12345 %d\n",
              static_cast<int>(curandCreateGeneratorHost(&bad, static_cast<curandRngType_t>(12345))));
  std::printf("status destroy_null %d\n", static_cast<int>(curandDestroyGenerator(nullptr)));
  std::printf("status version %d\n", version);
  curandDestroyGenerator(g);
  return 0;
}
