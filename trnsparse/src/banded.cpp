// Banded (tridiagonal / pentadiagonal) batched solves: the costed host step of trn/sparse/banded.hpp
// (algorithms, sources, accuracy bounds and the zero-pivot rule are stated there).
#include "trn/sparse/banded.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "generic_detail.hpp"
#include "generic_host.hpp"

namespace trn::sparse {

using namespace generic_detail;  // NOLINT: invalid()
using namespace generic_host;    // NOLINT: the host-step helpers

namespace {

std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

// One system in fp64: row i keeps columns i - p .. i + 2p (lower bandwidth p, upper p + q = 2p after
// the fill-in of pivoting or rotations), and the right-hand side.
template <class V>
struct Band {
  std::int64_t m, p, w;
  std::vector<V> a, x;
  Band(std::int64_t m_, std::int64_t p_) : m(m_), p(p_), w(3 * p_ + 1), a(z(m_ * (3 * p_ + 1))), x(z(m_)) {}
  V& at(std::int64_t i, std::int64_t j) { return a[z(i * w + j - i + p)]; }
  void swap_rows(std::int64_t i, std::int64_t r, std::int64_t c0, std::int64_t c1) {
    for (std::int64_t c = c0; c <= c1; ++c) std::swap(at(i, c), at(r, c));
    std::swap(x[z(i)], x[z(r)]);
  }
};

template <class V>
double magnitude(V v) {
  return std::abs(v);
}

// Rows j and i (i > j) rotated so that A(i, j) becomes 0: [c s; -conj(s) c] with c real,
// c a + s b = (a / |a|) r, r = hypot(|a|, |b|) (a = 0: c = 0, s = conj(b) / |b|).
template <class V>
void givens(Band<V>& B, std::int64_t j, std::int64_t i, std::int64_t right) {
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
  for (std::int64_t col = j; col <= right; ++col) rotate(B.at(j, col), B.at(i, col));
  rotate(B.x[z(j)], B.x[z(i)]);
}

// Reduces one system to upper-triangular form (bandwidth 2p) and back-substitutes. Returns the
// row of the first zero pivot, -1 when the solution is in B.x.
template <class V>
std::int64_t solve_one(Band<V>& B, BandedAlgo algo) {
  const std::int64_t m = B.m, p = B.p;
  for (std::int64_t j = 0; j < m; ++j) {
    const std::int64_t last = std::min(m - 1, j + p), right = std::min(m - 1, j + 2 * p);
    if (algo == BandedAlgo::qr_givens) {
      for (std::int64_t i = j + 1; i <= last; ++i) givens(B, j, i, right);
      continue;
    }
    if (algo == BandedAlgo::lu_pivot) {
      std::int64_t r = j;  // the first row of largest modulus
      for (std::int64_t i = j + 1; i <= last; ++i)
        if (magnitude(B.at(i, j)) > magnitude(B.at(r, j))) r = i;
      if (r != j) B.swap_rows(j, r, j, right);
    }
    const V piv = B.at(j, j);
    if (piv == V{}) return j;
    for (std::int64_t i = j + 1; i <= last; ++i) {
      const V l = B.at(i, j) / piv;
      if (l == V{}) continue;
      for (std::int64_t c = j + 1; c <= right; ++c) B.at(i, c) -= l * B.at(j, c);
      B.x[z(i)] -= l * B.x[z(j)];
    }
  }
  for (std::int64_t i = m - 1; i >= 0; --i) {
    V s = B.x[z(i)];
    for (std::int64_t c = i + 1; c <= std::min(m - 1, i + 2 * p); ++c) s -= B.at(i, c) * B.x[z(c)];
    if (B.at(i, i) == V{}) return i;
    B.x[z(i)] = s / B.at(i, i);
  }
  return -1;
}

template <class T>
void solve_typed(BandedAlgo algo, const BandedSystems& b) {
  using V = Acc<T>;
  const std::int64_t m = b.m, p = b.half;
  std::vector<V> out(z(m * b.count));  // every solution first: nothing is written on a zero pivot
  Band<V> B(m, p);
  for (std::int64_t s = 0; s < b.count; ++s) {
    std::fill(B.a.begin(), B.a.end(), V{});
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t k = 0; k <= 2 * p; ++k) {
        const std::int64_t j = i + k - p;
        if (j >= 0 && j < m) B.at(i, j) = load<T>(b.band[z(k)], i * b.elem_stride + s * b.sys_stride);
      }
      B.x[z(i)] = load<T>(b.x, i * b.x_elem_stride + s * b.x_sys_stride);
    }
    const std::int64_t row = solve_one(B, algo);
    if (row >= 0) throw ZeroPivot(s, row);
    std::copy(B.x.begin(), B.x.end(), out.begin() + s * m);
  }
  for (std::int64_t s = 0; s < b.count; ++s)
    for (std::int64_t i = 0; i < m; ++i) store<T>(b.x, i * b.x_elem_stride + s * b.x_sys_stride, out[z(s * m + i)]);
}

