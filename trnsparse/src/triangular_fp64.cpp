// fp64 and complex-fp64 (R_64F, C_64F) sparse triangular solves (SpSV / SpSM) on the emulated
// engines: per level one segmented slice-pair product, then the divide by the diagonal
// (docs/trnsparse.md "Sparse triangular solves", issue #28 "fp64 on the engines").
//
// Algorithm   The analysis (triangular.cpp, shared with the fp32 path) groups op(A)'s rows into the
//             dependency levels of Anderson & Saad (1989). The right-hand sides are taken in blocks
//             of <= kSegmentedMaxColumns columns (the segmented kernel's SpMM width); per block the
//             levels run in order, and level l (rows i_0 < ... < i_{R-1}) is two steps:
//               1. r = [alpha | -L_l] [b_l ; y_used]: ONE call of the segmented slice-pair kernel
//                  (segmented_spmv.hpp: host slicing, TensorE segment sums of 8-bit slice pairs,
//                  exact in PSUM, exact host fold, one rounding per output) on a local CSR of R rows
//                  over R + U columns: row p holds alpha at column p and -a_ij (conj for op C) at
//                  column R + u(j), u numbering the U distinct solved rows j the level reads (in
//                  increasing j, so every local row keeps increasing columns); the local X stacks
//                  the level's op(B) rows over those solved rows (host data movement: the gather the
//                  emulated ISA has no indirect DMA for). So r_i = alpha b_i - sum_j a_ij y_j is the
//                  exact value rounded once: the products alpha b_i and a_ij y_j are on TensorE, the
//                  subtraction is the sum's sign, nothing is rounded before the fold.
//               2. y_i = r_i / a_ii (O(R ncols) fp64 divides in the kernel's fold visit, after the
//                  fold: FoldFollowUp, no round trip of its own since s13/spfp64; unit diagonal:
//                  y_i = r_i): real one IEEE divide; complex
//                  r conj(d') / |d'|^2 scaled back by 2^-e, d' = d 2^-e (e = the larger exponent of
//                  d's parts: exact), Higham's formula (ASNA 2nd ed. §3.6) without its overflow.
//             The work vector (n x block, column-major, fp64 / complex<double>) holds op(B) until a
//             row is solved and y after, so B == C (in place) is safe.
// Engines     host (exponents; fold + divide), DMA, GpSimdE, VectorE, TensorE. Deterministic: the
//             segmented kernel's bits depend on the values and the pattern only; a column's bits do
//             not depend on the other columns of its block (the fold of an exact value rounds the
//             same for any slice count), so SpSM column c == SpSV (tested).
// Accuracy    (u = 2^-53) r_hat_i = r_i (1 + d1), |d1| <= 2.02 u (digits_to_double; complex: each part,
//             so |d1| <= 2.02 u in modulus), y_hat_i = r_hat_i / a_ii (1 + d2), |d2| <= u (real) or
//             sqrt(2) gamma_4 (complex, Higham Lemma 3.5). Hence r_i = a_ii y_hat_i (1 + theta_i):
//             y_hat solves (T + dT) y_hat = alpha b EXACTLY in b and in every off-diagonal entry, with
//             dT diagonal, |dT| <= c u |D| (D = diag(T), I for a unit triangle), c = 3.1 (real) or
//             7.7 (complex); T (y_hat - y) = -dT y_hat, so
//               |y_hat - y| <= c u |T^-1| |D| |y_hat| <= c u M(T)^-1 |D| |y_hat|
//             (M(T) the comparison matrix), independent of the row length (the host step's bound was
//             gamma_{k+2} M(T)^-1 (|T||y_hat| + |alpha b|)). Exceptions, as the segmented kernel's: a
//             line whose exponent spread asks for more than kVectorMaxSlices slices is truncated
//             (the plan of the kernel says "capped"), results in fp64's subnormal range are rounded
//             twice, rows meeting Inf / NaN are recomputed as IEEE dots (they propagate).
// Limits      Per level and block: the kernel's two host round trips (exponents, fold + divide) and
//             one launch — 2 dependent host visits per level (3 before s13/spfp64 merged the divide
//             into the fold's visit; the bits did not change). A matrix with hundreds of levels still
//             costs more modeled time than the former single host step (docs/trnsparse.md states
//             both); the remaining lever is the fold (and divide) on the device.
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "generic_host.hpp"
#include "segmented_spmv.hpp"
#include "trn/blas/fp64_slices.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/report_observer.hpp"
#include "trn/sparse/triangular.hpp"

