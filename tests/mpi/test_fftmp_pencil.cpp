// trnfftMp pencils and boxes under MPI (label mpi; run on 1, 2 and 4 ranks): the pencil plan on
// several process grids and the box API (C++ BoxPlan and trnfftXtSetDistribution) against FFTW's
// 3-D DFT of the gathered global array (libfftw3, fp64: the oracle only), bit equality across grids
// and with the single-device trnfft plan, irregular boxes with non-default strides round-tripping,
// and bad boxes answered with one status on every rank. Real transforms (R2C / C2R, D2Z / Z2D) on
// pencils and boxes against FFTW's MPI r2c / c2r (libfftw3-mpi, gathered: fftw_mpi_real.hpp).
#include <fftw3.h>
#include <mpi.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "fftw_mpi_real.hpp"
#include "mpi_util.hpp"
#include "trn/core/error.hpp"
#include "trn/fftmp/fftmp.hpp"
#include "trn/fftmp/pencil.hpp"
#include "trnfftMp.h"

using mpitest::check;
using mpitest::check_all_ranks;
using mpitest::g_rank;
using mpitest::g_size;
using trn::fftmp::Box;
using trn::fftmp::Index3;

namespace {

using cd = std::complex<double>;
using cf = std::complex<float>;

// trnfftXtSetDistribution's long long triples from a Box's.
std::array<long long, 3> ll(const Index3& v) { return {v[0], v[1], v[2]}; }

std::int64_t total(const Index3& n) { return n[0] * n[1] * n[2]; }
std::string name_of(const Index3& n) {
  return std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]);
}

// The global input (same on every rank): hashed values in [-1, 1), complex.
std::vector<cd> global_input(const Index3& n, unsigned seed) {
  std::vector<cd> g(static_cast<std::size_t>(total(n)));
  for (std::size_t i = 0; i < g.size(); ++i) g[i] = cd(mpitest::hashed(i, seed), mpitest::hashed(i, seed + 77));
  return g;
}

// FFTW's (fp64) unnormalised 3-D DFT of the global array.
std::vector<cd> fftw_3d(const std::vector<cd>& g, const Index3& n, int sign) {
  std::vector<cd> in(g), out(g.size());
  fftw_plan p = fftw_plan_dft_3d(static_cast<int>(n[0]), static_cast<int>(n[1]), static_cast<int>(n[2]),
                                 reinterpret_cast<fftw_complex*>(in.data()), reinterpret_cast<fftw_complex*>(out.data()), sign,
                                 FFTW_ESTIMATE);
  fftw_execute(p);
  fftw_destroy_plan(p);
  return out;
}

std::int64_t at(const Box& b, std::int64_t i, std::int64_t j, std::int64_t k) {
  return (i - b.lower[0]) * b.strides[0] + (j - b.lower[1]) * b.strides[1] + (k - b.lower[2]) * b.strides[2];
}
std::int64_t global_at(const Index3& n, std::int64_t i, std::int64_t j, std::int64_t k) { return (i * n[1] + j) * n[2] + k; }

// The box's elements of a global array (complex or real) in the box's layout; the gaps hold `fill`.
template <class T, class G>
std::vector<T> box_of(const std::vector<G>& g, const Index3& n, const Box& b, T fill) {
  std::vector<T> v(static_cast<std::size_t>(std::max<std::int64_t>(b.span(), 1)), fill);
  for (std::int64_t i = b.lower[0]; i < b.upper[0]; ++i)
    for (std::int64_t j = b.lower[1]; j < b.upper[1]; ++j)
      for (std::int64_t k = b.lower[2]; k < b.upper[2]; ++k)
        v[static_cast<std::size_t>(at(b, i, j, k))] = T(g[static_cast<std::size_t>(global_at(n, i, j, k))]);
  return v;
}

