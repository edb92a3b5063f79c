// Contraction planning and execution: modes are classified into batch / M / N / K groups, each
// group's modes are ordered so that they collapse into one stride where the operands allow it
// (TBLIS, Matthews, SISC 2018, arXiv:1607.00291: "no explicit transposition"), and the contraction
// becomes one trnblas gemm_batched launch (or a dgemm per batch entry for 64F). An operand whose
// modes do not collapse is permuted into a packed workspace buffer first (TTGT); that permutation
// is a DMA kernel (dma_copy_strided) whose instructions join the modeled profile (docs/trntensor.md,
// "Lowering").
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "trn/blas/level3.hpp"
#include "trn/core/c_shim.hpp"
#include "trn/tensor/tensor.hpp"
#include "trn/tile/launch_rows.hpp"
#include "trn/tile/view.hpp"
#include "tensor_detail.hpp"

namespace trn::tensor {

int data_type_size(DataType t) {
  switch (t) {
    case DataType::c64: return 16;
    case DataType::f64:
    case DataType::c32: return 8;
    case DataType::bf16:
    case DataType::f16: return 2;
    case DataType::f32: break;
  }
  return 4;
}
bool is_complex(DataType t) { return t == DataType::c32 || t == DataType::c64; }
const char* data_type_name(DataType t) {
  switch (t) {
    case DataType::c32: return "C_32F";
    case DataType::c64: return "C_64F";
    case DataType::f64: return "64F";
    case DataType::bf16: return "16BF";
    case DataType::f16: return "16F";
    case DataType::f32: break;
  }
  return "32F";
}

const char* compute_type_name(ComputeType c) {
  switch (c) {
    case ComputeType::f32: return "32F";
    case ComputeType::f64: return "64F";
    case ComputeType::bf16: return "16BF";
    case ComputeType::f16: return "16F";
    case ComputeType::tf32: return "TF32";
    case ComputeType::tf32x3: return "3XTF32";
    case ComputeType::bf16x9: return "9X16BF";
  }
  return "?";
}

blas::GemmMode gemm_mode(ComputeType c) {
  switch (c) {
    case ComputeType::f32: return blas::GemmMode::fp32;
    case ComputeType::bf16: return blas::GemmMode::bf16;
    case ComputeType::f16: return blas::GemmMode::fp16;
    case ComputeType::tf32: return blas::GemmMode::tf32;
    case ComputeType::tf32x3: return blas::GemmMode::tf32;  // three tf32 GEMMs on split operands
    case ComputeType::bf16x9: return blas::GemmMode::bf16x9;
    case ComputeType::f64: break;
  }
  return blas::GemmMode::fp64_ozaki;
}

bool compatible(DataType d, ComputeType c) {
  switch (d) {
    case DataType::f64:
    case DataType::c64: return c == ComputeType::f64;
    case DataType::c32: return c == ComputeType::f32 || c == ComputeType::tf32 || c == ComputeType::tf32x3;
    case DataType::bf16: return c == ComputeType::f32 || c == ComputeType::bf16;
    case DataType::f16: return c == ComputeType::f32 || c == ComputeType::f16;
    case DataType::f32: break;
  }
  return c != ComputeType::f64;
}

namespace {
// The core dtype of fp32 or 16-bit tensor data (the GEMM operands' storage type; fp64 data never
// reaches a core tile: it goes through trnblas's Ozaki dgemm).
DType core_dtype(DataType t) {
  switch (t) {
    case DataType::bf16: return DType::bf16;
    case DataType::f16: return DType::f16;
    case DataType::f64:
    case DataType::c32:
    case DataType::c64:
    case DataType::f32: break;
  }
  return DType::f32;
}
}  // namespace

const char* lowering_name(Lowering l) { return l == Lowering::transpose_free ? "transpose-free" : "TTGT"; }

std::vector<std::int64_t> packed_strides(const std::vector<std::int64_t>& extents) {
  std::vector<std::int64_t> s(extents.size());
  std::int64_t acc = 1;
  for (std::size_t i = 0; i < extents.size(); ++i) {
    s[i] = acc;
    acc = cshim::checked_mul(acc, std::max<std::int64_t>(1, extents[i]));
    if (acc < 0) throw InvalidArgument("tensor descriptor", "extent", "element count overflows int64");
  }
  return s;
}

TensorDesc normalized(TensorDesc d, std::string_view operand) {
  for (std::size_t i = 0; i < d.extents.size(); ++i)
    if (d.extents[i] < 0)
      throw InvalidArgument("tensor descriptor", operand, "extent " + std::to_string(d.extents[i]) + " of mode position " + std::to_string(i) + " is negative");
  if (d.strides.empty()) d.strides = packed_strides(d.extents);
  if (d.strides.size() != d.extents.size())
    throw InvalidArgument("tensor descriptor", operand, "stride count differs from the number of modes");
  for (std::size_t i = 0; i < d.strides.size(); ++i)
    if (d.strides[i] < 0)
      throw InvalidArgument("tensor descriptor", operand, "stride of mode position " + std::to_string(i) + " is negative");
  return d;
}

namespace detail {

std::string mode_name(std::int32_t label) {
  if ((label >= 'a' && label <= 'z') || (label >= 'A' && label <= 'Z')) return std::string("'") + static_cast<char>(label) + "'";
  return std::to_string(label);
}

// Kernel dma_copy_strided: dst[sum i_d dst_d] = src[sum i_d src_d] as HBM -> HBM dma_copy
// instructions. Elements are moved as unsigned words (32-bit words, fp64 and complex fp32 as two of
// them, complex fp64 as four, 16-bit data as 16-bit words), so every copy is a bit copy.
// Layout per instruction: partitions = the dimension of largest extent (chunks of hw.pmax), free
// pattern = up to 4 of the remaining dimensions with the smallest destination strides whose
// product stays <= kMaxFreeWords; the other dimensions enumerate the programs of the launch.
Workspace plan_workspace(const char* who, void* given, std::uint64_t given_size, std::uint64_t need) {
  Workspace w{given, given_size, {}};
  if (need > 0 && given == nullptr) {
    w.owned.resize(need + 64);
    w.data = w.owned.data();
    w.bytes = need + 64;
  }
  if (w.bytes < need)
    throw InvalidArgument(who, "workspace", std::to_string(w.bytes) + " bytes given, the plan needs " + std::to_string(need));
  return w;
}

void dma_copy_strided(const blas::Settings& s, DataType t, const void* src, void* dst, std::vector<CopyDim> dims,
                      Trace* trace) {
  constexpr std::int64_t kMaxFreeWords = 1 << 14;
  const int word_bytes = data_type_size(t) == 2 ? 2 : 4;
  const DType word_dtype = word_bytes == 2 ? DType::u16 : DType::u32;
  const int words = data_type_size(t) / word_bytes;
  for (const CopyDim& d : dims)
    if (d.extent == 0) return;
  std::vector<CopyDim> w;
  if (words > 1) w.push_back({words, 1, 1});
  for (const CopyDim& d : dims)
    if (d.extent > 1) w.push_back({d.extent, d.src_stride * words, d.dst_stride * words});
  if (w.empty()) w.push_back({1, 1, 1});
  const HardwareSpec& hw = hardware_spec(s.target);
  // Partition dimension: the largest extent.
  std::size_t pd = 0;
  for (std::size_t i = 1; i < w.size(); ++i)
    if (w[i].extent > w[pd].extent) pd = i;
  const CopyDim part = w[pd];
  w.erase(w.begin() + static_cast<std::ptrdiff_t>(pd));
  std::stable_sort(w.begin(), w.end(), [](const CopyDim& a, const CopyDim& b) { return a.dst_stride < b.dst_stride; });
  std::vector<CopyDim> freed, outer;
  std::int64_t fsize = 1;
  for (const CopyDim& d : w) {
    if (static_cast<int>(freed.size()) < hw.access_pattern_max_dims && outer.empty() && fsize * d.extent <= kMaxFreeWords) {
      freed.push_back(d);
      fsize *= d.extent;
    } else {
      outer.push_back(d);
    }
  }
  const std::int64_t pchunks = (part.extent + hw.pmax - 1) / hw.pmax;
  std::int64_t programs = pchunks;
  for (const CopyDim& d : outer) programs *= d.extent;
  if (programs > std::numeric_limits<int>::max()) throw NotSupportedError("dma_copy_strided", "more than 2^31 DMA programs", hw.name);
  auto* sb = static_cast<std::byte*>(const_cast<void*>(src));
  auto* db = static_cast<std::byte*>(dst);
  LaunchConfig lc = s.launch_config({static_cast<int>(programs), 1, 1});
  LaunchResult r = launch(lc, [&](NeuronCore& nc) {
    std::int64_t id = nc.program_id(0);
    const std::int64_t pc = id % pchunks;
    id /= pchunks;
    std::int64_t so = 0, dso = 0;
    for (const CopyDim& d : outer) {
      const std::int64_t i = id % d.extent;
      id /= d.extent;
      so += i * d.src_stride;
      dso += i * d.dst_stride;
    }
    const std::int64_t p0 = pc * nc.hw().pmax;
    const auto np = static_cast<std::int32_t>(std::min<std::int64_t>(nc.hw().pmax, part.extent - p0));
    so += p0 * part.src_stride;
    dso += p0 * part.dst_stride;
    auto words = [&](std::byte* base, std::int64_t off, bool is_src) {
      tile::FreePattern free;
      for (std::size_t q = freed.size(); q-- > 0;)  // freed is innermost first, Tile free dims outermost first
        free.push_back({freed[q].extent, is_src ? freed[q].src_stride : freed[q].dst_stride});
      if (free.rank() == 0) free.push_back({1, 1});  // a single word per partition
      return tile::hbm_view(base + off * word_bytes, word_dtype, np, is_src ? part.src_stride : part.dst_stride, free);
    };
    nc.dma_copy(words(db, dso, false), words(sb, so, true));
  });
  if (trace != nullptr) trace->append(r.trace);
}

// Kernel tf32_split (3XTF32): x = big + small with big = tf32(x) (RNE) and small = x - big (exact in
// fp32: x - tf32(x) has at most 13 significant bits), for a packed fp32 buffer of n elements in
// [hw.pmax, 512] tiles (a [1, n mod 512] tail program). DMA in, VectorE tensor_copy to a tf32 tile
// (the rounding) and tensor_tensor subtract, DMA out (tf32 -> fp32 is exact). big overwrites x.
void tf32_split(const blas::Settings& s, float* x, float* small, std::int64_t n, Trace* trace) {
  constexpr std::int64_t kFree = 512;  // free elements per VectorE instruction (a tiling choice)
  const LaunchResult r = tile::launch_rows(s.launch_config(), n, kFree, [&](NeuronCore& nc, const tile::RowBlock& rb) {
    AllocScope sb(nc.sbuf());
    const Tile tx = sb.alloc(DType::f32, rb.partitions, {rb.width}, "x");
    const Tile tb = sb.alloc(DType::tf32, rb.partitions, {rb.width}, "big");
    const Tile ts = sb.alloc(DType::f32, rb.partitions, {rb.width}, "small");
    nc.dma_copy(tx, rb.of(x, DType::f32));
    nc.tensor_copy(tb, tx);
    nc.tensor_tensor(ts, tx, tb, AluOp::subtract);
    nc.dma_copy(rb.of(x, DType::f32), tb);
    nc.dma_copy(rb.of(small, DType::f32), ts);
  });
  if (trace != nullptr) trace->append(r.trace);
}

}  // namespace detail

namespace {

using detail::mode_name;

constexpr int kA = 0, kB = 1, kC = 2, kD = 3;
const char* const kOperandNames[4] = {"A", "B", "C", "D"};
const char* const kModeArgNames[4] = {"modeA", "modeB", "modeC", "modeD"};

// Collapsed stride of an ordered group of modes in one operand: the modes with extent > 1 must
// satisfy stride[i+1] == stride[i] * extent[i]. `wildcard` when every mode has extent 1 (any
// stride describes it).
struct Collapsed {
  bool ok = true;
  bool wildcard = true;
  std::int64_t stride = 0;
};

}  // namespace

ContractionPlan::ContractionPlan(const ContractionSpec& spec, const blas::Settings* model) : spec_(spec) {
  const char* where = "contraction";
  TensorDesc* descs[4] = {&spec_.a, &spec_.b, &spec_.c, &spec_.d};
  const std::vector<std::int32_t>* mlists[4] = {&spec_.modes_a, &spec_.modes_b, &spec_.modes_c, &spec_.modes_d};
  for (int t = 0; t < 4; ++t) {
    *descs[t] = normalized(*descs[t], kOperandNames[t]);
    if (mlists[t]->size() != descs[t]->extents.size())
      throw InvalidArgument(where, kModeArgNames[t],
                            std::to_string(mlists[t]->size()) + " mode labels for a descriptor of " +
                                std::to_string(descs[t]->extents.size()) + " modes");
    for (std::size_t i = 0; i < mlists[t]->size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if ((*mlists[t])[i] == (*mlists[t])[j])
          throw InvalidArgument(where, kModeArgNames[t], "mode " + mode_name((*mlists[t])[i]) + " appears twice in " + kOperandNames[t]);
  }
  for (int t = 0; t < 4; ++t)
    if (descs[t]->dtype != spec_.a.dtype)
      throw NotSupportedError(where, std::string("mixed data types (") + data_type_name(spec_.a.dtype) + " A, " +
                                         data_type_name(descs[t]->dtype) + " " + kOperandNames[t] + ")", "trntensor");
  if (!compatible(spec_.a.dtype, spec_.compute))
    throw NotSupportedError(where, std::string("data type ") + data_type_name(spec_.a.dtype) + " with compute descriptor " +
                                       compute_type_name(spec_.compute), "trntensor");

  // The union of the labels: D's first, then A's and B's others.
  auto find = [&](std::int32_t label) -> int {
    for (std::size_t i = 0; i < modes_.size(); ++i)
      if (modes_[i].label == label) return static_cast<int>(i);
    return -1;
  };
  const int order[4] = {kD, kC, kA, kB};
  std::vector<std::array<bool, 4>> in;
  for (int t : order) {
    for (std::size_t i = 0; i < mlists[t]->size(); ++i) {
      const std::int32_t label = (*mlists[t])[i];
      const std::int64_t ext = descs[t]->extents[i];
      int q = find(label);
      if (q < 0) {
        if (t == kC)
          throw InvalidArgument(where, "modeC", "mode " + mode_name(label) + " of C is not a mode of D");
        Mode m;
        m.label = label;
        m.extent = ext;
        modes_.push_back(m);
        in.push_back({false, false, false, false});
        q = static_cast<int>(modes_.size()) - 1;
      } else if (modes_[static_cast<std::size_t>(q)].extent != ext) {
        throw InvalidArgument(where, kModeArgNames[t],
                              "extent " + std::to_string(ext) + " of mode " + mode_name(label) + " in " + kOperandNames[t] +
                                  " differs from its extent " + std::to_string(modes_[static_cast<std::size_t>(q)].extent) +
                                  " in another operand");
      }
      modes_[static_cast<std::size_t>(q)].stride[t == kD ? 3 : t] = descs[t]->strides[i];
      in[static_cast<std::size_t>(q)][static_cast<std::size_t>(t)] = true;
    }
  }
  for (std::size_t q = 0; q < modes_.size(); ++q) {
    const auto& f = in[q];
    // D's elements must be distinct: a broadcast (stride 0) output mode would make the GEMM write
    // one element from several programs.
    if (f[kD] && modes_[q].extent > 1 && modes_[q].stride[3] == 0)
      throw InvalidArgument(where, "descD", "mode " + mode_name(modes_[q].label) + " of D has stride 0 (outputs overlap)");
    if (f[kD] && !f[kC]) throw InvalidArgument(where, "modeC", "mode " + mode_name(modes_[q].label) + " of D is not a mode of C");
    if (f[kD] && !f[kA] && !f[kB])
      throw InvalidArgument(where, "modeD", "mode " + mode_name(modes_[q].label) + " of D appears in neither A nor B");
    const int qi = static_cast<int>(q);
    if (f[kD]) {
      if (f[kA] && f[kB]) batch_modes_.push_back(qi);
      else if (f[kA]) m_modes_.push_back(qi);
      else n_modes_.push_back(qi);
    } else {
      k_modes_.push_back(qi);  // in both (contracted) or in one only (summed, the other broadcasts)
    }
  }
  auto product = [&](const std::vector<int>& g) {
    std::int64_t p = 1;
    for (int q : g) {
      p = cshim::checked_mul(p, modes_[static_cast<std::size_t>(q)].extent);
      if (p < 0) throw InvalidArgument(where, "extent", "product of extents overflows int64");
    }
    return p;
  };
  m_ = product(m_modes_);
  n_ = product(n_modes_);
  k_ = product(k_modes_);
  batch_ = product(batch_modes_);
  const bool can_model = spec_.compute != ComputeType::f64 && !is_complex(spec_.a.dtype);
  choose_lowering(can_model ? model : nullptr);
}

Lowering ContractionPlan::lowering() const {
  return (low_[0].packed || low_[1].packed || low_[2].packed) ? Lowering::ttgt : Lowering::transpose_free;
}

std::uint64_t ContractionPlan::workspace_bytes() const {
  std::uint64_t e = 0;
  for (const auto& l : low_) e += static_cast<std::uint64_t>(l.packed ? l.packed_elements : 0);
  if (spec_.compute == ComputeType::tf32x3)  // the small parts of A and B
    e += static_cast<std::uint64_t>(low_[0].packed_elements + low_[1].packed_elements);
  // Each packed buffer starts on a 64-byte boundary.
  return e * static_cast<std::uint64_t>(data_type_size(spec_.a.dtype)) + (e > 0 ? 5 * 64 : 0);
}

// The lowerings choose_lowering weighs: for both GEMM orientations (D = A B, or D^T = B^T A^T), each
// order of the M, N and K groups (sorted by one operand's strides), and each split of the M and N
// groups into matrix modes and extra batch modes, how every operand reaches the GEMM (directly as
// (ld, op N/T), or packed) and the elements that moves.
class ContractionPlan::LoweringSearch {
 public:
  struct Candidate {
    std::int64_t cost;
    bool swapped;
    std::vector<int> m_modes, n_modes, k_modes, batch_modes;
    std::int64_t m, n, batch;
    OperandLowering low[3];
  };

  explicit LoweringSearch(ContractionPlan& plan) : plan_(plan) {
    // A conjugated complex operand must be op T (the GEMM applies op C: trnblas has no conjugate
    // without transposition).
    const bool cplx = is_complex(plan.spec_.a.dtype);
    conj_[0] = cplx && plan.spec_.conj_a;
    conj_[1] = cplx && plan.spec_.conj_b;
  }

  // Every candidate, in the order the objectives break ties by (the first of least cost wins).
  std::vector<Candidate> enumerate() const {
    const auto cm = orders(plan_.m_modes_, {3, 0}), cn = orders(plan_.n_modes_, {3, 1}),
               ck = orders(plan_.k_modes_, {0, 1});
    std::vector<Candidate> cands;
    for (int sw = 0; sw < 2; ++sw)
      for (const auto& om_all : cm)
        for (const auto& on_all : cn)
          for (std::size_t keep_m : splits(om_all))
            for (std::size_t keep_n : splits(on_all))
              for (const auto& ok : ck) cands.push_back(candidate(sw == 1, om_all, keep_m, on_all, keep_n, ok));
    return cands;
  }

  // Default objective: the fewest moved elements (the first such candidate).
  static std::size_t fewest_moved(const std::vector<Candidate>& cands) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < cands.size(); ++i)
      if (cands[i].cost < cands[best].cost) best = i;
    return best;
  }

