// trnsolver.h, the SVD family (svd.hpp): gebrd, orgbr/ungbr, gesvdaStridedBatched (S, D, C, Z) and the
// 64-bit Xgesvdp and Xgesvdr (R_32F, R_64F, C_32F, C_64F), each with its _bufferSize twin. Conventions:
// capi.cpp; positions do not count the handle. The routines allocate their own scratch: the legacy
// _bufferSize is the element count LAPACK's xGEBRD / xORGBR would take (max(1, m + n) for gebrd, the
// QR drivers' blocks for orgbr), 1 for gesvda; the X routines take one element on the device and none
// on the host. The fp32 Jacobi SVD inside (kGesvdjMaxDim) bounds S gesvda's m, C gesvda's n and the
// fp32 X routines' small SVDs: beyond it NOT_SUPPORTED.
#include <complex>
#include <type_traits>

#include "capi_svd_internal.hpp"
#include "svd_internal.hpp"
#include "trn/solver/qr.hpp"
#include "trn/solver/svd.hpp"

using namespace trn::solver::capi;  // NOLINT: the shim's shared internals

namespace {

using trn::cshim::as_cpp;
template <class C>
using Real = std::conditional_t<std::is_same_v<C, float> || std::is_same_v<C, trnComplex>, float, double>;
template <class C>
constexpr char kPrefix = std::is_same_v<C, float> ? 's' : std::is_same_v<C, double> ? 'd'
                         : std::is_same_v<C, trnComplex> ? 'c' : 'z';

Status buffer_out(Check& c, int* lwork, std::int64_t elems) {
  c.require_or(elems <= std::numeric_limits<int>::max(), TRNSOLVER_STATUS_NOT_SUPPORTED,
               "TRNSOLVER_STATUS_NOT_SUPPORTED", "workspace above INT_MAX elements");
  if (!c) return c.status();
  *lwork = static_cast<int>(elems);
  return TRNSOLVER_STATUS_SUCCESS;
}

// ---- gebrd: m 1, n 2, A 3, lda 4, D 5, E 6, TAUQ 7, TAUP 8, Work 9, Lwork 10, devInfo 11 ----------------

std::int64_t gebrd_lwork(int m, int n) { return std::max<std::int64_t>(1, std::int64_t{m} + n); }

template <class C>
Status gebrd_run(const char* fn, trnsolverDnHandle_t h, int m, int n, C* A, int lda, Real<C>* D, Real<C>* E, C* tauq,
                 C* taup, C* work, int lwork, int* info) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.nonnegative(m, 1, "m").require(n >= 0 && n <= m, 2, "n (0 <= n <= m)").require(n == 0 || A != nullptr, 3, "A")
      .leading_dim(lda, m, 4, "lda").require(n == 0 || D != nullptr, 5, "D").require(n < 2 || E != nullptr, 6, "E")
      .require(n == 0 || tauq != nullptr, 7, "TAUQ").require(n == 0 || taup != nullptr, 8, "TAUP")
      .not_null(work, 9, "Work").require(lwork >= gebrd_lwork(m, n), 10, "Lwork").not_null(info, 11, "devInfo");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    *info = trn::solver::gebrd(h->settings, m, n, as_cpp(A), lda, D, E, as_cpp(tauq), as_cpp(taup), &rep);
  });
}

// ---- orgbr/ungbr: side 1, m 2, n 3, k 4, A 5, lda 6, tau 7, then work 8, lwork 9, info 10 (or lwork 8) ----

void check_orgbr(Check& c, int side, int m, int n, int k, const void* A, int lda, const void* tau) {
  const bool q = side == TRNBLAS_SIDE_LEFT;
  c.one_of(side, {TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT}, 1, "side").nonnegative(m, 2, "m")
      .require(q ? (n >= 0 && n <= m && n >= std::min(m, k)) : (n >= m && m >= std::min(n, k)), 3, "n")
      .require(k >= 0, 4, "k").require(m == 0 || n == 0 || A != nullptr, 5, "A").leading_dim(lda, m, 6, "lda")
      .require(k == 0 || m == 0 || n == 0 || tau != nullptr, 7, "tau");
}

