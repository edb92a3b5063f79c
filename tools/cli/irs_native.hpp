// The native host time of the IRS family's bench rows (tools/cli/suite_solver_irs.cpp,
// suite_solver_irsx.cpp): LAPACKE ?gesv / ?gels (OpenBLAS) in the I/O precision on an
// irs_ref::Problem's data, best of 3. Timing only: LAPACKE never runs in a library.
#pragma once
#include <lapacke.h>

#include <complex>
#include <string>
#include <type_traits>
#include <vector>

#include "irs_problems.hpp"
#include "registry.hpp"

namespace trnsci::cli::irs_native {

// LAPACKE ?gesv (m == n) or ?gels in the I/O precision on the problem's data: the native host time.
template <class T>
double lapacke_seconds(const irs_ref::Problem<T>& p) {
  std::vector<T> a, b;
  std::vector<lapack_int> ipiv(static_cast<std::size_t>(p.n));
  const int m = p.m, n = p.n;
  return best_seconds(3, [&] {
    a = p.A;
    b = p.B;
    if constexpr (std::is_same_v<T, float>) {
      if (m == n) LAPACKE_sgesv(LAPACK_COL_MAJOR, n, 1, a.data(), n, ipiv.data(), b.data(), n);
      else LAPACKE_sgels(LAPACK_COL_MAJOR, 'N', m, n, 1, a.data(), m, b.data(), m);
    } else if constexpr (std::is_same_v<T, double>) {
      if (m == n) LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, a.data(), n, ipiv.data(), b.data(), n);
      else LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', m, n, 1, a.data(), m, b.data(), m);
    } else if constexpr (std::is_same_v<T, std::complex<float>>) {
      auto* pa = reinterpret_cast<lapack_complex_float*>(a.data());
      auto* pb = reinterpret_cast<lapack_complex_float*>(b.data());
      if (m == n) LAPACKE_cgesv(LAPACK_COL_MAJOR, n, 1, pa, n, ipiv.data(), pb, n);
      else LAPACKE_cgels(LAPACK_COL_MAJOR, 'N', m, n, 1, pa, m, pb, m);
    } else {
      auto* pa = reinterpret_cast<lapack_complex_double*>(a.data());
      auto* pb = reinterpret_cast<lapack_complex_double*>(b.data());
      if (m == n) LAPACKE_zgesv(LAPACK_COL_MAJOR, n, 1, pa, n, ipiv.data(), pb, n);
      else LAPACKE_zgels(LAPACK_COL_MAJOR, 'N', m, n, 1, pa, m, pb, m);
    }
  });
}

template <class T>
std::string lapacke_name(bool square) {
  const char* p = std::is_same_v<T, float>                 ? "s"
                  : std::is_same_v<T, double>              ? "d"
                  : std::is_same_v<T, std::complex<float>> ? "c"
                                                           : "z";
  return std::string("LAPACKE ") + p + (square ? "gesv" : "gels") + " (OpenBLAS)";
}

}  // namespace trnsci::cli::irs_native
