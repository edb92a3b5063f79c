// Data types and RNE conversions (trn/core/dtype.hpp), checked against independent references:
//  - bf16 / fp16 fast paths against Eigen::bfloat16 / Eigen::half for all 2^32 fp32 patterns
//    (every 61st pattern when TRNSCI_SANITIZER_BUILD is set), decode for all 2^16 codes;
//  - the generic encoder against the fast paths and a double-arithmetic tf32 reference;
//  - the three fp8 formats against a brute-force nearest-representable search;
//  - fp32 -> integer (RNE, saturation, NaN -> 0) and load/store round trips.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "trn/core/dtype.hpp"

using namespace trn;

namespace {

constexpr FloatFormat kBf16{8, 7, 127, true};
constexpr FloatFormat kF16{5, 10, 15, true};
constexpr FloatFormat kTf32{8, 10, 127, true};

// The ASan/UBSan build sets TRNSCI_SANITIZER_BUILD; a build compiled with -fsanitize=address is
// recognised too, so the sampled sweep does not depend on the environment being passed through.
bool sanitizer_build() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#else
  const char* e = std::getenv("TRNSCI_SANITIZER_BUILD");
  return e != nullptr && *e != '\0' && std::string(e) != "0";
#endif
}

bool is_nan_bits32(std::uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }

// Result of a sweep over fp32 bit patterns: number checked, number wrong, first wrong pattern.
struct SweepResult {
  std::uint64_t checked = 0;
  std::uint64_t bad = 0;
  std::uint32_t first_bad = 0;
};

// Number of failures of ok(first + i * stride), i < n. 32-bit index and counter so that the
// compiler can vectorise the loop when ok is branch-free.
template <class Ok>
std::uint32_t count_bad(std::uint32_t first, std::uint32_t n, std::uint32_t stride, Ok ok) {
  std::uint32_t bad = 0;
  if (stride == 1) {
    for (std::uint32_t i = 0; i < n; ++i) bad += !ok(first + i);
  } else {
    for (std::uint32_t i = 0; i < n; ++i) bad += !ok(first + i * stride);
  }
  return bad;
}

// Runs ok(u) for u = 0, stride, 2 stride, ... < 2^32, split into 256 shards of 2^24 patterns handed
// out to `threads` std::threads. ok must be cheap and pure (pass a lambda, not a function pointer,
// so that it is inlined).
template <class Ok>
SweepResult sweep_fp32(std::uint32_t stride, Ok ok, unsigned threads = 2) {
  constexpr std::uint64_t kShards = 256;
  constexpr std::uint64_t kShardSize = (std::uint64_t{1} << 32) / kShards;
  std::atomic<std::uint64_t> next{0};
  std::vector<SweepResult> part(threads);
  auto worker = [&](unsigned w) {
    SweepResult r;
    r.first_bad = 0xffffffffu;
    for (std::uint64_t s; (s = next.fetch_add(1)) < kShards;) {
      const std::uint64_t lo = s * kShardSize, hi = lo + kShardSize;
      const std::uint64_t first = (lo + stride - 1) / stride * stride;  // first multiple of stride >= lo
      const auto n = static_cast<std::uint32_t>(first < hi ? (hi - 1 - first) / stride + 1 : 0);
      const std::uint32_t bad = count_bad(static_cast<std::uint32_t>(first), n, stride, ok);
      r.checked += n;
      if (bad != 0) {  // rare path: locate the first failure of this shard
        r.bad += bad;
        for (std::uint32_t i = 0; i < n; ++i) {
          const auto u = static_cast<std::uint32_t>(first + std::uint64_t{i} * stride);
          if (!ok(u)) {
            r.first_bad = std::min(r.first_bad, u);
            break;
          }
        }
      }
    }
    part[w] = r;
  };
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < threads; ++w) pool.emplace_back(worker, w);
  for (auto& t : pool) t.join();
  SweepResult total;
  total.first_bad = 0xffffffffu;
  for (const auto& r : part) {
    total.checked += r.checked;
    total.bad += r.bad;
    total.first_bad = std::min(total.first_bad, r.first_bad);
  }
  return total;
}

std::uint32_t exhaustive_stride() {
  if (sanitizer_build()) {
    std::printf("[ SAMPLED  ] sanitizer build (TRNSCI_SANITIZER_BUILD set or -fsanitize=address): checking every "
                "61st fp32 pattern, not all 2^32\n");
    ::testing::Test::RecordProperty("fp32_pattern_stride", 61);
    return 61;
  }
  ::testing::Test::RecordProperty("fp32_pattern_stride", 1);
  return 1;
}

std::uint64_t expected_count(std::uint32_t stride) {
  return ((std::uint64_t{1} << 32) + stride - 1) / stride;
}

// ---- element checks (inline, pure) ---------------------------------------------------------------

inline bool bf16_encode_ok(std::uint32_t u) {
  const float x = std::bit_cast<float>(u);
  const std::uint16_t ours = f32_to_bf16_rne(x);
  const std::uint16_t ref = Eigen::numext::bit_cast<std::uint16_t>(Eigen::bfloat16(x));
  // NaN policy: sign and top 7 payload bits kept, quiet bit set; Eigen must also give a NaN.
  const std::uint16_t policy = static_cast<std::uint16_t>((u >> 16) | 0x0040u);
  const bool nan_ok = ours == policy && (ref & 0x7fffu) > 0x7f80u;
  return is_nan_bits32(u) ? nan_ok : ours == ref;
}

inline bool f16_encode_ok(std::uint32_t u) {
  const float x = std::bit_cast<float>(u);
  const std::uint16_t ours = f32_to_f16_rne(x);
  const std::uint16_t ref = Eigen::numext::bit_cast<std::uint16_t>(Eigen::half(x));
  const std::uint16_t policy =
      static_cast<std::uint16_t>(((u >> 16) & 0x8000u) | 0x7c00u | ((u & 0x7fffffu) >> 13) | 0x0200u);
  const bool nan_ok = ours == policy && (ref & 0x7fffu) > 0x7c00u;
  return is_nan_bits32(u) ? nan_ok : ours == ref;
}

// Independent tf32 reference: RNE of |x| to a multiple of the quantum 2^(max(ilogb x, -126) - 10)
// computed in double (x / q is exact, std::nearbyint rounds half to even in the default mode);
// overflow to inf when the rounded value exceeds the largest finite tf32 (2 - 2^-10) 2^127.
std::uint32_t tf32_reference(float x) {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(x);
  const std::uint32_t sign = (u >> 31) << 18;
  if (std::isnan(x)) return sign | (0xffu << 10) | ((u & 0x7fffffu) >> 13) | (1u << 9);
  if (std::isinf(x)) return sign | (0xffu << 10);
  if (x == 0.0f) return sign;
  const double a = std::fabs(static_cast<double>(x));
  const int e = std::max(std::ilogb(a), -126);
  const double q = std::ldexp(1.0, e - 10);
  const double r = std::nearbyint(a / q) * q;
  if (r > std::ldexp(2.0 - std::ldexp(1.0, -10), 127)) return sign | (0xffu << 10);
  return sign | (std::bit_cast<std::uint32_t>(static_cast<float>(r)) >> 13);
}

std::uint32_t mix32(std::uint32_t v) {  // cheap bijective hash for "random" bits per pattern
  v ^= v >> 16;
  v *= 0x7feb352du;
  v ^= v >> 15;
  v *= 0x846ca68bu;
  v ^= v >> 16;
  return v;
}

std::string hex(std::uint32_t u) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", u);
  return buf;
}

}  // namespace

// ---- 1. bf16 / fp16 against Eigen --------------------------------------------------------------

