// Internal: what every trnblasMp routine runs on its own rank — trnblas's tile kernels on the local
// blocks, typed by the call's Scalars (fp32 / fp64 / complex) — and the workspace carving shared by
// the _bufferSize protocol and the calls (the same function sizes and places the buffers).
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>

#include "trn/blasmp/blasmp.hpp"
#include "trn/core/trace.hpp"

namespace trn::blasmp::detail {

using cd = std::complex<double>;

// The local kernels of one rank: settings of its device (report_trace_only), the call's element
// type and GEMM mode; every kernel's trace is appended to `trace`.
struct Local {
  blas::Settings st;
  Scalars t;
  Trace* trace = nullptr;
};
Local make_local(const blas::Settings& s, const Scalars& t, Trace& trace);

// C = alpha A B + beta C (op N, N; m x n x k; leading dimensions in elements).
void local_gemm(const Local& l, std::int64_t m, std::int64_t n, std::int64_t k, cd alpha, const void* A,
                std::int64_t lda, const void* B, std::int64_t ldb, cd beta, void* C, std::int64_t ldc);
// C = alpha op_a(A) op_b(B) + beta C (m x n x k; real data: C is T).
void local_gemm(const Local& l, blas::COp op_a, blas::COp op_b, std::int64_t m, std::int64_t n, std::int64_t k, cd alpha,
                const void* A, std::int64_t lda, const void* B, std::int64_t ldb, cd beta, void* C, std::int64_t ldc);
// B = alpha op(A)^-1 B (left) or alpha B op(A)^-1 (right), A triangular, B m x n (trnblas's TRSM):
// this rank's piece of a solve with whole_rhs right-hand sides over the grid (n of the left side's,
// m of the right side's on one rank), which chooses trnblas's algorithm (Settings::trsm_whole_rhs)
// so that every grid rounds as the 1 x 1 grid does.
void local_trsm(const Local& l, blas::Side side, blas::Uplo uplo, blas::COp op, blas::Diag diag, std::int64_t m,
                std::int64_t n, std::int64_t whole_rhs, cd alpha, const void* A, std::int64_t lda, void* B,
                std::int64_t ldb);
// C = alpha A + beta B (m x n; C may be B with ldc == ldb).
void local_geam(const Local& l, std::int64_t m, std::int64_t n, cd alpha, const void* A, std::int64_t lda, cd beta,
                const void* B, std::int64_t ldb, void* C, std::int64_t ldc);
// Copies the elements of the local block `from` into `to` (both m_loc x n_loc of descriptor d, lds
// ld_from / ld_to) whose global (i, j) lies in the uplo trapezoid (upper: i <= j, lower: i >= j).
void copy_trapezoid(const Descriptor& d, blas::Uplo uplo, std::size_t es, const void* from, std::int64_t ld_from,
                    void* to, std::int64_t ld_to);

// Hands out 64-byte aligned pieces of a workspace; with base == nullptr it only counts (the
// _bufferSize pass), so one function sizes and places every buffer.
struct Carve {
  char* base = nullptr;
  std::size_t used = 0;
  void* take(std::size_t bytes) {
    used = (used + 63) / 64 * 64;
    void* p = base != nullptr ? base + used : nullptr;
    used += bytes;
    return p;
  }
};
// A local matrix of descriptor d's size (lld * local columns elements of es bytes).
std::size_t local_bytes(const Descriptor& d, std::size_t es);

// The N, N SUMMA of summa.cpp on arguments whose operands already have the SUMMA layout, its
// panels taken from `carve`; appends to trace; returns the plan.
SummaPlan summa(const blas::Settings& s, const GemmArgs& x, Carve& carve, Trace& trace);

// The operands and panels of a GEMM (op T / C operands redistributed), then SUMMA: the body of
// gemm without its checks, exchange record and report (summa.cpp).
SummaPlan gemm_in(const blas::Settings& s, const GemmArgs& x, Carve& carve, Trace& trace);
// The number of workspace bytes `n` occupies at the start of a Carve (64-byte aligned).
inline std::size_t aligned(std::size_t n) { return (n + 63) / 64 * 64; }
// Broadcasts `bytes` at `buf` from process `root` of `comm` (a process row or column, `set`) and
// records the link transfer `name` (sent by the root, received by the others).
void broadcast(MPI_Comm comm, const RankSet& set, int root, int me, void* buf, std::size_t bytes, const char* name,
               Generation target, Trace& trace);

// The link record of a call's argument exchange (the small allreduce the C API makes first).
void record_exchange(const Grid& g, Generation target, const char* name, Trace& trace);

// A distributed routine's report (when report is not null): reset, then modeled from `trace` with
// collective_report_settings(s) -- collective over the trace's communicators (peers.cpp).
void finish_collective(const blas::Settings& s, Trace&& trace, blas::CallReport* report);

// Negates the imaginary half of one complex element of es bytes (8: C_32F, 16: C_64F; else nothing).
void conjugate(char* p, std::size_t es);
// A personalized all-to-all among the devices of `set`: p - 1 steps, this rank's larger direction over
// its ring bandwidth (docs/scale-out.md "Redistribution": an assumption like the other collectives').
double alltoall_ns(const FabricSpec& f, const RankSet& set, double send_bytes, double recv_bytes);

}  // namespace trn::blasmp::detail
