// Small fp64 GEMMs as compensated dot products (Dot2) on GpSimdE: algorithm, engines, accuracy and
// limits in ozaki.hpp (gemm_dot2); the choice against the Ozaki schemes in docs/trnblas.md ("Small
// DGEMMs: Dot2 on GpSimdE").
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "ozaki.hpp"
#include "trn/core/host_simd.hpp"
#include "trn/core/neuron_core.hpp"
#include "trn/core/plan.hpp"
#include "trn/tile/gpsimd_fp64.hpp"
#include "trn/tile/view.hpp"

namespace trn::blas::detail {
namespace {

inline auto z(std::int64_t i) { return static_cast<std::size_t>(i); }

// ---- declared GpSimd operation counts (software fp64 on int32 lanes, trn/tile/gpsimd_fp64.hpp) ----
// TwoProduct by fma (Ogita, Rump, Oishi 2005, Algorithm 3.5): h = a b, r = fma(a, b, -h). A software
// fma (SoftFloat 3e f64_mulAdd) forms the exact 106-bit product as f64_mul does without rounding it
// and adds the addend on a 128-bit pair before the one rounding: counted as one mul plus one add (the
// wider alignment and normalisation stand in for the mul's skipped round-and-pack).
// Per multiply-add after the first: TwoProduct (a mul, an fma), TwoSum(P, h) (6 adds: Knuth's
// branch-free form), E += q + r (2 adds); 4 words loaded (b_kj; a_ik is reused across the row's
// columns) and none stored.
constexpr tile::GpsimdOps kMacOps{.f64_add = 1 + 6 + 2, .f64_mul = 2, .load_words = 2};
// The first product: TwoProduct only.
constexpr tile::GpsimdOps kFirstOps{.f64_add = 1, .f64_mul = 2, .load_words = 2};
// Per output: res = P + E (1 add), the finiteness test of P and the select of P for a non-finite sum
// (IEEE propagation), alpha res (1 mul), two result words stored.
constexpr tile::GpsimdOps kOutputOps{.f64_add = 1, .f64_mul = 1, .f64_compare = 1, .f64_select = 1, .store_words = 2};
// With beta != 0: beta c (1 mul), the add, two words of C loaded.
constexpr tile::GpsimdOps kBetaOps{.f64_add = 1, .f64_mul = 1, .load_words = 2};

// The product the program computes, as element strides: C(i, j) = alpha sum_kk A(i, kk) B(kk, j)
// + beta C(i, j), i < m, j < n, kk < k (op(A), op(B) and C, or their transposes: C^T = op(B)^T op(A)^T
// has the same outputs with the same operations, a b and b a being the same IEEE product).
struct Dot2Operands {
  std::int64_t m = 0, n = 0, k = 0;
  const double* A = nullptr;
  std::int64_t a_i = 0, a_k = 0;
  const double* B = nullptr;
  std::int64_t b_k = 0, b_j = 0;
  double* C = nullptr;
  std::int64_t c_i = 0, c_j = 0;
  Dot2Operands transposed() const { return {n, m, k, B, b_j, b_k, A, a_k, a_i, C, c_j, c_i}; }
};

// The program's layout: the partition of (row i, column group g) holds row i of A, the columns
// [g nc, g nc + nc) of B (the last group may hold fewer) and the outputs (i, g nc ...). Group-major
// (p = g m + i) when G <= m: per group one DMA of A's rows, one broadcast of the group's columns;
// row-major (p = i G + g) when m < G (a Level 2 row, m = 1): per row one broadcast of its row, one DMA
// of the column groups. Either way the DMA count is ~4 min(m, G).
struct Dot2Layout {
  Dot2Operands x;
  std::int64_t G = 1, nc = 0;
  bool row_major = false;
  bool b_by_column = true;  // B's block in SBUF as [j][kk] (B's columns contiguous) or [kk][j]
  std::int32_t partition(std::int64_t i, std::int64_t g) const {
    return static_cast<std::int32_t>(row_major ? i * G + g : g * x.m + i);
  }
  std::int64_t macs_per_partition() const { return nc * x.k; }
  // DMA runs (contiguous pieces) of the program: its host cost (the emulated DMA copies run by run).
  std::int64_t runs() const {
    const std::int64_t a = x.a_k == 1 ? 1 : x.k;
    const std::int64_t b = b_by_column ? (x.b_k == 1 ? nc : nc * x.k) : (x.b_j == 1 ? x.k : nc * x.k);
    const std::int64_t c = x.c_j == 1 ? 1 : nc;
    return G * x.m * (a + b + 3 * c);
  }
};

Dot2Layout layout_of(int P, const Dot2Operands& x) {
  Dot2Layout l{x};
  const std::int64_t m = x.m, n = x.n;
  l.b_by_column = x.b_k == 1;
  // The same integers as G = max(1, min(n, P / max(m, 1))), nc = ceil(n / G), G = ceil(n / nc),
  // without a 64-bit division where its result is known (m <= 1; G = n gives nc = 1; nc = 1 gives
  // G = n): a ddot or an 8^3 product chose its layout with six divisions, ~1.5 % of xeigtstd < dec.in.
  l.G = std::max<std::int64_t>(1, std::min<std::int64_t>(n, m <= 1 ? P : P / m));
  l.nc = n > 0 && l.G >= n ? 1 : (n + l.G - 1) / l.G;
  l.G = l.nc == 1 ? n : (n + l.nc - 1) / l.nc;  // no empty group
  l.row_major = m < l.G;
  return l;
}

// The orientation (C or C^T on the partitions) with the fewer multiply-adds on the busiest partition,
// then the fewer DMA runs; a product with more rows than partitions either way has none (m = 0).
Dot2Layout choose_layout(int P, const Dot2Operands& x) {
  if (x.m == 1 && x.n == 1) {
    // One output (ddot, a one-output dgemv; ~17 M of xeigtstd < dec.in's calls): both orientations
    // put k multiply-adds on one partition and have f(a_k) + f(b_k) + 3 DMA runs (f(1) = 1, else k),
    // so the tie below keeps x, whose layout_of is one group of one column, group-major.
    Dot2Layout l{x};
    l.G = 1;
    l.nc = 1;
    l.b_by_column = x.b_k == 1;
    return l;
  }
  const Dot2Operands t = x.transposed();
  if (x.m > P && t.m > P) return Dot2Layout{};
  if (t.m > P) return layout_of(P, x);
  if (x.m > P) return layout_of(P, t);
  const Dot2Layout a = layout_of(P, x), b = layout_of(P, t);
  if (a.macs_per_partition() != b.macs_per_partition()) return a.macs_per_partition() < b.macs_per_partition() ? a : b;
  return b.runs() < a.runs() ? b : a;
}

Dot2Operands operands_of(Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, const double* A, std::int64_t lda,
                         const double* B, std::int64_t ldb, double* C, std::int64_t ldc) {
  return {m, n, k, A, ta == Op::N ? 1 : lda, ta == Op::N ? lda : 1, B, tb == Op::N ? 1 : ldb, tb == Op::N ? ldb : 1,
          C, 1, ldc};
}

// The lane ops of each tally (integers: gpsimd_fp64's constants and the counts above are integers).
constexpr double kFirstLaneOps = kFirstOps.lane_ops(), kMacLaneOps = kMacOps.lane_ops();
constexpr double kOutputLaneOps = kOutputOps.lane_ops(), kBetaLaneOps = kBetaOps.lane_ops();
static_assert(kFirstLaneOps == static_cast<std::int64_t>(kFirstLaneOps) && kMacLaneOps == static_cast<std::int64_t>(kMacLaneOps) &&
              kOutputLaneOps == static_cast<std::int64_t>(kOutputLaneOps) && kBetaLaneOps == static_cast<std::int64_t>(kBetaLaneOps));

// tile::gpsimd_op_cycles(hw, kFirstOps + (k - 1) kMacOps + kOutputOps [+ kBetaOps], nc) from the
// tallies' lane ops, handed over as one tally of that many native lane ops (lane_ops() adds only
// zeros to it): every term is an integer far below 2^53, so each sum and product is exact and the
// order of the additions cannot change the double (the field-by-field tally was ~0.8 % of
// xeigtstd < dec.in: one per Dot2 call).
double operator_cycles(const HardwareSpec& hw, std::int64_t nc, double lane_ops_per_output) {
  return tile::gpsimd_op_cycles(hw, tile::GpsimdOps{.int32 = lane_ops_per_output}, nc);
}
double operator_cycles(const HardwareSpec& hw, const Dot2Layout& l, bool beta) {
  const double per_output =
      kFirstLaneOps + static_cast<double>(l.x.k - 1) * kMacLaneOps + kOutputLaneOps + (beta ? kBetaLaneOps : 0.0);
  return operator_cycles(hw, l.nc, per_output);
}

// ---- the Dot2 chain (Ogita, Rump, Oishi 2005, Algorithm 4.3 with TwoProduct by fma) --------------
// One form for every kernel below: the lane type V is double or a GCC vector of doubles (lane-wise
// IEEE +, -, *; -ffp-contract=off keeps them unfused) and the instruction set's policy F supplies
// FMS(x, y, z) = fma(x, y, -z) lane by lane (one rounding; -z is exact). Every lane follows the
// scalar algorithm's operations in its order, so any lane type and any policy give its bits.
typedef double V8d __attribute__((vector_size(64)));
typedef double V4d __attribute__((vector_size(32)));

// The policies. A target-specific intrinsic inlines only into a function of that target: the
// kernels taking the AVX policies are instantiated inside target-attributed `flatten` functions,
// which inline the whole call tree in their own target. Vectors go by reference (a vector argument or
// result of a function without that target would have an ABI of its own: -Wpsabi).
struct FmsPortable {
  static void fms(const double& x, const double& y, const double& z, double& out) { out = std::fma(x, y, -z); }
};
struct FmsAvx2 {
  __attribute__((target("avx2,fma"))) static void fms(const double& x, const double& y, const double& z, double& out) {
    out = __builtin_fma(x, y, -z);
  }
  __attribute__((target("avx2,fma"))) static void fms(const V4d& x, const V4d& y, const V4d& z, V4d& out) {
    out = V4d(_mm256_fmsub_pd(x, y, z));
  }
};
struct FmsAvx512 {
  __attribute__((target("avx512f,fma"))) static void fms(const double& x, const double& y, const double& z, double& out) {
    out = __builtin_fma(x, y, -z);
  }
  __attribute__((target("avx512f,fma"))) static void fms(const V4d& x, const V4d& y, const V4d& z, V4d& out) {
    out = V4d(_mm256_fmsub_pd(x, y, z));
  }
  __attribute__((target("avx512f,fma"))) static void fms(const V8d& x, const V8d& y, const V8d& z, V8d& out) {
    out = V8d(_mm512_fmsub_pd(x, y, z));
  }
};

// The chain's first term: TwoProduct only.
template <class F, class V>
inline void dot2_first(const V& x, const V& y, V& p, V& e) {
  p = x * y;
  F::fms(x, y, p, e);
}
// Every later term: TwoProduct (h, r), TwoSum(p, h) = (s, q) (Knuth, branch-free), e += q + r.
template <class F, class V>
inline void dot2_step(const V& x, const V& y, V& p, V& e) {
  const V h = x * y;
  V r;
  F::fms(x, y, h, r);
  const V s = p + h;
  const V t = s - p;
  const V q = (p - (s - t)) + (h - t);
  p = s;
  e = e + (q + r);
}

// Every lane of v set to x (copies, not 0 + x: that turns -0 into +0).
template <class V>
inline void splat(double x, V& v) {
  if constexpr (std::is_same_v<V, double>)
    v = x;
  else if constexpr (std::is_same_v<V, V4d>)
    v = V4d{x, x, x, x};
  else
    v = V8d{x, x, x, x, x, x, x, x};
}

// Dot2 of R rows of a (row r at ai + r lda, [k]) against the lanes' columns of b ([k][ldb], the lanes'
// first column at b) into P, E (row r's outputs at Pi + r ldp, Ei + r ldp): the rows' chains in
// lockstep (two rows: two independent dependency chains in flight, each its own row's operations in
// its order) with P and E in registers for the whole row, stored once.
template <class V, class F, int R>
inline void dot2_chunk(const double* ai, std::int64_t lda, const double* b, std::int64_t ldb, std::int64_t k, double* Pi,
                       double* Ei, std::int64_t ldp) {
  static_assert(R == 1 || R == 2);
  // Named accumulators, not arrays: an array element of a one-row chunk was kept in a general
  // register, two register moves on the chain's every step (~1.3x the time of a ddot_ n = 100).
  V x, y, p0, e0, p1, e1;
  std::memcpy(&y, b, sizeof(V));
  splat(ai[0], x);
  dot2_first<F>(x, y, p0, e0);
  if constexpr (R == 2) {
    splat(ai[lda], x);
    dot2_first<F>(x, y, p1, e1);
  }
  for (std::int64_t kk = 1; kk < k; ++kk) {
    std::memcpy(&y, b + kk * ldb, sizeof(V));
    splat(ai[kk], x);
    dot2_step<F>(x, y, p0, e0);
    if constexpr (R == 2) {
      splat(ai[lda + kk], x);
      dot2_step<F>(x, y, p1, e1);
    }
  }
  std::memcpy(Pi, &p0, sizeof(V));
  std::memcpy(Ei, &e0, sizeof(V));
  if constexpr (R == 2) {
    std::memcpy(Pi + ldp, &p1, sizeof(V));
    std::memcpy(Ei + ldp, &e1, sizeof(V));
  }
}

// Dot2 of every row of a ([m][lda], k used) against every column of b ([k][n]) into P, E ([m][n]): two
// rows at a time (one for an odd last row), their columns in chunks of W lanes (8: AVX-512, 4: AVX2,
// 1: portable), an AVX-512 row's rest of >= 4 columns as one chunk of 4, the rest one by one. (One
// pass over all rows and columns per kk with P and E in memory was ~10 host instructions a
// multiply-add for an 8^3 product: dgemm_ 8^3 is ~1.2 M of xeigtstd < dec.in's calls.) n = 1 (ddot,
// a one-output dgemv) is each row's single chain.
template <int W, class F, int R>
inline void dot2_block_rows(const double* ai, std::int64_t lda, const double* b, std::int64_t n, std::int64_t k,
                            double* Pi, double* Ei) {
  std::int64_t j = 0;
  if constexpr (W == 8)
    for (; j + 8 <= n; j += 8) dot2_chunk<V8d, F, R>(ai, lda, b + j, n, k, Pi + j, Ei + j, n);
  if constexpr (W >= 4)
    for (; j + 4 <= n; j += 4) dot2_chunk<V4d, F, R>(ai, lda, b + j, n, k, Pi + j, Ei + j, n);
  for (; j < n; ++j) dot2_chunk<double, F, R>(ai, lda, b + j, n, k, Pi + j, Ei + j, n);
}
template <int W, class F>
inline void dot2_block(const double* a, std::int64_t lda, const double* b, std::int64_t m, std::int64_t n, std::int64_t k,
                       double* P, double* E) {
  std::int64_t i = 0;
  for (; i + 2 <= m; i += 2) dot2_block_rows<W, F, 2>(a + i * lda, lda, b, n, k, P + i * n, E + i * n);
  if (i < m) dot2_block_rows<W, F, 1>(a + i * lda, lda, b, n, k, P + i * n, E + i * n);
}
__attribute__((target("avx512f,fma"), flatten)) void dot2_block_avx512(const double* a, std::int64_t lda, const double* b,
                                                                        std::int64_t m, std::int64_t n, std::int64_t k,
                                                                        double* P, double* E) {
  dot2_block<8, FmsAvx512>(a, lda, b, m, n, k, P, E);
}
__attribute__((target("avx2,fma"), flatten)) void dot2_block_avx2(const double* a, std::int64_t lda, const double* b,
                                                                   std::int64_t m, std::int64_t n, std::int64_t k,
                                                                   double* P, double* E) {
  dot2_block<4, FmsAvx2>(a, lda, b, m, n, k, P, E);
}
void dot2_block_portable(const double* a, std::int64_t lda, const double* b, std::int64_t m, std::int64_t n,
                         std::int64_t k, double* P, double* E) {
  dot2_block<1, FmsPortable>(a, lda, b, m, n, k, P, E);
}
// 2: AVX-512 and FMA, 1: AVX2 and FMA, 0: portable (std::fma), from core's one probe of the CPU
// (trn/core/host_simd.hpp), so TRN_HOST_SIMD=portable|avx2 selects the narrower kernels here too.
// core's avx2 level includes FMA, which the AVX-512 kernels also use. Every level gives the same bits.
int dot2_simd() {
  static const int level =
      !host_simd_available(HostSimd::avx2) ? 0 : host_simd_available(HostSimd::avx512) ? 2 : 1;  // fixed per process
  return level;
}

// The operator's C++ (the GpSimd program). Every partition computes its outputs from its own SBUF
// copies; the emulator reads each row of A once (from the row's first partition) and each column
// block of B once (from the group's first partition) -- the broadcast copies hold the same words --
// and runs the whole block at once, then writes each partition's outputs with its own C.
// res = P + E (P when P is not finite: an Inf / NaN input, or overflow, is the IEEE dot product's
// own value, which the compensation would turn from Inf - Inf into NaN), then alpha res (+ beta c).
inline double dot2_output(double p, double e, double alpha, double beta, double c) {
  const double res = std::isfinite(p) ? p + e : p;
  const double v = alpha * res;
  return beta == 0.0 ? v : v + beta * c;
}

void run_dot2_block(const double* a, std::int64_t lda, const double* b, std::int64_t m, std::int64_t n, std::int64_t k,
                    double* P, double* E) {
  const int simd = dot2_simd();
  if (simd == 2)
    dot2_block_avx512(a, lda, b, m, n, k, P, E);
  else if (simd == 1)
    dot2_block_avx2(a, lda, b, m, n, k, P, E);
  else
    dot2_block_portable(a, lda, b, m, n, k, P, E);
}

void run_dot2_operator(const Dot2Layout& l, double alpha, double beta, const CustomOpContext& ctx) {
  const std::int64_t m = l.x.m, n = l.x.n, k = l.x.k, nc = l.nc;
  // Element 0 of partition p of a tile: base + p * partition stride (Tile::at(p, 0), its index walk once).
  struct Rows {
    std::byte* base;
    std::int64_t stride;
    std::byte* operator()(std::int32_t p) const { return base + std::int64_t{p} * stride; }
  };
  const auto rows_of = [](const Tile& t) { return Rows{t.base, t.partition_stride}; };  // base: Tile::at(0, 0)
  const Rows ra = rows_of(ctx.inputs[0]), rb = rows_of(ctx.inputs[1]), rout = rows_of(ctx.outputs[0]);
  const Rows rc = beta != 0.0 ? rows_of(ctx.inputs[2]) : rout;
  if (m == 1 && n == 1) {
    // One output (ddot, a one-output dgemv): A's row and B's column are each k contiguous words
    // pairs of partition 0; the chain reads them where they are (the same operations as below).
    double P = 0, E = 0, c = 0;
    run_dot2_block(reinterpret_cast<const double*>(ra(0)), k, reinterpret_cast<const double*>(rb(0)), 1, 1, k, &P, &E);
    if (beta != 0.0) std::memcpy(&c, rc(0), sizeof(double));
    const double out = dot2_output(P, E, alpha, beta, c);
    std::memcpy(rout(0), &out, sizeof(double));
    return;
  }
  // A's rows where they are: row i on partition(i, 0), a whole number of fp64 words from row 0 (an
  // SBUF partition stride is; else they are copied side by side first, as B's block is).
  const std::int64_t a_row_bytes = (l.row_major ? l.G : 1) * ra.stride;
  const bool a_in_place = a_row_bytes % static_cast<std::int64_t>(sizeof(double)) == 0;
  thread_local std::vector<double> buf;
  buf.resize(z((a_in_place ? 0 : m * k) + k * n + 2 * m * n));
  double* const b = buf.data();
  double* const P = b + k * n;
  double* const E = P + m * n;
  const double* a = reinterpret_cast<const double*>(ra(0));
  std::int64_t lda = a_row_bytes / static_cast<std::int64_t>(sizeof(double));
  if (!a_in_place) {
    double* const rows = E + m * n;
    for (std::int64_t i = 0; i < m; ++i) {  // fixed-size element copies: k is small (a memcpy call per row was most of it)
      const std::byte* const src = ra(l.partition(i, 0));
      for (std::int64_t kk = 0; kk < k; ++kk)
        std::memcpy(rows + i * k + kk, src + kk * static_cast<std::int64_t>(sizeof(double)), sizeof(double));
    }
    a = rows;
    lda = k;
  }
  // B's block as [kk][j]: each group's columns from its first partition, by fixed-size element copies
  // (a memcpy call of w words per kk was ~1 500 host instructions of a dgemm_ 8^3).
  for (std::int64_t g = 0; g < l.G; ++g) {
    const std::int64_t w = std::min(nc, n - g * nc);
    const std::byte* const src = rb(l.partition(0, g));
    double* const bg = b + g * nc;
    constexpr auto kWord = static_cast<std::int64_t>(sizeof(double));
    if (l.b_by_column) {  // [j][kk] in SBUF
      for (std::int64_t j = 0; j < w; ++j)
        for (std::int64_t kk = 0; kk < k; ++kk) std::memcpy(bg + kk * n + j, src + (j * k + kk) * kWord, sizeof(double));
    } else {  // [kk][j]
      for (std::int64_t kk = 0; kk < k; ++kk)
        for (std::int64_t j = 0; j < w; ++j) std::memcpy(bg + kk * n + j, src + (kk * w + j) * kWord, sizeof(double));
    }
  }
  run_dot2_block(a, lda, b, m, n, k, P, E);
  // Each output word pair read (beta != 0) and written in place: element copies of a fixed size,
  // not a library memcpy per partition (64 of them for an 8^3 product); one loop per beta case.
  if (nc == 1) {
    // One output per partition (an 8^3 product's 64): output (i, g) on partition(i, g), without the
    // column loop and its per-partition set-up (~45 host instructions an output). The same
    // dot2_output per output as below, so the same words.
    const std::int64_t G = l.G;
    const std::int64_t p_of_i = l.row_major ? G : 1, p_of_g = l.row_major ? 1 : m;  // partition(i, g)
    for (std::int64_t g = 0; g < G; ++g)
      for (std::int64_t i = 0; i < m; ++i) {
        const std::int64_t p = i * p_of_i + g * p_of_g, at = i * n + g;
        double c = 0;
        if (beta != 0.0) std::memcpy(&c, rc.base + p * rc.stride, sizeof(double));
        const double v = dot2_output(P[at], E[at], alpha, beta, c);
        std::memcpy(rout.base + p * rout.stride, &v, sizeof(double));
      }
    return;
  }
  for (std::int64_t g = 0; g < l.G; ++g) {
    const std::int64_t w = std::min(nc, n - g * nc);
    for (std::int64_t i = 0; i < m; ++i) {
      const std::int32_t p = l.partition(i, g);
      std::byte* const out = rout(p);
      const double* const Pi = P + i * n + g * nc;
      const double* const Ei = E + i * n + g * nc;
      if (beta == 0.0) {
        for (std::int64_t j = 0; j < w; ++j) {
          const double v = dot2_output(Pi[j], Ei[j], alpha, 0.0, 0.0);
          std::memcpy(out + j * static_cast<std::int64_t>(sizeof(double)), &v, sizeof(double));
        }
      } else {
        const std::byte* const cin = rc(p);
        for (std::int64_t j = 0; j < w; ++j) {
          double c;
          std::memcpy(&c, cin + j * static_cast<std::int64_t>(sizeof(double)), sizeof(double));
          const double v = dot2_output(Pi[j], Ei[j], alpha, beta, c);
          std::memcpy(out + j * static_cast<std::int64_t>(sizeof(double)), &v, sizeof(double));
        }
      }
    }
  }
}

// An fp64 HBM view as u32 word pairs: dims (count, stride in fp64 elements) outermost first. A
// unit-stride innermost dimension becomes one run of 2 count words (the DMA copies runs, so a run of
// two words per element would cost a step per element). The tile tile::hbm_view(base, u32, partitions,
// 2 partition_stride, pattern) returns, field by field (an HBM tile at base; the pattern's dims, then
// size 1 / stride 0 up to kMaxFreeDims), without building the FreePattern and checking it: every
// caller here passes >= 1 partition, sizes >= 0, at most 3 dims and strides of BLAS integer arguments
// (no 64-bit overflow in bytes), for which hbm_view throws nothing. Building it was ~500 host
// instructions of a ddot_'s ~6 200 (three views; ~16 M ddot_ calls in xeigtstd < dec.in).
Tile words(const void* base, std::int32_t partitions, std::int64_t partition_stride,
           std::initializer_list<std::array<std::int64_t, 2>> dims) {
  Tile t;
  t.mem = MemSpace::hbm;
  t.dtype = DType::u32;
  t.base = static_cast<std::byte*>(const_cast<void*>(base));
  t.partitions = partitions;
  t.partition_stride = 2 * partition_stride * static_cast<std::int64_t>(sizeof(std::uint32_t));
  std::size_t r = 0;
  const auto* last = dims.end() - 1;
  for (const auto* d = dims.begin(); d != dims.end(); ++d, ++r) {
    const bool run = d == last && (*d)[1] == 1;
    t.size[r] = run ? 2 * (*d)[0] : (*d)[0];
    t.stride[r] = run ? 1 : 2 * (*d)[1];
  }
  if ((*last)[1] != 1) {
    t.size[r] = 2;
    t.stride[r] = 1;
    ++r;
  }
  t.ndim = static_cast<int>(r);
  for (; r < static_cast<std::size_t>(kMaxFreeDims); ++r) {
    t.size[r] = 1;
    t.stride[r] = 0;
  }
  return t;
}

// tile.rows(first, count) of the tile whose rows(0, count) `rows0` is, for an on-chip tile of at
// least first + count partitions: the fields Tile::rows sets (base, partition_start, partitions),
// from one view built once per program (a group-major program took 4 G rows() calls: ~1 300 host
// instructions of a dgemm_ 8^3's ~47 000).
Tile partitions_on(const Tile& rows0, std::int64_t first) {
  Tile t = rows0;
  t.base += first * rows0.partition_stride;
  t.partition_start += static_cast<std::int32_t>(first);
  return t;
}

// An HBM view of fp64 words moved by `elements` fp64 elements: the view words() builds from that start.
Tile shifted(const Tile& hbm_words, std::int64_t elements) {
  Tile t = hbm_words;
  t.base += elements * static_cast<std::int64_t>(sizeof(double));
  return t;
}

struct Dot2OperatorArgs {
  const Dot2Layout* l;
  double alpha, beta;
};

void dot2_program(NeuronCore& nc, const Dot2Layout& l, double alpha, double beta) {
  const Dot2Operands& x = l.x;
  const std::int64_t k = x.k, w = l.nc;
  const auto m = static_cast<std::int32_t>(x.m);
  const auto used = static_cast<std::int32_t>(l.G * x.m);
  AllocScope sb(nc.sbuf());
  // One allocation holds A's row, B's block and C's outputs side by side (three disjoint column
  // ranges of the used partitions: the same regions apart from where they sit, so the same
  // dependencies and modeled time as three allocations, at a third of the allocator's host work;
  // an allocation reserves its byte range in every partition, and the operator's operands are the
  // tiles themselves, no partition sub-range views).
  const Tile abc = sb.alloc(DType::u32, used, {2 * k + 2 * k * w + 2 * w}, "dot2.abc", 0, AllocFill::none);
  // The operator's operands in place (no copies of them for its input and output lists).
  const Tile io[] = {abc.cols(0, 2 * k), abc.cols(2 * k, 2 * k * w), abc.cols(2 * k + 2 * k * w, 2 * w)};
  const Tile &at = io[0], &bt = io[1], &ct = io[2];
  const std::span<const Tile> inputs(io, beta != 0.0 ? 3 : 2), outputs(&ct, 1);  // C an input only with beta != 0
  const Dot2OperatorArgs args{&l, alpha, beta};
  // The operator's arguments behind one pointer: a capture that fits std::function's inline storage
  // (no heap block per call).
  const auto dot2_operator = [&] {
    nc.custom_op("fp64_dot2_gemm", outputs, inputs, operator_cycles(nc.hw(), l, beta != 0.0),
                 [a = &args](const CustomOpContext& ctx) { run_dot2_operator(*a->l, a->alpha, a->beta, ctx); });
  };
  // B's block of cw columns in SBUF in B's storage order (one run per stored line when it is one).
  const auto b_block = [&](const double* from, std::int32_t parts, std::int64_t pstride, std::int64_t cw) {
    return l.b_by_column ? words(from, parts, pstride, {{cw, x.b_j}, {k, x.b_k}})
                         : words(from, parts, pstride, {{k, x.b_k}, {cw, x.b_j}});
  };
  if (l.G == 1 && x.m == 1 && w == 1) {
    // One output (choose_layout: one group of one column, group-major): the general path's DMAs below
    // without its views of views (rows(0, 1) of a one-partition tile and shifted(v, 0) are the views
    // themselves): A's row, B's column, C in (beta != 0), the operator, C out.
    nc.dma_copy(at, words(x.A, 1, x.a_i, {{k, x.a_k}}));
    nc.dma_copy(bt, b_block(x.B, 1, 0, 1));
    const Tile c_hbm = words(x.C, 1, x.c_i, {{1, x.c_j}});
    if (beta != 0.0) nc.dma_copy(ct, c_hbm);
    dot2_operator();
    nc.dma_copy(c_hbm, ct);
    return;
  }
  // Row-major: the full groups of one row as one DMA (partition stride nc columns), the last group's
  // rest as another.
  const std::int64_t full = x.n / w, rest = x.n - full * w;
  const auto G = static_cast<std::int32_t>(l.G), Gf = static_cast<std::int32_t>(full);
  const Tile ct0 = l.row_major ? ct : ct.rows(0, m);  // group-major: group g's C is partitions_on(ct0, g m)
  const auto c_moves = [&](auto&& move) {  // move(SBUF rows, HBM view): C in or out
    if (l.row_major) {
      for (std::int32_t i = 0; i < m; ++i) {
        if (Gf > 0) move(ct.rows(i * G, Gf), words(x.C + i * x.c_i, Gf, w * x.c_j, {{w, x.c_j}}));  // all 2 w columns
        if (rest > 0)
          move(ct.rows(i * G + Gf, 1).cols(0, 2 * rest), words(x.C + i * x.c_i + full * w * x.c_j, 1, 0, {{rest, x.c_j}}));
      }
    } else {
      const Tile c_full = words(x.C, m, x.c_i, {{w, x.c_j}});  // group 0's; group g's is g w c_j elements on
      for (std::int64_t g = 0; g < l.G; ++g) {
        const std::int64_t cw = std::min(w, x.n - g * w);
        const Tile rows = partitions_on(ct0, g * x.m);
        // A full group's columns are the whole tile (cols(0, 2 w) would be the same view).
        if (cw == w)
          move(rows, shifted(c_full, g * w * x.c_j));
        else
          move(rows.cols(0, 2 * cw), words(x.C + g * w * x.c_j, m, x.c_i, {{cw, x.c_j}}));
      }
    }
  };
  if (l.row_major) {
    for (std::int32_t i = 0; i < m; ++i) {
      nc.dma_copy(at.rows(i * G, G), words(x.A + i * x.a_i, G, 0, {{k, x.a_k}}));
      if (Gf > 0) nc.dma_copy(bt.rows(i * G, Gf), b_block(x.B, Gf, w * x.b_j, w));  // all 2 k w columns
      if (rest > 0) nc.dma_copy(bt.rows(i * G + Gf, 1).cols(0, 2 * k * rest), b_block(x.B + full * w * x.b_j, 1, 0, rest));
    }
  } else {
    // The HBM views are built once: A's rows are the same for every group, B's full column blocks
    // differ only by where they start (the same views words() would build, so the same DMAs).
    const Tile a_rows = words(x.A, m, x.a_i, {{k, x.a_k}});
    const Tile b_full = b_block(x.B, m, 0, w);
    const Tile at0 = at.rows(0, m), bt0 = bt.rows(0, m);
    for (std::int64_t g = 0; g < l.G; ++g) {
      const std::int64_t cw = std::min(w, x.n - g * w);
      nc.dma_copy(partitions_on(at0, g * x.m), a_rows);
      // B's column block to every partition of the group (partition stride 0); a full group's block
      // is the whole tile (cols(0, 2 k w) would be the same view).
      if (cw == w)
        nc.dma_copy(partitions_on(bt0, g * x.m), shifted(b_full, g * w * x.b_j));
      else
        nc.dma_copy(partitions_on(bt0, g * x.m).cols(0, 2 * k * cw), b_block(x.B + g * w * x.b_j, m, 0, cw));
    }
  }
  if (beta != 0.0) c_moves([&](const Tile& sbuf, const Tile& hbm) { nc.dma_copy(sbuf, hbm); });
  dot2_operator();
  c_moves([&](const Tile& sbuf, const Tile& hbm) { nc.dma_copy(hbm, sbuf); });
}

}  // namespace

namespace {

// The settings under which Dot2 replaces the Ozaki DGEMM (scheme II with automatic control).
bool dot2_settings(const Settings& s) {
  return s.dgemm_dot2_max_macs > 0 && s.ozaki_scheme == OzakiScheme::crt && !s.ozaki_fixed &&
         s.ozaki_max_mantissa_bits == 0 && s.ozaki_mantissa_bit_offset == 0;
}

// ---- long single dot products: Dot2 split over partitions (ozaki.hpp, dot2_split) ----------------

// c chunks: the first `longer` of kc terms, the rest of kc - 1.
struct Dot2Split {
  std::int64_t c = 0, kc = 0, longer = 0;
  std::int64_t busiest_lane_steps() const { return kc + c - 1; }  // chain steps, then the combine's
};

Dot2Split split_of(int P, std::int64_t k) {
  Dot2Split d;
  d.c = std::min<std::int64_t>(P, static_cast<std::int64_t>(std::ceil(std::sqrt(static_cast<double>(k)))));
  while (d.c * d.c < k && d.c < P) ++d.c;  // ceil(sqrt(k)) exactly, whatever sqrt rounds to
  while (d.c > 1 && (d.c - 1) * (d.c - 1) >= k) --d.c;
  d.kc = (k + d.c - 1) / d.c;
  d.longer = k - d.c * (d.kc - 1);
  return d;
}

// Per combine step: TwoSum(P, P_p) (6 adds), E + (q + E_p) (2 adds), the partial's 4 words loaded.
constexpr tile::GpsimdOps kCombineOps{.f64_add = 6 + 2, .load_words = 4};

// Dot2 of c chains in lockstep, chain p over the terms X[kk c + p] Y[kk c + p], kk < kc for p < longer
// and kk < kc - 1 for the others (kc >= 2 when some chain is shorter): the portable kernel.
void dot2_lanes_portable(const double* X, const double* Y, std::int64_t c, std::int64_t longer, std::int64_t kc,
                         double* P, double* E) {
  for (std::int64_t p = 0; p < c; ++p) dot2_first<FmsPortable>(X[p], Y[p], P[p], E[p]);
  for (std::int64_t kk = 1; kk < kc; ++kk) {
    const std::int64_t lanes = kk < kc - 1 ? c : longer;
    for (std::int64_t p = 0; p < lanes; ++p) dot2_step<FmsPortable>(X[kk * c + p], Y[kk * c + p], P[p], E[p]);
  }
}
// dot2_lanes_portable on the chains where they are (chain p's terms at x0 + p xs and y0 + p ys,
// bytes): the lanes' terms gathered straight from the partitions' rows, 8 (AVX-512) or 4 (AVX2)
// chains a vector, instead of copied side by side first (that copy was ~2 200 host instructions of a
// 200-term ddot_; xeigtstd < dec.in makes ~2 M of them). The last step updates only the chains of kc
// terms (p < longer): every lane follows its chain's operations in order, the same P and E bits.
__attribute__((target("avx512f,fma"), flatten)) void dot2_rows_avx512(const std::byte* x0, std::int64_t xs,
                                                                       const std::byte* y0, std::int64_t ys,
                                                                       std::int64_t c, std::int64_t longer,
                                                                       std::int64_t kc, double* P, double* E) {
  const auto lanes_below = [](std::int64_t end, std::int64_t p0) -> __mmask8 {  // lanes p0 + l < end
    const std::int64_t n = std::clamp<std::int64_t>(end - p0, 0, 8);
    return static_cast<__mmask8>((1u << n) - 1u);
  };
  const __m512d zero = _mm512_setzero_pd();
  for (std::int64_t p0 = 0; p0 < c; p0 += 8) {
    alignas(64) std::int64_t xo[8], yo[8];
    for (int l = 0; l < 8; ++l) {
      xo[l] = (p0 + l) * xs;
      yo[l] = (p0 + l) * ys;
    }
    const __m512i xi = _mm512_load_si512(xo), yi = _mm512_load_si512(yo);
    const __mmask8 valid = lanes_below(c, p0), full = lanes_below(longer, p0);
    V8d p, e;
    dot2_first<FmsAvx512>(V8d(_mm512_mask_i64gather_pd(zero, valid, xi, x0, 1)),
                          V8d(_mm512_mask_i64gather_pd(zero, valid, yi, y0, 1)), p, e);
    for (std::int64_t kk = 1; kk < kc; ++kk) {
      const __mmask8 active = kk < kc - 1 ? valid : full;
      const std::int64_t off = kk * static_cast<std::int64_t>(sizeof(double));
      V8d ps = p, es = e;
      dot2_step<FmsAvx512>(V8d(_mm512_mask_i64gather_pd(zero, active, xi, x0 + off, 1)),
                           V8d(_mm512_mask_i64gather_pd(zero, active, yi, y0 + off, 1)), ps, es);
      p = V8d(_mm512_mask_mov_pd(p, active, ps));
      e = V8d(_mm512_mask_mov_pd(e, active, es));
    }
    _mm512_mask_storeu_pd(P + p0, valid, p);
    _mm512_mask_storeu_pd(E + p0, valid, e);
  }
}
__attribute__((target("avx2,fma"), flatten)) void dot2_rows_avx2(const std::byte* x0, std::int64_t xs,
                                                                  const std::byte* y0, std::int64_t ys, std::int64_t c,
                                                                  std::int64_t longer, std::int64_t kc, double* P,
                                                                  double* E) {
  const __m256d zero = _mm256_setzero_pd();
  const __m256i lane = _mm256_set_epi64x(3, 2, 1, 0);
  for (std::int64_t p0 = 0; p0 < c; p0 += 4) {
    const __m256i xi = _mm256_set_epi64x((p0 + 3) * xs, (p0 + 2) * xs, (p0 + 1) * xs, p0 * xs);
    const __m256i yi = _mm256_set_epi64x((p0 + 3) * ys, (p0 + 2) * ys, (p0 + 1) * ys, p0 * ys);
    // Lanes p0 + l < c (valid) and < longer (full): every bit set.
    const __m256d valid = _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_set1_epi64x(c - p0), lane));
    const __m256d full = _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_set1_epi64x(longer - p0), lane));
    const auto* xb = reinterpret_cast<const double*>(x0);
    const auto* yb = reinterpret_cast<const double*>(y0);
    V4d p, e;
    dot2_first<FmsAvx2>(V4d(_mm256_mask_i64gather_pd(zero, xb, xi, valid, 1)),
                        V4d(_mm256_mask_i64gather_pd(zero, yb, yi, valid, 1)), p, e);
    for (std::int64_t kk = 1; kk < kc; ++kk) {
      const __m256d active = kk < kc - 1 ? valid : full;
      V4d ps = p, es = e;
      dot2_step<FmsAvx2>(V4d(_mm256_mask_i64gather_pd(zero, xb + kk, xi, active, 1)),
                         V4d(_mm256_mask_i64gather_pd(zero, yb + kk, yi, active, 1)), ps, es);
      p = V4d(_mm256_blendv_pd(p, ps, active));
      e = V4d(_mm256_blendv_pd(e, es, active));
    }
    _mm256_maskstore_pd(P + p0, _mm256_castpd_si256(valid), p);
    _mm256_maskstore_pd(E + p0, _mm256_castpd_si256(valid), e);
  }
}
// The operator: inputs[0], [1] hold chunk p of x and y on partition p (kc or kc - 1 fp64 values), inputs[2]
// (beta != 0) r on partition 0; outputs[0] the result on partition 0.
void run_dot2_split_operator(const Dot2Split& d, double alpha, double beta, const CustomOpContext& ctx) {
  const std::int64_t c = d.c, kc = d.kc;
  // Partition p's chunk starts at element 0 of its row: base + p * partition stride (Tile::at(p, 0)
  // without its index walk per partition).
  const std::byte* const x0 = ctx.inputs[0].base;  // Tile::at(0, 0)
  const std::byte* const y0 = ctx.inputs[1].base;
  const std::int64_t xs = ctx.inputs[0].partition_stride, ys = ctx.inputs[1].partition_stride;
  thread_local std::vector<double> buf;
  const int simd = dot2_simd();
  buf.resize(z(simd > 0 ? 2 * c : 2 * c * kc + 2 * c));
  double* const P = buf.data();
  double* const E = P + c;
  if (simd == 2) {
    dot2_rows_avx512(x0, xs, y0, ys, c, d.longer, kc, P, E);
  } else if (simd == 1) {
    dot2_rows_avx2(x0, xs, y0, ys, c, d.longer, kc, P, E);
  } else {
    double* const X = E + c;
    double* const Y = X + c * kc;
    for (std::int64_t p = 0; p < c; ++p) {  // [kk][p]: the chains side by side
      const std::int64_t len = p < d.longer ? kc : kc - 1;
      const std::byte* const xp = x0 + p * xs;
      const std::byte* const yp = y0 + p * ys;
      for (std::int64_t kk = 0; kk < len; ++kk) {
        std::memcpy(X + kk * c + p, xp + kk * static_cast<std::int64_t>(sizeof(double)), sizeof(double));
        std::memcpy(Y + kk * c + p, yp + kk * static_cast<std::int64_t>(sizeof(double)), sizeof(double));
      }
    }
    dot2_lanes_portable(X, Y, c, d.longer, kc, P, E);
  }
  double Pt = P[0], Et = E[0];
  for (std::int64_t p = 1; p < c; ++p) {  // the chunks' pairs in chunk order
    const double s = Pt + P[p];           // TwoSum(Pt, P_p) = (s, q)
    const double t = s - Pt;
    const double q = (Pt - (s - t)) + (P[p] - t);
    Pt = s;
    Et = Et + (q + E[p]);
  }
  // A non-finite sum is the IEEE dot product's own value (as gemm_dot2).
  const double res = std::isfinite(Pt) ? Pt + Et : Pt;
  const double v = alpha * res;
  double out = v;
  if (beta != 0.0) {
    double r0;
    std::memcpy(&r0, ctx.inputs[2].base, sizeof(double));
    out = v + beta * r0;
  }
  std::memcpy(ctx.outputs[0].base, &out, sizeof(double));
}

