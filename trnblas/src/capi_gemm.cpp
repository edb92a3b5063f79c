// trnblas.h, the GEMM family: ?gemm, GemmEx, the batched, strided and grouped variants and ?syrk.
// Checks in cuBLAS/XERBLA order (1-based positions, the handle not counted), then the C++ API
// inside the shared guard of capi.cpp (capi_internal.hpp); nothing is written on error.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "capi_internal.hpp"
#include "trn/blas/blas.hpp"
#include "trn/blas/level3.hpp"
#include "trn/blas/modes.hpp"
#include "trn/core/c_shim.hpp"
#include "trnblas.h"

using trn::blas::GemmMode;
using trn::blas::Op;

namespace {

using blas_capi::addressable;
using blas_capi::arg_check;
using blas_capi::dtype_from_bits;
using blas_capi::fail;
using blas_capi::fp32_mode;
using blas_capi::guarded;
using blas_capi::invalid;
using blas_capi::kernel_ld;
using blas_capi::settings_for;
using blas_capi::store_report;
using trn::cshim::enum_value;
using ArgCheck = trn::cshim::ArgCheck<trnblasStatus_t>;

bool valid(trnblasHandle_t h) { return blas_capi::valid_handle(h); }

bool op_ok(int op) { return op == TRNBLAS_OP_N || op == TRNBLAS_OP_T || op == TRNBLAS_OP_C; }
Op to_op(int op) { return op == TRNBLAS_OP_N ? Op::N : Op::T; }


// Positions of the GEMM arguments in each entry point's signature (not counting the handle).
struct GemmPositions {
  int transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype, ldc, batch, compute, algo;
};
constexpr GemmPositions kGemmPos{1, 2, 3, 4, 5, 6, 7, 0, 8, 9, 0, 10, 11, 12, 0, 13, 0, 0, 0};
constexpr GemmPositions kGemmExPos{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 0, 17, 18};
constexpr GemmPositions kGemmBatchedExPos{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
// Strided: ... A 7, Atype 8, lda 9, strideA 10, B 11, Btype 12, ldb 13, strideB 14, beta 15, C 16, Ctype 17, ldc 18,
// strideC 19, batchCount 20, computeType 21, algo 22.
constexpr GemmPositions kGemmStridedExPos{1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 17, 18, 20, 21, 22};
// SgemmStridedBatched: A 7, lda 8, strideA 9, B 10, ldb 11, strideB 12, beta 13, C 14, ldc 15, strideC 16, batch 17.
constexpr GemmPositions kSgemmStridedPos{1, 2, 3, 4, 5, 6, 7, 0, 8, 10, 0, 11, 13, 14, 0, 15, 17, 0, 0};
// S/DgemmBatched: Aarray 7, lda 8, Barray 9, ldb 10, beta 11, Carray 12, ldc 13, batchCount 14.
constexpr GemmPositions kSgemmBatchedPos{1, 2, 3, 4, 5, 6, 7, 0, 8, 9, 0, 10, 11, 12, 0, 13, 14, 0, 0};



// Reference-BLAS order of checks (XERBLA's INFO numbering): transa, transb, m, n, k, lda, ldb, ldc,
// then the scalar and matrix pointers. Sizes are also checked to span an addressable extent in
// 64-bit arithmetic, so no later index computation can overflow.
template <class I>
trnblasStatus_t check_gemm(trnblasHandle_t h, const char* fn, const GemmPositions& pos, int ta, int tb, I m, I n, I k,
                           const void* alpha, bool need_ab, const void* A, I lda, const void* B, I ldb, const void* beta,
                           const void* C, I ldc) {
  const std::int64_t rows_a = ta == TRNBLAS_OP_N ? m : k, cols_a = ta == TRNBLAS_OP_N ? k : m;
  const std::int64_t rows_b = tb == TRNBLAS_OP_N ? k : n, cols_b = tb == TRNBLAS_OP_N ? n : k;
  ArgCheck check = arg_check(h, fn);
  check.require(op_ok(ta), pos.transa, "transa")
      .require(op_ok(tb), pos.transb, "transb")
      .nonnegative(m, pos.m, "m")
      .nonnegative(n, pos.n, "n")
      .nonnegative(k, pos.k, "k")
      .leading_dim(lda, rows_a, pos.lda, "lda")
      .require(addressable(rows_a, cols_a, lda), pos.lda, "lda")
      .leading_dim(ldb, rows_b, pos.ldb, "ldb")
      .require(addressable(rows_b, cols_b, ldb), pos.ldb, "ldb")
      .leading_dim(ldc, m, pos.ldc, "ldc")
      .require(addressable(m, n, ldc), pos.ldc, "ldc")
      .not_null(alpha, pos.alpha, "alpha")
      .not_null(beta, pos.beta, "beta");
  if (m > 0 && n > 0)
    check.require(!need_ab || A != nullptr, pos.A, "A").require(!need_ab || B != nullptr, pos.B, "B").not_null(C, pos.C, "C");
  return check.status();
}

bool dtype_ok_on_target(const trnblasHandle_t h, trn::DType t) {
  return t != trn::DType::f8e4m3fn || trn::hardware_spec(h->settings.target).fp8_e4m3fn_native;
}

// Resolves (Atype, Btype, Ctype, computeType) to a mode; returns a status for unsupported combinations.
struct ExPlan {
  bool f64 = false;
  GemmMode mode = GemmMode::fp32;
  trn::DType a = trn::DType::f32, b = trn::DType::f32, c = trn::DType::f32;
  bool half_scalars = false;  // COMPUTE_16F: alpha and beta are binary16
};
bool gemm_algo_ok(int algo) {
  return (algo >= TRNBLAS_GEMM_DEFAULT && algo <= TRNBLAS_GEMM_ALGO23) ||
         (algo >= TRNBLAS_GEMM_DEFAULT_TENSOR_OP && algo <= TRNBLAS_GEMM_ALGO15_TENSOR_OP) || algo == TRNBLAS_GEMM_AUTOTUNE;
}
trnblasStatus_t plan_ex(trnblasHandle_t h, const char* fn, const GemmPositions& pos, int at_bits, int bt_bits, int ct_bits,
                        int compute, int algo, ExPlan* out) {
  const int at = at_bits, bt = bt_bits, ct = ct_bits;
  if (pos.algo > 0 && !gemm_algo_ok(algo)) return invalid(h, fn, pos.algo, "algo");
  switch (compute) {
    case TRNBLAS_COMPUTE_64F: case TRNBLAS_COMPUTE_64F_PEDANTIC: case TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT:
      if (at != TRN_R_64F || bt != TRN_R_64F || ct != TRN_R_64F)
        return fail(h, fn, TRNBLAS_STATUS_NOT_SUPPORTED, "64F compute types need 64F A, B and C");
      out->f64 = true;
      out->mode = GemmMode::fp64_ozaki;
      return TRNBLAS_STATUS_SUCCESS;
    case TRNBLAS_COMPUTE_16F: case TRNBLAS_COMPUTE_16F_PEDANTIC:
      // cuBLAS's only 16F row: 16F A, B and C, binary16 scalars. TensorE multiplies the stored fp16
      // exactly and accumulates in fp32 PSUM (tighter than a 16-bit accumulator); C is rounded once.
      if (at != TRN_R_16F || bt != TRN_R_16F || ct != TRN_R_16F)
        return fail(h, fn, TRNBLAS_STATUS_NOT_SUPPORTED, "COMPUTE_16F needs 16F A, B and C");
      out->a = out->b = out->c = trn::DType::f16;
      out->mode = GemmMode::native;
      out->half_scalars = true;
      return TRNBLAS_STATUS_SUCCESS;
    case TRNBLAS_COMPUTE_32I: case TRNBLAS_COMPUTE_32I_PEDANTIC:
      return fail(h, fn, TRNBLAS_STATUS_NOT_SUPPORTED, "COMPUTE_32I needs 8I A and B, 32I or 8I C");
    case TRNBLAS_COMPUTE_32F: case TRNBLAS_COMPUTE_32F_PEDANTIC: case TRNBLAS_COMPUTE_32F_FAST_16F:
    case TRNBLAS_COMPUTE_32F_FAST_16BF: case TRNBLAS_COMPUTE_32F_FAST_TF32: case TRNBLAS_COMPUTE_32F_EMULATED_16BFX9:
    case TRNBLAS_COMPUTE_32F_FAST_8F_E4M3: case TRNBLAS_COMPUTE_32F_FAST_8F_E5M2:
    case TRNBLAS_COMPUTE_32F_EMULATED_16BFX3: case TRNBLAS_COMPUTE_32F_EMULATED_16BFX6:
      break;
    default:
      return invalid(h, fn, pos.compute, "computeType");
  }
  if (!dtype_from_bits(at, &out->a)) return at == TRN_R_64F ? fail(h, fn, TRNBLAS_STATUS_NOT_SUPPORTED, "64F A needs a 64F compute type") : invalid(h, fn, pos.Atype, "Atype");
  if (!dtype_from_bits(bt, &out->b)) return bt == TRN_R_64F ? fail(h, fn, TRNBLAS_STATUS_NOT_SUPPORTED, "64F B needs a 64F compute type") : invalid(h, fn, pos.Btype, "Btype");
  if (!dtype_from_bits(ct, &out->c)) return ct == TRN_R_64F ? fail(h, fn, TRNBLAS_STATUS_NOT_SUPPORTED, "64F C needs a 64F compute type") : invalid(h, fn, pos.Ctype, "Ctype");
  using trn::DType;
  auto is_input = [](DType t) {
    return t == DType::f32 || t == DType::f16 || t == DType::bf16 || t == DType::f8e4m3 || t == DType::f8e5m2 ||
           t == DType::f8e4m3fn || t == DType::tf32;
  };
  if (!is_input(out->a) || !is_input(out->b) || out->a != out->b)
    return fail(h, fn, TRNBLAS_STATUS_NOT_SUPPORTED, "A and B must have the same float type (32F, 16F, 16BF, 8F)");
  if (out->c != DType::f32 && out->c != DType::f16 && out->c != DType::bf16)
    return fail(h, fn, TRNBLAS_STATUS_NOT_SUPPORTED, "C must be 32F, 16F or 16BF");
  if (!dtype_ok_on_target(h, out->a))
    return fail(h, fn, TRNBLAS_STATUS_NOT_SUPPORTED, "OCP fp8 e4m3 (TRN_R_8F_E4M3) exists on trn3 only; use TRN_R_8F_E4M3_IEEE");
  const bool f32_in = out->a == DType::f32;
  if (!f32_in) {
    if (compute == TRNBLAS_COMPUTE_32F_EMULATED_16BFX3 || compute == TRNBLAS_COMPUTE_32F_EMULATED_16BFX6 ||
        compute == TRNBLAS_COMPUTE_32F_EMULATED_16BFX9)
      return fail(h, fn, TRNBLAS_STATUS_NOT_SUPPORTED, "emulated bf16xN compute types need 32F A and B");
    out->mode = GemmMode::native;  // 16F/16BF/8F inputs are used as stored
  } else if (compute == TRNBLAS_COMPUTE_32F) {
    out->mode = fp32_mode(h, false);  // follows the handle's math mode
  } else {
    out->mode = trn::blas::mode_by_compute_type(compute)->mode;  // every other 32F compute type has a row
  }
  return TRNBLAS_STATUS_SUCCESS;
}

// The operands of batch entry b: an array of pointers (GemmBatchedEx) or a base pointer plus
// b * stride elements (strided calls, computed on demand: no O(batchCount) host arrays).
struct BatchOperands {
  const void* const* a_array = nullptr;
  const void* const* b_array = nullptr;
  void* const* c_array = nullptr;
  const void* a = nullptr;
  const void* b = nullptr;
  void* c = nullptr;
  std::int64_t a_step = 0, b_step = 0, c_step = 0;  // bytes between consecutive entries
  bool strided = false;
  // A NULL array reads as NULL entries, so it is reported at its own position (7, 10, 14).
  const void* A(std::int64_t i) const {
    if (strided) return a == nullptr ? nullptr : static_cast<const char*>(a) + i * a_step;
    return a_array == nullptr ? nullptr : a_array[i];
  }
  const void* B(std::int64_t i) const {
    if (strided) return b == nullptr ? nullptr : static_cast<const char*>(b) + i * b_step;
    return b_array == nullptr ? nullptr : b_array[i];
  }
  void* C(std::int64_t i) const {
    if (strided) return c == nullptr ? nullptr : static_cast<char*>(c) + i * c_step;
    return c_array == nullptr ? nullptr : c_array[i];
  }
};

// One GemmEx-family call over `batch` problems. Checks run in signature order as far as the
// reference BLAS defines one (transa ... ldc, then alpha/beta), then the type arguments
// (Atype, Btype, Ctype, computeType, algo), batchCount, and the matrix pointers last.
template <class I>
trnblasStatus_t gemm_ex_impl(trnblasHandle_t h, const char* fn, const GemmPositions& pos, int ta, int tb, I m, I n, I k,
                             const void* alpha, int at, I lda, int bt, I ldb, const void* beta, int ct, I ldc, I batch,
                             int compute, int algo, const BatchOperands& ops) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  static const char kPresent = 0;
  if (auto st = check_gemm<I>(h, fn, pos, ta, tb, m, n, k, alpha, false, &kPresent, lda, &kPresent, ldb, beta,
                              &kPresent, ldc);
      st != TRNBLAS_STATUS_SUCCESS)
    return st;
  const bool int8 = blas_capi::is_int8_gemm_ex(at, bt, ct, compute);
  if (int8 || blas_capi::is_complex_type(at) || blas_capi::is_complex_type(bt) || blas_capi::is_complex_type(ct))
    return (int8 ? blas_capi::int8_gemm_ex : blas_capi::complex_gemm_ex)(
        h, fn, {ta, tb, m, n, k, alpha, at, lda, bt, ldb, beta, ct, ldc, batch, compute, gemm_algo_ok(algo),
                ops.strided, pos.A, pos.Atype, pos.B, pos.Btype, pos.C, pos.Ctype, pos.batch, pos.compute, pos.algo,
                [&](std::int64_t b) { return ops.A(b); }, [&](std::int64_t b) { return ops.B(b); },
                [&](std::int64_t b) { return ops.C(b); }});
  ExPlan plan;
  if (auto st = plan_ex(h, fn, pos, at, bt, ct, compute, algo, &plan); st != TRNBLAS_STATUS_SUCCESS) return st;
  if (pos.batch > 0 && batch < 0) return invalid(h, fn, pos.batch, "batchCount");
  // The scalars as the kernels take them (COMPUTE_16F: binary16 values, widened exactly).
  const auto scalar = [&](const void* p) {
    if (plan.half_scalars) {
      std::uint16_t v;
      std::memcpy(&v, p, sizeof v);
      return trn::f16_to_f32(v);
    }
    return *static_cast<const float*>(p);
  };
  const bool zero_alpha = plan.f64 ? *static_cast<const double*>(alpha) == 0.0 : scalar(alpha) == 0.0f;
  const bool need_ab = !zero_alpha && k > 0;
  if (batch == 0 || m == 0 || n == 0) return TRNBLAS_STATUS_SUCCESS;  // quick return: nothing is read or written
  // Strided calls have one pointer per operand (entry b > 0 is non-null iff entry 0 is).
  const I checked = ops.strided ? I{1} : batch;
  for (I b = 0; b < checked; ++b)
    if (auto st = check_gemm<I>(h, fn, pos, ta, tb, m, n, k, alpha, need_ab, ops.A(b), lda, ops.B(b), ldb, beta, ops.C(b), ldc);
        st != TRNBLAS_STATUS_SUCCESS)
      return st;
  const std::int64_t lda_k = kernel_ld(lda, ta == TRNBLAS_OP_N ? m : k, ta == TRNBLAS_OP_N ? k : m);
  const std::int64_t ldb_k = kernel_ld(ldb, tb == TRNBLAS_OP_N ? k : n, tb == TRNBLAS_OP_N ? n : k);
  const std::int64_t ldc_k = kernel_ld(ldc, m, n);
  trn::blas::CallReport report;
  report.plans_wanted = false;  // the C API keeps the profile only (store_report): no plan text built
  const blas_capi::ProfileOnlyCall profile_only(report);
  const trnblasStatus_t st = guarded(h, fn, [&] {
    const trn::blas::Settings s = settings_for(h);
    if (plan.f64) {
      trn::blas::CallReport one;
      one.plans_wanted = false;
      for (I b = 0; b < batch; ++b) {
        trn::blas::dgemm(s, to_op(ta), to_op(tb), m, n, k, *static_cast<const double*>(alpha),
                         static_cast<const double*>(ops.A(b)), lda_k, static_cast<const double*>(ops.B(b)), ldb_k,
                         *static_cast<const double*>(beta), static_cast<double*>(ops.C(b)), ldc_k, &one);
        report.trace.append(one.trace);
        report.ozaki_mantissa_bits = one.ozaki_mantissa_bits;
        if (one.ozaki_capped) {
          report.ozaki_capped = true;
          report.ozaki_cap_note = one.ozaki_cap_note;
        }
      }
      trn::finish_report(report, trn::ReportSettings{s.target});
      return;
    }
    std::vector<trn::blas::MatrixRef> a, bb;
    std::vector<trn::blas::MutableMatrixRef> c;
    for (I b = 0; b < batch; ++b) {
      a.push_back({ops.A(b), plan.a, lda_k});
      bb.push_back({ops.B(b), plan.b, ldb_k});
      c.push_back({ops.C(b), plan.c, ldc_k});
    }
    trn::blas::gemm_batched(s, plan.mode, to_op(ta), to_op(tb), m, n, k, scalar(alpha), a, bb, scalar(beta), c,
                            &report);
  });
  if (st == TRNBLAS_STATUS_SUCCESS) store_report(h, report);
  return st;
}

BatchOperands arrays(const void* const* A, const void* const* B, void* const* C) {
  BatchOperands ops;
  ops.a_array = A;
  ops.b_array = B;
  ops.c_array = C;
  return ops;
}

BatchOperands single(const void* A, const void* B, void* C) {
  BatchOperands ops;
  ops.strided = true;  // one entry: base pointers, no stride
  ops.a = A;
  ops.b = B;
  ops.c = C;
  return ops;
}

template <class I, class T>
trnblasStatus_t gemm_typed(trnblasHandle_t h, const char* fn, int ta, int tb, I m, I n, I k, const T* alpha, const T* A, I lda, const T* B, I ldb, const T* beta, T* C, I ldc) {
  constexpr bool f64 = std::is_same_v<T, double>;
  const int compute = f64 ? TRNBLAS_COMPUTE_64F : TRNBLAS_COMPUTE_32F;
  const int dt = f64 ? TRN_R_64F : TRN_R_32F;
  return gemm_ex_impl<I>(h, fn, kGemmPos, ta, tb, m, n, k, alpha, dt, lda, dt, ldb, beta, dt, ldc, I{1}, compute,
                         TRNBLAS_GEMM_DEFAULT, single(A, B, C));
}

// Bytes per element of a trnDataType_t value (4 for unknown values: they are rejected later).
std::int64_t element_bytes(int type) {
  trn::DType d;
  if (type == TRN_R_64F || type == TRN_C_32F) return 8;
  if (type == TRN_R_8I) return 1;
  if (type == TRN_R_32I) return 4;
  if (type == TRN_C_64F) return 16;
  if (type == TRN_C_16F || type == TRN_C_16BF) return 4;
  if (type == TRN_C_8I) return 2;
  return dtype_from_bits(type, &d) ? trn::dtype_size(d) : 4;
}

template <class I>
trnblasStatus_t strided_impl(trnblasHandle_t h, const char* fn, const GemmPositions& pos, int ta, int tb, I m, I n, I k,
                             const void* alpha, const void* A, int at, I lda, long long sa, const void* B, int bt, I ldb,
                             long long sb, const void* beta, void* C, int ct, I ldc, long long sc, I batch, int compute,
                             int algo) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  static const char kPresent = 0;
  if (auto st = check_gemm<I>(h, fn, pos, ta, tb, m, n, k, alpha, false, &kPresent, lda, &kPresent, ldb, beta,
                              &kPresent, ldc);
      st != TRNBLAS_STATUS_SUCCESS)
    return st;
  BatchOperands ops;
  ops.strided = true;
  ops.a = A;
  ops.b = B;
  ops.c = C;
  // The byte offset of the last entry must be representable; a stride no buffer can have is illegal.
  const std::int64_t last = batch > 0 ? static_cast<std::int64_t>(batch) - 1 : 0;
  auto step = [&](long long stride, int type, std::int64_t* out) {
    if (stride == std::numeric_limits<long long>::min()) return false;  // |stride| is not representable
    const std::int64_t bytes = trn::cshim::checked_mul(stride < 0 ? -stride : stride, element_bytes(type));
    *out = stride < 0 ? -bytes : bytes;
    return bytes >= 0 && trn::cshim::checked_mul(bytes, last) >= 0;
  };
  const bool sa_ok = step(sa, at, &ops.a_step), sb_ok = step(sb, bt, &ops.b_step), sc_ok = step(sc, ct, &ops.c_step);
  const int pos_sa = pos.lda + 1, pos_sb = pos.ldb + 1, pos_sc = pos.ldc + 1;  // each stride follows its ld
  if (!sa_ok) return invalid(h, fn, pos_sa, "strideA");
  if (!sb_ok) return invalid(h, fn, pos_sb, "strideB");
  if (!sc_ok) return invalid(h, fn, pos_sc, "strideC");
  return gemm_ex_impl<I>(h, fn, pos, ta, tb, m, n, k, alpha, at, lda, bt, ldb, beta, ct, ldc, batch, compute, algo, ops);
}

