// Internal helpers shared by trnblas's Level 1 and Level 2 drivers (not installed): BLAS vector
// addressing, host-side gathers (data movement only, no arithmetic) and the call report of
// composite calls that launch several kernels.
#pragma once
#include <algorithm>
#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "deferred_profile.hpp"
#include "trn/blas/blas.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/scratch.hpp"
#include "trn/core/trace_recycle.hpp"

namespace trn::blas::l12 {

// Address of element 0 of a BLAS vector (inc < 0: the last stored element, walked backwards).
template <class T>
T* first(T* x, std::int64_t n, std::int64_t inc) {
  return inc < 0 && n > 0 ? x + (n - 1) * -inc : x;
}

// A contiguous copy of a strided vector (host data movement, as a gathering DMA would do). A copy
// a trace records as HBM takes Alloc = ScratchAllocator<T> (docs/cost-model.md section 2).
template <class T, class Alloc = std::allocator<T>>
std::vector<T, Alloc> gather(const T* x, std::int64_t n, std::int64_t inc) {
  std::vector<T, Alloc> v(static_cast<std::size_t>(n));
  const T* x0 = first(x, n, inc);
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = x0[i * inc];
  return v;
}
template <class T, class Alloc>
void scatter(const std::vector<T, Alloc>& v, T* x, std::int64_t n, std::int64_t inc) {
  T* x0 = first(x, n, inc);
  for (std::int64_t i = 0; i < n; ++i) x0[i * inc] = v[static_cast<std::size_t>(i)];
}

// A BLAS vector of n elements with increment inc as the device range a host step moves: n
// elements from its lowest address x (inc < 0 walks it backwards; inc == 0 is one element read n times).
template <class T>
HostSpan vec_span(const T* x, std::int64_t n, std::int64_t inc) {
  return HostSpan::strided(x, n, inc < 0 ? -inc : inc, 1, 0);
}

// The settings of a nested call whose report this call appends to its own (Report::sub) beside
// launches, host steps or other nested calls of its own: trace and counters only
// (Settings::report_trace_only), because this call's report models the merged trace once, as
// level3.cpp's gemm_any does. Modeling the nested trace as well was a second schedule per call,
// thrown away: half the host time of a C API Ctrsv n = 32 (issue #30, session 19). A call that is
// one nested call and nothing else keeps its own settings: ~Report takes that report over.
inline Settings nested(const Settings& s) {
  Settings n = s;
  n.report_trace_only = true;
  return n;
}

// Collects the kernels of one library call into its CallReport.
class Report {
 public:
  Report(const Settings& s, CallReport* r) : s_(s), r_(r) {
    if (r_ == nullptr) return;
    if (detail::DeferredProfile& d = detail::deferred_profile(); d.report == r_ && d.fresh)
      d.fresh = false;  // as constructed: the reset below would change nothing (deferred_profile.hpp)
    else
      *r_ = CallReport{};
  }
  // A CallReport for a nested call (gemm, dgemm), or nullptr when nobody asked for one. Built on the
  // first nested call: most Level 1/2 calls launch their own kernels and have none (constructing and
  // destroying an unused one was ~110 host instructions of a C API Sdot or Strsv, session 23).
  CallReport* sub() {
    if (r_ == nullptr) return nullptr;
    const bool emplaced = !sub_;
    if (emplaced) {
      sub_.emplace();
      sub_->plans_wanted = static_cast<bool>(r_->plans_wanted);  // a nested call prints its plan only if asked
    }
    // The C entry point's report (deferred_profile.hpp): while nested calls run, theirs stands in for
    // it, so that a call that is one nested call and nothing else keeps that call's schedule waiting
    // (~Report hands the registration back).
    if (detail::DeferredProfile& d = detail::deferred_profile(); d.report == r_) {
      d.report = &*sub_;
      d.fresh = emplaced;
    }
    ++subs_;
    return &*sub_;
  }
  void add_sub() {
    if (r_ == nullptr) return;
    ++subs_added_;
    // Taken over (the nested call's buffer, often the launch's recycled one) when it is the call's
    // first trace; a later nested call resets sub_ (its Report or `*report = CallReport{}`).
    CallReport& sub = *sub_;
    trace_.append(std::move(sub.trace));
    if (!sub.plan.empty() && r_->plan.find(sub.plan) == std::string::npos) r_->add_plan(sub.plan);
    if (sub.ozaki_mantissa_bits > r_->ozaki_mantissa_bits) {
      r_->ozaki_mantissa_bits = sub.ozaki_mantissa_bits;
      r_->ozaki_slices_a = sub.ozaki_slices_a;
      r_->ozaki_slices_b = sub.ozaki_slices_b;
      r_->ozaki_products = sub.ozaki_products;
    }
    if (sub.ozaki_capped && !r_->ozaki_capped) {
      r_->ozaki_capped = true;
      r_->ozaki_cap_note = sub.ozaki_cap_note;
    }
  }
  void add(const Trace& t) {
    if (r_ == nullptr) return;
    own_trace_ = true;
    trace_.append(t);
  }
  void add(Trace&& t) {  // a launch's trace: taken over, not copied, when it is the call's first
    if (r_ != nullptr) {
      own_trace_ = true;
      trace_.append(std::move(t));
    } else {
      trn::recycle_trace(std::move(t));  // nobody reads it: the next launch on this thread records into its buffer
    }
  }
  // One host round trip (docs/cost-model.md section 7) of this call.
  void host_step(const HostStep& h) {
    if (r_ == nullptr) return;
    own_trace_ = true;
    record_host_step(trace_, h);
  }
  ~Report();

