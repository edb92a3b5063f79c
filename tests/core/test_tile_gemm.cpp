// trn::tile GEMM collective (trn/tile/gemm.hpp), below any library: every block shape the kernel
// knows (streaming and resident pass plans, the K-blocked plan), forced on small problems, computes
// C = alpha op(A) op(B) + beta C exactly on data whose sums are exact in fp32 (small integers;
// alpha, beta powers of two), against a plain fp64 loop; the pass plans give the same bits as
// each other on random data; the accumulation groups are well formed (strict mode rejects an
// accumulate onto unwritten PSUM, and the trace has one group start per output tile and K chunk);
// and the plan is a trn::Plan whose rule picks the plan docs/trnblas.md describes. The BLAS-level
// tests (tests/trnblas/test_trnblas_plan.cpp, test_trnblas_numerics.cpp) drive it through trnblas.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "trn/core/core.hpp"
#include "../../core/src/program_replay.hpp"  // the recorder and replay (internal)
#include "trn/tile/gemm.hpp"

using namespace trn;
using tile::BlockGemmArgs;
using tile::BlockShape;

namespace {

static_assert(Plan<tile::GemmPlan>);

constexpr std::int64_t kTileI = 512, kTileJ = 128;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// One problem: op(A) as [K, M] and op(B) as [K, N] row-major, C as [N, M] (row j = column j of C).
struct Problem {
  std::int64_t m, n, k;
  std::vector<float> a, b, c;
  Problem(std::int64_t m_, std::int64_t n_, std::int64_t k_, unsigned seed, int range) : m(m_), n(n_), k(k_) {
    std::mt19937 g(seed);
    std::uniform_int_distribution<int> d(-range, range);
    a.resize(static_cast<std::size_t>(k * m));
    b.resize(static_cast<std::size_t>(k * n));
    c.resize(static_cast<std::size_t>(n * m));
    for (float& x : a) x = static_cast<float>(d(g));
    for (float& x : b) x = static_cast<float>(d(g));
    for (float& x : c) x = static_cast<float>(d(g));
  }
  BlockGemmArgs args(DType load, float alpha, float beta) {
    BlockGemmArgs g;
    g.a_src = {HbmTensor::wrap(a.data(), DType::f32, {k, m})};
    g.b_src = {HbmTensor::wrap(b.data(), DType::f32, {k, n})};
    g.load = load;
    g.pairs = {{0, 0}};
    g.m = m;
    g.n = n;
    g.k_end = k;
    g.c = HbmTensor::wrap(c.data(), DType::f32, {n, m});
    g.alpha = alpha;
    g.beta = beta;
    return g;
  }
  // alpha sum_{k in [k0, k1)} A[k][i] B[k][j] + beta C0[j][i] for every (j, i), in fp64 (exact for
  // the data of these tests: every partial sum has fewer than 53 significant bits), as float.
  std::vector<float> expected(std::int64_t k0, std::int64_t k1, float alpha, float beta, const std::vector<float>& c0) const {
    std::vector<float> e(c0.size());
    std::vector<double> s(static_cast<std::size_t>(m));
    for (std::int64_t j = 0; j < n; ++j) {
      std::fill(s.begin(), s.end(), 0.0);
      for (std::int64_t kk = k0; kk < k1; ++kk) {
        const double bv = b[static_cast<std::size_t>(kk * n + j)];
        for (std::int64_t i = 0; i < m; ++i) s[static_cast<std::size_t>(i)] += a[static_cast<std::size_t>(kk * m + i)] * bv;
      }
      for (std::int64_t i = 0; i < m; ++i) {
        const std::size_t at = static_cast<std::size_t>(j * m + i);
        e[at] = static_cast<float>(alpha * s[static_cast<std::size_t>(i)] + beta * static_cast<double>(c0[at]));
      }
    }
    return e;
  }
};

// The grid gemm_block_kernel expects for a block shape (plan_gemm's rule).
std::array<int, 3> grid_of(const BlockShape& b, std::int64_t m, std::int64_t n, int problems) {
  if (b.k_blocked)
    return {static_cast<int>(ceil_div(n, b.block_j * kTileJ)), static_cast<int>(ceil_div(m, b.block_i * kTileI)), problems};
  return {static_cast<int>(ceil_div(n, b.tiles_j * kTileJ)), b.resident ? 1 : static_cast<int>(ceil_div(m, b.tiles_i * kTileI)),
          problems};
}

LaunchResult run(const std::vector<BlockGemmArgs>& problems, const BlockShape& b, Generation gen = Generation::trn1) {
  LaunchConfig lc;
  lc.core.generation = gen;
  lc.core.strict = true;  // accumulate onto PSUM no product of the group wrote is an error
  lc.grid = grid_of(b, problems.front().m, problems.front().n, static_cast<int>(problems.size()));
  return launch(lc, [&](NeuronCore& nc) {
    tile::gemm_block_kernel(nc, problems[static_cast<std::size_t>(nc.program_id(2))], b);
  });
}

// Block shapes of all three plans, small enough to split m = 700, n = 300 into several programs.
std::vector<BlockShape> shapes() {
  std::vector<BlockShape> v;
  v.push_back({1, 1, false, 2, 1, 1});      // streaming, one bank per pass
  v.push_back({2, 3, false, 3, 6, 1});      // streaming, 2 x 3 banks, 3 operand buffers
  v.push_back({1, 2, true, 2, 2, 1});       // resident op(B) strip
  v.push_back({2, 1, true, 4, 2, 2});       // resident, two strips (programs alternate)
  BlockShape kb;
  kb.k_blocked = true;
  kb.block_i = 1;
  kb.block_j = 2;
  kb.tiles_i = 1;
  kb.tiles_j = 1;  // two bank groups per block
  kb.epilogue_slots = 2;
  v.push_back(kb);
  kb.block_i = 2;
  kb.block_j = 3;
  kb.tiles_j = 3;
  v.push_back(kb);
  return v;
}

std::string name(const BlockShape& b) {
  if (b.k_blocked) return "k_blocked " + std::to_string(b.block_i) + "x" + std::to_string(b.block_j);
  return std::string(b.resident ? "resident " : "streaming ") + std::to_string(b.tiles_i) + "x" + std::to_string(b.tiles_j);
}

}  // namespace

