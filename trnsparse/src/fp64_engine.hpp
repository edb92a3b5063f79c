// Helpers shared by trnsparse's fp64 / complex-fp64 engine paths (block_fp64.cpp: BSR and Blocked-ELL;
// rows_fp64.cpp: CSR / CSC / COO row groups and SDDMM): trnblas settings from trnsparse's, a
// column-major working copy of a row-major C, and the sum of the trnblas calls' reports.
#pragma once
#include <algorithm>
#include <complex>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "trn/blas/blas.hpp"
#include "trn/blas/level12.hpp"
#include "trn/blas/level3.hpp"
#include "trn/sparse/generic.hpp"

namespace trn::sparse::fp64_engine {

inline auto z(std::int64_t i) { return static_cast<std::size_t>(i); }

// trnblas's settings with the handle's emulator settings (target, cores, threads, numerics) and
// trnblas's defaults for the Ozaki scheme (CRT, automatic bits) and the fp64 vector algorithm.
inline blas::Settings blas_settings(const Settings& s) {
  blas::Settings bs;
  static_cast<EmulatorSettings&>(bs) = s;
  return bs;
}

// C (M x n) as the column-major array the trnblas calls write: C itself when column-major, else a
// copy (host data movement, as the BSR path's) written back by `finish`.
template <class T>
struct ColumnMajorC {
  const DenseAny* C;
  std::int64_t M, n;
  std::vector<T> scratch;
  T* data = nullptr;
  std::int64_t ld = 1;
  ColumnMajorC(const DenseAny& c, std::int64_t rows, std::int64_t cols) : C(&c), M(rows), n(cols) {
    data = static_cast<T*>(c.data);
    ld = std::max<std::int64_t>(c.ld, 1);
    if (c.layout != Layout::row_major) return;
    scratch.resize(z(M * n));
    for (std::int64_t i = 0; i < M; ++i)
      for (std::int64_t j = 0; j < n; ++j) scratch[z(i + j * M)] = static_cast<const T*>(c.data)[i * c.ld + j];
    data = scratch.data();
    ld = std::max<std::int64_t>(M, 1);
  }
  void finish() {
    if (C->layout != Layout::row_major) return;
    for (std::int64_t i = 0; i < M; ++i)
      for (std::int64_t j = 0; j < n; ++j) static_cast<T*>(C->data)[i * C->ld + j] = scratch[z(i + j * M)];
  }
};

// The trnblas calls of one product, one after the other (trn::append_sequential: no overlap).
struct CallSum {
  CallReport total;
  std::int64_t calls = 0;
  void add(const blas::CallReport& rep) {
    if (calls++ == 0)
      total.profile = rep.profile;
    else
      append_sequential(total.profile, rep.profile);
    total.matmuls += rep.tensor_passes;
  }
  // Moves the sum into the caller's report (keeping its plans_wanted) with the plan text `plan`
  // (printed only when wanted: it carries the modeled time, so it is built after the calls).
  template <class PlanText>
  void into(CallReport* report, std::int64_t blocks, PlanText&& plan) {
    if (report == nullptr) return;
    const bool wanted = report->plans_wanted;
    *report = std::move(total);
    report->blocks = blocks;
    if (wanted) report->add_plan(plan(report->profile.total_ns));
  }
};

// C (m x n, column-major, ld ldc) = alpha a b + beta C with a m x k and b k x n contiguous column-major,
// as ONE trnblas call: n == 1 and k > 0 with `vector_ok` the fp64 GEMV (dgemv; zgemv through its real
// representation: the fp64 slice pairs, exact products and fold, one rounding per output part),
// else the Ozaki GEMM (dgemm; zgemm 4M). k == 0 is the GEMM's C = beta C.
inline void fp64_product(const blas::Settings& bs, std::int64_t m, std::int64_t n, std::int64_t k, Scalar alpha,
                         const double* a, const double* b, Scalar beta, double* c, std::int64_t ldc, bool vector_ok,
                         blas::CallReport* rep) {
  const std::int64_t lda = std::max<std::int64_t>(m, 1);
  if (vector_ok && n == 1 && k > 0)
    blas::gemv(bs, blas::Op::N, m, k, alpha.real(), a, lda, b, 1, beta.real(), c, 1, rep);
  else
    blas::dgemm(bs, blas::Op::N, blas::Op::N, m, n, k, alpha.real(), a, lda, b, std::max<std::int64_t>(k, 1),
                beta.real(), c, ldc, rep);
}
inline void fp64_product(const blas::Settings& bs, std::int64_t m, std::int64_t n, std::int64_t k, Scalar alpha,
                         const std::complex<double>* a, const std::complex<double>* b, Scalar beta,
                         std::complex<double>* c, std::int64_t ldc, bool vector_ok, blas::CallReport* rep) {
  const std::int64_t lda = std::max<std::int64_t>(m, 1);
  if (vector_ok && n == 1 && k > 0)
    blas::gemv(bs, blas::Op::N, false, m, k, alpha, a, lda, b, 1, beta, c, 1, rep);
  else
    blas::zgemm(bs, blas::ComplexAlgo::four_m, blas::COp::N, blas::COp::N, m, n, k, alpha, a, lda, b,
                std::max<std::int64_t>(k, 1), beta, c, ldc, rep);
}

}  // namespace trn::sparse::fp64_engine

namespace trn::sparse {
struct OpPattern;
// rows_fp64.cpp's row groups on a given op(A) row pattern (entries index `values`, R_64F or C_64F): the
// groups' size, count and panel values, for the caller's plan text. max_real_form_elements > 0 (C_64F)
// caps the rows per group further: G halves (pattern only) until every group's real representation,
// as trnblas's zgemv multiplies it (x's 2u parts and the 2u x 2 rows matrix, u distinct columns),
// holds fewer elements than that, or G = 1.
struct RowGroupFacts {
  std::int64_t G = 1, groups = 0, panel_values = 0;
  std::int64_t largest_real_form = 0;  // the most elements of a group's real representation (as above)
};
RowGroupFacts spmm_fp64_row_groups(const Settings& s, GOp opA, GOp opB, Scalar alpha, const OpPattern& p, Value value,
                                   const void* values, const DenseAny& B, Scalar beta, const DenseAny& C,
                                   CallReport* report, const std::function<std::string(const RowGroupFacts&, double)>& plan,
                                   std::int64_t max_real_form_elements = 0);
}  // namespace trn::sparse

namespace trn::sparse::fp64_engine {

template <class F>
void dispatch_wide(Value v, F&& f) {
  if (v == Value::f64)
    f(double{});
  else if (v == Value::c64)
    f(std::complex<double>{});
  else
    throw InvalidArgument("trnsparse: the fp64 engine path takes R_64F or C_64F values", "valueType");
}

}  // namespace trn::sparse::fp64_engine
