// Validation and benchmark cases of trnsparse's generic API in every value type: SpMV and SpMM over
// CSR with fp32 (the TensorE BSR-block path), fp64, complex-fp32 and complex-fp64 values (the costed
// host step), against a long-double loop written here, as max |err| / bound with the bounds of
// docs/trnsparse.md "Generic API: value types" (fp32: 2 (k + 2) u32 (|alpha||A||B| + |beta||C|), as
// "Accuracy"; fp64: gamma_{k+2}; complex: sqrt(2) gamma_{k+4}, complex-fp32 plus u32 |y|). Also (issue
// #28's "every op, every value type"): SpMV / SpMM on COO and CSC, SpSV / SpSM on CSR, COO and SELL,
// CSR SpGEMM, SDDMM on CSR (every value type) and BSR (fp64 / complex), Blocked-ELL SpMM (fp32, fp16) and the sparse-vector operations Axpby,
// Gather, Scatter, Rot and SpVV; docs/trnsparse.md "Validate and bench coverage per operation".
#include <cmath>
#include <algorithm>
#include <complex>
#include <cstring>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "registry.hpp"
#include "sparse_columns.hpp"
#include "trn/core/dtype.hpp"
#include "trn/sparse/generic.hpp"
#include "trn/sparse/sell.hpp"
#include "trn/sparse/sparse.hpp"
#include "trn/sparse/spgemm_csr.hpp"
#include "trn/sparse/triangular.hpp"

namespace trnsci::cli {
namespace {

namespace sp = trn::sparse;
using cld = std::complex<long double>;

// A random n x n CSR with ~density of its entries stored (int32, base 0), values uniform in [-1, 1)
// (both parts for complex), stored as interleaved doubles/floats per `value`.
struct Csr {
  std::int64_t n = 0;
  sp::Value value = sp::Value::f64;
  std::vector<std::int32_t> off{0}, col;
  std::vector<cld> val;  // the exact stored values (after rounding to the value type)
  std::vector<unsigned char> raw;
  sp::SparseRef ref() {
    return {sp::SparseRef::Format::csr, n, n, static_cast<std::int64_t>(col.size()), off.data(), col.data(), raw.data(),
            sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, value};
  }
};


// Appends value x (rounded to the type) to a raw array and returns the rounded value.
cld put(std::vector<unsigned char>& raw, sp::Value v, cld x) {
  const std::size_t at = raw.size();
  raw.resize(at + sp::value_bytes(v));
  if (sp::value_is_single(v)) {
    const float p[2] = {static_cast<float>(x.real()), static_cast<float>(x.imag())};
    std::memcpy(raw.data() + at, p, sp::value_bytes(v));
    return {p[0], sp::value_is_complex(v) ? p[1] : 0.0f};
  }
  const double p[2] = {static_cast<double>(x.real()), static_cast<double>(x.imag())};
  std::memcpy(raw.data() + at, p, sp::value_bytes(v));
  return {p[0], sp::value_is_complex(v) ? p[1] : 0.0};
}
cld get(const std::vector<unsigned char>& raw, sp::Value v, std::int64_t i) {
  const std::size_t at = static_cast<std::size_t>(i) * sp::value_bytes(v);
  if (sp::value_is_single(v)) {
    float p[2] = {0, 0};
    std::memcpy(p, raw.data() + at, sp::value_bytes(v));
    return {p[0], p[1]};
  }
  double p[2] = {0, 0};
  std::memcpy(p, raw.data() + at, sp::value_bytes(v));
  return {p[0], p[1]};
}

cld draw(std::mt19937_64& g, sp::Value v) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  const double re = d(g);
  return {re, sp::value_is_complex(v) ? d(g) : 0.0};
}

// A random n x n CSR with ~density of its entries kept; lower: of the strict lower part, with every
// diagonal entry present and shifted to magnitude 2..3 (a well-conditioned triangle).
Csr make_random(std::int64_t n, double density, sp::Value v, std::uint64_t seed, bool lower) {
  Csr a;
  a.n = n;
  a.value = v;
  std::mt19937_64 g(seed);
  std::bernoulli_distribution keep(density);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < (lower ? i + 1 : n); ++j)
      if ((lower && j == i) || keep(g)) {
        const cld x = draw(g, v);
        a.col.push_back(static_cast<std::int32_t>(j));
        a.val.push_back(put(a.raw, v, lower && j == i ? x + cld(x.real() < 0 ? -2.0L : 2.0L) : x));
      }
    a.off.push_back(static_cast<std::int32_t>(a.col.size()));
  }
  return a;
}
Csr make_csr(std::int64_t n, double density, sp::Value v, std::uint64_t seed) {
  return make_random(n, density, v, seed, false);
}

// The pattern of make_random's family in O(nnz) (geometric gaps between kept columns) with values
// 0.5 / n (diagonal 1) and no exact copies (a.val empty): the bench's dense-crossover sweeps, whose
// modeled times depend on the pattern's sizes only.
Csr make_pattern(std::int64_t n, double density, sp::Value v, std::uint64_t seed, bool lower) {
  Csr a;
  a.n = n;
  a.value = v;
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double skip = density < 1 ? 1.0 / std::log1p(-density) : 0.0;  // gap = floor(log(U) / log(1 - d))
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t end = lower ? i : n;
    for (std::int64_t j = static_cast<std::int64_t>(std::log(1.0 - u(g)) * skip); j < end;
         j += 1 + static_cast<std::int64_t>(std::log(1.0 - u(g)) * skip)) {
      a.col.push_back(static_cast<std::int32_t>(j));
      put(a.raw, v, cld(0.5L / static_cast<long double>(n)));
    }
    if (lower) {
      a.col.push_back(static_cast<std::int32_t>(i));
      put(a.raw, v, cld(1.0L));
    }
    a.off.push_back(static_cast<std::int32_t>(a.col.size()));
  }
  return a;
}

long double bound_of(sp::Value v, std::int64_t k, long double mag, long double result) {
  const long double u32 = 0x1p-24L, u64 = 0x1p-53L;
  if (v == sp::Value::f32) return 2.0L * static_cast<long double>(k + 2) * u32 * mag;
  const long double kk = static_cast<long double>(k + (sp::value_is_complex(v) ? 4 : 2));
  long double b = kk * u64 / (1 - kk * u64) * mag * (sp::value_is_complex(v) ? std::sqrt(2.0L) : 1.0L);
  if (v == sp::Value::c32) b = b * (1 + u32) + u32 * result;
  return b;
}

// Complex-fp32 SpMV / SpMM on TensorE (the real 2x2 embedding, docs/trnsparse.md "Complex-fp32 on
// TensorE"): sqrt(2) gamma32_{2k+6} of the same magnitudes.
long double c32_engine_bound(std::int64_t k, long double mag) {
  const long double t = static_cast<long double>(2 * k + 6) * 0x1p-24L;
  return std::sqrt(2.0L) * t / (1 - t) * mag;
}
// ---- s10/spfp64: R_64F / C_64F products on TensorE through trnblas (docs/trnsparse.md "fp64 CSR,
// CSC, COO, SELL and SDDMM on TensorE"). SpMV, the fp64 GEMV's slice pairs, relative to the exact
// product p: 4.1 u (|alpha p| + |beta c|) real, 8 u complex; SpMM / SDDMM, the Ozaki GEMM of contraction
// length k (the row group's panel width; SDDMM K): q (2^-50 k max|a_i.| max|b_.j| |alpha| + 4 u scale),
// q = 1 real, 2 complex.
bool fp64_engine(sp::Value v) { return v == sp::Value::f64 || v == sp::Value::c64; }
long double fp64_vector_bound(sp::Value v, long double alpha_p, long double beta_c) {
  return (sp::value_is_complex(v) ? 8.0L : 4.1L) * 0x1p-53L * (alpha_p + beta_c);
}
long double fp64_ozaki_bound(sp::Value v, std::int64_t k, long double max_a, long double max_b, long double alpha,
                             long double scale) {
  return (sp::value_is_complex(v) ? 2.0L : 1.0L) *
         (0x1p-50L * static_cast<long double>(k) * max_a * max_b * alpha + 4 * 0x1p-53L * scale);
}
// The panel width of each row's group (128 consecutive rows): the distinct columns the group's rows meet.
std::vector<std::int64_t> group_widths(const std::vector<std::int32_t>& off, const std::vector<std::int32_t>& col) {
  const std::size_t rows = off.size() - 1;
  std::vector<std::int64_t> width(rows);
  for (std::size_t g0 = 0; g0 < rows; g0 += 128) {
    const std::size_t g1 = std::min(rows, g0 + 128);
    std::vector<std::int32_t> cols(col.begin() + off[g0], col.begin() + off[g1]);
    std::sort(cols.begin(), cols.end());
    const auto u = static_cast<std::int64_t>(std::unique(cols.begin(), cols.end()) - cols.begin());
    for (std::size_t i = g0; i < g1; ++i) width[i] = u;
  }
  return width;
}
// ---- end s10/spfp64 ----

// The product path a value type takes (C_32F on TensorE in every format, SELL through its gathered CSR).
bool c32_engine(sp::Value v) { return v == sp::Value::c32; }
// fp64 / complex-fp64 SpMV and SpMM with m <= 64 columns are the segmented slice-pair launch (s11/spseg, s12/spdev:
// sliced on the device); wider SpMM the row groups.
const char* path_mode(sp::Value v, std::int64_t m = 16) {
  if (fp64_engine(v) && m <= 64) return " (TensorE, segmented slice pairs)";
  return v == sp::Value::f32 ? " (TensorE blocks)" : v == sp::Value::c32 ? " (TensorE, 2x2 embedding)" : " (TensorE, trnblas row groups)";
}
const char* path_variant(sp::Value v, std::int64_t m = 16) {
  if (fp64_engine(v) && m <= 64) return ", TensorE segmented slice pairs";
  return v == sp::Value::f32 ? ", TensorE blocks" : v == sp::Value::c32 ? ", TensorE 2x2 embedding" : ", TensorE trnblas row groups";
}
std::string product_bound_text(sp::Value v, bool engine);  // the validate cases' bound text

struct Run {
  double max_ratio = 0;
  double host_seconds = 0;
  std::int64_t nnz = 0;
  trn::Profile profile;
  Csr a, b;  // the operands (issue #28's bench columns time Eigen on them)
};

