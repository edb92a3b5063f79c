// trnblasMp under MPI (ctest label mpi: mpiexec -n 1, 2, 4): results against ScaLAPACK's
// psgemm/pdgemm on the same grid (oracle only), the 1-rank call against trnblas's own bits, the same
// bits for every grid that splits K the same way, the modeled report (link records, plan prediction)
// and bad input: a status on every rank, the same on every rank, and no hang.
// A plain MPI program (GoogleTest's runner is per process): every rank runs every check, the exit
// status is 1 when any check failed on any rank.
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "trn/blasmp/blasmp.hpp"
#include "trnblas.h"
#include "trnblasMp.h"
#include "mpi_util.hpp"

namespace {

using namespace mpitest;

struct Shape {
  int m, n, k, mb, nb, kb;  // kb: A's column block = B's row block
};

// One trnblasMp Gemm on grid (nprow x npcol) over `comm`; returns this rank's local C and the report.
template <class T>
std::vector<T> run_trnblasmp(MPI_Comm comm, int nprow, int npcol, const Shape& s, T alpha, T beta,
                             trnblasMpStatus_t* status, std::string* plan = nullptr, trnProfile_t* prof = nullptr) {
  const bool fp64 = sizeof(T) == 8;
  const trnDataType_t type = fp64 ? TRN_R_64F : TRN_R_32F;
  trnblasMpHandle_t h = nullptr;
  trnblasMpCreate(&h, nullptr);
  trnblasMpGrid_t grid = nullptr;
  *status = trnblasMpGridCreate(nprow, npcol, TRNBLASMP_GRID_LAYOUT_COL_MAJOR, comm, &grid);
  if (*status != TRNBLASMP_STATUS_SUCCESS) return {};
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const int myrow = rank % nprow, mycol = rank / nprow;
  int ar, ac, br, bc, cr, cc;
  const auto A = local_part(global_matrix<T>(s.m, s.k, 1), s.m, s.k, s.mb, s.kb, myrow, mycol, nprow, npcol, &ar, &ac);
  const auto B = local_part(global_matrix<T>(s.k, s.n, 2), s.k, s.n, s.kb, s.nb, myrow, mycol, nprow, npcol, &br, &bc);
  auto C = local_part(global_matrix<T>(s.m, s.n, 3), s.m, s.n, s.mb, s.nb, myrow, mycol, nprow, npcol, &cr, &cc);
  trnblasMpMatrixDescriptor_t da, db, dc;
  trnblasMpMatrixDescriptorCreate(s.m, s.k, s.mb, s.kb, 0, 0, std::max(ar, 1), type, grid, &da);
  trnblasMpMatrixDescriptorCreate(s.k, s.n, s.kb, s.nb, 0, 0, std::max(br, 1), type, grid, &db);
  trnblasMpMatrixDescriptorCreate(s.m, s.n, s.mb, s.nb, 0, 0, std::max(cr, 1), type, grid, &dc);
  const trnblasComputeType_t ct = fp64 ? TRNBLAS_COMPUTE_64F : TRNBLAS_COMPUTE_32F;
  size_t wd = 0, wh = 0;
  *status = trnblasMpGemm_bufferSize(h, TRNBLAS_OP_N, TRNBLAS_OP_N, s.m, s.n, s.k, &alpha, A.data(), 1, 1, da, B.data(),
                                     1, 1, db, &beta, C.data(), 1, 1, dc, ct, &wd, &wh);
  std::vector<char> work(wd);
  if (*status == TRNBLASMP_STATUS_SUCCESS)
    *status = trnblasMpGemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, s.m, s.n, s.k, &alpha, A.data(), 1, 1, da, B.data(), 1, 1, db,
                            &beta, C.data(), 1, 1, dc, ct, work.data(), wd, nullptr, 0);
  if (plan != nullptr) {
    char text[2048];
    trnblasMpGetLastPlan(h, text, sizeof text);
    *plan = text;
  }
  if (prof != nullptr) trnblasMpGetLastProfile(h, prof);
  for (auto d : {da, db, dc}) trnblasMpMatrixDescriptorDestroy(d);
  trnblasMpGridDestroy(grid);
  trnblasMpDestroy(h);
  C.resize(static_cast<std::size_t>(cr) * cc);
  return C;
}

