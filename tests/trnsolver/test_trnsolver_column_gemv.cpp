// The tridiagonalization's column product (trnsolver/src/column_gemv.cpp) against the call it stands
// for, trnblas gemv(Op::N, n, n, 1, A, lda, x, 1, 0, y, 1): it issues the GEMM driver's instructions
// for 128 < n <= 256 itself, so y's bits and every trace record -- engine, opcode, shapes, bytes,
// flags and each region's memory, partitions and addresses, which is all the cost model reads -- must
// be the driver's, for every such n on every target. A slot at another SBUF offset, a missing
// accumulate flag or the stores in another order fail here.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "column_gemv.hpp"
#include "trn/blas/level12.hpp"

namespace {

using trn::Instruction;

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

TEST(ColumnGemv, SameBitsAndTraceAsTrnblasGemvForEveryOrderToTwoTiles) {
  std::mt19937 rng(2024);
  std::normal_distribution<float> nd;
  for (const trn::Generation target : {trn::Generation::trn1, trn::Generation::trn2, trn::Generation::trn3}) {
    trn::blas::Settings s;
    s.target = target;
    for (std::int64_t n = 120; n <= 264; ++n) {
      const std::int64_t lda = n + (n % 3) * 5;  // ld = n (sytrd's staged copy) and wider
      std::vector<float> A(static_cast<std::size_t>(lda * n)), x(static_cast<std::size_t>(n));
      for (float& v : A) v = nd(rng);
      for (float& v : x) v = nd(rng);
      if (n % 7 == 0) {  // signed zeros, an Inf and a NaN reach PSUM the same way too
        A[3] = -0.0f;
        x[1] = -0.0f;
        A[static_cast<std::size_t>(lda + 2)] = std::numeric_limits<float>::infinity();
        x[static_cast<std::size_t>(n - 1)] = std::numeric_limits<float>::quiet_NaN();
      }
      // One y buffer for both calls: its address is in the output DMAs' records.
      std::vector<float> y(static_cast<std::size_t>(n), 7.0f);
      trn::blas::CallReport r;
      trn::blas::gemv(s, trn::blas::Op::N, n, n, 1.0f, A.data(), lda, x.data(), 1, 0.0f, y.data(), 1, &r);
      const std::vector<float> y_ref = y;
      std::fill(y.begin(), y.end(), 7.0f);
      trn::TraceParts parts;
      trn::solver::detail::column_gemv(s, n, A.data(), lda, x.data(), y.data(), parts);
      const trn::Trace t = std::move(parts).join();
      const std::string where = "target " + std::to_string(static_cast<int>(target)) + " n " + std::to_string(n);
      for (std::int64_t i = 0; i < n; ++i)
        ASSERT_EQ(std::bit_cast<std::uint32_t>(y[static_cast<std::size_t>(i)]),
                  std::bit_cast<std::uint32_t>(y_ref[static_cast<std::size_t>(i)]))
            << where << " y[" << i << "]";
      ASSERT_EQ(t.instructions.size(), r.trace.instructions.size()) << where;
      for (std::size_t k = 0; k < t.instructions.size(); ++k)
        ASSERT_TRUE(same_record(t.instructions[k], r.trace.instructions[k]))
            << where << "\n column_gemv: " << describe(t.instructions[k])
            << "\n trnblas gemv: " << describe(r.trace.instructions[k]);
      EXPECT_EQ(t.per_engine, r.trace.per_engine) << where;
      EXPECT_EQ(t.host_steps, r.trace.host_steps) << where;
    }
  }
}

}  // namespace
