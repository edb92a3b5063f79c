// Conjugate gradients on BSR operators (extension): the solver loop on the host, every vector
// operation a tile kernel (docs/trnsparse.md "Krylov solver"). Vectors live in HBM as [pmax, F]
// row-major arrays (element i at partition i / F, column i % F), zero-padded beyond n; the padding
// of the Jacobi diagonal is 1 so that padded entries stay 0.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include "bsr_kernels.hpp"
#include "trn/sparse/sparse.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/scratch.hpp"
#include "trn/tile/matmul.hpp"

namespace trn::sparse {

namespace {

constexpr std::int64_t kChunk = 2048;

// `moved` of the `count` floats at p as a host-step span (the hull orders it; the moved ones cross the link).
HostSpan part_of(const float* p, std::int64_t count, std::int64_t moved) {
  HostSpan h(p, count);
  h.bytes = static_cast<std::size_t>(std::min(count, moved)) * sizeof(float);
  return h;
}
// An index array as a host-step span.
HostSpan index_span(const void* p, std::int64_t count, IndexType t) {
  return count > 0 ? HostSpan(static_cast<const std::byte*>(p), count * (t == IndexType::i32 ? 4 : 8)) : HostSpan{};
}  // free elements per VectorE pass over a vector

struct Vec {
  ScratchVector<float> data;  // the kernels' HBM: named by allocation in the trace (core/scratch.hpp)
  HbmTensor view;
  Vec(std::int64_t P, std::int64_t F) : data(static_cast<std::size_t>(P * F), 0.0f) {
    view = HbmTensor::wrap(data.data(), DType::f32, {P, F});
  }
};
struct Scalar {
  float value = 0.0f;
  HbmTensor view = HbmTensor::wrap(&value, DType::f32, {1, 1});
};

// dst = src for `count` floats laid out as rows of F (full rows, then a partial one; count <= pmax F),
// by DMA through SBUF, kChunk columns at a time: the staging of the caller's x and b, the write-back
// of x and the copies between vectors (same dtype: bit copies, no engine arithmetic). zero: dst = 0
// instead (a VectorE memset, DMAs out; src unused).
void move_floats(NeuronCore& nc, const float* src, float* dst, std::int64_t count, std::int64_t F, bool zero = false) {
  AllocScope sbuf(nc.sbuf());
  const std::int64_t rows = count / F, tail = count % F, W = std::min(F, kChunk);
  const Tile t = sbuf.alloc(DType::f32, static_cast<int>(std::max<std::int64_t>(1, rows)), {W}, "copy");
  if (zero) nc.memset(t, 0.0f);
  const auto part = [&](std::int64_t r0, std::int64_t nr, std::int64_t len) {
    const HbmTensor from = HbmTensor::wrap(const_cast<float*>(src) + r0 * F, DType::f32, {nr, len}),
                    to = HbmTensor::wrap(dst + r0 * F, DType::f32, {nr, len});
    for (std::int64_t c0 = 0; c0 < len; c0 += W) {
      const std::int64_t w = std::min(W, len - c0);
      const Tile v = t.rows(0, static_cast<std::int32_t>(nr)).cols(0, w);
      if (!zero) nc.dma_copy(v, from.tile(0, nr, c0, w));
      nc.dma_copy(to.tile(0, nr, c0, w), v);
    }
  };
  if (rows > 0) part(0, rows, F);
  if (tail > 0) part(rows, 1, tail);
}

// out = sum_i u_i v_i. VectorE: per chunk, multiply and reduce each partition's row, accumulate the
// [P, 1] partial sums; TensorE: ones[P, 1]^T x partials[P, 1] sums the partitions in increasing order.
// root: out = sqrt(sum) instead (ScalarE sqrt; valid for sums in [2^-116, 2^118] and exactly 0).
void dot_kernel(NeuronCore& nc, const HbmTensor& u, const HbmTensor& v, const HbmTensor& out, bool root = false) {
  const int P = nc.hw().pmax;
  const std::int64_t F = u.shape()[1];
  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  const std::int64_t W = std::min(F, kChunk);
  const Tile tu = sbuf.alloc(DType::f32, P, {W}, "u"), tv = sbuf.alloc(DType::f32, P, {W}, "v");
  const Tile part = sbuf.alloc(DType::f32, P, {1}, "row sums"), acc = sbuf.alloc(DType::f32, P, {1}, "partials");
  const Tile ones = sbuf.alloc(DType::f32, P, {1}, "ones");
  for (std::int64_t f0 = 0; f0 < F; f0 += W) {
    const std::int64_t w = std::min(W, F - f0);
    nc.dma_copy(tu.cols(0, w), u.tile(0, P, f0, w));
    nc.dma_copy(tv.cols(0, w), v.tile(0, P, f0, w));
    nc.tensor_tensor(tu.cols(0, w), tu.cols(0, w), tv.cols(0, w), AluOp::multiply);
    nc.tensor_reduce(f0 == 0 ? acc : part, tu.cols(0, w), AluOp::add);
    if (f0 > 0) nc.tensor_tensor(acc, acc, part, AluOp::add);
  }
  nc.memset(ones, 1.0f);
  tile::PartitionSum total(nc, psum.alloc(DType::f32, 1, {1}, "dot"), ones, tile::PartitionSum::Layout::broadcast);
  total.add(acc);
  const Tile sb = sbuf.alloc(DType::f32, 1, {1}, "dot out");
  total.copy_out(sb);
  if (root) nc.activation(sb, sb, ActFunc::sqrt);
  nc.dma_copy(out.tile(0, 1, 0, 1), sb);
}

// [P, 1] column holding num / den on every partition: VectorE divide on one element, then the
// partition broadcast ones[1, P]^T x a[1, 1] on TensorE (exact: 0 + 1 * a).
Tile broadcast_ratio(NeuronCore& nc, AllocScope& sbuf, AllocScope& psum, const HbmTensor& num, const HbmTensor& den) {
  const int P = nc.hw().pmax;
  const Tile n = sbuf.alloc(DType::f32, 1, {1}, "num"), d = sbuf.alloc(DType::f32, 1, {1}, "den");
  nc.dma_copy(n, num.tile(0, 1, 0, 1));
  nc.dma_copy(d, den.tile(0, 1, 0, 1));
  nc.tensor_tensor(n, n, d, AluOp::divide);
  const Tile ones = sbuf.alloc(DType::f32, 1, {P}, "ones row");
  nc.memset(ones, 1.0f);
  tile::PartitionSum bc(nc, psum.alloc(DType::f32, P, {1}, "broadcast"), ones, tile::PartitionSum::Layout::broadcast);
  bc.add(n);
  const Tile col = sbuf.alloc(DType::f32, P, {1}, "ratio column");
  bc.copy_out(col);
  return col;
}

// y = y + sign * (num / den) * x for each (x, y, sign) pair.
struct Axpy {
  const HbmTensor* x;
  const HbmTensor* y;
  bool subtract;
};
void axpy_kernel(NeuronCore& nc, const HbmTensor& num, const HbmTensor& den, std::initializer_list<Axpy> ops) {
  const int P = nc.hw().pmax;
  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  const Tile a = broadcast_ratio(nc, sbuf, psum, num, den);
  const std::int64_t F = ops.begin()->x->shape()[1], W = std::min(F, kChunk);
  const Tile tx = sbuf.alloc(DType::f32, P, {W}, "x"), ty = sbuf.alloc(DType::f32, P, {W}, "y");
  for (const Axpy& op : ops)
    for (std::int64_t f0 = 0; f0 < F; f0 += W) {
      const std::int64_t w = std::min(W, F - f0);
      nc.dma_copy(tx.cols(0, w), op.x->tile(0, P, f0, w));
      nc.dma_copy(ty.cols(0, w), op.y->tile(0, P, f0, w));
      nc.tensor_scalar(tx.cols(0, w), tx.cols(0, w), AluOp::multiply, a);
      nc.tensor_tensor(ty.cols(0, w), ty.cols(0, w), tx.cols(0, w), op.subtract ? AluOp::subtract : AluOp::add);
      nc.dma_copy(op.y->tile(0, P, f0, w), ty.cols(0, w));
    }
}

// p = z + (num / den) * p.
void xpay_kernel(NeuronCore& nc, const HbmTensor& num, const HbmTensor& den, const HbmTensor& z, const HbmTensor& p) {
  const int P = nc.hw().pmax;
  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  const Tile b = broadcast_ratio(nc, sbuf, psum, num, den);
  const std::int64_t F = p.shape()[1], W = std::min(F, kChunk);
  const Tile tz = sbuf.alloc(DType::f32, P, {W}, "z"), tp = sbuf.alloc(DType::f32, P, {W}, "p");
  for (std::int64_t f0 = 0; f0 < F; f0 += W) {
    const std::int64_t w = std::min(W, F - f0);
    nc.dma_copy(tz.cols(0, w), z.tile(0, P, f0, w));
    nc.dma_copy(tp.cols(0, w), p.tile(0, P, f0, w));
    nc.tensor_scalar(tp.cols(0, w), tp.cols(0, w), AluOp::multiply, b);
    nc.tensor_tensor(tp.cols(0, w), tz.cols(0, w), tp.cols(0, w), AluOp::add);
    nc.dma_copy(p.tile(0, P, f0, w), tp.cols(0, w));
  }
}

// out = (num / den) * x.
void scale_kernel(NeuronCore& nc, const HbmTensor& num, const HbmTensor& den, const HbmTensor& x, const HbmTensor& out) {
  const int P = nc.hw().pmax;
  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  const Tile a = broadcast_ratio(nc, sbuf, psum, num, den);
  const std::int64_t F = x.shape()[1], W = std::min(F, kChunk);
  const Tile tx = sbuf.alloc(DType::f32, P, {W}, "x");
  for (std::int64_t f0 = 0; f0 < F; f0 += W) {
    const std::int64_t w = std::min(W, F - f0);
    nc.dma_copy(tx.cols(0, w), x.tile(0, P, f0, w));
    nc.tensor_scalar(tx.cols(0, w), tx.cols(0, w), AluOp::multiply, a);
    nc.dma_copy(out.tile(0, P, f0, w), tx.cols(0, w));
  }
}

// GMRES's small dense least-squares problem, on one VectorE/ScalarE partition. H is the Hessenberg
// matrix stored column by column (column j: h_0j .. h_{j+1,j} at H[j * ld ..]), cs/sn the Givens
// rotations so far, g the rotated right-hand side (Saad, Iterative Methods for Sparse Linear
// Systems, 2nd ed., §6.5.3): applies rotations 0 .. j-1 to column j, forms rotation j from
// (h_jj, h_{j+1,j}) with r = sqrt(h_jj^2 + h_{j+1,j}^2), c = h_jj / r, s = h_{j+1,j} / r, and
// rotates g: g_{j+1} = -s g_j, g_j = c g_j. Column j becomes (R_0j .. R_jj = r, 0).
void givens_kernel(NeuronCore& nc, const HbmTensor& H, std::int64_t ld, const HbmTensor& cs, const HbmTensor& sn,
                   const HbmTensor& g, std::int64_t j) {
  AllocScope sbuf(nc.sbuf());
  const std::int64_t len = j + 2;
  const Tile h = sbuf.alloc(DType::f32, 1, {len}, "H column"), c = sbuf.alloc(DType::f32, 1, {j + 1}, "cos"),
             s = sbuf.alloc(DType::f32, 1, {j + 1}, "sin"), gg = sbuf.alloc(DType::f32, 1, {2}, "g pair"),
             t0 = sbuf.alloc(DType::f32, 1, {1}, "t0"), t1 = sbuf.alloc(DType::f32, 1, {1}, "t1"),
             r = sbuf.alloc(DType::f32, 1, {1}, "r");
  nc.dma_copy(h, H.tile(0, 1, j * ld, len));
  if (j > 0) {
    nc.dma_copy(c.cols(0, j), cs.tile(0, 1, 0, j));
    nc.dma_copy(s.cols(0, j), sn.tile(0, 1, 0, j));
  }
  nc.dma_copy(gg, g.tile(0, 1, j, 2));
  for (std::int64_t i = 0; i < j; ++i) {  // (h_i, h_{i+1}) <- (c h_i + s h_{i+1}, -s h_i + c h_{i+1})
    const Tile hi = h.cols(i, 1), hn = h.cols(i + 1, 1), ci = c.cols(i, 1), si = s.cols(i, 1);
    nc.tensor_tensor(t0, ci, hi, AluOp::multiply);
    nc.tensor_tensor(t1, si, hn, AluOp::multiply);
    nc.tensor_tensor(t0, t0, t1, AluOp::add);     // new h_i
    nc.tensor_tensor(t1, ci, hn, AluOp::multiply);
    nc.tensor_tensor(hn, si, hi, AluOp::multiply);
    nc.tensor_tensor(hn, t1, hn, AluOp::subtract);  // new h_{i+1}
    nc.tensor_copy(hi, t0);
  }
  const Tile hj = h.cols(j, 1), hn = h.cols(j + 1, 1), cj = c.cols(j, 1), sj = s.cols(j, 1);
  nc.tensor_tensor(t0, hj, hj, AluOp::multiply);
  nc.tensor_tensor(t1, hn, hn, AluOp::multiply);
  nc.tensor_tensor(t0, t0, t1, AluOp::add);
  nc.activation(r, t0, ActFunc::sqrt);
  nc.tensor_tensor(cj, hj, r, AluOp::divide);
  nc.tensor_tensor(sj, hn, r, AluOp::divide);
  nc.tensor_copy(hj, r);
  nc.memset(hn, 0.0f);
  nc.tensor_tensor(t0, sj, gg.cols(0, 1), AluOp::multiply);
  nc.tensor_scalar(gg.cols(1, 1), t0, AluOp::multiply, -1.0f);  // g_{j+1} = -s g_j
  nc.tensor_tensor(gg.cols(0, 1), cj, gg.cols(0, 1), AluOp::multiply);
  nc.dma_copy(H.tile(0, 1, j * ld, len), h);
  nc.dma_copy(cs.tile(0, 1, j, 1), cj);
  nc.dma_copy(sn.tile(0, 1, j, 1), sj);
  nc.dma_copy(g.tile(0, 1, j, 2), gg);
}

// y = R^-1 g for the k x k upper triangle R of H (column-oriented back substitution on one
// partition: y_i = g_i / R_ii, then g_0..i-1 -= y_i R_0..i-1,i, for i = k-1 .. 0).
void back_substitution_kernel(NeuronCore& nc, const HbmTensor& H, std::int64_t ld, const HbmTensor& g, std::int64_t k,
                              const HbmTensor& y) {
  AllocScope sbuf(nc.sbuf());
  const Tile R = sbuf.alloc(DType::f32, 1, {k * ld}, "R"), gg = sbuf.alloc(DType::f32, 1, {k}, "g"),
             yy = sbuf.alloc(DType::f32, 1, {k}, "y"), t = sbuf.alloc(DType::f32, 1, {k}, "t");
  nc.dma_copy(R, H.tile(0, 1, 0, k * ld));
  nc.dma_copy(gg, g.tile(0, 1, 0, k));
  for (std::int64_t i = k - 1; i >= 0; --i) {
    nc.tensor_tensor(yy.cols(i, 1), gg.cols(i, 1), R.cols(i * ld + i, 1), AluOp::divide);
    if (i == 0) break;
    nc.tensor_scalar(t.cols(0, i), R.cols(i * ld, i), AluOp::multiply, yy.cols(i, 1));
    nc.tensor_tensor(gg.cols(0, i), gg.cols(0, i), t.cols(0, i), AluOp::subtract);
  }
  nc.dma_copy(y.tile(0, 1, 0, k), yy);
}

// out = a op b on one element (VectorE): the scalar recurrences of BiCGStab.
void scalar_kernel(NeuronCore& nc, const HbmTensor& a, const HbmTensor& b, AluOp op, const HbmTensor& out) {
  AllocScope sbuf(nc.sbuf());
  const Tile ta = sbuf.alloc(DType::f32, 1, {1}, "a"), tb = sbuf.alloc(DType::f32, 1, {1}, "b");
  nc.dma_copy(ta, a.tile(0, 1, 0, 1));
  nc.dma_copy(tb, b.tile(0, 1, 0, 1));
  nc.tensor_tensor(ta, ta, tb, op);
  nc.dma_copy(out.tile(0, 1, 0, 1), ta);
}

// out = u * v elementwise (Jacobi z = dinv * r), or out = 1 / u (reciprocal, v == nullptr).
void elementwise_kernel(NeuronCore& nc, const HbmTensor& u, const HbmTensor* v, const HbmTensor& out) {
  const int P = nc.hw().pmax;
  AllocScope sbuf(nc.sbuf());
  const std::int64_t F = u.shape()[1], W = std::min(F, kChunk);
  const Tile tu = sbuf.alloc(DType::f32, P, {W}, "u"), tv = sbuf.alloc(DType::f32, P, {W}, "v");
  for (std::int64_t f0 = 0; f0 < F; f0 += W) {
    const std::int64_t w = std::min(W, F - f0);
    nc.dma_copy(tu.cols(0, w), u.tile(0, P, f0, w));
    if (v != nullptr) {
      nc.dma_copy(tv.cols(0, w), v->tile(0, P, f0, w));
      nc.tensor_tensor(tu.cols(0, w), tu.cols(0, w), tv.cols(0, w), AluOp::multiply);
    } else {
      nc.reciprocal(tu.cols(0, w), tu.cols(0, w));
    }
    nc.dma_copy(out.tile(0, P, f0, w), tu.cols(0, w));
  }
}

// Block-Jacobi: the inverse of one b x b diagonal block (program i of the grid) by Gauss-Jordan
// elimination without pivoting (Golub & Van Loan, Matrix Computations, 4th ed., §3.2.10 for the
// elimination; no pivoting is stable for the diagonally dominant or SPD blocks block-Jacobi is
// meant for, §4.1.1 / §4.2.7). The augmented [A_ii | I] lives in SBUF as [b, 2b]; per pivot k the
// pivot row is broadcast to all b partitions by a DMA, divided by the pivot (VectorE), and
// W -= W[:, k] (x) (row_k / a_kk) eliminates column k from every row (row k becomes ~0 there) before
// row k is replaced by the scaled pivot row (a DMA: b x (6 instructions + 2 DMAs) per block). The right half is then A_ii^-1. blocks/inv: [nb b, b]
// row-major (block i in rows i b ..), eye: the b x b identity (a constant).
void block_inverse_kernel(NeuronCore& nc, const HbmTensor& blocks, const HbmTensor& eye, const HbmTensor& inv, int b) {
  const std::int64_t i = nc.program_id(1);
  AllocScope sbuf(nc.sbuf());
  const Tile W = sbuf.alloc(DType::f32, b, {2 * b}, "[A_ii | I]"), R = sbuf.alloc(DType::f32, b, {2 * b}, "pivot row"),
             T = sbuf.alloc(DType::f32, b, {2 * b}, "update"), piv = sbuf.alloc(DType::f32, b, {1}, "pivot"),
             f = sbuf.alloc(DType::f32, b, {1}, "column k");
  nc.dma_copy(W.cols(0, b), blocks.tile(i * b, b, 0, b));
  nc.dma_copy(W.cols(b, b), eye.tile(0, b, 0, b));
  for (int k = 0; k < b; ++k) {
    nc.dma_copy(R, W.rows(k, 1).broadcast_partitions(b));
    nc.tensor_copy(piv, R.cols(k, 1));
    nc.tensor_scalar(R, R, AluOp::divide, piv);  // row_k / a_kk, on every partition
    nc.tensor_copy(f, W.cols(k, 1));
    nc.tensor_scalar(T, R, AluOp::multiply, f);  // a_ik row_k / a_kk
    nc.tensor_tensor(W, W, T, AluOp::subtract);
    nc.dma_copy(W.rows(k, 1), R.rows(k, 1));  // row k: the scaled pivot row (DMA: engines address
                                              // partitions from multiples of 32 only)
  }
  nc.dma_copy(inv.tile(i * b, b, 0, b), W.cols(b, b));
}

// What both solvers share: the operator checks, the vector layout, the launch helpers (each adds
// its modeled time and launch count to the result) and the Jacobi inverse diagonal.
class KrylovContext {
 public:
  KrylovContext(const Settings& s, const BsrView& A, const float* b, float* x, const KrylovOptions& opt, KrylovResult& res,
                const char* who)
      : s_(s), A_(A), res_(res) {
    res_.profile.target = s.target;
    validate(A);
    if (A.rows() != A.cols()) throw InvalidArgument(std::string("trnsparse ") + who + ": the operator must be square", "matA");
    if (A.value_type != DType::f32) throw InvalidArgument(std::string("trnsparse ") + who + ": fp32 operator values only", "valueType");
    if (b == nullptr || x == nullptr) throw InvalidArgument(std::string("trnsparse ") + who + ": b or x is NULL", "vector");
    n = A.rows();
    const HardwareSpec& hw = hardware_spec(s.target);
    P = hw.pmax;
    F = std::max<std::int64_t>(1, (n + P - 1) / P);
    lc_ = s.launch_config();
    lc_.num_cores = 1;        // one core: the host reads one scalar per step between launches
    lc_.core.execute = true;  // the iteration needs the values
    spmv_settings_ = s;
    spmv_settings_.num_cores = 1;
    if (opt.block_jacobi) {
      block_jacobi_inverse(who);
    } else if (opt.jacobi) {
      dinv = std::make_unique<Vec>(P, F);
      jacobi_inverse(who);
    }
  }
  std::int64_t n = 0, P = 0, F = 0;
  std::unique_ptr<Vec> dinv;  // 1 / diag(A) when preconditioning (padding 1)

