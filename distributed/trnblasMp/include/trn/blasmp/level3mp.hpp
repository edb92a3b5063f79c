// trnblasMp beyond the N, N GEMM: redistribution (transposes), GEMM with op T / C, complex types,
// SYRK, GEADD / TRADD and TRSM on the 2-D block-cyclic layout (docs/scale-out.md sections 2.2-2.5).
// Every routine is collective over its descriptors' grid; the C API (trnblasMp.h) exchanges the
// arguments first, so every rank returns the same status.
//
// Algorithms (all built from three pieces: a redistribution, SUMMA (summa.cpp), local tile kernels):
// - redistribute: dst = op(src) between any two block-cyclic layouts of one grid, one MPI_Alltoallv
//   (each rank sends every element to its owner in dst; nothing is reduced, so no bits change).
// - gemm op T / C: the transposed operand is redistributed into the layout the N, N SUMMA needs
//   (rows of op(A) as C's rows, columns of op(B) as C's columns), then SUMMA.
// - syrk: the GEMM alpha op(A) op(A)^T + beta C on a copy of C (op(A)^T redistributed), then the
//   uplo triangle copied back (the other triangle is not touched). The local GEMMs compute the whole
//   square: twice the triangle's flops (documented, in the plan of the GEMM).
// - geadd / tradd: op(A) redistributed into C's layout (no message when op N and the layouts agree),
//   then trnblas's GEAM on each rank's block (VectorE); tradd writes the uplo trapezoid only.
// - trsm: reduced to op(A) X = alpha B with op N on the left (transposes by redistribution; the
//   right side solves op(A)^T X^T = alpha B^T), then a right-looking block substitution over A's
//   diagonal blocks: the column panel of A is broadcast along process rows, the owner process row
//   solves its block row of B with trnblas's TRSM on the diagonal block, the solved block row is
//   broadcast along process columns, and every rank updates the rest of its B with one trnblas GEMM.
//
// Determinism: the order of every element's operations depends on the block sizes and the problem
// only (the K panels of SUMMA, the diagonal blocks of TRSM), never on the grid shape, the rank count
// or the host threads: the same descriptors' block sizes give the same bits on any grid (tested on
// 1, 2 and 4 ranks against the 1 x 1 grid).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "trn/blasmp/blasmp.hpp"

namespace trn::blasmp {

// Bytes of one element of a descriptor type (R_32F 4, R_64F 8, C_32F 8, C_64F 16; 0 otherwise).
std::size_t type_bytes(trnDataType_t t);

// dst = op(src) where op is a copy, a transpose (transpose) and/or a conjugation (conj, complex
// types); src and dst on one grid, of the same type, dst's sizes op(src)'s. One MPI_Alltoallv over
// the grid's communicator, recorded as one link_transfer `name`.
struct Redistribution {
  const Descriptor* src = nullptr;
  const void* a = nullptr;
  const Descriptor* dst = nullptr;
  void* b = nullptr;
  bool transpose = false, conj = false;
};
void redistribute(Generation target, const Redistribution& r, const char* name, Trace& trace);
// A descriptor on g for an m x n matrix of `type` in mb x nb blocks from (rsrc, csrc), lld its local rows.
Descriptor make_descriptor(const Grid& g, std::int64_t m, std::int64_t n, std::int64_t mb, std::int64_t nb,
                           std::int64_t rsrc, std::int64_t csrc, trnDataType_t type);

// The matrices of the routines below and their workspace (the _bufferSize's size): A read and C
// updated (Geadd, Tradd, Syrk), or A read and B solved in place (Trsm; trnsolverMp's Potrs).
struct UpdateOperands {
  const void* a = nullptr;
  const Descriptor* desc_a = nullptr;
  void* c = nullptr;
  const Descriptor* desc_c = nullptr;
};
struct SolveOperands {
  const void* a = nullptr;
  const Descriptor* desc_a = nullptr;
  void* b = nullptr;
  const Descriptor* desc_b = nullptr;
};
struct Workspace {
  void* work = nullptr;
  std::size_t work_bytes = 0;
};

// Workspace (bytes) gemm needs for these arguments: its panels and any redistributed operand.
std::size_t gemm_workspace_bytes(const GemmArgs& args);

// C = alpha op(A) + beta C (geadd), or only C's uplo trapezoid (tradd: upper i <= j, lower i >= j).
struct AddArgs : Scalars, UpdateOperands, Workspace {
  bool trapezoid = false;
  blas::Uplo uplo = blas::Uplo::lower;
  blas::COp op = blas::COp::N;
  std::int64_t m = 0, n = 0;
};
std::string add_mismatch(const AddArgs& args);
std::size_t add_workspace_bytes(const AddArgs& args);
void geadd(const blas::Settings& s, const AddArgs& args, blas::CallReport* report = nullptr);

// C = alpha op(A) op(A)^T + beta C on C's uplo triangle (n x n), op(A) n x k; trans N or T (C: T for
// real types; not for complex ones, whose SYRK has no conjugate). With trans N, A's row blocks are
// C's; with T, A's column blocks are C's column blocks.
struct SyrkArgs : Scalars, UpdateOperands, Workspace {
  blas::Uplo uplo = blas::Uplo::lower;
  blas::COp trans = blas::COp::N;
  std::int64_t n = 0, k = 0;
};
std::string syrk_mismatch(const SyrkArgs& args);
std::size_t syrk_workspace_bytes(const SyrkArgs& args);
void syrk(const blas::Settings& s, const SyrkArgs& args, blas::CallReport* report = nullptr);

// op(A) X = alpha B (left) or X op(A) = alpha B (right), X overwriting B (m x n); A triangular
// (uplo, diag), m x m or n x n. Any block sizes (A is redistributed when its blocks are not B's).
struct TrsmArgs : Scalars, SolveOperands, Workspace {
  blas::Side side = blas::Side::left;
  blas::Uplo uplo = blas::Uplo::lower;
  blas::COp trans = blas::COp::N;
  blas::Diag diag = blas::Diag::non_unit;
  std::int64_t m = 0, n = 0;
};
std::string trsm_mismatch(const TrsmArgs& args);
std::size_t trsm_workspace_bytes(const TrsmArgs& args);
void trsm(const blas::Settings& s, const TrsmArgs& args, blas::CallReport* report = nullptr);

}  // namespace trn::blasmp
