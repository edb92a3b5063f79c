// Fuzz harness over descriptor creation and SpMM / SpMV / SDDMM (issue #15 "Bad input"). The input
// bytes choose sizes, block sizes, index types, base, block order and the raw contents of the index
// arrays (allocated at exactly the length the descriptor claims, so an out-of-bounds read is an
// AddressSanitizer report). Properties: every call returns SUCCESS, INVALID_VALUE or NOT_SUPPORTED;
// a failed compute call leaves its output bit-identical; nothing crashes or throws.
//
// Builds two ways: with clang and -DTRNSPARSE_LIBFUZZER as a libFuzzer target (LLVMFuzzerTestOneInput,
// e.g. `clang++ -fsanitize=fuzzer,address ...`), and as the ctest `sparse.fuzz_replay`, whose main()
// replays a fixed number of deterministic pseudo-random inputs.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "trnsparse.h"

namespace {

int g_created = 0, g_spmm_ok = 0, g_spmm_rejected = 0;

struct Bytes {
  const std::uint8_t* p;
  std::size_t n, at = 0;
  std::uint8_t u8() { return at < n ? p[at++] : 0; }
  std::int32_t i32() {
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v = (v << 8) | u8();
    return static_cast<std::int32_t>(v);
  }
};

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz property violated: %s\n", what);
    std::abort();
  }
}

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

void run_one(const std::uint8_t* data, std::size_t size) {
  Bytes in{data, size};
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
    ++g_created;
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
    ++(s1 == TRNSPARSE_STATUS_SUCCESS ? g_spmm_ok : g_spmm_rejected);
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
    trnsparseDestroyDnMat(mU);
    trnsparseDestroyDnMat(mW);
    trnsparseDestroyDnMat(mB);
    trnsparseDestroyDnMat(mC);
    trnsparseDestroyDnVec(vx);
    trnsparseDestroyDnVec(vy);
    require(trnsparseDestroySpMat(A) == TRNSPARSE_STATUS_SUCCESS, "destroy");
  }
  require(trnsparseDestroy(h) == TRNSPARSE_STATUS_SUCCESS, "destroy handle");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  run_one(data, size);
  return 0;
}

#ifndef TRNSPARSE_LIBFUZZER
int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 3000;
  std::mt19937_64 rng(15);
  std::vector<std::uint8_t> buf;
  for (int r = 0; r < runs; ++r) {
    buf.resize(static_cast<std::size_t>(rng() % 160));
    for (auto& b : buf) b = static_cast<std::uint8_t>(rng());
    run_one(buf.data(), buf.size());
  }
  std::printf("fuzz replay: %d inputs (%d descriptors created, SpMM %d succeeded, %d rejected), all properties held\n",
              runs, g_created, g_spmm_ok, g_spmm_rejected);
  // The generator must reach both outcomes, or the replay tests nothing.
  return g_spmm_ok > runs / 50 && g_spmm_rejected > runs / 50 ? 0 : 1;
}
#endif
