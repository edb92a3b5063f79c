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
/* Ported to trnsparse on host memory by tests/trnsparse/samples/port.py (spsm_coo). */
#include "trnsparse_samples_port.h"


int trnsparse_sample_spsm_coo(void) {
    // Host problem definition
    const int A_num_rows      = 4;
    const int A_num_cols      = 4;
    const int A_nnz           = 9;
    const int nrhs            = 2;
    const int ldb             = A_num_cols;
    const int ldc             = A_num_rows;
    int       hA_coo_rows[] = { 0, 0, 0, 1, 2, 2, 2, 3, 3 };
    int       hA_coo_cols[] = { 0, 2, 3, 1, 0, 2, 3, 1, 3 };
    float     hA_values[]   = { 1.0f, 2.0f, 3.0f, 4.0f, 5.0f,
                                6.0f, 7.0f, 8.0f, 9.0f };
    float     hB[]            = { 1.0f, 8.0f, 23.0f, 52.0f,
                                  1.0f, 8.0f, 23.0f, 52.0f };
    float     hC[]            = { 0.0f, 0.0f, 0.0f, 0.0f,
                                  0.0f, 0.0f, 0.0f, 0.0f };
    float     hY_result[]     = { 1.0f, 2.0f, 3.0f, 4.0f,
                                  1.0f, 2.0f, 3.0f, 4.0f };
    float     alpha           = 1.0f;
    //--------------------------------------------------------------------------
    // Device memory management
    int   *dA_coo_rows, *dA_coo_cols;
    float *dA_values, *dB, *dC;
    CHECK_PORT( port_malloc((void**) &dA_coo_rows, A_nnz * sizeof(int))      )
    CHECK_PORT( port_malloc((void**) &dA_coo_cols, A_nnz * sizeof(int))      )
    CHECK_PORT( port_malloc((void**) &dA_values,   A_nnz * sizeof(float))    )
    CHECK_PORT( port_malloc((void**) &dB, nrhs * A_num_cols * sizeof(float)) )
    CHECK_PORT( port_malloc((void**) &dC, nrhs * A_num_rows * sizeof(float)) )

    CHECK_PORT( port_memcpy(dA_coo_rows, hA_coo_rows, A_nnz * sizeof(int),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dA_coo_cols, hA_coo_cols, A_nnz * sizeof(int),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dA_values, hA_values, A_nnz * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dB, hB, nrhs * A_num_cols * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dC, hC, nrhs * A_num_rows * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    //--------------------------------------------------------------------------
    // TRNSPARSE APIs
    trnsparseHandle_t     handle = NULL;
    trnsparseSpMatDescr_t matA;
    trnsparseDnMatDescr_t matB, matC;
    void*                dBuffer    = NULL;
    size_t               bufferSize = 0;
    trnsparseSpSMDescr_t  spsmDescr;
    CHECK_TRNSPARSE( trnsparseCreate(&handle) )
    // Create sparse matrix A in COO format
    CHECK_TRNSPARSE( trnsparseCreateCoo(&matA, A_num_rows, A_num_cols, A_nnz,
                                      dA_coo_rows, dA_coo_cols, dA_values,
                                      TRNSPARSE_INDEX_32I,
                                      TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F) )
    // Create dense vector X
    CHECK_TRNSPARSE( trnsparseCreateDnMat(&matB, A_num_cols, nrhs, ldb, dB,
                                        TRN_R_32F, TRNSPARSE_ORDER_COL) )
    // Create dense vector y
    CHECK_TRNSPARSE( trnsparseCreateDnMat(&matC, A_num_rows, nrhs, ldc, dC,
                                        TRN_R_32F, TRNSPARSE_ORDER_COL) )
    // Create opaque data structure, that holds analysis data between calls.
    CHECK_TRNSPARSE( trnsparseSpSM_createDescr(&spsmDescr) )
    // Specify Lower|Upper fill mode.
    trnsparseFillMode_t fillmode = TRNSPARSE_FILL_MODE_LOWER;
    CHECK_TRNSPARSE( trnsparseSpMatSetAttribute(matA, TRNSPARSE_SPMAT_FILL_MODE,
                                              &fillmode, sizeof(fillmode)) )
    // Specify Unit|Non-Unit diagonal type.
    trnsparseDiagType_t diagtype = TRNSPARSE_DIAG_TYPE_NON_UNIT;
    CHECK_TRNSPARSE( trnsparseSpMatSetAttribute(matA, TRNSPARSE_SPMAT_DIAG_TYPE,
                                              &diagtype, sizeof(diagtype)) )
    // allocate an external buffer for analysis
    CHECK_TRNSPARSE( trnsparseSpSM_bufferSize(
                                handle, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                &alpha, matA, matB, matC, TRN_R_32F,
                                TRNSPARSE_SPSM_ALG_DEFAULT, spsmDescr,
                                &bufferSize) )
    CHECK_PORT( port_malloc(&dBuffer, bufferSize) )
    CHECK_TRNSPARSE( trnsparseSpSM_analysis(
                                handle, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                &alpha, matA, matB, matC, TRN_R_32F,
                                TRNSPARSE_SPSM_ALG_DEFAULT, spsmDescr, dBuffer) )
    // execute SpSM
    CHECK_TRNSPARSE( trnsparseSpSM_solve(handle, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                       TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                       &alpha, matA, matB, matC, TRN_R_32F,
                                       TRNSPARSE_SPSM_ALG_DEFAULT, spsmDescr) )

    // destroy matrix/vector descriptors
    CHECK_TRNSPARSE( trnsparseDestroySpMat(matA) )
    CHECK_TRNSPARSE( trnsparseDestroyDnMat(matB) )
    CHECK_TRNSPARSE( trnsparseDestroyDnMat(matC) )
    CHECK_TRNSPARSE( trnsparseSpSM_destroyDescr(spsmDescr));
    CHECK_TRNSPARSE( trnsparseDestroy(handle) )
    //--------------------------------------------------------------------------
    // device result check
    CHECK_PORT( port_memcpy(hC, dC, nrhs * A_num_rows * sizeof(float),
                           PORT_DEVICE_TO_HOST) )
    int correct = 1;
    for (int i = 0; i < nrhs * A_num_rows; i++) {
        if (hC[i] != hY_result[i]) { // direct floating point comparison is not
            correct = 0;             // reliable
            break;
        }
    }
    if (correct)
        printf("spsm_coo_example test PASSED\n");
    else
        printf("spsm_coo_example test FAILED: wrong result\n");
    //--------------------------------------------------------------------------
    // device memory deallocation
    CHECK_PORT( port_free(dBuffer) )
    CHECK_PORT( port_free(dA_coo_rows) )
    CHECK_PORT( port_free(dA_coo_cols) )
    CHECK_PORT( port_free(dA_values) )
    CHECK_PORT( port_free(dB) )
    CHECK_PORT( port_free(dC) )
    return EXIT_SUCCESS;
}