#include "fp64.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string_view>

#include "kernels.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/scratch.hpp"

namespace trn::fft::detail {

namespace {
// One host round trip of the fp64 transforms (docs/cost-model.md section 7): the complex planes
// (in_count elements each) to the host, `flops` there, out_count elements of each plane back.
void host_planes(Trace* trace, std::string_view name, double flops, const double* in_re, const double* in_im,
                 double* out_re, double* out_im, std::int64_t in_count, std::int64_t out_count) {
  if (trace == nullptr) return;
  record_host_step(*trace, HostStep{.name = name, .flops = flops,
                                    .reads = {HostSpan(in_re, in_count), HostSpan(in_im, in_count)},
                                    .writes = {HostSpan(out_re, out_count), HostSpan(out_im, out_count)}});
}
}  // namespace

struct Fp64Transform::Node {
  enum Kind { leaf, four_step, bluestein } kind = leaf;
  std::int64_t n = 0, n1 = 0, n2 = 0, m = 0;
  std::unique_ptr<Node> first, sub;  // four-step: the length-n1 leaf and the length-n2 node
  // Leaf: DFT matrices per sign (0: -1, 1: +1): re, im, -im, n x n (symmetric, so row- and
  // column-major coincide). Four-step: twiddles [n1][n2]. Bluestein: chirps [n] and bhat [m].
  std::vector<double> f[2][3];
  std::vector<double> tw_re[2], tw_im[2], chirp_re[2], chirp_im[2], bhat_re[2], bhat_im[2];
};

Fp64Transform::~Fp64Transform() = default;

std::unique_ptr<Fp64Transform::Node> Fp64Transform::build(std::int64_t n) {
  auto node = std::make_unique<Node>();
  node->n = n;
  const std::vector<std::int64_t> radices = stage_radices(n);
  const int signs[2] = {-1, 1};
  if (radices.size() == 1) {
    for (int s = 0; s < 2; ++s) {
      for (auto& t : node->f[s]) t.resize(static_cast<std::size_t>(n * n));
      for (std::int64_t r = 0; r < n; ++r)
        for (std::int64_t k = 0; k < n; ++k) {
          double c = 0, si = 0;
          unit_root(r * k, n, signs[s], &c, &si);
          const std::size_t at = static_cast<std::size_t>(r * n + k);
          node->f[s][0][at] = c;
          node->f[s][1][at] = si;
          node->f[s][2][at] = -si;
        }
    }
    return node;
  }
  if (!radices.empty()) {
    node->kind = Node::four_step;
    node->n1 = radices[0];
    node->n2 = n / radices[0];
    for (int s = 0; s < 2; ++s) four_step_twiddles(node->n1, node->n2, signs[s], node->tw_re[s], node->tw_im[s]);
    node->first = build(node->n1);
    node->sub = build(node->n2);
    return node;
  }
  node->kind = Node::bluestein;
  std::int64_t m = 1;
  while (m < 2 * n - 1) m *= 2;
  node->m = m;
  node->sub = build(m);
  for (int s = 0; s < 2; ++s) {
    node->chirp_re[s].resize(static_cast<std::size_t>(n));
    node->chirp_im[s].resize(static_cast<std::size_t>(n));
    std::vector<double> br(static_cast<std::size_t>(m), 0.0), bi(static_cast<std::size_t>(m), 0.0);
    for (std::int64_t j = 0; j < n; ++j) {
      const std::int64_t idx = static_cast<std::int64_t>((static_cast<unsigned __int128>(j) * j) % static_cast<unsigned __int128>(2 * n));
      double c = 0, si = 0;
      unit_root(idx, 2 * n, signs[s], &c, &si);
      node->chirp_re[s][static_cast<std::size_t>(j)] = c;
      node->chirp_im[s][static_cast<std::size_t>(j)] = si;
      const double vr = c / static_cast<double>(m), vi = -si / static_cast<double>(m);  // exact: m = 2^p
      br[static_cast<std::size_t>(j)] = vr;
      bi[static_cast<std::size_t>(j)] = vi;
      if (j > 0) {
        br[static_cast<std::size_t>(m - j)] = vr;
        bi[static_cast<std::size_t>(m - j)] = vi;
      }
    }
    lines(*node->sub, br.data(), bi.data(), 1, -1, nullptr);  // bhat on the engines (Ozaki), plan time
    node->bhat_re[s] = std::move(br);
    node->bhat_im[s] = std::move(bi);
  }
  return node;
}

Fp64Transform::Fp64Transform(const PlanSpec& spec, const Settings& settings) : spec_(spec) {
  static_cast<EmulatorSettings&>(blas_) = settings;  // timing_only is set per execution
  for (std::int64_t v : spec.n) dims_.push_back(build(v));
}

// count dense transforms of length n (rows of [count][n]), in place: Y = F X as four real Ozaki
// DGEMMs (column-major: X is n x count with ld n). Every working plane of an execution is traced (the
// DGEMMs' operands, the host steps' spans): ScratchVectors, so the modeled time does not depend on
// malloc's history (docs/cost-model.md section 2, "Scratch addresses"). The plan's DFT matrices,
// twiddles and chirps stay on the heap: they live as long as the plan, so no temporary of an
// execution can reuse their bytes.
void Fp64Transform::leaf(std::int64_t n, const std::vector<double>* f, double* re, double* im, std::int64_t count,
                         Trace* trace) const {
  ScratchVector<double> yr(static_cast<std::size_t>(n * count)), yi(yr.size());
  blas::CallReport rep;
  auto gemm = [&](const std::vector<double>& a, const double* b, double beta, double* c) {
    blas::dgemm(blas_, blas::Op::N, blas::Op::N, n, count, n, 1.0, a.data(), n, b, n, beta, c, n, trace ? &rep : nullptr);
    if (trace != nullptr) trace->append(rep.trace);
  };
  gemm(f[0], re, 0.0, yr.data());
  gemm(f[2], im, 1.0, yr.data());
  gemm(f[1], re, 0.0, yi.data());
  gemm(f[0], im, 1.0, yi.data());
  std::copy(yr.begin(), yr.end(), re);
  std::copy(yi.begin(), yi.end(), im);
}

void Fp64Transform::lines(const Node& node, double* re, double* im, std::int64_t count, int sign, Trace* trace) const {
  const int si = sign < 0 ? 0 : 1;
  const std::int64_t n = node.n;
  if (node.kind == Node::leaf) return leaf(n, node.f[si], re, im, count, trace);
  const std::size_t total = static_cast<std::size_t>(count * n);
  if (node.kind == Node::four_step) {
    const std::int64_t n1 = node.n1, n2 = node.n2;
    ScratchVector<double> gr(total), gi(total);
    // Columns of each [n1][n2] block become dense lines of length n1 (host data movement).
    for (std::int64_t t = 0; t < count; ++t)
      for (std::int64_t j1 = 0; j1 < n1; ++j1)
        for (std::int64_t j2 = 0; j2 < n2; ++j2) {
          const std::size_t from = static_cast<std::size_t>(t * n + j1 * n2 + j2), to = static_cast<std::size_t>((t * n2 + j2) * n1 + j1);
          gr[to] = re[from];
          gi[to] = im[from];
        }
    lines(*node.first, gr.data(), gi.data(), count * n2, sign, trace);
    // Twiddle w_N^{k1 j2} (fp64 complex multiply on the host: one round trip) and back to [t][k1][j2].
    ScratchVector<double> yr(total), yi(total);
    const auto cnt = static_cast<std::int64_t>(total);
    host_planes(trace, "trnfft.fp64.twiddle", 6.0 * static_cast<double>(cnt), gr.data(), gi.data(), yr.data(), yi.data(), cnt, cnt);
    for (std::int64_t t = 0; t < count; ++t)
      for (std::int64_t k1 = 0; k1 < n1; ++k1)
        for (std::int64_t j2 = 0; j2 < n2; ++j2) {
          const std::size_t from = static_cast<std::size_t>((t * n2 + j2) * n1 + k1), to = static_cast<std::size_t>(t * n + k1 * n2 + j2);
          const std::size_t w = static_cast<std::size_t>(k1 * n2 + j2);
          const double a = gr[from], b = gi[from], c = node.tw_re[si][w], d = node.tw_im[si][w];
          yr[to] = a * c - b * d;
          yi[to] = a * d + b * c;
        }
    lines(*node.sub, yr.data(), yi.data(), count * n1, sign, trace);
    for (std::int64_t t = 0; t < count; ++t)
      for (std::int64_t k1 = 0; k1 < n1; ++k1)
        for (std::int64_t k2 = 0; k2 < n2; ++k2) {
          const std::size_t from = static_cast<std::size_t>(t * n + k1 * n2 + k2), to = static_cast<std::size_t>(t * n + k1 + n1 * k2);
          re[to] = yr[from];
          im[to] = yi[from];
        }
    return;
  }
  const std::int64_t m = node.m;
  ScratchVector<double> ar(static_cast<std::size_t>(count * m), 0.0), ai(ar.size(), 0.0);
  const auto& cr = node.chirp_re[si];
  const auto& ci = node.chirp_im[si];
  // Bluestein's three fp64 complex multiplies on the host (chirp, spectrum, chirp), one round trip each.
  host_planes(trace, "trnfft.fp64.chirp", 6.0 * static_cast<double>(count * n), re, im, ar.data(), ai.data(), count * n,
              count * m);
  for (std::int64_t t = 0; t < count; ++t)
    for (std::int64_t j = 0; j < n; ++j) {
      const std::size_t x = static_cast<std::size_t>(t * n + j), a = static_cast<std::size_t>(t * m + j);
      ar[a] = re[x] * cr[static_cast<std::size_t>(j)] - im[x] * ci[static_cast<std::size_t>(j)];
      ai[a] = re[x] * ci[static_cast<std::size_t>(j)] + im[x] * cr[static_cast<std::size_t>(j)];
    }
  lines(*node.sub, ar.data(), ai.data(), count, -1, trace);
  host_planes(trace, "trnfft.fp64.chirp", 6.0 * static_cast<double>(count * m), ar.data(), ai.data(), ar.data(), ai.data(),
              count * m, count * m);
  for (std::int64_t t = 0; t < count; ++t)
    for (std::int64_t j = 0; j < m; ++j) {
      const std::size_t a = static_cast<std::size_t>(t * m + j);
      const double xr = ar[a], xi = ai[a], br = node.bhat_re[si][static_cast<std::size_t>(j)], bi = node.bhat_im[si][static_cast<std::size_t>(j)];
      ar[a] = xr * br - xi * bi;
      ai[a] = xr * bi + xi * br;
    }
  lines(*node.sub, ar.data(), ai.data(), count, 1, trace);
  host_planes(trace, "trnfft.fp64.chirp", 6.0 * static_cast<double>(count * n), ar.data(), ai.data(), re, im, count * m,
              count * n);
  for (std::int64_t t = 0; t < count; ++t)
    for (std::int64_t k = 0; k < n; ++k) {
      const std::size_t x = static_cast<std::size_t>(t * n + k), a = static_cast<std::size_t>(t * m + k);
      re[x] = ar[a] * cr[static_cast<std::size_t>(k)] - ai[a] * ci[static_cast<std::size_t>(k)];
      im[x] = ar[a] * ci[static_cast<std::size_t>(k)] + ai[a] * cr[static_cast<std::size_t>(k)];
    }
}

// ---- layouts ------------------------------------------------------------------------------------

namespace {
// Element offsets (in elements of the side's scalar type) of every point of a side, batch-major,
// row-major within a transform: cuFFT's advanced-layout formula.
std::vector<std::int64_t> offsets(const Layout& l, const std::vector<std::int64_t>& sizes, std::int64_t natural_last,
                                  std::int64_t batch) {
  const std::size_t d = sizes.size();
  std::vector<std::int64_t> embed = l.embed.empty() ? sizes : l.embed;
  if (l.embed.empty()) embed[d - 1] = natural_last;
  const std::int64_t stride = l.embed.empty() ? 1 : l.stride;
  const std::int64_t dist = l.embed.empty() ? std::accumulate(embed.begin(), embed.end(), std::int64_t{1}, std::multiplies<>()) : l.dist;
  // axis[i] = stride × embed[i+1] × … × embed[d-1]. embed[0] never enters (cuFFT ignores
  // inembed[0]), so it is not multiplied in: an unchecked huge inembed[0] must not overflow.
  std::vector<std::int64_t> axis(d);
  axis[d - 1] = stride;
  for (std::size_t i = d - 1; i-- > 0;) axis[i] = axis[i + 1] * embed[i + 1];
  const std::int64_t per = std::accumulate(sizes.begin(), sizes.end(), std::int64_t{1}, std::multiplies<>());
  std::vector<std::int64_t> off(static_cast<std::size_t>(per * batch));
  std::size_t at = 0;
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t e = 0; e < per; ++e) {
      std::int64_t rest = e, o = b * dist;
      for (std::size_t i = d; i-- > 0;) {
        o += (rest % sizes[i]) * axis[i];
        rest /= sizes[i];
      }
      off[at++] = o;
    }
  return off;
}
}  // namespace