  // Modeled-time objective: every distinct lowering (same GEMM launch and packing) is estimated
  // once; the least modeled time wins, ties to fewer moved elements (from `best`, the fewest).
  std::size_t least_modeled(const std::vector<Candidate>& cands, std::size_t best, const blas::Settings& model) {
    double best_ns = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < cands.size(); ++i) {
      bool seen = false;
      for (std::size_t j = 0; j < i && !seen; ++j) seen = same_launch(cands[i], cands[j]);
      if (seen) continue;
      apply(cands[i]);
      const double ns = plan_.estimate(model).total_ns;
      if (ns < best_ns || (ns == best_ns && cands[i].cost < cands[best].cost)) {
        best_ns = ns;
        best = i;
      }
    }
    return best;
  }

  void apply(const Candidate& c) {
    plan_.swapped_ = c.swapped;
    plan_.m_modes_ = c.m_modes;
    plan_.n_modes_ = c.n_modes;
    plan_.k_modes_ = c.k_modes;
    plan_.batch_modes_ = c.batch_modes;
    plan_.m_ = c.m;
    plan_.n_ = c.n;
    plan_.batch_ = c.batch;
    for (int i = 0; i < 3; ++i) plan_.low_[i] = c.low[i];
  }

 private:
  // Cost in elements moved: packed operands (D twice: written back), plus a penalty per extra batch
  // entry (a small GEMM launch per entry) so that splitting is chosen only to avoid packing.
  static constexpr std::int64_t kBatchEntryPenalty = 4096;

  const ContractionPlan::Mode& mode(int q) const { return plan_.modes_[static_cast<std::size_t>(q)]; }

  // Tensor slot of each operand in Mode::stride: A 0, B 1, D 3.
  Collapsed collapse(int slot, const std::vector<int>& g) const {
    Collapsed c;
    std::int64_t expect = -1;
    for (int q : g) {
      const Mode& md = mode(q);
      if (md.extent == 1) continue;
      if (c.wildcard) {
        c.wildcard = false;
        c.stride = md.stride[slot];
      } else if (md.stride[slot] != expect) {
        c.ok = false;
        return c;
      }
      expect = md.stride[slot] * md.extent;
    }
    return c;
  }

  std::int64_t extent_of(const std::vector<int>& g) const {
    std::int64_t p = 1;
    for (int q : g) p *= mode(q).extent;
    return p;
  }

  // op(X) is rows x cols: op N wants unit-stride rows and ld = column stride >= rows; op T the
  // reverse (not for a conjugated operand's op N, nor D's op T).
  bool direct(int slot, const std::vector<int>& rows, const std::vector<int>& cols, bool allow_t,
              OperandLowering* out) const {
    const Collapsed r = collapse(slot, rows), c = collapse(slot, cols);
    if (!r.ok || !c.ok) return false;
    const std::int64_t nr = std::max<std::int64_t>(1, extent_of(rows)), nc = std::max<std::int64_t>(1, extent_of(cols));
    if ((slot > 1 || !conj_[slot]) && (r.wildcard || r.stride == 1)) {
      const std::int64_t ld = c.wildcard ? nr : c.stride;
      if (ld >= nr) {
        *out = {false, blas::Op::N, ld, 0};
        return true;
      }
    }
    if (allow_t && (c.wildcard || c.stride == 1)) {
      const std::int64_t ld = r.wildcard ? nc : r.stride;
      if (ld >= nc) {
        *out = {false, blas::Op::T, ld, 0};
        return true;
      }
    }
    return false;
  }

  // The distinct orders of a group sorted by each of `slots`' strides.
  std::vector<std::vector<int>> orders(const std::vector<int>& g, std::initializer_list<int> slots) const {
    std::vector<std::vector<int>> out;
    for (int slot : slots) {
      std::vector<int> o = g;
      std::stable_sort(o.begin(), o.end(), [&](int x, int y) { return mode(x).stride[slot] < mode(y).stride[slot]; });
      if (std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
    }
    return out;
  }

  // Splits of an ordered M or N group: the first `keep` modes stay matrix rows/columns, the outer
  // ones become extra batch entries (the operand lacking them broadcasts, stride 0) — a GETT-like
  // lowering that avoids packing when a group only fails to collapse because of its outer modes.
  static std::vector<std::size_t> splits(const std::vector<int>& g) {
    std::vector<std::size_t> keeps;
    for (std::size_t keep = g.size(); keep >= 1; --keep) keeps.push_back(keep);
    if (keeps.empty()) keeps.push_back(0);
    return keeps;
  }

  Candidate candidate(bool swapped, const std::vector<int>& om_all, std::size_t keep_m, const std::vector<int>& on_all,
                      std::size_t keep_n, const std::vector<int>& ok) const {
    const std::int64_t k = plan_.k_;
    const std::vector<int> om(om_all.begin(), om_all.begin() + static_cast<std::ptrdiff_t>(keep_m));
    const std::vector<int> on(on_all.begin(), on_all.begin() + static_cast<std::ptrdiff_t>(keep_n));
    std::vector<int> bm = plan_.batch_modes_;
    bm.insert(bm.end(), om_all.begin() + static_cast<std::ptrdiff_t>(keep_m), om_all.end());
    bm.insert(bm.end(), on_all.begin() + static_cast<std::ptrdiff_t>(keep_n), on_all.end());
    const std::int64_t m = extent_of(om), n = extent_of(on), batch = extent_of(bm);
    OperandLowering la, lb, ld;
    const std::int64_t mat_a = std::max<std::int64_t>(1, m * k), mat_b = std::max<std::int64_t>(1, k * n),
                       mat_d = std::max<std::int64_t>(1, m * n);
    bool da, db, dd;
    if (!swapped) {
      da = direct(0, om, ok, true, &la);
      db = direct(1, ok, on, true, &lb);
      dd = direct(3, om, on, false, &ld);
    } else {
      db = direct(1, on, ok, true, &lb);
      da = direct(0, ok, om, true, &la);
      dd = direct(3, on, om, false, &ld);
    }
    // 3XTF32 splits A and B into tf32 big + small parts on VectorE: both are packed first.
    if (plan_.spec_.compute == ComputeType::tf32x3) da = db = false;
    const std::int64_t base_batch_count = plan_.batch_;
    std::int64_t cost = (base_batch_count > 0 ? batch / std::max<std::int64_t>(1, base_batch_count) - 1 : 0) *
                        kBatchEntryPenalty * std::max<std::int64_t>(1, base_batch_count);
    // A packed operand is [rows, cols] (op N), or [cols, rows] (op T) when conjugated.
    const std::int64_t a_rows = std::max<std::int64_t>(1, !swapped ? m : k), a_cols = std::max<std::int64_t>(1, !swapped ? k : m);
    const std::int64_t b_rows = std::max<std::int64_t>(1, !swapped ? k : n), b_cols = std::max<std::int64_t>(1, !swapped ? n : k);
    if (!da) {
      la = {true, conj_[0] ? blas::Op::T : blas::Op::N, conj_[0] ? a_cols : a_rows, mat_a * batch};
      cost += la.packed_elements;
    }
    if (!db) {
      lb = {true, conj_[1] ? blas::Op::T : blas::Op::N, conj_[1] ? b_cols : b_rows, mat_b * batch};
      cost += lb.packed_elements;
    }
    if (!dd) {
      ld = {true, blas::Op::N, !swapped ? std::max<std::int64_t>(1, m) : std::max<std::int64_t>(1, n), mat_d * batch};
      cost += 2 * ld.packed_elements;
    }
    return {cost, swapped, om, on, ok, bm, m, n, batch, {la, lb, ld}};
  }

  // Same GEMM launch and packing.
  static bool same_launch(const Candidate& x, const Candidate& y) {
    auto eq = [](const OperandLowering& p, const OperandLowering& q) {
      return p.packed == q.packed && p.op == q.op && p.ld == q.ld && p.packed_elements == q.packed_elements;
    };
    return x.swapped == y.swapped && x.m == y.m && x.n == y.n && x.batch == y.batch && eq(x.low[0], y.low[0]) &&
           eq(x.low[1], y.low[1]) && eq(x.low[2], y.low[2]);
  }

  ContractionPlan& plan_;
  bool conj_[2] = {false, false};
};

