// Host round trips. No NeuronCore engine computes in fp64 (neuroncore.md 6.3), so the libraries'
// fp64 steps (Ozaki scaling and reconstruction, fp64 substitutions, Jacobi sweeps in fp64, ...) run
// on the instance's host CPU: the data crosses the host link to host memory, a host thread computes,
// the results cross back. record_host_step appends one such round trip to a trace as a host_compute
// record: the device (HBM) ranges it reads and writes become its dependency regions, so the cost
// model orders it after the device writes it reads and before the device reads of what it writes;
// its time is host_roundtrip_ns + (bytes to the host + bytes back) / host_link_bytes_per_ns +
// flops / host_fp64_flops_per_ns (HardwareSpec; docs/cost-model.md section 7). Profiles report it
// apart from engine time (Profile::host_*), Perfetto on a "host" track.
#pragma once
#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "trn/core/trace.hpp"

namespace trn {

// The fp64 type a host step computes a stored scalar T in: double for real types,
// std::complex<double> for complex ones.
template <class T>
struct HostFp64Of {
  using type = double;
};
template <class R>
struct HostFp64Of<std::complex<R>> {
  using type = std::complex<double>;
};
template <class T>
using HostFp64 = typename HostFp64Of<T>::type;

// A range of device memory a host step reads or writes: the byte hull [data, data + hull) orders
// it against device instructions; `bytes` of it cross the host link (a strided matrix moves its
// elements, not the gaps between its columns).
struct HostSpan {
  const void* data = nullptr;
  std::size_t hull = 0;
  std::size_t bytes = 0;
  HostSpan() = default;
  // `count` contiguous elements.
  template <class T>
  HostSpan(const T* p, std::int64_t count)
      : data(p), hull(count > 0 ? static_cast<std::size_t>(count) * sizeof(T) : 0), bytes(hull) {}
  // na x nb elements p[i sa + j sb] (strides >= 0, in elements).
  template <class T>
  static HostSpan strided(const T* p, std::int64_t na, std::int64_t sa, std::int64_t nb, std::int64_t sb) {
    HostSpan s;
    if (na <= 0 || nb <= 0) return s;
    s.data = p;
    s.hull = static_cast<std::size_t>((na - 1) * sa + (nb - 1) * sb + 1) * sizeof(T);
    s.bytes = static_cast<std::size_t>(na * nb) * sizeof(T);
    return s;
  }
  // A column-major rows x cols matrix with leading dimension ld (elements).
  template <class T>
  static HostSpan matrix(const T* p, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
    return strided(p, rows, 1, cols, ld);
  }
};

struct HostStep {
  std::string_view name;                 // "<library>.<routine>.<step>" (a string literal), shown in profiles
  double flops = 0;                      // fp64 operations of the host loop (or its declared op count)
  std::array<HostSpan, 4> reads{};       // device ranges brought to the host
  std::array<HostSpan, 4> writes{};      // device ranges written back
};

// Appends one host_compute record. At most four dependency regions are kept (writes first; a read
// of the same range as a write is covered by the write); the bytes count every span.
void record_host_step(Trace& trace, const HostStep& step);
void record_host_step(TraceParts& parts, const HostStep& step);

// The name a host_compute record was recorded with ("host" for label 0).
std::string_view host_step_name(std::uint16_t label);

}  // namespace trn
