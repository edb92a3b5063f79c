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
//     stderr | <file>; a callback receives every message whether or not logging is on. The
//     cuSPARSE / cuSOLVER / cuTENSOR logger (a (level, function, message) callback, a FILE*, a
//     level, a mask) drives the same logger;
//   * every library exposes one emulation surface (`EmulationApi`, `TRN_CSHIM_EMULATION_ENTRY_POINTS`):
//     Set/Get Target, NumericsProfile, StochasticRounding, NumCores, GetLastProfile,
//     GetLastErrorParameter and the cuBLAS logger family, written here once over the library's
//     handle binding, so a user learns them once and every library checks them the same way.
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
#include <algorithm>
#include <atomic>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "trn/core/error.hpp"
#include "trn/core/spmd.hpp"
#include "trnComplex.h"
#include "trncore.h"
#include "trnprofile.h"

namespace trn::cshim {

// The C++ element type of a C element type: trnComplex -> std::complex<float>, trnDoubleComplex ->
// std::complex<double> (same layout: C11 _Complex / [2] of the real type), any other type itself.
template <class C>
struct CppElement {
  using type = C;
};
template <>
struct CppElement<trnComplex> {
  using type = std::complex<float>;
};
template <>
struct CppElement<trnDoubleComplex> {
  using type = std::complex<double>;
};
template <class C>
using cpp_element_t = typename CppElement<C>::type;
// A C pointer seen as its C++ element type, constness kept.
template <class C>
auto as_cpp(C* p) {
  using T = cpp_element_t<std::remove_const_t<C>>;
  if constexpr (std::is_const_v<C>)
    return reinterpret_cast<const T*>(p);
  else
    return reinterpret_cast<T*>(p);
}

// The integer a C caller passed for an enum parameter (copied bit for bit: no enum-typed load).
template <class E>
int enum_value(const E& e) {
  static_assert(sizeof(E) == sizeof(int), "C enums are int-sized");
  int v = 0;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

// ---- logging -------------------------------------------------------------------------------------

using LogCallback = void (*)(const char* msg);  // cuBLAS's cublasLogCallback
// cuSPARSE's / cuSOLVER's / cuTENSOR's: every message a trnsci library emits is an error, level 1.
using LevelCallback = void (*)(int level, const char* function, const char* message);

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

  // The cuSPARSE / cuTENSOR family (cusparseLogger*, cutensorLogger*):
  void set_level_callback(LevelCallback cb);  // LoggerSetCallback: receives (1, function, message)
  void set_stream(std::FILE* f);              // LoggerSetFile: a non-NULL stream also turns logging on
  void set_level(int level);                  // LoggerSetLevel: 0 off, 1..5 on (stderr unless a stream is set)
  void set_mask(int mask);                    // LoggerSetMask: bit 0 (errors) as set_level
  void force_disable();                       // LoggerForceDisable: off, no stream
  // LoggerOpenFile / LoggerSetLevel with their argument checks: false (nothing changed) for a NULL or
  // empty file name, a level outside 0..5; the entry point returns its INVALID_VALUE then.
  bool open_file(const char* file) {
    if (file == nullptr || file[0] == '\0') return false;
    configure(true, false, false, file);
    return true;
  }
  bool set_level_checked(int level) {
    if (level < 0 || level > 5) return false;
    set_level(level);
    return true;
  }

  // Sends one line (no trailing newline) to the callbacks and, when logging is on, to every destination.
  void log(std::string_view msg) const;

 private:
  mutable std::mutex mu_;
  bool on_ = false, to_stdout_ = false, to_stderr_ = false;
  std::string file_;
  std::FILE* stream_ = nullptr;
  LogCallback callback_ = nullptr;
  LevelCallback level_callback_ = nullptr;
};

// The function name of a kit message: " ** On entry to <fn> parameter ..." or "<fn>: ...".
std::string function_of(std::string_view msg);

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
  // The Destroy of a handle or descriptor: unregisters and deletes h; false (nothing deleted) as erase.
  bool destroy(const T* h) {
    if (!erase(h)) return false;
    delete h;
    return true;
  }

