// fp64 and complex-fp64 (R_64F, C_64F) SpMM / SpMV on CSR, CSC and COO matrices on TensorE, through
// trnblas's fp64 products (docs/trnsparse.md "fp64 CSR, CSC, COO, SELL and SDDMM on TensorE").
//
// Algorithm   Row groups. op(A)'s row pattern is built by a stable counting sort of the stored
//             entries (storage order) by their row of op(A): CSR, CSC, COO and op N / T / C take one
//             path, every op(A) row in increasing column. The rows are cut into groups of G consecutive
//             rows, G of pmax, pmax / 2, ..., 1 by least estimated cost (choose_group_rows: banded
//             rows keep one TensorE row tile of pmax, scattered rows smaller groups). Per group:
//             the distinct columns S of op(A) its entries meet, ascending (u = |S|); the dense G x u
//             panel P (zeros where a row has no entry; conjugated for op C) and the u x n rows of
//             op(B) at S, both gathered on the host (data movement, as the fp32 CSR path's copy
//             into 128 x 128 BSR tiles); then C's rows of the group = alpha P op(B)_S + beta C_g as
//             ONE trnblas call (fp64_engine.hpp fp64_product): n == 1 (SpMV) the fp64 GEMV (dgemv,
//             zgemv: the slice pairs, exact 8-bit slice products on TensorE and an exact fold, one
//             rounding per output part), n > 1 the Ozaki GEMM (dgemm, zgemm 4M; scheme II by
//             default). A group without entries is the GEMM's k = 0 call (C_g = beta C_g).
// Engines     TensorE and DMA (the exact slice / residue products), VectorE, the trnblas host steps
//             (scaling, slicing, fold / reconstruction, alpha-beta epilogue in fp64).
// Accuracy    (u = 2^-53) SpMV, per output: |y_hat_i - y_i| <= 4.1 u (|alpha p_i| + |beta y_i|) real,
//             8 u (|alpha| |p_i| + |beta| |y_i|) complex, p_i = (op(A) x)_i exactly: independent of
//             the condition number (trnblas "fp64 Levels 1 and 2"). SpMM, per output:
//             |C_hat - C| <= q (2^-50 u max_k |op(A)_ik| max_{k in S} |op(B)_kj| |alpha| + 4 u (|alpha|
//             |op(A)| |op(B)| + |beta| |C|)), q = 1 real, 2 complex (trnblas "Ozaki", k = u). Derivations
//             in docs/trnsparse.md.
// Limits      One trnblas call per group: per-call costs (the host steps' round trips) scale with
//             ceil(M / G). The panel holds G u values: a group whose rows share few columns pads up
//             to G x its entries (docs/trnsparse.md says when BSR / dense is the faster choice).
#include <algorithm>
#include <complex>
#include <functional>
#include <string>
#include <vector>

#include "fp64_engine.hpp"
#include "generic_detail.hpp"
#include "generic_host.hpp"
#include "op_pattern.hpp"
#include "segmented_spmv.hpp"
#include "trn/sparse/generic.hpp"