TEST(DtypeBf16Encode, AllFp32PatternsMatchEigenOrEvery61stInSanitizerBuild) {
  const std::uint32_t stride = exhaustive_stride();
  const auto t0 = std::chrono::steady_clock::now();
  const SweepResult r = sweep_fp32(stride, [](std::uint32_t u) { return bf16_encode_ok(u); });
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[   INFO   ] bf16 RNE: %llu patterns in %.2f s\n", static_cast<unsigned long long>(r.checked), sec);
  EXPECT_EQ(r.checked, expected_count(stride));
  EXPECT_EQ(r.bad, 0u) << "first mismatch at fp32 pattern " << hex(r.first_bad) << ": ours "
                       << f32_to_bf16_rne(std::bit_cast<float>(r.first_bad)) << ", Eigen "
                       << Eigen::numext::bit_cast<std::uint16_t>(Eigen::bfloat16(std::bit_cast<float>(r.first_bad)));
}

TEST(DtypeF16Encode, AllFp32PatternsMatchEigenOrEvery61stInSanitizerBuild) {
  const std::uint32_t stride = exhaustive_stride();
  const auto t0 = std::chrono::steady_clock::now();
  const SweepResult r = sweep_fp32(stride, [](std::uint32_t u) { return f16_encode_ok(u); });
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[   INFO   ] fp16 RNE: %llu patterns in %.2f s\n", static_cast<unsigned long long>(r.checked), sec);
  EXPECT_EQ(r.checked, expected_count(stride));
  EXPECT_EQ(r.bad, 0u) << "first mismatch at fp32 pattern " << hex(r.first_bad) << ": ours "
                       << f32_to_f16_rne(std::bit_cast<float>(r.first_bad)) << ", Eigen "
                       << Eigen::numext::bit_cast<std::uint16_t>(Eigen::half(std::bit_cast<float>(r.first_bad)));
}

TEST(DtypeBf16Encode, NanPolicyAndSpecialValues) {
  EXPECT_EQ(f32_to_bf16_rne(std::bit_cast<float>(0x7f800001u)), 0x7fc0u);  // sNaN -> quiet, payload top bits 0
  EXPECT_EQ(f32_to_bf16_rne(std::bit_cast<float>(0xff812345u)), 0xffc1u);  // sign and payload top bits kept
  EXPECT_EQ(f32_to_bf16_rne(std::bit_cast<float>(0x7fffffffu)), 0x7fffu);
  EXPECT_EQ(f32_to_bf16_rne(std::numeric_limits<float>::infinity()), 0x7f80u);
  EXPECT_EQ(f32_to_bf16_rne(-std::numeric_limits<float>::infinity()), 0xff80u);
  EXPECT_EQ(f32_to_bf16_rne(std::numeric_limits<float>::max()), 0x7f80u);  // rounds past max bf16 -> inf
  EXPECT_EQ(f32_to_bf16_rne(std::bit_cast<float>(0x7f7f7fffu)), 0x7f7fu);  // just below the midpoint
  EXPECT_EQ(f32_to_bf16_rne(std::bit_cast<float>(0x7f7f8000u)), 0x7f80u);  // midpoint, odd -> up -> inf
  EXPECT_EQ(f32_to_bf16_rne(std::bit_cast<float>(0x3f808000u)), 0x3f80u);  // tie to even (down)
  EXPECT_EQ(f32_to_bf16_rne(std::bit_cast<float>(0x3f818000u)), 0x3f82u);  // tie to even (up)
  EXPECT_EQ(f32_to_bf16_rne(-0.0f), 0x8000u);
  EXPECT_EQ(f32_to_bf16_rne(std::bit_cast<float>(0x00008000u)), 0x0000u);  // fp32 subnormal tie -> 0
  EXPECT_EQ(f32_to_bf16_rne(std::bit_cast<float>(0x00008001u)), 0x0001u);
}

TEST(DtypeF16Encode, NanPolicyAndSpecialValues) {
  EXPECT_EQ(f32_to_f16_rne(std::bit_cast<float>(0x7f800001u)), 0x7e00u);
  EXPECT_EQ(f32_to_f16_rne(std::bit_cast<float>(0xffc02000u)), 0xfe01u);
  EXPECT_EQ(f32_to_f16_rne(65504.0f), 0x7bffu);
  EXPECT_EQ(f32_to_f16_rne(65519.996f), 0x7bffu);  // below the midpoint 65520
  EXPECT_EQ(f32_to_f16_rne(65520.0f), 0x7c00u);    // midpoint, odd max -> inf
  EXPECT_EQ(f32_to_f16_rne(-1e10f), 0xfc00u);
  EXPECT_EQ(f32_to_f16_rne(0x1p-24f), 0x0001u);   // min subnormal
  EXPECT_EQ(f32_to_f16_rne(0x1p-25f), 0x0000u);   // tie -> even (0)
  EXPECT_EQ(f32_to_f16_rne(std::nextafter(0x1p-25f, 1.0f)), 0x0001u);
  EXPECT_EQ(f32_to_f16_rne(0x1.8p-24f), 0x0002u);  // tie 1.5 quanta -> 2
  EXPECT_EQ(f32_to_f16_rne(-0x1p-26f), 0x8000u);
  EXPECT_EQ(f32_to_f16_rne(0x1.ff8p-15f), 0x03ffu);  // largest subnormal
  EXPECT_EQ(f32_to_f16_rne(0x1.ffcp-15f), 0x0400u);  // largest subnormal + half quantum ties to min normal
}

TEST(DtypeBf16F16Decode, AllCodesMatchEigen) {
  for (std::uint32_t c = 0; c < 65536; ++c) {
    const auto h = static_cast<std::uint16_t>(c);
    const std::uint32_t ours_b = f32_to_bits(bf16_to_f32(h));
    const std::uint32_t ref_b = f32_to_bits(static_cast<float>(Eigen::numext::bit_cast<Eigen::bfloat16>(h)));
    const std::uint32_t ours_h = f32_to_bits(f16_to_f32(h));
    const std::uint32_t ref_h = f32_to_bits(static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(h)));
    if ((c & 0x7fffu) > 0x7f80u) {  // bf16 NaN: exact widening, Eigen NaN too
      ASSERT_EQ(ours_b, c << 16) << hex(c);
      ASSERT_TRUE(is_nan_bits32(ref_b)) << hex(c);
    } else {
      ASSERT_EQ(ours_b, ref_b) << hex(c);
    }
    if ((c & 0x7fffu) > 0x7c00u) {  // fp16 NaN: sign and payload kept exactly
      ASSERT_EQ(ours_h, ((c & 0x8000u) << 16) | 0x7f800000u | ((c & 0x3ffu) << 13)) << hex(c);
      ASSERT_TRUE(is_nan_bits32(ref_h)) << hex(c);
    } else {
      ASSERT_EQ(ours_h, ref_h) << hex(c);
    }
    // The generic decoder agrees bit for bit with the fast paths (NaNs included).
    ASSERT_EQ(f32_to_bits(decode_float(kBf16, c)), ours_b) << hex(c);
    ASSERT_EQ(f32_to_bits(decode_float(kF16, c)), ours_h) << hex(c);
    // Non-NaN codes re-encode to themselves; NaN codes to the same code with the quiet bit set.
    ASSERT_EQ(f32_to_bf16_rne(bf16_to_f32(h)), (c & 0x7fffu) > 0x7f80u ? (c | 0x40u) : c) << hex(c);
    ASSERT_EQ(f32_to_f16_rne(f16_to_f32(h)), (c & 0x7fffu) > 0x7c00u ? (c | 0x200u) : c) << hex(c);
  }
}

