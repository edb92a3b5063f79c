// trnfft plans: factorisation (DFT-GEMM leaf, four-step, Bluestein), FP64 tables, the pass
// sequence of an execution, plan description and modeled cost. Kernels: kernels.cpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <numeric>
#include <sstream>

#include "fp64.hpp"
#include "kernels.hpp"
#include "trn/core/scratch.hpp"
#include "trn/fft/fft.hpp"

namespace trn::fft {

const char* type_name(Type t) {
  switch (t) {
    case Type::c2c: return "C2C";
    case Type::r2c: return "R2C";
    case Type::c2r: return "C2R";
    case Type::z2z: return "Z2Z";
    case Type::d2z: return "D2Z";
    case Type::z2d: return "Z2D";
  }
  return "?";
}

namespace detail {

std::vector<std::int64_t> stage_radices(std::int64_t n) {
  // Leaf: one DFT-GEMM. Otherwise n = n1 * n2 with n1 <= 128 (the TensorE contraction) and n2
  // factorable in turn: prefer a split with both factors <= 128 and the most balanced (DFT-GEMM
  // error grows ~N^0.4, so two 64s beat 32 x 128), else the largest n1 whose cofactor factors.
  // Empty result: some prime factor exceeds 128 (Bluestein).
  constexpr std::int64_t kLeaf = 128;  // = pmax = gemm_stationary_fmax on every generation (checked in plan)
  if (n <= kLeaf) return {n};
  std::int64_t best = 0;
  for (std::int64_t d = 2; d <= kLeaf; ++d)
    if (n % d == 0 && n / d <= kLeaf && (best == 0 || std::min(d, n / d) > std::min(best, n / best))) best = d;
  if (best != 0) return {std::max(best, n / best), std::min(best, n / best)};
  for (std::int64_t d = kLeaf; d >= 2; --d)
    if (n % d == 0) {
      std::vector<std::int64_t> rest = stage_radices(n / d);
      if (rest.empty()) continue;
      rest.insert(rest.begin(), d);
      return rest;
    }
  return {};
}

}  // namespace detail

using detail::BatchDim;
using detail::DftMatrix;
using detail::PlaneView;

namespace {

constexpr double kU32 = 0x1p-24;  // fp32 unit roundoff
constexpr double kUbf16 = 0x1p-8;  // bf16 unit roundoff

std::int64_t bluestein_length(std::int64_t n) {
  std::int64_t m = 1;
  while (m < 2 * n - 1) m *= 2;
  return m;
}

// One 1-D transform length and how it is computed.
struct Node {
  enum Kind { leaf, four_step, bluestein } kind = leaf;
  std::int64_t n = 0;
  std::int64_t n1 = 0, n2 = 0;  // four-step: n = n1 * n2, first stage length n1
  std::unique_ptr<Node> sub;    // four-step: length n2; Bluestein: length m
  // Four-step twiddles per sign (index 0: forward -1, 1: inverse +1): [n1 rows k1, n2 cols], fp32.
  std::vector<float> tw_re[2], tw_im[2];
  // Bluestein: padded length m, chirp c[j] = exp(sign pi i j^2 / n), and FFT_m(conj chirp, wrapped)/m.
  std::int64_t m = 0;
  std::vector<float> chirp_re[2], chirp_im[2], bhat_re[2], bhat_im[2];
};

int sign_index(int sign) { return sign < 0 ? 0 : 1; }

}  // namespace

struct Plan::Impl {
  PlanSpec spec;
  Settings settings;
  std::vector<std::unique_ptr<Node>> dims;  // per dimension
  // DFT matrices and their storage. Built at plan time (stack 1); block-diagonal stacks are added
  // on first use by an execution, under table_mu (map nodes never move, so references stay valid).
  mutable std::mutex table_mu;
  mutable std::vector<std::vector<std::uint8_t>> storage;
  mutable std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, int, int, Mode, int>, DftMatrix> matrices;
  // Twiddle tables with their rows repeated for a stack: (source table, stack) -> (re, im).
  mutable std::map<std::pair<const float*, int>, std::pair<std::vector<float>, std::vector<float>>> stacked_twiddles;
  // four_step_pass twiddle tiles: (source table, s1, s2) -> [s2 n2][s1 n1] re, then im, in one
  // array (the pass loads both planes with one DMA).
  mutable std::map<std::tuple<const float*, int, int>, std::vector<float>> fused_twiddles;
  std::unique_ptr<detail::Fp64Transform> fp64;  // Z2Z / D2Z / Z2D
  mutable std::mutex model_mu;
  mutable double model_ns = -1;
  mutable Profile model_profile{};
  mutable std::size_t scratch_bytes = 0;

  // The settings' launch (target, numerics, SR, cores, threads); execute: false for the timing-only
  // dry run of modeled_ns, whatever the settings say.
  LaunchConfig launch_config(bool execute) const {
    LaunchConfig lc = settings.launch_config();
    lc.core.execute = execute;
    return lc;
  }

  // rows x cols DFT matrix of `length`, `stack` copies on the diagonal. Row scaling: kScaleC2R, the
  // C2R half-spectrum weights c_k (1 at k = 0 and k = length/2, else 2); kScaleTwice, every row
  // times 2 (the resident C2R four-step, which halves its two c_k = 1 inputs instead). Exact: the
  // FP64 value is scaled before the one rounding, and by a power of two.
  static constexpr int kScaleNone = 0, kScaleC2R = 1, kScaleTwice = 2;
  const DftMatrix& matrix(std::int64_t length, std::int64_t rows, std::int64_t cols, int sign, int scaling,
                          Mode mode, int stack = 1) const {
    std::lock_guard<std::mutex> lock(table_mu);
    auto key = std::make_tuple(length, rows, cols, sign, scaling, mode, stack);
    auto it = matrices.find(key);
    if (it != matrices.end()) return it->second;
    std::vector<double> scale;
    for (std::int64_t k = 0; scaling != kScaleNone && k < rows; ++k)
      scale.push_back(scaling == kScaleTwice || !(k == 0 || 2 * k == length) ? 2.0 : 1.0);
    return matrices.emplace(key, detail::make_dft_matrix(length, rows, cols, sign, mode, scale, storage, stack))
        .first->second;
  }

