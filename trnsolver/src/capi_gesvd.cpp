// trnsolver.h, gesvd (S, D, C, Z) and the 64-bit Xgesvd (real and complex) with their _bufferSize twins over
// trn::solver::gesvd (gesvd.cpp: gesvdj's one-sided Jacobi behind LAPACK's xGESVD interface; C, Z:
// svd_family.cpp, gebrd and the real bidiagonal's Jacobi SVD). Conventions: capi.cpp.
// m >= n as cuSOLVER requires (n > m -> INVALID_VALUE at n's position). No workspace is needed: the
// legacy _bufferSize is 1 element, Xgesvd's one element on the device and none on the host; rwork is
// not read or written (cuSOLVER returns unconverged superdiagonals there; Jacobi has none).
#include "capi_internal.hpp"
#include "trn/solver/eig.hpp"
#include "capi_svd_internal.hpp"
#include "trn/solver/svd.hpp"

using namespace trn::solver::capi;  // NOLINT: the shim's shared internals

namespace {

// Argument positions of jobu, jobvt, m, n, A, lda, S, U, ldu, VT, ldvt (legacy and X differ).
struct GesvdPos {
  int jobu, jobvt, m, n, A, lda, S, U, ldu, VT, ldvt;
};
constexpr GesvdPos kLegacy{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
constexpr GesvdPos kX{2, 3, 4, 5, 7, 8, 10, 12, 13, 15, 16};

void check_gesvd(Check& c, const GesvdPos& p, int jobu, int jobvt, std::int64_t m, std::int64_t n, const void* A,
                 std::int64_t lda, const void* S, const void* U, std::int64_t ldu, const void* VT, std::int64_t ldvt) {
  const auto mat = [](int j) { return j == 'A' || j == 'S'; };
  c.one_of(jobu, {'A', 'S', 'O', 'N'}, p.jobu, "jobu").one_of(jobvt, {'A', 'S', 'O', 'N'}, p.jobvt, "jobvt")
      .require(!(jobu == 'O' && jobvt == 'O'), p.jobvt, "jobvt (not both O)").nonnegative(m, p.m, "m")
      .require(n >= 0 && n <= m, p.n, "n (0 <= n <= m)").require(n == 0 || A != nullptr, p.A, "A")
      .leading_dim(lda, m, p.lda, "lda").require(n == 0 || S != nullptr, p.S, "S")
      .require(!mat(jobu) || m == 0 || U != nullptr, p.U, "U")
      .require(ldu >= (mat(jobu) ? std::max<std::int64_t>(1, m) : 1), p.ldu, "ldu")
      .require(!mat(jobvt) || n == 0 || VT != nullptr, p.VT, "VT")
      .require(ldvt >= (mat(jobvt) ? std::max<std::int64_t>(1, n) : 1), p.ldvt, "ldvt");
}

// fp32 Jacobi's dimension: m for S (A itself), n for C (the n x n real bidiagonal).
void check_gesvd_size(Check& c, bool fp32, std::int64_t m) {
  if (fp32)
    c.require_or(m <= trn::solver::kGesvdjMaxDim, TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
                 "m exceeds the SBUF-resident Jacobi kernel's limit (kGesvdjMaxDim)");
}

template <class T, class R>
Status gesvd_run(const char* fn, trnsolverDnHandle_t h, int jobu, int jobvt, int m, int n, T* A, int lda, R* S, T* U,
                 int ldu, T* VT, int ldvt, T* work, int lwork, int* info) {
  using trn::cshim::as_cpp;
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_gesvd(c, kLegacy, jobu, jobvt, m, n, A, lda, S, U, ldu, VT, ldvt);
  c.not_null(work, 12, "work").require(lwork >= 1, 13, "lwork").not_null(info, 15, "devInfo");
  check_gesvd_size(c, std::is_same_v<R, float>, std::is_same_v<T, R> ? m : n);
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    *info = trn::solver::gesvd(h->settings, static_cast<char>(jobu), static_cast<char>(jobvt), m, n, as_cpp(A), lda, S,
                               as_cpp(U), ldu, as_cpp(VT), ldvt, &rep);
  });
}

void check_xgesvd(Check& c, trnsolverDnParams_t params, int jobu, int jobvt, std::int64_t m, std::int64_t n, int dta,
                  const void* A, std::int64_t lda, int dts, const void* S, int dtu, const void* U, std::int64_t ldu,
                  int dtv, const void* VT, std::int64_t ldvt, int dtc) {
  c.require(g_dn_params.contains(params), 1, "params");
  check_gesvd(c, kX, jobu, jobvt, m, n, A, lda, S, U, ldu, VT, ldvt);
  check_x_types_any(c, dta, dtc);
  c.require_or(dts == x_real_of(dta) && dtu == dta && dtv == dta, TRNSOLVER_STATUS_NOT_SUPPORTED,
               "TRNSOLVER_STATUS_NOT_SUPPORTED", "dataTypeS = the real type of dataTypeA, dataTypeU = dataTypeVT = dataTypeA");
  check_gesvd_size(c, dta == TRN_R_32F || dta == TRN_C_32F, dta == TRN_R_32F ? m : n);
}

}  // namespace

