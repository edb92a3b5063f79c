// Also csrgeam2 (C = alpha A + beta B, CSR, every type): max |err| / bound entry by entry against a
// long-double sum, bound u_s |c| + gamma_3 (|alpha a| + |beta b|) (complex sqrt(2) gamma_5).
//
// Validation and benchmark cases of trnsparse's banded solvers (gtsv2, gtsv2StridedBatch,
// gpsvInterleavedBatch; docs/trnsparse.md "Banded solvers"): the normwise backward error of every
// system, eta = |b - A x_hat|_inf / (|A|_inf |x_hat|_inf + |b|_inf), computed in long double from the
// stored coefficients, against the bound of trn/sparse/banded.hpp in normwise form:
//   eta <= u_s + c u64,  u_s = u32 (sqrt(2) u32 complex-fp32) for 32-bit storage (the rounding of x),
//   c = 3 f(u)/u ~ 12 for elimination without pivoting on a diagonally dominant matrix, 2 (growth) x
//   4 (p + q + 2) for partial pivoting, 16 (p + q + 2) for Givens QR (a row meets <= 2p rotations).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "registry.hpp"
#include "trn/sparse/banded.hpp"
#include "trn/sparse/csrgeam.hpp"

namespace trnsci::cli {
namespace {

namespace sp = trn::sparse;
using cld = std::complex<long double>;


// An array of `count` values of type v, filled from long-double values (rounded on store).
struct Raw {
  sp::Value v;
  std::vector<unsigned char> bytes;
  Raw(sp::Value v_, std::int64_t count) : v(v_), bytes(static_cast<std::size_t>(count) * sp::value_bytes(v_)) {}
  void set(std::int64_t i, cld x) {
    unsigned char* at = bytes.data() + static_cast<std::size_t>(i) * sp::value_bytes(v);
    if (sp::value_is_single(v)) {
      const float p[2] = {static_cast<float>(x.real()), static_cast<float>(x.imag())};
      std::memcpy(at, p, sp::value_bytes(v));
    } else {
      const double p[2] = {static_cast<double>(x.real()), static_cast<double>(x.imag())};
      std::memcpy(at, p, sp::value_bytes(v));
    }
  }
  cld get(std::int64_t i) const {
    const unsigned char* at = bytes.data() + static_cast<std::size_t>(i) * sp::value_bytes(v);
    if (sp::value_is_single(v)) {
      float p[2] = {0, 0};
      std::memcpy(p, at, sp::value_bytes(v));
      return {p[0], p[1]};
    }
    double p[2] = {0, 0};
    std::memcpy(p, at, sp::value_bytes(v));
    return {p[0], p[1]};
  }
};

struct Run {
  double max_ratio = 0;
  double host_seconds = 0;
  trn::Profile profile;
};

// A validation result (bound 1 on the measured ratio: registry.hpp's ratio_case) and a bench row.
CaseResult case_of(const Run& run, const std::string& note) { return ratio_case(run, note); }
BenchResult bench_of(const Run& run, const char* metric) {
  BenchResult b;
  b.error = run.max_ratio;
  b.error_metric = metric;
  b.host_seconds = run.host_seconds;
  b.flops = run.profile.host_flops;
  b.device = DeviceCost::from(run.profile);
  return b;
}

// The engine path's normwise bound over u32 to first order (docs/trnsparse.md): 3 gamma_7 (R_32F),
// 3 sqrt(2) gamma_43 (C_32F).
long double engine_constant(sp::Value v) { return v == sp::Value::c32 ? 3.0L * 43.0L * std::sqrt(2.0L) : 21.0L; }

double constant_of(sp::BandedAlgo a, int half) {
  const double pq2 = 2.0 * half + 2.0;
  return a == sp::BandedAlgo::no_pivot ? 12.0 : a == sp::BandedAlgo::lu_pivot ? 8.0 * pq2 : 16.0 * pq2;
}

// `count` systems of size m, interleaved (element i of system s at i count + s) when `interleaved`,
// else one after another (stride m). Diagonally dominant when `dominant`.
Run banded_run(const char* routine, sp::BandedAlgo algo, int half, std::int64_t m, std::int64_t count, bool interleaved,
               bool dominant, sp::Value v, trn::Generation target) {
  std::mt19937_64 g(17 + static_cast<std::uint64_t>(v) + static_cast<std::uint64_t>(half));
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  const int nb = 2 * half + 1;
  std::vector<Raw> band(static_cast<std::size_t>(nb), Raw(v, m * count));
  Raw x(v, m * count);
  const std::int64_t es = interleaved ? count : 1, ss = interleaved ? 1 : m;
  for (std::int64_t at = 0; at < m * count; ++at) {
    for (int k = 0; k < nb; ++k) {
      const double re = d(g);
      cld val(re, sp::value_is_complex(v) ? d(g) : 0.0);
      if (k == half && dominant) val += cld(re < 0 ? -(nb + 1.0L) : nb + 1.0L);
      band[static_cast<std::size_t>(k)].set(at, val);
    }
    const double re = d(g);
    x.set(at, cld(re, sp::value_is_complex(v) ? d(g) : 0.0));
  }
  const Raw b = x;
  sp::BandedSystems sys{v, half, m, count, {}, es, ss, x.bytes.data(), es, ss};
  for (int k = 0; k < nb; ++k) sys.band[static_cast<std::size_t>(k)] = band[static_cast<std::size_t>(k)].bytes.data();
  sp::Settings s;
  s.target = target;
  sp::CallReport rep;
  const double t0 = now_seconds();
  sp::banded_solve(s, routine, algo, sys, &rep);
  Run r;
  r.host_seconds = seconds_since(t0);
  r.profile = rep.profile;
  const long double us = sp::value_is_single(v) ? (sp::value_is_complex(v) ? std::sqrt(2.0L) : 1.0L) * 0x1p-24L : 0.0L;
  // R_32F / C_32F without pivoting run on the engines in fp32 (banded_engine.cpp): engine_constant u32.
  const long double bound = sp::banded_on_engines(v, algo, half, true) ? engine_constant(v) * 0x1p-24L : us + constant_of(algo, half) * 0x1p-53L;
  for (std::int64_t sy = 0; sy < count; ++sy) {
    long double res = 0, an = 0, xn = 0, bn = 0;
    for (std::int64_t i = 0; i < m; ++i) {
      cld acc = b.get(i * es + sy * ss);
      long double row = 0;
      for (int k = 0; k < nb; ++k) {
        const std::int64_t j = i + k - half;
        if (j < 0 || j >= m) continue;
        const cld a = band[static_cast<std::size_t>(k)].get(i * es + sy * ss);
        acc -= a * x.get(j * es + sy * ss);
        row += std::abs(a);
      }
      res = std::max(res, std::abs(acc));
      an = std::max(an, row);
      xn = std::max(xn, std::abs(x.get(i * es + sy * ss)));
      bn = std::max(bn, std::abs(b.get(i * es + sy * ss)));
    }
    r.max_ratio = std::max(r.max_ratio, static_cast<double>(res / (an * xn + bn) / bound));
  }
  return r;
}

struct Kind {
  const char* op;
  sp::BandedAlgo algo;
  int half;
  bool interleaved, dominant;
  const char* how;
};
constexpr Kind kKinds[] = {
    {"gtsv2", sp::BandedAlgo::lu_pivot, 1, false, false, "LU, partial pivoting"},
    {"gtsv2StridedBatch", sp::BandedAlgo::no_pivot, 1, false, true, "no pivoting, diagonally dominant"},
    {"gpsvInterleavedBatch", sp::BandedAlgo::qr_givens, 2, true, false, "Givens QR"},
    // gtsvInterleavedBatch (#28 acceptance audit): algo 1 and algo 2 as the C API maps them (capi_gtsv.cpp).
    {"gtsvInterleavedBatch", sp::BandedAlgo::lu_pivot, 1, true, false, "algo 1, LU, partial pivoting"},
    {"gtsvInterleavedBatch", sp::BandedAlgo::qr_givens, 1, true, false, "algo 2, Givens QR"},
    // algo 0 (s13/tridiag: R_32F runs on the engines, the Thomas scans).
    {"gtsvInterleavedBatch", sp::BandedAlgo::no_pivot, 1, true, true, "algo 0, no pivoting, diagonally dominant"},
};

// Where a case runs and its bound, as the row names them.
std::string where_of(const Kind& k, sp::Value v) {
  if (!sp::banded_on_engines(v, k.algo, k.half, true)) return "engines, GpSimdE software fp64";
  return v == sp::Value::c32 ? "engines, GpSimdE fp32 lanes" : "engines, VectorE scans";
}
std::string bound_of(const Kind& k, sp::Value v) {
  if (sp::banded_on_engines(v, k.algo, k.half, true))
    return v == sp::Value::c32 ? "eta <= 3 sqrt(2) gamma_43 u32 (~183 u32; fp32 arithmetic on GpSimdE, the VectorE row-step formulas)"
                               : "eta <= 3 gamma_7 u32 (~21 u32; fp32 arithmetic on VectorE)";
  return "eta <= u_s + c u64 (c = " + std::to_string(static_cast<int>(constant_of(k.algo, k.half))) +
         "; u_s the 32-bit rounding of x)";
}

void add_sparse_banded(Registry& reg) {
  const sp::Value types[] = {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64};
  for (const Kind& k : kKinds)
    for (sp::Value v : types) {
      reg.add(ValidationCase{
          .suite = "sparse", .library = "trnsparse", .op = k.op,
          .mode = std::string(sp::value_name(v)) + " (" + where_of(k, v) + ", " + k.how + ")",
          .shape = "64 systems of 500", .metric = "backward_err_over_bound",
          .bound_text = bound_of(k, v),
          .run = [k, v] {
            return case_of(banded_run(k.op, k.algo, k.half, 500, 64, k.interleaved, k.dominant, v, trn::Generation::trn1),
                           "max over systems of the normwise backward error / bound (long-double residual)");
          }});
      reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = k.op,
                        .variant = std::string(sp::value_name(v)) + ", " + where_of(k, v), .shape = "256 systems of 1024",
                        .run = [k, v](trn::Generation target) {
                          return bench_of(banded_run(k.op, k.algo, k.half, 1024, 256, k.interleaved, k.dominant, v, target),
                                          "backward_err_over_bound");
                        }});
    }
}

