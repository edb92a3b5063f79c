// Validation and benchmark suite "tensor": trntensor contractions in every compute descriptor
// (GEMM-like transpose-free and a permuted TTGT case), the 4-index AO->MO transform, complex
// contractions with OP_CONJ, trinary and block-sparse contractions and DF-MP2 against the oracle the tests use
// (tests/reference/tensor_reference.hpp: FP64 einsum loops over the labels, the DF-MP2 energy
// reference), and the path planner on opt_einsum's published example (docs/trntensor.md).
#include <array>
#include <cmath>
#include <complex>
#include <random>
#include <string>

#include "registry.hpp"
#include "tensor_reference.hpp"
#include "trn/tensor/tensor.hpp"

namespace trnsci::cli {
namespace {

namespace tt = trn::tensor;

// FP64 einsum loop over packed (first-axis-fastest) operands; the output in `expr`'s right-hand
// side order, C-contiguous (write it reversed to get a first-axis-fastest result).
std::vector<double> einsum_ref(const std::string& expr, const std::vector<tensor_ref::Operand>& ops) {
  std::vector<double> out;
  std::vector<std::int64_t> shape;
  tensor_ref::einsum_loop(expr, ops, &out, nullptr, &shape);
  return out;
}

std::vector<double> uniform(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(n);
  for (auto& x : v) x = u(rng);
  return v;
}

struct Descriptor {
  tt::ComputeType type;
  const char* name;
  double unit_roundoff_inputs;  // rounding of the inputs by the mode (0: exact)
};
const Descriptor kDescriptors[] = {
    {tt::ComputeType::f32, "32F", 0.0},          {tt::ComputeType::tf32, "TF32", 0x1p-11},
    {tt::ComputeType::bf16, "16BF", 0x1p-8},     {tt::ComputeType::f16, "16F", 0x1p-11},
    {tt::ComputeType::tf32x3, "3XTF32", 0x1p-22}, {tt::ComputeType::bf16x9, "9X16BF", 0.0},
    {tt::ComputeType::f64, "64F", 0.0},
};

// D[d,b,a] = sum_c A[a,b,c] B[c,d] (column-major descriptors; permuted output: TTGT) or the
// GEMM-like 'mk,kn->mn' (transpose-free), normwise relative error against the FP64 loop.
CaseResult contraction_case(const Descriptor& dsc, bool permuted, std::int64_t n) {
  const std::int64_t a = n / 4, b = 4, c = n, d = n;
  tt::ContractionSpec s;
  const tt::DataType dt = dsc.type == tt::ComputeType::f64 ? tt::DataType::f64 : tt::DataType::f32;
  if (permuted) {
    s.a = {{a, b, c}, {}, dt};
    s.b = {{c, d}, {}, dt};
    s.d = s.c = {{d, b, a}, {}, dt};
    s.modes_a = {'a', 'b', 'c'};
    s.modes_b = {'c', 'd'};
    s.modes_c = s.modes_d = {'d', 'b', 'a'};
  } else {
    s.a = {{n, n}, {}, dt};
    s.b = s.a;
    s.d = s.c = s.a;
    s.modes_a = {'m', 'k'};
    s.modes_b = {'k', 'n'};
    s.modes_c = s.modes_d = {'m', 'n'};
  }
  s.compute = dsc.type;
  const tt::ContractionPlan plan(s);
  const std::int64_t na = permuted ? a * b * c : n * n, nb = permuted ? c * d : n * n, nd = permuted ? a * b * d : n * n;
  auto A = uniform(static_cast<std::size_t>(na), permuted ? 11 : 1), B = uniform(static_cast<std::size_t>(nb), permuted ? 12 : 2);
  if (dt == tt::DataType::f32) {
    for (auto& x : A) x = static_cast<float>(x);
    for (auto& x : B) x = static_cast<float>(x);
  }
  // Reference: the FP64 einsum loop over the same (float-valued) inputs, D first-axis-fastest.
  using tensor_ref::column_major;
  const std::vector<double> ref = permuted ? einsum_ref("abc,cd->abd", {column_major({a, b, c}, A), column_major({c, d}, B)})
                                           : einsum_ref("mk,kn->nm", {column_major({n, n}, A), column_major({n, n}, B)});
  std::vector<double> got(static_cast<std::size_t>(nd));
  trn::blas::CallReport rep;
  const double t0 = now_seconds();
  if (dt == tt::DataType::f64) {
    plan.execute({}, 1.0, A.data(), B.data(), 0.0, got.data(), got.data(), nullptr, 0, &rep);
  } else {
    std::vector<float> af(A.begin(), A.end()), bf(B.begin(), B.end()), df(static_cast<std::size_t>(nd));
    plan.execute({}, 1.0, af.data(), bf.data(), 0.0, df.data(), df.data(), nullptr, 0, &rep);
    got.assign(df.begin(), df.end());
  }
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  r.measured = rel_frobenius(got, ref);
  // Normwise bound: 2 u_in (input rounding) + sqrt(k) u_acc (fp32 accumulation, random-walk
  // growth of k roundings: Higham, "Accuracy and Stability", 2nd ed., section 3.1), safety 4.
  const double k = static_cast<double>(permuted ? c : n);
  const double u_acc = dsc.type == tt::ComputeType::f64 ? 0x1p-53 : 0x1p-24;
  r.bound = 4 * (2 * dsc.unit_roundoff_inputs + std::sqrt(k) * u_acc);
  r.pass = r.measured <= r.bound;
  r.note = std::string(tt::lowering_name(plan.lowering())) + "; " + std::to_string(rep.tensor_passes) + " TensorE passes";
  r.device = DeviceCost::from(rep.profile);
  return r;
}

// (ij|kl) = sum_pqrs C_pi C_qj C_rk C_sl (pq|rs) through einsum (32F or 64F) vs four OpenBLAS DGEMM
// half-transforms in FP64.
CaseResult ao_to_mo_case(std::int64_t n, bool f64) {
  const std::int64_t n2 = n * n, n3 = n2 * n, n4 = n3 * n;
  auto I = uniform(static_cast<std::size_t>(n4), 3), Cm = uniform(static_cast<std::size_t>(n2), 4);
  if (!f64) {
    for (auto& x : I) x = static_cast<float>(x);
    for (auto& x : Cm) x = static_cast<float>(x);
  }
  // Four FP64 einsum-loop half transforms t[qrs,i] = sum_p I[pqrs] C[p,i] (row-major = C order), each
  // intermediate kept in FP64: after four the axes are back in ijkl order.
  std::vector<double> ref = I;
  for (int step = 0; step < 4; ++step)
    ref = einsum_ref("pqrs,pi->qrsi", {{{n, n, n, n}, {n3, n2, n, 1}, ref}, {{n, n}, {n, 1}, Cm}});
  tt::EinsumReport rep;
  std::vector<double> got(static_cast<std::size_t>(n4));
  const double t0 = now_seconds();
  const std::vector<std::int64_t> s4{n, n, n, n}, s2{n, n};
  if (f64) {
    const tt::View c{Cm.data(), s2, {}};
    tt::einsum({}, "pqrs,pi,qj,rk,sl->ijkl", {{I.data(), s4, {}}, c, c, c, c}, {got.data(), s4, {}}, tt::DataType::f64,
               tt::ComputeType::f64, tt::PathStrategy::automatic, &rep);
  } else {
    std::vector<float> If(I.begin(), I.end()), Cf(Cm.begin(), Cm.end()), out(static_cast<std::size_t>(n4));
    const tt::View c{Cf.data(), s2, {}};
    tt::einsum({}, "pqrs,pi,qj,rk,sl->ijkl", {{If.data(), s4, {}}, c, c, c, c}, {out.data(), s4, {}}, tt::DataType::f32,
               tt::ComputeType::f32, tt::PathStrategy::automatic, &rep);
    got.assign(out.begin(), out.end());
  }
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  r.measured = rel_frobenius(got, ref);
  // Four chained contractions of length n, each intermediate rounded once to the data type.
  const double u = f64 ? 0x1p-53 : 0x1p-24;
  r.bound = 4 * 4 * (std::sqrt(static_cast<double>(n)) + 1) * u;
  r.pass = r.measured <= r.bound;
  r.note = "path " + rep.path.path_string() + ", " + sci(rep.path.optimized_flops) + " path FLOPs";
  r.device = DeviceCost::from(rep.profile);
  return r;
}

// DF-MP2 energy (fused kernel) on random B vs an FP64 reference built with OpenBLAS DGEMM.
CaseResult dfmp2_case(std::int64_t naux, std::int64_t o, std::int64_t v, tt::Mp2Precision prec) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> ub(-0.1, 0.1), uo(-1.5, -0.5), uv(0.2, 3.0);
  std::vector<float> B(static_cast<std::size_t>(naux * o * v)), eo, ev;
  for (auto& x : B) x = static_cast<float>(ub(rng));
  for (std::int64_t i = 0; i < o; ++i) eo.push_back(static_cast<float>(uo(rng)));
  for (std::int64_t a = 0; a < v; ++a) ev.push_back(static_cast<float>(uv(rng)));
  const long double ref = tensor_ref::dfmp2_energy(naux, o, v, B, eo, ev);
  trn::blas::CallReport rep;
  const double t0 = now_seconds();
  const double e = tt::dfmp2_energy({}, naux, o, v, B.data(), eo.data(), ev.data(), prec, &rep);
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  r.measured = std::fabs(e - static_cast<double>(ref)) / std::fabs(static_cast<double>(ref));
  r.bound = prec == tt::Mp2Precision::bf16x3 ? 8 * 0x1p-18 : prec == tt::Mp2Precision::bf16 ? 1e-2 : 1e-6;
  r.pass = r.measured <= r.bound;
  r.note = "E_ref = " + sci(static_cast<double>(ref));
  r.device = DeviceCost::from(rep.profile);
  return r;
}

// C_32F / C_64F D[m,n] = conj(A[k,m]) B[k,n] (op C on the caller's data, 4M complex GEMM) vs the
// complex FP64 loop of tensor_ref::contract_complex on the same (float-valued for C_32F) inputs.
CaseResult complex_case(tt::ComputeType ct, std::int64_t n) {
  using Z = std::complex<double>;
  const bool c64 = ct == tt::ComputeType::f64;
  const auto re = uniform(static_cast<std::size_t>(4 * n * n), 21);
  std::vector<Z> A(static_cast<std::size_t>(n * n)), B(A.size()), got(A.size());
  for (std::size_t i = 0; i < A.size(); ++i) {
    A[i] = Z(re[4 * i], re[4 * i + 1]);
    B[i] = Z(re[4 * i + 2], re[4 * i + 3]);
    if (!c64) {  // float values; through volatile floats (GCC 12 -O3 folds (double)(float)x inside complex construction)
      volatile float p[4] = {static_cast<float>(re[4 * i]), static_cast<float>(re[4 * i + 1]), static_cast<float>(re[4 * i + 2]),
                             static_cast<float>(re[4 * i + 3])};
      A[i] = Z(p[0], p[1]);
      B[i] = Z(p[2], p[3]);
    }
  }
  const tensor_ref::Tensor ta{{'k', 'm'}, {n, n}, {1, n}, {}}, tb{{'k', 'n'}, {n, n}, {1, n}, {}},
      td{{'m', 'n'}, {n, n}, {1, n}, std::vector<double>(A.size())};
  const std::vector<Z> ref = tensor_ref::contract_complex(ta, tb, td, td, 1.0, 0.0, true, false, A, B, {}).loop;
  tt::ContractionSpec s;
  s.a = {{n, n}, {}, c64 ? tt::DataType::c64 : tt::DataType::c32};
  s.b = s.c = s.d = s.a;
  s.modes_a = {'k', 'm'};
  s.modes_b = {'k', 'n'};
  s.modes_c = s.modes_d = {'m', 'n'};
  s.compute = ct;
  s.conj_a = true;
  const tt::ContractionPlan plan(s);
  trn::blas::CallReport rep;
  const double t0 = now_seconds();
  if (c64) {
    plan.execute({}, 1.0, A.data(), B.data(), 0.0, nullptr, got.data(), nullptr, 0, &rep);
  } else {
    std::vector<std::complex<float>> af(A.begin(), A.end()), bf(B.begin(), B.end()), df(A.size());
    plan.execute({}, 1.0, af.data(), bf.data(), 0.0, nullptr, df.data(), nullptr, 0, &rep);
    got.assign(df.begin(), df.end());
  }
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  // Normwise over the interleaved real components.
  std::vector<double> g, f;
  for (std::size_t i = 0; i < got.size(); ++i) {
    g.insert(g.end(), {got[i].real(), got[i].imag()});
    f.insert(f.end(), {ref[i].real(), ref[i].imag()});
  }
  r.measured = rel_frobenius(g, f);
  // Each component: one accumulation of 2k products (4M), inputs rounded by the mode.
  const double u_in = ct == tt::ComputeType::tf32 ? 0x1p-11 : ct == tt::ComputeType::tf32x3 ? 0x1p-22 : 0.0;
  r.bound = 4 * (2 * u_in + std::sqrt(2.0 * static_cast<double>(n)) * (c64 ? 0x1p-53 : 0x1p-24));
  r.pass = r.measured <= r.bound;
  r.note = plan.print();
  r.device = DeviceCost::from(rep.profile);
  return r;
}

// Trinary E[i,l] = A[i,j] B[j,k] C[k,l] (j = n / 4) vs two FP64 einsum loops (A B first).
CaseResult trinary_case(std::int64_t n, bool f64) {
  const std::int64_t j = n / 4;
  auto A = uniform(static_cast<std::size_t>(n * j), 31), B = uniform(static_cast<std::size_t>(j * n), 32),
       C = uniform(static_cast<std::size_t>(n * n), 33);
  if (!f64)
    for (auto* v : {&A, &B, &C})
      for (auto& x : *v) x = static_cast<float>(x);
  using tensor_ref::column_major;
  const std::vector<double> X = einsum_ref("ij,jk->ki", {column_major({n, j}, A), column_major({j, n}, B)});
  const std::vector<double> ref = einsum_ref("ik,kl->li", {column_major({n, n}, X), column_major({n, n}, C)});
  tt::TrinarySpec s;
  const tt::DataType dt = f64 ? tt::DataType::f64 : tt::DataType::f32;
  s.a = {{n, j}, {}, dt};
  s.b = {{j, n}, {}, dt};
  s.c = s.d = s.e = {{n, n}, {}, dt};
  s.modes_a = {'i', 'j'};
  s.modes_b = {'j', 'k'};
  s.modes_c = {'k', 'l'};
  s.modes_d = s.modes_e = {'i', 'l'};
  s.compute = f64 ? tt::ComputeType::f64 : tt::ComputeType::f32;
  const tt::TrinaryContractionPlan plan(s);
  trn::blas::CallReport rep;
  std::vector<double> got(ref.size());
  const double t0 = now_seconds();
  if (f64) {
    plan.execute({}, 1.0, A.data(), B.data(), C.data(), 0.0, nullptr, got.data(), nullptr, 0, &rep);
  } else {
    std::vector<float> af(A.begin(), A.end()), bf(B.begin(), B.end()), cf(C.begin(), C.end()), ef(ref.size());
    plan.execute({}, 1.0, af.data(), bf.data(), cf.data(), 0.0, nullptr, ef.data(), nullptr, 0, &rep);
    got.assign(ef.begin(), ef.end());
  }
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  r.measured = rel_frobenius(got, ref);
  // Two chained contractions, the intermediate rounded once to the data type.
  const double u = f64 ? 0x1p-53 : 0x1p-24;
  r.bound = 4 * 2 * (std::sqrt(static_cast<double>(n)) + 1) * u;
  r.pass = r.measured <= r.bound;
  r.note = plan.print().substr(0, plan.print().find('\n'));
  r.device = DeviceCost::from(rep.profile);
  return r;
}

// Block-sparse D[m,n] = A[m,k] B[k,n] (sections m 64/32/32, k 32/64/32, n 48/48/32; A and B
// block-diagonal plus one off-diagonal block each; D stores 6 blocks, one reached by no pair)
// against the dense FP64 einsum loop over the zero-filled operands, on D's stored blocks.
struct BlockSparseProblem {
  tt::BlockSparseSpec spec;
  std::vector<std::vector<double>> a, b;  // block data
};
BlockSparseProblem block_sparse_problem(bool f64) {
  BlockSparseProblem p;
  const tt::DataType dt = f64 ? tt::DataType::f64 : tt::DataType::f32;
  const std::vector<std::int64_t> sm{64, 32, 32}, sk{32, 64, 32}, sn{48, 48, 32};
  p.spec.a = {{sm, sk}, {{0, 0}, {1, 1}, {2, 2}, {2, 0}}, {}, dt};
  p.spec.b = {{sk, sn}, {{0, 0}, {1, 1}, {2, 2}, {0, 2}}, {}, dt};
  p.spec.c = p.spec.d = {{sm, sn}, {{0, 0}, {1, 1}, {2, 2}, {2, 0}, {0, 2}, {1, 0}}, {}, dt};
  p.spec.modes_a = {'m', 'k'};
  p.spec.modes_b = {'k', 'n'};
  p.spec.modes_c = p.spec.modes_d = {'m', 'n'};
  p.spec.compute = f64 ? tt::ComputeType::f64 : tt::ComputeType::f32;
  std::uint64_t seed = 41;
  for (auto [t, out] : {std::pair{&p.spec.a, &p.a}, std::pair{&p.spec.b, &p.b}})
    for (std::size_t i = 0; i < t->blocks.size(); ++i) {
      const tt::TensorDesc d = tt::block_desc(*t, i);
      auto v = uniform(static_cast<std::size_t>(d.extents[0] * d.extents[1]), seed++);
      if (!f64)
        for (auto& x : v) x = static_cast<float>(x);
      out->push_back(std::move(v));
    }
  return p;
}

// Runs the plan on data of type T; returns D's stored blocks as doubles.
template <class T>
std::vector<std::vector<double>> run_block_sparse(const tt::BlockSparseContractionPlan& plan, const BlockSparseProblem& p,
                                                  const trn::blas::Settings& s, trn::blas::CallReport* rep) {
  auto to_t = [](const std::vector<double>& v) { return std::vector<T>(v.begin(), v.end()); };
  std::vector<std::vector<T>> a, b, d;
  std::vector<const void*> pa, pb;
  std::vector<void*> pd;
  for (const auto& v : p.a) a.push_back(to_t(v));
  for (const auto& v : p.b) b.push_back(to_t(v));
  for (std::size_t i = 0; i < p.spec.d.blocks.size(); ++i) {
    const tt::TensorDesc dd = tt::block_desc(p.spec.d, i);
    d.emplace_back(static_cast<std::size_t>(dd.extents[0] * dd.extents[1]), T(7));
  }
  for (auto& v : a) pa.push_back(v.data());
  for (auto& v : b) pb.push_back(v.data());
  for (auto& v : d) pd.push_back(v.data());
  plan.execute(s, 1.0, pa.data(), pb.data(), 0.0, nullptr, pd.data(), nullptr, 0, rep);
  std::vector<std::vector<double>> out;
  for (const auto& v : d) out.emplace_back(v.begin(), v.end());
  return out;
}

CaseResult block_sparse_case(bool f64) {
  const BlockSparseProblem p = block_sparse_problem(f64);
  const tt::BlockSparseContractionPlan plan(p.spec);
  trn::blas::CallReport rep;
  const double t0 = now_seconds();
  const auto d = f64 ? run_block_sparse<double>(plan, p, {}, &rep) : run_block_sparse<float>(plan, p, {}, &rep);
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  const auto A = tensor_ref::block_sparse_dense(p.spec.a.sections, p.spec.a.blocks, p.a);
  const auto B = tensor_ref::block_sparse_dense(p.spec.b.sections, p.spec.b.blocks, p.b);
  const std::vector<double> ref = einsum_ref("mk,kn->nm", {A, B});  // column-major [m, n]
  // The stored blocks of D, as the dense reference's entries at the same places.
  std::vector<std::vector<double>> want;
  for (std::size_t i = 0; i < d.size(); ++i) {
    std::vector<std::vector<double>> only(d.size());
    for (std::size_t j = 0; j < d.size(); ++j) only[j].assign(d[j].size(), i == j ? 1.0 : 0.0);
    const auto mask = tensor_ref::block_sparse_dense(p.spec.d.sections, p.spec.d.blocks, only);
    want.emplace_back();
    for (std::size_t e = 0; e < mask.data.size(); ++e)
      if (mask.data[e] != 0.0) want.back().push_back(ref[e]);
  }
  std::vector<double> got_all, want_all;
  for (std::size_t i = 0; i < d.size(); ++i) {
    got_all.insert(got_all.end(), d[i].begin(), d[i].end());
    want_all.insert(want_all.end(), want[i].begin(), want[i].end());
  }
  r.measured = rel_frobenius(got_all, want_all);
  const double u = f64 ? 0x1p-53 : 0x1p-24;
  r.bound = 4 * (std::sqrt(128.0) + 2) * u;  // k <= 128 summed terms over the pairs, one more rounding per pair
  r.pass = r.measured <= r.bound;
  r.note = std::to_string(plan.block_products()) + " block contractions over " + std::to_string(d.size()) + " D blocks";
  r.device = DeviceCost::from(rep.profile);
  return r;
}

CaseResult planner_case() {
  tt::PathProblem p;
  p.inputs = {{'b', 'd', 'i', 'k'}, {'a', 'c', 'j'}, {'i', 'k', 'a', 'b'}, {'a', 'j', 'c'}, {'i', 'k', 'b', 'd'}};
  p.sizes = {{'a', 10}, {'b', 9}, {'c', 15}, {'d', 10}, {'i', 13}, {'j', 17}, {'k', 16}};
  const double t0 = now_seconds();
  const auto info = tt::plan_path(p, tt::PathStrategy::optimal);
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  r.measured = info.optimized_flops;
  r.bound = 80000;
  r.pass = info.optimized_flops == 80000 && info.largest_intermediate == 1872 &&
           info.path_string() == "[(1, 3), (0, 2), (0, 2), (0, 1)]";
  r.note = "path " + info.path_string() + ", largest intermediate " + sci(info.largest_intermediate);
  return r;
}

void add_tensor(Registry& reg) {
  auto add = reg.adder("tensor", "trntensor");
  for (const Descriptor& d : kDescriptors)
    for (bool permuted : {false, true}) {
      const std::int64_t n = 128;
      add({.op = permuted ? "contract abc,cd->dba" : "contract mk,kn->mn", .mode = d.name,
           .shape = permuted ? "32x4x128 . 128x128" : "128^3", .metric = "normwise_rel",
           .bound_text = "4 (2 u_in + sqrt(k) u_acc)", .size = static_cast<double>(n),
           .run = [&d, permuted, n] { return contraction_case(d, permuted, n); }});
    }
  for (auto [ct, name] : {std::pair{tt::ComputeType::f32, "C_32F/32F"}, std::pair{tt::ComputeType::tf32, "C_32F/TF32"},
                           std::pair{tt::ComputeType::tf32x3, "C_32F/3XTF32"}, std::pair{tt::ComputeType::f64, "C_64F/64F"}})
    add({.op = "contract conj(km),kn->mn", .mode = name, .shape = "128^3", .metric = "normwise_rel",
         .bound_text = "4 (2 u_in + sqrt(2k) u_acc)", .size = 128.0, .run = [ct] { return complex_case(ct, 128); }});
  for (bool f64 : {false, true})
    add({.op = "trinary ij,jk,kl->il", .mode = f64 ? "64F" : "32F", .shape = "128/32/128/128", .metric = "normwise_rel",
         .bound_text = "8 (sqrt(n) + 1) u", .size = 128.0, .run = [f64] { return trinary_case(128, f64); }});
  for (bool f64 : {false, true})
    add({.op = "block-sparse mk,kn->mn", .mode = f64 ? "64F" : "32F", .shape = "128^3, 4/4/6 blocks", .metric = "normwise_rel",
         .bound_text = "4 (sqrt(k) + 2) u", .size = 128.0, .run = [f64] { return block_sparse_case(f64); }});
  for (std::int64_t n : {8, 16})
    for (bool f64 : {false, true})
      add({.op = "einsum AO->MO", .mode = f64 ? "64F" : "32F", .shape = "n=" + std::to_string(n), .metric = "normwise_rel",
           .bound_text = "16 (sqrt(n) + 1) u", .size = static_cast<double>(n), .full_only = n > 8,
           .run = [n, f64] { return ao_to_mo_case(n, f64); }});
  for (auto [naux, o, v] : {std::array<std::int64_t, 3>{84, 5, 19}, std::array<std::int64_t, 3>{420, 21, 93}})
    for (tt::Mp2Precision prec : {tt::Mp2Precision::fp32, tt::Mp2Precision::bf16x6, tt::Mp2Precision::bf16x3, tt::Mp2Precision::bf16})
      add({.op = "dfmp2 energy (fused)", .mode = tt::mp2_precision_name(prec),
           .shape = std::to_string(naux) + "/" + std::to_string(o) + "/" + std::to_string(v), .metric = "normwise_rel",
           .bound_text = prec == tt::Mp2Precision::bf16x3 ? "8 * 2^-18 (dropped lo.lo bias)"
                         : prec == tt::Mp2Precision::bf16 ? "1e-2 (warning case)"
                                                          : "1e-6 (chemistry: |dE| <~ 1e-6 Eh)",
           .experiment = "DF-MP2 on random B (Weigend-Haser)", .full_only = naux > 84,
           .run = [naux, o, v, prec] { return dfmp2_case(naux, o, v, prec); }});
  add({.op = "einsum path", .mode = "optimal", .shape = "bdik,acaj,ikab,ajac,ikbd->", .metric = "value",
       .bound_text = "opt_einsum: 8.000e4 FLOPs, path [(1,3),(0,2),(0,2),(0,1)], largest 1872",
       .experiment = "opt_einsum documented example", .run = [] { return planner_case(); }});

  reg.add(BenchCase{.suite = "tensor", .library = "trntensor", .op = "block-sparse mk,kn->mn", .variant = "32F",
                    .shape = "128^3, 4/4/6 blocks", .run = [](trn::Generation target) {
                      const BlockSparseProblem p = block_sparse_problem(false);
                      const tt::BlockSparseContractionPlan plan(p.spec);
                      trn::blas::Settings s;
                      s.target = target;
                      trn::blas::CallReport rep;
                      const double t0 = now_seconds();
                      (void)run_block_sparse<float>(plan, p, s, &rep);
                      BenchResult b;
                      b.host_seconds = seconds_since(t0);
                      b.flops = plan.flops();
                      b.device = DeviceCost::from(rep.profile);
                      return b;
                    }});
  for (std::int64_t n : {256, 512})
    reg.add(BenchCase{.suite = "tensor", .library = "trntensor", .op = "einsum ij,jk->ik", .variant = "32F",
                      .shape = std::to_string(n) + "^3", .full_only = n > 256, .run = [n](trn::Generation target) {
                        const auto A = uniform(static_cast<std::size_t>(n * n), 5), B = uniform(static_cast<std::size_t>(n * n), 6);
                        std::vector<float> af(A.begin(), A.end()), bf(B.begin(), B.end()), cf(af.size());
                        trn::blas::Settings s;
                        s.target = target;
                        tt::EinsumReport rep;
                        const double t0 = now_seconds();
                        tt::einsum(s, "ij,jk->ik", {{af.data(), {n, n}, {}}, {bf.data(), {n, n}, {}}}, {cf.data(), {n, n}, {}},
                                   tt::DataType::f32, tt::ComputeType::f32, tt::PathStrategy::automatic, &rep);
                        BenchResult b;
                        b.host_seconds = seconds_since(t0);
                        const std::vector<double> ref =
                            einsum_ref("ij,jk->ik", {{{n, n}, {n, 1}, A}, {{n, n}, {n, 1}, B}});
                        b.error = rel_frobenius(std::vector<double>(cf.begin(), cf.end()), ref);
                        b.error_metric = "normwise_rel";
                        b.flops = 2.0 * n * n * n;
                        b.device = DeviceCost::from(rep.profile);
                        return b;
                      }});
}

const Registrar kRegistrar(add_tensor);

}  // namespace
}  // namespace trnsci::cli
