// trnsolverMp's C API (trnsolverMp.h) under MPI (ctest label mpi, 1, 2, 4 ranks): the cuSOLVERMp
// workflow (handle, device grid, descriptors, _bufferSize, call) gives the C++ API's bits (Getrf /
// Getrs, D) and ScaLAPACK's results within their bounds (Potrf / Potrs, Z and C: p?potrf / p?potrs);
// bad input gives one status on every rank (no hang), info = -position on the rank whose argument is
// illegal, and no output written. Also the main() of test_solvermp (which runs trnblasMp's Matmul tests too).
#include <complex>
#include <cstring>

#include "mpi_util.hpp"
#include "solvermp_util.hpp"
#include "trn/solvermp/solvermp.hpp"
#include "trnsolverMp.h"

extern "C" {  // ScaLAPACK (oracle)
void pcpotrf_(const char*, const int*, void*, const int*, const int*, const int*, int*);
void pzpotrf_(const char*, const int*, void*, const int*, const int*, const int*, int*);
void pcpotrs_(const char*, const int*, const int*, const void*, const int*, const int*, const int*, void*, const int*,
              const int*, const int*, int*);
void pzpotrs_(const char*, const int*, const int*, const void*, const int*, const int*, const int*, void*, const int*,
              const int*, const int*, int*);
}

