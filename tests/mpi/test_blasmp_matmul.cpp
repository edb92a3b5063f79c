// trnblasMp's Matmul (cuBLASMp's cublasMpMatmul with its matmul descriptor) under MPI, in the
// test_solvermp program (1, 2, 4 ranks): D = alpha op(A) op(B) + beta C equals trnblasMpGemm's C bit for
// bit (D apart from C, and in place), C untouched when D is another matrix; the descriptor's attributes
// read back; an unsupported attribute, a D of another layout and one rank's different op give one
// status on every rank.
#include <cstring>

#include "mpi_util.hpp"
#include "solvermp_util.hpp"
#include "trnblasMp.h"

namespace mpitest {

namespace {

struct BlasApi {
  trnblasMpHandle_t h = nullptr;
  trnblasMpGrid_t grid = nullptr;
  int nprow = 1, npcol = 1, myrow = 0, mycol = 0;
  BlasApi() {
    grid_shape(g_size, &nprow, &npcol);
    myrow = g_rank % nprow, mycol = g_rank / nprow;
    check(trnblasMpCreate(&h, nullptr) == TRNBLASMP_STATUS_SUCCESS, "trnblasMpCreate");
    check_all_ranks(trnblasMpGridCreate(nprow, npcol, TRNBLASMP_GRID_LAYOUT_COL_MAJOR, MPI_COMM_WORLD, &grid),
                    TRNBLASMP_STATUS_SUCCESS, "trnblasMpGridCreate");
  }
  ~BlasApi() {
    trnblasMpGridDestroy(grid);
    trnblasMpDestroy(h);
  }
  trnblasMpMatrixDescriptor_t desc(int m, int n, int nb) const {
    trnblasMpMatrixDescriptor_t d = nullptr;
    const int64_t lld = std::max<int64_t>(1, trnblasMpNumroc(m, nb, static_cast<uint32_t>(myrow), 0, static_cast<uint32_t>(nprow)));
    check(trnblasMpMatrixDescriptorCreate(m, n, nb, nb, 0, 0, lld, TRN_R_64F, grid, &d) == TRNBLASMP_STATUS_SUCCESS, "descriptor");
    return d;
  }
  std::vector<double> piece(int m, int n, int nb, unsigned seed) const {
    int lr, lc;
    return local_part(global_matrix<double>(m, n, seed), m, n, nb, nb, myrow, mycol, nprow, npcol, &lr, &lc);
  }
};

void matmul_equals_gemm() {
  BlasApi api;
  const int m = 40, n = 28, k = 36, nb = 8;
  auto da = api.desc(k, m, nb), db = api.desc(k, n, nb), dc = api.desc(m, n, nb), dd = api.desc(m, n, nb);
  const auto A = api.piece(k, m, nb, 41), B = api.piece(k, n, nb, 42), C0 = api.piece(m, n, nb, 43);
  auto C = C0, D = api.piece(m, n, nb, 44), Cg = C0;
  const double alpha = 0.75, beta = -1.5;
  trnblasMpMatmulDescriptor_t md = nullptr;
  check(trnblasMpMatmulDescriptorCreate(&md, TRNBLAS_COMPUTE_64F) == TRNBLASMP_STATUS_SUCCESS, "MatmulDescriptorCreate");
  const int opT = TRNBLAS_OP_T;
  check(trnblasMpMatmulDescriptorAttributeSet(md, TRNBLASMP_MATMUL_DESCRIPTOR_ATTRIBUTE_TRANSA, &opT, sizeof opT) ==
            TRNBLASMP_STATUS_SUCCESS,
        "AttributeSet TRANSA");
  int got = -1;
  size_t written = 0;
  check(trnblasMpMatmulDescriptorAttributeGet(md, TRNBLASMP_MATMUL_DESCRIPTOR_ATTRIBUTE_TRANSA, &got, sizeof got, &written) ==
                TRNBLASMP_STATUS_SUCCESS && got == TRNBLAS_OP_T && written == sizeof got,
        "AttributeGet TRANSA reads T back");
  check(trnblasMpMatmulDescriptorAttributeGet(md, TRNBLASMP_MATMUL_DESCRIPTOR_ATTRIBUTE_COMPUTE_TYPE, &got, sizeof got, &written) ==
                TRNBLASMP_STATUS_SUCCESS && got == TRNBLAS_COMPUTE_64F,
        "AttributeGet COMPUTE_TYPE reads the created type back");
  check(trnblasMpMatmulDescriptorAttributeSet(md, static_cast<trnblasMpMatmulDescriptorAttribute_t>(5), &opT, sizeof opT) ==
            TRNBLASMP_STATUS_NOT_SUPPORTED,
        "AttributeSet of an attribute trnblasMp does not have -> NOT_SUPPORTED");
  size_t wd = 0, wh = 0;
  check_all_ranks(trnblasMpMatmul_bufferSize(api.h, md, m, n, k, &alpha, A.data(), 1, 1, da, B.data(), 1, 1, db, &beta, C.data(),
                                             1, 1, dc, D.data(), 1, 1, dd, &wd, &wh),
                  TRNBLASMP_STATUS_SUCCESS, "Matmul_bufferSize");
  std::vector<char> work(wd);
  check_all_ranks(trnblasMpMatmul(api.h, md, m, n, k, &alpha, A.data(), 1, 1, da, B.data(), 1, 1, db, &beta, C.data(), 1, 1, dc,
                                  D.data(), 1, 1, dd, work.data(), wd, nullptr, 0),
                  TRNBLASMP_STATUS_SUCCESS, "Matmul");
  trnblasMpGemm_bufferSize(api.h, TRNBLAS_OP_T, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), 1, 1, da, B.data(), 1, 1, db, &beta,
                           Cg.data(), 1, 1, dc, TRNBLAS_COMPUTE_64F, &wd, &wh);
  work.assign(wd, 0);
  check_all_ranks(trnblasMpGemm(api.h, TRNBLAS_OP_T, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), 1, 1, da, B.data(), 1, 1, db, &beta,
                                Cg.data(), 1, 1, dc, TRNBLAS_COMPUTE_64F, work.data(), wd, nullptr, 0),
                  TRNBLASMP_STATUS_SUCCESS, "Gemm");
  int same = D == Cg && C == C0;
  check_all_ranks(same, 1, "Matmul's D equals Gemm's C bit for bit, C untouched");
  // In place (D = C).
  check_all_ranks(trnblasMpMatmul(api.h, md, m, n, k, &alpha, A.data(), 1, 1, da, B.data(), 1, 1, db, &beta, C.data(), 1, 1, dc,
                                  C.data(), 1, 1, dc, work.data(), work.size(), nullptr, 0),
                  TRNBLASMP_STATUS_SUCCESS, "Matmul in place");
  same = C == Cg;
  check_all_ranks(same, 1, "Matmul in place equals Gemm");
  // D of another layout: NOT_SUPPORTED everywhere, D untouched.
  auto de = api.desc(m, n, 4);
  auto E = api.piece(m, n, 4, 45);
  const auto E0 = E;
  check_all_ranks(trnblasMpMatmul(api.h, md, m, n, k, &alpha, A.data(), 1, 1, da, B.data(), 1, 1, db, &beta, C0.data(), 1, 1, dc,
                                  E.data(), 1, 1, de, work.data(), work.size(), nullptr, 0),
                  TRNBLASMP_STATUS_NOT_SUPPORTED, "Matmul: D of another layout -> NOT_SUPPORTED everywhere");
  // One rank's descriptor says op N: the ranks disagree -> INVALID_VALUE everywhere.
  const int opN = TRNBLAS_OP_N;
  if (g_size > 1 && g_rank == g_size - 1) trnblasMpMatmulDescriptorAttributeSet(md, TRNBLASMP_MATMUL_DESCRIPTOR_ATTRIBUTE_TRANSA, &opN, sizeof opN);
  if (g_size > 1)
    check_all_ranks(trnblasMpMatmul(api.h, md, m, n, k, &alpha, A.data(), 1, 1, da, B.data(), 1, 1, db, &beta, C0.data(), 1, 1,
                                    dc, E.data(), 1, 1, dd, work.data(), work.size(), nullptr, 0),
                    TRNBLASMP_STATUS_INVALID_VALUE, "Matmul: one rank's op differs -> INVALID_VALUE everywhere");
  same = E == E0;
  check_all_ranks(same, 1, "failing Matmul calls wrote nothing");
  trnblasMpMatmulDescriptorDestroy(md);
  for (auto d : {da, db, dc, dd, de}) trnblasMpMatrixDescriptorDestroy(d);
  if (g_rank == 0) std::printf("trnblasMp Matmul (op T, D apart and in place) on %dx%d: equals Gemm bit for bit\n", api.nprow, api.npcol);
}

}  // namespace

void run_matmul_tests() { matmul_equals_gemm(); }

}  // namespace mpitest
