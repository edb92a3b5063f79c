// Validation suite "mp": the distributed libraries under MPI (issue #31, docs/scale-out.md), run by
// `mpirun -n P trnsci validate --suite mp` (or on one rank without a launcher). Every case is
// collective: each rank holds its part of the data and runs its part of the call; rank 0 reports.
// Oracles: FFTW (double / long double: tests/reference/fft_reference.hpp) on the whole array for
// trnfftMp; an fp64 loop for trnblasMp's GEMM; the residual ||A - Q R|| of trnsolverMp's QR (Q from its
// Ormqr) in long double. Every rank computes the (small) reference itself.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "fft_reference.hpp"
#include "registry.hpp"
#include "trn/blasmp/blasmp.hpp"
#include "trn/fftmp/fftmp.hpp"
#include "trn/fftmp/pencil.hpp"
#include "trn/solvermp/solvermp.hpp"

namespace trnsci::cli {
namespace {

using cf = std::complex<float>;
using cd = std::complex<double>;

std::string shape_of(const std::vector<std::int64_t>& n) {
  std::string s = std::to_string(n[0]);
  for (std::size_t i = 1; i < n.size(); ++i) s += "x" + std::to_string(n[i]);
  return s;
}

int world_size() {
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  return p;
}

// The slowest rank's modeled time goes into rank 0's profile total (the case's device cost).
trn::Profile slowest(trn::Profile p) {
  MPI_Allreduce(MPI_IN_PLACE, &p.total_ns, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return p;
}

// A bits case's verdict (the trnfftMp cases' shared set-up of their reference): trnfft's single-device
// plan `whole` on the global input g (direction sign) against the gathered distributed result `all`,
// element for element (memcmp); measured = the elements that differ, bound 0, the note naming `where`.
template <class Out>
CaseResult single_device_bits(CaseResult res, const trn::fft::PlanSpec& whole, const void* g, int sign,
                              const std::vector<Out>& all, const std::string& where) {
  std::vector<Out> ref(all.size());
  trn::fft::Plan(whole, trn::fft::Settings{}).execute(g, ref.data(), sign);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) differ += std::memcmp(&ref[i], &all[i], sizeof(Out)) != 0 ? 1 : 0;
  res.measured = static_cast<double>(differ);
  res.bound = 0;
  res.pass = differ == 0;
  res.note = "elements differing from trnfft's single-device " + where;
  return res;
}

// trnfftMp forward (sign -1) or inverse (+1) of a uniform global input, T = cf (C2C) or cd (Z2Z):
// the distributed result gathered and compared with FFTW on the whole array (relative L2), or bit
// for bit with the single-device trnfft plan (bits: forward only).
template <class T>
CaseResult fftmp_case(const std::vector<std::int64_t>& n, int sign, bool bits) {
  const bool fp64 = std::is_same_v<T, cd>;
  trn::fftmp::SlabSpec spec;
  spec.n = n;
  spec.type = fp64 ? trn::fft::Type::z2z : trn::fft::Type::c2c;
  const trn::fftmp::SlabPlan plan(spec, trn::fft::Settings{}, MPI_COMM_WORLD);
  std::int64_t total = 1;
  for (auto v : n) total *= v;
  const std::vector<cf> g = trnfft_test::uniform_complex(total, 31);
  const std::vector<T> gx(g.begin(), g.end());
  // The input in the direction's distribution: forward n0 slabs, inverse n1 slabs of the same array.
  const bool fwd = sign < 0;
  const std::int64_t inner = n.size() == 3 ? n[2] : 1, P = plan.ranks(), r = plan.rank();
  std::vector<T> x(static_cast<std::size_t>(fwd ? plan.inplace_elements() : plan.shuffled_elements()));
  const std::int64_t x0 = trn::fftmp::slab_start(n[0], static_cast<int>(P), static_cast<int>(r));
  const std::int64_t y0 = trn::fftmp::slab_start(n[1], static_cast<int>(P), static_cast<int>(r));
  const std::int64_t q1 = trn::fftmp::slab_count(n[1], static_cast<int>(P), static_cast<int>(r));
  if (fwd)
    std::copy_n(gx.begin() + x0 * n[1] * inner, x.size(), x.begin());
  else
    for (std::int64_t i = 0; i < n[0]; ++i)
      std::copy_n(gx.begin() + (i * n[1] + y0) * inner, q1 * inner, x.begin() + i * q1 * inner);
  std::vector<T> y(static_cast<std::size_t>(fwd ? plan.shuffled_elements() : plan.inplace_elements())), all(gx.size());
  trn::fft::ExecReport rep;
  const double t0 = now_seconds();
  plan.execute(x.data(), y.data(), sign, &rep);
  CaseResult res;
  res.host_seconds = seconds_since(t0);
  plan.allgather(y.data(), all.data(), fwd);
  res.device = DeviceCost::from(slowest(rep.profile));
  if (bits) {
    trn::fft::PlanSpec whole;
    whole.n = n;
    whole.type = spec.type;
    return single_device_bits(res, whole, gx.data(), sign, all, "plan on " + std::to_string(P) + " ranks");
  }
  const std::vector<int> dims(n.begin(), n.end());
  res.measured = fp64 ? trnfft_test::rel_l2(all, trnfft_test::fftwl_c2c(gx, dims, 1, sign))
                      : trnfft_test::rel_l2(all, trnfft_test::fftw_c2c(gx, dims, 1, sign));
  res.bound = plan.error_bound();
  res.pass = res.measured <= res.bound;
  res.note = std::string("vs FFTW ") + (fp64 ? "long double" : "double") + " on the whole array, " + std::to_string(P) +
             " ranks; bound = trnfft's plan bound";
  return res;
}

// This rank's block-cyclic piece (descriptor d: square blocks from process (0, 0)) of a column-major
// global matrix g (d.m rows).
template <class T>
std::vector<T> piece_of(const std::vector<T>& g, const trn::blasmp::Descriptor& d) {
  const trn::blasmp::Grid& grid = *d.grid;
  std::vector<T> l(static_cast<std::size_t>(d.lld * std::max<std::int64_t>(d.local_cols(), 1)));
  for (std::int64_t jl = 0; jl < d.local_cols(); ++jl)
    for (std::int64_t il = 0; il < d.local_rows(); ++il) {
      const std::int64_t ig = (il / d.mb * grid.nprow + grid.myrow) * d.mb + il % d.mb;
      const std::int64_t jg = (jl / d.nb * grid.npcol + grid.mycol) * d.nb + jl % d.nb;
      l[static_cast<std::size_t>(il + jl * d.lld)] = g[static_cast<std::size_t>(ig + jg * d.m)];
    }
  return l;
}

// The whole matrix from every rank's piece (piece_of's inverse), on every rank: one owner per entry,
// so the MPI sum is exact.
std::vector<double> whole_of(const std::vector<double>& l, const trn::blasmp::Descriptor& d) {
  const trn::blasmp::Grid& grid = *d.grid;
  std::vector<double> g(static_cast<std::size_t>(d.m * d.n), 0.0);
  for (std::int64_t jl = 0; jl < d.local_cols(); ++jl)
    for (std::int64_t il = 0; il < d.local_rows(); ++il) {
      const std::int64_t ig = (il / d.mb * grid.nprow + grid.myrow) * d.mb + il % d.mb;
      const std::int64_t jg = (jl / d.nb * grid.npcol + grid.mycol) * d.nb + jl % d.nb;
      g[static_cast<std::size_t>(ig + jg * d.m)] = l[static_cast<std::size_t>(il + jl * d.lld)];
    }
  MPI_Allreduce(MPI_IN_PLACE, g.data(), static_cast<int>(g.size()), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}

// A rows x cols descriptor on grid in nb x nb blocks from process (0, 0), with the tightest local
// leading dimension.
trn::blasmp::Descriptor block_desc(const trn::blasmp::Grid& grid, std::int64_t rows, std::int64_t cols, std::int64_t nb,
                                   trnDataType_t type) {
  trn::blasmp::Descriptor d{rows, cols, nb, nb, 0, 0, 1, type, &grid};
  d.lld = std::max<std::int64_t>(1, d.local_rows());
  return d;
}

// The most square nprow x npcol grid of the world (nprow <= npcol).
void square_grid(trn::blasmp::Grid& grid) {
  const int P = world_size();
  int nprow = 1;
  for (int q = 1; q * q <= P; ++q)
    if (P % q == 0) nprow = q;
  trn::blasmp::grid_create(grid, nprow, P / nprow, trn::blasmp::GridLayout::col_major, MPI_COMM_WORLD);
}

// trnsolverMp Geqrf (fp32 or fp64) of an m x n matrix (m >= n, blocks of 8) on the most square grid,
// then Q's first n columns by Ormqr from the identity (or, explicit_q, by Orgqr on a copy of the
// factored A): ||A - Q R||_F / ||A||_F in fp64 on the gathered factors, over the bound 16 (m + n) u
// (Higham Thm 19.4's shape).
CaseResult geqrf_case(bool fp64, std::int64_t m, std::int64_t n, bool explicit_q = false) {
  using trn::blasmp::Descriptor;
  trn::blasmp::Grid grid;
  square_grid(grid);
  const std::int64_t nb = 8;
  const trnDataType_t type = fp64 ? TRN_R_64F : TRN_R_32F;
  auto desc = [&](std::int64_t rows, std::int64_t cols) { return block_desc(grid, rows, cols, nb, type); };
  const Descriptor da = desc(m, n), dq = desc(m, n);
  const std::vector<cf> v = trnfft_test::uniform_complex(m * n, 5);
  std::vector<double> A(v.size()), I(v.size(), 0.0);
  for (std::size_t i = 0; i < v.size(); ++i) A[i] = static_cast<double>(v[i].real());
  if (!fp64) for (double& x : A) x = static_cast<double>(static_cast<float>(x));
  for (std::int64_t j = 0; j < n; ++j) I[static_cast<std::size_t>(j + j * m)] = 1;
  std::vector<double> la = piece_of(A, da), lq = piece_of(I, dq), tau(static_cast<std::size_t>(std::max<std::int64_t>(da.local_cols(), 1)));
  std::vector<float> fa(la.begin(), la.end()), fq(lq.begin(), lq.end()), ftau(tau.size());
  trn::solvermp::GeqrfArgs f;
  f.fp64 = fp64, f.m = m, f.n = n, f.desc_a = &da;
  f.a = fp64 ? static_cast<void*>(la.data()) : fa.data();
  f.tau = fp64 ? static_cast<void*>(tau.data()) : ftau.data();
  std::vector<char> work(trn::solvermp::geqrf_workspace_bytes(f));
  f.work = work.data(), f.work_bytes = work.size();
  trn::blas::CallReport rep;
  const double t0 = now_seconds();
  trn::solvermp::geqrf(trn::blas::Settings{}, f, &rep);
  CaseResult res;
  res.host_seconds = seconds_since(t0);
  void* q = fp64 ? static_cast<void*>(lq.data()) : fq.data();
  if (explicit_q) {  // Orgqr overwrites its A: a copy of the factored A (dq has da's layout)
    std::memcpy(q, f.a, la.size() * (fp64 ? sizeof(double) : sizeof(float)));
    trn::solvermp::OrgqrArgs g;
    g.fp64 = fp64, g.m = m, g.n = n, g.k = n, g.a = q, g.desc_a = &dq, g.tau = f.tau;
    work.assign(trn::solvermp::orgqr_workspace_bytes(g), 0);
    g.work = work.data(), g.work_bytes = work.size();
    trn::solvermp::orgqr(trn::blas::Settings{}, g);
  } else {
    trn::solvermp::OrmqrArgs o;
    o.fp64 = fp64, o.m = m, o.n = n, o.k = n, o.a = f.a, o.desc_a = &da, o.tau = f.tau, o.desc_c = &dq, o.c = q;
    work.assign(trn::solvermp::ormqr_workspace_bytes(o), 0);
    o.work = work.data(), o.work_bytes = work.size();
    trn::solvermp::ormqr(trn::blas::Settings{}, o);
  }
  if (!fp64) std::copy(fa.begin(), fa.end(), la.begin()), std::copy(fq.begin(), fq.end(), lq.begin());
  const std::vector<double> R = whole_of(la, da), Q = whole_of(lq, dq);
  long double num = 0, den = 0;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      long double qr = 0;
      for (std::int64_t l = 0; l <= j; ++l) qr += static_cast<long double>(Q[static_cast<std::size_t>(i + l * m)]) * R[static_cast<std::size_t>(l + j * m)];
      const long double a = A[static_cast<std::size_t>(i + j * m)];
      num += (a - qr) * (a - qr), den += a * a;
    }
  const double u = fp64 ? 0x1p-53 : 0x1p-24;
  res.measured = static_cast<double>(std::sqrt(num / den)) / (16.0 * static_cast<double>(m + n) * u);
  res.bound = 1;
  res.pass = res.measured <= 1;
  res.note = std::string("||A - QR||_F / ||A||_F over 16 (m + n) u, Q by ") + (explicit_q ? "Orgqr, " : "Ormqr, ") +
             std::to_string(grid.nprow) + "x" + std::to_string(grid.npcol) + " grid, blocks 8";
  res.device = DeviceCost::from(slowest(rep.profile));
  trn::blasmp::grid_destroy(grid);
  return res;
}

// trnfftMp R2C (forward) or C2R (inverse), fp32, of a uniform real input: the gathered result
// against FFTW (double) on the whole array -- C2R of the half spectrum FFTW's r2c gives, rounded to
// fp32 -- or bit for bit with the single-device trnfft R2C / C2R plan.
CaseResult fftmp_real_case(const std::vector<std::int64_t>& n, bool c2r, bool bits) {
  trn::fftmp::SlabSpec spec;
  spec.n = n;
  spec.type = c2r ? trn::fft::Type::c2r : trn::fft::Type::r2c;
  const trn::fftmp::SlabPlan plan(spec, trn::fft::Settings{}, MPI_COMM_WORLD);
  const std::vector<std::int64_t> c = trn::fftmp::complex_shape(spec);
  std::int64_t total = 1;
  for (auto v : n) total *= v;
  const std::int64_t len = n.back(), padded = 2 * (len / 2 + 1), rows = total / len;
  const std::vector<float> g = trnfft_test::uniform_real(total, 37);
  const std::vector<int> dims(n.begin(), n.end());
  const std::vector<cd> spectrum = trnfft_test::fftw_r2c(g, dims, 1);  // n0 x c1 x inner, dense
  const std::vector<cf> spectrum_f(spectrum.begin(), spectrum.end());
  const int P = plan.ranks(), r = plan.rank();
  // The input in the type's distribution: R2C my n0 planes of padded rows (the padded array's
  // contiguous slab), C2R my c1 range of every n0 plane of the half spectrum.
  std::vector<cf> x(static_cast<std::size_t>(c2r ? plan.shuffled_elements() : plan.inplace_elements()));
  if (!c2r) {
    std::vector<float> gp(static_cast<std::size_t>(rows * padded), 0.0f);
    for (std::int64_t i = 0; i < rows; ++i) std::copy_n(g.begin() + i * len, len, gp.begin() + i * padded);
    const std::int64_t first = trn::fftmp::slab_start(n[0], P, r) * c[1] * c[2];  // complex elements
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = cf(gp[static_cast<std::size_t>(2 * first) + 2 * i], gp[static_cast<std::size_t>(2 * first) + 2 * i + 1]);
  } else {
    const std::int64_t y0 = trn::fftmp::slab_start(c[1], P, r), q1 = trn::fftmp::slab_count(c[1], P, r);
    for (std::int64_t i = 0; i < n[0]; ++i)
      std::copy_n(spectrum_f.begin() + (i * c[1] + y0) * c[2], q1 * c[2], x.begin() + i * q1 * c[2]);
  }
  std::vector<cf> y(static_cast<std::size_t>(c2r ? plan.inplace_elements() : plan.shuffled_elements()));
  std::vector<cf> all(static_cast<std::size_t>(c[0] * c[1] * c[2]));
  trn::fft::ExecReport rep;
  const double t0 = now_seconds();
  plan.execute(x.data(), y.data(), c2r ? trn::fft::kInverse : trn::fft::kForward, &rep);
  CaseResult res;
  res.host_seconds = seconds_since(t0);
  plan.allgather(y.data(), all.data(), !c2r);
  res.device = DeviceCost::from(slowest(rep.profile));
  res.bound = plan.error_bound();
  const std::string where = std::to_string(P) + " ranks";
  if (c2r) {  // the padded real rows, unpadded
    const float* re = reinterpret_cast<const float*>(all.data());
    std::vector<float> xr(static_cast<std::size_t>(total));
    for (std::int64_t i = 0; i < rows; ++i) std::copy_n(re + i * padded, len, xr.begin() + i * len);
    if (bits) {  // trnfft's single-device C2R of the same fp32 half spectrum (docs/scale-out.md 9.4)
      trn::fft::PlanSpec whole;
      whole.n = n;
      whole.type = trn::fft::Type::c2r;
      return single_device_bits(res, whole, spectrum_f.data(), trn::fft::kInverse, xr, "C2R plan on " + where);
    }
    res.measured = trnfft_test::rel_l2(xr, trnfft_test::fftw_c2r(spectrum_f, dims, 1));
    res.note = "vs FFTW double c2r of the same fp32 half spectrum, " + where + "; bound = the plans' bounds";
  } else if (bits) {
    trn::fft::PlanSpec whole;
    whole.n = n;
    whole.type = trn::fft::Type::r2c;
    return single_device_bits(res, whole, g.data(), trn::fft::kForward, all, "R2C plan on " + where);
  } else {
    res.measured = trnfft_test::rel_l2(all, spectrum);
    res.note = "vs FFTW double r2c on the whole array, " + where + "; bound = the plans' bounds";
  }
  res.pass = res.measured <= res.bound;
  return res;
}

// trnfftMp's box API (BoxPlan, docs/scale-out.md 9.8) on the plan's pencils, fp32 C2C forward:
// input boxes split unevenly along n1 (stored axis 2 slowest), output boxes along n0; the result
// gathered and compared with FFTW on the whole array, or bit for bit with the single-device plan.
CaseResult fftmp_box_case(const trn::fftmp::Index3& n, bool bits) {
  const int P = world_size();
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  const auto cut = [P](std::int64_t len, int q) { return len * q * q / (static_cast<std::int64_t>(P) * P); };
  const trn::fftmp::Box in = trn::fftmp::dense_box({0, cut(n[1], r), 0}, {n[0], cut(n[1], r + 1), n[2]}, {2, 0, 1});
  const trn::fftmp::Box out = trn::fftmp::dense_box({cut(n[0], r), 0, 0}, {cut(n[0], r + 1), n[1], n[2]}, {0, 1, 2});
  trn::fftmp::PencilSpec spec;
  spec.n = n;
  const trn::fftmp::BoxPlan plan(spec, in, out, trn::fft::Settings{}, MPI_COMM_WORLD);
  const std::int64_t total = n[0] * n[1] * n[2];
  const std::vector<cf> g = trnfft_test::uniform_complex(total, 43);
  const auto at = [](const trn::fftmp::Box& b, std::int64_t i, std::int64_t j, std::int64_t k) {
    return static_cast<std::size_t>((i - b.lower[0]) * b.strides[0] + (j - b.lower[1]) * b.strides[1] + (k - b.lower[2]) * b.strides[2]);
  };
  std::vector<cf> x(static_cast<std::size_t>(std::max<std::int64_t>(in.span(), 1))), y(static_cast<std::size_t>(std::max<std::int64_t>(out.span(), 1)));
  for (std::int64_t i = in.lower[0]; i < in.upper[0]; ++i)
    for (std::int64_t j = in.lower[1]; j < in.upper[1]; ++j)
      for (std::int64_t k = in.lower[2]; k < in.upper[2]; ++k) x[at(in, i, j, k)] = g[static_cast<std::size_t>((i * n[1] + j) * n[2] + k)];
  trn::fft::ExecReport rep;
  const double t0 = now_seconds();
  plan.execute(x.data(), y.data(), trn::fft::kForward, &rep);
  CaseResult res;
  res.host_seconds = seconds_since(t0);
  res.device = DeviceCost::from(slowest(rep.profile));
  std::vector<cf> all(static_cast<std::size_t>(total));  // each rank's box, summed with the others' zeros (exact)
  for (std::int64_t i = out.lower[0]; i < out.upper[0]; ++i)
    for (std::int64_t j = 0; j < n[1]; ++j)
      for (std::int64_t k = 0; k < n[2]; ++k) all[static_cast<std::size_t>((i * n[1] + j) * n[2] + k)] = y[at(out, i, j, k)];
  MPI_Allreduce(MPI_IN_PLACE, all.data(), static_cast<int>(2 * total), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  if (bits) {
    trn::fft::PlanSpec whole;
    whole.n = {n[0], n[1], n[2]};
    return single_device_bits(res, whole, g.data(), trn::fft::kForward, all, "plan, boxes on " + std::to_string(P) + " ranks");
  }
  res.measured = trnfft_test::rel_l2(all, trnfft_test::fftw_c2c(g, {static_cast<int>(n[0]), static_cast<int>(n[1]), static_cast<int>(n[2])}, 1, -1));
  res.bound = plan.error_bound();
  res.pass = res.measured > 0 && res.measured <= res.bound;
  res.note = "vs FFTW double on the whole array, uneven strided boxes on " + std::to_string(P) + " ranks (pencils " +
             std::to_string(plan.pencils().spec().p1) + "x" + std::to_string(plan.pencils().spec().p2) + "); bound = trnfft's plan bound";
  return res;
}

// ---- trnfftMp real pencils and boxes (docs/scale-out.md 9.9) -------------------------------------

// The whole array (row-major over dims) from every rank's box of `mine` (one writer per element, summed
// with the others' zeros over MPI_COMM_WORLD: exact). T = float, double or their complex.
template <class T>
std::vector<T> gather_box(const std::vector<T>& mine, const trn::fftmp::Box& b, const trn::fftmp::Index3& dims) {
  std::vector<T> all(static_cast<std::size_t>(dims[0] * dims[1] * dims[2]));
  for (std::int64_t i = b.lower[0]; i < b.upper[0]; ++i)
    for (std::int64_t j = b.lower[1]; j < b.upper[1]; ++j)
      for (std::int64_t k = b.lower[2]; k < b.upper[2]; ++k)
        all[static_cast<std::size_t>((i * dims[1] + j) * dims[2] + k)] =
            mine[static_cast<std::size_t>((i - b.lower[0]) * b.strides[0] + (j - b.lower[1]) * b.strides[1] + (k - b.lower[2]) * b.strides[2])];
  constexpr bool fp64 = std::is_same_v<T, double> || std::is_same_v<T, cd>;  // else float / cf
  MPI_Allreduce(MPI_IN_PLACE, all.data(), static_cast<int>(all.size() * sizeof(T) / (fp64 ? 8 : 4)), fp64 ? MPI_DOUBLE : MPI_FLOAT,
                MPI_SUM, MPI_COMM_WORLD);
  return all;
}
// The rank's box buffer (span elements) of a whole row-major array over dims.
template <class T, class G>
std::vector<T> box_from(const std::vector<G>& whole, const trn::fftmp::Box& b, const trn::fftmp::Index3& dims) {
  std::vector<T> x(static_cast<std::size_t>(std::max<std::int64_t>(b.span(), 1)));
  for (std::int64_t i = b.lower[0]; i < b.upper[0]; ++i)
    for (std::int64_t j = b.lower[1]; j < b.upper[1]; ++j)
      for (std::int64_t k = b.lower[2]; k < b.upper[2]; ++k)
        x[static_cast<std::size_t>((i - b.lower[0]) * b.strides[0] + (j - b.lower[1]) * b.strides[1] + (k - b.lower[2]) * b.strides[2])] =
            static_cast<T>(whole[static_cast<std::size_t>((i * dims[1] + j) * dims[2] + k)]);
  return x;
}

// The references, independent of trnfft (FFTW long double C2C on the whole array): the half spectrum
// of a real x (R2C / D2Z), and a C2R / Z2D by its definition for any half spectrum X (trnfft's, and
// FFTW's c2r for Hermitian X): x = Re(IDFT_3D(Z)), Z = c_k X along the last axis (c = 1 at k = 0 and
// n/2, else 2) and 0 above n/2.
std::vector<trnfft_test::cl> reference_r2c(const std::vector<double>& x, const trn::fftmp::Index3& n) {
  const std::vector<cd> xc(x.begin(), x.end());
  const std::vector<trnfft_test::cl> full = trnfft_test::fftwl_c2c(xc, {static_cast<int>(n[0]), static_cast<int>(n[1]), static_cast<int>(n[2])}, 1, -1);
  const std::int64_t h = n[2] / 2 + 1;
  std::vector<trnfft_test::cl> half(static_cast<std::size_t>(n[0] * n[1] * h));
  for (std::int64_t row = 0; row < n[0] * n[1]; ++row)
    std::copy_n(full.begin() + row * n[2], h, half.begin() + row * h);
  return half;
}
template <class C>
std::vector<long double> reference_c2r(const std::vector<C>& half, const trn::fftmp::Index3& n) {
  const std::int64_t h = n[2] / 2 + 1;
  std::vector<trnfft_test::cl> z(static_cast<std::size_t>(n[0] * n[1] * n[2]));
  for (std::int64_t row = 0; row < n[0] * n[1]; ++row)
    for (std::int64_t k = 0; k < h; ++k)
      z[static_cast<std::size_t>(row * n[2] + k)] =
          trnfft_test::cl(half[static_cast<std::size_t>(row * h + k)]) * static_cast<long double>(k == 0 || 2 * k == n[2] ? 1 : 2);
  const std::vector<trnfft_test::cl> y = trnfft_test::fftwl_c2c(z, {static_cast<int>(n[0]), static_cast<int>(n[1]), static_cast<int>(n[2])}, 1, 1);
  std::vector<long double> x(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) x[i] = y[i].real();
  return x;
}

// What a real pencil / box case checks: the forward against the reference, the inverse (of the
// reference spectrum rounded to the plan's precision) against the reference C2R, the round trip
// C2R(R2C(x)) against N x, or the inverse bit for bit with trnfft's single-device C2R plan.
enum class RealCheck { forward, inverse, round_trip, c2r_bits };

// The R2C and C2R (D2Z / Z2D) plans of a real pencil or box case: the plan's own pencils, or uneven
// boxes (real input split along n1 by cut points n1 r^2 / P^2, stored axis 2 slowest; the half
// spectrum split along n0 in rank order, row-major).
struct RealPlans {
  std::unique_ptr<trn::fftmp::PencilPlan> pf, pi;
  std::unique_ptr<trn::fftmp::BoxPlan> bf, bi;
  trn::fftmp::Box in, out;
  void run(bool fwd, const void* x, void* y, trn::fft::ExecReport* rep) const {
    const int dir = fwd ? trn::fft::kForward : trn::fft::kInverse;
    if (pf) (fwd ? pf : pi)->execute(x, y, dir, rep);
    else (fwd ? bf : bi)->execute(x, y, dir, rep);
  }
  double bound(bool fwd) const { return pf ? (fwd ? pf : pi)->error_bound() : (fwd ? bf : bi)->error_bound(); }
  std::string grid() const {
    const trn::fftmp::PencilSpec& s = pf ? pf->spec() : bf->pencils().spec();
    return std::to_string(s.p1) + "x" + std::to_string(s.p2);
  }
};
RealPlans real_plans(const trn::fftmp::Index3& n, bool fp64, bool boxes) {
  trn::fftmp::PencilSpec fs, is;
  fs.n = is.n = n;
  fs.type = fp64 ? trn::fft::Type::d2z : trn::fft::Type::r2c;
  is.type = fp64 ? trn::fft::Type::z2d : trn::fft::Type::c2r;
  RealPlans p;
  if (!boxes) {
    p.pf = std::make_unique<trn::fftmp::PencilPlan>(fs, trn::fft::Settings{}, MPI_COMM_WORLD);
    p.pi = std::make_unique<trn::fftmp::PencilPlan>(is, trn::fft::Settings{}, MPI_COMM_WORLD);
    p.in = p.pf->input_box(), p.out = p.pf->output_box();
    return p;
  }
  const int P = world_size();
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  const auto cut = [P](std::int64_t len, int q) { return len * q * q / (static_cast<std::int64_t>(P) * P); };
  const trn::fftmp::Index3 c = trn::fftmp::complex_dims(fs);
  p.in = trn::fftmp::dense_box({0, cut(n[1], r), 0}, {n[0], cut(n[1], r + 1), n[2]}, {2, 0, 1});
  p.out = trn::fftmp::dense_box({cut(c[0], r), 0, 0}, {cut(c[0], r + 1), c[1], c[2]}, {0, 1, 2});
  p.bf = std::make_unique<trn::fftmp::BoxPlan>(fs, p.in, p.out, trn::fft::Settings{}, MPI_COMM_WORLD);
  p.bi = std::make_unique<trn::fftmp::BoxPlan>(is, p.in, p.out, trn::fft::Settings{}, MPI_COMM_WORLD);
  return p;
}

// trnfftMp real pencils (boxes = false: the plan's grid) or boxes, R = float (R2C / C2R) or double
// (D2Z / Z2D), of a uniform real input.
template <class R>
CaseResult fftmp_real_pencil_case(const trn::fftmp::Index3& n, bool boxes, RealCheck check) {
  using C = std::complex<R>;
  const bool fp64 = sizeof(R) == 8;
  const RealPlans plans = real_plans(n, fp64, boxes);
  const trn::fftmp::Index3 c{n[0], n[1], n[2] / 2 + 1};
  const std::vector<float> u = trnfft_test::uniform_real(n[0] * n[1] * n[2], 41);
  const std::vector<double> g(u.begin(), u.end());
  const std::vector<trnfft_test::cl> spectrum = reference_r2c(g, n);
  const std::vector<C> spectrum_r(spectrum.begin(), spectrum.end());  // the inverse's input, rounded
  const bool fwd_first = check == RealCheck::forward || check == RealCheck::round_trip;
  std::vector<C> y(static_cast<std::size_t>(std::max<std::int64_t>(plans.out.span(), 1)));
  std::vector<R> x = box_from<R>(g, plans.in, n);
  if (check != RealCheck::forward && check != RealCheck::round_trip) y = box_from<C>(spectrum_r, plans.out, c);
  trn::fft::ExecReport rep;
  const double t0 = now_seconds();
  if (fwd_first) plans.run(true, x.data(), y.data(), &rep);
  trn::fft::ExecReport irep;
  if (check != RealCheck::forward) plans.run(false, y.data(), x.data(), &irep);
  CaseResult res;
  res.host_seconds = seconds_since(t0);
  trn::Profile prof = check == RealCheck::forward ? rep.profile : irep.profile;
  if (check == RealCheck::round_trip) prof.total_ns += rep.profile.total_ns;
  res.device = DeviceCost::from(slowest(prof));
  const std::string where = std::string(boxes ? "uneven strided boxes" : "pencils") + " on " + std::to_string(world_size()) +
                            " ranks (grid " + plans.grid() + ")";
  if (check == RealCheck::c2r_bits) {
    trn::fft::PlanSpec whole;
    whole.n = {n[0], n[1], n[2]};
    whole.type = fp64 ? trn::fft::Type::z2d : trn::fft::Type::c2r;
    return single_device_bits(res, whole, spectrum_r.data(), trn::fft::kInverse, gather_box(x, plans.in, n), "C2R plan, " + where);
  }
  if (check == RealCheck::forward) {
    res.measured = trnfft_test::rel_l2(gather_box(y, plans.out, c), spectrum);
    res.bound = plans.bound(true);
    res.note = "vs FFTW long double C2C of the real input (its half spectrum), " + where + "; bound = the plan's";
  } else if (check == RealCheck::inverse) {
    res.measured = trnfft_test::rel_l2(gather_box(x, plans.in, n), reference_c2r(spectrum_r, n));
    res.bound = plans.bound(false);
    res.note = "vs FFTW long double C2C of the weighted half spectrum (C2R by definition), " + where + "; bound = the plan's";
  } else {
    std::vector<double> nx(g.size());
    for (std::size_t i = 0; i < g.size(); ++i) nx[i] = g[i] * static_cast<double>(g.size());
    res.measured = trnfft_test::rel_l2(gather_box(x, plans.in, n), nx);
    res.bound = plans.bound(true) + plans.bound(false);
    res.note = "C2R(R2C(x)) vs N x, " + where + "; bound = the two plans' bounds";
  }
  res.pass = res.measured > 0 && res.measured <= res.bound;  // 0 would mean the oracle met itself
  return res;
}

// trnblasMp GEMM C = A B (alpha 1, beta 0) on the most square grid of the world, blocks of 8,
// against an fp64 loop: max |C - C_ref| / max(1, max |C_ref|) over the bound 4 (k + 2) u.
CaseResult gemm_case(bool fp64, std::int64_t m, std::int64_t n, std::int64_t k) {
  using trn::blasmp::Descriptor;
  trn::blasmp::Grid grid;
  square_grid(grid);
  const std::int64_t nb = 8;
  const trnDataType_t type = fp64 ? TRN_R_64F : TRN_R_32F;
  auto desc = [&](std::int64_t rows, std::int64_t cols) { return block_desc(grid, rows, cols, nb, type); };
  const Descriptor da = desc(m, k), db = desc(k, n), dc = desc(m, n);
  auto global = [](std::int64_t rows, std::int64_t cols, std::uint64_t seed) {
    const std::vector<cf> v = trnfft_test::uniform_complex(rows * cols, seed);  // real parts in [-0.5, 0.5)
    std::vector<double> g(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) g[i] = static_cast<double>(v[i].real());
    return g;
  };
  const std::vector<double> A = global(m, k, 1), B = global(k, n, 2);
  const std::vector<double> la = piece_of(A, da), lb = piece_of(B, db);
  std::vector<double> lc(static_cast<std::size_t>(dc.lld * std::max<std::int64_t>(dc.local_cols(), 1)));
  std::vector<float> fa(la.begin(), la.end()), fb(lb.begin(), lb.end()), fc(lc.size());
  std::vector<char> work(trn::blasmp::gemm_workspace_bytes(da, db, dc, k));
  trn::blasmp::GemmArgs args;
  args.fp64 = fp64;
  args.alpha = 1;
  args.beta = 0;
  args.m = m, args.n = n, args.k = k;
  args.a = fp64 ? static_cast<const void*>(la.data()) : fa.data();
  args.b = fp64 ? static_cast<const void*>(lb.data()) : fb.data();
  args.c = fp64 ? static_cast<void*>(lc.data()) : fc.data();
  args.desc_a = &da, args.desc_b = &db, args.desc_c = &dc;
  args.work = work.data();
  args.work_bytes = work.size();
  trn::blas::CallReport rep;
  const double t0 = now_seconds();
  trn::blasmp::gemm(trn::blas::Settings{}, args, &rep);
  CaseResult res;
  res.host_seconds = seconds_since(t0);
  if (!fp64) std::copy(fc.begin(), fc.end(), lc.begin());
  // The reference: the same inputs (fp32-rounded for the fp32 call) multiplied in fp64.
  double err[2] = {0, 0};  // max |diff|, max |ref| over this rank's block
  for (std::int64_t jl = 0; jl < dc.local_cols(); ++jl)
    for (std::int64_t il = 0; il < dc.local_rows(); ++il) {
      const std::int64_t ig = (il / nb * grid.nprow + grid.myrow) * nb + il % nb;
      const std::int64_t jg = (jl / nb * grid.npcol + grid.mycol) * nb + jl % nb;
      double ref = 0;
      for (std::int64_t p = 0; p < k; ++p) {
        const double a = A[static_cast<std::size_t>(ig + p * m)], b = B[static_cast<std::size_t>(p + jg * k)];
        ref += fp64 ? a * b : static_cast<double>(static_cast<float>(a)) * static_cast<double>(static_cast<float>(b));
      }
      err[0] = std::max(err[0], std::abs(lc[static_cast<std::size_t>(il + jl * dc.lld)] - ref));
      err[1] = std::max(err[1], std::abs(ref));
    }
  MPI_Allreduce(MPI_IN_PLACE, err, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const double u = fp64 ? 0x1p-53 : 0x1p-24;
  res.measured = err[0] / std::max(1.0, err[1]) / (4.0 * static_cast<double>(k + 2) * u);
  res.bound = 1;
  res.pass = res.measured <= 1;
  res.note = "max |C - C_ref| / max(1, |C_ref|) over 4 (k + 2) u, " + std::to_string(grid.nprow) + "x" +
             std::to_string(grid.npcol) + " grid, blocks 8";
  res.device = DeviceCost::from(slowest(rep.profile));
  trn::blasmp::grid_destroy(grid);
  return res;
}

// trnsolverMp Syevd (fp32 or fp64, jobz V) of an n x n symmetric matrix (blocks of 8, lower triangle) on
// the most square grid: ||A Z - Z Lambda||_F / ||A||_F in long double on the gathered eigenvectors, over
// the bound 16 n u (Higham Thm 19.4 / 19.5's shape; docs/scale-out.md 6.4).
CaseResult syevd_case(bool fp64, std::int64_t n) {
  trn::blasmp::Grid grid;
  square_grid(grid);
  const trn::blasmp::Descriptor da = trn::blasmp::make_descriptor(grid, n, n, 8, 8, 0, 0, fp64 ? TRN_R_64F : TRN_R_32F);
  const std::vector<cf> v = trnfft_test::uniform_complex(n * n, 7);
  std::vector<double> A(v.size());
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      const double x = 0.5 * (static_cast<double>(v[static_cast<std::size_t>(i + j * n)].real()) + v[static_cast<std::size_t>(j + i * n)].real());
      A[static_cast<std::size_t>(i + j * n)] = fp64 ? x : static_cast<double>(static_cast<float>(x));
    }
  std::vector<double> la = piece_of(A, da), lz(la.size()), d(static_cast<std::size_t>(n));
  std::vector<float> fa(la.begin(), la.end()), fz(la.size()), fd(d.size());
  trn::solvermp::SyevdArgs x;
  x.fp64 = fp64, x.n = n, x.desc_a = &da, x.desc_z = &da;
  x.a = fp64 ? static_cast<void*>(la.data()) : fa.data();
  x.z = fp64 ? static_cast<void*>(lz.data()) : fz.data();
  x.d = fp64 ? static_cast<void*>(d.data()) : fd.data();
  std::vector<char> work(trn::solvermp::syevd_workspace_bytes(x));
  x.work = work.data(), x.work_bytes = work.size();
  trn::blas::CallReport rep;
  const double t0 = now_seconds();
  const int info = trn::solvermp::syevd(trn::blas::Settings{}, x, &rep);
  CaseResult res;
  res.host_seconds = seconds_since(t0);
  if (!fp64) std::copy(fz.begin(), fz.end(), lz.begin()), std::copy(fd.begin(), fd.end(), d.begin());
  const std::vector<double> Z = whole_of(lz, da);
  long double num = 0, den = 0;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      long double az = 0;
      for (std::int64_t l = 0; l < n; ++l) az += static_cast<long double>(A[static_cast<std::size_t>(i + l * n)]) * Z[static_cast<std::size_t>(l + j * n)];
      const long double r = az - static_cast<long double>(Z[static_cast<std::size_t>(i + j * n)]) * d[static_cast<std::size_t>(j)];
      const long double a = A[static_cast<std::size_t>(i + j * n)];
      num += r * r, den += a * a;
    }
  const double u = fp64 ? 0x1p-53 : 0x1p-24;
  res.measured = static_cast<double>(std::sqrt(num / den)) / (16.0 * static_cast<double>(n) * u);
  res.bound = 1;
  res.pass = info == 0 && res.measured <= 1;
  res.note = "||A Z - Z L||_F / ||A||_F over 16 n u (info " + std::to_string(info) + "), " + std::to_string(grid.nprow) + "x" +
             std::to_string(grid.npcol) + " grid, blocks 8";
  res.device = DeviceCost::from(slowest(rep.profile));
  trn::blasmp::grid_destroy(grid);
  return res;
}

// trnsolverMp Syevd with complex Hermitian data (TRN_C_32F / TRN_C_64F, jobz V; cuSOLVERMp's Syevd takes
// both): A = (G + G^H) / 2 of uniform complex entries, lower triangle, blocks of 8, the most square grid;
// ||A Z - Z Lambda||_F / ||A||_F in long double on the gathered eigenvectors (their real and imaginary
// parts gathered apart), over 16 n u as syevd_case (docs/scale-out.md 6.5).
template <class T>
CaseResult heevd_case(std::int64_t n) {
  using R = typename T::value_type;
  using cl = std::complex<long double>;
  constexpr bool fp64 = std::is_same_v<R, double>;
  trn::blasmp::Grid grid;
  square_grid(grid);
  const trn::blasmp::Descriptor da = trn::blasmp::make_descriptor(grid, n, n, 8, 8, 0, 0, fp64 ? TRN_C_64F : TRN_C_32F);
  const std::vector<cf> v = trnfft_test::uniform_complex(n * n, 11);
  std::vector<T> A(v.size());
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      A[static_cast<std::size_t>(i + j * n)] = T(0.5 * (cd(v[static_cast<std::size_t>(i + j * n)]) + std::conj(cd(v[static_cast<std::size_t>(j + i * n)]))));
  std::vector<T> la = piece_of(A, da), lz(la.size());
  std::vector<R> d(static_cast<std::size_t>(n));
  trn::solvermp::SyevdArgs x;
  x.fp64 = fp64, x.complex = true, x.n = n, x.desc_a = &da, x.desc_z = &da, x.a = la.data(), x.z = lz.data(), x.d = d.data();
  std::vector<char> work(trn::solvermp::syevd_workspace_bytes(x));
  x.work = work.data(), x.work_bytes = work.size();
  trn::blas::CallReport rep;
  const double t0 = now_seconds();
  const int info = trn::solvermp::syevd(trn::blas::Settings{}, x, &rep);
  CaseResult res;
  res.host_seconds = seconds_since(t0);
  std::vector<double> zr(lz.size()), zi(lz.size());
  for (std::size_t e = 0; e < lz.size(); ++e) zr[e] = static_cast<double>(lz[e].real()), zi[e] = static_cast<double>(lz[e].imag());
  const std::vector<double> Zr = whole_of(zr, da), Zi = whole_of(zi, da);
  long double num = 0, den = 0;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      cl az = 0;
      for (std::int64_t l = 0; l < n; ++l)
        az += cl(A[static_cast<std::size_t>(i + l * n)]) * cl(Zr[static_cast<std::size_t>(l + j * n)], Zi[static_cast<std::size_t>(l + j * n)]);
      const cl r = az - cl(Zr[static_cast<std::size_t>(i + j * n)], Zi[static_cast<std::size_t>(i + j * n)]) * static_cast<long double>(d[static_cast<std::size_t>(j)]);
      num += std::norm(r), den += std::norm(cl(A[static_cast<std::size_t>(i + j * n)]));
    }
  const double u = fp64 ? 0x1p-53 : 0x1p-24;
  res.measured = static_cast<double>(std::sqrt(num / den)) / (16.0 * static_cast<double>(n) * u);
  res.bound = 1;
  res.pass = info == 0 && res.measured <= 1;
  res.note = "Hermitian: ||A Z - Z L||_F / ||A||_F over 16 n u (info " + std::to_string(info) + "), " + std::to_string(grid.nprow) +
             "x" + std::to_string(grid.npcol) + " grid, blocks 8";
  res.device = DeviceCost::from(slowest(rep.profile));
  trn::blasmp::grid_destroy(grid);
  return res;
}

// The real pencil / box cases (9.9) and the C2R bits of slabs (9.4), pencils and boxes.
template <class Add>
void add_mp_real(Add&& add) {
  const trn::fftmp::Index3 n{12, 10, 8};
  const double size = 12.0 * 10 * 8;
  const struct { RealCheck check; const char* fp32_op; const char* fp64_op; const char* metric; const char* bound; } kChecks[] = {
      {RealCheck::forward, "r2c", "d2z", "normwise_rel", "trnfft plan bounds (R2C + 2 complex passes)"},
      {RealCheck::inverse, "c2r", "z2d", "normwise_rel", "trnfft plan bounds (2 complex passes + C2R)"},
      {RealCheck::round_trip, "r2c_c2r", "d2z_z2d", "normwise_rel", "the R2C and C2R plans' bounds summed"}};
  for (const bool boxes : {false, true})
    for (const auto& k : kChecks)
      for (const bool fp64 : {false, true})
        add({.library = "trnfftMp", .op = std::string(fp64 ? k.fp64_op : k.fp32_op) + (boxes ? "_box" : "_pencil"),
             .mode = fp64 ? "fp64 (Ozaki)" : "fp32", .shape = "12x10x8", .metric = k.metric, .bound_text = k.bound, .size = size,
             .run = [n, boxes, fp64, check = k.check] {
               return fp64 ? fftmp_real_pencil_case<double>(n, boxes, check) : fftmp_real_pencil_case<float>(n, boxes, check);
             }});
  for (const bool boxes : {false, true})
    add({.library = "trnfftMp", .op = boxes ? "c2r_box" : "c2r_pencil", .mode = "fp32", .shape = "12x10x8", .metric = "bit_exact",
         .bound_text = "0 elements differ from the single-device C2R plan (any grid, boxes, rank count)", .size = size,
         .run = [n, boxes] { return fftmp_real_pencil_case<float>(n, boxes, RealCheck::c2r_bits); }});
  for (const auto& s : std::vector<std::vector<std::int64_t>>{{16, 12, 10}, {32, 24}})
    add({.library = "trnfftMp", .op = "c2r_slab", .mode = "fp32", .shape = shape_of(s), .metric = "bit_exact",
         .bound_text = "0 elements differ from the single-device C2R plan (any rank count)",
         .size = static_cast<double>(s[0] * s[1] * (s.size() == 3 ? s[2] : 1)), .run = [s] { return fftmp_real_case(s, true, true); }});
}

void add_mp(Registry& reg) {
  auto add = [&](ValidationCase c) {
    c.suite = "mp";  // collective: main.cpp runs the suite's cases on every rank
    reg.add(std::move(c));
  };
  for (const auto& n : std::vector<std::vector<std::int64_t>>{{16, 12, 10}, {32, 24}}) {
    const double size = static_cast<double>(n[0] * n[1] * (n.size() == 3 ? n[2] : 1));
    for (int sign : {-1, 1}) {
      const std::string dir = sign < 0 ? "forward" : "inverse";
      add({.library = "trnfftMp", .op = "c2c_slab_" + dir, .mode = "fp32", .shape = shape_of(n), .metric = "normwise_rel",
           .bound_text = "trnfft plan bound 4 u32 log2 N", .size = size,
           .run = [n, sign] { return fftmp_case<cf>(n, sign, false); }});
      add({.library = "trnfftMp", .op = "z2z_slab_" + dir, .mode = "fp64 (Ozaki)", .shape = shape_of(n),
           .metric = "normwise_rel", .bound_text = "trnfft plan bound 4 u64 log2 N", .size = size,
           .run = [n, sign] { return fftmp_case<cd>(n, sign, false); }});
    }
    add({.library = "trnfftMp", .op = "c2c_slab_forward", .mode = "fp32", .shape = shape_of(n), .metric = "bit_exact",
         .bound_text = "0 elements differ from the single-device plan (any rank count)", .size = size,
         .run = [n] { return fftmp_case<cf>(n, -1, true); }});
  }
  for (const auto& n : std::vector<std::vector<std::int64_t>>{{16, 12, 10}, {32, 24}}) {
    const double size = static_cast<double>(n[0] * n[1] * (n.size() == 3 ? n[2] : 1));
    add({.library = "trnfftMp", .op = "r2c_slab", .mode = "fp32", .shape = shape_of(n), .metric = "normwise_rel",
         .bound_text = "trnfft plan bounds (R2C trailing + C2C axis 0)", .size = size,
         .run = [n] { return fftmp_real_case(n, false, false); }});
    add({.library = "trnfftMp", .op = "c2r_slab", .mode = "fp32", .shape = shape_of(n), .metric = "normwise_rel",
         .bound_text = "trnfft plan bounds (C2C axis 0 + C2R trailing)", .size = size,
         .run = [n] { return fftmp_real_case(n, true, false); }});
    add({.library = "trnfftMp", .op = "r2c_slab", .mode = "fp32", .shape = shape_of(n), .metric = "bit_exact",
         .bound_text = "0 elements differ from the single-device R2C plan (any rank count)", .size = size,
         .run = [n] { return fftmp_real_case(n, false, true); }});
  }
  add({.library = "trnfftMp", .op = "c2c_box_pencil", .mode = "fp32", .shape = "16x12x10", .metric = "normwise_rel",
       .bound_text = "trnfft plan bound 4 u32 log2 N", .size = 16.0 * 12 * 10, .run = [] { return fftmp_box_case({16, 12, 10}, false); }});
  add({.library = "trnfftMp", .op = "c2c_box_pencil", .mode = "fp32", .shape = "16x12x10", .metric = "bit_exact",
       .bound_text = "0 elements differ from the single-device plan (any boxes, any rank count)", .size = 16.0 * 12 * 10,
       .run = [] { return fftmp_box_case({16, 12, 10}, true); }});
  add({.library = "trnblasMp", .op = "gemm_summa", .mode = "fp32", .shape = "40x36x50", .metric = "max_comp_rel",
       .bound_text = "4 (k + 2) u32 (ratio)", .size = 40.0 * 36 * 50, .run = [] { return gemm_case(false, 40, 36, 50); }});
  add({.library = "trnblasMp", .op = "gemm_summa", .mode = "fp64 (Ozaki)", .shape = "40x36x50", .metric = "max_comp_rel",
       .bound_text = "4 (k + 2) u64 (ratio)", .size = 40.0 * 36 * 50, .run = [] { return gemm_case(true, 40, 36, 50); }});
  for (bool fp64 : {false, true})
    add({.library = "trnsolverMp", .op = "geqrf_ormqr", .mode = fp64 ? "fp64 (Ozaki)" : "fp32", .shape = "48x32",
         .metric = "normwise_rel", .bound_text = std::string("16 (m + n) ") + (fp64 ? "u64" : "u32") + " (ratio)",
         .size = 48.0 * 32 * 32, .run = [fp64] { return geqrf_case(fp64, 48, 32); }});
  for (bool fp64 : {false, true})
    add({.library = "trnsolverMp", .op = "geqrf_orgqr", .mode = fp64 ? "fp64 (Ozaki)" : "fp32", .shape = "48x32",
         .metric = "normwise_rel", .bound_text = std::string("16 (m + n) ") + (fp64 ? "u64" : "u32") + " (ratio)",
         .size = 48.0 * 32 * 32, .run = [fp64] { return geqrf_case(fp64, 48, 32, true); }});
  for (bool fp64 : {false, true})
    add({.library = "trnsolverMp", .op = "syevd", .mode = fp64 ? "fp64 (Ozaki)" : "fp32", .shape = "40x40",
         .metric = "normwise_rel", .bound_text = std::string("16 n ") + (fp64 ? "u64" : "u32") + " (ratio)",
         .size = 40.0 * 40 * 40, .run = [fp64] { return syevd_case(fp64, 40); }});
  add({.library = "trnsolverMp", .op = "syevd_hermitian", .mode = "fp32", .shape = "32x32", .metric = "normwise_rel",
       .bound_text = "16 n u32 (ratio)", .size = 32.0 * 32 * 32, .run = [] { return heevd_case<cf>(32); }});
  add({.library = "trnsolverMp", .op = "syevd_hermitian", .mode = "fp64 (Ozaki)", .shape = "32x32", .metric = "normwise_rel",
       .bound_text = "16 n u64 (ratio)", .size = 32.0 * 32 * 32, .run = [] { return heevd_case<cd>(32); }});
  add_mp_real(add);
}

const Registrar kRegistrar(add_mp);

}  // namespace
}  // namespace trnsci::cli
