// The Ozaki schemes I (slices) and II (CRT) for fp64 GEMM: host-side scaling, slicing / residues
// and fp64 reconstruction around exact integer GEMMs on the emulated TensorE. Algorithm, exactness
// arguments, accuracy and limits: ozaki.hpp.
#include "ozaki.hpp"

#include "device_slicing.hpp"
#include "ozaki_crt.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "trn/blas/fp64_fold_device.hpp"
#include "trn/blas/fp64_slices.hpp"
#include "trn/core/host_loops.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/plan.hpp"
#include "trn/core/scratch.hpp"
#include "trn/tile/fp64_slices.hpp"
#include "trn/tile/gemm.hpp"

namespace trn::blas {

const char* ozaki_scheme_name(OzakiScheme s) { return s == OzakiScheme::crt ? "ozaki2_crt" : "ozaki1_slices"; }

namespace detail {

using tile::BlockGemmArgs;
using tile::launch_gemm;

namespace {

// ---- shared: operand access, exponents, contraction balancing -----------------------------------

struct Operands {
  Op ta, tb;
  const double* A;
  std::int64_t lda;
  const double* B;
  std::int64_t ldb;
  std::int64_t m, n, k;
  double a(std::int64_t i, std::int64_t kk) const { return ta == Op::N ? A[i + kk * lda] : A[kk + i * lda]; }
  double b(std::int64_t kk, std::int64_t j) const { return tb == Op::N ? B[kk + j * ldb] : B[j + kk * ldb]; }
  // Calls f(i, kk, a_ik) over op(A) / f(kk, j, b_kj) over op(B) in memory order.
  template <class F>
  void each_a(F&& f) const {
    if (ta == Op::N)
      for (std::int64_t kk = 0; kk < k; ++kk)
        for (std::int64_t i = 0; i < m; ++i) f(i, kk, A[i + kk * lda]);
    else
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t kk = 0; kk < k; ++kk) f(i, kk, A[kk + i * lda]);
  }
  template <class F>
  void each_b(F&& f) const {
    if (tb == Op::N)
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t kk = 0; kk < k; ++kk) f(kk, j, B[kk + j * ldb]);
    else
      for (std::int64_t kk = 0; kk < k; ++kk)
        for (std::int64_t j = 0; j < n; ++j) f(kk, j, B[j + kk * ldb]);
  }
};

using slices::exp_of;
using slices::kNoExp;
using slices::pow2_normal;
using slices::scale2;

// Nearest integer (ties to even) of a double, as nearbyint in the default rounding mode.
inline double round_integer(double v) {
  constexpr double kTwo52 = 0x1p52;
  if (!(std::fabs(v) < kTwo52)) return v;  // already an integer
  const double c = std::copysign(kTwo52, v);
  return (v + c) - c;
}

inline int floor_div2(int v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

// d_kk of the contraction balancing (ozaki.hpp, Algorithm): op(A)'s column kk times 2^d, op(B)'s row
// kk times 2^-d, so that their largest exponents meet half way.
std::vector<int> balance_contraction(const Operands& o) {
  std::vector<int> col_a(static_cast<std::size_t>(o.k), kNoExp), row_b(static_cast<std::size_t>(o.k), kNoExp);
  o.each_a([&](std::int64_t, std::int64_t kk, double x) {
    int& e = col_a[static_cast<std::size_t>(kk)];
    e = std::max(e, exp_of(x));
  });
  o.each_b([&](std::int64_t kk, std::int64_t, double x) {
    int& e = row_b[static_cast<std::size_t>(kk)];
    e = std::max(e, exp_of(x));
  });
  std::vector<int> d(static_cast<std::size_t>(o.k), 0);
  for (std::size_t kk = 0; kk < d.size(); ++kk)
    if (col_a[kk] != kNoExp && row_b[kk] != kNoExp) d[kk] = floor_div2(row_b[kk] - col_a[kk]);
  return d;
}

// Per row of op(A) D (per column of D^-1 op(B)): the largest and smallest exponents of its nonzero
// finite elements, and the ratio of the largest element to the mean of the nonzero ones (for
// scheme II's automatic bit count) and its 2-norm relative to 2^e_max.
struct LineStats {
  int e_max = kNoExp, e_min = INT_MAX;
  int e_orig = kNoExp;  // largest exponent of the line before the balancing
  double sum_rel = 0, sumsq_rel = 0, max_rel = 0;  // of |x| 2^-e_max, accumulated after the first pass
  std::int64_t nonzeros = 0;
  int spread() const { return e_max == kNoExp ? 0 : e_max - e_min + 1; }
};

// Exponent pass over both operands (scaled by the balancing): e_max / e_min per line.
void exponent_stats(const Operands& o, const std::vector<int>& d, std::vector<LineStats>& ra, std::vector<LineStats>& cb) {
  ra.assign(static_cast<std::size_t>(o.m), {});
  cb.assign(static_cast<std::size_t>(o.n), {});
  o.each_a([&](std::int64_t i, std::int64_t kk, double x) {
    const int e = exp_of(x);
    if (e == kNoExp) return;
    LineStats& s = ra[static_cast<std::size_t>(i)];
    const int ed = e + d[static_cast<std::size_t>(kk)];
    s.e_orig = std::max(s.e_orig, e);
    s.e_max = std::max(s.e_max, ed);
    s.e_min = std::min(s.e_min, ed);
  });
  o.each_b([&](std::int64_t kk, std::int64_t j, double x) {
    const int e = exp_of(x);
    if (e == kNoExp) return;
    LineStats& s = cb[static_cast<std::size_t>(j)];
    const int ed = e - d[static_cast<std::size_t>(kk)];
    s.e_orig = std::max(s.e_orig, e);
    s.e_max = std::max(s.e_max, ed);
    s.e_min = std::min(s.e_min, ed);
  });
}

// Magnitude pass: sums of |x| 2^(shift - e_max) and their squares per line (values < 1, exact scaling
// but for underflow far below the line's largest element, where the contribution is < 2^-1000).
void magnitude_stats(const Operands& o, const std::vector<int>& d, std::vector<LineStats>& ra, std::vector<LineStats>& cb) {
  auto add = [](LineStats& s, double x, int shift) {
    if (s.e_max == kNoExp || !std::isfinite(x) || x == 0) return;
    const double v = scale2(std::fabs(x), shift - s.e_max);
    s.sum_rel += v;
    s.sumsq_rel += v * v;
    s.max_rel = std::max(s.max_rel, v);
    ++s.nonzeros;
  };
  o.each_a([&](std::int64_t i, std::int64_t kk, double x) { add(ra[static_cast<std::size_t>(i)], x, d[static_cast<std::size_t>(kk)]); });
  o.each_b([&](std::int64_t kk, std::int64_t j, double x) { add(cb[static_cast<std::size_t>(j)], x, -d[static_cast<std::size_t>(kk)]); });
}

int ceil_log2(double x) {  // smallest e with x <= 2^e, x > 0
  int e;
  const double f = std::frexp(x, &e);  // x = f 2^e, f in [0.5, 1)
  return f == 0.5 ? e - 1 : e;
}

// Host (fp64) epilogue shared by both schemes: special values, then C = alpha acc + beta C.
// ---- host round trips (docs/cost-model.md section 7) -------------------------------------------
// Every host (fp64) step of a scheme is one costed round trip in the call's trace. Flop counts are
// declared per element: scaling ~8 (exponent statistics, balancing, one scale and one rounding per
// element), a residue or a slice 3 (fma, round, convert), a fold 3 (fma, floor, compare), the
// scheme-I accumulation 2 (scale, add), the epilogue 3 (alpha, beta, add); the CRT reconstruction
// 2 per digit and modulus plus 8 per output.
HostSpan span_a(const Operands& o) {
  return o.ta == Op::N ? HostSpan::matrix(o.A, o.m, o.k, o.lda) : HostSpan::matrix(o.A, o.k, o.m, o.lda);
}
HostSpan span_b(const Operands& o) {
  return o.tb == Op::N ? HostSpan::matrix(o.B, o.k, o.n, o.ldb) : HostSpan::matrix(o.B, o.n, o.k, o.ldb);
}
double operand_elements(const Operands& o) { return static_cast<double>(o.m * o.k + o.k * o.n); }
// The last round trip: C (read only when beta != 0) to the host, alpha acc + beta C back.
void record_epilogue(Trace& t, std::string_view name, const Operands& o, double flops_per_output, double beta,
                     const double* C, std::int64_t ldc) {
  const HostSpan c = HostSpan::matrix(C, o.m, o.n, ldc);
  record_host_step(t, HostStep{.name = name, .flops = flops_per_output * static_cast<double>(o.m * o.n),
                               .reads = {beta != 0.0 ? c : HostSpan{}}, .writes = {c}});
}

// A data-dependent host recomputation (special values, lost terms): `outputs` fp64 dot products of
// length k over `rows` rows of op(A) and `cols` columns of op(B), one round trip recorded only when
// it ran (a computed call whose data needs it; a timing-only call of the shape does not see it). The
// results stay on the host for the epilogue's round trip, which writes C.
void record_recompute(Trace& t, std::string_view name, const Operands& o, std::int64_t outputs, std::int64_t rows,
                      std::int64_t cols) {
  if (outputs == 0) return;
  HostSpan a = span_a(o), b = span_b(o);
  a.bytes = sizeof(double) * static_cast<std::size_t>(rows * o.k);
  b.bytes = sizeof(double) * static_cast<std::size_t>(cols * o.k);
  record_host_step(t, HostStep{.name = name, .flops = 2.0 * static_cast<double>(outputs * o.k), .reads = {a, b}});
}

void finish_c(const Settings& s, const Operands& o, double* acc, double alpha, double beta, double* C,
              std::int64_t ldc, Trace& trace) {
  const std::int64_t m = o.m, n = o.n, k = o.k;
  // Special values: an output whose row of op(A) or column of op(B) holds Inf/NaN is recomputed as an
  // IEEE fp64 dot product on the host so that Inf and NaN propagate as in native DGEMM.
  if (s.ozaki_special_values) {
    std::vector<char> row_bad(static_cast<std::size_t>(m), 0), col_bad(static_cast<std::size_t>(n), 0);
    o.each_a([&](std::int64_t i, std::int64_t, double x) { row_bad[static_cast<std::size_t>(i)] |= !std::isfinite(x); });
    o.each_b([&](std::int64_t, std::int64_t j, double x) { col_bad[static_cast<std::size_t>(j)] |= !std::isfinite(x); });
    const auto bad_rows = std::count(row_bad.begin(), row_bad.end(), 1), bad_cols = std::count(col_bad.begin(), col_bad.end(), 1);
    record_recompute(trace, "trnblas.ozaki.special_values", o, bad_rows * n + bad_cols * m - bad_rows * bad_cols,
                     bad_cols > 0 ? m : bad_rows, bad_rows > 0 ? n : bad_cols);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i)
        if (row_bad[static_cast<std::size_t>(i)] || col_bad[static_cast<std::size_t>(j)]) {
          double dot = 0;
          for (std::int64_t kk = 0; kk < k; ++kk) dot += o.a(i, kk) * o.b(kk, j);
          acc[i + j * m] = dot;
        }
  }
  // C = alpha * acc + beta * C; beta == 0 never reads C.
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      double& c = C[i + j * ldc];
      const double v = alpha * acc[i + j * m];
      c = beta == 0.0 ? v : v + beta * c;
    }
}


