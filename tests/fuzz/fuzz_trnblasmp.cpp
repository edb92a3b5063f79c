// The libFuzzer harness over trnblasMp's C API (distributed/, docs/scale-out.md) on one rank (MPI
// singleton; MPI_COMM_SELF, or MPI_COMM_NULL sometimes): GridCreate with fuzzed shapes and layouts,
// MatrixDescriptorCreate with fuzzed sizes, blocks, sources, leading dimensions and types, Numroc
// against an independent block count, then Gemm_bufferSize / Gemm of small fuzzed sizes, compute
// types, ops, offsets and workspaces. Invariants beyond "no crash, no sanitizer report": statuses are
// cuBLASMp's and follow the documented rules; a failing Gemm writes nothing; a successful fp32/fp64
// Gemm matches an fp64 loop within (k + 2) 2u (|alpha| |A| |B| + |beta| |C|). Then one of Syrk, Trsm,
// Geadd, Tradd (level3_case) with fuzzed enums (valid and not), sizes, descriptor shapes and
// workspaces: the status follows the rules, a failing call writes nothing, a successful one matches
// an fp64 loop (Trsm: its residual op(A) X - alpha B). Then Matmul (matmul_case) against Gemm.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_input.hpp"
#include "fuzz_mpi.hpp"
#include "trnblasMp.h"

