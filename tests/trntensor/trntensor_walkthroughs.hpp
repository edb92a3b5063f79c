// The project's own cuTENSOR-2.x-shaped programs on trntensor.h (C++17, host memory): one per API
// sequence that NVIDIA's cuTENSOR samples exercise — contraction, trinary contraction, plan cache,
// an einsum front end over contraction / reduction descriptors, element-wise binary, permutation,
// permutation with padding, element-wise trinary, reduction, block-sparse contraction — on modes,
// extents and data of our own (NVIDIA's sample code is not in the tree: docs/porting.md). Each
// program makes the calls a user makes (create, describe, operation descriptor, plan preference,
// workspace estimate, plan, execute, destroy) and returns what it passed and what it got back;
// test_trntensor_samples.cpp checks the outputs against independent FP64 loops.
//
// Limits: every tensor is packed (the padded permutation's output packed over its padded extents);
// inputs are deterministic values in [-1, 1) representable in fp32.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "trntensor.h"

namespace trntensor_walkthrough {

// A dense tensor as the program passed or received it. Descriptor tensors: packed column-major
// (modes[0] fastest), extents[i] the extent of modes[i]. Einsum views: NumPy row-major (last axis
// fastest), modes the subscript labels in axis order.
struct Tensor {
  std::string modes;
  std::vector<std::int64_t> extents;
  std::vector<double> data;
};

// A block-sparse tensor: sections[i] the section extents of mode i, coords the stored blocks'
// section coordinates, blocks[b] block b's data packed column-major over its sections.
struct BlockTensor {
  std::string modes;
  std::vector<std::vector<std::int64_t>> sections;
  std::vector<std::vector<std::int32_t>> coords;
  std::vector<std::vector<double>> blocks;
};

struct Run {
  trntensorStatus_t status = TRNTENSOR_STATUS_SUCCESS;  // of the first call that failed
  std::string failed_call;                              // empty: every call returned SUCCESS
  std::map<std::string, Tensor> tensors;                // inputs as passed ("C0": C before), outputs
  std::map<std::string, BlockTensor> block_tensors;
  std::map<std::string, double> scalars;                // alpha, beta, ...; what attributes returned
};

// C[a,i,b] = alpha A[i,c,a,d] B[d,b,c] + beta C[a,i,b] (C and D the same buffer), R_32F, 32F.
Run contraction();
// E[x,y,z] = alpha A[x,p,q] B[p,y,r] C[q,r,z] + beta D[x,y,z] (E aliases D), R_32F, 32F.
Run contraction_trinary();
// D[b,a,c] = A[a,k,c] B[k,b] planned through the handle's plan cache: resize, read `file`
// ("read_status", "lines_read"), plan with CACHE_MODE PEDANTIC and incremental autotuning, run
// four times, write the cache back to `file`.
Run contraction_plan_cache(const std::string& file);
// output = einsum(subscripts, inputs) by NumPy rules (explicit "->" or implicit output) through one
// contraction (two inputs) or reduction (one input) descriptor; inputs of the given row-major
// shapes, R_32F with 32F or R_64F with 64F.
Run einsum(const std::string& subscripts, const std::vector<std::vector<std::int64_t>>& shapes,
           trntensorDataType_t type);
// D[p,q,r] = opAC(alpha A[q,r,p], gamma C[p,q,r]), R_32F.
Run elementwise_binary(trntensorOperator_t opAC);
// B[w,z,x,y] = alpha A[x,y,z,w], R_32F.
Run elementwise_permute();
// B[z,x,y] = alpha A[x,y,z] with PADDING_LEFT {1,0,2}, PADDING_RIGHT {0,2,1}, PADDING_VALUE -1.5
// (B packed over its padded extents; "pad_ok" = 1 when GetAttribute returned what was set).
Run elementwise_permute_padding();
// D[p,q,r] = opABC(opAB(alpha A[r,p,q], beta B[q,p]), gamma C[p,q,r]) (B broadcast along r), R_32F.
Run elementwise_trinary(trntensorOperator_t opAB, trntensorOperator_t opABC);
// D[y,w] = alpha sum_{x,z} A[x,y,z,w] + beta C[y,w] (D aliases C), OP_ADD, R_32F.
Run reduction();
// D[p,s] = alpha sum_{r,t} A[p,r,t] B[t,r,s] + beta C[p,s] over stored blocks (C is D), R_64F, 64F.
Run blocksparse();

}  // namespace trntensor_walkthrough