// Every block shape, bf16 and fp32 loads, beta reads of C, alpha scaling, a K range that starts
// inside the operands: exact against the fp64 loop.
TEST(TileGemm, EveryBlockShapeComputesTheExactProduct) {
  for (const BlockShape& b : shapes())
    for (DType load : {DType::bf16, DType::f32}) {
      Problem p(700, 300, 700, 1, 8);
      const std::vector<float> c0 = p.c;
      BlockGemmArgs g = p.args(load, 2.0f, 0.5f);
      g.k_begin = 37;
      g.k_end = 660;
      run({g}, b);
      const std::vector<float> e = p.expected(37, 660, 2.0f, 0.5f, c0);
      for (std::int64_t j = 0; j < p.n; ++j)
        for (std::int64_t i = 0; i < p.m; ++i)
          ASSERT_EQ(p.c[static_cast<std::size_t>(j * p.m + i)], e[static_cast<std::size_t>(j * p.m + i)])
              << name(b) << " load " << dtype_name(load) << " at (" << i << ", " << j << ")";
    }
}

// The pass plans never change bits (the K order of every element is fixed), nor does the K-blocked
// plan while K is one chunk: random fp32 data, bf16 loads, C cast to bf16.
TEST(TileGemm, PassPlansGiveTheSameBits) {
  std::vector<std::vector<std::uint16_t>> outs;
  for (const BlockShape& b : shapes()) {
    Problem p(700, 300, 500, 2, 1);
    std::mt19937 g(3);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    for (float& x : p.a) x = d(g);
    for (float& x : p.b) x = d(g);
    std::vector<std::uint16_t> c(static_cast<std::size_t>(p.n * p.m), 0x3f80);  // bf16 1.0
    BlockGemmArgs args = p.args(DType::bf16, 0.75f, 0.5f);
    args.c = HbmTensor::wrap(c.data(), DType::bf16, {p.n, p.m});
    run({args}, b);
    outs.push_back(c);
    EXPECT_EQ(c, outs.front()) << name(b) << " differs from " << name(shapes().front());
  }
}