  struct Ctx;
  // One DFT-GEMM pass of block size rows x cols. When a batch dimension holds whole transforms
  // back to back on both sides (in_dist = rows * in.stride, out_dist = cols * out.stride), `stack`
  // of them share the partitions with a block-diagonal matrix: a radix-r stage then fills
  // stack * r of the 128 rows and columns of the PE array instead of r, and the twiddle multiply
  // and PSUM evacuation cover stack times more data per VectorE instruction. Values (hence bits)
  // are unchanged: the off-block zeros add exact zeros to the fp32 sums.
  void dft(Ctx& cx, detail::DftPassArgs a, std::int64_t length, std::int64_t rows, std::int64_t cols, int sign,
           bool c2r_scaled) const;
  // A four-step node whose second stage is a leaf, as one four_step_pass (both stages resident in
  // SBUF) when the batch is one dimension and the mode is fp32 or bf16; false: not applicable.
  // out_len (0: all n): elements of each output transform stored (R2C: n/2 + 1). in_len (0: all n):
  // a C2R half spectrum of in_len elements, weighted by c_k and zero-padded to n on the way in.
  bool fused_four_step(Ctx& cx, const Node& node, PlaneView in, PlaneView out, const std::vector<BatchDim>& batch,
                       int sign, std::int64_t out_len = 0, std::int64_t in_len = 0) const;

  std::unique_ptr<Node> build(std::int64_t n, bool need_fwd, bool need_inv);
  void finish_bluestein(Node& node, bool need_fwd, bool need_inv);

