// fp64 and complex-fp64 (R_64F, C_64F) SpMM / SpMV on BSR and Blocked-ELL matrices as Ozaki
// products on TensorE (trnblas's dgemm / zgemm: trn/blas/blas.hpp, level3.hpp).
//
// Algorithm   op(A)'s block rows: the stored blocks of block row I of op(A) (for op T / C the block
//             column I of A, found by a counting sort of the block pattern, stable, so in increasing
//             block row of A), t of them, gathered side by side into the dense rb' x t cb' panel
//             [op(A)_{I,J1} ... op(A)_{I,Jt}] (transposed / conjugated while gathering), and the
//             rows of op(B) those blocks meet gathered into the t cb' x n panel G. C's rows of block
//             row I = alpha panel G + beta C_I is ONE fp64 GEMM of trnblas: dgemm (Ozaki scheme of
//             the settings, CRT by default: exact integer products on TensorE, scaling and
//             reconstruction host-side) or zgemm 4M (four real dgemms). Block rows without stored
//             blocks: the same call with k = 0 (C_I = beta C_I). Blocked-ELL is its BSR (slots
//             sorted by block column; empty slots dropped). Row-major C is copied to a column-major
//             scratch and back.
//             R_64F SpMV (n = 1) whose block rows of op(A) hold <= kSmallBlockRowValues stored values
//             on average (small blocks, few per row): op(A)'s rows of block entries (every element of
//             every stored block, explicit zeros included) go to rows_fp64.cpp's row groups instead --
//             G rows per dense panel of their distinct columns, one trnblas dgemv (fp64 slice pairs:
//             exact 8-bit slice products on TensorE, exact fold, one rounding) per group, G by the
//             CSR path's rule (choose_group_rows, pattern only).
//             C_64F SpMV on the same small block rows (s22/sparse): the same row groups, one trnblas
//             zgemv per group (the real representation [ar -ai; ai ar] of the G x u panel times x's
//             interleaved parts: trnblas's fp64 slice pairs, then the alpha / beta epilogue), G capped
//             (pattern only) so that every group's real representation holds fewer than
//             kComplexGroupElements elements (2u (2G + 1)): trnblas then cuts its slices on the host
//             instead of GpSimdE (device_slicing.hpp kDeviceSlicingMinElements), whose per-element
//             integer emulation made uncapped groups ~10x the host time of the Ozaki path.
// Engines     TensorE and DMA (the Ozaki slice / residue products), VectorE, the Ozaki host steps
//             (trnblas: scaling, reconstruction, epilogue in fp64).
// Accuracy    per block row, trnblas dgemm's bound with k = t cb' (docs/trnblas.md "Ozaki", scheme II
//             with the automatic bit count): |C_hat - C| <= 2^-50 k max|a_i.| max|b_.j| |alpha| + the
//             epilogue's roundings; C_64F: that bound per real product, four of them (docs/trnsparse.md
//             "fp64 BSR and Blocked-ELL on TensorE"). The R_64F SpMV row groups: per output
//             |y_hat - y| <= 4.1 u (|alpha p| + |beta y|), p = (op(A) x) exactly (trnblas "fp64 Levels 1
//             and 2"), independent of k and of cancellation. The C_64F SpMV row groups, per output:
//             |y_hat - y| <= 8 u (|alpha| |p| + |beta| |y|), p = (op(A) x) exactly (each part of p one
//             exact slice-pair sum rounded once, <= 2.02 u |p_part|, then the fp64 complex epilogue;
//             docs/trnsparse.md "Session 22").
// Limits      one trnblas call per block row of op(A) (per group for the small-block R_64F SpMV): per-call
//             overheads (host round trips of the Ozaki steps) scale with the block rows. C_64F SpMM
//             and large block rows keep the zgemm 4M per block row.
#include <algorithm>
#include <complex>
#include <cstring>
#include <string>
#include <vector>

