// trnblas GEMM/SYRK drivers: argument handling, mode -> kernel configuration, the Ozaki scheme's
// host-side slicing and reconstruction, and the call report. The kernels are in gemm_kernel.cpp.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "gemm_kernel.hpp"
#include "trn/blas/blas.hpp"
#include "trn/blas/modes.hpp"

namespace trn::blas {

const char* gemm_mode_name(GemmMode m) { return mode_traits(m).name; }

namespace {

using detail::BlockGemmArgs;
using detail::Triangle;

LaunchConfig launch_config(const Settings& s) { return s.launch_config(); }

// op(X) of an (rows x cols after op) column-major matrix as an HBM [K, F] view: row index = the
// contraction index, free index = the other one. `contraction_first` says whether op(X) is K x F.
HbmTensor view_kf(const void* data, DType t, std::int64_t ld, bool x_is_kf_colmajor_transposed, std::int64_t K,
                  std::int64_t F) {
  // Column-major X: element (r, c) at r + c * ld.
  // If op(X)[f, k] (f rows, k columns) = X[f, k]  -> view[k][f] = X[f + k ld]: strides {ld, 1}.
  // If op(X)[f, k] = X[k, f] (transposed)         -> view[k][f] = X[k + f ld]: strides {1, ld}.
  void* p = const_cast<void*>(data);
  return x_is_kf_colmajor_transposed ? HbmTensor::wrap(p, t, {K, F}, {1, ld}) : HbmTensor::wrap(p, t, {K, F}, {ld, 1});
}

// The mode's facts come from its ModeTraits row (trn/blas/modes.hpp).
std::vector<std::pair<int, int>> term_pairs(GemmMode m) {
  const auto p = mode_traits(m).pairs;
  return {p.begin(), p.end()};
}

int split_of(GemmMode m) { return std::max(1, mode_traits(m).terms); }

DType load_dtype(GemmMode m, DType stored) {
  if (m == GemmMode::native) return stored;
  const ModeTraits& t = mode_traits(m);
  return t.terms > 1 ? DType::f32 : t.load_dtype;  // split modes load fp32 and split on VectorE
}

// Kernel arguments of one fp32-class problem, without its operand views.
BlockGemmArgs block_args(GemmMode mode, std::int64_t m, std::int64_t n, std::int64_t k, float alpha, float beta,
                         DType a_dtype, const MutableMatrixRef& C) {
  BlockGemmArgs g;
  g.m = m;
  g.n = n;
  g.k_end = k;
  g.multiply = alpha != 0.0f;
  g.load = load_dtype(mode, a_dtype);
  g.split = split_of(mode);
  g.pairs = term_pairs(mode);
  g.c = HbmTensor::wrap(C.data, C.dtype, {n, m}, {C.ld, 1});  // C as [N, M]: row j = column j of C
  g.alpha = alpha;
  g.beta = beta;
  return g;
}

void finish_report(CallReport* r, const Settings& s, Trace&& t) {
  if (r == nullptr) return;
  r->profile = model_profile(t, s.target);
  r->profile.cores = std::max(1, s.num_cores);
  r->tensor_passes = t.per_engine[static_cast<int>(Engine::tensor)];
  r->trace = std::move(t);
}

void require(bool ok, const char* what) {
  if (!ok) throw UsageError("trnblas", "argument", what);
}

// ---- Ozaki scheme (fp64) ------------------------------------------------------------------------

constexpr int kSliceBits = 8;               // |slice| <= 255: exact in bf16 (8 significant bits)
constexpr double kSliceScale = 1 << kSliceBits;
constexpr std::int64_t kOzakiKChunk = 256;  // 256 * 255^2 < 2^24: every partial sum exact in fp32

// Exponent e with |x| < 2^e for the largest |x| (0 for all-zero vectors), and the spread in binary
// orders of magnitude between the largest and the smallest nonzero element.
struct Scale {
  int e = 0;
  int spread = 0;
};

template <class Get>
Scale scale_of(std::int64_t len, Get&& get) {
  double mx = 0, mn = std::numeric_limits<double>::infinity();
  for (std::int64_t i = 0; i < len; ++i) {
    const double a = std::fabs(get(i));
    if (a == 0 || !std::isfinite(a)) continue;  // Inf/NaN are handled apart (special values)
    mx = std::max(mx, a);
    mn = std::min(mn, a);
  }
  Scale s;
  if (mx == 0) return s;
  int emx, emn;
  std::frexp(mx, &emx);  // mx = f * 2^emx, f in [0.5, 1): |x| < 2^emx
  std::frexp(mn, &emn);
  s.e = emx;
  s.spread = emx - emn + 1;
  return s;
}

// Slices of op(X) (K x F viewed as [k][f], scales per f) into S integer-valued bf16 matrices [K][F].
std::vector<std::vector<std::uint16_t>> slice(std::int64_t K, std::int64_t F, const std::vector<Scale>& sc, int S,
                                              auto&& get /* (k, f) -> double */) {
  std::vector<std::vector<std::uint16_t>> out(static_cast<std::size_t>(S), std::vector<std::uint16_t>(
                                                                               static_cast<std::size_t>(K * F)));
  for (std::int64_t k = 0; k < K; ++k)
    for (std::int64_t f = 0; f < F; ++f) {
      const double x = get(k, f);
      double r = std::isfinite(x) ? std::ldexp(x, -sc[static_cast<std::size_t>(f)].e) : 0.0;  // |r| < 1, exact
      for (int s = 0; s < S; ++s) {
        r *= kSliceScale;                // exact: scaling up by a power of two
        const double q = std::trunc(r);  // |q| <= 255
        r -= q;                           // exact
        out[static_cast<std::size_t>(s)][static_cast<std::size_t>(k * F + f)] = f32_to_bf16_rne(static_cast<float>(q));
      }
    }
  return out;
}

}  // namespace

OzakiPlan plan_ozaki(const Settings& st, std::int64_t m, std::int64_t n, std::int64_t k, Op ta, Op tb, const double* A,
                     std::int64_t lda, const double* B, std::int64_t ldb) {
  auto a = [&](std::int64_t i, std::int64_t kk) { return ta == Op::N ? A[i + kk * lda] : A[kk + i * lda]; };
  auto b = [&](std::int64_t kk, std::int64_t j) { return tb == Op::N ? B[kk + j * ldb] : B[j + kk * ldb]; };
  int spread_a = 0, spread_b = 0;
  for (std::int64_t i = 0; i < m; ++i) spread_a = std::max(spread_a, scale_of(k, [&](std::int64_t x) { return a(i, x); }).spread);
  for (std::int64_t j = 0; j < n; ++j) spread_b = std::max(spread_b, scale_of(k, [&](std::int64_t x) { return b(x, j); }).spread);
  // Bits so that each element is exact (53 + own spread) and every dropped cross term is below
  // 2^-56 of the smallest product scale: 56 + spread_a + spread_b.
  int bits = 56 + spread_a + spread_b + st.ozaki_mantissa_bit_offset;
  if (st.ozaki_fixed && st.ozaki_max_mantissa_bits > 0)
    bits = st.ozaki_max_mantissa_bits;
  else if (st.ozaki_max_mantissa_bits > 0)
    bits = std::min(bits, st.ozaki_max_mantissa_bits);
  OzakiPlan p;
  p.slices = std::max(1, (bits + kSliceBits - 1) / kSliceBits);
  p.mantissa_bits = p.slices * kSliceBits;
  p.products = p.slices * (p.slices + 1) / 2;
  return p;
}

namespace {

// acc[i] += P[i] * 2^(ej + ea[i]) for a column whose exponents all lie in the normal range: the
// same operations as the general loop (an exact widening, a product by an exact power of two, one
// add), written so that the compiler vectorises it; AVX-512 where the CPU has it.
// 2^e for a normal exponent (-1022 <= e <= 1023), built from its bits: exact.
inline double pow2_normal(int e) { return std::bit_cast<double>(static_cast<std::uint64_t>(e + 1023) << 52); }

template <int>
inline void accumulate_scaled_body(double* acc, const float* P, const int* ea, int ej, std::int64_t m) {
  for (std::int64_t i = 0; i < m; ++i)
    acc[i] += static_cast<double>(P[i]) * pow2_normal(ej + ea[i]);
}
__attribute__((target("avx512f"))) void accumulate_scaled_avx512(double* acc, const float* P, const int* ea, int ej,
                                                                 std::int64_t m) {
  accumulate_scaled_body<1>(acc, P, ea, ej, m);
}
void accumulate_scaled(double* acc, const float* P, const int* ea, int ej, std::int64_t m) {
  static const bool avx512 = host_simd_available(HostSimd::avx512);
  if (avx512)
    accumulate_scaled_avx512(acc, P, ea, ej, m);
  else
    accumulate_scaled_body<0>(acc, P, ea, ej, m);
}

void gemm_ozaki(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
                const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C,
                std::int64_t ldc, CallReport* report) {
  const OzakiPlan plan = plan_ozaki(s, m, n, k, ta, tb, A, lda, B, ldb);
  const int S = plan.slices;
  auto a = [&](std::int64_t i, std::int64_t kk) { return ta == Op::N ? A[i + kk * lda] : A[kk + i * lda]; };
  auto b = [&](std::int64_t kk, std::int64_t j) { return tb == Op::N ? B[kk + j * ldb] : B[j + kk * ldb]; };
  // Host (fp64): per-row scales of op(A), per-column scales of op(B), slicing.
  std::vector<Scale> sa(static_cast<std::size_t>(m)), sb(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < m; ++i) sa[static_cast<std::size_t>(i)] = scale_of(k, [&](std::int64_t x) { return a(i, x); });
  for (std::int64_t j = 0; j < n; ++j) sb[static_cast<std::size_t>(j)] = scale_of(k, [&](std::int64_t x) { return b(x, j); });
  const auto slices_a = slice(k, m, sa, S, [&](std::int64_t kk, std::int64_t i) { return a(i, kk); });
  const auto slices_b = slice(k, n, sb, S, [&](std::int64_t kk, std::int64_t j) { return b(kk, j); });

  // Device: for each slice pair (s, t) and each K chunk of <= 256, the exact integer partial sum
  // P[j][i] = sum_k qa_s[k][i] qb_t[k][j] in fp32 PSUM, stored raw to HBM.
  const std::int64_t chunks = (k + kOzakiKChunk - 1) / kOzakiKChunk;
  // Several slice pairs per launch (grid axis 2), so that small problems still give every host
  // thread and emulated core a program; partial-sum storage stays under kPartialBudget.
  constexpr std::int64_t kPartialBudget = std::int64_t{64} << 20;
  const std::int64_t pair_bytes = chunks * n * m * static_cast<std::int64_t>(sizeof(float));
  const std::int64_t pairs_per_launch = std::clamp<std::int64_t>(kPartialBudget / std::max<std::int64_t>(pair_bytes, 1), 1, 8);
  std::vector<float> partial(static_cast<std::size_t>(std::min<std::int64_t>(pairs_per_launch, plan.products) * chunks * n * m));
  std::vector<double> acc(static_cast<std::size_t>(m * n), 0.0);
  Trace trace;
  // Pairs by decreasing s + t: smallest contributions first.
  std::vector<std::pair<int, int>> pairs;
  for (int d = S - 1; d >= 0; --d)
    for (int s0 = d; s0 >= 0; --s0) pairs.emplace_back(s0, d - s0);
  // Row exponents of op(A) and their range: columns whose scale exponents all stay normal take the
  // vectorised accumulate_scaled; the others scale element by element, by pow2_normal or ldexp, so
  // the scaled partial is rounded exactly once either way (a product by a normal power of two is
  // correctly rounded).
  std::vector<int> ea(static_cast<std::size_t>(m));
  for (std::int64_t i = 0; i < m; ++i) ea[static_cast<std::size_t>(i)] = sa[static_cast<std::size_t>(i)].e;
  const int ea_min = m > 0 ? *std::min_element(ea.begin(), ea.end()) : 0;
  const int ea_max = m > 0 ? *std::max_element(ea.begin(), ea.end()) : 0;
  const LaunchConfig lc = launch_config(s);
  for (std::size_t p0 = 0; p0 < pairs.size(); p0 += static_cast<std::size_t>(pairs_per_launch)) {
    const std::size_t np = std::min(pairs.size() - p0, static_cast<std::size_t>(pairs_per_launch));
    std::vector<BlockGemmArgs> probs;
    for (std::size_t q = 0; q < np; ++q) {
      const auto [ps, pt] = pairs[p0 + q];
      for (std::int64_t c = 0; c < chunks; ++c) {
        BlockGemmArgs g;
        g.a_src = {HbmTensor::wrap(const_cast<std::uint16_t*>(slices_a[static_cast<std::size_t>(ps)].data()), DType::bf16, {k, m})};
        g.b_src = {HbmTensor::wrap(const_cast<std::uint16_t*>(slices_b[static_cast<std::size_t>(pt)].data()), DType::bf16, {k, n})};
        g.load = DType::bf16;
        g.pairs = {{0, 0}};
        g.m = m;
        g.n = n;
        g.k_begin = c * kOzakiKChunk;
        g.k_end = std::min(k, g.k_begin + kOzakiKChunk);
        g.c = HbmTensor::wrap(partial.data() + (static_cast<std::int64_t>(q) * chunks + c) * n * m, DType::f32, {n, m});
        g.raw = true;
        probs.push_back(std::move(g));
      }
    }
    LaunchResult r = detail::launch_gemm(lc, probs);
    trace.append(r.trace);
    if (s.timing_only) continue;
    // Host (fp64): acc += 2^(e_i + f_j - 8(s+1) - 8(t+1)) * P, pair by pair in `pairs` order and
    // chunk by chunk (exact scaling).
    for (std::size_t q = 0; q < np; ++q) {
      const auto [ps, pt] = pairs[p0 + q];
      const int shift = -kSliceBits * (ps + 1) - kSliceBits * (pt + 1);
      for (std::int64_t c = 0; c < chunks; ++c) {
        const float* P = partial.data() + (static_cast<std::int64_t>(q) * chunks + c) * n * m;
        for (std::int64_t j = 0; j < n; ++j) {
          const int ej = shift + sb[static_cast<std::size_t>(j)].e;
          double* accj = acc.data() + j * m;
          const float* Pj = P + j * m;
          if (ej + ea_min >= -1022 && ej + ea_max <= 1023) {  // whole column in the normal range
            accumulate_scaled(accj, Pj, ea.data(), ej, m);
            continue;
          }
          for (std::int64_t i = 0; i < m; ++i) {
            const int e = ej + ea[static_cast<std::size_t>(i)];
            const double p = Pj[i];
            accj[i] += e >= -1022 && e <= 1023 ? p * pow2_normal(e) : std::ldexp(p, e);
          }
        }
      }
    }
  }
  // Special values: an output whose row of op(A) or column of op(B) holds Inf/NaN is recomputed as an
  // IEEE fp64 dot product on the host so that Inf and NaN propagate as in native DGEMM.
  if (s.ozaki_special_values && !s.timing_only) {
    std::vector<char> row_bad(static_cast<std::size_t>(m), 0), col_bad(static_cast<std::size_t>(n), 0);
    for (std::int64_t kk = 0; kk < k; ++kk) {
      for (std::int64_t i = 0; i < m; ++i) row_bad[static_cast<std::size_t>(i)] |= !std::isfinite(a(i, kk));
      for (std::int64_t j = 0; j < n; ++j) col_bad[static_cast<std::size_t>(j)] |= !std::isfinite(b(kk, j));
    }
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i)
        if (row_bad[static_cast<std::size_t>(i)] || col_bad[static_cast<std::size_t>(j)]) {
          double d = 0;
          for (std::int64_t kk = 0; kk < k; ++kk) d += a(i, kk) * b(kk, j);
          acc[static_cast<std::size_t>(i + j * m)] = d;
        }
  }
  // Host (fp64) epilogue: C = alpha * acc + beta * C; beta == 0 never reads C.
  if (!s.timing_only)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i) {
        double& c = C[i + j * ldc];
        const double v = alpha * acc[static_cast<std::size_t>(i + j * m)];
        c = beta == 0.0 ? v : v + beta * c;
      }
  finish_report(report, s, std::move(trace));
  if (report != nullptr) {
    report->ozaki_slices_a = report->ozaki_slices_b = S;
    report->ozaki_products = plan.products;
    report->ozaki_mantissa_bits = plan.mantissa_bits;
  }
}

