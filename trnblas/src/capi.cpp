// trnblas.h: the C shim. Validates every argument in cuBLAS/XERBLA order (logging the 1-based
// parameter position), maps enums to the C++ API, runs it, catches everything and returns a
// status. Nothing is written when a call fails validation.
#include "trnblas.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "trn/blas/blas.hpp"

using trn::blas::GemmMode;
using trn::blas::Op;

struct trnblasContext {
  trn::blas::Settings settings;
  trnStream_t stream = nullptr;
  trnblasPointerMode_t pointer_mode = TRNBLAS_POINTER_MODE_HOST;
  trnblasAtomicsMode_t atomics = TRNBLAS_ATOMICS_NOT_ALLOWED;
  trnblasMath_t math = TRNBLAS_DEFAULT_MATH;
  void* workspace = nullptr;
  size_t workspace_bytes = 0;
  trnblasEmulationStrategy_t strategy = TRNBLAS_EMULATION_STRATEGY_DEFAULT;
  trnblasEmulationSpecialValuesSupport_t special = TRNBLAS_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT;
  trnblasEmulationMantissaControl_t mantissa_control = TRNBLAS_EMULATION_MANTISSA_CONTROL_DYNAMIC;
  int max_mantissa_bits = 0;
  int mantissa_offset = 0;
  int* bits_used = nullptr;
  trnProfile_t last_profile{};
  int last_error_param = 0;
};

