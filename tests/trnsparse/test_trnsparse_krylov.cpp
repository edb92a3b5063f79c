// trnsparse CG (extension) on FEM-like block matrices: 2-D and 3-D Laplacians in 128 x 128 blocks,
// against a float64 CG written here (same algorithm, same Jacobi preconditioner): iteration counts
// within 10% (+1), the true residual ||b - A x|| / ||b|| computed in float64, breakdown on an
// indefinite operator.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <vector>

#include "sparse_reference.hpp"
#include "trn/sparse/sparse.hpp"

namespace sp = trn::sparse;

namespace {

// A sparse matrix as row -> (column -> value), converted to BSR with square blocks.
using Rows = std::vector<std::map<std::int64_t, double>>;

Rows laplacian(const std::vector<std::int64_t>& dims, double sign) {
  std::int64_t n = 1;
  for (auto d : dims) n *= d;
  Rows a(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t rest = i, stride = 1;
    a[static_cast<std::size_t>(i)][i] = sign * 2.0 * static_cast<double>(dims.size());
    for (auto d : dims) {
      const std::int64_t c = rest % d;
      rest /= d;
      if (c > 0) a[static_cast<std::size_t>(i)][i - stride] = -sign;
      if (c + 1 < d) a[static_cast<std::size_t>(i)][i + stride] = -sign;
      stride *= d;
    }
  }
  return a;
}

struct Bsr {
  std::int64_t nb, bs;
  std::vector<std::int64_t> off, col;
  std::vector<float> val;
  sp::BsrView view() {
    return {nb, nb, static_cast<std::int64_t>(col.size()), bs, bs, off.data(), col.data(), val.data(), sp::IndexType::i64,
            sp::IndexType::i64, sp::IndexBase::zero, trn::DType::f32, sp::BlockOrder::col};
  }
};
Bsr to_bsr(const Rows& a, std::int64_t bs) {
  Bsr b{static_cast<std::int64_t>(a.size()) / bs, bs, {0}, {}, {}};
  for (std::int64_t R = 0; R < b.nb; ++R) {
    std::map<std::int64_t, std::vector<float>> blocks;
    for (std::int64_t r = 0; r < bs; ++r)
      for (auto [c, v] : a[static_cast<std::size_t>(R * bs + r)]) {
        auto& blk = blocks[c / bs];
        blk.resize(static_cast<std::size_t>(bs * bs), 0.0f);
        blk[static_cast<std::size_t>(r + (c % bs) * bs)] = static_cast<float>(v);  // column-major blocks
      }
    for (auto& [C, blk] : blocks) {
      b.col.push_back(C);
      b.val.insert(b.val.end(), blk.begin(), blk.end());
    }
    b.off.push_back(static_cast<std::int64_t>(b.col.size()));
  }
  return b;
}

// y = A u and (u, v) in float64 for the reference solvers below.
void matvec(const Rows& a, const std::vector<double>& u, std::vector<double>& out) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    double acc = 0;
    for (auto [c, val] : a[i]) acc += val * u[static_cast<std::size_t>(c)];
    out[i] = acc;
  }
}
double dot(const std::vector<double>& u, const std::vector<double>& v) {
  double acc = 0;
  for (std::size_t i = 0; i < u.size(); ++i) acc += u[i] * v[i];
  return acc;
}

