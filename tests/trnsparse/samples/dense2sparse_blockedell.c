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
/* Ported to trnsparse on host memory by tests/trnsparse/samples/port.py (dense2sparse_blockedell). */
#include "trnsparse_samples_port.h"


int trnsparse_sample_dense2sparse_blockedell(void) {
    // Host problem definition
    int   num_rows     = 4;
    int   num_cols     = 6;
    int   ld           = num_cols;
    int   dense_size   = ld * num_rows;
    float h_dense[]    = {0.0f,  0.0f,  1.0f,  2.0f,  0.0f,  0.0f,
                          0.0f,  0.0f,  3.0f,  4.0f,  0.0f,  0.0f,
                          5.0f,  6.0f,  0.0f,  0.0f,  7.0f,  8.0f,
                          9.0f, 10.0f,  0.0f,  0.0f, 11.0f, 12.0f };
    int   ell_blk_size = 2;
    int   ell_width    = 4;
    int   nnz          = ell_width * num_rows;
    int   h_ell_columns[]         = {1, -1, 0, 2};
    float h_ell_values[]          = {0, 0, 0, 0, 0, 0, 0, 0,
                                     0, 0, 0, 0, 0, 0, 0, 0};
    float h_ell_values_result[]   = {1.0f,  2.0f,  0.0f,  0.0f,
                                     3.0f,  4.0f,  0.0f,  0.0f,
                                     5.0f,  6.0f,  7.0f,  8.0f,
                                     9.0f, 10.0f, 11.0f, 12.0f};
    //--------------------------------------------------------------------------
    // Device memory management
    int   *d_ell_columns;
    float *d_ell_values,  *d_dense;
    CHECK_PORT( port_malloc((void**) &d_dense, dense_size * sizeof(float)))
    CHECK_PORT( port_malloc((void**) &d_ell_columns,
                           nnz / (ell_blk_size * ell_blk_size) * sizeof(int)))
    CHECK_PORT( port_malloc((void**) &d_ell_values,
                           nnz * sizeof(float)))
    CHECK_PORT( port_memcpy(d_dense, h_dense, dense_size * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(d_ell_columns, h_ell_columns,
                           nnz / (ell_blk_size * ell_blk_size) * sizeof(int),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(d_ell_values, h_ell_values,
                           nnz * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    //--------------------------------------------------------------------------
    // TRNSPARSE APIs
    trnsparseHandle_t     handle = NULL;
    trnsparseSpMatDescr_t matB;
    trnsparseDnMatDescr_t matA;
    void*                dBuffer    = NULL;
    size_t               bufferSize = 0;
    CHECK_TRNSPARSE( trnsparseCreate(&handle) )
    // Create dense matrix A
    CHECK_TRNSPARSE( trnsparseCreateDnMat(&matA, num_rows, num_cols, ld, d_dense,
                                        TRN_R_32F, TRNSPARSE_ORDER_ROW) )

    // Create sparse matrix B in Blocked ELL format
    CHECK_TRNSPARSE( trnsparseCreateBlockedEll(&matB, num_rows, num_cols,
                                             ell_blk_size, ell_width,
                                             d_ell_columns, d_ell_values,
                                             TRNSPARSE_INDEX_32I,
                                             TRNSPARSE_INDEX_BASE_ZERO,
                                             TRN_R_32F) )

    // allocate an external buffer if needed
    CHECK_TRNSPARSE( trnsparseDenseToSparse_bufferSize(
                                        handle, matA, matB,
                                        TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT,
                                        &bufferSize) )
    CHECK_PORT( port_malloc(&dBuffer, bufferSize) )

    // execute Sparse to Dense conversion
    CHECK_TRNSPARSE( trnsparseDenseToSparse_analysis(handle, matA, matB,
                                        TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT,
                                        dBuffer) )

    // execute Sparse to Dense conversion
    CHECK_TRNSPARSE( trnsparseDenseToSparse_convert(handle, matA, matB,
                                        TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT,
                                        dBuffer) )

    // destroy matrix/vector descriptors
    CHECK_TRNSPARSE( trnsparseDestroyDnMat(matA) )
    CHECK_TRNSPARSE( trnsparseDestroySpMat(matB) )
    CHECK_TRNSPARSE( trnsparseDestroy(handle) )
    //--------------------------------------------------------------------------
    // device result check
    CHECK_PORT( port_memcpy(h_ell_values, d_ell_values,
                           nnz * sizeof(float),
                           PORT_DEVICE_TO_HOST) )
    int correct = 1;
    for (int i = 0; i < nnz; i++) {
        if (h_ell_values[i] != h_ell_values_result[i]) {
            correct = 0;
            break;
        }
    }
    if (correct)
        printf("dense2sparse_blockedell_example test PASSED\n");
    else
        printf("dense2sparse_blockedell_example test FAILED: wrong result\n");
    //--------------------------------------------------------------------------
    // device memory deallocation
    CHECK_PORT( port_free(dBuffer) )
    CHECK_PORT( port_free(d_ell_columns) )
    CHECK_PORT( port_free(d_ell_values) )
    CHECK_PORT( port_free(d_dense) )
    return EXIT_SUCCESS;
}