// The trnfft fuzz target (fuzz_trnfft.cpp), shared by the libFuzzer build (tests/fuzz) and the ctest
// that replays the checked-in corpus (tests/trnfft/test_trnfft_fuzz.cpp).
#pragma once
#include <cstddef>
#include <cstdint>

// What the inputs run so far reached (for the replay test's coverage assertions).
struct trnfft_fuzz_stats {
  long plan_ok = 0, plan_rejected = 0, exec_ok = 0, exec_rejected = 0, dft_checked = 0;
};

// Runs one input; returns nullptr, or the description of the invariant it broke.
extern "C" const char* trnfft_fuzz_one(const std::uint8_t* data, std::size_t size);
trnfft_fuzz_stats trnfft_fuzz_counters();