// The same matrix as a Sliced-ELL of `slice` rows per slice (trn/sparse/sell.hpp): each row's entries
// in the slots of its slice (column-major in the slice), padding -1 with zero values.
struct Sell {
  std::vector<std::int32_t> off{0}, col;
  std::vector<unsigned char> raw;
  sp::SellView view;
};
Sell sell_of(const Csr& a, std::int64_t slice) {
  Sell s;
  const std::size_t vb = sp::value_bytes(a.value), S = static_cast<std::size_t>(slice);
  for (std::int64_t r0 = 0; r0 < a.n; r0 += slice) {
    std::int32_t width = 0;
    for (std::int64_t i = r0; i < std::min(a.n, r0 + slice); ++i)
      width = std::max(width, a.off[static_cast<std::size_t>(i) + 1] - a.off[static_cast<std::size_t>(i)]);
    const std::size_t at = s.col.size();
    s.col.resize(at + static_cast<std::size_t>(width) * S, -1);
    s.raw.resize(s.col.size() * vb, 0);
    for (std::int64_t i = r0; i < std::min(a.n, r0 + slice); ++i)
      for (std::int32_t e = a.off[static_cast<std::size_t>(i)]; e < a.off[static_cast<std::size_t>(i) + 1]; ++e) {
        const std::size_t slot = at + static_cast<std::size_t>(e - a.off[static_cast<std::size_t>(i)]) * S + static_cast<std::size_t>(i - r0);
        s.col[slot] = a.col[static_cast<std::size_t>(e)];
        std::memcpy(s.raw.data() + slot * vb, a.raw.data() + static_cast<std::size_t>(e) * vb, vb);
      }
    s.off.push_back(static_cast<std::int32_t>(s.col.size()));
  }
  s.view = {a.n, a.n, static_cast<std::int64_t>(a.col.size()), static_cast<std::int64_t>(s.col.size()), slice, s.off.data(),
            s.col.data(), s.raw.data(), sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, trn::DType::f32};
  return s;
}

// A's COO row indices, or its CSC (column offsets, row indices, values in column order), built here
// from its CSR by plain loops (a counting sort; rows increase within a column): the product's other
// formats (issue #28: SpMV / SpMM on COO and CSC per value type).
struct OtherFormat {
  std::vector<std::int32_t> off, idx;  // coo: the row of each entry; csc: column offsets, row indices
  std::vector<unsigned char> raw;      // csc: the values in column order
  sp::SparseRef ref;
};
OtherFormat other_format(Csr& a, sp::SparseRef::Format f) {
  OtherFormat o;
  const std::size_t vb = sp::value_bytes(a.value), nnz = a.col.size(), n = static_cast<std::size_t>(a.n);
  if (f == sp::SparseRef::Format::coo) {
    for (std::size_t i = 0; i < n; ++i) o.off.insert(o.off.end(), static_cast<std::size_t>(a.off[i + 1] - a.off[i]), static_cast<std::int32_t>(i));
    o.ref = {f, a.n, a.n, static_cast<std::int64_t>(nnz), o.off.data(), a.col.data(), a.raw.data(),
             sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, a.value};
    return o;
  }
  o.off.assign(n + 1, 0);
  for (std::int32_t c : a.col) ++o.off[static_cast<std::size_t>(c) + 1];
  for (std::size_t j = 0; j < n; ++j) o.off[j + 1] += o.off[j];
  std::vector<std::int32_t> next(o.off.begin(), o.off.end() - 1);
  o.idx.resize(nnz);
  o.raw.resize(nnz * vb);
  for (std::size_t i = 0; i < n; ++i)
    for (auto e = static_cast<std::size_t>(a.off[i]); e < static_cast<std::size_t>(a.off[i + 1]); ++e) {
      const auto at = static_cast<std::size_t>(next[static_cast<std::size_t>(a.col[e])]++);
      o.idx[at] = static_cast<std::int32_t>(i);
      std::memcpy(o.raw.data() + at * vb, a.raw.data() + e * vb, vb);
    }
  o.ref = {f, a.n, a.n, static_cast<std::int64_t>(nnz), o.off.data(), o.idx.data(), o.raw.data(),
           sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, a.value};
  return o;
}

// C = alpha A B + beta C, B n x m column-major (m = 1: SpMV through spmv), then the elementwise check.
// sell_slice > 0: A is given as a Sliced-ELL of that slice size (SpMV only).
// timing: the crossover sweep's run (make_pattern, timing-only tile kernels, no check).
// format: A given as CSR, or as the COO / CSC of other_format (the check always reads A's CSR).
// opA / opB (timing runs only: the check is op N's): op(A) op(B), op(B) T / C stored m x n (ld m).
Run product(std::int64_t n, std::int64_t m, double density, sp::Value v, trn::Generation target, std::int64_t sell_slice = 0,
            bool timing = false, sp::SparseRef::Format format = sp::SparseRef::Format::csr, sp::GOp opA = sp::GOp::N,
            sp::GOp opB = sp::GOp::N) {
  Csr a = timing ? make_pattern(n, density, v, 7, false) : make_csr(n, density, v, 7 + static_cast<std::uint64_t>(v));
  std::mt19937_64 g(99);
  std::vector<unsigned char> B, C;
  std::vector<cld> b, c0;
  for (std::int64_t i = 0; i < n * m; ++i) b.push_back(put(B, v, draw(g, v)));
  for (std::int64_t i = 0; i < n * m; ++i) c0.push_back(put(C, v, draw(g, v)));
  const cld alpha = sp::value_is_complex(v) ? cld(0.75L, -0.5L) : cld(0.75L), beta = sp::value_is_complex(v) ? cld(-0.25L, 0.125L) : cld(-0.25L);
  sp::Settings s;
  s.target = target;
  s.timing_only = timing;
  sp::CallReport rep;
  const Sell sell = sell_slice > 0 ? sell_of(a, sell_slice) : Sell{};
  OtherFormat other = format != sp::SparseRef::Format::csr ? other_format(a, format) : OtherFormat{};
  // op(B) T / C: B stored m x n (leading dimension m); the real types take C as T.
  const bool bt = opB != sp::GOp::N;
  const std::int64_t b_rows = bt ? m : n, b_cols = bt ? n : m;
  const auto real_op = [](sp::GOp o) { return o == sp::GOp::N ? sp::Op::N : sp::Op::T; };
  // The fp32 TensorE path on a CSR, COO or CSC view.
  auto fp32_product = [&](const auto& view) {
    if (m == 1 && !bt)
      sp::spmv(s, real_op(opA), 0.75f, view, B.data(), trn::DType::f32, -0.25f, C.data(), trn::DType::f32, &rep);
    else
      sp::spmm(s, real_op(opA), real_op(opB), 0.75f, view, {B.data(), trn::DType::f32, b_rows, b_cols, b_rows, sp::Layout::col_major},
               -0.25f, {C.data(), trn::DType::f32, n, m, n, sp::Layout::col_major}, &rep);
  };
  const double t0 = now_seconds();
  if (format == sp::SparseRef::Format::coo && v == sp::Value::f32) {
    fp32_product(sp::CooView{n, n, static_cast<std::int64_t>(a.col.size()), other.off.data(), a.col.data(), a.raw.data(),
                             sp::IndexType::i32, sp::IndexBase::zero, trn::DType::f32});
  } else if (format == sp::SparseRef::Format::csc && v == sp::Value::f32) {
    fp32_product(sp::CscView{n, n, static_cast<std::int64_t>(a.col.size()), other.off.data(), other.idx.data(), other.raw.data(),
                             sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, trn::DType::f32});
  } else if (sell_slice > 0 && v == sp::Value::f32) {
    sp::spmv(s, sp::Op::N, 0.75f, sell.view, B.data(), trn::DType::f32, -0.25f, C.data(), trn::DType::f32, &rep);
  } else if (sell_slice > 0) {
    sp::spmv_host(s, sp::GOp::N, sp::Scalar(static_cast<double>(alpha.real()), static_cast<double>(alpha.imag())), sell.view, v,
                  B.data(), sp::Scalar(static_cast<double>(beta.real()), static_cast<double>(beta.imag())), C.data(), &rep);
  } else if (v == sp::Value::f32) {
    fp32_product(sp::CsrView{n, n, static_cast<std::int64_t>(a.col.size()), a.off.data(), a.col.data(), a.raw.data(),
                             sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, trn::DType::f32});
  } else {
    const sp::Scalar al(static_cast<double>(alpha.real()), static_cast<double>(alpha.imag()));
    const sp::Scalar be(static_cast<double>(beta.real()), static_cast<double>(beta.imag()));
    const sp::SparseRef A = format == sp::SparseRef::Format::csr ? a.ref() : other.ref;
    if (v == sp::Value::c32)  // TensorE through the real embedding (SpMV: the n = 1 product)
      sp::spmm_c32(s, opA, opB, al, A, {B.data(), v, b_rows, b_cols, b_rows, sp::Layout::col_major}, be,
                   {C.data(), v, n, m, n, sp::Layout::col_major}, &rep);
    else if (m == 1 && !bt)
      sp::spmv_host(s, opA, al, A, B.data(), be, C.data(), &rep);
    else
      sp::spmm_host(s, opA, opB, al, A, {B.data(), v, b_rows, b_cols, b_rows, sp::Layout::col_major}, be,
                    {C.data(), v, n, m, n, sp::Layout::col_major}, &rep);
  }
  Run r;
  r.host_seconds = seconds_since(t0);
  r.nnz = static_cast<std::int64_t>(a.col.size());
  r.profile = rep.profile;
  if (timing) return r;
  const std::vector<std::int64_t> width = group_widths(a.off, a.col);  // s10/spfp64: the row groups' panels
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t k = a.off[static_cast<std::size_t>(i) + 1] - a.off[static_cast<std::size_t>(i)];
    for (std::int64_t c = 0; c < m; ++c) {
      cld acc = 0;
      long double mag = 0, max_a = 0, max_b = 0;
      for (std::int32_t e = a.off[static_cast<std::size_t>(i)]; e < a.off[static_cast<std::size_t>(i) + 1]; ++e) {
        const cld bv = b[static_cast<std::size_t>(a.col[static_cast<std::size_t>(e)] + c * n)];
        acc += a.val[static_cast<std::size_t>(e)] * bv;
        mag += std::abs(a.val[static_cast<std::size_t>(e)]) * std::abs(bv);
        max_a = std::max(max_a, std::abs(a.val[static_cast<std::size_t>(e)]));
      }
      for (std::int64_t j = 0; j < n && fp64_engine(v) && m > 1; ++j)  // the gathered column's largest (<= all of it)
        max_b = std::max(max_b, std::abs(b[static_cast<std::size_t>(j + c * n)]));
      const std::size_t ci = static_cast<std::size_t>(i + c * n);
      const cld want = alpha * acc + beta * c0[ci];
      const long double err = std::abs(get(C, v, static_cast<std::int64_t>(ci)) - want);
      const long double scale = std::abs(alpha) * mag + std::abs(beta) * std::abs(c0[ci]);
      const long double bnd =
          c32_engine(v)    ? c32_engine_bound(k, scale)
          : !fp64_engine(v) ? bound_of(v, k, scale, std::abs(want))
          : m == 1          ? fp64_vector_bound(v, std::abs(alpha) * std::abs(acc), std::abs(beta) * std::abs(c0[ci]))
                            : fp64_ozaki_bound(v, width[static_cast<std::size_t>(i)], max_a, max_b, std::abs(alpha), scale);
      r.max_ratio = std::max(r.max_ratio, static_cast<double>(err / std::max(bnd, 1e-300L)));
    }
  }
  r.a = std::move(a);
  return r;
}

