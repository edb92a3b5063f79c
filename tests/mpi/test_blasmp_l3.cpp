// trnblasMp's op T / C and complex GEMM, SYRK, GEADD / TRADD and TRSM under MPI (ctest label mpi, 1, 2
// and 4 ranks): each against ScaLAPACK's p?gemm / p?syrk / p?geadd / p?tradd / p?trsm on the same
// grid (oracle only), each distributed result bit for bit equal to the same call on a 1 x 1 grid
// (the determinism rule: the block sizes fix every element's order, never the grid), and bad input
// returning the same status on every rank.
#include <cmath>
#include <cstring>
#include <functional>

#include "mpi_util.hpp"
#include "trnblasMp.h"


namespace mpitest {

namespace {

using cf = std::complex<float>;
using cz = std::complex<double>;

// The PBLAS routines of one element type.
struct Pblas {
  decltype(&psgemm_) gemm;
  decltype(&pssyrk_) syrk;
  decltype(&psgeadd_) geadd;
  decltype(&pstradd_) tradd;
  decltype(&pstrsm_) trsm;
};
template <class T>
Pblas pblas() {
  if constexpr (std::is_same_v<T, float>) return {psgemm_, pssyrk_, psgeadd_, pstradd_, pstrsm_};
  if constexpr (std::is_same_v<T, double>) return {pdgemm_, pdsyrk_, pdgeadd_, pdtradd_, pdtrsm_};
  if constexpr (std::is_same_v<T, cf>) return {pcgemm_, pcsyrk_, pcgeadd_, pctradd_, pctrsm_};
  if constexpr (std::is_same_v<T, cz>) return {pzgemm_, pzsyrk_, pzgeadd_, pztradd_, pztrsm_};
}
template <class T>
trnDataType_t type_of() {
  if constexpr (std::is_same_v<T, float>) return TRN_R_32F;
  if constexpr (std::is_same_v<T, double>) return TRN_R_64F;
  if constexpr (std::is_same_v<T, cf>) return TRN_C_32F;
  return TRN_C_64F;
}
template <class T>
constexpr bool is_double() {
  return std::is_same_v<T, double> || std::is_same_v<T, cz>;
}
template <class T>
trnblasComputeType_t compute_of() {
  return is_double<T>() ? TRNBLAS_COMPUTE_64F : TRNBLAS_COMPUTE_32F;
}
template <class T>
const char* name_of() {
  if constexpr (std::is_same_v<T, float>) return "s";
  if constexpr (std::is_same_v<T, double>) return "d";
  if constexpr (std::is_same_v<T, cf>) return "c";
  return "z";
}
template <class T>
T scalar(double re, double im) {
  if constexpr (is_complex<T>::value)
    return T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(im));
  else
    return static_cast<T>(re);
}

// One global matrix of a case: rows x cols in mb x nb blocks from seed; `dominant`: n added to the
// diagonal (a well-conditioned triangle for TRSM).
struct Spec {
  int rows, cols, mb, nb;
  unsigned seed;
  bool dominant = false;
};

template <class T>
std::vector<T> global_of(const Spec& s) {
  auto g = global_matrix<T>(s.rows, s.cols, s.seed);
  if (s.dominant)
    for (int i = 0; i < std::min(s.rows, s.cols); ++i) g[i + static_cast<std::size_t>(i) * s.rows] += scalar<T>(s.rows, 0);
  return g;
}

// A case: its matrices (the last one is overwritten: the output), the trnblasMp call (bufferSize +
// call on the descriptors and local pieces) and the PBLAS call on ScaLAPACK descriptors.
template <class T>
struct Case {
  std::string name;
  std::vector<Spec> mats;
  std::function<int(trnblasMpHandle_t, const std::vector<trnblasMpMatrixDescriptor_t>&, std::vector<std::vector<T>>&)> trn;
  std::function<void(const std::vector<std::vector<int>>&, std::vector<std::vector<T>>&)> ref;
  double tol;  // the bound on max |x - ref| / max(1, max |ref|), in units of the format's u
};

// The case's output piece on a grid over comm (process (rank % nprow, rank / nprow)).
template <class T>
std::vector<T> run_trn(MPI_Comm comm, int nprow, int npcol, const Case<T>& c, int* status, double* modeled_ns = nullptr) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const int myrow = rank % nprow, mycol = rank / nprow;
  trnblasMpHandle_t h = nullptr;
  trnblasMpCreate(&h, nullptr);
  trnblasMpGrid_t grid = nullptr;
  *status = trnblasMpGridCreate(nprow, npcol, TRNBLASMP_GRID_LAYOUT_COL_MAJOR, comm, &grid);
  std::vector<std::vector<T>> locals;
  std::vector<trnblasMpMatrixDescriptor_t> descs;
  int lr = 0, lc = 0;
  for (const Spec& s : c.mats) {
    locals.push_back(local_part(global_of<T>(s), s.rows, s.cols, s.mb, s.nb, myrow, mycol, nprow, npcol, &lr, &lc));
    descs.emplace_back();
    trnblasMpMatrixDescriptorCreate(s.rows, s.cols, s.mb, s.nb, 0, 0, std::max(lr, 1), type_of<T>(), grid, &descs.back());
  }
  if (*status == TRNBLASMP_STATUS_SUCCESS) *status = c.trn(h, descs, locals);
  trnProfile_t prof{};
  if (modeled_ns != nullptr && trnblasMpGetLastProfile(h, &prof) == TRNBLASMP_STATUS_SUCCESS) *modeled_ns = prof.total_ns;
  for (auto d : descs) trnblasMpMatrixDescriptorDestroy(d);
  trnblasMpGridDestroy(grid);
  trnblasMpDestroy(h);
  auto out = locals.back();
  out.resize(static_cast<std::size_t>(lr) * lc);
  return out;
}

