// trnfftMp under MPI (label mpi; run on 1, 2 and 4 ranks): slab C2C / Z2Z 2-D and 3-D transforms
// against FFTW's MPI interface (libfftw3-mpi, the oracle only) on the same slab decomposition, bit
// equality with the single-device trnfft plans, the C API (descriptors), and bad input answered with
// one status on every rank.
#include <fftw3-mpi.h>
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
#include "trnfftMp.h"

using mpitest::check;
using mpitest::check_all_ranks;
using mpitest::g_rank;
using mpitest::g_size;
using mpitest::fftw_mpi_c2r;
using mpitest::fftw_mpi_r2c;
using mpitest::global_real;
using mpitest::padded_row;
using mpitest::rows_per_plane;

namespace {

using cd = std::complex<double>;

// The global input (same on every rank): hashed values in [-1, 1), complex.
std::vector<cd> global_input(const std::vector<std::int64_t>& n, unsigned seed) {
  std::int64_t total = 1;
  for (auto v : n) total *= v;
  std::vector<cd> g(static_cast<std::size_t>(total));
  for (std::size_t i = 0; i < g.size(); ++i) g[i] = cd(mpitest::hashed(i, seed), mpitest::hashed(i, seed + 77));
  return g;
}

std::int64_t inner_of(const std::vector<std::int64_t>& n) { return n.size() == 3 ? n[2] : 1; }

// This rank's n0 slab of a global array, as element type T (std::complex<float> or <double>).
template <class T>
std::vector<T> n0_slab(const std::vector<cd>& g, const std::vector<std::int64_t>& n) {
  const std::int64_t rows = trn::fftmp::slab_count(n[0], g_size, g_rank), x0 = trn::fftmp::slab_start(n[0], g_size, g_rank);
  const std::int64_t plane = n[1] * inner_of(n);
  std::vector<T> s(static_cast<std::size_t>(rows * plane));
  for (std::int64_t i = 0; i < rows * plane; ++i) s[static_cast<std::size_t>(i)] = T(g[static_cast<std::size_t>(x0 * plane + i)]);
  return s;
}

// FFTW MPI's transform of the global input on FFTW's own slab decomposition (the same slabs when
// P divides n0 and n1): forward with FFTW_MPI_TRANSPOSED_OUT (local n1_loc x n0 x inner), backward
// from that layout (FFTW_MPI_TRANSPOSED_IN) to n0 slabs. Returns this rank's slab in trnfftMp's
// layout (shuffled: n0 x n1_loc x inner; n0 slab: n0_loc x n1 x inner).
std::vector<cd> fftw_mpi_reference(const std::vector<cd>& g, const std::vector<std::int64_t>& n, int sign) {
  const int d = static_cast<int>(n.size());
  ptrdiff_t nn[3] = {n[0], n[1], d == 3 ? n[2] : 1}, ln0, s0, ln1, s1;
  const ptrdiff_t alloc = fftw_mpi_local_size_many_transposed(d, nn, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK,
                                                              MPI_COMM_WORLD, &ln0, &s0, &ln1, &s1);
  const std::int64_t inner = inner_of(n);
  fftw_complex* buf = fftw_alloc_complex(static_cast<std::size_t>(std::max<ptrdiff_t>(alloc, 1)));
  const unsigned flags = FFTW_ESTIMATE | (sign == FFTW_FORWARD ? FFTW_MPI_TRANSPOSED_OUT : FFTW_MPI_TRANSPOSED_IN);
  fftw_plan p = fftw_mpi_plan_many_dft(d, nn, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK, buf, buf, MPI_COMM_WORLD,
                                       sign, flags);
  std::vector<cd> out;
  if (sign == FFTW_FORWARD) {  // input: my n0 slab of g
    for (ptrdiff_t i = 0; i < ln0 * n[1] * inner; ++i) {
      buf[i][0] = g[static_cast<std::size_t>(s0 * n[1] * inner + i)].real();
      buf[i][1] = g[static_cast<std::size_t>(s0 * n[1] * inner + i)].imag();
    }
    fftw_execute(p);
    out.resize(static_cast<std::size_t>(n[0] * ln1 * inner));
    for (std::int64_t y = 0; y < ln1; ++y)
      for (std::int64_t x = 0; x < n[0]; ++x)
        for (std::int64_t z = 0; z < inner; ++z) {
          const fftw_complex& v = buf[(y * n[0] + x) * inner + z];
          out[static_cast<std::size_t>((x * ln1 + y) * inner + z)] = cd(v[0], v[1]);
        }
  } else {  // input: my n1 slab of g (g is the global spectrum), FFTW's transposed layout
    for (std::int64_t y = 0; y < ln1; ++y)
      for (std::int64_t x = 0; x < n[0]; ++x)
        for (std::int64_t z = 0; z < inner; ++z) {
          const cd v = g[static_cast<std::size_t>((x * n[1] + s1 + y) * inner + z)];
          buf[(y * n[0] + x) * inner + z][0] = v.real();
          buf[(y * n[0] + x) * inner + z][1] = v.imag();
        }
    fftw_execute(p);
    out.resize(static_cast<std::size_t>(ln0 * n[1] * inner));
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = cd(buf[i][0], buf[i][1]);
  }
  fftw_destroy_plan(p);
  fftw_free(buf);
  return out;
}

// Relative L2 error over the whole distributed array (allreduced).
template <class T>
double rel_l2(const std::vector<T>& got, const std::vector<cd>& ref) {
  double v[2] = {0, 0};
  for (std::size_t i = 0; i < ref.size(); ++i) {
    v[0] += std::norm(cd(got[i]) - ref[i]);
    v[1] += std::norm(ref[i]);
  }
  MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return std::sqrt(v[0] / std::max(v[1], 1e-300));
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

std::string shape_name(const std::vector<std::int64_t>& n) {
  std::string s = std::to_string(n[0]);
  for (std::size_t i = 1; i < n.size(); ++i) s += "x" + std::to_string(n[i]);
  return s;
}

// One shape and precision: forward and inverse against FFTW MPI (when P divides n0 and n1: FFTW's
// slabs are then trnfftMp's), and bit for bit against the single-device trnfft plans.
template <class T>
void check_shape(const std::vector<std::int64_t>& n) {
  const bool fp64 = sizeof(T) == 16;
  const std::string what = shape_name(n) + (fp64 ? " Z2Z" : " C2C") + " on " + std::to_string(g_size) + " ranks";
  trn::fftmp::SlabSpec spec;
  spec.n = n;
  spec.type = fp64 ? trn::fft::Type::z2z : trn::fft::Type::c2c;
  trn::fft::Settings settings;
  const trn::fftmp::SlabPlan plan(spec, settings, MPI_COMM_WORLD);
  const std::vector<cd> g = global_input(n, 11);
  const std::vector<T> x = n0_slab<T>(g, n);
  std::vector<T> y(static_cast<std::size_t>(plan.shuffled_elements()));
  trn::fft::ExecReport rep;
  plan.execute(x.data(), y.data(), trn::fft::kForward, &rep);
  std::vector<T> back(static_cast<std::size_t>(plan.inplace_elements()));
  plan.execute(y.data(), back.data(), trn::fft::kInverse);
  const double bound = plan.error_bound();
  // The plan's prediction (docs/scale-out.md 9.1) against the modeled schedule of this rank's trace.
  const double ratio = rep.profile.total_ns / plan.info().predicted_ns;
  check(ratio >= 0.8 && ratio <= 1.25, what + ": modeled / predicted " + std::to_string(ratio) + " outside [0.8, 1.25]");
  const bool fftw_slabs = n[0] % g_size == 0 && n[1] % g_size == 0;
  if (fftw_slabs) {
    const std::vector<cd> ref = fftw_mpi_reference(g, n, FFTW_FORWARD);
    const double e = rel_l2(y, ref);
    check(e <= bound, what + ": forward vs FFTW MPI rel L2 " + std::to_string(e) + " > bound " + std::to_string(bound));
    // The inverse of our spectrum against FFTW's inverse of the same spectrum.
    std::vector<T> spectrum(static_cast<std::size_t>(n[0] * n[1] * inner_of(n)));
    plan.allgather(y.data(), spectrum.data(), true);
    std::vector<cd> gs(spectrum.begin(), spectrum.end());
    const std::vector<cd> iref = fftw_mpi_reference(gs, n, FFTW_BACKWARD);
    const double ei = rel_l2(back, iref);
    check(ei <= bound, what + ": inverse vs FFTW MPI rel L2 " + std::to_string(ei) + " > bound " + std::to_string(bound));
    if (g_rank == 0)
      std::printf("trnfftMp %s: forward %.3g, inverse %.3g of bound %.3g; modeled %.2f us (link %.2f us), predicted %.2f us\n",
                  what.c_str(), e / bound, ei / bound, bound, rep.profile.total_ns / 1e3, rep.profile.link_ns / 1e3,
                  plan.info().predicted_ns / 1e3);
  }
  // Bits: the single-device plans on the whole array (every rank computes them; small sizes). Z2Z
  // only on one rank: trnblas's Ozaki GEMM chooses its contraction balancing and bit count over the
  // whole batched GEMM (docs/trnblas.md "Scaling"), so a Z2Z transform's bits depend on the other
  // transforms of its pass, and a slab holds fewer of them (docs/scale-out.md 9.2).
  if (fp64 && g_size > 1) return;
  trn::fft::PlanSpec whole;
  whole.n = n;
  whole.type = spec.type;
  const std::vector<T> gx(g.begin(), g.end());
  std::vector<T> gy(gx.size());
  trn::fft::Plan(whole, settings).execute(gx.data(), gy.data(), trn::fft::kForward);
  std::vector<T> all(gy.size());
  plan.allgather(y.data(), all.data(), true);
  check(same_bits(all, gy), what + ": forward differs from the single-device plan's bits");
  // Inverse: axis 0 (stride n1 x inner), then the trailing axes: the single-device passes in order.
  const std::int64_t cols = n[1] * inner_of(n);
  trn::fft::PlanSpec a0;
  a0.n = {n[0]};
  a0.type = spec.type;
  a0.batch = cols;
  a0.in = a0.out = trn::fft::Layout{{n[0]}, cols, 1};
  trn::fft::PlanSpec tr;
  tr.n.assign(n.begin() + 1, n.end());
  tr.type = spec.type;
  tr.batch = n[0];
  std::vector<T> t(gy.size()), gb(gy.size());
  trn::fft::Plan(a0, settings).execute(gy.data(), t.data(), trn::fft::kInverse);
  trn::fft::Plan(tr, settings).execute(t.data(), gb.data(), trn::fft::kInverse);
  check(same_bits(back, n0_slab<T>(std::vector<cd>(gb.begin(), gb.end()), n)),
        what + ": inverse differs from the single-device passes' bits");
}

// ---- Real transforms (R2C / C2R, D2Z / Z2D) ----------------------------------------------------

// This rank's INPLACE slab of a dense real array: n0_loc planes of padded rows (padding = `pad`:
// an R2C must not read it).
template <class R>
std::vector<R> padded_n0_slab(const std::vector<double>& g, const std::vector<std::int64_t>& n, R pad) {
  const std::int64_t rows = trn::fftmp::slab_count(n[0], g_size, g_rank), x0 = trn::fftmp::slab_start(n[0], g_size, g_rank);
  const std::int64_t rp = rows_per_plane(n), len = n.back(), pr = padded_row(n);
  std::vector<R> s(static_cast<std::size_t>(rows * rp * pr), pad);
  for (std::int64_t r = 0; r < rows * rp; ++r)
    for (std::int64_t k = 0; k < len; ++k)
      s[static_cast<std::size_t>(r * pr + k)] = static_cast<R>(g[static_cast<std::size_t>((x0 * rp + r) * len + k)]);
  return s;
}

// The dense global real array from every rank's padded INPLACE slab.
template <class R>
std::vector<double> gather_real(const trn::fftmp::SlabPlan& plan, const std::vector<R>& slab) {
  const std::vector<std::int64_t>& n = plan.spec().n;
  const std::vector<std::int64_t> c = trn::fftmp::complex_shape(plan.spec());
  std::vector<R> padded(static_cast<std::size_t>(2 * c[0] * c[1] * c[2]));
  plan.allgather(slab.data(), padded.data(), false);
  const std::int64_t rows = n[0] * rows_per_plane(n), len = n.back(), pr = padded_row(n);
  std::vector<double> g(static_cast<std::size_t>(rows * len));
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t k = 0; k < len; ++k) g[static_cast<std::size_t>(r * len + k)] = padded[static_cast<std::size_t>(r * pr + k)];
  return g;
}

template <class A, class B>
double rel_l2_global(const std::vector<A>& got, const std::vector<B>& ref, double scale = 1) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    num += std::norm(cd(got[i]) - scale * cd(ref[i]));
    den += std::norm(scale * cd(ref[i]));
  }
  return std::sqrt(num / std::max(den, 1e-300));
}