// A validation result from a Run (bound 1 on max |err| / bound) and a bench result with its flops.
CaseResult case_of(const Run& run, const std::string& note) { return ratio_case(run, note); }
BenchResult bench_of(const Run& run, double flops) {
  BenchResult b;
  b.error = run.max_ratio;
  b.error_metric = "max_err_over_bound";
  b.host_seconds = run.host_seconds;
  b.flops = flops;
  b.device = DeviceCost::from(run.profile);
  return b;
}

const char* type_name(sp::Value v) { return sp::value_name(v); }

// Issue #28's bench columns (Eigen's time, the dense crossover) of a row; defined at the end of the file.
enum class Kind { product, triangular, spgemm };
BenchResult with_columns(BenchResult b, const Run& run, Kind kind, std::int64_t n, std::int64_t m, double density, sp::Value v,
                         trn::Generation target, sp::SparseRef::Format format = sp::SparseRef::Format::csr,
                         std::int64_t sell_slice = 0);

void add_sparse_generic(Registry& reg) {
  const sp::Value types[] = {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64};
  for (sp::Value v : types)
    for (std::int64_t m : {std::int64_t{1}, std::int64_t{16}}) {
      const std::string op = m == 1 ? "spmv_csr" : "spmm_csr";
      reg.add(ValidationCase{
          .suite = "sparse", .library = "trnsparse", .op = op,
          .mode = std::string(type_name(v)) + path_mode(v, m),
          .shape = m == 1 ? "1000x1000, 1%" : "1000x1000 x 1000x16, 1%", .metric = "max_err_over_bound",
          .bound_text = product_bound_text(v, true),
          .run = [v, m] {
            const Run run = product(1000, m, 0.01, v, trn::Generation::trn1);
            return case_of(run, "max |err| / bound vs a long-double loop; nnz " + std::to_string(run.nnz));
          }});
    }
  for (sp::Value v : types)
    reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = "spmv_csr",
                      .variant = std::string(type_name(v)) + path_variant(v, 1),
                      .shape = "4096x4096, 0.5%",
                      .run = [v](trn::Generation target) {
                        const Run run = product(4096, 1, 0.005, v, target);
                        return with_columns(bench_of(run, (sp::value_is_complex(v) ? 8.0 : 2.0) * static_cast<double>(run.nnz)), run,
                                            Kind::product, 4096, 1, 0.005, v, target);
                      }});
}

// Sliced-ELL SpMV (issue #28, fourth slice): the same matrices and bounds as spmv_csr, A given as SELL.
void add_sparse_sell(Registry& reg) {
  const sp::Value types[] = {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64};
  for (sp::Value v : types)
    reg.add(ValidationCase{
        .suite = "sparse", .library = "trnsparse", .op = "spmv_sell",
        .mode = std::string(type_name(v)) + " (gathered, " + (path_mode(v, 1) + 2),
        .shape = "1000x1000, 1%, slice 32", .metric = "max_err_over_bound",
        .bound_text = v == sp::Value::f32 ? "2 (k+2) u32 (|a||A||x| + |b||y|)" : product_bound_text(v, true),
        .run = [v] {
          const Run run = product(1000, 1, 0.01, v, trn::Generation::trn1, 32);
          return case_of(run, "max |err| / bound vs a long-double loop; nnz " + std::to_string(run.nnz));
        }});
  for (sp::Value v : types)
    reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = "spmv_sell",
                      .variant = std::string(type_name(v)) + path_variant(v, 1),
                      .shape = "4096x4096, 0.5%, slice 32",
                      .run = [v](trn::Generation target) {
                        const Run run = product(4096, 1, 0.005, v, target, 32);
                        return with_columns(bench_of(run, (sp::value_is_complex(v) ? 8.0 : 2.0) * static_cast<double>(run.nnz)), run,
                                            Kind::product, 4096, 1, 0.005, v, target, sp::SparseRef::Format::csr, 32);
                      }});
}

const Registrar kRegistrar(add_sparse_generic);
const Registrar kRegistrarSell(add_sparse_sell);

// ---- SpSV / SpSM and CSR SpGEMM (docs/trnsparse.md "Sparse triangular solves", "SpGEMM on CSR") ----

// The substitution's bound for a row of k stored entries (diagonal included) (docs/trnsparse.md
// "Sparse triangular solves"): R_32F / C_32F run on the engines in fp32, gamma_{k+2} (complex
// sqrt(2) gamma_{k+5}; the C_32F blocked schedule's 4M sums sqrt(2) gamma_{max(2k, 5)}, so complex
// takes the larger) in u = 2^-24 times w = M(L)^-1 (|L||y_hat| + |alpha b|); R_64F / C_64F the
// segmented slice-pair levels, c u times w64 = M(L)^-1 |D||y_hat| (c = 3.1, complex 7.7).
long double triangular_bound(sp::Value v, std::int64_t k, long double w, long double w64) {
  if (!sp::value_is_single(v)) return (sp::value_is_complex(v) ? 7.7L : 3.1L) * 0x1p-53L * w64;
  const bool cplx = sp::value_is_complex(v);
  const long double u32 = 0x1p-24L, kk = static_cast<long double>(cplx ? std::max<std::int64_t>(k + 5, 2 * k) : k + 2);
  return kk * u32 / (1 - kk * u32) * w * (cplx ? std::sqrt(2.0L) : 1.0L);
}
const char* triangular_path(sp::Value v) {
  if (v == sp::Value::f32 || v == sp::Value::c32) return "engines, 128-row blocks (level sets where fewer steps)";  // blocked_preferred
  return sp::value_is_single(v) ? "engines, level sets" : "engines, level sets of segmented slice pairs";
}

// A random lower-triangular n x n CSR (make_random's lower form).
Csr make_lower(std::int64_t n, double density, sp::Value v, std::uint64_t seed) {
  return make_random(n, density, v, seed, true);
}

// L Y = alpha B (m columns) through analysis + solve; max |err| / bound with the bound
// gamma M(L)^-1 (|L||y_hat| + |alpha b|) (+ u32 |y|) of docs/trnsparse.md.
// format: L given as CSR, or as the COO of other_format (same entry order, so the same values array);
// sell_slice > 0: L given as a Sliced-ELL of that slice (sell_of; the analysis reads its slots).
// op (timing runs only: the check is op N's): op(L) Y = alpha B (the analysis takes op(L); B is op N).
Run triangular(std::int64_t n, std::int64_t m, double density, sp::Value v, trn::Generation target, bool timing = false,
               sp::SparseRef::Format format = sp::SparseRef::Format::csr, std::int64_t sell_slice = 0, sp::GOp op = sp::GOp::N) {
  Csr a = timing ? make_pattern(n, density, v, 21, true) : make_lower(n, density, v, 21 + static_cast<std::uint64_t>(v));
  OtherFormat other = format != sp::SparseRef::Format::csr ? other_format(a, format) : OtherFormat{};
  const Sell sell = sell_slice > 0 ? sell_of(a, sell_slice) : Sell{};
  std::mt19937_64 g(5);
  std::vector<unsigned char> B, Y(static_cast<std::size_t>(n * m) * sp::value_bytes(v));
  std::vector<cld> b;
  for (std::int64_t i = 0; i < n * m; ++i) b.push_back(put(B, v, draw(g, v)));
  const cld alpha = sp::value_is_complex(v) ? cld(0.75L, -0.5L) : cld(0.75L);
  sp::Settings s;
  s.target = target;
  s.timing_only = timing;
  sp::CallReport rep;
  const double t0 = now_seconds();
  const sp::TriangularAnalysis t =
      sell_slice > 0 ? sp::analyze_triangular(sell.view, v, true, false, op)
                     : sp::analyze_triangular(format == sp::SparseRef::Format::csr ? a.ref() : other.ref, true, false, op);
  sp::triangular_solve(s, t, sell_slice > 0 ? sell.raw.data() : a.raw.data(), nullptr, {static_cast<double>(alpha.real()), static_cast<double>(alpha.imag())},
                       sp::GOp::N, {B.data(), v, n, m, n, sp::Layout::col_major}, {Y.data(), v, n, m, n, sp::Layout::col_major},
                       &rep);
  Run r;
  r.host_seconds = seconds_since(t0);
  r.nnz = static_cast<std::int64_t>(a.col.size());
  r.profile = rep.profile;
  if (timing) return r;
  for (std::int64_t c = 0; c < m; ++c) {
    std::vector<cld> y(static_cast<std::size_t>(n));
    std::vector<long double> w(static_cast<std::size_t>(n)), w64(static_cast<std::size_t>(n));  // M(L)^-1 (|L||y_hat| + |alpha b|), M(L)^-1 |D||y_hat|
    for (std::int64_t i = 0; i < n; ++i) {
      const std::size_t at = static_cast<std::size_t>(i + c * n), last = static_cast<std::size_t>(a.off[static_cast<std::size_t>(i) + 1] - 1);
      cld acc = alpha * b[at];
      long double mag = std::abs(acc), mag64 = 0;
      for (std::size_t e = static_cast<std::size_t>(a.off[static_cast<std::size_t>(i)]); e < last; ++e) {
        const auto j = static_cast<std::size_t>(a.col[e]);
        acc -= a.val[e] * y[j];
        mag += std::abs(a.val[e]) * (std::abs(get(Y, v, static_cast<std::int64_t>(j + static_cast<std::size_t>(c * n)))) + w[j]);
        mag64 += std::abs(a.val[e]) * w64[j];
      }
      const cld got = get(Y, v, static_cast<std::int64_t>(at));
      y[static_cast<std::size_t>(i)] = acc / a.val[last];
      w[static_cast<std::size_t>(i)] = (mag + std::abs(a.val[last]) * std::abs(got)) / std::abs(a.val[last]);
      w64[static_cast<std::size_t>(i)] = (mag64 + std::abs(a.val[last]) * std::abs(got)) / std::abs(a.val[last]);
      const long double k = static_cast<long double>(last) + 1 - a.off[static_cast<std::size_t>(i)];
      const long double bnd = triangular_bound(v, static_cast<std::int64_t>(k), w[static_cast<std::size_t>(i)], w64[static_cast<std::size_t>(i)]);
      r.max_ratio = std::max(r.max_ratio, static_cast<double>(std::abs(got - y[static_cast<std::size_t>(i)]) / std::max(bnd, 1e-300L)));
    }
  }
  r.a = std::move(a);
  return r;
}