  // ---- execution ----
  struct Ctx {
    LaunchConfig lc;
    Trace trace;
    // The working planes are traced (HBM): blocks of the scratch stack, not heap blocks whose
    // addresses depend on malloc's history (docs/cost-model.md section 2, "Scratch addresses").
    // Not zero-filled: every plane is written before it is read.
    struct ScratchRelease {
      void operator()(float* p) const noexcept { trn::detail::scratch_release(p); }
    };
    std::vector<std::unique_ptr<float[], ScratchRelease>> scratch;
    std::size_t scratch_bytes = 0;
    Mode mode;
    float* alloc(std::int64_t floats) {
      scratch.emplace_back(static_cast<float*>(trn::detail::scratch_allocate(static_cast<std::size_t>(floats) * sizeof(float))));
      scratch_bytes += static_cast<std::size_t>(floats) * sizeof(float);
      return scratch.back().get();
    }
  };
  void run(Ctx& cx, const Node& node, PlaneView in, PlaneView out, const std::vector<BatchDim>& batch, int sign) const;
  void execute(Ctx& cx, const void* in, void* out, int direction) const;
  // execute() on the user's arrays in their storage type: 16-bit storage runs on fp32 copies that
  // DMA passes convert in and out (the output's copy starts as the output, so that elements outside
  // the layout are written back unchanged).
  void execute_stored(Ctx& cx, const void* in, void* out, int direction, std::int64_t in_span, std::int64_t out_span) const;
};

namespace {
std::int64_t batch_total(const std::vector<BatchDim>& b) {
  std::int64_t t = 1;
  for (const BatchDim& d : b) t *= d.count;
  return t;
}
// The batch dims with input distances replaced by a dense layout of `len`-element transforms.
std::vector<BatchDim> dense_in(std::vector<BatchDim> b, std::int64_t len) {
  std::int64_t dist = len;
  for (std::size_t i = b.size(); i-- > 0;) {
    b[i].in_dist = dist;
    dist *= b[i].count;
  }
  return b;
}
std::vector<BatchDim> dense_out(std::vector<BatchDim> b, std::int64_t len) {
  std::int64_t dist = len;
  for (std::size_t i = b.size(); i-- > 0;) {
    b[i].out_dist = dist;
    dist *= b[i].count;
  }
  return b;
}
}  // namespace

std::unique_ptr<Node> Plan::Impl::build(std::int64_t n, bool need_fwd, bool need_inv) {
  auto node = std::make_unique<Node>();
  node->n = n;
  const std::vector<std::int64_t> radices = detail::stage_radices(n);
  const int signs[2] = {-1, 1};
  const bool need[2] = {need_fwd, need_inv};
  if (radices.size() == 1) {
    node->kind = Node::leaf;
    for (int s = 0; s < 2; ++s)
      if (need[s]) matrix(n, n, n, signs[s], kScaleNone, spec.mode);
    return node;
  }
  if (!radices.empty()) {
    node->kind = Node::four_step;
    node->n1 = radices[0];
    node->n2 = n / radices[0];
    for (int s = 0; s < 2; ++s) {
      if (!need[s]) continue;
      matrix(node->n1, node->n1, node->n1, signs[s], kScaleNone, spec.mode);
      detail::four_step_twiddles(node->n1, node->n2, signs[s], node->tw_re[s], node->tw_im[s]);
    }
    node->sub = build(node->n2, need_fwd, need_inv);
    return node;
  }
  node->kind = Node::bluestein;
  node->m = bluestein_length(n);
  node->sub = build(node->m, true, true);
  finish_bluestein(*node, need_fwd, need_inv);
  return node;
}

void Plan::Impl::finish_bluestein(Node& node, bool need_fwd, bool need_inv) {
  const std::int64_t n = node.n, m = node.m;
  const int signs[2] = {-1, 1};
  const bool need[2] = {need_fwd, need_inv};
  for (int s = 0; s < 2; ++s) {
    if (!need[s]) continue;
    auto& cr = node.chirp_re[s];
    auto& ci = node.chirp_im[s];
    cr.resize(static_cast<std::size_t>(n));
    ci.resize(static_cast<std::size_t>(n));
    std::vector<float> br(static_cast<std::size_t>(m), 0.0f), bi(static_cast<std::size_t>(m), 0.0f);
    for (std::int64_t j = 0; j < n; ++j) {
      // exp(sign pi i j^2 / n) = root of unity of order 2n at index j^2 mod 2n (exact integers).
      const std::int64_t idx = static_cast<std::int64_t>((static_cast<unsigned __int128>(j) * j) % static_cast<unsigned __int128>(2 * n));
      double c = 0, si = 0;
      detail::unit_root(idx, 2 * n, signs[s], &c, &si);
      cr[static_cast<std::size_t>(j)] = static_cast<float>(c);
      ci[static_cast<std::size_t>(j)] = static_cast<float>(si);
      // b = conj(chirp) / m, wrapped; m is a power of two so the scaling is exact.
      const float vr = static_cast<float>(c / static_cast<double>(m)), vi = static_cast<float>(-si / static_cast<double>(m));
      br[static_cast<std::size_t>(j)] = vr;
      bi[static_cast<std::size_t>(j)] = vi;
      if (j > 0) {
        br[static_cast<std::size_t>(m - j)] = vr;
        bi[static_cast<std::size_t>(m - j)] = vi;
      }
    }
    // bhat = FFT_m(b) on the engines (plan time, fp32 mode regardless of the plan's mode).
    node.bhat_re[s].assign(static_cast<std::size_t>(m), 0.0f);
    node.bhat_im[s].assign(static_cast<std::size_t>(m), 0.0f);
    Ctx cx{launch_config(true), {}, {}, 0, Mode::fp32};
    // The sub-plan's matrices were built for spec.mode; the fp32 ones are built here.
    const Mode plan_mode = spec.mode;
    spec.mode = Mode::fp32;
    std::unique_ptr<Node> fp32_sub = build(m, true, false);
    run(cx, *fp32_sub, PlaneView{br.data(), bi.data(), 1}, PlaneView{node.bhat_re[s].data(), node.bhat_im[s].data(), 1},
        {}, -1);
    spec.mode = plan_mode;
  }
}

void Plan::Impl::dft(Ctx& cx, detail::DftPassArgs a, std::int64_t length, std::int64_t rows, std::int64_t cols,
                     int sign, bool c2r_scaled) const {
  const HardwareSpec& hw = hardware_spec(settings.target);
  int stack = 1;
  std::size_t dim = 0;
  for (std::size_t d = 0; d < a.batch.size(); ++d) {
    if (a.tw_re != nullptr && d + 1 == a.batch.size()) continue;  // the twiddle's column index stays a free dim
    const BatchDim& b = a.batch[d];
    if (b.in_dist != rows * a.in.stride || b.out_dist != cols * a.out.stride) continue;
    const std::int64_t most = std::min<std::int64_t>(hw.pmax / rows, hw.gemm_stationary_fmax / cols);
    for (std::int64_t s = most; s > stack; --s)
      if (b.count % s == 0) {
        stack = static_cast<int>(s);
        dim = d;
        break;
      }
  }
  if (stack > 1) {
    a.batch[dim].count /= stack;
    a.batch[dim].in_dist *= stack;
    a.batch[dim].out_dist *= stack;
  }
  a.matrix = &matrix(length, rows, cols, sign, c2r_scaled ? kScaleC2R : kScaleNone, cx.mode, stack);
  a.mode = cx.mode;
  if (a.tw_re != nullptr && stack > 1) {
    std::lock_guard<std::mutex> lock(table_mu);
    auto& t = stacked_twiddles[{a.tw_re, stack}];
    if (t.first.empty()) {
      const std::size_t block = static_cast<std::size_t>(cols * a.tw_cols);
      for (int s = 0; s < stack; ++s) {
        t.first.insert(t.first.end(), a.tw_re, a.tw_re + block);
        t.second.insert(t.second.end(), a.tw_im, a.tw_im + block);
      }
    }
    a.tw_re = t.first.data();
    a.tw_im = t.second.data();
  }
  cx.trace.append(detail::dft_pass(cx.lc, a));
}

bool Plan::Impl::fused_four_step(Ctx& cx, const Node& node, PlaneView in, PlaneView out,
                                 const std::vector<BatchDim>& batch, int sign, std::int64_t out_len,
                                 std::int64_t in_len) const {
  if (node.kind != Node::four_step || node.sub->kind != Node::leaf) return false;
  const std::int64_t n = node.n, n1 = node.n1, n2 = node.n2;
  // The batch as at most two dimensions (outer, inner): nested dimensions merge, from the innermost.
  BatchDim dims[2] = {{1, n * in.stride, n * out.stride}, {1, 0, 0}};
  int used = 0;
  for (std::size_t i = batch.size(); i-- > 0;) {
    const BatchDim& d = batch[i];
    if (d.count == 1) continue;
    BatchDim& cur = dims[used == 0 ? 0 : used - 1];
    if (used > 0 && d.in_dist == cur.count * cur.in_dist && d.out_dist == cur.count * cur.out_dist) {
      cur.count *= d.count;
    } else if (used < 2) {
      dims[used++] = d;
    } else {
      return false;
    }
  }
  const BatchDim one = dims[0], outer = used == 2 ? dims[1] : BatchDim{1, 0, 0};
  // A group stores its transforms after loading them, so in place is safe when both sides are the
  // same layout; any other overlap of input and output is left to the scratch-buffered passes.
  auto span = [&](const PlaneView& v, std::int64_t dist, std::int64_t odist, std::int64_t len) {
    const float* lo = v.im != nullptr ? std::min(v.re, v.im) : v.re;
    const float* hi = (v.im != nullptr ? std::max(v.re, v.im) : v.re) + (one.count - 1) * dist +
                      (outer.count - 1) * odist + ((len > 0 ? len : n) - 1) * v.stride + 1;
    return std::make_pair(lo, hi);
  };
  const bool same = in.re == out.re && in.im == out.im && in.stride == out.stride && one.in_dist == one.out_dist &&
                    outer.in_dist == outer.out_dist && in_len == 0 && out_len == 0;
  const auto si = span(in, one.in_dist, outer.in_dist, in_len), so = span(out, one.out_dist, outer.out_dist, out_len);
  if (!same && si.first < so.second && so.first < si.second) return false;
  const HardwareSpec& hw = hardware_spec(settings.target);
  auto largest_divisor = [](std::int64_t c, std::int64_t most) {
    for (std::int64_t s = std::min(c, most); s > 1; --s)
      if (c % s == 0) return static_cast<int>(s);
    return 1;
  };
  const int s1 = largest_divisor(one.count, hw.pmax / n1);
  const int s2 = largest_divisor(one.count / s1, std::min(hw.pmax, hw.gemm_stationary_fmax) / n2);
  const int si_ = sign_index(sign);
  const std::int64_t cols = s1 * n1;
  const std::int64_t tw_plane = s2 * n2 * cols;
  const std::vector<float>* tw = nullptr;
  {
    std::lock_guard<std::mutex> lock(table_mu);
    auto& t = fused_twiddles[{node.tw_re[si_].data(), s1, s2}];
    if (t.empty()) {
      // Row (t2, j2), column (t1, k1): w_N^(k1 j2) from the FP64-rounded table [k1][j2]; the
      // imaginary plane follows the real one.
      const std::int64_t rows = s2 * n2;
      t.resize(static_cast<std::size_t>(2 * tw_plane));
      for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c) {
          const std::size_t from = static_cast<std::size_t>((c % n1) * n2 + r % n2), to = static_cast<std::size_t>(r * cols + c);
          t[to] = node.tw_re[si_][from];
          t[to + static_cast<std::size_t>(tw_plane)] = node.tw_im[si_][from];
        }
    }
    tw = &t;
  }
  const detail::FourStepPassArgs a{.f1 = &matrix(n1, n1, n1, sign, in_len > 0 ? kScaleTwice : kScaleNone, cx.mode, s1),
                                   .f2 = &matrix(n2, n2, n2, sign, kScaleNone, cx.mode, s2),
                                   .mode = cx.mode, .n1 = n1, .n2 = n2, .s1 = s1, .s2 = s2, .in = in, .out = out,
                                   .count = one.count, .in_dist = one.in_dist, .out_dist = one.out_dist,
                                   .outer_count = outer.count, .outer_in_dist = outer.in_dist,
                                   .outer_out_dist = outer.out_dist, .out_len = out_len, .in_len = in_len, .tw_re = tw->data(), .tw_im = tw->data() + tw_plane};
  cx.trace.append(detail::four_step_pass(cx.lc, a));
  return true;
}

