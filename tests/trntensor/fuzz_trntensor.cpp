// libFuzzer harness (clang++ -fsanitize=fuzzer,address; see tests/trntensor/CMakeLists.txt,
// TRNTENSOR_FUZZER=ON): the einsum parser / planner / executor and the descriptor pipeline.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int trntensor_fuzz_one(const std::uint8_t* data, std::size_t size);

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (trntensor_fuzz_one(data, size) == 1) std::abort();  // a failed call wrote its output
  return 0;
}
