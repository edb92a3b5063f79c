// trntensor benchmarks, each paired with its reference in one process (bench/paired.hpp: both run
// back to back per iteration, the ratio is the median of per-pair ratios):
//   * einsum 'ij,jk->ik' (n^3) and 'bij,bjk->bik' in 32F vs the same trnblas GEMM called directly:
//     ratio = planning + lowering overhead (1.0 = none); also a pre-built ContractionPlan;
//   * the 4-index AO->MO transform 'pqrs,pi,qj,rk,sl->ijkl' (32F) vs four OpenBLAS SGEMM
//     half-transforms (host reference; the ratio is emulator vs native CPU speed);
//   * planning time of a 6-operand expression (optimal and greedy);
//   * a complex C_32F contraction conj(A[k,m]) B[k,n] vs the same trnblas cgemm (op C, 4M) called
//     directly, and a trinary contraction vs the two trnblas GEMMs of the order it chooses.
// Counters: modeled trn1 device time (us) and TensorE utilisation of our side.
#include <cblas.h>

#include <complex>
#include <random>
#include <string>
#include <vector>

#include "paired.hpp"
#include "trn/blas/level3.hpp"
#include "trn/tensor/tensor.hpp"

namespace {

namespace tt = trn::tensor;

std::vector<float> uniform(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> v(n);
  for (auto& x : v) x = u(rng);
  return v;
}

void modeled(benchmark::State& st, const trn::Profile& p) {
  st.counters["trn1_modeled_us"] = p.total_ns * 1e-3;
  st.counters["tensor_util"] = p.utilization(trn::Engine::tensor);
}

// Row-major C[m,n] = A[m,k] B[k,n] through einsum vs trnblas gemm on the same buffers (column-major
// view: C^T = B^T A^T, no transposes).
void BM_einsum_gemm(benchmark::State& st) {
  const std::int64_t n = st.range(0);
  const auto A = uniform(static_cast<std::size_t>(n * n), 1), B = uniform(static_cast<std::size_t>(n * n), 2);
  std::vector<float> C(static_cast<std::size_t>(n * n)), R(C.size());
  tt::EinsumReport rep;
  trnsci::bench::run_paired(
      st, 2.0 * n * n * n,
      [&] {
        tt::einsum({}, "ij,jk->ik", {{A.data(), {n, n}, {}}, {B.data(), {n, n}, {}}}, {C.data(), {n, n}, {}},
                   tt::DataType::f32, tt::ComputeType::f32, tt::PathStrategy::automatic, &rep);
      },
      [&] {
        trn::blas::gemm({}, trn::blas::GemmMode::fp32, trn::blas::Op::N, trn::blas::Op::N, n, n, n, 1.0f,
                        {B.data(), trn::DType::f32, n}, {A.data(), trn::DType::f32, n}, 0.0f, {R.data(), trn::DType::f32, n});
      });
  modeled(st, rep.profile);
  st.SetLabel(rep.steps.empty() ? "" : rep.steps[0]);
}
BENCHMARK(BM_einsum_gemm)->Arg(256)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

// A pre-built plan (planning excluded): lowering and launch overhead only.
void BM_plan_execute_gemm(benchmark::State& st) {
  const std::int64_t n = st.range(0);
  const auto A = uniform(static_cast<std::size_t>(n * n), 1), B = uniform(static_cast<std::size_t>(n * n), 2);
  std::vector<float> C(static_cast<std::size_t>(n * n)), R(C.size());
  tt::ContractionSpec s;
  s.a = {{n, n}, {}, tt::DataType::f32};
  s.b = s.a;
  s.c = s.d = s.a;
  s.modes_a = {'m', 'k'};
  s.modes_b = {'k', 'n'};
  s.modes_c = s.modes_d = {'m', 'n'};
  const tt::ContractionPlan plan(s);
  trn::blas::CallReport rep;
  trnsci::bench::run_paired(
      st, 2.0 * n * n * n, [&] { plan.execute({}, 1.0, A.data(), B.data(), 0.0, C.data(), C.data(), nullptr, 0, &rep); },
      [&] {
        trn::blas::gemm({}, trn::blas::GemmMode::fp32, trn::blas::Op::N, trn::blas::Op::N, n, n, n, 1.0f,
                        {A.data(), trn::DType::f32, n}, {B.data(), trn::DType::f32, n}, 0.0f, {R.data(), trn::DType::f32, n});
      });
  modeled(st, rep.profile);
  st.SetLabel(plan.print());
}
BENCHMARK(BM_plan_execute_gemm)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();

// Batched 'bij,bjk->bik' (row-major) vs trnblas gemm_batched.
void BM_einsum_batched(benchmark::State& st) {
  const std::int64_t b = st.range(0), n = st.range(1);
  const auto A = uniform(static_cast<std::size_t>(b * n * n), 3), B = uniform(static_cast<std::size_t>(b * n * n), 4);
  std::vector<float> C(A.size()), R(A.size());
  tt::EinsumReport rep;
  std::vector<trn::blas::MatrixRef> fa, fb;
  std::vector<trn::blas::MutableMatrixRef> fc;
  for (std::int64_t q = 0; q < b; ++q) {
    fa.push_back({B.data() + q * n * n, trn::DType::f32, n});
    fb.push_back({A.data() + q * n * n, trn::DType::f32, n});
    fc.push_back({R.data() + q * n * n, trn::DType::f32, n});
  }
  trnsci::bench::run_paired(
      st, 2.0 * b * n * n * n,
      [&] {
        tt::einsum({}, "bij,bjk->bik", {{A.data(), {b, n, n}, {}}, {B.data(), {b, n, n}, {}}}, {C.data(), {b, n, n}, {}},
                   tt::DataType::f32, tt::ComputeType::f32, tt::PathStrategy::automatic, &rep);
      },
      [&] {
        trn::blas::gemm_batched({}, trn::blas::GemmMode::fp32, trn::blas::Op::N, trn::blas::Op::N, n, n, n, 1.0f, fa, fb,
                                0.0f, fc);
      });
  modeled(st, rep.profile);
  st.SetLabel(rep.steps.empty() ? "" : rep.steps[0]);
}
BENCHMARK(BM_einsum_batched)->Args({8, 128})->Args({32, 256})->Args({32, 512})->Unit(benchmark::kMillisecond)->UseRealTime();

// AO -> MO: (ij|kl) = sum_pqrs C_pi C_qj C_rk C_sl (pq|rs), n^4 tensor, all indices of size n.
void BM_ao_to_mo(benchmark::State& st) {
  const std::int64_t n = st.range(0), n2 = n * n, n3 = n2 * n;
  const auto I = uniform(static_cast<std::size_t>(n3 * n), 5), Cm = uniform(static_cast<std::size_t>(n2), 6);
  std::vector<float> out(static_cast<std::size_t>(n3 * n)), t1(out.size()), t2(out.size());
  tt::EinsumReport rep;
  const tt::View c{Cm.data(), {n, n}, {}};
  trnsci::bench::run_paired(
      st, 4 * 2.0 * static_cast<double>(n3 * n2),
      [&] {
        tt::einsum({}, "pqrs,pi,qj,rk,sl->ijkl", {{I.data(), {n, n, n, n}, {}}, c, c, c, c}, {out.data(), {n, n, n, n}, {}},
                   tt::DataType::f32, tt::ComputeType::f32, tt::PathStrategy::automatic, &rep);
      },
      [&] {
        // Row-major I[p, qrs]: each half-transform contracts the leading index and rotates it to the
        // end: T[qrs, i] = sum_p I[p, qrs] C[p, i] (SGEMM with A^T), four times.
        const float* src = I.data();
        float* bufs[2] = {t1.data(), t2.data()};
        for (int s = 0; s < 4; ++s) {
          float* dst = s == 3 ? out.data() : bufs[s % 2];
          cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, static_cast<int>(n3), static_cast<int>(n), static_cast<int>(n),
                      1.0f, src, static_cast<int>(n3), Cm.data(), static_cast<int>(n), 0.0f, dst, static_cast<int>(n));
          src = dst;
        }
      });
  modeled(st, rep.profile);
  st.SetLabel(rep.path.path_string());
}
BENCHMARK(BM_ao_to_mo)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_plan_6_operands(benchmark::State& st) {
  tt::PathProblem p;
  p.inputs = {{'a', 'b'}, {'b', 'c', 'd'}, {'d', 'e'}, {'e', 'f', 'a'}, {'f', 'g'}, {'g', 'c', 'h'}};
  p.output = {'h'};
  for (int l = 'a'; l <= 'h'; ++l) p.sizes.emplace_back(l, 8 + l % 5);
  const auto strategy = st.range(0) == 0   ? tt::PathStrategy::optimal
                        : st.range(0) == 1 ? tt::PathStrategy::greedy
                                           : tt::PathStrategy::dynamic_programming;
  const double flops = tt::plan_path(p, strategy).optimized_flops;
  for (auto _ : st) {
    auto info = tt::plan_path(p, strategy);
    benchmark::DoNotOptimize(info);
  }
  const char* names[] = {"optimal", "greedy", "dynamic-programming"};
  st.SetLabel(std::string(names[st.range(0)]) + ", path FLOPs " + std::to_string(flops));
}
BENCHMARK(BM_plan_6_operands)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

