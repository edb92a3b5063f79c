// The fp64 (complex<double>) arithmetic of the banded solves (trn/sparse/banded.hpp), one elimination
// column and one back-substitution row at a time, on a window of a system's rows. Run by the GpSimdE
// operators of banded.cpp (software fp64: host double, IEEE-identical); the algorithms, their
// sources, accuracy bounds and the zero-pivot rule are in banded.hpp. These are the expressions of the
// former host step (trnsparse.gtsv.host / gpsv.host) in the same order, so the bits are unchanged.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "generic_host.hpp"
#include "trn/sparse/banded.hpp"

namespace trn::sparse::banded_steps {

// Rows [r0, r0 + rows) of one system, row-major: row i keeps columns i - p .. i + 2p (lower bandwidth
// p, upper 2p after the fill-in of pivoting or rotations) and then its right-hand side, w + 1 values
// per row (w = 3p + 1). The storage is the operator's (an SBUF partition's bytes copied out). p is a
// template argument (1 tridiagonal, 2 pentadiagonal: the only two) so that the index arithmetic and
// the short loops over a row's columns compile to fixed offsets (host speed only: the same
// operations in the same order as with a run-time p).
// f(c) for c = c0 .. c1 in order, c1 - c0 < N (N a bound known at compile time: the loop unrolls).
template <int N, class F>
[[gnu::always_inline]] inline void for_columns(std::int64_t c0, std::int64_t c1, F&& f) {
  for (int d = 0; d < N; ++d) {
    if (c0 + d > c1) return;
    f(c0 + d);
  }
}

template <class V, int P>
struct BandWindow {
  static constexpr std::int64_t p = P, w = 3 * P + 1, stride = w + 1;
  std::int64_t m, r0;
  V* v;
  V& at(std::int64_t i, std::int64_t j) const { return v[(i - r0) * stride + j - i + p]; }
  V& x(std::int64_t i) const { return v[(i - r0) * stride + w]; }
  void swap_rows(std::int64_t i, std::int64_t r, std::int64_t c0, std::int64_t c1) const {
    for_columns<2 * P + 1>(c0, c1, [&](std::int64_t c) { std::swap(at(i, c), at(r, c)); });
    std::swap(x(i), x(r));
  }
};

template <class V>
double magnitude(V v) {
  return std::abs(v);
}

// Rows j and i (i > j) rotated so that A(i, j) becomes 0: [c s; -conj(s) c] with c real,
// c a + s b = (a / |a|) r, r = hypot(|a|, |b|) (a = 0: c = 0, s = conj(b) / |b|).
template <class V, int P>
void givens(const BandWindow<V, P>& B, std::int64_t j, std::int64_t i, std::int64_t right) {
  using generic_host::conj_if;
  const V a = B.at(j, j), b = B.at(i, j);
  if (b == V{}) return;
  const double r = std::hypot(magnitude(a), magnitude(b));
  V c{}, sn{};
  if (a == V{}) {
    sn = conj_if(b, true) / magnitude(b);
  } else {
    c = V(magnitude(a) / r);
    sn = (a / magnitude(a)) * conj_if(b, true) / r;
  }
  auto rotate = [&](V& u, V& v) {
    const V nu = c * u + sn * v;
    v = -conj_if(sn, true) * u + c * v;
    u = nu;
  };
  for_columns<2 * P + 1>(j, right, [&](std::int64_t col) { rotate(B.at(j, col), B.at(i, col)); });
  rotate(B.x(j), B.x(i));
}

// Column j of the reduction to upper-triangular form (bandwidth 2p): rows j .. min(m-1, j+p) must be
// in the window. Returns true when the pivot U(j, j) is exactly zero (no_pivot / lu_pivot; the
// system stops there). The algorithm is a template argument: a chunk's column loop runs one of them.
template <BandedAlgo algo, class V, int P>
[[gnu::always_inline]] inline bool eliminate_column(const BandWindow<V, P>& B, std::int64_t j) {
  const std::int64_t m = B.m, p = B.p;
  const std::int64_t last = std::min(m - 1, j + p), right = std::min(m - 1, j + 2 * p);
  if constexpr (algo == BandedAlgo::qr_givens) {
    for_columns<P>(j + 1, last, [&](std::int64_t i) { givens(B, j, i, right); });
    return false;
  }
  if constexpr (algo == BandedAlgo::lu_pivot) {
    std::int64_t r = j;  // the first row of largest modulus
    for_columns<P>(j + 1, last, [&](std::int64_t i) {
      if (magnitude(B.at(i, j)) > magnitude(B.at(r, j))) r = i;
    });
    if (r != j) B.swap_rows(j, r, j, right);
  }
  const V piv = B.at(j, j);
  if (piv == V{}) return true;
  for_columns<P>(j + 1, last, [&](std::int64_t i) {
    const V l = B.at(i, j) / piv;
    if (l == V{}) return;
    for_columns<2 * P>(j + 1, right, [&](std::int64_t c) { B.at(i, c) -= l * B.at(j, c); });
    B.x(i) -= l * B.x(j);
  });
  return false;
}

// Row i of the back substitution (rows i .. min(m-1, i+2p) in the window, x of the later rows
// already solved). Returns false when U(i, i) is exactly zero (x(i) is then left as it was).
template <class V, int P>
[[gnu::always_inline]] inline bool back_substitute_row(const BandWindow<V, P>& B, std::int64_t i) {
  V s = B.x(i);
  for_columns<2 * P>(i + 1, std::min(B.m - 1, i + 2 * B.p), [&](std::int64_t c) { s -= B.at(i, c) * B.x(c); });
  if (B.at(i, i) == V{}) return false;
  B.x(i) = s / B.at(i, i);
  return true;
}

// The staging array of solutions (value i of system k at k m + i, sizeof(T) bytes each) into the
// caller's right-hand sides (value i of system k at i es + k ss values). Interleaved systems (es >=
// count ss: every (i, k) its own slot) are written row by row, so that the caller's array is
// written in order and the staging array read along count cache lines that stay in L1 (system by
// system, each value went to a new cache line: ~3 ms of a 256 x 1024 C_32F call). Otherwise system
// by system, the order of the writes when two slots coincide.
template <class T>
void copy_solutions_out(const std::byte* staging, void* x, std::int64_t count, std::int64_t m, std::int64_t es,
                        std::int64_t ss) {
  auto* to = static_cast<std::byte*>(x);
  constexpr auto size = static_cast<std::int64_t>(sizeof(T));
  const auto one = [&](std::int64_t k, std::int64_t i) {
    std::memcpy(to + (i * es + k * ss) * size, staging + (k * m + i) * size, sizeof(T));
  };
  if (ss > 0 && es >= count * ss) {
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t k = 0; k < count; ++k) one(k, i);
  } else {
    for (std::int64_t k = 0; k < count; ++k)
      for (std::int64_t i = 0; i < m; ++i) one(k, i);
  }
}

}  // namespace trn::sparse::banded_steps
