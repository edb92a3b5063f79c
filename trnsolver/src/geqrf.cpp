// geqrf / orgqr (ungqr) / ormqr (unmqr): blocked Householder QR with compact-WY block reflectors
// (LAPACK xGEQRF/xORGQR/xORMQR; Golub & Van Loan, Matrix Computations 4th ed., 5.2.2-5.2.3 and
// 5.1.7; Schreiber & Van Loan, SIAM J. Sci. Stat. Comput. 10(1), 1989).
//
// Per panel of nb = qr_panel_width(prefix) columns:
//   panel   xGEQR2 (Householder vectors with xLARFG's conventions: beta = -sign(Re alpha) ||(alpha, x)||,
//           tau = (beta - alpha) / beta, v = x / (alpha - beta)) and xLARFT (T upper triangular with
//           H_1 ... H_w = I - V T V^H) on the host in the working precision: one recorded host step
//           per panel (the panel to the host, the factored panel, tau, the explicit unit-trapezoidal
//           V and T back to device memory)
//   update  H^H C = C - V (T^H (V^H C)): three trnblas GEMMs on TensorE (docs/trnsolver.md "QR")
// orgqr forms Q = H_1 ... H_k [I; 0] by applying the blocks last to first to the columns from the
// block's first column on (the columns before it are still unit vectors with zeros in the rows the
// block touches); ormqr applies the blocks in LAPACK's order. Both build every block's V and T in
// one host step and do all of their arithmetic on the Q side in GEMMs.
#include "trn/solver/qr.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "column_dots.hpp"
#include "mode_factor.hpp"
#include "syevj_internal.hpp"
#include "trn/blas/level3.hpp"  // cgemm, zgemm
#include "trn/core/host_simd.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/scratch.hpp"
#include "svd_internal.hpp"
#include "sym_steps.hpp"  // detail::gemm_step