// The contiguous row conversions (store_row_f32 / load_row_f32 with stride 1) have their own
// vectorised code (AVX-512 where available). They are checked for all 2^32 fp32 patterns (every
// 61st in sanitizer builds) in rows of 4099 elements (a multiple-of-16 body and a masked tail), with
// a guard element after each row: bf16 and fp16 against Eigen (NaN: our policy, Eigen NaN too),
// tf32 against the scalar f32_to_tf32_rne_bits (itself checked against an independent double
// reference below).
template <class Storage, class Expected>
void sweep_row_path(DType t, Expected expected) {
  const std::uint32_t stride = exhaustive_stride();
  constexpr std::uint64_t kRow = 4099;
  constexpr std::uint64_t kShards = 256, kShardSize = (std::uint64_t{1} << 32) / kShards;
  std::atomic<std::uint64_t> next{0}, checked{0}, bad{0};
  std::atomic<std::uint32_t> first_bad{0xffffffffu};
  auto worker = [&] {
    std::vector<float> in(kRow);
    std::vector<Storage> out(kRow + 1);
    const Storage guard = static_cast<Storage>(0xabcd1234u);
    for (std::uint64_t sh; (sh = next.fetch_add(1)) < kShards;) {
      std::uint64_t u = (sh * kShardSize + stride - 1) / stride * stride;
      const std::uint64_t hi = (sh + 1) * kShardSize;
      while (u < hi) {
        std::uint64_t n = 0;
        for (; n < kRow && u + n * stride < hi; ++n) in[n] = std::bit_cast<float>(static_cast<std::uint32_t>(u + n * stride));
        out[n] = guard;
        store_row_f32(t, in.data(), static_cast<std::int64_t>(n), reinterpret_cast<std::byte*>(out.data()), 1,
                      Rounding::nearest_even, nullptr, 0);
        std::uint64_t b = out[n] != guard;
        for (std::uint64_t i = 0; i < n; ++i)
          if (!expected(std::bit_cast<std::uint32_t>(in[i]), out[i])) {
            ++b;
            const auto x = std::bit_cast<std::uint32_t>(in[i]);
            for (std::uint32_t cur = first_bad.load(); x < cur && !first_bad.compare_exchange_weak(cur, x);) {}
          }
        bad += b;
        checked += n;
        u += n * stride;
      }
    }
  };
  std::thread t1(worker), t2(worker);
  t1.join();
  t2.join();
  EXPECT_EQ(checked.load(), expected_count(stride)) << dtype_name(t);
  EXPECT_EQ(bad.load(), 0u) << dtype_name(t) << ": first mismatch at fp32 pattern " << hex(first_bad.load());
}

TEST(DtypeBf16Encode, ContiguousRowPathMatchesEigenForAllFp32Patterns) {
  sweep_row_path<std::uint16_t>(DType::bf16, [](std::uint32_t x, std::uint16_t got) {
    const std::uint16_t ref = Eigen::numext::bit_cast<std::uint16_t>(Eigen::bfloat16(std::bit_cast<float>(x)));
    return is_nan_bits32(x) ? got == static_cast<std::uint16_t>((x >> 16) | 0x40u) && (ref & 0x7fffu) > 0x7f80u
                            : got == ref;
  });
}

TEST(DtypeF16Encode, ContiguousRowPathMatchesEigenForAllFp32Patterns) {
  sweep_row_path<std::uint16_t>(DType::f16, [](std::uint32_t x, std::uint16_t got) {
    const std::uint16_t ref = Eigen::numext::bit_cast<std::uint16_t>(Eigen::half(std::bit_cast<float>(x)));
    const auto policy = static_cast<std::uint16_t>(((x >> 16) & 0x8000u) | 0x7c00u | ((x & 0x7fffffu) >> 13) | 0x0200u);
    return is_nan_bits32(x) ? got == policy && (ref & 0x7fffu) > 0x7c00u : got == ref;
  });
}

TEST(DtypeTf32Encode, ContiguousRowPathMatchesTheScalarRoundingForAllFp32Patterns) {
  sweep_row_path<std::uint32_t>(DType::tf32, [](std::uint32_t x, std::uint32_t got) {
    return got == f32_to_tf32_rne_bits(std::bit_cast<float>(x));
  });
}

TEST(DtypeTf32Encode, ScalarRoundingMatchesTheDoubleReferenceEvery61stPattern) {
  const SweepResult r = sweep_fp32(61, [](std::uint32_t u) {
    const float x = bits_to_f32(u);
    return f32_to_tf32_rne_bits(x) == tf32_reference(x) << 13;
  });
  EXPECT_EQ(r.checked, expected_count(61));
  EXPECT_EQ(r.bad, 0u) << "first mismatch at fp32 pattern " << hex(r.first_bad);
}

TEST(DtypeBf16F16Decode, ContiguousRowPathMatchesEigenForAllCodes) {
  for (const DType t : {DType::bf16, DType::f16}) {
    std::vector<std::uint16_t> codes(65536 + 5);
    for (std::uint32_t c = 0; c < codes.size(); ++c) codes[c] = static_cast<std::uint16_t>(c);
    std::vector<float> out(codes.size() + 1, 1.5f);
    // Odd length and offset: a vector body and a masked tail.
    load_row_f32(t, reinterpret_cast<const std::byte*>(codes.data() + 3), 1, 65536, out.data());
    ASSERT_EQ(out[65536], 1.5f);
    for (std::uint32_t i = 0; i < 65536; ++i) {
      const std::uint16_t h = codes[i + 3];
      const float ref = t == DType::bf16 ? static_cast<float>(Eigen::numext::bit_cast<Eigen::bfloat16>(h))
                                         : static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(h));
      if (std::isnan(ref)) {
        ASSERT_TRUE(std::isnan(out[i])) << dtype_name(t) << " " << hex(h);
        ASSERT_EQ(f32_to_bits(out[i]), f32_to_bits(t == DType::bf16 ? bf16_to_f32(h) : f16_to_f32(h)));
      } else {
        ASSERT_EQ(f32_to_bits(out[i]), f32_to_bits(ref)) << dtype_name(t) << " " << hex(h);
      }
    }
  }
}

// ---- generic encoder vs fast paths, tf32 vs a double reference ----------------------------------

TEST(DtypeGenericEncode, AgreesWithFastPathsAndTf32ReferenceEvery251stPattern) {
  const auto t0 = std::chrono::steady_clock::now();
  const SweepResult b = sweep_fp32(251, [](std::uint32_t u) {
    const float x = bits_to_f32(u);
    return encode_float(kBf16, x, Rounding::nearest_even) == f32_to_bf16_rne(x);
  });
  const SweepResult h = sweep_fp32(251, [](std::uint32_t u) {
    const float x = bits_to_f32(u);
    return encode_float(kF16, x, Rounding::nearest_even) == f32_to_f16_rne(x);
  });
  const SweepResult t = sweep_fp32(251, [](std::uint32_t u) {
    const float x = bits_to_f32(u);
    const std::uint32_t code = encode_float(kTf32, x, Rounding::nearest_even);
    std::uint32_t stored = 0;
    store_from_f32(DType::tf32, &stored, x, Rounding::nearest_even, 0);
    return code == tf32_reference(x) && stored == code << 13;
  });
  // Stochastic rounding: the bf16 fast path and the generic encoder use the same random bits the
  // same way (bit-identical for every (x, rand)); rand is a hash of the pattern.
  const SweepResult s = sweep_fp32(251, [](std::uint32_t u) {
    const float x = bits_to_f32(u);
    const std::uint32_t rand = mix32(u);
    std::uint16_t stored = 0;
    store_from_f32(DType::bf16, &stored, x, Rounding::stochastic, rand);
    return encode_float(kBf16, x, Rounding::stochastic, rand) == f32_to_bf16_sr(x, rand) && stored == f32_to_bf16_sr(x, rand);
  });
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[   INFO   ] generic encoder: 4 x %llu patterns in %.2f s\n", static_cast<unsigned long long>(b.checked),
              sec);
  EXPECT_EQ(b.checked, expected_count(251));
  EXPECT_EQ(b.bad, 0u) << "bf16, first " << hex(b.first_bad);
  EXPECT_EQ(h.bad, 0u) << "fp16, first " << hex(h.first_bad);
  EXPECT_EQ(t.bad, 0u) << "tf32, first " << hex(t.first_bad) << " code "
                       << hex(encode_float(kTf32, bits_to_f32(t.first_bad), Rounding::nearest_even)) << " ref "
                       << hex(tf32_reference(bits_to_f32(t.first_bad)));
  EXPECT_EQ(s.bad, 0u) << "bf16 SR, first " << hex(s.first_bad);
}

