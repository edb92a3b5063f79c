/* A LAPACKE program as a user writes it (issue #27): it calls LAPACKE, which calls the Fortran LAPACK
 * symbols, and knows nothing of trnsci. run_lapacke_client.sh runs it once as it is (the system LAPACK,
 * OpenBLAS's: the oracle) and once with LD_PRELOAD=libtrnsolver_lapack.so, then runs it in compare
 * mode on the two result files.
 *
 *   lapacke_client run OUT          every case; one result line per case in OUT
 *   lapacke_client compare A B      the result files agree: same INFO, same integers (pivots), and
 *                                   max |a - b| <= tol * max |a| per case, tol by the case's precision
 *                                   (S/C: 1e-4, D/Z: 1e-11; docs/trnsolver.md "LAPACK ABI shim")
 *
 * The matrices are well conditioned (kappa <= ~10: SPD M M^T / n + I, random plus a diagonal shift,
 * full-rank tall QR), so both libraries' results lie within n u kappa of the exact ones and of each
 * other. The bad-argument cases check, in this program, that xerbla_ was called with LAPACK's
 * routine name and position and that the outputs are untouched; their INFO is compared between the
 * runs (and against the expected -position here). The program defines its own xerbla_ (exported) as
 * LAPACK's test programs do, so that neither library's handler stops the run. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

/* ---- results ------------------------------------------------------------------------------------ */

static FILE* g_out;
static int g_self_failures;

/* One case: "<name> <kind> <info> <count> v0 v1 ...", kind f (fp32 tolerance), d (fp64), i (exact). */
static void emit_begin(const char* name, char kind, int info, int count) {
  fprintf(g_out, "%s %c %d %d", name, kind, info, count);
}
static void emit_value(double v) { fprintf(g_out, " %.17g", v); }
static void emit_end(void) { fputc('\n', g_out); }

static void emit_s(const char* name, int info, const float* v, int n) {
  emit_begin(name, 'f', info, n);
  for (int i = 0; i < n; ++i) emit_value(v[i]);
  emit_end();
}
static void emit_d(const char* name, int info, const double* v, int n) {
  emit_begin(name, 'd', info, n);
  for (int i = 0; i < n; ++i) emit_value(v[i]);
  emit_end();
}
static void emit_c(const char* name, int info, const lapack_complex_float* v, int n) {
  emit_begin(name, 'f', info, 2 * n);
  for (int i = 0; i < n; ++i) {
    emit_value(crealf(v[i]));
    emit_value(cimagf(v[i]));
  }
  emit_end();
}
static void emit_z(const char* name, int info, const lapack_complex_double* v, int n) {
  emit_begin(name, 'd', info, 2 * n);
  for (int i = 0; i < n; ++i) {
    emit_value(creal(v[i]));
    emit_value(cimag(v[i]));
  }
  emit_end();
}
static void emit_i(const char* name, int info, const lapack_int* v, int n) {
  emit_begin(name, 'i', info, n);
  for (int i = 0; i < n; ++i) emit_value(v[i]);
  emit_end();
}

static void self_check(int ok, const char* what) {
  if (ok) return;
  fprintf(stderr, "FAIL (self check): %s\n", what);
  ++g_self_failures;
}

/* ---- xerbla: recorded, never stops -------------------------------------------------------------- */

static char g_xerbla_name[8];
static int g_xerbla_info;

void xerbla_(const char* srname, const int* info, size_t len) {
  size_t n = 0;
  while (n < len && n < sizeof g_xerbla_name - 1 && srname[n] != ' ' && srname[n] != '\0') {
    g_xerbla_name[n] = srname[n];
    ++n;
  }
  g_xerbla_name[n] = '\0';
  g_xerbla_info = *info;
}

/* ---- matrices ----------------------------------------------------------------------------------- */