// z = M^-1 r in float64: Jacobi (nullptr below), or block-Jacobi with the diagonal blocks inverted
// by Eigen's partial-pivoting LU.
using Precond = std::function<void(const std::vector<double>&, std::vector<double>&)>;
Precond block_jacobi_of(const Rows& a, std::int64_t bs) {
  std::vector<Eigen::MatrixXd> inv;
  for (std::size_t R = 0; R * static_cast<std::size_t>(bs) < a.size(); ++R) {
    Eigen::MatrixXd d = Eigen::MatrixXd::Zero(bs, bs);
    for (std::int64_t r = 0; r < bs; ++r)
      for (auto [c, v] : a[R * static_cast<std::size_t>(bs) + static_cast<std::size_t>(r)])
        if (c / bs == static_cast<std::int64_t>(R)) d(r, c % bs) = double(static_cast<float>(v));
    inv.push_back(d.inverse());
  }
  return [inv, bs](const std::vector<double>& r, std::vector<double>& z) {
    for (std::size_t R = 0; R < inv.size(); ++R) {
      const Eigen::Map<const Eigen::VectorXd> rr(r.data() + R * static_cast<std::size_t>(bs), bs);
      Eigen::Map<Eigen::VectorXd>(z.data() + R * static_cast<std::size_t>(bs), bs) = inv[R] * rr;
    }
  };
}
Precond jacobi_of(const Rows& a) {
  return [&a](const std::vector<double>& r, std::vector<double>& z) {
    for (std::size_t i = 0; i < r.size(); ++i) z[i] = r[i] / a[i].at(static_cast<std::int64_t>(i));
  };
}

// float64 preconditioned CG (Jacobi unless `precond` is given: sparse_ref::cg_iterations, the one
// CG oracle); returns iterations to ||r|| <= tol ||b||.
int reference_cg(const Rows& a, const std::vector<float>& bf, double tol, int max_it, Precond precond = nullptr) {
  if (!precond) precond = jacobi_of(a);
  return sparse_ref::cg_iterations([&a](const std::vector<double>& p, std::vector<double>& q) { matvec(a, p, q); },
                                   precond, bf, tol, max_it);
}

double true_residual(const Rows& a, const std::vector<float>& b, const std::vector<float>& x) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    double s = 0;
    for (auto [c, v] : a[i]) s += v * double(x[static_cast<std::size_t>(c)]);
    num += (double(b[i]) - s) * (double(b[i]) - s);
    den += double(b[i]) * double(b[i]);
  }
  return std::sqrt(num / den);
}

void solve_and_check(const std::vector<std::int64_t>& dims, float tol) {
  const Rows a = laplacian(dims, 1.0);
  Bsr A = to_bsr(a, 128);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> b(a.size()), x(a.size(), 0.0f);
  for (float& v : b) v = u(rng);
  const int ref_it = reference_cg(a, b, tol, 2000);
  const sp::CgResult r = sp::cg({}, A.view(), b.data(), x.data(), {2000, tol, true});
  ASSERT_TRUE(r.converged);
  EXPECT_FALSE(r.breakdown);
  EXPECT_LE(std::abs(r.iterations - ref_it), ref_it / 10 + 1) << "fp64 reference: " << ref_it << ", trnsparse " << r.iterations;
  EXPECT_EQ(r.residual_history.size(), static_cast<std::size_t>(r.iterations) + 1);
  EXPECT_LE(r.residual_history.back(), tol);
  // The recursively updated fp32 residual drifts from the true one by O(u kappa); allow 10x.
  EXPECT_LE(true_residual(a, b, x), 10 * tol);
  EXPECT_GT(r.modeled_ns, 0.0);
  std::printf("dims %zu: iterations %d (fp64 %d), true residual %.3e, modeled %.1f us, launches %lld, host reads %lld\n", dims.size(), r.iterations, ref_it, true_residual(a, b, x), r.modeled_ns * 1e-3, (long long)r.launches, (long long)r.host_scalar_reads);
}

TEST(Cg, Laplacian2dIn128BlocksMatchesFp64IterationCount) { solve_and_check({32, 32}, 1e-5f); }

TEST(Cg, Laplacian3dIn128BlocksMatchesFp64IterationCount) { solve_and_check({8, 8, 16}, 1e-5f); }

