// trnblas Level 1 (docs/trnblas.md, "Levels 1 and 2").
//
// float: VectorE tile kernels on one NeuronCore (one program). The vector is cut into chunks of
// at most pmax x kChunkFree elements; a chunk of L elements is laid out as a [rows, cols] tile,
// cols = ceil(L / pmax), rows = floor(L / cols), element start + p * cols + f on partition p, free
// index f, plus a one-partition tail of the L - rows * cols remaining elements. DMAs read the
// strided HBM vector directly (negative increments as negative strides).
//   Reductions, accumulation order: (1) per partition, left to right over the free axis of each
//   chunk (tensor_reduce, fp32); (2) per partition, chunk partials in chunk order onto an fp32
//   accumulator column that starts at 0 (tensor_tensor); (3) across partitions: the [pmax, 1]
//   column is turned into one [1, pmax] row by VectorE transposes of vector_transpose_max blocks
//   (bit exact) and reduced left to right, i.e. in increasing partition order. Every term of a
//   sum of n elements therefore passes through at most n + 2 roundings (its own product or square,
//   the free-axis adds, one accumulator add, the partition adds), so |error| <= gamma_{n+2} *
//   sum |terms| (Higham, Thm 3.1 / eq. 3.4), and much less in practice (depth ~ n/pmax + pmax).
//   nrm2: pass 1 finds max|x_i| (|x| as abs_max(x, 0), maximum reductions, NaN propagating); the
//   host picks the power of
//   two 2^-e that maps it into [1, 2) and pass 2 computes sqrt(sum (2^-e x_i)^2) * 2^e: the
//   scaling is exact (only elements below 2^-149 * max|x| could be lost, far below the rounding
//   error), the squares cannot overflow, and squares below fp32's range are negligible against
//   the largest one (>= 1). This is the purpose of Blue's algorithm (ACM TOMS 4(1), 1978) with one
//   more pass and no thresholds; relative error <= (n + 2) u / 2 + 2 u.
//   Short vectors (n <= pmax): a reduction runs on one partition ([1, n]: run_short_reduction, the
//   same fold order and bits without the accumulator column's transposes), and nrm2 is one program
//   (short_nrm2: the scale factors from max|x_i| by a GpSimdE custom operator instead of the host).
//   i?amax/i?amin: pass 1 the extreme |x_i| (or NaN), pass 2 a key (2^24 - index) on the lanes
//   that match it (or hold a NaN), maximum-reduced: the first index wins. Indices are exact fp32
//   integers, hence n < 2^24. For n <= pmax the index is one GpSimdE custom operator between two
//   DMAs (short_index_of_extreme: integer compares of the words' magnitudes, the same index).
// double: no engine computes in fp64. dot, asum and nrm2 are reductions and run as the fp64 slice
// pairs (detail::dgemv_row: exact slice-pair products on TensorE, an exact fold on the host side);
// axpy, scal, rot, rotm (elementwise) and i?amax/i?amin (comparisons) run on the host CPU, each
// as one costed host round trip (trnblas.<routine>.host; docs/cost-model.md section 7), as do
// nrm2's scan and scaling and asum's sign clearing; copy and swap are data movement only.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <memory>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "level12_internal.hpp"
#include "ozaki.hpp"
#include "trn/blas/level12.hpp"
#include "trn/core/report_observer.hpp"
#include "trn/tile/view.hpp"

namespace trn::blas {

namespace l12 {
Report::~Report() {
  if (r_ == nullptr) return;
  // The C entry point's registration lent to the nested report (sub()) comes back. When the call was
  // that one nested call and its schedule waits under this call's own report settings, this call's
  // waits too: the same trace under the same settings (what the take-over below would give).
  if (detail::DeferredProfile* d = sub_ ? &detail::deferred_profile() : nullptr; d != nullptr && d->report == &*sub_) {
    d->report = r_;
    d->fresh = false;
    const ReportSettings own = ReportSettings::of(s_);
    if (d->deferred && subs_ == 1 && subs_added_ == 1 && !own_trace_ && !s_.report_trace_only &&
        d->settings.target == own.target && d->settings.cores == own.cores && !d->settings.trace_only) {
      r_->tensor_passes = sub_->tensor_passes;
      r_->trace = std::move(trace_);
      return;
    }
    d->deferred = false;
  }
  // A call that is exactly one nested call (a Level 2 call's GEMM) has the nested report's trace; when
  // that report was the last one finished on this thread, under the report settings s_ gives, it is
  // taken over instead of modeled a second time (the same trace and settings give the same profile).
  // Under a report observer (the Python bindings) every report is modeled, as before.
  if (subs_ == 1 && subs_added_ == 1 && !own_trace_ && detail::finished_last_under(*sub_, s_) &&
      !trn::thread_report_observed()) {
    r_->tensor_passes = sub_->tensor_passes;
    r_->profile = std::move(sub_->profile);
    r_->trace = std::move(trace_);
    return;
  }
  r_->finish(s_, std::move(trace_));
}
}  // namespace l12

namespace {

using l12::first;

// A contiguous copy of a strided vector on the scratch stack (as every Level 1 temporary an engine or
// host step reads or writes as HBM: its trace names it by allocation, docs/cost-model.md section 2).
template <class T>
ScratchVector<T> gather(const T* x, std::int64_t n, std::int64_t inc) {
  return l12::gather<T, ScratchAllocator<T>>(x, n, inc);
}

constexpr std::int64_t kChunkFree = 2048;  // free elements per partition per chunk (8 KiB of fp32)
constexpr float kIndexBase = 16777216.0f;  // 2^24: keys 2^24 - i are exact fp32 integers for i < 2^24

struct Piece {
  std::int64_t start;  // first element
  std::int32_t rows;   // partitions
  std::int64_t cols;   // free elements per partition
};

// Calls f(piece) for the pieces of an n-vector in order (chunk by chunk; a chunk's one-partition
// tail after its [rows, cols] block). No list is built: a small call walks one or two pieces.
template <class F>
void for_each_piece(std::int64_t n, std::int64_t P, F&& f) {
  for (std::int64_t c0 = 0; c0 < n; c0 += P * kChunkFree) {
    const std::int64_t len = std::min(P * kChunkFree, n - c0);
    const std::int64_t cols = (len + P - 1) / P, rows = len / cols, tail = len - rows * cols;
    f(Piece{c0, static_cast<std::int32_t>(rows), cols});
    if (tail > 0) f(Piece{c0 + rows * cols, 1, tail});
  }
}

// A non-owning reference to a callable (the callable outlives the call it is passed to): a
// Level 1 call's kernel bodies are lambdas called during the launch, and std::function would
// copy each one that captures more than two pointers to the heap, several times per call.
template <class Sig>
class FnRef;
template <class R, class... A>
class FnRef<R(A...)> {
 public:
  FnRef() = default;
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, FnRef>)
  FnRef(F&& f)  // NOLINT(google-explicit-constructor): passed as lambdas, like std::function
      : obj_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o, A... a) -> R { return (*static_cast<std::remove_reference_t<F>*>(o))(std::forward<A>(a)...); }) {}
  explicit operator bool() const { return call_ != nullptr; }
  R operator()(A... a) const { return call_(obj_, std::forward<A>(a)...); }

 private:
  void* obj_ = nullptr;
  R (*call_)(void*, A...) = nullptr;
};

// N Tile slots left unconstructed until written: a Tile is ~120 bytes, and value-initialising the 32
// slots of a Level 1 program (ProgramTiles' 16, run_pieces' buffers and views) on every call was
// ~4 KB of stores for the 2-6 tiles it uses (session 20; host only).
static_assert(std::is_trivially_copyable_v<Tile> && std::is_trivially_destructible_v<Tile>);
template <std::size_t N>
class TileSlots {
 public:
  TileSlots() {}  // NOLINT(modernize-use-equals-default): = default would value-initialise raw_ in `TileSlots x{}`
  Tile& set(std::size_t i, const Tile& t) { return *std::construct_at(data() + i, t); }
  Tile& operator[](std::size_t i) { return data()[i]; }
  Tile* data() { return std::launder(reinterpret_cast<Tile*>(raw_)); }

 private:
  alignas(Tile) std::byte raw_[N * sizeof(Tile)];
};

// The SBUF tiles of one Level 1 program, freed in reverse order at its end (AllocScope's contract,
// in a fixed array: AllocScope's vector was several heap allocations per call).
class ProgramTiles {
 public:
  explicit ProgramTiles(OnChipMemory& m) : mem_(m) {}
  ProgramTiles(const ProgramTiles&) = delete;
  ProgramTiles& operator=(const ProgramTiles&) = delete;
  ~ProgramTiles() {
    for (int i = count_ - 1; i >= 0; --i) mem_.free(tiles_[static_cast<std::size_t>(i)]);
  }
  Tile alloc(DType dtype, std::int32_t partitions, std::initializer_list<std::int64_t> free_shape, std::string_view name,
             AllocFill fill) {
    if (count_ == kMax) throw Error("trnblas Level 1: more SBUF tiles than ProgramTiles holds");
    const Tile& t = tiles_.set(static_cast<std::size_t>(count_), mem_.alloc(dtype, partitions, free_shape, name, 0, fill));
    ++count_;
    return t;
  }

 private:
  static constexpr int kMax = 16;
  OnChipMemory& mem_;
  TileSlots<kMax> tiles_;
  int count_ = 0;
};

// A vector in HBM by its element 0 and storage type: fp32, or 16-bit (f16, bf16) data that the DMA
// converts to fp32 on load (exact) and rounds back on store (RNE), the *Ex forms' 16-bit data.
struct Vec {
  const void* p = nullptr;
  DType dt = DType::f32;
  Vec(const float* f) : p(f) {}  // NOLINT(google-explicit-constructor): fp32 is the common case
  Vec(const void* q, DType t) : p(q), dt(t) {}
  // Element 0 of the BLAS vector x (n elements, increment inc; inc < 0: the last one stored).
  static Vec first(const void* x, DType t, std::int64_t n, std::int64_t inc) {
    const auto* b = static_cast<const std::byte*>(x);
    return {inc < 0 && n > 0 ? b + (n - 1) * -inc * dtype_size(t) : b, t};
  }
};

// The elements of piece pc of the vector whose element 0 is at x0 (step inc) as an HBM tile.
// (the Tile tile::hbm_view(base, dt, rows, cols * inc, {{cols, inc}}) returns, without an HbmTensor.)
// Built field by field (session 20, host only): tile::hbm_view's pattern object and overflow checks
// were ~200 host instructions per DMA operand, a few per cent of a short Level 1 call; the byte
// offsets here are those of the caller's own vector, so they cannot overflow.
Tile hbm_piece(Vec x0, std::int64_t inc, const Piece& pc) {
  const std::int64_t es = dtype_size(x0.dt);
  Tile t;
  t.mem = MemSpace::hbm;
  t.dtype = x0.dt;
  t.base = static_cast<std::byte*>(const_cast<void*>(x0.p)) + pc.start * inc * es;
  t.partitions = pc.rows;
  t.partition_stride = pc.cols * inc * es;
  t.ndim = 1;
  t.size = {pc.cols, 1, 1, 1};
  t.stride = {inc, 0, 0, 0};
  return t;
}

// One element of HBM: the Tile tile::hbm_view(v, dt, 1, 1, {{1, 1}}) returns, field for field, without
// its pattern object and overflow checks (session 23, host only: a reduction's result DMA).
Tile hbm_scalar(void* v, DType dt = DType::f32) { return hbm_piece(Vec(v, dt), 1, Piece{0, 1, 1}); }

// One program over the pieces of an n-vector: `buffers` SBUF tiles [min(pmax, n), F] ([1, F] for
// one_partition), column blocks of one allocation, are handed to body as [rows, cols] views of each
// piece.
using PieceBody = FnRef<void(NeuronCore&, const Piece&, std::span<const Tile>)>;
using Setup = FnRef<void(NeuronCore&, ProgramTiles&)>;

// How a program lays the vector into SBUF: in chunks down the partitions (above), or, for a short
// vector (one_partition: n <= pmax), as one piece [1, n] along one partition's free axis.
// elementwise: chunks for n > pmax, one piece [1, n] otherwise. Only for bodies whose every output
// element is the same instruction sequence on its own input elements (axpy, scal, rot, copy, swap,
// the complex planes' products): the layout changes which partition computes an element, not its
// roundings, so the bits are those of the chunk layout; one [1, n] row is one DMA descriptor per
// contiguous run and one instruction row instead of n one-element partitions (docs/trnblas.md).
enum class Layout { chunks, one_partition, elementwise };

