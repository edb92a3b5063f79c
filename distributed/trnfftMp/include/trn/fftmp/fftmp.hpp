// trnfftMp C++ API: distributed 2-D and 3-D FFTs over MPI, one rank = one emulated Trainium device
// (docs/scale-out.md "trnfftMp"). The C API (trnfftMp.h, cuFFTMp's shape) is a thin shim over it.
//
// Algorithm (slab decomposition, cuFFTMp's built-in slabs): the global array n0 x n1 [x n2]
// (row-major, n0 slowest) is split along n0 over the P ranks of the communicator (INPLACE: the first
// n0 % P ranks hold n0 / P + 1 planes, the others n0 / P), or along n1 (INPLACE_SHUFFLED, the same
// rule on n1; the local array is n0 x n1_loc [x n2], row-major). A forward transform
//   1. transforms the rank's n0_loc planes over the trailing axes (one single-device trnfft plan:
//      n = {n1[, n2]}, batch n0_loc) into a scratch slab,
//   2. transposes the slabs with one MPI_Alltoallv (rank r sends rank q its planes' rows of q's n1
//      range; what q receives lands contiguously in the shuffled layout), recorded in the rank's trace
//      as one link_transfer timed by the fabric model (fabric.hpp alltoall_ns),
//   3. transforms along n0 in place (one trnfft plan: n = {n0}, stride n1_loc [* n2], batch
//      n1_loc [* n2]).
// The inverse runs the steps backwards (n0 first on the shuffled slab, transpose, trailing axes).
// Every flop is trnfft's tile kernels on the rank's device (all its NeuronCores).
//
// Engines: those of trnfft's plans (TensorE DFT-GEMM stages, VectorE twiddles, DMA reorders) plus
// the link resource for the transpose; the argument exchange is one more (latency-only) link record.
//
// Real transforms (R2C / D2Z forward, C2R / Z2D inverse; cuFFTMp's slab semantics): the real array
// n0 x n1 [x n2] is split along n0 (INPLACE) with its last axis padded to 2 (n_last/2 + 1) reals (the
// in-place layout cuFFTMp requires); the half spectrum n0 x n1 x (n2/2 + 1) (3-D) or n0 x (n1/2 + 1)
// (2-D) is split along its axis 1 (INPLACE_SHUFFLED: n1 in 3-D, n1/2 + 1 in 2-D). Step 1 is trnfft's
// R2C plan over the trailing axes (reading the padded rows), steps 2 and 3 are the complex ones on
// the half spectrum; C2R runs them backwards, step 1 last as trnfft's C2R plan writing padded rows.
// Unnormalised (C2R(R2C(x)) = n0 n1 [n2] x), as cuFFT. A 3-D C2R / Z2D with n0 > 1 and n1 > 1 runs
// trnfft's single-device C2R order instead (its complex passes axis 1, then axis 0, then the
// last-axis C2R: trnfft/src/plan.cpp), through axis-2 slabs E (all n0 x all n1 x a slab of n2/2 + 1):
//   1. shuffled slabs -> E (one MPI_Alltoallv);  2. trnfft's 2-D C2C plan n = {n0, n1} on E (stride
//   E's width: axis 1, then axis 0 -- the single-device passes);  3. E -> n0 slabs of the half
//   spectrum (one MPI_Alltoallv);  4. trnfft's 1-D C2R of n2 writing the padded rows.
// Two all-to-alls instead of one (docs/scale-out.md 9.4); ranks beyond n2/2 + 1 hold no E slab.
//
// Accuracy: trnfft's bound of the whole transform (Plan::error_bound of the n0 x n1 [x n2] plan):
// each element's operations are those of the single-device passes. Determinism: the forward
// transform on any P is, element for element, trnfft's single-device 3-D (2-D) plan's sequence of
// passes (last axis, ..., n0); docs/scale-out.md states what the tests check bit for bit.
//
// Limits: C2C / R2C / C2R (fp32) and Z2Z / D2Z / Z2D (fp64) slabs (pencils and the box API: pencil.hpp); n0 >= P and n1 >= P
// are not required (a rank may own zero planes); one rank's local slab must fit trnfft's limits
// (kMaxPoints per local plan), and every transpose count and displacement MPI's int (2 GiB): both
// decided at plan time from the spec, the same verdict on every rank (NotSupportedError on all).
#pragma once
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "trn/core/fabric.hpp"
#include "trn/fft/fft.hpp"