 private:
  mutable std::mutex mu_;
  std::set<const T*> live_;
};

// The Create of a handle or descriptor type: a new value-initialised T, init(*p) run on it, then
// registered in `registry` and returned through *out. `invalid` when out is NULL, `alloc_failed`
// when the allocation or init throws; *out is untouched on failure. Nothing is logged (no handle
// exists yet to report against).
template <class T, class Status, class Init>
Status create_registered(HandleRegistry<T>& registry, T** out, Status invalid, Status alloc_failed, Status success,
                         Init&& init) noexcept {
  if (out == nullptr) return invalid;
  try {
    T* p = new T();
    try {
      init(*p);
    } catch (...) {
      delete p;
      throw;
    }
    registry.insert(p);
    *out = p;
    return success;
  } catch (...) {
    return alloc_failed;
  }
}
template <class T, class Status>
Status create_registered(HandleRegistry<T>& registry, T** out, Status invalid, Status alloc_failed, Status success) noexcept {
  return create_registered(registry, out, invalid, alloc_failed, success, [](T&) {});
}

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

// Logs "<fn>: <STATUS_NAME>: <why>" and returns st: a failure no ArgCheck chain describes.
template <class Status>
Status fail(const Logger& log, const StatusMap<Status>& map, std::string_view fn, Status st, std::string_view why) {
  log.log(failure_message(fn, map.name(st), why));
  return st;
}

// ---- checked extents -----------------------------------------------------------------------------

// Number of elements a column-major (rows x cols, ld) operand spans, rows*... + ld*(cols-1), or -1
// when it does not fit in int64 (arguments a caller can pass but no buffer can have).
std::int64_t checked_extent(std::int64_t rows, std::int64_t cols, std::int64_t ld);
// a * b, or -1 on overflow or a negative operand.
std::int64_t checked_mul(std::int64_t a, std::int64_t b);

// ---- the emulation surface ---------------------------------------------------------------------

// The statuses of one library the surface returns (its own CUDA-shaped values).
template <class Status>
struct SurfaceCodes {
  Status success;
  Status not_initialized;  // NULL, destroyed or foreign handle (cuFFT: INVALID_PLAN)
  Status invalid_value;    // an illegal argument, its position logged (cuRAND: OUT_OF_RANGE)
};

// The emulated NeuronCores a handle may spread its work over: one bound for every library.
inline constexpr int kMaxEmulatedCores = 64;

// The entry points every library's C API has, over one binding per library:
//
//   struct Binding {
//     using Handle = trnblasHandle_t;
//     using Status = trnblasStatus_t;
//     static constexpr SurfaceCodes<Status> kCodes{...};
//     static Logger& logger();
//     static const StatusMap<Status>& status_map();
//     // kCodes.not_initialized when h is not live; otherwise f(access) under the handle's lock, where
//     // access.settings() is the handle's EmulatorSettings, access.last_error() its LastError*,
//     // access.last_profile() the profile of its last report (`<report>.profile.to_c()`), and
//     // access.apply(const EmulatorSettings&, fn) stores new settings (rebuilding what depends on
//     // them, or keeping the old ones and returning the failure).
//     template <class F> static Status access(Handle h, F&& f);
//   };
//
// Arguments are positions 1, 2, ... after the handle, as everywhere; an illegal one is logged
// (XERBLA's line), recorded for GetLastErrorParameter and leaves the handle and the outputs as they were.
template <class Binding>
struct EmulationApi {
  using Handle = typename Binding::Handle;
  using Status = typename Binding::Status;
  using Check = ArgCheck<Status>;