template <class I, class T>
trnblasStatus_t syrk_impl(trnblasHandle_t h, const char* fn, int uplo, int trans, I n, I k,
                          const T* alpha, const T* A, I lda, const T* beta, T* C, I ldc) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const std::int64_t rows_a = trans == TRNBLAS_OP_N ? n : k, cols_a = trans == TRNBLAS_OP_N ? k : n;
  ArgCheck check = arg_check(h, fn);
  check.one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 1, "uplo")
      .require(op_ok(trans), 2, "trans")
      .nonnegative(n, 3, "n")
      .nonnegative(k, 4, "k")
      .leading_dim(lda, rows_a, 7, "lda")
      .require(addressable(rows_a, cols_a, lda), 7, "lda")
      .leading_dim(ldc, n, 10, "ldc")
      .require(addressable(n, n, ldc), 10, "ldc")
      .not_null(alpha, 5, "alpha")
      .not_null(beta, 8, "beta");
  if (check && n > 0) check.require(*alpha == T(0) || k == 0 || A != nullptr, 6, "A").not_null(C, 9, "C");
  if (!check) return check.status();
  if (n == 0) return TRNBLAS_STATUS_SUCCESS;
  trn::blas::CallReport report;
  report.plans_wanted = false;  // the C API keeps the profile only (store_report): no plan text built
  const blas_capi::ProfileOnlyCall profile_only(report);
  const trnblasStatus_t st = guarded(h, fn, [&] {
    const trn::blas::Settings s = settings_for(h);
    const auto ul = uplo == TRNBLAS_FILL_MODE_LOWER ? trn::blas::Uplo::lower : trn::blas::Uplo::upper;
    const std::int64_t lda_k = kernel_ld(lda, rows_a, cols_a), ldc_k = kernel_ld(ldc, n, n);
    if constexpr (std::is_same_v<T, double>)
      trn::blas::dsyrk(s, ul, to_op(trans), n, k, *alpha, A, lda_k, *beta, C, ldc_k, &report);
    else
      trn::blas::syrk(s, fp32_mode(h, false), ul, to_op(trans), n, k, *alpha, {A, trn::DType::f32, lda_k}, *beta,
                      {C, trn::DType::f32, ldc_k}, &report);
  });
  if (st == TRNBLAS_STATUS_SUCCESS) store_report(h, report);
  return st;
}

}  // namespace