void Fp64Transform::execute(const void* in, void* out, int direction, Trace* trace, bool timing_only) const {
  blas_.timing_only = timing_only;
  const std::vector<std::int64_t>& n = spec_.n;
  const std::size_t d = n.size();
  const std::int64_t last = n[d - 1], half = last / 2 + 1, batch = spec_.batch;
  const bool in_place = in == out;
  std::vector<std::int64_t> n_in = n, n_out = n;
  if (spec_.type == Type::d2z) n_out[d - 1] = half;
  if (spec_.type == Type::z2d) n_in[d - 1] = half;
  const std::vector<std::int64_t> oi =
      offsets(spec_.in, n_in, spec_.type == Type::d2z && in_place ? 2 * half : n_in[d - 1], batch);
  const std::vector<std::int64_t> oo =
      offsets(spec_.out, n_out, spec_.type == Type::z2d && in_place ? 2 * half : n_out[d - 1], batch);
  const double* src = static_cast<const double*>(in);
  double* dst = static_cast<double*>(out);
  const int sign = spec_.type == Type::d2z ? -1 : spec_.type == Type::z2d ? 1 : direction;
  // Dense working planes [batch][sizes...].
  std::vector<std::int64_t> sizes = n_in;
  ScratchVector<double> wr(oi.size()), wi(oi.size(), 0.0);
  for (std::size_t e = 0; e < oi.size(); ++e) {
    if (spec_.type == Type::d2z) {
      wr[e] = src[oi[e]];
    } else {
      wr[e] = src[2 * oi[e]];
      wi[e] = src[2 * oi[e] + 1];
    }
  }
  // One axis: gather its lines densely, transform, scatter back.
  auto axis_pass = [&](std::size_t a, ScratchVector<double>& r, ScratchVector<double>& i, const std::vector<std::int64_t>& sz) {
    const std::int64_t len = sz[a];
    std::int64_t inner = 1;
    for (std::size_t k = a + 1; k < sz.size(); ++k) inner *= sz[k];
    const std::int64_t count = static_cast<std::int64_t>(r.size()) / len;
    ScratchVector<double> lr(r.size()), li(r.size());
    for (std::int64_t line = 0; line < count; ++line) {
      const std::int64_t outer = line / inner, in_ = line % inner;
      for (std::int64_t j = 0; j < len; ++j) {
        const std::size_t from = static_cast<std::size_t>((outer * len + j) * inner + in_), to = static_cast<std::size_t>(line * len + j);
        lr[to] = r[from];
        li[to] = i[from];
      }
    }
    lines(*dims_[a], lr.data(), li.data(), count, sign, trace);
    for (std::int64_t line = 0; line < count; ++line) {
      const std::int64_t outer = line / inner, in_ = line % inner;
      for (std::int64_t j = 0; j < len; ++j) {
        const std::size_t to = static_cast<std::size_t>((outer * len + j) * inner + in_), from = static_cast<std::size_t>(line * len + j);
        r[to] = lr[from];
        i[to] = li[from];
      }
    }
  };
  if (spec_.type != Type::z2d) {
    for (std::size_t a = d; a-- > 0;) axis_pass(a, wr, wi, sizes);
    // D2Z keeps n/2 + 1 of the last axis.
    const std::int64_t keep = n_out[d - 1];
    std::size_t at = 0;
    for (std::size_t e = 0; e < wr.size(); ++e) {
      if (static_cast<std::int64_t>(e) % last >= keep) continue;
      dst[2 * oo[at]] = wr[e];
      dst[2 * oo[at] + 1] = wi[e];
      ++at;
    }
    return;
  }
  // Z2D: leading axes on the half spectrum, then x = Re(IDFT(Z)) along the last axis with
  // Z_k = c_k X_k (c = 1 at k = 0 and n/2, else 2; exact) for k <= n/2 and 0 above.
  for (std::size_t a = d - 1; a-- > 0;) axis_pass(a, wr, wi, sizes);
  const std::int64_t rows = static_cast<std::int64_t>(wr.size()) / half;
  ScratchVector<double> zr(static_cast<std::size_t>(rows * last), 0.0), zi(zr.size(), 0.0);
  // The Hermitian weights c_k on the host (one round trip, 2 flops per kept element).
  host_planes(trace, "trnfft.fp64.z2d_weights", 2.0 * static_cast<double>(rows * half), wr.data(), wi.data(), zr.data(), zi.data(), rows * half, rows * last);
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t k = 0; k < half; ++k) {
      const double c = (k == 0 || 2 * k == last) ? 1.0 : 2.0;
      zr[static_cast<std::size_t>(r * last + k)] = c * wr[static_cast<std::size_t>(r * half + k)];
      zi[static_cast<std::size_t>(r * last + k)] = c * wi[static_cast<std::size_t>(r * half + k)];
    }
  lines(*dims_[d - 1], zr.data(), zi.data(), rows, 1, trace);
  for (std::size_t e = 0; e < zr.size(); ++e) dst[oo[e]] = zr[e];
}

}  // namespace trn::fft::detail
