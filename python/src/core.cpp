// The root of trnsci._core: EmuSettings, Profile, last_profile(), the libraries' logger callbacks
// (their logged line becomes the exception message) and the translation of C++ emulator exceptions
// (trn::LimitError, trn::UsageError, ... thrown by bindings that call C++ directly) to trnsci.errors.
#include <pybind11/pybind11.h>

#include "common.hpp"
#include "trn/core/error.hpp"
#include "trn/core/hardware.hpp"
#include "trnblas.h"
#include "trnfft.h"
#include "trnrand.h"
#include "trnsolver.h"
#include "trnsparse.h"
#include "trntensor.h"

namespace trnsci::py {
namespace {

// Sets the Python error for a C++ exception (no throw: an exception translator's contract).
void set_cpp_error(const char* cls, const std::string& what) {
  py::object errors = py::module_::import("trnsci.errors");
  py::object exc = errors.attr(cls)(what);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr());
}

void translate(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const py::error_already_set&) {
    throw;
  } catch (const trn::NotSupportedError& e) {
    set_cpp_error("EmulatorNotSupportedError", e.what());
  } catch (const trn::LimitError& e) {
    set_cpp_error("LimitError", e.what());
  } catch (const trn::UsageError& e) {
    set_cpp_error("UsageError", e.what());
  } catch (const trn::Error& e) {
    set_cpp_error("EmulatorError", e.what());
  }
}

void install_log_callbacks() {
  trnblasSetLoggerCallback(&log_callback);
  trnfftSetLoggerCallback(&log_callback);
  trnrandSetLoggerCallback(&log_callback);
  trnsolverSetLoggerCallback(&log_callback);
  trnsparseSetLoggerCallback(&log_callback);
  trntensorSetLoggerCallback(&log_callback);
}

const Registrar kRoot("", [](py::module_& m) {
  install_log_callbacks();
  py::register_exception_translator(&translate);
  py::class_<EmuSettings>(m, "EmuSettings", "What trnsci.settings(...) holds; passed to every binding")
      .def(py::init<>())
      .def_readwrite("target", &EmuSettings::target)
      .def_readwrite("numerics", &EmuSettings::numerics)
      .def_readwrite("stochastic_rounding", &EmuSettings::stochastic_rounding)
      .def_readwrite("seed", &EmuSettings::seed)
      .def_readwrite("cores", &EmuSettings::cores)
      .def_readwrite("keep_trace", &EmuSettings::keep_trace);
  m.def("last_profile", &last_profile, "The Profile of the last call made on this thread (None before any)");
  m.def("hardware", [](const std::string& name) {
    trn::Generation g{};
    if (!trn::parse_generation(name, &g)) raise_argument("hardware", 1, "target", "unknown target '" + name + "'");
    const trn::HardwareSpec& h = trn::hardware_spec(g);
    py::dict d;
    d["name"] = std::string(h.name);
    d["nc_version"] = std::string(h.nc_version);
    d["target"] = static_cast<int>(g);
    d["pmax"] = h.pmax;
    d["sbuf_partition_bytes"] = h.sbuf_partition_bytes;
    d["psum_partition_bytes"] = h.psum_partition_bytes;
    d["tensor_ghz"] = h.tensor_ghz;
    d["tensor_peak_flops"] = h.tensor_peak_flops();
    d["cores_per_device"] = h.cores_per_device;
    return d;
  }, py::arg("target"), "The emulated generation's hardware table row (hardware.hpp)");
});

}  // namespace
}  // namespace trnsci::py
