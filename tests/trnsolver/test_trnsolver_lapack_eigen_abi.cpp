// libtrnsolver_lapack.so's eigen and SVD entry points called directly (linked, no LD_PRELOAD):
// workspace queries equal to reference LAPACK 3.11's (Debian's netlib liblapack.so.3, dlopen'ed with
// RTLD_DEEPBIND so that its internal calls stay its own), bad-argument positions seen by this program's
// own xerbla_, every ?GESVD job pair and ?GESDD job in both orientations against the reference's singular
// values and the reconstruction A = U S V^H from where LAPACK puts U and V^T (U / VT / over A), and a
// call the kit cannot answer (NaN) handed to the next library (the dlopen'ed reference) unchanged. numpy/scipy and LAPACK's own test programs: lapack_abi/run_*.sh.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "trnsolver_lapack.h"

using cdouble = std::complex<double>;

extern "C" {
void dsyev_(const char*, const char*, const int*, double*, const int*, double*, double*, const int*, int*, size_t, size_t);
void dsyevd_(const char*, const char*, const int*, double*, const int*, double*, double*, const int*, int*, const int*,
             int*, size_t, size_t);
void zheev_(const char*, const char*, const int*, void*, const int*, double*, void*, const int*, double*, int*, size_t,
            size_t);
void zheevd_(const char*, const char*, const int*, void*, const int*, double*, void*, const int*, double*, const int*,
             int*, const int*, int*, size_t, size_t);
void dsygv_(const int*, const char*, const char*, const int*, double*, const int*, double*, const int*, double*, double*,
            const int*, int*, size_t, size_t);
void dsygvd_(const int*, const char*, const char*, const int*, double*, const int*, double*, const int*, double*,
             double*, const int*, int*, const int*, int*, size_t, size_t);
void zhegvd_(const int*, const char*, const char*, const int*, void*, const int*, void*, const int*, double*, void*,
             const int*, double*, const int*, int*, const int*, int*, size_t, size_t);
void dgesvd_(const char*, const char*, const int*, const int*, double*, const int*, double*, double*, const int*,
             double*, const int*, double*, const int*, int*, size_t, size_t);
void zgesvd_(const char*, const char*, const int*, const int*, void*, const int*, double*, void*, const int*, void*,
             const int*, void*, const int*, double*, int*, size_t, size_t);
void dgesdd_(const char*, const int*, const int*, double*, const int*, double*, double*, const int*, double*,
             const int*, double*, const int*, int*, int*, size_t);
void zgesdd_(const char*, const int*, const int*, void*, const int*, double*, void*, const int*, void*, const int*,
             void*, const int*, double*, int*, int*, size_t);
void dgesvdx_(const char*, const char*, const char*, const int*, const int*, double*, const int*, const double*,
              const double*, const int*, const int*, int*, double*, double*, const int*, double*, const int*, double*,
              const int*, int*, int*, size_t, size_t, size_t);
void dsyevr_(const char*, const char*, const char*, const int*, double*, const int*, const double*, const double*,
             const int*, const int*, const double*, int*, double*, double*, const int*, int*, double*, const int*, int*,
             const int*, int*, size_t, size_t, size_t);
void zheevr_(const char*, const char*, const char*, const int*, void*, const int*, const double*, const double*,
             const int*, const int*, const double*, int*, double*, void*, const int*, int*, void*, const int*, double*,
             const int*, int*, const int*, int*, size_t, size_t, size_t);
void dsyevx_(const char*, const char*, const char*, const int*, double*, const int*, const double*, const double*,
             const int*, const int*, const double*, int*, double*, double*, const int*, double*, const int*, int*, int*,
             int*, size_t, size_t, size_t);
void zheevx_(const char*, const char*, const char*, const int*, void*, const int*, const double*, const double*,
             const int*, const int*, const double*, int*, double*, void*, const int*, void*, const int*, double*, int*,
             int*, int*, size_t, size_t, size_t);
}

