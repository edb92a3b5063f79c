// The C-shim kit: what every library's C API (trnblas.h, trnrand.h, trnsolver.h, trnfft.h,
// trnsparse.h, trntensor.h) is written with, so that each entry point is a few lines of argument
// checks over the C++ API and all of them behave the same way:
//
//   * enum arguments are read as the caller's int (`enum_value`): C may pass any int, and loading an
//     out-of-range value through the C++ enum type is undefined behaviour;
//   * handles are checked against a registry of live handles (`HandleRegistry`), so a NULL,
//     destroyed or foreign pointer is a status (NOT_INITIALIZED / INVALID_PLAN), never a crash;
//   * arguments are checked in the reference-BLAS / cuBLAS parameter order (`ArgCheck`): the first
//     illegal one is reported with its 1-based position, XERBLA's message is logged and nothing is
//     written;
//   * the compute body runs inside `guarded`, which maps every exception (emulator limit errors,
//     bad_alloc, anything else) to the library's status values: C entry points never throw, abort
//     or exit;
//   * a handle's "last call" state (error parameter, profile) is safe to share between threads:
//     LastError is atomic and LastCall<T> is a locked slot, so one handle may be used from several
//     host threads at once (cuBLAS's rule), each call reporting into it as it finishes;
//   * logging follows cuBLAS: <PREFIX>_LOGINFO_DBG=1 turns it on, <PREFIX>_LOGDEST_DBG = stdout |
//     stderr | <file>; a callback receives every message whether or not logging is on.
//
// Example (one entry point of trnsparse):
//
//   trnsparseStatus_t trnsparseSpMV(trnsparseHandle_t h, trnsparseOperation_t opA, ...) {
//     if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
//     trn::cshim::ArgCheck<trnsparseStatus_t> check(g_log, "trnsparseSpMV", TRNSPARSE_STATUS_INVALID_VALUE,
//                                                   &h->last_error_param);
//     check.one_of(trn::cshim::enum_value(opA), {0, 1}, 1, "opA").not_null(alpha, 2, "alpha") ...;
//     if (!check) return check.status();
//     return trn::cshim::guarded(g_log, "trnsparseSpMV", kStatusMap, [&] { ... });
//   }
//
// Everything here is thread-safe: the registry and the logger take their own locks.
#pragma once
#include <atomic>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <string_view>

#include "trn/core/error.hpp"