namespace trn::solver {
namespace {

template <class T>
struct Scalar {
  static constexpr bool complex = false;
  using Real = T;
};
template <class R>
struct Scalar<std::complex<R>> {
  static constexpr bool complex = true;
  using Real = R;
};
template <class T>
using RealOf = typename Scalar<T>::Real;
template <class T>
constexpr bool kFp64 = std::is_same_v<RealOf<T>, double>;
template <class T>
constexpr double kFlopsPerOp = Scalar<T>::complex ? 4.0 : 1.0;  // real flops per multiply-add pair / 2

template <class T>
T conj_of(T x) {
  if constexpr (Scalar<T>::complex) return std::conj(x); else return x;
}
template <class T>
RealOf<T> re(T x) {
  if constexpr (Scalar<T>::complex) return x.real(); else return x;
}
template <class T>
RealOf<T> im(T x) {
  if constexpr (Scalar<T>::complex) return x.imag(); else return RealOf<T>(0);
}

// ||(parts, more)||_2 of real numbers (more: n values at stride inc, with their imaginary parts when
// more_im is set), scaled by the largest magnitude (no overflow or underflow for representable
// results); Inf or NaN anywhere propagates. The values are visited in place, in the order parts, then
// more_re[i] (more_im[i]) for i = 0 .. n - 1 -- the order of the former copy into a std::vector (one
// push_back per value, ~4 % of an Xgesvdp 128 x 96 call), so each fp chain is the same.
template <class R, class Visit>
void visit_norm_values(std::initializer_list<R> parts, const R* more_re, const R* more_im, std::int64_t n,
                       std::int64_t inc, Visit&& visit) {
  for (R x : parts) visit(x);
  if (more_im == nullptr) {
    if (inc == 1) {
      for (std::int64_t i = 0; i < n; ++i) visit(more_re[i]);
    } else {
      for (std::int64_t i = 0; i < n; ++i) visit(more_re[i * inc]);
    }
  } else {
    for (std::int64_t i = 0; i < n; ++i) {
      visit(more_re[i * inc]);
      visit(more_im[i * inc]);
    }
  }
}
template <class R>
R scaled_norm(std::initializer_list<R> parts, const R* more_re, const R* more_im, std::int64_t n, std::int64_t inc) {
  // The scale max |x| as a bit pattern: for IEEE values that are not NaN, |x|'s patterns order as the
  // values do, so their integer maximum (order-free, no dependent fp operation) is the former
  // std::max fold's value whenever every value is finite -- and every value is finite exactly when
  // that maximum is below Inf's pattern. Otherwise the result is sqrt of the in-order sum of squares
  // of all values, as before (that sum is needed only then: one dependent add per value saved).
  using Bits = std::conditional_t<sizeof(R) == 4, std::uint32_t, std::uint64_t>;
  constexpr Bits kMagnitude = ~Bits(0) >> 1, kInfinity = std::bit_cast<Bits>(std::numeric_limits<R>::infinity());
  Bits top = 0;
  visit_norm_values<R>(parts, more_re, more_im, n, inc,
                       [&](R x) { top = std::max(top, static_cast<Bits>(std::bit_cast<Bits>(x) & kMagnitude)); });
  if (top >= kInfinity) {  // Inf or NaN
    R naive = 0;
    visit_norm_values<R>(parts, more_re, more_im, n, inc, [&](R x) { naive += x * x; });
    return std::sqrt(naive);
  }
  const R scale = std::bit_cast<R>(top);
  if (scale == R(0)) return R(0);
  R ssq = 0;
  visit_norm_values<R>(parts, more_re, more_im, n, inc, [&](R x) { ssq += (x / scale) * (x / scale); });
  return scale * std::sqrt(ssq);
}

// ||x||_2 and sqrt(|alpha|^2 + ||x||^2) over the interleaved storage of T.
template <class T>
RealOf<T> norm_with(std::initializer_list<RealOf<T>> parts, const T* x, std::int64_t n) {
  using R = RealOf<T>;
  const R* p = reinterpret_cast<const R*>(x);
  constexpr std::int64_t inc = Scalar<T>::complex ? 2 : 1;
  return scaled_norm<R>(parts, p, Scalar<T>::complex ? p + 1 : nullptr, n, inc);
}

// xLARFG: H^H (alpha; x) = (beta; 0), H = I - tau v v^H, v = (1; x'); x overwritten by x', alpha by
// beta; returns tau (0: H = I). LAPACK's rescaling of tiny beta (at most 20 passes) included.
template <class T>
T larfg(std::int64_t len, T& alpha, T* x) {
  using R = RealOf<T>;
  if (len <= 0) return T(0);
  const std::int64_t nx = len - 1;
  R xnorm = norm_with<T>({}, x, nx);
  R alphr = re(alpha), alphi = im(alpha);
  if (xnorm == R(0) && alphi == R(0)) return T(0);
  R beta = -std::copysign(norm_with<T>({alphr, alphi, xnorm}, x, 0), alphr);
  const R safmin = std::numeric_limits<R>::min() / std::numeric_limits<R>::epsilon();
  int knt = 0;
  if (std::fabs(beta) < safmin) {
    const R rsafmn = R(1) / safmin;
    do {
      ++knt;
      for (std::int64_t i = 0; i < nx; ++i) x[i] *= rsafmn;
      beta *= rsafmn;
      alpha *= rsafmn;
    } while (std::fabs(beta) < safmin && knt < 20);
    xnorm = norm_with<T>({}, x, nx);
    alphr = re(alpha);
    alphi = im(alpha);
    beta = -std::copysign(norm_with<T>({alphr, alphi, xnorm}, x, 0), alphr);
  }
  T tau;
  if constexpr (Scalar<T>::complex)
    tau = T((beta - alphr) / beta, -alphi / beta);
  else
    tau = (beta - alphr) / beta;
  const T scal = T(1) / (alpha - T(beta));
  for (std::int64_t i = 0; i < nx; ++i) x[i] *= scal;
  for (int j = 0; j < knt; ++j) beta *= safmin;
  alpha = T(beta);
  return tau;
}

// s[k] += sum over i in [lo, hi) of x[i + k ldx] y[i], k < K (real data): K independent chains in one
// pass over y, each adding in increasing i -- the sums K separate loops form, bit for bit (fp32/fp64
// multiplication commutes exactly; no contraction: -ffp-contract=off), without one dependent add per
// element.
template <int K, class T>
void add_dots_k(const T* x, std::int64_t ldx, const T* y, std::int64_t lo, std::int64_t hi, T* s) {
  T acc[K];
  for (int k = 0; k < K; ++k) acc[k] = s[k];
  for (std::int64_t i = lo; i < hi; ++i) {
    const T yi = y[i];
    for (int k = 0; k < K; ++k) acc[k] += x[i + k * ldx] * yi;
  }
  for (int k = 0; k < K; ++k) s[k] = acc[k];
}
constexpr std::int64_t kDotChains = 8;
template <class T>
void add_dots(std::int64_t count, const T* x, std::int64_t ldx, const T* y, std::int64_t lo, std::int64_t hi, T* s) {
  if constexpr (std::is_same_v<T, float>) {
    if (host_simd() != HostSimd::portable)  // the same chains as lanes of transposed 8 x 8 blocks
      return detail::column_dots_fp32_avx2(static_cast<int>(count), x, ldx, y, lo, hi, s);
  }
  switch (count) {
    case 1: return add_dots_k<1>(x, ldx, y, lo, hi, s);
    case 2: return add_dots_k<2>(x, ldx, y, lo, hi, s);
    case 3: return add_dots_k<3>(x, ldx, y, lo, hi, s);
    case 4: return add_dots_k<4>(x, ldx, y, lo, hi, s);
    case 5: return add_dots_k<5>(x, ldx, y, lo, hi, s);
    case 6: return add_dots_k<6>(x, ldx, y, lo, hi, s);
    case 7: return add_dots_k<7>(x, ldx, y, lo, hi, s);
    default: return add_dots_k<kDotChains>(x, ldx, y, lo, hi, s);
  }
}

// xGEQR2 on the r x w panel a (lda), r >= w: reflectors below the diagonal, R above, tau. Returns
// the multiply-add count.
template <class T>
double geqr2(T* a, std::int64_t lda, std::int64_t r, std::int64_t w, T* tau) {
  double ops = 0;
  for (std::int64_t j = 0; j < w; ++j) {
    T* vj = a + j + j * lda;
    tau[j] = larfg(r - j, vj[0], vj + 1);
    ops += static_cast<double>(r - j);
    if (tau[j] == T(0)) continue;
    const T ctau = conj_of(tau[j]);
    std::int64_t c = j + 1;
    if constexpr (!Scalar<T>::complex) {
      // Real data: the dot products of up to kDotChains columns in one pass over v (add_dots: each the
      // loop's below, bit for bit; a column's update touches only that column, so the chains read
      // what the loop would), then their updates.
      for (; c < w; c += kDotChains) {
        const std::int64_t cn = std::min(kDotChains, w - c);
        T* ac = a + j + c * lda;
        std::array<T, kDotChains> s{};
        for (std::int64_t k = 0; k < cn; ++k) s[static_cast<std::size_t>(k)] = ac[k * lda];
        add_dots(cn, ac, lda, vj, 1, r - j, s.data());
        for (std::int64_t k = 0; k < cn; ++k) {
          T* col = ac + k * lda;
          const T sk = s[static_cast<std::size_t>(k)] * ctau;
          col[0] -= sk;
          for (std::int64_t i = 1; i < r - j; ++i) col[i] -= vj[i] * sk;
        }
      }
    }
    for (; c < w; ++c) {  // a(j:r, c) -= conj(tau) v (v^H a(j:r, c))
      T* ac = a + j + c * lda;
      T s = ac[0];
      for (std::int64_t i = 1; i < r - j; ++i) s += conj_of(vj[i]) * ac[i];
      s *= ctau;
      ac[0] -= s;
      for (std::int64_t i = 1; i < r - j; ++i) ac[i] -= vj[i] * s;
    }
    ops += 2.0 * static_cast<double>((r - j) * (w - j - 1));
  }
  return ops;
}

// Closed forms of geqr2's and form_block's multiply-add counts when every tau is nonzero (data
// without an exactly zero reflector column): what the host steps of the drivers record.
double geqr2_ops(std::int64_t r, std::int64_t w) {
  double ops = 0;
  for (std::int64_t j = 0; j < w; ++j) ops += static_cast<double>(r - j) + 2.0 * static_cast<double>((r - j) * (w - j - 1));
  return ops;
}
double form_block_ops(std::int64_t r, std::int64_t w) {
  double ops = 0;
  for (std::int64_t j = 0; j < w; ++j) ops += static_cast<double>(j * (r - j)) + 0.5 * static_cast<double>(j * j);
  return ops;
}

// One block reflector H_j0 ... H_{j0+w-1} = I - V T V^H in device memory: V explicit (rows x w,
// unit lower trapezoidal, ld rows), T upper triangular (w x w, ld w).
template <class T>
struct Block {
  std::int64_t j0 = 0, rows = 0, w = 0;
  T* v = nullptr;
  T* t = nullptr;
};

// Explicit V of the block from the reflector columns at a (lda), then xLARFT (forward, columnwise):
// T(j, j) = tau_j, T(0:j, j) = -tau_j T(0:j, 0:j) (V(:, 0:j)^H v_j). Returns the multiply-add count.
template <class T>
double form_block(const T* a, std::int64_t lda, const T* tau, const Block<T>& b) {
  const std::int64_t r = b.rows, w = b.w;
  for (std::int64_t c = 0; c < w; ++c) {  // column c: zeros above the unit diagonal, a(c+1:r, c) below
    T* vc = b.v + c * r;
    std::fill(vc, vc + std::min(c, r), T(0));
    if (c < r) {
      vc[c] = T(1);
      std::copy(a + c + 1 + c * lda, a + r + c * lda, vc + c + 1);
    }
  }
  double ops = 0;
  std::vector<T> z(static_cast<std::size_t>(w));
  for (std::int64_t j = 0; j < w; ++j) {
    T* tj = b.t + j * w;
    std::fill(tj, tj + w, T(0));
    tj[j] = tau[j];
    if (tau[j] == T(0)) continue;
    std::int64_t i0 = 0;
    if constexpr (!Scalar<T>::complex) {  // real data: kDotChains of the z_i per pass (add_dots, same bits)
      for (; i0 < j; i0 += kDotChains) {
        const std::int64_t cn = std::min(kDotChains, j - i0);
        std::fill(z.begin() + i0, z.begin() + i0 + cn, T(0));
        add_dots(cn, b.v + i0 * r, r, b.v + j * r, j, r, z.data() + i0);
      }
    }
    for (std::int64_t i = i0; i < j; ++i) {  // z_i = V(j:r, i)^H v_j (rows above j of v_j are zero)
      T s = 0;
      for (std::int64_t l = j; l < r; ++l) s += conj_of(b.v[l + i * r]) * b.v[l + j * r];
      z[static_cast<std::size_t>(i)] = s;
    }
    for (std::int64_t i = 0; i < j; ++i) {  // T(0:j, j) = -tau_j T(0:j, 0:j) z (upper triangular)
      T s = 0;
      for (std::int64_t l = i; l < j; ++l) s += b.t[i + l * w] * z[static_cast<std::size_t>(l)];
      tj[i] = -tau[j] * s;
    }
    ops += static_cast<double>(j * (r - j)) + 0.5 * static_cast<double>(j * j);
  }
  return ops;
}

// What a driver's GEMM steps share. replay: the drivers' steps without their arithmetic -- the GEMMs
// timing-only (bs.timing_only), the host steps recorded with the closed-form flops of data whose
// every tau is nonzero and nothing computed -- on scratch operands of the call's shapes: the
// prediction of the C plans (replay_qr_ns).
struct Steps {
  blas::Settings bs;
  blas::GemmMode mode;
  TraceParts trace;
  bool replay = false;
};

// C <- op(H) C (left; C rows x cols with rows = b.rows) or C op(H) (right; cols = b.rows),
// H = I - V T V^H, op(H) = H^H when `adjoint` (T^H in the middle). Three GEMMs.
template <class T>
void apply_block(Steps& st, bool left, bool adjoint, const Block<T>& b, T* C, std::int64_t ldc, std::int64_t rows,
                 std::int64_t cols) {
  const std::int64_t w = b.w, r = b.rows;
  const char top = adjoint ? 'C' : 'N';
  if (left) {  // W = V^H C (w x cols), W2 = op(T) W, C -= V W2
    ScratchVector<T> w1(static_cast<std::size_t>(w * cols)), w2(w1.size());  // traced: scratch stack
    detail::gemm_step<T>(st.bs, st.mode, 'C', 'N', w, cols, r, T(1), b.v, r, C, ldc, T(0), w1.data(), w, st.trace);
    detail::gemm_step<T>(st.bs, st.mode, top, 'N', w, cols, w, T(1), b.t, w, w1.data(), w, T(0), w2.data(), w, st.trace);
    detail::gemm_step<T>(st.bs, st.mode, 'N', 'N', r, cols, w, T(-1), b.v, r, w2.data(), w, T(1), C, ldc, st.trace);
  } else {  // W = C V (rows x w), W2 = W op(T), C -= W2 V^H
    ScratchVector<T> w1(static_cast<std::size_t>(rows * w)), w2(w1.size());  // traced: scratch stack
    detail::gemm_step<T>(st.bs, st.mode, 'N', 'N', rows, w, r, T(1), C, ldc, b.v, r, T(0), w1.data(), rows, st.trace);
    detail::gemm_step<T>(st.bs, st.mode, 'N', top, rows, w, w, T(1), w1.data(), rows, b.t, w, T(0), w2.data(), rows, st.trace);
    detail::gemm_step<T>(st.bs, st.mode, 'N', 'C', rows, r, w, T(-1), w2.data(), rows, b.v, r, T(1), C, ldc, st.trace);
  }
}

template <class T>
constexpr char prefix() {
  if constexpr (std::is_same_v<T, float>) return 's';
  else if constexpr (std::is_same_v<T, double>) return 'd';
  else if constexpr (std::is_same_v<T, std::complex<float>>) return 'c';
  else return 'z';
}

Steps begin_steps(const Settings& s, CallReport* report, const QrPlan& plan) {
  if (report != nullptr) *report = CallReport{};
  return Steps{detail::step_blas_settings(s), plan.update_mode, {}};
}

template <class T>
void finish(const Settings& s, CallReport* report, Steps& st, const QrPlan& plan, double host_ops) {
  detail::finish_fp64_report(report, std::move(st.trace), s.target, kFp64<T> ? 2.0 * kFlopsPerOp<T> * host_ops : 0.0);
  if (report != nullptr) report->add_plan(plan);
}

// Every block of the k reflectors in a (nq x k, lda): V and T in `store`, one host step (`name`)
// reading the reflectors and tau and writing the blocks. Returns the blocks and the multiply-adds.
template <class T>
std::vector<Block<T>> form_blocks(Steps& st, std::string_view name, std::int64_t nb, ScratchVector<T>& store,
                                  const T* a, std::int64_t lda, std::int64_t nq, std::int64_t k, const T* tau,
                                  double& ops, HostSpan extra_write = {}) {
  std::vector<Block<T>> blocks;
  std::size_t need = 0;
  for (std::int64_t j0 = 0; j0 < k; j0 += nb) {
    const std::int64_t w = std::min(nb, k - j0);
    blocks.push_back(Block<T>{j0, nq - j0, w});
    need += static_cast<std::size_t>((nq - j0) * w + w * w);
  }
  store.assign(need, T(0));
  std::size_t at = 0;
  for (Block<T>& b : blocks) {
    b.v = store.data() + at;
    b.t = b.v + b.rows * b.w;
    at += static_cast<std::size_t>(b.rows * b.w + b.w * b.w);
    ops += st.replay ? form_block_ops(b.rows, b.w) : form_block(a + b.j0 + b.j0 * lda, lda, tau + b.j0, b);
  }
  if (!blocks.empty())
    record_host_step(st.trace, HostStep{.name = name, .flops = 2.0 * kFlopsPerOp<T> * ops,
                                        .reads = {HostSpan::matrix(a, nq, k, lda), HostSpan(tau, k)},
                                        .writes = {HostSpan(store.data(), static_cast<std::int64_t>(store.size())),
                                                   extra_write}});
  return blocks;
}

void check(bool ok, const char* fn, const char* what) {
  if (!ok) throw UsageError("trnsolver", "argument", std::string(fn) + ": " + what);
}

template <class T>
double predict_qr_ns(const Settings& s, const QrPlan& p, char kind, bool left, bool trans);
template <class T>
double replay_qr_ns(const Settings& s, const QrPlan& p, char kind, bool left, bool trans);

// The routine's plan, with its predicted time when the call reports, computed when the plan is
// printed (trn::LazyNs). S, D, Z: the steps' predicted times summed (predict_qr_ns). C: its width-4
// blocks' 4M GEMMs overlap the host panels and one another, so that the sum overestimates by
// 50-100%: the driver's steps replayed timing-only and scheduled by the cost model as the run is
// (replay_qr_ns; docs/cost-model.md section 9).
template <class T>
QrPlan plan_of(const Settings& s, char kind, std::int64_t m, std::int64_t n, std::int64_t k, bool left, bool trans,
               const CallReport* report) {
  QrPlan p = plan_qr(prefix<T>(), kind, m, n, k, left, s.qr_block_size);
  if (report != nullptr)
    p.predicted_ns = trn::LazyNs([s, q = p, kind, left, trans] {
      return std::is_same_v<T, std::complex<float>> ? replay_qr_ns<T>(s, q, kind, left, trans)
                                                    : predict_qr_ns<T>(s, q, kind, left, trans);
    });
  return p;
}

// The plan with its block reflectors' GEMMs in `mode` (the refinement solvers' lower precisions;
// nullptr: the plan's own). The prediction covers fp32 mode only.
QrPlan with_mode(QrPlan p, const blas::GemmMode* mode) {
  if (mode != nullptr && *mode != p.update_mode) {
    p.update_mode = *mode;
    p.predicted_ns = {};
    p.why += std::string("; block reflectors in ") + blas::gemm_mode_name(*mode) + " (mixed-precision refinement)";
  }
  return p;
}

template <class T>
double geqrf_steps(Steps& st, std::int64_t nb, std::int64_t m, std::int64_t n, T* A, std::int64_t lda, T* tau);
template <class T>
double orgqr_steps(Steps& st, std::int64_t nb, std::int64_t m, std::int64_t n, std::int64_t k, T* A, std::int64_t lda,
                   const T* tau);
template <class T>
double ormqr_steps(Steps& st, std::int64_t nb, bool left, bool trans, std::int64_t m, std::int64_t n, std::int64_t k,
                   const T* A, std::int64_t lda, const T* tau, T* C, std::int64_t ldc);

template <class T>
int geqrf_impl(const Settings& s, std::int64_t m, std::int64_t n, T* A, std::int64_t lda, T* tau, CallReport* report,
               const blas::GemmMode* mode = nullptr) {
  const std::int64_t k = std::min(m, n);
  check(m >= 0 && n >= 0 && lda >= std::max<std::int64_t>(1, m) && (k == 0 || (A != nullptr && tau != nullptr)),
        "geqrf", "m, n >= 0, lda >= max(1, m), A and tau not NULL");
  const QrPlan plan = with_mode(plan_of<T>(s, 'q', m, n, k, true, false, report), mode);
  Steps st = begin_steps(s, report, plan);
  const double ops = geqrf_steps(st, plan.nb, m, n, A, lda, tau);
  finish<T>(s, report, st, plan, ops);
  return 0;
}

// geqrf's panels and block applications (st.replay: without their arithmetic). Returns the host
// multiply-adds.
template <class T>
double geqrf_steps(Steps& st, std::int64_t nb, std::int64_t m, std::int64_t n, T* A, std::int64_t lda, T* tau) {
  const std::int64_t k = std::min(m, n);
  double ops = 0;
  ScratchVector<T> vt;  // traced: the scratch stack (docs/cost-model.md section 2)
  for (std::int64_t j0 = 0; j0 < k; j0 += nb) {
    const std::int64_t w = std::min(nb, k - j0), r = m - j0;
    T* panel = A + j0 + j0 * lda;
    vt.assign(static_cast<std::size_t>(r * w + w * w), T(0));
    const Block<T> b{j0, r, w, vt.data(), vt.data() + r * w};
    const double panel_ops = st.replay ? geqr2_ops(r, w) + form_block_ops(r, w)
                                       : geqr2(panel, lda, r, w, tau + j0) + form_block(panel, lda, tau + j0, b);
    ops += panel_ops;
    const HostSpan p = HostSpan::matrix(panel, r, w, lda);
    record_host_step(st.trace, HostStep{.name = "trnsolver.geqrf.panel", .flops = 2.0 * kFlopsPerOp<T> * panel_ops,
                                        .reads = {p}, .writes = {p, HostSpan(tau + j0, w),
                                                                 HostSpan(vt.data(), static_cast<std::int64_t>(vt.size()))}});
    if (n - j0 - w > 0) apply_block(st, true, true, b, panel + w * lda, lda, r, n - j0 - w);
  }
  return ops;
}

// qr_block_reflector (qr.hpp): geqrf's panel step (factor) or ormqr's block formation alone, on one
// panel, for the distributed drivers; the same functions as geqrf_steps / form_blocks, so the same bits.
template <class T>
int qr_block_impl(const Settings& s, bool factor, std::int64_t r, std::int64_t w, T* A, std::int64_t lda, T* tau, T* V,
                  T* Tf, CallReport* report) {
  check(r >= w && w >= 0 && lda >= std::max<std::int64_t>(1, r) && (w == 0 || (A != nullptr && tau != nullptr && V != nullptr && Tf != nullptr)),
        "qr_block_reflector", "r >= w >= 0, lda >= max(1, r), A, tau, V and T not NULL");
  if (report != nullptr) *report = CallReport{};
  if (w == 0) return 0;
  TraceParts trace;
  const Block<T> b{0, r, w, V, Tf};
  const double ops = (factor ? geqr2(A, lda, r, w, tau) : 0.0) + form_block(A, lda, tau, b);
  const HostSpan p = HostSpan::matrix(A, r, w, lda);
  record_host_step(trace, HostStep{.name = factor ? "trnsolver.geqrf.panel" : "trnsolver.ormqr.blocks",
                                   .flops = 2.0 * kFlopsPerOp<T> * ops, .reads = {p, HostSpan(tau, w)},
                                   .writes = {factor ? p : HostSpan{}, HostSpan(tau, factor ? w : 0),
                                              HostSpan(V, r * w), HostSpan(Tf, w * w)}});
  detail::finish_fp64_report(report, std::move(trace), s.target, kFp64<T> ? 2.0 * kFlopsPerOp<T> * ops : 0.0);
  return 0;
}

template <class T>
int orgqr_impl(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t k, T* A, std::int64_t lda, const T* tau,
          CallReport* report) {
  check(m >= 0 && n >= 0 && n <= m && k >= 0 && k <= n && lda >= std::max<std::int64_t>(1, m) &&
            (n == 0 || A != nullptr) && (k == 0 || tau != nullptr),
        "orgqr", "0 <= k <= n <= m, lda >= max(1, m), A and tau not NULL");
  const QrPlan plan = plan_of<T>(s, 'g', m, n, k, true, false, report);
  Steps st = begin_steps(s, report, plan);
  const double ops = orgqr_steps(st, plan.nb, m, n, k, A, lda, tau);
  finish<T>(s, report, st, plan, ops);
  return 0;
}

// orgqr's host step and block applications (st.replay: without their arithmetic). Returns the
// host multiply-adds.
template <class T>
double orgqr_steps(Steps& st, std::int64_t nb, std::int64_t m, std::int64_t n, std::int64_t k, T* A, std::int64_t lda,
                   const T* tau) {
  double ops = 0;
  ScratchVector<T> store;  // traced: the scratch stack (docs/cost-model.md section 2)
  // One host step: the blocks from the reflectors, then A = [I; 0] (the columns Q is built on).
  const auto blocks = form_blocks(st, "trnsolver.orgqr.blocks", nb, store, A, lda, m, k, tau, ops,
                                  HostSpan::matrix(A, m, n, lda));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) A[i + j * lda] = i == j ? T(1) : T(0);
  if (blocks.empty() && n > 0) {
    const HostSpan a = HostSpan::matrix(A, m, n, lda);
    record_host_step(st.trace, HostStep{.name = "trnsolver.orgqr.blocks", .flops = 0, .reads = {}, .writes = {a}});
  }
  for (auto b = blocks.rbegin(); b != blocks.rend(); ++b)
    apply_block(st, true, false, *b, A + b->j0 + b->j0 * lda, lda, m - b->j0, n - b->j0);
  return ops;
}

template <class T>
int ormqr_impl(const Settings& s, bool left, bool trans, std::int64_t m, std::int64_t n, std::int64_t k, const T* A,
          std::int64_t lda, const T* tau, T* C, std::int64_t ldc, CallReport* report,
          const blas::GemmMode* mode = nullptr) {
  const std::int64_t nq = left ? m : n;
  check(m >= 0 && n >= 0 && k >= 0 && k <= nq && lda >= std::max<std::int64_t>(1, nq) &&
            ldc >= std::max<std::int64_t>(1, m) && (k == 0 || (A != nullptr && tau != nullptr)) &&
            (m == 0 || n == 0 || C != nullptr),
        "ormqr", "0 <= k <= (left ? m : n), lda >= max(1, that), ldc >= max(1, m), A, tau and C not NULL");
  const QrPlan plan = with_mode(plan_of<T>(s, 'm', m, n, k, left, trans, report), mode);
  Steps st = begin_steps(s, report, plan);
  const double ops = ormqr_steps(st, plan.nb, left, trans, m, n, k, A, lda, tau, C, ldc);
  finish<T>(s, report, st, plan, ops);
  return 0;
}

// ormqr's host step and block applications (st.replay: without their arithmetic). Returns the
// host multiply-adds.
template <class T>
double ormqr_steps(Steps& st, std::int64_t nb, bool left, bool trans, std::int64_t m, std::int64_t n, std::int64_t k,
                   const T* A, std::int64_t lda, const T* tau, T* C, std::int64_t ldc) {
  const std::int64_t nq = left ? m : n;
  double ops = 0;
  ScratchVector<T> store;  // traced: the scratch stack (docs/cost-model.md section 2)
  std::vector<Block<T>> blocks;
  if (m > 0 && n > 0) blocks = form_blocks(st, "trnsolver.ormqr.blocks", nb, store, A, lda, nq, k, tau, ops);
  // LAPACK's order: forward for Q^H C and C Q, backward for Q C and C Q^H.
  if ((left && !trans) || (!left && trans)) std::reverse(blocks.begin(), blocks.end());
  for (const Block<T>& b : blocks) {
    if (left)
      apply_block(st, true, trans, b, C + b.j0, ldc, m - b.j0, n);
    else
      apply_block(st, false, trans, b, C + b.j0 * ldc, ldc, m, n - b.j0);
  }
  return ops;
}

}  // namespace