namespace trn::fftmp {

// cuFFTMp's built-in slab distribution of an n-long axis over p ranks: the first n % p ranks own
// n / p + 1 indices, the others n / p. start: the first index rank r owns.
std::int64_t slab_count(std::int64_t n, int p, int r);
std::int64_t slab_start(std::int64_t n, int p, int r);

struct SlabSpec {
  std::vector<std::int64_t> n;          // 2 or 3 sizes, n[0] slowest (the real sizes of R2C / C2R)
  fft::Type type = fft::Type::c2c;      // c2c, r2c, c2r (fp32) or z2z, d2z, z2d (fp64)
  fft::Mode mode = fft::Mode::fp32;     // fp32 / bf16 / bf16x3 for the fp32 types (fp64: Ozaki)
};

// The complex array the slabs hold, {n0, c1, inner}: C2C / Z2Z {n0, n1, n2 or 1}; real types the
// half spectrum, 3-D {n0, n1, n2/2 + 1}, 2-D {n0, n1/2 + 1, 1}. INPLACE slabs split n0, shuffled
// slabs split c1; a real INPLACE slab n0_loc x n1 [x 2(n2/2+1)] reals is n0_loc x c1 x inner complex.
std::vector<std::int64_t> complex_shape(const SlabSpec& spec);
bool is_real(fft::Type t);   // r2c, c2r, d2z, z2d
bool is_fp64(fft::Type t);   // z2z, d2z, z2d

// What one execution on this rank does and its predicted modeled time (no communication: a bench
// may plan for P ranks it does not run on).
struct SlabPlanInfo {
  std::vector<std::int64_t> n;
  fft::Type type = fft::Type::c2c;
  int ranks = 1, rank = 0;
  Generation target = Generation::trn1;
  std::int64_t n0_loc = 0, n1_loc = 0, inner = 1;  // n1_loc: of complex_shape's c1; inner its third
  double trailing_ns = 0;   // step 1 (the trailing-axes plan), trnfft's modeled time
  double axis0_ns = 0;      // step 3 (the n0 plan)
  double link_ns = 0;       // the transpose: max(the all-to-all, the own block's HBM re-layout)
  double exchange_ns = 0;   // the argument exchange
  double send_bytes = 0, recv_bytes = 0;  // the transpose, this rank to / from the others
  double kept_bytes = 0;  // the transpose's own block (an HBM re-layout beside the link transfer)
  double predicted_ns = 0;  // max(exchange, trailing) + transpose + axis0 (each step needs the previous)
  double roofline_ns = 0;   // max(link time, the two local plans' own roofline bounds)
  double error_bound = 0;   // trnfft's bound of the whole transform
  bool predicted_by_scaling = false;  // local plans predicted at a smaller batch and scaled
  // The 3-D C2R / Z2D in the single-device order (header comment): axis0_ns is the 2-D plan on E,
  // trailing_ns the 1-D C2R, link_ns / bytes both all-to-alls; predicted = exchange + link + both plans.
  bool reordered = false;
  // The communication on the critical path: the all-to-all and what of the exchange step 1 does not hide.
  double comm_share() const {
    if (reordered) return predicted_ns > 0 ? (link_ns + exchange_ns) / predicted_ns : 0;
    return predicted_ns > 0 ? (link_ns + std::max(0.0, exchange_ns - trailing_ns)) / predicted_ns : 0;
  }
  std::string print() const;
};

// The prediction for `rank` of `ranks` without a communicator (plans the local steps, dry runs at
// most 2^20 points per local plan and scales by the batch beyond).
SlabPlanInfo predict_slab(const fft::Settings& s, const SlabSpec& spec, int ranks, int rank);

class SlabPlan {
 public:
  // Collective over comm: every rank passes the same spec (an argument exchange checks it first:
  // UsageError on every rank when they differ or a size is invalid). The settings' target is the
  // device; its cores are the device's NeuronCores. comm is duplicated (MPI_ERRORS_RETURN).
  SlabPlan(const SlabSpec& spec, const fft::Settings& settings, MPI_Comm comm);
  ~SlabPlan();
  SlabPlan(const SlabPlan&) = delete;
  SlabPlan& operator=(const SlabPlan&) = delete;

  // Elements (complex) of this rank's slab in the INPLACE (split along n0) and INPLACE_SHUFFLED
  // (split along c1) distributions; a buffer that serves both (in-place descriptor) holds the max.
  // A real INPLACE slab (padded rows) is inplace_elements() complex = twice as many reals.
  std::int64_t inplace_elements() const;
  std::int64_t shuffled_elements() const;

  // Collective. Forward (kForward): in = INPLACE slab, out = INPLACE_SHUFFLED slab. Inverse: in =
  // shuffled slab, out = INPLACE slab. in == out allowed (the buffer holds the larger of the two);
  // out-of-place leaves `in` untouched. float2 (c2c) or double2 (z2z) elements; the real side of
  // R2C / C2R (D2Z / Z2D) float (double) padded rows. R2C / D2Z plans run forward only, C2R / Z2D
  // inverse only. Every rank passes the same direction (exchanged first: UsageError on every rank
  // otherwise, or for the wrong direction of a real plan).
  void execute(const void* in, void* out, int direction, fft::ExecReport* report = nullptr) const;

  // Collective: the whole complex_shape array (real INPLACE: the padded real array, as many bytes)
  // on every rank from each rank's slab (shuffled: the INPLACE_SHUFFLED distribution, else INPLACE). For checks and small arrays (one MPI_Allgatherv;
  // not an emulated transfer, not in any trace).
  void allgather(const void* local, void* global, bool shuffled) const;

  const SlabSpec& spec() const { return spec_; }
  int ranks() const { return ranks_; }
  int rank() const { return rank_; }
  // The plan's communicator (a duplicate of the constructor's): the C API's argument exchange.
  MPI_Comm comm_for_exchange() const { return comm_; }
  // The prediction for this rank (predict_slab), computed on first use.
  const SlabPlanInfo& info() const;
  std::string print() const { return info().print(); }
  double error_bound() const;

 private:
  void run_forward(const char* in, char* out, Trace& trace) const;
  void run_inverse(const char* in, char* out, Trace& trace) const;
  void transpose(const char* send, char* recv, bool to_shuffled, Trace& trace) const;
  void run_reordered_inverse(const char* in, char* out, Trace& trace) const;
  SlabSpec spec_;
  fft::Settings settings_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int ranks_ = 1, rank_ = 0;
  std::int64_t c1_ = 0;  // complex_shape(spec)[1]: the axis the shuffled slabs split
  std::int64_t n0_loc_ = 0, n1_loc_ = 0, inner_ = 1;
  std::unique_ptr<fft::Plan> trailing_, axis0_;  // null when this rank's slab is empty
  bool reordered_ = false;  // the single-device C2R order: axis0_ is the 2-D plan on E, trailing_ the 1-D C2R
  mutable std::unique_ptr<SlabPlanInfo> info_;
};

}  // namespace trn::fftmp
