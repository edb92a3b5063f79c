// trnsci._core.fft: numpy bindings of trnfft's C API (trnfft.h). One batched MakePlanMany64 over the
// trailing `rank` (1..3) dimensions of a C-contiguous array, natural layout (inembed NULL): the batch
// is the product of the leading dimensions. python/trnsci/fft.py moves the requested axes to the end,
// pads or crops to n / s, applies numpy's norm= and splits transforms over more than 3 axes.
#include <complex>
#include <vector>

#include "common.hpp"
#include "trnfft.h"

namespace trnsci::py {
namespace {

TRNSCI_PY_CSHIM_TRAITS(FftApi, trnfft, trnfftHandle, trnfftResult, TRNFFT_SUCCESS, trnfftGetStatusName, "trnfft");

enum class Xform { c2c, r2c, c2r };

// Runs one transform of x over its last `rank` dimensions. c2r: n_last is the real output's last size.
py::tuple transform(const py::object& X, int rank, Xform kind, int direction, std::int64_t n_last, bool bf16,
                    const EmuSettings& s) {
  const char* routine = kind == Xform::c2c ? "fft" : kind == Xform::r2c ? "rfft" : "irfft";
  py::array x = checked_array(X, {routine, 1, "x"}, -1, false);
  if (rank < 1 || rank > 3 || x.ndim() < rank)
    raise_argument(routine, 2, "rank", "transform rank must be 1..3 and at most x.ndim");
  const Kind k = kind_of(x);
  const bool dbl = k == Kind::f64 || k == Kind::c128;
  const bool want_complex = kind != Xform::r2c;
  if ((want_complex && k != Kind::c64 && k != Kind::c128) || (!want_complex && k != Kind::f32 && k != Kind::f64))
    raise_argument(routine, 1, "x",
                   std::string("expected ") + (want_complex ? "complex64 or complex128" : "float32 or float64") +
                       ", got " + dtype_name(x));
  // Logical sizes of the transform (row-major, n[0] slowest) and the batch.
  std::vector<long long> n(static_cast<std::size_t>(rank));
  const int lead = static_cast<int>(x.ndim()) - rank;
  for (int i = 0; i < rank; ++i) n[static_cast<std::size_t>(i)] = x.shape(lead + i);
  if (kind == Xform::c2r) {
    if (x.shape(x.ndim() - 1) != n_last / 2 + 1)
      raise_argument(routine, 4, "n", "the last dimension must be n // 2 + 1 for the real size n");
    n.back() = n_last;
  }
  long long batch = 1;
  for (int i = 0; i < lead; ++i) batch *= x.shape(i);
  for (long long v : n)
    if (v < 1) raise_argument(routine, 1, "x", "transform sizes must be >= 1");
  std::vector<py::ssize_t> oshape(x.shape(), x.shape() + x.ndim());
  py::dtype odt = x.dtype();
  if (kind == Xform::r2c) {
    oshape.back() = n.back() / 2 + 1;
    odt = dbl ? py::dtype::of<std::complex<double>>() : py::dtype::of<std::complex<float>>();
  } else if (kind == Xform::c2r) {
    oshape.back() = n_last;
    odt = dbl ? py::dtype::of<double>() : py::dtype::of<float>();
  }
  py::array out(odt, oshape);
  if (batch == 0) return py::make_tuple(out, py::none());
  const trnfftType type = kind == Xform::c2c ? (dbl ? TRNFFT_Z2Z : TRNFFT_C2C)
                          : kind == Xform::r2c ? (dbl ? TRNFFT_D2Z : TRNFFT_R2C)
                                               : (dbl ? TRNFFT_Z2D : TRNFFT_C2R);
  trnfftHandle plan = 0;
  check_status<FftApi>(plan, trnfftCreate(&plan), "trnfftCreate");
  Owned<trnfftHandle, trnfftResult (*)(trnfftHandle)> owned(plan, &trnfftDestroy);
  apply_settings<FftApi>(plan, s);
  if (bf16) check_status<FftApi>(plan, trnfftSetPlanPrecision(plan, TRNFFT_PRECISION_BF16), "trnfftSetPlanPrecision");
  trnfftResult st;
  {
    py::gil_scoped_release nogil;  // MakePlan runs the transform once in timing-only mode
    std::size_t work = 0;
    st = trnfftMakePlanMany64(plan, rank, n.data(), nullptr, 1, 0, nullptr, 1, 0, type, batch, &work);
  }
  check_status<FftApi>(plan, st, "trnfftMakePlanMany64");
  void* in = const_cast<void*>(x.data());  // C2R never modifies its input (docs/trnfft.md)
  void* o = out.mutable_data();
  auto p = run_call<FftApi>(plan, s, routine, [&] {
    switch (type) {
      case TRNFFT_C2C: return trnfftExecC2C(plan, static_cast<trnfftComplex*>(in), static_cast<trnfftComplex*>(o), direction);
      case TRNFFT_Z2Z:
        return trnfftExecZ2Z(plan, static_cast<trnfftDoubleComplex*>(in), static_cast<trnfftDoubleComplex*>(o), direction);
      case TRNFFT_R2C: return trnfftExecR2C(plan, static_cast<trnfftReal*>(in), static_cast<trnfftComplex*>(o));
      case TRNFFT_D2Z: return trnfftExecD2Z(plan, static_cast<trnfftDoubleReal*>(in), static_cast<trnfftDoubleComplex*>(o));
      case TRNFFT_C2R: return trnfftExecC2R(plan, static_cast<trnfftComplex*>(in), static_cast<trnfftReal*>(o));
      case TRNFFT_Z2D: return trnfftExecZ2D(plan, static_cast<trnfftDoubleComplex*>(in), static_cast<trnfftDoubleReal*>(o));
    }
    return TRNFFT_INVALID_TYPE;
  });
  return py::make_tuple(out, p);
}

const Registrar kFft("fft", [](py::module_& m) {
  using namespace pybind11::literals;
  m.def("c2c", [](const py::object& x, int rank, int direction, bool bf16, const EmuSettings& s) {
    return transform(x, rank, Xform::c2c, direction, 0, bf16, s);
  }, "x"_a, "rank"_a, "direction"_a, "bf16"_a, "settings"_a, "Unnormalised C2C/Z2Z over the last rank dims");
  m.def("r2c", [](const py::object& x, int rank, bool bf16, const EmuSettings& s) {
    return transform(x, rank, Xform::r2c, TRNFFT_FORWARD, 0, bf16, s);
  }, "x"_a, "rank"_a, "bf16"_a, "settings"_a, "R2C/D2Z over the last rank dims");
  m.def("c2r", [](const py::object& x, int rank, std::int64_t n, bool bf16, const EmuSettings& s) {
    return transform(x, rank, Xform::c2r, TRNFFT_INVERSE, n, bf16, s);
  }, "x"_a, "rank"_a, "n"_a, "bf16"_a, "settings"_a, "Unnormalised C2R/Z2D over the last rank dims (real last size n)");
});

}  // namespace
}  // namespace trnsci::py