TEST(Cg, IndefiniteOperatorBreaksDownWithoutCrashing) {
  // -L with a flipped sign on half the diagonal: indefinite, Jacobi keeps signs mixed.
  Rows a = laplacian({16, 16}, 1.0);
  for (std::size_t i = 0; i < a.size(); i += 2)
    for (auto& [c, v] : a[i]) v = -v;
  Bsr A = to_bsr(a, 128);
  std::vector<float> b(a.size(), 1.0f), x(a.size(), 0.0f);
  const sp::CgResult r = sp::cg({}, A.view(), b.data(), x.data(), {200, 1e-6f, true});
  std::printf("indefinite: converged %d breakdown %d iterations %d last %.3e\n", r.converged, r.breakdown, r.iterations, r.residual_history.back());
  EXPECT_TRUE(r.breakdown);  // p^T A p <= 0 is detected before any division by it
  EXPECT_FALSE(r.converged);
  for (float v : x) ASSERT_TRUE(std::isfinite(v));
}

TEST(Cg, ZeroDiagonalIsRejected) {
  Rows a = laplacian({16, 16}, 1.0);
  a[3].erase(3);
  Bsr A = to_bsr(a, 128);
  std::vector<float> b(a.size(), 1.0f), x(a.size(), 0.0f);
  EXPECT_THROW(sp::cg({}, A.view(), b.data(), x.data()), sp::InvalidArgument);
}

}  // namespace

namespace {

// 2-D convection-diffusion, -Laplacian + c (u_i - u_{i-x}) (first-order upwind in x): nonsymmetric,
// diagonally dominant, the operator class BiCGStab is for.
Rows convection_diffusion(std::int64_t nx, std::int64_t ny, double c) {
  Rows a = laplacian({nx, ny}, 1.0);
  for (std::int64_t i = 0; i < nx * ny; ++i) {
    a[static_cast<std::size_t>(i)][i] += c;
    if (i % nx > 0) a[static_cast<std::size_t>(i)][i - 1] -= c;
  }
  return a;
}

// float64 right-preconditioned (Jacobi) BiCGStab, van der Vorst 1992, r^ = r_0; returns the
// iterations to ||r|| <= tol ||b|| counting a half-step exit as an iteration.
int reference_bicgstab(const Rows& a, const std::vector<float>& bf, double tol, int max_it) {
  const std::size_t n = bf.size();
  std::vector<double> b(n), x(n, 0.0), r(n), rh(n), p(n, 0.0), v(n, 0.0), s(n), t(n), ph(n), sh(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = r[i] = rh[i] = double(bf[i]);
  auto jacobi = [&](const std::vector<double>& u, std::vector<double>& out) {
    for (std::size_t i = 0; i < n; ++i) out[i] = u[i] / a[i].at(static_cast<std::int64_t>(i));
  };
  const double nb = std::sqrt(dot(b, b));
  double rho = 1, alpha = 1, omega = 1;
  for (int it = 0; it < max_it; ++it) {
    if (std::getenv("TRNSPARSE_KRYLOV_HISTORY") != nullptr) std::printf("  ref %d %.3e\n", it, std::sqrt(dot(r, r)) / nb);
    if (std::sqrt(dot(r, r)) <= tol * nb) return it;
    const double rho_new = dot(rh, r);
    const double beta = rho_new / rho * (alpha / omega);
    for (std::size_t i = 0; i < n; ++i) p[i] = r[i] + beta * (p[i] - omega * v[i]);
    jacobi(p, ph);
    matvec(a, ph, v);
    alpha = rho_new / dot(rh, v);
    for (std::size_t i = 0; i < n; ++i) s[i] = r[i] - alpha * v[i];
    if (std::sqrt(dot(s, s)) <= tol * nb) return it + 1;
    jacobi(s, sh);
    matvec(a, sh, t);
    omega = dot(t, s) / dot(t, t);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] += alpha * ph[i] + omega * sh[i];
      r[i] = s[i] - omega * t[i];
    }
    rho = rho_new;
  }
  return max_it;
}

}  // namespace