  Report(const Report&) = delete;
  Report& operator=(const Report&) = delete;

 private:
  const Settings& s_;
  CallReport* r_;
  // The nested calls' report, built only when the caller asked for one (r_ != nullptr) and a nested
  // call needs it (sub()): constructing
  // and destroying an unused CallReport (its profile, trace, plan and note) on every Level 1/2 call
  // of the BLAS ABI, which never asks, was ~150 host instructions (session 22).
  std::optional<CallReport> sub_;
  Trace trace_;
  // The call was one nested call and nothing else (subs_ == subs_added_ == 1, !own_trace_): its
  // trace is the nested report's, so ~Report may take that report over (level1.cpp).
  int subs_ = 0, subs_added_ = 0;
  bool own_trace_ = false;
};

// y = alpha (pr + i pi) + beta y for contiguous fp32 planes pr, pi of length n, on VectorE
// (beta == 0: y is not read). Rounding: each part fl(fl(fl(ar pr) - fl(ai pi)) + fl(fl(br yr) - fl(bi yi))).
void complex_axpby(const Settings& s, std::int64_t n, std::complex<float> alpha, const float* pr, const float* pi,
                   std::complex<float> beta, std::complex<float>* y, std::int64_t incy, Report& rep);

// Elementwise complex product out = a * b of contiguous fp32 planes of length n on VectorE:
// re = fl(fl(ar br) - fl(ai bi)), im = fl(fl(ar bi) + fl(ai br)) (the reference BLAS's complex
// product; out may alias a or b).
void complex_mul(const Settings& s, std::int64_t n, const float* ar, const float* ai, const float* br, const float* bi,
                 float* outr, float* outi, Report& rep);
// Elementwise reciprocal 1/d of contiguous fp32 planes on VectorE, without overflow or underflow
// of the intermediate |d|^2 (Smith, "Algorithm 116: Complex division", CACM 5(8), 1962, in its
// branch-free form): with big = max(|dr|, |di|), small = min, t = small / big,
// den = big + small t (= |d|^2 / big), 1/d = (dr / big, -di / big) / den. Each output carries at
// most 5 roundings (relative error <= gamma_5 per part, with respect to |1/d|).
void complex_reciprocal(const Settings& s, std::int64_t n, const float* dr, const float* di, float* rr, float* ri,
                        Report& rep);


// The fp32 SBUF tiles a program allocates first, as ONE allocation (session 22, host only). First
// fit on an empty memory places separate allocations of these shapes one after another, each at the
// running sum of the aligned sizes before it (SBUF has no banks), so every tile carved here is, field
// for field, the Tile those allocations would have returned: the same offsets, partitions and sizes,
// hence the same trace records, SBUF peak and poisoned byte range (their union). One allocator call
// and one free instead of one each (~420 host instructions per allocation with AllocScope's warm
// vector: 20 % of a 1 x 2 sgemv through the BLAS ABI). When the memory is not empty the tiles are
// allocated one by one, as before. No tile is poison-filled: each caller writes every tile (a DMA's
// or an instruction's destination) before reading it.
struct TileShape {
  std::int32_t partitions;
  std::int64_t cols;  // fp32 elements per partition
};
class FirstTiles {
 public:
  static constexpr std::size_t kMax = 8;
  FirstTiles(OnChipMemory& mem, std::initializer_list<TileShape> shapes, std::string_view name)
      : FirstTiles(mem, std::span<const TileShape>(shapes.begin(), shapes.size()), name) {}
  FirstTiles(OnChipMemory& mem, std::span<const TileShape> shapes, std::string_view name) : mem_(mem) {
    if (shapes.size() > kMax) throw Error("trnblas FirstTiles: more tiles than kMax");
    constexpr std::int64_t kAlign = kAllocAlignBytes / static_cast<std::int64_t>(sizeof(float));
    std::int64_t total = 0;
    std::int32_t rows = 1;
    for (const TileShape& t : shapes) {
      total += (t.cols + kAlign - 1) / kAlign * kAlign;
      rows = std::max(rows, t.partitions);
    }
    Tile* const tiles = this->tiles();
    if (mem.space() == MemSpace::sbuf && mem.used_bytes() == 0 && total * 4 <= mem.partition_bytes()) {
      Tile* const all = std::construct_at(allocations(), mem.alloc(DType::f32, rows, {total}, name, 0, AllocFill::none));
      allocated_ = 1;
      std::int64_t at = 0;  // floats from all's element 0
      for (const TileShape& t : shapes) {
        Tile* const v = std::construct_at(tiles + count_++, *all);
        v->partitions = t.partitions;
        v->base += at * 4;
        v->offset_bytes += at * 4;
        v->size[0] = t.cols;
        at += (t.cols + kAlign - 1) / kAlign * kAlign;
      }
      return;
    }
    // One by one: an allocation that throws (the memory is full) frees those made before it, since
    // a constructor that throws runs no destructor.
    try {
      for (const TileShape& t : shapes) {
        std::construct_at(allocations() + allocated_, mem.alloc(DType::f32, t.partitions, {t.cols}, name, 0, AllocFill::none));
        std::construct_at(tiles + count_++, allocations()[allocated_++]);
      }
    } catch (...) {
      release();
      throw;
    }
  }
  ~FirstTiles() { release(); }
  FirstTiles(const FirstTiles&) = delete;
  FirstTiles& operator=(const FirstTiles&) = delete;
  const Tile& operator[](std::size_t i) const { return tiles()[i]; }

