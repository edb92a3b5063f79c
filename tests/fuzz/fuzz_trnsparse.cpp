// Fuzz harness over descriptor creation and SpMM / SpMV / SDDMM (issue #15 "Bad input"), the CSC
// and Blocked-ELL descriptors, and the extensions (BsrCg, block-sparse attention). The input bytes
// choose sizes, block sizes, index types, base, block order and the raw contents of the index
// arrays (allocated at exactly the length the descriptor claims, so an out-of-bounds read is an
// AddressSanitizer report). Properties: every call returns SUCCESS, INVALID_VALUE or NOT_SUPPORTED;
// a failed compute call leaves its output bit-identical; the same arrays as CSR and as CSC (of the
// transpose) are accepted alike; attention accepts a square mask exactly when SpMM accepts it;
// nothing crashes or throws.
//
// Also: the handle and descriptor entry points with NULL pointers, enum arguments valid or any int,
// and SpMM / SpMV with fuzzed operations and algorithms on a made descriptor; and the generic API of
// every value type (generic_calls): descriptor setters, a CSR / COO / CSC SpMV, SparseToDense, the
// sparse-vector operations, Csr2cscEx2, Xcoo2csr and the sorts over fuzzed index arrays; and
// SpSV / SpSM / CSR SpGEMM / SpGEMMreuse on a fuzzed pattern (solve_calls); the banded solvers
// (gtsv2 family, gpsvInterleavedBatch) on fuzzed sizes and values (banded_calls); csrgeam2, nnz and
// GetProperty, legacy D/C/Z bsrmv and Dbsrmm on the same fuzzed arrays (geam_calls); Sliced-ELL
// descriptors with SpMV / SpSV (sell_calls); csr2gebsr / Xcsr2gebsrNnz / gebsr2gebsc and
// BsrSetStridedBatch (gebsr_calls); SDDMM in every value type on CSR / BSR patterns, batched (sddmm_calls);
// BSR / Blocked-ELL SpMM / SpMV in C_32F, R_64F and C_64F (wide_block_calls, s9/spengine);
// Xgebsr2gebsrNnz / gebsr2gebsr (+ both bufferSize forms) / gebsr2csr / Xgebsr2csr (gebsr2_calls, s11/spconv).
//
// The layout of every harness (fuzz_input.hpp): the libFuzzer target fuzz_trnsparse (tools/fuzz.sh)
// and the ctest fuzz_replay_trnsparse (its corpus, mutations of it and random inputs; fuzz_replay.cpp).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <array>
#include <limits>
#include <type_traits>
#include <vector>

#include "fuzz_input.hpp"
#include "trnsparse.h"

