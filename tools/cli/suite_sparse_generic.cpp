// Validation and benchmark cases of trnsparse's generic API in every value type: SpMV and SpMM over
// CSR with fp32 (the TensorE BSR-block path), fp64, complex-fp32 and complex-fp64 values (the costed
// host step), against a long-double loop written here, as max |err| / bound with the bounds of
// docs/trnsparse.md "Generic API: value types" (fp32: 2 (k + 2) u32 (|alpha||A||B| + |beta||C|), as
// "Accuracy"; fp64: gamma_{k+2}; complex: sqrt(2) gamma_{k+4}, complex-fp32 plus u32 |y|).
#include <cmath>
#include <algorithm>
#include <complex>
#include <cstring>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "registry.hpp"
#include "trn/sparse/generic.hpp"
#include "trn/sparse/sparse.hpp"

namespace trnsci::cli {
namespace {

namespace sp = trn::sparse;
using cld = std::complex<long double>;

// A random n x n CSR with ~density of its entries stored (int32, base 0), values uniform in [-1, 1)
// (both parts for complex), stored as interleaved doubles/floats per `value`.
struct Csr {
  std::int64_t n = 0;
  sp::Value value = sp::Value::f64;
  std::vector<std::int32_t> off{0}, col;
  std::vector<cld> val;  // the exact stored values (after rounding to the value type)
  std::vector<unsigned char> raw;
  sp::SparseRef ref() {
    return {sp::SparseRef::Format::csr, n, n, static_cast<std::int64_t>(col.size()), off.data(), col.data(), raw.data(),
            sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, value};
  }
};

bool cplx(sp::Value v) { return v == sp::Value::c32 || v == sp::Value::c64; }
bool single(sp::Value v) { return v == sp::Value::f32 || v == sp::Value::c32; }

// Appends value x (rounded to the type) to a raw array and returns the rounded value.
cld put(std::vector<unsigned char>& raw, sp::Value v, cld x) {
  const std::size_t at = raw.size();
  raw.resize(at + sp::value_bytes(v));
  if (single(v)) {
    const float p[2] = {static_cast<float>(x.real()), static_cast<float>(x.imag())};
    std::memcpy(raw.data() + at, p, sp::value_bytes(v));
    return {p[0], cplx(v) ? p[1] : 0.0f};
  }
  const double p[2] = {static_cast<double>(x.real()), static_cast<double>(x.imag())};
  std::memcpy(raw.data() + at, p, sp::value_bytes(v));
  return {p[0], cplx(v) ? p[1] : 0.0};
}
cld get(const std::vector<unsigned char>& raw, sp::Value v, std::int64_t i) {
  const std::size_t at = static_cast<std::size_t>(i) * sp::value_bytes(v);
  if (single(v)) {
    float p[2] = {0, 0};
    std::memcpy(p, raw.data() + at, sp::value_bytes(v));
    return {p[0], p[1]};
  }
  double p[2] = {0, 0};
  std::memcpy(p, raw.data() + at, sp::value_bytes(v));
  return {p[0], p[1]};
}

cld draw(std::mt19937_64& g, sp::Value v) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  const double re = d(g);
  return {re, cplx(v) ? d(g) : 0.0};
}

Csr make_csr(std::int64_t n, double density, sp::Value v, std::uint64_t seed) {
  Csr a;
  a.n = n;
  a.value = v;
  std::mt19937_64 g(seed);
  std::bernoulli_distribution keep(density);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j)
      if (keep(g)) {
        a.col.push_back(static_cast<std::int32_t>(j));
        a.val.push_back(put(a.raw, v, draw(g, v)));
      }
    a.off.push_back(static_cast<std::int32_t>(a.col.size()));
  }
  return a;
}

long double bound_of(sp::Value v, std::int64_t k, long double mag, long double result) {
  const long double u32 = 0x1p-24L, u64 = 0x1p-53L;
  if (v == sp::Value::f32) return 2.0L * static_cast<long double>(k + 2) * u32 * mag;
  const long double kk = static_cast<long double>(k + (cplx(v) ? 4 : 2));
  long double b = kk * u64 / (1 - kk * u64) * mag * (cplx(v) ? std::sqrt(2.0L) : 1.0L);
  if (v == sp::Value::c32) b = b * (1 + u32) + u32 * result;
  return b;
}

struct Run {
  double max_ratio = 0;
  double host_seconds = 0;
  std::int64_t nnz = 0;
  trn::Profile profile;
};