TEST(DtypeGenericEncode, Tf32EdgeCases) {
  EXPECT_EQ(encode_float(kTf32, 1.0f + 0x1p-11f, Rounding::nearest_even), 0x1fc00u);          // tie -> even
  EXPECT_EQ(encode_float(kTf32, 1.0f + 0x1.8p-10f, Rounding::nearest_even), 0x1fc02u);        // tie -> even (up)
  EXPECT_EQ(encode_float(kTf32, std::numeric_limits<float>::max(), Rounding::nearest_even), 0x3fc00u);  // inf
  EXPECT_EQ(encode_float(kTf32, 0x1p-136f, Rounding::nearest_even), 1u);                     // min subnormal
  EXPECT_EQ(encode_float(kTf32, 0x1p-137f, Rounding::nearest_even), 0u);                     // tie -> 0
  EXPECT_EQ(encode_float(kTf32, -0x1p-137f, Rounding::nearest_even), 1u << 18);              // -0
  EXPECT_FLOAT_EQ(static_cast<float>(max_finite(DType::tf32)), 0x1.ffcp127f);
  for (std::uint32_t u : {0x3f800000u, 0x00002000u, 0x7f7fe000u, 0xbf801000u, 0x7f801234u}) {
    std::uint32_t stored = 0;
    store_from_f32(DType::tf32, &stored, bits_to_f32(u), Rounding::nearest_even, 0);
    EXPECT_EQ(stored, tf32_reference(bits_to_f32(u)) << 13) << hex(u);
  }
}

// ---- 2. fp8 -------------------------------------------------------------------------------------

namespace {

struct Fp8Case {
  DType t;
  double max;
  double min_sub;
  std::uint32_t inf_or_nan_code;  // positive code that overflow gives
};
const Fp8Case kFp8[] = {
    {DType::f8e4m3, 240.0, 0x1p-9, 0x78u},
    {DType::f8e5m2, 57344.0, 0x1p-16, 0x7cu},
    {DType::f8e4m3fn, 448.0, 0x1p-9, 0x7fu},
};

bool fp8_is_nan_code(const FloatFormat& f, std::uint32_t c) {
  const std::uint32_t field = (c >> f.man_bits) & ((1u << f.exp_bits) - 1u), mant = c & ((1u << f.man_bits) - 1u);
  if (f.has_inf) return field == (1u << f.exp_bits) - 1u && mant != 0;
  return (c & 0x7fu) == 0x7fu;
}

// Independent value of an 8-bit code from the format definition (double arithmetic).
double fp8_value(const FloatFormat& f, std::uint32_t c) {
  const int field = static_cast<int>((c >> f.man_bits) & ((1u << f.exp_bits) - 1u));
  const int mant = static_cast<int>(c & ((1u << f.man_bits) - 1u));
  const double s = (c & 0x80u) ? -1.0 : 1.0;
  if (f.has_inf && field == (1 << f.exp_bits) - 1)
    return mant == 0 ? s * std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  if (!f.has_inf && (c & 0x7fu) == 0x7fu) return std::numeric_limits<double>::quiet_NaN();
  if (field == 0) return s * mant * std::ldexp(1.0, 1 - f.bias - f.man_bits);
  return s * (1.0 + mant / double(1 << f.man_bits)) * std::ldexp(1.0, field - f.bias);
}

// Brute-force RNE: the representable values of the format (positive codes, from decoding),
// extended by the first value past the top of the range (2^(emax+1) for formats with inf, where
// it stands for inf and has an even mantissa; the all-ones code's value for e4m3fn, odd, NaN).
// Nearest by exhaustive search, ties to the even code (mantissa LSB 0), sign applied afterwards.
struct Fp8Reference {
  FloatFormat f;
  std::vector<std::pair<double, std::uint32_t>> cand;
  explicit Fp8Reference(DType t) : f(float_format(t)) {
    for (std::uint32_t c = 0; c < 0x80u; ++c) {
      const float v = decode_float(f, c);
      if (std::isfinite(v)) cand.emplace_back(static_cast<double>(v), c);
    }
    if (f.has_inf) {
      const int emax = (1 << f.exp_bits) - 2 - f.bias;
      cand.emplace_back(std::ldexp(1.0, emax + 1), ((1u << f.exp_bits) - 1u) << f.man_bits);
    } else {
      cand.emplace_back(1.875 * std::ldexp(1.0, (1 << f.exp_bits) - 1 - f.bias), 0x7fu);
    }
  }
  std::uint32_t round(float x) const {
    const std::uint32_t sign = std::signbit(x) ? 0x80u : 0u;
    if (std::isinf(x)) return sign | (f.has_inf ? ((1u << f.exp_bits) - 1u) << f.man_bits : 0x7fu);
    // Beyond twice the largest candidate the nearest one is the largest; clamping keeps the
    // distances below exact (long double) for the huge fp32 inputs.
    const long double a = std::min(std::fabs(static_cast<long double>(x)), 2.0L * cand.back().first);
    std::uint32_t best = cand[0].second;
    long double bd = std::fabs(a - cand[0].first);
    for (const auto& [v, c] : cand) {
      const long double d = std::fabs(a - static_cast<long double>(v));
      if (d < bd || (d == bd && (c & 1u) == 0 && (best & 1u) != 0)) {
        bd = d;
        best = c;
      }
    }
    return sign | best;
  }
};

}  // namespace

TEST(DtypeFp8, EveryCodeDecodesAndReencodes) {
  for (const auto& fc : kFp8) {
    const FloatFormat f = float_format(fc.t);
    for (std::uint32_t c = 0; c < 256; ++c) {
      const float v = decode_float(f, c);
      std::uint8_t stored = static_cast<std::uint8_t>(c);
      EXPECT_EQ(f32_to_bits(load_as_f32(fc.t, &stored)), f32_to_bits(v)) << dtype_name(fc.t) << " " << c;
      const double ref = fp8_value(f, c);
      const std::uint32_t back = encode_float(f, v, Rounding::nearest_even);
      if (fp8_is_nan_code(f, c)) {
        EXPECT_TRUE(std::isnan(v)) << dtype_name(fc.t) << " " << c;
        EXPECT_TRUE(fp8_is_nan_code(f, back)) << dtype_name(fc.t) << " " << c;
        EXPECT_EQ(std::signbit(v), (c & 0x80u) != 0) << dtype_name(fc.t) << " " << c;
        // Policy: sign and payload kept, quiet bit (top mantissa bit) set; e4m3fn has one NaN.
        EXPECT_EQ(back, f.has_inf ? (c | (1u << (f.man_bits - 1))) : c) << dtype_name(fc.t) << " " << c;
      } else {
        EXPECT_EQ(static_cast<double>(v), ref) << dtype_name(fc.t) << " " << c;
        EXPECT_EQ(back, c) << dtype_name(fc.t) << " " << c;
        for (std::uint32_t rand : {0u, 1u, 0x80000000u, 0xffffffffu, 0x12345678u})
          EXPECT_EQ(encode_float(f, v, Rounding::stochastic, rand), c) << dtype_name(fc.t) << " " << c;
      }
    }
  }
}

