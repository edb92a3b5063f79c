// trnrand's vectorised host path against Random123's own r123::Philox4x32 in the same process, one
// host thread: uint32 words and float uniforms (cuRAND's x 2^-32 + 2^-33), 2^22 values (16 MiB)
// per iteration. The Random123 side is the straightforward loop: one Philox4x32 call per block of
// four words, counter incremented, compiled with -O3 -march=native as a user compiles the
// header-only library (random123_native.cpp). Prints GB/s, the ratio (target >= 2x for the vectorised path),
// the emulator's own speed on the engine path, and the modeled trn1 / trn2 device time of the
// engine kernel for the same 2^22 values and for 2^24 (cost model, one NeuronCore, timing-only).
// Also the XORWOW, MRG32K3A and MT19937 host generators against plain single-stream loops of their
// recurrences (Marsaglia's xorwow, L'Ecuyer's Figure 1, std::mt19937).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "trn/core/cost_model.hpp"
#include "trn/rand/generator.hpp"
#include "trn/rand/host.hpp"
#include "trn/rand/kernels.hpp"
#include "trn/rand/mrg32k3a.hpp"
#include "trn/rand/mt19937.hpp"
#include "trn/rand/xorwow.hpp"
#include "trn/rand/transforms.hpp"
#include "random123_native.hpp"

namespace {

constexpr std::size_t kCount = std::size_t{1} << 22;
constexpr std::uint64_t kSeed = 0x123456789abcdefull;

void set_bytes(benchmark::State& st, std::size_t bytes_per_iteration) {
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(bytes_per_iteration));
}

const trn::rand::HostIsa kIsas[] = {trn::rand::HostIsa::portable, trn::rand::HostIsa::avx2, trn::rand::HostIsa::avx512};

