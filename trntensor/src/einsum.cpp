// NumPy einsum on trntensor contractions: the parser (implicit / explicit output, ellipsis
// broadcasting, repeated labels as diagonal views), the path planner (opt_einsum's 'optimal'
// depth-first search and a greedy strategy, FLOPs counted as opt_einsum counts them) and the
// executor, which runs each pairwise step as a ContractionPlan (a trnblas GEMM).
//
// opt_einsum: D. G. A. Smith and J. Gray, "opt_einsum - A Python package for optimizing
// contraction order for einsum-like expressions", JOSS 3(26), 753 (2018);
// https://optimized-einsum.readthedocs.io/en/stable/path_finding.html
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <sstream>

#include "trn/tensor/tensor.hpp"
#include "tensor_detail.hpp"

namespace trn::tensor {

namespace {

constexpr int kEllipsisLabelBase = 1000;  // labels of ellipsis axes: 1000 + axis (0 = leftmost broadcast axis)

bool is_label(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

[[noreturn]] void parse_error(std::string_view subscripts, std::int64_t pos, const std::string& what) {
  std::string msg = what + " at position " + std::to_string(pos) + "\n  " + std::string(subscripts) + "\n  " +
                    std::string(static_cast<std::size_t>(std::max<std::int64_t>(0, pos)), ' ') + "^";
  throw InvalidArgument("einsum", "subscripts", msg, pos);
}

// One term: its labels (ellipsis as a marker -1) and the position of each in the string.
struct Term {
  std::vector<int> labels;          // -1 marks the ellipsis
  std::vector<std::int64_t> where;  // character position of each label
  std::int64_t begin = 0;
};

Term parse_term(std::string_view s, std::int64_t begin, std::int64_t end, bool output) {
  Term t;
  t.begin = begin;
  bool ellipsis = false;
  for (std::int64_t i = begin; i < end; ++i) {
    const char c = s[static_cast<std::size_t>(i)];
    if (c == ' ') continue;
    if (is_label(c)) {
      t.labels.push_back(c);
      t.where.push_back(i);
    } else if (c == '.') {
      if (!(i + 2 < end && s[static_cast<std::size_t>(i + 1)] == '.' && s[static_cast<std::size_t>(i + 2)] == '.'))
        parse_error(s, i, "'.' that is not part of an ellipsis '...'");
      if (ellipsis) parse_error(s, i, "second ellipsis in one term");
      ellipsis = true;
      t.labels.push_back(-1);
      t.where.push_back(i);
      i += 2;
    } else {
      parse_error(s, i, std::string("invalid character '") + c + "'" + (output ? " in the output" : ""));
    }
  }
  return t;
}


}  // namespace

EinsumExpr parse_einsum(std::string_view s, const std::vector<std::vector<std::int64_t>>& shapes) {
  // Arrow: at most one "->", no stray '-' or '>'.
  std::int64_t arrow = -1;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '-') {
      if (i + 1 >= s.size() || s[i + 1] != '>') parse_error(s, static_cast<std::int64_t>(i), "'-' not followed by '>'");
      if (arrow >= 0) parse_error(s, static_cast<std::int64_t>(i), "second '->'");
      arrow = static_cast<std::int64_t>(i);
    } else if (s[i] == '>' && (i == 0 || s[i - 1] != '-')) {
      parse_error(s, static_cast<std::int64_t>(i), "'>' without '-'");
    }
  }
  const std::int64_t lhs_end = arrow >= 0 ? arrow : static_cast<std::int64_t>(s.size());
  std::vector<Term> terms;
  std::int64_t start = 0;
  for (std::int64_t i = 0; i <= lhs_end; ++i) {
    if (i == lhs_end || s[static_cast<std::size_t>(i)] == ',') {
      if (terms.size() >= shapes.size())
        parse_error(s, i == lhs_end ? start : i,
                    "more terms than the " + std::to_string(shapes.size()) + " operands given");
      terms.push_back(parse_term(s, start, i, false));
      start = i + 1;
    }
  }
  if (terms.size() != shapes.size())
    parse_error(s, lhs_end, std::to_string(terms.size()) + " terms for " + std::to_string(shapes.size()) + " operands");

