// Fused DF-MP2 correlation energy (Weigend & Haser, Theor. Chem. Acc. 97, 331 (1997)):
//   (ia|jb) = sum_Q B^Q_ia B^Q_jb,
//   E = sum_ij sum_ab (ia|jb) [2 (ia|jb) - (ib|ja)] / (e_i + e_j - e_a - e_b).
// One program per occupied pair (i, j): the two v x v integral blocks are contracted into PSUM,
// combined with the denominator and reduced while SBUF/PSUM-resident; (ia|jb) never reaches HBM.
// docs/trntensor.md, "Fused DF-MP2".
#include <algorithm>
#include <array>
#include <cmath>
#include <mutex>
#include <vector>

#include "trn/blas/modes.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/scratch.hpp"
#include "trn/tile/matmul.hpp"
#include "trn/tensor/tensor.hpp"

namespace trn::tensor {

const char* mp2_precision_name(Mp2Precision p) {
  switch (p) {
    case Mp2Precision::fp32: return "fp32";
    case Mp2Precision::bf16: return "bf16";
    case Mp2Precision::bf16x3: return "bf16x3";
    case Mp2Precision::bf16x6: return "bf16x6";
  }
  return "?";
}

// Kernel dfmp2_pair_energy (one program per pair i <= j, grid [nocc (nocc + 1) / 2]):
//   B      HBM fp32 [naux, nocc * nvir] (row-major, B^Q_ia at Q * nocc * nvir + i * nvir + a)
//   e_occ  HBM fp32 [nocc], e_vir HBM fp32 [nvir]
//   out    HBM fp32 [pairs]: E_ij = sum_ab [2 X_ab - Y_ab] X_ab / D_ab
// Engines: DMA loads the B^Q_i* and B^Q_j* panels (partition = Q, free = a; bf16 modes round on the
// DMA, RNE); VectorE splits them into bf16 hi + lo terms (bf16x3); TensorE forms X = (ia|jb) and
// Y = (ib|ja) (stationary B_i / B_j [Q, a], moving B_j / B_i [Q, b]) accumulating over Q tiles of
// hw.pmax rows in fp32 PSUM; VectorE builds D_ab = (e_i + e_j) - (e_a + e_b), its reciprocal, the
// products and the free-axis sum; TensorE sums the partitions (ones-vector matmul).
// Limits: nvir <= hw.pmax (a v x v block is one PSUM tile: partitions = a) and nvir <=
// gemm_moving_fmax. Accuracy: fp32 inputs, exact products, fp32 accumulation; bf16: inputs rounded
// once to bf16; bf16x3: hi.hi + hi.lo + lo.hi (the dropped lo.lo biases positive sums by ~2^-18);
// bf16x6: three terms, pairs with index sum <= 2.
double dfmp2_energy(const blas::Settings& s, std::int64_t naux, std::int64_t nocc, std::int64_t nvir, const float* B,
                    const float* e_occ, const float* e_vir, Mp2Precision precision, blas::CallReport* report) {
  if (report != nullptr) *report = blas::CallReport{};
  if (naux < 0 || nocc < 0 || nvir < 0) throw InvalidArgument("dfmp2", "sizes", "negative naux, nocc or nvir");
  if (B == nullptr || e_occ == nullptr || e_vir == nullptr) throw InvalidArgument("dfmp2", "pointers", "null input");
  const HardwareSpec& hw = hardware_spec(s.target);
  if (nvir > hw.pmax || nvir > hw.gemm_moving_fmax)
    throw NotSupportedError("dfmp2", "nvir = " + std::to_string(nvir) + " > " + std::to_string(hw.pmax) +
                                         " (one v x v PSUM tile per pair)", hw.name);
  if (nocc == 0 || nvir == 0 || naux == 0) return 0.0;
  const std::int64_t ov = nocc * nvir;
  HbmTensor hB = HbmTensor::wrap(const_cast<float*>(B), DType::f32, {naux, ov});
  // E_ji = E_ij (swap a and b), so only the pairs i <= j run; i < j counts twice.
  std::vector<std::pair<std::int64_t, std::int64_t>> ij;
  for (std::int64_t i = 0; i < nocc; ++i)
    for (std::int64_t j = i; j < nocc; ++j) ij.emplace_back(i, j);
  const auto npairs = static_cast<std::int64_t>(ij.size());
  ScratchVector<float> pair(static_cast<std::size_t>(npairs), 0.0f);  // traced: the scratch stack
  HbmTensor hOut = HbmTensor::wrap(pair.data(), DType::f32, {npairs, 1});
  const std::int64_t v = nvir;
  const auto vp = static_cast<std::int32_t>(v);
  const DType load = precision == Mp2Precision::fp32 ? DType::f32 : DType::bf16;
  const int nterms = precision == Mp2Precision::bf16x3 ? 2 : precision == Mp2Precision::bf16x6 ? 3 : 1;
  // Term pairs (a, b) of the products B_i[a] . B_j[b], smallest first: trnblas's mode table.
  const auto table_pairs = blas::mode_traits(nterms == 2   ? blas::GemmMode::bf16x3
                                             : nterms == 3 ? blas::GemmMode::bf16x6
                                                           : blas::GemmMode::bf16).pairs;
  const std::vector<std::pair<int, int>> pairs(table_pairs.begin(), table_pairs.end());

  LaunchConfig lc = s.launch_config({static_cast<int>(npairs), 1, 1});
  const LaunchResult r = launch(lc, [&](NeuronCore& nc) {
    const std::int64_t pid = nc.program_id(0);
    const std::int64_t i = ij[static_cast<std::size_t>(pid)].first, j = ij[static_cast<std::size_t>(pid)].second;
    const std::int32_t pmax = nc.hw().pmax;
    AllocScope sb(nc.sbuf()), ps(nc.psum());
    // Split terms of the B_i / B_j panels: term 0 = bf16(B) (or B itself in fp32); for the
    // compensated modes term t = bf16(B - sum of earlier terms), formed on VectorE in fp32.
    Tile ti[3], tj[3], ri, rj;
    for (int t = 0; t < nterms; ++t) {
      ti[t] = sb.alloc(t == 0 ? load : DType::bf16, pmax, {v}, "B_i term");
      tj[t] = sb.alloc(t == 0 ? load : DType::bf16, pmax, {v}, "B_j term");
    }
    if (nterms > 1) {
      ri = sb.alloc(DType::f32, pmax, {v}, "B_i residual");
      rj = sb.alloc(DType::f32, pmax, {v}, "B_j residual");
    }
    tile::Accumulator X(nc, ps.alloc(DType::f32, vp, {v}, "(ia|jb)")), Y(nc, ps.alloc(DType::f32, vp, {v}, "(ib|ja)"));
    // The residual starts as the fp32 panel (its own DMA) and the bf16 term 0 comes from the
    // rounding DMA, so the split begins at the first subtraction; B_i and B_j in lockstep.
    const tile::TermSplit in_place{Engine::vector, Engine::vector, InstrOptions{}, /*first_term_loaded=*/true};
    for (std::int64_t q0 = 0; q0 < naux; q0 += pmax) {
      const auto tq = static_cast<std::int32_t>(std::min<std::int64_t>(pmax, naux - q0));
      std::array<Tile, 3> si, sj;
      for (int t = 0; t < nterms; ++t) {
        si[static_cast<std::size_t>(t)] = ti[t].rows(0, tq);
        sj[static_cast<std::size_t>(t)] = tj[t].rows(0, tq);
      }
      nc.dma_copy(si[0], hB.tile(q0, tq, i * v, v));
      nc.dma_copy(sj[0], hB.tile(q0, tq, j * v, v));
      if (nterms > 1) {
        nc.dma_copy(ri.rows(0, tq), hB.tile(q0, tq, i * v, v));
        nc.dma_copy(rj.rows(0, tq), hB.tile(q0, tq, j * v, v));
        const std::size_t n = static_cast<std::size_t>(nterms);
        const tile::SplitOperand both[] = {{ri.rows(0, tq), ri.rows(0, tq), std::span<const Tile>(si).first(n)},
                                           {rj.rows(0, tq), rj.rows(0, tq), std::span<const Tile>(sj).first(n)}};
        tile::split_terms(nc, both, in_place);
      }
      // Cross products, smallest terms first, in one PSUM accumulation group per output.
      for (const auto& [a, b] : pairs) {
        X.matmul(si[static_cast<std::size_t>(a)], sj[static_cast<std::size_t>(b)]);
        Y.matmul(sj[static_cast<std::size_t>(a)], si[static_cast<std::size_t>(b)]);
      }
    }
    // Denominator D[a, b] = (e_i + e_j) - (e_a + e_b): e_a per partition, e_b along the free axis
    // (a partition-broadcast DMA, stride 0), e_i and e_j broadcast to every partition.
    Tile ea = sb.alloc(DType::f32, vp, {1}, "e_a"), eb = sb.alloc(DType::f32, vp, {v}, "e_b");
    Tile ei = sb.alloc(DType::f32, vp, {1}, "e_i"), ej = sb.alloc(DType::f32, vp, {1}, "e_j");
    nc.dma_copy(ea, HbmTensor::wrap(const_cast<float*>(e_vir), DType::f32, {v, 1}).tile(0, vp, 0, 1));
    nc.dma_copy(eb, HbmTensor::wrap(const_cast<float*>(e_vir), DType::f32, {v, v}, {0, 1}).tile(0, vp, 0, v));
    nc.dma_copy(ei, HbmTensor::wrap(const_cast<float*>(e_occ + i), DType::f32, {v, 1}, {0, 1}).tile(0, vp, 0, 1));
    nc.dma_copy(ej, HbmTensor::wrap(const_cast<float*>(e_occ + j), DType::f32, {v, 1}, {0, 1}).tile(0, vp, 0, 1));
    Tile eij = sb.alloc(DType::f32, vp, {1}, "e_i + e_j"), den = sb.alloc(DType::f32, vp, {v}, "1 / D");
    nc.tensor_tensor(eij, ei, ej, AluOp::add);
    // den = (e_b + e_a) then eij - den, then 1 / den.
    nc.tensor_scalar(den, eb, AluOp::add, ea, AluOp::subtract, eij, Engine::vector, false, /*reverse1=*/true);
    nc.reciprocal(den, den);
    // t = (2 X - Y) * X / D, reduced over b (free axis), then over a (partitions) on TensorE.
    Tile t = sb.alloc(DType::f32, vp, {v}, "t"), rowsum = sb.alloc(DType::f32, vp, {1}, "sum_b");
    nc.tensor_scalar(t, X.psum(), AluOp::multiply, 2.0f);
    nc.tensor_tensor(t, t, Y.psum(), AluOp::subtract);
    nc.tensor_tensor(t, t, X.psum(), AluOp::multiply);
    nc.tensor_tensor(t, t, den, AluOp::multiply);
    nc.tensor_reduce(rowsum, t, AluOp::add);
    Tile ones = sb.alloc(DType::f32, vp, {1}, "ones"), total = ps.alloc(DType::f32, 1, {1}, "E_ij"),
         total_sb = sb.alloc(DType::f32, 1, {1}, "E_ij");
    nc.memset(ones, 1.0f);
    tile::PartitionSum sum(nc, total, ones, tile::PartitionSum::Layout::column);
    sum.add(rowsum);
    sum.copy_out(total_sb);
    nc.dma_copy(hOut.tile(pid, 1, 0, 1), total_sb);
  });
  // The nocc (nocc + 1) / 2 pair energies are summed on the host in fp64, off-diagonal pairs twice:
  // one host round trip (docs/cost-model.md section 7), a scaling and an add per pair.
  if (report != nullptr) {
    report->trace = r.trace;
    record_host_step(report->trace, HostStep{.name = "trntensor.dfmp2.pair_sum", .flops = 2.0 * static_cast<double>(npairs),
                                             .reads = {HostSpan(pair.data(), npairs)}});
    finish_report(*report, ReportSettings{s.target});
    report->tensor_passes = r.trace.per_engine[static_cast<std::size_t>(Engine::tensor)];
  }
  double e = 0;
  for (std::size_t p = 0; p < pair.size(); ++p) e += (ij[p].first == ij[p].second ? 1.0 : 2.0) * static_cast<double>(pair[p]);
  return e;
}

}  // namespace trn::tensor
