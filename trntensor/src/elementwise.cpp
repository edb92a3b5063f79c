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

ElementwiseBinaryPlan::ElementwiseBinaryPlan(const ElementwiseBinarySpec& spec) : spec_(spec) {
  const char* where = "elementwise binary";
  spec_.a = normalized(spec_.a, "A");
  spec_.c = normalized(spec_.c, "C");
  spec_.d = normalized(spec_.d, "D");
  const TensorDesc* descs[3] = {&spec_.a, &spec_.c, &spec_.d};
  const std::vector<std::int32_t>* modes[3] = {&spec_.modes_a, &spec_.modes_c, &spec_.modes_d};
  const char* names[3] = {"modeA", "modeC", "modeD"};
  for (int t = 0; t < 3; ++t) {
    if (modes[t]->size() != descs[t]->extents.size())
      throw InvalidArgument(where, names[t], "mode count differs from the descriptor's");
    for (std::size_t i = 0; i < modes[t]->size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if ((*modes[t])[i] == (*modes[t])[j])
          throw InvalidArgument(where, names[t], "mode " + detail::mode_name((*modes[t])[i]) + " appears twice");
    if (descs[t]->dtype != DataType::f32)
      throw NotSupportedError(where, std::string("data type ") + data_type_name(descs[t]->dtype) +
                                         " (element-wise operations take 32F data)", "trntensor");
  }
  if (spec_.compute != ComputeType::f32)
    throw NotSupportedError(where, std::string("compute descriptor ") + compute_type_name(spec_.compute) + " (32F only)", "trntensor");
  auto extent_in_d = [&](std::int32_t label) -> std::int64_t {
    for (std::size_t i = 0; i < spec_.modes_d.size(); ++i)
      if (spec_.modes_d[i] == label) return spec_.d.extents[i];
    return -1;
  };
  for (int t = 0; t < 2; ++t)
    for (std::size_t i = 0; i < modes[t]->size(); ++i) {
      const std::int64_t e = extent_in_d((*modes[t])[i]);
      if (e < 0) throw InvalidArgument(where, names[t], "mode " + detail::mode_name((*modes[t])[i]) + " is not a mode of D");
      if (e != descs[t]->extents[i])
        throw InvalidArgument(where, names[t], "extent of mode " + detail::mode_name((*modes[t])[i]) + " differs from D's");
    }
  if (spec_.modes_c.size() != spec_.modes_d.size())
    throw InvalidArgument(where, "modeC", "C must carry every mode of D");
  elements_ = 1;
  for (std::size_t i = 0; i < spec_.d.extents.size(); ++i) {
    if (spec_.d.extents[i] > 1 && spec_.d.strides[i] == 0)
      throw InvalidArgument(where, "descD", "mode " + detail::mode_name(spec_.modes_d[i]) + " of D has stride 0");
    elements_ = cshim::checked_mul(elements_, spec_.d.extents[i]);
    if (elements_ < 0) throw InvalidArgument(where, "descD", "element count overflows int64");
  }
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
  if (A == nullptr || C == nullptr || D == nullptr) throw InvalidArgument("elementwise binary", "pointers", "null operand");
  const std::int64_t n = elements_;
  std::vector<float> ap(static_cast<std::size_t>(n)), cp(static_cast<std::size_t>(n)), dp(static_cast<std::size_t>(n));
  // Permute A (broadcast along D's modes it lacks) and C into D's mode order, packed.
  std::vector<detail::CopyDim> da, dc, dd;
  std::int64_t acc = 1;
  for (std::size_t i = 0; i < spec_.modes_d.size(); ++i) {
    const std::int32_t l = spec_.modes_d[i];
    std::int64_t sa = 0, sc = 0;
    for (std::size_t j = 0; j < spec_.modes_a.size(); ++j)
      if (spec_.modes_a[j] == l) sa = spec_.a.strides[j];
    for (std::size_t j = 0; j < spec_.modes_c.size(); ++j)
      if (spec_.modes_c[j] == l) sc = spec_.c.strides[j];
    const std::int64_t e = spec_.d.extents[i];
    da.push_back({e, sa, acc});
    dc.push_back({e, sc, acc});
    dd.push_back({e, acc, spec_.d.strides[i]});
    acc *= e;
  }
  Trace trace;
  detail::dma_copy_strided(s, DataType::f32, A, ap.data(), da, &trace);
  detail::dma_copy_strided(s, DataType::f32, C, cp.data(), dc, &trace);
  // Free elements per VectorE instruction: a tiling choice (2 KiB per partition per operand), not a
  // hardware limit.
  constexpr std::int64_t kFree = 512;
  const AluOp op = spec_.op == ElementwiseOp::add ? AluOp::add
                   : spec_.op == ElementwiseOp::mul ? AluOp::multiply
                   : spec_.op == ElementwiseOp::max ? AluOp::maximum
                                                    : AluOp::minimum;
  const LaunchResult r = tile::launch_rows(s.launch_config(), n, kFree, [&](NeuronCore& nc, const tile::RowBlock& rb) {
    AllocScope sb(nc.sbuf());
    const Tile ta = sb.alloc(DType::f32, rb.partitions, {rb.width}, "alpha A");
    const Tile tc = sb.alloc(DType::f32, rb.partitions, {rb.width}, "gamma C");
    const Tile td = sb.alloc(DType::f32, rb.partitions, {rb.width}, "D");
    nc.dma_copy(ta, rb.of(ap.data(), DType::f32));
    nc.dma_copy(tc, rb.of(cp.data(), DType::f32));
    nc.tensor_scalar(ta, ta, AluOp::multiply, alpha);
    nc.tensor_scalar(tc, tc, AluOp::multiply, gamma);
    nc.tensor_tensor(td, ta, tc, op);
    nc.dma_copy(rb.of(dp.data(), DType::f32), td);
  });
  trace.append(r.trace);
  detail::dma_copy_strided(s, DataType::f32, dp.data(), D, dd, &trace);
  if (report != nullptr) {
    report->trace = std::move(trace);
    finish_report(*report, ReportSettings{s.target});
  }
}

}  // namespace trn::tensor