  // Enum arguments arrive as the caller's int (read with enum_value at the C boundary).
  static Status set_target(Handle h, const char* fn, int t) {
    return change(h, fn, [&](Check& c, EmulatorSettings& s) {
      if (c.one_of(t, {TRN_TARGET_TRN1, TRN_TARGET_TRN2, TRN_TARGET_TRN3}, 1, "target"))
        s.target = static_cast<Generation>(t);
    });
  }
  static Status get_target(Handle h, const char* fn, trnTarget_t* target) {
    return query(h, fn, [&](Check& c, const EmulatorSettings& s) {
      if (c.not_null(target, 1, "target")) *target = static_cast<trnTarget_t>(s.target);
    });
  }
  static Status set_numerics(Handle h, const char* fn, int p) {
    return change(h, fn, [&](Check& c, EmulatorSettings& s) {
      if (c.one_of(p, {TRN_NUMERICS_IDEAL, TRN_NUMERICS_TRN1_MEASURED}, 1, "profile"))
        s.numerics = static_cast<Numerics>(p);
    });
  }
  static Status get_numerics(Handle h, const char* fn, trnNumerics_t* profile) {
    return query(h, fn, [&](Check& c, const EmulatorSettings& s) {
      if (c.not_null(profile, 1, "profile")) *profile = static_cast<trnNumerics_t>(s.numerics);
    });
  }
  // enable != 0: stochastic rounding of every rounding instruction, its bits keyed by seed (spmd.hpp).
  static Status set_stochastic_rounding(Handle h, const char* fn, int enable, unsigned long long seed) {
    return change(h, fn, [&](Check&, EmulatorSettings& s) {
      s.stochastic_rounding = enable != 0;
      s.sr_seed = seed;
    });
  }
  static Status get_stochastic_rounding(Handle h, const char* fn, int* enable, unsigned long long* seed) {
    return query(h, fn, [&](Check& c, const EmulatorSettings& s) {
      if (!c.not_null(enable, 1, "enable").not_null(seed, 2, "seed")) return;
      *enable = s.stochastic_rounding ? 1 : 0;
      *seed = s.sr_seed;
    });
  }
  static Status set_num_cores(Handle h, const char* fn, int cores) {
    return change(h, fn, [&](Check& c, EmulatorSettings& s) {
      if (c.require(cores >= 1 && cores <= kMaxEmulatedCores, 1, "cores")) s.num_cores = cores;
    });
  }
  static Status get_num_cores(Handle h, const char* fn, int* cores) {
    return query(h, fn, [&](Check& c, const EmulatorSettings& s) {
      if (c.not_null(cores, 1, "cores")) *cores = s.num_cores;
    });
  }
  // GetLastProfile: the v3 layout, TRN_PROFILE_SIZE_V3 bytes for ever (a later field is read only
  // through GetLastProfileSized, so a caller compiled now is never written past its struct).
  static Status get_last_profile(Handle h, const char* fn, trnProfile_t* profile) {
    return get_last_profile_sized(h, fn, profile, TRN_PROFILE_SIZE_V3, false);
  }
  // GetLastProfileSized: exactly the first `size` bytes of the caller's struct (trnprofile.h's layout
  // versions: a prefix of this library's trnProfile_t; the bytes of a newer caller's fields this library
  // does not know are zero). size < TRN_PROFILE_SIZE_V1 is illegal (position 2), nothing written.
  static Status get_last_profile_sized(Handle h, const char* fn, trnProfile_t* profile, std::size_t size,
                                       bool check_size = true) {
    static_assert(TRN_PROFILE_SIZE_V1 <= TRN_PROFILE_SIZE_V2 && TRN_PROFILE_SIZE_V2 <= TRN_PROFILE_SIZE_V3);
    return Binding::access(h, [&](auto& a) -> Status {
      Check c(Binding::logger(), fn, Binding::kCodes.invalid_value, a.last_error());
      if (!c.not_null(profile, 1, "profile")) return c.status();
      if (check_size && !c.require(size >= TRN_PROFILE_SIZE_V1, 2, "size (below TRN_PROFILE_SIZE_V1)"))
        return c.status();
      trnProfile_t p{};
      const Status st = guarded(Binding::logger(), fn, Binding::status_map(), [&] { p = a.last_profile(); });
      if (st != Binding::kCodes.success) return st;
      auto* out = reinterpret_cast<unsigned char*>(profile);
      const std::size_t known = std::min(size, sizeof p);
      std::memcpy(out, &p, known);
      if (size > known) std::memset(out + known, 0, size - known);
      return st;
    });
  }
  // Reads the position without resetting it (the check's bookkeeping would clear it first).
  static Status get_last_error_parameter(Handle h, const char* fn, int* position) {
    return Binding::access(h, [&](auto& a) -> Status {
      Check c(Binding::logger(), fn, Binding::kCodes.invalid_value);
      if (!c.not_null(position, 1, "position")) return c.status();
      *position = a.last_error()->load();
      return Binding::kCodes.success;
    });
  }