TEST(DtypeFp8, MaxFiniteAndMinSubnormal) {
  for (const auto& fc : kFp8) {
    const FloatFormat f = float_format(fc.t);
    EXPECT_EQ(max_finite(fc.t), fc.max) << dtype_name(fc.t);
    double mx = 0, mn = std::numeric_limits<double>::infinity();
    for (std::uint32_t c = 0; c < 256; ++c) {
      const float v = decode_float(f, c);
      if (std::isfinite(v)) mx = std::max(mx, static_cast<double>(v));
      if (std::isfinite(v) && v > 0) mn = std::min(mn, static_cast<double>(v));
    }
    EXPECT_EQ(mx, fc.max) << dtype_name(fc.t);
    EXPECT_EQ(mn, fc.min_sub) << dtype_name(fc.t);
    EXPECT_EQ(decode_float(f, 0x01u), static_cast<float>(fc.min_sub)) << dtype_name(fc.t);
    EXPECT_EQ(decode_float(f, 0x81u), -static_cast<float>(fc.min_sub)) << dtype_name(fc.t);
    EXPECT_EQ(encode_float(f, static_cast<float>(fc.max), Rounding::nearest_even),
              fc.t == DType::f8e4m3fn ? 0x7eu : fc.inf_or_nan_code - 1)
        << dtype_name(fc.t);
    // Subnormal rounding: half the minimum ties to +0, just above goes to the minimum, 1.5 min ties to 2 min.
    const float ms = static_cast<float>(fc.min_sub);
    EXPECT_EQ(encode_float(f, ms / 2, Rounding::nearest_even), 0x00u) << dtype_name(fc.t);
    EXPECT_EQ(encode_float(f, -ms / 2, Rounding::nearest_even), 0x80u) << dtype_name(fc.t);
    EXPECT_EQ(encode_float(f, std::nextafter(ms / 2, 1.0f), Rounding::nearest_even), 0x01u) << dtype_name(fc.t);
    EXPECT_EQ(encode_float(f, 1.5f * ms, Rounding::nearest_even), 0x02u) << dtype_name(fc.t);
    EXPECT_EQ(encode_float(f, 0x1p-140f, Rounding::nearest_even), 0x00u) << dtype_name(fc.t);
    EXPECT_EQ(encode_float(f, std::numeric_limits<float>::denorm_min(), Rounding::nearest_even), 0x00u);
  }
  EXPECT_EQ(max_finite(DType::bf16), 0x1.fep127);
  EXPECT_EQ(max_finite(DType::f16), 65504.0);
  EXPECT_EQ(max_finite(DType::f32), static_cast<double>(std::numeric_limits<float>::max()));
}

TEST(DtypeFp8, OverflowE4m3NeuronRoundsToInfFromTheMidpoint248) {
  const FloatFormat f = float_format(DType::f8e4m3);
  const auto enc = [&](float x) { return encode_float(f, x, Rounding::nearest_even); };
  // 240 = 1.111b 2^7 (odd mantissa); the next would-be value is 256 = 2^8 (field 15 = inf, even).
  // The midpoint 248 ties to the even neighbour: inf. Below it: 240.
  EXPECT_EQ(enc(240.0f), 0x77u);
  EXPECT_EQ(enc(std::nextafter(248.0f, 0.0f)), 0x77u);
  EXPECT_EQ(enc(248.0f), 0x78u);
  EXPECT_EQ(enc(-248.0f), 0xf8u);
  EXPECT_EQ(enc(250.0f), 0x78u);
  EXPECT_EQ(enc(256.0f), 0x78u);
  EXPECT_EQ(enc(1e30f), 0x78u);
  EXPECT_EQ(enc(std::numeric_limits<float>::infinity()), 0x78u);
  EXPECT_TRUE(std::isinf(decode_float(f, 0x78u)));
  // Between 224 and 240 the quantum is 16: 232 ties to 224 (even).
  EXPECT_EQ(enc(232.0f), 0x76u);
  EXPECT_EQ(enc(std::nextafter(232.0f, 1e9f)), 0x77u);
}

TEST(DtypeFp8, OverflowE4m3fnGivesNanAbove464) {
  const FloatFormat f = float_format(DType::f8e4m3fn);
  const auto enc = [&](float x) { return encode_float(f, x, Rounding::nearest_even); };
  EXPECT_EQ(enc(448.0f), 0x7eu);
  EXPECT_EQ(enc(464.0f), 0x7eu);  // midpoint of 448 (even) and the would-be 480 (NaN code, odd)
  EXPECT_EQ(enc(std::nextafter(464.0f, 1e9f)), 0x7fu);
  EXPECT_EQ(enc(-std::nextafter(464.0f, 1e9f)), 0xffu);
  EXPECT_EQ(enc(1e30f), 0x7fu);
  EXPECT_EQ(enc(std::numeric_limits<float>::infinity()), 0x7fu);
  EXPECT_EQ(enc(-std::numeric_limits<float>::infinity()), 0xffu);
  EXPECT_EQ(enc(std::numeric_limits<float>::quiet_NaN()), 0x7fu);
  EXPECT_TRUE(std::isnan(decode_float(f, 0x7fu)));
  EXPECT_TRUE(std::isnan(decode_float(f, 0xffu)));
  EXPECT_EQ(decode_float(f, 0x78u), 256.0f);  // no inf in fn: field 15 holds ordinary values
}

TEST(DtypeFp8, OverflowE5m2RoundsToInfFromTheMidpoint61440) {
  const FloatFormat f = float_format(DType::f8e5m2);
  const auto enc = [&](float x) { return encode_float(f, x, Rounding::nearest_even); };
  EXPECT_EQ(enc(57344.0f), 0x7bu);
  EXPECT_EQ(enc(std::nextafter(61440.0f, 0.0f)), 0x7bu);
  EXPECT_EQ(enc(61440.0f), 0x7cu);
  EXPECT_EQ(enc(-1e6f), 0xfcu);
  EXPECT_EQ(enc(std::numeric_limits<float>::infinity()), 0x7cu);
}

TEST(DtypeFp8, RneMatchesBruteForceNearestSearch) {
  std::mt19937_64 rng(20240607);
  for (const auto& fc : kFp8) {
    const FloatFormat f = float_format(fc.t);
    const Fp8Reference ref(fc.t);
    std::vector<float> xs;
    // Representable values, every midpoint between neighbours (exact in fp32) and their fp32
    // neighbours, including the overflow midpoint.
    std::vector<double> vals;
    for (const auto& [v, c] : ref.cand) vals.push_back(v);
    std::sort(vals.begin(), vals.end());
    for (std::size_t i = 0; i < vals.size(); ++i) {
      const float v = static_cast<float>(vals[i]);
      xs.insert(xs.end(), {v, std::nextafter(v, 0.0f), std::nextafter(v, 1e30f)});
      if (i + 1 < vals.size()) {
        const float m = static_cast<float>((vals[i] + vals[i + 1]) / 2);
        ASSERT_EQ(static_cast<double>(m), (vals[i] + vals[i + 1]) / 2);
        xs.insert(xs.end(), {m, std::nextafter(m, 0.0f), std::nextafter(m, 1e30f)});
      }
    }
    // Random fp32 bit patterns (all magnitudes) and log-uniform values across the format's range.
    std::uniform_int_distribution<std::uint32_t> bits;
    std::uniform_real_distribution<double> lg(std::log2(fc.min_sub) - 3, std::log2(fc.max) + 2);
    for (int i = 0; i < 100000; ++i) {
      const float x = bits_to_f32(bits(rng));
      if (!std::isnan(x)) xs.push_back(x);
      xs.push_back(static_cast<float>(std::exp2(lg(rng))));
    }
    const std::size_t n = xs.size();
    for (std::size_t i = 0; i < n; ++i) xs.push_back(-xs[i]);
    xs.insert(xs.end(), {0.0f, -0.0f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                         std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max()});
    int bad = 0;
    for (const float x : xs) {
      const std::uint32_t got = encode_float(f, x, Rounding::nearest_even), want = ref.round(x);
      std::uint8_t stored = 0;
      store_from_f32(fc.t, &stored, x, Rounding::nearest_even, 0);
      if ((got != want || stored != want) && ++bad <= 10)
        ADD_FAILURE() << dtype_name(fc.t) << " x = " << x << " (" << hex(f32_to_bits(x)) << "): encode " << got
                      << ", store " << int(stored) << ", reference " << want;
    }
    EXPECT_EQ(bad, 0) << dtype_name(fc.t) << " over " << xs.size() << " inputs";
  }
}

