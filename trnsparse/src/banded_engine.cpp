// Tridiagonal solves without pivoting in fp32 (R_32F) on the emulated engines: gtsv2_nopivot,
// gtsv2StridedBatch and gtsvInterleavedBatch algo 0 (docs/trnsparse.md "Tridiagonal and
// pentadiagonal solvers", "On the engines").
//
// Algorithm   The Thomas algorithm (Gaussian elimination without pivoting on a tridiagonal matrix;
//             Conte & de Boor 1980, §7.4), one system per partition (128 systems per program), the
//             rows of a system along the free axis, every recurrence one VectorE tensor_tensor_scan
//             (r_i = op1(op0(d0_i, r_{i-1}), d1_i)) over all partitions at once. With s_i = -u_ii
//             (the negated pivot):
//               c_i = -(dl_i du_{i-1})                      multiply, negate
//               s_i = c_i / s_{i-1} - d_i                    scan divide / subtract, s_{-1} = 1 (c_0 = 0)
//               e_i = dl_i / s_{i-1}                         divide    (= -l_i, l_i = dl_i / u_{i-1,i-1})
//               y_i = e_i y_{i-1} + b_i                      scan multiply / add, y_{-1} = 0
//               g_i = y_i / s_i,  h_i = du_i / s_i           divide (du_{m-1} = 0)
//               x_i = h_i x_{i+1} - g_i                      scan multiply / subtract over reversed rows
//             The rows go in chunks of kChunkRows columns (the scans carry their last column into
//             the next chunk, which gives the bits of one long scan: docs/numerics.md). g and h go to
//             an HBM scratch (DMA) and come back chunk by chunk in reverse order through a DMA view
//             with a negative element stride, so that the back substitution is a forward scan; x goes
//             out the same way into a staging array, copied into the caller's right-hand side by the
//             host only when no system met a zero pivot (nothing is written otherwise).
//             Zero pivots: per chunk, VectorE marks s_i == 0, turns the marks into row numbers (GpSimd
//             iota) and keeps the smallest per system; the host reads one number per system.
// Engines     DMA (bands and right-hand sides in, the g / h scratch, x out), VectorE (every
//             arithmetic step, the zero-pivot marks), GpSimdE (iota of row numbers). One program per
//             128 systems; programs spread over cores; same bits for any host thread or core count
//             (systems are independent, each is one partition's fixed instruction sequence).
// Accuracy    u = 2^-24 (Higham, ASNA 2nd ed., §9.6): every step above rounds once in fp32, giving
//             (A + dA) x_hat = b with |dA| <= gamma_7 |L_hat| |U_hat| (3 roundings in a pivot,
//             1 in y, 3 in x; derivation in docs/trnsparse.md), and |L||U| <= 3|A| for A
//             diagonally dominant (by rows or columns), symmetric positive definite or an M-matrix:
//             normwise backward error <= 3 gamma_7 ~ 21 u.
// Limits      Row numbers in the zero-pivot message are exact below 2^24 (fp32 iota values).
#include <algorithm>
#include <string>
#include <vector>

#include "generic_host.hpp"
#include "trn/core/spmd.hpp"
#include "trn/sparse/banded.hpp"