namespace {

using trnfuzz::require;

// The byte reader of this harness's corpus: bytes and big-endian 32-bit words of the shared grammar.
struct Bytes {
  trnfuzz::Input& in;
  std::uint8_t u8() { return in.byte(); }
  std::int32_t i32() { return static_cast<std::int32_t>(in.u32()); }
};

bool allowed(trnsparseStatus_t st) {
  return st == TRNSPARSE_STATUS_SUCCESS || st == TRNSPARSE_STATUS_INVALID_VALUE || st == TRNSPARSE_STATUS_NOT_SUPPORTED;
}

template <class T>
void fill_indices(Bytes& in, std::vector<T>& v, int small_range) {
  for (auto& x : v) {
    const std::uint8_t mode = in.u8();
    x = static_cast<T>(mode < 200 ? static_cast<int>(mode % static_cast<std::uint8_t>(small_range + 3)) - 1 : in.i32());
  }
}

void run_one(trnfuzz::Input& raw) {
  Bytes in{raw};
  const std::int64_t brows = in.u8() % 6, bcols = in.u8() % 6;
  const std::int64_t rb = static_cast<std::int64_t>(in.u8() % 11) - 1, cb = static_cast<std::int64_t>(in.u8() % 11) - 1;
  std::int64_t bnnz = static_cast<std::int64_t>(in.u8() % 40) - 2;
  const bool i64 = in.u8() & 1;
  const int base = in.u8() & 1;
  const trnsparseOrder_t order = (in.u8() & 1) ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL;
  const std::int64_t n = 1 + in.u8() % 5;
  std::vector<std::int32_t> off32, col32;
  if (in.u8() < 160) {
    // A valid pattern drawn from the bytes (sorted distinct columns), then maybe one small mutation.
    off32.push_back(base);
    for (std::int64_t r = 0; r < brows; ++r) {
      const std::uint8_t mask = in.u8();
      for (std::int64_t c = 0; c < bcols; ++c)
        if (mask & (1u << c)) col32.push_back(static_cast<std::int32_t>(c + base));
      off32.push_back(static_cast<std::int32_t>(col32.size()) + base);
    }
    bnnz = static_cast<std::int64_t>(col32.size());
    const std::uint8_t mutate = in.u8();
    const int delta = static_cast<int>(in.u8() % 5) - 2;
    if (mutate < 40 && !col32.empty()) col32[mutate % col32.size()] += delta;
    else if (mutate < 80) off32[mutate % off32.size()] += delta;
    else if (mutate < 100) bnnz += delta;
  } else {
    // Raw bytes: arrays of exactly the claimed lengths (offsets: brows + 1; columns: bnnz).
    off32.resize(static_cast<std::size_t>(brows + 1));
    col32.resize(static_cast<std::size_t>(std::max<std::int64_t>(bnnz, 0)));
    fill_indices(in, off32, static_cast<int>(bnnz));
    fill_indices(in, col32, static_cast<int>(bcols));
  }
  col32.resize(static_cast<std::size_t>(std::max<std::int64_t>(bnnz, 0)));  // exactly the claimed length
  std::vector<std::int64_t> off64(off32.size()), col64(col32.size());
  for (std::size_t i = 0; i < off32.size(); ++i) off64[i] = off32[i];
  for (std::size_t i = 0; i < col32.size(); ++i) col64[i] = col32[i];
  const std::int64_t rbv = std::max<std::int64_t>(rb, 1), cbv = std::max<std::int64_t>(cb, 1);
  std::vector<float> vals(static_cast<std::size_t>(std::max<std::int64_t>(bnnz, 0) * rbv * cbv) + 1, 0.5f);

  trnsparseHandle_t h = nullptr;
  require(trnsparseCreate(&h) == TRNSPARSE_STATUS_SUCCESS, "create handle");
  trnsparseSpMatDescr_t A = nullptr;
  const trnsparseStatus_t created = trnsparseCreateBsr(
      &A, brows, bcols, bnnz, rb, cb, i64 ? static_cast<void*>(off64.data()) : off32.data(),
      i64 ? static_cast<void*>(col64.data()) : col32.data(), vals.data(), i64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I,
      i64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I, base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO,
      TRN_R_32F, order);
  require(allowed(created), "CreateBsr status");
  if (created == TRNSPARSE_STATUS_SUCCESS) {
    trnfuzz::reach("bsr_created");
    const std::int64_t M = brows * rb, K = bcols * cb;
    std::vector<float> B(static_cast<std::size_t>(std::max<std::int64_t>(K, 1) * n), 1.0f);
    std::vector<float> C(static_cast<std::size_t>(std::max<std::int64_t>(M, 1) * n), 3.0f), x(static_cast<std::size_t>(std::max<std::int64_t>(K, 1)), 1.0f),
        y(static_cast<std::size_t>(std::max<std::int64_t>(M, 1)), 2.0f);
    trnsparseDnMatDescr_t mB = nullptr, mC = nullptr;
    trnsparseDnVecDescr_t vx = nullptr, vy = nullptr;
    require(trnsparseCreateDnMat(&mB, K, n, std::max<std::int64_t>(K, 1), B.data(), TRN_R_32F, TRNSPARSE_ORDER_COL) == 0, "B");
    require(trnsparseCreateDnMat(&mC, M, n, std::max<std::int64_t>(M, 1), C.data(), TRN_R_32F, TRNSPARSE_ORDER_COL) == 0, "C");
    require(trnsparseCreateDnVec(&vx, K, x.data(), TRN_R_32F) == 0, "x");
    require(trnsparseCreateDnVec(&vy, M, y.data(), TRN_R_32F) == 0, "y");
    const float one = 1.0f, half = 0.5f;
    const std::vector<float> C0 = C, y0 = y, v0 = vals;
    const trnsparseStatus_t s1 = trnsparseSpMM(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                               A, mB, &half, mC, TRN_R_32F, TRNSPARSE_SPMM_ALG_DEFAULT, nullptr);
    require(allowed(s1), "SpMM status");
    trnfuzz::reach(s1 == TRNSPARSE_STATUS_SUCCESS ? "spmm_ok" : "spmm_rejected");
    if (s1 != TRNSPARSE_STATUS_SUCCESS) require(C == C0, "SpMM output untouched on error");
    const trnsparseStatus_t s2 = trnsparseSpMV(h, TRNSPARSE_OPERATION_TRANSPOSE, &one, A, vy, &half, vx, TRN_R_32F,
                                               TRNSPARSE_SPMV_ALG_DEFAULT, nullptr);
    require(allowed(s2), "SpMV status");
    // SDDMM writes the pattern's values: C(M x K) pattern from A, dense factors M x 1 and 1 x K.
    std::vector<float> u(static_cast<std::size_t>(std::max<std::int64_t>(M, 1)), 1.0f), w(static_cast<std::size_t>(std::max<std::int64_t>(K, 1)), 1.0f);
    trnsparseDnMatDescr_t mU = nullptr, mW = nullptr;
    require(trnsparseCreateDnMat(&mU, M, 1, std::max<std::int64_t>(M, 1), u.data(), TRN_R_32F, TRNSPARSE_ORDER_COL) == 0, "U");
    require(trnsparseCreateDnMat(&mW, 1, K, 1, w.data(), TRN_R_32F, TRNSPARSE_ORDER_COL) == 0, "W");
    const trnsparseStatus_t s3 = trnsparseSDDMM(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                                mU, mW, &half, A, TRN_R_32F, TRNSPARSE_SDDMM_ALG_DEFAULT, nullptr);
    require(allowed(s3), "SDDMM status");
    if (s3 != TRNSPARSE_STATUS_SUCCESS) require(vals == v0, "SDDMM output untouched on error");
    require(s1 == s3, "SpMM and SDDMM agree on the validity of the pattern");
    if (brows == bcols && rb == cb && rb <= 128) {  // a square mask: attention, and a few CG steps
      const std::int64_t d = 1 + in.u8() % 4, seq = M;
      std::vector<float> q(static_cast<std::size_t>(std::max<std::int64_t>(seq * d, 1)), 0.25f), o(q.size(), 7.0f),
          lse(static_cast<std::size_t>(std::max<std::int64_t>(seq, 1)), 7.0f);
      const std::vector<float> o0 = o;
      const trnsparseStatus_t s4 = trnsparseBlockSparseAttentionForward(h, A, d, q.data(), q.data(), q.data(), 0.5f, o.data(),
                                                                        lse.data(), TRN_R_32F);
      require(allowed(s4), "attention status");
      if (s4 != TRNSPARSE_STATUS_SUCCESS) require(o == o0, "attention output untouched on error");
      trnfuzz::reach("attention_ok", s4 == TRNSPARSE_STATUS_SUCCESS);
      require((s4 == TRNSPARSE_STATUS_SUCCESS) == (s1 == TRNSPARSE_STATUS_SUCCESS), "attention and SpMM agree on the mask");
      std::vector<float> xs(static_cast<std::size_t>(std::max<std::int64_t>(M, 1)), 0.0f);
      const std::vector<float> xs0 = xs;
      trnsparseDnVecDescr_t vb = nullptr, vs = nullptr;
      require(trnsparseCreateDnVec(&vb, M, y.data(), TRN_R_32F) == 0, "b");
      require(trnsparseCreateDnVec(&vs, M, xs.data(), TRN_R_32F) == 0, "x");
      int it = 0, info = 0;
      const trnsparseStatus_t s5 = trnsparseBsrCg(h, A, vb, vs, 1e-3f, 2, TRNSPARSE_PRECOND_JACOBI, &it, nullptr, &info);
      require(allowed(s5), "BsrCg status");
      if (s5 != TRNSPARSE_STATUS_SUCCESS) require(xs == xs0, "BsrCg x untouched on error");
      trnfuzz::reach("cg_ok", s5 == TRNSPARSE_STATUS_SUCCESS);
      trnsparseDestroyDnVec(vb);
      trnsparseDestroyDnVec(vs);
    }
    trnsparseDestroyDnMat(mU);
    trnsparseDestroyDnMat(mW);
    trnsparseDestroyDnMat(mB);
    trnsparseDestroyDnMat(mC);
    trnsparseDestroyDnVec(vx);
    trnsparseDestroyDnVec(vy);
    require(trnsparseDestroySpMat(A) == TRNSPARSE_STATUS_SUCCESS, "destroy");
  }
  // The same index arrays as a CSR (brows x bcols) and as the CSC of its transpose (bcols x brows):
  // both describe one pattern, so SpMM must accept or reject them alike.
  if (bnnz >= 0) {
    const bool idx64 = in.u8() & 1;
    void* o = idx64 ? static_cast<void*>(off64.data()) : off32.data();
    void* c = idx64 ? static_cast<void*>(col64.data()) : col32.data();
    const auto it = idx64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I;
    const auto ib = base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO;
    trnsparseSpMatDescr_t csr = nullptr, csc = nullptr;
    require(trnsparseCreateCsr(&csr, brows, bcols, bnnz, o, c, vals.data(), it, it, ib, TRN_R_32F) == 0, "CreateCsr");
    require(trnsparseCreateCsc(&csc, bcols, brows, bnnz, o, c, vals.data(), it, it, ib, TRN_R_32F) == 0, "CreateCsc");
    std::vector<float> Bd(static_cast<std::size_t>(std::max<std::int64_t>(bcols, 1)), 1.0f), Cr(static_cast<std::size_t>(std::max<std::int64_t>(brows, 1)), 3.0f),
        Cc(Cr);
    const std::vector<float> Cr0 = Cr;
    trnsparseDnMatDescr_t mB = nullptr, mR = nullptr, mT = nullptr;
    require(trnsparseCreateDnMat(&mB, bcols, 1, std::max<std::int64_t>(bcols, 1), Bd.data(), TRN_R_32F, TRNSPARSE_ORDER_COL) == 0, "Bd");
    require(trnsparseCreateDnMat(&mR, brows, 1, std::max<std::int64_t>(brows, 1), Cr.data(), TRN_R_32F, TRNSPARSE_ORDER_COL) == 0, "Cr");
    require(trnsparseCreateDnMat(&mT, brows, 1, std::max<std::int64_t>(brows, 1), Cc.data(), TRN_R_32F, TRNSPARSE_ORDER_COL) == 0, "Cc");
    const float one = 1.0f, half = 0.5f;
    const trnsparseStatus_t sr = trnsparseSpMM(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                               csr, mB, &half, mR, TRN_R_32F, TRNSPARSE_SPMM_ALG_DEFAULT, nullptr);
    const trnsparseStatus_t sc = trnsparseSpMM(h, TRNSPARSE_OPERATION_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                               csc, mB, &half, mT, TRN_R_32F, TRNSPARSE_SPMM_ALG_DEFAULT, nullptr);
    require(allowed(sr) && allowed(sc), "CSR/CSC SpMM status");
    require(sr == sc, "CSR and CSC of the transpose agree");
    require(Cr == Cc, "CSR and CSC of the transpose give the same bits");
    if (sr != TRNSPARSE_STATUS_SUCCESS) require(Cr == Cr0, "CSR output untouched on error");
    trnfuzz::reach("csc_ok", sc == TRNSPARSE_STATUS_SUCCESS);
    trnsparseDestroyDnMat(mB);
    trnsparseDestroyDnMat(mR);
    trnsparseDestroyDnMat(mT);
    trnsparseDestroySpMat(csr);
    trnsparseDestroySpMat(csc);
  }
  // Blocked-ELL: the column bytes as ellColInd of (brows x slots) square blocks of size rb.
  if (rb >= 1) {
    const std::int64_t slots = in.u8() % 4;
    std::vector<std::int32_t> ell(static_cast<std::size_t>(std::max<std::int64_t>(brows * slots, 1)));
    fill_indices(in, ell, static_cast<int>(bcols));
    std::vector<float> ev(static_cast<std::size_t>(std::max<std::int64_t>(brows * rb * slots * rb, 1)), 0.5f);
    trnsparseSpMatDescr_t E = nullptr;
    const trnsparseStatus_t se = trnsparseCreateBlockedEll(&E, brows * rb, bcols * rb, rb, slots * rb, ell.data(), ev.data(),
                                                           TRNSPARSE_INDEX_32I,
                                                           base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F);
    require(allowed(se), "CreateBlockedEll status");
    if (se == TRNSPARSE_STATUS_SUCCESS) {
      std::vector<float> Be(static_cast<std::size_t>(std::max<std::int64_t>(bcols * rb, 1)), 1.0f),
          Ce(static_cast<std::size_t>(std::max<std::int64_t>(brows * rb, 1)), 3.0f);
      const std::vector<float> Ce0 = Ce;
      trnsparseDnMatDescr_t mB = nullptr, mC = nullptr;
      require(trnsparseCreateDnMat(&mB, bcols * rb, 1, std::max<std::int64_t>(bcols * rb, 1), Be.data(), TRN_R_32F, TRNSPARSE_ORDER_COL) == 0, "Be");
      require(trnsparseCreateDnMat(&mC, brows * rb, 1, std::max<std::int64_t>(brows * rb, 1), Ce.data(), TRN_R_32F, TRNSPARSE_ORDER_COL) == 0, "Ce");
      const float one = 1.0f, half = 0.5f;
      const trnsparseStatus_t s6 = trnsparseSpMM(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                                 E, mB, &half, mC, TRN_R_32F, TRNSPARSE_SPMM_ALG_DEFAULT, nullptr);
      require(allowed(s6), "Blocked-ELL SpMM status");
      if (s6 != TRNSPARSE_STATUS_SUCCESS) require(Ce == Ce0, "Blocked-ELL output untouched on error");
      trnfuzz::reach("ell_ok", s6 == TRNSPARSE_STATUS_SUCCESS);
      trnsparseDestroyDnMat(mB);
      trnsparseDestroyDnMat(mC);
      trnsparseDestroySpMat(E);
    }
  }
  require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
}

// A host scalar of value type vt (16 bytes: room for a complex double whatever vt says).
struct Scalar {
  alignas(16) unsigned char b[16] = {};
};
Scalar scalar_of(int vt, double v) {
  Scalar s;
  if (vt == TRN_R_64F || vt == TRN_C_64F) {
    std::memcpy(s.b, &v, sizeof v);
  } else {
    const float f = static_cast<float>(v);
    std::memcpy(s.b, &f, sizeof f);
  }
  return s;
}

bool is_status(trnsparseStatus_t st) { return st >= TRNSPARSE_STATUS_SUCCESS && st <= TRNSPARSE_STATUS_INSUFFICIENT_RESOURCES; }

// The entry points' argument checks: NULL handles and descriptor pointers, sizes from the shared
// grammar (negative, zero, huge), enums valid or any int, then SpMV / SpMM with fuzzed operations
// and algorithms on an n x n CSR of the identity pattern. Every call returns one of cuSPARSE's
// statuses; a failed creation leaves the descriptor pointer as it was, a failed compute call its
// output.
void api_calls(trnfuzz::Input& in) {
  trnsparseHandle_t h = nullptr;
  require(trnsparseCreate(nullptr) == TRNSPARSE_STATUS_INVALID_VALUE, "Create(NULL)");
  require(trnsparseCreate(&h) == TRNSPARSE_STATUS_SUCCESS, "create handle");
  // Sizes up to 4 or negative (a larger size than the arrays hold would be the caller's overrun);
  // the arrays hold 4 of the widest element (complex double) and 64-bit indices.
  auto small = [&] {
    const std::int64_t v = in.size(4, false);
    return v > 4 ? -v : v;
  };
  const std::int64_t n = small(), nnz = small();
  std::vector<std::int64_t> off(5), col(4);
  for (std::size_t i = 0; i < off.size(); ++i) off[i] = static_cast<std::int64_t>(std::min<std::size_t>(i, 4));
  for (std::size_t i = 0; i < col.size(); ++i) col[i] = static_cast<std::int64_t>(i);
  std::vector<double> val(8, 1.0), x(32, 1.0), y(32, 2.0);
  const int idx = in.choice({TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I, TRNSPARSE_INDEX_16U});
  const int base = in.choice({TRNSPARSE_INDEX_BASE_ZERO, TRNSPARSE_INDEX_BASE_ONE});
  const int vt = in.choice({TRN_R_32F, TRN_R_64F, TRN_C_32F});
  trnsparseSpMatDescr_t A = reinterpret_cast<trnsparseSpMatDescr_t>(&h);  // sentinel: must stay on failure
  const trnsparseSpMatDescr_t sentinel = A;
  const bool null_arrays = in.flag(8);
  const trnsparseStatus_t sa = trnsparseCreateCsr(in.flag(16) ? nullptr : &A, n, n, nnz,
                                                  null_arrays ? nullptr : off.data(), col.data(), val.data(),
                                                  static_cast<trnsparseIndexType_t>(idx), static_cast<trnsparseIndexType_t>(idx),
                                                  static_cast<trnsparseIndexBase_t>(base), static_cast<trnDataType_t>(vt));
  require(is_status(sa), "CreateCsr status");
  trnfuzz::reach("api_calls");
  if (sa != TRNSPARSE_STATUS_SUCCESS) {
    require(A == sentinel, "a failed CreateCsr wrote the descriptor");
    require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
    return;
  }
  trnfuzz::reach("api_csr_created");
  trnsparseDnVecDescr_t vx = nullptr, vy = nullptr;
  require(trnsparseCreateDnVec(&vx, n, x.data(), static_cast<trnDataType_t>(vt)) == 0, "x");
  require(trnsparseCreateDnVec(&vy, n, y.data(), static_cast<trnDataType_t>(vt)) == 0, "y");
  // alpha / beta encoded in the value type (a complex-double slot holds any of them).
  const Scalar one = scalar_of(vt, 1.0), zero = scalar_of(vt, 0.0);
  const std::vector<double> y0 = y;
  // Fuzzed enum values are kept as int and cast at the call (a prvalue): an out-of-range value
  // loaded from an enum-typed local is what UBSan's enum check reports, not what the C API sees.
  const int op = in.choice({TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_TRANSPOSE,
                            TRNSPARSE_OPERATION_CONJUGATE_TRANSPOSE});
  const int alg = in.choice({TRNSPARSE_SPMV_ALG_DEFAULT, TRNSPARSE_SPMV_CSR_ALG1, TRNSPARSE_SPMV_CSR_ALG2,
                             TRNSPARSE_SPMV_COO_ALG1});
  const trnsparseStatus_t sv =
      trnsparseSpMV(in.flag(16) ? nullptr : h, static_cast<trnsparseOperation_t>(op), in.flag(16) ? nullptr : one.b, A,
                    vx, zero.b, vy, static_cast<trnDataType_t>(vt), static_cast<trnsparseSpMVAlg_t>(alg), nullptr);
  require(is_status(sv), "SpMV status");
  if (sv != TRNSPARSE_STATUS_SUCCESS) require(y == y0, "a failed SpMV wrote y");
  trnfuzz::reach("api_spmv_ok", sv == TRNSPARSE_STATUS_SUCCESS);
  trnsparseDnMatDescr_t mB = nullptr, mC = nullptr;
  const std::int64_t ld = small();
  const trnsparseStatus_t sb = trnsparseCreateDnMat(&mB, n, 1, ld, x.data(), static_cast<trnDataType_t>(vt),
                                                    static_cast<trnsparseOrder_t>(in.choice({TRNSPARSE_ORDER_COL, TRNSPARSE_ORDER_ROW})));
  require(is_status(sb), "CreateDnMat status");
  if (sb == TRNSPARSE_STATUS_SUCCESS &&
      trnsparseCreateDnMat(&mC, n, 1, std::max<std::int64_t>(n, 1), y.data(), static_cast<trnDataType_t>(vt),
                           TRNSPARSE_ORDER_COL) == TRNSPARSE_STATUS_SUCCESS) {
    const std::vector<double> c0 = y;
    const int malg = in.choice({TRNSPARSE_SPMM_ALG_DEFAULT, TRNSPARSE_SPMM_COO_ALG1});
    const trnsparseStatus_t sm =
        trnsparseSpMM(h, static_cast<trnsparseOperation_t>(op), TRNSPARSE_OPERATION_NON_TRANSPOSE, one.b, A, mB, zero.b,
                      mC, static_cast<trnDataType_t>(vt), static_cast<trnsparseSpMMAlg_t>(malg), nullptr);
    require(is_status(sm), "SpMM status");
    if (sm != TRNSPARSE_STATUS_SUCCESS) require(y == c0, "a failed SpMM wrote C");
    trnfuzz::reach("api_spmm_ok", sm == TRNSPARSE_STATUS_SUCCESS);
    trnsparseDestroyDnMat(mC);
  }
  if (sb == TRNSPARSE_STATUS_SUCCESS) trnsparseDestroyDnMat(mB);
  trnsparseDestroyDnVec(vx);
  trnsparseDestroyDnVec(vy);
  require(trnsparseDestroySpMat(A) == TRNSPARSE_STATUS_SUCCESS, "destroy");
  require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
}

// The generic API of every value type: descriptor setters and getters with fuzzed arguments, the
// sparse-vector operations with fuzzed indices (arrays of exactly nnz entries), the conversions and
// sorts with fuzzed index arrays, and a CSR / COO / CSC product of a fuzzed value type. Every call
// returns an allowed status; a failed call leaves its outputs bit-identical.
void generic_calls(trnfuzz::Input& in) {
  Bytes b{in};
  trnsparseHandle_t h = nullptr;
  require(trnsparseCreate(&h) == TRNSPARSE_STATUS_SUCCESS, "create handle");
  const int vt = in.choice({TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F});
  const std::int64_t m = b.u8() % 5, n = b.u8() % 5, nnz = b.u8() % 6;
  std::vector<std::int32_t> off(static_cast<std::size_t>(m + 1)), col(static_cast<std::size_t>(nnz)), row(col.size());
  const bool valid = b.u8() < 150;
  // A valid row-sorted pattern (entries spread over the rows, distinct sorted columns) or raw bytes.
  for (std::int64_t e = 0; e < nnz; ++e) {
    row[static_cast<std::size_t>(e)] = valid ? static_cast<std::int32_t>(m > 0 ? e * m / std::max<std::int64_t>(nnz, 1) : 0) : b.u8() % 7 - 1;
    col[static_cast<std::size_t>(e)] = valid ? static_cast<std::int32_t>(n > 0 ? e % n : 0) : b.u8() % 7 - 1;
  }
  for (std::int64_t r = 0; r <= m; ++r) {
    std::int32_t k = 0;
    while (k < nnz && row[static_cast<std::size_t>(k)] < r) ++k;
    off[static_cast<std::size_t>(r)] = valid ? k : static_cast<std::int32_t>(b.u8() % 8) - 1;
  }
  std::vector<double> val(static_cast<std::size_t>(2 * nnz + 2), 0.5), x(40, 1.0), y(40, 2.0);
  trnsparseSpMatDescr_t A = nullptr;
  const int fmt = b.u8() % 3;
  trnsparseStatus_t st = fmt == 0 ? trnsparseCreateCsr(&A, m, n, nnz, off.data(), col.data(), val.data(), TRNSPARSE_INDEX_32I,
                                                        TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, static_cast<trnDataType_t>(vt))
                         : fmt == 1 ? trnsparseCreateCoo(&A, m, n, nnz, row.data(), col.data(), val.data(), TRNSPARSE_INDEX_32I,
                                                         TRNSPARSE_INDEX_BASE_ZERO, static_cast<trnDataType_t>(vt))
                                    : trnsparseCreateCsc(&A, n, m, nnz, off.data(), col.data(), val.data(), TRNSPARSE_INDEX_32I,
                                                         TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, static_cast<trnDataType_t>(vt));
  require(is_status(st), "create status");
  if (st == TRNSPARSE_STATUS_SUCCESS) {
    trnfuzz::reach("generic_created");
    // Setters with fuzzed arguments.
    int attr = in.choice({0, 1});
    require(allowed(trnsparseSpMatSetAttribute(A, static_cast<trnsparseSpMatAttribute_t>(in.choice({0, 1})), &attr,
                                               b.u8() % 2 ? sizeof attr : 1)),
            "SetAttribute");
    require(allowed(trnsparseCsrSetStridedBatch(A, b.i32() % 3, b.u8() % 4 - 1, b.u8() % 8 - 1)), "CsrSetStridedBatch");
    require(allowed(trnsparseCooSetStridedBatch(A, b.u8() % 3, b.u8() % 8 - 1)), "CooSetStridedBatch");
    require(allowed(trnsparseCsrSetPointers(A, b.u8() % 4 ? off.data() : nullptr, col.data(), val.data())), "CsrSetPointers");
    require(allowed(trnsparseCooSetPointers(A, row.data(), b.u8() % 4 ? col.data() : nullptr, val.data())), "CooSetPointers");
    // A product in the fuzzed value type: y = A x (op fuzzed), untouched on failure.
    const int op = in.choice({0, 1, 2});
    const std::int64_t a_rows = fmt == 2 ? n : m, a_cols = fmt == 2 ? m : n;  // the CSC is n x m
    const std::int64_t M = op == 0 ? a_rows : a_cols, K = op == 0 ? a_cols : a_rows;
    trnsparseDnVecDescr_t vx = nullptr, vy = nullptr;
    require(trnsparseCreateDnVec(&vx, K, x.data(), static_cast<trnDataType_t>(vt)) == 0, "x");
    require(trnsparseCreateDnVec(&vy, M, y.data(), static_cast<trnDataType_t>(vt)) == 0, "y");
    const Scalar one = scalar_of(vt, 1.0), zero = scalar_of(vt, 0.0);
    const std::vector<double> y0 = y;
    st = trnsparseSpMV(h, static_cast<trnsparseOperation_t>(op), one.b, A, vx, zero.b, vy, static_cast<trnDataType_t>(vt),
                       TRNSPARSE_SPMV_ALG_DEFAULT, nullptr);
    require(allowed(st), "generic SpMV status");
    if (st != TRNSPARSE_STATUS_SUCCESS) require(y == y0, "a failed SpMV wrote y");
    trnfuzz::reach("generic_spmv_ok", st == TRNSPARSE_STATUS_SUCCESS);
    // SparseToDense into an m x n column-major matrix.
    trnsparseDnMatDescr_t D = nullptr;
    require(trnsparseCreateDnMat(&D, a_rows, a_cols, std::max<std::int64_t>(a_rows, 1), y.data(), static_cast<trnDataType_t>(vt),
                                 TRNSPARSE_ORDER_COL) == 0, "D");
    const std::vector<double> d0 = y;
    st = trnsparseSparseToDense(h, A, D, TRNSPARSE_SPARSETODENSE_ALG_DEFAULT, nullptr);
    require(allowed(st), "SparseToDense status");
    if (st != TRNSPARSE_STATUS_SUCCESS) require(y == d0, "a failed SparseToDense wrote B");
    trnsparseDestroyDnMat(D);
    trnsparseDestroyDnVec(vx);
    trnsparseDestroyDnVec(vy);
    require(trnsparseDestroySpMat(A) == TRNSPARSE_STATUS_SUCCESS, "destroy");
  }
  // Sparse vector over the column array (indices fuzzed when !valid), against a dense vector of n.
  trnsparseSpVecDescr_t sv = nullptr;
  const std::int64_t svn = std::min<std::int64_t>(nnz, n);
  st = trnsparseCreateSpVec(&sv, n, b.u8() % 8 ? svn : n + 1, col.data(), val.data(), TRNSPARSE_INDEX_32I,
                            TRNSPARSE_INDEX_BASE_ZERO, static_cast<trnDataType_t>(vt));
  require(is_status(st), "CreateSpVec status");
  if (st == TRNSPARSE_STATUS_SUCCESS) {
    trnsparseDnVecDescr_t dv = nullptr;
    require(trnsparseCreateDnVec(&dv, n, y.data(), static_cast<trnDataType_t>(vt)) == 0, "dv");
    const Scalar c = scalar_of(vt, 0.6), s2 = scalar_of(vt, 0.8);
    const std::vector<double> y0 = y, v0 = val;
    const int which = b.u8() % 5;
    Scalar result;
    st = which == 0 ? trnsparseAxpby(h, c.b, sv, s2.b, dv)
         : which == 1 ? trnsparseGather(h, dv, sv)
         : which == 2 ? trnsparseScatter(h, sv, dv)
         : which == 3 ? trnsparseRot(h, c.b, s2.b, sv, dv)
                      : trnsparseSpVV(h, static_cast<trnsparseOperation_t>(in.choice({0, 2})), sv, dv, result.b,
                                      static_cast<trnDataType_t>(vt), nullptr);
    require(allowed(st), "vector op status");
    if (st != TRNSPARSE_STATUS_SUCCESS) require(y == y0 && val == v0, "a failed vector op wrote its output");
    trnfuzz::reach("generic_vector_ok", st == TRNSPARSE_STATUS_SUCCESS);
    trnsparseDestroyDnVec(dv);
    trnsparseDestroySpVec(sv);
  }
  // Conversions and sorts on the raw arrays (exact lengths), outputs untouched on failure.
  std::vector<std::int32_t> cptr(static_cast<std::size_t>(n + 1), 9), rind(static_cast<std::size_t>(nnz), 9), P(rind.size(), 0);
  std::vector<double> cval(static_cast<std::size_t>(2 * nnz + 2), 9.0);
  st = trnsparseCsr2cscEx2(h, static_cast<int>(m), static_cast<int>(n), static_cast<int>(nnz), val.data(), off.data(),
                           col.data(), cval.data(), cptr.data(), rind.data(), static_cast<trnDataType_t>(vt),
                           static_cast<trnsparseAction_t>(in.choice({0, 1})), TRNSPARSE_INDEX_BASE_ZERO,
                           TRNSPARSE_CSR2CSC_ALG1, nullptr);
  require(allowed(st), "Csr2cscEx2 status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(cptr == std::vector<std::int32_t>(cptr.size(), 9), "failed Csr2cscEx2 wrote");
  trnfuzz::reach("generic_csr2csc_ok", st == TRNSPARSE_STATUS_SUCCESS);
  std::vector<std::int32_t> ptr(static_cast<std::size_t>(m + 1), 9);
  st = trnsparseXcoo2csr(h, row.data(), static_cast<int>(nnz), static_cast<int>(m), ptr.data(), TRNSPARSE_INDEX_BASE_ZERO);
  require(allowed(st), "Xcoo2csr status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(ptr == std::vector<std::int32_t>(ptr.size(), 9), "failed Xcoo2csr wrote");
  std::vector<std::int32_t> r2 = row, c2 = col;
  st = trnsparseXcoosortByRow(h, static_cast<int>(m), static_cast<int>(n), static_cast<int>(nnz), r2.data(), c2.data(),
                              P.data(), nullptr);
  require(allowed(st), "Xcoosort status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(r2 == row && c2 == col, "failed Xcoosort wrote");
  trnsparseMatDescr_t descr = nullptr;
  require(trnsparseCreateMatDescr(&descr) == TRNSPARSE_STATUS_SUCCESS, "descr");
  c2 = col;
  st = trnsparseXcsrsort(h, static_cast<int>(m), static_cast<int>(n), static_cast<int>(nnz), descr, off.data(), c2.data(),
                         P.data(), nullptr);
  require(allowed(st), "Xcsrsort status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(c2 == col, "failed Xcsrsort wrote");
  trnsparseDestroyMatDescr(descr);
  require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
}


// SpSV / SpSM and CSR SpGEMM / SpGEMMreuse on a fuzzed square pattern (valid or raw, arrays of
// exactly the claimed lengths) of a fuzzed value type, with fuzzed fill mode, diagonal type, ops,
// algorithms and update parts (any int). Every status is allowed (or ZERO_PIVOT from a solve); a
// failed solve or SpGEMM copy leaves its output bit-identical.
bool allowed_solve(trnsparseStatus_t st) { return allowed(st) || st == TRNSPARSE_STATUS_ZERO_PIVOT; }

void solve_calls(trnfuzz::Input& in) {
  Bytes b{in};
  trnsparseHandle_t h = nullptr;
  require(trnsparseCreate(&h) == TRNSPARSE_STATUS_SUCCESS, "create handle");
  const int vt = in.choice({TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F});
  const std::int64_t n = b.u8() % 5, nnz = b.u8() % 9;
  std::vector<std::int32_t> off(static_cast<std::size_t>(n + 1)), col(static_cast<std::size_t>(nnz)), row(col.size());
  const bool valid = b.u8() < 170;
  for (std::int64_t e = 0; e < nnz; ++e) {  // valid: entry e at (e n / nnz, e mod n), sorted
    row[static_cast<std::size_t>(e)] = valid ? static_cast<std::int32_t>(n > 0 ? e * n / nnz : 0) : b.u8() % 7 - 1;
    col[static_cast<std::size_t>(e)] = valid ? static_cast<std::int32_t>(n > 0 ? e % n : 0) : b.u8() % 7 - 1;
  }
  for (std::int64_t r = 0; r <= n; ++r) {
    std::int32_t k = 0;
    while (k < nnz && row[static_cast<std::size_t>(k)] < r) ++k;
    off[static_cast<std::size_t>(r)] = valid ? k : static_cast<std::int32_t>(b.u8() % 10) - 1;
  }
  std::vector<double> val(static_cast<std::size_t>(2 * nnz + 2));
  for (auto& v : val) v = b.u8() % 4 == 0 ? 0.0 : 1.0 + b.u8() % 3;
  const bool coo = in.flag(3);
  trnsparseSpMatDescr_t A = nullptr;
  trnsparseStatus_t st = coo ? trnsparseCreateCoo(&A, n, n, nnz, row.data(), col.data(), val.data(), TRNSPARSE_INDEX_32I,
                                                  TRNSPARSE_INDEX_BASE_ZERO, static_cast<trnDataType_t>(vt))
                             : trnsparseCreateCsr(&A, n, n, nnz, off.data(), col.data(), val.data(), TRNSPARSE_INDEX_32I,
                                                  TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, static_cast<trnDataType_t>(vt));
  require(is_status(st), "create status");
  if (st != TRNSPARSE_STATUS_SUCCESS) {
    require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
    return;
  }
  trnfuzz::reach("solve_created");
  for (int attr = 0; attr < 2; ++attr) {
    int v = in.choice({0, 1});
    require(allowed(trnsparseSpMatSetAttribute(A, static_cast<trnsparseSpMatAttribute_t>(attr), &v, sizeof v)), "attribute");
  }
  std::vector<double> x(40, 1.0), y(40, 2.0);
  trnsparseDnVecDescr_t vx = nullptr, vy = nullptr;
  require(trnsparseCreateDnVec(&vx, n, x.data(), static_cast<trnDataType_t>(vt)) == 0, "x");
  require(trnsparseCreateDnVec(&vy, n, y.data(), static_cast<trnDataType_t>(vt)) == 0, "y");
  const Scalar one = scalar_of(vt, 1.0), zero = scalar_of(vt, 0.0);
  const int op = in.choice({0, 1, 2}), alg = in.choice({0}), ct = in.flag(8) ? in.choice({TRN_R_32F, TRN_C_64F}) : vt;
  trnsparseSpSVDescr_t sv = nullptr;
  require(trnsparseSpSV_createDescr(&sv) == TRNSPARSE_STATUS_SUCCESS, "SpSV descr");
  size_t bytes = 0;
  const std::vector<double> y0 = y;
  st = trnsparseSpSV_bufferSize(h, static_cast<trnsparseOperation_t>(op), one.b, A, vx, vy, static_cast<trnDataType_t>(ct),
                                static_cast<trnsparseSpSVAlg_t>(alg), sv, &bytes);
  require(allowed(st), "SpSV_bufferSize status");
  st = trnsparseSpSV_analysis(h, static_cast<trnsparseOperation_t>(op), one.b, A, vx, vy, static_cast<trnDataType_t>(ct),
                              static_cast<trnsparseSpSVAlg_t>(alg), sv, nullptr);
  require(allowed(st), "SpSV_analysis status");
  // updateMatrix's array: nnz values (UPDATE_GENERAL) or n (UPDATE_DIAGONAL), whichever is longer, of
  // the widest type (complex double): val's first entries, then ones (no bytes drawn).
  std::vector<double> update = val;
  update.resize(static_cast<std::size_t>(2 * std::max(nnz, n) + 2), 1.0);
  if (in.flag(4))
    require(allowed(trnsparseSpSV_updateMatrix(h, sv, update.data(), static_cast<trnsparseSpSVUpdate_t>(in.choice({0, 1})))),
            "SpSV_updateMatrix status");
  st = trnsparseSpSV_solve(h, static_cast<trnsparseOperation_t>(op), one.b, A, vx, vy, static_cast<trnDataType_t>(ct),
                           static_cast<trnsparseSpSVAlg_t>(alg), sv);
  require(allowed_solve(st), "SpSV_solve status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(y == y0, "a failed SpSV wrote y");
  trnfuzz::reach("spsv_ok", st == TRNSPARSE_STATUS_SUCCESS);
  trnfuzz::reach("spsv_zero_pivot", st == TRNSPARSE_STATUS_ZERO_PIVOT);
  require(trnsparseSpSV_destroyDescr(sv) == TRNSPARSE_STATUS_SUCCESS, "SpSV destroy");
  // SpSM with two right-hand sides (op(B) fuzzed: B is n x 2 or 2 x n).
  const int opB = in.choice({0, 1});
  trnsparseDnMatDescr_t B = nullptr, C = nullptr;
  require(trnsparseCreateDnMat(&B, opB == 0 ? n : 2, opB == 0 ? 2 : n, std::max<std::int64_t>(opB == 0 ? n : 2, 1), x.data(),
                               static_cast<trnDataType_t>(vt), TRNSPARSE_ORDER_COL) == 0, "B");
  require(trnsparseCreateDnMat(&C, n, 2, std::max<std::int64_t>(n, 1), y.data(), static_cast<trnDataType_t>(vt),
                               TRNSPARSE_ORDER_COL) == 0, "C");
  trnsparseSpSMDescr_t sm = nullptr;
  require(trnsparseSpSM_createDescr(&sm) == TRNSPARSE_STATUS_SUCCESS, "SpSM descr");
  const std::vector<double> c0 = y;
  st = trnsparseSpSM_analysis(h, static_cast<trnsparseOperation_t>(op), static_cast<trnsparseOperation_t>(opB), one.b, A, B, C,
                              static_cast<trnDataType_t>(ct), static_cast<trnsparseSpSMAlg_t>(alg), sm, nullptr);
  require(allowed(st), "SpSM_analysis status");
  st = trnsparseSpSM_solve(h, static_cast<trnsparseOperation_t>(op), static_cast<trnsparseOperation_t>(opB), one.b, A, B, C,
                           static_cast<trnDataType_t>(ct), static_cast<trnsparseSpSMAlg_t>(alg), sm);
  require(allowed_solve(st), "SpSM_solve status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(y == c0, "a failed SpSM wrote C");
  trnfuzz::reach("spsm_ok", st == TRNSPARSE_STATUS_SUCCESS);
  require(trnsparseSpSM_destroyDescr(sm) == TRNSPARSE_STATUS_SUCCESS, "SpSM destroy");
  trnsparseDestroyDnMat(B);
  trnsparseDestroyDnMat(C);
  trnsparseDestroyDnVec(vx);
  trnsparseDestroyDnVec(vy);
  // SpGEMM C = A A (CSR only; COO operands are rejected), cuSPARSE's call sequence.
  std::vector<std::int32_t> coff(static_cast<std::size_t>(n + 1), 7);
  trnsparseSpMatDescr_t P = nullptr;
  require(trnsparseCreateCsr(&P, n, n, 0, coff.data(), nullptr, nullptr, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                             TRNSPARSE_INDEX_BASE_ZERO, static_cast<trnDataType_t>(vt)) == 0, "C of SpGEMM");
  trnsparseSpGEMMDescr_t g = nullptr;
  require(trnsparseSpGEMM_createDescr(&g) == TRNSPARSE_STATUS_SUCCESS, "SpGEMM descr");
  // Fuzzed enums stay ints; each call site gets a prvalue of the enum type (never a load of an
  // out-of-range enum-typed object, which UBSan would report in the harness itself).
  const int op_i = in.choice({0, 0, 1}), alg_i = in.choice({0, 1, 2, 3, 4, 5});
  const auto N = [op_i] { return static_cast<trnsparseOperation_t>(op_i); };
  const auto galg = [alg_i] { return static_cast<trnsparseSpGEMMAlg_t>(alg_i); };
  const auto gct = [ct] { return static_cast<trnDataType_t>(ct); };
  char buf[16];
  size_t s1 = 0, s2 = 0, s3 = 0;
  const bool reuse = in.flag(3);
  if (!reuse) {
    st = trnsparseSpGEMM_workEstimation(h, N(), N(), one.b, A, A, zero.b, P, gct(), galg(), g, &s1, buf);
    require(allowed(st), "SpGEMM_workEstimation status");
    std::int64_t np = 0;
    require(allowed(trnsparseSpGEMM_getNumProducts(g, &np)), "getNumProducts status");
    require(allowed(trnsparseSpGEMM_estimateMemory(h, N(), N(), one.b, A, A, zero.b, P, gct(), galg(), g, 0.5f, &s3, buf, &s2)),
            "estimateMemory status");
    st = trnsparseSpGEMM_compute(h, N(), N(), one.b, A, A, zero.b, P, gct(), galg(), g, &s2, buf);
    require(allowed(st), "SpGEMM_compute status");
  } else {
    st = trnsparseSpGEMMreuse_workEstimation(h, N(), N(), A, A, P, galg(), g, &s1, buf);
    require(allowed(st), "reuse_workEstimation status");
    st = trnsparseSpGEMMreuse_nnz(h, N(), N(), A, A, P, galg(), g, &s1, buf, &s2, buf, &s3, buf);
    require(allowed(st), "reuse_nnz status");
  }
  std::int64_t r = 0, c = 0, cnnz = 0;
  require(trnsparseSpMatGetSize(P, &r, &c, &cnnz) == 0, "GetSize");
  std::vector<std::int32_t> ccol(static_cast<std::size_t>(cnnz), 7);
  std::vector<double> cval(static_cast<std::size_t>(2 * cnnz), 7.0);
  if (b.u8() % 4) require(allowed(trnsparseCsrSetPointers(P, coff.data(), ccol.data(), cval.data())), "SetPointers");
  const std::vector<std::int32_t> co0 = coff;
  const std::vector<double> cv0 = cval;
  st = reuse ? trnsparseSpGEMMreuse_copy(h, N(), N(), A, A, P, galg(), g, &s1, buf)
             : trnsparseSpGEMM_copy(h, N(), N(), one.b, A, A, zero.b, P, gct(), galg(), g);
  require(allowed(st), "SpGEMM copy status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(coff == co0 && cval == cv0, "a failed SpGEMM copy wrote C");
  if (reuse) {
    st = trnsparseSpGEMMreuse_compute(h, N(), N(), one.b, A, A, zero.b, P, gct(), galg(), g);
    require(allowed(st), "reuse_compute status");
  }
  trnfuzz::reach("spgemm_csr_ok", st == TRNSPARSE_STATUS_SUCCESS);
  require(trnsparseSpGEMM_destroyDescr(g) == TRNSPARSE_STATUS_SUCCESS, "SpGEMM destroy");
  require(trnsparseDestroySpMat(P) == TRNSPARSE_STATUS_SUCCESS, "destroy C");
  require(trnsparseDestroySpMat(A) == TRNSPARSE_STATUS_SUCCESS, "destroy");
  require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
}

// The banded solvers (gtsv2, gtsv2_nopivot, gtsv2StridedBatch, gtsvInterleavedBatch,
// gpsvInterleavedBatch and their buffer queries) of a fuzzed value type with fuzzed m, n / batchCount,
// ldb / batchStride and algo (small ints, negatives included) over arrays of exactly the length the
// arguments imply (ASan sees any overread), values with zeros (zero pivots). Every status is allowed
// or ZERO_PIVOT; a failed solve leaves x bit-identical and never modifies the coefficients.
template <class T>
trnsparseStatus_t banded_call(trnsparseHandle_t h, int routine, int algo, int m, int n, int stride, std::vector<double>* a,
                              std::vector<double>& x, size_t* bytes) {
  auto p = [](std::vector<double>& v) { return reinterpret_cast<T*>(v.data()); };
  if constexpr (std::is_same_v<T, float>) {
    switch (routine) {
      case 0: return trnsparseSgtsv2(h, m, n, p(a[1]), p(a[2]), p(a[3]), p(x), stride, nullptr);
      case 1: return trnsparseSgtsv2_nopivot(h, m, n, p(a[1]), p(a[2]), p(a[3]), p(x), stride, nullptr);
      case 2: return trnsparseSgtsv2StridedBatch(h, m, p(a[1]), p(a[2]), p(a[3]), p(x), n, stride, nullptr);
      case 3: return trnsparseSgtsvInterleavedBatch(h, algo, m, p(a[1]), p(a[2]), p(a[3]), p(x), n, nullptr);
      case 4: return trnsparseSgpsvInterleavedBatch(h, algo, m, p(a[0]), p(a[1]), p(a[2]), p(a[3]), p(a[4]), p(x), n, nullptr);
      case 5: return trnsparseSgtsv2_bufferSizeExt(h, m, n, p(a[1]), p(a[2]), p(a[3]), p(x), stride, bytes);
      default: return trnsparseSgpsvInterleavedBatch_bufferSizeExt(h, algo, m, p(a[0]), p(a[1]), p(a[2]), p(a[3]), p(a[4]), p(x), n, bytes);
    }
  } else if constexpr (std::is_same_v<T, double>) {
    switch (routine) {
      case 0: return trnsparseDgtsv2(h, m, n, p(a[1]), p(a[2]), p(a[3]), p(x), stride, nullptr);
      case 1: return trnsparseDgtsv2_nopivot(h, m, n, p(a[1]), p(a[2]), p(a[3]), p(x), stride, nullptr);
      case 2: return trnsparseDgtsv2StridedBatch(h, m, p(a[1]), p(a[2]), p(a[3]), p(x), n, stride, nullptr);
      case 3: return trnsparseDgtsvInterleavedBatch(h, algo, m, p(a[1]), p(a[2]), p(a[3]), p(x), n, nullptr);
      case 4: return trnsparseDgpsvInterleavedBatch(h, algo, m, p(a[0]), p(a[1]), p(a[2]), p(a[3]), p(a[4]), p(x), n, nullptr);
      case 5: return trnsparseDgtsv2StridedBatch_bufferSizeExt(h, m, p(a[1]), p(a[2]), p(a[3]), p(x), n, stride, bytes);
      default: return trnsparseDgtsvInterleavedBatch_bufferSizeExt(h, algo, m, p(a[1]), p(a[2]), p(a[3]), p(x), n, bytes);
    }
  } else if constexpr (std::is_same_v<T, trnComplex>) {
    switch (routine) {
      case 0: return trnsparseCgtsv2(h, m, n, p(a[1]), p(a[2]), p(a[3]), p(x), stride, nullptr);
      case 1: return trnsparseCgtsv2_nopivot(h, m, n, p(a[1]), p(a[2]), p(a[3]), p(x), stride, nullptr);
      case 2: return trnsparseCgtsv2StridedBatch(h, m, p(a[1]), p(a[2]), p(a[3]), p(x), n, stride, nullptr);
      case 3: return trnsparseCgtsvInterleavedBatch(h, algo, m, p(a[1]), p(a[2]), p(a[3]), p(x), n, nullptr);
      case 4: return trnsparseCgpsvInterleavedBatch(h, algo, m, p(a[0]), p(a[1]), p(a[2]), p(a[3]), p(a[4]), p(x), n, nullptr);
      case 5: return trnsparseCgtsv2_nopivot_bufferSizeExt(h, m, n, p(a[1]), p(a[2]), p(a[3]), p(x), stride, bytes);
      default: return trnsparseCgpsvInterleavedBatch_bufferSizeExt(h, algo, m, p(a[0]), p(a[1]), p(a[2]), p(a[3]), p(a[4]), p(x), n, bytes);
    }
  } else {
    switch (routine) {
      case 0: return trnsparseZgtsv2(h, m, n, p(a[1]), p(a[2]), p(a[3]), p(x), stride, nullptr);
      case 1: return trnsparseZgtsv2_nopivot(h, m, n, p(a[1]), p(a[2]), p(a[3]), p(x), stride, nullptr);
      case 2: return trnsparseZgtsv2StridedBatch(h, m, p(a[1]), p(a[2]), p(a[3]), p(x), n, stride, nullptr);
      case 3: return trnsparseZgtsvInterleavedBatch(h, algo, m, p(a[1]), p(a[2]), p(a[3]), p(x), n, nullptr);
      case 4: return trnsparseZgpsvInterleavedBatch(h, algo, m, p(a[0]), p(a[1]), p(a[2]), p(a[3]), p(a[4]), p(x), n, nullptr);
      case 5: return trnsparseZgtsv2_bufferSizeExt(h, m, n, p(a[1]), p(a[2]), p(a[3]), p(x), stride, bytes);
      default: return trnsparseZgtsvInterleavedBatch_bufferSizeExt(h, algo, m, p(a[1]), p(a[2]), p(a[3]), p(x), n, bytes);
    }
  }
}

void banded_calls(trnfuzz::Input& in) {
  Bytes b{in};
  trnsparseHandle_t h = nullptr;
  require(trnsparseCreate(&h) == TRNSPARSE_STATUS_SUCCESS, "create handle");
  const int vt = in.choice({TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F});
  // Drawn so that small bytes (and an exhausted input's zeros) give valid arguments.
  static constexpr int kM[9] = {4, 5, 3, 6, 7, 2, 1, 0, -1}, kN[5] = {2, 1, 3, 0, -1}, kAlgo[5] = {0, 1, 2, -1, 3};
  const int routine = b.u8() % 7, algo = kAlgo[b.u8() % 5];
  const int m = kM[b.u8() % 9], n = kN[b.u8() % 5], stride = m + (b.u8() % 4 == 3 ? -1 : b.u8() % 3);
  // Lengths the arguments imply (0 when an argument is invalid): coefficients, right-hand sides.
  const bool interleaved = routine == 3 || routine == 4 || routine == 6;
  const long mm = std::max(m, 0), nn = std::max(n, 0), ss = std::max(stride, 0);
  const long coef = routine == 2 ? (mm > 0 && nn > 0 ? (mm - 1) + (nn - 1) * ss + 1 : 0) : interleaved ? mm * nn : mm;
  const long rhs = routine == 0 || routine == 1 || routine == 5 ? (mm > 0 && nn > 0 ? (nn - 1) * ss + mm : 0) : routine == 2 ? coef : mm * nn;
  const bool z = vt != TRN_R_32F && vt != TRN_R_64F && vt != TRN_C_32F;  // any other int: the Z entry points
  const std::size_t wide = z ? 2 : 1;                                    // doubles per element
  std::vector<double> a[5];
  for (auto& v : a) {
    v.resize(static_cast<std::size_t>(coef) * wide);
    for (auto& e : v) e = b.u8() % 5 == 4 ? 0.0 : static_cast<double>(b.u8() % 7) + 1.0;
  }
  std::vector<double> x(static_cast<std::size_t>(rhs) * wide);
  for (auto& e : x) e = static_cast<double>(b.u8() % 5);
  const std::vector<double> x0 = x, a2 = a[2];
  size_t bytes = 0;
  trnsparseStatus_t st{};
  switch (vt) {
    case TRN_R_32F: st = banded_call<float>(h, routine, algo, m, n, stride, a, x, &bytes); break;
    case TRN_R_64F: st = banded_call<double>(h, routine, algo, m, n, stride, a, x, &bytes); break;
    case TRN_C_32F: st = banded_call<trnComplex>(h, routine, algo, m, n, stride, a, x, &bytes); break;
    default: st = banded_call<trnDoubleComplex>(h, routine, algo, m, n, stride, a, x, &bytes); break;
  }
  require(allowed(st) || st == TRNSPARSE_STATUS_ZERO_PIVOT, "banded status");
  if (st != TRNSPARSE_STATUS_SUCCESS || routine >= 5) require(x == x0, "a failed banded solve (or a query) wrote x");
  require(a[2] == a2, "a banded solve wrote its diagonal");
  trnfuzz::reach("banded_ok", st == TRNSPARSE_STATUS_SUCCESS && routine < 5);
  trnfuzz::reach("banded_zero_pivot", st == TRNSPARSE_STATUS_ZERO_PIVOT);
  require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
}

// csrgeam2 / Xcsrgeam2Nnz and nnz on fuzzed index arrays (valid or raw, exactly the claimed lengths),
// bases, matrix types and sizes; GetProperty with any int. Statuses: SUCCESS, INVALID_VALUE or
// MATRIX_TYPE_NOT_SUPPORTED; a failed call leaves C / the counts untouched.
void geam_calls(trnfuzz::Input& in) {
  Bytes b{in};
  trnsparseHandle_t h = nullptr;
  require(trnsparseCreate(&h) == TRNSPARSE_STATUS_SUCCESS, "create handle");
  const int m = b.u8() % 5, n = b.u8() % 5;
  trnsparseMatDescr_t d[3] = {nullptr, nullptr, nullptr};
  for (auto& x : d) {
    require(trnsparseCreateMatDescr(&x) == TRNSPARSE_STATUS_SUCCESS, "descr");
    trnsparseSetMatIndexBase(x, static_cast<trnsparseIndexBase_t>(b.u8() & 1));
    if (b.u8() % 16 == 15) trnsparseSetMatType(x, TRNSPARSE_MATRIX_TYPE_SYMMETRIC);
  }
  std::vector<int> row[2], col[2];
  std::vector<double> val[2];
  int nz[2];
  for (int k = 0; k < 2; ++k) {
    const int base = trnsparseGetMatIndexBase(d[k]);
    const bool valid = b.u8() < 180;
    nz[k] = valid ? 0 : b.u8() % 6 - 1;
    row[k].assign(static_cast<std::size_t>(m + 1), base);
    for (int i = 0; i < m; ++i) {  // valid: a random subset of each row's columns, sorted
      for (int j = 0; j < n && valid; ++j)
        if (b.u8() & 1) col[k].push_back(j + base), ++nz[k];
      row[k][static_cast<std::size_t>(i) + 1] = valid ? nz[k] + base : b.u8() % 7 - 1;
    }
    if (!valid) col[k].assign(static_cast<std::size_t>(std::max(nz[k], 0)), 0), fill_indices(b, col[k], n);
    val[k].assign(2 * col[k].size() + 1, 1.5);
  }
  std::vector<int> rc(static_cast<std::size_t>(m + 1), -3);
  int nnz = -4;
  trnsparseStatus_t st = trnsparseXcsrgeam2Nnz(h, m, n, d[0], nz[0], row[0].data(), col[0].data(), d[1], nz[1], row[1].data(),
                                               col[1].data(), d[2], rc.data(), &nnz, nullptr);
  const auto ok = [](trnsparseStatus_t s) { return allowed(s) || s == TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED; };
  require(ok(st), "Xcsrgeam2Nnz status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(nnz == -4, "a failed Xcsrgeam2Nnz wrote nnz");
  const std::size_t cn = st == TRNSPARSE_STATUS_SUCCESS ? static_cast<std::size_t>(nnz) : 0;
  std::vector<int> cc(cn, -5);
  std::vector<double> cv(2 * cn + 1, -6.0);
  const std::vector<int> cc0 = cc;
  if (b.u8() % 8 == 7 && !rc.empty()) rc[0] += 1;  // offsets that are not Xcsrgeam2Nnz's
  const int vt = in.choice({0, 1, 2, 3});
  const double alpha[2] = {0.5, -1.0}, beta[2] = {2.0, 0.25};
  switch (vt) {
    case 0:
      st = trnsparseScsrgeam2(h, m, n, reinterpret_cast<const float*>(alpha), d[0], nz[0], reinterpret_cast<const float*>(val[0].data()),
                              row[0].data(), col[0].data(), reinterpret_cast<const float*>(beta), d[1], nz[1],
                              reinterpret_cast<const float*>(val[1].data()), row[1].data(), col[1].data(), d[2],
                              reinterpret_cast<float*>(cv.data()), rc.data(), cc.data(), nullptr);
      break;
    case 1:
      st = trnsparseDcsrgeam2(h, m, n, alpha, d[0], nz[0], val[0].data(), row[0].data(), col[0].data(), beta, d[1], nz[1],
                              val[1].data(), row[1].data(), col[1].data(), d[2], cv.data(), rc.data(), cc.data(), nullptr);
      break;
    case 2:
      st = trnsparseCcsrgeam2(h, m, n, reinterpret_cast<const trnComplex*>(alpha), d[0], nz[0],
                              reinterpret_cast<const trnComplex*>(val[0].data()), row[0].data(), col[0].data(),
                              reinterpret_cast<const trnComplex*>(beta), d[1], nz[1], reinterpret_cast<const trnComplex*>(val[1].data()),
                              row[1].data(), col[1].data(), d[2], reinterpret_cast<trnComplex*>(cv.data()), rc.data(), cc.data(), nullptr);
      break;
    default: {  // val and cv hold 2 doubles per value: a trnDoubleComplex each
      const trnDoubleComplex za = {0.5, -1.0}, zb = {2.0, 0.25};
      st = trnsparseZcsrgeam2(h, m, n, &za, d[0], nz[0], reinterpret_cast<const trnDoubleComplex*>(val[0].data()), row[0].data(),
                              col[0].data(), &zb, d[1], nz[1], reinterpret_cast<const trnDoubleComplex*>(val[1].data()),
                              row[1].data(), col[1].data(), d[2], reinterpret_cast<trnDoubleComplex*>(cv.data()), rc.data(),
                              cc.data(), nullptr);
      break;
    }
  }
  require(ok(st), "csrgeam2 status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(cc == cc0, "a failed csrgeam2 wrote C");
  trnfuzz::reach("csrgeam2_ok", st == TRNSPARSE_STATUS_SUCCESS);
  // nnz over a dense m x n (lda fuzzed) of the same bytes
  const int lda = std::max(m, 1) + (b.u8() % 4 == 3 ? -1 : 1), dir = in.choice({0, 1});
  std::vector<double> dense(static_cast<std::size_t>(std::max(lda, 0) * n * 2 + 1));
  for (auto& x : dense) x = b.u8() % 3 == 0 ? 1.0 : 0.0;
  std::vector<int> per(static_cast<std::size_t>(std::max(m, n)), -9);
  int total = -9;
  st = trnsparseDnnz(h, static_cast<trnsparseDirection_t>(dir), m, n, d[0], dense.data(), lda, per.data(), &total);
  require(ok(st), "nnz status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(total == -9, "a failed nnz wrote the total");
  trnfuzz::reach("nnz_ok", st == TRNSPARSE_STATUS_SUCCESS);
  // legacy BSR in fp64 / complex over A's arrays read as block offsets / block columns (block size fuzzed)
  const int bs = 1 + b.u8() % 3, ta = in.choice({0, 1, 2}), nzb = std::max(nz[0], 0);
  std::vector<double> bval(static_cast<std::size_t>(2 * nzb * bs * bs + 1), 0.5), bx(static_cast<std::size_t>(2 * (m + n) * bs + 2), 1.0);
  std::vector<double> by = bx;
  const std::vector<double> by0 = by;
  const double za[2] = {1.0, 0.5}, zb[2] = {-1.0, 0.0};
  const int dir_i = in.choice({0, 1});
  const auto bdir = [dir_i] { return static_cast<trnsparseDirection_t>(dir_i); };
  const auto op = [ta] { return static_cast<trnsparseOperation_t>(ta); };
  switch (b.u8() % 4) {
    case 0:
      st = trnsparseDbsrmv(h, bdir(), op(), m, n, nz[0], za, d[0], bval.data(), row[0].data(), col[0].data(), bs, bx.data(), zb, by.data());
      break;
    case 1:
      st = trnsparseCbsrmv(h, bdir(), op(), m, n, nz[0], reinterpret_cast<const trnComplex*>(za), d[0],
                           reinterpret_cast<const trnComplex*>(bval.data()), row[0].data(), col[0].data(), bs,
                           reinterpret_cast<const trnComplex*>(bx.data()), reinterpret_cast<const trnComplex*>(zb),
                           reinterpret_cast<trnComplex*>(by.data()));
      break;
    case 2:
      st = trnsparseZbsrmv(h, bdir(), op(), m, n, nz[0], reinterpret_cast<const trnDoubleComplex*>(za), d[0],
                           reinterpret_cast<const trnDoubleComplex*>(bval.data()), row[0].data(), col[0].data(), bs,
                           reinterpret_cast<const trnDoubleComplex*>(bx.data()), reinterpret_cast<const trnDoubleComplex*>(zb),
                           reinterpret_cast<trnDoubleComplex*>(by.data()));
      break;
    default: {  // C = op(A) op(B), one column: op(B) k x 1 (B k x 1, ldb k, or 1 x k, ldb 1), C rows x 1
      const int kk = (ta == 0 ? n : m) * bs, rows_c = (ta == 0 ? m : n) * bs;
      st = trnsparseDbsrmm(h, bdir(), op(), op(), m, 1, n, nz[0], za, d[0], bval.data(), row[0].data(), col[0].data(), bs, bx.data(),
                           ta == 0 ? std::max(kk, 1) : 1, zb, by.data(), std::max(rows_c, 1));
      break;
    }
  }
  require(ok(st), "legacy wide BSR status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(by == by0, "a failed wide bsrmv / bsrmm wrote y");
  trnfuzz::reach("bsr_wide_ok", st == TRNSPARSE_STATUS_SUCCESS);
  int prop = -1;
  require(allowed(trnsparseGetProperty(static_cast<libraryPropertyType>(in.choice({0, 1, 2})), &prop)), "GetProperty status");
  for (auto& x : d) trnsparseDestroyMatDescr(x);
  require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
}


// ---- fourth slice (issue #28): Sliced-ELL, general-BSR conversions, BSR strided batches ----------
// sell_calls: a SELL descriptor over fuzzed sizes (slice size 0 and -1 included), index type, base
// and value type; its arrays a valid random SELL (rows' entries in slots of their slice, padding
// -1, a spare padding column sometimes, nnz sometimes off by one) or raw offsets / columns, at
// exactly the lengths claimed. Every status is SUCCESS, INVALID_VALUE, NOT_SUPPORTED (or ZERO_PIVOT
// for the solve); a failed SpMV / SpSV leaves y bit-identical; SpMatGetSize reports what was created.
void sell_calls(trnfuzz::Input& in) {
  Bytes b{in};
  trnsparseHandle_t h = nullptr;
  require(trnsparseCreate(&h) == TRNSPARSE_STATUS_SUCCESS, "create handle");
  const int vt = in.choice({TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F});
  // (an exhausted input's zero bytes give 3 x 3 in slices of 1)
  const std::int64_t rows = (b.u8() + 3) % 7, cols = (b.u8() + 3) % 7, slice = static_cast<std::int64_t>((b.u8() + 2) % 5) - 1;
  const int base = b.u8() & 1, it = in.choice({TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I});
  const std::int64_t S = std::max<std::int64_t>(slice, 1), slices = rows == 0 ? 0 : (rows - 1) / S + 1;
  std::vector<std::int64_t> off(static_cast<std::size_t>(slices + 1), 0), col;
  std::int64_t nnz = 0;
  if (b.u8() < 170) {  // valid: row i keeps column j when the byte says so
    for (std::int64_t s = 0; s < slices; ++s) {
      std::vector<std::vector<std::int64_t>> keep(static_cast<std::size_t>(S));
      std::size_t width = 0;
      for (std::int64_t r = 0; r < S && s * S + r < rows; ++r) {
        for (std::int64_t j = 0; j < cols; ++j) {
          const std::uint8_t v = b.u8();  // the diagonal mostly kept (SpSV gets non-singular triangles)
          if ((v & 1) || (j == s * S + r && v % 8 != 6)) keep[static_cast<std::size_t>(r)].push_back(j + base);
        }
        width = std::max(width, keep[static_cast<std::size_t>(r)].size());
        nnz += static_cast<std::int64_t>(keep[static_cast<std::size_t>(r)].size());
      }
      width += b.u8() % 4 == 3 ? 1 : 0;
      const std::size_t at = col.size();
      col.resize(at + width * static_cast<std::size_t>(S), -1);
      for (std::int64_t r = 0; r < S; ++r)
        for (std::size_t j = 0; j < keep[static_cast<std::size_t>(r)].size(); ++j)
          col[at + j * static_cast<std::size_t>(S) + static_cast<std::size_t>(r)] = keep[static_cast<std::size_t>(r)][j];
      off[static_cast<std::size_t>(s + 1)] = static_cast<std::int64_t>(col.size());
    }
    if (!col.empty() && b.u8() % 8 == 7) col[b.u8() % col.size()] = static_cast<std::int64_t>(b.u8() % 9) - 2;  // one mutation
    if (b.u8() % 8 == 7) ++nnz;
  } else {
    fill_indices(b, off, 12);
    col.assign(b.u8() % 20, 0);
    fill_indices(b, col, static_cast<int>(cols));
    nnz = b.u8() % 12;
  }
  const std::int64_t size = static_cast<std::int64_t>(col.size());
  std::vector<std::int32_t> off32(off.begin(), off.end()), col32(col.begin(), col.end());
  const bool i64 = it == TRNSPARSE_INDEX_64I;
  // Values: 0, or the double whose words read as the floats 1.0f and 1.875f (non-zero in every type).
  double nonzero = 0;
  const std::uint64_t bits = 0x3FF000003F800000ULL;
  std::memcpy(&nonzero, &bits, sizeof nonzero);
  std::vector<double> val(static_cast<std::size_t>(2 * size + 1));
  for (auto& v : val) v = b.u8() % 4 == 3 ? 0.0 : nonzero;
  trnsparseSpMatDescr_t A = nullptr;
  trnsparseStatus_t st = trnsparseCreateSlicedEll(
      &A, rows, cols, nnz, size, slice, i64 ? static_cast<void*>(off.data()) : off32.data(),
      i64 ? static_cast<void*>(col.data()) : col32.data(), val.data(), static_cast<trnsparseIndexType_t>(it),
      static_cast<trnsparseIndexType_t>(it), static_cast<trnsparseIndexBase_t>(base), static_cast<trnDataType_t>(vt));
  require(allowed(st), "CreateSlicedEll status");
  if (st != TRNSPARSE_STATUS_SUCCESS) {
    require(A == nullptr, "a failed CreateSlicedEll wrote the descriptor");
    require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
    return;
  }
  trnfuzz::reach("sell_created");
  int64_t r = -1, c = -1, z = -1;
  require(trnsparseSpMatGetSize(A, &r, &c, &z) == 0 && r == rows && c == cols && z == nnz, "SELL SpMatGetSize");
  const int op = in.choice({0, 1, 2});
  std::vector<double> x(16, 1.0), y(16, 2.0);
  trnsparseDnVecDescr_t vx = nullptr, vy = nullptr;
  const std::int64_t xn = op == 0 ? cols : rows, yn = op == 0 ? rows : cols;
  require(trnsparseCreateDnVec(&vx, xn, x.data(), static_cast<trnDataType_t>(vt)) == 0, "x");
  require(trnsparseCreateDnVec(&vy, yn, y.data(), static_cast<trnDataType_t>(vt)) == 0, "y");
  const Scalar one = scalar_of(vt, 1.0), half = scalar_of(vt, 0.5);
  const std::vector<double> y0 = y;
  st = trnsparseSpMV(h, static_cast<trnsparseOperation_t>(op), one.b, A, vx, half.b, vy, static_cast<trnDataType_t>(vt),
                     TRNSPARSE_SPMV_ALG_DEFAULT, nullptr);
  require(allowed(st), "SELL SpMV status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(y == y0, "a failed SELL SpMV wrote y");
  trnfuzz::reach("sell_spmv_ok", st == TRNSPARSE_STATUS_SUCCESS);
  for (int attr = 0; attr < 2; ++attr) {
    int v = in.choice({0, 1});
    require(allowed(trnsparseSpMatSetAttribute(A, static_cast<trnsparseSpMatAttribute_t>(attr), &v, sizeof v)), "attribute");
  }
  trnsparseSpSVDescr_t sv = nullptr;
  require(trnsparseSpSV_createDescr(&sv) == TRNSPARSE_STATUS_SUCCESS, "SpSV descr");
  const std::vector<double> y1 = y;
  st = trnsparseSpSV_analysis(h, static_cast<trnsparseOperation_t>(op), one.b, A, vx, vy, static_cast<trnDataType_t>(vt),
                              TRNSPARSE_SPSV_ALG_DEFAULT, sv, nullptr);
  require(allowed(st), "SELL SpSV_analysis status");
  if (st == TRNSPARSE_STATUS_SUCCESS && in.flag(4)) {
    std::vector<double> update(static_cast<std::size_t>(2 * std::max(size, std::max(rows, cols)) + 2), nonzero);
    require(allowed(trnsparseSpSV_updateMatrix(h, sv, update.data(), static_cast<trnsparseSpSVUpdate_t>(in.choice({0, 1})))),
            "SELL SpSV_updateMatrix status");
    st = trnsparseSpSV_solve(h, static_cast<trnsparseOperation_t>(op), one.b, A, vx, vy, static_cast<trnDataType_t>(vt),
                             TRNSPARSE_SPSV_ALG_DEFAULT, sv);
  } else {
    st = trnsparseSpSV_solve(h, static_cast<trnsparseOperation_t>(op), one.b, A, vx, vy, static_cast<trnDataType_t>(vt),
                             TRNSPARSE_SPSV_ALG_DEFAULT, sv);
  }
  require(allowed_solve(st), "SELL SpSV_solve status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(y == y1, "a failed SELL SpSV wrote y");
  trnfuzz::reach("sell_spsv_ok", st == TRNSPARSE_STATUS_SUCCESS);
  trnsparseSpSV_destroyDescr(sv);
  trnsparseDestroyDnVec(vx);
  trnsparseDestroyDnVec(vy);
  trnsparseDestroySpMat(A);
  require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
}

// gebsr_calls: Xcsr2gebsrNnz, csr2gebsr (S/D/C/Z, both bufferSize forms) and gebsr2gebsc over a
// fuzzed CSR (valid random pattern or raw offsets / columns), block dims 0 .. 3 and -1, direction,
// bases, copyValues and idxBase valid or any int; then BsrSetStridedBatch with fuzzed strides on a
// BSR descriptor of the result. Every status is SUCCESS, INVALID_VALUE or MATRIX_TYPE_NOT_SUPPORTED;
// a failed call leaves its outputs bit-identical.
template <class T>
trnsparseStatus_t gebsr_pair(trnsparseHandle_t h, int dir, int m, int n, trnsparseMatDescr_t dA, const double* val, const int* row,
                             const int* col, trnsparseMatDescr_t dC, double* bval, int* brow, int* bcol, int rb, int cb, int* isz,
                             size_t* ssz);
// The direction is cast in each call's argument list, never held in an enum variable: a fuzzed value
// outside the enum's range would be a UBSan "invalid enum load" in the harness itself.
#define TRNSPARSE_FUZZ_DIR static_cast<trnsparseDirection_t>(dir)
#define TRNSPARSE_FUZZ_GEBSR(L, T)                                                                                          \
  template <>                                                                                                               \
  trnsparseStatus_t gebsr_pair<T>(trnsparseHandle_t h, int dir, int m, int n, trnsparseMatDescr_t dA, const double* val,  \
                                  const int* row, const int* col, trnsparseMatDescr_t dC, double* bval, int* brow, int* bcol,  \
                                  int rb, int cb, int* isz, size_t* ssz) {                                                  \
    const auto* v = reinterpret_cast<const T*>(val);                                                                        \
    const trnsparseStatus_t s1 = trnsparse##L##csr2gebsr_bufferSize(h, TRNSPARSE_FUZZ_DIR, m, n, dA, v, row, col, rb, cb, isz);            \
    const trnsparseStatus_t s2 = trnsparse##L##csr2gebsr_bufferSizeExt(h, TRNSPARSE_FUZZ_DIR, m, n, dA, v, row, col, rb, cb, ssz);         \
    require(s1 == s2 && (allowed(s1) || s1 == TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED), "csr2gebsr_bufferSize status"); \
    return trnsparse##L##csr2gebsr(h, TRNSPARSE_FUZZ_DIR, m, n, dA, v, row, col, dC, reinterpret_cast<T*>(bval), brow, bcol, rb, cb, nullptr); \
  }
TRNSPARSE_FUZZ_GEBSR(S, float)
TRNSPARSE_FUZZ_GEBSR(D, double)
TRNSPARSE_FUZZ_GEBSR(C, trnComplex)
TRNSPARSE_FUZZ_GEBSR(Z, trnDoubleComplex)
#undef TRNSPARSE_FUZZ_GEBSR

template <class T>
trnsparseStatus_t gebsc_call(trnsparseHandle_t h, int mb, int nb, int nnzb, const double* v, const int* r, const int* c, int rb,
                             int cb, double* out, int* ri, int* cp, int copy, int base);
#define TRNSPARSE_FUZZ_GEBSC(L, T)                                                                                       \
  template <>                                                                                                            \
  trnsparseStatus_t gebsc_call<T>(trnsparseHandle_t h, int mb, int nb, int nnzb, const double* v, const int* r, const int* c, \
                                  int rb, int cb, double* out, int* ri, int* cp, int copy, int base) {                   \
    int isz = 0;                                                                                                         \
    size_t ssz = 0;                                                                                                      \
    require(allowed(trnsparse##L##gebsr2gebsc_bufferSize(h, mb, nb, nnzb, reinterpret_cast<const T*>(v), r, c, rb, cb, &isz)), \
            "gebsr2gebsc_bufferSize status");                                                                            \
    require(allowed(trnsparse##L##gebsr2gebsc_bufferSizeExt(h, mb, nb, nnzb, reinterpret_cast<const T*>(v), r, c, rb, cb, &ssz)), \
            "gebsr2gebsc_bufferSizeExt status");                                                                         \
    return trnsparse##L##gebsr2gebsc(h, mb, nb, nnzb, reinterpret_cast<const T*>(v), r, c, rb, cb, reinterpret_cast<T*>(out), \
                                     ri, cp, static_cast<trnsparseAction_t>(copy), static_cast<trnsparseIndexBase_t>(base), \
                                     nullptr);                                                                           \
  }
TRNSPARSE_FUZZ_GEBSC(S, float)
TRNSPARSE_FUZZ_GEBSC(D, double)
TRNSPARSE_FUZZ_GEBSC(C, trnComplex)
TRNSPARSE_FUZZ_GEBSC(Z, trnDoubleComplex)
#undef TRNSPARSE_FUZZ_GEBSC

void gebsr_calls(trnfuzz::Input& in) {
  Bytes b{in};
  trnsparseHandle_t h = nullptr;
  require(trnsparseCreate(&h) == TRNSPARSE_STATUS_SUCCESS, "create handle");
  // (an exhausted input's zero bytes give 3 x 3 in 2 x 1 blocks)
  const int m = (b.u8() + 3) % 6, n = (b.u8() + 3) % 6, rb = (b.u8() + 3) % 5 - 1, cb = (b.u8() + 2) % 5 - 1, dir = in.choice({0, 1});
  trnsparseMatDescr_t dA = nullptr, dC = nullptr;
  require(trnsparseCreateMatDescr(&dA) == 0 && trnsparseCreateMatDescr(&dC) == 0, "descr");
  trnsparseSetMatIndexBase(dA, static_cast<trnsparseIndexBase_t>(b.u8() & 1));
  trnsparseSetMatIndexBase(dC, static_cast<trnsparseIndexBase_t>(b.u8() & 1));
  if (b.u8() % 16 == 15) trnsparseSetMatType(dA, TRNSPARSE_MATRIX_TYPE_SYMMETRIC);
  const int base = trnsparseGetMatIndexBase(dA), cbase = trnsparseGetMatIndexBase(dC);
  std::vector<int> row(static_cast<std::size_t>(m + 1), base), col;
  const bool valid = b.u8() < 180;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n && valid; ++j)
      if (b.u8() & 1) col.push_back(j + base);
    row[static_cast<std::size_t>(i) + 1] = valid ? static_cast<int>(col.size()) + base : b.u8() % 9 - 1;
  }
  if (!valid) col.assign(static_cast<std::size_t>(std::max(row.back() - base, 0)), 0), fill_indices(b, col, n);
  std::vector<double> val(2 * col.size() + 1, 1.5);
  const int mb = rb >= 1 ? (m + rb - 1) / rb : 1, nb = cb >= 1 ? (n + cb - 1) / cb : 1;
  std::vector<int> brow(static_cast<std::size_t>(mb) + 1, -3);
  int total = -4;
  const auto ok = [](trnsparseStatus_t s) { return allowed(s) || s == TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED; };
  trnsparseStatus_t st = trnsparseXcsr2gebsrNnz(h, static_cast<trnsparseDirection_t>(dir), m, n, dA, row.data(), col.data(), dC,
                                                brow.data(), rb, cb, &total, nullptr);
  require(ok(st), "Xcsr2gebsrNnz status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(total == -4 && brow[0] == -3, "a failed Xcsr2gebsrNnz wrote its outputs");
  const std::size_t nnzb = st == TRNSPARSE_STATUS_SUCCESS ? static_cast<std::size_t>(total) : 0;
  const std::size_t block = rb >= 1 && cb >= 1 ? static_cast<std::size_t>(rb * cb) : 1;
  std::vector<int> bcol(nnzb, -5);
  std::vector<double> bval(2 * nnzb * block + 1, -6.0);
  if (b.u8() % 8 == 7) brow[0] += 1;  // a row pointer that is not Nnz's
  const std::vector<int> bcol0 = bcol;
  const std::vector<double> bval0 = bval;
  const int vt = in.choice({0, 1, 2, 3});
  int isz = 0;
  size_t ssz = 0;
  const int* r = row.data();
  const int* c = col.data();
  switch (vt) {
    case 0: st = gebsr_pair<float>(h, dir, m, n, dA, val.data(), r, c, dC, bval.data(), brow.data(), bcol.data(), rb, cb, &isz, &ssz); break;
    case 1: st = gebsr_pair<double>(h, dir, m, n, dA, val.data(), r, c, dC, bval.data(), brow.data(), bcol.data(), rb, cb, &isz, &ssz); break;
    case 2: st = gebsr_pair<trnComplex>(h, dir, m, n, dA, val.data(), r, c, dC, bval.data(), brow.data(), bcol.data(), rb, cb, &isz, &ssz); break;
    default: st = gebsr_pair<trnDoubleComplex>(h, dir, m, n, dA, val.data(), r, c, dC, bval.data(), brow.data(), bcol.data(), rb, cb, &isz, &ssz);
  }
  require(ok(st), "csr2gebsr status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(bcol == bcol0 && bval == bval0, "a failed csr2gebsr wrote C");
  trnfuzz::reach("gebsr_ok", st == TRNSPARSE_STATUS_SUCCESS);
  // gebsr2gebsc of that result (or of the raw arrays when it failed: the CSR arrays read as blocks)
  const bool from_result = st == TRNSPARSE_STATUS_SUCCESS;
  const int gm = from_result ? mb : m, gnnzb = from_result ? static_cast<int>(nnzb) : std::max(row.back() - base, 0) - (b.u8() % 4 == 3);
  const int* gr = from_result ? brow.data() : row.data();
  const int* gc = from_result ? bcol.data() : col.data();
  const int grb = from_result ? rb : 1 + b.u8() % 2, gcb = from_result ? cb : 1;
  // the raw case's block values: nnzb blocks of grb x gcb values of the widest type (2 doubles each)
  const std::vector<double> raw_val(2 * static_cast<std::size_t>(std::max(gnnzb, 0)) * static_cast<std::size_t>(grb * gcb) + 1, 1.5);
  const double* gv = from_result ? bval.data() : raw_val.data();
  const int gnb = from_result ? nb : n, copy = in.choice({0, 1}), gbase = from_result ? cbase : in.choice({0, 1});
  std::vector<int> ri(static_cast<std::size_t>(std::max(gnnzb, 0)), -7), cp(static_cast<std::size_t>(gnb) + 1, -7);
  std::vector<double> out(2 * ri.size() * static_cast<std::size_t>(std::max(grb * gcb, 1)) + 1, -8.0);
  const std::vector<int> cp0 = cp;
  const std::vector<double> out0 = out;
  switch (vt) {
    case 0: st = gebsc_call<float>(h, gm, gnb, gnnzb, gv, gr, gc, grb, gcb, out.data(), ri.data(), cp.data(), copy, gbase); break;
    case 1: st = gebsc_call<double>(h, gm, gnb, gnnzb, gv, gr, gc, grb, gcb, out.data(), ri.data(), cp.data(), copy, gbase); break;
    case 2: st = gebsc_call<trnComplex>(h, gm, gnb, gnnzb, gv, gr, gc, grb, gcb, out.data(), ri.data(), cp.data(), copy, gbase); break;
    default: st = gebsc_call<trnDoubleComplex>(h, gm, gnb, gnnzb, gv, gr, gc, grb, gcb, out.data(), ri.data(), cp.data(), copy, gbase);
  }
  require(allowed(st), "gebsr2gebsc status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(cp == cp0 && out == out0, "a failed gebsr2gebsc wrote its outputs");
  if (st == TRNSPARSE_STATUS_SUCCESS && copy == 0) require(out == out0, "a SYMBOLIC gebsr2gebsc wrote values");
  trnfuzz::reach("gebsc_ok", st == TRNSPARSE_STATUS_SUCCESS);
  // BsrSetStridedBatch on a BSR descriptor of the result, strides fuzzed
  if (from_result && rb >= 1 && cb >= 1) {
    trnsparseSpMatDescr_t A = nullptr;
    if (trnsparseCreateBsr(&A, mb, nb, static_cast<int64_t>(nnzb), rb, cb, brow.data(), bcol.data(), bval.data(), TRNSPARSE_INDEX_32I,
                           TRNSPARSE_INDEX_32I, static_cast<trnsparseIndexBase_t>(cbase), TRN_R_32F, TRNSPARSE_ORDER_ROW) == 0) {
      const int count = (b.u8() + 2) % 4 - 1;
      st = trnsparseBsrSetStridedBatch(A, count, in.size(6, true), in.size(6, true), in.size(30, true));
      require(allowed(st), "BsrSetStridedBatch status");
      trnfuzz::reach("bsr_batch_set", st == TRNSPARSE_STATUS_SUCCESS);
      trnsparseDestroySpMat(A);
    }
  }
  trnsparseDestroyMatDescr(dA);
  trnsparseDestroyMatDescr(dC);
  require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
}
}  // namespace

// ---- issue #28 (s6/ilu): csric02 / csrilu02 and DenseToSparse into Blocked-ELL --------------------
namespace {

// csric02 / csrilu02 (S/D/C/Z by the bytes) on a fuzzed m x m pattern: bufferSize, analysis,
// zeroPivot, numericBoost (fuzzed pointers), the factorization, zeroPivot. The offsets hold m + 1
// entries and the columns and values exactly the nnz the call claims (any claim the arrays could
// be read at). Properties: statuses SUCCESS / INVALID_VALUE / MATRIX_TYPE_NOT_SUPPORTED (zeroPivot:
// ZERO_PIVOT too, with a position in [base, m - 1 + base]); a factorization that fails or reports
// a zero pivot leaves the values bit-identical.
template <class T>
trnsparseStatus_t incomplete_call(trnsparseHandle_t h, int call, bool ic, int m, int nnz, trnsparseMatDescr_t d, void* val,
                                  const int* row, const int* col, void* info, int policy, int* bytes) {
  T* v = static_cast<T*>(val);
  // The fuzzed policy goes to the call as a cast prvalue, never held in an enum variable (UBSan).
#define ILU_FUZZ_POLICY static_cast<trnsparseSolvePolicy_t>(policy)
  auto* ici = static_cast<csric02Info_t>(info);
  auto* ilui = static_cast<csrilu02Info_t>(info);
  if constexpr (std::is_same_v<T, float>) {
    if (call == 0) return ic ? trnsparseScsric02_bufferSize(h, m, nnz, d, v, row, col, ici, bytes) : trnsparseScsrilu02_bufferSize(h, m, nnz, d, v, row, col, ilui, bytes);
    if (call == 1) return ic ? trnsparseScsric02_analysis(h, m, nnz, d, v, row, col, ici, ILU_FUZZ_POLICY, nullptr) : trnsparseScsrilu02_analysis(h, m, nnz, d, v, row, col, ilui, ILU_FUZZ_POLICY, nullptr);
    return ic ? trnsparseScsric02(h, m, nnz, d, v, row, col, ici, ILU_FUZZ_POLICY, nullptr) : trnsparseScsrilu02(h, m, nnz, d, v, row, col, ilui, ILU_FUZZ_POLICY, nullptr);
  } else if constexpr (std::is_same_v<T, double>) {
    if (call == 0) return ic ? trnsparseDcsric02_bufferSize(h, m, nnz, d, v, row, col, ici, bytes) : trnsparseDcsrilu02_bufferSize(h, m, nnz, d, v, row, col, ilui, bytes);
    if (call == 1) return ic ? trnsparseDcsric02_analysis(h, m, nnz, d, v, row, col, ici, ILU_FUZZ_POLICY, nullptr) : trnsparseDcsrilu02_analysis(h, m, nnz, d, v, row, col, ilui, ILU_FUZZ_POLICY, nullptr);
    return ic ? trnsparseDcsric02(h, m, nnz, d, v, row, col, ici, ILU_FUZZ_POLICY, nullptr) : trnsparseDcsrilu02(h, m, nnz, d, v, row, col, ilui, ILU_FUZZ_POLICY, nullptr);
  } else if constexpr (std::is_same_v<T, trnComplex>) {
    if (call == 0) return ic ? trnsparseCcsric02_bufferSize(h, m, nnz, d, v, row, col, ici, bytes) : trnsparseCcsrilu02_bufferSize(h, m, nnz, d, v, row, col, ilui, bytes);
    if (call == 1) return ic ? trnsparseCcsric02_analysis(h, m, nnz, d, v, row, col, ici, ILU_FUZZ_POLICY, nullptr) : trnsparseCcsrilu02_analysis(h, m, nnz, d, v, row, col, ilui, ILU_FUZZ_POLICY, nullptr);
    return ic ? trnsparseCcsric02(h, m, nnz, d, v, row, col, ici, ILU_FUZZ_POLICY, nullptr) : trnsparseCcsrilu02(h, m, nnz, d, v, row, col, ilui, ILU_FUZZ_POLICY, nullptr);
  } else {
    if (call == 0) return ic ? trnsparseZcsric02_bufferSize(h, m, nnz, d, v, row, col, ici, bytes) : trnsparseZcsrilu02_bufferSize(h, m, nnz, d, v, row, col, ilui, bytes);
    if (call == 1) return ic ? trnsparseZcsric02_analysis(h, m, nnz, d, v, row, col, ici, ILU_FUZZ_POLICY, nullptr) : trnsparseZcsrilu02_analysis(h, m, nnz, d, v, row, col, ilui, ILU_FUZZ_POLICY, nullptr);
    return ic ? trnsparseZcsric02(h, m, nnz, d, v, row, col, ici, ILU_FUZZ_POLICY, nullptr) : trnsparseZcsrilu02(h, m, nnz, d, v, row, col, ilui, ILU_FUZZ_POLICY, nullptr);
  }
}
#undef ILU_FUZZ_POLICY

bool incomplete_allowed(trnsparseStatus_t st) { return allowed(st) || st == TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED; }

void incomplete_calls(trnfuzz::Input& in) {
  Bytes b{in};
  trnsparseHandle_t h = nullptr;
  require(trnsparseCreate(&h) == TRNSPARSE_STATUS_SUCCESS, "create handle");
  const int vt = b.u8() % 4;
  const bool ic = b.u8() & 1;
  const int m = static_cast<int>((b.u8() + 3) % 8) - 1, base = b.u8() & 1;  // -1 .. 6 (an exhausted input: 2)
  const int rows = std::max(m, 0);
  std::vector<int> row(static_cast<std::size_t>(rows) + 1, base), col;
  int nnz = 0;
  if (b.u8() < 180) {  // valid sorted pattern, diagonal mostly kept, then maybe one mutation
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < rows; ++j) {
        const std::uint8_t k = b.u8();
        if ((k & 3) == 1 || (j == i && k % 16 != 5)) col.push_back(j + base);
      }
      row[static_cast<std::size_t>(i) + 1] = static_cast<int>(col.size()) + base;
    }
    nnz = static_cast<int>(col.size());
    const std::uint8_t mutate = b.u8();  // (an exhausted input: no mutation)
    if (mutate >= 236 && !col.empty()) col[mutate % col.size()] += static_cast<int>(b.u8() % 5) - 2;
    else if (mutate >= 216) row[mutate % row.size()] += static_cast<int>(b.u8() % 5) - 2;
    else if (mutate >= 206) nnz += static_cast<int>(b.u8() % 5) - 2;
  } else {
    fill_indices(b, row, 12);
    nnz = static_cast<int>(b.u8() % 14) - 1;
  }
  col.resize(static_cast<std::size_t>(std::max(nnz, 0)), base);  // exactly the claimed length
  // Values: 0 (sometimes: zero pivots), or the double whose words read as 1.0f and 1.875f.
  double one = 0;
  const std::uint64_t bits = 0x3FF000003F800000ULL;
  std::memcpy(&one, &bits, sizeof one);
  std::vector<double> val(static_cast<std::size_t>(2 * std::max(nnz, 0) + 1));
  for (auto& v : val) v = b.u8() % 6 == 5 ? 0.0 : one;
  trnsparseMatDescr_t d = nullptr;
  trnsparseCreateMatDescr(&d);
  trnsparseSetMatIndexBase(d, static_cast<trnsparseIndexBase_t>(base));
  if (b.u8() % 16 == 15) trnsparseSetMatType(d, TRNSPARSE_MATRIX_TYPE_SYMMETRIC);
  void* info = nullptr;
  if (ic) {
    csric02Info_t i = nullptr;
    require(trnsparseCreateCsric02Info(&i) == TRNSPARSE_STATUS_SUCCESS, "create csric02 info");
    info = i;
  } else {
    csrilu02Info_t i = nullptr;
    require(trnsparseCreateCsrilu02Info(&i) == TRNSPARSE_STATUS_SUCCESS, "create csrilu02 info");
    info = i;
  }
  const int policy = b.u8() % 8 == 7 ? static_cast<int>(b.u8() % 5) - 1 : b.u8() & 1;
  auto call = [&](int which, int* bytes) {
    switch (vt) {
      case 0: return incomplete_call<float>(h, which, ic, m, nnz, d, val.data(), row.data(), col.data(), info, policy, bytes);
      case 1: return incomplete_call<double>(h, which, ic, m, nnz, d, val.data(), row.data(), col.data(), info, policy, bytes);
      case 2: return incomplete_call<trnComplex>(h, which, ic, m, nnz, d, val.data(), row.data(), col.data(), info, policy, bytes);
      default: return incomplete_call<trnDoubleComplex>(h, which, ic, m, nnz, d, val.data(), row.data(), col.data(), info, policy, bytes);
    }
  };
  auto zero_pivot = [&] {
    int pos = -7;
    const trnsparseStatus_t st = ic ? trnsparseXcsric02_zeroPivot(h, static_cast<csric02Info_t>(info), &pos)
                                    : trnsparseXcsrilu02_zeroPivot(h, static_cast<csrilu02Info_t>(info), &pos);
    require(st == TRNSPARSE_STATUS_SUCCESS ? pos == -1 : st == TRNSPARSE_STATUS_ZERO_PIVOT && pos >= base && pos < m + base,
            "zeroPivot status / position");
    return st;
  };
  int bytes = 0;
  require(incomplete_allowed(call(0, &bytes)), "csr*02_bufferSize status");
  const trnsparseStatus_t sa = call(1, nullptr);
  require(incomplete_allowed(sa), "csr*02_analysis status");
  trnfuzz::reach("incomplete_analyzed", sa == TRNSPARSE_STATUS_SUCCESS);
  zero_pivot();
  if (!ic && b.u8() % 4 == 3) {  // a boost, its pointers sometimes NULL
    double tol = static_cast<double>(b.u8() % 3) * 0.5, boost[2] = {0.25, 0.0};
    const int enable = b.u8() % 3;
    const trnsparseStatus_t sb = trnsparseDcsrilu02_numericBoost(h, static_cast<csrilu02Info_t>(info), enable,
                                                                 b.u8() % 5 == 4 ? nullptr : &tol, b.u8() % 5 == 4 ? nullptr : boost);
    require(allowed(sb), "numericBoost status");
  }
  const std::vector<double> before = val;
  const trnsparseStatus_t sf = call(2, nullptr);
  require(incomplete_allowed(sf), "csr*02 status");
  const bool zero = sf == TRNSPARSE_STATUS_SUCCESS && zero_pivot() == TRNSPARSE_STATUS_ZERO_PIVOT;
  if (sf != TRNSPARSE_STATUS_SUCCESS || zero)
    require(std::memcmp(before.data(), val.data(), val.size() * sizeof(double)) == 0, "a failed or stopped factorization wrote values");
  trnfuzz::reach("incomplete_ok", sf == TRNSPARSE_STATUS_SUCCESS && !zero);
  trnfuzz::reach("incomplete_zero_pivot", zero);
  if (ic) trnsparseDestroyCsric02Info(static_cast<csric02Info_t>(info));
  else trnsparseDestroyCsrilu02Info(static_cast<csrilu02Info_t>(info));
  trnsparseDestroyMatDescr(d);
  require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
}

// DenseToSparse into a Blocked-ELL matrix: fuzzed block size, slots, base, index type, order and
// value type; a dense matrix whose blocks are zero or not by the bytes; ellColInd either left from
// the fuzzed bytes (convert without analysis) or filled by analysis. Properties: statuses allowed;
// a failed analysis leaves ellColInd, a failed convert ellValue, bit-identical.
void bell_calls(trnfuzz::Input& in) {
  Bytes b{in};
  trnsparseHandle_t h = nullptr;
  require(trnsparseCreate(&h) == TRNSPARSE_STATUS_SUCCESS, "create handle");
  const int vt = in.choice({TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F, TRN_R_16F});
  // (an exhausted input: 2 x 1 blocks of 1, one slot each)
  const std::int64_t block = 1 + b.u8() % 3, brows = (b.u8() + 2) % 4, bcols = 1 + b.u8() % 4;
  const std::int64_t slots = (b.u8() + 1) % (bcols + 1), rows = brows * block, cols = bcols * block;
  const int base = b.u8() & 1;
  const bool i64 = b.u8() & 1, row_major = b.u8() & 1;
  const std::int64_t ld = (row_major ? cols : rows) + b.u8() % 2, outer = row_major ? rows : cols;
  std::vector<double> dense(static_cast<std::size_t>(2 * std::max<std::int64_t>(ld * outer, 1)), 0.0);  // 16-byte elements fit
  const std::size_t w = vt == TRN_C_64F ? 16 : vt == TRN_R_64F || vt == TRN_C_32F ? 8 : vt == TRN_R_32F ? 4 : 2;
  auto* bytes = reinterpret_cast<unsigned char*>(dense.data());
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j)
      if (b.u8() % 4 == 3) bytes[static_cast<std::size_t>(row_major ? i * ld + j : i + j * ld) * w] = 0x11;  // a nonzero low byte
  const std::size_t nslots = static_cast<std::size_t>(std::max<std::int64_t>(brows * slots, 1));
  std::vector<std::int32_t> ci32(nslots);
  fill_indices(b, ci32, static_cast<int>(bcols));
  std::vector<std::int64_t> ci64(ci32.begin(), ci32.end());
  std::vector<double> ev(static_cast<std::size_t>(2 * std::max<std::int64_t>(rows * slots * block, 1)), -3.0);
  trnsparseDnMatDescr_t A = nullptr;
  trnsparseSpMatDescr_t B = nullptr;
  const trnsparseStatus_t sa = trnsparseCreateDnMat(&A, rows, cols, ld, dense.data(), static_cast<trnDataType_t>(vt),
                                                     row_major ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL);
  const trnsparseStatus_t sb = trnsparseCreateBlockedEll(&B, rows, cols, block, slots * block,
                                                          i64 ? static_cast<void*>(ci64.data()) : ci32.data(), ev.data(),
                                                          i64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I,
                                                          static_cast<trnsparseIndexBase_t>(base), static_cast<trnDataType_t>(vt));
  require(allowed(sa) && allowed(sb), "Create DnMat / BlockedEll status");
  if (sa == TRNSPARSE_STATUS_SUCCESS && sb == TRNSPARSE_STATUS_SUCCESS) {
    size_t size = 0;
    require(allowed(trnsparseDenseToSparse_bufferSize(h, A, B, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, &size)), "bufferSize status");
    const std::vector<std::int32_t> c32 = ci32;
    const std::vector<std::int64_t> c64 = ci64;
    if (b.u8() % 4 != 3) {
      const trnsparseStatus_t st = trnsparseDenseToSparse_analysis(h, A, B, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr);
      require(allowed(st), "DenseToSparse_analysis (Blocked-ELL) status");
      if (st != TRNSPARSE_STATUS_SUCCESS) require(c32 == ci32 && c64 == ci64, "a failed analysis wrote ellColInd");
      trnfuzz::reach("bell_analysis_ok", st == TRNSPARSE_STATUS_SUCCESS);
    }
    const std::vector<double> ev0 = ev;
    const trnsparseStatus_t st = trnsparseDenseToSparse_convert(h, A, B, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr);
    require(allowed(st), "DenseToSparse_convert (Blocked-ELL) status");
    if (st != TRNSPARSE_STATUS_SUCCESS)
      require(std::memcmp(ev0.data(), ev.data(), ev.size() * sizeof(double)) == 0, "a failed convert wrote ellValue");
    trnfuzz::reach("bell_convert_ok", st == TRNSPARSE_STATUS_SUCCESS);
    // SparseToDense of the Blocked-ELL back into A (s14/spcross, a device program): a failed call
    // leaves A's bytes (ellValue holds rows x ellCols values of every value type, A 16-byte elements).
    const std::vector<double> dense0 = dense;
    const trnsparseStatus_t sd = trnsparseSparseToDense(h, B, A, TRNSPARSE_SPARSETODENSE_ALG_DEFAULT, nullptr);
    require(allowed(sd), "SparseToDense (Blocked-ELL) status");
    if (sd != TRNSPARSE_STATUS_SUCCESS)
      require(std::memcmp(dense0.data(), dense.data(), dense.size() * sizeof(double)) == 0, "a failed SparseToDense wrote B");
    trnfuzz::reach("bell_to_dense_ok", sd == TRNSPARSE_STATUS_SUCCESS);
  }
  trnsparseDestroyDnMat(A);
  trnsparseDestroySpMat(B);
  require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
}

}  // namespace
// ---- end of the s6/ilu block

// ---- issue #28 (s7/half): the entry points no call above reaches (119 of trnsparse.h's 280 named
// functions: the const creators and getters, the remaining Get/Set of every descriptor, the handle and
// logger settings, the bufferSize / bufferSizeExt / preprocess forms, nnz, the fp32 legacy BSR calls,
// the sorts and permutations, numericBoost, BsrBicgstab / BsrGmres, attention backward), one probe
// per input byte while bytes last (at most 12). Arguments: sizes small or negative, enum values valid
// or any int, pointers valid or NULL, on 4 x 4 arrays sized for every legal write (16 complex doubles;
// 64-bit indices). Properties: every status is a trnsparse status; a getter's outputs, a bufferSize and
// a failed call's outputs are untouched on failure; a successful getter reports what was created.
namespace {

// A small size: [0, 4] or negative (larger sizes than the arrays hold would be the caller's overrun).
std::int64_t small_size(trnfuzz::Input& in) {
  const std::int64_t v = in.size(4, false);
  return v >= 0 && v <= 4 ? v : -1 - static_cast<std::int64_t>(static_cast<std::uint64_t>(v) % 8);  // -1 .. -8 (no overflow)
}
template <class T>
T* maybe_null(trnfuzz::Input& in, T* p) {
  return in.flag(8) ? nullptr : p;
}
// An enum output with an out-of-range sentinel, read back as int (loading -7 from an enum-typed
// object is what UBSan's enum check reports; the C API stores an int-sized enum).
template <class E>
struct EnumOut {
  static_assert(sizeof(E) == sizeof(int));
  int raw = -7;
  E* p() { return reinterpret_cast<E*>(&raw); }
};
int value_type(trnfuzz::Input& in) { return in.choice({TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F, TRN_R_16F, TRN_R_16BF}); }
// One of the generic API's four value types (never an invalid one: for the fixtures a probe must create).
int generic_type(trnfuzz::Input& in) {
  const int types[] = {TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F};
  return types[in.byte() % 4];
}
int index_type(trnfuzz::Input& in) { return in.choice({TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I, TRNSPARSE_INDEX_16U}); }
int index_base(trnfuzz::Input& in) { return in.choice({TRNSPARSE_INDEX_BASE_ZERO, TRNSPARSE_INDEX_BASE_ONE}); }

// The arrays every probe points into: a 4 x 4 lower triangle with its diagonal (10 entries) as CSR
// offsets / columns / COO rows in 32- and 64-bit, values in complex-double slots, dense 4 x 4 of the
// widest type. Probes may overwrite them (sorts, SetValues targets): they are rebuilt per probe.
struct Arrays {
  std::int32_t off32[8] = {0, 1, 3, 6, 10, 10, 10, 10}, col32[16] = {0, 0, 1, 0, 1, 2, 0, 1, 2, 3}, row32[16] = {0, 1, 1, 2, 2, 2, 3, 3, 3, 3};
  std::int64_t off64[8] = {0, 1, 3, 6, 10, 10, 10, 10}, col64[16] = {0, 0, 1, 0, 1, 2, 0, 1, 2, 3}, row64[16] = {0, 1, 1, 2, 2, 2, 3, 3, 3, 3};
  double val[64], dense[64], x[64], y[64];
  Arrays() {
    for (int i = 0; i < 64; ++i) val[i] = dense[i] = x[i] = y[i] = 1.0 + (i % 7) * 0.25;
  }
  void* off(int idx) { return idx == TRNSPARSE_INDEX_64I ? static_cast<void*>(off64) : off32; }
  void* col(int idx) { return idx == TRNSPARSE_INDEX_64I ? static_cast<void*>(col64) : col32; }
  void* row(int idx) { return idx == TRNSPARSE_INDEX_64I ? static_cast<void*>(row64) : row32; }
};

// Const creators and the const getters on what they made (failure: the descriptor slot untouched).
void probe_const_descriptors(trnfuzz::Input& in, Arrays& a) {
  const int idx = index_type(in), base = index_base(in), vt = value_type(in), kind = in.byte() % 9;
  const std::int64_t n = small_size(in), nnz = small_size(in);
  trnsparseConstSpMatDescr_t m = reinterpret_cast<trnsparseConstSpMatDescr_t>(&a);  // sentinel
  const trnsparseConstSpMatDescr_t sentinel = m;
  // enum arguments cast at each call (prvalues: a fuzzed value held in an enum-typed object is UB)
  auto I = [idx] { return static_cast<trnsparseIndexType_t>(idx); };
  auto B = [base] { return static_cast<trnsparseIndexBase_t>(base); };
  auto V = [vt] { return static_cast<trnDataType_t>(vt); };
  trnsparseConstSpMatDescr_t* out = maybe_null(in, &m);
  const void* off = maybe_null(in, a.off(idx));
  trnsparseStatus_t st = TRNSPARSE_STATUS_SUCCESS;
  if (kind == 6) {  // dense and vector descriptors
    trnsparseConstDnMatDescr_t d = nullptr;
    st = trnsparseCreateConstDnMat(in.flag(8) ? nullptr : &d, n, n, small_size(in), maybe_null(in, a.dense), V(),
                                   static_cast<trnsparseOrder_t>(in.choice({TRNSPARSE_ORDER_COL, TRNSPARSE_ORDER_ROW})));
    require(is_status(st), "CreateConstDnMat status");
    if (st != TRNSPARSE_STATUS_SUCCESS || d == nullptr) return;
    std::int64_t r = -7, c = -7, ld = -7;
    const void* v = &a;
    trnDataType_t t = static_cast<trnDataType_t>(0);
    trnsparseOrder_t o = static_cast<trnsparseOrder_t>(0);
    std::int64_t* rows = maybe_null(in, &r);
    const trnsparseStatus_t g = trnsparseConstDnMatGet(d, rows, &c, &ld, &v, &t, &o);
    require(is_status(g), "ConstDnMatGet status");
    require(g != TRNSPARSE_STATUS_SUCCESS ? r == -7 && c == -7 : (rows == nullptr || r == n) && c == n, "ConstDnMatGet outputs");
    const void* v2 = &a;
    const trnsparseStatus_t g2 = trnsparseConstDnMatGetValues(in.flag(8) ? nullptr : d, maybe_null(in, &v2));
    require(is_status(g2) && (g2 == TRNSPARSE_STATUS_SUCCESS || v2 == &a), "ConstDnMatGetValues");
    trnfuzz::reach("surface_const_ok");
    trnsparseDestroyDnMat(d);
    return;
  }
  if (kind == 7) {
    trnsparseConstDnVecDescr_t d = nullptr;
    st = trnsparseCreateConstDnVec(in.flag(8) ? nullptr : &d, n, maybe_null(in, a.x), V());
    require(is_status(st), "CreateConstDnVec status");
    if (st != TRNSPARSE_STATUS_SUCCESS || d == nullptr) return;
    std::int64_t size = -7;
    const void* v = &a;
    trnDataType_t t = static_cast<trnDataType_t>(0);
    std::int64_t* sz = maybe_null(in, &size);
    const trnsparseStatus_t g = trnsparseConstDnVecGet(d, sz, &v, &t);
    require(is_status(g) && (g == TRNSPARSE_STATUS_SUCCESS ? sz == nullptr || size == n : size == -7), "ConstDnVecGet");
    const void* v2 = &a;
    const trnsparseStatus_t g2 = trnsparseConstDnVecGetValues(d, maybe_null(in, &v2));
    require(is_status(g2) && (g2 == TRNSPARSE_STATUS_SUCCESS || v2 == &a), "ConstDnVecGetValues");
    trnfuzz::reach("surface_const_ok");
    trnsparseDestroyDnVec(d);
    return;
  }
  if (kind == 8) {
    trnsparseConstSpVecDescr_t d = nullptr;
    st = trnsparseCreateConstSpVec(in.flag(8) ? nullptr : &d, n, nnz, maybe_null(in, a.col(idx)), maybe_null(in, a.val), I(), B(), V());
    require(is_status(st), "CreateConstSpVec status");
    if (st != TRNSPARSE_STATUS_SUCCESS || d == nullptr) return;
    std::int64_t size = -7, k = -7;
    const void *ind = &a, *v = &a;
    trnsparseIndexType_t it = static_cast<trnsparseIndexType_t>(0);
    trnsparseIndexBase_t ib = static_cast<trnsparseIndexBase_t>(0);
    trnDataType_t t = static_cast<trnDataType_t>(0);
    std::int64_t* kp = maybe_null(in, &k);
    const trnsparseStatus_t g = trnsparseConstSpVecGet(d, &size, kp, &ind, &v, &it, &ib, &t);
    require(is_status(g) && (g == TRNSPARSE_STATUS_SUCCESS ? size == n && (kp == nullptr || k == nnz) : size == -7), "ConstSpVecGet");
    const void* v2 = &a;
    const trnsparseStatus_t g2 = trnsparseConstSpVecGetValues(d, maybe_null(in, &v2));
    require(is_status(g2) && (g2 == TRNSPARSE_STATUS_SUCCESS || v2 == &a), "ConstSpVecGetValues");
    EnumOut<trnsparseIndexBase_t> b2;
    const trnsparseStatus_t g3 = trnsparseSpVecGetIndexBase(d, maybe_null(in, b2.p()));
    require(is_status(g3) && (g3 == TRNSPARSE_STATUS_SUCCESS ? b2.raw == base : b2.raw == -7), "SpVecGetIndexBase");
    trnfuzz::reach("surface_const_ok");
    trnsparseDestroySpVec(d);
    return;
  }
  switch (kind) {
    case 0: st = trnsparseCreateConstCsr(out, n, n, nnz, off, a.col(idx), a.val, I(), I(), B(), V()); break;
    case 1: st = trnsparseCreateConstCsc(out, n, n, nnz, off, a.row(idx), a.val, I(), I(), B(), V()); break;
    case 2: st = trnsparseCreateConstCoo(out, n, n, nnz, maybe_null(in, a.row(idx)), a.col(idx), a.val, I(), B(), V()); break;
    case 3:
      st = trnsparseCreateConstBsr(out, n, n, nnz, 1 + in.byte() % 2, 1 + in.byte() % 2, off, a.col(idx), a.val, I(), I(), B(), V(),
                                   static_cast<trnsparseOrder_t>(in.choice({TRNSPARSE_ORDER_COL, TRNSPARSE_ORDER_ROW})));
      break;
    case 4: st = trnsparseCreateConstBlockedEll(out, n, n, 1, nnz, maybe_null(in, a.col(idx)), a.val, I(), B(), V()); break;
    default:
      st = trnsparseCreateConstSlicedEll(out, n, n, nnz, small_size(in) * 2, 1 + in.byte() % 3, off, a.col(idx), a.val, I(), I(), B(), V());
      break;
  }
  require(is_status(st), "CreateConst* status");
  if (st != TRNSPARSE_STATUS_SUCCESS) {
    require(m == sentinel, "a failed CreateConst* wrote the descriptor");
    return;
  }
  std::int64_t r = -7, c = -7, k = -7, bs = -7, ec = -7;
  const void *p1 = &a, *p2 = &a, *p3 = &a;
  trnsparseIndexType_t t1 = static_cast<trnsparseIndexType_t>(0), t2 = t1;
  trnsparseIndexBase_t ib = static_cast<trnsparseIndexBase_t>(0);
  trnDataType_t t = static_cast<trnDataType_t>(0);
  trnsparseStatus_t g = TRNSPARSE_STATUS_SUCCESS;
  const std::int64_t* rows = maybe_null(in, &r);
  switch (kind) {
    case 0: g = trnsparseConstCsrGet(m, const_cast<std::int64_t*>(rows), &c, &k, &p1, &p2, &p3, &t1, &t2, &ib, &t); break;
    case 1: g = trnsparseConstCscGet(m, const_cast<std::int64_t*>(rows), &c, &k, &p1, &p2, &p3, &t1, &t2, &ib, &t); break;
    case 2: g = trnsparseConstCooGet(m, const_cast<std::int64_t*>(rows), &c, &k, &p1, &p2, &p3, &t1, &ib, &t); break;
    case 4: g = trnsparseConstBlockedEllGet(m, const_cast<std::int64_t*>(rows), &c, &bs, &ec, &p1, &p2, &t1, &ib, &t); break;
    default: g = trnsparseConstSpMatGetValues(m, in.flag(8) ? nullptr : &p3); break;
  }
  require(is_status(g), "ConstGet status");
  if (g != TRNSPARSE_STATUS_SUCCESS) require(r == -7 && c == -7 && k == -7 && p1 == &a, "a failed ConstGet wrote an output");
  if (g == TRNSPARSE_STATUS_SUCCESS && kind <= 2)
    require((rows == nullptr || r == n) && c == n && k == nnz && ib == base && t == vt, "ConstGet reports the descriptor");
  EnumOut<trnsparseFormat_t> f;
  const trnsparseStatus_t gf = trnsparseSpMatGetFormat(m, maybe_null(in, f.p()));
  require(is_status(gf) && (gf == TRNSPARSE_STATUS_SUCCESS || f.raw == -7), "SpMatGetFormat");
  EnumOut<trnsparseIndexBase_t> b2;
  const trnsparseStatus_t gb = trnsparseSpMatGetIndexBase(m, maybe_null(in, b2.p()));
  require(is_status(gb) && (gb == TRNSPARSE_STATUS_SUCCESS ? b2.raw == base : b2.raw == -7), "SpMatGetIndexBase");
  int count = -7;
  const trnsparseStatus_t gc = trnsparseSpMatGetStridedBatch(m, maybe_null(in, &count));
  require(is_status(gc) && (gc == TRNSPARSE_STATUS_SUCCESS ? count == 1 : count == -7), "SpMatGetStridedBatch");
  unsigned char attr[16];
  std::memset(attr, 0xA5, sizeof attr);
  const std::size_t attr_size = in.byte() % 9;
  const trnsparseStatus_t ga = trnsparseSpMatGetAttribute(m, static_cast<trnsparseSpMatAttribute_t>(in.choice({0, 1})),
                                                          maybe_null(in, static_cast<void*>(attr)), attr_size);
  require(is_status(ga), "SpMatGetAttribute status");
  if (ga != TRNSPARSE_STATUS_SUCCESS)
    for (unsigned char u : attr) require(u == 0xA5, "a failed SpMatGetAttribute wrote data");
  for (std::size_t i = attr_size; i < sizeof attr; ++i) require(attr[i] == 0xA5, "SpMatGetAttribute wrote past dataSize");
  trnfuzz::reach("surface_const_ok");
  trnsparseDestroySpMat(m);
}

// The non-const getters and setters of CSR / CSC / COO / BSR / Blocked-ELL descriptors.
void probe_spmat_get_set(trnfuzz::Input& in, Arrays& a) {
  const int idx = in.choice({TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I}), kind = in.byte() % 5;
  auto I = [idx] { return static_cast<trnsparseIndexType_t>(idx); };
  const int vt = value_type(in);
  auto V = [vt] { return static_cast<trnDataType_t>(vt); };
  trnsparseSpMatDescr_t m = nullptr;
  trnsparseStatus_t st;
  switch (kind) {
    case 0: st = trnsparseCreateCsr(&m, 4, 4, 10, a.off(idx), a.col(idx), a.val, I(), I(), TRNSPARSE_INDEX_BASE_ZERO, V()); break;
    case 1: st = trnsparseCreateCsc(&m, 4, 4, 10, a.off(idx), a.row(idx), a.val, I(), I(), TRNSPARSE_INDEX_BASE_ZERO, V()); break;
    case 2: st = trnsparseCreateCoo(&m, 4, 4, 10, a.row(idx), a.col(idx), a.val, I(), TRNSPARSE_INDEX_BASE_ZERO, V()); break;
    case 3:
      st = trnsparseCreateBsr(&m, 4, 4, 10, 1, 1, a.off(idx), a.col(idx), a.val, I(), I(), TRNSPARSE_INDEX_BASE_ZERO, V(),
                              TRNSPARSE_ORDER_ROW);
      break;
    default: st = trnsparseCreateBlockedEll(&m, 4, 4, 1, 4, a.col(idx), a.val, I(), TRNSPARSE_INDEX_BASE_ZERO, V()); break;
  }
  require(is_status(st), "Create status");
  if (st != TRNSPARSE_STATUS_SUCCESS) return;
  std::int64_t r = -7, c = -7, k = -7;
  void *p1 = &a, *p2 = &a, *p3 = &a;
  trnsparseIndexType_t t1 = static_cast<trnsparseIndexType_t>(0), t2 = t1;
  trnsparseIndexBase_t ib = static_cast<trnsparseIndexBase_t>(0);
  trnDataType_t t = static_cast<trnDataType_t>(0);
  trnsparseSpMatDescr_t target = in.flag(16) ? nullptr : m;
  std::int64_t* rows = maybe_null(in, &r);
  trnsparseStatus_t g;
  if (kind == 0) g = trnsparseCsrGet(target, rows, &c, &k, &p1, &p2, &p3, &t1, &t2, &ib, &t);
  else if (kind == 1) g = trnsparseCscGet(target, rows, &c, &k, &p1, &p2, &p3, &t1, &t2, &ib, &t);
  else if (kind == 2) g = trnsparseCooGet(target, rows, &c, &k, &p1, &p2, &p3, &t1, &ib, &t);
  else if (kind == 4) g = trnsparseBlockedEllGet(target, rows, &c, &k, &r, &p1, &p2, &t1, &ib, &t);
  else g = trnsparseSpMatGetValues(target, maybe_null(in, &p3));
  require(is_status(g), "Get status");
  if (g != TRNSPARSE_STATUS_SUCCESS) require(c == -7 && k == -7 && p1 == &a && p3 == &a, "a failed Get wrote an output");
  else if (kind <= 2) require((rows == nullptr || r == 4) && c == 4 && k == 10 && t == vt, "Get reports the descriptor");
  // The setters: new arrays (the same contents elsewhere) or NULL.
  std::vector<std::int64_t> off2(a.off64, a.off64 + 8), col2(a.col64, a.col64 + 16);
  std::vector<std::int32_t> off3(a.off32, a.off32 + 8), col3(a.col32, a.col32 + 16);
  void* no = idx == TRNSPARSE_INDEX_64I ? static_cast<void*>(off2.data()) : off3.data();
  void* nc = idx == TRNSPARSE_INDEX_64I ? static_cast<void*>(col2.data()) : col3.data();
  std::vector<double> v2(a.val, a.val + 64);
  trnsparseStatus_t sp = TRNSPARSE_STATUS_SUCCESS;
  if (kind == 1) sp = trnsparseCscSetPointers(target, maybe_null(in, no), maybe_null(in, nc), maybe_null(in, static_cast<void*>(v2.data())));
  else if (kind == 3) sp = trnsparseBsrSetPointers(target, maybe_null(in, no), maybe_null(in, nc), maybe_null(in, static_cast<void*>(v2.data())));
  else sp = trnsparseSpMatSetValues(target, maybe_null(in, static_cast<void*>(v2.data())));
  require(is_status(sp), "SetPointers / SetValues status");
  if (sp == TRNSPARSE_STATUS_SUCCESS) {
    void* now = nullptr;
    require(trnsparseSpMatGetValues(m, &now) == TRNSPARSE_STATUS_SUCCESS && now == v2.data(), "SetPointers / SetValues took the values");
  }
  trnfuzz::reach("surface_spmat_ok", g == TRNSPARSE_STATUS_SUCCESS);
  trnsparseDestroySpMat(m);
}

// DnMat / DnVec / SpVec getters and setters, DnMat strided batches.
void probe_dense_vectors(trnfuzz::Input& in, Arrays& a) {
  const int vt = generic_type(in);
  const auto V = static_cast<trnDataType_t>(vt);
  trnsparseDnMatDescr_t d = nullptr;
  trnsparseDnVecDescr_t v = nullptr;
  trnsparseSpVecDescr_t s = nullptr;
  require(trnsparseCreateDnMat(&d, 4, 4, 4, a.dense, V, TRNSPARSE_ORDER_COL) == TRNSPARSE_STATUS_SUCCESS, "DnMat");
  require(trnsparseCreateDnVec(&v, 4, a.x, V) == TRNSPARSE_STATUS_SUCCESS, "DnVec");
  require(trnsparseCreateSpVec(&s, 8, 4, a.col32, a.val, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, V) == TRNSPARSE_STATUS_SUCCESS,
          "SpVec");
  std::int64_t r = -7, c = -7, ld = -7;
  void* p = &a;
  trnDataType_t t = static_cast<trnDataType_t>(0);
  trnsparseOrder_t o = static_cast<trnsparseOrder_t>(0);
  trnsparseDnMatDescr_t dm = in.flag(16) ? nullptr : d;
  trnsparseStatus_t g = trnsparseDnMatGet(dm, maybe_null(in, &r), &c, &ld, &p, &t, &o);
  require(is_status(g) && (g == TRNSPARSE_STATUS_SUCCESS ? c == 4 && ld == 4 && p == a.dense : c == -7 && p == &a), "DnMatGet");
  p = &a;
  g = trnsparseDnMatGetValues(dm, maybe_null(in, &p));
  require(is_status(g) && (g == TRNSPARSE_STATUS_SUCCESS ? p == a.dense : p == &a), "DnMatGetValues");
  g = trnsparseDnMatSetValues(dm, maybe_null(in, static_cast<void*>(a.y)));
  require(is_status(g), "DnMatSetValues status");
  const int count = static_cast<int>(small_size(in));
  const std::int64_t stride = in.size(32, true);
  g = trnsparseDnMatSetStridedBatch(dm, count, stride);
  require(is_status(g), "DnMatSetStridedBatch status");
  int got_count = -7;
  std::int64_t got_stride = -7;
  const trnsparseStatus_t gs = trnsparseDnMatGetStridedBatch(dm, maybe_null(in, &got_count), &got_stride);
  require(is_status(gs), "DnMatGetStridedBatch status");
  if (gs != TRNSPARSE_STATUS_SUCCESS) require(got_count == -7 && got_stride == -7, "a failed DnMatGetStridedBatch wrote");
  if (gs == TRNSPARSE_STATUS_SUCCESS && g == TRNSPARSE_STATUS_SUCCESS) require(got_count == count && got_stride == stride, "DnMat batch round trip");
  std::int64_t size = -7;
  p = &a;
  trnsparseDnVecDescr_t dv = in.flag(16) ? nullptr : v;
  g = trnsparseDnVecGet(dv, maybe_null(in, &size), &p, &t);
  require(is_status(g) && (g == TRNSPARSE_STATUS_SUCCESS ? p == a.x : size == -7 && p == &a), "DnVecGet");
  p = &a;
  g = trnsparseDnVecGetValues(dv, maybe_null(in, &p));
  require(is_status(g) && (g == TRNSPARSE_STATUS_SUCCESS ? p == a.x : p == &a), "DnVecGetValues");
  require(is_status(trnsparseDnVecSetValues(dv, maybe_null(in, static_cast<void*>(a.y)))), "DnVecSetValues status");
  std::int64_t k = -7;
  void *ind = &a, *val = &a;
  trnsparseIndexType_t it = static_cast<trnsparseIndexType_t>(0);
  trnsparseIndexBase_t ib = static_cast<trnsparseIndexBase_t>(0);
  trnsparseSpVecDescr_t sv = in.flag(16) ? nullptr : s;
  g = trnsparseSpVecGet(sv, &size, maybe_null(in, &k), &ind, &val, &it, &ib, &t);
  require(is_status(g) && (g == TRNSPARSE_STATUS_SUCCESS ? size == 8 && ind == a.col32 : k == -7 && ind == &a), "SpVecGet");
  val = &a;
  g = trnsparseSpVecGetValues(sv, maybe_null(in, &val));
  require(is_status(g) && (g == TRNSPARSE_STATUS_SUCCESS ? val == a.val : val == &a), "SpVecGetValues");
  require(is_status(trnsparseSpVecSetValues(sv, maybe_null(in, static_cast<void*>(a.y)))), "SpVecSetValues status");
  trnfuzz::reach("surface_dense_ok");
  trnsparseDestroyDnMat(d);
  trnsparseDestroyDnVec(v);
  trnsparseDestroySpVec(s);
}

// Handle settings, error strings, the logger, MatDescr fill mode / diag type / type.
void probe_handle_settings(trnfuzz::Input& in) {
  trnsparseHandle_t h = nullptr;
  require(trnsparseCreate(&h) == TRNSPARSE_STATUS_SUCCESS, "create handle");
  trnsparseHandle_t hh = in.flag(8) ? nullptr : h;
  const int pm = in.choice({TRNSPARSE_POINTER_MODE_HOST, TRNSPARSE_POINTER_MODE_DEVICE});
  trnsparseStatus_t st = trnsparseSetPointerMode(hh, static_cast<trnsparsePointerMode_t>(pm));
  require(is_status(st), "SetPointerMode status");
  EnumOut<trnsparsePointerMode_t> got_pm;
  const trnsparseStatus_t gp = trnsparseGetPointerMode(hh, maybe_null(in, got_pm.p()));
  require(is_status(gp) && (gp == TRNSPARSE_STATUS_SUCCESS ? (st != TRNSPARSE_STATUS_SUCCESS || got_pm.raw == pm) : got_pm.raw == -7),
          "GetPointerMode");
  int token = 0;
  trnStream_t stream = in.flag() ? nullptr : static_cast<trnStream_t>(&token), got_stream = &got_pm.raw;
  st = trnsparseSetStream(hh, stream);
  require(is_status(st), "SetStream status");
  const trnsparseStatus_t gs = trnsparseGetStream(hh, maybe_null(in, &got_stream));
  require(is_status(gs) && (gs == TRNSPARSE_STATUS_SUCCESS ? got_stream == stream : got_stream == &got_pm.raw), "GetStream");
  const int strict = static_cast<int>(in.u32() % 3);
  st = trnsparseSetStrictMode(hh, strict);
  require(is_status(st), "SetStrictMode status");
  int got = -7;
  require(is_status(trnsparseGetStrictMode(hh, maybe_null(in, &got))), "GetStrictMode status");
  int version = -7;
  int* vp = maybe_null(in, &version);
  const trnsparseStatus_t gv = trnsparseGetVersion(hh, vp);
  require(is_status(gv) && (gv == TRNSPARSE_STATUS_SUCCESS ? vp != nullptr && version == TRNSPARSE_VERSION : version == -7), "GetVersion");
  const int any = in.flag() ? static_cast<int>(in.u32()) : in.byte() % 12;  // cast at the calls (prvalues)
  require(trnsparseGetErrorName(static_cast<trnsparseStatus_t>(any)) != nullptr &&
              trnsparseGetErrorString(static_cast<trnsparseStatus_t>(any)) != nullptr,
          "error strings are never NULL");
  // The emulation surface every trnsci library has (trncore.h TRN_EMULATION_API): any values, NULL outputs.
  require(is_status(trnsparseSetTarget(hh, static_cast<trnTarget_t>(in.choice({1, 2, 3})))), "SetTarget status");
  EnumOut<trnTarget_t> target;
  require(is_status(trnsparseGetTarget(hh, maybe_null(in, target.p()))), "GetTarget status");
  require(is_status(trnsparseSetNumericsProfile(hh, static_cast<trnNumerics_t>(in.choice({0, 1})))), "SetNumericsProfile status");
  EnumOut<trnNumerics_t> numerics;
  require(is_status(trnsparseGetNumericsProfile(hh, maybe_null(in, numerics.p()))), "GetNumericsProfile status");
  int sr = -7;
  unsigned long long seed = 0;
  require(is_status(trnsparseSetStochasticRounding(hh, static_cast<int>(in.u32() % 3), in.u64())), "SetStochasticRounding status");
  require(is_status(trnsparseGetStochasticRounding(hh, maybe_null(in, &sr), maybe_null(in, &seed))), "GetStochasticRounding status");
  const int cores = static_cast<int>(in.size(64, false));
  const trnsparseStatus_t sc = trnsparseSetNumCores(hh, cores);
  int got_cores = -7;
  const trnsparseStatus_t gc = trnsparseGetNumCores(hh, maybe_null(in, &got_cores));
  require(is_status(sc) && is_status(gc), "Set/GetNumCores status");
  if (sc == TRNSPARSE_STATUS_SUCCESS && gc == TRNSPARSE_STATUS_SUCCESS) require(got_cores == cores, "NumCores round trip");
  trnProfile_t profile;
  std::memset(&profile, 0, sizeof profile);
  int position = -7;
  require(is_status(trnsparseGetLastProfile(hh, maybe_null(in, &profile))), "GetLastProfile status");
  require(is_status(trnsparseGetLastErrorParameter(hh, maybe_null(in, &position))), "GetLastErrorParameter status");
  require(is_status(trnsparseLoggerConfigure(in.byte() % 2, 0, in.byte() % 2, in.flag() ? nullptr : "/dev/null")), "LoggerConfigure status");
  trnLogCallback_t cb = nullptr;
  require(is_status(trnsparseSetLoggerCallback(nullptr)) && is_status(trnsparseGetLoggerCallback(maybe_null(in, &cb))) &&
              is_status(trnsparseLoggerSetCallback(nullptr)),
          "logger callbacks status");
  // The logger: any level / mask, a file or NULL; always switched off again (the fuzzer's speed).
  require(is_status(trnsparseLoggerSetLevel(in.flag() ? static_cast<int>(in.u32()) : in.byte() % 6)), "LoggerSetLevel status");
  require(is_status(trnsparseLoggerSetMask(in.flag() ? static_cast<int>(in.u32()) : in.byte() % 32)), "LoggerSetMask status");
  const int which = in.byte() % 3;
  require(is_status(trnsparseLoggerOpenFile(which == 0 ? nullptr : which == 1 ? "" : "/dev/null")), "LoggerOpenFile status");
  require(is_status(trnsparseLoggerSetFile(in.flag() ? nullptr : stderr)), "LoggerSetFile status");
  require(trnsparseLoggerForceDisable() == TRNSPARSE_STATUS_SUCCESS, "LoggerForceDisable");
  trnsparseMatDescr_t md = nullptr;
  require(trnsparseCreateMatDescr(&md) == TRNSPARSE_STATUS_SUCCESS, "MatDescr");
  trnsparseMatDescr_t mdd = in.flag(8) ? nullptr : md;
  const int fill = in.choice({TRNSPARSE_FILL_MODE_LOWER, TRNSPARSE_FILL_MODE_UPPER});
  const int diag = in.choice({TRNSPARSE_DIAG_TYPE_NON_UNIT, TRNSPARSE_DIAG_TYPE_UNIT});
  const trnsparseStatus_t sf = trnsparseSetMatFillMode(mdd, static_cast<trnsparseFillMode_t>(fill));
  const trnsparseStatus_t sd = trnsparseSetMatDiagType(mdd, static_cast<trnsparseDiagType_t>(diag));
  require(is_status(sf) && is_status(sd), "SetMatFillMode / SetMatDiagType status");
  if (sf == TRNSPARSE_STATUS_SUCCESS) require(static_cast<int>(trnsparseGetMatFillMode(md)) == fill, "fill mode round trip");
  if (sd == TRNSPARSE_STATUS_SUCCESS) require(static_cast<int>(trnsparseGetMatDiagType(md)) == diag, "diag type round trip");
  (void)trnsparseGetMatType(mdd);  // NULL: cuSPARSE's getters return a value, never crash
  (void)trnsparseGetMatFillMode(mdd);
  (void)trnsparseGetMatDiagType(mdd);
  trnfuzz::reach("surface_handle_ok", gv == TRNSPARSE_STATUS_SUCCESS);
  trnsparseDestroyMatDescr(md);
  require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
}

// The legacy fp32 BSR calls and csr2bsr over the 4 x 4 arrays (blockDim 1 or 2; m, n small or negative).
void probe_legacy_bsr(trnfuzz::Input& in, Arrays& a, trnsparseHandle_t h, trnsparseMatDescr_t md) {
  const int dir = in.choice({TRNSPARSE_DIRECTION_ROW, TRNSPARSE_DIRECTION_COLUMN});
  const int op = in.choice({TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_TRANSPOSE});
  const int bd = static_cast<int>(in.byte() % 4) - 1;  // -1 .. 2
  const int m = static_cast<int>(small_size(in)), n = static_cast<int>(small_size(in));
  float fv[64], fx[64], fy[64];
  for (int i = 0; i < 64; ++i) fv[i] = fx[i] = fy[i] = 0.5f * static_cast<float>(i % 5);
  const float one = 1.0f, half = 0.5f;
  const std::vector<float> y0(fy, fy + 64);
  const trnsparseMatDescr_t d = in.flag(16) ? nullptr : md;
  trnsparseStatus_t st;
  switch (in.byte() % 5) {
    case 0:  // mb x nb blocks, the CSR arrays read as block arrays (nnzb 10 needs mb 4)
      st = trnsparseSbsrmv(h, static_cast<trnsparseDirection_t>(dir), static_cast<trnsparseOperation_t>(op), m, n,
                           static_cast<int>(small_size(in)) * 3, maybe_null(in, &one), d, fv, maybe_null(in, a.off32), a.col32, bd,
                           fx, &half, fy);
      break;
    case 1:
      st = trnsparseSbsrmm(h, static_cast<trnsparseDirection_t>(dir), static_cast<trnsparseOperation_t>(op),
                           TRNSPARSE_OPERATION_NON_TRANSPOSE, m, 2, n, static_cast<int>(small_size(in)) * 3, &one, d, fv, a.off32,
                           a.col32, bd, fx, static_cast<int>(small_size(in)) * 2, &half, fy, 8);
      break;
    case 2: {
      std::vector<int> rp(8, -5);
      int total = -5;
      st = trnsparseXcsr2bsrNnz(h, static_cast<trnsparseDirection_t>(dir), m, n, d, a.off32, a.col32, bd, md, maybe_null(in, rp.data()),
                                maybe_null(in, &total));
      if (st != TRNSPARSE_STATUS_SUCCESS) require(total == -5, "a failed Xcsr2bsrNnz wrote the total");
      break;
    }
    case 3: {
      std::vector<int> rp(8, 0), ci(16, -5);
      st = trnsparseXcsr2bsrNnz(h, static_cast<trnsparseDirection_t>(dir), m, n, md, a.off32, a.col32, bd, md, rp.data(), nullptr);
      if (st == TRNSPARSE_STATUS_SUCCESS)
        st = trnsparseScsr2bsr(h, static_cast<trnsparseDirection_t>(dir), m, n, d, fv, a.off32, a.col32, bd, md, fy, rp.data(), ci.data());
      break;
    }
    default: {
      std::vector<int> rp(16, -5), ci(64, -5);  // m * blockDim + 1 row pointers, nnzb * blockDim^2 columns
      st = trnsparseSbsr2csr(h, static_cast<trnsparseDirection_t>(dir), m, n, d, fv, a.off32, a.col32, bd, md, fy, maybe_null(in, rp.data()),
                             ci.data());
      if (st != TRNSPARSE_STATUS_SUCCESS) require(rp == std::vector<int>(16, -5), "a failed bsr2csr wrote row pointers");
      break;
    }
  }
  require(is_status(st), "legacy BSR status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(std::equal(y0.begin(), y0.end(), fy), "a failed legacy BSR call wrote its output");
  trnfuzz::reach("surface_legacy_ok", st == TRNSPARSE_STATUS_SUCCESS);
}

// nnz per row / column of a dense m x n (lda fuzzed) in S / C / Z.
void probe_nnz(trnfuzz::Input& in, Arrays& a, trnsparseHandle_t h, trnsparseMatDescr_t md) {
  const int dir = in.choice({TRNSPARSE_DIRECTION_ROW, TRNSPARSE_DIRECTION_COLUMN});
  const int m = static_cast<int>(small_size(in)), n = static_cast<int>(small_size(in)), lda = static_cast<int>(small_size(in));
  std::vector<int> per(8, -5);
  int total = -5;
  const trnsparseMatDescr_t d = in.flag(16) ? nullptr : md;
  int* per_p = maybe_null(in, per.data());
  trnsparseStatus_t st;
  switch (in.byte() % 3) {
    case 0: st = trnsparseSnnz(h, static_cast<trnsparseDirection_t>(dir), m, n, d, reinterpret_cast<float*>(a.dense), lda, per_p, &total); break;
    case 1: st = trnsparseCnnz(h, static_cast<trnsparseDirection_t>(dir), m, n, d, reinterpret_cast<trnComplex*>(a.dense), lda, per_p, &total); break;
    default:
      st = trnsparseZnnz(h, static_cast<trnsparseDirection_t>(dir), m, n, d, reinterpret_cast<trnDoubleComplex*>(a.dense), lda, per_p, &total);
      break;
  }
  require(is_status(st), "nnz status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(total == -5 && per == std::vector<int>(8, -5), "a failed nnz wrote");
  else require(total >= 0 && total <= m * n, "nnz total within m x n");
  trnfuzz::reach("surface_nnz_ok", st == TRNSPARSE_STATUS_SUCCESS);
}

// The bufferSizeExt / bufferSize forms of the legacy routines, numericBoost, the sorts and permutations.
void probe_buffer_sizes(trnfuzz::Input& in, Arrays& a, trnsparseHandle_t h, trnsparseMatDescr_t md, csric02Info_t ic,
                        csrilu02Info_t ilu) {
  const int m = static_cast<int>(small_size(in)), n = static_cast<int>(small_size(in)), nnz = static_cast<int>(small_size(in));
  const int ld = static_cast<int>(small_size(in)), batch = static_cast<int>(small_size(in)), algo = static_cast<int>(in.byte() % 4) - 1;
  size_t size = 77;
  size_t* sp = maybe_null(in, &size);
  const trnsparseMatDescr_t d = in.flag(16) ? nullptr : md;
  auto* F = reinterpret_cast<float*>(a.val);
  auto* D = a.val;
  auto* C = reinterpret_cast<trnComplex*>(a.val);
  auto* Z = reinterpret_cast<trnDoubleComplex*>(a.val);
  const int* rp = maybe_null(in, a.off32);
  trnsparseStatus_t st = TRNSPARSE_STATUS_SUCCESS;
  const int which = in.byte() % 24;
  switch (which) {
    case 0: st = trnsparseScsrgeam2_bufferSizeExt(h, m, n, F, d, nnz, F, rp, a.col32, F, md, nnz, F, a.off32, a.col32, md, F, a.off32, a.col32, sp); break;
    case 1: st = trnsparseDcsrgeam2_bufferSizeExt(h, m, n, D, d, nnz, D, rp, a.col32, D, md, nnz, D, a.off32, a.col32, md, D, a.off32, a.col32, sp); break;
    case 2: st = trnsparseCcsrgeam2_bufferSizeExt(h, m, n, C, d, nnz, C, rp, a.col32, C, md, nnz, C, a.off32, a.col32, md, C, a.off32, a.col32, sp); break;
    case 3: st = trnsparseZcsrgeam2_bufferSizeExt(h, m, n, Z, d, nnz, Z, rp, a.col32, Z, md, nnz, Z, a.off32, a.col32, md, Z, a.off32, a.col32, sp); break;
    case 4: st = trnsparseScsric02_bufferSizeExt(h, m, nnz, d, F, rp, a.col32, ic, sp); break;
    case 5: st = trnsparseDcsric02_bufferSizeExt(h, m, nnz, d, D, rp, a.col32, ic, sp); break;
    case 6: st = trnsparseCcsric02_bufferSizeExt(h, m, nnz, d, C, rp, a.col32, ic, sp); break;
    case 7: st = trnsparseZcsric02_bufferSizeExt(h, m, nnz, d, Z, rp, a.col32, ic, sp); break;
    case 8: st = trnsparseScsrilu02_bufferSizeExt(h, m, nnz, d, F, rp, a.col32, ilu, sp); break;
    case 9: st = trnsparseDcsrilu02_bufferSizeExt(h, m, nnz, d, D, rp, a.col32, ilu, sp); break;
    case 10: st = trnsparseCcsrilu02_bufferSizeExt(h, m, nnz, d, C, rp, a.col32, ilu, sp); break;
    case 11: st = trnsparseZcsrilu02_bufferSizeExt(h, m, nnz, d, Z, rp, a.col32, ilu, sp); break;
    case 12: {
      double tol = in.flag() ? -1.0 : 1e-3;
      const int enable = static_cast<int>(in.u32() % 3);
      const int t = in.byte() % 3;
      st = t == 0 ? trnsparseScsrilu02_numericBoost(h, in.flag(8) ? nullptr : ilu, enable, maybe_null(in, &tol), F)
           : t == 1 ? trnsparseCcsrilu02_numericBoost(h, ilu, enable, &tol, maybe_null(in, C))
                    : trnsparseZcsrilu02_numericBoost(h, ilu, enable, &tol, Z);
      break;
    }
    case 13: st = trnsparseCgtsv2_bufferSizeExt(h, m, n, C, C, C, C, ld, sp); break;
    case 14: st = trnsparseDgtsv2_bufferSizeExt(h, m, n, D, D, D, maybe_null(in, D), ld, sp); break;
    case 15: {
      const int t = in.byte() % 3;
      st = t == 0 ? trnsparseSgtsv2_nopivot_bufferSizeExt(h, m, n, F, F, F, F, ld, sp)
           : t == 1 ? trnsparseDgtsv2_nopivot_bufferSizeExt(h, m, n, D, D, D, D, ld, sp)
                    : trnsparseZgtsv2_nopivot_bufferSizeExt(h, m, n, Z, Z, Z, Z, ld, sp);
      break;
    }
    case 16: {
      const int t = in.byte() % 3;
      st = t == 0 ? trnsparseSgtsv2StridedBatch_bufferSizeExt(h, m, F, F, F, F, batch, ld, sp)
           : t == 1 ? trnsparseCgtsv2StridedBatch_bufferSizeExt(h, m, C, C, C, C, batch, ld, sp)
                    : trnsparseZgtsv2StridedBatch_bufferSizeExt(h, m, Z, Z, Z, Z, batch, ld, sp);
      break;
    }
    case 17: {
      const int t = in.byte() % 4;
      st = t == 0 ? trnsparseSgtsvInterleavedBatch_bufferSizeExt(h, algo, m, F, F, F, F, batch, sp)
           : t == 1 ? trnsparseCgtsvInterleavedBatch_bufferSizeExt(h, algo, m, C, C, C, C, batch, sp)
           : t == 2 ? trnsparseDgpsvInterleavedBatch_bufferSizeExt(h, algo, m, D, D, D, D, D, D, batch, sp)
                    : trnsparseZgpsvInterleavedBatch_bufferSizeExt(h, algo, m, Z, Z, Z, Z, Z, Z, batch, sp);
      break;
    }
    case 18:
      st = trnsparseCsr2cscEx2_bufferSize(h, m, n, nnz, a.val, rp, a.col32, a.y, a.off32 + 0, a.row32, static_cast<trnDataType_t>(value_type(in)),
                                          static_cast<trnsparseAction_t>(in.choice({0, 1})), static_cast<trnsparseIndexBase_t>(index_base(in)),
                                          static_cast<trnsparseCsr2CscAlg_t>(in.choice({1})), sp);
      break;
    case 19: {
      const int t = in.byte() % 3;
      st = t == 0 ? trnsparseXcoosort_bufferSizeExt(h, m, n, nnz, a.row32, a.col32, sp)
           : t == 1 ? trnsparseXcsrsort_bufferSizeExt(h, m, n, nnz, rp, a.col32, sp)
                    : trnsparseXcscsort_bufferSizeExt(h, m, n, nnz, rp, a.row32, sp);
      break;
    }
    case 20: {  // in-place sorts over fuzzed index arrays of nnz entries, P the identity or NULL
      Bytes b{in};
      std::vector<int> rows(16), cols(16), perm(16);
      for (int i = 0; i < 16; ++i) perm[static_cast<std::size_t>(i)] = i;
      fill_indices(b, rows, 4);
      fill_indices(b, cols, 4);
      const std::vector<int> rows0 = rows, cols0 = cols;
      std::vector<int> colptr(a.off32, a.off32 + 8);
      if (in.flag()) fill_indices(b, colptr, 10);
      const bool coo = in.flag();
      size_t work = 0;  // the workspace the library claims (any status: then 1 byte)
      if (coo) (void)trnsparseXcoosort_bufferSizeExt(h, m, n, nnz, rows.data(), cols.data(), &work);
      else (void)trnsparseXcscsort_bufferSizeExt(h, m, n, nnz, colptr.data(), rows.data(), &work);
      std::vector<unsigned char> buffer(std::max<size_t>(work, 1));
      void* bp = maybe_null(in, static_cast<void*>(buffer.data()));
      if (coo)
        st = trnsparseXcoosortByColumn(h, m, n, nnz, rows.data(), cols.data(), maybe_null(in, perm.data()), bp);
      else
        st = trnsparseXcscsort(h, m, n, nnz, d, colptr.data(), rows.data(), maybe_null(in, perm.data()), bp);
      if (st != TRNSPARSE_STATUS_SUCCESS) require(rows == rows0 && cols == cols0, "a failed sort permuted its arrays");
      break;
    }
    case 21: {
      std::vector<int> p(8, -5);
      st = trnsparseCreateIdentityPermutation(h, m, maybe_null(in, p.data()));
      if (st == TRNSPARSE_STATUS_SUCCESS)
        for (int i = 0; i < m; ++i) require(p[static_cast<std::size_t>(i)] == i, "identity permutation");
      else
        require(p == std::vector<int>(8, -5), "a failed CreateIdentityPermutation wrote");
      break;
    }
    default: {
      std::vector<int> rows(16, -5);
      st = trnsparseXcsr2coo(h, rp, nnz, m, maybe_null(in, rows.data()), static_cast<trnsparseIndexBase_t>(index_base(in)));
      if (st != TRNSPARSE_STATUS_SUCCESS) require(rows == std::vector<int>(16, -5), "a failed Xcsr2coo wrote");
      break;
    }
  }
  require(is_status(st), "bufferSize / sort status");
  if (st != TRNSPARSE_STATUS_SUCCESS && which != 12) require(size == 77, "a failed bufferSize query wrote the size");
  trnfuzz::reach("surface_buffer_ok", st == TRNSPARSE_STATUS_SUCCESS);
}

// BsrCg / BsrBicgstab / BsrGmres on a 4 x 4 CSR of every generic value type (issue #28: the CSR
// Krylov path, preconditioners NONE .. IC0 and out-of-range ones), values possibly poisoned (NaN, a
// zero or negative diagonal: breakdown, zero pivot), vecX possibly of another type or size. A
// failed call leaves x, iterations and info as they were.
trnsparseStatus_t probe_csr_krylov(trnfuzz::Input& in, Arrays& a, trnsparseHandle_t hh, int vt) {
  const auto V = static_cast<trnDataType_t>(vt);
  std::vector<double> vals(a.val, a.val + 64), bv(a.y, a.y + 64), xv(64, 0.0);
  const int poison = in.byte() % 8;  // 0: NaN, 1: zero diagonal, 2: negative diagonal, else none
  if (poison == 0) vals[in.byte() % 10] = std::numeric_limits<double>::quiet_NaN();
  if (poison == 1 || poison == 2) vals[0] = poison == 1 ? 0.0 : -3.0;
  const int idx = in.flag() ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I;
  trnsparseSpMatDescr_t A = nullptr;
  require(trnsparseCreateCsr(&A, 4, 4, 10, a.off(idx), a.col(idx), vals.data(), static_cast<trnsparseIndexType_t>(idx),
                             static_cast<trnsparseIndexType_t>(idx), TRNSPARSE_INDEX_BASE_ZERO, V) == TRNSPARSE_STATUS_SUCCESS, "CSR");
  const int xt = in.flag(8) ? generic_type(in) : vt;
  const std::int64_t xn = in.flag(8) ? 3 : 4;
  trnsparseDnVecDescr_t vb = nullptr, vx = nullptr;
  require(trnsparseCreateDnVec(&vb, 4, bv.data(), V) == 0 && trnsparseCreateDnVec(&vx, xn, xv.data(), static_cast<trnDataType_t>(xt)) == 0, "b x");
  const int iters = static_cast<int>(in.byte() % 6) - 1, restart = static_cast<int>(in.byte() % 5) - 1;
  const int pre = static_cast<int>(in.byte() % 6);  // NONE .. IC0, and 5 (invalid)
  const float tol = in.flag(8) ? -1.0f : in.flag() ? 1e-3f : 0.0f;
  int it = -5, info = -5;
  float hist[8];
  const auto P = static_cast<trnsparsePreconditioner_t>(pre);
  const int t = in.byte() % 3;
  const trnsparseStatus_t st =
      t == 0   ? trnsparseBsrCg(hh, A, vb, vx, tol, iters, P, maybe_null(in, &it), maybe_null(in, hist), &info)
      : t == 1 ? trnsparseBsrBicgstab(hh, A, vb, vx, tol, iters, P, &it, maybe_null(in, hist), maybe_null(in, &info))
               : trnsparseBsrGmres(hh, A, vb, vx, tol, iters, restart, P, &it, maybe_null(in, hist), &info);
  if (st != TRNSPARSE_STATUS_SUCCESS) {
    require(std::all_of(xv.begin(), xv.end(), [](double v) { return v == 0.0; }), "a failed CSR Krylov solve wrote x");
    require(it == -5 && info == -5, "a failed CSR Krylov solve wrote iterations / info");
  } else {
    require(info >= 0 && info <= 2 && it >= 0 && it <= std::max(iters, 0), "CSR Krylov info / iterations");
  }
  trnfuzz::reach("csr_krylov_ok", st == TRNSPARSE_STATUS_SUCCESS);
  trnsparseDestroyDnVec(vb);
  trnsparseDestroyDnVec(vx);
  trnsparseDestroySpMat(A);
  return st;
}

// The generic API's bufferSize / preprocess forms, SpSM_updateMatrix, SparseToDense_bufferSize on
// the 4 x 4 CSR, and BsrBicgstab / BsrGmres / attention backward on a 4 x 4 BSR of 1 x 1 blocks.
void probe_generic_forms(trnfuzz::Input& in, Arrays& a, trnsparseHandle_t h) {
  const int vt = generic_type(in);
  const auto V = static_cast<trnDataType_t>(vt);
  trnsparseSpMatDescr_t A = nullptr;
  require(trnsparseCreateCsr(&A, 4, 4, 10, a.off32, a.col32, a.val, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                             TRNSPARSE_INDEX_BASE_ZERO, V) == TRNSPARSE_STATUS_SUCCESS, "CSR");
  trnsparseDnMatDescr_t B = nullptr, C = nullptr;
  trnsparseDnVecDescr_t x = nullptr, y = nullptr;
  const std::int64_t k = 1 + in.byte() % 4;
  require(trnsparseCreateDnMat(&B, 4, k, 4, a.x, V, TRNSPARSE_ORDER_COL) == 0 && trnsparseCreateDnMat(&C, 4, k, 4, a.y, V, TRNSPARSE_ORDER_COL) == 0 &&
              trnsparseCreateDnVec(&x, 4, a.x, V) == 0 && trnsparseCreateDnVec(&y, 4, a.y, V) == 0,
          "dense operands");
  const Scalar one = scalar_of(vt, 1.0), zero = scalar_of(vt, 0.0);
  const int op = in.choice({TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_TRANSPOSE, TRNSPARSE_OPERATION_CONJUGATE_TRANSPOSE});
  auto O = [op] { return static_cast<trnsparseOperation_t>(op); };
  const int ct = in.choice({vt, TRN_R_32F, TRN_R_64F});
  auto CT = [ct] { return static_cast<trnDataType_t>(ct); };
  const int alg = static_cast<int>(in.byte() % 4);
  size_t size = 77;
  size_t* sp = maybe_null(in, &size);
  trnsparseHandle_t hh = in.flag(16) ? nullptr : h;
  const std::vector<double> y0(a.y, a.y + 64);
  trnsparseStatus_t st;
  const int which = in.byte() % 10;
  switch (which) {
    case 9: st = probe_csr_krylov(in, a, hh, vt); break;
    case 0: st = trnsparseSpMM_bufferSize(hh, O(), TRNSPARSE_OPERATION_NON_TRANSPOSE, one.b, A, B, zero.b, C, CT(), static_cast<trnsparseSpMMAlg_t>(alg), sp); break;
    case 1: st = trnsparseSpMM_preprocess(hh, O(), TRNSPARSE_OPERATION_NON_TRANSPOSE, maybe_null(in, one.b), A, B, zero.b, C, CT(), static_cast<trnsparseSpMMAlg_t>(alg), nullptr); break;
    case 2: st = trnsparseSpMV_bufferSize(hh, O(), one.b, A, x, zero.b, y, CT(), static_cast<trnsparseSpMVAlg_t>(alg), sp); break;
    case 3: st = trnsparseSpMV_preprocess(hh, O(), one.b, A, x, maybe_null(in, zero.b), y, CT(), static_cast<trnsparseSpMVAlg_t>(alg), nullptr); break;
    case 4: {
      trnsparseDnMatDescr_t U = nullptr, W = nullptr;
      require(trnsparseCreateDnMat(&U, 4, 1, 4, a.x, V, TRNSPARSE_ORDER_COL) == 0 && trnsparseCreateDnMat(&W, 1, 4, 1, a.x, V, TRNSPARSE_ORDER_COL) == 0, "U W");
      st = in.flag() ? trnsparseSDDMM_bufferSize(hh, O(), TRNSPARSE_OPERATION_NON_TRANSPOSE, one.b, U, W, zero.b, A, CT(), static_cast<trnsparseSDDMMAlg_t>(alg), sp)
                     : trnsparseSDDMM_preprocess(hh, O(), TRNSPARSE_OPERATION_NON_TRANSPOSE, one.b, U, W, zero.b, A, CT(), static_cast<trnsparseSDDMMAlg_t>(alg), nullptr);
      trnsparseDestroyDnMat(U);
      trnsparseDestroyDnMat(W);
      break;
    }
    case 5: {
      trnsparseSpSMDescr_t sm = nullptr;
      require(trnsparseSpSM_createDescr(&sm) == TRNSPARSE_STATUS_SUCCESS, "SpSM descr");
      st = trnsparseSpSM_bufferSize(hh, O(), TRNSPARSE_OPERATION_NON_TRANSPOSE, one.b, A, B, C, CT(), static_cast<trnsparseSpSMAlg_t>(alg), sm, sp);
      if (in.flag()) {  // updateMatrix before / after an analysis, fuzzed part
        size_t dummy = 0;
        if (in.flag() && trnsparseSpSM_bufferSize(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, one.b, A, B, C, V,
                                                  TRNSPARSE_SPSM_ALG_DEFAULT, sm, &dummy) == TRNSPARSE_STATUS_SUCCESS)
          (void)trnsparseSpSM_analysis(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, one.b, A, B, C, V,
                                       TRNSPARSE_SPSM_ALG_DEFAULT, sm, nullptr);
        std::vector<double> nv(a.val, a.val + 64);
        st = trnsparseSpSM_updateMatrix(hh, in.flag(8) ? nullptr : sm, maybe_null(in, static_cast<void*>(nv.data())),
                                        static_cast<trnsparseSpSMUpdate_t>(in.choice({TRNSPARSE_SPSM_UPDATE_GENERAL, TRNSPARSE_SPSM_UPDATE_DIAGONAL})));
        size = 77;
      }
      trnsparseSpSM_destroyDescr(sm);
      break;
    }
    case 6: {
      trnsparseSpVecDescr_t v = nullptr;
      require(trnsparseCreateSpVec(&v, 4, 2, a.col32, a.val, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, V) == 0, "SpVec");
      st = trnsparseSpVV_bufferSize(hh, O(), v, x, maybe_null(in, static_cast<const void*>(a.y + 32)), CT(), sp);
      trnsparseDestroySpVec(v);
      break;
    }
    case 7: st = trnsparseSparseToDense_bufferSize(hh, A, C, static_cast<trnsparseSparseToDenseAlg_t>(in.choice({0})), sp); break;
    default: {  // the BSR extensions on 4 x 4 blocks of 1 x 1 (fp32)
      trnsparseSpMatDescr_t Bs = nullptr;
      float fv[16], fb[8], fx[8], hist[16];
      for (int i = 0; i < 16; ++i) fv[i] = i % 3 == 0 ? 4.0f : 0.5f;
      for (int i = 0; i < 8; ++i) fb[i] = 1.0f, fx[i] = 0.0f;
      require(trnsparseCreateBsr(&Bs, 4, 4, 10, 1, 1, a.off32, a.col32, fv, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                                 TRN_R_32F, TRNSPARSE_ORDER_ROW) == 0, "BSR");
      trnsparseDnVecDescr_t vb = nullptr, vx = nullptr;
      require(trnsparseCreateDnVec(&vb, 4, fb, TRN_R_32F) == 0 && trnsparseCreateDnVec(&vx, 4, fx, TRN_R_32F) == 0, "b x");
      const int iters = static_cast<int>(in.byte() % 5) - 1, restart = static_cast<int>(in.byte() % 5) - 1;
      const int pre = in.choice({TRNSPARSE_PRECOND_NONE, TRNSPARSE_PRECOND_JACOBI, TRNSPARSE_PRECOND_BLOCK_JACOBI});
      int it = -5, info = -5;
      const std::vector<float> x0(fx, fx + 8);
      const float tol = in.flag(8) ? -1.0f : 1e-3f;
      const int t = in.byte() % 3;
      if (t == 0) {
        st = trnsparseBsrBicgstab(hh, Bs, vb, vx, tol, iters, static_cast<trnsparsePreconditioner_t>(pre), maybe_null(in, &it), maybe_null(in, hist), &info);
      } else if (t == 1) {
        st = trnsparseBsrGmres(hh, Bs, vb, vx, tol, iters, restart, static_cast<trnsparsePreconditioner_t>(pre), &it, maybe_null(in, hist), maybe_null(in, &info));
      } else {
        const std::int64_t hd = small_size(in);
        std::vector<float> q(16, 0.25f), o(16, 0.5f), lse(8, 0.0f), dq(16, 7.0f), dk(16, 7.0f), dv(16, 7.0f);
        const std::vector<float> dq0 = dq;
        st = trnsparseBlockSparseAttentionBackward(hh, Bs, hd, q.data(), q.data(), maybe_null(in, q.data()), o.data(), o.data(), lse.data(), 0.5f,
                                                   dq.data(), maybe_null(in, dk.data()), dv.data(),
                                                   static_cast<trnDataType_t>(in.choice({TRN_R_32F, TRN_R_16BF})));
        if (st != TRNSPARSE_STATUS_SUCCESS) require(dq == dq0, "a failed attention backward wrote dQ");
      }
      if (st != TRNSPARSE_STATUS_SUCCESS && t < 2) require(std::equal(x0.begin(), x0.end(), fx), "a failed Krylov solve wrote x");
      trnfuzz::reach("surface_krylov_ok", st == TRNSPARSE_STATUS_SUCCESS);
      trnsparseDestroyDnVec(vb);
      trnsparseDestroyDnVec(vx);
      trnsparseDestroySpMat(Bs);
      break;
    }
  }
  require(is_status(st), "generic bufferSize / preprocess status");
  if (st != TRNSPARSE_STATUS_SUCCESS && which != 5) require(size == 77, "a failed bufferSize query wrote the size");
  require(std::equal(y0.begin(), y0.end(), a.y) || which == 8, "bufferSize / preprocess wrote an output");
  trnfuzz::reach("surface_generic_ok", st == TRNSPARSE_STATUS_SUCCESS);
  trnsparseDestroyDnMat(B);
  trnsparseDestroyDnMat(C);
  trnsparseDestroyDnVec(x);
  trnsparseDestroyDnVec(y);
  trnsparseDestroySpMat(A);
}

void surface_calls(trnfuzz::Input& in) {
  trnsparseHandle_t h = nullptr;
  trnsparseMatDescr_t md = nullptr;
  csric02Info_t ic = nullptr;
  csrilu02Info_t ilu = nullptr;
  require(trnsparseCreate(&h) == 0 && trnsparseCreateMatDescr(&md) == 0 && trnsparseCreateCsric02Info(&ic) == 0 &&
              trnsparseCreateCsrilu02Info(&ilu) == 0,
          "surface fixtures");
  for (int probe = 0; probe < 12 && !in.empty(); ++probe) {
    Arrays a;
    switch (in.byte() % 8) {
      case 0: probe_const_descriptors(in, a); break;
      case 1: probe_spmat_get_set(in, a); break;
      case 2: probe_dense_vectors(in, a); break;
      case 3: probe_handle_settings(in); break;
      case 4: probe_legacy_bsr(in, a, h, md); break;
      case 5: probe_nnz(in, a, h, md); break;
      case 6: probe_buffer_sizes(in, a, h, md, ic, ilu); break;
      default: probe_generic_forms(in, a, h); break;
    }
  }
  trnsparseDestroyCsrilu02Info(ilu);
  trnsparseDestroyCsric02Info(ic);
  trnsparseDestroyMatDescr(md);
  require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
}

}  // namespace
// ---- end of the s7/half block

// ---- s8/sddmm: SDDMM in every value type (issue #28)
namespace {

// SDDMM into a CSR or BSR pattern of fuzzed index arrays (valid, or raw bytes; allocated at exactly
// the length the descriptor claims) in every value type, sometimes with a mismatched matB or
// compute type, op(A) / op(B) N / T / C, 1-3 strided batches (A, B and C's values strided, the
// pattern shared). Every buffer is sized for all batches. Properties: the status is SUCCESS,
// INVALID_VALUE or NOT_SUPPORTED; a failed call leaves C's values bit-identical.
void sddmm_calls(trnfuzz::Input& in) {
  Bytes b{in};
  trnsparseHandle_t h = nullptr;
  require(trnsparseCreate(&h) == TRNSPARSE_STATUS_SUCCESS, "create handle");
  // (an exhausted input's zero bytes give an fp64 CSR of 2 x 2, K 1, op N, one batch)
  const int vt = std::array<int, 4>{TRN_R_64F, TRN_C_32F, TRN_C_64F, TRN_R_32F}[b.u8() % 4];
  const int bvt = b.u8() % 8 == 7 ? in.choice({TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F}) : vt;
  const int ct = b.u8() % 8 == 7 ? in.choice({TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F}) : vt;
  const bool bsr = (b.u8() & 1) != 0;
  const int brows = (b.u8() + 2) % 4, bcols = (b.u8() + 2) % 4;
  const int rb = bsr ? 1 + b.u8() % 3 : 1, cb = bsr ? 1 + b.u8() % 3 : 1;
  const int K = (b.u8() + 1) % 4, batches = 1 + b.u8() % 3;
  const int opA = in.choice({0, 1, 2}), opB = in.choice({0, 1, 2});
  std::vector<int> off(static_cast<std::size_t>(brows + 1), 0), col;
  const bool valid = b.u8() < 200;
  for (int i = 0; i < brows; ++i) {
    for (int j = 0; j < bcols && valid; ++j)
      if ((b.u8() & 1) != 0) col.push_back(j);
    off[static_cast<std::size_t>(i) + 1] = valid ? static_cast<int>(col.size()) : b.u8() % 9 - 1;
  }
  const int nnzb = valid ? static_cast<int>(col.size()) : b.u8() % 6;
  if (!valid) col.assign(static_cast<std::size_t>(nnzb), 0), fill_indices(b, col, bcols);
  const std::vector<int> one_batch = col;
  if (!bsr)  // CSR batches: the columns move with the values' stride
    for (int k = 1; k < batches; ++k) col.insert(col.end(), one_batch.begin(), one_batch.end());
  const int M = brows * rb, N = bcols * cb, stored = nnzb * rb * cb;
  // Values as doubles, two per element (room for a complex double whatever the types say).
  std::vector<double> cval(static_cast<std::size_t>(2 * stored * batches + 2), 0.75);
  for (auto& v : cval) v = static_cast<double>(b.u8() % 9) - 4.0;
  const int arows = opA == 0 ? M : K, acols = opA == 0 ? K : M, brows_b = opB == 0 ? K : N, bcols_b = opB == 0 ? N : K;
  const std::int64_t lda = std::max(acols, 1), ldb = std::max(brows_b, 1);
  const std::int64_t a_stride = lda * arows, b_stride = ldb * bcols_b;
  std::vector<double> A(static_cast<std::size_t>(2 * a_stride * batches + 2), 0.5), B(static_cast<std::size_t>(2 * b_stride * batches + 2), -0.25);
  trnsparseDnMatDescr_t dA = nullptr, dB = nullptr;
  trnsparseSpMatDescr_t sC = nullptr;
  require(trnsparseCreateDnMat(&dA, arows, acols, lda, A.data(), static_cast<trnDataType_t>(vt), TRNSPARSE_ORDER_ROW) == 0,
          "SDDMM matA");
  const trnsparseStatus_t made_b =  // bvt may be any int (in.choice's escape)
      trnsparseCreateDnMat(&dB, brows_b, bcols_b, ldb, B.data(), static_cast<trnDataType_t>(bvt), TRNSPARSE_ORDER_COL);
  require(allowed(made_b), "SDDMM matB status");
  const auto V = static_cast<trnDataType_t>(vt);
  const trnsparseStatus_t made =
      bsr ? trnsparseCreateBsr(&sC, brows, bcols, nnzb, rb, cb, off.data(), col.data(), cval.data(), TRNSPARSE_INDEX_32I,
                               TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, V, b.u8() % 2 ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL)
          : trnsparseCreateCsr(&sC, M, N, nnzb, off.data(), col.data(), cval.data(), TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                               TRNSPARSE_INDEX_BASE_ZERO, V);
  require(made == TRNSPARSE_STATUS_SUCCESS, "SDDMM output descriptor");
  if (batches > 1) {
    require(allowed(trnsparseDnMatSetStridedBatch(dA, batches, a_stride)) && allowed(trnsparseDnMatSetStridedBatch(dB, batches, b_stride)),
            "DnMatSetStridedBatch");  // (dB NULL after a failed creation: INVALID_VALUE)
    require(allowed(bsr ? trnsparseBsrSetStridedBatch(sC, batches, 0, 0, stored) : trnsparseCsrSetStridedBatch(sC, batches, 0, nnzb)),
            "SetStridedBatch");
  }
  const Scalar alpha = scalar_of(vt, 1.5), beta = scalar_of(vt, b.u8() % 2 ? 0.0 : -0.5);
  const std::vector<double> c0 = cval;
  const trnsparseStatus_t st = trnsparseSDDMM(h, static_cast<trnsparseOperation_t>(opA), static_cast<trnsparseOperation_t>(opB), alpha.b,
                                              dA, dB, beta.b, sC, static_cast<trnDataType_t>(ct), TRNSPARSE_SDDMM_ALG_DEFAULT, nullptr);
  require(allowed(st), "SDDMM status");
  if (st != TRNSPARSE_STATUS_SUCCESS)
    require(std::memcmp(c0.data(), cval.data(), c0.size() * sizeof(double)) == 0, "a failed SDDMM wrote C");
  trnfuzz::reach("sddmm_wide_ok", st == TRNSPARSE_STATUS_SUCCESS && vt != TRN_R_32F);
  trnsparseDestroyDnMat(dA);
  if (made_b == TRNSPARSE_STATUS_SUCCESS) trnsparseDestroyDnMat(dB);
  trnsparseDestroySpMat(sC);
  require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
}

}  // namespace
// ---- end of the s8/sddmm block

std::vector<trnfuzz::Floor> trnfuzz::floors() {
  return {{"bsr_created", 600}, {"spmm_ok", 200}, {"spmm_rejected", 350}, {"csc_ok", 300},
          {"ell_ok", 500},     {"api_calls", 1000}, {"api_csr_created", 100},
          {"generic_created", 300}, {"generic_spmv_ok", 50}, {"generic_vector_ok", 50}, {"generic_csr2csc_ok", 100},
          {"solve_created", 300},   {"spsv_ok", 50},         {"spsv_zero_pivot", 5},    {"spsm_ok", 50},
          {"spgemm_csr_ok", 10},    {"banded_ok", 20},      {"banded_zero_pivot", 5},
          {"csrgeam2_ok", 50},      {"nnz_ok", 50},        {"bsr_wide_ok", 50},
          {"sell_created", 300},    {"sell_spmv_ok", 50},  {"sell_spsv_ok", 20},
          {"gebsr_ok", 50},         {"gebsc_ok", 50},      {"bsr_batch_set", 10},
          {"incomplete_analyzed", 100}, {"incomplete_ok", 30},  // s6/ilu (zero pivots: the libFuzzer runs)
          {"bell_analysis_ok", 50},     {"bell_convert_ok", 50},
          {"surface_const_ok", 50},     {"surface_spmat_ok", 50},  {"surface_dense_ok", 50},  // s7/half
          {"surface_handle_ok", 20},    {"surface_buffer_ok", 20}, {"surface_generic_ok", 20},
          {"sddmm_wide_ok", 20},  // s8/sddmm
          {"krylov_switch_ok", 4}, {"krylov_bsr_wide_ok", 3}, {"krylov_bf16_ok", 1},  // s10/spgaps (its corpus inputs alone)
          {"gebsr2gebsr_nnz_ok", 20}, {"gebsr2gebsr_ok", 10}, {"gebsr2csr_ok", 20}};  // s11/spconv
}


// ---- s9/spengine: complex-fp32 SpMM / SpMV on BSR and Blocked-ELL (issue #28)
namespace {

// A C_32F / R_64F / C_64F BSR (either block order) or Blocked-ELL matrix over fuzzed index arrays (valid, or raw
// bytes; allocated at exactly the claimed length), SpMV or SpMM with op(A) / op(B) N / T / C, alpha
// and beta with or without an imaginary part, C row- or column-major. Buffers hold every element the
// call may touch. Properties: SUCCESS, INVALID_VALUE or NOT_SUPPORTED; a failed call leaves C as it was.
void wide_block_calls(trnfuzz::Input& in) {
  Bytes b{in};
  trnsparseHandle_t h = nullptr;
  require(trnsparseCreate(&h) == TRNSPARSE_STATUS_SUCCESS, "create handle");
  const int vt = std::array<int, 3>{TRN_C_32F, TRN_R_64F, TRN_C_64F}[b.u8() % 3];
  const auto V = static_cast<trnDataType_t>(vt);
  const bool ell = (b.u8() & 1) != 0, valid = b.u8() < 200;
  const int brows = b.u8() % 4, bcols = b.u8() % 4, bs = 1 + b.u8() % 3, n = b.u8() % 3;
  const int opA = in.choice({0, 1, 2}), opB = in.choice({0, 1, 2});
  std::vector<int> off(static_cast<std::size_t>(brows + 1), 0), col, slots;
  for (int i = 0; i < brows; ++i) {
    for (int j = 0; j < bcols && valid; ++j)
      if ((b.u8() & 1) != 0) col.push_back(j);
    off[static_cast<std::size_t>(i) + 1] = valid ? static_cast<int>(col.size()) : b.u8() % 9 - 1;
  }
  const int nnzb = valid ? static_cast<int>(col.size()) : b.u8() % 6;
  if (!valid) col.assign(static_cast<std::size_t>(nnzb), 0), fill_indices(b, col, bcols);
  const int nslots = 1 + b.u8() % 2;  // Blocked-ELL: slots per block row, -1 or a fuzzed column
  slots.assign(static_cast<std::size_t>(brows * nslots), -1);
  for (auto& c : slots) c = b.u8() % 3 == 0 ? -1 : b.u8() % (bcols + 2) - 1;
  const int M = brows * bs, K = bcols * bs, rows_op = opA == 0 ? M : K, cols_op = opA == 0 ? K : M;
  const int stored = ell ? M * nslots * bs : nnzb * bs * bs;
  std::vector<double> val(static_cast<std::size_t>(2 * stored + 2));  // room for complex doubles
  for (auto& v : val) v = static_cast<double>(b.u8() % 9) - 4.0;
  trnsparseSpMatDescr_t A = nullptr;
  const trnsparseStatus_t made =
      ell ? trnsparseCreateBlockedEll(&A, M, K, bs, nslots * bs, slots.data(), val.data(), TRNSPARSE_INDEX_32I,
                                      TRNSPARSE_INDEX_BASE_ZERO, V)
          : trnsparseCreateBsr(&A, brows, bcols, nnzb, bs, bs, off.data(), col.data(), val.data(), TRNSPARSE_INDEX_32I,
                               TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, V,
                               b.u8() % 2 ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL);
  require(allowed(made), "wide block descriptor status");
  if (made != TRNSPARSE_STATUS_SUCCESS) {
    require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
    return;
  }
  const double parts[4] = {1.5, b.u8() % 2 ? 0.0 : -0.5, b.u8() % 2 ? 0.0 : -0.5, b.u8() % 2 ? 0.0 : 0.25};
  Scalar alpha, beta;  // (re, im) in the value type's precision (R_64F: the real part)
  if (vt == TRN_C_32F) {
    const float f[4] = {1.5f, static_cast<float>(parts[1]), static_cast<float>(parts[2]), static_cast<float>(parts[3])};
    std::memcpy(alpha.b, f, 8);
    std::memcpy(beta.b, f + 2, 8);
  } else {
    std::memcpy(alpha.b, parts, 16);
    std::memcpy(beta.b, parts + 2, 16);
  }
  const int cols = std::max(n, 1);
  std::vector<double> B(static_cast<std::size_t>(2 * cols_op * cols + 2), 0.5), C(static_cast<std::size_t>(2 * rows_op * cols + 2), -1.0);
  const std::vector<double> c0 = C;
  trnsparseStatus_t st = TRNSPARSE_STATUS_SUCCESS;
  // The operations as prvalues at the call: a fuzzed int outside the enum's values must not be stored
  // in (and loaded from) an enum object (UBSan's -fsanitize=enum), as the other probes pass them.
  const auto oa = [opA] { return static_cast<trnsparseOperation_t>(opA); };
  const auto ob = [opB] { return static_cast<trnsparseOperation_t>(opB); };
  if (n == 0) {
    trnsparseDnVecDescr_t x = nullptr, y = nullptr;
    require(trnsparseCreateDnVec(&x, cols_op, B.data(), V) == 0 && trnsparseCreateDnVec(&y, rows_op, C.data(), V) == 0,
            "wide vectors");
    st = trnsparseSpMV(h, oa(), alpha.b, A, x, beta.b, y, V, TRNSPARSE_SPMV_ALG_DEFAULT, nullptr);
    trnsparseDestroyDnVec(x);
    trnsparseDestroyDnVec(y);
  } else {
    trnsparseDnMatDescr_t mB = nullptr, mC = nullptr;
    const int br = opB == 0 ? cols_op : n, bc = opB == 0 ? n : cols_op;
    const bool c_row = (b.u8() & 1) != 0;
    require(trnsparseCreateDnMat(&mB, br, bc, std::max(br, 1), B.data(), V, TRNSPARSE_ORDER_COL) == 0 &&
                trnsparseCreateDnMat(&mC, rows_op, n, c_row ? n : std::max(rows_op, 1), C.data(), V,
                                     c_row ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL) == 0,
            "wide dense operands");
    st = trnsparseSpMM(h, oa(), ob(), alpha.b, A, mB, beta.b, mC, V, TRNSPARSE_SPMM_ALG_DEFAULT, nullptr);
    trnsparseDestroyDnMat(mB);
    trnsparseDestroyDnMat(mC);
  }
  require(allowed(st), "wide block product status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(std::memcmp(c0.data(), C.data(), c0.size() * sizeof(double)) == 0, "a failed product wrote C");
  trnfuzz::reach("wide_block_ok", st == TRNSPARSE_STATUS_SUCCESS);
  trnsparseDestroySpMat(A);
  require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
}

}  // namespace
// ---- end of the s9/spengine block

// ---- s10/spgaps: trnsparseSetKrylovVectorType / GetKrylovVectorType with SR on or off, and the
// Krylov solvers on BSR operators of R_64F / C_32F / C_64F (issue #28)
namespace {

// A fuzzed vector type (valid, or any int) set on a handle (or NULL), read back; SR on or off; then
// CG / BiCGStab / GMRES on a 4 x 4 operator (CSR, or BSR of 2 x 2 blocks, index arrays valid or a
// fuzzed column) of any generic value type, a diagonal sometimes zero or NaN, vecX sometimes of
// another type, preconditioners 0..5, maxIterations -1..6 (history sized maxIterations + 1).
// Properties: the setter's status (SUCCESS only for R_32F / R_16BF on a live handle, the setting
// unchanged otherwise); solves end SUCCESS, INVALID_VALUE or NOT_SUPPORTED; bf16 vectors with
// anything but an R_32F CSR never succeed; a failed solve leaves x, iterations and info untouched.
void krylov_switch_calls(trnfuzz::Input& in) {
  Bytes b{in};
  trnsparseHandle_t h = nullptr;
  require(trnsparseCreate(&h) == TRNSPARSE_STATUS_SUCCESS, "create handle");
  const int want = in.choice({TRN_R_32F, TRN_R_16BF, TRN_R_64F});
  const bool null_handle = b.u8() % 16 == 0;
  const trnsparseStatus_t set = trnsparseSetKrylovVectorType(null_handle ? nullptr : h, static_cast<trnDataType_t>(want));
  const bool valid_type = want == TRN_R_32F || want == TRN_R_16BF;
  require(set == (null_handle ? TRNSPARSE_STATUS_NOT_INITIALIZED : valid_type ? TRNSPARSE_STATUS_SUCCESS : TRNSPARSE_STATUS_INVALID_VALUE),
          "SetKrylovVectorType status");
  trnDataType_t got = TRN_R_64F;
  require(trnsparseGetKrylovVectorType(h, &got) == TRNSPARSE_STATUS_SUCCESS, "GetKrylovVectorType");
  const bool bf16 = set == TRNSPARSE_STATUS_SUCCESS && want == TRN_R_16BF;
  require(static_cast<int>(got) == (bf16 ? TRN_R_16BF : TRN_R_32F), "GetKrylovVectorType value");
  if (b.u8() % 2 != 0) require(trnsparseSetStochasticRounding(h, 1, b.u8()) == TRNSPARSE_STATUS_SUCCESS, "SR on");
  const int vt = std::array<int, 4>{TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F}[b.u8() % 4];
  const auto V = static_cast<trnDataType_t>(vt);
  const bool bsr = b.u8() % 2 != 0;
  // a diagonally dominant 4 x 4 (complex: the imaginary parts fuzzed), every entry stored
  std::vector<double> val(32, 0.0);  // 16 entries, room for complex doubles
  auto put = [&](int slot, double re, double im) {
    if (vt == TRN_R_32F || vt == TRN_C_32F) {
      const float f[2] = {static_cast<float>(re), static_cast<float>(im)};
      std::memcpy(reinterpret_cast<unsigned char*>(val.data()) + slot * (vt == TRN_R_32F ? 4 : 8), f, vt == TRN_R_32F ? 4 : 8);
    } else {
      const double d[2] = {re, im};
      std::memcpy(reinterpret_cast<unsigned char*>(val.data()) + slot * (vt == TRN_R_64F ? 8 : 16), d, vt == TRN_R_64F ? 8 : 16);
    }
  };
  const int poison = b.u8() % 8;  // 0: zero diagonal entry, 1: NaN, else none
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      double re = i == j ? 6.0 : static_cast<double>(b.u8() % 5) - 2.0;
      if (i == j && i == 1 && poison == 0) re = 0.0;
      if (i == j && i == 2 && poison == 1) re = std::numeric_limits<double>::quiet_NaN();
      // CSR: row-major entries; BSR 2 x 2 blocks (row order): block (I, J) at 4 (2 I + J), (r, c) at 2 r + c
      const int slot = bsr ? 4 * (2 * (i / 2) + j / 2) + 2 * (i % 2) + j % 2 : 4 * i + j;
      put(slot, re, i == j ? 0.0 : static_cast<double>(b.u8() % 3) - 1.0);
    }
  std::int32_t off_csr[5] = {0, 4, 8, 12, 16}, col_csr[16], off_bsr[3] = {0, 2, 4}, col_bsr[4] = {0, 1, 0, 1};
  for (int e = 0; e < 16; ++e) col_csr[e] = e % 4;
  if (b.u8() % 8 == 0) (bsr ? col_bsr[1] : col_csr[5]) = static_cast<std::int32_t>(b.u8() % 6) - 1;  // out of order / range
  trnsparseSpMatDescr_t A = nullptr;
  const trnsparseStatus_t made =
      bsr ? trnsparseCreateBsr(&A, 2, 2, 4, 2, 2, off_bsr, col_bsr, val.data(), TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                               TRNSPARSE_INDEX_BASE_ZERO, V, TRNSPARSE_ORDER_ROW)
          : trnsparseCreateCsr(&A, 4, 4, 16, off_csr, col_csr, val.data(), TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                               TRNSPARSE_INDEX_BASE_ZERO, V);
  require(made == TRNSPARSE_STATUS_SUCCESS, "Krylov operator descriptor");
  std::vector<double> bv(8, 1.0), xv(8, 0.0);
  const std::vector<double> x0 = xv;
  const int xt = b.u8() % 8 == 0 ? std::array<int, 4>{TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F}[b.u8() % 4] : vt;
  trnsparseDnVecDescr_t vb = nullptr, vx = nullptr;
  require(trnsparseCreateDnVec(&vb, 4, bv.data(), V) == 0 && trnsparseCreateDnVec(&vx, 4, xv.data(), static_cast<trnDataType_t>(xt)) == 0,
          "Krylov vectors");
  const int iters = static_cast<int>(b.u8() % 8) - 1, restart = 1 + b.u8() % 4, pre = b.u8() % 6;
  const float tol = b.u8() % 2 != 0 ? 1e-4f : 0.0f;
  int it = -5, info = -5;
  float hist[8];
  const int which = b.u8() % 3;
  auto P = [pre] { return static_cast<trnsparsePreconditioner_t>(pre); };
  const trnsparseStatus_t st =
      which == 0   ? trnsparseBsrCg(h, A, vb, vx, tol, iters, P(), &it, hist, &info)
      : which == 1 ? trnsparseBsrBicgstab(h, A, vb, vx, tol, iters, P(), &it, hist, &info)
                   : trnsparseBsrGmres(h, A, vb, vx, tol, iters, restart, P(), &it, hist, &info);
  require(allowed(st), "Krylov status");
  if (bf16 && (bsr || vt != TRN_R_32F)) require(st != TRNSPARSE_STATUS_SUCCESS, "bf16 vectors outside R_32F CSR succeeded");
  if (st != TRNSPARSE_STATUS_SUCCESS) {
    require(xv == x0, "a failed Krylov solve wrote x");
    require(it == -5 && info == -5, "a failed Krylov solve wrote iterations / info");
  } else {
    require(info >= 0 && info <= 2 && it >= 0 && it <= std::max(iters, 0), "Krylov info / iterations");
  }
  trnfuzz::reach("krylov_switch_ok", st == TRNSPARSE_STATUS_SUCCESS);
  trnfuzz::reach("krylov_bsr_wide_ok", st == TRNSPARSE_STATUS_SUCCESS && bsr && vt != TRN_R_32F);
  trnfuzz::reach("krylov_bf16_ok", st == TRNSPARSE_STATUS_SUCCESS && bf16);
  trnsparseDestroyDnVec(vb);
  trnsparseDestroyDnVec(vx);
  trnsparseDestroySpMat(A);
  require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
}

}  // namespace
// ---- end of the s10/spgaps block

// ---- s11/spconv: gebsr2gebsr / gebsr2csr (issue #28)
namespace {

template <class T>
trnsparseStatus_t gebsr2_pair(trnsparseHandle_t h, int dir, int mb, int nb, int nnzb, trnsparseMatDescr_t dA, const double* val,
                              const int* row, const int* col, int rb, int cb, trnsparseMatDescr_t dC, double* cval, int* crow,
                              int* ccol, int rbc, int cbc);
template <class T>
trnsparseStatus_t gebsr2csr_call(trnsparseHandle_t h, int dir, int mb, int nb, trnsparseMatDescr_t dA, const double* val,
                                 const int* row, const int* col, int rb, int cb, trnsparseMatDescr_t dC, double* cval, int* crow,
                                 int* ccol);
// Both bufferSize forms (the same status), then gebsr2gebsr; and gebsr2csr. The direction is cast in
// each call's argument list (TRNSPARSE_FUZZ_DIR), never held in an enum variable.
#define TRNSPARSE_FUZZ_GEBSR2(L, T)                                                                                           \
  template <>                                                                                                                 \
  trnsparseStatus_t gebsr2_pair<T>(trnsparseHandle_t h, int dir, int mb, int nb, int nnzb, trnsparseMatDescr_t dA,           \
                                   const double* val, const int* row, const int* col, int rb, int cb, trnsparseMatDescr_t dC, \
                                   double* cval, int* crow, int* ccol, int rbc, int cbc) {                                    \
    const auto* v = reinterpret_cast<const T*>(val);                                                                          \
    int isz = -1;                                                                                                             \
    size_t ssz = 0;                                                                                                           \
    const trnsparseStatus_t s1 =                                                                                              \
        trnsparse##L##gebsr2gebsr_bufferSize(h, TRNSPARSE_FUZZ_DIR, mb, nb, nnzb, dA, v, row, col, rb, cb, rbc, cbc, &isz);    \
    const trnsparseStatus_t s2 =                                                                                              \
        trnsparse##L##gebsr2gebsr_bufferSizeExt(h, TRNSPARSE_FUZZ_DIR, mb, nb, nnzb, dA, v, row, col, rb, cb, rbc, cbc, &ssz); \
    require(s1 == s2 && (allowed(s1) || s1 == TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED), "gebsr2gebsr_bufferSize status");  \
    return trnsparse##L##gebsr2gebsr(h, TRNSPARSE_FUZZ_DIR, mb, nb, nnzb, dA, v, row, col, rb, cb, dC, reinterpret_cast<T*>(cval), \
                                     crow, ccol, rbc, cbc, nullptr);                                                          \
  }                                                                                                                           \
  template <>                                                                                                                 \
  trnsparseStatus_t gebsr2csr_call<T>(trnsparseHandle_t h, int dir, int mb, int nb, trnsparseMatDescr_t dA, const double* val, \
                                      const int* row, const int* col, int rb, int cb, trnsparseMatDescr_t dC, double* cval,    \
                                      int* crow, int* ccol) {                                                                 \
    return trnsparse##L##gebsr2csr(h, TRNSPARSE_FUZZ_DIR, mb, nb, dA, reinterpret_cast<const T*>(val), row, col, rb, cb, dC,  \
                                   reinterpret_cast<T*>(cval), crow, ccol);                                                   \
  }
TRNSPARSE_FUZZ_GEBSR2(S, float)
TRNSPARSE_FUZZ_GEBSR2(D, double)
TRNSPARSE_FUZZ_GEBSR2(C, trnComplex)
TRNSPARSE_FUZZ_GEBSR2(Z, trnDoubleComplex)
#undef TRNSPARSE_FUZZ_GEBSR2

// gebsr2_calls: a general BSR A (a valid random block pattern, or raw row pointer / columns; nnzb the
// pattern's or off by one), block dims -1 .. 3 for A and C, direction valid or any int, bases,
// MATRIX_TYPE_SYMMETRIC sometimes; Xgebsr2gebsrNnz, the bufferSize forms and gebsr2gebsr (C's row
// pointer Nnz's, or spoiled), gebsr2csr and Xgebsr2csr, one value type. Every output buffer holds
// what the call may legally write (C: mbC x nbC blocks, the most there are; the CSR: the larger of
// the two block counts times rb cb). Properties: SUCCESS, INVALID_VALUE or MATRIX_TYPE_NOT_SUPPORTED;
// a failed call leaves its outputs bit-identical; gebsr2csr writes nnzb rb cb entries and
// Xgebsr2csr the same pattern.
void gebsr2_calls(trnfuzz::Input& in) {
  Bytes b{in};
  trnsparseHandle_t h = nullptr;
  require(trnsparseCreate(&h) == TRNSPARSE_STATUS_SUCCESS, "create handle");
  // (an exhausted input's zero bytes give 2 x 2 blocks of 1 x 2 re-blocked as 2 x 1)
  const int mb = (b.u8() + 2) % 4, nb = (b.u8() + 2) % 4, rb = (b.u8() + 2) % 5 - 1, cb = (b.u8() + 3) % 5 - 1;
  const int rbc = (b.u8() + 3) % 5 - 1, cbc = (b.u8() + 2) % 5 - 1, dir = in.choice({0, 1});
  trnsparseMatDescr_t dA = nullptr, dC = nullptr;
  require(trnsparseCreateMatDescr(&dA) == 0 && trnsparseCreateMatDescr(&dC) == 0, "descr");
  trnsparseSetMatIndexBase(dA, static_cast<trnsparseIndexBase_t>(b.u8() & 1));
  trnsparseSetMatIndexBase(dC, static_cast<trnsparseIndexBase_t>(b.u8() & 1));
  if (b.u8() % 16 == 15) trnsparseSetMatType(dA, TRNSPARSE_MATRIX_TYPE_SYMMETRIC);
  const int base = trnsparseGetMatIndexBase(dA);
  std::vector<int> row(static_cast<std::size_t>(mb + 1), base), col;
  const bool valid = b.u8() < 180;
  for (int i = 0; i < mb; ++i) {
    for (int j = 0; j < nb && valid; ++j)
      if (b.u8() & 1) col.push_back(j + base);
    row[static_cast<std::size_t>(i) + 1] = valid ? static_cast<int>(col.size()) + base : b.u8() % 9 - 1;
  }
  const int counted = std::max(row.back() - base, 0);
  if (!valid) col.assign(static_cast<std::size_t>(counted), 0), fill_indices(b, col, nb);
  const int nnzb = counted - (b.u8() % 8 == 7 ? 1 : 0);
  const bool dims = rb >= 1 && cb >= 1 && rbc >= 1 && cbc >= 1;
  const std::size_t blk = rb >= 1 && cb >= 1 ? static_cast<std::size_t>(rb * cb) : 1;
  // A's values: the most blocks any count may claim, two doubles per value (room for a complex double)
  const std::vector<double> val(2 * static_cast<std::size_t>(std::max(counted, std::max(nnzb, 0))) * blk + 1, 1.5);
  const int mbc = dims ? (mb * rb + rbc - 1) / rbc : 1, nbc = dims ? (nb * cb + cbc - 1) / cbc : 1;
  std::vector<int> crow(static_cast<std::size_t>(mbc) + 1, -3);
  int total = -4;
  const auto ok = [](trnsparseStatus_t s) { return allowed(s) || s == TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED; };
  trnsparseStatus_t st = trnsparseXgebsr2gebsrNnz(h, static_cast<trnsparseDirection_t>(dir), mb, nb, nnzb, dA, row.data(), col.data(),
                                                  rb, cb, dC, crow.data(), rbc, cbc, &total, nullptr);
  require(ok(st), "Xgebsr2gebsrNnz status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(total == -4 && crow[0] == -3, "a failed Xgebsr2gebsrNnz wrote its outputs");
  if (st == TRNSPARSE_STATUS_SUCCESS) require(total >= 0 && total <= mbc * nbc, "Xgebsr2gebsrNnz count");
  trnfuzz::reach("gebsr2gebsr_nnz_ok", st == TRNSPARSE_STATUS_SUCCESS);
  if (b.u8() % 8 == 7) crow[0] += 1;  // a row pointer that is not Nnz's
  const std::size_t cblk = dims ? static_cast<std::size_t>(rbc * cbc) : 1, most = static_cast<std::size_t>(mbc) * static_cast<std::size_t>(nbc);
  std::vector<int> ccol(most, -5);
  std::vector<double> cval(2 * most * cblk + 1, -6.0);
  const std::vector<int> ccol0 = ccol;
  const std::vector<double> cval0 = cval;
  const int vt = in.choice({0, 1, 2, 3});
  const int* r = row.data();
  const int* c = col.data();
  switch (vt) {
    case 0: st = gebsr2_pair<float>(h, dir, mb, nb, nnzb, dA, val.data(), r, c, rb, cb, dC, cval.data(), crow.data(), ccol.data(), rbc, cbc); break;
    case 1: st = gebsr2_pair<double>(h, dir, mb, nb, nnzb, dA, val.data(), r, c, rb, cb, dC, cval.data(), crow.data(), ccol.data(), rbc, cbc); break;
    case 2: st = gebsr2_pair<trnComplex>(h, dir, mb, nb, nnzb, dA, val.data(), r, c, rb, cb, dC, cval.data(), crow.data(), ccol.data(), rbc, cbc); break;
    default: st = gebsr2_pair<trnDoubleComplex>(h, dir, mb, nb, nnzb, dA, val.data(), r, c, rb, cb, dC, cval.data(), crow.data(), ccol.data(), rbc, cbc);
  }
  require(ok(st), "gebsr2gebsr status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(ccol == ccol0 && cval == cval0, "a failed gebsr2gebsr wrote C");
  trnfuzz::reach("gebsr2gebsr_ok", st == TRNSPARSE_STATUS_SUCCESS);
  // gebsr2csr / Xgebsr2csr: m + 1 row offsets, counted rb cb entries (the row pointer's count)
  const int m = rb >= 1 ? mb * rb : 1;
  const std::size_t entries = static_cast<std::size_t>(counted) * blk;
  std::vector<int> orow(static_cast<std::size_t>(m) + 1, -7), ocol(entries, -8), xrow(orow), xcol(ocol);
  std::vector<double> oval(2 * entries + 1, -9.0);
  const std::vector<int> orow0 = orow, ocol0 = ocol;
  const std::vector<double> oval0 = oval;
  switch (vt) {
    case 0: st = gebsr2csr_call<float>(h, dir, mb, nb, dA, val.data(), r, c, rb, cb, dC, oval.data(), orow.data(), ocol.data()); break;
    case 1: st = gebsr2csr_call<double>(h, dir, mb, nb, dA, val.data(), r, c, rb, cb, dC, oval.data(), orow.data(), ocol.data()); break;
    case 2: st = gebsr2csr_call<trnComplex>(h, dir, mb, nb, dA, val.data(), r, c, rb, cb, dC, oval.data(), orow.data(), ocol.data()); break;
    default: st = gebsr2csr_call<trnDoubleComplex>(h, dir, mb, nb, dA, val.data(), r, c, rb, cb, dC, oval.data(), orow.data(), ocol.data());
  }
  require(ok(st), "gebsr2csr status");
  if (st != TRNSPARSE_STATUS_SUCCESS) require(orow == orow0 && ocol == ocol0 && oval == oval0, "a failed gebsr2csr wrote its outputs");
  const trnsparseStatus_t xs = trnsparseXgebsr2csr(h, static_cast<trnsparseDirection_t>(dir), mb, nb, dA, r, c, rb, cb, dC, xrow.data(),
                                                   xcol.data());
  require(xs == st, "Xgebsr2csr status differs from gebsr2csr's");
  if (st == TRNSPARSE_STATUS_SUCCESS) {
    require(orow.back() - trnsparseGetMatIndexBase(dC) == static_cast<int>(entries), "gebsr2csr entry count");
    require(xrow == orow && xcol == ocol, "Xgebsr2csr pattern differs from gebsr2csr's");
  }
  trnfuzz::reach("gebsr2csr_ok", st == TRNSPARSE_STATUS_SUCCESS);
  trnsparseDestroyMatDescr(dA);
  trnsparseDestroyMatDescr(dC);
  require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
}

}  // namespace
// ---- end of the s11/spconv block

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  trnfuzz::Input in(data, size);
  run_one(in);
  api_calls(in);  // the bytes run_one left
  generic_calls(in);
  solve_calls(in);
  banded_calls(in);
  geam_calls(in);
  sell_calls(in);
  gebsr_calls(in);
  incomplete_calls(in);  // s6/ilu
  bell_calls(in);        // s6/ilu
  trnfuzz::Input again(data, size);  // s7/half: the same bytes read afresh (the calls above use most of them)
  surface_calls(again);
  trnfuzz::Input fresh(data, size);  // s8/sddmm: read afresh too
  sddmm_calls(fresh);
  trnfuzz::Input spengine(data, size);  // s9/spengine: read afresh too
  wide_block_calls(spengine);
  trnfuzz::Input spgaps(data, size);  // s10/spgaps: read afresh too
  krylov_switch_calls(spgaps);
  trnfuzz::Input spconv(data, size);  // s11/spconv: read afresh too
  gebsr2_calls(spconv);
  return 0;
}