namespace mpitest {

namespace {

// Getrf + Getrs (D) through the C API equal the C++ API's bits and pivots.
void capi_lu_equals_cpp() {
  Api api;
  const int n = 44, nb = 8, nrhs = 2;
  auto da = api.desc(TRN_R_64F, n, n, nb), db = api.desc(TRN_R_64F, n, nrhs, nb);
  int lr, lc;
  auto A = local_part(global_matrix<double>(n, n, 31), n, n, nb, nb, api.myrow, api.mycol, api.nprow, api.npcol, &lr, &lc);
  auto B = local_part(global_matrix<double>(n, nrhs, 32), n, nrhs, nb, nb, api.myrow, api.mycol, api.nprow, api.npcol, &lr, &lc);
  auto A2 = A, B2 = B;
  std::vector<int64_t> ipiv(static_cast<std::size_t>(std::max(lr, 1)) + 8), ipiv2 = ipiv;
  size_t wd = 0, wh = 0;
  check_all_ranks(trnsolverMpGetrf_bufferSize(api.h, n, n, A.data(), 1, 1, da, ipiv.data(), TRN_R_64F, &wd, &wh),
                  TRNSOLVER_STATUS_SUCCESS, "Getrf_bufferSize");
  std::vector<char> work(wd);
  int info = -99;
  check_all_ranks(trnsolverMpGetrf(api.h, n, n, A.data(), 1, 1, da, ipiv.data(), TRN_R_64F, work.data(), wd, nullptr, 0, &info),
                  TRNSOLVER_STATUS_SUCCESS, "Getrf");
  check_all_ranks(info, 0, "Getrf info");
  check_all_ranks(trnsolverMpGetrs_bufferSize(api.h, TRNBLAS_OP_N, n, nrhs, A.data(), 1, 1, da, ipiv.data(), B.data(), 1, 1,
                                              db, TRN_R_64F, &wd, &wh),
                  TRNSOLVER_STATUS_SUCCESS, "Getrs_bufferSize");
  work.assign(wd, 0);
  info = -99;
  check_all_ranks(trnsolverMpGetrs(api.h, TRNBLAS_OP_N, n, nrhs, A.data(), 1, 1, da, ipiv.data(), B.data(), 1, 1, db,
                                   TRN_R_64F, work.data(), wd, nullptr, 0, &info),
                  TRNSOLVER_STATUS_SUCCESS, "Getrs");
  check_all_ranks(info, 0, "Getrs info");
  trnProfile_t prof{};
  check(trnsolverMpGetLastProfile(api.h, &prof) == TRNSOLVER_STATUS_SUCCESS && prof.total_ns > 0, "GetLastProfile after Getrs");
  // The same through the C++ API.
  trn::blasmp::Grid g;
  trn::blasmp::grid_create(g, api.nprow, api.npcol, trn::blasmp::GridLayout::col_major, MPI_COMM_WORLD);
  const auto ca = trn::blasmp::make_descriptor(g, n, n, nb, nb, 0, 0, TRN_R_64F);
  const auto cb = trn::blasmp::make_descriptor(g, n, nrhs, nb, nb, 0, 0, TRN_R_64F);
  trn::solvermp::GetrfArgs f;
  f.fp64 = true, f.m = n, f.n = n, f.a = A2.data(), f.desc_a = &ca, f.ipiv = ipiv2.data();
  std::vector<char> w2(trn::solvermp::getrf_workspace_bytes(f));
  f.work = w2.data(), f.work_bytes = w2.size();
  trn::solvermp::getrf(trn::blas::Settings{}, f);
  trn::solvermp::GetrsArgs s;
  s.fp64 = true, s.n = n, s.nrhs = nrhs, s.a = A2.data(), s.desc_a = &ca, s.b = B2.data(), s.desc_b = &cb, s.ipiv = ipiv2.data();
  std::vector<char> w3(trn::solvermp::getrs_workspace_bytes(s));
  s.work = w3.data(), s.work_bytes = w3.size();
  trn::solvermp::getrs(trn::blas::Settings{}, s);
  check(A == A2 && B == B2 && ipiv == ipiv2, "the C API's Getrf / Getrs give the C++ API's bits and pivots");
  trn::blasmp::grid_destroy(g);
  for (auto d : {da, db}) trnsolverMpDestroyMatrixDesc(d);
}

// A Hermitian positive definite matrix: (M + M^H) / 2 + n I.
template <class T>
std::vector<T> hpd(int n) {
  auto g = global_matrix<T>(n, n, 33);
  std::vector<T> a(g.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      a[i + static_cast<std::size_t>(j) * n] = (g[i + static_cast<std::size_t>(j) * n] + std::conj(g[j + static_cast<std::size_t>(i) * n])) / typename T::value_type(2);
  for (int i = 0; i < n; ++i) a[i + static_cast<std::size_t>(i) * n] += static_cast<typename T::value_type>(n);
  return a;
}

// Complex Potrf + Potrs through the C API against ScaLAPACK's p?potrf / p?potrs on the same grid.
template <class T>
void capi_potrf_complex(char uplo) {
  Api api;
  const int n = 36, nb = 8, nrhs = 2, one = 1, zero = 0;
  const trnDataType_t t = Traits<T>::type;
  auto da = api.desc(t, n, n, nb), db = api.desc(t, n, nrhs, nb);
  int lr, lc;
  auto A = local_part(hpd<T>(n), n, n, nb, nb, api.myrow, api.mycol, api.nprow, api.npcol, &lr, &lc);
  auto B = local_part(global_matrix<T>(n, nrhs, 34), n, nrhs, nb, nb, api.myrow, api.mycol, api.nprow, api.npcol, &lr, &lc);
  auto Ar = A, Br = B;
  const trnblasFillMode_t fill = uplo == 'L' ? TRNBLAS_FILL_MODE_LOWER : TRNBLAS_FILL_MODE_UPPER;
  size_t wd = 0, wh = 0;
  const std::string what = std::string("C API ") + Traits<T>::name + "potrf/potrs " + uplo;
  check_all_ranks(trnsolverMpPotrf_bufferSize(api.h, fill, n, A.data(), 1, 1, da, t, &wd, &wh), TRNSOLVER_STATUS_SUCCESS,
                  what + " Potrf_bufferSize");
  std::vector<char> work(wd);
  int info = -99;
  check_all_ranks(trnsolverMpPotrf(api.h, fill, n, A.data(), 1, 1, da, t, work.data(), wd, nullptr, 0, &info),
                  TRNSOLVER_STATUS_SUCCESS, what + " Potrf");
  check_all_ranks(info, 0, what + " Potrf info");
  check_all_ranks(trnsolverMpPotrs_bufferSize(api.h, fill, n, nrhs, A.data(), 1, 1, da, B.data(), 1, 1, db, t, &wd, &wh),
                  TRNSOLVER_STATUS_SUCCESS, what + " Potrs_bufferSize");
  work.assign(wd, 0);
  check_all_ranks(trnsolverMpPotrs(api.h, fill, n, nrhs, A.data(), 1, 1, da, B.data(), 1, 1, db, t, work.data(), wd, nullptr,
                                   0, &info),
                  TRNSOLVER_STATUS_SUCCESS, what + " Potrs");
  int ctxt = 0, pr, pc, myrow, mycol, rinfo = 0;
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "C", api.nprow, api.npcol);
  Cblacs_gridinfo(ctxt, &pr, &pc, &myrow, &mycol);
  int desca[9], descb[9];
  const int lld = std::max(lr, 1);
  descinit_(desca, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &rinfo);
  descinit_(descb, &n, &nrhs, &nb, &nb, &zero, &zero, &ctxt, &lld, &rinfo);
  if constexpr (std::is_same_v<T, std::complex<double>>) {
    pzpotrf_(&uplo, &n, Ar.data(), &one, &one, desca, &rinfo);
    pzpotrs_(&uplo, &n, &nrhs, Ar.data(), &one, &one, desca, Br.data(), &one, &one, descb, &rinfo);
  } else {
    pcpotrf_(&uplo, &n, Ar.data(), &one, &one, desca, &rinfo);
    pcpotrs_(&uplo, &n, &nrhs, Ar.data(), &one, &one, desca, Br.data(), &one, &one, descb, &rinfo);
  }
  Cblacs_gridexit(ctxt);
  // The factor's triangle only (the other one is the input's, in both).
  const double u = Traits<T>::u;
  const double ef = rel_error<T>(bytes_of(A), bytes_of(Ar)) / (16.0 * (n + 2) * u);
  const double es = rel_error<T>(bytes_of(B), bytes_of(Br)) / (64.0 * (n + 2) * u);
  check(ef <= 1.0, what + ": factor error / bound " + std::to_string(ef));
  check(es <= 1.0, what + ": solution error / bound " + std::to_string(es));
  if (g_rank == 0) std::printf("%-34s on %dx%d: factor error / bound %.3g, solution %.3g\n", what.c_str(), api.nprow, api.npcol, ef, es);
  for (auto d : {da, db}) trnsolverMpDestroyMatrixDesc(d);
}

// Bad input: one status on every rank, info = -position where the argument is illegal, nothing written.
void capi_bad_input() {
  Api api;
  const int n = 24, nb = 8;
  auto da = api.desc(TRN_R_64F, n, n, nb), db = api.desc(TRN_R_64F, n, 1, nb);
  int lr, lc;
  const auto A0 = local_part(global_matrix<double>(n, n, 35), n, n, nb, nb, api.myrow, api.mycol, api.nprow, api.npcol, &lr, &lc);
  auto A = A0;
  std::vector<int64_t> ipiv(static_cast<std::size_t>(std::max(lr, 1)), -5);
  const auto ipiv0 = ipiv;
  size_t wd = 0, wh = 0;
  trnsolverMpGetrf_bufferSize(api.h, n, n, A.data(), 1, 1, da, ipiv.data(), TRN_R_64F, &wd, &wh);
  std::vector<char> work(wd + 64);
  const bool last = g_rank == g_size - 1;
  auto getrf = [&](int64_t m, trnsolverMpHandle_t h, int64_t ia, trnDataType_t ct, size_t ws, int* info) {
    return trnsolverMpGetrf(h, m, n, A.data(), ia, 1, da, ipiv.data(), ct, work.data(), ws, nullptr, 0, info);
  };
  int info = 99;
  check_all_ranks(getrf(last ? n + 1 : n, api.h, 1, TRN_R_64F, wd, &info), TRNSOLVER_STATUS_INVALID_VALUE,
                  "Getrf: one rank's M differs -> INVALID_VALUE everywhere");
  check_all_ranks(info, 99, "Getrf: info untouched when the ranks disagree");
  info = 99;
  check_all_ranks(getrf(last ? -1 : n, api.h, 1, TRN_R_64F, wd, &info), TRNSOLVER_STATUS_INVALID_VALUE,
                  "Getrf: one rank's M < 0 -> INVALID_VALUE everywhere");
  check(info == (last ? -1 : 99), "Getrf: info = -1 on the rank whose M is illegal, untouched elsewhere (this rank: " +
                                     std::to_string(info) + ")");
  check_all_ranks(getrf(n, last ? nullptr : api.h, 1, TRN_R_64F, wd, &info), TRNSOLVER_STATUS_NOT_INITIALIZED,
                  "Getrf: a NULL handle on one rank -> NOT_INITIALIZED everywhere");
  info = 99;
  check_all_ranks(getrf(n, api.h, 1, TRN_R_32F, wd, &info), TRNSOLVER_STATUS_INVALID_VALUE,
                  "Getrf: computeType other than the descriptor's -> INVALID_VALUE");
  check_all_ranks(info, -8, "Getrf: info = -8 (computeType)");
  check_all_ranks(getrf(n, api.h, 2, TRN_R_64F, wd, &info), TRNSOLVER_STATUS_NOT_SUPPORTED,
                  "Getrf: IA = 2 -> NOT_SUPPORTED everywhere");
  check_all_ranks(getrf(n, api.h, 1, TRN_R_64F, last && wd > 0 ? wd - 1 : wd, &info),
                  g_size == 1 && wd == 0 ? TRNSOLVER_STATUS_SUCCESS : TRNSOLVER_STATUS_INVALID_VALUE,
                  "Getrf: a short workspace on one rank -> INVALID_VALUE everywhere");
  int same = A == A0 && ipiv == ipiv0;
  check_all_ranks(same, 1, "failing Getrf calls wrote neither A nor ipiv");
  // Potrf: a bad uplo on rank 0 only.
  info = 99;
  const auto uplo = g_rank == 0 ? static_cast<trnblasFillMode_t>(7) : TRNBLAS_FILL_MODE_LOWER;
  check_all_ranks(trnsolverMpPotrf(api.h, uplo, n, A.data(), 1, 1, da, TRN_R_64F, work.data(), work.size(), nullptr, 0, &info),
                  TRNSOLVER_STATUS_INVALID_VALUE, "Potrf: rank 0's uplo is illegal -> INVALID_VALUE everywhere");
  check(info == (g_rank == 0 ? -1 : 99), "Potrf: info = -1 on rank 0, untouched elsewhere (this rank: " + std::to_string(info) + ")");
  // Getrs with pivots outside 1..n on every rank: INVALID_VALUE everywhere, B untouched.
  std::vector<double> B(static_cast<std::size_t>(std::max(lr, 1)), 3.0);
  std::vector<int64_t> bad(ipiv.size(), 0);
  trnsolverMpGetrs_bufferSize(api.h, TRNBLAS_OP_N, n, 1, A.data(), 1, 1, da, bad.data(), B.data(), 1, 1, db, TRN_R_64F, &wd, &wh);
  work.assign(wd, 0);
  check_all_ranks(trnsolverMpGetrs(api.h, TRNBLAS_OP_N, n, 1, A.data(), 1, 1, da, bad.data(), B.data(), 1, 1, db, TRN_R_64F,
                                   work.data(), wd, nullptr, 0, &info),
                  TRNSOLVER_STATUS_INVALID_VALUE, "Getrs: pivots outside 1..n -> INVALID_VALUE everywhere");
  same = std::all_of(B.begin(), B.end(), [](double v) { return v == 3.0; });
  check_all_ranks(same, 1, "Getrs with bad pivots wrote nothing into B");
  // Grids: a shape that is not the communicator's size; ranks asking for different shapes.
  trnsolverMpGrid_t g2 = nullptr;
  check_all_ranks(trnsolverMpCreateDeviceGrid(api.h, &g2, MPI_COMM_WORLD, g_size + 1, 1, TRNSOLVERMP_GRID_MAPPING_COL_MAJOR),
                  TRNSOLVER_STATUS_INVALID_VALUE, "CreateDeviceGrid: nprow * npcol != comm size -> INVALID_VALUE everywhere");
  if (g_size > 1)
    check_all_ranks(trnsolverMpCreateDeviceGrid(api.h, &g2, MPI_COMM_WORLD, last ? 1 : g_size, last ? g_size : 1,
                                                TRNSOLVERMP_GRID_MAPPING_COL_MAJOR),
                    TRNSOLVER_STATUS_INVALID_VALUE, "CreateDeviceGrid: ranks ask for different shapes -> INVALID_VALUE everywhere");
  check(g2 == nullptr, "failing CreateDeviceGrid calls wrote no grid");
  int v = 0;
  check(trnsolverMpGetVersion(api.h, &v) == TRNSOLVER_STATUS_SUCCESS && v == TRNSOLVERMP_VERSION, "GetVersion");
  trnsolverMpMatrixDescriptor_t d = nullptr;
  check(trnsolverMpCreateMatrixDesc(&d, api.grid, TRN_R_16F, n, n, nb, nb, 0, 0, 64) == TRNSOLVER_STATUS_INVALID_VALUE &&
            d == nullptr,
        "CreateMatrixDesc: an unsupported dataType -> INVALID_VALUE");
  for (auto x : {da, db}) trnsolverMpDestroyMatrixDesc(x);
}

}  // namespace

void run_capi_tests() {
  capi_lu_equals_cpp();
  capi_potrf_complex<std::complex<double>>('L');
  capi_potrf_complex<std::complex<double>>('U');
  capi_potrf_complex<std::complex<float>>('L');
  capi_bad_input();
}

}  // namespace mpitest

int main(int argc, char** argv) {
  using namespace mpitest;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  run_capi_tests();
  run_lu_tests();
  run_matmul_tests();
  run_qr_tests();
  run_eig_tests();
  int total = 0;
  MPI_Allreduce(&g_failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (g_rank == 0) std::printf("%s: %d failure(s) over %d rank(s)\n", total == 0 ? "PASSED" : "FAILED", total, g_size);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