// Several products per launch (grid axis 2), so that small problems still give every host thread
// and emulated core a program; partial-sum storage stays under `budget` bytes. Scheme II keeps every
// scratch buffer under glibc's largest mmap threshold (32 MiB), so that repeated calls reuse heap
// pages instead of faulting fresh ones in.
constexpr std::int64_t kPartialBudget = std::int64_t{64} << 20;
constexpr std::int64_t kCrtScratchBudget = std::int64_t{16} << 20;
std::int64_t products_per_launch(std::int64_t chunks, std::int64_t m, std::int64_t n,
                                 std::int64_t budget = kPartialBudget) {
  const std::int64_t bytes = chunks * n * m * static_cast<std::int64_t>(sizeof(float));
  return std::clamp<std::int64_t>(budget / std::max<std::int64_t>(bytes, 1), 1, 8);
}

// One raw integer GEMM problem: P[n][m] = sum_{k in chunk} qa[k][i] qb[k][j] in fp32 PSUM.
BlockGemmArgs integer_product(const std::uint16_t* qa, const std::uint16_t* qb, std::int64_t m, std::int64_t n,
                              std::int64_t k, std::int64_t k_begin, std::int64_t k_chunk, float* out) {
  BlockGemmArgs g;
  g.a_src = {HbmTensor::wrap(const_cast<std::uint16_t*>(qa), DType::bf16, {k, m})};
  g.b_src = {HbmTensor::wrap(const_cast<std::uint16_t*>(qb), DType::bf16, {k, n})};
  g.load = DType::bf16;
  g.pairs = {{0, 0}};
  g.m = m;
  g.n = n;
  g.k_begin = k_begin;
  g.k_end = std::min(k, k_begin + k_chunk);
  g.c = HbmTensor::wrap(out, DType::f32, {n, m});
  g.raw = true;
  return g;
}

void fill_report(CallReport* report, const OzakiPlan& plan) {
  if (report == nullptr) return;
  report->ozaki_scheme = plan.scheme;
  report->ozaki_slices_a = report->ozaki_slices_b = plan.slices;
  report->ozaki_moduli = plan.moduli;
  report->ozaki_products = plan.products;
  report->ozaki_k_chunks = plan.k_chunks;
  report->ozaki_mantissa_bits = plan.mantissa_bits;
  report->ozaki_host_fallback = plan.fallback_outputs;
  report->ozaki_capped = plan.capped;
  if (!plan.capped) return;
  const bool crt = plan.scheme == OzakiScheme::crt;
  std::string note = ozaki_scheme_name(plan.scheme);
  if (plan.wanted > (crt ? plan.moduli : plan.slices))
    note += ": the inputs' exponent spread asks for " + std::to_string(plan.wanted) + (crt ? " moduli" : " slices") +
            ", capped at " + std::to_string(crt ? plan.moduli : plan.slices) + " (" +
            std::to_string(plan.mantissa_bits) + " mantissa bits per row/column maximum)";
  if (plan.fallback_skipped > 0)
    note += ": " + std::to_string(plan.fallback_outputs) + " outputs with lost low-order terms recomputed on the host, " +
            std::to_string(plan.fallback_skipped) + " more left as computed (host budget)";
  report->ozaki_cap_note = note + "; elements far below their row's or column's largest may lose digits";
}

// ---- scheme I: slices ---------------------------------------------------------------------------


using slices::cut_slices;
using slices::kSliceBits;
using slices::kSliceScale;

struct SlicePlanInputs {
  std::vector<int> d;
  std::vector<LineStats> ra, cb;
};

OzakiPlan plan_slices(const Settings& st, const Operands& o, const SlicePlanInputs& in) {
  int spread_a = 0, spread_b = 0;
  for (const LineStats& s : in.ra) spread_a = std::max(spread_a, s.spread());
  for (const LineStats& s : in.cb) spread_b = std::max(spread_b, s.spread());
  // Bits so that each element is exact (53 + own spread) and every dropped cross term is below
  // 2^-56 of the smallest product scale: 56 + spread_a + spread_b.
  const int automatic = 56 + spread_a + spread_b + st.ozaki_mantissa_bit_offset;
  int bits = automatic;
  if (st.ozaki_fixed && st.ozaki_max_mantissa_bits > 0)
    bits = st.ozaki_max_mantissa_bits;
  else if (st.ozaki_max_mantissa_bits > 0)
    bits = std::min(bits, st.ozaki_max_mantissa_bits);
  OzakiPlan p;
  p.scheme = OzakiScheme::slices;
  p.slices = std::max(1, (bits + kSliceBits - 1) / kSliceBits);
  p.wanted = p.slices;
  const bool fixed = st.ozaki_fixed && st.ozaki_max_mantissa_bits > 0;
  if (!fixed && p.slices > kOzakiMaxSlices) {
    p.slices = kOzakiMaxSlices;
    p.capped = true;
  }
  p.mantissa_bits = p.slices * kSliceBits;
  p.products = p.slices * (p.slices + 1) / 2;
  p.k_chunks = static_cast<int>((o.k + kSliceKChunk - 1) / kSliceKChunk);
  return p;
}


// Slices of op(X) (K x F viewed as [k][f]) into S integer-valued bf16 matrices [K][F] at out + s K F:
// x 2^(dk - e_f) has |.| < 1 and is cut into 8-bit pieces from the top (the host loop; the device form
// is slice_on_device, device_slicing.hpp).
void slice(std::int64_t K, std::int64_t F, const std::vector<LineStats>& sc, const std::vector<int>& dk, int dk_sign,
           int S, std::uint16_t* out, auto&& get /* (k, f) -> double */) {
  std::vector<std::uint16_t> q(static_cast<std::size_t>(S));
  for (std::int64_t k = 0; k < K; ++k)
    for (std::int64_t f = 0; f < F; ++f) {
      const int e = sc[static_cast<std::size_t>(f)].e_max;
      cut_slices(e != kNoExp ? get(k, f) : 0.0, dk_sign * dk[static_cast<std::size_t>(k)] - e, S, q.data(), 1);
      for (int s = 0; s < S; ++s) out[s * K * F + k * F + f] = q[static_cast<std::size_t>(s)];
    }
}

// The device slicing's offset terms (device_slicing.hpp): cut_slices(x, sign d_kk - e_line) is
// o = kSliceOffsetBias + e_line - sign d_kk = line term + contraction term. A line with no exponent
// (only zeros, Inf, NaN) slices to 0 whatever its offset (m = 0; Inf / NaN masked), as the host's 0.0.
// The exponent pass writes them to HBM (record_exponent_pass): on the scratch stack (docs/cost-model.md
// section 2, "Scratch addresses").
struct SliceTerms {
  ScratchVector<std::int32_t> plus_d, minus_d, lines_a, lines_b;
};
ScratchVector<std::int32_t> line_terms(const std::vector<LineStats>& lines) {
  ScratchVector<std::int32_t> t(lines.size());
  for (std::size_t f = 0; f < lines.size(); ++f)
    t[f] = lines[f].e_max == kNoExp ? 0 : tile::kSliceOffsetBias + lines[f].e_max;
  return t;
}
SliceTerms slice_terms(const SlicePlanInputs& in) {
  SliceTerms t{{in.d.begin(), in.d.end()}, {}, line_terms(in.ra), line_terms(in.cb)};
  t.minus_d.resize(in.d.size());
  for (std::size_t kk = 0; kk < in.d.size(); ++kk) t.minus_d[kk] = -in.d[kk];
  return t;
}
// Whether the slices are cut on the device: not asked off, operands large enough to pay for the
// launch, and every line of both operands within the device slicing's exact range.
bool slices_on_device(const Settings& st, const Operands& o, const SlicePlanInputs& in) {
  if (st.fp64_host_slicing || operand_elements(o) < kDeviceSlicingMinElements) return false;
  int spread = 0;
  for (const auto* lines : {&in.ra, &in.cb})
    for (const LineStats& l : *lines) spread = std::max(spread, l.spread());
  return device_slicing_exact(spread);
}
// op(A) (K = k, F = m) and op(B) (K = k, F = n) as SliceOperands: element strides from the ops,
// terms (A: e_i - d_kk, B: e_j + d_kk), outputs as the caller lays them out.
SliceOperand operand_a(const Operands& o, const SliceTerms& t) {
  SliceOperand a{.x = o.A, .K = o.k, .F = o.m, .xk = o.ta == Op::N ? o.lda : 1, .xf = o.ta == Op::N ? 1 : o.lda};
  a.tk = t.minus_d.data();
  a.tf = t.lines_a.data();
  return a;
}
SliceOperand operand_b(const Operands& o, const SliceTerms& t) {
  SliceOperand b{.x = o.B, .K = o.k, .F = o.n, .xk = o.tb == Op::N ? 1 : o.ldb, .xf = o.tb == Op::N ? o.ldb : 1};
  b.tk = t.plus_d.data();
  b.tf = t.lines_b.data();
  return b;
}
// The host's remaining part of device slicing: the exponent passes (balancing and per-line exponents,
// ~4 declared ops per element), operands in and the offset terms out.
void record_exponent_pass(Trace& trace, std::string_view name, const Operands& o, const SliceTerms& t) {
  record_host_step(trace, HostStep{.name = name, .flops = 4.0 * operand_elements(o), .reads = {span_a(o), span_b(o)},
                                   .writes = {HostSpan(t.plus_d.data(), static_cast<std::int64_t>(t.plus_d.size())),
                                              HostSpan(t.minus_d.data(), static_cast<std::int64_t>(t.minus_d.size())),
                                              HostSpan(t.lines_a.data(), static_cast<std::int64_t>(t.lines_a.size())),
                                              HostSpan(t.lines_b.data(), static_cast<std::int64_t>(t.lines_b.size()))}});
}