namespace {

struct Captured {
  int calls = 0;
  std::string name;
  int info = 0;
};
Captured g_xerbla;

// Reference LAPACK (netlib's, as Debian's liblapack-test installs it), or nullptr.
void* reference() {
  static void* h = dlopen("/usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3", RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  return h;
}
template <class F>
F* ref_fn(F*, const char* name) {
  return reinterpret_cast<F*>(dlsym(reference(), name));
}
#define REF(fn) ref_fn(&fn, #fn)
#define NEED_REFERENCE() \
  if (reference() == nullptr) GTEST_SKIP() << "reference liblapack.so.3 (liblapack-test) not installed"

constexpr double kU = 0x1p-53;

std::vector<double> random_matrix(int m, int n, unsigned seed) {
  std::mt19937_64 g(seed);
  std::normal_distribution<double> d;
  std::vector<double> a(static_cast<std::size_t>(m) * n);
  for (double& x : a) x = d(g);
  return a;
}
std::vector<cdouble> random_cmatrix(int m, int n, unsigned seed) {
  const std::vector<double> re = random_matrix(m, n, seed), im = random_matrix(m, n, seed + 1);
  std::vector<cdouble> a(re.size());
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = {re[i], im[i]};
  return a;
}

}  // namespace

// This program's XERBLA: it overrides the shim's weak default, as a Fortran program's would.
extern "C" void xerbla_(const char* srname, const int* info, size_t srname_len) {
  ++g_xerbla.calls;
  g_xerbla.name.assign(srname, strnlen(srname, srname_len));
  g_xerbla.info = *info;
}

// LWORK = -1 (and LIWORK / LRWORK = -1): WORK(1), RWORK(1), IWORK(1) as reference LAPACK 3.11 answers.
TEST(TrnsolverLapackEigenAbi, WorkspaceQueriesEqualReferenceLapack) {
  NEED_REFERENCE();
  const int m1 = -1;
  for (int n : {0, 1, 2, 7, 40})
    for (const char* jobz : {"N", "V"}) {
      SCOPED_TRACE("n=" + std::to_string(n) + " jobz=" + jobz);
      const int lda = std::max(1, n);
      double w = 0, work[2] = {0, 0}, rwork[2] = {0, 0}, rw2[2] = {0, 0}, wk2[2] = {0, 0};
      int iwork = 0, iw2 = 0, info = 9, info2 = 9;
      dsyev_(jobz, "L", &n, nullptr, &lda, &w, work, &m1, &info, 1, 1);
      REF(dsyev_)(jobz, "L", &n, nullptr, &lda, &w, wk2, &m1, &info2, 1, 1);
      EXPECT_EQ(info, 0);
      EXPECT_EQ(work[0], wk2[0]) << "dsyev";
      dsyevd_(jobz, "U", &n, nullptr, &lda, &w, work, &m1, &iwork, &m1, &info, 1, 1);
      REF(dsyevd_)(jobz, "U", &n, nullptr, &lda, &w, wk2, &m1, &iw2, &m1, &info2, 1, 1);
      EXPECT_EQ(work[0], wk2[0]) << "dsyevd";
      EXPECT_EQ(iwork, iw2) << "dsyevd";
      cdouble cw[2], cw2[2];
      zheev_(jobz, "L", &n, nullptr, &lda, &w, cw, &m1, rwork, &info, 1, 1);
      REF(zheev_)(jobz, "L", &n, nullptr, &lda, &w, cw2, &m1, rw2, &info2, 1, 1);
      EXPECT_EQ(cw[0], cw2[0]) << "zheev";
      zheevd_(jobz, "L", &n, nullptr, &lda, &w, cw, &m1, rwork, &m1, &iwork, &m1, &info, 1, 1);
      REF(zheevd_)(jobz, "L", &n, nullptr, &lda, &w, cw2, &m1, rw2, &m1, &iw2, &m1, &info2, 1, 1);
      EXPECT_EQ(cw[0], cw2[0]) << "zheevd";
      EXPECT_EQ(rwork[0], rw2[0]) << "zheevd";
      EXPECT_EQ(iwork, iw2) << "zheevd";
      const int itype = 2;
      dsygv_(&itype, jobz, "U", &n, nullptr, &lda, nullptr, &lda, &w, work, &m1, &info, 1, 1);
      REF(dsygv_)(&itype, jobz, "U", &n, nullptr, &lda, nullptr, &lda, &w, wk2, &m1, &info2, 1, 1);
      EXPECT_EQ(work[0], wk2[0]) << "dsygv";
      dsygvd_(&itype, jobz, "U", &n, nullptr, &lda, nullptr, &lda, &w, work, &m1, &iwork, &m1, &info, 1, 1);
      REF(dsygvd_)(&itype, jobz, "U", &n, nullptr, &lda, nullptr, &lda, &w, wk2, &m1, &iw2, &m1, &info2, 1, 1);
      EXPECT_EQ(work[0], wk2[0]) << "dsygvd";
      EXPECT_EQ(iwork, iw2) << "dsygvd";
      zhegvd_(&itype, jobz, "U", &n, nullptr, &lda, nullptr, &lda, &w, cw, &m1, rwork, &m1, &iwork, &m1, &info, 1, 1);
      REF(zhegvd_)(&itype, jobz, "U", &n, nullptr, &lda, nullptr, &lda, &w, cw2, &m1, rw2, &m1, &iw2, &m1, &info2, 1, 1);
      EXPECT_EQ(cw[0], cw2[0]) << "zhegvd";
      EXPECT_EQ(rwork[0], rw2[0]) << "zhegvd";
      EXPECT_EQ(iwork, iw2) << "zhegvd";
    }
}

// Reference LAPACK's positions through this program's XERBLA; INFO = -position, outputs untouched.
TEST(TrnsolverLapackEigenAbi, BadArgumentsReportLapackPositions) {
  const int n = 4, lda = 4, ok_lwork = 1 + 6 * n + 2 * n * n, ok_liwork = 3 + 5 * n, small = 2;
  std::vector<double> a(16, 1.0), w(4, -7.0), work(100);
  std::vector<int> iwork(100);
  int info = 0;
  const auto expect = [&](const char* name, int position) {
    EXPECT_EQ(g_xerbla.name, name);
    EXPECT_EQ(g_xerbla.info, position);
    EXPECT_EQ(info, -position);
    EXPECT_EQ(w[0], -7.0);
    g_xerbla = {};
  };
  dsyevd_("X", "L", &n, a.data(), &lda, w.data(), work.data(), &ok_lwork, iwork.data(), &ok_liwork, &info, 1, 1);
  expect("DSYEVD", 1);
  dsyevd_("V", "L", &n, a.data(), &lda, w.data(), work.data(), &small, iwork.data(), &ok_liwork, &info, 1, 1);
  expect("DSYEVD", 8);
  dsyevd_("V", "L", &n, a.data(), &lda, w.data(), work.data(), &ok_lwork, iwork.data(), &small, &info, 1, 1);
  expect("DSYEVD", 10);
  const int lda_bad = 3, itype0 = 0, itype1 = 1;
  dsygvd_(&itype0, "V", "L", &n, a.data(), &lda, a.data(), &lda, w.data(), work.data(), &ok_lwork, iwork.data(),
          &ok_liwork, &info, 1, 1);
  expect("DSYGVD", 1);
  dsygvd_(&itype1, "V", "L", &n, a.data(), &lda, a.data(), &lda_bad, w.data(), work.data(), &ok_lwork, iwork.data(),
          &ok_liwork, &info, 1, 1);
  expect("DSYGVD", 8);
  dsyev_("V", "Q", &n, a.data(), &lda, w.data(), work.data(), &ok_lwork, &info, 1, 1);
  expect("DSYEV", 2);
  const int big = 100;
  dgesvd_("O", "O", &n, &n, a.data(), &lda, w.data(), a.data(), &lda, a.data(), &lda, work.data(), &big, &info, 1, 1);
  expect("DGESVD", 2);
  dgesvd_("N", "N", &n, &n, a.data(), &lda, w.data(), a.data(), &lda, a.data(), &lda, work.data(), &small, &info, 1, 1);
  expect("DGESVD", 13);  // MINWRK = max(3 n + m, 5 n) = 20
  const int m2 = 6, ldvt_bad = 3;
  dgesdd_("A", &m2, &n, a.data(), &m2, w.data(), a.data(), &m2, a.data(), &ldvt_bad, work.data(), &big, iwork.data(),
          &info, 1);
  expect("DGESDD", 10);
}

// NaN in the read triangle: the kit does not answer and the call goes, unchanged, to the next library.
// Here that is the reference LAPACK this program dlopen'ed with RTLD_LOCAL -- outside the global scope
// RTLD_NEXT searches, as numpy's LAPACK is under Python -- so the result must be the reference's own.
TEST(TrnsolverLapackEigenAbi, NaNPassesToTheNextLibraryUnchanged) {
  NEED_REFERENCE();
  const int n = 3, lda = 3, lwork = 64, liwork = 64;
  const std::vector<double> a0 = {2, std::nan(""), 0, 0, 2, 0, 0, 0, 2};
  std::vector<double> a = a0, a_ref = a0, w(3, -7.0), w_ref(3, -7.0), work(64);
  std::vector<int> iwork(64);
  int info = 0, info_ref = 0;
  dsyevd_("V", "L", &n, a.data(), &lda, w.data(), work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1);
  REF(dsyevd_)("V", "L", &n, a_ref.data(), &lda, w_ref.data(), work.data(), &lwork, iwork.data(), &liwork, &info_ref, 1, 1);
  EXPECT_NE(info, TRNSOLVER_LAPACK_UNANSWERED);
  EXPECT_EQ(info, info_ref);
  const auto same = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(same(w[i], w_ref[i])) << i;
  for (int i = 0; i < 9; ++i) EXPECT_TRUE(same(a[i], a_ref[i])) << i;
}

namespace {

// Where LAPACK left U and V^T for one call: (pointer, leading dimension, columns / rows), or none.
struct Svd {
  std::vector<double> s;
  std::vector<cdouble> a, u, vt;
  int info = 0;
};

// ||A - U(:, 0:k) diag(s) VT(0:k, :)||_F / ||A||_F with U, VT read from (pu, ldu), (pv, ldv).
double reconstruction(int m, int n, const std::vector<cdouble>& a0, const double* s, const cdouble* pu, int ldu,
                      const cdouble* pv, int ldv) {
  const int k = std::min(m, n);
  double err = 0, nrm = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      cdouble x = 0;
      for (int l = 0; l < k; ++l) x += pu[i + l * ldu] * s[l] * pv[l + j * ldv];
      err += std::norm(a0[i + j * m] - x);
      nrm += std::norm(a0[i + j * m]);
    }
  return std::sqrt(err / nrm);
}

}  // namespace