void ContractionPlan::choose_lowering(const blas::Settings* model) {
  LoweringSearch search(*this);
  const auto cands = search.enumerate();
  std::size_t best = LoweringSearch::fewest_moved(cands);
  if (model != nullptr) best = search.least_modeled(cands, best, *model);
  search.apply(cands[best]);
}

void ContractionPlan::execute(const blas::Settings& s, std::complex<double> alpha, const void* A, const void* B,
                              std::complex<double> beta, const void* C, void* D, void* workspace,
                              std::uint64_t workspace_size, blas::CallReport* report) const {
  if (report != nullptr) *report = blas::CallReport{};
  if (m_ == 0 || n_ == 0 || batch_ == 0) return;
  const detail::Workspace ws_owned = detail::plan_workspace("contraction", workspace, workspace_size, workspace_bytes());
  workspace = ws_owned.data;
  workspace_size = ws_owned.bytes;
  const int es = data_type_size(spec_.a.dtype);
  // Carve the packed buffers out of the workspace, 64-byte aligned.
  auto* base = static_cast<std::byte*>(workspace);
  std::uintptr_t cur = reinterpret_cast<std::uintptr_t>(base);
  void* ws[3] = {nullptr, nullptr, nullptr};
  for (int i = 0; i < 3; ++i) {
    if (!low_[i].packed) continue;
    cur = (cur + 63) & ~static_cast<std::uintptr_t>(63);
    ws[i] = reinterpret_cast<void*>(cur);
    cur += static_cast<std::uintptr_t>(low_[i].packed_elements) * static_cast<std::uintptr_t>(es);
  }
  const bool split3 = spec_.compute == ComputeType::tf32x3;
  float* small[2] = {nullptr, nullptr};
  for (int i = 0; split3 && i < 2; ++i) {
    cur = (cur + 63) & ~static_cast<std::uintptr_t>(63);
    small[i] = reinterpret_cast<float*>(cur);
    cur += static_cast<std::uintptr_t>(low_[i].packed_elements) * static_cast<std::uintptr_t>(es);
  }
  // Rows / cols of each operand in GEMM orientation.
  const std::vector<int>& rows_a = swapped_ ? k_modes_ : m_modes_;
  const std::vector<int>& cols_a = swapped_ ? m_modes_ : k_modes_;
  const std::vector<int>& rows_b = swapped_ ? n_modes_ : k_modes_;
  const std::vector<int>& cols_b = swapped_ ? k_modes_ : n_modes_;
  const std::vector<int>& rows_d = swapped_ ? n_modes_ : m_modes_;
  const std::vector<int>& cols_d = swapped_ ? m_modes_ : n_modes_;
  auto dims_to_packed = [&](int src_slot, const std::vector<int>& r, const std::vector<int>& c, bool reverse) {
    std::vector<detail::CopyDim> dims;
    std::int64_t acc = 1;
    for (const std::vector<int>* g : {&r, &c, &batch_modes_})
      for (int q : *g) {
        const Mode& md = modes_[static_cast<std::size_t>(q)];
        if (reverse)
          dims.push_back({md.extent, acc, md.stride[src_slot]});
        else
          dims.push_back({md.extent, md.stride[src_slot], acc});
        acc *= md.extent;
      }
    return dims;
  };
  const bool use_c = beta != 0.0;
  const bool cplx = is_complex(spec_.a.dtype);
  if (!cplx) {  // real data: the imaginary parts of the scalars play no role
    alpha = alpha.real();
    beta = beta.real();
  }
  if (use_c && C == D)
    for (const Mode& md : modes_)
      if (md.extent > 1 && md.stride[2] != md.stride[3])
        throw InvalidArgument("contraction", "C", "C and D are the same buffer but mode " + mode_name(md.label) +
                                                 " has different strides in C and D");
  // Data movement runs as DMA kernels (modeled): before the GEMM, C -> D (or -> packed D) and the
  // packing of A and B; after it, the unpacking of D.
  Trace before, after;
  if (low_[2].packed) {
    if (use_c) detail::dma_copy_strided(s, spec_.a.dtype, C, ws[2], dims_to_packed(2, rows_d, cols_d, false), &before);
  } else if (use_c && C != D) {
    std::vector<detail::CopyDim> dims;
    for (const std::vector<int>* g : {&m_modes_, &n_modes_, &batch_modes_})
      for (int q : *g) {
        const Mode& md = modes_[static_cast<std::size_t>(q)];
        dims.push_back({md.extent, md.stride[2], md.stride[3]});
      }
    detail::dma_copy_strided(s, spec_.a.dtype, C, D, dims, &before);
  }
  // A packed operand with op T (a conjugated complex operand) is stored [cols, rows].
  if (low_[0].packed)
    detail::dma_copy_strided(s, spec_.a.dtype, A, ws[0],
                             low_[0].op == blas::Op::T ? dims_to_packed(0, cols_a, rows_a, false) : dims_to_packed(0, rows_a, cols_a, false),
                             &before);
  if (low_[1].packed)
    detail::dma_copy_strided(s, spec_.a.dtype, B, ws[1],
                             low_[1].op == blas::Op::T ? dims_to_packed(1, cols_b, rows_b, false) : dims_to_packed(1, rows_b, cols_b, false),
                             &before);
  blas::CallReport gemm_report;
  if (split3) {
    // 3XTF32: A = Ab + As, B = Bb + Bs (tf32 parts); D = alpha (As Bb + Ab Bs + Ab Bb) + beta C as three
    // tf32 GEMMs, small products first, D rounded to fp32 between them.
    // Complex data splits its real and imaginary parts alike: es / 4 floats per element.
    detail::tf32_split(s, static_cast<float*>(ws[0]), small[0], low_[0].packed_elements * (es / 4), &before);
    detail::tf32_split(s, static_cast<float*>(ws[1]), small[1], low_[1].packed_elements * (es / 4), &before);
    void* parts[3][2] = {{small[0], ws[1]}, {ws[0], small[1]}, {ws[0], ws[1]}};
    Trace gemms;
    for (int t = 0; t < 3; ++t) {
      blas::CallReport r;
      run_gemms(s, alpha, A, B, t == 0 ? beta : 1.0, D, parts[t][0], parts[t][1], ws[2], &r);
      gemms.append(r.trace);
      gemm_report.tensor_passes += r.tensor_passes;
    }
    gemm_report.trace = std::move(gemms);
    finish_report(gemm_report, ReportSettings{s.target});
  } else {
    run_gemms(s, alpha, A, B, beta, D, ws[0], ws[1], ws[2], &gemm_report);
  }
  if (low_[2].packed) detail::dma_copy_strided(s, spec_.a.dtype, ws[2], D, dims_to_packed(3, rows_d, cols_d, true), &after);
  if (report != nullptr) {
    *report = std::move(gemm_report);
    if (!before.instructions.empty() || !after.instructions.empty()) {
      before.append(report->trace);
      before.append(after);
      report->trace = std::move(before);
      finish_report(*report, ReportSettings{s.target});
    }
  }
}

