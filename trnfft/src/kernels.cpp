#include "kernels.hpp"

#include "trn/tile/matmul.hpp"
#include "trn/tile/view.hpp"
#include "trn/core/scratch.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numbers>

namespace trn::fft::detail {

// ---- FP64 constants ----------------------------------------------------------------------------

void unit_root(std::int64_t idx, std::int64_t len, int sign, double* c, double* s) {
  // Reduce exactly in integers, then fold into the first octant: 8 r / len in [0, 8) picks the
  // octant, and the angle passed to cos/sin stays within [-pi/4, pi/4] (where libm's double
  // results are within an ulp). Schatzman (SISC 17(5), 1996) shows that twiddles from recurrences
  // lose accuracy as O(u N); direct evaluation keeps every entry within ~1 ulp of FP64.
  std::int64_t r = idx % len;
  if (r < 0) r += len;
  // Octant arithmetic on (8 r) and len in 128-bit-safe int64: len <= 2^40 in practice.
  const std::int64_t r8 = 8 * r;
  std::int64_t oct = r8 / len;  // 0..7
  // Nearest multiple of len/8 (angle = pi/4 * (oct' + frac), frac in [-1/2, 1/2]).
  std::int64_t rem = r8 - oct * len;  // in [0, len)
  if (2 * rem > len) {
    ++oct;
    rem -= len;
  }
  const double theta = std::numbers::pi / 4.0 * static_cast<double>(rem) / static_cast<double>(len);  // |theta| <= pi/8
  // angle = oct * pi/4 + theta; reduce oct mod 8 onto (cos, sin) of multiples of pi/4.
  const double ct = std::cos(theta), st = std::sin(theta);
  const double h = std::numbers::sqrt2 / 2.0;
  double cr = 0, sr = 0;
  switch (oct & 7) {
    case 0: cr = ct; sr = st; break;
    case 1: cr = h * (ct - st); sr = h * (ct + st); break;
    case 2: cr = -st; sr = ct; break;
    case 3: cr = -h * (ct + st); sr = h * (ct - st); break;
    case 4: cr = -ct; sr = -st; break;
    case 5: cr = h * (st - ct); sr = -h * (ct + st); break;
    case 6: cr = st; sr = -ct; break;
    default: cr = h * (ct + st); sr = h * (st - ct); break;
  }
  *c = cr;
  *s = sign < 0 ? -sr : sr;
}

template <class T>
void four_step_twiddles(std::int64_t n1, std::int64_t n2, int sign, std::vector<T>& re, std::vector<T>& im) {
  re.resize(static_cast<std::size_t>(n1 * n2));
  im.resize(static_cast<std::size_t>(n1 * n2));
  for (std::int64_t k1 = 0; k1 < n1; ++k1)
    for (std::int64_t j2 = 0; j2 < n2; ++j2) {
      double c = 0, si = 0;
      unit_root(k1 * j2, n1 * n2, sign, &c, &si);  // w_N^{k1 j2}, reduced index, FP64
      re[static_cast<std::size_t>(k1 * n2 + j2)] = static_cast<T>(c);
      im[static_cast<std::size_t>(k1 * n2 + j2)] = static_cast<T>(si);
    }
}
template void four_step_twiddles<float>(std::int64_t, std::int64_t, int, std::vector<float>&, std::vector<float>&);
template void four_step_twiddles<double>(std::int64_t, std::int64_t, int, std::vector<double>&, std::vector<double>&);

std::uint16_t round_to_bf16(double x) {
  if (x == 0.0) return std::signbit(x) ? 0x8000 : 0;
  int e = 0;
  std::frexp(x, &e);  // |x| = f 2^e, f in [0.5, 1): bf16 keeps 8 significant bits
  const double q = std::ldexp(std::nearbyint(std::ldexp(x, 8 - e)), e - 8);  // RNE (default FP mode)
  const float f = static_cast<float>(q);  // exact: q has 8 significant bits and is in range
  std::uint32_t bits = 0;
  std::memcpy(&bits, &f, 4);
  return static_cast<std::uint16_t>(bits >> 16);
}

DftMatrix make_dft_matrix(std::int64_t length, std::int64_t block_rows, std::int64_t block_cols, int sign,
                          blas::GemmMode mode, const std::vector<double>& scale,
                          std::vector<std::vector<std::uint8_t>>& storage, int stack) {
  DftMatrix m;
  const std::int64_t rows = block_rows * stack, cols = block_cols * stack;
  m.length = length;
  m.rows = rows;
  m.cols = cols;
  m.sign = sign;
  const bool split = mode == blas::GemmMode::bf16x3;
  m.dtype = mode == blas::GemmMode::fp32 ? DType::f32 : DType::bf16;
  m.terms = split ? 2 : 1;
  // One buffer per term, [rows][re, im, -im][cols]: the three tables side by side in every row, so
  // that a kernel that needs all three loads them with one DMA (one descriptor per partition row
  // instead of three).
  const std::size_t n = static_cast<std::size_t>(rows * 3 * cols);
  for (int t = 0; t < m.terms; ++t) {
    auto& buf = storage.emplace_back(n * static_cast<std::size_t>(dtype_size(m.dtype)));
    m.all.push_back(HbmTensor::wrap(buf.data(), m.dtype, {rows, 3 * cols}));
    for (int which = 0; which < 3; ++which) {
      std::byte* table = reinterpret_cast<std::byte*>(buf.data()) + which * cols * dtype_size(m.dtype);
      HbmTensor h = HbmTensor::wrap(table, m.dtype, {rows, cols}, {3 * cols, 1});
      for (std::int64_t rr = 0; rr < rows; ++rr)
        for (std::int64_t kk = 0; kk < cols; ++kk) {
          const std::int64_t r = rr % block_rows, k = kk % block_cols;
          const bool on_block = rr / block_rows == kk / block_cols;
          double c = 0, s = 0;
          unit_root(r * k, length, sign, &c, &s);
          const double sc = scale.empty() ? 1.0 : scale[static_cast<std::size_t>(r)];
          const double v = on_block ? (which == 0 ? c : which == 1 ? s : -s) * sc : 0.0;
          const std::size_t at = static_cast<std::size_t>(rr * 3 * cols + which * cols + kk);
          if (m.dtype == DType::f32) {
            reinterpret_cast<float*>(buf.data())[at] = static_cast<float>(v);
          } else {
            const std::uint16_t hi = round_to_bf16(v);
            std::uint16_t out = hi;
            if (t == 1) out = round_to_bf16(v - static_cast<double>(bf16_to_f32(hi)));  // exact residual in FP64
            reinterpret_cast<std::uint16_t*>(buf.data())[at] = out;
          }
        }
      (which == 0 ? m.re : which == 1 ? m.im : m.neg_im).push_back(h);
    }
  }
  return m;
}

// ---- batch tiling --------------------------------------------------------------------------------

namespace {

// A group of transforms processed as one tile's free axis: up to 4 free dimensions (the chunked
// batch dimension, then up to three whole inner dimensions).
struct ColumnGroup {
  std::int64_t in_off = 0, out_off = 0, inner_first = 0;  // inner_first: first innermost-batch index
  int ndim = 1;
  std::array<std::int64_t, kMaxFreeDims> size{1, 1, 1, 1}, in_stride{0, 0, 0, 0}, out_stride{0, 0, 0, 0};
  bool innermost_in_tile = false;  // the innermost batch dimension is a free dim of the tile (the last)
  std::int64_t width() const { return size[0] * size[1] * size[2] * size[3]; }
};

std::vector<ColumnGroup> column_groups(const std::vector<BatchDim>& dims_in, std::int64_t max_width) {
  std::vector<BatchDim> dims;
  for (const BatchDim& d : dims_in)
    if (d.count != 1) dims.push_back(d);
  std::vector<ColumnGroup> groups;
  if (dims.empty()) {
    groups.push_back(ColumnGroup{});
    return groups;
  }
  // Fold whole inner dimensions while they fit (at most three: the chunked one makes four).
  std::size_t i = dims.size();
  std::int64_t folded = 1;
  while (i > 0 && folded * dims[i - 1].count <= max_width && dims.size() - i < 3) {
    folded *= dims[i - 1].count;
    --i;
  }
  // Dimension i-1 (if any) is chunked by g; dimensions < i-1 are enumerated.
  const bool has_chunk = i > 0;
  const std::size_t chunk_dim = has_chunk ? i - 1 : 0;
  const std::int64_t chunk_count = has_chunk ? dims[chunk_dim].count : 1;
  const std::int64_t g = has_chunk ? std::max<std::int64_t>(1, std::min(chunk_count, max_width / folded)) : 1;
  const std::size_t outer_dims = has_chunk ? chunk_dim : 0;
  std::int64_t outer_total = 1;
  for (std::size_t d = 0; d < outer_dims; ++d) outer_total *= dims[d].count;
  for (std::int64_t o = 0; o < outer_total; ++o) {
    std::int64_t in_off = 0, out_off = 0, rest = o;
    for (std::size_t d = outer_dims; d-- > 0;) {
      const std::int64_t idx = rest % dims[d].count;
      rest /= dims[d].count;
      in_off += idx * dims[d].in_dist;
      out_off += idx * dims[d].out_dist;
    }
    for (std::int64_t c0 = 0; c0 < chunk_count; c0 += g) {
      ColumnGroup cg;
      int nd = 0;
      if (has_chunk) {
        cg.size[0] = std::min(g, chunk_count - c0);
        cg.in_stride[0] = dims[chunk_dim].in_dist;
        cg.out_stride[0] = dims[chunk_dim].out_dist;
        nd = 1;
      }
      for (std::size_t d = i; d < dims.size(); ++d, ++nd) {
        cg.size[static_cast<std::size_t>(nd)] = dims[d].count;
        cg.in_stride[static_cast<std::size_t>(nd)] = dims[d].in_dist;
        cg.out_stride[static_cast<std::size_t>(nd)] = dims[d].out_dist;
      }
      cg.ndim = std::max(nd, 1);
      cg.in_off = in_off + (has_chunk ? c0 * dims[chunk_dim].in_dist : 0);
      cg.out_off = out_off + (has_chunk ? c0 * dims[chunk_dim].out_dist : 0);
      const bool innermost_chunked = has_chunk && chunk_dim == dims.size() - 1;
      cg.inner_first = innermost_chunked ? c0 : 0;
      cg.innermost_in_tile = true;
      groups.push_back(cg);
    }
  }
  return groups;
}

// An HBM view: partitions = elements [e0, e0 + np) at `elem_stride`, free = the group's pattern.
Tile hbm_view(const float* base, std::int64_t off, std::int64_t elem_stride, std::int64_t e0, int np,
              const ColumnGroup& g, bool out) {
  tile::FreePattern free;
  for (std::size_t d = 0; d < static_cast<std::size_t>(g.ndim); ++d)
    free.push_back({g.size[d], (out ? g.out_stride : g.in_stride)[d]});
  return tile::hbm_view(base + off + e0 * elem_stride, DType::f32, np, elem_stride, free);
}

// The twiddle table viewed with the group's pattern: only the innermost batch index moves.
Tile twiddle_view(const float* table, std::int64_t cols, int np, const ColumnGroup& g) {
  tile::FreePattern free;
  for (int d = 0; d < g.ndim; ++d) free.push_back({g.size[static_cast<std::size_t>(d)], d == g.ndim - 1 ? 1 : 0});
  return tile::hbm_view(table + g.inner_first, DType::f32, np, cols, free);
}

// Programs per pass: a fixed function of the work (never of host threads), so traces and bits do
// not depend on the machine. At least kGroupsPerProgram column groups per program, so that the
// rotating buffers overlap DMA, TensorE and VectorE inside a program (programs on one core run
// back to back), and at most 16 programs (host threads get whole programs).
constexpr std::size_t kGroupsPerProgram = 8;
int programs_for(std::size_t groups) {
  return static_cast<int>(std::clamp<std::size_t>(groups / kGroupsPerProgram, 1, 16));
}

const InstrOptions kRne{Rounding::nearest_even};
// bf16x3 data split: hi = bf16(x), lo = bf16(x - hi), RNE, all on one engine (VectorE by default).
tile::TermSplit split_on(Engine e) { return tile::TermSplit{e, e, kRne, false}; }
const tile::TermSplit kSplitOnVector = split_on(Engine::vector);
// dft_pass keeps one DMA per plane: the merged view (plane, batch) of N = 64's stacked pass models
// 34.5 instead of 36.4 us on trn1 (2^18 points) but has two free dimensions with the elements on
// the partitions two floats apart, which the emulator's fast transposing DMA path
// (dma_partition_columns, one free dimension) does not take: 2.5x the host time of that pass.
constexpr bool kDftPassMergedPlanes = false;

}  // namespace

// dft_pass — batched DFT-as-GEMM stage.
//   Algorithm  out[k, j] = sum_n F[n, k] in[n, j] for the j-th transform of a column group, as real
//              GEMMs: re = Fr^T xr + (-Fi)^T xi, im = Fi^T xr + Fr^T xi (4 real matmuls; 2 for real
//              input or real output). F is the stationary operand ([n, k]: contraction on partitions,
//              <= 128 x 128) and stays in SBUF for the whole program; the batch is the moving
//              operand's free axis (<= one PSUM bank, 512 fp32), so the PE array is full whenever
//              the DFT length is 128. The 3M (Gauss) form would save one matmul but needs Fr + Fi
//              and xr + xi tiles whose rounding breaks the one-rounding rule for the matrix; not used.
//   Modes      fp32: fp32 tiles, exact products, fp32 PSUM (4-pass TensorE cost). bf16: the DMA rounds
//              data to bf16, matrix pre-rounded once. bf16x3: data split on VectorE into hi = bf16(x),
//              lo = bf16(x - hi); matrix terms hi/lo from FP64; products lo*hi, hi*lo, hi*hi
//              accumulate in one fp32 PSUM group (smallest first).
//   Twiddle    optional: PSUM is evacuated through a complex multiply by an fp32 twiddle tile on
//              VectorE (4 multiplies, 2 adds, fp32).
//   Engines    DMA (strided loads/stores: the access pattern does the reordering), TensorE, VectorE,
//              ScalarE (evacuates the imaginary plane when there is no twiddle).
//   Pipeline   the three DFT tables in one DMA (complex in and out); loads up to nbuf - 1 groups
//              ahead; bf16x3 splits group g + 1 before evacuating g.
Trace dft_pass(const LaunchConfig& lc_in, const DftPassArgs& a) {
  const HardwareSpec& hw = hardware_spec(lc_in.core.generation);
  const DftMatrix& F = *a.matrix;
  const std::int64_t width_max = std::min<std::int64_t>(hw.gemm_moving_fmax, hw.psum_bank_bytes / 4);
  const std::vector<ColumnGroup> groups = column_groups(a.batch, width_max);
  LaunchConfig lc = lc_in;
  const int programs = programs_for(groups.size());
  lc.grid = {programs, 1, 1};
  const bool in_real = a.in.im == nullptr, out_real = a.out.im == nullptr;
  const bool split = a.mode == blas::GemmMode::bf16x3;
  const DType data_dtype = a.mode == blas::GemmMode::fp32 ? DType::f32 : DType::bf16;
  const int K = static_cast<int>(F.rows), M = static_cast<int>(F.cols);
  LaunchResult r = launch(lc, [&](NeuronCore& nc) {
    const std::size_t g_begin = groups.size() * static_cast<std::size_t>(nc.program_id(0)) / static_cast<std::size_t>(programs);
    const std::size_t g_end = groups.size() * static_cast<std::size_t>(nc.program_id(0) + 1) / static_cast<std::size_t>(programs);
    AllocScope sbuf(nc.sbuf()), psum(nc.psum());
    // Every tile below is written (DMA, matmul with accumulate = false, VectorE/ScalarE output)
    // before any instruction reads it, so none needs the allocator's NaN fill (AllocFill::none:
    // host time only; the bytes every instruction reads are the same).
    // Where TensorE is the busier engine (fp32 on trn2: 4-pass products against the group's
    // bytes in and out, at the engines' rates of cost-model.md sections 1 and 3), the pipeline's
    // fill and drain go by column chunks: the first group's loads chunk by chunk with the DFT
    // tables interleaved in the order the first products read them (TensorE starts after F re and
    // one chunk of x re instead of all tables and the whole group), and the last group's
    // matmuls, evacuations and stores chunk by chunk (after the last matmul one chunk, not a
    // group, is left to evacuate and store). Every output column is its own dot products, so
    // the bits are the group's.
    constexpr std::int64_t kChunk = 128;
    const bool by_chunk = [&] {
      if (split || in_real || out_real || a.tw_re != nullptr || g_begin >= g_end) return false;
      const double passes = data_dtype == DType::f32 ? hw.matmul_fp32_passes : 1.0;
      const double tensor_ns = 4.0 * passes * static_cast<double>(width_max) / hw.tensor_ghz;
      const double dma_ns = 2.0 * static_cast<double>(K + M) * static_cast<double>(width_max) * 4.0 /
                            (hw.dma_engines * hw.dma_bytes_per_ns * hw.dma_hbm_efficiency);
      // Whole groups of one chunk gain nothing (the golden cases N = 8 and 32 x 24 modeled
      // slower by chunk: three table DMAs instead of one).
      return tensor_ns > dma_ns && groups[g_begin].ndim == 1 && groups[g_begin].width() >= 2 * kChunk;
    }();
    // Stationary DFT tiles [n, k], resident for the program; all three tables (complex in and
    // out) with one DMA per term from the matrix's [K, 3 M] layout (by_chunk: one per table, in
    // the first group's loads).
    std::vector<Tile> s_re, s_im, s_nim;
    for (int t = 0; t < F.terms && by_chunk; ++t) {
      s_re.push_back(sbuf.alloc(F.dtype, K, {M}, "F re", 0, AllocFill::none));
      s_im.push_back(sbuf.alloc(F.dtype, K, {M}, "F im", 0, AllocFill::none));
      s_nim.push_back(sbuf.alloc(F.dtype, K, {M}, "-F im", 0, AllocFill::none));
    }
    for (int t = 0; t < F.terms && !by_chunk; ++t) {
      if (!in_real && !out_real) {
        const Tile all = sbuf.alloc(F.dtype, K, {3 * M}, "F re, im, -im", 0, AllocFill::none);
        nc.dma_copy(all, F.all[static_cast<std::size_t>(t)].tile(0, K, 0, 3 * M));
        s_re.push_back(all.cols(0, M));
        s_im.push_back(all.cols(M, M));
        s_nim.push_back(all.cols(2 * M, M));
        continue;
      }
      s_re.push_back(sbuf.alloc(F.dtype, K, {M}, "F re", 0, AllocFill::none));
      nc.dma_copy(s_re.back(), F.re[static_cast<std::size_t>(t)].tile(0, K, 0, M));
      if (!in_real || !out_real) {
        s_im.push_back(sbuf.alloc(F.dtype, K, {M}, "F im", 0, AllocFill::none));
        nc.dma_copy(s_im.back(), F.im[static_cast<std::size_t>(t)].tile(0, K, 0, M));
      }
      if (!in_real) {
        s_nim.push_back(sbuf.alloc(F.dtype, K, {M}, "-F im", 0, AllocFill::none));
        nc.dma_copy(s_nim.back(), F.neg_im[static_cast<std::size_t>(t)].tile(0, K, 0, M));
      }
    }
    struct Buf {
      Tile x_re, x_im, raw_re, raw_im, lo_re, lo_im, resid, ps_re, ps_im, o_re, o_im, tmp;
      Tile x_both, o_both;  // the planes' DMA-side tiles side by side: [K, 2 W] and [M, 2 W]
    };
    // Rotating buffers (two PSUM banks each): the loads run up to nbuf - 1 groups ahead of the
    // matmuls and stores (a DMA queue is in order too), so they overlap them instead of waiting
    // on the DMA's fixed latency. Interleaved planes (im = re + 1 float) move with one DMA per
    // full group (one descriptor per partition row instead of two).
    std::vector<Buf> buf(static_cast<std::size_t>(std::max(2, std::min(4, hw.psum_banks / 2))));
    const std::int64_t W = width_max;
    const bool merged_in = kDftPassMergedPlanes && !in_real && a.in.im == a.in.re + 1,
               merged_out = kDftPassMergedPlanes && !out_real && a.out.im == a.out.re + 1;
    for (Buf& b : buf) {
      const DType x_dtype = split ? DType::f32 : data_dtype;  // what the DMA writes
      Tile& x_re_dma = split ? b.raw_re : b.x_re;
      Tile& x_im_dma = split ? b.raw_im : b.x_im;
      if (merged_in) {
        b.x_both = sbuf.alloc(x_dtype, K, {2 * W}, "x re, im", 0, AllocFill::none);
        x_re_dma = b.x_both.cols(0, W);
        x_im_dma = b.x_both.cols(W, W);
      } else {
        x_re_dma = sbuf.alloc(x_dtype, K, {W}, "x re", 0, AllocFill::none);
        if (!in_real) x_im_dma = sbuf.alloc(x_dtype, K, {W}, "x im", 0, AllocFill::none);
      }
      if (split) {
        b.x_re = sbuf.alloc(data_dtype, K, {W}, "x re hi", 0, AllocFill::none);
        b.lo_re = sbuf.alloc(DType::bf16, K, {W}, "x re lo", 0, AllocFill::none);
        if (!in_real) {
          b.x_im = sbuf.alloc(data_dtype, K, {W}, "x im hi", 0, AllocFill::none);
          b.lo_im = sbuf.alloc(DType::bf16, K, {W}, "x im lo", 0, AllocFill::none);
        }
        b.resid = sbuf.alloc(DType::f32, K, {W}, "split residual", 0, AllocFill::none);
      }
      b.ps_re = psum.alloc(DType::f32, M, {W}, "y re", 0, AllocFill::none);
      if (!out_real) b.ps_im = psum.alloc(DType::f32, M, {W}, "y im", 0, AllocFill::none);
      if (merged_out) {
        b.o_both = sbuf.alloc(DType::f32, M, {2 * W}, "out re, im", 0, AllocFill::none);
        b.o_re = b.o_both.cols(0, W);
        b.o_im = b.o_both.cols(W, W);
      } else {
        b.o_re = sbuf.alloc(DType::f32, M, {W}, "out re", 0, AllocFill::none);
        if (!out_real) b.o_im = sbuf.alloc(DType::f32, M, {W}, "out im", 0, AllocFill::none);
      }
      if (a.tw_re != nullptr) b.tmp = sbuf.alloc(DType::f32, M, {2, W}, "twiddle products", 0, AllocFill::none);
    }
    // The twiddle tile depends only on the group's free pattern and first innermost index; groups
    // that repeat it (every group when the innermost batch dimension is folded whole) reuse it.
    Tile tw_re, tw_im;
    std::array<std::int64_t, kMaxFreeDims + 2> tw_key{};
    bool tw_loaded = false;
    if (a.tw_re != nullptr) {
      tw_re = sbuf.alloc(DType::f32, M, {W}, "twiddle re", 0, AllocFill::none);
      tw_im = sbuf.alloc(DType::f32, M, {W}, "twiddle im", 0, AllocFill::none);
    }
    // A group's two planes as one HBM view (plane outermost, 1 float apart), when it fits the
    // access pattern's dimensions.
    auto both_planes = [](const Tile& plane_view) {
      Tile v = plane_view;
      for (int d = v.ndim; d-- > 0;) {
        v.size[static_cast<std::size_t>(d + 1)] = v.size[static_cast<std::size_t>(d)];
        v.stride[static_cast<std::size_t>(d + 1)] = v.stride[static_cast<std::size_t>(d)];
      }
      v.size[0] = 2;
      v.stride[0] = 1;
      ++v.ndim;
      return v;
    };
    auto load_group = [&](std::size_t gi) {
      const ColumnGroup& g = groups[gi];
      const Buf& b = buf[(gi - g_begin) % buf.size()];
      const std::int64_t w = g.width();
      if (merged_in && w == W && g.ndim < kMaxFreeDims) {
        nc.dma_copy(b.x_both, both_planes(hbm_view(a.in.re, g.in_off, a.in.stride, 0, K, g, false)));
        return;
      }
      nc.dma_copy((split ? b.raw_re : b.x_re).cols(0, w), hbm_view(a.in.re, g.in_off, a.in.stride, 0, K, g, false));
      if (!in_real)
        nc.dma_copy((split ? b.raw_im : b.x_im).cols(0, w), hbm_view(a.in.im, g.in_off, a.in.stride, 0, K, g, false));
    };
    // bf16x3: hi / lo terms of group gi from the fp32 values the DMA loaded, on VectorE, one group
    // ahead of the matmuls (VectorE runs in program order: the split of g + 1 then runs while
    // TensorE multiplies g, before the evacuation of g).
    auto split_group = [&](std::size_t gi) {
      const Buf& b = buf[(gi - g_begin) % buf.size()];
      const std::int64_t w = groups[gi].width();
      const std::array<Tile, 2> tr{b.x_re.cols(0, w), b.lo_re.cols(0, w)};
      tile::split_terms(nc, {b.raw_re.cols(0, w), b.resid.cols(0, w), tr}, kSplitOnVector);
      if (!in_real) {
        const std::array<Tile, 2> ti{b.x_im.cols(0, w), b.lo_im.cols(0, w)};
        tile::split_terms(nc, {b.raw_im.cols(0, w), b.resid.cols(0, w), ti}, kSplitOnVector);
      }
    };
    // by_chunk: the first group with the tables, chunk by chunk (see above).
    auto load_first_by_chunk = [&](std::size_t gi) {
      const ColumnGroup& g = groups[gi];
      const Buf& b = buf[0];
      const Tile hr = hbm_view(a.in.re, g.in_off, a.in.stride, 0, K, g, false);
      const Tile hi = hbm_view(a.in.im, g.in_off, a.in.stride, 0, K, g, false);
      for (std::int64_t c0 = 0; c0 < g.width(); c0 += kChunk) {
        const std::int64_t cw = std::min(kChunk, g.width() - c0);
        if (c0 == 0) nc.dma_copy(s_re[0], F.re[0].tile(0, K, 0, M));
        nc.dma_copy(b.x_re.cols(c0, cw), hr.cols(c0, cw));
        if (c0 == 0) {
          nc.dma_copy(s_im[0], F.im[0].tile(0, K, 0, M));
          nc.dma_copy(s_nim[0], F.neg_im[0].tile(0, K, 0, M));
        }
        nc.dma_copy(b.x_im.cols(c0, cw), hi.cols(c0, cw));
      }
    };
    const std::size_t ahead = buf.size() - 1;
    for (std::size_t gi = g_begin; gi < std::min(g_end, g_begin + ahead); ++gi)
      by_chunk && gi == g_begin ? load_first_by_chunk(gi) : load_group(gi);
    if (split && g_begin < g_end) split_group(g_begin);
    for (std::size_t gi = g_begin; gi < g_end; ++gi) {
      if (gi + ahead < g_end) load_group(gi + ahead);
      const ColumnGroup& g = groups[gi];
      const Buf& b = buf[(gi - g_begin) % buf.size()];
      const std::int64_t w = g.width();
      const bool first_chunked = by_chunk && gi == g_begin, last_chunked = by_chunk && gi + 1 == g_end && g.ndim == 1;
      if (first_chunked || last_chunked) {  // the fill / drain, chunk by chunk (see above)
        const Tile out_re = hbm_view(a.out.re, g.out_off, a.out.stride, 0, M, g, true);
        const Tile out_im = hbm_view(a.out.im, g.out_off, a.out.stride, 0, M, g, true);
        for (std::int64_t c0 = 0; c0 < w; c0 += kChunk) {
          const std::int64_t cw = std::min(kChunk, w - c0);
          const std::array<Tile, 2> xr{b.x_re.cols(c0, cw), Tile{}}, xi{b.x_im.cols(c0, cw), Tile{}};
          tile::Accumulator yr(nc, b.ps_re.cols(c0, cw)), yi(nc, b.ps_im.cols(c0, cw));
          yr.terms(s_re, std::span(xr).first(1), tile::kOneTerm);
          yi.terms(s_im, std::span(xr).first(1), tile::kOneTerm);
          yr.terms(s_nim, std::span(xi).first(1), tile::kOneTerm);
          yi.terms(s_re, std::span(xi).first(1), tile::kOneTerm);
          if (!last_chunked) continue;
          nc.tensor_copy(b.o_re.cols(c0, cw), yr.psum(), Engine::vector);
          nc.tensor_copy(b.o_im.cols(c0, cw), yi.psum(), Engine::scalar);
          nc.dma_copy(out_re.cols(c0, cw), b.o_re.cols(c0, cw));
          nc.dma_copy(out_im.cols(c0, cw), b.o_im.cols(c0, cw));
        }
        if (last_chunked) continue;
        nc.tensor_copy(b.o_re.cols(0, w), b.ps_re.cols(0, w), Engine::vector);
        nc.tensor_copy(b.o_im.cols(0, w), b.ps_im.cols(0, w), Engine::scalar);
        nc.dma_copy(out_re, b.o_re.cols(0, w));
        nc.dma_copy(out_im, b.o_im.cols(0, w));
        continue;
      }
      // The data terms: [n, w]: hi (the only term unless bf16x3), lo.
      std::array<Tile, 2> xr{b.x_re.cols(0, w), split ? b.lo_re.cols(0, w) : Tile{}}, xi;
      if (!in_real) xi = {b.x_im.cols(0, w), split ? b.lo_im.cols(0, w) : Tile{}};
      // acc (+)= S^T x over the mode's term pairs, smallest products first.
      const std::span<const tile::TermPair> pairs = split ? std::span<const tile::TermPair>(tile::kHiLoPairs)
                                                          : std::span<const tile::TermPair>(tile::kOneTerm);
      auto product = [&](tile::Accumulator& acc, const std::vector<Tile>& S, const std::array<Tile, 2>& x) {
        acc.terms(S, std::span(x).first(split ? 2 : 1), pairs);
      };
      tile::Accumulator yr(nc, b.ps_re.cols(0, w));
      product(yr, s_re, xr);
      if (!in_real) product(yr, s_nim, xi);
      tile::Accumulator yi;
      if (!out_real) {
        yi = tile::Accumulator(nc, b.ps_im.cols(0, w));
        product(yi, s_im, xr);
        if (!in_real) product(yi, s_re, xi);
      }
      if (split && gi + 1 < g_end) split_group(gi + 1);
      // Evacuate PSUM (with the twiddle multiply when asked).
      const Tile orr = b.o_re.cols(0, w);
      Tile oi = out_real ? Tile{} : b.o_im.cols(0, w);
      if (a.tw_re == nullptr) {
        nc.tensor_copy(orr, yr.psum(), Engine::vector);
        if (!out_real) nc.tensor_copy(oi, yi.psum(), Engine::scalar);
      } else {
        const Tile tr = tw_re.cols(0, w), ti = tw_im.cols(0, w);
        const std::array<std::int64_t, kMaxFreeDims + 2> key{g.inner_first, g.ndim, g.size[0], g.size[1], g.size[2], g.size[3]};
        if (!tw_loaded || key != tw_key) {
          nc.dma_copy(tr, twiddle_view(a.tw_re, a.tw_cols, M, g));
          nc.dma_copy(ti, twiddle_view(a.tw_im, a.tw_cols, M, g));
          tw_key = key;
          tw_loaded = true;
        }
        const Tile p0 = b.tmp.slice(0, 0, 1).reshape({W}).cols(0, w), p1 = b.tmp.slice(0, 1, 1).reshape({W}).cols(0, w);
        nc.tensor_tensor(p0, yr.psum(), tr, AluOp::multiply);
        nc.tensor_tensor(p1, yi.psum(), ti, AluOp::multiply);
        nc.tensor_tensor(orr, p0, p1, AluOp::subtract);
        if (!out_real) {
          nc.tensor_tensor(p0, yr.psum(), ti, AluOp::multiply);
          nc.tensor_tensor(p1, yi.psum(), tr, AluOp::multiply);
          nc.tensor_tensor(oi, p0, p1, AluOp::add);
        }
      }
      if (merged_out && w == W && g.ndim < kMaxFreeDims) {
        nc.dma_copy(both_planes(hbm_view(a.out.re, g.out_off, a.out.stride, 0, M, g, true)), b.o_both);
      } else {
        nc.dma_copy(hbm_view(a.out.re, g.out_off, a.out.stride, 0, M, g, true), orr);
        if (!out_real) nc.dma_copy(hbm_view(a.out.im, g.out_off, a.out.stride, 0, M, g, true), oi);
      }
    }
  });
  return std::move(r.trace);
}

namespace {

// An HBM pattern of `outer * inner` partitions (partition p = o * inner + i at element
// o * outer_dist + i * inner_dist of `base`) and up to three free dimensions, moved to or from the
// SBUF tile `sb` ([outer * inner, product of sizes]). One DMA when the two partition strides nest
// (outer_dist = inner * inner_dist), else one DMA per outer index: those cover disjoint partition
// ranges, hence disjoint DMA queues, and run side by side.
void dma_nested_partitions(NeuronCore& nc, bool to_hbm, const Tile& sb, const float* base, int outer, int inner,
                           std::int64_t outer_dist, std::int64_t inner_dist, const tile::FreePattern& free_dims) {
  const bool nested = outer == 1 || outer_dist == inner * inner_dist;
  const int parts = nested ? 1 : outer;
  const int np = nested ? outer * inner : inner;
  for (int o = 0; o < parts; ++o) {
    const Tile h = tile::hbm_view(base + o * outer_dist, DType::f32, np, inner_dist, free_dims);
    const Tile s = sb.rows(o * np, np);
    to_hbm ? nc.dma_copy(h, s) : nc.dma_copy(s, h);
  }
}

}  // namespace

namespace {

// The shape of a four-step pass, fixed on the host before the launch: sizes, buffer sets and the
// C2R unit weights.
struct FourStepShape {
  int s1 = 1, s2 = 1, n1 = 0, n2 = 0, K1 = 0, M1 = 0;
  std::int64_t G = 1, blocks = 0, width_max = 0, nb = 1, W = 0, XW = 0, groups_per_outer = 0, groups = 0;
  bool in_real = false, out_real = false, split = false;
  // Interleaved complex planes (im = re + 1 float): a full group's two planes move with one DMA
  // (one descriptor per partition row instead of two; docs/cost-model.md section 3). Not the
  // input of bf16x3, whose VectorE split of the real plane then waits for both planes (2^18
  // points: 67.8 instead of 66.1 us on trn1).
  bool merged_in = false, merged_out = false;
  // f1 and f2 are the same matrix (n1 = n2, s1 = s2, no C2R scaling): loaded once.
  bool shared_f = false;
  // The first group's input is loaded block by block, so that stage 1 starts after one block
  // rather than the whole group (the first load is the pipeline's fill) -- where the DMA is not
  // the busiest engine (a DMA-bound target would pay the extra descriptors); not bf16x3 (VectorE
  // splits each plane whole).
  bool first_by_block = false;
  DType data_dtype = DType::f32;
  InstrOptions z_round{};
  Engine sum_engine = Engine::vector;
  // bf16x3's roundings: ScalarE where VectorE and GpSimd share the SBUF port (trn1: VectorE is
  // the busiest engine, and GpSimd would not relieve it); else on the subtraction's engine
  // (trn2: ScalarE there modeled 44.7 -> 46.7 us at 2^18 points, VectorE and GpSimd having room).
  Engine round_engine = Engine::vector;
  int nsets = 1;
  // C2R half spectrum: the columns j2 holding k = 0 and k = N/2 (weight c_k = 1) and, per column,
  // a per-partition weight over (t1, a): 1/2 on the row of that k, 1 elsewhere.
  std::int64_t N = 0, in_len = 0, whole_rows = 0, rest_cols = 0;
  std::vector<std::int64_t> unit_weight_cols;
  ScratchVector<float> unit_weights;  // DMAed in (traced): the scratch stack (docs/cost-model.md section 2)
};

FourStepShape four_step_shape(const HardwareSpec& hw, const FourStepPassArgs& a) {
  FourStepShape s;
  s.s1 = a.s1;
  s.s2 = a.s2;
  s.n1 = static_cast<int>(a.n1);
  s.n2 = static_cast<int>(a.n2);
  s.K1 = s.s1 * s.n1;
  s.M1 = s.s2 * s.n2;
  s.G = std::int64_t{s.s1} * s.s2;
  s.blocks = a.count / s.G;
  // Blocks side by side in one PSUM bank (the stage-2 moving width).
  s.width_max = std::min<std::int64_t>(hw.gemm_moving_fmax, hw.psum_bank_bytes / 4);
  s.nb = std::max<std::int64_t>(1, s.width_max / s.K1);
  s.W = s.nb * s.K1;
  s.XW = s.nb * s.M1;
  s.groups_per_outer = (s.blocks + s.nb - 1) / s.nb;
  s.groups = a.outer_count * s.groups_per_outer;
  s.in_real = a.in.im == nullptr;
  s.out_real = a.out.im == nullptr;
  s.split = a.mode == blas::GemmMode::bf16x3;
  s.data_dtype = a.mode == blas::GemmMode::fp32 ? DType::f32 : DType::bf16;
  s.z_round = s.data_dtype == DType::f32 ? InstrOptions{} : kRne;
  s.sum_engine = hw.shared_sbuf_port_vector_gpsimd ? Engine::vector : Engine::gpsimd;
  s.round_engine = hw.shared_sbuf_port_vector_gpsimd ? Engine::scalar : Engine::vector;
  // Rotating buffer sets: up to four (two PSUM banks each; stage 2 reuses stage 1's banks, which
  // the twiddle has read by then), as many as SBUF holds beside the resident tiles.
  const std::int64_t planes_in = s.in_real ? 1 : 2, planes_out = s.out_real ? 1 : 2, ds = dtype_size(s.data_dtype);
  std::int64_t set_bytes = planes_in * s.XW * ds + 2 * s.W * ds + 4 * s.W * 4 + planes_out * s.W * 4;
  if (s.split) set_bytes += planes_in * s.XW * (4 + 2) + 2 * s.XW * 4 + 2 * s.W * (4 + 2) + 2 * s.W * 4;  // raw fp32, lo, residuals
  const std::int64_t resident_bytes = (2 * 3 * (s.K1 + s.M1)) * dtype_size(a.f1->dtype) + 2 * s.K1 * 4;
  const std::int64_t room = static_cast<std::int64_t>(hw.sbuf_partition_bytes) - resident_bytes - 4096;
  s.nsets = static_cast<int>(std::clamp<std::int64_t>(room / set_bytes, 1, std::min(4, hw.psum_banks / 2)));
  s.merged_in = !s.in_real && !s.split && a.in.im == a.in.re + 1 && (a.in_len == 0 || a.in_len >= a.n1 * a.n2);
  s.merged_out = !s.out_real && a.out.im == a.out.re + 1 && (a.out_len == 0 || a.out_len >= a.n1 * a.n2);
  s.shared_f = a.f1 == a.f2;
  {
    // TensorE vs DMA time per group, at the engines' rates (cost-model.md sections 1 and 3): the
    // products of both stages against the group's bytes in and out.
    const double passes = s.data_dtype == DType::f32 ? hw.matmul_fp32_passes : s.split ? 3.0 : 1.0;
    const double products = (s.in_real ? 2.0 : 4.0) * passes;
    const double tensor_ns = products * 2.0 * static_cast<double>(s.W) / hw.tensor_ghz;
    const double dma_ns = static_cast<double>(planes_in + planes_out) * static_cast<double>(s.K1 * s.XW) * 4.0 /
                          (hw.dma_engines * hw.dma_bytes_per_ns * hw.dma_hbm_efficiency);
    s.first_by_block = s.merged_in && s.nsets > 1 && tensor_ns > dma_ns && !s.split;
  }
  s.N = a.n1 * a.n2;
  s.in_len = a.in_len > 0 ? std::min(a.in_len, s.N) : s.N;
  s.whole_rows = s.in_len / a.n2;
  s.rest_cols = s.in_len % a.n2;
  if (s.in_len < s.N)
    for (const std::int64_t k : {std::int64_t{0}, s.N % 2 == 0 ? s.N / 2 : std::int64_t{-1}}) {
      if (k < 0 || k >= s.in_len) continue;
      const auto at = std::find(s.unit_weight_cols.begin(), s.unit_weight_cols.end(), k % a.n2);
      std::size_t c = static_cast<std::size_t>(at - s.unit_weight_cols.begin());
      if (at == s.unit_weight_cols.end()) {
        s.unit_weight_cols.push_back(k % a.n2);
        s.unit_weights.resize(s.unit_weights.size() + static_cast<std::size_t>(s.K1), 1.0f);
      }
      for (int t1 = 0; t1 < s.s1; ++t1)
        s.unit_weights[c * static_cast<std::size_t>(s.K1) + static_cast<std::size_t>(t1 * s.n1 + k / a.n2)] = 0.5f;
    }
  return s;
}

// A data plane in the tile dtype: hi (the only term unless bf16x3), lo, and the fp32 value.
struct Plane {
  Tile hi, lo, raw;
};

// One rotating buffer set of a four-step program.
struct FourStepBuf {
  Plane x_re, x_im, z_re, z_im;
  Tile x_resid, z_resid, y_re, y_im, tmp, out_re, out_im;
  Tile x_resid_im, z_resid_im;  // bf16x3: the imaginary planes' residuals (the planes split in lockstep)
  // The input planes' values side by side ([K1, 2 XW]: re, im) and the output planes ([M1, 2 W]),
  // so that a full group's merged DMA moves one contiguous SBUF row per partition.
  Tile x_both, out_both;
};

// One program of four_step_pass: its resident tiles, buffer sets and the pipeline stages, each a
// method (the order of the instructions is the order of the calls in run()).
class FourStepProgram {
 public:
  FourStepProgram(NeuronCore& nc, const FourStepPassArgs& a, const FourStepShape& s, int programs)
      : nc_(nc), a_(a), s_(s), sbuf_(nc.sbuf()), psum_(nc.psum()) {
    g_begin_ = s.groups * nc.program_id(0) / programs;
    g_end_ = s.groups * (nc.program_id(0) + 1) / programs;
  }
  void run();