// Every ?GESVD job pair (not both 'O') and ?GESDD job, m > n and m < n, real and complex: S within
// 8 max(m, n) u sigma_1 of reference LAPACK's, and where both sides' vectors are returned,
// A = U S V^H within 8 min(m, n)^1.5 u (docs/trnsolver.md "gesvd").
TEST(TrnsolverLapackEigenAbi, SvdEveryJobBothOrientations) {
  NEED_REFERENCE();
  const char jobs[] = {'A', 'S', 'O', 'N'};
  int checked = 0;
  for (auto [m, n] : {std::pair{9, 5}, std::pair{5, 9}})
    for (bool complex : {false, true})
      for (int sdd = 0; sdd < 2; ++sdd)
        for (char ju : jobs)
          for (char jv : jobs) {
            if (sdd ? ju != jv : (ju == 'O' && jv == 'O')) continue;
            SCOPED_TRACE(std::string(complex ? "z" : "d") + (sdd ? "gesdd " : "gesvd ") + ju + jv + " " +
                         std::to_string(m) + "x" + std::to_string(n));
            const int k = std::min(m, n), ldu = m, ldvt = n, lwork = 2000, lda = m;
            std::vector<double> rwork(2000), s(k), sref(k);
            std::vector<int> iwork(8 * k);
            int info = 0, info2 = 0;
            std::vector<cdouble> a = random_cmatrix(m, n, 31 + m), u(m * m), vt(n * n), work(lwork);
            if (!complex)
              for (auto& x : a) x = x.real();
            const std::vector<cdouble> a0 = a;
            // Reference singular values (real data through dgesvd, complex through zgesvd).
            {
              std::vector<cdouble> ar = a0, cw(lwork);
              std::vector<double> rr(a0.size()), dw(lwork);
              for (std::size_t i = 0; i < a0.size(); ++i) rr[i] = a0[i].real();
              if (complex)
                REF(zgesvd_)("N", "N", &m, &n, ar.data(), &lda, sref.data(), nullptr, &ldu, nullptr, &ldvt, cw.data(),
                             &lwork, rwork.data(), &info2, 1, 1);
              else
                REF(dgesvd_)("N", "N", &m, &n, rr.data(), &lda, sref.data(), nullptr, &ldu, nullptr, &ldvt, dw.data(),
                             &lwork, &info2, 1, 1);
              ASSERT_EQ(info2, 0);
            }
            std::vector<double> ra(a.size()), ru(u.size()), rvt(vt.size()), rw(lwork);
            for (std::size_t i = 0; i < a.size(); ++i) ra[i] = a[i].real();
            const char jz[2] = {ju, 0}, jt[2] = {jv, 0};
            if (complex && sdd)
              zgesdd_(jz, &m, &n, a.data(), &lda, s.data(), u.data(), &ldu, vt.data(), &ldvt, work.data(), &lwork,
                      rwork.data(), iwork.data(), &info, 1);
            else if (complex)
              zgesvd_(jz, jt, &m, &n, a.data(), &lda, s.data(), u.data(), &ldu, vt.data(), &ldvt, work.data(), &lwork,
                      rwork.data(), &info, 1, 1);
            else if (sdd)
              dgesdd_(jz, &m, &n, ra.data(), &lda, s.data(), ru.data(), &ldu, rvt.data(), &ldvt, rw.data(), &lwork,
                      iwork.data(), &info, 1);
            else
              dgesvd_(jz, jt, &m, &n, ra.data(), &lda, s.data(), ru.data(), &ldu, rvt.data(), &ldvt, rw.data(), &lwork,
                      &info, 1, 1);
            ASSERT_EQ(info, 0);
            if (!complex) {
              for (std::size_t i = 0; i < a.size(); ++i) a[i] = ra[i];
              for (std::size_t i = 0; i < u.size(); ++i) u[i] = ru[i];
              for (std::size_t i = 0; i < vt.size(); ++i) vt[i] = rvt[i];
            }
            for (int i = 0; i < k; ++i) EXPECT_LE(std::abs(s[i] - sref[i]), 8 * std::max(m, n) * kU * sref[0]);
            // Where U and V^T are: gesdd 'O' puts the smaller one over A; gesvd 'O' puts that side over A.
            const bool u_over_a = sdd ? (ju == 'O' && m >= n) : ju == 'O';
            const bool v_over_a = sdd ? (ju == 'O' && m < n) : jv == 'O';
            if (ju == 'N' || jv == 'N') continue;
            const cdouble* pu = u_over_a ? a.data() : u.data();
            const cdouble* pv = v_over_a ? a.data() : vt.data();
            EXPECT_LE(reconstruction(m, n, a0, s.data(), pu, u_over_a ? lda : ldu, pv, v_over_a ? lda : ldvt),
                      8 * std::pow(k, 1.5) * kU);
            ++checked;
          }
  EXPECT_GT(checked, 20);
}

