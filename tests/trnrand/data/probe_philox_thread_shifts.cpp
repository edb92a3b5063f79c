// One-off probe (NOT built by CMake; needs libcurand and Random123 headers): checks the model of
// cuRAND's host PHILOX4_32_10 ordering with per-thread counter shifts (docs/trnrand.md section 2)
// against libcurand for random sequences of u32 and uniform-double calls with random offsets.
//   g++ -std=c++17 -O2 -I/usr/local/cuda/include tests/trnrand/data/probe_philox_thread_shifts.cpp
//       -L/usr/local/cuda/lib64 -lcurand -Wl,-rpath,/usr/local/cuda/lib64 -o /tmp/probe && /tmp/probe 1 300
// prints "bad 0 of N" when the model holds (it did for seeds 1, 2, 3 x 300 sequences on cuRAND 10.4).
// check model M2 (per-thread counters; doubles advance 2 counters per q whose r=3 is in the call) against cuRAND
#include <curand.h>
#include <Random123/philox.h>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
typedef r123::Philox4x32 P;
unsigned long long seed;
P::ctr_type blk(unsigned long long i, unsigned t) { P ph; P::key_type k = {{(unsigned)seed, (unsigned)(seed >> 32)}}; P::ctr_type c = {{(unsigned)i, (unsigned)(i >> 32), t, 0}}; return ph(c, k); }
double hq(unsigned x, unsigned y) { unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << 21); return z * 0x1p-53 + 0x1p-54; }
int main(int argc, char** argv) {
  std::mt19937_64 rng(atoi(argv[1]));
  int trials = atoi(argv[2]);
  long bad = 0, tot = 0;
  for (int tr = 0; tr < trials; ++tr) {
    seed = rng();
    unsigned long long O = rng() % 3000000;
    curandGenerator_t g; curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10);
    curandSetPseudoRandomGeneratorSeed(g, seed); curandSetGeneratorOffset(g, O);
    std::vector<long long> shift(65536, 0);
    for (int c = 0; c < 6; ++c) {
      bool dbl = rng() % 2;
      size_t n = (rng() % 3 == 0) ? rng() % 700000 + 1 : rng() % 300 + 1;
      if (rng() % 8 == 0) { O = rng() % 3000000; curandSetGeneratorOffset(g, O); std::fill(shift.begin(), shift.end(), 0); }
      std::vector<unsigned> u(n); std::vector<double> d(n);
      if (dbl) curandGenerateUniformDouble(g, d.data(), n); else curandGenerate(g, u.data(), n);
      long cbad = 0;
      unsigned long long q0 = O / 4;
      for (size_t k = 0; k < n; k += (n > 5000 ? 37 : 1)) {
        unsigned long long p = O + k, q = p / 4, row = q / 65536; unsigned t = q % 65536, r = p % 4;
        if (!dbl) { auto b = blk(row + shift[t], t); if (b.v[r] != u[k]) ++cbad; }
        else {
          unsigned long long qf = q0 + ((t + 65536 - q0 % 65536) % 65536); unsigned long long ifirst = qf / 65536;
          auto b = blk(ifirst + shift[t] + 2 * (row - ifirst) + r / 2, t);
          double v = hq(b.v[2 * (r % 2)], b.v[2 * (r % 2) + 1]);
          if (v != d[k]) ++cbad;
        }
        ++tot;
      }
      if (cbad) printf("trial %d call %d %s O=%llu n=%zu: %ld bad\n", tr, c, dbl ? "dbl" : "u32", O, n, cbad);
      bad += cbad;
      if (dbl) for (unsigned long long q = O / 4; 4 * q + 3 < O + n; ++q) if (4 * q + 3 >= O) shift[q % 65536]++;
      O += n;
    }
    curandDestroyGenerator(g);
  }
  printf("bad %ld of %ld\n", bad, tot);
}
