// trn::rand::Generator: cuRAND's host-API PHILOX4_32_10 generator in C++ (the C API trnrand.h is a
// thin shim over it).
//
// Streams: cuRAND's host ordering (streams.hpp). The generator keeps a position ("offset") that
// counts output elements of the caller's type and advances by the count of every call, so
// successive calls and mixed types continue exactly as cuRAND's host generator does (observed on
// cuRAND 10.4, docs/trnrand.md section 2). A 32-bit output is a pure function of (seed, position)
// until a 64-bit call advances cuRAND's per-thread counters (streams.hpp: thread shifts, cleared by
// set_offset); a 64-bit output also depends on the position where its call started, as in cuRAND.
// set_seed keeps the offset (call
// set_offset(0) to restart; cuRAND's own reseed-after-generate behaviour is a quirk not copied).
// Not thread-safe: one generator per thread, as cuRAND's handles.
//
// Paths (identical bits, tested):
//  - engines: every call runs as tile kernels on emulated NeuronCores through trn::launch
//    (kernels.hpp): Philox on GpSimdE, fp32 transforms on VectorE / ScalarE, DMA to the output.
//    fp64 outputs: the words come from the GpSimd operator, the fp64 transform runs on the host
//    side of the kernel (no NeuronCore engine computes in fp64).
//  - host: the vectorised host fill (host.hpp) and the same scalar transforms.
// last_profile() models the last call's kernel on the configured target (for the host path, the
// same kernel recorded timing-only).
//
// Argument rules (the C API maps violations to cuRAND statuses): lambda of poisson in
// (0, 400000], of poisson_exact in (0, 2^31]; exponential rate > 0; bernoulli p in [0, 1];
// uniform_int low <= high. Unlike the C API, odd counts are allowed for the Box–Muller
// distributions (each position's value does not depend on the call boundaries).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "trn/core/cost_model.hpp"
#include "trn/rand/host.hpp"
#include "trn/rand/kernels.hpp"
#include "trn/rand/poisson.hpp"

namespace trn::rand {

enum class GeneratorPath : std::uint8_t { engines, host };

struct GeneratorOptions {
  GeneratorPath path = GeneratorPath::engines;
  HostIsa host_isa = HostIsa::automatic;  // host path
  EngineConfig engines{};                 // emulated target (also the cost-model target), cores, threads, numerics
};

class Generator {
 public:
  explicit Generator(const GeneratorOptions& options = {});

  void set_seed(std::uint64_t seed) { seed_ = seed; }
  // Setting the offset restarts every thread's counter at its row (no shifts), as cuRAND's does.
  void set_offset(std::uint64_t offset) {
    offset_ = offset;
    thread_shift_.clear();
  }
  std::uint64_t seed() const { return seed_; }
  std::uint64_t offset() const { return offset_; }
  const GeneratorOptions& options() const { return options_; }
  void set_options(const GeneratorOptions& options);

  // cuRAND's distributions.
  void generate(std::span<std::uint32_t> out);
  void uniform(std::span<float> out);
  void uniform_double(std::span<double> out);
  void normal(std::span<float> out, float mean, float stddev);
  void normal_double(std::span<double> out, double mean, double stddev);
  void log_normal(std::span<float> out, float mean, float stddev);
  void log_normal_double(std::span<double> out, double mean, double stddev);
  void poisson(std::span<std::uint32_t> out, double lambda);
  // Extensions.
  void poisson_exact(std::span<std::uint32_t> out, double lambda);
  void exponential(std::span<float> out, float rate);
  void exponential_double(std::span<double> out, double rate);
  void bernoulli(std::span<std::uint32_t> out, double p);
  void uniform_int(std::span<std::uint32_t> out, std::uint32_t low, std::uint32_t high);

  // Modeled cost of the last call's kernel on options().engines.target (empty before any call).
  Profile last_profile() const;
  // The last call as the one trn::Report: its plan (GeneratePlan), kernel trace and profile.
  Report last_report() const;
  // Where a call over p's window runs (the engines-or-host rule, GeneratePlan).
  GeneratePlan plan(const KernelParams& p) const;
  // The last call's plan (empty before any call), with its predicted modeled time.
  const std::optional<GeneratePlan>& last_plan() const { return last_plan_; }
  // The kernel trace of the last call (recorded timing-only for the host path).
  const Trace& last_trace() const;

 private:
  // One call over the output window of p: the kernel launch (engines path) or its host equivalent.
  void run_u32(KernelParams p, std::span<std::uint32_t> out);
  void run_f32(KernelParams p, std::span<float> out);
  std::vector<std::uint32_t> words64(std::uint64_t first_word, std::uint64_t count);
  std::vector<float> normals_f32(std::uint64_t first, std::uint64_t count, float mean, float stddev, bool log);
  void remember(const KernelParams& p, std::optional<LaunchResult> launched);
  std::shared_ptr<const PoissonTable> table_for(double lambda);
  KernelParams window(KernelKind kind, WordOrder order, std::uint64_t first, std::uint64_t count) const;
  // After a 64-bit call over positions [offset_, offset_ + count): the rows it finished advance their
  // thread's counter by one more than a 32-bit call would (streams.hpp, docs/trnrand.md section 2).
  void advance_thread_shifts_64(std::uint64_t count);

  GeneratorOptions options_;
  std::uint64_t seed_ = 0, offset_ = 0;
  // Per-thread counter shifts of cuRAND's host ordering (kCurandHostSubsequences entries), empty
  // while all are zero (no 64-bit call since the offset was set).
  std::vector<std::uint64_t> thread_shift_;
  std::shared_ptr<const PoissonTable> table_;
  // Last call: its kernel parameters and, once known, its trace.
  std::optional<KernelParams> last_params_;
  std::shared_ptr<const PoissonTable> last_table_;
  std::optional<GeneratePlan> last_plan_;
  mutable std::optional<Trace> last_trace_;
  // The host step of the last call, if it had one (poisson from lambda 2000: cuRAND's glibc
  // Box-Muller and rounding on the host CPU, recorded after the words kernel; docs/trnrand.md 3).
  // The fp64 outputs' transforms of their words take the same path (HostTransform, kernels.hpp).
  struct PendingHostStep {
    HostTransform step;
    std::uint64_t words = 0, outputs = 0, out_bytes = 0;
  };
  std::optional<PendingHostStep> host_step_;
  void append_host_step(Trace& trace, const void* words_at, const void* out_at) const;
  // After the words kernel: its words transformed into out on the host, recorded as one host step.
  void host_transform(const HostTransform& step, const std::vector<std::uint32_t>& words, const void* out,
                      std::size_t outputs, std::size_t out_bytes);
};

}  // namespace trn::rand
