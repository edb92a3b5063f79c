// fp32 and complex-fp32 (R_32F, C_32F) sparse triangular solves (SpSV / SpSM) on the emulated
// engines: one tile step per chunk of a level (docs/trnsparse.md "Sparse triangular solves").
//
// Algorithm   The analysis (triangular.cpp) groups op(A)'s rows into the dependency levels of
//             Anderson & Saad (1989); the rows of a level depend only on rows of earlier levels.
//             One launch (one program, one core) runs the levels in order; a level's rows are cut
//             into chunks of pmax rows (partition p = the chunk's p-th row, rows ascending), and
//             each chunk, for each right-hand side column c, is one tile step:
//               B  [P, w]     <- rows i of the work vector y(:, c) (its op(B) values)  DMA, one per run
//                                of consecutive rows; conj (opB = C) and alpha on VectorE
//               X  [P, K w]   <- y(j, c) for the entries (i, j) of row i            DMA gather, one
//                                descriptor per run of consecutive columns j (zeros where a row is short)
//               Av [P, K w]   <- the entries' values a_ij                           DMA, per run of
//                                consecutive entry numbers (conj for op C on VectorE)
//               s  = sum_k Av[:, k] X[:, k]     VectorE tensor_tensor multiply, tensor_reduce add
//                                                (sequential, left to right: the row's entries in order)
//               y(i, c) = (B - s) / a_ii        VectorE subtract, divide (unit diagonal: no divide)
//               DMA the chunk's y back (one descriptor per run of consecutive rows)
//             w = 1 (real) or 2 (complex, interleaved re/im; products as (ar xr - ai xi, ar xi + ai xr),
//             the division as r conj(d) / (dr^2 + di^2), every operation one fp32 rounding on VectorE).
//             K is the longest row of the chunk's strict triangle, taken in slices of at most
//             kSliceEntries entries (partial sums added in slice order). The work vector y (n x ncols
//             fp32, column-major) is op(B)'s values copied in by the host (data movement) and C's
//             values copied out after the launch; B == C (in place) is therefore safe.
// Engines     DMA (gathers, scatters), VectorE. One program: deterministic for any host thread or
//             core count (num_cores > 1 leaves the other cores idle: the levels are a chain).
// Accuracy    (u = 2^-24, k = the most off-diagonal entries of a row, gamma_j = j u / (1 - j u);
//             Higham, ASNA 2nd ed., Thm 8.5 and §3.1): row i is y_i = fl((fl(alpha b_i) - s_i) / t_ii),
//             s_i a recursively summed dot product of length k_i, so y_hat solves
//             (T + dT) y_hat = fl(alpha b) with |dT| <= gamma_{k+2} |T|, whence
//               |y_hat - y| <= gamma_{k+3} M(T)^-1 (|T| |y_hat| + |alpha b|)                   (real)
//             and the same with sqrt(2) gamma_{k+6} for complex values (complex product sqrt(2) gamma_2,
//             division by r conj(d) / |d|^2 at most 5 roundings deep), M(T) the comparison matrix.
//             docs/trnsparse.md derives it; tests/trnsparse/test_spsv_engine.cpp checks it two-sided.
// Limits      Complex division forms dr^2 + di^2 in fp32: diagonals with |d| >= 2^63 or <= 2^-63
//             overflow or underflow there (documented choice). One DMA descriptor per run: a
//             scattered pattern pays one descriptor per entry (the plan prints the count).
#include <algorithm>
#include <complex>
#include <string>
#include <vector>

#include "generic_host.hpp"
#include "trn/core/spmd.hpp"
#include "trn/sparse/triangular.hpp"

