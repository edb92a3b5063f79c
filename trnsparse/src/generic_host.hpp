// Host-step helpers of the generic API's arithmetic (generic.cpp, triangular.cpp, spgemm_csr.cpp):
// the fp64 / complex<double> accumulator of each value type, element loads and stores, the spans a
// host step moves over the host link, the report of one host step, and the value-type dispatch.
#pragma once
#include <array>
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>

#include "trn/core/cost_model.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/plan.hpp"
#include "trn/core/report.hpp"
#include "trn/sparse/generic.hpp"

namespace trn::sparse::generic_host {

// f(q0, std::integral_constant<int, K>) over partitions [0, P): groups of G lanes (K = G), then the
// rest one lane at a time (K = 1). The banded operators run a group's lanes in lockstep so that the
// host overlaps their independent chains of dependent divisions (host speed only: each lane runs its
// own operations in its own order).
template <int G, class F>
void over_lane_groups(std::int32_t P, F&& f) {
  std::int32_t q = 0;
  for (; q + G <= P; q += G) f(q, std::integral_constant<int, G>{});
  for (; q < P; ++q) f(q, std::integral_constant<int, 1>{});
}

// The accumulator of a storage type: double for real, complex<double> for complex values.
template <class T>
using Acc = HostFp64<T>;

template <class T>
Acc<T> load(const void* p, std::int64_t i) {
  return static_cast<Acc<T>>(static_cast<const T*>(p)[i]);
}
template <class T>
void store(void* p, std::int64_t i, Acc<T> v) {
  static_cast<T*>(p)[i] = static_cast<T>(v);
}
template <class V>
V conj_if(V v, bool conjugate) {
  if constexpr (std::is_same_v<V, double>) {
    (void)conjugate;
    return v;
  } else {
    return conjugate ? std::conj(v) : v;
  }
}
template <class V>
V from_scalar(Scalar s) {
  if constexpr (std::is_same_v<V, double>)
    return s.real();
  else
    return s;
}

inline std::int64_t at(const DenseAny& d, std::int64_t r, std::int64_t c) {
  return d.layout == Layout::col_major ? r + c * d.ld : r * d.ld + c;
}

// The bytes of a dense operand as the host link moves them (its elements; the hull spans the gaps).
inline HostSpan dense_span(const DenseAny& d) {
  HostSpan s;
  if (d.rows <= 0 || d.cols <= 0) return s;
  const std::int64_t inner = d.layout == Layout::col_major ? d.rows : d.cols;
  const std::int64_t outer = d.layout == Layout::col_major ? d.cols : d.rows;
  const auto esz = static_cast<std::int64_t>(value_bytes(d.value));
  s.data = d.data;
  s.hull = static_cast<std::size_t>(((outer - 1) * d.ld + inner) * esz);
  s.bytes = static_cast<std::size_t>(d.rows * d.cols * esz);
  return s;
}
inline HostSpan bytes_span(const void* p, std::int64_t count, std::size_t elem) {
  return count > 0 ? HostSpan(static_cast<const std::byte*>(p), count * static_cast<std::int64_t>(elem)) : HostSpan{};
}
inline std::size_t index_bytes(IndexType t) { return t == IndexType::i32 ? 4 : 8; }

// The matrix's arrays as host-step reads (offsets, indices, values).
inline std::array<HostSpan, 3> sparse_spans(const SparseRef& a) {
  const std::int64_t n_off = a.format == SparseRef::Format::csr   ? a.rows + 1
                             : a.format == SparseRef::Format::csc ? a.cols + 1
                                                                  : a.nnz;
  return {bytes_span(a.offsets, n_off, index_bytes(a.offsets_type)),
          bytes_span(a.indices, a.nnz, index_bytes(a.indices_type)), bytes_span(a.values, a.nnz, value_bytes(a.value))};
}

// The modeled time of a host step, predicted from what the plan knows before it runs: the bytes of
// its spans (reads and writes, each counted, as record_host_step counts them) and its flops, priced
// by host_step_ns (docs/cost-model.md sections 7 and 9).
inline double predict_host_step_ns(const Settings& s, const HostStep& step) {
  double bytes = 0;
  for (const HostSpan& x : step.reads) bytes += static_cast<double>(x.bytes);
  for (const HostSpan& x : step.writes) bytes += static_cast<double>(x.bytes);
  return host_step_ns(bytes, step.flops, hardware_spec(s.target));
}

// Records the step, models it, and adds the plan with its predicted time.
inline void finish_host(const Settings& s, const HostStep& step, PlanFacts plan, CallReport* report) {
  if (report == nullptr) return;
  plan.predicted_ns = predict_host_step_ns(s, step);
  Trace t;
  record_host_step(t, step);
  finish_report(*report, std::move(t), ReportSettings{s.target});
  report->add_plan(plan.print());
}

// A call whose profile is one host round trip (a reordering's index work): the report holds that step alone.
inline void host_only_report(const Settings& s, const HostStep& step, CallReport* report) {
  if (report == nullptr) return;
  *report = CallReport{};
  Trace t;
  record_host_step(t, step);
  finish_report(*report, std::move(t), ReportSettings{s.target});
}
// A host round trip ahead of a call whose report is already built (the SELL -> CSR gather before the
// CSR kernel): modeled alone and added to the report's profile (trn::append_sequential: no overlap),
// its record put first in the report's trace.
inline void prepend_host_step(const Settings& s, const HostStep& step, CallReport* report) {
  if (report == nullptr) return;
  Trace t;
  record_host_step(t, step);
  append_sequential(report->profile, model_trace(t, ReportSettings{s.target}));
  t.append(report->trace);
  report->trace = std::move(t);
}
inline HostSpan index_span(const void* p, std::int64_t count, IndexType t) { return bytes_span(p, count, index_bytes(t)); }

inline const char* op_name(GOp op) { return op == GOp::N ? "N" : op == GOp::T ? "T" : "C"; }
inline const char* format_name(SparseRef::Format f) {
  return f == SparseRef::Format::csr ? "CSR" : f == SparseRef::Format::csc ? "CSC" : "COO";
}
inline bool is_complex(Value v) { return value_is_complex(v); }  // generic.hpp

template <class F>
void dispatch(Value v, F&& f) {
  switch (v) {
    case Value::f32: f(float{}); break;
    case Value::f64: f(double{}); break;
    case Value::c32: f(std::complex<float>{}); break;
    case Value::c64: f(std::complex<double>{}); break;
  }
}

}  // namespace trn::sparse::generic_host