namespace {


// One GEMM step's modeled time, predicted: S by trnblas predict_gemm_ns (placeholder operands), D by
// predict_dgemm_ns, C and Z by the same call run timing-only on synthetic well-scaled operands (real
// and imaginary parts 1 and 2 alternating, as predict_dgemm_ns's: the moduli count of random data of
// one magnitude for Z's Ozaki GEMMs).
template <class T>
double predict_qgemm_ns(const blas::Settings& bs, blas::GemmMode mode, char ta, char tb, std::int64_t m, std::int64_t n,
                        std::int64_t k, T alpha, T beta) {
  if constexpr (std::is_same_v<T, float>)
    return blas::predict_gemm_ns(bs, mode, detail::to_rop(ta), detail::to_rop(tb), m, n, k, alpha, beta);
  else if constexpr (std::is_same_v<T, double>)
    return blas::predict_dgemm_ns(bs, detail::to_rop(ta), detail::to_rop(tb), m, n, k, alpha, beta);
  else {
    if (m <= 0 || n <= 0) return 0;
    using R = typename T::value_type;
    const auto operand = [](std::int64_t rows, std::int64_t cols) {
      std::vector<T> v(static_cast<std::size_t>(rows * cols));
      for (std::int64_t j = 0; j < cols; ++j)
        for (std::int64_t i = 0; i < rows; ++i) {
          const R x = static_cast<R>((i + j) & 1);
          v[static_cast<std::size_t>(i + j * rows)] = T(1 + x, 2 - x);
        }
      return v;
    };
    const std::int64_t ar = ta == 'N' ? m : k, br = tb == 'N' ? k : n;
    const std::vector<T> a = operand(ar, ta == 'N' ? k : m), b = operand(br, tb == 'N' ? n : k);
    std::vector<T> c(static_cast<std::size_t>(m * n));
    blas::Settings ts = bs;
    ts.timing_only = true;
    ts.report_trace_only = false;
    blas::CallReport r;
    if constexpr (std::is_same_v<T, std::complex<float>>)
      blas::cgemm(ts, mode, blas::ComplexAlgo::four_m, detail::to_cop(ta), detail::to_cop(tb), m, n, k, alpha, a.data(),
                  ar, b.data(), br, beta, c.data(), m, &r);
    else
      blas::zgemm(ts, blas::ComplexAlgo::four_m, detail::to_cop(ta), detail::to_cop(tb), m, n, k, alpha, a.data(), ar,
                  b.data(), br, beta, c.data(), m, &r);
    return r.profile.total_ns;
  }
}

// The three GEMMs of one block application (apply_block's, in the plan's mode), each predicted.
template <class T>
double predict_apply_ns(const blas::Settings& bs, blas::GemmMode md, bool left, bool adjoint, std::int64_t r,
                        std::int64_t w, std::int64_t rows, std::int64_t cols) {
  const char top = adjoint ? 'C' : 'N';
  if (left)
    return predict_qgemm_ns<T>(bs, md, 'C', 'N', w, cols, r, T(1), T(0)) +
           predict_qgemm_ns<T>(bs, md, top, 'N', w, cols, w, T(1), T(0)) +
           predict_qgemm_ns<T>(bs, md, 'N', 'N', r, cols, w, T(-1), T(1));
  return predict_qgemm_ns<T>(bs, md, 'N', 'N', rows, w, r, T(1), T(0)) +
         predict_qgemm_ns<T>(bs, md, 'N', top, rows, w, w, T(1), T(0)) +
         predict_qgemm_ns<T>(bs, md, 'N', 'C', rows, r, w, T(-1), T(1));
}

template <class T>
double predict_qr_ns(const Settings& s, const QrPlan& p, char kind, bool left, bool trans) {
  const HardwareSpec& hw = hardware_spec(s.target);
  const blas::Settings bs = detail::step_blas_settings(s);
  const blas::GemmMode md = p.update_mode;
  constexpr double e = sizeof(T), f = 2.0 * kFlopsPerOp<T>;  // bytes per element, recorded flops per multiply-add
  const std::int64_t m = p.m, n = p.n, k = p.k, nb = p.nb, nq = kind == 'm' && !left ? n : m;
  double ns = 0;
  if (kind == 'q') {
    for (std::int64_t j0 = 0; j0 < k; j0 += nb) {
      const std::int64_t w = std::min(nb, k - j0), r = m - j0, cols = n - j0 - w;
      const double rw = static_cast<double>(r * w);
      ns += host_step_ns(e * (3 * rw + static_cast<double>(w + w * w)), f * (geqr2_ops(r, w) + form_block_ops(r, w)), hw);
      if (cols > 0) ns += predict_apply_ns<T>(bs, md, true, true, r, w, r, cols);
    }
    return ns;
  }
  if (kind == 'm' && (m == 0 || n == 0)) return 0;
  double store = 0, ops = 0;
  for (std::int64_t j0 = 0; j0 < k; j0 += nb) {
    const std::int64_t w = std::min(nb, k - j0), r = nq - j0;
    store += static_cast<double>(r * w + w * w);
    ops += form_block_ops(r, w);
    if (kind == 'g') ns += predict_apply_ns<T>(bs, md, true, false, r, w, r, n - j0);
    else if (left) ns += predict_apply_ns<T>(bs, md, true, trans, r, w, r, n);
    else ns += predict_apply_ns<T>(bs, md, false, trans, r, w, m, n - j0);
  }
  // The one host step of form_blocks (orgqr also writes A = [I; 0]; without blocks only that).
  const double extra = kind == 'g' ? static_cast<double>(m * n) : 0.0;
  if (k > 0) ns += host_step_ns(e * (static_cast<double>(nq * k + k) + store + extra), f * ops, hw);
  else if (extra > 0) ns += host_step_ns(e * extra, 0.0, hw);
  return ns;
}

// The C plans' prediction: the driver's steps replayed (Steps::replay) on zero scratch operands of
// the call's shapes (leading dimension = rows), their merged trace scheduled by the cost model as
// the call's is (finish_fp64_report's settings): the host panels overlap the GEMMs exactly as in
// the run. Exact for data whose every tau is nonzero, up to the operands' addresses (the caller's
// lda and allocations; measured within 1%, docs/cost-model.md section 9).
template <class T>
double replay_qr_ns(const Settings& s, const QrPlan& p, char kind, bool left, bool trans) {
  Steps st{detail::step_blas_settings(s), p.update_mode, {}, true};
  st.bs.timing_only = true;
  const std::int64_t m = p.m, n = p.n, k = p.k, nq = kind == 'm' && !left ? n : m;
  std::vector<T> a(static_cast<std::size_t>(std::max<std::int64_t>(nq * (kind == 'm' ? k : n), 1))),
      tau(static_cast<std::size_t>(std::max<std::int64_t>(k, 1))),
      c(static_cast<std::size_t>(kind == 'm' ? std::max<std::int64_t>(m * n, 1) : 1));
  const std::int64_t lda = std::max<std::int64_t>(nq, 1);
  if (kind == 'q') geqrf_steps(st, p.nb, m, n, a.data(), lda, tau.data());
  else if (kind == 'g') orgqr_steps(st, p.nb, m, n, k, a.data(), lda, tau.data());
  else ormqr_steps(st, p.nb, left, trans, m, n, k, a.data(), lda, tau.data(), c.data(), std::max<std::int64_t>(m, 1));
  return model_trace(std::move(st.trace).join(), ReportSettings{s.target}).total_ns;
}

}  // namespace

