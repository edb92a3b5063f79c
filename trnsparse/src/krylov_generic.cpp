// Krylov solvers on CSR operators of every generic value type (trn/sparse/krylov_generic.hpp: the
// algorithm, where each step runs and why, accuracy and limits; docs/trnsparse.md "Krylov solvers in
// fp64 and complex"). The SpMV is trnsparse's own entry for the operator's type, the ILU(0) / IC(0)
// preconditioner is csrilu02 / csric02 (incomplete.hpp) applied by SpSV (triangular.hpp); the dots
// and vector updates are fused costed host steps with fp64 (complex<double>) arithmetic.
// The vectors those steps and launches read and write (b, x, the solvers' work vectors, the
// factor copy and its indices, Jacobi's inverses) live on core's scratch stack, so the trace names
// them by allocation, not by heap address (docs/cost-model.md section 2, "Scratch addresses").
#include "trn/sparse/krylov_generic.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "trn/core/dtype.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/scratch.hpp"
#include "trn/core/trace_recycle.hpp"
#include "prepared_operand.hpp"
#include "triangular_replay.hpp"
#include "trn/sparse/incomplete.hpp"
#include "trn/sparse/triangular.hpp"

namespace trn::sparse {

namespace {

template <class T>
constexpr bool kComplex = !std::is_floating_point_v<T>;
template <class T>
constexpr Value kValue = std::is_same_v<T, float>    ? Value::f32
                         : std::is_same_v<T, double> ? Value::f64
                         : std::is_same_v<T, std::complex<float>> ? Value::c32
                                                                  : Value::c64;

// conj for complex values, the identity for real ones (std::conj(double) would be complex).
template <class V>
V conj_of(const V& v) {
  if constexpr (std::is_floating_point_v<V>) return v;
  else return std::conj(v);
}
template <class V>
double real_of(const V& v) {
  if constexpr (std::is_floating_point_v<V>) return v;
  else return v.real();
}
template <class V>
bool finite(const V& v) {
  if constexpr (std::is_floating_point_v<V>) return std::isfinite(v);
  else return std::isfinite(v.real()) && std::isfinite(v.imag());
}

std::int64_t index_at(const void* a, IndexType t, std::int64_t i) {
  return t == IndexType::i32 ? std::int64_t{static_cast<const std::int32_t*>(a)[i]} : static_cast<const std::int64_t*>(a)[i];
}

// The per-solve state every solver shares: the staged vectors' helpers (host arithmetic in W =
// HostFp64<T>), the SpMV and preconditioner entries, and the cost bookkeeping of each step.
template <class T>
class Context {
 public:
  using W = HostFp64<T>;
  static constexpr double kFlop = kComplex<T> ? 4.0 : 1.0;  // real flops per multiply-add pair / 2

  // bsr != nullptr: the operator is that BSR (A then only carries its size, stored-value count and
  // value type: bsr_stub); else A is the CSR operator.
  Context(const Settings& s, const SparseRef& A, const BsrView* bsr, const void* b, const void* x,
          const GenericKrylovOptions& opt, KrylovResult& res, const char* who)
      : s_(s), A_(A), bsr_(bsr), opt_(opt), res_(res), who_(who) {
    res_.profile.target = s.target;
    if (bsr == nullptr && A.format != SparseRef::Format::csr)
      throw InvalidArgument(std::string("trnsparse ") + who + ": CSR or BSR operators only", "matA");
    if (bsr != nullptr && (opt.precond == KrylovPreconditioner::ilu0 || opt.precond == KrylovPreconditioner::ic0))
      throw InvalidArgument(std::string("trnsparse ") + who + ": ILU(0) / IC(0) take CSR operators", "matA");
    if (bsr != nullptr) validate(*bsr);
    else validate(A);
    if (A.rows != A.cols) throw InvalidArgument(std::string("trnsparse ") + who + ": the operator must be square", "matA");
    if ((b == nullptr || x == nullptr) && A.rows > 0)
      throw InvalidArgument(std::string("trnsparse ") + who + ": b or x is NULL", "vector");
    if (opt.max_iterations < 0 || !(opt.tolerance >= 0))
      throw InvalidArgument(std::string("trnsparse ") + who + ": maxIterations < 0 or tolerance not >= 0", "tolerance");
    if (opt.bf16_vectors && A.value != Value::f32)
      throw InvalidArgument(std::string("trnsparse ") + who + ": bf16 vectors need R_32F values", "valueType");
    n = A.rows;
    b_.assign(static_cast<const T*>(b), static_cast<const T*>(b) + n);
    x_.assign(static_cast<const T*>(x), static_cast<const T*>(x) + n);
    if (opt.precond == KrylovPreconditioner::jacobi) {
      if (bsr_ != nullptr) bsr_diagonal();
      else csr_diagonal();
      jacobi_inverse();
    }
    if (opt.precond == KrylovPreconditioner::ilu0 || opt.precond == KrylovPreconditioner::ic0) factor();
  }
  std::int64_t n = 0;
  ScratchVector<T> b_, x_;  // b, and the iterate (x is written once, at the end: write_back)