static unsigned long long g_seed = 12345;
static double uniform(void) { /* [-1, 1), a 64-bit LCG's top 53 bits */
  g_seed = g_seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(g_seed >> 11) / 4503599627370496.0 - 1.0;
}
/* n x n SPD: M M^T / n + I (kappa <= ~5 for uniform M). */
static void spd_d(int n, double* a) {
  double* m = malloc(sizeof(double) * n * n);
  for (int i = 0; i < n * n; ++i) m[i] = uniform();
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += m[i + n * k] * m[j + n * k];
      a[i + n * j] = s / n + (i == j);
    }
  free(m);
}
/* Hermitian PD: M M^H / n + I. */
static void hpd_z(int n, lapack_complex_double* a) {
  lapack_complex_double* m = malloc(sizeof(lapack_complex_double) * n * n);
  for (int i = 0; i < n * n; ++i) m[i] = uniform() + I * uniform();
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      lapack_complex_double s = 0;
      for (int k = 0; k < n; ++k) s += m[i + n * k] * conj(m[j + n * k]);
      a[i + n * j] = s / n + (i == j);
    }
  free(m);
}
/* rows x cols general, diagonal shifted by `shift` (well conditioned for shift ~ n / 2). */
static void general_d(int rows, int cols, double shift, double* a) {
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) a[i + rows * j] = uniform() + (i == j ? shift : 0);
}
static void general_z(int rows, int cols, double shift, lapack_complex_double* a) {
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) a[i + rows * j] = uniform() + I * uniform() + (i == j ? shift : 0);
}
static void to_s(int n, const double* d, float* s) {
  for (int i = 0; i < n; ++i) s[i] = (float)d[i];
}
static void to_c(int n, const lapack_complex_double* z, lapack_complex_float* c) {
  for (int i = 0; i < n; ++i) c[i] = (float)creal(z[i]) + I * (float)cimag(z[i]);
}

#define N 40
#define NRHS 3
#define MT 48 /* rows of the tall QR / least-squares cases */

/* ---- cases -------------------------------------------------------------------------------------- */