void Plan::Impl::run(Ctx& cx, const Node& node, PlaneView in, PlaneView out, const std::vector<BatchDim>& batch,
                     int sign) const {
  const int si = sign_index(sign);
  if (node.kind == Node::leaf) {
    detail::DftPassArgs a;
    a.in = in;
    a.out = out;
    a.batch = batch;
    dft(cx, a, node.n, node.n, node.n, sign, false);
    return;
  }
  const std::int64_t total = batch_total(batch);
  if (node.kind == Node::four_step) {
    if (fused_four_step(cx, node, in, out, batch, sign)) return;
    const std::int64_t n = node.n, n1 = node.n1, n2 = node.n2;
    float* y = cx.alloc(2 * total * n);
    const PlaneView yv{y, y + total * n, 1};
    // Stage 1: length-n1 DFTs down the columns of x viewed as [n1][n2] (element stride n2), for every
    // column n2 (innermost batch), twiddled by w_N^{k1 n2}; y = [transform][k1][n2] dense.
    detail::DftPassArgs a;
    a.in = PlaneView{in.re, in.im, in.stride * n2};
    a.out = PlaneView{yv.re, yv.im, n2};
    a.batch = dense_out(batch, n);
    a.batch.push_back(BatchDim{n2, in.stride, 1});
    a.tw_re = node.tw_re[si].data();
    a.tw_im = node.tw_im[si].data();
    a.tw_cols = n2;
    dft(cx, a, n1, n1, n1, sign, false);
    // Stage 2: length-n2 transforms along the rows of y; X[k1 + n1 k2] (element stride n1 * stride).
    std::vector<BatchDim> b2 = dense_in(batch, n);
    b2.push_back(BatchDim{n1, n2, out.stride});
    const HardwareSpec& hw = hardware_spec(settings.target);
    if (node.sub->kind != Node::leaf || 2 * n2 > hw.pmax) {
      run(cx, *node.sub, yv, PlaneView{out.re, out.im, out.stride * n1}, b2, sign);
      return;
    }
    // A small last radix writes [transform][k1][k2] densely instead, so that its DFT-GEMM can stack
    // rows of y on the partitions, and a DMA-only pass stores the transpose X[k1 + n1 k2]: more DMA
    // traffic, stack-fold fewer matmuls and PSUM evacuations.
    float* z = cx.alloc(2 * total * n);
    const PlaneView zv{z, z + total * n, 1};
    std::vector<BatchDim> bz = dense_out(dense_in(batch, n), n);
    bz.push_back(BatchDim{n1, n2, n2});
    run(cx, *node.sub, yv, zv, bz, sign);
    // The copy may put any axis on the partitions: the largest one, so that the DMAs span as many
    // partitions (hence DMA queues, 8 partitions each) as possible.
    std::vector<BatchDim> axes = b2;
    for (std::size_t i = 0; i < bz.size(); ++i) axes[i].in_dist = bz[i].out_dist;  // z's distances
    axes.push_back(BatchDim{n2, 1, out.stride * n1});                              // k2
    std::size_t part = 0;
    for (std::size_t i = 1; i < axes.size(); ++i)
      if (axes[i].count > axes[part].count) part = i;
    detail::DiagPassArgs t;
    t.in_len = axes[part].count;
    t.out_len = axes[part].count;
    t.in = PlaneView{zv.re, zv.im, axes[part].in_dist};
    t.out = PlaneView{out.re, out.im, axes[part].out_dist};
    axes.erase(axes.begin() + static_cast<std::ptrdiff_t>(part));
    t.batch = axes;
    cx.trace.append(detail::diag_pass(cx.lc, t));
    return;
  }
  // Bluestein: a = x * chirp (zero padded to m), A = FFT_m(a), A *= bhat, a = IFFT_m(A), X = chirp * a.
  const std::int64_t n = node.n, m = node.m;
  float* s = cx.alloc(2 * total * m);
  const PlaneView sv{s, s + total * m, 1};
  const std::vector<BatchDim> dense = dense_in(dense_out(batch, m), m);
  detail::DiagPassArgs d;
  d.in_len = n;
  d.out_len = m;
  d.t_re = node.chirp_re[si].data();
  d.t_im = node.chirp_im[si].data();
  d.in = in;
  d.out = sv;
  d.batch = dense_out(batch, m);
  cx.trace.append(detail::diag_pass(cx.lc, d));
  run(cx, *node.sub, sv, sv, dense, -1);
  detail::DiagPassArgs p;
  p.in_len = m;
  p.out_len = m;
  p.t_re = node.bhat_re[si].data();
  p.t_im = node.bhat_im[si].data();
  p.in = sv;
  p.out = sv;
  p.batch = dense;
  cx.trace.append(detail::diag_pass(cx.lc, p));
  run(cx, *node.sub, sv, sv, dense, 1);
  detail::DiagPassArgs e;
  e.in_len = n;
  e.out_len = n;
  e.t_re = node.chirp_re[si].data();
  e.t_im = node.chirp_im[si].data();
  e.in = sv;
  e.out = out;
  e.batch = dense_in(batch, m);
  cx.trace.append(detail::diag_pass(cx.lc, e));
}

