// Helpers shared by the core test suites: filling tiles from host arrays and reading them back
// through the emulated DMA, and random data. Kept deliberately simple (no emulator internals).
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "trn/core/core.hpp"

namespace trntest {

// The message of the trn::Error fn throws ("" when it throws none).
inline std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const trn::Error& e) {
    return e.what();
  }
  return "";
}

// Random fp32 values already representable in dtype t (so that loads are exact).
inline std::vector<float> random_values(std::size_t n, trn::DType t, std::uint64_t seed, float lo = -1.0f,
                                        float hi = 1.0f) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) {
    std::byte buf[4];
    trn::store_from_f32(t, buf, u(rng), trn::Rounding::nearest_even, 0);
    x = trn::load_as_f32(t, buf);
  }
  return v;
}

// Writes row-major host data [rows x cols] into an on-chip tile of any dtype via an HBM staging
// tensor and dma_copy (fp32 -> dtype conversion by the DMA, exact for representable values).
inline void upload(trn::NeuronCore& nc, const trn::Tile& dst, const std::vector<float>& host) {
  trn::HbmTensor h(trn::DType::f32, {dst.partitions, dst.free_size()});
  std::copy(host.begin(), host.end(), h.as<float>());
  nc.dma_copy(dst, h.tile(0, dst.partitions, 0, dst.free_size()));
}

// Reads any tile back as fp32 host data by direct element access (no instruction issued).
inline std::vector<float> read(const trn::Tile& t) {
  std::vector<float> out;
  out.reserve(static_cast<std::size_t>(t.elements()));
  for (int p = 0; p < t.partitions; ++p)
    for (std::int64_t i = 0; i < t.free_size(); ++i) out.push_back(trn::load_as_f32(t.dtype, t.at(p, i)));
  return out;
}

inline std::vector<std::uint32_t> read_bits(const trn::Tile& t) {
  std::vector<std::uint32_t> out;
  for (int p = 0; p < t.partitions; ++p)
    for (std::int64_t i = 0; i < t.free_size(); ++i) {
      std::uint32_t u = 0;
      __builtin_memcpy(&u, t.at(p, i), static_cast<std::size_t>(trn::dtype_size(t.dtype)));
      out.push_back(u);
    }
  return out;
}

// Direct element writes (any memory, including PSUM, which is not a DMA endpoint).
inline void poke(const trn::Tile& t, const std::vector<float>& v) {
  for (int p = 0; p < t.partitions; ++p)
    for (std::int64_t i = 0; i < t.free_size(); ++i)
      trn::store_from_f32(t.dtype, t.at(p, i), v[static_cast<std::size_t>(p * t.free_size() + i)],
                          trn::Rounding::nearest_even, 0);
}
inline void poke_int(const trn::Tile& t, const std::vector<std::int64_t>& v) {
  for (int p = 0; p < t.partitions; ++p)
    for (std::int64_t i = 0; i < t.free_size(); ++i)
      trn::store_int(t.dtype, t.at(p, i), v[static_cast<std::size_t>(p * t.free_size() + i)]);
}
inline std::vector<std::int64_t> read_int(const trn::Tile& t) {
  std::vector<std::int64_t> out;
  for (int p = 0; p < t.partitions; ++p)
    for (std::int64_t i = 0; i < t.free_size(); ++i) out.push_back(trn::load_as_int(t.dtype, t.at(p, i)));
  return out;
}
inline std::vector<std::uint8_t> raw_bytes(const trn::Tile& t) {
  std::vector<std::uint8_t> out;
  const auto es = static_cast<std::size_t>(trn::dtype_size(t.dtype));
  for (int p = 0; p < t.partitions; ++p)
    for (std::int64_t i = 0; i < t.free_size(); ++i) {
      const auto* b = reinterpret_cast<const std::uint8_t*>(t.at(p, i));
      out.insert(out.end(), b, b + es);
    }
  return out;
}
inline bool same_bits(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }

// Expects f() to throw E with every needle in its message.
template <class E, class F>
void expect_error(F&& f, std::initializer_list<const char*> needles) {
  try {
    f();
    ADD_FAILURE() << "expected an exception";
  } catch (const E& e) {
    const std::string m = e.what();
    for (const char* n : needles) EXPECT_NE(m.find(n), std::string::npos) << "message \"" << m << "\" lacks \"" << n << "\"";
  }
}

}  // namespace trntest