extern "C" {

// ---- compute ----

trnblasStatus_t trnblasSgemm(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m, int n, int k,
                             const float* alpha, const float* A, int lda, const float* B, int ldb, const float* beta,
                             float* C, int ldc) {
  return gemm_typed<int, float>(h, "trnblasSgemm", enum_value(ta), enum_value(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
trnblasStatus_t trnblasSgemm_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int64_t m, int64_t n,
                                int64_t k, const float* alpha, const float* A, int64_t lda, const float* B, int64_t ldb,
                                const float* beta, float* C, int64_t ldc) {
  return gemm_typed<int64_t, float>(h, "trnblasSgemm_64", enum_value(ta), enum_value(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
trnblasStatus_t trnblasDgemm(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m, int n, int k,
                             const double* alpha, const double* A, int lda, const double* B, int ldb,
                             const double* beta, double* C, int ldc) {
  return gemm_typed<int, double>(h, "trnblasDgemm", enum_value(ta), enum_value(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
trnblasStatus_t trnblasDgemm_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int64_t m, int64_t n,
                                int64_t k, const double* alpha, const double* A, int64_t lda, const double* B,
                                int64_t ldb, const double* beta, double* C, int64_t ldc) {
  return gemm_typed<int64_t, double>(h, "trnblasDgemm_64", enum_value(ta), enum_value(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

trnblasStatus_t trnblasGemmEx(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m, int n, int k,
                              const void* alpha, const void* A, trnDataType_t at, int lda, const void* B,
                              trnDataType_t bt, int ldb, const void* beta, void* C, trnDataType_t ct, int ldc,
                              trnblasComputeType_t compute, trnblasGemmAlgo_t algo) {
  return gemm_ex_impl<int>(h, "trnblasGemmEx", kGemmExPos, enum_value(ta), enum_value(tb), m, n, k, alpha, enum_value(at),
                           lda, enum_value(bt), ldb, beta, enum_value(ct), ldc, 1, enum_value(compute), enum_value(algo),
                           single(A, B, C));
}
trnblasStatus_t trnblasGemmEx_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int64_t m, int64_t n,
                                 int64_t k, const void* alpha, const void* A, trnDataType_t at, int64_t lda,
                                 const void* B, trnDataType_t bt, int64_t ldb, const void* beta, void* C,
                                 trnDataType_t ct, int64_t ldc, trnblasComputeType_t compute, trnblasGemmAlgo_t algo) {
  return gemm_ex_impl<int64_t>(h, "trnblasGemmEx_64", kGemmExPos, enum_value(ta), enum_value(tb), m, n, k, alpha,
                               enum_value(at), lda, enum_value(bt), ldb, beta, enum_value(ct), ldc, 1, enum_value(compute),
                               enum_value(algo), single(A, B, C));
}

trnblasStatus_t trnblasGemmBatchedEx(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m, int n,
                                     int k, const void* alpha, const void* const Aarray[], trnDataType_t at, int lda,
                                     const void* const Barray[], trnDataType_t bt, int ldb, const void* beta,
                                     void* const Carray[], trnDataType_t ct, int ldc, int batchCount,
                                     trnblasComputeType_t compute, trnblasGemmAlgo_t algo) {
  return gemm_ex_impl<int>(h, "trnblasGemmBatchedEx", kGemmBatchedExPos, enum_value(ta), enum_value(tb), m, n, k, alpha,
                           enum_value(at), lda, enum_value(bt), ldb, beta, enum_value(ct), ldc, batchCount,
                           enum_value(compute), enum_value(algo), arrays(Aarray, Barray, Carray));
}
trnblasStatus_t trnblasGemmBatchedEx_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int64_t m,
                                        int64_t n, int64_t k, const void* alpha, const void* const Aarray[],
                                        trnDataType_t at, int64_t lda, const void* const Barray[], trnDataType_t bt,
                                        int64_t ldb, const void* beta, void* const Carray[], trnDataType_t ct,
                                        int64_t ldc, int64_t batchCount, trnblasComputeType_t compute,
                                        trnblasGemmAlgo_t algo) {
  return gemm_ex_impl<int64_t>(h, "trnblasGemmBatchedEx_64", kGemmBatchedExPos, enum_value(ta), enum_value(tb), m, n, k, alpha,
                           enum_value(at), lda, enum_value(bt), ldb, beta, enum_value(ct), ldc, batchCount,
                           enum_value(compute), enum_value(algo), arrays(Aarray, Barray, Carray));
}

trnblasStatus_t trnblasGemmStridedBatchedEx(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m,
                                            int n, int k, const void* alpha, const void* A, trnDataType_t at, int lda,
                                            long long sa, const void* B, trnDataType_t bt, int ldb, long long sb,
                                            const void* beta, void* C, trnDataType_t ct, int ldc, long long sc,
                                            int batchCount, trnblasComputeType_t compute, trnblasGemmAlgo_t algo) {
  return strided_impl<int>(h, "trnblasGemmStridedBatchedEx", kGemmStridedExPos, enum_value(ta), enum_value(tb), m, n, k, alpha, A, enum_value(at), lda, sa,
                           B, enum_value(bt), ldb, sb, beta, C, enum_value(ct), ldc, sc, batchCount, enum_value(compute), enum_value(algo));
}
trnblasStatus_t trnblasGemmStridedBatchedEx_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb,
                                               int64_t m, int64_t n, int64_t k, const void* alpha, const void* A,
                                               trnDataType_t at, int64_t lda, long long sa, const void* B,
                                               trnDataType_t bt, int64_t ldb, long long sb, const void* beta, void* C,
                                               trnDataType_t ct, int64_t ldc, long long sc, int64_t batchCount,
                                               trnblasComputeType_t compute, trnblasGemmAlgo_t algo) {
  return strided_impl<int64_t>(h, "trnblasGemmStridedBatchedEx_64", kGemmStridedExPos, enum_value(ta), enum_value(tb), m, n, k, alpha, A, enum_value(at),
                               lda, sa, B, enum_value(bt), ldb, sb, beta, C, enum_value(ct), ldc, sc, batchCount, enum_value(compute), enum_value(algo));
}

trnblasStatus_t trnblasSgemmStridedBatched(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m,
                                           int n, int k, const float* alpha, const float* A, int lda, long long sa,
                                           const float* B, int ldb, long long sb, const float* beta, float* C, int ldc,
                                           long long sc, int batchCount) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  return strided_impl<int>(h, "trnblasSgemmStridedBatched", kSgemmStridedPos, enum_value(ta), enum_value(tb), m, n, k, alpha, A, TRN_R_32F,
                           lda, sa, B, TRN_R_32F, ldb, sb, beta, C, TRN_R_32F, ldc, sc, batchCount,
                           TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT);
}
trnblasStatus_t trnblasSgemmStridedBatched_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb,
                                              int64_t m, int64_t n, int64_t k, const float* alpha, const float* A,
                                              int64_t lda, long long sa, const float* B, int64_t ldb, long long sb,
                                              const float* beta, float* C, int64_t ldc, long long sc,
                                              int64_t batchCount) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  return strided_impl<int64_t>(h, "trnblasSgemmStridedBatched_64", kSgemmStridedPos, enum_value(ta), enum_value(tb), m, n, k, alpha, A,
                               TRN_R_32F, lda, sa, B, TRN_R_32F, ldb, sb, beta, C, TRN_R_32F, ldc, sc, batchCount,
                               TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT);
}

// S/DgemmStridedBatched and S/DgemmBatched (pointer arrays): the GemmEx machinery with the
// precision's data and compute types (fp32: the handle's math mode; fp64: Ozaki), one GEMM per entry.
#define TRNBLAS_REAL_BATCHED(P, T, DT, CT)                                                                             \
  trnblasStatus_t trnblas##P##gemmBatched(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m,      \
                                          int n, int k, const T* alpha, const T* const Aarray[], int lda,              \
                                          const T* const Barray[], int ldb, const T* beta, T* const Carray[], int ldc, \
                                          int batchCount) {                                                            \
    return gemm_ex_impl<int>(h, "trnblas" #P "gemmBatched", kSgemmBatchedPos, enum_value(ta), enum_value(tb), m, n, k, \
                             alpha, DT, lda, DT, ldb, beta, DT, ldc, batchCount, CT, TRNBLAS_GEMM_DEFAULT,             \
                             arrays(reinterpret_cast<const void* const*>(Aarray),                                      \
                                    reinterpret_cast<const void* const*>(Barray),                                      \
                                    reinterpret_cast<void* const*>(Carray)));                                          \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##gemmBatched_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb,          \
                                             int64_t m, int64_t n, int64_t k, const T* alpha, const T* const Aarray[], \
                                             int64_t lda, const T* const Barray[], int64_t ldb, const T* beta,         \
                                             T* const Carray[], int64_t ldc, int64_t batchCount) {                     \
    return gemm_ex_impl<int64_t>(h, "trnblas" #P "gemmBatched_64", kSgemmBatchedPos, enum_value(ta), enum_value(tb),   \
                                 m, n, k, alpha, DT, lda, DT, ldb, beta, DT, ldc, batchCount, CT,                      \
                                 TRNBLAS_GEMM_DEFAULT,                                                                 \
                                 arrays(reinterpret_cast<const void* const*>(Aarray),                                  \
                                        reinterpret_cast<const void* const*>(Barray),                                  \
                                        reinterpret_cast<void* const*>(Carray)));                                      \
  }
TRNBLAS_REAL_BATCHED(S, float, TRN_R_32F, TRNBLAS_COMPUTE_32F)
TRNBLAS_REAL_BATCHED(D, double, TRN_R_64F, TRNBLAS_COMPUTE_64F)
#undef TRNBLAS_REAL_BATCHED

// S/DgemmGroupedBatched: transa_array 1, transb_array 2, m_array 3, n_array 4, k_array 5, alpha_array 6,
// Aarray 7, lda_array 8, Barray 9, ldb_array 10, beta_array 11, Carray 12, ldc_array 13, group_count 14,
// group_size 15. Every group (and every entry's pointers) is checked before any is computed; one
// report covers the whole call. fp32 groups follow the handle's math mode, fp64 ones run Ozaki.
extern "C++" {  // internal helpers inside the extern "C" block
namespace {
constexpr GemmPositions kGroupedPos{1, 2, 3, 4, 5, 6, 7, 0, 8, 9, 0, 10, 11, 12, 0, 13, 15, 0, 0};

template <class T>
bool grouped_zero(const T& v) {
  if constexpr (std::is_arithmetic_v<T>)
    return v == T(0);
  else
    return v.x == 0 && v.y == 0;
}
trn::blas::COp grouped_cop(int op) {
  return op == TRNBLAS_OP_N ? trn::blas::COp::N : op == TRNBLAS_OP_T ? trn::blas::COp::T : trn::blas::COp::C;
}

// GemmGroupedBatchedEx: Aarray 7, Atype 8, lda 9, Barray 10, Btype 11, ldb 12, beta 13, Carray 14,
// Ctype 15, ldc 16, group_count 17, group_size 18, computeType 19; its types resolved by plan_ex.
constexpr GemmPositions kGroupedExPos{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19, 0};

template <class I, class T>
trnblasStatus_t grouped_impl(trnblasHandle_t h, const char* fn, const trnblasOperation_t* ta_array,
                             const trnblasOperation_t* tb_array, const I* m_array, const I* n_array, const I* k_array,
                             const T* alpha_array, const T* const* A_array, const I* lda_array, const T* const* B_array,
                             const I* ldb_array, const T* beta_array, T* const* C_array, const I* ldc_array,
                             I group_count, const I* group_size, const ExPlan* plan = nullptr) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const GemmPositions& gp = plan != nullptr ? kGroupedExPos : kGroupedPos;
  const int pos_count = plan != nullptr ? 17 : 14;
  if (group_count < 0) return invalid(h, fn, pos_count, "group_count");
  if (group_count == 0) return TRNBLAS_STATUS_SUCCESS;
  const std::pair<const void*, int> per_group[] = {{ta_array, 1},     {tb_array, 2},          {m_array, 3},
                                                   {n_array, 4},      {k_array, 5},           {alpha_array, 6},
                                                   {lda_array, gp.lda}, {ldb_array, gp.ldb}, {beta_array, gp.beta},
                                                   {ldc_array, gp.ldc}, {group_size, gp.batch}};
  for (const auto& [p, position] : per_group)
    if (p == nullptr) return invalid(h, fn, position, "array");
  // The caller's enum bits (an enum object holding an undeclared value must not be copied as one).
  auto op_bits = [](const trnblasOperation_t* a, I g) {
    int v = 0;
    std::memcpy(&v, a + g, sizeof v);
    return v;
  };
  static const char kPresent = 0;
  std::int64_t first = 0;  // index of the group's first entry in Aarray, Barray, Carray
  for (I g = 0; g < group_count; ++g) {
    if (group_size[g] < 0) return invalid(h, fn, gp.batch, "group_size");
    const int ta = op_bits(ta_array, g), tb = op_bits(tb_array, g);
    if (auto st = check_gemm<I>(h, fn, gp, ta, tb, m_array[g], n_array[g], k_array[g], alpha_array + g, false,
                                &kPresent, lda_array[g], &kPresent, ldb_array[g], beta_array + g, &kPresent, ldc_array[g]);
        st != TRNBLAS_STATUS_SUCCESS)
      return st;
    const bool need_ab = !grouped_zero(alpha_array[g]) && k_array[g] > 0;
    for (I e = 0; e < group_size[g]; ++e) {
      const std::int64_t x = first + e;
      if (auto st = check_gemm<I>(h, fn, gp, ta, tb, m_array[g], n_array[g], k_array[g], alpha_array + g,
                                  need_ab, A_array == nullptr ? nullptr : A_array[x], lda_array[g],
                                  B_array == nullptr ? nullptr : B_array[x], ldb_array[g], beta_array + g,
                                  C_array == nullptr ? nullptr : C_array[x], ldc_array[g]);
          st != TRNBLAS_STATUS_SUCCESS)
        return st;
    }
    first += group_size[g];
  }
  constexpr bool f64 = std::is_same_v<T, double>;
  trn::blas::CallReport report;
  report.plans_wanted = false;  // the C API keeps the profile only (store_report): no plan text built
  const blas_capi::ProfileOnlyCall profile_only(report);
  const trnblasStatus_t st = guarded(h, fn, [&] {
    const trn::blas::Settings s = settings_for(h);
    std::int64_t base = 0;
    for (I g = 0; g < group_count; ++g, base += group_size[g - 1]) {
      const I m = m_array[g], n = n_array[g], k = k_array[g], size = group_size[g];
      if (m == 0 || n == 0 || size == 0) continue;
      const int ta = op_bits(ta_array, g), tb = op_bits(tb_array, g);
      const std::int64_t lda_k = kernel_ld(lda_array[g], ta == TRNBLAS_OP_N ? m : k, ta == TRNBLAS_OP_N ? k : m);
      const std::int64_t ldb_k = kernel_ld(ldb_array[g], tb == TRNBLAS_OP_N ? k : n, tb == TRNBLAS_OP_N ? n : k);
      const std::int64_t ldc_k = kernel_ld(ldc_array[g], m, n);
      const bool need_ab = !grouped_zero(alpha_array[g]) && k > 0;
      auto entry = [&](const auto* arr, I e) { return need_ab && arr != nullptr ? arr[base + e] : nullptr; };
      trn::blas::CallReport one;
      one.plans_wanted = false;
      if constexpr (!std::is_arithmetic_v<T>) {  // C/Z: one 4M complex GEMM per entry
        for (I e = 0; e < size; ++e) {
          if constexpr (std::is_same_v<T, trnDoubleComplex>)
            trn::blas::zgemm(s, trn::blas::ComplexAlgo::four_m, grouped_cop(ta), grouped_cop(tb), m, n, k,
                             *blas_capi::cpp(alpha_array + g), blas_capi::cpp(entry(A_array, e)), lda_k,
                             blas_capi::cpp(entry(B_array, e)), ldb_k, *blas_capi::cpp(beta_array + g),
                             blas_capi::cpp(C_array[base + e]), ldc_k, &one);
          else
            trn::blas::cgemm(s, fp32_mode(h, false), trn::blas::ComplexAlgo::four_m, grouped_cop(ta), grouped_cop(tb),
                             m, n, k, *blas_capi::cpp(alpha_array + g), blas_capi::cpp(entry(A_array, e)), lda_k,
                             blas_capi::cpp(entry(B_array, e)), ldb_k, *blas_capi::cpp(beta_array + g),
                             blas_capi::cpp(C_array[base + e]), ldc_k, &one);
          report.trace.append(one.trace);
          report.ozaki_mantissa_bits = one.ozaki_mantissa_bits;
        }
      } else if constexpr (f64) {
        for (I e = 0; e < size; ++e) {
          trn::blas::dgemm(s, to_op(ta), to_op(tb), m, n, k, alpha_array[g], entry(A_array, e), lda_k,
                           entry(B_array, e), ldb_k, beta_array[g], C_array[base + e], ldc_k, &one);
          report.trace.append(one.trace);
          report.ozaki_mantissa_bits = one.ozaki_mantissa_bits;
        }
      } else {
        std::vector<trn::blas::MatrixRef> a, b;
        std::vector<trn::blas::MutableMatrixRef> c;
        const ExPlan fp32_plan{false, fp32_mode(h, false)};
        const ExPlan& pl = plan != nullptr ? *plan : fp32_plan;
        for (I e = 0; e < size; ++e) {
          a.push_back({entry(A_array, e), pl.a, lda_k});
          b.push_back({entry(B_array, e), pl.b, ldb_k});
          c.push_back({C_array[base + e], pl.c, ldc_k});
        }
        trn::blas::gemm_batched(s, pl.mode, to_op(ta), to_op(tb), m, n, k, alpha_array[g], a, b,
                                beta_array[g], c, &one);
        report.trace.append(one.trace);
      }
    }
    trn::finish_report(report, trn::ReportSettings{s.target});
  });
  if (st == TRNBLAS_STATUS_SUCCESS) store_report(h, report);
  return st;
}

}  // namespace
}  // extern "C++"

#define TRNBLAS_GROUPED(P, T)                                                                                          \
  trnblasStatus_t trnblas##P##gemmGroupedBatched(                                                                      \
      trnblasHandle_t h, const trnblasOperation_t transa_array[], const trnblasOperation_t transb_array[],             \
      const int m_array[], const int n_array[], const int k_array[], const T alpha_array[], const T* const Aarray[],   \
      const int lda_array[], const T* const Barray[], const int ldb_array[], const T beta_array[], T* const Carray[],  \
      const int ldc_array[], int group_count, const int group_size[]) {                                                \
    return grouped_impl<int, T>(h, "trnblas" #P "gemmGroupedBatched", transa_array, transb_array, m_array, n_array,   \
                                k_array, alpha_array, Aarray, lda_array, Barray, ldb_array, beta_array, Carray,        \
                                ldc_array, group_count, group_size);                                                   \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##gemmGroupedBatched_64(                                                                   \
      trnblasHandle_t h, const trnblasOperation_t transa_array[], const trnblasOperation_t transb_array[],             \
      const int64_t m_array[], const int64_t n_array[], const int64_t k_array[], const T alpha_array[],                \
      const T* const Aarray[], const int64_t lda_array[], const T* const Barray[], const int64_t ldb_array[],          \
      const T beta_array[], T* const Carray[], const int64_t ldc_array[], int64_t group_count,                         \
      const int64_t group_size[]) {                                                                                    \
    return grouped_impl<int64_t, T>(h, "trnblas" #P "gemmGroupedBatched_64", transa_array, transb_array, m_array,      \
                                    n_array, k_array, alpha_array, Aarray, lda_array, Barray, ldb_array, beta_array,   \
                                    Carray, ldc_array, group_count, group_size);                                       \
  }
TRNBLAS_GROUPED(S, float)
TRNBLAS_GROUPED(D, double)
TRNBLAS_GROUPED(C, trnComplex)
TRNBLAS_GROUPED(Z, trnDoubleComplex)
#undef TRNBLAS_GROUPED

extern "C++" {
namespace {
// GemmGroupedBatchedEx: the real types cuBLAS lists for it (32F, 16F/16BF inputs with a 32F
// compute type and float scalars; 64F with a 64F compute type and double scalars), resolved as
// GemmEx resolves them, then the grouped path above.
template <class I>
trnblasStatus_t grouped_ex(trnblasHandle_t h, const char* fn, const trnblasOperation_t* ta, const trnblasOperation_t* tb,
                           const I* m, const I* n, const I* k, const void* alpha, const void* const* A, int at,
                           const I* lda, const void* const* B, int bt, const I* ldb, const void* beta,
                           void* const* C, int ct, const I* ldc, I group_count, const I* group_size, int compute) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  ExPlan plan;
  if (auto st = plan_ex(h, fn, kGroupedExPos, at, bt, ct, compute, TRNBLAS_GEMM_DEFAULT, &plan); st != TRNBLAS_STATUS_SUCCESS)
    return st;
  if (plan.f64)
    return grouped_impl<I, double>(h, fn, ta, tb, m, n, k, static_cast<const double*>(alpha),
                                   reinterpret_cast<const double* const*>(A), lda, reinterpret_cast<const double* const*>(B),
                                   ldb, static_cast<const double*>(beta), reinterpret_cast<double* const*>(C), ldc,
                                   group_count, group_size, &plan);
  return grouped_impl<I, float>(h, fn, ta, tb, m, n, k, static_cast<const float*>(alpha),
                                reinterpret_cast<const float* const*>(A), lda, reinterpret_cast<const float* const*>(B), ldb,
                                static_cast<const float*>(beta), reinterpret_cast<float* const*>(C), ldc, group_count,
                                group_size, &plan);
}
}  // namespace
}  // extern "C++"

trnblasStatus_t trnblasGemmGroupedBatchedEx(trnblasHandle_t h, const trnblasOperation_t transa_array[],
                                            const trnblasOperation_t transb_array[], const int m_array[],
                                            const int n_array[], const int k_array[], const void* alpha_array,
                                            const void* const Aarray[], trnDataType_t Atype, const int lda_array[],
                                            const void* const Barray[], trnDataType_t Btype, const int ldb_array[],
                                            const void* beta_array, void* const Carray[], trnDataType_t Ctype,
                                            const int ldc_array[], int group_count, const int group_size[],
                                            trnblasComputeType_t computeType) {
  return grouped_ex<int>(h, "trnblasGemmGroupedBatchedEx", transa_array, transb_array, m_array, n_array, k_array,
                         alpha_array, Aarray, enum_value(Atype), lda_array, Barray, enum_value(Btype), ldb_array,
                         beta_array, Carray, enum_value(Ctype), ldc_array, group_count, group_size,
                         enum_value(computeType));
}
trnblasStatus_t trnblasGemmGroupedBatchedEx_64(trnblasHandle_t h, const trnblasOperation_t transa_array[],
                                               const trnblasOperation_t transb_array[], const int64_t m_array[],
                                               const int64_t n_array[], const int64_t k_array[], const void* alpha_array,
                                               const void* const Aarray[], trnDataType_t Atype, const int64_t lda_array[],
                                               const void* const Barray[], trnDataType_t Btype, const int64_t ldb_array[],
                                               const void* beta_array, void* const Carray[], trnDataType_t Ctype,
                                               const int64_t ldc_array[], int64_t group_count,
                                               const int64_t group_size[], trnblasComputeType_t computeType) {
  return grouped_ex<int64_t>(h, "trnblasGemmGroupedBatchedEx_64", transa_array, transb_array, m_array, n_array,
                             k_array, alpha_array, Aarray, enum_value(Atype), lda_array, Barray, enum_value(Btype),
                             ldb_array, beta_array, Carray, enum_value(Ctype), ldc_array, group_count, group_size,
                             enum_value(computeType));
}

trnblasStatus_t trnblasDgemmStridedBatched(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m,
                                           int n, int k, const double* alpha, const double* A, int lda, long long sa,
                                           const double* B, int ldb, long long sb, const double* beta, double* C,
                                           int ldc, long long sc, int batchCount) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  return strided_impl<int>(h, "trnblasDgemmStridedBatched", kSgemmStridedPos, enum_value(ta), enum_value(tb), m, n, k,
                           alpha, A, TRN_R_64F, lda, sa, B, TRN_R_64F, ldb, sb, beta, C, TRN_R_64F, ldc, sc, batchCount,
                           TRNBLAS_COMPUTE_64F, TRNBLAS_GEMM_DEFAULT);
}
trnblasStatus_t trnblasDgemmStridedBatched_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb,
                                              int64_t m, int64_t n, int64_t k, const double* alpha, const double* A,
                                              int64_t lda, long long sa, const double* B, int64_t ldb, long long sb,
                                              const double* beta, double* C, int64_t ldc, long long sc,
                                              int64_t batchCount) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  return strided_impl<int64_t>(h, "trnblasDgemmStridedBatched_64", kSgemmStridedPos, enum_value(ta), enum_value(tb), m,
                               n, k, alpha, A, TRN_R_64F, lda, sa, B, TRN_R_64F, ldb, sb, beta, C, TRN_R_64F, ldc, sc,
                               batchCount, TRNBLAS_COMPUTE_64F, TRNBLAS_GEMM_DEFAULT);
}