// ---- layouts ---------------------------------------------------------------------------------------

namespace {

struct SideLayout {
  std::vector<std::int64_t> embed;  // per dimension (embed[0] only for spans)
  std::int64_t stride = 1, dist = 0;
  std::vector<std::int64_t> axis_stride;  // elements between neighbours along each axis
};

// n_side: the logical sizes of this side (R2C complex side / C2R input: last = n/2 + 1).
SideLayout side_layout(const Layout& l, const std::vector<std::int64_t>& n_side, std::int64_t natural_last) {
  SideLayout s;
  const std::size_t d = n_side.size();
  if (l.embed.empty()) {
    s.embed = n_side;
    s.embed[d - 1] = natural_last;
    s.stride = 1;
    s.dist = std::accumulate(s.embed.begin(), s.embed.end(), std::int64_t{1}, std::multiplies<>());
  } else {
    s.embed = l.embed;
    s.stride = l.stride;
    s.dist = l.dist;
  }
  s.axis_stride.assign(d, 0);
  // embed[0] only bounds the outermost axis, which cuFFT ignores: it never enters a stride (nor the C
  // shim's span check), so it is not multiplied in — an arbitrary embed[0] would overflow `acc`.
  std::int64_t acc = s.stride;
  for (std::size_t i = d; i-- > 0;) {
    s.axis_stride[i] = acc;
    if (i > 0) acc *= s.embed[i];
  }
  return s;
}

bool is_real_in(Type t) { return t == Type::r2c; }
bool is_real_out(Type t) { return t == Type::c2r; }

}  // namespace