// ---- ?SYEVR ?HEEVR ?SYEVX ?HEEVX: a selection of the eigenpairs -----------------------------------------

namespace {

// One selective call's outputs (real or complex vectors as cdouble).
struct Selected {
  int info = 0, m = -1;
  std::vector<double> w;
  std::vector<cdouble> z;
  std::vector<int> isuppz, ifail;
};

// dsyevr / zheevr (evr) or dsyevx / zheevx on the n x n Hermitian a0 (column-major, lower triangle read),
// through the shim (ref = false) or reference LAPACK (ref = true). Workspace: LAPACK's minimum + 1.
Selected select_call(bool complex, bool evr, bool ref, const char* range, int n, const std::vector<cdouble>& a0,
                     double vl, double vu, int il, int iu) {
  Selected r;
  r.w.assign(static_cast<std::size_t>(n), -7.0);
  r.z.assign(static_cast<std::size_t>(n) * n, cdouble(-7.0));
  r.isuppz.assign(static_cast<std::size_t>(2 * n), -7);
  r.ifail.assign(static_cast<std::size_t>(n), -7);
  const double abstol = 0;
  const int lda = n, ldz = n, lwork = 40 * n + 64, lrwork = 30 * n + 8, liwork = 12 * n + 8;
  std::vector<double> rwork(static_cast<std::size_t>(lrwork)), dwork(static_cast<std::size_t>(lwork));
  std::vector<cdouble> cwork(static_cast<std::size_t>(lwork));
  std::vector<int> iwork(static_cast<std::size_t>(liwork));
  if (complex) {
    std::vector<cdouble> a = a0;
    if (evr)
      (ref ? REF(zheevr_) : &zheevr_)("V", range, "L", &n, a.data(), &lda, &vl, &vu, &il, &iu, &abstol, &r.m, r.w.data(),
                                      r.z.data(), &ldz, r.isuppz.data(), cwork.data(), &lwork, rwork.data(), &lrwork,
                                      iwork.data(), &liwork, &r.info, 1, 1, 1);
    else
      (ref ? REF(zheevx_) : &zheevx_)("V", range, "L", &n, a.data(), &lda, &vl, &vu, &il, &iu, &abstol, &r.m, r.w.data(),
                                      r.z.data(), &ldz, cwork.data(), &lwork, rwork.data(), iwork.data(), r.ifail.data(),
                                      &r.info, 1, 1, 1);
    return r;
  }
  std::vector<double> a(a0.size()), z(a0.size(), -7.0);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = a0[i].real();
  if (evr)
    (ref ? REF(dsyevr_) : &dsyevr_)("V", range, "L", &n, a.data(), &lda, &vl, &vu, &il, &iu, &abstol, &r.m, r.w.data(),
                                    z.data(), &ldz, r.isuppz.data(), dwork.data(), &lwork, iwork.data(), &liwork, &r.info,
                                    1, 1, 1);
  else
    (ref ? REF(dsyevx_) : &dsyevx_)("V", range, "L", &n, a.data(), &lda, &vl, &vu, &il, &iu, &abstol, &r.m, r.w.data(),
                                    z.data(), &ldz, dwork.data(), &lwork, iwork.data(), r.ifail.data(), &r.info, 1, 1, 1);
  for (std::size_t i = 0; i < z.size(); ++i) r.z[i] = z[i];
  return r;
}

std::vector<cdouble> hermitian_matrix(int n, bool complex, unsigned seed) {
  std::vector<cdouble> g = complex ? random_cmatrix(n, n, seed) : std::vector<cdouble>(static_cast<std::size_t>(n) * n);
  if (!complex) {
    const std::vector<double> re = random_matrix(n, n, seed);
    for (std::size_t i = 0; i < g.size(); ++i) g[i] = re[i];
  }
  std::vector<cdouble> a(g.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) a[i + j * n] = (g[i + j * n] + std::conj(g[j + i * n])) / 2.0;
  return a;
}

}  // namespace