static void cholesky_cases(void) {
  double a[N * N], b[N * NRHS], inv[N * N];
  float as[N * N], bs[N * NRHS];
  spd_d(N, a);
  general_d(N, NRHS, 0, b);
  memcpy(inv, a, sizeof a);
  to_s(N * N, a, as);
  to_s(N * NRHS, b, bs);
  emit_d("dpotrf", LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', N, a, N), a, N * N);
  emit_d("dpotrs", LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', N, NRHS, a, N, b, N), b, N * NRHS);
  emit_d("dpotri", LAPACKE_dpotri_work(LAPACK_COL_MAJOR, 'L', N, a, N), a, N * N);
  emit_s("spotrf_upper", LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'U', N, as, N), as, N * N);
  emit_s("spotrs_upper", LAPACKE_spotrs_work(LAPACK_COL_MAJOR, 'U', N, NRHS, as, N, bs, N), bs, N * NRHS);
  emit_s("spotri_upper", LAPACKE_spotri_work(LAPACK_COL_MAJOR, 'U', N, as, N), as, N * N);
  /* Scaled near underflow (diagonal ~ 2^-100, outside spotrf's rsqrt range): passed through. */
  float tiny[N * N];
  for (int i = 0; i < N * N; ++i) tiny[i] = (float)(inv[i] * 0x1p-100);
  emit_s("spotrf_tiny_passthrough", LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'L', N, tiny, N), tiny, N * N);
  /* A leading minor of order 5 that is not positive definite: INFO = 5 from both. */
  inv[4 + N * 4] = -1.0;
  emit_d("dpotrf_not_pd", LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', N, inv, N), inv, 0);

  lapack_complex_double z[N * N], zb[N * NRHS];
  lapack_complex_float c[N * N], cb[N * NRHS];
  hpd_z(N, z);
  general_z(N, NRHS, 0, zb);
  to_c(N * N, z, c);
  to_c(N * NRHS, zb, cb);
  emit_z("zpotrf", LAPACKE_zpotrf_work(LAPACK_COL_MAJOR, 'U', N, z, N), z, N * N);
  emit_z("zpotrs", LAPACKE_zpotrs_work(LAPACK_COL_MAJOR, 'U', N, NRHS, z, N, zb, N), zb, N * NRHS);
  emit_z("zpotri", LAPACKE_zpotri_work(LAPACK_COL_MAJOR, 'U', N, z, N), z, N * N);
  emit_c("cpotrf", LAPACKE_cpotrf_work(LAPACK_COL_MAJOR, 'L', N, c, N), c, N * N);
  emit_c("cpotrs", LAPACKE_cpotrs_work(LAPACK_COL_MAJOR, 'L', N, NRHS, c, N, cb, N), cb, N * NRHS);
  emit_c("cpotri", LAPACKE_cpotri_work(LAPACK_COL_MAJOR, 'L', N, c, N), c, N * N);
}

static void triangular_cases(void) {
  double t[N * N], u[N * N];
  general_d(N, N, N / 2.0, t);
  memcpy(u, t, sizeof t);
  emit_d("dtrtri_upper", LAPACKE_dtrtri_work(LAPACK_COL_MAJOR, 'U', 'N', N, t, N), t, N * N);
  emit_d("dlauum_lower", LAPACKE_dlauum_work(LAPACK_COL_MAJOR, 'L', N, u, N), u, N * N);
  float ts[N * N];
  general_d(N, N, N / 2.0, t);
  to_s(N * N, t, ts);
  emit_s("strtri_lower", LAPACKE_strtri_work(LAPACK_COL_MAJOR, 'L', 'N', N, ts, N), ts, N * N);
  /* Complex TRTRI (both triangles and diagonal kinds), and a zero diagonal: INFO 3, A untouched. */
  lapack_complex_double z[N * N];
  lapack_complex_float c[N * N];
  general_z(N, N, N / 2.0, z);
  to_c(N * N, z, c);
  emit_c("ctrtri_upper", LAPACKE_ctrtri_work(LAPACK_COL_MAJOR, 'U', 'N', N, c, N), c, N * N);
  to_c(N * N, z, c);
  emit_c("ctrtri_lower_unit", LAPACKE_ctrtri_work(LAPACK_COL_MAJOR, 'L', 'U', N, c, N), c, N * N);
  emit_z("ztrtri_lower", LAPACKE_ztrtri_work(LAPACK_COL_MAJOR, 'L', 'N', N, z, N), z, N * N);
  general_z(N, N, N / 2.0, z);
  emit_z("ztrtri_upper_unit", LAPACKE_ztrtri_work(LAPACK_COL_MAJOR, 'U', 'U', N, z, N), z, N * N);
  general_z(N, N, N / 2.0, z);
  z[2 + 2 * N] = 0;
  emit_z("ztrtri_singular", LAPACKE_ztrtri_work(LAPACK_COL_MAJOR, 'U', 'N', N, z, N), z, N * N);
}

static void lu_cases(void) {
  double a[N * N], a0[N * N], b[N * NRHS], b0[N * NRHS];
  lapack_int ipiv[N];
  general_d(N, N, N / 2.0, a0);
  general_d(N, NRHS, 0, b0);
  memcpy(a, a0, sizeof a);
  memcpy(b, b0, sizeof b);
  emit_d("dgetrf", LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, N, N, a, N, ipiv), a, N * N);
  emit_i("dgetrf_ipiv", 0, ipiv, N);
  emit_d("dgetrs_trans", LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'T', N, NRHS, a, N, ipiv, b, N), b, N * NRHS);
  memcpy(a, a0, sizeof a);
  memcpy(b, b0, sizeof b);
  emit_d("dgesv", LAPACKE_dgesv_work(LAPACK_COL_MAJOR, N, NRHS, a, N, ipiv, b, N), b, N * NRHS);
  /* A zero column: U(7, 7) = 0 exactly, INFO = 7 from both (the factorization completes). */
  memcpy(a, a0, sizeof a);
  for (int i = 0; i < N; ++i) a[i + N * 6] = 0;
  emit_d("dgetrf_singular", LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, N, N, a, N, ipiv), a, 0);

  float as[MT * N], bs[N * NRHS];
  double tall[MT * N];
  general_d(MT, N, N / 2.0, tall);
  to_s(MT * N, tall, as);
  emit_s("sgetrf_tall", LAPACKE_sgetrf_work(LAPACK_COL_MAJOR, MT, N, as, MT, ipiv), as, MT * N);
  to_s(N * N, a0, as);
  to_s(N * NRHS, b0, bs);
  emit_s("sgesv", LAPACKE_sgesv_work(LAPACK_COL_MAJOR, N, NRHS, as, N, ipiv, bs, N), bs, N * NRHS);

  lapack_complex_double z[N * N], zb[N * NRHS];
  lapack_complex_float c[N * N], cb[N * NRHS];
  general_z(N, N, N / 2.0, z);
  general_z(N, NRHS, 0, zb);
  to_c(N * N, z, c);
  to_c(N * NRHS, zb, cb);
  emit_z("zgesv", LAPACKE_zgesv_work(LAPACK_COL_MAJOR, N, NRHS, z, N, ipiv, zb, N), zb, N * NRHS);
  emit_z("zgetrs_conj", LAPACKE_zgetrs_work(LAPACK_COL_MAJOR, 'C', N, NRHS, z, N, ipiv, zb, N), zb, N * NRHS);
  emit_c("cgesv", LAPACKE_cgesv_work(LAPACK_COL_MAJOR, N, NRHS, c, N, ipiv, cb, N), cb, N * NRHS);
}