// C = beta * C (alpha == 0 or k == 0) for fp64 C, on the host: no NeuronCore engine holds fp64.
void scale_f64(std::int64_t m, std::int64_t n, double beta, double* C, std::int64_t ldc) {
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) C[i + j * ldc] = beta == 0.0 ? 0.0 : beta * C[i + j * ldc];
}

}  // namespace

void dgemm(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
           const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C,
           std::int64_t ldc, CallReport* report) {
  require(m >= 0 && n >= 0 && k >= 0, "m, n, k must be non-negative");
  if (report != nullptr) *report = CallReport{};
  if (m == 0 || n == 0 || ((alpha == 0.0 || k == 0) && beta == 1.0)) return;
  if (alpha == 0.0 || k == 0) {
    if (!s.timing_only) scale_f64(m, n, beta, C, ldc);
    return;
  }
  gemm_ozaki(s, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
}

void gemm_batched(const Settings& s, GemmMode mode, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k,
                  float alpha, const std::vector<MatrixRef>& A, const std::vector<MatrixRef>& B, float beta,
                  const std::vector<MutableMatrixRef>& C, CallReport* report) {
  require(m >= 0 && n >= 0 && k >= 0, "m, n, k must be non-negative");
  require(mode != GemmMode::fp64_ozaki, "fp64 GEMM goes through dgemm");
  require(A.size() == C.size() && B.size() == C.size(), "batch arrays must have equal length");
  if (report != nullptr) *report = CallReport{};
  if (C.empty() || m == 0 || n == 0 || ((alpha == 0.0f || k == 0) && beta == 1.0f)) return;
  std::vector<BlockGemmArgs> problems;
  for (std::size_t b = 0; b < C.size(); ++b) {
    BlockGemmArgs g = block_args(mode, m, n, k, alpha, beta, A[b].dtype, C[b]);
    if (g.multiply) {
      g.a_src = {view_kf(A[b].data, A[b].dtype, A[b].ld, ta == Op::T, k, m)};
      g.b_src = {view_kf(B[b].data, B[b].dtype, B[b].ld, tb == Op::N, k, n)};
    }
    problems.push_back(std::move(g));
  }
  detail::GemmPlan plan;
  LaunchResult r = detail::launch_gemm(launch_config(s), problems, &plan);
  finish_report(report, s, std::move(r.trace));
  if (report != nullptr) report->plan = plan.print();
}

void gemm(const Settings& s, GemmMode mode, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
          MatrixRef A, MatrixRef B, float beta, MutableMatrixRef C, CallReport* report) {
  gemm_batched(s, mode, ta, tb, m, n, k, alpha, {A}, {B}, beta, {C}, report);
}

void syrk(const Settings& s, GemmMode mode, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, float alpha,
          MatrixRef A, float beta, MutableMatrixRef C, CallReport* report) {
  require(n >= 0 && k >= 0, "n, k must be non-negative");
  require(mode != GemmMode::fp64_ozaki, "fp64 SYRK goes through dsyrk");
  if (report != nullptr) *report = CallReport{};
  if (n == 0 || ((alpha == 0.0f || k == 0) && beta == 1.0f)) return;
  // op(A) is n x k and C = alpha op(A) op(A)^T: the kernel's op(B) = op(A)^T is the same [K, n] view.
  BlockGemmArgs g = block_args(mode, n, n, k, alpha, beta, A.dtype, C);
  if (g.multiply) {
    g.a_src = {view_kf(A.data, A.dtype, A.ld, trans == Op::T, k, n)};
    g.b_src = g.a_src;
  }
  g.triangle = uplo == Uplo::lower ? Triangle::lower : Triangle::upper;
  detail::GemmPlan plan;
  LaunchResult r = detail::launch_gemm(launch_config(s), {g}, &plan);
  finish_report(report, s, std::move(r.trace));
  if (report != nullptr) report->plan = plan.print();
}

void dsyrk(const Settings& s, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, double alpha, const double* A,
           std::int64_t lda, double beta, double* C, std::int64_t ldc, CallReport* report) {
  require(n >= 0 && k >= 0, "n, k must be non-negative");
  if (report != nullptr) *report = CallReport{};
  if (n == 0 || ((alpha == 0.0 || k == 0) && beta == 1.0)) return;
  // The Ozaki product of op(A) op(A)^T into scratch (emulated TensorE), then the uplo triangle is
  // combined with C on the host in fp64; the other triangle of C is never touched.
  std::vector<double> full(static_cast<std::size_t>(n * n), 0.0);
  const Op tb = trans == Op::N ? Op::T : Op::N;
  if (alpha != 0.0 && k != 0) dgemm(s, trans, tb, n, n, k, alpha, A, lda, A, lda, 0.0, full.data(), n, report);
  if (s.timing_only) return;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = (uplo == Uplo::lower ? j : 0); i < (uplo == Uplo::lower ? n : j + 1); ++i) {
      const double v = full[static_cast<std::size_t>(i + j * n)];
      C[i + j * ldc] = beta == 0.0 ? v : v + beta * C[i + j * ldc];
    }
}

}  // namespace trn::blas