namespace {

using trnfuzz::require;
using trnfuzz::ensure_mpi;
using trnfuzz::owned;

template <class T>
void gemm_case(trnfuzz::Input& in, trnblasMpHandle_t h, trnblasMpGrid_t grid) {
  const bool fp64 = sizeof(T) == 8;
  const std::int64_t m = in.size(9, true), n = in.size(9, true), k = in.size(9, true);
  const std::int64_t mb = 1 + in.byte() % 4, nb = 1 + in.byte() % 4, kb = 1 + in.byte() % 4;
  const bool bad_blocks = in.flag(8);
  const trnDataType_t type = fp64 ? TRN_R_64F : TRN_R_32F;
  auto ld = [](std::int64_t r) { return std::max<std::int64_t>(1, r); };
  trnblasMpMatrixDescriptor_t da = nullptr, db = nullptr, dc = nullptr;
  const bool ok_sizes = m >= 0 && n >= 0 && k >= 0 && m <= 9 && n <= 9 && k <= 9;
  if (!ok_sizes) return;
  std::vector<T> A(static_cast<std::size_t>(ld(m) * ld(k))), B(static_cast<std::size_t>(ld(k) * ld(n))),
      C(static_cast<std::size_t>(ld(m) * ld(n)));
  for (auto& x : A) x = static_cast<T>(static_cast<int>(in.byte() % 9) - 4);
  for (auto& x : B) x = static_cast<T>(static_cast<int>(in.byte() % 9) - 4);
  for (auto& x : C) x = static_cast<T>(static_cast<int>(in.byte() % 9) - 4);
  const std::vector<T> C0 = C;
  const T alpha = static_cast<T>(static_cast<int>(in.byte() % 5) - 2), beta = static_cast<T>(static_cast<int>(in.byte() % 3) - 1);
  const int ta = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_N, TRNBLAS_OP_T}), tb = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_N, TRNBLAS_OP_N, TRNBLAS_OP_T});
  const int ct = in.choice({fp64 ? TRNBLAS_COMPUTE_64F : TRNBLAS_COMPUTE_32F, TRNBLAS_COMPUTE_32F_FAST_16BF});
  // A transposed operand is stored transposed (k x m, n x k), in any blocks.
  const bool na = ta == TRNBLAS_OP_N, nb_ = tb == TRNBLAS_OP_N;
  const std::int64_t lda = na ? ld(m) : ld(k), ldb = nb_ ? ld(k) : ld(n);
  trnblasMpMatrixDescriptorCreate(na ? m : k, na ? k : m, mb, kb, 0, 0, lda, type, grid, &da);
  trnblasMpMatrixDescriptorCreate(nb_ ? k : n, nb_ ? n : k, bad_blocks ? kb + 1 : kb, nb, 0, 0, ldb, type, grid, &db);
  trnblasMpMatrixDescriptorCreate(m, n, mb, nb, 0, 0, ld(m), type, grid, &dc);
  const std::int64_t ia = in.flag(10) ? 2 : 1;
  size_t wd = 0, wh = 0;
  const trnblasMpStatus_t bs = trnblasMpGemm_bufferSize(
      h, static_cast<trnblasOperation_t>(ta), static_cast<trnblasOperation_t>(tb), m, n, k, &alpha, A.data(), ia, 1, da,
      B.data(), 1, 1, db, &beta, C.data(), 1, 1, dc, static_cast<trnblasComputeType_t>(ct), &wd, &wh);
  const bool type_ok = fp64 ? (ct == TRNBLAS_COMPUTE_64F) : (ct == TRNBLAS_COMPUTE_32F || ct == TRNBLAS_COMPUTE_32F_FAST_16BF);
  const bool ops_ok = (na || ta == TRNBLAS_OP_T) && (nb_ || tb == TRNBLAS_OP_T);
  const bool valid = type_ok && ops_ok && ia == 1 && !(na && nb_ && bad_blocks);
  require((bs == TRNBLASMP_STATUS_SUCCESS) == valid, "Gemm_bufferSize status follows the rules");
  const bool short_ws = in.flag(6) && wd > 0;
  std::vector<char> work(wd);
  const trnblasMpStatus_t st = trnblasMpGemm(
      h, static_cast<trnblasOperation_t>(ta), static_cast<trnblasOperation_t>(tb), m, n, k, &alpha, A.data(), ia, 1, da,
      B.data(), 1, 1, db, &beta, C.data(), 1, 1, dc, static_cast<trnblasComputeType_t>(ct), work.data(),
      short_ws ? wd - 1 : wd, nullptr, 0);
  trnfuzz::reach("gemm_rejected", st != TRNBLASMP_STATUS_SUCCESS);
  if (st != TRNBLASMP_STATUS_SUCCESS) {
    require(!valid || short_ws, "a valid Gemm with its workspace succeeds");
    require(std::memcmp(C.data(), C0.data(), C.size() * sizeof(T)) == 0, "a failing Gemm writes nothing");
  } else {
    require(valid && !short_ws, "Gemm succeeded only on valid arguments");
    const double u = fp64 ? std::ldexp(1.0, -52) : (ct == TRNBLAS_COMPUTE_32F ? std::ldexp(1.0, -23) : std::ldexp(1.0, -7));
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i) {
        double ref = 0, mag = 0;
        for (std::int64_t p = 0; p < k; ++p) {
          const double a = static_cast<double>(na ? A[i + p * lda] : A[p + i * lda]);
          const double b = static_cast<double>(nb_ ? B[p + j * ldb] : B[j + p * ldb]);
          ref += a * b;
          mag += std::fabs(a * b);
        }
        const double c0 = static_cast<double>(C0[i + j * ld(m)]);
        const double want = static_cast<double>(alpha) * ref + static_cast<double>(beta) * c0;
        const double bound = (k + 2) * 2 * u * (std::fabs(static_cast<double>(alpha)) * mag + std::fabs(static_cast<double>(beta) * c0));
        require(std::fabs(static_cast<double>(C[i + j * ld(m)]) - want) <= bound, "Gemm result within its bound");
      }
    trnfuzz::reach("gemm_ok");
  }
  for (auto d : {da, db, dc}) trnblasMpMatrixDescriptorDestroy(d);
}

// ---- Syrk / Trsm / Geadd / Tradd on the 1 x 1 grid ----

// op(M)(i, j) of a column-major rows x cols matrix (op N or T/C: real data).
template <class T>
double op_at(const std::vector<T>& M, std::int64_t ld, bool trans, std::int64_t i, std::int64_t j) {
  return static_cast<double>(trans ? M[j + i * ld] : M[i + j * ld]);
}