// The split dot product's program and its arguments (behind one pointer: closures that fit
// std::function's inline storage, no heap block per call).
struct Dot2SplitProgram {
  const Dot2Split* d;
  double alpha, beta, cycles;
  const double* x;
  std::int64_t incx;
  const double* y;
  std::int64_t incy;
  double* r;
};

void dot2_split_program(NeuronCore& nc, const Dot2SplitProgram& a) {
  const Dot2Split& d = *a.d;
  const auto c = static_cast<std::int32_t>(d.c), longer = static_cast<std::int32_t>(d.longer);
  AllocScope sb(nc.sbuf());
  // One allocation: x's and y's chunks and the result side by side (disjoint column ranges: the
  // same regions' dependencies and modeled time as three allocations, a third of the allocator's work).
  const Tile xyr = sb.alloc(DType::u32, nc.hw().pmax, {4 * d.kc + 2}, "dot2s.xyr", 0, AllocFill::none);
  const Tile xt = xyr.cols(0, 2 * d.kc);
  const Tile yt = xyr.cols(2 * d.kc, 2 * d.kc);
  const Tile rt = xyr.rows(0, 1).cols(4 * d.kc, 2);
  // Chunk p on partition p: the longer chunks as one DMA per operand, the shorter ones as another
  // (t holds 2 kc columns: the longer chunks' rows are the whole width, cols(0, 2 kc) the same view).
  const auto chunks_in = [&](const Tile& t, const double* v, std::int64_t inc) {
    nc.dma_copy(t.rows(0, longer), words(v, longer, d.kc * inc, {{d.kc, inc}}));
    if (longer < c)
      nc.dma_copy(t.rows(longer, c - longer).cols(0, 2 * (d.kc - 1)),
                  words(v + longer * d.kc * inc, c - longer, (d.kc - 1) * inc, {{d.kc - 1, inc}}));
  };
  chunks_in(xt, a.x, a.incx);
  chunks_in(yt, a.y, a.incy);
  const Tile r_hbm = words(a.r, 1, 0, {{1, 1}});
  if (a.beta != 0.0) nc.dma_copy(rt, r_hbm);
  const Tile in3[] = {xt.rows(0, c), yt.rows(0, c), rt};
  const Tile outputs[] = {rt};
  nc.custom_op("fp64_dot2_split", outputs, std::span<const Tile>(in3, a.beta != 0.0 ? 3 : 2), a.cycles,
               [p = &a](const CustomOpContext& ctx) { run_dot2_split_operator(*p->d, p->alpha, p->beta, ctx); });
  nc.dma_copy(r_hbm, rt);
}

}  // namespace

