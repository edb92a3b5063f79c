// trnsci._core.sparse: numpy/scipy bindings of trnsparse's generic C API (trnsparse.h): SpMV, SpMM,
// SDDMM and the BSR Krylov solvers (CG, BiCGStab, GMRES).
//
// A sparse operand arrives as python/trnsci/sparse.py hands it over: an object with scipy.sparse's
// attributes (format "csr" or "bsr", shape, indptr and indices as int32, data, blocksize), read in
// place (zero copy). scipy's BSR data is (bnnz, R, C) row-major blocks: a BSR descriptor of block
// order ROW. Dense operands are C- or Fortran-ordered (the descriptor's order follows the layout);
// results are new C-ordered arrays. Values: float32 (the TensorE path), and for a CSR matA of SpMV
// and SpMM also float64, complex64, complex128 (trnsparse's costed host step); the dense operands
// have the sparse operand's dtype. Statuses raise trnsci.Error subclasses with the parameter
// position trnsparse logged (descriptor constructors are not handle calls: param 0, the logged line
// names the argument).
#include <complex>
#include <cstring>
#include <optional>

#include "common.hpp"
#include "trnsparse.h"

namespace trnsci::py {
namespace {
using namespace pybind11::literals;

TRNSCI_PY_CSHIM_TRAITS(SparseApi, trnsparse, trnsparseHandle_t, trnsparseStatus_t, TRNSPARSE_STATUS_SUCCESS,
                       trnsparseGetErrorName, "trnsparse");

using Handle = SettingsHandle<SparseApi, &trnsparseCreate, &trnsparseDestroy>;
using SpOwned = Owned<trnsparseConstSpMatDescr_t, trnsparseStatus_t (*)(trnsparseConstSpMatDescr_t)>;
using MatOwned = Owned<trnsparseConstDnMatDescr_t, trnsparseStatus_t (*)(trnsparseConstDnMatDescr_t)>;
using VecOwned = Owned<trnsparseConstDnVecDescr_t, trnsparseStatus_t (*)(trnsparseConstDnVecDescr_t)>;

// trnDataType_t of an array's dtype (raises for anything but the four value types).
trnDataType_t value_type(const py::array& a, const Arg& arg) {
  switch (kind_of(a)) {
    case Kind::f32: return TRN_R_32F;
    case Kind::f64: return TRN_R_64F;
    case Kind::c64: return TRN_C_32F;
    case Kind::c128: return TRN_C_64F;
    default: break;
  }
  raise_argument(arg.routine, arg.position, arg.name,
                 "unsupported dtype " + dtype_name(a) + " (float32, float64, complex64, complex128)");
}

// A descriptor-constructor status (no handle: the parameter is in the logged line only).
void check_descr(trnsparseStatus_t st, std::string_view routine) {
  if (st != TRNSPARSE_STATUS_SUCCESS) check_status<SparseApi>(nullptr, st, routine);
}

// A scipy.sparse CSR or BSR operand and its trnsparse descriptor (writable: SDDMM's output pattern,
// whose values the library overwrites).
class Sparse {
 public:
  Sparse(const py::object& obj, const Arg& arg, bool writable = false) {
    const std::string fmt = obj.attr("format").cast<std::string>();
    bsr = fmt == "bsr";
    if (!bsr && fmt != "csr") raise_argument(arg.routine, arg.position, arg.name, "expected a CSR or BSR matrix, got " + fmt);
    const auto shape = obj.attr("shape").cast<std::pair<std::int64_t, std::int64_t>>();
    rows = shape.first;
    cols = shape.second;
    indptr = checked_array(obj.attr("indptr"), arg, 1, false);
    indices = checked_array(obj.attr("indices"), arg, 1, false);
    data = checked_array(obj.attr("data"), arg, bsr ? 3 : 1, false);
    if (indptr.dtype().kind() != 'i' || indptr.itemsize() != 4 ||
        indices.dtype().kind() != 'i' || indices.itemsize() != 4)
      raise_argument(arg.routine, arg.position, arg.name, "indptr and indices must be int32");
    if (bsr) {
      br = data.shape(1);
      bc = data.shape(2);
      if (br < 1 || bc < 1 || rows % br != 0 || cols % bc != 0)
        raise_argument(arg.routine, arg.position, arg.name, "blocksize does not divide the shape");
    }
    nnz = indices.shape(0);
    // The C API reads rows + 1 offsets and nnz values through raw pointers: the lengths are checked
    // here (the offsets' and indices' values are validated by trnsparse in O(nnz)).
    if (indptr.shape(0) != (bsr ? rows / br : rows) + 1)
      raise_argument(arg.routine, arg.position, arg.name, "indptr must hold (block) rows + 1 offsets");
    if (data.shape(0) != nnz) raise_argument(arg.routine, arg.position, arg.name, "data and indices differ in length");
    if (writable) {
      data = py::module_::import("numpy").attr("array")(data);  // the output values: a fresh copy
      require_writeable(data, arg);
    }
    type = value_type(data, arg);
    trnsparseConstSpMatDescr_t d = nullptr;
    trnsparseStatus_t st;
    void* ip = const_cast<void*>(indptr.data());
    void* ix = const_cast<void*>(indices.data());
    void* v = writable ? data.mutable_data() : const_cast<void*>(data.data());
    if (bsr) {
      trnsparseSpMatDescr_t m = nullptr;
      st = trnsparseCreateBsr(&m, rows / br, cols / bc, nnz, br, bc, ip, ix, v, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                              TRNSPARSE_INDEX_BASE_ZERO, type, TRNSPARSE_ORDER_ROW);
      d = m;
    } else {
      trnsparseSpMatDescr_t m = nullptr;
      st = trnsparseCreateCsr(&m, rows, cols, nnz, ip, ix, v, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                              TRNSPARSE_INDEX_BASE_ZERO, type);
      d = m;
    }
    check_descr(st, bsr ? "trnsparseCreateBsr" : "trnsparseCreateCsr");
    descr.emplace(d, &trnsparseDestroySpMat);
  }
  trnsparseConstSpMatDescr_t get() const { return descr->get(); }
  trnsparseSpMatDescr_t mut() const { return const_cast<trnsparseSpMatDescr_t>(descr->get()); }