// The element (i, j) of the triangle op(A) of TRSM as the routine reads it (uplo, unit diagonal).
template <class T>
double tri_at(const std::vector<T>& A, std::int64_t ld, int uplo, bool trans, bool unit, std::int64_t i, std::int64_t j) {
  const std::int64_t r = trans ? j : i, c = trans ? i : j;  // in A's own indices
  if (r == c) return unit ? 1.0 : static_cast<double>(A[r + c * ld]);
  const bool in = uplo == TRNBLAS_FILL_MODE_LOWER ? r > c : r < c;
  return in ? static_cast<double>(A[r + c * ld]) : 0.0;
}

struct L3Shape {
  int routine;                  // 0 syrk, 1 trsm, 2 geadd, 3 tradd
  std::int64_t a_rows, a_cols;  // A's descriptor
  std::int64_t c_rows, c_cols;  // the output's (C, or B for trsm)
};

L3Shape l3_shape(int routine, std::int64_t dm, std::int64_t dn, bool trans, bool left, bool bad_shape) {
  L3Shape s{routine, 0, 0, dm, dn};
  if (routine == 0) {  // syrk(n = dn, k = dm): A n x k (N) or k x n (T), C n x n
    s.a_rows = trans ? dm : dn, s.a_cols = trans ? dn : dm, s.c_rows = dn;
  } else if (routine == 1) {
    s.a_rows = s.a_cols = left ? dm : dn;
  } else {
    s.a_rows = trans ? dn : dm, s.a_cols = trans ? dm : dn;
  }
  if (bad_shape) ++s.a_rows;
  return s;
}

template <class T>
void check_l3_result(const L3Shape& sh, int uplo, bool trans, bool left, bool unit, T alpha, T beta, const std::vector<T>& A,
                     const std::vector<T>& C0, const std::vector<T>& C, double u) {
  const std::int64_t lda = std::max<std::int64_t>(1, sh.a_rows), ldc = std::max<std::int64_t>(1, sh.c_rows);
  const std::int64_t k = sh.routine == 0 ? (trans ? sh.a_rows : sh.a_cols) : (left ? sh.c_rows : sh.c_cols);
  for (std::int64_t j = 0; j < sh.c_cols; ++j)
    for (std::int64_t i = 0; i < sh.c_rows; ++i) {
      const double c0 = static_cast<double>(C0[i + j * ldc]), got = static_cast<double>(C[i + j * ldc]);
      const bool in_tri = uplo == TRNBLAS_FILL_MODE_UPPER ? i <= j : i >= j;
      if ((sh.routine == 0 || sh.routine == 3) && !in_tri) {
        require(got == c0, "Syrk/Tradd leave the other triangle untouched");
        continue;
      }
      double want = 0, mag = 0;
      if (sh.routine == 0) {
        for (std::int64_t p = 0; p < k; ++p) {
          const double t = op_at(A, lda, trans, i, p) * op_at(A, lda, trans, j, p);
          want += t, mag += std::fabs(t);
        }
      } else if (sh.routine == 1) {  // the residual op(A) X - alpha B0 (left) / X op(A) - alpha B0 (right)
        for (std::int64_t p = 0; p < k; ++p) {
          const double t = left ? tri_at(A, lda, uplo, trans, unit, i, p) * static_cast<double>(C[p + j * ldc])
                                : static_cast<double>(C[i + p * ldc]) * tri_at(A, lda, uplo, trans, unit, p, j);
          want += t, mag += std::fabs(t);
        }
        require(std::fabs(want - static_cast<double>(alpha) * c0) <= 64 * (k + 2) * u * (mag + std::fabs(static_cast<double>(alpha) * c0)),
                "Trsm residual within its bound");
        continue;
      } else {
        want = op_at(A, lda, trans, i, j), mag = std::fabs(want);
      }
      const double ref = static_cast<double>(alpha) * want + static_cast<double>(beta) * c0;
      const double bound = (k + 2) * 2 * u * (std::fabs(static_cast<double>(alpha)) * mag + std::fabs(static_cast<double>(beta) * c0));
      require(std::fabs(got - ref) <= bound, "Syrk/Geadd/Tradd result within its bound");
    }
}

