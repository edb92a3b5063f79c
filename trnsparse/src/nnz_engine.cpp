// cusparse<t>nnz's counting on the emulated engines (docs/trnsparse.md "nnz on the engines").
//
// Algorithm   A (column-major, rows x cols, ld; w fp32 words per value: 1 R_32F, 2 R_64F / C_32F,
//             4 C_64F) is walked in tile steps of [pc <= pmax columns, F <= kFree rows]: column j of
//             the step on partition j - j0, its F values one contiguous run of F w words.
//               X    [pc, F w] <- A(i0 .. i0+F, j0 .. j0+pc)   one DMA (a contiguous run per partition)
//               ind  [pc, F]   = 1 where the value is nonzero  VectorE: one not_equal-0 compare per word
//                                                              plane (bf16 0 / 1); GpSimdE folds the
//                                                              w planes by maximum (w > 1)
//             A word that holds an IEEE sign bit (an fp32 value or part, the high word of an fp64 one)
//             is compared as fp32: x != 0 is false exactly for +0 and -0, i.e. iff its other 31 bits
//             are 0. The low word of an fp64 part has no sign bit: it is read as u32, which the compare
//             converts to fp32 by RNE, a map that sends only 0 to 0. So a value counts iff some bit
//             other than its sign bits is set: the host scan's x != 0 (NaN and subnormals count).
//             Column counts (dirA COLUMN): per step tensor_reduce(add) of ind along the free axis,
//             accumulated over the column's row chunks on VectorE ([pc, 1] fp32).
//             Row counts (dirA ROW): per step the partition sum ones[pc, 1]^T ind[pc, F] on TensorE
//             (bf16 0/1 operands), accumulated in one PSUM bank [1, F] over the column blocks.
//             Either count vector is cast to int32 (VectorE, exact), stored by DMA, and added to the
//             total by a GpSimdE operator (int64 arithmetic on the int32 counts; the total kept as
//             two int32 words in SBUF and stored by DMA at the end).
//             X and ind rotate over kBuffers buffers, so the loads run ahead of the compares.
// Engines     DMA, VectorE (compares, column sums), TensorE (row sums), GpSimdE (plane folds, the
//             total). One program on one core: the same bits for any host thread or core count.
// Accuracy    Exact: the compares give 0 / 1; a partial count is an integer below 2^24 (the reduced
//             extent's limit below), exact in fp32, in bf16-product PSUM sums and in the int32 cast;
//             the total is summed in int64.
// Limits      The reduced extent (cols for row counts, rows for column counts) below 2^24
//             (dense_nnz_on_engines; beyond it the C API counts on the host, a costed host step).
//             Column-major A only (the only layout cusparse<t>nnz takes).
#include "nnz_engine.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "trn/core/spmd.hpp"

