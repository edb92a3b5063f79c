// trnsolverMp Getrf / Getrs (C++ API) under MPI (ctest label mpi, 1, 2, 4 ranks): against ScaLAPACK's
// p?getrf / p?getrs on the same BLACS grid (oracle only): the same pivots in ScaLAPACK's layout, the
// factors and solutions within their bounds; the same bits and pivots as on a 1 x 1 grid; with blocks
// of trnsolver's panel width, the bits and pivots of trnsolver's single-device sgetrf / dgetrf.
#include <cmath>
#include <complex>
#include <cstring>

#include "mpi_util.hpp"
#include "solvermp_util.hpp"
#include "trn/core/hardware.hpp"
#include "trn/solver/solver.hpp"
#include "trn/solvermp/solvermp.hpp"

extern "C" {  // ScaLAPACK (oracle): matrices and pivots by address
#define TRN_PGETR_DECL(p)                                                                                           \
  void p##getrf_(const int*, const int*, void*, const int*, const int*, const int*, int*, int*);                   \
  void p##getrs_(const char*, const int*, const int*, const void*, const int*, const int*, const int*, const int*, \
                 void*, const int*, const int*, const int*, int*);
TRN_PGETR_DECL(ps)
TRN_PGETR_DECL(pd)
TRN_PGETR_DECL(pc)
TRN_PGETR_DECL(pz)
#undef TRN_PGETR_DECL
}