// One real shape and precision (R = float: R2C / C2R, double: D2Z / Z2D): the forward against FFTW
// MPI's r2c, the inverse against FFTW MPI's c2r of the same spectrum, the round trip = N x, each
// within the plans' bounds and above zero (fp32 / Ozaki results differ from FFTW's fp64 ones: an
// exact match would mean the oracle met itself); R2C bits = the single-device trnfft R2C plan's.
template <class R>
void check_real_shape(const std::vector<std::int64_t>& n) {
  using C = std::complex<R>;
  const bool fp64 = sizeof(R) == 8;
  const std::string what = shape_name(n) + (fp64 ? " D2Z/Z2D" : " R2C/C2R") + " on " + std::to_string(g_size) + " ranks";
  trn::fftmp::SlabSpec fs, is;
  fs.n = is.n = n;
  fs.type = fp64 ? trn::fft::Type::d2z : trn::fft::Type::r2c;
  is.type = fp64 ? trn::fft::Type::z2d : trn::fft::Type::c2r;
  trn::fft::Settings settings;
  const trn::fftmp::SlabPlan fwd(fs, settings, MPI_COMM_WORLD), inv(is, settings, MPI_COMM_WORLD);
  const std::vector<std::int64_t> c = trn::fftmp::complex_shape(fs);
  const std::vector<double> g = global_real(n, 23);
  const std::vector<R> x = padded_n0_slab<R>(g, n, R(777));
  std::vector<C> y(static_cast<std::size_t>(fwd.shuffled_elements()));
  trn::fft::ExecReport rep;
  fwd.execute(x.data(), y.data(), trn::fft::kForward, &rep);
  std::vector<R> back(x.size(), R(0));
  trn::fft::ExecReport irep;
  inv.execute(y.data(), back.data(), trn::fft::kInverse, &irep);
  std::vector<C> spectrum(static_cast<std::size_t>(c[0] * c[1] * c[2]));
  fwd.allgather(y.data(), spectrum.data(), true);
  const double bf = fwd.error_bound(), bi = inv.error_bound();
  const double e = rel_l2_global(spectrum, fftw_mpi_r2c(g, n, c));
  check(e > 0 && e <= bf, what + ": forward vs FFTW MPI r2c rel L2 " + std::to_string(e) + " outside (0, " + std::to_string(bf) + "]");
  const std::vector<double> xb = gather_real(inv, back);
  const double ei = rel_l2_global(xb, fftw_mpi_c2r(std::vector<cd>(spectrum.begin(), spectrum.end()), n, c));
  check(ei > 0 && ei <= bi, what + ": inverse vs FFTW MPI c2r rel L2 " + std::to_string(ei) + " outside (0, " + std::to_string(bi) + "]");
  double points = 1;
  for (auto v : n) points *= static_cast<double>(v);
  const double er = rel_l2_global(xb, g, points);
  check(er > 0 && er <= bf + bi, what + ": C2R(R2C(x)) vs N x rel L2 " + std::to_string(er) + " outside (0, " + std::to_string(bf + bi) + "]");
  const double ratio = rep.profile.total_ns / fwd.info().predicted_ns;
  check(ratio >= 0.8 && ratio <= 1.25, what + ": modeled / predicted " + std::to_string(ratio) + " outside [0.8, 1.25]");
  const double iratio = irep.profile.total_ns / inv.info().predicted_ns;
  check(iratio >= 0.8 && iratio <= 1.25, what + ": inverse modeled / predicted " + std::to_string(iratio) + " outside [0.8, 1.25]");
  if (g_rank == 0)
    std::printf("trnfftMp %s: forward %.3g, inverse %.3g, round trip %.3g of bound %.3g / %.3g; modeled %.2f us (link %.2f us), "
                "inverse %.2f us (modeled / predicted %.3f)\n",
                what.c_str(), e / bf, ei / bi, er / (bf + bi), bf, bi, rep.profile.total_ns / 1e3, rep.profile.link_ns / 1e3,
                irep.profile.total_ns / 1e3, iratio);
  // Bits: the single-device R2C and C2R plans on the dense global array / the gathered spectrum
  // (D2Z / Z2D on one rank only: Ozaki, 9.2).
  if (fp64 && g_size > 1) return;
  trn::fft::PlanSpec whole;
  whole.n = n;
  whole.type = fs.type;
  const std::vector<R> gx(g.begin(), g.end());
  std::vector<C> gy(spectrum.size());
  trn::fft::Plan(whole, settings).execute(gx.data(), gy.data(), trn::fft::kForward);
  check(same_bits(spectrum, gy), what + ": R2C differs from the single-device plan's bits");
  whole.type = is.type;
  std::vector<R> gr(g.size());
  trn::fft::Plan(whole, settings).execute(spectrum.data(), gr.data(), trn::fft::kInverse);
  check(same_bits(xb, std::vector<double>(gr.begin(), gr.end())), what + ": C2R differs from the single-device C2R plan's bits");
}