namespace trn::cshim {

// The integer a C caller passed for an enum parameter (copied bit for bit: no enum-typed load).
template <class E>
int enum_value(const E& e) {
  static_assert(sizeof(E) == sizeof(int), "C enums are int-sized");
  int v = 0;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

// ---- logging -------------------------------------------------------------------------------------

using LogCallback = void (*)(const char* msg);

// One per library (a namespace-scope object in its C shim). Reads <prefix>_LOGINFO_DBG and
// <prefix>_LOGDEST_DBG once, at construction, as cuBLAS reads CUBLAS_LOGINFO_DBG/CUBLAS_LOGDEST_DBG.
class Logger {
 public:
  explicit Logger(std::string_view env_prefix);
  Logger(const Logger&) = delete;
  Logger& operator=(const Logger&) = delete;

  // cublasLoggerConfigure semantics: on/off, destinations (a NULL or empty file name: none).
  void configure(bool on, bool to_stdout, bool to_stderr, const char* file);
  void set_callback(LogCallback cb);
  LogCallback callback() const;
  bool on() const;

  // Sends one line (no trailing newline) to the callback and, when logging is on, to every destination.
  void log(std::string_view msg) const;

 private:
  mutable std::mutex mu_;
  bool on_ = false, to_stdout_ = false, to_stderr_ = false;
  std::string file_;
  LogCallback callback_ = nullptr;
};

// ---- handles -------------------------------------------------------------------------------------

// Live handles of one type. `contains` is the check every entry point makes first.
template <class T>
class HandleRegistry {
 public:
  void insert(const T* h) {
    std::lock_guard<std::mutex> lock(mu_);
    live_.insert(h);
  }
  // false when h is NULL, already destroyed or never created here (the caller returns its status).
  bool erase(const T* h) {
    std::lock_guard<std::mutex> lock(mu_);
    return h != nullptr && live_.erase(h) != 0;
  }
  bool contains(const T* h) const {
    std::lock_guard<std::mutex> lock(mu_);
    return h != nullptr && live_.count(h) != 0;
  }

 private:
  mutable std::mutex mu_;
  std::set<const T*> live_;
};

// ---- per-handle state shared by threads --------------------------------------------------------

// The 1-based position of the last illegal argument (0: none), written by every call.
using LastError = std::atomic<int>;

// The last value a call stored (e.g. its trnProfile_t), read and written under a lock.
template <class T>
class LastCall {
 public:
  void store(const T& v) {
    std::lock_guard<std::mutex> lock(mu_);
    value_ = v;
  }
  T load() const {
    std::lock_guard<std::mutex> lock(mu_);
    return value_;
  }

 private:
  mutable std::mutex mu_;
  T value_{};
};

// ---- argument checks -----------------------------------------------------------------------------

// XERBLA's line: " ** On entry to <fn> parameter number <pos> (<name>) had an illegal value".
std::string illegal_value_message(std::string_view fn, int position, std::string_view name);
// The other failure lines: "<fn>: <STATUS_NAME>: <why>".
std::string failure_message(std::string_view fn, std::string_view status_name, std::string_view why);

// Checks arguments in signature order: the first failing check wins (it is logged, its position is
// stored in *last_param when that is non-null), later checks are skipped. Positions are 1-based
// and do not count the handle, as cuBLAS numbers them.
template <class Status>
class ArgCheck {
 public:
  ArgCheck(const Logger& log, std::string_view fn, Status invalid_status, LastError* last_param = nullptr)
      : log_(log), fn_(fn), invalid_(invalid_status), status_(Status{}), last_param_(last_param) {
    if (last_param_ != nullptr) *last_param_ = 0;
  }

  explicit operator bool() const { return ok_; }
  Status status() const { return status_; }
  int failed_position() const { return position_; }

  ArgCheck& require(bool condition, int position, std::string_view name) {
    if (ok_ && !condition) fail_at(position, name);
    return *this;
  }
  ArgCheck& not_null(const void* p, int position, std::string_view name) { return require(p != nullptr, position, name); }
  // Sizes are taken as int64 so that 32- and 64-bit entry points share one check.
  ArgCheck& nonnegative(std::int64_t v, int position, std::string_view name) { return require(v >= 0, position, name); }
  // A leading dimension: ld >= max(1, rows).
  ArgCheck& leading_dim(std::int64_t ld, std::int64_t rows, int position, std::string_view name) {
    return require(ld >= (rows > 1 ? rows : 1), position, name);
  }
  ArgCheck& one_of(int v, std::initializer_list<int> allowed, int position, std::string_view name) {
    bool found = false;
    for (int a : allowed) found = found || a == v;
    return require(found, position, name);
  }
  // A status other than INVALID_VALUE (NOT_SUPPORTED, ...) with a reason, in the same order.
  ArgCheck& require_or(bool condition, Status st, std::string_view status_name, std::string_view why) {
    if (ok_ && !condition) {
      ok_ = false;
      status_ = st;
      log_.log(failure_message(fn_, status_name, why));
    }
    return *this;
  }

 private:
  void fail_at(int position, std::string_view name) {
    ok_ = false;
    status_ = invalid_;
    position_ = position;
    if (last_param_ != nullptr) *last_param_ = position;
    log_.log(illegal_value_message(fn_, position, name));
  }
  const Logger& log_;
  std::string_view fn_;
  Status invalid_;
  Status status_;
  LastError* last_param_;
  bool ok_ = true;
  int position_ = 0;
};

// ---- the compute body ----------------------------------------------------------------------------

// Which library status each failure class becomes, with the names the log prints.
template <class Status>
struct StatusMap {
  Status success;
  Status alloc_failed;      // std::bad_alloc
  Status not_supported;     // trn::NotSupportedError
  Status usage_error;       // trn::UsageError (an argument the checks could not see, e.g. the counter space)
  Status execution_failed;  // any other trn::Error from the emulated kernels (limits, capacities)
  Status internal_error;    // anything else
  const char* (*name)(Status);  // the library's GetStatusName
};

// Runs body(); returns map.success, or the mapped status after logging "<fn>: <NAME>: <what>".
template <class Status, class F>
Status guarded(const Logger& log, std::string_view fn, const StatusMap<Status>& map, F&& body) noexcept {
  auto fail = [&](Status st, std::string_view why) noexcept {
    try {
      log.log(failure_message(fn, map.name(st), why));
    } catch (...) {  // logging must not turn a status into an exception
    }
    return st;
  };
  try {
    body();
    return map.success;
  } catch (const std::bad_alloc&) {
    return fail(map.alloc_failed, "out of memory");
  } catch (const trn::NotSupportedError& e) {
    return fail(map.not_supported, e.what());
  } catch (const trn::UsageError& e) {
    return fail(map.usage_error, e.what());
  } catch (const trn::Error& e) {
    return fail(map.execution_failed, e.what());
  } catch (const std::exception& e) {
    return fail(map.internal_error, e.what());
  } catch (...) {
    return fail(map.internal_error, "unknown exception");
  }
}

// ---- checked extents -----------------------------------------------------------------------------

// Number of elements a column-major (rows x cols, ld) operand spans, rows*... + ld*(cols-1), or -1
// when it does not fit in int64 (arguments a caller can pass but no buffer can have).
std::int64_t checked_extent(std::int64_t rows, std::int64_t cols, std::int64_t ld);
// a * b, or -1 on overflow or a negative operand.
std::int64_t checked_mul(std::int64_t a, std::int64_t b);

}  // namespace trn::cshim