// C = alpha A B + beta C (C on the product's pattern), A and B n x n at `density`.
Run spgemm_run(std::int64_t n, double density, sp::Value v, trn::Generation target, bool timing = false) {
  Csr a = timing ? make_pattern(n, density, v, 31, false) : make_csr(n, density, v, 31 + static_cast<std::uint64_t>(v));
  Csr b = timing ? make_pattern(n, density, v, 41, false) : make_csr(n, density, v, 41 + static_cast<std::uint64_t>(v));
  const cld alpha = sp::value_is_complex(v) ? cld(0.75L, -0.5L) : cld(0.75L), beta = sp::value_is_complex(v) ? cld(-0.25L, 0.125L) : cld(-0.25L);
  sp::Settings s;
  s.target = target;
  s.timing_only = timing;
  sp::CallReport rep, copy_rep;
  const double t0 = now_seconds();
  sp::CsrProduct p = sp::spgemm_csr_symbolic(a.ref(), b.ref());
  sp::spgemm_csr_numeric(s, a.ref(), b.ref(), p, &rep);
  std::vector<std::int32_t> off(static_cast<std::size_t>(n) + 1), col(static_cast<std::size_t>(p.nnz()));
  // Drawing C's input values (and their long-double copy for the check) is the row's set-up, not
  // the product: the clock stops for it (issue #30: it was ~as long as the product itself).
  const double t_draw = now_seconds();
  std::vector<unsigned char> C;
  std::vector<cld> c0;
  C.reserve(static_cast<std::size_t>(p.nnz()) * sp::value_bytes(v));
  c0.reserve(static_cast<std::size_t>(p.nnz()));
  std::mt19937_64 g(3);
  for (std::int64_t e = 0; e < p.nnz(); ++e) c0.push_back(put(C, v, draw(g, v)));
  const double set_up = now_seconds() - t_draw;
  const sp::SparseRef out{sp::SparseRef::Format::csr, n, n, p.nnz(), off.data(), col.data(), C.data(),
                          sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, v};
  sp::spgemm_csr_store_pattern(p, out);
  sp::spgemm_csr_store_values(s, p, {static_cast<double>(alpha.real()), static_cast<double>(alpha.imag())},
                              {static_cast<double>(beta.real()), static_cast<double>(beta.imag())}, out, &copy_rep);
  Run r;
  r.host_seconds = seconds_since(t0) - set_up;
  r.nnz = p.products;
  r.profile = rep.profile;
  trn::append_sequential(r.profile, copy_rep.profile);
  if (timing) return r;
  std::vector<cld> acc(static_cast<std::size_t>(n));
  std::vector<long double> mag(static_cast<std::size_t>(n));
  std::vector<std::int64_t> k(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int32_t ea = a.off[static_cast<std::size_t>(i)]; ea < a.off[static_cast<std::size_t>(i) + 1]; ++ea) {
      const auto kk = static_cast<std::size_t>(a.col[static_cast<std::size_t>(ea)]);
      for (std::int32_t eb = b.off[kk]; eb < b.off[kk + 1]; ++eb) {
        const auto j = static_cast<std::size_t>(b.col[static_cast<std::size_t>(eb)]);
        acc[j] += a.val[static_cast<std::size_t>(ea)] * b.val[static_cast<std::size_t>(eb)];
        mag[j] += std::abs(a.val[static_cast<std::size_t>(ea)]) * std::abs(b.val[static_cast<std::size_t>(eb)]);
        ++k[j];
      }
    }
    for (std::int32_t e = off[static_cast<std::size_t>(i)]; e < off[static_cast<std::size_t>(i) + 1]; ++e) {
      const auto j = static_cast<std::size_t>(col[static_cast<std::size_t>(e)]);
      const cld want = alpha * acc[j] + beta * c0[static_cast<std::size_t>(e)];
      const long double bnd = spgemm_bound(v, k[j], std::abs(alpha) * mag[j] + std::abs(beta) * std::abs(c0[static_cast<std::size_t>(e)]),
                                           std::abs(alpha) * std::abs(acc[j]) + std::abs(beta) * std::abs(c0[static_cast<std::size_t>(e)]));
      r.max_ratio = std::max(r.max_ratio, static_cast<double>(std::abs(get(C, v, e) - want) / std::max(bnd, 1e-300L)));
      acc[j] = 0;
      mag[j] = 0;
      k[j] = 0;
    }
  }
  r.a = std::move(a);
  r.b = std::move(b);
  return r;
}

void add_sparse_solve(Registry& reg) {
  const sp::Value types[] = {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64};
  const std::string tri_bound = "32-bit: gamma M(L)^-1 (|L||y| + |alpha b|), gamma_{k+2} (complex sqrt(2) gamma_{max(k+5, 2k)}) in u32; 64-bit: c u M(L)^-1 |D||y|, c = 3.1 (complex 7.7)";
  for (sp::Value v : types) {
    for (std::int64_t m : {std::int64_t{1}, std::int64_t{8}})
      reg.add(ValidationCase{
          .suite = "sparse", .library = "trnsparse", .op = m == 1 ? "spsv_csr" : "spsm_csr",
          .mode = std::string(type_name(v)) + " (" + triangular_path(v) + ")",
          .shape = m == 1 ? "2000x2000 lower, 0.5%" : "2000x2000 lower, 0.5% x 8 rhs", .metric = "max_err_over_bound",
          .bound_text = tri_bound,
          .run = [v, m] {
            const Run run = triangular(2000, m, 0.005, v, trn::Generation::trn1);
            return case_of(run, "max |err| / bound vs a long-double substitution; nnz " + std::to_string(run.nnz));
          }});
    reg.add(ValidationCase{
        .suite = "sparse", .library = "trnsparse", .op = "spgemm_csr", .mode = std::string(type_name(v)) + " (" + spgemm_path(v) + ")",
        .shape = "1000x1000 x 1000x1000, 1%", .metric = "max_err_over_bound",
        .bound_text = "32-bit gamma_{k+2} (|a||A||B| + |b||C|) in u32 (complex sqrt(2) gamma_{k+5}); 64-bit 4.1 u (|a||AB| + |b||C|)",
        .run = [v] {
          const Run run = spgemm_run(1000, 0.01, v, trn::Generation::trn1);
          return case_of(run, "max |err| / bound vs a long-double Gustavson loop; products " + std::to_string(run.nnz));
        }});
  }
  for (sp::Value v : types) {
    for (std::int64_t m : {std::int64_t{1}, std::int64_t{16}})
      reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = m == 1 ? "spsv_csr" : "spsm_csr",
                        .variant = std::string(type_name(v)) + ", " + triangular_path(v), .shape = m == 1 ? "4096 lower, 0.5%" : "4096 lower, 0.5% x 16",
                        .run = [v, m](trn::Generation target) {
                          const Run run = triangular(4096, m, 0.005, v, target);
                          return with_columns(bench_of(run, (sp::value_is_complex(v) ? 8.0 : 2.0) * static_cast<double>(run.nnz * m)), run,
                                              Kind::triangular, 4096, m, 0.005, v, target);
                        }});
    reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = "spgemm_csr",
                      .variant = std::string(type_name(v)) + ", " + spgemm_path(v), .shape = "2048^2 x 2048^2, 0.5%",
                      .run = [v](trn::Generation target) {
                        const Run run = spgemm_run(2048, 0.005, v, target);
                        return with_columns(bench_of(run, (sp::value_is_complex(v) ? 8.0 : 2.0) * static_cast<double>(run.nnz)), run,
                                            Kind::spgemm, 2048, 2048, 0.005, v, target);
                      }});
  }
}

const Registrar kSolveRegistrar(add_sparse_solve);

// ---- issue #28: Eigen and the dense crossover in the bench rows (tools/cli/sparse_columns.hpp) -----

CsrArrays arrays_of(const Csr& a) {
  return {a.n, a.n, static_cast<std::int64_t>(a.col.size()), a.off.data(), a.col.data(), a.raw.data(), a.value};
}

// The row's Eigen time on its own operands, and (every value type) the crossover of its sparse path's
// modeled time, re-run at other densities of the same random family, against the dense path's.
BenchResult with_columns(BenchResult b, const Run& run, Kind kind, std::int64_t n, std::int64_t m, double density, sp::Value v,
                         trn::Generation target, sp::SparseRef::Format format, std::int64_t sell_slice) {
  b.native_name = "Eigen sparse";
  b.native_seconds = kind == Kind::product      ? eigen_spmm_seconds(arrays_of(run.a), m)
                     : kind == Kind::triangular ? eigen_spsv_seconds(arrays_of(run.a), m)
                                                : eigen_spgemm_seconds(arrays_of(run.a), arrays_of(run.b));
  const int t = v == sp::Value::f32 ? 0 : v == sp::Value::f64 ? 1 : v == sp::Value::c32 ? 2 : 3;
  const char* const trsm_name[] = {"strsm fp32 ", "dtrsm Ozaki ", "ctrsm fp32 ", "ztrsm Ozaki "};
  const std::string what = kind == Kind::triangular ? trsm_name[t] + std::to_string(n) + " x " + std::to_string(m)
                                                    : dense_gemm_name(v, n, m, n);
  const double dense = kind == Kind::triangular ? dense_trsm_ns(target, v, n, m) : dense_gemm_ns(target, v, n, m, n);
  // Memory and host time cap the sweep: 0.5 (8.4 M entries at n = 4096); SpGEMM's products grow as
  // density^2, 0.125 caps a run at n^3 / 64 (1.3e8 at n = 2048).
  const double hi = kind == Kind::spgemm ? 0.125 : 0.5;
  set_crossover(b, what, dense, density, run.profile.total_ns, 1.0 / static_cast<double>(n * n), hi, [&](double d) {
    const Run r = kind == Kind::product      ? product(n, m, d, v, target, sell_slice, true, format)
                  : kind == Kind::triangular ? triangular(n, m, d, v, target, true, format, sell_slice)
                                             : spgemm_run(n, d, v, target, true);
    return r.profile.total_ns;
  });
  return b;
}

}  // namespace