bool gemm_dot2_applies(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t max_macs) {
  if (!dot2_settings(s)) return false;
  const Dot2Operands x{m, n, k};  // the busiest partition's work does not depend on the strides
  const Dot2Layout l = choose_layout(hardware_spec(s.target).pmax, x);
  if (l.x.m == 0) return false;
  return l.macs_per_partition() <= (max_macs < 0 ? s.dgemm_dot2_max_macs : std::min(max_macs, s.dgemm_dot2_max_macs));
}

namespace {
void run_gemm_dot2(const Settings& s, const Dot2Layout& l, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
                   double beta, CallReport* report);
}  // namespace

void gemm_dot2(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
               const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C,
               std::int64_t ldc, CallReport* report) {
  run_gemm_dot2(s, choose_layout(hardware_spec(s.target).pmax, operands_of(ta, tb, m, n, k, A, lda, B, ldb, C, ldc)), m,
                n, k, alpha, beta, report);
}

bool try_gemm_dot2(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
                   const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C,
                   std::int64_t ldc, CallReport* report, std::int64_t max_macs) {
  if (!dot2_settings(s)) return false;
  // The layout gemm_dot2 runs; its busiest partition's multiply-adds are gemm_dot2_applies's (both
  // orientations are compared on them first, whatever the strides).
  const Dot2Layout l = choose_layout(hardware_spec(s.target).pmax, operands_of(ta, tb, m, n, k, A, lda, B, ldb, C, ldc));
  if (l.x.m == 0 || l.macs_per_partition() > std::min(max_macs, s.dgemm_dot2_max_macs)) return false;
  run_gemm_dot2(s, l, m, n, k, alpha, beta, report);
  return true;
}