// acc[i] += P[i] * 2^(ej + ea[i]) for a column whose exponents all lie in the normal range: the
// same operations as the general loop (an exact widening, a product by an exact power of two, one
// add), vectorised by the core's host helper (trn/core/host_loops.hpp).
void accumulate_scaled(double* acc, const float* P, const int* ea, int ej, std::int64_t m) {
  host::accumulate_pow2_scaled(acc, P, ea, ej, m);
}

SlicePlanInputs slice_inputs(const Operands& o) {
  SlicePlanInputs in;
  in.d = balance_contraction(o);
  exponent_stats(o, in.d, in.ra, in.cb);
  return in;
}

// ---- scheme II: CRT -------------------------------------------------------------------------------

// Small unsigned big integer (32-bit limbs) for the moduli products, at plan time only.
struct Big {
  std::vector<std::uint32_t> limb;  // little endian
  void mul(std::uint32_t v) {
    std::uint64_t carry = 0;
    for (auto& l : limb) {
      const std::uint64_t t = static_cast<std::uint64_t>(l) * v + carry;
      l = static_cast<std::uint32_t>(t);
      carry = t >> 32;
    }
    if (carry != 0) limb.push_back(static_cast<std::uint32_t>(carry));
  }
  std::uint32_t mod(std::uint32_t v) const {
    std::uint64_t r = 0;
    for (auto it = limb.rbegin(); it != limb.rend(); ++it) r = ((r << 32) | *it) % v;
    return static_cast<std::uint32_t>(r);
  }
  // Bits [40 c, 40 c + 40) as a double (exact).
  double digit(int c) const {
    std::uint64_t v = 0;
    for (int b = 0; b < kDigitBits; ++b) {
      const int bit = c * kDigitBits + b;
      const std::size_t w = static_cast<std::size_t>(bit / 32);
      if (w < limb.size() && ((limb[w] >> (bit % 32)) & 1u)) v |= std::uint64_t{1} << b;
    }
    return static_cast<double>(v);
  }
};

// The CRT constants of the first N moduli (CrtTable: ozaki_crt.hpp).
double log2_product(int N) {
  double s = 0;
  for (int l = 0; l < N; ++l) s += std::log2(static_cast<double>(kCrtModuli[l]));
  return s;
}
int crt_H(int N) { return static_cast<int>(std::floor((log2_product(N) - 1.0) / 2.0)); }

CrtTable crt_table(int N) {
  CrtTable t;
  t.N = N;
  t.log2_M = log2_product(N);
  t.H = crt_H(N);
  t.digits = static_cast<int>(std::ceil((t.log2_M + 1) / kDigitBits));
  Big M{{1}};
  for (int l = 0; l < N; ++l) M.mul(static_cast<std::uint32_t>(kCrtModuli[l]));
  long double Md = 0;
  for (int c = 0; c < t.digits; ++c) {
    t.M_digit[c] = M.digit(c);
    Md += std::ldexp(static_cast<long double>(t.M_digit[c]), kDigitBits * c);
  }
  t.inv_M = static_cast<double>(1.0L / Md);
  for (int l = 0; l < N; ++l) {
    const auto p = static_cast<std::uint32_t>(kCrtModuli[l]);
    Big Ml{{1}};
    for (int o = 0; o < N; ++o)
      if (o != l) Ml.mul(static_cast<std::uint32_t>(kCrtModuli[o]));
    const std::uint32_t r = Ml.mod(p);
    std::uint32_t inv = 0;
    for (std::uint32_t v = 1; v < p; ++v)
      if ((r * v) % p == 1) inv = v;
    Ml.mul(inv);  // W_l = (M/p_l) ((M/p_l)^-1 mod p_l) < M
    for (int c = 0; c < t.digits; ++c) t.W_digit[l][c] = Ml.digit(c);
    std::uint32_t pw = 1 % p;
    for (int e = 0; e < kPow2Table; ++e) {
      t.pow2_mod[l][e] = pw;
      pw = (pw * 2) % p;
    }
  }
  return t;
}

// crt_table(N) for N = 1 .. kOzakiMaxModuli, built once per process (a pure function of N: every
// DGEMM rebuilt it, ~8 % of a LAPACK test program's host time on fp64 Level 2 calls).
const CrtTable& crt_table_memo(int N) {
  static const std::vector<CrtTable> tables = [] {
    std::vector<CrtTable> all(kOzakiMaxModuli + 1);
    for (int n = 1; n <= kOzakiMaxModuli; ++n) all[static_cast<std::size_t>(n)] = crt_table(n);
    return all;
  }();
  return tables.at(static_cast<std::size_t>(N));
}

// Per-thread scratch reused across calls and released when the thread exits: scheme II writes
// ~75 MB of intermediates at 1024^3, and fresh pages would be faulted in on every call. The buffers
// are traced as HBM, so they come from the scratch stack (trn/core/scratch.hpp): a grown buffer is
// a new block to the cost model, never a heap block whose address depends on malloc's history.
enum ScratchSlot { kMantA, kExpA, kMantB, kResA, kResB, kPartial, kResidueY, kAcc, kSlotCount };
template <class T>
T* scratch(ScratchSlot slot, std::int64_t count) {
  struct Buffer {
    void* data = nullptr;  // kScratchAlign-aligned: for every T used here
    std::size_t bytes = 0;
    ~Buffer() { trn::detail::scratch_release(data); }
  };
  thread_local Buffer buffers[kSlotCount];
  Buffer& b = buffers[slot];
  const std::size_t need = static_cast<std::size_t>(count) * sizeof(T);
  if (b.data == nullptr || b.bytes < need) {
    void* grown = trn::detail::scratch_allocate(need);
    trn::detail::scratch_release(b.data);
    b.data = grown;
    b.bytes = need;
  }
  return static_cast<T*>(b.data);
}

// An integer-valued double x = mant 2^e: mant signed with |mant| < 2^53, 0 <= e < kPow2Table.
struct SplitInts {
  double* mant = nullptr;
  std::uint8_t* e = nullptr;
  std::int64_t count = 0;
};
inline void split_int(double x, double& mant, std::uint8_t& e) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  if (biased >= 1075) {  // |x| >= 2^53: keep sign and fraction, exponent field of 2^52
    mant = std::bit_cast<double>((bits & ~(std::uint64_t{0x7ff} << 52)) | (std::uint64_t{1075} << 52));
    e = static_cast<std::uint8_t>(biased - 1075);
  } else {
    mant = x;
    e = 0;
  }
}

// Residues of x = mant 2^e modulo p, centred in [-p/2, p/2), as bf16 bits (integers of <= 8
// significant bits: the float's top half is exact). r = mant - p q, q = round(mant / p) (the fp64
// estimate is off by at most one), lies within [-3p/2, 3p/2]; it is one fma: q p itself may exceed
// 2^53 (|mant| < 2^53 but q p up to |mant| + p/2) and would be rounded, a wrong residue and a C' off
// by a multiple of 2^e 2^-(s+t) (mantissas within p/2 of 2^53: x = 1 - 2^-50, the iterates of a
// converging refinement). r times 2^e mod p (< 256) stays below 2^17, whose centred residue is
// exact: every later product and difference is an exact integer < 2^53 (the core's host helper,
// trn/core/host_loops.hpp, runs this loop).
// Residues for the moduli l0 .. l0 + nl - 1 into out + q * out_stride, in blocks of elements that
// stay in L1 while every modulus of the group reads them (one pass over x from memory).
void residues(const SplitInts& x, const CrtTable& t, int l0, int nl, std::uint16_t* out, std::int64_t out_stride) {
  constexpr std::int64_t kBlock = 2048;
  for (std::int64_t b0 = 0; b0 < x.count; b0 += kBlock) {
    const std::int64_t nb = std::min(kBlock, x.count - b0);
    for (int q = 0; q < nl; ++q) {
      const double p = kCrtModuli[l0 + q], inv_p = 1.0 / p;
      std::uint16_t* o = out + q * out_stride + b0;
      host::centred_residues_bf16(x.mant + b0, x.e + b0, nb, p, inv_p, t.pow2_mod[l0 + q], o);
    }
  }
}

// y = (y + P mod p) mod p in [0, p) for exact integer partials |P| <= 2^24 (the core's host helper).
void fold_partial(const float* P, std::int64_t count, double p, double inv_p, bool first, std::uint8_t* y) {
  host::fold_residues_u8(P, count, p, inv_p, first, y);
}