double sparse_sweep_ns(SparseSweep kind, std::int64_t n, std::int64_t m, double density, sp::Value v, trn::Generation target,
                       sp::GOp opA, sp::GOp opB) {
  const Run r = kind == SparseSweep::product      ? product(n, m, density, v, target, 0, true, sp::SparseRef::Format::csr, opA, opB)
                : kind == SparseSweep::triangular ? triangular(n, m, density, v, target, true, sp::SparseRef::Format::csr, 0, opA)
                                                  : spgemm_run(n, density, v, target, true);
  return r.profile.total_ns;
}

namespace {

// SpMM over CSR (issue #28's bench rows name SpMM): 16 columns, the spmm_csr validation's paths.
void add_sparse_spmm_bench(Registry& reg) {
  for (sp::Value v : {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64})
    reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = "spmm_csr",
                      .variant = std::string(type_name(v)) + path_variant(v),
                      .shape = "4096^2 x 4096x16, 0.5%",
                      .run = [v](trn::Generation target) {
                        const Run run = product(4096, 16, 0.005, v, target);
                        return with_columns(bench_of(run, (sp::value_is_complex(v) ? 8.0 : 2.0) * 16.0 * static_cast<double>(run.nnz)), run,
                                            Kind::product, 4096, 16, 0.005, v, target);
                      }});
}
const Registrar kSpmmBenchRegistrar(add_sparse_spmm_bench);

// ---- issue #28 acceptance ("every op: a validate case per value type and a bench row"), s7/spval ----
// SpMV / SpMM on COO and CSC, SDDMM on a CSR pattern, and the sparse-vector operations Axpby, Gather,
// Scatter, Rot and SpVV, in every value type the operation takes (docs/trnsparse.md "Validate and
// bench coverage of the generic API").

const sp::SparseRef::Format kOtherFormats[] = {sp::SparseRef::Format::coo, sp::SparseRef::Format::csc};
const char* format_name(sp::SparseRef::Format f) { return f == sp::SparseRef::Format::coo ? "coo" : "csc"; }
// engine: the SpMV / SpMM paths (C_32F on TensorE); false: SDDMM (C_32F the host step).
std::string product_bound_text(sp::Value v, bool engine) {
  if (v == sp::Value::c32 && engine) return "sqrt(2) gamma32_{2k+6} (|a||A||B| + |b||C|)";
  if (fp64_engine(v) && engine)  // SpMV: the segmented slice pairs (s11/spseg); SpMM / SDDMM state the looser normwise Ozaki bound (still valid)
    return std::string("SpMV ") + (v == sp::Value::c64 ? "8" : "4.1") + " u (|a (Ax)_i| + |b y_i|); SpMM / SDDMM " +
           (v == sp::Value::c64 ? "2 " : "") + "(2^-50 k max|a_i.| max|b_.j| |a| + 4 u (|a||A||B| + |b||C|))";
  return v == sp::Value::f32 ? "2 (k+2) u32 (|a||A||B| + |b||C|)"
         : sp::value_is_complex(v) ? "sqrt(2) gamma_{k+4} (|a||A||B| + |b||C|)" + std::string(v == sp::Value::c32 ? " + u32 |y|" : "")
                                   : "gamma_{k+2} (|a||A||B| + |b||C|)";
}

void add_sparse_other_formats(Registry& reg) {
  for (sp::SparseRef::Format f : kOtherFormats)
    for (sp::Value v : {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64}) {
      for (std::int64_t m : {std::int64_t{1}, std::int64_t{16}}) {
        const std::string path = path_mode(v, m);
        const std::string op = std::string(m == 1 ? "spmv_" : "spmm_") + format_name(f);
        reg.add(ValidationCase{
            .suite = "sparse", .library = "trnsparse", .op = op, .mode = std::string(type_name(v)) + path,
            .shape = m == 1 ? "1000x1000, 1%" : "1000x1000 x 1000x16, 1%", .metric = "max_err_over_bound",
            .bound_text = product_bound_text(v, true),
            .run = [v, m, f] {
              const Run run = product(1000, m, 0.01, v, trn::Generation::trn1, 0, false, f);
              return case_of(run, "max |err| / bound vs a long-double loop over the CSR it was built from; nnz " +
                                      std::to_string(run.nnz));
            }});
        reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = op,
                          .variant = std::string(type_name(v)) + path_variant(v, m),
                          .shape = m == 1 ? "4096x4096, 0.5%" : "4096^2 x 4096x16, 0.5%",
                          .run = [v, m, f](trn::Generation target) {
                            const Run run = product(4096, m, 0.005, v, target, 0, false, f);
                            const double flops = (sp::value_is_complex(v) ? 8.0 : 2.0) * static_cast<double>(m * run.nnz);
                            return with_columns(bench_of(run, flops), run, Kind::product, 4096, m, 0.005, v, target, f);
                          }});
      }
    }
}
const Registrar kOtherFormatsRegistrar(add_sparse_other_formats);

// SpSV / SpSM with L given as COO or as a Sliced-ELL of slice 32 (cuSPARSE's SpSV / SpSM take CSR,
// COO and SELL): the spsv_csr cases' matrices, bound and long-double substitution.
void add_sparse_solve_coo(Registry& reg) {
  const std::string tri_bound = "32-bit: gamma M(L)^-1 (|L||y| + |alpha b|), gamma_{k+2} (complex sqrt(2) gamma_{max(k+5, 2k)}) in u32; 64-bit: c u M(L)^-1 |D||y|, c = 3.1 (complex 7.7)";
  constexpr auto coo = sp::SparseRef::Format::coo, csr = sp::SparseRef::Format::csr;
  for (const std::int64_t slice : {std::int64_t{0}, std::int64_t{32}})
    for (sp::Value v : {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64})
      for (std::int64_t m : {std::int64_t{1}, std::int64_t{8}}) {
        const std::string op = std::string(m == 1 ? "spsv_" : "spsm_") + (slice > 0 ? "sell" : "coo");
        reg.add(ValidationCase{
            .suite = "sparse", .library = "trnsparse", .op = op,
            .mode = std::string(type_name(v)) + " (" + triangular_path(v) + ")",
            .shape = std::string(m == 1 ? "2000x2000 lower, 0.5%" : "2000x2000 lower, 0.5% x 8 rhs") + (slice > 0 ? ", slice 32" : ""),
            .metric = "max_err_over_bound", .bound_text = tri_bound,
            .run = [v, m, slice] {
              const Run run = triangular(2000, m, 0.005, v, trn::Generation::trn1, false, slice > 0 ? csr : coo, slice);
              return case_of(run, "max |err| / bound vs a long-double substitution; nnz " + std::to_string(run.nnz));
            }});
        reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = op, .variant = std::string(type_name(v)) + ", " + triangular_path(v),
                          .shape = std::string(m == 1 ? "4096 lower, 0.5%" : "4096 lower, 0.5% x 16") + (slice > 0 ? ", slice 32" : ""),
                          .run = [v, m, slice](trn::Generation target) {
                            const std::int64_t rhs = m == 1 ? 1 : 16;
                            const auto f = slice > 0 ? csr : coo;
                            const Run run = triangular(4096, rhs, 0.005, v, target, false, f, slice);
                            return with_columns(bench_of(run, (sp::value_is_complex(v) ? 8.0 : 2.0) * static_cast<double>(run.nnz * rhs)),
                                                run, Kind::triangular, 4096, rhs, 0.005, v, target, f, slice);
                          }});
      }
}
const Registrar kSolveCooRegistrar(add_sparse_solve_coo);

// SDDMM: C = alpha (A B) o spy(C) + beta C, A n x k and B k x n column-major, on a CSR pattern
// (make_csr / make_pattern) or a BSR pattern of block x block blocks (the block pattern of make_csr
// over n / block block rows, row-major blocks), in every value type cuSPARSE's SDDMM takes: fp32 on
// the TensorE tiles (sparse.hpp), fp64 / complex on TensorE (generic.hpp sddmm_host -> sddmm_fp64: one segmented slice-pair SpMV, s12/spdev).
// The bound of docs/trnsparse.md on every stored entry — fp32 2 (k+2) u32 (|alpha| sum |A_il||B_lj|
// + |beta||c_ij|), fp64 gamma_{k+2}, complex sqrt(2) gamma_{k+4} (+ u32 |c| for C_32F) of the same
// magnitudes — against a long-double loop.
struct SddmmPattern {
  Csr c;                        // CSR pattern, or the block pattern (block > 0)
  std::int64_t block = 0;
  std::vector<unsigned char> raw;  // the values: nnz, or bnnz * block^2 (row-major blocks)
  std::int64_t stored() const { return static_cast<std::int64_t>(raw.size() / sp::value_bytes(c.value)); }
};
SddmmPattern sddmm_pattern(std::int64_t n, double density, sp::Value v, bool timing, std::int64_t block) {
  SddmmPattern p;
  p.block = block;
  const std::int64_t rows = block > 0 ? n / block : n;
  p.c = timing ? make_pattern(rows, density, v, 61, false) : make_csr(rows, density, v, 61);
  if (block == 0) {
    p.raw = p.c.raw;
    return p;
  }
  std::mt19937_64 g(23);
  for (std::size_t e = 0; e < p.c.col.size() * static_cast<std::size_t>(block * block); ++e) put(p.raw, v, draw(g, v));
  return p;
}

