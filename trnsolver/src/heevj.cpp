// The complex Jacobi family (C, Z): heevj / heevjBatched (two-sided cyclic block Jacobi on the
// Hermitian matrix) and gesvdj / gesvdjBatched (one-sided block Jacobi), complex_eig.hpp documents the
// semantics, docs/trnsolver.md "Complex Hermitian eigen and complex Jacobi" the algorithm and bounds.
//
// Both drivers sweep over the pairs (I, J) of column blocks of width b = kHeevjBlock (the whole matrix is
// one block when n <= b). Per pair the 2b x 2b subproblem -- A(IJ, IJ) for heevj, the Gram matrix
// X(:, IJ)^H X(:, IJ) for gesvdj, by a complex GEMM on TensorE -- is diagonalised on the host in fp64 by
// the scalar cyclic complex Jacobi (a recorded host step, O(b^3)), and its unitary U is applied where the
// flops are (O(n b^2) per pair): A(:, IJ) U, U^H A(IJ, :) and V(:, IJ) U as trnblas complex GEMMs
// (cgemm 4M in fp32 mode for C, zgemm through Ozaki fp64 for Z). Every sweep count is bounded by
// max_sweeps, every subproblem by kHostSweeps.
#include <immintrin.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "complex_eig_internal.hpp"
#include "jacobi_f64.hpp"
#include "trn/core/host_simd.hpp"
#include "trn/core/scratch.hpp"

