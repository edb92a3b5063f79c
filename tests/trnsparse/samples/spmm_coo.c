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
/* Ported to trnsparse on host memory by tests/trnsparse/samples/port.py (spmm_coo). */
#include "trnsparse_samples_port.h"


int trnsparse_sample_spmm_coo(void) {
    // Host problem definition
    int   A_num_rows   = 4;
    int   A_num_cols   = 4;
    int   A_nnz        = 9;
    int   B_num_rows   = A_num_cols;
    int   B_num_cols   = 3;
    int   ldb          = B_num_rows;
    int   ldc          = A_num_rows;
    int   B_size       = ldb * B_num_cols;
    int   C_size       = ldc * B_num_cols;
    int   hA_rows[]    = { 0, 0, 0, 1, 2, 2, 2, 3, 3 };
    int   hA_columns[] = { 0, 2, 3, 1, 0, 2, 3, 1, 3 };
    float hA_values[]  = { 1.0f, 2.0f, 3.0f, 4.0f, 5.0f,
                           6.0f, 7.0f, 8.0f, 9.0f };
    float  hB[]        = { 1.0f,  2.0f,  3.0f,  4.0f,
                           5.0f,  6.0f,  7.0f,  8.0f,
                           9.0f, 10.0f, 11.0f, 12.0f };
    float  hC[]        = { 0.0f, 0.0f, 0.0f, 0.0f,
                           0.0f, 0.0f, 0.0f, 0.0f,
                           0.0f, 0.0f, 0.0f, 0.0f };
    float  hC_result[] = { 19.0f,  8.0f,  51.0f,  52.0f,
                           43.0f, 24.0f, 123.0f, 120.0f,
                           67.0f, 40.0f, 195.0f, 188.0f };
    float  alpha       = 1.0f;
    float  beta        = 0.0f;

    //--------------------------------------------------------------------------
    // TRNSPARSE APIs
    trnsparseHandle_t     handle = NULL;
    trnsparseSpMatDescr_t matA;
    trnsparseDnMatDescr_t matB, matC;
    void*                hBuffer    = NULL;
    size_t               bufferSize = 0;
    CHECK_TRNSPARSE( trnsparseCreate(&handle) )
    // Create sparse matrix A in COO format
    CHECK_TRNSPARSE( trnsparseCreateCoo(&matA, A_num_rows, A_num_cols, A_nnz,
                                      hA_rows, hA_columns, hA_values,
                                      TRNSPARSE_INDEX_32I,
                                      TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F) )
    // Create dense matrix B
    CHECK_TRNSPARSE( trnsparseCreateDnMat(&matB, B_num_rows, B_num_cols, ldb, hB,
                                        TRN_R_32F, TRNSPARSE_ORDER_COL) )
    // Create dense matrix C
    CHECK_TRNSPARSE( trnsparseCreateDnMat(&matC, A_num_rows, B_num_cols, ldc, hC,
                                        TRN_R_32F, TRNSPARSE_ORDER_COL) )
    // allocate an external buffer if needed
    CHECK_TRNSPARSE( trnsparseSpMM_bufferSize(
                                 handle,
                                 TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                 TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                 &alpha, matA, matB, &beta, matC, TRN_R_32F,
                                 TRNSPARSE_SPMM_ALG_DEFAULT, &bufferSize) )

    // execute SpMM
    CHECK_TRNSPARSE( trnsparseSpMM(handle,
                                 TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                 TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                 &alpha, matA, matB, &beta, matC, TRN_R_32F,
                                 TRNSPARSE_SPMM_ALG_DEFAULT, hBuffer) )

    // destroy matrix/vector descriptors
    CHECK_TRNSPARSE( trnsparseDestroySpMat(matA) )
    CHECK_TRNSPARSE( trnsparseDestroyDnMat(matB) )
    CHECK_TRNSPARSE( trnsparseDestroyDnMat(matC) )
    CHECK_TRNSPARSE( trnsparseDestroy(handle) )
    //--------------------------------------------------------------------------
    // device result check

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
        printf("spmm_coo_example test PASSED\n");
    else
        printf("spmm_coo_example test FAILED: wrong result\n");
    //--------------------------------------------------------------------------

    return EXIT_SUCCESS;
}