 private:
  // Raw slots, written when used (a Tile is ~120 bytes: value-initialising 2 x kMax of them was
  // more stores than the allocation this saves; Tile is trivially copyable and destructible).
  Tile* tiles() const { return std::launder(reinterpret_cast<Tile*>(const_cast<std::byte*>(tiles_))); }
  Tile* allocations() { return std::launder(reinterpret_cast<Tile*>(allocations_)); }
  void release() {
    for (std::size_t i = allocated_; i-- > 0;) mem_.free(allocations()[i]);
  }
  OnChipMemory& mem_;
  alignas(Tile) std::byte tiles_[kMax * sizeof(Tile)];
  alignas(Tile) std::byte allocations_[kMax * sizeof(Tile)];
  std::size_t count_ = 0, allocated_ = 0;
};

// A one-free-dimension fp32 HBM view of the caller's own memory, field by field: partitions rows
// partition_stride elements apart, cols elements col_stride apart from base. The Tile
// tile::hbm_view(base, f32, partitions, partition_stride, {{cols, col_stride}}) returns, without its
// pattern object and overflow checks (~150 host instructions per operand; the caller's arrays hold
// these offsets, so they cannot overflow), as level1.cpp's hbm_piece.
inline Tile hbm_f32(const float* base, std::int32_t partitions, std::int64_t partition_stride, std::int64_t cols,
                    std::int64_t col_stride) {
  Tile t;
  t.mem = MemSpace::hbm;
  t.dtype = DType::f32;
  t.base = reinterpret_cast<std::byte*>(const_cast<float*>(base));
  t.partitions = partitions;
  t.partition_stride = partition_stride * static_cast<std::int64_t>(sizeof(float));
  t.ndim = 1;
  t.size = {cols, 1, 1, 1};
  t.stride = {col_stride, 0, 0, 0};
  return t;
}

}  // namespace trn::blas::l12

