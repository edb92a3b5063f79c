// Validation and benchmark cases of trnsparse's Krylov solvers on CSR operators in every value type
// with ILU(0) / IC(0) preconditioning (trn/sparse/krylov_generic.hpp; docs/trnsparse.md "Krylov
// solvers in fp64 and complex"): CG + IC(0) on a g x g shifted Poisson operator (diagonal 4.6;
// complex: Hermitian, 0.25i east / west couplings, norm <= 0.5 < the shift: still definite),
// BiCGStab + ILU(0) and GMRES(30) + ILU(0) on convection-diffusion (complex: non-Hermitian). The metric is the TRUE residual ||b - A x||_2 / ||b||_2 of the returned x,
// computed in long double from the stored operator, over the documented bound
//     10 tol + 100 n u_s     (tol 1e-10 for 64-bit values, 1e-5 for 32-bit; u_s the storage unit
//                            roundoff: the recursive-vs-true residual gap, Greenbaum §7.3)
// and the case fails also when the solve does not report convergence.
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "registry.hpp"
#include "trn/sparse/krylov_generic.hpp"

namespace trnsci::cli {
namespace {

namespace sp = trn::sparse;
using cld = std::complex<long double>;

struct Run {
  double max_ratio = 0;
  double host_seconds = 0;
  int iterations = 0;
  trn::Profile profile;
};

enum class Method { cg, bicgstab, gmres };

template <class T>
Run krylov_run_typed(Method m, std::int64_t g, sp::Value v, trn::Generation target) {
  const std::int64_t n = g * g;
  const bool cx = sp::value_is_complex(v), single = sp::value_is_single(v);
  const double conv = m == Method::cg ? 0.0 : 1.5, im = cx ? (m == Method::cg ? 0.25 : 0.4) : 0.0;
  std::vector<std::int32_t> row{0}, col;
  std::vector<T> val;
  auto put = [&](std::int64_t j, double re, double imag) {
    col.push_back(static_cast<std::int32_t>(j));
    if constexpr (std::is_floating_point_v<T>) val.push_back(static_cast<T>(re));
    else val.push_back(T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(imag)));
  };
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t x = i % g;
    if (i >= g) put(i - g, -1, 0);
    if (x > 0) put(i - 1, -1 - conv, -im);
    put(i, (m == Method::cg ? 4.6 : 4.0) + conv, 0);  // CG: shifted so the Hermitian 0.25i couplings keep it definite
    if (x + 1 < g) put(i + 1, -1, im);
    if (i + g < n) put(i + g, -1, 0);
    row.push_back(static_cast<std::int32_t>(col.size()));
  }
  std::vector<T> b(static_cast<std::size_t>(n)), xs(b.size());
  for (std::int64_t i = 0; i < n; ++i) {
    const double re = std::sin(0.37 * static_cast<double>(i) + 0.2), ii = std::cos(0.11 * static_cast<double>(i));
    if constexpr (std::is_floating_point_v<T>) b[static_cast<std::size_t>(i)] = static_cast<T>(re);
    else b[static_cast<std::size_t>(i)] = T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(ii));
  }
  const sp::SparseRef A{sp::SparseRef::Format::csr, n, n, static_cast<std::int64_t>(col.size()), row.data(), col.data(),
                        val.data(), sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, v};
  sp::Settings s;
  s.target = target;
  sp::GenericKrylovOptions opt;
  const double tol = single ? 1e-5 : 1e-10;
  opt.tolerance = tol;
  opt.max_iterations = 4000;
  opt.precond = m == Method::cg ? sp::KrylovPreconditioner::ic0 : sp::KrylovPreconditioner::ilu0;
  const double t0 = now_seconds();
  const sp::KrylovResult r = m == Method::cg         ? sp::cg(s, A, b.data(), xs.data(), opt)
                             : m == Method::bicgstab ? sp::bicgstab(s, A, b.data(), xs.data(), opt)
                                                     : sp::gmres(s, A, b.data(), xs.data(), opt);
  Run out;
  out.host_seconds = seconds_since(t0);
  out.profile = r.profile;
  out.iterations = r.iterations;
  long double rn = 0, bn = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    cld acc(b[static_cast<std::size_t>(i)]);
    for (std::int32_t e = row[static_cast<std::size_t>(i)]; e < row[static_cast<std::size_t>(i) + 1]; ++e)
      acc -= cld(val[static_cast<std::size_t>(e)]) * cld(xs[static_cast<std::size_t>(col[static_cast<std::size_t>(e)])]);
    rn += std::norm(acc);
    bn += std::norm(cld(b[static_cast<std::size_t>(i)]));
  }
  const long double bound = 10 * tol + 100.0L * static_cast<long double>(n) * (single ? 0x1p-24L : 0x1p-53L);
  out.max_ratio = r.converged ? static_cast<double>(std::sqrt(rn / bn) / bound) : INFINITY;
  return out;
}

Run krylov_run(Method m, std::int64_t g, sp::Value v, trn::Generation target) {
  switch (v) {
    case sp::Value::f32: return krylov_run_typed<float>(m, g, v, target);
    case sp::Value::f64: return krylov_run_typed<double>(m, g, v, target);
    case sp::Value::c32: return krylov_run_typed<std::complex<float>>(m, g, v, target);
    default: return krylov_run_typed<std::complex<double>>(m, g, v, target);
  }
}

void add_sparse_krylov(Registry& reg) {
  const sp::Value types[] = {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64};
  for (const Method m : {Method::cg, Method::bicgstab, Method::gmres})
    for (sp::Value v : types) {
      const char* op = m == Method::cg ? "csr_cg" : m == Method::bicgstab ? "csr_bicgstab" : "csr_gmres";
      const std::string mode = std::string(sp::value_name(v)) + (m == Method::cg ? ", IC(0)" : ", ILU(0)");
      reg.add(ValidationCase{
          .suite = "sparse", .library = "trnsparse", .op = op, .mode = mode, .shape = "24x24 5-point grid (576 rows)",
          .metric = "residual_over_bound",
          .bound_text = "true ||b - A x|| / ||b|| <= 10 tol + 100 n u_s (tol 1e-10 / 1e-5; recursive-vs-true residual gap)",
          .run = [m, v] {
            const Run r = krylov_run(m, 24, v, trn::Generation::trn1);
            return ratio_case(r, std::to_string(r.iterations) + " iterations; long-double true residual of the returned x");
          }});
      reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = op, .variant = mode + ", host steps + SpMV",
                        .shape = "64x64 5-point grid",
                        .run = [m, v](trn::Generation target) {
                          const Run r = krylov_run(m, 64, v, target);
                          return bench_of(ratio_case(r, ""), "residual_over_bound", r.profile.host_flops);
                        }});
    }
}

const Registrar kRegistrar(add_sparse_krylov);

}  // namespace
}  // namespace trnsci::cli
