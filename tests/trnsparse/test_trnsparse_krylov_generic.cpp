// trnsparse Krylov solvers on CSR operators in fp32 / fp64 / complex-fp32 / complex-fp64 with
// Jacobi, ILU(0) and IC(0) preconditioning (trn/sparse/krylov_generic.hpp, issue #28), against an
// independent dense long-double (complex<long double>) Gaussian elimination written here:
//   - converged: the solver's residual <= tol, the true residual ||b - A x||_1 / ||b||_1 (long
//     double) <= 10 tol + a storage-roundoff term, and the forward error
//     ||x - x*||_1 / ||x*||_1 <= kappa_1(A) * that true residual (kappa_1 from the long-double
//     inverse: the bound is an inequality of norms, so it cannot pass by luck);
//   - two-sided: CG's iteration count within 10% (+2) of a long-double CG written here (same
//     recurrence), GMRES's least-squares residual non-increasing within a cycle;
//   - preconditioning: IC(0) CG and ILU(0) BiCGStab / GMRES take fewer iterations than the
//     unpreconditioned solve on a Poisson-like operator (at most 60% of them), same solution bound;
//   - bits independent of the settings' core count; NaN in b stops as a breakdown with x finite;
//   - the C API: value types, NOT_SUPPORTED combinations, a zero pivot -> INVALID_VALUE at matA with
//     outputs untouched;
//   - the SpMV operand converted once per solve (src/prepared_operand.hpp): its products equal the
//     one-shot SpMV bit for bit in output and modeled time, and a second solve after A's values
//     changed in place sees the new values (nothing is kept across solves).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <tuple>
#include <type_traits>
#include <vector>

#include "../../trnsparse/src/prepared_operand.hpp"
#include "../../trnsparse/src/triangular_replay.hpp"
#include "trn/core/report_observer.hpp"
#include "trn/core/dtype.hpp"
#include "trn/sparse/krylov_generic.hpp"
#include "trnsparse.h"

namespace sp = trn::sparse;

namespace {

using LD = long double;
template <class T>
constexpr bool kCx = !std::is_floating_point_v<T>;
template <class T>
using Ref = std::conditional_t<kCx<T>, std::complex<LD>, LD>;
template <class T>
constexpr sp::Value kVal = std::is_same_v<T, float>    ? sp::Value::f32
                           : std::is_same_v<T, double> ? sp::Value::f64
                           : std::is_same_v<T, std::complex<float>> ? sp::Value::c32
                                                                    : sp::Value::c64;
template <class T>
constexpr double kUnit = std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>> ? 0x1p-24 : 0x1p-53;

template <class T>
struct Csr {
  std::int64_t n = 0;
  std::vector<std::int32_t> row{0}, col;
  std::vector<T> val;
  sp::SparseRef ref() {
    return {sp::SparseRef::Format::csr, n, n, static_cast<std::int64_t>(col.size()), row.data(), col.data(), val.data(),
            sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, kVal<T>};
  }
};

// The N x N 5-point operator: diagonal d, couplings -1 to the west / east / south / north, plus
// convection c on the west coupling (first-order upwind: -1 - c) and, for complex values, an
// imaginary part ih on the east / west pair (+i h east, -i h west: Hermitian when c = 0).
template <class T>
Csr<T> grid(int N, double d, double c, double h) {
  Csr<T> a;
  a.n = N * N;
  auto put = [&](int j, double re, double im) {
    a.col.push_back(j);
    if constexpr (kCx<T>) a.val.push_back(T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(im)));
    else a.val.push_back(static_cast<T>(re));
  };
  for (int i = 0; i < a.n; ++i) {
    const int x = i % N, y = i / N;
    if (y > 0) put(i - N, -1, 0);
    if (x > 0) put(i - 1, -1 - c, -h);
    put(i, d + c, 0);
    if (x + 1 < N) put(i + 1, -1, h);
    if (y + 1 < N) put(i + N, -1, 0);
    a.row.push_back(static_cast<std::int32_t>(a.col.size()));
  }
  return a;
}

template <class T>
std::vector<Ref<T>> dense(const Csr<T>& a) {
  std::vector<Ref<T>> A(static_cast<std::size_t>(a.n * a.n));
  for (std::int64_t i = 0; i < a.n; ++i)
    for (std::int32_t e = a.row[i]; e < a.row[i + 1]; ++e) A[i * a.n + a.col[e]] = Ref<T>(a.val[e]);
  return A;
}

// x = A^-1 B column by column (Gauss-Jordan with partial pivoting in long double); B n x k row-major.
template <class V>
std::vector<V> solve_dense(std::vector<V> A, std::vector<V> B, std::int64_t n, std::int64_t k) {
  for (std::int64_t c = 0; c < n; ++c) {
    std::int64_t p = c;
    for (std::int64_t r = c + 1; r < n; ++r)
      if (std::abs(A[r * n + c]) > std::abs(A[p * n + c])) p = r;
    for (std::int64_t j = 0; j < n; ++j) std::swap(A[c * n + j], A[p * n + j]);
    for (std::int64_t j = 0; j < k; ++j) std::swap(B[c * k + j], B[p * k + j]);
    for (std::int64_t r = 0; r < n; ++r) {
      if (r == c) continue;
      const V f = A[r * n + c] / A[c * n + c];
      if (f == V{}) continue;
      for (std::int64_t j = c; j < n; ++j) A[r * n + j] -= f * A[c * n + j];
      for (std::int64_t j = 0; j < k; ++j) B[r * k + j] -= f * B[c * k + j];
    }
  }
  for (std::int64_t r = 0; r < n; ++r)
    for (std::int64_t j = 0; j < k; ++j) B[r * k + j] /= A[r * n + r];
  return B;
}

template <class V>
LD norm1(const std::vector<V>& v) {
  LD s = 0;
  for (const V& e : v) s += std::abs(e);
  return s;
}
// kappa_1(A) = ||A||_1 ||A^-1||_1 (max column sums).
template <class V>
LD kappa1(const std::vector<V>& A, std::int64_t n) {
  std::vector<V> I(static_cast<std::size_t>(n * n));
  for (std::int64_t i = 0; i < n; ++i) I[i * n + i] = V(1);
  const std::vector<V> inv = solve_dense(A, I, n, n);
  auto colmax = [n](const std::vector<V>& M) {
    LD m = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      LD s = 0;
      for (std::int64_t i = 0; i < n; ++i) s += std::abs(M[i * n + j]);
      m = std::max(m, s);
    }
    return m;
  };
  return colmax(A) * colmax(inv);
}

template <class T>
std::vector<T> rhs(std::int64_t n) {
  std::vector<T> b(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const double re = std::sin(0.37 * static_cast<double>(i) + 0.2), im = std::cos(0.11 * static_cast<double>(i));
    if constexpr (kCx<T>) b[i] = T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(im));
    else b[i] = static_cast<T>(re);
  }
  return b;
}

// What a solve is checked against: the long-double solution, kappa_1, and the true residual.
template <class T>
struct Oracle {
  std::vector<Ref<T>> A, x;
  LD kappa = 0, bnorm = 0;
  std::int64_t n = 0;
  Oracle(const Csr<T>& a, const std::vector<T>& b) : A(dense(a)), n(a.n) {
    std::vector<Ref<T>> bb(b.begin(), b.end());
    x = solve_dense(A, bb, n, 1);
    kappa = kappa1(A, n);
    bnorm = norm1(bb);
  }
  // ||b - A x||_1 / ||b||_1 and ||x - x*||_1 / ||x*||_1 in long double.
  std::pair<LD, LD> errors(const std::vector<T>& b, const std::vector<T>& xs) const {
    std::vector<Ref<T>> r(static_cast<std::size_t>(n)), e(r);
    for (std::int64_t i = 0; i < n; ++i) {
      Ref<T> acc = Ref<T>(b[i]);
      for (std::int64_t j = 0; j < n; ++j) acc -= A[i * n + j] * Ref<T>(xs[j]);
      r[i] = acc;
      e[i] = Ref<T>(xs[i]) - x[i];
    }
    return {norm1(r) / bnorm, norm1(e) / norm1(x)};
  }
};

using Solver = sp::KrylovResult (*)(const sp::Settings&, const sp::SparseRef&, const void*, void*,
                                    const sp::GenericKrylovOptions&);

// Solve and check convergence, the true residual and the forward-error bound; returns the result.
template <class T>
sp::KrylovResult check_solve(Solver solve, Csr<T>& a, const Oracle<T>& o, const std::vector<T>& b, double tol,
                             sp::KrylovPreconditioner pc, int restart = 30, std::vector<T>* out = nullptr) {
  sp::Settings s;
  sp::GenericKrylovOptions opt;
  opt.tolerance = tol;
  opt.max_iterations = 2000;
  opt.precond = pc;
  opt.restart = restart;
  std::vector<T> x(b.size());
  const sp::KrylovResult r = solve(s, a.ref(), b.data(), x.data(), opt);
  EXPECT_TRUE(r.converged) << "iterations " << r.iterations;
  EXPECT_FALSE(r.breakdown);
  EXPECT_LE(r.residual_history.back(), tol);
  const auto [res, err] = o.errors(b, x);
  // Recursive vs true residual: the gap is a few storage roundoffs times kappa-free growth terms
  // (Greenbaum §7.3); 10 tol + 100 n u covers it with room and still fails a wrong solution.
  const LD bound = 10 * tol + 100.0L * static_cast<LD>(a.n) * kUnit<T>;
  EXPECT_LE(res, bound) << "true residual";
  EXPECT_LE(err, o.kappa * res * 1.0001L + 1e-30L) << "forward error vs kappa_1 " << static_cast<double>(o.kappa);
  if (std::getenv("KRYLOV_VERBOSE"))
    std::printf("  %s pc %d: %d it, history %.3g, true residual %.3Lg, error %.3Lg, kappa_1 %.3Lg, modeled %.3g us\n",
                sp::value_name(kVal<T>), static_cast<int>(pc), r.iterations, r.residual_history.back(), res, err, o.kappa,
                r.modeled_ns * 1e-3);
  if (out) *out = x;
  return r;
}

