// Shared helpers of the trnsparse tests: random BSR/CSR matrices with every index variant; their
// dense (column-major) expansion, the dense reference product and the elementwise fp32 error bound
// come from tests/reference/sparse_reference.hpp (shared with `trnsci validate` and the bench).
#pragma once
#include <cblas.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "sparse_reference.hpp"
#include "trn/core/dtype.hpp"
#include "trn/sparse/sparse.hpp"

namespace trnsparse_test {

using trn::DType;
using trn::sparse::BlockOrder;
using trn::sparse::IndexBase;
using trn::sparse::IndexType;
using trn::sparse::Layout;
using trn::sparse::Op;

// Values stored as fp32 or as 16-bit codes (bf16 / f16).
struct Values {
  DType type = DType::f32;
  std::vector<float> f32;
  std::vector<std::uint16_t> h16;
  void resize(std::size_t n) { type == DType::f32 ? f32.resize(n) : h16.resize(n); }
  void set(std::size_t i, float x) {
    if (type == DType::f32) f32[i] = x;
    else h16[i] = type == DType::bf16 ? trn::f32_to_bf16_rne(x) : trn::f32_to_f16_rne(x);
  }
  float get(std::size_t i) const {
    if (type == DType::f32) return f32[i];
    return type == DType::bf16 ? trn::bf16_to_f32(h16[i]) : trn::f16_to_f32(h16[i]);
  }
  void* data() { return type == DType::f32 ? static_cast<void*>(f32.data()) : static_cast<void*>(h16.data()); }
  std::size_t size() const { return type == DType::f32 ? f32.size() : h16.size(); }
};

// Draws a value: uniform in [-1, 1), or an integer in [-int_max, int_max] when int_max > 0.
inline float draw(std::mt19937_64& rng, int int_max) {
  if (int_max > 0) return static_cast<float>(std::uniform_int_distribution<int>(-int_max, int_max)(rng));
  return std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
}

struct TestBsr {
  std::int64_t brows = 0, bcols = 0, rb = 1, cb = 1;
  BlockOrder order = BlockOrder::row;
  IndexBase base = IndexBase::zero;
  IndexType index = IndexType::i32;
  std::vector<std::int64_t> offsets, columns;  // 0-based
  std::vector<std::int32_t> off32, col32;      // stored arrays (base applied)
  std::vector<std::int64_t> off64, col64;
  Values values;

  std::int64_t rows() const { return brows * rb; }
  std::int64_t cols() const { return bcols * cb; }
  std::int64_t bnnz() const { return static_cast<std::int64_t>(columns.size()); }
  void store_indices() {
    const std::int64_t b = base == IndexBase::one ? 1 : 0;
    off32.clear(); col32.clear(); off64.clear(); col64.clear();
    for (auto o : offsets) { off32.push_back(static_cast<std::int32_t>(o + b)); off64.push_back(o + b); }
    for (auto c : columns) { col32.push_back(static_cast<std::int32_t>(c + b)); col64.push_back(c + b); }
  }
  trn::sparse::BsrView view() {
    trn::sparse::BsrView v;
    v.brows = brows; v.bcols = bcols; v.bnnz = bnnz(); v.row_block = rb; v.col_block = cb;
    v.offsets = index == IndexType::i32 ? static_cast<const void*>(off32.data()) : off64.data();
    v.columns = index == IndexType::i32 ? static_cast<const void*>(col32.data()) : col64.data();
    v.values = values.data();
    v.offsets_type = v.columns_type = index;
    v.base = base;
    v.value_type = values.type;
    v.order = order;
    return v;
  }
  // Column-major rows() x cols() expansion.
  std::vector<float> dense() const {
    return sparse_ref::bsr_to_dense(brows, bcols, rb, cb, offsets, columns, order == BlockOrder::row,
                                    [&](std::int64_t e, std::int64_t within) {
                                      return values.get(static_cast<std::size_t>(e * rb * cb + within));
                                    });
  }
};

inline TestBsr random_bsr(std::int64_t brows, std::int64_t bcols, std::int64_t rb, std::int64_t cb, double density,
                          std::uint64_t seed, BlockOrder order = BlockOrder::row, IndexBase base = IndexBase::zero,
                          IndexType index = IndexType::i32, DType vt = DType::f32, int int_max = 0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  TestBsr a;
  a.brows = brows; a.bcols = bcols; a.rb = rb; a.cb = cb; a.order = order; a.base = base; a.index = index;
  a.values.type = vt;
  a.offsets.push_back(0);
  for (std::int64_t R = 0; R < brows; ++R) {
    for (std::int64_t C = 0; C < bcols; ++C)
      if (u(rng) < density) a.columns.push_back(C);
    a.offsets.push_back(static_cast<std::int64_t>(a.columns.size()));
  }
  a.values.resize(static_cast<std::size_t>(a.bnnz() * rb * cb));
  for (std::size_t i = 0; i < a.values.size(); ++i) a.values.set(i, draw(rng, int_max));
  a.store_indices();
  return a;
}

// A dense operand in a chosen layout, with a column-major copy for the reference.
struct TestDense {
  std::int64_t rows = 0, cols = 0, ld = 0;
  Layout layout = Layout::col_major;
  Values values;
  std::vector<float> colmajor;  // rows x cols, ld = rows
  trn::sparse::DenseRef ref() {
    return {values.data(), values.type, rows, cols, ld, layout};
  }
  trn::sparse::MutableDenseRef mref() {
    return {values.data(), values.type, rows, cols, ld, layout};
  }
  std::size_t at(std::int64_t i, std::int64_t j) const {
    return static_cast<std::size_t>(layout == Layout::col_major ? i + j * ld : i * ld + j);
  }
  float get(std::int64_t i, std::int64_t j) const { return values.get(at(i, j)); }
  void refresh_colmajor() {
    colmajor.assign(static_cast<std::size_t>(rows * cols), 0.0f);
    for (std::int64_t j = 0; j < cols; ++j)
      for (std::int64_t i = 0; i < rows; ++i) colmajor[static_cast<std::size_t>(i + j * rows)] = get(i, j);
  }
};

inline TestDense random_dense(std::int64_t rows, std::int64_t cols, Layout layout, std::uint64_t seed,
                              DType vt = DType::f32, int int_max = 0, std::int64_t ld_pad = 3) {
  std::mt19937_64 rng(seed);
  TestDense d;
  d.rows = rows; d.cols = cols; d.layout = layout;
  d.ld = (layout == Layout::col_major ? rows : cols) + ld_pad;
  d.values.type = vt;
  const std::int64_t outer = layout == Layout::col_major ? cols : rows;
  d.values.resize(static_cast<std::size_t>(std::max<std::int64_t>(1, d.ld * outer)));
  for (std::size_t i = 0; i < d.values.size(); ++i) d.values.set(i, draw(rng, int_max));
  d.refresh_colmajor();
  return d;
}

inline CBLAS_TRANSPOSE cblas_op(Op o) { return o == Op::N ? CblasNoTrans : CblasTrans; }

// The dense reference and the documented bound: tests/reference/sparse_reference.hpp.
using sparse_ref::bound;
using sparse_ref::Reference;
inline Reference reference_gemm(Op opA, Op opB, std::int64_t M, std::int64_t n, std::int64_t K, float alpha,
                                const std::vector<float>& A, std::int64_t lda, const std::vector<float>& B,
                                std::int64_t ldb, float beta, const std::vector<float>& C0) {
  return sparse_ref::reference_gemm(cblas_op(opA), cblas_op(opB), M, n, K, alpha, A, lda, B, ldb, beta, C0);
}

}  // namespace trnsparse_test