// The orgqr blocks orgbr runs: Q of m rows (n columns, k reflectors), P^H through the transpose (m x n more).
std::int64_t orgbr_lwork(char P, trnsolverDnHandle_t h, int side, int m, int n, int k) {
  const std::int64_t nb = h->settings.qr_block_size;
  if (side == TRNBLAS_SIDE_LEFT) return trn::solver::qr_workspace(P, 'g', m, n, std::min(k, n), true, nb);
  return trn::solver::qr_workspace(P, 'g', n, m, std::min(k, m), true, nb) + std::int64_t{m} * n;
}

template <class C>
Status orgbr_buffer(const char* fn, trnsolverDnHandle_t h, int side, int m, int n, int k, const C* A, int lda,
                    const C* tau, int* lwork) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_orgbr(c, side, m, n, k, A, lda, tau);
  c.not_null(lwork, 8, "lwork");
  if (!c) return c.status();
  return buffer_out(c, lwork, orgbr_lwork(kPrefix<C>, h, side, m, n, k));
}

template <class C>
Status orgbr_run(const char* fn, trnsolverDnHandle_t h, int side, int m, int n, int k, C* A, int lda, const C* tau,
                 C* work, int lwork, int* info) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_orgbr(c, side, m, n, k, A, lda, tau);
  c.not_null(work, 8, "work");
  if (c) c.require(lwork >= orgbr_lwork(kPrefix<C>, h, side, m, n, k), 9, "lwork");
  c.not_null(info, 10, "info");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    *info = trn::solver::orgbr(h->settings, side == TRNBLAS_SIDE_LEFT ? 'Q' : 'P', m, n, k, as_cpp(A), lda,
                               as_cpp(tau), &rep);
  });
}

// ---- gesvdaStridedBatched: jobz 1, rank 2, m 3, n 4, A 5, lda 6, strideA 7, S 8, strideS 9, U 10, ldu 11,
// strideU 12, V 13, ldv 14, strideV 15, then work 16, lwork 17, info 18, h_R_nrmF 19, batchSize 20
// (or lwork 16, batchSize 17) ---------------------------------------------------------------------------

struct GesvdaArgs {
  int jobz, rank, m, n;
  const void* A;
  int lda;
  long long sA;
  const void* S;
  long long sS;
  const void* U;
  int ldu;
  long long sU;
  const void* V;
  int ldv;
  long long sV;
};

void check_gesvda(Check& c, const GesvdaArgs& a, bool fp32, bool cplx) {
  const bool vec = a.jobz == TRNSOLVER_EIG_MODE_VECTOR;
  c.one_of(a.jobz, {TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR}, 1, "jobz").require(a.rank >= 1, 2, "rank")
      .nonnegative(a.m, 3, "m").require(a.n >= a.rank && a.n <= a.m, 4, "n (rank <= n <= m)")
      .not_null(a.A, 5, "d_A").leading_dim(a.lda, a.m, 6, "lda")
      .require(a.sA >= static_cast<long long>(a.lda) * a.n, 7, "strideA").not_null(a.S, 8, "d_S")
      .require(a.sS >= a.rank, 9, "strideS").require(!vec || a.U != nullptr, 10, "d_U")
      .require(!vec || a.ldu >= std::max(1, a.m), 11, "ldu")
      .require(!vec || a.sU >= static_cast<long long>(a.ldu) * a.rank, 12, "strideU")
      .require(!vec || a.V != nullptr, 13, "d_V").require(!vec || a.ldv >= std::max(1, a.n), 14, "ldv")
      .require(!vec || a.sV >= static_cast<long long>(a.ldv) * a.rank, 15, "strideV");
  if (fp32)
    c.require_or((cplx ? a.n : a.m) <= trn::solver::kGesvdjMaxDim, TRNSOLVER_STATUS_NOT_SUPPORTED,
                 "TRNSOLVER_STATUS_NOT_SUPPORTED", "the fp32 Jacobi SVD's dimension limit (kGesvdjMaxDim)");
}

template <class C>
Status gesvda_buffer(const char* fn, trnsolverDnHandle_t h, const GesvdaArgs& a, int* lwork, int batch) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_gesvda(c, a, std::is_same_v<Real<C>, float>, !std::is_same_v<Real<C>, C>);
  c.not_null(lwork, 16, "lwork").require(batch >= 1, 17, "batchSize");
  if (!c) return c.status();
  return buffer_out(c, lwork, 1);
}

