// Complex-fp32 (C_32F) SpMM / SpMV on the fp32 TensorE kernels, through the real 2 x 2 embedding.
//
// Algorithm   A complex value a = ar + i ai is the real 2 x 2 block E(a) = [ar -ai; ai ar]; a complex
//             matrix stored with interleaved parts (re, im) is, read as fp32, the real matrix whose
//             rows 2r, 2r + 1 hold the parts of row r. So E(A) (2M x 2K, 4 nnz entries, rows and
//             columns interleaved) times the interleaved op(B) (2K x n) is the interleaved A op(B)
//             (2M x n): row 2r sums ar br - ai bi, row 2r + 1 sums ai br + ar bi -- the four real
//             products of "4M" complex multiplication, accumulated in one PSUM sum per output part.
//             op(A): E(A)^T = E(A^H), so op C runs E(A) with the kernel's op T, op T runs E(conj A)
//             with op T. The embedding is a host copy with sign flips (exact, like the CSR -> BSR
//             copy of sparse.cpp): CSR / CSC / COO -> a real int64 CSR (then the 128 x 128 BSR tile
//             path), BSR (rb x cb blocks) -> real BSR with 2rb x 2cb blocks, Blocked-ELL (block b) ->
//             real Blocked-ELL with block 2b; the index arrays are shared or re-spelled, never
//             re-sorted. B and C column-major with op(B) = B are read and written in place (their
//             interleaved fp32 view: ld doubled); other layouts / op(B) are packed to a
//             column-major fp32 copy first (a conjugate for op(B) = C is a sign flip).
//             alpha, beta real (imaginary part 0): passed to the kernel's fp32 epilogue. alpha with
//             an imaginary part: folded into the embedded values (one fp32 complex multiply per
//             stored entry), beta with an imaginary part: C scaled by beta (one per element of C)
//             -- each a costed host step (trn/core/host_step.hpp), the kernel's alpha / beta 1.
// Engines     DMA, TensorE, VectorE (the fp32 BSR SpMM kernel, bsr_kernels.hpp); host steps only
//             for the complex alpha / beta folds above.
// Accuracy    docs/trnsparse.md "Complex-fp32 on TensorE": per output part an fp32 sum of 2k
//             products (k the stored entries of op(A)'s row), |y_hat - y| <= gamma32_{2k+2}
//             (|alpha| |op(A)| |op(B)| + |beta| |C|) elementwise with |.| of the complex moduli
//             summed per part, plus the folds' sqrt(2) gamma32_2 terms.
// Limits      fp32 values only (C_32F); SELL matrices keep the host step (sell.hpp).
#include <algorithm>
#include <complex>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "trn/core/scratch.hpp"
#include "generic_detail.hpp"
#include "generic_host.hpp"
#include "prepared_operand.hpp"
#include "spgemm_blocks.hpp"
#include "trn/sparse/generic.hpp"