void BM_Trnrand_HostUint32(benchmark::State& st) {
  const auto isa = kIsas[st.range(0)];
  if (!trn::rand::host_isa_available(isa)) return st.SkipWithError("ISA not available");
  std::vector<std::uint32_t> out(kCount);
  std::uint64_t offset = 0;
  for (auto _ : st) {
    trn::rand::fill_stream_words({kSeed, trn::rand::WordOrder::host32, 0}, offset, out, isa);
    offset += kCount;
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  st.SetLabel(std::string(trn::rand::host_isa_name(isa)));
  set_bytes(st, kCount * 4);
}

void BM_Trnrand_HostUniform(benchmark::State& st) {
  const auto isa = kIsas[st.range(0)];
  if (!trn::rand::host_isa_available(isa)) return st.SkipWithError("ISA not available");
  std::vector<float> out(kCount);
  std::uint64_t offset = 0;
  for (auto _ : st) {
    trn::rand::fill_uniform(kSeed, offset, out, isa);
    offset += kCount;
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  st.SetLabel(std::string(trn::rand::host_isa_name(isa)));
  set_bytes(st, kCount * 4);
}

// Random123: the sequential stream of one key, block b = counter (b, 0, 0, 0), built as a user
// builds it (random123_native.cpp, -O3 -march=native).
void BM_Random123_Uint32(benchmark::State& st) {
  std::vector<std::uint32_t> out(kCount);
  std::uint64_t block = 0;
  for (auto _ : st) {
    bench_trnrand::random123_words(out.data(), kCount, kSeed, block);
    block += kCount / 4;
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  st.SetLabel(bench_trnrand::kRandom123Flags);
  set_bytes(st, kCount * 4);
}

void BM_Random123_Uniform(benchmark::State& st) {
  std::vector<float> out(kCount);
  std::uint64_t block = 0;
  for (auto _ : st) {
    bench_trnrand::random123_uniforms(out.data(), kCount, kSeed, block);
    block += kCount / 4;
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  st.SetLabel(bench_trnrand::kRandom123Flags);
  set_bytes(st, kCount * 4);
}

// The same with the counter computed from the block index: no carry chain, so GCC vectorises it
// (the faster of the two user loops is the honest baseline).
void BM_Random123_Uint32Indexed(benchmark::State& st) {
  std::vector<std::uint32_t> out(kCount);
  std::uint64_t block = 0;
  for (auto _ : st) {
    bench_trnrand::random123_words_indexed(out.data(), kCount, kSeed, block);
    block += kCount / 4;
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  st.SetLabel(std::string(bench_trnrand::kRandom123Flags) + ", indexed counter");
  set_bytes(st, kCount * 4);
}

void BM_Random123_UniformIndexed(benchmark::State& st) {
  std::vector<float> out(kCount);
  std::uint64_t block = 0;
  for (auto _ : st) {
    bench_trnrand::random123_uniforms_indexed(out.data(), kCount, kSeed, block);
    block += kCount / 4;
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  st.SetLabel(std::string(bench_trnrand::kRandom123Flags) + ", indexed counter");
  set_bytes(st, kCount * 4);
}

// The emulator running the engine kernel (GpSimd custom operator + VectorE), for its own speed.
void BM_Trnrand_EnginesUniform(benchmark::State& st) {
  trn::rand::GeneratorOptions o;
  o.path = trn::rand::GeneratorPath::engines;
  o.engines.host_threads = 1;
  trn::rand::Generator g(o);
  std::vector<float> out(kCount);
  for (auto _ : st) {
    g.uniform(out);
    benchmark::DoNotOptimize(out.data());
  }
  set_bytes(st, kCount * 4);
}

// MRG32K3A (docs/trnrand.md 10): trnrand's host generator (cuRAND's 81920-thread ordering, chained
// calls) against the straightforward single-stream loop of L'Ecuyer (1999), Figure 1 (the recurrence
// in double arithmetic, as published), converted to cuRAND's 32-bit word.
// 2^22 u32 words per call from one of trnrand's stateful host generators (calls chained); `warm`:
// one untimed call first (MT19937's stream setup).
template <class G>
void host_generator_words(benchmark::State& st, bool warm = false) {
  G g;
  g.set_seed(kSeed);
  std::vector<std::uint32_t> out(kCount);
  if (warm) g.generate(out);
  for (auto _ : st) {
    g.generate(out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  set_bytes(st, kCount * 4);
}

void BM_Trnrand_Mrg32k3aHostUint32(benchmark::State& st) { host_generator_words<trn::rand::Mrg32k3aGenerator>(st); }

void BM_Reference_Mrg32k3aUint32(benchmark::State& st) {
  constexpr double m1 = 4294967087.0, m2 = 4294944443.0, a12 = 1403580.0, a13n = 810728.0, a21 = 527612.0,
                   a23n = 1370589.0, bits_norm = 1.000000048662;
  double s10 = 12345, s11 = 12345, s12 = 12345, s20 = 12345, s21 = 12345, s22 = 12345;
  std::vector<std::uint32_t> out(kCount);
  for (auto _ : st) {
    for (auto& w : out) {
      double p1 = a12 * s11 - a13n * s10;
      long k = static_cast<long>(p1 / m1);
      p1 -= static_cast<double>(k) * m1;
      if (p1 < 0.0) p1 += m1;
      s10 = s11, s11 = s12, s12 = p1;
      double p2 = a21 * s22 - a23n * s20;
      k = static_cast<long>(p2 / m2);
      p2 -= static_cast<double>(k) * m2;
      if (p2 < 0.0) p2 += m2;
      s20 = s21, s21 = s22, s22 = p2;
      const double r = p1 > p2 ? p1 - p2 : p1 - p2 + m1;
      w = static_cast<std::uint32_t>(r * bits_norm);  // MRG32K3A_BITS_NORM (CURAND: curand_kernel.h)
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  set_bytes(st, kCount * 4);
}

// XORWOW (docs/trnrand.md 8): the host generator (cuRAND's 4096-thread ordering) against the
// single-stream loop of Marsaglia (2003), section 3.1's xorwow.
void BM_Trnrand_XorwowHostUint32(benchmark::State& st) { host_generator_words<trn::rand::XorwowGenerator>(st); }

void BM_Reference_XorwowUint32(benchmark::State& st) {
  std::uint32_t x = 123456789, y = 362436069, z = 521288629, w = 88675123, v = 5783321, d = 6615241;
  std::vector<std::uint32_t> out(kCount);
  for (auto _ : st) {
    for (auto& o : out) {
      const std::uint32_t t = x ^ (x >> 2);
      x = y, y = z, z = w, w = v;
      v = (v ^ (v << 4)) ^ (t ^ (t << 1));
      d += 362437;
      o = v + d;
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  set_bytes(st, kCount * 4);
}

// MT19937 (docs/trnrand.md 12): the host generator after its first call (the 8192 streams' jump
// ahead set up once, outside the timing) against std::mt19937's single stream.
void BM_Trnrand_Mt19937HostUint32(benchmark::State& st) { host_generator_words<trn::rand::Mt19937Generator>(st, true); }

void BM_Reference_Mt19937Uint32(benchmark::State& st) {
  std::mt19937 r(static_cast<std::uint32_t>(kSeed));
  std::vector<std::uint32_t> out(kCount);
  for (auto _ : st) {
    for (auto& o : out) o = static_cast<std::uint32_t>(r());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  set_bytes(st, kCount * 4);
}

BENCHMARK(BM_Trnrand_Mrg32k3aHostUint32)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_Reference_Mrg32k3aUint32)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_Trnrand_XorwowHostUint32)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_Reference_XorwowUint32)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_Trnrand_Mt19937HostUint32)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_Reference_Mt19937Uint32)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_Trnrand_HostUint32)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_Random123_Uint32)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_Trnrand_HostUniform)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_Random123_Uniform)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_Random123_Uint32Indexed)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_Random123_UniformIndexed)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_Trnrand_EnginesUniform)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

// Collects bytes/s per run for the ratios.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> bytes_per_second;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs) {
      auto it = r.counters.find("bytes_per_second");
      if (it != r.counters.end()) bytes_per_second[r.benchmark_name()] = it->second;
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

// Modeled time of the engine kernel for n values of one kind on one NeuronCore (timing-only trace).
trn::Profile modeled(trn::rand::KernelKind kind, std::uint64_t n, trn::Generation target) {
  trn::rand::KernelParams p;
  p.kind = kind;
  p.domain_count = p.window_count = n;
  p.out = reinterpret_cast<void*>(std::uintptr_t{1} << 40);  // never dereferenced in a timing-only run
  trn::rand::EngineConfig cfg;
  cfg.target = target;
  cfg.timing_only = true;
  return trn::model_profile(trn::rand::run_generate_kernel(p, cfg).trace, target);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  RatioReporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);
  auto get = [&](const std::string& prefix) {  // names carry /min_time:... and /real_time suffixes
    for (const auto& [name, v] : rep.bytes_per_second)
      if (name.rfind(prefix, 0) == 0) return v;
    return 0.0;
  };
  std::printf("\nthroughput, 1 host thread, 2^22 values per call (GB/s = 1e9 bytes/s):\n");
  // The baseline is the faster of the two user loops (incremented or index-computed counter).
  const double r_u32 = std::max(get("BM_Random123_Uint32/"), get("BM_Random123_Uint32Indexed/"));
  const double r_uni = std::max(get("BM_Random123_Uniform/"), get("BM_Random123_UniformIndexed/"));
  std::printf("  Random123 loops: incremented counter %.2f / %.2f GB/s, index-computed counter %.2f / %.2f GB/s "
              "(uint32 / uniform); the faster is the baseline\n",
              get("BM_Random123_Uint32/") * 1e-9, get("BM_Random123_Uniform/") * 1e-9,
              get("BM_Random123_Uint32Indexed/") * 1e-9, get("BM_Random123_UniformIndexed/") * 1e-9);
  for (int i = 0; i < 3; ++i) {
    const double u = get("BM_Trnrand_HostUint32/" + std::to_string(i) + "/");
    const double f = get("BM_Trnrand_HostUniform/" + std::to_string(i) + "/");
    const auto name = trn::rand::host_isa_name(kIsas[i]);
    if (u > 0 && r_u32 > 0)
      std::printf("  uint32  %-8s %6.2f GB/s vs Random123 %5.2f GB/s = %5.2fx%s\n", std::string(name).c_str(), u * 1e-9,
                  r_u32 * 1e-9, u / r_u32, i == 2 ? " (target >= 2x)" : "");
    if (f > 0 && r_uni > 0)
      std::printf("  uniform %-8s %6.2f GB/s vs Random123 %5.2f GB/s = %5.2fx%s\n", std::string(name).c_str(), f * 1e-9,
                  r_uni * 1e-9, f / r_uni, i == 2 ? " (target >= 2x)" : "");
  }
  const double mrg = get("BM_Trnrand_Mrg32k3aHostUint32/"), mrg_ref = get("BM_Reference_Mrg32k3aUint32/");
  if (mrg > 0 && mrg_ref > 0)
    std::printf("  MRG32K3A uint32 host generator %5.2f GB/s vs the single-stream reference loop %5.2f GB/s = %5.2fx\n",
                mrg * 1e-9, mrg_ref * 1e-9, mrg / mrg_ref);
  const double e = get("BM_Trnrand_EnginesUniform/");
  if (e > 0) std::printf("  emulator running the engine kernel (uniform): %.2f GB/s\n", e * 1e-9);

  const std::pair<const char*, trn::rand::KernelKind> kinds[] = {{"uint32", trn::rand::KernelKind::words},
                                                                 {"uniform", trn::rand::KernelKind::uniform},
                                                                 {"normal", trn::rand::KernelKind::normal}};
  // The benchmark's count (2^22 per call) and 2^24.
  for (const std::uint64_t n : {std::uint64_t{kCount}, std::uint64_t{1} << 24}) {
    for (const auto target : {trn::Generation::trn1, trn::Generation::trn2}) {
      std::printf("\nmodeled %s device time of the engine kernel, 2^%d values, one NeuronCore (cost model):\n",
                  std::string(trn::hardware_spec(target).name).c_str(), n == kCount ? 22 : 24);
      for (const auto& [label, kind] : kinds) {
        const trn::Profile p = modeled(kind, n, target);
        std::printf(
            "  %-8s %7.3f ms = %6.2f GB/s to HBM; critical engine %s; busy GpSimd %.3f ms, VectorE %.3f ms, "
            "ScalarE %.3f ms, DMA %.3f ms\n",
            label, p.total_ns * 1e-6, p.dma_gbps(), std::string(trn::engine_name(p.critical_engine)).c_str(),
            p.busy_ns[static_cast<int>(trn::Engine::gpsimd)] * 1e-6,
            p.busy_ns[static_cast<int>(trn::Engine::vector)] * 1e-6,
            p.busy_ns[static_cast<int>(trn::Engine::scalar)] * 1e-6,
            p.busy_ns[static_cast<int>(trn::Engine::dma)] * 1e-6);
      }
    }
  }
  benchmark::Shutdown();
  return 0;
}
