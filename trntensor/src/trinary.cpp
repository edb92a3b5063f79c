// Trinary contraction E = alpha A B C + beta D (cuTENSOR 2.x's cutensorCreateContractionTrinary)
// as two binary ContractionPlans: the pair of operands contracted first is the one whose order
// needs the fewest FLOPs over both steps (ties: the smaller intermediate), as an einsum path of
// three operands would choose it. The intermediate is a packed workspace tensor whose modes are
// ordered [first-only, second-only, shared] by the operands' strides, so that the first GEMM
// writes it without packing D (docs/trntensor.md, "Trinary contraction").
#include <algorithm>
#include <limits>
#include <map>
#include <sstream>

#include "trn/tensor/tensor.hpp"
#include "tensor_detail.hpp"

namespace trn::tensor {

namespace {

using detail::mode_name;

const char* const kTrinaryNames[5] = {"A", "B", "C", "D", "E"};
const char* const kTrinaryModeArgs[5] = {"modeA", "modeB", "modeC", "modeD", "modeE"};

bool has(const std::vector<std::int32_t>& m, std::int32_t l) { return std::find(m.begin(), m.end(), l) != m.end(); }

}  // namespace

TrinaryContractionPlan::TrinaryContractionPlan(const TrinarySpec& spec, const blas::Settings* model) : spec_(spec) {
  const char* where = "trinary contraction";
  TensorDesc* descs[5] = {&spec_.a, &spec_.b, &spec_.c, &spec_.d, &spec_.e};
  const std::vector<std::int32_t>* modes[5] = {&spec_.modes_a, &spec_.modes_b, &spec_.modes_c, &spec_.modes_d,
                                               &spec_.modes_e};
  std::map<std::int32_t, std::int64_t> extent;
  for (int t = 0; t < 5; ++t) {
    *descs[t] = normalized(*descs[t], kTrinaryNames[t]);
    const auto& m = *modes[t];
    if (m.size() != descs[t]->extents.size())
      throw InvalidArgument(where, kTrinaryModeArgs[t],
                            std::to_string(m.size()) + " mode labels for a descriptor of " +
                                std::to_string(descs[t]->extents.size()) + " modes");
    for (std::size_t i = 0; i < m.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j)
        if (m[i] == m[j])
          throw InvalidArgument(where, kTrinaryModeArgs[t], "mode " + mode_name(m[i]) + " appears twice in " + kTrinaryNames[t]);
      auto [it, fresh] = extent.emplace(m[i], descs[t]->extents[i]);
      if (!fresh && it->second != descs[t]->extents[i])
        throw InvalidArgument(where, kTrinaryModeArgs[t],
                              "extent " + std::to_string(descs[t]->extents[i]) + " of mode " + mode_name(m[i]) + " in " +
                                  kTrinaryNames[t] + " differs from its extent " + std::to_string(it->second) +
                                  " in another operand");
    }
    if (descs[t]->dtype != spec_.a.dtype)
      throw NotSupportedError(where, std::string("mixed data types (") + data_type_name(spec_.a.dtype) + " A, " +
                                         data_type_name(descs[t]->dtype) + " " + kTrinaryNames[t] + ")", "trntensor");
  }
  for (std::int32_t l : spec_.modes_e)
    if (!has(spec_.modes_a, l) && !has(spec_.modes_b, l) && !has(spec_.modes_c, l))
      throw InvalidArgument(where, "modeE", "mode " + mode_name(l) + " of E appears in none of A, B and C");
  if (spec_.modes_d.size() != spec_.modes_e.size())
    throw InvalidArgument(where, "modeD", "D and E must carry the same modes");
  for (std::int32_t l : spec_.modes_d)
    if (!has(spec_.modes_e, l)) throw InvalidArgument(where, "modeD", "mode " + mode_name(l) + " of D is not a mode of E");
  if (!compatible(spec_.a.dtype, spec_.compute))
    throw NotSupportedError(where, std::string("data type ") + data_type_name(spec_.a.dtype) + " with compute descriptor " +
                                       compute_type_name(spec_.compute), "trntensor");

