// The C-shim kit every library's C API is written with: argument order, logging, status mapping,
// handle registry, checked extents.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "trn/core/c_shim.hpp"

namespace {

enum Status { kOk = 0, kAlloc = 3, kInvalid = 7, kExec = 13, kInternal = 14, kNotSupported = 15, kUsage = 99 };
const char* status_name(Status s) {
  switch (s) {
    case kOk: return "OK";
    case kAlloc: return "ALLOC";
    case kInvalid: return "INVALID";
    case kExec: return "EXEC";
    case kInternal: return "INTERNAL";
    case kNotSupported: return "NOT_SUPPORTED";
    case kUsage: return "USAGE";
  }
  return "?";
}
constexpr trn::cshim::StatusMap<Status> kMap{kOk, kAlloc, kNotSupported, kUsage, kExec, kInternal, status_name};

std::vector<std::string> g_lines;
void capture(const char* msg) { g_lines.emplace_back(msg); }

struct CaptureLog : ::testing::Test {
  trn::cshim::Logger log{"TRNSCI_TEST_SHIM"};
  void SetUp() override {
    g_lines.clear();
    log.set_callback(capture);
  }
};

TEST_F(CaptureLog, FirstIllegalArgumentInSignatureOrderWinsAndIsLogged) {
  trn::cshim::LastError last{-1};
  trn::cshim::ArgCheck<Status> check(log, "trnxFoo", kInvalid, &last);
  EXPECT_EQ(last, 0);  // reset on entry
  int m = -1, lda = 0;
  check.one_of(0, {0, 1, 2}, 1, "transa").nonnegative(m, 3, "m").leading_dim(lda, 5, 8, "lda").not_null(nullptr, 9, "B");
  EXPECT_FALSE(check);
  EXPECT_EQ(check.status(), kInvalid);
  EXPECT_EQ(check.failed_position(), 3);
  EXPECT_EQ(last, 3);
  ASSERT_EQ(g_lines.size(), 1u);  // later failures are not reported
  EXPECT_EQ(g_lines[0], " ** On entry to trnxFoo parameter number 3 (m) had an illegal value");
}

TEST_F(CaptureLog, PassingChecksLeaveSuccessAndLogNothing) {
  trn::cshim::ArgCheck<Status> check(log, "trnxFoo", kInvalid);
  const float x = 0;
  check.one_of(2, {0, 1, 2}, 1, "op").nonnegative(std::int64_t{0}, 2, "n").leading_dim(1, 0, 3, "ld").not_null(&x, 4, "x");
  EXPECT_TRUE(check);
  EXPECT_EQ(check.status(), kOk);
  EXPECT_TRUE(g_lines.empty());
}

TEST_F(CaptureLog, LeadingDimensionIsAtLeastOne) {
  trn::cshim::ArgCheck<Status> check(log, "f", kInvalid);
  check.leading_dim(0, 0, 4, "ldc");
  EXPECT_FALSE(check);
  EXPECT_EQ(check.failed_position(), 4);
}

TEST_F(CaptureLog, RequireOrCarriesItsOwnStatus) {
  trn::cshim::ArgCheck<Status> check(log, "f", kInvalid);
  check.require_or(false, kNotSupported, "NOT_SUPPORTED", "no fp64 engine").nonnegative(-1, 1, "n");
  EXPECT_EQ(check.status(), kNotSupported);
  ASSERT_EQ(g_lines.size(), 1u);
  EXPECT_EQ(g_lines[0], "f: NOT_SUPPORTED: no fp64 engine");
}

TEST_F(CaptureLog, GuardedMapsEveryExceptionClass) {
  EXPECT_EQ(trn::cshim::guarded(log, "f", kMap, [] {}), kOk);
  EXPECT_EQ(trn::cshim::guarded(log, "f", kMap, [] { throw std::bad_alloc(); }), kAlloc);
  EXPECT_EQ(trn::cshim::guarded(log, "f", kMap, [] { throw trn::NotSupportedError("op", "x", "trn1"); }), kNotSupported);
  EXPECT_EQ(trn::cshim::guarded(log, "f", kMap, [] { throw trn::UsageError("op", "a", "x"); }), kUsage);
  EXPECT_EQ(trn::cshim::guarded(log, "f", kMap, [] { throw trn::LimitError("nc_matmul", "moving", "free size", 600, "fmax", 512, "trn1"); }),
            kExec);
  EXPECT_EQ(trn::cshim::guarded(log, "f", kMap, [] { throw std::runtime_error("boom"); }), kInternal);
  EXPECT_EQ(trn::cshim::guarded(log, "f", kMap, [] { throw 42; }), kInternal);
  ASSERT_EQ(g_lines.size(), 6u);
  EXPECT_EQ(g_lines[0], "f: ALLOC: out of memory");
  EXPECT_EQ(g_lines[4], "f: INTERNAL: boom");
}

TEST(CShim, EnumValueReadsTheCallersInt) {
  enum E { a = 1 };
  int raw = -12345;
  E e;
  std::memcpy(&e, &raw, sizeof e);
  EXPECT_EQ(trn::cshim::enum_value(e), -12345);
}

TEST(CShim, HandleRegistryRejectsNullDestroyedAndForeign) {
  trn::cshim::HandleRegistry<int> reg;
  int a = 0, b = 0;
  EXPECT_FALSE(reg.contains(nullptr));
  reg.insert(&a);
  EXPECT_TRUE(reg.contains(&a));
  EXPECT_FALSE(reg.contains(&b));
  EXPECT_FALSE(reg.erase(&b));
  EXPECT_TRUE(reg.erase(&a));
  EXPECT_FALSE(reg.contains(&a));
  EXPECT_FALSE(reg.erase(&a));  // double destroy
}

TEST(CShim, CheckedExtentRejectsWhatNoBufferCanHold) {
  EXPECT_EQ(trn::cshim::checked_extent(5, 3, 7), 5 + 7 * 2);
  EXPECT_EQ(trn::cshim::checked_extent(0, 3, 7), 0);
  EXPECT_EQ(trn::cshim::checked_extent(1, 5, 4611686018427387903LL), -1);
  EXPECT_EQ(trn::cshim::checked_extent(std::numeric_limits<std::int64_t>::max(), 1, 1),
            std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(trn::cshim::checked_mul(1LL << 40, 1LL << 40), -1);
  EXPECT_EQ(trn::cshim::checked_mul(-1, 2), -1);
}

}  // namespace
