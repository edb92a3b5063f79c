// Downstream use of the installed package: one matmul on an emulated core, and the C header.
#include <trnblas.h>
#include <trncore.h>

#include <cstdio>
#include <trn/core/core.hpp>

int main() {
  trn::NeuronCore nc;
  const trn::Tile a = nc.sbuf().alloc(trn::DType::bf16, 4, {4});
  const trn::Tile b = nc.sbuf().alloc(trn::DType::bf16, 4, {4});
  const trn::Tile c = nc.psum().alloc(trn::DType::f32, 4, {4});
  nc.memset(a, 1.0f);
  nc.memset(b, 2.0f);
  nc.nc_matmul(c, a, b, false);
  const float v = trn::load_as_f32(trn::DType::f32, c.at(0, 0));
  // trnblas through its C API: C = A B with A = B = 2 I (2 x 2).
  trnblasHandle_t h = nullptr;
  float A[4] = {2, 0, 0, 2}, C[4] = {0, 0, 0, 0};
  const float one = 1.0f, zero = 0.0f;
  const bool blas_ok = trnblasCreate(&h) == TRNBLAS_STATUS_SUCCESS &&
                       trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, A, 2, A, 2, &zero, C, 2) ==
                           TRNBLAS_STATUS_SUCCESS &&
                       C[0] == 4.0f && C[1] == 0.0f && trnblasDestroy(h) == TRNBLAS_STATUS_SUCCESS;
  std::printf("consumer: %g (TRN_R_16BF=%d), trnblas %s\n", v, TRN_R_16BF, blas_ok ? "ok" : "FAILED");
  return v == 8.0f && TRN_R_16BF == 14 && blas_ok ? 0 : 1;
}