  // The three orders: (A B) C, (A C) B, (B C) A.
  const TensorDesc* in[3] = {&spec_.a, &spec_.b, &spec_.c};
  const std::vector<std::int32_t>* im[3] = {&spec_.modes_a, &spec_.modes_b, &spec_.modes_c};
  const bool conj[3] = {spec_.conj_a, spec_.conj_b, spec_.conj_c};
  auto size_of = [&](const std::vector<std::int32_t>& labels) {
    double p = 1;
    for (std::int32_t l : labels) p *= static_cast<double>(extent.at(l));
    return p;
  };
  auto stride_of = [&](int op, std::int32_t l) {
    const auto& m = *im[op];
    return in[op]->strides[static_cast<std::size_t>(std::find(m.begin(), m.end(), l) - m.begin())];
  };
  const int orders[3][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}};
  std::vector<std::int32_t> labels[3];  // the intermediate's modes per order
  double flops[3], xsize[3];
  for (int o = 0; o < 3; ++o) {
    const int p = orders[o][0], q = orders[o][1], r = orders[o][2];
    auto kept = [&](std::int32_t l) { return has(*im[r], l) || has(spec_.modes_e, l); };
    auto by_stride = [&](int op, std::vector<std::int32_t> g) {
      std::stable_sort(g.begin(), g.end(), [&](std::int32_t x, std::int32_t y) { return stride_of(op, x) < stride_of(op, y); });
      return g;
    };
    std::vector<std::int32_t> gm, gn, gb, pq = *im[p];
    for (std::int32_t l : *im[p])
      if (kept(l)) (has(*im[q], l) ? gb : gm).push_back(l);
    for (std::int32_t l : *im[q]) {
      if (!has(pq, l)) pq.push_back(l);
      if (kept(l) && !has(*im[p], l)) gn.push_back(l);
    }
    std::vector<std::int32_t> x = by_stride(p, gm);
    for (std::int32_t l : by_stride(q, gn)) x.push_back(l);
    for (std::int32_t l : by_stride(p, gb)) x.push_back(l);
    std::vector<std::int32_t> xr = x;
    for (std::int32_t l : *im[r])
      if (!has(xr, l)) xr.push_back(l);
    flops[o] = 2 * size_of(pq) + 2 * size_of(xr);
    xsize[o] = size_of(x);
    labels[o] = std::move(x);
  }
  // The two steps of an order (their lowerings by modeled time when a model is given).
  auto build = [&](int o, const blas::Settings* lowering_model) {
    const int p = orders[o][0], q = orders[o][1], r = orders[o][2];
    TensorDesc x;
    x.dtype = spec_.a.dtype;
    for (std::int32_t l : labels[o]) x.extents.push_back(extent.at(l));
    x.strides = packed_strides(x.extents);
    ContractionSpec s1;
    s1.a = *in[p];
    s1.b = *in[q];
    s1.c = s1.d = x;
    s1.modes_a = *im[p];
    s1.modes_b = *im[q];
    s1.modes_c = s1.modes_d = labels[o];
    s1.compute = spec_.compute;
    s1.conj_a = conj[p];
    s1.conj_b = conj[q];
    ContractionSpec s2;
    s2.a = x;
    s2.b = *in[r];
    s2.c = spec_.d;
    s2.d = spec_.e;
    s2.modes_a = labels[o];
    s2.modes_b = *im[r];
    s2.modes_c = spec_.modes_d;
    s2.modes_d = spec_.modes_e;
    s2.compute = spec_.compute;
    s2.conj_b = conj[r];
    return std::pair<ContractionPlan, ContractionPlan>{ContractionPlan(s1, lowering_model), ContractionPlan(s2, lowering_model)};
  };
  int best = 0;
  for (int o = 1; o < 3; ++o)
    if (flops[o] < flops[best] || (flops[o] == flops[best] && xsize[o] < xsize[best])) best = o;
  const bool modeled = model != nullptr && spec_.compute != ComputeType::f64 && !is_complex(spec_.a.dtype);
  std::pair<ContractionPlan, ContractionPlan> steps;
  if (modeled) {
    // Modeled-time objective: each order's two steps (lowered by modeled time) estimated; the least
    // total wins, ties to the FLOP order.
    const int flop_best = best;
    double best_ns = std::numeric_limits<double>::infinity();
    for (int o = 0; o < 3; ++o) {
      auto st = build(o, model);
      const double ns = st.first.estimate(*model).total_ns + st.second.estimate(*model).total_ns;
      if (ns < best_ns || (ns == best_ns && o == flop_best)) {
        best_ns = ns;
        best = o;
        steps = std::move(st);
      }
    }
  } else {
    steps = build(best, nullptr);
  }
  pair_ = {orders[best][0], orders[best][1]};
  x_elements_ = static_cast<std::int64_t>(xsize[best]);
  first_ = std::move(steps.first);
  second_ = std::move(steps.second);
}

