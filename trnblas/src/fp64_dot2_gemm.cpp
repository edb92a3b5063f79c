// Small fp64 GEMMs as compensated dot products (Dot2) on GpSimdE: algorithm, engines, accuracy and
// limits in ozaki.hpp (gemm_dot2); the choice against the Ozaki schemes in docs/trnblas.md ("Small
// DGEMMs: Dot2 on GpSimdE").
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ozaki.hpp"
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

// The program's layout: the partition of (row i, column group g) holds row i of op(A), the columns
// [g nc, g nc + nc) of op(B) (the last group may hold fewer) and the outputs (i, g nc ...). Group-major
// (p = g m + i) when G <= m: per group one DMA of op(A)'s rows, one broadcast of the group's columns;
// row-major (p = i G + g) when m < G (a Level 2 row, m = 1): per row one broadcast of its row, one DMA
// of the column groups. Either way the DMA count is ~4 min(m, G).
struct Dot2Layout {
  std::int64_t m = 0, n = 0, k = 0, G = 1, nc = 0;
  bool row_major = false;
  bool b_by_column = true;  // op(B)'s block in SBUF as [j][kk] (op N) or [kk][j] (op T)
  std::int32_t partition(std::int64_t i, std::int64_t g) const {
    return static_cast<std::int32_t>(row_major ? i * G + g : g * m + i);
  }
};

Dot2Layout layout_of(int P, std::int64_t m, std::int64_t n, std::int64_t k, Op tb = Op::N) {
  Dot2Layout l{m, n, k, 1, n};
  l.b_by_column = tb == Op::N;
  l.G = std::max<std::int64_t>(1, std::min<std::int64_t>(n, P / std::max<std::int64_t>(m, 1)));
  l.nc = (n + l.G - 1) / l.G;
  l.G = (n + l.nc - 1) / l.nc;  // no empty group
  l.row_major = m < l.G;
  return l;
}

double operator_cycles(const HardwareSpec& hw, const Dot2Layout& l, bool beta) {
  tile::GpsimdOps per_output = kFirstOps + static_cast<double>(l.k - 1) * kMacOps + kOutputOps;
  if (beta) per_output += kBetaOps;
  return tile::gpsimd_op_cycles(hw, per_output, l.nc);
}

// The Dot2 of one partition's row against its columns, vectorised over the columns (every column
// follows the same operations in the same order, so the lanes give each output's scalar bits).
// fma: the host's correctly rounded fused multiply-add (std::fma, or the FMA unit: the same bits).
template <class Fma>
inline void dot2_row(const double* a, const double* b, std::int64_t k, std::int64_t nc, double* P, double* E, Fma fma) {
  for (std::int64_t j = 0; j < nc; ++j) {
    const double h = a[0] * b[j];
    P[j] = h;
    E[j] = fma(a[0], b[j], -h);
  }
  for (std::int64_t kk = 1; kk < k; ++kk) {
    const double x = a[kk];
    const double* bk = b + kk * nc;
    for (std::int64_t j = 0; j < nc; ++j) {
      const double h = x * bk[j];
      const double r = fma(x, bk[j], -h);
      const double s = P[j] + h;  // TwoSum(P, h) = (s, q), Knuth
      const double t = s - P[j];
      const double q = (P[j] - (s - t)) + (h - t);
      P[j] = s;
      E[j] = E[j] + (q + r);
    }
  }
}

__attribute__((target("avx2,fma"))) void dot2_row_fma(const double* a, const double* b, std::int64_t k, std::int64_t nc,
                                                      double* P, double* E) {
  dot2_row(a, b, k, nc, P, E, [](double x, double y, double w) { return __builtin_fma(x, y, w); });
}
void dot2_row_portable(const double* a, const double* b, std::int64_t k, std::int64_t nc, double* P, double* E) {
  dot2_row(a, b, k, nc, P, E, [](double x, double y, double w) { return std::fma(x, y, w); });
}
const bool kHostHasFma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");