trnblasStatus_t trnblasSsyrk(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans, int n, int k,
                             const float* alpha, const float* A, int lda, const float* beta, float* C, int ldc) {
  return syrk_impl<int, float>(h, "trnblasSsyrk", enum_value(uplo), enum_value(trans), n, k, alpha, A, lda, beta, C, ldc);
}
trnblasStatus_t trnblasSsyrk_64(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                                int64_t k, const float* alpha, const float* A, int64_t lda, const float* beta, float* C,
                                int64_t ldc) {
  return syrk_impl<int64_t, float>(h, "trnblasSsyrk_64", enum_value(uplo), enum_value(trans), n, k, alpha, A, lda, beta, C, ldc);
}
trnblasStatus_t trnblasDsyrk(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans, int n, int k,
                             const double* alpha, const double* A, int lda, const double* beta, double* C, int ldc) {
  return syrk_impl<int, double>(h, "trnblasDsyrk", enum_value(uplo), enum_value(trans), n, k, alpha, A, lda, beta, C, ldc);
}
trnblasStatus_t trnblasDsyrk_64(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                                int64_t k, const double* alpha, const double* A, int64_t lda, const double* beta,
                                double* C, int64_t ldc) {
  return syrk_impl<int64_t, double>(h, "trnblasDsyrk_64", enum_value(uplo), enum_value(trans), n, k, alpha, A, lda, beta, C, ldc);
}

}  // extern "C"