// chunk_fill: AllocFill::none when every body writes each buffer view before reading it.
// kWrittenBeforeRead: the bodies of axpy, scal, rot/rotm, copy and swap, whose buffers are each a
// DMA's or an instruction's destination before any read (the fill is host work only: no
// instruction, no device time; memory.hpp).
constexpr AllocFill kWrittenBeforeRead = AllocFill::none;
void run_pieces(const Settings& s, std::int64_t n, int buffers, l12::Report& rep, Setup setup, PieceBody body,
                FnRef<void(NeuronCore&)> finish = {}, AllocFill chunk_fill = AllocFill::poison,
                Layout layout = Layout::elementwise) {
  const std::int64_t P = hardware_spec(s.target).pmax;
  const bool one_partition = layout == Layout::one_partition || (layout == Layout::elementwise && n <= P);
  const std::int64_t F = one_partition ? n : std::min(kChunkFree, (n + P - 1) / P);
  constexpr int kMaxBuffers = 8;  // the most any Level 1 body uses (complex rotations)
  if (buffers > kMaxBuffers) throw Error("trnblas run_pieces: more vector buffers than kMaxBuffers");
  if (one_partition && n > P) throw Error("trnblas run_pieces: a one-partition vector is at most pmax long");
  const auto nb = static_cast<std::size_t>(buffers);
  const auto program = [&](NeuronCore& nc) {
    ProgramTiles sb(nc.sbuf());
    TileSlots<kMaxBuffers> buf, view;  // on the stack: no allocation per call
    // The partitions a piece can use: a chunked vector of n <= pmax elements is one [n, 1] piece
    // (for_each_piece), so its buffers are n partitions tall and the piece fills them (no views below).
    const auto rows = static_cast<std::int32_t>(one_partition ? 1 : std::min(P, n));
    // The nb buffers as column blocks of ONE allocation, each block padded to the allocation
    // alignment: first fit on the program's empty SBUF puts nb separate [rows, F] allocations at
    // offsets b * Fpad * 4 bytes, so every view is the Tile those allocations returned, field for
    // field (the same trace records), for one allocator call instead of nb (session 20; host only).
    constexpr std::int64_t kAlignFloats = kAllocAlignBytes / static_cast<std::int64_t>(sizeof(float));
    const std::int64_t Fpad = (F + kAlignFloats - 1) / kAlignFloats * kAlignFloats;
    if (nb > 0) {
      const Tile all = sb.alloc(DType::f32, rows, {static_cast<std::int64_t>(nb) * Fpad}, "vector chunks", chunk_fill);
      for (std::size_t b = 0; b < nb; ++b) {  // all.cols(b * Fpad, F), without Tile::slice's checks
        const std::int64_t at = static_cast<std::int64_t>(b) * Fpad * static_cast<std::int64_t>(sizeof(float));
        Tile& v = buf.set(b, all);
        v.base += at;
        v.offset_bytes += at;
        v.size[0] = F;
      }
    }
    if (setup) setup(nc, sb);
    const auto run_body = [&](const Piece& pc) {
      // A piece that fills its buffers (a short vector's one piece) is handed the buffers themselves:
      // rows(0, all) and cols(0, all) are the same Tile, field for field.
      if (nb > 0 && pc.rows == buf[0].partitions && pc.cols == F) return body(nc, pc, std::span<const Tile>(buf.data(), nb));
      for (std::size_t b = 0; b < nb; ++b) view.set(b, buf[b].rows(0, pc.rows).cols(0, pc.cols));
      body(nc, pc, std::span<const Tile>(view.data(), nb));
    };
    if (one_partition)
      run_body(Piece{0, 1, n});
    else
      for_each_piece(n, P, run_body);
    if (finish) finish(nc);
  };
  // The launch's std::function holds one reference (stored in place, no heap copy of the lambda).
  LaunchResult r = launch(s.launch_config(), [&program](NeuronCore& nc) { program(nc); });
  rep.add(std::move(r.trace));
}

// A reduction: partial(nc, piece, views, part[rows, 1]) writes each partition's partial of a
// piece; partials combine with `combine` onto an accumulator column initialised to `init`; the
// column is reduced across partitions with `combine` into a [1, 1] tile, epilogue may transform
// it (on the engines), and the value is returned.
using Partial = FnRef<void(NeuronCore&, const Piece&, std::span<const Tile>, const Tile&)>;
using Epilogue = FnRef<void(NeuronCore&, const Tile&)>;

// The reduction of a vector of n <= pmax elements. The chunk layout would put one element on each
// partition, so the partition partials would be the elements themselves, each combined onto `init`,
// and the cross-partition pass would fold them in partition (= element) order, then the unused
// partitions' `init`s. Laid along one partition ([1, n], Layout::one_partition) the partial's
// free-axis fold is the same fold in the same order, and one combine onto `init` follows it:
// the same value for add (init +0: x + 0 = x for x != -0, and a sum is -0 only if every term is,
// which the one trailing +0 turns into +0 as the per-element combines did), maximum (init 0 below
// values >= 0) and minimum (init +inf), with NaN propagated from the same first NaN. No partition
// accumulator, no transposes and no cross-partition fold: 5 instructions fewer (docs/trnblas.md).
// partial_is_result: the one combine onto `init` is known to return the partial's bits (asum: a
// sum of |x_i| is +0, positive, +Inf or NaN, never -0, so +0 + it is itself), and the partial is
// written straight into the accumulator: no memset, no combine (2 instructions fewer, same value).
float run_short_reduction(const Settings& s, std::int64_t n, int buffers, AluOp combine, float init, l12::Report& rep,
                          Partial partial, Epilogue epilogue, const Vec* typed, bool partial_is_result = false) {
  float result = 0.0f;
  Tile acc;
  run_pieces(
      s, n, buffers, rep,
      [&](NeuronCore&, ProgramTiles& sb) {
        constexpr AllocFill kWrittenFirst = AllocFill::none;  // the partial writes it
        acc = sb.alloc(DType::f32, 1, {1}, "accumulator", kWrittenFirst);
      },
      [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
        partial(nc, pc, v, acc);
        if (partial_is_result) return;
        // init combine partial as ONE tensor_scalar with the immediate as its first operand (reverse0):
        // the same operation on the same operands in the same order as the memset of the accumulator
        // to init and tensor_tensor(acc, acc, partial) it replaces (session 20: one instruction and
        // one SBUF tile fewer, the same bits).
        nc.tensor_scalar(acc, acc, combine, init, AluOp::bypass, 0.0f, Engine::vector, /*reverse0=*/true);
      },
      [&](NeuronCore& nc) {
        if (epilogue) epilogue(nc, acc);
        nc.dma_copy(hbm_scalar(&result), acc);
        if (typed != nullptr) nc.dma_copy(hbm_scalar(const_cast<void*>(typed->p), typed->dt), acc);
      },
      AllocFill::none, Layout::one_partition);
  return result;
}

// `typed`, when given, also receives the result in its storage type (the DMA rounds it).
float run_reduction(const Settings& s, std::int64_t n, int buffers, AluOp combine, float init, l12::Report& rep,
                    Partial partial, Epilogue epilogue = {}, const Vec* typed = nullptr, bool partial_is_result = false) {
  if (n <= hardware_spec(s.target).pmax)
    return run_short_reduction(s, n, buffers, combine, init, rep, partial, epilogue, typed, partial_is_result);
  float result = 0.0f;
  Tile acc, part, row, out;
  run_pieces(
      s, n, buffers, rep,
      [&](NeuronCore& nc, ProgramTiles& sb) {
        // Each of these is written in full before it is read (acc by the memset, part's rows by the
        // partial, row by the transposes, out by the reduction), so none needs the poison fill.
        const auto P = static_cast<std::int32_t>(nc.hw().pmax);
        constexpr AllocFill kWrittenFirst = AllocFill::none;
        acc = sb.alloc(DType::f32, P, {1}, "partition accumulator", kWrittenFirst);
        part = sb.alloc(DType::f32, P, {1}, "chunk partial", kWrittenFirst);
        row = sb.alloc(DType::f32, 1, {P}, "partials as one row", kWrittenFirst);
        out = sb.alloc(DType::f32, 1, {1}, "result", kWrittenFirst);
        nc.memset(acc, init);
      },
      [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
        const Tile p = part.rows(0, pc.rows);
        partial(nc, pc, v, p);
        nc.tensor_tensor(acc.rows(0, pc.rows), acc.rows(0, pc.rows), p, combine);
      },
      [&](NeuronCore& nc) {
        const std::int32_t P = acc.partitions, blk = nc.hw().vector_transpose_max;
        for (std::int32_t b = 0; b < P; b += blk) {
          const std::int32_t w = std::min(blk, P - b);
          nc.nc_transpose(row.cols(b, w), acc.rows(b, w), Engine::vector);
        }
        nc.tensor_reduce(out, row, combine);
        if (epilogue) epilogue(nc, out);
        nc.dma_copy(hbm_scalar(&result), out);
        if (typed != nullptr) nc.dma_copy(hbm_scalar(const_cast<void*>(typed->p), typed->dt), out);
      },
      AllocFill::none);  // every partial (dot, asum, nrm2, i?amax/min, cdot) loads or writes its views first
  return result;
}

// max |x_i| (maximum) or min |x_i| (minimum), NaN if any x_i is NaN.
float extreme_abs(const Settings& s, std::int64_t n, Vec x0, std::int64_t inc, bool largest, l12::Report& rep) {
  return run_reduction(s, n, 1, largest ? AluOp::maximum : AluOp::minimum,
                       largest ? 0.0f : std::numeric_limits<float>::infinity(), rep,
                       [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v, const Tile& part) {
                         nc.dma_copy(v[0], hbm_piece(x0, inc, pc));
                         nc.tensor_scalar(v[0], v[0], AluOp::abs_max, 0.0f);  // |x| (NaN stays NaN)
                         nc.tensor_reduce(part, v[0], largest ? AluOp::maximum : AluOp::minimum);
                       });
}

// The 1-based index i?amax (largest) / i?amin (smallest) returns for the fp32 words x[0 .. n), n >= 1,
// in integer arithmetic on their bit patterns: the first NaN if any, else the first i with |x_i|
// extreme. With the sign bit cleared (a = bits & 0x7fffffff: |x| exactly, -0 as +0) a non-NaN fp32
// value orders as its pattern does, and a > 0x7f800000 (an all-ones exponent with a nonzero
// fraction) is exactly a NaN, so the comparisons are those of the fp32 values.
std::int64_t index_of_extreme_bits(const std::byte* x, std::int64_t n, bool largest) {
  constexpr std::uint32_t kMagnitude = 0x7fffffffu, kInfBits = 0x7f800000u;
  std::int64_t best_i = 0;
  std::uint32_t best = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint32_t a = 0;
    std::memcpy(&a, x + i * 4, sizeof a);
    a &= kMagnitude;
    if (a > kInfBits) return i + 1;  // the first NaN
    if (i == 0 || (largest ? a > best : a < best)) {
      best = a;
      best_i = i;
    }
  }
  return best_i + 1;
}

// i?amax / i?amin of n <= pmax elements in ONE program of three instructions (session 23, issue
// #30): x onto one partition ([1, n]) by DMA, one GpSimdE custom operator (index_of_extreme_bits:
// integer compares of the words' magnitudes, the first NaN or the first extreme |x_i|) writing the
// index as an fp32 integer (exact: n <= pmax < 2^24) to a [1, 1] tile, and one DMA of it to the host.
// Algorithm   Linear scan with strict comparisons (the first index wins ties), NaN first: the result
//             session 17's ten-instruction VectorE program gave for every input -- its m = max (min)
//             |x| by IEEE maximum (minimum) is NaN when any x_i is, its mask max(|x| == m, x != x)
//             then marks exactly the NaN lanes, and otherwise the lanes whose |x| equals m -- and the
//             same index the general path (n > pmax) and the reference loop give.
// Engines     DMA, GpSimdE (custom operator; declared gpsimd_start + 2n cycles: one load and one
//             compare-select per element, as iota and affine_select's start-up plus N).
// Accuracy    Exact (comparisons only: no rounding anywhere).
// Limits      n <= pmax (one partition's free axis); larger n take the two-pass path below. New trace
//             and modeled time for these calls (3 instructions instead of 10; docs/trnblas.md,
//             "Session 23"); the same index for every input.
// The GpSimdE operator of short_index_of_extreme: the 1-based index (index_of_extreme_bits) of the
// words of v[0] (one dense [1, cols] run) into column 0 of v[1], then that word out to `index` by DMA.
void index_of_extreme_operator(NeuronCore& nc, std::span<const Tile> v, std::int64_t cols, bool largest, float* index) {
  const Tile outputs[] = {v[1].cols(0, 1)};
  const double cycles = nc.hw().gpsimd_start + 2.0 * static_cast<double>(cols);
  nc.custom_op(largest ? "index_of_max_abs" : "index_of_min_abs", outputs, v.first(1), cycles,
               [largest](const CustomOpContext& ctx) {
                 const Tile& x = ctx.inputs[0];  // one dense run of fp32 words
                 const auto i = static_cast<float>(index_of_extreme_bits(x.at(0, 0), x.free_size(), largest));
                 std::memcpy(ctx.outputs[0].at(0, 0), &i, sizeof i);
               });
  nc.dma_copy(hbm_scalar(index), outputs[0]);
}

