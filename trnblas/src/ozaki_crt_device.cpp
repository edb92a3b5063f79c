// Ozaki scheme II's residues, fold and CRT reconstruction as GpSimdE operators: algorithm, engines,
// declared cycles and accuracy in ozaki_crt.hpp.
#include "ozaki_crt.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "trn/core/host_loops.hpp"
#include "trn/tile/view.hpp"

namespace trn::blas::detail {
namespace {

using tile::hbm_view;
using tile::view;

constexpr std::int64_t kPartitions = 128;
// SBUF bytes per partition one program's values may take: a third of trn1's 192 KiB (as the device
// slicing), leaving room for the allocator's alignment.
constexpr std::int64_t kCrtProgramBudget = std::int64_t{64} << 10;

// A program over `count` consecutive elements from `first`: P partitions of r consecutive elements.
struct FlatPiece {
  std::int64_t first = 0;
  std::int32_t P = 0;
  std::int64_t r = 0;
};

// Programs over [0, count): blocks of up to 128 r_max elements, each split as evenly as possible
// into P partitions of r elements, and one partition for what is left (< r elements).
std::vector<FlatPiece> flat_pieces(std::int64_t count, std::int64_t bytes_per_element) {
  const std::int64_t r_max = std::max<std::int64_t>(1, kCrtProgramBudget / bytes_per_element);
  std::vector<FlatPiece> pieces;
  for (std::int64_t c0 = 0; c0 < count; c0 += kPartitions * r_max) {
    const std::int64_t L = std::min(kPartitions * r_max, count - c0);
    const std::int64_t r = (L + kPartitions - 1) / kPartitions;
    const auto P = static_cast<std::int32_t>(L / r);
    pieces.push_back({c0, P, r});
    if (L > P * r) pieces.push_back({c0 + P * r, 1, L - P * r});
  }
  return pieces;
}

// Runs program(nc, piece) for every piece in one launch and appends its trace.
template <class Piece, class Program>
void launch_pieces(LaunchConfig lc, const std::vector<Piece>& pieces, Trace& trace, Program&& program) {
  if (pieces.empty()) return;
  lc.grid = {static_cast<int>(pieces.size()), 1, 1};
  LaunchResult r = launch(lc, [&](NeuronCore& nc) {
    program(nc, pieces[static_cast<std::size_t>(nc.linear_program_id())]);
  });
  trace.append(r.trace);
}

double gpsimd_cycles(const NeuronCore& nc, double ops_per_element, std::int64_t elements_per_partition) {
  return nc.hw().gpsimd_start + ops_per_element * static_cast<double>(elements_per_partition);
}

// One residue program: the words and exponent bytes in, the operator, nl residue runs out.
void residue_piece(NeuronCore& nc, const CrtTable& t, const double* mant, const std::uint8_t* e, int l0, int nl,
                   std::uint16_t* out, std::int64_t out_stride, const FlatPiece& q) {
  AllocScope sb(nc.sbuf());
  const std::int64_t r = q.r;
  const Tile words = sb.alloc(DType::u32, q.P, {2 * r}, "oz2.mant", 0, AllocFill::none);
  nc.dma_copy(words, hbm_view(mant + q.first, DType::u32, q.P, 2 * r, {{2 * r, 1}}));
  const Tile exps = sb.alloc(DType::u8, q.P, {r}, "oz2.exp", 0, AllocFill::none);
  nc.dma_copy(exps, hbm_view(e + q.first, DType::u8, q.P, r, {{r, 1}}));
  const Tile res = sb.alloc(DType::bf16, q.P, {nl * r}, "oz2.residues", 0, AllocFill::none);
  const Tile outs[] = {res}, ins[] = {words, exps};
  const double cycles = gpsimd_cycles(nc, kResidueOpsPerElement + kResidueOpsPerModulus * nl, r);
  nc.custom_op("ozaki2_residues", outs, ins, cycles, [&t, l0, nl, r](const CustomOpContext& ctx) {
    const Tile &dst = ctx.outputs[0], &w = ctx.inputs[0], &ex = ctx.inputs[1];
    for (std::int32_t p = 0; p < dst.partitions; ++p) {
      const auto* m = reinterpret_cast<const double*>(w.at(p, 0));
      const auto* ep = reinterpret_cast<const std::uint8_t*>(ex.at(p, 0));
      auto* o = reinterpret_cast<std::uint16_t*>(dst.at(p, 0));
      for (int k = 0; k < nl; ++k) {
        const double pl = kCrtModuli[l0 + k];
        host::centred_residues_bf16(m, ep, r, pl, 1.0 / pl, t.pow2_mod[l0 + k], o + k * r);
      }
    }
  });
  nc.dma_copy(hbm_view(out + q.first, DType::bf16, q.P, r, {{nl, out_stride}, {r, 1}}),
              view(res, 0, {{nl, r}, {r, 1}}));
}

// One fold program: nl chunks-deep partial runs in, nl residue runs out.
void fold_piece(NeuronCore& nc, const float* partial, std::int64_t count, std::int64_t chunks, int l0, int nl,
                std::uint8_t* y, const FlatPiece& q) {
  AllocScope sb(nc.sbuf());
  const std::int64_t r = q.r, runs = nl * chunks;
  const Tile parts = sb.alloc(DType::f32, q.P, {runs * r}, "oz2.partials", 0, AllocFill::none);
  nc.dma_copy(view(parts, 0, {{runs, r}, {r, 1}}),
              hbm_view(partial + q.first, DType::f32, q.P, r, {{runs, count}, {r, 1}}));
  const Tile ys = sb.alloc(DType::u8, q.P, {nl * r}, "oz2.y", 0, AllocFill::none);
  const Tile outs[] = {ys}, ins[] = {parts};
  const double cycles =
      gpsimd_cycles(nc, kFoldOpsPerPartial * static_cast<double>(runs) + kFoldOpsPerResidue * nl, r);
  nc.custom_op("ozaki2_fold", outs, ins, cycles, [l0, nl, r, chunks](const CustomOpContext& ctx) {
    const Tile &dst = ctx.outputs[0], &src = ctx.inputs[0];
    for (std::int32_t p = 0; p < dst.partitions; ++p) {
      const auto* P = reinterpret_cast<const float*>(src.at(p, 0));
      auto* yp = reinterpret_cast<std::uint8_t*>(dst.at(p, 0));
      for (int k = 0; k < nl; ++k) {
        const double pl = kCrtModuli[l0 + k];
        for (std::int64_t c = 0; c < chunks; ++c)
          host::fold_residues_u8(P + (k * chunks + c) * r, r, pl, 1.0 / pl, c == 0, yp + k * r);
      }
    }
  });
  nc.dma_copy(hbm_view(y + l0 * count + q.first, DType::u8, q.P, r, {{nl, count}, {r, 1}}),
              view(ys, 0, {{nl, r}, {r, 1}}));
}

// A reconstruction program: P columns from j0 (one per partition), rows [i0, i0 + ni).
struct OutputPiece {
  std::int64_t j0 = 0, i0 = 0, ni = 0;
  std::int32_t P = 0;
};

void reconstruct_piece(NeuronCore& nc, const CrtTable& t, const std::uint8_t* y, std::int64_t m, std::int64_t n,
                       const std::int32_t* neg_sa, const std::int32_t* neg_sb, double* acc, const OutputPiece& q) {
  AllocScope sb(nc.sbuf());
  const std::int64_t ni = q.ni, N = t.N;
  const Tile ys = sb.alloc(DType::u8, q.P, {N * ni}, "oz2.y", 0, AllocFill::none);
  nc.dma_copy(view(ys, 0, {{N, ni}, {ni, 1}}),
              hbm_view(y + q.i0 + q.j0 * m, DType::u8, q.P, m, {{N, m * n}, {ni, 1}}));
  const Tile rows = sb.alloc(DType::i32, q.P, {ni}, "oz2.neg_sa", 0, AllocFill::none);
  nc.dma_copy(rows, hbm_view(neg_sa + q.i0, DType::i32, q.P, 0, {{ni, 1}}));  // the same on every partition
  const Tile col = sb.alloc(DType::i32, q.P, {1}, "oz2.neg_sb", 0, AllocFill::none);
  nc.dma_copy(col, hbm_view(neg_sb + q.j0, DType::i32, q.P, 1, {{1, 1}}));
  const Tile words = sb.alloc(DType::u32, q.P, {2 * ni}, "oz2.acc", 0, AllocFill::none);
  const Tile outs[] = {words}, ins[] = {ys, rows, col};
  nc.custom_op("ozaki2_reconstruct", outs, ins, gpsimd_cycles(nc, crt_reconstruct_ops(t), ni),
               [&t, ni](const CustomOpContext& ctx) {
                 const Tile &dst = ctx.outputs[0], &yt = ctx.inputs[0], &sa = ctx.inputs[1], &sbj = ctx.inputs[2];
                 const std::uint8_t* yl[kOzakiMaxModuli];
                 for (std::int32_t p = 0; p < dst.partitions; ++p) {
                   const auto* row = reinterpret_cast<const std::uint8_t*>(yt.at(p, 0));
                   for (int l = 0; l < t.N; ++l) yl[l] = row + l * ni;
                   crt_reconstruct_block(t, yl, ni, 0, reinterpret_cast<const int*>(sa.at(p, 0)),
                                         *reinterpret_cast<const int*>(sbj.at(p, 0)),
                                         reinterpret_cast<double*>(dst.at(p, 0)));
                 }
               });
  nc.dma_copy(hbm_view(acc + q.i0 + q.j0 * m, DType::u32, q.P, 2 * m, {{2 * ni, 1}}), words);
}

}  // namespace

double crt_reconstruct_ops(const CrtTable& t) {
  const double limbs = std::ceil((t.log2_M + 13.0) / 16.0);
  return t.N * (kReconstructOpsPerModulus + kReconstructOpsPerModulusLimb * limbs) + kReconstructOpsPerLimb * limbs +
         kReconstructOpsPerOutput;
}

void residues_on_device(LaunchConfig lc, const CrtTable& t, const double* mant, const std::uint8_t* e,
                        std::int64_t count, int l0, int nl, std::uint16_t* out, std::int64_t out_stride, Trace& trace) {
  launch_pieces(lc, flat_pieces(count, 8 + 1 + 2 * nl), trace, [&](NeuronCore& nc, const FlatPiece& q) {
    residue_piece(nc, t, mant, e, l0, nl, out, out_stride, q);
  });
}

void fold_on_device(LaunchConfig lc, const float* partial, std::int64_t count, std::int64_t chunks, int l0, int nl,
                    std::uint8_t* y, Trace& trace) {
  launch_pieces(lc, flat_pieces(count, 4 * nl * chunks + nl), trace, [&](NeuronCore& nc, const FlatPiece& q) {
    fold_piece(nc, partial, count, chunks, l0, nl, y, q);
  });
}

void reconstruct_on_device(LaunchConfig lc, const CrtTable& t, const std::uint8_t* y, std::int64_t m, std::int64_t n,
                           const std::int32_t* neg_sa, const std::int32_t* neg_sb, double* acc, Trace& trace) {
  // Rows per program: the residues, the row shifts and the result words of a run fit the budget.
  const std::int64_t ni_max = std::clamp<std::int64_t>(kCrtProgramBudget / (t.N + 4 + 8), 1, 1024);
  std::vector<OutputPiece> pieces;
  for (std::int64_t j0 = 0; j0 < n; j0 += kPartitions)
    for (std::int64_t i0 = 0; i0 < m; i0 += ni_max)
      pieces.push_back({j0, i0, std::min(ni_max, m - i0), static_cast<std::int32_t>(std::min(kPartitions, n - j0))});
  launch_pieces(lc, pieces, trace, [&](NeuronCore& nc, const OutputPiece& q) {
    reconstruct_piece(nc, t, y, m, n, neg_sa, neg_sb, acc, q);
  });
}

}  // namespace trn::blas::detail