template <class C>
Status gesvda_run(const char* fn, trnsolverDnHandle_t h, const GesvdaArgs& a, Real<C>* S, C* U, C* V, C* work,
                  int lwork, int* info, double* rnrm, int batch) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_gesvda(c, a, std::is_same_v<Real<C>, float>, !std::is_same_v<Real<C>, C>);
  c.not_null(work, 16, "d_work").require(lwork >= 1, 17, "lwork").not_null(info, 18, "d_info")
      .not_null(rnrm, 19, "h_R_nrmF").require(batch >= 1, 20, "batchSize");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    const bool vec = a.jobz == TRNSOLVER_EIG_MODE_VECTOR;
    const C* A = static_cast<const C*>(a.A);
    run_batch(h->settings, batch, rep, [&](std::int64_t k, trn::solver::CallReport& r) {
      info[k] = trn::solver::gesvda(h->settings, vec, a.rank, a.m, a.n, as_cpp(A + k * a.sA), a.lda, S + k * a.sS,
                                    vec ? as_cpp(U + k * a.sU) : nullptr, a.ldu, vec ? as_cpp(V + k * a.sV) : nullptr,
                                    a.ldv, rnrm + k, &r);
    });
  });
}

// ---- X routines: dispatch on the data type ----------------------------------------------------------------

// f(T*) with T the C++ element type of dt (float, double, std::complex<float>, std::complex<double>).
template <class F>
void x_dispatch(int dt, F&& f) {
  switch (dt) {
    case TRN_R_32F: f(static_cast<float*>(nullptr)); break;
    case TRN_R_64F: f(static_cast<double*>(nullptr)); break;
    case TRN_C_32F: f(static_cast<std::complex<float>*>(nullptr)); break;
    default: f(static_cast<std::complex<double>*>(nullptr));
  }
}

// ---- Xgesvdp: params 1, jobz 2, econ 3, m 4, n 5, dataTypeA 6, A 7, lda 8, dataTypeS 9, S 10, dataTypeU 11,
// U 12, ldu 13, dataTypeV 14, V 15, ldv 16, computeType 17, then bufferOnDevice 18, bytes 19, bufferOnHost 20,
// bytes 21, d_info 22, h_err_sigma 23 (or the two byte counts 18, 19) --------------------------------------

// The data part both X routines share: A, S, U, V with their types and leading dimensions.
struct XSvdData {
  int dta;
  const void* A;
  std::int64_t lda;
  int dts;
  const void* S;
  int dtu;
  const void* U;
  std::int64_t ldu;
  int dtv;
  const void* V;
  std::int64_t ldv;
  int dtc;
};

void check_x_svd_types(Check& c, const XSvdData& d) {
  check_x_types_any(c, d.dta, d.dtc);
  c.require_or(d.dts == x_real_of(d.dta) && d.dtu == d.dta && d.dtv == d.dta, TRNSOLVER_STATUS_NOT_SUPPORTED,
               "TRNSOLVER_STATUS_NOT_SUPPORTED", "dataType of S = the real type of A's, U's = V's = A's");
}

struct XgesvdpArgs {
  int jobz, econ;
  std::int64_t m, n;
  XSvdData d;
};

void check_xgesvdp(Check& c, trnsolverDnParams_t params, const XgesvdpArgs& a) {
  const bool vec = a.jobz == TRNSOLVER_EIG_MODE_VECTOR, any = a.m > 0 && a.n > 0;
  c.require(g_dn_params.contains(params), 1, "params")
      .one_of(a.jobz, {TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR}, 2, "jobz")
      .one_of(a.econ, {0, 1}, 3, "econ").nonnegative(a.m, 4, "m").nonnegative(a.n, 5, "n")
      .require(!any || a.d.A != nullptr, 7, "A").leading_dim(a.d.lda, a.m, 8, "lda")
      .require(!any || a.d.S != nullptr, 10, "S").require(!vec || !any || a.d.U != nullptr, 12, "U")
      .leading_dim(a.d.ldu, vec ? a.m : 1, 13, "ldu").require(!vec || !any || a.d.V != nullptr, 15, "V")
      .leading_dim(a.d.ldv, vec ? a.n : 1, 16, "ldv");
  check_x_svd_types(c, a.d);
}

