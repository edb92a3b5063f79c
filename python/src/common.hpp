// The kit every binding file of trnsci._core is written with (docs/python.md):
//
//   * Registrar: a file registers its submodule's bindings at static-initialisation time, so the module
//     is the glob of python/src/*.cpp and a new binding (nki_*.cpp, ...) touches no other file;
//   * EmuSettings: what trnsci.settings(...) holds (target, numerics, stochastic rounding, cores);
//   * ProfileData: the one Profile of a call (trnProfile_t of the library's GetLastProfile plus the
//     report(s) finish_report built, captured through trn::set_thread_report_observer, for
//     to_perfetto and the SVG timeline);
//   * CShim<Traits> / run_call: a C-API call with the GIL released, its status raised as a trnsci.Error
//     carrying the status name, the parameter position (GetLastErrorParameter) and the logged line;
//   * array checks: dtype, dimensions, contiguity, named in the exception (never a crash).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "trn/core/report_observer.hpp"
#include "trncore.h"

namespace trnsci::py {
namespace py = pybind11;

// ---- module assembly ---------------------------------------------------------------------------

// Registers `fn` to fill the submodule `name` of trnsci._core ("" for _core itself) when the module
// is imported. Use as a namespace-scope object: `const Registrar kBlas("blas", [](py::module_& m) {...});`
class Registrar {
 public:
  using Fn = std::function<void(py::module_&)>;
  Registrar(std::string name, Fn fn);
  // Runs every registered function (in registration order, submodules created as needed).
  static void register_all(py::module_& root);
};

// ---- settings ----------------------------------------------------------------------------------

// trnsci.settings(...) as the bindings receive it (python/trnsci/_settings.py builds it).
struct EmuSettings {
  int target = TRN_TARGET_TRN1;         // trnTarget_t
  int numerics = TRN_NUMERICS_IDEAL;    // trnNumerics_t
  bool stochastic_rounding = false;
  unsigned long long seed = 0;          // stochastic-rounding seed
  int cores = 1;
  bool keep_trace = true;               // keep the call's trace for Profile.to_perfetto / timeline
};

// ---- profiles ----------------------------------------------------------------------------------

// One report finish_report modeled during a call (trace kept for Perfetto and the timeline).
struct CapturedReport {
  trn::Trace trace;
  trn::ReportSettings settings;
  std::string plan;
  trn::Profile profile;
};

// The Profile of one call: the library's trnProfile_t and the reports the call built.
class ProfileData {
 public:
  ProfileData() = default;
  ProfileData(const trnProfile_t& p, std::string library, std::string routine,
              std::vector<std::shared_ptr<CapturedReport>> reports);
  // A Profile of a report built in C++ (the NKI front end): its profile as the C struct, its trace.
  static ProfileData of_report(const trn::Report& r, const trn::ReportSettings& rs, std::string library,
                               std::string routine, bool keep_trace = true);

  const trnProfile_t& c() const { return c_; }
  trn::Profile profile() const { return trn::Profile::from_c(c_); }
  const std::string& library() const { return library_; }
  const std::string& routine() const { return routine_; }
  const std::vector<std::shared_ptr<CapturedReport>>& reports() const { return reports_; }
  std::string plan() const;
  // The captured report the timeline and the Perfetto trace show (the last one the call modeled).
  const CapturedReport& timeline_report() const;  // throws trnsci.Error when no trace was kept

 private:
  trnProfile_t c_{};
  std::string library_, routine_;
  std::vector<std::shared_ptr<CapturedReport>> reports_;
};

// The profile of the last call made on this thread (trnsci.last_profile()).
void set_last_profile(std::shared_ptr<ProfileData> p);
std::shared_ptr<ProfileData> last_profile();

// RAII: observes every report finish_report models on this thread while alive.
class ReportCapture {
 public:
  explicit ReportCapture(bool keep_trace);
  ~ReportCapture();
  ReportCapture(const ReportCapture&) = delete;
  ReportCapture& operator=(const ReportCapture&) = delete;
  std::vector<std::shared_ptr<CapturedReport>> take() { return std::move(reports_); }