std::int64_t short_index_of_extreme(const Settings& s, std::int64_t n, const float* x0, std::int64_t inc, bool largest,
                                    l12::Report& rep) {
  float index = 0.0f;  // timing-only runs do not execute the operator: 0, reported as 1 below
  // Buffers [1, n]: x, and the index in column 0 of the second (the program's one allocation).
  run_pieces(
      s, n, 2, rep, {},
      [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
        nc.dma_copy(v[0], hbm_piece(x0, inc, pc));
        index_of_extreme_operator(nc, v, pc.cols, largest, &index);
      },
      {}, AllocFill::none, Layout::one_partition);
  return index >= 1.0f ? static_cast<std::int64_t>(index) : 1;
}

std::int64_t index_of_extreme(const Settings& s, std::int64_t n, const float* x, std::int64_t inc, bool largest,
                              l12::Report& rep) {
  if (n <= 0 || inc <= 0) return 0;
  if (n >= (std::int64_t{1} << 24))
    throw NotSupportedError("trnblas i?amax/i?amin", "n", "float indices are exact below 2^24 elements");
  const float* x0 = x;  // inc > 0
  if (n <= hardware_spec(s.target).pmax) return short_index_of_extreme(s, n, x0, inc, largest, rep);
  const float m = extreme_abs(s, n, x0, inc, largest, rep);
  const bool nan = std::isnan(m);
  // Pass 2: key = (2^24 - index) on matching lanes, 0 elsewhere; the largest key is the first match.
  const float key = run_reduction(
      s, n, 2, AluOp::maximum, 0.0f, rep,
      [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v, const Tile& part) {
        nc.dma_copy(v[0], hbm_piece(x0, inc, pc));
        if (nan) {
          nc.tensor_tensor(v[0], v[0], v[0], AluOp::not_equal);  // 1 on NaN lanes
        } else {
          nc.tensor_scalar(v[0], v[0], AluOp::abs_max, 0.0f, AluOp::equal, m);  // |x| == m
        }
        const std::array<std::int64_t, 2> pat{1, pc.cols};
        nc.iota(v[1], std::span(&pat, 1), pc.start + 1, pc.cols);  // 1-based indices (GpSimdE)
        nc.tensor_scalar(v[1], v[1], AluOp::subtract, kIndexBase, AluOp::multiply, -1.0f);  // 2^24 - i
        nc.tensor_tensor(v[0], v[0], v[1], AluOp::multiply);
        nc.tensor_reduce(part, v[0], AluOp::maximum);
      });
  return key > 0.0f ? static_cast<std::int64_t>(kIndexBase - key) : 1;
}

// ---- double: host side (elementwise, comparisons) and Ozaki (reductions) -----------------------

// x^T y as the fp64 Level 1/2 product (1 x 1 x n, detail::dgemv_row): x as a 1 x n row (ld = inc),
// y read transposed.
double fp64_dot(const Settings& s, std::int64_t n, const double* x, std::int64_t incx, const double* y,
                 std::int64_t incy, l12::Report& rep) {
  ScratchVector<double> xg, yg;
  if (incx <= 0) {
    xg = gather(x, n, incx);
    x = xg.data();
    incx = 1;
  }
  if (incy <= 0) {
    yg = gather(y, n, incy);
    y = yg.data();
    incy = 1;
  }
  double r = 0.0;
  detail::dgemv_row(s, Op::T, 1, n, 1.0, x, incx, y, incy, 0.0, &r, 1, rep.sub());
  rep.add_sub();
  return r;
}

template <class T>
std::int64_t host_index_of_extreme(std::int64_t n, const T* x, std::int64_t inc, bool largest) {
  if (n <= 0 || inc <= 0) return 0;
  std::int64_t best = 0;
  T m = std::fabs(x[0]);
  for (std::int64_t i = 0; i < n; ++i) {
    const T a = std::fabs(x[i * inc]);
    if (std::isnan(a)) return i + 1;  // first NaN
    if (std::isnan(m) || (largest ? a > m : a < m)) {
      m = a;
      best = i;
    }
  }
  return best + 1;
}

// The host round trip of an elementwise fp64 routine (docs/cost-model.md section 7): x (and y) to
// the host, `flops` there, the written vectors back. `writes_x` / `writes_y` say which are written.
template <class T>
void elementwise_round_trip(l12::Report& rep, std::string_view name, double flops, std::int64_t n, const T* x,
                            std::int64_t incx, bool writes_x, const T* y = nullptr, std::int64_t incy = 1,
                            bool writes_y = false) {
  const HostSpan xs = l12::vec_span(x, n, incx), ys = y != nullptr ? l12::vec_span(y, n, incy) : HostSpan{};
  rep.host_step(HostStep{.name = name, .flops = flops, .reads = {xs, ys},
                         .writes = {writes_x ? xs : HostSpan{}, writes_y ? ys : HostSpan{}}});
}

// The reference BLAS runs its elementwise loops one element at a time, so a written vector with
// inc == 0 sees every update in turn (netlib's xblat1 calls swap, rot and axpy so; cuBLAS documents
// no error for it). A DMA cannot write a zero-stride destination, so such a call runs element by
// element in the reference order: one_at_a_time calls f(x_i, y_i) for i = 0 .. n - 1.
template <class X, class Y, class F>
bool one_at_a_time(bool zero_written_inc, std::int64_t n, X* x, std::int64_t incx, Y* y, std::int64_t incy, F&& f) {
  if (!zero_written_inc) return false;
  X* x0 = first(x, n, incx);
  Y* y0 = first(y, n, incy);
  for (std::int64_t i = 0; i < n; ++i) f(x0 + i * incx, y0 + i * incy);
  return true;
}

// (x, y) = (fl(fl(h11 x) + fl(h12 y)), fl(fl(h21 x) + fl(h22 y))) on VectorE, x and y of n elements
// with element 0 at x0 / y0 (rot: h = [c s; -s c]; rotm: its param's H). Multiplying by +-1 is exact,
// so rotm's flags 0 and 1 (implicit unit entries) round exactly as the reference loops do.
// Elementwise calls of at most kColumnLayoutMaxN elements (LAPACK's rotations and updates of 1-10
// elements: xlintsts' SPB line makes 822k srot calls, most of n = 1 or 2) lay the vector down the
// partitions as an [n, 1] column (Layout::chunks gives exactly that for n <= pmax), so that the second
// vector of a two-vector update can be a per-partition scalar operand of tensor_scalar: the product
// and the add in one instruction, (a op0 s) op1 b with op1's operands in the original order
// (reverse1), each step rounded to fp32 as the separate tensor_scalar and tensor_tensor were. Same
// bits; one instruction fewer per output vector (rot 10 -> 8, axpy 5 -> 4); new trace and modeled
// time (docs/trnblas.md, "Short elementwise calls as columns").
constexpr std::int64_t kColumnLayoutMaxN = 4;  // measured: a gain up to n = 4 (host instructions), none at 8

void apply_2x2(const Settings& s, std::int64_t n, Vec x0, std::int64_t incx, Vec y0, std::int64_t incy,
               const std::array<float, 4>& h, l12::Report& rep) {
  if (n <= kColumnLayoutMaxN) {
    run_pieces(s, n, 4, rep, {}, [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
      nc.dma_copy(v[0], hbm_piece(x0, incx, pc));
      nc.dma_copy(v[1], hbm_piece(y0, incy, pc));
      nc.tensor_scalar(v[2], v[1], AluOp::multiply, h[1]);  // h12 y
      nc.tensor_scalar(v[3], v[0], AluOp::multiply, h[2]);  // h21 x
      // x' = fl(fl(h11 x) + h12 y), y' = fl(h21 x + fl(h22 y)): the sums' operands in the general path's order.
      nc.tensor_scalar(v[0], v[0], AluOp::multiply, h[0], AluOp::add, v[2]);
      nc.tensor_scalar(v[1], v[1], AluOp::multiply, h[3], AluOp::add, v[3], Engine::vector, false, /*reverse1=*/true);
      nc.dma_copy(hbm_piece(x0, incx, pc), v[0]);
      nc.dma_copy(hbm_piece(y0, incy, pc), v[1]);
    }, {}, kWrittenBeforeRead, Layout::chunks);
    return;
  }
  run_pieces(s, n, 4, rep, {}, [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
    nc.dma_copy(v[0], hbm_piece(x0, incx, pc));
    nc.dma_copy(v[1], hbm_piece(y0, incy, pc));
    nc.tensor_scalar(v[2], v[0], AluOp::multiply, h[0]);  // h11 x
    nc.tensor_scalar(v[3], v[1], AluOp::multiply, h[1]);  // h12 y
    nc.tensor_tensor(v[2], v[2], v[3], AluOp::add);       // x' = h11 x + h12 y
    nc.tensor_scalar(v[1], v[1], AluOp::multiply, h[3]);  // h22 y
    nc.tensor_scalar(v[0], v[0], AluOp::multiply, h[2]);  // h21 x
    nc.tensor_tensor(v[1], v[0], v[1], AluOp::add);       // y' = h21 x + h22 y
    nc.dma_copy(hbm_piece(x0, incx, pc), v[2]);
    nc.dma_copy(hbm_piece(y0, incy, pc), v[1]);
  }, {}, kWrittenBeforeRead);
}

// The full H of a rotm param (flag -1, 0, 1); flag -2 (identity) is handled by the callers.
template <class T>
std::array<T, 4> rotm_matrix(const T* param) {
  const T flag = param[0];
  if (flag == T(0)) return {T(1), param[3], param[2], T(1)};
  if (flag == T(1)) return {param[1], T(1), T(-1), param[4]};
  return {param[1], param[3], param[2], param[4]};
}

// y = alpha x + y: fl(fl(alpha x) + y) per element, as the reference BLAS.
void axpy_kernel(const Settings& s, std::int64_t n, float alpha, Vec x0, std::int64_t incx, Vec y0, std::int64_t incy,
                 l12::Report& rep) {
  if (n <= kColumnLayoutMaxN) {  // [n, 1] columns: y read as the per-partition scalar of the add (see apply_2x2)
    run_pieces(s, n, 2, rep, {}, [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
      nc.dma_copy(v[0], hbm_piece(x0, incx, pc));
      nc.dma_copy(v[1], hbm_piece(y0, incy, pc));
      nc.tensor_scalar(v[1], v[0], AluOp::multiply, alpha, AluOp::add, v[1]);  // fl(fl(alpha x) + y)
      nc.dma_copy(hbm_piece(y0, incy, pc), v[1]);
    }, {}, kWrittenBeforeRead, Layout::chunks);
    return;
  }
  run_pieces(s, n, 2, rep, {}, [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
    nc.dma_copy(v[0], hbm_piece(x0, incx, pc));
    nc.dma_copy(v[1], hbm_piece(y0, incy, pc));
    nc.tensor_scalar(v[0], v[0], AluOp::multiply, alpha);  // fl(alpha x)
    nc.tensor_tensor(v[1], v[0], v[1], AluOp::add);        // fl(fl(alpha x) + y)
    nc.dma_copy(hbm_piece(y0, incy, pc), v[1]);
  }, {}, kWrittenBeforeRead);
}

// x = alpha x (incx > 0).
void scal_kernel(const Settings& s, std::int64_t n, float alpha, Vec x, std::int64_t incx, l12::Report& rep) {
  run_pieces(s, n, 1, rep, {}, [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
    nc.dma_copy(v[0], hbm_piece(x, incx, pc));
    nc.tensor_scalar(v[0], v[0], AluOp::multiply, alpha);
    nc.dma_copy(hbm_piece(x, incx, pc), v[0]);
  }, {}, kWrittenBeforeRead);
}

