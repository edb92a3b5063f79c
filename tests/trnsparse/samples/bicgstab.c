/*
 * SPDX-FileCopyrightText: Copyright (c) 1993-2022 NVIDIA CORPORATION & AFFILIATES. All rights reserved.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 * http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
/* Ported to trnsparse on host memory by tests/trnsparse/samples/port.py (bicgstab). */
#include "trnblas.h"
#include "trnsparse_samples_port.h"


#include <string.h> // strtok
#include <assert.h>

#if defined(NDEBUG)
#   define PRINT_INFO(var)
#else
#   define PRINT_INFO(var) printf("  " #var ": %f\n", var);
#endif

typedef struct VecStruct {
    trnsparseDnVecDescr_t vec;
    double*              ptr;
} Vec;

//==============================================================================

/// This code allocates. The caller must free.
void make_test_matrix(int * n_out,
                      int **row_offsets_out,
                      int **columns_out,
                      double **values_out) {
    int grid = 700; // grid resolution

    int n = grid * grid;
    *n_out = n;
    // vertices have 5 neighbors,
    // but each vertex on the boundary loses 1. corners lose 2.
    int nnz = 5 * n - 4 * grid;

    printf("Creating 5-point time-dependent advection-diffusion matrix.\n"
           " grid size: %d x %d\n"
           " matrix rows:   %d\n"
           " matrix cols:   %d\n"
           " nnz:         %d\n",
           grid, grid, n, n, nnz);

    int* row_offsets = *row_offsets_out = (int*)malloc((n + 1) * sizeof(int));
    int* columns     = *columns_out     = (int*)malloc(nnz * sizeof(int));
    double* values   = *values_out      = (double*)malloc(nnz * sizeof(double));
    assert(row_offsets);
    assert(columns);
    assert(values);

    double mass = 0.3; // extra diagonal/mass term
    double ux = 0.3;   // advection velocity
    double uy = 0.2;

    int it = 0; // next unused index into `columns`/`values`

#define INSERT(u, v, x)                   \
    if(0<=(u) && (u)<grid &&              \
       0<=(v) && (v)<grid)                \
    {                                     \
        columns[it] = ((u) * grid + (v)); \
        values[it] = (x);                 \
        ++it;                             \
    }

    int row = 0;
    row_offsets[row] = 0;
    for (int i = 0; i < grid; ++i) {
        for (int j = 0; j < grid; ++j)
        {
            // Upwinding, so 'ux' and 'uy' only affect the -i and -j directions.
            INSERT(i - 1, j    , -1.0 - ux);
            INSERT(i    , j - 1, -1.0 - uy);
            INSERT(i    , j    ,  4.0 + mass + ux + uy);
            INSERT(i    , j + 1, -1.0);
            INSERT(i + 1, j    , -1.0);
            row_offsets[++row] = it;
        }
    }
    assert(it == nnz);
#undef INSERT
}

//==============================================================================

