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
/* Ported to trnsparse on host memory by tests/trnsparse/samples/port.py (sddmm_bsr). */
#include "trnsparse_samples_port.h"


int trnsparse_sample_sddmm_bsr(void) {
    // Host problem definition
    int   A_num_rows    = 8;
    int   A_num_cols    = 8;
    int   B_num_rows    = A_num_cols;
    int   B_num_cols    = 8;
    int   row_block_dim = 4;
    int   col_block_dim = 4;
    int   C_num_brows   = A_num_rows / row_block_dim;
    int   C_num_bcols   = B_num_cols / col_block_dim;
    int   C_bnnz        = 2;
    int   C_nnz         = C_bnnz * row_block_dim * col_block_dim;
    int   lda           = A_num_rows;
    int   ldb           = B_num_cols;
    int   A_size        = lda * A_num_cols;
    int   B_size        = ldb * B_num_rows;
    float hA[]          = { 1.0f,   2.0f,  3.0f,  4.0f, 5.0f,   6.0f,  7.0f,  8.0f,
                            1.0f,   2.0f,  3.0f,  4.0f, 5.0f,   6.0f,  7.0f,  8.0f,
                            1.0f,   2.0f,  3.0f,  4.0f, 5.0f,   6.0f,  7.0f,  8.0f,
                            1.0f,   2.0f,  3.0f,  4.0f, 5.0f,   6.0f,  7.0f,  8.0f,
                            1.0f,   2.0f,  3.0f,  4.0f, 5.0f,   6.0f,  7.0f,  8.0f,
                            1.0f,   2.0f,  3.0f,  4.0f, 5.0f,   6.0f,  7.0f,  8.0f,
                            1.0f,   2.0f,  3.0f,  4.0f, 5.0f,   6.0f,  7.0f,  8.0f,
                            1.0f,   2.0f,  3.0f,  4.0f, 5.0f,   6.0f,  7.0f,  8.0f };
    float hB[]          = { 1.0f,   2.0f,  3.0f,  4.0f, 5.0f,   6.0f,  7.0f,  8.0f,
                            1.0f,   2.0f,  3.0f,  4.0f, 5.0f,   6.0f,  7.0f,  8.0f,
                            1.0f,   2.0f,  3.0f,  4.0f, 5.0f,   6.0f,  7.0f,  8.0f,
                            1.0f,   2.0f,  3.0f,  4.0f, 5.0f,   6.0f,  7.0f,  8.0f,
                            1.0f,   2.0f,  3.0f,  4.0f, 5.0f,   6.0f,  7.0f,  8.0f,
                            1.0f,   2.0f,  3.0f,  4.0f, 5.0f,   6.0f,  7.0f,  8.0f,
                            1.0f,   2.0f,  3.0f,  4.0f, 5.0f,   6.0f,  7.0f,  8.0f,
                            1.0f,   2.0f,  3.0f,  4.0f, 5.0f,   6.0f,  7.0f,  8.0f };
    int   hC_boffsets[] = { 0, 1, 2 };
    int   hC_bcolumns[] = { 0, 1 };
    float hC_values[]   = { 0.0f, 0.0f, 0.0f, 0.0f,
                            0.0f, 0.0f, 0.0f, 0.0f,
                            0.0f, 0.0f, 0.0f, 0.0f,
                            0.0f, 0.0f, 0.0f, 0.0f,
                            0.0f, 0.0f, 0.0f, 0.0f,
                            0.0f, 0.0f, 0.0f, 0.0f,
                            0.0f, 0.0f, 0.0f, 0.0f,
                            0.0f, 0.0f, 0.0f, 0.0f};
    float hC_result[]   = { 36.0f, 72.0f, 108.0f, 144.0f,
                            36.0f, 72.0f, 108.0f, 144.0f,
                            36.0f, 72.0f, 108.0f, 144.0f,
                            36.0f, 72.0f, 108.0f, 144.0f,
                            180.0f, 216.0f, 252.0f, 288.0f,
                            180.0f, 216.0f, 252.0f, 288.0f,
                            180.0f, 216.0f, 252.0f, 288.0f,
                            180.0f, 216.0f, 252.0f, 288.0f};
    // C in TRNSPARSE_ORDER_COL
    /* float hC_result[]  = { 36.0f, 36.0f, 36.0f, 36.0f, */
    /*                        72.0f, 72.0f, 72.0f, 72.0f, */
    /*                        108.0f, 108.0f, 108.0f, 108.0f, */
    /*                        144.0f,144.0f,144.0f,144.0f, */
    /*                        180.0f, 180.0f, 180.0f, 180.0f, */
    /*                        216.0f, 216.0f, 216.0f, 216.0f, */
    /*                        252.0f, 252.0f, 252.0f, 252.0f, */
    /*                        288.0f,288.0f,288.0f,288.0f}; */
    // A in TRNSPARSE_ORDER_COL
    /* float hC_result[]  = {8.0f, 16.0f, 24.0f, 32.0f, */
    /*                       16.0f, 32.0f, 48.0f, 64.0f, */
    /*                       24.0f, 48.0f, 72.0f, 96.0f, */
    /*                       32.0f, 64.0f, 96.0f, 128.0f, */
    /*                       200.0f, 240.0f, 280.0f, 320.0f, */
    /*                       240.0f, 288.0f, 336.0f, 384.0f, */
    /*                       280.0f, 336.0f, 392.0f, 448.0f, */
    /*                       320.0f, 384.0f, 448.0f, 512.0f}; */
    // B in TRNSPARSE_ORDER_COL
    /* float hC_result[]  = {204.0f, 204.0f, 204.0f, 204.0f, */
    /*                       204.0f, 204.0f, 204.0f, 204.0f, */
    /*                       204.0f, 204.0f, 204.0f, 204.0f, */
    /*                       204.0f, 204.0f, 204.0f, 204.0f, */
    /*                       204.0f, 204.0f, 204.0f, 204.0f, */
    /*                       204.0f, 204.0f, 204.0f, 204.0f, */
    /*                       204.0f, 204.0f, 204.0f, 204.0f, */
    /*                       204.0f, 204.0f, 204.0f, 204.0f }; */

    float alpha        = 1.0f;
    float beta         = 0.0f;
    //--------------------------------------------------------------------------
    // Device memory management
    int   *dC_boffsets, *dC_bcolumns;
    float *dC_values, *dB, *dA;
    CHECK_PORT( port_malloc((void**) &dA, A_size * sizeof(float)) )
    CHECK_PORT( port_malloc((void**) &dB, B_size * sizeof(float)) )
    CHECK_PORT( port_malloc((void**) &dC_boffsets,
                           (C_num_brows + 1) * sizeof(int)) )
    CHECK_PORT( port_malloc((void**) &dC_bcolumns, C_bnnz * sizeof(int))   )
    CHECK_PORT( port_malloc((void**) &dC_values,  C_nnz * sizeof(float)) )

    CHECK_PORT( port_memcpy(dA, hA, A_size * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dB, hB, B_size * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dC_boffsets, hC_boffsets,
                           (C_num_brows + 1) * sizeof(int),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dC_bcolumns, hC_bcolumns, C_bnnz * sizeof(int),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dC_values, hC_values, C_nnz * sizeof(float),
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
    // Create dense matrix B
    CHECK_TRNSPARSE( trnsparseCreateDnMat(&matB, A_num_cols, B_num_cols, ldb, dB,
                                        TRN_R_32F, TRNSPARSE_ORDER_ROW) )
    // Create sparse matrix C in BSR format
    CHECK_TRNSPARSE( trnsparseCreateBsr(&matC, C_num_brows, C_num_bcols,
                                      C_bnnz, row_block_dim, col_block_dim,
                                      dC_boffsets, dC_bcolumns, dC_values,
                                      TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                      TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F,
                                      TRNSPARSE_ORDER_ROW) )
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
    CHECK_PORT( port_memcpy(hC_values, dC_values, C_nnz * sizeof(float),
                           PORT_DEVICE_TO_HOST) )
    int correct = 1;
    for (int i = 0; i < C_nnz; i++) {
        /* printf("%d %0.2f %0.2f\n", i, hC_values[i], hC_result[i]); */
        if (hC_values[i] != hC_result[i]) {
            correct = 0; // direct floating point comparison is not reliable
            break;
        }
    }
    if (correct)
        printf("sddmm_bsr_example test PASSED\n");
    else
        printf("sddmm_bsr_example test FAILED: wrong result\n");
    //--------------------------------------------------------------------------
    // device memory deallocation
    CHECK_PORT( port_free(dBuffer) )
    CHECK_PORT( port_free(dA) )
    CHECK_PORT( port_free(dB) )
    CHECK_PORT( port_free(dC_boffsets) )
    CHECK_PORT( port_free(dC_bcolumns) )
    CHECK_PORT( port_free(dC_values) )
    return EXIT_SUCCESS;
}