  void run(const Kernel& k, int programs = 1) {
    LaunchConfig lc = lc_;
    lc.grid = {1, programs, 1};
    const LaunchResult r = launch(lc, k);
    add(model_trace(r.trace, ReportSettings::of(s_)));
    ++res_.launches;
  }
  // dst = src (count floats) or dst = 0 in one launch (move_floats).
  void copy(const float* src, float* dst, std::int64_t count) {
    run([&](NeuronCore& nc) { move_floats(nc, src, dst, count, F); });
  }
  void copy(const Vec& from, Vec& to) { copy(from.data.data(), to.data.data(), P * F); }
  // x and b into the solver's vectors (one launch; their padding stays 0).
  void stage_in(const float* x, Vec& xv, const float* b, Vec& r) {
    run([&](NeuronCore& nc) {
      move_floats(nc, x, xv.data.data(), n, F);
      move_floats(nc, b, r.data.data(), n, F);
    });
  }
  void spmv_into(float alpha, const Vec& in, float beta, Vec& out) {
    CallReport rep;
    spmv(spmv_settings_, Op::N, alpha, A_, in.data.data(), DType::f32, beta, out.data.data(), DType::f32, &rep);
    add(rep.profile);
    ++res_.launches;
  }
  void spmv_with(const BsrView& M, const Vec& in, Vec& out) {
    CallReport rep;
    spmv(spmv_settings_, Op::N, 1.0f, M, in.data.data(), DType::f32, 0.0f, out.data.data(), DType::f32, &rep);
    add(rep.profile);
    ++res_.launches;
  }
  // One host round trip before the first launch (docs/cost-model.md section 7): its modeled time
  // joins the result's (it is no launch).
  void host(const HostStep& step) {
    Trace t;
    record_host_step(t, step);
    add(model_trace(t, ReportSettings::of(s_)));
  }
  // One launch's or host step's profile joins the result's (sequential: no overlap between them). The
  // launches run on one core, but the profiles are stated over the settings' cores (ReportSettings::of,
  // as every library's reports; append_sequential keeps the larger count): the utilisation then shows
  // the idle cores. The schedule, and so the modeled time, is the trace's whatever the count.
  void add(const Profile& p) {
    res_.modeled_ns += p.total_ns;
    append_sequential(res_.profile, p);
  }
  double read(const Scalar& sc) {
    ++res_.host_scalar_reads;
    return double(sc.value);
  }
  void dot(const Vec& u, const Vec& v, Scalar& out) {
    run([&](NeuronCore& nc) { dot_kernel(nc, u.view, v.view, out.view); });
  }
  void dot(const Vec& u, const Vec& v, const HbmTensor& out) {
    run([&](NeuronCore& nc) { dot_kernel(nc, u.view, v.view, out); });
  }
  void norm(const Vec& u, const HbmTensor& out) {
    run([&](NeuronCore& nc) { dot_kernel(nc, u.view, u.view, out, /*root=*/true); });
  }
  // z = M^-1 r (Jacobi, or block-Jacobi: the BSR SpMV with the inverted diagonal blocks) or z = r
  // (a copy by DMA, no arithmetic).
  void precondition(const Vec& r, Vec& z) {
    if (!block_inverse_.values.empty())
      spmv_with(block_inverse_view_, r, z);
    else if (dinv)
      run([&](NeuronCore& nc) { elementwise_kernel(nc, r.view, &dinv->view, z.view); });
    else
      copy(r, z);
  }