// Triangle mode: the lower or upper triangle of C (i >= j, i <= j) is written, the other neither
// read nor written (a NaN there would leak through beta * C).
TEST(TileGemm, TriangleModeTouchesOnlyItsTriangle) {
  for (tile::Triangle tri : {tile::Triangle::lower, tile::Triangle::upper})
    for (const BlockShape& b : {shapes()[1], shapes()[3]}) {
      Problem p(600, 600, 200, 4, 8);
      for (std::int64_t j = 0; j < p.n; ++j)
        for (std::int64_t i = 0; i < p.m; ++i)
          if ((tri == tile::Triangle::lower) != (i >= j) && i != j) p.c[static_cast<std::size_t>(j * p.m + i)] = NAN;
      const std::vector<float> c0 = p.c;
      BlockGemmArgs g = p.args(DType::bf16, 1.0f, 0.5f);
      g.b_src = g.a_src;  // SYRK: op(B) = op(A)
      g.n = g.m;
      g.triangle = tri;
      p.b = p.a;
      run({g}, b);
      const std::vector<float> e = p.expected(0, p.k, 1.0f, 0.5f, c0);
      for (std::int64_t j = 0; j < p.n; ++j)
        for (std::int64_t i = 0; i < p.m; ++i) {
          const float got = p.c[static_cast<std::size_t>(j * p.m + i)];
          if ((tri == tile::Triangle::lower) == (i >= j) || i == j)
            ASSERT_EQ(got, e[static_cast<std::size_t>(j * p.m + i)]) << name(b) << " (" << i << ", " << j << ")";
          else
            ASSERT_TRUE(std::isnan(got)) << name(b) << " wrote outside the triangle at (" << i << ", " << j << ")";
        }
    }
}

// Split terms (bf16x3's hi/lo products) and raw sums: op(B) needs a lo term (integers plus 1/64ths,
// 10 significant bits), op(A) is exact in bf16, so the three products sum exactly; raw mode stores
// the sums unscaled (alpha and beta ignored, C not read).
TEST(TileGemm, SplitTermsAndRawSumsAreExact) {
  for (const BlockShape& b : {shapes()[0], shapes()[2]}) {
    Problem p(520, 200, 150, 5, 3);
    std::mt19937 g(6);
    std::uniform_int_distribution<int> d(-512, 512);
    for (float& x : p.b) x = static_cast<float>(d(g)) / 64.0f;
    const std::vector<float> c0 = p.c;
    BlockGemmArgs args = p.args(DType::f32, 4.0f, 0.0f);
    args.split = 2;
    args.pairs = {{1, 0}, {0, 1}, {0, 0}};  // (A term, B term): lo.hi, hi.lo, hi.hi
    args.raw = true;
    run({args}, b);
    const std::vector<float> e = p.expected(0, p.k, 1.0f, 0.0f, c0);
    for (std::int64_t j = 0; j < p.n; ++j)
      for (std::int64_t i = 0; i < p.m; ++i)
        ASSERT_EQ(p.c[static_cast<std::size_t>(j * p.m + i)], e[static_cast<std::size_t>(j * p.m + i)])
            << name(b) << " (" << i << ", " << j << ")";
  }
}

// fp8 on trn2 packs K tiles of 256 rows as row pairs (double_row), an odd K included; several
// problems of one launch (grid axis 2) each get their own C.
TEST(TileGemm, DoubleRowAndSeveralProblems) {
  for (const BlockShape& b : {shapes()[1], shapes()[4]}) {
    std::vector<Problem> ps;
    for (unsigned s = 0; s < 2; ++s) ps.emplace_back(300, 260, 301, 7 + s, 8);  // integers |x| <= 8: exact in e4m3
    std::vector<std::vector<float>> c0;
    std::vector<BlockGemmArgs> args;
    for (Problem& p : ps) {
      c0.push_back(p.c);
      args.push_back(p.args(DType::f8e4m3, 1.0f, 1.0f));
    }
    ASSERT_TRUE(tile::uses_double_row(hardware_spec(Generation::trn2), args.front()));
    const LaunchResult r = run(args, b, Generation::trn2);
    std::int64_t double_row = 0;
    for (const Instruction& in : r.trace.instructions) double_row += in.opcode == Opcode::nc_matmul && in.double_row;
    EXPECT_GT(double_row, 0);
    for (std::size_t q = 0; q < ps.size(); ++q) {
      const std::vector<float> e = ps[q].expected(0, ps[q].k, 1.0f, 1.0f, c0[q]);
      for (std::int64_t j = 0; j < ps[q].n; ++j)
        for (std::int64_t i = 0; i < ps[q].m; ++i)
          ASSERT_EQ(ps[q].c[static_cast<std::size_t>(j * ps[q].m + i)], e[static_cast<std::size_t>(j * ps[q].m + i)])
              << name(b) << " problem " << q << " (" << i << ", " << j << ")";
    }
  }
}