  // ---- host arithmetic (costed by step()) --------------------------------------------------
  W dot(const T* u, const T* v) const {  // sum conj(u_i) v_i in index order
    W acc{};
    for (std::int64_t i = 0; i < n; ++i) acc += conj_of(W(u[i])) * W(v[i]);
    return acc;
  }
  double norm(const T* u) const { return std::sqrt(real_of(dot(u, u))); }
  void axpy(W a, const T* x, T* y) {  // y += a x, rounded once to T (and to bf16 storage: narrow)
    for (std::int64_t i = 0; i < n; ++i) y[i] = static_cast<T>(W(y[i]) + a * W(x[i]));
    narrow(y);
  }
  void xpay(const T* x, W a, T* y) {  // y = x + a y
    for (std::int64_t i = 0; i < n; ++i) y[i] = static_cast<T>(W(x[i]) + a * W(y[i]));
    narrow(y);
  }
  void scale(W a, const T* x, T* y) {  // y = a x
    for (std::int64_t i = 0; i < n; ++i) y[i] = static_cast<T>(a * W(x[i]));
    narrow(y);
  }
  // bf16 vector storage (R_32F, GenericKrylovOptions::bf16_vectors): the n values just updated are
  // rounded to bf16 — nearest-even, or stochastically when the settings ask for it (SetStochastic-
  // Rounding): core's f32_to_bf16_sr with the bits of SrStream{sr_seed, 0, update number, 0} for
  // element i, so the same seed gives the same bits (the engines' SR rule, trn/core/dtype.hpp).
  void narrow(T* y) {
    if constexpr (std::is_same_v<T, float>) {
      if (!opt_.bf16_vectors) return;
      const SrStream sr{s_.sr_seed, 0, updates_++, 0};
      for (std::int64_t i = 0; i < n; ++i)
        y[i] = bf16_to_f32(s_.stochastic_rounding ? f32_to_bf16_sr(y[i], sr.bits(static_cast<std::uint64_t>(i)))
                                                  : f32_to_bf16_rne(y[i]));
    }
  }

  // One fused host round trip: `vec_reads` / `vec_writes` vectors of n values cross the link, `ops`
  // vector operations of 2n real flops each (x kFlop for complex) run on the host thread.
  void step(std::string_view name, double ops, std::initializer_list<const T*> vec_reads,
            std::initializer_list<const T*> vec_writes, std::int64_t vectors_per_span = 1) {
    HostStep h{.name = name, .flops = ops * 2.0 * kFlop * static_cast<double>(n)};
    std::size_t k = 0;
    for (const T* p : vec_reads)
      if (k < h.reads.size()) h.reads[k++] = HostSpan(p, n * vectors_per_span);
    k = 0;
    for (const T* p : vec_writes)
      if (k < h.writes.size()) h.writes[k++] = HostSpan(p, n);
    host(h);
  }
  void host(const HostStep& h) {
    Trace t;
    record_host_step(t, h);
    add(model_trace(t, ReportSettings::of(s_)));
  }
  // One call's or host step's profile joins the result's (sequential); KrylovResult::launches counts
  // every SpMV, SpSV, factorization and host step of these solvers.
  void add(const Profile& p) {
    res_.modeled_ns += p.total_ns;
    append_sequential(res_.profile, p);
    ++res_.launches;
  }
  // A launched call's profile joins the result's, and its trace buffer goes back to core
  // (trace_recycle.hpp) for the thread's next launch to record into: without it every SpMV / SpSV
  // launch recorded into a fresh buffer, ~300 KB of first-touch page faults each (~17 us a page on
  // the session's VM). Host bookkeeping only: no record, byte or modeled time depends on it.
  void add(CallReport& rep) {
    add(rep.profile);
    recycle_trace(std::move(rep.trace));
  }