namespace trn::sparse {

using namespace generic_detail;  // NOLINT: this file's own helpers

namespace {

using cf = std::complex<float>;

// fl(x * y) in fp32, written out so that every compiler rounds the same four products and two sums.
cf mul32(cf x, cf y) {
  const float re = x.real() * y.real() - x.imag() * y.imag();
  const float im = x.real() * y.imag() + x.imag() * y.real();
  return {re, im};
}

// How a stored value becomes its embedded block: an optional alpha factor, then an optional conjugate.
struct EntryMap {
  bool fold = false;  // multiply by `factor` (alpha with an imaginary part)
  cf factor{1.0f, 0.0f};
  bool conjugate = false;  // op(A) = A^T: E(conj(alpha a)) read transposed
  cf operator()(cf a) const {
    const cf w = fold ? mul32(factor, a) : a;
    return conjugate ? std::conj(w) : w;
  }
};
// opA N: E(alpha a), kernel op N; T: E(conj(alpha a)), op T; C: E(conj(alpha) a), op T.
EntryMap entry_map(GOp opA, Scalar alpha) {
  EntryMap m;
  m.fold = alpha.imag() != 0.0;
  const cf al(static_cast<float>(alpha.real()), static_cast<float>(alpha.imag()));
  m.factor = opA == GOp::C ? std::conj(al) : al;
  m.conjugate = opA == GOp::T;
  return m;
}

// E of `lines` lines of `len` complex values (the EntryMap's fold / conjugate and the line order as
// template parameters, the factor a local): a loop without branches or reloads that the compiler
// vectorises (with the map read through a reference, every float store might have changed it).
// The same operations as EntryMap: fl(fr a - fi b), fl(fr b + fi a) (mul32), then sign flips.
template <bool Fold, bool Conjugate, bool RowMajor>
void embed_lines(const cf* src, std::int64_t lines, std::int64_t len, cf factor, float* dst) {
  const std::int64_t out_len = 2 * len;
  const float fr = factor.real(), fi = factor.imag();
  for (std::int64_t l = 0; l < lines; ++l) {
    const float* __restrict in = reinterpret_cast<const float*>(src + l * len);
    float* __restrict first = dst + 2 * l * out_len;
    float* __restrict second = first + out_len;
    for (std::int64_t x = 0; x < len; ++x) {
      const float a = in[2 * x], b = in[2 * x + 1];
      const float re = Fold ? fr * a - fi * b : a;
      const float im0 = Fold ? fr * b + fi * a : b;
      const float im = Conjugate ? -im0 : im0;
      first[2 * x] = re;
      second[2 * x + 1] = re;
      (RowMajor ? first[2 * x + 1] : second[2 * x]) = -im;
      (RowMajor ? second[2 * x] : first[2 * x + 1]) = im;
    }
  }
}

// E of a rows x cols grid of complex values (row- or column-major, contiguous) into the 2rows x 2cols
// real grid of the same order: each source row (column) fills two adjacent destination rows
// (columns), walked by pointer (an index lambda per element was ~40 % of a warm C_32F BSR SpMV).
// row-major: line r (cols values) -> rows 2r (re, -im) and 2r + 1 (im, re); column-major: line c
// (rows values) -> columns 2c (re, im) and 2c + 1 (-im, re).
void embed_grid(const cf* src, std::int64_t rows, std::int64_t cols, bool row_major, const EntryMap& map, float* dst) {
  const std::int64_t lines = row_major ? rows : cols, len = row_major ? cols : rows;
  const auto run = [&]<bool Fold, bool Conjugate>() {
    if (row_major)
      embed_lines<Fold, Conjugate, true>(src, lines, len, map.factor, dst);
    else
      embed_lines<Fold, Conjugate, false>(src, lines, len, map.factor, dst);
  };
  if (map.fold)
    map.conjugate ? run.template operator()<true, true>() : run.template operator()<true, false>();
  else
    map.conjugate ? run.template operator()<false, true>() : run.template operator()<false, false>();
}

// A scratch-stack allocator whose value-initialisation is default-initialisation: buffers the
// embedding overwrites entirely are not zero-filled first (same scratch blocks, same trace names).
template <class T>
struct UninitScratch : ScratchAllocator<T> {
  template <class U>
  struct rebind {
    using other = UninitScratch<U>;
  };
  UninitScratch() = default;
  template <class U>
  UninitScratch(const UninitScratch<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

// The real CSR E(A) of a validated CSR / CSC / COO complex matrix: row r's entries (increasing
// column in every format: CSC's column-major walk visits a row's entries in increasing column)
// become rows 2r and 2r + 1, each entry two adjacent columns.
struct EmbeddedCsr {
  std::vector<std::int64_t> offsets, columns;
  std::vector<float> values;
  CsrView view;
};
EmbeddedCsr embed_csr(const SparseRef& A, const EntryMap& map) {
  EmbeddedCsr o;
  auto z = [](std::int64_t i) { return static_cast<std::size_t>(i); };
  std::vector<std::int64_t> start(z(A.rows) + 1, 0);
  for_each_entry(A, [&](std::int64_t i, std::int64_t, std::int64_t) { ++start[z(i) + 1]; });
  for (std::int64_t i = 0; i < A.rows; ++i) start[z(i) + 1] += start[z(i)];
  o.offsets.resize(z(2 * A.rows) + 1);
  for (std::int64_t i = 0; i <= A.rows; ++i) o.offsets[z(2 * i)] = 4 * start[z(i)];
  for (std::int64_t i = 0; i < A.rows; ++i) o.offsets[z(2 * i + 1)] = 2 * (start[z(i)] + start[z(i) + 1]);
  o.columns.resize(z(4 * A.nnz));
  o.values.resize(z(4 * A.nnz));
  std::vector<std::int64_t> next(start.begin(), start.end() - 1);  // entries of row i placed so far
  const auto* vals = static_cast<const cf*>(A.values);
  for_each_entry(A, [&](std::int64_t i, std::int64_t j, std::int64_t e) {
    const std::int64_t t = next[z(i)]++ - start[z(i)];
    const std::int64_t top = o.offsets[z(2 * i)] + 2 * t, bottom = o.offsets[z(2 * i + 1)] + 2 * t;
    const cf w = map(vals[e]);
    o.columns[z(top)] = o.columns[z(bottom)] = 2 * j;
    o.columns[z(top) + 1] = o.columns[z(bottom) + 1] = 2 * j + 1;
    o.values[z(top)] = w.real();
    o.values[z(top) + 1] = -w.imag();
    o.values[z(bottom)] = w.imag();
    o.values[z(bottom) + 1] = w.real();
  });
  o.view = CsrView{2 * A.rows, 2 * A.cols, 4 * A.nnz, o.offsets.data(), o.columns.data(), o.values.data(),
                   IndexType::i64, IndexType::i64, IndexBase::zero, DType::f32};
  return o;
}

// E(A) of a validated CSR / CSC / COO complex matrix straight into the kernel's bd x bd tiles: the
// offsets, columns and tile bytes csr_to_bsr makes of embed_csr's CSR (which is never built). Complex
// entry (i, j) fills real rows 2i, 2i + 1 and columns 2j, 2j + 1, all in tile (i / h, j / h), h = bd / 2,
// so E(A)'s tile pattern is A's pattern of h x h blocks. Entries are bucketed by tile row (CSC visits
// columns first), each tile row's distinct tile columns sorted as csr_to_bsr sorts them. Why: the
// embedded CSR (4 nnz int64 columns and fp32 values), its validation and the generic conversion were
// ~40 % of a warm 4096 x 4096 C_32F SpMV's host instructions (callgrind, docs/trnsparse.md "Session 26").
struct EmbeddedTiles {
  struct Entry {
    std::int64_t i, j, e;
  };
  std::vector<Entry> entries;                  // bucketed by tile row
  std::vector<std::int64_t> bucket;            // entries of tile row R: [bucket[R], bucket[R + 1])
  detail::TileSource source;
};
EmbeddedTiles embed_tiles(const SparseRef& A, std::int64_t bd) {
  EmbeddedTiles t;
  const std::int64_t h = bd / 2, mb = (A.rows + h - 1) / h, nb = (A.cols + h - 1) / h;
  auto z = [](std::int64_t i) { return static_cast<std::size_t>(i); };
  t.bucket.assign(z(mb) + 1, 0);
  for_each_entry(A, [&](std::int64_t i, std::int64_t, std::int64_t) { ++t.bucket[z(i / h) + 1]; });
  for (std::int64_t R = 0; R < mb; ++R) t.bucket[z(R) + 1] += t.bucket[z(R)];
  t.entries.resize(z(A.nnz));
  {
    std::vector<std::int64_t> next(t.bucket.begin(), t.bucket.end() - 1);
    for_each_entry(A, [&](std::int64_t i, std::int64_t j, std::int64_t e) { t.entries[z(next[z(i / h)]++)] = {i, j, e}; });
  }
  std::vector<std::int64_t> mark(z(nb), -1);
  t.source.rows = 2 * A.rows;
  t.source.cols = 2 * A.cols;
  t.source.offsets.assign(1, 0);
  t.source.offsets.reserve(z(mb) + 1);
  for (std::int64_t R = 0; R < mb; ++R) {
    const std::size_t first = t.source.columns.size();
    for (std::int64_t x = t.bucket[z(R)]; x < t.bucket[z(R) + 1]; ++x) {
      const std::int64_t C = t.entries[z(x)].j / h;
      if (mark[z(C)] != R) {
        mark[z(C)] = R;
        t.source.columns.push_back(C);
      }
    }
    std::sort(t.source.columns.begin() + static_cast<std::ptrdiff_t>(first), t.source.columns.end());
    t.source.offsets.push_back(static_cast<std::int64_t>(t.source.columns.size()));
  }
  t.source.entry_bytes = 2 * sizeof(float);  // write_tiles' runs
  return t;
}

// The entries of embed_tiles' t into the tiles (TileSource::write): two fp32 entries adjacent in the
// tile's order per recorded run, (2i, 2j) with its neighbour below (column order) or to the right
// (row order), and the same at 2j + 1 / 2i + 1.
void write_tiles(const EmbeddedTiles& t, const SparseRef& A, const EntryMap& map, std::int64_t bd, float* values,
                 BlockOrder order, const std::int64_t* offsets, const std::int64_t* columns, std::vector<std::int64_t>& written) {
  auto z = [](std::int64_t i) { return static_cast<std::size_t>(i); };
  const std::int64_t h = bd / 2, mb = static_cast<std::int64_t>(t.bucket.size()) - 1;
  std::vector<std::int64_t> slot(z((A.cols + h - 1) / h), -1);
  detail::warm_capacity(written, 2 * t.entries.size());  // one of the thread's warm blocks (ZeroedValues gives it back)
  written.reserve(2 * t.entries.size());
  const auto* vals = static_cast<const cf*>(A.values);
  const bool col_order = order == BlockOrder::col;
  const std::int64_t down = col_order ? 1 : bd, right = col_order ? bd : 1;  // steps of r + 1 and c + 1
  for (std::int64_t R = 0; R < mb; ++R) {
    for (std::int64_t b = offsets[R]; b < offsets[R + 1]; ++b) slot[z(columns[b])] = b;
    for (std::int64_t x = t.bucket[z(R)]; x < t.bucket[z(R) + 1]; ++x) {
      const EmbeddedTiles::Entry& en = t.entries[z(x)];
      const std::int64_t r = 2 * (en.i - R * h), c = 2 * (en.j % h);
      const std::int64_t at = slot[z(en.j / h)] * bd * bd + r * down + c * right;
      const cf w = map(vals[en.e]);
      values[at] = w.real();
      values[at + down] = w.imag();
      values[at + right] = -w.imag();
      values[at + down + right] = w.real();
      written.push_back(at * static_cast<std::int64_t>(sizeof(float)));
      written.push_back((col_order ? at + right : at + down) * static_cast<std::int64_t>(sizeof(float)));
    }
  }
}

// The interleaved fp32 operands of one product: op(B) as [2K, n], C as [2M, n] (views of the caller's
// memory when column-major with op(B) = B, packed copies otherwise).
struct RealOperands {
  std::vector<float> b_pack, c_pack;
  DenseRef b;
  MutableDenseRef c;
  bool c_packed = false;
};
using generic_host::at;  // element (r, c) of a dense operand
RealOperands real_operands(GOp opB, const DenseAny& B, const DenseAny& C, bool read_c, std::int64_t K) {
  RealOperands o;
  const std::int64_t M = C.rows, n = C.cols;
  if (opB == GOp::N && B.layout == Layout::col_major) {
    o.b = DenseRef{B.data, DType::f32, 2 * K, n, 2 * std::max<std::int64_t>(B.ld, 1), Layout::col_major};
  } else {
    o.b_pack.resize(static_cast<std::size_t>(2 * K * n));
    const auto* src = static_cast<const cf*>(B.data);
    for (std::int64_t c = 0; c < n; ++c)
      for (std::int64_t k = 0; k < K; ++k) {
        cf v = opB == GOp::N ? src[at(B, k, c)] : src[at(B, c, k)];
        if (opB == GOp::C) v = std::conj(v);
        o.b_pack[static_cast<std::size_t>(2 * k + c * 2 * K)] = v.real();
        o.b_pack[static_cast<std::size_t>(2 * k + 1 + c * 2 * K)] = v.imag();
      }
    o.b = DenseRef{o.b_pack.data(), DType::f32, 2 * K, n, std::max<std::int64_t>(2 * K, 1), Layout::col_major};
  }
  if (C.layout == Layout::col_major) {
    o.c = MutableDenseRef{C.data, DType::f32, 2 * M, n, 2 * std::max<std::int64_t>(C.ld, 1), Layout::col_major};
    return o;
  }
  o.c_packed = true;
  o.c_pack.assign(static_cast<std::size_t>(2 * M * n), 0.0f);
  if (read_c)
    for (std::int64_t c = 0; c < n; ++c)
      for (std::int64_t r = 0; r < M; ++r)
        std::memcpy(&o.c_pack[static_cast<std::size_t>(2 * r + c * 2 * M)], static_cast<const cf*>(C.data) + at(C, r, c),
                    sizeof(cf));
  o.c = MutableDenseRef{o.c_pack.data(), DType::f32, 2 * M, n, std::max<std::int64_t>(2 * M, 1), Layout::col_major};
  return o;
}
void unpack_c(const RealOperands& o, const DenseAny& C) {
  if (!o.c_packed) return;
  for (std::int64_t c = 0; c < C.cols; ++c)
    for (std::int64_t r = 0; r < C.rows; ++r)
      std::memcpy(static_cast<void*>(static_cast<cf*>(C.data) + at(C, r, c)), &o.c_pack[static_cast<std::size_t>(2 * r + c * 2 * C.rows)],
                  sizeof(cf));
}

// C = beta C on the host (beta with an imaginary part), one fp32 complex multiply per element.
HostStep scale_c(const DenseAny& C, Scalar beta) {
  const cf be(static_cast<float>(beta.real()), static_cast<float>(beta.imag()));
  auto* data = static_cast<cf*>(C.data);
  for (std::int64_t c = 0; c < C.cols; ++c)
    for (std::int64_t r = 0; r < C.rows; ++r) data[at(C, r, c)] = mul32(be, data[at(C, r, c)]);
  const HostSpan span = generic_host::dense_span(C);
  return HostStep{.name = "trnsparse.c32.beta", .flops = 6.0 * static_cast<double>(C.rows * C.cols), .reads = {span},
                  .writes = {span}};
}

// The plan line naming the embedding ahead of the fp32 kernel's own plan.
std::string embed_plan(const char* routine, const char* format, GOp opA, std::int64_t rows, std::int64_t cols,
                       std::int64_t stored, std::int64_t n, const EntryMap& map, Scalar beta) {
  return std::string(routine) + " plan: " + format + " C_32F " + std::to_string(rows) + "x" + std::to_string(cols) +
         " stored=" + std::to_string(stored) + " n=" + std::to_string(n) + " op(A)=" + generic_host::op_name(opA) +
         "; real 2x2 embedding [ar -ai; ai ar] (" + std::to_string(2 * rows) + "x" + std::to_string(2 * cols) +
         ", 4 real products per complex one, summed in PSUM) on the fp32 TensorE BSR kernel as op " +
         (opA == GOp::N ? "N" : "T") + (map.fold ? "; complex alpha folded into the values (host step)" : "") +
         (beta.imag() != 0.0 ? "; complex beta scales C first (host step)" : "") +
         "; engines DMA, TensorE, VectorE";
}

// The shared body: operands, the beta fold, `run(real_op, alpha_r, b, beta_r, c, report)` on the
// embedded matrix, the unpack, and the plan line and fold steps into the report.
template <class Run>
void embedded_product(const Settings& s, GOp opA, GOp opB, Scalar beta, const DenseAny& B, const DenseAny& C,
                      std::int64_t M, std::int64_t K, float alpha_r, const std::string& plan_line, Run&& run,
                      CallReport* report) {
  if (B.value != Value::c32 || C.value != Value::c32) invalid("A, B and C must share one value type", "valueType");
  const std::int64_t n = C.cols;
  if (opB == GOp::N ? (B.rows != K || B.cols != n) : (B.rows != n || B.cols != K)) invalid("op(B) is not K x n", "matB");
  if (C.rows != M) invalid("C is not M x n", "matC");
  const bool complex_beta = beta.imag() != 0.0;
  HostStep beta_step;
  if (complex_beta) beta_step = scale_c(C, beta);
  const float beta_r = complex_beta ? 1.0f : static_cast<float>(beta.real());
  RealOperands o = real_operands(opB, B, C, beta_r != 0.0f, K);
  run(opA == GOp::N ? Op::N : Op::T, alpha_r, o.b, beta_r, o.c, report);
  unpack_c(o, C);
  if (report == nullptr) return;
  if (complex_beta) generic_host::prepend_host_step(s, beta_step, report);
  if (report->plans_wanted) report->plan = plan_line + "\n" + report->plan;
}

std::int64_t rows_of_op(GOp opA, std::int64_t rows, std::int64_t cols) { return opA == GOp::N ? rows : cols; }
std::int64_t contraction(GOp opA, std::int64_t rows, std::int64_t cols) { return opA == GOp::N ? cols : rows; }

// The complex alpha fold's host step (the embedding's copy itself is not one, as sparse.cpp's CSR -> BSR copy).
void add_alpha_step(const Settings& s, const EntryMap& map, const void* values, std::int64_t count, CallReport* report) {
  if (!map.fold || report == nullptr) return;
  const HostSpan span = generic_host::bytes_span(values, count, sizeof(cf));
  generic_host::prepend_host_step(
      s, HostStep{.name = "trnsparse.c32.alpha", .flops = 6.0 * static_cast<double>(count), .reads = {span}}, report);
}
float kernel_alpha(const EntryMap& map, Scalar alpha) { return map.fold ? 1.0f : static_cast<float>(alpha.real()); }

}  // namespace

void spmm_c32(const Settings& s, GOp opA, GOp opB, Scalar alpha, const SparseRef& A, const DenseAny& B, Scalar beta,
              const DenseAny& C, CallReport* report) {
  validate(A);
  if (A.value != Value::c32) invalid("spmm_c32 takes C_32F values", "valueType");
  const EntryMap map = entry_map(opA, alpha);
  const std::string line = embed_plan(C.cols == 1 ? "spmv" : "spmm", generic_host::format_name(A.format), opA, A.rows,
                                      A.cols, A.nnz, C.cols, map, beta);
  embedded_product(s, opA, opB, beta, B, C, rows_of_op(opA, A.rows, A.cols), contraction(opA, A.rows, A.cols), kernel_alpha(map, alpha), line,
                   [&](Op op, float al, const DenseRef& b, float be, const MutableDenseRef& c, CallReport* r) {
                     // as spmm(s, op, Op::N, al, embed_csr(A, map).view, b, be, c, r), the embedded CSR never built
                     const std::int64_t bd = hardware_spec(s.target).pmax;
                     EmbeddedTiles t = embed_tiles(A, bd);
                     t.source.write = [&](float* values, BlockOrder order, const std::int64_t* offsets, const std::int64_t* columns,
                                          std::vector<std::int64_t>& written) {
                       write_tiles(t, A, map, bd, values, order, offsets, columns, written);
                     };
                     const detail::CsrTileOperand tiles(s, std::move(t.source), op);
                     tiles.spmm(s, op, Op::N, al, b, be, c, r);
                   },
                   report);
  add_alpha_step(s, map, A.values, A.nnz, report);
}

void spmm_c32(const Settings& s, GOp opA, GOp opB, Scalar alpha, const BsrView& A, const DenseAny& B, Scalar beta,
              const DenseAny& C, CallReport* report) {
  BsrView real = A;
  real.value_type = DType::f32;
  validate(real);
  const EntryMap map = entry_map(opA, alpha);
  const std::int64_t per_block = A.row_block * A.col_block;
  // read by the kernel: scratch stack; every element written by embed_grid
  std::vector<float, UninitScratch<float>> values(static_cast<std::size_t>(4 * per_block * A.bnnz));
  for (std::int64_t b = 0; b < A.bnnz; ++b)
    embed_grid(static_cast<const cf*>(A.values) + b * per_block, A.row_block, A.col_block, A.order == BlockOrder::row, map,
               values.data() + 4 * b * per_block);
  real.row_block *= 2;
  real.col_block *= 2;
  real.values = values.data();
  const std::string line = embed_plan(C.cols == 1 ? "spmv" : "spmm", "BSR", opA, A.rows(), A.cols(),
                                      A.bnnz * per_block, C.cols, map, beta);
  embedded_product(s, opA, opB, beta, B, C, rows_of_op(opA, A.rows(), A.cols()), contraction(opA, A.rows(), A.cols()), kernel_alpha(map, alpha), line,
                   [&](Op op, float al, const DenseRef& b, float be, const MutableDenseRef& c, CallReport* r) {
                     spmm(s, op, Op::N, al, real, b, be, c, r);
                   },
                   report);
  add_alpha_step(s, map, A.values, A.bnnz * per_block, report);
}

// ---- the embedded operand kept for many products (prepared_operand.hpp) ---------------------------
//
// The bodies of the two spmm_c32 above for op N and a real alpha (the identity entry map), with the
// embedding (and for CSR the fp32 CSR's BSR conversion) done once at construction: the same embedded
// bytes, the same kernel calls, so the same bits, trace and modeled time per product.
//
// BSR with small blocks, packed (s20/krylov, an algorithm change of the Krylov solvers' C_32F BSR
// SpMV). The BSR kernel issues one nc_matmul [2cb, 2rb]^T x [2cb, n] per stored block: for the 4 x 4
// complex blocks of the bench's grid an 8 x 8 product, ~250 instructions per SpMV of a 144-row
// operator (emu 20-114: dispatch, trace and cost model per tiny instruction). When the blocks are
// small and dense enough, the operand instead holds E(A) as a real CSR of every entry of every
// stored block, converted to the 128 x 128 tiles of the fp32 CSR path (CsrTileOperand): one matmul
// per 128 x 128 tile holding a stored block (7 instead of ~150 for the bench's 288 x 288 E(A)).
//   Bits: each output part is the same products (the blocks' entries; the tiles' other entries are
//   +0, whose fma terms are exact) summed per 128-column tile from +0 and added into PSUM tile by
//   tile, where the BSR kernel summed per block: the grouping of the sum changes, so the last bits
//   can. Both are fp32 sums of the same 2k products (k the stored complex entries of the row, the
//   blocks' explicit zeros included), so the bound of docs/trnsparse.md "Complex-fp32 on TensorE",
//   gamma32_{2k+2} (|alpha| |A| |x| + |beta| |y|), holds for either (any summation order of m terms
//   is within gamma_{m-1}, Higham 2002 (4.4); the zero terms add no rounding).
//   Bits equal those of the CSR path on the same entries (spmm_c32 on a complex CSR whose stored
//   entries fill the same tiles: tested, PreparedOperand.C32CsrAndBsrMatchSpmmC32).
//   When: the padded tiles hold at most kPackedTileBlowup times the embedded block values (so each
//   tile replaces >= 128^2 / (16 (2rb)(2cb)) block products, and the tiles' bytes stay within 16x
//   of the embedded operand's); otherwise (large blocks, scattered blocks) the BSR kernel as before.
//   The choice depends on the pattern and the target's partition count only.
constexpr std::int64_t kPackedTileBlowup = 16;

namespace {

// Distinct tile x tile tiles of the real matrix that hold an entry of a stored block of `real`
// (validated, base and index types as stored).
std::int64_t tiles_of_blocks(const BsrView& real, std::int64_t tile) {
  std::vector<std::int64_t> keys;
  keys.reserve(static_cast<std::size_t>(real.bnnz));
  const std::int64_t base = base_value(real.base), tile_cols = (real.cols() + tile - 1) / tile;
  for (std::int64_t r = 0; r < real.brows; ++r) {
    const std::int64_t t0 = r * real.row_block / tile, t1 = ((r + 1) * real.row_block - 1) / tile;
    for (std::int64_t e = idx(real.offsets, real.offsets_type, r) - base; e < idx(real.offsets, real.offsets_type, r + 1) - base; ++e) {
      const std::int64_t j = idx(real.columns, real.columns_type, e) - base;
      const std::int64_t c0 = j * real.col_block / tile, c1 = ((j + 1) * real.col_block - 1) / tile;
      for (std::int64_t t = t0; t <= t1; ++t)
        for (std::int64_t c = c0; c <= c1; ++c) keys.push_back(t * tile_cols + c);
    }
  }
  std::sort(keys.begin(), keys.end());
  return static_cast<std::int64_t>(std::unique(keys.begin(), keys.end()) - keys.begin());
}

// The real CSR of every entry of every stored block of `real` (values: its blocks, in `real.order`):
// row i's entries in increasing column (the blocks of a block row are in increasing block column).
void csr_of_blocks(const BsrView& real, const float* values, EmbeddedCsr& o) {
  const std::int64_t base = base_value(real.base), rb = real.row_block, cb = real.col_block;
  o.offsets.assign(1, 0);
  o.offsets.reserve(static_cast<std::size_t>(real.rows()) + 1);
  o.columns.reserve(static_cast<std::size_t>(real.bnnz * rb * cb));
  o.values.reserve(static_cast<std::size_t>(real.bnnz * rb * cb));
  for (std::int64_t br = 0; br < real.brows; ++br) {
    const std::int64_t e0 = idx(real.offsets, real.offsets_type, br) - base, e1 = idx(real.offsets, real.offsets_type, br + 1) - base;
    for (std::int64_t r = 0; r < rb; ++r) {
      for (std::int64_t e = e0; e < e1; ++e) {
        const std::int64_t j = idx(real.columns, real.columns_type, e) - base;
        const float* block = values + e * rb * cb;
        for (std::int64_t c = 0; c < cb; ++c) {
          o.columns.push_back(j * cb + c);
          o.values.push_back(real.order == BlockOrder::row ? block[r * cb + c] : block[r + c * rb]);
        }
      }
      o.offsets.push_back(static_cast<std::int64_t>(o.columns.size()));
    }
  }
  o.view = CsrView{real.rows(), real.cols(), static_cast<std::int64_t>(o.columns.size()), o.offsets.data(), o.columns.data(),
                   o.values.data(), IndexType::i64, IndexType::i64, IndexBase::zero, DType::f32};
}

}  // namespace

struct detail::C32Operand::Embedded {
  bool bsr = false;
  std::int64_t rows = 0, cols = 0, stored = 0;
  const char* format = "CSR";
  EmbeddedCsr csr;                                  // CSR (and packed BSR): E(A) as a real CSR
  std::unique_ptr<detail::CsrTileOperand> tiles;    // ... converted to the tile kernel's blocks
  ScratchVector<float> bsr_values;                  // BSR: E(A)'s 2rb x 2cb blocks (the kernel's HBM: scratch stack)
  BsrView real{};
};

detail::C32Operand::C32Operand(const Settings& s, const SparseRef& A) : e_(std::make_unique<Embedded>()) {
  validate(A);
  if (A.value != Value::c32) invalid("spmm_c32 takes C_32F values", "valueType");
  e_->rows = A.rows;
  e_->cols = A.cols;
  e_->stored = A.nnz;
  e_->format = generic_host::format_name(A.format);
  e_->csr = embed_csr(A, EntryMap{});
  e_->tiles = std::make_unique<detail::CsrTileOperand>(s, e_->csr.view);
}

detail::C32Operand::C32Operand(const Settings& s, const BsrView& A) : e_(std::make_unique<Embedded>()) {
  BsrView real = A;
  real.value_type = DType::f32;
  validate(real);
  const std::int64_t per_block = A.row_block * A.col_block;
  e_->bsr = true;
  e_->rows = A.rows();
  e_->cols = A.cols();
  e_->stored = A.bnnz * per_block;
  e_->format = "BSR";
  e_->bsr_values.resize(static_cast<std::size_t>(4 * per_block * A.bnnz));
  for (std::int64_t b = 0; b < A.bnnz; ++b)
    embed_grid(static_cast<const cf*>(A.values) + b * per_block, A.row_block, A.col_block, A.order == BlockOrder::row, EntryMap{},
               e_->bsr_values.data() + 4 * b * per_block);
  real.row_block *= 2;
  real.col_block *= 2;
  real.values = e_->bsr_values.data();
  e_->real = real;
  const std::int64_t tile = hardware_spec(s.target).pmax;
  if (tiles_of_blocks(real, tile) * tile * tile > kPackedTileBlowup * 4 * per_block * A.bnnz) return;
  // packed: E(A)'s blocks as one real CSR, then the CSR path's 128 x 128 tiles (the comment above)
  csr_of_blocks(real, e_->bsr_values.data(), e_->csr);
  e_->tiles = std::make_unique<detail::CsrTileOperand>(s, e_->csr.view);
  e_->bsr = false;
  e_->format = "BSR (stored blocks packed into 128x128 tiles)";
  e_->bsr_values = ScratchVector<float>();  // read by the host conversion only
  e_->real = BsrView{};                      // its values pointed into bsr_values
}

detail::C32Operand::~C32Operand() = default;

void detail::C32Operand::spmm(const Settings& s, GOp opB, Scalar alpha, const DenseAny& B, Scalar beta, const DenseAny& C,
                              CallReport* report) const {
  const EntryMap map = entry_map(GOp::N, alpha);
  if (map.fold) invalid("the embedded operand takes a real alpha", "alpha");
  const Embedded& e = *e_;
  const std::string line = embed_plan(C.cols == 1 ? "spmv" : "spmm", e.format, GOp::N, e.rows, e.cols, e.stored, C.cols, map, beta);
  embedded_product(s, GOp::N, opB, beta, B, C, e.rows, e.cols, kernel_alpha(map, alpha), line,
                   [&](Op op, float al, const DenseRef& b, float be, const MutableDenseRef& c, CallReport* r) {
                     if (e.bsr) sparse::spmm(s, op, Op::N, al, e.real, b, be, c, r);
                     else e.tiles->spmm(s, op, Op::N, al, b, be, c, r);
                   },
                   report);
}

void spmm_c32(const Settings& s, GOp opA, GOp opB, Scalar alpha, const BlockedEllView& A, const DenseAny& B, Scalar beta,
              const DenseAny& C, CallReport* report) {
  BlockedEllView real = A;
  real.value_type = DType::f32;
  validate(real);
  const EntryMap map = entry_map(opA, alpha);
  std::vector<float> values(static_cast<std::size_t>(4 * A.rows * A.ell_cols));
  if (A.rows * A.ell_cols > 0) embed_grid(static_cast<const cf*>(A.values), A.rows, A.ell_cols, true, map, values.data());
  real.rows *= 2;
  real.cols *= 2;
  real.block *= 2;
  real.ell_cols *= 2;
  real.values = values.data();
  const std::string line =
      embed_plan(C.cols == 1 ? "spmv" : "spmm", "Blocked-ELL", opA, A.rows, A.cols, A.rows * A.ell_cols, C.cols, map, beta);
  embedded_product(s, opA, opB, beta, B, C, rows_of_op(opA, A.rows, A.cols), contraction(opA, A.rows, A.cols), kernel_alpha(map, alpha), line,
                   [&](Op op, float al, const DenseRef& b, float be, const MutableDenseRef& c, CallReport* r) {
                     spmm(s, op, Op::N, al, real, b, be, c, r);
                   },
                   report);
  add_alpha_step(s, map, A.values, A.rows * A.ell_cols, report);
}

// ---- SDDMM ------------------------------------------------------------------------------------
//
// Algorithm   The column-interleaved form: op(A) read as the real M x 2K matrix A'' (row i holds
//             ar_k, ai_k at columns 2k, 2k + 1: a row-major A with op N is its own view, other
//             layouts are packed) times B'' = the 2K x 2N real matrix with B''(2k, 2j) = br,
//             B''(2k + 1, 2j) = -bi, B''(2k, 2j + 1) = bi, B''(2k + 1, 2j + 1) = br (packed, op(B)
//             and a complex alpha applied while packing) is the M x 2N real matrix whose columns 2j,
//             2j + 1 hold the parts of (op(A) op(B))(i, j) -- again four real products per complex
//             one in one PSUM sum. The stored entry e = (i, j) of C becomes the real entries
//             (i, 2j), (i, 2j + 1), i.e. exactly the interleaved fp32 view of C's values: a CSR
//             pattern is re-spelled (offsets and columns doubled, values in place), a row-order BSR
//             pattern is the real BSR with rb x 2cb blocks over the same arrays; column-order blocks
//             are copied to row order and back. Then the fp32 SDDMM kernel (bsr_kernels.hpp).
// Accuracy    each stored part an fp32 sum of 2K products: the SpMM bound with k = K.

namespace {

// op(A) as the real M x 2K row-major matrix A''.
DenseRef sddmm_a(GOp opA, const DenseAny& A, std::int64_t M, std::int64_t K, ScratchVector<float>& pack) {
  if (opA == GOp::N && A.layout == Layout::row_major)
    return DenseRef{A.data, DType::f32, M, 2 * K, 2 * std::max<std::int64_t>(A.ld, 1), Layout::row_major};
  pack.resize(static_cast<std::size_t>(2 * M * K));
  const auto* src = static_cast<const cf*>(A.data);
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t k = 0; k < K; ++k) {
      cf v = opA == GOp::N ? src[at(A, i, k)] : src[at(A, k, i)];
      if (opA == GOp::C) v = std::conj(v);
      pack[static_cast<std::size_t>(i * 2 * K + 2 * k)] = v.real();
      pack[static_cast<std::size_t>(i * 2 * K + 2 * k + 1)] = v.imag();
    }
  return DenseRef{pack.data(), DType::f32, M, 2 * K, std::max<std::int64_t>(2 * K, 1), Layout::row_major};
}

// op(B) (times a folded alpha) as the real 2K x 2N column-major matrix B''.
DenseRef sddmm_b(GOp opB, const DenseAny& B, std::int64_t K, std::int64_t N, const EntryMap& fold, ScratchVector<float>& pack) {
  pack.resize(static_cast<std::size_t>(4 * K * N));
  const auto* src = static_cast<const cf*>(B.data);
  const std::int64_t ld = 2 * K;
  for (std::int64_t j = 0; j < N; ++j)
    for (std::int64_t k = 0; k < K; ++k) {
      cf v = opB == GOp::N ? src[at(B, k, j)] : src[at(B, j, k)];
      if (opB == GOp::C) v = std::conj(v);
      v = fold(v);
      pack[static_cast<std::size_t>(2 * k + 2 * j * ld)] = v.real();
      pack[static_cast<std::size_t>(2 * k + 1 + 2 * j * ld)] = -v.imag();
      pack[static_cast<std::size_t>(2 * k + (2 * j + 1) * ld)] = v.imag();
      pack[static_cast<std::size_t>(2 * k + 1 + (2 * j + 1) * ld)] = v.real();
    }
  return DenseRef{pack.data(), DType::f32, 2 * K, 2 * N, std::max<std::int64_t>(ld, 1), Layout::col_major};
}

// C's stored values scaled by beta on the host (beta with an imaginary part).
HostStep scale_values(void* values, std::int64_t count, Scalar beta) {
  const cf be(static_cast<float>(beta.real()), static_cast<float>(beta.imag()));
  auto* v = static_cast<cf*>(values);
  for (std::int64_t e = 0; e < count; ++e) v[e] = mul32(be, v[e]);
  const HostSpan span = generic_host::bytes_span(values, count, sizeof(cf));
  return HostStep{.name = "trnsparse.c32.beta", .flops = 6.0 * static_cast<double>(count), .reads = {span}, .writes = {span}};
}

struct SddmmOperands {
  ScratchVector<float> a_pack, b_pack;  // the kernel's op(A), op(B) (HBM): on the scratch stack
  DenseRef a, b;
  float alpha = 1.0f, beta = 0.0f;
  EntryMap fold;
  HostStep beta_step;
  bool beta_folded = false;
};
// The checked shape, the real operands and the scalars; a complex beta scales `values` (count stored).
SddmmOperands sddmm_operands(GOp opA, GOp opB, Scalar alpha, const DenseAny& A, const DenseAny& B, Scalar beta,
                             std::int64_t M, std::int64_t N, void* values, std::int64_t count) {
  if (A.value != Value::c32 || B.value != Value::c32) invalid("sddmm: A, B and C must share one value type", "valueType");
  const std::int64_t K = opA == GOp::N ? A.cols : A.rows;
  if ((opA == GOp::N ? A.rows : A.cols) != M) invalid("sddmm: op(A) is not M x K", "matA");
  if ((opB == GOp::N ? B.rows : B.cols) != K || (opB == GOp::N ? B.cols : B.rows) != N) invalid("sddmm: op(B) is not K x N", "matB");
  SddmmOperands o;
  o.fold.fold = alpha.imag() != 0.0;
  o.fold.factor = cf(static_cast<float>(alpha.real()), static_cast<float>(alpha.imag()));
  o.alpha = o.fold.fold ? 1.0f : static_cast<float>(alpha.real());
  o.a = sddmm_a(opA, A, M, K, o.a_pack);
  o.b = sddmm_b(opB, B, K, N, o.fold, o.b_pack);
  o.beta_folded = beta.imag() != 0.0;
  if (o.beta_folded) o.beta_step = scale_values(values, count, beta);
  o.beta = o.beta_folded ? 1.0f : static_cast<float>(beta.real());
  return o;
}

// The folds' host steps and the plan line, after the kernel's report.
void finish_sddmm_c32(const Settings& s, const SddmmOperands& o, const char* format, std::int64_t M, std::int64_t N,
                      std::int64_t stored, const DenseAny& B, CallReport* report) {
  if (report == nullptr) return;
  if (o.beta_folded) generic_host::prepend_host_step(s, o.beta_step, report);
  if (o.fold.fold) {
    const HostSpan span = generic_host::dense_span(B);
    generic_host::prepend_host_step(
        s, HostStep{.name = "trnsparse.c32.alpha", .flops = 6.0 * static_cast<double>(B.rows * B.cols), .reads = {span}},
        report);
  }
  if (report->plans_wanted)
    report->plan = std::string("sddmm plan: ") + format + " C_32F " + std::to_string(M) + "x" + std::to_string(N) +
                   " stored=" + std::to_string(stored) +
                   "; column-interleaved real form (M x 2K times 2K x 2N, 4 real products per complex one, summed in "
                   "PSUM) on the fp32 TensorE SDDMM kernel" +
                   (o.fold.fold ? "; complex alpha folded into op(B) (host step)" : "") +
                   (o.beta_folded ? "; complex beta scales C first (host step)" : "") + "; engines DMA, TensorE, VectorE\n" +
                   report->plan;
}

}  // namespace

void sddmm_c32(const Settings& s, GOp opA, GOp opB, Scalar alpha, const DenseAny& A, const DenseAny& B, Scalar beta,
               const SparseRef& C, CallReport* report) {
  if (C.format != SparseRef::Format::csr) invalid("sddmm: the output pattern is CSR or BSR", "matC");
  if (C.value != Value::c32) invalid("sddmm_c32 takes C_32F values", "valueType");
  validate(C);
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(C.rows) + 1), columns(static_cast<std::size_t>(2 * C.nnz));
  const std::int64_t base = base_value(C.base);
  for (std::int64_t i = 0; i <= C.rows; ++i) offsets[static_cast<std::size_t>(i)] = 2 * (idx(C.offsets, C.offsets_type, i) - base);
  for (std::int64_t e = 0; e < C.nnz; ++e) {
    const std::int64_t j = idx(C.indices, C.indices_type, e) - base;
    columns[static_cast<std::size_t>(2 * e)] = 2 * j;
    columns[static_cast<std::size_t>(2 * e + 1)] = 2 * j + 1;
  }
  const SddmmOperands o = sddmm_operands(opA, opB, alpha, A, B, beta, C.rows, C.cols, C.values, C.nnz);
  const CsrView real{C.rows, 2 * C.cols, 2 * C.nnz, offsets.data(), columns.data(), C.values, IndexType::i64, IndexType::i64,
                     IndexBase::zero, DType::f32};
  sddmm(s, Op::N, Op::N, o.alpha, o.a, o.b, o.beta, real, report);
  finish_sddmm_c32(s, o, "CSR", C.rows, C.cols, C.nnz, B, report);
}

void sddmm_c32(const Settings& s, GOp opA, GOp opB, Scalar alpha, const DenseAny& A, const DenseAny& B, Scalar beta,
               const BsrView& C, CallReport* report) {
  BsrView real = C;
  real.value_type = DType::f32;
  validate(real);
  const std::int64_t rb = C.row_block, cb = C.col_block, count = C.bnnz * rb * cb;
  ScratchVector<cf> row_order;  // column-order blocks copied to row order (and back after the kernel)
  auto* values = static_cast<cf*>(C.values);
  const bool transposed = C.order == BlockOrder::col;
  auto reorder = [&](cf* dst, const cf* src, bool to_row) {
    for (std::int64_t b = 0; b < C.bnnz; ++b)
      for (std::int64_t r = 0; r < rb; ++r)
        for (std::int64_t c = 0; c < cb; ++c) {
          const std::int64_t rm = b * rb * cb + r * cb + c, cm = b * rb * cb + c * rb + r;
          dst[to_row ? rm : cm] = src[to_row ? cm : rm];
        }
  };
  if (transposed) {
    row_order.resize(static_cast<std::size_t>(count));
    reorder(row_order.data(), values, true);
  }
  cf* work = transposed ? row_order.data() : values;
  const SddmmOperands o = sddmm_operands(opA, opB, alpha, A, B, beta, C.rows(), C.cols(), work, count);
  real.col_block = 2 * cb;
  real.order = BlockOrder::row;
  real.values = work;
  sddmm(s, Op::N, Op::N, o.alpha, o.a, o.b, o.beta, real, report);
  if (transposed) reorder(values, row_order.data(), false);
  finish_sddmm_c32(s, o, "BSR", C.rows(), C.cols(), count, B, report);
}

}  // namespace trn::sparse
