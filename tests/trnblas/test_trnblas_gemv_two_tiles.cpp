// fp32 gemv of two tiles (trnblas/src/level2.cpp, gemv_two_tiles: x or y longer than 128, neither
// longer than 256) against the GEMM driver call it stands for, trnblas gemm(fp32, N, op(A)^T, 1, len_y,
// len_x, alpha, x, A, beta, y): the path issues the driver's instructions itself, so y's bits and every
// trace record -- engine, opcode, shapes, bytes, flags and each region's memory, partitions and
// addresses, which is all the cost model reads -- must be the driver's, for both transposes, alpha and
// beta (the beta epilogue's C slots), strided vectors, every length to two tiles, every target, timing-
// only, two emulated cores and the trn1 numerics. A slot at another SBUF offset, a missing accumulate
// flag or the stores in another order fail here. (Was test_trnsolver_column_gemv, session 19's copy of
// the program inside trnsolver.)
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "trn/blas/blas.hpp"
#include "trn/blas/level12.hpp"

namespace {

using trn::Instruction;
using trn::blas::Op;

std::string describe(const Instruction& in) {
  std::string s = std::to_string(in.index) + " " + std::string(trn::engine_name(in.engine)) + " " +
                  std::string(trn::opcode_name(in.opcode)) + " p" + std::to_string(in.partitions) + " f" +
                  std::to_string(in.free_elems) + " m" + std::to_string(in.matmul_m) + " acc" +
                  std::to_string(in.accumulate) + " rb" + std::to_string(in.bytes_read) + " wb" +
                  std::to_string(in.bytes_written);
  for (int k = 0; k < in.nregions; ++k) {
    const trn::Region& g = in.regions[static_cast<std::size_t>(k)];
    s += " [" + std::string(trn::mem_space_name(g.mem)) + (g.write ? "w " : "r ") + std::to_string(g.p0) + "+" +
         std::to_string(g.np) + " " + std::to_string(g.lo) + "-" + std::to_string(g.hi) + "]";
  }
  return s;
}

// Every field the cost model can read.
bool same_record(const Instruction& a, const Instruction& b) {
  if (a.index != b.index || a.program != b.program || a.core != b.core || a.engine != b.engine ||
      a.opcode != b.opcode || a.in_dtype != b.in_dtype || a.out_dtype != b.out_dtype || a.partitions != b.partitions ||
      a.free_elems != b.free_elems || a.matmul_m != b.matmul_m || a.inputs != b.inputs ||
      a.bytes_read != b.bytes_read || a.bytes_written != b.bytes_written ||
      std::bit_cast<std::uint64_t>(a.declared_cycles) != std::bit_cast<std::uint64_t>(b.declared_cycles) ||
      a.accumulate != b.accumulate || a.double_row != b.double_row || a.contiguous != b.contiguous ||
      a.subop != b.subop || a.nregions != b.nregions || a.host_label != b.host_label ||
      a.regions_dropped != b.regions_dropped)
    return false;
  for (int k = 0; k < a.nregions; ++k) {
    const trn::Region &g = a.regions[static_cast<std::size_t>(k)], &h = b.regions[static_cast<std::size_t>(k)];
    if (g.mem != h.mem || g.write != h.write || g.p0 != h.p0 || g.np != h.np || g.lo != h.lo || g.hi != h.hi)
      return false;
  }
  return true;
}

struct Case {
  Op trans;
  std::int64_t m, n, lda, incx, incy;
  float alpha, beta;
};

// gemv(trans, m, n, alpha, A, lda, x, incx, beta, y, incy) and the driver's GEMM on the same buffers.
void expect_driver_trace(const trn::blas::Settings& s, const Case& c, std::mt19937& rng, const std::string& where) {
  std::normal_distribution<float> nd;
  const std::int64_t len_x = c.trans == Op::N ? c.n : c.m, len_y = c.trans == Op::N ? c.m : c.n;
  std::vector<float> A(static_cast<std::size_t>(c.lda * c.n)), x(static_cast<std::size_t>(len_x * c.incx)),
      y0(static_cast<std::size_t>(len_y * c.incy));
  for (float& v : A) v = nd(rng);
  for (float& v : x) v = nd(rng);
  for (float& v : y0) v = nd(rng);
  if ((c.m + c.n) % 7 == 0) {  // signed zeros, an Inf and a NaN reach PSUM the same way too
    A[3] = -0.0f;
    x[0] = -0.0f;
    A[static_cast<std::size_t>(c.lda + 2)] = std::numeric_limits<float>::infinity();
    x[static_cast<std::size_t>((len_x - 1) * c.incx)] = std::numeric_limits<float>::quiet_NaN();
  }
  // One y buffer for both calls: its address is in the DMAs' records.
  std::vector<float> y = y0;
  trn::blas::CallReport r;
  trn::blas::gemv(s, c.trans, c.m, c.n, c.alpha, A.data(), c.lda, x.data(), c.incx, c.beta, y.data(), c.incy, &r);
  const std::vector<float> y_path = y;
  y = y0;
  trn::blas::CallReport d;
  trn::blas::gemm(s, trn::blas::GemmMode::fp32, Op::N, c.trans == Op::N ? Op::T : Op::N, 1, len_y, len_x, c.alpha,
                  {x.data(), trn::DType::f32, c.incx}, {A.data(), trn::DType::f32, c.lda}, c.beta,
                  {y.data(), trn::DType::f32, c.incy}, &d);
  for (std::size_t i = 0; i < y.size(); ++i)
    ASSERT_EQ(std::bit_cast<std::uint32_t>(y_path[i]), std::bit_cast<std::uint32_t>(y[i])) << where << " y[" << i << "]";
  const trn::Trace &t = r.trace, &u = d.trace;
  ASSERT_EQ(t.instructions.size(), u.instructions.size()) << where;
  for (std::size_t k = 0; k < t.instructions.size(); ++k)
    ASSERT_TRUE(same_record(t.instructions[k], u.instructions[k]))
        << where << "\n gemv: " << describe(t.instructions[k]) << "\n gemm: " << describe(u.instructions[k]);
  EXPECT_EQ(t.per_engine, u.per_engine) << where;
  EXPECT_EQ(t.host_steps, u.host_steps) << where;
  EXPECT_EQ(std::bit_cast<std::uint64_t>(r.profile.total_ns), std::bit_cast<std::uint64_t>(d.profile.total_ns)) << where;
}

std::string name(const trn::blas::Settings& s, const Case& c) {
  return "target " + std::to_string(static_cast<int>(s.target)) + (s.timing_only ? " timing-only" : "") +
         " cores " + std::to_string(s.num_cores) + " numerics " + std::to_string(static_cast<int>(s.numerics)) +
         " trans " + (c.trans == Op::N ? "N" : "T") + " m " + std::to_string(c.m) + " n " + std::to_string(c.n) +
         " lda " + std::to_string(c.lda) + " incx " + std::to_string(c.incx) + " incy " + std::to_string(c.incy) +
         " alpha " + std::to_string(c.alpha) + " beta " + std::to_string(c.beta);
}

// Square y = A x (sytrd's column products) for every order to two tiles, on every target.
TEST(GemvTwoTiles, SameBitsAndTraceAsTheGemmDriverForEveryOrderToTwoTiles) {
  std::mt19937 rng(2024);
  for (const trn::Generation target : {trn::Generation::trn1, trn::Generation::trn2, trn::Generation::trn3}) {
    trn::blas::Settings s;
    s.target = target;
    for (std::int64_t n = 129; n <= 264; ++n) {  // n <= 128: gemv_one_program (its own trace)
      const Case c{Op::N, n, n, n + (n % 3) * 5, 1, 1, 1.0f, 0.0f};  // ld = n (sytrd's staged copy) and wider
      expect_driver_trace(s, c, rng, name(s, c));
      if (HasFatalFailure()) return;
    }
  }
}

// Rectangular, transposed, scaled, accumulating and strided calls, and other settings.
TEST(GemvTwoTiles, SameBitsAndTraceAsTheGemmDriverForEveryShapeAndSetting) {
  std::mt19937 rng(7);
  const std::int64_t lens[] = {1, 5, 64, 127, 128, 129, 130, 200, 255, 256, 257};
  for (int variant = 0; variant < 6; ++variant) {
    trn::blas::Settings s;
    s.target = variant == 1 ? trn::Generation::trn2 : variant == 2 ? trn::Generation::trn3 : trn::Generation::trn1;
    s.timing_only = variant == 3;
    s.num_cores = variant == 4 ? 2 : 1;
    if (variant == 5) {
      s.numerics = trn::Numerics::trn1_measured;
      s.stochastic_rounding = true;
      s.sr_seed = 99;
    }
    for (const Op trans : {Op::N, Op::T})
      for (const std::int64_t m : lens)
        for (const std::int64_t n : lens) {
          if (std::max(m, n) <= 128) continue;  // gemv_one_program: its own trace (docs/trnblas.md)
          const int pick = static_cast<int>((m * 3 + n) % 4);
          const float alpha = pick == 0 ? 1.0f : pick == 1 ? 0.8f : pick == 2 ? -2.0f : 0.3f;
          const float beta = pick == 2 ? 0.0f : pick == 3 ? 1.0f : 0.6f * static_cast<float>(pick);
          const Case c{trans, m, n, m + (n % 2) * 3, 1 + (m % 3 == 0 ? 1 : 0), 1 + (n % 4 == 1 ? 2 : 0), alpha, beta};
          expect_driver_trace(s, c, rng, name(s, c));
          if (HasFatalFailure()) return;
        }
  }
}

}  // namespace