  // cuBLAS's logger family (cublasLoggerConfigure, cublasSet/GetLoggerCallback) and the
  // cuSPARSE-shaped LoggerSetCallback: library-wide, no handle.
  static Status logger_configure(int on, int to_stdout, int to_stderr, const char* file) {
    Binding::logger().configure(on != 0, to_stdout != 0, to_stderr != 0, file);
    return Binding::kCodes.success;
  }
  static Status set_logger_callback(LogCallback cb) {
    Binding::logger().set_callback(cb);
    return Binding::kCodes.success;
  }
  static Status get_logger_callback(const char* fn, LogCallback* cb) {
    Check c(Binding::logger(), fn, Binding::kCodes.invalid_value);
    if (!c.not_null(cb, 1, "callback")) return c.status();
    *cb = Binding::logger().callback();
    return Binding::kCodes.success;
  }
  static Status logger_set_callback(LevelCallback cb) {
    Binding::logger().set_level_callback(cb);
    return Binding::kCodes.success;
  }

 private:
  // f(check, settings) edits a copy; the handle applies it only when every check passed.
  template <class F>
  static Status change(Handle h, const char* fn, F&& f) {
    return Binding::access(h, [&](auto& a) -> Status {
      Check c(Binding::logger(), fn, Binding::kCodes.invalid_value, a.last_error());
      EmulatorSettings s = a.settings();
      f(c, s);
      if (!c) return c.status();
      return a.apply(s, fn);
    });
  }
  // A getter is a read: it records a failing position but does not clear the last one (a shim may
  // read a setting in the middle of another call's checks).
  template <class F>
  static Status query(Handle h, const char* fn, F&& f) {
    return Binding::access(h, [&](auto& a) -> Status {
      Check c(Binding::logger(), fn, Binding::kCodes.invalid_value);
      f(c, static_cast<const EmulatorSettings&>(a.settings()));
      if (c) return Binding::kCodes.success;
      *a.last_error() = c.failed_position();
      return c.status();
    });
  }
};

// The profile a handle keeps of its last call: a trnProfile_t, a report with a `profile`
// (Profile::to_c()), or either of them in a LastCall slot.
inline trnProfile_t profile_of(const trnProfile_t& p) { return p; }
template <class Report>
trnProfile_t profile_of(const Report& r) {
  return r.profile.to_c();
}
template <class T>
trnProfile_t profile_of(const LastCall<T>& slot) {
  return profile_of(slot.load());
}

// The binding of a library whose handle is a pointer to a context registered in `*Registry`, with
// members `settings` (derived from EmulatorSettings), `last_error_param` (LastError) and
// `last_profile` (see profile_of): trnblas, trnsolver, trnsparse and trntensor. Changing a setting
// stores it; the next call launches with it. Codes is passed by address: clang 14 (the fuzz build)
// does not accept a braced class-type template argument.
template <class Context, class StatusT, HandleRegistry<Context>* Registry, Logger* Log,
          const StatusMap<StatusT>* Map, const SurfaceCodes<StatusT>* Codes>
struct ContextBinding {
  using Handle = Context*;
  using Status = StatusT;
  static constexpr SurfaceCodes<Status> kCodes = *Codes;
  static Logger& logger() { return *Log; }
  static const StatusMap<Status>& status_map() { return *Map; }

  struct Access {
    Context* h;
    const EmulatorSettings& settings() const { return h->settings; }
    LastError* last_error() const { return &h->last_error_param; }
    trnProfile_t last_profile() const { return profile_of(h->last_profile); }
    Status apply(const EmulatorSettings& s, const char*) const {
      static_cast<EmulatorSettings&>(h->settings) = s;
      return Codes->success;
    }
  };
  template <class F>
  static Status access(Handle h, F&& f) {
    if (!Registry->contains(h)) return Codes->not_initialized;
    Access a{h};
    return f(a);
  }