// The C API: attach, make, descriptors, in-place forward and inverse; the same bits as the C++ API.
void check_c_api() {
  const std::vector<std::int64_t> n{8, 4, 6};
  trnfftHandle h = TRNFFT_PLAN_NULL;
  check(trnfftCreate(&h) == TRNFFT_SUCCESS, "trnfftCreate");
  MPI_Comm comm = MPI_COMM_WORLD;
  check(trnfftMpAttachComm(h, TRNFFT_COMM_MPI, &comm) == TRNFFT_SUCCESS, "trnfftMpAttachComm");
  size_t ws = 0;
  check_all_ranks(trnfftMpMakePlan3d(h, 8, 4, 6, TRNFFT_C2C, nullptr, TRNFFT_COMM_MPI, &ws), TRNFFT_SUCCESS,
                  "trnfftMpMakePlan3d on the attached communicator");
  trnLibXtDesc* desc = nullptr;
  check(trnfftXtMalloc(h, &desc, TRNFFT_XT_FORMAT_INPLACE) == TRNFFT_SUCCESS && desc != nullptr, "trnfftXtMalloc");
  const std::vector<cd> g = global_input(n, 5);
  std::vector<std::complex<float>> x = n0_slab<std::complex<float>>(g, n);
  check(trnfftXtMemcpy(h, desc, x.data(), TRNFFT_COPY_HOST_TO_DEVICE) == TRNFFT_SUCCESS, "XtMemcpy H2D");
  check_all_ranks(trnfftXtExecDescriptor(h, desc, desc, TRNFFT_FORWARD), TRNFFT_SUCCESS, "XtExecDescriptor forward");
  check(desc->subFormat == TRNFFT_XT_FORMAT_INPLACE_SHUFFLED, "forward leaves the data INPLACE_SHUFFLED");
  trn::fftmp::SlabSpec spec;
  spec.n = n;
  const trn::fftmp::SlabPlan plan(spec, trn::fft::Settings{}, MPI_COMM_WORLD);
  std::vector<std::complex<float>> yc(static_cast<std::size_t>(plan.shuffled_elements())), yd(yc.size());
  plan.execute(x.data(), yc.data(), trn::fft::kForward);
  check(trnfftXtMemcpy(h, yd.data(), desc, TRNFFT_COPY_DEVICE_TO_HOST) == TRNFFT_SUCCESS, "XtMemcpy D2H");
  check(same_bits(yc, yd), "the C API's forward equals the C++ API's bits");
  // Wrong way round: forward on shuffled data is INVALID_VALUE everywhere (nothing written).
  check_all_ranks(trnfftXtExecDescriptor(h, desc, desc, TRNFFT_FORWARD), TRNFFT_INVALID_VALUE, "forward on shuffled data");
  check_all_ranks(trnfftXtExecDescriptorC2C(h, desc, desc, TRNFFT_INVERSE), TRNFFT_SUCCESS, "XtExecDescriptorC2C inverse");
  std::vector<std::complex<float>> xb(x.size()), xc(x.size());
  plan.execute(yc.data(), xc.data(), trn::fft::kInverse);
  check(trnfftXtMemcpy(h, xb.data(), desc, TRNFFT_COPY_DEVICE_TO_HOST) == TRNFFT_SUCCESS, "XtMemcpy D2H (inverse)");
  check(same_bits(xb, xc), "the C API's inverse equals the C++ API's bits");
  check_all_ranks(trnfftXtExecDescriptorZ2Z(h, desc, desc, TRNFFT_FORWARD), TRNFFT_INVALID_TYPE, "Z2Z exec on a C2C plan");
  trnProfile_t prof{};
  check(trnfftMpGetLastProfile(h, &prof) == TRNFFT_SUCCESS && prof.total_ns > 0, "trnfftMpGetLastProfile");
  char text[1024];
  check(trnfftMpGetPlanDescription(h, text, sizeof text) == TRNFFT_SUCCESS && std::strstr(text, "trnfftMp slab plan") != nullptr,
        "trnfftMpGetPlanDescription");
  check(trnfftXtFree(desc) == TRNFFT_SUCCESS, "trnfftXtFree");
  check(trnfftXtFree(desc) == TRNFFT_INVALID_VALUE, "trnfftXtFree twice");
  check(trnfftDestroy(h) == TRNFFT_SUCCESS, "trnfftDestroy");
  check(trnfftMpAttachComm(h, TRNFFT_COMM_MPI, &comm) == TRNFFT_INVALID_PLAN, "a destroyed plan");
}

