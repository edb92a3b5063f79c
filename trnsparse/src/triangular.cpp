// Sparse triangular solves (SpSV / SpSM): level-scheduling analysis, the checks and the dispatch to
// the engine paths (triangular_engine.cpp: fp32 / complex-fp32; triangular_fp64.cpp: fp64 / complex-fp64).
// The header trn/sparse/triangular.hpp states the algorithm, its sources and the accuracy bound.
#include "trn/sparse/triangular.hpp"

#include <algorithm>
#include <vector>

#include "generic_detail.hpp"
#include "generic_host.hpp"
#include "triangular_replay.hpp"

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

// The blocked schedule's pattern facts: rows in solve order (position k: row k for a lower op(A),
// n - 1 - k for an upper one) cut into blocks of kTriangularBlock; per block the levels of its own
// diagonal block (entries whose column lies in the same block), and the stored blocks
// (block row, column block) of the strict triangle.
void schedule_blocks(TriangularAnalysis& t) {
  const std::int64_t n = t.n, nb = (n + kTriangularBlock - 1) / kTriangularBlock;
  auto pos = [&](std::int64_t i) { return t.lower_op ? i : n - 1 - i; };
  std::vector<std::int64_t> level(z(n), 0), seen(z(nb), -1);
  t.block_levels.assign(z(nb), 1);
  t.block_slots = 0;
  for (std::int64_t k = 0; k < n; ++k) {
    const std::int64_t i = t.lower_op ? k : n - 1 - k, b = k / kTriangularBlock;
    std::int64_t lev = 0;
    for (std::int64_t e = t.start[z(i)]; e < t.start[z(i) + 1]; ++e) {
      const std::int64_t j = t.col[z(e)], bj = pos(j) / kTriangularBlock;
      if (bj == b) lev = std::max(lev, level[z(j)] + 1);
      if (seen[z(bj)] != b) {
        seen[z(bj)] = b;
        ++t.block_slots;
      }
    }
    level[z(i)] = lev;
    t.block_levels[z(b)] = std::max(t.block_levels[z(b)], lev + 1);
  }
}

template <class T>
bool is_zero(const void* p, std::int64_t i) {
  return load<T>(p, i) == Acc<T>{};
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
  schedule_blocks(t);
  return t;
}

std::int64_t TriangularAnalysis::block_steps() const {
  std::int64_t steps = 0;
  for (const std::int64_t l : block_levels) steps += l;
  return steps;
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
  p.shape = triangular_shape(t, ncols);
  p.variant = std::string(value_name(t.value)) + ": level sets (" + std::to_string(t.levels()) +
              " levels, Anderson & Saad 1989), per level one segmented slice-pair product r = alpha b - L y "
              "(exact, one rounding) and the divide by a_ii on the host";
  p.ops = triangular_ops_text(t, ncols);
  p.engines = "host (slice, fold, divide), DMA, GpSimdE, VectorE, TensorE";
  p.why = "fp64 values: products exact on TensorE through 8-bit slices; the levels are the dependent steps";
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

namespace {

// triangular_solve's checks and path choice; the level-set path with `replay` (may be null).
void solve_dispatch(const Settings& s, const TriangularAnalysis& t, const void* values, const void* diagonal, Scalar alpha,
                    GOp opB, const DenseAny& B, const DenseAny& C, CallReport* report, detail::LevelSetReplay* replay) {
  const std::int64_t m = C.cols;
  if (B.value != t.value || C.value != t.value) invalid("A, B and C must share one value type", "valueType");
  if (C.rows != t.n) invalid("C is not n x ncols", "matC");
  if (opB == GOp::N ? (B.rows != t.n || B.cols != m) : (B.cols != t.n || B.rows != m)) invalid("op(B) is not n x ncols", "matB");
  if (first_zero_pivot(t, values, diagonal) >= 0) invalid("triangular solve: zero pivot", "matA");
  if ((t.value == Value::f32 || t.value == Value::c32) && t.schedule != TriangularAnalysis::Schedule::level_sets &&
      (t.schedule == TriangularAnalysis::Schedule::blocked || blocked_preferred(t, m)))
    return triangular_solve_blocked(s, t, values, diagonal, alpha, opB, B, C, report);
  if (triangular_on_engines(t.value))
    return detail::triangular_solve_engines_replayed(s, t, values, diagonal, alpha, opB, B, C, report, replay);
  triangular_solve_fp64(s, t, values, diagonal, alpha, opB, B, C, report);
}

}  // namespace

void triangular_solve(const Settings& s, const TriangularAnalysis& t, const void* values, const void* diagonal,
                      Scalar alpha, GOp opB, const DenseAny& B, const DenseAny& C, CallReport* report) {
  solve_dispatch(s, t, values, diagonal, alpha, opB, B, C, report, nullptr);
}

void detail::triangular_solve_replayed(const Settings& s, const TriangularAnalysis& t, const void* values, Scalar alpha,
                                       GOp opB, const DenseAny& B, const DenseAny& C, CallReport* report,
                                       LevelSetReplay& replay) {
  solve_dispatch(s, t, values, nullptr, alpha, opB, B, C, report, &replay);
}

}  // namespace trn::sparse