namespace {

// The integer a C caller passed for an enum parameter. C passes any int; reading an out-of-range
// value through the C++ enum type would be undefined behaviour, so the bits are copied instead and
// everything below the entry points works on ints.
template <class E>
int enum_bits(const E& e) {
  static_assert(sizeof(E) == sizeof(int), "C enums are int-sized");
  int v = 0;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

// trnDataType_t value (as the caller's int) -> DType; false for 64F and unknown values.
bool dtype_from_bits(int bits, trn::DType* out) {
  for (int i = 0; i < trn::kDTypeCount; ++i) {
    const auto t = static_cast<trn::DType>(i);
    if (static_cast<int>(trn::dtype_to_c(t)) == bits) {
      *out = t;
      return true;
    }
  }
  return false;
}

// ---- handles and logging ------------------------------------------------------------------------

std::mutex g_mu;
std::set<trnblasContext*>& live_handles() {
  static std::set<trnblasContext*> s;
  return s;
}

struct Logger {
  bool on = false, to_stdout = false, to_stderr = false;
  std::string file;
  trnblasLogCallback callback = nullptr;
  Logger() {
    // Mirrors CUBLAS_LOGINFO_DBG / CUBLAS_LOGDEST_DBG: TRNBLAS_LOGINFO_DBG=1 turns logging on,
    // TRNBLAS_LOGDEST_DBG = stdout | stderr | <file name>.
    if (const char* e = std::getenv("TRNBLAS_LOGINFO_DBG")) on = std::atoi(e) != 0;
    if (const char* d = std::getenv("TRNBLAS_LOGDEST_DBG")) {
      const std::string s = d;
      if (s == "stdout") to_stdout = true;
      else if (s == "stderr") to_stderr = true;
      else file = s;
    }
  }
};
Logger& logger() {
  static Logger l;
  return l;
}

void log_message(const std::string& msg) {
  std::lock_guard<std::mutex> lock(g_mu);
  Logger& l = logger();
  if (l.callback != nullptr) l.callback(msg.c_str());
  if (!l.on) return;
  if (l.to_stdout) std::fprintf(stdout, "%s\n", msg.c_str());
  if (l.to_stderr) std::fprintf(stderr, "%s\n", msg.c_str());
  if (!l.file.empty())
    if (FILE* f = std::fopen(l.file.c_str(), "a")) {
      std::fprintf(f, "%s\n", msg.c_str());
      std::fclose(f);
    }
}

bool valid(trnblasHandle_t h) {
  std::lock_guard<std::mutex> lock(g_mu);
  return h != nullptr && live_handles().count(h) != 0;
}

// Reports an illegal argument: XERBLA-style message with the parameter position, remembered on the handle.
trnblasStatus_t invalid(trnblasHandle_t h, const char* fn, int position, const char* name) {
  if (h != nullptr) h->last_error_param = position;
  log_message(std::string(" ** On entry to ") + fn + " parameter number " + std::to_string(position) + " (" + name +
              ") had an illegal value");
  return TRNBLAS_STATUS_INVALID_VALUE;
}

trnblasStatus_t fail(trnblasHandle_t h, const char* fn, trnblasStatus_t st, const std::string& why) {
  if (h != nullptr) h->last_error_param = 0;
  log_message(std::string(fn) + ": " + trnblasGetStatusName(st) + ": " + why);
  return st;
}

// Runs a compute body, mapping exceptions to statuses.
template <class F>
trnblasStatus_t guarded(trnblasHandle_t h, const char* fn, F&& body) {
  try {
    h->last_error_param = 0;
    body();
    return TRNBLAS_STATUS_SUCCESS;
  } catch (const trn::NotSupportedError& e) {
    return fail(h, fn, TRNBLAS_STATUS_NOT_SUPPORTED, e.what());
  } catch (const std::bad_alloc&) {
    return fail(h, fn, TRNBLAS_STATUS_ALLOC_FAILED, "out of memory");
  } catch (const trn::Error& e) {
    return fail(h, fn, TRNBLAS_STATUS_EXECUTION_FAILED, e.what());
  } catch (const std::exception& e) {
    return fail(h, fn, TRNBLAS_STATUS_INTERNAL_ERROR, e.what());
  } catch (...) {
    return fail(h, fn, TRNBLAS_STATUS_INTERNAL_ERROR, "unknown exception");
  }
}

void store_report(trnblasHandle_t h, const trn::blas::CallReport& r) {
  h->last_profile = r.profile.to_c();
  if (h->bits_used != nullptr) *h->bits_used = r.ozaki_mantissa_bits;
}

trn::blas::Settings settings_for(trnblasHandle_t h) {
  trn::blas::Settings s = h->settings;
  s.ozaki_fixed = h->mantissa_control == TRNBLAS_EMULATION_MANTISSA_CONTROL_FIXED;
  s.ozaki_max_mantissa_bits = h->max_mantissa_bits;
  s.ozaki_mantissa_bit_offset = h->mantissa_offset;
  s.ozaki_special_values = (h->special & (TRNBLAS_EMULATION_SPECIAL_VALUES_SUPPORT_INFINITY |
                                          TRNBLAS_EMULATION_SPECIAL_VALUES_SUPPORT_NAN)) != 0;
  return s;
}

bool op_ok(int op) { return op == TRNBLAS_OP_N || op == TRNBLAS_OP_T || op == TRNBLAS_OP_C; }
Op to_op(int op) { return op == TRNBLAS_OP_N ? Op::N : Op::T; }

// Mode of an fp32 GEMM under the handle's math mode: TF32_TENSOR_OP -> tf32; FP32_EMULATED_BF16X9
// -> bf16x9 when the strategy is EAGER (PERFORMANT/DEFAULT emulate only when it is cheaper, and
// 9 bf16 passes cost more TensorE time than the 4 passes of native fp32).
GemmMode fp32_mode(trnblasHandle_t h, bool pedantic) {
  if (pedantic || (h->math & 0xf) == TRNBLAS_PEDANTIC_MATH) return GemmMode::fp32;
  if ((h->math & 0xf) == TRNBLAS_TF32_TENSOR_OP_MATH) return GemmMode::tf32;
  if ((h->math & 0xf) == TRNBLAS_FP32_EMULATED_BF16X9_MATH && h->strategy == TRNBLAS_EMULATION_STRATEGY_EAGER)
    return GemmMode::bf16x9;
  return GemmMode::fp32;
}

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

// Reference-BLAS order of checks: transa, transb, m, n, k, lda, ldb, ldc, then pointers.
template <class I>
trnblasStatus_t check_gemm(trnblasHandle_t h, const char* fn, const GemmPositions& pos, int ta, int tb, I m, I n, I k, const void* alpha, bool need_a, const void* A, I lda,
                           const void* B, I ldb, const void* beta, const void* C, I ldc) {
  if (!op_ok(ta)) return invalid(h, fn, pos.transa, "transa");
  if (!op_ok(tb)) return invalid(h, fn, pos.transb, "transb");
  if (m < 0) return invalid(h, fn, pos.m, "m");
  if (n < 0) return invalid(h, fn, pos.n, "n");
  if (k < 0) return invalid(h, fn, pos.k, "k");
  const I rows_a = ta == TRNBLAS_OP_N ? m : k, rows_b = tb == TRNBLAS_OP_N ? k : n;
  if (lda < std::max<I>(1, rows_a)) return invalid(h, fn, pos.lda, "lda");
  if (ldb < std::max<I>(1, rows_b)) return invalid(h, fn, pos.ldb, "ldb");
  if (ldc < std::max<I>(1, m)) return invalid(h, fn, pos.ldc, "ldc");
  if (alpha == nullptr) return invalid(h, fn, pos.alpha, "alpha");
  if (beta == nullptr) return invalid(h, fn, pos.beta, "beta");
  if (m > 0 && n > 0) {
    if (need_a && A == nullptr) return invalid(h, fn, pos.A, "A");
    if (need_a && B == nullptr) return invalid(h, fn, pos.B, "B");
    if (C == nullptr) return invalid(h, fn, pos.C, "C");
  }
  return TRNBLAS_STATUS_SUCCESS;
}

bool dtype_ok_on_target(const trnblasHandle_t h, trn::DType t) {
  return t != trn::DType::f8e4m3fn || trn::hardware_spec(h->settings.target).fp8_e4m3fn_native;
}

// Resolves (Atype, Btype, Ctype, computeType) to a mode; returns a status for unsupported combinations.
struct ExPlan {
  bool f64 = false;
  GemmMode mode = GemmMode::fp32;
  trn::DType a = trn::DType::f32, b = trn::DType::f32, c = trn::DType::f32;
};
trnblasStatus_t plan_ex(trnblasHandle_t h, const char* fn, const GemmPositions& pos, int at_bits, int bt_bits, int ct_bits,
                        int compute, int algo, ExPlan* out) {
  const int at = at_bits, bt = bt_bits, ct = ct_bits;
  const bool algo_ok = (algo >= TRNBLAS_GEMM_DEFAULT && algo <= TRNBLAS_GEMM_ALGO23) ||
                       (algo >= TRNBLAS_GEMM_DEFAULT_TENSOR_OP && algo <= TRNBLAS_GEMM_ALGO15_TENSOR_OP) ||
                       algo == TRNBLAS_GEMM_AUTOTUNE;
  if (pos.algo > 0 && !algo_ok) return invalid(h, fn, pos.algo, "algo");
  switch (compute) {
    case TRNBLAS_COMPUTE_64F: case TRNBLAS_COMPUTE_64F_PEDANTIC: case TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT:
      if (at != TRN_R_64F || bt != TRN_R_64F || ct != TRN_R_64F)
        return fail(h, fn, TRNBLAS_STATUS_NOT_SUPPORTED, "64F compute types need 64F A, B and C");
      out->f64 = true;
      out->mode = GemmMode::fp64_ozaki;
      return TRNBLAS_STATUS_SUCCESS;
    case TRNBLAS_COMPUTE_16F: case TRNBLAS_COMPUTE_16F_PEDANTIC:
      return fail(h, fn, TRNBLAS_STATUS_NOT_SUPPORTED, "TensorE accumulates in fp32 PSUM only: use a 32F compute type");
    case TRNBLAS_COMPUTE_32I: case TRNBLAS_COMPUTE_32I_PEDANTIC:
      return fail(h, fn, TRNBLAS_STATUS_NOT_SUPPORTED, "nc_matmul exposes no integer matmul");
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
  switch (compute) {
    case TRNBLAS_COMPUTE_32F: out->mode = f32_in ? fp32_mode(h, false) : GemmMode::native; break;
    case TRNBLAS_COMPUTE_32F_PEDANTIC: out->mode = f32_in ? GemmMode::fp32 : GemmMode::native; break;
    case TRNBLAS_COMPUTE_32F_FAST_16F: out->mode = f32_in ? GemmMode::fp16 : GemmMode::native; break;
    case TRNBLAS_COMPUTE_32F_FAST_16BF: out->mode = f32_in ? GemmMode::bf16 : GemmMode::native; break;
    case TRNBLAS_COMPUTE_32F_FAST_TF32: out->mode = f32_in ? GemmMode::tf32 : GemmMode::native; break;
    case TRNBLAS_COMPUTE_32F_FAST_8F_E4M3: out->mode = f32_in ? GemmMode::fp8_e4m3 : GemmMode::native; break;
    case TRNBLAS_COMPUTE_32F_FAST_8F_E5M2: out->mode = f32_in ? GemmMode::fp8_e5m2 : GemmMode::native; break;
    default: {
      if (!f32_in) return fail(h, fn, TRNBLAS_STATUS_NOT_SUPPORTED, "emulated bf16xN compute types need 32F A and B");
      out->mode = compute == TRNBLAS_COMPUTE_32F_EMULATED_16BFX3 ? GemmMode::bf16x3
                  : compute == TRNBLAS_COMPUTE_32F_EMULATED_16BFX6 ? GemmMode::bf16x6 : GemmMode::bf16x9;
    }
  }
  return TRNBLAS_STATUS_SUCCESS;
}

// One GemmEx-family call over `batch` problems with per-problem pointers.
template <class I>
trnblasStatus_t gemm_ex_impl(trnblasHandle_t h, const char* fn, const GemmPositions& pos, int ta, int tb, I m, I n, I k,
                             const void* alpha, const void* const* As, int at, I lda, const void* const* Bs, int bt,
                             I ldb, const void* beta, void* const* Cs, int ct, I ldc, I batch, int compute, int algo) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  ExPlan plan;
  if (auto st = plan_ex(h, fn, pos, at, bt, ct, compute, algo, &plan); st != TRNBLAS_STATUS_SUCCESS) return st;
  if (pos.batch > 0 && batch < 0) return invalid(h, fn, pos.batch, "batchCount");
  const bool zero_alpha = alpha != nullptr && (plan.f64 ? *static_cast<const double*>(alpha) == 0.0
                                                         : *static_cast<const float*>(alpha) == 0.0f);
  const bool need_ab = !zero_alpha && k > 0;
  // Scalar arguments are checked even for an empty batch; pointers of every batch entry after them.
  static const char kPresent = 0;
  if (auto st = check_gemm<I>(h, fn, pos, ta, tb, m, n, k, alpha, need_ab, &kPresent, lda, &kPresent, ldb, beta,
                              &kPresent, ldc);
      st != TRNBLAS_STATUS_SUCCESS)
    return st;
  for (I b = 0; b < batch; ++b)
    if (auto st = check_gemm<I>(h, fn, pos, ta, tb, m, n, k, alpha, need_ab, As[b], lda, Bs[b], ldb, beta, Cs[b], ldc);
        st != TRNBLAS_STATUS_SUCCESS)
      return st;
  if (batch == 0) return TRNBLAS_STATUS_SUCCESS;
  trn::blas::CallReport report;
  const trnblasStatus_t st = guarded(h, fn, [&] {
    const trn::blas::Settings s = settings_for(h);
    if (plan.f64) {
      trn::blas::CallReport one;
      for (I b = 0; b < batch; ++b) {
        trn::blas::dgemm(s, to_op(ta), to_op(tb), m, n, k, *static_cast<const double*>(alpha),
                         static_cast<const double*>(As[b]), lda, static_cast<const double*>(Bs[b]), ldb,
                         *static_cast<const double*>(beta), static_cast<double*>(Cs[b]), ldc, &one);
        report.trace.append(one.trace);
        report.ozaki_mantissa_bits = one.ozaki_mantissa_bits;
      }
      report.profile = trn::model_profile(report.trace, s.target);
      return;
    }
    std::vector<trn::blas::MatrixRef> a, bb;
    std::vector<trn::blas::MutableMatrixRef> c;
    for (I b = 0; b < batch; ++b) {
      a.push_back({As[b], plan.a, static_cast<std::int64_t>(lda)});
      bb.push_back({Bs[b], plan.b, static_cast<std::int64_t>(ldb)});
      c.push_back({Cs[b], plan.c, static_cast<std::int64_t>(ldc)});
    }
    trn::blas::gemm_batched(s, plan.mode, to_op(ta), to_op(tb), m, n, k, *static_cast<const float*>(alpha), a, bb,
                            *static_cast<const float*>(beta), c, &report);
  });
  if (st == TRNBLAS_STATUS_SUCCESS) store_report(h, report);
  return st;
}

template <class I, class T>
trnblasStatus_t gemm_typed(trnblasHandle_t h, const char* fn, int ta, int tb, I m, I n, I k, const T* alpha, const T* A, I lda, const T* B, I ldb, const T* beta, T* C, I ldc) {
  const void* a[1] = {A};
  const void* b[1] = {B};
  void* c[1] = {C};
  constexpr bool f64 = std::is_same_v<T, double>;
  const int compute = f64 ? TRNBLAS_COMPUTE_64F : TRNBLAS_COMPUTE_32F;
  const int dt = f64 ? TRN_R_64F : TRN_R_32F;
  return gemm_ex_impl<I>(h, fn, kGemmPos, ta, tb, m, n, k, alpha, a, dt, lda, b, dt, ldb, beta, c, dt, ldc, I{1},
                         compute, TRNBLAS_GEMM_DEFAULT);
}

template <class I>
trnblasStatus_t strided_impl(trnblasHandle_t h, const char* fn, const GemmPositions& pos, int ta, int tb, I m, I n, I k,
                             const void* alpha, const void* A, int at, I lda, long long sa, const void* B, int bt, I ldb,
                             long long sb, const void* beta, void* C, int ct, I ldc, long long sc, I batch, int compute,
                             int algo) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  if (batch < 0) return invalid(h, fn, pos.batch, "batchCount");
  const std::size_t es_a = at == TRN_R_64F ? 8 : 0, es_c = ct == TRN_R_64F ? 8 : 0;
  trn::DType d;
  const std::size_t ea = es_a ? es_a : (dtype_from_bits(at, &d) ? static_cast<std::size_t>(trn::dtype_size(d)) : 4);
  const std::size_t eb = bt == TRN_R_64F ? 8 : (dtype_from_bits(bt, &d) ? static_cast<std::size_t>(trn::dtype_size(d)) : 4);
  const std::size_t ec = es_c ? es_c : (dtype_from_bits(ct, &d) ? static_cast<std::size_t>(trn::dtype_size(d)) : 4);
  std::vector<const void*> as(static_cast<std::size_t>(batch)), bs(static_cast<std::size_t>(batch));
  std::vector<void*> cs(static_cast<std::size_t>(batch));
  for (I b = 0; b < batch; ++b) {
    as[static_cast<std::size_t>(b)] = A == nullptr ? nullptr : static_cast<const char*>(A) + b * sa * static_cast<long long>(ea);
    bs[static_cast<std::size_t>(b)] = B == nullptr ? nullptr : static_cast<const char*>(B) + b * sb * static_cast<long long>(eb);
    cs[static_cast<std::size_t>(b)] = C == nullptr ? nullptr : static_cast<char*>(C) + b * sc * static_cast<long long>(ec);
  }
  return gemm_ex_impl<I>(h, fn, pos, ta, tb, m, n, k, alpha, as.data(), at, lda, bs.data(), bt, ldb, beta, cs.data(), ct,
                         ldc, batch, compute, algo);
}

template <class I, class T>
trnblasStatus_t syrk_impl(trnblasHandle_t h, const char* fn, int uplo, int trans, I n, I k,
                          const T* alpha, const T* A, I lda, const T* beta, T* C, I ldc) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  if (uplo != TRNBLAS_FILL_MODE_LOWER && uplo != TRNBLAS_FILL_MODE_UPPER) return invalid(h, fn, 1, "uplo");
  if (!op_ok(trans)) return invalid(h, fn, 2, "trans");
  if (n < 0) return invalid(h, fn, 3, "n");
  if (k < 0) return invalid(h, fn, 4, "k");
  if (lda < std::max<I>(1, trans == TRNBLAS_OP_N ? n : k)) return invalid(h, fn, 7, "lda");
  if (ldc < std::max<I>(1, n)) return invalid(h, fn, 10, "ldc");
  if (alpha == nullptr) return invalid(h, fn, 5, "alpha");
  if (beta == nullptr) return invalid(h, fn, 8, "beta");
  if (n > 0 && *alpha != T(0) && k > 0 && A == nullptr) return invalid(h, fn, 6, "A");
  if (n > 0 && C == nullptr) return invalid(h, fn, 9, "C");
  trn::blas::CallReport report;
  const trnblasStatus_t st = guarded(h, fn, [&] {
    const trn::blas::Settings s = settings_for(h);
    const auto ul = uplo == TRNBLAS_FILL_MODE_LOWER ? trn::blas::Uplo::lower : trn::blas::Uplo::upper;
    if constexpr (std::is_same_v<T, double>)
      trn::blas::dsyrk(s, ul, to_op(trans), n, k, *alpha, A, lda, *beta, C, ldc, &report);
    else
      trn::blas::syrk(s, fp32_mode(h, false), ul, to_op(trans), n, k, *alpha, {A, trn::DType::f32, lda}, *beta,
                      {C, trn::DType::f32, ldc}, &report);
  });
  if (st == TRNBLAS_STATUS_SUCCESS) store_report(h, report);
  return st;
}

}  // namespace