// The operator's C++ (the GpSimd program): per used partition its row's Dot2, then the epilogue.
void run_dot2_operator(const Dot2Layout& l, double alpha, double beta, const CustomOpContext& ctx) {
  const std::int64_t k = l.k, nc = l.nc;
  std::vector<double> a(z(k)), b(z(k * nc)), P(z(nc)), E(z(nc)), c(z(nc));
  const Tile& ta = ctx.inputs[0];
  const Tile& tb = ctx.inputs[1];
  for (std::int64_t g = 0; g < l.G; ++g) {
    const std::int64_t w = std::min(nc, l.n - g * nc);
    for (std::int64_t i = 0; i < l.m; ++i) {
      const std::int32_t p = l.partition(i, g);
      std::memcpy(a.data(), ta.at(p, 0), z(k) * sizeof(double));  // SBUF words, 4-byte aligned
      if (l.b_by_column) {  // [j][kk] in SBUF: the lanes run over j
        const std::byte* col = tb.at(p, 0);
        for (std::int64_t j = 0; j < w; ++j)
          for (std::int64_t kk = 0; kk < k; ++kk)
            std::memcpy(&b[z(kk * w + j)], col + (j * k + kk) * static_cast<std::int64_t>(sizeof(double)), sizeof(double));
      } else {
        std::memcpy(b.data(), tb.at(p, 0), z(k * w) * sizeof(double));
      }
      if (kHostHasFma)
        dot2_row_fma(a.data(), b.data(), k, w, P.data(), E.data());
      else
        dot2_row_portable(a.data(), b.data(), k, w, P.data(), E.data());
      if (beta != 0.0) std::memcpy(c.data(), ctx.inputs[2].at(p, 0), z(w) * sizeof(double));
      for (std::int64_t j = 0; j < w; ++j) {
        // A non-finite sum (an Inf / NaN input, or overflow) is the IEEE dot product's own value:
        // the compensation would turn Inf - Inf into NaN.
        const double res = std::isfinite(P[z(j)]) ? P[z(j)] + E[z(j)] : P[z(j)];
        const double v = alpha * res;
        c[z(j)] = beta == 0.0 ? v : v + beta * c[z(j)];
      }
      std::memcpy(ctx.outputs[0].at(p, 0), c.data(), z(w) * sizeof(double));
    }
  }
}

// An fp64 HBM view as u32 word pairs: dims (count, stride in fp64 elements) outermost first. A
// unit-stride innermost dimension becomes one run of 2 count words (the DMA copies runs, so a run of
// two words per element would cost a step per element).
Tile words(const void* base, std::int32_t partitions, std::int64_t partition_stride,
           std::initializer_list<std::array<std::int64_t, 2>> dims) {
  tile::FreePattern pat;
  const auto* last = dims.end() - 1;
  for (const auto* d = dims.begin(); d != dims.end(); ++d)
    pat.push_back(d == last && (*d)[1] == 1 ? tile::FreeDim{2 * (*d)[0], 1} : tile::FreeDim{(*d)[0], 2 * (*d)[1]});
  if ((*last)[1] != 1) pat.push_back({2, 1});
  return tile::hbm_view(base, DType::u32, partitions, 2 * partition_stride, pat);
}