void Plan::Impl::execute(Ctx& cx, const void* in_ptr, void* out_ptr, int direction) const {
  const std::vector<std::int64_t>& n = spec.n;
  const std::size_t d = n.size();
  const std::int64_t last = n[d - 1], half = last / 2 + 1;
  const bool in_place = in_ptr == out_ptr;
  std::vector<std::int64_t> n_in = n, n_out = n;
  if (spec.type == Type::r2c) n_out[d - 1] = half;
  if (spec.type == Type::c2r) n_in[d - 1] = half;
  const std::int64_t in_nat = spec.type == Type::r2c && in_place ? 2 * half : n_in[d - 1];
  const std::int64_t out_nat = spec.type == Type::c2r && in_place ? 2 * half : n_out[d - 1];
  const SideLayout li = side_layout(spec.in, n_in, in_nat), lo = side_layout(spec.out, n_out, out_nat);
  // Float views: complex sides are interleaved (re at 2e, im at 2e + 1).
  const int fi = is_real_in(spec.type) ? 1 : 2, fo = is_real_out(spec.type) ? 1 : 2;
  float* ib = const_cast<float*>(static_cast<const float*>(in_ptr));
  float* ob = static_cast<float*>(out_ptr);
  const PlaneView in_view{ib, fi == 2 ? ib + 1 : nullptr, 0};
  const PlaneView out_view{ob, fo == 2 ? ob + 1 : nullptr, 0};
  // Batch dims of a pass along `axis` over sizes `sizes`: the batch, then every other axis.
  auto dims_for = [&](std::size_t axis, const std::vector<std::int64_t>& sizes, const SideLayout& a, int fa,
                      const SideLayout& b, int fb) {
    std::vector<BatchDim> v;
    v.push_back(BatchDim{spec.batch, a.dist * fa, b.dist * fb});
    for (std::size_t i = 0; i < d; ++i)
      if (i != axis) v.push_back(BatchDim{sizes[i], a.axis_stride[i] * fa, b.axis_stride[i] * fb});
    return v;
  };
  const int sign = spec.type == Type::r2c ? -1 : spec.type == Type::c2r ? 1 : direction;
  auto with_stride = [](PlaneView v, std::int64_t s) {
    v.stride = s;
    return v;
  };
  auto leaf_pass = [&](std::int64_t rows, std::int64_t cols, int s, bool scaled, PlaneView a, PlaneView b,
                       std::vector<BatchDim> batch) {
    detail::DftPassArgs p;
    p.in = a;
    p.out = b;
    p.batch = std::move(batch);
    dft(cx, p, last, rows, cols, s, scaled);
  };
  if (spec.type == Type::c2c) {
    const std::size_t ax0 = d - 1;
    run(cx, *dims[ax0], with_stride(in_view, li.axis_stride[ax0] * 2), with_stride(out_view, lo.axis_stride[ax0] * 2),
        dims_for(ax0, n, li, 2, lo, 2), sign);
    for (std::size_t ax = d - 1; ax-- > 0;)
      run(cx, *dims[ax], with_stride(out_view, lo.axis_stride[ax] * 2), with_stride(out_view, lo.axis_stride[ax] * 2),
          dims_for(ax, n, lo, 2, lo, 2), sign);
    return;
  }
  const std::size_t ax_last = d - 1;
  const Node& lastn = *dims[ax_last];
  if (spec.type == Type::r2c) {
    const PlaneView a = with_stride(in_view, li.axis_stride[ax_last]);
    const PlaneView b = with_stride(out_view, lo.axis_stride[ax_last] * 2);
    std::vector<BatchDim> bd = dims_for(ax_last, n_out, li, 1, lo, 2);
    if (lastn.kind == Node::leaf) {
      leaf_pass(last, half, -1, false, a, b, bd);
    } else if (!fused_four_step(cx, lastn, a, b, bd, -1, half)) {
      const std::int64_t total = batch_total(bd);
      float* s = cx.alloc(2 * total * last);
      const PlaneView sv{s, s + total * last, 1};
      run(cx, lastn, a, sv, dense_out(bd, last), -1);
      detail::DiagPassArgs c;
      c.in_len = last;
      c.out_len = half;
      c.in = sv;
      c.out = b;
      c.batch = dense_in(bd, last);
      cx.trace.append(detail::diag_pass(cx.lc, c));
    }
    for (std::size_t ax = d - 1; ax-- > 0;)
      run(cx, *dims[ax], with_stride(out_view, lo.axis_stride[ax] * 2), with_stride(out_view, lo.axis_stride[ax] * 2),
          dims_for(ax, n_out, lo, 2, lo, 2), -1);
    return;
  }
  // C2R: complex passes over the leading axes into a dense scratch copy (the input is never
  // modified), then the half-spectrum transform of the last axis into the real output.
  PlaneView src = with_stride(in_view, li.axis_stride[ax_last] * 2);
  SideLayout ls = li;
  int fs = 2;
  if (d > 1) {
    const std::int64_t total = spec.batch * std::accumulate(n_in.begin(), n_in.end(), std::int64_t{1}, std::multiplies<>());
    float* s = cx.alloc(2 * total);
    // Dense scratch planes [batch][n_in...]: interleaving not needed, so re and im are separate planes.
    SideLayout dense;
    dense.embed = n_in;
    dense.stride = 1;
    dense.dist = total / spec.batch;
    dense.axis_stride.assign(d, 0);
    std::int64_t acc = 1;
    for (std::size_t i = d; i-- > 0;) {
      dense.axis_stride[i] = acc;
      acc *= n_in[i];
    }
    const PlaneView sv{s, s + total, 0};
    for (std::size_t ax = d - 1; ax-- > 0;) {
      const bool first = ax == d - 2;
      run(cx, *dims[ax], first ? with_stride(in_view, li.axis_stride[ax] * 2) : with_stride(sv, dense.axis_stride[ax]),
          with_stride(sv, dense.axis_stride[ax]), first ? dims_for(ax, n_in, li, 2, dense, 1) : dims_for(ax, n_in, dense, 1, dense, 1),
          1);
    }
    src = with_stride(sv, dense.axis_stride[ax_last]);
    ls = dense;
    fs = 1;
  }
  const PlaneView b = with_stride(out_view, lo.axis_stride[ax_last]);
  std::vector<BatchDim> bd = dims_for(ax_last, n_in, ls, fs, lo, 1);
  if (lastn.kind == Node::leaf) {
    leaf_pass(half, last, 1, true, src, b, bd);
    return;
  }
  if (fused_four_step(cx, lastn, src, b, bd, 1, 0, half)) return;
  // Z = c_k X_k (c = 1 at k = 0 and n/2, else 2; exact), zero above n/2; x = Re(IDFT(Z)).
  const std::int64_t total = batch_total(bd);
  float* z = cx.alloc(2 * total * last);
  const PlaneView zv{z, z + total * last, 1};
  ScratchVector<float> w_re(static_cast<std::size_t>(half)), w_im(static_cast<std::size_t>(half), 0.0f);  // traced
  for (std::int64_t k = 0; k < half; ++k) w_re[static_cast<std::size_t>(k)] = (k == 0 || 2 * k == last) ? 1.0f : 2.0f;
  detail::DiagPassArgs c;
  c.in_len = half;
  c.out_len = last;
  c.t_re = w_re.data();
  c.t_im = w_im.data();
  c.in = src;
  c.out = zv;
  c.batch = dense_out(bd, last);
  cx.trace.append(detail::diag_pass(cx.lc, c));
  run(cx, lastn, zv, b, dense_in(bd, last), 1);
}

void Plan::Impl::execute_stored(Ctx& cx, const void* in, void* out, int direction, std::int64_t in_span,
                                std::int64_t out_span) const {
  if (spec.storage == DType::f32) return execute(cx, in, out, direction);
  const std::int64_t in_n = in_span * (spec.type == Type::r2c ? 1 : 2), out_n = out_span * (spec.type == Type::c2r ? 1 : 2);
  const bool in_place = in == out;
  float* si = cx.alloc(in_place ? std::max(in_n, out_n) : in_n);
  float* so = in_place ? si : cx.alloc(out_n);
  cx.trace.append(detail::convert_pass(cx.lc, in, spec.storage, si, DType::f32, in_place ? std::max(in_n, out_n) : in_n));
  if (!in_place) cx.trace.append(detail::convert_pass(cx.lc, out, spec.storage, so, DType::f32, out_n));
  execute(cx, si, so, direction);
  cx.trace.append(detail::convert_pass(cx.lc, so, DType::f32, out, spec.storage, in_place ? std::max(in_n, out_n) : out_n));
}

// ---- Plan ----------------------------------------------------------------------------------------

namespace {
void require(bool ok, const char* what, const std::string& detail) {
  if (!ok) throw UsageError("trnfft plan", what, detail);
}
}  // namespace

