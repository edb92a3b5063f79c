// Sparse triangular solves (SpSV / SpSM): level-scheduling analysis and the costed host-step solve.
// The header trn/sparse/triangular.hpp states the algorithm, its sources and the accuracy bound.
#include "trn/sparse/triangular.hpp"

#include <algorithm>
#include <vector>

#include "generic_detail.hpp"
#include "generic_host.hpp"

namespace trn::sparse {

using namespace generic_detail;  // NOLINT: the generic API's index helpers
using namespace generic_host;    // NOLINT: the host-step helpers

namespace {

std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

// Levels of Anderson & Saad: rows in dependency order, then grouped by level (stable: by row).
void schedule_levels(TriangularAnalysis& t) {
  const std::int64_t n = t.n;
  std::vector<std::int64_t> level(z(n), 0);
  std::int64_t top = -1;
  for (std::int64_t k = 0; k < n; ++k) {
    const std::int64_t i = t.lower_op ? k : n - 1 - k;
    std::int64_t lev = 0;
    for (std::int64_t e = t.start[z(i)]; e < t.start[z(i) + 1]; ++e) lev = std::max(lev, level[z(t.col[z(e)])] + 1);
    level[z(i)] = lev;
    top = std::max(top, lev);
  }
  t.level_start.assign(z(top + 2), 0);
  for (std::int64_t i = 0; i < n; ++i) ++t.level_start[z(level[z(i)]) + 1];
  for (std::size_t l = 1; l < t.level_start.size(); ++l) t.level_start[l] += t.level_start[l - 1];
  std::vector<std::int64_t> next(t.level_start.begin(), t.level_start.end() - 1);
  t.order.assign(z(n), 0);
  for (std::int64_t i = 0; i < n; ++i) t.order[z(next[z(level[z(i)])]++)] = i;
}

template <class T>
bool is_zero(const void* p, std::int64_t i) {
  return load<T>(p, i) == Acc<T>{};
}

template <class T>
void solve_typed(const TriangularAnalysis& t, const void* values, const void* diagonal, Scalar alpha, GOp opB,
                 const DenseAny& B, const DenseAny& C) {
  using V = Acc<T>;
  const std::int64_t n = t.n, m = C.cols;
  const V al = from_scalar<V>(alpha);
  const bool conj_a = t.op == GOp::C;
  std::vector<V> w(z(n * m));  // alpha op(B), then Y row by row (fp64)
  for (std::int64_t c = 0; c < m; ++c)
    for (std::int64_t i = 0; i < n; ++i)
      w[z(i + c * n)] = al * (opB == GOp::N ? load<T>(B.data, at(B, i, c)) : conj_if(load<T>(B.data, at(B, c, i)), opB == GOp::C));
  for (std::int64_t c = 0; c < m; ++c) {
    V* y = w.data() + c * n;
    for (const std::int64_t i : t.order) {
      V s = y[i];
      for (std::int64_t e = t.start[z(i)]; e < t.start[z(i) + 1]; ++e)
        s -= conj_if(load<T>(values, t.src[z(e)]), conj_a) * y[t.col[z(e)]];
      if (!t.unit) s /= conj_if(diagonal != nullptr ? load<T>(diagonal, i) : load<T>(values, t.diag[z(i)]), conj_a);
      y[i] = s;
    }
  }
  for (std::int64_t c = 0; c < m; ++c)
    for (std::int64_t i = 0; i < n; ++i) store<T>(C.data, at(C, i, c), w[z(i + c * n)]);
}

}  // namespace

TriangularAnalysis analyze_triangular(const SparseRef& A, bool lower, bool unit, GOp op) {
  validate(A);
  if (A.rows != A.cols) invalid("triangular solve: A must be square", "matA");
  TriangularAnalysis t;
  t.n = A.rows;
  t.nnz = A.nnz;
  t.value = A.value;
  t.op = op;
  t.lower_op = (op == GOp::N) == lower;
  t.unit = unit;
  t.diag.assign(z(t.n), -1);
  t.start.assign(z(t.n) + 1, 0);
  auto keep = [&](std::int64_t i, std::int64_t j) { return lower ? j < i : j > i; };  // strict triangle
  for_each_entry(A, [&](std::int64_t i, std::int64_t j, std::int64_t e) {
    if (i == j && !unit) t.diag[z(i)] = e;  // a unit diagonal is never read, as cuSPARSE
    if (keep(i, j)) ++t.start[z(op == GOp::N ? i : j) + 1];
  });
  for (std::int64_t i = 0; i < t.n; ++i) t.start[z(i) + 1] += t.start[z(i)];
  t.col.resize(z(t.start.back()));
  t.src.resize(t.col.size());
  std::vector<std::int64_t> next(t.start.begin(), t.start.end() - 1);
  for_each_entry(A, [&](std::int64_t i, std::int64_t j, std::int64_t e) {
    if (!keep(i, j)) return;
    const std::int64_t r = op == GOp::N ? i : j;
    t.col[z(next[z(r)])] = op == GOp::N ? j : i;
    t.src[z(next[z(r)]++)] = e;
  });
  for (std::int64_t i = 0; i < t.n; ++i)
    t.max_row = std::max(t.max_row, t.start[z(i) + 1] - t.start[z(i)] + (t.diag[z(i)] >= 0 ? 1 : 0));
  schedule_levels(t);
  return t;
}

std::int64_t first_zero_pivot(const TriangularAnalysis& t, const void* values, const void* diagonal) {
  if (t.unit) return -1;
  std::int64_t row = -1;
  dispatch(t.value, [&](auto tag) {
    using T = decltype(tag);
    for (std::int64_t i = 0; i < t.n && row < 0; ++i) {
      const bool zero = diagonal != nullptr ? is_zero<T>(diagonal, i) : t.diag[z(i)] < 0 || is_zero<T>(values, t.diag[z(i)]);
      if (zero) row = i;
    }
  });
  return row;
}

namespace {

PlanFacts triangular_facts(const char* routine, const TriangularAnalysis& t, std::int64_t ncols) {
  PlanFacts p;
  p.routine = routine;
  p.shape = std::to_string(t.n) + "x" + std::to_string(t.n) + " triangle nnz=" + std::to_string(t.col.size()) +
            "+diag ncols=" + std::to_string(ncols) + " op(A)=" + op_name(t.op) + (t.lower_op ? " lower" : " upper") +
            (t.unit ? " unit" : " non-unit");
  p.variant = std::string(value_name(t.value)) + ": level-scheduled substitution (" + std::to_string(t.levels()) +
              " levels, Anderson & Saad 1989) with fp64 arithmetic on the host (one round trip)";
  const double per = is_complex(t.value) ? 8.0 : 2.0;
  p.ops = std::to_string(static_cast<long long>(per * static_cast<double>(t.col.size() + z(t.n)) * static_cast<double>(ncols))) +
          " flops";
  p.engines = "host CPU (costed host step), host link";
  p.why = "fp64 values: no fp64 engine, and the per-level trnblas fp64 products would cost two host round trips per "
          "level; the levels bound the dependent steps a device schedule would take";
  if (triangular_on_engines(t.value)) {  // the solve's own report prints the measured plan (triangular_engine.cpp)
    p.variant = std::string(value_name(t.value)) + ": level sets (" + std::to_string(t.levels()) +
                " levels, Anderson & Saad 1989), one tile step per chunk of <= pmax rows of a level";
    p.engines = "DMA (gathers of solved entries), VectorE";
    p.why = "fp32 values: rows of one level are independent partitions";
  }
  return p;
}

}  // namespace

std::string triangular_plan(const char* routine, const TriangularAnalysis& t, std::int64_t ncols) {
  return triangular_facts(routine, t, ncols).print();
}

void triangular_solve(const Settings& s, const TriangularAnalysis& t, const void* values, const void* diagonal,
                      Scalar alpha, GOp opB, const DenseAny& B, const DenseAny& C, CallReport* report) {
  const std::int64_t m = C.cols;
  if (B.value != t.value || C.value != t.value) invalid("A, B and C must share one value type", "valueType");
  if (C.rows != t.n) invalid("C is not n x ncols", "matC");
  if (opB == GOp::N ? (B.rows != t.n || B.cols != m) : (B.cols != t.n || B.rows != m)) invalid("op(B) is not n x ncols", "matB");
  if (first_zero_pivot(t, values, diagonal) >= 0) invalid("triangular solve: zero pivot", "matA");
  if (triangular_on_engines(t.value)) return triangular_solve_engines(s, t, values, diagonal, alpha, opB, B, C, report);
  dispatch(t.value, [&](auto tag) { solve_typed<decltype(tag)>(t, values, diagonal, alpha, opB, B, C); });
  const double per = is_complex(t.value) ? 8.0 : 2.0;
  const double flops = per * static_cast<double>(t.col.size() + z(t.n)) * static_cast<double>(m);
  const std::size_t vb = value_bytes(t.value);
  const std::int64_t idx_words = static_cast<std::int64_t>(t.start.size() + 2 * t.col.size() + t.diag.size());
  // The analysis (offsets, columns, entry numbers, diagonal positions) is the device-resident index
  // structure the step reads with A's values; the levels order the rows and are not moved.
  HostSpan index = bytes_span(t.diag.data(), t.n, 8);
  index.bytes = static_cast<std::size_t>(idx_words) * 8;
  finish_host(s,
              HostStep{.name = "trnsparse.spsv.host", .flops = flops,
                       .reads = {bytes_span(values, t.nnz, vb), index,
                                 bytes_span(diagonal, diagonal != nullptr ? t.n : 0, vb), dense_span(B)},
                       .writes = {dense_span(C)}},
              triangular_facts(C.cols == 1 ? "spsv" : "spsm", t, m), report);
}

}  // namespace trn::sparse
