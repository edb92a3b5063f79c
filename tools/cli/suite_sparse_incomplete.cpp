// Validation and benchmark cases of trnsparse's incomplete factorizations csrilu02 / csric02
// (trn/sparse/incomplete.hpp; docs/trnsparse.md "Incomplete factorizations"), every value type, on a
// g x g 5-point stencil (random off-diagonal values, dominant diagonal; Hermitian for IC(0)). The
// metric is the entry-wise backward error on the pattern, from the STORED factors in long double:
//   max over stored (i, j) of |a_ij - (L U)_ij| / (c (|L| |U|)_ij)      (IC(0): L L^H, lower pattern)
// with c = gamma_{k+1} (complex sqrt(2) gamma_{k+4}), u = 2^-53, plus (2 u_s + u_s^2) / (1 - u_s)^2 for
// the rounding of the factors to 32-bit storage (u_s = 2^-24, complex sqrt(2) 2^-24; 0 for 64-bit);
// k = 5, the most stored entries of a row.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "registry.hpp"
#include "trn/sparse/incomplete.hpp"

namespace trnsci::cli {
namespace {

namespace sp = trn::sparse;
using cld = std::complex<long double>;


// A stored value as long double and back (the storage type T rounds on the way in).
template <class T>
cld widen(T x) {
  if constexpr (std::is_floating_point_v<T>)
    return cld(x);
  else
    return cld(x.real(), x.imag());
}
template <class T>
T narrow(cld x) {
  if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(x.real());
  else
    return T(static_cast<typename T::value_type>(x.real()), static_cast<typename T::value_type>(x.imag()));
}

struct Run {
  double max_ratio = 0;
  double host_seconds = 0;
  trn::Profile profile;
};

template <class T>
Run incomplete_run_typed(sp::Incomplete kind, std::int64_t g, sp::Value v, trn::Generation target) {
  const std::int64_t n = g * g;
  const bool ic = kind == sp::Incomplete::ic0;
  std::mt19937_64 rng(71 + static_cast<std::uint64_t>(v) + (ic ? 100 : 0));
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<std::int32_t> row{0}, col;
  std::vector<cld> a;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t c = i % g;
    for (const std::int64_t j : {i - g, i - 1, i, i + 1, i + g}) {
      if (j < 0 || j >= n || (j == i - 1 && c == 0) || (j == i + 1 && c == g - 1)) continue;
      col.push_back(static_cast<std::int32_t>(j));
      a.push_back(j == i ? cld(5.0L) : cld(d(rng), sp::value_is_complex(v) ? d(rng) : 0.0));
    }
    row.push_back(static_cast<std::int32_t>(col.size()));
  }
  if (ic)  // mirror: a_ji = conj(a_ij) (the upper entries are not read by IC(0); kept consistent)
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int32_t e = row[static_cast<std::size_t>(i)]; e < row[static_cast<std::size_t>(i) + 1]; ++e) {
        const std::int64_t j = col[static_cast<std::size_t>(e)];
        if (j >= i) continue;
        for (std::int32_t f = row[static_cast<std::size_t>(j)]; f < row[static_cast<std::size_t>(j) + 1]; ++f)
          if (col[static_cast<std::size_t>(f)] == i) a[static_cast<std::size_t>(f)] = std::conj(a[static_cast<std::size_t>(e)]);
      }
  const auto nnz = static_cast<std::int64_t>(col.size());
  std::vector<T> vals(static_cast<std::size_t>(nnz));
  for (std::int64_t e = 0; e < nnz; ++e) {
    vals[static_cast<std::size_t>(e)] = narrow<T>(a[static_cast<std::size_t>(e)]);
    a[static_cast<std::size_t>(e)] = widen(vals[static_cast<std::size_t>(e)]);  // as stored
  }
  sp::Settings s;
  s.target = target;
  sp::CallReport rep;
  // The row times the factorization (csrilu02 / csric02), not the pattern analysis that precedes it
  // once per pattern (csrilu02_analysis: host index work, no trace of its own here).
  const sp::IncompleteAnalysis an =
      sp::analyze_incomplete(kind, n, nnz, row.data(), col.data(), vals.data(), v, sp::IndexBase::zero, true);
  const double t0 = now_seconds();
  const std::int64_t pivot = sp::incomplete_factor(s, an, v, vals.data(), {}, &rep);
  Run out;
  out.host_seconds = seconds_since(t0);
  out.profile = rep.profile;
  if (pivot >= 0) {
    out.max_ratio = INFINITY;
    return out;
  }
  // Factors as stored: F(i, j) for a stored (i, j); L unit (ILU) below, U on/above; IC: L on/below.
  auto F = [&](std::int64_t i, std::int64_t j) -> cld {
    for (std::int32_t e = row[static_cast<std::size_t>(i)]; e < row[static_cast<std::size_t>(i) + 1]; ++e)
      if (col[static_cast<std::size_t>(e)] == j) return widen(vals[static_cast<std::size_t>(e)]);
    return 0;
  };
  const long double u = 0x1p-53L, us = sp::value_is_single(v) ? 0x1p-24L * (sp::value_is_complex(v) ? std::sqrt(2.0L) : 1.0L) : 0.0L;
  const long double k = sp::value_is_complex(v) ? 9 : 6, gamma = k * u / (1 - k * u) * (sp::value_is_complex(v) ? std::sqrt(2.0L) : 1.0L);
  const long double c = gamma + (2 * us + us * us) / ((1 - us) * (1 - us));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int32_t e = row[static_cast<std::size_t>(i)]; e < row[static_cast<std::size_t>(i) + 1]; ++e) {
      const std::int64_t j = col[static_cast<std::size_t>(e)];
      if (ic && j > i) continue;
      cld sum = 0;
      long double mag = 0;
      for (std::int32_t f = row[static_cast<std::size_t>(i)]; f < row[static_cast<std::size_t>(i) + 1]; ++f) {
        const std::int64_t m = col[static_cast<std::size_t>(f)];
        if (m > std::min(i, j)) break;
        const cld left = ic ? F(i, m) : (m == i ? cld(1) : F(i, m));
        const cld right = ic ? std::conj(F(j, m)) : F(m, j);
        sum += left * right;
        mag += std::abs(left) * std::abs(right);
      }
      const long double err = std::abs(a[static_cast<std::size_t>(e)] - sum);
      out.max_ratio = std::max(out.max_ratio, static_cast<double>(err / std::max(c * mag, 1e-300L)));
    }
  return out;
}