 private:
  // Every tile below is written before any instruction reads it (the C2R load tiles by their
  // memset), so none needs the allocator's NaN fill (AllocFill::none, as in dft_pass).
  Tile alloc(DType dt, int rows, std::int64_t cols, const char* name) {
    return sbuf_.alloc(dt, rows, {cols}, name, 0, AllocFill::none);
  }
  std::vector<Tile> resident(const std::vector<HbmTensor>& h, int rows, int cols, const char* name);
  void resident_matrix(const DftMatrix& f, int n, bool want_nim, bool want_im, std::vector<Tile>* re,
                       std::vector<Tile>* im, std::vector<Tile>* nim);
  Plane plane(int rows, std::int64_t cols, const char* name);
  void plane_pair(int rows, std::int64_t cols, const char* name, Plane* re, Plane* im, Tile* both);
  void allocate();
  void load_f1();
  void load_f2_twiddles();
  const FourStepBuf& buffers(std::int64_t gi) const {
    return buf_[static_cast<std::size_t>(gi - g_begin_) % buf_.size()];
  }
  // Group gi: outer index gi / groups_per_outer, blocks from first_block(gi) on.
  std::int64_t first_block(std::int64_t gi) const { return (gi % s_.groups_per_outer) * s_.nb; }
  std::int64_t blocks_of(std::int64_t gi) const { return std::min(s_.nb, s_.blocks - first_block(gi)); }
  std::int64_t in_base(std::int64_t gi) const {
    return (gi / s_.groups_per_outer) * a_.outer_in_dist + first_block(gi) * s_.G * a_.in_dist;
  }
  std::int64_t out_base(std::int64_t gi) const {
    return (gi / s_.groups_per_outer) * a_.outer_out_dist + first_block(gi) * s_.G * a_.out_dist;
  }
  const Tile& value(const Plane& x) const { return s_.split ? x.raw : x.hi; }
  void split_planes(const Plane& re, const Tile& resid_re, const Plane* im, const Tile& resid_im, std::int64_t cols,
                    Engine subtract);
  void load_plane(std::int64_t gi, const float* src, const Plane& x);
  void load_group(std::int64_t gi);
  void load_group_by_block(std::int64_t gi);
  void halve_unit_weights(const Plane& x, std::int64_t nbc);
  void product(tile::Accumulator& acc, const std::vector<Tile>& F, const Plane& x, std::int64_t c0, std::int64_t cols,
               bool data_stationary);
  void stage1(std::int64_t gi);
  void twiddle(std::int64_t gi);
  void store_plane(std::int64_t gi, float* plane_out, const Tile& sb);
  void stage2(std::int64_t gi, std::int64_t c0 = 0, std::int64_t cols = -1);
  void evacuate_store(std::int64_t gi);
  void drain_by_block(std::int64_t gi);
  void stage2_store(std::int64_t gi);