void dot2_program(NeuronCore& nc, const Dot2Layout& l, Op ta, Op tb, double alpha, const double* A, std::int64_t lda,
                  const double* B, std::int64_t ldb, double beta, double* C, std::int64_t ldc) {
  const int P = nc.hw().pmax;
  const std::int64_t k = l.k, w = l.nc;
  // op(A)(i, kk) and op(B)(kk, j) strides in elements.
  const std::int64_t a_i = ta == Op::N ? 1 : lda, a_k = ta == Op::N ? lda : 1;
  const std::int64_t b_k = tb == Op::N ? 1 : ldb, b_j = tb == Op::N ? ldb : 1;
  const auto m = static_cast<std::int32_t>(l.m);
  const auto used = static_cast<std::int32_t>(l.G * l.m);
  AllocScope sb(nc.sbuf());
  const Tile at = sb.alloc(DType::u32, P, {2 * k}, "dot2.a", 0, AllocFill::none);
  const Tile bt = sb.alloc(DType::u32, P, {2 * k * w}, "dot2.b", 0, AllocFill::none);
  const Tile ct = sb.alloc(DType::u32, P, {2 * w}, "dot2.c", 0, AllocFill::none);
  // Row-major: the full groups of one row as one DMA (partition stride nc columns), the last group's
  // rest as another.
  const std::int64_t full = l.n / w, rest = l.n - full * w;
  const auto G = static_cast<std::int32_t>(l.G), Gf = static_cast<std::int32_t>(full);
  // op(B)'s block of cw columns in SBUF in B's storage order (one run per stored line): [j][kk] for
  // op N (columns contiguous), [kk][j] for op T; the operator reads either (Dot2Layout::b_by_column).
  const auto b_block = [&](const double* from, std::int32_t parts, std::int64_t pstride, std::int64_t cw) {
    return l.b_by_column ? words(from, parts, pstride, {{cw, b_j}, {k, b_k}}) : words(from, parts, pstride, {{k, b_k}, {cw, b_j}});
  };
  const auto c_moves = [&](auto&& move) {  // move(sbuf rows, hbm view, columns) for C in and out
    if (l.row_major) {
      for (std::int32_t i = 0; i < m; ++i) {
        if (Gf > 0) move(ct.rows(i * G, Gf).cols(0, 2 * w), words(C + i, Gf, w * ldc, {{w, ldc}}));
        if (rest > 0) move(ct.rows(i * G + Gf, 1).cols(0, 2 * rest), words(C + i + full * w * ldc, 1, 0, {{rest, ldc}}));
      }
    } else {
      for (std::int64_t g = 0; g < l.G; ++g) {
        const std::int64_t cw = std::min(w, l.n - g * w);
        move(ct.rows(static_cast<std::int32_t>(g * l.m), m).cols(0, 2 * cw), words(C + g * w * ldc, m, 1, {{cw, ldc}}));
      }
    }
  };
  if (l.row_major) {
    for (std::int32_t i = 0; i < m; ++i) {
      nc.dma_copy(at.rows(i * G, G), words(A + i * a_i, G, 0, {{k, a_k}}));
      if (Gf > 0) nc.dma_copy(bt.rows(i * G, Gf).cols(0, 2 * k * w), b_block(B, Gf, w * b_j, w));
      if (rest > 0) nc.dma_copy(bt.rows(i * G + Gf, 1).cols(0, 2 * k * rest), b_block(B + full * w * b_j, 1, 0, rest));
    }
  } else {
    for (std::int64_t g = 0; g < l.G; ++g) {
      const std::int64_t cw = std::min(w, l.n - g * w);
      const auto rows = static_cast<std::int32_t>(g * l.m);
      nc.dma_copy(at.rows(rows, m), words(A, m, a_i, {{k, a_k}}));
      // op(B)'s column block to every partition of the group (partition stride 0).
      nc.dma_copy(bt.rows(rows, m).cols(0, 2 * k * cw), b_block(B + g * w * b_j, m, 0, cw));
    }
  }
  if (beta != 0.0) c_moves([&](const Tile& sbuf, const Tile& hbm) { nc.dma_copy(sbuf, hbm); });
  std::vector<Tile> inputs{at.rows(0, used), bt.rows(0, used)};
  if (beta != 0.0) inputs.push_back(ct.rows(0, used));
  const Tile outputs[] = {ct.rows(0, used)};
  nc.custom_op("fp64_dot2_gemm", outputs, inputs, operator_cycles(nc.hw(), l, beta != 0.0),
               [&](const CustomOpContext& ctx) { run_dot2_operator(l, alpha, beta, ctx); });
  c_moves([&](const Tile& sbuf, const Tile& hbm) { nc.dma_copy(hbm, sbuf); });
}

}  // namespace

bool gemm_dot2_applies(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t max_macs) {
  if (s.dgemm_dot2_max_macs <= 0 || s.ozaki_scheme != OzakiScheme::crt || s.ozaki_fixed ||
      s.ozaki_max_mantissa_bits != 0 || s.ozaki_mantissa_bit_offset != 0)
    return false;
  const int P = hardware_spec(s.target).pmax;
  if (m > P) return false;
  const Dot2Layout l = layout_of(P, m, n, k);
  return l.nc * k <= (max_macs < 0 ? s.dgemm_dot2_max_macs : std::min(max_macs, s.dgemm_dot2_max_macs));
}

void gemm_dot2(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
               const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C,
               std::int64_t ldc, CallReport* report) {
  const HardwareSpec& hw = hardware_spec(s.target);
  const Dot2Layout l = layout_of(hw.pmax, m, n, k, tb);
  LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) {
    dot2_program(nc, l, ta, tb, alpha, A, lda, B, ldb, beta, C, ldc);
  });
  const bool want_plan = report != nullptr && report->plans_wanted;
  finish_report(report, s, std::move(r.trace));
  if (want_plan) {
    PlanFacts f;
    f.routine = "dgemm";
    f.shape = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
    f.variant = "dot2_gpsimd";
    f.ops = std::to_string(m * n) + " compensated dot products (Dot2) of length " + std::to_string(k) + ", " +
            std::to_string(l.nc) + " per partition on " + std::to_string(l.G * m) + " partitions";
    f.engines = "DMA, GpSimdE (software fp64)";
    f.why = "automatic: the busiest partition's " + std::to_string(l.nc * k) + " multiply-adds <= Settings::dgemm_dot2_max_macs (" +
            std::to_string(s.dgemm_dot2_max_macs) + "): below the Ozaki scheme's fixed host steps and passes";
    report->plan = f.print();
  }
}

}  // namespace trn::blas::detail
