// The host CPU's SIMD level, probed once by the core for every library (the emulator's
// vectorised host paths, trnblas's Ozaki reconstruction, trnrand's Philox streams), so that no
// library probes the CPU on its own and `trnsci info` reports one answer. Every path gives the same
// bits (each library tests its vector paths against its portable one); the level only changes
// host speed.
#pragma once
#include <string_view>

namespace trn {

enum class HostSimd : unsigned char {
  portable,  // plain C++
  avx2,      // AVX2 + FMA
  avx512,    // AVX-512 F + BW + VL, the subset the vectorised paths use
};

// Whether the CPU supports `level`. TRN_HOST_SIMD=portable|avx2|avx512 caps what is reported as
// available (to run the narrower paths on a wide machine); it can never enable a missing one.
bool host_simd_available(HostSimd level);
// The widest available level.
HostSimd host_simd();
std::string_view host_simd_name(HostSimd level);

}  // namespace trn