// C_32F D[m,n] = conj(A[k,m]) B[k,n] (k fastest in A: op C on the caller's data) vs trnblas cgemm.
void BM_complex_contraction(benchmark::State& st) {
  using Cf = std::complex<float>;
  const std::int64_t n = st.range(0);
  const auto re = uniform(static_cast<std::size_t>(4 * n * n), 3);
  std::vector<Cf> A(static_cast<std::size_t>(n * n)), B(A.size()), C(A.size()), R(A.size());
  for (std::size_t i = 0; i < A.size(); ++i) {
    A[i] = Cf(re[4 * i], re[4 * i + 1]);
    B[i] = Cf(re[4 * i + 2], re[4 * i + 3]);
  }
  tt::ContractionSpec s;
  s.a = {{n, n}, {}, tt::DataType::c32};
  s.b = s.c = s.d = s.a;
  s.modes_a = {'k', 'm'};
  s.modes_b = {'k', 'n'};
  s.modes_c = s.modes_d = {'m', 'n'};
  s.conj_a = true;
  const tt::ContractionPlan plan(s);
  trn::blas::CallReport rep;
  trnsci::bench::run_paired(
      st, 8.0 * n * n * n, [&] { plan.execute({}, 1.0, A.data(), B.data(), 0.0, C.data(), C.data(), nullptr, 0, &rep); },
      [&] {
        trn::blas::cgemm({}, trn::blas::GemmMode::fp32, trn::blas::ComplexAlgo::four_m, trn::blas::COp::C, trn::blas::COp::N,
                         n, n, n, Cf(1.0f), A.data(), n, B.data(), n, Cf(0.0f), R.data(), n);
      });
  modeled(st, rep.profile);
  st.SetLabel(plan.print());
}
BENCHMARK(BM_complex_contraction)->Arg(128)->Arg(512)->Unit(benchmark::kMillisecond)->UseRealTime();