  // The handle's own entry points (Create, Destroy, GetVersion, Set/GetStream, mode setters):
  // init(context) runs on a new handle before it is registered and returned.
  template <class Init>
  static Status create(Handle* out, Init&& init) noexcept {
    return create_registered(*Registry, out, Codes->invalid_value, Map->alloc_failed, Codes->success,
                             std::forward<Init>(init));
  }
  static Status create(Handle* out) noexcept {
    return create_registered(*Registry, out, Codes->invalid_value, Map->alloc_failed, Codes->success);
  }
  static Status destroy(Handle h) { return Registry->destroy(h) ? Codes->success : Codes->not_initialized; }
  // A getter: `out` is argument 1 (`name`; checked, recorded as the last error), then *out = read(context).
  template <class T, class Read>
  static Status get(Handle h, const char* fn, T* out, const char* name, Read&& read) {
    if (!Registry->contains(h)) return Codes->not_initialized;
    ArgCheck<Status> c(*Log, fn, Codes->invalid_value, &h->last_error_param);
    if (!c.not_null(out, 1, name)) return c.status();
    *out = read(static_cast<const Context&>(*h));
    return Codes->success;
  }
  // A setter that accepts any value (a stream): write(context); the last error is left as it was.
  template <class Write>
  static Status set(Handle h, Write&& write) {
    if (!Registry->contains(h)) return Codes->not_initialized;
    write(*h);
    return Codes->success;
  }
  // A setter of an enum: `value` (the caller's int) is argument 1 (`name`), one of `allowed`, then write(context).
  template <class Write>
  static Status set_one_of(Handle h, const char* fn, int value, std::initializer_list<int> allowed, const char* name,
                           Write&& write) {
    if (!Registry->contains(h)) return Codes->not_initialized;
    ArgCheck<Status> c(*Log, fn, Codes->invalid_value, &h->last_error_param);
    if (!c.one_of(value, allowed, 1, name)) return c.status();
    write(*h);
    return Codes->success;
  }
};

}  // namespace trn::cshim