// Inline launches (trn/core/inline_launch.hpp): a launch of several small problems runs on the
// calling thread whatever host_threads asks, a large one keeps the threads it asks for, and both
// give the bits and trace of a one-thread launch.
TEST(TileGemm, SmallMultiProgramLaunchesRunInline) {
  struct Case {
    std::int64_t m, n, k;
    int problems;
    int threads;  // LaunchResult::host_threads expected with host_threads = 2
  };
  for (const Case& c : {Case{16, 16, 16, 8, 1}, Case{8, 1, 8, 3, 1}, Case{700, 300, 129, 2, 2}}) {
    std::vector<float> c_by_threads[2];
    Trace traces[2];
    for (int threads : {1, 2}) {
      std::vector<Problem> ps;
      for (int q = 0; q < c.problems; ++q) ps.emplace_back(c.m, c.n, c.k, 11 + static_cast<unsigned>(q), 4);
      std::vector<BlockGemmArgs> args;
      for (Problem& p : ps) args.push_back(p.args(DType::bf16, 1.0f, 0.5f));
      LaunchConfig lc;
      lc.host_threads = threads;
      const LaunchResult r = tile::launch_gemm(lc, args);
      EXPECT_EQ(r.host_threads, threads == 1 ? 1 : c.threads) << c.m << "x" << c.n << "x" << c.k << " x" << c.problems;
      for (const Problem& p : ps) c_by_threads[threads - 1].insert(c_by_threads[threads - 1].end(), p.c.begin(), p.c.end());
      traces[threads - 1] = r.trace;
    }
    EXPECT_EQ(c_by_threads[0], c_by_threads[1]);
    ASSERT_EQ(traces[0].instructions.size(), traces[1].instructions.size());
    for (std::size_t i = 0; i < traces[0].instructions.size(); ++i) {
      const Instruction &a = traces[0].instructions[i], &b = traces[1].instructions[i];
      ASSERT_TRUE(a.opcode == b.opcode && a.program == b.program && a.index == b.index && a.core == b.core &&
                  a.free_elems == b.free_elems)
          << "record " << i;
    }
  }
}

// launch_gemm runs plan_launch's plan: the trace holds the plan's matmul count, one accumulation
// group start (accumulate = false) per output tile (pass plans) or per output tile and K chunk
// (K-blocked), and the kernel's SBUF peak within the plan's count.
TEST(TileGemm, LaunchRunsThePlanItPrints) {
  struct Case {
    std::int64_t m, n, k;
    bool k_blocked;
  };
  for (const Case& c : {Case{700, 300, 129, false}, Case{128, 1536, 1100, true}}) {
    Problem p(c.m, c.n, c.k, 9, 2);
    LaunchConfig lc;
    lc.core.execute = false;  // timing only: the instruction stream and allocations are real
    tile::GemmPlan plan;
    const LaunchResult r = tile::launch_gemm(lc, {p.args(DType::bf16, 1.0f, 0.0f)}, &plan);
    EXPECT_EQ(plan.block.k_blocked, c.k_blocked) << plan.print();
    EXPECT_NE(plan.print().find(c.k_blocked ? "accumulated in fp32 SBUF" : "loops jc>ic>pc>macro"), std::string::npos);
    const std::int64_t tiles = ceil_div(c.m, kTileI) * ceil_div(c.n, kTileJ), k_tiles = ceil_div(c.k, 128);
    std::int64_t matmuls = 0, starts = 0;
    for (const Instruction& in : r.trace.instructions)
      if (in.opcode == Opcode::nc_matmul) {
        ++matmuls;
        starts += !in.accumulate;
      }
    EXPECT_EQ(matmuls, plan.matmuls);
    EXPECT_EQ(matmuls, tiles * k_tiles);
    EXPECT_EQ(starts, tiles * (c.k_blocked ? ceil_div(k_tiles, tile::kKChunkTiles) : 1));
    EXPECT_LE(r.sbuf_peak_bytes, plan.sbuf_bytes);
  }
}

