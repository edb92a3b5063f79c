// Padded permutation (cuTENSOR's OPERATION_DESCRIPTOR_PADDING_LEFT/RIGHT/VALUE; docs/trntensor.md
// "Padding"): B's mode k has l_k values of PADDING_VALUE before and r_k after its e_k computed ones,
// so the output tensor in memory has extents e_k + l_k + r_k. Its strides are the descriptor's when
// it was created with strides (they address the padded tensor), else packed over the padded
// extents (first mode fastest), as NVIDIA's elementwise_permute_padding sample allocates it.
// Two DMA kernels, no arithmetic of their own: the value broadcast over the whole padded tensor
// (a stride-0 source), then the permutation into the interior (the contraction-with-a-scalar-1 plan
// of trntensorPermute, its D the interior view). The interior is written twice (bytes, not values).
#include <complex>
#include <cstdint>
#include <vector>

#include "tensor_detail.hpp"
#include "trn/tensor/tensor.hpp"

namespace trn::tensor {

TensorDesc padded_layout(const TensorDesc& d, const std::vector<std::int32_t>& left, const std::vector<std::int32_t>& right) {
  TensorDesc p = d;
  for (std::size_t k = 0; k < p.extents.size(); ++k) p.extents[k] += left[k] + right[k];
  if (p.strides.empty()) p.strides = packed_strides(p.extents);
  return p;
}

ContractionSpec padded_interior(ContractionSpec spec, const std::vector<std::int32_t>& left,
                                const std::vector<std::int32_t>& right) {
  spec.d.strides = padded_layout(spec.d, left, right).strides;
  spec.c = spec.d;
  return spec;
}

void permute_padded(const blas::Settings& s, const ContractionPlan& interior, const std::vector<std::int32_t>& left,
                    const std::vector<std::int32_t>& right, const void* value, std::complex<double> alpha,
                    const void* one, const void* A, void* B, blas::CallReport* report) {
  const TensorDesc& d = interior.spec().d;
  TensorDesc full = d;
  for (std::size_t k = 0; k < full.extents.size(); ++k) full.extents[k] += left[k] + right[k];
  std::vector<detail::CopyDim> dims;
  std::int64_t offset = 0;
  for (std::size_t k = 0; k < full.extents.size(); ++k) {
    dims.push_back({full.extents[k], 0, d.strides[k]});
    offset += left[k] * d.strides[k];
  }
  Trace trace;
  detail::dma_copy_strided(s, d.dtype, value, B, dims, &trace);
  void* inner = static_cast<char*>(B) + offset * static_cast<std::int64_t>(data_type_size(d.dtype));
  blas::CallReport r;
  interior.execute(s, alpha, A, one, 0.0, nullptr, inner, nullptr, 0, &r);
  if (report != nullptr) {
    trace.append(r.trace);
    *report = blas::CallReport{};
    report->trace = std::move(trace);
    finish_report(*report, ReportSettings{s.target});
  }
}

}  // namespace trn::tensor