// Fuzzed enum values go straight into the calls, never held in an enum variable (an invalid enum
// load is undefined behaviour, which UBSan reports in the harness itself).
trnblasFillMode_t as_fill(int v) { return static_cast<trnblasFillMode_t>(v); }
trnblasOperation_t as_op(int v) { return static_cast<trnblasOperation_t>(v); }
trnblasSideMode_t as_side(int v) { return static_cast<trnblasSideMode_t>(v); }
trnblasDiagType_t as_diag(int v) { return static_cast<trnblasDiagType_t>(v); }
trnblasComputeType_t as_compute(int v) { return static_cast<trnblasComputeType_t>(v); }

// Calls routine sh.routine: the _bufferSize form (work == nullptr, sizes out) or the call.
template <class T>
trnblasMpStatus_t l3_call(const L3Shape& sh, trnblasMpHandle_t h, const int e[5], std::int64_t m, std::int64_t n,
                          const T* alpha, const T* beta, const T* A, trnblasMpMatrixDescriptor_t da, T* C,
                          trnblasMpMatrixDescriptor_t dc, int ct, bool sizing, size_t* wd, size_t* wh, void* work,
                          size_t ws) {
  switch (sh.routine) {
    case 0:
      return sizing ? trnblasMpSyrk_bufferSize(h, as_fill(e[0]), as_op(e[1]), n, m, alpha, A, 1, 1, da, beta, C, 1, 1,
                                               dc, as_compute(ct), wd, wh)
                    : trnblasMpSyrk(h, as_fill(e[0]), as_op(e[1]), n, m, alpha, A, 1, 1, da, beta, C, 1, 1, dc,
                                    as_compute(ct), work, ws, nullptr, 0);
    case 1:
      return sizing ? trnblasMpTrsm_bufferSize(h, as_side(e[2]), as_fill(e[0]), as_op(e[1]), as_diag(e[3]), m, n, alpha,
                                               A, 1, 1, da, C, 1, 1, dc, as_compute(ct), wd, wh)
                    : trnblasMpTrsm(h, as_side(e[2]), as_fill(e[0]), as_op(e[1]), as_diag(e[3]), m, n, alpha, A, 1, 1,
                                    da, C, 1, 1, dc, as_compute(ct), work, ws, nullptr, 0);
    case 2:
      return sizing ? trnblasMpGeadd_bufferSize(h, as_op(e[1]), m, n, alpha, A, 1, 1, da, beta, C, 1, 1, dc, wd, wh)
                    : trnblasMpGeadd(h, as_op(e[1]), m, n, alpha, A, 1, 1, da, beta, C, 1, 1, dc, work, ws, nullptr, 0);
    default:
      return sizing ? trnblasMpTradd_bufferSize(h, as_fill(e[0]), as_op(e[1]), m, n, alpha, A, 1, 1, da, beta, C, 1, 1,
                                                dc, wd, wh)
                    : trnblasMpTradd(h, as_fill(e[0]), as_op(e[1]), m, n, alpha, A, 1, 1, da, beta, C, 1, 1, dc, work,
                                     ws, nullptr, 0);
  }
}

