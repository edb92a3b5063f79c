// One Plan concept: every routine that chooses anything (a GEMM block shape, an FFT factorisation,
// a Jacobi kernel, a factorisation's panel width, a sparse kernel, an einsum path, a generator's
// kernel) returns a plan object that makes the choice and prints itself with print() -- the one
// name, in the spirit of FFTW's fftw_print_plan (docs/architecture.md "Plans and reports").
// The call's trn::Report carries the printed plan(s) beside the modeled profile.
#pragma once
#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace trn {

// A plan: an object that states what will run and why, as text.
template <class P>
concept Plan = requires(const P& p) {
  { p.print() } -> std::convertible_to<std::string>;
};

// The facts a plan states, printed in one format (used by the plans that have no richer text of
// their own):
//   "<routine> plan <shape>: <variant>; <ops>; SBUF <b> B/partition, PSUM <b> B/partition;
//    engines <list>; predicted <t> us; why: <rule>"
// Parts left empty (or negative) are omitted: a plan states only what it knows before the run, plus
// what the launch measured (SBUF/PSUM peaks from LaunchResult).
struct PlanFacts {
  std::string routine;           // "syevj", "potrf", "spmm", "einsum", "rand normal", ...
  std::string shape;             // e.g. "n=160" or "512x512x64"
  std::string variant;           // the kernel or algorithm chosen
  std::string ops;               // op counts, e.g. "6.0e+06 flops" or "3 GEMM steps"
  std::int64_t sbuf_bytes = -1;  // per partition, peak of the launch (-1: not stated)
  std::int64_t psum_bytes = -1;  // per partition, peak of the launch
  std::string engines;           // engines the variant runs on, e.g. "TensorE, VectorE, DMA"
  double predicted_ns = -1;      // modeled time predicted by the plan (-1: not predicted)
  std::string why;               // the rule that chose the variant (and the override, if one was used)
  std::string print() const;
};
static_assert(Plan<PlanFacts>);

// A plan's prediction, computed when first asked for (print(), or the caller's accessor) and then
// kept: a prediction runs its kernels timing-only (dry launches that cost host time), so a call
// whose plan is never printed -- a C entry point that keeps only the profile -- never pays for it.
// Copies share the one memo (the plan copied into a report computes it once). The function must
// not refer to the caller's buffers (it may run after the call returned): it captures sizes and
// settings only.
template <class T>
class Lazy {
 public:
  Lazy() = default;
  explicit Lazy(std::function<T()> f) : state_(std::make_shared<State>(std::move(f))) {}
  // A function was given (the value may not be computed yet).
  bool given() const { return state_ != nullptr; }
  // The value: computed on the first call (thread-safe), kept afterwards. T{} when none was given.
  const T& get() const {
    static const T none{};
    if (state_ == nullptr) return none;
    std::call_once(state_->once, [this] {
      state_->value = state_->f();
      state_->f = nullptr;
    });
    return state_->value;
  }

 private:
  struct State {
    explicit State(std::function<T()> g) : f(std::move(g)) {}
    std::function<T()> f;
    std::once_flag once;
    T value{};
  };
  std::shared_ptr<State> state_;
};

// A predicted modeled time (ns) computed lazily; -1 when no prediction was given.
class LazyNs {
 public:
  LazyNs() = default;
  explicit LazyNs(std::function<double()> f) : v_(std::move(f)) {}
  double get() const { return v_.given() ? v_.get() : -1.0; }
  bool given() const { return v_.given(); }

 private:
  Lazy<double> v_;
};

}  // namespace trn