TEST(DtypeFp8, NanInputsKeepSignAndPayload) {
  const FloatFormat e4 = float_format(DType::f8e4m3), e5 = float_format(DType::f8e5m2),
                    fn = float_format(DType::f8e4m3fn);
  const float qnan = bits_to_f32(0x7fc00000u), snan = bits_to_f32(0x7f800001u), neg = bits_to_f32(0xffa00000u);
  EXPECT_EQ(encode_float(e4, qnan, Rounding::nearest_even), 0x7cu);
  EXPECT_EQ(encode_float(e4, snan, Rounding::nearest_even), 0x7cu);
  EXPECT_EQ(encode_float(e4, neg, Rounding::nearest_even), 0xfeu);  // payload 010 | quiet 100
  EXPECT_EQ(encode_float(e5, neg, Rounding::stochastic, 0xffffffffu), 0xffu);
  EXPECT_EQ(encode_float(fn, neg, Rounding::nearest_even), 0xffu);
  EXPECT_EQ(encode_float(fn, snan, Rounding::stochastic, 0), 0x7fu);
}

// ---- 3. integers ----------------------------------------------------------------------------------

namespace {
struct IntRange {
  DType t;
  std::int64_t lo, hi;
};
const IntRange kInts[] = {
    {DType::i8, INT8_MIN, INT8_MAX},    {DType::i16, INT16_MIN, INT16_MAX}, {DType::i32, INT32_MIN, INT32_MAX},
    {DType::u8, 0, UINT8_MAX},          {DType::u16, 0, UINT16_MAX},        {DType::u32, 0, UINT32_MAX},
};

// Independent RNE of a float to an integer (as long double), then clamp.
std::int64_t int_reference(const IntRange& r, float x) {
  if (std::isnan(x)) return 0;
  if (std::isinf(x)) return x > 0 ? r.hi : r.lo;
  const long double v = x;
  long double fl = std::floor(v);
  const long double d = v - fl;
  if (d > 0.5L || (d == 0.5L && std::fmod(fl, 2.0L) != 0)) fl += 1;
  if (fl <= static_cast<long double>(r.lo)) return r.lo;
  if (fl >= static_cast<long double>(r.hi)) return r.hi;
  return static_cast<std::int64_t>(fl);
}
}  // namespace

TEST(DtypeIntConvert, RneSaturationAndNanToZero) {
  for (const auto& r : kInts) {
    const auto cv = [&](float x) { return f32_to_int_saturate(r.t, x); };
    const char* n = dtype_name(r.t).data();
    EXPECT_EQ(cv(0.5f), 0) << n;
    EXPECT_EQ(cv(1.5f), 2) << n;
    EXPECT_EQ(cv(2.5f), 2) << n;
    EXPECT_EQ(cv(3.5f), 4) << n;
    EXPECT_EQ(cv(2.4999998f), 2) << n;
    EXPECT_EQ(cv(2.5000002f), 3) << n;
    EXPECT_EQ(cv(-0.0f), 0) << n;
    EXPECT_EQ(cv(-0.5f), 0) << n;
    EXPECT_EQ(cv(std::numeric_limits<float>::quiet_NaN()), 0) << n;
    EXPECT_EQ(cv(-std::numeric_limits<float>::quiet_NaN()), 0) << n;
    EXPECT_EQ(cv(bits_to_f32(0x7f800001u)), 0) << n;
    EXPECT_EQ(cv(std::numeric_limits<float>::infinity()), r.hi) << n;
    EXPECT_EQ(cv(-std::numeric_limits<float>::infinity()), r.lo) << n;
    EXPECT_EQ(cv(1e30f), r.hi) << n;
    EXPECT_EQ(cv(-1e30f), r.lo) << n;
    if (r.lo < 0) {
      EXPECT_EQ(cv(-1.5f), -2) << n;
      EXPECT_EQ(cv(-2.5f), -2) << n;
      EXPECT_EQ(cv(-3.5f), -4) << n;
    } else {
      EXPECT_EQ(cv(-1.0f), 0) << n;
      EXPECT_EQ(cv(-1e9f), 0) << n;
    }
    // Around the saturation limits.
    if (r.hi < (1 << 24)) {
      const float hi = static_cast<float>(r.hi);
      EXPECT_EQ(cv(hi), r.hi) << n;
      EXPECT_EQ(cv(hi + 0.49f), r.hi) << n;
      EXPECT_EQ(cv(hi + 0.5f), r.hi) << n;  // rounds to hi + 1 (even), saturates
      EXPECT_EQ(cv(hi + 1.0f), r.hi) << n;
      EXPECT_EQ(cv(hi - 0.5f), r.hi % 2 == 0 ? r.hi : r.hi - 1) << n;
    }
    if (r.lo < 0 && r.lo > -(1 << 24)) {
      const float lo = static_cast<float>(r.lo);
      EXPECT_EQ(cv(lo - 0.5f), r.lo) << n;
      EXPECT_EQ(cv(lo - 1.0f), r.lo) << n;
      EXPECT_EQ(cv(lo + 0.5f), r.lo) << n;  // -127.5 -> -128 (even)
    }
  }
  EXPECT_EQ(f32_to_int_saturate(DType::i32, 2147483520.0f), 2147483520);  // largest float below 2^31
  EXPECT_EQ(f32_to_int_saturate(DType::i32, 2147483648.0f), INT32_MAX);
  EXPECT_EQ(f32_to_int_saturate(DType::i32, -2147483648.0f), INT32_MIN);
  EXPECT_EQ(f32_to_int_saturate(DType::i32, -2147483904.0f), INT32_MIN);
  EXPECT_EQ(f32_to_int_saturate(DType::u32, 4294967040.0f), 4294967040LL);
  EXPECT_EQ(f32_to_int_saturate(DType::u32, 4294967296.0f), UINT32_MAX);
  EXPECT_EQ(f32_to_int_saturate(DType::i16, 16777217.0f), INT16_MAX);
}

TEST(DtypeIntConvert, MatchesIndependentReferenceOnRandomInputs) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::uint32_t> bits;
  std::uniform_real_distribution<float> mid(-5e9f, 5e9f), small(-300.0f, 300.0f);
  for (const auto& r : kInts) {
    int bad = 0;
    for (int i = 0; i < 200000; ++i) {
      const float xs[] = {bits_to_f32(bits(rng)), mid(rng), small(rng), std::round(small(rng) * 2) / 2};
      for (const float x : xs) {
        const std::int64_t got = f32_to_int_saturate(r.t, x), want = int_reference(r, x);
        if (got != want && ++bad <= 5) ADD_FAILURE() << dtype_name(r.t) << " x = " << x << ": " << got << " vs " << want;
        // store_from_f32 on an integer dtype is the same conversion.
        if (i % 16 == 0) {
          std::uint32_t buf = 0;
          store_from_f32(r.t, &buf, x, Rounding::nearest_even, 0);
          if (load_as_int(r.t, &buf) != want && ++bad <= 5)
            ADD_FAILURE() << dtype_name(r.t) << " store x = " << x << ": " << load_as_int(r.t, &buf) << " vs " << want;
          store_from_f32(r.t, &buf, x, Rounding::stochastic, 0xdeadbeefu);  // SR does not apply to integers
          if (load_as_int(r.t, &buf) != want && ++bad <= 5) ADD_FAILURE() << dtype_name(r.t) << " SR store x = " << x;
        }
      }
    }
    EXPECT_EQ(bad, 0) << dtype_name(r.t);
  }
}

