// trn::rand::Generator (trn/rand/generator.hpp): position bookkeeping, argument checks, and the
// choice between the engine kernels and the host path. The fp64 transforms and the Poisson normal
// approximation run here, on the host side of the kernel, identically for both paths; the Poisson
// normal approximation (glibc logf / sqrtf / sinf / cosf, as libcurand's host generator) is
// recorded as a host step of the call's trace.
#include "trn/rand/generator.hpp"

#include <cmath>
#include <string>

#include "trn/core/error.hpp"
#include "trn/core/host_step.hpp"
#include "trn/rand/transforms.hpp"

namespace trn::rand {

namespace {

constexpr std::string_view kWho = "trn::rand::Generator";

KernelParams window_params(KernelKind kind, WordOrder order, std::uint64_t seed, std::uint64_t first,
                           std::uint64_t count) {
  KernelParams p;
  p.kind = kind;
  p.stream = WordStream{seed, order, 0};
  p.domain_first = p.window_first = first;
  p.domain_count = p.window_count = count;
  return p;
}

// Box–Muller kinds compute whole pairs: widen the domain to even positions.
void align_pairs(KernelParams& p) {
  const std::uint64_t end = p.window_first + p.window_count;
  p.domain_first = p.window_first & ~std::uint64_t{1};
  p.domain_count = ((end + 1) & ~std::uint64_t{1}) - p.domain_first;
}

// Address recorded for the output of timing-only kernels (never dereferenced).
void* timing_only_address() { return reinterpret_cast<void*>(std::uintptr_t{1} << 40); }

}  // namespace

Generator::Generator(const GeneratorOptions& options) { set_options(options); }

void Generator::set_options(const GeneratorOptions& options) {
  resolve_host_isa(options.host_isa);  // throws NotSupportedError for an ISA this CPU lacks
  if (options.engines.num_cores < 1) throw UsageError(kWho, "num_cores", "needs at least one emulated NeuronCore");
  options_ = options;
}

std::shared_ptr<const PoissonTable> Generator::table_for(double lambda) {
  if (!table_ || table_->lambda != lambda) table_ = std::make_shared<const PoissonTable>(build_poisson_table(lambda));
  return table_;
}

KernelParams Generator::window(KernelKind kind, WordOrder order, std::uint64_t first, std::uint64_t count) const {
  KernelParams p = window_params(kind, order, seed_, first, count);
  if (!thread_shift_.empty()) p.stream.thread_shift = thread_shift_.data();
  return p;
}

void Generator::advance_thread_shifts_64(std::uint64_t count) {
  // Rows q in [offset_ / 4, (offset_ + count) / 4) end inside the call; floor((offset_ mod 4 + count) / 4)
  // of them, starting at thread (offset_ / 4) mod 65536 (no 2^64 wrap in this form).
  const std::uint64_t rows = (offset_ % kWordsPerBlock + count) / kWordsPerBlock;
  if (rows == 0) return;
  if (thread_shift_.empty()) thread_shift_.assign(kCurandHostSubsequences, 0);
  const std::uint64_t rounds = rows / kCurandHostSubsequences, rest = rows % kCurandHostSubsequences;
  const std::uint64_t t0 = (offset_ / kWordsPerBlock) % kCurandHostSubsequences;
  for (std::uint64_t t = 0; t < kCurandHostSubsequences; ++t) {
    const std::uint64_t from_t0 = (t + kCurandHostSubsequences - t0) % kCurandHostSubsequences;
    thread_shift_[t] += rounds + (from_t0 < rest ? 1 : 0);
  }
}

void Generator::remember(const KernelParams& p, std::optional<LaunchResult> launched) {
  last_params_ = p;
  last_params_->out = nullptr;
  last_params_->stream.thread_shift = nullptr;  // timing-only replays never read words
  last_table_ = p.kind == KernelKind::poisson_table ? table_ : nullptr;
  host_step_.reset();
  if (launched)
    last_trace_ = std::move(launched->trace);
  else
    last_trace_.reset();
}

const Trace& Generator::last_trace() const {
  static const Trace kEmpty;
  if (!last_params_) return kEmpty;
  if (!last_trace_) {
    KernelParams p = *last_params_;
    p.out = timing_only_address();
    p.table = last_table_.get();
    EngineConfig cfg = options_.engines;
    cfg.timing_only = true;
    last_trace_ = run_generate_kernel(p, cfg).trace;
    if (host_step_) {
      // Timing-only addresses: the words at the kernel's output, the results right after them.
      const auto* words_at = static_cast<const std::uint32_t*>(p.out);
      append_host_step(*last_trace_, words_at, words_at + host_step_->words);
    }
  }
  return *last_trace_;
}

// Per output: the Box-Muller of its pair (logf, sqrtf, sinf or cosf, a multiply; the pair shares
// the log and the square root) and sqrt(lambda) z + lambda + 0.5 with its conversion, counted as
// 24 operations.
constexpr HostTransform kPoissonNormalApproximation{"trnrand.poisson.normal_approximation", 24.0};

void Generator::append_host_step(Trace& trace, const void* words_at, const void* out_at) const {
  const auto* w = static_cast<const std::uint32_t*>(words_at);
  const auto* o = static_cast<const std::uint8_t*>(out_at);
  record_host_step(trace, HostStep{.name = host_step_->step.name,
                                   .flops = host_step_->step.ops * static_cast<double>(host_step_->outputs),
                                   .reads = {HostSpan(w, static_cast<std::int64_t>(host_step_->words))},
                                   .writes = {HostSpan(o, static_cast<std::int64_t>(host_step_->out_bytes))}});
}

void Generator::host_transform(const HostTransform& step, const std::vector<std::uint32_t>& words, const void* out,
                               std::size_t outputs, std::size_t out_bytes) {
  host_step_ = PendingHostStep{step, words.size(), outputs, out_bytes};
  // The plan (the words kernel's) plus the host step it is followed by (recorded after the kernel).
  last_plan_->predicted_ns += host_step_ns(4.0 * static_cast<double>(words.size()) + static_cast<double>(out_bytes),
                                           step.ops * static_cast<double>(outputs), hardware_spec(options_.engines.target));
  if (last_trace_) append_host_step(*last_trace_, words.data(), out);
}

Profile Generator::last_profile() const {
  Profile empty;
  empty.target = options_.engines.target;
  if (!last_params_) return empty;
  return model_trace(last_trace(), ReportSettings{options_.engines.target});
}

Report Generator::last_report() const {
  Report r;
  r.profile.target = options_.engines.target;
  if (!last_params_) return r;
  if (last_plan_) r.add_plan(*last_plan_);
  finish_report(r, Trace(last_trace()), ReportSettings{options_.engines.target});
  return r;
}

// ---- the two paths ----------------------------------------------------------------------------

// The engine kernels index their tiles by 64-bit element positions from the window's first
// element; a window that reaches within kEngineIndexMargin of 2^64 (where those positions would
// wrap) is produced by the host path instead, which counts words written and wraps the position
// modulo 2^64 as cuRAND's offset does. Both paths give the same bits everywhere else (tested), so
// the output is the same; only the modeled profile of such a call is empty.
namespace {
constexpr std::uint64_t kEngineIndexMargin = std::uint64_t{1} << 32;
bool engine_window_fits(const KernelParams& p) {
  const std::uint64_t first = std::min(p.domain_first, p.window_first);
  const std::uint64_t count = std::max(p.domain_count, p.window_count);
  return count <= UINT64_MAX - kEngineIndexMargin && first <= UINT64_MAX - kEngineIndexMargin - count;
}
}  // namespace

GeneratePlan Generator::plan(const KernelParams& p) const {
  GeneratePlan g;
  g.kind = p.kind;
  g.count = p.window_count;
  g.target = options_.engines.target;
  g.cores = options_.engines.num_cores;
  const bool fits = engine_window_fits(p);
  g.engines = options_.path == GeneratorPath::engines && fits;
  g.predicted_ns = predict_generate_ns(p, options_.engines);  // the host path records the same kernel
  g.why = options_.path == GeneratorPath::host ? "GeneratorPath::host requested"
          : fits ? "the window's element positions fit 64 bits with the kernels' margin"
                 : "the window reaches within 2^32 of 2^64 (positions would wrap on the engines)";
  return g;
}

void Generator::run_u32(KernelParams p, std::span<std::uint32_t> out) {
  last_plan_ = plan(p);
  if (last_plan_->engines) {
    p.out = out.data();
    remember(p, run_generate_kernel(p, options_.engines));
    return;
  }
  const HostIsa isa = options_.host_isa;
  const std::uint64_t first = p.window_first;
  switch (p.kind) {
    case KernelKind::words:
      fill_stream_words(p.stream, first, out, isa);
      break;
    case KernelKind::bernoulli:
      fill_stream_words(p.stream, first, out, isa);
      for (auto& w : out) w = std::uint64_t{w} < p.bernoulli_cut ? 1u : 0u;
      break;
    case KernelKind::poisson_table:
      fill_stream_words(p.stream, first, out, isa);
      for (auto& w : out) w = p.table->sample(w);
      break;
    case KernelKind::poisson_exact:
      for (std::size_t k = 0; k < out.size(); ++k) out[k] = poisson_exact_sample(p.stream.seed, first + k, p.lambda);
      break;
    case KernelKind::uniform_int:
      fill_stream_words(p.stream, first, out, isa);
      for (std::size_t k = 0; k < out.size(); ++k)
        out[k] = p.int_low + uniform_int_sample(p.stream.seed, first + k, out[k], p.int_range);
      break;
    default:
      throw Error("internal: run_u32 with a float kernel kind");
  }
  remember(p, std::nullopt);
}

void Generator::run_f32(KernelParams p, std::span<float> out) {
  if (p.kind == KernelKind::normal || p.kind == KernelKind::log_normal) align_pairs(p);
  last_plan_ = plan(p);
  if (last_plan_->engines) {
    p.out = out.data();
    remember(p, run_generate_kernel(p, options_.engines));
    return;
  }
  const HostIsa isa = options_.host_isa;
  switch (p.kind) {
    case KernelKind::uniform:
      fill_uniform(p.stream, p.window_first, out, isa);
      break;
    case KernelKind::exponential:
      fill_uniform(p.stream, p.window_first, out, isa);
      for (auto& x : out) x = exponential_from_uniform(x, p.rate);
      break;
    case KernelKind::normal:
    case KernelKind::log_normal: {
      std::vector<std::uint32_t> w(static_cast<std::size_t>(p.domain_count));
      fill_stream_words(p.stream, p.domain_first, w, isa);
      const std::uint64_t skip = p.window_first - p.domain_first;
      for (std::size_t m = 0; m < w.size(); m += 2) {
        const auto z = box_muller_f32(w[m], w[m + 1]);
        for (std::size_t c = 0; c < 2; ++c) {
          const std::uint64_t k = m + c;  // domain index
          if (k < skip || k >= skip + out.size()) continue;
          out[static_cast<std::size_t>(k - skip)] = p.kind == KernelKind::normal
                                                        ? normal_affine(z[c], p.mean, p.stddev)
                                                        : log_normal_from(z[c], p.mean, p.stddev);
        }
      }
      break;
    }
    default:
      throw Error("internal: run_f32 with an integer kernel kind");
  }
  remember(p, std::nullopt);
}

std::vector<std::uint32_t> Generator::words64(std::uint64_t first_word, std::uint64_t count) {
  std::vector<std::uint32_t> w(static_cast<std::size_t>(count));
  KernelParams p = window(KernelKind::words, WordOrder::host64, first_word, count);
  p.stream.call_start = offset_;  // cuRAND's 64-bit layout depends on where the call starts
  run_u32(p, w);
  return w;
}

std::vector<float> Generator::normals_f32(std::uint64_t first, std::uint64_t count, float mean, float stddev,
                                          bool log) {
  std::vector<float> z(static_cast<std::size_t>(count));
  KernelParams p =
      window(log ? KernelKind::log_normal : KernelKind::normal, WordOrder::host32, first, count);
  p.mean = mean;
  p.stddev = stddev;
  run_f32(p, z);
  return z;
}

// ---- cuRAND's distributions ---------------------------------------------------------------------

void Generator::generate(std::span<std::uint32_t> out) {
  if (out.empty()) return;
  run_u32(window(KernelKind::words, WordOrder::host32, offset_, out.size()), out);
  offset_ += out.size();
}

void Generator::uniform(std::span<float> out) {
  if (out.empty()) return;
  run_f32(window(KernelKind::uniform, WordOrder::host32, offset_, out.size()), out);
  offset_ += out.size();
}

void Generator::uniform_double(std::span<double> out) {
  if (out.empty()) return;
  const auto w = words64(2 * offset_, 2 * out.size());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = uniform_double_hq(w[2 * k], w[2 * k + 1]);
  host_transform(kHostUniformDouble, w, out.data(), out.size(), sizeof(double) * out.size());
  advance_thread_shifts_64(out.size());
  offset_ += out.size();
}

void Generator::normal(std::span<float> out, float mean, float stddev) {
  if (out.empty()) return;
  KernelParams p = window(KernelKind::normal, WordOrder::host32, offset_, out.size());
  p.mean = mean;
  p.stddev = stddev;
  run_f32(p, out);
  offset_ += out.size();
}

void Generator::log_normal(std::span<float> out, float mean, float stddev) {
  if (out.empty()) return;
  KernelParams p = window(KernelKind::log_normal, WordOrder::host32, offset_, out.size());
  p.mean = mean;
  p.stddev = stddev;
  run_f32(p, out);
  offset_ += out.size();
}

namespace {
// Box–Muller doubles of positions [first, first + n): position q is component q mod 2 of the pair
// q / 2, whose four words are words 4 (q / 2) .. + 3 of the host64 stream.
template <class Transform>
void box_muller_doubles(std::span<double> out, std::uint64_t first, const std::vector<std::uint32_t>& w,
                        std::uint64_t first_pair, Transform&& transform) {
  for (std::size_t k = 0; k < out.size(); ++k) {
    const std::uint64_t q = first + k;
    const std::size_t m = static_cast<std::size_t>(4 * (q / 2 - first_pair));
    const auto z = box_muller_f64(w[m], w[m + 1], w[m + 2], w[m + 3]);
    out[k] = transform(z[q % 2]);
  }
}
}  // namespace

void Generator::normal_double(std::span<double> out, double mean, double stddev) {
  if (out.empty()) return;
  const std::uint64_t pair0 = offset_ / 2, pair1 = (offset_ + out.size() + 1) / 2;
  const auto w = words64(4 * pair0, 4 * (pair1 - pair0));
  box_muller_doubles(out, offset_, w, pair0, [&](double z) { return normal_affine_double(z, mean, stddev); });
  host_transform(kHostNormal, w, out.data(), out.size(), sizeof(double) * out.size());
  advance_thread_shifts_64(out.size());
  offset_ += out.size();
}

void Generator::log_normal_double(std::span<double> out, double mean, double stddev) {
  if (out.empty()) return;
  const std::uint64_t pair0 = offset_ / 2, pair1 = (offset_ + out.size() + 1) / 2;
  const auto w = words64(4 * pair0, 4 * (pair1 - pair0));
  box_muller_doubles(out, offset_, w, pair0, [&](double z) { return log_normal_from_double(z, mean, stddev); });
  host_transform(kHostLogNormal, w, out.data(), out.size(), sizeof(double) * out.size());
  advance_thread_shifts_64(out.size());
  offset_ += out.size();
}

void Generator::poisson(std::span<std::uint32_t> out, double lambda) {
  if (!(lambda > 0.0) || !(lambda <= kCurandPoissonMaxLambda))
    throw UsageError(kWho, "lambda",
                     "poisson needs 0 < lambda <= 400000 (cuRAND's range), got " + std::to_string(lambda));
  if (out.empty()) return;
  if (lambda < kCurandPoissonNormalThreshold) {
    KernelParams p = window(KernelKind::poisson_table, WordOrder::host32, offset_, out.size());
    p.table = table_for(lambda).get();
    run_u32(p, out);
  } else {
    // The Box-Muller normal of each position from its pair's words (positions 2m, 2m + 1), in
    // cuRAND's host arithmetic (transforms.hpp box_muller_curand_host_f32): the engine normal's
    // last-ulp differences would move sqrt(lambda) z + lambda across an integer now and then.
    const std::uint64_t first = offset_ & ~std::uint64_t{1}, end = (offset_ + out.size() + 1) & ~std::uint64_t{1};
    std::vector<std::uint32_t> w(static_cast<std::size_t>(end - first));
    run_u32(window(KernelKind::words, WordOrder::host32, first, end - first), w);
    for (std::size_t k = 0; k < out.size(); ++k) {
      const std::uint64_t pos = offset_ + k, m = pos / 2 - first / 2;
      const auto z = box_muller_curand_host_f32(w[2 * m], w[2 * m + 1]);
      out[k] = poisson_from_normal(z[pos & 1u], lambda);
    }
    host_transform(kPoissonNormalApproximation, w, out.data(), out.size(), 4 * out.size());
  }
  offset_ += out.size();
}

// ---- extensions -----------------------------------------------------------------------------------

void Generator::poisson_exact(std::span<std::uint32_t> out, double lambda) {
  if (!(lambda > 0.0) || !(lambda <= kPoissonExactMaxLambda))
    throw UsageError(kWho, "lambda", "poisson_exact needs 0 < lambda <= 2^31, got " + std::to_string(lambda));
  if (out.empty()) return;
  KernelParams p = window(KernelKind::poisson_exact, WordOrder::host32, offset_, out.size());
  p.lambda = lambda;
  run_u32(p, out);
  offset_ += out.size();
}

void Generator::exponential(std::span<float> out, float rate) {
  if (!(rate > 0.0f) || !std::isfinite(rate))
    throw UsageError(kWho, "rate", "exponential needs a finite rate > 0, got " + std::to_string(rate));
  if (out.empty()) return;
  KernelParams p = window(KernelKind::exponential, WordOrder::host32, offset_, out.size());
  p.rate = rate;
  run_f32(p, out);
  offset_ += out.size();
}

void Generator::exponential_double(std::span<double> out, double rate) {
  if (!(rate > 0.0) || !std::isfinite(rate))
    throw UsageError(kWho, "rate", "exponential needs a finite rate > 0, got " + std::to_string(rate));
  if (out.empty()) return;
  const auto w = words64(2 * offset_, 2 * out.size());
  for (std::size_t k = 0; k < out.size(); ++k)
    out[k] = exponential_from_uniform_double(uniform_double_hq(w[2 * k], w[2 * k + 1]), rate);
  host_transform(kHostExponential, w, out.data(), out.size(), sizeof(double) * out.size());
  advance_thread_shifts_64(out.size());
  offset_ += out.size();
}

void Generator::bernoulli(std::span<std::uint32_t> out, double prob) {
  if (!(prob >= 0.0 && prob <= 1.0))
    throw UsageError(kWho, "p", "bernoulli needs 0 <= p <= 1, got " + std::to_string(prob));
  if (out.empty()) return;
  KernelParams p = window(KernelKind::bernoulli, WordOrder::host32, offset_, out.size());
  // 1 iff word < round(p 2^32): P(1) is p rounded to a multiple of 2^-32 (exact for such p).
  p.bernoulli_cut = static_cast<std::uint64_t>(std::nearbyint(prob * 0x1p32));
  run_u32(p, out);
  offset_ += out.size();
}

void Generator::uniform_int(std::span<std::uint32_t> out, std::uint32_t low, std::uint32_t high) {
  if (low > high)
    throw UsageError(kWho, "low",
                     "uniform_int needs low <= high, got [" + std::to_string(low) + ", " + std::to_string(high) + "]");
  if (out.empty()) return;
  KernelParams p = window(KernelKind::uniform_int, WordOrder::host32, offset_, out.size());
  p.int_low = low;
  p.int_range = std::uint64_t{high} - low + 1;
  run_u32(p, out);
  offset_ += out.size();
}

}  // namespace trn::rand
