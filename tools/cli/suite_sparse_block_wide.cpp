// Validation and benchmark cases of trnsparse's BSR and Blocked-ELL SpMM / SpMV in complex-fp32
// (the real 2 x 2 embedding on the fp32 TensorE kernel, generic.hpp spmm_c32) and in fp64 /
// complex-fp64 (an Ozaki GEMM per block row on TensorE, spmm_fp64), against a long-double loop
// written here, as max |err| / bound with the bounds of docs/trnsparse.md "Complex-fp32 on TensorE"
// (sqrt(2) gamma32_{2k+6} (|alpha||A||B| + |beta||C|)) and "fp64 BSR and Blocked-ELL on TensorE"
// (p (2^-50 k max|a_i.| max|b_.j| |alpha| + 4 u64 (|alpha||A||B| + |beta||C|)), p = 1 real, 2 complex).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "registry.hpp"
#include "sparse_columns.hpp"
#include "trn/sparse/generic.hpp"

namespace trnsci::cli {
namespace {

namespace sp = trn::sparse;
using cld = std::complex<long double>;

// A random n x n BSR of bs x bs blocks (block density p, row-major blocks) with values of `v`
// stored as complex<double> (the checked values) and in the value type's layout (raw).
struct BlockMatrix {
  std::int64_t nb = 0, bs = 0;
  std::vector<std::int32_t> off{0}, col;
  std::vector<std::complex<double>> val;  // per stored element, in block order
  std::vector<unsigned char> raw;
  sp::Value v = sp::Value::c32;
};
std::size_t bytes_of(sp::Value v) { return v == sp::Value::c64 ? 16 : 8; }
void put(std::vector<unsigned char>& raw, sp::Value v, std::complex<double> x) {
  const std::size_t at = raw.size();
  raw.resize(at + bytes_of(v));
  if (v == sp::Value::c32) {
    const std::complex<float> f(static_cast<float>(x.real()), static_cast<float>(x.imag()));
    std::memcpy(raw.data() + at, &f, sizeof f);
  } else if (v == sp::Value::f64) {
    const double d = x.real();
    std::memcpy(raw.data() + at, &d, sizeof d);
  } else {
    std::memcpy(raw.data() + at, &x, sizeof x);
  }
}
std::complex<double> get(const std::vector<unsigned char>& raw, sp::Value v, std::size_t i) {
  if (v == sp::Value::c32) {
    std::complex<float> f;
    std::memcpy(&f, raw.data() + i * 8, sizeof f);
    return {f.real(), f.imag()};
  }
  if (v == sp::Value::f64) {
    double d = 0;
    std::memcpy(&d, raw.data() + i * 8, sizeof d);
    return {d, 0.0};
  }
  std::complex<double> z;
  std::memcpy(&z, raw.data() + i * 16, sizeof z);
  return z;
}
std::complex<double> draw(std::mt19937_64& g, sp::Value v) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  const double re = d(g);
  const std::complex<double> x(re, v == sp::Value::f64 ? 0.0 : d(g));
  return v == sp::Value::c32 ? std::complex<double>(static_cast<float>(x.real()), static_cast<float>(x.imag())) : x;
}

BlockMatrix make_blocks(std::int64_t nb, std::int64_t bs, double p, sp::Value v, std::uint64_t seed) {
  BlockMatrix a;
  a.nb = nb, a.bs = bs, a.v = v;
  std::mt19937_64 g(seed);
  std::bernoulli_distribution keep(p);
  for (std::int64_t I = 0; I < nb; ++I) {
    for (std::int64_t J = 0; J < nb; ++J)
      if (keep(g)) {
        a.col.push_back(static_cast<std::int32_t>(J));
        for (std::int64_t e = 0; e < bs * bs; ++e) {
          a.val.push_back(draw(g, v));
          put(a.raw, v, a.val.back());
        }
      }
    a.off.push_back(static_cast<std::int32_t>(a.col.size()));
  }
  return a;
}

struct Run {
  double max_ratio = 0, host_seconds = 0;
  trn::Profile profile;
  std::int64_t stored = 0;
};

// C = alpha A B + beta C (n columns; n = 1 SpMV), A as BSR, then the elementwise check. timing: the
// kernels recorded, not computed, and no check (the dense-crossover sweep's runs at other densities).
Run block_product(std::int64_t nb, std::int64_t bs, double p, std::int64_t n, sp::Value v, trn::Generation target,
                  bool timing = false) {
  const BlockMatrix a = make_blocks(nb, bs, p, v, 17 + static_cast<std::uint64_t>(v));
  const std::int64_t N = nb * bs;
  std::mt19937_64 g(5);
  std::vector<unsigned char> B, C;
  std::vector<std::complex<double>> b, c0;
  for (std::int64_t i = 0; i < N * n; ++i) b.push_back(draw(g, v)), put(B, v, b.back());
  for (std::int64_t i = 0; i < N * n; ++i) c0.push_back(draw(g, v)), put(C, v, c0.back());
  const bool cplx = v != sp::Value::f64;
  const std::complex<double> alpha = cplx ? std::complex<double>(0.75, -0.5) : 0.75, beta = cplx ? std::complex<double>(-0.25, 0.125) : -0.25;
  const sp::BsrView A{nb, nb, static_cast<std::int64_t>(a.col.size()), bs, bs, a.off.data(), a.col.data(),
                      const_cast<unsigned char*>(a.raw.data()), sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero,
                      trn::DType::f32, sp::BlockOrder::row};
  sp::Settings s;
  s.target = target;
  s.timing_only = timing;
  sp::CallReport rep;
  rep.plans_wanted = false;
  const sp::DenseAny Bd{B.data(), v, N, n, N, sp::Layout::col_major}, Cd{C.data(), v, N, n, N, sp::Layout::col_major};
  const double t0 = now_seconds();
  if (v == sp::Value::c32)
    sp::spmm_c32(s, sp::GOp::N, sp::GOp::N, alpha, A, Bd, beta, Cd, &rep);
  else
    sp::spmm_fp64(s, sp::GOp::N, sp::GOp::N, alpha, A, v, Bd, beta, Cd, &rep);
  Run r;
  r.host_seconds = seconds_since(t0);
  r.profile = rep.profile;
  r.stored = static_cast<std::int64_t>(a.val.size());
  if (timing) return r;
  long double max_b = 0;
  for (const auto& x : b) max_b = std::max(max_b, static_cast<long double>(std::abs(x)));
  for (std::int64_t I = 0; I < nb; ++I)
    for (std::int64_t row = 0; row < bs; ++row) {
      const std::int64_t i = I * bs + row, k = (a.off[static_cast<std::size_t>(I) + 1] - a.off[static_cast<std::size_t>(I)]) * bs;
      long double max_a = 0;
      for (std::int64_t e = a.off[static_cast<std::size_t>(I)]; e < a.off[static_cast<std::size_t>(I) + 1]; ++e)
        for (std::int64_t c = 0; c < bs; ++c)
          max_a = std::max(max_a, static_cast<long double>(std::abs(a.val[static_cast<std::size_t>(e * bs * bs + row * bs + c)])));
      for (std::int64_t col = 0; col < n; ++col) {
        cld acc = 0;
        long double mag = 0;
        for (std::int64_t e = a.off[static_cast<std::size_t>(I)]; e < a.off[static_cast<std::size_t>(I) + 1]; ++e)
          for (std::int64_t c = 0; c < bs; ++c) {
            const auto av = a.val[static_cast<std::size_t>(e * bs * bs + row * bs + c)];
            const auto bv = b[static_cast<std::size_t>(a.col[static_cast<std::size_t>(e)] * bs + c + col * N)];
            acc += cld(av.real(), av.imag()) * cld(bv.real(), bv.imag());
            mag += std::abs(av) * std::abs(bv);
          }
        const std::size_t ci = static_cast<std::size_t>(i + col * N);
        const cld want = cld(alpha.real(), alpha.imag()) * acc + cld(beta.real(), beta.imag()) * cld(c0[ci].real(), c0[ci].imag());
        const auto got = get(C, v, ci);
        const long double err = std::abs(cld(got.real(), got.imag()) - want);
        const long double scale = std::abs(alpha) * mag + std::abs(beta) * std::abs(c0[ci]);
        long double bnd = 0;
        if (v == sp::Value::c32) {
          const long double t = static_cast<long double>(2 * k + 6) * 0x1p-24L;
          bnd = std::sqrt(2.0L) * t / (1 - t) * scale;
        } else {
          bnd = (cplx ? 2.0L : 1.0L) * (0x1p-50L * k * max_a * max_b * std::abs(alpha) + 4 * 0x1p-53L * scale);
        }
        r.max_ratio = std::max(r.max_ratio, static_cast<double>(err / std::max(bnd, 1e-300L)));
      }
    }
  return r;
}

const char* path_of(sp::Value v) { return v == sp::Value::c32 ? " (TensorE, 2x2 embedding)" : " (Ozaki GEMM per block row)"; }
std::string bound_of(sp::Value v) {
  return v == sp::Value::c32 ? "sqrt(2) gamma32_{2k+6} (|a||A||B| + |b||C|)"
                             : std::string(v == sp::Value::c64 ? "2 " : "") + "(2^-50 k max|a| max|b| |a| + 4 u64 (|a||A||B| + |b||C|))";
}

void add_sparse_block_wide(Registry& reg) {
  for (sp::Value v : {sp::Value::c32, sp::Value::f64, sp::Value::c64})
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{16}}) {
      const std::string op = n == 1 ? "spmv_bsr" : "spmm_bsr";
      reg.add(ValidationCase{
          .suite = "sparse", .library = "trnsparse", .op = op, .mode = std::string(sp::value_name(v)) + path_of(v),
          .shape = n == 1 ? "256x256 of 16-blocks, 10%" : "256x256 of 16-blocks, 10% x 16", .metric = "max_err_over_bound",
          .bound_text = bound_of(v),
          .run = [v, n] {
            const Run run = block_product(16, 16, 0.1, n, v, trn::Generation::trn1);
            return ratio_case(run, "max |err| / bound vs a long-double loop; stored " + std::to_string(run.stored));
          }});
      reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = op,
                        .variant = std::string(sp::value_name(v)) + path_of(v),
                        .shape = n == 1 ? "1024x1024 of 64-blocks, 10%" : "1024x1024 of 64-blocks, 10% x 16",
                        .run = [v, n](trn::Generation target) {
                          const Run run = block_product(16, 64, 0.1, n, v, target);
                          BenchResult b;
                          b.error = run.max_ratio;
                          b.error_metric = "max_err_over_bound";
                          b.host_seconds = run.host_seconds;
                          b.flops = (v == sp::Value::f64 ? 2.0 : 8.0) * static_cast<double>(run.stored * n);
                          b.device = DeviceCost::from(run.profile);
                          // Issue #28's crossover column: the block density (16 x 16 block grid, lo 1/256) at
                          // which the dense GEMM 1024 x n x 1024 (cgemm 4M / Ozaki dgemm / zgemm 4M) is as fast.
                          set_gemm_crossover(b, target, v, 1024, n, 1024, 0.1, run.profile.total_ns, 1.0 / 256.0, 1.0,
                                             [v, n, target](double d) {
                                               return block_product(16, 64, d, n, v, target, true).profile.total_ns;
                                             });
                          return b;
                        }});
    }
}
const Registrar kBlockWideRegistrar(add_sparse_block_wide);

}  // namespace
}  // namespace trnsci::cli
