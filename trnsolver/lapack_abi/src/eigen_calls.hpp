// libtrnsolver_lapack.so, eigen and SVD families: reference LAPACK 3.11's argument checks and
// workspace sizes of ?SYEV ?SYEVD ?HEEV ?HEEVD ?SYGV ?SYGVD ?HEGV ?HEGVD ?SYEVR ?HEEVR ?SYEVX ?HEEVX ?GESVD
// ?GESDD ?GESVDX, and the bodies that answer them with trnsolver's kit (eigen_fortran.cpp and svd_fortran.cpp hold
// the symbols).
//
// Which kit routine answers (docs/trnsolver.md "LAPACK ABI shim", eigen and SVD):
//   ?SYEV ?SYEVD / ?HEEV ?HEEVD   trn::solver::syevd / heevd (Householder tridiagonalization, Cuppen's
//                                 divide and conquer, compact-WY back-transformation) -- LAPACK's
//                                 xSYEV (QR iteration) is answered by the same divide and conquer
//   ?SYEVR ?SYEVX / ?HEEVR ?HEEVX trn::solver::syevdx / heevdx (the same stages, RANGE A / V / I)
//   ?SYGV ?SYGVD / ?HEGV ?HEGVD   trn::solver::sygvd / hegvd (Cholesky reduction + syevd / heevd)
//   ?GESVD ?GESDD                 trn::solver::gesvd (S/D: one-sided Jacobi; C/Z: gebrd + Jacobi on the
//                                 bidiagonal), on A or -- m < n -- on A^H (the kit takes m >= n)
//
// Every body runs the kit on copies (scratch matrices of leading dimension n or max(m, n)) and writes
// the caller's outputs only after the kit answered with INFO = 0, so that a call the kit cannot finish
// -- Inf/NaN in the input (LAPACK's own behaviour there is the next library's), a convergence failure,
// an fp32 SVD beyond the SBUF-resident Jacobi's kGesvdjMaxDim, a D/Z SVD of a matrix LAPACK would
// rescale (svd_in_range) -- passes to the next library with every argument as the caller gave it. The exception: ?SYGV(D)/?HEGV(D) with a B that is not positive
// definite is answered (INFO = N + i, LAPACK's value; the kit writes nothing, so A and B are left as
// given where LAPACK leaves a partial factor in B).
//
// Workspace: the kit allocates its own scratch, so LWORK/LRWORK/LIWORK are only checked against
// LAPACK's minima (INFO = -position below them, as LAPACK); a query (any of them -1) returns
// LAPACK's optimal sizes for the eigen drivers (ILAENV's block size 32 for xSYTRD/xHETRD) and LAPACK's
// minimum for the SVD drivers (their optimum depends on ILAENV queries of six other routines; the
// minimum is a valid LWORK for this library and for the next one).
#pragma once

#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "abi_internal.hpp"
#include "trn/solver/complex_eig.hpp"
#include "trn/solver/eig.hpp"
#include "trn/solver/svd.hpp"

