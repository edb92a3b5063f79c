// A rank that dies while the others are in a collective (issue #31, "a rank that dies → the others
// return an error within a timeout rather than hang forever"; docs/scale-out.md section 2, Limits).
// Two ranks create a trnblasMp grid and descriptors; rank 1 then exits without MPI_Finalize while
// rank 0 enters trnblasMpGemm, whose argument exchange would wait for rank 1 forever. What Open MPI
// allows (Debian's 4.1, no ULFM): mpiexec notices the dead process and kills the job, so the job
// ends with an error instead of hanging. dead_rank.sh runs this under `timeout` and requires a
// non-zero exit from mpiexec well before the timeout. Not a gtest program: its exit is the point.
#include <mpi.h>
#include <trnblasMp.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    std::fprintf(stderr, "dead_rank: run on 2 ranks\n");
    MPI_Finalize();
    return 2;
  }
  trnblasMpHandle_t h = nullptr;
  trnblasMpGrid_t grid = nullptr;
  trnblasMpMatrixDescriptor_t da = nullptr, db = nullptr, dc = nullptr;
  const int64_t n = 32, nb = 16;  // 1 x 2 grid: every rank owns n x nb of each matrix
  if (trnblasMpCreate(&h, nullptr) != TRNBLASMP_STATUS_SUCCESS ||
      trnblasMpGridCreate(1, 2, TRNBLASMP_GRID_LAYOUT_COL_MAJOR, MPI_COMM_WORLD, &grid) != TRNBLASMP_STATUS_SUCCESS)
    return 3;
  for (auto* d : {&da, &db, &dc})
    if (trnblasMpMatrixDescriptorCreate(n, n, nb, nb, 0, 0, n, TRN_R_32F, grid, d) != TRNBLASMP_STATUS_SUCCESS) return 3;
  std::vector<float> A(n * nb, 1.0f), B(n * nb, 1.0f), C(n * nb, 0.0f), work(4 * n * n);
  const float alpha = 1.0f, beta = 0.0f;
  MPI_Barrier(MPI_COMM_WORLD);  // both ranks are set up; now one dies
  if (rank == 1) {  // argv[1]: its exit code (0 too: a "successful" exit that skips MPI_Finalize)
    std::fprintf(stderr, "dead_rank: rank 1 exits without MPI_Finalize\n");
    _exit(argc > 1 ? std::atoi(argv[1]) : 7);
  }
  std::fprintf(stderr, "dead_rank: rank 0 enters trnblasMpGemm\n");
  const trnblasMpStatus_t s =
      trnblasMpGemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &alpha, A.data(), 1, 1, da, B.data(), 1, 1, db, &beta, C.data(),
                    1, 1, dc, TRNBLAS_COMPUTE_32F, work.data(), work.size() * sizeof(float), nullptr, 0);
  // Reached only if the exchange returned (an MPI error reported as a status): also an error exit.
  std::fprintf(stderr, "dead_rank: rank 0's Gemm returned %s\n", trnblasMpGetStatusName(s));
  return s == TRNBLASMP_STATUS_SUCCESS ? 0 : 4;
}
