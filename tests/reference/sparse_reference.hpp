// The one sparse oracle of the trnsparse tests, `trnsci validate`'s sparse suite and
// bench_trnsparse: a sparse matrix is checked through its dense (column-major) expansion, written
// here from the stored blocks, and dense products through OpenBLAS SGEMM with the elementwise
// magnitude |alpha| |op(A)| |op(B)| + |beta| |C| in FP64 and the documented bound; block-sparse
// attention through dense masked attention in FP64; Krylov solvers through an FP64 CG. Nothing here
// calls trnsparse.
#pragma once
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

namespace sparse_ref {

// Column-major (brows rb) x (bcols cb) expansion of a BSR matrix given 0-based block-row offsets
// and block columns; `value(e, within)` reads element `within` of stored block e, where within =
// r cb + c for row-ordered blocks (`row_order`) and r + c rb otherwise.
template <class Value>
std::vector<float> bsr_to_dense(std::int64_t brows, std::int64_t bcols, std::int64_t rb, std::int64_t cb,
                                const std::vector<std::int64_t>& offsets, const std::vector<std::int64_t>& columns,
                                bool row_order, Value value) {
  const std::int64_t rows = brows * rb;
  std::vector<float> d(static_cast<std::size_t>(rows * bcols * cb), 0.0f);
  for (std::int64_t R = 0; R < brows; ++R)
    for (std::int64_t e = offsets[static_cast<std::size_t>(R)]; e < offsets[static_cast<std::size_t>(R) + 1]; ++e)
      for (std::int64_t r = 0; r < rb; ++r)
        for (std::int64_t c = 0; c < cb; ++c) {
          const std::int64_t within = row_order ? r * cb + c : r + c * rb;
          d[static_cast<std::size_t>((R * rb + r) + (columns[static_cast<std::size_t>(e)] * cb + c) * rows)] =
              value(e, within);
        }
  return d;
}

// C = alpha op(A) op(B) + beta C in column-major fp32 with OpenBLAS, and |alpha| |op(A)| |op(B)| +
// |beta| |C| in double for the bound. A is ar x ac, B br x bc (column-major, ld = rows).
struct Reference {
  std::vector<float> c;       // M x n column-major
  std::vector<double> scale;  // the elementwise magnitude the error is measured against
};
inline Reference reference_gemm(CBLAS_TRANSPOSE opA, CBLAS_TRANSPOSE opB, std::int64_t M, std::int64_t n, std::int64_t K, float alpha,
                                const std::vector<float>& A, std::int64_t lda, const std::vector<float>& B,
                                std::int64_t ldb, float beta, const std::vector<float>& C0) {
  Reference r;
  r.c = C0;
  if (M > 0 && n > 0)
    cblas_sgemm(CblasColMajor, opA, opB, static_cast<int>(M), static_cast<int>(n), static_cast<int>(K),
                alpha, A.data(), static_cast<int>(std::max<std::int64_t>(1, lda)), B.data(),
                static_cast<int>(std::max<std::int64_t>(1, ldb)), beta, r.c.data(), static_cast<int>(std::max<std::int64_t>(1, M)));
  r.scale.assign(static_cast<std::size_t>(M * n), 0.0);
  auto a = [&](std::int64_t i, std::int64_t k) { return opA == CblasNoTrans ? A[static_cast<std::size_t>(i + k * lda)] : A[static_cast<std::size_t>(k + i * lda)]; };
  auto b = [&](std::int64_t k, std::int64_t j) { return opB == CblasNoTrans ? B[static_cast<std::size_t>(k + j * ldb)] : B[static_cast<std::size_t>(j + k * ldb)]; };
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < M; ++i) {
      double s = 0;
      for (std::int64_t k = 0; k < K; ++k) s += std::fabs(double(a(i, k)) * double(b(k, j)));
      r.scale[static_cast<std::size_t>(i + j * M)] =
          std::fabs(alpha) * s + std::fabs(beta) * std::fabs(double(C0[static_cast<std::size_t>(i + j * M)]));
    }
  return r;
}

// The documented bound (docs/trnsparse.md "Accuracy"): both results are fp32 sums of the same k
// products with at most k + 2 roundings each (k accumulation steps, alpha, beta), so
// |ours - ref| <= 2 (k + 2) u scale, u = 2^-24, plus the smallest subnormal for underflow.
inline double bound(std::int64_t k, double scale) { return 2.0 * double(k + 2) * 0x1p-24 * scale + 0x1p-149; }