// Relative L2 distance of every rank's box (in `got`) from scale x ref, over the whole array.
template <class T, class G>
double rel_l2(const std::vector<T>& got, const Box& b, const Index3& n, const std::vector<G>& ref, double scale = 1) {
  double s[2] = {0, 0};
  for (std::int64_t i = b.lower[0]; i < b.upper[0]; ++i)
    for (std::int64_t j = b.lower[1]; j < b.upper[1]; ++j)
      for (std::int64_t k = b.lower[2]; k < b.upper[2]; ++k) {
        const cd r = scale * cd(ref[static_cast<std::size_t>(global_at(n, i, j, k))]);
        s[0] += std::norm(cd(got[static_cast<std::size_t>(at(b, i, j, k))]) - r);
        s[1] += std::norm(r);
      }
  MPI_Allreduce(MPI_IN_PLACE, s, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return std::sqrt(s[0] / std::max(s[1], 1e-300));
}

// The box's elements of `got` equal those of a global array of T, bit for bit (gaps ignored).
template <class T>
bool box_bits_equal(const std::vector<T>& got, const Box& b, const Index3& n, const std::vector<T>& whole) {
  for (std::int64_t i = b.lower[0]; i < b.upper[0]; ++i)
    for (std::int64_t j = b.lower[1]; j < b.upper[1]; ++j)
      for (std::int64_t k = b.lower[2]; k < b.upper[2]; ++k)
        if (std::memcmp(&got[static_cast<std::size_t>(at(b, i, j, k))], &whole[static_cast<std::size_t>(global_at(n, i, j, k))],
                        sizeof(T)) != 0)
          return false;
  return true;
}

// The elements of the buffer outside the box still hold `fill` (only the box is written).
template <class T>
bool gaps_untouched(const std::vector<T>& v, const Box& b, T fill) {
  std::vector<char> in_box(v.size(), 0);
  for (std::int64_t i = b.lower[0]; i < b.upper[0]; ++i)
    for (std::int64_t j = b.lower[1]; j < b.upper[1]; ++j)
      for (std::int64_t k = b.lower[2]; k < b.upper[2]; ++k) in_box[static_cast<std::size_t>(at(b, i, j, k))] = 1;
  for (std::size_t e = 0; e < v.size(); ++e)
    if (in_box[e] == 0 && std::memcmp(&v[e], &fill, sizeof(T)) != 0) return false;
  return true;
}

// The pencil plan on one rank (MPI_COMM_SELF, grid 1 x 1) over the whole array `g` (row-major),
// its result row-major: the reference of "the same bits on any grid".
template <class T>
std::vector<T> whole_pencil(const trn::fftmp::PencilSpec& spec0, const std::vector<cd>& g, int direction) {
  trn::fftmp::PencilSpec spec = spec0;
  spec.p1 = spec.p2 = 0;
  const trn::fftmp::PencilPlan plan(spec, trn::fft::Settings{}, MPI_COMM_SELF);
  const bool fwd = direction == trn::fft::kForward;
  const Box& from = fwd ? plan.input_box() : plan.output_box();
  const Box& to = fwd ? plan.output_box() : plan.input_box();
  const std::vector<T> x = box_of<T>(g, spec.n, from, T(0));
  std::vector<T> y(x.size());
  plan.execute(x.data(), y.data(), direction);
  std::vector<T> whole(g.size());
  for (std::int64_t i = 0; i < spec.n[0]; ++i)
    for (std::int64_t j = 0; j < spec.n[1]; ++j)
      for (std::int64_t k = 0; k < spec.n[2]; ++k)
        whole[static_cast<std::size_t>(global_at(spec.n, i, j, k))] = y[static_cast<std::size_t>(at(to, i, j, k))];
  return whole;
}

// One shape, type (T: cf = C2C, cd = Z2Z) and grid: forward and inverse against FFTW within the
// bound (and above 0), the prediction against the modeled trace, fp32 bits against the 1-rank pencil
// plan (both directions) and trnfft's single-device 3-D plan (forward).
template <class T>
void check_pencil(const Index3& n, int p1, int p2) {
  const bool fp64 = sizeof(T) == 16;
  trn::fftmp::PencilSpec spec;
  spec.n = n;
  spec.type = fp64 ? trn::fft::Type::z2z : trn::fft::Type::c2c;
  spec.p1 = p1, spec.p2 = p2;
  const trn::fftmp::PencilPlan plan(spec, trn::fft::Settings{}, MPI_COMM_WORLD);
  const std::string what = name_of(n) + (fp64 ? " Z2Z" : " C2C") + " grid " + std::to_string(plan.spec().p1) + "x" +
                           std::to_string(plan.spec().p2) + " on " + std::to_string(g_size) + " ranks";
  const std::vector<cd> g = global_input(n, 11), ref = fftw_3d(g, n, FFTW_FORWARD);
  const std::vector<T> x = box_of<T>(g, n, plan.input_box(), T(0));
  std::vector<T> y(static_cast<std::size_t>(std::max<std::int64_t>(plan.output_box().span(), 1)));
  trn::fft::ExecReport rep;
  rep.plans_wanted = false;
  plan.execute(x.data(), y.data(), trn::fft::kForward, &rep);
  const double bound = plan.error_bound(), e = rel_l2(y, plan.output_box(), n, ref);
  check(e > 0 && e <= bound, what + ": forward vs FFTW rel L2 " + std::to_string(e) + " outside (0, " + std::to_string(bound) + "]");
  // Inverse from FFTW's spectrum (rounded to T): FFTW's backward of the same rounded spectrum.
  std::vector<cd> spec_t(ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) spec_t[i] = cd(T(ref[i]));
  const std::vector<cd> back_ref = fftw_3d(spec_t, n, FFTW_BACKWARD);
  const std::vector<T> yi = box_of<T>(spec_t, n, plan.output_box(), T(0));
  std::vector<T> xi(x.size());
  plan.execute(yi.data(), xi.data(), trn::fft::kInverse);
  const double ei = rel_l2(xi, plan.input_box(), n, back_ref);
  check(ei > 0 && ei <= bound, what + ": inverse vs FFTW rel L2 " + std::to_string(ei) + " outside (0, " + std::to_string(bound) + "]");
  double worst[2] = {rep.profile.total_ns, plan.info().predicted_ns};
  MPI_Allreduce(MPI_IN_PLACE, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const double ratio = worst[0] / worst[1];
  check(ratio >= 0.8 && ratio <= 1.25, what + ": modeled / predicted " + std::to_string(ratio) + " outside [0.8, 1.25]");
  if (g_rank == 0)
    std::printf("trnfftMp pencil %s: forward %.3g, inverse %.3g of bound %.3g; modeled %.2f us (link %.2f), predicted %.2f us\n",
                what.c_str(), e / bound, ei / bound, bound, worst[0] / 1e3, rep.profile.link_ns / 1e3, worst[1] / 1e3);
  if (fp64) return;  // Z2Z bits depend on a pass's batch (Ozaki balancing): within the bound only
  const std::vector<T> gx = box_of<T>(g, n, Box{{0, 0, 0}, n, {n[1] * n[2], n[2], 1}}, T(0));
  check(box_bits_equal(y, plan.output_box(), n, whole_pencil<T>(spec, g, trn::fft::kForward)),
        what + ": forward differs from the 1-rank pencil plan's bits");
  check(box_bits_equal(xi, plan.input_box(), n, whole_pencil<T>(spec, spec_t, trn::fft::kInverse)),
        what + ": inverse differs from the 1-rank pencil plan's bits");
  trn::fft::PlanSpec whole;
  whole.n = {n[0], n[1], n[2]};
  std::vector<T> gy(gx.size());
  trn::fft::Plan(whole, trn::fft::Settings{}).execute(gx.data(), gy.data(), trn::fft::kForward);
  check(box_bits_equal(y, plan.output_box(), n, gy), what + ": forward differs from trnfft's single-device 3-D plan's bits");
}

// The pencil forward equals the slab plan's (both: trnfft's single-device passes in the same order).
void check_pencil_vs_slab(const Index3& n) {
  trn::fftmp::PencilSpec ps;
  ps.n = n;
  const trn::fftmp::PencilPlan pencil(ps, trn::fft::Settings{}, MPI_COMM_WORLD);
  trn::fftmp::SlabSpec ss;
  ss.n = {n[0], n[1], n[2]};
  const trn::fftmp::SlabPlan slab(ss, trn::fft::Settings{}, MPI_COMM_WORLD);
  const std::vector<cd> g = global_input(n, 3);
  const std::vector<cf> x = box_of<cf>(g, n, pencil.input_box(), cf(0));
  std::vector<cf> y(static_cast<std::size_t>(std::max<std::int64_t>(pencil.output_box().span(), 1)));
  pencil.execute(x.data(), y.data(), trn::fft::kForward);
  const std::int64_t r0 = trn::fftmp::slab_start(n[0], g_size, g_rank), rows = trn::fftmp::slab_count(n[0], g_size, g_rank);
  const std::vector<cf> xs = box_of<cf>(g, n, trn::fftmp::dense_box({r0, 0, 0}, {r0 + rows, n[1], n[2]}, {0, 1, 2}), cf(0));
  std::vector<cf> ys(static_cast<std::size_t>(std::max<std::int64_t>(slab.shuffled_elements(), 1))), all(static_cast<std::size_t>(total(n)));
  slab.execute(xs.data(), ys.data(), trn::fft::kForward);
  slab.allgather(ys.data(), all.data(), true);
  check(box_bits_equal(y, pencil.output_box(), n, all), name_of(n) + ": the pencil forward differs from the slab plan's bits");
}

// Uneven cut points of an axis of length len over p parts (rank 0 may get nothing): cut_r = len r^2 / p^2.
std::int64_t cut(std::int64_t len, int p, int r) { return len * r * r / (static_cast<std::int64_t>(p) * p); }

// Irregular boxes: input split unevenly along axis 1, stored axis 2 slowest with padding; output
// split unevenly along axis 0 (reversed: the last rank first), row-major with a padded axis 2.
void irregular_boxes(const Index3& n, Box* in, Box* out) {
  const int r = g_rank, p = g_size;
  in->lower = {0, cut(n[1], p, r), 0};
  in->upper = {n[0], cut(n[1], p, r + 1), n[2]};
  const std::int64_t e1 = in->upper[1] - in->lower[1];
  in->strides = {e1 + 1, 1, (e1 + 1) * (n[0] + 2)};  // [i2][i0][i1], axis 1 padded by 1, axis 0 by 2
  const int q = p - 1 - r;
  out->lower = {cut(n[0], p, q), 0, 0};
  out->upper = {cut(n[0], p, q + 1), n[1], n[2]};
  out->strides = {n[1] * (n[2] + 3), n[2] + 3, 1};
}

// The box API (C++): forward against FFTW, the output's gaps untouched, the same bits as the pencil
// plan on one rank, the inverse round trip (N x within the sum of the bounds).
void check_boxes(const Index3& n) {
  Box in, out;
  irregular_boxes(n, &in, &out);
  trn::fftmp::PencilSpec spec;
  spec.n = n;
  const trn::fftmp::BoxPlan plan(spec, in, out, trn::fft::Settings{}, MPI_COMM_WORLD);
  const std::string what = "box API " + name_of(n) + " on " + std::to_string(g_size) + " ranks";
  const std::vector<cd> g = global_input(n, 29), ref = fftw_3d(g, n, FFTW_FORWARD);
  const cf fill(1234.5f, -99.0f);
  const std::vector<cf> x = box_of<cf>(g, n, in, fill);
  std::vector<cf> y(static_cast<std::size_t>(std::max<std::int64_t>(out.span(), 1)), fill);
  plan.execute(x.data(), y.data(), trn::fft::kForward);
  const double bound = plan.error_bound(), e = rel_l2(y, out, n, ref);
  check(e > 0 && e <= bound, what + ": forward vs FFTW rel L2 " + std::to_string(e) + " outside (0, " + std::to_string(bound) + "]");
  check(gaps_untouched(y, out, fill), what + ": the forward wrote outside the output box");
  const std::vector<cf> gx = box_of<cf>(g, n, Box{{0, 0, 0}, n, {n[1] * n[2], n[2], 1}}, cf(0));
  check(box_bits_equal(y, out, n, whole_pencil<cf>(spec, g, trn::fft::kForward)), what + ": forward differs from the 1-rank pencil bits");
  std::vector<cf> back(x.size(), fill);
  plan.execute(y.data(), back.data(), trn::fft::kInverse);
  const double er = rel_l2(back, in, n, g, static_cast<double>(total(n)));
  check(er > 0 && er <= 2 * bound, what + ": inverse(forward(x)) vs N x rel L2 " + std::to_string(er) + " outside (0, 2 bound]");
  check(gaps_untouched(back, in, fill), what + ": the inverse wrote outside the input box");
  // In place: one buffer of both spans.
  std::vector<cf> buf(static_cast<std::size_t>(std::max<std::int64_t>({in.span(), out.span(), 1})), fill);
  std::copy(x.begin(), x.end(), buf.begin());
  plan.execute(buf.data(), buf.data(), trn::fft::kForward);
  check(box_bits_equal(buf, out, n, whole_pencil<cf>(spec, g, trn::fft::kForward)), what + ": in-place forward bits");
  if (g_rank == 0)
    std::printf("trnfftMp %s: forward %.3g of bound %.3g, round trip %.3g of 2 bound; %s\n", what.c_str(), e / bound, bound,
                er / (2 * bound), plan.pencils().print().c_str());
}

// A bad set of boxes (made by `bad` on each rank) throws UsageError on every rank.
template <class Bad>
void expect_bad_boxes(const Index3& n, const std::string& what, Bad&& bad) {
  Box in, out;
  irregular_boxes(n, &in, &out);
  bad(&in, &out);
  trn::fftmp::PencilSpec spec;
  spec.n = n;
  int threw = 0;
  try {
    const trn::fftmp::BoxPlan plan(spec, in, out, trn::fft::Settings{}, MPI_COMM_WORLD);
  } catch (const trn::UsageError&) {
    threw = 1;
  }
  check_all_ranks(threw, 1, "bad boxes (" + what + ") throw UsageError");
}

void check_bad_boxes() {
  const Index3 n{6, 7, 5};
  expect_bad_boxes(n, "a hole", [](Box* in, Box*) { if (g_rank == g_size - 1) in->upper[0] -= 1; });
  expect_bad_boxes(n, "outside the domain", [](Box*, Box* out) { if (g_rank == 0) out->upper[2] += 1; });
  expect_bad_boxes(n, "shared addresses", [](Box* in, Box*) { if (g_rank == g_size - 1) in->strides = {1, 1, 1}; });
  if (g_size > 1)  // rank 1 also claims rank 0's output box: overlap (and a hole where rank 1's was)
    expect_bad_boxes(n, "an overlap", [](Box*, Box* out) {
      Box o0, unused;
      const int me = g_rank;
      g_rank = 0;
      irregular_boxes({6, 7, 5}, &unused, &o0);
      g_rank = me;
      if (g_rank == 1) out->lower = o0.lower, out->upper = o0.upper;
    });
  // Grids that do not match the communicator.
  trn::fftmp::PencilSpec spec;
  spec.n = n;
  spec.p1 = g_size + 1, spec.p2 = 1;
  int threw = 0;
  try {
    const trn::fftmp::PencilPlan plan(spec, trn::fft::Settings{}, MPI_COMM_WORLD);
  } catch (const trn::UsageError&) {
    threw = 1;
  }
  check_all_ranks(threw, 1, "a grid p1 x p2 != the communicator's size throws UsageError");
}

// Host threads never change bits: the pencil forward with 1 and with 2 host threads.
void check_threads() {
  const Index3 n{8, 6, 10};
  trn::fftmp::PencilSpec spec;
  spec.n = n;
  std::vector<std::vector<cf>> ys;
  for (int threads : {1, 2}) {
    trn::fft::Settings s;
    s.host_threads = threads;
    const trn::fftmp::PencilPlan plan(spec, s, MPI_COMM_WORLD);
    const std::vector<cf> x = box_of<cf>(global_input(n, 5), n, plan.input_box(), cf(0));
    ys.emplace_back(static_cast<std::size_t>(std::max<std::int64_t>(plan.output_box().span(), 1)));
    plan.execute(x.data(), ys.back().data(), trn::fft::kForward);
  }
  check(std::memcmp(ys[0].data(), ys[1].data(), ys[0].size() * sizeof(cf)) == 0, "pencil forward: 1 vs 2 host threads differ");
}

// The C API: trnfftXtSetDistribution, make, DISTRIBUTED_INPUT / OUTPUT descriptors, in-place forward
// and inverse: the C++ BoxPlan's bits; bad boxes and mismatched calls: one status on every rank.
void check_c_api_boxes() {
  const Index3 n{6, 7, 5};
  Box in, out;
  irregular_boxes(n, &in, &out);
  MPI_Comm comm = MPI_COMM_WORLD;
  trnfftHandle h = TRNFFT_PLAN_NULL;
  check(trnfftCreate(&h) == TRNFFT_SUCCESS, "trnfftCreate");
  check(trnfftMpAttachComm(h, TRNFFT_COMM_MPI, &comm) == TRNFFT_SUCCESS, "trnfftMpAttachComm");
  check(trnfftXtSetDistribution(h, 3, ll(in.lower).data(), ll(in.upper).data(), ll(out.lower).data(), ll(out.upper).data(), ll(in.strides).data(),
                                nullptr) == TRNFFT_INVALID_VALUE,
        "XtSetDistribution: NULL strides_output");
  check(trnfftXtSetDistribution(h, 4, ll(in.lower).data(), ll(in.upper).data(), ll(out.lower).data(), ll(out.upper).data(), ll(in.strides).data(),
                                ll(out.strides).data()) == TRNFFT_INVALID_VALUE,
        "XtSetDistribution: rank 4");
  const long long shared[3] = {1, 1, 1};
  check(trnfftXtSetDistribution(h, 3, ll(in.lower).data(), ll(in.upper).data(), ll(out.lower).data(), ll(out.upper).data(), shared,
                                ll(out.strides).data()) == (in.volume() > 0 ? TRNFFT_INVALID_VALUE : TRNFFT_SUCCESS),
        "XtSetDistribution: strides that share addresses");
  check(trnfftXtSetDistribution(h, 3, ll(in.lower).data(), ll(in.upper).data(), ll(out.lower).data(), ll(out.upper).data(), ll(in.strides).data(),
                                ll(out.strides).data()) == TRNFFT_SUCCESS,
        "trnfftXtSetDistribution");
  size_t ws = 0;
  check_all_ranks(trnfftMakePlan3d(h, 6, 7, 5, TRNFFT_C2C, &ws), TRNFFT_SUCCESS, "trnfftMakePlan3d with boxes");
  check(trnfftXtSetDistribution(h, 3, ll(in.lower).data(), ll(in.upper).data(), ll(out.lower).data(), ll(out.upper).data(), ll(in.strides).data(),
                                ll(out.strides).data()) == TRNFFT_INVALID_PLAN,
        "XtSetDistribution after the make call");
  trnLibXtDesc* desc = nullptr;
  check(trnfftXtMalloc(h, &desc, TRNFFT_XT_FORMAT_INPLACE) == TRNFFT_INVALID_VALUE, "XtMalloc INPLACE on a box plan");
  check(trnfftXtMalloc(h, &desc, TRNFFT_XT_FORMAT_DISTRIBUTED_INPUT) == TRNFFT_SUCCESS && desc != nullptr, "XtMalloc DISTRIBUTED_INPUT");
  const std::vector<cd> g = global_input(n, 29);
  std::vector<cf> x = box_of<cf>(g, n, in, cf(0));
  check(trnfftXtMemcpy(h, desc, x.data(), TRNFFT_COPY_HOST_TO_DEVICE) == TRNFFT_SUCCESS, "XtMemcpy H2D");
  check_all_ranks(trnfftXtExecDescriptor(h, desc, desc, TRNFFT_INVERSE), TRNFFT_INVALID_VALUE, "inverse on DISTRIBUTED_INPUT data");
  check_all_ranks(trnfftXtExecDescriptorC2C(h, desc, desc, TRNFFT_FORWARD), TRNFFT_SUCCESS, "XtExecDescriptorC2C forward (boxes)");
  check(desc->subFormat == TRNFFT_XT_FORMAT_DISTRIBUTED_OUTPUT, "forward leaves the data DISTRIBUTED_OUTPUT");
  trn::fftmp::PencilSpec spec;
  spec.n = n;
  const trn::fftmp::BoxPlan plan(spec, in, out, trn::fft::Settings{}, MPI_COMM_WORLD);
  std::vector<cf> yc(static_cast<std::size_t>(std::max<std::int64_t>(out.span(), 1))), yd(static_cast<std::size_t>(out.span()));
  plan.execute(x.data(), yc.data(), trn::fft::kForward);
  yd.resize(static_cast<std::size_t>(std::max<std::int64_t>(out.span(), 1)));
  check(trnfftXtMemcpy(h, yd.data(), desc, TRNFFT_COPY_DEVICE_TO_HOST) == TRNFFT_SUCCESS, "XtMemcpy D2H");
  check(box_bits_equal(yd, out, n, [&] {
          std::vector<cf> w(static_cast<std::size_t>(total(n)));
          for (std::int64_t i = out.lower[0]; i < out.upper[0]; ++i)
            for (std::int64_t j = 0; j < n[1]; ++j)
              for (std::int64_t k = 0; k < n[2]; ++k)
                w[static_cast<std::size_t>(global_at(n, i, j, k))] = yc[static_cast<std::size_t>(at(out, i, j, k))];
          return w;
        }()),
        "the C API's box forward equals the C++ BoxPlan's bits");
  check_all_ranks(trnfftXtExecDescriptor(h, desc, desc, TRNFFT_INVERSE), TRNFFT_SUCCESS, "XtExecDescriptor inverse (boxes)");
  check(desc->subFormat == TRNFFT_XT_FORMAT_DISTRIBUTED_INPUT, "inverse leaves the data DISTRIBUTED_INPUT");
  char text[2048];
  check(trnfftMpGetPlanDescription(h, text, sizeof text) == TRNFFT_SUCCESS && std::strstr(text, "pencil plan") != nullptr,
        "trnfftMpGetPlanDescription (box plan)");
  check(trnfftXtFree(desc) == TRNFFT_SUCCESS, "trnfftXtFree");
  check(trnfftDestroy(h) == TRNFFT_SUCCESS, "trnfftDestroy");
}

// Collective failures of the box API: every rank returns the same status.
void check_c_api_bad_boxes() {
  const Index3 n{6, 7, 5};
  MPI_Comm comm = MPI_COMM_WORLD;
  const auto make = [&](bool set_here, Box in, Box out, int type) {
    trnfftHandle h = TRNFFT_PLAN_NULL;
    trnfftCreate(&h);
    if (set_here)
      trnfftXtSetDistribution(h, 3, ll(in.lower).data(), ll(in.upper).data(), ll(out.lower).data(), ll(out.upper).data(), ll(in.strides).data(),
                              ll(out.strides).data());
    size_t ws = 0;
    const int st = trnfftMpMakePlan3d(h, 6, 7, 5, static_cast<trnfftType>(type), &comm, TRNFFT_COMM_MPI, &ws);
    trnfftDestroy(h);
    return st;
  };
  Box in, out;
  irregular_boxes(n, &in, &out);
  Box hole = in;
  if (g_rank == g_size - 1) hole.upper[0] -= 1;  // the last rank's boxes are never empty here
  check_all_ranks(make(true, hole, out, TRNFFT_C2C), TRNFFT_INVALID_VALUE, "boxes with a hole");
  Box outside = out;
  if (g_rank == 0) outside.upper[2] += 2;  // within the padded layout
  check_all_ranks(make(true, in, outside, TRNFFT_C2C), TRNFFT_INVALID_VALUE, "a box outside the domain");
  // R2C: the output boxes must tile the half spectrum 6 x 7 x 3, not the real domain.
  check_all_ranks(make(true, in, out, TRNFFT_R2C), TRNFFT_INVALID_VALUE, "R2C output boxes tiling the real domain");
  if (g_size > 1) check_all_ranks(make(g_rank == 0, in, out, TRNFFT_C2C), TRNFFT_INVALID_SIZE, "boxes set on rank 0 only");
  trnfftHandle h = TRNFFT_PLAN_NULL;
  trnfftCreate(&h);
  trnfftXtSetDistribution(h, 2, ll(in.lower).data(), ll(in.upper).data(), ll(out.lower).data(), ll(out.upper).data(), ll(in.strides).data(),
                          ll(out.strides).data());
  size_t ws = 0;
  check_all_ranks(trnfftMpMakePlan3d(h, 6, 7, 5, TRNFFT_C2C, &comm, TRNFFT_COMM_MPI, &ws), TRNFFT_INVALID_VALUE,
                  "XtSetDistribution rank 2 for a 3-D plan");
  trnfftDestroy(h);
}

// A 2-D transform through the box API (n0 x n1 x 1): boxes split along axis 1 in, axis 0 out.
void check_boxes_2d() {
  const Index3 n{9, 10, 1};
  Box in, out;
  in.lower = {0, cut(10, g_size, g_rank), 0};
  in.upper = {9, cut(10, g_size, g_rank + 1), 1};
  in.strides = {std::max<std::int64_t>(in.upper[1] - in.lower[1], 1), 1, 1};
  out = trn::fftmp::dense_box({trn::fftmp::slab_start(9, g_size, g_rank), 0, 0},
                              {trn::fftmp::slab_start(9, g_size, g_rank) + trn::fftmp::slab_count(9, g_size, g_rank), 10, 1}, {1, 0, 2});
  trn::fftmp::PencilSpec spec;
  spec.n = n;
  const trn::fftmp::BoxPlan plan(spec, in, out, trn::fft::Settings{}, MPI_COMM_WORLD);
  const std::vector<cd> g = global_input(n, 41), ref = fftw_3d(g, n, FFTW_FORWARD);
  const std::vector<cf> x = box_of<cf>(g, n, in, cf(0));
  std::vector<cf> y(static_cast<std::size_t>(std::max<std::int64_t>(out.span(), 1)));
  plan.execute(x.data(), y.data(), trn::fft::kForward);
  const double e = rel_l2(y, out, n, ref), bound = plan.error_bound();
  check(e > 0 && e <= bound, "2-D box API 9x10: forward vs FFTW rel L2 " + std::to_string(e) + " outside (0, bound]");
  trn::fft::PlanSpec whole;
  whole.n = {9, 10};
  const std::vector<cf> gx = box_of<cf>(g, n, Box{{0, 0, 0}, n, {10, 1, 1}}, cf(0));
  std::vector<cf> gy(gx.size());
  trn::fft::Plan(whole, trn::fft::Settings{}).execute(gx.data(), gy.data(), trn::fft::kForward);
  check(box_bits_equal(y, out, n, gy), "2-D box API 9x10: forward differs from trnfft's single-device 2-D plan's bits");
}


// ---- Real transforms (R2C / C2R, D2Z / Z2D) on pencils and boxes ----------------------------------

std::vector<std::int64_t> vec_of(const Index3& n) { return {n[0], n[1], n[2]}; }

// The whole array (global row-major over `dims`) from every rank's box of `got` (each element written
// by one rank, summed over the ranks).
template <class T>
std::vector<cd> gather_box(const std::vector<T>& got, const Box& b, const Index3& dims) {
  std::vector<cd> g(static_cast<std::size_t>(total(dims)));
  for (std::int64_t i = b.lower[0]; i < b.upper[0]; ++i)
    for (std::int64_t j = b.lower[1]; j < b.upper[1]; ++j)
      for (std::int64_t k = b.lower[2]; k < b.upper[2]; ++k)
        g[static_cast<std::size_t>(global_at(dims, i, j, k))] = cd(got[static_cast<std::size_t>(at(b, i, j, k))]);
  mpitest::sum_over_ranks(g);
  return g;
}

// trnfft's single-device R2C / D2Z plan of n on the dense global array: the bits the distributed
// forward must give (a 2-D transform as 1 x n0 x n1: the 2-D plan).
template <class R>
std::vector<std::complex<R>> single_device_r2c(const Index3& n, const std::vector<double>& g) {
  trn::fft::PlanSpec whole;
  whole.n = n[0] == 1 ? std::vector<std::int64_t>{n[1], n[2]} : vec_of(n);
  whole.type = sizeof(R) == 8 ? trn::fft::Type::d2z : trn::fft::Type::r2c;
  const std::vector<R> x(g.begin(), g.end());
  std::vector<std::complex<R>> y(static_cast<std::size_t>(n[0] * n[1] * (n[2] / 2 + 1)));
  trn::fft::Plan(whole, trn::fft::Settings{}).execute(x.data(), y.data(), trn::fft::kForward);
  return y;
}
// trnfft's single-device C2R / Z2D plan of n on the whole half spectrum (row-major): the bits the
// distributed inverse must give (issue #31: the same complex-axis order, n-2 ... 0, then the C2R).
template <class R>
std::vector<R> single_device_c2r(const Index3& n, const std::vector<cd>& spectrum) {
  trn::fft::PlanSpec whole;
  whole.n = n[0] == 1 ? std::vector<std::int64_t>{n[1], n[2]} : vec_of(n);
  whole.type = sizeof(R) == 8 ? trn::fft::Type::z2d : trn::fft::Type::c2r;
  const std::vector<std::complex<R>> x(spectrum.begin(), spectrum.end());
  std::vector<R> y(static_cast<std::size_t>(total(n)));
  trn::fft::Plan(whole, trn::fft::Settings{}).execute(x.data(), y.data(), trn::fft::kInverse);
  return y;
}

// Both directions of one real transform between the rank's real box (xin, real_box) and complex box
// (complex_box), checked: forward vs FFTW MPI's r2c, inverse (of the forward's gathered spectrum) vs
// FFTW MPI's c2r of it, round trip vs N x -- each in (0, bound] -- and, fp32, bit for bit: the R2C
// against trnfft's single-device R2C, the C2R against its single-device C2R (fp64: on one rank).
// run(direction, in, out) executes the plan of that direction.
struct RealCheck {
  Index3 n{}, c{};
  Box real_box, complex_box;
  double bound_forward = 0, bound_inverse = 0;
  std::string what;
  bool inverse_in_place = false;  // the inverse's real box shares its buffer with the spectrum (padding not kept)
};
template <class R, class Run>
void check_real_pair(const RealCheck& rc, Run&& run) {
  using C = std::complex<R>;
  const std::vector<double> g = mpitest::global_real(vec_of(rc.n), 23);
  const R pad(777);
  const std::vector<R> x = box_of<R>(g, rc.n, rc.real_box, pad);
  const C fill(R(1234.5), R(-99));
  std::vector<C> y(static_cast<std::size_t>(std::max<std::int64_t>(rc.complex_box.span(), 1)), fill);
  run(trn::fft::kForward, x.data(), y.data());
  const double bf = rc.bound_forward, bi = rc.bound_inverse;
  const double e = rel_l2(y, rc.complex_box, rc.c, mpitest::fftw_mpi_r2c(g, vec_of(rc.n), vec_of(rc.c)));
  check(e > 0 && e <= bf, rc.what + ": forward vs FFTW MPI r2c rel L2 " + std::to_string(e) + " outside (0, " + std::to_string(bf) + "]");
  check(gaps_untouched(y, rc.complex_box, fill), rc.what + ": the forward wrote outside the complex box");
  const std::vector<cd> spectrum = gather_box(y, rc.complex_box, rc.c);
  std::vector<R> xi(static_cast<std::size_t>(std::max<std::int64_t>(rc.real_box.span(), 1)), pad);
  run(trn::fft::kInverse, y.data(), xi.data());
  const double ei = rel_l2(xi, rc.real_box, rc.n, mpitest::fftw_mpi_c2r(spectrum, vec_of(rc.n), vec_of(rc.c)));
  check(ei > 0 && ei <= bi, rc.what + ": inverse vs FFTW MPI c2r rel L2 " + std::to_string(ei) + " outside (0, " + std::to_string(bi) + "]");
  if (!rc.inverse_in_place) check(gaps_untouched(xi, rc.real_box, pad), rc.what + ": the inverse wrote outside the real box");
  const double er = rel_l2(xi, rc.real_box, rc.n, g, static_cast<double>(total(rc.n)));
  check(er > 0 && er <= bf + bi, rc.what + ": C2R(R2C(x)) vs N x rel L2 " + std::to_string(er) + " outside (0, bf + bi]");
  if (g_rank == 0)
    std::printf("trnfftMp %s: forward %.3g of bound %.3g, inverse %.3g of %.3g, round trip %.3g of their sum\n", rc.what.c_str(),
                e / bf, bf, ei / bi, bi, er / (bf + bi));
  // fp32: trnfft's single-device bits on any grid; D2Z / Z2D on one rank (Ozaki: a pass's bits depend
  // on its batch, which only one rank shares with the single-device plan; docs/scale-out.md 9.2).
  if (sizeof(R) == 4 || g_size == 1) {
    check(box_bits_equal(y, rc.complex_box, rc.c, single_device_r2c<R>(rc.n, g)), rc.what + ": R2C differs from trnfft's single-device bits");
    check(box_bits_equal(xi, rc.real_box, rc.n, single_device_c2r<R>(rc.n, spectrum)),
          rc.what + ": C2R differs from trnfft's single-device C2R bits");
  }
}

// Real pencils (R = float: R2C / C2R; double: D2Z / Z2D) on the grid p1 x p2 (0 x 0: the plan's).
template <class R>
void check_pencil_real(const Index3& n, int p1, int p2) {
  const bool fp64 = sizeof(R) == 8;
  trn::fftmp::PencilSpec fs, is;
  fs.n = is.n = n;
  fs.p1 = is.p1 = p1, fs.p2 = is.p2 = p2;
  fs.type = fp64 ? trn::fft::Type::d2z : trn::fft::Type::r2c;
  is.type = fp64 ? trn::fft::Type::z2d : trn::fft::Type::c2r;
  const trn::fftmp::PencilPlan fwd(fs, trn::fft::Settings{}, MPI_COMM_WORLD), inv(is, trn::fft::Settings{}, MPI_COMM_WORLD);
  RealCheck rc;
  rc.n = n;
  rc.c = trn::fftmp::complex_dims(fs);
  rc.real_box = fwd.input_box();
  rc.complex_box = fwd.output_box();
  check(inv.input_box() == rc.real_box && inv.output_box() == rc.complex_box, "R2C and C2R pencil plans: the same boxes");
  rc.bound_forward = fwd.error_bound();
  rc.bound_inverse = inv.error_bound();
  rc.what = "pencil " + name_of(n) + (fp64 ? " D2Z/Z2D" : " R2C/C2R") + " grid " + std::to_string(fwd.spec().p1) + "x" +
            std::to_string(fwd.spec().p2) + " on " + std::to_string(g_size) + " ranks";
  check_real_pair<R>(rc, [&](int dir, const void* in, void* out) { (dir == trn::fft::kForward ? fwd : inv).execute(in, out, dir); });
  // A real plan runs in its own direction only: UsageError on every rank otherwise.
  int threw = 0;
  std::vector<R> dummy(static_cast<std::size_t>(std::max<std::int64_t>({rc.real_box.span(), 2 * rc.complex_box.span(), 2})));
  try {
    fwd.execute(dummy.data(), dummy.data(), trn::fft::kInverse);
  } catch (const trn::UsageError&) {
    threw = 1;
  }
  check_all_ranks(threw, 1, rc.what + ": an inverse on the R2C plan throws UsageError");
  // The prediction against the modeled trace of the forward.
  const std::vector<R> x(static_cast<std::size_t>(std::max<std::int64_t>(rc.real_box.span(), 1)), R(0.5));
  std::vector<std::complex<R>> y(static_cast<std::size_t>(std::max<std::int64_t>(rc.complex_box.span(), 1)));
  trn::fft::ExecReport rep;
  rep.plans_wanted = false;
  fwd.execute(x.data(), y.data(), trn::fft::kForward, &rep);
  double worst[2] = {rep.profile.total_ns, fwd.info().predicted_ns};
  MPI_Allreduce(MPI_IN_PLACE, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  check(worst[0] / worst[1] >= 0.8 && worst[0] / worst[1] <= 1.25,
        rc.what + ": modeled / predicted " + std::to_string(worst[0] / worst[1]) + " outside [0.8, 1.25]");
  // ... and of the inverse (the reordered C2R: column transpose, re-layout, all-to-all over every rank).
  trn::fft::ExecReport irep;
  irep.plans_wanted = false;
  std::vector<R> xo(static_cast<std::size_t>(std::max<std::int64_t>(rc.real_box.span(), 1)));
  inv.execute(y.data(), xo.data(), trn::fft::kInverse, &irep);
  double iworst[2] = {irep.profile.total_ns, inv.info().predicted_ns};
  MPI_Allreduce(MPI_IN_PLACE, iworst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (g_rank == 0) std::printf("trnfftMp %s: inverse modeled / predicted %.3f\n", rc.what.c_str(), iworst[0] / iworst[1]);
  check(iworst[0] / iworst[1] >= 0.8 && iworst[0] / iworst[1] <= 1.25,
        rc.what + ": inverse modeled / predicted " + std::to_string(iworst[0] / iworst[1]) + " outside [0.8, 1.25]");
}

// The box API's real transforms (C++ BoxPlan): irregular, padded, strided boxes -- the real input
// boxes on the real domain, the complex output boxes on the half spectrum.
template <class R>
void check_boxes_real(const Index3& n) {
  const bool fp64 = sizeof(R) == 8;
  trn::fftmp::PencilSpec fs, is;
  fs.n = is.n = n;
  fs.type = fp64 ? trn::fft::Type::d2z : trn::fft::Type::r2c;
  is.type = fp64 ? trn::fft::Type::z2d : trn::fft::Type::c2r;
  RealCheck rc;
  rc.n = n;
  rc.c = trn::fftmp::complex_dims(fs);
  Box unused;
  irregular_boxes(n, &rc.real_box, &unused);
  irregular_boxes(rc.c, &unused, &rc.complex_box);
  const trn::fftmp::BoxPlan fwd(fs, rc.real_box, rc.complex_box, trn::fft::Settings{}, MPI_COMM_WORLD);
  const trn::fftmp::BoxPlan inv(is, rc.real_box, rc.complex_box, trn::fft::Settings{}, MPI_COMM_WORLD);
  rc.bound_forward = fwd.error_bound();
  rc.bound_inverse = inv.error_bound();
  rc.what = "box API " + name_of(n) + (fp64 ? " D2Z/Z2D" : " R2C/C2R") + " on " + std::to_string(g_size) + " ranks";
  check_real_pair<R>(rc, [&](int dir, const void* in, void* out) { (dir == trn::fft::kForward ? fwd : inv).execute(in, out, dir); });
}

// trnfftXtSetDistribution with R2C / C2R plans (cuFFTMp's r2c_c2r_pencils layout): real input
// pencils along the last axis with cuFFTMp's in-place padding 2 (n_last/2 + 1) as the row stride,
// complex output pencils along axis 1 (3-D) or slabs of the half spectrum's last axis (2-D); one
// in-place descriptor: R2C DISTRIBUTED_INPUT -> OUTPUT, C2R back.
void check_c_api_real_boxes(const Index3& n, int rank) {
  const int pa = g_size == 4 && rank == 3 ? 2 : g_size, pb = g_size / pa, i = g_rank / pb, j = g_rank % pb;
  const Index3 c{n[0], n[1], n[2] / 2 + 1};
  const std::int64_t padded = 2 * c[2];
  RealCheck rc;
  rc.n = n;
  rc.c = c;
  Box& rb = rc.real_box;
  Box& cb = rc.complex_box;
  if (rank == 3) {
    rb.lower = {trn::fftmp::slab_start(n[0], pa, i), trn::fftmp::slab_start(n[1], pb, j), 0};
    rb.upper = {rb.lower[0] + trn::fftmp::slab_count(n[0], pa, i), rb.lower[1] + trn::fftmp::slab_count(n[1], pb, j), n[2]};
    cb.lower = {trn::fftmp::slab_start(c[0], pa, i), 0, trn::fftmp::slab_start(c[2], pb, j)};
    cb.upper = {cb.lower[0] + trn::fftmp::slab_count(c[0], pa, i), c[1], cb.lower[2] + trn::fftmp::slab_count(c[2], pb, j)};
  } else {  // 2-D n1 x n2 (n0 = 1): real rows split, the half spectrum's columns split
    rb.lower = {0, trn::fftmp::slab_start(n[1], g_size, g_rank), 0};
    rb.upper = {1, rb.lower[1] + trn::fftmp::slab_count(n[1], g_size, g_rank), n[2]};
    cb.lower = {0, 0, trn::fftmp::slab_start(c[2], g_size, g_rank)};
    cb.upper = {1, c[1], cb.lower[2] + trn::fftmp::slab_count(c[2], g_size, g_rank)};
  }
  rb.strides = {std::max<std::int64_t>(rb.extent(1), 1) * padded, padded, 1};
  cb.strides = {c[1] * std::max<std::int64_t>(cb.extent(2), 1), std::max<std::int64_t>(cb.extent(2), 1), 1};
  // The C API's 2-D boxes drop axis 0.
  const auto lo = [&](const Index3& v) { return rank == 3 ? ll(v) : std::array<long long, 3>{v[1], v[2], 0}; };
  MPI_Comm comm = MPI_COMM_WORLD;
  trnfftHandle hf = TRNFFT_PLAN_NULL, hi = TRNFFT_PLAN_NULL;
  check(trnfftCreate(&hf) == TRNFFT_SUCCESS && trnfftCreate(&hi) == TRNFFT_SUCCESS, "trnfftCreate (real boxes)");
  for (const trnfftHandle h : {hf, hi}) {
    check(trnfftMpAttachComm(h, TRNFFT_COMM_MPI, &comm) == TRNFFT_SUCCESS, "trnfftMpAttachComm (real boxes)");
    check(trnfftXtSetDistribution(h, rank, lo(rb.lower).data(), lo(rb.upper).data(), lo(cb.lower).data(), lo(cb.upper).data(),
                                  lo(rb.strides).data(), lo(cb.strides).data()) == TRNFFT_SUCCESS,
          "trnfftXtSetDistribution (real boxes)");
  }
  size_t ws = 0;
  const int nf = rank == 3 ? trnfftMakePlan3d(hf, static_cast<int>(n[0]), static_cast<int>(n[1]), static_cast<int>(n[2]), TRNFFT_R2C, &ws)
                           : trnfftMakePlan2d(hf, static_cast<int>(n[1]), static_cast<int>(n[2]), TRNFFT_R2C, &ws);
  const int ni = rank == 3 ? trnfftMakePlan3d(hi, static_cast<int>(n[0]), static_cast<int>(n[1]), static_cast<int>(n[2]), TRNFFT_C2R, &ws)
                           : trnfftMakePlan2d(hi, static_cast<int>(n[1]), static_cast<int>(n[2]), TRNFFT_C2R, &ws);
  rc.inverse_in_place = true;
  rc.what = "C API box " + std::to_string(rank) + "-D " + name_of(n) + " R2C/C2R on " + std::to_string(g_size) + " ranks";
  check_all_ranks(nf, TRNFFT_SUCCESS, rc.what + ": make R2C with boxes");
  check_all_ranks(ni, TRNFFT_SUCCESS, rc.what + ": make C2R with boxes");
  trnLibXtDesc* desc = nullptr;
  check(trnfftXtMalloc(hf, &desc, TRNFFT_XT_FORMAT_DISTRIBUTED_INPUT) == TRNFFT_SUCCESS && desc != nullptr, rc.what + ": XtMalloc");
  check(desc->descriptor->size[0] >= static_cast<size_t>(std::max<std::int64_t>(rb.span() * 4, cb.span() * 8)),
        rc.what + ": the descriptor holds the real and the complex box");
  // The C API's bounds: the C++ plans' (same boxes, made the same way).
  trn::fftmp::PencilSpec ps;
  ps.n = n;
  ps.type = trn::fft::Type::r2c;
  rc.bound_forward = trn::fftmp::BoxPlan(ps, rb, cb, trn::fft::Settings{}, MPI_COMM_WORLD).error_bound();
  ps.type = trn::fft::Type::c2r;
  rc.bound_inverse = trn::fftmp::BoxPlan(ps, rb, cb, trn::fft::Settings{}, MPI_COMM_WORLD).error_bound();
  // Run through the one in-place descriptor: copy in, execute, copy out.
  const std::size_t real_bytes = static_cast<std::size_t>(rb.span()) * 4, complex_bytes = static_cast<std::size_t>(cb.span()) * 8;
  check_real_pair<float>(rc, [&](int dir, const void* in, void* out) {
    const bool fwd = dir == trn::fft::kForward;
    std::memcpy(desc->descriptor->data[0], in, fwd ? real_bytes : complex_bytes);
    desc->subFormat = fwd ? TRNFFT_XT_FORMAT_DISTRIBUTED_INPUT : TRNFFT_XT_FORMAT_DISTRIBUTED_OUTPUT;
    if (fwd) check_all_ranks(trnfftXtExecDescriptorC2R(hf, desc, desc), TRNFFT_INVALID_TYPE, rc.what + ": C2R on the R2C plan");
    if (fwd) check_all_ranks(trnfftXtExecDescriptor(hf, desc, desc, TRNFFT_INVERSE), TRNFFT_INVALID_VALUE, rc.what + ": INVERSE on R2C");
    const int st = fwd ? trnfftXtExecDescriptorR2C(hf, desc, desc) : trnfftXtExecDescriptor(hi, desc, desc, TRNFFT_INVERSE);
    check_all_ranks(st, TRNFFT_SUCCESS, rc.what + (fwd ? ": XtExecDescriptorR2C in place" : ": XtExecDescriptor C2R in place"));
    check(desc->subFormat == (fwd ? TRNFFT_XT_FORMAT_DISTRIBUTED_OUTPUT : TRNFFT_XT_FORMAT_DISTRIBUTED_INPUT), rc.what + ": subFormat");
    check(trnfftXtMemcpy(fwd ? hf : hi, out, desc, TRNFFT_COPY_DEVICE_TO_HOST) == TRNFFT_SUCCESS, rc.what + ": XtMemcpy D2H");
  });
  check(trnfftXtFree(desc) == TRNFFT_SUCCESS, "trnfftXtFree (real boxes)");
  check(trnfftDestroy(hf) == TRNFFT_SUCCESS && trnfftDestroy(hi) == TRNFFT_SUCCESS, "trnfftDestroy (real boxes)");
}
}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  fftw_mpi_init();
  // Grids: the plan's choice, all ranks along n0 (slabs), all along n1 / n2, and 2 x 2 on 4 ranks.
  std::vector<std::array<int, 2>> grids{{0, 0}, {g_size, 1}, {1, g_size}};
  if (g_size == 4) grids.push_back({2, 2});
  for (const auto& grid : grids) {
    check_pencil<cf>({8, 12, 10}, grid[0], grid[1]);
    check_pencil<cf>({2, 3, 5}, grid[0], grid[1]);  // uneven and empty pencils on 4 ranks
  }
  check_pencil<cd>({6, 4, 5}, 0, 0);
  check_pencil<cd>({6, 4, 5}, 1, g_size);
  check_pencil<cf>({2, 8, 6}, 0, 0);  // n0 = 2 < P = 4: the plan chooses pencils (2 x 2)
  check_pencil_vs_slab({8, 6, 10});
  check_boxes({6, 7, 5});
  check_boxes({5, 9, 4});
  check_boxes_2d();
  check_bad_boxes();
  check_threads();
  check_c_api_boxes();
  check_c_api_bad_boxes();
  // Real transforms: pencils on the grids above (odd and even last sizes), boxes (C++ and C API).
  for (const auto& grid : grids) {
    check_pencil_real<float>({8, 12, 10}, grid[0], grid[1]);
    check_pencil_real<float>({3, 5, 7}, grid[0], grid[1]);  // empty pencils on 4 ranks, odd n2
  }
  check_pencil_real<double>({6, 4, 5}, 0, 0);
  check_pencil_real<double>({6, 4, 6}, 1, g_size);
  check_boxes_real<float>({6, 7, 5});
  check_boxes_real<double>({5, 9, 4});
  // 2-D real transforms as 1 x n0 x n1 (the box API's form): D2Z / Z2D bits against trnfft's 2-D plan (one rank).
  check_boxes_real<double>({1, 9, 10});
  check_pencil_real<double>({1, 6, 8}, 0, 0);
  check_c_api_real_boxes({5, 6, 7}, 3);
  check_c_api_real_boxes({1, 9, 10}, 2);
  fftw_mpi_cleanup();
  int failures = mpitest::g_failures;
  MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (g_rank == 0)
    std::printf("test_fftmp_pencil on %d ranks: %s (%d failures)\n", g_size, failures == 0 ? "PASS" : "FAIL", failures);
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
