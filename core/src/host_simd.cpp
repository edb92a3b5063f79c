#include "trn/core/host_simd.hpp"

#include <cstdlib>
#include <string_view>

namespace trn {
namespace {

bool cpu_supports(HostSimd level) {
  switch (level) {
    case HostSimd::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl");
    case HostSimd::avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case HostSimd::portable:
      return true;
  }
  return false;
}

HostSimd env_cap() {
  const char* e = std::getenv("TRN_HOST_SIMD");
  if (e == nullptr) return HostSimd::avx512;
  const std::string_view v = e;
  if (v == "portable") return HostSimd::portable;
  if (v == "avx2") return HostSimd::avx2;
  return HostSimd::avx512;
}

}  // namespace

bool host_simd_available(HostSimd level) {
  static const HostSimd cap = env_cap();
  static const bool avx2 = cpu_supports(HostSimd::avx2), avx512 = cpu_supports(HostSimd::avx512);
  if (level > cap) return false;
  switch (level) {
    case HostSimd::avx512: return avx512;
    case HostSimd::avx2: return avx2;
    case HostSimd::portable: return true;
  }
  return false;
}

HostSimd host_simd() {
  if (host_simd_available(HostSimd::avx512)) return HostSimd::avx512;
  if (host_simd_available(HostSimd::avx2)) return HostSimd::avx2;
  return HostSimd::portable;
}

std::string_view host_simd_name(HostSimd level) {
  switch (level) {
    case HostSimd::avx512: return "avx512";
    case HostSimd::avx2: return "avx2";
    case HostSimd::portable: return "portable";
  }
  return "?";
}

}  // namespace trn
