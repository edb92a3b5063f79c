// Element-semantics driver over the host SIMD paths: runs a seeded stream of VectorE / GpSimdE /
// ScalarE element instructions (tensor_tensor, tensor_scalar, tensor_reduce, tensor_tensor_scan,
// activation) on operands drawn from special values (NaNs with payloads, signalling NaNs, +-Inf,
// +-0, subnormals, extremes) and random finite ones, over shapes and layouts that take each host
// loop (columns [P, 1], short and long rows, odd tails, in place, strided and multi-dimensional
// views, bf16 operands), and prints one FNV-1a hash of every case's output bytes. Run it under
// TRN_HOST_SIMD=portable, avx2 and avx512 and compare the lines: docs/numerics.md section 8 says
// every host path gives the same bits. `--case N` prints case N's description and output words.
//   host_paths_driver [--cases N] [--seed S] [--case K]
#include <bit>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "trn/core/core.hpp"

using namespace trn;

namespace {

constexpr std::uint32_t kSpecial[] = {
    0x7fc00000u, 0xffc00000u, 0x7fc12345u, 0xffd00001u, 0x7fffffffu, 0xffffffffu,  // quiet NaNs
    0x7f800001u, 0xff912345u, 0x7fa00000u,                                        // signalling NaNs
    0x7f800000u, 0xff800000u, 0x00000000u, 0x80000000u,                           // +-Inf, +-0
    0x00000001u, 0x807fffffu, 0x00400000u, 0x80000010u,                           // subnormals
    0x3f800000u, 0xbf800000u, 0x3f000000u, 0x40000000u, 0xc0000000u,              // 1 -1 0.5 2 -2
    0x7f7fffffu, 0xff7fffffu, 0x00800000u, 0x3fc00000u, 0xbfc00000u};             // extremes, +-1.5

struct Gen {
  std::mt19937_64 rng;
  explicit Gen(std::uint64_t s) : rng(s) {}
  std::uint64_t next(std::uint64_t n) { return rng() % n; }
  std::uint32_t word() {
    switch (next(4)) {
      case 0:
      case 1: return kSpecial[next(std::size(kSpecial))];
      case 2: {  // a random finite value of moderate size
        const float v = static_cast<float>(static_cast<std::int64_t>(next(2001)) - 1000) / 37.0f;
        return std::bit_cast<std::uint32_t>(v);
      }
      default: {
        std::uint32_t w = static_cast<std::uint32_t>(rng());
        if ((w & 0x7f800000u) == 0x7f800000u) w ^= 0x00800000u;  // finite
        return w;
      }
    }
  }
  float value() { return std::bit_cast<float>(word()); }
};

void fill(const Tile& t, Gen& g) {
  for (int p = 0; p < t.partitions; ++p)
    for (std::int64_t i = 0; i < t.free_size(); ++i) {
      const std::uint32_t w = g.word();
      if (t.dtype == DType::f32)
        std::memcpy(t.at(p, i), &w, 4);
      else
        store_from_f32(t.dtype, t.at(p, i), std::bit_cast<float>(w), Rounding::nearest_even, 0);
    }
}

std::uint64_t fnv(std::uint64_t h, const void* p, std::size_t n) {
  const auto* b = static_cast<const unsigned char*>(p);
  for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}
std::uint64_t hash_tile(std::uint64_t h, const Tile& t, bool dump) {
  const auto es = static_cast<std::size_t>(dtype_size(t.dtype));
  for (int p = 0; p < t.partitions; ++p)
    for (std::int64_t i = 0; i < t.free_size(); ++i) {
      h = fnv(h, t.at(p, i), es);
      if (dump) {
        std::uint32_t w = 0;
        std::memcpy(&w, t.at(p, i), es);
        std::printf("  [%d,%" PRId64 "] %08x\n", p, i, w);
      }
    }
  return h;
}

constexpr AluOp kArith[] = {AluOp::add,       AluOp::subtract,  AluOp::multiply, AluOp::divide,
                            AluOp::maximum,   AluOp::minimum,   AluOp::abs_max,  AluOp::abs_min,
                            AluOp::equal,     AluOp::not_equal, AluOp::greater,  AluOp::less_equal,
                            AluOp::logical_or, AluOp::logical_xor, AluOp::power};
constexpr ActFunc kFuncs[] = {ActFunc::copy, ActFunc::square, ActFunc::relu,  ActFunc::sigmoid, ActFunc::tanh,
                              ActFunc::gelu, ActFunc::gelu_apprx_tanh, ActFunc::silu, ActFunc::softplus,
                              ActFunc::erf,  ActFunc::exp,  ActFunc::sign, ActFunc::abs, ActFunc::log,
                              ActFunc::sin,  ActFunc::arctan, ActFunc::sqrt, ActFunc::rsqrt, ActFunc::reciprocal};

// One case: allocates, fills, runs, hashes. Returns the hash; prints a description when dump.
std::uint64_t run_case(std::uint64_t seed, bool dump) {
  Gen g(seed);
  NeuronCore nc;
  const int kind = static_cast<int>(g.next(10));  // 0-3 tensor_tensor, 4-7 tensor_scalar, 8 reduce/scan, 9 activation
  const std::int32_t parts[] = {1, 2, 3, 32, 128};
  const std::int64_t frees[] = {1, 2, 3, 5, 15, 16, 17, 33, 64};
  const std::int32_t P = parts[g.next(std::size(parts))];
  const std::int64_t F = frees[g.next(std::size(frees))];
  const int layout = static_cast<int>(g.next(6));  // 0-2 dense, 3 [P, 2, F], 4 step-2 view, 5 bf16 operands
  const DType dt = layout == 5 ? DType::bf16 : DType::f32;
  auto make = [&](const char* name) {
    if (layout == 3) return nc.sbuf().alloc(dt, P, {2, F}, name);
    if (layout == 4) return nc.sbuf().alloc(dt, P, {2 * F}, name).slice(0, 0, F, 2);
    return nc.sbuf().alloc(dt, P, {F}, name);
  };
  const Tile a = make("a"), b = make("b");
  Tile d = make("d");
  fill(a, g);
  fill(b, g);
  fill(d, g);
  const int place = static_cast<int>(g.next(4));  // 1: dst = a, 2: dst = b (tensor_tensor)
  std::uint64_t h = 0xcbf29ce484222325ull;
  std::string what;
  char buf[256];
  try {
    if (kind <= 3) {
      const AluOp op = kArith[g.next(std::size(kArith))];
      const Engine e = op == AluOp::power ? Engine::gpsimd : Engine::vector;
      const Tile& dst = place == 1 ? a : place == 2 ? b : d;
      std::snprintf(buf, sizeof buf, "tensor_tensor %s P=%d F=%" PRId64 " layout=%d place=%d",
                    std::string(alu_op_name(op)).c_str(), P, F, layout, place);
      what = buf;
      nc.tensor_tensor(dst, a, b, op, e);
      h = hash_tile(h, dst, dump);
    } else if (kind <= 7) {
      const AluOp op0 = kArith[g.next(std::size(kArith))];
      const AluOp op1 = g.next(3) == 0 ? AluOp::bypass : kArith[g.next(std::size(kArith))];
      const Engine e = op0 == AluOp::power || op1 == AluOp::power ? Engine::gpsimd : Engine::vector;
      const bool r0 = g.next(2) == 1, r1 = g.next(2) == 1;
      auto scalar = [&](const char* name) -> ScalarOperand {
        if (g.next(2) == 0) return ScalarOperand(g.value());
        const Tile s = nc.sbuf().alloc(g.next(4) == 0 ? DType::bf16 : DType::f32, P, {1}, name);
        fill(s, g);
        return ScalarOperand(s);
      };
      const ScalarOperand s0 = scalar("s0"), s1 = scalar("s1");
      const Tile& dst = place == 1 ? a : d;
      std::snprintf(buf, sizeof buf,
                    "tensor_scalar %s%s %s(%08x) %s%s %s(%08x) P=%d F=%" PRId64 " layout=%d place=%d",
                    std::string(alu_op_name(op0)).c_str(), r0 ? "(rev)" : "", s0.is_tile ? "tile" : "imm",
                    std::bit_cast<std::uint32_t>(s0.imm), std::string(alu_op_name(op1)).c_str(), r1 ? "(rev)" : "",
                    s1.is_tile ? "tile" : "imm", std::bit_cast<std::uint32_t>(s1.imm), P, F, layout, place);
      what = buf;
      nc.tensor_scalar(dst, a, op0, s0, op1, s1, e, r0, r1);
      h = hash_tile(h, dst, dump);
    } else if (kind == 8) {
      const Tile col = nc.sbuf().alloc(DType::f32, P, {1}, "col");
      const AluOp rops[] = {AluOp::add, AluOp::multiply, AluOp::maximum, AluOp::minimum};
      const AluOp op = rops[g.next(4)];
      if (g.next(2) == 0) {
        std::snprintf(buf, sizeof buf, "tensor_reduce %s P=%d F=%" PRId64 " layout=%d",
                      std::string(alu_op_name(op)).c_str(), P, F, layout);
        what = buf;
        nc.tensor_reduce(col, a, op, g.next(2) == 1);
        h = hash_tile(h, col, dump);
      } else {
        const AluOp op1 = rops[g.next(4)];
        std::snprintf(buf, sizeof buf, "tensor_tensor_scan %s %s P=%d F=%" PRId64 " layout=%d",
                      std::string(alu_op_name(op)).c_str(), std::string(alu_op_name(op1)).c_str(), P, F, layout);
        what = buf;
        nc.tensor_tensor_scan(d, a, b, g.value(), op, op1);
        h = hash_tile(h, d, dump);
      }
    } else {
      const ActFunc f = kFuncs[g.next(std::size(kFuncs))];
      const Tile bias_t = nc.sbuf().alloc(DType::f32, P, {1}, "bias");
      fill(bias_t, g);
      const ScalarOperand bias = g.next(2) == 0 ? ScalarOperand(g.value()) : ScalarOperand(bias_t);
      const ScalarOperand scale = g.next(3) == 0 ? ScalarOperand(g.value()) : ScalarOperand(1.0f);
      const Tile red = nc.sbuf().alloc(DType::f32, P, {1}, "red");
      std::snprintf(buf, sizeof buf, "activation %s bias=%s scale=%08x P=%d F=%" PRId64 " layout=%d",
                    std::string(act_func_name(f)).c_str(), bias.is_tile ? "tile" : "imm",
                    std::bit_cast<std::uint32_t>(scale.imm), P, F, layout);
      what = buf;
      const bool with_reduce = g.next(2) == 0;
      nc.activation(d, a, f, bias, scale, with_reduce ? &red : nullptr);
      h = hash_tile(h, d, dump);
      if (with_reduce) h = hash_tile(h, red, dump);
    }
  } catch (const Error& e) {
    what += std::string(" -> error: ") + e.what();
    h = fnv(h, what.data(), what.size());
  }
  if (dump) std::printf("%s\n", what.c_str());
  return h;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t cases = 20000, seed = 1;
  long one = -1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    if (k == "--cases") cases = std::strtoull(argv[i + 1], nullptr, 10);
    if (k == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (k == "--case") one = std::strtol(argv[i + 1], nullptr, 10);
  }
  std::printf("# host SIMD: %s\n", std::string(host_simd_name(host_simd())).c_str());
  if (one >= 0) {
    run_case(seed * 1000003u + static_cast<std::uint64_t>(one), true);
    return 0;
  }
  for (std::uint64_t c = 0; c < cases; ++c)
    std::printf("%" PRIu64 " %016" PRIx64 "\n", c, run_case(seed * 1000003u + c, false));
  return 0;
}