static void qr_cases(void) {
  double a[MT * N], q[MT * N], tau[N], c[MT * NRHS], query;
  general_d(MT, N, 2.0, a);
  general_d(MT, NRHS, 0, c);
  /* The workspace query: LAPACK's optimal LWORK (at least the minimum N). */
  int info = LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, MT, N, a, MT, tau, &query, -1);
  self_check(info == 0 && query >= N, "dgeqrf workspace query answers at least N");
  int lwork = (int)query;
  double* work = malloc(sizeof(double) * lwork);
  emit_d("dgeqrf", LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, MT, N, a, MT, tau, work, lwork), a, MT * N);
  emit_d("dgeqrf_tau", 0, tau, N);
  free(work);
  double wbig[8192];
  emit_d("dormqr_LT", LAPACKE_dormqr_work(LAPACK_COL_MAJOR, 'L', 'T', MT, NRHS, N, a, MT, tau, c, MT, wbig, 8192), c,
         MT * NRHS);
  memcpy(q, a, sizeof a);
  emit_d("dorgqr", LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, MT, N, N, q, MT, tau, wbig, 8192), q, MT * N);

  float as[MT * N], taus[N], ws[8192];
  general_d(MT, N, 2.0, a); /* a fresh matrix (a holds R and the reflectors) */
  to_s(MT * N, a, as);
  emit_s("sgeqrf", LAPACKE_sgeqrf_work(LAPACK_COL_MAJOR, MT, N, as, MT, taus, ws, 8192), as, MT * N);
  emit_s("sorgqr", LAPACKE_sorgqr_work(LAPACK_COL_MAJOR, MT, N, N, as, MT, taus, ws, 8192), as, MT * N);

  lapack_complex_double z[MT * N], ztau[N], zc[NRHS * MT], zw[8192];
  general_z(MT, N, 2.0, z);
  general_z(NRHS, MT, 0, zc);
  emit_z("zgeqrf", LAPACKE_zgeqrf_work(LAPACK_COL_MAJOR, MT, N, z, MT, ztau, zw, 8192), z, MT * N);
  emit_z("zunmqr_RC", LAPACKE_zunmqr_work(LAPACK_COL_MAJOR, 'R', 'C', NRHS, MT, N, z, MT, ztau, zc, NRHS, zw, 8192),
         zc, NRHS * MT);
  lapack_complex_float cz[MT * N], ctau[N], cw[8192];
  general_z(MT, N, 2.0, z);
  to_c(MT * N, z, cz);
  emit_c("cgeqrf", LAPACKE_cgeqrf_work(LAPACK_COL_MAJOR, MT, N, cz, MT, ctau, cw, 8192), cz, MT * N);
  emit_c("cungqr", LAPACKE_cungqr_work(LAPACK_COL_MAJOR, MT, N, N, cz, MT, ctau, cw, 8192), cz, MT * N);
}