namespace trn::solver {
namespace {

using detail::RealOf;
using Wide = std::complex<double>;
constexpr int kHostSweeps = 30;  // the fp64 subproblem converges quadratically; 30 sweeps bound it

void require(bool ok, const char* what) {
  if (!ok) throw UsageError("trnsolver", "argument", what);
}

// Unit roundoff of the working type.
template <class R>
constexpr double kUnit = std::is_same_v<R, float> ? FLT_EPSILON / 2 : DBL_EPSILON / 2;

// Whether every part of the k x k matrices g and u is finite and at most 2^900 in magnitude. Then no
// product host_jacobi forms overflows or is NaN: its rotations are unitary (|c|, |s e^{i phi}| <= 1),
// so no entry grows past the Frobenius norm (k 2^900.5 plus rounding, far below DBL_MAX), and every
// complex product takes GCC's inline (a c - b d, a d + b c), whose bits the split loops below repeat
// (GCC calls __muldc3 only when both parts come out NaN).
bool jacobi_operands_tame(std::int64_t k, const Wide* g, const Wide* u) {
  constexpr double kTame = 0x1p900;
  bool ok = true;
  for (const Wide* x : {g, u})
    for (std::int64_t i = 0; i < k * k; ++i)  // no early exit: a branch-free fold that vectorizes
      ok &= std::fabs(x[i].real()) <= kTame && std::fabs(x[i].imag()) <= kTame;
  return ok;
}

// x(:, p) = c x(:, p) - sm x(:, q), x(:, q) = sp x(:, p) + c x(:, q) (stride 1, `len` entries; rows of
// g: stride k), each complex product as GCC's inline one: re = a c - b d, im = a d + b c (fp-contract
// off). Only for tame operands (jacobi_operands_tame): then the bits are std::complex's.
inline void rotate_pair(double* xp, double* xq, std::int64_t len, std::int64_t stride, double c, Wide m, Wide pl) {
  const double mr = m.real(), mi = m.imag(), pr = pl.real(), pi = pl.imag();
  for (std::int64_t i = 0; i < len; ++i) {
    double* a = xp + 2 * i * stride;
    double* b = xq + 2 * i * stride;
    const double ar = a[0], ai = a[1], br = b[0], bi = b[1];
    const double mbr = mr * br - mi * bi, mbi = mr * bi + mi * br;  // m x(q)
    const double par = pr * ar - pi * ai, pai = pr * ai + pi * ar;  // pl x(p)
    a[0] = c * ar - mbr;
    a[1] = c * ai - mbi;
    b[0] = par + c * br;
    b[1] = pai + c * bi;
  }
}

// rotate_pair for stride 1 with AVX-512, four complex entries per vector: the same products, sums and
// roundings per entry (lane-wise IEEE; the real lanes subtract, the imaginary ones add, as the scalar
// loop), so the same bits.
__attribute__((target("avx512f"))) void rotate_pair_avx512(double* xp, double* xq, std::int64_t len, double c, Wide m,
                                                           Wide pl) {
  const __m512d vc = _mm512_set1_pd(c), mr = _mm512_set1_pd(m.real()), mi = _mm512_set1_pd(m.imag()),
                pr = _mm512_set1_pd(pl.real()), pi = _mm512_set1_pd(pl.imag());
  constexpr __mmask8 kReal = 0x55;  // lanes 0, 2, 4, 6: real parts
  std::int64_t i = 0;
  for (; i + 4 <= len; i += 4) {
    const __m512d a = _mm512_loadu_pd(xp + 2 * i), b = _mm512_loadu_pd(xq + 2 * i);
    const __m512d as = _mm512_shuffle_pd(a, a, 0x55), bs = _mm512_shuffle_pd(b, b, 0x55);  // (im, re) per entry
    const __m512d t1 = _mm512_mul_pd(mr, b), t2 = _mm512_mul_pd(mi, bs);              // (mr br, mr bi), (mi bi, mi br)
    const __m512d mb = _mm512_mask_sub_pd(_mm512_add_pd(t1, t2), kReal, t1, t2);      // m x(q)
    const __m512d t3 = _mm512_mul_pd(pr, a), t4 = _mm512_mul_pd(pi, as);
    const __m512d pa = _mm512_mask_sub_pd(_mm512_add_pd(t3, t4), kReal, t3, t4);  // pl x(p)
    _mm512_storeu_pd(xp + 2 * i, _mm512_sub_pd(_mm512_mul_pd(vc, a), mb));
    _mm512_storeu_pd(xq + 2 * i, _mm512_add_pd(pa, _mm512_mul_pd(vc, b)));
  }
  if (i < len) rotate_pair(xp + 2 * i, xq + 2 * i, len - i, 1, c, m, pl);
}

// The scalar cyclic Jacobi for the k x k Hermitian g (ld k, fp64) with the Demmel-Veselic threshold
// |g_pq| > tol sqrt(|g_pp g_qq|) (Forsythe & Henrici 1960, complex rotation
// J = [c, s e^{i phi}; -s e^{-i phi}, c], g_pq = |g_pq| e^{i phi}, t = tan as Golub & Van Loan
// Alg. 8.5.2); u accumulates the rotations (u = u J). Returns whether anything rotated. Tame operands
// (the usual case) rotate through the split loops (rotate_pair; columns with AVX-512 where the host
// has it), the same bits without the NaN branch after every complex product.
bool host_jacobi(std::int64_t k, Wide* g, Wide* u, double& flops) {
  bool any = false;
  const bool tame = jacobi_operands_tame(k, g, u), avx512 = host_simd_available(HostSimd::avx512);
  for (int sweep = 0; sweep < kHostSweeps; ++sweep) {
    bool rotated = false;
    for (std::int64_t p = 0; p < k; ++p)
      for (std::int64_t q = p + 1; q < k; ++q) {
        const Wide gpq = g[p + q * k];
        const double gpp = g[p + p * k].real(), gqq = g[q + q * k].real();
        const double threshold = DBL_EPSILON * std::sqrt(std::fabs(gpp * gqq));
        // |g_pq| <= sqrt(2) max(|re|, |im|), and hypot is within 1 ulp: below 2/3 of the threshold
        // that max decides the test as |g_pq| would (a converged pair costs no hypot).
        if (1.5 * std::max(std::fabs(gpq.real()), std::fabs(gpq.imag())) < threshold) continue;
        const double a = std::abs(gpq);
        if (!(a > threshold) || !(a > DBL_MIN)) continue;
        rotated = true;
        const Wide ph = gpq / a;
        const double tau = (gqq - gpp) / (2 * a), t = (tau >= 0 ? 1.0 : -1.0) / (std::fabs(tau) + std::hypot(1.0, tau));
        const double c = 1 / std::hypot(1.0, t), sn = t * c;
        const Wide sp = sn * ph, sm = sn * std::conj(ph);
        if (tame) {
          auto d = [](Wide* x) { return reinterpret_cast<double*>(x); };
          if (avx512) {
            rotate_pair_avx512(d(g + p * k), d(g + q * k), k, c, sm, sp);
            rotate_pair_avx512(d(u + p * k), d(u + q * k), k, c, sm, sp);
          } else {
            rotate_pair(d(g + p * k), d(g + q * k), k, 1, c, sm, sp);
            rotate_pair(d(u + p * k), d(u + q * k), k, 1, c, sm, sp);
          }
          rotate_pair(d(g + p), d(g + q), k, k, c, sp, sm);
        } else {
          auto columns = [&](Wide* x) {
            for (std::int64_t i = 0; i < k; ++i) {
              const Wide xp = x[i + p * k], xq = x[i + q * k];
              x[i + p * k] = c * xp - sm * xq;
              x[i + q * k] = sp * xp + c * xq;
            }
          };
          columns(g);
          columns(u);
          for (std::int64_t j = 0; j < k; ++j) {
            const Wide xp = g[p + j * k], xq = g[q + j * k];
            g[p + j * k] = c * xp - sp * xq;
            g[q + j * k] = sm * xp + c * xq;
          }
        }
        g[p + q * k] = g[q + p * k] = 0;
        g[p + p * k] = gpp - t * a;
        g[q + q * k] = gqq + t * a;
        flops += 72.0 * static_cast<double>(k);
      }
    any = any || rotated;
    if (!rotated) break;
  }
  return any;
}

template <class T>
ScratchVector<T> narrow(const ScratchVector<Wide>& u) {
  ScratchVector<T> out(u.size());
  for (std::size_t i = 0; i < u.size(); ++i) out[i] = T(static_cast<RealOf<T>>(u[i].real()), static_cast<RealOf<T>>(u[i].imag()));
  return out;
}

// The block pairs and their columns: jacobi_f64.hpp (shared with Dsyevj / Dgesvdj), blocks of kHeevjBlock.
std::vector<std::int64_t> pair_columns(std::int64_t n, std::int64_t bi, std::int64_t bj) {
  return detail::jacobi_pair_columns(n, kHeevjBlock, bi, bj);
}
std::vector<std::pair<std::int64_t, std::int64_t>> block_pairs(std::int64_t n) { return detail::jacobi_block_pairs(n, kHeevjBlock); }

// x(:, idx) <-> buf (rows x k, ld rows): index moves of the host side.
template <class T>
void gather(const T* x, std::int64_t ld, std::int64_t rows, const std::vector<std::int64_t>& idx, ScratchVector<T>& buf) {
  buf.resize(static_cast<std::size_t>(rows) * idx.size());
  for (std::size_t j = 0; j < idx.size(); ++j) std::copy(x + idx[j] * ld, x + idx[j] * ld + rows, buf.begin() + j * rows);
}
template <class T>
void scatter(const ScratchVector<T>& buf, std::int64_t rows, const std::vector<std::int64_t>& idx, T* x, std::int64_t ld) {
  for (std::size_t j = 0; j < idx.size(); ++j) std::copy(buf.begin() + j * rows, buf.begin() + (j + 1) * rows, x + idx[j] * ld);
}

// z 2^e, exactly (both parts; fp64's normal range).
template <class T>
T times_pow2(T z, int e) {
  return T(std::ldexp(z.real(), e), std::ldexp(z.imag(), e));
}

// The balanced rotation of Zheevj / Zgesvdj (as Dsyevj / Dgesvdj, jacobi_f64.hpp balanced_dgemm): U's
// row p times 2^e_p; the operand it meets is divided by 2^e_p along the same index, so every product
// is unchanged and the Ozaki ZGEMM's error, bounded per output by its row's and column's largest
// terms, stays relative to the graded scales. C: no balancing (empty e; fp32 4M products are exact).
template <class T>
ScratchVector<T> balanced_rotation(const ScratchVector<T>& U, std::int64_t k, const std::vector<int>& e) {
  ScratchVector<T> ub(U);
  for (std::int64_t j = 0; j < k && !e.empty(); ++j)
    for (std::int64_t p = 0; p < k; ++p) ub[p + j * k] = times_pow2(ub[p + j * k], e[static_cast<std::size_t>(p)]);
  return ub;
}

// x(:, idx) = x(:, idx) U (x rows x ., ld rows) by one complex GEMM; with balancing exponents e, as
// (x(:, idx) 2^-e) (2^e U) (Ub: U balanced by e, balanced_rotation).
template <class T>
void rotate_columns(const Settings& s, T* x, std::int64_t rows, const std::vector<std::int64_t>& idx,
                    const ScratchVector<T>& Ub, TraceParts& trace, const std::vector<int>& e = {}) {
  const auto k = static_cast<std::int64_t>(idx.size());
  ScratchVector<T> in, out(static_cast<std::size_t>(rows * k));
  gather(x, rows, rows, idx, in);
  for (std::int64_t p = 0; p < k && !e.empty(); ++p)
    for (std::int64_t i = 0; i < rows; ++i) in[i + p * rows] = times_pow2(in[i + p * rows], -e[static_cast<std::size_t>(p)]);
  detail::complex_gemm(s, blas::COp::N, blas::COp::N, rows, k, k, in.data(), rows, Ub.data(), k, out.data(), rows, trace);
  scatter(out, rows, idx, x, rows);
}

// Zheevj's balancing exponents of pair idx (two_sided_balance_exponents over the rows outside the
// pair); empty for C.
template <class T>
std::vector<int> heevj_exponents(std::int64_t n, const T* a, const std::vector<std::int64_t>& idx) {
  if constexpr (std::is_same_v<RealOf<T>, float>) return {};
  const auto k = static_cast<std::int64_t>(idx.size());
  std::vector<bool> in(static_cast<std::size_t>(n), false);
  for (std::int64_t i : idx) in[static_cast<std::size_t>(i)] = true;
  double mu = 0;
  for (std::int64_t i = 0; i < n; ++i) mu = std::max(mu, std::fabs(static_cast<double>(a[i + i * n].real())));
  std::vector<double> c(static_cast<std::size_t>(k), 0.0), d(static_cast<std::size_t>(k));
  for (std::int64_t p = 0; p < k; ++p) {
    for (std::int64_t i = 0; i < n; ++i)
      if (!in[static_cast<std::size_t>(i)]) c[p] = std::max(c[p], static_cast<double>(std::abs(a[i + idx[p] * n])));
    d[p] = std::fabs(static_cast<double>(a[idx[p] + idx[p] * n].real()));
  }
  return detail::two_sided_balance_exponents(mu, d, c);
}

// One Newton-Schulz step towards the unitary polar factor, Q <- Q (3 I - Q^H Q) / 2 (Higham, Functions of
// Matrices, 2008, 8.3): the rows x cols Q (ld rows) whose columns lost orthogonality to the rounding of
// the sweeps' GEMMs leaves with ||Q^H Q - I|| squared plus one GEMM's rounding. Two complex GEMMs on
// TensorE and an O(cols^2) host step. Q's leading dimension ldq >= rows.
template <class T>
void newton_schulz(const Settings& s, std::int64_t rows, std::int64_t cols, T* q, std::int64_t ldq, TraceParts& trace,
                   double& flops) {
  ScratchVector<T> g(static_cast<std::size_t>(cols * cols)), out(static_cast<std::size_t>(rows * cols));
  detail::complex_gemm(s, blas::COp::C, blas::COp::N, cols, cols, rows, q, ldq, q, ldq, g.data(), cols, trace);
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < cols; ++i) g[i + j * cols] = (i == j ? T(1.5) : T(0)) - T(0.5) * g[i + j * cols];
  flops += 2.0 * double(cols * cols);
  record_host_step(trace, HostStep{.name = "trnsolver.heevj.newton_schulz", .flops = 2.0 * double(cols * cols),
                                   .reads = {HostSpan(g.data(), cols * cols)}, .writes = {HostSpan(g.data(), cols * cols)}});
  detail::complex_gemm(s, blas::COp::N, blas::COp::N, rows, cols, cols, q, ldq, g.data(), cols, out.data(), rows, trace);
  for (std::int64_t j = 0; j < cols; ++j) std::copy(out.begin() + j * rows, out.begin() + (j + 1) * rows, q + j * ldq);
}

double off_norm(std::int64_t n, const auto* a) {
  double off = 0;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      if (i != j) off += std::norm(Wide(a[i + j * n].real(), a[i + j * n].imag()));
  return std::sqrt(off);
}

// One heevj pair: the subproblem A(idx, idx) in fp64 on the host, then A = U^H A U and V = V U on TensorE;
// A(idx, idx) receives the host's diagonalised block. Returns whether it rotated.
template <class T>
bool heevj_pair(const Settings& s, std::int64_t n, T* a, T* v, const std::vector<std::int64_t>& idx, TraceParts& trace,
                double& flops) {
  const auto k = static_cast<std::int64_t>(idx.size());
  ScratchVector<Wide> g(static_cast<std::size_t>(k * k)), u(g.size(), Wide(0));
  for (std::int64_t j = 0; j < k; ++j) {
    u[j + j * k] = 1;
    for (std::int64_t i = 0; i < k; ++i) {
      const T x = a[idx[i] + idx[j] * n], y = a[idx[j] + idx[i] * n];
      g[i + j * k] = 0.5 * (Wide(x.real(), x.imag()) + std::conj(Wide(y.real(), y.imag())));
    }
  }
  const bool rotated = host_jacobi(k, g.data(), u.data(), flops);
  // Z: the balancing (exact powers of two; O(n k) host work in this step).
  const std::vector<int> e = rotated ? heevj_exponents(n, a, idx) : std::vector<int>{};
  const double balance_flops = e.empty() ? 0.0 : 4.0 * double(n * k + k * k);
  flops += balance_flops;
  record_host_step(trace, HostStep{.name = "trnsolver.heevj.pair", .flops = 2.0 * double(k * k) + balance_flops,
                                   .reads = {HostSpan(a, n * n)}, .writes = {HostSpan(u.data(), k * k)}});
  if (!rotated) return false;
  const ScratchVector<T> U = narrow<T>(u), Ub = e.empty() ? ScratchVector<T>{} : balanced_rotation(U, k, e);
  const ScratchVector<T>& Ur = e.empty() ? U : Ub;  // C: U itself (its host addresses unchanged)
  rotate_columns(s, a, n, idx, Ur, trace, e);
  // Rows: A(idx, :) = U^H A(idx, :) = (2^e U)^H (2^-e A(idx, :)), the k x n row block gathered (index
  // moves) and rotated by one GEMM.
  ScratchVector<T> rin(static_cast<std::size_t>(k * n)), rout(rin.size());
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < k; ++i)
      rin[i + j * k] = e.empty() ? a[idx[i] + j * n] : times_pow2(a[idx[i] + j * n], -e[static_cast<std::size_t>(i)]);
  detail::complex_gemm(s, blas::COp::C, blas::COp::N, k, n, k, Ur.data(), k, rin.data(), k, rout.data(), k, trace);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < k; ++i) a[idx[i] + j * n] = rout[i + j * k];
  for (std::int64_t j = 0; j < k; ++j)
    for (std::int64_t i = 0; i < k; ++i)
      a[idx[i] + idx[j] * n] = i == j ? T(static_cast<RealOf<T>>(g[i + i * k].real()), 0)
                                      : T(static_cast<RealOf<T>>(g[i + j * k].real()), static_cast<RealOf<T>>(g[i + j * k].imag()));
  if (v != nullptr) rotate_columns(s, v, n, idx, U, trace);
  return true;
}