// ---- Name-compatibility forms (cuBLAS's older or fixed-type spellings of GemmEx) ---------------------
// Hgemm* = GemmEx with 16F A, B, C and COMPUTE_16F (half alpha/beta); SgemmEx = GemmEx with COMPUTE_32F
// (float scalars); CgemmEx / Cgemm3mEx = GemmEx with COMPUTE_32F on complex types (trnComplex scalars).
// Positions are each entry point's own (SgemmEx/CgemmEx: GemmEx's without computeType and algo).
namespace {
constexpr GemmPositions kGemmExNoComputePos{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 0, 0, 0};

template <class I>
trnblasStatus_t hgemm_impl(trnblasHandle_t h, const char* fn, trnblasOperation_t ta, trnblasOperation_t tb, I m, I n,
                           I k, const void* alpha, const void* const* Aarray, I lda, const void* const* Barray, I ldb,
                           const void* beta, void* const* Carray, I ldc, I batch, bool batched, const void* A,
                           const void* B, void* C) {
  return gemm_ex_impl<I>(h, fn, batched ? kSgemmBatchedPos : kGemmPos, enum_value(ta), enum_value(tb), m, n, k, alpha,
                         TRN_R_16F, lda, TRN_R_16F, ldb, beta, TRN_R_16F, ldc, batch, TRNBLAS_COMPUTE_16F,
                         TRNBLAS_GEMM_DEFAULT, batched ? arrays(Aarray, Barray, Carray) : single(A, B, C));
}
template <class I>
trnblasStatus_t gemm_ex_fixed(trnblasHandle_t h, const char* fn, trnblasOperation_t ta, trnblasOperation_t tb, I m,
                              I n, I k, const void* alpha, const void* A, trnDataType at, I lda, const void* B,
                              trnDataType bt, I ldb, const void* beta, void* C, trnDataType ct, I ldc) {
  return gemm_ex_impl<I>(h, fn, kGemmExNoComputePos, enum_value(ta), enum_value(tb), m, n, k, alpha, enum_value(at),
                         lda, enum_value(bt), ldb, beta, enum_value(ct), ldc, 1, TRNBLAS_COMPUTE_32F,
                         TRNBLAS_GEMM_DEFAULT, single(A, B, C));
}
}  // namespace