// S[c][e] += W_l digit c * y_l[e] over a block (exact: sums < 2^53).
void digit_sums(const CrtTable& t, const std::uint8_t* const* y, std::int64_t offset, std::int64_t nb, double (*S)[256]) {
  host::weighted_digit_sums(t.N, t.digits, &t.W_digit[0][0], kMaxDigits + 1, y, offset, nb, S);
}

struct CrtScaling {
  std::vector<int> d;        // contraction balancing
  std::vector<LineStats> ra, cb;
  std::vector<int> sa, sb;   // per row / column: x 2^(d + s) is then rounded to an integer
};

// Bits of the largest element of a row guaranteed by H (its 2-norm exceeds 2^(H-2) and the largest
// element is >= norm / sqrt(k)).
int crt_bits(int H, std::int64_t k) { return H - 2 - (ceil_log2(static_cast<double>(k)) + 1) / 2; }

OzakiPlan plan_crt(const Settings& st, const Operands& o, const CrtScaling& sc) {
  // Automatic (ozaki.hpp, Accuracy): 53 + 2 ceil(log2 R2) bits for the largest element of a line,
  // R2 >= 1 the largest rms-to-mean ratio of the nonzero elements of a row of op(A) D or a column of
  // D^-1 op(B). The 2-norm scaling leaves a mean-size element about crt_bits + 1 - log2 R2 bits, so
  // it keeps >= 54 + log2 R2: fp64's 53 and one guard bit, plus log2 R2 for heavy-tailed lines,
  // whose few large terms carry the outputs (and their cancellations).
  double R2 = 1;
  auto rms_to_mean = [](const LineStats& s) {
    return s.nonzeros > 0 && s.sum_rel > 0 ? std::sqrt(s.sumsq_rel * static_cast<double>(s.nonzeros)) / s.sum_rel : 1.0;
  };
  for (const LineStats& s : sc.ra) R2 = std::max(R2, rms_to_mean(s));
  for (const LineStats& s : sc.cb) R2 = std::max(R2, rms_to_mean(s));
  // At least what the normwise bound 2^-50 k max|a_i| max|b_j| needs under the balancing: the input
  // roundings bound an output's error by 2k 2^-bits M'_i N'_j, M'_i (N'_j) the largest element of
  // row i of op(A) D (column j of D^-1 op(B)); the balancing may raise M'_i / max|a_i| (a column
  // scaled up for the sake of other rows) or N'_j / max|b_j|. With g = max_i (e'_i - e_i) +
  // max_j (e'_j - e_j) over the lines' largest exponents after (e') and before (e), the ratio
  // product is < 2^(g + 2), so 53 + g bits keep the bound (recompute_lost_outputs checks it per
  // output). Random and graded data give g <= 0; one element 2^40 above the others of its column
  // gives g = 20 (test OzakiBalancingNeverDropsAProductBeyondTheNormwiseBound).
  auto amplification = [](const std::vector<LineStats>& lines) {
    int g = INT_MIN;
    for (const LineStats& s : lines)
      if (s.e_max != kNoExp) g = std::max(g, s.e_max - s.e_orig);
    return g;
  };
  const int ga = amplification(sc.ra), gb = amplification(sc.cb);
  const int balancing_bits = ga == INT_MIN || gb == INT_MIN ? 0 : std::max(0, ga + gb);
  int bits = 53 + std::max(2 * ceil_log2(R2), balancing_bits) + st.ozaki_mantissa_bit_offset;
  const int automatic = bits;
  const bool fixed = st.ozaki_fixed && st.ozaki_max_mantissa_bits > 0;
  if (fixed)
    bits = st.ozaki_max_mantissa_bits;
  else if (st.ozaki_max_mantissa_bits > 0)
    bits = std::min(bits, st.ozaki_max_mantissa_bits);
  OzakiPlan p;
  p.scheme = OzakiScheme::crt;
  p.reduced = bits < automatic || st.ozaki_mantissa_bit_offset < 0;  // the caller asked for less
  p.moduli = 0;
  for (int N = 2; N <= kOzakiMaxModuli; ++N)
    if (crt_bits(crt_H(N), o.k) >= bits) {
      p.moduli = N;
      break;
    }
  p.wanted = p.moduli;
  if (p.moduli == 0) {  // more than the table holds
    p.wanted = kOzakiMaxModuli + 1;
    p.moduli = kOzakiMaxModuli;
    p.capped = !fixed || bits > crt_bits(crt_H(kOzakiMaxModuli), o.k);
  }
  p.mantissa_bits = crt_bits(crt_H(p.moduli), o.k);
  p.products = p.moduli;
  p.k_chunks = static_cast<int>((o.k + kCrtKChunk - 1) / kCrtKChunk);
  return p;
}

CrtScaling crt_scaling(const Operands& o) {
  CrtScaling sc;
  sc.d = balance_contraction(o);
  exponent_stats(o, sc.d, sc.ra, sc.cb);
  magnitude_stats(o, sc.d, sc.ra, sc.cb);
  return sc;
}

// Shift s with ||x 2^s||_2 in (2^(H-2), 2^(H-1)] for a line with these stats (0 for an empty line).
int line_shift(const LineStats& s, int H) {
  if (s.e_max == kNoExp) return 0;
  const double norm_rel = std::sqrt(s.sumsq_rel) * (1 + 0x1p-40);  // >= the true norm / 2^e_max
  return H - 1 - (s.e_max + ceil_log2(norm_rel));
}

// The rounded scaled integers of op(A) D 2^sa as [k][m] and of D^-1 op(B) 2^sb as [k][n], split
// into (mant, e), and the sums SA_i = sum_k |a'_ik|, SB_j = sum_k |b'_kj| (for the lost-term check).
struct ScaledInts {
  SplitInts a, b;
  std::vector<double> SA, SB;
  std::vector<double> amax, bmax;  // largest finite |element| of each row of op(A) / column of op(B), unscaled
};
ScaledInts scaled_integers(const Operands& o, const CrtScaling& sc) {
  ScaledInts out;
  out.a = {scratch<double>(kMantA, o.k * o.m), scratch<std::uint8_t>(kExpA, o.k * (o.m + o.n)), o.k * o.m};
  out.b = {scratch<double>(kMantB, o.k * o.n), out.a.e + o.k * o.m, o.k * o.n};  // exponents: one run (kExpA)
  out.SA.assign(static_cast<std::size_t>(o.m), 0.0);
  out.SB.assign(static_cast<std::size_t>(o.n), 0.0);
  out.amax.assign(static_cast<std::size_t>(o.m), 0.0);
  out.bmax.assign(static_cast<std::size_t>(o.n), 0.0);
  o.each_a([&](std::int64_t i, std::int64_t kk, double x) {
    if (std::isfinite(x)) out.amax[static_cast<std::size_t>(i)] = std::max(out.amax[static_cast<std::size_t>(i)], std::fabs(x));
    const double v = std::isfinite(x) && x != 0
                         ? round_integer(scale2(x, sc.d[static_cast<std::size_t>(kk)] + sc.sa[static_cast<std::size_t>(i)]))
                         : 0.0;
    out.SA[static_cast<std::size_t>(i)] += std::fabs(v);
    const std::int64_t at = kk * o.m + i;
    split_int(v, out.a.mant[at], out.a.e[at]);
  });
  o.each_b([&](std::int64_t kk, std::int64_t j, double x) {
    if (std::isfinite(x)) out.bmax[static_cast<std::size_t>(j)] = std::max(out.bmax[static_cast<std::size_t>(j)], std::fabs(x));
    const double v = std::isfinite(x) && x != 0
                         ? round_integer(scale2(x, -sc.d[static_cast<std::size_t>(kk)] + sc.sb[static_cast<std::size_t>(j)]))
                         : 0.0;
    out.SB[static_cast<std::size_t>(j)] += std::fabs(v);
    const std::int64_t at = kk * o.n + j;
    split_int(v, out.b.mant[at], out.b.e[at]);
  });
  return out;
}

}  // namespace

// C'_e = sum_l W_l y_l[e] mod M, centred, rounded once to fp64 and scaled by 2^(-sa_i - sb_j), for a
// block of consecutive elements (of one column j on the host; of one row run on GpSimdE,
// ozaki_crt_device.cpp). S[c][e] holds the exact digit sums (< 2^53).
void crt_reconstruct_block(const CrtTable& t, const std::uint8_t* const* y, std::int64_t count, std::int64_t offset,
                           const int* neg_shift_i, int neg_shift_j, double* out) {
  constexpr std::int64_t kBlock = 256;
  double S[kMaxDigits + 1][kBlock];
  for (std::int64_t e0 = 0; e0 < count; e0 += kBlock) {
    const std::int64_t nb = std::min(kBlock, count - e0);
    for (int c = 0; c < t.digits; ++c) std::fill(S[c], S[c] + nb, 0.0);
    digit_sums(t, y, offset + e0, nb, S);
    for (std::int64_t e = 0; e < nb; ++e) {
      // q = round(S / M): S / M < 28 * 256 and |C'| < M/8 + tiny, so the fp64 estimate rounds right.
      double approx = 0;
      for (int c = t.digits - 1; c >= 0; --c) approx = approx * 0x1p40 + S[c][e];
      approx *= t.inv_M;
      const double q = std::nearbyint(approx);
      // Digits of S - q M (exact: q M_c < 2^13 2^40 < 2^53), carried into [0, 2^40) below a signed
      // top digit; a negative value is negated and carried again (sign and magnitude).
      std::int64_t dg[kMaxDigits + 2] = {};
      for (int c = 0; c < t.digits; ++c) dg[c] = static_cast<std::int64_t>(S[c][e] - q * t.M_digit[c]);
      const int top = t.digits;
      auto carry_up = [&] {
        for (int c = 0; c < top; ++c) {
          const std::int64_t carry = dg[c] >> kDigitBits;  // floor division (arithmetic shift)
          dg[c] -= carry * (std::int64_t{1} << kDigitBits);
          dg[c + 1] += carry;
        }
      };
      carry_up();
      const bool negative = dg[top] < 0;
      if (negative) {
        for (int c = 0; c <= top; ++c) dg[c] = -dg[c];
        carry_up();
      }
      int hi = top;
      while (hi > 0 && dg[hi] == 0) --hi;
      double v = 0;
      int base = 0;
      if (dg[hi] != 0) {
        const int lo = std::max(0, hi - 2);
        unsigned __int128 acc = 0;
        for (int c = hi; c >= lo; --c) acc = (acc << kDigitBits) | static_cast<std::uint64_t>(dg[c]);
        base = kDigitBits * lo;
        bool sticky = false;
        for (int c = 0; c < lo; ++c) sticky |= dg[c] != 0;
        if (sticky) {  // a set bit below the 128-bit window keeps the conversion's rounding exact
          acc = (acc << 1) | 1u;
          base -= 1;
        }
        v = static_cast<double>(acc);  // one correct rounding (RNE)
      }
      if (negative) v = -v;
      out[e0 + e] = v == 0 ? 0.0 : scale2(v, base + neg_shift_i[e0 + e] + neg_shift_j);
    }
  }
}

