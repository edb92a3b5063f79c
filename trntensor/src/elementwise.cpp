// Element-wise binary operation D = op(alpha A, gamma C) over labelled modes: A and C are permuted
// into D's mode order by the DMA kernel (dma_copy_strided), combined on VectorE, and the result is
// permuted back into D's layout by the DMA kernel. docs/trntensor.md, "Element-wise binary".
#include <algorithm>
#include <vector>

#include "tensor_detail.hpp"
#include "trn/core/c_shim.hpp"
#include "trn/tensor/tensor.hpp"
#include "trn/tile/launch_rows.hpp"

namespace trn::tensor {

namespace {

// One operand of an element-wise operation: its layout, mode labels and parameter name.
struct Operand {
  const TensorDesc* desc;
  const std::vector<std::int32_t>* modes;
  const char* name;
};

// Validates the operands of an element-wise operation (the last is D, the one before it C, which
// carries every mode of D; the others carry subsets of D's modes) and returns D's element count.
std::int64_t validate_elementwise(const char* where, const std::vector<Operand>& ops, ComputeType compute) {
  const Operand& d = ops.back();
  for (const Operand& o : ops) {
    if (o.modes->size() != o.desc->extents.size())
      throw InvalidArgument(where, o.name, "mode count differs from the descriptor's");
    for (std::size_t i = 0; i < o.modes->size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if ((*o.modes)[i] == (*o.modes)[j])
          throw InvalidArgument(where, o.name, "mode " + detail::mode_name((*o.modes)[i]) + " appears twice");
    if (o.desc->dtype != DataType::f32)
      throw NotSupportedError(where, std::string("data type ") + data_type_name(o.desc->dtype) +
                                         " (element-wise operations take 32F data)", "trntensor");
  }
  if (compute != ComputeType::f32)
    throw NotSupportedError(where, std::string("compute descriptor ") + compute_type_name(compute) + " (32F only)", "trntensor");
  auto extent_in_d = [&](std::int32_t label) -> std::int64_t {
    for (std::size_t i = 0; i < d.modes->size(); ++i)
      if ((*d.modes)[i] == label) return d.desc->extents[i];
    return -1;
  };
  for (std::size_t t = 0; t + 1 < ops.size(); ++t)
    for (std::size_t i = 0; i < ops[t].modes->size(); ++i) {
      const std::int32_t l = (*ops[t].modes)[i];
      const std::int64_t e = extent_in_d(l);
      if (e < 0) throw InvalidArgument(where, ops[t].name, "mode " + detail::mode_name(l) + " is not a mode of D");
      if (e != ops[t].desc->extents[i])
        throw InvalidArgument(where, ops[t].name, "extent of mode " + detail::mode_name(l) + " differs from D's");
    }
  if (ops[ops.size() - 2].modes->size() != d.modes->size())
    throw InvalidArgument(where, ops[ops.size() - 2].name, "C must carry every mode of D");
  std::int64_t elements = 1;
  for (std::size_t i = 0; i < d.desc->extents.size(); ++i) {
    if (d.desc->extents[i] > 1 && d.desc->strides[i] == 0)
      throw InvalidArgument(where, "descD", "mode " + detail::mode_name((*d.modes)[i]) + " of D has stride 0");
    elements = cshim::checked_mul(elements, d.desc->extents[i]);
    if (elements < 0) throw InvalidArgument(where, "descD", "element count overflows int64");
  }
  return elements;
}

// The DMA dimensions that permute operand `o` (broadcast along D's modes it lacks) into D's mode
// order, packed.
std::vector<detail::CopyDim> into_d_order(const TensorDesc& t, const std::vector<std::int32_t>& modes,
                                          const TensorDesc& d, const std::vector<std::int32_t>& modes_d) {
  std::vector<detail::CopyDim> dims;
  std::int64_t acc = 1;
  for (std::size_t i = 0; i < modes_d.size(); ++i) {
    std::int64_t st = 0;
    for (std::size_t j = 0; j < modes.size(); ++j)
      if (modes[j] == modes_d[i]) st = t.strides[j];
    dims.push_back({d.extents[i], st, acc});
    acc *= d.extents[i];
  }
  return dims;
}
// The DMA dimensions that write a packed array in D's mode order back into D's layout.
std::vector<detail::CopyDim> out_of_d_order(const TensorDesc& d) {
  std::vector<detail::CopyDim> dims;
  std::int64_t acc = 1;
  for (std::size_t i = 0; i < d.extents.size(); ++i) {
    dims.push_back({d.extents[i], acc, d.strides[i]});
    acc *= d.extents[i];
  }
  return dims;
}

// Operand `src` permuted into D's mode order, packed (the DMA kernel; its trace appended). The packed
// operands and results are traced: ScratchVectors (docs/cost-model.md section 2, "Scratch addresses").
ScratchVector<float> pack_in_d_order(const blas::Settings& s, const void* src, const TensorDesc& t,
                                   const std::vector<std::int32_t>& modes, const TensorDesc& d,
                                   const std::vector<std::int32_t>& modes_d, Trace* trace) {
  std::int64_t n = 1;
  for (auto e : d.extents) n *= e;
  ScratchVector<float> packed(static_cast<std::size_t>(n));
  detail::dma_copy_strided(s, DataType::f32, src, packed.data(), into_d_order(t, modes, d, modes_d), trace);
  return packed;
}
// The VectorE launch's trace, the packed result written back into D's layout (DMA kernel), the report.
void write_back(const blas::Settings& s, const ScratchVector<float>& dp, void* D, const TensorDesc& d, Trace trace,
                const LaunchResult& r, blas::CallReport* report) {
  trace.append(r.trace);
  detail::dma_copy_strided(s, DataType::f32, dp.data(), D, out_of_d_order(d), &trace);
  if (report != nullptr) {
    report->trace = std::move(trace);
    finish_report(*report, ReportSettings{s.target});
  }
}

AluOp alu_of(ElementwiseOp op) {
  return op == ElementwiseOp::add   ? AluOp::add
         : op == ElementwiseOp::mul ? AluOp::multiply
         : op == ElementwiseOp::max ? AluOp::maximum
                                    : AluOp::minimum;
}

// Applies op to the loaded operand tile (nothing at all for IDENTITY / CONJ on real data, so those
// kernels stay as they were); scratch: three tiles of t's shape, allocated only when needed.
void unary_in_place(NeuronCore& nc, AllocScope& sb, UnaryOp op, const Tile& t) {
  if (op == UnaryOp::identity || op == UnaryOp::conj) return;
  const Tile s1 = sb.alloc(DType::f32, t.partitions, {t.free_size()}, "unary scratch");
  const Tile s2 = sb.alloc(DType::f32, t.partitions, {t.free_size()}, "unary scratch");
  const Tile s3 = sb.alloc(DType::f32, t.partitions, {t.free_size()}, "unary scratch");
  apply_unary(nc, op, t, s1, s2, s3);
}

// Free elements per VectorE instruction: a tiling choice (2 KiB per partition per operand), not a
// hardware limit.
constexpr std::int64_t kFree = 512;

}  // namespace

ElementwiseBinaryPlan::ElementwiseBinaryPlan(const ElementwiseBinarySpec& spec) : spec_(spec) {
  spec_.a = normalized(spec_.a, "A");
  spec_.c = normalized(spec_.c, "C");
  spec_.d = normalized(spec_.d, "D");
  elements_ = validate_elementwise("elementwise binary",
                                   {{&spec_.a, &spec_.modes_a, "modeA"},
                                    {&spec_.c, &spec_.modes_c, "modeC"},
                                    {&spec_.d, &spec_.modes_d, "modeD"}},
                                   spec_.compute);
}

ElementwiseTrinaryPlan::ElementwiseTrinaryPlan(const ElementwiseTrinarySpec& spec) : spec_(spec) {
  spec_.a = normalized(spec_.a, "A");
  spec_.b = normalized(spec_.b, "B");
  spec_.c = normalized(spec_.c, "C");
  spec_.d = normalized(spec_.d, "D");
  elements_ = validate_elementwise("elementwise trinary",
                                   {{&spec_.a, &spec_.modes_a, "modeA"},
                                    {&spec_.b, &spec_.modes_b, "modeB"},
                                    {&spec_.c, &spec_.modes_c, "modeC"},
                                    {&spec_.d, &spec_.modes_d, "modeD"}},
                                   spec_.compute);
}

// Kernel elementwise_binary_tiles (one program per hw.pmax x 512 block of the packed arrays):
//   a, c, d  HBM fp32 [n] packed in D's mode order
// DMA loads a and c as [rows, 512] tiles (a [1, n mod 512] tail program), VectorE computes
// alpha * a and gamma * c (fp32, RNE) and op, DMA stores d. Accuracy: each output is
// op(fl(alpha a), fl(gamma c)) rounded once (exact for max/min).
void ElementwiseBinaryPlan::execute(const blas::Settings& s, float alpha, const void* A, float gamma, const void* C,
                                    void* D, blas::CallReport* report) const {
  if (report != nullptr) *report = blas::CallReport{};
  if (elements_ == 0) return;
  const bool has_c = !spec_.c_absent;
  if (A == nullptr || (has_c && C == nullptr) || D == nullptr)
    throw InvalidArgument("elementwise binary", "pointers", "null operand");
  const std::int64_t n = elements_;
  Trace trace;
  const ScratchVector<float> ap = pack_in_d_order(s, A, spec_.a, spec_.modes_a, spec_.d, spec_.modes_d, &trace);
  const ScratchVector<float> cp =
      has_c ? pack_in_d_order(s, C, spec_.c, spec_.modes_c, spec_.d, spec_.modes_d, &trace) : ScratchVector<float>{};
  ScratchVector<float> dp(static_cast<std::size_t>(n));
  const AluOp op = alu_of(spec_.op);
  const LaunchResult r = tile::launch_rows(s.launch_config(), n, kFree, [&](NeuronCore& nc, const tile::RowBlock& rb) {
    AllocScope sb(nc.sbuf());
    const Tile ta = sb.alloc(DType::f32, rb.partitions, {rb.width}, "alpha A");
    if (!has_c) {  // a permutation with a unary operator: D = alpha op_a(A)
      nc.dma_copy(ta, rb.of(ap.data(), DType::f32));
      unary_in_place(nc, sb, spec_.op_a, ta);
      nc.tensor_scalar(ta, ta, AluOp::multiply, alpha);
      nc.dma_copy(rb.of(dp.data(), DType::f32), ta);
      return;
    }
    const Tile tc = sb.alloc(DType::f32, rb.partitions, {rb.width}, "gamma C");
    const Tile td = sb.alloc(DType::f32, rb.partitions, {rb.width}, "D");
    nc.dma_copy(ta, rb.of(ap.data(), DType::f32));
    nc.dma_copy(tc, rb.of(cp.data(), DType::f32));
    unary_in_place(nc, sb, spec_.op_a, ta);
    unary_in_place(nc, sb, spec_.op_c, tc);
    nc.tensor_scalar(ta, ta, AluOp::multiply, alpha);
    nc.tensor_scalar(tc, tc, AluOp::multiply, gamma);
    nc.tensor_tensor(td, ta, tc, op);
    nc.dma_copy(rb.of(dp.data(), DType::f32), td);
  });
  write_back(s, dp, D, spec_.d, std::move(trace), r, report);
}

// Kernel elementwise_trinary_tiles: as elementwise_binary_tiles with a third operand: VectorE
// computes alpha * a, beta * b, op_ab, gamma * c and op_abc in fp32 (RNE). Accuracy: each output is
// op_abc(fl(op_ab(fl(alpha a), fl(beta b))), fl(gamma c)), every step rounded once (exact for max/min).
void ElementwiseTrinaryPlan::execute(const blas::Settings& s, float alpha, const void* A, float beta, const void* B,
                                     float gamma, const void* C, void* D, blas::CallReport* report) const {
  if (report != nullptr) *report = blas::CallReport{};
  if (elements_ == 0) return;
  if (A == nullptr || B == nullptr || C == nullptr || D == nullptr)
    throw InvalidArgument("elementwise trinary", "pointers", "null operand");
  Trace trace;
  const ScratchVector<float> ap = pack_in_d_order(s, A, spec_.a, spec_.modes_a, spec_.d, spec_.modes_d, &trace);
  const ScratchVector<float> bp = pack_in_d_order(s, B, spec_.b, spec_.modes_b, spec_.d, spec_.modes_d, &trace);
  const ScratchVector<float> cp = pack_in_d_order(s, C, spec_.c, spec_.modes_c, spec_.d, spec_.modes_d, &trace);
  ScratchVector<float> dp(static_cast<std::size_t>(elements_));
  const AluOp op_ab = alu_of(spec_.op_ab), op_abc = alu_of(spec_.op_abc);
  const LaunchResult r = tile::launch_rows(s.launch_config(), elements_, kFree, [&](NeuronCore& nc, const tile::RowBlock& rb) {
    AllocScope sb(nc.sbuf());
    const Tile ta = sb.alloc(DType::f32, rb.partitions, {rb.width}, "alpha A");
    const Tile tb = sb.alloc(DType::f32, rb.partitions, {rb.width}, "beta B");
    const Tile tc = sb.alloc(DType::f32, rb.partitions, {rb.width}, "gamma C");
    nc.dma_copy(ta, rb.of(ap.data(), DType::f32));
    nc.dma_copy(tb, rb.of(bp.data(), DType::f32));
    nc.dma_copy(tc, rb.of(cp.data(), DType::f32));
    unary_in_place(nc, sb, spec_.op_a, ta);
    unary_in_place(nc, sb, spec_.op_b, tb);
    unary_in_place(nc, sb, spec_.op_c, tc);
    nc.tensor_scalar(ta, ta, AluOp::multiply, alpha);
    nc.tensor_scalar(tb, tb, AluOp::multiply, beta);
    nc.tensor_tensor(ta, ta, tb, op_ab);
    nc.tensor_scalar(tc, tc, AluOp::multiply, gamma);
    nc.tensor_tensor(ta, ta, tc, op_abc);
    nc.dma_copy(rb.of(dp.data(), DType::f32), ta);
  });
  write_back(s, dp, D, spec_.d, std::move(trace), r, report);
}

}  // namespace trn::tensor