  // Ellipsis ranks and per-operand axis labels.
  std::size_t bcast = 0;
  std::vector<std::size_t> ell_rank(terms.size(), 0);
  for (std::size_t k = 0; k < terms.size(); ++k) {
    const Term& t = terms[k];
    const bool has_ell = std::find(t.labels.begin(), t.labels.end(), -1) != t.labels.end();
    const std::size_t named = t.labels.size() - (has_ell ? 1 : 0);
    const std::size_t rank = shapes[k].size();
    if (has_ell ? rank < named : rank != named)
      parse_error(s, t.begin,
                  "operand " + std::to_string(k) + " has " + std::to_string(rank) + " axes but its term names " +
                      std::to_string(named) + (has_ell ? " (plus an ellipsis)" : ""));
    ell_rank[k] = has_ell ? rank - named : 0;
    bcast = std::max(bcast, ell_rank[k]);
  }
  EinsumExpr e;
  std::map<int, std::int64_t> size;
  std::map<int, std::int64_t> first_pos;
  std::map<int, int> count;
  for (std::size_t k = 0; k < terms.size(); ++k) {
    std::vector<int> axes;
    std::size_t axis = 0;
    for (std::size_t q = 0; q < terms[k].labels.size(); ++q) {
      const int l = terms[k].labels[q];
      if (l == -1) {
        for (std::size_t j = 0; j < ell_rank[k]; ++j) axes.push_back(kEllipsisLabelBase + static_cast<int>(bcast - ell_rank[k] + j));
        axis += ell_rank[k];
        continue;
      }
      axes.push_back(l);
      ++axis;
    }
    for (std::size_t a = 0; a < axes.size(); ++a) {
      const int l = axes[a];
      const std::int64_t ext = shapes[k][a];
      if (ext < 0) parse_error(s, terms[k].begin, "operand " + std::to_string(k) + " has a negative extent");
      ++count[l];
      auto it = size.find(l);
      if (it == size.end() || it->second == 1) {
        if (it == size.end() || ext != 1) size[l] = ext;
      } else if (ext != 1 && ext != it->second) {
        // Position of the label's character in this term (ellipsis axes: the ellipsis).
        std::int64_t pos = terms[k].begin;
        for (std::size_t q = 0; q < terms[k].labels.size(); ++q)
          if (terms[k].labels[q] == l || (l >= kEllipsisLabelBase && terms[k].labels[q] == -1)) pos = terms[k].where[q];
        const std::string name = l >= kEllipsisLabelBase ? "ellipsis axis" : std::string("label '") + static_cast<char>(l) + "'";
        parse_error(s, pos,
                    name + " has extent " + std::to_string(ext) + " in operand " + std::to_string(k) + " but " +
                        std::to_string(it->second) + " elsewhere");
      }
    }
    e.inputs.push_back(std::move(axes));
  }
  if (arrow >= 0) {
    const Term out = parse_term(s, arrow + 2, static_cast<std::int64_t>(s.size()), true);
    bool has_ell = false;
    for (std::size_t q = 0; q < out.labels.size(); ++q) {
      const int l = out.labels[q];
      if (l == -1) {
        has_ell = true;
        for (std::size_t j = 0; j < bcast; ++j) e.output.push_back(kEllipsisLabelBase + static_cast<int>(j));
        continue;
      }
      if (size.find(l) == size.end())
        parse_error(s, out.where[q], std::string("output label '") + static_cast<char>(l) + "' appears in no input");
      if (std::find(e.output.begin(), e.output.end(), l) != e.output.end())
        parse_error(s, out.where[q], std::string("output label '") + static_cast<char>(l) + "' repeated");
      e.output.push_back(l);
    }
    if (!has_ell && bcast > 0)
      parse_error(s, arrow + 2, "the inputs have ellipsis axes but the output has no '...' to put them");
  } else {
    for (std::size_t j = 0; j < bcast; ++j) e.output.push_back(kEllipsisLabelBase + static_cast<int>(j));
    for (const auto& [l, c] : count)  // std::map: ascending character codes, as NumPy sorts
      if (l < kEllipsisLabelBase && c == 1) e.output.push_back(l);
  }
  for (int l : e.output) e.output_shape.push_back(size.at(l));
  e.sizes.assign(size.begin(), size.end());
  return e;
}

// ---- path planning ---------------------------------------------------------------------------------

std::string PathInfo::path_string() const {
  std::ostringstream o;
  o << "[";
  for (std::size_t i = 0; i < path.size(); ++i) o << (i ? ", " : "") << "(" << path[i].first << ", " << path[i].second << ")";
  o << "]";
  return o.str();
}

