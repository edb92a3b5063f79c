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
/* Ported to trnsparse on host memory by tests/trnsparse/samples/port.py (sddmm_csr_batched). */
#include "trnsparse_samples_port.h"


int trnsparse_sample_sddmm_csr_batched(void) {
    // Host problem definition
    int   A_num_rows   = 4;
    int   A_num_cols   = 4;
    int   B_num_rows   = A_num_cols;
    int   B_num_cols   = 3;
    int   C_nnz        = 9;
    int   lda          = A_num_cols;
    int   ldb          = B_num_cols;
    int   A_size       = lda * A_num_rows;
    int   B_size       = ldb * B_num_rows;
    int   num_batches  = 2;

    float hA1[]        = { 1.0f,   2.0f,  3.0f,  4.0f,
                           5.0f,   6.0f,  7.0f,  8.0f,
                           9.0f,  10.0f, 11.0f, 12.0f,
                           13.0f, 14.0f, 15.0f, 16.0f };
    float hA2[]        = { 10.0f,   11.0f,  12.0f,  13.0f,
                           14.0f,   15.0f,  16.0f,  17.0f,
                           18.0f,   19.0f,  20.0f,  21.0f,
                           22.0f,   23.0f,  24.0f,  25.0f };
    float hB1[]        = {  1.0f,  2.0f,  3.0f,
                            4.0f,  5.0f,  6.0f,
                            7.0f,  8.0f,  9.0f,
                            10.0f, 11.0f, 12.0f };
    float hB2[]        = {  6.0f,  4.0f,  2.0f,
                            3.0f,  7.0f,  1.0f,
                            9.0f,  5.0f,  2.0f,
                            8.0f,  4.0f,  7.0f };
    int   hC_offsets[]  = { 0, 3, 4, 7, 9 };
    int   hC_columns1[] = { 0, 1, 2, 1, 0, 1, 2, 0, 2 };
    int   hC_columns2[] = { 0, 1, 2, 0, 0, 1, 2, 1, 2 };
    float hC_values1[]  = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
                           0.0f, 0.0f, 0.0f, 0.0f };
    float hC_values2[]  = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
                           0.0f, 0.0f, 0.0f, 0.0f };
    float hC_result1[]  = { 70.0f, 80.0f, 90.0f,
                           184.0f,
                           246.0f, 288.0f, 330.0f,
                           334.0f, 450.0f };
    float hC_result2[]  = {305.0f, 229.0f, 146.0f,
                           409.0f,
                           513.0f, 389.0f, 242.0f,
                           469.0f, 290.0f };
    float alpha        = 1.0f;
    float beta         = 0.0f;
    //--------------------------------------------------------------------------
    // Device memory management
    int   *dC_offsets, *dC_columns;
    float *dC_values, *dB, *dA;
    CHECK_PORT( port_malloc((void**) &dA,
                           A_size * num_batches * sizeof(float)) )
    CHECK_PORT( port_malloc((void**) &dB,
                           B_size * num_batches * sizeof(float)) )
    CHECK_PORT( port_malloc((void**) &dC_offsets,
                           (A_num_rows + 1) * sizeof(int)) )
    CHECK_PORT( port_malloc((void**) &dC_columns,
                           C_nnz * num_batches * sizeof(int))   )
    CHECK_PORT( port_malloc((void**) &dC_values,
                           C_nnz * num_batches * sizeof(float)) )

    CHECK_PORT( port_memcpy(dA, hA1, A_size * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dA + A_size, hA2, A_size * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dB, hB1, B_size * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dB + B_size, hB2, B_size * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dC_offsets, hC_offsets,
                           (A_num_rows + 1) * sizeof(int),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dC_columns, hC_columns1, C_nnz * sizeof(int),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dC_columns + C_nnz, hC_columns2, C_nnz * sizeof(int),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dC_values, hC_values1, C_nnz * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dC_values + C_nnz, hC_values2, C_nnz * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    //--------------------------------------------------------------------------
    // TRNSPARSE APIs
    trnsparseHandle_t     handle = NULL;
    trnsparseDnMatDescr_t matA, matB;
    trnsparseSpMatDescr_t matC;
    void*                dBuffer    = NULL;
    size_t               bufferSize = 0;
    CHECK_TRNSPARSE( trnsparseCreate(&handle) )
    // Create dense matrix A
    CHECK_TRNSPARSE( trnsparseCreateDnMat(&matA, A_num_rows, A_num_cols, lda, dA,
                                        TRN_R_32F, TRNSPARSE_ORDER_ROW) )
    CHECK_TRNSPARSE( trnsparseDnMatSetStridedBatch(matA, num_batches, A_size) )
    // Create dense matrix B
    CHECK_TRNSPARSE( trnsparseCreateDnMat(&matB, A_num_cols, B_num_cols, ldb, dB,
                                        TRN_R_32F, TRNSPARSE_ORDER_ROW) )
    CHECK_TRNSPARSE( trnsparseDnMatSetStridedBatch(matB, num_batches, B_size) )
    // Create sparse matrix C in CSR format
    CHECK_TRNSPARSE( trnsparseCreateCsr(&matC, A_num_rows, B_num_cols, C_nnz,
                                      dC_offsets, dC_columns, dC_values,
                                      TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                      TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F) )
    CHECK_TRNSPARSE( trnsparseCsrSetStridedBatch(matC, num_batches, 0, C_nnz) )
    // allocate an external buffer if needed
    CHECK_TRNSPARSE( trnsparseSDDMM_bufferSize(
                                 handle,
                                 TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                 TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                 &alpha, matA, matB, &beta, matC, TRN_R_32F,
                                 TRNSPARSE_SDDMM_ALG_DEFAULT, &bufferSize) )
    CHECK_PORT( port_malloc(&dBuffer, bufferSize) )

    // execute preprocess (optional)
    CHECK_TRNSPARSE( trnsparseSDDMM_preprocess(
                                  handle,
                                  TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                  TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                  &alpha, matA, matB, &beta, matC, TRN_R_32F,
                                  TRNSPARSE_SDDMM_ALG_DEFAULT, dBuffer) )
    // execute SDDMM
    CHECK_TRNSPARSE( trnsparseSDDMM(handle,
                                  TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                  TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                  &alpha, matA, matB, &beta, matC, TRN_R_32F,
                                  TRNSPARSE_SDDMM_ALG_DEFAULT, dBuffer) )
    // destroy matrix/vector descriptors
    CHECK_TRNSPARSE( trnsparseDestroyDnMat(matA) )
    CHECK_TRNSPARSE( trnsparseDestroyDnMat(matB) )
    CHECK_TRNSPARSE( trnsparseDestroySpMat(matC) )
    CHECK_TRNSPARSE( trnsparseDestroy(handle) )
    //--------------------------------------------------------------------------
    // device result check
    CHECK_PORT( port_memcpy(hC_values1, dC_values, C_nnz * sizeof(float),
                           PORT_DEVICE_TO_HOST) )
    CHECK_PORT( port_memcpy(hC_values2, dC_values + C_nnz, C_nnz * sizeof(float),
                           PORT_DEVICE_TO_HOST) )
    int correct = 1;
    for (int i = 0; i < C_nnz; i++) {
        if (hC_values1[i] != hC_result1[i]) {
            correct = 0; // direct floating point comparison is not reliable
            break;
        }
        if (hC_values2[i] != hC_result2[i]) {
            correct = 0; // direct floating point comparison is not reliable
            break;
        }
    }
    if (correct)
        printf("sddmm_csr_batched_example test PASSED\n");
    else
        printf("sddmm_csr_batched_example test FAILED: wrong result\n");
    //--------------------------------------------------------------------------
    // device memory deallocation
    CHECK_PORT( port_free(dBuffer) )
    CHECK_PORT( port_free(dA) )
    CHECK_PORT( port_free(dB) )
    CHECK_PORT( port_free(dC_offsets) )
    CHECK_PORT( port_free(dC_columns) )
    CHECK_PORT( port_free(dC_values) )
    return EXIT_SUCCESS;
}