// cuFFTMp's order: trnfftCreate, trnfftMpAttachComm, trnfftMakePlan3d (trnfft's own entry point)
// for R2C and C2R, descriptors, XtExecDescriptor in place; the same bits as the C++ API.
void check_c_api_real() {
  const std::vector<std::int64_t> n{6, 4, 5};
  MPI_Comm comm = MPI_COMM_WORLD;
  trnfftHandle hf = TRNFFT_PLAN_NULL, hi = TRNFFT_PLAN_NULL;
  check(trnfftCreate(&hf) == TRNFFT_SUCCESS && trnfftCreate(&hi) == TRNFFT_SUCCESS, "trnfftCreate (real)");
  check(trnfftMpAttachComm(hf, TRNFFT_COMM_MPI, &comm) == TRNFFT_SUCCESS, "trnfftMpAttachComm (R2C)");
  check(trnfftMpAttachComm(hi, TRNFFT_COMM_MPI, &comm) == TRNFFT_SUCCESS, "trnfftMpAttachComm (C2R)");
  size_t ws = 0;
  check_all_ranks(trnfftMakePlan3d(hf, 6, 4, 5, TRNFFT_R2C, &ws), TRNFFT_SUCCESS, "trnfftMakePlan3d R2C after MpAttachComm");
  check(ws > 0, "trnfftMakePlan3d R2C: a workSize");
  check_all_ranks(trnfftMakePlan3d(hi, 6, 4, 5, TRNFFT_C2R, nullptr), TRNFFT_SUCCESS, "trnfftMakePlan3d C2R (NULL workSize)");
  trnLibXtDesc* desc = nullptr;
  check(trnfftXtMalloc(hf, &desc, TRNFFT_XT_FORMAT_INPLACE) == TRNFFT_SUCCESS && desc != nullptr, "trnfftXtMalloc (R2C plan)");
  const std::vector<float> x = padded_n0_slab<float>(global_real(n, 9), n, 0.0f);
  check(trnfftXtMemcpy(hf, desc, const_cast<float*>(x.data()), TRNFFT_COPY_HOST_TO_DEVICE) == TRNFFT_SUCCESS, "XtMemcpy H2D (real)");
  check_all_ranks(trnfftXtExecDescriptor(hf, desc, desc, TRNFFT_INVERSE), TRNFFT_INVALID_VALUE, "R2C plan with INVERSE");
  check_all_ranks(trnfftXtExecDescriptorC2R(hf, desc, desc), TRNFFT_INVALID_TYPE, "XtExecDescriptorC2R on an R2C plan");
  check_all_ranks(trnfftXtExecDescriptor(hf, desc, desc, TRNFFT_FORWARD), TRNFFT_SUCCESS, "XtExecDescriptor R2C in place");
  check(desc->subFormat == TRNFFT_XT_FORMAT_INPLACE_SHUFFLED, "R2C leaves the data INPLACE_SHUFFLED");
  trn::fftmp::SlabSpec fs, is;
  fs.n = is.n = n;
  fs.type = trn::fft::Type::r2c;
  is.type = trn::fft::Type::c2r;
  const trn::fftmp::SlabPlan fwd(fs, trn::fft::Settings{}, MPI_COMM_WORLD), inv(is, trn::fft::Settings{}, MPI_COMM_WORLD);
  std::vector<std::complex<float>> yc(static_cast<std::size_t>(fwd.shuffled_elements())), yd(yc.size());
  fwd.execute(x.data(), yc.data(), trn::fft::kForward);
  check(trnfftXtMemcpy(hf, yd.data(), desc, TRNFFT_COPY_DEVICE_TO_HOST) == TRNFFT_SUCCESS, "XtMemcpy D2H (spectrum)");
  check(same_bits(yc, yd), "the C API's R2C equals the C++ API's bits");
  check_all_ranks(trnfftXtExecDescriptorC2R(hi, desc, desc), TRNFFT_SUCCESS, "XtExecDescriptorC2R in place");
  check(desc->subFormat == TRNFFT_XT_FORMAT_INPLACE, "C2R leaves the data INPLACE");
  std::vector<float> xc(x.size(), 0.0f), xd(x.size(), 0.0f);
  inv.execute(yc.data(), xc.data(), trn::fft::kInverse);
  check(trnfftXtMemcpy(hi, xd.data(), desc, TRNFFT_COPY_DEVICE_TO_HOST) == TRNFFT_SUCCESS, "XtMemcpy D2H (real)");
  for (std::size_t r = 0; r < x.size() / 6; ++r)  // the padding (last axis 5 -> 6 reals) is not the transform's
    xd[r * 6 + 5] = xc[r * 6 + 5];
  check(same_bits(xc, xd), "the C API's C2R equals the C++ API's bits");
  check(trnfftXtFree(desc) == TRNFFT_SUCCESS, "trnfftXtFree (real)");
  // trnfftMakePlan* on an attached handle that cannot be a slab plan: NOT_SUPPORTED on every rank.
  int n1[1] = {8}, n2[2] = {8, 4};
  check_all_ranks(trnfftMakePlan1d(hf, 8, TRNFFT_C2C, 1, &ws), TRNFFT_NOT_SUPPORTED, "trnfftMakePlan1d on an attached handle");
  check_all_ranks(trnfftMakePlanMany(hf, 2, n2, nullptr, 1, 0, nullptr, 1, 0, TRNFFT_C2C, 2, &ws), TRNFFT_NOT_SUPPORTED,
                  "trnfftMakePlanMany batch 2 on an attached handle");
  check_all_ranks(trnfftMakePlanMany(hf, 2, n2, n2, 1, 32, nullptr, 1, 0, TRNFFT_C2C, 1, &ws), TRNFFT_NOT_SUPPORTED,
                  "trnfftMakePlanMany with inembed on an attached handle");
  check_all_ranks(trnfftMakePlan2d(hf, 8, g_rank == g_size - 1 ? 0 : 4, TRNFFT_D2Z, &ws), TRNFFT_INVALID_SIZE,
                  "trnfftMakePlan2d with a zero size on one rank");
  long long n64[3] = {4, 4, 4};
  check_all_ranks(trnfftMakePlanMany64(hf, 3, n64, nullptr, 1, 0, nullptr, 1, 0, TRNFFT_Z2D, 1, &ws), TRNFFT_SUCCESS,
                  "trnfftMakePlanMany64 Z2D on an attached handle");
  check(trnfftDestroy(hf) == TRNFFT_SUCCESS && trnfftDestroy(hi) == TRNFFT_SUCCESS, "trnfftDestroy (real)");
  // Without an attached communicator trnfftMakePlan1d stays trnfft's single-device plan.
  trnfftHandle h1 = TRNFFT_PLAN_NULL;
  trnfftCreate(&h1);
  check(trnfftMakePlan1d(h1, n1[0], TRNFFT_R2C, 1, &ws) == TRNFFT_SUCCESS, "trnfftMakePlan1d without a communicator");
  trnfftDestroy(h1);
}

