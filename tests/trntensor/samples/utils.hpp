/* utils.hpp - NVIDIA CUDALibrarySamples cuTENSOR/utils.cuh ported to host memory for the ported
 * cuTENSOR samples in this directory (commit 34377293fb148e90aad16fd762fa2445f941be55).
 *
 * The port: cudaMalloc / cudaMallocHost -> 256-byte-aligned host allocations (cudaMalloc's
 * alignment guarantee, which the samples assert), cudaFree / cudaFreeHost -> free, the CUDA error
 * overload and GPUTimer (CUDA events) dropped, the random engine seeded with a fixed seed instead of
 * std::random_device (reproducible runs). Test instrumentation (not in the original): every
 * allocation is recorded in order and its contents kept when it is released (sample_buffers()), so
 * the test can check a sample's inputs and outputs against an independent oracle after it returns;
 * a fresh floating-point "device" allocation holds deterministic values in [-1, 1] (device memory
 * holds whatever was there; the einsum sample computes on uninitialised buffers).
 *
 * SPDX-FileCopyrightText: Copyright (c) 2025-2026 NVIDIA CORPORATION & AFFILIATES. All rights reserved.
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

#ifndef CUDALIBRARYSAMPLES_CUTENSOR_UTILS_HPP
#define CUDALIBRARYSAMPLES_CUTENSOR_UTILS_HPP

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "trntensor.h"

// Handle cuTENSOR errors
inline void handle_error( trntensorStatus_t err )
{
    if ( err != TRNTENSOR_STATUS_SUCCESS )
        throw std::runtime_error { std::string { trntensorGetErrorString(err) } };
}

// ---- test instrumentation: allocations in order, contents at release ----
struct SampleBuffer
{
    bool device = false;
    std::size_t bytes = 0;
    std::vector<unsigned char> contents;  // at release (empty above kSampleKeepLimit)
};
constexpr std::size_t kSampleKeepLimit = std::size_t{64} << 20;
struct SampleRegistry
{
    std::mutex mu;
    std::vector<SampleBuffer> buffers;
    std::map<const void*, std::size_t> live;
};
inline SampleRegistry& sample_registry() { static SampleRegistry r; return r; }
inline std::vector<SampleBuffer> sample_buffers_take()
{
    SampleRegistry& r = sample_registry();
    std::lock_guard<std::mutex> lock(r.mu);
    std::vector<SampleBuffer> out = std::move(r.buffers);
    r.buffers.clear();
    return out;
}
inline void* sample_allocate( std::size_t bytes, bool device )
{
    void* p = std::aligned_alloc(256, (std::max<std::size_t>(bytes, 1) + 255) / 256 * 256);
    if ( p == nullptr ) throw std::bad_alloc {};
    SampleRegistry& r = sample_registry();
    std::lock_guard<std::mutex> lock(r.mu);
    r.live[p] = r.buffers.size();
    r.buffers.push_back(SampleBuffer{device, bytes, {}});
    return p;
}
inline void sample_release( void* p )
{
    if ( p == nullptr ) return;
    SampleRegistry& r = sample_registry();
    {
        std::lock_guard<std::mutex> lock(r.mu);
        const auto it = r.live.find(p);
        if ( it != r.live.end() )
        {
            SampleBuffer& b = r.buffers[it->second];
            if ( b.bytes <= kSampleKeepLimit )
                b.contents.assign(static_cast<unsigned char*>(p), static_cast<unsigned char*>(p) + b.bytes);
            r.live.erase(it);
        }
    }
    std::free(p);
}

// Utils for exception safe allocations (host memory standing in for device memory). These
// allocation functions do not call constructors or destructors.
template <typename T>
using cuda_ptr = std::unique_ptr<T,void(*)(void*)>;

template <typename T>
cuda_ptr<T> cuda_alloc( size_t count )
{
    const std::size_t bytes = sizeof(T)*count;
    T* p = reinterpret_cast<T*>(sample_allocate(bytes, true));
    if constexpr ( std::is_floating_point_v<T> )
    {
        if ( bytes <= kSampleKeepLimit )
        {
            std::mt19937_64 fill(count);
            std::uniform_real_distribution<T> u(-1, 1);
            for ( size_t i = 0; i < count; ++i ) p[i] = u(fill);
        }
    }
    return cuda_ptr<T> { p, &sample_release };
}

template <typename T>
using cuda_host_ptr = std::unique_ptr<T,void(*)(void*)>;

template <typename T>
cuda_host_ptr<T> cuda_host_alloc( size_t count )
{
    return cuda_host_ptr<T> { reinterpret_cast<T*>(sample_allocate(sizeof(T)*count, false)), &sample_release };
}


// Random numbers.
inline
std::mt19937 get_seeded_random_engine()
{
    static std::mt19937::result_type seed = 20260806;  // PORT: fixed seeds instead of std::random_device
    return std::mt19937( seed++ );
}

template <typename T, typename Enable = void>
class randomgen;

// Specialisation for float, double, etc.
template <typename fp>
class randomgen
<
    fp,
    std::enable_if_t< std::is_floating_point_v<fp> >
>
{
public:
    using distribution = std::uniform_real_distribution<fp>;

    randomgen( fp min = 0, fp max = 1 ):
    r( std::bind(distribution(min,max),get_seeded_random_engine()) )
    {}

    fp operator()() const { return r(); }

private:
    std::function<fp()> r;
};

// Specialisation for integral types.
template <typename integer>
class randomgen
<
    integer,
    std::enable_if_t< std::is_integral_v<integer> >
>
{
public:
    randomgen( integer min = std::numeric_limits<integer>::min() ,
               integer max = std::numeric_limits<integer>::max() ):
    r( std::bind( std::uniform_int_distribution<>(min,max),
                  get_seeded_random_engine() ) )
    {}

    integer operator()() const { return r(); }

private:
    std::function<integer()> r;
};

// Specialisation for complex types. min and max are understood
// separately for real an imaginary parts each.
template <typename value_type>
class randomgen< std::complex<value_type>, void >
{
public:
    using T = std::complex<value_type>;

    randomgen() = default;

    randomgen( T min, T max ):
    re { min.real(), max.real() },
    im { min.imag(), max.imag() }
    {}


    T operator()() const { return T { re(), im() }; }

private:
    randomgen<value_type> re, im;
};


// Timers. (GPUTimer, on CUDA events, is not ported: the samples' port uses CPUTimer.)
class CPUTimer
{
public:
    CPUTimer() { start(); }

    void start()
    {
        start_ = std::chrono::steady_clock::now();
    }

    float seconds()
    {
        end_ = std::chrono::steady_clock::now();
        elapsed_ = end_ - start_;
        return elapsed_.count();
    }

    float stop()
    {
        return seconds();
    }

private:
    std::chrono::steady_clock::time_point start_, end_;
    std::chrono::duration<float> elapsed_;
};


// The remainder of this file is the implementation of finally(), as described in
// the C++ Core Guidelines:
//
//    https://isocpp.github.io/CppCoreGuidelines/CppCoreGuidelines#e19-use-a-final_action-object-to-express-cleanup-if-no-suitable-resource-handle-is-available
//
// The implementation is taken from the ‘Guidelines Support Library’ (GSL):
//
//     https://github.com/microsoft/GSL
//
// finally() allows us to write exception safe C++ code that interfaces
// with plain C APIs. The following copyright notice only applies to the
// implementation of finally().


// Copyright (c) 2015 Microsoft Corporation. All rights reserved.
//
// This code is licensed under the MIT License (MIT).
//
// Permission is hereby granted, free of charge, to any person obtaining a copy
// of this software and associated documentation files (the "Software"), to deal
// in the Software without restriction, including without limitation the rights
// to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies
// of the Software, and to permit persons to whom the Software is furnished to do
// so, subject to the following conditions:
//
// The above copyright notice and this permission notice shall be included in all
// copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
// IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
// FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
// AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
// LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
// OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
// THE SOFTWARE.

#if defined(__cplusplus) && (__cplusplus >= 201703L)
#define GSL_NODISCARD [[nodiscard]]
#else
#define GSL_NODISCARD
#endif // defined(__cplusplus) && (__cplusplus >= 201703L)

// final_action allows you to ensure something gets run at the end of a scope
template <class F>
class final_action
{
public:
    explicit final_action(const F& ff) noexcept : f{ff} { }
    explicit final_action(F&& ff) noexcept : f{std::move(ff)} { }

    ~final_action() noexcept { if (invoke) f(); }

    final_action(final_action&& other) noexcept
        : f(std::move(other.f)), invoke(std::exchange(other.invoke, false))
    { }

    final_action(const final_action&)   = delete;
    void operator=(const final_action&) = delete;
    void operator=(final_action&&)      = delete;

private:
    F f;
    bool invoke = true;
};

// finally() - convenience function to generate a final_action
template <class F>
GSL_NODISCARD auto finally(F&& f) noexcept
{
    return final_action<std::decay_t<F>>{std::forward<F>(f)};
}

#endif