namespace trn::sparse {

namespace {

namespace sl = blas::slices;
using generic_host::at;
std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

// A level's product r = [alpha | -L_l] [b_l ; y_used] (local CSR, int64 indices) and its result.
template <class V>
struct LevelProduct {
  std::int64_t rows = 0, cols = 0;  // R, R + U
  std::vector<std::int64_t> off, idx, used;
  std::vector<V> val, x, r;
};

// What the plan prints.
struct Fp64Counts {
  std::int64_t calls = 0, tiles = 0, matmuls = 0, divides = 0, widest_used = 0;
};

// The local CSR of rows order[q0 .. q1): row p = (alpha at p, -a_ij at R + u(j)). `slot` (n entries,
// -1 outside this call) numbers the solved rows the level reads; it is left all -1.
template <class V>
void build_level_matrix(const TriangularAnalysis& t, const V* values, V alpha, std::int64_t q0, std::int64_t q1,
                        std::vector<std::int64_t>& slot, LevelProduct<V>& lp) {
  const bool conj_a = t.op == GOp::C;
  lp.rows = q1 - q0;
  lp.used.clear();
  for (std::int64_t q = q0; q < q1; ++q) {
    const std::int64_t i = t.order[z(q)];
    for (std::int64_t e = t.start[z(i)]; e < t.start[z(i) + 1]; ++e)
      if (slot[z(t.col[z(e)])] < 0) {
        slot[z(t.col[z(e)])] = 0;
        lp.used.push_back(t.col[z(e)]);
      }
  }
  std::sort(lp.used.begin(), lp.used.end());
  for (std::size_t u = 0; u < lp.used.size(); ++u) slot[z(lp.used[u])] = lp.rows + static_cast<std::int64_t>(u);
  lp.cols = lp.rows + static_cast<std::int64_t>(lp.used.size());
  lp.off.assign(1, 0);
  lp.idx.clear();
  lp.val.clear();
  for (std::int64_t q = q0; q < q1; ++q) {
    const std::int64_t i = t.order[z(q)];
    lp.idx.push_back(q - q0);
    lp.val.push_back(alpha);
    for (std::int64_t e = t.start[z(i)]; e < t.start[z(i) + 1]; ++e) {  // increasing column: slot is monotone
      lp.idx.push_back(slot[z(t.col[z(e)])]);
      lp.val.push_back(-generic_host::conj_if(values[t.src[z(e)]], conj_a));  // a sign flip: exact
    }
    lp.off.push_back(static_cast<std::int64_t>(lp.idx.size()));
  }
  for (const std::int64_t j : lp.used) slot[z(j)] = -1;
}

// The local X ((R + U) x mb, column-major): the level's rows of the work vector (still op(B)) over
// the solved rows it reads (y). Host data movement.
template <class V>
void gather_level_operand(const TriangularAnalysis& t, const std::vector<V>& work, std::int64_t mb, std::int64_t q0,
                          LevelProduct<V>& lp) {
  const std::int64_t n = t.n, ld = lp.cols;
  lp.x.resize(z(ld * mb));
  for (std::int64_t c = 0; c < mb; ++c) {
    for (std::int64_t p = 0; p < lp.rows; ++p) lp.x[z(p + c * ld)] = work[z(t.order[z(q0 + p)] + c * n)];
    for (std::size_t u = 0; u < lp.used.size(); ++u)
      lp.x[z(lp.rows + static_cast<std::int64_t>(u) + c * ld)] = work[z(lp.used[u] + c * n)];
  }
}

// r / d: real one IEEE divide; complex r conj(d') / |d'|^2 times 2^-e with d' = d 2^-e exact (no
// overflow or underflow in |d'|^2), Inf / NaN parts by the library's division (they propagate).
double divide(double r, double d) { return r / d; }
std::complex<double> divide(std::complex<double> r, std::complex<double> d) {
  if (!std::isfinite(d.real()) || !std::isfinite(d.imag())) return r / d;
  const int e = std::max(sl::exp_of(d.real()), sl::exp_of(d.imag()));  // d != 0: zero pivots are refused
  const double dr = sl::scale2(d.real(), -e), di = sl::scale2(d.imag(), -e);
  const double den = dr * dr + di * di;  // in [1/4, 2)
  return {sl::scale2((r.real() * dr + r.imag() * di) / den, -e), sl::scale2((r.imag() * dr - r.real() * di) / den, -e)};
}

// Fp64 operations of one divide (complex: |d'|^2 3, the numerators 6, two divides).
template <class V>
constexpr double kDivideFlops = std::is_same_v<V, double> ? 1.0 : 11.0;

// Step 2 of a level: y_i = r_i / a_ii into the work vector (unit: y_i = r_i), run inside the fold's
// host visit (FoldFollowUp: no round trip of its own).
template <class V>
void divide_level(const TriangularAnalysis& t, const V* values, const V* diagonal, std::vector<V>& work, std::int64_t mb,
                  std::int64_t q0, const LevelProduct<V>& lp) {
  const bool conj_a = t.op == GOp::C;
  for (std::int64_t c = 0; c < mb; ++c)
    for (std::int64_t p = 0; p < lp.rows; ++p) {
      const std::int64_t i = t.order[z(q0 + p)];
      const V r = lp.r[z(p + c * lp.rows)];
      work[z(i + c * t.n)] =
          t.unit ? r : divide(r, generic_host::conj_if(diagonal != nullptr ? diagonal[i] : values[t.diag[z(i)]], conj_a));
    }
}

// The divide as the fold's follow-up: its flops, the level's diagonal values read and the level's
// rows of the work vector written (hull: the vector; bytes: R mb values).
template <class V>
FoldFollowUp divide_follow_up(const TriangularAnalysis& t, const V* values, const V* diagonal, std::vector<V>& work,
                              std::int64_t mb, std::int64_t q0, const LevelProduct<V>& lp) {
  FoldFollowUp f;
  f.run = [&t, values, diagonal, &work, mb, q0, &lp] { divide_level(t, values, diagonal, work, mb, q0, lp); };
  if (t.unit) return f;
  f.flops = kDivideFlops<V> * static_cast<double>(lp.rows * mb);
  f.read = HostSpan(diagonal != nullptr ? diagonal : values, lp.rows);  // the level's diagonal values
  f.write = HostSpan(work.data(), static_cast<std::int64_t>(work.size()));
  f.write.bytes = static_cast<std::size_t>(lp.rows * mb) * sizeof(V);
  return f;
}

// One level of one column block: the segmented product with the divide in its fold's host visit.
template <class V>
void solve_level(const Settings& s, const TriangularAnalysis& t, const V* values, const V* diagonal, V alpha,
                 std::vector<V>& work, std::int64_t mb, std::int64_t q0, std::int64_t q1, std::vector<std::int64_t>& slot,
                 LevelProduct<V>& lp, Trace* trace, Fp64Counts& n) {
  build_level_matrix(t, values, alpha, q0, q1, slot, lp);
  gather_level_operand(t, work, mb, q0, lp);
  lp.r.assign(z(lp.rows * mb), V(0));
  const Value v = std::is_same_v<V, double> ? Value::f64 : Value::c64;
  const SparseRef A{SparseRef::Format::csr, lp.rows, lp.cols, static_cast<std::int64_t>(lp.idx.size()), lp.off.data(),
                    lp.idx.data(), lp.val.data(), IndexType::i64, IndexType::i64, IndexBase::zero, v};
  const DenseAny X{lp.x.data(), v, lp.cols, mb, lp.cols, Layout::col_major};
  const DenseAny R{lp.r.data(), v, lp.rows, mb, lp.rows, Layout::col_major};
  CallReport rep;
  rep.plans_wanted = false;
  const FoldFollowUp divide = divide_follow_up(t, values, diagonal, work, mb, q0, lp);
  // The level's trace joins the solve's, which solve_fp64_typed models once: the level's own profile
  // is never read, so it is not modeled (~half the schedule work of an fp64 ILU(0) application: each
  // level's short trace missed core's memo). An observed thread (report_observer.hpp) still gets
  // every level's modeled report, as before.
  spmm_fp64_segmented(s, GOp::N, GOp::N, Scalar(1.0), A, X, Scalar(0.0), R, trace != nullptr ? &rep : nullptr, &divide,
                      /*trace_only=*/!thread_report_observed());
  ++n.calls;
  n.widest_used = std::max(n.widest_used, static_cast<std::int64_t>(lp.used.size()));
  if (!t.unit) n.divides += lp.rows * mb;
  if (trace == nullptr) return;
  n.tiles += rep.blocks;
  n.matmuls += rep.matmuls;
  trace->append(std::move(rep.trace));
}

PlanFacts fp64_facts(const TriangularAnalysis& t, std::int64_t m, const Fp64Counts& n, double ns) {
  PlanFacts p;
  p.routine = m == 1 ? "spsv" : "spsm";
  p.shape = triangular_shape(t, m);
  p.variant = std::string(value_name(t.value)) + ": level sets (Anderson & Saad 1989), " + triangular_levels_text(t) +
              "; per level and block of <= " + std::to_string(kSegmentedMaxColumns) +
              " columns one segmented slice-pair product r = alpha b - L y (exact, one rounding): " +
              std::to_string(n.calls) + " calls, " + std::to_string(n.tiles) + " tiles, " + std::to_string(n.matmuls) +
              " matmuls, widest level gather " + std::to_string(n.widest_used) + " rows; then " +
              (t.unit ? std::string("no divide (unit)") : std::to_string(n.divides) + " divides by a_ii in the fold's host visit");
  p.ops = triangular_ops_text(t, m);
  p.engines = "host (slice; fold + divide: 2 round trips per level), DMA, GpSimdE, VectorE, TensorE (slice-pair segment sums)";
  p.predicted_ns = ns;
  p.why = "fp64 values: products exact on TensorE through 8-bit slices; the levels are the dependent steps";
  return p;
}

template <class V>
void solve_fp64_typed(const Settings& s, const TriangularAnalysis& t, const void* values, const void* diagonal,
                      Scalar alpha, GOp opB, const DenseAny& B, const DenseAny& C, CallReport* report) {
  const std::int64_t n = t.n, m = C.cols;
  const auto* a = static_cast<const V*>(values);
  const auto* d = static_cast<const V*>(diagonal);
  const V al = generic_host::from_scalar<V>(alpha);
  const V* b = static_cast<const V*>(B.data);
  std::vector<V> out(z(n * m));  // the solution of every column, then stored into C (B == C safe)
  std::vector<std::int64_t> slot(z(n), -1);
  LevelProduct<V> lp;
  Fp64Counts counts;
  Trace trace;
  for (std::int64_t c0 = 0; c0 < m; c0 += kSegmentedMaxColumns) {
    const std::int64_t mb = std::min(kSegmentedMaxColumns, m - c0);
    std::vector<V> work(z(n * mb));  // op(B)'s columns c0 .. c0 + mb (conj: a sign flip), then y
    for (std::int64_t c = 0; c < mb; ++c)
      for (std::int64_t i = 0; i < n; ++i)
        work[z(i + c * n)] = opB == GOp::N ? b[at(B, i, c0 + c)] : generic_host::conj_if(b[at(B, c0 + c, i)], opB == GOp::C);
    for (std::int64_t l = 0; l < t.levels(); ++l)
      solve_level(s, t, a, d, al, work, mb, t.level_start[z(l)], t.level_start[z(l) + 1], slot, lp,
                  report != nullptr ? &trace : nullptr, counts);
    std::copy(work.begin(), work.end(), out.begin() + c0 * n);
  }
  for (std::int64_t c = 0; c < m; ++c)
    for (std::int64_t i = 0; i < n; ++i) static_cast<V*>(C.data)[at(C, i, c)] = out[z(i + c * n)];
  if (report == nullptr) return;
  *report = CallReport{};
  finish_report(*report, std::move(trace), ReportSettings::of(s));
  report->blocks = counts.tiles;
  report->matmuls = counts.matmuls;
  if (report->plans_wanted) report->add_plan(fp64_facts(t, m, counts, report->profile.total_ns).print());
}

}  // namespace

bool triangular_fp64_on_engines(Value v) { return v == Value::f64 || v == Value::c64; }

void triangular_solve_fp64(const Settings& s, const TriangularAnalysis& t, const void* values, const void* diagonal,
                           Scalar alpha, GOp opB, const DenseAny& B, const DenseAny& C, CallReport* report) {
  if (t.value == Value::f64)
    solve_fp64_typed<double>(s, t, values, diagonal, alpha, opB, B, C, report);
  else
    solve_fp64_typed<std::complex<double>>(s, t, values, diagonal, alpha, opB, B, C, report);
}

}  // namespace trn::sparse