double predict_sqr_ns(const Settings& s, const QrPlan& p, char kind, bool left, bool trans) {
  return predict_qr_ns<float>(s, p, kind, left, trans);
}

// Predicted work: host multiply-adds of the panels/T factors and the GEMMs' flops, per block as the
// drivers above run them.
QrPlan plan_qr(char prefix, char kind, std::int64_t m, std::int64_t n, std::int64_t k, bool left,
               std::int64_t nb_request) {
  QrPlan p;
  const bool cplx = prefix == 'c' || prefix == 'z', fp64 = prefix == 'd' || prefix == 'z';
  p.routine = std::string(1, prefix) + (kind == 'q' ? "geqrf" : kind == 'g' ? (cplx ? "ungqr" : "orgqr")
                                                                          : (cplx ? "unmqr" : "ormqr"));
  p.m = m;
  p.n = n;
  p.k = k;
  const char* nb_source = "rule";
  p.nb = qr_panel_width(prefix, nb_request, &nb_source);
  p.panels = k > 0 ? (k + p.nb - 1) / p.nb : 0;
  p.complex = cplx;
  p.update_mode = fp64 ? blas::GemmMode::fp64_ozaki : blas::GemmMode::fp32;
  const double f = cplx ? 8.0 : 2.0;  // real flops per multiply-add
  const std::int64_t nq = kind == 'm' && !left ? n : m;
  for (std::int64_t j0 = 0; j0 < k; j0 += p.nb) {
    const auto w = static_cast<double>(std::min(p.nb, k - j0)), r = static_cast<double>(nq - j0);
    p.host_flops += f * (w * w * r / 2.0 + (kind == 'q' ? w * w * r : 0.0));
    double cols = 0;  // columns (rows, right side) the block is applied to
    if (kind == 'q') cols = static_cast<double>(n - j0) - w;
    if (kind == 'g') cols = static_cast<double>(n - j0);
    if (kind == 'm') cols = static_cast<double>(left ? n : m);
    p.gemm_flops += f * std::max(cols, 0.0) * w * (2.0 * r + w);
  }
  p.why = std::string("panel width ") + (std::string_view(nb_source) != "rule" ? std::string("from ") + nb_source :
             fp64   ? "128: fewer, larger Ozaki GEMMs (each with host steps)"
                                                             : cplx ? "4: the host panel's flops dominate"
                                                                    : "8: the host panel's flops dominate") +
          "; panels (xGEQR2 + xLARFT) as host steps in the working precision; block reflectors by trnblas " +
          blas::gemm_mode_name(p.update_mode) + (cplx ? " 4M complex" : "") + " GEMMs, the mode of " +
          (fp64 ? "dpotrf/dgetrf's" : "spotrf/sgetrf's") + " trailing updates";
  return p;
}