static void gels_cases(void) {
  double a[MT * N], b[MT * NRHS], w[8192];
  general_d(MT, N, 2.0, a);
  general_d(MT, NRHS, 0, b);
  emit_d("dgels_N", LAPACKE_dgels_work(LAPACK_COL_MAJOR, 'N', MT, N, NRHS, a, MT, b, MT, w, 8192), b, MT * NRHS);
  general_d(MT, N, 2.0, a);
  general_d(MT, NRHS, 0, b);
  emit_d("dgels_T", LAPACKE_dgels_work(LAPACK_COL_MAJOR, 'T', MT, N, NRHS, a, MT, b, MT, w, 8192), b, MT * NRHS);
  /* M < N (LAPACK's LQ path; the shim: QR of A^H): the minimum-norm solution (TRANS = N) and the
     least-squares solution of A^T X = B (TRANS = T; rows M+1..N of B: the residual's Q components). */
  double wide[N * MT], bw[MT * NRHS];
  general_d(N, MT, 2.0, wide);
  general_d(MT, NRHS, 0, bw);
  emit_d("dgels_wide_N", LAPACKE_dgels_work(LAPACK_COL_MAJOR, 'N', N, MT, NRHS, wide, N, bw, MT, w, 8192), bw,
         MT * NRHS);
  emit_d("dgels_wide_N_lq", 0, wide, N * MT); /* A on exit: xGELQF's L, reflectors (rowwise) */
  general_d(N, MT, 2.0, wide);
  general_d(MT, NRHS, 0, bw);
  emit_d("dgels_wide_T", LAPACKE_dgels_work(LAPACK_COL_MAJOR, 'T', N, MT, NRHS, wide, N, bw, MT, w, 8192), bw,
         MT * NRHS);
  /* A scaled by 2^-1000 (below SMLNUM: LAPACK rescales first, the kit does not): passed through. */
  general_d(N, MT, 2.0, wide);
  for (int i = 0; i < N * MT; ++i) wide[i] = ldexp(wide[i], -1000);
  general_d(MT, NRHS, 0, bw);
  emit_d("dgels_tiny_passthrough", LAPACKE_dgels_work(LAPACK_COL_MAJOR, 'N', N, MT, NRHS, wide, N, bw, MT, w, 8192),
         bw, MT * NRHS);
  float as[MT * N], bs[MT * NRHS], ws[8192];
  general_d(MT, N, 2.0, a);
  general_d(MT, NRHS, 0, b);
  to_s(MT * N, a, as);
  to_s(MT * NRHS, b, bs);
  emit_s("sgels_N", LAPACKE_sgels_work(LAPACK_COL_MAJOR, 'N', MT, N, NRHS, as, MT, bs, MT, ws, 8192), bs, MT * NRHS);
  lapack_complex_double z[MT * N], zb[MT * NRHS], zw[8192];
  general_z(MT, N, 2.0, z);
  general_z(MT, NRHS, 0, zb);
  emit_z("zgels_C", LAPACKE_zgels_work(LAPACK_COL_MAJOR, 'C', MT, N, NRHS, z, MT, zb, MT, zw, 8192), zb, MT * NRHS);
  lapack_complex_double zwide[N * MT];
  general_z(N, MT, 2.0, zwide);
  general_z(MT, NRHS, 0, zb);
  emit_z("zgels_wide_N", LAPACKE_zgels_work(LAPACK_COL_MAJOR, 'N', N, MT, NRHS, zwide, N, zb, MT, zw, 8192), zb,
         MT * NRHS);
  emit_z("zgels_wide_N_lq", 0, zwide, N * MT);
  general_z(N, MT, 2.0, zwide);
  general_z(MT, NRHS, 0, zb);
  emit_z("zgels_wide_C", LAPACKE_zgels_work(LAPACK_COL_MAJOR, 'C', N, MT, NRHS, zwide, N, zb, MT, zw, 8192), zb,
         MT * NRHS);
  float wides[N * MT];
  general_d(N, MT, 2.0, wide);
  general_d(MT, NRHS, 0, bw);
  to_s(N * MT, wide, wides);
  to_s(MT * NRHS, bw, bs);
  emit_s("sgels_wide_N", LAPACKE_sgels_work(LAPACK_COL_MAJOR, 'N', N, MT, NRHS, wides, N, bs, MT, ws, 8192), bs,
         MT * NRHS);
}

static void sym_indef_cases(void) {
  double a[N * N], b[N * NRHS], w[N * 64];
  lapack_int ipiv[N];
  general_d(N, N, 0, a);
  for (int j = 0; j < N; ++j) /* symmetric indefinite: (A + A^T) / 2 */
    for (int i = 0; i < j; ++i) a[i + N * j] = a[j + N * i] = (a[i + N * j] + a[j + N * i]) / 2;
  general_d(N, NRHS, 0, b);
  emit_d("dsytrf", LAPACKE_dsytrf_work(LAPACK_COL_MAJOR, 'L', N, a, N, ipiv, w, N * 64), a, N * N);
  emit_i("dsytrf_ipiv", 0, ipiv, N);
  emit_d("dsytrs", LAPACKE_dsytrs_work(LAPACK_COL_MAJOR, 'L', N, NRHS, a, N, ipiv, b, N), b, N * NRHS);
}

/* A bad argument: xerbla_(name, position), the output untouched, and LAPACKE's INFO -(position + 1) (the
   _work functions count the layout argument: LAPACK's INFO - 1). */
/* ?GESVDX: RANGE A, V (the interval between the 3rd/4th and the 7th/8th largest singular values of this
 * run's RANGE A answer: midpoints, far from every singular value) and I (2..5), tall and wide, JOBU = JOBVT
 * = 'V'. Compared: NS and S (the vectors are unique up to a sign per pair only); self-checked here: the
 * selected triplets reconstruct, max |A v_c - s_c u_c| <= tol ||A||_max, and the workspace query answers
 * at least LAPACK's MINWRK (path 2: max(mn (2 mn + 19), 4 mn + mx) for D). */
