// The shared internals of the trnsolver C shim (capi*.cpp): the handle context, the X API params
// object, the registries, logger and status map every entry point uses, and the small argument helpers
// more than one file needs. Internal to trnsolver/src; the public surface is trnsolver.h.
#pragma once

#include "trnsolver.h"

#include <algorithm>
#include <complex>
#include <type_traits>
#include <cstdint>
#include <limits>
#include <vector>

#include "trn/core/c_shim.hpp"
#include "trn/solver/eig.hpp"
#include "trn/solver/solver.hpp"
#include "syevj_internal.hpp"  // detail::finish_fp64_report

struct trnsolverDnContext {
  trn::solver::Settings settings;
  trnStream_t stream = nullptr;
  trnsolverDeterministicMode_t deterministic = TRNSOLVER_DETERMINISTIC_RESULTS;
  trnProfile_t last_profile{};
  trn::cshim::LastError last_error_param{0};  // atomic: a handle may serve several threads
  int math_mode = TRNSOLVER_DEFAULT_MATH;                 // Set/GetMathMode (recorded: capi_logger.cpp)
  int emulation_strategy = TRN_EMULATION_STRATEGY_DEFAULT;  // Set/GetEmulationStrategy (recorded)
};

struct trnsolverDnParams {
  int algo[3] = {TRNSOLVER_ALG_0, TRNSOLVER_ALG_0, TRNSOLVER_ALG_0};  // per trnsolverDnFunction_t
};

namespace trn::solver::capi {

using trn::cshim::ArgCheck;
using trn::cshim::enum_value;
using Status = trnsolverStatus_t;

inline trn::cshim::Logger g_log("TRNSOLVER");
inline trn::cshim::HandleRegistry<trnsolverDnContext> g_handles;
inline trn::cshim::HandleRegistry<trnsolverDnParams> g_dn_params;

inline const trn::cshim::StatusMap<Status> kStatusMap{TRNSOLVER_STATUS_SUCCESS,      TRNSOLVER_STATUS_ALLOC_FAILED,
                                               TRNSOLVER_STATUS_NOT_SUPPORTED, TRNSOLVER_STATUS_INVALID_VALUE,
                                               TRNSOLVER_STATUS_EXECUTION_FAILED, TRNSOLVER_STATUS_INTERNAL_ERROR,
                                               &trnsolverGetStatusName};

using Check = ArgCheck<Status>;

// A new object of type T registered in `registry` and returned through `out` (handles and infos).
template <class T>
Status create_registered(trn::cshim::HandleRegistry<T>& registry, T** out) {
  return trn::cshim::create_registered(registry, out, TRNSOLVER_STATUS_INVALID_VALUE, TRNSOLVER_STATUS_ALLOC_FAILED,
                                       TRNSOLVER_STATUS_SUCCESS);
}

// Enum arguments travel as the caller's int (enum_value at the entry point: no enum-typed load).
inline trn::solver::Uplo to_uplo(int u) {
  return u == TRNBLAS_FILL_MODE_UPPER ? trn::solver::Uplo::upper : trn::solver::Uplo::lower;
}

// ---- 64-bit generic API helpers ----------------------------------------------------------------------

// dataType/computeType of the X API: TRN_R_32F or TRN_R_64F, the compute type equal to the data type.
inline bool x_types(int data, int compute) { return (data == TRN_R_32F || data == TRN_R_64F) && compute == data; }
inline std::size_t x_elem(int data) { return data == TRN_R_32F ? sizeof(float) : sizeof(double); }

// Leading checks of every X entry point: the handle, params (position 1).
inline bool x_begin(trnsolverDnHandle_t h) { return g_handles.contains(h); }

// The X routines' _bufferSize outputs, workspaceInBytesOnDevice and workspaceInBytesOnHost, checked at
// positions pos and pos + 1 (their place in cuSOLVER's order).
inline Check& x_size_outputs(Check& c, std::size_t* dev, std::size_t* host, int pos) {
  return c.not_null(dev, pos, "workspaceInBytesOnDevice").not_null(host, pos + 1, "workspaceInBytesOnHost");
}
// The _bufferSize answer once every check passed: device() bytes on the device (device() may itself
// fail the check, e.g. a size past INT64_MAX), `host` bytes on the host.
template <class DeviceBytes>
Status x_size_answer(Check& c, std::size_t* dev, std::size_t* host, DeviceBytes&& device, std::size_t host_bytes = 0) {
  if (!c) return c.status();
  const std::size_t bytes = device();
  if (!c) return c.status();
  *dev = bytes;
  *host = host_bytes;
  return TRNSOLVER_STATUS_SUCCESS;
}

inline void check_x_types(Check& c, int data, int compute) {
  c.require_or(x_types(data, compute), TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
               "dataType / computeType: TRN_R_32F or TRN_R_64F, both the same");
}

// The 32-bit C++ routines take int pivots: n must fit.
inline void check_int_range(Check& c, std::int64_t v) {
  c.require_or(v <= std::numeric_limits<int>::max(), TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
               "dimension above INT_MAX");
}

// The X API factorisations' types: R_32F, R_64F, C_32F, C_64F (compute type = data type; capi_factor.cpp,
// capi_sym_indef.cpp), their element size and the dispatch over them.
inline void check_x_factor_types(Check& c, int data, int compute) {
  c.require_or((data == TRN_R_32F || data == TRN_R_64F || data == TRN_C_32F || data == TRN_C_64F) && compute == data,
               TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
               "dataType / computeType: TRN_R_32F, TRN_R_64F, TRN_C_32F or TRN_C_64F, both the same");
}
inline std::size_t x_factor_elem(int data) {
  return data == TRN_C_64F ? 2 * sizeof(double) : data == TRN_C_32F ? 2 * sizeof(float) : x_elem(data);
}
// f(p as the element type of `data`): float*, double*, std::complex<float>* or std::complex<double>*.
template <class V, class F>
void with_x_type(int data, V* p, F&& f) {
  constexpr bool kConst = std::is_const_v<V>;
  auto cast = [&]<class T>(T*) {
    using E = std::conditional_t<kConst, const T, T>;
    f(static_cast<E*>(p));
  };
  if (data == TRN_R_32F) cast(static_cast<float*>(nullptr));
  else if (data == TRN_R_64F) cast(static_cast<double*>(nullptr));
  else if (data == TRN_C_32F) cast(static_cast<std::complex<float>*>(nullptr));
  else cast(static_cast<std::complex<double>*>(nullptr));
}
// sygvj / sygvd: itype (1), jobz (2), uplo (3), n (4), A (5), lda (6), B (7), ldb (8), W (9).
inline void check_sygvj_common(Check& c, int itype, int jobz, int uplo, int n, const void* A, int lda, const void* B,
                               int ldb, const void* W) {
  c.one_of(itype, {TRNSOLVER_EIG_TYPE_1, TRNSOLVER_EIG_TYPE_2, TRNSOLVER_EIG_TYPE_3}, 1, "itype")
      .one_of(jobz, {TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR}, 2, "jobz")
      .one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 3, "uplo")
      .nonnegative(n, 4, "n")
      .require(n == 0 || A != nullptr, 5, "A")
      .leading_dim(lda, n, 6, "lda")
      .require(n == 0 || B != nullptr, 7, "B")
      .leading_dim(ldb, n, 8, "ldb")
      .require(n == 0 || W != nullptr, 9, "W");
}