std::int64_t qr_panel_width(char prefix, std::int64_t requested, const char** source) {
  const char* env = std::getenv("TRNSOLVER_QR_NB");
  const long v = env != nullptr ? std::strtol(env, nullptr, 10) : 0;
  const char* from = "rule";
  std::int64_t nb = prefix == 'd' || prefix == 'z' ? kQrPanelWidthFp64 : prefix == 'c' ? kQrPanelWidthC : kQrPanelWidthS;
  if (requested >= 1 && requested <= kQrMaxPanelWidth) {
    nb = requested;
    from = "Settings::qr_block_size";
  } else if (v >= 1 && v <= kQrMaxPanelWidth) {
    nb = v;
    from = "TRNSOLVER_QR_NB";
  }
  if (source != nullptr) *source = from;
  return nb;
}

std::int64_t qr_workspace(char prefix, char kind, std::int64_t m, std::int64_t n, std::int64_t k, bool left,
                          std::int64_t nb_request) {
  const std::int64_t nq = kind == 'm' && !left ? n : m, cols = kind == 'm' && !left ? m : n,
                     nb = qr_panel_width(prefix, nb_request);
  std::int64_t blocks = 0, w_max = 0;
  for (std::int64_t j0 = 0; j0 < k; j0 += nb) {
    const std::int64_t w = std::min(nb, k - j0);
    w_max = std::max(w_max, w);
    const std::int64_t one = (nq - j0) * w + w * w;
    blocks = kind == 'q' ? std::max(blocks, one) : blocks + one;
  }
  return std::max<std::int64_t>(1, blocks + 2 * w_max * cols);
}

