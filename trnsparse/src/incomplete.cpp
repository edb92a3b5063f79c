// Incomplete factorizations IC(0) / ILU(0) (cuSPARSE csric02 / csrilu02): pattern analysis and the
// costed host-step factorization. The header trn/sparse/incomplete.hpp states the algorithm, its
// sources, the accuracy bound and the zero-pivot rule.
#include "trn/sparse/incomplete.hpp"

#include <cmath>
#include <type_traits>
#include <vector>

#include "generic_detail.hpp"
#include "generic_host.hpp"

namespace trn::sparse {

using namespace generic_host;  // NOLINT: the host-step helpers

namespace {

std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

// What one factorization did: the first zero pivot (or -1) and its operation count.
struct Outcome {
  std::int64_t pivot = -1;
  double updates = 0, divisions = 0;
};
// w[q] -= l w[f] for row i's entries q in [q, hi) and row k's entries f in [f, f_end) of one column,
// f increasing (both sorted by column). Returns the updates.
template <class V>
std::int64_t minus_products(V* __restrict w, const std::int64_t* __restrict col, V l, std::int64_t q, std::int64_t hi,
                            std::int64_t f, std::int64_t f_end) {
  std::int64_t updates = 0;
  if (q == hi) return 0;
  for (; f < f_end; ++f) {
    const std::int64_t j = col[f];
    while (col[q] < j)
      if (++q == hi) return updates;
    if (col[q] != j) continue;
    w[q] -= l * w[f];
    ++updates;
  }
  return updates;
}

// ILU(0), IKJ order restricted to the pattern; w holds A's values in fp64. The rows run in `order`
// (NULL: 0, 1, ..., n - 1), a topological order of the dependencies: each row reads only rows it
// depends on, which are final by then, so any such order gives the same bits.
// Row i's update by its lower entry (i, k) walks row k's upper entries (k, j), j increasing, and
// subtracts l_ik u_kj from the stored (i, j): row i's entries after (i, k) are sorted by column too,
// so a merge finds (i, j) (the updates, their order and count are those of the column -> entry
// scatter map this replaced, which cost two extra passes over every row and an indirect load per
// candidate). The counters are integers (exact; converted once), off the division chain that bounds
// the loop in row order. docs/trnsparse.md "Session 19" has the measurements.
template <class V>
Outcome ilu0_rows(const IncompleteAnalysis& a, V* __restrict w, const PivotBoost& boost, V boost_value, const std::int64_t* order) {
  const std::int64_t* __restrict diag = a.lower.diag.data();
  const std::int64_t* __restrict start = a.start.data();
  const std::int64_t* __restrict col = a.col.data();
  std::int64_t updates = 0, divisions = 0;
  auto finish = [&](std::int64_t pivot) {
    Outcome o;
    o.updates = static_cast<double>(updates);
    o.divisions = static_cast<double>(divisions);
    o.pivot = pivot;
    return o;
  };
  for (std::int64_t r = 0; r < a.n; ++r) {
    const std::int64_t i = order != nullptr ? order[r] : r;
    const std::int64_t lo = start[i], hi = start[i + 1], di = diag[i];
    std::int64_t end = di;  // one past row i's last strictly lower entry (its diagonal when stored)
    if (di < 0) {
      end = lo;
      while (end < hi && col[end] < i) ++end;
    }
    for (std::int64_t e = lo; e < end; ++e) {
      const std::int64_t k = col[e], dk = diag[k];
      w[e] /= w[dk];  // row k's pivot: present and nonzero (else the loop stopped at k)
      updates += minus_products(w, col, w[e], e + 1, hi, dk + 1, start[k + 1]);  // row i's entries right of (i, k)
    }
    divisions += end - lo;
    if (di < 0) return finish(i);
    V& u = w[di];
    if (boost.enabled && std::abs(u) <= boost.tol) u = boost_value;
    if (u == V{}) return finish(i);
  }
  return finish(-1);
}

// s - sum of w[q] conj(w[f]) over row i's entries q in [lo, e) and row k's entries f in [f, f_end)
// of one column, f increasing (both sorted by column; lo < e); each term counted in `updates`.
template <class V>
V minus_common(V s, const V* __restrict w, const std::int64_t* __restrict col, std::int64_t lo, std::int64_t e,
               std::int64_t f, std::int64_t f_end, std::int64_t& updates) {
  std::int64_t q = lo;
  for (; f < f_end; ++f) {
    const std::int64_t m = col[f];
    while (col[q] < m)
      if (++q == e) return s;
    if (col[q] != m) continue;
    s -= w[q] * conj_if(w[f], true);
    ++updates;
  }
  return s;
}

// IC(0), left-looking by rows on the lower triangle (the strict upper part is never read); rows in
// `order` as ilu0_rows. Row i's entry (i, k) subtracts l_im conj(l_km) over the columns m < k stored
// in both rows, m increasing: row k's lower entries (k, m) walked in order against row i's entries
// left of (i, k) by a merge (both sorted by column), the updates, their order and count those of the
// column -> entry scatter map this replaced (session 27: the map's per-row scatter, reset and
// indirect load per candidate were most of the loop). Row i's strictly lower entries end at its
// diagonal when it is stored (sorted columns), else where the columns pass i. The counters are
// integers off the division chain (exact; converted once), as in ilu0_rows.
template <class V>
Outcome ic0_rows(const IncompleteAnalysis& a, V* __restrict w, const std::int64_t* order) {
  const std::int64_t* __restrict diag = a.lower.diag.data();
  const std::int64_t* __restrict start = a.start.data();
  const std::int64_t* __restrict col = a.col.data();
  std::int64_t updates = 0, lower = 0, roots = 0;  // merged updates; lower entries (one division each); square roots
  auto finish = [&](std::int64_t pivot) {
    Outcome o;
    o.updates = static_cast<double>(updates + lower);
    o.divisions = static_cast<double>(lower + roots);
    o.pivot = pivot;
    return o;
  };
  for (std::int64_t r = 0; r < a.n; ++r) {
    const std::int64_t i = order != nullptr ? order[r] : r;
    const std::int64_t lo = start[i], di = diag[i];
    std::int64_t end = di;  // one past row i's last strictly lower entry
    if (di < 0) {
      end = lo;
      while (end < start[i + 1] && col[end] < i) ++end;
    }
    double d_sum = 0;
    for (std::int64_t e = lo; e < end; ++e) {
      const std::int64_t k = col[e], dk = diag[k];
      const V s = e > lo ? minus_common(w[e], w, col, lo, e, start[k], dk, updates) : w[e];
      w[e] = s / std::real(w[dk]);  // l_kk: real, positive
      d_sum += std::norm(w[e]);
    }
    lower += end - lo;
    if (di < 0) return finish(i);
    const double d = std::real(w[di]) - d_sum;
    if (!(d > 0)) return finish(i);
    w[di] = V(std::sqrt(d));
    ++roots;
  }
  return finish(-1);
}

template <class T>
Outcome factor_typed(const IncompleteAnalysis& a, void* values, const PivotBoost& boost) {
  using V = Acc<T>;
  V* w;
  if constexpr (std::is_same_v<V, double>)
    w = a.work_real.data();
  else
    w = a.work_complex.data();
  const T* in = static_cast<const T*>(values);
  auto rows = [&](const std::int64_t* order) {
    for (std::int64_t e = 0; e < a.nnz; ++e) w[z(e)] = static_cast<V>(in[z(e)]);
    return a.kind == Incomplete::ilu0 ? ilu0_rows<V>(a, w, boost, from_scalar<V>(boost.value), order)
                                      : ic0_rows<V>(a, w, order);
  };
  // IC(0) runs its rows in level order first: consecutive rows of one level are independent, so the
  // host overlaps their divisions and square roots instead of waiting on each row's pivot (row order
  // chains row i to row i - 1 through l_{i,i-1} = (...) / l_{i-1,i-1}). A zero pivot met there reruns
  // in row order, which finds the first one in row order and counts the operations up to it; without
  // one both orders compute the same values (each row reads only finished rows) and the same operation
  // counts. Measured factorization CPU time (200 x 200 5-point grid, least of 40 calls, 3 runs, load
  // ~16): IC(0) 0.65-0.85 -> 0.40-0.67 ms (session 17). ILU(0) keeps row order: with the merge walks
  // of ilu0_rows, level order measured 0.41-0.43 ms against row order's 0.43 at load ~5 but 0.73-0.87
  // against 0.50-0.53 at load ~9 (R_32F, session 19: the level's rows are 199 rows apart, and
  // row order streams through memory), and the same for C_32F / C_64F.
  const bool levels = a.kind == Incomplete::ic0 && a.structural_zero < 0 && a.lower.order.size() == z(a.n);
  Outcome o = rows(levels ? a.lower.order.data() : nullptr);
  if (o.pivot >= 0 && levels) o = rows(nullptr);
  if (o.pivot >= 0) return o;  // nothing written
  T* out = static_cast<T*>(values);
  if (a.kind == Incomplete::ilu0) {
    for (std::int64_t e = 0; e < a.nnz; ++e) out[z(e)] = static_cast<T>(w[z(e)]);
    return o;
  }
  // IC(0): the lower triangle, row i's entries up to its diagonal (stored in every row: no zero pivot)
  const std::int64_t* __restrict start = a.start.data();
  const std::int64_t* __restrict diag = a.lower.diag.data();
  for (std::int64_t i = 0; i < a.n; ++i) {
    const std::int64_t e0 = start[i], e1 = diag[i] + 1;
    for (std::int64_t e = e0; e < e1; ++e) out[e] = static_cast<T>(w[e]);
  }
  return o;
}

PlanFacts incomplete_facts(const IncompleteAnalysis& a, Value value) {
  const bool ic = a.kind == Incomplete::ic0;
  PlanFacts p;
  p.routine = ic ? "csric02" : "csrilu02";
  p.shape = std::to_string(a.n) + "x" + std::to_string(a.n) + " CSR nnz=" + std::to_string(a.nnz) +
            (ic ? " (lower triangle used)" : "");
  p.variant = std::string(value_name(value)) + (ic ? ": IC(0)" : ": ILU(0)") + " on the pattern, " +
              std::to_string(a.levels()) + " levels (Anderson & Saad 1989; policy " +
              (a.use_level ? "USE_LEVEL" : "NO_LEVEL") + ", same result), fp64 arithmetic on the host (one round trip)";
  p.engines = "host CPU (costed host step), host link";
  p.why = "each row gathers earlier rows at data-dependent columns and divides by their pivots: no gather DMA and no "
          "fp64 engine on the emulated core; the levels bound the dependent steps a device schedule would take";
  return p;
}

}  // namespace

IncompleteAnalysis analyze_incomplete(Incomplete kind, std::int64_t m, std::int64_t nnz, const std::int32_t* row_ptr,
                                      const std::int32_t* col_ind, const void* values, Value value, IndexBase base,
                                      bool use_level) {
  SparseRef A{SparseRef::Format::csr, m, m, nnz, row_ptr, col_ind, const_cast<void*>(values),
              IndexType::i32, IndexType::i32, base, value};
  IncompleteAnalysis a;
  a.lower = analyze_triangular(A, /*lower=*/true, /*unit=*/false, GOp::N);  // validates A
  a.kind = kind;
  a.n = m;
  a.nnz = nnz;
  a.use_level = use_level;
  const std::int64_t b = generic_detail::base_value(base);
  a.start.resize(z(m) + 1);
  for (std::int64_t i = 0; i <= m; ++i) a.start[z(i)] = row_ptr[i] - b;
  a.col.resize(z(nnz));
  for (std::int64_t e = 0; e < nnz; ++e) a.col[z(e)] = col_ind[e] - b;
  for (std::int64_t i = 0; i < m && a.structural_zero < 0; ++i)
    if (a.lower.diag[z(i)] < 0) a.structural_zero = i;
  if (is_complex(value))
    a.work_complex.resize(z(nnz));
  else
    a.work_real.resize(z(nnz));
  return a;
}

std::int64_t incomplete_factor(const Settings& s, const IncompleteAnalysis& a, Value value, void* values,
                               const PivotBoost& boost, CallReport* report) {
  if (value != a.lower.value) generic_detail::invalid("values of another type than the analysis'", "values");
  if (a.nnz > 0 && values == nullptr) generic_detail::invalid("values is NULL", "values");
  if (is_complex(value) ? a.work_complex.size() != z(a.nnz) : a.work_real.size() != z(a.nnz)) {
    a.work_complex.resize(is_complex(value) ? z(a.nnz) : 0);
    a.work_real.resize(is_complex(value) ? 0 : z(a.nnz));
  }
  Outcome o;
  dispatch(value, [&](auto tag) { o = factor_typed<decltype(tag)>(a, values, boost); });
  const double per = is_complex(value) ? 4.0 : 1.0;  // real operations per complex one (average)
  const std::size_t vb = value_bytes(value);
  HostSpan pattern = bytes_span(a.col.data(), a.nnz, 4);
  pattern.bytes += static_cast<std::size_t>(a.n + 1) * 4;  // the int32 offsets travel with the columns
  const HostSpan vals = bytes_span(values, a.nnz, vb);
  finish_host(s,
              HostStep{.name = a.kind == Incomplete::ic0 ? "trnsparse.csric02.host" : "trnsparse.csrilu02.host",
                       .flops = per * (2 * o.updates + o.divisions),
                       .reads = {vals, pattern},
                       .writes = {o.pivot < 0 ? vals : HostSpan{}}},
              incomplete_facts(a, value), report);
  return o.pivot;
}

std::string incomplete_plan(const IncompleteAnalysis& a, Value value) { return incomplete_facts(a, value).print(); }

}  // namespace trn::sparse
