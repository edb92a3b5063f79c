/* Ported from NVIDIA CUDALibrarySamples cuTENSOR/elementwise_trinary.cu (commit 34377293fb148e90aad16fd762fa2445f941be55, Apache-2.0, notice
 * below) by the prefix rule (cutensor -> trntensor, CUTENSOR_ -> TRNTENSOR_, cudaDataType_t ->
 * trnDataType_t, CUDA_R_ -> TRN_R_) and host memory (utils.hpp: cuda_alloc -> aligned host
 * allocations, cudaMemcpy -> memcpy, streams -> NULL, GPUTimer -> CPUTimer). PORT: marks the
 * other hand edits. main is renamed by the build (-Dmain=...). */
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
    typedef float floatTypeB;
    typedef float floatTypeC;
    typedef float floatTypeCompute;

    trnDataType_t              const typeA       = TRN_R_32F;
    trnDataType_t              const typeB       = TRN_R_32F;
    trnDataType_t              const typeC       = TRN_R_32F;
    trntensorComputeDescriptor_t const descCompute = TRNTENSOR_COMPUTE_DESC_32F;

    floatTypeCompute alpha = (floatTypeCompute)1.1f;
    floatTypeCompute beta  = (floatTypeCompute)1.3f;;
    floatTypeCompute gamma = (floatTypeCompute)1.2f;

    /**********************
     * Computing: D_{a,b,c} = alpha * A_{b,a,c} + beta * B_{c,a,b} + gamma * C_{a,b,c}
     **********************/

    std::vector<int> modeC{'a','b','c'};
    std::vector<int> modeA{'c','b','a'};
    std::vector<int> modeB{'c','a','b'};
    int nmodeA = modeA.size();
    int nmodeB = modeB.size();
    int nmodeC = modeC.size();

    std::unordered_map<int, int64_t> extent;
    extent['a'] = 40;  // PORT: extents reduced for the emulator (was 400)
    extent['b'] = 20;  // PORT: extents reduced for the emulator (was 200)
    extent['c'] = 30;  // PORT: extents reduced for the emulator (was 300)
    std::vector<int64_t> extentA;
    for (auto mode : modeA)
        extentA.push_back(extent[mode]);
    std::vector<int64_t> extentB;
    for (auto mode : modeB)
        extentB.push_back(extent[mode]);
    std::vector<int64_t> extentC;
    for (auto mode : modeC)
        extentC.push_back(extent[mode]);

    /**********************
     * Allocating data
     **********************/

    size_t elementsA = 1;
    for (auto mode : modeA)
        elementsA *= extent[mode];
    size_t elementsB = 1;
    for (auto mode : modeB)
        elementsB *= extent[mode];
    size_t elementsC = 1;
    for (auto mode : modeC)
        elementsC *= extent[mode];

    size_t sizeA = sizeof(floatTypeA) * elementsA;
    size_t sizeB = sizeof(floatTypeB) * elementsB;
    size_t sizeC = sizeof(floatTypeC) * elementsC;
    printf("Total memory: %.2f GiB\n", (sizeA + sizeB + sizeC)/1024./1024./1024);

    auto A_d = cuda_alloc     <floatTypeA>(elementsA); 
    auto B_d = cuda_alloc     <floatTypeB>(elementsB); 
    auto C_d = cuda_alloc     <floatTypeC>(elementsC); 
    auto D_d = cuda_alloc     <floatTypeC>(elementsC); 

    auto A   = cuda_host_alloc<floatTypeA>(elementsA); 
    auto B   = cuda_host_alloc<floatTypeB>(elementsB); 
    auto C   = cuda_host_alloc<floatTypeC>(elementsC); 

    const uint32_t kAlignment = 256; // Alignment of the global-memory device pointers (bytes)
    assert(uintptr_t(A_d.get()) % kAlignment == 0);
    assert(uintptr_t(B_d.get()) % kAlignment == 0);
    assert(uintptr_t(C_d.get()) % kAlignment == 0);
    assert(uintptr_t(D_d.get()) % kAlignment == 0);

    /*******************
     * Initialize data
     *******************/

    std::generate(A.get(),A.get()+elementsA, randomgen<floatTypeA>() );
    std::generate(B.get(),B.get()+elementsB, randomgen<floatTypeB>() );
    std::generate(C.get(),C.get()+elementsC, randomgen<floatTypeC>() );

    memcpy(C_d.get(), C.get(), sizeC);
    memcpy(D_d.get(), C.get(), sizeC);
    memcpy(A_d.get(), A.get(), sizeA);
    memcpy(B_d.get(), B.get(), sizeB);

    /*************************
     * Memcpy perf 
     *************************/

    double minTimeMEMCPY = 1e100;
    CPUTimer timer;
    memcpy(D_d.get(), C_d.get(), sizeC);
    minTimeMEMCPY = timer.seconds(); // timer synchronizes.

    /*************************
     * cuTENSOR
     *************************/

    trntensorHandle_t handle;
    handle_error(trntensorCreate(&handle));
    auto guardHandle = finally( [&handle]() { trntensorDestroy(handle); } );

    /**********************
     * Create Tensor Descriptors
     **********************/

    trntensorTensorDescriptor_t  descA;
    handle_error(trntensorCreateTensorDescriptor(handle,
                                                &descA, nmodeA, extentA.data(),
                                                nullptr /* stride */,
                                                typeA,
                                                kAlignment));
    auto guardDescA = finally( [&descA]() { trntensorDestroyTensorDescriptor(descA); } );

    trntensorTensorDescriptor_t  descB;
    handle_error(trntensorCreateTensorDescriptor(handle,
                                                &descB, nmodeB, extentB.data(),
                                                nullptr /* stride */,
                                                typeB,
                                                kAlignment));
    auto guardDescB = finally( [&descB]() { trntensorDestroyTensorDescriptor(descB); } );

    trntensorTensorDescriptor_t  descC;
    handle_error(trntensorCreateTensorDescriptor(handle,
                                                &descC, nmodeC, extentC.data(),
                                                nullptr /* stride */,
                                                typeC,
                                                kAlignment));
    auto guardDescC = finally( [&descC]() { trntensorDestroyTensorDescriptor(descC); } );

    /*******************************
     * Create Elementwise Trinary Descriptor
     *******************************/

    trntensorOperationDescriptor_t desc;
    handle_error(trntensorCreateElementwiseTrinary(handle, 
                                                  &desc,
                                                  descA, modeA.data(), /* unary operator A */ TRNTENSOR_OP_IDENTITY,
                                                  descB, modeB.data(), /* unary operator B */ TRNTENSOR_OP_IDENTITY,
                                                  descC, modeC.data(), /* unary operator C */ TRNTENSOR_OP_IDENTITY,
                                                  descC, modeC.data(),
                                                  /* binary operator AC  */ TRNTENSOR_OP_ADD,
                                                  /* binary operator ABC */ TRNTENSOR_OP_ADD,
                                                  descCompute));
    auto guardDesc = finally( [desc]() { trntensorDestroyOperationDescriptor(desc); } );

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
                                    0 /*workspaceSizeEstimate*/));
    auto guardPlan = finally( [&plan]() { trntensorDestroyPlan(plan); } );

    /**********************
     * Run
     **********************/

    trnStream_t stream = NULL;

    double minTimeCUTENSOR = 1e100;
    for (int i = 0; i < 3; i++)
    {
        memcpy(D_d.get(), C.get(), sizeC);
        timer.start();
        handle_error(trntensorElementwiseTrinaryExecute(handle, plan,
                                                (void*)&alpha, A_d.get(),
                                                (void*)&beta , B_d.get(),
                                                (void*)&gamma, C_d.get(),
                                                               D_d.get(), stream));
        auto time = timer.seconds();
        minTimeCUTENSOR = (minTimeCUTENSOR < time)? minTimeCUTENSOR : time;
    }

    /*************************/

    double transferedBytes = sizeC;
    transferedBytes += ((float) alpha != 0.f) ? sizeA : 0;
    transferedBytes += ((float) beta != 0.f) ? sizeB : 0;
    transferedBytes += ((float) gamma != 0.f) ? sizeC : 0;
    transferedBytes /= 1e9;
    printf("cuTensor: %.2f GB/s\n", transferedBytes/ minTimeCUTENSOR);
    printf("memcpy: %.2f GB/s\n", 2 * sizeC / minTimeMEMCPY / 1e9 );

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