// The plan rule on every generation: the SBUF count fits, the banks of a pass fit PSUM, split modes
// and triangles never take the K-blocked plan, and whether K is chunked does not depend on the
// generation (it changes the association of the sums).
TEST(TileGemm, PlanFitsEveryGenerationAndChunksKByShapeAlone) {
  const std::vector<std::array<std::int64_t, 3>> dims = {
      {1, 1, 1}, {700, 130, 129}, {512, 1024, 16384}, {1024, 4096, 1100}, {128, 1536, 1100}, {4096, 8192, 8192}};
  for (const auto& [m, n, k] : dims)
    for (int split : {1, 3})
      for (bool triangle : {false, true}) {
        tile::SbufBytes bytes;
        bytes.split = split;
        bytes.term_bytes = 2;
        bytes.triangle = triangle;
        bytes.read_c = true;
        bytes.cast_bytes = 2;
        int chunked = -1;
        for (Generation gen : {Generation::trn1, Generation::trn2, Generation::trn3}) {
          const HardwareSpec& hw = hardware_spec(gen);
          const tile::GemmPlan plan = tile::plan_gemm(hw, m, n, k, 1, split == 1 ? 1 : 3, bytes, false);
          EXPECT_LE(plan.sbuf_bytes, hw.sbuf_partition_bytes) << plan.print();
          EXPECT_LE(plan.block.tiles_i * plan.block.tiles_j, hw.psum_banks) << plan.print();
          if (split > 1 || triangle) {
            EXPECT_FALSE(plan.block.k_blocked) << plan.print();
          }
          if (chunked < 0) chunked = plan.block.k_blocked;
          EXPECT_EQ(plan.block.k_blocked, chunked != 0) << plan.print();
        }
      }
}

// plan_gemm remembers the last plan per thread for the built-in generation tables: alternating
// shapes, generations and byte counts must each get their own plan, the same as planning afresh
// for a copy of the table (a caller's spec, which is never memoised).
TEST(TileGemm, PlanMemoReturnsThePlanOfTheArguments) {
  const std::vector<std::array<std::int64_t, 3>> dims = {{8, 8, 8}, {1, 8, 8}, {700, 130, 129}, {8, 8, 8}, {4096, 8192, 8192}};
  for (int round = 0; round < 2; ++round)
    for (const auto& [m, n, k] : dims)
      for (Generation gen : {Generation::trn1, Generation::trn2})
        for (int term_bytes : {2, 4}) {
          tile::SbufBytes bytes;
          bytes.term_bytes = term_bytes;
          const HardwareSpec copy = hardware_spec(gen);  // another address: planned afresh
          const tile::GemmPlan memo = tile::plan_gemm(hardware_spec(gen), m, n, k, 1, 1, bytes, term_bytes == 4);
          const tile::GemmPlan fresh = tile::plan_gemm(copy, m, n, k, 1, 1, bytes, term_bytes == 4);
          EXPECT_EQ(memo.print(), fresh.print());
          EXPECT_EQ(memo.tensor_bound_ns, fresh.tensor_bound_ns) << memo.print();
          EXPECT_EQ(memo.m, m);
          EXPECT_EQ(memo.k, k);
        }
}

namespace {
// Every field of two trace records (not their padding bytes, which a Region copy leaves as they were).
bool same_record(const Instruction& a, const Instruction& b) {
  const auto same_region = [](const Region& x, const Region& y) {
    return x.mem == y.mem && x.write == y.write && x.p0 == y.p0 && x.np == y.np && x.lo == y.lo && x.hi == y.hi;
  };
  bool same = a.index == b.index && a.program == b.program && a.core == b.core && a.engine == b.engine &&
              a.opcode == b.opcode && a.in_dtype == b.in_dtype && a.out_dtype == b.out_dtype &&
              a.partitions == b.partitions && a.free_elems == b.free_elems && a.matmul_m == b.matmul_m &&
              a.inputs == b.inputs && a.bytes_read == b.bytes_read && a.bytes_written == b.bytes_written &&
              a.declared_cycles == b.declared_cycles && a.accumulate == b.accumulate && a.double_row == b.double_row &&
              a.contiguous == b.contiguous && a.subop == b.subop && a.nregions == b.nregions &&
              a.host_label == b.host_label && a.regions_dropped == b.regions_dropped;
  for (std::size_t r = 0; r < a.nregions && same; ++r) same = same_region(a.regions[r], b.regions[r]);
  return same;
}
}  // namespace