// (i, j) of value slot e of the pattern.
std::pair<std::int64_t, std::int64_t> sddmm_entry(const SddmmPattern& p, std::int64_t I, std::int64_t e) {
  if (p.block == 0) return {I, p.c.col[static_cast<std::size_t>(e)]};
  const std::int64_t b = e / (p.block * p.block), r = e % (p.block * p.block) / p.block, c = e % p.block;
  return {I * p.block + r, std::int64_t{p.c.col[static_cast<std::size_t>(b)]} * p.block + c};
}

void sddmm_call(const sp::Settings& s, sp::Value v, std::int64_t n, std::int64_t k, std::vector<unsigned char>& A,
                std::vector<unsigned char>& B, SddmmPattern& p, sp::CallReport* rep) {
  const auto nnz = static_cast<std::int64_t>(p.c.col.size());
  if (v == sp::Value::f32 && p.block == 0) {
    sp::sddmm(s, sp::Op::N, sp::Op::N, 0.75f, {A.data(), trn::DType::f32, n, k, n, sp::Layout::col_major},
              {B.data(), trn::DType::f32, k, n, k, sp::Layout::col_major}, -0.25f,
              sp::CsrView{n, n, nnz, p.c.off.data(), p.c.col.data(), p.raw.data(), sp::IndexType::i32, sp::IndexType::i32,
                          sp::IndexBase::zero, trn::DType::f32},
              rep);
    return;
  }
  const sp::DenseAny a{A.data(), v, n, k, n, sp::Layout::col_major}, b{B.data(), v, k, n, k, sp::Layout::col_major};
  if (p.block == 0) {
    sp::SparseRef c = p.c.ref();
    c.values = p.raw.data();
    if (v == sp::Value::c32)  // TensorE (the C API's path): the column-interleaved real form
      sp::sddmm_c32(s, sp::GOp::N, sp::GOp::N, 0.75, a, b, -0.25, c, rep);
    else
      sp::sddmm_host(s, sp::GOp::N, sp::GOp::N, 0.75, a, b, -0.25, c, rep);
    return;
  }
  const std::int64_t nb = n / p.block;
  const sp::BsrView c{nb, nb, nnz, p.block, p.block, p.c.off.data(), p.c.col.data(), p.raw.data(), sp::IndexType::i32,
                      sp::IndexType::i32, sp::IndexBase::zero, trn::DType::f32, sp::BlockOrder::row};
  if (v == sp::Value::f32)
    sp::sddmm(s, sp::Op::N, sp::Op::N, 0.75f, {A.data(), trn::DType::f32, n, k, n, sp::Layout::col_major},
              {B.data(), trn::DType::f32, k, n, k, sp::Layout::col_major}, -0.25f, c, rep);
  else if (v == sp::Value::c32)
    sp::sddmm_c32(s, sp::GOp::N, sp::GOp::N, 0.75, a, b, -0.25, c, rep);
  else
    sp::sddmm_host(s, sp::GOp::N, sp::GOp::N, 0.75, a, b, -0.25, c, v, rep);
}

Run sddmm_run(std::int64_t n, std::int64_t k, double density, trn::Generation target, bool timing = false,
              sp::Value v = sp::Value::f32, std::int64_t block = 0) {
  SddmmPattern p = sddmm_pattern(n, density, v, timing, block);
  std::mt19937_64 g(17);
  std::vector<unsigned char> A, B;
  std::vector<cld> a, b;
  for (std::int64_t i = 0; i < n * k; ++i) a.push_back(put(A, v, draw(g, v)));
  for (std::int64_t i = 0; i < k * n; ++i) b.push_back(put(B, v, draw(g, v)));
  const std::vector<unsigned char> c0 = p.raw;
  sp::Settings s;
  s.target = target;
  s.timing_only = timing;
  sp::CallReport rep;
  const double t0 = now_seconds();
  sddmm_call(s, v, n, k, A, B, p, &rep);
  Run r;
  r.host_seconds = seconds_since(t0);
  r.nnz = p.stored();
  r.profile = rep.profile;
  if (timing) return r;
  const std::int64_t per = block > 0 ? block * block : 1;
  for (std::int64_t I = 0; I < static_cast<std::int64_t>(p.c.off.size()) - 1; ++I)
    for (std::int64_t e = p.c.off[static_cast<std::size_t>(I)] * per; e < p.c.off[static_cast<std::size_t>(I) + 1] * per; ++e) {
      const auto [i, j] = sddmm_entry(p, I, e);
      cld acc = 0;
      long double mag = 0, max_a = 0, max_b = 0;
      for (std::int64_t l = 0; l < k; ++l) {
        const cld x = a[static_cast<std::size_t>(i + l * n)] * b[static_cast<std::size_t>(l + j * k)];
        acc += x;
        mag += std::abs(x);
        max_a = std::max(max_a, std::abs(a[static_cast<std::size_t>(i + l * n)]));
        max_b = std::max(max_b, std::abs(b[static_cast<std::size_t>(l + j * k)]));
      }
      const cld old = get(c0, v, e), want = 0.75L * acc - 0.25L * old;
      const long double scale = 0.75L * mag + 0.25L * std::abs(old);
      const long double bnd = c32_engine(v)    ? c32_engine_bound(k, scale)
                              : fp64_engine(v) ? fp64_ozaki_bound(v, k, max_a, max_b, 0.75L, scale)  // s10/spfp64
                                               : bound_of(v, k, scale, std::abs(want));
      r.max_ratio = std::max(r.max_ratio, static_cast<double>(std::abs(get(p.raw, v, e) - want) / std::max(bnd, 1e-300L)));
    }
  return r;
}

// The stored entries of an SDDMM pattern as a CSR (n x n; block patterns expanded entry by entry,
// rows in order), for Eigen's row of the bench.
struct EntryCsr {
  std::vector<std::int32_t> off{0}, col;
  std::vector<unsigned char> raw;
  CsrArrays arrays;
};
EntryCsr entry_csr(const SddmmPattern& p, std::int64_t n) {
  EntryCsr e;
  const std::int64_t bk = std::max<std::int64_t>(p.block, 1);
  for (std::int64_t i = 0; i < n; ++i) {
    const auto I = static_cast<std::size_t>(i / bk);
    for (std::int32_t k = p.c.off[I]; k < p.c.off[I + 1]; ++k)
      for (std::int64_t c = 0; c < bk; ++c) e.col.push_back(static_cast<std::int32_t>(p.c.col[static_cast<std::size_t>(k)] * bk + c));
    e.off.push_back(static_cast<std::int32_t>(e.col.size()));
  }
  e.raw.assign(e.col.size() * sp::value_bytes(p.c.value), 0);
  e.arrays = {n, n, static_cast<std::int64_t>(e.col.size()), e.off.data(), e.col.data(), e.raw.data(), p.c.value};
  return e;
}

void add_sparse_sddmm_csr(Registry& reg) {
  reg.add(ValidationCase{.suite = "sparse", .library = "trnsparse", .op = "sddmm_csr", .mode = "R_32F (TensorE tiles)",
                         .shape = "512x512 pattern 2%, k=64", .metric = "max_err_over_bound",
                         .bound_text = "2 (k+2) u32 (|a||A||B| + |b||C|) on stored entries",
                         .run = [] {
                           const Run run = sddmm_run(512, 64, 0.02, trn::Generation::trn1);
                           return case_of(run, "max |err| / bound vs a long-double loop; nnz " + std::to_string(run.nnz));
                         }});
  reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = "sddmm_csr", .variant = "R_32F, TensorE tiles",
                    .shape = "1024x1024 pattern 0.5%, k=64", .run = [](trn::Generation target) {
                      const Run run = sddmm_run(1024, 64, 0.005, target);
                      BenchResult b = bench_of(run, 2.0 * 64.0 * static_cast<double>(run.nnz));
                      b.native_name = "Eigen (dense dots)";  // s11/spconv
                      const EntryCsr entries = entry_csr(sddmm_pattern(1024, 0.005, sp::Value::f32, false, 0), 1024);
                      b.native_seconds = eigen_sddmm_seconds(entries.arrays, 64);
                      // The dense path: the full product A B (sgemm fp32 1024 x 1024 x 64); the sparse path wins below.
                      set_crossover(b, "sgemm fp32 1024x1024x64", dense_gemm_ns(target, sp::Value::f32, 1024, 1024, 64), 0.005,
                                    run.profile.total_ns, 1.0 / (1024.0 * 1024.0), 0.5,
                                    [&](double d) { return sddmm_run(1024, 64, d, target, true).profile.total_ns; });
                      return b;
                    }});
  // fp64 / complex (issue #28): CSR and BSR (4 x 4 blocks) patterns on TensorE (one segmented slice-pair SpMV over the
  // stored entries' dot products, s12/spdev; its per-entry bound is tighter than the Ozaki one stated); fp32 BSR of
  // 4 x 4 blocks on the TensorE tiles (suite_sparse.cpp's sddmm_bsr128 validates 128-blocks only).
  for (sp::Value v : {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64})
    for (const std::int64_t block : {std::int64_t{0}, std::int64_t{4}}) {
      if (v == sp::Value::f32 && block == 0) continue;  // the R_32F CSR rows above
      const std::string op = block == 0 ? "sddmm_csr" : "sddmm_bsr";
      const std::string path = v == sp::Value::f32   ? "TensorE tiles"
                               : v == sp::Value::c32 ? "TensorE, interleaved form"
                                                     : "TensorE, segmented slice pairs";
      reg.add(ValidationCase{
          .suite = "sparse", .library = "trnsparse", .op = op, .mode = std::string(type_name(v)) + " (" + path + ")",
          .shape = block == 0 ? "512x512 pattern 2%, k=64" : "512x512 pattern of 4x4 blocks 2%, k=64", .metric = "max_err_over_bound",
          .bound_text = product_bound_text(v, true) + " on stored entries, k = K",
          .run = [v, block] {
            const Run run = sddmm_run(512, 64, 0.02, trn::Generation::trn1, false, v, block);
            return case_of(run, "max |err| / bound vs a long-double loop; stored " + std::to_string(run.nnz));
          }});
      reg.add(BenchCase{
          .suite = "sparse", .library = "trnsparse", .op = op, .variant = std::string(type_name(v)) + ", " + path,
          .shape = block == 0 ? "1024x1024 pattern 0.5%, k=64" : "1024x1024 pattern of 4x4 blocks 0.5%, k=64",
          .run = [v, block](trn::Generation target) {
            const Run run = sddmm_run(1024, 64, 0.005, target, false, v, block);
            BenchResult b = bench_of(run, (sp::value_is_complex(v) ? 8.0 : 2.0) * 64.0 * static_cast<double>(run.nnz));
            b.native_name = "Eigen (dense dots)";  // s11/spconv: on the row's stored entries (blocks expanded)
            const EntryCsr entries = entry_csr(sddmm_pattern(1024, 0.005, v, false, block), 1024);
            b.native_seconds = eigen_sddmm_seconds(entries.arrays, 64);
            // The dense path: the full product A B on TensorE (sgemm fp32, Ozaki dgemm, or the 4M real GEMM of cgemm / zgemm).
            set_crossover(b, std::string(type_name(v)) + " gemm 1024x1024x64", dense_gemm_ns(target, v, 1024, 1024, 64), 0.005,
                          run.profile.total_ns, 1.0 / (1024.0 * 1024.0), 0.5,
                          [&](double d) { return sddmm_run(1024, 64, d, target, true, v, block).profile.total_ns; });
            return b;
          }});
    }
}
const Registrar kSddmmCsrRegistrar(add_sparse_sddmm_csr);