extern "C" {
#define TRNBLAS_HGEMM(SUF, I)                                                                                          \
  trnblasStatus_t trnblasHgemm##SUF(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, I m, I n, I k,    \
                                    const trnHalf* alpha, const trnHalf* A, I lda, const trnHalf* B, I ldb,            \
                                    const trnHalf* beta, trnHalf* C, I ldc) {                                          \
    return hgemm_impl<I>(h, "trnblasHgemm" #SUF, ta, tb, m, n, k, alpha, nullptr, lda, nullptr, ldb, beta, nullptr,    \
                         ldc, 1, false, A, B, C);                                                                      \
  }                                                                                                                    \
  trnblasStatus_t trnblasHgemmBatched##SUF(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, I m, I n,  \
                                           I k, const trnHalf* alpha, const trnHalf* const Aarray[], I lda,            \
                                           const trnHalf* const Barray[], I ldb, const trnHalf* beta,                  \
                                           trnHalf* const Carray[], I ldc, I batchCount) {                             \
    return hgemm_impl<I>(h, "trnblasHgemmBatched" #SUF, ta, tb, m, n, k, alpha,                                        \
                         reinterpret_cast<const void* const*>(Aarray), lda,                                            \
                         reinterpret_cast<const void* const*>(Barray), ldb, beta,                                      \
                         reinterpret_cast<void* const*>(Carray), ldc, batchCount, true, nullptr, nullptr, nullptr);    \
  }                                                                                                                    \
  trnblasStatus_t trnblasHgemmStridedBatched##SUF(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb,     \
                                                  I m, I n, I k, const trnHalf* alpha, const trnHalf* A, I lda,        \
                                                  long long sa, const trnHalf* B, I ldb, long long sb,                 \
                                                  const trnHalf* beta, trnHalf* C, I ldc, long long sc,                \
                                                  I batchCount) {                                                      \
    return strided_impl<I>(h, "trnblasHgemmStridedBatched" #SUF, kSgemmStridedPos, enum_value(ta), enum_value(tb), m, \
                           n, k, alpha, A, TRN_R_16F, lda, sa, B, TRN_R_16F, ldb, sb, beta, C, TRN_R_16F, ldc, sc,     \
                           batchCount, TRNBLAS_COMPUTE_16F, TRNBLAS_GEMM_DEFAULT);                                     \
  }