std::string QrPlan::print() const {
  PlanFacts f;
  f.routine = routine;
  f.shape = std::to_string(m) + "x" + std::to_string(n) + " k=" + std::to_string(k);
  f.variant = "blocked Householder, compact WY, panel width " + std::to_string(nb) + ", " + std::to_string(panels) +
              (panels == 1 ? " panel" : " panels");
  char buf[160];
  std::snprintf(buf, sizeof buf, "host %.3g flops (panels, T), TensorE %.3g flops (block reflectors, %s%s)",
                host_flops, gemm_flops, blas::gemm_mode_name(update_mode), complex ? ", 4M" : "");
  f.ops = buf;
  f.engines = "host CPU (panels), TensorE (GEMMs), VectorE, DMA";
  f.predicted_ns = predicted_ns.get();
  f.why = why;
  return f.print();
}
static_assert(trn::Plan<QrPlan>);

#define TRNSOLVER_QR_DEFINE(T)                                                                               \
  int geqrf(const Settings& s, std::int64_t m, std::int64_t n, T* A, std::int64_t lda, T* tau, CallReport* r) { \
    return geqrf_impl(s, m, n, A, lda, tau, r);                                                                \
  }                                                                                                            \
  int orgqr(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t k, T* A, std::int64_t lda,         \
            const T* tau, CallReport* r) {                                                                     \
    return orgqr_impl(s, m, n, k, A, lda, tau, r);                                                             \
  }                                                                                                            \
  int ormqr(const Settings& s, bool left, bool trans, std::int64_t m, std::int64_t n, std::int64_t k,          \
            const T* A, std::int64_t lda, const T* tau, T* C, std::int64_t ldc, CallReport* r) {               \
    return ormqr_impl(s, left, trans, m, n, k, A, lda, tau, C, ldc, r);                                        \
  }