  bool bsr = false;
  std::int64_t rows = 0, cols = 0, br = 1, bc = 1, nnz = 0;
  py::array indptr, indices, data;
  trnDataType_t type = TRN_R_32F;

 private:
  std::optional<SpOwned> descr;
};

// A dense vector descriptor over a 1-D C-contiguous array of `type`.
VecOwned dense_vector(py::array& a, trnDataType_t type, std::string_view routine) {
  trnsparseDnVecDescr_t v = nullptr;
  check_descr(trnsparseCreateDnVec(&v, a.shape(0), a.mutable_data(), type), routine);
  return VecOwned(v, &trnsparseDestroyDnVec);
}

// A dense matrix descriptor over a 2-D C- or Fortran-ordered array (the order follows the layout).
MatOwned dense_matrix(py::array& a, trnDataType_t type, std::string_view routine) {
  const bool c_order = (a.flags() & py::array::c_style) != 0;
  const std::int64_t r = a.shape(0), c = a.shape(1), ld = std::max<std::int64_t>(c_order ? c : r, 1);
  trnsparseDnMatDescr_t m = nullptr;
  check_descr(trnsparseCreateDnMat(&m, r, c, ld, a.mutable_data(), type, c_order ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL),
              routine);
  return MatOwned(m, &trnsparseDestroyDnMat);
}

// An input dense operand: ndim dimensions, the sparse operand's dtype, a private copy when read-only
// (a descriptor takes a void*; the library only reads it).
py::array dense_in(const py::object& obj, const Sparse& ref, int ndim, const Arg& arg) {
  py::array a = checked_array(obj, arg, ndim, ndim == 2);
  if (kind_of(a) != kind_of(ref.data))
    raise_argument(arg.routine, arg.position, arg.name,
                   "dtype " + dtype_name(a) + " differs from the sparse operand's " + dtype_name(ref.data));
  if (!a.writeable()) a = py::module_::import("numpy").attr("array")(a);
  return a;
}

// The output: `out` (beta != 0 reads it; updated in place) or a new zeroed C-ordered array.
py::array dense_out(const py::object& out, const py::dtype& dt, std::vector<py::ssize_t> shape, const Arg& arg) {
  if (out.is_none()) {
    py::array r(dt, shape);
    std::memset(r.mutable_data(), 0, static_cast<std::size_t>(r.nbytes()));
    return r;
  }
  py::array c = checked_array(out, arg, static_cast<int>(shape.size()), false);
  require_writeable(c, arg);
  if (!c.dtype().is(dt)) raise_argument(arg.routine, arg.position, arg.name, "dtype " + dtype_name(c) + " differs from the result's");
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (c.shape(static_cast<py::ssize_t>(i)) != shape[i])
      raise_argument(arg.routine, arg.position, arg.name, "shape does not match the result's");
  return c;
}

// alpha and beta in the compute type's representation (float, double, or their complex pairs).
struct Scalars {
  std::complex<double> a, b;
  std::complex<float> af, bf;
  double ad = 0, bd = 0;
  float as = 0, bs = 0;
  trnDataType_t type;
  Scalars(std::complex<double> alpha, std::complex<double> beta, trnDataType_t t, std::string_view routine, int pos)
      : a(alpha), b(beta), af(alpha), bf(beta), ad(alpha.real()), bd(beta.real()), as(static_cast<float>(alpha.real())),
        bs(static_cast<float>(beta.real())), type(t) {
    if ((t == TRN_R_32F || t == TRN_R_64F) && (alpha.imag() != 0 || beta.imag() != 0))
      raise_argument(routine, pos, "alpha", "complex scalar for real values");
  }
  const void* alpha() const { return pick(&as, &ad, &af, &a); }
  const void* beta() const { return pick(&bs, &bd, &bf, &b); }