extern "C" {

trnblasStatus_t trnblasCreate(trnblasHandle_t* handle) {
  if (handle == nullptr) return TRNBLAS_STATUS_INVALID_VALUE;
  trnblasContext* h = new (std::nothrow) trnblasContext();
  if (h == nullptr) return TRNBLAS_STATUS_ALLOC_FAILED;
  // Mirrors CUBLAS_EMULATION_STRATEGY.
  if (const char* e = std::getenv("TRNBLAS_EMULATION_STRATEGY")) {
    const std::string v = e;
    if (v == "eager") h->strategy = TRNBLAS_EMULATION_STRATEGY_EAGER;
    else if (v == "performant") h->strategy = TRNBLAS_EMULATION_STRATEGY_PERFORMANT;
  }
  h->last_profile.target = TRN_TARGET_TRN1;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    live_handles().insert(h);
  }
  *handle = h;
  return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasDestroy(trnblasHandle_t handle) {
  {
    std::lock_guard<std::mutex> lock(g_mu);
    if (handle == nullptr || live_handles().erase(handle) == 0) return TRNBLAS_STATUS_NOT_INITIALIZED;
  }
  delete handle;
  return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasGetVersion(trnblasHandle_t handle, int* version) {
  if (!valid(handle)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  if (version == nullptr) return invalid(handle, "trnblasGetVersion", 1, "version");
  *version = TRNBLAS_VERSION;
  return TRNBLAS_STATUS_SUCCESS;
}

const char* trnblasGetStatusName(trnblasStatus_t s) {
  switch (s) {
    case TRNBLAS_STATUS_SUCCESS: return "TRNBLAS_STATUS_SUCCESS";
    case TRNBLAS_STATUS_NOT_INITIALIZED: return "TRNBLAS_STATUS_NOT_INITIALIZED";
    case TRNBLAS_STATUS_ALLOC_FAILED: return "TRNBLAS_STATUS_ALLOC_FAILED";
    case TRNBLAS_STATUS_INVALID_VALUE: return "TRNBLAS_STATUS_INVALID_VALUE";
    case TRNBLAS_STATUS_ARCH_MISMATCH: return "TRNBLAS_STATUS_ARCH_MISMATCH";
    case TRNBLAS_STATUS_MAPPING_ERROR: return "TRNBLAS_STATUS_MAPPING_ERROR";
    case TRNBLAS_STATUS_EXECUTION_FAILED: return "TRNBLAS_STATUS_EXECUTION_FAILED";
    case TRNBLAS_STATUS_INTERNAL_ERROR: return "TRNBLAS_STATUS_INTERNAL_ERROR";
    case TRNBLAS_STATUS_NOT_SUPPORTED: return "TRNBLAS_STATUS_NOT_SUPPORTED";
    case TRNBLAS_STATUS_LICENSE_ERROR: return "TRNBLAS_STATUS_LICENSE_ERROR";
  }
  return "<unknown>";
}

const char* trnblasGetStatusString(trnblasStatus_t s) {
  switch (s) {
    case TRNBLAS_STATUS_SUCCESS: return "success";
    case TRNBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized (null or destroyed handle)";
    case TRNBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case TRNBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case TRNBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
    case TRNBLAS_STATUS_MAPPING_ERROR: return "an access to memory space failed";
    case TRNBLAS_STATUS_EXECUTION_FAILED: return "the emulated kernel failed to execute";
    case TRNBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case TRNBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
    case TRNBLAS_STATUS_LICENSE_ERROR: return "error detected trying to check the license";
  }
  return "unknown status";
}

#define TRNBLAS_SETTER(Name, Type, field, check)                              \
  trnblasStatus_t trnblasSet##Name(trnblasHandle_t h, Type v) {              \
    if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;                    \
    if (!(check)) return invalid(h, "trnblasSet" #Name, 1, #Name);          \
    h->field = v;                                                            \
    return TRNBLAS_STATUS_SUCCESS;                                           \
  }                                                                          \
  trnblasStatus_t trnblasGet##Name(trnblasHandle_t h, Type* v) {             \
    if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;                    \
    if (v == nullptr) return invalid(h, "trnblasGet" #Name, 1, #Name);      \
    *v = h->field;                                                           \
    return TRNBLAS_STATUS_SUCCESS;                                           \
  }
// Enum settings: the value is checked as the caller's int before it is used as the enum type.
#define TRNBLAS_ENUM_SETTER(Name, Type, field, check)                         \
  trnblasStatus_t trnblasSet##Name(trnblasHandle_t h, Type value) {          \
    if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;                    \
    const int v = enum_bits(value);                                          \
    if (!(check)) return invalid(h, "trnblasSet" #Name, 1, #Name);          \
    h->field = static_cast<Type>(v);                                         \
    return TRNBLAS_STATUS_SUCCESS;                                           \
  }                                                                          \
  trnblasStatus_t trnblasGet##Name(trnblasHandle_t h, Type* out) {           \
    if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;                    \
    if (out == nullptr) return invalid(h, "trnblasGet" #Name, 1, #Name);    \
    *out = h->field;                                                         \
    return TRNBLAS_STATUS_SUCCESS;                                           \
  }

TRNBLAS_SETTER(Stream, trnStream_t, stream, true)
TRNBLAS_ENUM_SETTER(PointerMode, trnblasPointerMode_t, pointer_mode, v == TRNBLAS_POINTER_MODE_HOST || v == TRNBLAS_POINTER_MODE_DEVICE)
TRNBLAS_ENUM_SETTER(AtomicsMode, trnblasAtomicsMode_t, atomics, v == TRNBLAS_ATOMICS_NOT_ALLOWED || v == TRNBLAS_ATOMICS_ALLOWED)
TRNBLAS_ENUM_SETTER(MathMode, trnblasMath_t, math,
                    ((v & 0xf) <= TRNBLAS_FP32_EMULATED_BF16X9_MATH || (v & 0xf) == TRNBLAS_FP64_EMULATED_FIXEDPOINT_MATH) &&
                        (v & ~0x1f) == 0)
TRNBLAS_ENUM_SETTER(EmulationStrategy, trnblasEmulationStrategy_t, strategy,
                    v >= TRNBLAS_EMULATION_STRATEGY_DEFAULT && v <= TRNBLAS_EMULATION_STRATEGY_EAGER)
TRNBLAS_ENUM_SETTER(EmulationSpecialValuesSupport, trnblasEmulationSpecialValuesSupport_t, special, (v & ~0xFFFF) == 0)
TRNBLAS_ENUM_SETTER(FixedPointEmulationMantissaControl, trnblasEmulationMantissaControl_t, mantissa_control,
                    v == TRNBLAS_EMULATION_MANTISSA_CONTROL_DYNAMIC || v == TRNBLAS_EMULATION_MANTISSA_CONTROL_FIXED)
TRNBLAS_SETTER(FixedPointEmulationMaxMantissaBitCount, int, max_mantissa_bits, v >= 0)
TRNBLAS_SETTER(FixedPointEmulationMantissaBitOffset, int, mantissa_offset, v <= 0 && v > -1024)
TRNBLAS_SETTER(FixedPointEmulationMantissaBitCountPointer, int*, bits_used, true)
TRNBLAS_SETTER(NumCores, int, settings.num_cores, v >= 1 && v <= 64)
#undef TRNBLAS_SETTER
#undef TRNBLAS_ENUM_SETTER

trnblasStatus_t trnblasSetWorkspace(trnblasHandle_t h, void* workspace, size_t bytes) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  if (workspace == nullptr && bytes != 0) return invalid(h, "trnblasSetWorkspace", 1, "workspace");
  h->workspace = workspace;  // accepted and stored: kernels keep their working set in SBUF/PSUM
  h->workspace_bytes = bytes;
  return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasLoggerConfigure(int logIsOn, int logToStdOut, int logToStdErr, const char* logFileName) {
  std::lock_guard<std::mutex> lock(g_mu);
  Logger& l = logger();
  l.on = logIsOn != 0;
  l.to_stdout = logToStdOut != 0;
  l.to_stderr = logToStdErr != 0;
  l.file = logFileName != nullptr ? logFileName : "";
  return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasSetLoggerCallback(trnblasLogCallback cb) {
  std::lock_guard<std::mutex> lock(g_mu);
  logger().callback = cb;
  return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasGetLoggerCallback(trnblasLogCallback* cb) {
  if (cb == nullptr) return TRNBLAS_STATUS_INVALID_VALUE;
  std::lock_guard<std::mutex> lock(g_mu);
  *cb = logger().callback;
  return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasSetTarget(trnblasHandle_t h, trnTarget_t target) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const int t = enum_bits(target);
  if (t != TRN_TARGET_TRN1 && t != TRN_TARGET_TRN2 && t != TRN_TARGET_TRN3) return invalid(h, "trnblasSetTarget", 1, "target");
  h->settings.target = static_cast<trn::Generation>(t);
  return TRNBLAS_STATUS_SUCCESS;
}
trnblasStatus_t trnblasGetTarget(trnblasHandle_t h, trnTarget_t* t) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  if (t == nullptr) return invalid(h, "trnblasGetTarget", 1, "target");
  *t = static_cast<trnTarget_t>(h->settings.target);
  return TRNBLAS_STATUS_SUCCESS;
}
trnblasStatus_t trnblasSetNumericsProfile(trnblasHandle_t h, trnNumerics_t profile) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const int p = enum_bits(profile);
  if (p != TRN_NUMERICS_IDEAL && p != TRN_NUMERICS_TRN1_MEASURED) return invalid(h, "trnblasSetNumericsProfile", 1, "profile");
  h->settings.numerics = static_cast<trn::Numerics>(p);
  return TRNBLAS_STATUS_SUCCESS;
}
trnblasStatus_t trnblasGetNumericsProfile(trnblasHandle_t h, trnNumerics_t* p) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  if (p == nullptr) return invalid(h, "trnblasGetNumericsProfile", 1, "profile");
  *p = static_cast<trnNumerics_t>(h->settings.numerics);
  return TRNBLAS_STATUS_SUCCESS;
}
trnblasStatus_t trnblasSetStochasticRounding(trnblasHandle_t h, int enable, unsigned long long seed) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  h->settings.stochastic_rounding = enable != 0;
  h->settings.sr_seed = seed;
  return TRNBLAS_STATUS_SUCCESS;
}
trnblasStatus_t trnblasGetStochasticRounding(trnblasHandle_t h, int* enable, unsigned long long* seed) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  if (enable == nullptr) return invalid(h, "trnblasGetStochasticRounding", 1, "enable");
  if (seed == nullptr) return invalid(h, "trnblasGetStochasticRounding", 2, "seed");
  *enable = h->settings.stochastic_rounding ? 1 : 0;
  *seed = h->settings.sr_seed;
  return TRNBLAS_STATUS_SUCCESS;
}
trnblasStatus_t trnblasGetLastProfile(trnblasHandle_t h, trnProfile_t* p) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  if (p == nullptr) return invalid(h, "trnblasGetLastProfile", 1, "profile");
  *p = h->last_profile;
  return TRNBLAS_STATUS_SUCCESS;
}
trnblasStatus_t trnblasGetLastErrorParameter(trnblasHandle_t h, int* position) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  if (position == nullptr) return TRNBLAS_STATUS_INVALID_VALUE;
  *position = h->last_error_param;
  return TRNBLAS_STATUS_SUCCESS;
}

