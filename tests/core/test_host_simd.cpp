// The core's host SIMD probe against the kernel's own report of the CPU (/proc/cpuinfo flags):
// where the machine has AVX-512, the AVX-512 paths must be the ones that run (CI fails otherwise,
// instead of silently testing the portable path only); where it lacks them, the log says so.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "trn/core/core.hpp"

namespace {

std::set<std::string> cpu_flags() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("flags", 0) == 0) {
      std::set<std::string> flags;
      std::istringstream ss(line.substr(line.find(':') + 1));
      for (std::string w; ss >> w;) flags.insert(w);
      return flags;
    }
  return {};
}

TEST(HostSimd, WidestPathTheCpuHasIsTheOneInUse) {
  const auto flags = cpu_flags();
  if (flags.empty()) GTEST_SKIP() << "no /proc/cpuinfo flags to compare with";
  if (std::getenv("TRN_HOST_SIMD") != nullptr) GTEST_SKIP() << "TRN_HOST_SIMD caps the level on purpose";
  const bool avx512 = flags.count("avx512f") && flags.count("avx512bw") && flags.count("avx512vl");
  const bool avx2 = flags.count("avx2") && flags.count("fma");
  EXPECT_EQ(trn::host_simd_available(trn::HostSimd::avx512), avx512);
  EXPECT_EQ(trn::host_simd_available(trn::HostSimd::avx2), avx2);
  EXPECT_TRUE(trn::host_simd_available(trn::HostSimd::portable));
  const trn::HostSimd expected = avx512 ? trn::HostSimd::avx512 : avx2 ? trn::HostSimd::avx2 : trn::HostSimd::portable;
  EXPECT_EQ(trn::host_simd(), expected);
  EXPECT_EQ(trn::matmul_isa_available(trn::MatmulIsa::avx512), avx512);
  std::printf("host SIMD path in use: %s%s\n", std::string(trn::host_simd_name(trn::host_simd())).c_str(),
              avx512 ? "" : " (this CPU lacks AVX-512: its vectorised paths are not exercised here)");
}

}  // namespace