// ---- Xgesvdr: params 1, jobu 2, jobv 3, m 4, n 5, k 6, p 7, niters 8, dataTypeA 9, A 10, lda 11,
// dataTypeSrand 12, Srand 13, dataTypeUrand 14, Urand 15, ldUrand 16, dataTypeVrand 17, Vrand 18,
// ldVrand 19, computeType 20, then bufferOnDevice 21, bytes 22, bufferOnHost 23, bytes 24, d_info 25
// (or the two byte counts 21, 22) --------------------------------------------------------------------------

struct XgesvdrArgs {
  int jobu, jobv;
  std::int64_t m, n, k, p, niters;
  XSvdData d;
};

void check_xgesvdr(Check& c, trnsolverDnParams_t params, const XgesvdrArgs& a) {
  const bool wu = a.jobu == 'S', wv = a.jobv == 'S';
  c.require(g_dn_params.contains(params), 1, "params").one_of(a.jobu, {'S', 'N'}, 2, "jobu")
      .one_of(a.jobv, {'S', 'N'}, 3, "jobv").nonnegative(a.m, 4, "m").nonnegative(a.n, 5, "n")
      .require(a.k >= 1 && a.k <= std::min(a.m, a.n), 6, "k (1 <= k <= min(m, n))")
      .require(a.p >= 0 && a.k + a.p <= std::min(a.m, a.n), 7, "p (k + p <= min(m, n))")
      .nonnegative(a.niters, 8, "niters").not_null(a.d.A, 10, "A").leading_dim(a.d.lda, a.m, 11, "lda")
      .not_null(a.d.S, 13, "Srand").require(!wu || a.d.U != nullptr, 15, "Urand")
      .leading_dim(a.d.ldu, wu ? a.m : 1, 16, "ldUrand").require(!wv || a.d.V != nullptr, 18, "Vrand")
      .leading_dim(a.d.ldv, wv ? a.n : 1, 19, "ldVrand");
  check_x_svd_types(c, a.d);
  if (a.d.dta == TRN_R_32F || a.d.dta == TRN_C_32F)
    c.require_or(a.n <= trn::solver::kGesvdjMaxDim, TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
                 "n above the fp32 Jacobi SVD's limit (kGesvdjMaxDim)");
}

// The X routines' buffers: one element on the device, none on the host.
void x_buffers(Check& c, int dt, void* dev, std::size_t dev_bytes, void* host, std::size_t host_bytes, int pos) {
  c.not_null(dev, pos, "bufferOnDevice").require(dev_bytes >= x_elem_any(dt), pos + 1, "workspaceInBytesOnDevice")
      .require(host_bytes == 0 || host != nullptr, pos + 2, "bufferOnHost");
}

Status x_buffer_sizes(Check& c, int dt, std::size_t* dev, std::size_t* host, int pos) {
  return x_size_answer(x_size_outputs(c, dev, host, pos), dev, host, [&] { return x_elem_any(dt); });
}

}  // namespace