namespace {
void run_gemm_dot2(const Settings& s, const Dot2Layout& l, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
                   double beta, CallReport* report) {
  const Dot2OperatorArgs args{&l, alpha, beta};
  LaunchResult r = launch(s.launch_config(), [a = &args](NeuronCore& nc) { dot2_program(nc, *a->l, a->alpha, a->beta); });
  const bool want_plan = report != nullptr && report->plans_wanted;
  finish_report(report, s, std::move(r.trace));
  if (want_plan) {
    PlanFacts f;
    f.routine = "dgemm";
    f.shape = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
    f.variant = "dot2_gpsimd";
    f.ops = std::to_string(m * n) + " compensated dot products (Dot2) of length " + std::to_string(k) + ", " +
            std::to_string(l.nc) + " per partition on " + std::to_string(l.G * l.x.m) + " partitions" +
            (l.x.m == m ? "" : " (C^T on the partitions)");
    f.engines = "DMA, GpSimdE (software fp64)";
    f.why = "automatic: the busiest partition's " + std::to_string(l.macs_per_partition()) + " multiply-adds <= Settings::dgemm_dot2_max_macs (" +
            std::to_string(s.dgemm_dot2_max_macs) + "): below the Ozaki scheme's fixed host steps and passes";
    report->plan = f.print();
  }
}
}  // namespace