int gpu_BiCGStab(trnblasHandle_t       trnblasHandle,
                 trnsparseHandle_t     trnsparseHandle,
                 int                  m,
                 trnsparseSpMatDescr_t matA,
                 trnsparseSpMatDescr_t matM_lower,
                 trnsparseSpMatDescr_t matM_upper,
                 Vec                  d_B,
                 Vec                  d_X,
                 Vec                  d_R0,
                 Vec                  d_R,
                 Vec                  d_P,
                 Vec                  d_P_aux,
                 Vec                  d_S,
                 Vec                  d_S_aux,
                 Vec                  d_V,
                 Vec                  d_T,
                 Vec                  d_tmp,
                 void*                d_bufferMV,
                 int                  maxIterations,
                 double               tolerance) {
    const double zero      = 0.0;
    const double one       = 1.0;
    const double minus_one = -1.0;
    //--------------------------------------------------------------------------
    // Create opaque data structures that holds analysis data between calls
    double              coeff_tmp;
    size_t              bufferSizeL, bufferSizeU;
    void*               d_bufferL, *d_bufferU;
    trnsparseSpSVDescr_t spsvDescrL, spsvDescrU;
    CHECK_TRNSPARSE( trnsparseSpSV_createDescr(&spsvDescrL) )
    CHECK_TRNSPARSE( trnsparseSpSV_bufferSize(
                        trnsparseHandle, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                        &coeff_tmp, matM_lower, d_P.vec, d_tmp.vec, TRN_R_64F,
                        TRNSPARSE_SPSV_ALG_DEFAULT, spsvDescrL, &bufferSizeL) )
    CHECK_PORT( port_malloc(&d_bufferL, bufferSizeL) )
    CHECK_TRNSPARSE( trnsparseSpSV_analysis(
                        trnsparseHandle, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                        &coeff_tmp, matM_lower, d_P.vec, d_tmp.vec, TRN_R_64F,
                        TRNSPARSE_SPSV_ALG_DEFAULT, spsvDescrL, d_bufferL) )

    // Calculate UPPER buffersize
    CHECK_TRNSPARSE( trnsparseSpSV_createDescr(&spsvDescrU) )
    CHECK_TRNSPARSE( trnsparseSpSV_bufferSize(
                        trnsparseHandle, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                        &coeff_tmp, matM_upper, d_tmp.vec, d_P_aux.vec,
                        TRN_R_64F, TRNSPARSE_SPSV_ALG_DEFAULT, spsvDescrU,
                        &bufferSizeU) )
    CHECK_PORT( port_malloc(&d_bufferU, bufferSizeU) )
    CHECK_TRNSPARSE( trnsparseSpSV_analysis(
                        trnsparseHandle, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                        &coeff_tmp, matM_upper, d_tmp.vec, d_P_aux.vec,
                        TRN_R_64F, TRNSPARSE_SPSV_ALG_DEFAULT, spsvDescrU,
                        d_bufferU) )
    //--------------------------------------------------------------------------
    // ### 1 ### R0 = b - A * X0 (using initial guess in X)
    //    (a) copy b in R0
    CHECK_PORT( port_memcpy(d_R0.ptr, d_B.ptr, m * sizeof(double),
                           PORT_DEVICE_TO_DEVICE) )
    //    (b) compute R = -A * X0 + R
    CHECK_TRNSPARSE( trnsparseSpMV(trnsparseHandle,
                                 TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                 &minus_one, matA, d_X.vec, &one, d_R0.vec,
                                 TRN_R_64F, TRNSPARSE_SPMV_ALG_DEFAULT,
                                 d_bufferMV) )
    //--------------------------------------------------------------------------
    double alpha, delta, delta_prev, omega;
    CHECK_TRNBLAS( trnblasDdot(trnblasHandle, m, d_R0.ptr, 1, d_R0.ptr, 1,
                             &delta) )
    delta_prev = delta;
    // R = R0
    CHECK_PORT( port_memcpy(d_R.ptr, d_R0.ptr, m * sizeof(double),
                           PORT_DEVICE_TO_DEVICE) )
    //--------------------------------------------------------------------------
    // nrm_R0 = ||R||
    double nrm_R;
    CHECK_TRNBLAS( trnblasDnrm2(trnblasHandle, m, d_R0.ptr, 1, &nrm_R) )
    double threshold = tolerance * nrm_R;
    printf("  Initial Residual: Norm %e' threshold %e\n", nrm_R, threshold);
    //--------------------------------------------------------------------------
    // ### 2 ### repeat until convergence based on max iterations and
    //           and relative residual
    for (int i = 1; i <= maxIterations; i++) {
        printf("  Iteration = %d; Error Norm = %e\n", i, nrm_R);
        //----------------------------------------------------------------------
        // ### 4, 7 ### P_i = R_i
        if (i == 1) {
            CHECK_PORT(port_memcpy(d_P.ptr, d_R.ptr, m * sizeof(double),
                                  PORT_DEVICE_TO_DEVICE))
        }
        else {
            //------------------------------------------------------------------
            // ### 6 ### beta = (delta_i / delta_i-1) * (alpha / omega_i-1)
            //    (a) delta_i = (R'_0, R_i-1)
            CHECK_TRNBLAS( trnblasDdot(trnblasHandle, m, d_R0.ptr, 1, d_R.ptr, 1,
                                     &delta) )
            //    (b) beta = (delta_i / delta_i-1) * (alpha / omega_i-1);
            double beta = (delta / delta_prev) * (alpha / omega);
            delta_prev  = delta;
            //------------------------------------------------------------------
            // ### 7 ### P = R + beta * (P - omega * V)
            //    (a) P = - omega * V + P
            double minus_omega = -omega;
            CHECK_TRNBLAS( trnblasDaxpy(trnblasHandle, m, &minus_omega, d_V.ptr, 1,
                                      d_P.ptr, 1) )
            //    (b) P = beta * P
            CHECK_TRNBLAS( trnblasDscal(trnblasHandle, m, &beta, d_P.ptr, 1) )
            //    (c) P = R + P
            CHECK_TRNBLAS( trnblasDaxpy(trnblasHandle, m, &one, d_R.ptr, 1,
                                      d_P.ptr, 1) )
        }
        //----------------------------------------------------------------------
        // ### 9 ### P_aux = M_U^-1 M_L^-1 P_i
        //    (a) M_L^-1 P_i => tmp    (triangular solver)
        CHECK_PORT( port_memset(d_tmp.ptr,   0x0, m * sizeof(double)) )
        CHECK_PORT( port_memset(d_P_aux.ptr, 0x0, m * sizeof(double)) )
        CHECK_TRNSPARSE( trnsparseSpSV_solve(trnsparseHandle,
                                           TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                           &one, matM_lower, d_P.vec, d_tmp.vec,
                                           TRN_R_64F,
                                           TRNSPARSE_SPSV_ALG_DEFAULT,
                                           spsvDescrL) )
        //    (b) M_U^-1 tmp => P_aux    (triangular solver)
        CHECK_TRNSPARSE( trnsparseSpSV_solve(trnsparseHandle,
                                           TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                           &one, matM_upper, d_tmp.vec,
                                           d_P_aux.vec, TRN_R_64F,
                                           TRNSPARSE_SPSV_ALG_DEFAULT,
                                           spsvDescrU) )
        //----------------------------------------------------------------------
        // ### 10 ### alpha = (R'0, R_i-1) / (R'0, A * P_aux)
        //    (a) V = A * P_aux
        CHECK_TRNSPARSE( trnsparseSpMV(trnsparseHandle,
                                     TRNSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                     matA, d_P_aux.vec, &zero, d_V.vec,
                                     TRN_R_64F, TRNSPARSE_SPMV_ALG_DEFAULT,
                                     d_bufferMV) )
        //    (b) denominator = R'0 * V
        double denominator;
        CHECK_TRNBLAS( trnblasDdot(trnblasHandle, m, d_R0.ptr, 1, d_V.ptr, 1,
                                 &denominator) )
        alpha = delta / denominator;
        PRINT_INFO(delta)
        PRINT_INFO(alpha)
        //----------------------------------------------------------------------
        // ### 11 ###  X_i = X_i-1 + alpha * P_aux
        CHECK_TRNBLAS( trnblasDaxpy(trnblasHandle, m, &alpha, d_P_aux.ptr, 1,
                                  d_X.ptr, 1) )
        //----------------------------------------------------------------------
        // ### 12 ###  S = R_i-1 - alpha * (A * P_aux)
        //    (a) S = R_i-1
        CHECK_PORT( port_memcpy(d_S.ptr, d_R.ptr, m * sizeof(double),
                               PORT_DEVICE_TO_DEVICE) )
        //    (b) S = -alpha * V + R_i-1
        double minus_alpha = -alpha;
        CHECK_TRNBLAS( trnblasDaxpy(trnblasHandle, m, &minus_alpha, d_V.ptr, 1,
                                  d_S.ptr, 1) )
        //----------------------------------------------------------------------
        // ### 13 ###  check ||S|| < threshold
        double nrm_S;
        CHECK_TRNBLAS( trnblasDnrm2(trnblasHandle, m, d_S.ptr, 1, &nrm_S) )
        PRINT_INFO(nrm_S)
        if (nrm_S < threshold)
            break;
        //----------------------------------------------------------------------
        // ### 14 ### S_aux = M_U^-1 M_L^-1 S
        //    (a) M_L^-1 S => tmp    (triangular solver)
        port_memset(d_tmp.ptr, 0x0, m * sizeof(double));
        port_memset(d_S_aux.ptr, 0x0, m * sizeof(double));
        CHECK_TRNSPARSE( trnsparseSpSV_solve(trnsparseHandle,
                                           TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                           &one, matM_lower, d_S.vec, d_tmp.vec,
                                           TRN_R_64F,
                                           TRNSPARSE_SPSV_ALG_DEFAULT,
                                           spsvDescrL) )
        //    (b) M_U^-1 tmp => S_aux    (triangular solver)
        CHECK_TRNSPARSE( trnsparseSpSV_solve(trnsparseHandle,
                                           TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                           &one, matM_upper, d_tmp.vec,
                                           d_S_aux.vec, TRN_R_64F,
                                           TRNSPARSE_SPSV_ALG_DEFAULT,
                                           spsvDescrU))
        //----------------------------------------------------------------------
        // ### 15 ### omega = (A * S_aux, s) / (A * S_aux, A * S_aux)
        //    (a) T = A * S_aux
        CHECK_TRNSPARSE( trnsparseSpMV(trnsparseHandle,
                                     TRNSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                     matA, d_S_aux.vec, &zero, d_T.vec,
                                     TRN_R_64F, TRNSPARSE_SPMV_ALG_DEFAULT,
                                     d_bufferMV) )
        //    (b) omega_num = (A * S_aux, s)
        double omega_num, omega_den;
        CHECK_TRNBLAS( trnblasDdot(trnblasHandle, m, d_T.ptr, 1, d_S.ptr, 1,
                                 &omega_num) )
        //    (c) omega_den = (A * S_aux, A * S_aux)
        CHECK_TRNBLAS( trnblasDdot(trnblasHandle, m, d_T.ptr, 1, d_T.ptr, 1,
                                 &omega_den) )
        //    (d) omega = omega_num / omega_den
        omega = omega_num / omega_den;
        PRINT_INFO(omega)
        // ---------------------------------------------------------------------
        // ### 16 ### omega = X_i = X_i-1 + alpha * P_aux + omega * S_aux
        //    (a) X_i has been updated with h = X_i-1 + alpha * P_aux
        //        X_i = omega * S_aux + X_i
        CHECK_TRNBLAS( trnblasDaxpy(trnblasHandle, m, &omega, d_S_aux.ptr, 1,
                                  d_X.ptr, 1) )
        // ---------------------------------------------------------------------
        // ### 17 ###  R_i+1 = S - omega * (A * S_aux)
        //    (a) copy S in R
        CHECK_PORT( port_memcpy(d_R.ptr, d_S.ptr, m * sizeof(double),
                               PORT_DEVICE_TO_DEVICE) )
        //    (a) R_i+1 = -omega * T + R
        double minus_omega = -omega;
        CHECK_TRNBLAS( trnblasDaxpy(trnblasHandle, m, &minus_omega, d_T.ptr, 1,
                                  d_R.ptr, 1) )
       // ---------------------------------------------------------------------
        // ### 18 ###  check ||R_i|| < threshold
        CHECK_TRNBLAS( trnblasDnrm2(trnblasHandle, m, d_R.ptr, 1, &nrm_R) )
        PRINT_INFO(nrm_R)
        if (nrm_R < threshold)
            break;
    }
    //--------------------------------------------------------------------------
    printf("Check Solution\n"); // ||R = b - A * X||
    //    (a) copy b in R
    CHECK_PORT( port_memcpy(d_R.ptr, d_B.ptr, m * sizeof(double),
                           PORT_DEVICE_TO_DEVICE) )
    // R = -A * X + R
    CHECK_TRNSPARSE( trnsparseSpMV(trnsparseHandle,
                                 TRNSPARSE_OPERATION_NON_TRANSPOSE, &minus_one,
                                 matA, d_X.vec, &one, d_R.vec, TRN_R_64F,
                                 TRNSPARSE_SPMV_ALG_DEFAULT, d_bufferMV) )
    // check ||R||
    CHECK_TRNBLAS( trnblasDnrm2(trnblasHandle, m, d_R.ptr, 1, &nrm_R) )
    printf("Final error norm = %e\n", nrm_R);
    //--------------------------------------------------------------------------
    CHECK_TRNSPARSE( trnsparseSpSV_destroyDescr(spsvDescrL) )
    CHECK_TRNSPARSE( trnsparseSpSV_destroyDescr(spsvDescrU) )
    CHECK_PORT( port_free(d_bufferL) )
    CHECK_PORT( port_free(d_bufferU) )
    return EXIT_SUCCESS;
}