namespace {

// Index sets as 128-bit masks over dense label numbers.
struct Mask {
  std::array<std::uint64_t, 2> w{};
  void set(int i) { w[static_cast<std::size_t>(i >> 6)] |= std::uint64_t{1} << (i & 63); }
  bool test(int i) const { return (w[static_cast<std::size_t>(i >> 6)] >> (i & 63)) & 1U; }
  Mask operator|(const Mask& o) const { return {{w[0] | o.w[0], w[1] | o.w[1]}}; }
  Mask operator&(const Mask& o) const { return {{w[0] & o.w[0], w[1] & o.w[1]}}; }
  Mask minus(const Mask& o) const { return {{w[0] & ~o.w[0], w[1] & ~o.w[1]}}; }
  bool any() const { return (w[0] | w[1]) != 0; }
  int count() const { return std::popcount(w[0]) + std::popcount(w[1]); }
  bool operator==(const Mask& o) const { return w == o.w; }
};

// Modeled device time (ns) of a batched GEMM m x n x k as the transpose-free contraction of packed
// operands A[m, k, batch], B[k, n, batch] -> D[m, n, batch] (ContractionPlan::estimate: a
// timing-only run of the same kernels). Beyond kModelCap per dimension and kModelBatchCap batch
// entries the estimate of the capped shape is scaled by the ratio of 128-wide tile counts
// (batch: of entries), so that planning never records a huge trace.
double modeled_gemm_ns(const PathModel& pm, std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch) {
  constexpr std::int64_t kModelCap = 1024, kModelBatchCap = 4, kTile = 128;
  const std::int64_t cm = std::min(m, kModelCap), cn = std::min(n, kModelCap), ck = std::min(k, kModelCap),
                     cb = std::min(batch, kModelBatchCap);
  auto tiles = [](std::int64_t x) { return static_cast<double>((x + kTile - 1) / kTile); };
  const double scale = tiles(m) / tiles(cm) * tiles(n) / tiles(cn) * tiles(k) / tiles(ck) *
                       static_cast<double>(batch) / static_cast<double>(cb);
  ContractionSpec cs;
  cs.a = {{cm, ck, cb}, {}, DataType::f32};
  cs.b = {{ck, cn, cb}, {}, DataType::f32};
  cs.c = cs.d = {{cm, cn, cb}, {}, DataType::f32};
  cs.modes_a = {'m', 'k', 'b'};
  cs.modes_b = {'k', 'n', 'b'};
  cs.modes_c = cs.modes_d = {'m', 'n', 'b'};
  // 64F (Ozaki, slice counts depend on the data) and complex compute are priced as 32F.
  cs.compute = pm.compute == ComputeType::f64 ? ComputeType::f32 : pm.compute;
  return ContractionPlan(cs).estimate(pm.settings).total_ns * scale;
}

struct Planner {
  std::vector<double> dim;  // size per dense label
  Mask output;
  PathObjective objective = PathObjective::flops;
  const PathModel* model = nullptr;
  mutable std::map<std::array<std::int64_t, 4>, double> gemm_cache;  // (m, n, k, batch) -> modeled ns
  double size(const Mask& m) const {
    double p = 1;
    for (std::size_t i = 0; i < dim.size(); ++i)
      if (m.test(static_cast<int>(i))) p *= dim[i];
    return p;
  }
  // opt_einsum flop_count for a pairwise step: size(union) * (1 + inner).
  double step_cost(const Mask& a, const Mask& b, const Mask& keep, Mask* result) const {
    const Mask either = a | b;
    *result = either & keep;
    const bool inner = either.minus(keep).any();
    return size(either) * (inner ? 2.0 : 1.0);
  }
  // Modeled device time of a pairwise step: its GEMM shape (kept indices of a only: m, of b only:
  // n, shared kept: batch; summed: k), priced by modeled_gemm_ns and cached per shape.
  double step_ns(const Mask& a, const Mask& b, const Mask& keep) const {
    auto extent = [&](const Mask& m) { return static_cast<std::int64_t>(size(m)); };
    const std::array<std::int64_t, 4> shape = {extent(a.minus(b) & keep), extent(b.minus(a) & keep),
                                               extent((a | b).minus(keep)), extent(a & b & keep)};
    auto it = gemm_cache.find(shape);
    if (it != gemm_cache.end()) return it->second;
    const double ns = modeled_gemm_ns(*model, shape[0], shape[1], shape[2], shape[3]);
    gemm_cache.emplace(shape, ns);
    return ns;
  }
  // The objective's cost of a step (FLOPs or modeled ns); *result as step_cost.
  double cost(const Mask& a, const Mask& b, const Mask& keep, Mask* result) const {
    const double f = step_cost(a, b, keep, result);
    return objective == PathObjective::flops ? f : step_ns(a, b, keep);
  }
};

// SSA path (ids of inputs / intermediates) to opt_einsum's linear path.
std::vector<std::pair<int, int>> ssa_to_linear(const std::vector<std::pair<int, int>>& ssa) {
  int maxid = 0;
  for (auto [a, b] : ssa) maxid = std::max({maxid, a, b});
  std::vector<int> ids(static_cast<std::size_t>(maxid + 1));
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>(i);
  std::vector<std::pair<int, int>> out;
  for (auto [a, b] : ssa) {
    out.emplace_back(ids[static_cast<std::size_t>(a)], ids[static_cast<std::size_t>(b)]);
    for (int x : {a, b})
      for (std::size_t q = static_cast<std::size_t>(x); q < ids.size(); ++q) --ids[q];
  }
  return out;
}

Mask keep_mask(const std::vector<Mask>& ops, const std::vector<int>& remaining, int i, int j, const Mask& output) {
  Mask keep = output;
  for (int r : remaining)
    if (r != i && r != j) keep = keep | ops[static_cast<std::size_t>(r)];
  return keep;
}

// opt_einsum 'optimal': depth-first over every pair of the remaining operands (ascending ids),
// pruning branches whose FLOPs exceed the best complete path found so far. Among paths of equal
// FLOPs the one whose sequence of step costs is lexicographically smallest wins (the cheaper
// contraction first): a deterministic rule that does not depend on hash-set iteration order.
std::vector<std::pair<int, int>> optimal_ssa(const Planner& pl, std::vector<Mask> ops) {
  double best = std::numeric_limits<double>::infinity();
  std::vector<std::pair<int, int>> best_path, path;
  std::vector<double> best_steps, steps;
  std::vector<int> remaining(ops.size());
  for (std::size_t i = 0; i < ops.size(); ++i) remaining[i] = static_cast<int>(i);
  std::function<void(double)> rec = [&](double flops) {
    if (remaining.size() == 1) {
      if (flops < best ||
          (flops == best && std::lexicographical_compare(steps.begin(), steps.end(), best_steps.begin(), best_steps.end()))) {
        best = flops;
        best_path = path;
        best_steps = steps;
      }
      return;
    }
    const std::vector<int> rem = remaining;
    for (std::size_t x = 0; x < rem.size(); ++x)
      for (std::size_t y = x + 1; y < rem.size(); ++y) {
        const int i = rem[x], j = rem[y];
        Mask k12;
        const double c = pl.cost(ops[static_cast<std::size_t>(i)], ops[static_cast<std::size_t>(j)],
                                      keep_mask(ops, rem, i, j, pl.output), &k12);
        if (flops + c > best) continue;
        const int id = static_cast<int>(ops.size());
        ops.push_back(k12);
        remaining.clear();
        for (int r : rem)
          if (r != i && r != j) remaining.push_back(r);
        remaining.push_back(id);
        path.emplace_back(i, j);
        steps.push_back(c);
        rec(flops + c);
        steps.pop_back();
        path.pop_back();
        ops.pop_back();
        remaining = rem;
      }
  };
  rec(0.0);
  return best_path;
}

// Greedy: among pairs that share an index (all pairs when none does), contract the one that
// removes the most elements, size(result) - size(a) - size(b) (opt_einsum's greedy cost), ties by
// FLOPs then by position.
std::vector<std::pair<int, int>> greedy_ssa(const Planner& pl, std::vector<Mask> ops) {
  std::vector<int> remaining(ops.size());
  for (std::size_t i = 0; i < ops.size(); ++i) remaining[i] = static_cast<int>(i);
  std::vector<std::pair<int, int>> path;
  while (remaining.size() > 1) {
    bool any_shared = false;
    for (std::size_t x = 0; x < remaining.size() && !any_shared; ++x)
      for (std::size_t y = x + 1; y < remaining.size(); ++y)
        if ((ops[static_cast<std::size_t>(remaining[x])] & ops[static_cast<std::size_t>(remaining[y])]).any()) any_shared = true;
    double best_cost = std::numeric_limits<double>::infinity(), best_flops = best_cost;
    int bi = -1, bj = -1;
    Mask best_k;
    for (std::size_t x = 0; x < remaining.size(); ++x)
      for (std::size_t y = x + 1; y < remaining.size(); ++y) {
        const int i = remaining[x], j = remaining[y];
        const Mask& a = ops[static_cast<std::size_t>(i)];
        const Mask& b = ops[static_cast<std::size_t>(j)];
        if (any_shared && !(a & b).any()) continue;
        Mask k12;
        const double f = pl.step_cost(a, b, keep_mask(ops, remaining, i, j, pl.output), &k12);
        const double c = pl.size(k12) - pl.size(a) - pl.size(b);
        if (c < best_cost || (c == best_cost && f < best_flops)) {
          best_cost = c;
          best_flops = f;
          bi = i;
          bj = j;
          best_k = k12;
        }
      }
    path.emplace_back(bi, bj);
    const int id = static_cast<int>(ops.size());
    ops.push_back(best_k);
    std::vector<int> next;
    for (int r : remaining)
      if (r != bi && r != bj) next.push_back(r);
    next.push_back(id);
    remaining = std::move(next);
  }
  return path;
}

// Dynamic programming over subsets of operands (the exact minimum of the summed step FLOPs, as
// opt_einsum's 'dynamic-programming'): the indices an intermediate keeps depend only on which
// inputs it covers, so cost[S] = min over splits S = A | B of cost[A] + cost[B] + step(A, B).
// O(3^n) time, n <= 16.
std::vector<std::pair<int, int>> dp_ssa(const Planner& pl, const std::vector<Mask>& ops) {
  const int n = static_cast<int>(ops.size());
  const std::uint32_t full = (std::uint32_t{1} << n) - 1;
  std::vector<Mask> idx(full + 1);
  std::vector<double> cost(full + 1, std::numeric_limits<double>::infinity());
  std::vector<std::uint32_t> split(full + 1, 0);
  auto union_of = [&](std::uint32_t set) {
    Mask m;
    for (int i = 0; i < n; ++i)
      if (set >> i & 1U) m = m | ops[static_cast<std::size_t>(i)];
    return m;
  };
  for (std::uint32_t set = 1; set <= full; ++set) {
    const Mask keep = pl.output | union_of(full & ~set);
    if ((set & (set - 1)) == 0) {  // an input keeps all its indices until it is contracted
      idx[set] = union_of(set);
      cost[set] = 0;
      continue;
    }
    idx[set] = union_of(set) & keep;
    const std::uint32_t low = set & (~set + 1);
    for (std::uint32_t a = (set - 1) & set; a > 0; a = (a - 1) & set) {
      if ((a & low) == 0) continue;  // each split once: A holds the lowest operand
      const std::uint32_t b = set & ~a;
      if (cost[a] + cost[b] >= cost[set]) continue;
      Mask k12;
      const double c = cost[a] + cost[b] + pl.cost(idx[a], idx[b], keep, &k12);
      if (c < cost[set]) {
        cost[set] = c;
        split[set] = a;
      }
    }
  }
  std::vector<std::pair<int, int>> ssa;
  int next = n;
  std::function<int(std::uint32_t)> build = [&](std::uint32_t set) -> int {
    if ((set & (set - 1)) == 0) return std::countr_zero(set);
    const int x = build(split[set]), y = build(set & ~split[set]);
    ssa.emplace_back(std::min(x, y), std::max(x, y));
    return next++;
  };
  build(full);
  return ssa;
}

}  // namespace

