// trnsolver.h, the non-symmetric eigensolver of the 64-bit API: Xgeev and Xgeev_bufferSize (cuSOLVER's
// argument order; positions counted without the handle: params 1, jobvl 2, jobvr 3, n 4, dataTypeA 5,
// A 6, lda 7, dataTypeW 8, W 9, dataTypeVL 10, VL 11, ldvl 12, dataTypeVR 13, VR 14, ldvr 15,
// computeType 16, then bufferOnDevice 17, workspaceInBytesOnDevice 18, bufferOnHost 19,
// workspaceInBytesOnHost 20, info 21; _bufferSize: the two size pointers 17, 18). Dispatches by data type
// to geev.cpp. Real A with a complex dataTypeW: the eigenvalues (wr, wi) are joined into W.
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "capi_internal.hpp"
#include "trn/solver/geev.hpp"

using namespace trn::solver::capi;  // NOLINT: the shim's shared internals

namespace {

constexpr std::int64_t kGeevMaxN = std::int64_t{1} << 28;  // 3 n^2 16-byte elements stay below INT64_MAX

struct XGeev {
  int jobvl = 0, jobvr = 0;
  std::int64_t n = 0;
  int dta = 0;
  const void* A = nullptr;
  std::int64_t lda = 0;
  int dtw = 0;
  const void* W = nullptr;
  int dtvl = 0;
  std::int64_t ldvl = 0;
  int dtvr = 0;
  const void* VR = nullptr;
  std::int64_t ldvr = 0;
  int dtc = 0;
  bool vectors() const { return jobvr == TRNSOLVER_EIG_MODE_VECTOR; }
};

int complex_of(int dt) { return dt == TRN_R_32F ? TRN_C_32F : dt == TRN_R_64F ? TRN_C_64F : dt; }
char prefix_of(int dt) {
  return dt == TRN_R_32F ? 's' : dt == TRN_R_64F ? 'd' : dt == TRN_C_32F ? 'c' : 'z';
}

void check_geev(Check& c, trnsolverDnParams_t params, const XGeev& a) {
  const bool vr = a.vectors();
  c.require(g_dn_params.contains(params), 1, "params")
      .one_of(a.jobvl, {TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR}, 2, "jobvl")
      .one_of(a.jobvr, {TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR}, 3, "jobvr")
      .nonnegative(a.n, 4, "n")
      .require(a.n == 0 || a.A != nullptr, 6, "A")
      .leading_dim(a.lda, a.n, 7, "lda")
      .require(a.n == 0 || a.W != nullptr, 9, "W")
      .require(a.ldvl >= 1, 12, "ldvl")
      .require(!vr || a.n == 0 || a.VR != nullptr, 14, "VR")
      .leading_dim(a.ldvr, vr ? a.n : 1, 15, "ldvr");
  c.require_or(a.jobvl == TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
               "jobvl = VECTOR: left eigenvectors are not supported (as cuSOLVER 12.x)");
  check_x_factor_types(c, a.dta, a.dtc);
  c.require_or(a.dtvl == a.dta && a.dtvr == a.dta, TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
               "dataTypeVL / dataTypeVR: dataTypeA")
      .require_or(a.dtw == a.dta || a.dtw == complex_of(a.dta), TRNSOLVER_STATUS_NOT_SUPPORTED,
                  "TRNSOLVER_STATUS_NOT_SUPPORTED", "dataTypeW: dataTypeA, or its complex type for real A")
      .require_or(a.n <= kGeevMaxN, TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
                  "n above 2^28");
}

struct Bytes {
  std::size_t device = 0, host = 0;
};
Bytes geev_bytes(const XGeev& a) {
  const char p = prefix_of(a.dta);
  return {static_cast<std::size_t>(trn::solver::geev_device_workspace(p, a.n, a.vectors())) * x_factor_elem(a.dta),
          static_cast<std::size_t>(trn::solver::geev_host_workspace_bytes(p, a.n, a.vectors()))};
}

template <class T>
int geev_body(const trn::solver::Settings& s, const XGeev& a, T* A, void* W, T* VR, trn::solver::CallReport& rep) {
  const bool vr = a.vectors();
  if constexpr (std::is_floating_point_v<T>) {
    if (a.dtw == a.dta) {  // W: n real parts, then n imaginary parts
      T* w = static_cast<T*>(W);
      return trn::solver::geev(s, vr, a.n, A, a.lda, w, w + a.n, VR, a.ldvr, &rep);
    }
    std::vector<T> wr(static_cast<std::size_t>(a.n)), wi(wr.size());
    const int info = trn::solver::geev(s, vr, a.n, A, a.lda, wr.data(), wi.data(), VR, a.ldvr, &rep);
    auto* w = static_cast<std::complex<T>*>(W);
    for (std::int64_t j = 0; j < a.n; ++j) w[j] = {wr[static_cast<std::size_t>(j)], wi[static_cast<std::size_t>(j)]};
    return info;
  } else {
    return trn::solver::geev(s, vr, a.n, A, a.lda, static_cast<T*>(W), VR, a.ldvr, &rep);
  }
}

}  // namespace