 private:
  static void observe(void* ctx, const trn::Report& r, const trn::ReportSettings& rs);
  bool keep_trace_;
  trn::ReportObserver previous_;
  std::vector<std::shared_ptr<CapturedReport>> reports_;
};

// ---- errors ------------------------------------------------------------------------------------

// Raises trnsci.errors.<class for status_name>(...) (throws py::error_already_set; needs the GIL).
// param: 1-based position of the illegal argument (0: none); message: the library's logged line.
[[noreturn]] void raise_status(std::string_view library, std::string_view routine, std::string_view status_name,
                               int status_code, int param, std::string_view message);
// Raises trnsci.InvalidArgumentError for an argument the binding rejects before any C call: `param`
// is the Python argument's 1-based position, `name` its name, `why` the reason.
[[noreturn]] void raise_argument(std::string_view routine, int param, std::string_view name, std::string_view why);

// The line the libraries logged last on this thread (their logger callbacks point here).
void clear_last_log();
std::string last_log();
void log_callback(const char* message);

// ---- C-API calls -------------------------------------------------------------------------------

// The emulation surface of one library (trncore.h TRN_EMULATION_API), as a traits type:
//   TRNSCI_PY_CSHIM_TRAITS(BlasApi, trnblas, trnblasHandle_t, trnblasStatus_t, TRNBLAS_STATUS_SUCCESS,
//                          trnblasGetStatusName, "trnblas");
#define TRNSCI_PY_CSHIM_TRAITS(Name, H, HandleT, StatusT, SuccessV, StatusNameFn, LibName)                          \
  struct Name {                                                                                                 \
    using Handle = HandleT;                                                                                     \
    using Status = StatusT;                                                                                     \
    static constexpr const char* kLibrary = LibName;                                                            \
    static constexpr Status kSuccess = SuccessV;                                                                \
    static const char* status_name(Status s) { return StatusNameFn(s); }                                        \
    static Status set_target(Handle h, int v) { return H##SetTarget(h, static_cast<trnTarget_t>(v)); }          \
    static Status set_numerics(Handle h, int v) { return H##SetNumericsProfile(h, static_cast<trnNumerics_t>(v)); } \
    static Status set_sr(Handle h, int on, unsigned long long seed) { return H##SetStochasticRounding(h, on, seed); } \
    static Status set_cores(Handle h, int v) { return H##SetNumCores(h, v); }                                    \
    static Status last_profile(Handle h, trnProfile_t* p) { return H##GetLastProfile(h, p); }                   \
    static Status last_param(Handle h, int* p) { return H##GetLastErrorParameter(h, p); }                       \
  }

// Raises the status of a failed call on handle h (nothing when st is success).
template <class L>
void check_status(typename L::Handle h, typename L::Status st, std::string_view routine) {
  if (st == L::kSuccess) return;
  int param = 0;
  L::last_param(h, &param);  // a handle the library does not know leaves param 0
  raise_status(L::kLibrary, routine, L::status_name(st), static_cast<int>(st), param, last_log());
}

// Applies trnsci.settings to a handle (each setter's status raised).
template <class L>
void apply_settings(typename L::Handle h, const EmuSettings& s) {
  check_status<L>(h, L::set_target(h, s.target), "settings(target)");
  check_status<L>(h, L::set_numerics(h, s.numerics), "settings(numerics)");
  check_status<L>(h, L::set_sr(h, s.stochastic_rounding ? 1 : 0, s.seed), "settings(stochastic_rounding)");
  check_status<L>(h, L::set_cores(h, s.cores), "settings(cores)");
}

// Runs body() (the C call(s), returning a status) with the GIL released and the reports captured;
// raises its status, else stores the call's Profile as the thread's last profile and returns it.
template <class L, class F>
std::shared_ptr<ProfileData> run_call(typename L::Handle h, const EmuSettings& s, std::string_view routine, F&& body) {
  ReportCapture capture(s.keep_trace);
  typename L::Status st;
  clear_last_log();
  {
    py::gil_scoped_release nogil;
    st = body();
  }
  check_status<L>(h, st, routine);
  trnProfile_t p{};
  check_status<L>(h, L::last_profile(h, &p), routine);
  auto prof = std::make_shared<ProfileData>(p, L::kLibrary, std::string(routine), capture.take());
  set_last_profile(prof);
  return prof;
}

// An owned C handle (a pointer, or cuFFT's int plan), destroyed by `destroy` at scope exit.
template <class H, class Destroy>
class Owned {
 public:
  Owned(H h, Destroy d) : h_(h), d_(d) {}
  ~Owned() { d_(h_); }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  H get() const { return h_; }

 private:
  H h_;
  Destroy d_;
};

// A library handle created by Create, with trnsci.settings applied, destroyed at scope exit.
template <class L, typename L::Status (*Create)(typename L::Handle*), typename L::Status (*Destroy)(typename L::Handle)>
class SettingsHandle {
 public:
  explicit SettingsHandle(const EmuSettings& s) : h_(create(), Destroy) { apply_settings<L>(h_.get(), s); }
  typename L::Handle get() const { return h_.get(); }

 private:
  static typename L::Handle create() {
    typename L::Handle p{};
    check_status<L>(p, Create(&p), "Create");
    return p;
  }
  Owned<typename L::Handle, typename L::Status (*)(typename L::Handle)> h_;
};

// The four specialisations of a per-element-type traits template Name<T> (T = float, double,
// std::complex<float>, std::complex<double>), their bodies given in that order.
#define TRNSCI_PY_FOUR_TYPES(Name, S, D, C, Z)  \
  template <>                                   \
  struct Name<float> {                          \
    S                                           \
  };                                            \
  template <>                                   \
  struct Name<double> {                         \
    D                                           \
  };                                            \
  template <>                                   \
  struct Name<std::complex<float>> {            \
    C                                           \
  };                                            \
  template <>                                   \
  struct Name<std::complex<double>> {           \
    Z                                           \
  };

// ---- numpy arrays ------------------------------------------------------------------------------

// Element kinds the bindings dispatch on.
enum class Kind { f32, f64, c64, c128, u16, other };
Kind kind_of(const py::array& a);
std::string dtype_name(const py::array& a);

// Where an argument sits in the Python call, for error messages and InvalidArgumentError.param.
struct Arg {
  std::string_view routine;
  int position;          // 1-based position in the Python signature
  std::string_view name;
};

// The array as it will be read: raises unless it is an ndarray of `ndim` dimensions (ndim < 0:
// any) whose layout is C-contiguous or, when allow_fortran, F-contiguous; never copies.
py::array checked_array(const py::handle& obj, const Arg& arg, int ndim, bool allow_fortran = true);
// Raises unless a's kind is `want` (named in the message).
void require_kind(const py::array& a, Kind want, const Arg& arg);
// Raises unless a's kind is the same as ref's (both operands of one call have one dtype).
void require_same_kind(const py::array& a, const py::array& ref, const Arg& arg);
// Raises unless a is writeable and C-contiguous (an output array the binding writes in place).
void require_writeable(const py::array& a, const Arg& arg);
// Integer extent as the C API's int (raises when it does not fit).
int as_int(std::int64_t v, const Arg& arg);

}  // namespace trnsci::py