// SpMM on a Blocked-ELL A (16-bit and fp32 values here; C_32F / R_64F / C_64F Blocked-ELL run the
// BSR paths of suite_sparse_block_wide.cpp): n x n in block x block blocks, `slots` distinct random block columns per
// block row (block row 1 has its last slot empty, -1), A, B and C of one dtype (f32, or f16 with
// fp32 compute as NVIDIA's spmm_blockedell sample), C = 0.75 A B - 0.25 C, B n x m column-major.
// Bound: "Accuracy"'s 2 (k+2) u32 (|a||A||B| + |b||C|), k = the row's stored slots x block, plus
// u16 |C| for an fp16 C (its one rounding, "fp16 Blocked-ELL" below), against a long-double loop.
// timing: recorded, not computed, no check (the dense-crossover sweep).
Run bell_run(trn::DType dt, std::int64_t n, std::int64_t block, std::int64_t slots, std::int64_t m, trn::Generation target,
             bool timing = false) {
  const std::int64_t nb = n / block, ell = slots * block;
  const bool half = dt == trn::DType::f16;
  std::mt19937_64 g(81);
  std::vector<std::int32_t> col_ind;
  for (std::int64_t I = 0; I < nb; ++I) {
    std::vector<std::int32_t> all(static_cast<std::size_t>(nb));
    for (std::int64_t J = 0; J < nb; ++J) all[static_cast<std::size_t>(J)] = static_cast<std::int32_t>(J);
    std::shuffle(all.begin(), all.end(), g);
    for (std::int64_t s = 0; s < slots; ++s) col_ind.push_back(I == 1 && s == slots - 1 ? -1 : all[static_cast<std::size_t>(s)]);
  }
  // Values as stored (fp16 bits or fp32) and their exact float values.
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  auto fill = [&](std::int64_t count, std::vector<float>& exact, std::vector<std::uint16_t>& h) {
    for (std::int64_t i = 0; i < count; ++i) {
      float x = u(g);
      if (half) {
        h.push_back(trn::f32_to_f16_rne(x));
        x = trn::f16_to_f32(h.back());
      }
      exact.push_back(x);
    }
  };
  std::vector<float> a, b, c;
  std::vector<std::uint16_t> ah, bh, ch;
  fill(n * ell, a, ah);
  fill(n * m, b, bh);
  fill(n * m, c, ch);
  const std::vector<float> c0 = c;
  auto data = [&](std::vector<float>& f, std::vector<std::uint16_t>& h) -> void* { return half ? static_cast<void*>(h.data()) : f.data(); };
  sp::Settings s;
  s.target = target;
  s.timing_only = timing;
  sp::CallReport rep;
  const double t0 = now_seconds();
  sp::spmm(s, sp::Op::N, sp::Op::N, 0.75f,
           sp::BlockedEllView{n, n, block, ell, col_ind.data(), data(a, ah), sp::IndexType::i32, sp::IndexBase::zero, dt},
           {data(b, bh), dt, n, m, n, sp::Layout::col_major}, -0.25f, {data(c, ch), dt, n, m, n, sp::Layout::col_major}, &rep);
  Run r;
  r.host_seconds = seconds_since(t0);
  r.profile = rep.profile;
  if (timing) return r;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t I = i / block;
    for (std::int64_t j = 0; j < m; ++j) {
      long double acc = 0, mag = 0;
      std::int64_t k = 0;
      for (std::int64_t sl = 0; sl < slots; ++sl) {
        const std::int32_t J = col_ind[static_cast<std::size_t>(I * slots + sl)];
        if (J < 0) continue;
        k += block;
        for (std::int64_t q = 0; q < block; ++q) {
          const long double p = static_cast<long double>(a[static_cast<std::size_t>(i * ell + sl * block + q)]) *
                                b[static_cast<std::size_t>(J * block + q + j * n)];
          acc += p;
          mag += std::fabs(p);
        }
      }
      const std::size_t at = static_cast<std::size_t>(i + j * n);
      const long double want = 0.75L * acc - 0.25L * c0[at];
      const long double got = half ? trn::f16_to_f32(ch[at]) : c[at];
      const long double bnd = bound_of(sp::Value::f32, k, 0.75L * mag + 0.25L * std::fabs(c0[at]), 0) +
                              (half ? 0x1p-11L * std::fabs(got) : 0.0L);
      r.nnz = std::max(r.nnz, k);
      r.max_ratio = std::max(r.max_ratio, static_cast<double>(std::fabs(got - want) / std::max(bnd, 1e-300L)));
    }
  }
  return r;
}

void add_sparse_bell(Registry& reg) {
  for (trn::DType dt : {trn::DType::f32, trn::DType::f16}) {
    const std::string mode = dt == trn::DType::f32 ? "R_32F (TensorE blocks)" : "R_16F, compute R_32F (TensorE blocks)";
    reg.add(ValidationCase{.suite = "sparse", .library = "trnsparse", .op = "spmm_blockedell", .mode = mode,
                           .shape = "512x512, 32-blocks, 4 slots x 16", .metric = "max_err_over_bound",
                           .bound_text = std::string("2 (k+2) u32 (|a||A||B| + |b||C|)") + (dt == trn::DType::f16 ? " + u16 |C|" : ""),
                           .run = [dt] {
                             const Run run = bell_run(dt, 512, 32, 4, 16, trn::Generation::trn1);
                             return case_of(run, "max |err| / bound vs a long-double loop; k <= " + std::to_string(run.nnz));
                           }});
    reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = "spmm_blockedell",
                      .variant = mode, .shape = "2048x2048, 64-blocks, 4 slots x 64",
                      .run = [dt](trn::Generation target) {
                        const Run run = bell_run(dt, 2048, 64, 4, 64, target);
                        BenchResult b = bench_of(run, 2.0 * 64.0 * 2048.0 * 4.0 * 64.0);
                        // Issue #28's crossover column: density = slots / 32 block columns (4 slots: 0.125), the
                        // sweep rounds d to a whole slot count in [1, 32]; the dense path is sgemm fp32 2048 x 64 x
                        // 2048 for both rows (the fp16 row computes in fp32 on TensorE too).
                        set_gemm_crossover(b, target, sp::Value::f32, 2048, 64, 2048, 4.0 / 32.0, run.profile.total_ns, 1.0 / 32.0,
                                           1.0, [dt, target](double d) {
                                             const auto slots = std::clamp<std::int64_t>(std::llround(d * 32.0), 1, 32);
                                             return bell_run(dt, 2048, 64, slots, 64, target, true).profile.total_ns;
                                           });
                        return b;
                      }});
  }
}
const Registrar kBellRegistrar(add_sparse_bell);

// A sparse vector of `size` elements with ~density of the positions stored (distinct, increasing),
// its values x and a dense y, all of value type v.
struct SpVecData {
  std::int64_t size = 0;
  sp::Value value = sp::Value::f32;
  std::vector<std::int32_t> idx;
  std::vector<unsigned char> xraw, yraw;
  std::vector<cld> x, y;  // the exact stored values
  sp::SpVecRef ref() {
    return {size, static_cast<std::int64_t>(idx.size()), idx.data(), xraw.data(), sp::IndexType::i32, sp::IndexBase::zero, value};
  }
};
SpVecData make_spvec(std::int64_t size, double density, sp::Value v, std::uint64_t seed) {
  SpVecData d;
  d.size = size;
  d.value = v;
  std::mt19937_64 g(seed);
  std::bernoulli_distribution keep(density);
  for (std::int64_t i = 0; i < size; ++i) {
    d.y.push_back(put(d.yraw, v, draw(g, v)));
    if (keep(g)) {
      d.idx.push_back(static_cast<std::int32_t>(i));
      d.x.push_back(put(d.xraw, v, draw(g, v)));
    }
  }
  return d;
}

enum class VecOp { axpby, gather, scatter, rot, spvv };
const char* vec_op_name(VecOp op) {
  const char* const names[] = {"axpby", "gather", "scatter", "rot", "spvv"};
  return names[static_cast<int>(op)];
}

// The moves (gather, scatter) are exact: max_ratio = the number of elements whose bits differ (x for
// gather, all of y for scatter). The arithmetic ones: max |err| / bound over every output element,
// the bounds of docs/trnsparse.md.
// R_32F / C_32F Axpby, Rot and SpVV run on the engines in fp32 (trnsparse/src/spvec_engine.cpp):
// gamma_k (complex sqrt(2) gamma_{k+1}) in u = 2^-24 on the same magnitudes, k = 2 for Axpby and
// Rot, nnz + 1 for SpVV.
long double engine_vec_bound(sp::Value v, std::int64_t k, long double mag) {
  const bool cx = sp::value_is_complex(v);
  const long double u = 0x1p-24L, kk = static_cast<long double>(k + (cx ? 1 : 0));
  return kk * u / (1 - kk * u) * mag * (cx ? std::sqrt(2.0L) : 1.0L);
}

