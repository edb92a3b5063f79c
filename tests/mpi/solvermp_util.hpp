// Shared by the trnsolverMp MPI tests (test_solvermp_lu.cpp, test_solvermp_capi.cpp): the element types'
// traits, byte images of local pieces, errors against an oracle over every rank, bit comparisons of a
// 1 x 1 grid's result with this rank's piece.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "mpi_util.hpp"
#include "trn/blasmp/blasmp.hpp"
#include "trnsolverMp.h"

namespace mpitest {

template <class T>
struct Traits;
template <>
struct Traits<float> {
  static constexpr trnDataType_t type = TRN_R_32F;
  static constexpr const char* name = "s";
  static constexpr double u = 0x1p-24;
};
template <>
struct Traits<double> {
  static constexpr trnDataType_t type = TRN_R_64F;
  static constexpr const char* name = "d";
  static constexpr double u = 0x1p-53;
};
template <>
struct Traits<std::complex<float>> {
  static constexpr trnDataType_t type = TRN_C_32F;
  static constexpr const char* name = "c";
  static constexpr double u = 0x1p-24;
};
template <>
struct Traits<std::complex<double>> {
  static constexpr trnDataType_t type = TRN_C_64F;
  static constexpr const char* name = "z";
  static constexpr double u = 0x1p-53;
};

// The call's element type (trnblasMp's Scalars) for T.
template <class T>
void set_type(trn::blasmp::Scalars& s) {
  s.fp64 = Traits<T>::u < 1e-10;
  s.complex = is_complex<T>::value;
}

template <class T>
std::vector<char> bytes_of(const std::vector<T>& v) {
  return std::vector<char>(reinterpret_cast<const char*>(v.data()), reinterpret_cast<const char*>(v.data() + v.size()));
}

// max |x - ref| / max(1, max |ref|) over every rank's piece (complex: the modulus).
template <class T>
double rel_error(const std::vector<char>& x, const std::vector<char>& ref) {
  const T* a = reinterpret_cast<const T*>(x.data());
  const T* b = reinterpret_cast<const T*>(ref.data());
  double mine[2] = {0, 1}, all[2];
  for (std::size_t i = 0; i < std::min(x.size(), ref.size()) / sizeof(T); ++i) {
    mine[0] = std::max(mine[0], static_cast<double>(std::abs(a[i] - b[i])));
    mine[1] = std::max(mine[1], static_cast<double>(std::abs(b[i])));
  }
  MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return all[0] / all[1];
}

// This rank's piece `mine` (blocks nb x nb from (0, 0), lld its local rows) equals the block-cyclic
// piece of `whole` (rows x cols, column-major: a 1 x 1 grid's result), bit for bit.
template <class T>
bool same_piece(const std::vector<char>& whole, const std::vector<char>& mine, int rows, int cols, int nb, int nprow,
                int npcol) {
  const T* w = reinterpret_cast<const T*>(whole.data());
  int lr, lc;
  const auto piece = local_part(std::vector<T>(w, w + static_cast<std::size_t>(rows) * cols), rows, cols, nb, nb,
                                g_rank % nprow, g_rank / nprow, nprow, npcol, &lr, &lc);
  return mine.size() == piece.size() * sizeof(T) && std::memcmp(piece.data(), mine.data(), mine.size()) == 0;
}

// One rank's C API objects on the nprow x npcol grid of MPI_COMM_WORLD.
struct Api {
  trnsolverMpHandle_t h = nullptr;
  trnsolverMpGrid_t grid = nullptr;
  int nprow = 1, npcol = 1, myrow = 0, mycol = 0;
  Api() {
    grid_shape(g_size, &nprow, &npcol);
    myrow = g_rank % nprow, mycol = g_rank / nprow;
    check(trnsolverMpCreate(&h, 0, nullptr) == TRNSOLVER_STATUS_SUCCESS, "trnsolverMpCreate");
    check_all_ranks(trnsolverMpCreateDeviceGrid(h, &grid, MPI_COMM_WORLD, nprow, npcol, TRNSOLVERMP_GRID_MAPPING_COL_MAJOR),
                    TRNSOLVER_STATUS_SUCCESS, "trnsolverMpCreateDeviceGrid");
  }
  ~Api() {
    trnsolverMpDestroyGrid(grid);
    trnsolverMpDestroy(h);
  }
  trnsolverMpMatrixDescriptor_t desc(trnDataType_t t, int m, int n, int nb) const {
    trnsolverMpMatrixDescriptor_t d = nullptr;
    const int64_t lld = std::max<int64_t>(1, trnsolverMpNUMROC(m, nb, static_cast<uint32_t>(myrow), 0, static_cast<uint32_t>(nprow)));
    check(trnsolverMpCreateMatrixDesc(&d, grid, t, m, n, nb, nb, 0, 0, lld) == TRNSOLVER_STATUS_SUCCESS, "CreateMatrixDesc");
    return d;
  }
};

// test_solvermp_lu.cpp: Getrf / Getrs against ScaLAPACK and trnsolver.
void run_lu_tests();
// test_solvermp_capi.cpp: the C API (trnsolverMp.h).
void run_capi_tests();
// test_blasmp_matmul.cpp: trnblasMp's Matmul (C API) against its Gemm.
void run_matmul_tests();
// test_solvermp_qr.cpp: Geqrf / Ormqr / Gels against ScaLAPACK and trnsolver.
void run_qr_tests();
// test_solvermp_eig.cpp: Syevd / Sygvd against ScaLAPACK and trnsolver.
void run_eig_tests();

}  // namespace mpitest