 private:
  void jacobi_inverse(const char* who) {
    // Gather the diagonal (host index work: copies), then 1/d on VectorE. Padding stays 1.
    std::fill(dinv->data.begin(), dinv->data.end(), 1.0f);
    const BsrView& A = A_;
    const auto* vals = static_cast<const float*>(A.values);
    const std::int64_t base = A.base == IndexBase::one ? 1 : 0;
    auto idx = [](const void* a, IndexType t, std::int64_t i) {
      return t == IndexType::i32 ? std::int64_t{static_cast<const std::int32_t*>(a)[i]} : static_cast<const std::int64_t*>(a)[i];
    };
    std::vector<bool> seen(static_cast<std::size_t>(n), false);
    for (std::int64_t R = 0; R < A.brows; ++R)
      for (std::int64_t e = idx(A.offsets, A.offsets_type, R) - base; e < idx(A.offsets, A.offsets_type, R + 1) - base; ++e) {
        const std::int64_t C = idx(A.columns, A.columns_type, e) - base;
        for (std::int64_t rr = 0; rr < A.row_block; ++rr) {
          const std::int64_t i = R * A.row_block + rr, c = i - C * A.col_block;
          if (c < 0 || c >= A.col_block) continue;
          const std::int64_t within = A.order == BlockOrder::row ? rr * A.col_block + c : rr + c * A.row_block;
          dinv->data[static_cast<std::size_t>(i)] = vals[e * A.row_block * A.col_block + within];
          seen[static_cast<std::size_t>(i)] = true;
        }
      }
    // The gather is host index work (the blocks holding the diagonal found through offsets and
    // columns, n values copied, each checked nonzero): one round trip.
    host(HostStep{.name = "trnsparse.krylov.jacobi_gather", .flops = static_cast<double>(A.bnnz * A.row_block),
                  .reads = {index_span(A.offsets, A.brows + 1, A.offsets_type), index_span(A.columns, A.bnnz, A.columns_type),
                            part_of(vals, A.bnnz * A.row_block * A.col_block, n)},
                  .writes = {HostSpan(dinv->data.data(), P * F)}});
    for (std::int64_t i = 0; i < n; ++i)
      if (!seen[static_cast<std::size_t>(i)] || dinv->data[static_cast<std::size_t>(i)] == 0.0f)
        throw InvalidArgument(std::string("trnsparse ") + who + ": zero diagonal entry " + std::to_string(i) + " (Jacobi)",
                              "matA");
    run([&](NeuronCore& nc) { elementwise_kernel(nc, dinv->view, nullptr, dinv->view); });
  }

