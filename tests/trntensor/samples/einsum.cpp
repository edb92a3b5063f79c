/* Ported from NVIDIA CUDALibrarySamples cuTENSOR/einsum.cu (commit 34377293fb148e90aad16fd762fa2445f941be55, Apache-2.0, notice
 * below) by the prefix rule (cutensor -> trntensor, CUTENSOR_ -> TRNTENSOR_, cudaDataType_t ->
 * trnDataType_t, CUDA_R_ -> TRN_R_) and host memory (utils.hpp: cuda_alloc -> aligned host
 * allocations, cudaMemcpy -> memcpy, streams -> NULL, GPUTimer -> CPUTimer). PORT: marks the
 * other hand edits. main is renamed by the build (-Dmain=...). */
/*
 * SPDX-FileCopyrightText: Copyright (c) 2020-2026 NVIDIA CORPORATION & AFFILIATES. All rights reserved.
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

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "trntensor.h"

#include "utils.hpp"

template<typename U>
struct CuTensorTypeTraits;

template<>
struct CuTensorTypeTraits<double> {
  static trnDataType_t getDataType() {return TRN_R_64F;}
  static trntensorComputeDescriptor_t getComputeDesc() {return TRNTENSOR_COMPUTE_DESC_64F;}
  typedef double ScalarType;
};

template<>
struct CuTensorTypeTraits<float> {
  static trnDataType_t getDataType() {return TRN_R_32F;}
  static trntensorComputeDescriptor_t getComputeDesc() {return TRNTENSOR_COMPUTE_DESC_32F;}
  typedef float ScalarType;
};

// PORT: the __half specialisation (cuda_fp16.h) dropped: unused by the sample.

template<typename ComputeType,
         typename IntType, int kMaxNumModes_>
struct Einsum
{
    static const std::vector<IntType> emptyVec;

    Einsum(const std::string &equation,
           const std::vector<IntType> &A_shape,
           const std::vector<IntType> &B_shape = emptyVec) :
        numModesA_(A_shape.size()),
        numModesB_(B_shape.size()),
        numModesC_(0),
        isInitialized_(false)
    {
        const auto arrow_pos = equation.find("->");
        const auto comma_pos = equation.find(",");
        const auto dots = equation.find("...");
        const bool isBroadcast = (dots != std::string::npos);
        const bool isImplicit = (arrow_pos == std::string::npos);
        if (isBroadcast) // TODO
        {
            return;
        }
        const bool usesB = (comma_pos != std::string::npos);

        size_t a_start = 0;
        size_t a_end = isImplicit ? ((comma_pos == std::string::npos) ? equation.size() : comma_pos) : 
                                    ((comma_pos == std::string::npos) ? arrow_pos : comma_pos);
        size_t b_start = usesB ? comma_pos + 1 : 0;
        size_t b_end   = usesB ? (isImplicit ? equation.size() : arrow_pos) : 0;
        size_t c_start = isImplicit ? equation.size() : arrow_pos + 2;
        size_t c_end = equation.size();


        char modeA[kMaxNumModes_ + 2];
        uint32_t numModesA = 0;
        for (int i = a_start; i < a_end && numModesA < kMaxNumModes_ + 2; ++i){
            if (equation.at(i) != ' ') // skip spaces
            {
                modeA[numModesA++] = equation.at(i);
            }
        }

        char modeB[kMaxNumModes_ + 2];
        uint32_t numModesB = 0;
        for (int i = b_start; i < b_end && numModesB < kMaxNumModes_ + 2; ++i){
            if (equation.at(i) != ' ') // skip spaces
            {
                modeB[numModesB++] = equation.at(i);
            }
        }

        char modeC[kMaxNumModes_ + 2];
        uint32_t numModesC = 0;
        for (int i = c_start; i < c_end && numModesC < kMaxNumModes_ + 2; ++i){
            if (equation.at(i) != ' ') // skip spaces
            {
                modeC[numModesC++] = equation.at(i);
            }
        }

        if ((numModesA != numModesA_) || (numModesB != numModesB_))
        {
            // substring size and shape don't match
            return;
        }
        if (numModesA_ > kMaxNumModes_ || numModesB_ > kMaxNumModes_)
        {
            // too many modes
            return;
        }

        /**
         * Copy all modes from modeA to modeC if they don't appear in modeB
         */
        auto copyModesIf = [](const char* modeA, uint32_t numModesA,
                const char* modeB, uint32_t numModesB,
                char* modeC, uint32_t &numModesC)
        {
            for (uint32_t i = 0; i < numModesA; i++)
            {
                auto mode = modeA[i];
                bool found = false;
                for(uint32_t j=0; j < numModesB; ++j){
                    if(mode == modeB[j])
                    {
                        found = true;
                        break;
                    }
                }

                if (!found) // is non-contracted mode
                {
                    modeC[numModesC++] = mode;
                    if (numModesC > kMaxNumModes_)
                    {
                        // too many modes
                        return false;
                    }
                }
            }
            return true;
        };


        std::array<char, kMaxNumModes_+1> implicitModeC;
        char* redirectModeC;
        if (isImplicit)
        {
            // we have to copy all non-contracted modes from A over to C
            if (copyModesIf(modeA, numModesA_, modeB, numModesB_, implicitModeC.data(), numModesC_) == false)
            {
                return;
            }
            // we have to copy all non-contracted modes from B over to C
            if (copyModesIf(modeB, numModesB_, modeA, numModesA_, implicitModeC.data(), numModesC_) == false)
            {
                return;
            }
            std::sort(implicitModeC.begin(), std::next(implicitModeC.begin(), numModesC_)); // modes are sorted w.r.t. lexical order
            implicitModeC[numModesC_] = '\0';
            redirectModeC = implicitModeC.data();
        }
        else
        {
            redirectModeC = modeC;
            numModesC_ = numModesC;
        }

        for (uint32_t i = 0; i < numModesA_; i++)
        {
            modesA_[i] = modeA[numModesA_ - i - 1];
            extentA_[i] = A_shape[numModesA_ - i - 1];
        }

        for (uint32_t i = 0; i < numModesB_; i++)
        {
            modesB_[i] = modeB[numModesB_ - i - 1];
            extentB_[i] = B_shape[numModesB_ - i - 1];
        }

        for (uint32_t i = 0; i < numModesC_; i++)
        {
            const auto mode = redirectModeC[numModesC_ - i - 1];
            modesC_[i] = mode;
            bool found = false;
            for (uint32_t j=0; j < numModesA_; ++j)
            {
                if (modesA_[j] == mode)
                {
                    extentC_[i] = extentA_[j];
                    found = true;
                    break;
                }
            }
            for (uint32_t j=0; !found && j < numModesB_; ++j)
            {
                if (modesB_[j] == mode)
                {
                    extentC_[i] = extentB_[j];
                    break;
                }
            }
        }

        isInitialized_ = true;
    }

    size_t getWorksize() const { return kWorksize_; }

    std::vector<IntType> getOutputShape() const
    {
        if (!isInitialized_) return {};
        std::vector<IntType> extentC(numModesC_);
        for (int i=0; i < numModesC_; ++i)
        {
            extentC[i] = extentC_.at(numModesC_ - i - 1);
        }

        return extentC;
    }

    /**
     * Computes the einsum call A,B->C
     *
     * \param[in] A_raw device pointer of A
     * \param[in] B_raw device pointer of B
     * \param[out] C_raw device pointer of C
     * \param[out] wor_raw device pointer to the scratchpad memory
     * Dispatch to contraction
     */
    bool execute(const trntensorHandle_t handle,
                 const void* A_raw,
                 const void* B_raw,
                 void* C_raw,
                 void *work_raw, trnStream_t stream) const
    {
        if (!isInitialized_) return false;

        trnDataType_t trntensorType = CuTensorTypeTraits<ComputeType>::getDataType();
        const trntensorComputeDescriptor_t descCompute = CuTensorTypeTraits<ComputeType>::getComputeDesc();

        const uint32_t kAlignment = 128; // Alignment of the global-memory device pointers (bytes)
        assert(uintptr_t(A_raw) % kAlignment == 0);
        assert(uintptr_t(B_raw) % kAlignment == 0);
        assert(uintptr_t(C_raw) % kAlignment == 0);

        trntensorTensorDescriptor_t descA;
        handle_error(trntensorCreateTensorDescriptor(handle,
                    &descA,
                    numModesA_,
                    extentA_.data(),
                    NULL,/*stride*/
                    trntensorType, kAlignment));
        auto guardDescA = finally( [&descA]() { trntensorDestroyTensorDescriptor(descA); } );

        trntensorTensorDescriptor_t descC;
        handle_error(trntensorCreateTensorDescriptor(handle,
                    &descC,
                    numModesC_,
                    extentC_.data(),
                    NULL,/*stride*/
                    trntensorType, kAlignment));
        auto guardDescC = finally( [&descC]() { trntensorDestroyTensorDescriptor(descC); } );


        /**************************
         * Set the algorithm to use
         ***************************/
        trntensorPlanPreference_t planPref;
        handle_error(trntensorCreatePlanPreference(
                    handle,
                    &planPref,
                    TRNTENSOR_ALGO_DEFAULT,
                    TRNTENSOR_JIT_MODE_NONE));
        auto guardPlanPref = finally( [&planPref]() { trntensorDestroyPlanPreference(planPref); } );

        if (numModesB_ > 0)
        {
            // dispatch to contraction
            trntensorTensorDescriptor_t descB;
            handle_error(trntensorCreateTensorDescriptor(handle,
                    &descB,
                    numModesB_,
                    extentB_.data(),
                    NULL,/*stride*/
                    trntensorType, kAlignment));
            auto guardDescB = finally( [&descB]() { trntensorDestroyTensorDescriptor(descB); } );

            /*******************************
             * Create Contraction Descriptor
             *******************************/

            trntensorOperationDescriptor_t desc;
            handle_error(trntensorCreateContraction(handle, 
                        &desc,
                        descA, modesA_.data(), /* unary operator A*/TRNTENSOR_OP_IDENTITY,
                        descB, modesB_.data(), /* unary operator B*/TRNTENSOR_OP_IDENTITY,
                        descC, modesC_.data(), /* unary operator C*/TRNTENSOR_OP_IDENTITY,
                        descC, modesC_.data(),
                        descCompute));
            auto guardDesc = finally( [&desc]() { trntensorDestroyOperationDescriptor(desc); } );

            /**************************
             * Create Contraction Plan
             **************************/
            trntensorPlan_t plan;
            handle_error(trntensorCreatePlan(handle,
                        &plan,
                        desc,
                        planPref,
                        kWorksize_));
            auto guardPlan = finally( [&plan]() { trntensorDestroyPlan(plan); } );

            typename CuTensorTypeTraits<ComputeType>::ScalarType alpha = 1;
            typename CuTensorTypeTraits<ComputeType>::ScalarType beta = 0;

            handle_error(trntensorContract(handle,
                               plan,
                               (void*) &alpha, A_raw, B_raw,
                               (void*) &beta,  C_raw, C_raw, 
                               work_raw, kWorksize_, stream));
        }
        else
        {
            /*******************************
             * Create Contraction Descriptor
             *******************************/
            trntensorOperationDescriptor_t desc;
            handle_error(trntensorCreateReduction(
                 handle, &desc,
                 descA, modesA_.data(), TRNTENSOR_OP_IDENTITY,
                 descC, modesC_.data(), TRNTENSOR_OP_IDENTITY,
                 descC, modesC_.data(),
                 TRNTENSOR_OP_ADD, descCompute));
            auto guardDesc = finally( [&desc]() { trntensorDestroyOperationDescriptor(desc); } );

            /**************************
             * Create Contraction Plan
             **************************/
            trntensorPlan_t plan;
            handle_error(trntensorCreatePlan(handle,
                        &plan,
                        desc,
                        planPref,
                        kWorksize_));
            auto guardPlan = finally( [&plan]() { trntensorDestroyPlan(plan); } );

            // dispatch to reduction
            typename CuTensorTypeTraits<ComputeType>::ScalarType alpha = 1;
            typename CuTensorTypeTraits<ComputeType>::ScalarType beta = 0;

            handle_error(trntensorReduce(handle, plan,
                    (const void*)&alpha, A_raw,
                    (const void*)&beta,  C_raw, 
                    C_raw, work_raw, kWorksize_, stream));
        }
        return true;
    }

    bool isInitialized() const { return isInitialized_; }

    private:
    static const size_t kWorksize_ = 1024ULL * 1024ULL * 8ULL * 128ULL;
    uint32_t numModesA_;
    uint32_t numModesB_;
    uint32_t numModesC_;
    bool isInitialized_;
    std::array<int, kMaxNumModes_> modesA_;
    std::array<int, kMaxNumModes_> modesB_;
    std::array<int, kMaxNumModes_> modesC_;
    std::array<int64_t, kMaxNumModes_> extentA_;
    std::array<int64_t, kMaxNumModes_> extentB_;
    std::array<int64_t, kMaxNumModes_> extentC_;
};

