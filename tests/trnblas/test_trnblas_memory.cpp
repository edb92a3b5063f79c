// Resources (#11): when the host cannot give the emulator memory, a C entry point returns
// TRNBLAS_STATUS_ALLOC_FAILED, logs it, leaves its output untouched and stays usable — it never
// crashes, aborts or hangs. The address space is capped with RLIMIT_AS in a forked child (a gtest
// death-test style EXPECT_EXIT), so the cap cannot disturb other tests; the child reports what it
// saw through its exit code.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "trnblas.h"

namespace {

// A sanitizer build reserves terabytes of shadow address space: an address-space cap cannot work
// there (ASan documents RLIMIT_AS as unsupported), so that build reports the case as skipped.
bool sanitizer_build() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return true;
#else
  return std::getenv("TRNSCI_SANITIZER_BUILD") != nullptr;
#endif
}

// Address space now in use (VmSize), from /proc/self/statm (pages).
std::uint64_t address_space_bytes() {
  unsigned long long pages = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%llu", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  return pages * 4096ull;
}

// Child: cap the address space a little above what is in use, then ask for work whose emulated
// NeuronCore (24 MiB of SBUF on trn1 alone) cannot fit. Exit codes: 0 = ALLOC_FAILED with C
// untouched and the handle usable afterwards; 10 + status otherwise; 2 = C was written; 3 = the
// handle failed after the cap was lifted.
[[noreturn]] void gemm_under_a_cap() {
  trnblasHandle_t h = nullptr;
  if (trnblasCreate(&h) != TRNBLAS_STATUS_SUCCESS) std::_Exit(9);
  const int n = 64;
  std::vector<float> A(n * n, 1.0f), B(n * n, 1.0f), C(n * n, 7.0f);
  const float one = 1.0f, zero = 0.0f;
  rlimit old{};
  getrlimit(RLIMIT_AS, &old);
  rlimit cap = old;
  cap.rlim_cur = address_space_bytes() + (8u << 20);
  if (setrlimit(RLIMIT_AS, &cap) != 0) std::_Exit(8);
  const trnblasStatus_t st = trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, A.data(), n, B.data(), n, &zero,
                                          C.data(), n);
  setrlimit(RLIMIT_AS, &old);
  if (st != TRNBLAS_STATUS_ALLOC_FAILED) std::_Exit(10 + static_cast<int>(st));
  for (float c : C)
    if (c != 7.0f) std::_Exit(2);
  // With the cap lifted the same handle works again and gets the exact answer (sums of 64 ones).
  if (trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, A.data(), n, B.data(), n, &zero, C.data(), n) !=
          TRNBLAS_STATUS_SUCCESS ||
      C[0] != 64.0f)
    std::_Exit(3);
  trnblasDestroy(h);
  std::_Exit(0);
}

TEST(TrnblasMemoryDeathTest, AllocationFailureIsAStatusAndWritesNothing) {
  if (sanitizer_build()) GTEST_SKIP() << "RLIMIT_AS cannot cap a sanitizer build's address space";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(gemm_under_a_cap(), ::testing::ExitedWithCode(0), "");
}

}  // namespace