const Registrar kRegistrar(add_sparse_banded);

// C = alpha A + beta B for random n x n CSR A, B (~density each, independent patterns).
Run geam_run(std::int64_t n, double density, sp::Value v, trn::Generation target) {
  std::mt19937_64 g(61 + static_cast<std::uint64_t>(v));
  std::bernoulli_distribution keep(density);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<std::int32_t> off[2], col[2];
  std::vector<Raw> val;
  for (int k = 0; k < 2; ++k) {
    off[k].push_back(0);
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < n; ++j)
        if (keep(g)) col[k].push_back(static_cast<std::int32_t>(j));
      off[k].push_back(static_cast<std::int32_t>(col[k].size()));
    }
    val.emplace_back(v, static_cast<std::int64_t>(col[k].size()));
    for (std::size_t e = 0; e < col[k].size(); ++e) {
      const double re = d(g);
      val[static_cast<std::size_t>(k)].set(static_cast<std::int64_t>(e), cld(re, sp::value_is_complex(v) ? d(g) : 0.0));
    }
  }
  auto ref = [&](int k) {
    return sp::SparseRef{sp::SparseRef::Format::csr, n, n, static_cast<std::int64_t>(col[k].size()), off[k].data(), col[k].data(),
                         val[static_cast<std::size_t>(k)].bytes.data(), sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, v};
  };
  const cld alpha = sp::value_is_complex(v) ? cld(0.75L, -0.5L) : cld(0.75L), beta = sp::value_is_complex(v) ? cld(-1.25L, 0.25L) : cld(-1.25L);
  std::vector<std::int32_t> coff(static_cast<std::size_t>(n) + 1);
  sp::Settings s;
  s.target = target;
  sp::CallReport rep;
  const double t0 = now_seconds();
  const std::int64_t nnz = sp::csrgeam_nnz(ref(0), ref(1), sp::IndexBase::zero, coff.data());
  std::vector<std::int32_t> ccol(static_cast<std::size_t>(nnz));
  Raw cval(v, nnz);
  const sp::SparseRef C{sp::SparseRef::Format::csr, n, n, nnz, coff.data(), ccol.data(), cval.bytes.data(), sp::IndexType::i32,
                        sp::IndexType::i32, sp::IndexBase::zero, v};
  sp::csrgeam(s, {static_cast<double>(alpha.real()), static_cast<double>(alpha.imag())}, ref(0),
              {static_cast<double>(beta.real()), static_cast<double>(beta.imag())}, ref(1), C, &rep);
  Run r;
  r.host_seconds = seconds_since(t0);
  r.profile = rep.profile;
  // The engines' bound (trn/sparse/csrgeam.hpp): 32-bit gamma_2 (|alpha a| + |beta b|) in u = 2^-24 (complex
  // sqrt(2) gamma_3); 64-bit 2.02 u |c| (one rounding) plus the long-double reference's 4 2^-63 (|alpha a| + |beta b|).
  const bool single = sp::value_is_single(v);
  const long double us = single ? 0.0L : 2.02L * 0x1p-53L;
  const long double kk = sp::value_is_complex(v) ? 3.0L : 2.0L;
  const long double gam = single ? kk * 0x1p-24L / (1 - kk * 0x1p-24L) * (sp::value_is_complex(v) ? std::sqrt(2.0L) : 1.0L) : 4 * 0x1p-63L;
  std::vector<cld> dense(static_cast<std::size_t>(n)), mag_alpha(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    std::vector<cld> want(static_cast<std::size_t>(n));
    std::vector<long double> mag(static_cast<std::size_t>(n));
    for (int k = 0; k < 2; ++k)
      for (std::int32_t e = off[k][static_cast<std::size_t>(i)]; e < off[k][static_cast<std::size_t>(i) + 1]; ++e) {
        const cld t = (k == 0 ? alpha : beta) * val[static_cast<std::size_t>(k)].get(e);
        want[static_cast<std::size_t>(col[k][static_cast<std::size_t>(e)])] += t;
        mag[static_cast<std::size_t>(col[k][static_cast<std::size_t>(e)])] += std::abs(t);
      }
    for (std::int32_t e = coff[static_cast<std::size_t>(i)]; e < coff[static_cast<std::size_t>(i) + 1]; ++e) {
      const auto j = static_cast<std::size_t>(ccol[static_cast<std::size_t>(e)]);
      const long double bound = us * std::abs(want[j]) + gam * mag[j];
      r.max_ratio = std::max(r.max_ratio, static_cast<double>(std::abs(cval.get(e) - want[j]) / std::max(bound, 1e-300L)));
    }
  }
  return r;
}