  // The diagonal blocks gathered into [nb b, b] row-major (host copies; a block that is not stored
  // is zero and fails as singular), inverted on the engines, checked finite by the host (a zero
  // pivot: no pivoting), and kept as a block-diagonal BSR for the preconditioner's SpMV.
  void block_jacobi_inverse(const char* who) {
    const BsrView& A = A_;
    const std::int64_t b = A.row_block, nb = A.brows;
    if (A.row_block != A.col_block || b > P)
      throw InvalidArgument(std::string("trnsparse ") + who + ": block-Jacobi needs square blocks of at most pmax", "matA");
    const auto* vals = static_cast<const float*>(A.values);
    const std::int64_t base = A.base == IndexBase::one ? 1 : 0;
    auto idx = [](const void* a, IndexType t, std::int64_t i) {
      return t == IndexType::i32 ? std::int64_t{static_cast<const std::int32_t*>(a)[i]} : static_cast<const std::int64_t*>(a)[i];
    };
    const auto bb = static_cast<std::size_t>(b * b);
    ScratchVector<float> diag(static_cast<std::size_t>(nb) * bb, 0.0f), eye(bb, 0.0f);
    for (std::int64_t r = 0; r < b; ++r) eye[static_cast<std::size_t>(r * b + r)] = 1.0f;
    for (std::int64_t R = 0; R < nb; ++R)
      for (std::int64_t e = idx(A.offsets, A.offsets_type, R) - base; e < idx(A.offsets, A.offsets_type, R + 1) - base; ++e) {
        if (idx(A.columns, A.columns_type, e) - base != R) continue;
        for (std::int64_t r = 0; r < b; ++r)
          for (std::int64_t c = 0; c < b; ++c)
            diag[static_cast<std::size_t>(R) * bb + static_cast<std::size_t>(r * b + c)] =
                vals[static_cast<std::size_t>(e) * bb + static_cast<std::size_t>(A.order == BlockOrder::row ? r * b + c : r + c * b)];
      }
    // The gather is host index work (the diagonal blocks found through offsets and columns, nb b^2
    // values copied, the identity the kernel reads): one round trip.
    const auto cells = static_cast<std::int64_t>(diag.size());
    host(HostStep{.name = "trnsparse.krylov.block_jacobi_gather", .flops = static_cast<double>(A.bnnz),
                  .reads = {index_span(A.offsets, nb + 1, A.offsets_type), index_span(A.columns, A.bnnz, A.columns_type),
                            part_of(vals, A.bnnz * b * b, cells)},
                  .writes = {HostSpan(diag.data(), cells), HostSpan(eye.data(), b * b)}});
    block_inverse_.values.assign(diag.size(), 0.0f);
    const HbmTensor in = HbmTensor::wrap(diag.data(), DType::f32, {nb * b, b}),
                    id = HbmTensor::wrap(eye.data(), DType::f32, {b, b}),
                    out = HbmTensor::wrap(block_inverse_.values.data(), DType::f32, {nb * b, b});
    run([&](NeuronCore& nc) { block_inverse_kernel(nc, in, id, out, static_cast<int>(b)); }, static_cast<int>(nb));
    // The host's finiteness check of the inverses: one round trip.
    host(HostStep{.name = "trnsparse.krylov.block_jacobi_check", .flops = static_cast<double>(cells),
                  .reads = {HostSpan(block_inverse_.values.data(), cells)}});
    for (float v : block_inverse_.values)
      if (!std::isfinite(v))
        throw InvalidArgument(std::string("trnsparse ") + who + ": a diagonal block is singular without pivoting (block-Jacobi)",
                              "matA");
    for (std::int64_t R = 0; R <= nb; ++R) block_inverse_.offsets.push_back(R);
    for (std::int64_t R = 0; R < nb; ++R) block_inverse_.columns.push_back(R);
    block_inverse_view_ = BsrView{nb, nb, nb, b, b, block_inverse_.offsets.data(), block_inverse_.columns.data(),
                                  block_inverse_.values.data(), IndexType::i64, IndexType::i64, IndexBase::zero, DType::f32,
                                  BlockOrder::row};
  }