void einsum(trntensorHandle_t handle,
            const std::vector<int> &A_shape,
            const std::vector<int> &B_shape,
            const std::string &subscripts)
{
    constexpr int kMaxNumModes_ = 40; // maximal number of modes supported by cuTENSOR
    typedef float Compute;

    Einsum<Compute, int, kMaxNumModes_> myEinsum(subscripts, A_shape, B_shape);
    if (!myEinsum.isInitialized()) {
        return;
    }

    size_t totalElementsA = 1;
    for (const auto e : A_shape) {
        totalElementsA *= e;
    }
    size_t totalElementsB = 1;
    for (const auto e : B_shape) {
        totalElementsB *= e;
    }
    auto C_shape = myEinsum.getOutputShape();
    size_t totalElementsC = 1;
    for (const auto e : C_shape) {
        totalElementsC *= e;
    }

    auto         A_raw = cuda_alloc<Compute>(totalElementsA);
    auto         B_raw = cuda_alloc<Compute>(totalElementsB);
    auto    output_raw = cuda_alloc<Compute>(totalElementsC);
    auto workspace_raw = cuda_alloc<char>   (myEinsum.getWorksize());
    
    auto ret = myEinsum.execute(handle, A_raw.get(), B_raw.get(), output_raw.get(), workspace_raw.get(), 0);

    if (!ret) {
        printf("%s: not supported\n", subscripts.c_str());
    }else{
        printf("%s: succeeded\n", subscripts.c_str());
    }
}

int main()
try
{
    trntensorHandle_t handle;
    handle_error( trntensorCreate(&handle) );
    auto guardHandle = finally( [&handle]() { trntensorDestroy(handle); } );

    /**********************
     * Setup planCache (optional)
     **********************/
    constexpr int32_t numCachelines = 1024;
    handle_error( trntensorHandleResizePlanCache(handle, numCachelines) );
  
    einsum(handle, {2, 4, 5}, {4, 8, 7}, "ijn,jmk->inkm"); // contraction (explict)
    einsum(handle, {2, 4, 5}, {4, 8, 7}, "ijn,jmk"); // contraction (implicit)
    einsum(handle, {2, 4, 5}, {}, "nij");  // permutation (implicit)
    einsum(handle, {2, 4, 5}, {}, "nij->ijn");  // permutation (same as previous example, but explicit)
    einsum(handle, {2, 4, 5}, {}, "nij->ji"); // reduction

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