#define SVM 24
#define SVN 16
static void gesvdx_d_case(int m, int n, char range, double vl, double vu, double* s_all) {
  double a[SVM * SVM], a0[SVM * SVM], s[SVN], u[SVM * SVN], vt[SVN * SVM], query;
  lapack_int iwork[12 * SVN], ns = -1;
  g_seed = 777;
  general_d(m, n, 0, a);
  memcpy(a0, a, sizeof(double) * m * n);
  const int mn = m < n ? m : n, mx = m < n ? n : m, ldu = m, ldvt = mn;
  int info = LAPACKE_dgesvdx_work(LAPACK_COL_MAJOR, 'V', 'V', range, m, n, a, m, vl, vu, 2, 5, &ns, s, u, ldu, vt,
                                  ldvt, &query, -1, iwork);
  const double minwrk = fmax(mn * (2.0 * mn + 19), 4.0 * mn + mx);
  self_check(info == 0 && query >= minwrk, "dgesvdx workspace query answers at least LAPACK's MINWRK");
  double* work = malloc(sizeof(double) * (size_t)query);
  info = LAPACKE_dgesvdx_work(LAPACK_COL_MAJOR, 'V', 'V', range, m, n, a, m, vl, vu, 2, 5, &ns, s, u, ldu, vt, ldvt,
                              work, (int)query, iwork);
  free(work);
  char name[32], name_ns[40];
  snprintf(name, sizeof name, "dgesvdx_%c_%dx%d", range, m, n);
  snprintf(name_ns, sizeof name_ns, "%s_ns", name);
  emit_i(name_ns, info, &ns, 1);
  emit_d(name, info, s, info == 0 ? ns : 0);
  double amax = 0, res = 0;
  for (int i = 0; i < m * n; ++i) amax = fmax(amax, fabs(a0[i]));
  for (int c = 0; info == 0 && c < ns; ++c)
    for (int i = 0; i < m; ++i) {
      double av = 0;
      for (int k = 0; k < n; ++k) av += a0[i + m * k] * vt[c + ldvt * k];
      res = fmax(res, fabs(av - s[c] * u[i + ldu * c]));
    }
  self_check(info == 0 && ns >= 1 && res <= 1e-11 * amax * mx, "dgesvdx triplets reconstruct A v = s u");
  if (s_all != NULL && info == 0) memcpy(s_all, s, sizeof(double) * ns);
}
static void gesvdx_z_case(int m, int n, char range) {
  lapack_complex_double a[SVM * SVM], a0[SVM * SVM], u[SVM * SVN], vt[SVN * SVM], query;
  double s[SVN], rwork[SVN * (SVN * 2 + 15 * SVN)];
  lapack_int iwork[12 * SVN], ns = -1;
  g_seed = 778;
  general_z(m, n, 0, a);
  memcpy(a0, a, sizeof(lapack_complex_double) * m * n);
  const int mn = m < n ? m : n, mx = m < n ? n : m, ldu = m, ldvt = mn;
  int info = LAPACKE_zgesvdx_work(LAPACK_COL_MAJOR, 'V', 'V', range, m, n, a, m, 0, 0, 2, 5, &ns, s, u, ldu, vt, ldvt,
                                  &query, -1, rwork, iwork);
  self_check(info == 0 && creal(query) >= 3.0 * mn + mx, "zgesvdx workspace query answers at least LAPACK's MINWRK");
  const int lwork = (int)creal(query);
  lapack_complex_double* work = malloc(sizeof(lapack_complex_double) * lwork);
  info = LAPACKE_zgesvdx_work(LAPACK_COL_MAJOR, 'V', 'V', range, m, n, a, m, 0, 0, 2, 5, &ns, s, u, ldu, vt, ldvt, work,
                              lwork, rwork, iwork);
  free(work);
  char name[32], name_ns[40];
  snprintf(name, sizeof name, "zgesvdx_%c_%dx%d", range, m, n);
  snprintf(name_ns, sizeof name_ns, "%s_ns", name);
  emit_i(name_ns, info, &ns, 1);
  emit_d(name, info, s, info == 0 ? ns : 0);
  double amax = 0, res = 0;
  for (int i = 0; i < m * n; ++i) amax = fmax(amax, cabs(a0[i]));
  for (int c = 0; info == 0 && c < ns; ++c)
    for (int i = 0; i < m; ++i) {
      lapack_complex_double av = 0;
      for (int k = 0; k < n; ++k) av += a0[i + m * k] * conj(vt[c + ldvt * k]);
      res = fmax(res, cabs(av - s[c] * u[i + ldu * c]));
    }
  self_check(info == 0 && ns >= 1 && res <= 1e-11 * amax * mx, "zgesvdx triplets reconstruct A v = s u");
}
static void gesvdx_cases(void) {
  for (int wide = 0; wide < 2; ++wide) {
    const int m = wide ? SVN : SVM, n = wide ? SVM : SVN;
    double s_all[SVN];
    gesvdx_d_case(m, n, 'A', 0, 0, s_all);
    gesvdx_d_case(m, n, 'V', 0.5 * (s_all[6] + s_all[7]), 0.5 * (s_all[2] + s_all[3]), NULL);
    gesvdx_d_case(m, n, 'I', 0, 0, NULL);
    gesvdx_z_case(m, n, wide ? 'A' : 'I');
  }
  /* S and C: the 2nd..5th largest of a tall matrix (fp32 tolerance). */
  float as[SVM * SVN], ss[SVN], us[SVM * SVN], vts[SVN * SVN], ws[4096];
  lapack_int iwork[12 * SVN], ns = -1;
  double a[SVM * SVN];
  g_seed = 779;
  general_d(SVM, SVN, 0, a);
  to_s(SVM * SVN, a, as);
  int info = LAPACKE_sgesvdx_work(LAPACK_COL_MAJOR, 'V', 'V', 'I', SVM, SVN, as, SVM, 0, 0, 2, 5, &ns, ss, us, SVM,
                                  vts, SVN, ws, 4096, iwork);
  emit_i("sgesvdx_I_ns", info, &ns, 1);
  emit_s("sgesvdx_I", info, ss, info == 0 ? ns : 0);
  lapack_complex_float ac[SVM * SVN], uc[SVM * SVN], vtc[SVN * SVN], wc[4096];
  float rwc[SVN * (SVN * 2 + 15 * SVN)];
  lapack_complex_double z[SVM * SVN];
  general_z(SVM, SVN, 0, z);
  to_c(SVM * SVN, z, ac);
  info = LAPACKE_cgesvdx_work(LAPACK_COL_MAJOR, 'N', 'N', 'I', SVM, SVN, ac, SVM, 0, 0, 2, 5, &ns, ss, uc, SVM, vtc,
                              SVN, wc, 4096, rwc, iwork);
  emit_i("cgesvdx_I_ns", info, &ns, 1);
  emit_s("cgesvdx_I", info, ss, info == 0 ? ns : 0);
}

