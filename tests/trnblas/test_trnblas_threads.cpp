// trnblas under concurrency (issue: reliability): 8 host threads x 200 calls, each thread with its
// own handle, mixed precision modes and shapes, must give results bit-identical to a serial run;
// one handle shared by several threads (cuBLAS: "thread safe ... even with the same handle") must
// too; the logger callback and the library's global state (worker pool, operand caches, handle
// registry) are exercised from every thread at once. Runs under ThreadSanitizer with
// `bash tools/bootstrap.sh tsan`.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "trnblas.h"

namespace {

enum class Kind { sgemm, gemm_ex_bf16, gemm_ex_bf16x3, ssyrk, dgemm, invalid };

struct Call {
  Kind kind;
  int m, n, k;
  std::vector<float> a, b, c;
  std::vector<double> da, db, dc;
};

std::vector<Call> make_calls(int count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dim(1, 40), kind(0, 5);
  std::uniform_real_distribution<float> val(-1.0f, 1.0f);
  std::vector<Call> calls;
  for (int i = 0; i < count; ++i) {
    Call c{static_cast<Kind>(kind(rng)), dim(rng), dim(rng), dim(rng), {}, {}, {}, {}, {}, {}};
    if (c.kind == Kind::ssyrk) c.m = c.n;
    if (c.kind == Kind::dgemm) c.m = c.n = c.k = 8;  // Ozaki is many passes: keep it small
    c.a.resize(static_cast<std::size_t>(c.m) * c.k);
    c.b.resize(static_cast<std::size_t>(c.k) * c.n);
    c.c.resize(static_cast<std::size_t>(c.m) * c.n);
    for (auto* v : {&c.a, &c.b, &c.c})
      for (float& x : *v) x = val(rng);
    for (float x : c.a) c.da.push_back(x);
    for (float x : c.b) c.db.push_back(x);
    for (float x : c.c) c.dc.push_back(x);
    calls.push_back(std::move(c));
  }
  return calls;
}

std::atomic<int> g_log_lines{0};
void count_line(const char*) { g_log_lines.fetch_add(1, std::memory_order_relaxed); }

// Runs one call on h into fresh output buffers; returns the output bytes.
std::vector<std::uint8_t> run(trnblasHandle_t h, const Call& c) {
  const float one = 1.0f, half = 0.5f;
  const double done = 1.0, dhalf = 0.5;
  std::vector<float> out = c.c;
  std::vector<double> dout = c.dc;
  trnblasStatus_t st = TRNBLAS_STATUS_SUCCESS;
  switch (c.kind) {
    case Kind::sgemm:
      st = trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, c.m, c.n, c.k, &one, c.a.data(), c.m, c.b.data(), c.k, &half,
                        out.data(), c.m);
      break;
    case Kind::gemm_ex_bf16:
    case Kind::gemm_ex_bf16x3:
      st = trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, c.m, c.n, c.k, &one, c.a.data(), TRN_R_32F, c.m, c.b.data(),
                         TRN_R_32F, c.k, &half, out.data(), TRN_R_32F, c.m,
                         c.kind == Kind::gemm_ex_bf16 ? TRNBLAS_COMPUTE_32F_FAST_16BF : TRNBLAS_COMPUTE_32F_EMULATED_16BFX3,
                         TRNBLAS_GEMM_DEFAULT);
      break;
    case Kind::ssyrk:
      st = trnblasSsyrk(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, c.n, c.k, &one, c.a.data(), c.n, &half, out.data(), c.n);
      break;
    case Kind::dgemm:
      st = trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_T, c.m, c.n, c.k, &done, c.da.data(), c.m, c.db.data(), c.n, &dhalf,
                        dout.data(), c.m);
      break;
    case Kind::invalid:  // an illegal lda: a status and a log line, nothing written
      st = trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, c.m + 1, c.n, c.k, &one, c.a.data(), c.m, c.b.data(), c.k, &half,
                        out.data(), c.m + 1);
      EXPECT_EQ(st, TRNBLAS_STATUS_INVALID_VALUE);
      st = TRNBLAS_STATUS_SUCCESS;
      break;
  }
  EXPECT_EQ(st, TRNBLAS_STATUS_SUCCESS);
  std::vector<std::uint8_t> bytes(out.size() * sizeof(float) + dout.size() * sizeof(double));
  std::memcpy(bytes.data(), out.data(), out.size() * sizeof(float));
  std::memcpy(bytes.data() + out.size() * sizeof(float), dout.data(), dout.size() * sizeof(double));
  return bytes;
}

const std::vector<Call>& calls() {
  static const std::vector<Call> c = make_calls(200, 2026);
  return c;
}

const std::vector<std::vector<std::uint8_t>>& serial_results() {
  static const std::vector<std::vector<std::uint8_t>> r = [] {
    trnblasHandle_t h = nullptr;
    EXPECT_EQ(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    std::vector<std::vector<std::uint8_t>> out;
    for (const Call& c : calls()) out.push_back(run(h, c));
    trnblasDestroy(h);
    return out;
  }();
  return r;
}

TEST(TrnblasThreads, EightThreadsOwnHandlesMatchTheSerialRunBitForBit) {
  const auto& expected = serial_results();
  trnblasSetLoggerCallback(count_line);
  g_log_lines = 0;
  constexpr int kThreads = 8;
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t)
    pool.emplace_back([&, t] {
      trnblasHandle_t h = nullptr;
      if (trnblasCreate(&h) != TRNBLAS_STATUS_SUCCESS) {
        mismatches[t] = -1;
        return;
      }
      const int n = static_cast<int>(calls().size());
      for (int i = 0; i < n; ++i) {
        const int idx = (i + 25 * t) % n;  // every thread in its own order
        if (run(h, calls()[idx]) != expected[idx]) ++mismatches[t];
      }
      trnblasDestroy(h);
    });
  for (auto& th : pool) th.join();
  trnblasSetLoggerCallback(nullptr);
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
  int invalid = 0;
  for (const Call& c : calls()) invalid += c.kind == Kind::invalid;
  EXPECT_EQ(g_log_lines.load(), kThreads * invalid);  // every rejected call logged once, none lost
}

TEST(TrnblasThreads, OneHandleSharedByFourThreadsMatchesTheSerialRun) {
  const auto& expected = serial_results();
  trnblasHandle_t h = nullptr;
  ASSERT_EQ(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
  constexpr int kThreads = 4;
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t)
    pool.emplace_back([&, t] {
      for (std::size_t i = static_cast<std::size_t>(t); i < calls().size(); i += kThreads) {
        if (run(h, calls()[i]) != expected[i]) ++mismatches[t];
        trnProfile_t p;
        int pos = -1;
        EXPECT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);  // some call's profile, never torn
        EXPECT_EQ(trnblasGetLastErrorParameter(h, &pos), TRNBLAS_STATUS_SUCCESS);
      }
    });
  for (auto& th : pool) th.join();
  EXPECT_EQ(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

}  // namespace