extern "C" {

#define TRNSOLVER_DEFINE_GESVD(P, T, R)                                                                              \
  trnsolverStatus_t trnsolverDn##P##gesvd_bufferSize(trnsolverDnHandle_t h, int m, int n, int* lwork) {           \
    if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;                                            \
    Check c(g_log, "trnsolverDn" #P "gesvd_bufferSize", TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);     \
    c.nonnegative(m, 1, "m").require(n >= 0 && n <= m, 2, "n (0 <= n <= m)").not_null(lwork, 3, "lwork");          \
    if (!c) return c.status();                                                                                      \
    *lwork = 1;                                                                                                     \
    return TRNSOLVER_STATUS_SUCCESS;                                                                                \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##gesvd(trnsolverDnHandle_t h, signed char jobu, signed char jobvt, int m, int n, \
                                          T* A, int lda, R* S, T* U, int ldu, T* VT, int ldvt, T* work, int lwork,  \
                                          R* /* rwork */, int* info) {                                              \
    return gesvd_run("trnsolverDn" #P "gesvd", h, jobu, jobvt, m, n, A, lda, S, U, ldu, VT, ldvt, work, lwork,     \
                     info);                                                                                         \
  }
TRNSOLVER_DEFINE_GESVD(S, float, float)
TRNSOLVER_DEFINE_GESVD(D, double, double)
TRNSOLVER_DEFINE_GESVD(C, trnComplex, float)
TRNSOLVER_DEFINE_GESVD(Z, trnDoubleComplex, double)
#undef TRNSOLVER_DEFINE_GESVD

trnsolverStatus_t trnsolverDnXgesvd_bufferSize(trnsolverDnHandle_t h, trnsolverDnParams_t params, signed char jobu,
                                               signed char jobvt, int64_t m, int64_t n, trnDataType_t dataTypeA,
                                               const void* A, int64_t lda, trnDataType_t dataTypeS, const void* S,
                                               trnDataType_t dataTypeU, const void* U, int64_t ldu,
                                               trnDataType_t dataTypeVT, const void* VT, int64_t ldvt,
                                               trnDataType_t computeType, size_t* dev_bytes, size_t* host_bytes) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsolverDnXgesvd_bufferSize", TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const int dt = enum_value(dataTypeA);
  check_xgesvd(c, params, jobu, jobvt, m, n, dt, A, lda, enum_value(dataTypeS), S, enum_value(dataTypeU), U, ldu,
               enum_value(dataTypeVT), VT, ldvt, enum_value(computeType));
  x_size_outputs(c, dev_bytes, host_bytes, 18);
  return x_size_answer(c, dev_bytes, host_bytes, [&] { return x_elem_any(dt); });
}

trnsolverStatus_t trnsolverDnXgesvd(trnsolverDnHandle_t h, trnsolverDnParams_t params, signed char jobu,
                                    signed char jobvt, int64_t m, int64_t n, trnDataType_t dataTypeA, void* A,
                                    int64_t lda, trnDataType_t dataTypeS, void* S, trnDataType_t dataTypeU, void* U,
                                    int64_t ldu, trnDataType_t dataTypeVT, void* VT, int64_t ldvt,
                                    trnDataType_t computeType, void* bufferOnDevice, size_t dev_bytes,
                                    void* bufferOnHost, size_t host_bytes, int* info) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsolverDnXgesvd";
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const int dt = enum_value(dataTypeA);
  check_xgesvd(c, params, jobu, jobvt, m, n, dt, A, lda, enum_value(dataTypeS), S, enum_value(dataTypeU), U, ldu,
               enum_value(dataTypeVT), VT, ldvt, enum_value(computeType));
  c.not_null(bufferOnDevice, 18, "bufferOnDevice")
      .require(dev_bytes >= x_elem_any(dt), 19, "workspaceInBytesOnDevice")
      .require(host_bytes == 0 || bufferOnHost != nullptr, 20, "bufferOnHost").not_null(info, 22, "info");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    const auto& s = h->settings;
    const char ju = static_cast<char>(jobu), jv = static_cast<char>(jobvt);
    using CF = std::complex<float>;
    using CD = std::complex<double>;
    if (dt == TRN_C_32F)
      *info = trn::solver::gesvd(s, ju, jv, m, n, static_cast<CF*>(A), lda, static_cast<float*>(S), static_cast<CF*>(U),
                                 ldu, static_cast<CF*>(VT), ldvt, &rep);
    else if (dt == TRN_C_64F)
      *info = trn::solver::gesvd(s, ju, jv, m, n, static_cast<CD*>(A), lda, static_cast<double*>(S),
                                 static_cast<CD*>(U), ldu, static_cast<CD*>(VT), ldvt, &rep);
    else if (dt == TRN_R_32F)
      *info = trn::solver::gesvd(s, ju, jv, m, n, static_cast<float*>(A), lda, static_cast<float*>(S),
                                 static_cast<float*>(U), ldu, static_cast<float*>(VT), ldvt, &rep);
    else
      *info = trn::solver::gesvd(s, ju, jv, m, n, static_cast<double*>(A), lda, static_cast<double*>(S),
                                 static_cast<double*>(U), ldu, static_cast<double*>(VT), ldvt, &rep);
  });
}

}  // extern "C"