template <class T>
std::vector<T> run_ref(int nprow, int npcol, const Case<T>& c) {
  int ctxt = 0, pr = 0, pc = 0, myrow = 0, mycol = 0, info = 0, lr = 0, lc = 0;
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "C", nprow, npcol);
  Cblacs_gridinfo(ctxt, &pr, &pc, &myrow, &mycol);
  std::vector<std::vector<T>> locals;
  std::vector<std::vector<int>> descs;
  const int zero = 0;
  for (const Spec& s : c.mats) {
    locals.push_back(local_part(global_of<T>(s), s.rows, s.cols, s.mb, s.nb, myrow, mycol, nprow, npcol, &lr, &lc));
    descs.emplace_back(9);
    const int lld = std::max(lr, 1);
    descinit_(descs.back().data(), &s.rows, &s.cols, &s.mb, &s.nb, &zero, &zero, &ctxt, &lld, &info);
  }
  c.ref(descs, locals);
  Cblacs_gridexit(ctxt);
  auto out = locals.back();
  out.resize(static_cast<std::size_t>(lr) * lc);
  return out;
}

template <class T>
void run_case(const Case<T>& c) {
  int nprow, npcol, st = 0;
  grid_shape(g_size, &nprow, &npcol);
  const std::string what = std::string(name_of<T>()) + " " + c.name;
  double mine_ns = 0, slowest_ns = 0, one_ns = 0;
  const auto X = run_trn(MPI_COMM_WORLD, nprow, npcol, c, &st, &mine_ns);
  MPI_Allreduce(&mine_ns, &slowest_ns, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  check_all_ranks(st, TRNBLASMP_STATUS_SUCCESS, what + " status");
  const auto R = run_ref(nprow, npcol, c);
  double err = 0, scale = 1;
  for (std::size_t i = 0; i < R.size() && i < X.size(); ++i) {
    err = std::max(err, static_cast<double>(std::abs(X[i] - R[i])));
    scale = std::max(scale, static_cast<double>(std::abs(R[i])));
  }
  double mine[2] = {err, scale}, all[2];
  MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const double u = is_double<T>() ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
  const double ratio = all[0] / all[1] / (c.tol * u);
  check(X.size() == R.size(), what + ": local sizes match ScaLAPACK's");
  check(ratio <= 1.0, what + ": error / bound " + std::to_string(ratio));
  // The same call on one rank's 1 x 1 grid: the same bits in this rank's piece.
  const auto one = run_trn(MPI_COMM_SELF, 1, 1, c, &st, &one_ns);
  const Spec& o = c.mats.back();
  int lr = 0, lc = 0;
  const auto mine_part = local_part(one, o.rows, o.cols, o.mb, o.nb, g_rank % nprow, g_rank / nprow, nprow, npcol, &lr, &lc);
  check(st == TRNBLASMP_STATUS_SUCCESS && X.size() == static_cast<std::size_t>(lr) * lc &&
            std::memcmp(X.data(), mine_part.data(), X.size() * sizeof(T)) == 0,
        what + ": bits equal the 1 x 1 grid's");
  if (g_rank == 0)
    std::printf("%-34s on %dx%d: max error / bound %.3g; modeled %.1f us (1 device %.1f us)\n", what.c_str(), nprow, npcol,
                ratio, slowest_ns * 1e-3, one_ns * 1e-3);
}

// The bufferSize + call protocol for every routine: the workspace is what _bufferSize says.
template <class Sizing, class Call>
int with_workspace(Sizing sizing, Call call) {
  size_t wd = 0, wh = 0;
  const int st = sizing(&wd, &wh);
  if (st != TRNBLASMP_STATUS_SUCCESS) return st;
  std::vector<char> work(std::max<size_t>(wd, 1));
  return call(work.data(), wd);
}

const trnblasOperation_t kOp[3] = {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C};
const char* const kOpChar[3] = {"N", "T", "C"};

template <class T>
Case<T> gemm_case(int ta, int tb, int m, int n, int k) {
  const int bs = 16;
  Case<T> c;
  c.name = std::string("gemm ") + kOpChar[ta] + kOpChar[tb];
  c.mats = {{ta == 0 ? m : k, ta == 0 ? k : m, bs, bs, 1}, {tb == 0 ? k : n, tb == 0 ? n : k, bs, bs, 2}, {m, n, bs, bs, 3}};
  const T alpha = scalar<T>(1.5, 0.5), beta = scalar<T>(-0.5, 0.25);
  c.trn = [=](trnblasMpHandle_t h, const std::vector<trnblasMpMatrixDescriptor_t>& d, std::vector<std::vector<T>>& l) {
    return with_workspace(
        [&](size_t* wd, size_t* wh) {
          return trnblasMpGemm_bufferSize(h, kOp[ta], kOp[tb], m, n, k, &alpha, l[0].data(), 1, 1, d[0], l[1].data(), 1, 1,
                                          d[1], &beta, l[2].data(), 1, 1, d[2], compute_of<T>(), wd, wh);
        },
        [&](void* w, size_t ws) {
          return trnblasMpGemm(h, kOp[ta], kOp[tb], m, n, k, &alpha, l[0].data(), 1, 1, d[0], l[1].data(), 1, 1, d[1], &beta,
                               l[2].data(), 1, 1, d[2], compute_of<T>(), w, ws, nullptr, 0);
        });
  };
  c.ref = [=](const std::vector<std::vector<int>>& d, std::vector<std::vector<T>>& l) {
    const int one = 1;
    pblas<T>().gemm(kOpChar[ta], kOpChar[tb], &m, &n, &k, &alpha, l[0].data(), &one, &one, d[0].data(), l[1].data(), &one,
                    &one, d[1].data(), &beta, l[2].data(), &one, &one, d[2].data());
  };
  c.tol = 4.0 * (k + 2);
  return c;
}

template <class T>
Case<T> syrk_case(int uplo, int trans, int n, int k) {
  const int bs = 16;
  Case<T> c;
  c.name = std::string("syrk ") + (uplo ? "U" : "L") + kOpChar[trans];
  c.mats = {{trans == 0 ? n : k, trans == 0 ? k : n, bs, bs, 4}, {n, n, bs, bs, 5}};
  const T alpha = scalar<T>(0.75, -0.25), beta = scalar<T>(1.25, 0.5);
  const trnblasFillMode_t fill = uplo ? TRNBLAS_FILL_MODE_UPPER : TRNBLAS_FILL_MODE_LOWER;
  c.trn = [=](trnblasMpHandle_t h, const std::vector<trnblasMpMatrixDescriptor_t>& d, std::vector<std::vector<T>>& l) {
    return with_workspace(
        [&](size_t* wd, size_t* wh) {
          return trnblasMpSyrk_bufferSize(h, fill, kOp[trans], n, k, &alpha, l[0].data(), 1, 1, d[0], &beta, l[1].data(),
                                          1, 1, d[1], compute_of<T>(), wd, wh);
        },
        [&](void* w, size_t ws) {
          return trnblasMpSyrk(h, fill, kOp[trans], n, k, &alpha, l[0].data(), 1, 1, d[0], &beta, l[1].data(), 1, 1, d[1],
                               compute_of<T>(), w, ws, nullptr, 0);
        });
  };
  c.ref = [=](const std::vector<std::vector<int>>& d, std::vector<std::vector<T>>& l) {
    const int one = 1;
    pblas<T>().syrk(uplo ? "U" : "L", kOpChar[trans], &n, &k, &alpha, l[0].data(), &one, &one, d[0].data(), &beta,
                    l[1].data(), &one, &one, d[1].data());
  };
  c.tol = 4.0 * (k + 2);
  return c;
}

// Geadd (uplo < 0) or Tradd.
template <class T>
Case<T> add_case(int uplo, int trans, int m, int n, int mb_a) {
  const int bs = 16;
  Case<T> c;
  c.name = uplo < 0 ? std::string("geadd ") + kOpChar[trans] : std::string("tradd ") + (uplo ? "U" : "L") + kOpChar[trans];
  c.mats = {{trans == 0 ? m : n, trans == 0 ? n : m, mb_a, bs, 6}, {m, n, bs, bs, 7}};
  const T alpha = scalar<T>(-1.25, 0.5), beta = scalar<T>(0.5, -0.75);
  const trnblasFillMode_t fill = uplo == 1 ? TRNBLAS_FILL_MODE_UPPER : TRNBLAS_FILL_MODE_LOWER;
  c.trn = [=](trnblasMpHandle_t h, const std::vector<trnblasMpMatrixDescriptor_t>& d, std::vector<std::vector<T>>& l) {
    if (uplo < 0)
      return with_workspace(
          [&](size_t* wd, size_t* wh) {
            return trnblasMpGeadd_bufferSize(h, kOp[trans], m, n, &alpha, l[0].data(), 1, 1, d[0], &beta, l[1].data(), 1, 1,
                                             d[1], wd, wh);
          },
          [&](void* w, size_t ws) {
            return trnblasMpGeadd(h, kOp[trans], m, n, &alpha, l[0].data(), 1, 1, d[0], &beta, l[1].data(), 1, 1, d[1], w, ws,
                                  nullptr, 0);
          });
    return with_workspace(
        [&](size_t* wd, size_t* wh) {
          return trnblasMpTradd_bufferSize(h, fill, kOp[trans], m, n, &alpha, l[0].data(), 1, 1, d[0], &beta, l[1].data(), 1,
                                           1, d[1], wd, wh);
        },
        [&](void* w, size_t ws) {
          return trnblasMpTradd(h, fill, kOp[trans], m, n, &alpha, l[0].data(), 1, 1, d[0], &beta, l[1].data(), 1, 1, d[1],
                                w, ws, nullptr, 0);
        });
  };
  c.ref = [=](const std::vector<std::vector<int>>& d, std::vector<std::vector<T>>& l) {
    const int one = 1;
    if (uplo < 0)
      pblas<T>().geadd(kOpChar[trans], &m, &n, &alpha, l[0].data(), &one, &one, d[0].data(), &beta, l[1].data(), &one, &one,
                       d[1].data());
    else
      pblas<T>().tradd(uplo ? "U" : "L", kOpChar[trans], &m, &n, &alpha, l[0].data(), &one, &one, d[0].data(), &beta,
                       l[1].data(), &one, &one, d[1].data());
  };
  c.tol = 4.0;
  return c;
}

template <class T>
Case<T> trsm_case(int side, int uplo, int trans, int diag, int m, int n, int mb_a) {
  const int bs = 16;
  Case<T> c;
  c.name = std::string("trsm ") + (side ? "R" : "L") + (uplo ? "U" : "L") + kOpChar[trans] + (diag ? "U" : "N");
  const int na = side ? n : m;
  c.mats = {{na, na, mb_a, mb_a, 8, true}, {m, n, bs, bs, 9}};
  const T alpha = scalar<T>(2.0, -1.0);
  const trnblasSideMode_t sd = side ? TRNBLAS_SIDE_RIGHT : TRNBLAS_SIDE_LEFT;
  const trnblasFillMode_t fill = uplo ? TRNBLAS_FILL_MODE_UPPER : TRNBLAS_FILL_MODE_LOWER;
  const trnblasDiagType_t dg = diag ? TRNBLAS_DIAG_UNIT : TRNBLAS_DIAG_NON_UNIT;
  c.trn = [=](trnblasMpHandle_t h, const std::vector<trnblasMpMatrixDescriptor_t>& d, std::vector<std::vector<T>>& l) {
    return with_workspace(
        [&](size_t* wd, size_t* wh) {
          return trnblasMpTrsm_bufferSize(h, sd, fill, kOp[trans], dg, m, n, &alpha, l[0].data(), 1, 1, d[0], l[1].data(), 1,
                                          1, d[1], compute_of<T>(), wd, wh);
        },
        [&](void* w, size_t ws) {
          return trnblasMpTrsm(h, sd, fill, kOp[trans], dg, m, n, &alpha, l[0].data(), 1, 1, d[0], l[1].data(), 1, 1, d[1],
                               compute_of<T>(), w, ws, nullptr, 0);
        });
  };
  c.ref = [=](const std::vector<std::vector<int>>& d, std::vector<std::vector<T>>& l) {
    const int one = 1;
    pblas<T>().trsm(side ? "R" : "L", uplo ? "U" : "L", kOpChar[trans], diag ? "U" : "N", &m, &n, &alpha, l[0].data(), &one,
                    &one, d[0].data(), l[1].data(), &one, &one, d[1].data());
  };
  // Unit diagonal: the triangle is not dominant (its diagonal is 1): a looser, conditioning-bound tolerance.
  c.tol = diag ? 4096.0 * na : 16.0 * (na + 2);
  return c;
}

// Every op, uplo, side and diag once per type; the complex types skip the cases whose only
// difference from the real ones is an op without conjugation (the label's runtime stays small).
template <class T>
void level3_cases() {
  constexpr bool all = !is_complex<T>::value;
  if (all) run_case(gemm_case<T>(1, 0, 40, 36, 50));
  run_case(gemm_case<T>(0, 2, 40, 36, 50));
  run_case(gemm_case<T>(2, 1, 33, 47, 29));
  run_case(syrk_case<T>(0, 0, 45, 30));
  if (all) run_case(syrk_case<T>(1, 1, 45, 30));
  if (all) run_case(add_case<T>(-1, 0, 37, 41, 8));
  run_case(add_case<T>(-1, 2, 37, 41, 16));
  if (all) run_case(add_case<T>(1, 0, 37, 41, 16));
  run_case(add_case<T>(0, 1, 41, 37, 16));
  if (all) run_case(trsm_case<T>(0, 0, 0, 0, 45, 30, 16));
  run_case(trsm_case<T>(0, 1, 1, 0, 45, 30, 8));
  run_case(trsm_case<T>(1, 0, 2, 0, 30, 45, 16));
  run_case(trsm_case<T>(1, 1, 0, 1, 30, 20, 16));
}

// Bad input of the new routines: every rank returns the same status.
void level3_bad_input() {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  trnblasMpHandle_t h = nullptr;
  trnblasMpCreate(&h, nullptr);
  trnblasMpGrid_t grid = nullptr;
  trnblasMpGridCreate(nprow, npcol, TRNBLASMP_GRID_LAYOUT_COL_MAJOR, MPI_COMM_WORLD, &grid);
  const int n = 24, myrow = g_rank % nprow, mycol = g_rank / nprow;
  int lr = 0, lc = 0;
  auto A = local_part(global_matrix<cf>(n, n, 1), n, n, 8, 8, myrow, mycol, nprow, npcol, &lr, &lc);
  auto B = A;
  trnblasMpMatrixDescriptor_t da = nullptr, dr = nullptr;
  trnblasMpMatrixDescriptorCreate(n, n, 8, 8, 0, 0, std::max(lr, 1), TRN_C_32F, grid, &da);
  trnblasMpMatrixDescriptorCreate(n, n, 8, 8, 0, 0, std::max(lr, 1), TRN_R_32F, grid, &dr);
  const cf one(1, 0);
  size_t wd = 0, wh = 0;
  check_all_ranks(trnblasMpSyrk_bufferSize(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_C, n, n, &one, A.data(), 1, 1, da, &one,
                                           B.data(), 1, 1, da, TRNBLAS_COMPUTE_32F, &wd, &wh),
                  TRNBLASMP_STATUS_INVALID_VALUE, "complex syrk with trans C");
  const trnblasSideMode_t side = g_rank == 0 ? TRNBLAS_SIDE_LEFT : TRNBLAS_SIDE_RIGHT;
  check_all_ranks(trnblasMpTrsm_bufferSize(h, side, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, n, n, &one,
                                           A.data(), 1, 1, da, B.data(), 1, 1, da, TRNBLAS_COMPUTE_32F, &wd, &wh),
                  g_size > 1 ? TRNBLASMP_STATUS_INVALID_VALUE : TRNBLASMP_STATUS_SUCCESS, "trsm side differing across ranks");
  check_all_ranks(trnblasMpTrsm_bufferSize(h, TRNBLAS_SIDE_LEFT, static_cast<trnblasFillMode_t>(2), TRNBLAS_OP_N,
                                           TRNBLAS_DIAG_NON_UNIT, n, n, &one, A.data(), 1, 1, da, B.data(), 1, 1, da,
                                           TRNBLAS_COMPUTE_32F, &wd, &wh),
                  TRNBLASMP_STATUS_INVALID_VALUE, "trsm fill mode FULL");
  check_all_ranks(trnblasMpGeadd_bufferSize(h, TRNBLAS_OP_N, n, n, &one, A.data(), 1, 1, dr, &one, B.data(), 1, 1, da, &wd,
                                            &wh),
                  TRNBLASMP_STATUS_INVALID_VALUE, "geadd with A and C of different types");
  check_all_ranks(trnblasMpTradd(h, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, n, n, &one, A.data(), 1, 1, da, &one, B.data(), 1,
                                 1, da, nullptr, g_rank == 0 ? 0 : 1 << 20, nullptr, 0),
                  TRNBLASMP_STATUS_INVALID_VALUE, "tradd without its workspace on rank 0 (and NULL elsewhere)");
  check_all_ranks(trnblasMpSyrk_bufferSize(g_rank == 0 ? nullptr : h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, n, n, &one,
                                           A.data(), 1, 1, da, &one, B.data(), 1, 1, da, TRNBLAS_COMPUTE_32F, &wd, &wh),
                  TRNBLASMP_STATUS_NOT_INITIALIZED, "syrk with a NULL handle on rank 0");
  trnblasMpMatrixDescriptorDestroy(da);
  trnblasMpMatrixDescriptorDestroy(dr);
  trnblasMpGridDestroy(grid);
  trnblasMpDestroy(h);
}

}  // namespace

void run_level3_tests() {
  level3_bad_input();
  level3_cases<float>();
  level3_cases<double>();
  level3_cases<cf>();
  level3_cases<cz>();
}

}  // namespace mpitest