#define TRNSOLVER_QR_BLOCK_DEFINE(T)                                                                          \
  int qr_block_reflector(const Settings& s, bool factor, std::int64_t r, std::int64_t w, T* A, std::int64_t lda, \
                         T* tau, T* V, T* Tf, CallReport* report) {                                            \
    return qr_block_impl(s, factor, r, w, A, lda, tau, V, Tf, report);                                          \
  }
TRN_FOR_EACH_SDCZ(TRNSOLVER_QR_BLOCK_DEFINE)
#undef TRNSOLVER_QR_BLOCK_DEFINE
TRNSOLVER_QR_DEFINE(float)
TRNSOLVER_QR_DEFINE(double)
TRNSOLVER_QR_DEFINE(std::complex<float>)
TRNSOLVER_QR_DEFINE(std::complex<double>)
#undef TRNSOLVER_QR_DEFINE

// The lower-precision QR of the refinement solvers (irs.cpp): block reflectors in `mode`.
#define TRNSOLVER_QR_MODE_DEFINE(T)                                                                            \
  int detail::geqrf_mode(const Settings& s, blas::GemmMode mode, std::int64_t m, std::int64_t n, T* A,          \
                         std::int64_t lda, T* tau, CallReport* r) {                                            \
    return geqrf_impl(s, m, n, A, lda, tau, r, &mode);                                                         \
  }                                                                                                            \
  int detail::ormqr_mode(const Settings& s, blas::GemmMode mode, bool left, bool trans, std::int64_t m,        \
                         std::int64_t n, std::int64_t k, const T* A, std::int64_t lda, const T* tau, T* C,     \
                         std::int64_t ldc, CallReport* r) {                                                    \
    return ormqr_impl(s, left, trans, m, n, k, A, lda, tau, C, ldc, r, &mode);                                 \
  }