static void bad_argument(const char* name, const char* routine, int position, int info, const void* out,
                         const void* before, size_t bytes) {
  char what[160];
  snprintf(what, sizeof what, "%s: INFO %d (expected %d), xerbla %s %d, outputs untouched", name, info, -position - 1,
           g_xerbla_name, g_xerbla_info);
  self_check(info == -position - 1 && g_xerbla_info == position && strcmp(g_xerbla_name, routine) == 0 &&
                 memcmp(out, before, bytes) == 0,
             what);
  emit_begin(name, 'i', info, 1);
  emit_value(g_xerbla_info);
  emit_end();
  g_xerbla_name[0] = '\0';
  g_xerbla_info = 0;
}

static void bad_argument_cases(void) {
  double a[N * N], keep[N * N], b[N * NRHS], w[8192];
  lapack_int ipiv[N];
  general_d(N, N, N / 2.0, a);
  general_d(N, NRHS, 0, b);
  memcpy(keep, a, sizeof a);
  bad_argument("bad_dpotrf_uplo", "DPOTRF", 1, LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'X', N, a, N), a, keep, sizeof a);
  bad_argument("bad_dpotrf_lda", "DPOTRF", 4, LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', N, a, N - 1), a, keep,
               sizeof a);
  bad_argument("bad_dgetrf_m", "DGETRF", 1, LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, -1, N, a, N, ipiv), a, keep,
               sizeof a);
  bad_argument("bad_dgesv_ldb", "DGESV", 7, LAPACKE_dgesv_work(LAPACK_COL_MAJOR, N, NRHS, a, N, ipiv, b, N - 1), a, keep,
               sizeof a);
  /* (Not DGETRS: OpenBLAS 0.3.21's own DGETRS calls XERBLA but leaves INFO at 0.) */
  bad_argument("bad_dorgqr_k", "DORGQR", 3, LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, N, N - 1, N, a, N, w, w + 100, 4000),
               a, keep, sizeof a);
  bad_argument("bad_dgeqrf_lwork", "DGEQRF", 7, LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, N, N, a, N, w + 100, w, 1), a,
               keep, sizeof a);
  bad_argument("bad_dormqr_side", "DORMQR", 1,
               LAPACKE_dormqr_work(LAPACK_COL_MAJOR, 'X', 'N', N, NRHS, N, a, N, w, b, N, w + 100, 4000), a, keep,
               sizeof a);
  bad_argument("bad_dgels_lwork", "DGELS", 10,
               LAPACKE_dgels_work(LAPACK_COL_MAJOR, 'N', N, N, NRHS, a, N, b, N, w, 2), a, keep, sizeof a);
  bad_argument("bad_dsytrf_n", "DSYTRF", 2, LAPACKE_dsytrf_work(LAPACK_COL_MAJOR, 'U', -3, a, N, ipiv, w, 100), a, keep,
               sizeof a);
  bad_argument("bad_dtrtri_diag", "DTRTRI", 2, LAPACKE_dtrtri_work(LAPACK_COL_MAJOR, 'U', 'Z', N, a, N), a, keep,
               sizeof a);
  lapack_complex_double z[N * N], zkeep[N * N];
  general_z(N, N, N / 2.0, z);
  memcpy(zkeep, z, sizeof z);
  bad_argument("bad_ztrtri_lda", "ZTRTRI", 5, LAPACKE_ztrtri_work(LAPACK_COL_MAJOR, 'L', 'N', N, z, N - 1), z, zkeep,
               sizeof z);
}

