/* Ported from NVIDIA CUDALibrarySamples cuTENSOR/elementwise_permute_padding.cu (commit 05cbf894d6da7b4aafb9e8f6be56cda16a0bf8cc, Apache-2.0, notice
 * below) by the prefix rule (tools/port-cuda.sh: cutensor -> trntensor, CUTENSOR_ -> TRNTENSOR_,
 * cudaDataType_t -> trnDataType_t, CUDA_R_ -> TRN_R_) and host memory (utils.hpp: cuda_alloc -> aligned
 * host allocations, cudaMemcpy2DAsync -> memcpy, GPUTimer -> CPUTimer). PORT: marks the other hand
 * edits. main is renamed by the build (-Dmain=...). As NVIDIA wrote it, the sample assigns
 * paddingLeft twice and never paddingRight: the padding it asks for is one value before w and h. */
/*
 * SPDX-FileCopyrightText: Copyright (c) 2019-2025 NVIDIA CORPORATION & AFFILIATES. All rights reserved.
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

#include <stdio.h>
#include <stdlib.h>
#include <assert.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "trntensor.h"

#include "utils.hpp"


int main()
try
{
    typedef float floatTypeA;
    typedef float floatTypeC;
    typedef float floatTypeCompute;

    trnDataType_t              const typeA       = TRN_R_32F;
    trnDataType_t              const typeC       = TRN_R_32F;
    trntensorComputeDescriptor_t const descCompute = TRNTENSOR_COMPUTE_DESC_32F;

    floatTypeCompute alpha = (floatTypeCompute)1.0f;

    /**********************
     * This example illustrates the use case where an input tensor A (in host memory) is
     * permuted from an NCHW data layout to NHWC while moving the data from host to device
     * memory C. It also adds padding for 'w' and 'h' modes:
     *
     * C_{c',w',h,n} = alpha * A_{w,h,c,n}
     **********************/

    std::vector<int> modeC{'c','w','h','n'};
    std::vector<int> modeA{'w','h','c','n'};
    int nmodeA = modeA.size();
    int nmodeC = modeC.size();

    std::unordered_map<int, int64_t> extent;
    extent['h'] = 16;  // PORT: extents reduced for the emulator (was 128)
    extent['w'] = 8;  // PORT: extents reduced for the emulator (was 32)
    extent['c'] = 12;  // PORT: extents reduced for the emulator (was 128)
    extent['n'] = 6;  // PORT: extents reduced for the emulator (was 128)

    std::unordered_map<int, int> paddingLeft;
    paddingLeft['h'] = 1;
    paddingLeft['w'] = 1;
    paddingLeft['c'] = 0;
    paddingLeft['n'] = 0;

    std::unordered_map<int, int> paddingRight;
    paddingLeft['h'] = 1;
    paddingLeft['w'] = 1;
    paddingLeft['c'] = 0;
    paddingLeft['n'] = 0;

    floatTypeC paddingValue = 0.0f;

    std::vector<int64_t> extentA;
    for (auto mode : modeA)
        extentA.push_back(extent[mode]);
    std::vector<int64_t> extentC;
    std::vector<int> paddingLeftVec;
    std::vector<int> paddingRightVec;
    for (auto mode : modeC)
    {
        extentC.push_back(extent[mode]);
        paddingLeftVec.push_back(paddingLeft[mode]);
        paddingRightVec.push_back(paddingRight[mode]);
    }


    /**********************
     * Allocating data
     **********************/

    size_t elementsA = 1;
    for (auto mode : modeA)
        elementsA *= extent[mode];
    size_t elementsC = 1;
    for (auto mode : modeC)
        elementsC *= extent[mode] + paddingLeft[mode] + paddingRight[mode];

    size_t sizeA = sizeof(floatTypeA) * elementsA;
    size_t sizeC = sizeof(floatTypeC) * elementsC;
    printf("Total memory: %.2f GiB\n", (sizeA + sizeC)/1024./1024./1024);


    auto A_d = cuda_alloc     <floatTypeA>(elementsA); 
    auto C_d = cuda_alloc     <floatTypeC>(elementsC);

    auto A   = cuda_host_alloc<floatTypeA>(elementsA);
    auto C   = cuda_host_alloc<floatTypeC>(elementsC);

    uint32_t const kAlignment = 128;  // Alignment of the global-memory device pointers (bytes)
    assert(uintptr_t(A_d.get()) % kAlignment == 0);
    assert(uintptr_t(C_d.get()) % kAlignment == 0);


    /*******************
     * Initialize data
     *******************/

    std::generate(A.get(),A.get()+elementsA, randomgen<floatTypeA>() );
    memcpy(A_d.get(), A.get(), sizeA);

    /*************************
     * CUTENSOR
     *************************/

    trntensorHandle_t handle;
    handle_error(trntensorCreate(&handle));
    auto guardHandle = finally( [&handle]() { trntensorDestroy(handle); } );

    /**********************
     * Create Tensor Descriptors
     **********************/

    trntensorTensorDescriptor_t  descA;
    handle_error(trntensorCreateTensorDescriptor(handle,
                                                &descA,
                                                nmodeA,
                                                extentA.data(),
                                                nullptr /* stride */,
                                                typeA,
                                                kAlignment));
    auto guardDescA = finally( [&descA]() { trntensorDestroyTensorDescriptor(descA); } );

    trntensorTensorDescriptor_t  descC;
    handle_error(trntensorCreateTensorDescriptor(handle,
                                                &descC,
                                                nmodeC,
                                                extentC.data(),
                                                nullptr /* stride */,
                                                typeC,
                                                kAlignment));
    auto guardDescC = finally( [&descC]() { trntensorDestroyTensorDescriptor(descC); } );

    /*******************************
     * Create Permutation Descriptor
     *******************************/

    trntensorOperationDescriptor_t  desc;
    handle_error(trntensorCreatePermutation(handle,
                                           &desc,
                                           descA,
                                           modeA.data(),
                                           TRNTENSOR_OP_IDENTITY,
                                           descC,
                                           modeC.data(),
                                           descCompute));
    auto guardDesc = finally( [&desc]() { trntensorDestroyOperationDescriptor(desc); } );

    /*******************************
     * Set Padding Information
     *******************************/
    handle_error(trntensorOperationDescriptorSetAttribute(handle,
                                                         desc,
                                                         TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT,
                                                         paddingLeftVec.data(),
                                                         sizeof(int) * nmodeC));

    handle_error(trntensorOperationDescriptorSetAttribute(handle,
                                                         desc,
                                                         TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_RIGHT,
                                                         paddingRightVec.data(),
                                                         sizeof(int) * nmodeC));

    handle_error(trntensorOperationDescriptorSetAttribute(handle,
                                                         desc,
                                                         TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE,
                                                         &paddingValue,
                                                         sizeof(paddingValue)));

    /*****************************
     * Optional (but recommended): ensure that the scalar type is correct.
     *****************************/

    trnDataType_t scalarType;
    handle_error(trntensorOperationDescriptorGetAttribute(handle, desc,
                                                         TRNTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE,
                                                         (void*)&scalarType,
                                                         sizeof(scalarType)));

    assert(scalarType == TRN_R_32F);


    /**************************
    * Set the algorithm to use
    ***************************/

    const trntensorAlgo_t algo = TRNTENSOR_ALGO_DEFAULT;

    trntensorPlanPreference_t  planPref;
    handle_error(trntensorCreatePlanPreference(handle,
                                              &planPref,
                                              algo,
                                              TRNTENSOR_JIT_MODE_NONE));
    auto guardPlanPref = finally( [&planPref]() { trntensorDestroyPlanPreference(planPref); } );

    /**************************
     * Create Plan
     **************************/

    trntensorPlan_t  plan;
    handle_error(trntensorCreatePlan(handle,
                                    &plan,
                                    desc,
                                    planPref,
                                    0 /* workspaceSizeLimit */));
    auto guardPlan = finally( [&plan]() { trntensorDestroyPlan(plan); } );

    /**********************
     * Run
     **********************/

    double minTimeCUTENSOR = 1e100;
    for (int i = 0; i < 3; i++)
    {
        CPUTimer timer;

        handle_error(trntensorPermute(handle,
                        plan,
                        &alpha, A_d.get(), C_d.get(), nullptr /* stream */));

        auto time = timer.seconds();
        minTimeCUTENSOR = (minTimeCUTENSOR < time) ? minTimeCUTENSOR : time;
    }

    /*************************/

    double transferedBytes = 2.0 * sizeC;
    transferedBytes /= 1e9;
    printf("cuTensor: %.2f GB/s\n", transferedBytes / minTimeCUTENSOR);

    return EXIT_SUCCESS;
}
catch ( std::exception &ex )
{
    std::cerr << "Exception caught! Exiting." << std::endl;
    std::cerr << ex.what() << std::endl;
    return EXIT_FAILURE;
}
catch ( ... )
{
    std::cerr << "Unknown exception caught! Exiting." << std::endl;
    return EXIT_FAILURE;
}