// R_64F / C_64F Axpby, Rot and SpVV on the engines (trnsparse/src/spvec_fp64.cpp): every output (each
// part of a complex one) the exact value rounded once, |err| <= u |exact| (u = 2^-53), plus the
// long-double reference's own k + 2 roundings (2^-64) of the magnitudes.
long double fp64_vec_bound(long double exact, std::int64_t k, long double mag) {
  return 0x1p-53L * exact + static_cast<long double>(k + 2) * 0x1p-64L * mag;
}

Run vector_run(VecOp op, std::int64_t size, double density, sp::Value v, trn::Generation target) {
  SpVecData d = make_spvec(size, density, v, 71 + static_cast<std::uint64_t>(v));
  const bool cx = sp::value_is_complex(v);
  const cld alpha = cx ? cld(0.75L, -0.5L) : cld(0.75L), beta = cx ? cld(-0.25L, 0.125L) : cld(-0.25L);
  // Exact in fp32 (the engines' R_32F / C_32F path takes them in the value type, as the C API loads them).
  const cld c = cx ? cld(0.625L, 0.25L) : cld(0.625L), sn = cx ? cld(-0.5L, 0.375L) : cld(0.75L);
  auto scalar = [](cld z) { return sp::Scalar(static_cast<double>(z.real()), static_cast<double>(z.imag())); };
  sp::Settings s;
  s.target = target;
  sp::CallReport rep;
  sp::Scalar dot;
  const std::vector<unsigned char> y0 = d.yraw;
  std::vector<unsigned char> gathered(d.xraw.size(), 0xCD);
  const double t0 = now_seconds();
  switch (op) {
    case VecOp::axpby: sp::axpby(s, scalar(alpha), d.ref(), scalar(beta), d.yraw.data(), &rep); break;
    case VecOp::gather: {
      sp::SpVecRef x = d.ref();
      x.values = gathered.data();
      sp::gather(s, d.yraw.data(), x, &rep);
      break;
    }
    case VecOp::scatter: sp::scatter(s, d.ref(), d.yraw.data(), &rep); break;
    case VecOp::rot: sp::rot(s, scalar(c), scalar(sn), d.ref(), d.yraw.data(), &rep); break;
    case VecOp::spvv: dot = sp::spvv(s, cx ? sp::GOp::C : sp::GOp::N, d.ref(), d.yraw.data(), &rep); break;
  }
  Run r;
  r.host_seconds = seconds_since(t0);
  r.nnz = static_cast<std::int64_t>(d.idx.size());
  r.profile = rep.profile;
  const std::size_t vb = sp::value_bytes(v);
  auto ratio = [&](cld got, cld want, long double bnd) {
    r.max_ratio = std::max(r.max_ratio, static_cast<double>(std::abs(got - want) / std::max(bnd, 1e-300L)));
  };
  std::vector<cld> want_y = d.y;  // the expected y (scatter, axpby, rot)
  switch (op) {
    case VecOp::gather:
      for (std::size_t e = 0; e < d.idx.size(); ++e)
        r.max_ratio += std::memcmp(gathered.data() + e * vb, y0.data() + static_cast<std::size_t>(d.idx[e]) * vb, vb) != 0;
      return r;
    case VecOp::scatter:
      for (std::size_t i = 0; i < static_cast<std::size_t>(size); ++i) {
        const auto hit = std::lower_bound(d.idx.begin(), d.idx.end(), static_cast<std::int32_t>(i));
        const unsigned char* want = hit != d.idx.end() && *hit == static_cast<std::int32_t>(i)
                                        ? d.xraw.data() + static_cast<std::size_t>(hit - d.idx.begin()) * vb
                                        : y0.data() + i * vb;
        r.max_ratio += std::memcmp(d.yraw.data() + i * vb, want, vb) != 0;
      }
      return r;
    case VecOp::spvv: {
      cld sum = 0;
      long double mag = 0;
      for (std::size_t e = 0; e < d.idx.size(); ++e) {
        const cld p = (cx ? std::conj(d.x[e]) : d.x[e]) * d.y[static_cast<std::size_t>(d.idx[e])];
        sum += p;
        mag += std::abs(p);
      }
      ratio(cld(dot.real(), dot.imag()), sum,
            sp::value_is_single(v) ? engine_vec_bound(v, r.nnz + 1, mag) : fp64_vec_bound(std::abs(sum), r.nnz, mag));
      return r;
    }
    case VecOp::axpby: {
      std::vector<long double> mag(static_cast<std::size_t>(size));
      for (std::size_t i = 0; i < want_y.size(); ++i) {
        want_y[i] = beta * d.y[i];
        mag[i] = std::abs(beta) * std::abs(d.y[i]);
      }
      for (std::size_t e = 0; e < d.idx.size(); ++e) {
        const auto i = static_cast<std::size_t>(d.idx[e]);
        want_y[i] += alpha * d.x[e];
        mag[i] += std::abs(alpha) * std::abs(d.x[e]);
      }
      for (std::size_t i = 0; i < want_y.size(); ++i)
        ratio(get(d.yraw, v, static_cast<std::int64_t>(i)), want_y[i],
              sp::value_is_single(v) ? engine_vec_bound(v, 2, mag[i]) : fp64_vec_bound(std::abs(want_y[i]), 2, mag[i]));
      return r;
    }
    case VecOp::rot:
      for (std::size_t e = 0; e < d.idx.size(); ++e) {
        const auto i = static_cast<std::size_t>(d.idx[e]);
        const cld xv = d.x[e], yv = d.y[i], xw = c * xv + sn * yv, yw = c * yv - sn * xv;
        const long double mx = std::abs(c) * std::abs(xv) + std::abs(sn) * std::abs(yv);
        const long double my = std::abs(c) * std::abs(yv) + std::abs(sn) * std::abs(xv);
        const bool eng = sp::value_is_single(v);
        ratio(get(d.xraw, v, static_cast<std::int64_t>(e)), xw, eng ? engine_vec_bound(v, 2, mx) : fp64_vec_bound(std::abs(xw), 2, mx));
        ratio(get(d.yraw, v, static_cast<std::int64_t>(i)), yw, eng ? engine_vec_bound(v, 2, my) : fp64_vec_bound(std::abs(yw), 2, my));
      }
      // y outside x's positions must be untouched.
      for (std::size_t i = 0; i < static_cast<std::size_t>(size); ++i)
        if (!std::binary_search(d.idx.begin(), d.idx.end(), static_cast<std::int32_t>(i)))
          r.max_ratio += std::memcmp(d.yraw.data() + i * vb, y0.data() + i * vb, vb) != 0 ? 1e30 : 0.0;
      return r;
  }
  return r;
}

void add_sparse_vectors(Registry& reg) {
  for (VecOp op : {VecOp::axpby, VecOp::gather, VecOp::scatter, VecOp::rot, VecOp::spvv})
    for (sp::Value v : {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64}) {
      const bool moves = op == VecOp::gather || op == VecOp::scatter;
      const bool eng = sp::value_is_single(v);  // R_32F / C_32F arithmetic on the engines (fp32, u = 2^-24)
      constexpr const char* kRoundedOnce = "u |exact| (correctly rounded, each part; + the long-double reference's rounding)";
      const char* bound = op == VecOp::axpby ? (eng ? "fp32 gamma_2 (|a||x| + |b||y|) (complex sqrt(2) gamma_3)" : kRoundedOnce)
                          : op == VecOp::rot ? (eng ? "fp32 gamma_2 (|c||x| + |s||y|) (complex sqrt(2) gamma_3)" : kRoundedOnce)
                          : op == VecOp::spvv ? (eng ? "fp32 gamma_{k+1} sum |x||y| (complex sqrt(2) gamma_{k+2})" : kRoundedOnce)
                                              : "0 mismatches (values moved, never combined)";
      const char* path = moves ? "DMA moves" : eng ? "engines" : "engines, slice pairs";
      reg.add(ValidationCase{
          .suite = "sparse", .library = "trnsparse", .op = vec_op_name(op),
          .mode = std::string(type_name(v)) + " (" + path + ")", .shape = "size 20000, 5%",
          .metric = moves ? "bit_exact" : "max_err_over_bound", .bound_text = bound,
          .run = [op, v, moves] {
            const Run run = vector_run(op, 20000, 0.05, v, trn::Generation::trn1);
            const std::string note = (moves ? "elements differing from a plain loop's; nnz " : "max |err| / bound vs a long-double loop; nnz ") +
                                     std::to_string(run.nnz);
            return moves ? exact_result(run.max_ratio, note, run.host_seconds) : case_of(run, note);
          }});
      reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = vec_op_name(op),
                        .variant = std::string(type_name(v)) + ", " + path, .shape = "size 2^20, 1%",
                        .run = [op, v, moves](trn::Generation target) {
                          const Run run = vector_run(op, std::int64_t{1} << 20, 0.01, v, target);
                          const double per = op == VecOp::rot ? (sp::value_is_complex(v) ? 16.0 : 6.0) : (sp::value_is_complex(v) ? 8.0 : 2.0);
                          BenchResult b = bench_of(run, moves ? 0.0 : per * static_cast<double>(run.nnz));
                          if (moves) b.error_metric = "mismatches";  // DMA moves: modeled, no flops
                          return b;
                        }});
    }
}
const Registrar kVectorRegistrar(add_sparse_vectors);

}  // namespace

// SpGEMM on the engines (trn/sparse/spgemm_csr.hpp) for an entry of k products: 32-bit gamma_{k+2}
// (complex sqrt(2) gamma_{k+5}) in u = 2^-24 times mag = |alpha| (|A||B|)_ij + |beta| |c|; 64-bit
// 4.1 u (|alpha| |s| + |beta| |c|) (exact = that sum for s = (A B)_ij), plus the long-double
// reference's own error (k + 8) 2^-63 mag.
long double spgemm_bound(trn::sparse::Value v, std::int64_t k, long double mag, long double exact) {
  if (!trn::sparse::value_is_single(v)) return 4.1L * 0x1p-53L * exact + static_cast<long double>(k + 8) * 0x1p-63L * mag;
  const long double u32 = 0x1p-24L, kk = static_cast<long double>(k + (trn::sparse::value_is_complex(v) ? 5 : 2));
  return kk * u32 / (1 - kk * u32) * mag * (trn::sparse::value_is_complex(v) ? std::sqrt(2.0L) : 1.0L);
}
const char* spgemm_path(trn::sparse::Value v) {
  return trn::sparse::value_is_single(v) ? "engines: DMA gathers + VectorE segment sums" : "engines: segmented slice pairs";
}

}  // namespace trnsci::cli