template <class T>
SyevjResult heevj_one(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, RealOf<T>* W,
                      const SyevjParams& p, bool sort, TraceParts& trace, double& flops) {
  using R = RealOf<T>;
  SyevjResult res;
  if (n == 0) return res;
  ScratchVector<T> a, v;
  if (!detail::hermitian_full(n, A, lda, uplo == Uplo::lower, a)) {
    res.info = static_cast<int>(n) + 1;
    res.residual = std::numeric_limits<double>::quiet_NaN();
    std::fill(W, W + n, std::numeric_limits<R>::quiet_NaN());
    return res;
  }
  if (vectors) {
    v.assign(static_cast<std::size_t>(n * n), T(0));
    for (std::int64_t i = 0; i < n; ++i) v[i + i * n] = T(1);
  }
  double fro = 0;
  for (const T& x : a) fro += std::norm(Wide(x.real(), x.imag()));
  const double tol = std::max(p.tolerance > 0 ? p.tolerance : 2 * kUnit<R>, 4 * std::sqrt(double(n)) * kUnit<R>);
  const double threshold = tol * std::sqrt(fro);
  res.residual = off_norm(n, a.data());
  const auto pairs = block_pairs(n);
  while (res.residual > threshold && res.sweeps < p.max_sweeps) {
    for (const auto& [bi, bj] : pairs)
      heevj_pair(s, n, a.data(), vectors ? v.data() : nullptr, pair_columns(n, bi, bj), trace, flops);
    ++res.sweeps;
    res.residual = off_norm(n, a.data());
  }
  res.info = res.residual <= threshold ? 0 : static_cast<int>(n) + 1;
  if (vectors && res.sweeps > 0) newton_schulz(s, n, n, v.data(), n, trace, flops);
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  if (sort) std::stable_sort(order.begin(), order.end(), [&](auto x, auto y) { return a[x + x * n].real() < a[y + y * n].real(); });
  for (std::int64_t j = 0; j < n; ++j) {
    W[j] = a[order[j] + order[j] * n].real();
    if (vectors) std::copy(v.begin() + order[j] * n, v.begin() + (order[j] + 1) * n, A + j * lda);
  }
  record_host_step(trace, HostStep{.name = "trnsolver.heevj.finish", .flops = 3.0 * double(n * n) * (res.sweeps + 1),
                                   .reads = {HostSpan(a.data(), n * n), HostSpan(v.data(), vectors ? n * n : 0)},
                                   .writes = {vectors ? HostSpan::matrix(A, n, n, lda) : HostSpan{}, HostSpan(W, n)}});
  return res;
}