// RANGE 'A', 'V' and 'I' through ?SYEVR / ?HEEVR / ?SYEVX / ?HEEVX against reference LAPACK: the same M,
// W within 8 n u ||A||_2 (||A||_F bounds it), ||A Z - Z diag(W)||_F <= 8 n u ||A||_F sqrt(M) and
// ||Z^H Z - I||_F <= 8 n u sqrt(M) (docs/trnsolver.md "syevd" bounds), ISUPPZ inside [1, n] with lo <= hi
// where LAPACK sets it, IFAIL(1:M) = 0.
TEST(TrnsolverLapackEigenAbi, SelectiveDriversEveryRangeAgainstReference) {
  NEED_REFERENCE();
  const int n = 24;
  int checked = 0;
  for (bool complex : {false, true})
    for (bool evr : {true, false}) {
      const std::vector<cdouble> a = hermitian_matrix(n, complex, complex ? 31u : 17u);
      double anorm = 0;
      for (const cdouble& x : a) anorm += std::norm(x);
      anorm = std::sqrt(anorm);
      const Selected all = select_call(complex, evr, true, "A", n, a, 0, 0, 1, n);
      ASSERT_EQ(all.info, 0);
      // 'V': an interval strictly between eigenvalues (no eigenvalue near its ends), 'I': a middle block.
      const double vl = (all.w[5] + all.w[6]) / 2, vu = (all.w[15] + all.w[16]) / 2;
      struct Case {
        const char* range;
        int il, iu;
      };
      for (const Case& c : {Case{"A", 1, n}, Case{"V", 1, n}, Case{"I", 4, 11}, Case{"I", 1, n}}) {
        SCOPED_TRACE(std::string(complex ? "complex " : "real ") + (evr ? "evr " : "evx ") + c.range + " il=" +
                     std::to_string(c.il) + " iu=" + std::to_string(c.iu));
        const Selected got = select_call(complex, evr, false, c.range, n, a, vl, vu, c.il, c.iu);
        const Selected want = select_call(complex, evr, true, c.range, n, a, vl, vu, c.il, c.iu);
        ASSERT_EQ(got.info, 0);
        ASSERT_EQ(want.info, 0);
        ASSERT_EQ(got.m, want.m);
        ASSERT_GT(got.m, 0);
        const double tol = 8.0 * n * kU * anorm;
        for (int k = 0; k < got.m; ++k) EXPECT_NEAR(got.w[k], want.w[k], tol) << k;
        double res = 0, orth = 0;
        for (int p = 0; p < got.m; ++p) {
          for (int i = 0; i < n; ++i) {
            cdouble az = 0;
            for (int l = 0; l < n; ++l) az += a[i + l * n] * got.z[l + p * n];
            res += std::norm(az - got.w[p] * got.z[i + p * n]);
          }
          for (int q = 0; q < got.m; ++q) {
            cdouble d = 0;
            for (int i = 0; i < n; ++i) d += std::conj(got.z[i + p * n]) * got.z[i + q * n];
            orth += std::norm(d - (p == q ? 1.0 : 0.0));
          }
        }
        EXPECT_LE(std::sqrt(res), tol * std::sqrt(got.m));
        EXPECT_LE(std::sqrt(orth), 8.0 * n * kU * std::sqrt(got.m));
        if (got.m < n) {
          EXPECT_EQ(got.z[static_cast<std::size_t>(got.m) * n], cdouble(-7.0)) << "column M + 1 untouched";
        }
        if (evr && (c.range[0] == 'A' || (c.range[0] == 'I' && c.il == 1 && c.iu == n))) {
          for (int k = 0; k < got.m; ++k) {
            EXPECT_GE(got.isuppz[2 * k], 1);
            EXPECT_LE(got.isuppz[2 * k], got.isuppz[2 * k + 1]);
            EXPECT_LE(got.isuppz[2 * k + 1], n);
          }
        }
        if (!evr) {
          for (int k = 0; k < got.m; ++k) EXPECT_EQ(got.ifail[k], 0) << k;
        }
        ++checked;
      }
    }
  EXPECT_EQ(checked, 16);
}