// ScaLAPACK on the same grid (BLACS column-major order, as TRNBLASMP_GRID_LAYOUT_COL_MAJOR).
template <class T>
std::vector<T> run_scalapack(int nprow, int npcol, const Shape& s, T alpha, T beta, std::vector<T>* abs_bound) {
  int ctxt = 0, pr = 0, pc = 0, myrow = 0, mycol = 0, info = 0;
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "C", nprow, npcol);
  Cblacs_gridinfo(ctxt, &pr, &pc, &myrow, &mycol);
  check(myrow == g_rank % nprow && mycol == g_rank / nprow, "BLACS 'C' order is the column-major grid layout");
  int ar, ac, br, bc, cr, cc;
  const auto gA = global_matrix<T>(s.m, s.k, 1), gB = global_matrix<T>(s.k, s.n, 2), gC = global_matrix<T>(s.m, s.n, 3);
  auto A = local_part(gA, s.m, s.k, s.mb, s.kb, myrow, mycol, nprow, npcol, &ar, &ac);
  auto B = local_part(gB, s.k, s.n, s.kb, s.nb, myrow, mycol, nprow, npcol, &br, &bc);
  auto C = local_part(gC, s.m, s.n, s.mb, s.nb, myrow, mycol, nprow, npcol, &cr, &cc);
  // The elementwise bound's scale |alpha| |A| |B| + |beta| |C| (fp64 loop over the global matrices).
  std::vector<double> scale(static_cast<std::size_t>(s.m) * s.n);
  for (int j = 0; j < s.n; ++j)
    for (int i = 0; i < s.m; ++i) {
      double t = 0;
      for (int p = 0; p < s.k; ++p)
        t += std::fabs(static_cast<double>(gA[i + static_cast<std::size_t>(p) * s.m])) *
             std::fabs(static_cast<double>(gB[p + static_cast<std::size_t>(j) * s.k]));
      scale[i + static_cast<std::size_t>(j) * s.m] =
          std::fabs(static_cast<double>(alpha)) * t + std::fabs(static_cast<double>(beta)) * std::fabs(gC[i + static_cast<std::size_t>(j) * s.m]);
    }
  int l1, l2;
  const auto ls = local_part(scale, s.m, s.n, s.mb, s.nb, myrow, mycol, nprow, npcol, &l1, &l2);
  abs_bound->assign(ls.begin(), ls.end());
  const int zero = 0, one = 1;
  int desca[9], descb[9], descc[9];
  const int lda = std::max(ar, 1), ldb = std::max(br, 1), ldc = std::max(cr, 1);
  descinit_(desca, &s.m, &s.k, &s.mb, &s.kb, &zero, &zero, &ctxt, &lda, &info);
  descinit_(descb, &s.k, &s.n, &s.kb, &s.nb, &zero, &zero, &ctxt, &ldb, &info);
  descinit_(descc, &s.m, &s.n, &s.mb, &s.nb, &zero, &zero, &ctxt, &ldc, &info);
  if constexpr (sizeof(T) == 8)
    pdgemm_("N", "N", &s.m, &s.n, &s.k, &alpha, A.data(), &one, &one, desca, B.data(), &one, &one, descb, &beta, C.data(),
            &one, &one, descc);
  else
    psgemm_("N", "N", &s.m, &s.n, &s.k, &alpha, A.data(), &one, &one, desca, B.data(), &one, &one, descb, &beta, C.data(),
            &one, &one, descc);
  Cblacs_gridexit(ctxt);
  C.resize(static_cast<std::size_t>(cr) * cc);
  abs_bound->resize(C.size());
  return C;
}