namespace mpitest {

namespace {

namespace smp = trn::solvermp;

struct LuResult {
  std::vector<char> a, b;           // this rank's pieces of the factors and of the solution
  std::vector<std::int64_t> ipiv;   // this rank's pivots (ScaLAPACK's layout)
  int info = 0;
  double getrf_ns = 0;
};

struct LuCase {
  int m, n, nb, nrhs;
  char trans;  // getrs: 'N', 'T', 'C'
};

// Getrf (and Getrs when m = n and nrhs > 0) on an nprow x npcol grid over comm.
template <class T>
LuResult run_lu(MPI_Comm comm, int nprow, int npcol, const LuCase& c) {
  trn::blasmp::Grid g;
  trn::blasmp::grid_create(g, nprow, npcol, trn::blasmp::GridLayout::col_major, comm);
  const auto da = trn::blasmp::make_descriptor(g, c.m, c.n, c.nb, c.nb, 0, 0, Traits<T>::type);
  const auto db = trn::blasmp::make_descriptor(g, c.n, c.nrhs, c.nb, c.nb, 0, 0, Traits<T>::type);
  int lr, lc;
  auto A = local_part(global_matrix<T>(c.m, c.n, 21), c.m, c.n, c.nb, c.nb, g.myrow, g.mycol, nprow, npcol, &lr, &lc);
  LuResult r;
  r.ipiv.assign(static_cast<std::size_t>(std::max(lr, 1)), -7);
  auto B = local_part(global_matrix<T>(c.n, c.nrhs, 22), c.n, c.nrhs, c.nb, c.nb, g.myrow, g.mycol, nprow, npcol, &lr, &lc);
  smp::GetrfArgs f;
  set_type<T>(f);
  f.m = c.m, f.n = c.n, f.a = A.data(), f.desc_a = &da, f.ipiv = r.ipiv.data();
  std::vector<char> work(smp::getrf_workspace_bytes(f));
  f.work = work.data(), f.work_bytes = work.size();
  trn::blas::CallReport rep;
  r.info = smp::getrf(trn::blas::Settings{}, f, &rep);
  check(rep.profile.total_ns > 0, "getrf has a modeled time");
  r.getrf_ns = rep.profile.total_ns;
  if (c.m == c.n && c.nrhs > 0) {
    smp::GetrsArgs s;
    set_type<T>(s);
    s.trans = c.trans == 'N' ? trn::blas::COp::N : c.trans == 'T' ? trn::blas::COp::T : trn::blas::COp::C;
    s.n = c.n, s.nrhs = c.nrhs, s.a = A.data(), s.desc_a = &da, s.b = B.data(), s.desc_b = &db, s.ipiv = r.ipiv.data();
    std::vector<char> w2(smp::getrs_workspace_bytes(s));
    s.work = w2.data(), s.work_bytes = w2.size();
    smp::getrs(trn::blas::Settings{}, s);
  }
  r.a = bytes_of(A);
  r.b = bytes_of(B);
  trn::blasmp::grid_destroy(g);
  return r;
}

template <class T>
void pgetrf(const int* m, const int* n, T* a, const int* desc, int* ipiv, int* info) {
  const int one = 1;
  if constexpr (std::is_same_v<T, float>) psgetrf_(m, n, a, &one, &one, desc, ipiv, info);
  else if constexpr (std::is_same_v<T, double>) pdgetrf_(m, n, a, &one, &one, desc, ipiv, info);
  else if constexpr (std::is_same_v<T, std::complex<float>>) pcgetrf_(m, n, a, &one, &one, desc, ipiv, info);
  else pzgetrf_(m, n, a, &one, &one, desc, ipiv, info);
}
template <class T>
void pgetrs(const char* t, const int* n, const int* nrhs, const T* a, const int* da, const int* ipiv, T* b,
            const int* db, int* info) {
  const int one = 1;
  if constexpr (std::is_same_v<T, float>) psgetrs_(t, n, nrhs, a, &one, &one, da, ipiv, b, &one, &one, db, info);
  else if constexpr (std::is_same_v<T, double>) pdgetrs_(t, n, nrhs, a, &one, &one, da, ipiv, b, &one, &one, db, info);
  else if constexpr (std::is_same_v<T, std::complex<float>>) pcgetrs_(t, n, nrhs, a, &one, &one, da, ipiv, b, &one, &one, db, info);
  else pzgetrs_(t, n, nrhs, a, &one, &one, da, ipiv, b, &one, &one, db, info);
}

template <class T>
LuResult run_lu_ref(int nprow, int npcol, const LuCase& c) {
  int ctxt = 0, pr = 0, pc = 0, myrow = 0, mycol = 0, info = 0, lr, lc;
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "C", nprow, npcol);
  Cblacs_gridinfo(ctxt, &pr, &pc, &myrow, &mycol);
  auto A = local_part(global_matrix<T>(c.m, c.n, 21), c.m, c.n, c.nb, c.nb, myrow, mycol, nprow, npcol, &lr, &lc);
  const int lda = std::max(lr, 1);
  std::vector<int> ipiv(static_cast<std::size_t>(lda + c.nb));
  auto B = local_part(global_matrix<T>(c.n, c.nrhs, 22), c.n, c.nrhs, c.nb, c.nb, myrow, mycol, nprow, npcol, &lr, &lc);
  const int ldb = std::max(lr, 1), zero = 0;
  int desca[9], descb[9];
  descinit_(desca, &c.m, &c.n, &c.nb, &c.nb, &zero, &zero, &ctxt, &lda, &info);
  descinit_(descb, &c.n, &c.nrhs, &c.nb, &c.nb, &zero, &zero, &ctxt, &ldb, &info);
  LuResult r;
  pgetrf<T>(&c.m, &c.n, A.data(), desca, ipiv.data(), &r.info);
  if (c.m == c.n && c.nrhs > 0 && r.info == 0) pgetrs<T>(&c.trans, &c.n, &c.nrhs, A.data(), desca, ipiv.data(), B.data(), descb, &info);
  Cblacs_gridexit(ctxt);
  r.a = bytes_of(A);
  r.b = bytes_of(B);
  r.ipiv.assign(ipiv.begin(), ipiv.begin() + lda);
  return r;
}

template <class T>
void lu_case(const LuCase& c) {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  const std::string what = std::string(Traits<T>::name) + "getrf/getrs" + c.trans + " " + std::to_string(c.m) + "x" +
                           std::to_string(c.n) + " nb " + std::to_string(c.nb);
  const LuResult x = run_lu<T>(MPI_COMM_WORLD, nprow, npcol, c);
  const LuResult r = run_lu_ref<T>(nprow, npcol, c);
  check_all_ranks(x.info, r.info, what + " info equals p?getrf's");
  // ScaLAPACK's pivots: local rows of global index < min(m, n).
  const int zero = 0, kmin = std::min(c.m, c.n);
  int myrow = g_rank % nprow, lr = numroc_(&c.m, &c.nb, &myrow, &zero, &nprow), same = 1;
  for (int il = 0; il < lr; ++il)
    if ((il / c.nb * nprow + myrow) * c.nb + il % c.nb < kmin) same &= x.ipiv[static_cast<std::size_t>(il)] == r.ipiv[static_cast<std::size_t>(il)];
  check_all_ranks(same, 1, what + ": the pivots equal p?getrf's (ScaLAPACK's layout)");
  const double u = Traits<T>::u;
  const double ef = rel_error<T>(x.a, r.a) / (64.0 * (kmin + 2) * u);
  check(ef <= 1.0, what + ": factor error / bound " + std::to_string(ef));
  double es = 0;
  if (c.m == c.n && c.nrhs > 0) {
    es = rel_error<T>(x.b, r.b) / (1024.0 * (c.n + 2) * u);
    check(es <= 1.0, what + ": solution error / bound " + std::to_string(es));
  }
  const LuResult one = run_lu<T>(MPI_COMM_SELF, 1, 1, c);
  check(same_piece<T>(one.a, x.a, c.m, c.n, c.nb, nprow, npcol), what + ": factor bits equal the 1 x 1 grid's");
  if (c.m == c.n && c.nrhs > 0)
    check(same_piece<T>(one.b, x.b, c.n, c.nrhs, c.nb, nprow, npcol), what + ": solution bits equal the 1 x 1 grid's");
  int lr1 = 0, lc1 = 0;
  const auto piv1 = local_part(one.ipiv, c.m, 1, c.nb, 1, myrow, 0, nprow, 1, &lr1, &lc1);
  bool piv_same = true;
  for (int il = 0; il < lr1; ++il)
    if ((il / c.nb * nprow + myrow) * c.nb + il % c.nb < kmin) piv_same = piv_same && piv1[static_cast<std::size_t>(il)] == x.ipiv[static_cast<std::size_t>(il)];
  check(piv_same, what + ": pivots equal the 1 x 1 grid's");
  double slowest = 0;
  MPI_Allreduce(&x.getrf_ns, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (g_rank == 0)
    std::printf("%-40s on %dx%d: factor error / bound %.3g, solution %.3g; modeled getrf %.1f us (1 rank %.1f us)\n",
                what.c_str(), nprow, npcol, ef, es, slowest * 1e-3, one.getrf_ns * 1e-3);
}

// With blocks of trnsolver's panel width (pmax), the distributed factors and pivots are trnsolver's
// single-device sgetrf / dgetrf's, bit for bit, on any grid.
template <class T>
void lu_single_device_bits(int n) {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  const int nb = trn::hardware_spec(trn::Generation::trn1).pmax;
  const LuResult x = run_lu<T>(MPI_COMM_WORLD, nprow, npcol, {n, n, nb, 0, 'N'});
  auto whole = global_matrix<T>(n, n, 21);
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  trn::solver::Settings s;
  const int info = sizeof(T) == 8 ? trn::solver::dgetrf(s, n, n, reinterpret_cast<double*>(whole.data()), n, ipiv.data())
                                  : trn::solver::sgetrf(s, n, n, reinterpret_cast<float*>(whole.data()), n, ipiv.data());
  const std::string what = std::string(Traits<T>::name) + "getrf n " + std::to_string(n) + " nb " + std::to_string(nb);
  check_all_ranks(x.info, info, what + ": info equals trnsolver's");
  check(same_piece<T>(bytes_of(whole), x.a, n, n, nb, nprow, npcol), what + ": factor bits equal single-device trnsolver's");
  const int myrow = g_rank % nprow;
  bool piv_same = true;
  for (std::size_t il = 0; il < x.ipiv.size() && static_cast<int>(il) < trn::blasmp::numroc(n, nb, myrow, 0, nprow); ++il) {
    const std::size_t ig = (il / static_cast<std::size_t>(nb) * static_cast<std::size_t>(nprow) + static_cast<std::size_t>(myrow)) *
                               static_cast<std::size_t>(nb) + il % static_cast<std::size_t>(nb);
    piv_same = piv_same && x.ipiv[il] == ipiv[ig];
  }
  check(piv_same, what + ": pivots equal single-device trnsolver's");
  if (g_rank == 0) std::printf("%-40s on %dx%d: bits and pivots checked against trnsolver's single-device call\n", what.c_str(), nprow, npcol);
}

// A matrix with an exactly zero column: info is the column's index on every rank, as p?getrf's.
void lu_singular() {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  trn::blasmp::Grid g;
  trn::blasmp::grid_create(g, nprow, npcol, trn::blasmp::GridLayout::col_major, MPI_COMM_WORLD);
  const int n = 40, nb = 8, zero_col = 13;
  auto whole = global_matrix<double>(n, n, 23);
  for (int i = 0; i < n; ++i) whole[static_cast<std::size_t>(i + zero_col * n)] = 0;
  const auto da = trn::blasmp::make_descriptor(g, n, n, nb, nb, 0, 0, TRN_R_64F);
  int lr, lc;
  auto A = local_part(whole, n, n, nb, nb, g.myrow, g.mycol, nprow, npcol, &lr, &lc);
  std::vector<std::int64_t> ipiv(static_cast<std::size_t>(std::max(lr, 1)));
  smp::GetrfArgs f;
  f.fp64 = true, f.m = n, f.n = n, f.a = A.data(), f.desc_a = &da, f.ipiv = ipiv.data();
  std::vector<char> work(smp::getrf_workspace_bytes(f));
  f.work = work.data(), f.work_bytes = work.size();
  const int info = smp::getrf(trn::blas::Settings{}, f);
  check_all_ranks(info, zero_col + 1, "getrf info of a matrix with a zero column is that column (1-based)");
  trn::blasmp::grid_destroy(g);
}

}  // namespace

void run_lu_tests() {
  lu_case<double>({60, 60, 16, 3, 'N'});
  lu_case<float>({52, 52, 8, 2, 'N'});
  lu_case<double>({45, 45, 8, 2, 'T'});
  lu_case<std::complex<double>>({40, 40, 8, 2, 'C'});
  lu_case<std::complex<float>>({36, 36, 8, 1, 'N'});
  lu_case<double>({56, 40, 8, 0, 'N'});
  lu_case<double>({40, 56, 16, 0, 'N'});
  lu_single_device_bits<float>(160);
  lu_single_device_bits<double>(160);
  // Step 0's 172 trailing columns take trnblas's block-inverse TRSM on one device; a process column's
  // share (128 or 44) would substitute if chosen by its own count (Settings::trsm_whole_rhs).
  lu_single_device_bits<float>(300);
  lu_singular();
}

}  // namespace mpitest
