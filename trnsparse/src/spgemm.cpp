// BSR x BSR SpGEMM: symbolic phase (host index work) and the numeric tile kernel.
//
// Algorithm   Grid axis 1 = C block rows. For C(i, j): walk A's row i in increasing k, look B(k, j)
//             up by binary search in B's row k; for each hit DMA A(i, k) transposed ([cbA, rbA],
//             stationary) and B(k, j) ([rbB, cbB], moving; double-buffered) and issue one nc_matmul
//             into the block's PSUM accumulator (accumulate=false for the first). Evacuate once:
//             VectorE alpha (or a copy), DMA into C's row-major block.
// Accuracy    fp32 sum over k of exact products in increasing (block, then element) order, then
//             fl(alpha * acc): the SpMM bound with k = A.cols.
#include <algorithm>

#include "bsr_kernels.hpp"
#include "generic_detail.hpp"
#include "trn/sparse/sparse.hpp"
#include "trn/tile/matmul.hpp"

namespace trn::sparse {

namespace {

std::int64_t load_idx(const void* p, IndexType t, std::int64_t i) {
  return t == IndexType::i32 ? std::int64_t{static_cast<const std::int32_t*>(p)[i]} : static_cast<const std::int64_t*>(p)[i];
}

using Pattern = generic_detail::RowPattern;
Pattern pattern_of(const BsrView& a) {
  const std::int64_t b = a.base == IndexBase::one ? 1 : 0;
  Pattern p;
  for (std::int64_t r = 0; r <= a.brows; ++r) p.start.push_back(load_idx(a.offsets, a.offsets_type, r) - b);
  for (std::int64_t e = 0; e < a.bnnz; ++e) p.col.push_back(load_idx(a.columns, a.columns_type, e) - b);
  return p;
}

void check_shapes(const BsrView& A, const BsrView& B) {
  validate(A);
  validate(B);
  if (A.bcols != B.brows || A.col_block != B.row_block)
    throw InvalidArgument("trnsparse spgemm: A's block columns must match B's block rows", "matB");
  if (A.value_type != B.value_type) throw InvalidArgument("trnsparse spgemm: A and B need one value type", "matB");
}

struct SpgemmArgs {
  detail::BlockPattern a, b, c;
  float alpha = 1.0f;
  DType load = DType::f32;
};

void spgemm_kernel(NeuronCore& nc, const SpgemmArgs& g) {
  const std::int64_t i = nc.program_id(1);
  const auto& a = g.a;
  const auto& b = g.b;
  const auto& c = g.c;
  if (c.row_start[static_cast<std::size_t>(i)] == c.row_start[static_cast<std::size_t>(i) + 1]) return;
  const int rb = static_cast<int>(a.rb), kb = static_cast<int>(a.cb), cb = static_cast<int>(b.cb);
  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  Tile at[2] = {sbuf.alloc(g.load, kb, {rb}, "A block^T"), sbuf.alloc(g.load, kb, {rb}, "A block^T")};
  Tile bt[2] = {sbuf.alloc(g.load, kb, {cb}, "B block"), sbuf.alloc(g.load, kb, {cb}, "B block")};
  tile::PsumRing acc(psum, 2, rb, cb, "C acc");
  Tile out[2] = {sbuf.alloc(DType::f32, rb, {cb}, "C out"), sbuf.alloc(DType::f32, rb, {cb}, "C out")};
  std::int64_t parity = 0;
  for (std::int64_t ec = c.row_start[static_cast<std::size_t>(i)]; ec < c.row_start[static_cast<std::size_t>(i) + 1]; ++ec) {
    const std::int64_t j = c.col[static_cast<std::size_t>(ec)];
    tile::Accumulator group = acc.open(nc, rb, cb);
    const Tile& o = out[acc.slot()];
    for (std::int64_t ea = a.row_start[static_cast<std::size_t>(i)]; ea < a.row_start[static_cast<std::size_t>(i) + 1]; ++ea) {
      const std::int64_t k = a.col[static_cast<std::size_t>(ea)];
      const auto b0 = b.col.begin() + b.row_start[static_cast<std::size_t>(k)];
      const auto b1 = b.col.begin() + b.row_start[static_cast<std::size_t>(k) + 1];
      const auto hit = std::lower_bound(b0, b1, j);
      if (hit == b1 || *hit != j) continue;
      const int buf = static_cast<int>(parity++ % 2);
      nc.dma_copy(at[buf], a.stationary_view(a.block[static_cast<std::size_t>(ea)]).tile(0, kb, 0, rb));
      nc.dma_copy(bt[buf], b.block_view(b.block[static_cast<std::size_t>(hit - b.col.begin())]).tile(0, kb, 0, cb));
      group.matmul(at[buf], bt[buf]);
    }
    // An empty group (never for a symbolic pattern: every stored C block has a contribution) stores zeros.
    tile::evacuate(nc, o, group, g.alpha);
    nc.dma_copy(c.block_view(c.block[static_cast<std::size_t>(ec)]).tile(0, rb, 0, cb), o);
  }
}

detail::BlockPattern block_pattern(const BsrView& v, const Pattern& p) {
  detail::BlockPattern bp;
  bp.brows = v.brows;
  bp.bcols = v.bcols;
  bp.rb = v.row_block;
  bp.cb = v.col_block;
  bp.row_major = v.order == BlockOrder::row;
  bp.row_start = p.start;
  bp.col = p.col;
  bp.block.resize(p.col.size());
  for (std::size_t e = 0; e < bp.block.size(); ++e) bp.block[e] = static_cast<std::int64_t>(e);
  bp.values = static_cast<std::byte*>(v.values);
  bp.value_type = v.value_type;
  return bp;
}

}  // namespace

OwnedBsr spgemm_symbolic(const BsrView& A, const BsrView& B) {
  check_shapes(A, B);
  const Pattern pa = pattern_of(A), pb = pattern_of(B);
  OwnedBsr c;
  c.brows = A.brows;
  c.bcols = B.bcols;
  c.row_block = A.row_block;
  c.col_block = B.col_block;
  c.order = BlockOrder::row;
  c.value_type = DType::f32;
  c.offsets.push_back(0);
  generic_detail::structural_product(pa, pb, A.brows, B.bcols, c.offsets, c.columns);
  c.values.assign(c.columns.size() * static_cast<std::size_t>(c.row_block * c.col_block) * sizeof(float), std::byte{0});
  c.fill.bnnz = static_cast<std::int64_t>(c.columns.size());
  return c;
}

void spgemm_numeric(const Settings& s, float alpha, const BsrView& A, const BsrView& B, OwnedBsr& C, CallReport* report) {
  check_shapes(A, B);
  const HardwareSpec& hw = hardware_spec(s.target);
  if (A.row_block > hw.gemm_stationary_fmax || A.col_block > hw.pmax || B.col_block > hw.gemm_stationary_fmax)
    throw InvalidArgument("trnsparse spgemm: blocks larger than one tile are not supported", "rowBlockSize");
  if (C.brows != A.brows || C.bcols != B.bcols || C.row_block != A.row_block || C.col_block != B.col_block ||
      C.value_type != DType::f32)
    throw InvalidArgument("trnsparse spgemm: C is not the symbolic result of A B", "matC");
  SpgemmArgs g;
  g.a = block_pattern(A, pattern_of(A));
  g.b = block_pattern(B, pattern_of(B));
  const BsrView cv = C.view();
  validate(cv);
  g.c = block_pattern(cv, pattern_of(cv));
  g.alpha = alpha;
  g.load = A.value_type == DType::f32 ? DType::f32 : A.value_type;
  LaunchConfig lc = s.launch_config({1, static_cast<int>(std::max<std::int64_t>(1, A.brows)), 1});
  if (A.brows == 0) return;
  LaunchResult r = launch(lc, [&](NeuronCore& nc) { spgemm_kernel(nc, g); });
  if (report != nullptr) {
    report->matmuls = r.trace.per_engine[static_cast<int>(Engine::tensor)];
    report->blocks = C.fill.bnnz;
    finish_report(*report, std::move(r.trace), ReportSettings{s.target, lc.num_cores});
  }
}

}  // namespace trn::sparse
