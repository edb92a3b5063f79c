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
/* Ported to trnsparse on host memory by tests/trnsparse/samples/port.py (axpby). */
#include "trnsparse_samples_port.h"


int trnsparse_sample_axpby(void) {
    // Host problem definition
    int   size         = 8;
    int   nnz          = 4;
    int   hX_indices[] = { 0, 3, 4, 7 };
    float hX_values[]  = { 1.0f, 2.0f, 3.0f, 4.0f };
    float hY[]         = { 1.0f, 2.0f, 3.0f, 4.0f,
                           5.0f, 6.0f, 7.0f, 8.0f };
    float hY_result[]  = { 5.0f,  6.0f,   9.0f, 16.0f,
                           21.0f, 18.0f, 21.0f, 32.0f };
    float alpha        = 2.0f;
    float beta         = 3.0f;
    //--------------------------------------------------------------------------
    // Device memory management
    int   *dX_indices;
    float *dY, *dX_values;
    CHECK_PORT( port_malloc((void**) &dX_indices, nnz * sizeof(int))    )
    CHECK_PORT( port_malloc((void**) &dX_values,  nnz * sizeof(float))  )
    CHECK_PORT( port_malloc((void**) &dY,         size * sizeof(float)) )

    CHECK_PORT( port_memcpy(dX_indices, hX_indices, nnz * sizeof(int),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dX_values, hX_values, nnz * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(dY, hY, size * sizeof(float),
                           PORT_HOST_TO_DEVICE) )
    //--------------------------------------------------------------------------
    // TRNSPARSE APIs
    trnsparseHandle_t     handle = NULL;
    trnsparseSpVecDescr_t vecX;
    trnsparseDnVecDescr_t vecY;
    CHECK_TRNSPARSE( trnsparseCreate(&handle) )
    // Create sparse vector X
    CHECK_TRNSPARSE( trnsparseCreateSpVec(&vecX, size, nnz, dX_indices, dX_values,
                                        TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F) )
    // Create dense vector y
    CHECK_TRNSPARSE( trnsparseCreateDnVec(&vecY, size, dY, TRN_R_32F) )

    // execute Axpby
    CHECK_TRNSPARSE( trnsparseAxpby(handle, &alpha, vecX, &beta, vecY) )

    // destroy matrix/vector descriptors
    CHECK_TRNSPARSE( trnsparseDestroySpVec(vecX) )
    CHECK_TRNSPARSE( trnsparseDestroyDnVec(vecY) )
    CHECK_TRNSPARSE( trnsparseDestroy(handle) )
    //--------------------------------------------------------------------------
    // device result check
    CHECK_PORT( port_memcpy(hY, dY, size * sizeof(float),
                           PORT_DEVICE_TO_HOST) )
    int correct = 1;
    for (int i = 0; i < size; i++) {
        if (hY[i] != hY_result[i]) { // direct floating point comparison is not
            correct = 0;             // reliable in standard code
            break;
        }
    }
    if (correct)
        printf("axpby_example test PASSED\n");
    else
        printf("axpby_example test FAILED: wrong result\n");
    //--------------------------------------------------------------------------
    // device memory deallocation
    CHECK_PORT( port_free(dX_indices) )
    CHECK_PORT( port_free(dX_values)  )
    CHECK_PORT( port_free(dY) )
    return EXIT_SUCCESS;
}