Run incomplete_run(sp::Incomplete kind, std::int64_t g, sp::Value v, trn::Generation target) {
  switch (v) {
    case sp::Value::f32: return incomplete_run_typed<float>(kind, g, v, target);
    case sp::Value::f64: return incomplete_run_typed<double>(kind, g, v, target);
    case sp::Value::c32: return incomplete_run_typed<std::complex<float>>(kind, g, v, target);
    default: return incomplete_run_typed<std::complex<double>>(kind, g, v, target);
  }
}

void add_sparse_incomplete(Registry& reg) {
  const sp::Value types[] = {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64};
  for (const sp::Incomplete kind : {sp::Incomplete::ilu0, sp::Incomplete::ic0})
    for (sp::Value v : types) {
      const char* op = kind == sp::Incomplete::ic0 ? "csric02" : "csrilu02";
      reg.add(ValidationCase{
          .suite = "sparse", .library = "trnsparse", .op = op, .mode = std::string(sp::value_name(v)) + " (host step)",
          .shape = "40x40 5-point grid (1600 rows)", .metric = "backward_err_over_bound",
          .bound_text = "|A - L U| <= (gamma_{k+1} + 2 u_s) |L| |U| on the pattern (complex sqrt(2) gamma_{k+4}), k = 5",
          .run = [kind, v] {
            const Run r = incomplete_run(kind, 40, v, trn::Generation::trn1);
            return ratio_case(r, "max over stored entries of |A - factors' product| / bound (long double, stored factors)");
          }});
      reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = op,
                        .variant = std::string(sp::value_name(v)) + ", host step", .shape = "200x200 5-point grid",
                        .run = [kind, v](trn::Generation target) {
                          const Run r = incomplete_run(kind, 200, v, target);
                          return bench_of(ratio_case(r, ""), "backward_err_over_bound", r.profile.host_flops);
                        }});
    }
}

const Registrar kRegistrar(add_sparse_incomplete);

}  // namespace
}  // namespace trnsci::cli