TEST(DtypeIntConvert, LoadStoreRoundTrips) {
  // 8- and 16-bit types exhaustively; 32-bit on random values and the limits.
  for (const auto& r : kInts) {
    std::vector<std::int64_t> vals;
    if (dtype_size(r.t) <= 2) {
      for (std::int64_t v = r.lo; v <= r.hi; ++v) vals.push_back(v);
    } else {
      std::mt19937_64 rng(11);
      std::uniform_int_distribution<std::int64_t> d(r.lo, r.hi);
      for (int i = 0; i < 100000; ++i) vals.push_back(d(rng));
      vals.insert(vals.end(), {r.lo, r.hi, r.lo + 1, r.hi - 1, 0, 1, (1 << 24) + 1, (1 << 24) + 3});
    }
    for (const std::int64_t v : vals) {
      std::uint32_t buf = 0xa5a5a5a5u;
      store_int(r.t, &buf, v);
      ASSERT_EQ(load_as_int(r.t, &buf), v) << dtype_name(r.t);
      // Bytes beyond the element are untouched.
      if (dtype_size(r.t) < 4) {
        ASSERT_EQ(buf >> (8 * dtype_size(r.t)), 0xa5a5a5a5u >> (8 * dtype_size(r.t)));
      }
      // Integer -> fp32 is RNE (exact below 2^24); fp32 -> integer brings exact values back.
      const float f = load_as_f32(r.t, &buf);
      ASSERT_EQ(static_cast<long double>(f), static_cast<long double>(static_cast<float>(v))) << dtype_name(r.t) << v;
      if (std::llabs(v) <= (1 << 24)) {
        std::uint32_t buf2 = 0;
        store_from_f32(r.t, &buf2, f, Rounding::nearest_even, 0);
        ASSERT_EQ(load_as_int(r.t, &buf2), v) << dtype_name(r.t);
      }
    }
    // store_int saturates.
    std::uint32_t buf = 0;
    store_int(r.t, &buf, r.hi + 1000);
    EXPECT_EQ(load_as_int(r.t, &buf), r.hi) << dtype_name(r.t);
    store_int(r.t, &buf, r.lo - 1000);
    EXPECT_EQ(load_as_int(r.t, &buf), r.lo) << dtype_name(r.t);
  }
  // RNE of integers to fp32 above 2^24 (16777217 ties to 16777216, 16777219 to 16777220).
  std::int32_t v = 16777217;
  EXPECT_EQ(load_as_f32(DType::i32, &v), 16777216.0f);
  v = 16777219;
  EXPECT_EQ(load_as_f32(DType::i32, &v), 16777220.0f);
  std::uint32_t w = 0xffffffffu;
  EXPECT_EQ(load_as_f32(DType::u32, &w), 4294967296.0f);
}

TEST(DtypeFloatLoadStore, RoundTripsAndRowPathsMatchScalarPaths) {
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<std::uint32_t> bits;
  const DType all[] = {DType::f32, DType::bf16, DType::f16, DType::tf32, DType::f8e4m3, DType::f8e5m2,
                       DType::f8e4m3fn, DType::i8, DType::i16, DType::i32, DType::u8, DType::u16, DType::u32};
  for (const DType t : all) {
    const int es = dtype_size(t);
    constexpr int n = 4099, stride = 3;
    std::vector<float> in(n);
    for (auto& x : in)
      x = std::ldexp(static_cast<float>(bits(rng) % 20001) - 10000.0f, static_cast<int>(bits(rng) % 24) - 16);
    in[0] = std::numeric_limits<float>::quiet_NaN();
    in[1] = -std::numeric_limits<float>::infinity();
    in[2] = bits_to_f32(bits(rng));
    for (const Rounding r : {Rounding::nearest_even, Rounding::stochastic}) {
      const SrStream sr{99, 5, 7};
      std::vector<std::byte> row(static_cast<std::size_t>(n) * stride * es, std::byte{0x5a});
      store_row_f32(t, in.data(), n, row.data(), stride, r, &sr, 1000);
      std::vector<float> back(n);
      load_row_f32(t, row.data(), stride, n, back.data());
      for (int i = 0; i < n; ++i) {
        std::uint32_t one = 0;
        store_from_f32(t, &one, in[i], r, sr.bits(1000 + static_cast<std::uint64_t>(i)));
        ASSERT_EQ(std::memcmp(&one, row.data() + static_cast<std::size_t>(i) * stride * es, es), 0)
            << dtype_name(t) << " i=" << i << " x=" << in[i];
        ASSERT_EQ(f32_to_bits(back[i]), f32_to_bits(load_as_f32(t, &one))) << dtype_name(t) << " i=" << i;
        // Gaps between strided elements are untouched.
        if (i + 1 < n) {
          for (int b = es; b < stride * es; ++b)
            ASSERT_EQ(row[static_cast<std::size_t>(i) * stride * es + b], std::byte{0x5a}) << dtype_name(t);
        }
      }
    }
    // Representable values round-trip exactly through store_from_f32 / load_as_f32.
    if (is_float(t)) {
      for (int i = 0; i < 2000; ++i) {
        std::uint32_t a = 0, b = 0;
        store_from_f32(t, &a, bits_to_f32(bits(rng)), Rounding::nearest_even, 0);
        const float v = load_as_f32(t, &a);
        store_from_f32(t, &b, v, Rounding::nearest_even, 0);
        if (std::isnan(v)) {
          ASSERT_TRUE(std::isnan(load_as_f32(t, &b))) << dtype_name(t);
        } else {
          ASSERT_EQ(a, b) << dtype_name(t) << " v=" << v;
        }
      }
    }
  }
}

TEST(DtypeInfo, SizesNamesAndCMapping) {
  const DType all[] = {DType::f32, DType::bf16, DType::f16, DType::tf32, DType::f8e4m3, DType::f8e5m2,
                       DType::f8e4m3fn, DType::i8, DType::i16, DType::i32, DType::u8, DType::u16, DType::u32};
  const int sizes[] = {4, 2, 2, 4, 1, 1, 1, 1, 2, 4, 1, 2, 4};
  static_assert(sizeof(all) / sizeof(all[0]) == kDTypeCount);
  for (int i = 0; i < kDTypeCount; ++i) {
    EXPECT_EQ(dtype_size(all[i]), sizes[i]) << dtype_name(all[i]);
    EXPECT_EQ(is_float(all[i]), i < 7);
    EXPECT_NE(dtype_name(all[i]), "?");
    DType back{};
    ASSERT_TRUE(dtype_from_c(dtype_to_c(all[i]), &back)) << dtype_name(all[i]);
    EXPECT_EQ(back, all[i]);
    for (int j = 0; j < i; ++j) EXPECT_NE(dtype_to_c(all[i]), dtype_to_c(all[j]));
    if (is_float(all[i])) {
      const FloatFormat f = float_format(all[i]);
      EXPECT_EQ(f.width(), all[i] == DType::tf32 ? 19 : 8 * dtype_size(all[i])) << dtype_name(all[i]);
    }
  }
  DType out{};
  EXPECT_FALSE(dtype_from_c(TRN_R_64F, &out));
}

// ---- trnBfloat16's conversions (trncore.h; cuda_bf16.h's host conversions for a port) -----------

static_assert(sizeof(trnBfloat16) == 2 && std::is_standard_layout_v<trnBfloat16> &&
                  std::is_trivially_copyable_v<trnBfloat16> && std::is_trivially_default_constructible_v<trnBfloat16>,
              "trnBfloat16 keeps C's layout: one unsigned short");

namespace {
// The bf16 nearest to d (ties to even), found independently of trncore.h: the two bf16 neighbours of
// |d| (fp32 truncated toward zero, then its top 16 bits) and exact double distances (Sterbenz).
std::uint16_t nearest_bf16(double d) {
  const double a = std::fabs(d);
  float f = static_cast<float>(a);
  if (static_cast<double>(f) > a) f = std::nextafter(f, 0.0f);
  const std::uint16_t lo = static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(f) >> 16);
  const double lo_v = std::bit_cast<float>(std::uint32_t{lo} << 16), hi_v = std::bit_cast<float>(std::uint32_t(lo + 1) << 16);
  const double below = a - lo_v, above = hi_v - a;
  const std::uint16_t mag = below < above ? lo : above < below ? static_cast<std::uint16_t>(lo + 1)
                                                               : static_cast<std::uint16_t>(lo + (lo & 1));
  return static_cast<std::uint16_t>(mag | (std::signbit(d) ? 0x8000u : 0u));
}
}  // namespace

