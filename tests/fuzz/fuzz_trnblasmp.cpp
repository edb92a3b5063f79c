// The libFuzzer harness over trnblasMp's C API (distributed/, docs/scale-out.md) on one rank (MPI
// singleton; MPI_COMM_SELF, or MPI_COMM_NULL sometimes): GridCreate with fuzzed shapes and layouts,
// MatrixDescriptorCreate with fuzzed sizes, blocks, sources, leading dimensions and types, Numroc
// against an independent block count, then Gemm_bufferSize / Gemm of small fuzzed sizes, compute
// types, ops, offsets and workspaces. Invariants beyond "no crash, no sanitizer report": statuses are
// cuBLASMp's and follow the documented rules; a failing Gemm writes nothing; a successful fp32/fp64
// Gemm matches an fp64 loop within (k + 2) 2u (|alpha| |A| |B| + |beta| |C|).
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_input.hpp"
#include "trnblasMp.h"

namespace {

using trnfuzz::require;

// Elements of an n-long dimension in nb blocks that process p of np owns (first block on 0), counted
// block by block.
std::int64_t owned(std::int64_t n, std::int64_t nb, std::int64_t p, std::int64_t np) {
  std::int64_t count = 0;
  for (std::int64_t b = 0, start = 0; start < n; ++b, start += nb)
    if (b % np == p) count += std::min(nb, n - start);
  return count;
}

void ensure_mpi() {
  int up = 0;
  MPI_Initialized(&up);
  if (!up) MPI_Init(nullptr, nullptr);
}

template <class T>
void gemm_case(trnfuzz::Input& in, trnblasMpHandle_t h, trnblasMpGrid_t grid) {
  const bool fp64 = sizeof(T) == 8;
  const std::int64_t m = in.size(9, true), n = in.size(9, true), k = in.size(9, true);
  const std::int64_t mb = 1 + in.byte() % 4, nb = 1 + in.byte() % 4, kb = 1 + in.byte() % 4;
  const bool bad_blocks = in.flag(8);
  const trnDataType_t type = fp64 ? TRN_R_64F : TRN_R_32F;
  auto ld = [](std::int64_t r) { return std::max<std::int64_t>(1, r); };
  trnblasMpMatrixDescriptor_t da = nullptr, db = nullptr, dc = nullptr;
  const bool ok_sizes = m >= 0 && n >= 0 && k >= 0 && m <= 9 && n <= 9 && k <= 9;
  if (!ok_sizes) return;
  trnblasMpMatrixDescriptorCreate(m, k, mb, kb, 0, 0, ld(m), type, grid, &da);
  trnblasMpMatrixDescriptorCreate(k, n, bad_blocks ? kb + 1 : kb, nb, 0, 0, ld(k), type, grid, &db);
  trnblasMpMatrixDescriptorCreate(m, n, mb, nb, 0, 0, ld(m), type, grid, &dc);
  std::vector<T> A(static_cast<std::size_t>(ld(m) * ld(k))), B(static_cast<std::size_t>(ld(k) * ld(n))),
      C(static_cast<std::size_t>(ld(m) * ld(n)));
  for (auto& x : A) x = static_cast<T>(static_cast<int>(in.byte() % 9) - 4);
  for (auto& x : B) x = static_cast<T>(static_cast<int>(in.byte() % 9) - 4);
  for (auto& x : C) x = static_cast<T>(static_cast<int>(in.byte() % 9) - 4);
  const std::vector<T> C0 = C;
  const T alpha = static_cast<T>(static_cast<int>(in.byte() % 5) - 2), beta = static_cast<T>(static_cast<int>(in.byte() % 3) - 1);
  const int ta = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_N, TRNBLAS_OP_T}), tb = in.choice({TRNBLAS_OP_N});
  const int ct = in.choice({fp64 ? TRNBLAS_COMPUTE_64F : TRNBLAS_COMPUTE_32F, TRNBLAS_COMPUTE_32F_FAST_16BF});
  const std::int64_t ia = in.flag(10) ? 2 : 1;
  size_t wd = 0, wh = 0;
  const trnblasMpStatus_t bs = trnblasMpGemm_bufferSize(
      h, static_cast<trnblasOperation_t>(ta), static_cast<trnblasOperation_t>(tb), m, n, k, &alpha, A.data(), ia, 1, da,
      B.data(), 1, 1, db, &beta, C.data(), 1, 1, dc, static_cast<trnblasComputeType_t>(ct), &wd, &wh);
  const bool type_ok = fp64 ? (ct == TRNBLAS_COMPUTE_64F) : (ct == TRNBLAS_COMPUTE_32F || ct == TRNBLAS_COMPUTE_32F_FAST_16BF);
  const bool valid = type_ok && ta == TRNBLAS_OP_N && tb == TRNBLAS_OP_N && ia == 1 && !bad_blocks;
  require((bs == TRNBLASMP_STATUS_SUCCESS) == valid, "Gemm_bufferSize status follows the rules");
  const bool short_ws = in.flag(6) && wd > 0;
  std::vector<char> work(wd);
  const trnblasMpStatus_t st = trnblasMpGemm(
      h, static_cast<trnblasOperation_t>(ta), static_cast<trnblasOperation_t>(tb), m, n, k, &alpha, A.data(), ia, 1, da,
      B.data(), 1, 1, db, &beta, C.data(), 1, 1, dc, static_cast<trnblasComputeType_t>(ct), work.data(),
      short_ws ? wd - 1 : wd, nullptr, 0);
  trnfuzz::reach("gemm_rejected", st != TRNBLASMP_STATUS_SUCCESS);
  if (st != TRNBLASMP_STATUS_SUCCESS) {
    require(!valid || short_ws, "a valid Gemm with its workspace succeeds");
    require(std::memcmp(C.data(), C0.data(), C.size() * sizeof(T)) == 0, "a failing Gemm writes nothing");
  } else {
    require(valid && !short_ws, "Gemm succeeded only on valid arguments");
    const double u = fp64 ? std::ldexp(1.0, -52) : (ct == TRNBLAS_COMPUTE_32F ? std::ldexp(1.0, -23) : std::ldexp(1.0, -7));
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i) {
        double ref = 0, mag = 0;
        for (std::int64_t p = 0; p < k; ++p) {
          ref += static_cast<double>(A[i + p * ld(m)]) * static_cast<double>(B[p + j * ld(k)]);
          mag += std::fabs(static_cast<double>(A[i + p * ld(m)]) * static_cast<double>(B[p + j * ld(k)]));
        }
        const double c0 = static_cast<double>(C0[i + j * ld(m)]);
        const double want = static_cast<double>(alpha) * ref + static_cast<double>(beta) * c0;
        const double bound = (k + 2) * 2 * u * (std::fabs(static_cast<double>(alpha)) * mag + std::fabs(static_cast<double>(beta) * c0));
        require(std::fabs(static_cast<double>(C[i + j * ld(m)]) - want) <= bound, "Gemm result within its bound");
      }
    trnfuzz::reach("gemm_ok");
  }
  for (auto d : {da, db, dc}) trnblasMpMatrixDescriptorDestroy(d);
}

}  // namespace