extern "C" {

trnsolverStatus_t trnsolverDnXgeev_bufferSize(trnsolverDnHandle_t h, trnsolverDnParams_t params,
                                              trnsolverEigMode_t jobvl, trnsolverEigMode_t jobvr, int64_t n,
                                              trnDataType_t dataTypeA, const void* A, int64_t lda,
                                              trnDataType_t dataTypeW, const void* W, trnDataType_t dataTypeVL,
                                              const void* /*VL*/, int64_t ldvl, trnDataType_t dataTypeVR,
                                              const void* VR, int64_t ldvr, trnDataType_t computeType,
                                              size_t* dev_bytes, size_t* host_bytes) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsolverDnXgeev_bufferSize", TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const XGeev a{enum_value(jobvl), enum_value(jobvr), n, enum_value(dataTypeA), A, lda, enum_value(dataTypeW), W,
                enum_value(dataTypeVL), ldvl, enum_value(dataTypeVR), VR, ldvr, enum_value(computeType)};
  check_geev(c, params, a);
  x_size_outputs(c, dev_bytes, host_bytes, 17);
  if (!c) return c.status();
  const Bytes b = geev_bytes(a);
  return x_size_answer(c, dev_bytes, host_bytes, [&] { return b.device; }, b.host);
}

trnsolverStatus_t trnsolverDnXgeev(trnsolverDnHandle_t h, trnsolverDnParams_t params, trnsolverEigMode_t jobvl,
                                   trnsolverEigMode_t jobvr, int64_t n, trnDataType_t dataTypeA, void* A, int64_t lda,
                                   trnDataType_t dataTypeW, void* W, trnDataType_t dataTypeVL, void* /*VL*/,
                                   int64_t ldvl, trnDataType_t dataTypeVR, void* VR, int64_t ldvr,
                                   trnDataType_t computeType, void* bufferOnDevice, size_t dev_bytes,
                                   void* bufferOnHost, size_t host_bytes, int* info) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsolverDnXgeev";
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const XGeev a{enum_value(jobvl), enum_value(jobvr), n, enum_value(dataTypeA), A, lda, enum_value(dataTypeW), W,
                enum_value(dataTypeVL), ldvl, enum_value(dataTypeVR), VR, ldvr, enum_value(computeType)};
  check_geev(c, params, a);
  const Bytes need = c ? geev_bytes(a) : Bytes{};
  c.not_null(bufferOnDevice, 17, "bufferOnDevice")
      .require(dev_bytes >= need.device, 18, "workspaceInBytesOnDevice")
      .require(need.host == 0 || bufferOnHost != nullptr, 19, "bufferOnHost")
      .require(host_bytes >= need.host, 20, "workspaceInBytesOnHost")
      .not_null(info, 21, "info");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    with_x_type(a.dta, A, [&](auto* typed) {
      using T = std::remove_pointer_t<decltype(typed)>;
      *info = geev_body<T>(h->settings, a, typed, W, static_cast<T*>(VR), rep);
    });
  });
}

}  // extern "C"
