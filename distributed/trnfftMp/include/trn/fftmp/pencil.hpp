// trnfftMp pencils and boxes: a 3-D FFT over a 2-D process grid, and cuFFTMp's box API
// (cufftXtSetDistribution: every rank's input and output bricks), on trnfft's single-device plans
// (docs/scale-out.md 9.6-9.8).
//
// Algorithm (pencil decomposition, the classic 2-D decomposition of a 3-D FFT: P = P1 x P2, rank
// r = p1 P2 + p2). Three boxes per rank, each with one axis whole:
//   A = n0 slab p1 of P1 x n1 slab p2 of P2 x all n2      stored [i0][i1][i2] (axis 2 contiguous)
//   B = n0 slab p1 of P1 x all n1 x n2 slab p2 of P2      stored [i0][i2][i1] (axis 1 contiguous)
//   C = all n0 x n1 slab p1 of P1 x n2 slab p2 of P2      stored [i1][i2][i0] (axis 0 contiguous)
// (slabs: cuFFTMp's rule, the first n % p parts one longer). A forward transform runs
//   1. axis 2 on A: one trnfft plan n = {n2}, a dense batch of |A| / n2 transforms;
//   2. A -> B over the row communicator (the P2 ranks of row p1): one MPI_Alltoallv;
//   3. axis 1 on B: trnfft plan n = {n1}, dense batch;
//   4. B -> C over the column communicator (the P1 ranks of column p2): one MPI_Alltoallv;
//   5. axis 0 on C: trnfft plan n = {n0}, dense batch.
// The inverse runs it backwards (axis 0 on C first).
// Real transforms (R2C / D2Z forward only, C2R / Z2D inverse only): the input A pencil is real, n2
// reals per row (dense), and step 1 is trnfft's 1-D R2C of length n2 into the half-spectrum A
// pencil (n2/2 + 1 per row); steps 2-5 are the complex ones on the half spectrum n0 x n1 x (n2/2 + 1)
// (B and C split its axis 2). C2R runs them backwards, step 1 last as trnfft's C2R writing the real
// pencil. Unnormalised, as cuFFT. Every pass is dense (the transposes place
// each pencil's axis contiguously), unlike the slab plan's strided axis-0 pass. An axis of length 1
// is the identity: no plan. P2 = 1 is a slab decomposition (step 2 is a local re-layout).
// Each transpose is a link_transfer timed by the fabric model over its sub-communicator's devices,
// or by the DMA re-layout of the rank's own block through HBM (read + write at the chip's HBM
// bandwidth) when that is longer (always on one device, where the whole pencil is re-laid out).
//
// Boxes (cuFFTMp's "flexible slabs and pencils"): a Box is [lower, upper) in global indices with
// strides: element (i, j, k) of the box is at (i - lower0) s0 + (j - lower1) s1 + (k - lower2) s2 of
// the rank's buffer. A BoxPlan redistributes the ranks' input boxes to the pencil plan's A boxes
// (one all-to-all over the communicator), transforms, and redistributes C to the output boxes
// (inverse: output boxes -> C -> ... -> A -> input boxes). Each redistribution is timed as a transpose:
// the all-to-all over the communicator or the re-layout of the rank's own block, the longer.
//
// Engines: trnfft's plans (TensorE DFT-GEMM stages, VectorE twiddles, DMA reorders) on the rank's
// device; the link resource for each all-to-all; the pack / unpack copies around a message are the
// DMA access pattern of the transfer (host copies, not costed apart, as the slab plan's).
//
// Accuracy: trnfft's bound of the whole transform (the sum of the three 1-D plans' bounds: in fp32
// 4 u log2(n0 n1 n2), the single-device plan's). Bits (fp32 modes): each element goes through the
// same 1-D transforms in the same order (axis 2, 1, 0) as trnfft's single-device 3-D plan and the
// slab plan, and trnfft's fp32 bits do not depend on batch or layout, so the forward pencil result
// equals them bit for bit on any grid (tested); fp64 (Z2Z) bits depend on the batch of a pass
// (Ozaki balancing, docs/scale-out.md 9.2): deterministic for a given grid, within the bound across.
// Real types (9.9): R2C equals trnfft's single-device R2C plan bit for bit on any grid (the same
// passes in the same order). C2R / Z2D run trnfft's single-device C2R order -- axis 1, axis 0, then
// the last-axis C2R (trnfft/src/plan.cpp, Plan::Impl::execute: the complex axes n-2 ... 0) -- through
// the E boxes (all n0 x all n1 x a part of the half spectrum's axis 2, reordered C2R below), so the
// fp32 C2R equals trnfft's single-device C2R bit for bit on any grid (Z2D: on one rank; Ozaki).
//
// Reordered C2R (C2R / Z2D with n0 > 1 and n1 > 1; otherwise the plain inverse above already has the
// single-device order). E of rank (p1, p2) = all n0 x all n1 x sub-slab p1 of P1 of the axis-2 slab p2
// of P2 (the union of column p2's C pencils), stored axis 1 contiguous (E1: [i2][i0][i1]) or axis 0
// contiguous (E0: [i2][i1][i0]):
//   1. C -> E1 over the column communicator (one MPI_Alltoallv);  2. axis 1 on E1 (dense batch);
//   3. E1 -> E0, a local DMA re-layout through HBM;                4. axis 0 on E0 (dense batch);
//   5. E0 -> A over the whole communicator (one MPI_Alltoallv);     6. trnfft's 1-D C2R on A.
// One local re-layout more than the plain inverse and the second all-to-all over all P ranks instead
// of the row's P2 (docs/scale-out.md 9.9). Ranks beyond n2/2 + 1 hold no E box (idle in 2 and 4).
//
// Limits: 3-D (2-D through the box API: complex as n0 x n1 x 1, real as 1 x n0 x n1 so that the
// halved axis is axis 2); a real transform's n2 must be one trnfft's R2C plan takes; at most 2^48 points; one rank's box below 2 GiB (every message and
// displacement fits MPI's int: checked from every rank's boxes at plan time, the same verdict on
// every rank); the local pencils within trnfft's limits.
#pragma once
#include <mpi.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "trn/core/fabric.hpp"
#include "trn/fft/fft.hpp"