template <class T>
void level3_case(trnfuzz::Input& in, trnblasMpHandle_t h, trnblasMpGrid_t grid) {
  const bool fp64 = sizeof(T) == 8;
  const int routine = in.byte() % 4;
  const std::int64_t m = in.size(6, true), n = in.size(6, true);  // the call's sizes
  const std::int64_t dm = std::clamp<std::int64_t>(m, 0, 6), dn = std::clamp<std::int64_t>(n, 0, 6);
  const int e[5] = {in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}),
                    in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}),
                    in.choice({TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT}), in.choice({TRNBLAS_DIAG_NON_UNIT, TRNBLAS_DIAG_UNIT}), 0};
  const int ct = in.choice({fp64 ? TRNBLAS_COMPUTE_64F : TRNBLAS_COMPUTE_32F});
  const std::int64_t mb = 1 + in.byte() % 3, nb = 1 + in.byte() % 3;
  const bool bad_shape = in.flag(10), bad_blocks = in.flag(8), short_ws = in.flag(6);
  const bool trans = e[1] == TRNBLAS_OP_T || e[1] == TRNBLAS_OP_C, left = e[2] == TRNBLAS_SIDE_LEFT;
  const L3Shape sh = l3_shape(routine, dm, dn, trans, left, bad_shape);
  const trnDataType_t type = fp64 ? TRN_R_64F : TRN_R_32F;
  auto ld = [](std::int64_t r) { return std::max<std::int64_t>(1, r); };
  // Syrk's C is square in mb x mb blocks and its A must share them along n (bad_blocks: it does not).
  const std::int64_t cmb = mb, cnb = routine == 0 ? mb : nb, amb = bad_blocks ? mb + 1 : mb, anb = bad_blocks ? mb + 1 : cnb;
  trnblasMpMatrixDescriptor_t da = nullptr, dc = nullptr;
  trnblasMpMatrixDescriptorCreate(sh.a_rows, sh.a_cols, amb, anb, 0, 0, ld(sh.a_rows), type, grid, &da);
  trnblasMpMatrixDescriptorCreate(sh.c_rows, sh.c_cols, cmb, cnb, 0, 0, ld(sh.c_rows), type, grid, &dc);
  std::vector<T> A(static_cast<std::size_t>(ld(sh.a_rows) * ld(sh.a_cols))), C(static_cast<std::size_t>(ld(sh.c_rows) * ld(sh.c_cols)));
  for (auto& x : A) x = static_cast<T>(static_cast<int>(in.byte() % 9) - 4);
  for (auto& x : C) x = static_cast<T>(static_cast<int>(in.byte() % 9) - 4);
  for (std::int64_t i = 0; i < std::min(sh.a_rows, sh.a_cols); ++i) A[static_cast<std::size_t>(i + i * ld(sh.a_rows))] += 16;
  const std::vector<T> C0 = C;
  const T alpha = static_cast<T>(static_cast<int>(in.byte() % 5) - 2), beta = static_cast<T>(static_cast<int>(in.byte() % 3) - 1);
  const bool enums_ok = (routine == 2 || e[0] == TRNBLAS_FILL_MODE_LOWER || e[0] == TRNBLAS_FILL_MODE_UPPER) &&
                        (e[1] >= TRNBLAS_OP_N && e[1] <= TRNBLAS_OP_C) &&
                        (routine != 1 || ((e[2] == TRNBLAS_SIDE_LEFT || e[2] == TRNBLAS_SIDE_RIGHT) &&
                                          (e[3] == TRNBLAS_DIAG_NON_UNIT || e[3] == TRNBLAS_DIAG_UNIT)));
  const bool ct_ok = routine >= 2 || ct == (fp64 ? TRNBLAS_COMPUTE_64F : TRNBLAS_COMPUTE_32F);
  const bool valid = enums_ok && ct_ok && m == dm && n == dn && !bad_shape && (routine != 0 || !bad_blocks);
  size_t wd = 0, wh = 0;
  const trnblasMpStatus_t bs = l3_call<T>(sh, h, e, m, n, &alpha, &beta, A.data(), da, C.data(), dc, ct, true, &wd, &wh, nullptr, 0);
  require((bs == TRNBLASMP_STATUS_SUCCESS) == valid, "level-3 _bufferSize status follows the rules");
  const bool short_call = short_ws && wd > 0;
  std::vector<char> work(wd);
  const trnblasMpStatus_t st = l3_call<T>(sh, h, e, m, n, &alpha, &beta, A.data(), da, C.data(), dc, ct, false, nullptr,
                                          nullptr, work.data(), short_call ? wd - 1 : wd);
  trnfuzz::reach("l3_rejected", st != TRNBLASMP_STATUS_SUCCESS);
  if (st != TRNBLASMP_STATUS_SUCCESS) {
    require(!valid || short_call, "a valid level-3 call with its workspace succeeds");
    require(std::memcmp(C.data(), C0.data(), C.size() * sizeof(T)) == 0, "a failing level-3 call writes nothing");
  } else {
    require(valid && !short_call, "a level-3 call succeeded only on valid arguments");
    check_l3_result(sh, e[0], trans, left, e[3] == TRNBLAS_DIAG_UNIT, alpha, beta, A, C0, C,
                    fp64 ? std::ldexp(1.0, -52) : std::ldexp(1.0, -23));
    trnfuzz::reach("l3_ok");
  }
  trnblasMpMatrixDescriptorDestroy(da);
  trnblasMpMatrixDescriptorDestroy(dc);
}