  // out = alpha A in + beta out: trnsparse's SpMV of the operator's format and type, the path the
  // C API's trnsparseSpMV takes for it: fp32 the TensorE tile path (CSR or BSR); complex-fp32 the
  // TensorE 2 x 2 embedding (spmm_c32, n = 1: docs/trnsparse.md "Complex-fp32 on TensorE"); fp64 /
  // complex-fp64 BSR spmm_fp64 (Ozaki block-row GEMMs; small-block fp64 the dgemv row groups), CSR the
  // host step (spmv_host).
  void spmv(double alpha, const T* in, double beta, T* out) {
    CallReport rep;
    rep.plans_wanted = false;
    const DenseAny x{const_cast<T*>(in), kValue<T>, n, 1, std::max<std::int64_t>(n, 1), Layout::col_major};
    const DenseAny y{out, kValue<T>, n, 1, std::max<std::int64_t>(n, 1), Layout::col_major};
    if constexpr (std::is_same_v<T, float>) {
      if (bsr_ != nullptr) {
        sparse::spmv(s_, Op::N, static_cast<float>(alpha), *bsr_, in, DType::f32, static_cast<float>(beta), out, DType::f32, &rep);
      } else {
        // sparse::spmv's product on the CSR converted once per solve (prepared_operand.hpp)
        if (csr_tiles_ == nullptr) {
          const CsrView v{A_.rows, A_.cols, A_.nnz, A_.offsets, A_.indices, A_.values, A_.offsets_type, A_.indices_type, A_.base,
                          DType::f32};
          csr_tiles_ = std::make_unique<detail::CsrTileOperand>(s_, v);
        }
        const DenseRef X{in, DType::f32, n, 1, std::max<std::int64_t>(1, n), Layout::col_major};
        const MutableDenseRef Y{out, DType::f32, n, 1, std::max<std::int64_t>(1, n), Layout::col_major};
        csr_tiles_->spmm(s_, Op::N, Op::N, static_cast<float>(alpha), X, static_cast<float>(beta), Y, &rep);
      }
    } else if constexpr (std::is_same_v<T, std::complex<float>>) {
      // spmm_c32's product on the 2 x 2 embedding built once per solve (prepared_operand.hpp)
      if (c32_embedded_ == nullptr)
        c32_embedded_ = bsr_ != nullptr ? std::make_unique<detail::C32Operand>(s_, *bsr_) : std::make_unique<detail::C32Operand>(s_, A_);
      c32_embedded_->spmm(s_, GOp::N, Scalar(alpha), x, Scalar(beta), y, &rep);
    } else {
      if (bsr_ != nullptr) spmm_fp64(s_, GOp::N, GOp::N, Scalar(alpha), *bsr_, kValue<T>, x, Scalar(beta), y, &rep);
      else spmv_host(s_, GOp::N, Scalar(alpha), A_, in, Scalar(beta), out, &rep);
    }
    add(rep);
  }

  // z = M^-1 r: Jacobi (a host step), ILU(0) / IC(0) (two SpSV solves through tmp), or a copy.
  void precondition(const T* r, T* z) {
    if (opt_.precond == KrylovPreconditioner::jacobi) {
      for (std::int64_t i = 0; i < n; ++i) z[i] = static_cast<T>(dinv_[static_cast<std::size_t>(i)] * W(r[i]));
      step("trnsparse.krylov.jacobi", 0.5, {r}, {z});
    } else if (!first_.start.empty()) {
      tmp_.resize(static_cast<std::size_t>(n));
      solve(first_, first_replay_, r, tmp_.data());
      solve(second_, second_replay_, tmp_.data(), z);
    } else if (r != z) {
      std::memcpy(z, r, static_cast<std::size_t>(n) * sizeof(T));  // M = I: the vector itself (no step)
    }
  }

  // The iterate into the caller's x (a copy of n values: the device would iterate in x itself).
  void write_back(void* x) const {
    if (n > 0) std::memcpy(x, x_.data(), static_cast<std::size_t>(n) * sizeof(T));
  }
  // A non-finite scalar: stop as a breakdown (docs: NaN / Inf in A, b or an overflow).
  bool stop_nonfinite(std::initializer_list<W> values) {
    for (const W& v : values)
      if (!finite(v)) {
        res_.breakdown = res_.nonfinite = true;
        return true;
      }
    return false;
  }

 private:
  // a_ii of a CSR operator into dinv_ (0 where not stored).
  void csr_diagonal() {
    dinv_.assign(static_cast<std::size_t>(n), W{});
    const std::int64_t base = A_.base == IndexBase::one ? 1 : 0;
    const auto* vals = static_cast<const T*>(A_.values);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t e = index_at(A_.offsets, A_.offsets_type, i) - base;
           e < index_at(A_.offsets, A_.offsets_type, i + 1) - base; ++e)
        if (index_at(A_.indices, A_.indices_type, e) - base == i) dinv_[static_cast<std::size_t>(i)] = W(vals[e]);
  }
  // a_ii of a BSR operator (any rb x cb blocks, either block order) into dinv_: row i = I rb + r of
  // block (I, J) meets the diagonal at block column c = i - J cb when 0 <= c < cb.
  void bsr_diagonal() {
    dinv_.assign(static_cast<std::size_t>(n), W{});
    const BsrView& a = *bsr_;
    const std::int64_t base = a.base == IndexBase::one ? 1 : 0, rb = a.row_block, cb = a.col_block;
    const auto* vals = static_cast<const T*>(a.values);
    for (std::int64_t I = 0; I < a.brows; ++I)
      for (std::int64_t e = index_at(a.offsets, a.offsets_type, I) - base; e < index_at(a.offsets, a.offsets_type, I + 1) - base; ++e) {
        const std::int64_t J = index_at(a.columns, a.columns_type, e) - base;
        for (std::int64_t r = 0; r < rb; ++r) {
          const std::int64_t i = I * rb + r, c = i - J * cb;
          if (c < 0 || c >= cb) continue;
          dinv_[static_cast<std::size_t>(i)] = W(vals[e * rb * cb + (a.order == BlockOrder::row ? r * cb + c : r + c * rb)]);
        }
      }
  }
  // 1 / a_ii from the stored diagonal in dinv_ (host index work and n divisions: one host step).
  void jacobi_inverse() {
    const auto* vals = static_cast<const T*>(A_.values);
    const void* offsets = bsr_ != nullptr ? bsr_->offsets : A_.offsets;
    const IndexType offsets_type = bsr_ != nullptr ? bsr_->offsets_type : A_.offsets_type;
    const std::int64_t offset_count = (bsr_ != nullptr ? bsr_->brows : n) + 1;
    for (std::int64_t i = 0; i < n; ++i) {
      if (dinv_[static_cast<std::size_t>(i)] == W{})
        throw InvalidArgument(std::string("trnsparse ") + who_ + ": zero diagonal entry " + std::to_string(i) + " (Jacobi)",
                              "matA");
      dinv_[static_cast<std::size_t>(i)] = W(1.0) / dinv_[static_cast<std::size_t>(i)];
    }
    host(HostStep{.name = "trnsparse.krylov.jacobi_inverse", .flops = static_cast<double>(A_.nnz + n) * kFlop,
                  .reads = {HostSpan(static_cast<const std::byte*>(offsets), offset_count * (offsets_type == IndexType::i32 ? 4 : 8)),
                            HostSpan(vals, A_.nnz)},
                  .writes = {HostSpan(dinv_.data(), n)}});
  }