template <class T>
std::vector<SyevjResult> heevj_any(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, T* A, std::int64_t lda,
                                   RealOf<T>* W, const SyevjParams& p, std::int64_t batch, bool batched, CallReport* report) {
  require(n >= 0 && lda >= std::max<std::int64_t>(1, n) && batch >= 0, "heevj: n >= 0, lda >= max(1, n), batch >= 0");
  require(n == 0 || batch == 0 || (A != nullptr && W != nullptr), "heevj: A and W not NULL");
  require(p.max_sweeps >= 0, "heevj: max_sweeps >= 0");
  if (report != nullptr) *report = CallReport{};
  TraceParts trace;
  double flops = 0;
  std::vector<SyevjResult> res;
  for (std::int64_t k = 0; k < batch; ++k)
    res.push_back(heevj_one(s, vectors, uplo, n, A + lda * n * k, lda, W + n * k, p, !batched || p.sort_eig, trace, flops));
  detail::finish_fp64_report(report, std::move(trace), s.target, flops);
  return res;
}

// ---- gesvdj --------------------------------------------------------------------------------------------

// Orthonormal columns q_0 .. q_{cols-1} of the rows x cols Q (ld rows): column j is kept when keep[j]
// (already unit and orthogonal to the other kept ones); each other column becomes the unit vector e_t
// whose component outside the accepted columns is largest (|P e_t|^2 = 1 - sum_d |q_d(t)|^2, at least
// (rows - accepted) / rows), orthogonalised twice against them (classical Gram-Schmidt, fp64 host).
template <class T>
void complete_basis(std::int64_t rows, std::int64_t cols, T* Q, std::int64_t ldq, const std::vector<bool>& keep,
                    double& flops) {
  const auto q = [&](std::int64_t i, std::int64_t d) { return Wide(Q[i + d * ldq].real(), Q[i + d * ldq].imag()); };
  std::vector<std::int64_t> done;
  for (std::int64_t j = 0; j < cols; ++j)
    if (keep[static_cast<std::size_t>(j)]) done.push_back(j);
  for (std::int64_t j = 0; j < cols; ++j) {
    if (keep[static_cast<std::size_t>(j)]) continue;
    std::int64_t best = 0;
    double best_left = -1;
    for (std::int64_t t = 0; t < rows; ++t) {
      double left = 1;
      for (std::int64_t d : done) left -= std::norm(q(t, d));
      if (left > best_left) best_left = left, best = t;
    }
    ScratchVector<Wide> w(static_cast<std::size_t>(rows), Wide(0));
    w[best] = 1;
    for (int pass = 0; pass < 2; ++pass)
      for (std::int64_t d : done) {
        Wide h = 0;
        for (std::int64_t i = 0; i < rows; ++i) h += std::conj(q(i, d)) * w[i];
        for (std::int64_t i = 0; i < rows; ++i) w[i] -= h * q(i, d);
      }
    flops += 34.0 * double(rows) * double(done.size());
    double nrm = 0;
    for (const Wide& x : w) nrm += std::norm(x);
    for (std::int64_t i = 0; i < rows; ++i) {
      const Wide x = w[i] / std::sqrt(nrm);
      Q[i + j * ldq] = T(static_cast<RealOf<T>>(x.real()), static_cast<RealOf<T>>(x.imag()));
    }
    done.push_back(j);
  }
}