// Matmul (the matmul descriptor, fuzzed attributes) against Gemm with the same op and compute type: the
// same status, D equal to Gemm's C bit for bit (D apart from C in C's layout, or in place), C untouched;
// a D of another layout NOT_SUPPORTED and nothing written.
void matmul_case(trnfuzz::Input& in, trnblasMpHandle_t h, trnblasMpGrid_t grid) {
  const std::int64_t m = in.size(6, true), n = in.size(6, true), k = in.size(6, true);
  if (m < 0 || n < 0 || k < 0 || m > 6 || n > 6 || k > 6) return;
  const int ct = in.choice({TRNBLAS_COMPUTE_64F, TRNBLAS_COMPUTE_32F});
  trnblasMpMatmulDescriptor_t md = nullptr;
  const trnblasMpStatus_t cs = trnblasMpMatmulDescriptorCreate(&md, static_cast<trnblasComputeType_t>(ct));
  const bool ct_ok = ct == TRNBLAS_COMPUTE_64F || ct == TRNBLAS_COMPUTE_32F;
  require((cs == TRNBLASMP_STATUS_SUCCESS) == ct_ok, "MatmulDescriptorCreate status follows the rules");
  if (!ct_ok) return;
  int ops[2] = {TRNBLAS_OP_N, TRNBLAS_OP_N};
  for (int w = 0; w < 2; ++w) {
    const int v = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T});
    const int attr = in.choice({w, w, w, 7});
    const trnblasMpStatus_t st = trnblasMpMatmulDescriptorAttributeSet(md, static_cast<trnblasMpMatmulDescriptorAttribute_t>(attr), &v, sizeof v);
    // A fuzzed attribute may name another legal one: TRANSA / TRANSB take an op, COMPUTE_TYPE no op value.
    const bool is_op = v >= TRNBLAS_OP_N && v <= TRNBLAS_OP_C;
    const bool ok = (attr == 0 || attr == 1) && is_op;
    require((st == TRNBLASMP_STATUS_SUCCESS) == ok, "AttributeSet status follows the rules");
    if (attr < 0 || attr > 2) require(st == TRNBLASMP_STATUS_NOT_SUPPORTED, "an unknown attribute is NOT_SUPPORTED");
    if (ok) ops[attr] = v;
  }
  const bool fp64 = ct == TRNBLAS_COMPUTE_64F, in_place = in.flag(3), other_layout = !in_place && in.flag(6);
  const trnDataType_t type = fp64 ? TRN_R_64F : TRN_R_32F;
  const std::size_t es = fp64 ? 8 : 4;
  auto ld = [](std::int64_t r) { return std::max<std::int64_t>(1, r); };
  const bool na = ops[0] == TRNBLAS_OP_N, nbo = ops[1] == TRNBLAS_OP_N;
  trnblasMpMatrixDescriptor_t da = nullptr, db = nullptr, dc = nullptr, dd = nullptr;
  trnblasMpMatrixDescriptorCreate(na ? m : k, na ? k : m, 2, 2, 0, 0, ld(na ? m : k), type, grid, &da);
  trnblasMpMatrixDescriptorCreate(nbo ? k : n, nbo ? n : k, 2, 2, 0, 0, ld(nbo ? k : n), type, grid, &db);
  trnblasMpMatrixDescriptorCreate(m, n, 2, 2, 0, 0, ld(m), type, grid, &dc);
  trnblasMpMatrixDescriptorCreate(m, n, other_layout ? 3 : 2, 2, 0, 0, ld(m), type, grid, &dd);
  auto fill = [&](std::vector<char>& v) {
    for (std::size_t i = 0; i < v.size() / es; ++i) {
      const double x = static_cast<int>(in.byte() % 9) - 4;
      if (fp64) std::memcpy(v.data() + i * es, &x, es);
      else {
        const float f = static_cast<float>(x);
        std::memcpy(v.data() + i * es, &f, es);
      }
    }
  };
  std::vector<char> A(static_cast<std::size_t>(ld(m) * ld(k)) * es), B(static_cast<std::size_t>(ld(k) * ld(n)) * es),
      C(static_cast<std::size_t>(ld(m) * ld(n)) * es), D(C.size());
  fill(A), fill(B), fill(C), fill(D);
  const std::vector<char> C0 = C, D0 = D;
  const double a64 = static_cast<int>(in.byte() % 5) - 2, b64 = static_cast<int>(in.byte() % 3) - 1;
  const float a32 = static_cast<float>(a64), b32 = static_cast<float>(b64);
  const void* alpha = fp64 ? static_cast<const void*>(&a64) : &a32;
  const void* beta = fp64 ? static_cast<const void*>(&b64) : &b32;
  void* d = in_place ? C.data() : D.data();
  size_t wd = 0, wh = 0;
  const trnblasMpStatus_t bs = trnblasMpMatmul_bufferSize(h, md, m, n, k, alpha, A.data(), 1, 1, da, B.data(), 1, 1, db, beta,
                                                          C.data(), 1, 1, dc, d, 1, 1, in_place ? dc : dd, &wd, &wh);
  require(bs == (other_layout ? TRNBLASMP_STATUS_NOT_SUPPORTED : TRNBLASMP_STATUS_SUCCESS), "Matmul_bufferSize status follows the rules");
  std::vector<char> work(std::max<std::size_t>(wd, 64) + 64);
  const trnblasMpStatus_t st = trnblasMpMatmul(h, md, m, n, k, alpha, A.data(), 1, 1, da, B.data(), 1, 1, db, beta, C.data(), 1, 1,
                                               dc, d, 1, 1, in_place ? dc : dd, work.data(), work.size(), nullptr, 0);
  if (other_layout) {
    require(st == TRNBLASMP_STATUS_NOT_SUPPORTED && C == C0 && D == D0, "Matmul with D of another layout: NOT_SUPPORTED, nothing written");
  } else {
    require(st == TRNBLASMP_STATUS_SUCCESS, "a valid Matmul succeeds");
    std::vector<char> G = C0;
    require(trnblasMpGemm(h, static_cast<trnblasOperation_t>(ops[0]), static_cast<trnblasOperation_t>(ops[1]), m, n, k, alpha,
                          A.data(), 1, 1, da, B.data(), 1, 1, db, beta, G.data(), 1, 1, dc,
                          static_cast<trnblasComputeType_t>(ct), work.data(), work.size(), nullptr, 0) == TRNBLASMP_STATUS_SUCCESS,
            "the matching Gemm succeeds");
    const std::size_t used = static_cast<std::size_t>(m * n) * es;  // m x n elements (ld m); an empty D has only padding
    require(std::memcmp((in_place ? C : D).data(), G.data(), used) == 0, "Matmul's D equals Gemm's C bit for bit");
    if (!in_place) require(C == C0, "Matmul leaves C untouched");
    trnfuzz::reach("matmul_ok");
  }
  trnblasMpMatmulDescriptorDestroy(md);
  for (auto x : {da, db, dc, dd}) trnblasMpMatrixDescriptorDestroy(x);
}

}  // namespace

