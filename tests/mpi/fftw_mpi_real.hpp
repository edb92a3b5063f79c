// FFTW MPI's real transforms as the oracle of trnfftMp's R2C / C2R (D2Z / Z2D) tests (slabs:
// test_fftmp.cpp; pencils and boxes: test_fftmp_pencil.cpp): FFTW on its own slab decomposition
// (FFTW_MPI_DEFAULT_BLOCK), the result gathered on every rank, so any trnfftMp decomposition is
// compared element for element. libfftw3-mpi is the oracle only. Call fftw_mpi_init() first.
#pragma once
#include <fftw3-mpi.h>
#include <mpi.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <vector>

#include "mpi_util.hpp"

namespace mpitest {

using fftw_cd = std::complex<double>;

// The real sizes' padded row: 2 (n_last / 2 + 1) reals.
inline std::int64_t padded_row(const std::vector<std::int64_t>& n) { return 2 * (n.back() / 2 + 1); }
// Rows (of the last axis) in one n0 plane: n1 in 3-D, 1 in 2-D.
inline std::int64_t rows_per_plane(const std::vector<std::int64_t>& n) { return n.size() == 3 ? n[1] : 1; }

// The global real input (same on every rank), dense n0 x n1 [x n2], in [-1, 1).
inline std::vector<double> global_real(const std::vector<std::int64_t>& n, unsigned seed) {
  std::int64_t total = 1;
  for (auto v : n) total *= v;
  std::vector<double> g(static_cast<std::size_t>(total));
  for (std::size_t i = 0; i < g.size(); ++i) g[i] = hashed(i, seed);
  return g;
}

// Every rank's contribution summed into one global array (each element written by one rank).
template <class T>
void sum_over_ranks(std::vector<T>& g) {
  MPI_Allreduce(MPI_IN_PLACE, g.data(), static_cast<int>(g.size() * sizeof(T) / sizeof(double)), MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);
}

// FFTW MPI's R2C of the dense global real input, on FFTW's own slabs (FFTW_MPI_TRANSPOSED_OUT),
// gathered: the whole half spectrum n0 x c1 x inner (trn::fftmp::complex_shape) on every rank.
inline std::vector<fftw_cd> fftw_mpi_r2c(const std::vector<double>& g, const std::vector<std::int64_t>& n,
                             const std::vector<std::int64_t>& c) {
  const int d = static_cast<int>(n.size());
  const ptrdiff_t nr[3] = {n[0], n[1], d == 3 ? n[2] : 1}, nc[3] = {c[0], c[1], c[2]};
  ptrdiff_t ln0, s0, ln1, s1;
  const ptrdiff_t alloc = fftw_mpi_local_size_many_transposed(d, nc, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK,
                                                              MPI_COMM_WORLD, &ln0, &s0, &ln1, &s1);
  double* rin = fftw_alloc_real(static_cast<std::size_t>(2 * std::max<ptrdiff_t>(alloc, 1)));
  fftw_complex* cout = fftw_alloc_complex(static_cast<std::size_t>(std::max<ptrdiff_t>(alloc, 1)));
  fftw_plan p = fftw_mpi_plan_many_dft_r2c(d, nr, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK, rin, cout, MPI_COMM_WORLD,
                                           FFTW_ESTIMATE | FFTW_MPI_TRANSPOSED_OUT);
  const std::int64_t rp = rows_per_plane(n), len = n.back(), pr = padded_row(n), inner = c[2];
  for (std::int64_t r = 0; r < ln0 * rp; ++r)
    for (std::int64_t k = 0; k < len; ++k) rin[r * pr + k] = g[static_cast<std::size_t>((s0 * rp + r) * len + k)];
  fftw_execute(p);
  std::vector<fftw_cd> out(static_cast<std::size_t>(c[0] * c[1] * inner));
  for (std::int64_t y = 0; y < ln1; ++y)  // FFTW's transposed slab: ln1 x n0 x inner
    for (std::int64_t x = 0; x < c[0]; ++x)
      for (std::int64_t z = 0; z < inner; ++z) {
        const fftw_complex& v = cout[(y * c[0] + x) * inner + z];
        out[static_cast<std::size_t>((x * c[1] + s1 + y) * inner + z)] = fftw_cd(v[0], v[1]);
      }
  fftw_destroy_plan(p);
  fftw_free(rin);
  fftw_free(cout);
  sum_over_ranks(out);
  return out;
}

// FFTW MPI's C2R of a global half spectrum (FFTW_MPI_TRANSPOSED_IN), gathered: the dense real array.
inline std::vector<double> fftw_mpi_c2r(const std::vector<fftw_cd>& spec, const std::vector<std::int64_t>& n,
                                 const std::vector<std::int64_t>& c) {
  const int d = static_cast<int>(n.size());
  const ptrdiff_t nr[3] = {n[0], n[1], d == 3 ? n[2] : 1}, nc[3] = {c[0], c[1], c[2]};
  ptrdiff_t ln0, s0, ln1, s1;
  const ptrdiff_t alloc = fftw_mpi_local_size_many_transposed(d, nc, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK,
                                                              MPI_COMM_WORLD, &ln0, &s0, &ln1, &s1);
  fftw_complex* cin = fftw_alloc_complex(static_cast<std::size_t>(std::max<ptrdiff_t>(alloc, 1)));
  double* rout = fftw_alloc_real(static_cast<std::size_t>(2 * std::max<ptrdiff_t>(alloc, 1)));
  fftw_plan p = fftw_mpi_plan_many_dft_c2r(d, nr, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK, cin, rout, MPI_COMM_WORLD,
                                           FFTW_ESTIMATE | FFTW_MPI_TRANSPOSED_IN);
  const std::int64_t inner = c[2];
  for (std::int64_t y = 0; y < ln1; ++y)
    for (std::int64_t x = 0; x < c[0]; ++x)
      for (std::int64_t z = 0; z < inner; ++z) {
        const fftw_cd v = spec[static_cast<std::size_t>((x * c[1] + s1 + y) * inner + z)];
        cin[(y * c[0] + x) * inner + z][0] = v.real();
        cin[(y * c[0] + x) * inner + z][1] = v.imag();
      }
  fftw_execute(p);
  const std::int64_t rp = rows_per_plane(n), len = n.back(), pr = padded_row(n);
  std::vector<double> out(static_cast<std::size_t>(n[0] * rp * len));
  for (std::int64_t r = 0; r < ln0 * rp; ++r)
    for (std::int64_t k = 0; k < len; ++k) out[static_cast<std::size_t>((s0 * rp + r) * len + k)] = rout[r * pr + k];
  fftw_destroy_plan(p);
  fftw_free(cin);
  fftw_free(rout);
  sum_over_ranks(out);
  return out;
}

}  // namespace mpitest