// The extern "C" definitions of the surface for one library, inside its `extern "C"` block: H the
// prefix of the handle functions (trnblas, trnsolverDn, trnfft, ...), L the library-wide prefix of
// the logger functions (trnblas, trnsolver, ...). Defines H##SetTarget, H##GetTarget,
// H##SetNumericsProfile, H##GetNumericsProfile, H##SetStochasticRounding, H##GetStochasticRounding,
// H##SetNumCores, H##GetNumCores, H##GetLastProfile, H##GetLastProfileSized, H##GetLastErrorParameter,
// L##LoggerConfigure,
// L##SetLoggerCallback, L##GetLoggerCallback and L##LoggerSetCallback; trncore.h's
// TRN_EMULATION_API declares them. (A macro because C needs one named function per entry point;
// every body is a call into EmulationApi.)
#define TRN_CSHIM_EMULATION_ENTRY_POINTS(H, L, B)                                                                  \
  B::Status H##SetTarget(B::Handle h, trnTarget_t v) {                                                             \
    return ::trn::cshim::EmulationApi<B>::set_target(h, #H "SetTarget", ::trn::cshim::enum_value(v));            \
  }                                                                                                                \
  B::Status H##GetTarget(B::Handle h, trnTarget_t* v) {                                                            \
    return ::trn::cshim::EmulationApi<B>::get_target(h, #H "GetTarget", v);                                        \
  }                                                                                                                \
  B::Status H##SetNumericsProfile(B::Handle h, trnNumerics_t v) {                                                  \
    return ::trn::cshim::EmulationApi<B>::set_numerics(h, #H "SetNumericsProfile", ::trn::cshim::enum_value(v)); \
  }                                                                                                                \
  B::Status H##GetNumericsProfile(B::Handle h, trnNumerics_t* v) {                                                 \
    return ::trn::cshim::EmulationApi<B>::get_numerics(h, #H "GetNumericsProfile", v);                             \
  }                                                                                                                \
  B::Status H##SetStochasticRounding(B::Handle h, int enable, unsigned long long seed) {                           \
    return ::trn::cshim::EmulationApi<B>::set_stochastic_rounding(h, #H "SetStochasticRounding", enable, seed);    \
  }                                                                                                                \
  B::Status H##GetStochasticRounding(B::Handle h, int* enable, unsigned long long* seed) {                         \
    return ::trn::cshim::EmulationApi<B>::get_stochastic_rounding(h, #H "GetStochasticRounding", enable, seed);    \
  }                                                                                                                \
  B::Status H##SetNumCores(B::Handle h, int v) {                                                                   \
    return ::trn::cshim::EmulationApi<B>::set_num_cores(h, #H "SetNumCores", v);                                   \
  }                                                                                                                \
  B::Status H##GetNumCores(B::Handle h, int* v) {                                                                  \
    return ::trn::cshim::EmulationApi<B>::get_num_cores(h, #H "GetNumCores", v);                                   \
  }                                                                                                                \
  B::Status H##GetLastProfile(B::Handle h, trnProfile_t* v) {                                                      \
    return ::trn::cshim::EmulationApi<B>::get_last_profile(h, #H "GetLastProfile", v);                             \
  }                                                                                                                \
  B::Status H##GetLastProfileSized(B::Handle h, trnProfile_t* v, size_t size) {                                    \
    return ::trn::cshim::EmulationApi<B>::get_last_profile_sized(h, #H "GetLastProfileSized", v, size);            \
  }                                                                                                                \
  B::Status H##GetLastErrorParameter(B::Handle h, int* v) {                                                        \
    return ::trn::cshim::EmulationApi<B>::get_last_error_parameter(h, #H "GetLastErrorParameter", v);              \
  }                                                                                                                \
  B::Status L##LoggerConfigure(int on, int to_stdout, int to_stderr, const char* file) {                           \
    return ::trn::cshim::EmulationApi<B>::logger_configure(on, to_stdout, to_stderr, file);                        \
  }                                                                                                                \
  B::Status L##SetLoggerCallback(trnLogCallback_t cb) { return ::trn::cshim::EmulationApi<B>::set_logger_callback(cb); } \
  B::Status L##GetLoggerCallback(trnLogCallback_t* cb) {                                                           \
    return ::trn::cshim::EmulationApi<B>::get_logger_callback(#L "GetLoggerCallback", cb);                         \
  }                                                                                                                \
  B::Status L##LoggerSetCallback(trnLoggerCallback_t cb) { return ::trn::cshim::EmulationApi<B>::logger_set_callback(cb); }

// The cuSPARSE / cuSOLVER / cuTENSOR logger family beyond LoggerSetCallback, inside the library's
// `extern "C"` block: P the function prefix (trnsolverDn, trnsparse, trntensor), LOG its
// trn::cshim::Logger, OK and INVALID its success / invalid-value statuses. LoggerSetFile(NULL),
// LoggerOpenFile(NULL or ""), LoggerSetLevel outside 0..5 and LoggerSetMask outside 0..31 (the five
// level bits) are INVALID; ForceDisable always succeeds.
#define TRN_CSHIM_LOGGER_FILE_ENTRY_POINTS(P, Status, LOG, OK, INVALID)                                          \
  Status P##LoggerSetFile(std::FILE* file) {                                                                     \
    if (file == nullptr) return INVALID;                                                                         \
    (LOG).set_stream(file);                                                                                      \
    return OK;                                                                                                   \
  }                                                                                                              \
  Status P##LoggerOpenFile(const char* logFile) { return (LOG).open_file(logFile) ? OK : INVALID; }              \
  Status P##LoggerSetLevel(int level) { return (LOG).set_level_checked(level) ? OK : INVALID; }                  \
  Status P##LoggerSetMask(int mask) {                                                                            \
    if (mask < 0 || mask > 31) return INVALID;                                                                   \
    (LOG).set_mask(mask);                                                                                        \
    return OK;                                                                                                   \
  }                                                                                                              \
  Status P##LoggerForceDisable(void) {                                                                           \
    (LOG).force_disable();                                                                                       \
    return OK;                                                                                                   \
  }
