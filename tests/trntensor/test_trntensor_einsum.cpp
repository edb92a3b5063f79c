// trntensor einsum: NumPy semantics against an FP64 loop over every label assignment written here
// (a corpus of hand-written expressions with their NumPy shapes plus >= 200 generated ones), the
// path planner against an exhaustive search written here and opt_einsum's published example, and
// the parser's error positions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>

#include "tensor_reference.hpp"
#include "trn/tensor/tensor.hpp"

namespace {

using trn::tensor::ComputeType;
using trn::tensor::DataType;
using trn::tensor::PathStrategy;

// ---- independent reference: tests/reference/tensor_reference.hpp ------------------------------

using RefOperand = tensor_ref::Operand;

// A random operand of the given shape; `scramble` lays it out with a random axis order and padding.
RefOperand make_operand(const std::vector<std::int64_t>& shape, std::mt19937_64& rng, bool scramble) {
  RefOperand o;
  o.shape = shape;
  o.strides.assign(shape.size(), 0);
  std::vector<std::size_t> order(shape.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = shape.size() - 1 - i;  // C order: last fastest
  if (scramble) std::shuffle(order.begin(), order.end(), rng);
  std::int64_t acc = 1;
  for (std::size_t q : order) {
    o.strides[q] = acc;
    acc = acc * std::max<std::int64_t>(1, shape[q]) + (scramble ? 1 : 0);
  }
  std::uniform_real_distribution<double> u(-1, 1);
  o.data.resize(static_cast<std::size_t>(acc));
  for (double& x : o.data) x = u(rng);
  return o;
}

struct Outcome {
  std::vector<double> got, ref, abs;
};

// Runs trntensor's einsum on `expr` and the reference on `ref_expr` (the same contraction in
// explicit letters-only form); checks the shape and returns both results.
Outcome run_both(const std::string& expr, const std::string& ref_expr, const std::vector<RefOperand>& ops, ComputeType ct,
                 const std::vector<std::int64_t>* expected_shape = nullptr) {
  Outcome r;
  std::vector<std::int64_t> ref_shape;
  tensor_ref::einsum_loop(ref_expr, ops, &r.ref, &r.abs, &ref_shape);
  if (expected_shape != nullptr) {
    EXPECT_EQ(ref_shape, *expected_shape) << "reference shape of " << ref_expr;
  }
  std::vector<std::vector<std::int64_t>> shapes;
  for (const auto& o : ops) shapes.push_back(o.shape);
  const auto parsed = trn::tensor::parse_einsum(expr, shapes);
  EXPECT_EQ(parsed.output_shape, ref_shape) << expr;
  const bool f64 = ct == ComputeType::f64;
  std::vector<std::vector<float>> fdata;
  std::vector<trn::tensor::View> views;
  for (const auto& o : ops) fdata.emplace_back(o.data.begin(), o.data.end());
  for (std::size_t k = 0; k < ops.size(); ++k)
    views.push_back({f64 ? static_cast<const void*>(ops[k].data.data()) : static_cast<const void*>(fdata[k].data()),
                     ops[k].shape, ops[k].strides});
  std::int64_t n = 1;
  for (auto e : ref_shape) n *= e;
  trn::tensor::EinsumReport rep;
  if (f64) {
    std::vector<double> out(static_cast<std::size_t>(std::max<std::int64_t>(1, n)), 0.0);
    trn::tensor::einsum({}, expr, views, {out.data(), ref_shape, {}}, DataType::f64, ct, PathStrategy::automatic, &rep);
    r.got.assign(out.begin(), out.begin() + n);
  } else {
    std::vector<float> out(static_cast<std::size_t>(std::max<std::int64_t>(1, n)), 0.0f);
    trn::tensor::einsum({}, expr, views, {out.data(), ref_shape, {}}, DataType::f32, ct, PathStrategy::automatic, &rep);
    r.got.assign(out.begin(), out.begin() + n);
  }
  return r;
}

void expect_close(const Outcome& o, double rel, const std::string& what) {
  ASSERT_EQ(o.got.size(), o.ref.size()) << what;
  for (std::size_t i = 0; i < o.got.size(); ++i)
    ASSERT_LE(std::fabs(o.got[i] - o.ref[i]), rel * o.abs[i] + 1e-300) << what << " element " << i;
}

// ---- hand-written corpus with NumPy's shapes -----------------------------------------------------

struct Written {
  std::string expr, ref_expr;  // ref_expr: explicit letters-only form (ellipsis expanded)
  std::vector<std::vector<std::int64_t>> shapes;
  std::vector<std::int64_t> shape;  // np.einsum(expr, ...).shape
};

std::vector<Written> written() {
  return {
      {"ij,jk->ik", "ij,jk->ik", {{3, 4}, {4, 5}}, {3, 5}},
      {"ij,jk", "ij,jk->ik", {{3, 4}, {4, 5}}, {3, 5}},
      {"ij,kj", "ij,kj->ik", {{3, 4}, {5, 4}}, {3, 5}},
      {"ji,jk", "ji,jk->ik", {{4, 3}, {4, 5}}, {3, 5}},
      {"ba,cb", "ba,cb->ac", {{4, 3}, {5, 4}}, {3, 5}},
      {"ij->ji", "ij->ji", {{3, 4}}, {4, 3}},
      {"ij", "ij->ij", {{3, 4}}, {3, 4}},
      {"ji", "ji->ij", {{3, 4}}, {4, 3}},
      {"ii->i", "ii->i", {{4, 4}}, {4}},
      {"ii", "ii->", {{4, 4}}, {}},
      {"ii->", "ii->", {{5, 5}}, {}},
      {"iij->j", "iij->j", {{3, 3, 4}}, {4}},
      {"iji->j", "iji->j", {{3, 4, 3}}, {4}},
      {"ij->", "ij->", {{3, 4}}, {}},
      {"ij->i", "ij->i", {{3, 4}}, {3}},
      {"ij->j", "ij->j", {{3, 4}}, {4}},
      {"i,i->", "i,i->", {{6}, {6}}, {}},
      {"i,i", "i,i->", {{6}, {6}}, {}},
      {"i,j->ij", "i,j->ij", {{3}, {4}}, {3, 4}},
      {"i,j", "i,j->ij", {{3}, {4}}, {3, 4}},
      {"j,i", "j,i->ij", {{3}, {4}}, {4, 3}},
      {"i,i->i", "i,i->i", {{5}, {5}}, {5}},
      {"ij,ij->ij", "ij,ij->ij", {{3, 4}, {3, 4}}, {3, 4}},
      {"ij,ij->", "ij,ij->", {{3, 4}, {3, 4}}, {}},
      {"ij,j->i", "ij,j->i", {{3, 4}, {4}}, {3}},
      {"ij,i->j", "ij,i->j", {{3, 4}, {3}}, {4}},
      {"bij,bjk->bik", "bij,bjk->bik", {{2, 3, 4}, {2, 4, 5}}, {2, 3, 5}},
      {"bij,bjk", "bij,bjk->ik", {{2, 3, 4}, {2, 4, 5}}, {3, 5}},  // implicit: b appears twice, summed
      {"bij,bjk->ik", "bij,bjk->ik", {{2, 3, 4}, {2, 4, 5}}, {3, 5}},
      {"ijk,jil->kl", "ijk,jil->kl", {{3, 4, 2}, {4, 3, 5}}, {2, 5}},
      {"pqrs,pi,qj,rk,sl->ijkl", "pqrs,pi,qj,rk,sl->ijkl", {{3, 3, 3, 3}, {3, 2}, {3, 2}, {3, 2}, {3, 2}}, {2, 2, 2, 2}},
      {"ij,jk,kl->il", "ij,jk,kl->il", {{2, 3}, {3, 4}, {4, 5}}, {2, 5}},
      {"ij,jk,kl", "ij,jk,kl->il", {{2, 3}, {3, 4}, {4, 5}}, {2, 5}},
      {"ab,bc,cd,de->ae", "ab,bc,cd,de->ae", {{2, 3}, {3, 4}, {4, 3}, {3, 2}}, {2, 2}},
      {"ea,fb,abcd,gc,hd->efgh", "ea,fb,abcd,gc,hd->efgh", {{2, 3}, {2, 3}, {3, 3, 3, 3}, {2, 3}, {2, 3}}, {2, 2, 2, 2}},
      {"abc,cd->dba", "abc,cd->dba", {{2, 3, 4}, {4, 5}}, {5, 3, 2}},
      {"Ab,bA->", "Ab,bA->", {{3, 4}, {4, 3}}, {}},
      {"aB,Bc", "aB,Bc->ac", {{3, 4}, {4, 2}}, {3, 2}},
      {"Ba,a", "Ba,a->B", {{3, 4}, {4}}, {3}},
      {"...ij,...jk->...ik", "xyij,xyjk->xyik", {{2, 3, 2, 4}, {2, 3, 4, 3}}, {2, 3, 2, 3}},
      {"...ij,...jk", "xyij,xyjk->xyik", {{2, 3, 2, 4}, {2, 3, 4, 3}}, {2, 3, 2, 3}},
      {"...ij,jk->...ik", "xij,jk->xik", {{3, 2, 4}, {4, 5}}, {3, 2, 5}},
      {"ij...,jk...->ik...", "ijx,jkx->ikx", {{2, 4, 3}, {4, 5, 3}}, {2, 5, 3}},
      {"...i,...i->...", "xi,xi->x", {{3, 4}, {3, 4}}, {3}},
      {"...ij->...ji", "xyij->xyji", {{2, 3, 4, 2}}, {2, 3, 2, 4}},
      {"...", "xy->xy", {{2, 3}}, {2, 3}},
      {"...,...", "xy,xy->xy", {{2, 3}, {2, 3}}, {2, 3}},
      {"i...->...", "ix->x", {{3, 4}}, {4}},
      {"...ii->...i", "xii->xi", {{2, 3, 3}}, {2, 3}},
      {"...ij,...jk->...ik", "xyij,xyjk->xyik", {{1, 3, 2, 4}, {2, 1, 4, 3}}, {2, 3, 2, 3}},  // broadcasting
      {"...j,j", "xj,j->x", {{3, 4}, {4}}, {3}},
      {",ij->ij", ",ij->ij", {{}, {3, 2}}, {3, 2}},
      {",", ",->", {{}, {}}, {}},
      {"i,->i", "i,->i", {{4}, {}}, {4}},
      {"ij,ij,ij->ij", "ij,ij,ij->ij", {{2, 3}, {2, 3}, {2, 3}}, {2, 3}},
      {"ijk,ikl,ilm->jm", "ijk,ikl,ilm->jm", {{2, 3, 4}, {2, 4, 2}, {2, 2, 3}}, {3, 3}},
      {"ab,ab,ab", "ab,ab,ab->", {{2, 2}, {2, 2}, {2, 2}}, {}},  // implicit: every label repeated
      {"a,b,c->abc", "a,b,c->abc", {{2}, {3}, {4}}, {2, 3, 4}},
      {"abc->cba", "abc->cba", {{2, 3, 4}}, {4, 3, 2}},
      {"abc->", "abc->", {{2, 3, 4}}, {}},
      {"abc->b", "abc->b", {{2, 3, 4}}, {3}},
      {" ij , jk -> ik ", "ij,jk->ik", {{3, 4}, {4, 5}}, {3, 5}},
      {"ij,jk->ik", "ij,jk->ik", {{3, 0}, {0, 5}}, {3, 5}},  // empty contraction: zeros
      {"ij,jk->ik", "ij,jk->ik", {{1, 4}, {4, 1}}, {1, 1}},
      {"bdik,acaj,ikab,ajac,ikbd->", "bdik,acaj,ikab,ajac,ikbd->", {{2, 2, 3, 2}, {3, 2, 3, 2}, {3, 2, 3, 2}, {3, 2, 3, 2}, {3, 2, 2, 2}}, {}},
  };
}

TEST(EinsumCorpus, WrittenExpressionsMatchNumPyShapesAndFp64Loops) {
  std::mt19937_64 rng(2024);
  int n = 0;
  for (const Written& w : written()) {
    std::vector<RefOperand> ops;
    for (const auto& s : w.shapes) ops.push_back(make_operand(s, rng, n % 3 == 1));
    for (ComputeType ct : {ComputeType::f64, ComputeType::f32}) {
      const Outcome o = run_both(w.expr, w.ref_expr, ops, ct, &w.shape);
      expect_close(o, ct == ComputeType::f64 ? 1e-14 : 2e-6, w.expr + (ct == ComputeType::f64 ? " 64F" : " 32F"));
    }
    ++n;
  }
  EXPECT_GE(n, 60);
}

// ---- generated corpus ----------------------------------------------------------------------------

struct Generated {
  std::string expr, ref_expr;
  std::vector<std::vector<std::int64_t>> shapes;
};

// Random expressions: 1-5 operands of rank 0-4 over labels a-h (some repeated within an operand:
// diagonals), explicit outputs in random order or NumPy's implicit output (the labels that appear
// once, sorted), label extents 1-4 (extent-1 axes broadcast).
Generated generate(std::mt19937_64& rng) {
  const std::string pool = "abcdefgh";
  std::map<char, std::int64_t> ext;
  for (char c : pool) ext[c] = 1 + static_cast<std::int64_t>(rng() % 4);
  const int nops = 1 + static_cast<int>(rng() % 5);
  const int npool = 3 + static_cast<int>(rng() % 5);
  Generated g;
  std::vector<std::string> terms;
  std::map<char, int> count;
  for (int k = 0; k < nops; ++k) {
    const int rank = static_cast<int>(rng() % 5);
    std::string t;
    std::vector<std::int64_t> shape;
    for (int a = 0; a < rank; ++a) {
      char c = pool[rng() % static_cast<unsigned>(npool)];
      if (t.find(c) != std::string::npos && rng() % 3 != 0) continue;  // repeats: occasionally
      t += c;
      shape.push_back(ext[c]);
      ++count[c];
    }
    terms.push_back(t);
    g.shapes.push_back(shape);
  }
  std::string lhs;
  for (std::size_t k = 0; k < terms.size(); ++k) lhs += (k ? "," : "") + terms[k];
  std::string implicit_out;
  for (auto& [c, n] : count)
    if (n == 1) implicit_out += c;
  if (rng() % 3 == 0) {
    g.expr = lhs;
    g.ref_expr = lhs + "->" + implicit_out;
  } else {
    std::string out;
    for (auto& [c, n] : count)
      if (rng() % 2 == 0) out += c;
    std::shuffle(out.begin(), out.end(), rng);
    g.expr = lhs + "->" + out;
    g.ref_expr = g.expr;
  }
  return g;
}

TEST(EinsumCorpus, GeneratedExpressionsMatchFp64Loops) {
  std::mt19937_64 rng(77);
  int checked = 0;
  for (int t = 0; t < 240; ++t) {
    const Generated g = generate(rng);
    std::vector<RefOperand> ops;
    for (const auto& s : g.shapes) ops.push_back(make_operand(s, rng, t % 2 == 1));
    const ComputeType ct = t % 4 == 0 ? ComputeType::f32 : ComputeType::f64;
    const Outcome o = run_both(g.expr, g.ref_expr, ops, ct);
    expect_close(o, ct == ComputeType::f64 ? 1e-13 : 4e-6, g.expr);
    ++checked;
  }
  EXPECT_EQ(checked, 240);
}

// Bf16 einsum is coarser than 32F (the comparison above is not vacuous).
TEST(EinsumCorpus, Bf16DiffersFrom32F) {
  std::mt19937_64 rng(5);
  std::vector<RefOperand> ops = {make_operand({8, 64}, rng, false), make_operand({64, 8}, rng, false)};
  const Outcome a = run_both("ij,jk->ik", "ij,jk->ik", ops, ComputeType::bf16);
  double worst = 0;
  for (std::size_t i = 0; i < a.got.size(); ++i) worst = std::max(worst, std::fabs(a.got[i] - a.ref[i]) / a.abs[i]);
  EXPECT_GT(worst, 1e-4);
  EXPECT_LT(worst, 2 * std::ldexp(1.0, -8) + 1e-5);
}

// ---- planner -------------------------------------------------------------------------------------

// Exhaustive minimum over every pairwise contraction order (no pruning), counted as opt_einsum
// counts: a step costs size(union) * (1 + [some index is summed away]).
double brute_force_min(std::vector<std::set<int>> ops, const std::set<int>& out, const std::map<int, std::int64_t>& size) {
  if (ops.size() <= 1) return 0;
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < ops.size(); ++i)
    for (std::size_t j = i + 1; j < ops.size(); ++j) {
      std::set<int> keep = out, uni = ops[i];
      uni.insert(ops[j].begin(), ops[j].end());
      for (std::size_t r = 0; r < ops.size(); ++r)
        if (r != i && r != j) keep.insert(ops[r].begin(), ops[r].end());
      std::set<int> res;
      double sz = 1;
      bool inner = false;
      for (int l : uni) {
        sz *= static_cast<double>(size.at(l));
        if (keep.count(l))
          res.insert(l);
        else
          inner = true;
      }
      std::vector<std::set<int>> next;
      for (std::size_t r = 0; r < ops.size(); ++r)
        if (r != i && r != j) next.push_back(ops[r]);
      next.push_back(res);
      best = std::min(best, sz * (inner ? 2 : 1) + brute_force_min(next, out, size));
    }
  return best;
}

// opt_einsum's documented example (https://optimized-einsum.readthedocs.io, "The path"):
// 'bdik,acaj,ikab,ajac,ikbd->' with sizes [10, 17, 9, 10, 13, 16, 15, 14, 12] zipped over a Python
// set (order not reproducible). The sizes per label were pinned by search: the published optimised
// cost 8.000e4, largest intermediate 1872 and path hold exactly for a = d = 10, {b, i, k} =
// {9, 13, 16}, {c, j} = {15, 17}; we use b 9, i 13, k 16, c 15, j 17 (docs/trntensor.md, "Planner").
TEST(Planner, ReproducesOptEinsumPublishedExample) {
  const std::map<char, std::int64_t> sz{{'a', 10}, {'b', 9}, {'c', 15}, {'d', 10}, {'i', 13}, {'j', 17}, {'k', 16}};
  std::vector<std::vector<std::int64_t>> shapes;
  for (std::string t : {"bdik", "acaj", "ikab", "ajac", "ikbd"}) {
    std::vector<std::int64_t> s;
    for (char c : t) s.push_back(sz.at(c));
    shapes.push_back(s);
  }
  const auto e = trn::tensor::parse_einsum("bdik,acaj,ikab,ajac,ikbd->", shapes);
  trn::tensor::PathProblem p;
  for (const auto& in : e.inputs) {
    std::vector<int> u;
    for (int l : in)
      if (std::find(u.begin(), u.end(), l) == u.end()) u.push_back(l);
    p.inputs.push_back(u);
  }
  p.output = e.output;
  p.sizes = e.sizes;
  const auto info = trn::tensor::plan_path(p, PathStrategy::optimal);
  EXPECT_EQ(info.path_string(), "[(1, 3), (0, 2), (0, 2), (0, 1)]");
  EXPECT_EQ(info.optimized_flops, 80000.0);
  EXPECT_EQ(info.largest_intermediate, 1872.0);
  EXPECT_EQ(info.naive_scaling, 7);
  EXPECT_EQ(info.optimized_scaling, 4);
  // Today's opt_einsum naive count: prod(sizes) * (max(1, 5 - 1) + 1) = 47,736,000 * 5. The
  // published 3.819e8 is 8 * 47,736,000 (an older counting convention; see docs/trntensor.md).
  EXPECT_EQ(info.naive_flops, 47736000.0 * 5);
  const auto greedy = trn::tensor::plan_path(p, PathStrategy::greedy);
  EXPECT_GE(greedy.optimized_flops, info.optimized_flops);
  const auto dp = trn::tensor::plan_path(p, PathStrategy::dynamic_programming);
  EXPECT_EQ(dp.optimized_flops, 80000.0);
  EXPECT_EQ(dp.largest_intermediate, 1872.0);
}

TEST(Planner, OptimalEqualsExhaustiveSearchOnRandomExpressions) {
  std::mt19937_64 rng(31337);
  for (int t = 0; t < 20; ++t) {
    const int n = 3 + t % 4;  // 3..6 operands
    std::map<int, std::int64_t> size;
    for (int l = 0; l < 10; ++l) size['a' + l] = 2 + static_cast<std::int64_t>(rng() % 7);
    trn::tensor::PathProblem p;
    std::vector<std::set<int>> sets;
    std::map<int, int> count;
    for (int k = 0; k < n; ++k) {
      std::set<int> s;
      const int r = 1 + static_cast<int>(rng() % 4);
      while (static_cast<int>(s.size()) < r) s.insert('a' + static_cast<int>(rng() % 8));
      sets.push_back(s);
      p.inputs.emplace_back(s.begin(), s.end());
      for (int l : s) ++count[l];
    }
    std::set<int> out;
    for (auto [l, c] : count)
      if (c == 1 && rng() % 2 == 0) out.insert(l);
    p.output.assign(out.begin(), out.end());
    for (auto [l, e] : size) p.sizes.emplace_back(l, e);
    const double expect = brute_force_min(sets, out, size);
    const auto opt = trn::tensor::plan_path(p, PathStrategy::optimal);
    EXPECT_EQ(opt.optimized_flops, expect) << "expression " << t;
    EXPECT_EQ(static_cast<int>(opt.path.size()), n - 1);
    const auto gr = trn::tensor::plan_path(p, PathStrategy::greedy);
    EXPECT_GE(gr.optimized_flops, expect);
    const auto dp = trn::tensor::plan_path(p, PathStrategy::dynamic_programming);
    EXPECT_EQ(dp.optimized_flops, expect) << "expression " << t;
  }
}

TEST(Planner, SixOperandPlanningIsFast) {
  trn::tensor::PathProblem p;
  p.inputs = {{'a', 'b'}, {'b', 'c', 'd'}, {'d', 'e'}, {'e', 'f', 'a'}, {'f', 'g'}, {'g', 'c', 'h'}};
  p.output = {'h'};
  for (int l = 'a'; l <= 'h'; ++l) p.sizes.emplace_back(l, 8 + l % 5);
  const auto t0 = std::chrono::steady_clock::now();
  const auto info = trn::tensor::plan_path(p, PathStrategy::optimal);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(info.path.size(), 5U);
  EXPECT_LT(ms, 50.0);  // generous for a loaded CI machine; the bench reports the real figure
}

// ---- parser errors point at the offending character -----------------------------------------------

std::int64_t error_position(const std::string& expr, const std::vector<std::vector<std::int64_t>>& shapes) {
  try {
    (void)trn::tensor::parse_einsum(expr, shapes);
  } catch (const trn::tensor::InvalidArgument& e) {
    return e.position();
  }
  return -100;
}

TEST(EinsumParser, ErrorsPointAtTheOffendingCharacter) {
  const std::vector<std::vector<std::int64_t>> two{{2, 3}, {3, 4}};
  EXPECT_EQ(error_position("ij,j3->ik", two), 4);          // bad character
  EXPECT_EQ(error_position("ij,jk-ik", two), 5);           // '-' without '>'
  EXPECT_EQ(error_position("ij,jk>ik", two), 5);           // '>' without '-'
  EXPECT_EQ(error_position("ij,jk->i->k", two), 8);        // second arrow
  EXPECT_EQ(error_position("ij,jk,kl->il", two), 6);       // more terms than operands
  EXPECT_EQ(error_position("ij->ij", two), 2);             // fewer terms than operands
  EXPECT_EQ(error_position("ijk,jk->ik", two), 0);         // rank mismatch: the term
  EXPECT_EQ(error_position("ij,jk->iz", two), 8);          // output label in no input
  EXPECT_EQ(error_position("ij,jk->ii", two), 8);          // repeated output label
  EXPECT_EQ(error_position("ij,ik->jk", two), 3);          // extent mismatch of 'i' (2 vs 3)
  EXPECT_EQ(error_position("i.j,jk->ik", two), 1);         // lone '.'
  EXPECT_EQ(error_position("...i...,jk", two), 4);         // two ellipses in one term
  EXPECT_EQ(error_position("...j,jk->k", {{2, 3}, {3, 4}}), 9);  // ellipsis axes with no '...' in the output
  // The message carries a caret line.
  try {
    (void)trn::tensor::parse_einsum("ij,j#->i", two);
    FAIL();
  } catch (const trn::tensor::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("'#'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("    ^"), std::string::npos) << e.what();
  }
}

TEST(EinsumApi, ReportDescribesPathLoweringAndModeledTime) {
  std::vector<float> a(6 * 5, 0.5f), b(5 * 4, 0.25f), c(4 * 3, 1.0f), out(6 * 3);
  trn::tensor::EinsumReport rep;
  trn::tensor::einsum({}, "ij,jk,kl->il", {{a.data(), {6, 5}, {}}, {b.data(), {5, 4}, {}}, {c.data(), {4, 3}, {}}},
                      {out.data(), {6, 3}, {}}, DataType::f32, ComputeType::f32, PathStrategy::optimal, &rep);
  for (float x : out) EXPECT_EQ(x, 0.5f * 0.25f * 5 * 4);
  const std::string d = rep.plan;  // EinsumPlan::print()
  EXPECT_NE(d.find("einsum plan: path [("), std::string::npos) << d;
  EXPECT_NE(d.find("largest intermediate"), std::string::npos) << d;
  EXPECT_NE(d.find("transpose-free"), std::string::npos) << d;
  const std::string all = rep.print();  // the one Report: plan, modeled time, per-engine profile
  EXPECT_EQ(all.find(d), 0U) << all;
  EXPECT_NE(all.find("trn1 x1 core(s)"), std::string::npos) << all;
  EXPECT_EQ(rep.steps.size(), 2U);
  EXPECT_GT(rep.profile.total_ns, 0.0);
}

TEST(EinsumApi, OutputShapeMismatchLeavesOutputUntouched) {
  std::vector<float> a(6, 1.0f), b(12, 1.0f), out(8, -7.0f);
  trn::tensor::View va{a.data(), {2, 3}, {}}, vb{b.data(), {3, 4}, {}};
  EXPECT_THROW(trn::tensor::einsum({}, "ij,jk->ik", {va, vb}, {out.data(), {4, 2}, {}}, DataType::f32, ComputeType::f32),
               trn::tensor::InvalidArgument);
  for (float x : out) EXPECT_EQ(x, -7.0f);
}

}  // namespace