// LWORK / LRWORK / LIWORK = -1: WORK(1), RWORK(1), IWORK(1) equal reference LAPACK 3.11's; and the bad
// arguments' positions, INFO = -position, outputs untouched.
TEST(TrnsolverLapackEigenAbi, SelectiveDriversQueriesAndBadArguments) {
  NEED_REFERENCE();
  const int m1 = -1, il = 1, iu = 1;
  const double vl = 0, vu = 1, abstol = 0;
  for (int n : {0, 1, 2, 7, 40}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const int lda = std::max(1, n);
    int m = 0, info = 9, info2 = 9, isz[2], iwork = 0, iw2 = 0, ifail = 0;
    double w = 0, work = 0, wk2 = 0, rwork = 0, rw2 = 0;
    cdouble cw = 0, cw2 = 0;
    dsyevr_("V", "A", "L", &n, nullptr, &lda, &vl, &vu, &il, &iu, &abstol, &m, &w, nullptr, &lda, isz, &work, &m1,
            &iwork, &m1, &info, 1, 1, 1);
    REF(dsyevr_)("V", "A", "L", &n, nullptr, &lda, &vl, &vu, &il, &iu, &abstol, &m, &w, nullptr, &lda, isz, &wk2, &m1,
                 &iw2, &m1, &info2, 1, 1, 1);
    EXPECT_EQ(info, 0);
    EXPECT_EQ(work, wk2) << "dsyevr";
    EXPECT_EQ(iwork, iw2) << "dsyevr";
    zheevr_("V", "A", "L", &n, nullptr, &lda, &vl, &vu, &il, &iu, &abstol, &m, &w, nullptr, &lda, isz, &cw, &m1, &rwork,
            &m1, &iwork, &m1, &info, 1, 1, 1);
    REF(zheevr_)("V", "A", "L", &n, nullptr, &lda, &vl, &vu, &il, &iu, &abstol, &m, &w, nullptr, &lda, isz, &cw2, &m1,
                 &rw2, &m1, &iw2, &m1, &info2, 1, 1, 1);
    EXPECT_EQ(cw, cw2) << "zheevr";
    EXPECT_EQ(rwork, rw2) << "zheevr";
    EXPECT_EQ(iwork, iw2) << "zheevr";
    dsyevx_("V", "A", "L", &n, nullptr, &lda, &vl, &vu, &il, &iu, &abstol, &m, &w, nullptr, &lda, &work, &m1, &iwork,
            &ifail, &info, 1, 1, 1);
    REF(dsyevx_)("V", "A", "L", &n, nullptr, &lda, &vl, &vu, &il, &iu, &abstol, &m, &w, nullptr, &lda, &wk2, &m1, &iw2,
                 &ifail, &info2, 1, 1, 1);
    EXPECT_EQ(work, wk2) << "dsyevx";
    zheevx_("V", "A", "L", &n, nullptr, &lda, &vl, &vu, &il, &iu, &abstol, &m, &w, nullptr, &lda, &cw, &m1, &rwork,
            &iwork, &ifail, &info, 1, 1, 1);
    REF(zheevx_)("V", "A", "L", &n, nullptr, &lda, &vl, &vu, &il, &iu, &abstol, &m, &w, nullptr, &lda, &cw2, &m1, &rw2,
                 &iw2, &ifail, &info2, 1, 1, 1);
    EXPECT_EQ(cw, cw2) << "zheevx";
  }

  const int n = 4, lda = 4, lwork = 26 * n, liwork = 10 * n, small = 2, bad_lda = 3, il0 = 0, il3 = 3, iu2 = 2;
  std::vector<double> a(16, 1.0), w(4, -7.0), z(16, -7.0), work(200);
  std::vector<int> iwork(100), isuppz(8, -7), ifail(4, -7);
  int m = -7, info = 0;
  const auto expect = [&](const char* name, int position) {
    EXPECT_EQ(g_xerbla.name, name);
    EXPECT_EQ(g_xerbla.info, position);
    EXPECT_EQ(info, -position);
    EXPECT_EQ(w[0], -7.0);
    EXPECT_EQ(z[0], -7.0);
    EXPECT_EQ(m, -7);
    g_xerbla = {};
  };
  const auto evr = [&](const char* jobz, const char* range, const char* uplo, const int* nn, const int* ld,
                       const double* l, const double* u, const int* i0, const int* i1, const int* ldz, const int* lw,
                       const int* liw) {
    dsyevr_(jobz, range, uplo, nn, a.data(), ld, l, u, i0, i1, &abstol, &m, w.data(), z.data(), ldz, isuppz.data(),
            work.data(), lw, iwork.data(), liw, &info, 1, 1, 1);
  };
  const int neg = -1;
  evr("X", "A", "L", &n, &lda, &vl, &vu, &il, &iu, &lda, &lwork, &liwork);
  expect("DSYEVR", 1);
  evr("V", "X", "L", &n, &lda, &vl, &vu, &il, &iu, &lda, &lwork, &liwork);
  expect("DSYEVR", 2);
  evr("V", "A", "X", &n, &lda, &vl, &vu, &il, &iu, &lda, &lwork, &liwork);
  expect("DSYEVR", 3);
  evr("V", "A", "L", &neg, &lda, &vl, &vu, &il, &iu, &lda, &lwork, &liwork);
  expect("DSYEVR", 4);
  evr("V", "A", "L", &n, &bad_lda, &vl, &vu, &il, &iu, &lda, &lwork, &liwork);
  expect("DSYEVR", 6);
  evr("V", "V", "L", &n, &lda, &vu, &vl, &il, &iu, &lda, &lwork, &liwork);
  expect("DSYEVR", 8);
  evr("V", "I", "L", &n, &lda, &vl, &vu, &il0, &iu, &lda, &lwork, &liwork);
  expect("DSYEVR", 9);
  evr("V", "I", "L", &n, &lda, &vl, &vu, &il3, &iu2, &lda, &lwork, &liwork);
  expect("DSYEVR", 10);
  evr("V", "A", "L", &n, &lda, &vl, &vu, &il, &iu, &bad_lda, &lwork, &liwork);
  expect("DSYEVR", 15);
  evr("V", "A", "L", &n, &lda, &vl, &vu, &il, &iu, &lda, &small, &liwork);
  expect("DSYEVR", 18);
  evr("V", "A", "L", &n, &lda, &vl, &vu, &il, &iu, &lda, &lwork, &small);
  expect("DSYEVR", 20);
  dsyevx_("V", "A", "L", &n, a.data(), &lda, &vl, &vu, &il, &iu, &abstol, &m, w.data(), z.data(), &lda, work.data(),
          &small, iwork.data(), ifail.data(), &info, 1, 1, 1);
  expect("DSYEVX", 17);
  std::vector<cdouble> ca(16, 1.0), cz(16, -7.0), cwork(100);
  std::vector<double> rwork(200);
  zheevr_("V", "A", "L", &n, ca.data(), &lda, &vl, &vu, &il, &iu, &abstol, &m, w.data(), cz.data(), &lda, isuppz.data(),
          cwork.data(), &lwork, rwork.data(), &small, iwork.data(), &liwork, &info, 1, 1, 1);
  expect("ZHEEVR", 20);
  zheevr_("V", "A", "L", &n, ca.data(), &lda, &vl, &vu, &il, &iu, &abstol, &m, w.data(), cz.data(), &lda, isuppz.data(),
          cwork.data(), &lwork, rwork.data(), &lwork, iwork.data(), &small, &info, 1, 1, 1);
  expect("ZHEEVR", 22);
  zheevx_("N", "A", "L", &n, ca.data(), &lda, &vl, &vu, &il, &iu, &abstol, &m, w.data(), cz.data(), &lda, cwork.data(),
          &neg, rwork.data(), iwork.data(), ifail.data(), &info, 1, 1, 1);
  EXPECT_EQ(info, 0) << "a query is not a bad LWORK";
  zheevx_("N", "A", "L", &n, ca.data(), &lda, &vl, &vu, &il, &iu, &abstol, &m, w.data(), cz.data(), &lda, cwork.data(),
          &small, rwork.data(), iwork.data(), ifail.data(), &info, 1, 1, 1);
  expect("ZHEEVX", 17);
}