namespace {

// Lost-term fallback (ozaki.hpp, Limits). The rounding of the scaled inputs bounds the error of
// C'_ij = sum_k a'_ik b'_kj in scaled units by E_ij = (SA_i + SB_j) / 2 + k / 4, SA_i = sum_k |a'_ik| +
// k/2 >= sum_k |a_ik 2^(d_k + s_i)| (|a' - a 2^(d+s)| <= 1/2), likewise SB_j. An output with
// |C'_ij| < 2^20 E_ij may have lost the terms that make it (a huge a_ik meeting a tiny b_kj that the
// balancing could not equalise: A = [1 t; t 1], B = [t 1; 1 t], C_11 = 2t); such outputs are
// recomputed on the host as a long-double (64-bit significand, 15-bit exponent) dot product of the
// original inputs, which neither overflows nor underflows for fp64 products, rounded once to fp64.
// An output is also recomputed when E_ij, in the inputs' units, exceeds the normwise bound
// 2^-50 k max_k |a_ik| max_k |b_kj| (the unscaled row and column maxima): without the contraction
// balancing, E_ij <= 2^-(bits + 1/2) k max|a_i| max|b_j| (line_shift: 2^-t_j <= ||b'_j||_2 2^(2 - H);
// crt_bits: 2^(2 - H) <= 2^-bits / sqrt(2k)), but the balancing serves the rows (columns) that set a
// contraction index's largest exponent and can push another row's element far below that row's new
// maximum: op(A) row (0.5, -1, 9e-14) against column (-4, -4, -1.5) with 1.4e11 elsewhere in the third
// column of op(A) drops the 1.4e-13 product entirely (found by fuzz_trnblas; test
// OzakiBalancingNeverDropsAProductBeyondTheNormwiseBound). Where the balancing helps (graded
// contraction scales) max|a_i| max|b_j| far exceeds the products and the check never fires.
// Random data never gets there (E / |C'| ~ 4k 2^-H << 2^-20); the host work is capped at
// kFallbackBudget multiply-adds per call, beyond which the rest is left as computed and the cap is
// reported (CallReport::ozaki_capped and the C API's log line).
constexpr std::int64_t kFallbackBudget = std::int64_t{1} << 26;

void recompute_lost_outputs(const Operands& o, const CrtScaling& sc, const ScaledInts& x, double* acc, OzakiPlan& plan,
                            Trace& trace) {
  const std::int64_t m = o.m, n = o.n, k = o.k;
  const std::int64_t done_before = plan.fallback_outputs;
  std::vector<char> row_used(static_cast<std::size_t>(m), 0), col_used(static_cast<std::size_t>(n), 0);
  const std::vector<double>&SA = x.SA, &SB = x.SB;
  const double half_k = 0.5 * static_cast<double>(k);
  std::int64_t spent = 0, skipped = 0;
  std::vector<std::int64_t> lost;  // outputs i + j m to recompute, in the order found
  struct Frac {
    double f;
    int e;
  };
  std::vector<Frac> amax(static_cast<std::size_t>(m));
  for (std::int64_t i = 0; i < m; ++i) {
    Frac& a = amax[static_cast<std::size_t>(i)];
    a.f = std::frexp(x.amax[static_cast<std::size_t>(i)], &a.e);
  }
  for (std::int64_t j = 0; j < n; ++j) {
    const LineStats& cj = sc.cb[static_cast<std::size_t>(j)];
    if (cj.e_max == kNoExp) continue;  // a zero column of op(B): C(:, j) = 0 exactly
    int eb = 0;
    const double k_fb = static_cast<double>(k) * std::frexp(x.bmax[static_cast<std::size_t>(j)], &eb);
    for (std::int64_t i = 0; i < m; ++i) {
      if (sc.ra[static_cast<std::size_t>(i)].e_max == kNoExp) continue;
      const double E = 0.5 * (SA[static_cast<std::size_t>(i)] + half_k + SB[static_cast<std::size_t>(j)] + half_k) + 0.25 * static_cast<double>(k);
      double& c = acc[i + j * m];
      // |C'| = |c| 2^(s_i + t_j); compare in scaled units without overflow: |c| vs E 2^(20 - s_i - t_j).
      const int e = 20 - sc.sa[static_cast<std::size_t>(i)] - sc.sb[static_cast<std::size_t>(j)];
      // The normwise bound in scaled units: 2^-50 k (fa 2^ea) (fb 2^eb) 2^(s_i + t_j), fa, fb in [0.5, 1).
      const Frac& a = amax[static_cast<std::size_t>(i)];
      const double normwise = scale2(k_fb * a.f, a.e + eb - 50 + sc.sa[static_cast<std::size_t>(i)] + sc.sb[static_cast<std::size_t>(j)]);
      if (std::fabs(c) >= scale2(E, e) && E <= normwise) continue;
      if (spent + k > kFallbackBudget) {
        ++skipped;
        continue;
      }
      lost.push_back(i + j * m);
      spent += k;
      ++plan.fallback_outputs;
      row_used[static_cast<std::size_t>(i)] = col_used[static_cast<std::size_t>(j)] = 1;
    }
  }
  // The recomputed outputs (each reads only its own row, column and output, so finding them all first
  // changes nothing): long double dot products of the finite terms in kk order, four chains interleaved
  // (each keeps its own order of operations, so its bits; the x87 adds' latency overlaps).
  // op(A)(i, kk) = A[i a_line + kk a_step], op(B)(kk, j) = B[kk b_step + j b_line].
  const std::int64_t a_step = o.ta == Op::N ? o.lda : 1, a_line = o.ta == Op::N ? 1 : o.lda;
  const std::int64_t b_step = o.tb == Op::N ? 1 : o.ldb, b_line = o.tb == Op::N ? o.ldb : 1;
  // Rows of op(A) and columns of op(B) without Inf or NaN (only those of recomputed outputs are
  // looked at): four outputs whose lines are all finite take the loop without the finiteness tests,
  // whose accumulators stay in x87 registers (the general loop below kept them in memory, an 80-bit
  // store and load per term: ~50 % of a DSYL01 dgemm_). Every term is then added, as the tests
  // would have let it: the same operations in the same order, so the same bits.
  std::vector<signed char> row_finite(static_cast<std::size_t>(m), -1), col_finite(static_cast<std::size_t>(n), -1);
  const auto all_finite = [&](std::vector<signed char>& memo, std::int64_t line, const double* p, std::int64_t step) {
    signed char& f = memo[static_cast<std::size_t>(line)];
    if (f < 0) {
      f = 1;
      for (std::int64_t kk = 0; kk < k; ++kk)
        if (!std::isfinite(p[kk * step])) {
          f = 0;
          break;
        }
    }
    return f == 1;
  };
  constexpr std::size_t kLanes = 4;
  for (std::size_t q0 = 0; q0 < lost.size(); q0 += kLanes) {
    const std::size_t lanes = std::min(kLanes, lost.size() - q0);
    std::int64_t li[kLanes] = {}, lj[kLanes] = {};
    long double dot[kLanes] = {};
    bool finite = lanes == kLanes;
    for (std::size_t l = 0; l < lanes; ++l) {
      li[l] = lost[q0 + l] % m;
      lj[l] = lost[q0 + l] / m;
      finite = finite && all_finite(row_finite, li[l], o.A + li[l] * a_line, a_step) &&
               all_finite(col_finite, lj[l], o.B + lj[l] * b_line, b_step);
    }
    if (finite) {
      const double *a0 = o.A + li[0] * a_line, *a1 = o.A + li[1] * a_line, *a2 = o.A + li[2] * a_line,
                   *a3 = o.A + li[3] * a_line;
      const double *b0 = o.B + lj[0] * b_line, *b1 = o.B + lj[1] * b_line, *b2 = o.B + lj[2] * b_line,
                   *b3 = o.B + lj[3] * b_line;
      long double d0 = 0, d1 = 0, d2 = 0, d3 = 0;
      for (std::int64_t kk = 0; kk < k; ++kk) {
        const std::int64_t ka = kk * a_step, kb = kk * b_step;
        d0 += static_cast<long double>(a0[ka]) * static_cast<long double>(b0[kb]);
        d1 += static_cast<long double>(a1[ka]) * static_cast<long double>(b1[kb]);
        d2 += static_cast<long double>(a2[ka]) * static_cast<long double>(b2[kb]);
        d3 += static_cast<long double>(a3[ka]) * static_cast<long double>(b3[kb]);
      }
      acc[lost[q0]] = static_cast<double>(d0);
      acc[lost[q0 + 1]] = static_cast<double>(d1);
      acc[lost[q0 + 2]] = static_cast<double>(d2);
      acc[lost[q0 + 3]] = static_cast<double>(d3);
      continue;
    }
    for (std::int64_t kk = 0; kk < k; ++kk)
      for (std::size_t l = 0; l < lanes; ++l) {
        const double a = o.a(li[l], kk), b = o.b(kk, lj[l]);
        if (std::isfinite(a) && std::isfinite(b)) dot[l] += static_cast<long double>(a) * static_cast<long double>(b);
      }
    for (std::size_t l = 0; l < lanes; ++l) acc[lost[q0 + l]] = static_cast<double>(dot[l]);
  }
  record_recompute(trace, "trnblas.ozaki2.lost_terms", o, plan.fallback_outputs - done_before,
                   std::count(row_used.begin(), row_used.end(), 1), std::count(col_used.begin(), col_used.end(), 1));
  if (skipped > 0) {
    plan.capped = true;
    plan.fallback_skipped = skipped;
  }
}

// Scheme I's slices of both operands: on the device (DMA, GpSimdE / VectorE; device_slicing.hpp) after
// the host's exponent pass, or, when a line's spread exceeds the device's exact range, by the host
// loop (one round trip, as before).
void slice_operands_scheme1(const Settings& s, const Operands& o, const SlicePlanInputs& in, int S, std::uint16_t* qa,
                            std::uint16_t* qb, Trace& trace) {
  const std::int64_t m = o.m, n = o.n, k = o.k;
  if (slices_on_device(s, o, in)) {
    const SliceTerms t = slice_terms(in);
    record_exponent_pass(trace, "trnblas.ozaki1.exponents", o, t);
    SliceOperand a = operand_a(o, t), b = operand_b(o, t);
    a.out = qa;
    a.ok = m;
    a.of = 1;
    a.os = k * m;
    b.out = qb;
    b.ok = n;
    b.of = 1;
    b.os = k * n;
    a.S = b.S = S;
    slice_on_device(s.launch_config(), {a, b}, trace);
    return;
  }
  slice(k, m, in.ra, in.d, 1, S, qa, [&](std::int64_t kk, std::int64_t i) { return o.a(i, kk); });
  slice(k, n, in.cb, in.d, -1, S, qb, [&](std::int64_t kk, std::int64_t j) { return o.b(kk, j); });
  record_host_step(trace, HostStep{.name = "trnblas.ozaki1.slice", .flops = (8.0 + 3.0 * S) * operand_elements(o),
                                   .reads = {span_a(o), span_b(o)},
                                   .writes = {HostSpan(qa, S * k * m), HostSpan(qb, S * k * n)}});
}

}  // namespace

