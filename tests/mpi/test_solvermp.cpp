// trnsolverMp Potrf / Potrs under MPI (ctest label mpi, 1, 2, 4 ranks): against ScaLAPACK's
// p?potrf / p?potrs on the same grid (oracle only), the same bits as on a 1 x 1 grid, the same info
// on every rank for a matrix that is not positive definite.
#include <cmath>
#include <cstring>

#include "mpi_util.hpp"
#include "trn/solvermp/solvermp.hpp"

extern "C" {
void pspotrf_(const char*, const int*, float*, const int*, const int*, const int*, int*);
void pdpotrf_(const char*, const int*, double*, const int*, const int*, const int*, int*);
void pspotrs_(const char*, const int*, const int*, const float*, const int*, const int*, const int*, float*, const int*,
              const int*, const int*, int*);
void pdpotrs_(const char*, const int*, const int*, const double*, const int*, const int*, const int*, double*, const int*,
              const int*, const int*, int*);
}

namespace mpitest {

namespace {

namespace smp = trn::solvermp;

// A symmetric positive definite n x n matrix: (M + M^T) / 2 + n I; `bad` > 0: A(bad-1, bad-1) = -n
// (the leading minor of order `bad` is not positive definite).
template <class T>
std::vector<T> spd(int n, int bad) {
  auto g = global_matrix<T>(n, n, 11);
  std::vector<T> a(g.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) a[i + static_cast<std::size_t>(j) * n] = (g[i + static_cast<std::size_t>(j) * n] + g[j + static_cast<std::size_t>(i) * n]) / 2;
  for (int i = 0; i < n; ++i) a[i + static_cast<std::size_t>(i) * n] += static_cast<T>(n);
  if (bad > 0) a[(bad - 1) + static_cast<std::size_t>(bad - 1) * n] = static_cast<T>(-n);
  return a;
}

struct Result {
  std::vector<char> a, b;  // this rank's pieces of the factor and of the solution
  int info = 0;
  double potrf_ns = 0;     // the rank's modeled Potrf time
};

// Potrf (and Potrs on nrhs right-hand sides) on an nprow x npcol grid over comm, blocks nb.
template <class T>
Result run(MPI_Comm comm, int nprow, int npcol, int n, int nrhs, int nb, bool upper, int bad) {
  trn::blasmp::Grid g;
  trn::blasmp::grid_create(g, nprow, npcol, trn::blasmp::GridLayout::col_major, comm);
  const trnDataType_t type = sizeof(T) == 8 ? TRN_R_64F : TRN_R_32F;
  const auto da = trn::blasmp::make_descriptor(g, n, n, nb, nb, 0, 0, type);
  const auto db = trn::blasmp::make_descriptor(g, n, nrhs, nb, nb, 0, 0, type);
  int lr, lc;
  auto A = local_part(spd<T>(n, bad), n, n, nb, nb, g.myrow, g.mycol, nprow, npcol, &lr, &lc);
  auto B = local_part(global_matrix<T>(n, nrhs, 12), n, nrhs, nb, nb, g.myrow, g.mycol, nprow, npcol, &lr, &lc);
  smp::PotrfArgs f;
  f.fp64 = sizeof(T) == 8;
  f.uplo = upper ? trn::blas::Uplo::upper : trn::blas::Uplo::lower;
  f.n = n, f.a = A.data(), f.desc_a = &da;
  std::vector<char> work(smp::potrf_workspace_bytes(f));
  f.work = work.data(), f.work_bytes = work.size();
  Result r;
  trn::blas::CallReport rep;
  r.info = smp::potrf(trn::blas::Settings{}, f, &rep);
  if (r.info == 0) {
    smp::PotrsArgs s;
    s.fp64 = f.fp64, s.uplo = f.uplo, s.n = n, s.nrhs = nrhs, s.a = A.data(), s.desc_a = &da, s.b = B.data(), s.desc_b = &db;
    std::vector<char> w2(smp::potrs_workspace_bytes(s));
    s.work = w2.data(), s.work_bytes = w2.size();
    smp::potrs(trn::blas::Settings{}, s);
  }
  check(rep.profile.total_ns > 0, "potrf has a modeled time");
  r.potrf_ns = rep.profile.total_ns;
  r.a.assign(reinterpret_cast<char*>(A.data()), reinterpret_cast<char*>(A.data() + A.size()));
  r.b.assign(reinterpret_cast<char*>(B.data()), reinterpret_cast<char*>(B.data() + B.size()));
  trn::blasmp::grid_destroy(g);
  return r;
}

template <class T>
Result run_ref(int nprow, int npcol, int n, int nrhs, int nb, bool upper, int bad) {
  int ctxt = 0, pr = 0, pc = 0, myrow = 0, mycol = 0, info = 0, lr, lc;
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "C", nprow, npcol);
  Cblacs_gridinfo(ctxt, &pr, &pc, &myrow, &mycol);
  auto A = local_part(spd<T>(n, bad), n, n, nb, nb, myrow, mycol, nprow, npcol, &lr, &lc);
  const int lda = std::max(lr, 1);
  auto B = local_part(global_matrix<T>(n, nrhs, 12), n, nrhs, nb, nb, myrow, mycol, nprow, npcol, &lr, &lc);
  int desca[9], descb[9];
  const int zero = 0, one = 1;
  descinit_(desca, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lda, &info);
  descinit_(descb, &n, &nrhs, &nb, &nb, &zero, &zero, &ctxt, &lda, &info);
  const char* u = upper ? "U" : "L";
  Result r;
  if constexpr (sizeof(T) == 8) pdpotrf_(u, &n, A.data(), &one, &one, desca, &r.info);
  else pspotrf_(u, &n, A.data(), &one, &one, desca, &r.info);
  if (r.info == 0) {
    if constexpr (sizeof(T) == 8) pdpotrs_(u, &n, &nrhs, A.data(), &one, &one, desca, B.data(), &one, &one, descb, &info);
    else pspotrs_(u, &n, &nrhs, A.data(), &one, &one, desca, B.data(), &one, &one, descb, &info);
  }
  Cblacs_gridexit(ctxt);
  r.a.assign(reinterpret_cast<char*>(A.data()), reinterpret_cast<char*>(A.data() + A.size()));
  r.b.assign(reinterpret_cast<char*>(B.data()), reinterpret_cast<char*>(B.data() + B.size()));
  return r;
}

// max |x - ref| / max(1, max |ref|) over every rank's piece.
template <class T>
double rel_error(const std::vector<char>& x, const std::vector<char>& ref) {
  const T* a = reinterpret_cast<const T*>(x.data());
  const T* b = reinterpret_cast<const T*>(ref.data());
  double mine[2] = {0, 1}, all[2];
  for (std::size_t i = 0; i < std::min(x.size(), ref.size()) / sizeof(T); ++i) {
    mine[0] = std::max(mine[0], std::fabs(static_cast<double>(a[i]) - static_cast<double>(b[i])));
    mine[1] = std::max(mine[1], std::fabs(static_cast<double>(b[i])));
  }
  MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return all[0] / all[1];
}

template <class T>
void potrf_case(int n, int nrhs, int nb, bool upper) {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  const std::string what = std::string(sizeof(T) == 8 ? "d" : "s") + "potrf/potrs " + (upper ? "U" : "L") + " n " +
                           std::to_string(n) + " nb " + std::to_string(nb);
  const Result x = run<T>(MPI_COMM_WORLD, nprow, npcol, n, nrhs, nb, upper, 0);
  const Result r = run_ref<T>(nprow, npcol, n, nrhs, nb, upper, 0);
  check_all_ranks(x.info, 0, what + " info");
  const double u = sizeof(T) == 8 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
  const double ef = rel_error<T>(x.a, r.a) / (16.0 * (n + 2) * u), es = rel_error<T>(x.b, r.b) / (64.0 * (n + 2) * u);
  check(ef <= 1.0, what + ": factor error / bound " + std::to_string(ef));
  check(es <= 1.0, what + ": solution error / bound " + std::to_string(es));
  const Result one = run<T>(MPI_COMM_SELF, 1, 1, n, nrhs, nb, upper, 0);
  int lr, lc;
  const auto fa = local_part(std::vector<T>(reinterpret_cast<const T*>(one.a.data()), reinterpret_cast<const T*>(one.a.data()) + n * n),
                             n, n, nb, nb, g_rank % nprow, g_rank / nprow, nprow, npcol, &lr, &lc);
  check(std::memcmp(fa.data(), x.a.data(), std::min(x.a.size(), fa.size() * sizeof(T))) == 0 && x.a.size() == fa.size() * sizeof(T),
        what + ": factor bits equal the 1 x 1 grid's");
  const auto xb = local_part(std::vector<T>(reinterpret_cast<const T*>(one.b.data()), reinterpret_cast<const T*>(one.b.data()) + n * nrhs),
                             n, nrhs, nb, nb, g_rank % nprow, g_rank / nprow, nprow, npcol, &lr, &lc);
  check(x.b.size() >= xb.size() * sizeof(T) && std::memcmp(xb.data(), x.b.data(), xb.size() * sizeof(T)) == 0,
        what + ": solution bits equal the 1 x 1 grid's");
  double slowest = 0;
  MPI_Allreduce(&x.potrf_ns, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (g_rank == 0)
    std::printf("%-34s on %dx%d: factor error / bound %.3g, solution %.3g; modeled potrf %.1f us (1 rank %.1f us)\n",
                what.c_str(), nprow, npcol, ef, es, slowest * 1e-3, one.potrf_ns * 1e-3);
}

// A matrix whose leading minor of order `bad` is not positive definite: the same info everywhere, ScaLAPACK's.
void potrf_not_spd() {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  const int n = 40, nb = 8, bad = 21;
  const Result x = run<double>(MPI_COMM_WORLD, nprow, npcol, n, 1, nb, false, bad);
  const Result r = run_ref<double>(nprow, npcol, n, 1, nb, false, bad);
  check_all_ranks(x.info, r.info, "potrf info of a non-SPD matrix equals pdpotrf's");
  check(x.info == bad, "potrf info is the non-positive-definite minor's order: " + std::to_string(x.info));
}

}  // namespace

void run_solver_tests() {
  potrf_case<float>(45, 3, 8, false);
  potrf_case<float>(45, 3, 16, true);
  potrf_case<double>(50, 2, 16, false);
  potrf_case<double>(37, 4, 8, true);
  // The panel's 236 rows below the first block take trnblas's block-inverse TRSM on the 1 x 1 grid;
  // a process row's share (108 or 128 rows) would substitute if chosen by its own count
  // (Settings::trsm_whole_rhs, docs/scale-out.md "Choices by size").
  potrf_case<float>(300, 2, 64, false);
  potrf_not_spd();
}

}  // namespace mpitest