// sum x_i y_i, each product rounded once, then the reduction order of run_reduction.
float dot_kernel(const Settings& s, std::int64_t n, Vec x0, std::int64_t incx, Vec y0, std::int64_t incy,
                 l12::Report& rep, const Vec* typed = nullptr) {
  return run_reduction(
      s, n, 2, AluOp::add, 0.0f, rep,
      [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v, const Tile& part) {
        nc.dma_copy(v[0], hbm_piece(x0, incx, pc));
        nc.dma_copy(v[1], hbm_piece(y0, incy, pc));
        nc.tensor_tensor(v[0], v[0], v[1], AluOp::multiply);
        nc.tensor_reduce(part, v[0], AluOp::add);
      },
      {}, typed);
}

// The factors of nrm2's scaling, {2^e1, 2^e2, 2^-e1, 2^-e2, cap} with e1 + e2 = -ilogb(m): 2^-e
// maps m into [1, 2); two factors keep each a normal fp32 (|e| <= 149); cap (+Inf: no effect) bounds
// the sum of squares before the square root. For m = 0 or NaN the factors are 1, so that the
// scaled pass returns m itself (short_nrm2); for m = Inf the sum of squares (Inf) is capped at 1,
// inside ScalarE sqrt's valid range (2^-116 .. 2^118; Inf would give NaN), and 1 * 2^127 * 2^127
// overflows to the result, Inf.
std::array<float, 5> nrm2_scale_factors(float m) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  if (std::isinf(m)) return {1.0f, 1.0f, 0x1p127f, 0x1p127f, 1.0f};
  if (std::isnan(m) || m == 0.0f) return {1.0f, 1.0f, 1.0f, 1.0f, kInf};
  const int e = std::ilogb(m);
  const int e1 = -e / 2, e2 = -e - e1;
  return {std::ldexp(1.0f, e1), std::ldexp(1.0f, e2), std::ldexp(1.0f, -e1), std::ldexp(1.0f, -e2), kInf};
}

// nrm2 of n <= pmax elements as ONE program on one partition ([1, n], Layout::one_partition):
//   |x| (VectorE) -> m = max |x_i| (tensor_reduce maximum) -> the scale factors from m on GpSimdE
//   (a custom operator: nrm2_scale_factors, exponent arithmetic on one value) -> |x| times the two
//   down factors, read as per-partition scalar tiles -> squares and their sum (ScalarE square with
//   reduce_dst) -> min(sum, cap) -> sqrt (ScalarE) -> times the two up factors -> HBM.
// The same bits as the two-pass chunked path (pass 1 on the host's side of a launch boundary, the
// factors picked on the host): the squares of |x_i| and x_i are equal, the free-axis folds are the
// partition folds in the same order, and the accumulators' combines with +0 are identities here
// (a maximum of values >= +0, and a sum of squares, are never -0; NaN passes unchanged). For m = 0,
// Inf or NaN the factors are 1 and the sum of squares is m itself: +0, +Inf (no NaN present), or the
// same first NaN the maximum fold propagated (both folds pass a NaN operand through as `a + b`).
float short_nrm2(const Settings& s, std::int64_t n, Vec x, std::int64_t incx, l12::Report& rep, const Vec* typed) {
  float result = 0.0f;
  Tile m, factors, sum;
  run_pieces(
      s, n, 1, rep,
      [&](NeuronCore&, ProgramTiles& sb) {
        constexpr AllocFill kWrittenFirst = AllocFill::none;  // each is an instruction's destination first
        m = sb.alloc(DType::f32, 1, {1}, "max |x|", kWrittenFirst);
        factors = sb.alloc(DType::f32, 1, {5}, "scale factors", kWrittenFirst);
        sum = sb.alloc(DType::f32, 1, {1}, "sum of squares", kWrittenFirst);
      },
      [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
        nc.dma_copy(v[0], hbm_piece(x, incx, pc));
        nc.tensor_scalar(v[0], v[0], AluOp::abs_max, 0.0f);  // |x| (NaN stays NaN)
        nc.tensor_reduce(m, v[0], AluOp::maximum);
        const Tile outputs[] = {factors};
        const Tile inputs[] = {m};
        // A few integer operations on one value (ilogb, two ldexp pairs): GpSimdE's start-up cost.
        nc.custom_op("nrm2_scale_factors", outputs, inputs, static_cast<double>(nc.hw().gpsimd_start),
                     [](const CustomOpContext& ctx) {
                       float mv = 0.0f;
                       std::memcpy(&mv, ctx.inputs[0].at(0, 0), sizeof mv);
                       const std::array<float, 5> f = nrm2_scale_factors(mv);
                       std::memcpy(ctx.outputs[0].at(0, 0), f.data(), sizeof f);
                     });
        nc.tensor_scalar(v[0], v[0], AluOp::multiply, factors.cols(0, 1), AluOp::multiply,
                         factors.cols(1, 1));  // exact scaling
        // The squares and their sum in one ScalarE instruction: square is fl(v^2) (the double
        // product is exact, rounded once), and reduce_dst folds 0 + y_0 + y_1 + ... left to right in
        // fp32 -- the bits of tensor_tensor(multiply) then tensor_reduce(add) (0 + y_0 = y_0: y_0 >= +0).
        nc.activation(v[0], v[0], ActFunc::square, 0.0f, 1.0f, &sum);
      },
      [&](NeuronCore& nc) {
        nc.tensor_scalar(sum, sum, AluOp::minimum, factors.cols(4, 1));  // the cap (Inf only)
        nc.activation(sum, sum, ActFunc::sqrt);                            // ScalarE
        nc.tensor_scalar(sum, sum, AluOp::multiply, factors.cols(2, 1), AluOp::multiply, factors.cols(3, 1));
        nc.dma_copy(hbm_scalar(&result), sum);
        if (typed != nullptr) nc.dma_copy(hbm_scalar(const_cast<void*>(typed->p), typed->dt), sum);
      },
      AllocFill::none, Layout::one_partition);
  return result;
}

// sqrt(sum x_i^2) scaled as documented (incx > 0). typed: also stored in its type; the special
// results (NaN, Inf, 0: exact in every float type) are encoded as the DMA would round them.
float nrm2_kernel(const Settings& s, std::int64_t n, Vec x, std::int64_t incx, l12::Report& rep,
                  const Vec* typed = nullptr) {
  if (n <= hardware_spec(s.target).pmax) return short_nrm2(s, n, x, incx, rep, typed);
  const float m = extreme_abs(s, n, x, incx, true, rep);
  if (std::isnan(m) || std::isinf(m) || m == 0.0f || s.timing_only) {
    const float r = s.timing_only ? 0.0f : m;
    if (typed != nullptr) {
      const std::uint32_t code = encode_float(float_format(typed->dt), r, Rounding::nearest_even);
      const auto bits = static_cast<std::uint16_t>(code);
      std::memcpy(const_cast<void*>(typed->p), &bits, sizeof bits);
    }
    return r;
  }
  // Named copies, not a structured binding: clang 14 (the fuzz build's compiler) cannot capture a
  // structured binding in a lambda (a C++20 feature it gained in clang 16).
  const auto factors = nrm2_scale_factors(m);  // its cap is +Inf here (m is finite)
  const float down1 = factors[0], down2 = factors[1], up1 = factors[2], up2 = factors[3];
  return run_reduction(
      s, n, 1, AluOp::add, 0.0f, rep,
      [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v, const Tile& part) {
        nc.dma_copy(v[0], hbm_piece(x, incx, pc));
        nc.tensor_scalar(v[0], v[0], AluOp::multiply, down1, AluOp::multiply, down2);  // exact scaling
        nc.tensor_tensor(v[0], v[0], v[0], AluOp::multiply);
        nc.tensor_reduce(part, v[0], AluOp::add);
      },
      [&](NeuronCore& nc, const Tile& out) {
        nc.activation(out, out, ActFunc::sqrt);                                  // ScalarE
        nc.tensor_scalar(out, out, AluOp::multiply, up1, AluOp::multiply, up2);  // back to scale
      },
      typed);
}

}  // namespace

// ---- 16-bit storage, fp32 execution (the *Ex forms) ----------------------------------------------

namespace {
void require_16bit(DType dt) {
  if (dt != DType::f16 && dt != DType::bf16)
    throw NotSupportedError("trnblas Level 1 (16-bit)", "dtype", "16-bit storage is f16 or bf16");
}
}  // namespace

void axpy(const Settings& s, std::int64_t n, float alpha, DType dt, const void* x, std::int64_t incx, void* y,
          std::int64_t incy, CallReport* report) {
  require_16bit(dt);
  l12::Report rep(s, report);
  if (n <= 0 || alpha == 0.0f) return;
  if (incy == 0) {  // the reference loop, one element at a time (see one_at_a_time)
    const Vec x0 = Vec::first(x, dt, n, incx);
    for (std::int64_t i = 0; i < n; ++i)
      axpy_kernel(s, 1, alpha, Vec(static_cast<const std::byte*>(x0.p) + i * incx * 2, dt), 1, Vec(y, dt), 1, rep);
    return;
  }
  axpy_kernel(s, n, alpha, Vec::first(x, dt, n, incx), incx, Vec::first(y, dt, n, incy), incy, rep);
}
void scal(const Settings& s, std::int64_t n, float alpha, DType dt, void* x, std::int64_t incx, CallReport* report) {
  require_16bit(dt);
  l12::Report rep(s, report);
  if (n <= 0 || incx <= 0) return;
  scal_kernel(s, n, alpha, Vec(x, dt), incx, rep);
}
void dot(const Settings& s, std::int64_t n, DType dt, const void* x, std::int64_t incx, const void* y,
         std::int64_t incy, void* result, CallReport* report) {
  require_16bit(dt);
  l12::Report rep(s, report);
  const Vec out(result, dt);
  if (n <= 0) {
    std::memset(result, 0, 2);  // +0 in both 16-bit formats
    return;
  }
  dot_kernel(s, n, Vec::first(x, dt, n, incx), incx, Vec::first(y, dt, n, incy), incy, rep, &out);
}
void nrm2(const Settings& s, std::int64_t n, DType dt, const void* x, std::int64_t incx, void* result,
          CallReport* report) {
  require_16bit(dt);
  l12::Report rep(s, report);
  const Vec out(result, dt);
  if (n <= 0 || incx <= 0) {
    std::memset(result, 0, 2);
    return;
  }
  nrm2_kernel(s, n, Vec(x, dt), incx, rep, &out);
}
void rot(const Settings& s, std::int64_t n, DType dt, void* x, std::int64_t incx, void* y, std::int64_t incy, float c,
         float sn, CallReport* report) {
  require_16bit(dt);
  l12::Report rep(s, report);
  if (n <= 0) return;
  if (incx == 0 || incy == 0) {  // the reference loop, one element at a time
    const Vec x0 = Vec::first(x, dt, n, incx), y0 = Vec::first(y, dt, n, incy);
    for (std::int64_t i = 0; i < n; ++i)
      apply_2x2(s, 1, Vec(static_cast<const std::byte*>(x0.p) + i * incx * 2, dt), 1,
                Vec(static_cast<const std::byte*>(y0.p) + i * incy * 2, dt), 1, {c, sn, -sn, c}, rep);
    return;
  }
  apply_2x2(s, n, Vec::first(x, dt, n, incx), incx, Vec::first(y, dt, n, incy), incy, {c, sn, -sn, c}, rep);
}

// ---- float ------------------------------------------------------------------------------------

void axpy(const Settings& s, std::int64_t n, float alpha, const float* x, std::int64_t incx, float* y,
          std::int64_t incy, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || alpha == 0.0f) return;
  if (one_at_a_time(incy == 0, n, x, incx, y, incy, [&](const float* xi, float* yi) {
        axpy(s, 1, alpha, xi, 1, yi, 1, rep.sub());
        rep.add_sub();
      }))
    return;
  axpy_kernel(s, n, alpha, first(x, n, incx), incx, first(y, n, incy), incy, rep);
}

void scal(const Settings& s, std::int64_t n, float alpha, float* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || incx <= 0) return;
  scal_kernel(s, n, alpha, x, incx, rep);
}