extern "C" {

#define TRNSOLVER_DEFINE_SVD_FAMILY(P, C, R, ORG)                                                                  \
  trnsolverStatus_t trnsolverDn##P##gebrd_bufferSize(trnsolverDnHandle_t h, int m, int n, int* Lwork) {            \
    if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;                                            \
    Check c(g_log, "trnsolverDn" #P "gebrd_bufferSize", TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);     \
    c.nonnegative(m, 1, "m").require(n >= 0 && n <= m, 2, "n (0 <= n <= m)").not_null(Lwork, 3, "Lwork");          \
    if (!c) return c.status();                                                                                      \
    return buffer_out(c, Lwork, gebrd_lwork(m, n));                                                                 \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##gebrd(trnsolverDnHandle_t h, int m, int n, C* A, int lda, R* D, R* E, C* TAUQ, \
                                          C* TAUP, C* Work, int Lwork, int* devInfo) {                              \
    return gebrd_run("trnsolverDn" #P "gebrd", h, m, n, A, lda, D, E, TAUQ, TAUP, Work, Lwork, devInfo);           \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##ORG##_bufferSize(trnsolverDnHandle_t h, trnblasSideMode_t side, int m, int n, \
                                                     int k, const C* A, int lda, const C* tau, int* lwork) {       \
    return orgbr_buffer("trnsolverDn" #P #ORG "_bufferSize", h, enum_value(side), m, n, k, A, lda, tau, lwork);    \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##ORG(trnsolverDnHandle_t h, trnblasSideMode_t side, int m, int n, int k, C* A,  \
                                        int lda, const C* tau, C* work, int lwork, int* info) {                     \
    return orgbr_run("trnsolverDn" #P #ORG, h, enum_value(side), m, n, k, A, lda, tau, work, lwork, info);         \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##gesvdaStridedBatched_bufferSize(                                                \
      trnsolverDnHandle_t h, trnsolverEigMode_t jobz, int rank, int m, int n, const C* d_A, int lda,                \
      long long int strideA, const R* d_S, long long int strideS, const C* d_U, int ldu, long long int strideU,     \
      const C* d_V, int ldv, long long int strideV, int* lwork, int batchSize) {                                    \
    const GesvdaArgs a{enum_value(jobz), rank, m, n, d_A, lda, strideA, d_S, strideS, d_U, ldu, strideU, d_V, ldv,  \
                       strideV};                                                                                    \
    return gesvda_buffer<C>("trnsolverDn" #P "gesvdaStridedBatched_bufferSize", h, a, lwork, batchSize);            \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##gesvdaStridedBatched(                                                           \
      trnsolverDnHandle_t h, trnsolverEigMode_t jobz, int rank, int m, int n, const C* d_A, int lda,                \
      long long int strideA, R* d_S, long long int strideS, C* d_U, int ldu, long long int strideU, C* d_V, int ldv, \
      long long int strideV, C* d_work, int lwork, int* d_info, double* h_R_nrmF, int batchSize) {                  \
    const GesvdaArgs a{enum_value(jobz), rank, m, n, d_A, lda, strideA, d_S, strideS, d_U, ldu, strideU, d_V, ldv,  \
                       strideV};                                                                                    \
    return gesvda_run<C>("trnsolverDn" #P "gesvdaStridedBatched", h, a, d_S, d_U, d_V, d_work, lwork, d_info,       \
                         h_R_nrmF, batchSize);                                                                      \
  }
TRNSOLVER_DEFINE_SVD_FAMILY(S, float, float, orgbr)
TRNSOLVER_DEFINE_SVD_FAMILY(D, double, double, orgbr)
TRNSOLVER_DEFINE_SVD_FAMILY(C, trnComplex, float, ungbr)
TRNSOLVER_DEFINE_SVD_FAMILY(Z, trnDoubleComplex, double, ungbr)
#undef TRNSOLVER_DEFINE_SVD_FAMILY

trnsolverStatus_t trnsolverDnXgesvdp_bufferSize(trnsolverDnHandle_t h, trnsolverDnParams_t params,
                                                trnsolverEigMode_t jobz, int econ, int64_t m, int64_t n,
                                                trnDataType_t dataTypeA, const void* A, int64_t lda,
                                                trnDataType_t dataTypeS, const void* S, trnDataType_t dataTypeU,
                                                const void* U, int64_t ldu, trnDataType_t dataTypeV, const void* V,
                                                int64_t ldv, trnDataType_t computeType, size_t* dev_bytes,
                                                size_t* host_bytes) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsolverDnXgesvdp_bufferSize", TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const XgesvdpArgs a{enum_value(jobz), econ, m, n,
                      {enum_value(dataTypeA), A, lda, enum_value(dataTypeS), S, enum_value(dataTypeU), U, ldu,
                       enum_value(dataTypeV), V, ldv, enum_value(computeType)}};
  check_xgesvdp(c, params, a);
  return x_buffer_sizes(c, a.d.dta, dev_bytes, host_bytes, 18);
}

trnsolverStatus_t trnsolverDnXgesvdp(trnsolverDnHandle_t h, trnsolverDnParams_t params, trnsolverEigMode_t jobz,
                                     int econ, int64_t m, int64_t n, trnDataType_t dataTypeA, void* A, int64_t lda,
                                     trnDataType_t dataTypeS, void* S, trnDataType_t dataTypeU, void* U, int64_t ldu,
                                     trnDataType_t dataTypeV, void* V, int64_t ldv, trnDataType_t computeType,
                                     void* bufferOnDevice, size_t dev_bytes, void* bufferOnHost, size_t host_bytes,
                                     int* d_info, double* h_err_sigma) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsolverDnXgesvdp";
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const XgesvdpArgs a{enum_value(jobz), econ, m, n,
                      {enum_value(dataTypeA), A, lda, enum_value(dataTypeS), S, enum_value(dataTypeU), U, ldu,
                       enum_value(dataTypeV), V, ldv, enum_value(computeType)}};
  check_xgesvdp(c, params, a);
  x_buffers(c, a.d.dta, bufferOnDevice, dev_bytes, bufferOnHost, host_bytes, 18);
  c.not_null(d_info, 22, "d_info").not_null(h_err_sigma, 23, "h_err_sigma");
  return run_checked(fn, h, c, d_info, [&](trn::solver::CallReport& rep) {
    x_dispatch(a.d.dta, [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      using R = decltype(trn::solver::detail::real_part(T{}));
      const bool vec = a.jobz == TRNSOLVER_EIG_MODE_VECTOR;
      const auto res = trn::solver::gesvdp(h->settings, vec, econ != 0, m, n, static_cast<const T*>(A), lda,
                                           static_cast<R*>(S), static_cast<T*>(U), ldu, static_cast<T*>(V), ldv, &rep);
      *d_info = res.info;
      *h_err_sigma = res.err_sigma;
    });
  });
}

trnsolverStatus_t trnsolverDnXgesvdr_bufferSize(trnsolverDnHandle_t h, trnsolverDnParams_t params, signed char jobu,
                                                signed char jobv, int64_t m, int64_t n, int64_t k, int64_t p,
                                                int64_t niters, trnDataType_t dataTypeA, const void* A, int64_t lda,
                                                trnDataType_t dataTypeSrand, const void* Srand,
                                                trnDataType_t dataTypeUrand, const void* Urand, int64_t ldUrand,
                                                trnDataType_t dataTypeVrand, const void* Vrand, int64_t ldVrand,
                                                trnDataType_t computeType, size_t* dev_bytes, size_t* host_bytes) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsolverDnXgesvdr_bufferSize", TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const XgesvdrArgs a{jobu, jobv, m, n, k, p, niters,
                      {enum_value(dataTypeA), A, lda, enum_value(dataTypeSrand), Srand, enum_value(dataTypeUrand), Urand,
                       ldUrand, enum_value(dataTypeVrand), Vrand, ldVrand, enum_value(computeType)}};
  check_xgesvdr(c, params, a);
  return x_buffer_sizes(c, a.d.dta, dev_bytes, host_bytes, 21);
}