  // The incomplete factor of A (csrilu02 / csric02 on a copy of A's values, int32 indices of base
  // A.base), and the two triangular analyses of its application: ILU(0) L (unit lower) then U
  // (upper, non-unit); IC(0) L then L^H (the same lower triangle solved as op C, op T for real).
  void factor() {
    const bool ic = opt_.precond == KrylovPreconditioner::ic0;
    if (A_.nnz > std::numeric_limits<std::int32_t>::max())
      throw InvalidArgument(std::string("trnsparse ") + who_ + ": the incomplete factor needs nnz < 2^31", "matA");
    rows_.resize(static_cast<std::size_t>(n) + 1);
    cols_.resize(static_cast<std::size_t>(A_.nnz));
    for (std::int64_t i = 0; i <= n; ++i) rows_[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(index_at(A_.offsets, A_.offsets_type, i));
    for (std::int64_t e = 0; e < A_.nnz; ++e) cols_[static_cast<std::size_t>(e)] = static_cast<std::int32_t>(index_at(A_.indices, A_.indices_type, e));
    factor_.assign(static_cast<const T*>(A_.values), static_cast<const T*>(A_.values) + A_.nnz);
    const IncompleteAnalysis a = analyze_incomplete(ic ? Incomplete::ic0 : Incomplete::ilu0, n, A_.nnz, rows_.data(),
                                                    cols_.data(), factor_.data(), kValue<T>, A_.base, true);
    if (a.structural_zero >= 0)
      throw InvalidArgument(std::string("trnsparse ") + who_ + ": no stored diagonal in row " + std::to_string(a.structural_zero) +
                                (ic ? " (IC(0))" : " (ILU(0))"), "matA");
    CallReport rep;
    rep.plans_wanted = false;
    const std::int64_t zero = incomplete_factor(s_, a, kValue<T>, factor_.data(), PivotBoost{}, &rep);
    add(rep);
    if (zero >= 0)
      throw InvalidArgument(std::string("trnsparse ") + who_ + ": zero pivot in row " + std::to_string(zero) +
                                (ic ? " (IC(0): A is not positive definite on its pattern)" : " (ILU(0))"), "matA");
    const SparseRef F{SparseRef::Format::csr, n, n, A_.nnz, rows_.data(), cols_.data(), factor_.data(), IndexType::i32,
                      IndexType::i32, A_.base, kValue<T>};
    first_ = analyze_triangular(F, /*lower=*/true, /*unit=*/!ic, GOp::N);
    second_ = ic ? analyze_triangular(F, true, false, kComplex<T> ? GOp::C : GOp::T) : analyze_triangular(F, false, false, GOp::N);
  }
  // out = T^-1 in by SpSV (triangular_solve) on the factor; the level-set path keeps the triangle's
  // index words and first profile for the solve's later applications (triangular_replay.hpp: the
  // same launches, bits and profiles).
  void solve(const TriangularAnalysis& t, detail::LevelSetReplay& replay, const T* in, T* out) {
    CallReport rep;
    rep.plans_wanted = false;
    const DenseAny B{const_cast<T*>(in), kValue<T>, n, 1, n, Layout::col_major}, C{out, kValue<T>, n, 1, n, Layout::col_major};
    detail::triangular_solve_replayed(s_, t, factor_.data(), Scalar(1.0), GOp::N, B, C, &rep, replay);
    add(rep);
  }

  const Settings& s_;
  const SparseRef& A_;
  const BsrView* bsr_;
  const GenericKrylovOptions& opt_;
  KrylovResult& res_;
  const char* who_;
  ScratchVector<W> dinv_;
  std::uint32_t updates_ = 0;  // vector updates so far (the SR stream's instruction number)
  ScratchVector<std::int32_t> rows_, cols_;
  ScratchVector<T> factor_, tmp_;
  TriangularAnalysis first_, second_;
  detail::LevelSetReplay first_replay_, second_replay_;  // per triangle (kept for the thread's next solve)
  // The operator as the SpMV kernel reads it, built at the first product: fp32 CSR's 128 x 128
  // blocks, complex-fp32's real embedding. A is read-only during the solve (the solvers' contract).
  std::unique_ptr<detail::CsrTileOperand> csr_tiles_;
  std::unique_ptr<detail::C32Operand> c32_embedded_;
};

double scale_of(double norm_b) { return norm_b > 0 ? norm_b : 1.0; }

// Preconditioned CG (Saad Alg. 9.1), complex inner products conjugating their first argument. Per
// iteration: one SpMV, one preconditioner application, two fused host steps (the x / r update with
// p^H q and r^H r; the direction update with rho' = r^H z). Breakdown: Re(p^H A p) <= 0.
template <class T>
KrylovResult cg_typed(const Settings& s, const SparseRef& A, const BsrView* bsr, const void* b, void* x,
                          const GenericKrylovOptions& opt) {
  using W = HostFp64<T>;
  KrylovResult res;
  Context<T> k(s, A, bsr, b, x, opt, res, "cg");
  const auto n = static_cast<std::size_t>(k.n);
  ScratchVector<T> r(k.b_), z(n), p(n), q(n);
  T* xv = k.x_.data();
  const double scale = scale_of(k.norm(k.b_.data()));
  k.spmv(-1.0, xv, 1.0, r.data());  // r = b - A x
  k.precondition(r.data(), z.data());
  W rho = k.dot(r.data(), z.data());
  double rr = real_of(k.dot(r.data(), r.data()));
  p = z;
  k.step("trnsparse.krylov.cg_start", 4, {k.b_.data(), r.data(), z.data()}, {p.data()});
  res.residual_history.push_back(std::sqrt(rr) / scale);
  while (!k.stop_nonfinite({W(rr), rho})) {
    if (res.residual_history.back() <= opt.tolerance) {
      res.converged = true;
      break;
    }
    if (res.iterations >= opt.max_iterations) break;
    k.spmv(1.0, p.data(), 0.0, q.data());  // q = A p
    const W pq = k.dot(p.data(), q.data());
    if (k.stop_nonfinite({pq})) break;
    if (!(real_of(pq) > 0.0)) {
      res.breakdown = true;
      break;
    }
    const W a = rho / pq;
    k.axpy(-a, q.data(), r.data());  // r -= a q, then x += a p unless r^H r overflowed
    rr = real_of(k.dot(r.data(), r.data()));
    if (std::isfinite(rr)) k.axpy(a, p.data(), xv);
    k.step("trnsparse.krylov.cg_update", 4, {p.data(), q.data(), xv}, {r.data(), xv});
    k.precondition(r.data(), z.data());
    const W rho_next = k.dot(r.data(), z.data());
    k.xpay(z.data(), rho_next / rho, p.data());  // p = z + (rho' / rho) p
    k.step("trnsparse.krylov.cg_direction", 2, {r.data(), z.data(), p.data()}, {p.data()});
    rho = rho_next;
    ++res.iterations;
    res.residual_history.push_back(std::sqrt(rr) / scale);
  }
  k.write_back(x);
  return res;
}

// Right-preconditioned BiCGStab (van der Vorst 1992), r^ = r_0, the recurrences of krylov.cpp's
// fp32 solver with conjugated inner products. Breakdown: (r^, r), (r^, v) or (t, t) = 0.
template <class T>
KrylovResult bicgstab_typed(const Settings& s, const SparseRef& A, const BsrView* bsr, const void* b, void* x,
                          const GenericKrylovOptions& opt) {
  using W = HostFp64<T>;
  KrylovResult res;
  Context<T> k(s, A, bsr, b, x, opt, res, "bicgstab");
  const auto n = static_cast<std::size_t>(k.n);
  ScratchVector<T> r(k.b_), rhat, p(n), phat(n), v(n), sv(n), shat(n), t(n);
  T* xv = k.x_.data();
  const double scale = scale_of(k.norm(k.b_.data()));
  k.spmv(-1.0, xv, 1.0, r.data());  // r = b - A x
  rhat = r;
  double rr = real_of(k.dot(r.data(), r.data()));
  k.step("trnsparse.krylov.bicgstab_start", 2, {k.b_.data(), r.data()}, {rhat.data()});
  res.residual_history.push_back(std::sqrt(rr) / scale);
  W rho(1.0), alpha(1.0), omega(1.0);  // with p = v = 0 the first p is r
  while (!k.stop_nonfinite({W(rr)})) {
    if (res.residual_history.back() <= opt.tolerance) {
      res.converged = true;
      break;
    }
    if (res.iterations >= opt.max_iterations) break;
    const W rho_next = k.dot(rhat.data(), r.data());
    if (k.stop_nonfinite({rho_next})) break;
    if (rho_next == W{}) {  // r^ orthogonal to r: Bi-CG breakdown
      res.breakdown = true;
      break;
    }
    k.axpy(-omega, v.data(), p.data());                     // p = r + beta (p - omega v)
    k.xpay(r.data(), (rho_next / rho) * (alpha / omega), p.data());
    k.step("trnsparse.krylov.bicgstab_direction", 3, {rhat.data(), r.data(), v.data(), p.data()}, {p.data()});
    k.precondition(p.data(), phat.data());
    k.spmv(1.0, phat.data(), 0.0, v.data());  // v = A p^
    const W rv = k.dot(rhat.data(), v.data());
    if (k.stop_nonfinite({rv})) break;
    if (rv == W{}) {
      res.breakdown = true;
      break;
    }
    alpha = rho_next / rv;
    sv = r;
    k.axpy(-alpha, v.data(), sv.data());  // s = r - alpha v
    const double ss = real_of(k.dot(sv.data(), sv.data()));
    ++res.iterations;
    const bool half = std::isfinite(ss) && std::sqrt(ss) / scale <= opt.tolerance;
    if (half) k.axpy(alpha, phat.data(), xv);  // converged at the half step: x += alpha p^
    k.step("trnsparse.krylov.bicgstab_half", half ? 4 : 3, {rhat.data(), v.data(), r.data(), phat.data()}, {sv.data(), xv});
    if (k.stop_nonfinite({W(ss)})) break;
    if (half) {
      res.residual_history.push_back(std::sqrt(ss) / scale);
      res.converged = true;
      break;
    }
    k.precondition(sv.data(), shat.data());
    k.spmv(1.0, shat.data(), 0.0, t.data());  // t = A s^
    const W ts = k.dot(t.data(), sv.data()), tt = k.dot(t.data(), t.data());
    if (k.stop_nonfinite({ts, tt})) break;
    if (tt == W{}) {
      res.breakdown = true;
      break;
    }
    omega = ts / tt;
    r = sv;
    k.axpy(-omega, t.data(), r.data());  // r = s - omega t; x += alpha p^ + omega s^
    rr = real_of(k.dot(r.data(), r.data()));
    if (std::isfinite(rr)) {
      k.axpy(alpha, phat.data(), xv);
      k.axpy(omega, shat.data(), xv);
    }
    k.step("trnsparse.krylov.bicgstab_update", 6, {t.data(), sv.data(), phat.data(), shat.data()}, {r.data(), xv});
    rho = rho_next;
    res.residual_history.push_back(std::sqrt(rr) / scale);
    if (omega == W{}) {  // stagnation: the next beta would divide by omega
      res.breakdown = !(res.residual_history.back() <= opt.tolerance);
      res.converged = !res.breakdown;
      break;
    }
  }
  k.write_back(x);
  return res;
}

// GMRES's least-squares state for one cycle: H column by column (column j: h_0j .. h_{j+1,j} at
// H[j ld ..]), the rotations (c real, s complex) and the rotated right-hand side g.
template <class W>
struct Hessenberg {
  std::int64_t ld = 0;
  std::vector<W> H, sn, g;
  std::vector<double> cs;
  explicit Hessenberg(std::int64_t m) : ld(m + 1), H(static_cast<std::size_t>((m + 1) * m)), sn(static_cast<std::size_t>(m)),
                                        g(static_cast<std::size_t>(m + 1)), cs(static_cast<std::size_t>(m)) {}
  W& h(std::int64_t i, std::int64_t j) { return H[static_cast<std::size_t>(j * ld + i)]; }