// Trinary E[i,l] = A[i,j] B[j,k] C[k,l] (i = k = l = n, j = n / 8): the planner contracts B C first;
// the reference is the same two trnblas GEMMs (X = B C, E = A X) called directly.
void BM_trinary(benchmark::State& st) {
  const std::int64_t n = st.range(0), j = n / 8;
  const auto A = uniform(static_cast<std::size_t>(n * j), 4), B = uniform(static_cast<std::size_t>(j * n), 5),
             C = uniform(static_cast<std::size_t>(n * n), 6);
  std::vector<float> E(static_cast<std::size_t>(n * n)), X(static_cast<std::size_t>(j * n)), R(E.size());
  tt::TrinarySpec s;
  s.a = {{n, j}, {}, tt::DataType::f32};
  s.b = {{j, n}, {}, tt::DataType::f32};
  s.c = {{n, n}, {}, tt::DataType::f32};
  s.d = s.e = s.c;
  s.modes_a = {'i', 'j'};
  s.modes_b = {'j', 'k'};
  s.modes_c = {'k', 'l'};
  s.modes_d = s.modes_e = {'i', 'l'};
  const tt::TrinaryContractionPlan plan(s);
  std::vector<std::byte> ws(plan.workspace_bytes());
  trn::blas::CallReport rep;
  using trn::blas::Op;
  trnsci::bench::run_paired(
      st, 2.0 * (j * n * n + n * j * n),
      [&] { plan.execute({}, 1.0, A.data(), B.data(), C.data(), 0.0, nullptr, E.data(), ws.data(), ws.size(), &rep); },
      [&] {
        trn::blas::gemm({}, trn::blas::GemmMode::fp32, Op::N, Op::N, j, n, n, 1.0f, {B.data(), trn::DType::f32, j},
                        {C.data(), trn::DType::f32, n}, 0.0f, {X.data(), trn::DType::f32, j});
        trn::blas::gemm({}, trn::blas::GemmMode::fp32, Op::N, Op::N, n, n, j, 1.0f, {A.data(), trn::DType::f32, n},
                        {X.data(), trn::DType::f32, j}, 0.0f, {R.data(), trn::DType::f32, n});
      });
  modeled(st, rep.profile);
  st.SetLabel(plan.print());
}
BENCHMARK(BM_trinary)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