PathInfo plan_path(const PathProblem& p, PathStrategy strategy, PathObjective objective, const PathModel* model) {
  std::map<int, int> dense;
  Planner pl;
  const PathModel default_model;
  pl.objective = objective;
  pl.model = model != nullptr ? model : &default_model;
  for (const auto& [label, ext] : p.sizes) {
    if (dense.count(label)) continue;
    if (dense.size() >= 128) throw InvalidArgument("einsum path", "labels", "more than 128 distinct labels");
    dense[label] = static_cast<int>(pl.dim.size());
    pl.dim.push_back(static_cast<double>(ext));
  }
  auto mask_of = [&](const std::vector<int>& labels) {
    Mask m;
    for (int l : labels) {
      auto it = dense.find(l);
      if (it == dense.end()) throw InvalidArgument("einsum path", "labels", "label " + detail::mode_name(l) + " has no size");
      m.set(it->second);
    }
    return m;
  };
  std::vector<Mask> ops;
  Mask all;
  double sum_len = 0;
  for (const auto& in : p.inputs) {
    ops.push_back(mask_of(in));
    all = all | ops.back();
    sum_len += ops.back().count();
  }
  pl.output = mask_of(p.output);
  all = all | pl.output;
  PathInfo info;
  const std::size_t n = ops.size();
  const bool inner = sum_len - all.count() > 0;
  info.naive_flops = pl.size(all) * (std::max<double>(1.0, static_cast<double>(n) - 1.0) + (inner ? 1.0 : 0.0));
  info.naive_scaling = all.count();
  if (n <= 1) {
    info.optimized_flops = info.naive_flops;
    info.optimized_scaling = info.naive_scaling;
    info.largest_intermediate = pl.size(pl.output);
    return info;
  }
  const bool use_optimal = strategy == PathStrategy::optimal || (strategy == PathStrategy::automatic && n <= 8);
  const bool use_dp = strategy == PathStrategy::dynamic_programming || (strategy == PathStrategy::automatic && n > 8 && n <= 14);
  if (strategy == PathStrategy::optimal && n > 8)
    throw InvalidArgument("einsum path", "strategy", "optimal search is limited to 8 operands (" + std::to_string(n) + " given)");
  if (strategy == PathStrategy::dynamic_programming && n > 16)
    throw InvalidArgument("einsum path", "strategy", "dynamic programming is limited to 16 operands (" + std::to_string(n) + " given)");
  const auto ssa = use_optimal ? optimal_ssa(pl, ops) : use_dp ? dp_ssa(pl, ops) : greedy_ssa(pl, ops);
  // FLOPs, scaling and largest intermediate of the chosen path, counted as opt_einsum's contract_path does.
  std::vector<int> remaining(n);
  for (std::size_t i = 0; i < n; ++i) remaining[i] = static_cast<int>(i);
  for (auto [i, j] : ssa) {
    Mask k12;
    const Mask keep = keep_mask(ops, remaining, i, j, pl.output);
    info.optimized_flops += pl.step_cost(ops[static_cast<std::size_t>(i)], ops[static_cast<std::size_t>(j)], keep, &k12);
    if (model != nullptr || objective == PathObjective::modeled_time)
      info.modeled_ns += pl.step_ns(ops[static_cast<std::size_t>(i)], ops[static_cast<std::size_t>(j)], keep);
    info.optimized_scaling = std::max(info.optimized_scaling, (ops[static_cast<std::size_t>(i)] | ops[static_cast<std::size_t>(j)]).count());
    info.largest_intermediate = std::max(info.largest_intermediate, pl.size(k12));
    const int id = static_cast<int>(ops.size());
    ops.push_back(k12);
    std::vector<int> next;
    for (int r : remaining)
      if (r != i && r != j) next.push_back(r);
    next.push_back(id);
    remaining = std::move(next);
  }
  info.path = ssa_to_linear(ssa);
  return info;
}