// One block pair of the one-sided sweep: G = X^H X on TensorE, its largest pair cosine (returned), and when
// it exceeds tol the host Jacobi of G and X = X U, V = V U on TensorE.
// Columns of squared norm <= negligible (noise of a zero singular value) take no part in the cosine test.
template <class T>
double gesvdj_pair(const Settings& s, std::int64_t rows, std::int64_t cols, T* x, T* v,
                   const std::vector<std::int64_t>& idx, double tol, double negligible, TraceParts& trace,
                   double& flops) {
  const auto k = static_cast<std::int64_t>(idx.size());
  ScratchVector<T> X, G(static_cast<std::size_t>(k * k));
  gather(x, rows, rows, idx, X);
  detail::complex_gemm(s, blas::COp::C, blas::COp::N, k, k, rows, X.data(), rows, X.data(), rows, G.data(), k, trace);
  ScratchVector<Wide> g(G.size()), u(G.size(), Wide(0));
  double worst = 0;
  for (std::int64_t j = 0; j < k; ++j) {
    u[j + j * k] = 1;
    for (std::int64_t i = 0; i < k; ++i) {
      g[i + j * k] = 0.5 * (Wide(G[i + j * k].real(), G[i + j * k].imag()) + Wide(G[j + i * k].real(), -G[j + i * k].imag()));
      const double gi = G[i + i * k].real(), gj = G[j + j * k].real(), d = std::sqrt(std::fabs(gi * gj));
      if (i != j && std::min(gi, gj) > negligible) worst = std::max(worst, std::abs(g[i + j * k]) / d);
    }
  }
  const bool rotate = worst > tol && host_jacobi(k, g.data(), u.data(), flops);
  // Z: column p balanced by its norm's exponent (Dgesvdj's e_p = scale_exponent(||x_p||)).
  std::vector<int> e;
  if constexpr (!std::is_same_v<RealOf<T>, float>)
    for (std::int64_t p = 0; p < k && rotate; ++p) e.push_back(detail::scale_exponent(std::sqrt(G[p + p * k].real())));
  const double balance_flops = e.empty() ? 0.0 : 4.0 * double(rows * k + k * k);
  flops += balance_flops;
  record_host_step(trace, HostStep{.name = "trnsolver.gesvdj.pair", .flops = 2.0 * double(k * k) + balance_flops,
                                   .reads = {HostSpan(G.data(), k * k)}, .writes = {HostSpan(u.data(), k * k)}});
  if (!rotate) return worst;
  const ScratchVector<T> U = narrow<T>(u);
  if (e.empty())  // C: U itself (no copy: the trace's host addresses, and so C's modeled time, unchanged)
    rotate_columns(s, x, rows, idx, U, trace);
  else
    rotate_columns(s, x, rows, idx, balanced_rotation(U, k, e), trace, e);
  if (v != nullptr) rotate_columns(s, v, cols, idx, U, trace);
  return worst;
}