const char* geam_path(sp::Value v) {
  return sp::value_is_single(v) ? "engines: DMA gathers + VectorE" : "engines: segmented slice pairs";
}

void add_sparse_geam(Registry& reg) {
  const sp::Value types[] = {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64};
  for (sp::Value v : types) {
    reg.add(ValidationCase{
        .suite = "sparse", .library = "trnsparse", .op = "csrgeam2", .mode = std::string(sp::value_name(v)) + " (" + geam_path(v) + ")",
        .shape = "2000x2000 + 2000x2000, 1%", .metric = "max_err_over_bound",
        .bound_text = "32-bit gamma_2 (|alpha a| + |beta b|) in u32 (complex sqrt(2) gamma_3); 64-bit 2.02 u |c|",
        .run = [v] {
          return case_of(geam_run(2000, 0.01, v, trn::Generation::trn1),
                         "max |err| / bound vs a long-double sum over the union pattern");
        }});
    reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = "csrgeam2",
                      .variant = std::string(sp::value_name(v)) + ", " + geam_path(v), .shape = "4096^2 + 4096^2, 0.5%",
                      .run = [v](trn::Generation target) {
                        return bench_of(geam_run(4096, 0.005, v, target), "max_err_over_bound");
                      }});
  }
}

const Registrar kGeamRegistrar(add_sparse_geam);

}  // namespace
}  // namespace trnsci::cli
