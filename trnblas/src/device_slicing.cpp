// fp64 operands sliced on GpSimdE / VectorE: algorithm, engines, accuracy and limits in device_slicing.hpp.
#include "device_slicing.hpp"

#include <algorithm>
#include <cstdlib>

#include "trn/tile/fp64_slices.hpp"
#include "trn/tile/view.hpp"

namespace trn::blas::detail {
namespace {

using tile::hbm_view;
using tile::view;

constexpr std::int64_t kPartitions = 128;
// SBUF bytes per partition one program's values may take (words, offsets, slices, slicing scratch):
// a third of trn1's 192 KiB, leaving room for the constants and the allocator's alignment.
constexpr std::int64_t kProgramBudget = std::int64_t{64} << 10;

// One free dimension of a block: count, then strides in x (doubles), out (bf16), tk and tf.
struct Dim {
  std::int64_t n = 1, x = 0, out = 0, tk = 0, tf = 0;
};

// One program: partitions [kk0 + p Rb, ...) of one operand, the outer range [o0, o0 + no) and the
// inner range [i0, i0 + ni) of its block's two free dimensions.
struct Piece {
  std::size_t op = 0;
  std::int64_t kk0 = 0, Rb = 1;
  std::int32_t P = 0;
  Dim outer, inner;
  std::int64_t o0 = 0, no = 0, i0 = 0, ni = 0;
};

// The block's free dimensions r (contraction offset, Rb) and f (line, F), the memory-contiguous one
// inner (a long contiguous DMA run per partition).
std::pair<Dim, Dim> block_dims(const SliceOperand& a, std::int64_t Rb) {
  const Dim r{Rb, a.xk, a.ok, 1, 0}, f{a.F, a.xf, a.of, 0, 1};
  const bool r_inner = a.F == 1 || (Rb > 1 && a.xk <= a.xf);
  return r_inner ? std::pair{f, r} : std::pair{r, f};
}

// Programs of one block (P partitions of Rb contraction rows from kk0), chunked to the SBUF budget.
void block_pieces(std::size_t op, const SliceOperand& a, std::int64_t kk0, std::int32_t P, std::int64_t Rb,
                  std::vector<Piece>& out) {
  const auto [outer, inner] = block_dims(a, Rb);
  const std::int64_t per_value = 8 + 8 + 2 * a.S + tile::device_slice_scratch_bytes(a.S, true);
  const std::int64_t ni = std::clamp<std::int64_t>(kProgramBudget / per_value, 1, inner.n);
  const std::int64_t no = std::clamp<std::int64_t>(kProgramBudget / (per_value * ni), 1, outer.n);
  for (std::int64_t o0 = 0; o0 < outer.n; o0 += no)
    for (std::int64_t i0 = 0; i0 < inner.n; i0 += ni)
      out.push_back(Piece{op, kk0, Rb, P, outer, inner, o0, std::min(no, outer.n - o0), i0, std::min(ni, inner.n - i0)});
}

std::vector<Piece> pieces_of(const std::vector<SliceOperand>& ops) {
  std::vector<Piece> pieces;
  for (std::size_t op = 0; op < ops.size(); ++op) {
    const SliceOperand& a = ops[op];
    if (a.K == 0 || a.F == 0) continue;
    const std::int64_t Rb = a.K / kPartitions, tail = a.K % kPartitions;
    if (Rb > 0) block_pieces(op, a, 0, static_cast<std::int32_t>(kPartitions), Rb, pieces);
    if (tail > 0) block_pieces(op, a, Rb * kPartitions, static_cast<std::int32_t>(tail), 1, pieces);
  }
  return pieces;
}

// One program: the words and the two offset terms in, o = tk + tf (VectorE), the slices, the slices out.
void slice_piece(NeuronCore& nc, const SliceOperand& a, const Piece& q) {
  AllocScope sb(nc.sbuf());
  const std::int32_t P = q.P;
  const std::int64_t no = q.no, ni = q.ni, n = no * ni, S = a.S;
  const Dim &O = q.outer, &I = q.inner;
  const Tile words = sb.alloc(DType::u32, P, {2 * n}, "ozslice.words", 0, AllocFill::none);
  const double* x0 = a.x + q.kk0 * a.xk + q.o0 * O.x + q.i0 * I.x;
  nc.dma_copy(view(words, 0, {{no, 2 * ni}, {ni, 2}, {2, 1}}),
              hbm_view(x0, DType::u32, P, 2 * q.Rb * a.xk, {{no, 2 * O.x}, {ni, 2 * I.x}, {2, 1}}));
  const Tile offsets = sb.alloc(DType::i32, P, {n}, "ozslice.tk", 0, AllocFill::none);
  const Tile line_terms = sb.alloc(DType::i32, P, {n}, "ozslice.tf", 0, AllocFill::none);
  const tile::FreePattern values{{no, ni}, {ni, 1}};
  nc.dma_copy(view(offsets, 0, values), hbm_view(a.tk + q.kk0 + q.o0 * O.tk + q.i0 * I.tk, DType::i32, P, q.Rb,
                                                 {{no, O.tk}, {ni, I.tk}}));
  nc.dma_copy(view(line_terms, 0, values),  // the same F line terms on every partition
              hbm_view(a.tf + q.o0 * O.tf + q.i0 * I.tf, DType::i32, P, 0, {{no, O.tf}, {ni, I.tf}}));
  nc.tensor_tensor(offsets, offsets, line_terms, AluOp::add, Engine::vector);  // |.| < 2^20: exact
  const Tile dst = sb.alloc(DType::bf16, P, {n * S}, "ozslice.dst", 0, AllocFill::none);
  tile::slice_fp64_on_device(nc, tile::DeviceSliceArgs{.dst = dst, .words = words, .offsets = view(offsets, 0, values),
                                                       .outer = no, .inner = ni, .S = a.S, .zero_non_finite = true});
  std::uint16_t* const out0 = a.out + q.kk0 * a.ok + q.o0 * O.out + q.i0 * I.out;
  const std::int64_t partition_stride = q.Rb * a.ok;
  if (std::llabs(a.os) > std::max(std::llabs(O.out), std::llabs(I.out)))  // slice-major output: runs along the values
    nc.dma_copy(hbm_view(out0, DType::bf16, P, partition_stride, {{S, a.os}, {no, O.out}, {ni, I.out}}),
                view(dst, 0, {{S, 1}, {no, ni * S}, {ni, S}}));
  else
    nc.dma_copy(hbm_view(out0, DType::bf16, P, partition_stride, {{no, O.out}, {ni, I.out}, {S, a.os}}),
                view(dst, 0, {{no, ni * S}, {ni, S}, {S, 1}}));
}

}  // namespace

void slice_on_device(LaunchConfig lc, const std::vector<SliceOperand>& operands, Trace& trace) {
  const std::vector<Piece> pieces = pieces_of(operands);
  if (pieces.empty()) return;
  lc.grid = {static_cast<int>(pieces.size()), 1, 1};
  LaunchResult r = launch(lc, [&](NeuronCore& nc) {
    const Piece& q = pieces[static_cast<std::size_t>(nc.linear_program_id())];
    slice_piece(nc, operands[q.op], q);
  });
  trace.append(r.trace);
}

}  // namespace trn::blas::detail