TEST(Bicgstab, ConvectionDiffusionIn128BlocksMatchesFp64IterationCount) {
  for (const double c : {0.5, 2.0}) {
    const Rows a = convection_diffusion(32, 32, c);
    Bsr A = to_bsr(a, 128);
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<float> u(-1, 1);
    std::vector<float> b(a.size()), x(a.size(), 0.0f);
    for (float& v : b) v = u(rng);
    const float tol = 1e-5f;
    const int ref_it = reference_bicgstab(a, b, tol, 2000);
    const sp::KrylovResult r = sp::bicgstab({}, A.view(), b.data(), x.data(), {2000, tol, true});
    ASSERT_TRUE(r.converged) << "c " << c;
    EXPECT_FALSE(r.breakdown);
    // BiCGStab's residual is not monotone and amplifies rounding differences: the fp32 run tracks the
    // fp64 one to 3-4 digits for the first ~12 iterations (c = 0.5) and then wanders from it, so
    // the iteration counts agree only to a quarter here (c = 0.5: 57 vs 45; c = 2: 33 vs 33). The
    // true residual below is the sharp check that the answer is right.
    EXPECT_LE(std::abs(r.iterations - ref_it), ref_it / 4 + 2) << "c " << c << ": fp64 " << ref_it << ", trnsparse " << r.iterations;
    EXPECT_EQ(r.residual_history.size(), static_cast<std::size_t>(r.iterations) + 1);
    EXPECT_LE(r.residual_history.back(), tol);
    // The recursively updated fp32 residual drifts from the true one by O(u kappa); allow 10x.
    EXPECT_LE(true_residual(a, b, x), 10 * tol) << "c " << c;
    EXPECT_GT(r.modeled_ns, 0.0);
    if (std::getenv("TRNSPARSE_KRYLOV_HISTORY") != nullptr)
      for (std::size_t i = 0; i < r.residual_history.size(); ++i) std::printf("  %zu %.3e\n", i, r.residual_history[i]);
    std::printf("c %.1f: iterations %d (fp64 %d), true residual %.3e, modeled %.1f us, launches %lld\n", c, r.iterations,
                ref_it, true_residual(a, b, x), r.modeled_ns * 1e-3, static_cast<long long>(r.launches));
  }
}

TEST(Bicgstab, CgCannotSolveWhatBicgstabSolves) {
  // The same nonsymmetric operator: CG has no convergence guarantee and here fails to reach the
  // tolerance in the iterations BiCGStab needs many times over, which is why BiCGStab exists.
  const Rows a = convection_diffusion(32, 32, 2.0);
  Bsr A = to_bsr(a, 128);
  std::vector<float> b(a.size(), 1.0f), x1(a.size(), 0.0f), x2(a.size(), 0.0f);
  const sp::KrylovResult bi = sp::bicgstab({}, A.view(), b.data(), x1.data(), {500, 1e-5f, true});
  const sp::KrylovResult cg = sp::cg({}, A.view(), b.data(), x2.data(), {4 * bi.iterations, 1e-5f, true});
  ASSERT_TRUE(bi.converged);
  EXPECT_FALSE(cg.converged && true_residual(a, b, x2) <= 1e-4) << "cg iterations " << cg.iterations;
}

TEST(Bicgstab, ZeroDiagonalIsRejectedAndUnpreconditionedWorks) {
  Rows a = convection_diffusion(16, 16, 1.0);
  std::vector<float> b(a.size(), 1.0f), x(a.size(), 0.0f);
  Bsr A = to_bsr(a, 128);
  const sp::KrylovResult r = sp::bicgstab({}, A.view(), b.data(), x.data(), {1000, 1e-5f, false});
  EXPECT_TRUE(r.converged);
  EXPECT_LE(true_residual(a, b, x), 1e-4);
  a[5].erase(5);
  Bsr Z = to_bsr(a, 128);
  EXPECT_THROW(sp::bicgstab({}, Z.view(), b.data(), x.data()), sp::InvalidArgument);
}