Plan::Plan(const PlanSpec& spec, const Settings& settings) : impl_(std::make_unique<Impl>()) {
  Impl& p = *impl_;
  p.spec = spec;
  p.settings = settings;
  const std::size_t d = spec.n.size();
  require(d >= 1 && d <= 3, "rank", "rank must be 1, 2 or 3 (got " + std::to_string(d) + ")");
  for (std::int64_t v : spec.n)
    require(v >= 1 && v <= kMaxDimension, "n", "size " + std::to_string(v) + " outside [1, 2^27]");
  require(spec.batch >= 1, "batch", "batch must be >= 1");
  std::int64_t points = spec.batch;
  for (std::int64_t v : spec.n)
    require(!__builtin_mul_overflow(points, v, &points) && points <= kMaxPoints, "batch",
            "batch x the product of the sizes exceeds 2^24 points");
  const bool fp64 = spec.type == Type::z2z || spec.type == Type::d2z || spec.type == Type::z2d;
  if (fp64 && spec.mode != Mode::fp32 && spec.mode != Mode::fp64_ozaki)
    throw NotSupportedError("trnfft plan", std::string("precision mode ") + blas::gemm_mode_name(spec.mode) + " for " +
                                               type_name(spec.type) + " (FP64 types run the Ozaki path)",
                            "any target");
  require(spec.storage == DType::f32 || (!fp64 && (spec.storage == DType::f16 || spec.storage == DType::bf16)), "storage",
          "storage must be f32, or f16 / bf16 for C2C, R2C and C2R");
  if (!fp64 && spec.mode != Mode::fp32 && spec.mode != Mode::bf16 && spec.mode != Mode::bf16x3)
    throw NotSupportedError("trnfft plan", std::string("precision mode ") + blas::gemm_mode_name(spec.mode), "any target");
  const HardwareSpec& hw = hardware_spec(settings.target);
  require(hw.pmax >= 128 && hw.gemm_stationary_fmax >= 128, "target", "DFT-GEMM leaves need 128 x 128 stationary tiles");
  for (const Layout* l : {&spec.in, &spec.out})
    if (!l->embed.empty()) {
      require(l->embed.size() == d, "embed", "embed rank differs from the transform rank");
      require(l->stride >= 1 && l->dist >= 0, "stride/dist", "stride must be >= 1 and dist >= 0");
      for (std::size_t i = 1; i < d; ++i) require(l->embed[i] >= 1, "embed", "embed entries must be >= 1");
    }
  if (fp64) {
    p.spec.mode = Mode::fp64_ozaki;
    p.fp64 = std::make_unique<detail::Fp64Transform>(p.spec, settings);
    return;
  }
  const std::int64_t last = spec.n[d - 1], half = last / 2 + 1;
  for (std::size_t i = 0; i < d; ++i) {
    const bool is_last = i == d - 1;
    bool fwd = spec.type == Type::c2c || spec.type == Type::r2c;
    bool inv = spec.type == Type::c2c || spec.type == Type::c2r;
    if (is_last && spec.type == Type::r2c) {
      if (detail::stage_radices(last).size() == 1) {
        p.matrix(last, last, half, -1, Impl::kScaleNone, spec.mode);
        p.dims.push_back(std::make_unique<Node>());
        p.dims.back()->kind = Node::leaf;
        p.dims.back()->n = last;
        continue;
      }
    }
    if (is_last && spec.type == Type::c2r) {
      if (detail::stage_radices(last).size() == 1) {
        p.matrix(last, half, last, 1, Impl::kScaleC2R, spec.mode);
        p.dims.push_back(std::make_unique<Node>());
        p.dims.back()->kind = Node::leaf;
        p.dims.back()->n = last;
        continue;
      }
    }
    p.dims.push_back(p.build(spec.n[i], fwd, inv));
  }
}

Plan::~Plan() = default;
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;

const PlanSpec& Plan::spec() const { return impl_->spec; }

void Plan::execute(const void* in, void* out, int direction, ExecReport* report) const {
  if (in == nullptr || out == nullptr) throw UsageError("trnfft execute", "data", "NULL data pointer");
  if ((impl_->spec.type == Type::c2c || impl_->spec.type == Type::z2z) && direction != kForward && direction != kInverse)
    throw UsageError("trnfft execute", "direction", "direction must be -1 (forward) or +1 (inverse)");
  Impl::Ctx cx{impl_->launch_config(true), {}, {}, 0, impl_->spec.mode};
  if (impl_->fp64)
    impl_->fp64->execute(in, out, direction, &cx.trace);
  else
    impl_->execute_stored(cx, in, out, direction, input_span(in == out), output_span(in == out));
  if (report != nullptr) {
    *report = ExecReport{};
    report->add_plan(print_stages());
    report->tensor_passes = cx.trace.per_engine[static_cast<int>(Engine::tensor)];
    finish_report(*report, std::move(cx.trace), ReportSettings{impl_->settings.target});
  }
}

std::int64_t Plan::input_span(bool in_place) const {
  const PlanSpec& s = impl_->spec;
  const std::size_t d = s.n.size();
  std::vector<std::int64_t> n_in = s.n;
  const std::int64_t half = s.n[d - 1] / 2 + 1;
  if (s.type == Type::c2r || s.type == Type::z2d) n_in[d - 1] = half;
  const std::int64_t nat = (s.type == Type::r2c || s.type == Type::d2z) && in_place ? 2 * half : n_in[d - 1];
  const SideLayout l = side_layout(s.in, n_in, nat);
  std::int64_t span = (s.batch - 1) * l.dist + 1;
  for (std::size_t i = 0; i < d; ++i) span += (n_in[i] - 1) * l.axis_stride[i];
  if (s.in.embed.empty()) span = std::max(span, s.batch * l.dist);
  return span;
}

std::int64_t Plan::output_span(bool in_place) const {
  const PlanSpec& s = impl_->spec;
  const std::size_t d = s.n.size();
  std::vector<std::int64_t> n_out = s.n;
  const std::int64_t half = s.n[d - 1] / 2 + 1;
  if (s.type == Type::r2c || s.type == Type::d2z) n_out[d - 1] = half;
  const std::int64_t nat = (s.type == Type::c2r || s.type == Type::z2d) && in_place ? 2 * half : n_out[d - 1];
  const SideLayout l = side_layout(s.out, n_out, nat);
  std::int64_t span = (s.batch - 1) * l.dist + 1;
  for (std::size_t i = 0; i < d; ++i) span += (n_out[i] - 1) * l.axis_stride[i];
  if (s.out.embed.empty()) span = std::max(span, s.batch * l.dist);
  return span;
}

