// trnsci._core.solver: numpy bindings of trnsolver's dense C API (trnsolver.h): float32, float64,
// complex64 and complex128 (the C/Z routines; QR through ungqr, eigh through heevd).
// The factorisations overwrite their input, so each call works on a Fortran-ordered copy of A (the
// column-major layout the C API reads; one copy, the one numpy/LAPACK wrappers make too). Workspace
// sizes come from the routines' _bufferSize; devInfo > 0 raises trnsci.LinAlgError. Calls made of
// several C calls (QR: geqrf + orgqr; LU solve: getrf + getrs) report one Profile: the C calls'
// profiles appended (trn::append_sequential).
#include <complex>
#include <type_traits>
#include <vector>

#include "common.hpp"
#include "trnsolver.h"

namespace trnsci::py {
namespace {
using namespace pybind11::literals;

TRNSCI_PY_CSHIM_TRAITS(SolverApi, trnsolverDn, trnsolverDnHandle_t, trnsolverStatus_t, TRNSOLVER_STATUS_SUCCESS,
                       trnsolverGetStatusName, "trnsolver");

using Handle = SettingsHandle<SolverApi, &trnsolverDnCreate, &trnsolverDnDestroy>;

// The typed C entry points of one element type (P: the S / D / C / Z of their names): each routine f
// and its workspace query f_ws (_bufferSize); getrs has none. C: the C API's element type, R: its
// real type (eigenvalues, singular values); orgqr and syevd are ungqr and heevd for complex types.
#define TRNSCI_PY_SOLVER_FN(P, f, name)                                    \
  static constexpr auto f##_ws = &trnsolverDn##P##name##_bufferSize;      \
  static constexpr auto f = &trnsolverDn##P##name;
#define TRNSCI_PY_SOLVER_FNS(P, CType, RType, Orgqr, Syevd)                                                   \
  using C = CType;                                                                                         \
  using R = RType;                                                                                         \
  TRNSCI_PY_SOLVER_FN(P, potrf, potrf) TRNSCI_PY_SOLVER_FN(P, getrf, getrf) TRNSCI_PY_SOLVER_FN(P, geqrf, geqrf) \
  TRNSCI_PY_SOLVER_FN(P, orgqr, Orgqr) TRNSCI_PY_SOLVER_FN(P, syevd, Syevd)                                \
  TRNSCI_PY_SOLVER_FN(P, gesvdj, gesvdj)                                                                   \
  static constexpr auto getrs = &trnsolverDn##P##getrs;
template <class T>
struct Fns;
TRNSCI_PY_FOUR_TYPES(Fns, TRNSCI_PY_SOLVER_FNS(S, float, float, orgqr, syevd),
                     TRNSCI_PY_SOLVER_FNS(D, double, double, orgqr, syevd),
                     TRNSCI_PY_SOLVER_FNS(C, trnComplex, float, ungqr, heevd),
                     TRNSCI_PY_SOLVER_FNS(Z, trnDoubleComplex, double, ungqr, heevd))
#undef TRNSCI_PY_SOLVER_FN
#undef TRNSCI_PY_SOLVER_FNS

// A Fortran-ordered copy of a 2-D float32/float64/complex64/complex128 array (the factorisation's
// in/out buffer; any strides are fine, the copy is made anyway).
py::array fortran_copy(const py::object& obj, const Arg& arg) {
  if (!py::isinstance<py::array>(obj)) raise_argument(arg.routine, arg.position, arg.name, "expected a numpy.ndarray");
  py::array a = py::module_::import("numpy").attr("array")(obj, "order"_a = "F");
  a = checked_array(a, arg, 2, true);
  const Kind k = kind_of(a);
  if (k != Kind::f32 && k != Kind::f64 && k != Kind::c64 && k != Kind::c128)
    raise_argument(arg.routine, arg.position, arg.name,
                   "expected float32, float64, complex64 or complex128, got " + dtype_name(a));
  return a;
}

// Calls f(T{}) with T the element type of a (float, double, std::complex<float|double>).
template <class F>
auto dispatch_type(const py::array& a, F&& f) {
  switch (kind_of(a)) {
    case Kind::f32: return f(float{});
    case Kind::f64: return f(double{});
    case Kind::c64: return f(std::complex<float>{});
    default: return f(std::complex<double>{});  // fortran_copy admitted only these four
  }
}

// The array's data as the C API's element type of T, and as its real type.
template <class T>
typename Fns<T>::C* data(py::array& a) {
  return static_cast<typename Fns<T>::C*>(a.mutable_data());
}
template <class T>
typename Fns<T>::R* rdata(py::array& a) {
  return static_cast<typename Fns<T>::R*>(a.mutable_data());
}

// The dtype of a's real part (float32 for complex64, ...).
py::dtype real_dtype(const py::array& a) {
  const Kind k = kind_of(a);
  return k == Kind::f32 || k == Kind::c64 ? py::dtype::of<float>() : py::dtype::of<double>();
}

int dim(py::ssize_t v, const Arg& arg) { return as_int(v, arg); }

// devInfo > 0: the factorisation broke down (not positive definite, singular U, no convergence).
void check_info(int info, const char* routine, const char* what) {
  if (info == 0) return;
  py::object errors = py::module_::import("trnsci.errors");
  py::object exc = errors.attr("LinAlgError")(std::string(routine) + ": devInfo = " + std::to_string(info) + " (" + what + ")",
                                              "library"_a = "trnsolver", "routine"_a = routine, "status"_a = "DEV_INFO",
                                              "code"_a = info, "param"_a = info < 0 ? -info : 0);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr());
  throw py::error_already_set();
}

// The profile of `first` followed by `second` (two C calls of one Python call).
std::shared_ptr<ProfileData> sequential(const ProfileData& first, const ProfileData& second) {
  trn::Profile p = first.profile();
  trn::append_sequential(p, second.profile());
  std::vector<std::shared_ptr<CapturedReport>> reports = first.reports();
  reports.insert(reports.end(), second.reports().begin(), second.reports().end());
  auto r = std::make_shared<ProfileData>(p.to_c(), second.library(), second.routine(), std::move(reports));
  set_last_profile(r);
  return r;
}

// Cholesky: the factor (lower or upper) of symmetric positive definite A, the other triangle zeroed.
py::tuple cholesky(const py::object& A, bool lower, const EmuSettings& s) {
  const Arg arg{"cholesky", 1, "a"};
  py::array a = fortran_copy(A, arg);
  if (a.shape(0) != a.shape(1)) raise_argument("cholesky", 1, "a", "a must be square");
  const int n = dim(a.shape(0), arg);
  const trnblasFillMode_t uplo = lower ? TRNBLAS_FILL_MODE_LOWER : TRNBLAS_FILL_MODE_UPPER;
  Handle h(s);
  int info = 0;
  auto p = dispatch_type(a, [&](auto zero) {
    using T = decltype(zero);
    int lwork = 0;
    check_status<SolverApi>(h.get(), Fns<T>::potrf_ws(h.get(), uplo, n, data<T>(a), std::max(n, 1), &lwork), "potrf_bufferSize");
    std::vector<typename Fns<T>::C> work(static_cast<std::size_t>(std::max(lwork, 1)));
    return run_call<SolverApi>(h.get(), s, "cholesky", [&] {
      return Fns<T>::potrf(h.get(), uplo, n, data<T>(a), std::max(n, 1), work.data(), lwork, &info);
    });
  });
  check_info(info, "cholesky", "the leading minor of this order is not positive definite");
  return py::make_tuple(a, p);
}

// LU with partial pivoting: (lu, piv) as scipy.linalg.lu_factor (piv 0-based).
py::tuple lu_factor(const py::object& A, const EmuSettings& s) {
  const Arg arg{"lu_factor", 1, "a"};
  py::array a = fortran_copy(A, arg);
  const int m = dim(a.shape(0), arg), n = dim(a.shape(1), arg);
  py::array_t<int> piv(std::min(m, n));
  Handle h(s);
  int info = 0;
  auto p = dispatch_type(a, [&](auto zero) {
    using T = decltype(zero);
    int lwork = 0;
    check_status<SolverApi>(h.get(), Fns<T>::getrf_ws(h.get(), m, n, data<T>(a), std::max(m, 1), &lwork), "getrf_bufferSize");
    std::vector<typename Fns<T>::C> work(static_cast<std::size_t>(std::max(lwork, 1)));
    return run_call<SolverApi>(h.get(), s, "lu_factor", [&] {
      return Fns<T>::getrf(h.get(), m, n, data<T>(a), std::max(m, 1), work.data(), piv.mutable_data(), &info);
    });
  });
  if (info < 0) check_info(info, "lu_factor", "illegal argument");
  return py::make_tuple(a, piv, info, p);  // info > 0: U(info, info) is exactly zero (scipy warns)
}

// The mixed-precision gesv (IRS simple API) of I/O type T and one low precision: `low` the name
// solve(refine=) takes, fn / ws the routine and its _bufferSize (cuSOLVER's <IO><low>gesv names:
// S fp32, H/K fp16, B/E bf16, X/Y tf32; D/Z fp64 and C/Z complex I/O).
template <class T>
struct IrsGesv {
  using C = typename Fns<T>::C;
  using Fn = trnsolverStatus_t (*)(trnsolverDnHandle_t, int, int, C*, int, int*, C*, int, C*, int, void*, size_t, int*, int*);
  using Ws = trnsolverStatus_t (*)(trnsolverDnHandle_t, int, int, C*, int, int*, C*, int, C*, int, void*, size_t*);
  static constexpr bool kWide = std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>;
  static constexpr const char* kChoices = kWide ? "refine must be 'fp32', 'fp16', 'bf16' or 'tf32' for float64 / complex128"
                                                : "refine must be 'fp16', 'bf16' or 'tf32' for float32 / complex64";
  const char* low;
  Fn fn;
  Ws ws;
};
#define TRNSCI_PY_GESV(low, NAME) IrsGesv<T>{low, &trnsolverDn##NAME, &trnsolverDn##NAME##_bufferSize}

// The entry of refine=`low` for I/O type T, or nullptr.
template <class T>
const IrsGesv<T>* irs_gesv_of(const std::string& low) {
  static const std::vector<IrsGesv<T>> table = [] {
    if constexpr (std::is_same_v<T, double>)
      return std::vector<IrsGesv<T>>{TRNSCI_PY_GESV("fp32", DSgesv), TRNSCI_PY_GESV("fp16", DHgesv),
                                     TRNSCI_PY_GESV("bf16", DBgesv), TRNSCI_PY_GESV("tf32", DXgesv)};
    else if constexpr (std::is_same_v<T, float>)
      return std::vector<IrsGesv<T>>{TRNSCI_PY_GESV("fp16", SHgesv), TRNSCI_PY_GESV("bf16", SBgesv),
                                     TRNSCI_PY_GESV("tf32", SXgesv)};
    else if constexpr (std::is_same_v<T, std::complex<double>>)
      return std::vector<IrsGesv<T>>{TRNSCI_PY_GESV("fp32", ZCgesv), TRNSCI_PY_GESV("fp16", ZKgesv),
                                     TRNSCI_PY_GESV("bf16", ZEgesv), TRNSCI_PY_GESV("tf32", ZYgesv)};
    else
      return std::vector<IrsGesv<T>>{TRNSCI_PY_GESV("fp16", CKgesv), TRNSCI_PY_GESV("bf16", CEgesv),
                                     TRNSCI_PY_GESV("tf32", CYgesv)};
  }();
  for (const auto& g : table)
    if (low == g.low) return &g;
  return nullptr;
}
#undef TRNSCI_PY_GESV

// Solves A X = B: getrf + getrs, or mixed-precision iterative refinement (refine: the low precision
// of trnsolverDn<D|S|Z|C><S|H|B|X|C|K|E|Y>gesv, irs_gesv_of).
py::tuple solve(const py::object& A, const py::object& B, const py::object& refine, const EmuSettings& s) {
  const Arg arg{"solve", 1, "a"};
  py::array a = fortran_copy(A, arg);
  if (a.shape(0) != a.shape(1)) raise_argument("solve", 1, "a", "a must be square");
  py::array b0 = checked_array(B, {"solve", 2, "b"}, -1, true);
  require_same_kind(b0, a, {"solve", 2, "b"});
  const bool vec = b0.ndim() == 1;
  if (b0.ndim() != 1 && b0.ndim() != 2) raise_argument("solve", 2, "b", "b must be 1-D or 2-D");
  if (b0.shape(0) != a.shape(0)) raise_argument("solve", 2, "b", "b's rows differ from a's order");
  py::array b = py::module_::import("numpy").attr("array")(b0, "order"_a = "F");
  const int n = dim(a.shape(0), arg), nrhs = vec ? 1 : dim(b.shape(1), {"solve", 2, "b"});
  const int ld = std::max(n, 1);
  Handle h(s);
  int info = 0;
  if (!refine.is_none()) {
    const std::string low = refine.cast<std::string>();
    py::array x = py::array(b.dtype(), std::vector<py::ssize_t>(b.shape(), b.shape() + b.ndim()),
                            vec ? std::vector<py::ssize_t>{b.itemsize()} : std::vector<py::ssize_t>{b.itemsize(), b.itemsize() * n});
    std::vector<int> ipiv(static_cast<std::size_t>(std::max(n, 1)));
    int iter = 0;
    auto p = dispatch_type(a, [&](auto zero) {
      using T = decltype(zero);
      const IrsGesv<T>* g = irs_gesv_of<T>(low);
      if (g == nullptr) raise_argument("solve", 3, "refine", std::string(IrsGesv<T>::kChoices));
      size_t bytes = 0;
      check_status<SolverApi>(h.get(), g->ws(h.get(), n, nrhs, data<T>(a), ld, ipiv.data(), data<T>(b), ld, data<T>(x), ld,
                                             nullptr, &bytes), "gesv_bufferSize");
      std::vector<unsigned char> work(std::max<size_t>(bytes, 1));
      return run_call<SolverApi>(h.get(), s, "solve", [&] {
        return g->fn(h.get(), n, nrhs, data<T>(a), ld, ipiv.data(), data<T>(b), ld, data<T>(x), ld, work.data(), bytes,
                     &iter, &info);
      });
    });
    check_info(info, "solve", "singular matrix");
    return py::make_tuple(x, iter, p);
  }
  py::array_t<int> piv(n);
  auto p = dispatch_type(a, [&](auto zero) {
    using T = decltype(zero);
    int lwork = 0;
    check_status<SolverApi>(h.get(), Fns<T>::getrf_ws(h.get(), n, n, data<T>(a), ld, &lwork), "getrf_bufferSize");
    std::vector<typename Fns<T>::C> work(static_cast<std::size_t>(std::max(lwork, 1)));
    auto p1 = run_call<SolverApi>(h.get(), s, "getrf", [&] {
      return Fns<T>::getrf(h.get(), n, n, data<T>(a), ld, work.data(), piv.mutable_data(), &info);
    });
    check_info(info, "solve", "singular matrix: U(info, info) is exactly zero");
    auto p2 = run_call<SolverApi>(h.get(), s, "solve", [&] {
      return Fns<T>::getrs(h.get(), TRNBLAS_OP_N, n, nrhs, data<T>(a), ld, piv.data(), data<T>(b), ld, &info);
    });
    return sequential(*p1, *p2);
  });
  return py::make_tuple(b, 0, p);
}

// Reduced QR: (Q m x k, R k x n), k = min(m, n), from geqrf + orgqr.
py::tuple qr(const py::object& A, const EmuSettings& s) {
  const Arg arg{"qr", 1, "a"};
  py::array a = fortran_copy(A, arg);
  const int m = dim(a.shape(0), arg), n = dim(a.shape(1), arg), k = std::min(m, n), ld = std::max(m, 1);
  Handle h(s);
  int info = 0;
  py::object np = py::module_::import("numpy");
  py::array tau(a.dtype(), std::vector<py::ssize_t>{std::max(k, 1)});
  py::array r;
  auto p = dispatch_type(a, [&](auto zero) {
    using T = decltype(zero);
    int lw1 = 0, lw2 = 0;
    check_status<SolverApi>(h.get(), Fns<T>::geqrf_ws(h.get(), m, n, data<T>(a), ld, &lw1), "geqrf_bufferSize");
    std::vector<typename Fns<T>::C> work(static_cast<std::size_t>(std::max(lw1, 1)));
    auto p1 = run_call<SolverApi>(h.get(), s, "geqrf", [&] {
      return Fns<T>::geqrf(h.get(), m, n, data<T>(a), ld, data<T>(tau), work.data(), lw1, &info);
    });
    check_info(info, "qr", "geqrf");
    r = np.attr("triu")(a[py::make_tuple(py::slice(0, k, 1), py::slice(py::none(), py::none(), py::none()))]);
    check_status<SolverApi>(h.get(), Fns<T>::orgqr_ws(h.get(), m, k, k, data<T>(a), ld, data<T>(tau), &lw2), "orgqr_bufferSize");
    std::vector<typename Fns<T>::C> work2(static_cast<std::size_t>(std::max(lw2, 1)));
    auto p2 = run_call<SolverApi>(h.get(), s, "qr", [&] {
      return Fns<T>::orgqr(h.get(), m, k, k, data<T>(a), ld, data<T>(tau), work2.data(), lw2, &info);
    });
    check_info(info, "qr", "orgqr");
    return sequential(*p1, *p2);
  });
  py::object q = a[py::make_tuple(py::slice(py::none(), py::none(), py::none()), py::slice(0, k, 1))];
  return py::make_tuple(q, r, p);
}

// Symmetric eigendecomposition (syevd): ascending eigenvalues w and, when vectors, V (columns).
py::tuple eigh(const py::object& A, bool lower, bool vectors, const EmuSettings& s) {
  const Arg arg{"eigh", 1, "a"};
  py::array a = fortran_copy(A, arg);
  if (a.shape(0) != a.shape(1)) raise_argument("eigh", 1, "a", "a must be square");
  const int n = dim(a.shape(0), arg), ld = std::max(n, 1);
  // A row-major input's memory is A^T: its lower triangle is A's upper one (the copy keeps A itself).
  const trnblasFillMode_t uplo = lower ? TRNBLAS_FILL_MODE_LOWER : TRNBLAS_FILL_MODE_UPPER;
  const trnsolverEigMode_t jobz = vectors ? TRNSOLVER_EIG_MODE_VECTOR : TRNSOLVER_EIG_MODE_NOVECTOR;
  py::array w(real_dtype(a), std::vector<py::ssize_t>{n});
  Handle h(s);
  int info = 0;
  auto p = dispatch_type(a, [&](auto zero) {
    using T = decltype(zero);
    int lwork = 0;
    check_status<SolverApi>(h.get(), Fns<T>::syevd_ws(h.get(), jobz, uplo, n, data<T>(a), ld, rdata<T>(w), &lwork), "syevd_bufferSize");
    std::vector<typename Fns<T>::C> work(static_cast<std::size_t>(std::max(lwork, 1)));
    return run_call<SolverApi>(h.get(), s, "eigh", [&] {
      return Fns<T>::syevd(h.get(), jobz, uplo, n, data<T>(a), ld, rdata<T>(w), work.data(), lwork, &info);
    });
  });
  check_info(info, "eigh", "the eigensolver did not converge");
  return py::make_tuple(w, vectors ? py::object(a) : py::object(py::none()), p);
}

// SVD by one-sided Jacobi (gesvdj): U (m x k), s (k, descending, real), V (n x k) with k = min(m, n)
// (econ = 1), or U m x m and V n x n when full (econ = 0, numpy's full_matrices=True).
py::tuple svd(const py::object& A, bool vectors, bool full, const EmuSettings& s) {
  const Arg arg{"svd", 1, "a"};
  py::array a = fortran_copy(A, arg);
  const int m = dim(a.shape(0), arg), n = dim(a.shape(1), arg), k = std::min(m, n);
  const int econ = full ? 0 : 1, ku = full ? m : k, kv = full ? n : k;
  const trnsolverEigMode_t jobz = vectors ? TRNSOLVER_EIG_MODE_VECTOR : TRNSOLVER_EIG_MODE_NOVECTOR;
  const py::ssize_t item = a.itemsize();
  py::array sv(real_dtype(a), std::vector<py::ssize_t>{std::max(k, 1)});
  py::array u(a.dtype(), {static_cast<py::ssize_t>(m), static_cast<py::ssize_t>(ku)}, {item, item * std::max(m, 1)});
  py::array v(a.dtype(), {static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(kv)}, {item, item * std::max(n, 1)});
  gesvdjInfo_t params = nullptr;
  check_status<SolverApi>(nullptr, trnsolverDnCreateGesvdjInfo(&params), "trnsolverDnCreateGesvdjInfo");
  Owned<gesvdjInfo_t, trnsolverStatus_t (*)(gesvdjInfo_t)> owned(params, &trnsolverDnDestroyGesvdjInfo);
  Handle h(s);
  int info = 0;
  auto p = dispatch_type(a, [&](auto zero) {
    using T = decltype(zero);
    int lwork = 0;
    check_status<SolverApi>(h.get(), Fns<T>::gesvdj_ws(h.get(), jobz, econ, m, n, data<T>(a), std::max(m, 1), rdata<T>(sv),
                                                       data<T>(u), std::max(m, 1), data<T>(v), std::max(n, 1), &lwork, params),
                            "gesvdj_bufferSize");
    std::vector<typename Fns<T>::C> work(static_cast<std::size_t>(std::max(lwork, 1)));
    return run_call<SolverApi>(h.get(), s, "svd", [&] {
      return Fns<T>::gesvdj(h.get(), jobz, econ, m, n, data<T>(a), std::max(m, 1), rdata<T>(sv), data<T>(u), std::max(m, 1),
                            data<T>(v), std::max(n, 1), work.data(), lwork, &info, params);
    });
  });
  check_info(info, "svd", "Jacobi sweeps did not converge");
  return py::make_tuple(u, sv, v, p);
}

const Registrar kSolver("solver", [](py::module_& m) {
  m.def("cholesky", &cholesky, "a"_a, "lower"_a, "settings"_a);
  m.def("lu_factor", &lu_factor, "a"_a, "settings"_a);
  m.def("solve", &solve, "a"_a, "b"_a, "refine"_a, "settings"_a);
  m.def("qr", &qr, "a"_a, "settings"_a);
  m.def("eigh", &eigh, "a"_a, "lower"_a, "vectors"_a, "settings"_a);
  m.def("svd", &svd, "a"_a, "vectors"_a, "full_matrices"_a, "settings"_a);
});

}  // namespace
}  // namespace trnsci::py