std::uint64_t TrinaryContractionPlan::workspace_bytes() const {
  const auto x = static_cast<std::uint64_t>(std::max<std::int64_t>(1, x_elements_)) *
                 static_cast<std::uint64_t>(data_type_size(spec_.a.dtype));
  return x + 64 + std::max(first_.workspace_bytes(), second_.workspace_bytes());
}

std::string TrinaryContractionPlan::print() const {
  static const char kName[3] = {'A', 'B', 'C'};
  std::ostringstream o;
  o << "trinary: (" << kName[pair_.first] << " " << kName[pair_.second] << ") first, intermediate " << x_elements_
    << " elements, " << flops() << " flop\n  1: " << first_.print() << "\n  2: " << second_.print();
  return o.str();
}

void TrinaryContractionPlan::execute(const blas::Settings& s, std::complex<double> alpha, const void* A, const void* B,
                                     const void* C, std::complex<double> beta, const void* D, void* E, void* workspace,
                                     std::uint64_t workspace_size, blas::CallReport* report) const {
  if (report != nullptr) *report = blas::CallReport{};
  // workspace_bytes() > 64 always, so a missing workspace is always replaced by an owned one.
  const detail::Workspace ws_owned =
      detail::plan_workspace("trinary contraction", workspace, workspace_size, workspace_bytes());
  workspace = ws_owned.data;
  workspace_size = ws_owned.bytes;
  // The intermediate first (64-byte aligned), the steps' packing buffers after it.
  auto* base = static_cast<std::byte*>(workspace);
  const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(base);
  std::byte* x = base + ((64 - addr % 64) % 64);
  const std::uint64_t x_bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(1, x_elements_)) *
                                static_cast<std::uint64_t>(data_type_size(spec_.a.dtype));
  std::byte* rest = x + x_bytes;
  const std::uint64_t rest_size = workspace_size - static_cast<std::uint64_t>(rest - base);
  const void* in[3] = {A, B, C};
  blas::CallReport r1, r2;
  first_.execute(s, 1.0, in[pair_.first], in[pair_.second], 0.0, nullptr, x, rest, rest_size, report != nullptr ? &r1 : nullptr);
  const int third = 3 - pair_.first - pair_.second;
  second_.execute(s, alpha, x, in[third], beta, D, E, rest, rest_size, report != nullptr ? &r2 : nullptr);
  if (report != nullptr) {
    report->trace = std::move(r1.trace);
    report->trace.append(r2.trace);
    report->tensor_passes = r1.tensor_passes + r2.tensor_passes;
    finish_report(*report, ReportSettings{s.target});
  }
}

}  // namespace trn::tensor