// The left (rows x lcols) and right (cols x cols) singular vectors of the converged X = Left S Right^H.
template <class T>
void singular_vectors(std::int64_t rows, std::int64_t cols, const ScratchVector<T>& x, const ScratchVector<T>& v,
                      const std::vector<double>& sigma, const std::vector<std::int64_t>& order, std::int64_t lcols,
                      T* L, std::int64_t ldl, T* Rt, std::int64_t ldr, double& flops) {
  using R = RealOf<T>;
  std::vector<bool> keep(static_cast<std::size_t>(lcols), false);
  const double small = double(std::max(rows, cols)) * kUnit<R> * 2 * (sigma.empty() ? 0.0 : sigma[order[0]]);
  for (std::int64_t j = 0; j < cols; ++j) {
    const std::int64_t o = order[j];
    std::copy(v.begin() + o * cols, v.begin() + (o + 1) * cols, Rt + j * ldr);
    if (j >= lcols) continue;
    keep[j] = sigma[o] > small && sigma[o] > 0;
    for (std::int64_t i = 0; i < rows; ++i) L[i + j * ldl] = keep[j] ? x[i + o * rows] / static_cast<R>(sigma[o]) : T(0);
  }
  complete_basis(rows, lcols, L, ldl, keep, flops);
}

template <class T>
GesvdjResult gesvdj_one(const Settings& s, bool vectors, bool econ, std::int64_t m, std::int64_t n, const T* A,
                        std::int64_t lda, RealOf<T>* S, T* U, std::int64_t ldu, T* V, std::int64_t ldv,
                        const GesvdjParams& p, bool sort, TraceParts& trace, double& flops) {
  using R = RealOf<T>;
  GesvdjResult res;
  const bool tall = m >= n;
  const std::int64_t rows = tall ? m : n, cols = tall ? n : m;
  if (cols == 0) return res;
  ScratchVector<T> x(static_cast<std::size_t>(rows * cols)), v;
  bool finite = true;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      const T a = A[i + j * lda];
      finite = finite && std::isfinite(a.real()) && std::isfinite(a.imag());
      (tall ? x[i + j * m] : x[j + i * n]) = tall ? a : std::conj(a);
    }
  record_host_step(trace, HostStep{.name = "trnsolver.gesvdj.prepare", .flops = 0, .reads = {HostSpan::matrix(A, m, n, lda)},
                                   .writes = {HostSpan(x.data(), rows * cols)}});
  if (!finite) {
    res.info = static_cast<int>(cols) + 1;
    res.residual = std::numeric_limits<double>::quiet_NaN();
    std::fill(S, S + cols, std::numeric_limits<R>::quiet_NaN());
    return res;
  }
  v.assign(static_cast<std::size_t>(cols * cols), T(0));
  for (std::int64_t i = 0; i < cols; ++i) v[i + i * cols] = T(1);
  const double tol = std::max(p.tolerance > 0 ? p.tolerance : 2 * kUnit<R>, 4 * std::sqrt(double(rows)) * kUnit<R>);
  double fro = 0;
  for (const T& z : x) fro += std::norm(Wide(z.real(), z.imag()));
  const double negligible = fro * std::pow(4 * double(rows) * kUnit<R>, 2);
  const auto pairs = block_pairs(cols);
  bool converged = false;
  while (!converged && res.sweeps < p.max_sweeps) {
    double worst = 0;
    for (const auto& [bi, bj] : pairs)
      worst = std::max(worst, gesvdj_pair(s, rows, cols, x.data(), v.data(), pair_columns(cols, bi, bj), tol, negligible, trace, flops));
    ++res.sweeps;
    res.residual = worst;
    converged = worst <= tol;
  }
  res.info = converged ? 0 : static_cast<int>(cols) + 1;
  if (vectors && res.sweeps > 1) newton_schulz(s, cols, cols, v.data(), cols, trace, flops);
  std::vector<double> sigma(static_cast<std::size_t>(cols), 0.0);
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) sigma[j] += std::norm(Wide(x[i + j * rows].real(), x[i + j * rows].imag()));
  for (double& z : sigma) z = std::sqrt(z);
  std::vector<std::int64_t> order(static_cast<std::size_t>(cols));
  std::iota(order.begin(), order.end(), 0);
  if (sort) std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return sigma[a] > sigma[b]; });
  for (std::int64_t j = 0; j < cols; ++j) S[j] = static_cast<R>(sigma[order[j]]);
  if (vectors) {  // tall: U = left (m x m or m x n), V = right; wide: U = right, V = left (n x n or n x m)
    const std::int64_t lcols = econ ? cols : rows;
    T* L = tall ? U : V;
    const std::int64_t ldl = tall ? ldu : ldv;
    singular_vectors(rows, cols, x, v, sigma, order, lcols, L, ldl, tall ? V : U, tall ? ldv : ldu, flops);
    if (res.sweeps > 1) newton_schulz(s, rows, lcols, L, ldl, trace, flops);  // the columns' cosines -> ~u
  }
  record_host_step(trace, HostStep{.name = "trnsolver.gesvdj.finish", .flops = 4.0 * double(rows * cols) + 1,
                                   .reads = {HostSpan(x.data(), rows * cols), HostSpan(v.data(), cols * cols)},
                                   .writes = {HostSpan(S, cols), vectors ? HostSpan::matrix(U, m, econ ? cols : m, ldu) : HostSpan{},
                                              vectors ? HostSpan::matrix(V, n, econ ? cols : n, ldv) : HostSpan{}}});
  return res;
}