 private:
  const void* pick(const float* s, const double* d, const std::complex<float>* c, const std::complex<double>* z) const {
    return type == TRN_R_32F ? static_cast<const void*>(s) : type == TRN_R_64F ? static_cast<const void*>(d)
           : type == TRN_C_32F ? static_cast<const void*>(c) : static_cast<const void*>(z);
  }
};

int op_of(int trans) { return trans; }  // 0 N, 1 T, 2 C (python/trnsci/sparse.py maps the names)

// A generic-API call: its _bufferSize query `query(&bytes)`, then `call(workspace)` with the GIL
// released (run_call).
template <class Query, class Call>
std::shared_ptr<ProfileData> with_workspace(const Handle& h, const EmuSettings& s, const char* routine, Query&& query,
                                            Call&& call) {
  size_t bytes = 0;
  check_status<SparseApi>(h.get(), query(&bytes), routine);
  std::vector<unsigned char> work(std::max<size_t>(bytes, 1));
  return run_call<SparseApi>(h.get(), s, routine, [&] { return call(work.data()); });
}

// y = alpha op(A) x + beta y.
py::tuple spmv(const py::object& A, const py::object& X, const py::object& Y, std::complex<double> alpha,
               std::complex<double> beta, int trans, const EmuSettings& s) {
  const Sparse a(A, {"spmv", 1, "a"});
  py::array x = dense_in(X, a, 1, {"spmv", 2, "x"});
  const std::int64_t xn = trans != 0 ? a.rows : a.cols, yn = trans != 0 ? a.cols : a.rows;
  if (x.shape(0) != xn) raise_argument("spmv", 2, "x", "length " + std::to_string(x.shape(0)) + ", op(a) has " + std::to_string(xn) + " columns");
  py::array y = dense_out(Y, a.data.dtype(), {yn}, {"spmv", 3, "y"});
  const Scalars sc(alpha, beta, a.type, "spmv", 4);
  VecOwned vx = dense_vector(x, a.type, "trnsparseCreateDnVec"), vy = dense_vector(y, a.type, "trnsparseCreateDnVec");
  auto* vyd = const_cast<trnsparseDnVecDescr_t>(vy.get());
  const auto op = static_cast<trnsparseOperation_t>(op_of(trans));
  Handle h(s);
  auto p = with_workspace(
      h, s, "spmv",
      [&](size_t* bytes) {
        return trnsparseSpMV_bufferSize(h.get(), op, sc.alpha(), a.get(), vx.get(), sc.beta(), vyd, a.type,
                                        TRNSPARSE_SPMV_ALG_DEFAULT, bytes);
      },
      [&](void* work) {
        return trnsparseSpMV(h.get(), op, sc.alpha(), a.get(), vx.get(), sc.beta(), vyd, a.type, TRNSPARSE_SPMV_ALG_DEFAULT, work);
      });
  return py::make_tuple(y, p);
}

// C = alpha op(A) B + beta C (B, C dense 2-D).
py::tuple spmm(const py::object& A, const py::object& B, const py::object& C, std::complex<double> alpha,
               std::complex<double> beta, int trans, const EmuSettings& s) {
  const Sparse a(A, {"spmm", 1, "a"});
  py::array b = dense_in(B, a, 2, {"spmm", 2, "b"});
  const std::int64_t k = trans != 0 ? a.rows : a.cols, m = trans != 0 ? a.cols : a.rows, n = b.shape(1);
  if (b.shape(0) != k) raise_argument("spmm", 2, "b", "rows " + std::to_string(b.shape(0)) + ", op(a) has " + std::to_string(k) + " columns");
  py::array c = dense_out(C, a.data.dtype(), {m, n}, {"spmm", 3, "c"});
  const Scalars sc(alpha, beta, a.type, "spmm", 4);
  MatOwned mb = dense_matrix(b, a.type, "trnsparseCreateDnMat"), mc = dense_matrix(c, a.type, "trnsparseCreateDnMat");
  auto* mcd = const_cast<trnsparseDnMatDescr_t>(mc.get());
  const auto op = static_cast<trnsparseOperation_t>(op_of(trans));
  constexpr auto N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
  Handle h(s);
  auto p = with_workspace(
      h, s, "spmm",
      [&](size_t* bytes) {
        return trnsparseSpMM_bufferSize(h.get(), op, N, sc.alpha(), a.get(), mb.get(), sc.beta(), mcd, a.type,
                                        TRNSPARSE_SPMM_ALG_DEFAULT, bytes);
      },
      [&](void* work) {
        return trnsparseSpMM(h.get(), op, N, sc.alpha(), a.get(), mb.get(), sc.beta(), mcd, a.type, TRNSPARSE_SPMM_ALG_DEFAULT, work);
      });
  return py::make_tuple(c, p);
}

// values of C = alpha (A @ B) o spy(C) + beta C on C's pattern (A m x k, B k x n dense; C CSR/BSR).
py::tuple sddmm(const py::object& A, const py::object& B, const py::object& C, std::complex<double> alpha,
                std::complex<double> beta, const EmuSettings& s) {
  const Sparse c(C, {"sddmm", 3, "pattern"}, true);
  py::array a = dense_in(A, c, 2, {"sddmm", 1, "a"}), b = dense_in(B, c, 2, {"sddmm", 2, "b"});
  if (a.shape(0) != c.rows || b.shape(1) != c.cols || a.shape(1) != b.shape(0))
    raise_argument("sddmm", 2, "b", "a @ b must have the pattern's shape");
  const Scalars sc(alpha, beta, c.type, "sddmm", 4);
  MatOwned ma = dense_matrix(a, c.type, "trnsparseCreateDnMat"), mb = dense_matrix(b, c.type, "trnsparseCreateDnMat");
  constexpr auto N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
  Handle h(s);
  auto p = with_workspace(
      h, s, "sddmm",
      [&](size_t* bytes) {
        return trnsparseSDDMM_bufferSize(h.get(), N, N, sc.alpha(), ma.get(), mb.get(), sc.beta(), c.mut(), c.type,
                                         TRNSPARSE_SDDMM_ALG_DEFAULT, bytes);
      },
      [&](void* work) {
        return trnsparseSDDMM(h.get(), N, N, sc.alpha(), ma.get(), mb.get(), sc.beta(), c.mut(), c.type,
                              TRNSPARSE_SDDMM_ALG_DEFAULT, work);
      });
  return py::make_tuple(c.data, p);
}

// Krylov solve of A x = b (A BSR float32): which "cg" | "bicgstab" | "gmres"; x0 the initial guess
// (None: zeros); precond 0 none, 1 Jacobi, 2 block Jacobi. Returns (x, iterations, info, history).
py::tuple krylov(const std::string& which, const py::object& A, const py::object& B, const py::object& X0, float tol,
                 int maxiter, int restart, int precond, const EmuSettings& s) {
  const Sparse a(A, {which, 1, "A"});
  py::array b = dense_in(B, a, 1, {which, 2, "b"});
  py::array x = X0.is_none() ? dense_out(py::none(), a.data.dtype(), {b.shape(0)}, {which, 3, "x0"})
                             : py::array(py::module_::import("numpy").attr("array")(dense_in(X0, a, 1, {which, 3, "x0"})));
  VecOwned vb = dense_vector(b, a.type, "trnsparseCreateDnVec"), vx = dense_vector(x, a.type, "trnsparseCreateDnVec");
  auto* vxd = const_cast<trnsparseDnVecDescr_t>(vx.get());
  std::vector<float> history(static_cast<std::size_t>(std::max(maxiter, 0)) + 1, 0.0f);
  const auto pc = static_cast<trnsparsePreconditioner_t>(precond);
  int iterations = 0, info = 0;
  Handle h(s);
  auto p = run_call<SparseApi>(h.get(), s, which, [&] {
    if (which == "cg") return trnsparseBsrCg(h.get(), a.get(), vb.get(), vxd, tol, maxiter, pc, &iterations, history.data(), &info);
    if (which == "bicgstab")
      return trnsparseBsrBicgstab(h.get(), a.get(), vb.get(), vxd, tol, maxiter, pc, &iterations, history.data(), &info);
    return trnsparseBsrGmres(h.get(), a.get(), vb.get(), vxd, tol, maxiter, restart, pc, &iterations, history.data(), &info);
  });
  const std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(iterations) + 1, history.size());
  py::array_t<float> hist(static_cast<py::ssize_t>(count));
  std::copy_n(history.data(), count, hist.mutable_data());
  return py::make_tuple(x, iterations, info, hist, p);
}

const Registrar kSparse("sparse", [](py::module_& m) {
  m.def("spmv", &spmv, "a"_a, "x"_a, "y"_a, "alpha"_a, "beta"_a, "trans"_a, "settings"_a);
  m.def("spmm", &spmm, "a"_a, "b"_a, "c"_a, "alpha"_a, "beta"_a, "trans"_a, "settings"_a);
  m.def("sddmm", &sddmm, "a"_a, "b"_a, "pattern"_a, "alpha"_a, "beta"_a, "settings"_a);
  m.def("krylov", &krylov, "which"_a, "a"_a, "b"_a, "x0"_a, "tol"_a, "maxiter"_a, "restart"_a, "precond"_a, "settings"_a);
});

}  // namespace
}  // namespace trnsci::py