namespace {

// float64 restarted GMRES(m) with right Jacobi preconditioning, the same algorithm as the library
// (modified Gram-Schmidt Arnoldi, Givens rotations; Saad 2003, Alg. 6.9); returns the Arnoldi steps
// until the least-squares residual |g_{j+1}| <= tol ||b|| (or the true residual at a restart).
int reference_gmres(const Rows& a, const std::vector<float>& bf, double tol, int m, int max_it, Precond precond = nullptr) {
  if (!precond) precond = jacobi_of(a);
  const std::size_t n = bf.size();
  std::vector<double> b(n), x(n, 0.0), r(n), w(n), z(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = double(bf[i]);
  const double nb = std::sqrt(dot(b, b));
  int it = 0;
  while (true) {
    matvec(a, x, r);
    for (std::size_t i = 0; i < n; ++i) r[i] = b[i] - r[i];
    const double beta = std::sqrt(dot(r, r));
    if (beta <= tol * nb || it >= max_it) return it;
    std::vector<std::vector<double>> V(1, r);
    for (double& v : V[0]) v /= beta;
    std::vector<std::vector<double>> H(static_cast<std::size_t>(m), std::vector<double>(static_cast<std::size_t>(m) + 1, 0.0));
    std::vector<double> cs(static_cast<std::size_t>(m)), sn(static_cast<std::size_t>(m)), g(static_cast<std::size_t>(m) + 1, 0.0);
    g[0] = beta;
    int steps = 0;
    for (int j = 0; j < m && it < max_it; ++j) {
      auto& h = H[static_cast<std::size_t>(j)];
      precond(V[static_cast<std::size_t>(j)], z);
      matvec(a, z, w);
      for (int i = 0; i <= j; ++i) {
        h[static_cast<std::size_t>(i)] = dot(w, V[static_cast<std::size_t>(i)]);
        for (std::size_t q = 0; q < n; ++q) w[q] -= h[static_cast<std::size_t>(i)] * V[static_cast<std::size_t>(i)][q];
      }
      h[static_cast<std::size_t>(j) + 1] = std::sqrt(dot(w, w));
      V.push_back(w);
      for (double& v : V.back()) v /= h[static_cast<std::size_t>(j) + 1];
      for (int i = 0; i < j; ++i) {
        const double t = cs[static_cast<std::size_t>(i)] * h[static_cast<std::size_t>(i)] + sn[static_cast<std::size_t>(i)] * h[static_cast<std::size_t>(i) + 1];
        h[static_cast<std::size_t>(i) + 1] = -sn[static_cast<std::size_t>(i)] * h[static_cast<std::size_t>(i)] + cs[static_cast<std::size_t>(i)] * h[static_cast<std::size_t>(i) + 1];
        h[static_cast<std::size_t>(i)] = t;
      }
      const double rr = std::hypot(h[static_cast<std::size_t>(j)], h[static_cast<std::size_t>(j) + 1]);
      cs[static_cast<std::size_t>(j)] = h[static_cast<std::size_t>(j)] / rr;
      sn[static_cast<std::size_t>(j)] = h[static_cast<std::size_t>(j) + 1] / rr;
      h[static_cast<std::size_t>(j)] = rr;
      g[static_cast<std::size_t>(j) + 1] = -sn[static_cast<std::size_t>(j)] * g[static_cast<std::size_t>(j)];
      g[static_cast<std::size_t>(j)] *= cs[static_cast<std::size_t>(j)];
      ++it;
      ++steps;
      if (std::fabs(g[static_cast<std::size_t>(j) + 1]) <= tol * nb) break;
    }
    std::vector<double> y(static_cast<std::size_t>(steps));
    for (int i = steps - 1; i >= 0; --i) {
      double acc = g[static_cast<std::size_t>(i)];
      for (int l = i + 1; l < steps; ++l) acc -= H[static_cast<std::size_t>(l)][static_cast<std::size_t>(i)] * y[static_cast<std::size_t>(l)];
      y[static_cast<std::size_t>(i)] = acc / H[static_cast<std::size_t>(i)][static_cast<std::size_t>(i)];
    }
    std::vector<double> u(n, 0.0);
    for (std::size_t q = 0; q < n; ++q)
      for (int i = 0; i < steps; ++i) u[q] += y[static_cast<std::size_t>(i)] * V[static_cast<std::size_t>(i)][q];
    precond(u, z);
    for (std::size_t q = 0; q < n; ++q) x[q] += z[q];
  }
}

// GMRES(m) on the nonsymmetric convection-diffusion operator, restart lengths 10 and 40 (one and
// several cycles), against the float64 GMRES above: Arnoldi step counts within 10% (+1), the
// true residual within 10x the tolerance.
TEST(Gmres, ConvectionDiffusionIn128BlocksMatchesFp64IterationCount) {
  const Rows a = convection_diffusion(32, 32, 2.0);
  Bsr A = to_bsr(a, 128);
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> b(a.size());
  for (float& v : b) v = u(rng);
  const float tol = 1e-5f;
  for (const int m : {5, 10, 40}) {
    std::vector<float> x(a.size(), 0.0f);
    const int ref_it = reference_gmres(a, b, tol, m, 2000);
    sp::KrylovOptions opt{2000, tol, true};
    opt.restart = m;
    const sp::KrylovResult r = sp::gmres({}, A.view(), b.data(), x.data(), opt);
    ASSERT_TRUE(r.converged) << "m " << m;
    EXPECT_FALSE(r.breakdown);
    EXPECT_LE(std::abs(r.iterations - ref_it), ref_it / 10 + 1) << "m " << m << ": fp64 " << ref_it << ", trnsparse " << r.iterations;
    EXPECT_EQ(r.residual_history.size(), static_cast<std::size_t>(r.iterations) + 1);
    EXPECT_LE(true_residual(a, b, x), 10 * tol) << "m " << m;
    for (std::size_t i = 1; i < r.residual_history.size(); ++i)  // within a cycle the estimate never grows
      if ((i - 1) % static_cast<std::size_t>(m) != 0) {
        EXPECT_LE(r.residual_history[i], r.residual_history[i - 1] * (1 + 1e-5)) << i;
      }
    std::printf("gmres(%d): iterations %d (fp64 %d), true residual %.3e, modeled %.1f us, launches %lld, host reads %lld\n",
                m, r.iterations, ref_it, true_residual(a, b, x), r.modeled_ns * 1e-3, static_cast<long long>(r.launches),
                static_cast<long long>(r.host_scalar_reads));
  }
}

TEST(Gmres, BadInputAndInvariantSubspace) {
  Rows a = convection_diffusion(16, 16, 1.0);
  std::vector<float> b(a.size(), 1.0f), x(a.size(), 0.0f);
  Bsr A = to_bsr(a, 128);
  sp::KrylovOptions opt;
  opt.restart = 0;
  EXPECT_THROW(sp::gmres({}, A.view(), b.data(), x.data(), opt), sp::InvalidArgument);
  opt.restart = 5;
  EXPECT_THROW(sp::gmres({}, A.view(), nullptr, x.data(), opt), sp::InvalidArgument);
  a[5].erase(5);
  Bsr Z = to_bsr(a, 128);
  EXPECT_THROW(sp::gmres({}, Z.view(), b.data(), x.data(), opt), sp::InvalidArgument);
  // A diagonal operator with Jacobi: M^-1 A = I, so one Arnoldi step spans the solution (h_21 = 0,
  // the "lucky" breakdown) and the answer is exact to rounding.
  Rows d(256);
  for (std::size_t i = 0; i < d.size(); ++i) d[i][static_cast<std::int64_t>(i)] = 1.0 + double(i % 7);
  Bsr D = to_bsr(d, 128);
  std::vector<float> bd(d.size()), xd(d.size(), 0.0f);
  for (std::size_t i = 0; i < bd.size(); ++i) bd[i] = static_cast<float>(i % 5) - 2.0f;
  const sp::KrylovResult r = sp::gmres({}, D.view(), bd.data(), xd.data(), opt);
  EXPECT_TRUE(r.converged);
  EXPECT_FALSE(r.breakdown);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_LE(true_residual(d, bd, xd), 1e-5);  // a few fp32 roundings (normalise, divide, scale) per entry
}

}  // namespace

namespace {

// Block-Jacobi (128 x 128 diagonal blocks inverted on the engines) against float64 solvers with
// the same preconditioner (blocks inverted by Eigen's LU): CG on the 2-D Laplacian and GMRES(20) on
// convection-diffusion, iteration counts within 10% (+1), true residuals; block-Jacobi needs fewer
// iterations than Jacobi; a singular diagonal block and rectangular blocks are rejected.
TEST(BlockJacobi, CgAndGmresMatchFp64WithTheSamePreconditioner) {
  const float tol = 1e-5f;
  {
    const Rows a = laplacian({32, 32}, 1.0);
    Bsr A = to_bsr(a, 128);
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<float> u(-1, 1);
    std::vector<float> b(a.size()), x(a.size(), 0.0f), xj(a.size(), 0.0f);
    for (float& v : b) v = u(rng);
    const int ref_it = reference_cg(a, b, tol, 2000, block_jacobi_of(a, 128));
    sp::KrylovOptions opt{2000, tol, true};
    opt.block_jacobi = true;
    const sp::KrylovResult r = sp::cg({}, A.view(), b.data(), x.data(), opt);
    const sp::KrylovResult rj = sp::cg({}, A.view(), b.data(), xj.data(), {2000, tol, true});
    ASSERT_TRUE(r.converged);
    EXPECT_LE(std::abs(r.iterations - ref_it), ref_it / 10 + 1) << "fp64 " << ref_it << ", trnsparse " << r.iterations;
    EXPECT_LT(r.iterations, rj.iterations);
    EXPECT_LE(true_residual(a, b, x), 10 * tol);
    sp::KrylovOptions setup = opt;
    setup.max_iterations = 0;
    std::vector<float> x0(a.size(), 0.0f);
    const sp::KrylovResult r0 = sp::cg({}, A.view(), b.data(), x0.data(), setup);  // the inversion and r_0 only
    std::printf("block-Jacobi cg: iterations %d (fp64 %d, Jacobi %d), true residual %.3e, modeled %.1f us (setup %.1f us)\n",
                r.iterations, ref_it, rj.iterations, true_residual(a, b, x), r.modeled_ns * 1e-3, r0.modeled_ns * 1e-3);
  }
  {
    const Rows a = convection_diffusion(32, 32, 2.0);
    Bsr A = to_bsr(a, 128);
    std::mt19937_64 rng(9);
    std::uniform_real_distribution<float> u(-1, 1);
    std::vector<float> b(a.size()), x(a.size(), 0.0f);
    for (float& v : b) v = u(rng);
    const int ref_it = reference_gmres(a, b, tol, 20, 2000, block_jacobi_of(a, 128));
    sp::KrylovOptions opt{2000, tol, true};
    opt.block_jacobi = true;
    opt.restart = 20;
    const sp::KrylovResult r = sp::gmres({}, A.view(), b.data(), x.data(), opt);
    ASSERT_TRUE(r.converged);
    EXPECT_LE(std::abs(r.iterations - ref_it), ref_it / 10 + 1) << "fp64 " << ref_it << ", trnsparse " << r.iterations;
    EXPECT_LE(true_residual(a, b, x), 10 * tol);
    std::printf("block-Jacobi gmres(20): iterations %d (fp64 %d), true residual %.3e, modeled %.1f us\n", r.iterations,
                ref_it, true_residual(a, b, x), r.modeled_ns * 1e-3);
  }
}

TEST(BlockJacobi, SingularOrRectangularBlocksAreRejected) {
  Rows a = laplacian({16, 16}, 1.0);
  std::vector<float> b(a.size(), 1.0f), x(a.size(), 0.0f);
  sp::KrylovOptions opt;
  opt.block_jacobi = true;
  // Row 3 of the first diagonal block zero within the block: that block is singular.
  for (auto it = a[3].begin(); it != a[3].end();) it = it->first < 128 ? a[3].erase(it) : std::next(it);
  a[3][200] = 1.0;
  Bsr S = to_bsr(a, 128);
  EXPECT_THROW(sp::cg({}, S.view(), b.data(), x.data(), opt), sp::InvalidArgument);
  for (float v : x) ASSERT_EQ(v, 0.0f);
  Bsr R = to_bsr(laplacian({16, 16}, 1.0), 128);
  sp::BsrView rect = R.view();
  rect.bcols = 4;
  rect.col_block = 64;  // the same values read as 128 x 64 blocks
  rect.bnnz = 0;
  std::vector<std::int64_t> off(3, 0);
  rect.offsets = off.data();
  EXPECT_THROW(sp::gmres({}, rect, b.data(), x.data(), opt), sp::InvalidArgument);
}

// The solvers' launches run on one core whatever the settings' count (the host reads a scalar between
// launches), but the result's profile is stated over the settings' cores, as every library's report
// (ReportSettings::of): with 3 cores Profile::cores is 3 (it stayed 1: append_sequential did not carry
// the count and the launches were modeled without it), while x, the iterations and the modeled time
// keep their one-core bits.
TEST(KrylovProfile, StatedOverTheSettingsCoresWithTheOneCoreBitsAndTime) {
  const Rows a = convection_diffusion(16, 16, 1.0);
  Bsr A = to_bsr(a, 128);
  std::vector<float> b(a.size(), 1.0f);
  using Solver = sp::KrylovResult (*)(const sp::Settings&, const sp::BsrView&, const float*, float*, const sp::KrylovOptions&);
  const std::pair<const char*, Solver> solvers[] = {{"cg", sp::cg}, {"bicgstab", sp::bicgstab}, {"gmres", sp::gmres}};
  for (const auto& [name, solve] : solvers) {
    sp::Settings one, three;
    three.num_cores = 3;
    std::vector<float> x1(a.size(), 0.0f), x3(a.size(), 0.0f);
    const sp::KrylovResult r1 = solve(one, A.view(), b.data(), x1.data(), {40, 1e-5f, true});
    const sp::KrylovResult r3 = solve(three, A.view(), b.data(), x3.data(), {40, 1e-5f, true});
    EXPECT_EQ(r1.profile.cores, 1) << name;
    EXPECT_EQ(r3.profile.cores, 3) << name;
    EXPECT_EQ(r3.iterations, r1.iterations) << name;
    EXPECT_EQ(r3.launches, r1.launches) << name;
    EXPECT_EQ(r3.modeled_ns, r1.modeled_ns) << name;
    EXPECT_EQ(r3.profile.total_ns, r1.profile.total_ns) << name;
    EXPECT_EQ(std::memcmp(x1.data(), x3.data(), x1.size() * sizeof(float)), 0) << name;
    EXPECT_GT(r1.profile.total_ns, 0.0) << name;
    // The utilisation denominators: the same busy time over three cores' worth of time.
    EXPECT_NEAR(r3.profile.utilization(trn::Engine::vector) * 3, r1.profile.utilization(trn::Engine::vector), 1e-12) << name;
  }
}

}  // namespace
