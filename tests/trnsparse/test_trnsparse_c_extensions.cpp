// trnsparse C extensions: trnsparseBsrCg / BsrBicgstab / BsrGmres and
// trnsparseBlockSparseAttentionForward / Backward. Solutions are checked by their true residual in
// double computed here; the shim must pass options through (same iterations as the C++ API) and
// the attention entry points must return the C++ kernels' bits; every bad argument is reported at
// its position with the outputs untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "trn/sparse/sparse.hpp"
#include "c_api_test_util.hpp"
#include "trnsparse.h"

namespace sp = trn::sparse;

namespace {

using trnsparse_test::g_lines;
using trnsparse_test::Handle;

// A square operator given densely (column-major n x n), stored as BSR with 128-blocks (row-major
// blocks, every block holding a nonzero stored).
struct Operator {
  std::int64_t n = 0, nb = 0, bs = 128;
  std::vector<double> dense;
  std::vector<std::int32_t> off{0}, col;
  std::vector<float> val;
  void build() {
    nb = n / bs;
    for (std::int64_t R = 0; R < nb; ++R) {
      for (std::int64_t C = 0; C < nb; ++C) {
        bool any = false;
        for (std::int64_t r = 0; r < bs; ++r)
          for (std::int64_t c = 0; c < bs; ++c) any = any || dense[static_cast<std::size_t>(R * bs + r + (C * bs + c) * n)] != 0.0;
        if (!any) continue;
        col.push_back(static_cast<std::int32_t>(C));
        for (std::int64_t r = 0; r < bs; ++r)
          for (std::int64_t c = 0; c < bs; ++c) val.push_back(static_cast<float>(dense[static_cast<std::size_t>(R * bs + r + (C * bs + c) * n)]));
      }
      off.push_back(static_cast<std::int32_t>(col.size()));
    }
  }
  double residual(const std::vector<float>& b, const std::vector<float>& x) const {
    double num = 0, den = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      double s = 0;
      for (std::int64_t j = 0; j < n; ++j) s += dense[static_cast<std::size_t>(i + j * n)] * x[static_cast<std::size_t>(j)];
      num += (b[static_cast<std::size_t>(i)] - s) * (b[static_cast<std::size_t>(i)] - s);
      den += double(b[static_cast<std::size_t>(i)]) * b[static_cast<std::size_t>(i)];
    }
    return std::sqrt(num / den);
  }
  sp::BsrView view() {
    return {nb, nb, static_cast<std::int64_t>(col.size()), bs, bs, off.data(), col.data(), val.data(), sp::IndexType::i32,
            sp::IndexType::i32, sp::IndexBase::zero, trn::DType::f32, sp::BlockOrder::row};
  }
};

// 2-D Laplacian on a g x g grid plus c times a first-order upwind convection term (c = 0: SPD).
Operator convection_diffusion(std::int64_t g, double c) {
  Operator a;
  a.n = g * g;
  a.dense.assign(static_cast<std::size_t>(a.n * a.n), 0.0);
  auto at = [&](std::int64_t i, std::int64_t j) -> double& { return a.dense[static_cast<std::size_t>(i + j * a.n)]; };
  for (std::int64_t i = 0; i < a.n; ++i) {
    const std::int64_t x = i % g, y = i / g;
    at(i, i) = 4.0 + c;
    if (x > 0) at(i, i - 1) = -1.0 - c;
    if (x + 1 < g) at(i, i + 1) = -1.0;
    if (y > 0) at(i, i - g) = -1.0;
    if (y + 1 < g) at(i, i + g) = -1.0;
  }
  a.build();
  return a;
}