// A recorded program replays tensor_scalar's scalar operands as recorded: tiles (on chip or
// renamed HBM operands) and immediates, each in its own position (an event keeps the tiles in its
// slots 2 and 3, core/src/program_replay.hpp). The replay on new inputs leaves the bits and trace
// records of a cold run of the same kernel on them.
TEST(ProgramReplay, TensorScalarTileAndImmediateScalarsReplayAsACold) {
  namespace rp = trn::detail::replay;
  const auto kernel = [](NeuronCore& nc, const HbmTensor& x, const HbmTensor& s, const HbmTensor& y) {
    AllocScope scope(nc.sbuf());
    const Tile xt = scope.alloc(DType::f32, 4, {8}, "x");
    const Tile st = scope.alloc(DType::f32, 4, {2}, "s");
    const Tile yt = scope.alloc(DType::f32, 4, {8}, "y");
    nc.dma_copy(xt, x.tile(0, 4, 0, 8));
    nc.dma_copy(st, s.tile(0, 4, 0, 2));
    // Both scalars tiles (different columns), then an immediate first and a tile second, then the reverse.
    nc.tensor_scalar(yt, xt, AluOp::multiply, st.cols(0, 1), AluOp::subtract, st.cols(1, 1));
    nc.tensor_scalar(yt, yt, AluOp::add, 0.25f, AluOp::multiply, st.cols(1, 1));
    nc.tensor_scalar(yt, yt, AluOp::divide, st.cols(0, 1), AluOp::add, -3.0f);
    nc.dma_copy(y.tile(0, 4, 0, 8), yt);
  };
  const auto filled = [](std::int64_t cols, float first, float step) {
    HbmTensor t(DType::f32, {4, cols});
    for (std::int64_t i = 0; i < 4 * cols; ++i) t.as<float>()[i] = first + step * static_cast<float>(i);
    return t;
  };
  const auto operands = [](const HbmTensor& x, const HbmTensor& s, const HbmTensor& y) {
    return std::array<rp::HbmOperand, 3>{rp::hbm_operand(x), rp::hbm_operand(s), rp::hbm_operand(y)};
  };
  NeuronCore nc;
  const HbmTensor x1 = filled(8, 1.0f, 0.5f), s1 = filled(2, 2.0f, 1.0f), y1(DType::f32, {4, 8});
  const auto ops1 = operands(x1, s1, y1);
  rp::Program program;
  rp::record(nc, ops1, program, [&](NeuronCore& c) { kernel(c, x1, s1, y1); });
  ASSERT_TRUE(program.complete);
  // New inputs: the scalars 1.5 and 0.75 apart per partition, so a swapped operand changes the bits.
  const HbmTensor x2 = filled(8, -2.0f, 0.375f), s2 = filled(2, 3.0f, -0.75f);
  const HbmTensor y_replay(DType::f32, {4, 8}), y_cold(DType::f32, {4, 8});
  nc.begin_program({0, 0, 0}, {1, 1, 1}, 0, 0);
  rp::replay(nc, program, operands(x2, s2, y_replay));
  const Trace replayed = nc.trace();
  NeuronCore fresh;
  kernel(fresh, x2, s2, y_cold);
  for (std::int64_t i = 0; i < 32; ++i)
    EXPECT_EQ(std::bit_cast<std::uint32_t>(y_replay.as<float>()[i]), std::bit_cast<std::uint32_t>(y_cold.as<float>()[i]))
        << "element " << i;
  ASSERT_EQ(replayed.instructions.size(), fresh.trace().instructions.size());
  for (std::size_t i = 0; i < replayed.instructions.size(); ++i) {
    if (replayed.instructions[i].opcode == Opcode::dma_copy) continue;  // DMA records name HBM addresses (other tensors)
    EXPECT_TRUE(same_record(replayed.instructions[i], fresh.trace().instructions[i])) << "record " << i;
  }
}

