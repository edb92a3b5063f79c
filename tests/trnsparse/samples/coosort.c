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
/* Ported to trnsparse on host memory by tests/trnsparse/samples/port.py (coosort). */
#include "trnsparse_samples_port.h"


//               | 1  0  2  3 |
//               | 0  4  0  0 |
// coo matrix:   | 5  0  6  7 |
//               | 0  8  0  9 |
//               | 0 10 11  0 |

int trnsparse_sample_coosort(void) {
    int    num_rows     = 4;
    int    num_columns  = 4;
    int    nnz          = 11;
    int    h_rows[]    = {3, 2, 0, 3, 0, 4, 1, 0, 4, 2, 2};     // unsorted
    int    h_columns[] = {1, 0, 0, 3, 2, 2, 1, 3, 1, 2, 3};     // unsorted
    double h_values[]  = {8.0, 5.0, 1.0, 9.0, 2.0, 11.0, 4.0, 3.0, 10.0, 6.0,
                          7.0};                                 // unsorted
    double h_values_sorted[11]; // nnz
    int    h_permutation[11];   // nnz
    int    h_rows_ref[]    = {0, 0, 0, 1, 2, 2, 2, 3, 3, 4, 4}; // sorted
    int    h_columns_ref[] = {0, 2, 3, 1, 0, 2, 3, 1, 3, 1, 2}; // sorted
    double h_values_ref[]  = {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0,
                              10.0, 11.0};                      // sorted
    int    h_permutation_ref[] = {2, 4, 7, 6, 1, 9, 10, 0, 3, 8, 5};
    // sort(h_coo_values)[i] = h_coo_values[h_permutation_ref[i]]
    //--------------------------------------------------------------------------
    // Device memory management
    int    *d_rows, *d_columns, *d_permutation;
    double *d_values, *d_values_sorted;
    void   *d_buffer;
    size_t bufferSize;
    CHECK_PORT( port_malloc((void**) &d_rows,          nnz * sizeof(int)) )
    CHECK_PORT( port_malloc((void**) &d_columns,       nnz * sizeof(int)) )
    CHECK_PORT( port_malloc((void**) &d_values,        nnz * sizeof(double)) )
    CHECK_PORT( port_malloc((void**) &d_values_sorted, nnz * sizeof(double)) )
    CHECK_PORT( port_malloc((void**) &d_permutation,   nnz * sizeof(int)) )

    CHECK_PORT( port_memcpy(d_rows, h_rows, nnz * sizeof(int),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(d_columns, h_columns, nnz * sizeof(int),
                           PORT_HOST_TO_DEVICE) )
    CHECK_PORT( port_memcpy(d_values, h_values, nnz * sizeof(double),
                           PORT_HOST_TO_DEVICE) )
    //--------------------------------------------------------------------------
    // TRNSPARSE APIs
    trnsparseHandle_t handle = NULL;
    trnsparseSpVecDescr_t vec_permutation;
    trnsparseDnVecDescr_t vec_values;
    CHECK_TRNSPARSE( trnsparseCreate(&handle) )
    // Create sparse vector for the permutation
    CHECK_TRNSPARSE( trnsparseCreateSpVec(&vec_permutation, nnz, nnz,
                                        d_permutation, d_values_sorted,
                                        TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_BASE_ZERO, TRN_R_64F) )
    // Create dense vector for wrapping the original coo values
    CHECK_TRNSPARSE( trnsparseCreateDnVec(&vec_values, nnz, d_values,
                                        TRN_R_64F) )

    // Query working space of COO sort
    CHECK_TRNSPARSE( trnsparseXcoosort_bufferSizeExt(handle, num_rows,
                                                   num_columns, nnz, d_rows,
                                                   d_columns, &bufferSize) )
    CHECK_PORT( port_malloc(&d_buffer, bufferSize) )
    // Setup permutation vector to identity
    CHECK_TRNSPARSE( trnsparseCreateIdentityPermutation(handle, nnz,
                                                      d_permutation) )
    CHECK_TRNSPARSE( trnsparseXcoosortByRow(handle, num_rows, num_columns, nnz,
                                          d_rows, d_columns, d_permutation,
                                          d_buffer) )
    CHECK_TRNSPARSE( trnsparseGather(handle, vec_values, vec_permutation) )
    // destroy matrix/vector descriptors
    CHECK_TRNSPARSE( trnsparseDestroySpVec(vec_permutation) )
    CHECK_TRNSPARSE( trnsparseDestroyDnVec(vec_values) )
    CHECK_TRNSPARSE( trnsparseDestroy(handle) )
    //--------------------------------------------------------------------------
    // device result check
    CHECK_PORT( port_memcpy(h_rows, d_rows, nnz * sizeof(int),
                           PORT_DEVICE_TO_HOST) )
    CHECK_PORT( port_memcpy(h_columns, d_columns, nnz * sizeof(int),
                           PORT_DEVICE_TO_HOST) )
    CHECK_PORT( port_memcpy(h_values_sorted, d_values_sorted,
                           nnz * sizeof(double), PORT_DEVICE_TO_HOST) )
    CHECK_PORT( port_memcpy(h_permutation, d_permutation,
                           nnz * sizeof(int), PORT_DEVICE_TO_HOST) )
    int correct = 1;
    for (int i = 0; i < nnz; i++) {
        if (h_rows[i]          != h_rows_ref[i]    ||
            h_columns[i]       != h_columns_ref[i] ||
            h_values_sorted[i] != h_values_ref[i]  ||
            h_permutation[i]   != h_permutation_ref[i]) {
            correct = 0;
            break;
        }
    }
    if (correct)
        printf("coosort_example test PASSED\n");
    else
        printf("coosort_example test FAILED: wrong result\n");
    //--------------------------------------------------------------------------
    // device memory deallocation
    CHECK_PORT( port_free(d_rows) )
    CHECK_PORT( port_free(d_columns) )
    CHECK_PORT( port_free(d_permutation) )
    CHECK_PORT( port_free(d_values) )
    CHECK_PORT( port_free(d_values_sorted) )
    CHECK_PORT( port_free(d_buffer) )
    return EXIT_SUCCESS;
}