//==============================================================================
//==============================================================================

static int sample_main(int argc, char** argv) {
    const int    maxIterations = 100;
    const double tolerance     = 0.0000000001;
    if (argc != 1) {
        printf("Wrong number of command line arguments. bicgstab_example accepts no arguments.\n");
        return EXIT_FAILURE;
    }
    int     base        = 0;
    int     m           = -1;
    int*    h_A_rows    = NULL;
    int*    h_A_columns = NULL;
    double* h_A_values  = NULL;
    make_test_matrix(&m, &h_A_rows, &h_A_columns, &h_A_values);
    int num_offsets = m + 1;
    int nnz = h_A_rows[m];
    double* h_X = (double*)malloc(m * sizeof(double));

    printf("Testing BiCGStab\n");
    for (int i = 0; i < m; i++)
        h_X[i] = 1.0;
    //--------------------------------------------------------------------------
    // ### Device memory management ###
    int*    d_A_rows, *d_A_columns;
    double* d_A_values, *d_M_values;
    Vec     d_B, d_X, d_R, d_R0, d_P, d_P_aux, d_S, d_S_aux, d_V, d_T, d_tmp;

    // allocate device memory for CSR matrices
    CHECK_PORT( port_malloc((void**) &d_A_rows,    num_offsets * sizeof(int)) )
    CHECK_PORT( port_malloc((void**) &d_A_columns, nnz * sizeof(int)) )
    CHECK_PORT( port_malloc((void**) &d_A_values,  nnz * sizeof(double)) )
    CHECK_PORT( port_malloc((void**) &d_M_values,  nnz * sizeof(double)) )

    CHECK_PORT( port_malloc((void**) &d_B.ptr,     m * sizeof(double)) )
    CHECK_PORT( port_malloc((void**) &d_X.ptr,     m * sizeof(double)) )
    CHECK_PORT( port_malloc((void**) &d_R.ptr,     m * sizeof(double)) )
    CHECK_PORT( port_malloc((void**) &d_R0.ptr,    m * sizeof(double)) )
    CHECK_PORT( port_malloc((void**) &d_P.ptr,     m * sizeof(double)) )
    CHECK_PORT( port_malloc((void**) &d_P_aux.ptr, m * sizeof(double)) )
    CHECK_PORT( port_malloc((void**) &d_S.ptr,     m * sizeof(double)) )
    CHECK_PORT( port_malloc((void**) &d_S_aux.ptr, m * sizeof(double)) )
    CHECK_PORT( port_malloc((void**) &d_V.ptr,     m * sizeof(double)) )
    CHECK_PORT( port_malloc((void**) &d_T.ptr,     m * sizeof(double)) )
    CHECK_PORT( port_malloc((void**) &d_tmp.ptr,   m * sizeof(double)) )

    // copy the CSR matrices and vectors into device memory
    CHECK_PORT( port_memcpy(d_A_rows, h_A_rows, num_offsets * sizeof(int),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(d_A_columns, h_A_columns, nnz *  sizeof(int),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(d_A_values, h_A_values, nnz * sizeof(double),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(d_M_values, h_A_values, nnz * sizeof(double),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(d_X.ptr, h_X, m * sizeof(double),
                           PORT_HOST_TO_DEVICE) )
    //--------------------------------------------------------------------------
    // ### cuSPARSE Handle and descriptors initialization ###
    // create the test matrix on the host
    trnblasHandle_t   trnblasHandle   = NULL;
    trnsparseHandle_t trnsparseHandle = NULL;
    CHECK_TRNBLAS( trnblasCreate(&trnblasHandle) )
    CHECK_TRNSPARSE( trnsparseCreate(&trnsparseHandle) )
    // Create dense vectors
    CHECK_TRNSPARSE( trnsparseCreateDnVec(&d_B.vec,     m, d_B.ptr, TRN_R_64F) )
    CHECK_TRNSPARSE( trnsparseCreateDnVec(&d_X.vec,     m, d_X.ptr, TRN_R_64F) )
    CHECK_TRNSPARSE( trnsparseCreateDnVec(&d_R.vec,     m, d_R.ptr, TRN_R_64F) )
    CHECK_TRNSPARSE( trnsparseCreateDnVec(&d_R0.vec,    m, d_R0.ptr, TRN_R_64F) )
    CHECK_TRNSPARSE( trnsparseCreateDnVec(&d_P.vec,     m, d_P.ptr, TRN_R_64F) )
    CHECK_TRNSPARSE( trnsparseCreateDnVec(&d_P_aux.vec, m, d_P_aux.ptr,
                                        TRN_R_64F) )
    CHECK_TRNSPARSE( trnsparseCreateDnVec(&d_S.vec,     m, d_S.ptr, TRN_R_64F) )
    CHECK_TRNSPARSE( trnsparseCreateDnVec(&d_S_aux.vec, m, d_S_aux.ptr,
                                        TRN_R_64F) )
    CHECK_TRNSPARSE( trnsparseCreateDnVec(&d_V.vec,   m, d_V.ptr,   TRN_R_64F) )
    CHECK_TRNSPARSE( trnsparseCreateDnVec(&d_T.vec,   m, d_T.ptr,   TRN_R_64F) )
    CHECK_TRNSPARSE( trnsparseCreateDnVec(&d_tmp.vec, m, d_tmp.ptr, TRN_R_64F) )

    trnsparseIndexBase_t  baseIdx = TRNSPARSE_INDEX_BASE_ZERO;
    // IMPORTANT: Upper/Lower triangular decompositions of A
    //            (matM_lower, matM_upper) must use two distinct descriptors
    trnsparseSpMatDescr_t matA, matM_lower, matM_upper;
    trnsparseMatDescr_t   matLU;
    int*                 d_M_rows      = d_A_rows;
    int*                 d_M_columns   = d_A_columns;
    trnsparseFillMode_t   fill_lower    = TRNSPARSE_FILL_MODE_LOWER;
    trnsparseDiagType_t   diag_unit     = TRNSPARSE_DIAG_TYPE_UNIT;
    trnsparseFillMode_t   fill_upper    = TRNSPARSE_FILL_MODE_UPPER;
    trnsparseDiagType_t   diag_non_unit = TRNSPARSE_DIAG_TYPE_NON_UNIT;
    // A
    CHECK_TRNSPARSE( trnsparseCreateCsr(&matA, m, m, nnz, d_A_rows,
                                      d_A_columns, d_A_values,
                                      TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                      baseIdx, TRN_R_64F) )
    // M_lower
    CHECK_TRNSPARSE( trnsparseCreateCsr(&matM_lower, m, m, nnz, d_M_rows,
                                      d_M_columns, d_M_values,
                                      TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                      baseIdx, TRN_R_64F) )
    CHECK_TRNSPARSE( trnsparseSpMatSetAttribute(matM_lower,
                                              TRNSPARSE_SPMAT_FILL_MODE,
                                              &fill_lower, sizeof(fill_lower)) )
    CHECK_TRNSPARSE( trnsparseSpMatSetAttribute(matM_lower,
                                              TRNSPARSE_SPMAT_DIAG_TYPE,
                                              &diag_unit, sizeof(diag_unit)) )
    // M_upper
    CHECK_TRNSPARSE( trnsparseCreateCsr(&matM_upper, m, m, nnz, d_M_rows,
                                      d_M_columns, d_M_values,
                                      TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                      baseIdx, TRN_R_64F) )
    CHECK_TRNSPARSE( trnsparseSpMatSetAttribute(matM_upper,
                                              TRNSPARSE_SPMAT_FILL_MODE,
                                              &fill_upper, sizeof(fill_upper)) )
    CHECK_TRNSPARSE( trnsparseSpMatSetAttribute(matM_upper,
                                              TRNSPARSE_SPMAT_DIAG_TYPE,
                                              &diag_non_unit,
                                              sizeof(diag_non_unit)) )
    //--------------------------------------------------------------------------
    // ### Preparation ### b = A * X
    const double alpha = 0.75;
    size_t bufferSizeMV;
    void*  d_bufferMV;
    double beta = 0.0;
    CHECK_TRNSPARSE( trnsparseSpMV_bufferSize(
                        trnsparseHandle, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                        &alpha, matA, d_X.vec, &beta, d_B.vec, TRN_R_64F,
                        TRNSPARSE_SPMV_ALG_DEFAULT, &bufferSizeMV) )
    CHECK_PORT( port_malloc(&d_bufferMV, bufferSizeMV) )

    CHECK_TRNSPARSE( trnsparseSpMV(
                        trnsparseHandle, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                        &alpha, matA, d_X.vec, &beta, d_B.vec, TRN_R_64F,
                        TRNSPARSE_SPMV_ALG_DEFAULT, d_bufferMV) )
    // X0 = 0
    CHECK_PORT( port_memset(d_X.ptr, 0x0, m * sizeof(double)) )
    //--------------------------------------------------------------------------
    // Perform Incomplete-LU factorization of A (csrilu0) -> M_lower, M_upper
    csrilu02Info_t infoM        = NULL;
    int            bufferSizeLU = 0;
    void*          d_bufferLU;
    CHECK_TRNSPARSE( trnsparseCreateMatDescr(&matLU) )
    CHECK_TRNSPARSE( trnsparseSetMatType(matLU, TRNSPARSE_MATRIX_TYPE_GENERAL) )
    CHECK_TRNSPARSE( trnsparseSetMatIndexBase(matLU, baseIdx) )
    CHECK_TRNSPARSE( trnsparseCreateCsrilu02Info(&infoM) )

    CHECK_TRNSPARSE( trnsparseDcsrilu02_bufferSize(
                        trnsparseHandle, m, nnz, matLU, d_M_values,
                        d_A_rows, d_A_columns, infoM, &bufferSizeLU) )
    CHECK_PORT( port_malloc(&d_bufferLU, bufferSizeLU) )
    CHECK_TRNSPARSE( trnsparseDcsrilu02_analysis(
                        trnsparseHandle, m, nnz, matLU, d_M_values,
                        d_A_rows, d_A_columns, infoM,
                        TRNSPARSE_SOLVE_POLICY_USE_LEVEL, d_bufferLU) )
    int structural_zero;
    CHECK_TRNSPARSE( trnsparseXcsrilu02_zeroPivot(trnsparseHandle, infoM,
                                                &structural_zero) )
    // M = L * U
    CHECK_TRNSPARSE( trnsparseDcsrilu02(
                        trnsparseHandle, m, nnz, matLU, d_M_values,
                        d_A_rows, d_A_columns, infoM,
                        TRNSPARSE_SOLVE_POLICY_USE_LEVEL, d_bufferLU) )
    // Find numerical zero
    int numerical_zero;
    CHECK_TRNSPARSE( trnsparseXcsrilu02_zeroPivot(trnsparseHandle, infoM,
                                                &numerical_zero) )

    CHECK_TRNSPARSE( trnsparseDestroyCsrilu02Info(infoM) )
    CHECK_TRNSPARSE( trnsparseDestroyMatDescr(matLU) )
    CHECK_PORT( port_free(d_bufferLU) )
    //--------------------------------------------------------------------------
    // ### Run BiCGStab computation ###
    printf("BiCGStab loop:\n");
    gpu_BiCGStab(trnblasHandle, trnsparseHandle, m,
                 matA, matM_lower, matM_upper,
                 d_B, d_X, d_R0, d_R, d_P, d_P_aux, d_S, d_S_aux, d_V, d_T,
                 d_tmp, d_bufferMV, maxIterations, tolerance);
    //--------------------------------------------------------------------------
    // ### Free resources ###
    CHECK_TRNSPARSE( trnsparseDestroyDnVec(d_B.vec) )
    CHECK_TRNSPARSE( trnsparseDestroyDnVec(d_X.vec) )
    CHECK_TRNSPARSE( trnsparseDestroyDnVec(d_R.vec) )
    CHECK_TRNSPARSE( trnsparseDestroyDnVec(d_R0.vec) )
    CHECK_TRNSPARSE( trnsparseDestroyDnVec(d_P.vec) )
    CHECK_TRNSPARSE( trnsparseDestroyDnVec(d_P_aux.vec) )
    CHECK_TRNSPARSE( trnsparseDestroyDnVec(d_S.vec) )
    CHECK_TRNSPARSE( trnsparseDestroyDnVec(d_S_aux.vec) )
    CHECK_TRNSPARSE( trnsparseDestroyDnVec(d_V.vec) )
    CHECK_TRNSPARSE( trnsparseDestroyDnVec(d_T.vec) )
    CHECK_TRNSPARSE( trnsparseDestroyDnVec(d_tmp.vec) )
    CHECK_TRNSPARSE( trnsparseDestroySpMat(matA) )
    CHECK_TRNSPARSE( trnsparseDestroySpMat(matM_lower) )
    CHECK_TRNSPARSE( trnsparseDestroySpMat(matM_upper) )
    CHECK_TRNSPARSE( trnsparseDestroy(trnsparseHandle) )
    CHECK_TRNBLAS( trnblasDestroy(trnblasHandle) )

    free(h_A_rows);
    free(h_A_columns);
    free(h_A_values);
    free(h_X);

    CHECK_PORT( port_free(d_X.ptr) )
    CHECK_PORT( port_free(d_B.ptr) )
    CHECK_PORT( port_free(d_R.ptr) )
    CHECK_PORT( port_free(d_R0.ptr) )
    CHECK_PORT( port_free(d_P.ptr) )
    CHECK_PORT( port_free(d_P_aux.ptr) )
    CHECK_PORT( port_free(d_S.ptr) )
    CHECK_PORT( port_free(d_S_aux.ptr) )
    CHECK_PORT( port_free(d_V.ptr) )
    CHECK_PORT( port_free(d_T.ptr) )
    CHECK_PORT( port_free(d_tmp.ptr) )
    CHECK_PORT( port_free(d_A_values) )
    CHECK_PORT( port_free(d_A_columns) )
    CHECK_PORT( port_free(d_A_rows) )
    CHECK_PORT( port_free(d_M_values) )
    CHECK_PORT( port_free(d_bufferMV) )
    return EXIT_SUCCESS;
}

int trnsparse_sample_bicgstab(void) {
    char program[] = "bicgstab_example";
    char* argv[] = {program, NULL};
    return sample_main(1, argv);
}