std::vector<trnfuzz::Floor> trnfuzz::floors() { return {{"gemm_ok", 20}, {"gemm_rejected", 10}, {"descriptor_ok", 20}}; }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ensure_mpi();
  trnfuzz::Input in(data, size);
  // Numroc against the block count.
  const std::int64_t rn = in.byte() % 40, rnb = 1 + in.byte() % 7, rnp = 1 + in.byte() % 4, rp = in.byte() % rnp;
  require(trnblasMpNumroc(rn, rnb, static_cast<uint32_t>(rp), 0, static_cast<uint32_t>(rnp)) == owned(rn, rnb, rp, rnp), "numroc");
  // A grid: the communicator has one rank, so only 1 x 1 with a valid layout is accepted.
  const std::int64_t nprow = in.size(2, true), npcol = in.size(2, true);
  const int layout = in.choice({TRNBLASMP_GRID_LAYOUT_COL_MAJOR, TRNBLASMP_GRID_LAYOUT_ROW_MAJOR});
  const bool null_comm = in.flag(16);
  trnblasMpGrid_t grid = nullptr;
  const trnblasMpStatus_t gs = trnblasMpGridCreate(nprow, npcol, static_cast<trnblasMpGridLayout_t>(layout),
                                                   null_comm ? MPI_COMM_NULL : MPI_COMM_SELF, &grid);
  const bool grid_ok = !null_comm && nprow == 1 && npcol == 1 && (layout == 0 || layout == 1);
  require((gs == TRNBLASMP_STATUS_SUCCESS) == grid_ok, "GridCreate status follows the rules");
  if (!grid_ok) return 0;
  // A descriptor of fuzzed arguments.
  const std::int64_t m = in.size(40, true), n = in.size(40, true), mb = in.size(8, true), nb = in.size(8, true);
  const std::int64_t rsrc = in.size(1, true), csrc = in.size(1, true), lld = in.size(48, true);
  const int type = in.choice({TRN_R_32F, TRN_R_64F, TRN_R_16F});
  trnblasMpMatrixDescriptor_t d = nullptr;
  const trnblasMpStatus_t ds = trnblasMpMatrixDescriptorCreate(m, n, mb, nb, rsrc, csrc, lld,
                                                               static_cast<trnDataType_t>(type), grid, &d);
  const bool d_ok = m >= 0 && n >= 0 && mb >= 1 && nb >= 1 && rsrc == 0 && csrc == 0 && lld >= std::max<std::int64_t>(1, m) &&
                    (type == TRN_R_32F || type == TRN_R_64F);
  require((ds == TRNBLASMP_STATUS_SUCCESS) == d_ok, "MatrixDescriptorCreate status follows the rules");
  trnfuzz::reach("descriptor_ok", d_ok);
  if (d_ok) require(trnblasMpMatrixDescriptorDestroy(d) == TRNBLASMP_STATUS_SUCCESS, "destroy");
  trnblasMpHandle_t h = nullptr;
  require(trnblasMpCreate(&h, nullptr) == TRNBLASMP_STATUS_SUCCESS, "create");
  if (in.flag(2))
    gemm_case<float>(in, h, grid);
  else
    gemm_case<double>(in, h, grid);
  trnblasMpDestroy(h);
  require(trnblasMpGridDestroy(grid) == TRNBLASMP_STATUS_SUCCESS, "grid destroy");
  return 0;
}