const char* algo_name(BandedAlgo a) {
  return a == BandedAlgo::no_pivot   ? "Gaussian elimination without pivoting (Thomas)"
         : a == BandedAlgo::lu_pivot ? "LU with partial pivoting (LAPACK xGTSV/xGBSV order)"
                                     : "QR by Givens rotations";
}

// Multiply-adds of one system: elimination (p rows below each pivot, over the 2p + 1 columns of
// the window and the right-hand side) and back substitution (2p columns): fp64 flops 2 each
// (complex 8); a rotation pair counts twice.
double banded_flops(BandedAlgo algo, const BandedSystems& b) {
  const double m = static_cast<double>(b.m), p = b.half;
  const double per_row = p * (2 * p + 2) * (algo == BandedAlgo::qr_givens ? 2.0 : 1.0) + 2 * p + 1;
  return (is_complex(b.value) ? 8.0 : 2.0) * per_row * m * static_cast<double>(b.count);
}

// `na` elements strided by `sa` and `nb` groups strided by `sb` (stride 0: one group is read).
HostSpan strided_span(const void* p, std::int64_t na, std::int64_t sa, std::int64_t nb, std::int64_t sb, std::size_t elem) {
  HostSpan s;
  if (na <= 0 || nb <= 0) return s;
  s.data = p;
  s.hull = static_cast<std::size_t>((na - 1) * sa + (nb - 1) * sb + 1) * elem;
  s.bytes = static_cast<std::size_t>(na * (sb == 0 ? 1 : nb)) * elem;
  return s;
}

}  // namespace

namespace {

PlanFacts banded_facts(const char* routine, BandedAlgo algo, const BandedSystems& b) {
  PlanFacts f;
  f.routine = routine;
  f.shape = std::to_string(b.count) + (b.half == 1 ? " tridiagonal" : " pentadiagonal") + " system(s) of size " +
            std::to_string(b.m) + (b.sys_stride == 0 && b.count > 1 ? " (one matrix, " + std::to_string(b.count) + " right-hand sides)" : "");
  f.variant = std::string(value_name(b.value)) + ": " + algo_name(algo) + ", fp64 arithmetic on the host (one round trip)";
  f.ops = std::to_string(static_cast<long long>(banded_flops(algo, b))) + " flops";
  f.engines = "host CPU (costed host step), host link";
  f.why = "each system is a chain of m dependent eliminations with a division per step and no NeuronCore engine "
          "computes in fp64; systems are independent (a device version would give each a VectorE lane)";
  return f;
}

}  // namespace

std::string banded_plan(const char* routine, BandedAlgo algo, const BandedSystems& b) {
  return banded_facts(routine, algo, b).print();
}

void banded_solve(const Settings& s, const char* routine, BandedAlgo algo, const BandedSystems& b, CallReport* report) {
  if (b.m < 1 || b.count < 0 || (b.half != 1 && b.half != 2)) invalid("banded solve: m >= 1, count >= 0", "m");
  if (b.count == 0) return;
  if (banded_on_engines(b.value, algo, b.half, b.sys_stride != 0)) {
    banded_solve_engines(s, routine, b, report);
    return;
  }
  dispatch(b.value, [&](auto tag) { solve_typed<decltype(tag)>(algo, b); });
  const std::size_t vb = value_bytes(b.value);
  const int nb = 2 * b.half + 1;
  std::array<HostSpan, 5> bands;
  for (int k = 0; k < nb; ++k) bands[z(k)] = strided_span(b.band[z(k)], b.m, b.elem_stride, b.count, b.sys_stride, vb);
  const HostSpan x = strided_span(b.x, b.m, b.x_elem_stride, b.count, b.x_sys_stride, vb);
  // Four read regions: a pentadiagonal's outer bands are counted (bytes) with their neighbours.
  HostSpan lower = bands[0], upper = bands[z(nb - 1)];
  if (nb == 5) {
    lower.bytes += bands[1].bytes;
    upper.bytes += bands[3].bytes;
  }
  const HostSpan mid = nb == 5 ? bands[2] : bands[1];
  finish_host(s,
              HostStep{.name = b.half == 1 ? "trnsparse.gtsv.host" : "trnsparse.gpsv.host",
                       .flops = banded_flops(algo, b),
                       .reads = {lower, mid, upper, x},
                       .writes = {x}},
              banded_facts(routine, algo, b), report);
}

}  // namespace trn::sparse