// Against ScaLAPACK: |C - C_ref| <= (k + 2) u (|alpha| |A| |B| + |beta| |C0|) elementwise, u the
// format's unit roundoff times 2 (both results carry their own rounding; docs/scale-out.md).
template <class T>
void test_against_scalapack(const Shape& s) {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  const T alpha = static_cast<T>(1.5), beta = static_cast<T>(-0.5);
  trnblasMpStatus_t st;
  std::string plan;
  trnProfile_t prof{};
  const auto C = run_trnblasmp<T>(MPI_COMM_WORLD, nprow, npcol, s, alpha, beta, &st, &plan, &prof);
  check_all_ranks(st, TRNBLASMP_STATUS_SUCCESS, "gemm status");
  std::vector<T> bound;
  const auto R = run_scalapack<T>(nprow, npcol, s, alpha, beta, &bound);
  const double u = sizeof(T) == 8 ? std::ldexp(1.0, -52) : std::ldexp(1.0, -23);
  double worst = 0;
  for (std::size_t i = 0; i < R.size() && i < C.size(); ++i) {
    const double err = std::fabs(static_cast<double>(C[i]) - static_cast<double>(R[i]));
    const double lim = (s.k + 2) * u * static_cast<double>(bound[i]);
    worst = std::max(worst, lim > 0 ? err / lim : err);
  }
  check(C.size() == R.size(), "local C sizes match ScaLAPACK's");
  check(worst <= 1.0, std::string(sizeof(T) == 8 ? "pdgemm" : "psgemm") + " bound: worst error / bound = " + std::to_string(worst));
  if (g_rank == 0)
    std::printf("%s %dx%dx%d on %dx%d: worst error / bound %.3g\n  %s\n", sizeof(T) == 8 ? "fp64" : "fp32", s.m, s.n, s.k,
                nprow, npcol, worst, plan.c_str());
  check(prof.total_ns > 0, "the rank's profile has a modeled time");
}

// One rank's call on the whole problem (a 1 x 1 grid over MPI_COMM_SELF) equals trnblas's GEMM bit
// for bit; the distributed call's local blocks equal that result's (the same K panels).
template <class T>
void test_bits(const Shape& s) {
  const T alpha = static_cast<T>(0.75), beta = static_cast<T>(2.0);
  trnblasMpStatus_t st;
  const auto one = run_trnblasmp<T>(MPI_COMM_SELF, 1, 1, s, alpha, beta, &st);
  check(st == TRNBLASMP_STATUS_SUCCESS, "1-rank gemm status");
  auto A = global_matrix<T>(s.m, s.k, 1), B = global_matrix<T>(s.k, s.n, 2), C = global_matrix<T>(s.m, s.n, 3);
  trnblasHandle_t h;
  trnblasCreate(&h);
  trnblasStatus_t bst;
  if constexpr (sizeof(T) == 8)
    bst = trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, s.m, s.n, s.k, &alpha, A.data(), s.m, B.data(), s.k, &beta, C.data(), s.m);
  else
    bst = trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, s.m, s.n, s.k, &alpha, A.data(), s.m, B.data(), s.k, &beta, C.data(), s.m);
  trnblasDestroy(h);
  check(bst == TRNBLAS_STATUS_SUCCESS, "trnblas gemm status");
  check(one.size() == C.size() && std::memcmp(one.data(), C.data(), C.size() * sizeof(T)) == 0,
        std::string("1-rank trnblasMp == trnblas bits (") + (sizeof(T) == 8 ? "fp64" : "fp32") + ")");
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  const auto dist = run_trnblasmp<T>(MPI_COMM_WORLD, nprow, npcol, s, alpha, beta, &st);
  int lr, lc;
  const auto mine = local_part(one, s.m, s.n, s.mb, s.nb, g_rank % nprow, g_rank / nprow, nprow, npcol, &lr, &lc);
  check(dist.size() == static_cast<std::size_t>(lr) * lc &&
            std::memcmp(dist.data(), mine.data(), dist.size() * sizeof(T)) == 0,
        std::string("distributed bits == 1-rank bits on a ") + std::to_string(nprow) + "x" + std::to_string(npcol) + " grid");
}