trnsolverStatus_t trnsolverDnXgesvdr(trnsolverDnHandle_t h, trnsolverDnParams_t params, signed char jobu,
                                     signed char jobv, int64_t m, int64_t n, int64_t k, int64_t p, int64_t niters,
                                     trnDataType_t dataTypeA, void* A, int64_t lda, trnDataType_t dataTypeSrand,
                                     void* Srand, trnDataType_t dataTypeUrand, void* Urand, int64_t ldUrand,
                                     trnDataType_t dataTypeVrand, void* Vrand, int64_t ldVrand,
                                     trnDataType_t computeType, void* bufferOnDevice, size_t dev_bytes,
                                     void* bufferOnHost, size_t host_bytes, int* d_info) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsolverDnXgesvdr";
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const XgesvdrArgs a{jobu, jobv, m, n, k, p, niters,
                      {enum_value(dataTypeA), A, lda, enum_value(dataTypeSrand), Srand, enum_value(dataTypeUrand), Urand,
                       ldUrand, enum_value(dataTypeVrand), Vrand, ldVrand, enum_value(computeType)}};
  check_xgesvdr(c, params, a);
  x_buffers(c, a.d.dta, bufferOnDevice, dev_bytes, bufferOnHost, host_bytes, 21);
  c.not_null(d_info, 25, "d_info");
  return run_checked(fn, h, c, d_info, [&](trn::solver::CallReport& rep) {
    x_dispatch(a.d.dta, [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      using R = decltype(trn::solver::detail::real_part(T{}));
      *d_info = trn::solver::gesvdr(h->settings, jobu == 'S', jobv == 'S', m, n, k, p, niters, static_cast<const T*>(A),
                                    lda, static_cast<R*>(Srand), static_cast<T*>(Urand), ldUrand, static_cast<T*>(Vrand),
                                    ldVrand, &rep);
    });
  });
}

}  // extern "C"