bool dot2_split_applies(const Settings& s, std::int64_t k) {
  if (!dot2_settings(s) || s.fp64_vector != Fp64VectorAlgorithm::automatic || k <= kDot2VectorMaxMacs) return false;
  const Dot2Split d = split_of(hardware_spec(s.target).pmax, k);
  return d.busiest_lane_steps() <= std::min(kDot2VectorMaxMacs, s.dgemm_dot2_max_macs);
}

void dot2_split(const Settings& s, std::int64_t k, double alpha, const double* x, std::int64_t incx, const double* y,
                std::int64_t incy, double beta, double* r, CallReport* report) {
  const HardwareSpec& hw = hardware_spec(s.target);
  const Dot2Split d = split_of(hw.pmax, k);
  // tile::gpsimd_op_cycles(hw, kFirstOps + (kc - 1) kMacOps + (c - 1) kCombineOps + kOutputOps [+ kBetaOps], 1)
  // from the tallies' lane ops: exact integers in any order (operator_cycles).
  constexpr double kCombineLaneOps = kCombineOps.lane_ops();
  static_assert(kCombineLaneOps == static_cast<std::int64_t>(kCombineLaneOps));
  const double lane = kFirstLaneOps + static_cast<double>(d.kc - 1) * kMacLaneOps +
                      static_cast<double>(d.c - 1) * kCombineLaneOps + kOutputLaneOps + (beta != 0.0 ? kBetaLaneOps : 0.0);
  const double cycles = operator_cycles(hw, 1, lane);
  const Dot2SplitProgram prog{&d, alpha, beta, cycles, x, incx, y, incy, r};
  LaunchResult lr = launch(s.launch_config(), [a = &prog](NeuronCore& nc) { dot2_split_program(nc, *a); });
  const bool want_plan = report != nullptr && report->plans_wanted;
  finish_report(report, s, std::move(lr.trace));
  if (want_plan) {
    PlanFacts f;
    f.routine = "fp64 dot product";
    f.shape = "k=" + std::to_string(k);
    f.variant = "dot2_split";
    f.ops = "Dot2 over " + std::to_string(d.c) + " chunks of <= " + std::to_string(d.kc) +
            " terms, one per partition, the chunks' pairs combined on one lane";
    f.engines = "DMA, GpSimdE (software fp64)";
    f.why = "automatic: k > " + std::to_string(kDot2VectorMaxMacs) + " and the busiest lane's " +
            std::to_string(d.busiest_lane_steps()) + " steps <= " + std::to_string(kDot2VectorMaxMacs);
    report->plan = f.print();
  }
}

}  // namespace trn::blas::detail