// ?GESVD / ?GESDD / ?GESVDX workspace queries: at least reference LAPACK's MINWRK (the shim's answer is
// max(MINWRK, its scratch), docs/trnsolver.md) and, for ?GESVDX, at least reference LAPACK's own answer
// (its MAXWRK); a call with exactly the queried LWORK is answered (WORK then holds the shim's scratch), and
// gives the same S as a call with LAPACK's minimum (allocated scratch).
TEST(TrnsolverLapackEigenAbi, SvdQueriesAnswerAtLeastLapackAndTheShimsScratch) {
  NEED_REFERENCE();
  const int m1 = -1;
  for (const auto& [m, n] : {std::pair{12, 5}, std::pair{5, 12}, std::pair{9, 8}, std::pair{40, 3}}) {
    SCOPED_TRACE("m=" + std::to_string(m) + " n=" + std::to_string(n));
    const int mn = std::min(m, n), mx = std::max(m, n), lda = m, ldu = m, ldvt = n;
    std::vector<double> a = random_matrix(m, n, 7), u(static_cast<std::size_t>(m) * m), vt(static_cast<std::size_t>(n) * n);
    std::vector<double> s(static_cast<std::size_t>(mn));
    std::vector<int> iwork(static_cast<std::size_t>(12 * mn));
    double q = 0, qref = 0;
    int info = 9, info_ref = 9, ns = -1, ns_ref = -1;
    dgesvd_("A", "A", &m, &n, a.data(), &lda, s.data(), u.data(), &ldu, vt.data(), &ldvt, &q, &m1, &info, 1, 1);
    EXPECT_EQ(info, 0);
    EXPECT_GE(q, std::max(3 * mn + mx, 5 * mn)) << "dgesvd query below LAPACK's MINWRK";
    EXPECT_GE(q, static_cast<double>(mx) * mn + static_cast<double>(mx) * mx + mn * mn + mn) << "dgesvd query below the scratch";
    dgesdd_("S", &m, &n, a.data(), &lda, s.data(), u.data(), &ldu, vt.data(), &ldvt, &q, &m1, iwork.data(), &info, 1);
    REF(dgesdd_)("S", &m, &n, a.data(), &lda, s.data(), u.data(), &ldu, vt.data(), &ldvt, &qref, &m1, iwork.data(),
                 &info_ref, 1);
    EXPECT_EQ(info, 0);
    EXPECT_GE(q, 3.0 * mn) << "dgesdd query below a plausible minimum";
    const double vl = 0, vu = 1;
    const int il = 1, iu = mn;
    for (const char* range : {"A", "V", "I"}) {
      dgesvdx_("V", "V", range, &m, &n, a.data(), &lda, &vl, &vu, &il, &iu, &ns, s.data(), u.data(), &ldu, vt.data(),
               &ldvt, &q, &m1, iwork.data(), &info, 1, 1, 1);
      REF(dgesvdx_)("V", "V", range, &m, &n, a.data(), &lda, &vl, &vu, &il, &iu, &ns_ref, s.data(), u.data(), &ldu,
                    vt.data(), &ldvt, &qref, &m1, iwork.data(), &info_ref, 1, 1, 1);
      EXPECT_EQ(info, info_ref);
      EXPECT_EQ(ns, 0) << "a query sets NS = 0 as LAPACK";
      EXPECT_GE(q, qref) << "dgesvdx query below reference LAPACK's";
    }
    // Exactly the queried LWORK (the scratch in WORK) and LAPACK's minimum (allocated scratch): same bits.
    dgesvdx_("V", "V", "A", &m, &n, a.data(), &lda, &vl, &vu, &il, &iu, &ns, s.data(), u.data(), &ldu, vt.data(), &ldvt,
             &q, &m1, iwork.data(), &info, 1, 1, 1);
    std::vector<double> work(static_cast<std::size_t>(q)), s2(s.size());
    std::vector<double> a1 = a;
    int lwork = static_cast<int>(q);
    dgesvdx_("V", "V", "A", &m, &n, a1.data(), &lda, &vl, &vu, &il, &iu, &ns, s.data(), u.data(), &ldu, vt.data(),
             &ldvt, work.data(), &lwork, iwork.data(), &info, 1, 1, 1);
    EXPECT_EQ(info, 0);
    EXPECT_EQ(ns, mn);
    a1 = a;
    lwork = mn * (mn * 3 + 20) + 4 * mx;  // at least MINWRK on every path
    dgesvdx_("N", "N", "A", &m, &n, a1.data(), &lda, &vl, &vu, &il, &iu, &ns, s2.data(), u.data(), &ldu, vt.data(),
             &ldvt, work.data(), &lwork, iwork.data(), &info, 1, 1, 1);
    EXPECT_EQ(info, 0);
    for (int i = 0; i < mn; ++i) EXPECT_EQ(s[i], s2[i]) << i;
  }
}