namespace trn::sparse {

namespace {

constexpr std::int64_t kFree = 512;            // rows per tile step: one PSUM bank of fp32 row counts
constexpr std::int64_t kExactCount = 1 << 24;  // fp32 integers are exact below this
constexpr int kBuffers = 4;                    // X / ind buffers in rotation: loads run ahead of the compares

struct NnzShape {
  std::int64_t rows = 0, cols = 0, w = 1;
  bool fp64 = false;  // two words per IEEE part: the even (low) word carries no sign bit
};

// The launch's SBUF tiles (X and ind in a rotation of kBuffers by step number).
struct NnzTiles {
  Tile words[kBuffers], ind[kBuffers], flag, part, acc, counts, total, ones;
};
NnzTiles alloc_nnz_tiles(AllocScope& sb, std::int32_t P, std::int64_t w) {
  NnzTiles t;
  for (int b = 0; b < kBuffers; ++b) {
    t.words[b] = sb.alloc(DType::f32, P, {kFree * w}, "A words");
    t.ind[b] = sb.alloc(DType::bf16, P, {kFree}, "nonzero indicator");
  }
  t.flag = sb.alloc(DType::bf16, P, {kFree * 3}, "word indicators (planes 1 .. w-1)");
  t.part = sb.alloc(DType::f32, P, {1}, "chunk column counts");
  t.acc = sb.alloc(DType::f32, P, {1}, "column counts");
  t.counts = sb.alloc(DType::i32, P, {kFree}, "int32 counts");
  t.total = sb.alloc(DType::i32, 1, {2}, "total (int64 as two int32 words)");
  t.ones = sb.alloc(DType::bf16, P, {1}, "ones");
  return t;
}

// Loads step (j0 .. j0+pc columns, i0 .. i0+F rows) into words[b] and leaves ind[b][pc, F] = 1
// where the value is nonzero, 0 elsewhere (the header's compare rules). The compares of the w planes
// go to separate flag planes so GpSimdE's folds overlap VectorE's next compares.
Tile indicator(NeuronCore& nc, const HbmTensor& a, const NnzShape& sh, const NnzTiles& t, int b, std::int64_t j0,
               std::int32_t pc, std::int64_t i0, std::int64_t F) {
  const std::int64_t w = sh.w;
  const Tile x = t.words[b].rows(0, pc).cols(0, F * w);
  nc.dma_copy(x, a.tile(j0, pc, i0 * w, F * w));
  const Tile ind = t.ind[b].rows(0, pc).cols(0, F);
  for (std::int64_t k = 0; k < w; ++k) {
    const bool low_word = sh.fp64 && k % 2 == 0;
    const Tile plane = (low_word ? x.bitcast(DType::u32) : x).slice(x.ndim - 1, k, F, w);
    nc.tensor_scalar(k == 0 ? ind : t.flag.rows(0, pc).cols((k - 1) * kFree, F), plane, AluOp::not_equal, 0.0f);
  }
  for (std::int64_t k = 1; k < w; ++k)
    nc.tensor_tensor(ind, ind, t.flag.rows(0, pc).cols((k - 1) * kFree, F), AluOp::maximum, Engine::gpsimd);
  return ind;
}

// total += the int32 counts of cnt (GpSimdE, int64 arithmetic; two passes per element declared).
void add_to_total(NeuronCore& nc, const NnzTiles& t, const Tile& cnt) {
  const Tile outs[] = {t.total};
  const Tile ins[] = {cnt};
  const double cycles = nc.hw().gpsimd_start + 2.0 * static_cast<double>(cnt.elements());
  nc.custom_op("nnz_total", outs, ins, cycles, [](const CustomOpContext& ctx) {
    std::int64_t sum = 0;
    std::memcpy(&sum, ctx.outputs[0].at(0, 0), sizeof sum);
    const Tile& c = ctx.inputs[0];
    for (std::int32_t p = 0; p < c.partitions; ++p)
      for (std::int64_t i = 0; i < c.free_size(); ++i) {
        std::int32_t v = 0;
        std::memcpy(&v, c.at(p, i), sizeof v);
        sum += v;
      }
    std::memcpy(ctx.outputs[0].at(0, 0), &sum, sizeof sum);
  });
}

// The count vector's slice [first, first + len) in HBM, laid out as `partitions` x (len / partitions).
Tile hbm_counts(std::int32_t* counts, std::int64_t first, std::int32_t partitions, std::int64_t len) {
  return HbmTensor::wrap(counts + first, DType::i32, {partitions, len / partitions}).tile(0, partitions, 0, len / partitions);
}

// dirA COLUMN: per column block, the row chunks' free-axis sums accumulated on VectorE.
std::int64_t count_columns(NeuronCore& nc, const HbmTensor& a, const NnzShape& sh, const NnzTiles& t, std::int32_t* counts) {
  const std::int32_t P = nc.hw().pmax;
  std::int64_t steps = 0;
  for (std::int64_t j0 = 0; j0 < sh.cols; j0 += P) {
    const auto pc = static_cast<std::int32_t>(std::min<std::int64_t>(P, sh.cols - j0));
    const Tile acc = t.acc.rows(0, pc), part = t.part.rows(0, pc);
    for (std::int64_t i0 = 0; i0 < sh.rows; i0 += kFree, ++steps) {
      const std::int64_t F = std::min(kFree, sh.rows - i0);
      const Tile ind = indicator(nc, a, sh, t, static_cast<int>(steps % kBuffers), j0, pc, i0, F);
      nc.tensor_reduce(i0 == 0 ? acc : part, ind, AluOp::add);
      if (i0 > 0) nc.tensor_tensor(acc, acc, part, AluOp::add);
    }
    const Tile cnt = t.counts.rows(0, pc).cols(0, 1);
    nc.tensor_copy(cnt, acc);
    nc.dma_copy(hbm_counts(counts, j0, pc, pc), cnt);
    add_to_total(nc, t, cnt);
  }
  return steps;
}

// dirA ROW: per row chunk, the column blocks' partition sums (ones-vector matmuls) accumulated in PSUM.
std::int64_t count_rows(NeuronCore& nc, const HbmTensor& a, const NnzShape& sh, const NnzTiles& t, std::int32_t* counts) {
  const std::int32_t P = nc.hw().pmax;
  AllocScope ps(nc.psum());
  const Tile row_counts = ps.alloc(DType::f32, 1, {kFree}, "row counts");
  nc.memset(t.ones, 1.0f);
  std::int64_t steps = 0;
  for (std::int64_t i0 = 0; i0 < sh.rows; i0 += kFree) {
    const std::int64_t F = std::min(kFree, sh.rows - i0);
    const Tile sums = row_counts.cols(0, F);
    for (std::int64_t j0 = 0; j0 < sh.cols; j0 += P, ++steps) {
      const auto pc = static_cast<std::int32_t>(std::min<std::int64_t>(P, sh.cols - j0));
      const Tile ind = indicator(nc, a, sh, t, static_cast<int>(steps % kBuffers), j0, pc, i0, F);
      nc.nc_matmul(sums, t.ones.rows(0, pc), ind, j0 > 0);
    }
    const Tile cnt = t.counts.rows(0, 1).cols(0, F);
    nc.tensor_copy(cnt, sums);
    nc.dma_copy(hbm_counts(counts, i0, 1, F), cnt);
    add_to_total(nc, t, cnt);
  }
  return steps;
}

PlanFacts nnz_plan(const DenseAny& A, bool by_rows, std::int64_t steps, double ns) {
  PlanFacts p;
  p.routine = "nnz";
  p.shape = std::to_string(A.rows) + "x" + std::to_string(A.cols) + " ld=" + std::to_string(A.ld);
  p.variant = std::string(value_name(A.value)) + (by_rows ? ", per row" : ", per column") +
              ": [pmax columns, <=" + std::to_string(kFree) + " rows] tile steps (" + std::to_string(steps) +
              "), one contiguous DMA each; not_equal-0 per word plane (VectorE), planes folded by maximum (GpSimdE); " +
              (by_rows ? "row sums as ones-vector matmuls accumulated in PSUM (TensorE)" : "column sums by tensor_reduce (VectorE)") +
              "; the total on GpSimdE (int64)";
  p.ops = std::to_string(static_cast<long long>(A.rows * A.cols * static_cast<std::int64_t>(value_bytes(A.value) / 4))) +
          " word compares";
  p.engines = by_rows ? "DMA, VectorE, TensorE, GpSimdE" : "DMA, VectorE, GpSimdE";  // GpSimdE: folds (w > 1), the total
  p.predicted_ns = ns;
  p.why = "a dense scan: one pass over A's words at DMA rate, the compares on 128 partitions";
  return p;
}

}  // namespace

bool dense_nnz_on_engines(const DenseAny& A, bool by_rows) {
  return A.layout == Layout::col_major && (by_rows ? A.cols : A.rows) < kExactCount;
}

std::int64_t dense_nnz_engines(const Settings& s, const DenseAny& A, bool by_rows, std::int32_t* counts, CallReport* report) {
  if (!dense_nnz_on_engines(A, by_rows)) throw InvalidArgument("nnz: the engine path counts column-major A below 2^24", "A");
  const NnzShape sh{A.rows, A.cols, static_cast<std::int64_t>(value_bytes(A.value) / 4), A.value == Value::f64 || A.value == Value::c64};
  const std::int64_t major = by_rows ? A.rows : A.cols;
  std::fill(counts, counts + major, 0);  // an empty A launches nothing: every count is 0
  std::int64_t total = 0, steps = 0;
  LaunchResult r;
  if (A.rows > 0 && A.cols > 0)
    r = launch(s.launch_config(), [&](NeuronCore& nc) {
      AllocScope sb(nc.sbuf());
      const NnzTiles t = alloc_nnz_tiles(sb, nc.hw().pmax, sh.w);
      const HbmTensor a = HbmTensor::wrap(A.data, DType::f32, {A.cols, A.ld * sh.w});
      nc.memset(t.total, 0.0f);
      steps = by_rows ? count_rows(nc, a, sh, t, counts) : count_columns(nc, a, sh, t, counts);
      nc.dma_copy(HbmTensor::wrap(&total, DType::i32, {1, 2}).tile(0, 1, 0, 2), t.total);
    });
  if (report == nullptr) return total;
  const bool wanted = report->plans_wanted;
  finish_report(*report, std::move(r.trace), ReportSettings::of(s));
  report->blocks = steps;
  if (wanted) report->add_plan(nnz_plan(A, by_rows, steps, report->profile.total_ns).print());
  return total;
}

}  // namespace trn::sparse
