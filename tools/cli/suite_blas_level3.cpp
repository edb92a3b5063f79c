// Validation and benchmark cases of suite "blas" for trnblas's Level 3 beyond GEMM: STRSM (blocked
// substitution: VectorE diagonal blocks, TensorE updates) and complex GEMM (4M and 3M), judged by
// the bounds derived in docs/trnblas.md "Level 3", with OpenBLAS's figure on the same data as a note.
#include <cblas.h>

#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <vector>

#include "blas_reference.hpp"
#include "registry.hpp"
#include "trn/blas/level3.hpp"

namespace trnsci::cli {
namespace {

using Cf = std::complex<float>;

double gamma_u(double k, double u) { return k * u / (1.0 - k * u); }

// Uniform(-1, 1) floats: the generator the tests use (tests/reference/blas_reference.hpp).
std::vector<float> uniform(std::size_t n, std::uint64_t seed) { return blastest::uniform_f(n, seed); }

// Largest componentwise residual of op(A) X = B (left, lower, N) relative to |B| + |A| |X|, in double.
double residual_ratio(int m, int n, const std::vector<float>& A, const std::vector<float>& B, const std::vector<float>& X) {
  double worst = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double r = B[i + j * m], mag = std::fabs(r);
      for (int l = 0; l <= i; ++l) {
        r -= double(A[i + l * m]) * X[l + j * m];
        mag += std::fabs(double(A[i + l * m]) * X[l + j * m]);
      }
      worst = std::max(worst, std::fabs(r) / mag);
    }
  return worst;
}

struct TrsmRun {
  CaseResult result;
  BenchResult bench;
};

// STRSM left/lower/N/non-unit, m x m triangle with diagonal in [1, 2) and off-diagonals 2/m U(-1,1);
// metric: max componentwise residual |B - A X| / (|B| + |A||X|); bound gamma_{m+3}, u = 2^-24.
TrsmRun strsm_run(int m, int n, trn::Generation target) {
  std::vector<float> A = uniform(static_cast<std::size_t>(m) * m, 21);
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) {
      float& a = A[static_cast<std::size_t>(i + j * m)];
      a = i == j ? 1.0f + std::fabs(a) : i > j ? a * 2.0f / float(m) : NAN;  // upper triangle never read
    }
  const std::vector<float> B = uniform(static_cast<std::size_t>(m) * n, 22);
  std::vector<float> X = B, R = B;
  trn::blas::Settings s;
  s.target = target;
  trn::blas::CallReport rep;
  const double t0 = now_seconds();
  trn::blas::strsm(s, trn::blas::GemmMode::fp32, trn::blas::Side::left, trn::blas::Uplo::lower, trn::blas::Op::N,
                   trn::blas::Diag::non_unit, m, n, 1.0f, A.data(), m, X.data(), m, &rep);
  const double secs = seconds_since(t0);
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < j; ++i) A[static_cast<std::size_t>(i + j * m)] = 0.0f;  // OpenBLAS: same data, zeros
  cblas_strsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, m, n, 1.0f, A.data(), m, R.data(), m);
  TrsmRun out;
  CaseResult& r = out.result;
  r.measured = residual_ratio(m, n, A, B, X);
  r.bound = gamma_u(m + 3.0, 0x1p-24);
  r.pass = r.measured <= r.bound;
  r.note = "OpenBLAS STRSM " + sci(residual_ratio(m, n, A, B, R));
  r.host_seconds = secs;
  r.device = DeviceCost::from(rep.profile);
  out.bench.error = r.measured;
  out.bench.error_metric = "max_comp_residual";
  out.bench.host_seconds = secs;
  out.bench.flops = double(m) * m * n;
  out.bench.device = r.device;
  return out;
}