void copy(const Settings& s, std::int64_t n, const float* x, std::int64_t incx, float* y, std::int64_t incy,
          CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0) return;
  const float* x0 = first(x, n, incx);
  float* y0 = first(y, n, incy);
  if (incy == 0) {
    // The reference BLAS copies element by element, so y(1) ends up holding the last element of x
    // in walk order (netlib's xblat1 tests incy = 0). A DMA cannot write a zero-stride destination:
    // copy that one element.
    x0 += (n - 1) * incx;
    n = 1;
  }
  run_pieces(s, n, 1, rep, {}, [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
    nc.dma_copy(v[0], hbm_piece(x0, incx, pc));
    nc.dma_copy(hbm_piece(y0, incy, pc), v[0]);
  }, {}, kWrittenBeforeRead);
}

void copy_segments(const Settings& s, std::span<const CopySegment> segments, CallReport* report) {
  l12::Report rep(s, report);
  std::int64_t longest = 0;
  for (const CopySegment& g : segments) longest = std::max(longest, g.length);
  if (longest <= 0) return;
  const auto P = static_cast<std::int32_t>(hardware_spec(s.target).pmax);
  const std::int64_t F = std::min(kChunkFree, longest);
  LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) {
    AllocScope sb(nc.sbuf());
    const Tile rows = sb.alloc(DType::f32, P, {F}, "segment rows");
    std::int32_t row = 0;
    for (const CopySegment& g : segments)
      for (std::int64_t c0 = 0; c0 < g.length; c0 += F) {
        const std::int64_t len = std::min(F, g.length - c0);
        const Tile v = rows.rows(row, 1).cols(0, len);
        nc.dma_copy(v, HbmTensor::wrap(const_cast<float*>(g.src + c0), DType::f32, {1, len}).tile(0, 1, 0, len));
        nc.dma_copy(HbmTensor::wrap(g.dst + c0, DType::f32, {1, len}).tile(0, 1, 0, len), v);
        row = (row + 1) % P;
      }
  });
  rep.add(std::move(r.trace));
}

void swap(const Settings& s, std::int64_t n, float* x, std::int64_t incx, float* y, std::int64_t incy,
          CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0) return;
  if (one_at_a_time(incx == 0 || incy == 0, n, x, incx, y, incy, [&](float* xi, float* yi) {
        swap(s, 1, xi, 1, yi, 1, rep.sub());
        rep.add_sub();
      }))
    return;
  float* x0 = first(x, n, incx);
  float* y0 = first(y, n, incy);
  run_pieces(s, n, 2, rep, {}, [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
    nc.dma_copy(v[0], hbm_piece(x0, incx, pc));
    nc.dma_copy(v[1], hbm_piece(y0, incy, pc));
    nc.dma_copy(hbm_piece(x0, incx, pc), v[1]);
    nc.dma_copy(hbm_piece(y0, incy, pc), v[0]);
  }, {}, kWrittenBeforeRead);
}

void rot(const Settings& s, std::int64_t n, float* x, std::int64_t incx, float* y, std::int64_t incy, float c,
         float sn, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0) return;
  if (one_at_a_time(incx == 0 || incy == 0, n, x, incx, y, incy, [&](float* xi, float* yi) {
        rot(s, 1, xi, 1, yi, 1, c, sn, rep.sub());
        rep.add_sub();
      }))
    return;
  // x' = c x + s y, y' = -s x + c y (= fl(fl(c y) - fl(s x)): negation is exact)
  apply_2x2(s, n, first(x, n, incx), incx, first(y, n, incy), incy, {c, sn, -sn, c}, rep);
}

void rotm(const Settings& s, std::int64_t n, float* x, std::int64_t incx, float* y, std::int64_t incy,
          const float param[5], CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || param[0] == -2.0f) return;
  if (one_at_a_time(incx == 0 || incy == 0, n, x, incx, y, incy, [&](float* xi, float* yi) {
        rotm(s, 1, xi, 1, yi, 1, param, rep.sub());
        rep.add_sub();
      }))
    return;
  apply_2x2(s, n, first(x, n, incx), incx, first(y, n, incy), incy, rotm_matrix(param), rep);
}

float dot(const Settings& s, std::int64_t n, const float* x, std::int64_t incx, const float* y, std::int64_t incy,
          CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0) return 0.0f;
  return dot_kernel(s, n, first(x, n, incx), incx, first(y, n, incy), incy, rep);
}

float asum(const Settings& s, std::int64_t n, const float* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || incx <= 0) return 0.0f;
  // n <= pmax: the sum of |x_i| is the result (partial_is_result: +0 + it changes no bit).
  const bool short_vector = n <= hardware_spec(s.target).pmax;
  return run_reduction(s, n, 1, AluOp::add, 0.0f, rep,
                       [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v, const Tile& part) {
                         nc.dma_copy(v[0], hbm_piece(x, incx, pc));
                         if (short_vector) {
                           // |x| and its sum in one ScalarE instruction (session 20; one instruction
                           // fewer): abs of the pre-activation x * 1 + 0 (= x, -0 -> +0: the same |x|;
                           // a NaN quieted, its sign cleared, as abs_max(x, 0) returns it), and
                           // reduce_dst folds 0 + |x_0| + |x_1| + ... left to right in fp32: the
                           // tensor_reduce fold, as 0 + |x_0| = |x_0| (|x_0| >= +0 or NaN).
                           nc.activation(v[0], v[0], ActFunc::abs, 0.0f, 1.0f, &part);
                           return;
                         }
                         nc.tensor_scalar(v[0], v[0], AluOp::abs_max, 0.0f);  // |x|
                         nc.tensor_reduce(part, v[0], AluOp::add);
                       }, {}, nullptr, /*partial_is_result=*/true);
}

float nrm2(const Settings& s, std::int64_t n, const float* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || incx <= 0) return 0.0f;
  return nrm2_kernel(s, n, x, incx, rep);
}

std::int64_t iamax(const Settings& s, std::int64_t n, const float* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  return index_of_extreme(s, n, x, incx, true, rep);
}
std::int64_t iamin(const Settings& s, std::int64_t n, const float* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  return index_of_extreme(s, n, x, incx, false, rep);
}

// ---- double -----------------------------------------------------------------------------------

void axpy(const Settings& s, std::int64_t n, double alpha, const double* x, std::int64_t incx, double* y,
          std::int64_t incy, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || alpha == 0.0) return;
  elementwise_round_trip(rep, "trnblas.daxpy.host", 2.0 * static_cast<double>(n), n, x, incx, false, y, incy, true);
  const double* x0 = first(x, n, incx);
  double* y0 = first(y, n, incy);
  for (std::int64_t i = 0; i < n; ++i) y0[i * incy] += alpha * x0[i * incx];  // host side: fp64
}

void scal(const Settings& s, std::int64_t n, double alpha, double* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || incx <= 0) return;
  elementwise_round_trip(rep, "trnblas.dscal.host", static_cast<double>(n), n, x, incx, true);
  for (std::int64_t i = 0; i < n; ++i) x[i * incx] *= alpha;
}

// fp64 (and, through the planes, complex fp64) copy and swap move bits, not values: the float
// routines' DMAs on the low and high 32-bit halves of every element (a same-dtype DMA copies bits),
// a sub-call each -- DMA work, no host round trip (docs/cost-model.md section 7).
namespace {
// dcopy / dswap, and ccopy / cswap / zcopy / zswap, of n <= pmax elements in ONE program on the
// elements' 32-bit words side by side on one partition ([1, n, W] fp32 words, W = sizeof(T) / 4; a
// same-type DMA is a bit copy, NaN patterns included), x and y in by one DMA each, out by one each
// (swap: x's words to y and y's to x). The general path moves one word (double) or one plane
// (complex) after the other as separate float or double calls (two launches or more, twice the
// DMAs). Every element is read before any is written in both, and the halves are disjoint words, so
// the bytes written are the same for any x and y whose distance is a whole number of elements
// (checked; otherwise the general path). New trace and modeled time (docs/trnblas.md).
template <class T>
bool words_in_one_program(const Settings& s, std::int64_t n, const T* x, const T* y) {
  const auto d = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(y)) -
                 static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(x));
  return n <= hardware_spec(s.target).pmax && d % static_cast<std::int64_t>(sizeof(T)) == 0;
}

template <class T>
void move_as_words(const Settings& s, std::int64_t n, const T* x, std::int64_t incx, T* y, std::int64_t incy,
                   bool swap_both, l12::Report& rep) {
  constexpr std::int64_t W = sizeof(T) / sizeof(float);
  const auto words = [&](const T* v, std::int64_t inc) {
    return tile::hbm_view(first(v, n, inc), DType::f32, 1, W * n * inc, {{n, W * inc}, {W, 1}});
  };
  const Tile xw = words(x, incx), yw = words(y, incy);
  const auto program = [&](NeuronCore& nc) {
    ProgramTiles sb(nc.sbuf());
    const Tile a = sb.alloc(DType::f32, 1, {n, W}, "x words", kWrittenBeforeRead);
    nc.dma_copy(a, xw);
    if (swap_both) {
      const Tile b = sb.alloc(DType::f32, 1, {n, W}, "y words", kWrittenBeforeRead);
      nc.dma_copy(b, yw);
      nc.dma_copy(xw, b);
    }
    nc.dma_copy(yw, a);
  };
  LaunchResult r = launch(s.launch_config(), [&program](NeuronCore& nc) { program(nc); });
  rep.add(std::move(r.trace));
}
}  // namespace

void copy(const Settings& s, std::int64_t n, const double* x, std::int64_t incx, double* y, std::int64_t incy,
          CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0) return;
  if (incy != 0 && words_in_one_program(s, n, x, y)) {
    move_as_words(s, n, x, incx, y, incy, false, rep);
    return;
  }
  for (int half = 0; half < 2; ++half) {
    copy(s, n, reinterpret_cast<const float*>(x) + half, 2 * incx, reinterpret_cast<float*>(y) + half, 2 * incy,
         rep.sub());
    rep.add_sub();
  }
}

void swap(const Settings& s, std::int64_t n, double* x, std::int64_t incx, double* y, std::int64_t incy,
          CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0) return;
  if (incx != 0 && incy != 0 && words_in_one_program(s, n, x, y)) {
    move_as_words(s, n, x, incx, y, incy, true, rep);
    return;
  }
  for (int half = 0; half < 2; ++half) {
    swap(s, n, reinterpret_cast<float*>(x) + half, 2 * incx, reinterpret_cast<float*>(y) + half, 2 * incy, rep.sub());
    rep.add_sub();
  }
}

void rot(const Settings& s, std::int64_t n, double* x, std::int64_t incx, double* y, std::int64_t incy, double c,
         double sn, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0) return;
  elementwise_round_trip(rep, "trnblas.drot.host", 6.0 * static_cast<double>(n), n, x, incx, true, y, incy, true);
  double* x0 = first(x, n, incx);
  double* y0 = first(y, n, incy);
  for (std::int64_t i = 0; i < n; ++i) {
    const double xi = x0[i * incx], yi = y0[i * incy];
    x0[i * incx] = c * xi + sn * yi;
    y0[i * incy] = c * yi - sn * xi;
  }
}

void rotm(const Settings& s, std::int64_t n, double* x, std::int64_t incx, double* y, std::int64_t incy,
          const double param[5], CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || param[0] == -2.0) return;
  const std::array<double, 4> h = rotm_matrix(param);
  elementwise_round_trip(rep, "trnblas.drotm.host", 6.0 * static_cast<double>(n), n, x, incx, true, y, incy, true);
  double* x0 = first(x, n, incx);
  double* y0 = first(y, n, incy);
  for (std::int64_t i = 0; i < n; ++i) {  // host side, fp64, the reference loop (multiplying by +-1 is exact)
    const double w = x0[i * incx], z = y0[i * incy];
    x0[i * incx] = h[0] * w + h[1] * z;
    y0[i * incy] = h[2] * w + h[3] * z;
  }
}

double dot(const Settings& s, std::int64_t n, const double* x, std::int64_t incx, const double* y,
           std::int64_t incy, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0) return 0.0;
  return fp64_dot(s, n, x, incx, y, incy, rep);
}

namespace {
// [lead, x_1, ..., x_n] in fp64 (exact widening) in the reference BLAS's element order.
ScratchVector<double> widened(std::int64_t n, const float* x, std::int64_t inc, bool with_lead, double lead) {
  const ScratchVector<float> g = gather(x, n, inc);
  ScratchVector<double> v;
  v.reserve(g.size() + 1);
  if (with_lead) v.push_back(lead);
  v.insert(v.end(), g.begin(), g.end());
  return v;
}
}  // namespace

double dsdot(const Settings& s, std::int64_t n, const float* x, std::int64_t incx, const float* y, std::int64_t incy,
             CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0) return 0.0;
  const ScratchVector<double> xd = widened(n, x, incx, false, 0.0), yd = widened(n, y, incy, false, 0.0);
  return fp64_dot(s, n, xd.data(), 1, yd.data(), 1, rep);
}