// Bad input on one rank: a status on every rank, never a hang.
void check_bad_input() {
  MPI_Comm comm = MPI_COMM_WORLD;
  const bool odd = g_rank == g_size - 1;  // the rank that disagrees (the only one on 1 rank)
  auto fresh = [] {
    trnfftHandle h = TRNFFT_PLAN_NULL;
    trnfftCreate(&h);
    return h;
  };
  size_t ws = 0;
  trnfftHandle h = fresh();
  if (g_size > 1) {
    check_all_ranks(trnfftMpMakePlan3d(h, odd ? 9 : 8, 4, 4, TRNFFT_C2C, &comm, TRNFFT_COMM_MPI, &ws), TRNFFT_INVALID_SIZE,
                    "sizes differ across ranks");
    check_all_ranks(trnfftMpMakePlan2d(h, 8, 4, odd ? TRNFFT_Z2Z : TRNFFT_C2C, &comm, TRNFFT_COMM_MPI, &ws), TRNFFT_INVALID_SIZE,
                    "types differ across ranks");
  }
  check_all_ranks(trnfftMpMakePlan3d(h, 8, odd ? 0 : 4, 4, TRNFFT_C2C, &comm, TRNFFT_COMM_MPI, &ws), TRNFFT_INVALID_SIZE,
                  "a zero size on one rank");
  check_all_ranks(trnfftMpMakePlan2d(h, 8, 4, odd ? TRNFFT_R2C : TRNFFT_C2C, &comm, TRNFFT_COMM_MPI, &ws),
                  g_size > 1 ? TRNFFT_INVALID_SIZE : TRNFFT_SUCCESS, "R2C on one rank, C2C on the others");
  check_all_ranks(trnfftMpMakePlan3d(h, 8, 4, odd ? 7 : 6, TRNFFT_R2C, &comm, TRNFFT_COMM_MPI, &ws),
                  g_size > 1 ? TRNFFT_INVALID_SIZE : TRNFFT_SUCCESS, "R2C with a last size differing on one rank");
  check_all_ranks(trnfftMpMakePlan3d(h, 8, 4, 6, odd ? static_cast<trnfftType>(99) : TRNFFT_R2C, &comm, TRNFFT_COMM_MPI, &ws), TRNFFT_INVALID_TYPE,
                  "an unknown type on one rank");
  MPI_Comm null_comm = MPI_COMM_NULL;
  check_all_ranks(trnfftMpMakePlan3d(h, 8, 4, 6, TRNFFT_R2C, &null_comm, TRNFFT_COMM_MPI, &ws), TRNFFT_INVALID_VALUE,
                  "MPI_COMM_NULL (every rank)");
  check_all_ranks(trnfftMpMakePlan2d(h, 8, 4, TRNFFT_C2C, &comm, TRNFFT_COMM_MPI, odd ? nullptr : &ws), TRNFFT_INVALID_VALUE,
                  "a NULL workSize on one rank");
  check_all_ranks(trnfftMpMakePlan2d(h, 8, 4, TRNFFT_C2C, &comm, odd ? TRNFFT_COMM_NONE : TRNFFT_COMM_MPI, &ws),
                  TRNFFT_INVALID_VALUE, "comm_type NONE on one rank");
  const trnfftHandle dead = fresh();
  trnfftDestroy(dead);
  check_all_ranks(trnfftMpMakePlan2d(odd ? dead : h, 8, 4, TRNFFT_C2C, &comm, TRNFFT_COMM_MPI, &ws), TRNFFT_INVALID_PLAN,
                  "a destroyed plan on one rank");
  check_all_ranks(trnfftMpMakePlan2d(h, 8, 4, TRNFFT_C2C, &comm, TRNFFT_COMM_MPI, &ws), TRNFFT_SUCCESS, "the good plan after");
  // A transpose message or displacement of 2 GiB or more (2048 x 1024 x 1024 C2C: 16 GiB in all; on
  // 4 ranks 1 GiB messages at displacements up to 3 GiB): decided at plan time, NOT_SUPPORTED on every
  // rank (before, one rank threw just before MPI_Alltoallv and its peers waited in it).
  const trnfftHandle big = fresh();
  check_all_ranks(trnfftMpMakePlan3d(big, 2048, 1024, 1024, TRNFFT_C2C, &comm, TRNFFT_COMM_MPI, &ws), TRNFFT_NOT_SUPPORTED,
                  "a slab transpose over 2 GiB");
  trnfftDestroy(big);
  int said_why = 0;
  try {
    trn::fftmp::SlabSpec spec;
    spec.n = {2048, 1024, 1024};
    const trn::fftmp::SlabPlan plan(spec, trn::fft::Settings{}, MPI_COMM_WORLD);
  } catch (const trn::NotSupportedError& e) {
    said_why = std::strstr(e.what(), "2 GiB") != nullptr ? 1 : 0;
  }
  check_all_ranks(said_why, 1, "SlabPlan over 2 GiB: NotSupportedError naming the 2 GiB limit");
  trnLibXtDesc* d = nullptr;
  trnfftXtMalloc(h, &d, TRNFFT_XT_FORMAT_INPLACE);
  check_all_ranks(trnfftXtExecDescriptor(h, d, d, odd ? 0 : TRNFFT_FORWARD), TRNFFT_INVALID_VALUE, "direction 0 on one rank");
  if (g_size > 1)
    check_all_ranks(trnfftXtExecDescriptor(h, d, d, odd ? TRNFFT_INVERSE : TRNFFT_FORWARD), TRNFFT_INVALID_VALUE,
                    "directions differ across ranks");
  check_all_ranks(trnfftXtExecDescriptor(h, odd ? nullptr : d, d, TRNFFT_FORWARD), TRNFFT_INVALID_VALUE,
                  "a NULL descriptor on one rank");
  check(d->subFormat == TRNFFT_XT_FORMAT_INPLACE, "a failed execution leaves the descriptor as it was");
  trnfftXtFree(d);
  trnfftDestroy(h);
  // The C++ API: a spec that differs across ranks throws UsageError on every rank.
  trn::fftmp::SlabSpec spec;
  spec.n = {8, odd ? 6 : 4};
  int threw = 0;
  try {
    const trn::fftmp::SlabPlan p(spec, trn::fft::Settings{}, MPI_COMM_WORLD);
  } catch (const trn::UsageError&) {
    threw = 1;
  }
  check_all_ranks(threw, g_size > 1 ? 1 : 0, "C++ SlabPlan with sizes differing across ranks");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  fftw_mpi_init();
  for (const auto& n : std::vector<std::vector<std::int64_t>>{{8, 12, 10}, {16, 20}, {4, 8, 6}}) {
    check_shape<std::complex<float>>(n);
    check_shape<std::complex<double>>(n);
  }
  check_shape<std::complex<float>>({6, 5, 4});  // slabs of unequal size (P = 4: 2 2 1 1 and 2 1 1 1)
  check_shape<std::complex<float>>({3, 2});     // ranks without planes (P = 4)
  // Real: even and odd last sizes, slabs of unequal size, 2-D (its half spectrum's n1/2 + 1 split),
  // ranks without planes or columns (P = 4: {3, 5}: n0 = 3 planes, 3 half-spectrum columns).
  for (const auto& n : std::vector<std::vector<std::int64_t>>{{8, 12, 10}, {6, 5, 7}, {16, 20}, {3, 5}}) {
    check_real_shape<float>(n);
    check_real_shape<double>(n);
  }
  check_c_api();
  check_c_api_real();
  check_bad_input();
  fftw_mpi_cleanup();
  int failures = mpitest::g_failures;
  MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (g_rank == 0) std::printf("test_fftmp on %d ranks: %s (%d failures)\n", g_size, failures == 0 ? "PASS" : "FAIL", failures);
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