// ---- scheme I driver ----------------------------------------------------------------------------

void gemm_ozaki_slices(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
                       const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C,
                       std::int64_t ldc, CallReport* report) {
  const Operands o{ta, tb, A, lda, B, ldb, m, n, k};
  const SlicePlanInputs in = slice_inputs(o);
  const OzakiPlan plan = plan_slices(s, o, in);
  const int S = plan.slices;
  // Slices of op(A) D 2^-e_i and D^-1 op(B) 2^-f_j: qa[s] = [k][m] at qa + s k m, qb[t] = [k][n] at qb + t k n.
  // Traced (HBM): on the scratch stack (docs/cost-model.md section 2, "Scratch addresses").
  ScratchVector<std::uint16_t> qa(static_cast<std::size_t>(S * k * m)), qb(static_cast<std::size_t>(S * k * n));

  // Device: for each slice pair (s, t) and each K chunk of <= 256, the exact integer partial sum
  // P[j][i] = sum_k qa_s[k][i] qb_t[k][j] in fp32 PSUM, stored raw to HBM.
  const std::int64_t chunks = plan.k_chunks;
  const std::int64_t pairs_per_launch = products_per_launch(chunks, m, n);
  ScratchVector<float> partial(static_cast<std::size_t>(std::min<std::int64_t>(pairs_per_launch, plan.products) * chunks * n * m));
  ScratchVector<double> acc(static_cast<std::size_t>(m * n), 0.0);
  Trace trace;
  slice_operands_scheme1(s, o, in, S, qa.data(), qb.data(), trace);
  // Pairs by decreasing s + t: smallest contributions first.
  std::vector<std::pair<int, int>> pairs;
  for (int d = S - 1; d >= 0; --d)
    for (int s0 = d; s0 >= 0; --s0) pairs.emplace_back(s0, d - s0);
  // Row exponents of op(A) D and their range: columns whose scale exponents all stay normal take the
  // vectorised accumulate_scaled; the others scale element by element, by pow2_normal or ldexp, so
  // the scaled partial is rounded exactly once either way.
  std::vector<int> ea(static_cast<std::size_t>(m));
  for (std::int64_t i = 0; i < m; ++i) {
    const int e = in.ra[static_cast<std::size_t>(i)].e_max;
    ea[static_cast<std::size_t>(i)] = e == kNoExp ? 0 : e;
  }
  const int ea_min = m > 0 ? *std::min_element(ea.begin(), ea.end()) : 0;
  const int ea_max = m > 0 ? *std::max_element(ea.begin(), ea.end()) : 0;
  const LaunchConfig lc = s.launch_config();
  for (std::size_t p0 = 0; p0 < pairs.size(); p0 += static_cast<std::size_t>(pairs_per_launch)) {
    const std::size_t np = std::min(pairs.size() - p0, static_cast<std::size_t>(pairs_per_launch));
    std::vector<BlockGemmArgs> probs;
    for (std::size_t q = 0; q < np; ++q) {
      const auto [ps, pt] = pairs[p0 + q];
      for (std::int64_t c = 0; c < chunks; ++c)
        probs.push_back(integer_product(qa.data() + static_cast<std::int64_t>(ps) * k * m,
                                        qb.data() + static_cast<std::int64_t>(pt) * k * n, m, n, k, c * kSliceKChunk,
                                        kSliceKChunk,
                                        partial.data() + (static_cast<std::int64_t>(q) * chunks + c) * n * m));
    }
    LaunchResult r = launch_gemm(lc, probs);
    trace.append(r.trace);
    const std::int64_t partials = static_cast<std::int64_t>(np) * chunks * n * m;
    record_host_step(trace, HostStep{.name = "trnblas.ozaki1.accumulate", .flops = 2.0 * static_cast<double>(partials),
                                     .reads = {HostSpan(partial.data(), partials)}});
    if (s.timing_only) continue;
    // Host (fp64): acc += 2^(e_i + f_j - 8(s+1) - 8(t+1)) * P, pair by pair in `pairs` order and
    // chunk by chunk (exact scaling).
    for (std::size_t q = 0; q < np; ++q) {
      const auto [ps, pt] = pairs[p0 + q];
      const int shift = -kSliceBits * (ps + 1) - kSliceBits * (pt + 1);
      for (std::int64_t c = 0; c < chunks; ++c) {
        const float* P = partial.data() + (static_cast<std::int64_t>(q) * chunks + c) * n * m;
        for (std::int64_t j = 0; j < n; ++j) {
          const int fj = in.cb[static_cast<std::size_t>(j)].e_max;
          const int ej = shift + (fj == kNoExp ? 0 : fj);
          double* accj = acc.data() + j * m;
          const float* Pj = P + j * m;
          if (ej + ea_min >= -1022 && ej + ea_max <= 1023) {  // whole column in the normal range
            accumulate_scaled(accj, Pj, ea.data(), ej, m);
            continue;
          }
          for (std::int64_t i = 0; i < m; ++i) accj[i] += scale2(Pj[i], ej + ea[static_cast<std::size_t>(i)]);
        }
      }
    }
  }
  if (!s.timing_only) finish_c(s, o, acc.data(), alpha, beta, C, ldc, trace);
  record_epilogue(trace, "trnblas.ozaki1.epilogue", o, 3.0, beta, C, ldc);
  finish_report(report, s, std::move(trace));
  fill_report(report, plan);
}

// ---- fp64 Level 1/2: slice pairs (ozaki.hpp, gemv_slice_pairs) ----------------------------------