// vl (pos), vu (pos + 1), il (pos + 2), iu (pos + 3) of the syevdx / sygvdx / Xsyevdx selection.
inline void check_selection(Check& c, int range, std::int64_t n, double vl, double vu, std::int64_t il,
                            std::int64_t iu, int pos) {
  if (range == TRNSOLVER_EIG_RANGE_V) c.require(vl < vu, pos + 1, "vu");
  if (range == TRNSOLVER_EIG_RANGE_I)
    c.require(n == 0 ? il == 1 : il >= 1 && il <= n, pos + 2, "il")
        .require(n == 0 ? iu == 0 : iu >= il && iu <= n, pos + 3, "iu");
}

inline trn::solver::EigSelect to_select(int range, double vl, double vu, std::int64_t il, std::int64_t iu) {
  using trn::solver::EigRange;
  return {range == TRNSOLVER_EIG_RANGE_ALL ? EigRange::all
          : range == TRNSOLVER_EIG_RANGE_V ? EigRange::value
                                           : EigRange::index,
          vl, vu, il, iu};
}

// A C entry point's report: the profile only (no plan text, so no plan prediction is computed:
// trn::Lazy).
inline trn::solver::CallReport profile_report() {
  trn::solver::CallReport r;
  r.plans_wanted = false;
  return r;
}

// A batched entry point's report: one(k, report) runs matrix k with its own CallReport; their traces
// join, in batch order, into `rep` (host fp64 flops summed). Each matrix gets exactly the kernels of the
// single-matrix call, so its bits do not depend on the batch around it. sink_parts (the batched
// Cholesky, whose routines finish once through finish_fp64_report and pass their report to no nested
// call): the matrix's report is registered as the batch's trace sink (syevj_internal.hpp), so the
// routine hands over its trace parts unjoined and unmodelled; the one joined trace and its one model
// are the same records in the same order as before.
template <class F>
void run_batch(const trn::solver::Settings& s, std::int64_t batch, trn::solver::CallReport& rep, F&& one,
               bool sink_parts = false) {
  trn::TraceParts trace;
  double flops = 0;
  trn::solver::detail::BatchTraceSink& sink = trn::solver::detail::batch_trace_sink();
  const trn::solver::detail::BatchTraceSink outer = sink;
  struct Restore {  // also when a matrix's call throws
    trn::solver::detail::BatchTraceSink& sink;
    trn::solver::detail::BatchTraceSink saved;
    ~Restore() { sink = saved; }
  } restore{sink, outer};
  for (std::int64_t k = 0; k < batch; ++k) {
    trn::solver::CallReport r = profile_report();
    if (sink_parts) sink = {&r, &trace};
    one(k, r);
    sink = outer;
    trace.add(std::move(r.trace));  // empty when the routine handed its parts to the sink
    flops += r.host_fp64_flops;
  }
  trn::solver::detail::finish_fp64_report(&rep, std::move(trace), s.target, flops);
}

// The end of every entry point: the failed check's status (info = -position when writable), or the
// body run inside `guarded` with a CallReport whose profile becomes the handle's last profile.
template <class F>
Status run_checked(const char* fn, trnsolverDnHandle_t h, Check& c, int* info, F&& body) {
  if (!c) {
    if (info != nullptr && c.failed_position() > 0) *info = -c.failed_position();
    return c.status();
  }
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::solver::CallReport report = profile_report();
    body(report);
    h->last_profile = report.profile.to_c();
  });
}

}  // namespace trn::solver::capi
