// SDDMM in fp64, complex-fp32 and complex-fp64 (trn/sparse/generic.hpp sddmm_host, sddmm_fp64):
// C = alpha (op(A) op(B)) o spy(C) + beta C on the stored entries of a CSR or BSR pattern.
// R_64F / C_64F run on TensorE (sddmm_fp64, below the host step): since s12/spdev as ONE segmented
// slice-pair SpMV over the stored entries' K-term dot products (sddmm_segmented; bound per stored entry
// 4.1 u / 8 u (|alpha p| + |beta c|), docs/trnsparse.md "Slicing on the device; SpMM to 64 columns and
// SDDMM on the segmented kernel"; s10's row groups, one Ozaki GEMM per 128 rows of C, were removed with
// it: 15x slower, modeled). What follows describes the host step
// C_32F keeps through this C++ entry.
//
// Algorithm   per stored entry (i, j) of C, in storage order: s = sum_{k = 0..K-1} op(A)(i, k)
//             op(B)(k, j) with an fp64 (complex<double>) accumulator in increasing k, then
//             C(i, j) = alpha s + beta C(i, j) (beta == 0 never reads C), rounded once to the
//             value type. A BSR pattern walks its block rows, stored blocks and each block's
//             rb x cb entries; the value of entry (r, c) of block b is at b rb cb + r cb + c (row
//             order) or b rb cb + c rb + r (column order), as cuSPARSE's BSR layout.
// Engines     one costed host step per call (trn/core/host_step.hpp, "trnsparse.sddmm.host"): no
//             NeuronCore engine computes in fp64 or in complex (docs/trnsparse.md "Generic API:
//             value types" says why this is a host step and what the engine path would be); the
//             step moves A, B, C's index arrays and C's values (read when beta != 0) over the
//             host link and C's values back.
// Accuracy    each stored entry is the SpMM host step's bound with k = K (Higham §3.1, §3.6):
//             real gamma_{K+2} (|alpha| |op(A)| |op(B)| + |beta| |C|), complex sqrt(2) gamma_{K+4}
//             of the same magnitudes, complex-fp32 plus the final rounding u32 |C(i, j)|.
// Limits      C's pattern is validated (sorted, in-range columns) before anything is written;
//             A, B and C of one value type; dimensions as op(A) M x K, op(B) K x N, C M x N.
#include <algorithm>
#include <array>
#include <complex>
#include <cstdlib>
#include <string>
#include <utility>

#include "fp64_engine.hpp"
#include "segmented_spmv.hpp"
#include "spgemm_blocks.hpp"
#include "generic_detail.hpp"
#include "generic_host.hpp"
#include "trn/core/host_step.hpp"
#include "trn/sparse/generic.hpp"