namespace {



using slices::digits_to_double;
using slices::exact_slices;

// Output j's value before scaling: partials P[c][(j, t)][s] of every chunk c, summed by weight s + t.
double fold_slice_pairs(const float* P, std::int64_t chunks, std::int64_t chunk_stride, int Sx, int Sb, int e) {
  double T[2 * kVectorMaxSlices] = {};
  for (std::int64_t c = 0; c < chunks; ++c) {
    const float* p = P + c * chunk_stride;
    for (int t = 0; t < Sb; ++t)
      for (int s0 = 0; s0 < Sx; ++s0) T[s0 + t] += static_cast<double>(p[t * Sx + s0]);  // integers < 2^53: exact
  }
  return digits_to_double(T, Sx + Sb - 1, e);
}

// gemv_slice_pairs's slices of x ([k][Sx]) and op(B) ([k][n Sb]): on the device after the host's
// exponent pass, or by the host loop when a line's spread exceeds the device's exact range.
void slice_operands_vector(const Settings& s, const Operands& o, const SlicePlanInputs& in, int Sx, int Sb,
                           std::uint16_t* qx, std::uint16_t* qb, Trace& trace) {
  const std::int64_t k = o.k, n = o.n, N = n * Sb;
  if (slices_on_device(s, o, in)) {
    const SliceTerms t = slice_terms(in);
    record_exponent_pass(trace, "trnblas.dvec.exponents", o, t);
    SliceOperand x = operand_a(o, t), b = operand_b(o, t);
    x.out = qx;
    x.ok = Sx;
    x.os = 1;
    x.S = Sx;
    b.out = qb;
    b.ok = N;
    b.of = Sb;
    b.os = 1;
    b.S = Sb;
    slice_on_device(s.launch_config(), {x, b}, trace);
    return;
  }
  const int ex = in.ra[0].e_max;
  for (std::int64_t kk = 0; kk < k; ++kk) {
    const int d = in.d[static_cast<std::size_t>(kk)];
    cut_slices(ex != kNoExp ? o.a(0, kk) : 0.0, d - ex, Sx, qx + kk * Sx, 1);
    for (std::int64_t j = 0; j < n; ++j) {
      const int ej = in.cb[static_cast<std::size_t>(j)].e_max;
      cut_slices(ej != kNoExp ? o.b(kk, j) : 0.0, -d - ej, Sb, qb + kk * N + j * Sb, 1);
    }
  }
  const double kd = static_cast<double>(k);
  record_host_step(trace, HostStep{.name = "trnblas.dvec.slice",
                                   .flops = (8.0 + 3.0 * Sx) * kd + (8.0 + 3.0 * Sb) * kd * static_cast<double>(n),
                                   .reads = {span_a(o), span_b(o)}, .writes = {HostSpan(qx, k * (Sx + N))}});
}

void fill_vector_report(CallReport* report, const Fp64VectorPlan& plan) {
  if (report == nullptr) return;
  if (report->plans_wanted) report->plan = plan.print();
  report->ozaki_scheme = OzakiScheme::slices;
  report->ozaki_slices_a = plan.slices_x;
  report->ozaki_slices_b = plan.slices_b;
  report->ozaki_products = plan.slices_x * plan.slices_b;
  report->ozaki_k_chunks = plan.k_chunks;
  report->ozaki_mantissa_bits = kSliceBits * std::min(plan.slices_x, plan.slices_b);
  report->ozaki_capped = plan.capped;
  if (plan.capped)
    report->ozaki_cap_note = "fp64 slice pairs: an operand's exponent spread asks for more than " +
                             std::to_string(kVectorMaxSlices) +
                             " slices; elements far below their line's largest may lose digits";
}

}  // namespace

void gemv_slice_pairs(const Settings& s, Op tb, std::int64_t n, std::int64_t k, double alpha, const double* x,
                      std::int64_t incx, const double* B, std::int64_t ldb, double beta, double* y, std::int64_t incy,
                      CallReport* report) {
  const Operands o{Op::N, tb, x, incx, B, ldb, 1, n, k};
  const SlicePlanInputs in = slice_inputs(o);
  Fp64VectorPlan plan = plan_fp64_vector(s, n, k);
  plan.algorithm = Fp64VectorAlgorithm::slice_pairs;
  int spread_b = 0;
  for (const LineStats& c : in.cb) spread_b = std::max(spread_b, c.spread());
  const int want_x = exact_slices(in.ra[0].spread()), want_b = exact_slices(spread_b);
  plan.capped = std::max(want_x, want_b) > kVectorMaxSlices;
  plan.slices_x = std::min(want_x, kVectorMaxSlices);
  plan.slices_b = std::min(want_b, kVectorMaxSlices);
  const int Sx = plan.slices_x, Sb = plan.slices_b;
  const std::int64_t N = n * Sb, chunks = plan.k_chunks;
  // Slices of x as [k][Sx] and of op(B) as [k][n Sb] (column (j, t) = j Sb + t), one buffer: cut on the
  // device (slice_operands_vector).
  std::uint16_t* const qx = scratch<std::uint16_t>(kResA, k * (Sx + N));
  std::uint16_t* const qb = qx + k * Sx;
  const int ex = in.ra[0].e_max;
  Trace trace;
  slice_operands_vector(s, o, in, Sx, Sb, qx, qb, trace);
  // Device: P[c][(j, t)][s] = sum_{kk in chunk c} qx[kk][s] qb[kk][(j, t)], exact in fp32 PSUM.
  float* const partial = scratch<float>(kPartial, chunks * N * Sx);
  std::vector<BlockGemmArgs> probs;
  for (std::int64_t c = 0; c < chunks; ++c)
    probs.push_back(integer_product(qx, qb, Sx, N, k, c * kSliceKChunk, kSliceKChunk, partial + c * N * Sx));
  LaunchResult r = launch_gemm(s.launch_config(), probs);
  trace.append(r.trace);
  // GpSimdE: the exact fold of every output (trn/blas/fp64_fold_device.hpp: the k-chunks as tiles of one
  // segment, the outputs j as columns), unless the chunks exceed one program (then the host folds).
  double* const acc = scratch<double>(kAcc, n);
  ScratchVector<std::int32_t> exps(static_cast<std::size_t>(n + 1));  // e_x, then e_j (exponent pass; traced)
  exps[0] = ex;
  for (std::int64_t j = 0; j < n; ++j) exps[static_cast<std::size_t>(j + 1)] = in.cb[static_cast<std::size_t>(j)].e_max;
  const std::vector<std::int64_t> chunk_rows(static_cast<std::size_t>(chunks), 0);
  const DeviceFoldArgs fa{.partial = partial, .tiles = chunks, .n = n, .rows = 1, .Sx = Sb, .Sa = Sx, .J = 1,
                          .seg_row = chunk_rows, .seg_stride = 1, .row_exp = exps.data(), .col_exp = exps.data() + 1,
                          .correctly_rounded = false, .out = acc,
                          .host_fold_ns = host_fold_ns(hardware_spec(s.target), static_cast<double>(chunks * N * Sx),
                                                       static_cast<double>(n), Sx + Sb - 1)};
  const bool on_device = fold_on_device(s.launch_config(), fa, trace).fits;
  plan.fold_on_device = on_device;
  // Host (fp64): the epilogue (and, without the device fold, the fold itself): one round trip.
  const HostSpan ys = HostSpan::matrix(y, 1, n, incy);
  const double nd = static_cast<double>(n);
  record_host_step(trace, HostStep{.name = "trnblas.dvec.fold",
                                   .flops = on_device ? 3.0 * nd
                                                      : static_cast<double>(chunks * N * Sx) + (5.0 * (Sx + Sb) + 3.0) * nd,
                                   .reads = {on_device ? HostSpan(acc, n) : HostSpan(partial, chunks * N * Sx),
                                             beta != 0.0 ? ys : HostSpan{}},
                                   .writes = {ys}});
  if (!s.timing_only) {
    for (std::int64_t j = 0; j < n && !on_device; ++j) {
      const int ej = in.cb[static_cast<std::size_t>(j)].e_max;
      acc[j] = ex == kNoExp || ej == kNoExp ? 0.0
                                            : fold_slice_pairs(partial + j * Sb * Sx, chunks, N * Sx, Sx, Sb,
                                                               ex + ej - 2 * kSliceBits);
    }
    finish_c(s, o, acc, alpha, beta, y, incy, trace);
  }
  finish_report(report, s, std::move(trace));
  fill_vector_report(report, plan);
}

// ---- scheme II driver ---------------------------------------------------------------------------

namespace {

// The per-call state of scheme II's steps after the scaling: scratch, the call's shape and settings.
struct CrtCall {
  const Settings& s;
  const Operands& o;
  const CrtTable& t;
  const ScaledInts& ints;
  std::int64_t chunks;
  std::uint16_t *res_a, *res_b;
  float* partial;
  std::uint8_t* y;  // y[l][i + j m] = C' mod p_l
  bool host;        // crt_steps_on_host
};

// The residues, fold and reconstruction run as host steps when asked (Settings::ozaki2_host_steps) or
// when the call is small (Settings::ozaki2_device_min_elements: the device launches' host cost).
bool crt_steps_on_host(const Settings& s, const Operands& o) {
  return s.ozaki2_host_steps || operand_elements(o) + static_cast<double>(o.m * o.n) <
                                    static_cast<double>(s.ozaki2_device_min_elements);
}

// Residues of both operands for the moduli l0 .. l0 + nl - 1: GpSimdE operators (ozaki_crt.hpp) or,
// with Settings::ozaki2_host_steps, the host loop (one round trip).
void crt_residues(const CrtCall& c, int l0, int nl, Trace& trace) {
  const Operands& o = c.o;
  const std::int64_t km = o.k * o.m, kn = o.k * o.n;
  if (!c.host) {
    const LaunchConfig lc = c.s.launch_config();
    residues_on_device(lc, c.t, c.ints.a.mant, c.ints.a.e, km, l0, nl, c.res_a, km, trace);
    residues_on_device(lc, c.t, c.ints.b.mant, c.ints.b.e, kn, l0, nl, c.res_b, kn, trace);
    return;
  }
  residues(c.ints.a, c.t, l0, nl, c.res_a, km);
  residues(c.ints.b, c.t, l0, nl, c.res_b, kn);
  record_host_step(trace, HostStep{.name = "trnblas.ozaki2.residues", .flops = 3.0 * nl * operand_elements(o),
                                   .writes = {HostSpan(c.res_a, nl * km), HostSpan(c.res_b, nl * kn)}});
}

// y_l = sum over chunks of P mod p_l for the group's moduli: a GpSimdE operator or the host loop.
void crt_fold(const CrtCall& c, int l0, int nl, Trace& trace) {
  const std::int64_t mn = c.o.m * c.o.n, partials = static_cast<std::int64_t>(nl) * c.chunks * mn;
  if (!c.host) return fold_on_device(c.s.launch_config(), c.partial, mn, c.chunks, l0, nl, c.y, trace);
  record_host_step(trace, HostStep{.name = "trnblas.ozaki2.fold", .flops = 3.0 * static_cast<double>(partials),
                                   .reads = {HostSpan(c.partial, partials)}});
  if (c.s.timing_only) return;
  for (int q = 0; q < nl; ++q) {  // integers < 2^53: exact
    const int l = l0 + q;
    const double p = kCrtModuli[l], inv_p = 1.0 / p;
    std::uint8_t* const yl = c.y + static_cast<std::int64_t>(l) * mn;
    for (std::int64_t ch = 0; ch < c.chunks; ++ch)
      fold_partial(c.partial + (static_cast<std::int64_t>(q) * c.chunks + ch) * mn, mn, p, inv_p, ch == 0, yl);
  }
}

// Host flops per output of the device path's epilogue: alpha acc + beta C (3) and the lost-term check
// (E_ij: 3 adds, 2 multiplies; the two scaled comparisons: 2), recompute_lost_outputs.
constexpr double kCrtEpilogueFlops = 3.0;
constexpr double kCrtLostTermCheckFlops = 7.0;

// C' from the residues, the inverse scaling, the lost-term check and the epilogue into C.
void crt_reconstruct(const CrtCall& c, const CrtScaling& sc, OzakiPlan& plan, double alpha, double beta, double* C,
                     std::int64_t ldc, const std::int32_t* neg_s, Trace& trace) {
  const Operands& o = c.o;
  const std::int64_t m = o.m, n = o.n;
  double* const acc = scratch<double>(kAcc, m * n);  // every element written below
  std::vector<const std::uint8_t*> yp(static_cast<std::size_t>(c.t.N));
  for (int l = 0; l < c.t.N; ++l) yp[static_cast<std::size_t>(l)] = c.y + static_cast<std::int64_t>(l) * m * n;
  const std::int32_t *neg_sa = neg_s, *neg_sb = neg_s + m;
  if (!c.host) reconstruct_on_device(c.s.launch_config(), c.t, c.y, m, n, neg_sa, neg_sb, acc, trace);
  if (!c.s.timing_only) {
    if (c.host)  // column by column, the inverse scaling with it
      for (std::int64_t j = 0; j < n; ++j)
        crt_reconstruct_block(c.t, yp.data(), m, j * m, neg_sa, neg_sb[j], acc + j * m);
    if (!plan.reduced) recompute_lost_outputs(o, sc, c.ints, acc, plan, trace);
    finish_c(c.s, o, acc, alpha, beta, C, ldc, trace);
  }
  if (c.host) return record_epilogue(trace, "trnblas.ozaki2.reconstruct", o, 2.0 * c.t.N * c.t.digits + 8.0, beta, C, ldc);
  // The results come back from HBM to the host for the epilogue (and C, when beta != 0).
  const HostSpan cs = HostSpan::matrix(C, m, n, ldc);
  const double per_output = kCrtEpilogueFlops + (plan.reduced ? 0.0 : kCrtLostTermCheckFlops);
  record_host_step(trace, HostStep{.name = "trnblas.ozaki2.epilogue", .flops = per_output * static_cast<double>(m * n),
                                   .reads = {HostSpan(acc, m * n), beta != 0.0 ? cs : HostSpan{}}, .writes = {cs}});
}

}  // namespace