namespace trn::sparse {

using namespace generic_detail;  // NOLINT: this file's own helpers
using fp64_engine::z;

namespace {

// The distinct columns the rows [r0, r1) meet, ascending, into `cols`; where[j] = j's position.
// stamp[j] == r0 marks a column already taken by this group (groups start at distinct rows).
void group_columns(const OpPattern& p, std::int64_t r0, std::int64_t r1, std::vector<std::int64_t>& stamp,
                   std::vector<std::int64_t>& where, std::vector<std::int64_t>& cols) {
  cols.clear();
  for (std::int64_t e = p.start[z(r0)]; e < p.start[z(r1)]; ++e) {
    const std::int64_t j = p.col[z(e)];
    if (stamp[z(j)] == r0) continue;
    stamp[z(j)] = r0;
    cols.push_back(j);
  }
  std::sort(cols.begin(), cols.end());
  for (std::size_t q = 0; q < cols.size(); ++q) where[z(cols[q])] = static_cast<std::int64_t>(q);
}

// The distinct columns u of rows [r0, r1) of the pattern: stamp[c] == r0 marks column c as seen in
// this group (the caller fills stamp with -1 before a pass over increasing r0).
std::int64_t distinct_columns_of_rows(const OpPattern& p, std::int64_t r0, std::int64_t r1, std::vector<std::int64_t>& stamp) {
  std::int64_t u = 0;
  for (std::int64_t e = p.start[z(r0)]; e < p.start[z(r1)]; ++e)
    if (stamp[z(p.col[z(e)])] != r0) {
      stamp[z(p.col[z(e)])] = r0;
      ++u;
    }
  return u;
}

// The panel values sum_g rows_g u_g of the groups of G rows (one pass over the pattern).
std::int64_t panel_values_of(const OpPattern& p, std::int64_t G, std::vector<std::int64_t>& stamp) {
  std::fill(stamp.begin(), stamp.end(), -1);
  std::int64_t total = 0;
  for (std::int64_t r0 = 0; r0 < p.rows; r0 += G) {
    const std::int64_t r1 = std::min(p.rows, r0 + G);
    total += (r1 - r0) * distinct_columns_of_rows(p, r0, r1, stamp);
  }
  return total;
}

// The rows per group: of G = pmax, pmax / 2, ..., 1 the one of least estimated cost, the cost being
// what dominates the trnblas calls on these panels -- their host round trips (two per call: slicing /
// scaling, fold / reconstruction) and the panel values they move over the host link and slice
// (trnblas "fp64 Levels 1 and 2": 8 + 3 S flops per element, S ~ 7 slices; the bytes there and back,
// and the gathered op(B) rows), priced by host_step_ns on trn1's figures whatever the target, so
// that the grouping (and with it the bits) depends on the pattern alone. Scattered rows share few
// columns and take small groups (less padding, more calls); banded rows keep pmax.
std::int64_t choose_group_rows(const OpPattern& p, std::int64_t pmax, std::size_t value_bytes, std::int64_t n) {
  const HardwareSpec& hw = hardware_spec(Generation::trn1);
  std::vector<std::int64_t> stamp(z(p.cols));
  std::int64_t best = pmax;
  double best_ns = 0;
  for (std::int64_t G = pmax; G >= 1; G /= 2) {
    const auto values = static_cast<double>(panel_values_of(p, G, stamp));
    const auto calls = static_cast<double>((p.rows + G - 1) / G);
    const double ns = 2 * calls * host_step_ns(0, 0, hw) +
                      host_step_ns(values * static_cast<double>(value_bytes) * (2.0 + static_cast<double>(n)), values * 29.0, hw);
    if (G == pmax || ns < best_ns) {
      best = G;
      best_ns = ns;
    }
  }
  return best;
}

// The elements of a complex group's real representation as trnblas's zgemv multiplies it: x's 2u
// parts and the 2u x 2 rows matrix (u distinct columns, `rows` rows).
std::int64_t real_form_elements(std::int64_t rows, std::int64_t u) { return 2 * u * (2 * rows + 1); }

// The largest of G, G / 2, ..., 1 whose groups' real representations each hold fewer than
// max_elements elements (1 when none does). Pattern only, like choose_group_rows.
std::int64_t cap_group_rows(const OpPattern& p, std::int64_t G, std::int64_t max_elements, std::vector<std::int64_t>& stamp) {
  for (; G > 1; G /= 2) {
    std::fill(stamp.begin(), stamp.end(), -1);
    bool fits = true;
    for (std::int64_t r0 = 0; r0 < p.rows && fits; r0 += G) {
      const std::int64_t r1 = std::min(p.rows, r0 + G);
      fits = real_form_elements(r1 - r0, distinct_columns_of_rows(p, r0, r1, stamp)) < max_elements;
    }
    if (fits) break;
  }
  return G;
}

template <class T>
struct RowProduct {
  blas::Settings bs;
  GOp opA, opB;
  Scalar alpha, beta;
  const DenseAny* B;
  const T* vals;
  T* c;  // column-major M x n
  std::int64_t ldc, n;
};

// The group's buffers, reused from group to group.
template <class T>
struct GroupBuffers {
  std::vector<std::int64_t> stamp, where, cols;
  std::vector<T> panel, gathered;
};

// Rows [r0, r1) of op(A): gather the panel and op(B)'s rows, run the one trnblas call into C's rows.
template <class T>
void group_product(const RowProduct<T>& g, const OpPattern& p, std::int64_t r0, std::int64_t r1, GroupBuffers<T>& w,
                   blas::CallReport* rep) {
  using generic_host::conj_if;
  group_columns(p, r0, r1, w.stamp, w.where, w.cols);
  const std::int64_t rows = r1 - r0, u = static_cast<std::int64_t>(w.cols.size());
  w.panel.assign(z(rows * std::max<std::int64_t>(u, 1)), T{});
  w.gathered.assign(z(std::max<std::int64_t>(u, 1) * g.n), T{});
  for (std::int64_t r = r0; r < r1; ++r)
    for (std::int64_t e = p.start[z(r)]; e < p.start[z(r) + 1]; ++e)
      w.panel[z(r - r0 + w.where[z(p.col[z(e)])] * rows)] = conj_if(g.vals[p.entry[z(e)]], g.opA == GOp::C);
  const auto* b = static_cast<const T*>(g.B->data);
  for (std::int64_t col = 0; col < g.n; ++col)
    for (std::int64_t q = 0; q < u; ++q) {
      const std::int64_t k = w.cols[z(q)];
      w.gathered[z(q + col * u)] = g.opB == GOp::N ? b[generic_host::at(*g.B, k, col)]
                                                   : conj_if(b[generic_host::at(*g.B, col, k)], g.opB == GOp::C);
    }
  fp64_engine::fp64_product(g.bs, rows, g.n, u, g.alpha, w.panel.data(), w.gathered.data(), g.beta, g.c + r0, g.ldc,
                            true, rep);
}

std::string rows_plan(const SparseRef& A, GOp opA, std::int64_t M, std::int64_t K, std::int64_t n, std::int64_t G,
                      std::int64_t groups, std::int64_t panel_values, double ns) {
  const bool real = A.value == Value::f64;
  const double density = panel_values > 0 ? 100.0 * static_cast<double>(A.nnz) / static_cast<double>(panel_values) : 0.0;
  return std::string(n == 1 ? "spmv" : "spmm") + " plan: " + generic_host::format_name(A.format) + " " +
         value_name(A.value) + " " + std::to_string(M) + "x" + std::to_string(K) + " nnz=" + std::to_string(A.nnz) +
         " n=" + std::to_string(n) + " op(A)=" + generic_host::op_name(opA) + "; row groups of " + std::to_string(G) + " rows of op(A) (" +
         std::to_string(groups) + " calls), each a dense panel of the group's distinct columns gathered on the host (" +
         std::to_string(panel_values) + " panel values, " + std::to_string(density) + "% stored), one trnblas " +
         (n == 1 ? (real ? "dgemv (fp64 slice pairs)" : "zgemv (fp64 slice pairs, real representation)")
                 : (real ? "Ozaki dgemm" : "Ozaki zgemm 4M")) +
         " per group; engines TensorE, DMA, VectorE, trnblas host steps; modeled " + std::to_string(ns / 1000.0) + " us";
}

// op(A)'s rows `p` (entries index vals) in row groups, one trnblas call per group; the plan's facts.
template <class T>
RowGroupFacts rows_product(const Settings& s, GOp opA, GOp opB, Scalar alpha, const OpPattern& p, const T* vals,
                           const DenseAny& B, Scalar beta, const DenseAny& C, CallReport* report,
                           const std::function<std::string(const RowGroupFacts&, double)>& plan,
                           std::int64_t max_real_form_elements = 0) {
  const std::int64_t M = p.rows, K = p.cols, n = C.cols;
  fp64_engine::ColumnMajorC<T> cm(C, M, n);
  const RowProduct<T> g{fp64_engine::blas_settings(s), opA, opB, alpha, beta, &B, vals, cm.data, cm.ld, n};
  GroupBuffers<T> w;
  w.stamp.assign(z(K), -1);
  w.where.assign(z(K), 0);
  fp64_engine::CallSum sum;
  RowGroupFacts f;
  f.G = choose_group_rows(p, hardware_spec(s.target).pmax, sizeof(T), n);
  if (max_real_form_elements > 0) {
    f.G = cap_group_rows(p, f.G, max_real_form_elements, w.stamp);
    std::fill(w.stamp.begin(), w.stamp.end(), -1);  // group_columns' marks start afresh
  }
  for (std::int64_t r0 = 0; r0 < M && n > 0; r0 += f.G) {  // groups one after the other
    const std::int64_t r1 = std::min(M, r0 + f.G);
    blas::CallReport rep;
    rep.plans_wanted = false;
    group_product(g, p, r0, r1, w, &rep);
    f.panel_values += (r1 - r0) * static_cast<std::int64_t>(w.cols.size());
    f.largest_real_form =
        std::max(f.largest_real_form, real_form_elements(r1 - r0, static_cast<std::int64_t>(w.cols.size())));
    sum.add(rep);
  }
  cm.finish();
  f.groups = sum.calls;
  sum.into(report, sum.calls, [&](double ns) { return plan(f, ns); });
  return f;
}

}  // namespace

void spmm_fp64(const Settings& s, GOp opA, GOp opB, Scalar alpha, const SparseRef& A, const DenseAny& B, Scalar beta,
               const DenseAny& C, CallReport* report) {
  generic_detail::check_product_shapes(opA, opB, A, B, C);
  if (C.cols >= 1 && C.cols <= kSegmentedMaxColumns && (A.value == Value::f64 || A.value == Value::c64)) {
    spmm_fp64_segmented(s, opA, opB, alpha, A, B, beta, C, report);
    return;
  }
  const OpPattern p = op_pattern(A, opA);
  fp64_engine::dispatch_wide(A.value, [&](auto t) {
    using T = decltype(t);
    rows_product<T>(s, opA, opB, alpha, p, static_cast<const T*>(A.values), B, beta, C, report,
                    [&](const RowGroupFacts& f, double ns) {
                      return rows_plan(A, opA, p.rows, p.cols, C.cols, f.G, f.groups, f.panel_values, ns);
                    });
  });
}

RowGroupFacts spmm_fp64_row_groups(const Settings& s, GOp opA, GOp opB, Scalar alpha, const OpPattern& p, Value value,
                                   const void* values, const DenseAny& B, Scalar beta, const DenseAny& C,
                                   CallReport* report, const std::function<std::string(const RowGroupFacts&, double)>& plan,
                                   std::int64_t max_real_form_elements) {
  if (value == Value::f64)
    return rows_product<double>(s, opA, opB, alpha, p, static_cast<const double*>(values), B, beta, C, report, plan,
                                max_real_form_elements);
  return rows_product<std::complex<double>>(s, opA, opB, alpha, p, static_cast<const std::complex<double>*>(values), B,
                                            beta, C, report, plan, max_real_form_elements);
}

}  // namespace trn::sparse
