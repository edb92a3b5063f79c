// cuBLAS's Uint8gemmBias (trn/blas/level3.hpp "gemm_u8_bias"): an 8-bit quantized GEMM with offsets.
// NVIDIA declares it in cublas_api.h without documenting it; its argument list is gemmlowp's legacy
// EightBitIntGemm (Google, Apache-2.0: transpose flags, a/b/c offsets, c_mult_int, c_shift), whose
// reference defines the result this implements:
//   C(i, j) = clamp_[0, 255](((sum_l (op(A)(i, l) + A_bias) (op(B)(l, j) + B_bias) + C_bias) C_mult
//             + r) >> C_shift),  r = C_shift > 0 ? 2^(C_shift - 1) : 0 (round half up), >> arithmetic,
// with C stored transposed for transc T/C. Exact integer arithmetic (64-bit: the same as the 32-bit
// reference wherever that does not overflow).
//
// On the engines through the int8 GemmEx machinery (gemm_i8: exact TensorE products of the bf16
// images, exact PSUM sums): a uint8 value is int8 + 128, so with a = A_bias + 128, b = B_bias + 128
// and A8 = A - 128, B8 = B - 128 (int8),
//   sum (A + A_bias)(B + B_bias) = A8 B8 + b rowsum(A8) + a colsum(B8) + k a b,
// the three products A8 B8, A8 1 and 1^T B8 are gemm_i8 calls; the offset (a bit flip of each byte)
// and the integer epilogue are recorded host steps.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "level3_internal.hpp"
#include "trn/core/scratch.hpp"
#include "trn/blas/level3.hpp"

namespace trn::blas {

namespace {

// op(X) stored as rows x cols (leading dimension ld) -> a dense int8 copy X - 128 (ld rows). The
// products read it: on the scratch stack (docs/cost-model.md section 2, "Scratch addresses").
ScratchVector<std::int8_t> offset_copy(const std::uint8_t* X, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  ScratchVector<std::int8_t> out(static_cast<std::size_t>(rows * cols));
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i)
      out[static_cast<std::size_t>(i + j * rows)] = static_cast<std::int8_t>(static_cast<int>(X[i + j * ld]) - 128);
  return out;
}

}  // namespace

void gemm_u8_bias(const Settings& s, Op ta, Op tb, bool tc, std::int64_t m, std::int64_t n, std::int64_t k,
                  const std::uint8_t* A, std::int32_t a_bias, std::int64_t lda, const std::uint8_t* B, std::int32_t b_bias,
                  std::int64_t ldb, std::uint8_t* C, std::int32_t c_bias, std::int64_t ldc, std::int32_t c_mult,
                  std::int32_t c_shift, CallReport* report) {
  detail::require(m >= 0 && n >= 0 && k >= 0 && c_shift >= 0 && c_shift <= 31, "m, n, k, C_shift");
  detail::Recorder rec(s, report);
  if (m == 0 || n == 0) return;
  const std::int64_t ra = ta == Op::N ? m : k, ca = ta == Op::N ? k : m;
  const std::int64_t rb = tb == Op::N ? k : n, cb = tb == Op::N ? n : k;
  // Every buffer below is an operand or a result of the traced products and epilogue: scratch stack.
  ScratchVector<std::int8_t> a8, b8, ones(static_cast<std::size_t>(std::max<std::int64_t>(k, 1)), 1);
  if (k > 0) {
    rec.host_step(HostStep{.name = "trnblas.uint8gemm_bias.offset",
                           .flops = static_cast<double>(ra * ca + rb * cb),
                           .reads = {HostSpan::matrix(A, ra, ca, lda), HostSpan::matrix(B, rb, cb, ldb)},
                           .writes = {}});
    a8 = offset_copy(A, ra, ca, lda);
    b8 = offset_copy(B, rb, cb, ldb);
  }
  ScratchVector<std::int32_t> prod(static_cast<std::size_t>(m * n)), rows(static_cast<std::size_t>(m)),
      cols(static_cast<std::size_t>(n));
  const auto run = [&](auto&& call) {
    CallReport sub;
    call(&sub);
    rec.add(sub);
  };
  if (k > 0) {
    run([&](CallReport* r) { gemm_i8(s, ta, tb, m, n, k, 1, a8.data(), ra, b8.data(), rb, 0, prod.data(), m, r); });
    run([&](CallReport* r) { gemm_i8(s, ta, Op::N, m, 1, k, 1, a8.data(), ra, ones.data(), k, 0, rows.data(), m, r); });
    run([&](CallReport* r) { gemm_i8(s, Op::N, tb, 1, n, k, 1, ones.data(), 1, b8.data(), rb, 0, cols.data(), 1, r); });
  }
  rec.host_step(HostStep{.name = "trnblas.uint8gemm_bias.epilogue",
                         .flops = 8.0 * static_cast<double>(m * n),
                         .reads = {HostSpan(prod.data(), m * n), HostSpan(rows.data(), m), HostSpan(cols.data(), n)},
                         .writes = {tc ? HostSpan::matrix(C, n, m, ldc) : HostSpan::matrix(C, m, n, ldc)}});
  if (s.timing_only) return;
  const std::int64_t a = static_cast<std::int64_t>(a_bias) + 128, b = static_cast<std::int64_t>(b_bias) + 128;
  const std::int64_t round = c_shift > 0 ? std::int64_t{1} << (c_shift - 1) : 0;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      const std::int64_t total = static_cast<std::int64_t>(prod[static_cast<std::size_t>(i + j * m)]) +
                                 b * rows[static_cast<std::size_t>(i)] + a * cols[static_cast<std::size_t>(j)] + k * a * b;
      const std::int64_t v = ((total + c_bias) * c_mult + round) >> c_shift;
      C[tc ? j + i * ldc : i + j * ldc] = static_cast<std::uint8_t>(std::clamp<std::int64_t>(v, 0, 255));
    }
}

}  // namespace trn::blas
