// trnsci._core.blas: numpy bindings of trnblas's C API (trnblas.h), row-major in, row-major out.
//
// A C-contiguous (row-major) r x c array is, to the column-major C API, the matrix X^T with ld = c;
// an F-contiguous one is X with ld = r. So every routine runs on the arrays as they are (zero copy):
// C = op(A) op(B) (row-major) is C^T = op(B)^T op(A)^T (column-major) with the operands swapped, the
// transposes chosen per layout. python/trnsci/blas.py adds the keyword interface and the conjugate
// transposes that need a copy.
#include <complex>
#include <cstring>

#include "common.hpp"
#include "trn/blas/modes.hpp"
#include "trn/core/dtype.hpp"
#include "trnblas.h"

namespace trnsci::py {
namespace {
using namespace pybind11::literals;

TRNSCI_PY_CSHIM_TRAITS(BlasApi, trnblas, trnblasHandle_t, trnblasStatus_t, TRNBLAS_STATUS_SUCCESS, trnblasGetStatusName,
                       "trnblas");

using Handle = SettingsHandle<BlasApi, &trnblasCreate, &trnblasDestroy>;

// The typed C entry points of one element type (P: the S / D / C / Z of their names; the dot
// products: dot, dot for real types, dotu, dotc for complex ones).
#define TRNSCI_PY_BLAS_FNS(P, Dot, Dotc, CType, TypeV) \
  using C = CType;                                      \
  static constexpr trnDataType_t kType = TypeV;         \
  static constexpr auto gemm = &trnblas##P##gemm_64;    \
  static constexpr auto syrk = &trnblas##P##syrk_64;    \
  static constexpr auto trsm = &trnblas##P##trsm_64;    \
  static constexpr auto gemv = &trnblas##P##gemv_64;    \
  static constexpr auto axpy = &trnblas##P##axpy_64;    \
  static constexpr auto scal = &trnblas##P##scal_64;    \
  static constexpr auto dot = &trnblas##P##Dot##_64;    \
  static constexpr auto dotc = &trnblas##P##Dotc##_64;
template <class T>
struct Fns;
TRNSCI_PY_FOUR_TYPES(Fns, TRNSCI_PY_BLAS_FNS(S, dot, dot, float, TRN_R_32F),
                     TRNSCI_PY_BLAS_FNS(D, dot, dot, double, TRN_R_64F),
                     TRNSCI_PY_BLAS_FNS(C, dotu, dotc, trnComplex, TRN_C_32F),
                     TRNSCI_PY_BLAS_FNS(Z, dotu, dotc, trnDoubleComplex, TRN_C_64F))
#undef TRNSCI_PY_BLAS_FNS

// Calls f(T{}) with T the element type of kind k (f32, f64, c64, c128); raises for any other.
template <class F>
auto dispatch(Kind k, const py::array& a, const Arg& arg, F&& f) {
  switch (k) {
    case Kind::f32: return f(float{});
    case Kind::f64: return f(double{});
    case Kind::c64: return f(std::complex<float>{});
    case Kind::c128: return f(std::complex<double>{});
    default: break;
  }
  raise_argument(arg.routine, arg.position, arg.name,
                 "unsupported dtype " + dtype_name(a) + " (float32, float64, complex64, complex128)");
}

template <class T>
const typename Fns<T>::C* cptr(const py::array& a) {
  return reinterpret_cast<const typename Fns<T>::C*>(a.data());
}
template <class T>
typename Fns<T>::C* mptr(py::array& a) {
  return reinterpret_cast<typename Fns<T>::C*>(a.mutable_data());
}

// A scalar argument (alpha, beta) as T; a complex value for a real routine raises.
template <class T>
typename Fns<T>::C scalar(std::complex<double> v, const Arg& arg) {
  if constexpr (std::is_floating_point_v<T>) {
    if (v.imag() != 0) raise_argument(arg.routine, arg.position, arg.name, "complex scalar for a real routine");
    return static_cast<T>(v.real());
  } else {
    using R = typename T::value_type;
    return {static_cast<R>(v.real()), static_cast<R>(v.imag())};
  }
}

// A 2-D operand as the column-major C API sees it.
struct Mat {
  py::array a;
  std::int64_t rows = 0, cols = 0;
  bool fortran = false;  // F-contiguous and not C-contiguous: the memory is X itself (column-major)
  std::int64_t ld() const { return std::max<std::int64_t>(fortran ? rows : cols, 1); }
  // The op with which the C API reads X^T (transposed) or X from this memory: row-major memory is
  // X^T (N reads X^T, T reads X), F-order memory is X (N reads X, T reads X^T).
  trnblasOperation_t op_reading(bool transposed) const { return transposed == fortran ? TRNBLAS_OP_T : TRNBLAS_OP_N; }
};

Mat matrix(const py::handle& obj, const Arg& arg) {
  Mat m;
  m.a = checked_array(obj, arg, 2, true);
  m.rows = m.a.shape(0);
  m.cols = m.a.shape(1);
  m.fortran = (m.a.flags() & py::array::c_style) == 0;
  return m;
}

py::array vector(const py::handle& obj, const Arg& arg) { return checked_array(obj, arg, 1, false); }

// The output array: `out` checked (shape, dtype, writeable, contiguous in C or, when allowed, Fortran
// order), or a new zeroed Fortran-ordered one (what the column-major C API writes directly).
py::array output(const py::object& out, const py::dtype& dt, std::vector<py::ssize_t> shape, const Arg& arg,
                 bool allow_c = true) {
  if (out.is_none()) {
    py::array r(dt, shape, std::vector<py::ssize_t>{});
    if (shape.size() == 2) r = py::array(dt, shape, {dt.itemsize(), dt.itemsize() * shape[0]});
    std::memset(r.mutable_data(), 0, static_cast<std::size_t>(r.nbytes()));
    return r;
  }
  py::array c = checked_array(out, arg, static_cast<int>(shape.size()), true);
  if (!c.writeable()) raise_argument(arg.routine, arg.position, arg.name, "array is read-only");
  if (!allow_c && shape.size() == 2 && (c.flags() & py::array::f_style) == 0)
    raise_argument(arg.routine, arg.position, arg.name, "must be Fortran-ordered (numpy.asfortranarray)");
  if (!c.dtype().is(dt))
    raise_argument(arg.routine, arg.position, arg.name,
                   "expected dtype " + dt.attr("name").cast<std::string>() + ", got " + dtype_name(c));
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (c.shape(static_cast<py::ssize_t>(i)) != shape[i])
      raise_argument(arg.routine, arg.position, arg.name, "shape does not match the result's");
  return c;
}

bool is_fortran_2d(const py::array& a) { return a.ndim() == 2 && (a.flags() & py::array::f_style) != 0; }

// ---- Level 3 -------------------------------------------------------------------------------------

// C = alpha op(A) op(B) + beta C (row-major), op = transpose when trans_*; mode: trnblas's mode name
// (None: the routine's default: Sgemm's fp32, Dgemm's Ozaki, C/Zgemm); uint16 A and B are bf16 bits
// (GemmEx 16BF x 16BF -> fp32 C).
py::tuple gemm(const py::object& A, const py::object& B, const py::object& Cin, std::complex<double> alpha,
               std::complex<double> beta, bool ta, bool tb, const py::object& mode, const EmuSettings& s) {
  const Mat a = matrix(A, {"gemm", 1, "a"}), b = matrix(B, {"gemm", 2, "b"});
  const std::int64_t m = ta ? a.cols : a.rows, k = ta ? a.rows : a.cols;
  const std::int64_t kb = tb ? b.cols : b.rows, n = tb ? b.rows : b.cols;
  if (k != kb) raise_argument("gemm", 2, "b", "inner dimensions differ: op(a) is " + std::to_string(m) + "x" +
                                                   std::to_string(k) + ", op(b) is " + std::to_string(kb) + "x" + std::to_string(n));
  const trn::blas::ModeTraits* mt = nullptr;
  if (!mode.is_none()) {
    const std::string name = mode.cast<std::string>();
    mt = trn::blas::mode_by_name(name);
    if (mt == nullptr || mt->compute_type < 0) raise_argument("gemm", 7, "mode", "unknown GEMM mode '" + name + "'");
  }
  const bool bf16 = kind_of(a.a) == Kind::u16;
  if (!bf16) dispatch(kind_of(a.a), a.a, {"gemm", 1, "a"}, [](auto) { return 0; });  // a's dtype first
  require_same_kind(b.a, a.a, {"gemm", 2, "b"});
  const py::dtype out_dt = bf16 ? py::dtype::of<float>() : a.a.dtype();
  py::array c = output(Cin, out_dt, {m, n}, {"gemm", 3, "c"});
  // Column-major C = op(A) op(B) as a C program calls it (Fortran-ordered operands: N, N); a C-ordered
  // c is column-major C^T = op(B)^T op(A)^T, the operands swapped.
  const bool swap = !is_fortran_2d(c);
  const Mat& x = swap ? b : a;
  const Mat& y = swap ? a : b;
  const trnblasOperation_t opx = swap ? b.op_reading(!tb) : a.op_reading(ta);
  const trnblasOperation_t opy = swap ? a.op_reading(!ta) : b.op_reading(tb);
  const std::int64_t rows = swap ? n : m, cols = swap ? m : n, ldc = std::max<std::int64_t>(rows, 1);
  Handle h(s);
  auto call = [&](auto zero) {
    using T = decltype(zero);
    const auto al = scalar<T>(alpha, {"gemm", 4, "alpha"}), be = scalar<T>(beta, {"gemm", 5, "beta"});
    return run_call<BlasApi>(h.get(), s, "gemm", [&] {
      if (mt == nullptr)
        return Fns<T>::gemm(h.get(), opx, opy, rows, cols, k, &al, cptr<T>(x.a), x.ld(), cptr<T>(y.a), y.ld(), &be,
                            mptr<T>(c), ldc);
      return trnblasGemmEx_64(h.get(), opx, opy, rows, cols, k, &al, x.a.data(), Fns<T>::kType, x.ld(), y.a.data(),
                              Fns<T>::kType, y.ld(), &be, c.mutable_data(), Fns<T>::kType, ldc,
                              static_cast<trnblasComputeType_t>(mt->compute_type), TRNBLAS_GEMM_DEFAULT);
    });
  };
  std::shared_ptr<ProfileData> p;
  if (bf16) {
    const float al = scalar<float>(alpha, {"gemm", 4, "alpha"}), be = scalar<float>(beta, {"gemm", 5, "beta"});
    const int ct = mt != nullptr ? mt->compute_type : TRNBLAS_COMPUTE_32F;
    p = run_call<BlasApi>(h.get(), s, "gemm", [&] {
      return trnblasGemmEx_64(h.get(), opx, opy, rows, cols, k, &al, x.a.data(), TRN_R_16BF, x.ld(), y.a.data(),
                              TRN_R_16BF, y.ld(), &be, c.mutable_data(), TRN_R_32F, ldc,
                              static_cast<trnblasComputeType_t>(ct), TRNBLAS_GEMM_DEFAULT);
    });
  } else {
    p = dispatch(kind_of(a.a), a.a, {"gemm", 1, "a"}, call);
  }
  return py::make_tuple(c, p);
}

// C = alpha op(A) op(A)^T + beta C, only the `lower` (or upper) triangle of the row-major C written.
py::tuple syrk(const py::object& A, const py::object& Cin, std::complex<double> alpha, std::complex<double> beta,
               bool trans, bool lower, const EmuSettings& s) {
  const Mat a = matrix(A, {"syrk", 1, "a"});
  const std::int64_t n = trans ? a.cols : a.rows, k = trans ? a.rows : a.cols;
  py::array c = output(Cin, a.a.dtype(), {n, n}, {"syrk", 2, "c"});
  // A C-ordered c is column-major C^T = C (symmetric): its lower triangle is the column-major upper one.
  const bool flip = !is_fortran_2d(c);
  const trnblasFillMode_t uplo = lower != flip ? TRNBLAS_FILL_MODE_LOWER : TRNBLAS_FILL_MODE_UPPER;
  // Column-major SYRK computes X X^T with X read from the memory by its op: X = op(A).
  const trnblasOperation_t op = a.op_reading(trans);
  Handle h(s);
  auto p = dispatch(kind_of(a.a), a.a, {"syrk", 1, "a"}, [&](auto zero) {
    using T = decltype(zero);
    const auto al = scalar<T>(alpha, {"syrk", 3, "alpha"}), be = scalar<T>(beta, {"syrk", 4, "beta"});
    return run_call<BlasApi>(h.get(), s, "syrk", [&] {
      return Fns<T>::syrk(h.get(), uplo, op, n, k, &al, cptr<T>(a.a), a.ld(), &be, mptr<T>(c), n);
    });
  });
  return py::make_tuple(c, p);
}

// Solves op(A) X = alpha B (left) or X op(A) = alpha B (right) for triangular A. X overwrites a
// Fortran-ordered copy of B (or B itself when overwrite_b and B is Fortran-ordered), returned.
py::tuple trsm(const py::object& A, const py::object& Bin, std::complex<double> alpha, bool left, bool lower, bool trans,
               bool unit_diag, bool overwrite_b, const EmuSettings& s) {
  const Mat a = matrix(A, {"trsm", 1, "a"});
  if (a.rows != a.cols) raise_argument("trsm", 1, "a", "a must be square");
  py::array b0 = checked_array(Bin, {"trsm", 2, "b"}, 2, true);
  require_same_kind(b0, a.a, {"trsm", 2, "b"});
  if (overwrite_b && !is_fortran_2d(b0)) raise_argument("trsm", 2, "b", "overwrite_b needs a Fortran-ordered b");
  py::array b = overwrite_b ? b0 : py::array(py::module_::import("numpy").attr("array")(b0, "order"_a = "F"));
  if (overwrite_b) require_writeable(b, {"trsm", 2, "b"});
  const std::int64_t m = b.shape(0), n = b.shape(1);
  if ((left ? m : n) != a.rows) raise_argument("trsm", 2, "b", "b's dimension does not match a's order");
  // The memory of a row-major A is A^T: its stored triangle is the other one, read through op T.
  const bool mem_lower = a.fortran ? lower : !lower;
  const trnblasSideMode_t side = left ? TRNBLAS_SIDE_LEFT : TRNBLAS_SIDE_RIGHT;
  const trnblasFillMode_t uplo = mem_lower ? TRNBLAS_FILL_MODE_LOWER : TRNBLAS_FILL_MODE_UPPER;
  const trnblasOperation_t op = a.op_reading(trans);  // reads op(A)
  const trnblasDiagType_t diag = unit_diag ? TRNBLAS_DIAG_UNIT : TRNBLAS_DIAG_NON_UNIT;
  Handle h(s);
  auto p = dispatch(kind_of(a.a), a.a, {"trsm", 1, "a"}, [&](auto zero) {
    using T = decltype(zero);
    const auto al = scalar<T>(alpha, {"trsm", 3, "alpha"});
    return run_call<BlasApi>(h.get(), s, "trsm", [&] {
      return Fns<T>::trsm(h.get(), side, uplo, op, diag, m, n, &al, cptr<T>(a.a), a.ld(), mptr<T>(b),
                          std::max<std::int64_t>(m, 1));
    });
  });
  return py::make_tuple(b, p);
}

// ---- Levels 1 and 2 ------------------------------------------------------------------------------

// y = alpha op(A) x + beta y.
py::tuple gemv(const py::object& A, const py::object& X, const py::object& Yin, std::complex<double> alpha,
               std::complex<double> beta, bool trans, const EmuSettings& s) {
  const Mat a = matrix(A, {"gemv", 1, "a"});
  py::array x = vector(X, {"gemv", 2, "x"});
  require_same_kind(x, a.a, {"gemv", 2, "x"});
  const std::int64_t rows = trans ? a.cols : a.rows, cols = trans ? a.rows : a.cols;
  if (x.shape(0) != cols) raise_argument("gemv", 2, "x", "length does not match op(a)'s columns");
  py::array y = output(Yin, a.a.dtype(), {rows}, {"gemv", 3, "y"});
  // The memory matrix (column-major, mr x mc) and the op giving op(A) from it.
  const std::int64_t mr = a.fortran ? a.rows : a.cols, mc = a.fortran ? a.cols : a.rows;
  const trnblasOperation_t op = a.op_reading(trans);  // reads op(A)
  Handle h(s);
  auto p = dispatch(kind_of(a.a), a.a, {"gemv", 1, "a"}, [&](auto zero) {
    using T = decltype(zero);
    const auto al = scalar<T>(alpha, {"gemv", 4, "alpha"}), be = scalar<T>(beta, {"gemv", 5, "beta"});
    return run_call<BlasApi>(h.get(), s, "gemv", [&] {
      return Fns<T>::gemv(h.get(), op, mr, mc, &al, cptr<T>(a.a), a.ld(), cptr<T>(x), 1, &be, mptr<T>(y), 1);
    });
  });
  return py::make_tuple(y, p);
}

// x . y (conj: x^H y for complex).
py::tuple dot(const py::object& X, const py::object& Y, bool conj, const EmuSettings& s) {
  py::array x = vector(X, {"dot", 1, "x"}), y = vector(Y, {"dot", 2, "y"});
  require_same_kind(y, x, {"dot", 2, "y"});
  if (x.shape(0) != y.shape(0)) raise_argument("dot", 2, "y", "length differs from x's");
  py::array r(x.dtype(), std::vector<py::ssize_t>{});
  Handle h(s);
  auto p = dispatch(kind_of(x), x, {"dot", 1, "x"}, [&](auto zero) {
    using T = decltype(zero);
    return run_call<BlasApi>(h.get(), s, "dot", [&] {
      auto f = conj ? Fns<T>::dotc : Fns<T>::dot;
      return f(h.get(), x.shape(0), cptr<T>(x), 1, cptr<T>(y), 1, mptr<T>(r));
    });
  });
  return py::make_tuple(r, p);
}

// y = alpha x + y (a new array unless overwrite_y).
py::tuple axpy(std::complex<double> alpha, const py::object& X, const py::object& Yin, bool overwrite_y, const EmuSettings& s) {
  py::array x = vector(X, {"axpy", 2, "x"}), y0 = vector(Yin, {"axpy", 3, "y"});
  require_same_kind(y0, x, {"axpy", 3, "y"});
  if (x.shape(0) != y0.shape(0)) raise_argument("axpy", 3, "y", "length differs from x's");
  py::array y = overwrite_y ? y0 : py::array(y0.attr("copy")());
  if (overwrite_y) require_writeable(y, {"axpy", 3, "y"});
  Handle h(s);
  auto p = dispatch(kind_of(x), x, {"axpy", 2, "x"}, [&](auto zero) {
    using T = decltype(zero);
    const auto al = scalar<T>(alpha, {"axpy", 1, "alpha"});
    return run_call<BlasApi>(h.get(), s, "axpy",
                             [&] { return Fns<T>::axpy(h.get(), x.shape(0), &al, cptr<T>(x), 1, mptr<T>(y), 1); });
  });
  return py::make_tuple(y, p);
}

// x = alpha x (a new array unless overwrite_x).
py::tuple scal(std::complex<double> alpha, const py::object& Xin, bool overwrite_x, const EmuSettings& s) {
  py::array x0 = vector(Xin, {"scal", 2, "x"});
  py::array x = overwrite_x ? x0 : py::array(x0.attr("copy")());
  if (overwrite_x) require_writeable(x, {"scal", 2, "x"});
  Handle h(s);
  auto p = dispatch(kind_of(x), x, {"scal", 2, "x"}, [&](auto zero) {
    using T = decltype(zero);
    const auto al = scalar<T>(alpha, {"scal", 1, "alpha"});
    return run_call<BlasApi>(h.get(), s, "scal", [&] { return Fns<T>::scal(h.get(), x.shape(0), &al, mptr<T>(x), 1); });
  });
  return py::make_tuple(x, p);
}

// ---- bf16 / fp16 bits ----------------------------------------------------------------------------

py::array_t<std::uint16_t> f32_to_bf16(const py::object& X) {
  py::array x = checked_array(X, {"bf16.from_float32", 1, "x"}, -1, false);
  require_kind(x, Kind::f32, {"bf16.from_float32", 1, "x"});
  std::vector<py::ssize_t> shape(x.shape(), x.shape() + x.ndim());
  py::array_t<std::uint16_t> r(shape);
  const auto* in = static_cast<const float*>(x.data());
  auto* out = r.mutable_data();
  for (py::ssize_t i = 0; i < x.size(); ++i) out[i] = trn::f32_to_bf16_rne(in[i]);
  return r;
}

py::array_t<float> bf16_to_f32(const py::object& X) {
  py::array x = checked_array(X, {"bf16.to_float32", 1, "x"}, -1, false);
  require_kind(x, Kind::u16, {"bf16.to_float32", 1, "x"});
  std::vector<py::ssize_t> shape(x.shape(), x.shape() + x.ndim());
  py::array_t<float> r(shape);
  const auto* in = static_cast<const std::uint16_t*>(x.data());
  auto* out = r.mutable_data();
  for (py::ssize_t i = 0; i < x.size(); ++i) out[i] = trn::bf16_to_f32(in[i]);
  return r;
}

const Registrar kBlas("blas", [](py::module_& m) {
  m.def("gemm", &gemm, "a"_a, "b"_a, "c"_a, "alpha"_a, "beta"_a, "trans_a"_a, "trans_b"_a, "mode"_a, "settings"_a);
  m.def("syrk", &syrk, "a"_a, "c"_a, "alpha"_a, "beta"_a, "trans"_a, "lower"_a, "settings"_a);
  m.def("trsm", &trsm, "a"_a, "b"_a, "alpha"_a, "left"_a, "lower"_a, "trans"_a, "unit_diagonal"_a, "overwrite_b"_a,
        "settings"_a);
  m.def("gemv", &gemv, "a"_a, "x"_a, "y"_a, "alpha"_a, "beta"_a, "trans"_a, "settings"_a);
  m.def("dot", &dot, "x"_a, "y"_a, "conj"_a, "settings"_a);
  m.def("axpy", &axpy, "alpha"_a, "x"_a, "y"_a, "overwrite_y"_a, "settings"_a);
  m.def("scal", &scal, "alpha"_a, "x"_a, "overwrite_x"_a, "settings"_a);
  m.def("modes", [] {
    py::list l;
    for (const auto& t : trn::blas::mode_table())
      if (t.compute_type >= 0) l.append(std::string(t.name));
    return l;
  });
  m.def("bf16_from_float32", &f32_to_bf16, "x"_a, "float32 -> bfloat16 bits (uint16), round to nearest even");
  m.def("bf16_to_float32", &bf16_to_f32, "x"_a, "bfloat16 bits (uint16) -> float32 (exact)");
});

}  // namespace
}  // namespace trnsci::py
