// trnfft C++ API: cuFFT-shaped FFT plans whose every flop runs as a tile kernel on the emulated
// NeuronCore (TensorE DFT-as-GEMM stages, VectorE twiddles and chirps, DMA access patterns for the
// reordering). The C API (trnfft.h) is a thin shim over this header. Algorithms, accuracy bounds and
// modeled costs: docs/trnfft.md.
//
// Conventions (cuFFT = FFTW): forward X[k] = sum_j x[j] exp(-2 pi i jk/N), inverse with +1, both
// unnormalised; sizes row-major (n[0] slowest); R2C keeps n_last/2 + 1 outputs; interleaved complex
// (float2/double2) in host memory; advanced layouts use cuFFT's formula.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "trn/blas/blas.hpp"
#include "trn/core/core.hpp"

namespace trn::fft {

// Precision modes reuse trnblas's names. Supported: fp32 (default: fp32 tiles, exact products, fp32
// PSUM, 4-pass TensorE cost), bf16 (bf16 tiles), bf16x3 (PSUM-compensated split). Others: NotSupportedError.
using Mode = blas::GemmMode;

enum class Type : std::uint8_t { c2c, r2c, c2r, z2z, d2z, z2d };
const char* type_name(Type t);

inline constexpr int kForward = -1;
inline constexpr int kInverse = 1;

// cuFFT's advanced layout of one side: element (b, x_0..x_{d-1}) at
// b * dist + ((x_0 * embed[1] + x_1) * embed[2] + ...) * stride. embed empty: the natural layout
// (contiguous, stride/dist ignored; R2C/C2R in place pads the real rows to 2 (n/2 + 1)).
struct Layout {
  std::vector<std::int64_t> embed;
  std::int64_t stride = 1, dist = 0;
};

// target, numerics, stochastic rounding, emulated cores (a transform's programs are spread over
// them), host threads (never change bits), timing_only: core's EmulatorSettings, as every library's.
struct Settings : EmulatorSettings {};

struct PlanSpec {
  std::vector<std::int64_t> n;  // 1 to 3 sizes, n[0] slowest
  Type type = Type::c2c;
  std::int64_t batch = 1;
  Layout in, out;
  Mode mode = Mode::fp32;
  // Element type of the user's arrays for C2C / R2C / C2R: f32, or 16-bit storage (f16, bf16; the
  // Xt API's TRN_C_16F / TRN_C_16BF ...), which DMA passes convert (RNE) to and from fp32 planes
  // around the fp32-plane transform.
  DType storage = DType::f32;
};

// What an execution did: the one trn::Report (modeled device time, the merged trace, the plan's
// stages as print() shows them, without the dry run's prediction) and the nc_matmul count.
struct ExecReport : Report {
  std::int64_t tensor_passes = 0;
};

// Largest supported size of one dimension (Bluestein's padded length must stay addressable).
inline constexpr std::int64_t kMaxDimension = std::int64_t{1} << 27;
// Largest plan: points (batch x product of the sizes) and elements either layout spans. Planning
// runs the transform once in timing-only mode (work size and modeled time, as cuFFT's MakePlan
// reports the work size), and that dry run -- like an execution -- needs host memory in proportion
// to the data: without a bound a plan such as n = 2, batch = 2^31 exhausts the host while planning.
inline constexpr std::int64_t kMaxPoints = std::int64_t{1} << 24;
inline constexpr std::int64_t kMaxSpan = std::int64_t{1} << 25;

class Plan {
 public:
  // Validates the spec (throws trn::UsageError for bad sizes/layouts, NotSupportedError for
  // modes or types not implemented), factors every dimension and builds the FP64-derived tables.
  Plan(const PlanSpec& spec, const Settings& settings = {});
  ~Plan();
  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;

  // Runs the transform. in/out: float/float2 (C2C, R2C, C2R) host arrays laid out per the spec;
  // in == out is the in-place transform. direction: kForward or kInverse (R2C forward, C2R inverse).
  void execute(const void* in, void* out, int direction, ExecReport* report = nullptr) const;

  const PlanSpec& spec() const;
  // Text in the spirit of fftw_print_plan: per dimension the algorithm of every stage, radices,
  // tile shapes, engines, the predicted error bound and the modeled time of one execution on the
  // settings' target (trn::Plan; the first call pays the timing-only dry run of modeled_ns()).
  std::string print() const;
  // Predicted relative L2 error bound of the plan's mode (docs/trnfft.md "Accuracy").
  double error_bound() const;
  // Modeled device time (ns) of one execution on the settings' target (a timing-only dry run).
  double modeled_ns() const;
  // The per-engine profile of that dry run (busy time per engine, critical engine).
  Profile modeled_profile() const;
  // Host scratch bytes one execution allocates (reported as cuFFT's workSize).
  std::size_t work_size() const;
  // Number of interleaved-complex (or real) elements each side spans, for argument checks.
  std::int64_t input_span(bool in_place) const;
  std::int64_t output_span(bool in_place) const;

 private:
  std::string print_stages() const;  // print() without the prediction (no dry run)
  struct Impl;
  std::unique_ptr<Impl> impl_;
};
static_assert(trn::Plan<Plan>);

namespace detail {
// Exposed for tests: the twiddle exp(sign 2 pi i idx/len) exactly as the plan computes it (FP64,
// from the reduced index, never by recurrence).
void unit_root(std::int64_t idx, std::int64_t len, int sign, double* c, double* s);
// The factorisation a plan uses for a 1-D length: the stage radices (empty: Bluestein).
std::vector<std::int64_t> stage_radices(std::int64_t n);
}  // namespace detail

}  // namespace trn::fft