void gemm_ozaki_crt(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
                    const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C,
                    std::int64_t ldc, CallReport* report) {
  const Operands o{ta, tb, A, lda, B, ldb, m, n, k};
  CrtScaling sc = crt_scaling(o);
  OzakiPlan plan = plan_crt(s, o, sc);
  const CrtTable& t = crt_table_memo(plan.moduli);
  sc.sa.resize(static_cast<std::size_t>(m));
  sc.sb.resize(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < m; ++i) sc.sa[static_cast<std::size_t>(i)] = line_shift(sc.ra[static_cast<std::size_t>(i)], t.H);
  for (std::int64_t j = 0; j < n; ++j) sc.sb[static_cast<std::size_t>(j)] = line_shift(sc.cb[static_cast<std::size_t>(j)], t.H);
  // The inverse scalings -s_i (rows of op(A)) then -t_j (columns of op(B)), one run; the device
  // reconstruction reads them as HBM: on the scratch stack (docs/cost-model.md section 2).
  ScratchVector<std::int32_t> neg_s(static_cast<std::size_t>(m + n));
  for (std::int64_t i = 0; i < m; ++i) neg_s[static_cast<std::size_t>(i)] = -sc.sa[static_cast<std::size_t>(i)];
  for (std::int64_t j = 0; j < n; ++j) neg_s[static_cast<std::size_t>(m + j)] = -sc.sb[static_cast<std::size_t>(j)];
  // Host (fp64): the scaled, rounded integers (exact doubles, |x| <= 2^H). The line norms and the sums
  // SA, SB of the lost-term check are fp64 arithmetic: they stay here (docs/trnblas.md).
  const ScaledInts ints = scaled_integers(o, sc);

  const std::int64_t chunks = plan.k_chunks;
  const std::int64_t per_launch = products_per_launch(chunks, m, n, kCrtScratchBudget);
  // Scratch written in full before it is read: no zero fill.
  const std::int64_t group = std::min<std::int64_t>(per_launch, plan.moduli);
  const CrtCall call{s, o, t, ints, chunks, scratch<std::uint16_t>(kResA, group * k * m),
                     scratch<std::uint16_t>(kResB, group * k * n), scratch<float>(kPartial, group * chunks * n * m),
                     scratch<std::uint8_t>(kResidueY, plan.moduli * m * n), crt_steps_on_host(s, o)};
  Trace trace;
  HostStep scale{.name = "trnblas.ozaki2.scale", .flops = 8.0 * operand_elements(o), .reads = {span_a(o), span_b(o)}};
  if (!call.host)  // the integers (fp64 words and exponent bytes) and the inverse scalings go to HBM
    scale.writes = {HostSpan(ints.a.mant, k * m), HostSpan(ints.b.mant, k * n), HostSpan(ints.a.e, k * (m + n)),
                    HostSpan(neg_s.data(), m + n)};
  record_host_step(trace, scale);
  for (int l0 = 0; l0 < plan.moduli; l0 += static_cast<int>(per_launch)) {
    const int nl = std::min(plan.moduli - l0, static_cast<int>(per_launch));
    crt_residues(call, l0, nl, trace);  // centred, as int8-valued bf16
    std::vector<BlockGemmArgs> probs;
    for (int q = 0; q < nl; ++q) {
      std::uint16_t* ra = call.res_a + static_cast<std::int64_t>(q) * k * m;
      std::uint16_t* rb = call.res_b + static_cast<std::int64_t>(q) * k * n;
      // Device: P[j][i] = sum_{k in chunk} ra[k][i] rb[k][j], exact in fp32 PSUM (chunks <= 1024).
      for (std::int64_t c = 0; c < chunks; ++c)
        probs.push_back(integer_product(ra, rb, m, n, k, c * kCrtKChunk, kCrtKChunk,
                                        call.partial + (static_cast<std::int64_t>(q) * chunks + c) * n * m));
    }
    LaunchResult r = launch_gemm(s.launch_config(), probs);
    trace.append(r.trace);
    crt_fold(call, l0, nl, trace);
  }
  crt_reconstruct(call, sc, plan, alpha, beta, C, ldc, neg_s.data(), trace);
  finish_report(report, s, std::move(trace));
  fill_report(report, plan);
}

}  // namespace detail

const char* fp64_vector_algorithm_name(Fp64VectorAlgorithm a) {
  switch (a) {
    case Fp64VectorAlgorithm::automatic: return "automatic";
    case Fp64VectorAlgorithm::slice_pairs: return "slice_pairs";
    case Fp64VectorAlgorithm::ozaki_gemm: return "ozaki_gemm";
  }
  return "?";
}

Fp64VectorPlan plan_fp64_vector(const Settings& s, std::int64_t n, std::int64_t k) {
  Fp64VectorPlan p;
  p.n = n;
  p.k = k;
  p.k_chunks = static_cast<int>((k + detail::kSliceKChunk - 1) / detail::kSliceKChunk);
  if (s.fp64_vector != Fp64VectorAlgorithm::automatic) {
    p.algorithm = s.fp64_vector;
    p.why = "forced by Settings::fp64_vector";
    return p;
  }
  p.algorithm = Fp64VectorAlgorithm::slice_pairs;
  p.why = "automatic: slice pairs at every size (fewer TensorE passes and host bytes than the Ozaki DGEMM on the "
          "cost model at every n measured, docs/trnblas.md)";
  return p;
}

std::string Fp64VectorPlan::print() const {
  PlanFacts f;
  f.routine = "fp64 level 1/2 product";
  f.shape = "x^T op(B), k=" + std::to_string(k) + ", n=" + std::to_string(n);
  f.variant = fp64_vector_algorithm_name(algorithm);
  if (algorithm == Fp64VectorAlgorithm::slice_pairs) {
    if (slices_x > 0)
      f.variant += " (" + std::to_string(slices_x) + " x " + std::to_string(slices_b) + " 8-bit slices" +
                   (capped ? ", capped" : "") + ")";
    f.ops = std::to_string(k_chunks) + " exact TensorE GEMM(s) of all slice pairs, one per <= 256-deep chunk";
    f.engines = std::string(fold_on_device ? "host (exponent pass, epilogue)" : "host (exponent pass, fold)") +
                ", DMA, GpSimdE / VectorE (slices; host loop beyond a 1022-binade line), TensorE" +
                (fold_on_device ? ", GpSimdE (the exact fold)" : "");
  } else {
    f.ops = "the Ozaki DGEMM 1 x n x k";
    f.engines = "host, DMA, TensorE";
  }
  f.why = why;
  return f.print();
}

int ozaki_crt_mantissa_bits(int moduli, std::int64_t k) {
  return detail::crt_bits(detail::crt_H(std::clamp(moduli, 2, kOzakiMaxModuli)), std::max<std::int64_t>(k, 1));
}

OzakiPlan plan_ozaki(const Settings& st, std::int64_t m, std::int64_t n, std::int64_t k, Op ta, Op tb, const double* A,
                     std::int64_t lda, const double* B, std::int64_t ldb) {
  const detail::Operands o{ta, tb, A, lda, B, ldb, m, n, k};
  if (st.ozaki_scheme == OzakiScheme::slices) return detail::plan_slices(st, o, detail::slice_inputs(o));
  return detail::plan_crt(st, o, detail::crt_scaling(o));
}

}  // namespace trn::blas