// ---- execution -------------------------------------------------------------------------------------

std::string EinsumPlan::print() const {
  std::ostringstream o;
  o << "einsum plan: path " << path.path_string() << "; naive " << path.naive_flops << " FLOPs (scaling "
    << path.naive_scaling << ") -> optimised " << path.optimized_flops << " (scaling " << path.optimized_scaling
    << "); largest intermediate " << path.largest_intermediate << " elements";
  if (predicted_ns >= 0)
    o << "; predicted " << predicted_ns * 1e-3 << " us (each step's GEMM on packed operands as the path planner prices "
      << "it, ContractionPlan::estimate)";
  for (const std::string& st : steps) o << "\n  " << st;
  return o.str();
}
static_assert(trn::Plan<EinsumPlan>);

namespace {

// An operand during execution: unique labels with extents and strides (elements).
struct Operand {
  const void* data = nullptr;
  std::vector<int> labels;
  std::vector<std::int64_t> extents, strides;
  std::size_t buffer = static_cast<std::size_t>(-1);  // index of the owned intermediate buffer, if any
};

std::vector<std::int64_t> c_contiguous(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> st(shape.size());
  std::int64_t acc = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    st[i] = acc;
    acc *= std::max<std::int64_t>(1, shape[i]);
  }
  return st;
}

