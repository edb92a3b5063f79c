// The binding kit (common.hpp): registrar, errors, logged lines, report capture, array checks.
#include "common.hpp"

#include <limits>
#include <mutex>

namespace trnsci::py {

// ---- registrar -----------------------------------------------------------------------------------

namespace {
std::vector<std::pair<std::string, Registrar::Fn>>& registry() {
  static std::vector<std::pair<std::string, Registrar::Fn>> r;
  return r;
}
}  // namespace

Registrar::Registrar(std::string name, Fn fn) { registry().emplace_back(std::move(name), std::move(fn)); }

void Registrar::register_all(py::module_& root) {
  for (auto& [name, fn] : registry()) {
    if (name.empty()) {
      fn(root);
      continue;
    }
    py::module_ sub = py::hasattr(root, name.c_str()) ? py::module_(root.attr(name.c_str()))
                                                      : root.def_submodule(name.c_str());
    fn(sub);
  }
}

// ---- logged lines and errors -----------------------------------------------------------------------

namespace {
thread_local std::string t_last_log;
thread_local std::shared_ptr<ProfileData> t_last_profile;
}  // namespace

void clear_last_log() { t_last_log.clear(); }
std::string last_log() { return t_last_log; }
void log_callback(const char* message) {
  if (message != nullptr) t_last_log = message;
}

void set_last_profile(std::shared_ptr<ProfileData> p) { t_last_profile = std::move(p); }
std::shared_ptr<ProfileData> last_profile() { return t_last_profile; }

[[noreturn]] void raise_status(std::string_view library, std::string_view routine, std::string_view status_name,
                               int status_code, int param, std::string_view message) {
  py::object errors = py::module_::import("trnsci.errors");
  py::object exc = errors.attr("from_status")(std::string(library), std::string(routine), std::string(status_name),
                                              status_code, param, std::string(message));
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr());
  throw py::error_already_set();
}

[[noreturn]] void raise_argument(std::string_view routine, int param, std::string_view name, std::string_view why) {
  py::object errors = py::module_::import("trnsci.errors");
  py::object exc = errors.attr("InvalidArgumentError")(std::string(routine), param, std::string(name), std::string(why));
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr());
  throw py::error_already_set();
}

// ---- report capture ------------------------------------------------------------------------------

ReportCapture::ReportCapture(bool keep_trace)
    : keep_trace_(keep_trace), previous_(trn::set_thread_report_observer({&ReportCapture::observe, this})) {}

ReportCapture::~ReportCapture() { trn::set_thread_report_observer(previous_); }

void ReportCapture::observe(void* ctx, const trn::Report& r, const trn::ReportSettings& rs) {
  auto* self = static_cast<ReportCapture*>(ctx);
  auto c = std::make_shared<CapturedReport>();
  if (self->keep_trace_) c->trace = r.trace;
  c->settings = rs;
  c->plan = r.plan;
  c->profile = r.profile;
  self->reports_.push_back(std::move(c));
}

ProfileData::ProfileData(const trnProfile_t& p, std::string library, std::string routine,
                         std::vector<std::shared_ptr<CapturedReport>> reports)
    : c_(p), library_(std::move(library)), routine_(std::move(routine)), reports_(std::move(reports)) {}

ProfileData ProfileData::of_report(const trn::Report& r, const trn::ReportSettings& rs, std::string library,
                                   std::string routine, bool keep_trace) {
  auto c = std::make_shared<CapturedReport>();
  if (keep_trace) c->trace = r.trace;
  c->settings = rs;
  c->plan = r.plan;
  c->profile = r.profile;
  return ProfileData(r.profile.to_c(), std::move(library), std::move(routine), {std::move(c)});
}

std::string ProfileData::plan() const {
  std::string s;
  for (const auto& r : reports_) {
    if (r->plan.empty()) continue;
    if (!s.empty()) s += '\n';
    s += r->plan;
  }
  return s;
}

const CapturedReport& ProfileData::timeline_report() const {
  for (auto it = reports_.rbegin(); it != reports_.rend(); ++it)
    if (!(*it)->trace.instructions.empty()) return **it;
  raise_status(library_, routine_ + ".to_perfetto", "TRNSCI_PY_NO_TRACE", 0, 0,
               "no instruction trace was kept for this call (trnsci.settings(keep_trace=False), or the call "
               "recorded no instructions)");
}

