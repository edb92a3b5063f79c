// Segment sums of pair products on the emulated engines: for each output entry e,
//   out_e = sum over q in [start_e, start_{e+1}) of u(ui_q) v(vi_q)
// in storage order of the products. The numeric phases of CSR SpGEMM (u = A's values, v = B's, one
// list per entry of C: its products a_ik b_kj), of SpGEMM's copy and of csrgeam2 (u = the operands'
// values, v = the coefficients [alpha, beta]: alpha s + beta c, alpha a + beta b) are such sums
// (docs/trnsparse.md "SpGEMM and csrgeam2 numeric phases on the engines").
//
// Algorithm   R_32F / C_32F: the staged path (pair_staged.hpp): consecutive entries packed into
//             segments, one per partition; each segment's source elements staged in SBUF by whole
//             runs (one DMA descriptor per run of consecutive source elements, e.g. a B row's run in
//             SpGEMM), gathered on chip by a GpSimdE operator, multiplied on VectorE, summed per entry
//             by a GpSimdE operator in the fp32 loop's order (csrgeam2 / copy: a two-slot layout, the
//             sum slot 0 + slot 1 on VectorE; the copy with no gather at all). An entry of more than
//             1024 products, or of none, takes the per-entry gather path (pair_sums.cpp): entries in
//             tiles of pmax = 128, entry on a partition, its products along the free axis (chunks of
//             kPairFree columns), per tile and chunk a DMA gather of U and V (one descriptor per run),
//             VectorE products and tensor_reduce add along the free axis, left to right, a later
//             chunk's partial added on, one store per entry. Every entry's arithmetic is its own, so
//             the bits do not depend on the segmentation, tiling, programs, threads or cores.
//             R_64F / C_64F: the segmented slice-pair kernel (segmented_spmv.hpp) with one real row per
//             entry (C_64F: two, its real representation), the row's entries u(ui_q) against the column
//             x = v: exact slice products on TensorE, exact host fold, one rounding per part.
// Engines     fp32: DMA, GpSimdE, VectorE (one launch; a second for entries over 1024 products). fp64: host (exponents + gather, fold), DMA, GpSimdE,
//             VectorE, TensorE.
// Accuracy    fp32 (u = 2^-24, gamma_j = j u / (1 - j u); Higham ASNA 2nd ed. Thm 3.1, Lemma 3.5):
//             out_e is the left-to-right fp32 sum of the fp32-rounded products in chunks of 512, the
//             chunk sums added in order (a sum of exactly -0: pair_staged.hpp, Accuracy), so |out_e - s_e| <= gamma_k sum |u||v| (k = the entry's
//             products) and sqrt(2) gamma_{k+1} sum |u||v| for complex. fp64 (u = 2^-53): each part of
//             s_e rounded once, |err| <= 2.02 u |part|, so |out_e - s_e| <= 2.02 u |s_e| (complex too), unless the plan says
//             "capped" (a row spanning more than 8 kVectorMaxSlices - 52 bits of exponent).
// Limits      fp32: one DMA descriptor per staged run, so short runs (SpGEMM at 0.5%: B rows of ~10
//             values) leave DMA descriptor-bound (the plan prints the count). fp64: the segmented
//             kernel's (two host round trips, the column x's exponent range shared by every row).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "trn/core/plan.hpp"
#include "trn/core/trace.hpp"
#include "trn/sparse/generic.hpp"
#include "trn/sparse/spgemm_csr.hpp"  // PairLists

namespace trn::sparse {

// Values of the call's value type from up to two arrays: element i < len0 is first[i], else
// second[i - len0] (csrgeam2: A's values then B's; copy: the sums then C's old values).
struct PairSource {
  const void* first = nullptr;
  std::int64_t len0 = 0;
  const void* second = nullptr;
  std::int64_t len1 = 0;
};

// What a plan prints of one run.
struct PairRun {
  std::string kernel;   // tiles, descriptors / slices, programs
  std::string engines;  // the engines of the run
};

// out[e] (value type `value`, L.entries() values) = the sums; out may be U's second array (read
// before written). Records the run into trace. cache (fp32; may be null): the staged plan kept for L
// between calls (pair_staged.hpp, pair_sums_staged) -- L's arrays must stay unchanged while it is kept.
PairRun pair_sums(const Settings& s, Value value, const PairLists& L, const PairSource& U, const PairSource& V,
                  void* out, Trace& trace, std::shared_ptr<const void>* cache = nullptr);

// The sums of the fixed list of n entries -- per entry e the pair (e, 0), then (n + e, 1) when `both`:
// out[e] = v0 u_e (+ v1 u_(n + e)), SpGEMM's copy alpha s + beta c -- as pair_sums of that list (the same
// bits, trace and plan text); fp32 builds its staged plan without the list.
PairRun pair_sums_fixed(const Settings& s, Value value, std::int64_t n, bool both, const PairSource& U, const PairSource& V,
                        void* out, Trace& trace, std::shared_ptr<const void>* cache = nullptr);

// A terms list (pair_staged.hpp, "terms") given by its per-entry slot masks instead of the list: entry
// e's terms are (u0 + its rank among the slot-0 terms, v = 0) when mask[e] bit 0 is set, then (u1 + its
// rank among the slot-1 terms, v = 1) when bit 1 is -- csrgeam2's alpha a + beta b (u0 = 0: A's
// entries in order, u1 = nnz(A): B's), which its merge writes as one byte per entry of C.
struct TermMasks {
  const std::uint8_t* mask = nullptr;  // per entry 1, 2 or 3
  std::int64_t entries = 0;
  std::int64_t terms = 0;  // the masks' set bits: the list's products
  std::int64_t u0 = 0, u1 = 0;
};

// pair_sums of the list `t` stands for (the same bits, trace and plan text); fp32 builds its staged
// plan from the masks (no list).
PairRun pair_sums_terms(const Settings& s, Value value, const TermMasks& t, const PairSource& U, const PairSource& V, void* out,
                        Trace& trace);

// The flops of L's sums: 2 per product (8 complex).
double pair_flops(Value value, const PairLists& L);
double pair_flops(Value value, std::int64_t products);

// [alpha, beta] in the value type (raw storage for two values of any type): the v side of alpha s +
// beta c and alpha a + beta b.
std::vector<double> pair_coefficients(Value value, Scalar alpha, Scalar beta);

// The report of one pair_sums run (its trace) with the plan `facts`: run.kernel appended to the
// variant, run.engines as the engines, the modeled time as the prediction.
void finish_pair_report(const Settings& s, Trace&& trace, PlanFacts facts, const PairRun& run, CallReport* report);

}  // namespace trn::sparse
