// NVIDIA's cuRAND host-API samples (CUDALibrarySamples cuRAND/Host, samples/cuda/, verbatim) as a
// user ports them: tools/port-cuda.sh at build time, the host stand-in for the CUDA runtime
// (tests/porting/cuda_runtime/cuda_runtime.h), compiled as C++17 (tests/trnrand/CMakeLists.txt). Each sample prints
// its run_on_host vector (trnrandCreateGeneratorHost), then its run_on_device vector
// (trnrandCreateGenerator, the emulated engines). Checked: the host vector is what libcurand's host
// generator gives for the same calls (data/curand_host_samples.txt; bounds of
// curand_replay.hpp expect_as_libcurand_sample), the device vector is the host vector bit for bit.
// The eight scrambled-Sobol samples stop at their first call with TYPE_ERROR (docs/trnrand.md 7:
// NVIDIA does not publish the scramble constants), as a thrown "trnrand error" of the sample's
// own check macro.
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "curand_replay.hpp"
#include "data/curand_host_samples_table.h"
#include "trnrand.h"
#include "trnrand_utils.h"

#define SAMPLE(s) int trnrand_sample_##s(int argc, char* argv[]);
#include "ported_samples.inc"
#undef SAMPLE

namespace {

struct PortedSample {
  const char* name;
  int (*main)(int, char**);
};

const std::vector<PortedSample>& ported_samples() {
  static const std::vector<PortedSample> v = {
#define SAMPLE(s) {#s, &trnrand_sample_##s},
#include "ported_samples.inc"
#undef SAMPLE
  };
  return v;
}

const curand_host_sample* table_entry(const std::string& name) {
  for (const auto& s : kCurandHostSamples)
    if (name == s.name) return &s;
  return nullptr;
}

}  // namespace

TEST(TrnrandPortedSamples, AllThirtySixCompileAndRunAsLibcurand) {
  const auto expected = trnrand_test::curand_host_sample_outputs();
  ASSERT_EQ(ported_samples().size(), 36u);
  int ran = 0, scrambled = 0;
  for (const auto& p : ported_samples()) {
    printed_vectors().clear();
    failed_status() = 0;
    char arg0[] = "sample";
    char* argv[] = {arg0, nullptr};
    int rc = -1;
    bool threw = false;
    try {
      rc = p.main(1, argv);
    } catch (const std::runtime_error&) {
      threw = true;
    }
    const std::string name = p.name;
    if (name.rfind("scrambled_", 0) == 0) {
      EXPECT_TRUE(threw) << name;
      EXPECT_EQ(failed_status(), TRNRAND_STATUS_TYPE_ERROR) << name;
      EXPECT_TRUE(printed_vectors().empty()) << name;
      ++scrambled;
      continue;
    }
    ASSERT_FALSE(threw) << name << " failed with status " << failed_status();
    EXPECT_EQ(rc, EXIT_SUCCESS) << name;
    const curand_host_sample* s = table_entry(name);
    ASSERT_NE(s, nullptr) << name;
    ASSERT_EQ(printed_vectors().size(), 2u) << name;
    const auto& host = printed_vectors()[0];
    const auto& device = printed_vectors()[1];
    ASSERT_EQ(host.size(), static_cast<std::size_t>(s->n)) << name;
    trnrand_test::expect_as_libcurand_sample(*s, host, expected.at(name), "host");
    EXPECT_EQ(device, host) << name << ": the engine generator's vector differs from the host generator's";
    ++ran;
  }
  EXPECT_EQ(ran, 28);
  EXPECT_EQ(scrambled, 8);
}