// ?GESVDX: reference LAPACK 3.11's positions (RANGE 3, VL < 0 8, VU <= VL 9, IL 10, IU 11, LDU 15, LDVT
// 17, LWORK 19) through this program's XERBLA, NS and S untouched; a NaN passes to the next library
// (the reference, outside the global scope) and its answer is the reference's own.
TEST(TrnsolverLapackEigenAbi, GesvdxBadArgumentsAndNaN) {
  NEED_REFERENCE();
  const int m = 6, n = 4, lda = 6, big = 1000, small = 10;
  std::vector<double> a = random_matrix(m, n, 3), s(4, -7.0), u(36), vt(16), work(1000);
  std::vector<int> iwork(48);
  int info = 0, ns = -5;
  const auto call = [&](const char* range, double vl, double vu, int il, int iu, int ldu, int ldvt, int lwork) {
    dgesvdx_("V", "V", range, &m, &n, a.data(), &lda, &vl, &vu, &il, &iu, &ns, s.data(), u.data(), &ldu, vt.data(),
             &ldvt, work.data(), &lwork, iwork.data(), &info, 1, 1, 1);
  };
  const auto expect = [&](int position) {
    EXPECT_EQ(g_xerbla.name, "DGESVDX");
    EXPECT_EQ(g_xerbla.info, position);
    EXPECT_EQ(info, -position);
    EXPECT_EQ(s[0], -7.0);
    g_xerbla = {};
  };
  call("X", 0, 1, 1, 1, m, n, big);
  expect(3);
  call("V", -1, 1, 1, 1, m, n, big);
  expect(8);
  call("V", 2, 1, 1, 1, m, n, big);
  expect(9);
  call("I", 0, 0, 0, 1, m, n, big);
  expect(10);
  call("I", 0, 0, 2, 5, m, n, big);
  expect(11);
  call("A", 0, 0, 1, 1, m - 1, n, big);
  expect(15);
  call("I", 0, 0, 1, 3, m, 2, big);
  expect(17);
  call("A", 0, 0, 1, 1, m, n, small);
  expect(19);
  std::vector<double> an = a, an_ref = a, s_ref(4, -7.0);
  an[3] = std::nan("");
  an_ref[3] = std::nan("");
  int ns_ref = -5, info_ref = 0;
  const double vl = 0, vu = 0;
  const int il = 1, iu = 2, ldu = m, ldvt = n, lwork = big;
  dgesvdx_("N", "N", "I", &m, &n, an.data(), &lda, &vl, &vu, &il, &iu, &ns, s.data(), u.data(), &ldu, vt.data(), &ldvt,
           work.data(), &lwork, iwork.data(), &info, 1, 1, 1);
  REF(dgesvdx_)("N", "N", "I", &m, &n, an_ref.data(), &lda, &vl, &vu, &il, &iu, &ns_ref, s_ref.data(), u.data(), &ldu,
                vt.data(), &ldvt, work.data(), &lwork, iwork.data(), &info_ref, 1, 1, 1);
  EXPECT_NE(info, TRNSOLVER_LAPACK_UNANSWERED);
  EXPECT_EQ(info, info_ref);
  EXPECT_EQ(ns, ns_ref);
}
