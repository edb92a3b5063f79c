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
/* Ported to trnsparse on host memory by tests/trnsparse/samples/port.py (spsv_sell). */
#include "trnsparse_samples_port.h"


int trnsparse_sample_spsv_sell(void) {
    // Host problem definition
    const int A_num_rows      = 4;
    const int A_num_cols      = 4;
    const int A_nnz           = 9;
    const int A_slice_size    = 2;
    const int A_values_size   = 12;
    int A_num_slices          = (A_num_rows + A_slice_size - 1) / A_slice_size; // 2

    int     hA_sliceOffsets[] = { 0, 6, 12 };
    int     hA_columns[]      = { //Slice 0
                                    0, 1,
                                    2, -1,
                                    3, -1,
                                    //Slice 1
                                    0, 1,
                                    2, 3,
                                    3, -1 };
    float   hA_values[]     = { 1.0f, 4.0f,
                                2.0f, 0.0f,
                                3.0f, 0.0f,
                                5.0f, 8.0f,
                                6.0f, 9.0f,
                                7.0f, 0.0f };
    float   hX[]            = { 1.0f, 8.0f, 23.0f, 52.0f };
    float   hY[]            = { 0.0f, 0.0f, 0.0f, 0.0f };
    float   hY_result[]     = { 1.0f, 2.0f, 3.0f, 4.0f };
    float   alpha           = 1.0f;
    //--------------------------------------------------------------------------
    // Device memory management
    int   *dA_sliceOffsets, *dA_columns;
    float *dA_values, *dX, *dY;
    CHECK_PORT( port_malloc((void**) &dA_sliceOffsets,
                           (A_num_slices + 1) * sizeof(int)) )
    CHECK_PORT( port_malloc((void**) &dA_columns, A_values_size * sizeof(int))        )
    CHECK_PORT( port_malloc((void**) &dA_values,  A_values_size * sizeof(float))      )
    CHECK_PORT( port_malloc((void**) &dX,         A_num_cols * sizeof(float)) )
    CHECK_PORT( port_malloc((void**) &dY,         A_num_rows * sizeof(float)) )

    CHECK_PORT( port_memcpy(dA_sliceOffsets, hA_sliceOffsets,
                           (A_num_slices + 1) * sizeof(int),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dA_columns, hA_columns, A_values_size * sizeof(int),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dA_values, hA_values, A_values_size * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dX, hX, A_num_cols * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dY, hY, A_num_rows * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    //--------------------------------------------------------------------------
    // TRNSPARSE APIs
    trnsparseHandle_t     handle = NULL;
    trnsparseSpMatDescr_t matA;
    trnsparseDnVecDescr_t vecX, vecY;
    void*                dBuffer    = NULL;
    size_t               bufferSize = 0;
    trnsparseSpSVDescr_t  spsvDescr;
    CHECK_TRNSPARSE( trnsparseCreate(&handle) )
    // Create sparse matrix A in SELL format
    CHECK_TRNSPARSE( trnsparseCreateSlicedEll(&matA, A_num_rows, A_num_cols, A_nnz,
                                        A_values_size, A_slice_size,
                                        dA_sliceOffsets, dA_columns, dA_values,
                                        TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F) )
    // Create dense vector X
    CHECK_TRNSPARSE( trnsparseCreateDnVec(&vecX, A_num_cols, dX, TRN_R_32F) )
    // Create dense vector y
    CHECK_TRNSPARSE( trnsparseCreateDnVec(&vecY, A_num_rows, dY, TRN_R_32F) )
    // Create opaque data structure, that holds analysis data between calls.
    CHECK_TRNSPARSE( trnsparseSpSV_createDescr(&spsvDescr) )
    // Specify Lower|Upper fill mode.
    trnsparseFillMode_t fillmode = TRNSPARSE_FILL_MODE_LOWER;
    CHECK_TRNSPARSE( trnsparseSpMatSetAttribute(matA, TRNSPARSE_SPMAT_FILL_MODE,
                                              &fillmode, sizeof(fillmode)) )
    // Specify Unit|Non-Unit diagonal type.
    trnsparseDiagType_t diagtype = TRNSPARSE_DIAG_TYPE_NON_UNIT;
    CHECK_TRNSPARSE( trnsparseSpMatSetAttribute(matA, TRNSPARSE_SPMAT_DIAG_TYPE,
                                              &diagtype, sizeof(diagtype)) )
    // allocate an external buffer for analysis
    CHECK_TRNSPARSE( trnsparseSpSV_bufferSize(
                                handle, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                &alpha, matA, vecX, vecY, TRN_R_32F,
                                TRNSPARSE_SPSV_ALG_DEFAULT, spsvDescr,
                                &bufferSize) )
    CHECK_PORT( port_malloc(&dBuffer, bufferSize) )
    CHECK_TRNSPARSE( trnsparseSpSV_analysis(
                                handle, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                &alpha, matA, vecX, vecY, TRN_R_32F,
                                TRNSPARSE_SPSV_ALG_DEFAULT, spsvDescr, dBuffer) )
    // execute SpSV
    CHECK_TRNSPARSE( trnsparseSpSV_solve(handle, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                       &alpha, matA, vecX, vecY, TRN_R_32F,
                                       TRNSPARSE_SPSV_ALG_DEFAULT, spsvDescr) )

    // destroy matrix/vector descriptors
    CHECK_TRNSPARSE( trnsparseDestroySpMat(matA) )
    CHECK_TRNSPARSE( trnsparseDestroyDnVec(vecX) )
    CHECK_TRNSPARSE( trnsparseDestroyDnVec(vecY) )
    CHECK_TRNSPARSE( trnsparseSpSV_destroyDescr(spsvDescr));
    CHECK_TRNSPARSE( trnsparseDestroy(handle) )
    //--------------------------------------------------------------------------
    // device result check
    CHECK_PORT( port_memcpy(hY, dY, A_num_rows * sizeof(float),
                           PORT_DEVICE_TO_HOST) )
    int correct = 1;
    for (int i = 0; i < A_num_rows; i++) {
        if (hY[i] != hY_result[i]) { // direct floating point comparison is not
            correct = 0;             // reliable
            break;
        }
    }
    if (correct)
        printf("spsv_sell_example test PASSED\n");
    else
        printf("spsv_sell_example test FAILED: wrong result\n");
    //--------------------------------------------------------------------------
    // device memory deallocation
    CHECK_PORT( port_free(dBuffer) )
    CHECK_PORT( port_free(dA_sliceOffsets) )
    CHECK_PORT( port_free(dA_columns) )
    CHECK_PORT( port_free(dA_values) )
    CHECK_PORT( port_free(dX) )
    CHECK_PORT( port_free(dY) )
    return EXIT_SUCCESS;
}