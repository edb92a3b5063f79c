// Shared pieces of trnblas's small-matrix batched kernels (lu_batched.cpp, qr_batched.cpp): the
// batch on the SBUF partitions (partition p of a program holds matrix b0 + p whole, column-major on
// the free axis), element views of real fp32 or complex fp32 (re, im) planes, and the VectorE
// element arithmetic both factorizations use. Internal to trnblas.
#pragma once

#include <algorithm>
#include <climits>
#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "level3_internal.hpp"
#include "trn/tile/complex.hpp"
#include "trn/tile/view.hpp"

namespace trn::blas::small_batched {

using detail::Recorder;  // for the batched drivers, which use this namespace
using detail::require;

// The matrices of this program: b0 .. b0 + rows - 1, one per partition (rows <= 0: none left).
struct BatchRows {
  std::int64_t b0;
  std::int32_t rows;
};
inline BatchRows batch_rows(NeuronCore& nc, std::int64_t batch) {
  const std::int32_t P = nc.hw().pmax;
  const std::int64_t b0 = static_cast<std::int64_t>(nc.program_id(0)) * P;
  return {b0, static_cast<std::int32_t>(std::min<std::int64_t>(P, batch - b0))};
}

// A [s0, s1] view of a flat SBUF tile from element off, element strides st0, st1.
inline Tile view2(const Tile& flat, std::int64_t off, std::int64_t s0, std::int64_t st0, std::int64_t s1, std::int64_t st1) {
  return tile::view(flat, off, {{s0, st0}, {s1, st1}});
}

// One matrix (rows x cols, column-major with leading dimension ld) in HBM as the [cols, rows]
// source / destination of a one-partition DMA.
inline Tile hbm_matrix(const void* p, DType dt, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  return tile::hbm_view(p, dt, 1, 0, {{cols, ld}, {rows, 1}});
}

// The partition row p of a flat tile as [cols, rows] with stride rows.
inline Tile sbuf_matrix(const Tile& flat, std::int32_t p, std::int64_t rows, std::int64_t cols) {
  return tile::view(flat.rows(p, 1), 0, {{cols, rows}, {rows, 1}});
}

inline float load_f32(const Tile& t, std::int32_t p, std::int64_t i) {
  float v;
  std::memcpy(&v, t.at(p, i), 4);
  return v;
}
inline void store_f32(const Tile& t, std::int32_t p, std::int64_t i, float v) { std::memcpy(t.at(p, i), &v, 4); }
inline std::int32_t load_i32(const Tile& t, std::int32_t p, std::int64_t i) {
  std::int32_t v;
  std::memcpy(&v, t.at(p, i), 4);
  return v;
}
inline void store_i32(const Tile& t, std::int32_t p, std::int64_t i, std::int32_t v) { std::memcpy(t.at(p, i), &v, 4); }

// Declared GpSimd cost of a per-partition loop touching `elements` values per partition.
inline double gpsimd_cost(const NeuronCore& nc, std::int64_t elements) {
  return nc.hw().gpsimd_start + 2.0 * static_cast<double>(elements);
}

// ---- element arithmetic on SBUF planes (real fp32, or complex fp32 as (re, im) planes) ----------

// A flat SBUF tile holding T elements: real ones one float each, complex ones (re, im) pairs, so a
// complex operand is two real step-2 views and complex arithmetic is real VectorE instructions on
// planes (as Ctrsm's diagonal blocks, level3.cpp).
template <class T>
constexpr std::int64_t kWidth = std::is_same_v<T, float> ? 1 : 2;

// Plane c of the [s0, s1] element view from element off with element strides st0, st1.
template <class T>
inline Tile ev(const Tile& flat, std::int64_t off, std::int64_t s0, std::int64_t st0, std::int64_t s1, std::int64_t st1,
        int c = 0) {
  constexpr std::int64_t w = kWidth<T>;
  return view2(flat, w * off + c, s0, w * st0, s1, w * st1);
}

// Element views of one operand: base element offset and strides (a stride 0 repeats an element).
struct EView {
  const Tile* flat;
  std::int64_t off, st0, st1;
};

// dst -= a * b elementwise over [s0, s1] (element views; scratch: 2 s0 s1 floats, dense).
//   real     p = fl(a b), dst = fl(dst - p)                                     2 instructions
//   complex  pr = fl(fl(ar br) - fl(ai bi)), pi = fl(fl(ar bi) + fl(ai br)),
//            dst_r = fl(dst_r - pr), dst_i = fl(dst_i - pi)                      8 instructions
template <class T>
void sub_product(NeuronCore& nc, const EView& dst, const EView& a, const EView& b, std::int64_t s0, std::int64_t s1,
                 const Tile& scratch) {
  const auto v = [&](const EView& e, int c) { return ev<T>(*e.flat, e.off, s0, e.st0, s1, e.st1, c); };
  const Tile p1 = view2(scratch, 0, s0, s1, s1, 1);
  if constexpr (std::is_same_v<T, float>) {
    nc.tensor_tensor(p1, v(a, 0), v(b, 0), AluOp::multiply);
    nc.tensor_tensor(v(dst, 0), v(dst, 0), p1, AluOp::subtract);
  } else {  // the second product plane follows the first (the real kernels' scratch holds one)
    const Tile p2 = view2(scratch, s0 * s1, s0, s1, s1, 1);
    const auto planes = [&](const EView& e) { return tile::ComplexPlanes{v(e, 0), v(e, 1)}; };
    tile::complex_multiply_subtract(nc, planes(dst), planes(a), planes(b), p1, p2);
  }
}

// x := x / e for the element e at `pivot` (one per partition) over the [s0, s1] element view x.
// zero_safe: a zero e divides by 1 (SGETF2 skips the scaling). rc: 8 floats of per-partition
// scratch; scratch: 3 s0 s1 floats.
//   real     one divide by the per-partition scalar (one rounding)
//   complex  1/e with Smith-style scaling (m = max(|er|, |ei|), q = m (er'^2 + ei'^2), 1/e =
//            (er'/q, -ei'/q)), then x * (1/e): <= 3 roundings per component (Higham §3.6, §27.4)
template <class T>
void divide_by(NeuronCore& nc, const Tile& flat, std::int64_t pivot, const EView& x, std::int64_t s0, std::int64_t s1,
               const Tile& rc, const Tile& scratch, bool zero_safe) {
  const auto v = [&](int c) { return ev<T>(*x.flat, x.off, s0, x.st0, s1, x.st1, c); };
  const Tile zero = rc.cols(0, 1), er = rc.cols(1, 1), m = rc.cols(2, 1);
  if constexpr (std::is_same_v<T, float>) {
    const Tile e = flat.cols(pivot, 1);
    if (!zero_safe) return nc.tensor_scalar(v(0), v(0), AluOp::divide, e);
    nc.tensor_scalar(zero, e, AluOp::equal, 0.0f);
    nc.tensor_tensor(er, e, zero, AluOp::add);  // e, or 1 for a zero pivot (exact either way)
    nc.tensor_scalar(v(0), v(0), AluOp::divide, er);
  } else {
    const Tile e_r = flat.cols(2 * pivot, 1), e_i = flat.cols(2 * pivot + 1, 1);
    nc.tensor_tensor(m, e_r, e_i, AluOp::abs_max);
    if (zero_safe) {  // e == 0: m = 0; use e = 1 + 0i instead
      nc.tensor_scalar(zero, m, AluOp::equal, 0.0f);
      nc.tensor_tensor(er, e_r, zero, AluOp::add);
      nc.tensor_tensor(m, m, zero, AluOp::add);
    } else {
      nc.tensor_copy(er, e_r);
    }
    const tile::ComplexPlanes r{rc.cols(6, 1), rc.cols(7, 1)};
    tile::complex_reciprocal(nc, er, e_i, m, {er, rc.cols(3, 1), rc.cols(4, 1), rc.cols(5, 1)}, r);
    tile::complex_scale(nc, {v(0), v(1)}, r.re, r.im, view2(scratch, 0, s0, s1, s1, 1),
                        view2(scratch, s0 * s1, s0, s1, s1, 1), view2(scratch, 2 * s0 * s1, s0, s1, s1, 1));
  }
}

// x (per partition [nrhs, n] elements, element i of rhs r at r ldx + i) := E^-1 x, E(i, j) at
// lu[i si + j sj] (elements); column-oriented substitution, forward for lower E.
template <class T>
void substitute(NeuronCore& nc, const Tile& lu, const Tile& x, const Tile& t, const Tile& rc, std::int64_t n,
                std::int64_t nrhs, std::int64_t si, std::int64_t sj, bool lower, bool unit, std::int64_t ldx) {
  for (std::int64_t step = 0; step < n; ++step) {
    const std::int64_t j = lower ? step : n - 1 - step;
    if (!unit) divide_by<T>(nc, lu, j * si + j * sj, {&x, j, ldx, 1}, nrhs, 1, rc, t, false);
    const std::int64_t i0 = lower ? j + 1 : 0, len = lower ? n - 1 - j : j;
    if (len == 0) continue;
    sub_product<T>(nc, {&x, i0, ldx, 1}, {&lu, i0 * si + j * sj, 0, si}, {&x, j, ldx, 0}, nrhs, len, t);
  }
}

inline int launch_programs(std::int64_t batch, std::int32_t P) {
  const std::int64_t programs = (batch + P - 1) / P;
  detail::require(programs <= INT_MAX, "batch too large");
  return static_cast<int>(programs);
}

template <class T>
T conj_if(const T& v, bool c) {
  if constexpr (std::is_floating_point_v<T>) {
    return v;
  } else {
    return c ? std::conj(v) : v;
  }
}

// The batch's matrices (rows x cols, leading dimension ld, one pointer each) as the device range
// of a host round trip: the hull of all of them, `count` matrices' elements moved.
template <class T>
HostSpan batch_span(const T* const* p, std::int64_t count, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  HostSpan s;
  if (count <= 0 || rows <= 0 || cols <= 0) return s;
  std::uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (std::int64_t b = 0; b < count; ++b) {
    const auto a = reinterpret_cast<std::uintptr_t>(p[b]);
    lo = std::min(lo, a);
    hi = std::max(hi, a + static_cast<std::uintptr_t>((cols - 1) * ld + rows) * sizeof(T));
  }
  s.data = reinterpret_cast<const void*>(lo);
  s.hull = hi - lo;
  s.bytes = static_cast<std::size_t>(count * rows * cols) * sizeof(T);
  return s;
}

template <class T>
constexpr bool kOnEngines = std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>>;


}  // namespace trn::blas::small_batched