namespace trn::fftmp {

using Index3 = std::array<std::int64_t, 3>;

// Box bounds lie in [0, 2^27] (trnfft's largest size) and strides in [1, 2^31]: nothing computed
// from a valid box overflows. A pencil plan takes at most 2^48 points in all.
inline constexpr std::int64_t kMaxBoxIndex = std::int64_t{1} << 27;
inline constexpr std::int64_t kMaxBoxStride = std::int64_t{1} << 31;
inline constexpr double kMaxPencilPoints = 281474976710656.0;  // 2^48

struct Box {
  Index3 lower{}, upper{}, strides{};
  std::int64_t extent(int d) const { return upper[static_cast<std::size_t>(d)] - lower[static_cast<std::size_t>(d)]; }
  std::int64_t volume() const;  // elements in the box (0 when an extent is 0; saturating)
  std::int64_t span() const;    // elements a buffer holding the box needs: 1 + sum (e_d - 1) s_d (0: empty; saturating)
  bool operator==(const Box& o) const { return lower == o.lower && upper == o.upper && strides == o.strides; }
};

// A dense box: axes stored in `order` (slowest first), e.g. {0, 1, 2} row-major.
Box dense_box(const Index3& lower, const Index3& upper, const std::array<int, 3>& order);
// Bounds in [0, 2^27], lower <= upper, strides in [1, 2^31] and the layout one-to-one (sorted by stride, each stride at least
// the previous stride times its extent: no two elements share an address). Axes of extent <= 1
// are free. "" when valid, else why.
std::string box_layout_error(const Box& b);
// True when a box holds 2 GiB or more: a message or displacement of it would not fit MPI's int
// (every message to or from a rank is a part of its box).
bool too_large_for_mpi(const Box& b, std::size_t elem_bytes);
// "" when the boxes lie in [0, shape) and tile it exactly (no overlap, no hole), else why.
std::string tiling_error(const std::vector<Box>& boxes, const Index3& shape);

// Moves the elements of `from[me]` (in `src`) to the ranks whose `to` box holds them (into `dst`),
// over comm (from / to: one box per rank of comm). One MPI_Alltoallv; src == dst allowed (packed
// before anything is written). Returns the bytes this rank sent to / received from other ranks.
struct Moved {
  double sent = 0, received = 0, kept = 0;  // kept: the bytes of this rank's own block
};
Moved redistribute(MPI_Comm comm, const std::vector<Box>& from, const std::vector<Box>& to, std::size_t elem_bytes,
                   const void* src, void* dst);
// What redistribute would move for member `me` (no communication: a prediction's bytes).
Moved planned_moves(const std::vector<Box>& from, const std::vector<Box>& to, std::size_t me, std::size_t elem_bytes);

struct PencilSpec {
  Index3 n{};                        // n0 slowest (the real sizes of R2C / C2R)
  fft::Type type = fft::Type::c2c;   // c2c, r2c, c2r (fp32 modes) or z2z, d2z, z2d
  fft::Mode mode = fft::Mode::fp32;
  int p1 = 0, p2 = 0;                // the process grid; 0, 0: the plan chooses (choose_grid)
};

// The plan's grid for P ranks: P2 = 1 (slabs: one all-to-all) while P <= min(n0, n1), else the
// most square P1 x P2 = P (P1 >= P2) with P1 <= min(n0, n1) and P2 <= min(n1, n2) when there is one,
// else the most square. Pencils let a 3-D FFT use more ranks than n0 (slabs leave ranks idle).
std::array<int, 2> choose_grid(const Index3& n, int ranks);

// The three boxes of `rank` on the grid (header comment), with their storage strides.
std::array<Box, 3> pencil_boxes(const Index3& n, int p1, int p2, int rank);
// The complex array the transposes move: n, or the half spectrum {n0, n1, n2/2 + 1} of a real type.
Index3 complex_dims(const PencilSpec& s);
// The rank's forward input (inverse output) box: the A pencil of spec.n (real for a real type).
Box pencil_input_box(const PencilSpec& s, int p1, int p2, int rank);

struct PencilPlanInfo {
  Index3 n{};
  fft::Type type = fft::Type::c2c;
  int ranks = 1, rank = 0, p1 = 1, p2 = 1;
  Generation target = Generation::trn1;
  std::array<Index3, 3> extents{};      // of A, B, C (complex: a real type's half spectrum)
  std::array<double, 3> axis_ns{};      // axis 2, axis 1, axis 0 passes (trnfft's modeled time)
  double row_link_ns = 0, col_link_ns = 0, exchange_ns = 0;  // the transposes (link or re-layout) and the exchange
  double row_bytes = 0, col_bytes = 0;  // the larger direction of each all-to-all, this rank
  double predicted_ns = 0;              // max(exchange, axis 2) + row + axis 1 + column + axis 0
  // Reordered C2R (header comment): extents[1] is E, axis_ns[1] / [2] the passes on E, col_* C -> E1,
  // row_* the all-to-all E0 -> A over every rank, relayout_ns E1 -> E0; predicted = exchange + column
  // + axis 1 + re-layout + axis 0 + all-to-all + the C2R pass.
  bool reordered = false;
  double relayout_ns = 0;
  double roofline_ns = 0;               // max(link time, the local plans' roofline bounds)
  double error_bound = 0;
  bool predicted_by_scaling = false;
  double comm_ns() const;
  double comm_share() const { return predicted_ns > 0 ? comm_ns() / predicted_ns : 0; }
  std::string print() const;
};

// The prediction for `rank` of `ranks` without a communicator (a bench may plan for P ranks it does
// not run on). spec.p1 / p2 0: choose_grid.
PencilPlanInfo predict_pencil(const fft::Settings& s, const PencilSpec& spec, int ranks, int rank);

class PencilPlan {
 public:
  // Collective over comm: every rank passes the same spec (exchanged first: UsageError on every rank
  // when they differ, a size is invalid or p1 p2 != the communicator's size). comm is duplicated.
  PencilPlan(const PencilSpec& spec, const fft::Settings& settings, MPI_Comm comm);
  ~PencilPlan();
  PencilPlan(const PencilPlan&) = delete;
  PencilPlan& operator=(const PencilPlan&) = delete;

