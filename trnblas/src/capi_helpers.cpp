// trnblas.h helper functions: GetProperty, Set/Get Vector/Matrix (+Async, _64) and the _64 names of
// rotg/rotmg. Memory is host memory, so the cuBLAS "transfers" are strided host-to-host copies with
// cuBLAS's argument checks: elemSize, the increments and the leading dimensions must be positive and
// sizes non-negative (INVALID_VALUE, the position logged; nothing copied); a leading dimension below
// the row count or a NULL pointer with something to copy is what cudaMemcpy2D rejects, which cuBLAS
// reports as MAPPING_ERROR. The Async forms accept any stream and complete before returning.
#include <cstdint>
#include <cstring>

#include "capi_internal.hpp"
#include "trn/core/c_shim.hpp"

namespace {

using blas_capi::arg_check;
using blas_capi::fail;

// Positions of a copy's arguments (Set/GetMatrix: rows 1, cols 2, elemSize 3, A 4, lda 5, B 6, ldb 7;
// Set/GetVector: n 1, elemSize 2, x 3, incx 4, y 5, incy 6, seen as a 1 x n matrix with ld = inc).
struct CopyPos {
  int rows, cols, elem, src, ld_src, dst, ld_dst;
};
constexpr CopyPos kMatrixPos{1, 2, 3, 4, 5, 6, 7};
constexpr CopyPos kVectorPos{0, 1, 2, 3, 4, 5, 6};

// Copies a rows x cols matrix of elem-byte elements between two column-major layouts.
trnblasStatus_t copy_matrix(const char* fn, const CopyPos& p, std::int64_t rows, std::int64_t cols, std::int64_t elem,
                            const void* src, std::int64_t ld_src, void* dst, std::int64_t ld_dst) {
  auto chk = arg_check(nullptr, fn);
  if (p.rows != 0) chk.nonnegative(rows, p.rows, "rows");
  chk.nonnegative(cols, p.cols, p.rows != 0 ? "cols" : "n")
      .require(elem > 0, p.elem, "elemSize")
      .require(ld_src > 0, p.ld_src, p.rows != 0 ? "lda" : "incx")
      .require(ld_dst > 0, p.ld_dst, p.rows != 0 ? "ldb" : "incy");
  if (!chk) return chk.status();
  if (rows == 0 || cols == 0) return TRNBLAS_STATUS_SUCCESS;
  if (ld_src < rows || ld_dst < rows)
    return fail(nullptr, fn, TRNBLAS_STATUS_MAPPING_ERROR, "a leading dimension is below the row count");
  if (src == nullptr || dst == nullptr) return fail(nullptr, fn, TRNBLAS_STATUS_MAPPING_ERROR, "NULL pointer");
  // Every byte offset (ld (cols - 1) + rows) * elem must be representable.
  const std::int64_t ext_src = trn::cshim::checked_extent(rows, cols, ld_src);
  const std::int64_t ext_dst = trn::cshim::checked_extent(rows, cols, ld_dst);
  if (ext_src < 0 || ext_dst < 0 || trn::cshim::checked_mul(ext_src, elem) < 0 ||
      trn::cshim::checked_mul(ext_dst, elem) < 0)
    return fail(nullptr, fn, TRNBLAS_STATUS_MAPPING_ERROR, "the copied extent is not addressable");
  const auto* s = static_cast<const unsigned char*>(src);
  auto* d = static_cast<unsigned char*>(dst);
  const auto run = static_cast<std::size_t>(rows * elem);
  for (std::int64_t j = 0; j < cols; ++j)
    std::memmove(d + j * ld_dst * elem, s + j * ld_src * elem, run);  // memmove: host buffers may overlap
  return TRNBLAS_STATUS_SUCCESS;
}

}  // namespace