/* ---- compare mode ------------------------------------------------------------------------------- */

static int compare(const char* oracle_path, const char* shim_path) {
  FILE* fa = fopen(oracle_path, "r");
  FILE* fb = fopen(shim_path, "r");
  if (fa == NULL || fb == NULL) {
    fprintf(stderr, "FAIL: cannot open %s or %s\n", oracle_path, shim_path);
    return 1;
  }
  int failures = 0, cases = 0;
  char name_a[64], name_b[64], kind_a, kind_b;
  int info_a, info_b, count_a, count_b;
  while (fscanf(fa, "%63s %c %d %d", name_a, &kind_a, &info_a, &count_a) == 4) {
    if (fscanf(fb, "%63s %c %d %d", name_b, &kind_b, &info_b, &count_b) != 4 || strcmp(name_a, name_b) != 0 ||
        count_a != count_b) {
      fprintf(stderr, "FAIL: %s: the result files differ in their cases\n", name_a);
      return 1;
    }
    const double tol = kind_a == 'i' ? 0 : kind_a == 'f' ? 1e-4 : 1e-11;
    double biggest = 0, diff = 0;
    for (int i = 0; i < count_a; ++i) {
      double x, y;
      if (fscanf(fa, "%lf", &x) != 1 || fscanf(fb, "%lf", &y) != 1) {
        fprintf(stderr, "FAIL: %s: truncated values\n", name_a);
        return 1;
      }
      biggest = fmax(biggest, fabs(x));
      diff = (isnan(y) || isnan(x)) ? INFINITY : fmax(diff, fabs(x - y));
    }
    const int ok = info_a == info_b && diff <= tol * fmax(biggest, 1e-300);
    printf("%-26s info %4d / %4d  max|diff| / max|oracle| = %.3g (tol %.0e)  %s\n", name_a, info_a, info_b,
           biggest > 0 ? diff / biggest : diff, tol, ok ? "ok" : "FAIL");
    failures += !ok;
    ++cases;
  }
  printf("%d cases, %d failed\n", cases, failures);
  fclose(fa);
  fclose(fb);
  return failures == 0 && cases > 0 ? 0 : 1;
}

int main(int argc, char** argv) {
  if (argc == 4 && strcmp(argv[1], "compare") == 0) return compare(argv[2], argv[3]);
  if (argc != 3 || strcmp(argv[1], "run") != 0) {
    fprintf(stderr, "usage: %s run OUT | compare ORACLE SHIM\n", argv[0]);
    return 2;
  }
  g_out = fopen(argv[2], "w");
  if (g_out == NULL) return 2;
  cholesky_cases();
  triangular_cases();
  lu_cases();
  qr_cases();
  gels_cases();
  sym_indef_cases();
  gesvdx_cases();
  bad_argument_cases();
  fclose(g_out);
  if (g_self_failures != 0) fprintf(stderr, "%d self checks failed\n", g_self_failures);
  return g_self_failures == 0 ? 0 : 1;
}