std::vector<trnfuzz::Floor> trnfuzz::floors() {
  return {{"gemm_ok", 20}, {"gemm_rejected", 10}, {"descriptor_ok", 20}, {"l3_ok", 10}, {"l3_rejected", 10}, {"matmul_ok", 5}};
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ensure_mpi();
  trnfuzz::Input in(data, size);
  // Numroc against the block count.
  const std::int64_t rn = in.byte() % 40, rnb = 1 + in.byte() % 7, rnp = 1 + in.byte() % 4, rp = in.byte() % rnp;
  require(trnblasMpNumroc(rn, rnb, static_cast<uint32_t>(rp), 0, static_cast<uint32_t>(rnp)) == owned(rn, rnb, rp, rnp), "numroc");
  // A grid: the communicator has one rank, so only 1 x 1 with a valid layout is accepted.
  const std::int64_t nprow = in.size(2, true), npcol = in.size(2, true);
  const int layout = in.choice({TRNBLASMP_GRID_LAYOUT_COL_MAJOR, TRNBLASMP_GRID_LAYOUT_ROW_MAJOR});
  const bool null_comm = in.flag(16);
  trnblasMpGrid_t grid = nullptr;
  const trnblasMpStatus_t gs = trnblasMpGridCreate(nprow, npcol, static_cast<trnblasMpGridLayout_t>(layout),
                                                   null_comm ? MPI_COMM_NULL : MPI_COMM_SELF, &grid);
  const bool grid_ok = !null_comm && nprow == 1 && npcol == 1 && (layout == 0 || layout == 1);
  require((gs == TRNBLASMP_STATUS_SUCCESS) == grid_ok, "GridCreate status follows the rules");
  if (!grid_ok) return 0;
  // A descriptor of fuzzed arguments.
  const std::int64_t m = in.size(40, true), n = in.size(40, true), mb = in.size(8, true), nb = in.size(8, true);
  const std::int64_t rsrc = in.size(1, true), csrc = in.size(1, true), lld = in.size(48, true);
  const int type = in.choice({TRN_R_32F, TRN_R_64F, TRN_R_16F});
  trnblasMpMatrixDescriptor_t d = nullptr;
  const trnblasMpStatus_t ds = trnblasMpMatrixDescriptorCreate(m, n, mb, nb, rsrc, csrc, lld,
                                                               static_cast<trnDataType_t>(type), grid, &d);
  const bool d_ok = m >= 0 && n >= 0 && mb >= 1 && nb >= 1 && rsrc == 0 && csrc == 0 && lld >= std::max<std::int64_t>(1, m) &&
                    (type == TRN_R_32F || type == TRN_R_64F);
  require((ds == TRNBLASMP_STATUS_SUCCESS) == d_ok, "MatrixDescriptorCreate status follows the rules");
  trnfuzz::reach("descriptor_ok", d_ok);
  if (d_ok) require(trnblasMpMatrixDescriptorDestroy(d) == TRNBLASMP_STATUS_SUCCESS, "destroy");
  trnblasMpHandle_t h = nullptr;
  require(trnblasMpCreate(&h, nullptr) == TRNBLASMP_STATUS_SUCCESS, "create");
  if (in.flag(2))
    gemm_case<float>(in, h, grid);
  else
    gemm_case<double>(in, h, grid);
  if (in.flag(2))
    level3_case<float>(in, h, grid);
  else
    level3_case<double>(in, h, grid);
  matmul_case(in, h, grid);
  trnblasMpDestroy(h);
  require(trnblasMpGridDestroy(grid) == TRNBLASMP_STATUS_SUCCESS, "grid destroy");
  return 0;
}
