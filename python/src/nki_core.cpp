// trnsci._core.nki: the thin binding of core's instruction API that trnsci.nki (python/trnsci/nki/)
// stands on. Every function here is one core call: allocation in the emulated SBUF/PSUM, an access
// pattern over an allocation or an HBM (numpy) array, or one instruction on the NeuronCore of the
// program being run. The NKI semantics (index expressions, dtype rules, return-value forms) live in
// Python; limits and capacity are checked by core, whose LimitError / UsageError reach Python with
// the instruction, operand and limit named (trnsci.errors.LimitError / UsageError, python/src/core.cpp).
//
// Programs: launch() runs the Python kernel once per SPMD program through trn::launch on the calling
// thread (host_threads = 1, the GIL held throughout); `current` is the core of the running program.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common.hpp"
#include "trn/core/access_pattern.hpp"
#include "trn/core/core.hpp"

namespace trnsci::py {
namespace {

trn::NeuronCore* g_current = nullptr;  // the core of the program launch() is running

trn::NeuronCore& current(const char* who) {
  if (g_current == nullptr)
    throw py::value_error(std::string("trnsci.nki: ") + who +
                          " called outside a kernel (call the @nki.jit kernel, or trnsci.nki.simulate)");
  return *g_current;
}

// Enum by its core name ("add", "exp", "bfloat16", "vector"): the names core prints in its errors.
template <class E>
E by_name(std::string_view s, int count, std::string_view (*name)(E), const char* what) {
  for (int i = 0; i < count; ++i)
    if (name(static_cast<E>(i)) == s) return static_cast<E>(i);
  throw py::value_error(std::string("trnsci.nki: unknown ") + what + " '" + std::string(s) + "'");
}
trn::AluOp alu(std::string_view s) {
  return by_name<trn::AluOp>(s, static_cast<int>(trn::AluOp::right_shift) + 1, trn::alu_op_name, "ALU operator");
}
trn::ActFunc act(std::string_view s) {
  return by_name<trn::ActFunc>(s, static_cast<int>(trn::ActFunc::reciprocal) + 1, trn::act_func_name,
                               "activation function");
}
trn::DType dtype(std::string_view s) { return by_name<trn::DType>(s, trn::kDTypeCount, trn::dtype_name, "dtype"); }
trn::Engine engine(std::string_view s) {  // nisa.engine names
  if (s == "vector") return trn::Engine::vector;
  if (s == "scalar") return trn::Engine::scalar;
  if (s == "gpsimd") return trn::Engine::gpsimd;
  if (s == "tensor") return trn::Engine::tensor;
  throw py::value_error("trnsci.nki: engine '" + std::string(s) + "' cannot run this instruction");
}
trn::Generation generation(const std::string& s) {
  trn::Generation g{};
  if (!trn::parse_generation(s, &g)) raise_argument("trnsci.nki", 1, "target", "unknown target '" + s + "'");
  return g;
}

// A scalar operand: a Python number (fp32 immediate) or a [P, 1] tile.
trn::ScalarOperand scalar(const py::object& o) {
  if (py::isinstance<trn::Tile>(o)) return trn::ScalarOperand(o.cast<trn::Tile>());
  return trn::ScalarOperand(o.cast<float>());
}

std::vector<std::int64_t> free_shape(const trn::Tile& t) { return {t.size.begin(), t.size.begin() + t.ndim}; }

// An HBM (numpy) array as one row of numel elements: the root of every HBM access pattern. The
// Python tensor keeps the array alive as long as a tile of it exists.
trn::Tile hbm_root(const py::buffer& array, const std::string& dtype_name) {
  const py::buffer_info info = array.request(/*writable=*/true);
  const trn::DType dt = dtype(dtype_name);
  if (info.itemsize != trn::dtype_size(dt))
    throw py::value_error("trnsci.nki: HBM array of " + std::to_string(info.itemsize) + "-byte elements labelled " +
                          dtype_name);
  std::int64_t expect = info.itemsize;
  for (auto d = info.ndim; d-- > 0;) {
    if (info.shape[static_cast<std::size_t>(d)] != 1 && info.strides[static_cast<std::size_t>(d)] != expect)
      throw py::value_error("trnsci.nki: HBM arrays must be C-contiguous");
    expect *= info.shape[static_cast<std::size_t>(d)];
  }
  const std::int64_t n = info.size;
  return trn::HbmTensor::wrap(info.ptr, dt, {1, n > 0 ? n : 1}).tile(0, 1, 0, n > 0 ? n : 1);
}

trn::Tile alloc(const std::string& space, const std::string& dtype_name, std::int32_t partitions,
                const std::vector<std::int64_t>& shape, const std::string& name) {
  trn::NeuronCore& nc = current("nl.ndarray");
  trn::OnChipMemory& mem = space == "psum" ? nc.psum() : nc.sbuf();
  const trn::DType dt = dtype(dtype_name);
  switch (shape.size()) {
    case 1: return mem.alloc(dt, partitions, {shape[0]}, name);
    case 2: return mem.alloc(dt, partitions, {shape[0], shape[1]}, name);
    case 3: return mem.alloc(dt, partitions, {shape[0], shape[1], shape[2]}, name);
    case 4: return mem.alloc(dt, partitions, {shape[0], shape[1], shape[2], shape[3]}, name);
    default:
      throw trn::LimitError(std::string(trn::mem_space_name(mem.space())) + " alloc", name, "free dimensions",
                            static_cast<std::int64_t>(shape.size()), "access-pattern dims", trn::kMaxFreeDims,
                            nc.hw().name);
  }
}

void release(const trn::Tile& t) {
  if (g_current == nullptr) return;  // the program ended: its memory is gone with it
  (t.mem == trn::MemSpace::psum ? g_current->psum() : g_current->sbuf()).free(t);
}

// Runs kernel(pid0, pid1, pid2) once per program of `grid`; returns the launch's Profile (the one
// Report finish_report builds from the merged trace).
ProfileData launch(const py::function& kernel, std::array<int, 3> grid, const EmuSettings& es, bool execute,
                   const std::string& name) {
  trn::EmulatorSettings s;
  s.target = static_cast<trn::Generation>(es.target);
  s.numerics = static_cast<trn::Numerics>(es.numerics);
  s.stochastic_rounding = es.stochastic_rounding;
  s.sr_seed = es.seed;
  s.num_cores = es.cores;
  s.host_threads = 1;  // the kernel is Python: programs run one after another under the GIL
  s.timing_only = !execute;
  struct Reset {
    ~Reset() { g_current = nullptr; }
  } reset;
  trn::LaunchResult r = trn::launch(s.launch_config(grid), [&](trn::NeuronCore& nc) {
    g_current = &nc;
    kernel(nc.program_id(0), nc.program_id(1), nc.program_id(2));
    g_current = nullptr;
  });
  trn::Report report;
  const trn::ReportSettings rs = trn::ReportSettings::of(s);
  trn::finish_report(report, std::move(r.trace), rs);
  return ProfileData::of_report(report, rs, "nki", name, es.keep_trace);
}

void bind_tile(py::module_& m) {
  py::class_<trn::Tile>(m, "Tile", "A [partition, free...] view of SBUF, PSUM or HBM (core's trn::Tile).")
      .def_property_readonly("mem", [](const trn::Tile& t) { return std::string(trn::mem_space_name(t.mem)); })
      .def_property_readonly("dtype", [](const trn::Tile& t) { return std::string(trn::dtype_name(t.dtype)); })
      .def_property_readonly("partitions", [](const trn::Tile& t) { return t.partitions; })
      .def_property_readonly("partition_start", [](const trn::Tile& t) { return t.partition_start; })
      .def_property_readonly("free_shape", &free_shape)
      .def_property_readonly("free_size", &trn::Tile::free_size)
      .def("pattern",
           [](const trn::Tile& t, std::int32_t first, std::int32_t count, std::int64_t pstep, std::int64_t offset,
              const std::vector<std::array<std::int64_t, 2>>& dims) {
             return trn::access_pattern(t, first, count, pstep, offset, dims);
           },
           py::arg("first"), py::arg("count"), py::arg("partition_step"), py::arg("offset"), py::arg("dims"))
      .def("broadcast_partitions", &trn::Tile::broadcast_partitions)
      .def("bitcast", [](const trn::Tile& t, const std::string& d) { return t.bitcast(dtype(d)); })
      .def("read", [](const trn::Tile& t) {
        // Host read-back of an on-chip tile (the test's window, not an instruction): fp32 values.
        py::array_t<float> out({static_cast<py::ssize_t>(t.partitions), static_cast<py::ssize_t>(t.free_size())});
        auto o = out.mutable_unchecked<2>();
        const trn::FloatFormat f = trn::is_float(t.dtype) && t.dtype != trn::DType::f32 && t.dtype != trn::DType::tf32
                                       ? trn::float_format(t.dtype)
                                       : trn::FloatFormat{};
        for (std::int32_t p = 0; p < t.partitions; ++p)
          for (std::int64_t i = 0; i < t.free_size(); ++i) {
            const std::byte* a = t.at(p, i);
            float v = 0;
            switch (t.dtype) {
              case trn::DType::f32: case trn::DType::tf32: std::memcpy(&v, a, 4); break;
              case trn::DType::i32: { std::int32_t x; std::memcpy(&x, a, 4); v = static_cast<float>(x); break; }
              case trn::DType::u32: { std::uint32_t x; std::memcpy(&x, a, 4); v = static_cast<float>(x); break; }
              case trn::DType::bf16: case trn::DType::f16: {
                std::uint16_t x; std::memcpy(&x, a, 2); v = trn::decode_float(f, x); break;
              }
              case trn::DType::i16: { std::int16_t x; std::memcpy(&x, a, 2); v = x; break; }
              case trn::DType::u16: { std::uint16_t x; std::memcpy(&x, a, 2); v = x; break; }
              case trn::DType::i8: v = static_cast<float>(static_cast<std::int8_t>(*a)); break;
              case trn::DType::u8: v = static_cast<float>(static_cast<std::uint8_t>(*a)); break;
              default: v = trn::decode_float(f, static_cast<std::uint8_t>(*a)); break;
            }
            o(p, i) = v;
          }
        return out;
      });
}

void bind_instructions(py::module_& m) {
  m.def("dma_copy", [](const trn::Tile& d, const trn::Tile& s) { current("dma_copy").dma_copy(d, s); });
  m.def("dma_transpose", [](const trn::Tile& d, const trn::Tile& s) { current("dma_transpose").dma_transpose(d, s); });
  m.def("nc_matmul", [](const trn::Tile& d, const trn::Tile& st, const trn::Tile& mv, bool acc, bool double_row) {
    current("nc_matmul").nc_matmul(d, st, mv, acc, double_row ? trn::MatmulPerfMode::double_row : trn::MatmulPerfMode::none);
  });
  m.def("nc_transpose", [](const trn::Tile& d, const trn::Tile& s, const std::string& e) {
    current("nc_transpose").nc_transpose(d, s, engine(e));
  });
  m.def("tensor_tensor", [](const trn::Tile& d, const trn::Tile& a, const trn::Tile& b, const std::string& op,
                            const std::string& e) { current("tensor_tensor").tensor_tensor(d, a, b, alu(op), engine(e)); });
  m.def("tensor_scalar", [](const trn::Tile& d, const trn::Tile& s, const std::string& op0, const py::object& s0,
                            const std::string& op1, const py::object& s1, const std::string& e, bool rev0, bool rev1) {
    current("tensor_scalar").tensor_scalar(d, s, alu(op0), scalar(s0), alu(op1), scalar(s1), engine(e), rev0, rev1);
  });
  m.def("tensor_reduce", [](const trn::Tile& d, const trn::Tile& s, const std::string& op, bool negate) {
    current("tensor_reduce").tensor_reduce(d, s, alu(op), negate);
  });
  m.def("tensor_tensor_scan", [](const trn::Tile& d, const trn::Tile& d0, const trn::Tile& d1, const py::object& init,
                                 const std::string& op0, const std::string& op1) {
    current("tensor_tensor_scan").tensor_tensor_scan(d, d0, d1, scalar(init), alu(op0), alu(op1));
  });
  m.def("tensor_copy", [](const trn::Tile& d, const trn::Tile& s, const std::string& e) {
    current("tensor_copy").tensor_copy(d, s, engine(e));
  });
  m.def("memset", [](const trn::Tile& d, float v, const std::string& e) { current("memset").memset(d, v, engine(e)); });
  m.def("activation", [](const trn::Tile& d, const trn::Tile& s, const std::string& f, const py::object& bias,
                         const py::object& scale, std::optional<trn::Tile> reduce_dst) {
    current("activation").activation(d, s, act(f), scalar(bias), scalar(scale), reduce_dst ? &*reduce_dst : nullptr);
  });
  m.def("reciprocal", [](const trn::Tile& d, const trn::Tile& s) { current("reciprocal").reciprocal(d, s); });
  m.def("bn_stats", [](const trn::Tile& d, const trn::Tile& s) { current("bn_stats").bn_stats(d, s); });
  m.def("bn_aggr", [](const trn::Tile& d, const trn::Tile& s) { current("bn_aggr").bn_aggr(d, s); });
  m.def("iota", [](const trn::Tile& d, const std::vector<std::array<std::int64_t, 2>>& pattern, std::int64_t offset,
                   std::int64_t cm) { current("iota").iota(d, pattern, offset, cm); });
  m.def("affine_select", [](const trn::Tile& d, const std::vector<std::array<std::int64_t, 2>>& pattern,
                            std::int64_t offset, std::int64_t cm, const std::string& cmp, const trn::Tile& on_true,
                            float on_false) {
    current("affine_select").affine_select(d, pattern, offset, cm, alu(cmp), on_true, on_false);
  });
}

const Registrar kNki("nki", [](py::module_& m) {
  m.doc() = "core's instruction API, one call per instruction (trnsci.nki, docs/nki.md)";
  bind_tile(m);
  bind_instructions(m);
  m.def("hbm_root", &hbm_root, py::arg("array"), py::arg("dtype"));
  m.def("alloc", &alloc, py::arg("space"), py::arg("dtype"), py::arg("partitions"), py::arg("free_shape"),
        py::arg("name"));
  m.def("free", &release);
  m.def("in_kernel", [] { return g_current != nullptr; });
  m.def("program_id", [](int axis) { return current("nl.program_id").program_id(axis); });
  m.def("num_programs", [](int axis) { return current("nl.num_programs").num_programs(axis); });
  m.def("instruction_count", [] { return current("instruction_count").instruction_count(); });
  m.def("tile_size", [](const std::string& target) {
    const trn::HardwareSpec& hw = trn::hardware_spec(generation(target));
    py::dict d;
    d["pmax"] = hw.pmax;
    d["psum_fmax"] = hw.psum_bank_bytes / 4;
    d["gemm_stationary_fmax"] = hw.gemm_stationary_fmax;
    d["gemm_moving_fmax"] = hw.gemm_moving_fmax;
    d["bn_stats_fmax"] = hw.bn_stats_fmax;
    d["psum_num_banks"] = hw.psum_banks;
    d["sbuf_partition_bytes"] = hw.sbuf_partition_bytes;
    d["psum_partition_bytes"] = hw.psum_partition_bytes;
    d["tensor_transpose_fp32_only"] = !hw.tensor_transpose_bit_accurate;
    return d;
  });
  m.def("launch", &launch, py::arg("kernel"), py::arg("grid"), py::arg("settings"), py::arg("execute"),
        py::arg("name"));
});

}  // namespace
}  // namespace trnsci::py
