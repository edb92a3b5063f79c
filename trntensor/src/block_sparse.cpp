// Block-sparse tensor contraction (cuTENSOR 2.x's cutensorCreateBlockSparseContraction): every stored
// block of D is computed from the stored (A block, B block) pairs that reach it, each pair one dense
// contraction on trntensor's machinery (ContractionPlan: transpose-free or TTGT, trnblas tile GEMMs).
// docs/trntensor.md, "Block-sparse contraction".
#include <algorithm>
#include <map>
#include <sstream>

#include "tensor_detail.hpp"
#include "trn/core/c_shim.hpp"
#include "trn/tensor/tensor.hpp"

namespace trn::tensor {

TensorDesc block_desc(const BlockSparseTensor& t, std::size_t b) {
  TensorDesc d;
  d.dtype = t.dtype;
  const auto& coords = t.blocks.at(b);
  if (coords.size() != t.sections.size()) throw InvalidArgument("block-sparse tensor", "nonZeroCoordinates", "wrong coordinate count");
  for (std::size_t i = 0; i < coords.size(); ++i) {
    if (coords[i] < 0 || static_cast<std::size_t>(coords[i]) >= t.sections[i].size())
      throw InvalidArgument("block-sparse tensor", "nonZeroCoordinates",
                            "block " + std::to_string(b) + " has section " + std::to_string(coords[i]) + " in mode " +
                                std::to_string(i) + " of " + std::to_string(t.sections[i].size()));
    d.extents.push_back(t.sections[i][static_cast<std::size_t>(coords[i])]);
  }
  if (!t.strides.empty()) d.strides = t.strides.at(b);
  return normalized(d, "block");
}

namespace {

constexpr const char* kWhere = "block-sparse contraction";

// The section coordinate of `label` in block `b` of an operand, or -1 when the operand lacks the mode.
std::int32_t coord_of(const BlockSparseTensor& t, const std::vector<std::int32_t>& modes, std::size_t b,
                      std::int32_t label) {
  for (std::size_t i = 0; i < modes.size(); ++i)
    if (modes[i] == label) return t.blocks[b][i];
  return -1;
}

// Every mode's sections agree across the operands that carry it; C and D store the same blocks.
void check_sections(const BlockSparseSpec& s) {
  const BlockSparseTensor* ts[4] = {&s.a, &s.b, &s.c, &s.d};
  const std::vector<std::int32_t>* ms[4] = {&s.modes_a, &s.modes_b, &s.modes_c, &s.modes_d};
  const char* names[4] = {"modeA", "modeB", "modeC", "modeD"};
  std::map<std::int32_t, const std::vector<std::int64_t>*> seen;
  for (int t = 0; t < 4; ++t) {
    if (ms[t]->size() != ts[t]->sections.size()) throw InvalidArgument(kWhere, names[t], "mode count differs from the descriptor's");
    if (ts[t]->dtype != s.a.dtype) throw InvalidArgument(kWhere, names[t], "data types of the operands differ");
    for (std::size_t i = 0; i < ms[t]->size(); ++i) {
      const auto [it, fresh] = seen.emplace((*ms[t])[i], &ts[t]->sections[i]);
      if (!fresh && *it->second != ts[t]->sections[i])
        throw InvalidArgument(kWhere, names[t], "sections of mode " + detail::mode_name((*ms[t])[i]) + " differ between operands");
    }
  }
  if (s.modes_c != s.modes_d) throw InvalidArgument(kWhere, "modeC", "C and D must carry the same modes in the same order");
  if (s.c.blocks != s.d.blocks) throw InvalidArgument(kWhere, "descC", "C and D must store the same blocks");
}

// True when blocks (a of A, b of B) agree with each other on their shared modes and with block d of D.
bool reaches(const BlockSparseSpec& s, std::size_t a, std::size_t b, std::size_t d) {
  for (std::size_t i = 0; i < s.modes_a.size(); ++i) {
    const std::int32_t l = s.modes_a[i], ca = s.a.blocks[a][i];
    const std::int32_t cb = coord_of(s.b, s.modes_b, b, l), cd = coord_of(s.d, s.modes_d, d, l);
    if ((cb >= 0 && cb != ca) || (cd >= 0 && cd != ca)) return false;
  }
  for (std::size_t i = 0; i < s.modes_b.size(); ++i) {
    const std::int32_t cd = coord_of(s.d, s.modes_d, d, s.modes_b[i]);
    if (cd >= 0 && cd != s.b.blocks[b][i]) return false;
  }
  return true;
}

}  // namespace

std::size_t BlockSparseContractionPlan::plan_for(const ContractionSpec& cs) {
  for (std::size_t i = 0; i < plans_.size(); ++i) {
    const ContractionSpec& p = plans_[i].spec();
    if (p.a.extents == cs.a.extents && p.a.strides == cs.a.strides && p.b.extents == cs.b.extents &&
        p.b.strides == cs.b.strides && p.c.strides == cs.c.strides && p.d.extents == cs.d.extents &&
        p.d.strides == cs.d.strides && p.modes_a == cs.modes_a && p.modes_b == cs.modes_b)
      return i;
  }
  plans_.emplace_back(cs);  // validates each block's dense contraction (names the mode)
  return plans_.size() - 1;
}

BlockSparseContractionPlan::BlockSparseContractionPlan(const BlockSparseSpec& spec) : spec_(spec) {
  check_sections(spec_);
  if (spec_.d.blocks.empty()) return;
  const std::size_t na = spec_.a.blocks.size(), nb = spec_.b.blocks.size();
  for (std::size_t d = 0; d < spec_.d.blocks.size(); ++d) {
    Target t;
    t.d = d;
    const TensorDesc dd = block_desc(spec_.d, d), cd = block_desc(spec_.c, d);
    for (std::size_t a = 0; a < na; ++a)
      for (std::size_t b = 0; b < nb; ++b) {
        if (!reaches(spec_, a, b, d)) continue;
        ContractionSpec cs;
        cs.a = block_desc(spec_.a, a);
        cs.b = block_desc(spec_.b, b);
        cs.c = t.products.empty() ? cd : dd;  // the first pair takes beta C, the others accumulate into D
        cs.d = dd;
        cs.modes_a = spec_.modes_a;
        cs.modes_b = spec_.modes_b;
        cs.modes_c = cs.modes_d = spec_.modes_d;
        cs.compute = spec_.compute;
        cs.conj_a = spec_.conj_a;
        cs.conj_b = spec_.conj_b;
        t.products.push_back({a, b, plan_for(cs)});
      }
    if (t.products.empty()) {  // D = beta C: C's block against a scalar 1
      ContractionSpec cs;
      cs.a = cd;
      cs.b = {{}, {}, spec_.d.dtype};
      cs.c = cs.d = dd;
      cs.modes_a = cs.modes_c = cs.modes_d = spec_.modes_d;
      cs.compute = spec_.compute;
      t.scale = plan_for(cs);
    }
    targets_.push_back(std::move(t));
  }
}

std::size_t BlockSparseContractionPlan::block_products() const {
  std::size_t n = 0;
  for (const Target& t : targets_) n += t.products.size();
  return n;
}

double BlockSparseContractionPlan::flops() const {
  double f = 0;
  for (const Target& t : targets_)
    for (const Product& p : t.products) f += plans_[p.plan].flops();
  return f;
}

double BlockSparseContractionPlan::moved_bytes() const {
  double b = 0;
  for (const Target& t : targets_)
    for (const Product& p : t.products) {
      const ContractionPlan& q = plans_[p.plan];
      b += static_cast<double>(q.m() * q.k() + q.k() * q.n() + q.m() * q.n()) * static_cast<double>(q.batch());
    }
  return b * data_type_size(spec_.a.dtype);
}

std::uint64_t BlockSparseContractionPlan::workspace_bytes() const {
  std::uint64_t w = 0;
  for (const ContractionPlan& p : plans_) w = std::max(w, p.workspace_bytes());
  return w;
}

std::string BlockSparseContractionPlan::print() const {
  std::ostringstream os;
  os << "block-sparse contraction: " << spec_.d.blocks.size() << " blocks of D, " << block_products()
     << " block contractions, " << plans_.size() << " distinct block plans, " << flops() << " flop";
  for (const ContractionPlan& p : plans_) os << "\n  " << p.print();
  return os.str();
}

namespace {
const float kOneF = 1.0f;
const double kOneD = 1.0;
const std::uint16_t kOneBF16 = 0x3F80, kOneF16 = 0x3C00;  // 1.0 in bfloat16 and binary16
const std::complex<float> kOneC(1.0f, 0.0f);
const std::complex<double> kOneZ(1.0, 0.0), kZeroZ(0.0, 0.0);
}  // namespace

const void* one_of(DataType t) {
  switch (t) {
    case DataType::f64: return &kOneD;
    case DataType::c32: return &kOneC;
    case DataType::c64: return &kOneZ;
    case DataType::bf16: return &kOneBF16;
    case DataType::f16: return &kOneF16;
    case DataType::f32: break;
  }
  return &kOneF;
}

void BlockSparseContractionPlan::execute(const blas::Settings& s, std::complex<double> alpha, const void* const* A,
                                         const void* const* B, std::complex<double> beta, const void* const* C,
                                         void* const* D, void* workspace, std::uint64_t workspace_size,
                                         blas::CallReport* report) const {
  if (report != nullptr) *report = blas::CallReport{};
  const detail::Workspace ws = detail::plan_workspace(kWhere, workspace, workspace_size, workspace_bytes());
  Trace trace;
  std::int64_t passes = 0;
  auto add = [&](const blas::CallReport& r) {
    trace.append(r.trace);
    passes += r.tensor_passes;
  };
  for (const Target& t : targets_) {
    blas::CallReport r;
    const void* c_block = C != nullptr ? C[t.d] : nullptr;  // C may be NULL when beta == 0
    if (t.products.empty() && beta != 0.0) {
      plans_[t.scale].execute(s, beta, c_block, one_of(spec_.d.dtype), 0.0, nullptr, D[t.d], ws.data, ws.bytes, &r);
      add(r);
    } else if (t.products.empty()) {  // zeros: a DMA broadcast of one zero element (no arithmetic)
      const TensorDesc dd = block_desc(spec_.d, t.d);
      std::vector<detail::CopyDim> dims;
      for (std::size_t i = 0; i < dd.extents.size(); ++i) dims.push_back({dd.extents[i], 0, dd.strides[i]});
      detail::dma_copy_strided(s, spec_.d.dtype, &kZeroZ, D[t.d], std::move(dims), &trace);
    }
    for (std::size_t i = 0; i < t.products.size(); ++i) {
      const Product& p = t.products[i];
      const bool first = i == 0;
      plans_[p.plan].execute(s, alpha, A[p.a], B[p.b], first ? beta : 1.0, first ? c_block : D[t.d], D[t.d], ws.data,
                             ws.bytes, &r);
      add(r);
    }
  }
  if (report != nullptr) {
    report->trace = std::move(trace);
    report->tensor_passes = passes;
    finish_report(*report, ReportSettings{s.target});
  }
}

}  // namespace trn::tensor
