// A grammar over the fuzzer's bytes for C API arguments: sizes that are mostly small but sometimes
// negative, zero or near INT32_MAX / INT64_MAX; enum values that are mostly valid but sometimes any
// int; pointers that are sometimes NULL. Shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.cpp),
// with the layout they share (below).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace trnfuzz {

class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : p_(data), n_(size) {}
  bool empty() const { return n_ == 0; }

  std::uint8_t byte() {
    if (n_ == 0) return 0;
    --n_;
    return *p_++;
  }
  std::uint32_t u32() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = v << 8 | byte();
    return v;
  }
  std::uint64_t u64() { return std::uint64_t{u32()} << 32 | u32(); }
  bool flag(int one_in = 2) { return byte() % one_in == 0; }

  // A size: [0, small] mostly; negative, huge or a boundary value sometimes.
  std::int64_t size(std::int64_t small, bool wide) {
    const std::uint8_t sel = byte();
    if (sel < 200) return byte() % (small + 1);
    switch (sel % 8) {
      case 0: return -1;
      case 1: return -static_cast<std::int64_t>(byte()) - 2;
      case 2: return std::numeric_limits<std::int32_t>::max();
      case 3: return wide ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int32_t>::min();
      case 4: return wide ? (std::int64_t{1} << 40) : 65536;
      case 5: return wide ? std::numeric_limits<std::int64_t>::max() / 2 : std::numeric_limits<std::int32_t>::max() / 2;
      case 6: return 0;
      default: return byte() % (small + 1);
    }
  }
  // An enum argument: one of the valid values mostly, any int sometimes.
  int choice(std::initializer_list<int> valid) {
    const std::uint8_t sel = byte();
    if (sel < 230) return valid.begin()[sel % valid.size()];
    return static_cast<int>(u32());
  }
  // A finite value for the matrices: small integers and dyadic fractions (exact in every input
  // format), a random float sometimes, a non-finite value rarely.
  float value() {
    const std::uint8_t sel = byte();
    if (sel < 200) return static_cast<float>(static_cast<int>(byte() % 17) - 8) / static_cast<float>(1 << (sel % 4));
    if (sel < 250) {
      const std::uint32_t b = u32();
      float f;
      std::memcpy(&f, &b, sizeof f);
      return f == f && f - f == 0.0f ? f : 1.0f;
    }
    return sel % 2 ? std::numeric_limits<float>::infinity() : std::numeric_limits<float>::quiet_NaN();
  }

 private:
  const std::uint8_t* p_;
  std::size_t n_;
};

// ---- the harness layout ---------------------------------------------------------------------------
// Every harness is tests/fuzz/fuzz_<library>.cpp: one LLVMFuzzerTestOneInput over the library's C API
// with this grammar, require() for its invariants, reach() for what an input got to, and floors():
// how often the replay (fuzz_replay.cpp, the ctest fuzz_replay_<library>) must reach each. The same
// file builds as the libFuzzer target fuzz_<library> (tools/fuzz.sh) and into the replay ctest.

// An invariant of the harness: on violation prints it and aborts (libFuzzer keeps the input as a
// crash-* reproducer; the replay test fails).
inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz invariant violated: %s\n", what);
    std::abort();
  }
}

// Counts of what the inputs reached, by name (plan made, call rejected, result checked, ...).
inline std::map<std::string, long>& reached() {
  static std::map<std::string, long> counts;
  return counts;
}
inline void reach(const char* what, bool yes = true) {
  if (yes) ++reached()[what];
}

// The least count of `what` a replay must reach, or the replay tests only the argument checks.
struct Floor {
  const char* what;
  long at_least;
};
std::vector<Floor> floors();  // defined by each harness

}  // namespace trnfuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