float sdsdot(const Settings& s, std::int64_t n, float sb, const float* x, std::int64_t incx, const float* y,
             std::int64_t incy, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0) return sb;
  const ScratchVector<double> xd = widened(n, x, incx, true, sb), yd = widened(n, y, incy, true, 1.0);
  return static_cast<float>(fp64_dot(s, n + 1, xd.data(), 1, yd.data(), 1, rep));
}

double asum(const Settings& s, std::int64_t n, const double* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || incx <= 0) return 0.0;
  ScratchVector<double> a = gather(x, n, incx), ones(static_cast<std::size_t>(n), 1.0);
  rep.host_step(HostStep{.name = "trnblas.dasum.abs", .flops = static_cast<double>(n), .reads = {l12::vec_span(x, n, incx)},
                         .writes = {HostSpan(a.data(), n)}});
  for (double& v : a) v = std::fabs(v);  // sign clearing: exact
  return fp64_dot(s, n, a.data(), 1, ones.data(), 1, rep);
}

double nrm2(const Settings& s, std::int64_t n, const double* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || incx <= 0) return 0.0;
  // One round trip: the scan for max|x_i| (2 per element), the scaling (1 per element) and, on the
  // returned sum, the square root (1).
  ScratchVector<double> v(static_cast<std::size_t>(n));
  rep.host_step(HostStep{.name = "trnblas.dnrm2.scale", .flops = 3.0 * static_cast<double>(n) + 1.0,
                         .reads = {l12::vec_span(x, n, incx)}, .writes = {HostSpan(v.data(), n)}});
  double m = 0.0;
  for (std::int64_t i = 0; i < n; ++i) {  // host side: comparisons only
    const double a = std::fabs(x[i * incx]);
    if (std::isnan(a)) return a;
    m = std::max(m, a);
  }
  if (std::isinf(m) || m == 0.0) return m;
  // Exact power-of-two scaling into [1, 2) (ldexp: exact unless an element drops below the
  // subnormal range, which only elements < 2^-1074 * max|x| can).
  const int e = std::ilogb(m);
  v = gather(x, n, incx);
  for (double& t : v) t = std::ldexp(t, -e);
  const double ss = fp64_dot(s, n, v.data(), 1, v.data(), 1, rep);
  return std::ldexp(std::sqrt(ss), e);  // host side: one fp64 square root
}

std::int64_t iamax(const Settings& s, std::int64_t n, const double* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n > 0 && incx > 0) elementwise_round_trip(rep, "trnblas.idamax.host", 2.0 * static_cast<double>(n), n, x, incx, false);
  return host_index_of_extreme(n, x, incx, true);
}
std::int64_t iamin(const Settings& s, std::int64_t n, const double* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n > 0 && incx > 0) elementwise_round_trip(rep, "trnblas.idamin.host", 2.0 * static_cast<double>(n), n, x, incx, false);
  return host_index_of_extreme(n, x, incx, false);
}


// ---- complex float: split planes on VectorE ---------------------------------------------------

namespace {

// The real (part 0) or imaginary (part 1) plane of a complex vector: a float vector of stride 2 inc.
const float* plane(const cfloat* x, int part) { return reinterpret_cast<const float*>(x) + part; }
float* plane(cfloat* x, int part) { return reinterpret_cast<float*>(x) + part; }
const double* plane(const cdouble* x, int part) { return reinterpret_cast<const double*>(x) + part; }
double* plane(cdouble* x, int part) { return reinterpret_cast<double*>(x) + part; }

// A strided complex vector made contiguous (2n reals) for a real routine: its real and imaginary
// planes are two strided copies on the device (copy's DMAs, exact), recorded in rep.
template <class C>
ScratchVector<C> dma_gather(const Settings& s, std::int64_t n, const C* x, std::int64_t inc, l12::Report& rep) {
  ScratchVector<C> c(static_cast<std::size_t>(n));
  for (int part = 0; part < 2; ++part) {
    copy(s, n, plane(x, part), 2 * inc, plane(c.data(), part), 2, rep.sub());
    rep.add_sub();
  }
  return c;
}

// Runs a real Level 1 routine on both planes (a sub-call each, one report).
template <class F>
void on_planes(l12::Report& rep, F&& f) {
  for (int part = 0; part < 2; ++part) {
    f(part, rep.sub());
    rep.add_sub();
  }
}

// copy, swap, rot (real c, s) and scal (real alpha) of a complex vector: the real routine on each plane.
template <class C, class R>
void scal_planes(const Settings& s, std::int64_t n, R alpha, C* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || incx <= 0) return;
  on_planes(rep, [&](int part, CallReport* sub) { scal(s, n, alpha, plane(x, part), 2 * incx, sub); });
}
template <class C>
void copy_planes(const Settings& s, std::int64_t n, const C* x, std::int64_t incx, C* y, std::int64_t incy,
                 CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0) return;
  if (incy != 0 && words_in_one_program(s, n, x, y)) return move_as_words(s, n, x, incx, y, incy, false, rep);
  on_planes(rep, [&](int part, CallReport* sub) { copy(s, n, plane(x, part), 2 * incx, plane(y, part), 2 * incy, sub); });
}
template <class C>
void swap_planes(const Settings& s, std::int64_t n, C* x, std::int64_t incx, C* y, std::int64_t incy,
                 CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0) return;
  if (incx != 0 && incy != 0 && words_in_one_program(s, n, x, y)) return move_as_words(s, n, x, incx, y, incy, true, rep);
  on_planes(rep, [&](int part, CallReport* sub) { swap(s, n, plane(x, part), 2 * incx, plane(y, part), 2 * incy, sub); });
}
template <class C, class R>
void rot_planes(const Settings& s, std::int64_t n, C* x, std::int64_t incx, C* y, std::int64_t incy, R c, R sn,
                CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0) return;
  on_planes(rep, [&](int part, CallReport* sub) { rot(s, n, plane(x, part), 2 * incx, plane(y, part), 2 * incy, c, sn, sub); });
}

}  // namespace

namespace {
// A short caxpy with each complex element on its own partition (session 25, issue #30).
// Algorithm   The general path's arithmetic on the same operands in the same order, so the same bits:
//             per part y + fl(fl(ar xr) - fl(ai xi)) and y + fl(fl(ar xi) + fl(ai xr)), as the reference
//             BLAS evaluates y + alpha * x. x and y are [n, 2] tiles (element i on partition i, its real
//             and imaginary part side by side, as in HBM): one DMA each instead of one per plane, and
//             the planes are [n, 1] columns, so fl(fl(c a) op t) is ONE tensor_scalar with t the
//             per-partition operand (as the real axpy's column layout). 9 instructions (3 DMAs, 6
//             VectorE) instead of 14: a new trace and modeled time (docs/trnblas.md, "Session 25").
// Engines     DMA, VectorE.
// Accuracy    As the general path: each part of y_i within gamma_3 (|alpha| |x_i|) + u |y_i| (3 roundings).
// Limits      1 <= n <= kComplexColumnMaxN, incy != 0 (incy == 0 runs one element at a time, as before).
// Measured (callgrind, the shim's caxpy_ per call): 12.2 k -> 8.4 k host instructions at n = 2, 12.7 k ->
// 12.1 k at n = 8, 12.7 k -> 13.2 k at n = 10 (a column's elements cost host work per partition).
constexpr std::int64_t kComplexColumnMaxN = 8;

void complex_axpy_columns(const Settings& s, std::int64_t n, cfloat alpha, const cfloat* x0, std::int64_t incx,
                          cfloat* y0, std::int64_t incy, l12::Report& rep) {
  const auto rows = static_cast<std::int32_t>(n);
  const float ar = alpha.real(), ai = alpha.imag();
  LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) {
    // x, y and two scratch columns: one allocation, each tile a DMA's or an instruction's destination first.
    const l12::FirstTiles sb(nc.sbuf(), {{rows, 2}, {rows, 2}, {rows, 2}}, "complex vectors");
    const Tile &xt = sb[0], &yt = sb[1], &w = sb[2];
    const Tile xr = xt.cols(0, 1), xi = xt.cols(1, 1), yr = yt.cols(0, 1), yi = yt.cols(1, 1), t = w.cols(0, 1),
               u = w.cols(1, 1);
    const Tile yh = l12::hbm_f32(plane(y0, 0), rows, 2 * incy, 2, 1);
    nc.dma_copy(xt, l12::hbm_f32(plane(x0, 0), rows, 2 * incx, 2, 1));
    nc.dma_copy(yt, yh);
    nc.tensor_scalar(t, xi, AluOp::multiply, ai);
    nc.tensor_scalar(u, xr, AluOp::multiply, ar, AluOp::subtract, t);  // fl(fl(ar xr) - fl(ai xi))
    nc.tensor_tensor(yr, yr, u, AluOp::add);
    nc.tensor_scalar(t, xr, AluOp::multiply, ai);
    nc.tensor_scalar(u, xi, AluOp::multiply, ar, AluOp::add, t);  // fl(fl(ar xi) + fl(ai xr))
    nc.tensor_tensor(yi, yi, u, AluOp::add);
    nc.dma_copy(yh, yt);
  });
  rep.add(std::move(r.trace));
}
}  // namespace

void axpy(const Settings& s, std::int64_t n, cfloat alpha, const cfloat* x, std::int64_t incx, cfloat* y,
          std::int64_t incy, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || alpha == cfloat(0.0f)) return;
  if (one_at_a_time(incy == 0, n, x, incx, y, incy, [&](const cfloat* xi, cfloat* yi) {
        axpy(s, 1, alpha, xi, 1, yi, 1, rep.sub());
        rep.add_sub();
      }))
    return;
  const cfloat* x0 = first(x, n, incx);
  cfloat* y0 = first(y, n, incy);
  if (n <= kComplexColumnMaxN) return complex_axpy_columns(s, n, alpha, x0, incx, y0, incy, rep);
  const float ar = alpha.real(), ai = alpha.imag();
  run_pieces(s, n, 6, rep, {}, [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
    nc.dma_copy(v[0], hbm_piece(plane(x0, 0), 2 * incx, pc));
    nc.dma_copy(v[1], hbm_piece(plane(x0, 1), 2 * incx, pc));
    nc.dma_copy(v[2], hbm_piece(plane(y0, 0), 2 * incy, pc));
    nc.dma_copy(v[3], hbm_piece(plane(y0, 1), 2 * incy, pc));
    // alpha x first (fl(fl(ar xr) - fl(ai xi)), fl(fl(ar xi) + fl(ai xr))), then added to y, as the
    // reference BLAS evaluates y + alpha * x.
    nc.tensor_scalar(v[4], v[0], AluOp::multiply, ar);
    nc.tensor_scalar(v[5], v[1], AluOp::multiply, ai);
    nc.tensor_tensor(v[4], v[4], v[5], AluOp::subtract);
    nc.tensor_tensor(v[2], v[2], v[4], AluOp::add);
    nc.tensor_scalar(v[4], v[1], AluOp::multiply, ar);
    nc.tensor_scalar(v[5], v[0], AluOp::multiply, ai);
    nc.tensor_tensor(v[4], v[4], v[5], AluOp::add);
    nc.tensor_tensor(v[3], v[3], v[4], AluOp::add);
    nc.dma_copy(hbm_piece(plane(y0, 0), 2 * incy, pc), v[2]);
    nc.dma_copy(hbm_piece(plane(y0, 1), 2 * incy, pc), v[3]);
  });
}

void scal(const Settings& s, std::int64_t n, cfloat alpha, cfloat* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || incx <= 0) return;
  const float ar = alpha.real(), ai = alpha.imag();
  run_pieces(s, n, 4, rep, {}, [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
    nc.dma_copy(v[0], hbm_piece(plane(x, 0), 2 * incx, pc));
    nc.dma_copy(v[1], hbm_piece(plane(x, 1), 2 * incx, pc));
    nc.tensor_scalar(v[2], v[0], AluOp::multiply, ar);
    nc.tensor_scalar(v[3], v[1], AluOp::multiply, ai);
    nc.tensor_tensor(v[2], v[2], v[3], AluOp::subtract);  // ar xr - ai xi
    nc.tensor_scalar(v[3], v[1], AluOp::multiply, ar);
    nc.tensor_scalar(v[0], v[0], AluOp::multiply, ai);
    nc.tensor_tensor(v[3], v[3], v[0], AluOp::add);       // ar xi + ai xr
    nc.dma_copy(hbm_piece(plane(x, 0), 2 * incx, pc), v[2]);
    nc.dma_copy(hbm_piece(plane(x, 1), 2 * incx, pc), v[3]);
  });
}