TRNBLAS_HGEMM(, int)
TRNBLAS_HGEMM(_64, int64_t)
#undef TRNBLAS_HGEMM

#define TRNBLAS_GEMM_EX_FIXED(NAME, SUF, I, S)                                                                        \
  trnblasStatus_t trnblas##NAME##SUF(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, I m, I n, I k,  \
                                     const S* alpha, const void* A, trnDataType at, I lda, const void* B,             \
                                     trnDataType bt, I ldb, const S* beta, void* C, trnDataType ct, I ldc) {          \
    return gemm_ex_fixed<I>(h, "trnblas" #NAME #SUF, ta, tb, m, n, k, alpha, A, at, lda, B, bt, ldb, beta, C, ct,     \
                            ldc);                                                                                     \
  }
TRNBLAS_GEMM_EX_FIXED(SgemmEx, , int, float)
TRNBLAS_GEMM_EX_FIXED(SgemmEx, _64, int64_t, float)
TRNBLAS_GEMM_EX_FIXED(CgemmEx, , int, trnComplex)
TRNBLAS_GEMM_EX_FIXED(CgemmEx, _64, int64_t, trnComplex)
TRNBLAS_GEMM_EX_FIXED(Cgemm3mEx, , int, trnComplex)
TRNBLAS_GEMM_EX_FIXED(Cgemm3mEx, _64, int64_t, trnComplex)
#undef TRNBLAS_GEMM_EX_FIXED
}  // extern "C"

