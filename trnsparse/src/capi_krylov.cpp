// trnsparse C shim: the extensions, Krylov solvers (CG, BiCGStab, GMRES) and block-sparse attention.
#include <optional>

#include "capi_internal.hpp"
#include "trn/sparse/krylov_generic.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

namespace {

enum class Solver { cg, bicgstab, gmres };

// The outputs of a finished solve: iterations, info (0 converged, 1 iteration limit, 2 breakdown
// or a non-finite scalar), min(history, maxIterations + 1) residuals, the summed profile.
void report_solve(trnsparseHandle_t h, const sp::KrylovResult& r, int max_it, int* iterations, float* history, int* info) {
  *iterations = r.iterations;
  *info = r.converged ? 0 : r.breakdown ? 2 : 1;
  if (history != nullptr) {
    const std::size_t count = std::min(r.residual_history.size(), static_cast<std::size_t>(max_it) + 1);
    for (std::size_t k = 0; k < count; ++k) history[k] = static_cast<float>(r.residual_history[k]);
  }
  h->last_profile = r.profile.to_c();  // the launches' and host steps' profiles summed (total_ns: r.modeled_ns)
}

// The checks the CSR and BSR operators share (an n x n matA, vecB and vecX of n values of A's type,
// the descriptor's arrays) and the empty system's answer: a status when the call is finished (an
// error, or n = 0: solved by the empty x), nothing when the solve should run.
std::optional<trnsparseStatus_t> square_system_checked(Check& c, const trnsparseSpMatDescr* A, std::int64_t n, std::int64_t cols,
                                                       const trnsparseDnVecDescr* b, const trnsparseDnVecDescr* x,
                                                       int* iterations, float* history, int* info) {
  c.require(n == cols, 1, "matA");
  c.require(b->size == n && b->value_type == A->value_type, 2, "vecB");
  c.require(x->size == n && x->value_type == A->value_type, 3, "vecX");
  if (!check_sparse(c, A, 1, "matA")) return c.status();
  if (n == 0) {
    *iterations = 0;
    *info = 0;
    if (history != nullptr) history[0] = 0.0f;
    return TRNSPARSE_STATUS_SUCCESS;
  }
  return std::nullopt;
}

sp::GenericKrylovOptions options_of(float tol, int max_it, int restart) {
  sp::GenericKrylovOptions opt;
  opt.max_iterations = max_it;
  opt.tolerance = tol;
  opt.restart = restart;
  return opt;
}

// A CSR operator of any generic value type (trn/sparse/krylov_generic.hpp), after the shared checks.
trnsparseStatus_t krylov_csr(trnsparseHandle_t h, Solver which, const char* fn, Check& c, const trnsparseSpMatDescr* A,
                             const trnsparseDnVecDescr* b, trnsparseDnVecDescr* x, float tol, int max_it, int restart,
                             int precond, int* iterations, float* history, int* info) {
  c.require_or(is_generic_value_type(A->value_type), TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "Krylov solvers on CSR take R_32F, R_64F, C_32F or C_64F values");
  c.require_or(precond != TRNSPARSE_PRECOND_BLOCK_JACOBI, TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "BLOCK_JACOBI takes BSR operators");
  c.require_or(h->krylov_vector_type != TRN_R_16BF || A->value_type == TRN_R_32F, TRNSPARSE_STATUS_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_NOT_SUPPORTED", "bf16 Krylov vectors (SetKrylovVectorType) take R_32F operators");
  if (!c) return c.status();
  if (const auto done = square_system_checked(c, A, A->csr.rows, A->csr.cols, b, x, iterations, history, info)) return *done;
  sp::GenericKrylovOptions opt = options_of(tol, max_it, restart);
  opt.bf16_vectors = h->krylov_vector_type == TRN_R_16BF;  // rounded per h->settings' SR switch and seed
  opt.precond = precond == TRNSPARSE_PRECOND_JACOBI ? sp::KrylovPreconditioner::jacobi
                : precond == TRNSPARSE_PRECOND_ILU0 ? sp::KrylovPreconditioner::ilu0
                : precond == TRNSPARSE_PRECOND_IC0  ? sp::KrylovPreconditioner::ic0
                                                    : sp::KrylovPreconditioner::none;
  return run(h, fn, {{"matA", 1}, {"offsets", 1}, {"columns", 1}, {"nnz", 1}, {"values", 1}, {"vector", 3}, {"restart", 6}},
             [&] {
               const sp::SparseRef a = generic_of(A);
               const sp::KrylovResult r = which == Solver::cg         ? sp::cg(h->settings, a, b->values, x->values, opt)
                                          : which == Solver::bicgstab ? sp::bicgstab(h->settings, a, b->values, x->values, opt)
                                                                      : sp::gmres(h->settings, a, b->values, x->values, opt);
               report_solve(h, r, max_it, iterations, history, info);
             });
}

// A BSR operator of R_64F, C_32F or C_64F values (issue #28, s10/spgaps): the generic solvers of
// krylov_generic.hpp on the BSR, its SpMV the Ozaki block-row GEMMs (R_64F / C_64F) or the TensorE
// 2 x 2 embedding (C_32F), as trnsparseSpMV runs these; NONE or JACOBI (BLOCK_JACOBI: the fp32
// tile path's, NOT_SUPPORTED here).
trnsparseStatus_t krylov_bsr_wide(trnsparseHandle_t h, Solver which, const char* fn, Check& c, const trnsparseSpMatDescr* A,
                                  const trnsparseDnVecDescr* b, trnsparseDnVecDescr* x, float tol, int max_it, int restart,
                                  int precond, int* iterations, float* history, int* info) {
  c.require_or(is_generic_value_type(A->value_type), TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "Krylov solvers on BSR take R_32F, R_64F, C_32F or C_64F values");
  c.require_or(precond != TRNSPARSE_PRECOND_BLOCK_JACOBI, TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "BLOCK_JACOBI takes R_32F BSR operators");
  if (!c) return c.status();
  if (const auto done = square_system_checked(c, A, A->bsr.rows(), A->bsr.cols(), b, x, iterations, history, info)) return *done;
  sp::GenericKrylovOptions opt = options_of(tol, max_it, restart);
  opt.precond = precond == TRNSPARSE_PRECOND_JACOBI ? sp::KrylovPreconditioner::jacobi : sp::KrylovPreconditioner::none;
  const sp::Value v = generic_value(A->value_type);
  return run(h, fn, {{"matA", 1}, {"offsets", 1}, {"columns", 1}, {"values", 1}, {"vector", 3}, {"restart", 6}}, [&] {
    const sp::KrylovResult r = which == Solver::cg         ? sp::cg(h->settings, A->bsr, v, b->values, x->values, opt)
                               : which == Solver::bicgstab ? sp::bicgstab(h->settings, A->bsr, v, b->values, x->values, opt)
                                                           : sp::gmres(h->settings, A->bsr, v, b->values, x->values, opt);
    report_solve(h, r, max_it, iterations, history, info);
  });
}

// The shared body of trnsparseBsrCg/Bicgstab/Gmres. Positions: matA 1, vecB 2, vecX 3, tolerance 4,
// maxIterations 5, (GMRES: restart 6), then precond, iterations, residualHistory, info.
trnsparseStatus_t krylov(trnsparseHandle_t h, Solver which, const char* fn, const trnsparseSpMatDescr* A,
                         const trnsparseDnVecDescr* b, trnsparseDnVecDescr* x, float tol, int max_it, int restart,
                         int precond, int* iterations, float* history, int* info) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  const int shift = which == Solver::gmres ? 1 : 0;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.require(g_spmats.contains(A), 1, "matA").require(g_dnvecs.contains(b), 2, "vecB");
  c.require(g_dnvecs.contains(x) && !x->is_const, 3, "vecX").require(tol >= 0.0f, 4, "tolerance");
  c.nonnegative(max_it, 5, "maxIterations").require(which != Solver::gmres || restart >= 1, 6, "restart");
  c.one_of(precond,
           {TRNSPARSE_PRECOND_NONE, TRNSPARSE_PRECOND_JACOBI, TRNSPARSE_PRECOND_BLOCK_JACOBI, TRNSPARSE_PRECOND_ILU0,
            TRNSPARSE_PRECOND_IC0},
           6 + shift, "precond");
  c.not_null(iterations, 7 + shift, "iterations").not_null(info, 9 + shift, "info");
  if (!c) return c.status();
  c.require_or(A->format == TRNSPARSE_FORMAT_BSR || A->format == TRNSPARSE_FORMAT_CSR, TRNSPARSE_STATUS_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_NOT_SUPPORTED", "Krylov solvers take BSR or CSR operators");
  if (!c) return c.status();
  if (A->format == TRNSPARSE_FORMAT_CSR)
    return krylov_csr(h, which, fn, c, A, b, x, tol, max_it, restart, precond, iterations, history, info);
  c.require_or(precond != TRNSPARSE_PRECOND_ILU0 && precond != TRNSPARSE_PRECOND_IC0, TRNSPARSE_STATUS_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_NOT_SUPPORTED", "ILU0 / IC0 take CSR operators");
  c.require_or(h->krylov_vector_type != TRN_R_16BF, TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "bf16 Krylov vectors (SetKrylovVectorType) take R_32F CSR operators");
  if (!c) return c.status();
  if (A->wide)
    return krylov_bsr_wide(h, which, fn, c, A, b, x, tol, max_it, restart, precond, iterations, history, info);
  c.require(A->bsr.rows() == A->bsr.cols() && A->bsr.value_type == trn::DType::f32, 1, "matA");
  c.require(b->size == A->bsr.rows() && b->dtype == trn::DType::f32, 2, "vecB");
  c.require(x->size == A->bsr.rows() && x->dtype == trn::DType::f32, 3, "vecX");
  if (!check_sparse(c, A, 1, "matA")) return c.status();
  if (A->bsr.rows() == 0) {  // an empty system is solved by the empty x (b and x may be NULL)
    *iterations = 0;
    *info = 0;
    if (history != nullptr) history[0] = 0.0f;
    return TRNSPARSE_STATUS_SUCCESS;
  }
  sp::KrylovOptions opt;
  opt.max_iterations = max_it;
  opt.tolerance = tol;
  opt.jacobi = precond == TRNSPARSE_PRECOND_JACOBI;
  opt.block_jacobi = precond == TRNSPARSE_PRECOND_BLOCK_JACOBI;
  opt.restart = restart;
  return run(h, fn, {{"matA", 1}, {"valueType", 1}, {"vector", 3}, {"restart", 6}}, [&] {
    const auto* bv = static_cast<const float*>(b->values);
    auto* xv = static_cast<float*>(x->values);
    const sp::KrylovResult r = which == Solver::cg         ? sp::cg(h->settings, A->bsr, bv, xv, opt)
                               : which == Solver::bicgstab ? sp::bicgstab(h->settings, A->bsr, bv, xv, opt)
                                                           : sp::gmres(h->settings, A->bsr, bv, xv, opt);
    report_solve(h, r, max_it, iterations, history, info);
  });
}

// Mask, head dimension and tile type checks shared by the attention entry points (positions 1, 2
// and `tile_pos`); seq = rows(mask).
Check& attention_checks(Check& c, const trnsparseSpMatDescr* mask, int64_t head_dim, int tile_type, int tile_pos) {
  c.require(g_spmats.contains(mask), 1, "mask").require(head_dim >= 1 && head_dim <= 128, 2, "headDim");
  c.one_of(tile_type, {TRN_R_32F, TRN_R_16BF}, tile_pos, "tileType");
  if (!c) return c;
  c.require_or(mask->format == TRNSPARSE_FORMAT_BSR, TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "attention masks are BSR patterns");
  if (!c) return c;
  const sp::BsrView& m = mask->bsr;
  c.require(m.brows == m.bcols && m.row_block == m.col_block && m.row_block <= 128, 1, "mask");
  return c;
}

}  // namespace

extern "C" {

trnsparseStatus_t trnsparseBsrCg(trnsparseHandle_t h, trnsparseConstSpMatDescr_t A, trnsparseConstDnVecDescr_t b,
                                 trnsparseDnVecDescr_t x, float tol, int maxIt, trnsparsePreconditioner_t pc, int* it,
                                 float* hist, int* info) {
  return krylov(h, Solver::cg, "trnsparseBsrCg", A, b, x, tol, maxIt, 1, enum_value(pc), it, hist, info);
}

trnsparseStatus_t trnsparseBsrBicgstab(trnsparseHandle_t h, trnsparseConstSpMatDescr_t A, trnsparseConstDnVecDescr_t b,
                                       trnsparseDnVecDescr_t x, float tol, int maxIt, trnsparsePreconditioner_t pc,
                                       int* it, float* hist, int* info) {
  return krylov(h, Solver::bicgstab, "trnsparseBsrBicgstab", A, b, x, tol, maxIt, 1, enum_value(pc), it, hist, info);
}

trnsparseStatus_t trnsparseBsrGmres(trnsparseHandle_t h, trnsparseConstSpMatDescr_t A, trnsparseConstDnVecDescr_t b,
                                    trnsparseDnVecDescr_t x, float tol, int maxIt, int restart,
                                    trnsparsePreconditioner_t pc, int* it, float* hist, int* info) {
  return krylov(h, Solver::gmres, "trnsparseBsrGmres", A, b, x, tol, maxIt, restart, enum_value(pc), it, hist, info);
}

trnsparseStatus_t trnsparseBlockSparseAttentionForward(trnsparseHandle_t h, trnsparseConstSpMatDescr_t mask,
                                                       int64_t headDim, const float* Q, const float* K, const float* V,
                                                       float scale, float* O, float* logsumexp, trnDataType_t tileType) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsparseBlockSparseAttentionForward";
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!attention_checks(c, mask, headDim, enum_value(tileType), 9)) return c.status();
  const bool any = mask->bsr.rows() > 0;
  c.require(Q != nullptr || !any, 3, "Q").require(K != nullptr || !any, 4, "K").require(V != nullptr || !any, 5, "V");
  c.require(std::isfinite(scale), 6, "scale").require(O != nullptr || !any, 7, "O");
  if (!check_sparse(c, mask, 1, "mask")) return c.status();
  const trn::DType tiles = enum_value(tileType) == TRN_R_16BF ? trn::DType::bf16 : trn::DType::f32;
  return run(h, fn, {{"mask", 1}, {"rowBlockSize", 1}, {"head_dim", 2}, {"Q", 3}}, [&] {
    sp::CallReport r;
    sp::attention_forward(h->settings, mask->bsr, headDim, Q, K, V, scale, O, tiles, &r, logsumexp);
    store_profile(h, r);
  });
}

trnsparseStatus_t trnsparseBlockSparseAttentionBackward(trnsparseHandle_t h, trnsparseConstSpMatDescr_t mask,
                                                        int64_t headDim, const float* Q, const float* K, const float* V,
                                                        const float* O, const float* dO, const float* logsumexp,
                                                        float scale, float* dQ, float* dK, float* dV,
                                                        trnDataType_t tileType) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsparseBlockSparseAttentionBackward";
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!attention_checks(c, mask, headDim, enum_value(tileType), 13)) return c.status();
  const bool any = mask->bsr.rows() > 0;
  c.require(Q != nullptr || !any, 3, "Q").require(K != nullptr || !any, 4, "K").require(V != nullptr || !any, 5, "V");
  c.require(O != nullptr || !any, 6, "O").require(dO != nullptr || !any, 7, "dO");
  c.require(logsumexp != nullptr || !any, 8, "logsumexp").require(std::isfinite(scale), 9, "scale");
  c.require(dQ != nullptr || !any, 10, "dQ").require(dK != nullptr || !any, 11, "dK").require(dV != nullptr || !any, 12, "dV");
  if (!check_sparse(c, mask, 1, "mask")) return c.status();
  const trn::DType tiles = enum_value(tileType) == TRN_R_16BF ? trn::DType::bf16 : trn::DType::f32;
  return run(h, fn, {{"mask", 1}, {"rowBlockSize", 1}, {"head_dim", 2}, {"Q", 3}, {"dQ", 10}}, [&] {
    sp::CallReport r;
    sp::attention_backward(h->settings, mask->bsr, headDim, Q, K, V, O, dO, logsumexp, scale, dQ, dK, dV, tiles, &r);
    store_profile(h, r);
  });
}

}  // extern "C"