// Bad input: every rank returns the same status, none hangs or aborts.
void test_bad_input() {
  trnblasMpGrid_t grid = nullptr;
  // A grid that does not match the communicator's size.
  check_all_ranks(trnblasMpGridCreate(g_size + 1, 1, TRNBLASMP_GRID_LAYOUT_COL_MAJOR, MPI_COMM_WORLD, &grid),
                  TRNBLASMP_STATUS_INVALID_VALUE, "grid larger than the communicator");
  // Ranks disagreeing on the grid shape (rank 0 asks for 1 x P, the others for P x 1).
  if (g_size > 1) {
    const int64_t r = g_rank == 0 ? 1 : g_size, c = g_rank == 0 ? g_size : 1;
    check_all_ranks(trnblasMpGridCreate(r, c, TRNBLASMP_GRID_LAYOUT_COL_MAJOR, MPI_COMM_WORLD, &grid),
                    TRNBLASMP_STATUS_INVALID_VALUE, "ranks disagreeing on the grid");
  }
  check_all_ranks(trnblasMpGridCreate(1, g_size, static_cast<trnblasMpGridLayout_t>(7), MPI_COMM_WORLD, &grid),
                  TRNBLASMP_STATUS_INVALID_VALUE, "bad layout");
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  check_all_ranks(trnblasMpGridCreate(nprow, npcol, TRNBLASMP_GRID_LAYOUT_COL_MAJOR, MPI_COMM_WORLD, &grid),
                  TRNBLASMP_STATUS_SUCCESS, "good grid");
  trnblasMpHandle_t h;
  trnblasMpCreate(&h, nullptr);
  const int m = 40, n = 36, k = 24;
  const int myrow = g_rank % nprow;
  auto lr = [&](int64_t rows, int64_t mb) { return std::max<int64_t>(1, trnblasMpNumroc(rows, mb, myrow, 0, nprow)); };
  std::vector<float> A(4096), B(4096), C(4096), work(1 << 16);
  const float alpha = 1, beta = 0;
  // Rank 0's A descriptor has another row block than the other ranks'.
  const int64_t mb_a = (g_rank == 0 && g_size > 1) ? 8 : 16;
  trnblasMpMatrixDescriptor_t da, db, dc, da_bad_m;
  trnblasMpMatrixDescriptorCreate(m, k, mb_a, 8, 0, 0, lr(m, mb_a), TRN_R_32F, grid, &da);
  trnblasMpMatrixDescriptorCreate(k, n, 8, 16, 0, 0, lr(k, 8), TRN_R_32F, grid, &db);
  trnblasMpMatrixDescriptorCreate(m, n, 16, 16, 0, 0, lr(m, 16), TRN_R_32F, grid, &dc);
  trnblasMpMatrixDescriptorCreate(m + 1, k, 16, 8, 0, 0, lr(m + 1, 16), TRN_R_32F, grid, &da_bad_m);
  auto gemm = [&](trnblasMpHandle_t hh, trnblasOperation_t ta, int64_t mm, trnblasMpMatrixDescriptor_t a, size_t ws) {
    return trnblasMpGemm(hh, ta, TRNBLAS_OP_N, mm, n, k, &alpha, A.data(), 1, 1, a, B.data(), 1, 1, db, &beta, C.data(),
                         1, 1, dc, TRNBLAS_COMPUTE_32F, work.data(), ws, nullptr, 0);
  };
  const size_t ws = work.size() * sizeof(float);
  const int want_blocks = g_size > 1 ? TRNBLASMP_STATUS_INVALID_VALUE : TRNBLASMP_STATUS_SUCCESS;
  check_all_ranks(gemm(h, TRNBLAS_OP_N, m, da, ws), want_blocks, "descriptors inconsistent across ranks (mb of A)");
  trnblasMpMatrixDescriptor_t da_good;
  trnblasMpMatrixDescriptorCreate(m, k, 16, 8, 0, 0, lr(m, 16), TRN_R_32F, grid, &da_good);
  check_all_ranks(gemm(h, TRNBLAS_OP_N, m, da_good, ws), TRNBLASMP_STATUS_SUCCESS, "consistent descriptors");
  check_all_ranks(gemm(h, TRNBLAS_OP_N, g_rank == 0 ? m + 1 : m, g_rank == 0 ? da_bad_m : da_good, ws),
                  TRNBLASMP_STATUS_INVALID_VALUE, "m (and A) differing on rank 0");
  // Arguments each rank finds valid but the ranks do not share: only the exchange sees them.
  const float alpha_r = g_rank == 0 ? 1.0f : 2.0f;
  check_all_ranks(trnblasMpGemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha_r, A.data(), 1, 1, da_good, B.data(), 1, 1, db,
                                &beta, C.data(), 1, 1, dc, TRNBLAS_COMPUTE_32F, work.data(), ws, nullptr, 0),
                  g_size > 1 ? TRNBLASMP_STATUS_INVALID_VALUE : TRNBLASMP_STATUS_SUCCESS, "alpha differing across ranks");
  check_all_ranks(gemm(g_rank == g_size - 1 ? nullptr : h, TRNBLAS_OP_N, m, da_good, ws), TRNBLASMP_STATUS_NOT_INITIALIZED,
                  "a NULL handle on the last rank");
  check_all_ranks(trnblasMpGemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), 2, 1, da_good, B.data(), 1, 1, db,
                                &beta, C.data(), 1, 1, dc, TRNBLAS_COMPUTE_32F, work.data(), ws, nullptr, 0),
                  TRNBLASMP_STATUS_NOT_SUPPORTED, "a submatrix (ia = 2)");
  check_all_ranks(gemm(h, static_cast<trnblasOperation_t>(3), m, da_good, ws), TRNBLASMP_STATUS_INVALID_VALUE, "op 3");
  check_all_ranks(gemm(h, TRNBLAS_OP_N, m, da_good, g_rank == 0 ? 4 : ws), TRNBLASMP_STATUS_INVALID_VALUE,
                  "workspace too small on rank 0");
  check_all_ranks(gemm(h, TRNBLAS_OP_N, m, db, ws), TRNBLASMP_STATUS_INVALID_VALUE, "A's descriptor of the wrong shape");
  // Descriptor creation is local: its own argument checks.
  trnblasMpMatrixDescriptor_t d = nullptr;
  check(trnblasMpMatrixDescriptorCreate(m, n, 0, 16, 0, 0, 64, TRN_R_32F, grid, &d) == TRNBLASMP_STATUS_INVALID_VALUE, "mb = 0");
  check(trnblasMpMatrixDescriptorCreate(m, n, 16, 16, nprow, 0, 64, TRN_R_32F, grid, &d) == TRNBLASMP_STATUS_INVALID_VALUE,
        "rsrc out of the grid");
  check(trnblasMpMatrixDescriptorCreate(m, n, 16, 16, 0, 0, 0, TRN_R_32F, grid, &d) == TRNBLASMP_STATUS_INVALID_VALUE, "lld = 0");
  check(trnblasMpMatrixDescriptorCreate(m, n, 16, 16, 0, 0, 64, TRN_R_16F, grid, &d) == TRNBLASMP_STATUS_INVALID_VALUE, "16F type");
  check(trnblasMpMatrixDescriptorCreate(m, n, 16, 16, 0, 0, 64, TRN_R_32F, nullptr, &d) == TRNBLASMP_STATUS_INVALID_VALUE,
        "NULL grid");
  for (auto x : {da, db, dc, da_bad_m, da_good}) trnblasMpMatrixDescriptorDestroy(x);
  check(trnblasMpMatrixDescriptorDestroy(da) == TRNBLASMP_STATUS_INVALID_VALUE, "double destroy");
  trnblasMpGridDestroy(grid);
  trnblasMpDestroy(h);
}