  struct BlockInverse {
    ScratchVector<std::int64_t> offsets, columns;
    ScratchVector<float> values;
  };
  BlockInverse block_inverse_;
  BsrView block_inverse_view_;
  const Settings& s_;
  const BsrView& A_;
  KrylovResult& res_;
  LaunchConfig lc_;
  Settings spmv_settings_;
};

}  // namespace

CgResult cg(const Settings& s, const BsrView& A, const float* b, float* x, const CgOptions& opt) {
  CgResult res;
  KrylovContext k(s, A, b, x, opt, res, "cg");
  const std::int64_t n = k.n, P = k.P, F = k.F;
  Vec xv(P, F), r(P, F), z(P, F), p(P, F), q(P, F);
  k.stage_in(x, xv, b, r);
  Scalar bb, rr, rho, rho_new, pq;
  k.dot(r, r, bb);  // r = b here
  const double norm_b = std::sqrt(k.read(bb));
  k.spmv_into(-1.0f, xv, 1.0f, r);  // r = b - A x
  k.precondition(r, z);
  k.dot(r, z, rho);
  k.dot(r, r, rr);
  k.copy(z, p);
  const double scale = norm_b > 0 ? norm_b : 1.0;
  res.residual_history.push_back(std::sqrt(k.read(rr)) / scale);
  while (true) {
    if (res.residual_history.back() <= opt.tolerance) {
      res.converged = true;
      break;
    }
    if (res.iterations >= opt.max_iterations) break;
    k.spmv_into(1.0f, p, 0.0f, q);  // q = A p
    k.dot(p, q, pq);
    if (!(k.read(pq) > 0.0)) {
      res.breakdown = true;
      break;
    }
    k.run([&](NeuronCore& nc) {  // a = rho / pq: x += a p, r -= a q
      axpy_kernel(nc, rho.view, pq.view, {{&p.view, &xv.view, false}, {&q.view, &r.view, true}});
    });
    k.precondition(r, z);
    k.dot(r, z, rho_new);
    k.dot(r, r, rr);
    k.run([&](NeuronCore& nc) {
      xpay_kernel(nc, rho_new.view, rho.view, z.view, p.view);  // p = z + (rho'/rho) p
      move_floats(nc, &rho_new.value, &rho.value, 1, 1);        // the next iteration's rho
    });
    ++res.iterations;
    res.residual_history.push_back(std::sqrt(k.read(rr)) / scale);
  }
  k.copy(xv.data.data(), x, n);
  return res;
}

// Right-preconditioned BiCGStab (H. A. van der Vorst, "Bi-CGSTAB: a fast and smoothly converging
// variant of Bi-CG for the solution of nonsymmetric linear systems", SIAM J. Sci. Stat. Comput.
// 13(2), 1992, Algorithm "preconditioned Bi-CGSTAB"), r^ = r_0. Per iteration: two SpMVs, five dot
// products, the scalar recurrences on VectorE, the updates on VectorE; the host reads ||s||^2,
// ||r||^2 and the breakdown tests' scalars.
KrylovResult bicgstab(const Settings& s, const BsrView& A, const float* b, float* x, const KrylovOptions& opt) {
  KrylovResult res;
  KrylovContext k(s, A, b, x, opt, res, "bicgstab");
  const std::int64_t n = k.n, P = k.P, F = k.F;
  Vec xv(P, F), r(P, F), rhat(P, F), p(P, F), phat(P, F), v(P, F), sv(P, F), shat(P, F), t(P, F);
  k.stage_in(x, xv, b, r);
  Scalar bb, rr, ss, rho, rho_new, alpha, omega, rv, ts, tt, q1, q2, beta, one;
  one.value = 1.0f;
  k.dot(r, r, bb);  // r = b here
  const double norm_b = std::sqrt(k.read(bb));
  const double scale = norm_b > 0 ? norm_b : 1.0;
  k.spmv_into(-1.0f, xv, 1.0f, r);  // r = b - A x
  k.copy(r, rhat);  // r^ = r_0 (a copy)
  k.dot(r, r, rr);
  res.residual_history.push_back(std::sqrt(k.read(rr)) / scale);
  rho.value = alpha.value = omega.value = 1.0f;  // with p = v = 0 the first p is r
  while (true) {
    if (res.residual_history.back() <= opt.tolerance) {
      res.converged = true;
      break;
    }
    if (res.iterations >= opt.max_iterations) break;
    k.dot(rhat, r, rho_new);
    if (k.read(rho_new) == 0.0) {  // r^ orthogonal to r: Bi-CG breakdown
      res.breakdown = true;
      break;
    }
    // beta = (rho' / rho) (alpha / omega); p = r + beta (p - omega v)
    k.run([&](NeuronCore& nc) {
      scalar_kernel(nc, rho_new.view, rho.view, AluOp::divide, q1.view);
      scalar_kernel(nc, alpha.view, omega.view, AluOp::divide, q2.view);
      scalar_kernel(nc, q1.view, q2.view, AluOp::multiply, beta.view);
      axpy_kernel(nc, omega.view, one.view, {{&v.view, &p.view, true}});
    });
    k.run([&](NeuronCore& nc) { xpay_kernel(nc, beta.view, one.view, r.view, p.view); });
    k.precondition(p, phat);
    k.spmv_into(1.0f, phat, 0.0f, v);  // v = A p^
    k.dot(rhat, v, rv);
    if (k.read(rv) == 0.0) {
      res.breakdown = true;
      break;
    }
    // alpha = rho' / (r^, v); s = r - alpha v
    k.run([&](NeuronCore& nc) {
      move_floats(nc, r.data.data(), sv.data.data(), P * F, F);  // s = r (a copy), then s -= alpha v
      scalar_kernel(nc, rho_new.view, rv.view, AluOp::divide, alpha.view);
      axpy_kernel(nc, rho_new.view, rv.view, {{&v.view, &sv.view, true}});
    });
    k.dot(sv, sv, ss);
    ++res.iterations;
    if (std::sqrt(k.read(ss)) / scale <= opt.tolerance) {  // converged at the half step: x += alpha p^
      k.run([&](NeuronCore& nc) { axpy_kernel(nc, alpha.view, one.view, {{&phat.view, &xv.view, false}}); });
      res.residual_history.push_back(std::sqrt(double(ss.value)) / scale);
      res.converged = true;
      break;
    }
    k.precondition(sv, shat);
    k.spmv_into(1.0f, shat, 0.0f, t);  // t = A s^
    k.dot(t, sv, ts);
    k.dot(t, t, tt);
    if (k.read(tt) == 0.0) {
      res.breakdown = true;
      break;
    }
    // omega = (t, s) / (t, t); x += alpha p^ + omega s^; r = s - omega t
    k.run([&](NeuronCore& nc) {
      move_floats(nc, sv.data.data(), r.data.data(), P * F, F);  // r = s (a copy), then r -= omega t
      scalar_kernel(nc, ts.view, tt.view, AluOp::divide, omega.view);
      axpy_kernel(nc, alpha.view, one.view, {{&phat.view, &xv.view, false}});
      axpy_kernel(nc, ts.view, tt.view, {{&shat.view, &xv.view, false}, {&t.view, &r.view, true}});
      move_floats(nc, &rho_new.value, &rho.value, 1, 1);  // the next iteration's rho
    });
    k.dot(r, r, rr);
    res.residual_history.push_back(std::sqrt(k.read(rr)) / scale);
    if (k.read(omega) == 0.0) {  // stagnation: the next beta would divide by omega
      res.breakdown = !(res.residual_history.back() <= opt.tolerance);
      res.converged = !res.breakdown;
      break;
    }
  }
  k.copy(xv.data.data(), x, n);
  return res;
}

// Restarted GMRES(m) with right Jacobi preconditioning (Saad, Iterative Methods for Sparse Linear
// Systems, 2nd ed., Alg. 6.9 with the right preconditioning of §9.3.2): per cycle r = b - A x,
// v_1 = r / ||r||; per step w = A M^-1 v_j, modified Gram-Schmidt against v_1 .. v_j (one dot
// product and one axpy each, in order), h_{j+1,j} = ||w||, v_{j+1} = w / h_{j+1,j}; the Givens
// rotations keep H upper triangular and |g_{j+1}| is the residual norm of the least-squares
// problem. At the end of a cycle y = R^-1 g (back substitution) and x += M^-1 V y.
KrylovResult gmres(const Settings& s, const BsrView& A, const float* b, float* x, const KrylovOptions& opt) {
  KrylovResult res;
  if (opt.restart < 1) throw InvalidArgument("trnsparse gmres: restart must be >= 1", "restart");
  KrylovContext k(s, A, b, x, opt, res, "gmres");
  const std::int64_t n = k.n, P = k.P, F = k.F, m = opt.restart, ld = m + 1;
  std::vector<std::unique_ptr<Vec>> V;
  for (std::int64_t j = 0; j <= m; ++j) V.push_back(std::make_unique<Vec>(P, F));
  Vec xv(P, F), r(P, F), w(P, F), z(P, F), u(P, F);
  std::vector<float> H(static_cast<std::size_t>(ld * m), 0.0f), cs(static_cast<std::size_t>(m), 0.0f),
      sn(static_cast<std::size_t>(m), 0.0f), g(static_cast<std::size_t>(ld), 0.0f), y(static_cast<std::size_t>(m), 0.0f);
  const HbmTensor Hv = HbmTensor::wrap(H.data(), DType::f32, {1, ld * m}), csv = HbmTensor::wrap(cs.data(), DType::f32, {1, m}),
                  snv = HbmTensor::wrap(sn.data(), DType::f32, {1, m}), gv = HbmTensor::wrap(g.data(), DType::f32, {1, ld}),
                  yv = HbmTensor::wrap(y.data(), DType::f32, {1, m});
  auto at = [](std::vector<float>& a, std::int64_t i) {
    return HbmTensor::wrap(a.data() + i, DType::f32, {1, 1});
  };
  Scalar one, bnorm;
  one.value = 1.0f;
  k.stage_in(x, xv, b, r);
  k.norm(r, bnorm.view);  // r = b here
  const double norm_b = k.read(bnorm);
  const double scale = norm_b > 0 ? norm_b : 1.0;
  bool first = true;
  while (true) {
    // Restart: the true residual r = b - A x and g = (||r||, 0, ..).
    k.run([&](NeuronCore& nc) {
      move_floats(nc, b, r.data.data(), n, F);
      move_floats(nc, nullptr, g.data(), ld, ld, /*zero=*/true);
    });
    k.spmv_into(-1.0f, xv, 1.0f, r);
    k.norm(r, at(g, 0));
    ++res.host_scalar_reads;
    const double rel = double(g[0]) / scale;
    if (first) res.residual_history.push_back(rel);
    first = false;
    if (rel <= opt.tolerance) {
      res.converged = true;
      break;
    }
    if (res.iterations >= opt.max_iterations) break;
    k.run([&](NeuronCore& nc) { scale_kernel(nc, one.view, at(g, 0), r.view, V[0]->view); });  // v_1 = r / ||r||
    std::int64_t steps = 0;
    bool cycle_done = false;
    for (std::int64_t j = 0; j < m && res.iterations < opt.max_iterations && !cycle_done; ++j) {
      k.precondition(*V[static_cast<std::size_t>(j)], z);
      k.spmv_into(1.0f, z, 0.0f, w);  // w = A M^-1 v_j
      for (std::int64_t i = 0; i <= j; ++i) {  // modified Gram-Schmidt
        const HbmTensor hij = at(H, j * ld + i);
        k.dot(w, *V[static_cast<std::size_t>(i)], hij);
        k.run([&](NeuronCore& nc) { axpy_kernel(nc, hij, one.view, {{&V[static_cast<std::size_t>(i)]->view, &w.view, true}}); });
      }
      const HbmTensor hnext = at(H, j * ld + j + 1);
      k.norm(w, hnext);
      ++res.host_scalar_reads;
      const bool lucky = H[static_cast<std::size_t>(j * ld + j + 1)] == 0.0f;  // the Krylov space is invariant
      if (!lucky)
        k.run([&](NeuronCore& nc) { scale_kernel(nc, one.view, hnext, w.view, V[static_cast<std::size_t>(j) + 1]->view); });
      k.run([&](NeuronCore& nc) { givens_kernel(nc, Hv, ld, csv, snv, gv, j); });
      res.host_scalar_reads += 2;  // R_jj (breakdown test) and g_{j+1} (residual estimate)
      ++steps;
      ++res.iterations;
      if (H[static_cast<std::size_t>(j * ld + j)] == 0.0f) {  // singular R: nothing more to gain from this space
        --steps;
        res.breakdown = true;
        cycle_done = true;
        break;
      }
      const double est = std::fabs(double(g[static_cast<std::size_t>(j) + 1])) / scale;
      res.residual_history.push_back(est);
      cycle_done = lucky || est <= opt.tolerance;
    }
    if (steps > 0) {
      // x += M^-1 V y with y = R^-1 g.
      k.run([&](NeuronCore& nc) { back_substitution_kernel(nc, Hv, ld, gv, steps, yv); });
      k.run([&](NeuronCore& nc) { move_floats(nc, nullptr, u.data.data(), P * F, F, /*zero=*/true); });
      for (std::int64_t i = 0; i < steps; ++i)
        k.run([&](NeuronCore& nc) { axpy_kernel(nc, at(y, i), one.view, {{&V[static_cast<std::size_t>(i)]->view, &u.view, false}}); });
      k.precondition(u, z);
      k.run([&](NeuronCore& nc) { axpy_kernel(nc, one.view, one.view, {{&z.view, &xv.view, false}}); });
    }
    if (res.breakdown) break;
    k.run([&](NeuronCore& nc) { move_floats(nc, nullptr, H.data(), ld * m, ld * m, /*zero=*/true); });
  }
  k.copy(xv.data.data(), x, n);
  return res;
}

}  // namespace trn::sparse
