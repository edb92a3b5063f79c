// Internals of trntensor shared by its source files.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "trn/core/scratch.hpp"
#include "trn/tensor/tensor.hpp"

namespace trn::tensor::detail {

// One dimension of a strided copy (elements).
struct CopyDim {
  std::int64_t extent;
  std::int64_t src_stride;
  std::int64_t dst_stride;
};
// dst[sum i_d dst_stride_d] = src[sum i_d src_stride_d] over every index tuple (packing and
// unpacking of TTGT operands, C -> D copies; no arithmetic) as a DMA kernel on the emulated NeuronCore (HBM -> HBM dma_copy instructions, one
// program per chunk of hw.pmax rows and up to 4 free dimensions): data movement with a modeled
// cost. The trace of the launch is appended to *trace when given.
void dma_copy_strided(const blas::Settings& s, DataType t, const void* src, void* dst, std::vector<CopyDim> dims,
                      Trace* trace);

// The workspace a plan's execute runs in: the caller's, or (none given, need > 0) an owned buffer of
// need + 64 bytes, room to align the plan's buffers to 64 bytes. Throws InvalidArgument naming
// `who` when the caller's is smaller than need.
struct Workspace {
  void* data = nullptr;
  std::uint64_t bytes = 0;
  // Traced (the kernels' HBM scratch): a scratch-stack block, so the modeled time does not depend on
  // malloc's history (docs/cost-model.md section 2, "Scratch addresses").
  ScratchVector<std::byte> owned;
};
Workspace plan_workspace(const char* who, void* given, std::uint64_t given_size, std::uint64_t need);

// "'a'" for a letter label, the number otherwise.
std::string mode_name(std::int32_t label);

}  // namespace trn::tensor::detail