template <class T>
std::vector<GesvdjResult> gesvdj_any(const Settings& s, bool vectors, bool econ, std::int64_t m, std::int64_t n,
                                     T* A, std::int64_t lda, RealOf<T>* S, T* U, std::int64_t ldu, T* V,
                                     std::int64_t ldv, const GesvdjParams& p, std::int64_t batch, bool batched,
                                     CallReport* report) {
  const bool empty = m == 0 || n == 0 || batch == 0;
  require(m >= 0 && n >= 0 && batch >= 0 && lda >= std::max<std::int64_t>(1, m), "gesvdj: m, n >= 0, lda >= max(1, m)");
  require(!vectors || (ldu >= std::max<std::int64_t>(1, m) && ldv >= std::max<std::int64_t>(1, n)), "gesvdj: ldu >= m, ldv >= n");
  require(empty || (A != nullptr && S != nullptr && (!vectors || (U != nullptr && V != nullptr))), "gesvdj: A, S, U, V not NULL");
  require(p.max_sweeps >= 0, "gesvdj: max_sweeps >= 0");
  if (report != nullptr) *report = CallReport{};
  TraceParts trace;
  double flops = 0;
  std::vector<GesvdjResult> res;
  const std::int64_t mn = std::min(m, n);
  for (std::int64_t k = 0; k < batch && empty; ++k) res.emplace_back();  // A, U, V may be NULL: no offsets
  for (std::int64_t k = 0; k < batch && !empty; ++k)
    res.push_back(gesvdj_one(s, vectors, econ, m, n, A + lda * n * k, lda, S + mn * k, U + (vectors ? ldu * m * k : 0), ldu,
                             V + (vectors ? ldv * n * k : 0), ldv, p, !batched || p.sort_svd, trace, flops));
  detail::finish_fp64_report(report, std::move(trace), s.target, flops);
  return res;
}

}  // namespace