namespace trn::sparse {

using namespace generic_detail;  // NOLINT: this file's own helpers
using namespace generic_host;    // NOLINT: the host-step helpers
using fp64_engine::z;

namespace {

// The checked shape of one SDDMM: op(A) M x K, op(B) K x N.
struct SddmmShape {
  std::int64_t M = 0, N = 0, K = 0;
};
SddmmShape sddmm_shape(GOp opA, GOp opB, const DenseAny& A, const DenseAny& B, std::int64_t M, std::int64_t N, Value value) {
  if (A.value != value || B.value != value) invalid("sddmm: A, B and C must share one value type", "valueType");
  if (value == Value::f32) invalid("sddmm: fp32 values take the TensorE path", "valueType");
  const std::int64_t am = opA == GOp::N ? A.rows : A.cols, K = opA == GOp::N ? A.cols : A.rows;
  const std::int64_t bk = opB == GOp::N ? B.rows : B.cols, bn = opB == GOp::N ? B.cols : B.rows;
  if (am != M) invalid("sddmm: op(A) is not M x K", "matA");
  if (bk != K || bn != N) invalid("sddmm: op(B) is not K x N", "matB");
  return {M, N, K};
}

// f(i, j, e) for every stored entry of a validated BSR pattern: block rows, their stored blocks, each
// block's rb x cb entries; entry (r, c) of block b at b rb cb + r cb + c (row order) or
// b rb cb + c rb + r (column order), as cuSPARSE's BSR layout.
template <class F>
void for_each_bsr_entry(const BsrView& C, F&& f) {
  const std::int64_t rb = C.row_block, cb = C.col_block, base = base_value(C.base);
  const bool row_order = C.order == BlockOrder::row;
  for (std::int64_t I = 0; I < C.brows; ++I)
    for (std::int64_t b = idx(C.offsets, C.offsets_type, I) - base; b < idx(C.offsets, C.offsets_type, I + 1) - base; ++b) {
      const std::int64_t J = idx(C.columns, C.columns_type, b) - base;
      for (std::int64_t r = 0; r < rb; ++r)
        for (std::int64_t c = 0; c < cb; ++c) f(I * rb + r, J * cb + c, b * rb * cb + (row_order ? r * cb + c : c * rb + r));
    }
}

// C(e) = alpha op(A)(i, :) op(B)(:, j) + beta C(e) for every stored entry visited by `walk`
// (walk(f) calls f(i, j, e) in storage order).
template <class T, class Walk>
void sddmm_typed(GOp opA, GOp opB, Scalar alpha, const DenseAny& A, const DenseAny& B, Scalar beta, void* values,
                 std::int64_t K, Walk&& walk) {
  using V = Acc<T>;
  const V al = from_scalar<V>(alpha), be = from_scalar<V>(beta);
  const bool read_c = beta != Scalar{};
  walk([&](std::int64_t i, std::int64_t j, std::int64_t e) {
    V sum{};
    for (std::int64_t k = 0; k < K; ++k) {
      const V a = opA == GOp::N ? load<T>(A.data, at(A, i, k)) : conj_if(load<T>(A.data, at(A, k, i)), opA == GOp::C);
      const V b = opB == GOp::N ? load<T>(B.data, at(B, k, j)) : conj_if(load<T>(B.data, at(B, j, k)), opB == GOp::C);
      sum += a * b;
    }
    V v = al * sum;
    if (read_c) v += be * load<T>(values, e);
    store<T>(values, e, v);
  });
}

PlanFacts sddmm_facts(const char* format, GOp opA, GOp opB, const SddmmShape& d, std::int64_t stored, Value value) {
  PlanFacts p;
  p.routine = "sddmm";
  p.shape = std::to_string(d.M) + "x" + std::to_string(d.N) + " K=" + std::to_string(d.K) + " stored=" + std::to_string(stored) +
            " op(A)=" + op_name(opA) + " op(B)=" + op_name(opB);
  p.variant = std::string(format) + " " + value_name(value) +
              ": one K-term dot product per stored entry, fp64 accumulators on the host (one round trip)";
  p.ops = std::to_string(static_cast<long long>((is_complex(value) ? 8.0 : 2.0) * static_cast<double>(stored) *
                                                static_cast<double>(d.K))) +
          " flops";
  p.engines = "host CPU (costed host step), host link";
  p.why = "no NeuronCore engine computes in fp64 or complex; fp32-class values take the TensorE SDDMM kernels";
  return p;
}

// The host step of one call: its flops (K multiply-adds per stored entry, then alpha / beta) and spans.
void finish_sddmm(const Settings& s, const SddmmShape& d, std::int64_t stored, Value value, Scalar beta,
                  std::array<HostSpan, 3> pattern, const DenseAny& A, const DenseAny& B, PlanFacts facts,
                  CallReport* report) {
  const bool cplx = is_complex(value);
  const double flops = (cplx ? 8.0 : 2.0) * static_cast<double>(stored) * static_cast<double>(d.K) +
                       (cplx ? 14.0 : 3.0) * static_cast<double>(stored);
  // C's values go to the host too when beta != 0: a step keeps four reads, so that trip is listed
  // as a second span of the written range (record_host_step counts every span's bytes; the write
  // already orders the step against the device).
  const HostStep step{.name = "trnsparse.sddmm.host", .flops = flops,
                      .reads = {pattern[0], pattern[1], dense_span(A), dense_span(B)},
                      .writes = {pattern[2], beta != Scalar{} ? pattern[2] : HostSpan{}}};
  finish_host(s, step, std::move(facts), report);
}

// ---- R_64F / C_64F on TensorE: row groups of C, one Ozaki GEMM each -----------------------------

struct StoredEntry {
  std::int64_t i, j, e;  // row, column, value index of a stored entry of C
};

// The operands of one engine SDDMM.
struct SddmmOperands {
  GOp opA, opB;
  Scalar alpha, beta;
  const DenseAny *A, *B;
  void* values;
  SddmmShape d;
};

// ---- R_64F / C_64F as ONE segmented slice-pair SpMV (segmented_spmv.hpp; s12/spdev) ---------------
// Stored entry q = (i, j) of C is row q of a virtual sparse matrix V (entries.size() x K N) with the K
// entries V(q, j K + l) = op(A)(i, l), l = 0..K-1, and x = vec(op(B)) (x[j K + l] = op(B)(l, j)):
// (V x)_q = sum_l op(A)(i, l) op(B)(l, j), the SDDMM dot product. V and x are the host's gather (the
// emulated ISA has no indirect DMA), the kernel's exponent step reads them; alpha / beta are the
// kernel's epilogue on C's stored values gathered into y and scattered back.
template <class T>
void sddmm_segmented(const Settings& s, const SddmmOperands& o, const std::vector<StoredEntry>& entries, const char* format,
                     Value value, CallReport* report) {
  const std::int64_t K = o.d.K, stored = static_cast<std::int64_t>(entries.size());
  const auto* ad = static_cast<const T*>(o.A->data);
  const auto* bd = static_cast<const T*>(o.B->data);
  // V, x and y (K values per stored entry: ~2.7 MB each at 1024^2, 0.5 %, K = 64) in the calling
  // thread's warm blocks, handed back below (spgemm_blocks.hpp: glibc mapped them afresh each call).
  const auto warm = [](auto& v, std::int64_t n) {
    detail::warm_capacity(v, z(n));
    v.resize(z(n));
  };
  std::vector<std::int64_t> offsets, columns;
  std::vector<T> vals, x, y;
  warm(offsets, stored + 1);
  warm(columns, stored * K);
  warm(vals, stored * K);
  warm(x, K * o.d.N);
  warm(y, stored);
  for (std::int64_t j = 0; j < o.d.N; ++j)
    for (std::int64_t l = 0; l < K; ++l)
      x[z(j * K + l)] = o.opB == GOp::N ? bd[at(*o.B, l, j)] : conj_if(bd[at(*o.B, j, l)], o.opB == GOp::C);
  auto* cv = static_cast<T*>(o.values);
  for (std::int64_t q = 0; q < stored; ++q) {
    const StoredEntry& e = entries[z(q)];
    offsets[z(q + 1)] = (q + 1) * K;
    for (std::int64_t l = 0; l < K; ++l) {
      columns[z(q * K + l)] = e.j * K + l;
      vals[z(q * K + l)] = o.opA == GOp::N ? ad[at(*o.A, e.i, l)] : conj_if(ad[at(*o.A, l, e.i)], o.opA == GOp::C);
    }
    y[z(q)] = o.beta != Scalar{} ? cv[e.e] : T{};
  }
  const SparseRef V{SparseRef::Format::csr, stored, K * o.d.N, stored * K, offsets.data(), columns.data(), vals.data(),
                    IndexType::i64, IndexType::i64, IndexBase::zero, value};
  const DenseAny X{x.data(), value, K * o.d.N, 1, std::max<std::int64_t>(K * o.d.N, 1)};
  const DenseAny Y{y.data(), value, stored, 1, std::max<std::int64_t>(stored, 1)};
  spmm_fp64_segmented(s, GOp::N, GOp::N, o.alpha, V, X, o.beta, Y, report);
  for (std::int64_t q = 0; q < stored; ++q) cv[entries[z(q)].e] = y[z(q)];
  detail::give_warm_block(offsets);
  detail::give_warm_block(columns);
  detail::give_warm_block(vals);
  detail::give_warm_block(x);
  detail::give_warm_block(y);
  if (report != nullptr && report->plans_wanted)
    report->add_plan("sddmm plan: " + std::string(format) + " " + value_name(value) + " " + std::to_string(o.d.M) + "x" +
                     std::to_string(o.d.N) + " K=" + std::to_string(K) + " stored=" + std::to_string(stored) +
                     " op(A)=" + op_name(o.opA) + " op(B)=" + op_name(o.opB) +
                     ": one segmented slice-pair SpMV (the spmv plan above) over the stored entries' K-term dot products, "
                     "each rounded once, alpha / beta in its epilogue");
}

}  // namespace

void sddmm_fp64(const Settings& s, GOp opA, GOp opB, Scalar alpha, const DenseAny& A, const DenseAny& B, Scalar beta,
                const SparseRef& C, CallReport* report) {
  if (C.format != SparseRef::Format::csr) invalid("sddmm: the output pattern is CSR or BSR", "matC");
  const SddmmShape d = sddmm_shape(opA, opB, A, B, C.rows, C.cols, C.value);
  validate(C);
  std::vector<StoredEntry> entries;
  for_each_entry(C, [&](std::int64_t i, std::int64_t j, std::int64_t e) { entries.push_back({i, j, e}); });
  const SddmmOperands o{opA, opB, alpha, beta, &A, &B, C.values, d};
  fp64_engine::dispatch_wide(C.value, [&](auto t) { sddmm_segmented<decltype(t)>(s, o, entries, "CSR", C.value, report); });
}

void sddmm_fp64(const Settings& s, GOp opA, GOp opB, Scalar alpha, const DenseAny& A, const DenseAny& B, Scalar beta,
                const BsrView& C, Value value, CallReport* report) {
  const SddmmShape d = sddmm_shape(opA, opB, A, B, C.rows(), C.cols(), value);
  validate(C);
  std::vector<StoredEntry> entries;
  for_each_bsr_entry(C, [&](std::int64_t i, std::int64_t j, std::int64_t e) { entries.push_back({i, j, e}); });
  const SddmmOperands o{opA, opB, alpha, beta, &A, &B, C.values, d};
  fp64_engine::dispatch_wide(value, [&](auto t) { sddmm_segmented<decltype(t)>(s, o, entries, "BSR", value, report); });
}

void sddmm_host(const Settings& s, GOp opA, GOp opB, Scalar alpha, const DenseAny& A, const DenseAny& B, Scalar beta,
                const SparseRef& C, CallReport* report) {
  if (C.value == Value::f64 || C.value == Value::c64) {  // TensorE (sddmm_fp64)
    sddmm_fp64(s, opA, opB, alpha, A, B, beta, C, report);
    return;
  }
  if (C.format != SparseRef::Format::csr) invalid("sddmm: the output pattern is CSR or BSR", "matC");
  const SddmmShape d = sddmm_shape(opA, opB, A, B, C.rows, C.cols, C.value);
  validate(C);
  dispatch(C.value, [&](auto t) {
    sddmm_typed<decltype(t)>(opA, opB, alpha, A, B, beta, C.values, d.K, [&](auto&& f) { for_each_entry(C, f); });
  });
  finish_sddmm(s, d, C.nnz, C.value, beta, sparse_spans(C), A, B, sddmm_facts("CSR", opA, opB, d, C.nnz, C.value), report);
}

void sddmm_host(const Settings& s, GOp opA, GOp opB, Scalar alpha, const DenseAny& A, const DenseAny& B, Scalar beta,
                const BsrView& C, Value value, CallReport* report) {
  if (value == Value::f64 || value == Value::c64) {  // TensorE (sddmm_fp64)
    sddmm_fp64(s, opA, opB, alpha, A, B, beta, C, value, report);
    return;
  }
  const SddmmShape d = sddmm_shape(opA, opB, A, B, C.rows(), C.cols(), value);
  validate(C);
  const std::int64_t rb = C.row_block, cb = C.col_block;
  auto walk = [&](auto&& f) { for_each_bsr_entry(C, f); };
  dispatch(value, [&](auto t) { sddmm_typed<decltype(t)>(opA, opB, alpha, A, B, beta, C.values, d.K, walk); });
  const std::int64_t stored = C.bnnz * rb * cb;
  const std::array<HostSpan, 3> pattern{index_span(C.offsets, C.brows + 1, C.offsets_type), index_span(C.columns, C.bnnz, C.columns_type),
                                        bytes_span(C.values, stored, value_bytes(value))};
  finish_sddmm(s, d, stored, value, beta, pattern, A, B, sddmm_facts("BSR", opA, opB, d, stored, value), report);
}

}  // namespace trn::sparse