namespace trnsolver_lapack::eigen {

using std::int64_t;

// ILAENV(1, 'xSYTRD' / 'xHETRD', ...) of reference LAPACK (the block size its workspace optima use).
inline constexpr int64_t kSytrdNb = 32;

// ---- finiteness and copies (index moves only) ---------------------------------------------------

template <class T>
bool finite(const T& v) {
  if constexpr (is_complex_v<T>)
    return std::isfinite(v.real()) && std::isfinite(v.imag());
  else
    return std::isfinite(v);
}
// The uplo triangle (diagonal included) of the n x n matrix a holds only finite values.
template <class T>
bool triangle_finite(bool upper, int64_t n, const T* a, int64_t lda) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = upper ? 0 : j; i < (upper ? j + 1 : n); ++i)
      if (!finite(a[i + j * lda])) return false;
  return true;
}
// max |a_ij| of the m x n matrix (LAPACK's xLANGE('M')), NaN when an entry is not finite.
template <class T>
double max_abs(int64_t m, int64_t n, const T* a, int64_t lda) {
  double mx = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      if (!finite(a[i + j * lda])) return std::nan("");
      mx = std::max(mx, static_cast<double>(std::abs(a[i + j * lda])));
    }
  return mx;
}
// The m x n matrix a copied with leading dimension m.
template <class T>
std::vector<T> packed(int64_t m, int64_t n, const T* a, int64_t lda) {
  std::vector<T> x(static_cast<std::size_t>(m * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) x[static_cast<std::size_t>(i + j * m)] = a[i + j * lda];
  return x;
}
// b (m x n, ldb) = x (m x n, ldx); only the uplo triangle when `triangle` (upper / lower).
template <class T>
void copy_out(int64_t m, int64_t n, const T* x, int64_t ldx, T* b, int64_t ldb, bool triangle = false,
              bool upper = false) {
  for (int64_t j = 0; j < n; ++j) {
    const int64_t lo = triangle && !upper ? j : 0, hi = triangle && upper ? std::min(j + 1, m) : m;
    for (int64_t i = lo; i < hi; ++i) b[i + j * ldb] = x[i + j * ldx];
  }
}
// b (n x m, ldb) = x^H, x m x n (ldx): the conjugate transpose (the transpose for real data).
template <class T>
void adjoint_out(int64_t m, int64_t n, const T* x, int64_t ldx, T* b, int64_t ldb) {
  for (int64_t j = 0; j < m; ++j)
    for (int64_t i = 0; i < n; ++i) {
      const T v = x[j + i * ldx];
      if constexpr (is_complex_v<T>)
        b[i + j * ldb] = std::conj(v);
      else
        b[i + j * ldb] = v;
    }
}

// ---- workspace sizes ----------------------------------------------------------------------------

// LAPACK's minimum and optimal WORK, RWORK and IWORK lengths of one call.
struct Workspace {
  int64_t lwmin = 1, lwopt = 1, lrwmin = 1, lropt = 1, liwmin = 1, liopt = 1;
};
// The lengths a call passed (nullptr: the routine has no such argument) and their INFO positions.
struct WorkArgs {
  int lwork = 0, lwork_pos = 0;
  const int* lrwork = nullptr;
  int lrwork_pos = 0;
  const int* liwork = nullptr;
  int liwork_pos = 0;
  bool query() const { return lwork == -1 || (lrwork != nullptr && *lrwork == -1) || (liwork != nullptr && *liwork == -1); }
};
// The first length below its minimum, in LAPACK's order (LWORK, LRWORK, LIWORK); 0 for a query.
inline int workspace_info(const Workspace& w, const WorkArgs& a) {
  if (a.query()) return 0;
  return first_info({{a.lwork < w.lwmin, a.lwork_pos},
                     {a.lrwork != nullptr && *a.lrwork < w.lrwmin, a.lrwork_pos},
                     {a.liwork != nullptr && *a.liwork < w.liwmin, a.liwork_pos}});
}

// Which driver of the symmetric / Hermitian family.
struct EigDriver {
  bool complex = false;      // ?HE.. (C, Z)
  bool divide = false;       // ..EVD / ..GVD (IWORK; RWORK lengths for C, Z)
  bool generalized = false;  // ..GV / ..GVD
};
// A dimension as the workspace formulas take it, clamped to [0, 2^30]: past 2^30 the minimum already
// exceeds any 32-bit LWORK, a negative one is rejected by its own check before LWORK is looked at, and the
// clamp keeps the formulas' 5·n² terms inside int64 for any INTEGER (fuzz_trnsolver_lapack: ZGESDD with
// m, n near ±2^31 overflowed).
inline int64_t workspace_dim(int64_t v) { return std::clamp<int64_t>(v, 0, int64_t{1} << 30); }

// xSYEV(D), xHEEV(D), xSYGV(D), xHEGV(D) (LAPACK 3.11's formulas; nb = kSytrdNb).
inline Workspace eig_workspace(const EigDriver& d, bool wantz, int64_t n) {
  Workspace w;
  n = workspace_dim(n);
  const int64_t nb = kSytrdNb;
  if (!d.divide) {
    w.lwmin = std::max<int64_t>(1, d.complex ? 2 * n - 1 : 3 * n - 1);
    w.lwopt = std::max<int64_t>(d.generalized && !d.complex ? w.lwmin : 1, (nb + (d.complex ? 1 : 2)) * n);
    return w;
  }
  if (n > 1) {
    if (d.complex) {
      w.lwmin = wantz ? 2 * n + n * n : n + 1;
      w.lrwmin = wantz ? 1 + 5 * n + 2 * n * n : n;
    } else {
      w.lwmin = wantz ? 1 + 6 * n + 2 * n * n : 2 * n + 1;
    }
    w.liwmin = wantz ? 3 + 5 * n : 1;
  }
  // xSYEVD / xHEEVD: the optimum allows xSYTRD's blocked panel; xSYGVD / xHEGVD report the minima.
  w.lwopt = d.generalized || n <= 1 ? w.lwmin : std::max(w.lwmin, (d.complex ? n : 2 * n) + n * nb);
  w.lropt = w.lrwmin;
  w.liopt = w.liwmin;
  return w;
}

// xGESVD: LAPACK's MINWRK (its optimum is not computed: see the file comment). mn = min(m, n),
// mx = max(m, n); MNTHR = ILAENV(6, 'xGESVD') = INT(1.6 mn); `no_small` says the vectors of the small
// side are not wanted (JOBU = 'N' for m >= n, JOBVT = 'N' for m < n: LAPACK's path 1 / 1t).
inline int64_t gesvd_minwork(bool complex, bool no_small, int64_t m, int64_t n) {
  const int64_t mn = workspace_dim(std::min(m, n)), mx = workspace_dim(std::max(m, n));
  if (mn == 0) return 1;
  const bool path1 = mx >= static_cast<int64_t>(static_cast<float>(mn) * 1.6f) && no_small;
  if (complex) return path1 ? 3 * mn : 2 * mn + mx;
  return path1 ? std::max(4 * mn, 5 * mn) : std::max(3 * mn + mx, 5 * mn);
}
// xGESDD: LAPACK's MINWRK for JOBZ = job (A, S, O, N).
inline int64_t gesdd_minwork(bool complex, char job, int64_t m, int64_t n) {
  const int64_t mn = workspace_dim(std::min(m, n)), mx = workspace_dim(std::max(m, n));
  if (mn == 0) return 1;
  const bool jn = lsame(job, 'N'), jo = lsame(job, 'O'), js = lsame(job, 'S');
  if (complex) {
    if (mx >= static_cast<int64_t>(static_cast<float>(mn) * 17.0f / 9.0f)) {
      if (jn) return 3 * mn;
      if (jo) return 2 * mn * mn + 3 * mn;
      if (js) return mn * mn + 3 * mn;
      return mn * mn + std::max(3 * mn, mn + mx);
    }
    return 2 * mn + mx + (jo ? mn * mn : 0);
  }
  const int64_t bdspac = jn ? 7 * mn : 3 * mn * mn + 4 * mn;
  if (mx >= static_cast<int64_t>(static_cast<double>(mn) * 11.0 / 6.0)) {
    if (jn) return bdspac + mn;
    if (jo) return bdspac + 2 * mn * mn + 3 * mn;
    if (js) return bdspac + mn * mn + 3 * mn;
    return mn * mn + std::max(3 * mn + bdspac, mn + mx);
  }
  return 3 * mn + std::max(mx, jo ? mn * mn + bdspac : bdspac);
}

// WORK(1), RWORK(1), IWORK(1) as LAPACK leaves them (a query, and every answered call).
template <class T>
void set_sizes(const Workspace& w, const WorkArgs& a, T* work, real_t<T>* rwork, int* iwork) {
  set_work_size(work, w.lwopt);
  if (a.lrwork != nullptr) rwork[0] = static_cast<real_t<T>>(w.lropt);
  if (a.liwork != nullptr) iwork[0] = static_cast<int>(w.liopt);
}

// ---- argument checks ----------------------------------------------------------------------------

inline bool jobz_ok(char j) { return lsame(j, 'V') || lsame(j, 'N'); }
inline bool range_ok(char r) { return lsame(r, 'A') || lsame(r, 'V') || lsame(r, 'I'); }
inline bool svd_job_ok(char j) { return lsame(j, 'A') || lsame(j, 'S') || lsame(j, 'O') || lsame(j, 'N'); }

// xSYEV(D) / xHEEV(D): 1 jobz, 2 uplo, 3 n, 5 lda, then the workspace lengths.
inline int standard_eig_info(char jobz, char uplo, int n, int lda, const Workspace& w, const WorkArgs& a) {
  const int bad = first_info({{!jobz_ok(jobz), 1}, {!uplo_ok(uplo), 2}, {n < 0, 3}, {lda < max1(n), 5}});
  return bad != 0 ? bad : workspace_info(w, a);
}
// xSYGV(D) / xHEGV(D): 1 itype, 2 jobz, 3 uplo, 4 n, 6 lda, 8 ldb, then the workspace lengths.
inline int generalized_eig_info(int itype, char jobz, char uplo, int n, int lda, int ldb, const Workspace& w,
                                const WorkArgs& a) {
  const int bad = first_info({{itype < 1 || itype > 3, 1},
                              {!jobz_ok(jobz), 2},
                              {!uplo_ok(uplo), 3},
                              {n < 0, 4},
                              {lda < max1(n), 6},
                              {ldb < max1(n), 8}});
  return bad != 0 ? bad : workspace_info(w, a);
}
// xGESVD: 1 jobu, 2 jobvt (also both 'O'), 3 m, 4 n, 6 lda, 9 ldu, 11 ldvt, 13 lwork.
inline int gesvd_info(char jobu, char jobvt, int m, int n, int lda, int ldu, int ldvt, const WorkArgs& a,
                      int64_t minwork) {
  const int mn = std::min(m, n);
  const bool uas = lsame(jobu, 'A') || lsame(jobu, 'S');
  return first_info({{!svd_job_ok(jobu), 1},
                     {!svd_job_ok(jobvt) || (lsame(jobvt, 'O') && lsame(jobu, 'O')), 2},
                     {m < 0, 3},
                     {n < 0, 4},
                     {lda < max1(m), 6},
                     {ldu < 1 || (uas && ldu < m), 9},
                     {ldvt < 1 || (lsame(jobvt, 'A') && ldvt < n) || (lsame(jobvt, 'S') && ldvt < mn), 11},
                     {!a.query() && a.lwork < minwork, 13}});
}
// xGESDD: 1 jobz, 2 m, 3 n, 5 lda, 8 ldu, 10 ldvt, 12 lwork.
inline int gesdd_info(char jobz, int m, int n, int lda, int ldu, int ldvt, const WorkArgs& a, int64_t minwork) {
  const int mn = std::min(m, n);
  const bool qa = lsame(jobz, 'A'), qs = lsame(jobz, 'S'), qo = lsame(jobz, 'O');
  return first_info({{!svd_job_ok(jobz), 1},
                     {m < 0, 2},
                     {n < 0, 3},
                     {lda < max1(m), 5},
                     {ldu < 1 || ((qa || qs) && ldu < m) || (qo && m < n && ldu < m), 8},
                     {ldvt < 1 || (qa && ldvt < n) || (qs && ldvt < mn) || (qo && m >= n && ldvt < n), 10},
                     {!a.query() && a.lwork < minwork, 12}});
}

// ---- bodies: the kit on copies --------------------------------------------------------------------

template <class T>
int kit_eig(const Settings& s, bool wantz, Uplo uplo, int64_t n, T* a, int64_t lda, real_t<T>* w, CallReport* r) {
  if constexpr (is_complex_v<T>)
    return trn::solver::heevd(s, wantz, uplo, n, a, lda, w, r);
  else
    return trn::solver::syevd(s, wantz, uplo, n, a, lda, w, r);
}
template <class T>
int kit_geneig(const Settings& s, int itype, bool wantz, Uplo uplo, int64_t n, T* a, int64_t lda, T* b, int64_t ldb,
               real_t<T>* w, CallReport* r) {
  if constexpr (is_complex_v<T>)
    return trn::solver::hegvd(s, itype, wantz, uplo, n, a, lda, b, ldb, w, r);
  else
    return trn::solver::sygvd(s, itype, wantz, uplo, n, a, lda, b, ldb, w, r);
}

// A = V diag(W) V^H (jobz 'V': A receives V); A's triangle read from a copy.
template <class T>
Answer standard_eig_body(const Settings& s, CallReport* r, bool wantz, char uplo, int64_t n, T* a, int64_t lda,
                         real_t<T>* w) {
  const bool upper = lsame(uplo, 'U');
  if (!triangle_finite(upper, n, a, lda)) return Answer::pass("Inf or NaN in A");
  std::vector<T> x = packed(n, n, a, lda);
  std::vector<real_t<T>> wx(static_cast<std::size_t>(n));
  const int info = kit_eig(s, wantz, to_uplo(uplo), n, x.data(), std::max<int64_t>(1, n), wx.data(), r);
  if (info != 0) return Answer::pass("trnsolver's divide and conquer did not converge");
  std::copy(wx.begin(), wx.end(), w);
  if (wantz) copy_out(n, n, x.data(), n, a, lda);
  return Answer::done(0);
}

// The pencil (A, B), itype 1-3: B's triangle receives the Cholesky factor, A (jobz 'V') the vectors.
template <class T>
Answer generalized_eig_body(const Settings& s, CallReport* r, int itype, bool wantz, char uplo, int64_t n, T* a,
                            int64_t lda, T* b, int64_t ldb, real_t<T>* w) {
  const bool upper = lsame(uplo, 'U');
  if (!triangle_finite(upper, n, a, lda) || !triangle_finite(upper, n, b, ldb))
    return Answer::pass("Inf or NaN in A or B");
  std::vector<T> x = packed(n, n, a, lda), y = packed(n, n, b, ldb);
  std::vector<real_t<T>> wx(static_cast<std::size_t>(n));
  const int64_t ld = std::max<int64_t>(1, n);
  const int info = kit_geneig(s, itype, wantz, to_uplo(uplo), n, x.data(), ld, y.data(), ld, wx.data(), r);
  if (info > n) return Answer::done(info);  // B's leading minor of order info - n is not positive definite
  if (info != 0) return Answer::pass("trnsolver's divide and conquer did not converge");
  std::copy(wx.begin(), wx.end(), w);
  copy_out(n, n, y.data(), n, b, ldb, true, upper);
  if (wantz) copy_out(n, n, x.data(), n, a, lda);
  return Answer::done(0);
}

// Which singular vectors of one side a call wants, and where.
enum class Vecs : std::uint8_t { none, thin, full, over_a };
inline Vecs svd_vecs(char job) {
  return lsame(job, 'A') ? Vecs::full : lsame(job, 'S') ? Vecs::thin : lsame(job, 'O') ? Vecs::over_a : Vecs::none;
}
// The kit's limits: the fp32 one-sided Jacobi keeps its matrix in SBUF (S: the m x n matrix, C: the
// bidiagonal's n x n).
template <class T>
bool svd_fits(int64_t mx, int64_t mn) {
  if constexpr (std::is_same_v<T, float>) return mx <= trn::solver::kGesvdjMaxDim;
  if constexpr (std::is_same_v<T, cfloat>) return mn <= trn::solver::kGesvdjMaxDim;
  return true;
}

// D/Z: the kit's fp64 Jacobi forms squared column norms without rescaling, so a matrix whose largest
// entry lies outside xGESVD's unscaled range [SMLNUM, BIGNUM] (SMLNUM = sqrt(safe minimum) / precision,
// about 6.7e-139; LAPACK scales such a matrix first) gets zero or infinite singular values: such calls
// pass (found by xeigtstd's near-underflow/-overflow SVD types 4 and 5; measured good to |a| ~ 1e+-150).
// S/C: the fp32 kernels scale by a power of two themselves, every finite input is answered.
template <class T>
bool svd_in_range(double anrm) {
  if constexpr (std::is_same_v<real_t<T>, double>) {
    const double smlnum = std::sqrt(std::numeric_limits<double>::min()) / std::numeric_limits<double>::epsilon();
    return anrm == 0 || (anrm >= smlnum && anrm <= 1 / smlnum);
  }
  return true;
}

// The shape of the kit's SVD of the tall orientation X = A (m >= n) or A^H (m < n), X = Ux S Vx^H:
// X big x k; Ux big x ucols (the left vectors of X: U for m >= n, V for m < n), Vx^H k x k.
struct SvdShape {
  int64_t big = 0, k = 0, ucols = 0;
  Vecs left = Vecs::none, right = Vecs::none;  // the vectors of X's two sides the call wants
  bool tall = true;
};
inline SvdShape svd_shape(int64_t m, int64_t n, Vecs wu, Vecs wv) {
  SvdShape s;
  s.tall = m >= n;
  s.big = std::max(m, n);
  s.k = std::min(m, n);
  s.left = s.tall ? wu : wv;
  s.right = s.tall ? wv : wu;
  s.ucols = s.left == Vecs::full ? s.big : s.k;
  return s;
}
// The shim's scratch of one SVD in elements of T: X, Ux, Vx^H and S (k reals, one T slot each). A WORK
// at least this long holds them (the call allocates nothing of its own then); a query answers it
// (docs/trnsolver.md "LAPACK ABI shim: eigen and SVD", workspace). Dimensions clamped as workspace_dim.
inline int64_t svd_scratch(const SvdShape& s) {
  const int64_t big = workspace_dim(s.big), k = workspace_dim(s.k), ucols = workspace_dim(s.ucols);
  return big * k + (s.left != Vecs::none ? big * ucols : 0) + (s.right != Vecs::none ? k * k : 0) + k;
}

// The kit's tall SVD in the caller's WORK (lwork >= svd_scratch) or in storage of its own.
template <class T>
struct TallSvd {
  std::vector<T> owned;
  T* x = nullptr;
  T* ux = nullptr;
  T* vxh = nullptr;
  real_t<T>* sx = nullptr;
};

// Checks what the kit cannot answer (the SBUF limit, Inf/NaN, LAPACK's rescaling range), copies A (or
// A^H) into X and runs the kit's gesvd. k = min(m, n) > 0.
template <class T>
Answer tall_svd(const Settings& s, CallReport* r, int64_t m, int64_t n, const T* a, int64_t lda, const SvdShape& sh,
                T* work, int64_t lwork, TallSvd<T>& out) {
  if (!svd_fits<T>(sh.big, sh.k)) return Answer::pass("fp32 Jacobi SVD limited to kGesvdjMaxDim");
  const double anrm = max_abs(m, n, a, lda);
  if (std::isnan(anrm)) return Answer::pass("Inf or NaN in A");
  if (!svd_in_range<T>(anrm)) return Answer::pass("max|a_ij| where LAPACK rescales (fp64 Jacobi over/underflows)");
  const int64_t need = svd_scratch(sh);
  T* base = work;
  if (work == nullptr || lwork < need) {
    out.owned.assign(static_cast<std::size_t>(need), T(0));
    base = out.owned.data();
  }
  out.x = base;
  out.ux = out.x + sh.big * sh.k;
  out.vxh = out.ux + (sh.left != Vecs::none ? sh.big * sh.ucols : 0);
  out.sx = reinterpret_cast<real_t<T>*>(out.vxh + (sh.right != Vecs::none ? sh.k * sh.k : 0));  // T's real part
  if (sh.tall)
    copy_out(m, n, a, lda, out.x, m);
  else
    adjoint_out(m, n, a, lda, out.x, n);
  const char jobu = sh.left == Vecs::none ? 'N' : sh.left == Vecs::full ? 'A' : 'S';
  const char jobv = sh.right == Vecs::none ? 'N' : 'S';
  const int info = trn::solver::gesvd(s, jobu, jobv, sh.big, sh.k, out.x, sh.big, out.sx, out.ux, sh.big, out.vxh,
                                      sh.k, r);
  if (info != 0) return Answer::pass("trnsolver's Jacobi sweeps did not converge");
  return Answer::done(0);
}

// A = U diag(S) V^H. The kit's gesvd takes the tall orientation X (A, or A^H when m < n), X = Ux S Vx^H:
// m >= n: U = Ux, V^H = Vx^H; m < n: U = Vx = (Vx^H)^H, V^H = Ux^H (conjugate transposes, index moves).
template <class T>
Answer svd_body(const Settings& s, CallReport* r, int64_t m, int64_t n, T* a, int64_t lda, real_t<T>* sv, Vecs wu,
                T* u, int64_t ldu, Vecs wv, T* vt, int64_t ldvt, T* work, int64_t lwork) {
  const SvdShape sh = svd_shape(m, n, wu, wv);
  if (sh.k == 0) return Answer::done(0);
  TallSvd<T> t;
  const Answer ans = tall_svd(s, r, m, n, a, lda, sh, work, lwork, t);
  if (!ans.answered) return ans;
  const int64_t k = sh.k, big = sh.big;
  std::copy_n(t.sx, k, sv);
  T* ud = wu == Vecs::over_a ? a : u;
  T* vd = wv == Vecs::over_a ? a : vt;
  const int64_t ldud = wu == Vecs::over_a ? lda : ldu, ldvd = wv == Vecs::over_a ? lda : ldvt;
  if (sh.tall) {
    if (wu != Vecs::none) copy_out(m, sh.ucols, t.ux, big, ud, ldud);
    if (wv != Vecs::none) copy_out(k, k, t.vxh, k, vd, ldvd);
  } else {
    if (wu != Vecs::none) adjoint_out(k, k, t.vxh, k, ud, ldud);
    if (wv != Vecs::none) adjoint_out(n, sh.ucols, t.ux, big, vd, ldvd);
  }
  return Answer::done(0);
}

// ---- drivers: check, query, answer or pass (the entry points' one call) ---------------------------

// The trace's argument text.
template <class... A>
const char* args_text(char (&buf)[160], const char* form, A... v) {
  std::snprintf(buf, sizeof buf, form, v...);
  return buf;
}

// The call of every eigen and SVD driver after its own checks (the drivers differ only in their body): a
// query or an empty problem (`quick`) answers the workspace sizes, and zeroes *count (the M / NS of the
// selective drivers) when given; otherwise body(settings, report) runs, and an answered call sets the
// sizes too (WORK(1), RWORK(1), IWORK(1) as LAPACK leaves them).
template <class T, class Body, class Next>
void run_eig(const Entry& e, const char* args, int bad, bool quick, const Workspace& ws, const WorkArgs& wa, T* work,
             real_t<T>* rwork, int* iwork, int* count, int* info, Body&& body, Next&& next) {
  run(e, args, bad, info, [&](const Settings& s, CallReport* r) -> Answer {
        if (quick) {
          if (count != nullptr) *count = 0;
          set_sizes(ws, wa, work, rwork, iwork);
          return Answer::done(0);
        }
        const Answer ans = body(s, r);
        if (ans.answered) set_sizes(ws, wa, work, rwork, iwork);
        return ans;
      }, next);
}

// xSYEV(D) / xHEEV(D).
template <class T, class Next>
void standard_eig(const Entry& e, const EigDriver& d, char jobz, char uplo, int n, T* a, int lda, real_t<T>* w,
                  T* work, const WorkArgs& wa, real_t<T>* rwork, int* iwork, int* info, Next&& next) {
  char buf[160];
  const char* args = args_text(buf, "jobz=%c uplo=%c n=%d lda=%d lwork=%d%s", jobz, uplo, n, lda, wa.lwork,
                               wa.query() ? " query" : "");
  const bool wantz = lsame(jobz, 'V');
  const Workspace ws = eig_workspace(d, wantz, n);
  const int bad = standard_eig_info(jobz, uplo, n, lda, ws, wa);
  run_eig(e, args, bad, wa.query() || n == 0, ws, wa, work, rwork, iwork, nullptr, info,
          [&](const Settings& s, CallReport* r) { return standard_eig_body(s, r, wantz, uplo, n, a, lda, w); }, next);
}

// xSYGV(D) / xHEGV(D).
template <class T, class Next>
void generalized_eig(const Entry& e, const EigDriver& d, int itype, char jobz, char uplo, int n, T* a, int lda, T* b,
                     int ldb, real_t<T>* w, T* work, const WorkArgs& wa, real_t<T>* rwork, int* iwork, int* info,
                     Next&& next) {
  char buf[160];
  const char* args = args_text(buf, "itype=%d jobz=%c uplo=%c n=%d lda=%d ldb=%d lwork=%d%s", itype, jobz, uplo, n,
                               lda, ldb, wa.lwork, wa.query() ? " query" : "");
  const bool wantz = lsame(jobz, 'V');
  const Workspace ws = eig_workspace(d, wantz, n);
  const int bad = generalized_eig_info(itype, jobz, uplo, n, lda, ldb, ws, wa);
  run_eig(e, args, bad, wa.query() || n == 0, ws, wa, work, rwork, iwork, nullptr, info,
          [&](const Settings& s, CallReport* r) {
            return generalized_eig_body(s, r, itype, wantz, uplo, n, a, lda, b, ldb, w);
          },
          next);
}

// xGESVD and xGESDD after their own checks: wu / wv the vectors each side wants, minwork LAPACK's
// MINWRK. WORK(1) of a query and of an answered call: max(MINWRK, the shim's scratch) -- a valid LWORK
// for LAPACK, and with it the call runs in WORK (svd_scratch).
template <class T, class Next>
void svd(const Entry& e, const char* args, int bad, const WorkArgs& wa, int64_t minwork, int m, int n, T* a, int lda,
         real_t<T>* sv, Vecs wu, T* u, int ldu, Vecs wv, T* vt, int ldvt, T* work, int* info, Next&& next) {
  Workspace ws;
  ws.lwopt = std::max(minwork, svd_scratch(svd_shape(workspace_dim(m), workspace_dim(n), wu, wv)));
  run_eig(e, args, bad, wa.query(), ws, wa, work, static_cast<real_t<T>*>(nullptr), nullptr, nullptr, info,
          [&](const Settings& s, CallReport* r) {
            return svd_body(s, r, m, n, a, lda, sv, wu, u, ldu, wv, vt, ldvt, work, wa.lwork);
          },
          next);
}

// ---- ?GESVDX: a selection of the singular triplets ------------------------------------------------
//
// RANGE 'A' (all), 'V' (the singular values in the half-open interval (VL, VU]) or 'I' (the IL-th through
// IU-th largest). LAPACK's algorithm (xBDSVDX: bisection and inverse iteration on the Golub-Kahan
// tridiagonal) computes only the selection; trnsolver has no selective SVD (gesvdr is randomized, not
// exact), so the shim computes the whole SVD with gesvd (as ?GESVD, the same bounds) and selects from its
// singular values -- index moves on an honest full factorization. Outputs as LAPACK: NS, S(1:NS)
// descending, U(:, 1:NS) (JOBU 'V'), VT(1:NS, :) (JOBVT 'V'); WORK(1) = max(MAXWRK, the shim's scratch).

// LAPACK 3.11's MINWRK and MAXWRK of xGESVDX (ILAENV's NB = 32 for xGEQRF, xGELQF, xGEBRD, xORMQR,
// xORMLQ / xUNMQR; MNTHR = INT(1.6 min(m, n)) as xGESVD's).
inline Workspace gesvdx_workspace(bool complex, bool wantu, bool wantvt, int64_t m, int64_t n) {
  Workspace w;
  const int64_t mn = workspace_dim(std::min(m, n)), mx = workspace_dim(std::max(m, n)), nb = kSytrdNb;
  if (mn == 0) return w;
  const bool much = mx >= static_cast<int64_t>(static_cast<float>(mn) * 1.6f), vecs = wantu || wantvt;
  if (complex) {
    w.lwmin = much ? mn * (mn + 5) : 3 * mn + mx;
    w.lwopt = much ? std::max(mn + mn * nb, mn * mn + 2 * mn + 2 * mn * nb) : 2 * mn + (mx + mn) * nb;
    if (vecs) w.lwopt = std::max(w.lwopt, much ? mn * mn + 2 * mn + mn * nb : 2 * mn + mn * nb);
  } else {
    w.lwmin = much ? mn * (mn * 3 + 20) : std::max(mn * (mn * 2 + 19), 4 * mn + mx);
    w.lwopt = much ? std::max(mn + mn * nb, mn * (mn + 5) + 2 * mn * nb) : 4 * mn + (mx + mn) * nb;
    if (vecs) w.lwopt = std::max(w.lwopt, much ? mn * (mn * 3 + 6) + mn * nb : mn * (mn * 2 + 5) + mn * nb);
  }
  w.lwopt = std::max(w.lwopt, w.lwmin);
  return w;
}

inline bool vn_ok(char j) { return lsame(j, 'V') || lsame(j, 'N'); }

// The selection of one xGESVDX call.
template <class T>
struct SvdSelection {
  char range;
  real_t<T> vl, vu;
  int il, iu;
  int* ns;
};

// 1 jobu, 2 jobvt, 3 range, 4 m, 5 n, 7 lda (M > LDA), 8 vl < 0, 9 vu <= vl, 10 il, 11 iu, 15 ldu, 17 ldvt,
// 19 lwork (LAPACK 3.11's order; the ranges are checked only when min(m, n) > 0).
template <class T>
int gesvdx_info(char jobu, char jobvt, int m, int n, int lda, int ldu, int ldvt, const SvdSelection<T>& q,
                const WorkArgs& a, int64_t minwork) {
  const int mn = std::min(m, n);
  const bool val = lsame(q.range, 'V'), ind = lsame(q.range, 'I'), some = m >= 0 && n >= 0 && mn > 0;
  const bool vecs_u = lsame(jobu, 'V'), vecs_vt = lsame(jobvt, 'V');
  return first_info({{!vn_ok(jobu), 1},
                     {!vn_ok(jobvt), 2},
                     {!range_ok(q.range), 3},
                     {m < 0, 4},
                     {n < 0, 5},
                     {m > lda, 7},
                     {some && val && q.vl < 0, 8},
                     {some && val && q.vu <= q.vl, 9},
                     {some && ind && (q.il < 1 || q.il > std::max(1, mn)), 10},
                     {some && ind && (q.iu < std::min(mn, q.il) || q.iu > mn), 11},
                     {some && vecs_u && ldu < m, 15},
                     {some && vecs_vt && ldvt < (ind ? int64_t{q.iu} - q.il + 1 : mn), 17},  // int64: IU - IL + 1 of any INTEGERs
                     {!a.query() && a.lwork < minwork, 19}});
}

// The 0-based indices (into the descending S of k) the selection keeps.
template <class T>
std::vector<int64_t> selected_values(const SvdSelection<T>& q, int64_t k, const real_t<T>* sx) {
  std::vector<int64_t> sel;
  for (int64_t j = 0; j < k; ++j) {
    const bool keep = lsame(q.range, 'V') ? sx[j] > q.vl && sx[j] <= q.vu
                      : lsame(q.range, 'I') ? j >= q.il - 1 && j <= q.iu - 1
                                            : true;
    if (keep) sel.push_back(j);
  }
  return sel;
}

// The whole SVD by the kit (svd_body's tall orientation, thin vectors), then S, U, VT of the selection.
template <class T>
Answer gesvdx_body(const Settings& s, CallReport* r, bool wantu, bool wantvt, int64_t m, int64_t n, const T* a,
                   int64_t lda, const SvdSelection<T>& q, real_t<T>* sv, T* u, int64_t ldu, T* vt, int64_t ldvt,
                   T* work, int64_t lwork) {
  const SvdShape sh = svd_shape(m, n, wantu ? Vecs::thin : Vecs::none, wantvt ? Vecs::thin : Vecs::none);
  TallSvd<T> t;
  const Answer ans = tall_svd(s, r, m, n, a, lda, sh, work, lwork, t);
  if (!ans.answered) return ans;
  const std::vector<int64_t> sel = selected_values(q, sh.k, t.sx);
  const auto conj_if = [](const T& v) {
    if constexpr (is_complex_v<T>)
      return std::conj(v);
    else
      return v;
  };
  for (std::size_t i = 0; i < sel.size(); ++i) {
    const int64_t j = sel[i], c = static_cast<int64_t>(i);
    sv[i] = t.sx[j];
    // m >= n: U(:, c) = Ux(:, j), VT(c, :) = Vx^H(j, :); m < n: U(:, c) = (Vx^H(j, :))^H, VT(c, :) = Ux(:, j)^H.
    for (int64_t row = 0; wantu && row < m; ++row)
      u[row + c * ldu] = sh.tall ? t.ux[row + j * sh.big] : conj_if(t.vxh[j + row * sh.k]);
    for (int64_t col = 0; wantvt && col < n; ++col)
      vt[c + col * ldvt] = sh.tall ? t.vxh[j + col * sh.k] : conj_if(t.ux[col + j * sh.big]);
  }
  *q.ns = static_cast<int>(sel.size());
  return Answer::done(0);
}

// xGESVDX.
template <class T, class Next>
void gesvdx(const Entry& e, char jobu, char jobvt, int m, int n, T* a, int lda, const SvdSelection<T>& q,
            real_t<T>* sv, T* u, int ldu, T* vt, int ldvt, T* work, int lwork, int* info, Next&& next) {
  char buf[160];
  const WorkArgs wa{lwork, 19};
  const bool wantu = lsame(jobu, 'V'), wantvt = lsame(jobvt, 'V');
  const Workspace ws = gesvdx_workspace(is_complex_v<T>, wantu, wantvt, m, n);
  const char* args = args_text(buf, "jobu=%c jobvt=%c range=%c m=%d n=%d lda=%d il=%d iu=%d ldu=%d ldvt=%d lwork=%d%s",
                               jobu, jobvt, q.range, m, n, lda, q.il, q.iu, ldu, ldvt, lwork, wa.query() ? " query" : "");
  const int bad = gesvdx_info(jobu, jobvt, m, n, lda, ldu, ldvt, q, wa, ws.lwmin);
  const SvdShape shape = svd_shape(workspace_dim(m), workspace_dim(n), wantu ? Vecs::thin : Vecs::none,
                                   wantvt ? Vecs::thin : Vecs::none);
  Workspace best = ws;
  best.lwopt = std::max(ws.lwopt, svd_scratch(shape));
  run_eig(e, args, bad, wa.query() || std::min(m, n) == 0, best, wa, work, static_cast<real_t<T>*>(nullptr), nullptr,
          q.ns, info,
          [&](const Settings& s, CallReport* r) {
            return gesvdx_body(s, r, wantu, wantvt, m, n, a, lda, q, sv, u, ldu, vt, ldvt, work, lwork);
          },
          next);
}

// ---- ?SYEVR ?HEEVR ?SYEVX ?HEEVX: a selection of the eigenpairs ------------------------------------
//
// RANGE 'A' (all), 'V' (the eigenvalues in the half-open interval (VL, VU]) or 'I' (the IL-th through
// IU-th in ascending order) -- cuSOLVER's EIG_RANGE_ALL / _V / _I, so trnsolver's syevdx / heevdx answer
// all four (Householder tridiagonalization, divide and conquer, the selected vectors back-transformed).
// LAPACK's algorithms differ (xSYEVR: MRRR, xSTEMR; xSYEVX: bisection + inverse iteration, xSTEBZ /
// xSTEIN); ABSTOL, their bisection tolerance, is read by neither kit routine: the eigenvalues carry the
// divide and conquer's bound (docs/trnsolver.md "syevd"), which is at least as tight as LAPACK's for
// ABSTOL <= 0 (its default eps |T|). Outputs as LAPACK: M, W(1:M) ascending, Z(:, 1:M) (JOBZ 'V'),
// ISUPPZ(1:2M) for ..EVR when every eigenpair is computed (RANGE 'A', or 'I' with IL = 1, IU = N: the
// only case LAPACK implements) -- the first and last row of each vector's nonzero entries, as the
// vectors are returned; IFAIL(1:M) = 0 for ..EVX (every vector converged). A (destroyed by LAPACK) is left
// as given.

using trn::solver::EigRange;
using trn::solver::EigSelect;

// Which selective driver: ..EVR (ISUPPZ, LIWORK; C/Z: LRWORK) or ..EVX (IFAIL; fixed IWORK / RWORK).
struct SelectDriver {
  bool complex = false;
  bool mrrr = false;  // ..EVR
};

// LAPACK 3.11's minimum and optimal lengths (NB = max(ILAENV xSYTRD, xORMTR) = kSytrdNb).
inline Workspace select_workspace(const SelectDriver& d, int64_t n) {
  Workspace w;
  n = workspace_dim(n);
  const int64_t nb = kSytrdNb;
  if (d.mrrr) {
    w.lwmin = std::max<int64_t>(1, d.complex ? 2 * n : 26 * n);
    w.lwopt = std::max((nb + 1) * n, w.lwmin);
    w.lrwmin = w.lropt = d.complex ? std::max<int64_t>(1, 24 * n) : 1;
    w.liwmin = w.liopt = std::max<int64_t>(1, 10 * n);
    return w;
  }
  if (n <= 1) return w;
  w.lwmin = d.complex ? 2 * n : 8 * n;
  w.lwopt = d.complex ? (nb + 1) * n : std::max(w.lwmin, (nb + 3) * n);
  return w;
}

// The selection a call asks for, and the outputs only the selective drivers have.
template <class T>
struct Selection {
  char range;
  real_t<T> vl, vu;
  int il, iu;
  int* m;
  real_t<T>* w;
  T* z;
  int ldz;
  int* isuppz;  // ..EVR, else nullptr
  int* ifail;   // ..EVX, else nullptr
  EigSelect kit() const {
    EigSelect e;
    if (lsame(range, 'V')) e = {EigRange::value, static_cast<double>(vl), static_cast<double>(vu), 1, 0};
    if (lsame(range, 'I')) e = {EigRange::index, 0, 0, il, iu};
    return e;
  }
  // Every eigenpair of the n: the case ..EVR sets ISUPPZ in.
  bool everything(int n) const { return lsame(range, 'A') || (lsame(range, 'I') && il == 1 && iu == n); }
};

// 1 jobz, 2 range, 3 uplo, 4 n, 6 lda, 8 vu <= vl (RANGE 'V', n > 0), 9 il, 10 iu (RANGE 'I'), 15 ldz,
// then the workspace lengths (LAPACK 3.11's order).
template <class T>
int select_eig_info(char jobz, char uplo, int n, int lda, const Selection<T>& q, const Workspace& w,
                    const WorkArgs& a) {
  const bool val = lsame(q.range, 'V'), ind = lsame(q.range, 'I');
  const int bad = first_info({{!jobz_ok(jobz), 1},
                              {!range_ok(q.range), 2},
                              {!uplo_ok(uplo), 3},
                              {n < 0, 4},
                              {lda < max1(n), 6},
                              {val && n > 0 && q.vu <= q.vl, 8},
                              {ind && (q.il < 1 || q.il > max1(n)), 9},
                              {ind && (q.iu < std::min(n, q.il) || q.iu > n), 10},
                              {q.ldz < 1 || (lsame(jobz, 'V') && q.ldz < n), 15}});
  return bad != 0 ? bad : workspace_info(w, a);
}

template <class T>
int kit_select(const Settings& s, bool wantz, const EigSelect& sel, Uplo uplo, int64_t n, T* a, int64_t lda,
               int64_t* m, real_t<T>* w, CallReport* r) {
  if constexpr (is_complex_v<T>)
    return trn::solver::heevdx(s, wantz, sel, uplo, n, a, lda, m, w, r);
  else
    return trn::solver::syevdx(s, wantz, sel, uplo, n, a, lda, m, w, r);
}

// ISUPPZ(2i-1 : 2i) of the n x m vectors z (1-based rows of each column's first and last nonzero).
template <class T>
void vector_support(int64_t n, int64_t m, const T* z, int64_t ldz, int* isuppz) {
  for (int64_t j = 0; j < m; ++j) {
    int64_t lo = 0, hi = -1;
    for (int64_t i = 0; i < n; ++i)
      if (z[i + j * ldz] != T(0)) {
        if (hi < 0) lo = i;
        hi = i;
      }
    isuppz[2 * j] = static_cast<int>(lo + 1);
    isuppz[2 * j + 1] = static_cast<int>(hi + 1);
  }
}

template <class T>
Answer select_eig_body(const Settings& s, CallReport* r, bool wantz, char uplo, int64_t n, T* a, int64_t lda,
                       const Selection<T>& q) {
  if (!triangle_finite(lsame(uplo, 'U'), n, a, lda)) return Answer::pass("Inf or NaN in A");
  // LAPACK checks only VU <= VL (INFO = -8), which a NaN bound passes; the kit requires vl < vu, so an
  // unordered pair goes to the next library instead of failing in the emulator.
  if (lsame(q.range, 'V') && !(q.vl < q.vu)) return Answer::pass("NaN in VL or VU");
  std::vector<T> x = packed(n, n, a, lda);
  std::vector<real_t<T>> wx(static_cast<std::size_t>(n));
  int64_t meig = 0;
  const int info = kit_select(s, wantz, q.kit(), to_uplo(uplo), n, x.data(), std::max<int64_t>(1, n), &meig,
                              wx.data(), r);
  if (info != 0) return Answer::pass("trnsolver's divide and conquer did not converge");
  *q.m = static_cast<int>(meig);
  std::copy_n(wx.begin(), meig, q.w);
  if (!wantz) return Answer::done(0);
  copy_out(n, meig, x.data(), n, q.z, q.ldz);
  if (q.isuppz != nullptr && q.everything(static_cast<int>(n))) vector_support(n, meig, q.z, q.ldz, q.isuppz);
  if (q.ifail != nullptr) std::fill_n(q.ifail, meig, 0);
  return Answer::done(0);
}

// xSYEVR / xHEEVR / xSYEVX / xHEEVX.
template <class T, class Next>
void select_eig(const Entry& e, const SelectDriver& d, char jobz, char uplo, int n, T* a, int lda,
                const Selection<T>& q, T* work, const WorkArgs& wa, real_t<T>* rwork, int* iwork, int* info,
                Next&& next) {
  char buf[160];
  const char* args = args_text(buf, "jobz=%c range=%c uplo=%c n=%d lda=%d il=%d iu=%d ldz=%d lwork=%d%s", jobz,
                               q.range, uplo, n, lda, q.il, q.iu, q.ldz, wa.lwork, wa.query() ? " query" : "");
  const bool wantz = lsame(jobz, 'V');
  const Workspace ws = select_workspace(d, n);
  const int bad = select_eig_info(jobz, uplo, n, lda, q, ws, wa);
  run_eig(e, args, bad, wa.query() || n == 0, ws, wa, work, rwork, iwork, n == 0 && !wa.query() ? q.m : nullptr, info,
          [&](const Settings& s, CallReport* r) { return select_eig_body(s, r, wantz, uplo, n, a, lda, q); }, next);
}

}  // namespace trnsolver_lapack::eigen