namespace trn::sparse {

namespace {

std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

constexpr std::int64_t kChunkRows = 2048;  // rows per chunk: 13 fp32 tiles of 8 KiB per partition
constexpr float kNoZero = 1073741824.0f;   // 2^30: "no zero pivot" (above every exact row number)

// One call's data: the caller's bands and right-hand sides, the HBM scratch of g and h, the staging
// array of x (all [count][m] fp32) and the first zero-pivot row of each system.
struct ThomasJob {
  const BandedSystems* b = nullptr;
  float *g = nullptr, *h = nullptr, *out = nullptr, *zero_row = nullptr;
  std::int64_t chunk = kChunkRows;
};

struct ThomasTiles {
  Tile dl, dup, d, du, rhs, s, y, c, g, h, mark, cand, idx, zmin, zchunk, carry;
};

// Rows [r0, r0 + len) of systems [s0, s0 + P) of a caller array (element i of system s at
// i * es + s * ss; ss = 0: one matrix read by every partition, a DMA broadcast).
Tile system_rows(const void* base, std::int64_t count, std::int64_t m, std::int64_t es, std::int64_t ss, std::int64_t s0,
                 std::int32_t P, std::int64_t r0, std::int64_t len) {
  return HbmTensor::wrap(const_cast<void*>(base), DType::f32, {count, m}, {ss, es}).tile(s0, P, r0, len);
}
Tile band_rows(const ThomasJob& j, int k, std::int64_t s0, std::int32_t P, std::int64_t r0, std::int64_t len) {
  const BandedSystems& b = *j.b;
  return system_rows(b.band[z(k)], b.count, b.m, b.elem_stride, b.sys_stride, s0, P, r0, len);
}
// Rows [r0, r0 + len) of a [count][m] scratch array read last row first (a negative element stride).
Tile reversed_rows(float* base, std::int64_t m, std::int64_t count, std::int64_t s0, std::int32_t P, std::int64_t r0,
                   std::int64_t len) {
  return HbmTensor::wrap(base + r0 + len - 1, DType::f32, {count, len}, {m, -1}).tile(s0, P, 0, len);
}

ThomasTiles alloc_thomas(AllocScope& sb, std::int32_t P, std::int64_t L) {
  ThomasTiles w;
  w.dl = sb.alloc(DType::f32, P, {L}, "dl");
  w.dup = sb.alloc(DType::f32, P, {L}, "du (row above)");
  w.d = sb.alloc(DType::f32, P, {L}, "d");
  w.du = sb.alloc(DType::f32, P, {L}, "du");
  w.rhs = sb.alloc(DType::f32, P, {L}, "b / x");
  w.s = sb.alloc(DType::f32, P, {L + 1}, "-pivots (carry first)");
  w.y = sb.alloc(DType::f32, P, {L + 1}, "y (carry first)");
  w.c = sb.alloc(DType::f32, P, {L}, "-dl du / multipliers");
  w.g = sb.alloc(DType::f32, P, {L}, "g");
  w.h = sb.alloc(DType::f32, P, {L}, "h");
  w.mark = sb.alloc(DType::f32, P, {L}, "zero marks");
  w.cand = sb.alloc(DType::f32, P, {L}, "zero rows");
  w.idx = sb.alloc(DType::f32, P, {L}, "row numbers");
  w.zmin = sb.alloc(DType::f32, P, {1}, "first zero row");
  w.zchunk = sb.alloc(DType::f32, P, {1}, "chunk's first zero row");
  w.carry = sb.alloc(DType::f32, P, {1}, "x carry");
  return w;
}

// The bands and right-hand sides of rows [r0, r0 + L) into SBUF. Entries outside the matrix
// (dl_0, du_{m-1}) are not read: their columns are set to 0 on VectorE.
void load_chunk(NeuronCore& nc, const ThomasJob& j, const ThomasTiles& w, std::int64_t s0, std::int32_t P,
                std::int64_t r0, std::int64_t L) {
  const BandedSystems& b = *j.b;
  const std::int64_t lo = r0 == 0 ? 1 : 0, hi = r0 + L == b.m ? L - 1 : L;
  if (lo == 1) {
    nc.memset(w.dl.rows(0, P).cols(0, 1), 0.0f);
    nc.memset(w.dup.rows(0, P).cols(0, 1), 0.0f);
  }
  if (L > lo) {
    nc.dma_copy(w.dl.rows(0, P).cols(lo, L - lo), band_rows(j, 0, s0, P, r0 + lo, L - lo));
    nc.dma_copy(w.dup.rows(0, P).cols(lo, L - lo), band_rows(j, 2, s0, P, r0 + lo - 1, L - lo));
  }
  nc.dma_copy(w.d.rows(0, P).cols(0, L), band_rows(j, 1, s0, P, r0, L));
  if (hi > 0) nc.dma_copy(w.du.rows(0, P).cols(0, hi), band_rows(j, 2, s0, P, r0, hi));
  if (hi < L) nc.memset(w.du.rows(0, P).cols(hi, 1), 0.0f);
  nc.dma_copy(w.rhs.rows(0, P).cols(0, L), system_rows(b.x, b.count, b.m, b.x_elem_stride, b.x_sys_stride, s0, P, r0, L));
}

// zmin = min(zmin, the first row r0 + k of the chunk with s_k == 0; kNoZero if none), VectorE
// (the row numbers by GpSimd iota): cand = (1 - mark) 2^30 + mark row, each term exact.
void mark_zero_pivots(NeuronCore& nc, const ThomasTiles& w, std::int32_t P, std::int64_t r0, std::int64_t L) {
  const Tile mark = w.mark.rows(0, P).cols(0, L), cand = w.cand.rows(0, P).cols(0, L), idx = w.idx.rows(0, P).cols(0, L);
  const std::array<std::array<std::int64_t, 2>, 1> rows{{{1, L}}};
  nc.iota(idx, rows, r0, 0);
  nc.tensor_scalar(mark, w.s.rows(0, P).cols(1, L), AluOp::equal, 0.0f);
  nc.tensor_scalar(cand, mark, AluOp::multiply, -kNoZero, AluOp::add, kNoZero);
  nc.tensor_tensor(mark, mark, idx, AluOp::multiply);
  nc.tensor_tensor(cand, cand, mark, AluOp::add);
  nc.tensor_reduce(w.zchunk.rows(0, P), cand, AluOp::minimum);
  nc.tensor_tensor(w.zmin.rows(0, P), w.zmin.rows(0, P), w.zchunk.rows(0, P), AluOp::minimum);
}

// The elimination of rows [r0, r0 + L): pivots, y, g and h (to the scratch), zero-pivot marks.
void forward_chunk(NeuronCore& nc, const ThomasJob& j, const ThomasTiles& w, std::int64_t s0, std::int32_t P,
                   std::int64_t r0, std::int64_t L) {
  const std::int64_t m = j.b->m, count = j.b->count;
  load_chunk(nc, j, w, s0, P, r0, L);
  const Tile c = w.c.rows(0, P).cols(0, L), dl = w.dl.rows(0, P).cols(0, L);
  const Tile s = w.s.rows(0, P), y = w.y.rows(0, P), g = w.g.rows(0, P).cols(0, L), h = w.h.rows(0, P).cols(0, L);
  nc.tensor_tensor(c, dl, w.dup.rows(0, P).cols(0, L), AluOp::multiply);
  nc.tensor_scalar(c, c, AluOp::multiply, -1.0f);
  nc.tensor_tensor_scan(s.cols(1, L), c, w.d.rows(0, P).cols(0, L), s.cols(0, 1), AluOp::divide, AluOp::subtract);
  nc.tensor_tensor(c, dl, s.cols(0, L), AluOp::divide);
  nc.tensor_tensor_scan(y.cols(1, L), c, w.rhs.rows(0, P).cols(0, L), y.cols(0, 1), AluOp::multiply, AluOp::add);
  nc.tensor_tensor(g, y.cols(1, L), s.cols(1, L), AluOp::divide);
  nc.tensor_tensor(h, w.du.rows(0, P).cols(0, L), s.cols(1, L), AluOp::divide);
  mark_zero_pivots(nc, w, P, r0, L);
  nc.dma_copy(system_rows(j.g, count, m, 1, m, s0, P, r0, L), g);
  nc.dma_copy(system_rows(j.h, count, m, 1, m, s0, P, r0, L), h);
  nc.tensor_copy(s.cols(0, 1), s.cols(L, 1));
  nc.tensor_copy(y.cols(0, 1), y.cols(L, 1));
}

// The back substitution of rows [r0, r0 + L) (last row first): x_i = h_i x_{i+1} - g_i.
void backward_chunk(NeuronCore& nc, const ThomasJob& j, const ThomasTiles& w, std::int64_t s0, std::int32_t P,
                    std::int64_t r0, std::int64_t L) {
  const std::int64_t m = j.b->m, count = j.b->count;
  const Tile g = w.g.rows(0, P).cols(0, L), h = w.h.rows(0, P).cols(0, L), x = w.rhs.rows(0, P).cols(0, L);
  nc.dma_copy(g, reversed_rows(j.g, m, count, s0, P, r0, L));
  nc.dma_copy(h, reversed_rows(j.h, m, count, s0, P, r0, L));
  nc.tensor_tensor_scan(x, h, g, w.carry.rows(0, P), AluOp::multiply, AluOp::subtract);
  nc.tensor_copy(w.carry.rows(0, P), x.cols(L - 1, 1));
  nc.dma_copy(reversed_rows(j.out, m, count, s0, P, r0, L), x);
}

// Program p: systems [p pmax, p pmax + P), every chunk forward, then every chunk backward.
void thomas_program(NeuronCore& nc, const ThomasJob& j) {
  const std::int64_t m = j.b->m, pmax = nc.hw().pmax;
  const std::int64_t s0 = nc.program_id() * pmax;
  const auto P = static_cast<std::int32_t>(std::min(pmax, j.b->count - s0));
  const std::int64_t L = std::min(j.chunk, m);
  AllocScope sb(nc.sbuf());
  const ThomasTiles w = alloc_thomas(sb, P, L);
  nc.memset(w.s.rows(0, P).cols(0, 1), 1.0f);
  nc.memset(w.y.rows(0, P).cols(0, 1), 0.0f);
  nc.memset(w.zmin.rows(0, P), kNoZero);
  nc.memset(w.carry.rows(0, P), 0.0f);
  for (std::int64_t r0 = 0; r0 < m; r0 += L) forward_chunk(nc, j, w, s0, P, r0, std::min(L, m - r0));
  nc.dma_copy(system_rows(j.zero_row, j.b->count, 1, 1, 1, s0, P, 0, 1), w.zmin.rows(0, P));
  for (std::int64_t r0 = (m - 1) / L * L; r0 >= 0; r0 -= L) backward_chunk(nc, j, w, s0, P, r0, std::min(L, m - r0));
}

PlanFacts thomas_facts(const char* routine, const BandedSystems& b, std::int64_t programs, double ns) {
  PlanFacts f;
  f.routine = routine;
  f.shape = std::to_string(b.count) + " tridiagonal system(s) of size " + std::to_string(b.m) +
            (b.sys_stride == 0 && b.count > 1 ? " (one matrix, " + std::to_string(b.count) + " right-hand sides)" : "");
  f.variant = "R_32F: Thomas algorithm (no pivoting) in fp32, one system per partition, " + std::to_string(programs) +
              " program(s) of <= pmax systems, rows in chunks of " + std::to_string(std::min(kChunkRows, b.m)) +
              ", each recurrence one tensor_tensor_scan";
  f.ops = std::to_string(static_cast<long long>(8.0 * static_cast<double>(b.m) * static_cast<double>(b.count))) + " flops";
  f.engines = "DMA (bands, right-hand sides, g/h scratch, reversed reads, x out), VectorE (scans, divides, zero-pivot "
              "marks), GpSimdE (row numbers)";
  f.predicted_ns = ns;
  f.why = "systems are independent: 128 per instruction; each recurrence along a system is one scan";
  return f;
}

}  // namespace

bool banded_on_engines(Value v, BandedAlgo algo, int half) {
  return v == Value::f32 && algo == BandedAlgo::no_pivot && half == 1;
}

void banded_solve_engines(const Settings& s, const char* routine, const BandedSystems& b, CallReport* report) {
  const std::int64_t m = b.m, count = b.count;
  std::vector<float> g(z(m * count)), h(z(m * count)), out(z(m * count)), zero_row(z(count), kNoZero);
  const ThomasJob j{&b, g.data(), h.data(), out.data(), zero_row.data(), kChunkRows};
  const std::int64_t pmax = hardware_spec(s.target).pmax;
  const std::int64_t programs = (count + pmax - 1) / pmax;
  LaunchResult r = launch(s.launch_config({static_cast<int>(programs), 1, 1}), [&](NeuronCore& nc) { thomas_program(nc, j); });
  if (!s.timing_only) {
    for (std::int64_t k = 0; k < count; ++k)
      if (zero_row[z(k)] != kNoZero) throw ZeroPivot(k, static_cast<std::int64_t>(zero_row[z(k)]));
    auto* x = static_cast<float*>(b.x);
    for (std::int64_t k = 0; k < count; ++k)
      for (std::int64_t i = 0; i < m; ++i) x[i * b.x_elem_stride + k * b.x_sys_stride] = out[z(k * m + i)];
  }
  if (report == nullptr) return;
  const bool wanted = report->plans_wanted;
  finish_report(*report, std::move(r.trace), ReportSettings::of(s));
  report->blocks = programs;
  if (wanted) report->add_plan(thomas_facts(routine, b, programs, report->profile.total_ns).print());
}

}  // namespace trn::sparse
