// trnsparse generic API, arithmetic part: SpMM / SpMV over CSR, CSC and COO in fp64, complex-fp32
// and complex-fp64 as one costed host step (the header generic.hpp says why and derives the accuracy
// bounds); the sparse-vector operations dispatch to the engines (spvec_engine.cpp: R_32F / C_32F and
// every Gather / Scatter; spvec_fp64.cpp: R_64F / C_64F Axpby, Rot, SpVV). Every loop accumulates in fp64 or
// complex<double> in storage order, so the bits depend on nothing but the inputs.
#include <complex>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "generic_detail.hpp"
#include "generic_host.hpp"
#include "spvec_engine.hpp"
#include "trn/core/host_step.hpp"
#include "trn/sparse/generic.hpp"

namespace trn::sparse {

using namespace generic_detail;  // NOLINT: this file's own helpers
using namespace generic_host;    // NOLINT: the host-step helpers

namespace {

template <class T>
void spmm_typed(GOp opA, GOp opB, Scalar alpha, const SparseRef& A, const DenseAny& B, Scalar beta, const DenseAny& C) {
  using V = Acc<T>;
  const std::int64_t M = C.rows, n = C.cols;
  std::vector<V> acc(static_cast<std::size_t>(M * n), V{});
  for_each_entry(A, [&](std::int64_t i, std::int64_t j, std::int64_t e) {
    const V a = conj_if(load<T>(A.values, e), opA == GOp::C);
    const std::int64_t r = opA == GOp::N ? i : j, k = opA == GOp::N ? j : i;
    for (std::int64_t c = 0; c < n; ++c) {
      const V b = opB == GOp::N ? load<T>(B.data, at(B, k, c)) : conj_if(load<T>(B.data, at(B, c, k)), opB == GOp::C);
      acc[static_cast<std::size_t>(r + c * M)] += a * b;
    }
  });
  const V al = from_scalar<V>(alpha), be = from_scalar<V>(beta);
  const bool read_c = beta != Scalar{};
  for (std::int64_t c = 0; c < n; ++c)
    for (std::int64_t r = 0; r < M; ++r) {
      V v = al * acc[static_cast<std::size_t>(r + c * M)];
      if (read_c) v += be * load<T>(C.data, at(C, r, c));
      store<T>(C.data, at(C, r, c), v);
    }
}

}  // namespace

namespace {

PlanFacts host_product_facts(const char* routine, GOp opA, const SparseRef& A, std::int64_t n) {
  PlanFacts p;
  p.routine = routine;
  p.shape = std::to_string(A.rows) + "x" + std::to_string(A.cols) + " nnz=" + std::to_string(A.nnz) +
            " n=" + std::to_string(n) + " op(A)=" + op_name(opA);
  p.variant = std::string(format_name(A.format)) + " " + value_name(A.value) +
              ": entry loop with fp64 accumulators on the host (one round trip)";
  const double per = is_complex(A.value) ? 8.0 : 2.0;
  p.ops = std::to_string(static_cast<long long>(per * static_cast<double>(A.nnz) * static_cast<double>(n))) + " flops";
  p.engines = "host CPU (costed host step), host link";
  p.why = "no NeuronCore engine computes in fp64 or complex; fp32 real values take the TensorE BSR path";
  return p;
}

}  // namespace

std::string host_product_plan(const char* routine, GOp opA, const SparseRef& A, std::int64_t n) {
  return host_product_facts(routine, opA, A, n).print();
}

namespace {

// spmm_host's product under the plan name `routine` ("spmm", or "spmv" for one column).
void host_product(const char* routine, const Settings& s, GOp opA, GOp opB, Scalar alpha, const SparseRef& A,
                  const DenseAny& B, Scalar beta, const DenseAny& C, CallReport* report) {
  if (A.value == Value::f64 || A.value == Value::c64) {  // TensorE: row groups through trnblas (rows_fp64.cpp)
    spmm_fp64(s, opA, opB, alpha, A, B, beta, C, report);
    return;
  }
  const std::int64_t M = generic_detail::check_product_shapes(opA, opB, A, B, C).first;
  dispatch(A.value, [&](auto t) { spmm_typed<decltype(t)>(opA, opB, alpha, A, B, beta, C); });
  const double per = is_complex(A.value) ? 8.0 : 2.0;
  const double flops = per * static_cast<double>(A.nnz) * static_cast<double>(C.cols) +
                       (is_complex(A.value) ? 14.0 : 3.0) * static_cast<double>(M) * static_cast<double>(C.cols);
  const auto a = sparse_spans(A);
  finish_host(s,
              HostStep{.name = "trnsparse.spmm.host", .flops = flops, .reads = {a[0], a[1], a[2], dense_span(B)},
                       .writes = {dense_span(C)}},
              host_product_facts(routine, opA, A, C.cols), report);
}

}  // namespace

void spmm_host(const Settings& s, GOp opA, GOp opB, Scalar alpha, const SparseRef& A, const DenseAny& B, Scalar beta,
               const DenseAny& C, CallReport* report) {
  host_product("spmm", s, opA, opB, alpha, A, B, beta, C, report);
}

void spmv_host(const Settings& s, GOp opA, Scalar alpha, const SparseRef& A, const void* x, Scalar beta, void* y,
               CallReport* report) {
  const std::int64_t M = opA == GOp::N ? A.rows : A.cols, K = opA == GOp::N ? A.cols : A.rows;
  const DenseAny X{const_cast<void*>(x), A.value, K, 1, std::max<std::int64_t>(K, 1), Layout::col_major};
  const DenseAny Y{y, A.value, M, 1, std::max<std::int64_t>(M, 1), Layout::col_major};
  if (report != nullptr) report->plan.clear();  // the spmv plan alone (as before the prediction)
  host_product("spmv", s, opA, GOp::N, alpha, A, X, beta, Y, report);
}

// ---- sparse vectors ---------------------------------------------------------------------------
// R_32F / C_32F on VectorE (spvec_engine.cpp), R_64F / C_64F as exact slice-pair dots of the
// segmented kernel (spvec_fp64.cpp).

void axpby(const Settings& s, Scalar alpha, const SpVecRef& x, Scalar beta, void* y, CallReport* report) {
  validate(x);
  if (spvec_on_engines(x.value)) return axpby_engines(s, alpha, x, beta, y, report);
  axpby_fp64_engines(s, alpha, x, beta, y, report);
}

void rot(const Settings& s, Scalar c, Scalar sn, const SpVecRef& x, void* y, CallReport* report) {
  validate(x);
  if (spvec_on_engines(x.value)) return rot_engines(s, c, sn, x, y, report);
  rot_fp64_engines(s, c, sn, x, y, report);
}

Scalar spvv(const Settings& s, GOp opX, const SpVecRef& x, const void* y, CallReport* report) {
  validate(x);
  if (spvec_on_engines(x.value)) return spvv_engines(s, opX, x, y, report);
  return spvv_fp64_engines(s, opX, x, y, report);
}

void gather(const Settings& s, const void* y, const SpVecRef& x, CallReport* report) {
  validate(x);
  move_engines(s, true, x, const_cast<void*>(y), report);
}

void scatter(const Settings& s, const SpVecRef& x, void* y, CallReport* report) {
  validate(x);
  move_engines(s, false, x, y, report);
}

}  // namespace trn::sparse