// A long-double CG (same recurrence, no preconditioner): the iteration count to reach tol.
template <class T>
int reference_cg_iterations(const Oracle<T>& o, const std::vector<T>& b, double tol) {
  using V = Ref<T>;
  const std::int64_t n = o.n;
  std::vector<V> x(n), r(b.begin(), b.end()), p(r), q(n);
  auto dot = [&](const std::vector<V>& u, const std::vector<V>& v) {
    V s{};
    for (std::int64_t i = 0; i < n; ++i) {
      if constexpr (kCx<T>) s += std::conj(u[i]) * v[i];
      else s += u[i] * v[i];
    }
    return s;
  };
  const LD bn = std::sqrt(std::abs(dot(r, r)));
  V rho = dot(r, r);
  for (int it = 0; it < 5000; ++it) {
    if (std::sqrt(std::abs(rho)) / bn <= tol) return it;
    for (std::int64_t i = 0; i < n; ++i) {
      q[i] = V{};
      for (std::int64_t j = 0; j < n; ++j) q[i] += o.A[i * n + j] * p[j];
    }
    const V a = rho / dot(p, q);
    for (std::int64_t i = 0; i < n; ++i) {
      x[i] += a * p[i];
      r[i] -= a * q[i];
    }
    const V rn = dot(r, r);
    for (std::int64_t i = 0; i < n; ++i) p[i] = r[i] + (rn / rho) * p[i];
    rho = rn;
  }
  return -1;
}

template <class T>
class KrylovGeneric : public ::testing::Test {};
using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(KrylovGeneric, Types);

template <class T>
double tol_of() {
  return kUnit<T> < 1e-10 ? 1e-10 : 1e-5;
}

// CG on the (complex: Hermitian) shifted 2-D operator, 10 x 10, every preconditioner.
TYPED_TEST(KrylovGeneric, CgHermitianPositiveDefinite) {
  using T = TypeParam;
  Csr<T> a = grid<T>(10, 4.3, 0.0, kCx<T> ? 0.25 : 0.0);
  const std::vector<T> b = rhs<T>(a.n);
  const Oracle<T> o(a, b);
  const double tol = tol_of<T>();
  const sp::KrylovResult plain = check_solve<T>(sp::cg, a, o, b, tol, sp::KrylovPreconditioner::none);
  const int ref = reference_cg_iterations(o, b, tol);
  ASSERT_GT(ref, 0);
  EXPECT_LE(std::abs(plain.iterations - ref), ref / 10 + 2) << "long-double CG: " << ref;
  check_solve<T>(sp::cg, a, o, b, tol, sp::KrylovPreconditioner::jacobi);
  const sp::KrylovResult ic = check_solve<T>(sp::cg, a, o, b, tol, sp::KrylovPreconditioner::ic0);
  const sp::KrylovResult ilu = check_solve<T>(sp::cg, a, o, b, tol, sp::KrylovPreconditioner::ilu0);
  EXPECT_LT(ic.iterations, plain.iterations);
  EXPECT_EQ(ilu.iterations > 0, true);
}

// BiCGStab and GMRES(20) on the convection-diffusion operator (nonsymmetric; complex: non-Hermitian).
TYPED_TEST(KrylovGeneric, NonsymmetricBicgstabAndGmres) {
  using T = TypeParam;
  Csr<T> a = grid<T>(10, 4.0, 1.5, kCx<T> ? 0.4 : 0.0);
  const std::vector<T> b = rhs<T>(a.n);
  const Oracle<T> o(a, b);
  const double tol = tol_of<T>();
  for (auto pc : {sp::KrylovPreconditioner::none, sp::KrylovPreconditioner::jacobi, sp::KrylovPreconditioner::ilu0}) {
    check_solve<T>(sp::bicgstab, a, o, b, tol, pc);
    const sp::KrylovResult g = check_solve<T>(sp::gmres, a, o, b, tol, pc, 20);
    // Within a cycle the least-squares residual never increases (GMRES minimises it over a
    // growing space); the first cycle is entries 1 .. min(20, iterations).
    for (std::size_t k = 2; k < g.residual_history.size() && k <= 20; ++k)
      EXPECT_LE(g.residual_history[k], g.residual_history[k - 1] * (1 + 1e-6)) << k;
  }
}

// Preconditioning pays on a Poisson operator (16 x 16, diagonal 4: kappa ~ 100): IC(0) CG and
// ILU(0) BiCGStab / GMRES take at most 60% of the unpreconditioned iterations. Why it holds: IC(0)
// of the 5-point Laplacian reduces kappa from O(h^-2) by a constant factor ~ 3-4 (Meijerink & van der
// Vorst 1977), so CG's sqrt(kappa) iterations fall by ~ 2x; the assertion fails if the factor is not
// applied (or applied wrongly: then the solve does not converge).
TYPED_TEST(KrylovGeneric, IncompleteFactorsReduceIterations) {
  using T = TypeParam;
  Csr<T> a = grid<T>(16, 4.0, 0.0, 0.0);
  const std::vector<T> b = rhs<T>(a.n);
  const Oracle<T> o(a, b);
  const double tol = tol_of<T>();
  const auto none = check_solve<T>(sp::cg, a, o, b, tol, sp::KrylovPreconditioner::none);
  const auto ic = check_solve<T>(sp::cg, a, o, b, tol, sp::KrylovPreconditioner::ic0);
  EXPECT_LE(ic.iterations * 10, none.iterations * 6) << ic.iterations << " vs " << none.iterations;
  const auto bn = check_solve<T>(sp::bicgstab, a, o, b, tol, sp::KrylovPreconditioner::none);
  const auto bi = check_solve<T>(sp::bicgstab, a, o, b, tol, sp::KrylovPreconditioner::ilu0);
  EXPECT_LE(bi.iterations * 10, bn.iterations * 6) << bi.iterations << " vs " << bn.iterations;
  const auto gn = check_solve<T>(sp::gmres, a, o, b, tol, sp::KrylovPreconditioner::none, 40);
  const auto gi = check_solve<T>(sp::gmres, a, o, b, tol, sp::KrylovPreconditioner::ilu0, 40);
  EXPECT_LE(gi.iterations * 10, gn.iterations * 6) << gi.iterations << " vs " << gn.iterations;
}

// Same bits whatever the settings' core count (1 or 4), and a NaN in b stops as a breakdown.
TYPED_TEST(KrylovGeneric, CoreCountAndNonFinite) {
  using T = TypeParam;
  Csr<T> a = grid<T>(8, 4.5, 0.5, kCx<T> ? 0.3 : 0.0);
  std::vector<T> b = rhs<T>(a.n);
  sp::GenericKrylovOptions opt;
  opt.tolerance = tol_of<T>();
  opt.precond = sp::KrylovPreconditioner::ilu0;
  for (Solver solve : {Solver(sp::bicgstab), Solver(sp::gmres)}) {
    sp::Settings one, four;
    four.num_cores = 4;
    std::vector<T> x1(b.size()), x4(b.size());
    const auto r1 = solve(one, a.ref(), b.data(), x1.data(), opt), r4 = solve(four, a.ref(), b.data(), x4.data(), opt);
    EXPECT_TRUE(r1.converged);
    EXPECT_EQ(r1.iterations, r4.iterations);
    EXPECT_EQ(std::memcmp(x1.data(), x4.data(), x1.size() * sizeof(T)), 0);
  }
  b[3] = T(std::numeric_limits<float>::quiet_NaN());
  for (Solver solve : {Solver(sp::cg), Solver(sp::bicgstab), Solver(sp::gmres)}) {
    std::vector<T> x(b.size(), T(1));
    const auto r = solve(sp::Settings{}, a.ref(), b.data(), x.data(), opt);
    EXPECT_TRUE(r.breakdown && r.nonfinite && !r.converged);
    EXPECT_LE(r.iterations, 1);
    for (const T& e : x) EXPECT_TRUE(std::isfinite(std::abs(e)));
  }
}

// A matrix that is not positive definite on its pattern: IC(0) reports a zero pivot at matA.
TEST(KrylovGenericErrors, ZeroPivotAndShape) {
  Csr<double> a = grid<double>(4, 4.0, 0.0, 0.0);
  a.val[0] = -1.0;  // a_00 < 0
  std::vector<double> b = rhs<double>(a.n), x(b.size(), 7.0);
  sp::GenericKrylovOptions opt;
  opt.precond = sp::KrylovPreconditioner::ic0;
  try {
    sp::cg(sp::Settings{}, a.ref(), b.data(), x.data(), opt);
    ADD_FAILURE() << "no exception";
  } catch (const sp::InvalidArgument& e) {
    EXPECT_EQ(e.item(), "matA");
  }
  for (double v : x) EXPECT_EQ(v, 7.0);
  opt.precond = sp::KrylovPreconditioner::jacobi;
  a.val[0] = 0.0;
  EXPECT_THROW(sp::gmres(sp::Settings{}, a.ref(), b.data(), x.data(), opt), sp::InvalidArgument);
}