  NeuronCore& nc_;
  const FourStepPassArgs& a_;
  const FourStepShape& s_;
  AllocScope sbuf_, psum_;
  std::int64_t g_begin_ = 0, g_end_ = 0;
  std::vector<Tile> f1_re_, f1_im_, f1_nim_, f2_re_, f2_nim_, f2_im_;
  Tile tw_re_, tw_im_;
  std::vector<FourStepBuf> buf_;
  std::vector<Tile> unit_weight_tiles_;
};

// Resident matrix tiles per term (bf16x3: hi, lo).
std::vector<Tile> FourStepProgram::resident(const std::vector<HbmTensor>& h, int rows, int cols, const char* name) {
  std::vector<Tile> v;
  for (int t = 0; t < a_.f1->terms; ++t) {
    v.push_back(alloc(a_.f1->dtype, rows, cols, name));
    nc_.dma_copy(v.back(), h[static_cast<std::size_t>(t)].tile(0, rows, 0, cols));
  }
  return v;
}

// The tables of one DFT matrix the pass uses (re always; -im and im when asked), per term. All
// three: one DMA per term from the matrix's [rows, 3 cols] layout, the tiles its column ranges.
void FourStepProgram::resident_matrix(const DftMatrix& f, int n, bool want_nim, bool want_im, std::vector<Tile>* re,
                                      std::vector<Tile>* im, std::vector<Tile>* nim) {
  if (!(want_nim && want_im)) {
    *re = resident(f.re, n, n, "F re");
    if (want_im) *im = resident(f.im, n, n, "F im");
    if (want_nim) *nim = resident(f.neg_im, n, n, "-F im");
    return;
  }
  for (int t = 0; t < f.terms; ++t) {
    const Tile all = alloc(f.dtype, n, 3 * n, "F re, im, -im");
    nc_.dma_copy(all, f.all[static_cast<std::size_t>(t)].tile(0, n, 0, 3 * n));
    re->push_back(all.cols(0, n));
    im->push_back(all.cols(n, n));
    nim->push_back(all.cols(2 * n, n));
  }
}

// The two planes of one operand with their values (the DMA's side) adjacent: [rows, 2 cols].
void FourStepProgram::plane_pair(int rows, std::int64_t cols, const char* name, Plane* re, Plane* im, Tile* both) {
  *both = alloc(s_.split ? DType::f32 : s_.data_dtype, rows, 2 * cols, name);
  for (int k = 0; k < 2; ++k) {
    Plane& q = k == 0 ? *re : *im;
    (s_.split ? q.raw : q.hi) = both->cols(k * cols, cols);
    if (s_.split) {
      q.hi = alloc(s_.data_dtype, rows, cols, name);
      q.lo = alloc(DType::bf16, rows, cols, name);
    }
  }
}

Plane FourStepProgram::plane(int rows, std::int64_t cols, const char* name) {
  Plane q;
  q.hi = alloc(s_.data_dtype, rows, cols, name);
  if (s_.split) {
    q.lo = alloc(DType::bf16, rows, cols, name);
    q.raw = alloc(DType::f32, rows, cols, name);
  }
  return q;
}

// F1 (stage 1's moving operand): the first thing TensorE needs, loaded first.
void FourStepProgram::load_f1() {
  resident_matrix(*a_.f1, s_.K1, !s_.in_real, true, &f1_re_, &f1_im_, &f1_nim_);
}

// F2 (unless it is F1) and the twiddles: needed after stage 1 of the first group, so loaded after
// its input.
void FourStepProgram::load_f2_twiddles() {
  const int K1 = s_.K1, M1 = s_.M1;
  const bool f2_im = !s_.out_real;
  if (s_.shared_f) {  // F1's tiles hold re, im and (complex input) -im
    f2_re_ = f1_re_;
    f2_im_ = f1_im_;
    f2_nim_ = s_.in_real ? resident(a_.f2->neg_im, M1, M1, "-F2 im") : f1_nim_;
  } else {
    resident_matrix(*a_.f2, M1, true, f2_im, &f2_re_, &f2_im_, &f2_nim_);
  }
  // One block's twiddles [M1, K1], read by every block of a group through a stride-0 free dim.
  // Both planes in one DMA when the table holds them one after the other (the plan's layout).
  if (a_.tw_im == a_.tw_re + std::int64_t{M1} * K1) {
    const Tile both = alloc(DType::f32, M1, 2 * K1, "twiddle re, im");
    nc_.dma_copy(both, tile::hbm_view(a_.tw_re, DType::f32, M1, K1, {{2, std::int64_t{M1} * K1}, {K1, 1}}));
    tw_re_ = both.cols(0, K1);
    tw_im_ = both.cols(K1, K1);
    return;
  }
  tw_re_ = alloc(DType::f32, M1, K1, "twiddle re");
  tw_im_ = alloc(DType::f32, M1, K1, "twiddle im");
  nc_.dma_copy(tw_re_, HbmTensor::wrap(const_cast<float*>(a_.tw_re), DType::f32, {M1, K1}).tile(0, M1, 0, K1));
  nc_.dma_copy(tw_im_, HbmTensor::wrap(const_cast<float*>(a_.tw_im), DType::f32, {M1, K1}).tile(0, M1, 0, K1));
}

void FourStepProgram::allocate() {
  const int K1 = s_.K1, M1 = s_.M1;
  buf_.resize(static_cast<std::size_t>(s_.nsets));
  for (FourStepBuf& b : buf_) {
    if (s_.merged_in) {
      plane_pair(K1, s_.XW, "x re, im", &b.x_re, &b.x_im, &b.x_both);
    } else {
      b.x_re = plane(K1, s_.XW, "x re");
      if (!s_.in_real) b.x_im = plane(K1, s_.XW, "x im");
    }
    if (s_.split) {
      b.x_resid = alloc(DType::f32, K1, s_.XW, "x split residual");
      b.z_resid = alloc(DType::f32, M1, s_.W, "z split residual");
      b.x_resid_im = alloc(DType::f32, K1, s_.XW, "x im split residual");
      b.z_resid_im = alloc(DType::f32, M1, s_.W, "z im split residual");
    }
    b.y_re = psum_.alloc(DType::f32, M1, {s_.width_max}, "stage 1 / 2 re", 0, AllocFill::none);
    b.y_im = psum_.alloc(DType::f32, M1, {s_.width_max}, "stage 1 / 2 im", 0, AllocFill::none);
    b.z_re = plane(M1, s_.W, "twiddled re");
    b.z_im = plane(M1, s_.W, "twiddled im");
    b.tmp = sbuf_.alloc(DType::f32, M1, {4, s_.W}, "twiddle products", 0, AllocFill::none);
    if (s_.merged_out) {
      b.out_both = alloc(DType::f32, M1, 2 * s_.W, "out re, im");
      b.out_re = b.out_both.cols(0, s_.W);
      b.out_im = b.out_both.cols(s_.W, s_.W);
    } else {
      b.out_re = alloc(DType::f32, M1, s_.W, "out re");
      if (!s_.out_real) b.out_im = alloc(DType::f32, M1, s_.W, "out im");
    }
  }
  // A C2R half spectrum (in_len < N): element k = a n2 + j2 exists for rows a < whole_rows and the
  // first rest_cols columns of row whole_rows. The load tiles are zeroed once (compute engines
  // address partition ranges aligned to 32, so the padding is not zeroed row by row); the loads
  // then only ever write the existing elements.
  if (s_.in_len < s_.N)
    for (const FourStepBuf& b : buf_)
      for (const Plane* x : {&b.x_re, &b.x_im})
        if (x->hi.partitions != 0) nc_.memset(value(*x), 0.0f);
  // Per-partition weights of the columns j2 that hold a unit-weight input (see unit_weight_cols).
  for (std::size_t c = 0; c < s_.unit_weight_cols.size(); ++c) {
    unit_weight_tiles_.push_back(alloc(DType::f32, K1, 1, "c2r unit weights"));
    nc_.dma_copy(unit_weight_tiles_.back(),
                 HbmTensor::wrap(const_cast<float*>(s_.unit_weights.data()) + c * static_cast<std::size_t>(K1), DType::f32,
                                 {K1, 1})
                     .tile(0, K1, 0, 1));
  }
}


// bf16x3: hi = bf16(x), lo = bf16(x - hi) from the fp32 value (RNE), as dft_pass splits, both
// planes in lockstep (tile::split_terms: each step for each plane in turn, so the two chains'
// latencies overlap). The roundings (SBUF -> SBUF copies) run on ScalarE, otherwise idle but for
// stage 2's evacuation; the exact subtraction (a tensor_tensor, which ScalarE has not) on
// `subtract`. One RNE conversion of the same fp32 value gives the same bits on any engine.
void FourStepProgram::split_planes(const Plane& re, const Tile& resid_re, const Plane* im, const Tile& resid_im,
                                   std::int64_t cols, Engine subtract) {
  const std::array<Tile, 2> tr{re.hi.cols(0, cols), re.lo.cols(0, cols)};
  std::array<tile::SplitOperand, 2> ops{tile::SplitOperand{re.raw.cols(0, cols), resid_re.cols(0, cols), tr},
                                        tile::SplitOperand{}};
  std::array<Tile, 2> ti;
  if (im != nullptr) {
    ti = {im->hi.cols(0, cols), im->lo.cols(0, cols)};
    ops[1] = tile::SplitOperand{im->raw.cols(0, cols), resid_im.cols(0, cols), ti};
  }
  const Engine round = s_.round_engine == Engine::scalar ? Engine::scalar : subtract;
  tile::split_terms(nc_, std::span(ops).first(im != nullptr ? 2 : 1), tile::TermSplit{round, subtract, kRne, false});
}

// Partitions (t1, a), free (block, t2, j2).
void FourStepProgram::load_plane(std::int64_t gi, const float* src, const Plane& x) {
  const std::int64_t nbc = blocks_of(gi);
  const int s1 = s_.s1, n1 = s_.n1;
  const tile::FreePattern free_dims{{nbc, s1 * a_.in_dist}, {s_.s2, nbc * s1 * a_.in_dist}, {a_.n2, a_.in.stride}};
  const Tile t = value(x).cols(0, nbc * s_.M1);
  if (s_.in_len == s_.N) {
    dma_nested_partitions(nc_, false, t, src + in_base(gi), s1, n1, a_.in_dist, a_.n2 * a_.in.stride, free_dims);
    return;
  }
  for (int t1 = 0; t1 < s1; ++t1) {
    const float* base = src + in_base(gi) + t1 * a_.in_dist;
    if (s_.whole_rows > 0)
      dma_nested_partitions(nc_, false, t.rows(t1 * n1, static_cast<int>(s_.whole_rows)), base, 1,
                            static_cast<int>(s_.whole_rows), 0, a_.n2 * a_.in.stride, free_dims);
    if (s_.rest_cols > 0) {
      const Tile row = value(x)
                           .rows(static_cast<int>(t1 * n1 + s_.whole_rows), 1)
                           .cols(0, nbc * s_.M1)
                           .reshape({nbc, s_.s2, a_.n2})
                           .slice(2, 0, s_.rest_cols);
      dma_nested_partitions(nc_, false, row, base + s_.whole_rows * a_.n2 * a_.in.stride, 1, 1, 0, a_.n2 * a_.in.stride,
                            {{nbc, s1 * a_.in_dist}, {s_.s2, nbc * s1 * a_.in_dist}, {s_.rest_cols, a_.in.stride}});
    }
  }
}

void FourStepProgram::load_group(std::int64_t gi) {
  const FourStepBuf& b = buffers(gi);
  const std::int64_t nbc = blocks_of(gi);
  if (s_.merged_in && nbc == s_.nb) {
    // Both planes in one DMA: free (plane, block, t2, j2), the planes 1 float apart in HBM.
    const int s1 = s_.s1;
    dma_nested_partitions(nc_, false, b.x_both, a_.in.re + in_base(gi), s1, s_.n1, a_.in_dist, a_.n2 * a_.in.stride,
                          {{2, 1}, {nbc, s1 * a_.in_dist}, {s_.s2, nbc * s1 * a_.in_dist}, {a_.n2, a_.in.stride}});
    return;
  }
  load_plane(gi, a_.in.re, b.x_re);
  if (!s_.in_real) load_plane(gi, a_.in.im, b.x_im);
}

// The pipeline's first load, block by block and plane by plane, with F1's tables in the order
// stage 1's first products read them: TensorE starts after F1 re and one block of x re have
// arrived instead of after all of F1 and the whole group.
void FourStepProgram::load_group_by_block(std::int64_t gi) {
  const FourStepBuf& b = buffers(gi);
  const std::int64_t nbc = blocks_of(gi);
  const int s1 = s_.s1, M1 = s_.M1;
  for (std::int64_t i = 0; i < nbc; ++i) {
    const tile::FreePattern free_dims{{s_.s2, nbc * s1 * a_.in_dist}, {a_.n2, a_.in.stride}};
    const std::int64_t at = in_base(gi) + i * s1 * a_.in_dist;
    if (i == 0) f1_re_ = resident(a_.f1->re, s_.K1, s_.K1, "F1 re");
    dma_nested_partitions(nc_, false, value(b.x_re).cols(i * M1, M1), a_.in.re + at, s1, s_.n1, a_.in_dist,
                          a_.n2 * a_.in.stride, free_dims);
    if (i == 0) {
      f1_im_ = resident(a_.f1->im, s_.K1, s_.K1, "F1 im");
      f1_nim_ = resident(a_.f1->neg_im, s_.K1, s_.K1, "-F1 im");
    }
    dma_nested_partitions(nc_, false, value(b.x_im).cols(i * M1, M1), a_.in.im + at, s1, s_.n1, a_.in_dist,
                          a_.n2 * a_.in.stride, free_dims);
  }
}

// C2R: halve the inputs whose weight c_k is 1 (k = 0, and k = N/2 for even N) against the
// doubled f1: one per-partition multiply of each column j2 that holds one, over all partitions.
void FourStepProgram::halve_unit_weights(const Plane& x, std::int64_t nbc) {
  for (std::size_t c = 0; c < s_.unit_weight_cols.size(); ++c) {
    const Tile v = value(x).cols(0, nbc * s_.M1).reshape({nbc, s_.s2, a_.n2}).slice(2, s_.unit_weight_cols[c], 1);
    nc_.tensor_scalar(v, v, AluOp::multiply, unit_weight_tiles_[c]);
  }
}

// acc (+)= stationary^T moving over the mode's term pairs, smallest products first (lo hi, hi lo,
// hi hi); `data_stationary` says which side holds the data terms (columns c0.. of the plane).
void FourStepProgram::product(tile::Accumulator& acc, const std::vector<Tile>& F, const Plane& x, std::int64_t c0,
                              std::int64_t cols, bool data_stationary) {
  const std::array<Tile, 2> d{x.hi.cols(c0, cols), s_.split ? x.lo.cols(c0, cols) : Tile{}};
  const std::span<const Tile> data = std::span(d).first(s_.split ? 2 : 1);
  const std::span<const tile::TermPair> pairs =
      !s_.split ? std::span<const tile::TermPair>(tile::kOneTerm)
                : std::span<const tile::TermPair>(data_stationary ? tile::kHiLoPairsSwapped : tile::kHiLoPairs);
  data_stationary ? acc.terms(data, F, pairs) : acc.terms(F, data, pairs);
}

void FourStepProgram::stage1(std::int64_t gi) {
  // One block per matmul: Y = X^T F1 (complex: 4 real products, 2 for real input).
  const FourStepBuf& b = buffers(gi);
  const std::int64_t nbc = blocks_of(gi);
  const int K1 = s_.K1, M1 = s_.M1;
  if (s_.in_len < s_.N) {
    halve_unit_weights(b.x_re, nbc);
    if (!s_.in_real) halve_unit_weights(b.x_im, nbc);
  }
  if (s_.split) {
    split_planes(b.x_re, b.x_resid, s_.in_real ? nullptr : &b.x_im, b.x_resid_im, nbc * M1, Engine::vector);
  }
  for (std::int64_t i = 0; i < nbc; ++i) {
    tile::Accumulator yr(nc_, b.y_re.cols(i * K1, K1)), yi(nc_, b.y_im.cols(i * K1, K1));
    product(yr, f1_re_, b.x_re, i * M1, M1, true);
    product(yi, f1_im_, b.x_re, i * M1, M1, true);
    if (!s_.in_real) {
      product(yr, f1_nim_, b.x_im, i * M1, M1, true);
      product(yi, f1_re_, b.x_im, i * M1, M1, true);
    }
  }
}

void FourStepProgram::twiddle(std::int64_t gi) {
  // Z = Y w while evacuating PSUM (fp32 products, one rounding to the tile dtype; bf16x3: the
  // fp32 value, then its hi/lo split). The products read PSUM (VectorE); the SBUF-only sums
  // (and bf16x3's split of Z) go to GpSimd where it has its own SBUF port (trn2+). p2/p3 keep
  // the imaginary products apart from the real ones, so GpSimd's subtract overlaps VectorE's
  // next two multiplies.
  const FourStepBuf& b = buffers(gi);
  const std::int64_t nbc = blocks_of(gi), w = nbc * s_.K1, K1 = s_.K1;
  const Tile yr = b.y_re.cols(0, w).reshape({nbc, K1}), yi = b.y_im.cols(0, w).reshape({nbc, K1});
  // One block's twiddles [M1, K1] read by the nbc blocks through a stride-0 outer dimension.
  const Tile tr = tile::stack_outer(tw_re_, nbc, 0), ti = tile::stack_outer(tw_im_, nbc, 0);
  const Tile zr = value(b.z_re).cols(0, w).reshape({nbc, K1});
  const Tile zi = value(b.z_im).cols(0, w).reshape({nbc, K1});
  auto tmp = [&](int k) { return b.tmp.slice(0, k, 1).reshape({s_.W}).cols(0, w).reshape({nbc, K1}); };
  nc_.tensor_tensor(tmp(0), yr, tr, AluOp::multiply);
  nc_.tensor_tensor(tmp(1), yi, ti, AluOp::multiply);
  nc_.tensor_tensor(zr, tmp(0), tmp(1), AluOp::subtract, s_.sum_engine, s_.z_round);
  nc_.tensor_tensor(tmp(2), yr, ti, AluOp::multiply);
  nc_.tensor_tensor(tmp(3), yi, tr, AluOp::multiply);
  nc_.tensor_tensor(zi, tmp(2), tmp(3), AluOp::add, s_.sum_engine, s_.z_round);
  if (s_.split) {
    split_planes(b.z_re, b.z_resid, &b.z_im, b.z_resid_im, w, s_.sum_engine);
  }
}

// Stores one output plane of group gi: partitions (t2, k2), free (block, t1, k1).
void FourStepProgram::store_plane(std::int64_t gi, float* plane_out, const Tile& sb) {
  const std::int64_t nbc = blocks_of(gi), os = a_.out.stride;
  const int s1 = s_.s1, s2 = s_.s2, n2 = s_.n2;
  if (a_.out_len == 0 || a_.out_len >= a_.n1 * a_.n2) {
    // sb: one plane [M1, w], or both (merged_out) [M1, 2 w] with the planes 1 float apart in HBM.
    const bool both = sb.free_size() == 2 * nbc * s1 * a_.n1;
    tile::FreePattern free_dims{{nbc, s1 * a_.out_dist}, {s1, a_.out_dist}, {a_.n1, os}};
    if (both) free_dims = {{2, 1}, {nbc, s1 * a_.out_dist}, {s1, a_.out_dist}, {a_.n1, os}};
    dma_nested_partitions(nc_, true, sb, plane_out + out_base(gi), s2, n2, nbc * s1 * a_.out_dist, a_.n1 * os, free_dims);
    return;
  }
  // Truncated output (k = k1 + n1 k2 < out_len): rows k2 < out_len / n1 whole, then the first
  // out_len mod n1 columns of the next row.
  const std::int64_t whole = a_.out_len / a_.n1, rest = a_.out_len % a_.n1;
  for (int t2 = 0; t2 < s2; ++t2) {
    float* dst = plane_out + out_base(gi) + t2 * nbc * s1 * a_.out_dist;
    if (whole > 0)
      dma_nested_partitions(nc_, true, sb.rows(t2 * n2, static_cast<int>(whole)), dst, 1, static_cast<int>(whole), 0,
                            a_.n1 * os, {{nbc, s1 * a_.out_dist}, {s1, a_.out_dist}, {a_.n1, os}});
    if (rest > 0) {
      const Tile row = sb.rows(t2 * n2 + static_cast<int>(whole), 1).reshape({nbc, s1, a_.n1}).slice(2, 0, rest);
      dma_nested_partitions(nc_, true, row, dst + whole * a_.n1 * os, 1, 1, 0, a_.n1 * os,
                            {{nbc, s1 * a_.out_dist}, {s1, a_.out_dist}, {rest, os}});
    }
  }
}

void FourStepProgram::stage2(std::int64_t gi, std::int64_t c0, std::int64_t cols) {
  // O = F2^T Z into stage 1's PSUM banks (which the twiddle has read); columns c0 .. c0 + cols
  // (default: the group's). Every output column is its own dot products, so a column range
  // computes exactly the bits the whole group would.
  const FourStepBuf& b = buffers(gi);
  const std::int64_t w = cols < 0 ? blocks_of(gi) * s_.K1 : cols;
  tile::Accumulator orr(nc_, b.y_re.cols(c0, w));
  product(orr, f2_re_, b.z_re, c0, w, false);
  product(orr, f2_nim_, b.z_im, c0, w, false);
  if (!s_.out_real) {
    tile::Accumulator oi(nc_, b.y_im.cols(c0, w));
    product(oi, f2_im_, b.z_re, c0, w, false);
    product(oi, f2_re_, b.z_im, c0, w, false);
  }
}

// The last group of a TensorE-bound program, block by block: stage 2, evacuation and store of
// one block's columns at a time, so that after TensorE's last matmul only one block is left to
// evacuate and store (the pipeline's drain), not the whole group.
void FourStepProgram::drain_by_block(std::int64_t gi) {
  const FourStepBuf& b = buffers(gi);
  const std::int64_t nbc = blocks_of(gi), K1 = s_.K1, os = a_.out.stride;
  const int s1 = s_.s1;
  for (std::int64_t i = 0; i < nbc; ++i) {
    stage2(gi, i * K1, K1);
    nc_.tensor_copy(b.out_re.cols(i * K1, K1), b.y_re.cols(i * K1, K1), Engine::scalar);
    nc_.tensor_copy(b.out_im.cols(i * K1, K1), b.y_im.cols(i * K1, K1), Engine::scalar);
    for (int k = 0; k < 2; ++k)
      dma_nested_partitions(nc_, true, (k == 0 ? b.out_re : b.out_im).cols(i * K1, K1),
                            (k == 0 ? a_.out.re : a_.out.im) + out_base(gi) + i * s1 * a_.out_dist, s_.s2, s_.n2,
                            nbc * s1 * a_.out_dist, a_.n1 * os, {{s1, a_.out_dist}, {a_.n1, os}});
  }
}

void FourStepProgram::stage2_store(std::int64_t gi) {
  stage2(gi);
  evacuate_store(gi);
}

void FourStepProgram::evacuate_store(std::int64_t gi) {
  // Evacuated by ScalarE (VectorE is busy twiddling the next group); stored with partitions
  // (t2, k2), free (block, t1, k1).
  const FourStepBuf& b = buffers(gi);
  const std::int64_t w = blocks_of(gi) * s_.K1;
  nc_.tensor_copy(b.out_re.cols(0, w), b.y_re.cols(0, w), Engine::scalar);
  if (!s_.out_real) nc_.tensor_copy(b.out_im.cols(0, w), b.y_im.cols(0, w), Engine::scalar);
  if (s_.merged_out && w == s_.W) {  // both planes, one DMA
    store_plane(gi, a_.out.re, b.out_both);
    return;
  }
  store_plane(gi, a_.out.re, b.out_re.cols(0, w));
  if (!s_.out_real) store_plane(gi, a_.out.im, b.out_im.cols(0, w));
}

// Each engine runs its instructions in program order, so the program is software-pipelined:
// loads up to nsets - 1 groups ahead (a DMA queue is in order too: a store that waits for its
// group's compute must not hold back the loads behind it), stage 1 one group ahead of the
// twiddle, stage 2 and the stores. TensorE then alternates stage 2 of group g with stage 1 of
// group g + 1 while VectorE twiddles.
//
// The DMA queues take F1 first, then the first group's input (with F1's tables interleaved, block
// by block, where TensorE is the busier engine: first_by_block), then F2 and the twiddles, which
// stage 2 of the first group needs only after stage 1 of two groups, then the look-ahead loads.
void FourStepProgram::run() {
  allocate();
  const bool by_block = s_.first_by_block && g_begin_ < g_end_;
  // Stage 1 two groups ahead (below); not bf16x3 with its roundings on VectorE / GpSimd (trn2),
  // which modeled 145.7 instead of 122.5 us at 2^20 points that way.
  const bool deep = s_.nsets >= 3 && !(s_.split && s_.round_engine != Engine::scalar);
  by_block ? load_group_by_block(g_begin_) : load_f1();
  // F2 and the twiddles: where TensorE is the busier engine, after the input of both groups
  // stage 1 runs before the first twiddle (TensorE never waits for them); else after the first
  // group (the first twiddle waits for them less).
  const std::int64_t tables_after = std::min(g_end_ - 1, g_begin_ + (deep && by_block ? 1 : 0));
  auto first_loads = [&](std::int64_t gi) {
    if (!(by_block && gi == g_begin_)) load_group(gi);
    if (gi == tables_after) load_f2_twiddles();
  };
  if (g_begin_ == g_end_) load_f2_twiddles();
  if (s_.nsets == 1) {  // one buffer set (SBUF-bound shapes): no look-ahead, a group at a time
    for (std::int64_t gi = g_begin_; gi < g_end_; ++gi) {
      first_loads(gi);
      stage1(gi);
      twiddle(gi);
      stage2_store(gi);
    }
    return;
  }
  const std::int64_t ahead = s_.nsets - 1;  // loads in flight
  for (std::int64_t gi = g_begin_; gi < std::min(g_end_, g_begin_ + ahead); ++gi) first_loads(gi);
  if (g_begin_ == g_end_) return;
  if (!deep) {  // stage 1 one group ahead of twiddle / stage 2 / store
    stage1(g_begin_);
    for (std::int64_t gi = g_begin_; gi < g_end_; ++gi) {
      if (gi + ahead < g_end_) load_group(gi + ahead);
      if (gi + 1 < g_end_) stage1(gi + 1);
      twiddle(gi);
      stage2_store(gi);
    }
    return;
  }
  // Three or more sets: stage 1 two groups ahead of stage 2, the twiddle one. Stage 2 of group g
  // then never waits for the twiddle of g (it ran during stage 2 of g - 1), and in the trace the
  // twiddle of g + 1 comes before the evacuation of g, so where VectorE and ScalarE share the
  // PSUM port (trn1), which serves them in program order, the evacuation waits for the twiddle
  // rather than the twiddle (and through it stage 2 of g + 1) for the evacuation.
  stage1(g_begin_);
  if (g_begin_ + 1 < g_end_) stage1(g_begin_ + 1);
  twiddle(g_begin_);
  for (std::int64_t gi = g_begin_; gi < g_end_; ++gi) {
    if (gi + ahead < g_end_) load_group(gi + ahead);
    if (gi + 1 == g_end_ && s_.first_by_block && s_.merged_out) {
      drain_by_block(gi);
      break;
    }
    stage2(gi);
    if (gi + 1 < g_end_) twiddle(gi + 1);
    evacuate_store(gi);
    if (gi + 2 < g_end_) stage1(gi + 2);
  }
}

}  // namespace

// four_step_pass — a four-step (Bailey) transform N = n1 n2 with both DFT-GEMM stages and the
// twiddle multiply on chip; the data cross HBM once in and once out.
//   Layout     groups of nbc <= 512 / (s1 n1) blocks of s1 s2 transforms, also enumerated over an
//              outer batch dimension; within a group, transform tau = t1 + s1 (block + nbc t2)
//              (t1 < s1, t2 < s2), element j = a n2 + j2. t2 outermost makes the s2 stores of a group
//              (one per t2) write disjoint HBM ranges, so they run side by side on their DMA engines:
//              with tau = t1 + s1 t2 + s1 s2 block every store's range spanned the group's, and the
//              cost model ordered them one after another (2 s2 transfers on 2 of 16 engines each,
//              35 us of drain at N = 256).
//              X tile [(t1, a) partitions, (block, t2, j2) free]: one DMA per plane per group (per
//              t1 when the transforms are not back to back); interleaved complex data (im = re + 1):
//              one DMA for both planes of a full group, load and store (free (plane, ...)). C2R
//              half spectra (in_len < N): only the given elements are loaded into tiles zeroed once
//              per program; F1 is doubled and the c_k = 1 inputs (k = 0, N/2) halved by one
//              per-partition multiply per column.
//   Stage 1    the data are the STATIONARY operand: Y[(t2, j2), (t1, k1)] = sum_(t1', a)
//              X[(t1', a), (t2, j2)] F1[(t1', a), (t1, k1)] with F1 = diag(F_n1, ..., F_n1) (s1 copies)
//              as the moving operand, one matmul per block and real product, the blocks side by side
//              in one PSUM bank. Swapping the roles puts j2 on the partitions, i.e. the transpose
//              between the two stages is free: no DMA pass and no TensorE transpose.
//   Twiddle    Z = Y w_N^(k1 j2): products on VectorE reading PSUM, the sums on GpSimd where it has
//              its own SBUF port; written to SBUF in the tile dtype.
//   Pipeline   every engine runs in program order: F1, the first group, F2 / twiddles, then loads
//              nsets - 1 groups ahead; stage 1 two groups ahead of stage 2 (one for trn2's bf16x3 or two
//              buffer sets), the twiddle of g + 1 before the evacuation of g; stage 2 reuses stage
//              1's PSUM banks. TensorE-bound shapes (trn2 fp32): the first group loads block by
//              block and the last group drains block by block (docs/trnfft.md "Roofline").
//   Stage 2    O[(t2, k2), (block, t1, k1)] = sum_j2 F2[(t2, j2), (t2, k2)] Z[(t2, j2), ...] with F2 =
//              diag(F_n2, ...) (s2 copies) stationary and Z moving (<= one PSUM bank wide).
//   Store      X_tau[k1 + n1 k2]: partitions (t2, k2), free (block, t1, k1); one DMA per t2 unless
//              s1 = 1 and the transforms are contiguous; out_len < N (R2C) stores the rows k2 below
//              out_len / n1 and the first out_len mod n1 columns of the next.
//   Costs      per real product and 128 x 128 block: stage 1 max(64, s1 n1) rows, stage 2 s1 n1
//              columns of 128-row matmuls: the same TensorE time per point as two stacked dft_pass
//              stages, and a third of their HBM traffic (no scratch round trip, no transpose pass).
//   Modes      fp32; bf16 (the DMA rounds the input, the twiddle output is rounded once, RNE);
//              bf16x3 (the fp32 data and the fp32 twiddled Z split into hi = bf16(v), lo = bf16(v - hi),
//              re and im in lockstep: subtractions on VectorE / GpSimd, roundings there too or, where
//              VectorE and GpSimd share the SBUF port (trn1), on ScalarE; products lo*hi, hi*lo,
//              hi*hi per real product in one PSUM group, as in dft_pass).
Trace four_step_pass(const LaunchConfig& lc_in, const FourStepPassArgs& a) {
  const FourStepShape s = four_step_shape(hardware_spec(lc_in.core.generation), a);
  LaunchConfig lc = lc_in;
  const int programs = programs_for(static_cast<std::size_t>(s.groups));
  lc.grid = {programs, 1, 1};
  LaunchResult r = launch(lc, [&](NeuronCore& nc) { FourStepProgram(nc, a, s, programs).run(); });
  return std::move(r.trace);
}

Trace convert_pass(const LaunchConfig& lc_in, const void* src, DType src_dtype, void* dst, DType dst_dtype,
                   std::int64_t count) {
  const HardwareSpec& hw = hardware_spec(lc_in.core.generation);
  const std::int64_t P = hw.pmax, chunk = 4096;  // elements per partition per DMA
  const std::int64_t rows = count / P, tail = count % P;
  const std::int64_t chunks = (rows + chunk - 1) / chunk + (tail > 0 ? 1 : 0);
  LaunchConfig lc = lc_in;
  const int programs = programs_for(static_cast<std::size_t>(chunks));
  lc.grid = {programs, 1, 1};
  auto view = [](const void* base, DType dt, std::int64_t first, std::int64_t np, std::int64_t pstride, std::int64_t n) {
    return tile::hbm_view(static_cast<const std::byte*>(base) + first * dtype_size(dt), dt,
                          static_cast<std::int32_t>(np), pstride, {{n, 1}});
  };
  LaunchResult r = launch(lc, [&](NeuronCore& nc) {
    const std::int64_t c_begin = chunks * nc.program_id(0) / programs, c_end = chunks * (nc.program_id(0) + 1) / programs;
    AllocScope sbuf(nc.sbuf());
    const Tile buf[2] = {sbuf.alloc(dst_dtype, static_cast<int>(P), {chunk}, "converted"),
                         sbuf.alloc(dst_dtype, static_cast<int>(P), {chunk}, "converted")};
    for (std::int64_t c = c_begin; c < c_end; ++c) {
      const Tile& b = buf[static_cast<std::size_t>(c - c_begin) % 2];
      // Partition p of chunk c holds elements p * rows + [c0, c0 + n) (the tail: one element per partition).
      const bool is_tail = c * chunk >= rows;
      const std::int64_t c0 = is_tail ? 0 : c * chunk, n = is_tail ? 1 : std::min(chunk, rows - c0);
      const std::int64_t np = is_tail ? tail : P, first = is_tail ? rows * P : c0, pstride = is_tail ? 1 : rows;
      const Tile sb = b.rows(0, static_cast<int>(np)).cols(0, n);
      nc.dma_copy(sb, view(src, src_dtype, first, np, pstride, n));   // converts src -> dst dtype (RNE)
      nc.dma_copy(view(dst, dst_dtype, first, np, pstride, n), sb);
    }
  });
  return std::move(r.trace);
}

// diag_pass — out[e, j] = t[e] * in[e, j] (complex, fp32 on VectorE) for e < min(in_len, out_len);
// zero for in_len <= e < out_len. Elements on partitions (chunks of pmax), transforms on the free
// axis; t is a per-partition scalar. Engines: DMA, VectorE.
Trace diag_pass(const LaunchConfig& lc_in, const DiagPassArgs& a) {
  const HardwareSpec& hw = hardware_spec(lc_in.core.generation);
  const std::int64_t width_max = 2048;  // SBUF free elements per tile: 8 KiB per partition per plane
  const std::vector<ColumnGroup> groups = column_groups(a.batch, width_max);
  LaunchConfig lc = lc_in;
  const int programs = programs_for(groups.size());
  lc.grid = {programs, 1, 1};
  const bool in_real = a.in.im == nullptr, out_real = a.out.im == nullptr;
  const std::int64_t P = hw.pmax;
  const std::int64_t live = std::min(a.in_len, a.out_len);
  LaunchResult r = launch(lc, [&](NeuronCore& nc) {
    const std::size_t g_begin = groups.size() * static_cast<std::size_t>(nc.program_id(0)) / static_cast<std::size_t>(programs);
    const std::size_t g_end = groups.size() * static_cast<std::size_t>(nc.program_id(0) + 1) / static_cast<std::size_t>(programs);
    AllocScope sbuf(nc.sbuf());
    // Two buffer sets, alternating by chunk, so that a chunk's loads overlap the previous chunk's
    // VectorE work and stores.
    struct Set {
      Tile xr, xi, orr, oi, tmp, tr, ti;
    } sets[2];
    for (Set& q : sets) {
      q.xr = sbuf.alloc(DType::f32, static_cast<int>(P), {width_max}, "x re");
      q.xi = sbuf.alloc(DType::f32, static_cast<int>(P), {width_max}, "x im");
      q.orr = sbuf.alloc(DType::f32, static_cast<int>(P), {width_max}, "out re");
      q.oi = sbuf.alloc(DType::f32, static_cast<int>(P), {width_max}, "out im");
      q.tmp = sbuf.alloc(DType::f32, static_cast<int>(P), {width_max}, "product");
      q.tr = sbuf.alloc(DType::f32, static_cast<int>(P), {1}, "t re");
      q.ti = sbuf.alloc(DType::f32, static_cast<int>(P), {1}, "t im");
    }
    std::size_t chunk = 0;
    for (std::size_t gi = g_begin; gi < g_end; ++gi) {
      const ColumnGroup& g = groups[gi];
      const std::int64_t w = g.width();
      for (std::int64_t e0 = 0; e0 < a.out_len;) {
        const Set& q = sets[chunk++ % 2];
        const Tile &xr = q.xr, &xi = q.xi, &orr = q.orr, &oi = q.oi, &tmp = q.tmp, &tr = q.tr, &ti = q.ti;
        // Chunks never straddle `live`, so a chunk is all data or all zero padding.
        const std::int64_t e1 = std::min({e0 + P, a.out_len, e0 < live ? live : a.out_len});
        const int np = static_cast<int>(e1 - e0);
        const Tile vr = orr.rows(0, np).cols(0, w), vi = oi.rows(0, np).cols(0, w);
        if (e0 >= live) {
          nc.memset(vr, 0.0f);
          if (!out_real) nc.memset(vi, 0.0f);
        } else {
          const Tile ar = xr.rows(0, np).cols(0, w), ai = xi.rows(0, np).cols(0, w), t = tmp.rows(0, np).cols(0, w);
          const bool pure_copy = a.t_re == nullptr && in_real == out_real;
          nc.dma_copy(ar, hbm_view(a.in.re, g.in_off, a.in.stride, e0, np, g, false));
          if (!in_real && !(pure_copy && np <= P / 2))
            nc.dma_copy(ai, hbm_view(a.in.im, g.in_off, a.in.stride, e0, np, g, false));
          if (pure_copy) {
            // A pure copy (a transpose or a truncation): DMA in, DMA out of the same SBUF tile. DMA
            // queues serve fixed partition ranges (8 partitions each), so with <= pmax/2 partitions
            // the imaginary plane goes to the upper half and its DMAs run on the other queues.
            const Tile ci = np <= P / 2 ? xi.rows(static_cast<std::int32_t>(P / 2), np).cols(0, w) : ai;
            if (!in_real && np <= P / 2) nc.dma_copy(ci, hbm_view(a.in.im, g.in_off, a.in.stride, e0, np, g, false));
            nc.dma_copy(hbm_view(a.out.re, g.out_off, a.out.stride, e0, np, g, true), ar);
            if (!out_real) nc.dma_copy(hbm_view(a.out.im, g.out_off, a.out.stride, e0, np, g, true), ci);
            e0 = e1;
            continue;
          }
          if (a.t_re == nullptr) {
            nc.tensor_copy(vr, ar);
            if (!out_real) in_real ? nc.memset(vi, 0.0f) : nc.tensor_copy(vi, ai);
          } else {
            const Tile cr = tr.rows(0, np), ci = ti.rows(0, np);
            nc.dma_copy(cr, HbmTensor::wrap(const_cast<float*>(a.t_re), DType::f32, {live, 1}).tile(e0, np, 0, 1));
            nc.dma_copy(ci, HbmTensor::wrap(const_cast<float*>(a.t_im), DType::f32, {live, 1}).tile(e0, np, 0, 1));
            // re = xr tr - xi ti ; im = xr ti + xi tr
            if (in_real) {
              nc.tensor_scalar(vr, ar, AluOp::multiply, cr);
              if (!out_real) nc.tensor_scalar(vi, ar, AluOp::multiply, ci);
            } else {
              nc.tensor_scalar(vr, ar, AluOp::multiply, cr);
              nc.tensor_scalar(t, ai, AluOp::multiply, ci);
              nc.tensor_tensor(vr, vr, t, AluOp::subtract);
              if (!out_real) {
                nc.tensor_scalar(vi, ar, AluOp::multiply, ci);
                nc.tensor_scalar(t, ai, AluOp::multiply, cr);
                nc.tensor_tensor(vi, vi, t, AluOp::add);
              }
            }
          }
        }
        nc.dma_copy(hbm_view(a.out.re, g.out_off, a.out.stride, e0, np, g, true), vr);
        if (!out_real) nc.dma_copy(hbm_view(a.out.im, g.out_off, a.out.stride, e0, np, g, true), vi);
        e0 = e1;
      }
    }
  });
  return std::move(r.trace);
}

}  // namespace trn::fft::detail