// C = alpha A B + beta C, B n x m column-major (m = 1: SpMV through spmv), then the elementwise check.
Run product(std::int64_t n, std::int64_t m, double density, sp::Value v, trn::Generation target) {
  Csr a = make_csr(n, density, v, 7 + static_cast<std::uint64_t>(v));
  std::mt19937_64 g(99);
  std::vector<unsigned char> B, C;
  std::vector<cld> b, c0;
  for (std::int64_t i = 0; i < n * m; ++i) b.push_back(put(B, v, draw(g, v)));
  for (std::int64_t i = 0; i < n * m; ++i) c0.push_back(put(C, v, draw(g, v)));
  const cld alpha = cplx(v) ? cld(0.75L, -0.5L) : cld(0.75L), beta = cplx(v) ? cld(-0.25L, 0.125L) : cld(-0.25L);
  sp::Settings s;
  s.target = target;
  sp::CallReport rep;
  const double t0 = now_seconds();
  if (v == sp::Value::f32) {
    const sp::CsrView A{n, n, static_cast<std::int64_t>(a.col.size()), a.off.data(), a.col.data(), a.raw.data(),
                        sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, trn::DType::f32};
    if (m == 1)
      sp::spmv(s, sp::Op::N, 0.75f, A, B.data(), trn::DType::f32, -0.25f, C.data(), trn::DType::f32, &rep);
    else
      sp::spmm(s, sp::Op::N, sp::Op::N, 0.75f, A, {B.data(), trn::DType::f32, n, m, n, sp::Layout::col_major}, -0.25f,
               {C.data(), trn::DType::f32, n, m, n, sp::Layout::col_major}, &rep);
  } else {
    const sp::Scalar al(static_cast<double>(alpha.real()), static_cast<double>(alpha.imag()));
    const sp::Scalar be(static_cast<double>(beta.real()), static_cast<double>(beta.imag()));
    if (m == 1)
      sp::spmv_host(s, sp::GOp::N, al, a.ref(), B.data(), be, C.data(), &rep);
    else
      sp::spmm_host(s, sp::GOp::N, sp::GOp::N, al, a.ref(), {B.data(), v, n, m, n, sp::Layout::col_major}, be,
                    {C.data(), v, n, m, n, sp::Layout::col_major}, &rep);
  }
  Run r;
  r.host_seconds = seconds_since(t0);
  r.nnz = static_cast<std::int64_t>(a.col.size());
  r.profile = rep.profile;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t k = a.off[static_cast<std::size_t>(i) + 1] - a.off[static_cast<std::size_t>(i)];
    for (std::int64_t c = 0; c < m; ++c) {
      cld acc = 0;
      long double mag = 0;
      for (std::int32_t e = a.off[static_cast<std::size_t>(i)]; e < a.off[static_cast<std::size_t>(i) + 1]; ++e) {
        const cld bv = b[static_cast<std::size_t>(a.col[static_cast<std::size_t>(e)] + c * n)];
        acc += a.val[static_cast<std::size_t>(e)] * bv;
        mag += std::abs(a.val[static_cast<std::size_t>(e)]) * std::abs(bv);
      }
      const std::size_t ci = static_cast<std::size_t>(i + c * n);
      const cld want = alpha * acc + beta * c0[ci];
      const long double err = std::abs(get(C, v, static_cast<std::int64_t>(ci)) - want);
      const long double bnd = bound_of(v, k, std::abs(alpha) * mag + std::abs(beta) * std::abs(c0[ci]), std::abs(want));
      r.max_ratio = std::max(r.max_ratio, static_cast<double>(err / std::max(bnd, 1e-300L)));
    }
  }
  return r;
}

const char* type_name(sp::Value v) { return sp::value_name(v); }

void add_sparse_generic(Registry& reg) {
  const sp::Value types[] = {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64};
  for (sp::Value v : types)
    for (std::int64_t m : {std::int64_t{1}, std::int64_t{16}}) {
      const std::string op = m == 1 ? "spmv_csr" : "spmm_csr";
      reg.add(ValidationCase{
          .suite = "sparse", .library = "trnsparse", .op = op,
          .mode = std::string(type_name(v)) + (v == sp::Value::f32 ? " (TensorE blocks)" : " (host step)"),
          .shape = m == 1 ? "1000x1000, 1%" : "1000x1000 x 1000x16, 1%", .metric = "max_err_over_bound",
          .bound_text = v == sp::Value::f32 ? "2 (k+2) u32 (|a||A||B| + |b||C|)"
                        : cplx(v)           ? "sqrt(2) gamma_{k+4} (|a||A||B| + |b||C|)" +
                                        std::string(v == sp::Value::c32 ? " + u32 |y|" : "")
                                            : "gamma_{k+2} (|a||A||B| + |b||C|)",
          .run = [v, m] {
            const Run run = product(1000, m, 0.01, v, trn::Generation::trn1);
            CaseResult r;
            r.measured = run.max_ratio;
            r.bound = 1.0;
            r.pass = run.max_ratio <= 1.0;
            r.note = "max |err| / bound vs a long-double loop; nnz " + std::to_string(run.nnz);
            r.host_seconds = run.host_seconds;
            r.device = DeviceCost::from(run.profile);
            return r;
          }});
    }
  for (sp::Value v : types)
    reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = "spmv_csr",
                      .variant = std::string(type_name(v)) + (v == sp::Value::f32 ? ", TensorE blocks" : ", host step"),
                      .shape = "4096x4096, 0.5%",
                      .run = [v](trn::Generation target) {
                        const Run run = product(4096, 1, 0.005, v, target);
                        BenchResult b;
                        b.error = run.max_ratio;
                        b.error_metric = "max_err_over_bound";
                        b.host_seconds = run.host_seconds;
                        b.flops = (cplx(v) ? 8.0 : 2.0) * static_cast<double>(run.nnz);
                        b.device = DeviceCost::from(run.profile);
                        return b;
                      }});
}

const Registrar kRegistrar(add_sparse_generic);

}  // namespace
}  // namespace trnsci::cli