// A one-program launch repeated on the same thread runs cold, then records, then replays
// (core/src/tile/gemm_replay.hpp); a placed replay skips the allocations no instruction touches (a
// small problem's spare operand and epilogue slots: docs/architecture.md "Per-call cost", ninth
// round). Every run leaves the cold run's C bits, trace records (byte for byte) and SBUF/PSUM
// peaks — the peaks are what the skipped allocations would otherwise change.
TEST(TileGemm, ReplaySkippingUntouchedSlotsKeepsPeaksTraceAndBits) {
  struct Case {
    std::int64_t m, n, k;
    DType load;
    float beta;
  };
  for (const Case& c : {Case{8, 1, 8, DType::f32, 0.0f}, Case{8, 1, 8, DType::f32, 0.5f}, Case{8, 8, 8, DType::bf16, 0.5f},
                        Case{16, 16, 16, DType::f32, 0.0f}}) {
    std::thread([&] {  // a fresh thread: its first launch of the key is cold
      Problem p(c.m, c.n, c.k, 5, 4);
      const std::vector<float> c0 = p.c;
      LaunchConfig lc;
      lc.host_threads = 1;
      std::vector<float> cold_c;
      LaunchResult cold;
      for (int run = 0; run < 4; ++run) {
        p.c = c0;
        const LaunchResult r = tile::launch_gemm(lc, {p.args(c.load, 1.0f, c.beta)});
        if (run == 0) {
          cold = r;
          cold_c = p.c;
          continue;
        }
        const std::string what = std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k) + " run " +
                                 std::to_string(run);
        EXPECT_EQ(p.c, cold_c) << what;
        EXPECT_EQ(r.sbuf_peak_bytes, cold.sbuf_peak_bytes) << what;
        EXPECT_EQ(r.psum_peak_bytes, cold.psum_peak_bytes) << what;
        ASSERT_EQ(r.trace.instructions.size(), cold.trace.instructions.size()) << what;
        for (std::size_t i = 0; i < r.trace.instructions.size(); ++i)
          EXPECT_TRUE(same_record(r.trace.instructions[i], cold.trace.instructions[i])) << what << " record " << i;
      }
      EXPECT_GT(cold.sbuf_peak_bytes, 0);
    }).join();
  }
}

// Launches cycling through more shapes than the warm table holds (tile::gemm_detail::kWarmGemmEntries)
// run cold on every sighting (a recording would be evicted before it replays: gemm_replay.cpp,
// seen_before), and a shape repeated right away still records and replays, in the same thread: every
// run leaves the first run's C bits and trace records, and matches the exact product.
TEST(TileGemm, ShapesCyclingPastTheWarmTableKeepTraceAndBits) {
  std::thread([] {
    constexpr int kShapes = 132;  // more than kWarmGemmEntries (128)
    std::vector<Problem> problems;
    for (int s = 0; s < kShapes; ++s) problems.emplace_back(8 + s % 64, 3 + s / 64, 8, 11 + static_cast<unsigned>(s), 4);
    std::vector<std::vector<float>> c0, first_c;
    std::vector<LaunchResult> first;
    for (Problem& p : problems) c0.push_back(p.c);
    LaunchConfig lc;
    lc.host_threads = 1;
    for (int round = 0; round < 4; ++round)
      for (int s = 0; s < kShapes; ++s)
        for (int again = 0; again < (s == 0 ? 3 : 1); ++again) {  // shape 0 three times in a row: recorded, replayed
          Problem& p = problems[static_cast<std::size_t>(s)];
          p.c = c0[static_cast<std::size_t>(s)];
          const LaunchResult r = tile::launch_gemm(lc, {p.args(DType::f32, 1.0f, 0.5f)});
          const std::string what = "shape " + std::to_string(s) + " round " + std::to_string(round) + " run " + std::to_string(again);
          if (round == 0 && again == 0) {
            EXPECT_EQ(p.c, p.expected(0, p.k, 1.0f, 0.5f, c0[static_cast<std::size_t>(s)])) << what;
            first.push_back(r);
            first_c.push_back(p.c);
            continue;
          }
          const LaunchResult& f = first[static_cast<std::size_t>(s)];
          EXPECT_EQ(p.c, first_c[static_cast<std::size_t>(s)]) << what;
          ASSERT_EQ(r.trace.instructions.size(), f.trace.instructions.size()) << what;
          for (std::size_t i = 0; i < r.trace.instructions.size(); ++i)
            EXPECT_TRUE(same_record(r.trace.instructions[i], f.trace.instructions[i])) << what << " record " << i;
        }
  }).join();
}
