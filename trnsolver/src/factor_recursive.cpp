// The recursive D / C / Z LU and Cholesky panels (factor_recursive.hpp has the algorithm, engines,
// accuracy and limits). Moved here from getrf.cpp / potrf.cpp (dgetrf2 / dpotrf2, last session) and
// made a template over the value type, so that cgetrf / zgetrf / cpotrf / zpotrf run the same steps.
#include "factor_recursive.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "interchanges.hpp"
#include "syevj_internal.hpp"
#include "trn/blas/level3.hpp"
#include "trn/core/host_step.hpp"

namespace trn::solver::detail {
namespace {

// What differs between the value types: host-step names, flop weights, the U12 leaf, the pivot
// measure, the trnblas settings and calls (below, as overloads).
template <class T>
struct Kind;
template <>
struct Kind<double> {
  static constexpr const char* getrf_leaf = "trnsolver.dgetrf.leaf";
  static constexpr const char* potrf_leaf = "trnsolver.dpotrf.leaf";
  static constexpr double cma = 2.0, div = 1.0;  // flops of a multiply-add, of a division
  static constexpr std::int64_t u12_leaf = 16;
};
template <>
struct Kind<std::complex<float>> {
  static constexpr const char* getrf_leaf = "trnsolver.cgetrf.leaf";
  static constexpr const char* potrf_leaf = "trnsolver.cpotrf.leaf";
  static constexpr double cma = 8.0, div = 8.0;
  // CTRSM's diagonal blocks run on the engines (fp32): one CTRSM, no halving.
  static constexpr std::int64_t u12_leaf = std::numeric_limits<std::int64_t>::max();
};
template <>
struct Kind<std::complex<double>> {
  static constexpr const char* getrf_leaf = "trnsolver.zgetrf.leaf";
  static constexpr const char* potrf_leaf = "trnsolver.zpotrf.leaf";
  static constexpr double cma = 8.0, div = 8.0;
  static constexpr std::int64_t u12_leaf = 16;
};

template <class T>
constexpr bool kComplex = !std::is_same_v<T, double>;

// LAPACK's pivot measure: |a| (IDAMAX), |re| + |im| (ICAMAX / IZAMAX, in the element's precision).
inline double pivot_measure(double a) { return std::fabs(a); }
template <class R>
R pivot_measure(std::complex<R> a) {
  return std::fabs(a.real()) + std::fabs(a.imag());
}
inline double conj_of(double a) { return a; }
template <class R>
std::complex<R> conj_of(std::complex<R> a) {
  return std::conj(a);
}
inline double real_of(double a) { return a; }
template <class R>
R real_of(std::complex<R> a) {
  return a.real();
}

// The trnblas settings of the steps: D as dgetrf's Ozaki updates (unchanged bits); C in the handle's
// numerics, Z Ozaki, both with substitution TRSM (componentwise backward stable, complex_factor.cpp).
template <class T>
blas::Settings settings_of(const Settings& s) {
  if constexpr (std::is_same_v<T, double>) return fp64_update_blas_settings(s);
  blas::Settings bs = std::is_same_v<T, std::complex<float>> ? step_blas_settings(s) : fp64_update_blas_settings(s);
  bs.trsm_substitution = true;
  return bs;
}

blas::Op op_of(bool adj) { return adj ? blas::Op::T : blas::Op::N; }
blas::COp cop_of(bool adj) { return adj ? blas::COp::C : blas::COp::N; }

// C -= op(A) op(B) (op: adj ? transpose / conjugate transpose : none).
void gemm_minus(const RecursiveFactor& f, bool adj_a, bool adj_b, std::int64_t m, std::int64_t n, std::int64_t k,
                const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double* C, std::int64_t ldc) {
  blas::CallReport r;
  blas::dgemm(settings_of<double>(f.s), op_of(adj_a), op_of(adj_b), m, n, k, -1.0, A, lda, B, ldb, 1.0, C, ldc, &r);
  f.trace.add(std::move(r.trace));
}
void gemm_minus(const RecursiveFactor& f, bool adj_a, bool adj_b, std::int64_t m, std::int64_t n, std::int64_t k,
                const std::complex<float>* A, std::int64_t lda, const std::complex<float>* B, std::int64_t ldb,
                std::complex<float>* C, std::int64_t ldc) {
  using Cf = std::complex<float>;
  blas::CallReport r;
  blas::cgemm(settings_of<Cf>(f.s), f.mode, blas::ComplexAlgo::four_m, cop_of(adj_a), cop_of(adj_b), m, n, k, Cf(-1),
              A, lda, B, ldb, Cf(1), C, ldc, &r);
  f.trace.add(std::move(r.trace));
}
void gemm_minus(const RecursiveFactor& f, bool adj_a, bool adj_b, std::int64_t m, std::int64_t n, std::int64_t k,
                const std::complex<double>* A, std::int64_t lda, const std::complex<double>* B, std::int64_t ldb,
                std::complex<double>* C, std::int64_t ldc) {
  using Cd = std::complex<double>;
  blas::CallReport r;
  blas::zgemm(settings_of<Cd>(f.s), blas::ComplexAlgo::four_m, cop_of(adj_a), cop_of(adj_b), m, n, k, Cd(-1), A, lda,
              B, ldb, Cd(1), C, ldc, &r);
  f.trace.add(std::move(r.trace));
}

// C -= op(A) op(A)^H on C's uplo triangle (op: adj ? A^H : A); SYRK for D.
void herk_minus(const RecursiveFactor& f, bool lower, bool adj, std::int64_t n, std::int64_t k, const double* A,
                std::int64_t lda, double* C, std::int64_t ldc) {
  blas::CallReport r;
  blas::dsyrk(settings_of<double>(f.s), lower ? blas::Uplo::lower : blas::Uplo::upper, op_of(adj), n, k, -1.0, A, lda,
              1.0, C, ldc, &r);
  f.trace.add(std::move(r.trace));
}
void herk_minus(const RecursiveFactor& f, bool lower, bool adj, std::int64_t n, std::int64_t k,
                const std::complex<float>* A, std::int64_t lda, std::complex<float>* C, std::int64_t ldc) {
  blas::CallReport r;
  blas::cherk(settings_of<std::complex<float>>(f.s), blas::GemmMode::fp32, lower ? blas::Uplo::lower : blas::Uplo::upper,
              cop_of(adj), n, k, -1.0f, A, lda, 1.0f, C, ldc, &r);
  f.trace.add(std::move(r.trace));
}
void herk_minus(const RecursiveFactor& f, bool lower, bool adj, std::int64_t n, std::int64_t k,
                const std::complex<double>* A, std::int64_t lda, std::complex<double>* C, std::int64_t ldc) {
  blas::CallReport r;
  blas::zherk(settings_of<std::complex<double>>(f.s), lower ? blas::Uplo::lower : blas::Uplo::upper, cop_of(adj), n, k,
              -1.0, A, lda, 1.0, C, ldc, &r);
  f.trace.add(std::move(r.trace));
}

// B = L^-1 B for the unit lower w x w triangle L.
void trsm_unit_lower(const RecursiveFactor& f, std::int64_t w, std::int64_t cols, const double* L, std::int64_t ldl,
                     double* B, std::int64_t ldb) {
  blas::CallReport r;
  blas::dtrsm(settings_of<double>(f.s), blas::Side::left, blas::Uplo::lower, blas::Op::N, blas::Diag::unit, w, cols,
              1.0, L, ldl, B, ldb, &r);
  f.trace.add(std::move(r.trace));
}
void trsm_unit_lower(const RecursiveFactor& f, std::int64_t w, std::int64_t cols, const std::complex<float>* L,
                     std::int64_t ldl, std::complex<float>* B, std::int64_t ldb) {
  blas::CallReport r;
  blas::ctrsm(settings_of<std::complex<float>>(f.s), blas::GemmMode::fp32, blas::Side::left, blas::Uplo::lower,
              blas::COp::N, blas::Diag::unit, w, cols, std::complex<float>(1), L, ldl, B, ldb, &r);
  f.trace.add(std::move(r.trace));
}
void trsm_unit_lower(const RecursiveFactor& f, std::int64_t w, std::int64_t cols, const std::complex<double>* L,
                     std::int64_t ldl, std::complex<double>* B, std::int64_t ldb) {
  blas::CallReport r;
  blas::ztrsm(settings_of<std::complex<double>>(f.s), blas::Side::left, blas::Uplo::lower, blas::COp::N,
              blas::Diag::unit, w, cols, std::complex<double>(1), L, ldl, B, ldb, &r);
  f.trace.add(std::move(r.trace));
}

// U12 by recursive halving down to diagonal blocks of at most `leaf` rows (one TRSM each).
template <class T>
void u12_halving(const RecursiveFactor& f, std::int64_t leaf, std::int64_t w, std::int64_t cols, const T* L,
                 std::int64_t ldl, T* B, std::int64_t ldb) {
  if (w <= 0 || cols <= 0) return;
  if (w <= leaf) return trsm_unit_lower(f, w, cols, L, ldl, B, ldb);
  const std::int64_t w1 = w / 2;
  u12_halving(f, leaf, w1, cols, L, ldl, B, ldb);
  gemm_minus(f, false, false, w - w1, cols, w1, L + w1, ldl, B, ldb, B + w1, ldb);
  u12_halving(f, leaf, w - w1, cols, L + w1 + w1 * ldl, ldl, B + w1, ldb);
}

// The recursion's leaf: LAPACK xGETF2 on the M x w block at (r0, c0) (w <= kFp64LeafColumns), on the
// host in T (one round trip: the block to the host and back, O(M w^2) flops). Per column j: the
// pivot p = the first row of the largest pivot_measure (LAPACK's choice), rows j and p interchanged
// across the block's w columns, a_ij /= a_jj below (one division each), the rank-1 update of the
// block's later columns. A zero pivot: info (the first), no interchange, no scaling (xgetrf2).
template <class T>
void getrf_leaf(const RecursiveFactor& f, T* A, std::int64_t ld, std::int64_t r0, std::int64_t c0, std::int64_t M,
                std::int64_t w, int* lp) {
  T* a = A + r0 + c0 * ld;
  double flops = 0;
  for (std::int64_t j = 0; j < w; ++j) {
    T* col = a + j * ld;
    std::int64_t q = j;
    if (f.pivot)
      for (std::int64_t i = j + 1; i < M; ++i)
        if (pivot_measure(col[i]) > pivot_measure(col[q])) q = i;
    lp[j] = static_cast<int>(q + 1);
    flops += (kComplex<T> ? 2.0 : 1.0) * static_cast<double>(M - j);
    if (col[q] == T(0)) {
      if (f.info == 0) f.info = static_cast<int>(c0 + j + 1);
      continue;
    }
    if (q != j)
      for (std::int64_t c = 0; c < w; ++c) std::swap(a[j + c * ld], a[q + c * ld]);
    for (std::int64_t i = j + 1; i < M; ++i) col[i] /= col[j];
    for (std::int64_t c = j + 1; c < w; ++c)
      for (std::int64_t i = j + 1; i < M; ++i) a[i + c * ld] -= col[i] * a[j + c * ld];
    flops += static_cast<double>(M - j - 1) * (Kind<T>::div + Kind<T>::cma * static_cast<double>(w - j - 1));
  }
  f.host += flops;
  const HostSpan span = HostSpan::matrix(a, M, w, ld);
  record_host_step(f.trace, HostStep{.name = Kind<T>::getrf_leaf, .flops = flops, .reads = {span}, .writes = {span}});
}

// The recursion's leaf: LAPACK xPOTF2 (right-looking) on the M x w block at (c0, c0) of the lower
// view, w <= kFp64LeafColumns, on the host in T (one round trip, O(M w^2) flops): l_jj = sqrt(s_jj)
// (the real part: xPOTRF2), l_ij = s_ij / l_jj below, the block's later columns updated. A
// non-positive or non-finite pivot: info = its column, the column left as its Schur complement
// (its real part on the diagonal). Returns false then.
template <class T>
bool potrf_leaf(const RecursiveFactor& f, T* A, std::int64_t ld, bool lower, std::int64_t c0, std::int64_t M,
                std::int64_t w) {
  auto ref = [&](std::int64_t i, std::int64_t j) -> T& {
    return lower ? A[(c0 + i) + (c0 + j) * ld] : A[(c0 + j) + (c0 + i) * ld];
  };
  auto get = [&](std::int64_t i, std::int64_t j) { return lower ? ref(i, j) : conj_of(ref(i, j)); };
  auto put = [&](std::int64_t i, std::int64_t j, T v) { ref(i, j) = lower ? v : conj_of(v); };
  double flops = 0;
  bool ok = true;
  for (std::int64_t j = 0; j < w && ok; ++j) {
    const auto d = real_of(ref(j, j));
    ok = d > 0 && std::isfinite(d);
    if (!ok) {
      if constexpr (kComplex<T>) ref(j, j) = T(d);
      f.info = static_cast<int>(c0 + j + 1);
      break;
    }
    const auto r = std::sqrt(d);
    ref(j, j) = T(r);
    for (std::int64_t i = j + 1; i < M; ++i) put(i, j, get(i, j) / r);
    for (std::int64_t k = j + 1; k < w; ++k)
      for (std::int64_t i = k; i < M; ++i) put(i, k, get(i, k) - get(i, j) * conj_of(get(k, j)));
    flops += static_cast<double>(M - j) * (Kind<T>::div + Kind<T>::cma * static_cast<double>(w - j - 1));
  }
  f.host += flops;
  T* at = &ref(0, 0);
  const HostSpan span = lower ? HostSpan::matrix(at, M, w, ld) : HostSpan::matrix(at, w, M, ld);
  record_host_step(f.trace, HostStep{.name = Kind<T>::potrf_leaf, .flops = flops, .reads = {span}, .writes = {span}});
  return ok;
}

// S[c0 + n1 .., c0 + n1 .. c0 + w) -= X Y^H with X = L[c0 + n1 .. c0 + M, c0 .. c0 + n1),
// Y = L[c0 + n1 .. c0 + w, c0 .. c0 + n1): HERK (SYRK) on the n2 x n2 diagonal block (its uplo
// triangle only) and one GEMM for the rows below it, in the stored orientation.
template <class T>
void potrf_update(const RecursiveFactor& f, T* A, std::int64_t ld, bool lower, std::int64_t c0, std::int64_t M,
                  std::int64_t n1, std::int64_t n2) {
  auto at = [&](std::int64_t i, std::int64_t j) { return lower ? A + i + j * ld : A + j + i * ld; };
  const std::int64_t below = M - n1 - n2, r1 = c0 + n1, r2 = c0 + n1 + n2;
  herk_minus(f, lower, !lower, n2, n1, at(r1, c0), ld, at(r1, r1), ld);
  if (below <= 0) return;
  if (lower)  // L[r2.., r1..] -= L[r2.., c0..] L[r1.., c0..]^H
    gemm_minus(f, false, true, below, n2, n1, at(r2, c0), ld, at(r1, c0), ld, at(r2, r1), ld);
  else  // U[r1.., r2..] -= U[c0.., r1..]^H U[c0.., r2..]
    gemm_minus(f, true, false, n2, below, n1, at(r1, c0), ld, at(r2, c0), ld, at(r2, r1), ld);
}

}  // namespace

template <class T>
void getrf_u12(const RecursiveFactor& f, std::int64_t w, std::int64_t cols, const T* L, std::int64_t ldl, T* B,
               std::int64_t ldb) {
  u12_halving(f, Kind<T>::u12_leaf, w, cols, L, ldl, B, ldb);
}

template <class T>
void getrf_panel(const RecursiveFactor& f, T* A, std::int64_t lda, std::int64_t r0, std::int64_t c0, std::int64_t M,
                 std::int64_t w, int* lp) {
  if (w <= kFp64LeafColumns) return getrf_leaf(f, A, lda, r0, c0, M, w, lp);
  const std::int64_t n1 = w / 2, n2 = w - n1, ld = lda;
  T* a = A + r0 + c0 * ld;  // the panel's (0, 0)
  getrf_panel(f, A, lda, r0, c0, M, n1, lp);
  if (f.pivot) apply_interchanges(f.s, lp, 0, n1, true, M, n2, a + n1 * ld, ld, sizeof(T), f.trace);
  getrf_u12(f, n1, n2, a, ld, a + n1 * ld, ld);
  if (M > n1) gemm_minus(f, false, false, M - n1, n2, n1, a + n1, ld, a + n1 * ld, ld, a + n1 + n1 * ld, ld);
  getrf_panel(f, A, lda, r0 + n1, c0 + n1, M - n1, n2, lp + n1);
  for (std::int64_t k = n1; k < w; ++k) lp[k] += static_cast<int>(n1);
  if (f.pivot) apply_interchanges(f.s, lp, n1, w, true, M, n1, a, ld, sizeof(T), f.trace);
}

template <class T>
void getrf_blocked(const RecursiveFactor& f0, std::int64_t m, std::int64_t n, T* A, std::int64_t lda, int* ipiv,
                   std::int64_t nb) {
  const RecursiveFactor f{f0.s, f0.mode, ipiv != nullptr, f0.info, f0.host, f0.trace};
  const std::int64_t kmin = std::min(m, n);
  std::vector<int> lp(static_cast<std::size_t>(std::max<std::int64_t>(nb, 1)));
  for (std::int64_t j0 = 0; j0 < kmin; j0 += nb) {
    const std::int64_t w = std::min(nb, kmin - j0), n2 = n - j0 - w, m2 = m - j0 - w;
    // The panel (recursive), its interchanges on the columns left and right of it (DMA), U12 and
    // the trailing update.
    getrf_panel(f, A, lda, j0, j0, m - j0, w, lp.data());
    if (ipiv != nullptr) {
      for (std::int64_t k = 0; k < w; ++k) ipiv[j0 + k] = lp[static_cast<std::size_t>(k)] + static_cast<int>(j0);
      apply_interchanges(f.s, lp.data(), 0, w, true, m - j0, j0, A + j0, lda, sizeof(T), f.trace);
      if (n2 > 0)
        apply_interchanges(f.s, lp.data(), 0, w, true, m - j0, n2, A + j0 + (j0 + w) * lda, lda, sizeof(T), f.trace);
    }
    if (n2 <= 0) continue;
    // C, Z: one TRSM, as trnsolverMp's panel solve (its 1 x 1 grid's bits follow this driver's).
    const std::int64_t leaf = kComplex<T> ? w : Kind<T>::u12_leaf;
    u12_halving(f, leaf, w, n2, A + j0 + j0 * lda, lda, A + j0 + (j0 + w) * lda, lda);
    if (m2 <= 0) continue;
    gemm_minus(f, false, false, m2, n2, w, A + (j0 + w) + j0 * lda, lda, A + j0 + (j0 + w) * lda, lda,
               A + (j0 + w) + (j0 + w) * lda, lda);
  }
}

template <class T>
bool potrf_panel(const RecursiveFactor& f, T* A, std::int64_t lda, bool lower, std::int64_t c0, std::int64_t M,
                 std::int64_t w) {
  if (w <= kFp64LeafColumns) return potrf_leaf(f, A, lda, lower, c0, M, w);
  const std::int64_t n1 = w / 2, n2 = w - n1;
  if (!potrf_panel(f, A, lda, lower, c0, M, n1)) return false;
  potrf_update(f, A, lda, lower, c0, M, n1, n2);
  return potrf_panel(f, A, lda, lower, c0 + n1, M - n1, n2);
}

template <class T>
void potrf_blocked(const RecursiveFactor& f, bool lower, std::int64_t n, T* A, std::int64_t lda, std::int64_t nb) {
  for (std::int64_t j0 = 0; j0 < n && f.info == 0; j0 += nb) {
    const std::int64_t w = std::min(nb, n - j0), n2 = n - j0 - w;
    if (!potrf_panel(f, A, lda, lower, j0, n - j0, w) || n2 <= 0) continue;
    const T* panel = lower ? A + (j0 + w) + j0 * lda : A + j0 + (j0 + w) * lda;
    herk_minus(f, lower, !lower, n2, w, panel, lda, A + (j0 + w) + (j0 + w) * lda, lda);
  }
}

#define TRNSOLVER_RECURSIVE_FACTOR_INSTANTIATE(T)                                                                    \
  template void getrf_u12<T>(const RecursiveFactor&, std::int64_t, std::int64_t, const T*, std::int64_t, T*,          \
                             std::int64_t);                                                                          \
  template void getrf_panel<T>(const RecursiveFactor&, T*, std::int64_t, std::int64_t, std::int64_t, std::int64_t,    \
                               std::int64_t, int*);                                                                  \
  template void getrf_blocked<T>(const RecursiveFactor&, std::int64_t, std::int64_t, T*, std::int64_t, int*,          \
                                 std::int64_t);                                                                      \
  template bool potrf_panel<T>(const RecursiveFactor&, T*, std::int64_t, bool, std::int64_t, std::int64_t,            \
                               std::int64_t);                                                                        \
  template void potrf_blocked<T>(const RecursiveFactor&, bool, std::int64_t, T*, std::int64_t, std::int64_t);
TRNSOLVER_RECURSIVE_FACTOR_INSTANTIATE(double)
TRNSOLVER_RECURSIVE_FACTOR_INSTANTIATE(std::complex<float>)
TRNSOLVER_RECURSIVE_FACTOR_INSTANTIATE(std::complex<double>)
#undef TRNSOLVER_RECURSIVE_FACTOR_INSTANTIATE

}  // namespace trn::solver::detail