// ---- Uint8gemmBias (trn::blas::gemm_u8_bias; docs/trnblas.md "Uint8gemmBias") --------------------

namespace {

// transa 1, transb 2, transc 3, m 4, n 5, k 6, A 7, A_bias 8, lda 9, B 10, B_bias 11, ldb 12, C 13,
// C_bias 14, ldc 15, C_mult 16, C_shift 17 (0..31: the reference's 32-bit shift).
trnblasStatus_t uint8gemm_bias(trnblasHandle_t h, int ta, int tb, int tc, int m, int n, int k, const unsigned char* A,
                               int a_bias, int lda, const unsigned char* B, int b_bias, int ldb, unsigned char* C,
                               int c_bias, int ldc, int c_mult, int c_shift) {
  const char* fn = "trnblasUint8gemmBias";
  if (!blas_capi::valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const bool na = ta == TRNBLAS_OP_N, nb = tb == TRNBLAS_OP_N, nc = tc == TRNBLAS_OP_N;
  const std::int64_t ra = na ? m : k, ca = na ? k : m, rb = nb ? k : n, cb = nb ? n : k, rc = nc ? m : n, cc = nc ? n : m;
  const bool work = m > 0 && n > 0, reads = work && k > 0;
  auto check = arg_check(h, fn);
  check.one_of(ta, {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, 1, "transa")
      .one_of(tb, {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, 2, "transb")
      .one_of(tc, {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, 3, "transc")
      .nonnegative(m, 4, "m")
      .nonnegative(n, 5, "n")
      .nonnegative(k, 6, "k")
      .require(!reads || A != nullptr, 7, "A")
      .leading_dim(lda, ra, 9, "lda")
      .require(blas_capi::matrix_addressable(ra, ca, lda), 9, "lda")
      .require(!reads || B != nullptr, 10, "B")
      .leading_dim(ldb, rb, 12, "ldb")
      .require(blas_capi::matrix_addressable(rb, cb, ldb), 12, "ldb")
      .require(!work || C != nullptr, 13, "C")
      .leading_dim(ldc, rc, 15, "ldc")
      .require(blas_capi::matrix_addressable(rc, cc, ldc), 15, "ldc")
      .require(c_shift >= 0 && c_shift <= 31, 17, "C_shift");
  if (!check) return check.status();
  if (!work) return TRNBLAS_STATUS_SUCCESS;
  return blas_capi::run(h, fn, [&](const trn::blas::Settings& s, trn::blas::CallReport* r) {
    trn::blas::gemm_u8_bias(s, na ? Op::N : Op::T, nb ? Op::N : Op::T, !nc, m, n, k, A, a_bias, kernel_ld(lda, ra, ca), B,
                            b_bias, kernel_ld(ldb, rb, cb), C, c_bias, kernel_ld(ldc, rc, cc), c_mult, c_shift, r);
  });
}

}  // namespace

extern "C" trnblasStatus_t trnblasUint8gemmBias(trnblasHandle_t handle, trnblasOperation_t transa,
                                                trnblasOperation_t transb, trnblasOperation_t transc, int m, int n,
                                                int k, const unsigned char* A, int A_bias, int lda,
                                                const unsigned char* B, int B_bias, int ldb, unsigned char* C,
                                                int C_bias, int ldc, int C_mult, int C_shift) {
  return uint8gemm_bias(handle, enum_value(transa), enum_value(transb), enum_value(transc), m, n, k, A, A_bias, lda, B,
                        B_bias, ldb, C, C_bias, ldc, C_mult, C_shift);
}