// Complex GEMM C = A B (m = n = k), metric: max over components of |error| / M, M the magnitude
// the algorithm's bound uses (4M: sum |Ar||Br| + |Ai||Bi| for Re, |Ar||Bi| + |Ai||Br| for Im; 3M:
// Im uses sum (|Ar| + |Ai|)(|Br| + |Bi|) + |Ar||Br| + |Ai||Bi|); bound gamma_{2k} (4M) or
// gamma_{k+4} (3M). The reference is OpenBLAS's cblas_zgemm on the promoted data.
TrsmRun cgemm_run(trn::blas::ComplexAlgo algo, int n, trn::Generation target) {
  const std::vector<float> a = uniform(2ull * n * n, 31), b = uniform(2ull * n * n, 32);
  const auto* A = reinterpret_cast<const Cf*>(a.data());
  const auto* B = reinterpret_cast<const Cf*>(b.data());
  std::vector<Cf> C(static_cast<std::size_t>(n) * n);
  trn::blas::Settings s;
  s.target = target;
  trn::blas::CallReport rep;
  const double t0 = now_seconds();
  trn::blas::cgemm(s, trn::blas::GemmMode::fp32, algo, trn::blas::COp::N, trn::blas::COp::N, n, n, n, Cf(1), A, n, B,
                   n, Cf(0), C.data(), n, &rep);
  const double secs = seconds_since(t0);
  std::vector<std::complex<double>> Ad(C.size()), Bd(C.size()), R(C.size());
  for (std::size_t i = 0; i < C.size(); ++i) {
    Ad[i] = {A[i].real(), A[i].imag()};
    Bd[i] = {B[i].real(), B[i].imag()};
  }
  const std::complex<double> one(1.0), zero(0.0);
  cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, &one, Ad.data(), n, Bd.data(), n, &zero, R.data(), n);
  const bool four = algo == trn::blas::ComplexAlgo::four_m;
  double worst = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      double mr = 0, mi = 0, sum = 0;
      for (int l = 0; l < n; ++l) {
        const auto x = Ad[static_cast<std::size_t>(i + l * n)], y = Bd[static_cast<std::size_t>(l + j * n)];
        const double ar = std::fabs(x.real()), ai = std::fabs(x.imag()), br = std::fabs(y.real()), bi = std::fabs(y.imag());
        mr += ar * br + ai * bi;
        mi += ar * bi + ai * br;
        sum += (ar + ai) * (br + bi);
      }
      const std::size_t x = static_cast<std::size_t>(i + j * n);
      worst = std::max(worst, std::fabs(double(C[x].real()) - R[x].real()) / mr);
      worst = std::max(worst, std::fabs(double(C[x].imag()) - R[x].imag()) / (four ? mi : sum + mr));
    }
  TrsmRun out;
  CaseResult& r = out.result;
  r.measured = worst;
  r.bound = four ? gamma_u(2.0 * n, 0x1p-24) : gamma_u(n + 4.0, 0x1p-24);
  r.pass = r.measured <= r.bound;
  r.note = four ? "one real GEMM of the real representation" : "Gauss: 3 real GEMMs + VectorE sums";
  r.host_seconds = secs;
  r.device = DeviceCost::from(rep.profile);
  out.bench.error = worst;
  out.bench.error_metric = "max_comp_rel";
  out.bench.host_seconds = secs;
  out.bench.flops = 8.0 * n * n * n;
  out.bench.device = r.device;
  return out;
}

void add_blas_level3(Registry& reg) {
  auto add = reg.adder("blas", "trnblas");
  for (int m : {200, 512})
    add({.op = "strsm", .mode = "fp32 LLNN", .shape = std::to_string(m) + "x" + std::to_string(m),
         .metric = "max_comp_residual", .bound_text = "gamma_{m+3} (substitution, Higham Thm 8.5; docs/trnblas.md)",
         .size = static_cast<double>(m), .full_only = m > 256,
         .run = [m] { return strsm_run(m, m, trn::Generation::trn1).result; }});
  for (auto algo : {trn::blas::ComplexAlgo::four_m, trn::blas::ComplexAlgo::three_m})
    add({.op = algo == trn::blas::ComplexAlgo::four_m ? "cgemm" : "cgemm3m", .mode = "fp32", .shape = "128^3",
         .metric = "max_comp_rel",
         .bound_text = algo == trn::blas::ComplexAlgo::four_m ? "gamma_2k of the componentwise magnitude (4M)"
                                                              : "gamma_{k+4} of Higham's 3M magnitude",
         .size = 128, .run = [algo] { return cgemm_run(algo, 128, trn::Generation::trn1).result; }});
  reg.add(BenchCase{.suite = "blas", .library = "trnblas", .op = "strsm", .variant = "fp32", .shape = "512x512",
                    .run = [](trn::Generation t) { return strsm_run(512, 512, t).bench; }});
  for (auto algo : {trn::blas::ComplexAlgo::four_m, trn::blas::ComplexAlgo::three_m})
    reg.add(BenchCase{.suite = "blas", .library = "trnblas", .op = "cgemm",
                      .variant = algo == trn::blas::ComplexAlgo::four_m ? "4M" : "3M", .shape = "256^3",
                      .run = [algo](trn::Generation t) { return cgemm_run(algo, 256, t).bench; }});
}

const Registrar kRegistrar(add_blas_level3);

}  // namespace
}  // namespace trnsci::cli