// ---- arrays --------------------------------------------------------------------------------------

Kind kind_of(const py::array& a) {
  const py::dtype dt = a.dtype();
  if (dt.is(py::dtype::of<float>())) return Kind::f32;
  if (dt.is(py::dtype::of<double>())) return Kind::f64;
  if (dt.is(py::dtype::of<std::complex<float>>())) return Kind::c64;
  if (dt.is(py::dtype::of<std::complex<double>>())) return Kind::c128;
  if (dt.is(py::dtype::of<std::uint16_t>())) return Kind::u16;
  const char k = dt.kind();
  const auto size = dt.itemsize();
  if (k == 'f' && size == 4) return Kind::f32;
  if (k == 'f' && size == 8) return Kind::f64;
  if (k == 'c' && size == 8) return Kind::c64;
  if (k == 'c' && size == 16) return Kind::c128;
  if (k == 'u' && size == 2) return Kind::u16;
  return Kind::other;
}

std::string dtype_name(const py::array& a) { return a.dtype().attr("name").cast<std::string>(); }

namespace {
const char* kind_name(Kind k) {
  switch (k) {
    case Kind::f32: return "float32";
    case Kind::f64: return "float64";
    case Kind::c64: return "complex64";
    case Kind::c128: return "complex128";
    case Kind::u16: return "uint16 (bfloat16 bits)";
    case Kind::other: break;
  }
  return "unsupported";
}
}  // namespace

py::array checked_array(const py::handle& obj, const Arg& arg, int ndim, bool allow_fortran) {
  if (!py::isinstance<py::array>(obj))
    raise_argument(arg.routine, arg.position, arg.name,
                   std::string("expected a numpy.ndarray, got ") + py::str(py::type::of(obj)).cast<std::string>());
  py::array a = py::reinterpret_borrow<py::array>(obj);
  if (ndim >= 0 && a.ndim() != ndim)
    raise_argument(arg.routine, arg.position, arg.name,
                   "expected " + std::to_string(ndim) + " dimension(s), got " + std::to_string(a.ndim()));
  if (a.dtype().byteorder() == '>')
    raise_argument(arg.routine, arg.position, arg.name, "byte-swapped (big-endian) arrays are not supported");
  const bool c = (a.flags() & py::array::c_style) != 0, f = (a.flags() & py::array::f_style) != 0;
  if (!c && !(allow_fortran && f))
    raise_argument(arg.routine, arg.position, arg.name,
                   std::string("array is not contiguous (strides do not describe a dense ") +
                       (allow_fortran ? "C- or Fortran-order" : "C-order") +
                       " layout); pass numpy.ascontiguousarray(x)");
  if ((reinterpret_cast<std::uintptr_t>(a.data()) % static_cast<std::uintptr_t>(a.itemsize())) != 0)
    raise_argument(arg.routine, arg.position, arg.name, "array data is not aligned to its element size");
  return a;
}

void require_kind(const py::array& a, Kind want, const Arg& arg) {
  if (kind_of(a) != want)
    raise_argument(arg.routine, arg.position, arg.name,
                   std::string("expected dtype ") + kind_name(want) + ", got " + dtype_name(a));
}

void require_same_kind(const py::array& a, const py::array& ref, const Arg& arg) {
  if (kind_of(a) != kind_of(ref))
    raise_argument(arg.routine, arg.position, arg.name,
                   "dtype " + dtype_name(a) + " differs from the first operand's " + dtype_name(ref));
}

void require_writeable(const py::array& a, const Arg& arg) {
  if (!a.writeable()) raise_argument(arg.routine, arg.position, arg.name, "array is read-only");
  if ((a.flags() & py::array::c_style) == 0)
    raise_argument(arg.routine, arg.position, arg.name, "output array must be C-contiguous");
}

int as_int(std::int64_t v, const Arg& arg) {
  if (v > std::numeric_limits<int>::max())
    raise_argument(arg.routine, arg.position, arg.name, "extent " + std::to_string(v) + " exceeds the C API's int");
  return static_cast<int>(v);
}

}  // namespace trnsci::py