#define TRNSOLVER_COMPLEX_JACOBI_DEFINE(T, R)                                                                        \
  SyevjResult heevj(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, R* W,        \
                    const SyevjParams& p, CallReport* report) {                                                      \
    return heevj_any(s, vectors, uplo, n, A, lda, W, p, 1, false, report).front();                                   \
  }                                                                                                                  \
  std::vector<SyevjResult> heevj_batched(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, T* A,           \
                                         std::int64_t lda, R* W, const SyevjParams& p, std::int64_t batch,           \
                                         CallReport* report) {                                                       \
    return heevj_any(s, vectors, uplo, n, A, lda, W, p, batch, true, report);                                        \
  }                                                                                                                  \
  GesvdjResult gesvdj(const Settings& s, bool vectors, bool econ, std::int64_t m, std::int64_t n, T* A,              \
                      std::int64_t lda, R* S, T* U, std::int64_t ldu, T* V, std::int64_t ldv, const GesvdjParams& p, \
                      CallReport* report) {                                                                          \
    return gesvdj_any(s, vectors, econ, m, n, A, lda, S, U, ldu, V, ldv, p, 1, false, report).front();               \
  }                                                                                                                  \
  std::vector<GesvdjResult> gesvdj_batched(const Settings& s, bool vectors, std::int64_t m, std::int64_t n, T* A,    \
                                           std::int64_t lda, R* S, T* U, std::int64_t ldu, T* V, std::int64_t ldv,   \
                                           const GesvdjParams& p, std::int64_t batch, CallReport* report) {          \
    return gesvdj_any(s, vectors, false, m, n, A, lda, S, U, ldu, V, ldv, p, batch, true, report);                   \
  }
TRNSOLVER_COMPLEX_JACOBI_DEFINE(std::complex<float>, float)
TRNSOLVER_COMPLEX_JACOBI_DEFINE(std::complex<double>, double)
#undef TRNSOLVER_COMPLEX_JACOBI_DEFINE

}  // namespace trn::solver