  // The rank's A box (forward input, inverse output; real elements for a real type) and C box
  // (forward output, inverse input; complex).
  const Box& input_box() const { return in_box_; }
  const Box& output_box() const { return boxes_[2]; }
  // Collective. Forward: in = A pencil, out = C pencil; inverse: in = C, out = A. float2 / double2
  // elements (the real A pencil: float / double); in == out allowed when the buffer holds both.
  // Every rank passes the same direction (a real type's own: R2C / D2Z -1, C2R / Z2D +1).
  void execute(const void* in, void* out, int direction, fft::ExecReport* report = nullptr) const;
  // The same without the exchange and report: appends the steps to `trace` (the box plan's body).
  void run(const void* in, void* out, int direction, Trace& trace) const;

  const PencilSpec& spec() const { return spec_; }  // p1, p2: the grid in use
  int rank() const { return rank_; }
  int ranks() const { return p1_ * p2_; }
  MPI_Comm comm() const { return comm_; }
  const fft::Settings& settings() const { return settings_; }
  const PencilPlanInfo& info() const;
  std::string print() const { return info().print(); }
  double error_bound() const { return info().error_bound; }

 private:
  void transpose(MPI_Comm sub, const RankSet& set, int from, int to, const char* src, char* dst, const char* name,
                 Trace& trace) const;
  std::vector<Box> member_boxes(int stage, bool row) const;
  // Moves this rank's `from` box (src) to its `to` box (dst) over sub, every member's boxes given in
  // sub's rank order; one link_transfer record timed over `set` (or the own block's re-layout).
  void move_boxes(MPI_Comm sub, const RankSet& set, const std::vector<Box>& from, const std::vector<Box>& to, int me,
                  const char* src, char* dst, const char* name, Trace& trace) const;
  void run_reordered_inverse(const char* in, char* out, Trace& trace) const;
  PencilSpec spec_;
  fft::Settings settings_;
  MPI_Comm comm_ = MPI_COMM_NULL, row_ = MPI_COMM_NULL, col_ = MPI_COMM_NULL;
  int rank_ = 0, p1_ = 1, p2_ = 1;
  Index3 cn_{};                 // complex_dims(spec_)
  std::array<Box, 3> boxes_{};  // A, B, C of cn_
  Box in_box_{};                // A of spec_.n (a real type's real pencil; else boxes_[0])
  std::array<std::unique_ptr<fft::Plan>, 3> axis_;  // axis 2, 1, 0 (null: empty pencil or length 1)
  bool reordered_ = false;      // the reordered C2R: axis_[1] / [2] run on E1 / E0
  mutable std::unique_ptr<PencilPlanInfo> info_;
};

// cuFFTMp's box API: a 2-D (complex n0 x n1: boxes with lower2 = 0, upper2 = 1; real 1 x n0 x n1:
// lower0 = 0, upper0 = 1) or 3-D transform from every rank's input box to its output box. Real types
// (cuFFTMp's rule for R2C / C2R plans): the input box is in the real domain spec.n (real elements,
// strides in reals: cuFFTMp's in-place padding 2 (n2/2 + 1) is a stride like any other), the output
// box in the half spectrum complex_dims(spec) (complex elements); R2C / D2Z run forward (input ->
// output), C2R / Z2D inverse (output -> input).
class BoxPlan {
 public:
  // Collective: the same sizes and type on every rank (exchanged), then every rank's boxes (one
  // allgather) checked: each rank's layout (box_layout_error) and that the input and the output
  // boxes tile the domain exactly: UsageError on every rank otherwise. spec.p1 / p2 as PencilPlan.
  BoxPlan(const PencilSpec& spec, const Box& in_box, const Box& out_box, const fft::Settings& settings, MPI_Comm comm);
  // Elements of the rank's input / output box buffers (span; a real type's input box in reals); a
  // descriptor holds the larger in bytes (input_bytes / output_bytes: one element's).
  std::int64_t input_span() const { return in_.span(); }
  std::int64_t output_span() const { return out_.span(); }
  std::size_t input_bytes() const { return in_es_; }
  std::size_t output_bytes() const { return out_es_; }
  // Collective. Forward: in = the input box, out = the output box; inverse: in = output box, out =
  // input box; in == out allowed (a buffer of both spans). Only the box's elements are written.
  void execute(const void* in, void* out, int direction, fft::ExecReport* report = nullptr) const;
  const PencilPlan& pencils() const { return *pencil_; }
  std::string print() const;
  double error_bound() const { return pencil_->error_bound(); }

 private:
  void move(const std::vector<Box>& from, const std::vector<Box>& to, std::size_t es, const void* src, void* dst,
            const char* name, Trace& trace) const;
  std::unique_ptr<PencilPlan> pencil_;
  Box in_, out_;
  std::size_t in_es_ = 8, out_es_ = 8;  // bytes of one input-side / output-side element
  std::vector<Box> all_in_, all_out_, all_a_, all_c_;
};

}  // namespace trn::fftmp
