// OpenBLAS's runtime CPU detection (Debian 0.3.21, DYNAMIC_ARCH) does not know every recent Xeon and
// falls back to its Prescott (SSE3) kernels, which would make every "ours / OpenBLAS" ratio look
// several times better than it is. The benchmarks therefore re-execute themselves with
// OPENBLAS_CORETYPE set to the kernel family the CPU supports, unless the caller chose one.
#pragma once
#include <cblas.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace trnsci::bench {

// OpenBLAS's DYNAMIC_ARCH picks its kernels from the CPU model; on a model it does not know (this
// project's VMs report "Intel(R) Xeon(R) Processor") it falls back to Prescott, an SSE3 kernel
// several times slower than its AVX-512 one, which would make every ratio flattering. The core
// type is read when OpenBLAS loads, so the benchmark re-executes itself with OPENBLAS_CORETYPE set
// to the kernel family the CPU supports, unless the caller chose one.
inline void use_native_openblas_kernels(char** argv) {
  bool reexec = false;
  // OpenBLAS's idle worker threads spin for 2^28 cycles (~0.1 s) after a threaded call, taking a
  // core from the emulator call that follows in a paired run; 2^4 cycles lets them sleep at once.
  if (std::getenv("OPENBLAS_THREAD_TIMEOUT") == nullptr) {
    setenv("OPENBLAS_THREAD_TIMEOUT", "4", 1);
    reexec = true;
  }
  const std::string core = openblas_get_corename();
  const char* want = nullptr;
  if (const char* chosen = std::getenv("OPENBLAS_CORETYPE"); chosen != nullptr) {
    // The caller's choice stands, but a family narrower than the CPU's flatters every ratio: say so.
    const std::string c = chosen;
    if (__builtin_cpu_supports("avx512f") && c != "SkylakeX" && c != "Cooperlake" && c != "SapphireRapids")
      std::fprintf(stderr, "benchmark: WARNING: OPENBLAS_CORETYPE=%s is set on an AVX-512 CPU; OpenBLAS runs below its "
                           "best kernels (SkylakeX) and every ratio below flatters trnsci. Unset it for honest ratios.\n",
                   chosen);
  } else if (__builtin_cpu_supports("avx512f")) {
    if (core != "SkylakeX" && core != "Cooperlake" && core != "SapphireRapids") want = "SkylakeX";
  } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    if (core == "Prescott" || core == "Core2" || core == "Penryn" || core == "Nehalem" || core == "Sandybridge")
      want = "Haswell";
  }
  if (want != nullptr) {
    std::fprintf(stderr, "benchmark: OpenBLAS chose its %s kernels on a CPU with %s; re-running with OPENBLAS_CORETYPE=%s\n",
                 core.c_str(), __builtin_cpu_supports("avx512f") ? "AVX-512" : "AVX2", want);
    setenv("OPENBLAS_CORETYPE", want, 1);
    reexec = true;
  }
  if (!reexec) return;
  execv("/proc/self/exe", argv);
  std::fprintf(stderr, "benchmark: re-execution failed; OpenBLAS ratios below are against %s kernels\n", core.c_str());
}

}  // namespace trnsci::bench