#include "generic_detail.hpp"
#include "fp64_engine.hpp"
#include "generic_host.hpp"
#include "op_pattern.hpp"
#include "trn/blas/blas.hpp"
#include "trn/blas/level3.hpp"
#include "trn/sparse/generic.hpp"

namespace trn::sparse {

using namespace generic_detail;  // NOLINT: this file's own helpers

namespace {

auto z(std::int64_t i) { return static_cast<std::size_t>(i); }

// A block pattern (0-based) with each block's value offset: block row r holds [start[r], start[r+1]).
struct Blocks {
  std::int64_t brows = 0, bcols = 0, rb = 1, cb = 1;
  bool row_major = true;
  std::vector<std::int64_t> start, col, block;
};
Blocks bsr_blocks(const BsrView& A) {
  Blocks p{A.brows, A.bcols, A.row_block, A.col_block, A.order == BlockOrder::row, {}, {}, {}};
  const std::int64_t base = base_value(A.base);
  for (std::int64_t r = 0; r <= A.brows; ++r) p.start.push_back(idx(A.offsets, A.offsets_type, r) - base);
  for (std::int64_t e = 0; e < A.bnnz; ++e) {
    p.col.push_back(idx(A.columns, A.columns_type, e) - base);
    p.block.push_back(e);
  }
  return p;
}
// Blocked-ELL: slot t of block row i holds block (i * slots + t) of the row-major value grid; its
// element (r, c) lies at (i bs + r) ell_cols + t bs + c, i.e. not contiguous: `block` holds the slot
// index and the gather reads through ell_element.
Blocks ell_blocks(const BlockedEllView& A) {
  const std::int64_t bs = A.block, slots = A.ell_cols / bs, base = base_value(A.base);
  Blocks p{A.rows / bs, A.cols / bs, bs, bs, true, {0}, {}, {}};
  std::vector<std::pair<std::int64_t, std::int64_t>> row;
  for (std::int64_t i = 0; i < p.brows; ++i) {
    row.clear();
    for (std::int64_t t = 0; t < slots; ++t) {
      const std::int64_t raw = idx(A.col_ind, A.index_type, i * slots + t);
      if (raw != -1) row.emplace_back(raw - base, i * slots + t);
    }
    std::sort(row.begin(), row.end());
    for (const auto& [c, slot] : row) {
      p.col.push_back(c);
      p.block.push_back(slot);
    }
    p.start.push_back(static_cast<std::int64_t>(p.col.size()));
  }
  return p;
}
// op(A)'s block rows for op T / C: the transposed pattern (stable counting sort by block column).
struct OpRows {
  std::vector<std::int64_t> start, other, entry;  // op-row r: [start[r], start[r+1]) of (op-column, entry in p)
};
OpRows op_rows(const Blocks& p, bool transpose) {
  OpRows o;
  const std::int64_t rows = transpose ? p.bcols : p.brows;
  o.start.assign(z(rows) + 1, 0);
  for (std::int64_t i = 0; i < p.brows; ++i)
    for (std::int64_t e = p.start[z(i)]; e < p.start[z(i) + 1]; ++e) ++o.start[z(transpose ? p.col[z(e)] : i) + 1];
  for (std::int64_t r = 0; r < rows; ++r) o.start[z(r) + 1] += o.start[z(r)];
  std::vector<std::int64_t> next(o.start.begin(), o.start.end() - 1);
  o.other.resize(p.col.size());
  o.entry.resize(p.col.size());
  for (std::int64_t i = 0; i < p.brows; ++i)
    for (std::int64_t e = p.start[z(i)]; e < p.start[z(i) + 1]; ++e) {
      const std::int64_t r = transpose ? p.col[z(e)] : i, at = next[z(r)]++;
      o.other[z(at)] = transpose ? i : p.col[z(e)];
      o.entry[z(at)] = e;
    }
  return o;
}

using generic_host::conj_if;  // conj for complex values, identity for real ones

// Where element (r, c) of stored block `e` lives in the values array.
struct Layout2 {
  const Blocks* p;
  bool ell = false;
  std::int64_t ell_cols = 0, slots = 1;
  std::int64_t at(std::int64_t e, std::int64_t r, std::int64_t c) const {
    const std::int64_t b = p->block[z(e)];
    if (ell) return (b / slots * p->rb + r) * ell_cols + (b % slots) * p->cb + c;
    return b * p->rb * p->cb + (p->row_major ? r * p->cb + c : r + c * p->rb);
  }
};

template <class T>
struct Product {
  const Settings* s;
  GOp opA, opB;
  Scalar alpha, beta;
  const DenseAny* B;
  T* c = nullptr;  // column-major M x n
  std::int64_t ldc = 0, n = 0;
};

// One block row of op(A): gather the panels and run trnblas's fp64 GEMM into C's rows.
template <class T>
void block_row(const Product<T>& g, const Blocks& p, const Layout2& lay, const OpRows& o, std::int64_t r, const T* vals,
               blas::CallReport* rep) {
  const bool tr = g.opA != GOp::N;
  const std::int64_t rbo = tr ? p.cb : p.rb, cbo = tr ? p.rb : p.cb;
  const std::int64_t t = o.start[z(r) + 1] - o.start[z(r)], k = t * cbo;
  std::vector<T> panel(z(rbo * std::max<std::int64_t>(k, 1))), gathered(z(std::max<std::int64_t>(k, 1) * g.n));
  const auto* b = static_cast<const T*>(g.B->data);
  for (std::int64_t q = 0; q < t; ++q) {
    const std::int64_t e = o.entry[z(o.start[z(r)] + q)], J = o.other[z(o.start[z(r)] + q)];
    for (std::int64_t i = 0; i < rbo; ++i)
      for (std::int64_t c = 0; c < cbo; ++c)
        panel[z(i + (q * cbo + c) * rbo)] = conj_if(vals[lay.at(e, tr ? c : i, tr ? i : c)], g.opA == GOp::C);
    for (std::int64_t col = 0; col < g.n; ++col)
      for (std::int64_t c = 0; c < cbo; ++c) {
        const std::int64_t kk = J * cbo + c;
        gathered[z(q * cbo + c + col * k)] = g.opB == GOp::N ? b[generic_host::at(*g.B, kk, col)]
                                                             : conj_if(b[generic_host::at(*g.B, col, kk)], g.opB == GOp::C);
      }
  }
  const blas::Settings bs = fp64_engine::blas_settings(*g.s);
  T* c = g.c + r * rbo;
  const std::int64_t lda = std::max<std::int64_t>(rbo, 1), ldb = std::max<std::int64_t>(k, 1);
  if constexpr (std::is_same_v<T, double>)
    blas::dgemm(bs, blas::Op::N, blas::Op::N, rbo, g.n, k, g.alpha.real(), panel.data(), lda, gathered.data(), ldb,
                g.beta.real(), c, g.ldc, rep);
  else
    blas::zgemm(bs, blas::ComplexAlgo::four_m, blas::COp::N, blas::COp::N, rbo, g.n, k, g.alpha, panel.data(), lda,
                gathered.data(), ldb, g.beta, c, g.ldc, rep);
}

// op(A)'s rows of scalar entries: every element of every stored block (explicit zeros included, as
// the block GEMMs multiply them), entry = its offset in the values array, in increasing column (op N:
// a block row's blocks are in increasing block column; op T / C: op_rows keeps A's block rows in
// increasing order). Index work only.
OpPattern entry_pattern(const Blocks& p, const Layout2& lay, const OpRows& o, bool tr) {
  const std::int64_t rbo = tr ? p.cb : p.rb, cbo = tr ? p.rb : p.cb, op_brows = tr ? p.bcols : p.brows;
  OpPattern q;
  q.rows = op_brows * rbo;
  q.cols = (tr ? p.brows : p.bcols) * cbo;
  q.start.reserve(z(q.rows) + 1);
  q.start.push_back(0);
  const std::size_t entries = p.col.size() * z(p.rb * p.cb);
  q.col.reserve(entries);
  q.entry.reserve(entries);
  for (std::int64_t R = 0; R < op_brows; ++R)
    for (std::int64_t i = 0; i < rbo; ++i) {
      for (std::int64_t at = o.start[z(R)]; at < o.start[z(R) + 1]; ++at) {
        const std::int64_t e = o.entry[z(at)], J = o.other[z(at)];
        for (std::int64_t c = 0; c < cbo; ++c) {
          q.col.push_back(J * cbo + c);
          q.entry.push_back(lay.at(e, tr ? c : i, tr ? i : c));
        }
      }
      q.start.push_back(static_cast<std::int64_t>(q.col.size()));
    }
  return q;
}

// R_64F SpMV takes rows_fp64.cpp's dgemv row groups instead of one Ozaki dgemm per block row when the
// block rows of op(A) hold at most this many stored values on average: each Ozaki call costs a fixed
// pair of host round trips (modeled) and ~870 k host instructions (a 4 x 1 x 20 call, measured), which
// such short block rows cannot amortize (docs/trnsparse.md "Session 21"). Pattern only: the same choice
// for every target, thread and core count.
constexpr std::int64_t kSmallBlockRowValues = 128;
// C_64F SpMV row groups: a group's real representation (x's 2u parts and the 2u x 2G matrix) holds
// fewer elements than this, trnblas's threshold for slicing on the host (device_slicing.hpp
// kDeviceSlicingMinElements = 4096). Above it the slices are cut on GpSimdE, whose integer element path
// took ~10x the host time of the Ozaki zgemm per block row on the bsrmv bench row (docs/trnsparse.md
// "Session 22"); below it each group costs ~5 host-sliced instructions. Pattern only.
constexpr std::int64_t kComplexGroupElements = 4096;
bool small_block_rows(const Blocks& p, bool tr) {
  const std::int64_t op_brows = tr ? p.bcols : p.brows;
  return op_brows > 0 &&
         static_cast<std::int64_t>(p.col.size()) * p.rb * p.cb <= kSmallBlockRowValues * op_brows;
}

std::string block_plan_head(std::int64_t n, const char* format, bool real, std::int64_t M, std::int64_t K, const Blocks& p,
                            GOp opA) {
  return std::string(n == 1 ? "spmv" : "spmm") + " plan: " + format + " " + (real ? "R_64F" : "C_64F") + " " +
         std::to_string(M) + "x" + std::to_string(K) + " blocks " + std::to_string(p.rb) + "x" + std::to_string(p.cb) +
         " stored=" + std::to_string(p.col.size()) + " n=" + std::to_string(n) + " op(A)=" + generic_host::op_name(opA);
}

template <class T>
void block_product(const Settings& s, GOp opA, GOp opB, Scalar alpha, const Blocks& p, const Layout2& lay, const T* vals,
                   const DenseAny& B, Scalar beta, const DenseAny& C, const char* format, CallReport* report) {
  const bool tr = opA != GOp::N;
  const std::int64_t M = (tr ? p.bcols * p.cb : p.brows * p.rb), K = (tr ? p.brows * p.rb : p.bcols * p.cb), n = C.cols;
  if ((opB == GOp::N ? B.rows : B.cols) != K || (opB == GOp::N ? B.cols : B.rows) != n) invalid("op(B) is not K x n", "matB");
  if (C.rows != M) invalid("C is not M x n", "matC");
  const OpRows o = op_rows(p, tr);
  if (n == 1 && small_block_rows(p, tr)) {  // SpMV: dgemv / zgemv row groups
    constexpr bool real = std::is_same_v<T, double>;
    const OpPattern q = entry_pattern(p, lay, o, tr);
    spmm_fp64_row_groups(
        s, opA, opB, alpha, q, real ? Value::f64 : Value::c64, vals, B, beta, C, report,
        [&](const RowGroupFacts& f, double ns) {
          return block_plan_head(n, format, real, M, K, p, opA) + "; " + std::to_string(kSmallBlockRowValues) +
                 " or fewer stored values per block row of op(A) on average: its " + std::to_string(q.col.size()) +
                 " block entries (explicit zeros included) in row groups of " + std::to_string(f.G) + " rows (" +
                 std::to_string(f.groups) + " calls" +
                 (real ? std::string()
                       : ", each group's real representation under " + std::to_string(kComplexGroupElements) +
                             " elements: largest " + std::to_string(f.largest_real_form)) +
                 "), each a dense panel of the group's distinct columns gathered on the host (" +
                 std::to_string(f.panel_values) + " panel values), one trnblas " +
                 (real ? "dgemv (fp64 slice pairs)"
                       : "zgemv (fp64 slice pairs, real representation, slices cut on the host)") +
                 " per group; engines TensorE, DMA, VectorE, GpSimdE, trnblas host steps; modeled " +
                 std::to_string(ns / 1000.0) + " us";
        },
        real ? 0 : kComplexGroupElements);
    if (report != nullptr) report->blocks = static_cast<std::int64_t>(p.col.size());
    return;
  }
  fp64_engine::ColumnMajorC<T> cm(C, M, n);  // a row-major C, column-major while the GEMMs run
  Product<T> g{&s, opA, opB, alpha, beta, &B, cm.data, cm.ld, n};
  fp64_engine::CallSum sum;
  const std::int64_t op_brows = tr ? p.bcols : p.brows;
  for (std::int64_t r = 0; r < op_brows && M > 0 && n > 0; ++r) {  // block rows one after the other
    blas::CallReport rep;
    rep.plans_wanted = false;  // only the profile is summed
    block_row(g, p, lay, o, r, vals, &rep);
    sum.add(rep);
  }
  cm.finish();
  sum.into(report, static_cast<std::int64_t>(p.col.size()), [&](double ns) {
    return block_plan_head(n, format, std::is_same_v<T, double>, M, K, p, opA) + "; one Ozaki " +
           (std::is_same_v<T, double> ? "dgemm" : "zgemm 4M") +
           " per block row of op(A) (" + std::to_string(op_brows) + " calls, panels gathered on the host); engines "
           "TensorE, DMA, VectorE, Ozaki host steps; modeled " + std::to_string(ns / 1000.0) + " us";
  });
}

}  // namespace

void spmm_fp64(const Settings& s, GOp opA, GOp opB, Scalar alpha, const BsrView& A, Value value, const DenseAny& B,
               Scalar beta, const DenseAny& C, CallReport* report) {
  BsrView real = A;
  real.value_type = DType::f32;  // (the index rules only)
  validate(real);
  if (B.value != value || C.value != value) invalid("A, B and C must share one value type", "valueType");
  const Blocks p = bsr_blocks(A);
  const Layout2 lay{&p};
  fp64_engine::dispatch_wide(value, [&](auto t) {
    using T = decltype(t);
    block_product<T>(s, opA, opB, alpha, p, lay, static_cast<const T*>(A.values), B, beta, C, "BSR", report);
  });
}

void spmm_fp64(const Settings& s, GOp opA, GOp opB, Scalar alpha, const BlockedEllView& A, Value value, const DenseAny& B,
               Scalar beta, const DenseAny& C, CallReport* report) {
  BlockedEllView real = A;
  real.value_type = DType::f32;
  validate(real);
  if (B.value != value || C.value != value) invalid("A, B and C must share one value type", "valueType");
  const Blocks p = ell_blocks(A);
  const Layout2 lay{&p, true, A.ell_cols, A.block > 0 ? A.ell_cols / A.block : 1};
  fp64_engine::dispatch_wide(value, [&](auto t) {
    using T = decltype(t);
    block_product<T>(s, opA, opB, alpha, p, lay, static_cast<const T*>(A.values), B, beta, C, "Blocked-ELL", report);
  });
}

}  // namespace trn::sparse