// ---- compute ----

trnblasStatus_t trnblasSgemm(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m, int n, int k,
                             const float* alpha, const float* A, int lda, const float* B, int ldb, const float* beta,
                             float* C, int ldc) {
  return gemm_typed<int, float>(h, "trnblasSgemm", enum_bits(ta), enum_bits(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
trnblasStatus_t trnblasSgemm_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int64_t m, int64_t n,
                                int64_t k, const float* alpha, const float* A, int64_t lda, const float* B, int64_t ldb,
                                const float* beta, float* C, int64_t ldc) {
  return gemm_typed<int64_t, float>(h, "trnblasSgemm_64", enum_bits(ta), enum_bits(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
trnblasStatus_t trnblasDgemm(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m, int n, int k,
                             const double* alpha, const double* A, int lda, const double* B, int ldb,
                             const double* beta, double* C, int ldc) {
  return gemm_typed<int, double>(h, "trnblasDgemm", enum_bits(ta), enum_bits(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
trnblasStatus_t trnblasDgemm_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int64_t m, int64_t n,
                                int64_t k, const double* alpha, const double* A, int64_t lda, const double* B,
                                int64_t ldb, const double* beta, double* C, int64_t ldc) {
  return gemm_typed<int64_t, double>(h, "trnblasDgemm_64", enum_bits(ta), enum_bits(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

trnblasStatus_t trnblasGemmEx(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m, int n, int k,
                              const void* alpha, const void* A, trnDataType_t at, int lda, const void* B,
                              trnDataType_t bt, int ldb, const void* beta, void* C, trnDataType_t ct, int ldc,
                              trnblasComputeType_t compute, trnblasGemmAlgo_t algo) {
  const void* a[1] = {A};
  const void* b[1] = {B};
  void* c[1] = {C};
  return gemm_ex_impl<int>(h, "trnblasGemmEx", kGemmExPos, enum_bits(ta), enum_bits(tb), m, n, k, alpha, a, enum_bits(at), lda, b, enum_bits(bt), ldb, beta, c, enum_bits(ct),
                           ldc, 1, enum_bits(compute), enum_bits(algo));
}
trnblasStatus_t trnblasGemmEx_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int64_t m, int64_t n,
                                 int64_t k, const void* alpha, const void* A, trnDataType_t at, int64_t lda,
                                 const void* B, trnDataType_t bt, int64_t ldb, const void* beta, void* C,
                                 trnDataType_t ct, int64_t ldc, trnblasComputeType_t compute, trnblasGemmAlgo_t algo) {
  const void* a[1] = {A};
  const void* b[1] = {B};
  void* c[1] = {C};
  return gemm_ex_impl<int64_t>(h, "trnblasGemmEx_64", kGemmExPos, enum_bits(ta), enum_bits(tb), m, n, k, alpha, a, enum_bits(at), lda, b, enum_bits(bt), ldb, beta,
                               c, enum_bits(ct), ldc, 1, enum_bits(compute), enum_bits(algo));
}

trnblasStatus_t trnblasGemmBatchedEx(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m, int n,
                                     int k, const void* alpha, const void* const Aarray[], trnDataType_t at, int lda,
                                     const void* const Barray[], trnDataType_t bt, int ldb, const void* beta,
                                     void* const Carray[], trnDataType_t ct, int ldc, int batchCount,
                                     trnblasComputeType_t compute, trnblasGemmAlgo_t algo) {
  if (valid(h) && batchCount > 0 && (Aarray == nullptr || Barray == nullptr || Carray == nullptr))
    return invalid(h, "trnblasGemmBatchedEx", Aarray == nullptr ? 7 : Barray == nullptr ? 10 : 14, "array");
  return gemm_ex_impl<int>(h, "trnblasGemmBatchedEx", kGemmBatchedExPos, enum_bits(ta), enum_bits(tb), m, n, k, alpha, Aarray, enum_bits(at), lda,
                           Barray, enum_bits(bt), ldb, beta, Carray, enum_bits(ct), ldc, batchCount, enum_bits(compute), enum_bits(algo));
}
trnblasStatus_t trnblasGemmBatchedEx_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int64_t m,
                                        int64_t n, int64_t k, const void* alpha, const void* const Aarray[],
                                        trnDataType_t at, int64_t lda, const void* const Barray[], trnDataType_t bt,
                                        int64_t ldb, const void* beta, void* const Carray[], trnDataType_t ct,
                                        int64_t ldc, int64_t batchCount, trnblasComputeType_t compute,
                                        trnblasGemmAlgo_t algo) {
  if (valid(h) && batchCount > 0 && (Aarray == nullptr || Barray == nullptr || Carray == nullptr))
    return invalid(h, "trnblasGemmBatchedEx_64", Aarray == nullptr ? 7 : Barray == nullptr ? 10 : 14, "array");
  return gemm_ex_impl<int64_t>(h, "trnblasGemmBatchedEx_64", kGemmBatchedExPos, enum_bits(ta), enum_bits(tb), m, n, k, alpha, Aarray, enum_bits(at),
                               lda, Barray, enum_bits(bt), ldb, beta, Carray, enum_bits(ct), ldc, batchCount, enum_bits(compute), enum_bits(algo));
}

trnblasStatus_t trnblasGemmStridedBatchedEx(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m,
                                            int n, int k, const void* alpha, const void* A, trnDataType_t at, int lda,
                                            long long sa, const void* B, trnDataType_t bt, int ldb, long long sb,
                                            const void* beta, void* C, trnDataType_t ct, int ldc, long long sc,
                                            int batchCount, trnblasComputeType_t compute, trnblasGemmAlgo_t algo) {
  return strided_impl<int>(h, "trnblasGemmStridedBatchedEx", kGemmStridedExPos, enum_bits(ta), enum_bits(tb), m, n, k, alpha, A, enum_bits(at), lda, sa,
                           B, enum_bits(bt), ldb, sb, beta, C, enum_bits(ct), ldc, sc, batchCount, enum_bits(compute), enum_bits(algo));
}
trnblasStatus_t trnblasGemmStridedBatchedEx_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb,
                                               int64_t m, int64_t n, int64_t k, const void* alpha, const void* A,
                                               trnDataType_t at, int64_t lda, long long sa, const void* B,
                                               trnDataType_t bt, int64_t ldb, long long sb, const void* beta, void* C,
                                               trnDataType_t ct, int64_t ldc, long long sc, int64_t batchCount,
                                               trnblasComputeType_t compute, trnblasGemmAlgo_t algo) {
  return strided_impl<int64_t>(h, "trnblasGemmStridedBatchedEx_64", kGemmStridedExPos, enum_bits(ta), enum_bits(tb), m, n, k, alpha, A, enum_bits(at),
                               lda, sa, B, enum_bits(bt), ldb, sb, beta, C, enum_bits(ct), ldc, sc, batchCount, enum_bits(compute), enum_bits(algo));
}

trnblasStatus_t trnblasSgemmStridedBatched(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, int m,
                                           int n, int k, const float* alpha, const float* A, int lda, long long sa,
                                           const float* B, int ldb, long long sb, const float* beta, float* C, int ldc,
                                           long long sc, int batchCount) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  return strided_impl<int>(h, "trnblasSgemmStridedBatched", kSgemmStridedPos, enum_bits(ta), enum_bits(tb), m, n, k, alpha, A, TRN_R_32F,
                           lda, sa, B, TRN_R_32F, ldb, sb, beta, C, TRN_R_32F, ldc, sc, batchCount,
                           TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT);
}
trnblasStatus_t trnblasSgemmStridedBatched_64(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb,
                                              int64_t m, int64_t n, int64_t k, const float* alpha, const float* A,
                                              int64_t lda, long long sa, const float* B, int64_t ldb, long long sb,
                                              const float* beta, float* C, int64_t ldc, long long sc,
                                              int64_t batchCount) {
  if (!valid(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  return strided_impl<int64_t>(h, "trnblasSgemmStridedBatched_64", kSgemmStridedPos, enum_bits(ta), enum_bits(tb), m, n, k, alpha, A,
                               TRN_R_32F, lda, sa, B, TRN_R_32F, ldb, sb, beta, C, TRN_R_32F, ldc, sc, batchCount,
                               TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT);
}

trnblasStatus_t trnblasSsyrk(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans, int n, int k,
                             const float* alpha, const float* A, int lda, const float* beta, float* C, int ldc) {
  return syrk_impl<int, float>(h, "trnblasSsyrk", enum_bits(uplo), enum_bits(trans), n, k, alpha, A, lda, beta, C, ldc);
}
trnblasStatus_t trnblasSsyrk_64(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                                int64_t k, const float* alpha, const float* A, int64_t lda, const float* beta, float* C,
                                int64_t ldc) {
  return syrk_impl<int64_t, float>(h, "trnblasSsyrk_64", enum_bits(uplo), enum_bits(trans), n, k, alpha, A, lda, beta, C, ldc);
}
trnblasStatus_t trnblasDsyrk(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans, int n, int k,
                             const double* alpha, const double* A, int lda, const double* beta, double* C, int ldc) {
  return syrk_impl<int, double>(h, "trnblasDsyrk", enum_bits(uplo), enum_bits(trans), n, k, alpha, A, lda, beta, C, ldc);
}
trnblasStatus_t trnblasDsyrk_64(trnblasHandle_t h, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                                int64_t k, const double* alpha, const double* A, int64_t lda, const double* beta,
                                double* C, int64_t ldc) {
  return syrk_impl<int64_t, double>(h, "trnblasDsyrk_64", enum_bits(uplo), enum_bits(trans), n, k, alpha, A, lda, beta, C, ldc);
}

}  // extern "C"
