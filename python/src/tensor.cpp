// trnsci._core.tensor: numpy's einsum through trntensorEinsum (trntensor.h), operands read in place
// with their numpy strides (any strides: the C API takes them), the output a new C-ordered array.
// python/trnsci/tensor.py parses the subscripts (numpy's own parser) for the output shape.
#include <vector>

#include "common.hpp"
#include "trntensor.h"

namespace trnsci::py {
namespace {
using namespace pybind11::literals;

TRNSCI_PY_CSHIM_TRAITS(TensorApi, trntensor, trntensorHandle_t, trntensorStatus_t, TRNTENSOR_STATUS_SUCCESS,
                       trntensorGetErrorString, "trntensor");

using Handle = SettingsHandle<TensorApi, &trntensorCreate, &trntensorDestroy>;

// The operands as the C API takes them (shapes and strides in elements, kept alive here).
struct Operands {
  std::vector<py::array> arrays;
  std::vector<std::vector<std::int64_t>> shapes, strides;
  std::vector<trntensorEinsumOperand_t> ops;
  trntensorDataType_t type = TRN_R_32F;
};

Operands operands(const py::sequence& seq) {
  Operands o;
  const auto n = py::len(seq);
  if (n < 1) raise_argument("einsum", 2, "operands", "at least one operand");
  for (std::size_t i = 0; i < n; ++i) {
    const Arg arg{"einsum", static_cast<int>(i) + 2, "operand"};
    if (!py::isinstance<py::array>(seq[i])) raise_argument(arg.routine, arg.position, arg.name, "expected a numpy.ndarray");
    py::array a = py::reinterpret_borrow<py::array>(seq[i]);
    if (a.dtype().byteorder() == '>') raise_argument(arg.routine, arg.position, arg.name, "byte-swapped arrays are not supported");
    const Kind k = kind_of(a);
    if (k != Kind::f32 && k != Kind::f64 && k != Kind::c64 && k != Kind::c128)
      raise_argument(arg.routine, arg.position, arg.name, "unsupported dtype " + dtype_name(a) + " (float32/64, complex64/128)");
    if (i > 0) require_same_kind(a, o.arrays[0], arg);
    std::vector<std::int64_t> shape(static_cast<std::size_t>(a.ndim())), strides(shape.size());
    for (py::ssize_t d = 0; d < a.ndim(); ++d) {
      if (a.strides(d) % a.itemsize() != 0)
        raise_argument(arg.routine, arg.position, arg.name, "strides are not a multiple of the element size");
      shape[static_cast<std::size_t>(d)] = a.shape(d);
      strides[static_cast<std::size_t>(d)] = a.strides(d) / a.itemsize();
    }
    o.arrays.push_back(a);
    o.shapes.push_back(std::move(shape));
    o.strides.push_back(std::move(strides));
    o.type = k == Kind::f32 ? TRN_R_32F : k == Kind::f64 ? TRN_R_64F : k == Kind::c64 ? TRN_C_32F : TRN_C_64F;
  }
  for (std::size_t i = 0; i < n; ++i)
    o.ops.push_back({o.arrays[i].data(), static_cast<std::int32_t>(o.shapes[i].size()), o.shapes[i].data(), o.strides[i].data()});
  return o;
}

trntensorComputeDescriptor_t compute_of(const py::object& mode, trntensorDataType_t type) {
  if (mode.is_none()) return (type == TRN_R_64F || type == TRN_C_64F) ? TRNTENSOR_COMPUTE_DESC_64F : TRNTENSOR_COMPUTE_DESC_32F;
  const std::string m = mode.cast<std::string>();
  if (m == "fp32") return TRNTENSOR_COMPUTE_DESC_32F;
  if (m == "fp64") return TRNTENSOR_COMPUTE_DESC_64F;
  if (m == "bf16") return TRNTENSOR_COMPUTE_DESC_16BF;
  if (m == "fp16") return TRNTENSOR_COMPUTE_DESC_16F;
  if (m == "tf32") return TRNTENSOR_COMPUTE_DESC_TF32;
  if (m == "3xtf32") return TRNTENSOR_COMPUTE_DESC_3XTF32;
  if (m == "bf16x9") return TRNTENSOR_COMPUTE_DESC_9X16BF;
  raise_argument("einsum", 0, "mode", "unknown mode '" + m + "' (fp32, fp64, bf16, fp16, tf32, 3xtf32, bf16x9)");
}

py::tuple einsum(const std::string& subscripts, const py::sequence& seq, const std::vector<std::int64_t>& out_shape,
                 const py::object& mode, int path_mode, const EmuSettings& s) {
  Operands o = operands(seq);
  py::array out(o.arrays[0].dtype(), std::vector<py::ssize_t>(out_shape.begin(), out_shape.end()));
  const trntensorComputeDescriptor_t desc = compute_of(mode, o.type);
  Handle h(s);
  auto p = run_call<TensorApi>(h.get(), s, "einsum", [&] {
    return trntensorEinsum(h.get(), subscripts.c_str(), static_cast<std::int32_t>(o.ops.size()), o.ops.data(),
                           out.mutable_data(), static_cast<std::int32_t>(out_shape.size()), out_shape.data(), nullptr, o.type,
                           desc, static_cast<trntensorEinsumPath_t>(path_mode));
  });
  return py::make_tuple(out, p);
}

py::dict einsum_path(const std::string& subscripts, const py::sequence& seq, int path_mode, const EmuSettings& s) {
  Operands o = operands(seq);
  Handle h(s);
  std::vector<std::int32_t> path(2 * std::max<std::size_t>(o.ops.size(), 1));
  double naive = 0, optimized = 0, largest = 0;
  trntensorStatus_t st;
  clear_last_log();
  {
    py::gil_scoped_release nogil;
    st = trntensorEinsumPath(h.get(), subscripts.c_str(), static_cast<std::int32_t>(o.ops.size()), o.ops.data(),
                             static_cast<trntensorEinsumPath_t>(path_mode), path.data(), &naive, &optimized, &largest);
  }
  check_status<TensorApi>(h.get(), st, "einsum_path");
  py::list steps;
  for (std::size_t i = 0; i + 1 < o.ops.size(); ++i) steps.append(py::make_tuple(path[2 * i], path[2 * i + 1]));
  py::dict d;
  d["path"] = steps;
  d["naive_flops"] = naive;
  d["optimized_flops"] = optimized;
  d["largest_intermediate"] = largest;
  return d;
}

const Registrar kTensor("tensor", [](py::module_& m) {
  m.def("einsum", &einsum, "subscripts"_a, "operands"_a, "out_shape"_a, "mode"_a, "path_mode"_a, "settings"_a);
  m.def("einsum_path", &einsum_path, "subscripts"_a, "operands"_a, "path_mode"_a, "settings"_a);
});

}  // namespace
}  // namespace trnsci::py