void ContractionPlan::run_gemms(const blas::Settings& s, std::complex<double> alpha, const void* A, const void* B,
                                std::complex<double> beta, void* D, void* wsA, void* wsB, void* wsD,
                                blas::CallReport* report) const {
  const int es = data_type_size(spec_.a.dtype);
  // Batch offsets (elements) of each operand; packed operands advance by one matrix.
  const std::int64_t mat_a = m_ * k_, mat_b = k_ * n_, mat_d = m_ * n_;
  std::vector<std::int64_t> off_a, off_b, off_d;
  off_a.reserve(static_cast<std::size_t>(batch_));
  std::vector<std::int64_t> idx(batch_modes_.size(), 0);
  for (std::int64_t b = 0; b < batch_; ++b) {
    std::int64_t oa = 0, ob = 0, od = 0;
    for (std::size_t i = 0; i < batch_modes_.size(); ++i) {
      const Mode& md = modes_[static_cast<std::size_t>(batch_modes_[i])];
      oa += idx[i] * md.stride[0];
      ob += idx[i] * md.stride[1];
      od += idx[i] * md.stride[3];
    }
    off_a.push_back(low_[0].packed ? b * mat_a : oa);
    off_b.push_back(low_[1].packed ? b * mat_b : ob);
    off_d.push_back(low_[2].packed ? b * mat_d : od);
    for (std::size_t i = 0; i < idx.size(); ++i) {
      if (++idx[i] < modes_[static_cast<std::size_t>(batch_modes_[i])].extent) break;
      idx[i] = 0;
    }
  }
  const auto* pa = static_cast<const std::byte*>(low_[0].packed ? wsA : A);
  const auto* pb = static_cast<const std::byte*>(low_[1].packed ? wsB : B);
  auto* pd = static_cast<std::byte*>(low_[2].packed ? wsD : D);
  // GEMM operands in orientation: first (rows of D x k), second (k x cols of D).
  const OperandLowering& lf = swapped_ ? low_[1] : low_[0];
  const OperandLowering& ls = swapped_ ? low_[0] : low_[1];
  const std::vector<std::int64_t>& off_f = swapped_ ? off_b : off_a;
  const std::vector<std::int64_t>& off_s = swapped_ ? off_a : off_b;
  const std::byte* pf = swapped_ ? pb : pa;
  const std::byte* ps = swapped_ ? pa : pb;
  const std::int64_t gm = swapped_ ? n_ : m_, gn = swapped_ ? m_ : n_;
  if (is_complex(spec_.a.dtype)) {
    // Complex: one trnblas 4M complex GEMM per batch entry (the real representation of op(F) times
    // the real pairs of op(S), one real tile GEMM on TensorE; cgemm in the compute descriptor's
    // mode, zgemm through Ozaki). A conjugated operand is op T here and runs as op C: the
    // conjugation is the sign of the imaginary plane's products in that real GEMM.
    const bool conj_f = swapped_ ? spec_.conj_b : spec_.conj_a, conj_s = swapped_ ? spec_.conj_a : spec_.conj_b;
    auto cop = [](const OperandLowering& l, bool conj) {
      return l.op == blas::Op::N ? blas::COp::N : conj ? blas::COp::C : blas::COp::T;
    };
    const blas::COp of = cop(lf, conj_f), os = cop(ls, conj_s);
    Trace merged;
    for (std::int64_t b = 0; b < batch_; ++b) {
      blas::CallReport r;
      const auto ub = static_cast<std::size_t>(b);
      if (spec_.a.dtype == DataType::c64) {
        using Z = std::complex<double>;
        blas::zgemm(s, blas::ComplexAlgo::four_m, of, os, gm, gn, k_, alpha, reinterpret_cast<const Z*>(pf + off_f[ub] * es),
                    lf.ld, reinterpret_cast<const Z*>(ps + off_s[ub] * es), ls.ld, beta,
                    reinterpret_cast<Z*>(pd + off_d[ub] * es), low_[2].ld, report != nullptr ? &r : nullptr);
      } else {
        using Cf = std::complex<float>;
        blas::cgemm(s, gemm_mode(spec_.compute), blas::ComplexAlgo::four_m, of, os, gm, gn, k_, Cf(alpha),
                    reinterpret_cast<const Cf*>(pf + off_f[ub] * es), lf.ld, reinterpret_cast<const Cf*>(ps + off_s[ub] * es),
                    ls.ld, Cf(beta), reinterpret_cast<Cf*>(pd + off_d[ub] * es), low_[2].ld,
                    report != nullptr ? &r : nullptr);
      }
      if (report != nullptr) {
        merged.append(r.trace);
        report->tensor_passes += r.tensor_passes;
      }
    }
    if (report != nullptr) {
      report->trace = std::move(merged);
      finish_report(*report, ReportSettings{s.target});
    }
    return;
  }
  if (spec_.a.dtype == DataType::f64) {
    Trace merged;
    for (std::int64_t b = 0; b < batch_; ++b) {
      blas::CallReport r;
      const auto ub = static_cast<std::size_t>(b);
      blas::dgemm(s, lf.op, ls.op, gm, gn, k_, alpha.real(), reinterpret_cast<const double*>(pf + off_f[ub] * es), lf.ld,
                  reinterpret_cast<const double*>(ps + off_s[ub] * es), ls.ld, beta.real(),
                  reinterpret_cast<double*>(pd + off_d[ub] * es), low_[2].ld, report != nullptr ? &r : nullptr);
      if (report != nullptr) {
        merged.append(r.trace);
        report->tensor_passes += r.tensor_passes;
        report->ozaki_slices_a = std::max(report->ozaki_slices_a, r.ozaki_slices_a);
        report->ozaki_slices_b = std::max(report->ozaki_slices_b, r.ozaki_slices_b);
        report->ozaki_products = std::max(report->ozaki_products, r.ozaki_products);
        report->ozaki_mantissa_bits = std::max(report->ozaki_mantissa_bits, r.ozaki_mantissa_bits);
      }
    }
    if (report != nullptr) {
      report->trace = std::move(merged);
      finish_report(*report, ReportSettings{s.target});
    }
    return;
  }
  std::vector<blas::MatrixRef> fa, sa;
  std::vector<blas::MutableMatrixRef> da;
  fa.reserve(static_cast<std::size_t>(batch_));
  sa.reserve(static_cast<std::size_t>(batch_));
  da.reserve(static_cast<std::size_t>(batch_));
  const DType dt = core_dtype(spec_.a.dtype);
  for (std::int64_t b = 0; b < batch_; ++b) {
    const auto ub = static_cast<std::size_t>(b);
    fa.push_back({pf + off_f[ub] * es, dt, lf.ld});
    sa.push_back({ps + off_s[ub] * es, dt, ls.ld});
    da.push_back({pd + off_d[ub] * es, dt, low_[2].ld});
  }
  // 16-bit data is exact in its own type: TensorE multiplies it as stored (trnblas's native mode),
  // whichever of the accepted compute descriptors was asked for.
  const blas::GemmMode mode = data_type_size(spec_.a.dtype) == 2 ? blas::GemmMode::native : gemm_mode(spec_.compute);
  blas::gemm_batched(s, mode, lf.op, ls.op, gm, gn, k_, static_cast<float>(alpha.real()), fa, sa,
                     static_cast<float>(beta.real()), da, report);
}

