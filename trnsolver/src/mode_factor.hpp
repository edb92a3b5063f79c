// The factorisations of the mixed-precision refinement solvers (irs.cpp) with their TensorE
// updates in a lower GemmMode (fp32, tf32, fp16, bf16; fp32 PSUM, host panels as the public routines):
// complex LU (complex_factor.cpp; the public cgetrf is cgetrf_mode in fp32) and the S/C QR and its
// block-reflector application (geqrf.cpp; the public sgeqrf/cgeqrf/sormqr/cunmqr in fp32 mode).
#pragma once

#include <complex>
#include <cstdint>

#include "trn/blas/blas.hpp"
#include "trn/solver/solver.hpp"

namespace trn::solver::detail {

int cgetrf_mode(const Settings& s, blas::GemmMode mode, std::int64_t m, std::int64_t n, std::complex<float>* A,
                std::int64_t lda, int* ipiv, CallReport* report);

int geqrf_mode(const Settings& s, blas::GemmMode mode, std::int64_t m, std::int64_t n, float* A, std::int64_t lda,
               float* tau, CallReport* report);
int geqrf_mode(const Settings& s, blas::GemmMode mode, std::int64_t m, std::int64_t n, std::complex<float>* A,
               std::int64_t lda, std::complex<float>* tau, CallReport* report);
int ormqr_mode(const Settings& s, blas::GemmMode mode, bool left, bool trans, std::int64_t m, std::int64_t n,
               std::int64_t k, const float* A, std::int64_t lda, const float* tau, float* C, std::int64_t ldc,
               CallReport* report);
int ormqr_mode(const Settings& s, blas::GemmMode mode, bool left, bool trans, std::int64_t m, std::int64_t n,
               std::int64_t k, const std::complex<float>* A, std::int64_t lda, const std::complex<float>* tau,
               std::complex<float>* C, std::int64_t ldc, CallReport* report);

}  // namespace trn::solver::detail