// Dense masked attention in float64 over a block mask (nb block rows of b rows; block row R
// attends to the b keys of each block column col[off[R] .. off[R + 1])): O, the row logsumexp L
// and, given dO, the analytic gradients dQ, dK, dV (the softmax Jacobian written out:
// dS = P o (dO V^T - rowsum(dO o O))). Q, K, V, dO are seq x d row-major.
struct Attention {
  std::vector<double> O, L, dQ, dK, dV;
};
inline Attention dense_attention(std::int64_t nb, std::int64_t b, const std::vector<std::int64_t>& off,
                                 const std::vector<std::int64_t>& col, std::int64_t d, const std::vector<double>& Q,
                                 const std::vector<double>& K, const std::vector<double>& V, double scale,
                                 const std::vector<double>* dO) {
  const std::int64_t seq = nb * b;
  const auto sz = static_cast<std::size_t>(seq * d);
  Attention r{std::vector<double>(sz, 0.0), std::vector<double>(static_cast<std::size_t>(seq), -INFINITY),
              std::vector<double>(sz, 0.0), std::vector<double>(sz, 0.0), std::vector<double>(sz, 0.0)};
  for (std::int64_t q = 0; q < seq; ++q) {
    const std::int64_t R = q / b;
    std::vector<std::int64_t> keys;
    for (std::int64_t e = off[static_cast<std::size_t>(R)]; e < off[static_cast<std::size_t>(R) + 1]; ++e)
      for (std::int64_t k = 0; k < b; ++k) keys.push_back(col[static_cast<std::size_t>(e)] * b + k);
    if (keys.empty()) continue;
    std::vector<double> p(keys.size());
    double mx = -INFINITY;
    for (std::size_t t = 0; t < keys.size(); ++t) {
      double acc = 0;
      for (std::int64_t c = 0; c < d; ++c) acc += Q[static_cast<std::size_t>(q * d + c)] * K[static_cast<std::size_t>(keys[t] * d + c)];
      p[t] = scale * acc;
      mx = std::max(mx, p[t]);
    }
    double sum = 0;
    for (double& x : p) sum += (x = std::exp(x - mx));
    r.L[static_cast<std::size_t>(q)] = mx + std::log(sum);
    for (double& x : p) x /= sum;
    for (std::size_t t = 0; t < keys.size(); ++t)
      for (std::int64_t c = 0; c < d; ++c) r.O[static_cast<std::size_t>(q * d + c)] += p[t] * V[static_cast<std::size_t>(keys[t] * d + c)];
    if (dO == nullptr) continue;
    double delta = 0;
    for (std::int64_t c = 0; c < d; ++c) delta += (*dO)[static_cast<std::size_t>(q * d + c)] * r.O[static_cast<std::size_t>(q * d + c)];
    for (std::size_t t = 0; t < keys.size(); ++t) {
      const std::size_t kr = static_cast<std::size_t>(keys[t] * d);
      double dp = 0;
      for (std::int64_t c = 0; c < d; ++c) dp += (*dO)[static_cast<std::size_t>(q * d + c)] * V[kr + static_cast<std::size_t>(c)];
      const double ds = p[t] * (dp - delta);
      for (std::int64_t c = 0; c < d; ++c) {
        r.dV[kr + static_cast<std::size_t>(c)] += p[t] * (*dO)[static_cast<std::size_t>(q * d + c)];
        r.dQ[static_cast<std::size_t>(q * d + c)] += scale * ds * K[kr + static_cast<std::size_t>(c)];
        r.dK[kr + static_cast<std::size_t>(c)] += scale * ds * Q[static_cast<std::size_t>(q * d + c)];
      }
    }
  }
  return r;
}

// FP64 preconditioned conjugate gradients from x0 = 0, the CG oracle of the trnsparse tests and
// `trnsci validate`: apply(p, q) sets q = A p, precond(r, z) sets z = M^-1 r (SPD A and M). Returns
// the iterations to ||r|| <= tol ||b|| (the recurrence residual; max_it when not reached).
using DVec = std::vector<double>;
inline int cg_iterations(const std::function<void(const DVec&, DVec&)>& apply,
                         const std::function<void(const DVec&, DVec&)>& precond, const std::vector<float>& b, double tol,
                         int max_it) {
  auto dot = [](const DVec& u, const DVec& v) {
    double acc = 0;
    for (std::size_t i = 0; i < u.size(); ++i) acc += u[i] * v[i];
    return acc;
  };
  const std::size_t n = b.size();
  DVec r(b.begin(), b.end()), z(n), p(n), q(n);
  precond(r, z);
  p = z;
  double rho = dot(r, z);
  const double nb = std::sqrt(dot(r, r));
  for (int it = 0; it < max_it; ++it) {
    if (std::sqrt(dot(r, r)) <= tol * nb) return it;
    apply(p, q);
    const double alpha = rho / dot(p, q);
    for (std::size_t i = 0; i < n; ++i) r[i] -= alpha * q[i];
    precond(r, z);
    const double rho_new = dot(r, z);
    for (std::size_t i = 0; i < n; ++i) p[i] = z[i] + rho_new / rho * p[i];
    rho = rho_new;
  }
  return max_it;
}

}  // namespace sparse_ref
