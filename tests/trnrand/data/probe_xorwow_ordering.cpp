// One-off probe (NOT built by CMake; needs libcurand): checks the model of cuRAND's host XORWOW
// ordering (4096 threads = subsequences, persistent per-thread states; docs/trnrand.md section 8)
// against libcurand for random sequences of u32, uniform, uniform double, normal and normal double
// calls with random offsets and seeds. Uses probe_xorwow_model.hpp (GF(2) skip-ahead).
//   g++ -std=c++17 -O2 -I/usr/local/cuda/include tests/trnrand/data/probe_xorwow_ordering.cpp
//       -L/usr/local/cuda/lib64 -lcurand -Wl,-rpath,/usr/local/cuda/lib64 -o /tmp/probe && /tmp/probe 1 40
#include <curand.h>
#include <cstdio>
#include <cstdlib>
#include <random>
#include "probe_xorwow_model.hpp"
double hq(unsigned x, unsigned y) { unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << 21); return z * 0x1p-53 + 0x1p-54; }
int main(int argc, char** argv) {
  std::mt19937_64 rng(atoi(argv[1])); int trials = atoi(argv[2]);
  long bad = 0, tot = 0;
  for (int tr = 0; tr < trials; ++tr) {
    unsigned long long seed = rng() % 3 == 0 ? rng() : rng() % 100; XW xw(seed);
    curandGenerator_t g; curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_XORWOW); curandSetPseudoRandomGeneratorSeed(g, seed);
    unsigned long long P = rng() % 100000; curandSetGeneratorOffset(g, P);
    std::vector<long long> shift(4096, 0);
    for (int c = 0; c < 6; ++c) {
      int t = rng() % 5; size_t n = rng() % 3 == 0 ? rng() % 30000 + 1 : rng() % 100 + 1;
      if (t >= 3) n = (n + 1) & ~size_t(1);
      if (rng() % 6 == 0) { P = rng() % 100000; curandSetGeneratorOffset(g, P); std::fill(shift.begin(), shift.end(), 0); }
      std::vector<unsigned> u(n); std::vector<double> d(n); std::vector<float> f(n);
      int st = 0;
      if (t == 0) st = curandGenerate(g, u.data(), n);
      if (t == 1) st = curandGenerateUniform(g, f.data(), n);
      if (t == 2) st = curandGenerateUniformDouble(g, d.data(), n);
      if (t == 3) st = curandGenerateNormal(g, f.data(), n, 0, 1);
      if (t == 4) st = curandGenerateNormalDouble(g, d.data(), n, 0, 1);
      if (st) printf("status %d\n", st);
      int w = t == 2 || t == 3 ? 2 : t == 4 ? 4 : 1; int e = t >= 3 ? 2 : 1;
      long cb = 0;
      for (size_t m = 0; m < n; m += (n > 300 ? n / 150 : 1)) {
        ++tot;
        unsigned long long s = P + m / e, k = s % 4096, j = s / 4096;
        unsigned long long jf = (P + ((k + 4096 - P % 4096) % 4096)) / 4096;
        unsigned long long jj = jf + shift[k] + w * (j - jf);
        bool ok;
        if (t == 0) ok = xw.word(k, jj) == u[m];
        else if (t == 1) ok = (float)(xw.word(k, jj) * 0x1p-32f + 0x1p-33f) == f[m];
        else if (t == 2) ok = hq(xw.word(k, jj), xw.word(k, jj + 1)) == d[m];
        else if (t == 3) { double u1 = xw.word(k, jj) * 0x1p-32 + 0x1p-33, v = xw.word(k, jj + 1) * 0x1p-32 * 2 * M_PI + 0x1p-33 * 2 * M_PI; double z = (m % 2 == 0 ? std::sin(v) : std::cos(v)) * std::sqrt(-2 * std::log(u1)); ok = std::fabs(z - f[m]) < 1e-4 * (1 + std::fabs(z)); }
        else { double uu = hq(xw.word(k, jj), xw.word(k, jj + 1)), v = (((unsigned long long)xw.word(k, jj + 2) ^ ((unsigned long long)xw.word(k, jj + 3) << 21)) * 0x1p-52 + 0x1p-53) * M_PI; double z = (m % 2 == 0 ? std::sin(v) : std::cos(v)) * std::sqrt(-2 * std::log(uu)); ok = std::fabs(z - d[m]) < 1e-9 * (1 + std::fabs(z)); }
        if (!ok) ++cb;
      }
      if (cb) printf("trial %d call %d type %d P=%llu n=%zu bad %ld\n", tr, c, t, P, n, cb);
      bad += cb;
      unsigned long long slots = n / e;
      for (unsigned long long q = 0; q < slots; ++q) shift[(P + q) % 4096] += w - 1;
      P += slots;
    }
    curandDestroyGenerator(g);
  }
  printf("bad %ld of %ld\n", bad, tot);
}