TRNSOLVER_QR_MODE_DEFINE(float)
TRNSOLVER_QR_MODE_DEFINE(std::complex<float>)
#undef TRNSOLVER_QR_MODE_DEFINE

// xLARFG for the complex tridiagonalization (hetrd.cpp): the same code as the QR panels'.
namespace detail {
std::complex<float> larfg_complex(std::int64_t len, std::complex<float>& alpha, std::complex<float>* x) {
  return larfg(len, alpha, x);
}
std::complex<double> larfg_complex(std::int64_t len, std::complex<double>& alpha, std::complex<double>* x) {
  return larfg(len, alpha, x);
}
}  // namespace detail

// The SVD family's shared steps (svd_internal.hpp; gebrd.cpp, svd_family.cpp): xLARFG and the QR drivers'
// GEMM (TensorE, the mode of the QR block reflectors) for every element type.
namespace detail {
#define TRNSOLVER_SVD_STEPS_DEFINE(T)                                                                            \
  T householder(std::int64_t len, T& alpha, T* x) { return larfg(len, alpha, x); }                               \
  void qr_gemm(const Settings& s, char ta, char tb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,     \
               const T* A, std::int64_t lda, const T* B, std::int64_t ldb, T beta, T* C, std::int64_t ldc,       \
               TraceParts& trace) {                                                                              \
    const blas::GemmMode mode = kFp64<T> ? blas::GemmMode::fp64_ozaki : blas::GemmMode::fp32;                   \
    detail::gemm_step<T>(step_blas_settings(s), mode, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, trace);         \
  }
TRNSOLVER_SVD_STEPS_DEFINE(float)
TRNSOLVER_SVD_STEPS_DEFINE(double)
TRNSOLVER_SVD_STEPS_DEFINE(std::complex<float>)
TRNSOLVER_SVD_STEPS_DEFINE(std::complex<double>)
#undef TRNSOLVER_SVD_STEPS_DEFINE
}  // namespace detail

}  // namespace trn::solver