// The argument checks of einsum: data and compute types, each view's data and stride count, the
// output view's shape.
void check_einsum_views(const EinsumExpr& e, const std::vector<View>& inputs, const MutableView& out, DataType dtype,
                        ComputeType compute) {
  if (!compatible(dtype, compute))
    throw NotSupportedError("einsum", std::string("data type ") + data_type_name(dtype) + " with compute " + compute_type_name(compute), "trntensor");
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k].data == nullptr) throw InvalidArgument("einsum", "inputs", "operand " + std::to_string(k) + " has no data");
    if (!inputs[k].strides.empty() && inputs[k].strides.size() != inputs[k].shape.size())
      throw InvalidArgument("einsum", "inputs", "operand " + std::to_string(k) + ": stride count differs from its rank");
  }
  if (out.data == nullptr) throw InvalidArgument("einsum", "output", "no data");
  if (out.shape != e.output_shape) {
    std::string want;
    for (std::int64_t x : e.output_shape) want += (want.empty() ? "" : ", ") + std::to_string(x);
    throw InvalidArgument("einsum", "output", "output view's shape differs from the result's (" + want + ")");
  }
  if (!out.strides.empty() && out.strides.size() != out.shape.size())
    throw InvalidArgument("einsum", "output", "stride count differs from its rank");
}

}  // namespace