void scal(const Settings& s, std::int64_t n, float alpha, cfloat* x, std::int64_t incx, CallReport* report) {
  scal_planes(s, n, alpha, x, incx, report);
}

void copy(const Settings& s, std::int64_t n, const cfloat* x, std::int64_t incx, cfloat* y, std::int64_t incy,
          CallReport* report) {
  copy_planes(s, n, x, incx, y, incy, report);
}

void swap(const Settings& s, std::int64_t n, cfloat* x, std::int64_t incx, cfloat* y, std::int64_t incy,
          CallReport* report) {
  swap_planes(s, n, x, incx, y, incy, report);
}

void rot(const Settings& s, std::int64_t n, cfloat* x, std::int64_t incx, cfloat* y, std::int64_t incy, float c,
         float sn, CallReport* report) {
  rot_planes(s, n, x, incx, y, incy, c, sn, report);
}

void rot(const Settings& s, std::int64_t n, cfloat* x, std::int64_t incx, cfloat* y, std::int64_t incy, float c,
         cfloat sn, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0) return;
  if (one_at_a_time(incx == 0 || incy == 0, n, x, incx, y, incy, [&](cfloat* xi, cfloat* yi) {
        rot(s, 1, xi, 1, yi, 1, c, sn, rep.sub());
        rep.add_sub();
      }))
    return;
  cfloat* x0 = first(x, n, incx);
  cfloat* y0 = first(y, n, incy);
  const float sr = sn.real(), si = sn.imag();
  // The reference CROT: x' = c x + s y, y' = c y - conj(s) x, each complex product as Fortran
  // evaluates it (two real products and one add per part, real * complex one product per part).
  run_pieces(s, n, 8, rep, {}, [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
    for (int part = 0; part < 2; ++part) {
      nc.dma_copy(v[part], hbm_piece(plane(x0, part), 2 * incx, pc));
      nc.dma_copy(v[2 + part], hbm_piece(plane(y0, part), 2 * incy, pc));
    }
    // out = fl(fl(c a) op1 fl(fl(sr p) op2 fl(si q)))
    const auto term = [&](const Tile& out, const Tile& a, AluOp op1, const Tile& p, AluOp op2, const Tile& q) {
      nc.tensor_scalar(v[4], p, AluOp::multiply, sr);
      nc.tensor_scalar(v[5], q, AluOp::multiply, si);
      nc.tensor_tensor(v[4], v[4], v[5], op2);
      nc.tensor_scalar(out, a, AluOp::multiply, c);
      nc.tensor_tensor(out, out, v[4], op1);
    };
    term(v[6], v[0], AluOp::add, v[2], AluOp::subtract, v[3]);       // re x' = c xr + (sr yr - si yi)
    term(v[7], v[1], AluOp::add, v[3], AluOp::add, v[2]);            // im x' = c xi + (sr yi + si yr)
    term(v[2], v[2], AluOp::subtract, v[0], AluOp::add, v[1]);       // re y' = c yr - (sr xr + si xi)
    term(v[3], v[3], AluOp::subtract, v[1], AluOp::subtract, v[0]);  // im y' = c yi - (sr xi - si xr)
    for (int part = 0; part < 2; ++part) {
      nc.dma_copy(hbm_piece(plane(x0, part), 2 * incx, pc), v[6 + part]);
      nc.dma_copy(hbm_piece(plane(y0, part), 2 * incy, pc), v[2 + part]);
    }
  });
}

namespace {
// cdotu / cdotc of n <= pmax elements in ONE program (session 26, issue #30): the two launches of the
// general path below (one short reduction per part, each loading all four planes) share one load.
// Algorithm   The four planes in by one DMA each into [1, n] rows; per part the general path's
//             instructions on them in its operand order: two VectorE multiplies (re: xr yr, xi yi;
//             im: xr yi, xi yr), their combine (re: - for dotu, + for dotc; im: + / -), the free-axis
//             sum into column `part` of a [1, 2] accumulator (tensor_reduce); then run_short_reduction's
//             fl(+0 + sum) for both parts as one tensor_scalar (reverse0) and one DMA of both out.
//             14 instructions in one launch (was 20 in two); the same roundings in the same order, so
//             the same bits, NaN payloads included (a new trace and modeled time: docs/trnblas.md
//             "Session 26").
// Engines     DMA, VectorE.
// Accuracy    As the general path: each part within gamma_{n+1} of sum |x_r y_.| + |x_i y_.|
//             ("Complex accuracy"); it is the same value.
// Limits      1 <= n <= pmax (one partition's row, as run_short_reduction); larger n take the general path.
cfloat short_complex_dot(const Settings& s, std::int64_t n, const cfloat* x0, std::int64_t incx, const cfloat* y0,
                         std::int64_t incy, bool conjugate, l12::Report& rep) {
  float result[2] = {0.0f, 0.0f};
  Tile acc;
  run_pieces(
      s, n, 6, rep,
      [&](NeuronCore&, ProgramTiles& sb) {
        constexpr AllocFill kWrittenFirst = AllocFill::none;  // both columns written by the reductions
        acc = sb.alloc(DType::f32, 1, {2}, "accumulators (re, im)", kWrittenFirst);
      },
      [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
        nc.dma_copy(v[0], hbm_piece(plane(x0, 0), 2 * incx, pc));
        nc.dma_copy(v[1], hbm_piece(plane(x0, 1), 2 * incx, pc));
        nc.dma_copy(v[2], hbm_piece(plane(y0, 0), 2 * incy, pc));
        nc.dma_copy(v[3], hbm_piece(plane(y0, 1), 2 * incy, pc));
        for (int part = 0; part < 2; ++part) {
          const AluOp combine = (part == 0) != conjugate ? AluOp::subtract : AluOp::add;
          nc.tensor_tensor(v[4], v[0], v[2 + part], AluOp::multiply);  // xr yr (re) or xr yi (im)
          nc.tensor_tensor(v[5], v[1], v[3 - part], AluOp::multiply);  // xi yi (re) or xi yr (im)
          nc.tensor_tensor(v[4], v[4], v[5], combine);
          nc.tensor_reduce(acc.cols(part, 1), v[4], AluOp::add);
        }
        nc.tensor_scalar(acc, acc, AluOp::add, 0.0f, AluOp::bypass, 0.0f, Engine::vector, /*reverse0=*/true);
      },
      [&](NeuronCore& nc) { nc.dma_copy(l12::hbm_f32(result, 1, 2, 2, 1), acc); }, AllocFill::none,
      Layout::one_partition);
  return {result[0], result[1]};
}
}  // namespace

cfloat dot(const Settings& s, std::int64_t n, const cfloat* x, std::int64_t incx, const cfloat* y, std::int64_t incy,
           bool conjugate, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0) return {0.0f, 0.0f};
  const cfloat* x0 = first(x, n, incx);
  const cfloat* y0 = first(y, n, incy);
  if (n <= hardware_spec(s.target).pmax) return short_complex_dot(s, n, x0, incx, y0, incy, conjugate, rep);
  // re = sum xr yr -+ xi yi, im = sum xr yi +- xi yr (conjugate: the lower signs): each term is two
  // products and one add on VectorE, then the reduction order of the real dot.
  float part_value[2];
  for (int part = 0; part < 2; ++part) {
    const AluOp combine = (part == 0) != conjugate ? AluOp::subtract : AluOp::add;
    part_value[part] = run_reduction(
        s, n, 4, AluOp::add, 0.0f, rep, [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v, const Tile& p) {
          nc.dma_copy(v[0], hbm_piece(plane(x0, 0), 2 * incx, pc));
          nc.dma_copy(v[1], hbm_piece(plane(x0, 1), 2 * incx, pc));
          nc.dma_copy(v[2], hbm_piece(plane(y0, part), 2 * incy, pc));      // yr (re) or yi (im)
          nc.dma_copy(v[3], hbm_piece(plane(y0, 1 - part), 2 * incy, pc));  // yi (re) or yr (im)
          nc.tensor_tensor(v[0], v[0], v[2], AluOp::multiply);
          nc.tensor_tensor(v[1], v[1], v[3], AluOp::multiply);
          nc.tensor_tensor(v[0], v[0], v[1], combine);
          nc.tensor_reduce(p, v[0], AluOp::add);
        });
  }
  return {part_value[0], part_value[1]};
}

float asum(const Settings& s, std::int64_t n, const cfloat* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || incx <= 0) return 0.0f;
  ScratchVector<cfloat> c;
  if (incx != 1) x = (c = dma_gather(s, n, x, incx, rep)).data();  // contiguous: 2n floats
  const float r = asum(s, 2 * n, plane(x, 0), 1, rep.sub());
  rep.add_sub();
  return r;
}

float nrm2(const Settings& s, std::int64_t n, const cfloat* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || incx <= 0) return 0.0f;
  ScratchVector<cfloat> c;
  if (incx != 1) x = (c = dma_gather(s, n, x, incx, rep)).data();  // contiguous: 2n floats
  const float r = nrm2(s, 2 * n, plane(x, 0), 1, rep.sub());
  rep.add_sub();
  return r;
}

namespace {
// i?amax / i?amin of a complex vector of n <= pmax elements in ONE program (session 26, issue #30): the
// two launches of the general path below (|re x_i| + |im x_i| to an HBM scratch vector, then
// short_index_of_extreme's DMA of it, custom operator and DMA out) without the scratch vector's round
// trip through HBM -- the operator reads the sums where VectorE wrote them.
// Algorithm   The same values in the same order (a DMA is an exact copy), so the same index: 2 DMAs, 3
//             VectorE instructions, the GpSimdE operator index_of_extreme_bits, one DMA out (7
//             instructions instead of 9, one launch instead of two: a new trace and modeled time,
//             docs/trnblas.md "Session 26").
// Engines     DMA, VectorE, GpSimdE.
// Accuracy    Exact: the index of the first NaN, else of the first largest (smallest) fl(|re x_i| +
//             |im x_i|), as before.
// Limits      1 <= n <= pmax, incx > 0; larger n take the general path.
std::int64_t short_complex_index_of_extreme(const Settings& s, std::int64_t n, const cfloat* x, std::int64_t incx,
                                            bool largest, l12::Report& rep) {
  float index = 0.0f;  // timing-only runs do not execute the operator: 0, reported as 1 below
  run_pieces(
      s, n, 3, rep, {},
      [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
        nc.dma_copy(v[0], hbm_piece(plane(x, 0), 2 * incx, pc));
        nc.dma_copy(v[1], hbm_piece(plane(x, 1), 2 * incx, pc));
        nc.tensor_scalar(v[0], v[0], AluOp::abs_max, 0.0f);
        nc.tensor_scalar(v[1], v[1], AluOp::abs_max, 0.0f);
        nc.tensor_tensor(v[0], v[0], v[1], AluOp::add);
        const Tile operands[] = {v[0], v[2]};  // the sums, the index's column
        index_of_extreme_operator(nc, operands, pc.cols, largest, &index);
      },
      {}, AllocFill::none, Layout::one_partition);
  return index >= 1.0f ? static_cast<std::int64_t>(index) : 1;
}

// |re x_i| + |im x_i| on VectorE into a contiguous fp32 scratch vector, then the real index search.
std::int64_t complex_index_of_extreme(const Settings& s, std::int64_t n, const cfloat* x, std::int64_t incx,
                                      bool largest, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || incx <= 0) return 0;
  if (n <= hardware_spec(s.target).pmax) return short_complex_index_of_extreme(s, n, x, incx, largest, rep);
  ScratchVector<float> abs1(static_cast<std::size_t>(n));
  run_pieces(s, n, 2, rep, {}, [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
    nc.dma_copy(v[0], hbm_piece(plane(x, 0), 2 * incx, pc));
    nc.dma_copy(v[1], hbm_piece(plane(x, 1), 2 * incx, pc));
    nc.tensor_scalar(v[0], v[0], AluOp::abs_max, 0.0f);
    nc.tensor_scalar(v[1], v[1], AluOp::abs_max, 0.0f);
    nc.tensor_tensor(v[0], v[0], v[1], AluOp::add);
    nc.dma_copy(hbm_piece(abs1.data(), 1, pc), v[0]);
  });
  return index_of_extreme(s, n, abs1.data(), 1, largest, rep);
}
}  // namespace