namespace trn::blas {
struct TrsmProblem;
// trsv_kernel (trsv_kernel.cpp): the substitution for one right-hand side on one partition's free
// axis (trnblas's float trsv). Its limits: x and T's column panel in one SBUF partition.
inline constexpr std::int64_t kTrsvMaxN = 4096;
inline constexpr std::int64_t kTrsvPanelElements = 16384;  // 64 KiB of T per panel
void trsv_kernel(NeuronCore& nc, const TrsmProblem& p);

// tbsv_kernel (trsv_kernel.cpp): the same substitution for a triangular band in band storage,
// read directly (trnblas's float tbsv): column j of the storage at a + j lda, rows 0..k (the
// reference BLAS layout: upper T(i, j) at row k + i - j, lower at row i - j).
struct BandSolve {
  const float* a = nullptr;
  std::int64_t lda = 1, n = 0, k = 0;
  bool upper_stored = false;  // the storage's triangle (uplo)
  bool transposed = false;    // solve with T^T
  bool unit = false;          // unit diagonal (not read)
  float* b = nullptr;         // x, contiguous: overwritten by the solution
};
// The band rows a solve uses (min(k, n - 1) + 1 per column) in one SBUF partition, as trsv's panel.
inline constexpr std::int64_t kTbsvBandElements = kTrsvPanelElements;
void tbsv_kernel(NeuronCore& nc, const BandSolve& p);

// complex_trsv_kernel (trsv_kernel.cpp): the complex fp32 triangular solve op(A) x = b of order n in
// ONE program (trnblas's ctrsv / ctbsv / ctpsv for n <= kComplexTrsvMaxN), on the fp32 words the host
// stages (complex_trsv_staged_words of them, interleaved re / im pairs, E = op(A) column-major with
// column j's pair for row i at word 2n j + 2i, only the strict triangle read):
//   non-unit: [D: (dr, dr) pairs (2n) | (di, -di) pairs (2n) | (dr, dr) pairs (2n) | W: b (2n) |
//              E (2n^2) | Ws: W with each pair swapped, (im, re) (2n + 2n^2)]
//   unit:     [b (2n) | E (2n^2) | E's second real-form columns, (-im, re) pairs (2n^2)]
// The solution overwrites b's words.
struct ComplexTrsvProblem {
  float* staged = nullptr;
  std::int64_t n = 0;
  bool lower = true;   // op(A)'s triangle
  bool unit = false;   // unit diagonal (not staged)
};
// The small-call sizes (issue #30's rows go to n = 32): 4n + 11 records and 10n^2 + 28n words of one
// SBUF partition (43.5 KiB at n = 32, non-unit; the partition holds 192 KiB). Past it the scaling's O(n^2) words on one partition cost more modeled
// time than the general path's 128-partition planes (n = 60: 128 us against 108 us on trn1).
inline constexpr std::int64_t kComplexTrsvMaxN = 32;
inline constexpr std::int64_t complex_trsv_staged_words(std::int64_t n, bool unit) {
  return unit ? 2 * n + 4 * n * n : 10 * n + 4 * n * n;
}
void complex_trsv_kernel(NeuronCore& nc, const ComplexTrsvProblem& p);
}  // namespace trn::blas