  // Rotations 0 .. j-1 applied to column j, rotation j formed from (h_jj, h_{j+1,j}) and g rotated:
  // (x, y) <- (c x + s y, -conj(s) x + c y) with c = |a| / r, s = (a / |a|) conj(b) / r,
  // r = sqrt(|a|^2 + |b|^2) (a = 0: c = 0, s = conj(b) / |b|), so h_jj <- (a / |a|) r, h_{j+1,j} <- 0
  // (Golub & Van Loan §5.1.13; for real values the familiar c = a / r, s = b / r up to sign of r).
  void rotate(std::int64_t j) {
    for (std::int64_t i = 0; i < j; ++i) {
      const W x = h(i, j), y = h(i + 1, j);
      const double c = cs[static_cast<std::size_t>(i)];
      const W sv = sn[static_cast<std::size_t>(i)];
      h(i, j) = c * x + sv * y;
      h(i + 1, j) = -conj_of(sv) * x + c * y;
    }
    const W a = h(j, j), b = h(j + 1, j);
    const double abs_a = std::abs(a), abs_b = std::abs(b), r = std::hypot(abs_a, abs_b);
    if (r == 0.0) return;  // R_jj = 0: the caller's breakdown
    const W phase = abs_a == 0.0 ? W(1.0) : a / abs_a;
    const double c = abs_a / r;
    const W sv = phase * conj_of(b) / r;
    cs[static_cast<std::size_t>(j)] = c;
    sn[static_cast<std::size_t>(j)] = abs_a == 0.0 ? conj_of(b) / abs_b : sv;
    h(j, j) = phase * r;
    h(j + 1, j) = W{};
    const W gj = g[static_cast<std::size_t>(j)];
    g[static_cast<std::size_t>(j) + 1] = -conj_of(sn[static_cast<std::size_t>(j)]) * gj;
    g[static_cast<std::size_t>(j)] = c * gj;
  }
  // y = R^-1 g over the first k columns (column-oriented back substitution).
  std::vector<W> solve(std::int64_t k) {
    std::vector<W> y(g.begin(), g.begin() + k);
    for (std::int64_t i = k - 1; i >= 0; --i) {
      y[static_cast<std::size_t>(i)] /= h(i, i);
      for (std::int64_t l = 0; l < i; ++l) y[static_cast<std::size_t>(l)] -= y[static_cast<std::size_t>(i)] * h(l, i);
    }
    return y;
  }
};

// One Arnoldi step j of GMRES on the host (w = A M^-1 v_j given): modified Gram-Schmidt of w
// against v_0 .. v_j, h_{j+1,j} = ||w||, v_{j+1} = w / h_{j+1,j} (unless 0: lucky), the rotation.
// Returns whether the step was lucky (invariant Krylov space).
template <class T>
bool arnoldi_step(Context<T>& k, Hessenberg<HostFp64<T>>& hs, ScratchVector<T>& V, ScratchVector<T>& w, std::int64_t j) {
  using W = HostFp64<T>;
  const std::int64_t n = k.n;
  for (std::int64_t i = 0; i <= j; ++i) {
    const T* vi = V.data() + i * n;
    hs.h(i, j) = k.dot(vi, w.data());
    k.axpy(-hs.h(i, j), vi, w.data());
  }
  const double hn = k.norm(w.data());
  hs.h(j + 1, j) = W(hn);
  const bool lucky = hn == 0.0;
  if (!lucky) k.scale(W(1.0 / hn), w.data(), V.data() + (j + 1) * n);
  hs.rotate(j);
  k.step("trnsparse.krylov.gmres_arnoldi", 2.0 * static_cast<double>(j + 1) + 2, {V.data(), w.data()},
         {w.data(), V.data() + (j + 1) * n}, j + 1);
  return lucky;
}

// Restarted GMRES(m), right preconditioning (Saad Alg. 6.9, §9.3.2): the fp32 solver's cycle
// structure (krylov.cpp) with complex Givens rotations; convergence on the true residual at a restart.
template <class T>
KrylovResult gmres_typed(const Settings& s, const SparseRef& A, const BsrView* bsr, const void* b, void* x,
                          const GenericKrylovOptions& opt) {
  using W = HostFp64<T>;
  KrylovResult res;
  if (opt.restart < 1) throw InvalidArgument("trnsparse gmres: restart must be >= 1", "restart");
  Context<T> k(s, A, bsr, b, x, opt, res, "gmres");
  const std::int64_t n = k.n, m = opt.restart;
  ScratchVector<T> V(static_cast<std::size_t>((m + 1) * n)), r(static_cast<std::size_t>(n)), w(r), z(r), u(r);
  T* xv = k.x_.data();
  const double scale = scale_of(k.norm(k.b_.data()));
  bool first = true;
  while (true) {
    Hessenberg<W> hs(m);
    r = k.b_;
    k.spmv(-1.0, xv, 1.0, r.data());  // the true residual r = b - A x
    const double beta = k.norm(r.data());
    if (beta > 0 && std::isfinite(beta)) k.scale(W(1.0 / beta), r.data(), V.data());  // v_0 = r / ||r||
    k.step("trnsparse.krylov.gmres_restart", 2, {r.data(), k.b_.data()}, {V.data()});
    if (k.stop_nonfinite({W(beta)})) break;
    hs.g[0] = W(beta);
    if (first) res.residual_history.push_back(beta / scale);
    first = false;
    if (beta / scale <= opt.tolerance) {
      res.converged = true;
      break;
    }
    if (res.iterations >= opt.max_iterations) break;
    std::int64_t steps = 0;
    bool cycle_done = false;
    for (std::int64_t j = 0; j < m && res.iterations < opt.max_iterations && !cycle_done; ++j) {
      k.precondition(V.data() + j * n, z.data());
      k.spmv(1.0, z.data(), 0.0, w.data());  // w = A M^-1 v_j
      const bool lucky = arnoldi_step(k, hs, V, w, j);
      ++res.iterations;
      if (hs.h(j, j) == W{} || !finite(hs.h(j, j))) {  // singular R (or a NaN): nothing more from this space
        res.breakdown = true;
        res.nonfinite = !finite(hs.h(j, j));
        break;
      }
      ++steps;
      const double est = std::abs(hs.g[static_cast<std::size_t>(j) + 1]) / scale;
      res.residual_history.push_back(est);
      cycle_done = lucky || est <= opt.tolerance;
    }
    if (steps > 0) {  // x += M^-1 V y, y = R^-1 g
      const std::vector<W> y = hs.solve(steps);
      std::fill(u.begin(), u.end(), T{});
      for (std::int64_t i = 0; i < steps; ++i) k.axpy(y[static_cast<std::size_t>(i)], V.data() + i * n, u.data());
      k.step("trnsparse.krylov.gmres_combine", static_cast<double>(steps), {V.data()}, {u.data()}, steps);
      k.precondition(u.data(), z.data());
      if (!std::all_of(z.begin(), z.end(), [](const T& e) { return finite(e); })) {
        res.breakdown = res.nonfinite = true;
        break;
      }
      k.axpy(W(1.0), z.data(), xv);
      k.step("trnsparse.krylov.gmres_correct", 1, {z.data(), xv}, {xv});
    }
    if (res.breakdown) break;
  }
  k.write_back(x);
  return res;
}

}  // namespace

KrylovResult gmres(const Settings& s, const SparseRef& A, const void* b, void* x, const GenericKrylovOptions& opt) {
  switch (A.value) {
    case Value::f32: return gmres_typed<float>(s, A, nullptr, b, x, opt);
    case Value::f64: return gmres_typed<double>(s, A, nullptr, b, x, opt);
    case Value::c32: return gmres_typed<std::complex<float>>(s, A, nullptr, b, x, opt);
    default: return gmres_typed<std::complex<double>>(s, A, nullptr, b, x, opt);
  }
}

KrylovResult cg(const Settings& s, const SparseRef& A, const void* b, void* x, const GenericKrylovOptions& opt) {
  switch (A.value) {
    case Value::f32: return cg_typed<float>(s, A, nullptr, b, x, opt);
    case Value::f64: return cg_typed<double>(s, A, nullptr, b, x, opt);
    case Value::c32: return cg_typed<std::complex<float>>(s, A, nullptr, b, x, opt);
    default: return cg_typed<std::complex<double>>(s, A, nullptr, b, x, opt);
  }
}

KrylovResult bicgstab(const Settings& s, const SparseRef& A, const void* b, void* x, const GenericKrylovOptions& opt) {
  switch (A.value) {
    case Value::f32: return bicgstab_typed<float>(s, A, nullptr, b, x, opt);
    case Value::f64: return bicgstab_typed<double>(s, A, nullptr, b, x, opt);
    case Value::c32: return bicgstab_typed<std::complex<float>>(s, A, nullptr, b, x, opt);
    default: return bicgstab_typed<std::complex<double>>(s, A, nullptr, b, x, opt);
  }
}

namespace {

// The BSR operator's size, stored-value count and value type as the CSR-shaped SparseRef the
// solvers' bookkeeping reads (its index pointers stay null: the Context reads the BsrView).
SparseRef bsr_stub(const BsrView& A, Value value) {
  return {SparseRef::Format::csr, A.rows(), A.cols(), A.bnnz * A.row_block * A.col_block, nullptr, nullptr, A.values,
          A.offsets_type, A.columns_type, A.base, value};
}

template <class Solve>
KrylovResult on_bsr(const BsrView& A, Value value, Solve&& solve) {
  const SparseRef stub = bsr_stub(A, value);
  switch (value) {
    case Value::f32: return solve(float{}, stub);
    case Value::f64: return solve(double{}, stub);
    case Value::c32: return solve(std::complex<float>{}, stub);
    default: return solve(std::complex<double>{}, stub);
  }
}

}  // namespace

KrylovResult cg(const Settings& s, const BsrView& A, Value value, const void* b, void* x, const GenericKrylovOptions& opt) {
  return on_bsr(A, value, [&](auto t, const SparseRef& stub) { return cg_typed<decltype(t)>(s, stub, &A, b, x, opt); });
}
KrylovResult bicgstab(const Settings& s, const BsrView& A, Value value, const void* b, void* x, const GenericKrylovOptions& opt) {
  return on_bsr(A, value, [&](auto t, const SparseRef& stub) { return bicgstab_typed<decltype(t)>(s, stub, &A, b, x, opt); });
}
KrylovResult gmres(const Settings& s, const BsrView& A, Value value, const void* b, void* x, const GenericKrylovOptions& opt) {
  return on_bsr(A, value, [&](auto t, const SparseRef& stub) { return gmres_typed<decltype(t)>(s, stub, &A, b, x, opt); });
}

}  // namespace trn::sparse