// The C API: CSR operators of each value type through trnsparseBsrCg / Bicgstab / Gmres.
TEST(KrylovGenericCApi, ValueTypesStatusesAndUntouchedOutputs) {
  trnsparseHandle_t h = nullptr;
  ASSERT_EQ(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
  Csr<std::complex<double>> a = grid<std::complex<double>>(6, 4.5, 0.0, 0.3);
  std::vector<std::complex<double>> b = rhs<std::complex<double>>(a.n), x(b.size());
  trnsparseSpMatDescr_t A = nullptr;
  trnsparseDnVecDescr_t vb = nullptr, vx = nullptr, vf = nullptr;
  ASSERT_EQ(trnsparseCreateCsr(&A, a.n, a.n, static_cast<int64_t>(a.col.size()), a.row.data(), a.col.data(), a.val.data(),
                               TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRN_C_64F),
            TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseCreateDnVec(&vb, a.n, b.data(), TRN_C_64F), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseCreateDnVec(&vx, a.n, x.data(), TRN_C_64F), TRNSPARSE_STATUS_SUCCESS);
  std::vector<float> xf(b.size(), 5.0f);
  ASSERT_EQ(trnsparseCreateDnVec(&vf, a.n, xf.data(), TRN_R_32F), TRNSPARSE_STATUS_SUCCESS);
  int it = -1, info = -1;
  std::vector<float> hist(51, -1.0f);
  EXPECT_EQ(trnsparseBsrCg(h, A, vb, vx, 1e-10f, 50, TRNSPARSE_PRECOND_IC0, &it, hist.data(), &info), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_GT(it, 0);
  EXPECT_LE(hist[static_cast<std::size_t>(it)], 1e-10f);
  const Oracle<std::complex<double>> o(a, b);
  EXPECT_LE(o.errors(b, x).first, 1e-9L);
  // Wrong vector type: INVALID_VALUE at vecX (3), outputs untouched.
  it = info = -1;
  EXPECT_EQ(trnsparseBsrGmres(h, A, vb, vf, 1e-10f, 50, 10, TRNSPARSE_PRECOND_ILU0, &it, nullptr, &info),
            TRNSPARSE_STATUS_INVALID_VALUE);
  int param = 0;
  trnsparseGetLastErrorParameter(h, &param);
  EXPECT_EQ(param, 3);
  EXPECT_EQ(it, -1);
  EXPECT_EQ(xf[0], 5.0f);
  // BLOCK_JACOBI on CSR: NOT_SUPPORTED; an unknown preconditioner: INVALID_VALUE at 6.
  EXPECT_EQ(trnsparseBsrBicgstab(h, A, vb, vx, 1e-10f, 50, TRNSPARSE_PRECOND_BLOCK_JACOBI, &it, nullptr, &info),
            TRNSPARSE_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(trnsparseBsrBicgstab(h, A, vb, vx, 1e-10f, 50, static_cast<trnsparsePreconditioner_t>(9), &it, nullptr, &info),
            TRNSPARSE_STATUS_INVALID_VALUE);
  trnsparseGetLastErrorParameter(h, &param);
  EXPECT_EQ(param, 6);
  // Not positive definite: IC(0) zero pivot -> INVALID_VALUE at matA (1), x untouched.
  a.val[0] = -2.0;
  const std::vector<std::complex<double>> before = x;
  EXPECT_EQ(trnsparseBsrCg(h, A, vb, vx, 1e-10f, 50, TRNSPARSE_PRECOND_IC0, &it, nullptr, &info),
            TRNSPARSE_STATUS_INVALID_VALUE);
  trnsparseGetLastErrorParameter(h, &param);
  EXPECT_EQ(param, 1);
  EXPECT_EQ(x, before);
  EXPECT_EQ(it, -1);
  trnsparseDestroyDnVec(vb);
  trnsparseDestroyDnVec(vx);
  trnsparseDestroyDnVec(vf);
  trnsparseDestroySpMat(A);
  trnsparseDestroy(h);
}

}  // namespace

namespace {

// bf16 vector storage in the R_32F CSR solvers, nearest-even vs stochastic rounding (Settings'
// stochastic_rounding / sr_seed, the emulator's SR switch).
struct Bf16Solve {
  sp::KrylovResult r;
  std::vector<float> x;
  LD residual = 0, error = 0;
};
Bf16Solve bf16_solve(Solver solve, Csr<float>& a, const Oracle<float>& o, const std::vector<float>& b, bool sr,
                     std::uint64_t seed, double tol) {
  sp::Settings s;
  s.stochastic_rounding = sr;
  s.sr_seed = seed;
  sp::GenericKrylovOptions opt;
  opt.tolerance = tol;
  opt.max_iterations = 120;
  opt.bf16_vectors = true;
  Bf16Solve out;
  out.x.assign(b.size(), 0.0f);
  out.r = solve(s, a.ref(), b.data(), out.x.data(), opt);
  std::tie(out.residual, out.error) = o.errors(b, out.x);
  if (std::getenv("KRYLOV_VERBOSE"))
    std::printf("  bf16 %s seed %llu: %d it, converged %d, history %.3g, true residual %.3Lg, error %.3Lg\n", sr ? "SR " : "RNE",
                static_cast<unsigned long long>(seed), out.r.iterations, out.r.converged ? 1 : 0, out.r.residual_history.back(),
                out.residual, out.error);
  return out;
}

TEST(KrylovBf16, StochasticRoundingIsSelectableReproducibleAndNoLessAccurate) {
  Csr<float> a = grid<float>(16, 4.0, 0.0, 0.0);
  const std::vector<float> b = rhs<float>(a.n);
  const Oracle<float> o(a, b);
  for (Solver solve : {Solver(sp::cg), Solver(sp::bicgstab), Solver(sp::gmres)}) {
    const Bf16Solve rne = bf16_solve(solve, a, o, b, false, 0, 1e-3);
    const Bf16Solve sr1 = bf16_solve(solve, a, o, b, true, 1, 1e-3), sr1b = bf16_solve(solve, a, o, b, true, 1, 1e-3);
    const Bf16Solve sr2 = bf16_solve(solve, a, o, b, true, 2, 1e-3);
    for (float v : rne.x) ASSERT_EQ(v, trn::bf16_to_f32(trn::f32_to_bf16_rne(v)));  // x is stored in bf16
    EXPECT_EQ(sr1.x, sr1b.x);  // reproducible for a seed
    EXPECT_NE(sr1.x, rne.x);   // SR changes bits
    EXPECT_NE(sr1.x, sr2.x);   // and the seed selects them
    // No accuracy lost: x is stored in bf16 either way, so both forward errors sit at ~ kappa u_bf16
    // (measured 0.006 .. 0.015 here, u_bf16 = 2^-8); SR's per-rounding error is at most one ulp
    // (RNE's half an ulp) and unbiased, so its error stays within twice RNE's. Fails if the SR
    // bits were biased or the rounding mis-applied (the error would then grow with the updates).
    for (const Bf16Solve* sr : {&sr1, &sr2}) {
      EXPECT_LE(sr->error, 2 * rne.error);
      EXPECT_LE(sr->error, o.kappa * sr->residual);
    }
  }
}

}  // namespace

// ---- issue #28, s10/spgaps: the C switch for bf16 vectors + SR, C_32F SpMV on TensorE, BSR
// operators of R_64F / C_32F / C_64F values ------------------------------------------------------
namespace {

using CApiSolver = trnsparseStatus_t (*)(trnsparseHandle_t, trnsparseConstSpMatDescr_t, trnsparseConstDnVecDescr_t,
                                         trnsparseDnVecDescr_t, float, int, trnsparsePreconditioner_t, int*, float*, int*);
trnsparseStatus_t c_gmres30(trnsparseHandle_t h, trnsparseConstSpMatDescr_t A, trnsparseConstDnVecDescr_t b,
                            trnsparseDnVecDescr_t x, float tol, int max_it, trnsparsePreconditioner_t pc, int* it, float* hist,
                            int* info) {
  return trnsparseBsrGmres(h, A, b, x, tol, max_it, 30, pc, it, hist, info);
}

template <class T>
trnDataType_t c_type() {
  return std::is_same_v<T, float> ? TRN_R_32F : std::is_same_v<T, double> ? TRN_R_64F
         : std::is_same_v<T, std::complex<float>> ? TRN_C_32F : TRN_C_64F;
}

// One C API solve of A x = b (x0 = 0) on a handle set up by the caller; x, the status and the profile.
struct CSolve {
  trnsparseStatus_t status = TRNSPARSE_STATUS_SUCCESS;
  int iterations = -1, info = -1, param = 0;  // param: GetLastErrorParameter right after the call
  trnProfile_t profile{};
};
template <class T>
CSolve c_solve(trnsparseHandle_t h, CApiSolver solve, trnsparseSpMatDescr_t A, const std::vector<T>& b, std::vector<T>& x,
               float tol, int max_it, trnsparsePreconditioner_t pc = TRNSPARSE_PRECOND_NONE) {
  trnsparseDnVecDescr_t vb = nullptr, vx = nullptr;
  EXPECT_EQ(trnsparseCreateDnVec(&vb, static_cast<int64_t>(b.size()), const_cast<T*>(b.data()), c_type<T>()), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(trnsparseCreateDnVec(&vx, static_cast<int64_t>(x.size()), x.data(), c_type<T>()), TRNSPARSE_STATUS_SUCCESS);
  CSolve out;
  out.status = solve(h, A, vb, vx, tol, max_it, pc, &out.iterations, nullptr, &out.info);
  trnsparseGetLastErrorParameter(h, &out.param);
  trnsparseGetLastProfile(h, &out.profile);
  trnsparseDestroyDnVec(vb);
  trnsparseDestroyDnVec(vx);
  return out;
}
template <class T>
trnsparseSpMatDescr_t c_csr(Csr<T>& a) {
  trnsparseSpMatDescr_t A = nullptr;
  EXPECT_EQ(trnsparseCreateCsr(&A, a.n, a.n, static_cast<int64_t>(a.col.size()), a.row.data(), a.col.data(), a.val.data(),
                               TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, c_type<T>()),
            TRNSPARSE_STATUS_SUCCESS);
  return A;
}

// trnsparseSetKrylovVectorType(TRN_R_16BF) + SetStochasticRounding: the C user gets exactly the C++
// API's bf16 / SR solves (bit for bit), SR changes bits against RNE, one seed always the same bits,
// another seed others; the default keeps the fp32 vectors; bad values and other value types refused.
TEST(KrylovBf16CApi, SwitchReachesSrBitForBitAndPerSeed) {
  Csr<float> a = grid<float>(16, 4.0, 0.0, 0.0);
  const std::vector<float> b = rhs<float>(a.n);
  const Oracle<float> o(a, b);
  const double tol = static_cast<double>(1e-3f);  // the C API's float tolerance, widened as it widens it
  const std::pair<Solver, CApiSolver> solvers[] = {{Solver(sp::cg), CApiSolver(trnsparseBsrCg)},
                                                   {Solver(sp::bicgstab), CApiSolver(trnsparseBsrBicgstab)},
                                                   {Solver(sp::gmres), CApiSolver(c_gmres30)}};
  trnsparseHandle_t h = nullptr;
  ASSERT_EQ(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
  trnsparseSpMatDescr_t A = c_csr(a);
  trnDataType_t vt = TRN_R_64F;
  ASSERT_EQ(trnsparseGetKrylovVectorType(h, &vt), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(vt, TRN_R_32F);  // the default
  for (const auto& [cpp, capi] : solvers) {
    auto run = [&](bool bf16, bool sr, unsigned long long seed) {
      EXPECT_EQ(trnsparseSetKrylovVectorType(h, bf16 ? TRN_R_16BF : TRN_R_32F), TRNSPARSE_STATUS_SUCCESS);
      EXPECT_EQ(trnsparseSetStochasticRounding(h, sr ? 1 : 0, seed), TRNSPARSE_STATUS_SUCCESS);
      std::vector<float> x(b.size(), 0.0f);
      const CSolve r = c_solve(h, capi, A, b, x, 1e-3f, 120);
      EXPECT_EQ(r.status, TRNSPARSE_STATUS_SUCCESS);
      return x;
    };
    const std::vector<float> f32 = run(false, true, 1), rne = run(true, false, 0), sr1 = run(true, true, 1),
                             sr1b = run(true, true, 1), sr2 = run(true, true, 2);
    EXPECT_EQ(rne, bf16_solve(cpp, a, o, b, false, 0, tol).x);  // the C++ API's bits
    EXPECT_EQ(sr1, bf16_solve(cpp, a, o, b, true, 1, tol).x);
    EXPECT_EQ(sr1, sr1b);  // reproducible for a seed
    EXPECT_NE(sr1, rne);   // SR changes bits
    EXPECT_NE(sr1, sr2);   // and the seed selects them
    EXPECT_NE(f32, rne);   // the default (SR on but no bf16 vectors) is not the bf16 mode
    for (float v : sr1) ASSERT_EQ(v, trn::bf16_to_f32(trn::f32_to_bf16_rne(v)));  // x stored in bf16
    bool any_off_grid = false;  // fp32 vectors: not every element a bf16 value
    for (float v : f32) any_off_grid |= v != trn::bf16_to_f32(trn::f32_to_bf16_rne(v));
    EXPECT_TRUE(any_off_grid);
  }
  // A value outside {R_32F, R_16BF}: INVALID_VALUE at 1, the setting unchanged.
  ASSERT_EQ(trnsparseSetKrylovVectorType(h, TRN_R_16BF), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(trnsparseSetKrylovVectorType(h, TRN_R_64F), TRNSPARSE_STATUS_INVALID_VALUE);
  int param = 0;
  trnsparseGetLastErrorParameter(h, &param);
  EXPECT_EQ(param, 1);
  ASSERT_EQ(trnsparseGetKrylovVectorType(h, &vt), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(vt, TRN_R_16BF);
  EXPECT_EQ(trnsparseGetKrylovVectorType(h, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsparseSetKrylovVectorType(nullptr, TRN_R_16BF), TRNSPARSE_STATUS_NOT_INITIALIZED);
  // bf16 vectors with an R_64F operator: NOT_SUPPORTED, x and the counters untouched.
  Csr<double> d = grid<double>(6, 4.0, 0.0, 0.0);
  const std::vector<double> bd = rhs<double>(d.n);
  std::vector<double> xd(bd.size(), 7.0);
  trnsparseSpMatDescr_t D = c_csr(d);
  const CSolve r = c_solve(h, CApiSolver(trnsparseBsrCg), D, bd, xd, 1e-10f, 50);
  EXPECT_EQ(r.status, TRNSPARSE_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(r.iterations, -1);
  EXPECT_EQ(xd, std::vector<double>(bd.size(), 7.0));
  trnsparseDestroySpMat(D);
  trnsparseDestroySpMat(A);
  trnsparseDestroy(h);
}

// A CSR -> BSR of rb x cb blocks (row-major blocks), through a dense long-double-free copy: every
// block that holds a stored entry is stored, its other entries zero.
template <class T>
struct Bsr {
  std::int64_t brows = 0, rb = 0, cb = 0;
  std::vector<std::int32_t> off{0}, col;
  std::vector<T> val;
};
template <class T>
Bsr<T> to_bsr(const Csr<T>& a, std::int64_t rb, std::int64_t cb) {
  Bsr<T> out;
  out.brows = a.n / rb;
  out.rb = rb;
  out.cb = cb;
  const std::int64_t bcols = a.n / cb;
  for (std::int64_t I = 0; I < out.brows; ++I) {
    std::vector<T> dense_row(static_cast<std::size_t>(rb * a.n));
    std::vector<bool> used(static_cast<std::size_t>(bcols), false);
    for (std::int64_t r = 0; r < rb; ++r)
      for (std::int32_t e = a.row[static_cast<std::size_t>(I * rb + r)]; e < a.row[static_cast<std::size_t>(I * rb + r) + 1]; ++e) {
        dense_row[static_cast<std::size_t>(r * a.n + a.col[static_cast<std::size_t>(e)])] = a.val[static_cast<std::size_t>(e)];
        used[static_cast<std::size_t>(a.col[static_cast<std::size_t>(e)] / cb)] = true;
      }
    for (std::int64_t J = 0; J < bcols; ++J) {
      if (!used[static_cast<std::size_t>(J)]) continue;
      out.col.push_back(static_cast<std::int32_t>(J));
      for (std::int64_t r = 0; r < rb; ++r)
        for (std::int64_t c = 0; c < cb; ++c) out.val.push_back(dense_row[static_cast<std::size_t>(r * a.n + J * cb + c)]);
    }
    out.off.push_back(static_cast<std::int32_t>(out.col.size()));
  }
  return out;
}

template <class T>
class KrylovBsrWide : public ::testing::Test {};
using WideTypes = ::testing::Types<double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(KrylovBsrWide, WideTypes);

// CG (Hermitian operator; NONE and JACOBI), BiCGStab and GMRES(30) (convection) on BSR operators
// of 4 x 4 and 2 x 8 blocks through the C API: converged, the long-double true residual within
// 10 tol + 100 n u_s, the forward error within kappa_1 times it, and the SpMV on TensorE (Ozaki
// block-row GEMMs for R_64F / C_64F, the 2 x 2 embedding for C_32F: TensorE busy in the profile).
TYPED_TEST(KrylovBsrWide, SolvesOnTheEnginePaths) {
  using T = TypeParam;
  const float tol = kUnit<T> < 1e-10 ? 1e-10f : 1e-5f;
  trnsparseHandle_t h = nullptr;
  ASSERT_EQ(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
  for (const bool hermitian : {true, false})
    for (const auto& [rb, cb] : {std::pair<int, int>{4, 4}, std::pair<int, int>{2, 8}}) {
      Csr<T> a = hermitian ? grid<T>(8, 4.6, 0.0, 0.25) : grid<T>(8, 4.0, 1.5, 0.4);
      const std::vector<T> b = rhs<T>(a.n);
      const Oracle<T> o(a, b);
      Bsr<T> m = to_bsr(a, rb, cb);
      trnsparseSpMatDescr_t A = nullptr;
      ASSERT_EQ(trnsparseCreateBsr(&A, m.brows, a.n / cb, static_cast<int64_t>(m.col.size()), rb, cb, m.off.data(), m.col.data(),
                                   m.val.data(), TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, c_type<T>(),
                                   TRNSPARSE_ORDER_ROW),
                TRNSPARSE_STATUS_SUCCESS);
      std::vector<std::pair<CApiSolver, trnsparsePreconditioner_t>> runs;
      // one solve per (operator, block shape): CG NONE / JACOBI on the Hermitian one, BiCGStab
      // JACOBI / GMRES NONE on the convection one (the emulated Ozaki SpMV costs ~1 ms a call)
      const bool first = rb == 4;
      if (hermitian) runs = {{CApiSolver(trnsparseBsrCg), first ? TRNSPARSE_PRECOND_NONE : TRNSPARSE_PRECOND_JACOBI}};
      else runs = {{first ? CApiSolver(trnsparseBsrBicgstab) : CApiSolver(c_gmres30), first ? TRNSPARSE_PRECOND_JACOBI : TRNSPARSE_PRECOND_NONE}};
      for (const auto& [solve, pc] : runs) {
        std::vector<T> x(b.size());
        const CSolve r = c_solve(h, solve, A, b, x, tol, 2000, pc);
        ASSERT_EQ(r.status, TRNSPARSE_STATUS_SUCCESS);
        EXPECT_EQ(r.info, 0) << "iterations " << r.iterations;
        const auto [res, err] = o.errors(b, x);
        EXPECT_LE(res, 10 * static_cast<LD>(tol) + 100.0L * static_cast<LD>(a.n) * kUnit<T>) << "true residual";
        EXPECT_LE(err, o.kappa * res * 1.0001L + 1e-30L);
        EXPECT_GT(r.profile.busy_ns[TRN_ENGINE_TENSOR], 0.0) << "the SpMV runs on TensorE";
        if (std::getenv("KRYLOV_VERBOSE"))
          std::printf("  BSR %s %dx%d pc %d: %d it, true residual %.3Lg, error %.3Lg, modeled %.4g us\n", sp::value_name(kVal<T>), rb,
                      cb, static_cast<int>(pc), r.iterations, res, err, r.profile.total_ns * 1e-3);
      }
      trnsparseDestroySpMat(A);
    }
  trnsparseDestroy(h);
}

// Bad input on a wide BSR operator: BLOCK_JACOBI / ILU0 / IC0 NOT_SUPPORTED; a zero diagonal with
// JACOBI INVALID_VALUE at matA (1); x, iterations and info untouched on every failure.
TYPED_TEST(KrylovBsrWide, UnsupportedPreconditionersAndZeroDiagonal) {
  using T = TypeParam;
  trnsparseHandle_t h = nullptr;
  ASSERT_EQ(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
  Csr<T> a = grid<T>(8, 4.6, 0.0, 0.25);
  const std::vector<T> b = rhs<T>(a.n);
  Bsr<T> m = to_bsr(a, 4, 4);
  trnsparseSpMatDescr_t A = nullptr;
  ASSERT_EQ(trnsparseCreateBsr(&A, m.brows, m.brows, static_cast<int64_t>(m.col.size()), 4, 4, m.off.data(), m.col.data(), m.val.data(),
                               TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, c_type<T>(), TRNSPARSE_ORDER_ROW),
            TRNSPARSE_STATUS_SUCCESS);
  const std::vector<T> x0(b.size(), T(3));
  for (trnsparsePreconditioner_t pc : {TRNSPARSE_PRECOND_BLOCK_JACOBI, TRNSPARSE_PRECOND_ILU0, TRNSPARSE_PRECOND_IC0}) {
    std::vector<T> x = x0;
    const CSolve r = c_solve(h, CApiSolver(trnsparseBsrCg), A, b, x, 1e-5f, 50, pc);
    EXPECT_EQ(r.status, TRNSPARSE_STATUS_NOT_SUPPORTED);
    EXPECT_EQ(x, x0);
    EXPECT_EQ(r.iterations, -1);
  }
  m.val[5 * 0 + 0] = T(0);  // a_00: the (0, 0) entry of the first stored block (block column 0)
  std::vector<T> x = x0;
  const CSolve r = c_solve(h, CApiSolver(trnsparseBsrBicgstab), A, b, x, 1e-5f, 50, TRNSPARSE_PRECOND_JACOBI);
  EXPECT_EQ(r.status, TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(r.param, 1);
  EXPECT_EQ(x, x0);
  EXPECT_EQ(r.info, -1);
  trnsparseDestroySpMat(A);
  trnsparseDestroy(h);
}

// C_32F CSR: the solvers' SpMV is the TensorE 2 x 2 embedding (as trnsparseSpMV's C_32F path), so the
// profile has TensorE busy time (the host-step SpMV had none).
TEST(KrylovC32Engine, CsrSpmvOnTensorE) {
  Csr<std::complex<float>> a = grid<std::complex<float>>(10, 4.6, 0.0, 0.25);
  const std::vector<std::complex<float>> b = rhs<std::complex<float>>(a.n);
  trnsparseHandle_t h = nullptr;
  ASSERT_EQ(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
  trnsparseSpMatDescr_t A = c_csr(a);
  std::vector<std::complex<float>> x(b.size());
  const CSolve r = c_solve(h, CApiSolver(trnsparseBsrCg), A, b, x, 1e-5f, 200, TRNSPARSE_PRECOND_IC0);
  ASSERT_EQ(r.status, TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(r.info, 0);
  EXPECT_GT(r.profile.busy_ns[TRN_ENGINE_TENSOR], 0.0);
  const Oracle<std::complex<float>> o(a, b);
  EXPECT_LE(o.errors(b, x).first, 10 * 1e-5L + 100.0L * static_cast<LD>(a.n) * 0x1p-24L);
  trnsparseDestroySpMat(A);
  trnsparseDestroy(h);
}

// The converted operand's product against the one-shot entry it replaces in the solvers (fp32 CSR:
// sparse::spmv; C_32F CSR and BSR: spmm_c32): the same output bits and the same modeled time, for
// alpha / beta of both signs; and the operand holds a copy of the values, so one built before an
// in-place change still multiplies by the old values while one built after matches the new spmv.
template <class T>
std::uint64_t bits_of(const std::vector<T>& v) {
  std::uint64_t h = 1469598103934665603ull;
  const auto* p = reinterpret_cast<const unsigned char*>(v.data());
  for (std::size_t i = 0; i < v.size() * sizeof(T); ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

struct Product {
  std::uint64_t y_bits = 0;
  double modeled_ns = 0;
};

TEST(PreparedOperand, Fp32CsrMatchesTheOneShotSpmvAndCopiesTheValues) {
  Csr<float> a = grid<float>(20, 4.0, 1.5, 0.0);  // 400 rows: 4 block rows of 128
  const sp::CsrView v{a.n, a.n, static_cast<std::int64_t>(a.col.size()), a.row.data(), a.col.data(), a.val.data(),
                      sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, trn::DType::f32};
  const std::vector<float> x = rhs<float>(a.n), y0 = rhs<float>(a.n + 3);
  sp::Settings s;
  s.target = trn::Generation::trn2;
  auto one_shot = [&](float alpha, float beta) {
    std::vector<float> y(y0.begin(), y0.begin() + a.n);
    sp::CallReport r;
    r.plans_wanted = false;
    sp::spmv(s, sp::Op::N, alpha, v, x.data(), trn::DType::f32, beta, y.data(), trn::DType::f32, &r);
    return Product{bits_of(y), r.profile.total_ns};
  };
  auto prepared = [&](const sp::detail::CsrTileOperand& op, float alpha, float beta) {
    std::vector<float> y(y0.begin(), y0.begin() + a.n);
    sp::CallReport r;
    r.plans_wanted = false;
    const sp::DenseRef X{x.data(), trn::DType::f32, a.n, 1, a.n, sp::Layout::col_major};
    const sp::MutableDenseRef Y{y.data(), trn::DType::f32, a.n, 1, a.n, sp::Layout::col_major};
    op.spmm(s, sp::Op::N, sp::Op::N, alpha, X, beta, Y, &r);
    return Product{bits_of(y), r.profile.total_ns};
  };
  const sp::detail::CsrTileOperand before(s, v);
  for (const auto& [alpha, beta] : {std::pair{1.0f, 0.0f}, std::pair{-1.0f, 1.0f}, std::pair{0.5f, -2.0f}}) {
    const Product p = prepared(before, alpha, beta), o = one_shot(alpha, beta);
    EXPECT_EQ(p.y_bits, o.y_bits) << alpha << " " << beta;
    EXPECT_EQ(p.modeled_ns, o.modeled_ns) << alpha << " " << beta;
  }
  const Product old_values = one_shot(1.0f, 0.0f);
  for (float& e : a.val) e *= 1.25f;  // in place: same arrays, new values
  const Product new_values = one_shot(1.0f, 0.0f);
  ASSERT_NE(new_values.y_bits, old_values.y_bits);
  EXPECT_EQ(prepared(before, 1.0f, 0.0f).y_bits, old_values.y_bits) << "the operand holds the values it was built from";
  const sp::detail::CsrTileOperand after(s, v);
  EXPECT_EQ(prepared(after, 1.0f, 0.0f).y_bits, new_values.y_bits);
}

TEST(PreparedOperand, C32CsrAndBsrMatchSpmmC32) {
  using cf = std::complex<float>;
  Csr<cf> a = grid<cf>(12, 4.0, 1.5, 0.4);  // 144 rows
  const Bsr<cf> m = to_bsr(a, 4, 4);
  const std::vector<cf> x = rhs<cf>(a.n), y0 = rhs<cf>(a.n);
  sp::Settings s;
  const sp::BsrView bsr{m.brows, m.brows, static_cast<std::int64_t>(m.col.size()), 4, 4, m.off.data(), m.col.data(),
                        const_cast<cf*>(m.val.data()), sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero,
                        trn::DType::f32, sp::BlockOrder::row};
  const sp::detail::C32Operand csr_op(s, a.ref()), bsr_op(s, bsr);
  // The BSR operand's 4 x 4 blocks (8 x 8 embedded) are packed into the CSR path's 128 x 128 tiles
  // (complex_embed.cpp, "BSR with small blocks, packed"): its product is the one-shot CSR product of
  // a, whose entries fill the same tiles (same bits, same modeled time), with one nc_matmul per tile
  // (288 x 288 embedded, band +-24: 7 tiles) where the BSR kernel issues one per stored block.
  const std::int64_t tiles = 7;
  ASSERT_GT(static_cast<std::int64_t>(m.col.size()), 10 * tiles);
  for (const bool use_bsr : {false, true})
    for (const auto& [alpha, beta] : {std::pair{1.0, 0.0}, std::pair{-1.0, 1.0}}) {
      std::vector<cf> y1 = y0, y2 = y0, y3 = y0;
      const sp::DenseAny X{const_cast<cf*>(x.data()), sp::Value::c32, a.n, 1, a.n, sp::Layout::col_major};
      const sp::DenseAny Y1{y1.data(), sp::Value::c32, a.n, 1, a.n, sp::Layout::col_major};
      const sp::DenseAny Y2{y2.data(), sp::Value::c32, a.n, 1, a.n, sp::Layout::col_major};
      const sp::DenseAny Y3{y3.data(), sp::Value::c32, a.n, 1, a.n, sp::Layout::col_major};
      sp::CallReport r1, r2, r3;
      r1.plans_wanted = r2.plans_wanted = r3.plans_wanted = false;
      sp::spmm_c32(s, sp::GOp::N, sp::GOp::N, sp::Scalar(alpha), a.ref(), X, sp::Scalar(beta), Y1, &r1);
      (use_bsr ? bsr_op : csr_op).spmm(s, sp::GOp::N, sp::Scalar(alpha), X, sp::Scalar(beta), Y2, &r2);
      EXPECT_EQ(bits_of(y2), bits_of(y1)) << use_bsr << " " << alpha;
      EXPECT_EQ(r2.profile.total_ns, r1.profile.total_ns) << use_bsr << " " << alpha;
      EXPECT_EQ(r2.profile.instructions[static_cast<int>(trn::Engine::tensor)], tiles) << use_bsr << " " << alpha;
      if (!use_bsr) continue;
      // the one-shot BSR product is not packed: its 8 x 8 embedded blocks take the small-block SpMV
      // (slot rows on VectorE, s23/bsr32: no matmul), within the same bound
      sp::spmm_c32(s, sp::GOp::N, sp::GOp::N, sp::Scalar(alpha), bsr, X, sp::Scalar(beta), Y3, &r3);
      EXPECT_EQ(r3.profile.instructions[static_cast<int>(trn::Engine::tensor)], 0);
      EXPECT_GT(r3.profile.instructions[static_cast<int>(trn::Engine::vector)], 0);
      for (std::size_t i = 0; i < y2.size(); ++i) EXPECT_LE(std::abs(y3[i] - y2[i]), 1e-5f * (std::abs(y2[i]) + 8.0f)) << i;
    }
  // a complex alpha is spmm_c32's host fold, not this operand's: refused, y untouched
  std::vector<cf> y = y0;
  const sp::DenseAny X{const_cast<cf*>(x.data()), sp::Value::c32, a.n, 1, a.n, sp::Layout::col_major};
  const sp::DenseAny Y{y.data(), sp::Value::c32, a.n, 1, a.n, sp::Layout::col_major};
  EXPECT_THROW(csr_op.spmm(s, sp::GOp::N, sp::Scalar(1.0, 0.5), X, sp::Scalar(0.0), Y, nullptr), sp::InvalidArgument);
  EXPECT_EQ(y, y0);
}

// A solve, then A's values changed in place (same arrays), then a second solve: the second gives
// the bits of a solve on a fresh copy of the new matrix, not the first solve's operator (the
// converted operand lives for one solve). Jacobi, so the preconditioner reads the new values too.
template <class T>
class KrylovPrepared : public ::testing::Test {};
using PreparedTypes = ::testing::Types<float, std::complex<float>>;
TYPED_TEST_SUITE(KrylovPrepared, PreparedTypes);
TYPED_TEST(KrylovPrepared, SecondSolveSeesChangedValues) {
  using T = TypeParam;
  Csr<T> a = grid<T>(12, 4.0, 1.5, 0.4);
  const std::vector<T> b = rhs<T>(a.n);
  sp::Settings s;
  sp::GenericKrylovOptions opt;
  opt.tolerance = 1e-5;
  opt.max_iterations = 500;
  opt.precond = sp::KrylovPreconditioner::jacobi;
  auto solve = [&](Csr<T>& m) {
    std::vector<T> x(b.size());
    const sp::KrylovResult r = sp::bicgstab(s, m.ref(), b.data(), x.data(), opt);
    EXPECT_TRUE(r.converged);
    return std::pair{bits_of(x), r.iterations};
  };
  const auto first = solve(a);
  for (std::size_t e = 0; e < a.val.size(); ++e)
    if (a.col[e] != static_cast<std::int32_t>(std::upper_bound(a.row.begin(), a.row.end(), static_cast<std::int32_t>(e)) - a.row.begin() - 1))
      a.val[e] *= T(0.5f);  // weaker couplings, same diagonal
  const auto second = solve(a);
  Csr<T> fresh = a;  // other arrays, the new values
  const auto reference = solve(fresh);
  EXPECT_NE(second.first, first.first);
  EXPECT_EQ(second.first, reference.first);
  EXPECT_EQ(second.second, reference.second);
}

// BSR C_32F through the C API with 4 x 4 blocks: the solvers' SpMV packs the blocks into the CSR
// path's 128 x 128 tiles, so a BSR solve gives the bits and iteration count of the CSR solve of the
// same matrix (the modeled times differ by the setup: the Jacobi diagonal's extraction per format) (Jacobi; CG on the Hermitian grid, BiCGStab on the convection one). The
// per-block BSR kernel sums each output per 8 x 8 block and differs in the last bits (fails before
// s20/krylov).
TEST(KrylovPreparedBsr, C32PackedSolveEqualsTheCsrSolve) {
  using T = std::complex<float>;
  trnsparseHandle_t h = nullptr;
  ASSERT_EQ(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
  for (const bool hermitian : {true, false}) {
    Csr<T> a = hermitian ? grid<T>(12, 4.6, 0.0, 0.25) : grid<T>(12, 4.0, 1.5, 0.4);
    const std::vector<T> b = rhs<T>(a.n);
    Bsr<T> m = to_bsr(a, 4, 4);
    trnsparseSpMatDescr_t B = nullptr;
    ASSERT_EQ(trnsparseCreateBsr(&B, m.brows, m.brows, static_cast<int64_t>(m.col.size()), 4, 4, m.off.data(), m.col.data(), m.val.data(),
                                 TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, c_type<T>(), TRNSPARSE_ORDER_ROW),
              TRNSPARSE_STATUS_SUCCESS);
    trnsparseSpMatDescr_t C = c_csr(a);
    const CApiSolver solve = hermitian ? CApiSolver(trnsparseBsrCg) : CApiSolver(trnsparseBsrBicgstab);
    std::vector<T> xb(b.size()), xc(b.size());
    const CSolve rb = c_solve(h, solve, B, b, xb, 1e-5f, 500, TRNSPARSE_PRECOND_JACOBI);
    const CSolve rc = c_solve(h, solve, C, b, xc, 1e-5f, 500, TRNSPARSE_PRECOND_JACOBI);
    ASSERT_EQ(rb.status, TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(rc.status, TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(rb.info, 0);
    EXPECT_EQ(rb.iterations, rc.iterations) << hermitian;
    EXPECT_EQ(bits_of(xb), bits_of(xc)) << hermitian;
    trnsparseDestroySpMat(B);
    trnsparseDestroySpMat(C);
  }
  trnsparseDestroy(h);
}

// The packed operand with 3 x 3 blocks (6 x 6 embedded: blocks straddle the 128-row tiles), stored
// column-major with one-based indices: the BSR solve still gives the CSR solve's bits and iterations
// (the straddling blocks' explicit zeros may add tiles, whose products are exact zeros).
TEST(KrylovPreparedBsr, C32PackedColumnOrderOneBasedStraddlingBlocks) {
  using T = std::complex<float>;
  trnsparseHandle_t h = nullptr;
  ASSERT_EQ(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
  Csr<T> a = grid<T>(12, 4.0, 1.5, 0.4);  // 144 rows: 48 block rows of 3
  const std::vector<T> b = rhs<T>(a.n);
  Bsr<T> m = to_bsr(a, 3, 3);
  for (std::size_t blk = 0; blk < m.col.size(); ++blk) {  // row-major -> column-major blocks
    std::vector<T> v(m.val.begin() + static_cast<std::ptrdiff_t>(9 * blk), m.val.begin() + static_cast<std::ptrdiff_t>(9 * blk + 9));
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) m.val[9 * blk + static_cast<std::size_t>(r + 3 * c)] = v[static_cast<std::size_t>(3 * r + c)];
  }
  for (std::int32_t& o : m.off) ++o;
  for (std::int32_t& c : m.col) ++c;
  trnsparseSpMatDescr_t B = nullptr;
  ASSERT_EQ(trnsparseCreateBsr(&B, m.brows, m.brows, static_cast<int64_t>(m.col.size()), 3, 3, m.off.data(), m.col.data(), m.val.data(),
                               TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ONE, c_type<T>(), TRNSPARSE_ORDER_COL),
            TRNSPARSE_STATUS_SUCCESS);
  trnsparseSpMatDescr_t C = c_csr(a);
  std::vector<T> xb(b.size()), xc(b.size());
  const CSolve rb = c_solve(h, CApiSolver(trnsparseBsrBicgstab), B, b, xb, 1e-5f, 500, TRNSPARSE_PRECOND_JACOBI);
  const CSolve rc = c_solve(h, CApiSolver(trnsparseBsrBicgstab), C, b, xc, 1e-5f, 500, TRNSPARSE_PRECOND_JACOBI);
  ASSERT_EQ(rb.status, TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(rc.status, TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(rb.info, 0);
  EXPECT_EQ(rb.iterations, rc.iterations);
  EXPECT_EQ(bits_of(xb), bits_of(xc));
  trnsparseDestroySpMat(B);
  trnsparseDestroySpMat(C);
  trnsparseDestroy(h);
}

// BSR C_32F through the C API: the same, with trnsparseSpMatSetValues between the solves.
TEST(KrylovPreparedBsr, C32SecondSolveSeesChangedValues) {
  using T = std::complex<float>;
  Csr<T> a = grid<T>(8, 4.0, 1.5, 0.4);
  const std::vector<T> b = rhs<T>(a.n);
  Bsr<T> m = to_bsr(a, 4, 4);
  trnsparseHandle_t h = nullptr;
  ASSERT_EQ(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
  auto solve = [&](Bsr<T>& mat) {
    trnsparseSpMatDescr_t A = nullptr;
    EXPECT_EQ(trnsparseCreateBsr(&A, mat.brows, mat.brows, static_cast<int64_t>(mat.col.size()), 4, 4, mat.off.data(), mat.col.data(),
                                 mat.val.data(), TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, c_type<T>(),
                                 TRNSPARSE_ORDER_ROW),
              TRNSPARSE_STATUS_SUCCESS);
    std::vector<T> x(b.size());
    const CSolve r = c_solve(h, CApiSolver(trnsparseBsrBicgstab), A, b, x, 1e-5f, 500, TRNSPARSE_PRECOND_JACOBI);
    EXPECT_EQ(r.status, TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(r.info, 0);
    trnsparseDestroySpMat(A);
    return bits_of(x);
  };
  trnsparseSpMatDescr_t A = nullptr;
  ASSERT_EQ(trnsparseCreateBsr(&A, m.brows, m.brows, static_cast<int64_t>(m.col.size()), 4, 4, m.off.data(), m.col.data(), m.val.data(),
                               TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, c_type<T>(), TRNSPARSE_ORDER_ROW),
            TRNSPARSE_STATUS_SUCCESS);
  std::vector<T> x1(b.size()), x2(b.size());
  ASSERT_EQ(c_solve(h, CApiSolver(trnsparseBsrBicgstab), A, b, x1, 1e-5f, 500, TRNSPARSE_PRECOND_JACOBI).status, TRNSPARSE_STATUS_SUCCESS);
  std::vector<T> halved = m.val;
  for (T& e : halved) e *= T(0.75f);
  ASSERT_EQ(trnsparseSpMatSetValues(A, halved.data()), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(c_solve(h, CApiSolver(trnsparseBsrBicgstab), A, b, x2, 1e-5f, 500, TRNSPARSE_PRECOND_JACOBI).status, TRNSPARSE_STATUS_SUCCESS);
  Bsr<T> fresh = m;
  fresh.val = halved;
  EXPECT_NE(bits_of(x2), bits_of(x1));
  EXPECT_EQ(bits_of(x2), solve(fresh));
  trnsparseDestroySpMat(A);
  trnsparseDestroy(h);
}

// The preconditioner's replayed level-set solves (triangular_replay.hpp) against triangular_solve on
// the same analysis: the same output bits, trace length and profile (modeled time and every engine's
// busy and critical time as bit patterns) for successive right-hand sides, the later ones answered
// from the kept profile (counted); a solve under another target, or under a report observer, is
// modeled afresh and still equals the unreplayed one.
struct SolveOut {
  std::uint64_t x_bits = 0;
  std::size_t records = 0;
  trn::Profile profile;
};
bool same_profile(const trn::Profile& a, const trn::Profile& b) {
  return std::memcmp(&a.total_ns, &b.total_ns, sizeof(double)) == 0 &&
         std::memcmp(a.busy_ns.data(), b.busy_ns.data(), sizeof(a.busy_ns)) == 0 &&
         std::memcmp(a.critical_ns.data(), b.critical_ns.data(), sizeof(a.critical_ns)) == 0 &&
         a.instructions == b.instructions && a.dma_bytes == b.dma_bytes && a.flops == b.flops;
}
template <class T>
void replay_matches_plain(sp::GOp op) {
  Csr<T> a = grid<T>(16, 4.5, 1.0, kCx<T> ? 0.3 : 0.0);  // 256 rows, 31 levels
  const sp::SparseRef A = a.ref();
  sp::TriangularAnalysis t = sp::analyze_triangular(A, /*lower=*/true, /*unit=*/false, op);
  t.schedule = sp::TriangularAnalysis::Schedule::level_sets;
  sp::detail::LevelSetReplay replay;
  auto solve = [&](trn::Generation target, int k, bool replayed, sp::GOp opB = sp::GOp::N) {
    sp::Settings s;
    s.target = target;
    std::vector<T> b(static_cast<std::size_t>(a.n)), x(b.size());
    for (std::size_t i = 0; i < b.size(); ++i) {
      const double re = std::sin(0.3 * static_cast<double>(i) + k), im = std::cos(0.7 * static_cast<double>(i) - k);
      if constexpr (kCx<T>) b[i] = T(static_cast<float>(re), static_cast<float>(im));
      else b[i] = static_cast<T>(re);
    }
    const sp::DenseAny B = opB == sp::GOp::N ? sp::DenseAny{b.data(), kVal<T>, a.n, 1, a.n, sp::Layout::col_major}
                                             : sp::DenseAny{b.data(), kVal<T>, 1, a.n, 1, sp::Layout::col_major};  // op(B) = b^H: n x 1
    const sp::DenseAny C{x.data(), kVal<T>, a.n, 1, a.n, sp::Layout::col_major};
    sp::CallReport rep;
    rep.plans_wanted = false;
    if (replayed) sp::detail::triangular_solve_replayed(s, t, a.val.data(), sp::Scalar(1.0), opB, B, C, &rep, replay);
    else sp::triangular_solve(s, t, a.val.data(), nullptr, sp::Scalar(1.0), opB, B, C, &rep);
    return SolveOut{bits_of(x), rep.trace.instructions.size(), rep.profile};
  };
  for (int k = 0; k < 4; ++k) {
    const SolveOut plain = solve(trn::Generation::trn1, k, false), kept = solve(trn::Generation::trn1, k, true);
    EXPECT_EQ(kept.x_bits, plain.x_bits) << k;
    EXPECT_EQ(kept.records, plain.records) << k;
    EXPECT_TRUE(same_profile(kept.profile, plain.profile)) << k;
  }
  EXPECT_EQ(sp::detail::replayed_solves(replay), 3);  // the first solve is modeled, the next three replayed
  const SolveOut plain2 = solve(trn::Generation::trn2, 5, false), other = solve(trn::Generation::trn2, 5, true);
  EXPECT_EQ(other.x_bits, plain2.x_bits);
  EXPECT_TRUE(same_profile(other.profile, plain2.profile));
  EXPECT_FALSE(same_profile(plain2.profile, solve(trn::Generation::trn1, 5, false).profile));  // the check can fail
  EXPECT_EQ(sp::detail::replayed_solves(replay), 3);
  int observed = 0;
  const trn::ReportObserver previous = trn::set_thread_report_observer(
      {[](void* ctx, const trn::Report&, const trn::ReportSettings&) { ++*static_cast<int*>(ctx); }, &observed});
  const SolveOut seen = solve(trn::Generation::trn1, 6, true);
  trn::set_thread_report_observer(previous);
  EXPECT_EQ(observed, 1);  // an observed report is modeled and shown to the observer
  EXPECT_EQ(sp::detail::replayed_solves(replay), 3);
  EXPECT_TRUE(same_profile(seen.profile, solve(trn::Generation::trn1, 6, false).profile));
  if constexpr (kCx<T>) {  // conj(b): one more VectorE instruction per chunk, a trace the kept one is not
    const SolveOut conj = solve(trn::Generation::trn1, 7, true, sp::GOp::C), plain_conj = solve(trn::Generation::trn1, 7, false, sp::GOp::C);
    EXPECT_EQ(conj.x_bits, plain_conj.x_bits);
    EXPECT_TRUE(same_profile(conj.profile, plain_conj.profile));
    EXPECT_GT(conj.records, seen.records);
    EXPECT_EQ(sp::detail::replayed_solves(replay), 3);
  }
}

TEST(LevelSetReplay, SameBitsTraceAndProfileAsTriangularSolve) {
  replay_matches_plain<float>(sp::GOp::N);
  replay_matches_plain<float>(sp::GOp::T);
  replay_matches_plain<std::complex<float>>(sp::GOp::N);
  replay_matches_plain<std::complex<float>>(sp::GOp::C);
}

// The fp64 / complex fp64 level-set solve (triangular_fp64.cpp) leaves each level's product trace
// unmodeled -- only the solve's joined trace is modeled -- unless a report observer is set on the
// thread (report_observer.hpp), which then sees every level's modeled report and the solve's. Either
// way the output bits and the solve's profile are the same.
template <class T>
void fp64_solve_same_when_observed() {
  Csr<T> a = grid<T>(16, 4.5, 1.0, kCx<T> ? 0.3 : 0.0);  // 256 rows, 31 levels
  sp::TriangularAnalysis t = sp::analyze_triangular(a.ref(), /*lower=*/true, /*unit=*/false, sp::GOp::N);
  t.schedule = sp::TriangularAnalysis::Schedule::level_sets;
  auto solve = [&] {
    std::vector<T> b(static_cast<std::size_t>(a.n)), x(b.size());
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<T>(std::sin(0.3 * static_cast<double>(i)));
    const sp::DenseAny B{b.data(), kVal<T>, a.n, 1, a.n, sp::Layout::col_major};
    const sp::DenseAny C{x.data(), kVal<T>, a.n, 1, a.n, sp::Layout::col_major};
    sp::CallReport rep;
    rep.plans_wanted = false;
    sp::triangular_solve(sp::Settings{}, t, a.val.data(), nullptr, sp::Scalar(1.0), sp::GOp::N, B, C, &rep);
    return SolveOut{bits_of(x), rep.trace.instructions.size(), rep.profile};
  };
  const SolveOut plain = solve();
  int observed = 0;
  const trn::ReportObserver previous = trn::set_thread_report_observer(
      {[](void* ctx, const trn::Report&, const trn::ReportSettings&) { ++*static_cast<int*>(ctx); }, &observed});
  const SolveOut seen = solve();
  trn::set_thread_report_observer(previous);
  EXPECT_GT(observed, 30) << sp::value_name(kVal<T>);  // the levels' reports (30 with an off-diagonal part) and the solve's
  EXPECT_EQ(seen.x_bits, plain.x_bits) << sp::value_name(kVal<T>);
  EXPECT_EQ(seen.records, plain.records) << sp::value_name(kVal<T>);
  EXPECT_TRUE(same_profile(seen.profile, plain.profile)) << sp::value_name(kVal<T>);
  EXPECT_GT(plain.profile.total_ns, 0.0);
}

TEST(TriangularSolveFp64, ObservedLevelsAreModeledWithTheSameBitsAndProfile) {
  fp64_solve_same_when_observed<double>();
  fp64_solve_same_when_observed<std::complex<double>>();
}

// x = op(T)^-1 b for b_i = sin(0.3 i), R_32F, default settings: through `replay` (triangular_solve_replayed)
// or, when it is null, triangular_solve.
SolveOut solve_f32(const Csr<float>& a, const sp::TriangularAnalysis& t, sp::detail::LevelSetReplay* replay) {
  std::vector<float> b(static_cast<std::size_t>(a.n)), x(b.size());
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(std::sin(0.3 * static_cast<double>(i)));
  const sp::DenseAny B{b.data(), sp::Value::f32, a.n, 1, a.n, sp::Layout::col_major};
  const sp::DenseAny C{x.data(), sp::Value::f32, a.n, 1, a.n, sp::Layout::col_major};
  sp::CallReport rep;
  rep.plans_wanted = false;
  const sp::Settings s;
  if (replay != nullptr) sp::detail::triangular_solve_replayed(s, t, a.val.data(), sp::Scalar(1.0), sp::GOp::N, B, C, &rep, *replay);
  else sp::triangular_solve(s, t, a.val.data(), nullptr, sp::Scalar(1.0), sp::GOp::N, B, C, &rep);
  return SolveOut{bits_of(x), rep.trace.instructions.size(), rep.profile};
}

// A replay handed a second analysis starts afresh instead of reusing the first one's index words
// (which would solve with the wrong pattern: the two grids share pmax and the slice width).
TEST(LevelSetReplay, AnotherAnalysisStartsAfresh) {
  Csr<float> a16 = grid<float>(16, 4.5, 1.0, 0.0), a12 = grid<float>(12, 4.0, 1.0, 0.0);
  sp::TriangularAnalysis t16 = sp::analyze_triangular(a16.ref(), true, false, sp::GOp::N),
                         t12 = sp::analyze_triangular(a12.ref(), true, false, sp::GOp::N);
  t16.schedule = t12.schedule = sp::TriangularAnalysis::Schedule::level_sets;
  sp::detail::LevelSetReplay replay;
  auto solve = [&](const Csr<float>& a, const sp::TriangularAnalysis& t, bool replayed) {
    return solve_f32(a, t, replayed ? &replay : nullptr);
  };
  const SolveOut plain16 = solve(a16, t16, false), plain12 = solve(a12, t12, false);
  EXPECT_EQ(solve(a16, t16, true).x_bits, plain16.x_bits);
  EXPECT_EQ(solve(a16, t16, true).x_bits, plain16.x_bits);
  EXPECT_EQ(sp::detail::replayed_solves(replay), 1);
  const SolveOut other = solve(a12, t12, true);
  EXPECT_EQ(other.x_bits, plain12.x_bits);
  EXPECT_EQ(other.records, plain12.records);
  EXPECT_TRUE(same_profile(other.profile, plain12.profile));
  EXPECT_EQ(sp::detail::replayed_solves(replay), 0);  // emptied, then the first solve of t12 modeled
  EXPECT_EQ(solve(a12, t12, true).x_bits, plain12.x_bits);
  EXPECT_EQ(sp::detail::replayed_solves(replay), 1);
}

// A finished replay's state stays in the thread's pool: the next replay of an analysis with the same
// pattern (another object, as each Krylov solve's new factor has) starts with the kept words and
// profile, so its first solve is replayed too, with the bits, trace length and profile of
// triangular_solve; an analysis with the same rows and columns but other entry numbers (the upper
// triangle solved as op T of a nonsymmetric matrix) starts afresh. Fails when the pattern comparison
// skips the entry numbers (the kept words then read the lower triangle's values: checked).
TEST(LevelSetReplay, KeptAcrossReplaysOfOnePattern) {
  Csr<float> a = grid<float>(16, 4.5, 1.0, 0.0);  // convection 1: a_ij != a_ji
  auto analysis = [&](bool lower, sp::GOp op) {
    sp::TriangularAnalysis t = sp::analyze_triangular(a.ref(), lower, /*unit=*/false, op);
    t.schedule = sp::TriangularAnalysis::Schedule::level_sets;
    return t;
  };
  auto solve = [&](const sp::TriangularAnalysis& t, sp::detail::LevelSetReplay* replay) { return solve_f32(a, t, replay); };
  const sp::TriangularAnalysis lower = analysis(true, sp::GOp::N), upper_t = analysis(false, sp::GOp::T);
  ASSERT_EQ(upper_t.col, lower.col);  // the same rows and columns of op(A) ...
  ASSERT_NE(upper_t.src, lower.src);  // ... holding other entries of A
  {
    sp::detail::LevelSetReplay first;
    solve(lower, &first);
    solve(lower, &first);
    EXPECT_EQ(sp::detail::replayed_solves(first), 1);
  }
  const sp::TriangularAnalysis again = analysis(true, sp::GOp::N);  // the next solve's analysis
  const SolveOut plain = solve(again, nullptr);
  {
    sp::detail::LevelSetReplay second;
    const SolveOut kept = solve(again, &second);
    EXPECT_EQ(sp::detail::replayed_solves(second), 1);  // its first solve answered from the kept state
    EXPECT_EQ(kept.x_bits, plain.x_bits);
    EXPECT_EQ(kept.records, plain.records);
    EXPECT_TRUE(same_profile(kept.profile, plain.profile));
  }
  const SolveOut plain_t = solve(upper_t, nullptr);
  sp::detail::LevelSetReplay third;
  const SolveOut other = solve(upper_t, &third);
  EXPECT_NE(plain_t.x_bits, plain.x_bits);
  EXPECT_EQ(other.x_bits, plain_t.x_bits);
  EXPECT_EQ(other.records, plain_t.records);
  EXPECT_TRUE(same_profile(other.profile, plain_t.profile));
  EXPECT_EQ(sp::detail::replayed_solves(third), 0);
}

}  // namespace