// NUMROC against ScaLAPACK's.
void test_numroc() {
  for (int n : {0, 1, 7, 64, 100, 129})
    for (int nb : {1, 8, 32})
      for (int np : {1, 2, 3, 4})
        for (int ip = 0; ip < np; ++ip)
          for (int src = 0; src < np; ++src)
            check(trnblasMpNumroc(n, nb, ip, src, np) == numroc_(&n, &nb, &ip, &src, &np),
                  "numroc " + std::to_string(n) + " " + std::to_string(nb));
}

// The rank's Report: one link record for the exchange and two per panel; the plan's prediction
// against the modeled time of the trace (compute and communication scheduled together).
void test_report() {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  trn::blasmp::Grid g;
  trn::blasmp::grid_create(g, nprow, npcol, trn::blasmp::GridLayout::col_major, MPI_COMM_WORLD);
  const std::int64_t m = 256, n = 256, k = 256, bs = 64;
  trn::blasmp::Descriptor da{m, k, bs, bs, 0, 0, 1, TRN_R_32F, &g}, db{k, n, bs, bs, 0, 0, 1, TRN_R_32F, &g},
      dc{m, n, bs, bs, 0, 0, 1, TRN_R_32F, &g};
  da.lld = std::max<std::int64_t>(1, da.local_rows());
  db.lld = std::max<std::int64_t>(1, db.local_rows());
  dc.lld = std::max<std::int64_t>(1, dc.local_rows());
  std::vector<float> A(static_cast<std::size_t>(da.lld * da.local_cols()), 0.5f), B(static_cast<std::size_t>(db.lld * db.local_cols()), 0.25f),
      C(static_cast<std::size_t>(dc.lld * dc.local_cols()), 1.0f);
  std::vector<char> work(trn::blasmp::gemm_workspace_bytes(da, db, dc, k));
  trn::blasmp::GemmArgs x;
  x.m = m, x.n = n, x.k = k, x.a = A.data(), x.b = B.data(), x.c = C.data(), x.desc_a = &da, x.desc_b = &db, x.desc_c = &dc;
  x.work = work.data(), x.work_bytes = work.size();
  trn::blas::CallReport r;
  trn::blasmp::gemm(trn::blas::Settings{}, x, &r);
  check(r.profile.link_transfers == 3, "one exchange and two allgathers: " + std::to_string(r.profile.link_transfers));
  check(r.profile.cores == trn::hardware_spec(trn::Generation::trn1).cores_per_device, "the rank is one trn1 device (2 cores)");
  check(C[0] == 256 * 0.125f, "C = A B + 0 C: " + std::to_string(C[0]));
  const trn::blasmp::SummaPlan p =
      trn::blasmp::plan_gemm(trn::blas::Settings{}, g, trn::blas::GemmMode::fp32, false, m, n, k, bs, bs, bs, 0.0);
  const double ratio = r.profile.total_ns / p.predicted_ns;
  check(ratio > 0.8 && ratio < 1.25, "predicted vs modeled time ratio " + std::to_string(ratio));
  if (g_size > 1) check(r.profile.link_ns > 0, "link time on a grid of several devices");
  if (g_rank == 0)
    std::printf("report check: modeled %.3f us, plan predicted %.3f us (ratio %.3f), link %.3f us (critical %.3f us)\n",
                r.profile.total_ns * 1e-3, p.predicted_ns * 1e-3, ratio, r.profile.link_ns * 1e-3,
                r.profile.link_critical_ns * 1e-3);
  trn::blasmp::grid_destroy(g);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  test_numroc();
  test_bad_input();
  test_against_scalapack<float>({70, 50, 90, 16, 16, 16});
  test_against_scalapack<double>({70, 50, 90, 16, 16, 16});
  test_bits<float>({64, 48, 80, 16, 16, 16});
  test_bits<double>({64, 48, 80, 16, 16, 16});
  test_report();
  run_level3_tests();
  run_solver_tests();
  int total = 0;
  MPI_Allreduce(&g_failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (g_rank == 0) std::printf("%s: %d failure(s) over %d rank(s)\n", total == 0 ? "PASSED" : "FAILED", total, g_size);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
