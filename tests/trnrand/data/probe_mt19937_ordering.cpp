// One-off probe (NOT built by CMake; needs libcurand) of cuRAND's host MT19937 ordering
// (docs/trnrand.md section 12). What it shows, for seed 1234 (cuRAND 10.4):
//  1. Stream 0 is std::mt19937(lo32(seed)): output word r 65536 + c (c < 8) is word
//     624 (r div 78) + q(r mod 78, c) of it; the probe prints q for every row of the first block
//     (row 0: 0 113 170 283 340 397 510 567; rows 1 + 7g .. 7 + 7g: the next 56 positions,
//     column-major) and counts mismatches of the rule over the first two blocks ("bad 0").
//  2. Stream t (words 8t .. 8t + 7 of every row) is not an init_genrand stream: the probe
//     untempers stream 1's first block, undoes the twist, and finds the init_genrand recurrence
//     false (0 of 392), true for stream 0 (392 of 392). That stream t is the same sequence
//     advanced by t 2^2048 was found by testing x^(2^k) mod phi for k = 1 .. 21000 against
//     stream 1 (k = 2048) and stream 2 (k = 2049); it is checked for all 8192 streams by
//     test_trnrand_mt19937 against the stored reference (its 2^22 + 2^21 chain).
//   g++ -std=c++17 -O2 -I/usr/local/cuda/include tests/trnrand/data/probe_mt19937_ordering.cpp
//       -L/usr/local/cuda/lib64 -lcurand -Wl,-rpath,/usr/local/cuda/lib64 -o /tmp/probe && /tmp/probe
#include <curand.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <unordered_map>
#include <vector>

namespace {
const int kRow0[8] = {0, 113, 170, 283, 340, 397, 510, 567};
int block_position(int r, int c) {
  if (r == 0) return kRow0[c];
  const int e = 56 * ((r - 1) / 7) + (r - 1) % 7 + 7 * c;  // index among the other 616 positions
  int seen = -1;
  for (int q = 0; q < 624; ++q) {
    bool in_row0 = false;
    for (int k : kRow0) in_row0 |= k == q;
    if (!in_row0 && ++seen == e) return q;
  }
  return -1;
}
std::uint32_t untemper(std::uint32_t y) {
  y ^= y >> 18;
  y ^= (y << 15) & 0xefc60000u;
  std::uint32_t x = y;
  for (int i = 0; i < 5; ++i) x = y ^ ((x << 7) & 0x9d2c5680u);
  y = x;
  for (int i = 0; i < 3; ++i) x = y ^ (x >> 11);
  return x;
}
}  // namespace

int main() {
  curandGenerator_t g;
  curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_MT19937);
  curandSetPseudoRandomGeneratorSeed(g, 1234);
  const std::size_t n = 2 * 78 * 65536;
  std::vector<unsigned> w(n);
  curandGenerate(g, w.data(), n);
  std::mt19937 m(1234u);
  std::vector<std::uint32_t> s(2 * 624);
  for (auto& v : s) v = m();
  std::unordered_map<std::uint32_t, int> where;
  for (int i = 0; i < 624; ++i) where[s[static_cast<std::size_t>(i)]] = i;
  for (int r = 0; r < 78; ++r) {
    std::printf("row %2d:", r);
    for (int c = 0; c < 8; ++c) std::printf(" %3d", where.count(w[r * 65536 + c]) ? where[w[r * 65536 + c]] : -1);
    std::printf("\n");
  }
  int bad = 0;
  for (int r = 0; r < 2 * 78; ++r)
    for (int c = 0; c < 8; ++c) bad += w[static_cast<std::size_t>(r) * 65536 + c] != s[624 * (r / 78) + block_position(r % 78, c)];
  std::printf("bad %d\n", bad);
  for (int t : {0, 1}) {
    std::vector<std::uint32_t> x(1248, 0);
    for (int r = 0; r < 78; ++r)
      for (int c = 0; c < 8; ++c) x[624 + block_position(r, c)] = untemper(w[r * 65536 + 8 * t + c]);
    for (int k = 227; k < 623; ++k) {  // undo x[k+624] = x[k+397] ^ twist(x[k], x[k+1]) for k >= 227
      const std::uint32_t y = x[k + 624] ^ x[k + 397];
      const bool odd = y >> 31;
      const std::uint32_t tmp = (y ^ (odd ? 0x9908b0dfu : 0u)) << 1;
      x[k] = (x[k] & 0x7fffffffu) | (tmp & 0x80000000u);
      x[k + 1] = (tmp & 0x7ffffffeu) | (odd ? 1u : 0u) | (x[k + 1] & 0x80000000u);
    }
    int ok = 0;
    for (int i = 230; i < 622; ++i) ok += x[i] == 1812433253u * (x[i - 1] ^ (x[i - 1] >> 30)) + static_cast<std::uint32_t>(i);
    std::printf("stream %d: init_genrand recurrence holds for %d of 392 words\n", t, ok);
  }
  curandDestroyGenerator(g);
}