TEST(CApiKrylov, SolversConvergeAndMatchTheCppApi) {
  for (int which = 0; which < 3; ++which) {
    Operator a = convection_diffusion(16, which == 0 ? 0.0 : 1.5);  // CG on the SPD Laplacian
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<float> u(-1, 1);
    std::vector<float> b(static_cast<std::size_t>(a.n)), x(b.size(), 0.0f), x_cpp(b.size(), 0.0f);
    for (float& v : b) v = u(rng);
    Handle hd;
    trnsparseConstSpMatDescr_t A = nullptr;
    ASSERT_EQ(trnsparseCreateConstBsr(&A, a.nb, a.nb, static_cast<std::int64_t>(a.col.size()), a.bs, a.bs, a.off.data(),
                                      a.col.data(), a.val.data(), TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                      TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F, TRNSPARSE_ORDER_ROW),
              TRNSPARSE_STATUS_SUCCESS);
    trnsparseConstDnVecDescr_t vb = nullptr;
    trnsparseDnVecDescr_t vx = nullptr;
    trnsparseCreateConstDnVec(&vb, a.n, b.data(), TRN_R_32F);
    trnsparseCreateDnVec(&vx, a.n, x.data(), TRN_R_32F);
    const int max_it = 500;
    std::vector<float> hist(max_it + 1, -1.0f);
    int it = -1, info = -1;
    sp::KrylovOptions opt{max_it, 1e-5f, true};
    opt.restart = 20;
    sp::KrylovResult ref;
    trnsparseStatus_t st{};
    if (which == 0) {
      st = trnsparseBsrCg(hd.h, A, vb, vx, 1e-5f, max_it, TRNSPARSE_PRECOND_JACOBI, &it, hist.data(), &info);
      ref = sp::cg({}, a.view(), b.data(), x_cpp.data(), opt);
    } else if (which == 1) {
      st = trnsparseBsrBicgstab(hd.h, A, vb, vx, 1e-5f, max_it, TRNSPARSE_PRECOND_JACOBI, &it, hist.data(), &info);
      ref = sp::bicgstab({}, a.view(), b.data(), x_cpp.data(), opt);
    } else {
      st = trnsparseBsrGmres(hd.h, A, vb, vx, 1e-5f, max_it, 20, TRNSPARSE_PRECOND_JACOBI, &it, hist.data(), &info);
      ref = sp::gmres({}, a.view(), b.data(), x_cpp.data(), opt);
    }
    ASSERT_EQ(st, TRNSPARSE_STATUS_SUCCESS) << which;
    EXPECT_EQ(info, 0) << which;
    EXPECT_EQ(it, ref.iterations) << which;
    EXPECT_EQ(x, x_cpp) << which;  // the same kernels: the same bits
    EXPECT_LE(a.residual(b, x), 1e-4) << which;
    EXPECT_FLOAT_EQ(hist[0], 1.0f);  // x0 = 0
    EXPECT_LE(hist[static_cast<std::size_t>(it)], 1e-5f);
    EXPECT_EQ(hist[static_cast<std::size_t>(it) + 1], -1.0f);  // nothing written past the history
    trnProfile_t p{};
    trnsparseGetLastProfile(hd.h, &p);
    EXPECT_DOUBLE_EQ(p.total_ns, ref.modeled_ns);
    // Block-Jacobi through the C API: converges too, and in no more iterations than Jacobi here.
    std::vector<float> xb(b.size(), 0.0f);
    trnsparseDnVecDescr_t vxb = nullptr;
    trnsparseCreateDnVec(&vxb, a.n, xb.data(), TRN_R_32F);
    int itb = -1, infob = -1;
    ASSERT_EQ(trnsparseBsrGmres(hd.h, A, vb, vxb, 1e-5f, max_it, 20, TRNSPARSE_PRECOND_BLOCK_JACOBI, &itb, nullptr, &infob),
              TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(infob, 0);
    EXPECT_LE(a.residual(b, xb), 1e-4);
    trnsparseDestroyDnVec(vxb);
    // An iteration limit is info 1, not an error.
    std::vector<float> x2(b.size(), 0.0f);
    trnsparseDnVecDescr_t vx2 = nullptr;
    trnsparseCreateDnVec(&vx2, a.n, x2.data(), TRN_R_32F);
    ASSERT_EQ(trnsparseBsrGmres(hd.h, A, vb, vx2, 1e-7f, 3, 2, TRNSPARSE_PRECOND_NONE, &it, nullptr, &info),
              TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(info, 1);
    EXPECT_EQ(it, 3);
    trnsparseDestroyDnVec(vx2);
    trnsparseDestroyDnVec(vb);
    trnsparseDestroyDnVec(vx);
    trnsparseDestroySpMat(A);
  }
}

TEST(CApiKrylov, BadArgumentsAtTheirPositionsAndXUntouched) {
  Operator a = convection_diffusion(16, 1.0);
  std::vector<float> b(static_cast<std::size_t>(a.n), 1.0f), x(b.size(), 0.25f), shortv(8, 0.0f);
  Handle hd;
  trnsparseSpMatDescr_t A = nullptr;
  trnsparseCreateBsr(&A, a.nb, a.nb, static_cast<std::int64_t>(a.col.size()), a.bs, a.bs, a.off.data(), a.col.data(),
                     a.val.data(), TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F,
                     TRNSPARSE_ORDER_ROW);
  trnsparseDnVecDescr_t vb = nullptr, vx = nullptr, vs = nullptr;
  trnsparseConstDnVecDescr_t cx = nullptr;
  trnsparseCreateDnVec(&vb, a.n, b.data(), TRN_R_32F);
  trnsparseCreateDnVec(&vx, a.n, x.data(), TRN_R_32F);
  trnsparseCreateDnVec(&vs, 8, shortv.data(), TRN_R_32F);
  trnsparseCreateConstDnVec(&cx, a.n, x.data(), TRN_R_32F);
  int it = 0, info = 0;
  auto gm = [&](trnsparseConstSpMatDescr_t m, trnsparseConstDnVecDescr_t bb, trnsparseDnVecDescr_t xx, float tol, int maxit,
                int restart, int pc, int* itp, int* infop) {
    return trnsparseBsrGmres(hd.h, m, bb, xx, tol, maxit, restart, static_cast<trnsparsePreconditioner_t>(pc), itp, nullptr, infop);
  };
  struct Case {
    trnsparseStatus_t st;
    int pos;
  };
  const std::vector<Case> cases = {
      {gm(nullptr, vb, vx, 1e-5f, 10, 5, 1, &it, &info), 1},
      {gm(A, vs, vx, 1e-5f, 10, 5, 1, &it, &info), 2},  // length mismatch
      {gm(A, vb, const_cast<trnsparseDnVecDescr_t>(cx), 1e-5f, 10, 5, 1, &it, &info), 3},  // const output
      {gm(A, vb, vx, -1.0f, 10, 5, 1, &it, &info), 4},
      {gm(A, vb, vx, 1e-5f, -1, 5, 1, &it, &info), 5},
      {gm(A, vb, vx, 1e-5f, 10, 0, 1, &it, &info), 6},
      {gm(A, vb, vx, 1e-5f, 10, 5, 7, &it, &info), 7},
      {gm(A, vb, vx, 1e-5f, 10, 5, 1, nullptr, &info), 8},
      {gm(A, vb, vx, 1e-5f, 10, 5, 1, &it, nullptr), 10},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(cases[i].st, TRNSPARSE_STATUS_INVALID_VALUE) << i;
  }
  // The recorded position of each (re-run one at a time to read it).
  ASSERT_EQ(gm(A, vb, vx, 1e-5f, 10, 0, 1, &it, &info), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(hd.last_param(), 6);
  EXPECT_NE(g_lines.back().find("trnsparseBsrGmres parameter number 6"), std::string::npos) << g_lines.back();
  ASSERT_EQ(trnsparseBsrCg(hd.h, A, vb, vx, 1e-5f, 10, static_cast<trnsparsePreconditioner_t>(5), &it, nullptr, &info),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(hd.last_param(), 6);
  // ILU0 / IC0 (3, 4) are CSR's: NOT_SUPPORTED on a BSR operator.
  EXPECT_EQ(trnsparseBsrCg(hd.h, A, vb, vx, 1e-5f, 10, TRNSPARSE_PRECOND_IC0, &it, nullptr, &info), TRNSPARSE_STATUS_NOT_SUPPORTED);
  ASSERT_EQ(trnsparseBsrBicgstab(hd.h, A, vb, vx, 1e-5f, 10, TRNSPARSE_PRECOND_JACOBI, &it, nullptr, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(hd.last_param(), 9);
  // A zero diagonal with Jacobi: INVALID_VALUE at matA; the same matrix without preconditioning runs.
  a.val[5 * 128 + 5] = 0.0f;  // block (0, 0), entry (5, 5)
  ASSERT_EQ(gm(A, vb, vx, 1e-5f, 10, 5, 1, &it, &info), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(hd.last_param(), 1);
  for (float v : x) ASSERT_EQ(v, 0.25f);
  // A corrupted pattern: INVALID_VALUE at matA.
  a.val[5 * 128 + 5] = 5.0f;
  a.col[0] = 99;
  ASSERT_EQ(gm(A, vb, vx, 1e-5f, 10, 5, 1, &it, &info), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(hd.last_param(), 1);
  a.col[0] = 0;
  for (float v : x) ASSERT_EQ(v, 0.25f);
  // A CSR operator runs the CSR solvers (test_trnsparse_krylov_generic): this all-zero one has no
  // diagonal for Jacobi (INVALID_VALUE at matA, x untouched); a CSC operator: NOT_SUPPORTED.
  std::vector<std::int32_t> ro(static_cast<std::size_t>(a.n) + 1, 0);
  trnsparseSpMatDescr_t csr = nullptr, csc = nullptr;
  trnsparseCreateCsr(&csr, a.n, a.n, 0, ro.data(), nullptr, nullptr, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                     TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F);
  EXPECT_EQ(gm(csr, vb, vx, 1e-5f, 10, 5, 1, &it, &info), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(hd.last_param(), 1);
  for (float v : x) ASSERT_EQ(v, 0.25f);
  trnsparseCreateCsc(&csc, a.n, a.n, 0, ro.data(), nullptr, nullptr, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                     TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F);
  EXPECT_EQ(gm(csc, vb, vx, 1e-5f, 10, 5, 1, &it, &info), TRNSPARSE_STATUS_NOT_SUPPORTED);
  trnsparseDestroySpMat(csc);
  EXPECT_EQ(trnsparseBsrCg(nullptr, A, vb, vx, 1e-5f, 10, TRNSPARSE_PRECOND_NONE, &it, nullptr, &info),
            TRNSPARSE_STATUS_NOT_INITIALIZED);
  // An empty system: solved by the empty x, b and x may be NULL.
  std::int32_t zero_off = 0;
  trnsparseSpMatDescr_t empty = nullptr;
  trnsparseDnVecDescr_t e0 = nullptr, e1 = nullptr;
  trnsparseCreateBsr(&empty, 0, 0, 0, 4, 4, &zero_off, nullptr, nullptr, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                     TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F, TRNSPARSE_ORDER_ROW);
  trnsparseCreateDnVec(&e0, 0, nullptr, TRN_R_32F);
  trnsparseCreateDnVec(&e1, 0, nullptr, TRN_R_32F);
  it = info = -1;
  EXPECT_EQ(trnsparseBsrCg(hd.h, empty, e0, e1, 1e-5f, 10, TRNSPARSE_PRECOND_JACOBI, &it, nullptr, &info),
            TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(it, 0);
  EXPECT_EQ(info, 0);
  trnsparseDestroyDnVec(e0);
  trnsparseDestroyDnVec(e1);
  trnsparseDestroySpMat(empty);
  trnsparseDestroySpMat(csr);
  trnsparseDestroyDnVec(vb);
  trnsparseDestroyDnVec(vx);
  trnsparseDestroyDnVec(vs);
  trnsparseDestroyDnVec(cx);
  trnsparseDestroySpMat(A);
}

// A 4 x 4 block mask of 32-blocks: diagonal plus block column 0.
struct AttnProblem {
  std::int64_t nb = 4, b = 32, d = 16, seq = 128;
  std::vector<std::int32_t> off{0, 1, 3, 5, 7}, col{0, 0, 1, 0, 2, 0, 3};
  std::vector<float> vals = std::vector<float>(7 * 32 * 32, 1.0f);
  std::vector<float> Q, K, V, dO;
  trnsparseSpMatDescr_t mask = nullptr;
  AttnProblem() {
    std::mt19937_64 rng(77);
    std::normal_distribution<float> g(0, 1);
    for (auto* v : {&Q, &K, &V, &dO}) {
      v->resize(static_cast<std::size_t>(seq * d));
      for (float& x : *v) x = g(rng);
    }
    trnsparseCreateBsr(&mask, nb, nb, 7, b, b, off.data(), col.data(), vals.data(), TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                       TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F, TRNSPARSE_ORDER_ROW);
  }
  ~AttnProblem() { trnsparseDestroySpMat(mask); }
  sp::BsrView view() {
    return {nb, nb, 7, b, b, off.data(), col.data(), vals.data(), sp::IndexType::i32, sp::IndexType::i32,
            sp::IndexBase::zero, trn::DType::f32, sp::BlockOrder::row};
  }
};

TEST(CApiAttention, ForwardAndBackwardReturnTheKernelsBits) {
  AttnProblem p;
  Handle hd;
  const std::size_t n = static_cast<std::size_t>(p.seq * p.d);
  for (trnDataType_t tt : {TRN_R_32F, TRN_R_16BF}) {
    const trn::DType tiles = tt == TRN_R_32F ? trn::DType::f32 : trn::DType::bf16;
    std::vector<float> O(n), L(static_cast<std::size_t>(p.seq)), O2(n), L2(L.size());
    ASSERT_EQ(trnsparseBlockSparseAttentionForward(hd.h, p.mask, p.d, p.Q.data(), p.K.data(), p.V.data(), 0.25f, O.data(),
                                                   L.data(), tt),
              TRNSPARSE_STATUS_SUCCESS);
    sp::attention_forward({}, p.view(), p.d, p.Q.data(), p.K.data(), p.V.data(), 0.25f, O2.data(), tiles, nullptr, L2.data());
    EXPECT_EQ(O, O2);
    EXPECT_EQ(L, L2);
    std::vector<float> dQ(n), dK(n), dV(n), dQ2(n), dK2(n), dV2(n);
    ASSERT_EQ(trnsparseBlockSparseAttentionBackward(hd.h, p.mask, p.d, p.Q.data(), p.K.data(), p.V.data(), O.data(),
                                                    p.dO.data(), L.data(), 0.25f, dQ.data(), dK.data(), dV.data(), tt),
              TRNSPARSE_STATUS_SUCCESS);
    sp::attention_backward({}, p.view(), p.d, p.Q.data(), p.K.data(), p.V.data(), O.data(), p.dO.data(), L.data(), 0.25f,
                           dQ2.data(), dK2.data(), dV2.data(), tiles);
    EXPECT_EQ(dQ, dQ2);
    EXPECT_EQ(dK, dK2);
    EXPECT_EQ(dV, dV2);
    trnProfile_t prof{};
    trnsparseGetLastProfile(hd.h, &prof);
    EXPECT_EQ(prof.instructions_per_engine[TRN_ENGINE_TENSOR], 8 * 7);  // 4 per block in each backward pass
  }
}

TEST(CApiAttention, BadArgumentsAtTheirPositionsAndOutputsUntouched) {
  AttnProblem p;
  Handle hd;
  const std::size_t n = static_cast<std::size_t>(p.seq * p.d);
  std::vector<float> O(n, 9.0f), L(static_cast<std::size_t>(p.seq), 9.0f), G(n, 9.0f);
  auto fwd = [&](trnsparseConstSpMatDescr_t m, std::int64_t d, const float* q, float scale, float* o, int tt) {
    return trnsparseBlockSparseAttentionForward(hd.h, m, d, q, p.K.data(), p.V.data(), scale, o, L.data(),
                                                static_cast<trnDataType_t>(tt));
  };
  auto bwd = [&](const float* d_o, const float* lse, float* dq, int tt) {
    return trnsparseBlockSparseAttentionBackward(hd.h, p.mask, p.d, p.Q.data(), p.K.data(), p.V.data(), O.data(), d_o, lse,
                                                 0.25f, dq, G.data(), G.data(), static_cast<trnDataType_t>(tt));
  };
  struct Case {
    trnsparseStatus_t st;
    int pos;
  };
  std::vector<Case> cases;
  auto add = [&](trnsparseStatus_t st, int pos) { cases.push_back({st, pos}); cases.back().pos = hd.last_param() == pos ? pos : -pos; };
  add(fwd(nullptr, p.d, p.Q.data(), 0.25f, O.data(), TRN_R_32F), 1);
  add(fwd(p.mask, 0, p.Q.data(), 0.25f, O.data(), TRN_R_32F), 2);
  add(fwd(p.mask, 129, p.Q.data(), 0.25f, O.data(), TRN_R_32F), 2);
  add(fwd(p.mask, p.d, nullptr, 0.25f, O.data(), TRN_R_32F), 3);
  add(fwd(p.mask, p.d, p.Q.data(), NAN, O.data(), TRN_R_32F), 6);
  add(fwd(p.mask, p.d, p.Q.data(), 0.25f, nullptr, TRN_R_32F), 7);
  add(fwd(p.mask, p.d, p.Q.data(), 0.25f, O.data(), TRN_R_16F), 9);
  add(bwd(nullptr, L.data(), G.data(), TRN_R_32F), 7);
  add(bwd(p.dO.data(), nullptr, G.data(), TRN_R_32F), 8);
  add(bwd(p.dO.data(), L.data(), nullptr, TRN_R_32F), 10);
  add(bwd(p.dO.data(), L.data(), G.data(), TRN_R_64F), 13);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(cases[i].st, TRNSPARSE_STATUS_INVALID_VALUE) << i;
    EXPECT_GT(cases[i].pos, 0) << "case " << i << ": position " << -cases[i].pos << " not recorded";
  }
  // A corrupted mask pattern (column out of range) and a non-square block mask.
  p.col[2] = 4;
  EXPECT_EQ(fwd(p.mask, p.d, p.Q.data(), 0.25f, O.data(), TRN_R_32F), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(hd.last_param(), 1);
  p.col[2] = 1;
  trnsparseSpMatDescr_t rect = nullptr;
  trnsparseCreateBsr(&rect, 4, 4, 7, 32, 16, p.off.data(), p.col.data(), p.vals.data(), TRNSPARSE_INDEX_32I,
                     TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F, TRNSPARSE_ORDER_ROW);
  EXPECT_EQ(fwd(rect, p.d, p.Q.data(), 0.25f, O.data(), TRN_R_32F), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(hd.last_param(), 1);
  trnsparseDestroySpMat(rect);
  for (float v : O) ASSERT_EQ(v, 9.0f);
  for (float v : L) ASSERT_EQ(v, 9.0f);
  for (float v : G) ASSERT_EQ(v, 9.0f);
}

}  // namespace
