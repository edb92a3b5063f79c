/*
 * SPDX-FileCopyrightText: Copyright (c) 2019 NVIDIA CORPORATION & AFFILIATES. All rights reserved.
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

/* trnrand_utils.h - NVIDIA CUDALibrarySamples cuRAND/utils/curand_utils.h (commit
 * 34377293fb148e90aad16fd762fa2445f941be55), the header every cuRAND host sample includes, ported
 * by tools/port-cuda.sh (curand -> trnrand; <cuda_runtime.h> is the host stand-in in this
 * directory). By hand: the print_vector specialisations are inline (the test links all samples into
 * one program). Test instrumentation (not in the original): every printed vector is recorded as
 * 32-bit patterns (printed_vectors()), and the status of a failing library call before the sample
 * throws (failed_status()), for test_trnrand_ported_samples.cpp to check. */

#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <cuda_runtime.h>
#include <trnrand.h>

inline std::vector<std::vector<std::uint32_t>>& printed_vectors() {
  static std::vector<std::vector<std::uint32_t>> v;
  return v;
}
inline int& failed_status() {
  static int s = 0;
  return s;
}

// CUDA API error checking
#define CUDA_CHECK(err)                                                        \
  do {                                                                         \
    cudaError_t err_ = (err);                                                  \
    if (err_ != cudaSuccess) {                                                 \
      std::printf("CUDA error %d at %s:%d\n", err_, __FILE__, __LINE__);       \
      throw std::runtime_error("CUDA error");                                  \
    }                                                                          \
  } while (0)

// trnrand API error checking
#define TRNRAND_CHECK(err)                                                     \
  do {                                                                         \
    trnrandStatus_t err_ = (err);                                              \
    if (err_ != TRNRAND_STATUS_SUCCESS) {                                      \
      std::printf("trnrand error %d at %s:%d\n", err_, __FILE__, __LINE__);    \
      failed_status() = err_;                                                  \
      throw std::runtime_error("trnrand error");                               \
    }                                                                          \
  } while (0)

template <typename T> void print_vector(const std::vector<T> &data);

template <> inline void print_vector(const std::vector<float> &data) {
  std::vector<std::uint32_t> bits(data.size());
  std::memcpy(bits.data(), data.data(), data.size() * sizeof(float));
  printed_vectors().push_back(bits);
  for (auto &i : data)
    std::printf("%0.6f\n", i);
}

template <> inline void print_vector(const std::vector<unsigned int> &data) {
  printed_vectors().push_back(std::vector<std::uint32_t>(data.begin(), data.end()));
  for (auto &i : data)
    std::printf("%d\n", i);
}
