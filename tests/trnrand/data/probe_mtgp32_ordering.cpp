// One-off probe (NOT built by CMake; needs libcurand and the CUDA headers) of cuRAND's host MTGP32
// layout (docs/trnrand.md section 13). It steps each of the 200 MTGP blocks on its own (the
// recursion of curand_mtgp32_kernel.h, seeded as curandMakeMTGP32KernelState does: block b with
// lo32(seed ^ seed >> 32) + b + 1), finds every word of libcurand's output in them, and prints the
// runs: "run [p, q) bB kK..L" = output words p .. q - 1 are words K .. L of block B. What it shows
// (cuRAND 10.4, seed 1234, n = 200000): with ORDERING_PSEUDO_DEFAULT or BEST, runs of 256 words
// from blocks 0, 1, ..., 191, then words 256 .. 511 of blocks 0 .. 191, ...: 192 blocks; with
// LEGACY (argument 103) the same with 64 blocks. (Isolated one-word "runs" are values that occur
// twice among the 800000 words tried.) Changing the ordering restarts at word 0, the same one
// changes nothing; SetGeneratorOffset is TYPE_ERROR; the default seed is 0.
//   g++ -std=c++17 -O2 -I/usr/local/cuda/include tests/trnrand/data/probe_mtgp32_ordering.cpp
//       -L/usr/local/cuda/lib64 -lcurand -Wl,-rpath,/usr/local/cuda/lib64 -o /tmp/probe && /tmp/probe 101
#include <curand.h>
#include <curand_mtgp32_host.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>
#include <vector>

namespace {
struct Block {
  std::vector<std::uint32_t> x;
  const mtgp32_params_fast_t* p;
  std::size_t i = 0;
  Block(const mtgp32_params_fast_t* params, std::uint32_t seed) : x(351), p(params) { mtgp32_init_state(x.data(), p, seed); }
  std::uint32_t next() {
    std::uint32_t X = (x[i] & p->mask) ^ x[i + 1], Y = x[i + p->pos];
    X ^= X << p->sh1;
    Y = X ^ (Y >> p->sh2);
    Y ^= p->tbl[Y & 15];
    x.push_back(Y);
    std::uint32_t T = x[i + p->pos - 1];
    T ^= T >> 16;
    T ^= T >> 8;
    ++i;
    return Y ^ p->tmp_tbl[T & 15];
  }
};
}  // namespace

int main(int argc, char** argv) {
  const int ordering = argc > 1 ? std::atoi(argv[1]) : 101;
  const unsigned long long seed = 1234;
  const std::size_t n = 200000;
  curandGenerator_t g;
  curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_MTGP32);
  curandSetPseudoRandomGeneratorSeed(g, seed);
  std::printf("ordering %d: status %d\n", ordering, curandSetGeneratorOrdering(g, static_cast<curandOrdering_t>(ordering)));
  std::vector<unsigned int> out(n);
  curandGenerate(g, out.data(), n);
  std::unordered_map<std::uint32_t, std::pair<int, int>> where;
  const auto s = static_cast<std::uint32_t>(seed ^ (seed >> 32));
  for (int b = 0; b < 200; ++b) {
    Block blk(&mtgp32dc_params_fast_11213[b], s + static_cast<std::uint32_t>(b) + 1);
    for (int k = 0; k < 4096; ++k) where[blk.next()] = {b, k};
  }
  int pb = -2, pk = -2;
  std::size_t start = 0;
  for (std::size_t j = 0; j <= n; ++j) {
    int b = -1, k = -1;
    if (j < n) {
      const auto it = where.find(out[j]);
      if (it != where.end()) b = it->second.first, k = it->second.second;
    }
    if (!(b == pb && k == pk + 1)) {
      if (j > 0) std::printf("run [%zu,%zu) b%d k%d..%d\n", start, j, pb, pk - static_cast<int>(j - start) + 1, pk);
      start = j;
    }
    pb = b;
    pk = k;
  }
  std::printf("offset status %d\n", curandSetGeneratorOffset(g, 100));
  curandDestroyGenerator(g);
}
