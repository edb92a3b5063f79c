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
/* Ported to trnsparse on host memory by tests/trnsparse/samples/port.py (spmm_csr). */
#include "trnsparse_samples_port.h"


int trnsparse_sample_spmm_csr(void) {
    // Host problem definition
    int   A_num_rows      = 4;
    int   A_num_cols      = 4;
    int   A_nnz           = 9;
    int   B_num_rows      = A_num_cols;
    int   B_num_cols      = 3;
    int   ldb             = B_num_rows;
    int   ldc             = A_num_rows;
    int   B_size          = ldb * B_num_cols;
    int   C_size          = ldc * B_num_cols;
    int   hA_csrOffsets[] = { 0, 3, 4, 7, 9 };
    int   hA_columns[]    = { 0, 2, 3, 1, 0, 2, 3, 1, 3 };
    float hA_values[]     = { 1.0f, 2.0f, 3.0f, 4.0f, 5.0f,
                              6.0f, 7.0f, 8.0f, 9.0f };
    float hB[]            = { 1.0f,  2.0f,  3.0f,  4.0f,
                              5.0f,  6.0f,  7.0f,  8.0f,
                              9.0f, 10.0f, 11.0f, 12.0f };
    float hC[]            = { 0.0f, 0.0f, 0.0f, 0.0f,
                              0.0f, 0.0f, 0.0f, 0.0f,
                              0.0f, 0.0f, 0.0f, 0.0f };
    float hC_result[]     = { 19.0f,  8.0f,  51.0f,  52.0f,
                              43.0f, 24.0f, 123.0f, 120.0f,
                              67.0f, 40.0f, 195.0f, 188.0f };
    float alpha           = 1.0f;
    float beta            = 0.0f;
    //--------------------------------------------------------------------------
    // Device memory management
    int   *dA_csrOffsets, *dA_columns;
    float *dA_values, *dB, *dC;
    CHECK_PORT( port_malloc((void**) &dA_csrOffsets,
                           (A_num_rows + 1) * sizeof(int)) )
    CHECK_PORT( port_malloc((void**) &dA_columns, A_nnz * sizeof(int))    )
    CHECK_PORT( port_malloc((void**) &dA_values,  A_nnz * sizeof(float))  )
    CHECK_PORT( port_malloc((void**) &dB,         B_size * sizeof(float)) )
    CHECK_PORT( port_malloc((void**) &dC,         C_size * sizeof(float)) )

    CHECK_PORT( port_memcpy(dA_csrOffsets, hA_csrOffsets,
                           (A_num_rows + 1) * sizeof(int),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dA_columns, hA_columns, A_nnz * sizeof(int),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dA_values, hA_values, A_nnz * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dB, hB, B_size * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dC, hC, C_size * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    //--------------------------------------------------------------------------
    // TRNSPARSE APIs
    trnsparseHandle_t     handle = NULL;
    trnsparseSpMatDescr_t matA;
    trnsparseDnMatDescr_t matB, matC;
    void*                dBuffer    = NULL;
    size_t               bufferSize = 0;
    CHECK_TRNSPARSE( trnsparseCreate(&handle) )
    // Create sparse matrix A in CSR format
    CHECK_TRNSPARSE( trnsparseCreateCsr(&matA, A_num_rows, A_num_cols, A_nnz,
                                      dA_csrOffsets, dA_columns, dA_values,
                                      TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                      TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F) )
    // Create dense matrix B
    CHECK_TRNSPARSE( trnsparseCreateDnMat(&matB, A_num_cols, B_num_cols, ldb, dB,
                                        TRN_R_32F, TRNSPARSE_ORDER_COL) )
    // Create dense matrix C
    CHECK_TRNSPARSE( trnsparseCreateDnMat(&matC, A_num_rows, B_num_cols, ldc, dC,
                                        TRN_R_32F, TRNSPARSE_ORDER_COL) )
    // allocate an external buffer if needed
    CHECK_TRNSPARSE( trnsparseSpMM_bufferSize(
                                 handle,
                                 TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                 TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                 &alpha, matA, matB, &beta, matC, TRN_R_32F,
                                 TRNSPARSE_SPMM_ALG_DEFAULT, &bufferSize) )
    CHECK_PORT( port_malloc(&dBuffer, bufferSize) )

    // execute preprocess (optional)
    CHECK_TRNSPARSE( trnsparseSpMM_preprocess(
                                 handle,
                                 TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                 TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                 &alpha, matA, matB, &beta, matC, TRN_R_32F,
                                 TRNSPARSE_SPMM_ALG_DEFAULT, dBuffer) )

    // execute SpMM
    CHECK_TRNSPARSE( trnsparseSpMM(handle,
                                 TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                 TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                 &alpha, matA, matB, &beta, matC, TRN_R_32F,
                                 TRNSPARSE_SPMM_ALG_DEFAULT, dBuffer) )

    // destroy matrix/vector descriptors
    CHECK_TRNSPARSE( trnsparseDestroySpMat(matA) )
    CHECK_TRNSPARSE( trnsparseDestroyDnMat(matB) )
    CHECK_TRNSPARSE( trnsparseDestroyDnMat(matC) )
    CHECK_TRNSPARSE( trnsparseDestroy(handle) )
    //--------------------------------------------------------------------------
    // device result check
    CHECK_PORT( port_memcpy(hC, dC, C_size * sizeof(float),
                           PORT_DEVICE_TO_HOST) )
    int correct = 1;
    for (int i = 0; i < A_num_rows; i++) {
        for (int j = 0; j < B_num_cols; j++) {
            if (hC[i + j * ldc] != hC_result[i + j * ldc]) {
                correct = 0; // direct floating point comparison is not reliable
                break;
            }
        }
    }
    if (correct)
        printf("spmm_csr_example test PASSED\n");
    else
        printf("spmm_csr_example test FAILED: wrong result\n");
    //--------------------------------------------------------------------------
    // device memory deallocation
    CHECK_PORT( port_free(dBuffer) )
    CHECK_PORT( port_free(dA_csrOffsets) )
    CHECK_PORT( port_free(dA_columns) )
    CHECK_PORT( port_free(dA_values) )
    CHECK_PORT( port_free(dB) )
    CHECK_PORT( port_free(dC) )
    return EXIT_SUCCESS;
}