void einsum(const blas::Settings& s, std::string_view subscripts, const std::vector<View>& inputs,
            const MutableView& out, DataType dtype, ComputeType compute, PathStrategy strategy, EinsumReport* report,
            PathObjective objective) {
  if (report != nullptr) *report = EinsumReport{};
  std::vector<std::vector<std::int64_t>> shapes;
  for (const View& v : inputs) shapes.push_back(v.shape);
  const EinsumExpr e = parse_einsum(subscripts, shapes);
  check_einsum_views(e, inputs, out, dtype, compute);
  std::map<int, std::int64_t> size(e.sizes.begin(), e.sizes.end());

  // Operands as unique-label views: a repeated label is the diagonal (strides summed); an axis of
  // extent 1 against a larger extent broadcasts (stride 0).
  std::vector<Operand> ops;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const auto st = inputs[k].strides.empty() ? c_contiguous(inputs[k].shape) : inputs[k].strides;
    Operand o;
    o.data = inputs[k].data;
    for (std::size_t a = 0; a < e.inputs[k].size(); ++a) {
      const int l = e.inputs[k][a];
      const std::int64_t ext = inputs[k].shape[a];
      const std::int64_t stride = (ext == 1 && size.at(l) != 1) ? 0 : st[a];
      auto it = std::find(o.labels.begin(), o.labels.end(), l);
      if (it != o.labels.end()) {
        o.strides[static_cast<std::size_t>(it - o.labels.begin())] += stride;
        continue;
      }
      o.labels.push_back(l);
      o.extents.push_back(size.at(l));
      o.strides.push_back(stride);
    }
    ops.push_back(std::move(o));
  }
  PathProblem pp;
  for (const Operand& o : ops) pp.inputs.push_back(o.labels);
  pp.output = e.output;
  pp.sizes = e.sizes;
  const bool modeled = objective == PathObjective::modeled_time;
  const PathModel pm{s, compute};
  // The plan's predicted time: the steps' GEMMs as the path planner prices them (PathInfo::modeled_ns;
  // with the flops objective the model prices the chosen path only). Stated for real fp32-family
  // compute: 64F (Ozaki) and complex steps are priced as 32F, which is no prediction of theirs.
  const bool predict = report != nullptr && compute != ComputeType::f64 && !is_complex(dtype);
  PathInfo info = plan_path(pp, strategy, objective, modeled || predict ? &pm : nullptr);
  // Lowerings by modeled time too, where a timing-only estimate exists (fp32-family, real data).
  const bool model_lowering = modeled && compute != ComputeType::f64 && !is_complex(dtype);

  const auto out_strides = out.strides.empty() ? c_contiguous(out.shape) : out.strides;
  const int es = data_type_size(dtype);
  std::vector<ScratchVector<std::byte>> buffers;  // intermediates (traced): scratch-stack blocks
  std::int64_t tensor_passes = 0;  // of every step
  Trace trace;
  const double one_f64 = 1.0;
  const float one_f32 = 1.0f;
  const std::complex<double> one_c64(1.0, 0.0);
  const std::complex<float> one_c32(1.0f, 0.0f);
  auto run = [&](const Operand& a, const Operand& b, const std::vector<int>& dl, const std::vector<std::int64_t>& dst,
                 void* dptr) {
    ContractionSpec cs;
    cs.a = {a.extents, a.strides, dtype};
    cs.b = {b.extents, b.strides, dtype};
    std::vector<std::int64_t> dext;
    for (int l : dl) dext.push_back(size.at(l));
    cs.d = {dext, dst, dtype};
    cs.c = cs.d;
    cs.modes_a.assign(a.labels.begin(), a.labels.end());
    cs.modes_b.assign(b.labels.begin(), b.labels.end());
    cs.modes_d.assign(dl.begin(), dl.end());
    cs.modes_c = cs.modes_d;
    cs.compute = compute;
    ContractionPlan plan(cs, model_lowering ? &s : nullptr);
    blas::CallReport r;
    plan.execute(s, 1.0, a.data, b.data, 0.0, dptr, dptr, nullptr, 0, report != nullptr ? &r : nullptr);
    if (report != nullptr) {
      report->steps.push_back(plan.print(&r.profile));
      trace.append(r.trace);
      tensor_passes += r.tensor_passes;
    }
  };
  if (ops.size() == 1) {
    Operand one;
    one.data = dtype == DataType::f64   ? static_cast<const void*>(&one_f64)
               : dtype == DataType::c64 ? static_cast<const void*>(&one_c64)
               : dtype == DataType::c32 ? static_cast<const void*>(&one_c32)
                                        : static_cast<const void*>(&one_f32);
    run(ops[0], one, e.output, out_strides, out.data);
  }
  for (std::size_t step = 0; step < info.path.size(); ++step) {
    const auto [i, j] = info.path[step];
    const Operand a = ops[static_cast<std::size_t>(i)], b = ops[static_cast<std::size_t>(j)];
    ops.erase(ops.begin() + j);
    ops.erase(ops.begin() + i);
    if (ops.empty()) {
      run(a, b, e.output, out_strides, out.data);
      break;
    }
    // Kept labels: in the output or in another operand; ordered A-only, B-only, shared (the GEMM's
    // M, N and batch groups, so that the packed result is D as the GEMM writes it).
    auto needed = [&](int l) {
      if (std::find(e.output.begin(), e.output.end(), l) != e.output.end()) return true;
      for (const Operand& o : ops)
        if (std::find(o.labels.begin(), o.labels.end(), l) != o.labels.end()) return true;
      return false;
    };
    auto in = [](const Operand& o, int l) { return std::find(o.labels.begin(), o.labels.end(), l) != o.labels.end(); };
    // Within each group the labels follow the operand's strides (fastest first), so that the
    // packed result's M and N groups collapse exactly as the operand's do (no TTGT for D).
    auto by_stride = [](const Operand& o, std::vector<int> g) {
      auto stride = [&](int l) { return o.strides[static_cast<std::size_t>(std::find(o.labels.begin(), o.labels.end(), l) - o.labels.begin())]; };
      std::stable_sort(g.begin(), g.end(), [&](int x, int y) { return stride(x) < stride(y); });
      return g;
    };
    std::vector<int> gm, gn, gb;
    for (int l : a.labels)
      if (needed(l) && !in(b, l)) gm.push_back(l);
    for (int l : b.labels)
      if (needed(l) && !in(a, l)) gn.push_back(l);
    for (int l : a.labels)
      if (needed(l) && in(b, l)) gb.push_back(l);
    std::vector<int> dl = by_stride(a, gm);
    for (int l : by_stride(b, gn)) dl.push_back(l);
    for (int l : by_stride(a, gb)) dl.push_back(l);
    Operand r;
    r.labels = dl;
    for (int l : dl) r.extents.push_back(size.at(l));
    r.strides = packed_strides(r.extents);
    std::int64_t elems = 1;
    for (std::int64_t x : r.extents) elems *= x;
    buffers.emplace_back(static_cast<std::size_t>(std::max<std::int64_t>(1, elems) * es));
    r.data = buffers.back().data();
    run(a, b, dl, r.strides, buffers.back().data());
    ops.push_back(std::move(r));
  }
  if (report != nullptr) {
    report->path = info;
    report->tensor_passes = tensor_passes;
    finish_report(*report, std::move(trace), ReportSettings{s.target});
    report->add_plan(EinsumPlan{info, report->steps, predict && !info.path.empty() ? info.modeled_ns : -1.0});
  }
}

}  // namespace trn::tensor