extern "C" {

trnblasStatus_t trnblasGetProperty(libraryPropertyType type, int* value) {
  const int t = trn::cshim::enum_value(type);
  auto chk = arg_check(nullptr, "trnblasGetProperty");
  chk.one_of(t, {MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL}, 1, "type").not_null(value, 2, "value");
  if (!chk) return chk.status();
  *value = t == MAJOR_VERSION ? TRNBLAS_VER_MAJOR : t == MINOR_VERSION ? TRNBLAS_VER_MINOR : TRNBLAS_VER_PATCH;
  return TRNBLAS_STATUS_SUCCESS;
}

// Set/Get Vector and Matrix, each (+Async) (+_64): the same copy (host memory both ways).
#define TRNBLAS_COPY_ENTRIES(SUF, I)                                                                                   \
  trnblasStatus_t trnblasSetVector##SUF(I n, I elemSize, const void* x, I incx, void* y, I incy) {                     \
    return copy_matrix("trnblasSetVector" #SUF, kVectorPos, 1, n, elemSize, x, incx, y, incy);                         \
  }                                                                                                                    \
  trnblasStatus_t trnblasGetVector##SUF(I n, I elemSize, const void* x, I incx, void* y, I incy) {                     \
    return copy_matrix("trnblasGetVector" #SUF, kVectorPos, 1, n, elemSize, x, incx, y, incy);                         \
  }                                                                                                                    \
  trnblasStatus_t trnblasSetMatrix##SUF(I rows, I cols, I elemSize, const void* A, I lda, void* B, I ldb) {            \
    return copy_matrix("trnblasSetMatrix" #SUF, kMatrixPos, rows, cols, elemSize, A, lda, B, ldb);                     \
  }                                                                                                                    \
  trnblasStatus_t trnblasGetMatrix##SUF(I rows, I cols, I elemSize, const void* A, I lda, void* B, I ldb) {            \
    return copy_matrix("trnblasGetMatrix" #SUF, kMatrixPos, rows, cols, elemSize, A, lda, B, ldb);                     \
  }                                                                                                                    \
  trnblasStatus_t trnblasSetVectorAsync##SUF(I n, I elemSize, const void* x, I incx, void* y, I incy, trnStream_t) {   \
    return copy_matrix("trnblasSetVectorAsync" #SUF, kVectorPos, 1, n, elemSize, x, incx, y, incy);                    \
  }                                                                                                                    \
  trnblasStatus_t trnblasGetVectorAsync##SUF(I n, I elemSize, const void* x, I incx, void* y, I incy, trnStream_t) {   \
    return copy_matrix("trnblasGetVectorAsync" #SUF, kVectorPos, 1, n, elemSize, x, incx, y, incy);                    \
  }                                                                                                                    \
  trnblasStatus_t trnblasSetMatrixAsync##SUF(I rows, I cols, I elemSize, const void* A, I lda, void* B, I ldb,         \
                                             trnStream_t) {                                                            \
    return copy_matrix("trnblasSetMatrixAsync" #SUF, kMatrixPos, rows, cols, elemSize, A, lda, B, ldb);                \
  }                                                                                                                    \
  trnblasStatus_t trnblasGetMatrixAsync##SUF(I rows, I cols, I elemSize, const void* A, I lda, void* B, I ldb,         \
                                             trnStream_t) {                                                            \
    return copy_matrix("trnblasGetMatrixAsync" #SUF, kMatrixPos, rows, cols, elemSize, A, lda, B, ldb);                \
  }
TRNBLAS_COPY_ENTRIES(, int)
TRNBLAS_COPY_ENTRIES(_64, int64_t)
#undef TRNBLAS_COPY_ENTRIES

// rotg / rotmg take no size, so their _64 names are the same functions.
trnblasStatus_t trnblasSrotg_64(trnblasHandle_t h, float* a, float* b, float* c, float* s) {
  return trnblasSrotg(h, a, b, c, s);
}
trnblasStatus_t trnblasDrotg_64(trnblasHandle_t h, double* a, double* b, double* c, double* s) {
  return trnblasDrotg(h, a, b, c, s);
}
trnblasStatus_t trnblasCrotg_64(trnblasHandle_t h, trnComplex* a, trnComplex* b, float* c, trnComplex* s) {
  return trnblasCrotg(h, a, b, c, s);
}
trnblasStatus_t trnblasZrotg_64(trnblasHandle_t h, trnDoubleComplex* a, trnDoubleComplex* b, double* c,
                                trnDoubleComplex* s) {
  return trnblasZrotg(h, a, b, c, s);
}
trnblasStatus_t trnblasSrotmg_64(trnblasHandle_t h, float* d1, float* d2, float* x1, const float* y1, float* param) {
  return trnblasSrotmg(h, d1, d2, x1, y1, param);
}
trnblasStatus_t trnblasDrotmg_64(trnblasHandle_t h, double* d1, double* d2, double* x1, const double* y1,
                                 double* param) {
  return trnblasDrotmg(h, d1, d2, x1, y1, param);
}

}  // extern "C"