namespace trn::sparse {

namespace {

using generic_host::at;
std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

constexpr std::int64_t kSliceEntries = 1024;  // entries of a row per product slice (SBUF per partition)

// What the kernel reads and writes: every array as fp32 words (complex: re, im interleaved).
struct EngineSolve {
  const TriangularAnalysis* t = nullptr;
  const float* values = nullptr;    // A's values (t->nnz of them)
  const float* diagonal = nullptr;  // n diagonal values (SpSV_updateMatrix UPDATE_DIAGONAL) or NULL
  float* y = nullptr;               // work vector, n x ncols column-major: op(B) in, the solution out
  std::int64_t ncols = 0;
  int w = 1;                        // words per value
  bool conj_a = false, conj_b = false;
  float alpha_re = 1, alpha_im = 0;
};

// Counters the plan prints.
struct EngineCounts {
  std::int64_t chunks = 0, descriptors = 0, widest = 0;
};

// Calls f(first position, first index, length) for each maximal run of consecutive indices
// idx[k0 .. k1) (idx[q + 1] == idx[q] + 1): the DMA descriptors of a gather.
template <class F>
void for_each_run(const std::int64_t* idx, std::int64_t k0, std::int64_t k1, F&& f) {
  for (std::int64_t q = k0; q < k1;) {
    std::int64_t len = 1;
    while (q + len < k1 && idx[q + len] == idx[q] + len) ++len;
    f(q - k0, idx[q], len);
    q += len;
  }
}

// The row's words [first, first + len) of a flat fp32 array as one DMA endpoint (one partition).
Tile words(const float* base, std::int64_t first, std::int64_t len) {
  return HbmTensor::wrap(const_cast<float*>(base) + first, DType::f32, {1, len}).tile(0, 1, 0, len);
}
// Rows [r0, r0 + rows) of a flat array of w-word values as rows partitions.
Tile value_rows(const float* base, std::int64_t r0, std::int64_t rows, int w) {
  return HbmTensor::wrap(const_cast<float*>(base) + r0 * w, DType::f32, {rows, w}).tile(0, static_cast<std::int32_t>(rows), 0, w);
}

// The kernel's SBUF tiles (allocated once, sized for pmax rows and one product slice).
struct Tiles {
  Tile av, x, p1, p2, part, s, b, d, t1, t2, t3, alpha;
};

// Complex product planes: dst = a b (dst_re, dst_im separate from the operands), VectorE.
void complex_product(NeuronCore& nc, const Tile& dre, const Tile& dim, const Tile& are, const Tile& aim, const Tile& bre,
                     const Tile& bim, const Tile& tmp) {
  nc.tensor_tensor(dre, are, bre, AluOp::multiply);
  nc.tensor_tensor(tmp, aim, bim, AluOp::multiply);
  nc.tensor_tensor(dre, dre, tmp, AluOp::subtract);
  nc.tensor_tensor(dim, are, bim, AluOp::multiply);
  nc.tensor_tensor(tmp, aim, bre, AluOp::multiply);
  nc.tensor_tensor(dim, dim, tmp, AluOp::add);
}
Tile plane(const Tile& t, int w, int which) {  // re (0) or im (1) of an interleaved [P, 2 n] tile
  return w == 1 ? t : t.slice(t.ndim - 1, which, t.free_size() / 2, 2);
}

// s[:, :w] = sum over the entries [e0, e1) of each row of the chunk (rows = order[q0 ..]) of a_ij y(j, c).
void off_diagonal_sums(NeuronCore& nc, const EngineSolve& g, const Tiles& w, std::int64_t q0, std::int32_t P,
                       std::int64_t c, std::int64_t K, EngineCounts& n) {
  const TriangularAnalysis& t = *g.t;
  const std::int64_t n_rows = t.n;
  for (std::int64_t k0 = 0; k0 < K; k0 += kSliceEntries) {
    const std::int64_t kw = std::min(kSliceEntries, K - k0);
    const Tile av = w.av.rows(0, P).cols(0, kw * g.w), x = w.x.rows(0, P).cols(0, kw * g.w);
    nc.memset(av, 0.0f);
    nc.memset(x, 0.0f);
    for (std::int32_t p = 0; p < P; ++p) {
      const std::int64_t i = t.order[z(q0 + p)];
      const std::int64_t e0 = t.start[z(i)] + k0, e1 = std::min(t.start[z(i) + 1], e0 + kw);
      if (e0 >= e1) continue;
      for_each_run(t.src.data(), e0, e1, [&](std::int64_t k, std::int64_t src, std::int64_t len) {
        nc.dma_copy(av.rows(p, 1).cols(k * g.w, len * g.w), words(g.values, src * g.w, len * g.w));
        ++n.descriptors;
      });
      for_each_run(t.col.data(), e0, e1, [&](std::int64_t k, std::int64_t j, std::int64_t len) {
        nc.dma_copy(x.rows(p, 1).cols(k * g.w, len * g.w), words(g.y, (j + c * n_rows) * g.w, len * g.w));
        ++n.descriptors;
      });
    }
    if (g.w == 2 && g.conj_a) nc.tensor_scalar(plane(av, 2, 1), plane(av, 2, 1), AluOp::multiply, -1.0f);
    const Tile part = w.part.rows(0, P).cols(0, g.w), s = w.s.rows(0, P).cols(0, g.w);
    const Tile p1 = w.p1.rows(0, P).cols(0, kw), p2 = w.p2.rows(0, P).cols(0, kw);
    if (g.w == 1) {
      nc.tensor_tensor(p1, av, x, AluOp::multiply);
      nc.tensor_reduce(k0 == 0 ? s : part, p1, AluOp::add);
    } else {
      const Tile p3 = w.t3.rows(0, P).cols(0, kw);
      complex_product(nc, p1, p2, plane(av, 2, 0), plane(av, 2, 1), plane(x, 2, 0), plane(x, 2, 1), p3);
      nc.tensor_reduce((k0 == 0 ? s : part).cols(0, 1), p1, AluOp::add);
      nc.tensor_reduce((k0 == 0 ? s : part).cols(1, 1), p2, AluOp::add);
    }
    if (k0 > 0) nc.tensor_tensor(s, s, part, AluOp::add);
  }
}

// b = alpha conj?(b) on the chunk's [P, w] right-hand sides, VectorE.
void scale_rhs(NeuronCore& nc, const EngineSolve& g, const Tiles& w, std::int32_t P) {
  const Tile b = w.b.rows(0, P).cols(0, g.w);
  if (g.w == 1) {
    nc.tensor_scalar(b, b, AluOp::multiply, g.alpha_re);
    return;
  }
  if (g.conj_b) nc.tensor_scalar(b.cols(1, 1), b.cols(1, 1), AluOp::multiply, -1.0f);
  const Tile t1 = w.t1.rows(0, P).cols(0, 2), al = w.alpha.rows(0, P).cols(0, 2);
  complex_product(nc, t1.cols(0, 1), t1.cols(1, 1), al.cols(0, 1), al.cols(1, 1), b.cols(0, 1), b.cols(1, 1),
                  w.t2.rows(0, P).cols(0, 1));
  nc.tensor_copy(b, t1);
}

// y = r / d on [P, w] tiles (y may be r), VectorE: real one divide; complex r conj(d) / (dr^2 + di^2).
void divide_by_diagonal(NeuronCore& nc, const EngineSolve& g, const Tiles& w, std::int32_t P, const Tile& r) {
  const Tile d = w.d.rows(0, P).cols(0, g.w);
  if (g.w == 1) {
    nc.tensor_tensor(r, r, d, AluOp::divide);
    return;
  }
  const Tile den = w.t2.rows(0, P).cols(0, 1), tmp = w.t2.rows(0, P).cols(1, 1), q = w.t1.rows(0, P).cols(0, 2);
  nc.tensor_tensor(den, d.cols(0, 1), d.cols(0, 1), AluOp::multiply);
  nc.tensor_tensor(tmp, d.cols(1, 1), d.cols(1, 1), AluOp::multiply);
  nc.tensor_tensor(den, den, tmp, AluOp::add);
  // r conj(d): (rr dr + ri di, ri dr - rr di)
  nc.tensor_tensor(q.cols(0, 1), r.cols(0, 1), d.cols(0, 1), AluOp::multiply);
  nc.tensor_tensor(tmp, r.cols(1, 1), d.cols(1, 1), AluOp::multiply);
  nc.tensor_tensor(q.cols(0, 1), q.cols(0, 1), tmp, AluOp::add);
  nc.tensor_tensor(q.cols(1, 1), r.cols(1, 1), d.cols(0, 1), AluOp::multiply);
  nc.tensor_tensor(tmp, r.cols(0, 1), d.cols(1, 1), AluOp::multiply);
  nc.tensor_tensor(q.cols(1, 1), q.cols(1, 1), tmp, AluOp::subtract);
  nc.tensor_scalar(r.cols(0, 1), q.cols(0, 1), AluOp::divide, w.t2.rows(0, P).cols(0, 1));
  nc.tensor_scalar(r.cols(1, 1), q.cols(1, 1), AluOp::divide, w.t2.rows(0, P).cols(0, 1));
}

// The diagonal values of the chunk's rows into d (one descriptor per run of consecutive sources).
void load_diagonal(NeuronCore& nc, const EngineSolve& g, const Tiles& w, std::int64_t q0, std::int32_t P, EngineCounts& n) {
  const TriangularAnalysis& t = *g.t;
  std::vector<std::int64_t> src(z(P));
  for (std::int32_t p = 0; p < P; ++p) {
    const std::int64_t i = t.order[z(q0 + p)];
    src[z(p)] = g.diagonal != nullptr ? i : t.diag[z(i)];
  }
  const float* base = g.diagonal != nullptr ? g.diagonal : g.values;
  for_each_run(src.data(), 0, P, [&](std::int64_t p, std::int64_t first, std::int64_t len) {
    nc.dma_copy(w.d.rows(static_cast<std::int32_t>(p), static_cast<std::int32_t>(len)).cols(0, g.w), value_rows(base, first, len, g.w));
    ++n.descriptors;
  });
  if (g.w == 2 && g.conj_a) nc.tensor_scalar(w.d.rows(0, P).cols(1, 1), w.d.rows(0, P).cols(1, 1), AluOp::multiply, -1.0f);
}

// One chunk of a level: rows order[q0 .. q0 + P), every right-hand side column.
void solve_chunk(NeuronCore& nc, const EngineSolve& g, const Tiles& w, std::int64_t q0, std::int32_t P, EngineCounts& n) {
  const TriangularAnalysis& t = *g.t;
  std::int64_t K = 0;
  for (std::int32_t p = 0; p < P; ++p) {
    const std::int64_t i = t.order[z(q0 + p)];
    K = std::max(K, t.start[z(i) + 1] - t.start[z(i)]);
  }
  n.widest = std::max(n.widest, K);
  if (!t.unit) load_diagonal(nc, g, w, q0, P, n);
  const std::int64_t* rows = t.order.data() + q0;
  for (std::int64_t c = 0; c < g.ncols; ++c) {
    const float* col = g.y + c * t.n * g.w;
    const Tile b = w.b.rows(0, P).cols(0, g.w);
    for_each_run(rows, 0, P, [&](std::int64_t p, std::int64_t first, std::int64_t len) {
      nc.dma_copy(b.rows(static_cast<std::int32_t>(p), static_cast<std::int32_t>(len)), value_rows(col, first, len, g.w));
      ++n.descriptors;
    });
    scale_rhs(nc, g, w, P);
    if (K > 0) {
      off_diagonal_sums(nc, g, w, q0, P, c, K, n);
      nc.tensor_tensor(b, b, w.s.rows(0, P).cols(0, g.w), AluOp::subtract);
    }
    if (!t.unit) divide_by_diagonal(nc, g, w, P, b);
    for_each_run(rows, 0, P, [&](std::int64_t p, std::int64_t first, std::int64_t len) {
      nc.dma_copy(value_rows(col, first, len, g.w), b.rows(static_cast<std::int32_t>(p), static_cast<std::int32_t>(len)));
      ++n.descriptors;
    });
  }
  ++n.chunks;
}

void solve_kernel(NeuronCore& nc, const EngineSolve& g, EngineCounts& n) {
  const TriangularAnalysis& t = *g.t;
  const std::int32_t P = nc.hw().pmax;
  std::int64_t widest = 0;
  for (std::int64_t i = 0; i < t.n; ++i) widest = std::max(widest, t.start[z(i) + 1] - t.start[z(i)]);
  const std::int64_t kw = std::max<std::int64_t>(1, std::min(kSliceEntries, widest));
  AllocScope sb(nc.sbuf());
  Tiles w;
  w.av = sb.alloc(DType::f32, P, {kw * g.w}, "a_ij");
  w.x = sb.alloc(DType::f32, P, {kw * g.w}, "gathered y_j");
  w.p1 = sb.alloc(DType::f32, P, {kw}, "products (re)");
  w.p2 = sb.alloc(DType::f32, P, {kw}, "products (im)");
  w.t3 = sb.alloc(DType::f32, P, {kw}, "product temp");
  w.part = sb.alloc(DType::f32, P, {2}, "slice sum");
  w.s = sb.alloc(DType::f32, P, {2}, "row sum");
  w.b = sb.alloc(DType::f32, P, {2}, "rhs / solution");
  w.d = sb.alloc(DType::f32, P, {2}, "diagonal");
  w.t1 = sb.alloc(DType::f32, P, {2}, "temp");
  w.t2 = sb.alloc(DType::f32, P, {2}, "temp");
  w.alpha = sb.alloc(DType::f32, P, {2}, "alpha");
  if (g.w == 2) {
    nc.memset(w.alpha.cols(0, 1), g.alpha_re);
    nc.memset(w.alpha.cols(1, 1), g.alpha_im);
  }
  for (std::int64_t l = 0; l < t.levels(); ++l)
    for (std::int64_t q = t.level_start[z(l)]; q < t.level_start[z(l) + 1]; q += P)
      solve_chunk(nc, g, w, q, static_cast<std::int32_t>(std::min<std::int64_t>(P, t.level_start[z(l) + 1] - q)), n);
}

// op(B) into the work vector (fp32 words, column-major), host data movement (no arithmetic).
template <class T>
void stage_rhs(GOp opB, const DenseAny& B, std::int64_t n, std::int64_t m, std::vector<T>& y) {
  const T* b = static_cast<const T*>(B.data);
  for (std::int64_t c = 0; c < m; ++c)
    for (std::int64_t i = 0; i < n; ++i) y[z(i + c * n)] = opB == GOp::N ? b[at(B, i, c)] : b[at(B, c, i)];
}

std::string rows_per_level(const TriangularAnalysis& t) {
  std::int64_t most = 0;
  for (std::int64_t l = 0; l < t.levels(); ++l) most = std::max(most, t.level_start[z(l) + 1] - t.level_start[z(l)]);
  const double mean = t.levels() > 0 ? static_cast<double>(t.n) / static_cast<double>(t.levels()) : 0.0;
  return std::to_string(t.levels()) + " levels, rows per level mean " + std::to_string(mean).substr(0, 6) + " max " +
         std::to_string(most);
}

PlanFacts engine_facts(const TriangularAnalysis& t, std::int64_t m, const EngineCounts& n, double ns) {
  PlanFacts p;
  p.routine = m == 1 ? "spsv" : "spsm";
  p.shape = std::to_string(t.n) + "x" + std::to_string(t.n) + " triangle nnz=" + std::to_string(t.col.size()) +
            "+diag ncols=" + std::to_string(m) + " op(A)=" + generic_host::op_name(t.op) + (t.lower_op ? " lower" : " upper") +
            (t.unit ? " unit" : " non-unit");
  p.variant = std::string(value_name(t.value)) + ": level sets (Anderson & Saad 1989), " + rows_per_level(t) + "; " +
              std::to_string(n.chunks) + " tile steps of <= pmax rows, longest row " + std::to_string(n.widest) +
              " off-diagonal entries, " + std::to_string(n.descriptors) + " DMA descriptors (gather runs)";
  const double per = generic_host::is_complex(t.value) ? 8.0 : 2.0;
  p.ops = std::to_string(static_cast<long long>(per * static_cast<double>(t.col.size() + z(t.n)) * static_cast<double>(m))) +
          " flops";
  p.engines = "DMA (gathers of solved entries, scatters of solved rows), VectorE (products, sums, subtract, divide)";
  p.predicted_ns = ns;
  p.why = "fp32 values: the levels are the dependent steps; rows of one level are independent partitions";
  return p;
}

}  // namespace

bool triangular_on_engines(Value v) { return v == Value::f32 || v == Value::c32; }

void triangular_solve_engines(const Settings& s, const TriangularAnalysis& t, const void* values, const void* diagonal,
                              Scalar alpha, GOp opB, const DenseAny& B, const DenseAny& C, CallReport* report) {
  const std::int64_t n = t.n, m = C.cols;
  const bool cplx = t.value == Value::c32;
  std::vector<std::complex<float>> yc(cplx ? z(n * m) : 0);
  std::vector<float> yr(cplx ? 0 : z(n * m));
  if (cplx)
    stage_rhs(opB, B, n, m, yc);
  else
    stage_rhs(opB, B, n, m, yr);
  EngineSolve g;
  g.t = &t;
  g.values = static_cast<const float*>(values);
  g.diagonal = static_cast<const float*>(diagonal);
  g.y = cplx ? reinterpret_cast<float*>(yc.data()) : yr.data();
  g.ncols = m;
  g.w = cplx ? 2 : 1;
  g.conj_a = t.op == GOp::C;
  g.conj_b = opB == GOp::C;
  g.alpha_re = static_cast<float>(alpha.real());
  g.alpha_im = static_cast<float>(alpha.imag());
  EngineCounts counts;
  LaunchResult r;
  if (n > 0 && m > 0) r = launch(s.launch_config(), [&](NeuronCore& nc) { solve_kernel(nc, g, counts); });
  for (std::int64_t c = 0; c < m; ++c)
    for (std::int64_t i = 0; i < n; ++i) {
      if (cplx)
        static_cast<std::complex<float>*>(C.data)[at(C, i, c)] = yc[z(i + c * n)];
      else
        static_cast<float*>(C.data)[at(C, i, c)] = yr[z(i + c * n)];
    }
  if (report == nullptr) return;
  const bool wanted = report->plans_wanted;
  finish_report(*report, std::move(r.trace), ReportSettings::of(s));
  report->blocks = counts.chunks;
  if (wanted) report->add_plan(engine_facts(t, m, counts, report->profile.total_ns).print());
}

}  // namespace trn::sparse