TEST(TrnBfloat16, CxxConversionsRoundToNearestEvenAndKeepNans) {
  const trnBfloat16 one = 1.0f;
  EXPECT_EQ(one.x, 0x3f80u);
  EXPECT_EQ(static_cast<float>(one), 1.0f);
  EXPECT_EQ(trnBfloat16(std::bit_cast<float>(0x3f808000u)).x, 0x3f80u);  // tie to even (down)
  EXPECT_EQ(trnBfloat16(std::bit_cast<float>(0x3f818000u)).x, 0x3f82u);  // tie to even (up)
  EXPECT_EQ(trnBfloat16(std::bit_cast<float>(0x3f808001u)).x, 0x3f81u);  // above the tie
  EXPECT_EQ(trnBfloat16(-0.0f).x, 0x8000u);
  EXPECT_EQ(trnBfloat16(std::numeric_limits<float>::max()).x, 0x7f80u);  // past the largest bf16 -> inf
  EXPECT_EQ(trnBfloat16(-std::numeric_limits<float>::infinity()).x, 0xff80u);
  // NaN stays NaN: sign and top payload bits kept, quiet bit set (a low-payload sNaN does not become inf).
  for (const std::uint32_t nan : {0x7f800001u, 0xff812345u, 0x7fc00000u, 0xffffffffu}) {
    const trnBfloat16 b = std::bit_cast<float>(nan);
    EXPECT_EQ(b.x, static_cast<std::uint16_t>((nan >> 16) | 0x40u)) << hex(nan);
    EXPECT_TRUE(std::isnan(static_cast<float>(b))) << hex(nan);
    EXPECT_EQ(trnFloat2Bfloat16(std::bit_cast<float>(nan)).x, b.x);
    EXPECT_TRUE(std::isnan(static_cast<float>(trnBfloat16(std::bit_cast<double>(0x7ff0000000000001ull | (std::uint64_t{nan >> 31} << 63))))));
  }
  // Every code widens exactly (fp32's top half; NaN payload kept) and a non-NaN code round-trips.
  for (std::uint32_t c = 0; c < 0x10000u; ++c) {
    trnBfloat16 b;
    b.x = static_cast<std::uint16_t>(c);
    const float f = b;
    ASSERT_EQ(std::bit_cast<std::uint32_t>(f), c << 16) << hex(c);
    ASSERT_EQ(std::bit_cast<std::uint32_t>(trnBfloat162Float(b)), c << 16) << hex(c);
    if (!std::isnan(f)) {
      ASSERT_EQ(trnBfloat16(f).x, c) << hex(c);
    }
  }
  // The C++ float conversion is the engines' rounding (trn::f32_to_bf16_rne, checked against Eigen above).
  std::mt19937 rng(29);
  for (int i = 0; i < 200000; ++i) {
    const float f = std::bit_cast<float>(static_cast<std::uint32_t>(rng()));
    ASSERT_EQ(trnBfloat16(f).x, f32_to_bf16_rne(f)) << hex(std::bit_cast<std::uint32_t>(f));
  }
}

TEST(TrnBfloat16, DoubleConversionRoundsOnce) {
  // 1 + 2^-8 + 2^-40 lies above the midpoint 1 + 2^-8 of 1 and 1 + 2^-7; rounding to fp32 first lands on
  // the midpoint and ties to even (1.0): a single rounding gives 1 + 2^-7.
  const double just_above = 1.0 + 0x1p-8 + 0x1p-40;
  EXPECT_EQ(f32_to_bf16_rne(static_cast<float>(just_above)), 0x3f80u);  // the double rounding
  EXPECT_EQ(trnBfloat16(just_above).x, 0x3f81u);
  EXPECT_EQ(trnDouble2Bfloat16(-just_above).x, 0xbf81u);
  EXPECT_EQ(trnBfloat16(1.0 + 0x1p-8).x, 0x3f80u);  // the exact tie: to even
  EXPECT_EQ(trnBfloat16(1e300).x, 0x7f80u);         // overflow -> inf
  EXPECT_EQ(trnBfloat16(-0.0).x, 0x8000u);
  std::mt19937_64 rng(31);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> ex(-120, 120);
  for (int i = 0; i < 200000; ++i) {
    double d = std::ldexp(mant(rng), ex(rng));
    if (i % 3 == 0) d = std::nextafter(static_cast<double>(std::bit_cast<float>((std::bit_cast<std::uint32_t>(static_cast<float>(d)) & 0xffff0000u) | 0x8000u)), i % 2 ? 0.0 : 4.0);  // near a tie
    if (i % 2) d = -d;
    ASSERT_EQ(trnBfloat16(d).x, nearest_bf16(d)) << std::hexfloat << d;
  }
}

// The fp8 round-to-nearest-even fast path of store_from_f32 / store_row_f32 (core/src/dtype.cpp,
// f32_to_fp8_rne) gives encode_float's bits: every fp32 within 40 ulps of each fp8 value and of each
// midpoint between neighbours (the rounding boundaries, both signs), the formats' overflow edges,
// and every 4099th fp32 bit pattern (NaN, Inf, subnormals and zero included).
TEST(Fp8FastEncode, EqualsTheGenericEncoderBitForBit) {
  for (const DType t : {DType::f8e4m3, DType::f8e5m2, DType::f8e4m3fn}) {
    const FloatFormat f = float_format(t);
    std::vector<float> xs;
    auto around = [&](float v) {
      const std::uint32_t b = f32_to_bits(v);
      for (std::uint32_t d = 0; d <= 40; ++d) {
        xs.push_back(bits_to_f32(b + d));
        if (b >= d) xs.push_back(bits_to_f32(b - d));
      }
    };
    std::vector<float> values;
    for (std::uint32_t c = 0; c < 256; ++c) {
      const float v = decode_float(f, c);
      if (std::isfinite(v)) values.push_back(v);
    }
    std::sort(values.begin(), values.end());
    for (std::size_t i = 0; i < values.size(); ++i) {
      around(values[i]);
      if (i + 1 < values.size()) around(0.5f * (values[i] + values[i + 1]));  // exact: fp8 values are short
    }
    around(static_cast<float>(max_finite(t)) * 1.0625f);  // past the last midpoint (fn: past NaN)
    for (std::uint64_t b = 0; b <= 0xffffffffull; b += 4099) xs.push_back(bits_to_f32(static_cast<std::uint32_t>(b)));
    const std::size_t base = xs.size();
    for (std::size_t i = 0; i < base; ++i) xs.push_back(-xs[i]);
    std::vector<std::uint8_t> row(xs.size());
    store_row_f32(t, xs.data(), static_cast<std::int64_t>(xs.size()), reinterpret_cast<std::byte*>(row.data()), 1,
                  Rounding::nearest_even, nullptr, 0);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const auto want = static_cast<std::uint8_t>(encode_float(f, xs[i], Rounding::nearest_even, 0));
      std::uint8_t one = 0;
      store_from_f32(t, &one, xs[i], Rounding::nearest_even, 0);
      if (row[i] != want || one != want) {
        if (++mismatches <= 5)
          ADD_FAILURE() << dtype_name(t) << " x bits 0x" << std::hex << f32_to_bits(xs[i]) << ": row 0x" << int{row[i]}
                        << ", one 0x" << int{one} << ", encode_float 0x" << int{want};
      }
    }
    EXPECT_EQ(mismatches, 0u) << dtype_name(t) << " of " << xs.size();
  }
}