std::int64_t iamax(const Settings& s, std::int64_t n, const cfloat* x, std::int64_t incx, CallReport* report) {
  return complex_index_of_extreme(s, n, x, incx, true, report);
}
std::int64_t iamin(const Settings& s, std::int64_t n, const cfloat* x, std::int64_t incx, CallReport* report) {
  return complex_index_of_extreme(s, n, x, incx, false, report);
}

void l12::complex_axpby(const Settings& s, std::int64_t n, cfloat alpha, const float* pr, const float* pi, cfloat beta,
                        cfloat* y, std::int64_t incy, l12::Report& rep) {
  if (n <= 0) return;
  cfloat* y0 = first(y, n, incy);
  const bool read_y = beta != cfloat(0.0f);
  // v0 = pr, v1 = pi, v2 = yr, v3 = yi; v4, v5 scratch.
  const auto combine = [&](NeuronCore& nc, const Tile& out, const Tile& a, const Tile& b, float ca, float cb, AluOp op,
                           const Tile& t) {  // out = fl(fl(ca a) op fl(cb b))
    nc.tensor_scalar(t, b, AluOp::multiply, cb);
    nc.tensor_scalar(out, a, AluOp::multiply, ca);
    nc.tensor_tensor(out, out, t, op);
  };
  run_pieces(s, n, 7, rep, {}, [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
    nc.dma_copy(v[0], hbm_piece(pr, 1, pc));
    nc.dma_copy(v[1], hbm_piece(pi, 1, pc));
    combine(nc, v[4], v[0], v[1], alpha.real(), alpha.imag(), AluOp::subtract, v[6]);  // re(alpha p)
    combine(nc, v[5], v[1], v[0], alpha.real(), alpha.imag(), AluOp::add, v[6]);       // im(alpha p)
    if (read_y) {
      nc.dma_copy(v[2], hbm_piece(plane(y0, 0), 2 * incy, pc));
      nc.dma_copy(v[3], hbm_piece(plane(y0, 1), 2 * incy, pc));
      combine(nc, v[0], v[2], v[3], beta.real(), beta.imag(), AluOp::subtract, v[6]);  // re(beta y)
      combine(nc, v[1], v[3], v[2], beta.real(), beta.imag(), AluOp::add, v[6]);       // im(beta y)
      nc.tensor_tensor(v[4], v[4], v[0], AluOp::add);
      nc.tensor_tensor(v[5], v[5], v[1], AluOp::add);
    }
    nc.dma_copy(hbm_piece(plane(y0, 0), 2 * incy, pc), v[4]);
    nc.dma_copy(hbm_piece(plane(y0, 1), 2 * incy, pc), v[5]);
  });
}

void l12::complex_mul(const Settings& s, std::int64_t n, const float* ar, const float* ai, const float* br,
                      const float* bi, float* outr, float* outi, l12::Report& rep) {
  if (n <= 0) return;
  run_pieces(s, n, 6, rep, {}, [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
    nc.dma_copy(v[0], hbm_piece(ar, 1, pc));
    nc.dma_copy(v[1], hbm_piece(ai, 1, pc));
    nc.dma_copy(v[2], hbm_piece(br, 1, pc));
    nc.dma_copy(v[3], hbm_piece(bi, 1, pc));
    nc.tensor_tensor(v[4], v[0], v[2], AluOp::multiply);  // ar br
    nc.tensor_tensor(v[5], v[1], v[3], AluOp::multiply);  // ai bi
    nc.tensor_tensor(v[4], v[4], v[5], AluOp::subtract);
    nc.tensor_tensor(v[0], v[0], v[3], AluOp::multiply);  // ar bi
    nc.tensor_tensor(v[1], v[1], v[2], AluOp::multiply);  // ai br
    nc.tensor_tensor(v[0], v[0], v[1], AluOp::add);
    nc.dma_copy(hbm_piece(outr, 1, pc), v[4]);
    nc.dma_copy(hbm_piece(outi, 1, pc), v[0]);
  });
}

void l12::complex_reciprocal(const Settings& s, std::int64_t n, const float* dr, const float* di, float* rr, float* ri,
                             l12::Report& rep) {
  if (n <= 0) return;
  run_pieces(s, n, 5, rep, {}, [&](NeuronCore& nc, const Piece& pc, std::span<const Tile> v) {
    nc.dma_copy(v[0], hbm_piece(dr, 1, pc));
    nc.dma_copy(v[1], hbm_piece(di, 1, pc));
    nc.tensor_scalar(v[2], v[0], AluOp::abs_max, 0.0f);  // |dr|
    nc.tensor_scalar(v[3], v[1], AluOp::abs_max, 0.0f);  // |di|
    nc.tensor_tensor(v[4], v[2], v[3], AluOp::maximum);  // big
    nc.tensor_tensor(v[2], v[2], v[3], AluOp::minimum);  // small
    nc.tensor_tensor(v[3], v[2], v[4], AluOp::divide);   // t = small / big (<= 1)
    nc.tensor_tensor(v[3], v[3], v[2], AluOp::multiply); // small t
    nc.tensor_tensor(v[3], v[3], v[4], AluOp::add);      // den = big + small t
    nc.tensor_tensor(v[0], v[0], v[4], AluOp::divide);   // dr / big (|.| <= 1)
    nc.tensor_tensor(v[1], v[1], v[4], AluOp::divide);   // di / big
    nc.tensor_tensor(v[0], v[0], v[3], AluOp::divide);   // re 1/d
    nc.tensor_tensor(v[1], v[1], v[3], AluOp::divide);
    nc.tensor_scalar(v[1], v[1], AluOp::multiply, -1.0f);  // im 1/d (negation: exact)
    nc.dma_copy(hbm_piece(rr, 1, pc), v[0]);
    nc.dma_copy(hbm_piece(ri, 1, pc), v[1]);
  });
}

// ---- complex double: host side (elementwise, comparisons) and Ozaki (dot) --------------------

void axpy(const Settings& s, std::int64_t n, cdouble alpha, const cdouble* x, std::int64_t incx, cdouble* y,
          std::int64_t incy, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || alpha == cdouble(0.0)) return;
  elementwise_round_trip(rep, "trnblas.zaxpy.host", 8.0 * static_cast<double>(n), n, x, incx, false, y, incy, true);
  const cdouble* x0 = first(x, n, incx);
  cdouble* y0 = first(y, n, incy);
  for (std::int64_t i = 0; i < n; ++i) {  // host side, fp64: the reference BLAS's y + (ar xr - ai xi, ar xi + ai xr)
    const cdouble a = x0[i * incx];
    y0[i * incy] += cdouble(alpha.real() * a.real() - alpha.imag() * a.imag(), alpha.real() * a.imag() + alpha.imag() * a.real());
  }
}

void scal(const Settings& s, std::int64_t n, cdouble alpha, cdouble* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || incx <= 0) return;
  elementwise_round_trip(rep, "trnblas.zscal.host", 6.0 * static_cast<double>(n), n, x, incx, true);
  for (std::int64_t i = 0; i < n; ++i) {
    const cdouble a = x[i * incx];
    x[i * incx] = cdouble(alpha.real() * a.real() - alpha.imag() * a.imag(), alpha.real() * a.imag() + alpha.imag() * a.real());
  }
}

void scal(const Settings& s, std::int64_t n, double alpha, cdouble* x, std::int64_t incx, CallReport* report) {
  scal_planes(s, n, alpha, x, incx, report);
}

void copy(const Settings& s, std::int64_t n, const cdouble* x, std::int64_t incx, cdouble* y, std::int64_t incy,
          CallReport* report) {
  copy_planes(s, n, x, incx, y, incy, report);
}

void swap(const Settings& s, std::int64_t n, cdouble* x, std::int64_t incx, cdouble* y, std::int64_t incy,
          CallReport* report) {
  swap_planes(s, n, x, incx, y, incy, report);
}

void rot(const Settings& s, std::int64_t n, cdouble* x, std::int64_t incx, cdouble* y, std::int64_t incy, double c,
         double sn, CallReport* report) {
  rot_planes(s, n, x, incx, y, incy, c, sn, report);
}

void rot(const Settings& s, std::int64_t n, cdouble* x, std::int64_t incx, cdouble* y, std::int64_t incy, double c,
         cdouble sn, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0) return;
  cdouble* x0 = first(x, n, incx);
  cdouble* y0 = first(y, n, incy);
  elementwise_round_trip(rep, "trnblas.zrot.host", 20.0 * static_cast<double>(n), n, x, incx, true, y, incy, true);
  const double sr = sn.real(), si = sn.imag();
  for (std::int64_t i = 0; i < n; ++i) {  // host side, fp64: the reference ZROT's loop and roundings
    const cdouble a = x0[i * incx], b = y0[i * incy];
    x0[i * incx] = cdouble(c * a.real() + (sr * b.real() - si * b.imag()), c * a.imag() + (sr * b.imag() + si * b.real()));
    y0[i * incy] = cdouble(c * b.real() - (sr * a.real() + si * a.imag()), c * b.imag() - (sr * a.imag() - si * a.real()));
  }
}

cdouble dot(const Settings& s, std::int64_t n, const cdouble* x, std::int64_t incx, const cdouble* y,
            std::int64_t incy, bool conjugate, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0) return {0.0, 0.0};
  // One Ozaki DGEMM 1 x 2 x 2n: [re, im] = [xr..., xi...] * B, B's columns [yr; -+yi] and [yi; +-yr]
  // (conjugate: the lower signs). The operands are gathered on the host (copies and sign flips: exact).
  const ScratchVector<cdouble> xv = gather(x, n, incx), yv = gather(y, n, incy);
  const auto N = static_cast<std::size_t>(n);
  ScratchVector<double> a(2 * N), b(4 * N);
  const double sx = conjugate ? -1.0 : 1.0;
  for (std::size_t i = 0; i < N; ++i) {
    a[i] = xv[i].real();
    a[N + i] = sx * xv[i].imag();  // conj(x): -xi
    b[i] = yv[i].real();
    b[N + i] = -yv[i].imag();
    b[2 * N + i] = yv[i].imag();
    b[3 * N + i] = yv[i].real();
  }
  // The packing (gathers and sign flips) is a host round trip: x and y to the host, A and B back.
  rep.host_step(HostStep{.name = "trnblas.zdot.pack",
                         .reads = {l12::vec_span(x, n, incx), l12::vec_span(y, n, incy)},
                         .writes = {HostSpan(a.data(), 2 * n), HostSpan(b.data(), 4 * n)}});
  double r[2] = {0.0, 0.0};
  dgemm(s, Op::N, Op::N, 1, 2, 2 * n, 1.0, a.data(), 1, b.data(), 2 * n, 0.0, r, 1, rep.sub());
  rep.add_sub();
  return {r[0], r[1]};
}

double asum(const Settings& s, std::int64_t n, const cdouble* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || incx <= 0) return 0.0;
  ScratchVector<cdouble> c;
  if (incx != 1) x = (c = dma_gather(s, n, x, incx, rep)).data();  // contiguous: 2n doubles
  const double r = asum(s, 2 * n, reinterpret_cast<const double*>(x), 1, rep.sub());
  rep.add_sub();
  return r;
}

double nrm2(const Settings& s, std::int64_t n, const cdouble* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || incx <= 0) return 0.0;
  ScratchVector<cdouble> c;
  if (incx != 1) x = (c = dma_gather(s, n, x, incx, rep)).data();  // contiguous: 2n doubles
  const double r = nrm2(s, 2 * n, reinterpret_cast<const double*>(x), 1, rep.sub());
  rep.add_sub();
  return r;
}

std::int64_t iamax(const Settings& s, std::int64_t n, const cdouble* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || incx <= 0) return 0;
  elementwise_round_trip(rep, "trnblas.izamax.host", 4.0 * static_cast<double>(n), n, x, incx, false);
  ScratchVector<double> abs1(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) abs1[static_cast<std::size_t>(i)] = std::fabs(x[i * incx].real()) + std::fabs(x[i * incx].imag());
  return host_index_of_extreme(n, abs1.data(), 1, true);
}
std::int64_t iamin(const Settings& s, std::int64_t n, const cdouble* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n <= 0 || incx <= 0) return 0;
  elementwise_round_trip(rep, "trnblas.izamin.host", 4.0 * static_cast<double>(n), n, x, incx, false);
  ScratchVector<double> abs1(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) abs1[static_cast<std::size_t>(i)] = std::fabs(x[i * incx].real()) + std::fabs(x[i * incx].imag());
  return host_index_of_extreme(n, abs1.data(), 1, false);
}

}  // namespace trn::blas