double Plan::modeled_ns() const {
  Impl& p = *impl_;
  std::lock_guard<std::mutex> lock(p.model_mu);
  if (p.model_ns >= 0) return p.model_ns;
  // Timing-only dry run: the kernels record their instructions without touching data.
  const bool cin = p.spec.type != Type::r2c && p.spec.type != Type::d2z;
  const bool cout = p.spec.type != Type::c2r && p.spec.type != Type::z2d;
  const int scalar = p.fp64 ? 2 : 1;  // doubles as pairs of floats
  // The dry run's arrays are traced (the caller's arrays of a real execution): on the scratch stack,
  // so the modeled time does not depend on malloc's history (docs/cost-model.md section 2).
  ScratchVector<float> in(static_cast<std::size_t>(input_span(false) * (cin ? 2 : 1) * scalar));
  ScratchVector<float> out(static_cast<std::size_t>(output_span(false) * (cout ? 2 : 1) * scalar));
  Impl::Ctx cx{p.launch_config(false), {}, {}, 0, p.spec.mode};
  if (p.fp64)
    p.fp64->execute(in.data(), out.data(), kForward, &cx.trace, /*timing_only=*/true);
  else
    p.execute_stored(cx, in.data(), out.data(), kForward, input_span(false), output_span(false));
  p.model_profile = model_trace(cx.trace, ReportSettings{p.settings.target});
  p.model_ns = p.model_profile.total_ns;
  p.scratch_bytes = cx.scratch_bytes;
  return p.model_ns;
}

Profile Plan::modeled_profile() const {
  (void)modeled_ns();
  std::lock_guard<std::mutex> lock(impl_->model_mu);
  return impl_->model_profile;
}

std::size_t Plan::work_size() const {
  // The FP64 path keeps its dense copies in host vectors, not in a work area: nothing to report,
  // and no reason to pay its dry run (which does the host FP64 work of a full execution) at
  // MakePlan time.
  if (impl_->fp64) return 0;
  (void)modeled_ns();
  return impl_->scratch_bytes;
}

double Plan::error_bound() const {
  const PlanSpec& s = impl_->spec;
  double log2n = 0;
  int stages = 0;
  for (std::size_t i = 0; i < s.n.size(); ++i) {
    log2n += std::log2(static_cast<double>(s.n[i]));
    if (impl_->fp64) continue;
    const Node& node = *impl_->dims[i];
    const Node* q = &node;
    while (q != nullptr) {
      if (q->kind == Node::bluestein) {
        stages += 3 * static_cast<int>(detail::stage_radices(q->m).size()) + 2;
        break;
      }
      ++stages;
      q = q->kind == Node::four_step ? q->sub.get() : nullptr;
    }
  }
  if (impl_->fp64) return 4.0 * 0x1p-53 * std::max(1.0, log2n);
  switch (s.mode) {
    case Mode::bf16: return kUbf16 * std::sqrt(static_cast<double>(stages));  // input + matrix rounding per stage
    case Mode::bf16x3: return 4.0e-6 * std::sqrt(static_cast<double>(stages));
    default: return 4.0 * kU32 * std::max(1.0, log2n);
  }
}

std::string Plan::print_stages() const {
  const Impl& p = *impl_;
  const PlanSpec& s = p.spec;
  std::ostringstream o;
  o << "trnfft plan " << type_name(s.type) << " n=[";
  for (std::size_t i = 0; i < s.n.size(); ++i) o << (i ? "," : "") << s.n[i];
  o << "] batch " << s.batch << " mode " << blas::gemm_mode_name(s.mode) << " target "
    << hardware_spec(p.settings.target).name << "\n";
  const char* mm = s.mode == Mode::fp32 ? "fp32 (4-pass)" : s.mode == Mode::bf16 ? "bf16" : "bf16x3 (3 products)";
  std::function<void(const Node&, int)> show = [&](const Node& node, int indent) {
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    if (node.kind == Node::leaf) {
      o << pad << "(dft-gemm-" << node.n << ": TensorE stationary F[" << node.n << "x" << node.n << "] " << mm
        << ", moving [" << node.n << " x <=512 transforms], 4 real matmuls into PSUM; evacuation VectorE/ScalarE)\n";
    } else if (node.kind == Node::four_step) {
      o << pad << "(four-step " << node.n << " = " << node.n1 << " x " << node.n2 << "\n";
      if (node.sub->kind == Node::leaf)
        o << pad << "  [one four_step_pass when the batch is one dimension: both stages and the twiddle resident in "
                    "SBUF, data stationary in stage 1 (the transpose is free), HBM read and written once]\n";
      o << pad << "  (dft-gemm-" << node.n1 << " strided columns, twiddle w_" << node.n
        << "^(k1 n2) on VectorE from FP64 tables)\n";
      show(*node.sub, indent + 2);
      o << pad << ")\n";
    } else {
      o << pad << "(bluestein " << node.n << " via m=" << node.m << ": chirp VectorE, FFT m, pointwise VectorE, IFFT m, chirp\n";
      show(*node.sub, indent + 2);
      o << pad << ")\n";
    }
  };
  for (std::size_t i = 0; i < s.n.size(); ++i) {
    o << "dim " << i << " n=" << s.n[i] << ":\n";
    if (p.fp64) {
      const std::vector<std::int64_t> r = detail::stage_radices(s.n[i]);
      o << "  (fp64: " << (r.empty() ? std::string("bluestein over a power of two") : "stages") ;
      for (std::int64_t v : r) o << " " << v;
      o << "; each DFT-GEMM stage = 4 real Ozaki DGEMMs (trnblas dgemm: bf16 slices on TensorE, fp64 slicing and "
           "reconstruction on the host); twiddles, chirps and reorderings in fp64 on the host)\n";
      continue;
    }
    show(*p.dims[i], 2);
  }
  return o.str();
}

std::string Plan::print() const {
  const Impl& p = *impl_;
  std::ostringstream o;
  o << print_stages();
  const double ns = modeled_ns();
  o << "predicted relative L2 error bound: " << error_bound() << "\n";
  o << "modeled " << hardware_spec(p.settings.target).name << " time: " << ns / 1000.0 << " us; TensorE busy "
    << 100.0 * p.model_profile.utilization(Engine::tensor) << "%, critical engine "
    << engine_name(p.model_profile.critical_engine) << "\n";
  return o.str();
}

}  // namespace trn::fft