Profile ContractionPlan::estimate(const blas::Settings& settings) const {
  if (spec_.compute == ComputeType::f64)
    throw NotSupportedError("contraction estimate", "a 64F estimate without data (Ozaki slice counts depend on it)", "trntensor");
  if (is_complex(spec_.a.dtype))
    throw NotSupportedError("contraction estimate", "a complex estimate without data (trnblas packs the real representation from it)", "trntensor");
  blas::Settings s = settings;
  s.timing_only = true;
  // Nothing is read or written with timing_only (DMA and GEMM kernels only record instructions);
  // the pointers only have to be non-null. Packing buffers are still carved from a workspace.
  static float dummy[16];
  blas::CallReport r;
  if (m_ == 0 || n_ == 0 || batch_ == 0) return Profile{};
  execute(s, 1.0, dummy, dummy, 0.0, dummy, dummy, nullptr, 0, &r);
  return model_trace(r.trace, ReportSettings{s.target});
}

std::string ContractionPlan::print(const Profile* profile) const {
  std::ostringstream o;
  const bool cplx = is_complex(spec_.a.dtype);
  auto labels = [&](const std::vector<std::int32_t>& m) {
    std::string s;
    for (std::int32_t l : m) {
      if (!s.empty() && !((l >= 'a' && l <= 'z') || (l >= 'A' && l <= 'Z'))) s += ' ';
      s += ((l >= 'a' && l <= 'z') || (l >= 'A' && l <= 'Z')) ? std::string(1, static_cast<char>(l)) : std::to_string(l);
    }
    return s;
  };
  auto operand = [&](const char* name, const OperandLowering& l, bool conj) {
    o << name << ": ";
    if (l.packed)
      o << "packed (" << l.packed_elements << " elements)";
    else
      o << "op " << (l.op == blas::Op::N ? 'N' : conj ? 'C' : 'T') << " ld " << l.ld;
    if (l.packed && l.op == blas::Op::T) o << ", op " << (conj ? 'C' : 'T');
  };
  o << labels(spec_.modes_a) << "," << labels(spec_.modes_b) << "->" << labels(spec_.modes_d) << ": "
    << lowering_name(lowering()) << (swapped_ ? " (D^T = B^T A^T)" : "") << ", " << (cplx ? "C_" : "")
    << compute_type_name(spec_.compute) << (cplx ? " 4M" : "")
    << ", GEMM m=" << m_ << " n=" << n_ << " k=" << k_ << " batch=" << batch_ << "; ";
  operand("A", low_[0], cplx && spec_.conj_a);
  o << "; ";
  operand("B", low_[1], cplx && spec_.conj_b);
  o << "; ";
  operand("D", low_[2], false);
  o << "; " << flops() << " flop";
  if (profile != nullptr)
    o << "; modeled " << hardware_spec(profile->target).name << " " << profile->total_ns * 1e-3 << " us (TensorE "
      << 100.0 * profile->utilization(Engine::tensor) << "% busy)";
  return o.str();
}

}  // namespace trn::tensor
